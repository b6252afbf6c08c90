"""The trust gate: a graph node placed before every model call.

It labels what entered the state unlabelled, compares every label with the
session's level and, when content from a less trusted source is present,
applies the policy: ``fork`` lowers the session (the checkpointer seals the
old branch) and removes from the in-flight state every message above the new
level, so the model never sees both together; ``terminate`` ends the session
with a typed error and the run's content is discarded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig

from langgraph_trustmem.errors import ConfigurationError, SessionTerminated
from langgraph_trustmem.trust import DEFAULT_LADDER, Label, Ladder, label, label_of, requested_level

CONFIG_KEY_CHECKPOINTER = "__pregel_checkpointer"


def infer_label(
    message: Any, session_level: str, context: list[str], tool_levels: Mapping[str, str], ladder: Ladder
) -> Label:
    """The label of unlabelled content: people speaking in the session take
    its level; a model's reply inherits the highest level of its context
    (taint); a tool's output takes the level declared for that tool, and an
    undeclared tool is untrusted (the lowest level)."""
    if isinstance(message, ToolMessage):
        name = message.name or ""
        return Label(tool_levels.get(name, ladder.lowest), f"tool:{name}" if name else "tool")
    if isinstance(message, AIMessage):
        return Label(ladder.join(context) if context else session_level, "model")
    if isinstance(message, (HumanMessage, SystemMessage)):
        return Label(session_level, "user" if isinstance(message, HumanMessage) else "system")
    return Label(ladder.lowest, "unknown")


def _saver_of(config: RunnableConfig, checkpointer: Any) -> Any:
    saver = checkpointer or (config.get("configurable") or {}).get(CONFIG_KEY_CHECKPOINTER)
    return saver if saver is not None and hasattr(saver, "degrade") else None


def make_trust_gate(
    *,
    tool_levels: Mapping[str, str] | None = None,
    policy: Literal["fork", "terminate"] = "fork",
    messages_key: str = "messages",
    levels: Ladder | None = None,
    checkpointer: Any = None,
):
    """Build the gate node. ``tool_levels`` maps tool names to the level of
    the content they return; tools not listed are untrusted."""
    if policy not in ("fork", "terminate"):
        raise ConfigurationError("policy must be 'fork' or 'terminate'")
    ladder = levels or DEFAULT_LADDER
    declared = dict(tool_levels or {})
    for lv in declared.values():
        ladder.rank(lv)

    def trust_gate(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        saver = _saver_of(config, checkpointer)
        session = saver.session(config) if saver is not None else None
        session_level = session.level if session else (requested_level(config) or ladder.lowest)
        session_rank = ladder.rank(session_level)
        messages = list(state.get(messages_key) or [])
        labelled: list[tuple[Any, Label, bool]] = []  # message, label, newly labelled
        context: list[str] = []
        for m in messages:
            lab = label_of(m)
            fresh = lab is None
            if fresh:
                lab = infer_label(m, session_level, context, declared, ladder)
            labelled.append((m, lab, fresh))
            context.append(lab.level)
        lowest = min((ladder.rank(lab.level) for _, lab, _ in labelled), default=session_rank)
        if lowest < session_rank:
            if policy == "terminate":
                if saver is not None:
                    saver.terminate(config)
                raise SessionTerminated("less trusted content entered a session under the terminate policy")
            if saver is not None:
                saver.degrade(config, ladder.name(lowest))
            session_rank = lowest
        update: list[Any] = []
        for m, lab, fresh in labelled:
            if ladder.rank(lab.level) > session_rank:
                update.append(RemoveMessage(id=m.id))
            elif fresh:
                copy = m.model_copy(update={"additional_kwargs": dict(m.additional_kwargs)})
                update.append(label(copy, lab.level, source=lab.source, ladder=ladder))
        return {messages_key: update} if update else {}

    trust_gate.__name__ = "trust_gate"
    return trust_gate


__all__ = ["infer_label", "make_trust_gate"]
