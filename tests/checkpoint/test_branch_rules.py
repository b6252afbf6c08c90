"""What the saver itself enforces, whatever the graph does: nothing above a
branch's level is stored on it, nothing continues from a sealed branch,
runs are tracked so terminate and delete_for_runs remove exactly one run,
and the hot tier never breaks a call or serves a stale state."""

from __future__ import annotations

import uuid

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.base import empty_checkpoint

from langgraph_trustmem import (
    ContentAboveLevel,
    SessionTerminated,
    StaleBranch,
    ThreadExists,
    TrustCheckpointSaver,
    label,
)
from langgraph_trustmem.checkpoint.hot import LocalHotTier

from .test_saver import chat_graph
from .test_seed_scenario import AIRPORT, build_graph, email_turn, personal_turn, text_of


def tid() -> str:
    return f"b-{uuid.uuid4()}"


def test_content_above_the_branch_level_is_never_stored(saver):
    t = tid()
    graph = chat_graph(saver)
    graph.invoke({"messages": [label(HumanMessage("hi"), "public")]}, {"configurable": {"thread_id": t}})
    with pytest.raises(ContentAboveLevel):
        graph.invoke(
            {"messages": [label(HumanMessage(AIRPORT), "personal")]}, {"configurable": {"thread_id": t}}
        )
    assert all(
        AIRPORT not in text_of(tup.checkpoint["channel_values"].get("messages", []))
        for tup in saver.list({"configurable": {"thread_id": t}})
    )


def test_a_run_that_continues_from_a_sealed_branch_is_refused(saver):
    t = tid()
    personal = {"configurable": {"thread_id": t, "trust": "personal"}}
    graph = build_graph(saver, [])
    graph.invoke(personal_turn(), personal)
    before_fork = saver.get_tuple({"configurable": {"thread_id": t}}).config
    graph.invoke(email_turn(), {"configurable": {"thread_id": t}})
    assert saver.session({"configurable": {"thread_id": t}}).branch == 1
    # a worker that loaded the thread before the fork writes its next step
    stale = empty_checkpoint()
    stale["channel_values"] = {"messages": [label(HumanMessage("late"), "public")]}
    with pytest.raises(StaleBranch):
        saver.put(before_fork, stale, {"source": "loop", "step": 9}, {})


def test_the_fork_policy_survives_a_run_config_that_names_the_old_level(saver):
    """The run that degrades the session still carries trust=personal in its
    config; its remaining steps must not be refused."""
    t = tid()
    personal = {"configurable": {"thread_id": t, "trust": "personal"}}
    seen: list = []
    graph = build_graph(saver, seen)
    graph.invoke(personal_turn(), personal)
    saver.degrade(personal, "public")  # the degrade happens inside this run in real life
    out = graph.invoke(email_turn(), {"configurable": {"thread_id": t}})
    assert AIRPORT not in text_of(out["messages"])


def test_terminate_removes_only_that_run(saver, pg_url):
    import psycopg

    t = tid()
    graph = build_graph(saver, [], policy="terminate")
    run1, run2 = uuid.uuid4(), uuid.uuid4()
    graph.invoke(personal_turn(), {"configurable": {"thread_id": t, "trust": "personal"}, "run_id": run1})
    history_before = list(saver.list({"configurable": {"thread_id": t}}))
    # as the stock savers: a run's top-level run_id indexes its checkpoints
    # but is not copied into their metadata (only config["metadata"] is)
    assert all("run_id" not in tup.metadata for tup in history_before)
    with pytest.raises(SessionTerminated):
        graph.invoke(email_turn(), {"configurable": {"thread_id": t}, "run_id": run2})
    after = list(saver.list({"configurable": {"thread_id": t}}))
    assert [tup.config for tup in after] == [tup.config for tup in history_before]
    with psycopg.connect(pg_url, autocommit=True) as conn:
        orphans = conn.execute(
            """SELECT count(*) FROM trustmem_blobs b WHERE b.thread_key = %s AND NOT EXISTS (
               SELECT 1 FROM trustmem_checkpoints c WHERE c.thread_key = b.thread_key
               AND c.versions ->> b.channel = b.version)""",
            (saver.thread_key(t),),
        ).fetchone()[0]
    assert orphans == 0


