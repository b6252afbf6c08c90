"""A store set up with another embedder re-embeds every memory before it
serves: search stays right after a model upgrade, a size change, or a store
written by a release that kept no embedder record. Each test has a database
of its own (the embedder record is per database), on both vector back ends."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
import pytest
from langchain_core.embeddings import Embeddings

from langgraph_trustmem.store import AsyncTrustStore, TrustStore
from langgraph_trustmem.store.plan import Call, reindex_plan
from langgraph_trustmem.store.vectors import AsyncQdrantClientIndex, QdrantClientIndex

MEMORIES = {
    "allergy": "Allergic to penicillin; it gives her a rash.",
    "bp": "Takes a blood pressure tablet every morning with breakfast.",
    "dog": "Has a border collie called Pepper who needs a walk at noon.",
    "flight": "Prefers an aisle seat on long flights.",
    "dentist": "Dentist check-up every six months, next one in March.",
    "rent": "Rent is due on the third of each month.",
    "piano": "Practises the piano for half an hour every evening.",
    "sister": "Her sister Ana lives in Porto and visits at Christmas.",
}
QUERIES = {
    "allergy": "penicillin allergy",
    "bp": "blood pressure tablet",
    "dog": "border collie walk",
    "flight": "aisle seat on flights",
    "dentist": "dentist check-up",
    "rent": "when is the rent due",
    "piano": "piano practice",
    "sister": "sister in Porto",
}


class Rotated(Embeddings):
    """Another model of the same size: the base's vectors under a fixed
    orthogonal map (scores between the two spaces are noise)."""

    def __init__(self, base: Embeddings, dims: int, seed: int = 7) -> None:
        self.base = base
        q, _ = np.linalg.qr(np.random.default_rng(seed).standard_normal((dims, dims)))
        self.q = q.astype(np.float32)
        self.texts = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += len(texts)
        return (np.asarray(self.base.embed_documents(texts), dtype=np.float32) @ self.q).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class Spy(Embeddings):
    """Another model that remembers every text it was given."""

    def __init__(self, base: Embeddings) -> None:
        self.inner = Rotated(base, len(base.embed_query("x")))
        self.seen: list[str] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.seen += texts
        return self.inner.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class Counting(Embeddings):
    """The same model, counting the texts it embeds."""

    def __init__(self, base: Embeddings) -> None:
        self.base = base
        self.dims = len(base.embed_query("x"))
        self.texts = 0

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.texts += len(texts)
        return self.base.embed_documents(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


class Shorter(Embeddings):
    """Another model of another size: the base's first ``dims`` components."""

    def __init__(self, base: Embeddings, dims: int) -> None:
        self.base, self.dims = base, dims

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        v = np.asarray(self.base.embed_documents(texts), dtype=np.float32)[:, : self.dims]
        return (v / np.linalg.norm(v, axis=1, keepdims=True)).tolist()

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


@pytest.fixture
def own_db(pg):
    name = f"reindex_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return pg.url_for(name)


@pytest.fixture(params=["edge", "qdrant-client"])
def location(request, workdir):
    """Where the vectors live; qdrant-client's ``:memory:`` mode loses them
    at close, so a reopened store finds an empty tier (a lost vector tier)."""
    if request.param == "edge":
        return str(Path(tempfile.mkdtemp(prefix="edge-", dir=workdir)) / "shard")
    return ":memory:"


def _index(emb: Embeddings, dims: int) -> dict[str, Any]:
    return {"dims": dims, "embed": emb, "fields": ["text"]}


def _fill(store: TrustStore, ns: tuple[str, ...]) -> None:
    top = store.bound("sensitive")
    for key, text in MEMORIES.items():
        top.put(ns, key, {"text": text})


def _before_first_upsert(plan, meddle):
    """The plan, with ``meddle()`` run once just before its first vector
    upsert: after the pass read its page, before it wrote the vectors."""
    sent, meddled = None, False
    while True:
        try:
            effect = plan.send(sent)
        except StopIteration as stop:
            return stop.value
        if isinstance(effect, Call) and effect.name == "upsert" and not meddled:
            meddled = True
            meddle()
        sent = yield effect


