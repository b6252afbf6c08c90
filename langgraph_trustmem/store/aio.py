"""AsyncTrustStore: the async twin of ``store.TrustStore``.

It runs the same plans (``plan.py``) with asyncio I/O. Its sync methods run
them on the store's event loop from other threads, as LangGraph's own async
stores do.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, cast

from langgraph.store.base import IndexConfig, TTLConfig
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from langgraph_trustmem.config import resolve_keyring
from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.pg import AsyncPgClient, migrate_ops
from langgraph_trustmem.services import async_pg_pool, async_redis_client
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


class AsyncTrustStore(AsyncPgClient, PlannedStore):
    """Async :class:`~langgraph_trustmem.store.TrustStore`: the same
    guarantees with asyncio I/O."""

    conn: AsyncConnection | AsyncConnectionPool

    def _init_io(self) -> None:
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()
        self._sweeper: asyncio.Task | None = None
        self._folder: asyncio.Task | None = None

    def _fold_soon(self) -> None:
        if self._folder is not None and not self._folder.done():
            return
        self._folder = self.loop.create_task(self._fold_now(), name="trustmem-audit-fold")

    async def _fold_now(self) -> None:
        try:
            await self._adrive(fold_plan(self))
        except Exception:  # the journal keeps the events; the next fold chains them
            log.warning("folding the audit journal failed; the next fold retries")

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
                await store.stop_ttl_sweeper()
                if store._folder is not None:
                    await asyncio.gather(store._folder, return_exceptions=True)
                await store._fold_now()  # chain the journal now rather than at another process's next fold
                if vectors is not None:
                    await vectors.aclose()
                if cache is not None:
                    await cache.close()

    # -- plumbing ----------------------------------------------------------

    async def setup(self) -> None:
        """Create or upgrade the schema and the vector collection; re-embed
        every memory if the embedder is not the one the vectors were made with."""
        await self._run(migrate_ops(sql, self.keyring))
        await self._adrive(vector_setup_plan(self))

    async def _adrive(self, plan: Plan[T]) -> T:
        """Run a plan, each effect with asyncio I/O (see ``TrustStore._drive``)."""
        sent: Any = None
        error: BaseException | None = None
        while True:
            try:
                effect = plan.throw(error) if error is not None else plan.send(sent)
            except StopIteration as done:
                return cast(T, done.value)
            try:
                sent, error = await self._effect(effect), None
            except Exception as exc:
                sent, error = None, exc

    async def _effect(self, effect: Effect) -> Any:
        if isinstance(effect, Fetch):
            return await self._fetch(effect.query, effect.params, effect.rows)
        if isinstance(effect, Txn):
            return await self._run(effect.ops)
        method = getattr(effect.target, effect.aname or "a" + effect.name, None)
        if method is None:  # a sync collaborator (e.g. a sync checkpointer)
            return await asyncio.to_thread(getattr(effect.target, effect.name), *effect.args)
        return await method(*effect.args)

    def _drive(self, plan: Plan[T]) -> T:
        """Run a plan on the store's loop from another thread (the caller's
        context goes with it, so a run's session is still found)."""
        coro = self._adrive(plan)
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

    async def start_ttl_sweeper(self, sweep_interval_minutes: int | None = None) -> asyncio.Task:
        """Sweep expired memories periodically as a task on the store's loop
        (a coroutine, as ``AsyncPostgresStore.start_ttl_sweeper`` is)."""
        minutes = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5

        async def loop() -> None:
            while True:
                await asyncio.sleep(minutes * 60)
                try:
                    await self.asweep_ttl()
                except Exception:  # keep sweeping; the next round retries
                    log.exception("TTL sweep failed")

        if self._sweeper is None or self._sweeper.done():
            self._sweeper = self.loop.create_task(loop(), name="trustmem-ttl-sweeper")
        return self._sweeper

    async def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper, waiting up to ``timeout`` seconds for a round
        under way to be cancelled; returns whether it has stopped."""
        task, self._sweeper = self._sweeper, None
        if task is None or task.done():
            return True
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=timeout)
        return bool(done)


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
