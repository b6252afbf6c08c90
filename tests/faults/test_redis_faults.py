"""Redis killed, restored from an older snapshot, paused or gone: no read
returns a checkpoint older than the last acknowledged write, nothing deleted
comes back, and no call fails or hangs."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import AsyncTrustCheckpointSaver, TrustCheckpointSaver

pytestmark = pytest.mark.slow


def chat(saver):
    def model(state):
        return {"messages": [AIMessage(f"echo {len(state['messages'])}")]}

    b = StateGraph(MessagesState)
    b.add_node("model", model)
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def config() -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-fault"}}


def turns(graph, cfg, n: int) -> None:
    for i in range(n):
        graph.invoke({"messages": [HumanMessage(f"turn {i}")]}, cfg)


def test_a_redis_restored_from_an_older_snapshot_serves_nothing_stale(pg_url, key, schema, own_redis):
    cfg = config()
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as saver:
        graph = chat(saver)
        turns(graph, cfg, 5)
        own_redis.snapshot()  # Redis keeps the state after 5 turns on disk
        turns(graph, cfg, 5)  # 5 more, acknowledged (PostgreSQL and Redis)
        own_redis.kill()
        own_redis.start()  # back with the older snapshot: 10 messages where PostgreSQL has 20
        assert len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 20
        turns(graph, cfg, 1)
        assert len(graph.get_state(cfg).values["messages"]) == 22  # built on the latest, nothing lost


async def test_the_async_saver_after_a_restore_serves_nothing_stale(pg_url, key, schema, own_redis):
    cfg = config()
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as saver:
        graph = chat(saver)
        for i in range(3):
            await graph.ainvoke({"messages": [HumanMessage(f"turn {i}")]}, cfg)
        own_redis.snapshot()
        for i in range(3):
            await graph.ainvoke({"messages": [HumanMessage(f"more {i}")]}, cfg)
        own_redis.kill()
        own_redis.start()
        tup = await saver.aget_tuple(cfg)
        assert len(tup.checkpoint["channel_values"]["messages"]) == 12


def test_a_thread_deleted_while_redis_is_down_never_comes_back(pg_url, key, schema, own_redis):
    cfg = config()
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as saver:
        graph = chat(saver)
        turns(graph, cfg, 3)
        own_redis.snapshot()
        own_redis.pause()  # unreachable: the hot entry cannot be deleted now
        saver.delete_thread(cfg["configurable"]["thread_id"])  # must not raise
        own_redis.resume()
        assert saver.get_tuple(cfg) is None  # within the cooldown: PostgreSQL answers
        time.sleep(1.1)
        assert saver.get_tuple(cfg) is None  # the owed deletion is done before Redis is read
        assert saver.hot.pending == 0
        own_redis.kill()
        own_redis.start()  # and a restore from before the deletion serves nothing either
        assert saver.get_tuple(cfg) is None


def test_a_paused_redis_costs_a_turn_about_a_second_and_loses_nothing(pg_url, key, schema, own_redis):
    cfg = config()
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as saver:
        graph = chat(saver)
        turns(graph, cfg, 2)
        own_redis.pause()
        try:
            slowest = 0.0
            for i in range(4):
                started = time.monotonic()
                graph.invoke({"messages": [HumanMessage(f"paused {i}")]}, cfg)
                slowest = max(slowest, time.monotonic() - started)
        finally:
            own_redis.resume()
        assert slowest < 3.0  # one socket timeout, then Redis is left alone for a while
        turns(graph, cfg, 1)
        assert len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 14


def messages(saver, cfg) -> int:
    return len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"])


def wait_for_entry(saver, cfg, seconds: float = 3.0):
    """The Redis entry of a thread once no write of it is in flight."""
    tk = saver.thread_key(cfg["configurable"]["thread_id"])
    deadline = time.monotonic() + seconds
    while (entry := saver.hot.get(tk, "")) is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return entry


def test_another_process_reads_the_latest_write_even_over_a_slower_path(pg_url, key, schema, own_redis):
    """A put returns only once Redis has run its mark: another process (a
    second worker) reading right after gets the latest checkpoint, however
    slow the writer's path to Redis, while the write's entry is still on its
    way; once it lands, the reader is served from Redis. A tier that sent
    the write and read its reply later, with no mark, lost this 10 times in
    10 with 2 ms of delay."""
    from .servers import SlowPath

    cfg = config()
    slow = SlowPath(own_redis.port, 0.02)
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=slow.url(own_redis.url), key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        graph = chat(a)
        for n in range(1, 6):
            turns(graph, cfg, 1)
            assert messages(b, cfg) == 2 * n  # at once: the entry in Redis is marked
            entry = wait_for_entry(b, cfg)
            assert entry is not None and entry.checkpoint_id == a.get_tuple(cfg).config["configurable"]["checkpoint_id"]
            assert messages(b, cfg) == 2 * n  # now from Redis
    slow.close()


async def test_another_process_reads_the_latest_async_write_over_a_slower_path(pg_url, key, schema, own_redis):
    """The async twin: marks travel while PostgreSQL works, entries land
    after the write returns, and a reader never sees the older one."""
    from .servers import SlowPath

    cfg = config()
    slow = SlowPath(own_redis.port, 0.02)
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=slow.url(own_redis.url), key=key) as a:
        with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b:
            graph = chat(a)
            for n in range(1, 4):
                await graph.ainvoke({"messages": [HumanMessage(f"turn {n}")]}, cfg)
                assert messages(b, cfg) == 2 * n
                entry = await asyncio.to_thread(wait_for_entry, b, cfg)
                assert entry is not None
                assert entry.checkpoint_id == (await a.aget_tuple(cfg)).config["configurable"]["checkpoint_id"]
                assert messages(b, cfg) == 2 * n
    slow.close()


def test_a_writer_that_dies_in_flight_leaves_no_stale_read(pg_url, key, schema, own_redis):
    """A writer marks the entry, commits to PostgreSQL and dies before its
    entry reaches Redis: every reader goes to PostgreSQL (the old entry is
    never served, and no read puts it back) until a later write replaces
    the entry; a mark left longer than MARK_STALE_SECONDS is cleared by the
    next write."""
    import redis

    from langgraph_trustmem.checkpoint.hot import MARK_STALE_SECONDS

    cfg = config()
    admin = redis.Redis.from_url(own_redis.url)
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as c,
    ):
        turns(chat(a), cfg, 1)
        tk = a.thread_key(cfg["configurable"]["thread_id"])
        assert wait_for_entry(b, cfg) is not None
        a.hot.put = lambda *args, **kw: None  # the writer dies after PostgreSQL, before its entries
        turns(chat(a), cfg, 1)
        graph = chat(c)  # another process takes the thread over; ``a`` is not used again
        for _ in range(3):
            assert messages(b, cfg) == 4  # PostgreSQL, each time: the old entry is marked
            assert b.hot.get(tk, "") is None
        assert messages(b, cfg) == 4
        rkey = a.hot.codec.key(tk, "")
        marks = [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]
        assert marks  # no read cleared them, no populate wrote over them
        turns(graph, cfg, 1)  # a later write: its own entry, the dead writer's marks still there
        assert b.hot.get(tk, "") is None and messages(b, cfg) == 6
        old = int(admin.time()[0]) - MARK_STALE_SECONDS - 1
        for f in marks:
            admin.hset(rkey, f, old)
        turns(graph, cfg, 1)  # the dead writer's marks are now stale: cleared by the turn's entries
        entry = wait_for_entry(b, cfg)  # (sent a few ms after the turn's last write)
        assert not [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]
        assert entry is not None and messages(b, cfg) == 8


def test_a_read_never_refills_an_entry_while_a_write_is_in_flight(pg_url, key, schema, own_redis):
    """A reader that read PostgreSQL before a write committed must not put
    what it read into Redis after the write returned: its refill yields to
    the write's mark, and works again once the mark is gone."""
    from dataclasses import replace

    cfg = config()
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        turns(chat(a), cfg, 1)
        tk = a.thread_key(cfg["configurable"]["thread_id"])
        found = wait_for_entry(b, cfg)
        assert found is not None
        refill = replace(found, checkpoint_id=found.checkpoint_id[:-1] + "z")  # would win on its id alone
        mark = a.hot.mark(tk, "", 60.0)
        assert mark is not None
        b.hot.put(tk, "", refill, (), 60.0, populate=True)
        a.hot.unmark(mark)
        assert wait_for_entry(b, cfg).checkpoint_id == found.checkpoint_id  # the refill was refused
        b.hot.put(tk, "", refill, (), 60.0, populate=True)
        assert b.hot.get(tk, "").checkpoint_id == refill.checkpoint_id  # no write in flight: refilled


