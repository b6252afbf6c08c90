"""The audit log: an append-only, hash-chained record of every memory read,
write, search hit, refusal and erasure.

Events name who acted (a source such as ``session:model``), the session,
tenant and memory as pseudonyms, and the level — never content. A user's
pseudonyms are keyed with a random salt kept (sealed) per user; erasing the
user deletes the salt, so their events can no longer be linked to them,
while every link of the chain still verifies. Each event's hash is an HMAC over the previous hash and the
event, under a key derived from the key ring, so an edit, insertion or
deletion anywhere breaks every later link; :func:`verify_ops` finds it.
Appends take a transaction-scoped advisory lock so concurrent writers never
fork the chain.

Reads do not take that lock: the statement that reads a memory also writes
its event to a journal (``trustmem_audit_journal``), committed with the read
and so never lost, even if the process dies right after. Every append folds
the journal into the chain first, oldest first, and a store folds on its own
after every few hundred journaled reads; ``verify_ops`` callers fold first.
Until folded, a journaled event is protected by the database's access
control only (deleting it is not detected); that window is documented in
the threat model.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

import orjson

from langgraph_trustmem.crypto import KeyRing, aad
from langgraph_trustmem.pg import Statements
from langgraph_trustmem.store import sql

GENESIS = b"\x00" * 32


@dataclass(frozen=True)
class AuditEvent:
    action: str  # read, write, delete, search-hit, refused, erased, ...
    actor: str | None = None
    session: bytes | None = None
    tenant: bytes | None = None
    item: bytes | None = None
    level: int | None = None
    detail: str | None = None
    at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))


def _canonical(seq: int, e: AuditEvent) -> bytes:
    return orjson.dumps(
        [
            seq,
            e.at.astimezone(timezone.utc).isoformat(),
            e.action,
            e.actor,
            e.session.hex() if e.session else None,
            e.tenant.hex() if e.tenant else None,
            e.item.hex() if e.item else None,
            e.level,
            e.detail,
        ]
    )


def link(keyring: KeyRing, prev: bytes, seq: int, event: AuditEvent) -> bytes:
    return keyring.mac(prev + _canonical(seq, event))


def _salt_ops(keyring: KeyRing, tenant: bytes) -> Statements:
    """The tenant's salt, created on first use."""
    where = aad("audit-salt", tenant)
    yield sql.SUBJECT_SALT_INSERT_SQL, (tenant, keyring.encrypt(os.urandom(32), where)), False
    rows = yield sql.SUBJECT_SALT_SQL, (tenant,), True
    return keyring.decrypt(bytes(rows[0][0]), where)


def _pseudonymous(
    salt: bytes | None, e: AuditEvent, memo: dict[tuple[bytes, str, bytes], bytes] | None = None
) -> AuditEvent:
    if salt is None:
        return e
    memo = memo if memo is not None else {}

    def ps(v: bytes | None, kind: str) -> bytes | None:
        if v is None:
            return None
        got = memo.get((salt, kind, v))
        if got is None:
            got = memo[(salt, kind, v)] = pseudonym(salt, kind, v)
        return got

    return replace(
        e, tenant=ps(e.tenant, "tenant"), session=ps(e.session, "session"), item=ps(e.item, "item")
    )


JOURNAL_BATCH = 10_000


def journal_columns(events: Sequence[AuditEvent]) -> list[list[Any]]:
    """Events as the journal's columns (at, action, actor, session, tenant,
    item, level, detail), the arrays its insert statements unnest."""
    rows = [(e.at, e.action, e.actor, e.session, e.tenant, e.item, e.level, e.detail) for e in events]
    return [list(c) for c in zip(*rows, strict=True)] if rows else [[] for _ in range(8)]


def journal_ops(events: Sequence[AuditEvent]) -> Statements:
    """Journal events inside the caller's transaction (writes: the event
    commits with the write); the next append chains them."""
    yield sql.JOURNAL_INSERT_SQL, journal_columns(events), False


def fold_ops(keyring: KeyRing, salts: dict[bytes, bytes], batch: int = JOURNAL_BATCH) -> Statements:
    """Chain up to ``batch`` journaled events, oldest first, in one
    transaction under the chain's lock; returns how many were taken. Small
    batches keep each fold short (it runs beside requests)."""
    yield sql.AUDIT_LOCK_SQL, (), False
    taken = yield sql.JOURNAL_TAKE_SQL, (batch,), True
    events = [
        AuditEvent(action, actor, _b(session), _b(tenant), _b(item), level, detail, at)
        for _id, at, action, actor, session, tenant, item, level, detail in sorted(taken, key=lambda r: r[0])
    ]
    yield from _chain_ops(keyring, events, salts)
    return len(taken)


