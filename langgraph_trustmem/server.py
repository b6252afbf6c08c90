"""LangGraph Agent Server factories: the trust checkpointer, the labelled
store, and an encryption hook for the records the server keeps itself.

The server keeps threads (their values, metadata and config), runs (their
input and config), assistants and crons beside the checkpointer; without a
hook those records hold the conversation in plaintext whatever the
checkpointer does. So all three belong in ``langgraph.json``::

    "checkpointer": {"path": "langgraph_trustmem.server:checkpointer"},
    "store": {"path": "langgraph_trustmem.server:store"},
    "encryption": {"path": "langgraph_trustmem.server:encryption"},
    "http": {"app": "langgraph_trustmem.server:app"}

(``http.app`` is optional: it adds ``POST /trustmem/forget``.) Settings come
from the ``TRUSTMEM_*`` variables; with none set, the embedded default runs
in the server process (one PostgreSQL for both factories) and stops with it.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import functools
import logging
import os
import pickle
import sys
import warnings
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import orjson
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple
from langgraph.store.base import Op, Result
from langgraph_sdk import Encryption, EncryptionContext, get_client
from langgraph_sdk.auth.exceptions import HTTPException as AuthHTTPException
from langgraph_sdk.encryption.types import DecryptResult
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from langgraph_trustmem.checkpoint.aio import AsyncTrustCheckpointSaver
from langgraph_trustmem.checkpoint.base import is_run
from langgraph_trustmem.config import Settings
from langgraph_trustmem.crypto import KeyRing, aad
from langgraph_trustmem.errors import (
    ConfigurationError,
    TamperedDataError,
    ThreadOwnershipError,
    TrustViolation,
)
from langgraph_trustmem.runtime import TrustMem, _embedded_key, aopen
from langgraph_trustmem.store import AsyncTrustStore
from langgraph_trustmem.trust import AUTH_USER_KEY, requested_level

log = logging.getLogger(__name__)

SEALED_PREFIX = "tm-sealed:v1:"
"""How a value the hook sealed starts (base64 of an AES-GCM envelope follows)."""

TAG_PREFIX = "tm-tag:"
"""How an :func:`owner_tag` starts; the hook keeps such values as they are."""

PLAINTEXT_KEYS = frozenset(
    {
        # ids the server generates, and fields it filters or routes on
        "assistant_id",
        "checkpoint_id",
        "checkpoint_ns",
        "created_by",
        "graph_id",
        "run_id",
        "thread_id",
        # checkpoint bookkeeping
        "parents",
        "run_attempt",
        "source",
        "step",
        # how a run executes (no content)
        "checkpoint_during",
        "durability",
        "feedback_keys",
        "interrupt_after",
        "interrupt_before",
        "max_concurrency",
        "multitask_strategy",
        "recursion_limit",
        "resumable",
        "stream_mode",
        "stream_subgraphs",
        "subgraphs",
        "temporary",
    }
)
"""Keys whose values the hook leaves readable, in any record: ids the server
generates, fields it filters or routes on, and run controls. So are
:func:`owner_tag` values, and what the server never hands to a hook
(``langgraph_auth_user_id``, ``langgraph_auth_permissions``, its version and
host). Every other value is sealed, ``langgraph_auth_user`` included."""


# -- keys ----------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _keyring() -> KeyRing:
    """The deployment's key ring: ``TRUSTMEM_KEY``, or the embedded default's
    key file, the same ring the checkpointer and the store use."""
    settings = Settings.resolve()
    return settings.key if settings.key is not None else _embedded_key(settings.home)


def owner_tag(identity: str) -> str:
    """A keyed pseudonym of a user for the metadata an auth handler filters
    on (``{"owner": owner_tag(ctx.user.identity)}``). The hook seals other
    values under fresh nonces, so a filter could never match them; a tag is
    deterministic, names nobody without the key, and is kept as it is."""
    return TAG_PREFIX + _keyring().hash_hex("server-owner", identity)


# -- the encryption hook -------------------------------------------------


def _plain(key: str, value: Any) -> bool:
    return (
        value is None
        or key in PLAINTEXT_KEYS
        or (isinstance(value, str) and value.startswith((TAG_PREFIX, SEALED_PREFIX)))
    )


def _seal_value(ring: KeyRing, key: str, value: Any) -> Any:
    if _plain(key, value):
        return value
    raw = orjson.dumps(value, default=str, option=orjson.OPT_NON_STR_KEYS)
    return SEALED_PREFIX + base64.b64encode(ring.encrypt(raw, aad("langgraph-server", key))).decode()


def _open_value(ring: KeyRing, key: str, value: Any) -> tuple[Any, bool]:
    """A sealed value's plaintext (others pass through), and whether it was
    sealed under a key other than the active one."""
    if not (isinstance(value, str) and value.startswith(SEALED_PREFIX)):
        return value, False
    try:
        envelope = base64.b64decode(value[len(SEALED_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        raise TamperedDataError("a server record holds a damaged sealed value") from None
    plaintext = orjson.loads(ring.decrypt(envelope, aad("langgraph-server", key)))
    return plaintext, ring.needs_rotation(envelope)


def _new_encryption() -> Encryption:
    with warnings.catch_warnings():  # the SDK marks the API beta; this module pins what it uses
        warnings.simplefilter("ignore")
        return Encryption()


encryption = _new_encryption()
"""The hook for the server's own records (``"encryption": {"path":
"langgraph_trustmem.server:encryption"}``). Each value is sealed on its own
(AES-GCM, bound to its key), so the server's key-by-key merges keep working;
:data:`PLAINTEXT_KEYS` says what stays readable. Store items pass through:
the trust store seals them itself, after its guard and its index."""


@encryption.encrypt.json
async def _encrypt_json(ctx: EncryptionContext, data: dict[str, Any]) -> dict[str, Any]:
    if ctx.model == "store":
        return dict(data)
    ring = _keyring()
    return {k: _seal_value(ring, k, v) for k, v in data.items()}


@encryption.decrypt.json
async def _decrypt_json(ctx: EncryptionContext, data: dict[str, Any]) -> DecryptResult[dict[str, Any]]:
    ring = _keyring()
    plain: dict[str, Any] = {}
    stale = False
    for k, v in data.items():
        plain[k], old = _open_value(ring, k, v)
        stale = stale or old
    # sealed under a retired key: the server writes the re-sealed record back
    replacement = {k: _seal_value(ring, k, v) for k, v in plain.items()} if stale else None
    return DecryptResult(plain, replacement)


@encryption.encrypt.blob
async def _encrypt_blob(ctx: EncryptionContext, blob: bytes) -> bytes:
    return _keyring().encrypt(blob, aad("langgraph-server-blob"))


@encryption.decrypt.blob
async def _decrypt_blob(ctx: EncryptionContext, blob: bytes) -> bytes:
    return _keyring().decrypt(blob, aad("langgraph-server-blob"))


# -- the in-memory runtime's files ----------------------------------------


def _runtime_edition() -> str | None:
    """The Agent Server runtime this process runs, if it runs one."""
    return getattr(sys.modules.get("langgraph_runtime"), "RUNTIME_EDITION", None)


class _SealedRecords:
    """What ``langgraph dev`` pickles in place of its records: an AES-GCM
    envelope that unpickles to them, so the runtime's own loader opens it."""

    def __init__(self, name: str, envelope: bytes) -> None:
        self.name = name
        self.envelope = envelope

    def __reduce__(self) -> tuple[Any, tuple[str, bytes]]:
        return _unseal_records, (self.name, self.envelope)


