"""Embedding inversion against the vector tier ("vectors that reveal nothing
without the key").

The default embedder ships in the package, so anyone can run it: a text's
vector is the normalised sum of its tokens' rows. Greedy matching pursuit
over those rows (pick the token whose row best matches what is left of the
vector, subtract it, repeat) reads a plain vector back into its words, with
no training. These tests run that attack on what a real session leaves in
the vector tier, read the way an attacker would (a copy of the embedded
engine's files opened with the public engine; a scroll of the Qdrant
collection), on both back ends, and check that

1. on plain embeddings of the same texts (the control) it recovers the
   sensitive words, so the attack is known to work;
2. on the stored vectors it recovers no more of the texts' tokens than
   chance (defined in :func:`chance_ceiling`);
3. searches through the store return exactly what a plain search returns
   (same memories, same order, same scores within float tolerance).

They also show the limits the threat model states: known (text, vector)
pairs of one tenant give that tenant's rotation away, and nobody else's.
Everything is seeded; nothing is random between runs.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
import shutil
import tempfile
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psycopg
import pytest

from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.errors import SetupRequired
from langgraph_trustmem.store import AsyncTrustStore, TrustStore
from langgraph_trustmem.store.embeddings import default_embeddings
from langgraph_trustmem.store.vectors import SEAL_FIELD, SEAL_VERSION, VectorPoint, VectorQuery, VectorSeal

from ..store.conftest import vector_location

ATOMS = 8  # tokens the attack picks per vector
CHANCE_TAIL = 1e-6  # the chance ceiling is exceeded with at most this probability
TOL = 1e-5  # scores: float32 engines against a float64 reference

# Two patients' records (one shared text, to compare tenants) and shared
# knowledge. Each lists sensitive words, every one a single vocabulary token.
PATIENT_A = [
    ("hiv", "Patient tests positive for HIV and started Truvada", {"hiv", "positive", "patient"}),
    ("t2d", "Diagnosed with type 2 diabetes, prescribed metformin", {"diabetes", "diagnosed", "prescribed"}),
    ("preg", "She is pregnant and worried about her depression medication", {"pregnant", "depression"}),
    ("onc", "Biopsy confirmed stage 3 breast cancer; chemotherapy starts next week", {"cancer", "breast"}),
    ("aud", "Relapsed on alcohol after six months sober and attends AA meetings", {"sober", "alcohol"}),
    ("bp", "Takes lithium for bipolar disorder since 2019", {"lithium", "bipolar", "disorder"}),
]
PATIENT_B = [
    ("hiv", "Patient tests positive for HIV and started Truvada", {"hiv", "positive", "patient"}),
    ("psy", "Admitted to the psychiatric ward after a suicide attempt", {"psychiatric", "admitted"}),
    ("hcv", "Hepatitis C antibody test came back reactive", {"hepatitis", "antibody", "reactive"}),
    ("ab", "Had an abortion at the clinic in March", {"abortion", "clinic"}),
    ("dem", "Early signs of dementia; memory loss is getting worse", {"dementia", "memory"}),
]
SHARED = [
    ("hours", "The clinic opens at eight and closes at six on weekdays"),
    ("hiv-test", "Free HIV testing is offered every Tuesday afternoon"),
    ("flu", "Flu vaccines are available for all staff in October"),
]
QUERIES = ["HIV treatment", "cancer", "diabetes medication", "mental health crisis", "clinic opening hours"]


# -- the attack ------------------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    """The packaged embedder's token rows, unit length (the attack's atoms)."""

    atoms: np.ndarray  # (tokens, dims) float32
    token_ids: np.ndarray  # atom row -> token id
    tokenizer: object
    index: dict[str, int]
    names: dict[int, str]

    def ids_of(self, text: str) -> set[int]:
        """The distinct tokens of a text as the embedder reads it."""
        unk = self.index.get("[UNK]")
        return {i for i in self.tokenizer.encode(text, add_special_tokens=False).ids if i != unk}


@functools.lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    model = default_embeddings()._load()  # the public model: the attacker has it too
    assert model.mapping is None and model.weights is None  # rows are indexed by token id
    table = model.table.astype(np.float32)
    norms = np.linalg.norm(table, axis=1)
    index = model.tokenizer.get_vocab()
    special = {index[t] for t in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]") if t in index}
    keep = np.array([i for i in range(len(table)) if norms[i] > 0 and i not in special])
    names = {i: t for t, i in index.items()}
    return Vocabulary(table[keep] / norms[keep, None], keep, model.tokenizer, index, names)


def invert(vocab: Vocabulary, vector: Sequence[float], atoms: int = ATOMS) -> set[int]:
    """Greedy matching pursuit: the tokens whose rows best explain a vector."""
    residual = np.asarray(vector, dtype=np.float32).copy()
    picked: set[int] = set()
    for _ in range(atoms):
        scores = vocab.atoms @ residual
        j = int(np.argmax(scores))
        if scores[j] <= 0:
            break
        picked.add(int(vocab.token_ids[j]))
        residual -= scores[j] * vocab.atoms[j]
    return picked


def chance_ceiling(token_sets: Iterable[set[int]], vocab_size: int, atoms: int = ATOMS) -> tuple[float, int]:
    """Chance, precisely: an attack that learns nothing picks ``atoms``
    distinct vocabulary tokens at random, so its overlap with a text of
    ``T`` distinct tokens is hypergeometric with mean ``atoms * T / V``. The
    total over all texts is a sum of independent hypergeometrics, which is
    dominated in convex order by a Poisson of the same mean ``mu``; the
    ceiling is the largest count ``c`` with ``P(Poisson(mu) > c) <=
    CHANCE_TAIL``. Returns (mu, ceiling)."""
    mu = sum(atoms * len(t) / vocab_size for t in token_sets)
    c, cdf, term = 0, math.exp(-mu), math.exp(-mu)
    while 1.0 - cdf > CHANCE_TAIL:
        c += 1
        term *= mu / c
        cdf += term
    return mu, c


@dataclass(frozen=True)
class Outcome:
    hits: int  # recovered tokens that are tokens of the text, over all texts
    sensitive: int  # sensitive words recovered
    sensitive_total: int
    per_text: tuple[tuple[str, ...], ...]  # what was recovered, for failure messages


def attack(records: Sequence[tuple[str, set[str], Sequence[float]]]) -> Outcome:
    """Run the inversion on (text, sensitive words, vector) and score it."""
    vocab = vocabulary()
    hits = sensitive = total = 0
    shown = []
    for text, words, vector in records:
        got = invert(vocab, vector)
        hits += len(got & vocab.ids_of(text))
        wanted = {vocab.index[w] for w in words}
        sensitive += len(got & wanted)
        total += len(wanted)
        shown.append(tuple(sorted(vocab.names[i] for i in got)))
    return Outcome(hits, sensitive, total, tuple(shown))


# -- a real session, and what the vector tier holds afterwards --------------------


def fixed_key(name: str) -> str:
    """A key that is the same on every run, so the rotations are too."""
    return base64.b64encode(hashlib.sha256(f"test_vector_inversion/{name}".encode()).digest()).decode()


def fresh_database(pg, name: str) -> str:
    """A database of its own: the suite's shared one is set up with the
    session's random key, and these tests need fixed ones."""
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url_for(name)


