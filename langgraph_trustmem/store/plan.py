"""Every store operation, written once as a plan both twins run.

A plan is a generator that yields effects and receives their results:
``Fetch`` (one statement, rows), ``Txn`` (a multi-statement transaction,
itself a generator of ``(sql, params, fetch)``), and ``Call`` (a method of
the vector tier, the cache, the embedder or the checkpointer, which the
async twin awaits as its ``a``-prefixed twin). ``TrustStore`` runs effects
with blocking I/O and ``AsyncTrustStore`` with asyncio; neither holds any
logic of its own (see ``store.py``, ``aio.py``), so the twins cannot drift.

A read writes its own audit events: the statement that returns the rows
inserts them into the journal (``sql._JOURNAL``), durable with the read and
with no extra round trip; the next append folds them into the hash chain.
"""

from __future__ import annotations

import logging
import math
import re
import time
import uuid
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar, cast

from langgraph.store.base import (
    NOT_PROVIDED,
    GetOp,
    IndexConfig,
    Item,
    ListNamespacesOp,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)

from langgraph_trustmem.audit import (
    AuditEvent,
    AuditReport,
    append_ops,
    fold_ops,
    journal_columns,
    journal_ops,
    trail_ops,
    verify_ops,
)
from langgraph_trustmem.config import resolve_keyring, resolve_ladder
from langgraph_trustmem.crypto import ID_HASH_SIZE, KeyRing
from langgraph_trustmem.errors import ConfigurationError, SecretRejected, TamperedDataError, TrustViolation
from langgraph_trustmem.pg import BytesArray, FloatArray, Statements, check_connection
from langgraph_trustmem.store import sql
from langgraph_trustmem.store.base import (
    Reader,
    Row,
    Scope,
    TrustStoreBase,
    check_value,
    namespace_matches,
    validate_namespace,
)
from langgraph_trustmem.store.cache import AsyncHitCache, HitCache
from langgraph_trustmem.store.vectors import VectorIndex, takes_count
from langgraph_trustmem.trust import Ladder, saver_of

T = TypeVar("T")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Fetch:
    """One statement on its own (autocommit), rows in binary."""

    query: str
    params: Any
    rows: bool = True


@dataclass(frozen=True)
class Txn:
    """A multi-statement operation in one transaction."""

    ops: Statements


@dataclass(frozen=True)
class Call:
    """``target.name(*args)``; the async twin awaits ``target.aname``
    (default ``"a" + name``), or runs ``name`` on a worker thread when the
    target has no async twin."""

    target: Any
    name: str
    args: tuple[Any, ...] = ()
    aname: str | None = None


Effect = Fetch | Txn | Call
Plan = Generator[Effect, Any, T]

# Erasure order: the system of record first (nothing can be read back into
# a cache from it afterwards), then the derived copies, then sessions. The
# derived steps run again on a resumed erasure: they are idempotent, and a
# read between a crash and the resume may have refilled a cache.
ERASURE_STEPS = ("memories", "vectors", "cache", "threads")
RERUN_STEPS = frozenset({"vectors", "cache"})
FOLD_EVERY = 256  # journaled events after which a store folds the journal (in the background)
FOLD_BATCH = 256  # events chained per fold transaction
N_COLUMNS = 11  # the row columns ``Row`` decodes; reads add score, journaled, current


def _tenant_hex(tenant: bytes | None) -> str:
    """A tenant as the vector tier names it ("" for shared memories)."""
    return tenant.hex() if tenant else ""


def cache_call(store: TrustStoreBase, name: str, *args: Any) -> Call:
    """The cache's twins share method names (the async one's are coroutines)."""
    return Call(store.cache, name, args, aname=name)


# -- who reads ------------------------------------------------------------------


def reader_plan(store: TrustStoreBase) -> Plan[Reader]:
    """The reader of this call: the running session (from the trust
    checkpointer in the run's config, in memory when it has it), a bound
    view, or nobody in particular."""
    config = store._run_config()
    saver = saver_of(config)
    session = None
    if saver is not None and config and (config.get("configurable") or {}).get("thread_id") is not None:
        session = saver.cached_session(config)
        if session is None:
            session = yield Call(saver, "session", (config,))
    return store._reader_from(config, session)


# -- batch -------------------------------------------------------------------------


class _Audit:
    """The audit events of one call, and the reads its statements journaled."""

    def __init__(self) -> None:
        self.events: list[AuditEvent] = []
        self.journaled = 0


def batch_plan(store: TrustStoreBase, ops: Sequence[Op]) -> Plan[list[Result]]:
    """LangGraph's batch, grouped by type as PostgresStore does: every get
    in one statement, each search, each listing, then every put (the last
    put per item wins) in one transaction. Reads see the store as it was
    before the batch's puts."""
    reader = yield from reader_plan(store)
    audit = _Audit()
    results: list[Result] = [None] * len(ops)
    gets = [(i, op) for i, op in enumerate(ops) if isinstance(op, GetOp)]
    puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
    try:
        for op in ops:
            if not isinstance(op, (GetOp, SearchOp, ListNamespacesOp, PutOp)):
                raise TypeError("unknown store operation")
        if gets:
            found = yield from get_plan(store, [op for _, op in gets], reader, audit)
            for (i, _), item in zip(gets, found, strict=True):
                results[i] = item
        for i, op in enumerate(ops):
            if isinstance(op, SearchOp):
                results[i] = yield from search_plan(store, op, reader, audit)
            elif isinstance(op, ListNamespacesOp):
                results[i] = yield from list_namespaces_plan(store, op, reader)
            elif isinstance(op, PutOp):
                puts[(tuple(op.namespace), op.key)] = op
        if puts:
            yield from put_plan(store, list(puts.values()), reader, audit)
    finally:
        yield from audit_plan(store, audit)
    return results


def audit_plan(store: TrustStoreBase, audit: _Audit) -> Plan[None]:
    """Journal the call's own events (refusals, reads judged in process) in
    one statement; once this store has journaled ``FOLD_EVERY`` events, its
    twin folds the journal into the chain in the background, off every
    request's path."""
    if not store.audit_enabled:
        return
    if audit.events:
        yield Txn(journal_ops(audit.events))
    store._journaled += audit.journaled + len(audit.events)
    if store._journaled >= FOLD_EVERY:
        store._journaled = 0
        store._fold_soon()


# -- reads ---------------------------------------------------------------------------


