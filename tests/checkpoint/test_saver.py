"""Behaviour of the checkpointer that users rely on beyond the conformance
suite: authenticated storage, key rotation, the hot tier, sessions, deletion
across tiers, retention, and the sync API."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
import pytest
import redis
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.report import ProgressCallbacks
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import (
    InvalidKeyError,
    KeyRing,
    MissingKeyError,
    Retention,
    SessionTerminated,
    TamperedDataError,
    TrustCheckpointSaver,
    TrustEscalationError,
    generate_key,
)
from langgraph_trustmem.checkpoint.hot import LocalHotTier

from .test_seed_scenario import build_graph, email_turn, personal_turn


def tid() -> str:
    return f"t-{uuid.uuid4()}"


def chat_graph(saver):
    def node(state):
        return {"messages": [AIMessage(f"echo {len(state['messages'])}")]}

    b = StateGraph(MessagesState)
    b.add_node("model", node)
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def db(pg_url):
    return psycopg.connect(pg_url, autocommit=True)


# -- keys and authenticated storage ------------------------------------------


def test_real_urls_without_a_key_refuse_to_start(pg_url, monkeypatch):
    monkeypatch.delenv("TRUSTMEM_KEY", raising=False)
    with pytest.raises(MissingKeyError), TrustCheckpointSaver.from_conn_string(pg_url):
        pass


def test_a_key_that_is_not_32_bytes_is_refused(pg_url):
    with pytest.raises(InvalidKeyError) as err:
        with TrustCheckpointSaver.from_conn_string(pg_url, key="c2hvcnQ="):
            pass
    assert "c2hvcnQ" not in str(err.value)


def test_tampered_moved_and_plaintext_rows_are_rejected(saver, pg_url):
    graph = chat_graph(saver)
    a, b = tid(), tid()
    for t in (a, b):
        graph.invoke({"messages": [HumanMessage("hello")]}, {"configurable": {"thread_id": t}})
    ka, kb = saver.thread_key(a), saver.thread_key(b)
    fresh = TrustCheckpointSaver(saver.conn, key=saver.keyring, hot=LocalHotTier())
    with db(pg_url) as conn:
        # flip one byte of a sealed channel value
        conn.execute(
            "UPDATE trustmem_blobs SET blob = overlay(blob placing '\\x00'::bytea from 30 for 1) "
            "WHERE thread_key = %s AND channel = 'messages'",
            (ka,),
        )
        with pytest.raises(TamperedDataError):
            fresh.get_tuple({"configurable": {"thread_id": a}})
        # a value moved from another thread fails: the sealed data names its place
        conn.execute(
            "UPDATE trustmem_blobs SET blob = (SELECT blob FROM trustmem_blobs WHERE thread_key = %s "
            "AND channel = 'messages' LIMIT 1) WHERE thread_key = %s AND channel = 'messages'",
            (kb, ka),
        )
        with pytest.raises(TamperedDataError):
            fresh.get_tuple({"configurable": {"thread_id": a}})
        # plaintext written behind the library's back is not read as data
        conn.execute("UPDATE trustmem_checkpoints SET payload = 'plain'::bytea WHERE thread_key = %s", (kb,))
        with pytest.raises(TamperedDataError) as err:
            fresh.get_tuple({"configurable": {"thread_id": b}})
        assert b not in str(err.value)


def test_key_rotation_reads_old_rows_and_writes_with_the_new_key(pg_url, schema):
    old, new = generate_key(), generate_key()
    t = tid()
    with TrustCheckpointSaver.from_conn_string(pg_url, key=old) as s1:
        chat_graph(s1).invoke(
            {"messages": [HumanMessage("before rotation")]}, {"configurable": {"thread_id": t}}
        )
    # newest first; the identity key (last) stays, so the thread is found
    with TrustCheckpointSaver.from_conn_string(pg_url, key=f"{new},{old}") as s2:
        g = chat_graph(s2)
        assert len(g.get_state({"configurable": {"thread_id": t}}).values["messages"]) == 2
        g.invoke({"messages": [HumanMessage("after rotation")]}, {"configurable": {"thread_id": t}})
        tk = s2.thread_key(t)
        with db(pg_url) as conn:
            ids = {
                KeyRing.key_id_in(bytes(r[0]))
                for r in conn.execute("SELECT payload FROM trustmem_checkpoints WHERE thread_key = %s", (tk,))
            }
        assert ids == {KeyRing([old]).active_key_id, KeyRing([new]).active_key_id}
    # a ring without the old key fails loudly on anything still sealed with it
    with db(pg_url) as conn:
        sealed_old = [
            bytes(r[0])
            for r in conn.execute("SELECT payload FROM trustmem_checkpoints WHERE thread_key = %s", (tk,))
            if KeyRing.key_id_in(bytes(r[0])) == KeyRing([old]).active_key_id
        ]
    assert sealed_old
    with pytest.raises(TamperedDataError):
        KeyRing([new]).decrypt(sealed_old[0], b"")
    # re-seal the old rows; then the old key can leave the ring
    with TrustCheckpointSaver.from_conn_string(pg_url, key=f"{new},{old}") as s3:
        assert s3.rotate_keys(batch=2) > 0
        with db(pg_url) as conn:
            left = conn.execute(
                "SELECT count(*) FROM trustmem_checkpoints WHERE thread_key = %s "
                "AND substring(payload from 5 for 4) <> %s",
                (tk, KeyRing([new]).active_key_id.to_bytes(4, "big")),
            ).fetchone()[0]
        assert left == 0
        assert len(chat_graph(s3).get_state({"configurable": {"thread_id": t}}).values["messages"]) == 4


# -- hot tier --------------------------------------------------------------


def test_latest_checkpoint_is_served_without_postgres(pg_url, redis_url, key, schema):
    t = tid()
    conn = psycopg.connect(pg_url, autocommit=True)
    hot = LocalHotTier()
    saver = TrustCheckpointSaver(conn, key=key, hot=hot)
    graph = chat_graph(saver)
    graph.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": t}})
    conn.close()  # PostgreSQL is now unreachable for this saver
    tup = saver.get_tuple({"configurable": {"thread_id": t}})
    assert [m.content for m in tup.checkpoint["channel_values"]["messages"]] == ["hi", "echo 1"]
    with pytest.raises(psycopg.OperationalError):
        saver.get_tuple({"configurable": {"thread_id": tid()}})


def test_a_flushed_redis_loses_nothing(saver, redis_url, pg_url, key):
    t = tid()
    config = {"configurable": {"thread_id": t}}
    graph = chat_graph(saver)
    graph.invoke({"messages": [HumanMessage("one")]}, config)
    graph.invoke({"messages": [HumanMessage("two")]}, config)
    client = redis.Redis.from_url(redis_url)
    assert client.exists(f"trustmem:cp:{saver.thread_key(t).hex()}")
    client.flushall()
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as other:
        tup = other.get_tuple(config)
        assert [m.content for m in tup.checkpoint["channel_values"]["messages"]] == [
            "one",
            "echo 1",
            "two",
            "echo 3",
        ]
        # read-through repopulates the hot tier
        assert client.exists(f"trustmem:cp:{saver.thread_key(t).hex()}")
    client.close()


def test_writes_stored_before_their_checkpoint_are_served_by_the_hot_tier(saver):
    t = tid()
    cp = empty_checkpoint()
    cfg = {"configurable": {"thread_id": t, "checkpoint_ns": ""}}
    early = {"configurable": {"thread_id": t, "checkpoint_ns": "", "checkpoint_id": cp["id"]}}
    saver.put_writes(early, [("messages", "early write")], task_id="task-1")
    saver.put(cfg, cp, {"source": "loop", "step": 0}, {})
    tup = saver.get_tuple(cfg)
    assert tup.pending_writes == [("task-1", "messages", "early write")]


# -- sessions ---------------------------------------------------------------


def test_session_level_is_fixed_at_start_and_never_raised(saver):
    t = tid()
    graph = chat_graph(saver)
    graph.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": t, "trust": "internal"}})
    assert saver.session({"configurable": {"thread_id": t}}).level == "internal"
    with pytest.raises(TrustEscalationError) as err:
        graph.invoke(
            {"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t, "trust": "sensitive"}}
        )
    assert t not in str(err.value)
    # a run at a lower level degrades the session
    graph.invoke({"messages": [HumanMessage("y")]}, {"configurable": {"thread_id": t, "trust": "public"}})
    session = saver.session({"configurable": {"thread_id": t}})
    assert session.level == "public"


def test_default_session_level_is_the_lowest(saver):
    t = tid()
    chat_graph(saver).invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": t}})
    assert saver.session({"configurable": {"thread_id": t}}).level == "public"
    assert saver.session({"configurable": {"thread_id": tid()}}) is None


def test_unknown_level_is_a_typed_error(saver):
    from langgraph_trustmem import UnknownLevelError

    with pytest.raises(UnknownLevelError):
        chat_graph(saver).invoke(
            {"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": tid(), "trust": "top"}}
        )


def test_terminated_thread_refuses_writes(saver):
    t = tid()
    config = {"configurable": {"thread_id": t}}
    chat_graph(saver).invoke({"messages": [HumanMessage("hi")]}, config)
    saver.terminate(config)
    with pytest.raises(SessionTerminated):
        chat_graph(saver).invoke({"messages": [HumanMessage("again")]}, config)
    with pytest.raises(SessionTerminated):
        saver.put({"configurable": {"thread_id": t, "checkpoint_ns": ""}}, empty_checkpoint(), {}, {})


# -- deletion and retention ---------------------------------------------------


def _rows(pg_url, tk) -> int:
    with db(pg_url) as conn:
        return sum(
            conn.execute(f"SELECT count(*) FROM {table} WHERE thread_key = %s", (tk,)).fetchone()[0]
            for table in (
                "trustmem_threads",
                "trustmem_branches",
                "trustmem_checkpoints",
                "trustmem_blobs",
                "trustmem_writes",
            )
        )


def test_delete_thread_removes_every_branch_in_every_tier(saver, pg_url, redis_url):
    t = tid()
    config = {"configurable": {"thread_id": t, "trust": "personal"}}
    graph = build_graph(saver, [])
    graph.invoke(personal_turn(), config)
    graph.invoke(email_turn(), config)  # the gate forks the thread
    assert len(saver.branches(t)) == 2
    tk = saver.thread_key(t)
    assert _rows(pg_url, tk) > 0
    saver.delete_thread(t)
    assert _rows(pg_url, tk) == 0
    client = redis.Redis.from_url(redis_url)
    left = list(client.scan_iter(match=f"*{tk.hex()}*"))
    # only a short-lived tombstone, which stops a racing read from restoring the entry
    assert [k.split(b":")[1] for k in left] == [b"cptomb"]
    assert 0 < client.pttl(left[0]) <= 120_000 and client.get(left[0]) == b"1"
    client.close()
    assert saver.get_tuple({"configurable": {"thread_id": t}}) is None


def test_forget_user_removes_their_threads_only(saver, pg_url):
    mine, theirs = tid(), tid()
    graph = chat_graph(saver)
    graph.invoke(
        {"messages": [HumanMessage("a")]}, {"configurable": {"thread_id": mine, "user_id": "u-forget"}}
    )
    graph.invoke(
        {"messages": [HumanMessage("b")]}, {"configurable": {"thread_id": theirs, "user_id": "u-keep"}}
    )
    assert saver.forget_user("u-forget") == 1
    assert saver.get_tuple({"configurable": {"thread_id": mine, "user_id": "u-forget"}}) is None
    assert saver.get_tuple({"configurable": {"thread_id": theirs, "user_id": "u-keep"}}) is not None
    assert saver.forget_user("u-forget") == 0


def test_sweeper_deletes_idle_and_old_threads(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(
        pg_url, key=key, retention=Retention(idle=3600, max_age=86400)
    ) as s:
        idle, old, fresh = tid(), tid(), tid()
        graph = chat_graph(s)
        for t in (idle, old, fresh):
            graph.invoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t}})
        with db(pg_url) as conn:
            conn.execute(
                "UPDATE trustmem_threads SET touched_at = now() - interval '2 hours' WHERE thread_key = %s",
                (s.thread_key(idle),),
            )
            conn.execute(
                "UPDATE trustmem_threads SET created_at = now() - interval '2 days' WHERE thread_key = %s",
                (s.thread_key(old),),
            )
        assert s.sweep() >= 2
        assert s.get_tuple({"configurable": {"thread_id": idle}}) is None
        assert s.get_tuple({"configurable": {"thread_id": old}}) is None
        assert s.get_tuple({"configurable": {"thread_id": fresh}}) is not None


def test_background_sweepers_run(pg_url, key, schema):
    import time

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, retention=Retention(idle=60)) as s:
        t = tid()
        chat_graph(s).invoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t}})
        with db(pg_url) as conn:
            conn.execute(
                "UPDATE trustmem_threads SET touched_at = now() - interval '2 hours' WHERE thread_key = %s",
                (s.thread_key(t),),
            )
        stop = s.start_sweeper(every=0.05)
        deadline = time.monotonic() + 10
        while s.get_tuple({"configurable": {"thread_id": t}}) is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()
        assert s.get_tuple({"configurable": {"thread_id": t}}) is None


async def test_async_sweeper_task(pg_url, key, schema):
    from langgraph_trustmem import AsyncTrustCheckpointSaver

    async with AsyncTrustCheckpointSaver.from_conn_string(
        pg_url, key=key, retention=Retention(max_age=60)
    ) as s:
        t = tid()
        await chat_graph(s).ainvoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t}})
        with db(pg_url) as conn:
            conn.execute(
                "UPDATE trustmem_threads SET created_at = now() - interval '2 hours' WHERE thread_key = %s",
                (s.thread_key(t),),
            )
        task = s.start_sweeper(every=0.05)
        for _ in range(200):
            if await s.aget_tuple({"configurable": {"thread_id": t}}) is None:
                break
            await asyncio.sleep(0.05)
        task.cancel()
        assert await s.aget_tuple({"configurable": {"thread_id": t}}) is None


# -- the sync API and the async twin -----------------------------------------


class SyncAsAsync(TrustCheckpointSaver):
    """Runs the conformance suite against the sync methods."""

    async def aget_tuple(self, config):
        return await asyncio.to_thread(self.get_tuple, config)

    async def alist(self, config, *, filter=None, before=None, limit=None):
        for t in await asyncio.to_thread(
            lambda: list(self.list(config, filter=filter, before=before, limit=limit))
        ):
            yield t

    async def aput(self, config, checkpoint, metadata, new_versions):
        return await asyncio.to_thread(self.put, config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes, task_id, task_path=""):
        return await asyncio.to_thread(self.put_writes, config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id):
        return await asyncio.to_thread(self.delete_thread, thread_id)

    async def adelete_for_runs(self, run_ids):
        return await asyncio.to_thread(self.delete_for_runs, run_ids)

    async def acopy_thread(self, source_thread_id, target_thread_id):
        return await asyncio.to_thread(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(self, thread_ids, *, strategy="keep_latest"):
        return await asyncio.to_thread(self.prune, thread_ids, strategy=strategy)


async def test_sync_api_passes_the_conformance_suite(pg_url, redis_url, key, schema):
    @checkpointer_test(name="TrustCheckpointSaver[sync]")
    async def factory():
        with SyncAsAsync.from_conn_string(pg_url, redis_url=redis_url, key=key) as s:
            yield s

    report = await validate(factory, progress=ProgressCallbacks.quiet())
    assert report.passed_all_base() and report.passed_all(), report.to_dict()
    assert all(r.passed for r in report.results.values())


async def test_async_saver_runs_a_graph_and_its_sync_api_from_threads(asaver):
    t = tid()
    config = {"configurable": {"thread_id": t, "trust": "personal"}}
    graph = chat_graph(asaver)
    await graph.ainvoke({"messages": [HumanMessage("hi")]}, config)
    out = await graph.ainvoke({"messages": [HumanMessage("again")]}, config)
    assert [m.content for m in out["messages"]] == ["hi", "echo 1", "again", "echo 3"]
    session = await asaver.asession(config)
    assert session.level == "personal"
    tup = await asyncio.to_thread(asaver.get_tuple, config)
    assert len(tup.checkpoint["channel_values"]["messages"]) == 4
    with pytest.raises(TrustEscalationError):
        await graph.ainvoke(
            {"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t, "trust": "sensitive"}}
        )
    await asaver.adegrade(config, "public")
    assert (await asaver.asession(config)).fork_pending
    # unlabelled history keeps the fork pending until a gate labels and cleans it
    await graph.ainvoke({"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": t}})
    assert (await asaver.asession(config)).fork_pending
    gated = build_graph(asaver, [])
    await gated.ainvoke({"messages": [HumanMessage("clean")]}, {"configurable": {"thread_id": t}})
    branches = await asaver.abranches(t)
    assert [b.level for b in branches] == ["personal", "public"]
    assert await asaver.aget_branch_tuple(t, 0, level="personal") is not None
    assert await asaver.aforget_user("nobody") == 0
