"""The hot tier: a write-through copy of each thread's latest checkpoint, so
restoring a session skips PostgreSQL.

Entries hold the same AES-GCM envelopes PostgreSQL stores (their associated
data names thread, channel and version, so they can be served as they are);
the small header is sealed too. Key names carry only the HMAC of the thread
id. PostgreSQL stays the system of record: a lost, flushed or stale entry
costs a read from it, never data.

Two implementations of one interface: :class:`RedisHotTier` (with its async
twin) for deployments that share Redis, and :class:`LocalHotTier`, an
in-process LRU used by the embedded default and when no Redis is set.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import ormsgpack

from langgraph_trustmem.crypto import KeyRing, aad

BlobKey = tuple[str, str]  # channel, version
WriteKey = tuple[str, int, str, str]  # task_id, idx, channel, task_path


@dataclass
class HotEntry:
    """The latest checkpoint of one (thread, namespace), sealed."""

    checkpoint_id: str
    parent_id: str | None
    payload: bytes
    branch: int
    level: int
    status: str
    fork_pending: bool
    blobs: dict[BlobKey, bytes] = field(default_factory=dict)
    writes: dict[WriteKey, bytes] = field(default_factory=dict)


def _ns_suffix(ns: str) -> str:
    return "" if not ns else ":" + hashlib.sha256(ns.encode()).hexdigest()[:24]


class LocalHotTier:
    """In-process LRU of hot entries, bounded in count and age.

    Serves both savers (its async methods do no I/O). Process memory is
    plaintext territory anyway; entries stay sealed here all the same.
    """

    def __init__(self, max_entries: int = 4096) -> None:
        self.max_entries = max_entries
        # (thread key, ns) -> (expiry, entry or None, writes by checkpoint id)
        self._entries: OrderedDict[
            tuple[bytes, str], tuple[float, HotEntry | None, dict[str, dict[WriteKey, bytes]]]
        ] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, tk: bytes, ns: str) -> HotEntry | None:
        with self._lock:
            item = self._entries.get((tk, ns))
            if item is None or item[1] is None:
                return None
            expires, entry, writes = item
            if expires < time.monotonic():
                del self._entries[(tk, ns)]
                return None
            self._entries.move_to_end((tk, ns))
            return replace(entry, blobs=dict(entry.blobs), writes=dict(writes.get(entry.checkpoint_id, {})))

    def put(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
    ) -> None:
        with self._lock:
            current = self._entries.get((tk, ns))
            blobs = dict(entry.blobs)
            writes = dict(entry.writes)
            if current is not None:
                _, cur, early = current
                if cur is not None and cur.checkpoint_id > entry.checkpoint_id:
                    return  # a newer checkpoint is already hot
                if cur is not None and cur.checkpoint_id in (prev, entry.checkpoint_id):
                    for k in keep:
                        if k not in blobs and k in cur.blobs:
                            blobs[k] = cur.blobs[k]
                # writes that arrived before their checkpoint was stored
                writes.update(early.get(entry.checkpoint_id, {}))
            self._entries[(tk, ns)] = (
                time.monotonic() + ttl,
                replace(entry, blobs=blobs, writes={}),
                {entry.checkpoint_id: writes},
            )
            self._entries.move_to_end((tk, ns))
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def add_writes(
        self, tk: bytes, ns: str, checkpoint_id: str, writes: Mapping[WriteKey, bytes], ttl: float = 3600.0
    ) -> None:
        with self._lock:
            current = self._entries.get((tk, ns))
            if current is None:
                current = (time.monotonic() + ttl, None, {})
                self._entries[(tk, ns)] = current
            _, cur, early = current
            if cur is not None and cur.checkpoint_id > checkpoint_id:
                return
            early.setdefault(checkpoint_id, {}).update(writes)

    def drop(self, tks: Iterable[bytes]) -> None:
        doomed = set(tks)
        with self._lock:
            for key in [k for k in self._entries if k[0] in doomed]:
                del self._entries[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    async def aget(self, tk: bytes, ns: str) -> HotEntry | None:
        return self.get(tk, ns)

    async def aput(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
    ) -> None:
        self.put(tk, ns, entry, keep, ttl, prev)

    async def aadd_writes(
        self, tk: bytes, ns: str, checkpoint_id: str, writes: Mapping[WriteKey, bytes], ttl: float = 3600.0
    ) -> None:
        self.add_writes(tk, ns, checkpoint_id, writes, ttl)

    async def adrop(self, tks: Iterable[bytes]) -> None:
        self.drop(tks)

    def close(self) -> None:
        self.clear()

    async def aclose(self) -> None:
        self.clear()


# Replace the entry unless a newer checkpoint is there. When the entry was
# the checkpoint this one follows (ARGV[2]), keep its blobs that the new one
# still uses; keep writes already stored for the new checkpoint (they can
# arrive before it).
_PUT_LUA = """
local cur = redis.call('HGET', KEYS[1], 'id')
if cur and cur > ARGV[1] then return 0 end
local nkeep = tonumber(ARGV[4])
local keep = {}
if cur and (cur == ARGV[2] or cur == ARGV[1]) then
  for i = 1, nkeep do keep[ARGV[4 + i]] = true end
