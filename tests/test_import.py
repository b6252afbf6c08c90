"""The adoption path: a stock PostgresSaver/PostgresStore database, populated
by the stock classes in its own database on the suite's PostgreSQL, moved
into the trust checkpointer and store (real servers, no mocks)."""

from __future__ import annotations

import time
import uuid
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.store.base import PutOp
from langgraph.store.postgres import PostgresStore
from langgraph.types import Command, interrupt

from langgraph_trustmem import (
    ImportCounts,
    ImportRules,
    ImportSourceError,
    ThreadOwnershipError,
    TrustCheckpointSaver,
    TrustStore,
    UnknownLevelError,
    import_from_postgres,
)
from langgraph_trustmem.crypto import generate_key

TRUST_TABLES = (
    "trustmem_threads",
    "trustmem_checkpoints",
    "trustmem_blobs",
    "trustmem_writes",
    "trustmem_memories",
)


@pytest.fixture
def database(pg):
    """Fresh databases on the suite's PostgreSQL, dropped after the test."""
    made: list[str] = []

    def make(prefix: str) -> str:
        name = f"{prefix}_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(pg.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return pg.url_for(name)

    yield make
    with psycopg.connect(pg.url, autocommit=True) as conn:
        for name in made:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def trust_target(url: str, redis_url: str, index: Any = None):
    """The trust checkpointer and store on a fresh database. A key of its
    own: the shared Redis never holds another test's entries under it."""
    key = generate_key()
    with (
        TrustCheckpointSaver.from_conn_string(url, key=key, redis_url=redis_url) as saver,
        TrustStore.from_conn_string(
            url, key=key, redis_url=redis_url, index=index, qdrant=":memory:" if index else None
        ) as store,
    ):
        saver.setup()
        store.setup()
        yield saver, store


def echo_graph(saver):
    def model(state):
        return {"messages": [AIMessage(f"Noted: {state['messages'][-1].content}")]}

    b = StateGraph(MessagesState)
    b.add_node("model", model)
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def ask_graph(saver):
    """A graph that stops for a human's answer (a pending interrupt write)."""

    def ask(state):
        answer = interrupt("book it?")
        return {"messages": [AIMessage(f"booked: {answer}")]}

    b = StateGraph(MessagesState)
    b.add_node("ask", ask)
    b.add_edge(START, "ask")
    return b.compile(checkpointer=saver)


def nested_graph(saver):
    """A graph whose node is a graph: its checkpoints live in a child namespace."""
    inner = StateGraph(MessagesState)
    inner.add_node("inner", lambda state: {"messages": [AIMessage("from the subgraph")]})
    inner.add_edge(START, "inner")
    b = StateGraph(MessagesState)
    b.add_node("child", inner.compile())
    b.add_edge(START, "child")
    return b.compile(checkpointer=saver)


def run_stock(url: str, threads: dict[str, dict[str, Any]]) -> None:
    """One turn of the echo graph per thread, on the stock saver;
    ``threads`` maps each id to the extra configurable fields of its run."""
    with PostgresSaver.from_conn_string(url) as stock:
        stock.setup()
        graph = echo_graph(stock)
        for tid, extra in threads.items():
            graph.invoke(
                {"messages": [HumanMessage(f"hello from {tid}")]},
                {"configurable": {"thread_id": tid, **extra}},
            )


def put_stock_items(url: str, items: list[tuple[tuple[str, ...], str, dict[str, Any]]]) -> None:
    with PostgresStore.from_conn_string(url) as stock:
        stock.setup()
        for start in range(0, len(items), 1000):
            stock.batch([PutOp(ns, key, value) for ns, key, value in items[start : start + 1000]])


def table_counts(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TRUST_TABLES}


def stock_counts(url: str) -> ImportCounts:
    with psycopg.connect(url) as conn:
        def q(sql):
            return conn.execute(sql).fetchone()[0]

        return ImportCounts(
            q("SELECT count(DISTINCT thread_id) FROM checkpoints"),
            q("SELECT count(*) FROM checkpoints"),
            q("SELECT count(*) FROM checkpoint_writes"),
            q("SELECT count(*) FROM store"),
        )


