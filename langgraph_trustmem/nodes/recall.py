"""The recall node: memories for the latest user turn, at the session's level,
injected once, where every provider accepts them.

The store applies the running session's level to the search, so nothing
above it is recalled. Trusted memories live in one system message, placed
right after the conversation's leading system messages; it names each
memory and its version and is rewritten in place when one is added or
changes, so a 50-turn session pays for a memory once instead of fifty times
and the label's level taints the model's replies. A memory a tainted
session wrote is outside content: it enters as a user-role message just
before the user's turn, never with system authority. Either way the user's
turn stays last and no system message sits mid-conversation, the two rules
providers enforce (Anthropic refuses non-consecutive system messages;
custom model nodes read ``messages[-1]``). ``model_messages`` folds the
leading system messages into one for the model call.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import orjson
from langchain_core.messages import BaseMessage, HumanMessage, RemoveMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.trust import DEFAULT_LADDER, LABEL_KEY, Ladder, label, label_of, user_of

MEMORY_SOURCE = "memory"
TAINTED_MEMORY_SOURCE = "memory:tainted"
TRUSTED = "trusted"
# The one system message that holds the trusted memories of a conversation.
MEMORY_BLOCK_ID = "trustmem-memories"


def fill_namespace(template: Sequence[str], config: RunnableConfig) -> tuple[str, ...]:
    """A namespace template with ``{user_id}``-style fields from the run's
    ``configurable`` (``{user_id}`` is the run's user: the Agent Server's
    authenticated user when there is one)."""
    conf = config.get("configurable") or {}
    out = []
    for part in template:
        if part.startswith("{") and part.endswith("}"):
            value = user_of(config) if part == "{user_id}" else conf.get(part[1:-1])
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


def _meta(message: Any) -> Mapping[str, Any]:
    raw = (getattr(message, "additional_kwargs", None) or {}).get(LABEL_KEY)
    return raw if isinstance(raw, Mapping) else {}


def block_entries(messages: Sequence[Any]) -> list[dict[str, str]]:
    """The memories held by the conversation's memory block, in order."""
    for m in messages:
        if getattr(m, "id", None) == MEMORY_BLOCK_ID:
            return [dict(e) for e in _meta(m).get("memories") or [] if isinstance(e, Mapping)]
    return []


def injected(messages: Sequence[Any]) -> dict[str, str]:
    """Memories already in the history: memory id -> version (the block's
    and those carried as their own messages)."""
    out = {e["id"]: e["version"] for e in block_entries(messages) if "id" in e and "version" in e}
    for m in messages:
        meta = _meta(m)
        if isinstance(meta.get("memory"), Mapping):
            out[meta["memory"]["id"]] = meta["memory"]["version"]
    return out


def memory_block(entries: Sequence[Mapping[str, str]], ladder: Ladder = DEFAULT_LADDER) -> SystemMessage:
    """The system message holding these memories, labelled with the highest
    of their levels (whoever sees it sees all of them)."""
    text = "\n".join(f"Memory: {e['text']}" for e in entries)
    msg = SystemMessage(text, id=MEMORY_BLOCK_ID)
    label(msg, ladder.join(e["level"] for e in entries), source=MEMORY_SOURCE, ladder=ladder)
    msg.additional_kwargs[LABEL_KEY]["memories"] = [dict(e) for e in entries]
    return msg


def _is_user_turn(message: Any) -> bool:
    lab = label_of(message)
    return isinstance(message, HumanMessage) and not (lab is not None and lab.source.startswith(MEMORY_SOURCE))


def arrange(messages: Sequence[Any], block: Any, before_turn: Sequence[Any]) -> list[Any]:
    """The conversation with the memory block right after its leading system
    messages and ``before_turn`` just before the latest user turn."""
    out = [m for m in messages if getattr(m, "id", None) != MEMORY_BLOCK_ID]
    if block is not None:
        lead = 0
        while lead < len(out) and isinstance(out[lead], SystemMessage):
            lead += 1
        out.insert(lead, block)
    if before_turn:
        turns = [i for i, m in enumerate(out) if _is_user_turn(m)]
        at = turns[-1] if turns else len(out)
        out[at:at] = list(before_turn)
    return out


