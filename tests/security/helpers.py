"""What the attack tests share: a saver fixture factory and small builders."""

from __future__ import annotations

import uuid

from langchain_core.messages import AIMessage, ToolMessage


def tool_turn(name: str, content: str) -> list:
    """A model's tool call and the tool's (unlabelled) answer, as an input."""
    call_id = f"call-{uuid.uuid4().hex[:8]}"
    return [
        AIMessage("", tool_calls=[{"name": name, "args": {}, "id": call_id}]),
        ToolMessage(content, tool_call_id=call_id, name=name),
    ]


def flat(value) -> str:
    """Every string reachable in a state value, joined (what a model could see)."""
    if isinstance(value, dict):
        return " ".join(flat(v) for v in value.values())
    if isinstance(value, (list, tuple, set)):
        return " ".join(flat(v) for v in value)
    if hasattr(value, "content"):
        return str(value.content) + " " + flat(getattr(value, "tool_calls", []))
    return "" if value is None else str(value)
