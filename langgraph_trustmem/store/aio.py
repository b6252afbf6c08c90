"""AsyncTrustStore: the async twin of ``store.TrustStore``.

Methods appear in the same order as in ``store.py`` and differ only in I/O.
Its sync ``batch`` runs ``abatch`` on the store's event loop from other
threads, as LangGraph's own async stores do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal, cast

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
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from langgraph_trustmem.audit import AuditEvent, AuditReport, append_ops, trail_ops, verify_ops
from langgraph_trustmem.config import resolve_keyring, resolve_ladder
from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.errors import SecretRejected, TrustViolation
from langgraph_trustmem.pg import AsyncPgClient, check_connection, migrate_ops
from langgraph_trustmem.services import async_pg_pool, async_redis_client
from langgraph_trustmem.store import sql
from langgraph_trustmem.store.base import Reader, Row, TrustStoreBase, check_value, validate_namespace
from langgraph_trustmem.store.plan import (
    ERASURE_STEPS,
    RERUN_STEPS,
    delete_ops,
    erase_memories_ops,
    erasure_finish_ops,
    erasure_start_ops,
    erasure_step_ops,
    list_namespaces_result,
    put_ops,
    retention_ops,
    rotate_ops,
    search_params,
    select_hits,
    sweep_ops,
)
from langgraph_trustmem.store.vectors import VectorIndex
from langgraph_trustmem.trust import Ladder

log = logging.getLogger(__name__)


class AsyncTrustStore(AsyncPgClient, TrustStoreBase):
    """Async :class:`~langgraph_trustmem.store.TrustStore`: the same
    guarantees with asyncio I/O."""

    def __init__(
        self,
        conn: AsyncConnection | AsyncConnectionPool,
        *,
        key: KeyRing | str | bytes | None = None,
        pipe: Any = None,
        vectors: VectorIndex | None = None,
        cache: Any = None,
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
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()
        self._sweeper: asyncio.Task | None = None
        if self.index_config is not None and vectors is None:
            raise ValueError("an index config needs a vector tier (qdrant=...)")

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls,
        conn_string: str,
        *,
        qdrant: str | VectorIndex | None = None,
        redis_url: str | None = None,
        key: KeyRing | str | bytes | None = None,
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        pool_size: int = 8,
        pool_config: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[AsyncTrustStore]:
        """Open a pooled async store (``qdrant`` as for ``TrustStore``)."""
        keyring = resolve_keyring(key, required=True)
        assert keyring is not None
        vectors = open_avectors(qdrant) if index is not None else None
        cache = None
        if redis_url:
            from langgraph_trustmem.store.cache import AsyncRowCache  # noqa: PLC0415

            cache = AsyncRowCache(async_redis_client(redis_url), keyring)
        async with async_pg_pool(conn_string, pool_size, pool_config=pool_config) as pool:
            store = cls(pool, key=keyring, vectors=vectors, cache=cache, index=index, ttl=ttl, **kwargs)
            try:
                yield store
            finally:
                store.stop_ttl_sweeper()
                if vectors is not None:
                    await vectors.aclose()
                if cache is not None:
                    await cache.close()

    # -- plumbing ----------------------------------------------------------

    async def setup(self) -> None:
        """Create or upgrade the schema, and the vector collection."""
        await self._run(migrate_ops(sql, self.keyring))
        if self.vectors is not None and self.index_config is not None:
            await self.vectors.asetup(int(cast(Any, self.index_config["dims"])))

    # -- readers -----------------------------------------------------------

    async def _reader(self) -> Reader:
        config = self._run_config()
        saver = self._saver_in(config)
        session = None
        if saver is not None and config and (config.get("configurable") or {}).get("thread_id") is not None:
            session = saver.cached_session(config) or await saver.asession(config)
        return self._reader_from(config, session)

    async def _audit(self, events: list[AuditEvent]) -> None:
        if self.audit_enabled and events:
            await self._run(append_ops(self.keyring, events, self._salts))

    # -- BaseStore -----------------------------------------------------------

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        reader = await self._reader()
        events: list[AuditEvent] = []
        results: list[Result] = []
        try:
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(await self._get(op, reader, events))
                elif isinstance(op, SearchOp):
                    results.append(await self._search(op, reader, events))
                elif isinstance(op, ListNamespacesOp):
                    results.append(await self._list_namespaces(op, reader))
                elif isinstance(op, PutOp):
                    await self._put(op, reader, events)
                    results.append(None)
                else:
                    raise TypeError("unknown store operation")
        finally:
            await self._audit(events)
        return results

    def _sync(self, coro: Any) -> Any:
        try:
            if asyncio.get_running_loop() is self.loop:
                coro.close()
                raise asyncio.InvalidStateError(
                    "synchronous calls on the async store must come from another thread; "
                    "use the a-prefixed methods, or TrustStore"
                )
        except RuntimeError:
            pass
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return self._sync(self.abatch(list(ops)))

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
        """Store a memory (see ``TrustStore.put`` for the trust arguments)."""
        reader = await self._reader()
        events: list[AuditEvent] = []
        try:
            await self._put(
                PutOp(namespace, key, cast(dict[str, Any], value), index, cast(Any, ttl)), reader, events, level, source, confirmed_by
            )
        finally:
            await self._audit(events)

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
        """Sync :meth:`aput`, from threads other than the store's loop."""
        self._sync(
            self.aput(
                namespace, key, value, index, ttl=ttl, level=level, source=source, confirmed_by=confirmed_by
            )
        )

    # -- operations ----------------------------------------------------------

    async def _get(self, op: GetOp, reader: Reader, events: list[AuditEvent]) -> Item | None:
        validate_namespace(op.namespace)
        ns = self._confine(tuple(op.namespace), reader, exact=True)
        nh, kh = self.ns_hash(ns), self.key_hash(op.key)
        ref = (nh + kh).hex()
        raw = (await self.cache.get_rows([ref])).get(ref) if self.cache else None
        if raw is None:
            rows = await self._fetch(sql.GET_SQL, {"ns_hash": nh, "key_hash": kh})
            if not rows:
                return None
            raw = rows[0]
            if self.cache:
                await self.cache.put_rows({ref: raw})
        row = self._decode(raw)
        if not self._readable(row, reader, events):
            return None
        row = await self._lazy_upgrade(row)
        if self._refresh(op.refresh_ttl) and row.ttl_minutes is not None:
            await self._refresh_ttl([row])
        events.append(self._event("read", reader, row))
        return self._item(row)

    async def _search(self, op: SearchOp, reader: Reader, events: list[AuditEvent]) -> list[SearchItem]:
        validate_namespace(tuple(op.namespace_prefix), allow_empty=True)
        prefix = self._confine(tuple(op.namespace_prefix), reader, exact=False)
        params = search_params(self, prefix, reader)
        use_vectors = bool(op.query) and self.embeddings is not None and self.vectors is not None
        cached_key, hits = (
            await self.cache.get_hits(params["own"], self._search_key(op, params))
            if self.cache
            else (None, None)
        )
        rows = None  # the rows a fresh search fetched already
        if hits is None:
            if use_vectors:
                hits, rows = await self._vector_hits(op, params)
            else:
                hits, rows = await self._filter_hits(op, params)
            if self.cache:
                await self.cache.put_hits(params["own"], cached_key, hits)
        if rows is None:
            rows = await self._rows_for([ref for ref, _ in hits], params)
        out = []
        for ref, score in hits:
            row = rows.get(ref)
            if row is None:
                continue
            row = await self._lazy_upgrade(row)
            out.append((row, score))
            events.append(self._event("search-hit", reader, row))
        if self._refresh(op.refresh_ttl):
            await self._refresh_ttl([r for r, _ in out if r.ttl_minutes is not None])
        return [cast(SearchItem, self._item(r, s, search=True)) for r, s in out]

    async def _vector_hits(
        self, op: SearchOp, params: dict
    ) -> tuple[list[tuple[str, float]], dict[str, Row]]:
        vector = await self.embeddings.aembed_query(op.query)
        query = self._vector_query(params)
        want = op.offset + op.limit
        k = max(want * 3, 10)
        while True:
            assert self.vectors is not None  # use_vectors checked it
            raw_hits = await self.vectors.asearch(vector, query, k)
            rows = await self._rows_for(list(dict.fromkeys(ref for ref, _ in raw_hits)), params)
            hits = select_hits(raw_hits, rows, op.filter, op.offset, op.limit)
            if len(hits) >= op.limit or len(raw_hits) < k:
                return hits, rows
            k *= 4

    async def _filter_hits(
        self, op: SearchOp, params: dict
    ) -> tuple[list[tuple[str, None]], dict[str, Row]]:
        want, page, offset, matched = op.offset + op.limit, max((op.offset + op.limit) * 2, 64), 0, []
        rows: dict[str, Row] = {}
        while True:
            raw = await self._fetch(sql.SEARCH_SQL, {**params, "limit": page, "offset": offset})
            for r in raw:
                row = self._open_or_skip(r)
                if row is None or not self._visible(row, params):
                    continue
                if op.filter and not self._filter(row, op.filter):
                    continue
                matched.append((row.ref, None))
                rows[row.ref] = row
                if self.cache:
                    await self.cache.put_rows({row.ref: r})
            if len(matched) >= want or len(raw) < page:
                return matched[op.offset : want], rows
            offset += page

    async def _rows_for(self, refs: Sequence[str], params: dict) -> dict[str, Row]:
        """Rows for references, from the cache or PostgreSQL, at the reader's
        level and tenancy."""
        if not refs:
            return {}
        raw = await self.cache.get_rows(refs) if self.cache else {}
        missing = [r for r in refs if r not in raw]
        if missing:
            fetched = await self._fetch(
                sql.GET_MANY_SQL,
                {
                    **params,
                    "ns_hashes": [bytes.fromhex(r)[:16] for r in missing],
                    "key_hashes": [bytes.fromhex(r)[16:] for r in missing],
                },
            )
            new = {(bytes(f[0]) + bytes(f[1])).hex(): f for f in fetched}
            if self.cache and new:
                await self.cache.put_rows(new)
            raw.update(new)
        return self._visible_rows(raw, params)

    async def _list_namespaces(self, op: ListNamespacesOp, reader: Reader) -> list[tuple[str, ...]]:
        params = search_params(self, self._namespaces_prefix(op, reader), reader)
        rows = await self._fetch(sql.LIST_NAMESPACES_SQL, params)
        namespaces = self._namespaces_of(rows, params)
        return list_namespaces_result(namespaces, op)

    async def _put(
        self,
        op: PutOp,
        reader: Reader,
        events: list[AuditEvent],
        level: str | None = None,
        source: str | None = None,
        confirmed_by: str | None = None,
    ) -> None:
        validate_namespace(tuple(op.namespace))
        ns = self._confine(tuple(op.namespace), reader, exact=True, write=True)
        op = op._replace(namespace=ns)
        nh, kh = self.ns_hash(ns), self.key_hash(op.key)
        ref = (nh + kh).hex()
        tenant = self.tenant_of(ns)
        try:
            if op.value is None:
                gone = await self._run(delete_ops(self, op, reader, confirmed_by))
                if gone is None:
                    return
                lvl = gone[0]
                if self.vectors is not None and gone[2]:
                    await self.vectors.adelete_refs([ref])
            else:
                value, redacted = self.guard.check(check_value(op.value), namespace=ns, key=op.key)
                lvl = self._write_level(reader, level)
                texts = self._texts(op, value)
                vectors = await self.embeddings.aembed_documents(texts) if texts else []
                sealed = self._seal(nh, kh, self._body(op, value, reader, source), lvl, tenant)
                ttl_min = self._ttl_minutes(op)
                previous = await self._run(
                    put_ops(
                        self, op, reader, confirmed_by, nh, kh, tenant, lvl, sealed, len(vectors), ttl_min
                    )
                )
                if self.vectors is not None:
                    if previous:
                        await self.vectors.adelete_refs([ref])
                    await self.vectors.aupsert(self._points(ref, ns, lvl, tenant, ttl_min, vectors))
                if redacted:
                    events.append(self._write_event("redacted", reader, tenant, ref, lvl, ",".join(redacted)))
        except (TrustViolation, SecretRejected) as refusal:
            events.append(self._write_event("refused", reader, tenant, ref, None, type(refusal).__name__))
            raise
        if self.cache:
            await self.cache.invalidate([ref], [tenant, None])
        events.append(self._write_event("delete" if op.value is None else "write", reader, tenant, ref, lvl))

    # -- lifecycle -----------------------------------------------------------

    async def _lazy_upgrade(self, row: Row) -> Row:
        upgraded, resealed = self._upgraded(row)
        if resealed is not None:
            async with self._cursor() as cur:
                await cur.execute(sql.REWRITE_SQL, self._lazy_params(row, upgraded, resealed))
            if self.cache:
                await self.cache.invalidate([row.ref], [])
        return upgraded

    async def _refresh_ttl(self, rows: Sequence[Row]) -> None:
        if rows:
            async with self._cursor() as cur:
                await cur.execute(
                    sql.REFRESH_TTL_SQL,
                    {"ns_hashes": [r.ns_hash for r in rows], "key_hashes": [r.key_hash for r in rows]},
                )
            if self.cache:  # cached rows carry the old expiry
                await self.cache.invalidate([r.ref for r in rows], [])

    async def amigrate(self, *, batch: int = 500, progress: Any = None) -> int:
        """Upgrade every row older than the current schema version now."""
        version = self.migrations.current
        total = (await self._fetch(sql.COUNT_OUTDATED_SQL, {"version": version}))[0][0]
        done = 0
        while True:
            rows = await self._fetch(sql.OUTDATED_SQL, {"version": version, "limit": batch})
            if not rows:
                return done
            for row in rows:
                async with self._cursor() as cur:
                    await cur.execute(sql.REWRITE_SQL, self._rewrite_params(row))
                if self.cache:
                    await self.cache.invalidate([(bytes(row[0]) + bytes(row[1])).hex()], [])
            done += len(rows)
            if progress is not None:
                progress(done, total)

    async def aoutdated_count(self) -> int:
        """How many memories are stored at an older schema version."""
        return int((await self._fetch(sql.COUNT_OUTDATED_SQL, {"version": self.migrations.current}))[0][0])

    async def aaudit_tail(self, n: int = 20) -> list[tuple]:
        """The latest ``n`` audit events, oldest first."""
        return list(reversed(await self._fetch(sql.AUDIT_TAIL_SQL, (n,))))

    async def asweep_ttl(self) -> int:
        """Delete expired memories, and those past a retention rule, from
        every tier; returns how many."""
        gone = await self._run(sweep_ops())
        if self.retention_rules:
            gone += await self._run(retention_ops(self.retention_rules))
        refs = [(bytes(nh) + bytes(kh)).hex() for nh, kh, _t, _i in gone]
        if self.vectors is not None and refs:
            await self.vectors.adelete_refs(refs)
        if self.cache and refs:
            await self.cache.invalidate(
                refs, [bytes(t) if t is not None else None for _n, _k, t, _i in gone] + [None]
            )
        return len(refs)

    async def arotate_keys(self, *, batch: int = 500) -> int:
        """Re-seal memories and audit salts sealed with an older key under the
        active one; returns how many rows were re-sealed."""
        total = 0
        while n := await self._run(rotate_ops(self, batch)):
            total += n
        return total

    def start_ttl_sweeper(self, sweep_interval_minutes: int | None = None) -> asyncio.Task:
        """Sweep expired memories periodically as a task on the store's loop."""
        minutes = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5

        async def loop() -> None:
            while True:
                await asyncio.sleep(minutes * 60)
                try:
                    await self.asweep_ttl()
                except Exception:  # keep sweeping; the next round retries
                    log.exception("TTL sweep failed")

        self._sweeper = self.loop.create_task(loop(), name="trustmem-ttl-sweeper")
        return self._sweeper

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        return True

    async def aforget(self, user_id: str, *, checkpointer: Any = None) -> dict[str, Any]:
        """Erase a user's memories (and, given an async checkpointer, their
        threads) from every tier, resumably; returns the receipt."""
        tenant = self.user_key(user_id)
        self._salts.pop(tenant, None)
        receipt_id, removed = await self._run(erasure_start_ops(tenant))
        pending = []
        for step in ERASURE_STEPS:
            if step in removed and step not in RERUN_STEPS:
                continue
            if step == "memories":
                removed[step] = await self._run(erase_memories_ops(receipt_id, tenant))
                continue
            before = removed.get(step, 0)
            if step == "vectors":
                # what there is before deleting: a resumed call reports what the killed one removed
                here = await self.vectors.acount(tenant.hex()) if self.vectors is not None else 0
                if self.vectors is not None:
                    await self._run(erasure_step_ops(receipt_id, step, max(before, here)))
                    await self.vectors.adelete_tenant(tenant.hex())
                removed[step] = max(before, here)
            elif step == "cache":
                dropped = await self.cache.drop_tenant(tenant) if self.cache else 0
                if dropped is None:  # Redis unreachable: owed, and done by the next call
                    pending.append(step)
                    continue
                removed[step] = before + dropped
            elif step == "threads":
                removed[step] = before + (await checkpointer.aforget_user(user_id) if checkpointer is not None else 0)
                if getattr(getattr(checkpointer, "hot", None), "pending", 0):
                    pending.append("hot tier")  # owed by this process, done before it uses Redis again
            await self._run(erasure_step_ops(receipt_id, step, removed[step]))
        receipt = await self._run(erasure_finish_ops(receipt_id, finished="cache" not in pending))
        if pending:
            receipt["pending"] = pending
        await self._audit(
            [AuditEvent("erased", "forget", None, None, None, None, f"receipt {receipt['receipt_id']}")]
        )
        return receipt

    async def aaudit_trail(self, namespace: tuple[str, ...], key: str) -> list[tuple]:
        """The audit events of one memory, oldest first:
        (seq, at, action, actor, level, detail). Nothing names its content."""
        ref = self.ns_hash(namespace) + self.key_hash(key)
        return await self._run(trail_ops(self.keyring, self.tenant_of(namespace), ref))

    async def averify_audit(self) -> AuditReport:
        """Walk the audit chain and report the first broken link, if any."""
        return await self._run(verify_ops(self.keyring))


def open_avectors(qdrant: str | VectorIndex | None) -> VectorIndex:
    """The async vector tier for ``qdrant=`` (see ``store.open_vectors``)."""
    if isinstance(qdrant, VectorIndex):
        return qdrant
    if qdrant is None:
        raise ValueError("an index config needs qdrant= (a URL, ':memory:' or a directory)")
    if qdrant == ":memory:" or "://" in qdrant:
        from langgraph_trustmem.store.vectors import AsyncQdrantClientIndex  # noqa: PLC0415

        return AsyncQdrantClientIndex.from_location(qdrant)
    from langgraph_trustmem.store.vectors import QdrantEdgeIndex  # noqa: PLC0415

    return QdrantEdgeIndex(qdrant)
