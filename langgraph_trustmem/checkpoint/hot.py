"""The hot tier: a write-through copy of each thread's latest checkpoint, so
restoring a session skips PostgreSQL.

Entries hold the same AES-GCM envelopes PostgreSQL stores (their associated
data names thread, channel and version, so they can be served as they are);
the small header is sealed too. Key names carry only the HMAC of the thread
id. PostgreSQL stays the system of record: a lost, flushed or failing hot
tier costs a read from it, never data, and never fails a call.

Three implementations of one interface: :class:`RedisHotTier` (and its
async twin) for deployments that share Redis; :class:`LocalHotTier`, an
in-process LRU for the embedded default, where one process owns the
threads; :class:`NullHotTier` when neither is right.

Rules every implementation keeps:
- an entry is only replaced by a newer checkpoint;
- pending writes can arrive before their checkpoint (LangGraph's async
  durability): they are kept for any checkpoint at or after the entry's;
- regular writes are first-write-wins and special ones (errors, interrupts)
  last-write-wins, as in PostgreSQL;
- dropping a thread leaves a short tombstone, so a read that raced the
  deletion cannot put the erased entry back.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import hashlib
import logging
import os
import sys
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, cast

import ormsgpack
from redis.exceptions import ResponseError

from langgraph_trustmem.crypto import KeyRing, aad
from langgraph_trustmem.errors import TamperedDataError
from langgraph_trustmem.services import REDIS_ERRORS, REDIS_TIMEOUT, RedisFence, watch_connections

log = logging.getLogger(__name__)

BlobKey = tuple[str, str]  # channel, version
WriteKey = tuple[str, int, str, str]  # task_id, idx, channel, task_path
TOMBSTONE_SECONDS = 120.0


@dataclass(slots=True)
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
    owner: bytes | None = None
    head_level: int | None = None
    tainted: bool = False
    epoch: str | None = None  # the Redis server lifetime it was written in


def _ns_suffix(ns: str) -> str:
    return "" if not ns else ":" + hashlib.sha256(ns.encode()).hexdigest()[:24]


class HotTier(Protocol):
    """What the sync saver asks of its hot tier (LocalHotTier, RedisHotTier,
    NullHotTier): sealed entries only, and never the record: any of these
    may return None, and PostgreSQL answers instead.

    A shared tier is told of a write before it reaches PostgreSQL
    (:meth:`mark`) and gets its entry after (``put``/``add_writes`` with the
    mark), or :meth:`unmark` when the write failed."""

    def get(self, tk: bytes, ns: str) -> HotEntry | None: ...

    def mark(self, tk: bytes, ns: str, ttl: float) -> Mark | None: ...

    def unmark(self, mark: Mark | None, clear: bool = True) -> None: ...

    def put(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
        populate: bool = False,
        mark: Mark | None = None,
    ) -> None: ...

    def add_writes(
        self,
        tk: bytes,
        ns: str,
        checkpoint_id: str,
        writes: Mapping[WriteKey, bytes],
        ttl: float = 3600.0,
        upsert: bool = False,
        mark: Mark | None = None,
    ) -> None: ...

    def drop(self, tks: Iterable[bytes]) -> None: ...

    def close(self) -> None: ...


class AsyncHotTier(Protocol):
    """The async saver's twin of :class:`HotTier` (LocalHotTier,
    AsyncRedisHotTier, NullHotTier)."""

    async def aget(self, tk: bytes, ns: str) -> HotEntry | None: ...

    async def amark(self, tk: bytes, ns: str, ttl: float) -> Mark | None: ...

    async def aunmark(self, mark: Mark | None, clear: bool = True) -> None: ...

    async def aput(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
        populate: bool = False,
        mark: Mark | None = None,
    ) -> None: ...

    async def aadd_writes(
        self,
        tk: bytes,
        ns: str,
        checkpoint_id: str,
        writes: Mapping[WriteKey, bytes],
        ttl: float = 3600.0,
        upsert: bool = False,
        mark: Mark | None = None,
    ) -> None: ...

    async def adrop(self, tks: Iterable[bytes]) -> None: ...

    async def aclose(self) -> None: ...


@dataclass(slots=True)
class Mark:
    """A write in flight, as a shared tier was told of it: the lane it was
    sent on and the field that marks the entry until the write's own entry
    replaces it."""

    lane: Any
    tk: bytes
    key: str
    field: bytes
    epoch: str | None  # the server lifetime looked up after the lane was opened
    burst: _Burst | None = None  # the burst it opened (with a lane) or shares (without)


@dataclass(slots=True, eq=False)
class _Burst:
    """Consecutive writes of one entry under one mark, their entries held
    until the burst is sent (see FLUSH_AFTER)."""

    tk: bytes
    key: str
    mark: bytes  # the mark's field
    epoch: str | None
    opened: float  # time.monotonic()
    last: float = 0.0  # when a write last returned
    inflight: int = 0  # writes sharing the mark that have not returned
    lane: Any = None  # the lane the mark was sent on, held by the opener until the reply is read
    state: int = 0  # _SENT until the mark's reply is read (by whichever write needs it first): _CONFIRMED or _FAILED
    reading: bool = False  # a write is reading the mark's reply
    doubtful: bool = False  # a write may have committed without its entry: the entry is deleted instead
    closed: bool = False  # sent, or its thread deleted: nothing joins it
    pending: list[Held] = field(default_factory=list)  # the entries' script calls, in order
    waiters: list[Any] = field(default_factory=list)  # async writes waiting for the mark's reply
    ns: str = ""  # the entry's checkpoint namespace


_SENT, _CONFIRMED, _FAILED = range(3)


class _Unshared:
    """A tier no other process reads needs no marks: a write's entry is in
    place before the write returns."""

    def mark(self, tk: bytes, ns: str, ttl: float) -> Mark | None:
        return None

    def unmark(self, mark: Mark | None, clear: bool = True) -> None:
        return None

    async def amark(self, tk: bytes, ns: str, ttl: float) -> Mark | None:
        return None

    async def aunmark(self, mark: Mark | None, clear: bool = True) -> None:
        return None


class NullHotTier(_Unshared):
    """No hot tier: every read goes to PostgreSQL."""

    def get(self, tk: bytes, ns: str) -> HotEntry | None:
        return None

    def put(self, *args: Any, **kwargs: Any) -> None:
        return None

    def add_writes(self, *args: Any, **kwargs: Any) -> None:
        return None

    def drop(self, tks: Iterable[bytes]) -> None:
        return None

    def close(self) -> None:
        return None

    async def aget(self, tk: bytes, ns: str) -> HotEntry | None:
        return None

    async def aput(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def aadd_writes(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def adrop(self, tks: Iterable[bytes]) -> None:
        return None

    async def aclose(self) -> None:
        return None


DEFAULT_HOT_BYTES = 32 * 1024 * 1024
TRIM_AFTER = 8 * 1024 * 1024


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return cast("Callable[[int], int]", ctypes.CDLL(None).malloc_trim)
    except (AttributeError, OSError, TypeError):  # not glibc (or no C library to name): nothing to call
        return None


def release_freed_memory() -> None:
    """Return the free pages in the C allocator's heaps to the OS
    (``malloc_trim`` on glibc; a no-op elsewhere)."""
    if (trim := _malloc_trim()) is not None:
        trim(0)

_Item = tuple[float, "HotEntry | None", dict[str, dict[WriteKey, bytes]]]


# What one item costs beyond its containers: the item tuple, its key tuple and
# the LRU's and the size map's slots for it.
_ITEM_OVERHEAD = 3 * sys.getsizeof((0.0, None, None)) + 200


def _keyed_bytes(values: Mapping[Any, bytes]) -> int:
    """A dict of sealed values: the dict, each value, each key tuple and the
    strings in it (counted even when shared: the count is an upper bound)."""
    size = sys.getsizeof(values)
    for k, v in values.items():
        size += sys.getsizeof(v) + sys.getsizeof(k) + sum(sys.getsizeof(x) for x in k)
    return size


def _item_bytes(item: _Item) -> int:
    """The footprint of one item, objects included, not only its sealed
    bytes: with ~5 KB states the containers, keys and object headers add a
    third, and a budget that left them out let the heap outgrow it."""
    _, entry, writes = item
    size = _ITEM_OVERHEAD + sys.getsizeof(writes)
    for cid, ws in writes.items():
        size += sys.getsizeof(cid) + _keyed_bytes(ws)
    if entry is not None:
        size += sys.getsizeof(entry) + sys.getsizeof(entry.payload) + sys.getsizeof(entry.checkpoint_id)
        size += sys.getsizeof(entry.parent_id) + _keyed_bytes(entry.blobs) + _keyed_bytes(entry.writes)
    return size


class LocalHotTier(_Unshared):
    """In-process LRU of hot entries, bounded in bytes, count and age.

    Serves both savers (its async methods do no I/O). Right only when this
    process is the only writer of its threads, as in the embedded default.
    ``bytes`` counts what it holds, object headers and keys included; past
    ``max_bytes`` the least recently used threads leave first.
    """

    def __init__(self, max_entries: int = 4096, max_bytes: int = DEFAULT_HOT_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._evicted = 0  # bytes evicted since the last trim
        # (thread key, ns) -> (expiry, entry or None, writes by checkpoint id)
        self._entries: OrderedDict[tuple[bytes, str], _Item] = OrderedDict()
        self._sizes: dict[tuple[bytes, str], int] = {}
        self._tombs: dict[bytes, float] = {}
        self._lock = threading.Lock()

    def _set(self, key: tuple[bytes, str], item: _Item) -> None:
        """Store an item and account for its bytes (lock held)."""
        self._entries[key] = item
        size = _item_bytes(item)
        self.bytes += size - self._sizes.get(key, 0)
        self._sizes[key] = size

    def _remove(self, key: tuple[bytes, str]) -> None:
        self._entries.pop(key, None)
        self.bytes -= self._sizes.pop(key, 0)

    def _bound(self) -> None:
        while self._entries and (len(self._entries) > self.max_entries or self.bytes > self.max_bytes):
            before = self.bytes
            self._remove(next(iter(self._entries)))
            self._evicted += before - self.bytes

    def _trim(self) -> None:
        """Hand what evictions freed back to the OS now and then (lock not
        held): the allocator keeps freed blocks of an LRU's churn in its
        heaps, which in the 10,000-session bench left 4 MB above what the
        tier held. About a millisecond per call, once per ``TRIM_AFTER``
        evicted bytes."""
        if self._trim_due():
            release_freed_memory()

    async def _atrim(self) -> None:
        """:meth:`_trim` off the event loop."""
        if self._trim_due():
            await asyncio.to_thread(release_freed_memory)

    def _trim_due(self) -> bool:
        if self._evicted < TRIM_AFTER:
            return False
        with self._lock:
            if self._evicted < TRIM_AFTER:
                return False
            self._evicted = 0
        return True

    def get(self, tk: bytes, ns: str) -> HotEntry | None:
        with self._lock:
            item = self._entries.get((tk, ns))
            if item is None or item[1] is None:
                return None
            expires, entry, writes = item
            if entry is None:
                return None
            if expires < time.monotonic():
                self._remove((tk, ns))
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
        populate: bool = False,
        mark: Mark | None = None,
    ) -> None:
        self._put(tk, ns, entry, keep, ttl, prev, populate)
        self._trim()

    def _put(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
        populate: bool = False,
    ) -> None:
        with self._lock:
            if populate and self._tombs.get(tk, 0.0) > time.monotonic():
                return
            current = self._entries.get((tk, ns))
            blobs = dict(entry.blobs)
            writes: dict[str, dict[WriteKey, bytes]] = {entry.checkpoint_id: dict(entry.writes)}
            if current is not None:
                _, cur, early = current
                if cur is not None and cur.checkpoint_id > entry.checkpoint_id:
                    return  # a newer checkpoint is already hot
                if cur is not None and cur.checkpoint_id in (prev, entry.checkpoint_id):
                    for bk in keep:
                        if bk not in blobs and bk in cur.blobs:
                            blobs[bk] = cur.blobs[bk]
                for cid, ws in early.items():  # writes that arrived before their checkpoint
                    if cid >= entry.checkpoint_id:
                        merged = writes.setdefault(cid, {})
                        for wk, v in ws.items():
                            merged.setdefault(wk, v)
            self._set((tk, ns), (time.monotonic() + ttl, replace(entry, blobs=blobs, writes={}), writes))
            self._entries.move_to_end((tk, ns))
            self._bound()

    def add_writes(
        self,
        tk: bytes,
        ns: str,
        checkpoint_id: str,
        writes: Mapping[WriteKey, bytes],
        ttl: float = 3600.0,
        upsert: bool = False,
        mark: Mark | None = None,
    ) -> None:
        self._add_writes(tk, ns, checkpoint_id, writes, ttl, upsert)
        self._trim()

    def _add_writes(
        self,
        tk: bytes,
        ns: str,
        checkpoint_id: str,
        writes: Mapping[WriteKey, bytes],
        ttl: float = 3600.0,
        upsert: bool = False,
    ) -> None:
        with self._lock:
            current = self._entries.get((tk, ns))
            if current is None:
                current = (time.monotonic() + ttl, None, {})
                self._set((tk, ns), current)
            _, cur, early = current
            if cur is not None and cur.checkpoint_id > checkpoint_id:
                return
            stored = early.setdefault(checkpoint_id, {})
            for k, v in writes.items():
                if upsert or k not in stored:
                    stored[k] = v
            self._set((tk, ns), current)
            self._bound()

    def drop(self, tks: Iterable[bytes]) -> None:
        doomed = set(tks)
        with self._lock:
            now = time.monotonic()
            for tk in doomed:
                self._tombs[tk] = now + TOMBSTONE_SECONDS
            for key in [k for k in self._entries if k[0] in doomed]:
                self._remove(key)
            for tk in [t for t, until in self._tombs.items() if until < now]:
                del self._tombs[tk]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self.bytes = 0
            self._tombs.clear()

    async def aget(self, tk: bytes, ns: str) -> HotEntry | None:
        return self.get(tk, ns)

    async def aput(self, *args: Any, mark: Mark | None = None, **kwargs: Any) -> None:
        self._put(*args, **kwargs)
        await self._atrim()

    async def aadd_writes(self, *args: Any, mark: Mark | None = None, **kwargs: Any) -> None:
        self._add_writes(*args, **kwargs)
        await self._atrim()

    async def adrop(self, tks: Iterable[bytes]) -> None:
        self.drop(tks)

    def close(self) -> None:
        self.clear()

    async def aclose(self) -> None:
        self.clear()


# A write in flight marks its entry (a field ``x\0<nonce>`` holding the
# server time) before it reaches PostgreSQL, and its own entry script clears
# the mark. A reader finding any mark reads PostgreSQL, and a read's
# populate yields to it: so a write needs no Redis round trip of its own
# after PostgreSQL commits, yet no one reads an entry older than a write
# that has returned. A mark its writer never cleared (the process died) is
# cleared by the next write after MARK_STALE_SECONDS; a mark names the server
# lifetime it was set in, and one from another lifetime (restored from a
# snapshot) counts for nothing: entries of that lifetime are never served.
#
# Consecutive writes of one entry share a mark (a "burst"): a write that
# finds its entry marked by this process's earlier write, whose entry has
# not been sent yet, needs no mark of its own (it returns once the mark's
# reply is read, by whichever write of the burst needs it first), and the
# burst's entries are sent together, FLUSH_AFTER seconds after its last
# write returned (or at once, before a read of the entry in this process),
# folded (see compact), as one script (_BURST_LUA) that runs each entry's,
# checking the mark and leaving it, and clears the mark last. A turn of a graph (a handful of writes)
# so costs Redis one mark and one send instead of two each. A burst takes
# new writes for its first BURST_SECONDS; a writer that dies holding one
# leaves its mark, as any writer in flight does.
MARK_STALE_SECONDS = 300
FLUSH_AFTER = 0.005
BURST_SECONDS = 0.05
_MARK_LUA = """
local ok = redis.pcall('HSET', KEYS[1], ARGV[1], redis.call('TIME')[1])
if type(ok) == 'table' and ok.err then
  redis.call('DEL', KEYS[1])  -- Redis is full: no mark, so no entry either (a deletion frees memory)
  return 2
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""