def _journal_params(store: TrustStoreBase, reader: Reader, scope: Scope, action: str) -> dict[str, Any]:
    return {
        **scope.params(),
        "version": store.migrations.current,
        "journal": store.audit_enabled,
        "action": action,
        "actor": reader.source,
        "session": store._session_hash(reader),
    }


SCORE, JOURNALED, CURRENT = N_COLUMNS, N_COLUMNS + 1, N_COLUMNS + 2  # after the row's columns


def _raw_event(store: TrustStoreBase, action: str, reader: Reader, raw: Sequence[Any], detail: str) -> AuditEvent:
    """An event about a fetched row that may not open (named by its columns)."""
    tenant = bytes(raw[9]) if raw[9] is not None else None
    return store._write_event(action, reader, tenant, (bytes(raw[0]) + bytes(raw[1])).hex(), raw[2], detail)


def _served(store: TrustStoreBase, raw: Sequence[Any], reader: Reader, scope: Scope, audit: _Audit) -> Row | None:
    """A fetched get's row if the reader may see it, with its audit: journaled
    by SQL, else an event here; a refusal is audited (and withdraws a
    journaled read: only edited SQL-side columns make the two disagree). A
    row that fails authentication raises."""
    journaled = bool(raw[JOURNALED])
    row = store._decode(raw[:N_COLUMNS])
    if not scope.admits(row, time.time()):
        detail = "read above level" + ("; journaled read withdrawn" if journaled else "")
        audit.events.append(store._event("refused", reader, row, detail))
        return None
    if journaled:
        audit.journaled += 1
    else:
        audit.events.append(store._event("read", reader, row))
    return row


def get_plan(
    store: TrustStoreBase, ops: Sequence[GetOp], reader: Reader, audit: _Audit
) -> Plan[list[Item | None]]:
    """Every get in one statement (which journals the reads)."""
    places = []
    for op in ops:
        validate_namespace(tuple(op.namespace))
        ns = store._confine(tuple(op.namespace), reader, exact=True)
        places.append((store.ns_hash(ns), store.key_hash(op.key)))
    scope = store._scope(reader)
    params = _journal_params(store, reader, scope, "read")
    if len(places) == 1:  # the common case, without arrays to encode
        rows = yield Fetch(sql.GET_ONE_SQL, {**params, "ns_hash": places[0][0], "key_hash": places[0][1]})
    else:
        rows = yield Fetch(
            sql.GET_SQL,
            {**params, "ns_hashes": BytesArray(nh for nh, _ in places), "key_hashes": BytesArray(kh for _, kh in places)},
        )
    by_ref: dict[bytes, Row] = {}
    for raw in rows:
        row = _served(store, raw, reader, scope, audit)
        if row is not None:
            by_ref[row.ns_hash + row.key_hash] = row
    out: list[Item | None] = []
    refresh = []
    for op, (nh, kh) in zip(ops, places, strict=True):
        row = by_ref.get(nh + kh)
        if row is None:
            out.append(None)
            continue
        row = yield from upgrade_plan(store, row)
        if store._refresh(op.refresh_ttl) and row.ttl_minutes is not None:
            refresh.append(row)
        out.append(store._item(row))
    yield from refresh_ttl_plan(store, refresh)
    return out


def search_plan(
    store: TrustStoreBase, op: SearchOp, reader: Reader, audit: _Audit
) -> Plan[list[SearchItem]]:
    """Semantic or filter-only search. Narrowed in SQL (level, tenant,
    prefix, blind tags) and journaled by the statement that fetches the
    page; filtered in process where SQL cannot judge (range conditions,
    rows from before the tags) or disagrees (edited tags)."""
    validate_namespace(tuple(op.namespace_prefix), allow_empty=True)
    prefix = store._confine(tuple(op.namespace_prefix), reader, exact=False)
    scope = store._scope(reader, prefix)
    params = _journal_params(store, reader, scope, "search-hit")
    own_tags, shared_tags, residual = store._filter_tags(scope, op.filter)
    params.update(own_tags=own_tags, shared_tags=shared_tags)
    use_vectors = bool(op.query) and store.embeddings is not None and store.vectors is not None
    found = None
    if not residual:
        if use_vectors:
            found = yield from _vector_plan(store, op, reader, scope, params, audit)
        else:
            raws = yield from _fetch_page(params, op.offset, op.limit, journal=True)
            found = _judge(store, raws, reader, scope, audit, op.filter, complete=True)
        if found is None:  # SQL's narrowing disagreed with the sealed values: trust only the latter
            params.update(own_tags=None, shared_tags=None)
    if found is None:
        found = yield from _in_process_plan(store, op, reader, scope, params, use_vectors, audit)
    shown = []
    for r, s in found:
        shown.append(((yield from upgrade_plan(store, r)), s))
    if store._refresh(op.refresh_ttl):
        yield from refresh_ttl_plan(store, [r for r, _ in shown if r.ttl_minutes is not None])
    return [store._item(r, s, search=True) for r, s in shown]  # type: ignore[misc]


def _judge(
    store: TrustStoreBase,
    raws: Sequence[Sequence[Any]],
    reader: Reader,
    scope: Scope,
    audit: _Audit,
    flt: Mapping[str, Any] | None,
    complete: bool,
) -> list[tuple[Row, float | None]] | None:
    """A page SQL selected, as shown, and audited (journaled by its
    statement when every row was current); None when the process disagrees
    with SQL about any row (it fails to open, or is not visible or not
    matching by its sealed value): the journaled hits are then withdrawn
    and the caller filters in process."""
    journaled = complete and all(r[JOURNALED] for r in raws)
    now = time.time()
    rows = [store._open_or_skip(r[:N_COLUMNS]) for r in raws]
    if any(
        row is None or not scope.admits(row, now) or (flt and not store._filter(row, flt)) for row in rows
    ):
        if journaled:
            audit.events.extend(_raw_event(store, "withdrawn", reader, r, "journaled search hit not shown") for r in raws)
        return None
    for row in rows:
        assert row is not None
        if journaled:
            audit.journaled += 1
        else:
            audit.events.append(store._event("search-hit", reader, row))
    return [(row, r[SCORE]) for row, r in zip(rows, raws, strict=True) if row is not None]


