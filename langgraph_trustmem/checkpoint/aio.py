"""AsyncTrustCheckpointSaver: the async twin of ``saver.TrustCheckpointSaver``.

Methods appear in the same order as in ``saver.py`` and differ only in I/O.
The sync API of this class runs the async one on its event loop from other
threads, as LangGraph's own async savers do.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
    get_checkpoint_id,
)
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from langgraph_trustmem.checkpoint import sql
from langgraph_trustmem.checkpoint.base import (
    ACTIVE,
    Branch,
    BranchMoved,
    Retention,
    Session,
    SessionState,
    TrustSaverBase,
    _thread_id,
    checkpoint_ns,
    is_run,
    reader_config,
    refused,
)
from langgraph_trustmem.checkpoint.decoded import DEFAULT_MAX_BYTES
from langgraph_trustmem.checkpoint.hot import AsyncHotTier, AsyncRedisHotTier, LocalHotTier, NullHotTier
from langgraph_trustmem.config import resolve_keyring, resolve_ladder
from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.errors import StaleBranch
from langgraph_trustmem.pg import AsyncPgClient, check_connection, migrate_ops
from langgraph_trustmem.services import async_pg_pool, async_redis_client
from langgraph_trustmem.trust import Ladder, requested_level

log = logging.getLogger(__name__)


class AsyncTrustCheckpointSaver(AsyncPgClient, TrustSaverBase):
    """Async LangGraph checkpointer with the same guarantees as
    :class:`~langgraph_trustmem.TrustCheckpointSaver`."""

    def __init__(
        self,
        conn: AsyncConnection | AsyncConnectionPool,
        *,
        key: KeyRing | str | bytes | None = None,
        pipe: Any = None,
        hot: AsyncHotTier | None = None,
        levels: Ladder | list[str] | None = None,
        hot_ttl: float = 3600.0,
        retention: Retention | None = None,
        serde: Any = None,
        decoded_cache_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        keyring = resolve_keyring(key, required=True)
        assert keyring is not None
        super().__init__(
            keyring=keyring,
            ladder=resolve_ladder(levels),
            hot_ttl=hot_ttl,
            retention=retention,
            serde=serde,
            decoded_cache_bytes=decoded_cache_bytes,
        )
        check_connection(conn, pipe)
        self.conn = conn
        self.pipe = pipe
        self.hot: AsyncHotTier = hot if hot is not None else NullHotTier()
        self.lock = asyncio.Lock()
        self.loop = asyncio.get_running_loop()

    @classmethod
    @asynccontextmanager
    async def from_conn_string(
        cls,
        conn_string: str,
        *,
        redis_url: str | None = None,
        key: KeyRing | str | bytes | None = None,
        pool_size: int = 8,
        local_hot: bool = False,
        statement_timeout_ms: int | None = None,
        pool_config: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> AsyncIterator[AsyncTrustCheckpointSaver]:
        """Open a pooled async saver (hot tier as in the sync saver)."""
        keyring = resolve_keyring(key, required=True)
        assert keyring is not None
        async with async_pg_pool(
            conn_string, pool_size, statement_timeout_ms=statement_timeout_ms, pool_config=pool_config
        ) as pool:
            hot: LocalHotTier | AsyncRedisHotTier | NullHotTier
            if redis_url:
                hot = AsyncRedisHotTier(async_redis_client(redis_url), keyring)
            else:
                hot = LocalHotTier() if local_hot else NullHotTier()
            saver = cls(pool, key=keyring, hot=hot, **kwargs)
            try:
                yield saver
            finally:
                saver.decoded.clear()
                await hot.aclose()

    # -- plumbing ----------------------------------------------------------

    async def setup(self) -> None:
        """Create or upgrade the schema (safe to call from many processes)."""
        await self._run(migrate_ops(sql, self.keyring))

    # -- reading -----------------------------------------------------------

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """The async twin of ``TrustCheckpointSaver.get_delta_channel_history``."""
        if not channels:
            return {}
        if requested_level(config) is not None and not is_run(config):
            return await super().aget_delta_channel_history(config=config, channels=channels)
        target = await self.aget_tuple(config)
        if target is None:
            return {ch: {"writes": []} for ch in channels}
        tk = self.thread_key(_thread_id(config))
        state = self._sessions.get(tk)
        parent = get_checkpoint_id(target.parent_config) if target.parent_config else None
        if state is None:
            return await super().aget_delta_channel_history(config=config, channels=channels)
        return await self._run(self._delta_ops(tk, checkpoint_ns(config), parent, state.branch, channels))

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = _thread_id(config)
        tk = self.thread_key(thread_id)
        config = reader_config(config, tk)
        ns = checkpoint_ns(config)
        cid = get_checkpoint_id(config)
        since = self._seq  # answers below are as of now (see _remember)
        self._note_run(config, tk, ns)
        entry = await self.hot.aget(tk, ns)
        if (
            entry is not None
            and entry.status == ACTIVE
            and (not cid or cid == entry.checkpoint_id)
            and (tup := self._tuple_from_hot(tk, thread_id, ns, entry)) is not None
        ):
            state = self._state_of(entry)
            await self._aenter(config, tk, state, since)
            return self._view(config, state, tup)
        query, params, held = self._get_params(config, tk)
        async with self._cursor() as cur:
            row = await (await cur.execute(query, params, binary=True)).fetchone()
            if row is None:
                acl = await (await cur.execute(sql.THREAD_STATE_SQL, (tk,))).fetchone()
        if row is None:
            if acl is not None:
                await self._aenter(config, tk, self._verified(tk, acl), since)
            elif tk not in self._sessions and is_run(config):
                # a thread about to start: its first put creates it at this level
                self._remember(tk, SessionState(self._start_level(config)))
            return None
        state = self._verified(tk, row[8:16])
        tup = self._row_to_tuple(tk, thread_id, row, held)
        degraded = await self._aenter(config, tk, state, since)
        if not cid and not degraded:
            await self.hot.aput(tk, ns, self._hot_entry_from_row(state, row), (), self.hot_ttl, populate=True)
        return self._view(config, state, tup)

    async def _aenter(
        self, config: RunnableConfig, tk: bytes, state: SessionState, since: int | None = None
    ) -> bool:
        """Check the owner; at the start of a run, apply the session rules.
        True when the run degraded the session."""
        lower = self._admit(config, tk, state, since)
        if lower is not None:
            await self.adegrade(config, self.ladder.name(lower))
            return True
        return False

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        async for tup in self._alist(config, filter, before, limit, None):
            yield tup

    async def _alist(self, config, filter, before, limit, branch) -> AsyncIterator[CheckpointTuple]:
        query, params, rest = self._list_query(config, filter, before, limit, branch)
        async with self._cursor() as cur:
            rows = await (await cur.execute(query, params, binary=True)).fetchall()
        seen: dict[bytes, tuple[str, SessionState] | None] = {}
        count = 0
        for row in rows:
            if limit is not None and count >= limit:
                return
            if (listed := self._listed(config, row, seen, branch)) is None:
                continue  # a tampered thread, left out of a listing across threads
            tk, thread_id, state = listed
            if (tup := self._listed_tuple(tk, thread_id, row)) is None:
                continue
            if rest and not self._matches(tup.metadata, rest):
                continue
            count += 1
            yield tup if branch is not None else self._view(config or cast(RunnableConfig, {}), state, tup)

    # -- writing -----------------------------------------------------------

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        tk = self.thread_key(_thread_id(config))
        since = self._seq
        if tk not in self._sessions:  # it left the cache: its branch and any pending fork, read, not assumed
            async with self._cursor() as cur:
                acl = await (await cur.execute(sql.THREAD_STATE_SQL, (tk,))).fetchone()
            if acl is not None:
                self._remember(tk, self._verified(tk, acl), since)
        params, blobs = self._put_params(config, checkpoint, metadata, new_versions)
        params["since"] = since
        mark = await self.hot.amark(tk, params["ns"], self.hot_ttl)  # travels while PostgreSQL works
        try:
            for attempt in (1, 2):
                row = await self._run(self._fork_ops(params)) if self._wants_fork(params) else None
                if row is None:
                    async with self._cursor() as cur:
                        row = await (await cur.execute(sql.PUT_SQL, params)).fetchone()
                    assert row is not None  # PUT_SQL's upsert always returns the thread's row
                try:
                    next_config = self._after_put(config, params, row)
                    break
                except BranchMoved:
                    if attempt == 2:
                        raise StaleBranch(
                            "the thread's head branch moved while this checkpoint was saved"
                        ) from None
                    self._rebranch(params, row[1], params["parent"])
        except BaseException as exc:
            await self.hot.aunmark(mark, clear=refused(exc))
            raise
        assert row is not None
        try:
            hot_args = self._hot_put_args(params, blobs, checkpoint)
        except BaseException:
            await self.hot.aunmark(mark, clear=False)  # committed: the entry there is stale now
            raise
        if hot_args is not None:
            await self.hot.aput(*hot_args, mark=mark)
        else:
            await self.hot.aunmark(mark, clear=False)  # committed, but the session is gone: readers go to PostgreSQL
        return next_config

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        if not writes:
            return
        query, params, hot = self._writes_params(config, writes, task_id, task_path)
        mark = await self.hot.amark(params["tk"], params["ns"], self.hot_ttl) if hot else None
        try:
            async with self._cursor() as cur:
                await cur.execute(query, params)
        except BaseException as exc:
            await self.hot.aunmark(mark, clear=refused(exc))
            raise
        await self.hot.aadd_writes(
            params["tk"], params["ns"], params["cid"], hot, self.hot_ttl, query is sql.UPSERT_WRITES_SQL, mark=mark
        )

    # -- thread-wide operations -------------------------------------------

    async def adelete_thread(self, thread_id: str) -> None:
        tk = self.thread_key(str(thread_id))
        await self._run(self._delete_ops([tk]))
        await self._adrop_hot([tk])
        self._forget_session([tk])

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        if not run_ids:
            return
        tks = await self._run(
            self._delete_for_runs_ops([self.keyring.hash_id("run", str(r)) for r in run_ids])
        )
        await self._adrop_hot(tks)

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        dst = self.thread_key(str(target_thread_id))
        await self._run(self._copy_ops(self.thread_key(str(source_thread_id)), dst, str(target_thread_id)))
        await self._adrop_hot([dst])
        self._forget_session([dst])

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        tks = [self.thread_key(str(t)) for t in thread_ids]
        if not tks:
            return
        await self._run(self._prune_ops(tks, strategy))
        await self._adrop_hot(tks)
        self._forget_session(tks)

    async def asweep(self, *, batch: int = 500) -> int:
        """Delete threads past their retention in every tier."""
        r = self.retention
        if r.idle is None and r.max_age is None:
            return 0
        total = 0
        while True:
            tks = await self._run(self._sweep_ops(batch))
            if not tks:
                return total
            await self._adrop_hot(tks)
            self._forget_session(tks)
            total += len(tks)

    def start_sweeper(self, every: float = 300.0) -> asyncio.Task:
        """Run :meth:`asweep` every ``every`` seconds as a task on this
        saver's loop; cancel the task to stop it."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.asweep()
                except Exception:  # keep sweeping; the next round retries
                    log.exception("retention sweep failed")

        return self.loop.create_task(loop(), name="trustmem-sweeper")

    async def aforget_user(self, user_id: str) -> int:
        """Delete every thread of ``user_id`` in every tier."""
        async with self._cursor() as cur:
            rows = await (await cur.execute(sql.THREADS_OF_USER_SQL, (self.user_key(user_id),))).fetchall()
        tks = [bytes(r[0]) for r in rows]
        if tks:
            await self._run(self._delete_ops(tks))
            await self._adrop_hot(tks)
            self._forget_session(tks)
        return len(tks)

    async def arotate_keys(self, *, batch: int = 500) -> int:
        """Re-seal rows sealed with an older key under the active one."""
        self.decoded.clear()
        total = 0
        while n := await self._run(self._rotate_ops(batch)):
            total += n
        return total

    # -- sessions ----------------------------------------------------------

    async def asession(self, config: RunnableConfig) -> Session | None:
        """The thread's session, or None for a thread that has not started."""
        tk = self.thread_key(_thread_id(config))
        since = self._seq
        async with self._cursor() as cur:
            row = await (await cur.execute(sql.THREAD_STATE_SQL, (tk,))).fetchone()
        if row is None:
            return None
        state = self._verified(tk, row)
        self._check_owner(config, state)
        self._remember(tk, state, since)
        return self._session_view(state)

    async def adegrade(self, config: RunnableConfig, level: str) -> None:
        """Lower the session's level; the next clean checkpoint forks."""
        tk = self.thread_key(_thread_id(config))
        state = await self._run(self._degrade_ops(config, self.ladder.rank(level)))
        await self._adrop_hot([tk])
        if state is not None:
            self._remember(tk, state)

    async def amark_tainted(self, config: RunnableConfig) -> None:
        """Record that content from outside entered the session (one round
        trip, the first time only): memories it writes carry that integrity."""
        tk = self.thread_key(_thread_id(config))
        known = self._sessions.get(tk)
        if known is not None and known.tainted:
            return
        self._remember(tk, await self._run(self._taint_ops(config)))
        await self._adrop_hot([tk])

    async def aterminate(self, config: RunnableConfig) -> None:
        """End the session and discard the run that let untrusted content in."""
        tk = self.thread_key(_thread_id(config))
        run_id = (config.get("metadata") or {}).get("run_id") or config.get("run_id")
        run_key = self.keyring.hash_id("run", str(run_id)) if run_id else None
        await self._run(self._terminate_ops(tk, run_key))
        await self._adrop_hot([tk])
        self._forget_session([tk])

    async def alist_threads(self, limit: int = 100) -> builtins.list[dict[str, Any]]:
        """Threads, most recently used first (see the sync saver's ``list_threads``)."""
        async with self._cursor() as cur:
            rows = await (await cur.execute(sql.LIST_THREADS_SQL, (limit,))).fetchall()
        return self._thread_rows(rows)

    async def abranch_sizes(self, thread_id: str) -> dict[int, int]:
        """How many checkpoints each branch of a thread holds."""
        async with self._cursor() as cur:
            rows = await (await cur.execute(sql.BRANCH_SIZES_SQL, (self.thread_key(str(thread_id)),))).fetchall()
        return dict(rows)

    async def abranches(self, thread_id: str) -> builtins.list[Branch]:
        """The branches of a thread: the head and the sealed ones."""
        async with self._cursor() as cur:
            tk = self.thread_key(str(thread_id))
            rows = await (await cur.execute(sql.BRANCHES_SQL, (tk,))).fetchall()
        return self._branches_from_rows(tk, rows)

    async def alist_branch(
        self, thread_id: str, branch: int, *, level: str, limit: int | None = None
    ) -> AsyncIterator[CheckpointTuple]:
        """The history of one branch, for a caller entitled to ``level``."""
        self._check_branch_access(await self.abranches(thread_id), branch, level)
        async for tup in self._alist({"configurable": {"thread_id": thread_id}}, None, None, limit, branch):
            yield tup

    async def aget_branch_tuple(self, thread_id: str, branch: int, *, level: str) -> CheckpointTuple | None:
        """The latest checkpoint of one branch (root namespace)."""
        self._check_branch_access(await self.abranches(thread_id), branch, level)
        ns_config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
        async for tup in self._alist(ns_config, None, None, 1, branch):
            return tup
        return None

    # -- the sync API, run on this saver's loop ----------------------------

    def _sync(self, coro: Any) -> Any:
        try:
            if asyncio.get_running_loop() is self.loop:
                raise asyncio.InvalidStateError(
                    "synchronous calls on the async saver must come from another thread; "
                    "use the a-prefixed methods, or TrustCheckpointSaver"
                )
        except RuntimeError:
            pass
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self._sync(self.aget_tuple(config))

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        async def collect() -> builtins.list[CheckpointTuple]:
            return [t async for t in self.alist(config, filter=filter, before=before, limit=limit)]

        yield from self._sync(collect())

    def put(self, config, checkpoint, metadata, new_versions) -> RunnableConfig:  # type: ignore[override]
        return self._sync(self.aput(config, checkpoint, metadata, new_versions))

    def put_writes(self, config, writes, task_id, task_path="") -> None:  # type: ignore[override]
        return self._sync(self.aput_writes(config, writes, task_id, task_path))

    def delete_thread(self, thread_id: str) -> None:
        return self._sync(self.adelete_thread(thread_id))

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        return self._sync(self.adelete_for_runs(run_ids))

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        return self._sync(self.acopy_thread(source_thread_id, target_thread_id))

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        return self._sync(self.aprune(thread_ids, strategy=strategy))

    def session(self, config: RunnableConfig) -> Session | None:
        return self._sync(self.asession(config))

    def sweep(self) -> int:
        return self._sync(self.asweep())  # type: ignore[no-any-return]

    def forget_user(self, user_id: str) -> int:
        return self._sync(self.aforget_user(user_id))  # type: ignore[no-any-return]

    def branches(self, thread_id: str) -> builtins.list[Branch]:
        return self._sync(self.abranches(thread_id))  # type: ignore[no-any-return]

    def rotate_keys(self, *, batch: int = 500) -> int:
        return self._sync(self.arotate_keys(batch=batch))  # type: ignore[no-any-return]

    def list_threads(self, limit: int = 100) -> builtins.list[dict[str, Any]]:
        return self._sync(self.alist_threads(limit))  # type: ignore[no-any-return]

    def branch_sizes(self, thread_id: str) -> dict[int, int]:
        return self._sync(self.abranch_sizes(thread_id))  # type: ignore[no-any-return]

    def degrade(self, config: RunnableConfig, level: str) -> None:
        return self._sync(self.adegrade(config, level))

    def terminate(self, config: RunnableConfig) -> None:
        return self._sync(self.aterminate(config))

    def mark_tainted(self, config: RunnableConfig) -> None:
        return self._sync(self.amark_tainted(config))