@pytest.mark.slow
def test_a_thousand_threads_and_ten_thousand_items_round_trip(database, redis_url):
    """The judged case: every count read back through the trust layer equals
    the stock database's own, and levels follow the rules."""
    src, dst = database("stock_big"), database("trust_big")
    run_stock(src, {f"thread-{i}": {"user_id": f"user-{i % 100}"} for i in range(1000)})
    put_stock_items(
        src,
        [
            (
                ("memories", f"user-{i % 100}", "health" if i % 10 == 0 else "prefs"),
                f"fact-{i}",
                {"text": f"fact {i}", "n": i},
            )
            for i in range(10_000)
        ],
    )
    expected = stock_counts(src)
    assert expected == ImportCounts(1000, 3000, 3000, 10_000)
    rules = ImportRules(
        thread_level="personal",
        namespace_levels={("memories",): "personal", ("memories", "user-10", "health"): "sensitive"},
    )
    with trust_target(dst, redis_url) as (saver, store):
        started = time.monotonic()
        result = import_from_postgres(src, checkpointer=saver, store=store, rules=rules)
        elapsed = time.monotonic() - started
        print(f"\nimported 1,000 threads and 10,000 items in {elapsed:.1f}s: {result.to_dict()}")
        assert result.ok, result.to_dict()
        assert result.source == expected
        assert result.verified == expected and result.written == expected
        assert result.refused == {}
        assert result.levels == {"threads": {"personal": 1000}, "items": {"personal": 9900, "sensitive": 100}}
        # spot checks through the public API, as the thread's owner and a bound reader
        tup = saver.get_tuple({"configurable": {"thread_id": "thread-42", "user_id": "user-42"}})
        assert [m.content for m in tup.checkpoint["channel_values"]["messages"]] == [
            "hello from thread-42",
            "Noted: hello from thread-42",
        ]
        item = store.bound("sensitive").get(("memories", "user-10", "health"), "fact-1010")
        assert item.value == {"text": "fact 1010", "n": 1010} and item.label.level == "sensitive"
    assert table_counts(dst)["trustmem_checkpoints"] == 3000
    assert table_counts(dst)["trustmem_memories"] == 10_000


def test_dry_run_counts_and_writes_nothing(database, redis_url):
    src, dst = database("stock_dry"), database("trust_dry")
    run_stock(src, {"t1": {"user_id": "u1"}, "t2": {}})
    put_stock_items(src, [(("memories", "u1"), "k", {"text": "x"}), (("shared",), "k", {"text": "y"})])
    with trust_target(dst, redis_url) as (saver, store):
        before = table_counts(dst)
        result = import_from_postgres(src, checkpointer=saver, store=store, dry_run=True)
        assert table_counts(dst) == before == dict.fromkeys(TRUST_TABLES, 0)
        assert result.dry_run and result.ok and result.verified is None
        assert result.source == ImportCounts(2, 6, 6, 2) and result.written == ImportCounts()
        # unset rules: the ladder's highest level (fail closed)
        assert result.levels == {"threads": {"sensitive": 2}, "items": {"sensitive": 2}}
    # no target at all: only the source is read
    assert import_from_postgres(src, dry_run=True).source == ImportCounts(2, 6, 6, 2)
    assert stock_counts(src) == ImportCounts(2, 6, 6, 2)


