"""The store's operations as plans: multi-statement transactions written as
generators of ``(sql, params, fetch)`` (run by the sync or async store), and
the pure steps that shape results. One copy of the logic for both twins.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from langgraph.store.base import ListNamespacesOp, PutOp

from langgraph_trustmem.pg import Statements
from langgraph_trustmem.store import sql
from langgraph_trustmem.store.base import Reader, Row, matches_filter, namespace_matches

if TYPE_CHECKING:
    from langgraph_trustmem.store.base import TrustStoreBase


# Erasure order: the system of record first (nothing can be read back into
# a cache from it afterwards), then the derived copies, then sessions. The
# derived steps run again on a resumed erasure: they are idempotent, and a
# read between a crash and the resume may have refilled a cache.
ERASURE_STEPS = ("memories", "vectors", "cache", "threads")
RERUN_STEPS = frozenset({"vectors", "cache"})


def search_params(store: TrustStoreBase, prefix: tuple[str, ...], reader: Reader) -> dict[str, Any]:
    own = store.user_key(reader.user_id) if reader.confined and reader.user_id is not None else None
    return {
        "level": reader.level,
        "prefix": store.ns_hash(prefix) if prefix else None,
        "prefix_ns": tuple(prefix),
        "confined": bool(reader.confined and store.tenant_template),
        "integrity": reader.confined,
        "own": own,
    }


def select_hits(
    raw: Sequence[tuple[str, float]],
    rows: Mapping[str, Row],
    flt: Mapping[str, Any] | None,
    offset: int,
    limit: int,
) -> list[tuple[str, float]]:
    """Vector hits to results: one per memory (its best score), visible
    rows only, the value filter applied, best first, then paged."""
    best: dict[str, float] = {}
    for ref, score in raw:
        if ref in rows and (ref not in best or score > best[ref]):
            best[ref] = score
    hits = [
        (ref, score)
        for ref, score in sorted(best.items(), key=lambda kv: -kv[1])
        if not flt or matches_filter(rows[ref].value, flt)
    ]
    return hits[offset : offset + limit]


def list_namespaces_result(
    namespaces: Sequence[tuple[str, ...]], op: ListNamespacesOp
) -> list[tuple[str, ...]]:
    out = set()
    for ns in namespaces:
        if op.match_conditions and not all(namespace_matches(c, ns) for c in op.match_conditions):
            continue
        out.add(ns[: op.max_depth] if op.max_depth is not None else ns)
    return sorted(out)[op.offset : op.offset + op.limit]


def put_ops(
    store: TrustStoreBase,
    op: PutOp,
    reader: Reader,
    confirmed_by: str | None,
    nh: bytes,
    kh: bytes,
    tenant: bytes | None,
    level: int,
    sealed: bytes,
    n_vectors: int,
    ttl_minutes: float | None,
) -> Statements:
    """Check the overwrite rules against the stored row (locked) and write.
    Returns whether a row was there before."""
    rows = yield sql.GET_FOR_WRITE_SQL, {"ns_hash": nh, "key_hash": kh}, True
    store._check_write(rows[0][0] if rows else None, op, reader, confirmed_by)
    yield (
        sql.UPSERT_SQL,
        {
            "ns_hash": nh,
            "key_hash": kh,
            "ns_prefixes": store.ns_prefixes(op.namespace),
            "depth": len(op.namespace),
            "tenant": tenant,
            "level": level,
            "sealed": sealed,
            "schema_version": store.migrations.current,
            "indexed": n_vectors,
            "ttl": ttl_minutes,
        },
        True,
    )
    return bool(rows)


def delete_ops(store: TrustStoreBase, op: PutOp, reader: Reader, confirmed_by: str | None) -> Statements:
    """Delete under the same rules as an overwrite. Returns (level, tenant,
    indexed) of the deleted row, or None if there was none."""
    nh, kh = store.ns_hash(op.namespace), store.key_hash(op.key)
    rows = yield sql.GET_FOR_WRITE_SQL, {"ns_hash": nh, "key_hash": kh}, True
    if not rows:
        return None
    store._check_write(rows[0][0], op, reader, confirmed_by)
    gone = yield sql.DELETE_SQL, {"ns_hash": nh, "key_hash": kh}, True
    return gone[0] if gone else None


def sweep_ops() -> Statements:
    return (yield sql.SWEEP_EXPIRED_SQL, (), True)


def retention_ops(rules: Sequence[tuple[int | None, bytes | None, float]]) -> Statements:
    """Apply retention rules (level rank, namespace prefix hash, max age in
    seconds); returns the deleted rows."""
    gone: list[tuple] = []
    for level, prefix, age in rules:
        gone += yield sql.SWEEP_RETENTION_SQL, {"level": level, "prefix": prefix, "age": age}, True
    return gone


def rotate_ops(store: TrustStoreBase, batch: int) -> Statements:
    """Re-seal up to ``batch`` memories and salts sealed with an older key
    (compare-and-set, so a concurrent write is never overwritten)."""
    from langgraph_trustmem.crypto import aad  # noqa: PLC0415

    ring = store.keyring
    old = [k.to_bytes(4, "big") for k in ring.key_ids if k != ring.active_key_id]
    if not old:
        return 0
    done = 0
    for nh, kh, sealed, level, tenant in (yield sql.ROTATE_MEMORIES_SQL, (old, batch), True):
        place = store._place(bytes(nh), bytes(kh), level, bytes(tenant) if tenant is not None else None)
        yield (
            sql.RESEAL_MEMORY_SQL,
            (ring.encrypt(ring.decrypt(bytes(sealed), place), place), nh, kh, sealed),
            False,
        )
        done += 1
    for subject, salt in (yield sql.ROTATE_SALTS_SQL, (old, batch), True):
        place = aad("audit-salt", bytes(subject))
        yield (
            sql.RESEAL_SALT_SQL,
            (ring.encrypt(ring.decrypt(bytes(salt), place), place), subject, salt),
            False,
        )
        done += 1
    return done


def erasure_start_ops(tenant: bytes) -> Statements:
    rows = yield sql.ERASURE_START_SQL, (uuid.uuid4(), tenant), True
    receipt_id, _started, removed = rows[0]
    return receipt_id, dict(removed or {})


def erasure_step_ops(receipt_id: uuid.UUID, step: str, count: int) -> Statements:
    yield sql.ERASURE_STEP_SQL, (step, count, receipt_id), False


def erase_memories_ops(receipt_id: uuid.UUID, tenant: bytes) -> Statements:
    """Delete the tenant's rows and record the step in one transaction."""
    rows = yield sql.DELETE_TENANT_SQL, (tenant,), True
    yield sql.SUBJECT_DELETE_SQL, (tenant,), False  # unlinks the user's audit events
    yield sql.ERASURE_STEP_SQL, ("memories", len(rows), receipt_id), False
    return len(rows)


def erasure_finish_ops(receipt_id: uuid.UUID, finished: bool = True) -> Statements:
    """Close the erasure and return its receipt; with a step still owed it
    stays open (``finished_at`` None) for the next call to complete."""
    query = sql.ERASURE_FINISH_SQL if finished else sql.ERASURE_STATUS_SQL
    rows = yield query, (receipt_id,), True
    rid, started, done, removed = rows[0]
    return {
        "receipt_id": str(rid),
        "started_at": started.isoformat(),
        "finished_at": done.isoformat() if done is not None else None,
        "removed": {step: int(removed.get(step, 0)) for step in ERASURE_STEPS},
    }


def pending_erasures_ops() -> Statements:
    return [r[0] for r in (yield sql.ERASURE_PENDING_SQL, (), True)]