def _vector_plan(
    store: TrustStoreBase, op: SearchOp, reader: Reader, scope: Scope, params: dict[str, Any], audit: _Audit
) -> Plan[list[tuple[Row, float | None]] | None]:
    """Nearest vectors of the reader's scope (filtered in the index), then
    their rows, visible, blind-filtered and paged in one statement that also
    journals them. Too few after filtering: ask the index for more."""
    cached_key, cached = "", None
    if store.cache is not None:
        cached_key, cached = yield cache_call(store, "get_hits", scope.own, store._search_key(op, scope))
    if cached is not None:
        raws = yield from _fetch_hits(params, cached, 0, op.limit, final=True, journal=True)
        return _judge(store, raws or [], reader, scope, audit, op.filter, complete=True)
    if store.embedder_mismatch:
        raise ConfigurationError(store.embedder_mismatch)
    vector = yield Call(store.embeddings, "embed_query", (op.query,))
    query = store._vector_query(scope)
    k = max((op.offset + op.limit) * 3, 10)
    while True:
        raw = yield Call(store.vectors, "search", (vector, query, k))
        final = len(raw) < k
        raws = yield from _fetch_hits(params, raw, op.offset, op.limit, final, journal=True)
        if raws is not None:
            found = _judge(store, raws, reader, scope, audit, op.filter, complete=True)
            if found is not None and store.cache is not None:
                hits = [(r.ref, s) for r, s in found]
                yield cache_call(store, "put_hits", scope.own, cached_key, hits)
            return found
        k *= 4


def _fetch_hits(
    params: dict[str, Any],
    raw: Sequence[tuple[str, float | None]],
    offset: int,
    limit: int | None,
    final: bool,
    journal: bool,
) -> Plan[list[tuple] | None]:
    """Rows of vector candidates, best first, paged in SQL; None when the
    page is short and more candidates exist (nothing was journaled)."""
    if not raw:
        return []
    rows = yield Fetch(
        sql.HITS_SQL,
        {
            **params,
            "journal": params["journal"] and journal,
            "ns_hashes": BytesArray(bytes.fromhex(ref)[:16] for ref, _ in raw),
            "key_hashes": BytesArray(bytes.fromhex(ref)[16:] for ref, _ in raw),
            "scores": FloatArray(float(s) if s is not None else 0.0 for _, s in raw),
            "limit": limit,
            "offset": offset,
            "final": final,
        },
    )
    if not final and (limit is None or len(rows) < limit):
        return None
    return list(rows)


FILTER_WINDOW = 256  # newest rows per tenant a confined filter-only page looks at first


def _fetch_page(params: dict[str, Any], offset: int, limit: int, journal: bool) -> Plan[list[tuple]]:
    """Newest first, narrowed by prefix and tags in SQL, one page. A
    confined reader's page looks at each tenant's newest rows first, and at
    all of them only when those leave the page short."""
    page = {**params, "journal": params["journal"] and journal, "limit": limit, "offset": offset}
    if not params["confined"]:
        return list((yield Fetch(sql.FILTER_SQL, {**page, "final": True})))
    upto = offset + limit
    window = max(FILTER_WINDOW, 4 * upto)
    rows = yield Fetch(sql.FILTER_CONFINED_SQL, {**page, "upto": upto, "window": window, "final": False})
    if len(rows) < limit:
        rows = yield Fetch(sql.FILTER_CONFINED_SQL, {**page, "upto": upto, "window": None, "final": True})
    return list(rows)


def _in_process_plan(
    store: TrustStoreBase,
    op: SearchOp,
    reader: Reader,
    scope: Scope,
    params: dict[str, Any],
    use_vectors: bool,
    audit: _Audit,
) -> Plan[list[tuple[Row, float | None]]]:
    """Candidates narrowed in SQL as far as the tags go, judged here by
    their opened values (visibility and the whole filter), paged, and the
    shown rows audited afterwards (nothing of this is journaled)."""
    want = op.offset + op.limit
    flt = op.filter or {}
    matched: list[tuple[Row, float | None]] = []

    def keep(raws: Sequence[Sequence[Any]]) -> list[tuple[Row, float | None]]:
        now = time.time()
        out = []
        for r in raws:
            row = store._open_or_skip(r[:N_COLUMNS])
            if row is not None and scope.admits(row, now) and store._filter(row, flt):
                out.append((row, r[SCORE]))
        return out

    if use_vectors:
        vector = yield Call(store.embeddings, "embed_query", (op.query,))
        query = store._vector_query(scope)
        k = max(want * 3, 10)
        while True:
            raw = yield Call(store.vectors, "search", (vector, query, k))
            matched = keep((yield from _fetch_hits(params, raw, 0, None, final=True, journal=False)) or [])
            if len(matched) >= want or len(raw) < k:
                break
            k *= 4
    else:
        page, offset = max(want * 2, 64), 0
        while len(matched) < want:
            raws = yield from _fetch_page(params, offset, page, journal=False)
            matched += keep(raws)
            if len(raws) < page:
                break
            offset += page
    shown = matched[op.offset : want]
    audit.events.extend(store._event("search-hit", reader, r) for r, _ in shown)
    return shown


def list_namespaces_plan(
    store: TrustStoreBase, op: ListNamespacesOp, reader: Reader
) -> Plan[list[tuple[str, ...]]]:
    scope = store._scope(reader, store._namespaces_prefix(op, reader))
    rows = yield Fetch(sql.LIST_NAMESPACES_SQL, scope.params())
    out = set()
    for ns in store._namespaces_of(rows, scope):
        if op.match_conditions and not all(namespace_matches(c, ns) for c in op.match_conditions):
            continue
        out.add(ns[: op.max_depth] if op.max_depth is not None else ns)
    return sorted(out)[op.offset : op.offset + op.limit]


def upgrade_plan(store: TrustStoreBase, row: Row) -> Plan[Row]:
    """A row older than the schema (or than the SQL-side columns) is
    rewritten on read (lazy migration)."""
    upgraded, resealed = store._upgraded(row)
    if resealed is not None:
        yield Fetch(sql.REWRITE_SQL, store._lazy_params(row, upgraded, resealed), rows=False)
    return upgraded


def refresh_ttl_plan(store: TrustStoreBase, rows: Sequence[Row]) -> Plan[None]:
    if not rows:
        return
    yield Fetch(
        sql.REFRESH_TTL_SQL,
        {"ns_hashes": BytesArray(r.ns_hash for r in rows), "key_hashes": BytesArray(r.key_hash for r in rows)},
        rows=False,
    )


# -- writes ----------------------------------------------------------------------------


@dataclass
class _Write:
    """One put, prepared before its transaction."""

    op: PutOp
    nh: bytes
    kh: bytes
    tenant: bytes | None
    texts: list[str]
    level: int | None = None
    sealed: bytes | None = None
    blind: list[bytes] | None = None
    ttl: float | None = None
    redacted: Sequence[str] = ()

    @property
    def ref(self) -> str:
        return (self.nh + self.kh).hex()