# KEYS: entry, ns set (subgraphs only), tombstone.
# ARGV: checkpoint id, id it follows, ttl ms, populate flag, the writer's own
# mark field ('' if none; '=' before it: check it but leave it, a burst's
# entry), the server lifetime, n keep fields, keep fields..., then field/value
# pairs. The writer's mark goes last, so a script that fails half-way leaves it.
# Replace the entry unless a newer checkpoint is there (a populate also
# yields to a tombstone and to any write in flight). When the entry was
# the checkpoint this one follows, keep its blobs the new one still uses;
# keep writes stored for this checkpoint or a later one, and other writers'
# marks.
_OWN_MARK_LUA = """
local own = ARGV[{i}]
local keep_mark = string.sub(own, 1, 1) == '='
if keep_mark then own = string.sub(own, 2) end
local function done(r)
  if own ~= '' and not keep_mark then redis.call('HDEL', KEYS[1], own) end
  return r
end
"""
_PUT_LUA = _OWN_MARK_LUA.format(i=5) + f"""
if ARGV[4] == '1' and redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
-- a write's entry lands only while its mark is there: the thread was deleted meanwhile otherwise
if own ~= '' and redis.call('HEXISTS', KEYS[1], own) == 0 then return 0 end
local fields = redis.call('HKEYS', KEYS[1])
local now = tonumber(redis.call('TIME')[1])
local flux = false
local ours = 'x\\0' .. ARGV[6] .. '\\0'
for _, f in ipairs(fields) do
  if string.sub(f, 1, 2) == 'x\\0' then
    if f == own then
    elseif ARGV[4] ~= '1' and ((ARGV[6] ~= '' and not keep_mark and string.sub(f, 1, #ours) ~= ours)
        or now - tonumber(redis.call('HGET', KEYS[1], f)) > {MARK_STALE_SECONDS}) then
      redis.call('HDEL', KEYS[1], f)
    else
      flux = flux or ARGV[6] == '' or string.sub(f, 1, #ours) == ours
    end
  end
end
if ARGV[4] == '1' and flux then return 0 end
local cur = redis.call('HGET', KEYS[1], 'id')
if cur and cur > ARGV[1] then return done(0) end
local nkeep = tonumber(ARGV[7])
local keep = {{}}
if cur and (cur == ARGV[2] or cur == ARGV[1]) then
  for i = 1, nkeep do keep[ARGV[7 + i]] = true end
end
local n = #ARGV[1]
for _, f in ipairs(fields) do
  local kind = string.sub(f, 1, 2)
  local later_write = kind == 'w\\0' and string.sub(f, 3, 2 + n) >= ARGV[1]
  if not keep[f] and not later_write and kind ~= 'x\\0' then redis.call('HDEL', KEYS[1], f) end
end
redis.call('HSET', KEYS[1], 'id', ARGV[1])
for i = 8 + nkeep, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if KEYS[2] ~= '' then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[3])
end
return done(1)
"""

