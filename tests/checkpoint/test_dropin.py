"""Connections set up the way LangGraph's PostgresSaver docs say work here
too: a Connection or a pool with ``row_factory=dict_row`` and
``prepare_threshold=0``, a pipeline, PostgresStore's ``pool_config``; a
connection without autocommit gets a typed error. Checkpoint metadata keeps the run's configurable fields, as the
stock savers do, and ``list(filter=...)`` finds them."""

from __future__ import annotations

import uuid
from typing import Annotated, TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.channels.delta import DeltaChannel
from langgraph.checkpoint.base import create_checkpoint, empty_checkpoint
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.types import TASKS
from langgraph.graph import START, MessagesState, StateGraph
from psycopg import AsyncConnection, Connection
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from langgraph_trustmem import AsyncTrustCheckpointSaver, ConfigurationError, TrustCheckpointSaver
from langgraph_trustmem.store import TrustStore

DOCS_KWARGS = {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}


def chat(saver):
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage("ok")]})
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def run_turns(saver) -> dict:
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-dropin", "tenant": "clinic-7"}}
    graph = chat(saver)
    graph.invoke({"messages": [HumanMessage("hi")]}, cfg)
    graph.invoke({"messages": [HumanMessage("again")]}, cfg)
    assert len(graph.get_state(cfg).values["messages"]) == 4
    return cfg


def test_a_connection_set_up_as_postgres_saver_docs_say(pg_url, key, schema):
    with Connection.connect(pg_url, **DOCS_KWARGS) as conn:
        saver = TrustCheckpointSaver(conn, key=key)
        saver.setup()
        cfg = run_turns(saver)
        found = list(saver.list(cfg, filter={"tenant": "clinic-7"}))
        assert found and all(t.metadata["tenant"] == "clinic-7" for t in found)
        assert list(saver.list(cfg, filter={"tenant": "other"})) == []


def test_a_pool_set_up_as_postgres_saver_docs_say(pg_url, key, schema):
    with ConnectionPool(pg_url, kwargs=DOCS_KWARGS, max_size=4) as pool:
        saver = TrustCheckpointSaver(pool, key=key)
        saver.setup()
        run_turns(saver)
        store = TrustStore(pool, key=key)
        store.setup()
        user = f"u-{uuid.uuid4().hex[:6]}"
        store.bound("personal", user_id=user).put(("memories", user), "k", {"text": "fact"})
        assert store.bound("personal", user_id=user).get(("memories", user), "k").value == {"text": "fact"}


async def test_async_connection_and_pool_as_the_docs_say(pg_url, key, schema):
    async with await AsyncConnection.connect(pg_url, **DOCS_KWARGS) as conn:
        saver = AsyncTrustCheckpointSaver(conn, key=key)
        await saver.setup()
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-dropin"}}
        await chat(saver).ainvoke({"messages": [HumanMessage("hi")]}, cfg)
        assert await saver.aget_tuple(cfg) is not None
    async with AsyncConnectionPool(pg_url, kwargs=DOCS_KWARGS, max_size=4, open=False) as pool:
        saver = AsyncTrustCheckpointSaver(pool, key=key)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-dropin"}}
        await chat(saver).ainvoke({"messages": [HumanMessage("hi")]}, cfg)
        assert await saver.aget_tuple(cfg) is not None


def test_a_connection_without_autocommit_is_refused_typed(pg_url, key, schema):
    with Connection.connect(pg_url) as conn:
        with pytest.raises(ConfigurationError):
            TrustCheckpointSaver(conn, key=key)
    with ConnectionPool(pg_url, kwargs={"prepare_threshold": 0}, min_size=1, max_size=2) as pool:
        with pytest.raises(ConfigurationError):
            TrustCheckpointSaver(pool, key=key)


def test_another_key_is_refused_at_setup_not_read_as_an_empty_database(pg, key, schema):
    import psycopg

    from langgraph_trustmem import WrongKeyError
    from langgraph_trustmem.crypto import generate_key

    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS key_check_test")
        conn.execute("CREATE DATABASE key_check_test")
    url = pg.url_for("key_check_test")
    with TrustCheckpointSaver.from_conn_string(url, key=key) as saver:
        saver.setup()
        saver.setup()  # the same key again: fine
    other = generate_key()
    with TrustCheckpointSaver.from_conn_string(url, key=other) as saver:
        with pytest.raises(WrongKeyError) as err:
            saver.setup()
        assert other not in str(err.value) and key not in str(err.value)
    with TrustStore.from_conn_string(url, key=other) as store:
        with pytest.raises(WrongKeyError):
            store.setup()
    # a rotated ring (new key first, the original last) still opens it
    with TrustCheckpointSaver.from_conn_string(url, key=f"{other},{key}") as saver:
        saver.setup()


