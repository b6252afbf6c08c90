"""Blind indexes: equality filters that run in PostgreSQL without it seeing
a value (the CipherSweet idea).

Each scalar field of a memory's value gets a tag: a keyed hash of the
field's path and canonical value, keyed per tenant (so equal values of two
users never share a tag). A filter's equality conditions become the tags a
row must contain (``blind @> tags``, GIN-indexed). The database learns
which of one user's memories share a field value, nothing more; the
process still applies the whole filter to the opened value, so a tag can
only narrow what is fetched, never decide what is shown.

Canonical values follow Python's ``==``, which LangGraph's filter uses:
``1``, ``1.0`` and ``True`` tag alike, ``"1"`` does not. Conditions that
are not a plain equality on a scalar (``$ne``, ranges, ``None``, lists)
are left to the process (the filter is *residual*).
"""

from __future__ import annotations

import hashlib
import hmac
import math
from collections.abc import Mapping
from typing import Any

from langgraph_trustmem.pg import BytesArray

MAX_TAGS = 256  # a value with more scalar fields is filtered in process
TAG_SIZE = 12


def _canonical(value: Any) -> bytes | None:
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, int):
        return b"n:" + str(value).encode()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return b"n:" + (str(int(value)) if value.is_integer() else repr(value)).encode()
    if isinstance(value, str):
        return b"s:" + value.encode("utf-8", "surrogatepass")
    return None


class BlindIndex:
    """Tags of values and of filters, under a key derived from the ring."""

    def __init__(self, key: bytes) -> None:
        self._key = key

    def _tag(self, tenant: bytes | None, path: tuple[str, ...], canon: bytes) -> bytes:
        msg = (tenant or b"") + b"\x00" + "\x1f".join(path).encode("utf-8", "surrogatepass") + b"\x00" + canon
        return hmac.new(self._key, msg, hashlib.sha256).digest()[:TAG_SIZE]

    def tags(self, tenant: bytes | None, value: Mapping[str, Any]) -> list[bytes] | None:
        """The tags of a value's scalar fields (nested objects included), or
        None for a value too wide to index (its row is filtered in process)."""
        out: list[bytes] = BytesArray()
        stack: list[tuple[tuple[str, ...], Mapping[str, Any]]] = [((), value)]
        while stack:
            path, obj = stack.pop()
            for k, v in obj.items():
                if isinstance(v, Mapping):
                    stack.append(((*path, str(k)), v))
                    continue
                canon = _canonical(v)
                if canon is not None:
                    out.append(self._tag(tenant, (*path, str(k)), canon))
                    if len(out) > MAX_TAGS:
                        return None
        return out

    def filter_tags(self, tenant: bytes | None, flt: Mapping[str, Any]) -> tuple[list[bytes], bool]:
        """The tags every matching row of ``tenant`` carries, and whether
        part of the filter is left to the process."""
        tags: list[bytes] = BytesArray()
        residual = False
        stack: list[tuple[tuple[str, ...], Mapping[str, Any]]] = [((), flt)]
        while stack:
            path, cond = stack.pop()
            for k, c in cond.items():
                here = (*path, str(k))
                if isinstance(c, Mapping):
                    if any(str(op).startswith("$") for op in c):
                        for op, arg in c.items():
                            canon = _canonical(arg) if op == "$eq" else None
                            if canon is None:
                                residual = True
                            else:
                                tags.append(self._tag(tenant, here, canon))
                    else:
                        stack.append((here, c))
                    continue
                canon = _canonical(c)
                if canon is None:
                    residual = True
                else:
                    tags.append(self._tag(tenant, here, canon))
        return tags, residual


__all__ = ["MAX_TAGS", "BlindIndex"]