def _unseal_records(name: str, envelope: bytes) -> dict[Any, Any]:
    """Called by ``pickle.load`` on a sealed records file."""
    return pickle.loads(_keyring().decrypt(envelope, aad("langgraph-api-inmem", name)))


def _seal_inmem_records(ring: KeyRing) -> None:
    """Have the in-memory runtime (``langgraph dev``) write its records
    sealed. It pickles threads, runs, assistants and crons to
    ``.langgraph_api/*.pckl``, and holds thread values and configs and the
    decrypted inputs of runs there even with an encryption hook (a server on
    a database applies the hook to those fields itself)."""
    if _runtime_edition() != "inmem":
        return
    database = sys.modules["langgraph_runtime_inmem.database"]
    persistence = sys.modules["langgraph_runtime_inmem._persistence"]
    records = [database.GLOBAL_STORE, database.GLOBAL_RETRY_COUNTER._counters]
    if all(getattr(r, "_trustmem_sealed", False) for r in records):
        return
    persistence.stop_flush_loop()  # no flush while the writer changes
    try:
        for rec in records:
            name = os.path.basename(rec.filename)

            def dump(fileobj: Any, rec: Any = rec, name: str = name) -> None:
                envelope = ring.encrypt(pickle.dumps(dict(rec), 2), aad("langgraph-api-inmem", name))
                pickle.dump(_SealedRecords(name, envelope), fileobj, 2)

            rec.dump = dump
            rec._trustmem_sealed = True
            if os.path.exists(rec.filename):
                rec.sync()  # a plaintext file from an earlier run is replaced now
    finally:
        for rec in records:
            persistence.register_persistent_dict(rec)