def append_ops(
    keyring: KeyRing, events: Sequence[AuditEvent], salts: dict[bytes, bytes] | None = None
) -> Statements:
    """Fold the whole journal, then append ``events``: one transaction,
    under the chain's lock. ``salts`` caches users' salts across calls."""
    salts = salts if salts is not None else {}
    yield sql.AUDIT_LOCK_SQL, (), False
    pending: list[AuditEvent] = []
    while True:
        taken = yield sql.JOURNAL_TAKE_SQL, (JOURNAL_BATCH,), True
        for _id, at, action, actor, session, tenant, item, level, detail in sorted(taken, key=lambda r: r[0]):
            pending.append(AuditEvent(action, actor, _b(session), _b(tenant), _b(item), level, detail, at))
        if len(taken) < JOURNAL_BATCH:
            break
    pending += events
    yield from _chain_ops(keyring, pending, salts)
    return len(pending)


def _chain_ops(keyring: KeyRing, events: Sequence[AuditEvent], salts: dict[bytes, bytes]) -> Statements:
    """Pseudonymise and link ``events`` after the head (the lock is held)."""
    if not events:
        return
    for e in events:
        if e.tenant is not None and e.tenant not in salts:
            salts[e.tenant] = yield from _salt_ops(keyring, e.tenant)
    memo: dict[tuple[bytes, str, bytes], bytes] = {}  # a fold repeats tenants and sessions
    pending = [_pseudonymous(salts.get(e.tenant) if e.tenant else None, e, memo) for e in events]
    head = yield sql.AUDIT_HEAD_SQL, (), True
    seq, prev = (head[0][0], bytes(head[0][1])) if head else (0, GENESIS)
    cols: dict[str, list[Any]] = {
        k: [] for k in ("seq", "at", "action", "actor", "session", "tenant", "item", "level", "detail", "prev", "hash")
    }
    for e in pending:
        seq += 1
        h = link(keyring, prev, seq, e)
        for k, v in zip(
            cols,
            (seq, e.at, e.action, e.actor, e.session, e.tenant, e.item, e.level, e.detail, prev, h),
            strict=True,
        ):
            cols[k].append(v)
        prev = h
    yield sql.AUDIT_INSERT_MANY_SQL, cols, False
    yield sql.AUDIT_ANCHOR_SQL, {"seq": seq, "hash": prev, "mac": anchor_mac(keyring, seq, prev)}, False


def anchor_mac(keyring: KeyRing, seq: int, head: bytes) -> bytes:
    """The MAC of the chain's head: it says how long the chain is."""
    return keyring.mac(aad("audit-anchor", seq, head))


@dataclass(frozen=True)
class AuditReport:
    """The result of walking the chain."""

    events: int
    ok: bool
    first_bad_seq: int | None = None


def trail_ops(keyring: KeyRing, tenant: bytes | None, item: bytes, limit: int = 1000) -> Statements:
    """The events of one memory, oldest first: (seq, at, action, actor, level, detail)."""
    if tenant is not None:
        rows = yield sql.SUBJECT_SALT_SQL, (tenant,), True
        if not rows:
            return []
        item = pseudonym(keyring.decrypt(bytes(rows[0][0]), aad("audit-salt", tenant)), "item", item)
    return (yield sql.AUDIT_TRAIL_SQL, (item, limit), True)


def verify_ops(keyring: KeyRing, page: int = 5000) -> Statements:
    """Walk the whole chain, recomputing every link."""
    prev, last, count = GENESIS, 0, 0
    while True:
        rows = yield sql.AUDIT_SCAN_SQL, (last, page), True
        if not rows:
            anchor = yield sql.AUDIT_ANCHOR_READ_SQL, (), True
            if not anchor:
                return AuditReport(count, count == 0, None if count == 0 else 1)
            seq, head, mac = anchor[0][0], bytes(anchor[0][1]), bytes(anchor[0][2])
            if not hmac.compare_digest(mac, anchor_mac(keyring, seq, head)) or (seq, head) != (last, prev):
                return AuditReport(count, False, min(seq, last) + 1)
            return AuditReport(count, True)
        for seq, at, action, actor, session, tenant, item, level, detail, prev_hash, h in rows:
            event = AuditEvent(action, actor, _b(session), _b(tenant), _b(item), level, detail, at)
            if seq != last + 1 or bytes(prev_hash) != prev or link(keyring, prev, seq, event) != bytes(h):
                return AuditReport(count, False, seq if seq == last + 1 else last + 1)
            prev, last, count = bytes(h), seq, count + 1


def _b(v: Any) -> bytes | None:
    return bytes(v) if v is not None else None


def pseudonym(salt: bytes, kind: str, value: bytes) -> bytes:
    """How an event names a user's tenant, session or item (for queries)."""
    return hmac.new(salt, kind.encode() + b"\x00" + value, hashlib.sha256).digest()[:16]


__all__ = ["AuditEvent", "AuditReport", "append_ops", "fold_ops", "journal_columns", "journal_ops", "link", "pseudonym", "trail_ops", "verify_ops"]
