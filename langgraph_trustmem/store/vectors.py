"""The vector tier: one interface, two Qdrant back ends.

Points carry only what filtering needs — the item reference (a keyed hash),
the tenant hash, the level rank, the hashes of the namespace's prefixes and
the expiry time — never text. Level, tenant and namespace filters run inside
Qdrant, so a search never ranks what its reader may not see.

- :class:`QdrantClientIndex` / :class:`AsyncQdrantClientIndex`: a Qdrant
  server or cluster through ``qdrant-client`` (and its ``:memory:`` mode).
- :class:`QdrantEdgeIndex`: Qdrant's embedded engine (``qdrant-edge-py``),
  the fast in-process default.
"""

from __future__ import annotations

import asyncio
import threading
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

COLLECTION = "trustmem_memories"
KEYWORD_FIELDS = ("ref", "t", "nsp")
INTEGER_FIELDS = ("lv",)
FLOAT_FIELDS = ("exp",)

from langgraph_trustmem.errors import SetupRequired


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


class VectorIndex:
    """The interface both back ends implement (sync; async twins below)."""

    dims: int

    def setup(self, dims: int) -> None: ...
    def upsert(self, points: Sequence[VectorPoint]) -> None: ...
    def delete_refs(self, refs: Sequence[str]) -> None: ...
    def delete_tenant(self, tenant: str) -> int: ...
    def search(self, vector: Sequence[float], query: VectorQuery, limit: int) -> list[tuple[str, float]]: ...
    def count(self, tenant: str | None = None) -> int: ...
    def close(self) -> None: ...

    # Async twins: back ends without native async run the sync call on a
    # worker thread.
    async def asetup(self, dims: int) -> None:
        await asyncio.to_thread(self.setup, dims)

    async def aupsert(self, points: Sequence[VectorPoint]) -> None:
        await asyncio.to_thread(self.upsert, points)

    async def adelete_refs(self, refs: Sequence[str]) -> None:
        await asyncio.to_thread(self.delete_refs, refs)

    async def adelete_tenant(self, tenant: str) -> int:
        return await asyncio.to_thread(self.delete_tenant, tenant)

    async def asearch(
        self, vector: Sequence[float], query: VectorQuery, limit: int
    ) -> list[tuple[str, float]]:
        return await asyncio.to_thread(self.search, vector, query, limit)

    async def acount(self, tenant: str | None = None) -> int:
        return await asyncio.to_thread(self.count, tenant)

    async def aclose(self) -> None:
        self.close()


# -- qdrant-client ---------------------------------------------------------


def _client_filter(
    query: VectorQuery | None = None, *, refs: Sequence[str] | None = None, tenant: str | None = None
):
    from qdrant_client import models as m

    must: list[Any] = []
    if refs is not None:
        must.append(m.FieldCondition(key="ref", match=m.MatchAny(any=list(refs))))
    if tenant is not None:
        must.append(m.FieldCondition(key="t", match=m.MatchValue(value=tenant)))
    if query is not None:
        must.append(m.FieldCondition(key="lv", range=m.Range(lte=query.level)))
        must.append(m.FieldCondition(key="exp", range=m.Range(gt=query.now)))
        if query.prefix:
            must.append(m.FieldCondition(key="nsp", match=m.MatchValue(value=query.prefix)))
        if query.tenants is not None:
            must.append(m.FieldCondition(key="t", match=m.MatchAny(any=list(query.tenants))))
    return m.Filter(must=must)


def _collection_args(dims: int):
    from qdrant_client import models as m

    return {"vectors_config": m.VectorParams(size=dims, distance=m.Distance.COSINE)}


def _index_schema(field: str):
    from qdrant_client import models as m

    if field in INTEGER_FIELDS:
        return m.PayloadSchemaType.INTEGER
    if field in FLOAT_FIELDS:
        return m.PayloadSchemaType.FLOAT
    return m.PayloadSchemaType.KEYWORD


def _points(points: Sequence[VectorPoint]):
    from qdrant_client import models as m

    return [m.PointStruct(id=p.id, vector=list(p.vector), payload=p.payload) for p in points]