def _require_hook() -> None:
    """On a database the server stores its records through the encryption
    hook only: refuse to start without one."""
    edition = _runtime_edition()
    if edition is None or edition == "inmem":
        return
    from langgraph_api.encryption.shared import get_encryption  # noqa: PLC0415 (inside the server only)

    if get_encryption() is None:
        raise ConfigurationError(
            "the Agent Server would keep thread values and run inputs unencrypted: add "
            '"encryption": {"path": "langgraph_trustmem.server:encryption"} to langgraph.json'
        )


# -- the checkpointer and the store ---------------------------------------


def _as_caller(config: Any) -> Any:
    """A read from the server's API (state, history) is made for the user
    the server authenticated, as its runs are: the server sets that user in
    a run's config, not in a read's, and a read's config can carry keys the
    client chose. Without custom auth the identity is empty, and the read
    names its user with ``configurable.user_id`` as runs do."""
    utils = sys.modules.get("langgraph_api.utils")
    if not config or utils is None or is_run(config):
        return config
    ctx = utils.get_auth_ctx()
    if ctx is None:
        return config  # not a request's read
    conf = config.get("configurable") or {}
    identity = utils.get_user_id(ctx.user) or ""
    return {**config, "configurable": {**conf, AUTH_USER_KEY: identity}}


_REFUSED = "this thread belongs to another user"


class _ServerSaver(AsyncTrustCheckpointSaver):
    """The saver ``aopen()`` built, reading for the server's caller; an API
    read of someone else's thread is a 403 naming nothing, not a 500. The
    factory gives the built saver this class rather than wrapping it, so
    the server, the graph's trust gate and erasure share one object (and
    one cache of sessions)."""

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        try:
            return await super().aget_tuple(_as_caller(config))
        except ThreadOwnershipError:
            if is_run(config):
                raise
            raise HTTPException(status_code=403, detail=_REFUSED) from None

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        try:
            async for tup in super().alist(_as_caller(config), filter=filter, before=before, limit=limit):
                yield tup
        except ThreadOwnershipError:
            if config is not None and is_run(config):
                raise
            raise HTTPException(status_code=403, detail=_REFUSED) from None


