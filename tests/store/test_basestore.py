"""LangGraph's BaseStore behaviour, as InMemoryStore and PostgresStore
guarantee it, on both stores (sync through its a-methods, and async) and
both vector back ends. Stores are bound at the top level: the unbound store
reads at ``public`` by design (see test_trust_rules.py)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime

import pytest
from langgraph.store.base import GetOp, ListNamespacesOp, MatchCondition, PutOp, SearchOp

from langgraph_trustmem.store import AsyncTrustStore, TrustStore

from .conftest import vector_location


@pytest.fixture(
    params=[("sync", "edge"), ("sync", "qdrant-client"), ("async", "edge"), ("async", "qdrant-client")],
    ids=lambda p: "-".join(p),
)
async def bstore(request, pg_url, redis_url, key, index, store_schema, workdir):
    mode, backend = request.param
    loc = vector_location(backend, workdir)
    ttl = {"default_ttl": None, "refresh_on_read": True}
    if mode == "sync":
        with TrustStore.from_conn_string(
            pg_url, key=key, qdrant=loc, redis_url=redis_url, index=index, ttl=ttl
        ) as s:
            s.setup()
            yield s.bound("sensitive")
    else:
        async with AsyncTrustStore.from_conn_string(
            pg_url, key=key, qdrant=loc, redis_url=redis_url, index=index, ttl=ttl
        ) as s:
            await s.setup()
            yield s.bound("sensitive")


@pytest.fixture
def root():
    return f"t{uuid.uuid4().hex[:8]}"


async def test_put_get_update_delete(bstore, root):
    ns = (root, "docs")
    assert await bstore.aget(ns, "a") is None
    await bstore.aput(ns, "a", {"text": "first", "n": 1})
    item = await bstore.aget(ns, "a")
    assert item.value == {"text": "first", "n": 1} and item.key == "a" and item.namespace == ns
    assert isinstance(item.created_at, datetime) and item.created_at == item.updated_at
    await asyncio.sleep(0.01)
    await bstore.aput(ns, "a", {"text": "second", "n": 2})
    updated = await bstore.aget(ns, "a")
    assert (
        updated.value["n"] == 2
        and updated.created_at == item.created_at
        and updated.updated_at > item.updated_at
    )
    await bstore.adelete(ns, "a")
    assert await bstore.aget(ns, "a") is None
    await bstore.adelete(ns, "a")  # deleting what is gone is fine


async def test_batch_reads_see_the_store_before_its_puts(bstore, root):
    """As LangGraph's PostgresStore and InMemoryStore: a batch's gets,
    searches and listings see the store as it was before the batch; its
    puts apply after them, the last put per item winning."""
    ns = (root, "b")
    first = await bstore.abatch([PutOp(ns, "k1", {"v": 1}), PutOp(ns, "k2", {"v": 0}), PutOp(ns, "k2", {"v": 2})])
    assert first == [None, None, None]
    results = await bstore.abatch(
        [
            GetOp(ns, "k1"),
            SearchOp((root,), filter={"v": 2}, limit=10),
            ListNamespacesOp(match_conditions=(MatchCondition("prefix", (root,)),)),
            PutOp(ns, "k1", None),
            GetOp(ns, "k1"),
            GetOp(ns, "nope"),
        ]
    )
    assert results[0].value == {"v": 1} and results[4].value == {"v": 1}
    assert [i.key for i in results[1]] == ["k2"]
    assert results[2] == [ns]
    assert results[3] is None and results[5] is None
    assert await bstore.aget(ns, "k1") is None


async def test_search_filters_and_operators(bstore, root):
    ns = (root, "items")
    docs = {
        "a": {"color": "red", "score": 3, "meta": {"kind": "x"}},
        "b": {"color": "blue", "score": 7, "meta": {"kind": "y"}},
        "c": {"color": "red", "score": 9, "meta": {"kind": "y"}},
    }
    for k, v in docs.items():
        await bstore.aput(ns, k, v)

    async def keys(**kw):
        return sorted(i.key for i in await bstore.asearch((root,), limit=10, **kw))

    assert await keys(filter={"color": "red"}) == ["a", "c"]
    assert await keys(filter={"score": {"$gt": 3}}) == ["b", "c"]
    assert await keys(filter={"score": {"$gte": 3, "$lt": 9}}) == ["a", "b"]
    assert await keys(filter={"score": {"$lte": 7}, "color": {"$ne": "blue"}}) == ["a"]
    assert await keys(filter={"meta": {"kind": "y"}}) == ["b", "c"]
    assert await keys(filter={"color": {"$eq": "green"}}) == []
    assert await keys() == ["a", "b", "c"]


async def test_search_pagination_is_stable_and_complete(bstore, root):
    ns = (root, "p")
    for i in range(12):
        await bstore.aput(ns, f"k{i:02d}", {"i": i})
    pages = [await bstore.asearch((root,), limit=5, offset=o) for o in (0, 5, 10)]
    seen = [i.key for page in pages for i in page]
    assert [len(p) for p in pages] == [5, 5, 2]
    assert sorted(seen) == [f"k{i:02d}" for i in range(12)]
    # newest first, like PostgresStore
    assert seen[0] == "k11"


async def test_semantic_search_ranks_by_meaning(bstore, root):
    ns = (root, "memories")
    await bstore.aput(ns, "airport", {"text": "The user's preferred airport is Lisbon Humberto Delgado."})
    await bstore.aput(ns, "food", {"text": "The user is vegetarian and loves pizza."})
    await bstore.aput(ns, "pet", {"text": "The user has a cat named Miso."})
    hits = await bstore.asearch((root,), query="which airport do I fly from?", limit=3)
    assert hits[0].key == "airport" and hits[0].score >= hits[-1].score
    assert all(h.score is not None for h in hits)
    filtered = await bstore.asearch(
        (root,), query="airport", filter={"text": {"$ne": hits[0].value["text"]}}, limit=3
    )
    assert "airport" not in [h.key for h in filtered]
    await bstore.aput(ns, "noindex", {"text": "airport airport airport"}, index=False)
    assert "noindex" not in [h.key for h in await bstore.asearch((root,), query="airport", limit=5)]
    assert (await bstore.aget(ns, "noindex")).value["text"].startswith("airport")


async def test_index_fields_choose_what_is_embedded(bstore, root):
    ns = (root, "fields")
    await bstore.aput(ns, "x", {"title": "flight to Lisbon", "body": "cats and dogs"}, index=["title"])
    await bstore.aput(ns, "y", {"title": "cats and dogs", "body": "flight to Lisbon"}, index=["title"])
    hits = await bstore.asearch((root,), query="airline flight booking", limit=2)
    assert hits[0].key == "x"
    await bstore.aput(ns, "x", {"title": "gardening", "body": "roses"}, index=["title"])
    hits = await bstore.asearch((root,), query="airline flight booking", limit=2)
    assert hits[0].key == "y"  # re-indexing replaced the old vectors


async def test_list_namespaces_matching(bstore, root):
    for ns in [(root, "a", "x"), (root, "a", "y"), (root, "b", "x"), (root, "b", "z", "deep")]:
        await bstore.aput(ns, "k", {"v": 1})
    lst = bstore.alist_namespaces
    assert await lst(prefix=(root,)) == [
        (root, "a", "x"),
        (root, "a", "y"),
        (root, "b", "x"),
        (root, "b", "z", "deep"),
    ]
    assert await lst(prefix=(root, "a")) == [(root, "a", "x"), (root, "a", "y")]
    assert await lst(prefix=(root,), suffix=("x",)) == [(root, "a", "x"), (root, "b", "x")]
    assert await lst(prefix=(root, "*", "x")) == [(root, "a", "x"), (root, "b", "x")]
    assert await lst(prefix=(root,), max_depth=2) == [(root, "a"), (root, "b")]
    assert await lst(prefix=(root,), limit=2, offset=1) == [(root, "a", "y"), (root, "b", "x")]


async def test_prefixes_match_whole_labels_only(bstore, root):
    """A prefix matches whole labels, never the start of one ("ab" is not a
    prefix of "abc"), and characters SQL's LIKE would read as wildcards are
    plain (labels are matched as keyed hashes): as LangGraph's stores do."""
    for ns in [(root, "ab"), (root, "ab", "c"), (root, "abc"), (root, "a_c"), (root, "a%c"), (root, "axc", "d")]:
        await bstore.aput(ns, "k", {"v": 1})

    async def found(*prefix):
        return sorted(it.namespace for it in await bstore.asearch((root, *prefix), limit=100))

    assert await found("ab") == [(root, "ab"), (root, "ab", "c")]
    assert await found("a") == []
    assert await found("a_c") == [(root, "a_c")]
    assert await found("a%c") == [(root, "a%c")]
    assert len(await found()) == 6
    lst = bstore.alist_namespaces
    assert await lst(prefix=(root, "a")) == []
    assert await lst(prefix=(root,), suffix=("c",)) == [(root, "ab", "c")]
    assert await lst(prefix=(root, "*", "d")) == [(root, "axc", "d")]