def _written(url: str, key: str, location: str, emb: Embeddings, ns: tuple[str, ...]) -> None:
    """The memories written by a store on ``emb`` (set up first)."""
    with TrustStore.from_conn_string(url, key=key, qdrant=location, index=_index(emb, len(emb.embed_query("x")))) as s:
        s.setup()
        _fill(s, ns)


def _top1(store: TrustStore, ns: tuple[str, ...]) -> dict[str, str]:
    top = store.bound("sensitive")
    return {want: top.search(ns, query=q, limit=1)[0].key for want, q in QUERIES.items()}


def test_another_model_of_the_same_size_re_embeds_at_setup(own_db, key, embeddings, location, user):
    ns = ("memories", user)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        _fill(s, ns)
        assert _top1(s, ns) == {k: k for k in QUERIES}
    other = Rotated(embeddings, embeddings.dims)
    # Without re-embedding, the new model's queries against the old vectors are noise.
    old = np.asarray(embeddings.embed_documents(list(MEMORIES.values())))
    new_q = np.asarray(other.embed_documents(list(QUERIES.values())))
    assert (np.argmax(new_q @ old.T, axis=1) != np.arange(len(QUERIES))).sum() >= len(QUERIES) // 2
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(other, embeddings.dims)) as s:
        other.texts = 0
        s.setup()
        assert other.texts == len(MEMORIES) + 1  # every memory, and the probe
        assert _top1(s, ns) == {k: k for k in QUERIES}
        assert s.vectors is not None and s.vectors.count(s.tenant_of(ns).hex()) == len(MEMORIES)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(other, embeddings.dims)) as s:
        other.texts = 0
        s.setup()  # recorded: the same model again re-embeds nothing
        assert other.texts == 1


def test_another_size_empties_the_tier_and_re_embeds(own_db, key, embeddings, location, user):
    ns = ("memories", user)
    _written(own_db, key, location, embeddings, ns)
    small = Shorter(embeddings, 128)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(small, 128)) as s:
        s.setup()
        hits = _top1(s, ns)
        assert sum(hits[k] == k for k in QUERIES) >= len(QUERIES) - 1
        assert s.vectors is not None and s.vectors.count(s.tenant_of(ns).hex()) == len(MEMORIES)
        s.bound("sensitive").put(ns, "new", {"text": "Learning Portuguese on Tuesdays."})
        assert s.bound("sensitive").search(ns, query="Portuguese lessons", limit=1)[0].key == "new"
    with psycopg.connect(own_db) as conn:
        assert conn.execute("SELECT dims FROM trustmem_vector_meta").fetchone() == (128,)


def test_a_store_with_no_embedder_record_re_embeds_once(own_db, key, embeddings, location, user):
    """A store written by a release that kept no record: which model made
    its vectors is unknown, so they are made again, once."""
    ns = ("memories", user)
    spy = Rotated(embeddings, embeddings.dims, seed=3)
    _written(own_db, key, location, spy, ns)
    with psycopg.connect(own_db, autocommit=True) as conn:
        conn.execute("DELETE FROM trustmem_vector_meta")
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(spy, embeddings.dims)) as s:
        spy.texts = 0
        s.setup()
        assert spy.texts == len(MEMORIES) + 1
        assert _top1(s, ns) == {k: k for k in QUERIES}
        spy.texts = 0
        s.setup()
        assert spy.texts == 1


def test_a_row_that_fails_authentication_does_not_stop_the_pass(own_db, key, embeddings, location, user):
    ns = ("memories", user)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        _fill(s, ns)
        bad = s.key_hash("rent")
    with psycopg.connect(own_db, autocommit=True) as conn:  # one envelope's last byte flipped
        conn.execute(
            "UPDATE trustmem_memories SET sealed = overlay(sealed placing decode(lpad(to_hex(get_byte(sealed, "
            "length(sealed) - 1) # 1), 2, '0'), 'hex') from length(sealed)) WHERE key_hash = %s",
            (bad,),
        )
    other = Rotated(embeddings, embeddings.dims)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(other, embeddings.dims)) as s:
        other.texts = 0
        s.setup()
        assert other.texts == len(MEMORIES) - 1 + 1  # all but the bad row, and the probe
        top = s.bound("sensitive")
        got = {want: top.search(ns, query=q, limit=1)[0].key for want, q in QUERIES.items() if want != "rent"}
        assert got == {k: k for k in QUERIES if k != "rent"}


