"""The store's read path: audit events journaled by the read's own
statement, equality filters run in SQL through blind indexes, and gets
grouped into one statement. Each is checked against what a user relies
on: no read goes unaudited (even if the process dies before the chain is
written), a filter returns exactly what LangGraph's filter semantics say,
and rows the SQL side cannot judge (older rows, edited columns) are still
judged right in process."""

from __future__ import annotations

import random
import subprocess
import sys
import textwrap

import psycopg
import pytest
from langgraph.store.base import GetOp

from langgraph_trustmem.store import TrustStore
from langgraph_trustmem.store.base import matches_filter
from langgraph_trustmem.store.plan import Fetch


def _ref(store, ns, key) -> bytes:
    return store.ns_hash(ns) + store.key_hash(key)


def _journal_rows(pg_url, ref: bytes, action: str | None = None) -> list[tuple]:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        return conn.execute(
            "SELECT action, tenant, item FROM trustmem_audit_journal WHERE item = %s"
            " AND (%s::text IS NULL OR action = %s) ORDER BY id",
            (ref, action, action),
        ).fetchall()


def test_a_get_is_journaled_by_its_own_statement_and_chained_by_the_next_append(store, user, pg_url):
    ns = ("memories", user)
    store.bound("sensitive").put(ns, "dx", {"text": "journal me"})
    mine = store.bound("sensitive", user_id=user)
    statements: list[str] = []
    run = mine._effect

    def counting(effect):
        statements.append(type(effect).__name__)
        return run(effect)

    mine._effect = counting  # the view's effects: what reaches a server
    assert mine.get(ns, "dx").value == {"text": "journal me"}
    assert statements == ["Fetch"]  # one statement: the read and its audit event
    journaled = _journal_rows(pg_url, _ref(store, ns, "dx"))  # the write's event went in with the write
    assert [(a, bytes(t)) for a, t, _ in journaled] == [("write", store.user_key(user)), ("read", store.user_key(user))]
    trail = store.audit_trail(ns, "dx")  # folds the journal first
    assert [e[2] for e in trail] == ["write", "read"]
    assert _journal_rows(pg_url, _ref(store, ns, "dx")) == []
    assert store.verify_audit().ok


