"""What the sync and async savers share: sealing, row decoding, the session
rules and the multi-statement operations, written without I/O.

Multi-statement operations (fork, terminate, copy, prune, delete) are
generators that yield ``(sql, params, fetch)`` and receive the fetched rows;
``saver.py`` and ``aio.py`` run them on a connection inside one transaction.
That keeps one copy of each operation's logic for both twins.
"""

from __future__ import annotations

import contextvars
import hmac
import logging
import random
import sys
import threading
import uuid
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, cast

import psycopg
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
)
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.types import TASKS, _DeltaSnapshot
from psycopg.types.json import Jsonb

from langgraph_trustmem.checkpoint import sql
from langgraph_trustmem.checkpoint.decoded import DEFAULT_MAX_BYTES, DecodedCache, Held
from langgraph_trustmem.checkpoint.hot import HotEntry, NullHotTier
from langgraph_trustmem.crypto import HEADER_SIZE, KeyRing, aad
from langgraph_trustmem.errors import (
    BranchAccessDenied,
    ConcurrentRunError,
    ContentAboveLevel,
    InvalidInputError,
    SessionTerminated,
    StaleBranch,
    TamperedDataError,
    TamperedDataWarning,
    ThreadExists,
    ThreadOwnershipError,
    TrustEscalationError,
)
from langgraph_trustmem.pg import BytesArray, IntArray, Statements, TextArray
from langgraph_trustmem.trust import (
    DEFAULT_LADDER,
    Ladder,
    Vouch,
    has_content,
    is_message_value,
    iter_messages,
    message_rank,
    requested_level,
    state_rank,
    user_of,
)

log = logging.getLogger(__name__)


ACTIVE = "active"
TERMINATED = "terminated"
_EMPTY = "empty"
_MISSING = object()


# LangGraph puts this key in the config of every graph run (never in a
# config a user passes to get_state): it tells a run from a read.
CONFIG_KEY_RUNTIME = "__pregel_runtime"
# Who the last root read of a thread was for, in this context: LangGraph
# reads subgraph state (get_state(subgraphs=True)) with a config holding
# only the thread and namespace, which then reads as that same caller.
_LAST_READER: contextvars.ContextVar[tuple[Any, dict[str, Any]] | None] = contextvars.ContextVar(
    "trustmem_last_reader", default=None
)


class BranchMoved(Exception):
    """Internal: a put was sealed for a head branch that has since moved
    (another saver forked the thread); the put is sealed again and retried."""


@dataclass(frozen=True, slots=True)
class SessionState:
    """A thread's access state as the saver last saw it: the columns the
    thread's ``acl_mac`` authenticates."""

    level: int
    status: str = ACTIVE
    fork_pending: bool = False
    branch: int = 0
    tainted: bool = False
    owner: bytes | None = None
    head_level: int | None = None  # the head branch's level; None: the session's

    @property
    def branch_level(self) -> int:
        return self.level if self.head_level is None else self.head_level

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> SessionState:
        """Read ``sql.ACL_COLUMNS`` (without the MAC)."""
        owner, head_branch, head_level, level, status, pending, tainted = row[:7]
        return cls(
            level,
            status,
            pending,
            head_branch,
            tainted,
            bytes(owner) if owner is not None else None,
            head_level,
        )


def newer_state(old: SessionState | None, new: SessionState) -> SessionState:
    """What this process should believe after an answer ``new`` that was
    read before a change this process made to the session (held: ``old``):
    a checkpoint saved in the background answers after the gate lowered the
    session. A session only moves one way within one life of its thread: its level
    and its head branch's level never rise, its branch never goes back, a
    pending fork ends only with a new branch, a termination and a taint are
    final. So a row of an older branch changes nothing, and one of the same
    branch can only add restrictions."""
    if old is None or new.branch > old.branch:
        return new if old is None or new.level <= old.level else replace(new, level=old.level)
    if new.branch < old.branch:
        return old
    heads = [h for h in (old.head_level, new.head_level) if h is not None]
    return SessionState(
        min(old.level, new.level),
        TERMINATED if TERMINATED in (old.status, new.status) else new.status,
        old.fork_pending or new.fork_pending,
        new.branch,
        old.tainted or new.tainted,
        new.owner if new.owner is not None else old.owner,
        min(heads) if heads else None,
    )


@dataclass(frozen=True)
class Session:
    """A thread's session, as returned by ``saver.session()``."""

    level: str
    status: str
    branch: int
    fork_pending: bool
    tainted: bool = False  # content from outside the session entered it

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


SESSION_CACHE_BYTES = 2 * 1024 * 1024
CHANGES_KEPT = 4096
MEMO_ENTRIES = 1024