def _tier(location: str) -> Any:
    """The vector tier for ``location``; an in-memory qdrant-client named as a server
    would be (a server that restarted empty loses its vectors as ``:memory:`` does)."""
    if location != ":memory:":
        return location
    from qdrant_client import QdrantClient

    return QdrantClientIndex(QdrantClient(location=":memory:"), identity="qdrant:http://vectors.internal:6333")


def test_a_lost_vector_tier_is_rebuilt_at_setup(own_db, key, embeddings, location, user):
    """The tier that held the vectors, found empty later (a volume deleted, a server that
    came back empty), is refilled from PostgreSQL when the store is set up, before it
    serves: searches never silently find nothing. ``reindex()`` still re-embeds on demand."""
    ns = ("memories", user)
    embeddings = Counting(embeddings)
    index = _index(embeddings, embeddings.dims)
    _written(own_db, key, _tier(location), embeddings, ns)
    if location != ":memory:":
        shutil.rmtree(Path(location))
    with TrustStore.from_conn_string(own_db, key=key, qdrant=_tier(location), index=index) as s:
        assert s.vectors is not None and s.vectors.is_empty()
        embeddings.texts = 0
        s.setup()
        assert embeddings.texts == len(MEMORIES) + 1  # every memory, and the probe
        assert _top1(s, ns) == {k: k for k in QUERIES}
        assert s.vectors.count(s.tenant_of(ns).hex()) == len(MEMORIES)
        seen: list[tuple[int, int]] = []
        assert s.reindex(batch=3, progress=lambda done, total: seen.append((done, total))) == len(MEMORIES)
        assert seen[-1] == (len(MEMORIES), len(MEMORIES)) and len(seen) == 3
        assert _top1(s, ns) == {k: k for k in QUERIES}
    if location != ":memory:":
        with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=index) as s:
            embeddings.texts = 0
            s.setup()  # the tier is whole again: nothing is re-embedded
            assert embeddings.texts == 1


def test_an_empty_tier_that_never_held_the_vectors_is_reported_not_filled(own_db, key, embeddings, workdir, user, caplog):
    """Another, new tier (another directory, an in-memory one) is empty for another
    reason than loss: setup says so and ``reindex()`` fills it."""
    ns = ("memories", user)
    embeddings = Counting(embeddings)
    index = _index(embeddings, embeddings.dims)
    _written(own_db, key, str(Path(tempfile.mkdtemp(prefix="edge-", dir=workdir)) / "shard"), embeddings, ns)
    for other in (str(Path(tempfile.mkdtemp(prefix="edge-", dir=workdir)) / "shard"), ":memory:"):
        with TrustStore.from_conn_string(own_db, key=key, qdrant=other, index=index) as s:
            embeddings.texts = 0
            with caplog.at_level("WARNING", logger="langgraph_trustmem"):
                s.setup()
            assert embeddings.texts == 1
            assert "call reindex() to fill it" in caplog.text
            assert s.bound("sensitive").search(ns, query="penicillin", limit=1) == []
            assert s.reindex() == len(MEMORIES)
            assert _top1(s, ns) == {k: k for k in QUERIES}
        caplog.clear()


async def test_the_async_store_rebuilds_a_lost_vector_tier_at_setup(own_db, key, embeddings, user):
    from qdrant_client import AsyncQdrantClient

    ns = ("memories", user)
    embeddings = Counting(embeddings)
    index = _index(embeddings, embeddings.dims)
    _written(own_db, key, _tier(":memory:"), embeddings, ns)
    tier = AsyncQdrantClientIndex(AsyncQdrantClient(location=":memory:"), identity="qdrant:http://vectors.internal:6333")
    async with AsyncTrustStore.from_conn_string(own_db, key=key, qdrant=tier, index=index) as s:
        embeddings.texts = 0
        await s.setup()
        assert embeddings.texts == len(MEMORIES) + 1
        want = next(iter(QUERIES))
        hits = await s.bound("sensitive").asearch(ns, query=QUERIES[want], limit=1)
        assert hits and hits[0].key == want