def put_plan(
    store: TrustStoreBase,
    ops: Sequence[PutOp],
    reader: Reader,
    audit: _Audit,
    level: str | None = None,
    source: str | None = None,
    confirmed_by: str | None = None,
) -> Plan[None]:
    """Puts and deletes: checked, guarded, embedded together, sealed, and
    written in one transaction under the overwrite rules; then their
    vectors, and the cache dropped. A refusal is audited and raised; the
    transaction writes all of the batch or none of it."""
    writes: list[_Write] = []
    for op in ops:
        validate_namespace(tuple(op.namespace))
        ns = store._confine(tuple(op.namespace), reader, exact=True, write=True)
        op = op._replace(namespace=ns)
        w = _Write(op, store.ns_hash(ns), store.key_hash(op.key), store.tenant_of(ns), [])
        writes.append(w)
    at: list[_Write] = []  # the write being checked when a refusal comes
    try:
        texts: list[str] = []
        for w in writes:
            at[:] = [w]
            if w.op.value is None:
                continue
            value, w.redacted = store.guard.check(check_value(w.op.value), namespace=w.op.namespace, key=w.op.key)
            w.op = w.op._replace(value=value)
            w.level = store._write_level(reader, level)
            w.texts = store._texts(w.op, value)
            texts += w.texts
            w.sealed = store._seal(w.nh, w.kh, store._body(w.op, value, reader, source), w.level, w.tenant)
            w.blind = store.blind.tags(w.tenant, value)
            w.ttl = store._ttl_minutes(w.op)
        if texts and store.embedder_mismatch:
            raise ConfigurationError(store.embedder_mismatch)
        vectors = (yield Call(store.embeddings, "embed_documents", (texts,))) if texts else []
        outcome: list[tuple[bool, bool, int | None, int]] = [(False, False, None, 0)] * len(writes)
        first = (yield from first_put_plan(store, writes[0], reader, confirmed_by)) if len(writes) == 1 else None
        if first is not None:
            outcome = [first]
        else:
            # rows locked in key order, as every multi-row statement takes them: no deadlock
            order = sorted(range(len(writes)), key=lambda i: (writes[i].nh, writes[i].kh))
            locked = yield Txn(write_ops(store, [writes[i] for i in order], reader, confirmed_by, at))
            for i, o in zip(order, locked, strict=True):
                outcome[i] = o
    except (TrustViolation, SecretRejected) as refusal:
        for w in at:
            audit.events.append(
                store._write_event("refused", reader, w.tenant, w.ref, None, type(refusal).__name__)
            )
        raise
    if store.vectors is not None:
        stale = [w for w, (existed, indexed, _l, _n) in zip(writes, outcome, strict=True) if existed and indexed]
        if stale:
            yield Call(store.vectors, "delete_refs", ([w.ref for w in stale], [_tenant_hex(w.tenant) for w in stale]))
        points, pos = [], 0
        for w in writes:
            if w.op.value is not None and w.texts:
                assert w.level is not None
                points += store._points(w.ref, w.op.namespace, w.level, w.tenant, w.ttl, vectors[pos : pos + len(w.texts)])
                pos += len(w.texts)
        if points:
            yield Call(store.vectors, "upsert", (points,))
    if store.cache is not None:
        yield cache_call(store, "invalidate", [*{w.tenant for w in writes}, None])
    audit.journaled += sum(1 for o in outcome if o[3])


def first_put_plan(
    store: TrustStoreBase, w: _Write, reader: Reader, confirmed_by: str | None
) -> Plan[tuple[bool, bool, int | None, int] | None]:
    """A put of a key not stored yet, in one statement with its events
    (``sql.FIRST_PUT_SQL``); None when it is not that (a delete, a key that
    exists, a write the no-row rules refuse): ``write_ops`` then decides
    under the row's lock, and raises what it must."""
    if w.op.value is None:
        return None
    try:
        store._check_write(None, w.op, reader, confirmed_by)
    except TrustViolation:
        return None
    events = _put_events(store, w, reader) if store.audit_enabled else []
    cols = journal_columns(events)
    params = {
        **store._row_params(
            w.op.namespace, w.nh, w.kh, w.tenant, w.level, w.sealed, len(w.texts), w.ttl, w.blind, reader.tainted
        ),
        **{f"e_{name}": col for name, col in zip(JOURNAL_COLUMNS, cols, strict=True)},
    }
    wrote = yield Fetch(sql.FIRST_PUT_SQL, params)
    return (False, False, None, len(events)) if wrote else None


JOURNAL_COLUMNS = ("at", "action", "actor", "session", "tenant", "item", "level", "detail")


def _put_events(store: TrustStoreBase, w: _Write, reader: Reader) -> list[AuditEvent]:
    redacted = [store._write_event("redacted", reader, w.tenant, w.ref, w.level, ",".join(w.redacted))] if w.redacted else []
    return [*redacted, store._write_event("write", reader, w.tenant, w.ref, w.level)]


def write_ops(
    store: TrustStoreBase, writes: Sequence[_Write], reader: Reader, confirmed_by: str | None, at: list[_Write]
) -> Statements:
    """Each row locked, the overwrite rules checked against it, then written
    or deleted; the writes' audit events journaled in the same transaction,
    so a write is never without its event. Returns per write: (existed, had
    vectors, level of a deleted row, events journaled)."""
    out: list[tuple[bool, bool, int | None, int]] = []
    events: list[AuditEvent] = []
    for w in writes:
        at[:] = [w]
        key = {"ns_hash": w.nh, "key_hash": w.kh}
        rows = yield sql.GET_FOR_WRITE_SQL, key, True
        if w.op.value is None and not rows:
            out.append((False, False, None, 0))
            continue
        store._check_write(rows[0][0] if rows else None, w.op, reader, confirmed_by)
        if w.op.value is None:
            gone = yield sql.DELETE_SQL, key, True
            level = gone[0][0] if gone else None
            events.append(store._write_event("delete", reader, w.tenant, w.ref, level))
            out.append((True, bool(gone and gone[0][2]), level, 1))
            continue
        params = store._row_params(
            w.op.namespace, w.nh, w.kh, w.tenant, w.level, w.sealed, len(w.texts), w.ttl, w.blind, reader.tainted
        )
        yield sql.UPSERT_SQL, params, False
        events += _put_events(store, w, reader)
        out.append((bool(rows), bool(rows) and bool(rows[0][3]), None, 1 + bool(w.redacted)))
    at.clear()
    if store.audit_enabled and events:
        yield from journal_ops(events)
    return out