def _memo(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """Remember ``value``; a full memo starts over (its entries are cheap to
    compute again)."""
    if len(memo) >= MEMO_ENTRIES:
        memo.clear()
    memo[key] = value


def _session_bytes(tk: bytes, state: SessionState) -> int:
    """What one remembered session costs: its key, its state and the
    cache's slot for it."""
    owner = sys.getsizeof(state.owner) if state.owner is not None else 0
    return sys.getsizeof(tk) + sys.getsizeof(state) + owner + 300  # its slots in both orders


def _skipped(what: str) -> None:
    log.warning(what)
    warnings.warn(what, TamperedDataWarning, 4)


def reader_config(config: RunnableConfig, thread: Any) -> RunnableConfig:
    """A read's config as its caller's: a root read is remembered (in this
    context); a namespaced read that names no user is the same caller's read
    of the same thread (LangGraph reads subgraph state that way)."""
    if is_run(config):
        return config
    conf = config.get("configurable") or {}
    if not conf.get("checkpoint_ns"):
        who = {"user_id": user_of(config), "trust": conf.get("trust")}
        _LAST_READER.set((thread, {k: v for k, v in who.items() if v is not None}))
        return config
    last = _LAST_READER.get()
    if user_of(config) is None and last is not None and last[0] == thread:
        return {**config, "configurable": {**conf, **last[1]}}
    return config


def is_run(config: RunnableConfig) -> bool:
    """Whether a config is a graph run's (reads never change a thread)."""
    return CONFIG_KEY_RUNTIME in (config.get("configurable") or {})


def as_reader(config: RunnableConfig, tup: CheckpointTuple) -> CheckpointTuple:
    """The tuple's own config and its parent's, naming the reader's
    ``user_id``: following them (LangGraph's history walks, time travel from
    a snapshot's config) reads as the same caller, with no ambient identity."""
    user = user_of(config)
    if user is None:
        return tup

    def named(cfg: RunnableConfig | None) -> RunnableConfig | None:
        if cfg is None:
            return None
        return {**cfg, "configurable": {**(cfg.get("configurable") or {}), "user_id": user}}

    return tup._replace(config=cast(RunnableConfig, named(tup.config)), parent_config=named(tup.parent_config))


def read_view(
    ladder: Ladder, config: RunnableConfig, branch_level: int, tup: CheckpointTuple
) -> CheckpointTuple:
    """What a read sees: everything for a reader at the branch's level; for
    a reader asking for less (``configurable.trust``), only messages
    labelled at or below that level, and no other content (its level is the
    branch's)."""
    tup = as_reader(config, tup)
    lv = requested_level(config)
    if lv is None or is_run(config) or ladder.rank(lv) >= branch_level:
        return tup  # a run gets its state whole: its trust gate lowers it, its saver checks it
    rank = ladder.rank(lv)

    def keep(value: Any) -> tuple[bool, Any]:
        if isinstance(value, _DeltaSnapshot):  # a DeltaChannel's stored value: filtered inside
            ok, kept = keep(value.value)
            return ok, _DeltaSnapshot(kept) if ok else None
        if not has_content(value):
            return True, value
        if is_message_value(value):
            items = [
                m for m in iter_messages(value) if (r := message_rank(m, ladder)) is not None and r <= rank
            ]
            if isinstance(value, (list, tuple)):
                return True, type(value)(items)
            return bool(items), value
        return False, None

    values = {}
    for channel, value in tup.checkpoint["channel_values"].items():
        ok, kept = keep(value)
        if ok:
            values[channel] = kept
    writes = []
    for task_id, channel, value in tup.pending_writes or ():
        ok, kept = keep(value)
        if ok:
            writes.append((task_id, channel, kept))
    checkpoint: Checkpoint = {**tup.checkpoint, "channel_values": values}  # type: ignore[typeddict-item]
    return tup._replace(checkpoint=checkpoint, pending_writes=writes)


def _write_map(rows: Any) -> dict[tuple[str, int, str, str], bytes]:
    """Write rows as the query returns them, keyed (task, idx, channel, path)."""
    return {
        (bytes(task_id).decode(), int(bytes(idx)), bytes(channel).decode(), bytes(task_path).decode()): bytes(blob)
        for task_id, channel, task_path, idx, blob in rows or ()
    }


def refused(exc: BaseException) -> bool:
    """Whether PostgreSQL refused a write's statement, so nothing of it was
    committed (its hot-tier mark may go). A lost connection, a cancellation
    or an error raised after the statement leave that open: the mark stays."""
    return isinstance(exc, psycopg.Error) and not isinstance(exc, (psycopg.OperationalError, psycopg.InterfaceError))


def _thread_id(config: RunnableConfig) -> str:
    conf = config.get("configurable") or {}
    tid = conf.get("thread_id")
    if tid is None or tid == "":
        raise InvalidInputError("configurable.thread_id is required by the trust checkpointer")
    if isinstance(tid, bool) or not isinstance(tid, (str, int, uuid.UUID)):
        raise InvalidInputError("configurable.thread_id must be a string, an integer or a UUID")
    tid = str(tid)
    _check_text(tid, "configurable.thread_id")
    return tid


def checkpoint_ns(config: RunnableConfig) -> str:
    """The config's checkpoint namespace, refused when PostgreSQL could not
    store it (not a string, NUL, invalid Unicode)."""
    ns = (config.get("configurable") or {}).get("checkpoint_ns") or ""
    if not isinstance(ns, str) or "\x00" in ns:
        raise InvalidInputError("configurable.checkpoint_ns must be a string without NUL")
    _check_text(ns, "configurable.checkpoint_ns")
    return ns


def _check_text(text: str, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInputError(f"{what} is not valid Unicode") from None


class TrustSaverBase(BaseCheckpointSaver[str]):
    """Encryption, decoding and session rules shared by both savers."""

    keyring: KeyRing
    ladder: Ladder
    hot: Any  # the twin narrows it: hot.HotTier (sync) or hot.AsyncHotTier
    # the byte budget of the threads' access states kept in memory (~300
    # bytes each): a cache; PostgreSQL answers for a thread that left it
    session_cache_bytes: int = SESSION_CACHE_BYTES

    def __init__(
        self,
        *,
        keyring: KeyRing,
        ladder: Ladder = DEFAULT_LADDER,
        hot_ttl: float = 3600.0,
        retention: Retention | None = None,
        serde: SerializerProtocol | None = None,
        decoded_cache_bytes: int = DEFAULT_MAX_BYTES,
    ) -> None:
        super().__init__(serde=serde)
        # decoded channel values, so a restore skips decrypting and decoding
        # a blob it already opened (bounded; dropped with the hot tier's entries)
        self.decoded = DecodedCache(decoded_cache_bytes)
        # the count of session changes made here, and the last one per thread (see _remember)
        self._seq = 0
        self._changed: OrderedDict[bytes, int] = OrderedDict()
        self.keyring = keyring
        self.ladder = ladder
        self.hot_ttl = hot_ttl
        self.retention = retention or Retention()
        self._sessions: OrderedDict[bytes, SessionState] = OrderedDict()
        self._sessions_bytes = 0
        # the same threads' keys without a pending fork, least recent first: those may leave
        self._leavable: OrderedDict[bytes, None] = OrderedDict()
        self._sessions_lock = threading.Lock()
        # access columns and MACs authenticated (by thread), new threads' MACs:
        # a few hundred KB at most (MEMO_ENTRIES each)
        self._acl_seen: dict[bytes, tuple[SessionState, bytes]] = {}
        self._start_macs: dict[tuple[bytes, int, bytes | None], bytes] = {}
        # what the trust gate vouched for, per (thread, namespace): applied to
        # this process's next checkpoints there
        self._vouched: dict[tuple[bytes, str], dict[str, Vouch]] = {}
        # runs (by their LangGraph runtime) that started from their thread's
        # latest state: their checkpoints must continue it (see ``note_run``)
        self._runs: dict[tuple[int, bytes], tuple[Any, bool]] = {}  # (id(runtime), thread) -> (runtime, linear)

    # -- identifiers -------------------------------------------------------

    def thread_key(self, thread_id: str) -> bytes:
        return self.keyring.hash_id("thread", str(thread_id))

    def user_key(self, user_id: Any) -> bytes:
        return self.keyring.hash_id("user", str(user_id))

    @staticmethod
    def run_id_of(config: RunnableConfig, metadata: Mapping[str, Any] | None = None) -> Any:
        """The run a checkpoint belongs to: LangGraph's server passes it in the
        run's config metadata (copied into checkpoint metadata, as the stock
        savers do); a run's top-level ``run_id`` only indexes its checkpoints
        (``run_key``, for terminate and ``delete_for_runs``), it is not added
        to the metadata."""
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

    def _thread_rows(self, rows: Sequence[Sequence[Any]]) -> list[dict[str, Any]]:
        """``list_threads`` rows as operators read them (ids decrypted). A
        thread whose sealed id fails to open (tampered, or sealed by a key
        not on this ring) is left out and reported, as listings do."""
        out = []
        for tk, ct, level, status, head, created, touched, n in rows:
            try:
                thread_id = self._open_thread_id(bytes(tk), bytes(ct))
            except TamperedDataError:
                _skipped("a thread's sealed id failed authentication; left out of the listing")
                continue
            out.append(
                {
                    "thread_id": thread_id,
                    "level": self.ladder.name(level),
                    "status": status,
                    "head_branch": head,
                    "created_at": created,
                    "touched_at": touched,
                    "checkpoints": n,
                }
            )
        return out

    def _drop_hot(self, tks: Iterable[bytes]) -> None:
        """Forget threads in every in-process tier and the hot tier."""
        tks = list(tks)
        self.decoded.drop(tks)
        self.hot.drop(tks)

    async def _adrop_hot(self, tks: Iterable[bytes]) -> None:
        tks = list(tks)
        self.decoded.drop(tks)
        await self.hot.adrop(tks)

    def _open_blob(
        self, tk: bytes, ns: str, channel: str, version: str, blob: bytes, held: Held | None = None
    ) -> tuple[bool, Any]:
        key = (tk, ns, channel, version, blob[8:20])  # the envelope's nonce names its bytes
        if len(blob) == HEADER_SIZE:  # only the header: the read named this envelope as decoded
            if held is None or (value := held.get(key[2:], _MISSING)) is _MISSING:
                raise TamperedDataError("a stored value came back without its bytes")
            return True, self.decoded.use(key, value)
        hit, value = self.decoded.get(key)
        if hit:
            return True, value
        kind, data = self._open_typed(blob, self._blob_aad(tk, ns, channel, version))
        if kind == _EMPTY:
            return False, None
        value = self.serde.loads_typed((kind, data))
        self.decoded.keep(key, len(blob), value)
        return True, value

    def _write_aad(self, tk: bytes, ns: str, cid: str, task_id: str, idx: int, channel: str) -> bytes:
        return aad("write", tk, ns, cid, task_id, idx, channel)

    def _payload_aad(self, tk: bytes, ns: str, cid: str) -> bytes:
        return aad("checkpoint", tk, ns, cid)

    @staticmethod
    def _header(checkpoint: Checkpoint, metadata: Mapping[str, Any], parent: str | None) -> dict[str, Any]:
        return {
            "v": checkpoint["v"],
            "id": checkpoint["id"],
            "ts": checkpoint["ts"],
            "channel_versions": checkpoint["channel_versions"],
            "versions_seen": checkpoint["versions_seen"],
            "updated_channels": checkpoint.get("updated_channels"),
            "parent": parent,
            "metadata": metadata,
        }

    def _seal_header(self, tk: bytes, ns: str, header: Mapping[str, Any], branch: int) -> bytes:
        """The sealed header names its branch: a row moved onto another
        branch by editing the ``branch`` column fails to read."""
        typed = self.serde.dumps_typed({**header, "branch": branch})
        return self._seal_typed(typed, self._payload_aad(tk, ns, header["id"]))

    def _open_payload(self, tk: bytes, ns: str, cid: str, payload: bytes) -> dict[str, Any]:
        return self.serde.loads_typed(self._open_typed(payload, self._payload_aad(tk, ns, cid)))

    def _seal_thread_id(self, tk: bytes, thread_id: str) -> bytes:
        return self.keyring.encrypt(thread_id.encode("utf-8"), aad("thread", tk))

    def _open_thread_id(self, tk: bytes, ct: bytes) -> str:
        return self.keyring.decrypt(ct, aad("thread", tk)).decode("utf-8")

    # -- sessions ----------------------------------------------------------

    def _remember(self, tk: bytes, state: SessionState, since: int | None = None) -> None:
        """Keep a thread's state, most recent last. ``since`` (the change
        count, :attr:`_seq`, when the read or write that returned ``state``
        began) marks an answer: one older than a change this process made to
        the thread meanwhile is merged (:func:`newer_state`), or dropped if
        the thread was forgotten; a row read with no change in between is
        the truth (another process may have deleted and recreated the
        thread). Without ``since`` the state is a change made here. Past the byte budget the
        least recent leave; a thread that left is read again from PostgreSQL
        when next needed. A session whose fork is pending leaves last: the
        gate asks this cache whether to lower every channel (on a miss it
        reads the session first, so a pending fork is delayed by one read,
        never lost). Pending sessions may hold the budget once more, no more:
        threads degraded and then abandoned cannot grow the cache."""
        with self._sessions_lock:
            if since is not None and self._changed.get(tk, 0) > since:
                # an answer read before a change made here: it may only add restrictions, and
                # it brings back nothing this process deleted, forgot or terminated meanwhile
                held = self._sessions.get(tk)
                if held is None:
                    return
                state = newer_state(held, state)
            elif since is None:
                self._changed_now([tk])  # a change made here (degrade, taint, a new session)
            old = self._sessions.pop(tk, None)
            if old is not None:
                self._sessions_bytes -= _session_bytes(tk, old)
            self._sessions[tk] = state
            self._sessions_bytes += _session_bytes(tk, state)
            self._leavable.pop(tk, None)
            if not state.fork_pending:
                self._leavable[tk] = None
            while self._sessions_bytes > self.session_cache_bytes:
                # the least recent session that may leave, in O(1): pending ones are not in
                # _leavable (a scan past them made each put as slow as their number)
                victim = next((k for k in self._leavable if k != tk), None)
                if victim is None:
                    if self._sessions_bytes <= 2 * self.session_cache_bytes:
                        break
                    victim = next((k for k in self._sessions if k != tk), None)
                    if victim is None:
                        break
                self._leavable.pop(victim, None)
                if (gone := self._sessions.pop(victim, None)) is not None:
                    self._sessions_bytes -= _session_bytes(victim, gone)

    def _changed_now(self, tks: Iterable[bytes]) -> None:
        """Note that this process changed these threads' sessions (lock held):
        an answer read before now is older than what this process knows."""
        self._seq += 1
        for tk in tks:
            self._changed.pop(tk, None)
            self._changed[tk] = self._seq
        while len(self._changed) > CHANGES_KEPT:  # changes older than any call still in flight
            self._changed.popitem(last=False)

    def _forget_session(self, tks: Iterable[bytes]) -> None:
        tks = list(tks)
        with self._sessions_lock:
            self._changed_now(tks)
            for tk in tks:
                if (old := self._sessions.pop(tk, None)) is not None:
                    self._sessions_bytes -= _session_bytes(tk, old)
                self._leavable.pop(tk, None)
                self._acl_seen.pop(tk, None)
                for key in [k for k in self._vouched if k[0] == tk]:
                    self._vouched.pop(key, None)

    # -- access state: authenticated columns --------------------------------

    def _acl_mac(self, tk: bytes, s: SessionState) -> bytes:
        return self.keyring.mac(
            aad(
                "thread-acl",
                tk,
                s.owner or b"",
                s.branch,
                s.branch_level,
                s.level,
                s.status,
                int(s.fork_pending),
                int(s.tainted),
            )
        )

    def _verified(self, tk: bytes, row: Sequence[Any]) -> SessionState:
        """A thread's access state from ``sql.ACL_COLUMNS``, refusing columns
        edited without the key. Columns and MAC byte for byte equal to ones
        authenticated before are not authenticated again (every put reads
        them back)."""
        state = SessionState.from_row(row)
        mac = row[7]
        if mac is None:
            raise TamperedDataError("a thread's access columns failed authentication")
        mac = bytes(mac)
        if self._acl_seen.get(tk) == (state, mac):
            return state
        if not hmac.compare_digest(mac, self._acl_mac(tk, state)):
            raise TamperedDataError("a thread's access columns failed authentication")
        _memo(self._acl_seen, tk, (state, mac))
        return state

    def _start_mac(self, tk: bytes, level: int, owner: bytes | None) -> bytes:
        """The MAC of a new thread's access columns (each put sends it, for the
        put that creates the thread)."""
        key = (tk, level, owner)
        mac = self._start_macs.get(key)
        if mac is None:
            mac = self._acl_mac(tk, SessionState(level, owner=owner))
            _memo(self._start_macs, key, mac)
        return mac

    def _acl_params(self, tk: bytes, s: SessionState, **extra: Any) -> dict[str, Any]:
        return {
            "tk": tk,
            "owner": s.owner,
            "head_branch": s.branch,
            "head_level": s.branch_level,
            "level": s.level,
            "status": s.status,
            "fork_pending": s.fork_pending,
            "tainted": s.tainted,
            "mac": self._acl_mac(tk, s),
            **extra,
        }

    def _branch_mac(self, tk: bytes, branch: int, level: int, sealed: bool) -> bytes:
        return self.keyring.mac(aad("branch-acl", tk, branch, level, int(sealed)))

    def _check_branch_row(self, tk: bytes, branch: int, level: int, sealed: bool, mac: Any) -> None:
        if mac is None or not hmac.compare_digest(bytes(mac), self._branch_mac(tk, branch, level, sealed)):
            raise TamperedDataError("a branch's access columns failed authentication")

    def _check_owner(self, config: RunnableConfig | None, state: SessionState) -> None:
        """A thread with an owner answers only to that user."""
        if state.owner is None:
            return
        user = user_of(config)
        if user is None or not hmac.compare_digest(self.user_key(user), state.owner):
            raise ThreadOwnershipError("this thread belongs to another user")

    def vouch(self, config: RunnableConfig, ranks: Mapping[str, Vouch]) -> None:
        """Record the levels the trust gate vouches for in its graph's state
        (channels it lowered, and the app's declared levels). No I/O: this
        process's next checkpoints of that namespace rank those channels so
        (a declared level above the branch's is refused, a lowered channel
        lets a pending fork happen)."""
        conf = config.get("configurable") or {}
        tk = self.thread_key(_thread_id(config))
        task_ns = str(conf.get("checkpoint_ns") or "")
        graph_ns = task_ns.rpartition("|")[0] if "|" in task_ns else ""
        with self._sessions_lock:
            self._vouched[(tk, graph_ns)] = dict(ranks)
            if len(self._vouched) > 65536:
                self._vouched.pop(next(iter(self._vouched)))

    def _view(self, config: RunnableConfig, state: SessionState, tup: CheckpointTuple) -> CheckpointTuple:
        return read_view(self.ladder, config, state.branch_level, tup)

    def cached_level(self, config: RunnableConfig) -> str | None:
        """The session's current level as this process last saw it (no
        I/O); None when this saver has not seen the thread."""
        tid = (config.get("configurable") or {}).get("thread_id")
        state = self._sessions.get(self.thread_key(str(tid))) if tid is not None else None
        return self.ladder.name(state.level) if state is not None else None

    def cached_session(self, config: RunnableConfig) -> Session | None:
        """The session as this process last saw it (no I/O), or None."""
        tid = (config.get("configurable") or {}).get("thread_id")
        state = self._sessions.get(self.thread_key(str(tid))) if tid is not None else None
        return self._session_view(state) if state is not None else None

    def _start_level(self, config: RunnableConfig) -> int:
        lv = requested_level(config)
        return self.ladder.rank(lv) if lv is not None else 0

    def _note_run(self, config: RunnableConfig, tk: bytes, ns: str) -> None:
        """Remember whether a run loads its thread's latest state (no
        checkpoint id): such a run may only continue from that state, so two
        runs on one thread cannot both append to it (the second is refused
        with ``ConcurrentRunError``). A run from an older checkpoint (time
        travel) forks from it, as LangGraph intends."""
        runtime = (config.get("configurable") or {}).get(CONFIG_KEY_RUNTIME)
        if runtime is None or ns:
            return
        key = (id(runtime), tk)
        linear = not get_checkpoint_id(config)
        with self._sessions_lock:
            prev = self._runs.get(key)
            if prev is not None and prev[0] is runtime:
                # the same run reading again: LangGraph's time travel reads the
                # addressed checkpoint, then the latest (checkpoint_superseded);
                # a run that addressed a checkpoint stays a fork
                linear = linear and prev[1]
            self._runs[key] = (runtime, linear)
            # the runtime is held (it takes no weak reference) and may carry the
            # run's context: keep only recent runs; an evicted one is treated
            # as a fork, which only relaxes the concurrent-run check for it
            if len(self._runs) > 1024:
                self._runs.pop(next(iter(self._runs)))

    def _linear(self, config: RunnableConfig, tk: bytes, ns: str) -> bool:
        runtime = (config.get("configurable") or {}).get(CONFIG_KEY_RUNTIME)
        if ns or runtime is None:
            return False
        entry = self._runs.get((id(runtime), tk))
        return entry is not None and entry[0] is runtime and entry[1]

    def _admit(
        self, config: RunnableConfig, tk: bytes, state: SessionState, since: int | None = None
    ) -> int | None:
        """Check the owner of a thread being read or run; for a run, apply
        the session rules (returns a lower level the run asks for). A read
        never changes the thread."""
        self._remember(tk, state, since)
        state = self._sessions.get(tk, state)  # merged, if the read was older than a change here
        self._check_owner(config, state)
        return self._check_run(config, state) if is_run(config) else None

    def _listed(
        self,
        config: RunnableConfig | None,
        row: Sequence[Any],
        seen: dict[bytes, tuple[str, SessionState] | None],
        branch: int | None,
    ) -> tuple[bytes, str, SessionState] | None:
        """The thread of a listed row, verified once per thread; a listing
        of one thread checks its owner (a branch listing was checked by level)."""
        tk = bytes(row[17])
        if tk not in seen:
            try:
                state = self._verified(tk, row[8:16])
            except TamperedDataError:
                if ((config or {}).get("configurable") or {}).get("thread_id") is not None:
                    raise
                _skipped("a thread's access columns failed authentication; left out of the listing")
                seen[tk] = None
                return None
            if branch is None and ((config or {}).get("configurable") or {}).get("thread_id") is not None:
                self._check_owner(config, state)
            try:
                seen[tk] = (self._open_thread_id(tk, row[16]), state)
            except TamperedDataError:
                _skipped("a thread's sealed id failed authentication; left out of the listing")
                seen[tk] = None
                return None
        known = seen[tk]
        if known is None:
            return None
        thread_id, state = known
        return tk, thread_id, state

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
            tainted=state.tainted,
        )

    def _wants_fork(self, params: Mapping[str, Any]) -> bool:
        """A pending degrade turns into a fork at the first root-graph
        checkpoint every channel of which is known to hold nothing above the
        session's new level (the trust gate's cleaned state). The
        transaction checks again."""
        state = self._sessions.get(params["tk"])
        if state is None or not state.fork_pending or params["ns"] != "":
            return False
        return params["rank"] <= state.level and not params["unknown"]

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
        ns = checkpoint_ns(config)
        values = checkpoint["channel_values"]
        blobs: dict[tuple[str, str], bytes] = {}
        for channel, version in new_versions.items():
            version = str(version)
            envelope = self._seal_blob(tk, ns, channel, version, values.get(channel), channel in values)
            blobs[(channel, version)] = envelope
        # as the stock savers: the run's configurable fields too (sealed like the rest)
        meta = dict(get_serializable_checkpoint_metadata(config, metadata))
        run_id = self.run_id_of(config, meta)  # indexes the run (run_key); not added to the metadata
        parent = conf.get("checkpoint_id")
        user_id = user_of(config)
        uk = self.user_key(user_id) if user_id is not None else None
        known = self._sessions.get(tk)
        rank, unknown = state_rank(values, self.ladder, self._vouched.get((tk, ns)))
        level = self._start_level(config)
        header = self._header(checkpoint, meta, parent)
        branch = known.branch if known is not None else 0
        params = {
            "tk": tk,
            "tct": self._seal_thread_id(tk, thread_id),
            "uk": uk,
            "level": level,
            "mac": self._start_mac(tk, level, uk),
            "rank": rank,
            "unknown": unknown,
            "ns": ns,
            "cid": checkpoint["id"],
            "parent": parent,
            "linear": self._linear(config, tk, ns),
            "branch": branch,
            "header": header,
            "rk": self.keyring.hash_id("run", str(run_id)) if run_id is not None else None,
            "source": meta.get("source") if isinstance(meta.get("source"), str) else None,
            "step": meta.get("step") if isinstance(meta.get("step"), int) else None,
            "versions": Jsonb({k: str(v) for k, v in checkpoint["channel_versions"].items()}),
            "payload": self._seal_header(tk, ns, header, branch),
            "channels": TextArray(c for c, _ in blobs),
            "bversions": TextArray(v for _, v in blobs),
            "blobs": BytesArray(blobs.values()),
        }
        return params, blobs

    def _rebranch(self, params: dict[str, Any], branch: int, parent: str | None) -> None:
        """Seal a put's header again for another branch (a fork's root, or a
        head that moved meanwhile)."""
        params["branch"] = branch
        params["parent"] = parent
        params["linear"] = False  # a fork's root continues nothing on its branch
        params["header"] = {**params["header"], "parent": parent}
        params["payload"] = self._seal_header(params["tk"], params["ns"], params["header"], branch)

    def _after_put(
        self, config: RunnableConfig, params: dict[str, Any], row: Sequence[Any]
    ) -> RunnableConfig:
        tk = params["tk"]
        state = self._verified(tk, row)
        inserted, parent_sealed = row[8], row[9]
        if not inserted:
            self._forget_session([tk])
            if state.status != ACTIVE:
                raise SessionTerminated("this session was terminated and refuses further runs")
            self._check_owner(config, state)
            if parent_sealed:
                raise StaleBranch("this run continues from a sealed branch; the session forked meanwhile")
            if state.branch != params["branch"]:
                self._remember(tk, state, params.get("since"))
                raise BranchMoved()
            if params["rank"] <= state.branch_level and row[10] and params["linear"]:
                raise ConcurrentRunError(
                    "another run advanced this thread while this one ran; run it again on the latest state"
                )
            raise ContentAboveLevel(
                "this checkpoint holds content above its branch's level; a trust gate must "
                "clean the graph's state before it is saved"
            )
        self._remember(tk, state, params.get("since"))
        return {
            "configurable": {
                "thread_id": _thread_id(config),
                "checkpoint_ns": params["ns"],
                "checkpoint_id": params["cid"],
            }
        }

    def _hot_put_args(
        self, params: dict[str, Any], blobs: Mapping[tuple[str, str], bytes], checkpoint: Checkpoint
    ) -> tuple[bytes, str, HotEntry, list[tuple[str, str]], float, str | None] | None:
        """The hot tier's ``put`` arguments after a saved checkpoint, for both twins."""
        # the state as remembered: the row may be older than a degrade this process made
        # meanwhile; a thread forgotten meanwhile (deleted, terminated) gets no hot entry
        state = self._sessions.get(params["tk"])
        if state is None:
            return None
        entry = self._hot_entry(state, params["cid"], params["parent"], params["payload"], dict(blobs), {})
        versions = [(c, str(v)) for c, v in checkpoint["channel_versions"].items()]
        return (params["tk"], params["ns"], entry, versions, self.hot_ttl, params["parent"])

    @staticmethod
    def _hot_entry(
        state: SessionState,
        cid: str,
        parent: str | None,
        payload: bytes,
        blobs: dict[tuple[str, str], bytes],
        writes: dict[tuple[str, int, str, str], bytes],
    ) -> HotEntry:
        return HotEntry(
            checkpoint_id=cid,
            parent_id=parent,
            payload=payload,
            branch=state.branch,
            level=state.level,
            status=state.status,
            fork_pending=state.fork_pending,
            blobs=blobs,
            writes=writes,
            owner=state.owner,
            head_level=state.head_level,
            tainted=state.tainted,
        )

    @staticmethod
    def _state_of(entry: HotEntry) -> SessionState:
        return SessionState(
            entry.level,
            entry.status,
            entry.fork_pending,
            entry.branch,
            entry.tainted,
            entry.owner,
            entry.head_level,
        )

    def _locked_ops(self, config: RunnableConfig, tk: bytes, first: SessionState | None) -> Statements:
        """Lock the thread's row and return ``(state, created)``: its verified
        state, owner checked, or, when the thread has no row yet and
        ``first`` is given, the thread created in ``first`` (a state change
        that comes before its first checkpoint is stored). ``(None, False)``
        when there is no thread and nothing to create."""
        rows = yield sql.THREAD_LOCK_SQL, (tk,), True
        if not rows and first is not None:
            params = self._acl_params(tk, first, tct=self._seal_thread_id(tk, _thread_id(config)))
            if (yield sql.THREAD_INSERT_SQL, params, True):
                branch = {
                    "tk": tk,
                    "branch": 0,
                    "level": first.branch_level,
                    "mac": self._branch_mac(tk, 0, first.branch_level, False),
                }
                yield sql.BRANCH_RECORD_SQL, branch, False
                return first, True
            rows = yield sql.THREAD_LOCK_SQL, (tk,), True  # created meanwhile
        if not rows:
            return None, False
        state = self._verified(tk, rows[0])
        self._check_owner(config, state)
        return state, False

    def _degrade_ops(self, config: RunnableConfig, rank: int) -> Statements:
        """Lower the session and mark the fork as pending (creating the thread
        already lowered if its first checkpoint is not stored yet). Returns
        the new state, or None when nothing was lowered."""
        tk = self.thread_key(_thread_id(config))
        old = self._start_level(config)
        first = SessionState(rank, ACTIVE, True, 0, True, self._owner_of(config), old) if old > rank else None
        state, created = yield from self._locked_ops(config, tk, first)
        if created:
            return state
        if state is None or state.status != ACTIVE or state.level <= rank:
            return None
        yield (
            sql.BRANCH_RECORD_SQL,
            {
                "tk": tk,
                "branch": state.branch,
                "level": state.branch_level,
                "mac": self._branch_mac(tk, state.branch, state.branch_level, False),
            },
            False,
        )
        new = replace(state, level=rank, fork_pending=True, tainted=True, head_level=state.branch_level)
        yield sql.ACL_UPDATE_SQL, self._acl_params(tk, new), False
        return new

    def _taint_ops(self, config: RunnableConfig) -> Statements:
        """Record that content from outside entered the session (memories it
        writes then carry that integrity). Returns the new state."""
        tk = self.thread_key(_thread_id(config))
        start = self._start_level(config)
        first = SessionState(start, ACTIVE, False, 0, True, self._owner_of(config), start)
        state, created = yield from self._locked_ops(config, tk, first)
        if created or state.tainted:
            return state
        new = replace(state, tainted=True)
        yield sql.ACL_UPDATE_SQL, self._acl_params(tk, new), False
        return new

    def _owner_of(self, config: RunnableConfig) -> bytes | None:
        user_id = user_of(config)
        return self.user_key(user_id) if user_id is not None else None

    def _fork_ops(self, params: dict[str, Any]) -> Statements:
        """The fork, as one transaction: seal the head branch, open a new one
        at the session's (lowered) level, store this checkpoint as its root."""
        tk = params["tk"]
        rows = yield sql.THREAD_LOCK_SQL, (tk,), True
        if not rows:
            return None
        state = self._verified(tk, rows[0])
        if (
            state.status != ACTIVE
            or not state.fork_pending
            or params["rank"] > state.level
            or params["unknown"]
        ):
            return None  # forked or ended meanwhile, or not clean enough: a normal put
        top = (yield sql.FORK_TOP_SQL, (tk,), True)[0][0]
        old = yield sql.BRANCH_LEVEL_SQL, (tk, state.branch), True
        old_level = state.branch_level
        if old:
            self._check_branch_row(tk, state.branch, old[0][0], old[0][1], old[0][2])
            old_level = old[0][0]
        new_branch = max(top, state.branch) + 1
        yield (
            sql.FORK_SEAL_SQL,
            {
                "tk": tk,
                "branch": state.branch,
                "level": old_level,
                "mac": self._branch_mac(tk, state.branch, old_level, True),
            },
            False,
        )
        yield (
            sql.FORK_OPEN_SQL,
            {
                "tk": tk,
                "branch": new_branch,
                "level": state.level,
                "parent_branch": state.branch,
                "forked_from": params["parent"],
                "mac": self._branch_mac(tk, new_branch, state.level, False),
            },
            False,
        )
        moved = replace(state, branch=new_branch, head_level=state.level, fork_pending=False)
        yield sql.ACL_UPDATE_SQL, self._acl_params(tk, moved), False
        self._rebranch(params, new_branch, None)
        rows = yield sql.PUT_SQL, params, True
        return rows[0]

    # -- put_writes --------------------------------------------------------

    def _writes_params(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str, task_path: str
    ) -> tuple[str, dict[str, Any], dict[tuple[str, int, str, str], bytes]]:
        conf = config["configurable"]
        tk = self.thread_key(_thread_id(config))
        ns = checkpoint_ns(config)
        cid = conf["checkpoint_id"]
        upsert = all(w[0] in WRITES_IDX_MAP for w in writes)
        idxs, channels, blobs = IntArray(), TextArray(), BytesArray()
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
            "uk": self._owner_of(config),
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

    def _get_params(self, config: RunnableConfig, tk: bytes) -> tuple[str, dict[str, Any], Held]:
        """The read of one checkpoint, and the decoded values it may use
        instead of bytes: with no hot tier to fill from the row, envelopes
        whose values the decoded cache holds come back as their header."""
        ns = checkpoint_ns(config)
        cid = get_checkpoint_id(config)
        query = sql.GET_BY_ID_SQL if cid else sql.GET_LATEST_SQL
        held = self.decoded.held(tk, ns) if isinstance(self.hot, NullHotTier) else {}
        return query, {"tk": tk, "ns": ns, "cid": cid, "known": BytesArray(n for _, _, n in held)}, held

    def _listed_tuple(self, tk: bytes, thread_id: str, row: Sequence[Any]) -> CheckpointTuple | None:
        """A listed checkpoint, or None (reported) when it fails
        authentication: one bad row never hides the rest of a history."""
        try:
            return self._row_to_tuple(tk, thread_id, row)
        except TamperedDataError:
            _skipped("a checkpoint failed authentication; left out of the listing")
            return None

    def _row_to_tuple(
        self, tk: bytes, thread_id: str | None, row: Sequence[Any], held: Held | None = None
    ) -> CheckpointTuple:
        ns, cid, _parent, branch, versions, payload, blob_rows, write_rows = row[:8]
        thread_ct = row[16]
        if thread_id is None:
            thread_id = self._open_thread_id(tk, thread_ct)
        blobs = {
            (bytes(ch).decode(), bytes(ver).decode()): bytes(blob)
            for ch, ver, blob in (blob_rows or ())
            if blob is not None
        }
        sends = _write_map(row[18] if len(row) > 18 else None)
        return self._assemble(
            tk, thread_id, ns, cid, payload, blobs, _write_map(write_rows), versions, branch, sends, held
        )

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
        branch: int | None = None,
        parent_sends: Mapping[tuple[str, int, str, str], bytes] | None = None,
        held: Held | None = None,
    ) -> CheckpointTuple:
        header = self._open_payload(tk, ns, cid, payload)
        if branch is not None and header.get("branch", branch) != branch:
            raise TamperedDataError("a checkpoint was moved to another branch")
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
            present, value = self._open_blob(tk, ns, channel, str(version), blob, held)
            if present:
                values[channel] = value
        pending = self._open_writes(tk, ns, cid, writes)
        channel_versions = header["channel_versions"]
        if header["v"] < 4 and parent and parent_sends:
            # format < 4 kept Send packets in the parent's writes: move them
            # into this checkpoint's tasks channel, as the stock savers do
            values[TASKS] = [value for _, _, value in self._open_writes(tk, ns, parent, parent_sends)]
            channel_versions = {
                **channel_versions,
                TASKS: max(channel_versions.values()) if channel_versions else self.get_next_version(None, None),
            }
        checkpoint: Checkpoint = {
            "v": header["v"],
            "id": header["id"],
            "ts": header["ts"],
            "channel_values": values,
            "channel_versions": channel_versions,
            "versions_seen": header["versions_seen"],
            "updated_channels": header.get("updated_channels"),
        }
        config: RunnableConfig = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": cid}}
        parent_config: RunnableConfig | None = (
            {"configurable": {"thread_id": thread_id, "checkpoint_ns": ns, "checkpoint_id": parent}}
            if parent
            else None
        )
        return CheckpointTuple(config, checkpoint, header["metadata"], parent_config, pending)

    def _delta_ops(
        self, tk: bytes, ns: str, start: str | None, branch: int, channels: Sequence[str]
    ) -> Statements:
        """The plan behind ``get_delta_channel_history``: walk the ancestors
        from ``start`` (the target's parent) a page per round trip, keep each
        channel's writes until its nearest stored value (the seed), and
        answer in the base class's shape: writes oldest first, ``seed`` only
        where one was stored."""
        collected: dict[str, list[Any]] = {ch: [] for ch in channels}
        empty_len = len(self._seal_typed((_EMPTY, None), b""))  # a sealed "no value" blob's length
        seeds: dict[str, Any] = {}
        remaining = set(channels)
        held = self.decoded.held(tk, ns)
        known = BytesArray(n for _, _, n in held)
        while start is not None and remaining:
            wanted = sorted(remaining)
            params = {"tk": tk, "ns": ns, "start": start, "branch": branch, "page": sql.DELTA_PAGE,
                      "channels": wanted, "empty_len": empty_len, "known": known,
                      **{f"ch{n}": ch for n, ch in enumerate(wanted)}}
            rows = yield sql.delta_chain_sql(len(wanted)), params, True
            if not rows:
                break  # the previous page ended at its branch's root
            page = rows[: sql.DELTA_PAGE]
            for cid, _parent, write_rows, blob_rows in page:
                if not remaining:
                    break
                for write in reversed(self._open_writes(tk, ns, cid, _write_map(write_rows))):
                    if write[1] in remaining:
                        collected[write[1]].append(write)
                for ch, version, blob in blob_rows or ():
                    channel = bytes(ch).decode()
                    if channel in remaining:
                        present, value = self._open_blob(tk, ns, channel, bytes(version).decode(), bytes(blob), held)
                        if present:
                            seeds[channel] = value
                            remaining.discard(channel)
            # a full page: on from its first unread row; a walk that stopped early (at a
            # root, or at blobs that turned out to hold no value): on from the last one's parent
            start = rows[sql.DELTA_PAGE][0] if len(rows) > sql.DELTA_PAGE else page[-1][1]
        out: dict[str, Any] = {}
        for ch in channels:
            entry: dict[str, Any] = {"writes": list(reversed(collected[ch]))}
            if ch in seeds:
                entry["seed"] = seeds[ch]
            out[ch] = entry
        return out

    def _open_writes(
        self, tk: bytes, ns: str, cid: str, writes: Mapping[tuple[str, int, str, str], bytes]
    ) -> list[tuple[str, str, Any]]:
        """A checkpoint's pending writes, opened, in ``writes_sort_key`` order."""
        out = []
        for (task_id, idx, channel, _task_path), blob in sorted(
            writes.items(), key=lambda kv: (kv[0][3], kv[0][0], kv[0][1])
        ):
            typed = self._open_typed(blob, self._write_aad(tk, ns, cid, task_id, idx, channel))
            out.append((task_id, channel, self.serde.loads_typed(typed)))
        return out

    def _tuple_from_hot(self, tk: bytes, thread_id: str, ns: str, entry: HotEntry) -> CheckpointTuple | None:
        try:
            tup = self._assemble(
                tk,
                thread_id,
                ns,
                entry.checkpoint_id,
                entry.payload,
                entry.blobs,
                entry.writes,
                None,
                entry.branch,
            )
        except (TamperedDataError, ValueError, KeyError):
            log.warning("a hot-tier entry failed to open; reading PostgreSQL instead")
            return None
        if tup.checkpoint["v"] < 4 and tup.parent_config is not None:
            return None  # an older format's sends live in the parent's writes: PostgreSQL has them
        header_versions = tup.checkpoint["channel_versions"]
        # An entry written by a process that never saw some unchanged
        # channel's blob is incomplete: fall back to PostgreSQL.
        for channel, version in header_versions.items():
            if (channel, str(version)) not in entry.blobs:
                return None
        return tup

    def _hot_entry_from_row(self, state: SessionState, row: Sequence[Any]) -> HotEntry:
        _ns, cid, parent, _branch, _versions, payload, blob_rows, write_rows = row[:8]
        return self._hot_entry(
            state,
            cid,
            parent,
            bytes(payload),
            {
                (bytes(c).decode(), bytes(v).decode()): bytes(b)
                for c, v, b in (blob_rows or ())
                if b is not None
            },
            {
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
        conf = (config or {}).get("configurable") or {}
        if conf.get("thread_id") is None and branch is None:
            # across threads: the caller's own and unowned ones only
            where.append("(t.user_key IS NULL OR t.user_key = %(uk)s)")
            params["uk"] = self._owner_of(config or {})
        if config:
            if conf.get("thread_id") is not None:
                where.append("t.thread_key = %(tk)s")
                params["tk"] = self.thread_key(_thread_id(config))
            if conf.get("checkpoint_ns") is not None:
                where.append("c.checkpoint_ns = %(ns)s")
                params["ns"] = checkpoint_ns(config)
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

    def _sweep_ops(self, batch: int) -> Statements:
        """Delete up to ``batch`` threads past their retention, in one
        transaction; returns their keys."""
        r = self.retention
        rows = yield sql.SWEEP_THREADS_SQL, {"idle": r.idle, "age": r.max_age, "limit": batch}, True
        tks = [bytes(x[0]) for x in rows]
        if tks:
            for statement in sql.DELETE_THREAD_ROWS_SQL:
                yield statement, (tks,), False
        return tks

    def _delete_ops(self, tks: list[bytes]) -> Statements:
        for statement in sql.DELETE_THREAD_SQL:
            yield statement, (tks,), False

    def _terminate_ops(self, tk: bytes, run_key: bytes | None) -> Statements:
        rows = yield sql.THREAD_LOCK_SQL, (tk,), True
        if not rows:
            return False
        state = self._verified(tk, rows[0])
        yield sql.ACL_UPDATE_SQL, self._acl_params(tk, replace(state, status=TERMINATED)), False
        branch = state.branch
        # The run's first checkpoint by its run id. None found: the run has stored nothing
        # yet (LangGraph saves checkpoints in the background while the run goes on) and
        # nothing it stores from now on is accepted; the last input checkpoint would be an
        # earlier run's. Only a run without an id falls back to that input checkpoint.
        if run_key is not None:
            start = yield sql.TERMINATE_RUN_START_SQL, (tk, branch, run_key), True
        else:
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
            yield sql.FORGET_ROOT_HEAD_SQL, (tks,), False
        return tks

    def _copy_ops(self, src: bytes, dst: bytes, dst_thread_id: str) -> Statements:
        """Copy every branch of a thread, re-sealing each value for its new
        place (the associated data names the thread)."""
        rows = yield sql.COPY_SELECT_SQL["thread"], (src,), True
        if not rows:
            return False
        if (yield sql.COPY_TARGET_EXISTS_SQL, (dst,), True):
            raise ThreadExists("copy_thread copies onto a new thread only")
        state = self._verified(src, rows[0])
        yield (
            sql.THREAD_INSERT_SQL,
            self._acl_params(dst, state, tct=self._seal_thread_id(dst, dst_thread_id)),
            True,
        )
        for branch, level, parent_branch, forked_from, sealed_at, mac in (
            yield sql.COPY_SELECT_SQL["branches"], (src,), True
        ):
            sealed = sealed_at is not None
            self._check_branch_row(src, branch, level, sealed, mac)
            row = (
                dst,
                branch,
                level,
                parent_branch,
                forked_from,
                sealed_at,
                self._branch_mac(dst, branch, level, sealed),
            )
            yield sql.COPY_INSERT_SQL["branches"], row, False
        for ns, cid, branch, parent, rk, source, step, versions, payload in (
            yield sql.COPY_SELECT_SQL["checkpoints"], (src,), True
        ):
            typed = self._open_typed(payload, self._payload_aad(src, ns, cid))
            resealed = self._seal_typed(typed, self._payload_aad(dst, ns, cid))
            yield (
                sql.COPY_INSERT_SQL["checkpoints"],
                (dst, ns, cid, branch, parent, rk, source, step, Jsonb(versions), resealed),
                False,
            )
        for ns, channel, version, blob in (yield sql.COPY_SELECT_SQL["blobs"], (src,), True):
            typed = self._open_typed(blob, self._blob_aad(src, ns, channel, version))
            resealed = self._seal_typed(typed, self._blob_aad(dst, ns, channel, version))
            yield sql.COPY_INSERT_SQL["blobs"], (dst, ns, channel, version, resealed), False
        for ns, cid, task_id, task_path, idx, channel, blob in (
            yield sql.COPY_SELECT_SQL["writes"], (src,), True
        ):
            typed = self._open_typed(blob, self._write_aad(src, ns, cid, task_id, idx, channel))
            resealed = self._seal_typed(typed, self._write_aad(dst, ns, cid, task_id, idx, channel))
            yield (
                sql.COPY_INSERT_SQL["writes"],
                (dst, ns, cid, task_id, task_path, idx, channel, resealed),
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

    def _branches_from_rows(self, tk: bytes, rows: list[tuple]) -> list[Branch]:
        if not rows:
            return []
        state = self._verified(tk, rows[0])
        head, level = state.branch, state.branch_level
        out = []
        for row in rows:
            branch, blevel, parent, forked_from, sealed_at, _created, mac = row[8:]
            if branch is None:
                continue
            self._check_branch_row(tk, branch, blevel, sealed_at is not None, mac)
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