class _ServerStore(AsyncTrustStore):
    """The store ``aopen()`` built. The server's ``/store`` API calls it
    outside any graph node, where it serves no user's memories (it cannot
    tell whose request it is, nor at which level): such a refusal is a 403
    naming nothing, not a 500. Nodes remember and recall as everywhere."""

    def _in_node(self) -> bool:
        # the server leaves a config without a node in the API's context
        config = self._run_config() or {}
        return bool((config.get("metadata") or {}).get("langgraph_node"))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        try:
            return await super().abatch(ops)
        except TrustViolation:
            if self._in_node():
                raise
            raise HTTPException(status_code=403, detail=_OUTSIDE_RUNS) from None

    async def aput(self, *args: Any, **kwargs: Any) -> None:
        try:
            await super().aput(*args, **kwargs)
        except TrustViolation:
            if self._in_node():
                raise
            raise HTTPException(status_code=403, detail=_OUTSIDE_RUNS) from None


_OUTSIDE_RUNS = "memories are reached through graph runs"


@dataclass
class _Shared:
    stack: AsyncExitStack
    mem: TrustMem
    loop: asyncio.AbstractEventLoop
    users: int = 0


_shared: _Shared | None = None
_opening: asyncio.Lock | None = None


@asynccontextmanager
async def _memory() -> AsyncIterator[TrustMem]:
    """The one TrustMem of this server process: opened by whichever factory
    the server enters first, closed (embedded services stopped) when the
    last one exits, and bound to the server's event loop."""
    global _shared, _opening
    loop = asyncio.get_running_loop()
    if _opening is None:
        _opening = asyncio.Lock()
    async with _opening:
        if _shared is None:
            _require_hook()
            _seal_inmem_records(_keyring())
            stack = AsyncExitStack()
            mem = await stack.enter_async_context(aopen(key=_keyring()))
            mem.checkpointer.__class__ = _ServerSaver  # the same saver, reading for the caller
            mem.store.__class__ = _ServerStore  # the same store, refusing the API cleanly
            _shared = _Shared(stack, mem, loop)
        elif _shared.loop is not loop:
            raise ConfigurationError("the trust memory is bound to the server's event loop")
        shared = _shared
        shared.users += 1
    try:
        yield shared.mem
    finally:
        shared.users -= 1
        if shared.users == 0 and _shared is shared:
            _shared = None
            await shared.stack.aclose()


@asynccontextmanager
async def checkpointer() -> AsyncIterator[AsyncTrustCheckpointSaver]:
    """The server's checkpointer (``"checkpointer": {"path":
    "langgraph_trustmem.server:checkpointer"}``): the async trust saver on
    the configured PostgreSQL, or on the embedded one it shares with
    :func:`store`."""
    async with _memory() as mem:
        yield mem.checkpointer


@asynccontextmanager
async def store() -> AsyncIterator[AsyncTrustStore]:
    """The server's store (``"store": {"path":
    "langgraph_trustmem.server:store"}``): the labelled trust store, vectors
    in the configured Qdrant or the embedded engine."""
    async with _memory() as mem:
        yield mem.store


# -- runs ------------------------------------------------------------------


async def admit_run(ctx: Any, value: Mapping[str, Any]) -> None:
    """For an auth handler on ``threads.create_run``: refuse, before the run
    exists, a run the session's rules would fail when it starts (a level
    above the session's, a terminated session, another user's thread), as an
    HTTP error naming nothing: 409, or 403 for the thread of another. The
    checkpointer refuses such a run anyway; this makes the refusal an HTTP
    error instead of a failed run."""
    thread_id = value.get("thread_id")
    if _shared is None or thread_id is None:
        return
    kwargs = value.get("kwargs") or {}
    conf = dict((kwargs.get("config") or {}).get("configurable") or {})
    identity = getattr(getattr(ctx, "user", None), "identity", "") or ""
    conf.update(thread_id=str(thread_id), **{AUTH_USER_KEY: identity})
    saver = _shared.mem.checkpointer
    try:
        session = await saver.asession({"configurable": conf})
    except ThreadOwnershipError:
        raise AuthHTTPException(status_code=403, detail=_REFUSED) from None
    if session is None:
        return
    if session.terminated:
        raise AuthHTTPException(
            status_code=409, detail="this session was terminated and refuses further runs"
        )
    asked = requested_level({"configurable": conf})
    if asked is not None and saver.ladder.rank(asked) > saver.ladder.rank(session.level):
        raise AuthHTTPException(status_code=409, detail="a run asked for a trust level above its session's")