def model_messages(
    messages: Sequence[Any], prompt: str | SystemMessage | None = None, *, ladder: Ladder = DEFAULT_LADDER
) -> list[Any]:
    """What the model is called with: ``prompt``, the conversation's leading
    system messages and any memory system message left mid-conversation (by
    an earlier release) folded into one leading system message; the rest in
    order. The folded message keeps the highest label of its parts, so the
    gate's and the saver's view of the call is unchanged."""
    parts: list[Any] = [SystemMessage(prompt) if isinstance(prompt, str) else prompt] if prompt else []
    rest: list[Any] = []
    leading = True
    for m in messages:
        lab = label_of(m)
        memory = lab is not None and lab.source == MEMORY_SOURCE
        if isinstance(m, SystemMessage) and (leading or memory):
            parts.append(m)
        else:
            leading = False
            rest.append(m)
    if not parts:
        return rest
    return [_fold(parts, ladder), *rest]


def _fold(parts: Sequence[Any], ladder: Ladder) -> SystemMessage:
    if len(parts) == 1:
        return parts[0]
    if all(isinstance(p.content, str) for p in parts):
        content: Any = "\n\n".join(p.content for p in parts if p.content)
    else:
        content = [
            block
            for p in parts
            for block in ([{"type": "text", "text": p.content}] if isinstance(p.content, str) else p.content)
        ]
    folded = SystemMessage(content, id=parts[-1].id)
    labels = [lab for p in parts if (lab := label_of(p)) is not None]
    if labels:
        levels = [lab.level if lab.level in ladder else ladder.highest for lab in labels]
        top = ladder.join(levels)
        source = next(lab.source for lab, lv in zip(labels, levels) if lv == top)
        label(folded, top, source=source, ladder=ladder)
    return folded


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

    def _update(hits: Sequence[Any], state_messages: Sequence[Any], ladder: Ladder) -> list[Any]:
        seen = injected(state_messages)
        entries = block_entries(state_messages)
        changed = False
        before_turn: list[BaseMessage] = []
        for item in hits:
            if min_score is not None and item.score is not None and item.score < min_score:
                continue
            mid, version = memory_id(item.namespace, item.key), item.updated_at.isoformat()
            if seen.get(mid) == version:
                continue
            level = item.label.level if hasattr(item, "label") else None
            if level is None:
                continue  # a store without labels cannot say who may see this
            text = render(item.value)
            # a memory a tainted session wrote is outside content: never the
            # system role, and its source degrades (or taints) the session
            tainted = getattr(item, "integrity", TRUSTED) != TRUSTED
            if role == "system" and not tainted:
                entries = [e for e in entries if e.get("id") != mid]
                entries.append({"id": mid, "version": version, "level": level, "text": text})
                changed = True
                continue
            msg = HumanMessage(f"Memory: {text}", name="memory", id=str(uuid.uuid4()))
            label(msg, level, source=TAINTED_MEMORY_SOURCE if tainted else MEMORY_SOURCE, ladder=ladder)
            msg.additional_kwargs[LABEL_KEY]["memory"] = {"id": mid, "version": version}
            before_turn.append(msg)
        if not changed and not before_turn:
            return []
        block = memory_block(entries, ladder) if changed else _current_block(state_messages)
        arranged = arrange(state_messages, block, before_turn)
        at = next((i for i, m in enumerate(state_messages) if getattr(m, "id", None) == MEMORY_BLOCK_ID), None)
        if not before_turn and at is not None and arranged[at] is block:
            return [block]  # the block changed where it stands: replaced in place
        # anything else moves messages, which the messages reducer only does
        # by rewriting the list
        return [RemoveMessage(id=REMOVE_ALL_MESSAGES), *arranged]

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
        target = _target(config)
        hits = target.search(fill_namespace(namespace, config), query=query, limit=limit)
        update = _update(hits, messages, getattr(target, "ladder", DEFAULT_LADDER))
        return {messages_key: update} if update else {}

    async def arecall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get(messages_key) or [])
        query = latest_user_text(messages)
        if not query:
            return {}
        target = _target(config)
        hits = await target.asearch(fill_namespace(namespace, config), query=query, limit=limit)
        update = _update(hits, messages, getattr(target, "ladder", DEFAULT_LADDER))
        return {messages_key: update} if update else {}

    return RunnableLambda(recall, afunc=arecall, name="recall")


def _current_block(messages: Sequence[Any]) -> Any:
    return next((m for m in messages if getattr(m, "id", None) == MEMORY_BLOCK_ID), None)


__all__ = [
    "MEMORY_BLOCK_ID",
    "arrange",
    "block_entries",
    "fill_namespace",
    "injected",
    "latest_user_text",
    "make_recall_node",
    "memory_block",
    "memory_id",
    "memory_text",
    "model_messages",
]