@pytest.fixture(scope="module")
def text_index():
    emb = default_embeddings()
    return {"dims": emb.dims, "embed": emb, "fields": ["text"]}


@pytest.fixture(scope="module")
def db(pg, text_index) -> tuple[str, str]:
    """(url, key) of this module's database, schema in place."""
    url, key = fresh_database(pg, "vector_inversion_test"), fixed_key("store")
    with TrustStore.from_conn_string(url, key=key) as store:
        store.setup()
    return url, key


@dataclass
class Session:
    store: TrustStore
    a: str
    b: str

    def ns(self, who: str) -> tuple[str, ...]:
        return ("memories", who)

    def ref(self, ns: Sequence[str], key: str) -> str:
        return (self.store.ns_hash(ns) + self.store.key_hash(key)).hex()


def remember(put, a: str, b: str) -> None:
    """What the session stores: two patients' records and shared knowledge."""
    for who, records in ((a, PATIENT_A), (b, PATIENT_B)):
        for key, text, _ in records:
            put(("memories", who), key, {"text": text})
    for key, text in SHARED:
        put(("shared", "clinic"), key, {"text": text})


@pytest.fixture(params=["edge", "qdrant-client"])
def session(request, db, text_index, workdir):
    url, key = db
    with TrustStore.from_conn_string(
        url, key=key, qdrant=vector_location(request.param, workdir), index=text_index
    ) as store:
        store.setup()
        s = Session(store, "patient-a", "patient-b")
        remember(store.bound("sensitive").put, s.a, s.b)
        yield s