def test_reindex_drops_vectors_whose_memory_is_gone(own_db, key, embeddings, location, user):
    """A delete that raced a re-embedding pass killed between its vector writes and its
    re-read leaves its memory's vector behind (no search returns it, but it is a trace of
    a deleted memory); the next reindex() drops it and keeps every other vector."""
    import os

    ns = ("memories", user)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        _fill(s, ns)
        assert s.vectors is not None
        tenant = s.tenant_of(ns)
        orphan = os.urandom(32).hex()  # a memory that is no longer in PostgreSQL
        s.vectors.upsert(s._points(orphan, ns, 1, tenant, None, embeddings.embed_documents(["penicillin allergy"])))
        assert s.vectors.count(tenant.hex()) == len(MEMORIES) + 1
        assert s.reindex() == len(MEMORIES)
        assert s.vectors.count(tenant.hex()) == len(MEMORIES)
        assert _top1(s, ns) == {k: k for k in QUERIES}


async def test_the_async_reindex_drops_vectors_whose_memory_is_gone(own_db, key, embeddings, user):
    import os

    ns = ("memories", user)
    index = _index(embeddings, embeddings.dims)
    async with AsyncTrustStore.from_conn_string(own_db, key=key, qdrant=":memory:", index=index) as s:
        await s.setup()
        top = s.bound("sensitive")
        for k, text in MEMORIES.items():
            await top.aput(ns, k, {"text": text})
        assert s.vectors is not None
        tenant = s.tenant_of(ns)
        orphan = os.urandom(32).hex()
        await s.vectors.aupsert(s._points(orphan, ns, 1, tenant, None, embeddings.embed_documents(["penicillin"])))
        assert await s.vectors.acount(tenant.hex()) == len(MEMORIES) + 1
        assert await s.areindex() == len(MEMORIES)
        assert await s.vectors.acount(tenant.hex()) == len(MEMORIES)


def test_an_empty_tier_with_nothing_indexed_re_embeds_nothing(own_db, key, embeddings, location, user):
    embeddings = Counting(embeddings)
    index = _index(embeddings, embeddings.dims)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=index) as s:
        s.setup()
        s.bound("sensitive").put(("memories", user), "plain", {"text": "not indexed"}, index=False)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=index) as s:
        embeddings.texts = 0
        s.setup()
        assert embeddings.texts == 1  # the probe only


def test_a_put_with_its_own_fields_is_re_embedded_by_them(own_db, key, embeddings, location, user):
    ns = ("memories", user)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        top = s.bound("sensitive")
        top.put(ns, "a", {"title": "Penicillin allergy", "text": "Sailing lessons in June."}, index=["title"])
        top.put(ns, "b", {"title": "Sailing club", "text": "Penicillin allergy noted."}, index=["title"])
    other = Rotated(embeddings, embeddings.dims)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(other, embeddings.dims)) as s:
        s.setup()
        top = s.bound("sensitive")
        assert top.search(ns, query="penicillin allergy", limit=1)[0].key == "a"
        assert top.search(ns, query="sailing club", limit=1)[0].key == "b"


def test_a_write_during_the_re_embedding_keeps_its_own_vector(own_db, key, embeddings, location, user):
    """A put and a delete land after the walk read its page and before it
    wrote the page's vectors: the put keeps the vector of its new value,
    the deleted memory gets none back."""
    ns = ("memories", user)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        _fill(s, ns)
        top = s.bound("sensitive")
        new_text = "Switched from piano to the cello last autumn."

        def meddle():
            top.put(ns, "piano", {"text": new_text})
            top.delete(ns, "rent")

        assert s._drive(_before_first_upsert(reindex_plan(s, 256, None), meddle)) == len(MEMORIES)
        hit = top.search(ns, query=new_text, limit=1)[0]
        assert hit.key == "piano" and hit.score > 0.99
        assert s.vectors is not None and s.vectors.count(s.tenant_of(ns).hex()) == len(MEMORIES) - 1


def test_an_erasure_during_the_re_embedding_leaves_no_vector(own_db, key, embeddings, location, user):
    """A user forgotten after the walk read their memories and before it
    wrote their vectors: the written vectors go again, their shard whole."""
    ns = ("memories", user)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        _fill(s, ns)
        tenant = s.tenant_of(ns).hex()

        s._drive(_before_first_upsert(reindex_plan(s, 256, None), lambda: s.forget(user)))
        assert s.vectors is not None and s.vectors.count(tenant) == 0
        if location != ":memory:":
            assert not any(tenant in p.name for p in Path(location).iterdir())


