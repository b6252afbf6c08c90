"""Attack: sensitive content kept outside ``messages`` survives a fork.

A personal session loads a patient profile into its own state keys (a plain
value and a reducer list), then an undeclared web tool answers. The session
must fork to ``public`` and neither the model's next call nor anything on
the new head branch may hold the profile.
"""

from __future__ import annotations

import operator
import uuid
from typing import Annotated, TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.channels.delta import DeltaChannel
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.message import add_messages

from langgraph_trustmem import ContentAboveLevel, TrustCheckpointSaver, label
from langgraph_trustmem.nodes import make_trust_gate
from langgraph_trustmem.trust import ChannelPolicy

from .helpers import flat, tool_turn

CANARY = "HBA1C-9.1-CANARY"
WEB = "WEB-PAGE-TEXT"


class State(MessagesState):
    profile: str | None
    notes: Annotated[list, operator.add]
    topic: str | None


def build(saver, seen: list[str], channels=None):
    def load(state):
        if state.get("profile"):
            return {}
        return {"profile": f"Patient profile: {CANARY}", "notes": [f"seen {CANARY}"], "topic": "diabetes"}

    def model(state):
        seen.append(flat(state))
        return {"messages": [AIMessage("ok")]}

    b = StateGraph(State)
    b.add_node("load", load)
    b.add_node("gate", make_trust_gate(channels=channels))
    b.add_node("model", model)
    b.add_edge(START, "load")
    b.add_edge("load", "gate")
    b.add_edge("gate", "model")
    return b.compile(checkpointer=saver)


@pytest.fixture
def saver(pg_url, redis_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as s:
        yield s


def run_attack(saver, channels=None):
    seen: list[str] = []
    graph = build(saver, seen, channels)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("How is my diabetes?")]}, cfg)
    assert CANARY in seen[-1]  # the personal call saw the profile, as it may
    graph.invoke({"messages": tool_turn("web_search", WEB)}, cfg)
    return graph, cfg, seen


def test_model_never_sees_profile_beside_web_text(saver):
    _graph, _cfg, seen = run_attack(saver)
    for call in seen:
        assert not (CANARY in call and WEB in call)
    assert WEB in seen[-1]


def test_head_branch_holds_no_channel_above_the_new_level(saver):
    graph, cfg, _seen = run_attack(saver)
    assert saver.session(cfg).level == "public"
    state = graph.get_state(cfg)  # with the run's own config: the current head
    assert CANARY not in flat(state.values)
    assert CANARY not in flat(state.tasks)
    for snap in graph.get_state_history(cfg):
        assert CANARY not in flat(snap.values)
    for tup in saver.list(cfg):
        assert CANARY not in flat(tup.checkpoint["channel_values"])
        assert CANARY not in flat(tup.pending_writes)
    # the sealed branch keeps the personal history, for personal readers only
    tid = cfg["configurable"]["thread_id"]
    sealed = [b for b in saver.branches(tid) if not b.head]
    assert sealed and sealed[0].level == "personal"
    old = saver.get_branch_tuple(tid, sealed[0].branch, level="personal")
    assert CANARY in flat(old.checkpoint["channel_values"])


def test_declared_levels_and_projections_are_applied(saver):
    """An app declares ``topic`` public (kept) and projects ``profile``."""
    channels = {
        "topic": ChannelPolicy(level="public"),
        "profile": ChannelPolicy(lower=lambda value, level: "Patient profile: (withheld)"),
    }
    graph, cfg, seen = run_attack(saver, channels)
    values = graph.get_state(cfg).values
    assert values["topic"] == "diabetes"
    assert values["profile"] == "Patient profile: (withheld)"
    assert not values.get("notes")
    assert CANARY not in seen[-1] and WEB in seen[-1]


