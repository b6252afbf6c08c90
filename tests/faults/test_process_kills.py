"""The process itself SIGKILLed: during turns (every acknowledged turn is
kept, the history stays a chain) and during forget (a rerun leaves nothing
of the user and the other user intact). Also Redis restarted from its
append-only file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.store import TrustStore

from .servers import PersistentRedis

pytestmark = pytest.mark.slow

TURNS = textwrap.dedent(
    """
    import sys
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph_trustmem import TrustCheckpointSaver
    url, key, tid = sys.argv[1:4]
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage("re: " + s["messages"][-1].content)]})
    b.add_edge(START, "model")
    with TrustCheckpointSaver.from_conn_string(url, key=key) as saver:
        graph = b.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": tid, "user_id": "u-kill"}}
        for i in range(10_000):
            graph.invoke({"messages": [HumanMessage(f"turn {i}")]}, cfg, durability="sync")
            print(i, flush=True)
    """
)


def test_a_process_killed_during_turns_keeps_every_acknowledged_turn(pg_url, key, schema):
    tid = str(uuid.uuid4())
    proc = subprocess.Popen(
        [sys.executable, "-c", TURNS, pg_url, key, tid], stdout=subprocess.PIPE, text=True
    )
    acknowledged = -1
    assert proc.stdout is not None
    while acknowledged < 12:
        acknowledged = int(proc.stdout.readline())
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = {"configurable": {"thread_id": tid, "user_id": "u-kill"}}
        texts = [m.content for m in saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]]
        for i in range(acknowledged + 1):
            assert f"turn {i}" in texts and f"re: turn {i}" in texts
        ids = {t.config["configurable"]["checkpoint_id"]: t for t in saver.list(cfg)}
        for tup in ids.values():  # the history is a chain: every parent is there
            parent = tup.parent_config
            assert parent is None or parent["configurable"]["checkpoint_id"] in ids
        b = StateGraph(MessagesState)
        b.add_node("model", lambda s: {"messages": [AIMessage("re: after")]})
        b.add_edge(START, "model")
        b.compile(checkpointer=saver).invoke({"messages": [HumanMessage("after")]}, cfg)
        assert saver.get_tuple(cfg).checkpoint["channel_values"]["messages"][-1].content == "re: after"


FORGET = textwrap.dedent(
    """
    import sys
    from langgraph_trustmem import TrustCheckpointSaver
    from langgraph_trustmem.store import TrustStore
    from langgraph_trustmem.store.embeddings import default_embeddings
    url, key, vectors, user = sys.argv[1:5]
    emb = default_embeddings()
    index = {"dims": emb.dims, "embed": emb, "fields": ["$"]}
    with TrustCheckpointSaver.from_conn_string(url, key=key) as saver, \\
            TrustStore.from_conn_string(url, key=key, qdrant=vectors, index=index) as store:
        store.setup()
        print("ready", flush=True)
        store.forget(user, checkpointer=saver)
        print("done", flush=True)
    """
)


def test_a_process_killed_during_forget_leaves_nothing_after_a_rerun(pg_url, key, schema, store_schema, index, workdir):
    vectors = str(Path(tempfile.mkdtemp(dir=workdir)) / "shard")
    gone, kept = f"gone-{uuid.uuid4().hex[:6]}", f"kept-{uuid.uuid4().hex[:6]}"
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=vectors, index=index) as store:
        store.setup()
        for user in (gone, kept):
            mine = store.bound("personal", user_id=user)
            for i in range(40):
                mine.put(("memories", user), f"k{i}", {"text": f"{user} fact number {i}"})
    for delay in (0.05, 0.3):  # killed at different points of the erasure
        proc = subprocess.Popen(
            [sys.executable, "-c", FORGET, pg_url, key, vectors, gone], stdout=subprocess.PIPE, text=True
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=vectors, index=index) as store:
        store.setup()
        receipt = store.forget(gone)
        assert receipt["finished_at"] is not None and "pending" not in receipt
        assert store.bound("sensitive", user_id=gone).search(("memories", gone), limit=100) == []
        assert store.vectors.count(store.user_key(gone).hex()) == 0
        left = store.bound("sensitive", user_id=kept).search(("memories", kept), limit=100)
        assert len(left) == 40 and store.vectors.count(store.user_key(kept).hex()) == 40


def test_redis_restarted_from_its_append_only_file_serves_nothing_stale(pg_url, key, schema, workdir):
    server = PersistentRedis(Path(tempfile.mkdtemp(dir=workdir)), appendonly=True)
    server.start()
    try:
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-aof"}}
        with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=server.url, key=key) as saver:
            b = StateGraph(MessagesState)
            b.add_node("model", lambda s: {"messages": [AIMessage(f"echo {len(s['messages'])}")]})
            b.add_edge(START, "model")
            graph = b.compile(checkpointer=saver)
            for i in range(4):
                graph.invoke({"messages": [HumanMessage(f"t{i}")]}, cfg)
            tk = saver.thread_key(cfg["configurable"]["thread_id"])
            assert saver.hot.get(tk, "") is not None  # the turns' entries landed (a burst held across the
            # restart is not sent, and the entry is deleted: test_a_burst_not_sent_after_a_restart_...)
            server.kill()
            server.start()  # every entry it restores is from its previous lifetime
            assert saver.hot.get(tk, "") is None  # the restored entry is from another lifetime
            assert saver.get_tuple(cfg) is not None  # PostgreSQL answers, and refills the hot tier
            assert saver.hot.get(tk, "").epoch == saver.hot.fence.epoch
            graph.invoke({"messages": [HumanMessage("t4")]}, cfg)
            assert len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 10
    finally:
        server.stop()


PUTS = textwrap.dedent(
    """
    import sys, time
    from langgraph_trustmem.store import TrustStore
    from langgraph_trustmem.store.embeddings import default_embeddings
    url, key, vectors, user, TOPICS = *sys.argv[1:5], sys.argv[5:]
    emb = default_embeddings()
    index = {"dims": emb.dims, "embed": emb, "fields": ["$"]}
    opened = TrustStore.from_conn_string(url, key=key, qdrant=vectors, index=index)
    store = opened.__enter__()  # never closed: the process is killed mid-run
    store.setup()
    mine = store.bound("personal", user_id=user)
    for i, topic in enumerate(TOPICS):
        mine.put(("memories", user), f"k{i}", {"text": f"I remember the {topic}"})
        print(i, flush=True)
    time.sleep(600)  # killed before any flush is due
    """
)
TOPICS = ["violin lessons", "garden tomatoes", "marathon training", "chess openings", "sourdough bread",
          "mountain cabin", "jazz records", "insulin pump", "tax return", "wedding anniversary"]


def test_a_process_killed_between_vector_flushes_keeps_every_acknowledged_vector(pg_url, key, store_schema, index, workdir):
    """The embedded vector tier flushes its segments every few seconds; what
    a put acknowledged before the kill is in its write-ahead log and is
    found by the next process's search."""
    vectors = str(Path(tempfile.mkdtemp(dir=workdir)) / "shard")
    user = f"kill-{uuid.uuid4().hex[:6]}"
    proc = subprocess.Popen(
        [sys.executable, "-c", PUTS, pg_url, key, vectors, user, *TOPICS], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    acked = -1
    while acked < len(TOPICS) - 1:
        line = proc.stdout.readline()
        assert line, proc.stderr.read() if proc.stderr else "the writer died"
        acked = int(line)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=vectors, index=index) as store:
        store.setup()
        tenant = store.user_key(user).hex()
        held = store.vectors.count(tenant)
        assert held == len(TOPICS), "vectors of acknowledged puts were lost"
        mine = store.bound("personal", user_id=user)
        for i, topic in enumerate(TOPICS):
            hits = mine.search(("memories", user), query=f"the {topic}", limit=1)
            assert [h.key for h in hits] == [f"k{i}"]