async def test_ttl_expiry_and_refresh(bstore, root, pg_url, redis_url):
    import psycopg

    ns = (root, "ttl")
    await bstore.aput(ns, "short", {"v": 1}, ttl=1.0)
    await bstore.aput(ns, "forever", {"v": 2})
    with psycopg.connect(pg_url, autocommit=True) as conn:

        def expiry():
            return conn.execute(
                "SELECT expires_at FROM trustmem_memories WHERE ns_hash = %s", (bstore.ns_hash(ns),)
            ).fetchall()

        before = sorted(e[0] for e in expiry() if e[0] is not None)
        assert len(before) == 1
        await asyncio.sleep(0.05)
        assert (await bstore.aget(ns, "short")).value == {"v": 1}  # a read refreshes the TTL
        after = sorted(e[0] for e in expiry() if e[0] is not None)
        assert after[0] > before[0]
        await bstore.aget(ns, "short", refresh_ttl=False)
        assert sorted(e[0] for e in expiry() if e[0] is not None) == after
        conn.execute(
            "UPDATE trustmem_memories SET expires_at = now() - interval '1 second' "
            "WHERE ns_hash = %s AND ttl_minutes IS NOT NULL",
            (bstore.ns_hash(ns),),
        )
    # time passed for the database; the cached rows must not outlive it either
    import redis

    client = redis.Redis.from_url(redis_url)
    for k in client.scan_iter(match="trustmem:m:*"):
        client.delete(k)
    client.close()
    assert await bstore.aget(ns, "short") is None
    assert [i.key for i in await bstore.asearch((root,))] == ["forever"]
    assert [i.key for i in await bstore.asearch((root,), query="v")] == ["forever"]
    swept = await bstore.asweep_ttl() if isinstance(bstore, AsyncTrustStore) else bstore.sweep_ttl()
    assert swept >= 1