def test_saver_refuses_to_fork_onto_a_head_holding_unlabelled_content(saver):
    """Without a gate that lowers it, a profile channel keeps the fork
    pending: the head branch never holds it at the lower level."""
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    seen: list[str] = []

    def model(state):
        seen.append(flat(state))
        return {"messages": [AIMessage("ok")]}

    def load(state):
        return {"profile": f"Patient profile: {CANARY}"}

    def degrade_messages_only(state, config):
        # an app's own gate that cleans messages but forgets other keys
        saver.degrade(config, "public")
        return {"messages": [label(AIMessage("noted"), "public", source="model")]}

    b = StateGraph(State)
    b.add_node("load", load)
    b.add_node("degrade", degrade_messages_only)
    b.add_edge(START, "load")
    b.add_edge("load", "degrade")
    graph = b.compile(checkpointer=saver)
    graph.invoke({"messages": [HumanMessage("hi")]}, cfg)
    assert saver.session(cfg).fork_pending  # not forked onto a dirty head
    public = {"configurable": {**cfg["configurable"], "trust": "public"}}
    assert CANARY not in flat(graph.get_state(public).values)


def test_unknown_level_on_outside_content_degrades_a_sensitive_session(saver):
    seen: list[str] = []
    graph = build(saver, seen)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "sensitive"}}
    graph.invoke({"messages": [HumanMessage("How is my diabetes?")]}, cfg)
    email = label(HumanMessage(f"{WEB} from an attacker"), "public", source="email")
    email.additional_kwargs["trustmem"]["level"] = "top-secret"  # a level the ladder does not know
    graph.invoke({"messages": [email]}, cfg)
    assert saver.session(cfg).level == "public"
    for call in seen:
        assert not (CANARY in call and WEB in call)


class SubState(MessagesState):
    profile: str | None
    notes: str | None


def test_subgraph_state_is_cleaned_in_every_namespace(saver):
    """A subgraph copies the profile into its own state; after the fork no
    namespace on the head branch holds it, and the model never sees it
    beside the web text."""
    seen: list[str] = []

    def copy_profile(state):
        return {"notes": f"copied: {state.get('profile')}"}

    sub = StateGraph(SubState)
    sub.add_node("copy", copy_profile)
    sub.add_edge(START, "copy")
    subgraph = sub.compile()

    def load(state):  # at the session's start only
        return {} if len(state["messages"]) > 1 else {"profile": f"Patient profile: {CANARY}"}

    def model(state):
        seen.append(flat(state))
        return {"messages": [AIMessage("ok")]}

    b = StateGraph(SubState)
    b.add_node("load", load)
    b.add_node("sub", subgraph)
    b.add_node("gate", make_trust_gate())
    b.add_node("model", model)
    b.add_edge(START, "load")
    b.add_edge("load", "sub")
    b.add_edge("sub", "gate")
    b.add_edge("gate", "model")
    graph = b.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("hi")]}, cfg)
    graph.invoke({"messages": tool_turn("web_search", WEB)}, cfg)
    later = {"configurable": {"thread_id": cfg["configurable"]["thread_id"], "user_id": "u-ws"}}
    graph.invoke({"messages": [HumanMessage("and now?")]}, later)  # the subgraph runs on the new branch
    assert saver.session(cfg).level == "public" and saver.session(cfg).branch == 1
    for call in seen:
        assert not (CANARY in call and WEB in call)
    namespaces = set()
    for tup in saver.list(cfg):  # every namespace on the head branch
        namespaces.add(tup.config["configurable"]["checkpoint_ns"])
        assert CANARY not in flat(tup.checkpoint["channel_values"])
        assert CANARY not in flat(tup.pending_writes)
    assert any(ns.startswith("sub") for ns in namespaces)
    assert CANARY not in flat(graph.get_state(cfg, subgraphs=True))


def test_a_declared_channel_above_the_session_never_meets_the_model_or_the_head(saver):
    """After the fork, an app node loads the profile again (declared
    personal) into the now public session: the saver refuses to store it and
    the model never runs beside it."""
    seen: list[str] = []
    graph = build(saver, seen, {"profile": ChannelPolicy(level="personal")})
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("How is my diabetes?")]}, cfg)
    graph.invoke({"messages": tool_turn("web_search", WEB)}, cfg)
    assert saver.session(cfg).level == "public"
    later = {"configurable": {"thread_id": cfg["configurable"]["thread_id"], "user_id": "u-ws"}}
    calls = len(seen)
    with pytest.raises(ContentAboveLevel):
        graph.invoke({"messages": [HumanMessage("and now?")]}, later)  # load() reloads the profile
    assert all(CANARY not in call for call in seen[calls:])  # the gate lowered it before any model call
    for tup in saver.list(later):
        assert CANARY not in flat(tup.checkpoint["channel_values"])


