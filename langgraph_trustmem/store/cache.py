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

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import ormsgpack

from langgraph_trustmem.crypto import KeyRing, aad

SHARED = "_"
TOMBSTONE = b"-"
TOMBSTONE_MS = 5000  # longer than any read that could race a write


def _ts(v: datetime | None) -> str | None:
    return v.isoformat() if v is not None else None


def _dt(v: str | None) -> datetime | None:
    return datetime.fromisoformat(v) if v is not None else None


class _Codec:
    def __init__(self, keyring: KeyRing, prefix: str) -> None:
        self.keyring = keyring
        self.prefix = prefix

    def row_key(self, ref: str) -> str:
        return f"{self.prefix}m:{ref}"

    def tenant_set(self, tenant: bytes | None) -> str:
        return f"{self.prefix}mt:{tenant.hex() if tenant else SHARED}"

    def gen_key(self, tenant: bytes | None) -> str:
        return f"{self.prefix}mg:{tenant.hex() if tenant else SHARED}"

    def search_key(self, tenant: bytes | None, gen: int, shared_gen: int, qkey: str) -> str:
        return f"{self.prefix}s:{tenant.hex() if tenant else SHARED}:{gen}:{shared_gen}:{qkey}"

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
    """Sync Redis cache."""

    def __init__(self, client: Any, keyring: KeyRing, ttl: float = 600.0, prefix: str = "trustmem:") -> None:
        self.client = client
        self.codec = _Codec(keyring, prefix)
        self.ttl = int(ttl * 1000)

    def get_rows(self, refs: Sequence[str]) -> dict[str, tuple]:
        if not refs:
            return {}
        blobs = self.client.mget([self.codec.row_key(r) for r in refs])
        return {
            ref: self.codec.unpack_row(ref, b) for ref, b in zip(refs, blobs) if b not in (None, TOMBSTONE)
        }

    def put_rows(self, rows: dict[str, tuple]) -> None:
        if not rows:
            return
        pipe = self.client.pipeline(transaction=False)
        for ref, r in rows.items():
            key = self.codec.row_key(ref)
            pipe.set(key, self.codec.pack_row(ref, r), px=self.ttl, nx=True)
            pipe.sadd(self.codec.tenant_set(r[9]), key)
        pipe.execute()

    def generations(self, tenant: bytes | None) -> tuple[int, int]:
        own, shared = self.client.mget([self.codec.gen_key(tenant), self.codec.gen_key(None)])
        return int(own or 0), int(shared or 0)

    def get_hits(self, tenant: bytes | None, qkey: str) -> tuple[str, list | None]:
        own, shared = self.generations(tenant)
        key = self.codec.search_key(tenant, own, shared, qkey)
        blob = self.client.get(key)
        return key, (self.codec.unpack_hits(key, blob) if blob is not None else None)

    def put_hits(self, tenant: bytes | None, key: str, hits: Sequence[tuple[str, float | None]]) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.set(key, self.codec.pack_hits(key, hits), px=self.ttl)
        pipe.sadd(self.codec.tenant_set(tenant), key)
        pipe.execute()

    def invalidate(self, refs: Sequence[str], tenants: Sequence[bytes | None]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for ref in refs:
            pipe.set(self.codec.row_key(ref), TOMBSTONE, px=TOMBSTONE_MS)
        for t in set(tenants):
            pipe.incr(self.codec.gen_key(t))
        pipe.execute()

    def drop_tenant(self, tenant: bytes) -> int:
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

    async def get_rows(self, refs: Sequence[str]) -> dict[str, tuple]:
        if not refs:
            return {}
        blobs = await self.client.mget([self.codec.row_key(r) for r in refs])
        return {
            ref: self.codec.unpack_row(ref, b) for ref, b in zip(refs, blobs) if b not in (None, TOMBSTONE)
        }

    async def put_rows(self, rows: dict[str, tuple]) -> None:
        if not rows:
            return
        pipe = self.client.pipeline(transaction=False)
        for ref, r in rows.items():
            key = self.codec.row_key(ref)
            pipe.set(key, self.codec.pack_row(ref, r), px=self.ttl, nx=True)
            pipe.sadd(self.codec.tenant_set(r[9]), key)
        await pipe.execute()

    async def generations(self, tenant: bytes | None) -> tuple[int, int]:
        own, shared = await self.client.mget([self.codec.gen_key(tenant), self.codec.gen_key(None)])
        return int(own or 0), int(shared or 0)

    async def get_hits(self, tenant: bytes | None, qkey: str) -> tuple[str, list | None]:
        own, shared = await self.generations(tenant)
        key = self.codec.search_key(tenant, own, shared, qkey)
        blob = await self.client.get(key)
        return key, (self.codec.unpack_hits(key, blob) if blob is not None else None)

    async def put_hits(
        self, tenant: bytes | None, key: str, hits: Sequence[tuple[str, float | None]]
    ) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.set(key, self.codec.pack_hits(key, hits), px=self.ttl)
        pipe.sadd(self.codec.tenant_set(tenant), key)
        await pipe.execute()

    async def invalidate(self, refs: Sequence[str], tenants: Sequence[bytes | None]) -> None:
        pipe = self.client.pipeline(transaction=False)
        for ref in refs:
            pipe.set(self.codec.row_key(ref), TOMBSTONE, px=TOMBSTONE_MS)
        for t in set(tenants):
            pipe.incr(self.codec.gen_key(t))
        await pipe.execute()

    async def drop_tenant(self, tenant: bytes) -> int:
        tset = self.codec.tenant_set(tenant)
        keys = list(await self.client.smembers(tset))
        removed = await self.client.delete(*keys) if keys else 0
        await self.client.delete(tset, self.codec.gen_key(tenant))
        return int(removed)

    async def close(self) -> None:
        await self.client.aclose()