# KEYS: entry, ns set. ARGV: checkpoint id, ttl ms, upsert flag, the
# writer's own mark field (as for _PUT_LUA), pairs...
_ADD_WRITES_LUA = _OWN_MARK_LUA.format(i=4) + """
if own ~= '' and redis.call('HEXISTS', KEYS[1], own) == 0 then return 0 end
local cur = redis.call('HGET', KEYS[1], 'id')
if cur and cur > ARGV[1] then return done(0) end
for i = 5, #ARGV, 2 do
  if ARGV[3] == '1' then redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  else redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
if not cur then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if KEYS[2] ~= '' then
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return done(1)
"""


class _RedisCodec:
    """Field layout of a hot entry in a Redis hash."""

    def __init__(self, keyring: KeyRing, prefix: str) -> None:
        self.keyring = keyring
        self.prefix = prefix

    def key(self, tk: bytes, ns: str) -> str:
        return f"{self.prefix}cp:{tk.hex()}{_ns_suffix(ns)}"

    def ns_set(self, tk: bytes, ns: str) -> str:
        return f"{self.prefix}cpns:{tk.hex()}" if ns else ""

    def tomb(self, tk: bytes) -> str:
        return f"{self.prefix}cptomb:{tk.hex()}"

    @staticmethod
    def blob_field(k: BlobKey) -> bytes:
        return b"b\x00" + k[0].encode() + b"\x00" + k[1].encode()

    @staticmethod
    def write_field(cid: str, k: WriteKey) -> bytes:
        parts = (cid.encode(), k[0].encode(), str(k[1]).encode(), k[2].encode(), k[3].encode())
        return b"w\x00" + b"\x00".join(parts)

    @staticmethod
    def mark_field(epoch: str | None) -> bytes:
        return b"x\x00" + (epoch or "").encode() + b"\x00" + os.urandom(12).hex().encode()

    def _meta_aad(self, tk: bytes, ns: str) -> bytes:
        return aad("hot-meta", tk, ns)

    def encode(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None,
        populate: bool,
        mark: Mark | None = None,
    ) -> tuple[list[str], list[Any]]:
        meta = ormsgpack.packb(
            [
                entry.parent_id,
                entry.branch,
                entry.level,
                entry.status,
                entry.fork_pending,
                entry.owner,
                entry.head_level,
                entry.tainted,
                entry.epoch,
            ]
        )
        fields: list[Any] = [b"m", self.keyring.encrypt(meta, self._meta_aad(tk, ns)), b"p", entry.payload]
        for bk, blob in entry.blobs.items():
            fields += [self.blob_field(bk), blob]
        for wk, blob in entry.writes.items():
            fields += [self.write_field(entry.checkpoint_id, wk), blob]
        keep_fields = [self.blob_field(k) for k in keep]
        keys = [self.key(tk, ns), self.ns_set(tk, ns), self.tomb(tk)]
        args = [
            entry.checkpoint_id,
            prev or "",
            int(ttl * 1000),
            "1" if populate else "0",
            mark.field if mark is not None else b"",
            entry.epoch or "",
            len(keep_fields),
            *keep_fields,
            *fields,
        ]
        return keys, args

    def decode(self, tk: bytes, ns: str, raw: Mapping[bytes, bytes], epoch: str | None) -> HotEntry | None:
        """The entry, or None when there is none or a write of the server
        lifetime ``epoch`` is in flight (PostgreSQL answers)."""
        if not raw or b"id" not in raw or b"m" not in raw or b"p" not in raw or epoch is None:
            return None
        ours = b"x\x00" + epoch.encode() + b"\x00"
        if any(f.startswith(ours) for f in raw):
            return None
        try:
            parent, branch, level, status, pending, owner, head_level, tainted, epoch = ormsgpack.unpackb(
                self.keyring.decrypt(raw[b"m"], self._meta_aad(tk, ns))
            )
        except (TamperedDataError, ValueError):  # also an entry from an older release
            log.warning("a hot-tier entry failed to open; reading PostgreSQL instead")
            return None
        cid = raw[b"id"]
        blobs: dict[BlobKey, bytes] = {}
        writes: dict[WriteKey, bytes] = {}
        for f, v in raw.items():
            if f.startswith(b"b\x00"):
                _, ch, ver = f.split(b"\x00", 2)
                blobs[(ch.decode(), ver.decode())] = v
            elif f.startswith(b"w\x00"):
                _, wcid, task_id, idx, ch, path = f.split(b"\x00", 5)
                if wcid == cid:
                    writes[(task_id.decode(), int(idx), ch.decode(), path.decode())] = v
        return HotEntry(
            cid.decode(),
            parent,
            raw[b"p"],
            branch,
            level,
            status,
            pending,
            blobs,
            writes,
            owner,
            head_level,
            tainted,
            epoch,
        )

    def writes_call(
        self,
        tk: bytes,
        ns: str,
        checkpoint_id: str,
        writes: Mapping[WriteKey, bytes],
        ttl: float,
        upsert: bool,
        mark: Mark | None = None,
    ) -> tuple[list[str], list[Any]]:
        args: list[Any] = [
            checkpoint_id,
            int(ttl * 1000),
            "1" if upsert else "0",
            mark.field if mark is not None else b"",
        ]
        for k, blob in writes.items():
            args += [self.write_field(checkpoint_id, k), blob]
        return [self.key(tk, ns), self.ns_set(tk, ns)], args

    def drop_keys(self, tk: bytes, members: Iterable[bytes]) -> list[Any]:
        return [self.key(tk, ""), f"{self.prefix}cpns:{tk.hex()}", *members]