def test_a_mark_from_another_server_lifetime_blocks_nothing(pg_url, key, schema, own_redis):
    """A snapshot taken while a write was in flight brings its mark back
    after a restart: marks name the lifetime they were set in, and one from
    another lifetime neither sends readers to PostgreSQL nor stops a refill;
    one of this lifetime does both."""
    import redis

    cfg = config()
    admin = redis.Redis.from_url(own_redis.url)
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a:
        turns(chat(a), cfg, 1)
        tk = a.thread_key(cfg["configurable"]["thread_id"])
        assert wait_for_entry(a, cfg) is not None
        rkey = a.hot.codec.key(tk, "")
        now = int(admin.time()[0])
        admin.hset(rkey, b"x\x00" + b"0" * 40 + b"\x00restored", now)  # another lifetime's
        assert a.hot.get(tk, "") is not None
        live = a.hot.codec.mark_field(a.hot.fence.epoch)
        admin.hset(rkey, live, now)  # this lifetime's: a write in flight
        assert a.hot.get(tk, "") is None and messages(a, cfg) == 2
        admin.hdel(rkey, live)
        admin.delete(rkey)
        admin.hset(rkey, b"x\x00" + b"0" * 40 + b"\x00restored", now)
        assert messages(a, cfg) == 2  # PostgreSQL, and its refill is not stopped
        assert wait_for_entry(a, cfg) is not None


def test_a_thread_deleted_while_its_entry_travels_stays_deleted(pg_url, key, schema, own_redis):
    """A write returns while its entry is still on a slow path to Redis, and
    another process deletes the thread at once: the entry lands after the
    deletion took the write's mark with the thread, so it does not land, and
    no process reads the deleted thread back (found by the fifteenth round's
    review: it came back, for every process, until the entry's TTL)."""
    from .servers import SlowPath

    cfg = config()
    slow = SlowPath(own_redis.port, 0.2)
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=slow.url(own_redis.url), key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as c,
    ):
        from langgraph.checkpoint.base import empty_checkpoint
        from langgraph.checkpoint.base.id import uuid6

        ck = empty_checkpoint()
        ck["id"] = str(uuid6(clock_seq=-2))
        ck["channel_values"] = {"messages": [HumanMessage(f"m{i}") for i in range(3)]}
        ck["channel_versions"] = {"messages": 3}
        root = {"configurable": {**cfg["configurable"], "checkpoint_ns": ""}}
        a.put(root, ck, {"source": "loop", "step": 3, "parents": {}}, {"messages": 3})  # returned; its entry travels
        b.delete_thread(cfg["configurable"]["thread_id"])
        time.sleep(0.6)  # it has landed, or been refused, by now
        tk = c.thread_key(cfg["configurable"]["thread_id"])
        assert c.hot.get(tk, "") is None
        assert c.get_tuple(cfg) is None and b.get_tuple(cfg) is None
    slow.close()


def test_a_write_that_fails_in_postgresql_clears_its_mark(pg_url, key, schema, own_redis):
    import psycopg
    import redis

    cfg = config()
    admin = redis.Redis.from_url(own_redis.url)
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a:
        graph = chat(a)
        turns(graph, cfg, 1)
        tk = a.thread_key(cfg["configurable"]["thread_id"])
        tup = a.get_tuple(cfg)
        bad = dict(tup.checkpoint, id="not a checkpoint id \x00")  # PostgreSQL refuses the NUL
        with pytest.raises(psycopg.Error):
            a.put(tup.config, bad, tup.metadata, {})
        a.hot.get(tk, "")  # the lane's owed replies are read
        assert not [f for f in admin.hkeys(a.hot.codec.key(tk, "")) if f.startswith(b"x\x00")]
        assert a.hot.get(tk, "") is not None and messages(a, cfg) == 2


def test_a_script_flush_loses_no_write(pg_url, key, schema, own_redis):
    import redis

    cfg = config()
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        graph = chat(a)
        turns(graph, cfg, 2)
        redis.Redis.from_url(own_redis.url).script_flush()
        turns(graph, cfg, 1)
        assert messages(b, cfg) == 6 and messages(a, cfg) == 6
        assert a.hot.pending == 0


def test_redis_killed_between_turns_loses_nothing(pg_url, key, schema, own_redis):
    cfg = config()
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as saver:
        graph = chat(saver)
        turns(graph, cfg, 2)
        own_redis.kill()
        assert messages(saver, cfg) == 4
        own_redis.start()
        time.sleep(1.1)
        turns(graph, cfg, 1)
        assert messages(saver, cfg) == 6


def test_connections_closed_by_redis_cost_no_pause_and_no_stale_read(pg_url, key, schema, own_redis):
    """CLIENT KILL (an idle timeout, a proxy restart) closes the tier's
    connections between turns: the next call reconnects at once, and nothing
    stale is read by either process."""
    import redis

    cfg = config()
    admin = redis.Redis.from_url(own_redis.url)
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        graph = chat(a)
        for n in range(1, 4):
            turns(graph, cfg, 1)
            admin.client_kill_filter(_type="normal", skipme=True)
            started = time.monotonic()
            turns(graph, cfg, 1)
            assert time.monotonic() - started < 0.5
            assert messages(a, cfg) == 4 * n and messages(b, cfg) == 4 * n
            assert a.hot.pending == 0
            tk = a.thread_key(cfg["configurable"]["thread_id"])
            assert a.hot.get(tk, "") is not None  # Redis serves again, without a pause


def test_a_write_redis_refuses_is_owed_and_never_read_back(pg_url, key, schema, own_redis):
    """Redis refuses the hot tier's writes (an ACL change): the entry left
    there is owed a deletion, the writing process reads PostgreSQL meanwhile,
    and the stale entry is deleted before Redis is used again."""
    import redis

    cfg = config()
    admin = redis.Redis.from_url(own_redis.url)
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        graph = chat(a)
        turns(graph, cfg, 2)
        admin.acl_setuser("default", enabled=True, nopass=True, commands=["-eval"])
        try:
            turns(graph, cfg, 1)  # PostgreSQL takes it; Redis refuses, the 4-message entry stays
            assert messages(a, cfg) == 6
            assert messages(a, cfg) == 6
        finally:
            admin.acl_setuser("default", enabled=True, nopass=True, commands=["+eval"])
        time.sleep(1.1)
        assert messages(a, cfg) == 6  # the owed deletion runs first
        assert a.hot.pending == 0
        assert messages(b, cfg) == 6


