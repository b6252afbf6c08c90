"""A bounded in-process cache of decoded channel values, so restoring a
session does not decrypt and deserialize the same blob again.

A blob's (thread, namespace, channel, version) never changes content, and
the key also names the envelope's nonce, so an entry can only ever stand for
the bytes it was decoded from. Which checkpoint is current is still decided
by PostgreSQL or the hot tier; this cache only saves the decoding. It holds
plaintext in process memory, so it is bounded by bytes and age and emptied
for a thread whenever the hot tier drops it (degrade, delete, prune, forget,
sweep), and entirely on key rotation and close (see the threat model).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

DEFAULT_MAX_BYTES = 32 * 1024 * 1024
DEFAULT_MAX_AGE = 300.0

Key = tuple[bytes, str, str, str, bytes]


class DecodedCache:
    """LRU by bytes (the size of the envelope each value came from) with an
    age bound. ``max_bytes=0`` turns it off."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, max_age: float = DEFAULT_MAX_AGE) -> None:
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.bytes = 0
        self._entries: OrderedDict[Key, tuple[float, int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Key) -> tuple[bool, Any]:
        with self._lock:
            hit = self._entries.get(key)
            if hit is None:
                return False, None
            born, size, value = hit
            if time.monotonic() - born > self.max_age:
                del self._entries[key]
                self.bytes -= size
                return False, None
            self._entries.move_to_end(key)
        return True, _fresh(value)

    def put(self, key: Key, size: int, value: Any) -> None:
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._entries[key] = (time.monotonic(), size, value)
            self.bytes += size
            while self.bytes > self.max_bytes and self._entries:
                _, (_, gone, _) = self._entries.popitem(last=False)
                self.bytes -= gone

    def drop(self, tks: Iterable[bytes]) -> None:
        doomed = set(tks)
        with self._lock:
            for key in [k for k in self._entries if k[0] in doomed]:
                self.bytes -= self._entries.pop(key)[1]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.bytes = 0


def _fresh(value: Any) -> Any:
    """A copy of the containers a reducer might extend in place; the items
    are shared, as LangGraph's own channels share them between steps."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, set):
        return set(value)
    return value


__all__ = ["DEFAULT_MAX_AGE", "DEFAULT_MAX_BYTES", "DecodedCache"]
