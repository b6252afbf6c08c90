"""``open()`` / ``aopen()``: one call that yields a ready checkpointer and
store on configured services or on the embedded default.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph_trustmem.checkpoint.aio import AsyncTrustCheckpointSaver
from langgraph_trustmem.checkpoint.base import Retention
from langgraph_trustmem.checkpoint.ephemeral import EphemeralTrustSaver
from langgraph_trustmem.checkpoint.saver import TrustCheckpointSaver
from langgraph_trustmem.config import Settings
from langgraph_trustmem.crypto import KeyRing, generate_key
from langgraph_trustmem.embedded import EmbeddedPostgres, cluster_dir
from langgraph_trustmem.store import AsyncTrustStore, TrustStore


def _embedded_key(home: Path) -> KeyRing:
    """The embedded default's key file (mode 0600), created on first use."""
    path = home / "key"
    home.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(generate_key() + "\n")
    return KeyRing.parse(path.read_text())


@dataclass
class TrustMem:
    """What ``open()`` yields: the checkpointer, the store and the services
    behind them."""

    checkpointer: Any
    settings: Settings
    store: Any = None
    postgres: EmbeddedPostgres | None = None

    def forget(self, user_id: str) -> dict[str, Any]:
        """Erase a user everywhere: memories, vectors, cache entries, and
        every branch of every thread. Returns the receipt."""
        if self.store is None:
            return {"removed": {"threads": self.checkpointer.forget_user(user_id)}}
        return self.store.forget(user_id, checkpointer=self.checkpointer)

    async def aforget(self, user_id: str) -> dict[str, Any]:
        if self.store is None:
            return {"removed": {"threads": await self.checkpointer.aforget_user(user_id)}}
        return await self.store.aforget(user_id, checkpointer=self.checkpointer)


def _store_args(settings: Settings, index: Any, ttl: Any = None) -> dict[str, Any]:
    """Vector tier and index for the store: the configured Qdrant, else the
    embedded engine in the data directory; the packaged offline model unless
    the caller gives an index."""
    if index is None:
        from langgraph_trustmem.store.embeddings import default_embeddings  # noqa: PLC0415

        emb = default_embeddings()
        index = {"dims": emb.dims, "embed": emb, "fields": ["$"]}
    qdrant = settings.qdrant_url or str(settings.home / "vectors")
    return {"qdrant": qdrant, "index": index, "ttl": ttl}


def _prepare(
    ephemeral: bool, kwargs: dict[str, Any]
) -> tuple[Settings, EmbeddedPostgres | None, KeyRing | None]:
    settings = Settings.resolve(
        postgres_url=kwargs.pop("postgres_url", None),
        redis_url=kwargs.pop("redis_url", None),
        qdrant_url=kwargs.pop("qdrant_url", None),
        key=kwargs.pop("key", None),
        home=kwargs.pop("home", None),
        levels=kwargs.pop("levels", None),
    )
    if ephemeral:
        return settings, None, None
    pg = None
    key = settings.key
    if settings.embedded:
        pg = EmbeddedPostgres(cluster_dir(settings.home), durable=kwargs.pop("durable", True))
        key = key or _embedded_key(settings.home)
    return settings, pg, key


@contextmanager
def open(
    *,
    ephemeral: bool = False,
    retention: Retention | None = None,
    index: Any = None,
    store_ttl: Any = None,
    **kwargs: Any,
) -> Iterator[TrustMem]:
    """Open the trust memory on configured URLs, or start the embedded default.

    Keyword arguments: ``postgres_url``, ``redis_url``, ``qdrant_url``,
    ``key``, ``home``, ``levels``, ``durable`` (embedded only), ``index`` (the
    store's IndexConfig; default: the packaged offline model), ``store_ttl``
    (the store's TTLConfig), ``retention`` (the threads'); the rest go to
    the checkpointer. ``ephemeral=True`` keeps every session in process
    memory only and drops it on exit (no store then: nothing may touch disk).
    """
    settings, pg, key = _prepare(ephemeral, kwargs)
    if ephemeral:
        with EphemeralTrustSaver(levels=settings.ladder) as saver:
            yield TrustMem(saver, settings)
        return
    if pg is not None:
        pg.start()
    try:
        url = settings.postgres_url or pg.url  # type: ignore[union-attr]
        kwargs.setdefault("local_hot", pg is not None)  # one process owns the embedded threads
        with (
            TrustCheckpointSaver.from_conn_string(
                url,
                redis_url=settings.redis_url,
                key=key,
                levels=settings.ladder,
                retention=retention,
                **kwargs,
            ) as saver,
            TrustStore.from_conn_string(
                url,
                redis_url=settings.redis_url,
                key=key,
                levels=settings.ladder,
                **_store_args(settings, index, store_ttl),
            ) as store,
        ):
            saver.setup()
            store.setup()
            yield TrustMem(saver, settings, store, pg)
    finally:
        if pg is not None:
            pg.stop()


@asynccontextmanager
async def aopen(
    *,
    ephemeral: bool = False,
    retention: Retention | None = None,
    index: Any = None,
    store_ttl: Any = None,
    **kwargs: Any,
) -> AsyncIterator[TrustMem]:
    """Async twin of :func:`open`: yields async savers."""
    settings, pg, key = _prepare(ephemeral, kwargs)
    if ephemeral:
        async with EphemeralTrustSaver(levels=settings.ladder) as saver:
            yield TrustMem(saver, settings)
        return
    if pg is not None:
        pg.start()
    try:
        url = settings.postgres_url or pg.url  # type: ignore[union-attr]
        kwargs.setdefault("local_hot", pg is not None)
        async with (
            AsyncTrustCheckpointSaver.from_conn_string(
                url,
                redis_url=settings.redis_url,
                key=key,
                levels=settings.ladder,
                retention=retention,
                **kwargs,
            ) as saver,
            AsyncTrustStore.from_conn_string(
                url,
                redis_url=settings.redis_url,
                key=key,
                levels=settings.ladder,
                **_store_args(settings, index, store_ttl),
            ) as store,
        ):
            await saver.setup()
            await store.setup()
            yield TrustMem(saver, settings, store, pg)
    finally:
        if pg is not None:
            pg.stop()


class _ServerFactory:
    """Stands in for ``langgraph_trustmem.server.<name>`` until called, so
    the package does not import the server module (and langgraph-sdk)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self) -> Any:
        from langgraph_trustmem import server  # noqa: PLC0415 (needs the server extra)

        return getattr(server, self.name)()


def _register_server_paths() -> None:
    """langgraph-api's checkpointer and store loaders split a path at its
    last dot, so ``langgraph_trustmem.server:checkpointer`` looks up
    ``server:checkpointer`` in this package: these entries answer it."""
    package = vars(sys.modules[__package__])
    for name in ("checkpointer", "store"):
        package.setdefault(f"server:{name}", _ServerFactory(name))


_register_server_paths()
