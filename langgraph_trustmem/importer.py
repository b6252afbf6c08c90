"""Adoption: move a stock LangGraph PostgreSQL database into trust memory.

An app that runs LangGraph's ``PostgresSaver`` and ``PostgresStore`` moves
its threads and memories here with :func:`import_from_postgres` (or
``trustmem import --from-postgres URL``). The source is read through the
stock classes (``PostgresSaver.list``) and their documented tables, on
connections that are read-only; everything is written through the trust
checkpointer and store, so it is sealed, hashed, labelled and audited like
native data. Levels come from :class:`ImportRules`, never from content.

Re-running is safe and does not duplicate: threads, checkpoints and writes
are keyed by their ids (a checkpoint already here is skipped), memories by
namespace and key (one already here that is as new as the source's is
skipped; a newer source version overwrites it in place).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg
from langgraph.checkpoint.base import WRITES_IDX_MAP, CheckpointTuple, writes_sort_key
from langgraph.store.base import GetOp, PutOp
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from langgraph_trustmem.errors import ImportSourceError, ServiceUnavailable, TrustMemError
from langgraph_trustmem.services import CONNECT_TIMEOUT, probe_postgres
from langgraph_trustmem.store.base import check_value, validate_namespace
from langgraph_trustmem.trust import DEFAULT_LADDER, Ladder

Progress = Callable[[str, int, int], None]
ThreadLevelRule = Callable[[str, Mapping[str, Any]], "str | None"]


@dataclass(frozen=True)
class ImportRules:
    """Which level each imported thread and memory gets, decided by rules
    the operator gives, never by reading content.

    ``namespace_levels`` maps a namespace prefix (a tuple, or the stock
    store's dotted text) to a level for memories; the longest matching
    prefix wins, else ``item_level``. A thread's level is
    ``thread_level_of(thread_id, metadata)`` (the metadata of its oldest
    checkpoint) when that returns a level, else the value of
    ``thread_level_key`` in its checkpoint metadata, else ``thread_level``.
    Unset defaults are the ladder's highest level: content of unknown
    sensitivity is treated as the most confidential (fail closed). A thread
    is owned by the value of ``owner_key`` in its metadata (LangGraph
    copies ``configurable.user_id`` there), as a thread its user started
    here would be. Metadata keys are read from the oldest checkpoint that
    has them. A thread whose rule names a level not on the ladder is
    refused (counted), never given a guessed level.
    """

    thread_level: str | None = None
    item_level: str | None = None
    namespace_levels: Mapping[tuple[str, ...] | str, str] = field(default_factory=dict)
    thread_level_key: str | None = None
    thread_level_of: ThreadLevelRule | None = None
    owner_key: str | None = "user_id"

    def check(self, ladder: Ladder) -> None:
        """Refuse (``UnknownLevelError``) a level that is not on the ladder,
        before anything is read or written."""
        for level in (self.thread_level, self.item_level, *self.namespace_levels.values()):
            if level is not None:
                ladder.rank(level)

    def item_level_of(self, ladder: Ladder, namespace: Sequence[str]) -> str:
        best: tuple[int, str] | None = None
        for key, level in self.namespace_levels.items():
            prefix = _namespace(key) if isinstance(key, str) else tuple(key)
            if tuple(namespace[: len(prefix)]) == prefix and (best is None or len(prefix) > best[0]):
                best = (len(prefix), level)
        if best is not None:
            return best[1]
        return self.item_level or ladder.levels[-1]

    def thread_level_for(self, ladder: Ladder, thread_id: str, history: Sequence[CheckpointTuple]) -> str:
        """The level of a thread (``history`` oldest first); a level not on
        the ladder raises ``UnknownLevelError``."""
        level: Any = None
        if self.thread_level_of is not None:
            level = self.thread_level_of(thread_id, dict(history[0].metadata or {}) if history else {})
        if level is None and self.thread_level_key:
            level = _first(history, self.thread_level_key)
        if level is None:
            level = self.thread_level or ladder.levels[-1]
        ladder.rank(level if isinstance(level, str) else "")
        return str(level)

    def owner_for(self, history: Sequence[CheckpointTuple]) -> str | None:
        owner = _first(history, self.owner_key) if self.owner_key else None
        return str(owner) if owner is not None else None


def _first(history: Sequence[CheckpointTuple], key: str) -> Any:
    for tup in history:
        value = (tup.metadata or {}).get(key)
        if value is not None:
            return value
    return None


@dataclass(frozen=True)
class ImportCounts:
    """Threads, checkpoints, pending writes and memories."""

    threads: int = 0
    checkpoints: int = 0
    writes: int = 0
    items: int = 0

    def __add__(self, other: ImportCounts) -> ImportCounts:
        return ImportCounts(
            self.threads + other.threads,
            self.checkpoints + other.checkpoints,
            self.writes + other.writes,
            self.items + other.items,
        )


@dataclass(frozen=True)
class ImportResult:
    """What an import found, wrote and read back.

    ``source``: what the stock database holds (live memories only);
    ``written``: what this run wrote (nothing in a dry run; a re-run writes
    only what is missing or newer); ``skipped``: already here;
    ``verified``: read back through the trust checkpointer and store after
    writing (None in a dry run); ``refused``: threads or memories the trust
    layer refused, by error type; ``levels``: how many threads and memories
    each level got; ``expired``: source memories past their TTL, not moved.
    """

    dry_run: bool
    source: ImportCounts
    written: ImportCounts
    skipped: ImportCounts
    verified: ImportCounts | None
    refused: Mapping[str, int]
    levels: Mapping[str, Mapping[str, int]]
    expired: int
    seconds: float

    @property
    def ok(self) -> bool:
        """Nothing refused, and (unless a dry run) every count read back
        equals the source's."""
        return not self.refused and (self.dry_run or self.verified == self.source)

    def to_dict(self) -> dict[str, Any]:
        """Stable keys, level names, counts only (no ids, no content)."""
        return {
            "dry_run": self.dry_run,
            "ok": self.ok,
            "source": asdict(self.source),
            "written": asdict(self.written),
            "skipped": asdict(self.skipped),
            "verified": asdict(self.verified) if self.verified is not None else None,
            "refused": dict(sorted(self.refused.items())),
            "levels": {k: dict(sorted(v.items())) for k, v in self.levels.items()},
            "expired": self.expired,
            "seconds": round(self.seconds, 3),
        }


class _Tally:
    """Counters the workers add to (under a lock)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts = {name: ImportCounts() for name in ("source", "written", "skipped", "verified")}
        self.refused: Counter[str] = Counter()
        self.levels: dict[str, Counter[str]] = {"threads": Counter(), "items": Counter()}

    def count(self, name: str, counts: ImportCounts) -> None:
        with self.lock:
            self.counts[name] += counts

    def refuse(self, error: BaseException) -> None:
        """A thread or memory the trust layer refused, by error type only."""
        with self.lock:
            self.refused[type(error).__name__] += 1

    def level(self, kind: str, level: str) -> None:
        with self.lock:
            self.levels[kind][level] += 1


# -- the source --------------------------------------------------------------

_TABLES_SQL = (
    "SELECT to_regclass('checkpoints') IS NOT NULL AS checkpoints, to_regclass('store') IS NOT NULL AS store"
)
_COLUMNS_SQL = """
SELECT table_name, column_name FROM information_schema.columns
WHERE table_name IN ('checkpoint_writes', 'store') AND table_schema = ANY(current_schemas(false))
"""
_THREAD_IDS_SQL = "SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id"
_WRITE_KEYS_SQL = """
SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel FROM checkpoint_writes
WHERE thread_id = %s
"""
_LIVE = "(expires_at IS NULL OR expires_at > now())"
_ITEMS_COUNT_SQL = (
    "SELECT count(*) FILTER (WHERE {live}) AS live, count(*) FILTER (WHERE NOT {live}) AS expired FROM store"
)
_ITEMS_PAGE_SQL = """
SELECT prefix, key, value, created_at, updated_at, {ttl} FROM store
WHERE {live} AND (prefix, key) > (%s, %s) ORDER BY prefix, key LIMIT %s
"""


def _read_only(conn: psycopg.Connection) -> None:
    """The source is never written: every transaction on it is read-only."""
    conn.execute("SET default_transaction_read_only = on")


@contextmanager
def _source_pool(url: str, size: int) -> Iterator[ConnectionPool]:
    """Connections to the source as the stock classes want them (autocommit,
    dict rows, no prepared statements), read-only."""
    try:
        probe_postgres(url)
    except ServiceUnavailable as err:
        raise ImportSourceError(f"the source PostgreSQL {err.reason}") from None
    pool = ConnectionPool(
        url,
        min_size=1,
        max_size=size,
        kwargs={
            "autocommit": True,
            "prepare_threshold": None,
            "row_factory": dict_row,
            "connect_timeout": int(CONNECT_TIMEOUT),
        },
        configure=_read_only,
        open=False,
    )
    try:
        pool.open(wait=True, timeout=CONNECT_TIMEOUT * 2)
    except PoolTimeout:
        pool.close()
        raise ImportSourceError("the source PostgreSQL did not give a connection in time") from None
    with pool:
        yield pool


class _Source:
    """The stock database, read through ``PostgresSaver`` and the documented
    ``checkpoint_writes`` and ``store`` tables."""

    def __init__(self, pool: ConnectionPool, serde: Any = None) -> None:
        from langgraph.checkpoint.postgres import PostgresSaver  # noqa: PLC0415

        self.pool = pool
        self.saver = PostgresSaver(pool, serde=serde)  # type: ignore[arg-type]
        tables = self._rows(_TABLES_SQL)[0]
        columns = {(r["table_name"], r["column_name"]) for r in self._rows(_COLUMNS_SQL)}
        has_checkpoints, has_store = bool(tables["checkpoints"]), bool(tables["store"])
        if not has_checkpoints and not has_store:
            raise ImportSourceError(
                "the source database has no PostgresSaver or PostgresStore tables: check the database "
                "and search_path in the URL"
            )
        if has_checkpoints and ("checkpoint_writes", "task_path") not in columns:
            raise ImportSourceError(
                "the source's checkpoint tables are older than langgraph-checkpoint-postgres reads: "
                "run PostgresSaver.setup() on the source once, then import"
            )
        self.has_checkpoints = has_checkpoints
        self.has_store = has_store
        self.store_ttl = ("store", "ttl_minutes") in columns  # a store set up before TTLs has none
        self.live = _LIVE if self.store_ttl else "true"

    def _rows(self, query: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
            return cur.execute(query, params).fetchall()

    def thread_ids(self) -> list[str]:
        if not self.has_checkpoints:
            return []
        return [r["thread_id"] for r in self._rows(_THREAD_IDS_SQL)]

    def history(self, thread_id: str) -> list[CheckpointTuple]:
        """A thread's checkpoints in every namespace, oldest first."""
        try:
            tuples = list(self.saver.list({"configurable": {"thread_id": thread_id}}))
        except psycopg.Error:
            raise
        except Exception as err:
            raise ImportSourceError(
                f"a source checkpoint could not be read ({type(err).__name__}); pass the serde the "
                "source was written with"
            ) from None
        return sorted(tuples, key=lambda t: (_cid(t), _ns(t)))

    def write_keys(self, thread_id: str) -> dict[tuple[str, str], list[tuple[str, str, int, str]]]:
        """Each checkpoint's writes as (task_id, task_path, idx, channel), in
        the order ``PostgresSaver`` returns them (LangGraph's writes order)."""
        out: dict[tuple[str, str], list[tuple[str, str, int, str]]] = {}
        for r in self._rows(_WRITE_KEYS_SQL, (thread_id,)):
            key = (r["checkpoint_ns"], r["checkpoint_id"])
            out.setdefault(key, []).append((r["task_id"], r["task_path"], r["idx"], r["channel"]))
        for rows in out.values():
            rows.sort(key=lambda w: writes_sort_key(w[1], w[0], w[2]))
        return out

    def item_counts(self) -> tuple[int, int]:
        """(live, expired) memories."""
        if not self.has_store:
            return 0, 0
        row = self._rows(_ITEMS_COUNT_SQL.format(live=self.live))[0]
        return int(row["live"]), int(row["expired"])

    def items(self, page: int) -> Iterator[list[dict[str, Any]]]:
        """Live memories in pages, in (namespace, key) order (keyset paging:
        a page never repeats or skips a row)."""
        if not self.has_store:
            return
        ttl = "expires_at, ttl_minutes" if self.store_ttl else "NULL AS expires_at, NULL AS ttl_minutes"
        query = _ITEMS_PAGE_SQL.format(ttl=ttl, live=self.live)
        after = ("", "")
        while True:
            rows = self._rows(query, (*after, page))
            if not rows:
                return
            yield rows
            after = (rows[-1]["prefix"], rows[-1]["key"])


def _cid(tup: CheckpointTuple) -> str:
    return str(tup.config["configurable"]["checkpoint_id"])


def _ns(tup: CheckpointTuple) -> str:
    return str(tup.config["configurable"].get("checkpoint_ns") or "")


def _parent(tup: CheckpointTuple) -> str | None:
    if not tup.parent_config:
        return None
    return tup.parent_config["configurable"].get("checkpoint_id")


# -- threads -----------------------------------------------------------------


def _grouped_writes(
    tup: CheckpointTuple, keys: Sequence[tuple[str, str, int, str]]
) -> list[tuple[str, str, list[tuple[str, Any]]]]:
    """A checkpoint's pending writes as ``put_writes`` calls: one per task
    (task id, task path), its ordinary writes in their index order first,
    so each keeps the index it had, then the special channels (whose index
    is fixed)."""
    pending = list(tup.pending_writes or ())
    aligned = len(keys) == len(pending) and all(k[0] == p[0] and k[3] == p[1] for k, p in zip(keys, pending, strict=False))
    calls: dict[tuple[str, str], list[tuple[int, str, Any]]] = {}
    for i, (task_id, channel, value) in enumerate(pending):
        path, idx = (keys[i][1], keys[i][2]) if aligned else ("", i)
        calls.setdefault((task_id, path), []).append((idx, channel, value))
    out = []
    for (task_id, path), writes in calls.items():
        ordinary = sorted((w for w in writes if w[1] not in WRITES_IDX_MAP), key=lambda w: w[0])
        special = [w for w in writes if w[1] in WRITES_IDX_MAP]
        out.append((task_id, path, [(c, v) for _, c, v in ordinary + special]))
    return out


class _Threads:
    """Moves threads one at a time (each in one worker), oldest checkpoint
    first so parents precede children and the thread's head is its newest."""

    def __init__(self, source: _Source, saver: Any, rules: ImportRules, ladder: Ladder, tally: _Tally):
        self.source, self.saver, self.rules, self.ladder, self.tally = source, saver, rules, ladder, tally

    def move(self, thread_id: str, dry_run: bool) -> None:
        history = self.source.history(thread_id)
        if not history:
            return
        n_writes = sum(len(t.pending_writes or ()) for t in history)
        self.tally.count("source", ImportCounts(1, len(history), n_writes, 0))
        try:
            level = self.rules.thread_level_for(self.ladder, thread_id, history)
        except TrustMemError as err:
            self.tally.refuse(err)
            return
        self.tally.level("threads", level)
        if dry_run:
            return
        owner = self.rules.owner_for(history)
        base: dict[str, Any] = {"thread_id": thread_id}
        if owner is not None:
            base["user_id"] = owner
        try:
            self._write(history, self.source.write_keys(thread_id), base, level)
        except TrustMemError as err:  # refused by the trust layer: the other threads go on
            self.tally.refuse(err)
        self._verify(history, base)

    def _ours(self, base: Mapping[str, Any]) -> dict[tuple[str, str], int]:
        """What the trust checkpointer holds of the thread: (ns, id) -> writes."""
        return {
            (_ns(t), _cid(t)): len(t.pending_writes or ()) for t in self.saver.list({"configurable": base})
        }

    def _write(
        self,
        history: Sequence[CheckpointTuple],
        keys: Mapping[tuple[str, str], Sequence[tuple[str, str, int, str]]],
        base: Mapping[str, Any],
        level: str,
    ) -> None:
        ours = self._ours(base)
        by_id = {(_ns(t), _cid(t)): t for t in history}
        written, skipped = [0, 0], [0, 0]  # checkpoints, writes
        complete = False
        try:
            for tup in history:
                ns, cid, parent = _ns(tup), _cid(tup), _parent(tup)
                n = len(tup.pending_writes or ())
                here = ours.get((ns, cid))
                if here is not None:
                    skipped[0] += 1
                    if here >= n:
                        skipped[1] += n
                        continue
                else:
                    versions = tup.checkpoint["channel_versions"]
                    before = by_id.get((ns, parent)) if parent else None
                    seen = before.checkpoint["channel_versions"] if before is not None else {}
                    conf = {**base, "checkpoint_ns": ns, "trust": level}
                    if parent:
                        conf["checkpoint_id"] = parent
                    new_versions = {c: v for c, v in versions.items() if seen.get(c) != v}
                    self.saver.put({"configurable": conf}, tup.checkpoint, tup.metadata, new_versions)
                    written[0] += 1
                wconf = {"configurable": {**base, "checkpoint_ns": ns, "checkpoint_id": cid}}
                for task_id, path, writes in _grouped_writes(tup, keys.get((ns, cid), ())):
                    self.saver.put_writes(wconf, writes, task_id, path)
                written[1] += n
            complete = True
        finally:  # what was written counts even when a refusal stopped the thread
            new = 1 if written[0] else 0
            self.tally.count("written", ImportCounts(new, written[0], written[1], 0))
            here = 1 if complete and not new else 0
            self.tally.count("skipped", ImportCounts(here, skipped[0], skipped[1], 0))

    def _verify(self, history: Sequence[CheckpointTuple], base: Mapping[str, Any]) -> None:
        """Read the thread back through the trust checkpointer (decrypting
        every checkpoint and write) and count what of the source is there."""
        try:
            ours = self._ours(base)
        except TrustMemError:
            return
        present = [k for k in ((_ns(t), _cid(t)) for t in history) if k in ours]
        if present:
            self.tally.count("verified", ImportCounts(1, len(present), sum(ours[k] for k in present), 0))


# -- memories ----------------------------------------------------------------

_TIMES_SQL = """
UPDATE trustmem_memories m SET created_at = COALESCE(u.created_at, m.created_at),
    updated_at = COALESCE(u.updated_at, m.updated_at),
    expires_at = CASE WHEN m.ttl_minutes IS NULL THEN m.expires_at
        ELSE COALESCE(u.expires_at, m.expires_at) END
FROM unnest(%s::bytea[], %s::bytea[], %s::timestamptz[], %s::timestamptz[], %s::timestamptz[])
    AS u(ns_hash, key_hash, created_at, updated_at, expires_at)
WHERE m.ns_hash = u.ns_hash AND m.key_hash = u.key_hash
"""


def _namespace(prefix: str) -> tuple[str, ...]:
    """A stock store's namespace: its labels joined by '.' (which a stock
    label cannot contain)."""
    return tuple(prefix.split("."))


class _Items:
    """Moves memories in chunks: written through the store (sealed,
    labelled, audited; vectors as the store indexes them), their times
    kept, then read back."""

    def __init__(self, store: Any, rules: ImportRules, ladder: Ladder, tally: _Tally, index: bool):
        self.store, self.rules, self.ladder, self.tally, self.index = store, rules, ladder, tally, index
        self.top = ladder.levels[-1]
        # a store with no memories yet has nothing to skip: no read before writing
        self.fresh = store is None or not store.bound(self.top).search((), limit=1)

    def move(self, rows: Sequence[Mapping[str, Any]], dry_run: bool) -> None:
        self.tally.count("source", ImportCounts(0, 0, 0, len(rows)))
        valid = []
        for row in rows:
            try:
                validate_namespace(_namespace(row["prefix"]))
                check_value(row["value"])
            except TrustMemError as err:
                self.tally.refuse(err)
                continue
            level = self.rules.item_level_of(self.ladder, _namespace(row["prefix"]))
            self.tally.level("items", level)
            valid.append((row, level))
        if dry_run or not valid:
            return
        reader = self.store.bound(self.top)  # a copy: reads from PostgreSQL, the system of record
        reader.cache = None
        gets = [GetOp(_namespace(r["prefix"]), r["key"], False) for r, _ in valid]
        existing = [None] * len(valid) if self.fresh else reader.batch(gets)
        todo: dict[str, list[Mapping[str, Any]]] = {}
        for (row, level), have in zip(valid, existing, strict=False):
            if have is not None and row["updated_at"] is not None and have.updated_at >= row["updated_at"]:
                continue  # imported before (it has the source's time), or changed here since
            todo.setdefault(level, []).append(row)
        written = [r for level, group in todo.items() for r in self._put(level, group)]
        self.tally.count("written", ImportCounts(0, 0, 0, len(written)))
        self.tally.count("skipped", ImportCounts(0, 0, 0, len(valid) - sum(map(len, todo.values()))))
        if written:
            self._keep_times(written)
        back = reader.batch(gets)
        self.tally.count("verified", ImportCounts(0, 0, 0, sum(1 for item in back if item is not None)))

    def _op(self, row: Mapping[str, Any]) -> PutOp:
        ttl = row.get("ttl_minutes")
        return PutOp(
            _namespace(row["prefix"]),
            row["key"],
            row["value"],
            None if self.index else False,
            float(ttl) if ttl is not None else None,
        )

    def _put(self, level: str, rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        """Write one level's rows in one batch (item by item when something
        in it is refused, so a refusal costs only that memory). Returns the
        rows written."""
        view = self.store.bound(level)
        view.cache = None  # invalidated once per batch, after the times are set (see _keep_times)
        ops = [self._op(r) for r in rows]
        try:
            view.batch(ops)
            return list(rows)
        except TrustMemError:
            pass
        done = []
        for row, op in zip(rows, ops, strict=False):
            try:
                view.batch([op])
                done.append(row)
            except TrustMemError as err:
                self.tally.refuse(err)
        return done

    def _keep_times(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Give imported rows their source times (creation, last update,
        expiry): plain columns outside the sealed envelope, which ``put``
        sets to now. Then drop what the store's Redis cache may hold of
        them, in one round trip for the batch."""
        store = self.store
        nss = [_namespace(r["prefix"]) for r in rows]
        params = (
            [store.ns_hash(ns) for ns in nss],
            [store.key_hash(r["key"]) for r in rows],
            [r["created_at"] for r in rows],
            [r["updated_at"] for r in rows],
            [r.get("expires_at") for r in rows],
        )
        with store._cursor() as cur:
            cur.execute(_TIMES_SQL, params)
        if store.cache is not None:
            store.cache.invalidate([store.tenant_of(ns) for ns in nss] + [None])


# -- the import ----------------------------------------------------------------


def import_from_postgres(
    source: str,
    *,
    checkpointer: Any = None,
    store: Any = None,
    rules: ImportRules | None = None,
    dry_run: bool = False,
    levels: Ladder | None = None,
    threads: bool = True,
    items: bool = True,
    index: bool = True,
    serde: Any = None,
    workers: int = 4,
    batch: int = 500,
    progress: Progress | None = None,
) -> ImportResult:
    """Move a stock ``PostgresSaver`` / ``PostgresStore`` database (``source``,
    a PostgreSQL URL, only ever read) into ``checkpointer`` (a
    ``TrustCheckpointSaver``) and ``store`` (a ``TrustStore``); threads move
    only when a checkpointer is given (and ``threads``), memories only when
    a store is (and ``items``).

    Threads keep their ids, checkpoint ids, parent links, namespaces,
    metadata and pending writes (a checkpoint's metadata also gains
    ``trust``, and ``user_id`` when the thread has an owner, as a native
    run's would); memories keep namespaces, keys, values, times and TTLs.
    ``rules`` assign levels and owners; ``dry_run`` reads and counts
    everything and writes nothing (no checkpointer or store needed);
    ``index=False`` writes memories without vectors; ``serde`` is the
    serializer the source saver was given, if not the default.
    ``progress(phase, done, total)`` is called as threads and memories move.
    ``workers`` threads move them in parallel, ``batch`` memories at a time.
    ``levels`` is the ladder for a dry run without a target. Returns the
    counts, with what was read back to verify them; a rule naming an
    unknown level raises ``UnknownLevelError`` before anything is read.
    """
    started = time.monotonic()
    rules = rules or ImportRules()
    ladder = levels or _ladder_of(checkpointer, store)
    rules.check(ladder)
    do_threads = threads and (dry_run or checkpointer is not None)
    do_items = items and (dry_run or store is not None)
    tally = _Tally()
    expired = 0
    with _source_pool(source, workers + 1) as pool:
        src = _Source(pool, serde)
        if do_threads and src.has_checkpoints:
            ids = src.thread_ids()
            mover = _Threads(src, checkpointer, rules, ladder, tally)
            _run(workers, ((mover.move, (tid, dry_run), 1) for tid in ids), "threads", len(ids), progress)
        if do_items and src.has_store:
            live, expired = src.item_counts()
            items_mover = _Items(None if dry_run else store, rules, ladder, tally, index)
            jobs = ((items_mover.move, (rows, dry_run), len(rows)) for rows in src.items(batch))
            _run(workers, jobs, "items", live, progress)
    return ImportResult(
        dry_run=dry_run,
        source=tally.counts["source"],
        written=tally.counts["written"],
        skipped=tally.counts["skipped"],
        verified=None if dry_run else tally.counts["verified"],
        refused=dict(tally.refused),
        levels={k: dict(v) for k, v in tally.levels.items()},
        expired=expired,
        seconds=time.monotonic() - started,
    )


def _ladder_of(checkpointer: Any, store: Any) -> Ladder:
    for target in (checkpointer, store):
        if target is not None and isinstance(getattr(target, "ladder", None), Ladder):
            return target.ladder
    return DEFAULT_LADDER


def _run(
    workers: int,
    jobs: Iterator[tuple[Callable[..., None], tuple[Any, ...], int]],
    phase: str,
    total: int,
    progress: Progress | None,
) -> None:
    """Run jobs on ``workers`` threads, a bounded number in flight (the
    source is read as they go, not all at once); the first error stops the
    import and is raised."""
    done = 0
    if progress is not None:
        progress(phase, 0, total)
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="trustmem-import") as pool:
        running: dict[Future[None], int] = {}

        def settle(futures: set[Future[None]]) -> None:
            nonlocal done
            for fut in futures:
                size = running.pop(fut)
                fut.result()
                done += size
                if progress is not None:
                    progress(phase, done, max(total, done))

        try:
            for fn, args, size in jobs:
                running[pool.submit(fn, *args)] = size
                if len(running) >= workers * 2:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    settle(finished)
            while running:
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                settle(finished)
        except BaseException:
            for fut in running:
                fut.cancel()
            raise


__all__ = [
    "ImportCounts",
    "ImportResult",
    "ImportRules",
    "ImportSourceError",
    "import_from_postgres",
]