MAX_LANES = 64


Held = tuple[str, list[Any], list[Any]]  # an entry script held in a burst: source, keys, arguments


def compact(held: Sequence[Held]) -> list[Held]:
    """A burst's entry scripts, fewer, leaving the entry as the given ones
    would, run in order: pending writes for a checkpoint older than one a
    later script puts are dropped (that script deletes them), and a
    checkpoint followed by its child is folded into the child's script,
    which then carries the parent's blobs it keeps (and keeps from the entry
    only the rest). The layout of the arguments is :meth:`_RedisCodec.encode`'s
    and :meth:`_RedisCodec.writes_call`'s."""
    out: list[Held] = []
    child: list[Any] | None = None  # arguments of the next checkpoint's script, in run order
    newest = ""  # the newest checkpoint id a later script puts
    for lua, keys, args in reversed(held):
        if lua is not _PUT_LUA:
            if args[0] >= newest:
                out.append((lua, keys, args))
            continue
        cid, prev, populate, nkeep = args[0], args[1], args[3], args[6]
        if child is not None and child[1] == cid and populate == "0" and child[3] == "0":
            ckeep = child[7 : 7 + child[6]]
            cpairs = child[7 + child[6] :]
            cfields = set(cpairs[0::2])
            wanted = set(ckeep)
            moved: list[Any] = []
            pairs = args[7 + nkeep :]
            for f, v in zip(pairs[0::2], pairs[1::2], strict=True):
                if f.startswith(b"b\x00") and f in wanted and f not in cfields:
                    moved += [f, v]
            gone = set(moved[0::2])
            keep = [f for f in ckeep if f not in gone]
            child[:] = [*child[:1], prev, *child[2:6], len(keep), *keep, *cpairs, *moved]
            continue
        child = list(args)
        newest = max(newest, cid)
        out.append((lua, keys, child))
    out.reverse()
    return out