def read_vector_tier(store: TrustStore) -> dict[str, np.ndarray]:
    """Every stored vector by its payload's ref, read without the key: the
    Qdrant collection scrolled with vectors, or a copy of the embedded
    engine's files opened with the public engine."""
    vectors = store.vectors
    out: dict[str, np.ndarray] = {}
    if hasattr(vectors, "client"):
        offset = None
        while True:
            points, offset = vectors.client.scroll(
                vectors.collection, limit=256, offset=offset, with_payload=True, with_vectors=True
            )
            out.update({p.payload["ref"]: np.asarray(p.vector, dtype=np.float32) for p in points})
            if offset is None:
                return out
    import qdrant_edge as qe

    vectors.flush()
    copy = Path(tempfile.mkdtemp(prefix="stolen-")) / "shard"
    try:
        shutil.copytree(vectors.path, copy)
        shards = [d for d in copy.iterdir() if (d / "segments").is_dir()]  # one per tenant
        assert shards
        for where in shards:
            shard = qe.EdgeShard.load(str(where))
            offset = None
            while True:
                records, offset = shard.scroll(
                    qe.ScrollRequest(offset=offset, limit=256, with_payload=True, with_vector=True)
                )
                out.update({r.payload["ref"]: np.asarray(r.vector, dtype=np.float32) for r in records})
                if offset is None:
                    break
            shard.close()
    finally:
        shutil.rmtree(copy.parent, ignore_errors=True)
    return out


def unit(v: Sequence[float]) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v / np.linalg.norm(v)


# -- 1 and 2: the attack on plain vectors and on stored ones -----------------------


def test_inversion_reads_plain_vectors_and_nothing_from_stored_ones(session):
    store, vocab = session.store, vocabulary()
    records = [(session.a, r) for r in PATIENT_A] + [(session.b, r) for r in PATIENT_B]
    texts = [text for _, (_, text, _) in records]
    plain = store.embeddings.embed_documents(texts)
    stored = read_vector_tier(store)
    assert len(stored) == len(records) + len(SHARED)
    sealed = [stored[session.ref(session.ns(who), k)] for who, (k, _, _) in records]

    control = attack([(text, words, v) for (_, (_, text, words)), v in zip(records, plain, strict=False)])
    protected = attack([(text, words, v) for (_, (_, text, words)), v in zip(records, sealed, strict=False)])
    mu, ceiling = chance_ceiling([vocab.ids_of(t) for t in texts], len(vocab.atoms))
    print(
        f"\ncontrol: {control.hits} text tokens, {control.sensitive}/{control.sensitive_total} sensitive; "
        f"stored: {protected.hits} text tokens, {protected.sensitive} sensitive; "
        f"chance: mean {mu:.3f}, ceiling {ceiling}"
    )

    # 1. the attack works: plain vectors give their sensitive words away
    assert control.sensitive >= 0.8 * control.sensitive_total, control.per_text
    assert control.hits > 10 * max(ceiling, 1), control.per_text
    assert {"hiv", "positive"} <= set(control.per_text[0])
    # 2. stored vectors give away no more of their texts' tokens (sensitive
    # words included) than chance
    assert protected.hits <= ceiling, protected.per_text

    # the same text is stored differently for each tenant, and neither copy
    # lines up with its plain vector
    same_a = stored[session.ref(session.ns(session.a), "hiv")]
    same_b = stored[session.ref(session.ns(session.b), "hiv")]
    assert abs(float(unit(same_a) @ unit(same_b))) < 0.3
    assert abs(float(unit(same_a) @ unit(plain[0]))) < 0.3


# -- 3: searches through the store are those of plain vectors --------------------