async def test_invalid_namespaces_are_refused_without_echoing_them(bstore):
    from langgraph.store.base import InvalidNamespaceError

    for bad in [(), ("",), ("langgraph", "x"), ("ok", "\x00")]:
        with pytest.raises(InvalidNamespaceError) as err:
            await bstore.aput(bad, "k", {"v": 1})
        for part in bad:
            if part:
                assert part not in str(err.value)


async def test_user_ids_with_periods_are_fine(bstore, root):
    """Namespaces are stored hashed, not as dotted text: e-mail addresses work."""
    ns = (root, "ana.silva@example.com")
    await bstore.aput(ns, "k", {"v": 1})
    assert (await bstore.aget(ns, "k")).value == {"v": 1}
    assert await bstore.alist_namespaces(prefix=(root,)) == [ns]


def test_supports_ttl_flag():
    assert TrustStore.supports_ttl and AsyncTrustStore.supports_ttl


@pytest.mark.parametrize("distance", ["cosine", "l2", "inner_product"])
def test_scores_follow_the_index_distance_type(pg_url, key, store_schema, embeddings, workdir, distance):
    """As PostgresStore scores: cosine similarity, negative L2 distance, inner
    product; the sealing rotation keeps all three."""
    import math
    import tempfile
    from pathlib import Path

    from langgraph_trustmem.store import TrustStore

    idx = {"dims": embeddings.dims, "embed": embeddings, "fields": ["text"], "distance_type": distance}
    texts = {"a": "blood pressure reading", "b": "hiking trip in the alps", "c": "dentist appointment"}
    query = "blood pressure"
    q = embeddings.embed_query(query)
    for loc in (str(Path(tempfile.mkdtemp(dir=workdir)) / "v"), ":memory:"):
        with TrustStore.from_conn_string(pg_url, key=key, qdrant=loc, index=idx) as store:
            store.setup()
            ns = ("scores", distance, uuid.uuid4().hex[:8])
            top = store.bound("sensitive")
            for k, t in texts.items():
                top.put(ns, k, {"text": t})
            hits = top.search(ns, query=query, limit=3)
            for h in hits:
                d = embeddings.embed_documents([texts[h.key]])[0]
                dot = sum(x * y for x, y in zip(q, d, strict=True))
                norms = math.sqrt(sum(x * x for x in q)) * math.sqrt(sum(x * x for x in d))
                want = {
                    "cosine": dot / norms,
                    "l2": -math.sqrt(sum((x - y) ** 2 for x, y in zip(q, d, strict=True))),
                    "inner_product": dot,
                }[distance]
                assert h.score == pytest.approx(want, abs=1e-3), (loc, h.key)
            assert [h.key for h in hits][0] == "a"