def _extend(state, writes):
    out = list(state or [])
    for w in writes:
        out.extend(w)
    return out


class DeltaState(MessagesState):
    profile: str | None
    notes: Annotated[list, DeltaChannel(_extend)]
    topic: Annotated[list, DeltaChannel(_extend)]


def test_delta_channels_are_cleaned_at_the_fork_and_replay_from_its_root(saver):
    """LangGraph's DeltaChannel keeps writes, not values, and rebuilds a value
    by replaying its ancestors' writes. After the fork, replay on the new
    branch must start from the fork root's cleaned value: the profile's note
    gone, the topic the app declared public kept, and nothing from the
    sealed branch replayed."""
    seen: list[str] = []

    def load(state):  # at the session's start only
        if len(state["messages"]) > 1:
            return {}
        return {"profile": f"Patient profile: {CANARY}", "notes": [f"seen {CANARY}"], "topic": ["diabetes"]}

    def model(state):
        seen.append(flat(state))
        return {"messages": [AIMessage("ok")], "notes": ["answered"]}

    b = StateGraph(DeltaState)
    b.add_node("load", load)
    b.add_node("gate", make_trust_gate(channels={"topic": ChannelPolicy(level="public")}))
    b.add_node("model", model)
    b.add_edge(START, "load")
    b.add_edge("load", "gate")
    b.add_edge("gate", "model")
    graph = b.compile(checkpointer=saver)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("How is my diabetes?")]}, cfg)
    graph.invoke({"messages": tool_turn("web_search", WEB)}, cfg)
    later = {"configurable": {"thread_id": cfg["configurable"]["thread_id"], "user_id": "u-ws"}}
    graph.invoke({"messages": [HumanMessage("and now?")]}, later)
    assert saver.session(cfg).level == "public"
    for call in seen:
        assert not (CANARY in call and WEB in call)
    values = graph.get_state(later).values
    assert CANARY not in flat(values)
    assert values["topic"] == ["diabetes"]  # kept through the fork, not replayed twice
    assert values["notes"] == ["answered", "answered"]  # cleared at the fork; the two turns since
    history = saver.get_delta_channel_history(config=saver.get_tuple(later).config, channels=["notes", "topic"])
    assert CANARY not in flat(history)
    for snap in graph.get_state_history(later):
        assert CANARY not in flat(snap.values)


def test_a_forked_session_that_left_the_cache_keeps_its_branch(saver):
    """The saver's session cache is bounded: a thread's state may leave it
    between a run's read and its next put (while the run waits on the model,
    other threads come and go). A forked thread is then read again before the
    put, not assumed to be on branch 0 (a put sealed for branch 0 was
    refused, the gate's vouches forgotten and the concurrent-run check
    skipped on the retry)."""
    from langgraph.checkpoint.base import create_checkpoint

    graph, cfg, _seen = run_attack(saver)
    tid = cfg["configurable"]["thread_id"]
    later = {"configurable": {"thread_id": tid, "user_id": "u-ws"}}
    tup = saver.get_tuple(later)
    assert tup.metadata["step"] >= 0 and saver.session(cfg).branch == 1
    before = saver.branch_sizes(tid)[1]
    with saver._sessions_lock:  # as an eviction leaves it
        saver._sessions_bytes = 0
        saver._leavable.clear()
        saver._sessions.clear()
    calls: list[str] = []
    rebranch = saver._rebranch
    saver._rebranch = lambda *a: (calls.append("rebranch"), rebranch(*a))[1]
    step = tup.metadata["step"] + 1
    saver.put(tup.config, create_checkpoint(tup.checkpoint, None, step), {"source": "loop", "step": step}, {})
    assert calls == []  # sealed for the head branch at once
    assert saver.session(cfg).branch == 1 and saver.branch_sizes(tid)[1] == before + 1


def _add_all(state, writes):
    out = list(state or [])
    for w in writes:
        out = add_messages(out, w)
    return out


class DeltaChat(TypedDict):
    messages: Annotated[list, DeltaChannel(_add_all)]


def _delta_chat(saver, model):
    """The gate, then the model, over a conversation kept in a DeltaChannel."""
    b = StateGraph(DeltaChat)
    b.add_node("gate", make_trust_gate())
    b.add_node("model", model)
    b.add_edge(START, "gate")
    b.add_edge("gate", "model")
    return b.compile(checkpointer=saver)