def plain_search(query: str, memories: dict[tuple[tuple[str, ...], str], str]) -> list[tuple[tuple, float]]:
    """The untransformed search: cosine of plain embeddings, best first."""
    emb = default_embeddings()
    keys = list(memories)
    scores = np.asarray(emb.embed_documents([memories[k] for k in keys]), np.float64) @ unit(
        emb.embed_query(query)
    )
    return [(keys[i], float(scores[i])) for i in np.argsort(-scores, kind="stable")]


def views(a: str, b: str) -> list[tuple[str | None, tuple[str, ...], dict]]:
    """(bound user, search prefix, the memories that search may see)."""
    mine = {(("memories", a), k): t for k, t, _ in PATIENT_A}
    theirs = {(("memories", b), k): t for k, t, _ in PATIENT_B}
    shared = {(("shared", "clinic"), k): t for k, t in SHARED}
    return [
        (a, ("memories", a), mine),  # a run of A's: A's tenant only
        (a, (), mine | shared),  # A's tenant and the shared one, merged
        (None, ("memories",), mine | theirs),  # the app's cross-user view: every tenant
        (None, (), mine | theirs | shared),
    ]


def check_same(got: Sequence, ranking: Sequence[tuple[tuple, float]], limit: int) -> None:
    """The store's hits are the plain search's top ``limit``: the same
    memories in the same order with the same scores. Only memories whose
    plain scores are equal (the same text stored twice) may swap places."""
    want = ranking[:limit]
    keys = [(tuple(h.namespace), h.key) for h in got]
    assert len(keys) == len(want) == len(set(keys))
    assert np.allclose([h.score for h in got], [s for _, s in want], atol=TOL, rtol=0)
    for key, (want_key, want_score) in zip(keys, want, strict=False):
        assert key == want_key or any(k == key and abs(s - want_score) <= TOL for k, s in ranking)


def test_search_results_are_those_of_plain_vectors(session):
    for user, prefix, memories in views(session.a, session.b):
        view = session.store.bound("sensitive", user_id=user)
        for query in QUERIES:
            for limit in (3, len(memories)):
                check_same(
                    view.search(prefix, query=query, limit=limit), plain_search(query, memories), limit
                )


async def test_async_store_seals_and_searches_the_same(db, text_index):
    url, key = db
    async with AsyncTrustStore.from_conn_string(url, key=key, qdrant=":memory:", index=text_index) as store:
        await store.setup()
        a, b = "patient-a", "patient-b"
        top = store.bound("sensitive")
        for who, records in ((a, PATIENT_A), (b, PATIENT_B)):
            for k, text, _ in records:
                await top.aput(("memories", who), k, {"text": text})
        for k, text in SHARED:
            await top.aput(("shared", "clinic"), k, {"text": text})
        points, _ = await store.vectors.client.scroll(store.vectors.collection, limit=100, with_vectors=True)
        assert all(p.payload[SEAL_FIELD] == SEAL_VERSION for p in points)
        raw = default_embeddings().embed_query(PATIENT_A[0][1])
        ref = (store.ns_hash(("memories", a)) + store.key_hash("hiv")).hex()
        [hiv] = [p for p in points if p.payload["ref"] == ref]
        assert np.allclose(
            unit(hiv.vector), unit(store.vectors.seal.apply(hiv.payload["t"], raw)[0]), atol=TOL
        )
        for user, prefix, memories in views(a, b):
            view = store.bound("sensitive", user_id=user)
            for query in QUERIES:
                check_same(await view.asearch(prefix, query=query, limit=4), plain_search(query, memories), 4)


# -- the limits the threat model states ------------------------------------------


def filler_texts(n: int, seed: int) -> list[str]:
    """Texts an attacker might know (say, notes they wrote themselves):
    eight common words each, drawn with a fixed seed."""
    vocab = vocabulary()
    words = sorted(
        (i, t) for t, i in vocab.index.items() if t.isalpha() and t.isascii() and 4 <= len(t) <= 9
    )[:5000]
    rng = np.random.default_rng(seed)
    return [" ".join(words[j][1] for j in rng.choice(len(words), 8, replace=False)) for _ in range(n)]


