"""A bounded in-process cache of decoded channel values, so restoring a
session does not decrypt and deserialize the same blob again.

A blob's (thread, namespace, channel, version) never changes content, and
the key also names the envelope's nonce, so an entry can only ever stand for
the bytes it was decoded from. Which checkpoint is current is still decided
by PostgreSQL or the hot tier; this cache only saves the decoding.

A value is kept from its second decoding on, never when it is saved or first
read. Cached values are live objects that outlive the turn, and every one
the cache takes in moves the collector closer to a full pass over the whole
heap: caching each saved message list as a copy (two per chat turn) made
such passes five times as frequent as with the stock saver, and a turn of a
1,000-message session among many took 1.5x PostgresSaver's on average.
A chat restores each version once (the next turn writes a new one), so
only versions read again (state polling, ``get_state`` before ``invoke``,
history) are worth holding.

It holds plaintext in process memory, so it is bounded by bytes and age and
emptied for a thread whenever the hot tier drops it (degrade, delete, prune,
forget, sweep), and entirely on key rotation and close (see the threat
model).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.checkpoint.serde.types import _DeltaSnapshot

# Cached values are live Python objects the garbage collector walks: a
# 32 MB budget cost 25% of the 32-session throughput, 4 MB about 7%.
DEFAULT_MAX_BYTES = 4 * 1024 * 1024
DEFAULT_MAX_AGE = 300.0
# Below this size decoding is as cheap as copying a cached value out, so
# small values are not cached (measured: caching them cost 10% of the
# 32-session throughput and saved nothing).
MIN_BYTES = 4096

Key = tuple[bytes, str, str, str, bytes]
# One thread's cached values by (channel, version, nonce), as a read uses them.
Held = dict[tuple[str, str, bytes], Any]

# Keys decoded once, remembered so a second decoding is recognised (about
# 200 bytes each: at most ~0.2 MB).
SEEN_KEYS = 1024


class DecodedCache:
    """LRU by bytes (the size of the envelope each value came from) with an
    age bound, admitting a value at its second decoding. ``max_bytes=0``
    turns it off."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, max_age: float = DEFAULT_MAX_AGE) -> None:
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.bytes = 0
        self._entries: OrderedDict[Key, tuple[float, int, Any]] = OrderedDict()
        self._threads: dict[tuple[bytes, str], set[Key]] = {}  # (thread, namespace) -> its keys
        self._seen: OrderedDict[Key, None] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Key) -> tuple[bool, Any]:
        with self._lock:
            hit = self._entries.get(key)
            if hit is None:
                return False, None
            born, _size, value = hit
            if time.monotonic() - born > self.max_age:
                self._remove(key)
                return False, None
            self._entries.move_to_end(key)
        return True, _fresh(value)

    def held(self, tk: bytes, ns: str) -> Held:
        """What the cache holds for one thread's namespace, by (channel,
        version, nonce): so a read can ask PostgreSQL for the header only
        of envelopes whose values are here. The values are the cache's own
        (never handed out): pass one to :meth:`use` for a copy."""
        now = time.monotonic()
        with self._lock:
            return {
                (k[2], k[3], k[4]): hit[2]
                for k in self._threads.get((tk, ns), ())
                if now - (hit := self._entries[k])[0] <= self.max_age
            }

    def use(self, key: Key, value: Any) -> Any:
        """A copy of a value :meth:`held` returned (still valid if the
        entry left meanwhile: cached values never change), as a hit."""
        with self._lock:
            if key in self._entries:
                self._entries.move_to_end(key)
        return _fresh(value)

    def _remove(self, key: Key) -> None:
        """Drop one entry and its index (lock held)."""
        self.bytes -= self._entries.pop(key)[1]
        keys = self._threads.get((key[0], key[1]))
        if keys is not None:
            keys.discard(key)
            if not keys:
                del self._threads[(key[0], key[1])]

    def keep(self, key: Key, size: int, value: Any) -> None:
        """Offer a value just decoded from an envelope of ``size`` bytes: the
        cache keeps a copy of it (the caller may change what it got) if
        this key was decoded before and a cheap copy exists."""
        if size > self.max_bytes or size < MIN_BYTES or not self._again(key):
            return
        ok, kept = snapshot(value)
        if not ok:
            return
        with self._lock:
            if key in self._entries:
                self._remove(key)
            self._entries[key] = (time.monotonic(), size, kept)
            self._threads.setdefault((key[0], key[1]), set()).add(key)
            self.bytes += size
            while self.bytes > self.max_bytes and self._entries:
                self._remove(next(iter(self._entries)))

    def _again(self, key: Key) -> bool:
        """Whether ``key`` was decoded before; remember it if not."""
        with self._lock:
            if self._seen.pop(key, False) is None:
                return True
            self._seen[key] = None
            if len(self._seen) > SEEN_KEYS:
                self._seen.popitem(last=False)
            return False

    def drop(self, tks: Iterable[bytes]) -> None:
        doomed = set(tks)
        with self._lock:
            for key in [k for k in self._entries if k[0] in doomed]:
                self._remove(key)
            for key in [k for k in self._seen if k[0] in doomed]:
                del self._seen[key]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._threads.clear()
            self._seen.clear()
            self.bytes = 0