def test_reads_journaled_by_a_killed_process_reach_the_chain(pg_url, key, store_schema, user):
    """The process reads, and dies (SIGKILL) before any append: its read
    events are in the database already, and the next process chains them."""
    ns = ("memories", user)
    with TrustStore.from_conn_string(pg_url, key=key) as s:
        s.bound("sensitive").put(ns, "k", {"text": "read then die"})
    script = textwrap.dedent(
        f"""
        import os, signal
        from langgraph_trustmem.store import TrustStore
        with TrustStore.from_conn_string({pg_url!r}, key={key!r}) as s:
            view = s.bound("sensitive", user_id={user!r})
            for _ in range(3):
                assert view.get({ns!r}, "k") is not None
            view.search({ns!r}, filter={{"text": "read then die"}})
            os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert done.returncode == -9, done.stderr.decode()[-2000:]
    with TrustStore.from_conn_string(pg_url, key=key) as s:
        trail = [e[2] for e in s.audit_trail(ns, "k")]
        assert trail == ["write", "read", "read", "read", "search-hit"]
        assert s.verify_audit().ok


def test_a_refused_get_is_audited_and_journals_nothing(store, user, pg_url):
    ns = ("memories", user)
    store.bound("sensitive").put(ns, "dx", {"text": "above the reader"})
    assert store.bound("public", user_id=user).get(ns, "dx") is None
    assert _journal_rows(pg_url, _ref(store, ns, "dx"), "read") == []
    assert [e[2] for e in store.audit_trail(ns, "dx")] == ["write", "refused"]


def test_every_get_of_a_batch_is_one_statement(store, user):
    ns = ("memories", user)
    top = store.bound("sensitive")
    for i in range(20):
        top.put(ns, f"k{i}", {"n": i})
    statements: list[object] = []
    view = store.bound("sensitive", user_id=user)
    run = view._effect

    def counting(effect):
        statements.append(effect)
        return run(effect)

    view._effect = counting
    found = view.batch([GetOp(ns, f"k{i}") for i in range(20)] + [GetOp(ns, "missing"), GetOp(ns, "k3")])
    assert [it.value["n"] if it else None for it in found] == [*range(20), None, 3]
    assert sum(isinstance(e, Fetch) for e in statements) == 1


def _values(rng: random.Random, n: int) -> list[dict]:
    colors = ["red", "blue", "1", "", "Red"]
    out = []
    for _ in range(n):
        v: dict = {"color": rng.choice(colors), "n": rng.choice([0, 1, 1.0, 2, 2.5, True, False, "1"])}
        if rng.random() < 0.7:
            v["meta"] = {"kind": rng.choice(["x", "y"]), "deep": {"ok": rng.choice([True, False])}}
        if rng.random() < 0.3:
            v["tags"] = [rng.choice(["a", "b"])]
        if rng.random() < 0.2:
            v["maybe"] = None
        out.append(v)
    return out


FILTERS = [
    {"color": "red"},
    {"color": "1"},
    {"color": ""},
    {"n": 1},
    {"n": 1.0},
    {"n": True},
    {"n": "1"},
    {"n": 2.5},
    {"n": {"$eq": 2}},
    {"meta": {"kind": "x"}},
    {"meta": {"deep": {"ok": True}}},
    {"color": "blue", "meta": {"kind": "y"}},
    {"n": {"$gte": 1}},
    {"n": {"$ne": 1}},
    {"color": "red", "n": {"$lt": 2}},
    {"tags": ["a"]},
    {"maybe": None},
    {"color": "nothing-has-this"},
]


@pytest.mark.parametrize(("reader", "window"), [("user", None), ("user", 4), ("admin", None)])
def test_filters_return_exactly_what_langgraphs_semantics_say(store, user, reader, window, monkeypatch):
    """Equality conditions run in SQL as blind tags, the rest in process;
    either way the result is the reference semantics, paged the same. With a
    small window, pages look at the newest rows first and fall back to all."""
    from langgraph_trustmem.store import plan

    if window is not None:
        monkeypatch.setattr(plan, "FILTER_WINDOW", window)
    ns = ("memories", user)
    top = store.bound("sensitive")
    values = _values(random.Random(7), 60)
    for i, v in enumerate(values):
        top.put(ns, f"m{i:02d}", v)
    view = store.bound("sensitive", user_id=user) if reader == "user" else top
    for flt in FILTERS:
        want = sorted(f"m{i:02d}" for i, v in enumerate(values) if matches_filter(v, flt))
        got = [it.key for it in view.search(ns, filter=flt, limit=100)]
        assert sorted(got) == want, flt
        paged = []
        for offset in range(0, len(want) + 7, 7):
            paged += [it.key for it in view.search(ns, filter=flt, limit=7, offset=offset)]
        assert paged == got, flt  # newest first, pages neither skip nor repeat


def test_a_selective_filter_finds_old_rows_past_the_window(store, user, monkeypatch):
    from langgraph_trustmem.store import plan

    monkeypatch.setattr(plan, "FILTER_WINDOW", 8)
    ns = ("memories", user)
    top = store.bound("sensitive")
    for i in range(40):
        top.put(ns, f"r{i:02d}", {"kind": "rare" if i < 3 else "common"})
    view = store.bound("sensitive", user_id=user)
    assert [it.key for it in view.search(ns, filter={"kind": "rare"}, limit=5)] == ["r02", "r01", "r00"]
    assert [e[2] for e in store.audit_trail(ns, "r01")] == ["write", "search-hit"]  # journaled once
    assert len(view.search(ns, filter={"kind": "common"}, limit=5, offset=30)) == 5


def test_filtered_semantic_search_keeps_only_matching_rows(store, user):
    ns = ("memories", user)
    top = store.bound("sensitive")
    for i in range(30):
        top.put(ns, f"s{i}", {"text": f"note about blood pressure reading {i}", "kind": "bp" if i % 3 else "other"})
    view = store.bound("sensitive", user_id=user)
    hits = view.search(ns, query="blood pressure", filter={"kind": "other"}, limit=5)
    assert len(hits) == 5 and all(h.value["kind"] == "other" for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_the_database_sees_tags_not_values(store, user, pg_url):
    ns = ("memories", user)
    store.bound("sensitive").put(ns, "t", {"diagnosis": "BLIND-CANARY-hiv", "code": 4821})
    with psycopg.connect(pg_url, autocommit=True) as conn:
        (blind,) = conn.execute(
            "SELECT blind FROM trustmem_memories WHERE ns_hash = %s AND key_hash = %s",
            (store.ns_hash(ns), store.key_hash("t")),
        ).fetchone()
    dump = b"".join(bytes(t) for t in blind)
    assert len(blind) == 2 and b"BLIND-CANARY" not in dump and b"4821" not in dump
    other = f"{user}-other"  # the same value under another user gets other tags
    store.bound("sensitive").put(("memories", other), "t", {"diagnosis": "BLIND-CANARY-hiv", "code": 4821})
    with psycopg.connect(pg_url, autocommit=True) as conn:
        (theirs,) = conn.execute(
            "SELECT blind FROM trustmem_memories WHERE ns_hash = %s AND key_hash = %s",
            (store.ns_hash(("memories", other)), store.key_hash("t")),
        ).fetchone()
    assert not {bytes(t) for t in blind} & {bytes(t) for t in theirs}


def test_rows_from_before_the_tags_are_filtered_audited_and_migrated(store, user, pg_url):
    """A row written by an older release has no tags and no integrity
    mirror: SQL lets it through, the process judges it, reads of it are
    audited in process, and migrate() brings it up to date."""
    ns = ("memories", user)
    top = store.bound("sensitive")
    for i in range(6):
        top.put(ns, f"old{i}", {"kind": "a" if i % 2 else "b", "i": i})
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE trustmem_memories SET blind = NULL WHERE ns_hash = %s", (store.ns_hash(ns),))
    view = store.bound("sensitive", user_id=user)
    assert sorted(it.key for it in view.search(ns, filter={"kind": "a"})) == ["old1", "old3", "old5"]
    assert view.get(ns, "old1").value == {"kind": "a", "i": 1}
    assert [e[2] for e in store.audit_trail(ns, "old1")] == ["write", "search-hit", "read"]
    assert store.outdated_count() >= 6
    assert store.migrate() >= 6
    with psycopg.connect(pg_url, autocommit=True) as conn:
        left = conn.execute(
            "SELECT count(*) FROM trustmem_memories WHERE ns_hash = %s AND blind IS NULL", (store.ns_hash(ns),)
        ).fetchone()[0]
    assert left == 0
    assert sorted(it.key for it in view.search(ns, filter={"kind": "a"})) == ["old1", "old3", "old5"]


def test_editing_the_sql_side_columns_changes_nothing_shown(store, user, pg_url):
    """Tags and the integrity mirror only narrow what SQL fetches: edited,
    a row either drops out of a filtered search or is judged by its sealed
    envelope, never shown where it must not be."""
    ns = ("memories", user)
    top = store.bound("sensitive")
    top.put(ns, "a", {"kind": "x"})
    top.put(ns, "b", {"kind": "y"})
    with psycopg.connect(pg_url, autocommit=True) as conn:  # give b the tags of a
        conn.execute(
            """UPDATE trustmem_memories m SET blind = s.blind FROM trustmem_memories s
               WHERE s.ns_hash = m.ns_hash AND s.key_hash = %s AND m.key_hash = %s""",
            (store.key_hash("a"), store.key_hash("b")),
        )
    view = store.bound("sensitive", user_id=user)
    assert [it.key for it in view.search(ns, filter={"kind": "x"})] == ["a"]


def test_a_refused_put_in_a_batch_writes_nothing_of_it(store, user):
    from langgraph.store.base import PutOp

    from langgraph_trustmem.errors import SecretRejected

    ns = ("memories", user)
    with pytest.raises(SecretRejected):
        store.bound("sensitive").batch(
            [
                PutOp(ns, "fine", {"text": "a plain note"}),
                PutOp(ns, "bad", {"text": "token ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"}),
            ]
        )
    assert store.bound("sensitive").get(ns, "fine") is None
    assert "refused" in [e[2] for e in store.audit_trail(ns, "bad")]


def test_both_store_twins_have_the_same_public_surface():
    from langgraph_trustmem.store import AsyncTrustStore

    def public(cls):
        return {n for n in dir(cls) if not n.startswith("_")}

    assert public(TrustStore) == public(AsyncTrustStore)
    for name in public(TrustStore):
        if callable(getattr(TrustStore, name)) and "a" + name in public(TrustStore):
            assert "a" + name in public(AsyncTrustStore)



def test_concurrent_batches_and_ttl_refreshes_never_deadlock(pg_url, key, store_schema, user):
    """Batches that put the same items in different orders, beside searches
    that refresh their TTLs: rows are locked in key order everywhere."""
    import threading

    from langgraph.store.base import PutOp

    ns = ("memories", user)
    errors: list[BaseException] = []
    with TrustStore.from_conn_string(pg_url, key=key, ttl={"default_ttl": 60, "refresh_on_read": True}) as store:
        top = store.bound("sensitive")

        def writer(seed: int) -> None:
            rng = random.Random(seed)
            try:
                for _ in range(15):
                    keys = [f"k{i}" for i in range(12)]
                    rng.shuffle(keys)
                    top.batch([PutOp(ns, k, {"n": rng.random()}) for k in keys])
            except BaseException as exc:
                errors.append(exc)

        def reader() -> None:
            try:
                for _ in range(30):
                    top.search(ns, filter={"n": {"$gte": 0}}, limit=12)
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(3)] + [
            threading.Thread(target=reader) for _ in range(2)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not errors, [type(e).__name__ for e in errors]
        assert len(top.search(ns, limit=50)) == 12


def test_ttl_sweepers_start_and_stop(store):
    store.start_ttl_sweeper(sweep_interval_minutes=60)
    assert store.stop_ttl_sweeper(timeout=5)


async def test_the_async_ttl_sweeper_is_awaited_as_langgraphs_is(astore):
    task = await astore.start_ttl_sweeper(sweep_interval_minutes=60)
    assert not task.done()
    assert await astore.stop_ttl_sweeper(timeout=5)
    assert task.done()


async def test_thousands_of_concurrent_calls_queue_instead_of_timing_out(pg_url, key, store_schema, user):
    """``gather`` over thousands of calls on a small pool (LangGraph's own
    async store test does 60,000): each call waits its turn, however long
    the queue, instead of failing once the pool's timeout has passed."""
    import asyncio
    import time

    from psycopg_pool import AsyncConnectionPool

    from langgraph_trustmem.pg import CONNECTION_KWARGS
    from langgraph_trustmem.store import AsyncTrustStore

    ns = ("memories", user, "gather")
    pool = AsyncConnectionPool(pg_url, min_size=2, max_size=2, timeout=0.25, kwargs=CONNECTION_KWARGS, open=False)
    await pool.open(wait=True)  # both connections there: no wait is for one being made
    async with pool:
        store = AsyncTrustStore(pool, key=key)
        top = store.bound("sensitive")
        t0 = time.monotonic()
        await asyncio.gather(*(top.aput(ns, f"k{i}", {"n": i}) for i in range(1500)))
        assert time.monotonic() - t0 > 0.25  # longer than the pool's timeout: the queue did the waiting
        got = await asyncio.gather(*(top.aget(ns, f"k{i}") for i in range(1500)))
        assert [g.value["n"] for g in got] == list(range(1500))
        assert (await store.averify_audit()).ok  # every journaled read chained before the pool closes


def test_a_new_key_is_written_with_its_events_in_one_statement_and_an_existing_one_under_its_lock(
    store, user, pg_url
):
    """A put of a key not stored yet is one statement (the row and its
    audit events); a put of a key that exists takes the locked path, where
    the overwrite rules see the row: a lower writer is refused and neither
    its row nor an event of it is left."""
    from langgraph_trustmem.errors import OverwriteRefused

    ns = ("memories", user)
    top = store.bound("sensitive")
    effects: list[str] = []
    run = top._effect

    def counting(effect):
        effects.append(type(effect).__name__)
        return run(effect)

    top._effect = counting
    top.put(ns, "fresh", {"text": "my email is someone@example.org"})  # kept, and an event says what was redacted
    assert effects.count("Fetch") == 1 and "Txn" not in effects
    assert [a for a, _, _ in _journal_rows(pg_url, _ref(store, ns, "fresh"))] in (["write"], ["redacted", "write"])
    effects.clear()
    top.put(ns, "fresh", {"text": "second version"})  # exists: the locked path
    assert effects.count("Txn") == 1
    assert [a for a, _, _ in _journal_rows(pg_url, _ref(store, ns, "fresh"))][-1] == "write"
    before = _journal_rows(pg_url, _ref(store, ns, "fresh"))
    low = store.bound("personal")
    with pytest.raises(OverwriteRefused):
        low.put(ns, "fresh", {"text": "a lower writer's version"})
    assert store.bound("sensitive").get(ns, "fresh").value == {"text": "second version"}
    assert _journal_rows(pg_url, _ref(store, ns, "fresh"), "write") == [r for r in before if r[0] == "write"]
    assert store.verify_audit().ok