@pytest.mark.parametrize("backend", ["edge"])
def test_known_pairs_give_away_one_tenant_and_no_other(backend, db, text_index, workdir):
    """An attacker holding ~300 known (text, vector) pairs of tenant A solves
    A's rotation (orthogonal Procrustes) and inverts A's other vectors; B's
    stay at chance. The documented limit, and why rotations are per tenant."""
    known = filler_texts(320, seed=7)
    (url, key), a, b = db, "patient-a", "patient-b"
    with TrustStore.from_conn_string(
        url, key=key, qdrant=vector_location(backend, workdir), index=text_index
    ) as store:
        store.setup()
        top = store.bound("sensitive")
        remember(top.put, a, b)
        for i, text in enumerate(known):
            top.put(("memories", a), f"note-{i}", {"text": text})
        stored = read_vector_tier(store)

        def vector(who: str, k: str) -> np.ndarray:
            return unit(stored[(store.ns_hash(("memories", who)) + store.key_hash(k)).hex()])

    x = np.asarray(default_embeddings().embed_documents(known), np.float64)
    y = np.stack([vector(a, f"note-{i}") for i in range(len(known))])
    u, _, vt = np.linalg.svd(y.T @ x)
    guess = u @ vt  # the rotation that best maps the known plain vectors to the stored ones
    vocab = vocabulary()

    def undone(who: str, records: Sequence) -> Outcome:
        return attack([(t, w, guess.T @ vector(who, k)) for k, t, w in records])

    on_a, on_b = undone(a, PATIENT_A), undone(b, PATIENT_B)
    _, ceiling_b = chance_ceiling([vocab.ids_of(t) for _, t, _ in PATIENT_B], len(vocab.atoms))
    print(
        f"\nknown pairs of A: A {on_a.sensitive}/{on_a.sensitive_total} sensitive; "
        f"B {on_b.hits} text tokens (ceiling {ceiling_b}), {on_b.sensitive} sensitive"
    )
    assert on_a.sensitive >= 0.8 * on_a.sensitive_total, on_a.per_text
    assert on_b.hits <= ceiling_b, on_b.per_text


# -- vectors stored before sealing, key rotation, the key binding -------------------


def legacy_points(store: TrustStore, who: str, records: Sequence) -> list[VectorPoint]:
    """The points the previous version stored for these memories: the same
    ids and payload, no seal field, the plain vector."""
    ns = ("memories", who)
    emb = default_embeddings()
    out = []
    for k, text, _ in records:
        ref = (store.ns_hash(ns) + store.key_hash(k)).hex()
        payload = {
            **store._payload(ns, store.ladder.rank("sensitive"), store.tenant_of(ns), None),
            "ref": ref,
        }
        out.append(VectorPoint(store.point_id(ref, 0), emb.embed_query(text), payload))
    return out


@pytest.mark.parametrize("backend", ["edge", "qdrant-client"])
def test_vectors_stored_before_sealing_are_sealed_by_setup(backend, db, text_index, workdir):
    (url, key), loc = db, vector_location(backend, workdir)
    a, b = "patient-a", "patient-b"
    with TrustStore.from_conn_string(url, key=key, qdrant=loc, index=text_index) as store:
        store.setup()
        remember(store.bound("sensitive").put, a, b)
        vectors = store.vectors
        # half of A's memories as the previous version left them (plain vectors)
        old = legacy_points(store, a, PATIENT_A[:3])
        vectors._write(old)
        assert vectors.unsealed_count() == 3
        # until setup() seals them they are not searched: no plain vector is
        # ever scored against a rotated query
        view = store.bound("sensitive", user_id=a)
        newer = {(("memories", a), k): t for k, t, _ in PATIENT_A[3:]}
        for query in QUERIES:
            check_same(view.search(("memories", a), query=query, limit=3), plain_search(query, newer), 3)

        # sealing writes are update-only and conditioned on the point being
        # still plain: a point deleted meanwhile does not come back, and one
        # sealed meanwhile (by a newer write) is not overwritten
        [deleted] = legacy_points(store, b, PATIENT_B[:1])
        vectors.delete_refs([deleted.payload["ref"]])
        [newer_write] = legacy_points(store, a, PATIENT_A[3:4])
        stale = VectorPoint(newer_write.id, old[1].vector, newer_write.payload)
        count = vectors.count()
        vectors._reseal(vectors._sealed([deleted, stale, old[0]]))
        assert vectors.count() == count and vectors.unsealed_count() == 2  # old[0] sealed, nothing back
        if backend != "edge":
            assert store.setup() is None and vectors.unsealed_count() == 0
            check_all_sealed(store, a)
            return
    # the embedded engine: reopened from its files, as after an upgrade
    with TrustStore.from_conn_string(url, key=key, qdrant=loc, index=text_index) as store:
        store.setup()
        assert store.vectors.unsealed_count() == 0
        check_all_sealed(store, a)