# -- lifecycle -------------------------------------------------------------------------


def migrate_plan(store: TrustStoreBase, batch: int, progress: Any) -> Plan[int]:
    """Rewrite every row older than the current schema, or than the
    SQL-side columns (tags, integrity), now; ``progress(done, total)``
    after each batch."""
    version = store.migrations.current
    total = (yield Fetch(sql.COUNT_OUTDATED_SQL, {"version": version}))[0][0]
    done = 0
    while True:
        rows = yield Fetch(sql.OUTDATED_SQL, {"version": version, "limit": batch})
        if not rows:
            return done
        for r in rows:
            yield Fetch(sql.REWRITE_SQL, store._rewrite_params(r), rows=False)
        done += len(rows)
        if progress is not None:
            progress(done, total)


def outdated_plan(store: TrustStoreBase) -> Plan[int]:
    rows = yield Fetch(sql.COUNT_OUTDATED_SQL, {"version": store.migrations.current})
    return int(rows[0][0])


def sweep_plan(store: TrustStoreBase) -> Plan[int]:
    """Expired memories, and those past a retention rule, out of every tier."""
    gone = yield Txn(sweep_ops())
    if store.retention_rules:
        gone += yield Txn(retention_ops(store.retention_rules))
    refs = [(bytes(nh) + bytes(kh)).hex() for nh, kh, _t, _i in gone]
    if store.vectors is not None and refs:
        tenant_hexes = [_tenant_hex(bytes(t) if t is not None else None) for _n, _k, t, _i in gone]
        yield Call(store.vectors, "delete_refs", (refs, tenant_hexes))
    if store.cache is not None and refs:
        tenants = [bytes(t) if t is not None else None for _n, _k, t, _i in gone]
        yield cache_call(store, "invalidate", [*set(tenants), None])
    return len(refs)


def sweep_ops() -> Statements:
    return (yield sql.SWEEP_EXPIRED_SQL, (), True)


def retention_ops(rules: Sequence[tuple[int | None, bytes | None, float]]) -> Statements:
    """Apply retention rules (level rank, namespace prefix hash, max age in
    seconds); returns the deleted rows."""
    gone: list[tuple] = []
    for level, prefix, age in rules:
        gone += yield sql.SWEEP_RETENTION_SQL, {"level": level, "prefix": prefix, "age": age}, True
    return gone


def rotate_plan(store: TrustStoreBase, batch: int) -> Plan[int]:
    total = 0
    while n := (yield Txn(rotate_ops(store, batch))):
        total += n
    return total


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


# -- the embedder that made the vectors ------------------------------------------------

# A fixed public sentence: its vector names the embedder (model and settings)
# without naming any memory. Two runs of one embedder agree to float noise;
# two embedders differ far beyond that (the old and new packaged models: 0.75).
PROBE_TEXT = "langgraph-trustmem probe: which embedder made these vectors?"
SAME_EMBEDDER = 0.99  # cosine of the two probe vectors above which the embedder is the same
REINDEX_BATCH = 256


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [float(x) / norm for x in vector]


def vector_setup_plan(store: TrustStoreBase) -> Plan[int]:
    """The vector tier made ready for this store's embedder. When the
    recorded embedder is not this one (another model or size), or vectors
    exist with no record (written by a release that kept none), every memory
    is re-embedded from its sealed value before the store serves, and this
    embedder recorded. A size change empties the tier first (its collection
    or shards have the old size); a same-size change replaces each memory's
    vectors in place. One exception: a store on the packaged model never
    replaces vectors another embedder made (a CLI command opened without the
    app's index, say); its vector writes and searches are then refused until
    ``reindex()``. A tier found empty while memories are indexed (its data
    lost) is refilled the same way. Returns how many memories were re-embedded."""
    if store.vectors is None or store.embeddings is None or store.index_config is None:
        return 0
    store.vectors.use_distance(cast(Any, store.index_config.get("distance_type")))
    dims = int(cast(Any, store.index_config["dims"]))
    raw = yield Call(store.embeddings, "embed_query", (PROBE_TEXT,))
    if len(raw) != dims:
        raise ConfigurationError(f"the embedder gives {len(raw)} dimensions; the index config says {dims}")
    probe = _unit(raw)
    rows = yield Fetch(sql.VECTOR_META_SQL, {})
    if rows:
        old_dims, old_probe, old_packaged = int(rows[0][0]), _unit(rows[0][1]), bool(rows[0][2])
        judged = any(probe) and any(old_probe)  # a zero vector says nothing: keep what is there
        cosine = sum(a * b for a, b in zip(old_probe, probe, strict=False))
        if old_dims == dims and (not judged or cosine >= SAME_EMBEDDER):
            yield Call(store.vectors, "setup", (dims,))
            return (yield from _check_tier(store, rows[0][3], probe))
        if _packaged(store) and not old_packaged:
            store.embedder_mismatch = (
                "this store's vectors were made by another embedder than the packaged one it was "
                "opened with: pass the app's index, or call reindex() to re-embed with this one"
            )
            log.warning(store.embedder_mismatch)
            yield Call(store.vectors, "setup", (old_dims,))
            return 0
        if old_dims != dims:
            yield Call(store.vectors, "reset", (dims,))
    elif not (yield Fetch(sql.ANY_INDEXED_SQL, {}))[0][0]:
        yield Call(store.vectors, "setup", (dims,))
        yield Fetch(sql.VECTOR_META_SET_SQL, _meta(store, dims, probe), rows=False)
        if store.vectors.identity is not None:
            yield Fetch(sql.VECTOR_TIER_SET_SQL, {"tier": store.vectors.identity}, rows=False)
        return 0
    yield Call(store.vectors, "setup", (dims,))
    log.warning("the store's embedder is not the one its vectors were made with: re-embedding every memory")
    return (yield from _walk(store, REINDEX_BATCH, None, probe))


def _check_tier(store: TrustStoreBase, recorded: str | None, probe: list[float]) -> Plan[int]:
    """The same embedder's tier, checked for lost data: the tier that held the vectors
    (its identity recorded) found empty while memories are indexed lost them (a volume
    deleted, a server replaced) and is filled again from the sealed memories before the
    store serves. An empty tier that is not the recorded one (another directory, an
    in-memory tier) is only reported: ``reindex()`` fills it."""
    assert store.vectors is not None
    tier = store.vectors.identity
    if (yield Call(store.vectors, "is_empty", ())) and (yield Fetch(sql.ANY_INDEXED_SQL, {}))[0][0]:
        if tier is None or tier != recorded:
            log.warning("the vector tier holds no vectors though memories are indexed: call reindex() to fill it")
            return 0
        log.warning("the vector tier lost its vectors: re-embedding every memory")
        done = yield from _walk(store, REINDEX_BATCH, None, probe)
        return done
    if tier is not None and tier != recorded:
        yield Fetch(sql.VECTOR_TIER_SET_SQL, {"tier": tier}, rows=False)
    return 0


