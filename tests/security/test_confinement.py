"""Attack: lose the run's context and reach another user's memories.

A node that hands store calls to a plain thread pool runs them without the
graph run's context. Such calls must fail closed (no tenant-scoped reads or
writes) unless the store was bound explicitly; ``carry_context`` keeps the
run's confinement in worker threads.
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from langchain_core.messages import HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.context import ContextThreadPoolExecutor, carry_context
from langgraph_trustmem.errors import TenantIsolationError

SECRET = "VICTIM-DIAGNOSIS-CANARY"


@pytest.fixture
def saver(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as s:
        yield s


def graph_with(saver, store, node):
    b = StateGraph(MessagesState)
    b.add_node("work", node)
    b.add_edge(START, "work")
    return b.compile(checkpointer=saver, store=store)


def test_a_plain_thread_pool_cannot_cross_tenants(saver, store, user):
    victim = f"victim-{uuid.uuid4().hex[:6]}"
    store.bound("sensitive").put(("memories", victim), "dx", {"text": SECRET}, level="public")
    outcome: dict = {}

    def node(state):
        with ThreadPoolExecutor(2) as pool:
            read = pool.submit(store.search, ("memories", victim), query="diagnosis")
            write = pool.submit(store.put, ("memories", victim), "planted", {"text": "x"})
            get = pool.submit(store.get, ("memories", victim), "dx")
        for name, fut in (("read", read), ("write", write), ("get", get)):
            try:
                outcome[name] = fut.result()
            except TenantIsolationError:
                outcome[name] = "refused"
        return {}

    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "sensitive"}}
    graph_with(saver, store, node).invoke({"messages": [HumanMessage("hi")]}, cfg)
    assert outcome == {"read": "refused", "write": "refused", "get": "refused"}
    assert store.bound("sensitive").get(("memories", victim), "planted") is None


def test_carry_context_keeps_the_run_in_worker_threads(saver, store, user):
    store.bound("sensitive").put(("memories", user), "pref", {"text": "likes tea"}, level="public")
    victim = f"victim-{uuid.uuid4().hex[:6]}"
    store.bound("sensitive").put(("memories", victim), "dx", {"text": SECRET}, level="public")
    outcome: dict = {}

    def node(state):
        with ContextThreadPoolExecutor(2) as pool:
            own = pool.submit(store.search, ("memories", user), query="tea")
            other = pool.submit(store.search, ("memories", victim), query="diagnosis")
        outcome["own"] = [i.value["text"] for i in own.result()]
        with pytest.raises(TenantIsolationError):
            other.result()
        with ThreadPoolExecutor(1) as pool:
            outcome["wrapped"] = pool.submit(carry_context(store.get), ("memories", user), "pref").result()
        return {}

    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}}
    graph_with(saver, store, node).invoke({"messages": [HumanMessage("hi")]}, cfg)
    assert outcome["own"] == ["likes tea"]
    assert outcome["wrapped"] is not None


def test_an_explicitly_bound_store_is_confined_to_its_user(store, user):
    victim = f"victim-{uuid.uuid4().hex[:6]}"
    store.bound("sensitive").put(("memories", victim), "dx", {"text": SECRET}, level="public")
    mine = store.bound("personal", user_id=user)
    mine.put(("memories", user), "pref", {"text": "likes tea"})
    assert mine.get(("memories", user), "pref") is not None
    with pytest.raises(TenantIsolationError):
        mine.get(("memories", victim), "dx")
    with pytest.raises(TenantIsolationError):
        store.get(("memories", victim), "dx")  # unbound, outside any run
