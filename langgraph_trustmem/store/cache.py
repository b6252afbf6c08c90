"""The Redis cache tier of the store: hot rows and recent search results.

Everything cached is sealed (rows are the PostgreSQL envelope sealed once
more with their place); key names carry keyed hashes only. Rows are dropped
on write and delete; a write to a tenant bumps that tenant's generation, so
earlier search results stop being served; erasure deletes every key the
tenant ever cached (tracked in a per-tenant set), so nothing of an erased
user lingers until a TTL. An invalidated row leaves a short tombstone and
rows are cached only where none is, so a read that fetched a row just
before a write or an erasure cannot put the old row back.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import ormsgpack

from langgraph_trustmem.crypto import KeyRing, aad
from langgraph_trustmem.services import REDIS_ERRORS, RedisFence, watch_connections

log = logging.getLogger(__name__)

SHARED = "_"
TOMBSTONE = b"-"
TOMBSTONE_MS = 5000  # longer than any read that could race a write


def _ts(v: datetime | None) -> str | None:
    return v.isoformat() if v is not None else None


def _dt(v: str | None) -> datetime | None:
    return datetime.fromisoformat(v) if v is not None else None


class _Codec:
    """Key names and sealing. Row, generation and search keys carry the
    Redis server lifetime (``epoch``), so nothing cached before a restart,
    a restore or a failover is ever read again; a tenant's key set does
    not, so erasure reaches every lifetime's keys."""

    def __init__(self, keyring: KeyRing, prefix: str) -> None:
        self.keyring = keyring
        self.prefix = prefix
        self.epoch = ""

    def row_key(self, ref: str) -> str:
        return f"{self.prefix}m:{self.epoch}:{ref}"

    def tenant_set(self, tenant: bytes | None) -> str:
        return f"{self.prefix}mt:{tenant.hex() if tenant else SHARED}"

    def gen_key(self, tenant: bytes | None) -> str:
        return f"{self.prefix}mg:{self.epoch}:{tenant.hex() if tenant else SHARED}"

    def search_key(self, tenant: bytes | None, gen: int, shared_gen: int, qkey: str) -> str:
        return f"{self.prefix}s:{self.epoch}:{tenant.hex() if tenant else SHARED}:{gen}:{shared_gen}:{qkey}"

    def pack_row(self, ref: str, r: Sequence[Any]) -> bytes:
        ns_hash, key_hash, level, sealed, version, created, updated, expires, ttl, tenant, indexed = r
        raw = ormsgpack.packb(
            [
                bytes(ns_hash),
                bytes(key_hash),
                level,
                bytes(sealed),
                version,
                _ts(created),
                _ts(updated),
                _ts(expires),
                ttl,
                bytes(tenant) if tenant is not None else None,
                indexed,
            ]
        )
        return self.keyring.encrypt(raw, aad("cache-row", ref))

    def unpack_row(self, ref: str, blob: bytes) -> tuple:
        v = ormsgpack.unpackb(self.keyring.decrypt(blob, aad("cache-row", ref)))
        return (v[0], v[1], v[2], v[3], v[4], _dt(v[5]), _dt(v[6]), _dt(v[7]), v[8], v[9], v[10])

    def pack_hits(self, key: str, hits: Sequence[tuple[str, float | None]]) -> bytes:
        return self.keyring.encrypt(ormsgpack.packb([list(h) for h in hits]), aad("cache-search", key))

    def unpack_hits(self, key: str, blob: bytes) -> list[tuple[str, float | None]]:
        return [tuple(h) for h in ormsgpack.unpackb(self.keyring.decrypt(blob, aad("cache-search", key)))]


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

    def get_rows(self, refs: Sequence[str]) -> dict[str, tuple]:
        if not refs or not self._ready():
            return {}
        try:
            blobs = self.client.mget([self.codec.row_key(r) for r in refs])
        except REDIS_ERRORS:
            self.fence.failed(())
            return {}
        return {
            ref: self.codec.unpack_row(ref, b)
            for ref, b in zip(refs, blobs, strict=True)
            if b not in (None, TOMBSTONE)
        }

    def put_rows(self, rows: dict[str, tuple]) -> None:
        if not rows or not self._ready():
            return
        pipe = self.client.pipeline(transaction=False)
        for ref, r in rows.items():
            key = self.codec.row_key(ref)
            pipe.set(key, self.codec.pack_row(ref, r), px=self.ttl, nx=True)
            pipe.sadd(self.codec.tenant_set(r[9]), key)
        try:
            pipe.execute()
        except REDIS_ERRORS:
            self.fence.failed(())

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

    def invalidate(self, refs: Sequence[str], tenants: Sequence[bytes | None]) -> None:
        owed = ("rows", tuple(refs), tuple(set(tenants)))
        if not self._ready():
            self.fence.owe([owed])
            return
        try:
            self._invalidate_now(owed[1], owed[2])
        except REDIS_ERRORS:
            self.fence.failed([owed])

    def _invalidate_now(self, refs: Sequence[str], tenants: Sequence[bytes | None]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for ref in refs:
            pipe.set(self.codec.row_key(ref), TOMBSTONE, px=TOMBSTONE_MS)
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

    async def get_rows(self, refs: Sequence[str]) -> dict[str, tuple]:
        if not refs or not await self._ready():
            return {}
        try:
            blobs = await self.client.mget([self.codec.row_key(r) for r in refs])
        except REDIS_ERRORS:
            self.fence.failed(())
            return {}
        return {
            ref: self.codec.unpack_row(ref, b)
            for ref, b in zip(refs, blobs, strict=True)
            if b not in (None, TOMBSTONE)
        }

    async def put_rows(self, rows: dict[str, tuple]) -> None:
        if not rows or not await self._ready():
            return
        pipe = self.client.pipeline(transaction=False)
        for ref, r in rows.items():
            key = self.codec.row_key(ref)
            pipe.set(key, self.codec.pack_row(ref, r), px=self.ttl, nx=True)
            pipe.sadd(self.codec.tenant_set(r[9]), key)
        try:
            await pipe.execute()
        except REDIS_ERRORS:
            self.fence.failed(())

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

    async def invalidate(self, refs: Sequence[str], tenants: Sequence[bytes | None]) -> None:
        owed = ("rows", tuple(refs), tuple(set(tenants)))
        if not await self._ready():
            self.fence.owe([owed])
            return
        try:
            await self._invalidate_now(owed[1], owed[2])
        except REDIS_ERRORS:
            self.fence.failed([owed])

    async def _invalidate_now(self, refs: Sequence[str], tenants: Sequence[bytes | None]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for ref in refs:
            pipe.set(self.codec.row_key(ref), TOMBSTONE, px=TOMBSTONE_MS)
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