def _packaged(store: TrustStoreBase) -> bool:
    return getattr(store.embeddings, "packaged", False) is True


def _meta(store: TrustStoreBase, dims: int, probe: list[float]) -> dict[str, Any]:
    return {"dims": dims, "probe": probe, "packaged": _packaged(store)}


def reindex_plan(store: TrustStoreBase, batch: int, progress: Any) -> Plan[int]:
    """``reindex()``: every memory re-embedded with this store's embedder
    (the tier emptied first if the recorded size is another), then this
    embedder recorded."""
    if store.vectors is None or store.embeddings is None or store.index_config is None:
        return 0
    dims = int(cast(Any, store.index_config["dims"]))
    rows = yield Fetch(sql.VECTOR_META_SQL, {})
    if rows and int(rows[0][0]) != dims:
        yield Call(store.vectors, "reset", (dims,))
    probe = _unit((yield Call(store.embeddings, "embed_query", (PROBE_TEXT,))))
    done = yield from _walk(store, batch, progress, probe)
    dropped = yield from _sweep_orphans(store, batch)
    if dropped:
        log.warning("reindex dropped %d vectors whose memory is gone", dropped)
    return done


_REF = re.compile(f"[0-9a-f]{{{4 * ID_HASH_SIZE}}}")


def _sweep_orphans(store: TrustStoreBase, batch: int) -> Plan[int]:
    """Vectors whose memory is gone, deleted. A delete that raced a re-embedding pass
    killed between its vector writes and its re-read leaves one behind (a sealed vector
    no search returns, but still a trace of a deleted memory). Runs after the pass, when
    every live memory's vectors are written: a vector without a live indexed row is
    an orphan. Returns how many memories' vectors it dropped."""
    assert store.vectors is not None
    offset: Any = None
    dropped = 0
    while True:
        page, offset = yield Call(store.vectors, "refs", (batch, offset))
        tenant_of = dict(page)
        refs = [ref for ref in tenant_of if _REF.fullmatch(ref)]  # hex of the namespace's and key's hashes
        if refs:
            raw = [bytes.fromhex(ref) for ref in refs]
            rows = yield Fetch(
                sql.REINDEX_RECHECK_SQL,
                {"ns_hashes": BytesArray(r[:ID_HASH_SIZE] for r in raw), "key_hashes": BytesArray(r[ID_HASH_SIZE:] for r in raw)},
            )
            live = {(bytes(nh) + bytes(kh)).hex() for nh, kh, sealed, _, _, _, indexed in rows if sealed is not None and indexed}
            gone = [ref for ref in refs if ref not in live]
            if gone:
                yield Call(store.vectors, "delete_refs", (gone, [tenant_of[ref] for ref in gone]))
                dropped += len(gone)
        if offset is None:
            return dropped


def _walk(store: TrustStoreBase, batch: int, progress: Any, probe: list[float]) -> Plan[int]:
    """Re-embed every live indexed memory from its sealed value (the value
    upgraded to the current schema, the put's own fields if it named them),
    a page at a time: the page's old vectors deleted, the new upserted, then
    the page read again, and any row written or deleted since it was read
    done again (or its vectors dropped), so a concurrent put is never left
    with a vector of its old value. ``progress(done, total)`` after each page.
    Then this embedder is recorded as the one the vectors are made with."""
    assert store.index_config is not None
    total = int((yield Fetch(sql.COUNT_INDEXED_SQL, {}))[0][0])
    after: tuple[bytes, bytes] = (b"", b"")
    done = 0
    while True:
        page = yield Fetch(sql.REINDEX_PAGE_SQL, {"after_ns": after[0], "after_key": after[1], "limit": batch})
        if not page:
            break
        after = (bytes(page[-1][0]), bytes(page[-1][1]))
        rows = list(page)
        for _ in range(3):  # a row rewritten on every pass is left to its writer's own upsert
            rows = yield from _reembed(store, rows)
            if not rows:
                break
        done += len(page)
        if progress is not None:
            progress(done, total)
    yield Fetch(sql.VECTOR_META_SET_SQL, _meta(store, int(cast(Any, store.index_config["dims"])), probe), rows=False)
    if store.vectors is not None and store.vectors.identity is not None:
        yield Fetch(sql.VECTOR_TIER_SET_SQL, {"tier": store.vectors.identity}, rows=False)
    store.embedder_mismatch = None
    return done


_LEGACY = object()  # an envelope from before puts recorded their index fields