def test_a_database_from_before_key_checks_refuses_a_wrong_key_first(pg, key, schema):
    """Data sealed by a release that kept no key check value: the first
    setup with another key is refused (and records nothing), so the right
    key still opens it afterwards."""
    import psycopg

    from langgraph_trustmem import WrongKeyError
    from langgraph_trustmem.crypto import generate_key

    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS key_check_legacy")
        conn.execute("CREATE DATABASE key_check_legacy")
    url = pg.url_for("key_check_legacy")
    user = "u-legacy"
    with TrustCheckpointSaver.from_conn_string(url, key=key) as saver, TrustStore.from_conn_string(
        url, key=key
    ) as store:
        saver.setup()
        store.setup()
        run_turns(saver)
        store.bound("personal", user_id=user).put(("memories", user), "k", {"text": "fact"})
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DELETE FROM trustmem_key_check")  # as an older release left it
    other = generate_key()
    with TrustStore.from_conn_string(url, key=other) as store:
        with pytest.raises(WrongKeyError):
            store.setup()
    with TrustCheckpointSaver.from_conn_string(url, key=other) as saver:
        with pytest.raises(WrongKeyError):
            saver.setup()
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM trustmem_key_check").fetchone()[0] == 0
    with TrustCheckpointSaver.from_conn_string(url, key=key) as saver:
        saver.setup()
    with TrustStore.from_conn_string(url, key=key) as store:
        store.setup()
        assert store.bound("personal", user_id=user).get(("memories", user), "k").value == {"text": "fact"}


def test_a_connection_in_pipeline_mode(pg_url, key, schema):
    """PostgresSaver and PostgresStore take ``pipe=conn.pipeline()``; apps
    also open a pipeline around their own work. Both work here."""
    user = f"u-{uuid.uuid4().hex[:6]}"
    with Connection.connect(pg_url, **DOCS_KWARGS) as conn:
        TrustCheckpointSaver(conn, key=key).setup()
        TrustStore(conn, key=key).setup()
        with conn.pipeline() as pipe:
            saver = TrustCheckpointSaver(conn, key=key, pipe=pipe)
            cfg = run_turns(saver)
            assert [t.metadata["tenant"] for t in saver.list(cfg, filter={"tenant": "clinic-7"})]
            store = TrustStore(conn, key=key, pipe=pipe).bound("personal", user_id=user)
            store.put(("memories", user), "k", {"text": "fact"})
            # committed when put returns: another connection sees it now
            with TrustStore.from_conn_string(pg_url, key=key) as other:
                seen = other.bound("personal", user_id=user).get(("memories", user), "k")
            assert seen is not None and seen.value == {"text": "fact"}
            store.put(("memories", user), "k", {"text": "fact"})  # an update: its own transaction
            got = store.get(("memories", user), "k")
            assert got is not None and got.value == {"text": "fact"} and got.updated_at > got.created_at
        with conn.pipeline():
            saver = TrustCheckpointSaver(conn, key=key)
            cfg = run_turns(saver)
            assert saver.get_tuple(cfg) is not None
        assert TrustStore(conn, key=key).bound("personal", user_id=user).get(("memories", user), "k")
    with ConnectionPool(pg_url, kwargs=DOCS_KWARGS, min_size=1, max_size=2) as pool, pool.connection() as conn:
        with conn.pipeline() as pipe, pytest.raises(ConfigurationError):
            TrustCheckpointSaver(pool, key=key, pipe=pipe)


async def test_an_async_connection_in_pipeline_mode(pg_url, key, schema):
    async with await AsyncConnection.connect(pg_url, **DOCS_KWARGS) as conn:
        await AsyncTrustCheckpointSaver(conn, key=key).setup()
        async with conn.pipeline() as pipe:
            saver = AsyncTrustCheckpointSaver(conn, key=key, pipe=pipe)
            cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-dropin", "tenant": "t9"}}
            await chat(saver).ainvoke({"messages": [HumanMessage("hi")]}, cfg)
            await chat(saver).ainvoke({"messages": [HumanMessage("again")]}, cfg)
            got = await saver.aget_tuple(cfg)
            assert got is not None and len(got.checkpoint["channel_values"]["messages"]) == 4
            assert [t async for t in saver.alist(cfg, filter={"tenant": "t9"})]