# -- erasure ---------------------------------------------------------------


async def _owned_by(saver: AsyncTrustCheckpointSaver, thread_id: str, user_id: str) -> bool:
    """Whether the saver holds the thread with ``user_id`` as its owner. An
    unowned thread answers to any caller, so a call naming nobody tells."""
    try:
        if await saver.asession({"configurable": {"thread_id": thread_id, "user_id": user_id}}) is None:
            return False
    except ThreadOwnershipError:
        return False
    try:
        await saver.asession({"configurable": {"thread_id": thread_id}})
    except ThreadOwnershipError:
        return True
    return False


async def forget(user_id: str) -> dict[str, Any]:
    """Erase a user from this running server: the server's records of their
    threads (values, runs) with the threads' checkpoints, then memories,
    vectors, cache and any thread the server did not hold. Returns the
    store's receipt (``removed.threads`` counts those last threads) and
    ``server_threads``, the threads deleted through the server. Each step
    can be run again: a call that fails part way is finished by the next."""
    if _shared is None:
        raise ConfigurationError("the trust memory is not open in this process")
    mem = _shared.mem
    client = get_client()  # in process, through the server's own API
    owned: list[str] = []
    offset = 0
    while True:
        page = await client.threads.search(limit=100, offset=offset, select=["thread_id"])
        for thread in page:
            if await _owned_by(mem.checkpointer, str(thread["thread_id"]), user_id):
                owned.append(str(thread["thread_id"]))
        if len(page) < 100:
            break
        offset += len(page)
    for thread_id in owned:  # first, while the saver can still tell whose they are
        await client.threads.delete(thread_id)
    receipt = await mem.aforget(user_id)
    return {**receipt, "server_threads": len(owned)}


def _subject(request: Request, body: Mapping[str, Any]) -> str | JSONResponse:
    """Whom a forget request erases: with the server's custom auth, the
    caller and nobody else; without it (an operator), the named user."""
    asked = body.get("user_id")
    if getattr(sys.modules.get("langgraph_api.config"), "LANGGRAPH_AUTH", None):
        user = request.scope.get("user")
        if user is None or not getattr(user, "is_authenticated", False):
            return JSONResponse(
                {"detail": "set http.enable_custom_route_auth to erase over this route"}, status_code=403
            )
        if asked not in (None, user.identity):
            return JSONResponse({"detail": "a user can only erase themselves"}, status_code=403)
        return str(user.identity)
    if not isinstance(asked, str) or not asked:
        return JSONResponse({"detail": "user_id (a non-empty string) is required"}, status_code=422)
    return asked


async def _forget_route(request: Request) -> JSONResponse:
    try:
        body = orjson.loads(await request.body() or b"{}")
    except orjson.JSONDecodeError:
        return JSONResponse({"detail": "the body must be JSON"}, status_code=422)
    if not isinstance(body, dict):
        return JSONResponse({"detail": "the body must be a JSON object"}, status_code=422)
    subject = _subject(request, body)
    if isinstance(subject, JSONResponse):
        return subject
    if _shared is None:
        return JSONResponse({"detail": "the trust checkpointer is not configured"}, status_code=503)
    receipt = await forget(subject)
    log.info("erased a user on request")
    return JSONResponse(receipt)


routes = [Route("/trustmem/forget", _forget_route, methods=["POST"])]
"""The routes, to mount in an app of your own (``POST /trustmem/forget``)."""

app = Starlette(routes=routes)
"""An app with :data:`routes` (``"http": {"app": "langgraph_trustmem.server:app"}``)."""


__all__ = [
    "PLAINTEXT_KEYS",
    "SEALED_PREFIX",
    "TAG_PREFIX",
    "admit_run",
    "app",
    "checkpointer",
    "encryption",
    "forget",
    "owner_tag",
    "routes",
    "store",
]
