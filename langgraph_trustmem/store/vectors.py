"""The vector tier: one interface, two Qdrant back ends, vectors sealed.

Points carry only what filtering needs — the item reference (a keyed hash),
the tenant hash, the level rank, the hashes of the namespace's prefixes, the
expiry time and the seal version — never text. Level, tenant and namespace
filters run inside Qdrant, so a search never ranks what its reader may not
see.

Vectors are sealed before they reach Qdrant: each tenant's vectors are
turned by a secret rotation (:class:`VectorSeal`, a keyed orthogonal map
derived from the key ring's identity key and the tenant hash), and so are
the query vectors searched against them. A rotation keeps every dot product,
so cosine scores and their order are those of the plain vectors, while the
stored vectors no longer line up with the public embedder's vocabulary
(which is what lets anyone read plain embeddings back into words). One
query therefore becomes one search per tenant it may see, merged by score.

- :class:`QdrantClientIndex` / :class:`AsyncQdrantClientIndex`: a Qdrant
  server or cluster through ``qdrant-client`` (and its ``:memory:`` mode).
- :class:`QdrantEdgeIndex`: Qdrant's embedded engine (``qdrant-edge-py``),
  the fast in-process default.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import inspect
import logging
import os
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from langgraph_trustmem.errors import SetupRequired

if TYPE_CHECKING:
    from langgraph_trustmem.crypto import KeyRing

log = logging.getLogger(__name__)

COLLECTION = "trustmem_memories"
SEAL_FIELD = "vk"  # payload: the version of the seal a vector is stored under
SEAL_VERSION = 1
KEYWORD_FIELDS = ("ref", "t", "nsp")
INTEGER_FIELDS = ("lv", SEAL_FIELD)
FLOAT_FIELDS = ("exp",)
# LangGraph's distance_type -> (qdrant-client's Distance, qdrant-edge's Distance) names
DISTANCES = {"cosine": ("COSINE", "Cosine"), "l2": ("EUCLID", "Euclid"), "inner_product": ("DOT", "Dot")}


@dataclass(frozen=True)
class VectorPoint:
    id: str
    vector: list[float]
    payload: dict[str, Any]


@dataclass(frozen=True)
class VectorQuery:
    """What a search may see: levels up to ``level``, not expired at
    ``now``, under the namespace prefix ``prefix`` (hex hash) if set, and for
    ``tenants`` (hex hashes; "" is shared) if set."""

    level: int
    now: float
    prefix: str | None = None
    tenants: tuple[str, ...] | None = None


# -- the seal ------------------------------------------------------------------


ROUNDS = 3  # two already make every output mix every input below ~4,000 dimensions
BLOCK = 64


class _Stream:
    """A ChaCha20 keystream as numbers: nothing about what it yields is
    predictable without the seed (numpy's generators make no such claim)."""

    def __init__(self, seed: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms  # noqa: PLC0415

        self._enc = Cipher(algorithms.ChaCha20(seed, b"\x00" * 16), mode=None).encryptor()

    def words(self, n: int) -> np.ndarray:
        return np.frombuffer(self._enc.update(bytes(8 * n)), dtype=np.uint64)

    def gauss(self, n: int) -> np.ndarray:
        """Standard normal draws (Box–Muller over 53-bit uniforms in (0, 1])."""
        u = ((self.words(n + n % 2) >> np.uint64(11)).astype(np.float64) + 1.0) * 2.0**-53
        radius, angle = np.sqrt(-2.0 * np.log(u[0::2])), 2.0 * np.pi * u[1::2]
        return np.concatenate((radius * np.cos(angle), radius * np.sin(angle)))[:n]

    def haar(self, count: int, size: int) -> np.ndarray:
        """``count`` Haar-random orthogonal ``size`` x ``size`` matrices (QR of
        Gaussian ones, signs fixed by R's diagonal)."""
        q, r = np.linalg.qr(self.gauss(count * size * size).reshape(count, size, size))
        return q * np.where(np.diagonal(r, axis1=1, axis2=2) < 0, -1.0, 1.0)[:, None, :]


@dataclass(frozen=True, eq=False)
class Rotation:
    """One tenant's secret orthogonal map of ``dims``-space: ``ROUNDS``
    rounds of a signed permutation followed by a block-diagonal rotation
    (Haar-random blocks of ``BLOCK``, the last one taking the remainder).

    A product of orthogonal maps, so dot products are kept exactly (up to
    float32 rounding); after the rounds every output coordinate depends on
    every input one. Chosen over one dense Haar matrix because that one costs
    O(d³) to derive and d² floats to keep: 1.5 s and 9.4 MB per tenant at
    1,536 dimensions, against 27 ms and 1.2 MB here."""

    dims: int
    block: int
    rounds: tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], ...]  # perm, signs, blocks, last

    @classmethod
    def derive(cls, seed: bytes, dims: int) -> Rotation:
        stream = _Stream(seed)
        full = max(dims // BLOCK, 1) - 1
        block = BLOCK if full else dims
        rounds = []
        for _ in range(ROUNDS):
            perm = np.argsort(stream.words(dims), kind="stable")
            signs = np.where(stream.words(dims) & np.uint64(1), -1.0, 1.0).astype(np.float32)
            blocks = stream.haar(full, block).astype(np.float32)
            last = stream.haar(1, dims - full * block)[0].astype(np.float32)
            rounds.append((perm, signs, blocks, last))
        return cls(dims, block, tuple(rounds))

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for r in self.rounds for a in r)

    def apply(self, x: np.ndarray) -> np.ndarray:
        """Rows of ``x`` (n x dims, float32) mapped."""
        n = x.shape[0]
        for perm, signs, blocks, last in self.rounds:
            x = x[:, perm] * signs
            out = np.empty_like(x)
            cut = blocks.shape[0] * self.block
            if cut:
                parts = x[:, :cut].reshape(n, -1, self.block).transpose(1, 2, 0)
                out[:, :cut] = np.matmul(blocks, parts).transpose(2, 0, 1).reshape(n, cut)
            out[:, cut:] = x[:, cut:] @ last.T
            x = out
        return x