def test_pool_config_as_postgres_store_takes_it(pg_url, key, schema):
    config = {"min_size": 1, "max_size": 3, "kwargs": {"row_factory": dict_row, "prepare_threshold": 0}}
    with TrustStore.from_conn_string(pg_url, key=key, pool_config=config) as store:
        assert store.conn.max_size == 3
        store.setup()
        user = f"u-{uuid.uuid4().hex[:6]}"
        store.bound("personal", user_id=user).put(("memories", user), "k", {"text": "fact"})
        assert store.bound("personal", user_id=user).get(("memories", user), "k").value == {"text": "fact"}
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, pool_config=config) as saver:
        assert saver.conn.max_size == 3
        run_turns(saver)
    for bad in ({"kwargs": {"autocommit": False}}, {"max_idle": 5}):
        with pytest.raises(ConfigurationError):
            with TrustStore.from_conn_string(pg_url, key=key, pool_config=bad):
                pass


def _delta_reducer(state, writes):
    out = list(state or [])
    for w in writes:
        out.extend(w)
    return out


class DeltaState(TypedDict):
    items: Annotated[list, DeltaChannel(_delta_reducer)]
    other: str


def _delta_graph(saver):
    b = StateGraph(DeltaState)
    b.add_node("a", lambda s: {"items": ["a"]})
    b.add_node("b", lambda s: {"items": ["b"], "other": "x"})
    b.add_edge(START, "a")
    b.add_edge("a", "b")
    return b.compile(checkpointer=saver)


def _delta_run(saver, user: str | None) -> tuple[dict, dict, list]:
    conf = {"thread_id": str(uuid.uuid4())}
    if user:
        conf["user_id"] = user
    cfg = {"configurable": conf}
    graph = _delta_graph(saver)
    graph.invoke({"items": ["x"]}, cfg)
    graph.invoke({"items": ["y"]}, cfg)
    history = saver.get_delta_channel_history(config=saver.get_tuple(cfg).config, channels=["items", "other"])
    shape = {ch: (len(h["writes"]), h.get("seed", "<omitted>")) for ch, h in history.items()}
    snapshots = list(graph.get_state_history(cfg))
    return graph.get_state(cfg).values, shape, snapshots


@pytest.mark.parametrize("tier", ["none", "local", "redis"])
def test_delta_channels_and_history_as_the_stock_saver(pg_url, redis_url, key, schema, tier):
    """LangGraph's DeltaChannel replays ancestor writes through the saver's
    ``get_delta_channel_history``: the values, the history's shape (a seed
    omitted where none was stored) and the snapshots' configs, followed as
    they are, match InMemorySaver's."""
    want_values, want_shape, want_snaps = _delta_run(InMemorySaver(), None)
    opts = {"redis_url": redis_url} if tier == "redis" else {"local_hot": tier == "local"}
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, **opts) as saver:
        values, shape, snaps = _delta_run(saver, "u-delta")
        assert values == want_values and shape == want_shape
        assert [s.values for s in snaps] == [s.values for s in want_snaps]
        # a snapshot's config, as LangGraph hands it back, reads as its caller
        graph = _delta_graph(saver)
        oldest_with_items = [s for s in snaps if s.values.get("items")][-1]
        assert graph.get_state(oldest_with_items.config).values == oldest_with_items.values
        graph.invoke(None, snaps[1].config)  # time travel from the snapshot's own config


@pytest.mark.parametrize("tier", ["none", "redis"])
def test_an_older_checkpoint_formats_sends_are_migrated_on_read(pg_url, redis_url, key, schema, tier):
    """Before format 4, Send packets stayed in the parent's pending writes;
    reading such a checkpoint moves them into its tasks channel, as the
    stock savers do (get_tuple and list alike), and leaves the parent as is."""
    opts = {"redis_url": redis_url} if tier == "redis" else {}
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, **opts) as saver:
        config = {"configurable": {"thread_id": str(uuid.uuid4()), "checkpoint_ns": ""}}
        checkpoint_0 = empty_checkpoint()
        assert checkpoint_0["v"] < 4
        config = saver.put(config, checkpoint_0, {}, {})
        saver.put_writes(config, [(TASKS, "send-1"), (TASKS, "send-2")], task_id="task-1")
        saver.put_writes(config, [(TASKS, "send-3")], task_id="task-2")
        first = saver.get_tuple(config)
        assert first.checkpoint["channel_values"] == {} and first.checkpoint["channel_versions"] == {}

        config = saver.put(config, create_checkpoint(checkpoint_0, {}, 1), {}, {})
        for _ in range(2):  # the second read may come from the hot tier
            loaded = saver.get_tuple(config)
            assert loaded.checkpoint["channel_values"] == {TASKS: ["send-1", "send-2", "send-3"]}
            assert TASKS in loaded.checkpoint["channel_versions"]
        listed = list(saver.list({"configurable": {"thread_id": config["configurable"]["thread_id"]}}))
        assert listed[0].checkpoint["channel_values"] == {TASKS: ["send-1", "send-2", "send-3"]}
        assert listed[1].checkpoint["channel_values"] == {}