def test_the_packaged_model_never_replaces_another_embedders_vectors(own_db, key, embeddings, location, user):
    """A CLI command opens the store with the packaged model, not the app's
    index: it leaves the app's vectors alone, and refuses what would need
    them, until an explicit reindex()."""
    from langgraph_trustmem.errors import ConfigurationError

    ns = ("memories", user)
    app = Rotated(embeddings, embeddings.dims)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(app, embeddings.dims)) as s:
        s.setup()
        _fill(s, ns)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        top = s.bound("sensitive")
        assert top.get(ns, "rent") is not None  # reads by key, forget, audit: as ever
        with pytest.raises(ConfigurationError):
            top.search(ns, query="rent", limit=1)
        with pytest.raises(ConfigurationError):
            top.put(ns, "new", {"text": "A new memory."})
        assert top.get(ns, "new") is None
    with psycopg.connect(own_db) as conn:
        assert conn.execute("SELECT packaged FROM trustmem_vector_meta").fetchone() == (False,)
    if location != ":memory:":  # the app's vectors are still there
        with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(app, embeddings.dims)) as s:
            app.texts = 0
            s.setup()
            assert app.texts == 1 and _top1(s, ns) == {k: k for k in QUERIES}
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)) as s:
        s.setup()
        assert s.reindex() == len(MEMORIES)  # explicit: now the packaged model's
        assert _top1(s, ns) == {k: k for k in QUERIES}
        s.bound("sensitive").put(ns, "new", {"text": "A new memory."})


def test_an_earlier_releases_row_with_its_own_fields_is_not_sent_whole(own_db, key, embeddings, location, user):
    """A row from before puts recorded their fields, whose put named fewer
    than the config: the config's fields would send the embedder text its
    writer kept out, so it is left as it is. (A row whose fields give as
    many texts as the config's is re-embedded from the config's: the
    record cannot tell them apart.)"""
    import orjson

    ns = ("memories", user)
    fields = ["text", "notes"]
    index = {**_index(embeddings, embeddings.dims), "fields": fields}
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index=index) as s:
        s.setup()
        top = s.bound("sensitive")
        top.put(ns, "visit", {"text": "Clinic visit", "notes": "kept out of the embedder"}, index=["text"])
        top.put(ns, "plain", {"text": "Dentist in March", "notes": "both fields"})
        with psycopg.connect(own_db, autocommit=True) as conn:  # as an earlier release wrote them: no "idx"
            for k in ("visit", "plain"):
                nh, kh = s.ns_hash(ns), s.key_hash(k)
                sealed, level, tenant = conn.execute(
                    "SELECT sealed, level, tenant FROM trustmem_memories WHERE ns_hash = %s AND key_hash = %s", (nh, kh)
                ).fetchone()
                body = s._open(nh, kh, bytes(sealed), level, tenant)
                del body["idx"]
                resealed = s.keyring.encrypt(orjson.dumps(body), s._place(nh, kh, level, bytes(tenant)))
                conn.execute(
                    "UPDATE trustmem_memories SET sealed = %s WHERE ns_hash = %s AND key_hash = %s", (resealed, nh, kh)
                )
    spy = Spy(embeddings)
    with TrustStore.from_conn_string(own_db, key=key, qdrant=location, index={**index, "embed": spy}) as s:
        assert s.setup() is None
    assert {"Dentist in March", "both fields"} <= set(spy.seen)
    assert not any("Clinic visit" in t or "kept out" in t for t in spy.seen)


async def test_the_async_store_re_embeds_at_setup(own_db, key, embeddings, location, user):
    ns = ("memories", user)
    async with AsyncTrustStore.from_conn_string(
        own_db, key=key, qdrant=location, index=_index(embeddings, embeddings.dims)
    ) as s:
        await s.setup()
        top = s.bound("sensitive")
        for k, text in MEMORIES.items():
            await top.aput(ns, k, {"text": text})
    other = Rotated(embeddings, embeddings.dims)
    async with AsyncTrustStore.from_conn_string(
        own_db, key=key, qdrant=location, index=_index(other, embeddings.dims)
    ) as s:
        await s.setup()
        top = s.bound("sensitive")
        got = {want: (await top.asearch(ns, query=q, limit=1))[0].key for want, q in QUERIES.items()}
        assert got == {k: k for k in QUERIES}
        assert await s.areindex() == len(MEMORIES)