class VectorSeal:
    """Secret per-tenant rotations of embedding space.

    Each tenant (the hex hash the payload's ``t`` holds; "" for shared
    memories) gets its own :class:`Rotation`, seeded by an HMAC of the tenant
    under a key derived from the ring's identity key: the identity key never
    changes while data exists, so the rotations survive encryption-key
    rotation, and one tenant's known (text, vector) pairs say nothing about
    another's rotation. Rotations are cached, least recently used out first,
    up to ``cache_bytes`` (about 200 KB each at 256 dimensions)."""

    def __init__(self, key: bytes, *, cache_bytes: int = 32 << 20) -> None:
        if len(key) != 32:
            raise ValueError("a vector seal needs a 32-byte key")
        self._key = key
        self.cache_bytes = cache_bytes
        self._cache: OrderedDict[tuple[str, int], Rotation] = OrderedDict()
        self._cached = 0
        self._lock = threading.Lock()

    @classmethod
    def from_keyring(cls, keyring: KeyRing, *, cache_bytes: int = 32 << 20) -> VectorSeal:
        return cls(keyring.derive_key(f"vectors/rotation/v{SEAL_VERSION}"), cache_bytes=cache_bytes)

    def same_key(self, other: VectorSeal) -> bool:
        return hmac.compare_digest(self._key, other._key)

    def rotation(self, tenant: str, dims: int) -> Rotation:
        """The tenant's rotation of ``dims``-space."""
        slot = (tenant, dims)
        with self._lock:
            cached = self._cache.get(slot)
            if cached is not None:
                self._cache.move_to_end(slot)
                return cached
        seed = hmac.new(self._key, f"tenant\x00{dims}\x00{tenant}".encode(), hashlib.sha256).digest()
        made = Rotation.derive(seed, dims)
        with self._lock:
            if slot not in self._cache:
                self._cache[slot] = made
                self._cached += made.nbytes
            while self._cached > self.cache_bytes and len(self._cache) > 1:
                self._cached -= self._cache.popitem(last=False)[1].nbytes
        return made

    def apply(
        self, tenant: str, vectors: Sequence[Sequence[float]] | Sequence[float] | np.ndarray
    ) -> np.ndarray:
        """Rows of ``vectors`` turned by the tenant's rotation (float32)."""
        x = np.asarray(vectors, dtype=np.float32)
        if x.ndim == 1:
            x = x[None, :]
        return self.rotation(tenant, x.shape[1]).apply(x)

    def forget(self, tenant: str) -> None:
        """Drop an erased tenant's cached rotations."""
        with self._lock:
            for slot in [s for s in self._cache if s[0] == tenant]:
                self._cached -= self._cache.pop(slot).nbytes

    def __repr__(self) -> str:  # never show key material
        return f"VectorSeal(v{SEAL_VERSION}, cached={len(self._cache)})"


Plan = list[tuple[list[float], VectorQuery]]


def takes_count(index: Any) -> bool:
    """Whether an index's ``delete_tenant`` takes the caller's ``count``
    (an index written before it did is called without it: an erasure must
    not stop at its vector step over a signature)."""
    method = getattr(index, "delete_tenant", None)
    try:
        return method is not None and "count" in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False


