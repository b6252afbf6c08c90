"""Attack: another user continues, reads or forces a fork of a thread.

A thread belongs to the user whose run created it. Another ``user_id``
with the same ``thread_id`` gets a typed error and learns nothing; reads
never change a thread; a read at a lower level sees only that level's view;
and the run's own config after a fork reads the current head.
"""

from __future__ import annotations

import uuid

import pytest
from langchain_core.messages import HumanMessage

from langgraph_trustmem import AsyncTrustCheckpointSaver, TrustCheckpointSaver
from langgraph_trustmem.errors import ThreadOwnershipError

from .helpers import flat, gated_chat, tool_turn

CANARY = "LAB-VALUE-CANARY"
ALICE = f"alice-{uuid.uuid4().hex[:8]}"
MALLORY = f"mallory-{uuid.uuid4().hex[:8]}"


def build(saver):
    return gated_chat(saver, CANARY)


@pytest.fixture(params=["redis", "no-hot-tier"])
def saver(request, pg_url, redis_url, key, schema):
    redis = redis_url if request.param == "redis" else None
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis, key=key) as s:
        yield s


def owned_thread(saver):
    graph = build(saver)
    tid = str(uuid.uuid4())
    cfg = {"configurable": {"thread_id": tid, "user_id": ALICE, "trust": "personal"}}
    graph.invoke({"messages": [HumanMessage("my lab value?")]}, cfg)
    return graph, tid, cfg


def test_another_user_cannot_continue_or_read(saver):
    graph, tid, cfg = owned_thread(saver)
    mallory = {"configurable": {"thread_id": tid, "user_id": MALLORY, "trust": "personal"}}
    with pytest.raises(ThreadOwnershipError) as err:
        graph.invoke({"messages": [HumanMessage("what did alice say?")]}, mallory)
    assert CANARY not in str(err.value) and ALICE not in str(err.value) and tid not in str(err.value)
    with pytest.raises(ThreadOwnershipError):
        graph.get_state(mallory)
    with pytest.raises(ThreadOwnershipError):
        list(graph.get_state_history(mallory))
    anonymous = {"configurable": {"thread_id": tid}}
    with pytest.raises(ThreadOwnershipError):
        graph.get_state(anonymous)
    # nothing mallory tried reached the thread
    assert "what did alice say" not in flat(graph.get_state(cfg).values)
    assert all("what did alice say" not in flat(t.checkpoint["channel_values"]) for t in saver.list(cfg))


def test_forget_of_the_intruder_leaves_nothing_of_theirs(saver):
    graph, tid, cfg = owned_thread(saver)
    mallory = {"configurable": {"thread_id": tid, "user_id": MALLORY, "trust": "personal"}}
    with pytest.raises(ThreadOwnershipError):
        graph.invoke({"messages": [HumanMessage("MALLORY-WAS-HERE")]}, mallory)
    assert saver.forget_user(MALLORY) == 0  # the intruder never came to own anything
    assert "MALLORY-WAS-HERE" not in flat(graph.get_state(cfg).values)
    assert saver.forget_user(ALICE) >= 1
    assert saver.get_tuple(cfg) is None


def test_a_lower_read_sees_its_view_and_changes_nothing(saver):
    graph, tid, cfg = owned_thread(saver)
    public = {"configurable": {"thread_id": tid, "user_id": ALICE, "trust": "public"}}
    view = graph.get_state(public)
    assert CANARY not in flat(view.values)
    for snap in graph.get_state_history(public):
        assert CANARY not in flat(snap.values)
    session = saver.session(cfg)
    assert session.level == "personal" and not session.fork_pending
    assert [b.branch for b in saver.branches(tid)] == [0]
    # the owner at the thread's own level still sees everything
    assert CANARY in flat(graph.get_state(cfg).values)


def test_run_config_reads_the_head_after_a_fork(saver):
    graph, _tid, cfg = owned_thread(saver)
    graph.invoke({"messages": tool_turn("web_search", "cheap flights")}, cfg)
    assert saver.session(cfg).level == "public"
    state = graph.get_state(cfg)  # the run's own config, trust=personal
    assert CANARY not in flat(state.values)
    assert "cheap flights" in flat(state.values)


async def test_async_saver_checks_the_owner(pg_url, redis_url, key, schema):
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as s:
        graph = build(s)
        tid = str(uuid.uuid4())
        cfg = {"configurable": {"thread_id": tid, "user_id": ALICE, "trust": "personal"}}
        await graph.ainvoke({"messages": [HumanMessage("my lab value?")]}, cfg)
        mallory = {"configurable": {"thread_id": tid, "user_id": MALLORY}}
        with pytest.raises(ThreadOwnershipError):
            await graph.ainvoke({"messages": [HumanMessage("hi")]}, mallory)
        with pytest.raises(ThreadOwnershipError):
            await graph.aget_state(mallory)
        public = {"configurable": {"thread_id": tid, "user_id": ALICE, "trust": "public"}}
        assert CANARY not in flat((await graph.aget_state(public)).values)
        assert (await s.asession(cfg)).level == "personal"
