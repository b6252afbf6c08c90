"""No message text, memory content or identifier in plaintext anywhere the
checkpointer writes: a pg_dump of the whole database and every Redis key and
value are scanned for canaries after real graph sessions."""

from __future__ import annotations

import re
import uuid

import redis
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import TrustCheckpointSaver, label

CANARY_TEXT = "CANARY-7f3a9-blood-glucose-212"
CANARY_USER = "canary-user-0a9e77"
CANARY_THREAD = "canary-thread-5c1d2b"


def echo_graph(saver):
    def node(state):
        return {"messages": [AIMessage(f"Noted: {state['messages'][-1].content}")]}

    b = StateGraph(MessagesState)
    b.add_node("model", node)
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def readable(dump: str) -> str:
    """The dump with every bytea literal (hex) decoded as well, so text
    stored inside binary values (msgpack, JSON in bytes) is seen too."""
    decoded = [bytes.fromhex(h).decode("latin-1") for h in re.findall(r"\\\\x((?:[0-9a-f]{2})+)", dump)]
    return dump + "\n" + "\n".join(decoded)


def scan_all(pg, redis_url) -> str:
    dump = readable(pg.pg_dump())
    client = redis.Redis.from_url(redis_url)
    parts = [dump]
    for k in client.scan_iter(count=1000):
        parts.append(k.decode("latin-1"))
        kind = client.type(k)
        if kind == b"hash":
            for f, v in client.hgetall(k).items():
                parts += [f.decode("latin-1"), v.decode("latin-1")]
        elif kind == b"set":
            parts += [m.decode("latin-1") for m in client.smembers(k)]
        elif kind == b"string":
            parts.append(client.get(k).decode("latin-1"))
    client.close()
    return "\n".join(parts)


def test_canaries_reach_no_column_key_or_value(pg, pg_url, redis_url, key, schema):
    thread = f"{CANARY_THREAD}-{uuid.uuid4().hex[:6]}"
    config = {"configurable": {"thread_id": thread, "user_id": CANARY_USER, "trust": "sensitive"}}
    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as saver:
        graph = echo_graph(saver)
        for i in range(3):
            graph.invoke({"messages": [label(HumanMessage(f"{CANARY_TEXT} turn {i}"), "sensitive")]}, config)
        graph.update_state(config, {"messages": [HumanMessage(f"{CANARY_TEXT} edit")]})
        assert len(graph.get_state(config).values["messages"]) == 7
        # the hot tier holds the latest checkpoint
        assert any(True for _ in redis.Redis.from_url(redis_url).scan_iter(match="trustmem:cp:*"))
        everything = scan_all(pg, redis_url)
    for canary in (CANARY_TEXT, CANARY_USER, CANARY_THREAD, "glucose", "Noted:"):
        assert canary not in everything, f"{canary!r} found in plaintext"
    # and the data is really there: the scan is not looking at an empty store
    assert "trustmem_checkpoints" in everything and len(everything) > 10_000


def test_the_scan_finds_plaintext_when_it_is_there(pg):
    """Control: the stock PostgresSaver, same graph, its own database: the
    same scan does find the canaries, so the test above can fail."""
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS stock_control")
        conn.execute("CREATE DATABASE stock_control")
    with PostgresSaver.from_conn_string(pg.url_for("stock_control")) as stock:
        stock.setup()
        config = {"configurable": {"thread_id": CANARY_THREAD, "user_id": CANARY_USER}}
        echo_graph(stock).invoke({"messages": [HumanMessage(CANARY_TEXT)]}, config)
    dump = readable(pg.pg_dump(dbname="stock_control"))
    assert CANARY_TEXT in dump and CANARY_USER in dump and CANARY_THREAD in dump