end
local wprefix = 'w\\0' .. ARGV[1] .. '\\0'
for _, f in ipairs(redis.call('HKEYS', KEYS[1])) do
  if not keep[f] and string.sub(f, 1, #wprefix) ~= wprefix then
    redis.call('HDEL', KEYS[1], f)
  end
end
redis.call('HSET', KEYS[1], 'id', ARGV[1], unpack(ARGV, 5 + nkeep))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if KEYS[2] then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return 1
"""

_ADD_WRITES_LUA = """
local cur = redis.call('HGET', KEYS[1], 'id')
if cur and cur > ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 3))
if not cur then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
"""


class _RedisCodec:
    """Field layout of a hot entry in a Redis hash."""

    def __init__(self, keyring: KeyRing, prefix: str) -> None:
        self.keyring = keyring
        self.prefix = prefix

    def key(self, tk: bytes, ns: str) -> str:
        return f"{self.prefix}cp:{tk.hex()}{_ns_suffix(ns)}"

    def ns_set(self, tk: bytes) -> str:
        return f"{self.prefix}cpns:{tk.hex()}"

    @staticmethod
    def blob_field(k: BlobKey) -> bytes:
        return b"b\x00" + k[0].encode() + b"\x00" + k[1].encode()

    @staticmethod
    def write_field(cid: str, k: WriteKey) -> bytes:
        parts = (cid.encode(), k[0].encode(), str(k[1]).encode(), k[2].encode(), k[3].encode())
        return b"w\x00" + b"\x00".join(parts)

    def _meta_aad(self, tk: bytes, ns: str) -> bytes:
        return aad("hot-meta", tk, ns)

    def encode(
        self, tk: bytes, ns: str, entry: HotEntry, keep: Iterable[BlobKey], ttl: float, prev: str | None
    ) -> tuple[list[str], list[Any]]:
        meta = ormsgpack.packb([entry.parent_id, entry.branch, entry.level, entry.status, entry.fork_pending])
        fields: list[Any] = [b"m", self.keyring.encrypt(meta, self._meta_aad(tk, ns)), b"p", entry.payload]
        for k, blob in entry.blobs.items():
            fields += [self.blob_field(k), blob]
        for k, blob in entry.writes.items():
            fields += [self.write_field(entry.checkpoint_id, k), blob]
        keep_fields = [self.blob_field(k) for k in keep]
        keys = [self.key(tk, ns)] + ([self.ns_set(tk)] if ns else [])
        args = [entry.checkpoint_id, prev or "", int(ttl * 1000), len(keep_fields), *keep_fields, *fields]
        return keys, args

    def decode(self, tk: bytes, ns: str, raw: Mapping[bytes, bytes]) -> HotEntry | None:
        if not raw or b"id" not in raw or b"m" not in raw or b"p" not in raw:
            return None
        parent, branch, level, status, pending = ormsgpack.unpackb(
            self.keyring.decrypt(raw[b"m"], self._meta_aad(tk, ns))
        )
        blobs: dict[BlobKey, bytes] = {}
        writes: dict[WriteKey, bytes] = {}
        for f, v in raw.items():
            if f.startswith(b"b\x00"):
                _, ch, ver = f.split(b"\x00", 2)
                blobs[(ch.decode(), ver.decode())] = v
            elif f.startswith(b"w\x00"):
                _, cid, task_id, idx, ch, path = f.split(b"\x00", 5)
                if cid == raw[b"id"]:
                    writes[(task_id.decode(), int(idx), ch.decode(), path.decode())] = v
        return HotEntry(raw[b"id"].decode(), parent, raw[b"p"], branch, level, status, pending, blobs, writes)

    def writes_args(self, checkpoint_id: str, writes: Mapping[WriteKey, bytes], ttl: float) -> list[Any]:
        args: list[Any] = [checkpoint_id, int(ttl * 1000)]
        for k, blob in writes.items():
            args += [self.write_field(checkpoint_id, k), blob]
        return args


class RedisHotTier:
    """Hot entries in Redis (sync client)."""

    def __init__(self, client: Any, keyring: KeyRing, prefix: str = "trustmem:") -> None:
        self.client = client
        self.codec = _RedisCodec(keyring, prefix)
        self._put = client.register_script(_PUT_LUA)
        self._add = client.register_script(_ADD_WRITES_LUA)

    def get(self, tk: bytes, ns: str) -> HotEntry | None:
        return self.codec.decode(tk, ns, self.client.hgetall(self.codec.key(tk, ns)))

    def put(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
    ) -> None:
        keys, args = self.codec.encode(tk, ns, entry, keep, ttl, prev)
        self._put(keys=keys, args=args)

    def add_writes(
        self, tk: bytes, ns: str, checkpoint_id: str, writes: Mapping[WriteKey, bytes], ttl: float = 3600.0
    ) -> None:
        if writes:
            self._add(keys=[self.codec.key(tk, ns)], args=self.codec.writes_args(checkpoint_id, writes, ttl))

    def drop(self, tks: Iterable[bytes]) -> None:
        for tk in tks:
            nsset = self.codec.ns_set(tk)
            keys = [k for k in self.client.smembers(nsset)]
            self.client.delete(self.codec.key(tk, ""), nsset, *keys)

    def close(self) -> None:
        self.client.close()


class AsyncRedisHotTier:
    """Hot entries in Redis (``redis.asyncio`` client); twin of RedisHotTier."""

    def __init__(self, client: Any, keyring: KeyRing, prefix: str = "trustmem:") -> None:
        self.client = client
        self.codec = _RedisCodec(keyring, prefix)
        self._put = client.register_script(_PUT_LUA)
        self._add = client.register_script(_ADD_WRITES_LUA)

    async def aget(self, tk: bytes, ns: str) -> HotEntry | None:
        return self.codec.decode(tk, ns, await self.client.hgetall(self.codec.key(tk, ns)))

    async def aput(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
    ) -> None:
        keys, args = self.codec.encode(tk, ns, entry, keep, ttl, prev)
        await self._put(keys=keys, args=args)

    async def aadd_writes(
        self, tk: bytes, ns: str, checkpoint_id: str, writes: Mapping[WriteKey, bytes], ttl: float = 3600.0
    ) -> None:
        if writes:
            await self._add(
                keys=[self.codec.key(tk, ns)], args=self.codec.writes_args(checkpoint_id, writes, ttl)
            )

    async def adrop(self, tks: Iterable[bytes]) -> None:
        for tk in tks:
            nsset = self.codec.ns_set(tk)
            keys = [k for k in await self.client.smembers(nsset)]
            await self.client.delete(self.codec.key(tk, ""), nsset, *keys)

    async def aclose(self) -> None:
        await self.client.aclose()
