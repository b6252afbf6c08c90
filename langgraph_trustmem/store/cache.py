"""The Redis cache tier of the store: recent search results (the vector
hits of a query: memory references and scores, sealed).

Rows are not cached: a read of rows is one PostgreSQL statement that also
writes the read's audit event, which a cache hit would need anyway. A
cached result saves the query's embedding and the vector search. Key names
carry keyed hashes only. A write to a tenant bumps that tenant's
generation, so earlier results stop being served; erasure deletes every key
the tenant ever cached (tracked in a per-tenant set), so nothing of an
erased user lingers until a TTL. The rows of a cached result are read (and
checked against the reader) afresh every time.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

import ormsgpack

from langgraph_trustmem.crypto import KeyRing, aad
from langgraph_trustmem.services import REDIS_ERRORS, RedisFence, watch_connections

log = logging.getLogger(__name__)

SHARED = "_"



class _Codec:
    """Key names and sealing. Row, generation and search keys carry the
    Redis server lifetime (``epoch``), so nothing cached before a restart,
    a restore or a failover is ever read again; a tenant's key set does
    not, so erasure reaches every lifetime's keys."""

    def __init__(self, keyring: KeyRing, prefix: str) -> None:
        self.keyring = keyring
        self.prefix = prefix
        self.epoch = ""

    def tenant_set(self, tenant: bytes | None) -> str:
        return f"{self.prefix}mt:{tenant.hex() if tenant else SHARED}"

    def gen_key(self, tenant: bytes | None) -> str:
        return f"{self.prefix}mg:{self.epoch}:{tenant.hex() if tenant else SHARED}"

    def search_key(self, tenant: bytes | None, gen: int, shared_gen: int, qkey: str) -> str:
        return f"{self.prefix}s:{self.epoch}:{tenant.hex() if tenant else SHARED}:{gen}:{shared_gen}:{qkey}"

    def pack_hits(self, key: str, hits: Sequence[tuple[str, float | None]]) -> bytes:
        return self.keyring.encrypt(ormsgpack.packb([list(h) for h in hits]), aad("cache-search", key))

    def unpack_hits(self, key: str, blob: bytes) -> list[tuple[str, float | None]]:
        return [tuple(h) for h in ormsgpack.unpackb(self.keyring.decrypt(blob, aad("cache-search", key)))]


class HitCache(Protocol):
    """What the sync store asks of its search-hit cache (RowCache): a miss
    or an unreachable Redis reads as no hits, never as an error; writes
    invalidate by tenant."""

    def get_hits(self, tenant: bytes | None, qkey: str) -> tuple[str, list | None]: ...

    def put_hits(self, tenant: bytes | None, key: str, hits: Sequence[tuple[str, float | None]]) -> None: ...

    def invalidate(self, tenants: Sequence[bytes | None]) -> None: ...

    def drop_tenant(self, tenant: bytes) -> int | None: ...

    def close(self) -> None: ...


class AsyncHitCache(Protocol):
    """The async store's twin of :class:`HitCache` (AsyncRowCache): the same
    names, as coroutines."""

    async def get_hits(self, tenant: bytes | None, qkey: str) -> tuple[str, list | None]: ...

    async def put_hits(self, tenant: bytes | None, key: str, hits: Sequence[tuple[str, float | None]]) -> None: ...

    async def invalidate(self, tenants: Sequence[bytes | None]) -> None: ...

    async def drop_tenant(self, tenant: bytes) -> int | None: ...

    async def close(self) -> None: ...