class VectorIndex:
    """The interface both back ends implement (sync; async twins below).

    The public methods seal: :meth:`upsert` rotates each point's vector by
    its tenant's rotation and marks it (``vk``), :meth:`search` runs one
    rotated query per tenant and merges, :meth:`setup` seals vectors written
    before sealing existed. Back ends implement the primitives (``_create``,
    ``_write``, ``_query``, ``_tenants``, ``_unsealed``, ``_reseal``) and
    only ever see sealed vectors; searches match sealed points only."""

    dims: int = 0
    seal: VectorSeal | None = None
    distance: str = "cosine"  # LangGraph's distance_type: cosine, l2 or inner_product
    # A durable tier's name (a directory, a server's URL and collection), recorded beside
    # the embedder: the same tier found empty later lost its data and is refilled at
    # setup. None for a tier that forgets by design (``:memory:``) or one passed in whole.
    identity: str | None = None

    def use_distance(self, distance_type: str | None) -> None:
        """Score as LangGraph's ``distance_type`` says (before ``setup``; a
        collection or shard keeps the metric it was created with). A
        rotation keeps dot products and lengths, so every metric survives
        sealing."""
        name = distance_type or "cosine"
        if name not in DISTANCES:
            raise ValueError("distance_type must be cosine, l2 or inner_product")
        self.distance = name

    def use_keyring(self, keyring: KeyRing) -> None:
        """Seal with this ring's rotations (the store calls it). Sharing one
        index between stores of different rings would mix rotations: refused."""
        seal = VectorSeal.from_keyring(keyring)
        if self.seal is not None:
            if not self.seal.same_key(seal):
                raise ValueError("this vector index is already sealed under another key ring")
            return
        self.seal = seal

    def _seal(self) -> VectorSeal:
        if self.seal is None:
            raise SetupRequired("the vector index has no key: pass it to a store, or call use_keyring()")
        return self.seal

    def _sealed(self, points: Sequence[VectorPoint]) -> list[VectorPoint]:
        """Points with their vectors rotated by their tenant's rotation (one
        batch per tenant) and the seal version in their payload."""
        seal = self._seal()
        by_tenant: dict[str, list[int]] = {}
        for i, p in enumerate(points):
            by_tenant.setdefault(str(p.payload.get("t", "")), []).append(i)
        out = list(points)
        for tenant, idx in by_tenant.items():
            turned = seal.apply(tenant, [points[i].vector for i in idx]).tolist()
            for i, v in zip(idx, turned, strict=False):
                out[i] = VectorPoint(points[i].id, v, {**points[i].payload, SEAL_FIELD: SEAL_VERSION})
        return out

    def _plan(self, vector: Sequence[float], query: VectorQuery, tenants: Sequence[str]) -> Plan:
        """One (rotated query, single-tenant filter) per tenant."""
        seal = self._seal()
        return [(seal.apply(t, vector)[0].tolist(), replace(query, tenants=(t,))) for t in tenants]

    def _merge(self, results: Sequence[Sequence[tuple[str, float]]], limit: int) -> list[tuple[str, float]]:
        """Per-tenant top-``limit`` lists into the overall top ``limit``: the
        best ``limit`` of a union are among the best ``limit`` of each part.
        An L2 distance is reported negated, as PostgresStore reports it (a
        higher score is always nearer)."""
        hits = [h for r in results for h in r]
        if self.distance == "l2":
            hits = [(ref, -score) for ref, score in hits]
        hits.sort(key=lambda h: -h[1])
        return hits[:limit]

    # -- sealed operations -----------------------------------------------------

    def setup(self, dims: int) -> None:
        self._create(dims)
        self.seal_legacy()

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        if points:
            self._write(self._sealed(points))

    def search(self, vector: Sequence[float], query: VectorQuery, limit: int) -> list[tuple[str, float]]:
        tenants = self._holding(query.tenants) if query.tenants is not None else self._tenants(query)
        if not tenants:
            return []
        return self._merge(self._query(self._plan(vector, query, tenants), limit), limit)

    def seal_legacy(self, batch: int = 256) -> int:
        """Seal the vectors an earlier version stored plain (no ``vk``):
        rotate them where they are, as update-only writes conditioned on
        being still unsealed, so a point deleted meanwhile is not brought
        back and a newer write is not overwritten. Idempotent; returns how
        many were sealed. Until it runs they are not searched."""
        done, offset = 0, None
        while True:
            points, offset = self._unsealed(batch, offset)
            if points:
                self._reseal(self._sealed(points))
                done += len(points)
            if offset is None:
                break
        if done:
            log.info("sealed %d vectors stored before vector sealing", done)
        return done

    def unsealed_count(self) -> int:
        """How many stored vectors are still plain (0 after setup())."""
        raise NotImplementedError

    # -- back-end primitives ---------------------------------------------------

    def _create(self, dims: int) -> None:
        raise NotImplementedError

    def _write(self, points: Sequence[VectorPoint]) -> None:
        raise NotImplementedError

    def _query(self, plan: Plan, limit: int) -> list[list[tuple[str, float]]]:
        raise NotImplementedError

    def _tenants(self, query: VectorQuery) -> list[str]:
        """The tenants with points a query may see (for unconfined searches)."""
        raise NotImplementedError

    def _holding(self, tenants: Sequence[str]) -> Sequence[str]:
        """Those of ``tenants`` that may hold points (no query is rotated
        for a tenant known to have none)."""
        return tenants

    def _unsealed(self, limit: int, offset: Any) -> tuple[list[VectorPoint], Any]:
        """A page of plain points (vector and payload), and the next offset."""
        raise NotImplementedError

    def _reseal(self, points: Sequence[VectorPoint]) -> None:
        raise NotImplementedError

    def delete_refs(self, refs: Sequence[str], tenants: Sequence[str] | None = None) -> None:
        """Delete memories' vectors (``tenants``: where they live, if known)."""
        raise NotImplementedError

    def delete_tenant(self, tenant: str, count: int | None = None) -> int:
        """Erase a tenant's vectors; returns how many there were (``count``
        when the caller just counted them: a count scans in some back ends)."""
        raise NotImplementedError

    def listed(self, tenant: str) -> list[str] | None:
        """A tenant's point ids where the back end's filters scan every
        point (an erasure then scans once and deletes by id, :meth:`delete_ids`);
        None where the back end counts and deletes a tenant's points itself."""
        return None

    def delete_ids(self, tenant: str, ids: Sequence[str]) -> None:
        """Erase the points :meth:`listed` returned for ``tenant``."""
        raise NotImplementedError

    def count(self, tenant: str | None = None) -> int:
        raise NotImplementedError

    def is_empty(self) -> bool:
        """Whether the tier holds no vector at all (a lost volume, a new
        server): setup then refills it from PostgreSQL."""
        return self.count() == 0

    def refs(self, limit: int, offset: Any) -> tuple[list[tuple[str, str]], Any]:
        """A page of the stored points' (memory ref, tenant) and the offset
        of the next page (None after the last), for the orphan sweep."""
        raise NotImplementedError

    def reset(self, dims: int) -> None:
        """Drop every vector and start over at ``dims`` (the store's embedder
        changed size; it re-embeds every memory next)."""
        raise NotImplementedError

    def close(self) -> None: ...

    # Async twins: back ends without native async run the sync call on a
    # worker thread.
    async def asetup(self, dims: int) -> None:
        await asyncio.to_thread(self.setup, dims)

    async def areset(self, dims: int) -> None:
        await asyncio.to_thread(self.reset, dims)

    async def aupsert(self, points: Sequence[VectorPoint]) -> None:
        await asyncio.to_thread(self.upsert, points)

    async def adelete_refs(self, refs: Sequence[str], tenants: Sequence[str] | None = None) -> None:
        await asyncio.to_thread(self.delete_refs, refs, tenants)

    async def adelete_tenant(self, tenant: str, count: int | None = None) -> int:
        args = (tenant,) if count is None else (tenant, count)
        return await asyncio.to_thread(self.delete_tenant, *args)

    async def asearch(
        self, vector: Sequence[float], query: VectorQuery, limit: int
    ) -> list[tuple[str, float]]:
        return await asyncio.to_thread(self.search, vector, query, limit)

    async def alisted(self, tenant: str) -> list[str] | None:
        return await asyncio.to_thread(self.listed, tenant)

    async def adelete_ids(self, tenant: str, ids: Sequence[str]) -> None:
        await asyncio.to_thread(self.delete_ids, tenant, ids)

    async def acount(self, tenant: str | None = None) -> int:
        return await asyncio.to_thread(self.count, tenant)

    async def ais_empty(self) -> bool:
        return await asyncio.to_thread(self.is_empty)

    async def arefs(self, limit: int, offset: Any) -> tuple[list[tuple[str, str]], Any]:
        return await asyncio.to_thread(self.refs, limit, offset)

    async def aclose(self) -> None:
        self.close()


# -- qdrant-client ---------------------------------------------------------


def _client_filter(
    query: VectorQuery | None = None, *, refs: Sequence[str] | None = None, tenant: str | None = None
):
    from qdrant_client import models as m  # noqa: PLC0415

    must: list[Any] = []
    if refs is not None:
        must.append(m.FieldCondition(key="ref", match=m.MatchAny(any=list(refs))))
    if tenant is not None:
        must.append(m.FieldCondition(key="t", match=m.MatchValue(value=tenant)))
    if query is not None:
        must.append(m.FieldCondition(key=SEAL_FIELD, match=m.MatchValue(value=SEAL_VERSION)))
        must.append(m.FieldCondition(key="lv", range=m.Range(lte=query.level)))
        must.append(m.FieldCondition(key="exp", range=m.Range(gt=query.now)))
        if query.prefix:
            must.append(m.FieldCondition(key="nsp", match=m.MatchValue(value=query.prefix)))
        if query.tenants is not None:
            must.append(m.FieldCondition(key="t", match=m.MatchAny(any=list(query.tenants))))
    return m.Filter(must=must)