def test_time_travel_from_an_earlier_checkpoint_twice(pg_url, key, schema):
    """Replaying from a checkpoint that is not the thread's latest forks the
    history there (LangGraph's loop reads the addressed checkpoint, then the
    latest); doing it again from the same checkpoint forks again. The
    results and the history's length match InMemorySaver's."""

    def travel(saver, conf):
        graph = chat(saver)
        cfg = {"configurable": conf}
        graph.invoke({"messages": [HumanMessage("one")]}, cfg)
        graph.invoke({"messages": [HumanMessage("two")]}, cfg)
        history = list(saver.list(cfg))
        earlier = {"configurable": {**conf, "checkpoint_id": history[1].checkpoint["id"]}}
        first, second = graph.invoke(None, earlier), graph.invoke(None, earlier)
        contents = [[m.content for m in out["messages"]] for out in (first, second)]
        return contents, len(history), len(list(saver.list(cfg)))

    want = travel(InMemorySaver(), {"thread_id": "t"})
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        got = travel(saver, {"thread_id": str(uuid.uuid4()), "user_id": "u-travel"})
    assert got == want and got[0][0][-2:] == ["two", "ok"]


def test_delta_history_is_read_natively_across_pages(pg_url, key, schema, monkeypatch):
    """The native walk (a page of ancestors per round trip) answers what the
    base class's one-read-per-ancestor walk answers, across page boundaries."""
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from langgraph_trustmem.checkpoint import sql as ckpt_sql

    monkeypatch.setattr(ckpt_sql, "DELTA_PAGE", 3)
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        graph = _delta_graph(saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-delta"}}
        for i in range(6):
            graph.invoke({"items": [f"x{i}"]}, cfg)
        assert len(graph.get_state(cfg).values["items"]) == 18
        target = saver.get_tuple(cfg).config
        native = saver.get_delta_channel_history(config=target, channels=["items", "other"])
        walked = BaseCheckpointSaver.get_delta_channel_history(saver, config=target, channels=["items", "other"])
        assert native == walked and len(native["items"]["writes"]) == 18


def test_delta_history_stops_at_the_newest_stored_value(pg_url, key, schema, monkeypatch):
    """LangGraph stores a delta channel's value every ``snapshot_frequency``
    updates; the walk stops at the newest one (fetching the older ones cost
    a 1,000-message thread 200 ms a turn) and still answers what the base
    class answers. A "no value" blob (a version the checkpoint stored no
    value for) is passed, not taken for a stored value."""
    from langgraph.checkpoint.base import BaseCheckpointSaver

    class Snapshotting(TypedDict):
        items: Annotated[list, DeltaChannel(_delta_reducer, snapshot_frequency=4)]
        other: str

    b = StateGraph(Snapshotting)
    b.add_node("a", lambda s: {"items": ["a"]})
    b.add_node("b", lambda s: {"items": ["b"], "other": "x"})
    b.add_edge(START, "a")
    b.add_edge("a", "b")
    fetched: list[int] = []  # rows per page

    def counting(ops):
        item = next(ops)
        while True:
            rows = yield item
            if item[0].lstrip().startswith("WITH RECURSIVE chain"):
                fetched.append(len(rows))
            try:
                item = ops.send(rows)
            except StopIteration as stop:
                return stop.value

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        run = saver._run
        monkeypatch.setattr(saver, "_run", lambda ops: run(counting(ops)))
        graph = b.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-delta"}}
        for i in range(10):
            graph.invoke({"items": [f"x{i}"]}, cfg)
        assert len(graph.get_state(cfg).values["items"]) == 30
        target = saver.get_tuple(cfg).config
        fetched.clear()
        native = saver.get_delta_channel_history(config=target, channels=["items", "other"])
        walked = BaseCheckpointSaver.get_delta_channel_history(saver, config=target, channels=["items", "other"])
        assert native == walked
        assert "seed" in native["items"] and len(native["items"]["writes"]) < 4  # from the newest value on
        assert fetched and sum(fetched) <= 6  # the thread has 40 ancestors; the newest value is a few back


async def test_async_delta_history_matches_the_sync_one(pg_url, key, schema):
    from langgraph_trustmem import AsyncTrustCheckpointSaver

    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        graph = _delta_graph(saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-delta"}}
        for i in range(3):
            await graph.ainvoke({"items": [f"x{i}"]}, cfg)
        assert (await graph.aget_state(cfg)).values["items"] == ["x0", "a", "b", "x1", "a", "b", "x2", "a", "b"]
        target = (await saver.aget_tuple(cfg)).config
        got = await saver.aget_delta_channel_history(config=target, channels=["items"])
        assert [w[2] for w in got["items"]["writes"]] == [["x0"], ["a"], ["b"], ["x1"], ["a"], ["b"], ["x2"], ["a"], ["b"]]
        assert "seed" not in got["items"]