def test_rules_assign_levels_and_owners(database, redis_url):
    src, dst = database("stock_rules"), database("trust_rules")
    run_stock(
        src,
        {
            "plain": {"user_id": "ann"},
            "tagged": {"user_id": "bob", "sensitivity": "personal"},
            "vip-1": {"user_id": "cy"},
            "odd": {"sensitivity": "top-secret"},  # not on the ladder: refused, not guessed
        },
    )
    put_stock_items(
        src,
        [
            (("memories", "ann", "health"), "bp", {"text": "120/80"}),
            (("memories", "ann", "prefs"), "seat", {"text": "aisle"}),
            (("docs",), "faq", {"text": "opening hours"}),
        ],
    )
    rules = ImportRules(
        thread_level="internal",
        thread_level_key="sensitivity",
        thread_level_of=lambda tid, metadata: "sensitive" if tid.startswith("vip-") else None,
        item_level="public",
        namespace_levels={("memories",): "internal", ("memories", "ann", "health"): "sensitive"},
    )
    with trust_target(dst, redis_url) as (saver, store):
        result = import_from_postgres(src, checkpointer=saver, store=store, rules=rules)
        assert result.refused == {"UnknownLevelError": 1} and not result.ok
        assert result.verified == ImportCounts(3, 9, 9, 3)
        assert result.levels["threads"] == {"internal": 1, "personal": 1, "sensitive": 1}

        def level(tid: str, user: str) -> str:
            return saver.session({"configurable": {"thread_id": tid, "user_id": user}}).level

        assert (level("plain", "ann"), level("tagged", "bob"), level("vip-1", "cy")) == (
            "internal",
            "personal",
            "sensitive",
        )
        assert saver.session({"configurable": {"thread_id": "odd"}}) is None
        # owned by the user_id LangGraph copied into the metadata
        with pytest.raises(ThreadOwnershipError):
            saver.get_tuple({"configurable": {"thread_id": "plain", "user_id": "bob"}})
        view = store.bound("sensitive")
        assert view.get(("memories", "ann", "health"), "bp").label.level == "sensitive"  # longest prefix
        assert view.get(("memories", "ann", "prefs"), "seat").label.level == "internal"
        assert view.get(("docs",), "faq").label.level == "public"
        assert store.bound("internal").get(("memories", "ann", "health"), "bp") is None
    with pytest.raises(UnknownLevelError):
        import_from_postgres(src, dry_run=True, rules=ImportRules(item_level="no-such-level"))


def test_running_again_duplicates_nothing_and_picks_up_changes(database, redis_url):
    src, dst = database("stock_again"), database("trust_again")
    run_stock(src, {f"t{i}": {"user_id": "u"} for i in range(5)})
    put_stock_items(src, [(("memories", "u"), f"k{i}", {"n": i}) for i in range(20)])
    with trust_target(dst, redis_url) as (saver, store):
        first = import_from_postgres(src, checkpointer=saver, store=store)
        assert first.ok and first.written == first.source == ImportCounts(5, 15, 15, 20)
        counts = table_counts(dst)
        again = import_from_postgres(src, checkpointer=saver, store=store)
        assert again.ok and again.written == ImportCounts() and again.skipped == again.source
        assert again.verified == again.source
        assert table_counts(dst) == counts
        # the source moves on: one more turn and one updated memory
        run_stock(src, {"t0": {"user_id": "u"}})
        put_stock_items(src, [(("memories", "u"), "k3", {"n": 33})])
        third = import_from_postgres(src, checkpointer=saver, store=store)
        assert third.ok and third.written == ImportCounts(1, 3, 3, 1)
        assert store.bound("sensitive").get(("memories", "u"), "k3").value == {"n": 33}
        assert len(list(saver.list({"configurable": {"thread_id": "t0", "user_id": "u"}}))) == 6


def test_content_reads_back_the_same_through_the_trust_saver_and_store(database, redis_url):
    src, dst = database("stock_same"), database("trust_same")
    run_stock(src, {"a": {"user_id": "u1"}, "b": {}})
    run_stock(src, {"a": {"user_id": "u1"}})  # a second turn: parents across runs
    put_stock_items(
        src, [(("memories", "u1"), "k", {"text": "likes tea", "tags": ["a", 1, None, {"x": 2.5}]})]
    )
    with PostgresSaver.from_conn_string(src) as stock:
        nested_graph(stock).invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": "c"}})
        history = {tid: list(stock.list({"configurable": {"thread_id": tid}})) for tid in ("a", "b", "c")}
    assert {t.config["configurable"]["checkpoint_ns"] for t in history["c"]} != {""}  # a child namespace
    with PostgresStore.from_conn_string(src) as stock_store:
        stock_item = stock_store.get(("memories", "u1"), "k")
    with trust_target(dst, redis_url) as (saver, store):
        assert import_from_postgres(src, checkpointer=saver, store=store).ok
        for tid, owner in (("a", "u1"), ("b", None), ("c", None)):
            ours = list(saver.list({"configurable": {"thread_id": tid, "user_id": owner}}))
            assert [t.config["configurable"]["checkpoint_id"] for t in ours] == [
                t.config["configurable"]["checkpoint_id"] for t in history[tid]
            ]
            for theirs in history[tid]:
                conf = {**theirs.config["configurable"], "user_id": owner}
                tup = saver.get_tuple({"configurable": conf})
                assert tup.checkpoint["channel_values"] == theirs.checkpoint["channel_values"]
                assert tup.checkpoint["channel_versions"] == theirs.checkpoint["channel_versions"]
                assert tup.checkpoint["versions_seen"] == theirs.checkpoint["versions_seen"]
                assert tup.pending_writes == theirs.pending_writes
                assert (tup.parent_config or {}).get("configurable", {}).get("checkpoint_id") == (
                    theirs.parent_config or {}
                ).get("configurable", {}).get("checkpoint_id")
                # the metadata, plus the level it was imported at (as a native run records it)
                assert {k: v for k, v in tup.metadata.items() if k != "trust"} == theirs.metadata
                assert tup.metadata["trust"] == "sensitive"
        item = store.bound("sensitive", user_id="u1").get(("memories", "u1"), "k")
        assert item.value == stock_item.value
        assert (item.created_at, item.updated_at) == (stock_item.created_at, stock_item.updated_at)
        assert item.label.level == "sensitive"