def _client_unsealed():
    from qdrant_client import models as m  # noqa: PLC0415

    return m.Filter(must=[m.IsEmptyCondition(is_empty=m.PayloadField(key=SEAL_FIELD))])


def _collection_args(dims: int, distance: str = "cosine"):
    from qdrant_client import models as m  # noqa: PLC0415

    metric = getattr(m.Distance, DISTANCES[distance][0])
    return {"vectors_config": m.VectorParams(size=dims, distance=metric)}


def _index_schema(field: str):
    from qdrant_client import models as m  # noqa: PLC0415

    if field in INTEGER_FIELDS:
        return m.PayloadSchemaType.INTEGER
    if field in FLOAT_FIELDS:
        return m.PayloadSchemaType.FLOAT
    if field == "t":  # the tenant: a Qdrant server (1.11+) keeps each tenant's points together, so
        # a confined search and a user's erasure touch only theirs (local mode ignores indexes)
        return m.KeywordIndexParams(type=m.KeywordIndexType.KEYWORD, is_tenant=True)
    return m.PayloadSchemaType.KEYWORD


def _points(points: Sequence[VectorPoint]):
    from qdrant_client import models as m  # noqa: PLC0415

    return [m.PointStruct(id=p.id, vector=list(p.vector), payload=p.payload) for p in points]


def _requests(plan: Plan, limit: int):
    from qdrant_client import models as m  # noqa: PLC0415

    return [
        m.QueryRequest(query=v, filter=_client_filter(q), limit=limit, with_payload=["ref"]) for v, q in plan
    ]


def _hits(responses: Any) -> list[list[tuple[str, float]]]:
    return [[(p.payload["ref"], p.score) for p in r.points] for r in responses]


def _records(records: Any) -> list[VectorPoint]:
    return [VectorPoint(str(r.id), list(r.vector), dict(r.payload or {})) for r in records]


def _reseal_args(points: Sequence[VectorPoint]) -> dict[str, Any]:
    from qdrant_client import models as m  # noqa: PLC0415

    return {
        "points": _points(points),
        "update_mode": m.UpdateMode.UPDATE_ONLY,
        "update_filter": _client_unsealed(),
        "wait": True,
    }


_FACET_START = 1024
_LIST_PAGE = 10_000  # ids per page when an erasure lists a tenant's points, and per delete


def _listing(collection: str, tenant: str, offset: Any) -> dict[str, Any]:
    """One page of a tenant's point ids (a scroll's arguments)."""
    return {"collection_name": collection, "scroll_filter": _client_filter(tenant=tenant), "limit": _LIST_PAGE,
            "offset": offset, "with_payload": False, "with_vectors": False}


def _id_chunks(ids: Sequence[str]):
    from qdrant_client import models as m  # noqa: PLC0415

    return [m.PointIdsList(points=list(ids[i : i + _LIST_PAGE])) for i in range(0, len(ids), _LIST_PAGE)]


def _ref_pairs(records: Any) -> list[tuple[str, str]]:
    return [(str(r.payload["ref"]), _tenant(r.payload.get("t", ""))) for r in records if r.payload and "ref" in r.payload]


def _server_identity(url: str) -> str:
    """A Qdrant server's name for the tier record: its URL without credentials."""
    from urllib.parse import urlsplit  # noqa: PLC0415

    parts = urlsplit(url)
    host = parts.hostname or url
    return f"qdrant:{parts.scheme}://{host}:{parts.port or ''}{parts.path.rstrip('/')}"


def _tenant(value: Any) -> str:
    """A facet value back to the payload's tenant: 32 hex digits (or "" for
    shared). qdrant-client's local mode returns such strings as UUIDs."""
    return str(value).replace("-", "")


class QdrantClientIndex(VectorIndex):
    """Vectors in a Qdrant server, cluster or ``:memory:`` local mode."""

    def __init__(self, client: Any, collection: str = COLLECTION, identity: str | None = None) -> None:
        self.client = client
        self.collection = collection
        self.dims = 0
        self.identity = f"{identity}#{collection}" if identity else None

    @classmethod
    def from_location(cls, location: str, **kwargs: Any) -> QdrantClientIndex:
        from qdrant_client import QdrantClient  # noqa: PLC0415

        if location == ":memory:":
            return cls(QdrantClient(location=location, **kwargs))
        return cls(QdrantClient(url=location, **kwargs), identity=_server_identity(location))

    def _create(self, dims: int) -> None:
        self.dims = dims
        created = not self.client.collection_exists(self.collection)
        if created:
            self.client.create_collection(self.collection, **_collection_args(dims, self.distance))
        with warnings.catch_warnings():  # local mode has no payload indexes; servers do
            warnings.simplefilter("ignore", UserWarning)
            # an older collection gets the seal field's index
            for f in (*KEYWORD_FIELDS, *INTEGER_FIELDS, *FLOAT_FIELDS) if created else (SEAL_FIELD,):
                self.client.create_payload_index(self.collection, field_name=f, field_schema=_index_schema(f))

    def _write(self, points: Sequence[VectorPoint]) -> None:
        self.client.upsert(self.collection, points=_points(points), wait=True)

    def _query(self, plan: Plan, limit: int) -> list[list[tuple[str, float]]]:
        return _hits(self.client.query_batch_points(self.collection, requests=_requests(plan, limit)))

    def _tenants(self, query: VectorQuery) -> list[str]:
        limit = _FACET_START
        while True:
            res = self.client.facet(
                self.collection, key="t", facet_filter=_client_filter(query), limit=limit, exact=True
            )
            if len(res.hits) < limit:
                return [_tenant(h.value) for h in res.hits]
            limit *= 4

    def _unsealed(self, limit: int, offset: Any) -> tuple[list[VectorPoint], Any]:
        records, nxt = self.client.scroll(
            self.collection,
            scroll_filter=_client_unsealed(),
            limit=limit,
            offset=offset,
            with_payload=True,
            with_vectors=True,
        )
        return _records(records), nxt

    def _reseal(self, points: Sequence[VectorPoint]) -> None:
        self.client.upsert(self.collection, **_reseal_args(points))

    def unsealed_count(self) -> int:
        return self.client.count(self.collection, count_filter=_client_unsealed(), exact=True).count

    def delete_refs(self, refs: Sequence[str], tenants: Sequence[str] | None = None) -> None:
        from qdrant_client import models as m  # noqa: PLC0415

        if refs:
            self.client.delete(
                self.collection, points_selector=m.FilterSelector(filter=_client_filter(refs=refs)), wait=True
            )

    def delete_tenant(self, tenant: str, count: int | None = None) -> int:
        from qdrant_client import models as m  # noqa: PLC0415

        n = self.count(tenant) if count is None else count
        self.client.delete(
            self.collection, points_selector=m.FilterSelector(filter=_client_filter(tenant=tenant)), wait=True
        )
        if self.seal is not None:
            self.seal.forget(tenant)
        return n

    def listed(self, tenant: str) -> list[str]:
        # local mode scans every point for a count and again for a delete by
        # filter; listing the ids scans once, and deleting by id is a lookup
        ids: list[str] = []
        offset = None
        while True:
            records, offset = self.client.scroll(**_listing(self.collection, tenant, offset))
            ids += [str(r.id) for r in records]
            if offset is None:
                return ids

    def delete_ids(self, tenant: str, ids: Sequence[str]) -> None:
        for chunk in _id_chunks(ids):
            self.client.delete(self.collection, points_selector=chunk, wait=True)
        if self.seal is not None:
            self.seal.forget(tenant)

    def count(self, tenant: str | None = None) -> int:
        flt = _client_filter(tenant=tenant) if tenant is not None else None
        return self.client.count(self.collection, count_filter=flt, exact=True).count

    def is_empty(self) -> bool:
        return not self.client.collection_exists(self.collection) or self.count() == 0

    def refs(self, limit: int, offset: Any) -> tuple[list[tuple[str, str]], Any]:
        records, nxt = self.client.scroll(
            self.collection, limit=limit, offset=offset, with_payload=["ref", "t"], with_vectors=False
        )
        return _ref_pairs(records), nxt

    def reset(self, dims: int) -> None:
        self.client.delete_collection(self.collection)
        self._create(dims)

    def close(self) -> None:
        self.client.close()