def test_a_deletion_right_after_a_write_leaves_nothing_in_redis(pg_url, key, schema, own_redis):
    """A deletion right after a write, while the turn's entries are still
    held to be sent: they are never sent, and no entry of the thread is in
    Redis, for this process or another, after they would have gone out."""
    import redis

    admin = redis.Redis.from_url(own_redis.url)
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        graph = chat(a)
        for _ in range(5):
            cfg = config()
            turns(graph, cfg, 1)
            tk = a.thread_key(cfg["configurable"]["thread_id"])
            assert a.hot._bursts  # held
            a.delete_thread(cfg["configurable"]["thread_id"])
            assert b.get_tuple(cfg) is None
            time.sleep(0.1)  # past the time the burst would have been sent
            assert not admin.keys(f"trustmem:cp:{tk.hex()}*")
            assert b.get_tuple(cfg) is None and a.get_tuple(cfg) is None


async def test_the_async_tier_reads_its_own_and_others_read_it_too(pg_url, key, schema, own_redis):
    cfg = config()
    async with (
        AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        graph = chat(a)
        for n in range(1, 4):
            await graph.ainvoke({"messages": [HumanMessage(f"turn {n}")]}, cfg)
            for s in (a, b):
                tup = await s.aget_tuple(cfg)
                assert len(tup.checkpoint["channel_values"]["messages"]) == 2 * n
        await a.adelete_thread(cfg["configurable"]["thread_id"])
        assert await b.aget_tuple(cfg) is None


async def test_a_call_cancelled_mid_reply_leaves_no_reply_to_the_next_one(pg_url, key, schema, own_redis):
    """A task cancelled while the tier waits for Redis's answer (a request
    timeout, a client gone), once while it reads the replies of earlier
    writes and once while it reads its own: no reply is ever read as another
    command's, nothing stale is read, and the next calls do not stall."""
    cfg = config()
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as saver:
        graph = chat(saver)
        n = 1
        await graph.ainvoke({"messages": [HumanMessage("first")]}, cfg)
        for drained in (False, True):
            if drained:
                assert await saver.aget_tuple(cfg) is not None  # every earlier reply read
            own_redis.pause()
            try:
                task = asyncio.create_task(saver.aget_tuple(cfg))
                await asyncio.sleep(0.2)  # Redis does not answer
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
            finally:
                own_redis.resume()
            for _ in range(3):
                n += 1
                started = time.monotonic()
                await graph.ainvoke({"messages": [HumanMessage(f"turn {n}")]}, cfg)
                tup = await saver.aget_tuple(cfg)
                assert time.monotonic() - started < 0.8
                assert len(tup.checkpoint["channel_values"]["messages"]) == 2 * n
        assert saver.hot.pending == 0


def test_the_store_works_with_redis_down_and_never_serves_a_stale_row(
    pg_url, key, store_schema, index, own_redis, workdir
):
    import tempfile
    from pathlib import Path

    from langgraph_trustmem.store import TrustStore

    vectors = str(Path(tempfile.mkdtemp(dir=workdir)) / "shard")
    user = f"u-{uuid.uuid4().hex[:8]}"
    ns = ("memories", user)
    with TrustStore.from_conn_string(pg_url, key=key, qdrant=vectors, redis_url=own_redis.url, index=index) as s:
        s.setup()
        mine = s.bound("personal", user_id=user)
        mine.put(ns, "k", {"text": "first"})
        assert mine.get(ns, "k").value == {"text": "first"}
        assert [i.value["text"] for i in mine.search(ns, query="first")] == ["first"]  # cached now
        own_redis.pause()
        try:
            mine.put(ns, "k", {"text": "second"})  # succeeds; the invalidation is owed
            assert mine.get(ns, "k").value == {"text": "second"}
            assert [i.value["text"] for i in mine.search(ns, query="second")] == ["second"]
        finally:
            own_redis.resume()
        time.sleep(1.1)  # past the cooldown: the cache is used again, after the owed invalidation
        assert mine.get(ns, "k").value == {"text": "second"}
        assert [i.value["text"] for i in mine.search(ns, query="first")] == ["second"]  # not the cached hit
        assert s.cache.pending == 0
        own_redis.kill()  # Redis gone for good: every call still answers from PostgreSQL
        mine.put(ns, "k2", {"text": "third"})
        assert mine.get(ns, "k2").value == {"text": "third"}
        assert mine.search(ns, query="third")


def _tier_warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith("langgraph_trustmem.checkpoint")]


def test_many_threads_writing_at_once_never_run_the_tier_out_of_connections(
    pg_url, key, schema, own_redis, caplog
):
    """Each write holds a connection ("lane") from its mark until PostgreSQL
    has committed. Twelve threads writing at once on a client allowed 4
    connections once made the pool refuse one, which left Redis alone for a
    second and owed deletions; the tier now holds at most half the pool and
    a write waits for a lane given back."""
    from concurrent.futures import ThreadPoolExecutor

    url = f"{own_redis.url}?max_connections=4"
    cfgs = [config() for _ in range(12)]
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=url, key=key) as saver,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as other,
    ):
        graph = chat(saver)
        caplog.set_level("WARNING")
        with ThreadPoolExecutor(12) as pool:
            list(pool.map(lambda cfg: turns(graph, cfg, 4), cfgs))
        assert _tier_warnings(caplog) == []
        assert saver.hot.pending == 0 and not saver.hot.fence.cooling
        assert saver.hot._open <= 2
        for cfg in cfgs:  # another process reads every thread's latest write, from Redis
            entry = wait_for_entry(other, cfg)  # (sent a few ms after the thread's last write)
            assert entry is not None and len(entry.blobs) >= 1
            assert len(other.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 8


async def test_many_sessions_on_one_async_saver_never_run_the_tier_out_of_connections(
    pg_url, key, schema, own_redis, caplog
):
    """The async twin: 16 sessions at once on a client allowed 6 connections
    (redis-py's default, 100, ran out at 32 sessions in the benchmark)."""
    url = f"{own_redis.url}?max_connections=6"
    cfgs = [config() for _ in range(16)]
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=url, key=key) as saver:
        graph = chat(saver)
        caplog.set_level("WARNING")

        async def session(cfg):
            for i in range(4):
                await graph.ainvoke({"messages": [HumanMessage(f"turn {i}")]}, cfg)

        await asyncio.gather(*(session(cfg) for cfg in cfgs))
        assert _tier_warnings(caplog) == []
        assert saver.hot.pending == 0 and not saver.hot.fence.cooling
        assert saver.hot._open <= 3
        for cfg in cfgs:
            tk = saver.thread_key(cfg["configurable"]["thread_id"])
            assert (await saver.hot.aget(tk, "")) is not None
            assert len((await saver.aget_tuple(cfg)).checkpoint["channel_values"]["messages"]) == 8


def _tier(url: str, max_connections: int, is_async: bool = False):
    from langgraph_trustmem.checkpoint.hot import AsyncRedisHotTier, RedisHotTier
    from langgraph_trustmem.crypto import KeyRing, generate_key
    from langgraph_trustmem.services import async_redis_client, redis_client

    keyring = _tier.keyring = getattr(_tier, "keyring", None) or KeyRing([generate_key()])
    full = f"{url}?max_connections={max_connections}"
    return AsyncRedisHotTier(async_redis_client(full), keyring) if is_async else RedisHotTier(redis_client(full), keyring)


