"""What the sync and async savers share: sealing, row decoding, the session
rules and the multi-statement operations, written without I/O.

Multi-statement operations (fork, terminate, copy, prune, delete) are
generators that yield ``(sql, params, fetch)`` and receive the fetched rows;
``saver.py`` and ``aio.py`` run them on a connection inside one transaction.
That keeps one copy of each operation's logic for both twins.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from psycopg.types.json import Jsonb

from langgraph_trustmem.checkpoint import sql
from langgraph_trustmem.checkpoint.hot import HotEntry
from langgraph_trustmem.crypto import KeyRing, aad
from langgraph_trustmem.errors import (
    BranchAccessDenied,
    ContentAboveLevel,
    SessionTerminated,
    StaleBranch,
    TamperedDataError,
    ThreadExists,
    TrustEscalationError,
)
from langgraph_trustmem.pg import Statements
from langgraph_trustmem.trust import DEFAULT_LADDER, Ladder, content_rank, requested_level

log = logging.getLogger(__name__)


ACTIVE = "active"
TERMINATED = "terminated"
_EMPTY = "empty"


@dataclass(frozen=True)
class SessionState:
    """A thread's trust state as the saver last saw it."""

    level: int
    status: str = ACTIVE
    fork_pending: bool = False
    branch: int = 0


@dataclass(frozen=True)
class Session:
    """A thread's session, as returned by ``saver.session()``."""

    level: str
    status: str
    branch: int
    fork_pending: bool

    @property
    def terminated(self) -> bool:
        return self.status == TERMINATED


@dataclass(frozen=True)
class Branch:
    """One branch of a thread. Sealed branches keep the history they had at
    their (higher) level and are reachable only through the branch API."""

    branch: int
    level: str
    head: bool
    parent_branch: int | None = None
    forked_from: str | None = None
    sealed_at: datetime | None = None


@dataclass(frozen=True)
class Retention:
    """How long threads live: ``idle`` seconds since the last write and
    ``max_age`` seconds since creation (either may be None)."""

    idle: float | None = None
    max_age: float | None = None


def _thread_id(config: RunnableConfig) -> str:
    conf = config.get("configurable") or {}
    tid = conf.get("thread_id")
    if tid is None or tid == "":
        raise ValueError("configurable.thread_id is required by the trust checkpointer")
    return str(tid)


