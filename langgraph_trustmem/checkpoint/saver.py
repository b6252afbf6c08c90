"""TrustCheckpointSaver: the synchronous checkpointer.

Its async twin is ``aio.AsyncTrustCheckpointSaver``; the two keep the same
methods in the same order, and share everything but I/O through
``base.TrustSaverBase``.
"""

from __future__ import annotations

import asyncio
import builtins
import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
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
from psycopg import Connection
from psycopg_pool import ConnectionPool

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
from langgraph_trustmem.checkpoint.hot import HotTier, LocalHotTier, NullHotTier, RedisHotTier
from langgraph_trustmem.config import resolve_keyring, resolve_ladder
from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.errors import StaleBranch
from langgraph_trustmem.pg import PgClient, check_connection, migrate_ops
from langgraph_trustmem.services import pg_pool, redis_client
from langgraph_trustmem.trust import Ladder, requested_level

log = logging.getLogger(__name__)


class TrustCheckpointSaver(PgClient, TrustSaverBase):
    """A LangGraph checkpointer that encrypts everything it writes, keeps a
    hot copy of each thread's latest checkpoint and forks a thread when its
    session's trust degrades.

    Use ``from_conn_string`` for a managed pool, or pass a psycopg
    ``Connection`` (autocommit) or ``ConnectionPool`` you own.
    """

    def __init__(
        self,
        conn: Connection | ConnectionPool,
        *,
        key: KeyRing | str | bytes | None = None,
        pipe: Any = None,
        hot: HotTier | None = None,
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
        self.hot: HotTier = hot if hot is not None else NullHotTier()
        self.lock = threading.Lock()

    @classmethod
    @contextmanager
    def from_conn_string(
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
    ) -> Iterator[TrustCheckpointSaver]:
        """Open a pooled saver on a PostgreSQL URL. The hot tier is Redis
        when ``redis_url`` is given; ``local_hot=True`` keeps it in this
        process instead, which is right only when no other process writes
        the same threads (the embedded default); otherwise there is none.
        A server that cannot be used raises ``ServiceUnavailable`` within
        seconds; ``statement_timeout_ms`` bounds every statement."""
        keyring = resolve_keyring(key, required=True)
        assert keyring is not None
        with pg_pool(
            conn_string, pool_size, statement_timeout_ms=statement_timeout_ms, pool_config=pool_config
        ) as pool:
            hot: LocalHotTier | RedisHotTier | NullHotTier
            if redis_url:
                hot = RedisHotTier(redis_client(redis_url), keyring)
            else:
                hot = LocalHotTier() if local_hot else NullHotTier()
            saver = cls(pool, key=keyring, hot=hot, **kwargs)
            try:
                yield saver
            finally:
                saver.decoded.clear()
                hot.close()

    # -- plumbing ----------------------------------------------------------

    def setup(self) -> None:
        """Create or upgrade the schema (safe to call from many processes)."""
        self._run(migrate_ops(sql, self.keyring))

    # -- reading -----------------------------------------------------------

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        thread_id = _thread_id(config)
        tk = self.thread_key(thread_id)
        config = reader_config(config, tk)
        ns = checkpoint_ns(config)
        cid = get_checkpoint_id(config)
        since = self._seq  # answers below are as of now (see _remember)
        self._note_run(config, tk, ns)
        entry = self.hot.get(tk, ns)
        if (
            entry is not None
            and entry.status == ACTIVE
            and (not cid or cid == entry.checkpoint_id)
            and (tup := self._tuple_from_hot(tk, thread_id, ns, entry)) is not None
        ):
            state = self._state_of(entry)
            self._enter(config, tk, state, since)
            return self._view(config, state, tup)
        query, params, held = self._get_params(config, tk)
        with self._cursor() as cur:
            row = cur.execute(query, params, binary=True).fetchone()
            if row is None:
                acl = cur.execute(sql.THREAD_STATE_SQL, (tk,)).fetchone()
        if row is None:
            if acl is not None:
                self._enter(config, tk, self._verified(tk, acl), since)
            elif tk not in self._sessions and is_run(config):
                # a thread about to start: its first put creates it at this level
                self._remember(tk, SessionState(self._start_level(config)))
            return None
        state = self._verified(tk, row[8:16])
        tup = self._row_to_tuple(tk, thread_id, row, held)
        degraded = self._enter(config, tk, state, since)
        if not cid and not degraded:
            self.hot.put(tk, ns, self._hot_entry_from_row(state, row), (), self.hot_ttl, populate=True)
        return self._view(config, state, tup)

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """LangGraph's DeltaChannel replay, one round trip per 1,024
        ancestors (the base class reads them one by one). A reader asking
        for a lower trust level gets the base class's walk through its
        filtered view."""
        if not channels:
            return {}
        if requested_level(config) is not None and not is_run(config):
            return super().get_delta_channel_history(config=config, channels=channels)
        target = self.get_tuple(config)
        if target is None:
            return {ch: {"writes": []} for ch in channels}
        tk = self.thread_key(_thread_id(config))
        state = self._sessions.get(tk)
        parent = get_checkpoint_id(target.parent_config) if target.parent_config else None
        if state is None:
            return super().get_delta_channel_history(config=config, channels=channels)
        return self._run(self._delta_ops(tk, checkpoint_ns(config), parent, state.branch, channels))

    def _enter(
        self, config: RunnableConfig, tk: bytes, state: SessionState, since: int | None = None
    ) -> bool:
        """Check the owner; at the start of a run, apply the session rules.
        True when the run degraded the session."""
        lower = self._admit(config, tk, state, since)
        if lower is not None:
            self.degrade(config, self.ladder.name(lower))
            return True
        return False

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        yield from self._list(config, filter, before, limit, None)

    def _list(self, config, filter, before, limit, branch) -> Iterator[CheckpointTuple]:
        query, params, rest = self._list_query(config, filter, before, limit, branch)
        with self._cursor() as cur:
            rows = cur.execute(query, params, binary=True).fetchall()
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

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        tk = self.thread_key(_thread_id(config))
        since = self._seq
        if tk not in self._sessions:  # it left the cache: its branch and any pending fork, read, not assumed
            with self._cursor() as cur:
                acl = cur.execute(sql.THREAD_STATE_SQL, (tk,)).fetchone()
            if acl is not None:
                self._remember(tk, self._verified(tk, acl), since)
        params, blobs = self._put_params(config, checkpoint, metadata, new_versions)
        params["since"] = since
        mark = self.hot.mark(tk, params["ns"], self.hot_ttl)  # travels while PostgreSQL works
        try:
            for attempt in (1, 2):
                row = self._run(self._fork_ops(params)) if self._wants_fork(params) else None
                if row is None:
                    with self._cursor() as cur:
                        row = cur.execute(sql.PUT_SQL, params).fetchone()
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
            self.hot.unmark(mark, clear=refused(exc))
            raise
        assert row is not None
        try:
            hot_args = self._hot_put_args(params, blobs, checkpoint)
        except BaseException:
            self.hot.unmark(mark, clear=False)  # committed: the entry there is stale now
            raise
        if hot_args is not None:
            self.hot.put(*hot_args, mark=mark)
        else:
            self.hot.unmark(mark, clear=False)  # committed, but the session is gone: readers go to PostgreSQL
        return next_config

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        if not writes:
            return
        query, params, hot = self._writes_params(config, writes, task_id, task_path)
        mark = self.hot.mark(params["tk"], params["ns"], self.hot_ttl) if hot else None
        try:
            with self._cursor() as cur:
                cur.execute(query, params)
        except BaseException as exc:
            self.hot.unmark(mark, clear=refused(exc))
            raise
        self.hot.add_writes(
            params["tk"], params["ns"], params["cid"], hot, self.hot_ttl, query is sql.UPSERT_WRITES_SQL, mark=mark
        )

    # -- thread-wide operations -------------------------------------------

    def delete_thread(self, thread_id: str) -> None:
        tk = self.thread_key(str(thread_id))
        self._run(self._delete_ops([tk]))
        self._drop_hot([tk])
        self._forget_session([tk])

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        if not run_ids:
            return
        tks = self._run(self._delete_for_runs_ops([self.keyring.hash_id("run", str(r)) for r in run_ids]))
        self._drop_hot(tks)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        dst = self.thread_key(str(target_thread_id))
        self._run(self._copy_ops(self.thread_key(str(source_thread_id)), dst, str(target_thread_id)))
        self._drop_hot([dst])
        self._forget_session([dst])

    def prune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        tks = [self.thread_key(str(t)) for t in thread_ids]
        if not tks:
            return
        self._run(self._prune_ops(tks, strategy))
        self._drop_hot(tks)
        self._forget_session(tks)

    def sweep(self, *, batch: int = 500) -> int:
        """Delete threads past their retention (idle or absolute age) in
        every tier; returns how many were deleted."""
        r = self.retention
        if r.idle is None and r.max_age is None:
            return 0
        total = 0
        while True:
            tks = self._run(self._sweep_ops(batch))
            if not tks:
                return total
            self._drop_hot(tks)
            self._forget_session(tks)
            total += len(tks)

    def start_sweeper(self, every: float = 300.0) -> threading.Event:
        """Run :meth:`sweep` every ``every`` seconds on a daemon thread.
        Set the returned event to stop it."""
        stop = threading.Event()

        def loop() -> None:
            while not stop.wait(every):
                try:
                    self.sweep()
                except Exception:  # keep sweeping; the next round retries
                    log.exception("retention sweep failed")

        threading.Thread(target=loop, name="trustmem-sweeper", daemon=True).start()
        return stop

    def forget_user(self, user_id: str) -> int:
        """Delete every thread started with ``configurable.user_id`` equal to
        ``user_id``, in every tier. Returns the number of threads removed."""
        with self._cursor() as cur:
            tks = [bytes(r[0]) for r in cur.execute(sql.THREADS_OF_USER_SQL, (self.user_key(user_id),))]
        if tks:
            self._run(self._delete_ops(tks))
            self._drop_hot(tks)
            self._forget_session(tks)
        return len(tks)

    def rotate_keys(self, *, batch: int = 500) -> int:
        """Re-seal every row still sealed with an older key under the active
        one (run after putting a new key first on the ring). Returns the
        number of rows re-sealed; the old key can leave the ring after."""
        self.decoded.clear()
        total = 0
        while n := self._run(self._rotate_ops(batch)):
            total += n
        return total

    # -- sessions ----------------------------------------------------------

    async def asession(self, config: RunnableConfig) -> Session | None:
        """:meth:`session` for callers that await (an async store beside
        this saver), on a worker thread."""
        return await asyncio.to_thread(self.session, config)

    def session(self, config: RunnableConfig) -> Session | None:
        """The thread's session (level, status, head branch), or None for a
        thread that has not started."""
        tk = self.thread_key(_thread_id(config))
        since = self._seq
        with self._cursor() as cur:
            row = cur.execute(sql.THREAD_STATE_SQL, (tk,)).fetchone()
        if row is None:
            return None
        state = self._verified(tk, row)
        self._check_owner(config, state)
        self._remember(tk, state, since)
        return self._session_view(state)

    def degrade(self, config: RunnableConfig, level: str) -> None:
        """Lower the session's level. The next checkpoint whose content holds
        nothing above it starts a new branch; the current one is sealed."""
        tk = self.thread_key(_thread_id(config))
        state = self._run(self._degrade_ops(config, self.ladder.rank(level)))
        self._drop_hot([tk])
        if state is not None:
            self._remember(tk, state)

    def mark_tainted(self, config: RunnableConfig) -> None:
        """Record that content from outside entered the session (one round
        trip, the first time only): memories it writes carry that integrity."""
        tk = self.thread_key(_thread_id(config))
        known = self._sessions.get(tk)
        if known is not None and known.tainted:
            return
        self._remember(tk, self._run(self._taint_ops(config)))
        self._drop_hot([tk])

    def terminate(self, config: RunnableConfig) -> None:
        """End the session: discard the run that let less trusted content in
        and refuse further runs on the thread."""
        tk = self.thread_key(_thread_id(config))
        run_id = (config.get("metadata") or {}).get("run_id") or config.get("run_id")
        run_key = self.keyring.hash_id("run", str(run_id)) if run_id else None
        self._run(self._terminate_ops(tk, run_key))
        self._drop_hot([tk])
        self._forget_session([tk])

    def branches(self, thread_id: str) -> builtins.list[Branch]:
        """The branches of a thread: the head and the sealed ones."""
        with self._cursor() as cur:
            tk = self.thread_key(str(thread_id))
            rows = cur.execute(sql.BRANCHES_SQL, (tk,)).fetchall()
        return self._branches_from_rows(tk, rows)

    def list_threads(self, limit: int = 100) -> builtins.list[dict[str, Any]]:
        """Threads, most recently used first: id, level, status, head branch,
        checkpoint count and times (for operators; ids are decrypted here)."""
        with self._cursor() as cur:
            rows = cur.execute(sql.LIST_THREADS_SQL, (limit,)).fetchall()
        return self._thread_rows(rows)

    def branch_sizes(self, thread_id: str) -> dict[int, int]:
        """How many checkpoints each branch of a thread holds."""
        with self._cursor() as cur:
            return dict(cur.execute(sql.BRANCH_SIZES_SQL, (self.thread_key(str(thread_id)),)).fetchall())

    def list_branch(
        self, thread_id: str, branch: int, *, level: str, limit: int | None = None
    ) -> Iterator[CheckpointTuple]:
        """The history of one branch, for a caller entitled to ``level``."""
        self._check_branch_access(self.branches(thread_id), branch, level)
        yield from self._list({"configurable": {"thread_id": thread_id}}, None, None, limit, branch)

    def get_branch_tuple(self, thread_id: str, branch: int, *, level: str) -> CheckpointTuple | None:
        """The latest checkpoint of one branch (root namespace)."""
        self._check_branch_access(self.branches(thread_id), branch, level)
        ns_config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
        return next(iter(self._list(ns_config, None, None, 1, branch)), None)
