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

import functools
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.channels.delta import DeltaChannel
from langgraph.types import Overwrite

from langgraph_trustmem.errors import ConfigurationError, SessionTerminated
from langgraph_trustmem.trust import (
    DEFAULT_LADDER,
    ChannelPolicy,
    Label,
    Ladder,
    Vouch,
    has_content,
    label,
    label_of,
    requested_level,
    saver_of,
)

if TYPE_CHECKING:
    from langgraph_trustmem.checkpoint.base import Session

CONFIG_KEY_READ = "__pregel_read"
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


def current_session(config: RunnableConfig, checkpointer: Any = None) -> Session | None:
    """The thread's session as the trust checkpointer knows it: from its
    cache, else read (a session that left the cache, a pending fork with it);
    None without a trust checkpointer, a thread id, or a started thread."""
    saver = saver_of(config, checkpointer)
    if saver is None or (config.get("configurable") or {}).get("thread_id") is None:
        return None
    session = saver.cached_session(config)
    return session if session is not None else saver.session(config)


def session_level(
    config: RunnableConfig, ladder: Ladder, checkpointer: Any = None, session: Session | None = None
) -> str:
    """The session's current level: from the trust checkpointer (``session``
    when the caller has it already), else the run's ``configurable.trust``,
    else the lowest level."""
    if session is None:
        session = current_session(config, checkpointer)
    if session is not None:
        return session.level
    if saver_of(config, checkpointer) is None:
        return ladder.lowest  # without a trust checkpointer no session holds a level
    return requested_level(config) or ladder.lowest


class GateDecision(NamedTuple):
    """What the gate decides about a conversation: the session's level after
    it, the message update (labels, withheld content) and whether content
    from outside the session is present (the session's integrity)."""

    level: str
    update: list[Any]
    outside: bool
    withheld: bool = False  # content above the level was in the conversation


def gate_messages(
    messages: list[Any],
    level: str,
    *,
    ladder: Ladder,
    tool_levels: Mapping[str, str],
    session_sources: Collection[str] = SESSION_SOURCES,
) -> GateDecision:
    """The pure core of the gate: the session level after these messages,
    and the update that labels the unlabelled and removes what is above it.

    A label's level the ladder does not know is the highest for what it
    reveals (withheld above it) and, on outside content, the lowest for
    what it says about its source (it degrades the session)."""
    rank = ladder.rank(level)
    labelled: list[tuple[Any, Label, bool]] = []
    context: list[str] = []
    outside: list[int] = []
    for m in messages:
        lab = label_of(m)
        fresh = lab is None
        if lab is None:
            lab = infer_label(m, level, context, tool_levels, ladder)
        if lab.source not in session_sources:
            outside.append(ladder.rank(lab.level) if lab.level in ladder else 0)
        if lab.level not in ladder:  # fail closed on what it may reveal
            lab = Label(ladder.highest, lab.source)
        labelled.append((m, lab, fresh))
        context.append(lab.level)
    new_rank = min([rank, *outside])
    update: list[Any] = []
    withheld = False
    for m, lab, fresh in labelled:
        if ladder.rank(lab.level) > new_rank:
            withheld = True
            update.append(_withhold(m, ladder.name(new_rank), ladder))
        elif fresh:
            copy = m.model_copy(update={"additional_kwargs": dict(m.additional_kwargs)})
            update.append(label(copy, lab.level, source=lab.source, ladder=ladder))
    return GateDecision(ladder.name(new_rank), update, bool(outside), withheld)


def _graph_channels(config: RunnableConfig) -> Mapping[str, Any] | None:
    """The running graph's channels, when LangGraph's task reader exposes
    them (to tell reducer channels and managed values apart); else None."""
    read = (config.get("configurable") or {}).get(CONFIG_KEY_READ)
    if isinstance(read, functools.partial) and len(read.args) > 1 and isinstance(read.args[1], Mapping):
        return read.args[1]
    return None


def _whole_state(
    state: Mapping[str, Any], config: RunnableConfig, channels: Mapping[str, Any] | None
) -> dict:
    """The gate's input plus every other state channel of its graph (private
    channels a model node may read through its own input schema), empty
    ones included."""
    full = dict(state)
    if channels is None:
        return full
    hidden = [k for k in channels if k not in full and not k.startswith(("__", "branch:"))]
    if hidden:
        read = (config.get("configurable") or {})[CONFIG_KEY_READ]
        values = read(hidden, False)
        full.update({k: values.get(k) for k in hidden})
    return full


def _dropped(value: Any, channel: Any) -> Any:
    """The write that clears a channel: None, or an empty value that
    overwrites a reducer channel's accumulated one (a DeltaChannel is one:
    its reducer would be handed None)."""
    if isinstance(channel, (BinaryOperatorAggregate, DeltaChannel)):
        if isinstance(value, (list, dict, set, tuple)):
            return Overwrite(type(value)())
        try:
            return Overwrite(channel.typ())
        except Exception:  # a type with no empty value: clear it
            return Overwrite(None)
    return None


