"""TrustStore: the synchronous long-term memory store.

PostgreSQL holds every memory (sealed); Qdrant holds vectors and the
payload needed to filter them; Redis (optional) caches recent search
results. Every operation is a plan (``plan.py``); this twin only runs a
plan's effects with blocking I/O. Its async twin is ``aio.AsyncTrustStore``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from langgraph.store.base import IndexConfig, TTLConfig
from psycopg import Connection
from psycopg_pool import ConnectionPool

from langgraph_trustmem.config import resolve_keyring
from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.pg import PgClient, migrate_ops
from langgraph_trustmem.services import pg_pool, redis_client
from langgraph_trustmem.store import sql
from langgraph_trustmem.store.plan import (
    Effect,
    Fetch,
    Plan,
    PlannedStore,
    T,
    Txn,
    fold_plan,
    vector_setup_plan,
)
from langgraph_trustmem.store.vectors import VectorIndex

log = logging.getLogger(__name__)


class TrustStore(PgClient, PlannedStore):
    """A LangGraph ``BaseStore`` whose every memory carries a trust label
    and provenance, read only at the reader's level."""

    conn: Connection | ConnectionPool

    def _init_io(self) -> None:
        self.lock = threading.Lock()
        self._sweeper: tuple[threading.Event, threading.Thread] | None = None
        self._folder: threading.Thread | None = None

    def _fold_soon(self) -> None:
        if self._folder is not None and self._folder.is_alive():
            return
        self._folder = threading.Thread(target=self._fold_now, name="trustmem-audit-fold", daemon=True)
        self._folder.start()

    def _fold_now(self) -> None:
        try:
            self._drive(fold_plan(self))
        except Exception:  # the journal keeps the events; the next fold chains them
            log.warning("folding the audit journal failed; the next fold retries")

    @classmethod
    @contextmanager
    def from_conn_string(
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
    ) -> Iterator[TrustStore]:
        """Open a pooled store. ``qdrant`` is a Qdrant URL, ``":memory:"``, or
        a directory for the embedded engine (qdrant-edge)."""
        keyring = resolve_keyring(key, required=True)
        assert keyring is not None
        vectors = open_vectors(qdrant) if index is not None else None
        cache = None
        if redis_url:
            from langgraph_trustmem.store.cache import RowCache  # noqa: PLC0415

            cache = RowCache(redis_client(redis_url), keyring)
        with pg_pool(conn_string, pool_size, pool_config=pool_config) as pool:
            store = cls(pool, key=keyring, vectors=vectors, cache=cache, index=index, ttl=ttl, **kwargs)
            try:
                yield store
            finally:
                store.stop_ttl_sweeper()
                if store._folder is not None:
                    store._folder.join()
                store._fold_now()  # chain the journal now rather than at another process's next fold
                if vectors is not None:
                    vectors.close()
                if cache is not None:
                    cache.close()

    # -- plumbing ----------------------------------------------------------

    def setup(self) -> None:
        """Create or upgrade the schema and the vector collection; re-embed
        every memory if the embedder is not the one the vectors were made with."""
        self._run(migrate_ops(sql, self.keyring))
        self._drive(vector_setup_plan(self))

    def _drive(self, plan: Plan[T]) -> T:
        """Run a plan, each effect with blocking I/O; an effect's error is
        raised inside the plan (its ``finally`` still audits)."""
        sent: Any = None
        error: BaseException | None = None
        while True:
            try:
                effect = plan.throw(error) if error is not None else plan.send(sent)
            except StopIteration as done:
                return cast(T, done.value)
            try:
                sent, error = self._effect(effect), None
            except Exception as exc:
                sent, error = None, exc

    def _effect(self, effect: Effect) -> Any:
        if isinstance(effect, Fetch):
            return self._fetch(effect.query, effect.params, effect.rows)
        if isinstance(effect, Txn):
            return self._run(effect.ops)
        return getattr(effect.target, effect.name)(*effect.args)

    async def _adrive(self, plan: Plan[T]) -> T:
        # to_thread carries the run's context, so the session is still found.
        return await asyncio.to_thread(self._drive, plan)

    def start_ttl_sweeper(self, sweep_interval_minutes: int | None = None) -> threading.Event:
        """Sweep expired memories periodically on a daemon thread."""
        minutes = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(minutes * 60):
                try:
                    self.sweep_ttl()
                except Exception:  # keep sweeping; the next round retries
                    log.exception("TTL sweep failed")

        thread = threading.Thread(target=loop, name="trustmem-ttl-sweeper", daemon=True)
        thread.start()
        self._sweeper = (stop, thread)
        return stop

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper, waiting up to ``timeout`` seconds for a round
        under way; returns whether it has stopped."""
        if self._sweeper is None:
            return True
        stop, thread = self._sweeper
        stop.set()
        thread.join(timeout)
        if thread.is_alive():
            return False
        self._sweeper = None
        return True


def open_vectors(qdrant: str | VectorIndex | None) -> VectorIndex:
    """The vector tier for a ``qdrant=`` argument: an index object as is, a
    URL or ``:memory:`` through qdrant-client, a directory through the
    embedded engine."""
    if isinstance(qdrant, VectorIndex):
        return qdrant
    if qdrant is None:
        raise ValueError("an index config needs qdrant= (a URL, ':memory:' or a directory)")
    if qdrant == ":memory:" or "://" in qdrant:
        from langgraph_trustmem.store.vectors import QdrantClientIndex  # noqa: PLC0415

        return QdrantClientIndex.from_location(qdrant)
    from langgraph_trustmem.store.vectors import QdrantEdgeIndex  # noqa: PLC0415

    return QdrantEdgeIndex(qdrant)