def test_a_graph_resumes_an_imported_thread_even_at_an_interrupt(database, redis_url):
    src, dst = database("stock_resume"), database("trust_resume")
    run_stock(src, {"chat": {"user_id": "ann"}})
    with PostgresSaver.from_conn_string(src) as stock:
        ask_graph(stock).invoke(
            {"messages": [HumanMessage("book the 9:40")]},
            {"configurable": {"thread_id": "ask", "user_id": "ann"}},
        )
    with trust_target(dst, redis_url) as (saver, store):
        result = import_from_postgres(
            src, checkpointer=saver, store=store, rules=ImportRules(thread_level="personal")
        )
        assert result.ok
        chat = {"configurable": {"thread_id": "chat", "user_id": "ann"}}
        out = echo_graph(saver).invoke({"messages": [HumanMessage("again")]}, chat)
        assert [m.content for m in out["messages"]] == [
            "hello from chat",
            "Noted: hello from chat",
            "again",
            "Noted: again",
        ]
        ask = {"configurable": {"thread_id": "ask", "user_id": "ann"}}
        graph = ask_graph(saver)
        assert graph.get_state(ask).next == ("ask",)  # the pending interrupt came along
        out = graph.invoke(Command(resume="yes"), ask)
        assert out["messages"][-1].content == "booked: yes"
        assert saver.session(ask).level == "personal"


def test_refusals_are_counted_by_type_and_the_rest_moves(database, redis_url):
    src, dst = database("stock_refused"), database("trust_refused")
    secret = "my key is AKIAQJXXVBOTHD2WTFLH"
    put_stock_items(
        src, [(("memories", "u"), "ok", {"text": "fine"}), (("memories", "u"), "bad", {"text": secret})]
    )
    with trust_target(dst, redis_url) as (saver, store):
        result = import_from_postgres(src, checkpointer=saver, store=store)
        assert result.refused == {"SecretRejected": 1} and not result.ok
        assert result.verified == ImportCounts(items=1) and result.source == ImportCounts(items=2)
        assert secret not in str(result.to_dict()) and "bad" not in str(result.to_dict())
        assert store.bound("sensitive").get(("memories", "u"), "ok") is not None


def test_imported_memories_are_recalled_by_meaning(database, redis_url):
    from langgraph_trustmem.store.embeddings import default_embeddings

    emb = default_embeddings()
    src, dst = database("stock_vec"), database("trust_vec")
    put_stock_items(
        src,
        [
            (("memories", "u"), "drink", {"text": "prefers green tea in the morning"}),
            (("memories", "u"), "seat", {"text": "always books an aisle seat on flights"}),
        ],
    )
    with trust_target(dst, redis_url, index={"dims": emb.dims, "embed": emb, "fields": ["text"]}) as (
        saver,
        store,
    ):
        assert import_from_postgres(src, checkpointer=saver, store=store).ok
        hits = store.bound("sensitive").search(("memories",), query="which seat on a plane?", limit=1)
        assert [h.key for h in hits] == ["seat"]


def test_source_errors_are_typed_and_name_nothing(database, pg):
    empty = database("stock_empty")
    with pytest.raises(ImportSourceError) as err:
        import_from_postgres(empty, dry_run=True)
    assert "stock_empty" not in str(err.value)
    missing = pg.url_for("no_such_database_x1")
    with pytest.raises(ImportSourceError) as err:
        import_from_postgres(missing, dry_run=True)
    assert "no_such_database_x1" not in str(err.value) and "no such database" in str(err.value)
