"""The recall node: the memories relevant to the latest user turn, at the
session's level, given for that turn, where every provider accepts them.

The store applies the running session's level to the search, so nothing
above it is recalled. Trusted memories live in one system message, placed
right after the conversation's leading system messages; it holds only the
current turn's relevant memories and is rewritten in place when they
change (never when they do not: the node then writes nothing). Keeping every memory ever recalled in the history made a 50-turn
session send each of them on every later call: 4.7x the tokens of putting
the turn's top 5 in the system prompt. Relevance decides what is sent: the
store's scores, corrected for memories that resemble every query (the
packaged static embedder scores some memories high for anything), and cut
at a margin below the best, so a turn gets the few that stand out (3-4
on average in the benchmark's sessions), not always the most allowed. The block's label is the highest level it holds, so
the model's replies are tainted by what they saw.

A memory a tainted session wrote is outside content: it enters once as a
user-role message just before the user's turn, never with system
authority, and stays in the history (as do memories an earlier release
kept as their own messages; the block does not repeat them). Either way
the user's turn stays last and no system message sits mid-conversation,
the two rules providers enforce (Anthropic refuses non-consecutive system
messages; custom model nodes read ``messages[-1]``). ``model_messages``
folds the leading system messages into one for the model call.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import orjson
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, RemoveMessage, SystemMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.nodes.gate import session_level
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
    """Memories in the history: memory id -> version (the block's and those
    carried as their own messages)."""
    out = {e["id"]: e["version"] for e in block_entries(messages) if "id" in e and "version" in e}
    out.update(carried(messages))
    return out


def carried(messages: Sequence[Any]) -> dict[str, str]:
    """Memories the history carries as their own messages (tainted ones,
    ``role="human"`` ones, an earlier release's): they ride along on every
    call already, so the block does not repeat them."""
    out: dict[str, str] = {}
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
        source = next(lab.source for lab, lv in zip(labels, levels, strict=False) if lv == top)
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


def taint_replies(messages: Sequence[Any], ladder: Ladder, fallback: Callable[[], str]) -> dict[str, Any]:
    """Unlabelled model replies labelled with the highest level of what
    preceded them (``fallback()``, the session's level, standing for what
    the gate has not labelled yet), by id: what ``make_post_model_hook``
    does, for graphs without it."""
    out: dict[str, Any] = {}
    context: list[str] = []
    for m in messages:
        lab = label_of(m)
        if lab is None and isinstance(m, AIMessage) and m.id:
            level = ladder.join(context) if context else fallback()
            copy = m.model_copy(update={"additional_kwargs": dict(m.additional_kwargs)})
            out[m.id] = label(copy, level, source="model", ladder=ladder)
            context.append(level)
        elif lab is not None:
            context.append(lab.level if lab.level in ladder else ladder.highest)
        elif not isinstance(m, AIMessage):
            context.append(fallback())  # the gate gives people speaking the session's level
    return out


# Tuned on case 7 of the benchmark (bench/recall_case.py, its focused and
# broad scripts) with the packaged embedder: the search's candidate pool, how
# much of a memory's likeness to all of them is taken off its score, how far
# below the best a memory may score and still be sent, and how many at most.
CANDIDATES = 30
CENTERING = 0.6
MARGIN = 0.165
LIMIT = 6


def reference_query(candidates: Sequence[Any], render: Callable[[Mapping[str, Any]], str]) -> str:
    """The text whose score says how generic each candidate is: all of them
    together (for a static embedder, close to their mean vector)."""
    return "\n".join(render(item.value) for item in candidates)


def select(
    hits: Sequence[Any],
    reference: Sequence[Any] = (),
    *,
    limit: int = LIMIT,
    centering: float = CENTERING,
    margin: float | None = MARGIN,
    min_score: float | None = None,
) -> list[Any]:
    """The memories worth sending for this turn, best first.

    ``hits`` is the store's search for the turn; ``reference`` its search
    for ``reference_query(hits)``. A memory's score minus ``centering``
    times its reference score ranks it: a memory as close to every other
    memory as to the query is generic (a hub of the embedding space) and
    would ride along on every turn. Then at most ``limit``, and only those
    within ``margin`` of the best. ``min_score`` cuts the store's raw score.
    Without scores (a store with no index) the first ``limit`` hits."""
    kept = [h for h in hits if min_score is None or h.score is None or h.score >= min_score]
    if any(h.score is None for h in kept):
        return list(kept[:limit])
    hub = {(tuple(r.namespace), r.key): r.score for r in reference if r.score is not None}
    floor = min(hub.values(), default=0.0)

    def adjusted(h: Any) -> float:
        return h.score - centering * hub.get((tuple(h.namespace), h.key), floor)

    ranked = sorted(kept, key=adjusted, reverse=True)[:limit]
    if not ranked or margin is None:
        return ranked
    best = adjusted(ranked[0])
    return [h for h in ranked if adjusted(h) >= best - margin]


def make_recall_node(
    store: Any = None,
    *,
    namespace: Sequence[str] = ("memories", "{user_id}"),
    limit: int = LIMIT,
    min_score: float | None = None,
    candidates: int = CANDIDATES,
    centering: float = CENTERING,
    margin: float | None = MARGIN,
    messages_key: str = "messages",
    role: Literal["system", "human"] = "system",
    render: Callable[[Mapping[str, Any]], str] = memory_text,
):
    """Build the recall node. ``store`` defaults to the graph's store
    (``get_store()``); ``namespace`` is filled from ``configurable``.

    Each turn the block holds at most ``limit`` memories chosen by
    ``select`` from the store's best ``candidates`` (``centering=0`` skips
    the second search that correction costs; ``margin=None`` keeps the
    ``limit`` best). The defaults were tuned with the packaged embedder;
    with another, measure before relying on them."""
    if role not in ("system", "human"):
        raise ConfigurationError("role must be 'system' or 'human'")
    if limit < 1 or candidates < 1:
        raise ConfigurationError("limit and candidates must be at least 1")
    pool = max(limit, candidates)

    def _wants_reference(hits: Sequence[Any]) -> bool:
        return centering != 0 and len(hits) > 1 and all(h.score is not None for h in hits)

    def _update(
        chosen: Sequence[Any], state_messages: Sequence[Any], ladder: Ladder, fallback: Callable[[], str]
    ) -> list[Any]:
        elsewhere = carried(state_messages)
        entries: list[dict[str, str]] = []
        before_turn: list[BaseMessage] = []
        for item in chosen:
            mid, version = memory_id(item.namespace, item.key), item.updated_at.isoformat()
            if elsewhere.get(mid) == version:
                continue  # the history carries it already
            level = item.label.level if hasattr(item, "label") else None
            if level is None:
                continue  # a store without labels cannot say who may see this
            text = render(item.value)
            # a memory a tainted session wrote is outside content: never the
            # system role, and its source degrades (or taints) the session
            tainted = getattr(item, "integrity", TRUSTED) != TRUSTED
            if role == "system" and not tainted:
                entries.append({"id": mid, "version": version, "level": level, "text": text})
                continue
            msg = HumanMessage(f"Memory: {text}", name="memory", id=str(uuid.uuid4()))
            label(msg, level, source=TAINTED_MEMORY_SOURCE if tainted else MEMORY_SOURCE, ladder=ladder)
            msg.additional_kwargs[LABEL_KEY]["memory"] = {"id": mid, "version": version}
            before_turn.append(msg)
        current = _current_block(state_messages)
        held = {(e.get("id"), e.get("version")) for e in block_entries(state_messages)}
        wanted = {(e["id"], e["version"]) for e in entries}
        unchanged = held == wanted and (current is not None) == bool(entries)
        if unchanged and not before_turn:
            return []  # same memories as the last call: no write
        block = current if unchanged else (memory_block(entries, ladder) if entries else None)
        # a reply not yet labelled is labelled by the gate from what precedes
        # it; once the block changes that is no longer what it saw
        replies = {} if unchanged else taint_replies(state_messages, ladder, fallback)
        if not before_turn:
            if block is None:
                return [RemoveMessage(id=MEMORY_BLOCK_ID), *replies.values()]  # nothing relevant this turn
            at = next((i for i, m in enumerate(state_messages) if m is current), None)
            if at is not None and arrange(state_messages, block, [])[at] is block:
                return [block, *replies.values()]  # the block changed where it stands: replaced in place
        # anything else moves messages, which the messages reducer only does
        # by rewriting the list
        messages = [replies.get(getattr(m, "id", None) or "", m) for m in state_messages]
        return [RemoveMessage(id=REMOVE_ALL_MESSAGES), *arrange(messages, block, before_turn)]

    def _target(config: RunnableConfig) -> Any:
        if store is not None:
            return store
        from langgraph.config import get_store  # noqa: PLC0415

        return get_store()

    def recall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get(messages_key) or [])
        query = latest_user_text(messages)
        if not query:
            return {}
        target = _target(config)
        ns = fill_namespace(namespace, config)
        hits = target.search(ns, query=query, limit=pool)
        reference = (
            target.search(ns, query=reference_query(hits, render), limit=len(hits))
            if _wants_reference(hits)
            else []
        )
        chosen = select(hits, reference, limit=limit, centering=centering, margin=margin, min_score=min_score)
        ladder = getattr(target, "ladder", DEFAULT_LADDER)
        update = _update(chosen, messages, ladder, lambda: session_level(config, ladder))
        return {messages_key: update} if update else {}

    async def arecall(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get(messages_key) or [])
        query = latest_user_text(messages)
        if not query:
            return {}
        target = _target(config)
        ns = fill_namespace(namespace, config)
        hits = await target.asearch(ns, query=query, limit=pool)
        reference = (
            await target.asearch(ns, query=reference_query(hits, render), limit=len(hits))
            if _wants_reference(hits)
            else []
        )
        chosen = select(hits, reference, limit=limit, centering=centering, margin=margin, min_score=min_score)
        ladder = getattr(target, "ladder", DEFAULT_LADDER)
        update = _update(chosen, messages, ladder, lambda: session_level(config, ladder))
        return {messages_key: update} if update else {}

    return RunnableLambda(recall, afunc=arecall, name="recall")


def _current_block(messages: Sequence[Any]) -> Any:
    return next((m for m in messages if getattr(m, "id", None) == MEMORY_BLOCK_ID), None)


__all__ = [
    "CANDIDATES",
    "CENTERING",
    "LIMIT",
    "MARGIN",
    "MEMORY_BLOCK_ID",
    "arrange",
    "block_entries",
    "carried",
    "fill_namespace",
    "injected",
    "latest_user_text",
    "make_recall_node",
    "memory_block",
    "memory_id",
    "memory_text",
    "model_messages",
    "reference_query",
    "select",
    "taint_replies",
]