def test_a_fold_that_goes_silent_holding_the_audit_lock_blocks_writes_for_seconds_not_forever(
    pg_url, key, store_schema
):
    """A store's audit fold holds the chain's lock for its transaction. If its
    holder stops talking mid-transaction (an async store's task abandoned when
    its loop closed, a frozen process whose socket stays open), the server
    ends that session and every other writer's audit append goes on."""
    import psycopg

    from langgraph_trustmem.pg import CONNECTION_KWARGS
    from langgraph_trustmem.store import sql

    user = f"silent-{uuid.uuid4().hex[:6]}"
    with psycopg.connect(pg_url, **CONNECTION_KWARGS) as silent:
        silent.execute("BEGIN")
        silent.execute(sql.AUDIT_LOCK_SQL)  # as a fold starts, then nothing more
        with TrustStore.from_conn_string(pg_url, key=key) as store:
            t0 = time.monotonic()
            store.bound("sensitive").put(("memories", user), "k", {"text": "after the silent fold"})
            assert store.verify_audit().ok  # folds and appends under the lock
            waited = time.monotonic() - t0
        assert 5 < waited < 30  # it did wait for the lock, then the server freed it
        with pytest.raises(psycopg.errors.IdleInTransactionSessionTimeout):
            silent.execute("SELECT 1")  # the silent session was ended
