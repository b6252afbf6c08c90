"""EphemeralTrustSaver: the session rules with state in process memory only.

For deployments that must never put a session on disk (a stateless function
answering one request, an edge device): nothing is written anywhere, and
``close()`` (or leaving the ``with`` block) drops every thread. The session
rules are the same as the persistent savers': a level fixed at the start,
escalation refused, degrade by fork or terminate.
"""

from __future__ import annotations

import builtins
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_trustmem.checkpoint.base import (
    ACTIVE,
    TERMINATED,
    Branch,
    Session,
    SessionState,
    _thread_id,
    is_run,
    read_view,
    reader_config,
)
from langgraph_trustmem.errors import (
    BranchAccessDenied,
    SessionTerminated,
    ThreadOwnershipError,
    TrustEscalationError,
)
from langgraph_trustmem.trust import DEFAULT_LADDER, Ladder, Vouch, requested_level, state_rank, user_of


class EphemeralTrustSaver(InMemorySaver):
    """In-memory checkpointer with trust sessions; holds nothing after close."""

    def __init__(self, *, levels: Ladder | None = None, serde: Any = None) -> None:
        super().__init__(serde=serde)
        self.ladder = levels or DEFAULT_LADDER
        self._sessions: dict[str, SessionState] = {}
        self._sealed: dict[str, list[tuple[Branch, InMemorySaver]]] = {}
        self._head_level: dict[str, int] = {}  # a head branch's level before its degrade
        self._users: dict[str, str] = {}  # thread id -> the user_id that started it
        self._vouched: dict[tuple[str, str], dict[str, Vouch]] = {}
        self._mutex = threading.RLock()

    # -- session rules -----------------------------------------------------

    def _check(self, config: RunnableConfig, *, run_start: bool = True) -> SessionState:
        """Create or check the session; the level rules apply when a run
        starts (its first get_tuple), not to the run's own later puts."""
        tid = _thread_id(config)
        lv = requested_level(config)
        rank = self.ladder.rank(lv) if lv is not None else None
        self._check_owner(config, tid)
        state = self._sessions.get(tid)
        if state is None:
            state = SessionState(rank or 0)
            self._sessions[tid] = state
            if (user := user_of(config)) is not None:
                self._users[tid] = str(user)
            return state
        if state.status == TERMINATED:
            raise SessionTerminated("this session was terminated and refuses further runs")
        if not run_start:
            return state
        if rank is not None and rank > state.level:
            raise TrustEscalationError(
                "a run asked for a trust level above its session's; a session's level "
                "is fixed when its thread starts and never raised"
            )
        if rank is not None and rank < state.level:
            self.degrade(config, self.ladder.name(rank))
            state = self._sessions[tid]
        return state

    def _check_owner(self, config: RunnableConfig | None, tid: str) -> None:
        owner = self._users.get(tid)
        user = user_of(config)
        if owner is not None and (user is None or str(user) != owner):
            raise ThreadOwnershipError("this thread belongs to another user")

    def _read_view(self, config: RunnableConfig, tup: CheckpointTuple | None) -> CheckpointTuple | None:
        """A read checks the owner and never changes the thread; a reader
        asking for less than the branch's level sees only that level's view."""
        tid = _thread_id(config)
        self._check_owner(config, tid)
        state = self._sessions.get(tid)
        if tup is None or state is None:
            return tup
        return read_view(self.ladder, config, self._head_level.get(tid, state.level), tup)

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        with self._mutex:
            if not is_run(config):
                config = reader_config(config, _thread_id(config))
                return self._read_view(config, super().get_tuple(config))
            self._check(config)
            return super().get_tuple(config)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        conf = (config or {}).get("configurable") or {}
        one_thread = conf.get("thread_id") is not None
        with self._mutex:
            tuples = list(super().list(config if one_thread else None, filter=filter, before=before))
        user = user_of(config)
        count = 0
        for tup in tuples:
            if limit is not None and count >= limit:
                return
            if one_thread:
                tup = self._read_view(config, tup)  # type: ignore[arg-type, assignment]
            elif self._users.get(tup.config["configurable"]["thread_id"]) not in (None, str(user)):
                continue  # across threads: the caller's own and unowned ones only
            count += 1
            yield tup

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        with self._mutex:
            tid = _thread_id(config)
            state = self._check(config, run_start=False)
            ns = (config.get("configurable") or {}).get("checkpoint_ns", "")
            rank, unknown = state_rank(
                checkpoint["channel_values"], self.ladder, self._vouched.get((tid, ns))
            )
            if state.fork_pending and ns == "" and rank <= state.level and not unknown:
                self._fork(tid, state, config.get("configurable", {}).get("checkpoint_id"))
                config = {**config, "configurable": {**config["configurable"], "checkpoint_id": None}}
                state = self._sessions[tid]
            return super().put(config, checkpoint, metadata, new_versions)

    def _fork(self, tid: str, state: SessionState, forked_from: str | None) -> None:
        """Move the head branch aside (sealed) and start an empty one."""
        sealed = InMemorySaver(serde=self.serde)
        sealed.storage[tid] = self.storage.pop(tid, {})
        for key in [k for k in self.writes if k[0] == tid]:
            sealed.writes[key] = self.writes.pop(key)
        old_level = self._head_level.pop(tid, state.level)
        self._sealed.setdefault(tid, []).append(
            (Branch(state.branch, self.ladder.name(old_level), False, forked_from=forked_from), sealed)
        )
        # Blobs stay shared: the new branch's root still refers to unchanged channels.
        sealed.blobs = self.blobs
        self._sessions[tid] = replace(state, fork_pending=False, branch=state.branch + 1)

    def put_writes(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str = ""
    ) -> None:
        with self._mutex:
            state = self._sessions.get(_thread_id(config))
            if state is not None and state.status == TERMINATED:
                return
            super().put_writes(config, writes, task_id, task_path)

    def cached_level(self, config: RunnableConfig) -> str | None:
        state = self._sessions.get(_thread_id(config))
        return self.ladder.name(state.level) if state is not None else None

    def session(self, config: RunnableConfig) -> Session | None:
        state = self._sessions.get(_thread_id(config))
        if state is None:
            return None
        self._check_owner(config, _thread_id(config))
        return Session(
            self.ladder.name(state.level), state.status, state.branch, state.fork_pending, state.tainted
        )

    cached_session = session

    def vouch(self, config: RunnableConfig, ranks: Mapping[str, Vouch]) -> None:
        """The levels the trust gate vouches for (see the persistent savers)."""
        task_ns = str((config.get("configurable") or {}).get("checkpoint_ns") or "")
        with self._mutex:
            self._vouched[(_thread_id(config), task_ns.rpartition("|")[0])] = dict(ranks)

    def mark_tainted(self, config: RunnableConfig) -> None:
        """Record that content from outside entered the session."""
        with self._mutex:
            tid = _thread_id(config)
            state = self._sessions.get(tid)
            if state is not None:
                self._sessions[tid] = replace(state, tainted=True)

    def degrade(self, config: RunnableConfig, level: str) -> None:
        with self._mutex:
            tid = _thread_id(config)
            rank = self.ladder.rank(level)
            state = self._sessions.get(tid)
            if state is None or state.status != ACTIVE or rank >= state.level:
                return
            self._head_level.setdefault(tid, state.level)
            self._sessions[tid] = replace(state, level=rank, fork_pending=True, tainted=True)

    def terminate(self, config: RunnableConfig) -> None:
        with self._mutex:
            tid = _thread_id(config)
            state = self._sessions.get(tid, SessionState(0))
            # Discard the run that let the content in: from its input checkpoint on.
            ns_store = self.storage.get(tid, {}).get("", {})
            ids = sorted(ns_store)
            start = None
            for cid in reversed(ids):
                meta = self.serde.loads_typed(ns_store[cid][1])
                if meta.get("source") == "input":
                    start = cid
                    break
            if start is not None:
                parent = ns_store[start][2]
                for cid in [c for c in ids if c >= start]:
                    del ns_store[cid]
                for key in [k for k in self.writes if k[0] == tid and (k[2] >= start or k[2] == parent)]:
                    del self.writes[key]
            self._sessions[tid] = replace(state, status=TERMINATED, fork_pending=False)

    def branches(self, thread_id: str) -> builtins.list[Branch]:
        state = self._sessions.get(thread_id)
        if state is None:
            return []
        out = [b for b, _ in self._sealed.get(thread_id, [])]
        out.append(Branch(branch=state.branch, level=self.ladder.name(state.level), head=True))
        return out

    def list_branch(self, thread_id: str, branch: int, *, level: str, limit: int | None = None):
        for b, saver in self._sealed.get(thread_id, []):
            if b.branch == branch:
                if self.ladder.rank(level) < self.ladder.rank(b.level):
                    raise BranchAccessDenied("this branch holds content above the level asked for")
                yield from saver.list({"configurable": {"thread_id": thread_id}}, limit=limit)
                return
        head = self._sessions.get(thread_id)
        if head is not None and branch == head.branch:
            if self.ladder.rank(level) < head.level:
                raise BranchAccessDenied("this branch holds content above the level asked for")
            yield from self.list({"configurable": {"thread_id": thread_id}}, limit=limit)
            return
        raise BranchAccessDenied("no such branch on this thread")

    def delete_thread(self, thread_id: str) -> None:
        with self._mutex:
            super().delete_thread(thread_id)
            self._sessions.pop(thread_id, None)
            self._sealed.pop(thread_id, None)
            self._users.pop(thread_id, None)
            self._head_level.pop(thread_id, None)
            for key in [k for k in self._vouched if k[0] == thread_id]:
                self._vouched.pop(key, None)

    def forget_user(self, user_id: str) -> int:
        """Delete every thread started by ``user_id``; returns how many."""
        with self._mutex:
            doomed = [t for t, u in self._users.items() if u == str(user_id)]
            for t in doomed:
                self.delete_thread(t)
            return len(doomed)

    async def aforget_user(self, user_id: str) -> int:
        return self.forget_user(user_id)

    async def adelete_thread(self, thread_id: str) -> None:
        self.delete_thread(thread_id)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self.get_tuple(config)

    async def aput(self, config, checkpoint, metadata, new_versions) -> RunnableConfig:  # type: ignore[override]
        return self.put(config, checkpoint, metadata, new_versions)

    async def aput_writes(self, config, writes, task_id, task_path="") -> None:  # type: ignore[override]
        self.put_writes(config, writes, task_id, task_path)

    async def asession(self, config: RunnableConfig) -> Session | None:
        return self.session(config)

    async def adegrade(self, config: RunnableConfig, level: str) -> None:
        self.degrade(config, level)

    async def aterminate(self, config: RunnableConfig) -> None:
        self.terminate(config)

    def close(self) -> None:
        """Drop every thread, branch and session held by this saver."""
        with self._mutex:
            self.storage.clear()
            self.writes.clear()
            self.blobs.clear()
            self._sessions.clear()
            self._sealed.clear()
            self._head_level.clear()
            self._users.clear()
            self._vouched.clear()

    def __exit__(self, *exc: Any) -> None:
        self.close()
        super().__exit__(*exc)

    async def __aexit__(self, *exc: Any) -> None:
        self.close()
        await super().__aexit__(*exc)