def _entry(cid: str):
    from langgraph_trustmem.checkpoint.hot import HotEntry

    return HotEntry(cid, None, b"payload", 0, 0, "ok", False, {("messages", "1"): b"blob"})


def test_a_write_that_finds_every_lane_busy_never_brings_a_deleted_thread_back(own_redis):
    """When every lane stays busy for Redis's timeout, the write goes to
    PostgreSQL unmarked; its entry is then deleted, never written: an
    unmarked entry would undo a deletion another process made meanwhile
    (the review of the lane cap found it so)."""
    tier = _tier(own_redis.url, max_connections=2)  # one lane
    other = _tier(own_redis.url, max_connections=10)  # another process
    tk = uuid.uuid4().bytes + uuid.uuid4().bytes
    first = tier.mark(tk, "", 60)
    tier.put(tk, "", _entry("0001"), (), 60, mark=first)
    assert tier.get(tk, "").checkpoint_id == "0001"  # sent: the next write of tk needs a mark of its own
    held = tier.mark(uuid.uuid4().bytes * 2, "", 60)  # another write in flight holds the lane
    started = time.monotonic()
    unmarked = tier.mark(tk, "", 60)
    assert 0.9 < time.monotonic() - started < 3
    other.drop([tk])  # deleted while the write is in PostgreSQL
    tier.put(tk, "", _entry("0002"), (), 60, mark=unmarked)
    tier.unmark(held)
    assert other.get(tk, "") is None and tier.get(tk, "") is None
    assert tier.pending == 0 and tier._open <= 1


async def test_a_cancelled_deletion_gives_back_the_lanes_it_had_not_read(own_redis):
    """A deletion reads every idle lane's owed replies first; cancelled while it
    waits on one, the lanes after it go back idle instead of counting against
    the cap for good."""
    tier = _tier(own_redis.url, max_connections=4, is_async=True)  # two lanes
    lanes = [await tier._run(tier._take()) for _ in range(2)]
    for lane in lanes:  # each owes a reply Redis sends in 2 s
        await lane.conn.send_command("BLPOP", f"nothing-{uuid.uuid4()}", 2)
        lane.owed.append(b"tk")
        tier._give(lane)
    task = asyncio.create_task(tier.adrop([uuid.uuid4().bytes * 2]))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(2.2)  # the reply the second lane owed has arrived
    tk = uuid.uuid4().bytes * 2
    mark = await tier.amark(tk, "", 60)
    await tier.aput(tk, "", _entry("0001"), (), 60, mark=mark)
    held = await tier.amark(uuid.uuid4().bytes * 2, "", 60)  # one write in flight
    started = time.monotonic()
    assert (await tier.aget(tk, "")) is not None  # the other lane serves the read at once
    assert time.monotonic() - started < 0.5
    await tier.aunmark(held)
    await tier.aclose()


async def test_a_waiter_cancelled_after_a_lane_was_handed_to_it_passes_the_lane_on(own_redis):
    """Two callers wait for the only lane; the first is cancelled just as the
    lane is handed to it: the second gets it at once, not after a timeout."""
    tier = _tier(own_redis.url, max_connections=2, is_async=True)  # one lane
    lane = await tier._run(tier._take())
    first = asyncio.create_task(tier._run(tier._take()))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(tier._run(tier._take()))
    await asyncio.sleep(0.05)
    tier._give(lane)  # handed to the first waiter...
    first.cancel()  # ...which is cancelled before it runs
    try:
        kept = await first  # Python 3.11's wait_for keeps a result that came with the cancel
    except asyncio.CancelledError:
        kept = None  # 3.12 and later: the waiter is gone, and so would be the lane
    if kept is not None:
        tier._give(kept)
    started = time.monotonic()
    got = await second
    assert getattr(got, "conn", None) is not None and time.monotonic() - started < 0.5
    tier._give(got)
    await tier.aclose()


def test_a_pool_of_one_connection_is_left_to_the_client(own_redis):
    """A client allowed one connection keeps it: the tier holds no lanes and
    writes and reads through the client (holding the only connection as a
    lane made every other command wait for it)."""
    tier = _tier(own_redis.url, max_connections=1)
    tk = uuid.uuid4().bytes * 2
    mark = tier.mark(tk, "", 60)
    assert mark is None  # no lane to mark on: the write waits for its entry instead
    started = time.monotonic()
    tier.put(tk, "", _entry("0001"), (), 60, mark=mark)
    got = tier.get(tk, "")
    assert got is not None and got.checkpoint_id == "0001"
    assert time.monotonic() - started < 0.5 and tier._open == 0 and tier.pending == 0
    tier.close()


def test_a_write_whose_entry_cannot_be_encoded_gives_its_lane_back(own_redis, monkeypatch):
    """An entry that fails to encode after its mark was confirmed raises to the
    caller, and its lane goes back: the next write on a one-lane tier does not
    wait for a lane that would never return. The thread's entry is deleted (its
    checkpoint is in PostgreSQL by then: the entry there is stale), so readers go
    to PostgreSQL until the next write lands one."""
    tier = _tier(own_redis.url, max_connections=2)  # one lane
    tk = uuid.uuid4().bytes * 2
    mark = tier.mark(tk, "", 60)

    def broken(*args, **kwargs):
        raise ValueError("cannot encode")

    monkeypatch.setattr(tier.codec, "encode", broken)
    with pytest.raises(ValueError):
        tier.put(tk, "", _entry("0001"), (), 60, mark=mark)
    monkeypatch.undo()
    assert tier.get(tk, "") is None  # marked: not served
    started = time.monotonic()
    again = tier.mark(tk, "", 60)
    assert time.monotonic() - started < 0.5 and again is not None and again.lane is not None
    tier.put(tk, "", _entry("0002"), (), 60, mark=again)
    assert tier.get(tk, "").checkpoint_id == "0002"
    assert tier._open <= 1 and tier.pending == 0
    tier.close()


def test_a_write_sharing_a_mark_returns_only_once_redis_has_run_it(own_redis):
    """Consecutive writes of one entry share the first one's mark. A second
    write whose PostgreSQL part ends before the first's has had its mark
    confirmed (a slow path to Redis) must not return until Redis has run that
    mark: a reader elsewhere would otherwise read the older entry after the
    write returned. Redis is looked at directly the moment it returns."""
    import threading

    import redis

    from .servers import SlowPath

    slow = SlowPath(own_redis.port, 0.2)
    tier = _tier(slow.url(own_redis.url), max_connections=10)
    admin = redis.Redis.from_url(own_redis.url)
    tk = uuid.uuid4().bytes * 2
    rkey = tier.codec.key(tk, "")
    first = tier.mark(tk, "", 60)  # its EVAL reaches Redis 0.2 s from now
    assert first is not None and first.lane is not None

    def first_write():
        time.sleep(0.3)  # its PostgreSQL part is slow
        tier.put(tk, "", _entry("0001"), (), 60, mark=first)

    writer = threading.Thread(target=first_write)
    writer.start()
    second = tier.mark(tk, "", 60)
    assert second is not None and second.lane is None and second.burst is first.burst  # shared: no I/O
    started = time.monotonic()
    tier.add_writes(tk, "", "0001", {("task", 0, "messages", ""): b"w"}, 60, mark=second)
    assert time.monotonic() - started > 0.15  # it waited for the mark's reply
    assert [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]  # and the mark is there
    writer.join()
    got = tier.get(tk, "")  # this process's held entries go first, then the read
    assert got is not None and got.checkpoint_id == "0001" and len(got.writes) == 1
    assert not [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]
    tier.close()
    slow.close()


