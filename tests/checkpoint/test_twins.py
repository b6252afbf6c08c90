"""The sync and async twins offer the same surface: every operator method
of one exists on the other (the async saver's sync names run on its loop),
and an async store beside a sync saver finds the session."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import AsyncTrustCheckpointSaver, TamperedDataWarning, TrustCheckpointSaver
from langgraph_trustmem.crypto import generate_key
from langgraph_trustmem.store import AsyncTrustStore, TrustStore

OPERATOR = [
    "session",
    "degrade",
    "terminate",
    "sweep",
    "forget_user",
    "branches",
    "branch_sizes",
    "list_threads",
    "rotate_keys",
    "delete_thread",
    "copy_thread",
    "prune",
]


def test_the_savers_and_stores_have_the_same_names():
    for name in OPERATOR:
        assert callable(getattr(TrustCheckpointSaver, name)), name
        assert callable(getattr(AsyncTrustCheckpointSaver, name)), name
        assert callable(getattr(AsyncTrustCheckpointSaver, f"a{name}")), name
    assert callable(TrustCheckpointSaver.asession)
    for name in ("outdated_count", "audit_tail", "verify_audit", "sweep_ttl", "rotate_keys", "audit_trail"):
        assert callable(getattr(TrustStore, name)), name
        assert callable(getattr(AsyncTrustStore, f"a{name}")), name


def chat(saver):
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage("ok")]})
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


async def test_the_async_savers_sync_operator_calls_answer_as_the_async_ones(pg_url, key, schema):
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-twin", "trust": "personal"}}
        await chat(saver).ainvoke({"messages": [HumanMessage("hi")]}, cfg)
        tid = cfg["configurable"]["thread_id"]
        assert await asyncio.to_thread(saver.branches, tid) == await saver.abranches(tid)
        assert await asyncio.to_thread(saver.branch_sizes, tid) == await saver.abranch_sizes(tid)
        # a thread sealed under another key in the same database is left out, not fatal
        with TrustCheckpointSaver.from_conn_string(pg_url, key=generate_key()) as stranger:
            other = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-other"}}
            await asyncio.to_thread(chat(stranger).invoke, {"messages": [HumanMessage("x")]}, other)
        with pytest.warns(TamperedDataWarning):
            listed = await asyncio.to_thread(saver.list_threads, 100_000)
        assert tid in [t["thread_id"] for t in listed]
        assert other["configurable"]["thread_id"] not in [t["thread_id"] for t in listed]
        with pytest.warns(TamperedDataWarning):
            again = await saver.alist_threads(100_000)
        assert [t["thread_id"] for t in again] == [t["thread_id"] for t in listed]
        assert await asyncio.to_thread(saver.forget_user, "u-twin") >= 1
        assert await saver.aget_tuple({"configurable": {"thread_id": tid, "user_id": "u-twin"}}) is None


async def test_an_async_store_beside_a_sync_saver_reads_the_session(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-twin2", "trust": "internal"}}
        await asyncio.to_thread(chat(saver).invoke, {"messages": [HumanMessage("hi")]}, cfg)
        session = await saver.asession(cfg)
        assert session is not None and session.level == "internal"
