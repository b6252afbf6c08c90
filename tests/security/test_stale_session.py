"""Attack (an unlucky schedule): a checkpoint written before a degrade whose
answer is processed after it.

With LangGraph's default ("async") durability a run's input checkpoint is
saved on a worker thread while the graph goes on. If the trust gate lowers
the session while that put is in flight, the put's answer (the thread's row
as it was before the degrade) comes back after the gate's. It must not bring
back the old level: the store and the gate read the session from this
saver's memory, and a personal memory would be served to a session the gate
had just lowered to public.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from langchain_core.messages import HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import AsyncTrustCheckpointSaver, TrustCheckpointSaver, label
from langgraph_trustmem.checkpoint.base import ACTIVE, SessionState


def _graph(saver, seen: list, release: threading.Event, done: threading.Event):
    def lower(state, config):
        saver.degrade(config, "public")  # what the trust gate does on untrusted content
        release.set()  # the input checkpoint's answer may now be processed...
        assert done.wait(10)  # ...and is, before the next node reads the session
        return {}

    def read(state, config):
        seen.append(saver.cached_session(config).level)
        return {}

    b = StateGraph(MessagesState)
    b.add_node("lower", lower)
    b.add_node("read", read)
    b.add_edge(START, "lower")
    b.add_edge("lower", "read")
    return b.compile(checkpointer=saver)


def _hold_input_puts(saver, release: threading.Event, done: threading.Event) -> None:
    """The input checkpoint's answer waits until the degrade is done."""
    real = saver._after_put

    def held(config, params, row):
        if params.get("source") == "input" and not done.is_set():
            assert release.wait(10)
            try:
                return real(config, params, row)
            finally:
                done.set()
        return real(config, params, row)

    saver._after_put = held


@pytest.mark.parametrize("hot", ["local", "redis", "none"])
def test_an_answer_from_before_a_degrade_cannot_raise_the_session_again(pg_url, redis_url, key, schema, hot):
    kwargs = {"local_hot": True} if hot == "local" else {"redis_url": redis_url} if hot == "redis" else {}
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, **kwargs) as saver:
        seen: list = []
        release, done = threading.Event(), threading.Event()
        graph = _graph(saver, seen, release, done)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-stale", "trust": "personal"}}
        b = StateGraph(MessagesState)  # the first run starts the session at personal
        b.add_node("n", lambda s: {})
        b.add_edge(START, "n")
        b.compile(checkpointer=saver).invoke({"messages": [label(HumanMessage("hi"), "personal")]}, cfg)
        assert saver.cached_session(cfg).level == "personal"
        _hold_input_puts(saver, release, done)
        graph.invoke({"messages": [label(HumanMessage("FWD: click"), "public", source="email")]}, cfg)
        assert done.is_set()
        assert seen == ["public"]
        assert saver.session(cfg).level == "public"


def test_an_older_row_never_replaces_a_newer_state():
    """The rule underneath, on the state itself: a level never rises, a
    pending fork or a termination is never undone by an older row, and a
    row of an older branch changes nothing."""
    from langgraph_trustmem.checkpoint.base import newer_state

    personal = SessionState(2, ACTIVE, False, 0, False, b"o", None)
    lowered = SessionState(0, ACTIVE, True, 0, True, b"o", 2)
    forked = SessionState(0, ACTIVE, False, 1, True, b"o", 0)
    terminated = SessionState(2, "terminated", False, 0, False, b"o", None)
    assert newer_state(lowered, personal) == lowered
    assert newer_state(forked, personal) == forked
    assert newer_state(forked, lowered) == forked
    assert newer_state(personal, forked) == forked
    assert newer_state(lowered, forked) == forked
    assert newer_state(terminated, personal).status == "terminated"
    assert newer_state(personal, terminated).status == "terminated"
    assert newer_state(None, personal) == personal


async def test_the_async_saver_keeps_the_lowered_state_too(pg_url, key, schema):
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        tk = saver.thread_key("t-async-stale")
        since = saver._seq  # a put begins...
        saver._remember(tk, SessionState(0, ACTIVE, True, 0, True, None, 2))  # ...the gate lowers the session...
        saver._remember(tk, SessionState(2, ACTIVE, False, 0, False, None, None), since)  # ...the put answers
        assert saver._sessions[tk].level == 0 and saver._sessions[tk].fork_pending
        later = saver._seq  # a read that begins after the change is the truth
        saver._remember(tk, SessionState(2, ACTIVE, False, 0, False, None, None), later)
        assert saver._sessions[tk].level == 2


def _start(saver, cfg, level):
    b = StateGraph(MessagesState)
    b.add_node("n", lambda s: {})
    b.add_edge(START, "n")
    b.compile(checkpointer=saver).invoke({"messages": [label(HumanMessage("hi " * 10), level)]}, cfg)


@pytest.mark.parametrize("hot", ["redis", "none"])
def test_a_thread_recreated_by_another_process_is_read_as_it_is(pg_url, redis_url, key, schema, hot):
    """Process A forked a thread down to internal (branch 1); process B then
    deleted it and started it again at public. What A reads is the truth,
    even though its branch is lower and its level differs: merging it with
    what A held would read the new thread at internal (found by review)."""
    from langgraph.checkpoint.base import empty_checkpoint

    from langgraph_trustmem.nodes.gate import session_level

    kw = {"redis_url": redis_url} if hot == "redis" else {}
    tid = "reused-" + uuid.uuid4().hex
    cfg = {"configurable": {"thread_id": tid}}
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, key=key, **kw) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, key=key, **kw) as b,
    ):
        _start(a, {"configurable": {"thread_id": tid, "trust": "personal"}}, "personal")
        a.degrade(cfg, "internal")
        cp = empty_checkpoint()
        cp["channel_values"] = {"messages": [label(HumanMessage("clean"), "internal")]}
        cp["channel_versions"] = {"messages": "99"}
        a.put(a.get_tuple(cfg).config, cp, {"source": "loop", "step": 9}, {"messages": "99"})
        assert a.cached_session(cfg).branch == 1
        b.delete_thread(tid)
        _start(b, {"configurable": {"thread_id": tid, "trust": "public"}}, "public")
        assert a.session(cfg).level == "public"
        assert a.cached_session(cfg).level == "public" and a.cached_session(cfg).branch == 0
        a.get_tuple(cfg)
        assert session_level({"configurable": {"thread_id": tid}}, a.ladder, a) == "public"


def test_a_late_answer_brings_back_no_session_terminated_meanwhile(pg_url, key, schema):
    """The same schedule as above with terminate: the session this process
    forgot on terminating must not come back as active from an answer read
    before, nor fill the hot tier."""
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        release, done = threading.Event(), threading.Event()
        seen: list = []

        def stop(state, config):
            saver.terminate(config)
            release.set()
            assert done.wait(10)
            seen.append(saver.cached_session(config))
            return {}

        b = StateGraph(MessagesState)
        b.add_node("stop", stop)
        b.add_edge(START, "stop")
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-t", "trust": "personal"}}
        _start(saver, cfg, "personal")
        _hold_input_puts(saver, release, done)
        with pytest.raises(Exception):  # noqa: B017  (the run's next put is refused: terminated)
            b.compile(checkpointer=saver).invoke({"messages": [HumanMessage("x")]}, cfg)
        # forgotten, or read again as terminated; never active (the next use reads the terminated row)
        assert len(seen) == 1 and (seen[0] is None or seen[0].terminated)
        assert saver.hot.get(saver.thread_key(cfg["configurable"]["thread_id"]), "") is None
        assert saver.session(cfg).terminated