def test_every_write_of_a_burst_is_read_back_by_another_process_at_once(pg_url, key, schema, own_redis):
    """Puts in quick succession share one mark and their entries are sent
    together later: another process reading after each put returns gets
    that put's checkpoint every time (PostgreSQL answers while the entry is
    marked), then, once the burst is sent, the same from Redis."""
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.base.id import uuid6

    cfg = config()
    with (
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as a,
        TrustCheckpointSaver.from_conn_string(pg_url, redis_url=own_redis.url, key=key) as b,
    ):
        parent = None
        for step in range(6):
            ck = empty_checkpoint()
            ck["id"] = str(uuid6(clock_seq=step))
            ck["channel_values"] = {"messages": [HumanMessage(f"m{i}") for i in range(step + 1)]}
            ck["channel_versions"] = {"messages": step + 1}
            conf = {"configurable": {**cfg["configurable"], "checkpoint_ns": "", "checkpoint_id": parent}}
            a.put(conf, ck, {"source": "loop", "step": step, "parents": {}}, {"messages": step + 1})
            parent = ck["id"]
            assert b.get_tuple(cfg).config["configurable"]["checkpoint_id"] == parent
            assert messages(b, cfg) == step + 1
        entry = wait_for_entry(b, cfg)
        assert entry is not None and entry.checkpoint_id == parent
        assert messages(b, cfg) == 6


async def test_an_async_write_sharing_a_mark_returns_only_once_redis_has_run_it(own_redis):
    """The async twin of the test above: the sharing write awaits the mark's
    reply, which the first write's task reads."""
    import redis

    from .servers import SlowPath

    slow = SlowPath(own_redis.port, 0.2)
    tier = _tier(slow.url(own_redis.url), max_connections=10, is_async=True)
    admin = redis.Redis.from_url(own_redis.url)
    tk = uuid.uuid4().bytes * 2
    rkey = tier.codec.key(tk, "")
    first = await tier.amark(tk, "", 60)
    assert first is not None and first.lane is not None

    async def first_write():
        await asyncio.sleep(0.3)
        await tier.aput(tk, "", _entry("0001"), (), 60, mark=first)

    writer = asyncio.create_task(first_write())
    second = await tier.amark(tk, "", 60)
    assert second is not None and second.lane is None and second.burst is first.burst
    started = time.monotonic()
    await tier.aadd_writes(tk, "", "0001", {("task", 0, "messages", ""): b"w"}, 60, mark=second)
    assert time.monotonic() - started > 0.15
    assert [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]
    await writer
    got = await tier.aget(tk, "")
    assert got is not None and got.checkpoint_id == "0001" and len(got.writes) == 1
    assert not [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]
    await tier.aclose()
    slow.close()


def test_a_bursts_folded_scripts_leave_the_entry_as_the_scripts_one_by_one(own_redis):
    """A burst's scripts are folded before they are sent (older pending writes
    dropped, each checkpoint folded into its child): on random chains of
    checkpoints, forks and pending writes (for the current, an older and a
    later checkpoint), the folded scripts leave Redis's entry exactly as the
    scripts run one by one, and send fewer."""
    import random

    import redis

    from langgraph_trustmem.checkpoint.hot import (
        _ADD_WRITES_LUA,
        _BURST_LUA,
        _PUT_LUA,
        HotEntry,
        Mark,
        compact,
    )

    admin = redis.Redis.from_url(own_redis.url)
    tier = _tier(own_redis.url, max_connections=10)
    codec = tier.codec
    rng = random.Random(7)
    sent = held_total = 0
    for trial in range(60):
        tk = uuid.uuid4().bytes * 2
        mark = codec.mark_field("e1")
        keep_mark = Mark(None, tk, codec.key(tk, ""), b"=" + mark, "e1")
        versions: dict[str, int] = {}
        held = []
        prev = None
        for step in range(rng.randint(1, 7)):
            cid = f"{trial:03d}-{step:03d}"
            if step and rng.random() < 0.2:
                prev = rng.choice([None, f"{trial:03d}-{step - 1:03d}x"])  # a fork's root, or another parent
            bumped = [c for c in "abc" if c not in versions or rng.random() < 0.5] or ["a"]
            for c in bumped:
                versions[c] = versions.get(c, 0) + 1
            blobs = {(c, str(versions[c])): rng.randbytes(8) for c in bumped}
            keep = [(c, str(v)) for c, v in versions.items() if c not in bumped]
            entry = HotEntry(cid, prev, rng.randbytes(8), 0, 0, "ok", False, blobs, epoch="e1")
            keys, args = codec.encode(tk, "", entry, keep, 60, prev, False, keep_mark)
            held.append((_PUT_LUA, keys, args))
            for _ in range(rng.randint(0, 2)):
                wcid = rng.choice([cid, f"{trial:03d}-{step - 1:03d}", f"{trial:03d}-{step + 1:03d}"])
                writes = {(f"t{rng.randint(0, 2)}", rng.randint(0, 1), "messages", ""): rng.randbytes(4)}
                wkeys, wargs = codec.writes_call(tk, "", wcid, writes, 60, rng.random() < 0.5, keep_mark)
                held.append((_ADD_WRITES_LUA, wkeys, wargs))
            prev = cid
        folded = compact(held)
        held_total += len(held)
        sent += len(folded)
        results = []
        for name, scripts in (("one", held), ("folded", folded)):
            key = f"fold-{name}-{trial}"
            admin.hset(key, b"id", f"{trial:03d}-000"[:-1] + "/")  # an older entry there first
            admin.hset(key, mark, int(admin.time()[0]))
            for lua, _keys, args in scripts:
                keys = [key, "", f"{key}-tomb"] if lua is _PUT_LUA else [key, ""]
                admin.eval(lua, len(keys), *keys, *args)
            results.append(admin.hgetall(key))
        key = f"fold-burst-{trial}"  # and as the tier sends it: one script, the mark cleared last
        admin.hset(key, b"id", f"{trial:03d}-000"[:-1] + "/")
        admin.hset(key, mark, int(admin.time()[0]))
        burst = [mark]
        for lua, _keys, args in folded:
            burst += ["p" if lua is _PUT_LUA else "w", len(args), *args]
        admin.eval(_BURST_LUA, 3, key, "", f"{key}-tomb", *burst)
        results.append(admin.hgetall(key))
        assert mark not in results[2]
        results[0].pop(mark, None)
        results[1].pop(mark, None)
        assert results[0] == results[1] == results[2], trial
    assert sent < 0.7 * held_total  # and it sends fewer


def _marks(admin, rkey) -> list[bytes]:
    return [f for f in admin.hkeys(rkey) if f.startswith(b"x\x00")]


