"""Bad input gets a clear, typed error and loses nothing already stored;
what is accepted comes back as it went in."""

from __future__ import annotations

import math
import uuid
from datetime import date, datetime, timezone
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.errors import InvalidInputError, SecretRejected

from ..store.conftest import (
    store,  # noqa: F401
    user,  # noqa: F401
)

json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**53), 2**53), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)  # fmt: skip
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=12,
)


def finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(finite(v) for v in value.values())
    if isinstance(value, list):
        return all(finite(v) for v in value)
    return True


@settings(
    max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(value=st.dictionaries(st.text(min_size=1, max_size=8), json_value, max_size=4))
def test_store_values_round_trip_or_are_refused_typed(store, user, value):  # noqa: F811
    mine = store.bound("personal", user_id=user)
    ns = ("memories", user)
    mine.put(ns, "anchor", {"text": "kept"})
    try:
        mine.put(ns, "k", value, index=False)
    except SecretRejected:
        pass  # a number that reads as a card number: refused, typed, nothing stored
    except InvalidInputError:
        assert not finite(value)
    else:
        assert finite(value)
        got = mine.get(ns, "k").value
        assert got == value or got.keys() == value.keys()  # the guard may redact personal data
    assert mine.get(ns, "anchor").value == {"text": "kept"}  # nothing already stored is touched


@pytest.mark.parametrize(
    "value",
    [
        {"x": float("nan")},
        {"x": [1.0, float("inf")]},
        {"text": "lone \ud800 surrogate"},
        {"\ud800": "key"},
        "a bare string",
        ["a", "list"],
        {1: "int key"},
        {"blob": b"raw bytes"},
        {"tags": {"a", "b"}},
        {"dose": Decimal("2.5")},
    ],
    ids=["nan", "inf", "surrogate", "surrogate-key", "string", "list", "int-key", "bytes", "set", "decimal"],
)
def test_values_the_store_cannot_keep_are_refused_typed(store, user, value):  # noqa: F811
    mine = store.bound("personal", user_id=user)
    with pytest.raises(InvalidInputError) as err:
        mine.put(("memories", user), "k", value)
    assert "surrogate" not in str(err.value) and "bare string" not in str(err.value)


def test_dates_and_uuids_are_kept_as_their_json_strings(store, user):  # noqa: F811
    """As a JSONB document holds them (LangGraph's BaseStore values are JSON):
    ISO 8601 dates and times, canonical UUIDs, tuples as lists; searchable
    and filterable like any string."""
    mine = store.bound("personal", user_id=user)
    ns = ("memories", user)
    ref = uuid.UUID("12345678-1234-5678-1234-567812345678")
    when = datetime(2026, 3, 4, 5, 6, 7, tzinfo=timezone.utc)
    value = {"text": "follow-up visit", "at": when, "on": date(2026, 3, 4), "ref": ref, "pair": (1, 2)}
    mine.put(ns, "visit", value)
    got = mine.get(ns, "visit").value
    assert got == {
        "text": "follow-up visit",
        "at": "2026-03-04T05:06:07+00:00",
        "on": "2026-03-04",
        "ref": str(ref),
        "pair": [1, 2],
    }
    assert datetime.fromisoformat(got["at"]) == when
    assert [i.key for i in mine.search(ns, filter={"on": "2026-03-04"})] == ["visit"]


def test_deep_nesting_is_refused_typed(store, user):  # noqa: F811
    deep: dict = {}
    node = deep
    for _ in range(5000):
        node["x"] = {}
        node = node["x"]
    with pytest.raises(InvalidInputError):
        store.bound("personal", user_id=user).put(("memories", user), "k", deep)


@pytest.fixture
def saver(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as s:
        yield s


def chat(saver):
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage("ok")]})
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


@pytest.mark.parametrize(
    "conf",
    [
        {"thread_id": {"a": 1}},
        {"thread_id": ["x"]},
        {"thread_id": True},
        {"thread_id": "t", "checkpoint_ns": "a\x00b"},
        {"thread_id": "lone \ud800"},
    ],
    ids=["dict-thread", "list-thread", "bool-thread", "nul-namespace", "surrogate-thread"],
)
def test_configs_the_saver_cannot_keep_are_refused_typed(saver, conf):
    for call in (
        lambda: saver.get_tuple({"configurable": conf}),
        lambda: list(saver.list({"configurable": conf})),
        lambda: saver.put_writes({"configurable": {**conf, "checkpoint_id": "1"}}, [("x", 1)], "task"),
    ):
        with pytest.raises(InvalidInputError):
            call()


def test_a_run_with_an_unusable_thread_id_is_refused_typed(saver):
    # (LangGraph itself turns other thread ids into strings before a run)
    with pytest.raises(InvalidInputError):
        chat(saver).invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": "lone \ud800"}})


def test_uuid_and_int_thread_ids_work(saver):
    for tid in (uuid.uuid4(), 12345678901):
        chat(saver).invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": tid}})
        assert saver.get_tuple({"configurable": {"thread_id": tid}}) is not None


@settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    labels=st.lists(st.text(max_size=6), min_size=0, max_size=3),
    key=st.text(max_size=8),
)
def test_namespaces_and_keys_round_trip_or_are_refused_typed(store, user, labels, key):  # noqa: F811
    from langgraph.store.base import InvalidNamespaceError

    mine = store.bound("personal", user_id=user)
    ns = ("memories", user, *labels)
    try:
        mine.put(ns, key, {"text": "fact"}, index=False)
    except (InvalidNamespaceError, InvalidInputError):
        return  # empty or NUL labels, or text that is not valid Unicode: typed
    got = mine.get(ns, key)
    assert got is not None and got.namespace == ns and got.key == key
