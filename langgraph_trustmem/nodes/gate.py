"""The trust gate: a graph node placed before every model call.

It labels what entered the state unlabelled, and when content from a source
outside the session (a tool, an email, a web page, another participant)
arrives at a level below the session's, it applies the policy: ``fork``
lowers the session (the checkpointer seals the old branch) and removes from
the in-flight state every message above the new level, so the model never
sees both together; ``terminate`` ends the session with a typed error and
the run's content is discarded.

A label's level says who may see the content; its source says where it
came from. Only sources outside the session can degrade it: a public memory
recalled into a personal session is not a threat, an email is.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig

from langgraph_trustmem.errors import ConfigurationError, SessionTerminated
from langgraph_trustmem.trust import DEFAULT_LADDER, Label, Ladder, label, label_of, requested_level

CONFIG_KEY_CHECKPOINTER = "__pregel_checkpointer"
# Sources inside the session: its participant, the model, the user's own
# memories and the app's instructions.
SESSION_SOURCES = frozenset({"user", "model", "memory", "system"})
# Declare a tool at this "level" when its output belongs to the session
# (it reports on the session's own actions, like the remember tool).
SESSION = "session"


def infer_label(
    message: Any, session_level: str, context: list[str], tool_levels: Mapping[str, str], ladder: Ladder
) -> Label:
    """The label of unlabelled content: people speaking in the session take
    its level; a model's reply inherits the highest level of its context
    (taint); a tool's output takes the level declared for that tool, and an
    undeclared tool is untrusted (the lowest level)."""
    if isinstance(message, ToolMessage):
        name = message.name or ""
        declared = tool_levels.get(name, ladder.lowest)
        return Label(session_level if declared == SESSION else declared, f"tool:{name}" if name else "tool")
    if isinstance(message, AIMessage):
        return Label(ladder.join(context) if context else session_level, "model")
    if isinstance(message, (HumanMessage, SystemMessage)):
        return Label(session_level, "user" if isinstance(message, HumanMessage) else "system")
    return Label(ladder.lowest, "unknown")


def saver_of(config: RunnableConfig, checkpointer: Any = None) -> Any:
    """The trust checkpointer running this graph (found in the run's config)."""
    saver = checkpointer or (config.get("configurable") or {}).get(CONFIG_KEY_CHECKPOINTER)
    return saver if saver is not None and hasattr(saver, "degrade") else None


def session_level(config: RunnableConfig, ladder: Ladder, checkpointer: Any = None) -> str:
    """The session's current level: from the trust checkpointer, else the
    run's ``configurable.trust``, else the lowest level."""
    saver = saver_of(config, checkpointer)
    if saver is not None and (config.get("configurable") or {}).get("thread_id") is not None:
        level = saver.cached_level(config)
        if level is None and (s := saver.session(config)) is not None:
            level = s.level
        if level is not None:
            return level
    if saver is None:
        return ladder.lowest  # without a trust checkpointer no session holds a level
    return requested_level(config) or ladder.lowest


def gate_messages(
    messages: list[Any],
    level: str,
    *,
    ladder: Ladder,
    tool_levels: Mapping[str, str],
    session_sources: Collection[str] = SESSION_SOURCES,
) -> tuple[str, list[Any]]:
    """The pure core of the gate: the session level after these messages,
    and the update that labels the unlabelled and removes what is above it."""
    rank = ladder.rank(level)
    labelled: list[tuple[Any, Label, bool]] = []
    context: list[str] = []
    for m in messages:
        lab = label_of(m)
        fresh = lab is None
        if lab is None:
            lab = infer_label(m, level, context, tool_levels, ladder)
        elif lab.level not in ladder:  # a label this ladder does not know: fail closed
            lab = Label(ladder.highest, lab.source)
        labelled.append((m, lab, fresh))
        context.append(lab.level)
    outside = [ladder.rank(lab.level) for _, lab, _ in labelled if lab.source not in session_sources]
    new_rank = min([rank, *outside])
    update: list[Any] = []
    for m, lab, fresh in labelled:
        if ladder.rank(lab.level) > new_rank:
            update.append(_withhold(m, ladder.name(new_rank), ladder))
        elif fresh:
            copy = m.model_copy(update={"additional_kwargs": dict(m.additional_kwargs)})
            update.append(label(copy, lab.level, source=lab.source, ladder=ladder))
    return ladder.name(new_rank), update


WITHHELD = "Withheld: this content is above the trust level of this conversation."


def _withhold(message: Any, level: str, ladder: Ladder) -> Any:
    """What replaces a message above the session's level. Tool calls and
    their results keep their pairing (providers reject a history without
    it) but lose their content; anything else is removed."""
    if isinstance(message, ToolMessage):
        stub = ToolMessage(WITHHELD, tool_call_id=message.tool_call_id, name=message.name, id=message.id)
    elif isinstance(message, AIMessage) and message.tool_calls:
        calls = [{"name": c["name"], "args": {}, "id": c["id"]} for c in message.tool_calls]
        stub = AIMessage("", tool_calls=calls, id=message.id)
    else:
        return RemoveMessage(id=message.id)
    return label(stub, level, source="system", ladder=ladder)


def make_trust_gate(
    *,
    tool_levels: Mapping[str, str] | None = None,
    policy: Literal["fork", "terminate"] = "fork",
    messages_key: str = "messages",
    levels: Ladder | None = None,
    checkpointer: Any = None,
    session_sources: Collection[str] = SESSION_SOURCES,
):
    """Build the gate node. ``tool_levels`` maps tool names to the level of
    what they return; tools not listed are untrusted. ``session_sources``
    are the label sources that belong to the session and never degrade it."""
    if policy not in ("fork", "terminate"):
        raise ConfigurationError("policy must be 'fork' or 'terminate'")
    ladder = levels or DEFAULT_LADDER
    declared = dict(tool_levels or {})
    for lv in declared.values():
        if lv != SESSION:
            ladder.rank(lv)
    sources = frozenset(session_sources) | {f"tool:{t}" for t, lv in declared.items() if lv == SESSION}

    def trust_gate(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        saver = saver_of(config, checkpointer)
        level = session_level(config, ladder, checkpointer)
        messages = list(state.get(messages_key) or [])
        new_level, update = gate_messages(
            messages, level, ladder=ladder, tool_levels=declared, session_sources=sources
        )
        if new_level != level:
            if policy == "terminate":
                if saver is not None:
                    saver.terminate(config)
                raise SessionTerminated("less trusted content entered a session under the terminate policy")
            if saver is not None:
                saver.degrade(config, new_level)
        return {messages_key: update} if update else {}

    trust_gate.__name__ = "trust_gate"
    return trust_gate


__all__ = [
    "SESSION",
    "SESSION_SOURCES",
    "gate_messages",
    "infer_label",
    "make_trust_gate",
    "saver_of",
    "session_level",
]