def test_a_burst_held_across_a_restart_neither_clears_new_marks_nor_serves_stale(own_redis, monkeypatch):
    """A burst held while Redis restarts from a snapshot that kept its mark
    (as a promoted replica would): once the lane reconnects, the burst is of
    another lifetime and is not sent (it would clear the mark of a write of
    the new lifetime); the entry is deleted instead, with a tombstone, so a
    reader's refill from before that write commits is refused (found by the
    reviews of bursts: the burst was sent, cleared the new mark, and a reader
    got 0001 after 0002 returned; then, dropped, it let an older refill
    stand)."""
    import redis

    from langgraph_trustmem.checkpoint import hot

    monkeypatch.setattr(hot, "FLUSH_AFTER", 30.0)  # held; sent by hand below
    admin = redis.Redis.from_url(own_redis.url)
    a, d, c = (_tier(own_redis.url, max_connections=10) for _ in range(3))
    tk = uuid.uuid4().bytes * 2
    key = a.codec.key(tk, "")
    first = a.mark(tk, "", 60)
    a.put(tk, "", _entry("0001"), (), 60, mark=first)  # held, its mark in Redis
    own_redis.snapshot()
    own_redis.kill()
    own_redis.start()  # a new lifetime, the old mark restored
    assert _marks(admin, key)
    second = d.mark(tk, "", 60)  # another process's write of 0002, in PostgreSQL from here
    assert second is not None and second.lane is not None
    a._run(a._flush(key, force=True))  # what a's flusher runs when the burst falls due
    assert not admin.exists(key) or second.field in admin.hkeys(key)  # the entry deleted, or the new mark kept
    c.put(tk, "", _entry("0001"), (), 60, populate=True)  # a refill read before 0002 committed
    d.put(tk, "", _entry("0002"), (), 60, mark=second)  # 0002 returns
    d._run(d._flush(key, force=True))
    got = c.get(tk, "")
    assert got is None or got.checkpoint_id == "0002"
    for t in (a, d, c):
        t.close()


