"""What the attack tests share: a saver fixture factory and small builders."""

from __future__ import annotations

import uuid

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import label, label_of
from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.nodes import make_trust_gate


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


def gated_chat(saver, secret: str):
    """gate -> model, where the model repeats ``secret`` while its context is
    above public and labels each reply with that context's taint."""

    def model(state):
        taint = saver.ladder.join(lab.level for m in state["messages"] if (lab := label_of(m)))
        said = f"Your value is {secret}" if taint != "public" else "I cannot see that here."
        return {"messages": [label(AIMessage(said), taint, source="model")]}

    b = StateGraph(MessagesState)
    b.add_node("gate", make_trust_gate())
    b.add_node("model", model)
    b.add_edge(START, "gate")
    b.add_edge("gate", "model")
    return b.compile(checkpointer=saver)


def stored(guard, value):
    """What ``Guard.check`` returns for ``value``, checked as ``TrustStore.put`` checks it
    (a namespace and a memory key beside it)."""
    return guard.check(value, namespace=("memories", "u1"), key="mem_5e1f")


def refused_kinds(guard, value) -> tuple[str, ...]:
    """The kinds ``Guard.check`` refuses ``value`` for; the test fails if it is stored."""
    with pytest.raises(SecretRejected) as err:
        stored(guard, value)
    return tuple(err.value.kinds)
