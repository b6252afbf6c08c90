"""The recall node: memories for the latest user turn, at the session's level,
injected once.

The store applies the running session's level to the search, so nothing
above it is recalled. Each memory enters the history once, as a labelled
message that names the memory and its version; it is injected again only
when it changed. The history carries it from then on (the checkpointer
keeps it encrypted), so a 50-turn session pays for a memory once instead of
fifty times, and the label's level taints the model's replies.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import orjson
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.trust import LABEL_KEY, label

MEMORY_SOURCE = "memory"
TAINTED_MEMORY_SOURCE = "memory:tainted"
TRUSTED = "trusted"


def fill_namespace(template: Sequence[str], config: RunnableConfig) -> tuple[str, ...]:
    """A namespace template with ``{user_id}``-style fields from the run's
    ``configurable``."""
    conf = config.get("configurable") or {}
    out = []
    for part in template:
        if part.startswith("{") and part.endswith("}"):
            value = conf.get(part[1:-1])
            if value is None:
                raise ConfigurationError(
                    "the memory namespace needs a configurable value the run did not give"
                )
            out.append(str(value))
        else:
            out.append(part)
    return tuple(out)


def memory_text(value: Mapping[str, Any]) -> str:
    """How a stored value reads to the model."""
    for field in ("text", "content", "memory", "fact"):
        if isinstance(value.get(field), str):
            return value[field]
    return orjson.dumps(value).decode()


def memory_id(namespace: Sequence[str], key: str) -> str:
    """A short name for a memory inside the (encrypted) history."""
    return hashlib.sha256(orjson.dumps([list(namespace), key])).hexdigest()[:16]


def injected(messages: Sequence[Any]) -> dict[str, str]:
    """Memories already in the history: memory id -> version."""
    out = {}
    for m in messages:
        meta = (getattr(m, "additional_kwargs", None) or {}).get(LABEL_KEY) or {}
        if isinstance(meta.get("memory"), Mapping):
            out[meta["memory"]["id"]] = meta["memory"]["version"]
    return out


def latest_user_text(messages: Sequence[Any]) -> str | None:
    for m in reversed(messages):
        if isinstance(m, HumanMessage):
            text = (
                m.content
                if isinstance(m.content, str)
                else " ".join(p.get("text", "") for p in m.content if isinstance(p, dict))
            )
            return text or None
    return None


def make_recall_node(
    store: Any = None,
    *,
    namespace: Sequence[str] = ("memories", "{user_id}"),
    limit: int = 5,
    min_score: float | None = None,
    messages_key: str = "messages",
    role: Literal["system", "human"] = "system",
    render: Callable[[Mapping[str, Any]], str] = memory_text,
):
    """Build the recall node. ``store`` defaults to the graph's store
    (``get_store()``); ``namespace`` is filled from ``configurable``."""
    if role not in ("system", "human"):
        raise ConfigurationError("role must be 'system' or 'human'")

    def _messages(hits: Sequence[Any], state_messages: Sequence[Any]) -> list[BaseMessage]:
        seen = injected(state_messages)
        new: list[BaseMessage] = []
        for item in hits:
            if min_score is not None and item.score is not None and item.score < min_score:
                continue
            mid, version = memory_id(item.namespace, item.key), item.updated_at.isoformat()
            if seen.get(mid) == version:
                continue
            text = f"Memory: {render(item.value)}"
            mid_msg = str(uuid.uuid4())
            level = item.label.level if hasattr(item, "label") else None
            if level is None:
                continue  # a store without labels cannot say who may see this
            # a memory a tainted session wrote is outside content: never the
            # system role, and its source degrades (or taints) the session
            tainted = getattr(item, "integrity", TRUSTED) != TRUSTED
            msg = (
                SystemMessage(text, id=mid_msg)
                if role == "system" and not tainted
                else HumanMessage(text, name="memory", id=mid_msg)
            )
            label(msg, level, source=TAINTED_MEMORY_SOURCE if tainted else MEMORY_SOURCE)
            msg.additional_kwargs[LABEL_KEY]["memory"] = {"id": mid, "version": version}
            new.append(msg)
        return new

    def _target(config: RunnableConfig) -> Any:
        if store is not None:
            return store
        from langgraph.config import get_store

        return get_store()

    def recall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get(messages_key) or [])
        query = latest_user_text(messages)
        if not query:
            return {}
        hits = _target(config).search(fill_namespace(namespace, config), query=query, limit=limit)
        new = _messages(hits, messages)
        return {messages_key: new} if new else {}

    async def arecall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get(messages_key) or [])
        query = latest_user_text(messages)
        if not query:
            return {}
        hits = await _target(config).asearch(fill_namespace(namespace, config), query=query, limit=limit)
        new = _messages(hits, messages)
        return {messages_key: new} if new else {}

    return RunnableLambda(recall, afunc=arecall, name="recall")


__all__ = ["fill_namespace", "injected", "latest_user_text", "make_recall_node", "memory_id", "memory_text"]