async def test_a_write_cancelled_while_sharing_a_mark_leaves_no_burst_behind(own_redis):
    """A task cancelled while it waits for the shared mark's reply: the burst
    is still sent (its entry deleted instead: the cancelled write may have
    committed), and the thread is served again after the next write (the
    review found the burst stuck for good, the thread never served from
    Redis again in this process)."""
    from .servers import SlowPath

    slow = SlowPath(own_redis.port, 0.2)
    t = _tier(slow.url(own_redis.url), max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    key = t.codec.key(tk, "")
    first = await t.amark(tk, "", 60)
    second = await t.amark(tk, "", 60)
    assert second.burst is first.burst
    job = asyncio.create_task(t.aadd_writes(tk, "", "0001", {("task", 0, "messages", ""): b"w"}, 60, mark=second))
    await asyncio.sleep(0.05)
    job.cancel()
    await asyncio.gather(job, return_exceptions=True)
    await t.aput(tk, "", _entry("0001"), (), 60, mark=first)
    await asyncio.sleep(1.0)
    assert key not in t._bursts
    again = await t.amark(tk, "", 60)
    await t.aput(tk, "", _entry("0002"), (), 60, mark=again)
    got = await t.aget(tk, "")
    assert got is not None and got.checkpoint_id == "0002"
    await t.aclose()
    slow.close()


async def test_a_write_whose_mark_opener_is_cancelled_does_not_wait_a_timeout(own_redis):
    """The write that sent the shared mark is cancelled while it reads the
    mark's reply: a write sharing the mark reads it itself, at once, rather
    than waiting Redis's timeout, and no burst is left behind."""
    from .servers import SlowPath

    slow = SlowPath(own_redis.port, 0.3)
    t = _tier(slow.url(own_redis.url), max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    key = t.codec.key(tk, "")
    first = await t.amark(tk, "", 60)
    second = await t.amark(tk, "", 60)
    opener = asyncio.create_task(t.aput(tk, "", _entry("0001"), (), 60, mark=first))
    await asyncio.sleep(0.05)
    opener.cancel()
    await asyncio.gather(opener, return_exceptions=True)
    started = time.monotonic()
    await t.aadd_writes(tk, "", "0001", {("task", 0, "messages", ""): b"w"}, 60, mark=second)
    assert time.monotonic() - started < 0.5
    await asyncio.sleep(0.2)
    assert key not in t._bursts
    await t.aclose()
    slow.close()


def test_a_write_sharing_a_mark_never_waits_for_the_first_writes_postgresql(own_redis):
    """LangGraph saves a checkpoint and pending writes at once: the pending
    writes' call, sharing the checkpoint's mark, returns as soon as Redis has
    run the mark, however long the checkpoint's own PostgreSQL part takes
    (the review found it waiting the checkpoint out, then Redis's timeout,
    then the thread cold for two minutes)."""
    import threading

    t, other = _tier(own_redis.url, max_connections=10), _tier(own_redis.url, max_connections=10)
    tk = uuid.uuid4().bytes * 2
    first = t.mark(tk, "", 60)
    second = t.mark(tk, "", 60)

    def slow_checkpoint():
        time.sleep(1.3)
        t.put(tk, "", _entry("0001"), (), 60, mark=first)

    writer = threading.Thread(target=slow_checkpoint)
    writer.start()
    started = time.monotonic()
    t.add_writes(tk, "", "0000", {("task", 0, "messages", ""): b"w"}, 60, mark=second)
    assert time.monotonic() - started < 0.5
    writer.join()
    got = t.get(tk, "")
    assert got is not None and got.checkpoint_id == "0001" and t.pending == 0
    t.close()
    other.close()


async def test_the_lane_of_a_shared_mark_goes_back_whoever_reads_its_reply(own_redis):
    """A write sharing the mark reads its reply while the write that sent it
    is cancelled waiting for that reading: the lane still goes back (the
    second review found it held for good, and a tier that leaks its lanes
    ends up marking nothing)."""
    from .servers import SlowPath

    slow = SlowPath(own_redis.port, 0.3)
    t = _tier(slow.url(own_redis.url), max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    first = await t.amark(tk, "", 60)
    second = await t.amark(tk, "", 60)
    joiner = asyncio.create_task(t.aadd_writes(tk, "", "0001", {("task", 0, "messages", ""): b"w"}, 60, mark=second))
    await asyncio.sleep(0.02)  # it reads the mark's reply
    opener = asyncio.create_task(t.aput(tk, "", _entry("0001"), (), 60, mark=first))
    await asyncio.sleep(0.05)  # it waits for that reading
    opener.cancel()
    await asyncio.gather(opener, joiner, return_exceptions=True)
    await asyncio.sleep(0.3)
    assert t._open == len(t._lanes) == 1  # the one lane, idle
    await t.aclose()
    slow.close()


def test_a_burst_redis_refuses_half_way_keeps_its_mark(own_redis, monkeypatch):
    """A burst of pending writes then their checkpoint, Redis full: the
    burst is one script that clears the mark last, so either all of it lands
    or the mark stays, and the refusal owes the entry a deletion. The first
    review found a separate HDEL clearing the mark after a refused script;
    the second, the writes refused and the checkpoint's script run (Redis
    lets a script that has written go on), the mark cleared: another process
    read 0002 without its writes."""
    import redis

    from langgraph_trustmem.checkpoint import hot

    monkeypatch.setattr(hot, "FLUSH_AFTER", 30.0)
    admin = redis.Redis.from_url(own_redis.url)
    a, r = _tier(own_redis.url, max_connections=10), _tier(own_redis.url, max_connections=10)
    tk = uuid.uuid4().bytes * 2
    key = a.codec.key(tk, "")
    m = a.mark(tk, "", 60)
    a.put(tk, "", _entry("0001"), (), 60, mark=m)
    assert a.get(tk, "").checkpoint_id == "0001"
    first = a.mark(tk, "", 60)
    second = a.mark(tk, "", 60)
    assert second.burst is first.burst
    a.add_writes(tk, "", "0002", {("task", 0, "messages", ""): b"w"}, 60, mark=second)
    admin.config_set("maxmemory", 1)
    try:
        a.put(tk, "", _entry("0002"), [("messages", "1")], 60, prev="0001", mark=first)
        a._run(a._flush(key, force=True))
        time.sleep(0.1)
        got = r.get(tk, "")  # another process, before the writer reads the refusal
        assert got is None or (got.checkpoint_id == "0002" and len(got.writes) == 1)
        a._run(a._drain())  # the refusal is read: the entry is owed a deletion
        assert a.pending == 1
    finally:
        admin.config_set("maxmemory", 0)
    assert a.get(tk, "") is None and a.pending == 0  # deleted before Redis is used again
    a.close()
    r.close()


def test_a_burst_not_sent_after_a_restart_leaves_no_older_refill(own_redis, monkeypatch):
    """0002 returned with its entry held; Redis restarts; another process's
    refill of 0001 (read before 0002 committed) lands in the new lifetime.
    The held burst is not sent there, and the entry is deleted instead (the
    second review found the refill served until its TTL)."""
    from langgraph_trustmem.checkpoint import hot

    monkeypatch.setattr(hot, "FLUSH_AFTER", 30.0)
    a, c = (_tier(own_redis.url, max_connections=10) for _ in range(2))
    tk = uuid.uuid4().bytes * 2
    key = a.codec.key(tk, "")
    m = a.mark(tk, "", 60)
    a.put(tk, "", _entry("0002"), (), 60, mark=m)
    own_redis.snapshot()
    own_redis.kill()
    own_redis.start()
    c.put(tk, "", _entry("0001"), (), 60, populate=True)
    a._run(a._flush(key, force=True))
    got = c.get(tk, "")
    assert got is None or got.checkpoint_id == "0002"
    a.close()
    c.close()


def test_a_forked_child_starts_its_tier_afresh(own_redis):
    """A process forked while its tier holds lanes and a burst (a pre-fork
    server): the child holds none of the parent's sockets, bursts or locks,
    and both read their own threads' latest entries, the parent's burst sent
    by the parent alone. A read that meets the burst in flight (the flusher
    sending it) is a miss by design (PostgreSQL answers it): never a wrong
    entry, and the entry is read once the burst has landed."""
    import os

    t = _tier(own_redis.url, max_connections=10)
    tks = [uuid.uuid4().bytes * 2 for _ in range(2)]
    for i, tk in enumerate(tks):
        m = t.mark(tk, "", 60)
        t.put(tk, "", _entry(f"000{i + 1}"), (), 60, mark=m)
        assert t.get(tk, "").checkpoint_id == f"000{i + 1}"
    m = t.mark(tks[0], "", 60)
    t.put(tks[0], "", _entry("0003"), (), 60, mark=m)  # held in a burst across the fork
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        try:
            fresh = not t._lanes and not t._bursts and t._open == 0
            got = [t.get(tks[1], "") for _ in range(300)]
            bad = sum(1 for g in got if g is not None and g.checkpoint_id != "0002")
            hits = sum(1 for g in got if g is not None)
            os.write(write, f"{fresh} {bad} {hits > 0}".encode())
        finally:
            os._exit(0)
    got = [t.get(tks[0], "") for _ in range(300)]
    assert all(g is None or g.checkpoint_id == "0003" for g in got)  # a miss, never another entry
    assert any(g is not None for g in got)
    os.waitpid(pid, 0)
    assert os.read(read, 100).decode() == "True 0 True"
    g = t.get(tks[0], "")
    assert g is not None and g.checkpoint_id == "0003"  # landed: the parent's burst was sent
    assert t.pending == 0 and not t.fence.cooling
    t.close()


def test_a_paused_redis_costs_one_timeout_however_many_lanes_owe_replies(own_redis):
    """Four lanes each owe a reply when Redis pauses: the first timeout
    leaves Redis alone for a while, so a write waits one timeout, not one per
    lane (the third review measured 5 s), and nothing is forgotten."""
    t = _tier(own_redis.url, max_connections=20)
    lanes = [t._run(t._take()) for _ in range(4)]
    tk = uuid.uuid4().bytes * 2
    own_redis.pause()
    try:
        for lane in lanes:
            lane.conn.send_command("PING")
            lane.owed.append(tk)
            t._give(lane)
        started = time.monotonic()
        t.mark(uuid.uuid4().bytes * 2, "", 60)
        assert time.monotonic() - started < 1.8
        assert t.fence.cooling and tk in t.fence.owed()
    finally:
        own_redis.resume()
    t.close()


async def test_a_deletion_cancelled_half_way_is_still_owed(own_redis, monkeypatch):
    """A read cancelled while it deletes the entry of a burst it could not
    send (another Redis lifetime): the deletion stays owed (the third review
    found it forgotten, and both processes read the older refill)."""
    from langgraph_trustmem.checkpoint import hot

    monkeypatch.setattr(hot, "FLUSH_AFTER", 30.0)
    a = _tier(own_redis.url, max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    m = await a.amark(tk, "", 60)
    await a.aput(tk, "", _entry("0002"), (), 60, mark=m)  # held
    own_redis.snapshot()
    own_redis.kill()
    own_redis.start()
    await asyncio.sleep(0.1)
    for _ in range(3):  # the tier reaches the new lifetime (the held burst untouched)
        await a.aget(uuid.uuid4().bytes * 2, "")
        await asyncio.sleep(1.1)
    drop = a._drop_now

    def slow_drop(tks):
        yield hot._CLIENT, asyncio.sleep, ((1.0,), {})
        return (yield from drop(tks))

    a._drop_now = slow_drop
    task = asyncio.create_task(a.aget(tk, ""))
    await asyncio.sleep(0.5)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    a._drop_now = drop
    assert tk in a.fence.owed()
    assert (await a.aget(tk, "")) is None and a.pending == 0  # paid before Redis is used again
    await a.aclose()


def test_an_async_tier_in_a_forked_child_starts_afresh(own_redis):
    """The async tier in a forked child (redis-py's asyncio pool does not
    check the process): the child's calls neither fail nor use the parent's
    sockets, and the parent's tier keeps working."""
    import os

    tier = _tier(own_redis.url, max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    loop = asyncio.new_event_loop()

    async def write_and_read():
        m = await tier.amark(tk, "", 60)
        await tier.aput(tk, "", _entry("0001"), (), 60, mark=m)
        got = await tier.aget(tk, "")
        return got and got.checkpoint_id

    assert loop.run_until_complete(write_and_read()) == "0001"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            async def child():
                return [(g := await tier.aget(tk, "")) and g.checkpoint_id for _ in range(3)]

            os.write(write, repr(asyncio.run(child())).encode())
        except BaseException as exc:
            os.write(write, type(exc).__name__.encode())
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 1000).decode() == "['0001', '0001', '0001']"
    got = loop.run_until_complete(tier.aget(tk, ""))
    assert got is not None and got.checkpoint_id == "0001" and tier.pending == 0
    loop.run_until_complete(tier.aclose())
    loop.close()


def _held_burst_lost_in_a_restart(own_redis, write) -> tuple[bytes, object]:
    """``write`` returns with its entry held (0002); Redis is killed before
    the burst falls due and comes back empty; another process refills 0001,
    read before 0002 committed, in the new lifetime. Returns the thread and
    that other process's tier."""
    tk = uuid.uuid4().bytes * 2
    write(tk)
    own_redis.kill()
    time.sleep(0.3)  # the burst falls due while Redis is down: its deletion is owed
    own_redis.start()
    c = _tier(own_redis.url, max_connections=10)
    c.put(tk, "", _entry("0001"), (), 60, populate=True)
    return tk, c


def test_an_owed_deletion_is_done_once_redis_is_back_without_another_call(own_redis):
    """The writer makes no further call after Redis comes back: its flusher
    does the owed deletion once Redis's cooldown is over, so the older
    refill another process made is gone within about a second (before, it
    stood until the writer's next call, or its TTL; the window
    docs/reliability.md named)."""
    a = _tier(own_redis.url, max_connections=10)

    def write(tk):
        m = a.mark(tk, "", 60)
        a.put(tk, "", _entry("0002"), (), 60, mark=m)

    tk, c = _held_burst_lost_in_a_restart(own_redis, write)
    assert a.pending == 1 and tk in a.fence.owed()
    deadline = time.monotonic() + 4.0
    while a.pending and time.monotonic() < deadline:
        time.sleep(0.05)
    assert a.pending == 0
    assert c.get(tk, "") is None  # deleted, with a tombstone: the next reader goes to PostgreSQL
    c.put(tk, "", _entry("0001"), (), 60, populate=True)  # a refill of 0001 racing the deletion
    assert c.get(tk, "") is None  # refused by the tombstone
    a.close()
    c.close()


async def test_an_async_tier_does_its_owed_deletion_once_redis_is_back(own_redis):
    """The async twin: the loop's flusher task does the owed deletion after
    the cooldown, with no further call of the writer."""
    a = _tier(own_redis.url, max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    m = await a.amark(tk, "", 60)
    await a.aput(tk, "", _entry("0002"), (), 60, mark=m)
    own_redis.kill()
    await asyncio.sleep(0.3)  # the burst falls due while Redis is down
    assert a.pending == 1
    own_redis.start()
    c = _tier(own_redis.url, max_connections=10)
    c.put(tk, "", _entry("0001"), (), 60, populate=True)
    deadline = time.monotonic() + 4.0
    while a.pending and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert a.pending == 0 and c.get(tk, "") is None
    await a.aclose()
    c.close()


def test_owed_deletions_are_tried_again_while_redis_stays_down(own_redis):
    """Redis down for several cooldowns: the flusher tries once per
    cooldown (no busy loop, no call of the writer's waits for it), keeps
    the debt, and pays it when Redis returns."""
    a = _tier(own_redis.url, max_connections=10)
    tk = uuid.uuid4().bytes * 2
    m = a.mark(tk, "", 60)
    a.put(tk, "", _entry("0002"), (), 60, mark=m)
    own_redis.kill()
    tries = []
    ready = a.fence.ready

    def counted(*args, **kwargs):
        tries.append(time.monotonic())
        return ready(*args, **kwargs)

    a.fence.ready = counted
    time.sleep(3.3)
    assert a.pending == 1 and 2 <= len(tries) <= 4  # about one a second
    own_redis.start()
    deadline = time.monotonic() + 4.0
    while a.pending and time.monotonic() < deadline:
        time.sleep(0.05)
    assert a.pending == 0
    got = a.get(tk, "")
    assert got is None  # its entry was deleted, never an older one served
    a.close()


def test_an_async_tier_owing_leaves_no_task_behind_and_closes_at_once(own_redis):
    """While a deletion is owed and Redis is down, the async flusher waits
    on a timer, not in a task: a loop stopped and closed then destroys no
    pending task, and ``aclose`` returns at once (the review of the
    owed-deletion flusher found a task destroyed pending, and ``aclose``
    waiting out the cooldown)."""
    a = _tier(own_redis.url, max_connections=10, is_async=True)
    tk = uuid.uuid4().bytes * 2
    loop = asyncio.new_event_loop()
    problems: list = []
    loop.set_exception_handler(lambda _loop, context: problems.append(context.get("message")))

    async def write():
        m = await a.amark(tk, "", 60)
        await a.aput(tk, "", _entry("0002"), (), 60, mark=m)

    async def timed_close():
        started = time.monotonic()
        await a.aclose()
        return time.monotonic() - started

    loop.run_until_complete(write())
    own_redis.kill()
    loop.run_until_complete(asyncio.sleep(0.3))  # the burst falls due while Redis is down: owed
    assert a.pending == 1 and a._flushing is None and a._timer is not None
    assert loop.run_until_complete(timed_close()) < 0.3
    loop.close()
    import gc

    gc.collect()
    assert not problems
    own_redis.start()


def test_an_outage_logs_once_not_once_a_retry(own_redis, caplog):
    """The flusher's retries while Redis stays down are logged at debug
    level: the failure that made the debt was logged already."""
    import logging

    a = _tier(own_redis.url, max_connections=10)
    tk = uuid.uuid4().bytes * 2
    m = a.mark(tk, "", 60)
    a.put(tk, "", _entry("0002"), (), 60, mark=m)
    with caplog.at_level(logging.DEBUG, logger="langgraph_trustmem"):
        own_redis.kill()
        time.sleep(3.3)
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        retries = [r for r in caplog.records if r.levelno == logging.DEBUG and "unavailable" in r.getMessage()]
    assert a.pending == 1 and len(warnings) <= 2 and len(retries) >= 2
    own_redis.start()
    a.close()


def test_a_flusher_round_that_raises_is_retried_and_delays_no_later_burst(own_redis):
    """A flusher round failing with a bug of its own (never seen; forced
    here): the sync flusher waits a cooldown but a new burst still goes out
    at once, and the async tier sets a retry timer instead of leaving its
    held burst unscheduled (both found by the second review of the flusher)."""
    a = _tier(own_redis.url, max_connections=10)
    b = _tier(own_redis.url, max_connections=10, is_async=True)
    for t in (a, b):
        real, calls = t._flush_due, []

        def failing_once(real=real, calls=calls):
            if not calls:
                calls.append(1)
                raise RuntimeError("forced")
            return (yield from real())

        t._flush_due = failing_once
    first, second = uuid.uuid4().bytes * 2, uuid.uuid4().bytes * 2
    m = a.mark(first, "", 60)
    a.put(first, "", _entry("0001"), (), 60, mark=m)
    time.sleep(0.05)  # the round raised; the flusher waits out a cooldown
    m = a.mark(second, "", 60)
    a.put(second, "", _entry("0002"), (), 60, mark=m)
    started = time.monotonic()
    while a._bursts and time.monotonic() - started < 2:
        time.sleep(0.002)
    assert time.monotonic() - started < 0.5 and not any(bk for bk in a._bursts.values() if bk.tk == second)
    a.close()

    async def held_then_retried():
        tk = uuid.uuid4().bytes * 2
        m = await b.amark(tk, "", 60)
        await b.aput(tk, "", _entry("0001"), (), 60, mark=m)
        await asyncio.sleep(0.1)  # the round raised
        assert b._bursts and b._timer is not None  # a retry is set, not nothing
        await asyncio.sleep(1.2)
        return len(b._bursts)

    loop = asyncio.new_event_loop()
    assert loop.run_until_complete(held_then_retried()) == 0
    loop.run_until_complete(b.aclose())
    loop.close()