class QdrantClientIndex(VectorIndex):
    """Vectors in a Qdrant server, cluster or ``:memory:`` local mode."""

    def __init__(self, client: Any, collection: str = COLLECTION) -> None:
        self.client = client
        self.collection = collection
        self.dims = 0

    @classmethod
    def from_location(cls, location: str, **kwargs: Any) -> QdrantClientIndex:
        from qdrant_client import QdrantClient

        client = (
            QdrantClient(location=location, **kwargs)
            if location == ":memory:"
            else QdrantClient(url=location, **kwargs)
        )
        return cls(client)

    def setup(self, dims: int) -> None:
        self.dims = dims
        if not self.client.collection_exists(self.collection):
            self.client.create_collection(self.collection, **_collection_args(dims))
            with warnings.catch_warnings():  # local mode has no payload indexes; servers do
                warnings.simplefilter("ignore", UserWarning)
                for f in (*KEYWORD_FIELDS, *INTEGER_FIELDS, *FLOAT_FIELDS):
                    self.client.create_payload_index(
                        self.collection, field_name=f, field_schema=_index_schema(f)
                    )

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        if points:
            self.client.upsert(self.collection, points=_points(points), wait=True)

    def delete_refs(self, refs: Sequence[str]) -> None:
        from qdrant_client import models as m

        if refs:
            self.client.delete(
                self.collection, points_selector=m.FilterSelector(filter=_client_filter(refs=refs)), wait=True
            )

    def delete_tenant(self, tenant: str) -> int:
        from qdrant_client import models as m

        n = self.count(tenant)
        self.client.delete(
            self.collection, points_selector=m.FilterSelector(filter=_client_filter(tenant=tenant)), wait=True
        )
        return n

    def search(self, vector: Sequence[float], query: VectorQuery, limit: int) -> list[tuple[str, float]]:
        res = self.client.query_points(
            self.collection,
            query=list(vector),
            query_filter=_client_filter(query),
            limit=limit,
            with_payload=["ref"],
        )
        return [(p.payload["ref"], p.score) for p in res.points]

    def count(self, tenant: str | None = None) -> int:
        flt = _client_filter(tenant=tenant) if tenant is not None else None
        return self.client.count(self.collection, count_filter=flt, exact=True).count

    def close(self) -> None:
        self.client.close()


class AsyncQdrantClientIndex(VectorIndex):
    """The async twin of :class:`QdrantClientIndex` (``AsyncQdrantClient``)."""

    def __init__(self, client: Any, collection: str = COLLECTION) -> None:
        self.client = client
        self.collection = collection
        self.dims = 0

    @classmethod
    def from_location(cls, location: str, **kwargs: Any) -> AsyncQdrantClientIndex:
        from qdrant_client import AsyncQdrantClient

        if location == ":memory:":
            return cls(AsyncQdrantClient(location=location, **kwargs))
        return cls(AsyncQdrantClient(url=location, **kwargs))

    async def asetup(self, dims: int) -> None:
        self.dims = dims
        if not await self.client.collection_exists(self.collection):
            await self.client.create_collection(self.collection, **_collection_args(dims))
            with warnings.catch_warnings():  # local mode has no payload indexes; servers do
                warnings.simplefilter("ignore", UserWarning)
                for f in (*KEYWORD_FIELDS, *INTEGER_FIELDS, *FLOAT_FIELDS):
                    await self.client.create_payload_index(
                        self.collection, field_name=f, field_schema=_index_schema(f)
                    )

    async def aupsert(self, points: Sequence[VectorPoint]) -> None:
        if points:
            await self.client.upsert(self.collection, points=_points(points), wait=True)

    async def adelete_refs(self, refs: Sequence[str]) -> None:
        from qdrant_client import models as m

        if refs:
            await self.client.delete(
                self.collection, points_selector=m.FilterSelector(filter=_client_filter(refs=refs)), wait=True
            )

    async def adelete_tenant(self, tenant: str) -> int:
        from qdrant_client import models as m

        n = await self.acount(tenant)
        await self.client.delete(
            self.collection, points_selector=m.FilterSelector(filter=_client_filter(tenant=tenant)), wait=True
        )
        return n

    async def asearch(
        self, vector: Sequence[float], query: VectorQuery, limit: int
    ) -> list[tuple[str, float]]:
        res = await self.client.query_points(
            self.collection,
            query=list(vector),
            query_filter=_client_filter(query),
            limit=limit,
            with_payload=["ref"],
        )
        return [(p.payload["ref"], p.score) for p in res.points]

    async def acount(self, tenant: str | None = None) -> int:
        flt = _client_filter(tenant=tenant) if tenant is not None else None
        return (await self.client.count(self.collection, count_filter=flt, exact=True)).count

    async def aclose(self) -> None:
        await self.client.close()


# -- qdrant-edge -------------------------------------------------------------