def _reembed(store: TrustStoreBase, rows: Sequence[Sequence[Any]]) -> Plan[list[Sequence[Any]]]:
    """Replace the vectors of (ns_hash, key_hash, sealed, version, level,
    tenant, indexed) rows; returns those changed since they were read, as
    they are now."""
    assert store.vectors is not None
    tenant_of = {(bytes(r[0]) + bytes(r[1])).hex(): _tenant_hex(bytes(r[5]) if r[5] is not None else None) for r in rows}
    refs, tenants, texts, spans, places = [], [], [], [], []
    unsure = 0
    for nh, kh, sealed, version, level, tenant, indexed in rows:
        nh, kh = bytes(nh), bytes(kh)
        tenant = bytes(tenant) if tenant is not None else None
        try:
            body = store._open(nh, kh, bytes(sealed), level, tenant)
        except TamperedDataError:  # one bad row never stops the pass; its vectors stay as they are
            log.warning("a memory row failed authentication and was not re-embedded")
            continue
        value, _version = store.migrations.upgrade(dict(body["value"]), version)
        fields = body.get("idx", _LEGACY)
        mine = store._index_texts(value, None if fields is _LEGACY else fields)
        if fields is _LEGACY and len(mine) != indexed:
            # its put may have named fields of its own: the config's could
            # send the embedder text its writer kept out; left as it is
            unsure += 1
            continue
        refs.append((nh + kh).hex())
        tenants.append(_tenant_hex(tenant))
        spans.append(len(mine))
        places.append((body["ns"], level, tenant))
        texts += mine
    if unsure:
        log.warning("%d memories from an earlier release were not re-embedded (their index fields are unknown)", unsure)
    vectors = (yield Call(store.embeddings, "embed_documents", (texts,))) if texts else []
    points, pos = [], 0
    for ref, span, (ns, level, tenant) in zip(refs, spans, places, strict=True):
        points += store._points(ref, ns, level, tenant, None, vectors[pos : pos + span])
        pos += span
    if refs:
        yield Call(store.vectors, "delete_refs", (refs, tenants))
    if points:
        yield Call(store.vectors, "upsert", (points,))
    seen = {(bytes(r[0]), bytes(r[1])): bytes(r[2]) for r in rows}
    now = yield Fetch(
        sql.REINDEX_RECHECK_SQL, {"ns_hashes": BytesArray(k[0] for k in seen), "key_hashes": BytesArray(k[1] for k in seen)}
    )
    again: list[Sequence[Any]] = []
    gone_refs, gone_tenants = [], []
    for nh, kh, sealed, version, level, tenant, indexed in now:
        key = (bytes(nh), bytes(kh))
        if sealed is not None and bytes(sealed) == seen[key]:
            continue
        if sealed is not None and indexed:
            again.append((nh, kh, sealed, version, level, tenant, indexed))
        else:  # deleted, expired or no longer indexed since the page was read
            gone_refs.append((key[0] + key[1]).hex())
            gone_tenants.append(tenant_of[gone_refs[-1]])
    if gone_refs:
        yield Call(store.vectors, "delete_refs", (gone_refs, gone_tenants))
        # A tenant left with no memory was erased meanwhile: its shard goes
        # whole (the upsert above may have made it again). A put that lands
        # just before that removal gets its vector back from the read after it.
        owners = sorted({bytes.fromhex(t) for t in gone_tenants if t})
        if owners:
            for (tenant,) in (yield Fetch(sql.TENANTS_WITHOUT_ROWS_SQL, {"tenants": owners})):
                yield Call(store.vectors, "delete_tenant", (bytes(tenant).hex(), 0))
                again += yield Fetch(sql.TENANT_INDEXED_SQL, {"tenant": bytes(tenant)})
    return again


# -- erasure ---------------------------------------------------------------------------


def forget_plan(store: TrustStoreBase, user_id: str, checkpointer: Any) -> Plan[dict[str, Any]]:
    """Erase a user from every tier, each step recorded as it completes,
    so a call after a crash resumes where the last one stopped."""
    tenant = store.user_key(user_id)
    if store.audit_enabled:  # their journaled reads are chained (pseudonymous) before the salt goes
        yield Txn(append_ops(store.keyring, [], store._salts))
    store._salts.pop(tenant, None)
    receipt_id, removed = yield Txn(erasure_start_ops(tenant))
    pending = []
    for step in ERASURE_STEPS:
        if step in removed and step not in RERUN_STEPS:
            continue
        if step == "memories":
            removed[step] = yield Txn(erase_memories_ops(receipt_id, tenant))
            continue
        before = removed.get(step, 0)
        if step == "vectors":
            removed[step] = (
                (yield from _erase_vectors(store, receipt_id, tenant.hex(), before)) if store.vectors is not None else 0
            )
        elif step == "cache":
            dropped = (yield cache_call(store, "drop_tenant", tenant)) if store.cache is not None else 0
            if dropped is None:  # Redis unreachable: owed, and done by the next call
                pending.append(step)
                continue
            removed[step] = before + dropped
        elif step == "threads":
            n = (yield Call(checkpointer, "forget_user", (user_id,))) if checkpointer is not None else 0
            removed[step] = before + n
            if getattr(getattr(checkpointer, "hot", None), "pending", 0):
                pending.append("hot tier")  # owed by this process, done before it uses Redis again
        yield Txn(erasure_step_ops(receipt_id, step, removed[step]))
    receipt = yield Txn(erasure_finish_ops(receipt_id, finished="cache" not in pending))
    if pending:
        receipt["pending"] = pending
    if store.audit_enabled:
        event = AuditEvent("erased", "forget", None, None, None, None, f"receipt {receipt['receipt_id']}")
        yield Txn(append_ops(store.keyring, [event], store._salts))
    return receipt


def _erase_vectors(store: TrustStoreBase, receipt_id: uuid.UUID, tenant: str, before: int) -> Plan[int]:
    """The vector step: what there is is recorded before it is deleted, so a
    resumed call reports what the killed one removed. A back end whose
    filters scan lists the ids once and deletes them by id."""
    vectors = store.vectors
    ids = (yield Call(vectors, "listed", (tenant,))) if hasattr(vectors, "listed") else None
    here = len(ids) if ids is not None else (yield Call(vectors, "count", (tenant,)))
    yield Txn(erasure_step_ops(receipt_id, "vectors", max(before, here)))
    if ids is not None:
        yield Call(vectors, "delete_ids", (tenant, ids))
    else:
        yield Call(vectors, "delete_tenant", (tenant, *([here] if takes_count(vectors) else [])))
    return max(before, here)


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


# -- audit -----------------------------------------------------------------------------


def fold_plan(store: TrustStoreBase) -> Plan[None]:
    """Chain what the journal holds, a short transaction at a time (a store
    does it in the background, before audit reads, and when it closes)."""
    if store.audit_enabled:
        store._journaled = 0
        while (yield Txn(fold_ops(store.keyring, store._salts, FOLD_BATCH))) == FOLD_BATCH:
            pass


def audit_trail_plan(store: TrustStoreBase, namespace: tuple[str, ...], key: str) -> Plan[list[tuple]]:
    yield from fold_plan(store)
    ref = store.ns_hash(namespace) + store.key_hash(key)
    return (yield Txn(trail_ops(store.keyring, store.tenant_of(namespace), ref)))


def audit_tail_plan(store: TrustStoreBase, n: int) -> Plan[list[tuple]]:
    yield from fold_plan(store)
    return list(reversed((yield Fetch(sql.AUDIT_TAIL_SQL, (n,)))))


def verify_audit_plan(store: TrustStoreBase) -> Plan[AuditReport]:
    yield from fold_plan(store)
    return (yield Txn(verify_ops(store.keyring)))



def single_put_plan(
    store: TrustStoreBase, op: PutOp, level: str | None, source: str | None, confirmed_by: str | None
) -> Plan[None]:
    reader = yield from reader_plan(store)
    audit = _Audit()
    try:
        yield from put_plan(store, [op], reader, audit, level, source, confirmed_by)
    finally:
        yield from audit_plan(store, audit)


# -- the public surface, once for both twins -------------------------------------------