class AsyncQdrantClientIndex(VectorIndex):
    """The async twin of :class:`QdrantClientIndex` (``AsyncQdrantClient``)."""

    def __init__(self, client: Any, collection: str = COLLECTION, identity: str | None = None) -> None:
        self.client = client
        self.collection = collection
        self.dims = 0
        self.identity = f"{identity}#{collection}" if identity else None

    @classmethod
    def from_location(cls, location: str, **kwargs: Any) -> AsyncQdrantClientIndex:
        from qdrant_client import AsyncQdrantClient  # noqa: PLC0415

        if location == ":memory:":
            return cls(AsyncQdrantClient(location=location, **kwargs))
        return cls(AsyncQdrantClient(url=location, **kwargs), identity=_server_identity(location))

    async def asetup(self, dims: int) -> None:
        self.dims = dims
        created = not await self.client.collection_exists(self.collection)
        if created:
            await self.client.create_collection(self.collection, **_collection_args(dims, self.distance))
        with warnings.catch_warnings():  # local mode has no payload indexes; servers do
            warnings.simplefilter("ignore", UserWarning)
            for f in (*KEYWORD_FIELDS, *INTEGER_FIELDS, *FLOAT_FIELDS) if created else (SEAL_FIELD,):
                await self.client.create_payload_index(
                    self.collection, field_name=f, field_schema=_index_schema(f)
                )
        await self.aseal_legacy()

    async def areset(self, dims: int) -> None:
        await self.client.delete_collection(self.collection)
        await self.asetup(dims)

    async def aupsert(self, points: Sequence[VectorPoint]) -> None:
        if points:
            await self.client.upsert(self.collection, points=_points(self._sealed(points)), wait=True)

    async def asearch(
        self, vector: Sequence[float], query: VectorQuery, limit: int
    ) -> list[tuple[str, float]]:
        tenants = query.tenants if query.tenants is not None else await self._atenants(query)
        if not tenants:
            return []
        requests = _requests(self._plan(vector, query, tenants), limit)
        return self._merge(
            _hits(await self.client.query_batch_points(self.collection, requests=requests)), limit
        )

    async def _atenants(self, query: VectorQuery) -> list[str]:
        limit = _FACET_START
        while True:
            res = await self.client.facet(
                self.collection, key="t", facet_filter=_client_filter(query), limit=limit, exact=True
            )
            if len(res.hits) < limit:
                return [_tenant(h.value) for h in res.hits]
            limit *= 4

    async def aseal_legacy(self, batch: int = 256) -> int:
        """Async :meth:`VectorIndex.seal_legacy`."""
        done, offset = 0, None
        while True:
            records, offset = await self.client.scroll(
                self.collection,
                scroll_filter=_client_unsealed(),
                limit=batch,
                offset=offset,
                with_payload=True,
                with_vectors=True,
            )
            if records:
                await self.client.upsert(self.collection, **_reseal_args(self._sealed(_records(records))))
                done += len(records)
            if offset is None:
                break
        if done:
            log.info("sealed %d vectors stored before vector sealing", done)
        return done

    async def aunsealed_count(self) -> int:
        return (await self.client.count(self.collection, count_filter=_client_unsealed(), exact=True)).count

    async def adelete_refs(self, refs: Sequence[str], tenants: Sequence[str] | None = None) -> None:
        from qdrant_client import models as m  # noqa: PLC0415

        if refs:
            await self.client.delete(
                self.collection, points_selector=m.FilterSelector(filter=_client_filter(refs=refs)), wait=True
            )

    async def adelete_tenant(self, tenant: str, count: int | None = None) -> int:
        from qdrant_client import models as m  # noqa: PLC0415

        n = await self.acount(tenant) if count is None else count
        await self.client.delete(
            self.collection, points_selector=m.FilterSelector(filter=_client_filter(tenant=tenant)), wait=True
        )
        if self.seal is not None:
            self.seal.forget(tenant)
        return n

    async def alisted(self, tenant: str) -> list[str]:
        """Async :meth:`QdrantClientIndex.listed`."""
        ids: list[str] = []
        offset = None
        while True:
            records, offset = await self.client.scroll(**_listing(self.collection, tenant, offset))
            ids += [str(r.id) for r in records]
            if offset is None:
                return ids

    async def adelete_ids(self, tenant: str, ids: Sequence[str]) -> None:
        for chunk in _id_chunks(ids):
            await self.client.delete(self.collection, points_selector=chunk, wait=True)
        if self.seal is not None:
            self.seal.forget(tenant)

    async def acount(self, tenant: str | None = None) -> int:
        flt = _client_filter(tenant=tenant) if tenant is not None else None
        return (await self.client.count(self.collection, count_filter=flt, exact=True)).count

    async def ais_empty(self) -> bool:
        return not await self.client.collection_exists(self.collection) or await self.acount() == 0

    async def arefs(self, limit: int, offset: Any) -> tuple[list[tuple[str, str]], Any]:
        records, nxt = await self.client.scroll(
            self.collection, limit=limit, offset=offset, with_payload=["ref", "t"], with_vectors=False
        )
        return _ref_pairs(records), nxt

    async def aclose(self) -> None:
        await self.client.close()