def test_a_conversation_kept_in_a_delta_channel_forks_whole_and_clean(saver):
    """Messages themselves in a DeltaChannel: at the fork the gate writes the
    cleaned conversation whole, so the new branch starts from it (before, it
    started empty: the conversation up to the fork was lost) and holds
    nothing above its level."""
    seen: list[str] = []

    def model(state):
        seen.append(flat(state))
        first = len(state["messages"]) < 2
        return {"messages": [AIMessage(f"your result {CANARY}" if first else "ok")]}

    graph = _delta_chat(saver, model)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("How is my diabetes?")]}, cfg)
    graph.invoke({"messages": tool_turn("web_search", WEB)}, cfg)
    later = {"configurable": {"thread_id": cfg["configurable"]["thread_id"], "user_id": "u-ws"}}
    graph.invoke({"messages": [HumanMessage("and now?")]}, later)
    assert saver.session(cfg).level == "public" and saver.session(cfg).branch == 1
    for call in seen:
        assert not (CANARY in call and WEB in call)
    contents = [m.content for m in graph.get_state(later).values["messages"]]
    assert WEB in contents and contents[-2:] == ["and now?", "ok"]  # the conversation since the fork, whole
    assert CANARY not in flat(graph.get_state(later).values)
    for snap in graph.get_state_history(later):
        assert CANARY not in flat(snap.values)


def test_a_delta_only_app_degraded_between_runs_forks_only_once_cleaned(saver):
    """Every channel a DeltaChannel, and the session lowered from outside a
    run (``saver.degrade``): the run's first checkpoint stores no channel
    value, so it offers nothing to rank. The fork must still wait for the
    gate's cleaned state, and the new branch must hold the conversation
    cleaned, not empty and not the sensitive reply."""
    seen: list[str] = []

    def model(state):
        seen.append(flat(state))
        asked = state["messages"][-1].content
        return {"messages": [AIMessage(f"your result {CANARY}" if "diabetes" in asked else "ok")]}

    graph = _delta_chat(saver, model)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("How is my diabetes?")]}, cfg)
    graph.invoke({"messages": [HumanMessage("thanks")]}, cfg)
    saver.degrade(cfg, "public")
    later = {"configurable": {"thread_id": cfg["configurable"]["thread_id"], "user_id": "u-ws"}}
    graph.invoke({"messages": [HumanMessage("and now?")]}, later)
    session = saver.session(cfg)
    assert session.level == "public" and session.branch == 1 and not session.fork_pending
    assert CANARY not in seen[-1]
    contents = [m.content for m in graph.get_state(later).values["messages"]]
    assert contents[-2:] == ["and now?", "ok"]
    assert "How is my diabetes?" not in contents  # personal, withheld at the fork
    assert CANARY not in flat(graph.get_state(later).values)
    for snap in graph.get_state_history(later):
        assert CANARY not in flat(snap.values)


def test_a_pending_fork_the_cache_lost_still_lowers_every_channel(saver, monkeypatch):
    """The session degraded between runs; its state left this process's cache
    (evicted, or another process degraded it). The gate reads the session
    once, fork pending included: the model must not see the profile, the
    notes or any channel above the new level, and the fork happens now, not
    one run later."""
    seen: list[str] = []
    graph = build(saver, seen)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-ws", "trust": "personal"}}
    # the conversation itself is public: only the other channels hold the profile
    graph.invoke({"messages": [label(HumanMessage("hello"), "public")]}, cfg)
    assert CANARY in seen[-1]
    saver.degrade(cfg, "public")
    monkeypatch.setattr(saver, "cached_session", lambda config: None)  # as if evicted at every look
    monkeypatch.setattr(saver, "cached_level", lambda config: None)
    later = {"configurable": {"thread_id": cfg["configurable"]["thread_id"], "user_id": "u-ws"}}
    graph.invoke({"messages": [label(HumanMessage("and now?"), "public")]}, later)
    assert CANARY not in seen[-1]
    monkeypatch.undo()
    session = saver.session(later)
    assert session.level == "public" and session.branch == 1 and not session.fork_pending
    assert CANARY not in flat(graph.get_state(later).values)