_IMMUTABLE = (str, int, float, bool, bytes, type(None))
_SCALARS = frozenset(_IMMUTABLE)


def snapshot(value: Any) -> tuple[bool, Any]:
    """A copy of a value, for the cache, that later changes to the caller's
    objects cannot reach, when one is cheap (far cheaper than decoding it
    again): immutable scalars as they are; a plain list or tuple of messages
    and scalars with each message copied (its fields and the dicts and lists
    nested in them, where labels, tool calls and content blocks live); a
    DeltaChannel's snapshot of such a list. Anything else (dicts, nested
    lists, named tuples, objects) is not cached: a node or a reducer may
    change it in place, its type must come back as decoding gives it, and
    only a deep copy, as dear as decoding, would serve."""
    if isinstance(value, _IMMUTABLE):
        return True, value
    if type(value) is _DeltaSnapshot:
        ok, inner = snapshot(value.value)
        return (True, _DeltaSnapshot(inner)) if ok else (False, None)
    if type(value) in (list, tuple) and all(isinstance(m, (BaseMessage, *_IMMUTABLE)) for m in value):
        try:
            return True, _copied(value)
        except _NotPlain:  # a set or an object inside a message: only a deep copy would do
            return False, None
    return False, None


def _copied(items: list[Any] | tuple[Any, ...]) -> list[Any] | tuple[Any, ...]:
    """The cache's copy of a list of messages: each message kept as a
    :class:`_Kept` (its own copy of every field, and which fields a
    restore must copy again)."""
    out = [_Kept(m) if isinstance(m, BaseMessage) else m for m in items]
    return out if type(items) is list else tuple(out)


class _Kept:
    """A message as the cache keeps it: its fields (scalars shared, dicts and
    lists its own) and the names of the fields that are not scalars, found
    once when it is kept, so a restore copies only those."""

    __slots__ = ("cls", "extra", "fields", "fields_set", "mutable", "private")

    def __init__(self, message: BaseMessage) -> None:
        fields = message.__dict__.copy()
        mutable = []
        for name, value in fields.items():
            if type(value) not in _SCALARS:
                fields[name] = _plain(value)
                mutable.append(name)
        self.cls = type(message)
        self.fields = fields
        self.mutable = tuple(mutable)
        extra = message.__pydantic_extra__
        self.extra = None if extra is None else _plain(dict(extra))
        self.fields_set = frozenset(message.__pydantic_fields_set__)
        private = message.__pydantic_private__
        self.private = None if private is None else dict(private)


    def message(self) -> BaseMessage:
        """A message of its own for the caller (what a node edits in place
        never reaches the cache): pydantic's ``__copy__`` with plain dict and
        list copies of the fields that need one."""
        fields = self.fields.copy()
        for name in self.mutable:
            value = fields[name]
            fields[name] = type(value)() if not value else _plain(value)
        copied = self.cls.__new__(self.cls)
        _set(copied, "__dict__", fields)
        _set(copied, "__pydantic_extra__", None if self.extra is None else _plain(self.extra))
        _set(copied, "__pydantic_fields_set__", set(self.fields_set))
        _set(copied, "__pydantic_private__", None if self.private is None else self.private.copy())
        return copied


_set = object.__setattr__


class _NotPlain(Exception):
    """A message field holds something other than JSON-shaped data."""


def _plain(value: Any) -> Any:
    """JSON-shaped data copied at every depth. Anything mutable but not a
    dict or a list (a set, an object) would be shared with the caller, who
    may change it in place: such a value is not cached (raises _NotPlain)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()} if value else {}
    if isinstance(value, list):
        return [_plain(v) for v in value] if value else []
    if isinstance(value, _IMMUTABLE) or value is None:
        return value
    if isinstance(value, tuple) and all(isinstance(v, _IMMUTABLE) for v in value):
        return value
    raise _NotPlain


def _fresh(value: Any) -> Any:
    """What a hit hands out: copies of the containers a reducer might extend
    in place (a DeltaChannel takes its snapshot's list as its value and
    reduces into it) and of each message a node might edit in place, so no
    caller can change what the next restore returns. Only what
    :func:`snapshot` kept arrives here."""
    if type(value) is _DeltaSnapshot:
        return _DeltaSnapshot(_fresh(value.value))
    if type(value) in (list, tuple):
        out = [m.message() if type(m) is _Kept else m for m in value]
        return out if type(value) is list else tuple(out)
    return value


__all__ = ["DEFAULT_MAX_AGE", "DEFAULT_MAX_BYTES", "MIN_BYTES", "SEEN_KEYS", "DecodedCache", "Held", "snapshot"]