class PlannedStore(TrustStoreBase):
    """Every public operation of the store, as a plan: ``TrustStore`` and
    ``AsyncTrustStore`` supply only ``_drive`` (run a plan, blocking) and
    ``_adrive`` (run it on asyncio), so both have the same surface."""

    def __init__(
        self,
        conn: Any,
        *,
        key: KeyRing | str | bytes | None = None,
        pipe: Any = None,
        vectors: VectorIndex | None = None,
        cache: HitCache | AsyncHitCache | None = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        levels: Ladder | list[str] | None = None,
        **kwargs: Any,
    ) -> None:
        keyring = resolve_keyring(key, required=True)
        assert keyring is not None
        super().__init__(keyring=keyring, ladder=resolve_ladder(levels), index=index, ttl=ttl, **kwargs)
        check_connection(conn, pipe)
        self.conn = conn
        self.pipe = pipe
        self.vectors = vectors
        if vectors is not None:
            vectors.use_keyring(keyring)  # vectors are stored and searched sealed under the ring
        self.cache = cache
        if self.index_config is not None and vectors is None:
            raise ValueError("an index config needs a vector tier (qdrant=...)")
        self._init_io()

    def _init_io(self) -> None:
        """The twin's lock (and loop)."""
        raise NotImplementedError

    def _drive(self, plan: Plan[T]) -> T:
        raise NotImplementedError

    async def _adrive(self, plan: Plan[T]) -> T:
        raise NotImplementedError

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return self._drive(batch_plan(self, list(ops)))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await self._adrive(batch_plan(self, list(ops)))

    def put(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
        level: str | None = None,
        source: str | None = None,
        confirmed_by: str | None = None,
    ) -> None:
        """Store a memory. ``level`` may lower the label below the writer's
        level (never raise it); ``source`` names the writer; ``confirmed_by``
        names the trusted source that confirmed an overwrite of a high-stakes
        memory."""
        op = PutOp(tuple(namespace), str(key), cast(dict[str, Any], value), index, cast(Any, ttl))
        self._drive(single_put_plan(self, op, level, source, confirmed_by))

    async def aput(
        self,
        namespace: tuple[str, ...],
        key: str,
        value: Mapping[str, Any],
        index: Literal[False] | list[str] | None = None,
        *,
        ttl: float | None | NotProvided = NOT_PROVIDED,
        level: str | None = None,
        source: str | None = None,
        confirmed_by: str | None = None,
    ) -> None:
        """Async :meth:`put`."""
        op = PutOp(tuple(namespace), str(key), cast(dict[str, Any], value), index, cast(Any, ttl))
        await self._adrive(single_put_plan(self, op, level, source, confirmed_by))

    def migrate(self, *, batch: int = 500, progress: Any = None) -> int:
        """Upgrade every row older than the current schema version (or than
        the SQL-side filter tags) now; reads upgrade lazily anyway.
        ``progress(done, total)`` is called after each batch. Returns the
        number of rows rewritten."""
        return self._drive(migrate_plan(self, batch, progress))

    async def amigrate(self, *, batch: int = 500, progress: Any = None) -> int:
        """Async :meth:`migrate`."""
        return await self._adrive(migrate_plan(self, batch, progress))

    def reindex(self, *, batch: int = REINDEX_BATCH, progress: Any = None) -> int:
        """Re-embed every memory from PostgreSQL into the vector tier now (after
        restoring or replacing a vector tier; ``setup()`` does it by itself when
        the embedder changed). ``progress(done, total)`` after each page.
        Returns how many memories were re-embedded."""
        return self._drive(reindex_plan(self, batch, progress))

    async def areindex(self, *, batch: int = REINDEX_BATCH, progress: Any = None) -> int:
        """Async :meth:`reindex`."""
        return await self._adrive(reindex_plan(self, batch, progress))

    def outdated_count(self) -> int:
        """How many memories :meth:`migrate` would rewrite."""
        return self._drive(outdated_plan(self))

    async def aoutdated_count(self) -> int:
        """Async :meth:`outdated_count`."""
        return await self._adrive(outdated_plan(self))

    def sweep_ttl(self) -> int:
        """Delete expired memories, and those past a retention rule, from
        every tier; returns how many."""
        return self._drive(sweep_plan(self))

    async def asweep_ttl(self) -> int:
        """Async :meth:`sweep_ttl`."""
        return await self._adrive(sweep_plan(self))

    def rotate_keys(self, *, batch: int = 500) -> int:
        """Re-seal memories and audit salts sealed with an older key under the
        active one; returns how many rows were re-sealed."""
        return self._drive(rotate_plan(self, batch))

    async def arotate_keys(self, *, batch: int = 500) -> int:
        """Async :meth:`rotate_keys`."""
        return await self._adrive(rotate_plan(self, batch))

    def forget(self, user_id: str, *, checkpointer: Any = None) -> dict[str, Any]:
        """Erase a user's memories from Qdrant, Redis and PostgreSQL (and,
        given a checkpointer, their threads). Each step is recorded as it
        completes, so a call after a crash resumes where the last one
        stopped; calling it again is harmless. Returns the receipt: what each
        tier removed, under an id that names no one."""
        return self._drive(forget_plan(self, user_id, checkpointer))

    async def aforget(self, user_id: str, *, checkpointer: Any = None) -> dict[str, Any]:
        """Async :meth:`forget`."""
        return await self._adrive(forget_plan(self, user_id, checkpointer))

    def audit_trail(self, namespace: tuple[str, ...], key: str) -> list[tuple]:
        """The audit events of one memory, oldest first:
        (seq, at, action, actor, level, detail). Nothing names its content."""
        return self._drive(audit_trail_plan(self, namespace, key))

    async def aaudit_trail(self, namespace: tuple[str, ...], key: str) -> list[tuple]:
        """Async :meth:`audit_trail`."""
        return await self._adrive(audit_trail_plan(self, namespace, key))

    def audit_tail(self, n: int = 20) -> list[tuple]:
        """The latest ``n`` audit events, oldest first."""
        return self._drive(audit_tail_plan(self, n))

    async def aaudit_tail(self, n: int = 20) -> list[tuple]:
        """Async :meth:`audit_tail`."""
        return await self._adrive(audit_tail_plan(self, n))

    def verify_audit(self) -> AuditReport:
        """Walk the audit chain (journaled reads folded in first) and report
        the first broken link, if any."""
        return self._drive(verify_audit_plan(self))

    async def averify_audit(self) -> AuditReport:
        """Async :meth:`verify_audit`."""
        return await self._adrive(verify_audit_plan(self))
