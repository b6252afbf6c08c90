"""Attack: with write access to PostgreSQL but not the key, edit the columns
that decide access.

Lowering a memory's level, moving a row into another tenant's searches,
re-pointing a thread's head at a sealed branch, giving a thread to another
owner, and cutting the newest audit events must all be detected.
"""

from __future__ import annotations

import uuid

import psycopg
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.errors import TamperedDataError, TamperedDataWarning

from .helpers import flat, gated_chat, tool_turn

CANARY = "TAMPER-CANARY"


def sql(pg_url, statement, params=()):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        return conn.execute(statement, params).rowcount


def test_lowering_a_memory_level_is_detected(store, user, pg_url):
    ns = ("memories", user)
    store.bound("sensitive").put(ns, "dx", {"text": f"diagnosis {CANARY}"}, level="personal")
    changed = sql(
        pg_url,
        "UPDATE trustmem_memories SET level = 0 WHERE ns_hash = %s AND key_hash = %s",
        (store.ns_hash(ns), store.key_hash("dx")),
    )
    assert changed == 1
    public = store.bound("public", user_id=user)
    with pytest.raises(TamperedDataError):
        public.get(ns, "dx")
    assert all(CANARY not in str(i.value) for i in public.search(ns, query="diagnosis"))
    assert all(CANARY not in str(i.value) for i in public.search(ns))


def test_moving_a_row_into_another_tenant_is_detected(store, user, pg_url):
    victim = f"victim-{uuid.uuid4().hex[:6]}"
    store.bound("sensitive").put(("memories", victim), "v", {"text": "victim fact"}, level="public")
    store.bound("sensitive").put(("memories", user), "bait", {"text": f"planted {CANARY}"}, level="public")
    changed = sql(
        pg_url,
        """UPDATE trustmem_memories m SET tenant = v.tenant, ns_prefixes = v.ns_prefixes
           FROM trustmem_memories v WHERE v.ns_hash = %s AND m.ns_hash = %s AND m.key_hash = %s""",
        (store.ns_hash(("memories", victim)), store.ns_hash(("memories", user)), store.key_hash("bait")),
    )
    assert changed == 1
    if store.cache is not None:
        store.cache.invalidate([None, store.user_key(victim), store.user_key(user)])
    seen = store.bound("public", user_id=victim).search(("memories", victim))
    assert all(CANARY not in str(i.value) for i in seen)
    seen = store.bound("public", user_id=victim).search(("memories", victim), query="planted")
    assert all(CANARY not in str(i.value) for i in seen)


def test_repointing_the_head_branch_is_detected(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:

        graph = gated_chat(saver, CANARY)
        tid = str(uuid.uuid4())
        cfg = {"configurable": {"thread_id": tid, "user_id": "u-t", "trust": "personal"}}
        graph.invoke({"messages": [HumanMessage("hi")]}, cfg)
        graph.invoke({"messages": tool_turn("web", "page")}, cfg)
        public = {"configurable": {"thread_id": tid, "user_id": "u-t", "trust": "public"}}
        assert CANARY not in flat(graph.get_state(public).values)
        tk = saver.thread_key(tid)
        assert (
            sql(
                pg_url,
                "UPDATE trustmem_threads SET head_branch = 0, head_level = 2, level = 2 "
                "WHERE thread_key = %s",
                (tk,),
            )
            == 1
        )
        with pytest.raises(TamperedDataError):
            graph.get_state(public)
        with pytest.raises(TamperedDataError):
            graph.invoke({"messages": [HumanMessage("again")]}, public)
        # a listing across threads leaves the tampered thread out and says so
        with pytest.warns(TamperedDataWarning):
            listed = list(saver.list({"configurable": {"user_id": "u-t"}}))
        assert all(t.config["configurable"]["thread_id"] != tid for t in listed)


def test_giving_a_thread_to_another_owner_is_detected(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        b = StateGraph(MessagesState)
        b.add_node("model", lambda s: {"messages": [AIMessage(CANARY)]})
        b.add_edge(START, "model")
        graph = b.compile(checkpointer=saver)
        tid = str(uuid.uuid4())
        graph.invoke(
            {"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": tid, "user_id": "alice"}}
        )
        sql(
            pg_url,
            "UPDATE trustmem_threads SET user_key = %s WHERE thread_key = %s",
            (saver.user_key("mallory"), saver.thread_key(tid)),
        )
        with pytest.raises(TamperedDataError):
            graph.get_state({"configurable": {"thread_id": tid, "user_id": "mallory"}})


def test_cutting_the_newest_audit_events_is_detected(store, user, pg_url):
    for i in range(3):
        store.bound("sensitive").put(("memories", user), f"k{i}", {"text": f"fact {i}"})
    assert store.verify_audit().ok
    sql(pg_url, "DELETE FROM trustmem_audit WHERE seq > (SELECT max(seq) - 2 FROM trustmem_audit)")
    assert not store.verify_audit().ok