def check_all_sealed(store: TrustStore, a: str) -> None:
    mine = {(("memories", a), k): t for k, t, _ in PATIENT_A}
    stored = read_vector_tier(store)
    tenant = store.tenant_of(("memories", a)).hex()
    emb = default_embeddings()
    for (ns, k), text in mine.items():
        want = store.vectors.seal.apply(tenant, emb.embed_query(text))[0]
        assert np.allclose(unit(stored[(store.ns_hash(ns) + store.key_hash(k)).hex()]), unit(want), atol=TOL)
    view = store.bound("sensitive", user_id=a)
    for query in QUERIES:
        check_same(view.search(("memories", a), query=query, limit=6), plain_search(query, mine), 6)


def test_rotating_the_encryption_key_keeps_the_vectors(pg, workdir, text_index):
    """Rotations derive from the identity key, which a key rotation keeps:
    vectors need no re-transform, and memories written before and after the
    rotation are searched together."""
    url = fresh_database(pg, "vector_rotation_test")  # its own: rotate_keys re-seals a whole database
    loc, old, new = vector_location("edge", workdir), fixed_key("old"), fixed_key("new")
    a = "pa-rotation"
    with TrustStore.from_conn_string(url, key=old, qdrant=loc, index=text_index) as store:
        store.setup()
        for k, text, _ in PATIENT_A[:3]:
            store.bound("sensitive").put(("memories", a), k, {"text": text})
        before = read_vector_tier(store)
    with TrustStore.from_conn_string(url, key=KeyRing([new, old]), qdrant=loc, index=text_index) as store:
        store.setup()
        assert store.rotate_keys() > 0
        after = read_vector_tier(store)
        assert before.keys() == after.keys()
        assert all(np.array_equal(before[r], after[r]) for r in before)
        for k, text, _ in PATIENT_A[3:]:
            store.bound("sensitive").put(("memories", a), k, {"text": text})
        check_all_sealed(store, a)


def test_one_index_holds_one_ring(db, text_index):
    """Sharing a vector index between rings would mix rotations: refused,
    and an index with no key writes nothing."""
    from langgraph_trustmem.store.vectors import QdrantClientIndex

    bare = QdrantClientIndex.from_location(":memory:")
    with pytest.raises(SetupRequired, match="no key"):
        bare.upsert([VectorPoint(str(uuid.UUID(int=1)), [1.0] * text_index["dims"], {"t": ""})])
    url, key = db
    with TrustStore.from_conn_string(url, key=key, qdrant=bare, index=text_index) as store:
        store.setup()
        with pytest.raises(ValueError, match="another key ring"):
            TrustStore(store.conn, key=fixed_key("other"), vectors=store.vectors, index=text_index)
        TrustStore(store.conn, key=KeyRing([fixed_key("next"), key]), vectors=store.vectors, index=text_index)
        assert store.vectors.search([1.0] * text_index["dims"], VectorQuery(level=3, now=0.0), 5) == []


@pytest.mark.parametrize("dims", [256, 97, 130, 1536])
def test_a_rotation_is_orthogonal_and_mixes_every_coordinate(dims):
    """Any embedding size: dot products kept, every output depends on every
    input, the same tenant always gets the same rotation and others differ."""
    seal = VectorSeal(bytes(range(32)))
    basis = seal.apply("a" * 32, np.eye(dims)).astype(np.float64)
    assert np.allclose(basis @ basis.T, np.eye(dims), atol=1e-5)
    assert (np.abs(basis) > 1e-9).all()
    again = VectorSeal(bytes(range(32))).apply("a" * 32, np.eye(dims))
    assert np.array_equal(seal.apply("a" * 32, np.eye(dims)), again)
    assert np.abs(seal.apply("b" * 32, np.eye(dims)) - basis).max() > 0.1
