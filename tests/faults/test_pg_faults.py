"""PostgreSQL restarted or killed under a running saver, or not there at
startup: the pool heals without failed calls, acknowledged turns are kept,
and a server that cannot be used is reported fast, typed, without a
credential anywhere."""

from __future__ import annotations

import logging
import time
import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import AsyncTrustCheckpointSaver, TrustCheckpointSaver
from langgraph_trustmem.errors import ServiceUnavailable

from .conftest import kill_postgres

pytestmark = pytest.mark.slow


def chat(saver):
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage(f"echo {len(s['messages'])}")]})
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def config() -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-pg"}}


def test_a_restart_behind_an_idle_pool_fails_no_call(own_pg, key):
    cfg = config()
    with TrustCheckpointSaver.from_conn_string(own_pg.url, key=key, pool_size=8) as saver:
        saver.setup()
        graph = chat(saver)
        graph.invoke({"messages": [HumanMessage("hi")]}, cfg)
        with saver.conn.connection() as a, saver.conn.connection() as b:  # several idle connections
            a.execute("SELECT 1")
            b.execute("SELECT 1")
        own_pg.stop()
        own_pg.start()
        for _ in range(10):  # every pooled connection went stale; none of these calls fails
            assert saver.get_tuple(cfg) is not None
        graph.invoke({"messages": [HumanMessage("again")]}, cfg)
        assert len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 4


def test_sigkill_mid_session_keeps_every_acknowledged_turn(own_pg, key):
    cfg = config()
    with TrustCheckpointSaver.from_conn_string(own_pg.url, key=key) as saver:
        saver.setup()
        graph = chat(saver)
        for i in range(5):
            graph.invoke({"messages": [HumanMessage(f"turn {i}")]}, cfg)
        kill_postgres(own_pg)
        with pytest.raises(Exception):  # noqa: B017 - the server is gone: the turn fails, loudly
            graph.invoke({"messages": [HumanMessage("lost")]}, cfg)
        own_pg.start()
        graph.invoke({"messages": [HumanMessage("after")]}, cfg)
        texts = [m.content for m in graph.get_state(cfg).values["messages"]]
        assert [t for t in texts if t.startswith("turn")] == [f"turn {i}" for i in range(5)]
        assert texts[-2:] == ["after", "echo 11"] or "after" in texts


async def test_the_async_pool_heals_after_a_restart(own_pg, key):
    cfg = config()
    async with AsyncTrustCheckpointSaver.from_conn_string(own_pg.url, key=key) as saver:
        await saver.setup()
        graph = chat(saver)
        await graph.ainvoke({"messages": [HumanMessage("hi")]}, cfg)
        own_pg.stop()
        own_pg.start()
        for _ in range(5):
            assert await saver.aget_tuple(cfg) is not None


@pytest.mark.parametrize(
    "url,reason",
    [
        ("postgresql://app:s3cr3t-PASSWORD@127.0.0.1:{port}/db", "unreachable"),
        ("postgresql://postgres:s3cr3t-PASSWORD@/no_such_db?host={sock}", "no such database"),
    ],
)
def test_a_server_that_cannot_be_used_fails_fast_typed_and_without_the_password(
    own_pg, key, caplog, url, reason
):
    from .servers import free_port

    url = url.format(port=free_port(), sock=own_pg.sock)
    caplog.set_level(logging.DEBUG)
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable) as err:
        with TrustCheckpointSaver.from_conn_string(url, key=key):
            pass
    assert time.monotonic() - started < 8
    assert reason in str(err.value)
    assert "s3cr3t-PASSWORD" not in str(err.value) and "s3cr3t-PASSWORD" not in caplog.text
    assert err.value.__cause__ is None and err.value.__context__ is None or "s3cr3t" not in repr(err.value)


def test_settings_and_open_never_show_a_password():
    from langgraph_trustmem.config import Settings
    from langgraph_trustmem.crypto import generate_key

    s = Settings.resolve(
        postgres_url="postgresql://app:s3cr3t-PASSWORD@db/x",
        redis_url="redis://:s3cr3t-PASSWORD@cache:6379/0",
        key=generate_key(),
    )
    assert "s3cr3t-PASSWORD" not in repr(s) and "s3cr3t-PASSWORD" not in str(s)