def lower_channels(
    state: Mapping[str, Any],
    level: str,
    *,
    ladder: Ladder,
    policies: Mapping[str, ChannelPolicy],
    skip: Collection[str],
    pending: bool,
    channels: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Vouch]]:
    """The state update that leaves no channel above ``level``, and the
    levels the gate vouches for (the saver holds checkpoints to them).

    A channel declared at or below the level is kept; one declared above it
    is always lowered. Any other channel holding content may derive from
    whatever its writer could read, so it is lowered while a fork is pending
    (``pending``: it was written at the session's former level) and whenever
    a declared channel above the level holds content (it may derive from
    that). While lowering, the gate writes every undeclared channel of the
    graph, empty or not: a node running beside it in the same step cannot
    slip a value past it (LangGraph refuses two writes to a plain channel in
    one step, and an overwrite wins over a reducer's other writes). A
    DeltaChannel kept while lowering is overwritten with its own value, so
    the fork's root holds it (a delta channel's value is rebuilt from the
    writes since its last stored value, and the new branch has none before
    its root)."""
    rank = ladder.rank(level)
    update: dict[str, Any] = {}
    stored = [k for k in state if k not in skip and (channels is None or k in channels)]
    # channels only: managed values are computed, not stored
    declared = {k: ladder.rank(p.level) for k, p in policies.items() if p.level is not None}
    pending = pending or any(declared.get(k, -1) > rank and has_content(state[k]) for k in stored)
    # the saver refuses a checkpoint holding a declared channel above its branch's level
    vouched = {key: Vouch(declared=lv) for key, lv in declared.items()}
    for key in stored:
        value = state[key]
        policy = policies.get(key)
        if key in declared and (declared[key] <= rank or not has_content(value)):
            if pending and has_content(value) and channels is not None and isinstance(channels.get(key), DeltaChannel):
                # kept, and written again whole: LangGraph then stores its value in the
                # next checkpoint (the fork's root), where the new branch's replay of the
                # channel's writes starts; otherwise it would start empty
                update[key] = Overwrite(value)
            continue
        if key not in declared and not pending:
            continue
        how = policy.lower if policy is not None else "drop"
        if how == "drop":
            new = _dropped(value, channels.get(key) if channels is not None else None)
        elif how == "reset":
            new = policy.reset if policy is not None else None
        elif callable(how):
            new = how(value, level)
        else:
            raise ConfigurationError("a channel's lower rule is 'drop', 'reset' or a function")
        update[key] = new
        vouched[key] = Vouch(declared.get(key), rank, new.value if isinstance(new, Overwrite) else new)
    return update, vouched


WITHHELD = "Withheld: this content is above the trust level of this conversation."


def _withhold(message: Any, level: str, ladder: Ladder) -> Any:
    """What replaces a message above the session's level. Tool calls and
    their results keep their pairing (providers reject a history without
    it) but lose their content; anything else is removed."""
    stub: ToolMessage | AIMessage
    if isinstance(message, ToolMessage):
        stub = ToolMessage(WITHHELD, tool_call_id=message.tool_call_id, name=message.name, id=message.id)
    elif isinstance(message, AIMessage) and message.tool_calls:
        calls: list[Any] = [{"name": c["name"], "args": {}, "id": c["id"]} for c in message.tool_calls]
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
    channels: Mapping[str, ChannelPolicy] | None = None,
):
    """Build the gate node. ``tool_levels`` maps tool names to the level of
    what they return; tools not listed are untrusted. ``session_sources``
    are the label sources that belong to the session and never degrade it.
    ``channels`` declares other state keys: their level, and how each is
    lowered when the session degrades (by default any content outside
    messages is dropped then)."""
    if policy not in ("fork", "terminate"):
        raise ConfigurationError("policy must be 'fork' or 'terminate'")
    ladder = levels or DEFAULT_LADDER
    declared = dict(tool_levels or {})
    for lv in declared.values():
        if lv != SESSION:
            ladder.rank(lv)
    policies = dict(channels or {})
    for p in policies.values():
        if not isinstance(p, ChannelPolicy):
            raise ConfigurationError("channels maps state keys to ChannelPolicy")
        if p.level is not None:
            ladder.rank(p.level)
    sources = frozenset(session_sources) | {f"tool:{t}" for t, lv in declared.items() if lv == SESSION}

    def trust_gate(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        saver = saver_of(config, checkpointer)
        # read once: its level and whether its fork is pending must be one state's
        session = current_session(config, checkpointer)
        level = session_level(config, ladder, checkpointer, session)
        messages = list(state.get(messages_key) or [])
        decision = gate_messages(
            messages, level, ladder=ladder, tool_levels=declared, session_sources=sources
        )
        threaded = saver is not None and (config.get("configurable") or {}).get("thread_id") is not None
        if decision.outside and threaded and saver is not None:
            saver.mark_tainted(config)
        if decision.level != level:
            if policy == "terminate":
                if saver is not None:
                    saver.terminate(config)
                raise SessionTerminated("less trusted content entered a session under the terminate policy")
            if saver is not None:
                saver.degrade(config, decision.level)
        pending = decision.level != level or decision.withheld or (session is not None and session.fork_pending)
        channels = _graph_channels(config)
        update, vouched = lower_channels(
            _whole_state(state, config, channels),
            decision.level,
            ladder=ladder,
            policies=policies,
            skip={messages_key},
            pending=pending,
            channels=channels,
        )
        if threaded and saver is not None:
            saver.vouch(config, vouched)
        history = channels.get(messages_key) if channels is not None else None
        if pending and messages and isinstance(history, DeltaChannel):
            # written whole, as the other delta channels: the fork's root then stores the
            # cleaned conversation, where the new branch's replay of it starts
            cleaned = history.reducer(messages, [decision.update]) if decision.update else messages
            update[messages_key] = Overwrite(cleaned)
        elif decision.update:
            update[messages_key] = decision.update
        return update

    trust_gate.__name__ = "trust_gate"
    return trust_gate


__all__ = [
    "SESSION",
    "SESSION_SOURCES",
    "GateDecision",
    "gate_messages",
    "infer_label",
    "lower_channels",
    "current_session",
    "make_trust_gate",
    "saver_of",
    "session_level",
]