class RowCache:
    """Sync Redis cache. Redis errors never fail a store call: a read
    misses, a write is skipped, and an invalidation or erasure that fails is
    owed and done before the cache is used again (see
    :class:`~langgraph_trustmem.services.RedisFence`)."""

    def __init__(self, client: Any, keyring: KeyRing, ttl: float = 600.0, prefix: str = "trustmem:") -> None:
        self.client = client
        self.codec = _Codec(keyring, prefix)
        self.ttl = int(ttl * 1000)
        self.fence = RedisFence()
        watch_connections(client, self.fence, is_async=False)

    @property
    def pending(self) -> int:
        """Invalidations and erasures this process still owes Redis."""
        return len(self.fence.pending)

    def _ready(self) -> bool:
        ready = self.fence.ready(self.client, self._settle, "store cache")
        self.codec.epoch = self.fence.epoch or ""
        return ready

    def _settle(self, owed: Sequence[tuple]) -> None:
        for kind, *args in owed:
            if kind == "tenant":
                self._drop_tenant_now(args[0])
            else:
                self._invalidate_now(*args)

    def get_hits(self, tenant: bytes | None, qkey: str) -> tuple[str, list | None]:
        if not self._ready():
            return "", None
        try:
            own, shared = self.client.mget([self.codec.gen_key(tenant), self.codec.gen_key(None)])
            key = self.codec.search_key(tenant, int(own or 0), int(shared or 0), qkey)
            blob = self.client.get(key)
        except REDIS_ERRORS:
            self.fence.failed(())
            return "", None
        return key, (self.codec.unpack_hits(key, blob) if blob is not None else None)

    def put_hits(self, tenant: bytes | None, key: str, hits: Sequence[tuple[str, float | None]]) -> None:
        if not key or not self._ready():
            return
        pipe = self.client.pipeline(transaction=False)
        pipe.set(key, self.codec.pack_hits(key, hits), px=self.ttl)
        pipe.sadd(self.codec.tenant_set(tenant), key)
        try:
            pipe.execute()
        except REDIS_ERRORS:
            self.fence.failed(())

    def invalidate(self, tenants: Sequence[bytes | None]) -> None:
        """Stop serving the tenants' cached search results (a write changed
        what they would find)."""
        owed = ("tenants", tuple(set(tenants)))
        if not self._ready():
            self.fence.owe([owed])
            return
        try:
            self._invalidate_now(owed[1])
        except REDIS_ERRORS:
            self.fence.failed([owed])

    def _invalidate_now(self, tenants: Sequence[bytes | None]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for t in tenants:
            pipe.incr(self.codec.gen_key(t))
        pipe.execute()

    def drop_tenant(self, tenant: bytes) -> int | None:
        """Delete every key a tenant cached; None when Redis could not be
        reached (the deletion is owed, and erasure shows it as pending)."""
        if not self._ready():
            self.fence.owe([("tenant", tenant)])
            return None
        try:
            return self._drop_tenant_now(tenant)
        except REDIS_ERRORS:
            self.fence.failed([("tenant", tenant)])
            return None

    def _drop_tenant_now(self, tenant: bytes) -> int:
        tset = self.codec.tenant_set(tenant)
        keys = list(self.client.smembers(tset))
        removed = self.client.delete(*keys) if keys else 0
        self.client.delete(tset, self.codec.gen_key(tenant))
        return int(removed)

    def close(self) -> None:
        self.client.close()


class AsyncRowCache:
    """Async twin of :class:`RowCache` (``redis.asyncio``)."""

    def __init__(self, client: Any, keyring: KeyRing, ttl: float = 600.0, prefix: str = "trustmem:") -> None:
        self.client = client
        self.codec = _Codec(keyring, prefix)
        self.ttl = int(ttl * 1000)
        self.fence = RedisFence()
        watch_connections(client, self.fence, is_async=True)

    @property
    def pending(self) -> int:
        return len(self.fence.pending)

    async def _ready(self) -> bool:
        ready = await self.fence.aready(self.client, self._settle, "store cache")
        self.codec.epoch = self.fence.epoch or ""
        return ready

    async def _settle(self, owed: Sequence[tuple]) -> None:
        for kind, *args in owed:
            if kind == "tenant":
                await self._drop_tenant_now(args[0])
            else:
                await self._invalidate_now(*args)

    async def get_hits(self, tenant: bytes | None, qkey: str) -> tuple[str, list | None]:
        if not await self._ready():
            return "", None
        try:
            own, shared = await self.client.mget([self.codec.gen_key(tenant), self.codec.gen_key(None)])
            key = self.codec.search_key(tenant, int(own or 0), int(shared or 0), qkey)
            blob = await self.client.get(key)
        except REDIS_ERRORS:
            self.fence.failed(())
            return "", None
        return key, (self.codec.unpack_hits(key, blob) if blob is not None else None)

    async def put_hits(
        self, tenant: bytes | None, key: str, hits: Sequence[tuple[str, float | None]]
    ) -> None:
        if not key or not await self._ready():
            return
        pipe = self.client.pipeline(transaction=False)
        pipe.set(key, self.codec.pack_hits(key, hits), px=self.ttl)
        pipe.sadd(self.codec.tenant_set(tenant), key)
        try:
            await pipe.execute()
        except REDIS_ERRORS:
            self.fence.failed(())

    async def invalidate(self, tenants: Sequence[bytes | None]) -> None:
        """Async :meth:`RowCache.invalidate`."""
        owed = ("tenants", tuple(set(tenants)))
        if not await self._ready():
            self.fence.owe([owed])
            return
        try:
            await self._invalidate_now(owed[1])
        except REDIS_ERRORS:
            self.fence.failed([owed])

    async def _invalidate_now(self, tenants: Sequence[bytes | None]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for t in tenants:
            pipe.incr(self.codec.gen_key(t))
        await pipe.execute()

    async def drop_tenant(self, tenant: bytes) -> int | None:
        if not await self._ready():
            self.fence.owe([("tenant", tenant)])
            return None
        try:
            return await self._drop_tenant_now(tenant)
        except REDIS_ERRORS:
            self.fence.failed([("tenant", tenant)])
            return None

    async def _drop_tenant_now(self, tenant: bytes) -> int:
        tset = self.codec.tenant_set(tenant)
        keys = list(await self.client.smembers(tset))
        removed = await self.client.delete(*keys) if keys else 0
        await self.client.delete(tset, self.codec.gen_key(tenant))
        return int(removed)

    async def close(self) -> None:
        await self.client.aclose()