def max_lanes(pool: Any) -> int:
    """How many connections the tier may hold as lanes: at most half of
    the client's pool (redis-py's default is 100 connections), so the
    client's own commands always find one; none from a pool of one, whose
    only connection the client needs (the tier then writes through the
    client, waiting for each write, as with a cluster client)."""
    limit = getattr(pool, "max_connections", None) or 2 * MAX_LANES
    return min(MAX_LANES, limit // 2)


_BUSY: Any = object()  # _take's answer when every lane stayed busy for Redis's timeout


class _Lane:
    """A Redis connection the tier holds, with the threads whose write
    replies it has yet to read: a write's reply is read at the lane's next
    use, off the call that sent it."""

    __slots__ = ("conn", "owed")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.owed: list[bytes] = []


def _hash(raw: Any) -> Mapping[bytes, bytes]:
    """HGETALL's reply as read off a connection (RESP2 sends a flat list)."""
    return raw if isinstance(raw, dict) else dict(zip(raw[::2], raw[1::2], strict=True))


# The I/O a tier's plan asks for, performed by RedisHotTier._io (sync) or
# AsyncRedisHotTier._io (async): (what, connection, arguments).
_OPEN, _SEND, _READ, _CAN_READ, _RECONNECT, _RELEASE, _DROP, _READY, _CLIENT, _WAIT, _SEND_MANY, _AWAIT_MARK, _PAY = range(13)
Step = tuple[int, Any, tuple[Any, ...]]
Plan = Generator[Step, Any, Any]


# One burst in one script: KEYS as _PUT_LUA's; ARGV: the burst's mark, then
# per held script 'p' (an entry) or 'w' (pending writes), its argument count
# and its arguments (as _PUT_LUA's or _ADD_WRITES_LUA's, the mark as '='+mark).
# The mark is cleared last, so a burst Redis refuses (out of memory: refused
# at its first write, and a script that has written runs to its end) or that
# fails half-way leaves it, and readers go to PostgreSQL.
_BURST_LUA = f"""
local function put_entry(KEYS, ARGV)
{_PUT_LUA}
end
local function add_writes(KEYS, ARGV)
{_ADD_WRITES_LUA}
end
local i = 2
while i <= #ARGV do
  local n = tonumber(ARGV[i + 1])
  local args = {{}}
  for j = 1, n do args[j] = ARGV[i + 1 + j] end
  if ARGV[i] == 'p' then put_entry(KEYS, args) else add_writes(KEYS, args) end
  i = i + 2 + n
end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""


class _RedisTierPlans:
    """Hot entries in Redis: every operation written once, as a plan of
    Redis I/O steps that the sync tier and its async twin each run (an
    error a step raises is thrown back into the plan at that step). Redis
    errors never fail a call: reads go to PostgreSQL, and writes and
    deletions that fail are owed (see :class:`~langgraph_trustmem.services.RedisFence`):
    nothing older than the last acknowledged write, and nothing deleted, is
    ever served, whatever Redis does.

    A write costs no round trip of its own: its mark travels while
    PostgreSQL works, and its entry is sent after and its reply read later,
    on one of the tier's lanes (a client without a connection pool, such as
    a cluster client, waits for each write instead). Consecutive writes of
    one entry share the first one's mark and are sent together (a burst,
    see FLUSH_AFTER)."""

    def __init__(self, client: Any, keyring: KeyRing, prefix: str, is_async: bool) -> None:
        self.client = client
        self.codec = _RedisCodec(keyring, prefix)
        self._put_script = client.register_script(_PUT_LUA)
        self._add_script = client.register_script(_ADD_WRITES_LUA)
        self._errors = REDIS_ERRORS
        self.fence = RedisFence()
        watch_connections(client, self.fence, is_async=is_async)
        self._pool: Any = getattr(client, "connection_pool", None)
        self._lanes: list[_Lane] = []  # idle
        self._lanes_lock = threading.Lock()
        self._open = 0  # lanes taken or idle
        self._max_lanes = max_lanes(self._pool)
        self._laned = self._pool is not None and self._max_lanes > 0  # else every command goes through the client
        self._bursts: dict[str, _Burst] = {}  # by entry key; guarded by _lanes_lock

    @property
    def pending(self) -> int:
        """Threads whose Redis entries this process still owes a deletion."""
        return len(self.fence.pending)

    # -- lanes -------------------------------------------------------------

    def _take(self) -> Plan:
        """An idle lane with its owed replies read, or a new one; when the
        tier has all the lanes it may open and every one is busy, the first
        given back (None if none is within Redis's timeout: the caller goes
        without, as when Redis is down)."""
        while True:
            with self._lanes_lock:
                lane = self._lanes.pop() if self._lanes else None
                new = lane is None and self._open < self._max_lanes
                self._open += new
            if lane is not None:
                if (yield from self._settle(lane)):
                    break
                if self.fence.cooling:
                    return None
            elif new:
                break
            elif not (yield _WAIT, None, ()):
                return _BUSY
        if lane is None:
            try:
                lane = _Lane((yield _OPEN, None, ()))
            except BaseException as exc:
                self._closed(1)
                if not isinstance(exc, self._errors):
                    raise
                self.fence.failed(())
                return None
        try:  # as the pool checks what it hands out: a connection the server closed is opened again
            try:
                closed = yield _CAN_READ, lane.conn, ()
            except self._errors:
                closed = True
            if closed:
                yield _RECONNECT, lane.conn, ()
        except BaseException as exc:
            yield from self._lost(lane, exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return None
        return lane

    def _settle(self, lane: _Lane) -> Plan:
        try:
            while lane.owed:
                yield _READ, lane.conn, ()
                lane.owed.pop()
        except BaseException as exc:  # (an error reply too: an entry script Redis refused)
            # a timeout or a lost connection leaves Redis alone for a while (each idle lane
            # would otherwise cost its own timeout); an error reply does not
            yield from self._lost(lane, list(lane.owed), exc=exc, cool=not isinstance(exc, ResponseError))
            if not isinstance(exc, self._errors):
                raise
            return False
        return True

    def _give(self, lane: _Lane) -> None:
        with self._lanes_lock:
            self._lanes.append(lane)
            self._wake()

    def _closed(self, n: int) -> None:
        """``n`` lanes were closed: as many more may be opened (by as many waiters)."""
        with self._lanes_lock:
            self._open -= n
            self._wake(n)

    def _wake(self, n: int = 1) -> None:
        """Wake ``n`` callers waiting for a lane (called holding the lock)."""
        raise NotImplementedError

    def _schedule(self) -> None:
        """See that every burst is sent FLUSH_AFTER after its last write
        (called without the lock)."""
        raise NotImplementedError

    # -- bursts ------------------------------------------------------------

    def _join(self, key: str) -> _Burst | None:
        """The burst a new write of ``key`` may share (called holding the lock)."""
        b = self._bursts.get(key)
        if (
            b is None
            or b.doubtful
            or b.state == _FAILED
            or b.epoch != self.fence.epoch
            or self.fence.cooling
            or time.monotonic() - b.opened > BURST_SECONDS
        ):
            return None
        b.inflight += 1
        return b

    def _next_due(self) -> float | None:
        """When the next burst falls due, if any (called holding the lock)."""
        return min((b.last + FLUSH_AFTER for b in self._bursts.values() if not b.inflight), default=None)

    def _next_round(self) -> float | None:
        """When the flusher has work next: a burst falls due, or owed deletions
        may be tried (Redis's cooldown is over); None when neither (called
        holding the lock)."""
        due = self._next_due()
        if not self.fence.pending:
            return due
        return self.fence.down_until if due is None else min(due, self.fence.down_until)

    def _claim(self, key: str, force: bool = False) -> _Burst | None:
        """Take a burst out to send it: once no write of it is in flight,
        and (unless ``force``) FLUSH_AFTER after its last one."""
        with self._lanes_lock:
            b = self._bursts.get(key)
            if b is None or b.inflight or (not force and time.monotonic() < b.last + FLUSH_AFTER):
                return None
            del self._bursts[key]
            b.closed = True
            return b

    def _settled(self, mark: Mark) -> Plan:
        """Whether a burst's mark is in Redis. The first write of the burst
        that needs to know reads the reply off the mark's lane (so a write
        never waits for another's PostgreSQL part) and gives the lane back;
        one that finds another reading waits for it (REDIS_TIMEOUT at most:
        past it, the entry is owed a deletion)."""
        b = mark.burst
        assert b is not None
        while True:
            with self._lanes_lock:
                if b.state != _SENT:
                    break
                mine = not b.reading
                b.reading = True
            if mine:
                ok = False
                try:
                    ok = yield from self._confirmed(Mark(b.lane, b.tk, b.key, b.mark, b.epoch))
                finally:  # (cancelled too: the others stop waiting; the entry is owed a deletion)
                    with self._lanes_lock:
                        b.state, b.reading = (_CONFIRMED if ok else _FAILED), False
                        self._wake_marked(b)
                if ok:
                    self._give(b.lane)  # (failed: _confirmed dropped it)
                break
            yield _AWAIT_MARK, None, (b,)
            if b.state == _SENT:
                self.fence.owe([b.tk])
                return False
        return b.state == _CONFIRMED

    def _wake_marked(self, b: _Burst) -> None:
        """Wake the writes waiting for a burst's mark (called holding the lock)."""
        raise NotImplementedError

    def _leave(self, b: _Burst, doubtful: bool) -> None:
        """A write sharing the burst's mark returns with no entry of its own
        (``doubtful``: it may have been committed, so the entry is deleted
        instead of sent)."""
        with self._lanes_lock:
            b.inflight -= 1
            b.last = time.monotonic()
            b.doubtful |= doubtful
        self._schedule()

    def _defer(self, b: _Burst, tk: bytes, lua: str, encode: Callable[..., Any]) -> Plan:
        """A write under a burst's mark returned from PostgreSQL: its entry
        joins the burst, checking the mark and leaving it."""
        try:
            keys, args = encode(b.epoch, Mark(None, tk, b.key, b"=" + b.mark, b.epoch))
        except BaseException:
            with self._lanes_lock:
                b.inflight -= 1
                b.doubtful = True  # its checkpoint is in PostgreSQL, its entry nowhere: the entry goes
                b.last = time.monotonic()
            yield from self._flush(b.key, force=True)  # now, unless another write of it is in flight
            self._schedule()
            raise
        with self._lanes_lock:
            b.inflight -= 1
            b.last = time.monotonic()
            if not b.closed:  # (closed: its thread was deleted meanwhile, with the mark)
                b.pending.append((lua, keys, args))
        self._schedule()

    def _send_burst(self, b: _Burst, lane: _Lane, then: tuple[Any, ...] | None = None) -> Plan:
        """Send a claimed burst's entries as one script that clears the mark
        last (_BURST_LUA), on ``lane`` (with ``then`` after it, whose reply
        the caller reads); its reply is owed, and an error reply owes the
        entry a deletion. False if the lane was lost."""
        args: list[Any] = [b.mark]
        for lua, _keys, held in compact(b.pending):
            args += ["p" if lua is _PUT_LUA else "w", len(held), *held]
        keys = [b.key, self.codec.ns_set(b.tk, b.ns), self.codec.tomb(b.tk)]
        commands = [("EVAL", _BURST_LUA, len(keys), *keys, *args)]
        try:
            yield _SEND_MANY, lane.conn, (*commands, *((then,) if then else ()))
        except BaseException as exc:
            yield from self._lost(lane, [b.tk], exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return False
        lane.owed.append(b.tk)
        return True

    def _flush(self, key: str, force: bool = False) -> Plan:
        """Send one burst, if it is due (``force``: as soon as no write of it is in flight)."""
        b = self._claim(key, force)
        if b is None or b.state == _FAILED:  # (failed: the entry is owed a deletion already)
            return
        if b.doubtful:
            yield from self._unmarked(b.tk)
            return
        try:
            lane = yield from self._ready_lane()
        except BaseException:
            self.fence.owe([b.tk])  # (cancelled) its entries are gone: so is the entry, before Redis is used again
            raise
        if lane is None or lane is _BUSY:
            self.fence.owe([b.tk])  # the mark stays until the entry is deleted, before Redis is used again
            return
        if b.epoch != self.fence.epoch:  # (looked up again for this lane) Redis restarted, or failed over:
            self._give(lane)  # the burst is not sent there, and the entry there may be an older refill: it goes
            yield from self._unmarked(b.tk)
            return
        if (yield from self._send_burst(b, lane)):
            self._give(lane)

    def _flush_due(self) -> Plan:
        """The flusher's round: send every burst that is due, then do the
        owed deletions if Redis's cooldown is over; when the next round is
        (or None)."""
        now = time.monotonic()
        with self._lanes_lock:
            due = [k for k, b in self._bursts.items() if not b.inflight and b.last + FLUSH_AFTER <= now]
        for key in due:
            yield from self._flush(key)
        yield from self._pay_owed()
        with self._lanes_lock:
            return self._next_round()

    def _pay_owed(self) -> Plan:
        """Owed deletions done as soon as Redis takes calls again, not at
        this process's next call: until they are done, another process can
        read an entry they condemn (an older refill made after a restart).
        Tried again after each cooldown while Redis stays away."""
        if not self.fence.pending or self.fence.cooling:
            return
        yield from self._drain()  # (no write sent earlier lands after a deletion)
        if (yield _PAY, None, ()):  # _READY, its failure logged once per outage, not once a try
            log.info("hot tier reachable again; owed deletions done")

    def _lost(
        self, lane: _Lane, tks: Iterable[bytes] = (), exc: BaseException | None = None, cool: bool = True
    ) -> Plan:
        """A lane left mid-reply (its connection failed, or the call was
        interrupted): the threads of the call itself are owed deletions (a
        mark may not have reached Redis), and a Redis error met by a call
        leaves Redis alone for a while. The writes whose replies the lane
        still owed need nothing: each left its mark, which only its own
        script clears, last, so an entry that did not land stays marked
        until a later write replaces it."""
        owed = list(tks)
        if cool and (exc is None or isinstance(exc, self._errors)):
            log.warning("hot tier write failed; its entry is owed a deletion")
            self.fence.failed(owed)
        else:
            self.fence.owe(owed)
        try:
            yield _DROP, lane.conn, ()
        finally:
            self._closed(1)

    def _drain(self) -> Plan:
        """Read every idle lane's owed replies: before a deletion, so no
        write sent earlier lands after it. Interrupted (a cancelled call),
        the lanes not yet read go back idle."""
        with self._lanes_lock:
            lanes, self._lanes = self._lanes, []
        pending = lanes[::-1]
        try:
            while pending:
                lane = pending.pop()
                if (yield from self._settle(lane)):
                    self._give(lane)
        finally:
            for lane in pending:
                self._give(lane)

    def _call(self, lane: _Lane, *command: Any) -> Plan:
        """One command and its reply on a lane (a read: nothing is owed if it fails)."""
        try:
            yield _SEND, lane.conn, command
        except BaseException as exc:
            yield from self._lost(lane, exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return None
        return (yield from self._reply(lane))

    def _reply(self, lane: _Lane) -> Plan:
        """A read's reply, after the replies the lane owes; the lane is given back."""
        try:
            while lane.owed:
                yield _READ, lane.conn, ()
                lane.owed.pop()
            reply = yield _READ, lane.conn, ()
        except BaseException as exc:
            yield from self._lost(lane, list(lane.owed), exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return None
        self._give(lane)
        return reply

    def _confirmed(self, mark: Mark) -> Plan:
        """Whether Redis ran the mark: a write returns only once it has."""
        try:
            yield _READ, mark.lane.conn, ()
        except BaseException as exc:
            yield from self._lost(mark.lane, [mark.tk], exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return False
        return True

    def _send(self, mark: Mark, *command: Any) -> Plan:
        """Send a write on the mark's lane; its reply is read at the lane's
        next use."""
        try:
            yield _SEND, mark.lane.conn, command
        except BaseException as exc:
            yield from self._lost(mark.lane, [mark.tk], exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return
        mark.lane.owed.append(mark.tk)
        self._give(mark.lane)

    def _ready_lane(self) -> Plan:
        """A lane, once Redis is trusted (the lifetime is looked up after the
        lane was opened), or None (``_BUSY`` when every lane stayed busy)."""
        lane = yield from self._take()
        if lane is None or lane is _BUSY:
            return lane
        try:
            ready = yield _READY, None, ()
        except BaseException:
            self._give(lane)  # (cancelled: nothing was sent on it)
            raise
        if not ready:
            self._give(lane)
            return None
        return lane

    def _client(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Plan:
        """A command through the client itself (no lanes: a cluster client)."""
        return (yield _CLIENT, fn, (args, kwargs))

    # -- the tier ----------------------------------------------------------

    def _get(self, tk: bytes, ns: str) -> Plan:
        if self.fence.cooling:
            return None
        key = self.codec.key(tk, ns)
        if self._laned:
            with self._lanes_lock:
                b = self._bursts.get(key)
                if b is not None and (b.inflight or b.doubtful):
                    return None  # a write in flight: PostgreSQL answers
            b = self._claim(key, force=True) if b is not None else None
            try:
                lane = yield from self._ready_lane()  # its earlier writes land before this read
            except BaseException:
                if b is not None:
                    self.fence.owe([b.tk])
                raise
            if lane is None or lane is _BUSY:
                if b is not None:
                    self.fence.owe([b.tk])
                return None
            epoch = self.fence.epoch
            if b is not None and b.state != _FAILED and b.epoch != epoch:  # as in _flush: not sent, the entry goes
                self._give(lane)
                yield from self._unmarked(b.tk)
                return None
            if b is not None and b.state != _FAILED:  # this process's entries not yet sent go first, in the same write
                if not (yield from self._send_burst(b, lane, ("HGETALL", key))):
                    return None
                raw = yield from self._reply(lane)
            else:
                raw = yield from self._call(lane, "HGETALL", key)
            return None if raw is None else self.fence.current(self.codec.decode(tk, ns, _hash(raw), epoch), epoch)
        if not (yield _READY, None, ()):
            return None
        try:
            raw = yield from self._client(self.client.hgetall, key)
        except self._errors:
            self.fence.failed(())
            log.warning("hot tier unavailable; reading PostgreSQL")
            return None
        return self.fence.current(self.codec.decode(tk, ns, raw, self.fence.epoch))

    def _mark(self, tk: bytes, ns: str, ttl: float) -> Plan:
        """Mark the entry before a write reaches PostgreSQL (its reply is
        read by ``put``, ``add_writes`` or ``unmark``)."""
        if not self._laned:
            return None
        key = self.codec.key(tk, ns)
        with self._lanes_lock:
            b = self._join(key)
        if b is not None:
            return Mark(None, tk, key, b.mark, b.epoch, b)
        if (lane := (yield from self._ready_lane())) is None:
            return None
        if lane is _BUSY:  # no mark: the write deletes the entry instead (see _unmarked)
            return Mark(None, tk, self.codec.key(tk, ns), b"", None)
        mark = Mark(lane, tk, key, self.codec.mark_field(self.fence.epoch), self.fence.epoch)
        try:
            yield _SEND, lane.conn, ("EVAL", _MARK_LUA, 1, mark.key, mark.field, int(ttl * 1000))
        except BaseException as exc:
            yield from self._lost(lane, [tk], exc=exc)
            if not isinstance(exc, self._errors):
                raise
            return None
        with self._lanes_lock:  # later writes of the entry share this mark
            if key not in self._bursts and mark.epoch == self.fence.epoch:
                now = time.monotonic()
                mark.burst = self._bursts[key] = _Burst(tk, key, mark.field, mark.epoch, now, now, 1, lane, ns=ns)
        return mark

    def _unmark(self, mark: Mark | None, clear: bool = True) -> Plan:
        """The marked write did not return: clear its mark when PostgreSQL
        refused it, or keep it (its lane given back) when the write may have
        been committed, so readers go to PostgreSQL until a later write."""
        if mark is not None and mark.burst is not None:
            try:
                if mark.lane is not None:
                    yield from self._settled(mark)
            finally:
                self._leave(mark.burst, doubtful=not clear)
        elif mark is not None and mark.lane is None:
            yield from self._unmarked(mark.tk)
        elif mark is not None and (yield from self._confirmed(mark)):
            if clear:
                yield from self._send(mark, "HDEL", mark.key, mark.field)
            else:
                self._give(mark.lane)

    def _write(self, tk: bytes, mark: Mark | None, lua: str, script: Any, encode: Callable[..., Any]) -> Plan:
        """A write's entry: on the marked lane once its mark is confirmed, or
        through the client (no lanes, or Redis was not trusted at the mark).
        ``encode(epoch, mark)`` gives the script's keys and arguments."""
        if mark is not None and mark.burst is not None:
            deferred = False
            try:
                if (yield from self._settled(mark)):
                    deferred = True  # (_defer counts the write out itself)
                    yield from self._defer(mark.burst, tk, lua, encode)
            finally:
                if not deferred:  # the mark failed, or the call was cancelled: no entry for this write
                    self._leave(mark.burst, doubtful=True)
            return
        if mark is not None and mark.lane is None:
            yield from self._unmarked(tk)
            return
        if mark is not None:
            if (yield from self._confirmed(mark)):
                try:
                    keys, args = encode(mark.epoch, mark)
                except BaseException:
                    self._give(mark.lane)
                    yield from self._unmarked(tk)  # the entry is deleted: readers go to PostgreSQL
                    raise
                yield from self._send(mark, "EVAL", lua, len(keys), *keys, *args)
            return
        if not (yield _READY, None, ()):
            self.fence.owe([tk])  # the entry there may now be stale
            return
        keys, args = encode(self.fence.epoch, None)
        try:
            yield from self._client(script, keys=keys, args=args)
        except self._errors:
            log.warning("hot tier write failed; its entry is owed a deletion")
            self.fence.failed([tk])

    def _unmarked(self, tk: bytes) -> Plan:
        """A write that found every lane busy went to PostgreSQL unmarked:
        its thread's entry is deleted (a tombstone keeps a reader's refill
        out) before the write returns, rather than replaced, so a thread
        deleted meanwhile by another process stays deleted."""
        try:
            yield from self._drop_now([tk])
        except self._errors:
            log.warning("hot tier unreachable; the deletion is owed")
            self.fence.failed([tk])
        except BaseException:  # (cancelled) owed, never forgotten
            self.fence.owe([tk])
            raise

    def _put(
        self,
        tk: bytes,
        ns: str,
        entry: HotEntry,
        keep: Iterable[BlobKey],
        ttl: float,
        prev: str | None = None,
        populate: bool = False,
        mark: Mark | None = None,
    ) -> Plan:
        def encode(epoch: str | None, mark: Mark | None) -> Any:
            return self.codec.encode(tk, ns, replace(entry, epoch=epoch), keep, ttl, prev, populate, mark)

        yield from self._write(tk, mark, _PUT_LUA, self._put_script, encode)

    def _add_writes(
        self,
        tk: bytes,
        ns: str,
        checkpoint_id: str,
        writes: Mapping[WriteKey, bytes],
        ttl: float = 3600.0,
        upsert: bool = False,
        mark: Mark | None = None,
    ) -> Plan:
        if not writes:
            yield from self._unmark(mark)
            return

        def encode(epoch: str | None, mark: Mark | None) -> Any:
            return self.codec.writes_call(tk, ns, checkpoint_id, writes, ttl, upsert, mark)

        yield from self._write(tk, mark, _ADD_WRITES_LUA, self._add_script, encode)

    def _drop(self, tks: Iterable[bytes]) -> Plan:
        """Delete threads' entries (leaving tombstones); on a Redis error the
        deletion is owed and done before Redis is used again."""
        tks = list(tks)
        self._forget_bursts(tks)
        if self.fence.cooling:
            self.fence.owe(tks)
            return
        yield from self._drain()
        try:
            yield from self._drop_now(tks)
        except self._errors:
            log.warning("hot tier unreachable; the deletion is owed")
            self.fence.failed(tks)

    def _forget_bursts(self, tks: Sequence[bytes]) -> None:
        """Deleted threads' entries are never sent: their marks go with them."""
        gone = set(tks)
        with self._lanes_lock:
            for key in [k for k, b in self._bursts.items() if b.tk in gone]:
                self._bursts.pop(key).closed = True

    def _drop_now(self, tks: Sequence[bytes]) -> Plan:
        for tk in tks:
            members = yield from self._client(self.client.smembers, f"{self.codec.prefix}cpns:{tk.hex()}")
            pipe = self.client.pipeline(transaction=True)
            pipe.set(self.codec.tomb(tk), b"1", px=int(TOMBSTONE_SECONDS * 1000))
            pipe.delete(*self.codec.drop_keys(tk, members))
            yield from self._client(pipe.execute)

    def _close(self) -> Plan:
        with self._lanes_lock:
            keys = list(self._bursts)
        for key in keys:  # (one still in flight keeps its mark: readers go to PostgreSQL)
            yield from self._flush(key, force=True)
        yield from self._drain()
        with self._lanes_lock:
            lanes, self._lanes = self._lanes, []
        self._closed(len(lanes))
        for lane in lanes:
            yield _RELEASE, lane.conn, ()


class RedisHotTier(_RedisTierPlans):
    """Hot entries in Redis (sync client): runs the plans of
    :class:`_RedisTierPlans`."""

    def __init__(self, client: Any, keyring: KeyRing, prefix: str = "trustmem:") -> None:
        super().__init__(client, keyring, prefix, is_async=False)
        self._freed = threading.Condition(self._lanes_lock)
        self._waiting = 0
        self._due = threading.Condition(self._lanes_lock)
        self._marked = threading.Condition(self._lanes_lock)
        self._flusher: threading.Thread | None = None
        self._flusher_idle = False  # waiting with no burst to time
        self._closing = False
        ref = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: _forked(ref()))

    def _lane_free(self) -> bool:
        return bool(self._lanes) or self._open < self._max_lanes

    def _wake(self, n: int = 1) -> None:
        if self._waiting and n > 0:
            self._freed.notify(n)

    def _wake_marked(self, b: _Burst) -> None:
        self._marked.notify_all()

    def _reset_after_fork(self) -> None:
        self._lanes_lock = threading.Lock()
        self._freed = threading.Condition(self._lanes_lock)
        self._due = threading.Condition(self._lanes_lock)
        self._marked = threading.Condition(self._lanes_lock)
        self._lanes, self._open, self._waiting, self._bursts = [], 0, 0, {}
        self._flusher, self._flusher_idle = None, False
        self.fence.lock = threading.Lock()
        self.fence.epoch = None  # looked up again by the child's first call

    def _schedule(self) -> None:
        with self._lanes_lock:
            if self._closing:
                return
            if self._flusher is None:
                self._flusher = threading.Thread(target=self._flush_loop, name="trustmem-hot-flush", daemon=True)
                self._flusher.start()
            elif self._flusher_idle:
                self._flusher_idle = False
                self._due.notify()

    def _flush_loop(self) -> None:
        """Send each burst when it falls due, and do owed deletions when
        Redis is back, until the tier closes or has had nothing to do for a
        second."""
        while True:
            with self._lanes_lock:
                while True:  # (the next due time looked up under the lock each time: no wake-up is missed)
                    if self._closing:
                        return
                    nxt, now = self._next_round(), time.monotonic()
                    if nxt is not None and nxt <= now:
                        break
                    self._flusher_idle = nxt is None or nxt - now > FLUSH_AFTER  # (a new burst wakes it)
                    woken = self._due.wait(1.0 if nxt is None else nxt - now)
                    if not woken and nxt is None and self._next_round() is None:
                        self._flusher, self._flusher_idle = None, False  # idle: the next burst or debt starts another
                        return
            try:
                self._run(self._flush_due())
            except Exception as exc:  # never seen; the thread must outlive it (the marks stay: readers go to PostgreSQL)
                log.error("hot tier: sending held entries failed (%s)", type(exc).__name__)  # (no text: no values)
                with self._lanes_lock:  # no round repeats it at once (close() or a new burst wakes it)
                    if not self._closing:
                        self._flusher_idle = True
                        self._due.wait(RedisFence.COOLDOWN)

    def _run(self, plan: Plan) -> Any:
        try:
            step = next(plan)
            while True:
                try:
                    out = self._io(step)
                except BaseException as exc:
                    step = plan.throw(exc)
                else:
                    step = plan.send(out)
        except StopIteration as done:
            return done.value
        finally:
            if self.fence.pending:  # the flusher does them once Redis is back
                self._schedule()

    def _io(self, step: Step) -> Any:
        what, conn, args = step
        if what == _SEND:
            return conn.send_command(*args)
        if what == _SEND_MANY:
            return conn.send_packed_command(conn.pack_commands(args))
        if what == _AWAIT_MARK:
            with self._marked:
                return self._marked.wait_for(lambda: args[0].state != _SENT, REDIS_TIMEOUT)
        if what == _READ:
            return conn.read_response()
        if what == _CAN_READ:
            return conn.can_read()
        if what in (_READY, _PAY):
            return self.fence.ready(self.client, lambda tks: self._run(self._drop_now(tks)), "hot tier", quiet=what == _PAY)
        if what == _WAIT:
            with self._freed:
                self._waiting += 1
                try:
                    return self._freed.wait_for(self._lane_free, REDIS_TIMEOUT)
                finally:
                    self._waiting -= 1
        if what == _OPEN:
            return self._pool.get_connection()
        if what == _RECONNECT:
            conn.disconnect()
            return conn.connect()
        if what == _DROP:
            conn.disconnect()
            return self._pool.release(conn)
        if what == _RELEASE:
            return self._pool.release(conn)
        return conn(*args[0], **args[1])  # _CLIENT: conn is the client's method

    def get(self, tk: bytes, ns: str) -> HotEntry | None:
        return cast("HotEntry | None", self._run(self._get(tk, ns)))

    def mark(self, tk: bytes, ns: str, ttl: float) -> Mark | None:
        return cast("Mark | None", self._run(self._mark(tk, ns, ttl)))

    def unmark(self, mark: Mark | None, clear: bool = True) -> None:
        self._run(self._unmark(mark, clear))

    def put(self, *args: Any, **kwargs: Any) -> None:
        self._run(self._put(*args, **kwargs))

    def add_writes(self, *args: Any, **kwargs: Any) -> None:
        self._run(self._add_writes(*args, **kwargs))

    def drop(self, tks: Iterable[bytes]) -> None:
        self._run(self._drop(tks))

    def close(self) -> None:
        with self._lanes_lock:
            self._closing = True
            self._due.notify()
            flusher, self._flusher = self._flusher, None
        if flusher is not None and flusher is not threading.current_thread():
            flusher.join()
        self._run(self._close())
        self.client.close()


_INHERITED: list[Any] = []  # a forked child's copies of its parent's asyncio connections


def _forked(tier: RedisHotTier | AsyncRedisHotTier | None) -> None:
    """A forked child starts the tier afresh: its parent's flusher did not
    come along, its lanes are the parent's sockets (dropped unclosed), its
    bursts are the parent's to send, and a lock some parent thread held stays
    held in the child."""
    if tier is not None:
        tier._reset_after_fork()


class AsyncRedisHotTier(_RedisTierPlans):
    """Hot entries in Redis (``redis.asyncio`` client): runs the same plans
    as :class:`RedisHotTier` (one coroutine holds a lane at a time)."""

    def __init__(self, client: Any, keyring: KeyRing, prefix: str = "trustmem:") -> None:
        super().__init__(client, keyring, prefix, is_async=True)
        self._waiters: list[asyncio.Future[bool]] = []
        self._timer: asyncio.TimerHandle | None = None
        self._flushing: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop _timer and _flushing belong to
        self._closing = False
        ref = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: _forked(ref()))

    def _reset_after_fork(self) -> None:
        # The asyncio pool has no fork check of its own: its connections are the parent's
        # sockets, registered with the parent's event loop, whose epoll set the child shares.
        # Collected here, a connection closes its transport, which takes the socket out of that
        # set: the parent's reads on it then never return. They are kept, never used.
        _INHERITED.extend(getattr(self._pool, "_available_connections", ()))
        _INHERITED.extend(getattr(self._pool, "_in_use_connections", ()))
        _INHERITED.extend(lane.conn for lane in self._lanes)
        _INHERITED.extend(b.lane.conn for b in self._bursts.values() if b.lane is not None)
        self._lanes_lock = threading.Lock()
        self._lanes, self._open, self._bursts, self._waiters = [], 0, {}, []
        self._timer, self._flushing, self._loop = None, None, None
        self.fence.lock = threading.Lock()
        self.fence.epoch = None
        reset = getattr(self._pool, "reset", None)
        if reset is not None:
            reset()

    def _wake_marked(self, b: _Burst) -> None:
        for waiter in b.waiters:
            if not waiter.done():
                waiter.set_result(True)
        b.waiters.clear()

    def _schedule(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a flusher left on an earlier loop (stopped, or closed) never runs again
            self._timer, self._flushing, self._loop = None, None, loop
        if self._closing or self._flushing is not None:
            return
        if self._timer is not None and self._bursts and self._timer.when() > loop.time() + FLUSH_AFTER:
            self._timer.cancel()  # set for a later round (a cooldown's end): a burst goes first
            self._timer = None
        if self._timer is None:
            self._timer = loop.call_later(FLUSH_AFTER, self._start_flush)

    def _start_flush(self) -> None:
        self._timer = None
        if not self._closing:
            self._flushing = asyncio.get_running_loop().create_task(self._flush_loop())

    async def _flush_loop(self) -> None:
        """One round of the flusher: send the bursts that are due, do owed
        deletions if Redis is back, and set a timer for the next round."""
        try:
            nxt = await self._run(self._flush_due())
            if nxt is not None and not self._closing:  # the next round on a timer: no task waits out
                loop = asyncio.get_running_loop()  # a cooldown (a loop stopped meanwhile leaves none pending)
                self._timer = loop.call_later(max(0.0, nxt - time.monotonic()), self._start_flush)
        except Exception as exc:  # never seen (the marks stay: readers go to PostgreSQL)
            log.error("hot tier: sending held entries failed (%s)", type(exc).__name__)  # (no text: no values)
            if (self._bursts or self.fence.pending) and not self._closing:  # tried again after a cooldown
                self._timer = asyncio.get_running_loop().call_later(RedisFence.COOLDOWN, self._start_flush)
        finally:
            self._flushing = None

    def _wake(self, n: int = 1) -> None:
        while self._waiters and n > 0:
            waiter = self._waiters.pop(0)
            if not waiter.done():
                waiter.set_result(True)
                n -= 1

    async def _run(self, plan: Plan) -> Any:
        try:
            step = next(plan)
            while True:
                try:
                    out = await self._io(step)
                except BaseException as exc:
                    step = plan.throw(exc)
                else:
                    step = plan.send(out)
        except StopIteration as done:
            return done.value
        finally:
            if self.fence.pending:  # the flusher does them once Redis is back
                self._schedule()

    async def _io(self, step: Step) -> Any:
        what, conn, args = step
        if what == _SEND:
            return await conn.send_command(*args)
        if what == _SEND_MANY:
            return await conn.send_packed_command(conn.pack_commands(args))
        if what == _AWAIT_MARK:
            burst = args[0]
            if burst.state == _SENT:
                waiter = asyncio.get_running_loop().create_future()
                burst.waiters.append(waiter)
                try:
                    await asyncio.wait_for(waiter, REDIS_TIMEOUT)
                except (TimeoutError, asyncio.TimeoutError):
                    pass
            return None
        if what == _READ:
            return await conn.read_response()
        if what == _CAN_READ:
            return await conn.can_read()
        if what in (_READY, _PAY):
            return await self.fence.aready(
                self.client, lambda tks: self._run(self._drop_now(tks)), "hot tier", quiet=what == _PAY
            )
        if what == _WAIT:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            got = False
            try:
                got = await asyncio.wait_for(waiter, REDIS_TIMEOUT)
            except (TimeoutError, asyncio.TimeoutError):  # (distinct before Python 3.11)
                pass
            finally:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)
                if not got:  # timed out or cancelled: a lane handed to this waiter goes to the next
                    with self._lanes_lock:
                        if self._lanes or self._open < self._max_lanes:
                            self._wake()
            return got
        if what == _OPEN:
            return await self._pool.get_connection()
        if what == _RECONNECT:
            await conn.disconnect()
            return await conn.connect()
        if what == _DROP:
            await conn.disconnect()
            return await self._pool.release(conn)
        if what == _RELEASE:
            return await self._pool.release(conn)
        return await conn(*args[0], **args[1])  # _CLIENT: conn is the client's method

    async def aget(self, tk: bytes, ns: str) -> HotEntry | None:
        return cast("HotEntry | None", await self._run(self._get(tk, ns)))

    async def amark(self, tk: bytes, ns: str, ttl: float) -> Mark | None:
        return cast("Mark | None", await self._run(self._mark(tk, ns, ttl)))

    async def aunmark(self, mark: Mark | None, clear: bool = True) -> None:
        await self._run(self._unmark(mark, clear))

    async def aput(self, *args: Any, **kwargs: Any) -> None:
        await self._run(self._put(*args, **kwargs))

    async def aadd_writes(self, *args: Any, **kwargs: Any) -> None:
        await self._run(self._add_writes(*args, **kwargs))

    async def adrop(self, tks: Iterable[bytes]) -> None:
        await self._run(self._drop(tks))

    async def aclose(self) -> None:
        self._closing = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        flushing, self._flushing = self._flushing, None
        if flushing is not None and self._loop is asyncio.get_running_loop():  # (one round; a task of
            await asyncio.gather(flushing, return_exceptions=True)  # a stopped loop never ends)
        await self._run(self._close())
        await self.client.aclose()
