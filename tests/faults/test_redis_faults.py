"""Redis killed, restored from an older snapshot, paused or gone: no read
returns a checkpoint older than the last acknowledged write, nothing deleted
comes back, and no call fails or hangs."""

from __future__ import annotations

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