# -- qdrant-edge -------------------------------------------------------------


class QdrantEdgeIndex(VectorIndex):
    """Vectors in Qdrant's embedded engine: one shard directory per tenant
    (``t-<tenant hash>``, and ``t-_`` for shared memories) under ``path``.

    One shard per tenant makes erasure a directory removal: forgetting a
    user touches no one else's vectors (a shared shard had to be rewritten,
    seconds at 100k points), and the scan that proves their vectors gone
    looks for a directory that is not there. A confined search opens at
    most two shards, its user's and the shared one.

    Tuned for erasure and for exact filtered recall at the sizes one machine
    serves. Every write goes to the shard's write-ahead log, so a killed
    process loses no vector. A flush (segments to disk, the log trimmed)
    costs 5-20 ms with the GIL held, stalling every thread: a background
    thread flushes one shard at a time once it holds ``flush_writes``
    unflushed writes or its oldest is ``flush_interval`` seconds old (this
    bounds the log a restart replays), and closing or evicting a shard
    flushes it. The log keeps a deleted memory's sealed vector and hashed payload until the
    log recycles (as PostgreSQL's WAL keeps a deleted row's ciphertext);
    erasing a user removes their shard, log and all. Plain segments are
    searched exactly under the payload indexes (recall 1.0, no HNSW
    build). At most ``max_open`` shards stay open (least recently used
    closed first). The engine holds the GIL during calls; queries take
    about a millisecond. A single-shard directory
    from an earlier release is split into tenant shards by ``setup()``.
    """

    def __init__(
        self,
        path: str,
        collection: str = COLLECTION,
        flush_interval: float = 300.0,
        max_open: int = 256,
        flush_writes: int = 512,
    ) -> None:
        self.path = str(path)
        self.identity = "edge:" + os.path.realpath(self.path)
        self.collection = collection
        self.dims = 0
        self.flush_interval = flush_interval
        self.flush_writes = flush_writes
        self.max_open = max_open
        self._shards: OrderedDict[str, Any] = OrderedDict()  # tenant -> open EdgeShard
        # tenant -> [monotonic time of its oldest unflushed write, unflushed writes]
        self._dirty_shards: dict[str, list[float]] = {}
        self._ready = False
        self._lock = threading.RLock()
        self._closing = threading.Event()
        self._flusher: threading.Thread | None = None

    # -- shards ------------------------------------------------------------------

    def _dir(self, tenant: str) -> str:
        import os  # noqa: PLC0415

        return os.path.join(self.path, f"t-{tenant or '_'}")

    def _dirs(self, tenant: str) -> tuple[str, str, str]:
        """The tenant's shard directory, where a conversion writes the new
        shard, and where it sets the old one aside before removing it."""
        return self._dir(tenant), self._dir(tenant) + ".new", self._dir(tenant) + ".old"

    def _tenant_of_dir(self, name: str) -> str | None:
        """The tenant a shard directory (or one of a conversion, ``.new``
        or ``.old``) belongs to."""
        if not name.startswith("t-"):
            return None
        name = name.removesuffix(".new").removesuffix(".old")
        return "" if name == "t-_" else name[2:]

    def _config(self, logged: bool = True) -> Any:
        import qdrant_edge as qe  # noqa: PLC0415

        return qe.EdgeConfig(
            vectors=qe.EdgeVectorParams(size=self.dims, distance=getattr(qe.Distance, DISTANCES[self.distance][1])),
            # indexing_threshold=0: plain segments, exact search, and a
            # vacuum that never waits on an HNSW build
            optimizers=qe.EdgeOptimizersConfig(
                deleted_threshold=0.0, vacuum_min_vector_number=0, indexing_threshold=0
            ),
            # a search pool per shard cost 8 threads a shard and made each
            # query of a hundred points 5x slower than searching in place
            max_search_threads=1,
            # durable writes without a flush per write; only sealed vectors
            # and hashed payloads ever reach it (_split_legacy seals first)
            wal_enabled=logged,
        )

    def _shard(self, tenant: str, create: bool) -> Any:
        """The tenant's shard, opened (or created) on demand; None if it has
        none and ``create`` is false. The lock is held by the caller."""
        import os  # noqa: PLC0415

        import qdrant_edge as qe  # noqa: PLC0415

        if not self._ready:
            raise SetupRequired("the store's vector index is not set up: call store.setup() once first")
        shard = self._shards.get(tenant)
        if shard is not None:
            self._shards.move_to_end(tenant)
            return shard
        where, new, aside = self._dirs(tenant)
        self._settle(where, new, aside)
        segments = os.path.join(where, "segments")
        if os.path.isdir(segments) and os.listdir(segments):
            logged = self._logged(where)
            shard = qe.EdgeShard.load(where, self._config(logged))
            if not logged:
                shard = self._convert(shard, where, new, aside)
        elif create:
            shard = self._new_shard(where)
        else:
            return None
        self._shards[tenant] = shard
        while len(self._shards) > self.max_open:
            old, victim = self._shards.popitem(last=False)
            victim.flush()
            victim.close()
            self._dirty_shards.pop(old, None)
        return shard

    def _new_shard(self, where: str) -> Any:
        import os  # noqa: PLC0415

        import qdrant_edge as qe  # noqa: PLC0415

        os.makedirs(where, mode=0o700, exist_ok=True)
        shard = qe.EdgeShard.create(where, self._config())
        U = qe.UpdateOperation
        shard.update(U.create_field_index("ref", qe.PayloadSchemaType.Keyword))
        shard.update(U.create_field_index("nsp", qe.PayloadSchemaType.Keyword))
        shard.update(U.create_field_index("lv", qe.IntegerIndexParams(lookup=True, range=True)))
        shard.update(U.create_field_index(SEAL_FIELD, qe.IntegerIndexParams(lookup=True, range=False)))
        shard.flush()
        return shard

    @staticmethod
    def _logged(where: str) -> bool:
        """Whether the shard at ``where`` keeps a write-ahead log (earlier
        releases made shards without one, and the engine cannot add one)."""
        import json  # noqa: PLC0415
        import os  # noqa: PLC0415

        with open(os.path.join(where, "edge_config.json"), encoding="utf-8") as f:
            return bool(json.load(f).get("wal_enabled", True))

    def _convert(self, unlogged: Any, where: str, new: str, old: str) -> Any:
        """Rewrite a shard made without a log into one with it, its points
        copied as they are (sealed). The new shard is written and flushed
        beside the old one before either is renamed, so ``_settle`` can
        finish or undo an interrupted conversion from what is on disk."""
        import shutil  # noqa: PLC0415

        import qdrant_edge as qe  # noqa: PLC0415

        points, offset = [], None
        while True:
            records, offset = unlogged.scroll(
                qe.ScrollRequest(offset=offset, limit=1024, with_payload=True, with_vector=True)
            )
            points += [qe.Point(r.id, list(r.vector), dict(r.payload or {})) for r in records]
            if offset is None:
                break
        unlogged.close()
        shutil.rmtree(new, ignore_errors=True)
        shard = self._new_shard(new)
        for i in range(0, len(points), 1024):
            shard.update(qe.UpdateOperation.upsert_points(points[i : i + 1024]))
        shard.flush()
        shard.close()
        self._swap(where, new, old)
        return qe.EdgeShard.load(where, self._config())

    @staticmethod
    def _swap(where: str, new: str, old: str) -> None:
        """Put a complete ``new`` shard in the place of ``where``."""
        import os  # noqa: PLC0415
        import shutil  # noqa: PLC0415

        os.rename(where, old)
        os.rename(new, where)
        shutil.rmtree(old)

    def _settle(self, where: str, new: str, old: str) -> None:
        """Finish or undo a conversion a crash interrupted. A ``new`` beside
        ``where`` may be partial: dropped, and the old shard converted
        again. A ``new`` without ``where`` is complete (it is renamed only
        after its flush): it takes the place. An ``old`` beside ``where``
        is a replaced shard not yet removed."""
        import os  # noqa: PLC0415
        import shutil  # noqa: PLC0415

        if os.path.isdir(new):
            if os.path.isdir(where):
                shutil.rmtree(new)
            else:
                os.rename(new, where)
        if os.path.isdir(old) and os.path.isdir(where):
            shutil.rmtree(old)

    def _tenant_dirs(self) -> list[str]:
        import os  # noqa: PLC0415

        if not os.path.isdir(self.path):
            return []
        return sorted({t for name in os.listdir(self.path) if (t := self._tenant_of_dir(name)) is not None})

    def setup(self, dims: int) -> None:
        with self._lock:  # erasure waits for the legacy passes: nothing deleted comes back
            self._create(dims)
            if self.seal_legacy():
                self.flush()

    def _create(self, dims: int) -> None:
        import os  # noqa: PLC0415

        with self._lock:
            self.dims = dims
            if self._ready:
                return
            os.makedirs(self.path, mode=0o700, exist_ok=True)
            self._ready = True
            self._start_flusher()
            self._split_legacy()

    def _split_legacy(self) -> None:
        """Move the points of an earlier release's single shard (``path``
        itself) into tenant shards, then remove it."""
        import os  # noqa: PLC0415
        import shutil  # noqa: PLC0415

        import qdrant_edge as qe  # noqa: PLC0415

        segments = os.path.join(self.path, "segments")
        if not os.path.isdir(segments):
            return
        legacy = qe.EdgeShard.load(self.path)
        offset = None
        moved = 0
        while True:
            records, offset = legacy.scroll(
                qe.ScrollRequest(offset=offset, limit=1024, with_payload=True, with_vector=True)
            )
            points = _records(records)
            if self.seal is not None:  # plain legacy points are sealed before any log sees them
                plain = [i for i, p in enumerate(points) if SEAL_FIELD not in p.payload]
                for i, p in zip(plain, self._sealed([points[i] for i in plain]), strict=True):
                    points[i] = p
            self._write_raw(points)
            moved += len(points)
            if offset is None:
                break
        self.flush()
        legacy.close()
        for name in os.listdir(self.path):
            if self._tenant_of_dir(name) is None:
                full = os.path.join(self.path, name)
                shutil.rmtree(full) if os.path.isdir(full) else os.remove(full)
        log.info("split %d vectors of a single-shard index into tenant shards", moved)

    # -- primitives ----------------------------------------------------------------

    @staticmethod
    def _filter(query: VectorQuery | None = None, *, refs: Sequence[str] | None = None) -> Any:
        import qdrant_edge as qe  # noqa: PLC0415

        must: list[Any] = []
        if refs is not None:
            must.append(qe.FieldCondition(key="ref", match=qe.MatchAny(list(refs))))
        if query is not None:
            must.append(qe.FieldCondition(key=SEAL_FIELD, match=qe.MatchValue(SEAL_VERSION)))
            must.append(qe.FieldCondition(key="lv", range=qe.RangeFloat(lte=query.level)))
            if query.prefix:
                must.append(qe.FieldCondition(key="nsp", match=qe.MatchValue(query.prefix)))
        return qe.Filter(must=must)

    @staticmethod
    def _unsealed_filter() -> Any:
        import qdrant_edge as qe  # noqa: PLC0415

        return qe.Filter(must=[qe.IsEmptyCondition(SEAL_FIELD)])

    def _write(self, points: Sequence[VectorPoint]) -> None:
        self._write_raw(points)

    def _write_raw(self, points: Sequence[VectorPoint], condition: Any = None) -> None:
        import qdrant_edge as qe  # noqa: PLC0415

        by_tenant: dict[str, list[VectorPoint]] = {}
        for p in points:
            by_tenant.setdefault(str(p.payload.get("t", "")), []).append(p)
        with self._lock:
            for tenant, group in by_tenant.items():
                shard = self._shard(tenant, create=True)
                pts = [qe.Point(p.id, list(p.vector), p.payload) for p in group]
                if condition is None:
                    shard.update(qe.UpdateOperation.upsert_points(pts))
                else:
                    shard.update(
                        qe.UpdateOperation.upsert_points(pts, condition=condition, update_mode=qe.UpdateMode.UpdateOnly)
                    )
                self._dirty(tenant)

    def _query(self, plan: Plan, limit: int) -> list[list[tuple[str, float]]]:
        import qdrant_edge as qe  # noqa: PLC0415

        out: list[list[tuple[str, float]]] = []
        with self._lock:
            for vector, q in plan:
                tenant = (q.tenants or ("",))[0]
                shard = self._shard(tenant, create=False)
                if shard is None:
                    out.append([])
                    continue
                request = qe.QueryRequest(
                    limit=limit,
                    query=qe.Query.Nearest(vector),
                    filter=self._filter(q),
                    with_payload=True,
                    with_vector=False,
                    params=qe.SearchParams(exact=True),
                )
                out.append([(p.payload["ref"], p.score) for p in shard.query(request)])
        return out

    def _tenants(self, query: VectorQuery) -> list[str]:
        return self._tenant_dirs()

    def _holding(self, tenants: Sequence[str]) -> Sequence[str]:
        import os  # noqa: PLC0415

        return [t for t in tenants if t in self._shards or any(map(os.path.isdir, self._dirs(t)))]

    def _reseal(self, points: Sequence[VectorPoint]) -> None:
        self._write_raw(points, condition=self._unsealed_filter())

    def _scroll(self, limit: int, offset: Any, **request: Any) -> tuple[list[Any], str, Any]:
        """A page of points, shard after shard: the offset is (the shard's place in
        the tenant list, the offset within it). Returns the points, their shard's
        tenant and the next offset (None after the last shard)."""
        import qdrant_edge as qe  # noqa: PLC0415

        with self._lock:
            tenants = self._tenant_dirs()
            i, inner = offset if offset is not None else (0, None)
            while i < len(tenants):
                shard = self._shard(tenants[i], create=False)
                if shard is not None:
                    records, nxt = shard.scroll(qe.ScrollRequest(offset=inner, limit=limit, **request))
                    if records or nxt is not None:
                        return records, tenants[i], ((i, nxt) if nxt is not None else (i + 1, None))
                i, inner = i + 1, None
            return [], "", None

    def _unsealed(self, limit: int, offset: Any) -> tuple[list[VectorPoint], Any]:
        records, _, nxt = self._scroll(
            limit, offset, filter=self._unsealed_filter(), with_payload=True, with_vector=True
        )
        return _records(records), nxt

    def refs(self, limit: int, offset: Any) -> tuple[list[tuple[str, str]], Any]:
        records, tenant, nxt = self._scroll(limit, offset, with_payload=True, with_vector=False)
        return [(str(r.payload["ref"]), tenant) for r in records if r.payload and "ref" in r.payload], nxt

    def unsealed_count(self) -> int:
        import qdrant_edge as qe  # noqa: PLC0415

        with self._lock:
            total = 0
            for tenant in self._tenant_dirs():
                shard = self._shard(tenant, create=False)
                if shard is not None:
                    total += shard.count(qe.CountRequest(exact=True, filter=self._unsealed_filter()))
            return total

    def delete_refs(self, refs: Sequence[str], tenants: Sequence[str] | None = None) -> None:
        """Delete memories' vectors; ``tenants`` (their tenant hashes, "" for
        shared) names the shards to look in, else every shard."""
        import qdrant_edge as qe  # noqa: PLC0415

        if not refs:
            return
        with self._lock:
            for tenant in sorted(set(tenants)) if tenants is not None else self._tenant_dirs():
                shard = self._shard(tenant, create=False)
                if shard is not None:
                    shard.update(qe.UpdateOperation.delete_points_by_filter(self._filter(refs=refs)))
                    self._dirty(tenant)

    def delete_tenant(self, tenant: str, count: int | None = None) -> int:
        """Erase a tenant's vectors: its shard closed and its directory
        removed from disk."""
        import shutil  # noqa: PLC0415

        with self._lock:
            n = self.count(tenant) if count is None else count
            shard = self._shards.pop(tenant, None)
            if shard is not None:
                shard.close()
            self._dirty_shards.pop(tenant, None)
            for where in self._dirs(tenant):
                shutil.rmtree(where, ignore_errors=True)
        if self.seal is not None:
            self.seal.forget(tenant)
        return n

    def reset(self, dims: int) -> None:
        """Every tenant's shard removed; shards made from now on have ``dims``."""
        with self._lock:
            for tenant in [*self._tenant_dirs(), *self._shards]:
                self.delete_tenant(tenant, 0)
            self.dims = dims

    def _dirty(self, tenant: str) -> None:
        self._dirty_shards.setdefault(tenant, [time.monotonic(), 0])[1] += 1

    def _start_flusher(self) -> None:
        if self._flusher is not None:
            return

        def loop() -> None:
            # one shard per turn, the lock released between shards: a
            # burst of flushes would hold every caller for its whole length
            pause = min(1.0, self.flush_interval / 10)
            while not self._closing.wait(pause):
                old = time.monotonic() - self.flush_interval
                due = [t for t, (since, n) in list(self._dirty_shards.items()) if since <= old or n >= self.flush_writes]
                for tenant in due:
                    if self._closing.is_set():
                        return
                    self._flush_one(tenant)
                    self._closing.wait(0.005)

        self._flusher = threading.Thread(target=loop, name="trustmem-edge-flush", daemon=True)
        self._flusher.start()

    def _flush_one(self, tenant: str) -> None:
        with self._lock:
            if self._dirty_shards.pop(tenant, None) is not None and (shard := self._shards.get(tenant)) is not None:
                shard.flush()

    def flush(self) -> None:
        """Every open shard's writes into its segments now."""
        with self._lock:
            for tenant in list(self._dirty_shards):
                self._flush_one(tenant)

    def vacuum(self) -> None:
        """Rewrite segments that hold deleted points, so their vectors and
        payloads leave the disk."""
        with self._lock:
            for shard in self._shards.values():
                shard.optimize()
                shard.flush()

    def is_empty(self) -> bool:
        """No tenant's shard on disk or open (shards are removed when their
        tenant is erased), without opening any of them."""
        with self._lock:
            return not self._shards and not self._tenant_dirs()

    def count(self, tenant: str | None = None) -> int:
        import qdrant_edge as qe  # noqa: PLC0415

        with self._lock:
            tenants = [tenant] if tenant is not None else self._tenant_dirs()
            total = 0
            for t in tenants:
                shard = self._shard(t, create=False)
                if shard is not None:
                    total += shard.count(qe.CountRequest(exact=True))
            return total

    def close(self) -> None:
        self._closing.set()
        with self._lock:
            for shard in self._shards.values():
                shard.flush()
                shard.close()
            self._shards.clear()
            self._dirty_shards.clear()
            self._ready = False