class QdrantEdgeIndex(VectorIndex):
    """Vectors in Qdrant's embedded engine, one shard directory in process.

    Tuned for erasure and for exact filtered recall at the sizes one machine
    serves: no write-ahead log (it kept deleted payloads on disk), so writes
    reach disk by a flush at most ``flush_interval`` seconds later (a flush
    costs ~20 ms; a crash can lose that window of vectors, never a memory:
    PostgreSQL is the record); plain segments searched exactly under the
    payload indexes (recall 1.0, no HNSW build); and a vacuum after erasure
    that rewrites segments holding deleted points. The engine holds the GIL
    during calls; queries take about a millisecond.
    """

    def __init__(self, path: str, collection: str = COLLECTION, flush_interval: float = 1.0) -> None:
        self.path = str(path)
        self.collection = collection
        self.dims = 0
        self._shard: Any = None
        self.flush_interval = flush_interval
        self._lock = threading.RLock()
        self._dirty = threading.Event()
        self._closing = threading.Event()
        self._flusher: threading.Thread | None = None

    @property
    def shard(self) -> Any:
        if self._shard is None:
            raise SetupRequired("the store's vector index is not set up: call store.setup() once first")
        return self._shard

    def setup(self, dims: int) -> None:
        import os

        import qdrant_edge as qe

        self.dims = dims
        with self._lock:
            if self._shard is not None:
                return
            self._start_flusher()
            segments = os.path.join(self.path, "segments")
            if os.path.isdir(segments) and os.listdir(segments):
                self._shard = qe.EdgeShard.load(self.path)
                return
            os.makedirs(self.path, mode=0o700, exist_ok=True)
            config = qe.EdgeConfig(
                vectors=qe.EdgeVectorParams(size=dims, distance=qe.Distance.Cosine),
                # indexing_threshold=0: plain segments, exact search, and a
                # vacuum that never waits on an HNSW build
                optimizers=qe.EdgeOptimizersConfig(
                    deleted_threshold=0.0, vacuum_min_vector_number=0, indexing_threshold=0
                ),
                wal_enabled=False,
            )
            self._shard = qe.EdgeShard.create(self.path, config)
            U = qe.UpdateOperation
            self.shard.update(U.create_field_index("t", qe.KeywordIndexParams(is_tenant=True)))
            self.shard.update(U.create_field_index("ref", qe.PayloadSchemaType.Keyword))
            self.shard.update(U.create_field_index("nsp", qe.PayloadSchemaType.Keyword))
            self.shard.update(U.create_field_index("lv", qe.IntegerIndexParams(lookup=True, range=True)))
            self.shard.update(U.create_field_index("exp", qe.PayloadSchemaType.Float))
            self.shard.flush()

    @staticmethod
    def _filter(
        query: VectorQuery | None = None, *, refs: Sequence[str] | None = None, tenant: str | None = None
    ):
        import qdrant_edge as qe

        must: list[Any] = []
        if refs is not None:
            must.append(qe.FieldCondition(key="ref", match=qe.MatchAny(list(refs))))
        if tenant is not None:
            must.append(qe.FieldCondition(key="t", match=qe.MatchValue(tenant)))
        if query is not None:
            must.append(qe.FieldCondition(key="lv", range=qe.RangeFloat(lte=query.level)))
            must.append(qe.FieldCondition(key="exp", range=qe.RangeFloat(gt=query.now)))
            if query.prefix:
                must.append(qe.FieldCondition(key="nsp", match=qe.MatchValue(query.prefix)))
            if query.tenants is not None:
                must.append(qe.FieldCondition(key="t", match=qe.MatchAny(list(query.tenants))))
        return qe.Filter(must=must)

    def upsert(self, points: Sequence[VectorPoint]) -> None:
        import qdrant_edge as qe

        if not points:
            return
        with self._lock:
            self.shard.update(
                qe.UpdateOperation.upsert_points([qe.Point(p.id, list(p.vector), p.payload) for p in points])
            )
        self._dirty.set()

    def delete_refs(self, refs: Sequence[str]) -> None:
        import qdrant_edge as qe

        if not refs:
            return
        with self._lock:
            self.shard.update(qe.UpdateOperation.delete_points_by_filter(self._filter(refs=refs)))
        self._dirty.set()

    def delete_tenant(self, tenant: str) -> int:
        import qdrant_edge as qe

        with self._lock:
            n = self.count(tenant)
            self.shard.update(qe.UpdateOperation.delete_points_by_filter(self._filter(tenant=tenant)))
            self.shard.flush()
            self.vacuum()
        return n

    def _start_flusher(self) -> None:
        if self._flusher is not None:
            return

        def loop() -> None:
            while not self._closing.wait(self.flush_interval):
                if self._dirty.is_set():
                    self.flush()

        self._flusher = threading.Thread(target=loop, name="trustmem-edge-flush", daemon=True)
        self._flusher.start()

    def flush(self) -> None:
        with self._lock:
            self._dirty.clear()
            if self._shard is not None:
                self._shard.flush()

    def vacuum(self) -> None:
        """Rewrite segments that hold deleted points, so their vectors and
        payloads leave the disk (erasure)."""
        with self._lock:
            self.shard.optimize()
            self.shard.flush()

    def search(self, vector: Sequence[float], query: VectorQuery, limit: int) -> list[tuple[str, float]]:
        import qdrant_edge as qe

        request = qe.QueryRequest(
            limit=limit,
            query=qe.Query.Nearest(list(vector)),
            filter=self._filter(query),
            with_payload=True,
            with_vector=False,
            params=qe.SearchParams(exact=True),
        )
        return [(p.payload["ref"], p.score) for p in self.shard.query(request)]

    def count(self, tenant: str | None = None) -> int:
        import qdrant_edge as qe

        flt = self._filter(tenant=tenant) if tenant is not None else None
        return self.shard.count(qe.CountRequest(exact=True, filter=flt))

    def close(self) -> None:
        self._closing.set()
        with self._lock:
            if self._shard is not None:
                self._shard.flush()
                self.shard.close()
                self._shard = None