def test_delete_for_runs_removes_a_graph_run(saver):
    t = tid()
    graph = chat_graph(saver)
    run1, run2 = uuid.uuid4(), uuid.uuid4()
    graph.invoke({"messages": [HumanMessage("one")]}, {"configurable": {"thread_id": t}, "run_id": run1})
    after_one = [tup.config for tup in saver.list({"configurable": {"thread_id": t}})]
    # LangGraph's server names the run in the config's metadata: it reaches checkpoint metadata
    graph.invoke(
        {"messages": [HumanMessage("two")]},
        {"configurable": {"thread_id": t}, "run_id": run2, "metadata": {"run_id": str(run2)}},
    )
    runs = {tup.metadata.get("run_id") for tup in saver.list({"configurable": {"thread_id": t}})}
    assert runs == {None, str(run2)}
    saver.delete_for_runs([str(run2)])
    assert [tup.config for tup in saver.list({"configurable": {"thread_id": t}})] == after_one
    saver.delete_for_runs([str(run1)])  # a top-level run_id indexes its checkpoints too
    assert list(saver.list({"configurable": {"thread_id": t}})) == []


def test_copy_onto_an_existing_thread_is_refused(saver):
    a, b = tid(), tid()
    graph = chat_graph(saver)
    graph.invoke({"messages": [HumanMessage("a")]}, {"configurable": {"thread_id": a, "trust": "personal"}})
    graph.invoke({"messages": [HumanMessage("b")]}, {"configurable": {"thread_id": b}})
    with pytest.raises(ThreadExists):
        saver.copy_thread(a, b)
    assert (
        text_of(saver.get_tuple({"configurable": {"thread_id": b}}).checkpoint["channel_values"]["messages"])
        == "b echo 1"
    )


def test_early_writes_survive_the_put_of_an_earlier_checkpoint(key, pg_url, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        t = tid()
        cfg = {"configurable": {"thread_id": t, "checkpoint_ns": ""}}
        first, second = empty_checkpoint(), empty_checkpoint()
        assert first["id"] < second["id"]
        # the writes for the second checkpoint land before either put
        saver.put_writes(
            {"configurable": {**cfg["configurable"], "checkpoint_id": second["id"]}},
            [("messages", "w")],
            task_id="task",
        )
        c1 = saver.put(cfg, first, {"source": "loop", "step": 0}, {})
        saver.put(c1, second, {"source": "loop", "step": 1}, {})
        assert saver.get_tuple(cfg).pending_writes == [("task", "messages", "w")]
        # first-write-wins, as in PostgreSQL
        saver.put_writes(
            {"configurable": {**cfg["configurable"], "checkpoint_id": second["id"]}},
            [("messages", "again")],
            task_id="task",
        )
        assert saver.get_tuple(cfg).pending_writes == [("task", "messages", "w")]


def test_a_redis_outage_never_fails_a_call(pg_url, key, schema):
    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with TrustCheckpointSaver.from_conn_string(
        pg_url, key=key, redis_url=f"redis://127.0.0.1:{port}/0"
    ) as saver:
        t = tid()
        graph = chat_graph(saver)
        graph.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": t}})
        out = graph.invoke({"messages": [HumanMessage("again")]}, {"configurable": {"thread_id": t}})
        assert [m.content for m in out["messages"]] == ["hi", "echo 1", "again", "echo 3"]


def test_a_read_racing_a_deletion_does_not_restore_it(key, pg_url, schema):
    import psycopg

    saver = TrustCheckpointSaver(psycopg.connect(pg_url, autocommit=True), key=key, hot=LocalHotTier())
    t = tid()
    chat_graph(saver).invoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t}})
    tk = saver.thread_key(t)
    row_entry = saver.hot.get(tk, "")
    saver.delete_thread(t)
    # the racing read finishes after the deletion and tries to populate
    saver.hot.put(tk, "", row_entry, (), 60.0, populate=True)
    assert saver.hot.get(tk, "") is None


def test_terminating_a_run_that_stored_nothing_yet_keeps_the_earlier_runs(saver):
    """LangGraph saves a run's checkpoints in the background: a gate may terminate the
    run before its first checkpoint lands. The earlier run's history stays whole (before,
    the last input checkpoint, the earlier run's, was taken as the start and deleted),
    and the thread refuses what the terminated run would still save."""
    t = tid()
    graph = build_graph(saver, [], policy="terminate")
    graph.invoke(personal_turn(), {"configurable": {"thread_id": t, "trust": "personal"}, "run_id": uuid.uuid4()})
    history = [tup.config for tup in saver.list({"configurable": {"thread_id": t}})]
    assert history
    saver.terminate({"configurable": {"thread_id": t}, "run_id": uuid.uuid4()})  # a run with nothing stored
    assert [tup.config for tup in saver.list({"configurable": {"thread_id": t}})] == history
    with pytest.raises(SessionTerminated):
        graph.invoke(email_turn(), {"configurable": {"thread_id": t}})