class TrustSaverBase(BaseCheckpointSaver[str]):
    """Encryption, decoding and session rules shared by both savers."""

    keyring: KeyRing
    ladder: Ladder

    def __init__(
        self,
        *,
        keyring: KeyRing,
        ladder: Ladder = DEFAULT_LADDER,
        hot_ttl: float = 3600.0,
        retention: Retention | None = None,
        serde: SerializerProtocol | None = None,
    ) -> None:
        super().__init__(serde=serde)
        self.keyring = keyring
        self.ladder = ladder
        self.hot_ttl = hot_ttl
        self.retention = retention or Retention()
        self._sessions: dict[bytes, SessionState] = {}
        self._sessions_lock = threading.Lock()

    # -- identifiers -------------------------------------------------------

    def thread_key(self, thread_id: str) -> bytes:
        return self.keyring.hash_id("thread", str(thread_id))

    def user_key(self, user_id: Any) -> bytes:
        return self.keyring.hash_id("user", str(user_id))

    def _run_key(self, metadata: Mapping[str, Any]) -> bytes | None:
        run_id = metadata.get("run_id")
        return self.keyring.hash_id("run", str(run_id)) if run_id is not None else None

    @staticmethod
    def run_id_of(config: RunnableConfig, metadata: Mapping[str, Any] | None = None) -> Any:
        """The run a checkpoint belongs to: LangGraph passes it in the run's
        config metadata (the stock savers copy it into checkpoint metadata,
        where the loop reads it back to detect re-entry)."""
        if metadata and metadata.get("run_id") is not None:
            return metadata["run_id"]
        return (config.get("metadata") or {}).get("run_id") or config.get("run_id")

    # -- versions ----------------------------------------------------------

    def get_next_version(self, current: str | None, channel: None) -> str:
        if current is None:
            current_v = 0
        elif isinstance(current, int):
            current_v = current
        else:
            current_v = int(current.split(".")[0])
        return f"{current_v + 1:032}.{random.random():016}"

    # -- sealing -----------------------------------------------------------

    def _seal_typed(self, typed: tuple[str, bytes | None], where: bytes) -> bytes:
        kind, data = typed
        return self.keyring.encrypt(kind.encode() + b"\x00" + (data or b""), where)

    def _open_typed(self, envelope: bytes, where: bytes) -> tuple[str, bytes]:
        raw = self.keyring.decrypt(envelope, where)
        kind, _, data = raw.partition(b"\x00")
        return kind.decode(), data

    def _blob_aad(self, tk: bytes, ns: str, channel: str, version: str) -> bytes:
        return aad("blob", tk, ns, channel, version)

    def _seal_blob(self, tk: bytes, ns: str, channel: str, version: str, value: Any, present: bool) -> bytes:
        typed = self.serde.dumps_typed(value) if present else (_EMPTY, None)
        return self._seal_typed(typed, self._blob_aad(tk, ns, channel, version))

    def _open_blob(self, tk: bytes, ns: str, channel: str, version: str, blob: bytes) -> tuple[bool, Any]:
        kind, data = self._open_typed(blob, self._blob_aad(tk, ns, channel, version))
        if kind == _EMPTY:
            return False, None
        return True, self.serde.loads_typed((kind, data))

    def _write_aad(self, tk: bytes, ns: str, cid: str, task_id: str, idx: int, channel: str) -> bytes:
        return aad("write", tk, ns, cid, task_id, idx, channel)

    def _payload_aad(self, tk: bytes, ns: str, cid: str) -> bytes:
        return aad("checkpoint", tk, ns, cid)

    def _seal_payload(
        self, tk: bytes, ns: str, checkpoint: Checkpoint, metadata: Mapping[str, Any], parent: str | None
    ) -> bytes:
        header = {
            "v": checkpoint["v"],
            "id": checkpoint["id"],
            "ts": checkpoint["ts"],
            "channel_versions": checkpoint["channel_versions"],
            "versions_seen": checkpoint["versions_seen"],
            "updated_channels": checkpoint.get("updated_channels"),
            "parent": parent,
            "metadata": metadata,
        }
        return self._seal_typed(self.serde.dumps_typed(header), self._payload_aad(tk, ns, checkpoint["id"]))

    def _open_payload(self, tk: bytes, ns: str, cid: str, payload: bytes) -> dict[str, Any]:
        return self.serde.loads_typed(self._open_typed(payload, self._payload_aad(tk, ns, cid)))

    def _seal_thread_id(self, tk: bytes, thread_id: str) -> bytes:
        return self.keyring.encrypt(thread_id.encode("utf-8"), aad("thread", tk))

    def _open_thread_id(self, tk: bytes, ct: bytes) -> str:
        return self.keyring.decrypt(ct, aad("thread", tk)).decode("utf-8")

    # -- sessions ----------------------------------------------------------

    def _remember(self, tk: bytes, state: SessionState) -> None:
        with self._sessions_lock:
            self._sessions[tk] = state
            if len(self._sessions) > 65536:
                self._sessions.pop(next(iter(self._sessions)))

    def _forget_session(self, tks: Iterable[bytes]) -> None:
        with self._sessions_lock:
            for tk in tks:
                self._sessions.pop(tk, None)

    def cached_level(self, config: RunnableConfig) -> str | None:
        """The session's current level as this process last saw it (no
        I/O); None when this saver has not seen the thread."""
        tid = (config.get("configurable") or {}).get("thread_id")
        state = self._sessions.get(self.thread_key(str(tid))) if tid is not None else None
        return self.ladder.name(state.level) if state is not None else None

    def _start_level(self, config: RunnableConfig) -> int:
        lv = requested_level(config)
        return self.ladder.rank(lv) if lv is not None else 0

    def _check_run(self, config: RunnableConfig, state: SessionState) -> int | None:
        """Apply the session rules to a run's config: refuse escalation and
        runs on terminated threads; return a lower level the run asks for
        (which degrades the session), else None."""
        if state.status == TERMINATED:
            raise SessionTerminated("this session was terminated and refuses further runs")
        lv = requested_level(config)
        if lv is None:
            return None
        rank = self.ladder.rank(lv)
        if rank > state.level:
            raise TrustEscalationError(
                "a run asked for a trust level above its session's; a session's level "
                "is fixed when its thread starts and never raised"
            )
        return rank if rank < state.level else None

    def _session_view(self, state: SessionState) -> Session:
        return Session(
            level=self.ladder.name(state.level),
            status=state.status,
            branch=state.branch,
            fork_pending=state.fork_pending,
        )

    def _wants_fork(self, params: Mapping[str, Any]) -> bool:
        """A pending degrade turns into a fork at the first root-graph
        checkpoint whose content holds nothing above the session's new level
        (the trust gate's cleaned state). The transaction checks again."""
        state = self._sessions.get(params["tk"])
        if state is None or not state.fork_pending or params["ns"] != "":
            return False
        return params["rank"] <= state.level

    # -- put ---------------------------------------------------------------

    def _put_params(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> tuple[dict[str, Any], dict[tuple[str, str], bytes]]:
        conf = config["configurable"]
        thread_id = _thread_id(config)
        tk = self.thread_key(thread_id)
        ns = conf.get("checkpoint_ns", "")
        values = checkpoint["channel_values"]
        blobs: dict[tuple[str, str], bytes] = {}
        for channel, version in new_versions.items():
            version = str(version)
            blobs[(channel, version)] = self._seal_blob(
                tk, ns, channel, version, values.get(channel), channel in values
            )
        meta = {
            k: (v.replace("\u0000", "") if isinstance(v, str) else v)
            for k, v in metadata.items()
            if k != "writes"
        }
        if (run_id := self.run_id_of(config, meta)) is not None:
            meta["run_id"] = str(run_id)
        parent = conf.get("checkpoint_id")
        user_id = conf.get("user_id")
        params = {
            "tk": tk,
            "tct": self._seal_thread_id(tk, thread_id),
            "uk": self.user_key(user_id) if user_id is not None else None,
            "level": self._start_level(config),
            "rank": content_rank(values.values(), self.ladder),
            "ns": ns,
            "cid": checkpoint["id"],
            "parent": parent,
            "rk": self._run_key(meta),
            "source": meta.get("source") if isinstance(meta.get("source"), str) else None,
            "step": meta.get("step") if isinstance(meta.get("step"), int) else None,
            "versions": Jsonb({k: str(v) for k, v in checkpoint["channel_versions"].items()}),
            "payload": self._seal_payload(tk, ns, checkpoint, meta, parent),
            "channels": [c for c, _ in blobs],
            "bversions": [v for _, v in blobs],
            "blobs": list(blobs.values()),
        }
        return params, blobs

    def _after_put(self, config: RunnableConfig, params: dict[str, Any], row: tuple) -> RunnableConfig:
        head_branch, level, status, fork_pending, inserted, _branch_level, parent_sealed = row
        tk = params["tk"]
        if not inserted:
            self._forget_session([tk])
            if status != ACTIVE:
                raise SessionTerminated("this session was terminated and refuses further runs")
            if parent_sealed:
                raise StaleBranch("this run continues from a sealed branch; the session forked meanwhile")
            raise ContentAboveLevel(
                "this checkpoint holds content above its branch's level; a trust gate must "
                "clean the graph's state before it is saved"
            )
        self._remember(tk, SessionState(level, status, fork_pending, head_branch))
        return {
            "configurable": {
                "thread_id": _thread_id(config),
                "checkpoint_ns": params["ns"],
                "checkpoint_id": params["cid"],
            }
        }

    def _hot_entry_for_put(
        self, params: dict[str, Any], blobs: Mapping[tuple[str, str], bytes], row: tuple, forked: bool
    ) -> HotEntry:
        head_branch, level, status, fork_pending = row[:4]
        return HotEntry(
            checkpoint_id=params["cid"],
            parent_id=None if forked else params["parent"],
            payload=params["payload"],
            branch=head_branch,
            level=level,
            status=status,
            fork_pending=fork_pending,
            blobs=dict(blobs),
            writes={},
        )

    def _degrade_ops(self, config: RunnableConfig, rank: int) -> Statements:
        """Lower the session, creating the thread if its first checkpoint is
        not stored yet. Returns the head branch, or None when nothing was
        lowered (already at or below ``rank``, or terminated)."""
        thread_id = _thread_id(config)
        tk = self.thread_key(thread_id)
        old = self._start_level(config)
        if old > rank:
            user_id = (config.get("configurable") or {}).get("user_id")
            params = {
                "tk": tk,
                "tct": self._seal_thread_id(tk, thread_id),
                "uk": self.user_key(user_id) if user_id is not None else None,
                "level": rank,
                "old": old,
            }
            created = yield sql.DEGRADE_NEW_THREAD_SQL, params, True
            if created:
                yield sql.DEGRADE_NEW_BRANCH_SQL, params, False
                return created[0][0]
        rows = yield sql.DEGRADE_SQL, {"tk": tk, "level": rank}, True
        return rows[0][0] if rows else None

    def _fork_ops(self, params: dict[str, Any]) -> Statements:
        """The fork, as one transaction: seal the head branch, open a new one
        at the session's (lowered) level, store this checkpoint as its root."""
        tk = params["tk"]
        rows = yield sql.FORK_LOCK_SQL, (tk,), True
        if not rows:
            return None
        head, level, status, pending, top = rows[0]
        if status != ACTIVE or not pending or params["rank"] > level:
            return None  # forked or ended meanwhile, or not clean enough: a normal put
        old = yield sql.BRANCH_LEVEL_SQL, (tk, head), True
        old_level = old[0][0] if old else level
        new_branch = max(top, head) + 1
        yield sql.FORK_SEAL_SQL, {"tk": tk, "branch": head, "old_level": old_level}, False
        yield (
            sql.FORK_OPEN_SQL,
            {
                "tk": tk,
                "branch": new_branch,
                "level": level,
                "parent_branch": head,
                "forked_from": params["parent"],
            },
            False,
        )
        yield sql.FORK_MOVE_HEAD_SQL, {"tk": tk, "branch": new_branch}, False
        rows = yield sql.PUT_SQL, {**params, "parent": None}, True
        return rows[0]

    # -- put_writes --------------------------------------------------------

    def _writes_params(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str
    ) -> tuple[str, dict[str, Any], dict[tuple[str, int, str, str], bytes]]:
        conf = config["configurable"]
        tk = self.thread_key(_thread_id(config))
        ns = conf.get("checkpoint_ns", "")
        cid = conf["checkpoint_id"]
        upsert = all(w[0] in WRITES_IDX_MAP for w in writes)
        idxs, channels, blobs = [], [], []
        hot: dict[tuple[str, int, str, str], bytes] = {}
        for i, (channel, value) in enumerate(writes):
            idx = WRITES_IDX_MAP.get(channel, i)
            blob = self._seal_typed(
                self.serde.dumps_typed(value), self._write_aad(tk, ns, cid, task_id, idx, channel)
            )
            idxs.append(idx)
            channels.append(channel)
            blobs.append(blob)
            hot[(task_id, idx, channel, task_path)] = blob
        params = {
            "tk": tk,
            "ns": ns,
            "cid": cid,
            "task_id": task_id,
            "task_path": task_path,
            "idx": idxs,
            "channels": channels,
            "blobs": blobs,
        }
        return (sql.UPSERT_WRITES_SQL if upsert else sql.INSERT_WRITES_SQL), params, hot

    # -- reading -----------------------------------------------------------

    def _get_params(self, config: RunnableConfig, tk: bytes) -> tuple[str, dict[str, Any]]:
        conf = config["configurable"]
        ns = conf.get("checkpoint_ns", "")
        cid = get_checkpoint_id(config)
        query = sql.GET_BY_ID_SQL if cid else sql.GET_LATEST_SQL
        return query, {"tk": tk, "ns": ns, "cid": cid}

    def _row_to_tuple(self, tk: bytes, thread_id: str | None, row: Sequence[Any]) -> CheckpointTuple:
        ns, cid, _parent, _branch, versions, payload, blob_rows, write_rows = row[:8]
        thread_ct = row[11]
        if thread_id is None:
            thread_id = self._open_thread_id(tk, thread_ct)
        blobs = {
            (bytes(ch).decode(), bytes(ver).decode()): bytes(blob)
            for ch, ver, blob in (blob_rows or ())
            if blob is not None
        }
        writes = {}
        for task_id, channel, task_path, idx, blob in write_rows or ():
            writes[
                (bytes(task_id).decode(), int(bytes(idx)), bytes(channel).decode(), bytes(task_path).decode())
            ] = bytes(blob)
        return self._assemble(tk, thread_id, ns, cid, payload, blobs, writes, versions)

    def _assemble(
        self,
        tk: bytes,
        thread_id: str,
        ns: str,
        cid: str,
        payload: bytes,
        blobs: Mapping[tuple[str, str], bytes],
        writes: Mapping[tuple[str, int, str, str], bytes],
        versions: Mapping[str, str] | None = None,
    ) -> CheckpointTuple:
        header = self._open_payload(tk, ns, cid, payload)
        # The sealed header is the truth; the plaintext copy only serves joins.
        if versions is not None and {k: str(v) for k, v in header["channel_versions"].items()} != dict(
            versions
        ):
            raise TamperedDataError("a checkpoint's channel versions do not match its sealed header")
        parent = header.get("parent")
        values: dict[str, Any] = {}
        for channel, version in header["channel_versions"].items():
            blob = blobs.get((channel, str(version)))
            if blob is None:
                continue
            present, value = self._open_blob(tk, ns, channel, str(version), blob)
            if present:
                values[channel] = value
        pending = []
        for (task_id, idx, channel, task_path), blob in sorted(
            writes.items(), key=lambda kv: (kv[0][3], kv[0][0], kv[0][1])
        ):
            typed = self._open_typed(blob, self._write_aad(tk, ns, cid, task_id, idx, channel))
            pending.append((task_id, channel, self.serde.loads_typed(typed)))
        checkpoint: Checkpoint = {
            "v": header["v"],
            "id": header["id"],
            "ts": header["ts"],
            "channel_values": values,
            "channel_versions": header["channel_versions"],
            "versions_seen": header["versions_seen"],
            "updated_channels": header.get("updated_channels"),
        }
        config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": cid}}
        parent_config = (
            {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": parent}}
            if parent
            else None
        )
        return CheckpointTuple(config, checkpoint, header["metadata"], parent_config, pending)

    def _tuple_from_hot(self, tk: bytes, thread_id: str, ns: str, entry: HotEntry) -> CheckpointTuple | None:
        try:
            tup = self._assemble(
                tk, thread_id, ns, entry.checkpoint_id, entry.payload, entry.blobs, entry.writes
            )
        except (TamperedDataError, ValueError, KeyError):
            log.warning("a hot-tier entry failed to open; reading PostgreSQL instead")
            return None
        header_versions = tup.checkpoint["channel_versions"]
        # An entry written by a process that never saw some unchanged
        # channel's blob is incomplete: fall back to PostgreSQL.
        for channel, version in header_versions.items():
            if (channel, str(version)) not in entry.blobs:
                return None
        return tup

    def _hot_entry_from_row(self, tk: bytes, row: Sequence[Any]) -> HotEntry:
        _ns, cid, parent, branch, _versions, payload, blob_rows, write_rows = row[:8]
        level, status, fork_pending = row[8], row[9], row[10]
        return HotEntry(
            checkpoint_id=cid,
            parent_id=parent,
            payload=bytes(payload),
            branch=branch,
            level=level,
            status=status,
            fork_pending=fork_pending,
            blobs={
                (bytes(c).decode(), bytes(v).decode()): bytes(b)
                for c, v, b in (blob_rows or ())
                if b is not None
            },
            writes={
                (bytes(t).decode(), int(bytes(i)), bytes(c).decode(), bytes(p).decode()): bytes(b)
                for t, c, p, i, b in (write_rows or ())
            },
        )

    def _list_query(
        self,
        config: RunnableConfig | None,
        filter: Mapping[str, Any] | None,
        before: RunnableConfig | None,
        limit: int | None,
        branch: int | None = None,
    ) -> tuple[str, dict[str, Any], dict[str, Any]]:
        """The list statement, its parameters and the part of the filter
        that can only be checked after decryption."""
        where = []
        params: dict[str, Any] = {}
        if branch is None:
            where.append("c.branch = t.head_branch")
        else:
            where.append("c.branch = %(branch)s")
            params["branch"] = branch
        if config:
            conf = config.get("configurable") or {}
            if conf.get("thread_id") is not None:
                where.append("t.thread_key = %(tk)s")
                params["tk"] = self.thread_key(str(conf["thread_id"]))
            if conf.get("checkpoint_ns") is not None:
                where.append("c.checkpoint_ns = %(ns)s")
                params["ns"] = conf["checkpoint_ns"]
            if cid := conf.get("checkpoint_id"):
                where.append("c.checkpoint_id = %(cid)s")
                params["cid"] = cid
        if before and (bid := get_checkpoint_id(before)):
            where.append("c.checkpoint_id < %(before)s")
            params["before"] = bid
        rest: dict[str, Any] = {}
        for key, value in (filter or {}).items():
            if key == "source" and isinstance(value, str):
                where.append("c.source = %(f_source)s")
                params["f_source"] = value
            elif key == "step" and isinstance(value, int) and not isinstance(value, bool):
                where.append("c.step = %(f_step)s")
                params["f_step"] = value
            else:
                rest[key] = value
        query = sql.LIST_SQL + "WHERE " + " AND ".join(where) + " ORDER BY c.checkpoint_id DESC"
        if limit is not None and not rest:
            query += f" LIMIT {int(limit)}"
        return query, params, rest

    @staticmethod
    def _matches(metadata: Mapping[str, Any], rest: Mapping[str, Any]) -> bool:
        return all(metadata.get(k) == v for k, v in rest.items())

    # -- thread-wide operations -------------------------------------------

    def _delete_ops(self, tks: list[bytes]) -> Statements:
        for statement in sql.DELETE_THREAD_SQL:
            yield statement, (tks,), False

    def _terminate_ops(self, tk: bytes, run_key: bytes | None) -> Statements:
        rows = yield sql.TERMINATE_SQL, (tk,), True
        if not rows:
            return False
        branch = rows[0][0]
        start = []
        if run_key is not None:
            start = yield sql.TERMINATE_RUN_START_SQL, (tk, branch, run_key), True
        if not start:
            start = yield sql.TERMINATE_LAST_INPUT_SQL, (tk, branch), True
        if start:
            cid, parent = start[0]
            for statement in sql.TERMINATE_DROP_SQL:
                yield statement, {"tk": tk, "branch": branch, "cid": cid, "parent": parent}, False
            yield sql.DELETE_ORPHAN_BLOBS_SQL, ([tk],), False
        return True

    def _delete_for_runs_ops(self, run_keys: list[bytes]) -> Statements:
        yield sql.DELETE_FOR_RUNS_SQL[0], (run_keys,), False
        rows = yield sql.DELETE_FOR_RUNS_SQL[1], (run_keys,), True
        tks = sorted({bytes(r[0]) for r in rows})
        if tks:
            yield sql.DELETE_ORPHAN_BLOBS_SQL, (tks,), False
        return tks

    def _copy_ops(self, src: bytes, dst: bytes, dst_thread_id: str) -> Statements:
        """Copy every branch of a thread, re-sealing each value for its new
        place (the associated data names the thread)."""
        rows = yield sql.COPY_SELECT_SQL["thread"], (src,), True
        if not rows:
            return False
        if (yield sql.COPY_TARGET_EXISTS_SQL, (dst,), True):
            raise ThreadExists("copy_thread copies onto a new thread only")
        _ct, user_key, head, head_level, level, pending, status = rows[0]
        sealed_id = self._seal_thread_id(dst, dst_thread_id)
        row = (dst, sealed_id, user_key, head, head_level, level, pending, status)
        yield sql.COPY_INSERT_SQL["thread"], row, False
        for b in (yield sql.COPY_SELECT_SQL["branches"], (src,), True):
            yield sql.COPY_INSERT_SQL["branches"], (dst, *b), False
        for ns, cid, branch, parent, rk, source, step, versions, payload in (
            yield sql.COPY_SELECT_SQL["checkpoints"], (src,), True
        ):
            typed = self._open_typed(payload, self._payload_aad(src, ns, cid))
            sealed = self._seal_typed(typed, self._payload_aad(dst, ns, cid))
            yield (
                sql.COPY_INSERT_SQL["checkpoints"],
                (dst, ns, cid, branch, parent, rk, source, step, Jsonb(versions), sealed),
                False,
            )
        for ns, channel, version, blob in (yield sql.COPY_SELECT_SQL["blobs"], (src,), True):
            typed = self._open_typed(blob, self._blob_aad(src, ns, channel, version))
            sealed = self._seal_typed(typed, self._blob_aad(dst, ns, channel, version))
            yield sql.COPY_INSERT_SQL["blobs"], (dst, ns, channel, version, sealed), False
        for ns, cid, task_id, task_path, idx, channel, blob in (
            yield sql.COPY_SELECT_SQL["writes"], (src,), True
        ):
            typed = self._open_typed(blob, self._write_aad(src, ns, cid, task_id, idx, channel))
            sealed = self._seal_typed(typed, self._write_aad(dst, ns, cid, task_id, idx, channel))
            yield (
                sql.COPY_INSERT_SQL["writes"],
                (dst, ns, cid, task_id, task_path, idx, channel, sealed),
                False,
            )
        return True

    def _prune_ops(self, tks: list[bytes], strategy: str) -> Statements:
        if strategy == "delete":
            yield from self._delete_ops(tks)
            return None
        if strategy != "keep_latest":
            raise ValueError("prune strategy must be 'keep_latest' or 'delete'")
        for tk in tks:
            for statement in sql.PRUNE_KEEP_LATEST_SQL:
                yield statement, {"tk": tk}, False
            yield "DELETE FROM trustmem_prune_keep", (), False
        yield sql.DELETE_ORPHAN_BLOBS_SQL, (tks,), False
        return None

    def _rotate_ops(self, batch: int) -> Statements:
        """Re-seal up to ``batch`` rows per table that an older key sealed,
        under the active key. Returns how many rows were re-sealed."""
        old = [k.to_bytes(4, "big") for k in self.keyring.key_ids if k != self.keyring.active_key_id]
        if not old:
            return 0
        done = 0
        for table, where in (
            ("threads", lambda r: aad("thread", bytes(r[0]))),
            ("checkpoints", lambda r: self._payload_aad(bytes(r[0]), r[1], r[2])),
            ("blobs", lambda r: self._blob_aad(bytes(r[0]), r[1], r[2], r[3])),
            ("writes", lambda r: self._write_aad(bytes(r[0]), r[1], r[2], r[3], r[4], r[5])),
        ):
            rows = yield sql.ROTATE_SELECT_SQL[table], (old, batch), True
            for row in rows:
                place = where(row)
                sealed = self.keyring.encrypt(self.keyring.decrypt(row[-1], place), place)
                yield sql.ROTATE_UPDATE_SQL[table], (sealed, *row[:-1]), False
            done += len(rows)
        return done

    def _branches_from_rows(self, rows: list[tuple]) -> list[Branch]:
        if not rows:
            return []
        head, level = rows[0][0], rows[0][1]
        out = []
        for _h, _l, branch, blevel, parent, forked_from, sealed_at, _created in rows:
            if branch is None:
                continue
            out.append(
                Branch(
                    branch=branch,
                    level=self.ladder.name(blevel),
                    head=branch == head,
                    parent_branch=parent,
                    forked_from=forked_from,
                    sealed_at=sealed_at,
                )
            )
        if not any(b.head for b in out):
            out.append(Branch(branch=head, level=self.ladder.name(level), head=True))
        return sorted(out, key=lambda b: b.branch)

    def _check_branch_access(self, branches: list[Branch], branch: int, level: str) -> None:
        match = next((b for b in branches if b.branch == branch), None)
        if match is None:
            raise BranchAccessDenied("no such branch on this thread")
        if self.ladder.rank(level) < self.ladder.rank(match.level):
            raise BranchAccessDenied("this branch holds content above the level asked for")
