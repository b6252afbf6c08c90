"""How the library connects to PostgreSQL and Redis.

Every network call has a timeout; a pooled PostgreSQL connection whose server
went away behind it is replaced before it is handed out, so a restarted
server costs no failed call; a
server that cannot be used at startup is reported within seconds as a typed
:class:`ServiceUnavailable` that says what is wrong (unreachable, refused
credentials, missing database) and never repeats a credential. Log lines of
the pool library are scrubbed of passwords too.
"""

from __future__ import annotations

import logging
import re
import select
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import psycopg
from psycopg_pool import AsyncConnectionPool, ConnectionPool, PoolTimeout

from langgraph_trustmem.errors import ConfigurationError, ServiceUnavailable
from langgraph_trustmem.pg import CONNECTION_KWARGS

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0  # seconds to reach a server
REDIS_TIMEOUT = 1.0  # seconds for a Redis command: a paused Redis costs a turn this much at most
_REDIS_OPTIONS: dict[str, Any] = {
    "socket_timeout": REDIS_TIMEOUT,
    "socket_connect_timeout": REDIS_TIMEOUT,
    "health_check_interval": 30,
}

_SECRETS = (
    (re.compile(r"(\w+://[^:/@\s]*:)[^@\s]*@"), r"\1***@"),  # scheme://user:password@
    (re.compile(r"(password\s*=\s*)('[^']*'|\S+)", re.I), r"\1***"),  # key=value conninfo
)


def redact(text: str) -> str:
    """A text with every password in a connection string replaced."""
    for pattern, repl in _SECRETS:
        text = pattern.sub(repl, text)
    return text


class _Redact(logging.Filter):
    """Scrubs passwords from the pool library's own log records."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


for _name in ("psycopg.pool", "psycopg"):
    logging.getLogger(_name).addFilter(_Redact())


def _reason(error: BaseException) -> str:
    """What a failed connection says, in an operator's words (no credential)."""
    text = str(error).lower()
    if "password" in text or "authentication" in text or "role" in text and "does not exist" in text:
        return "refused the credentials (check the user and password in the URL)"
    if "database" in text and "does not exist" in text:
        return "has no such database (create it, or fix the database name in the URL)"
    if "timeout" in text or "timed out" in text:
        return "did not answer in time (is it running, and reachable from here?)"
    return "is unreachable (is it running, and are the host and port in the URL right?)"


def _unavailable(service: str, error: BaseException) -> ServiceUnavailable:
    reason = _reason(error)
    return ServiceUnavailable(f"{service} {reason}", service=service, reason=reason)


def probe_postgres(url: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Connect once, so a wrong URL or a server that is down fails now, typed."""
    try:
        with psycopg.connect(url, connect_timeout=max(1, int(timeout)), autocommit=True):
            pass
    except psycopg.Error as error:
        raise _unavailable("PostgreSQL", error) from None


async def aprobe_postgres(url: str, timeout: float = CONNECT_TIMEOUT) -> None:
    try:
        conn = await psycopg.AsyncConnection.connect(
            url, connect_timeout=max(1, int(timeout)), autocommit=True
        )
        await conn.close()
    except psycopg.Error as error:
        raise _unavailable("PostgreSQL", error) from None


def _went_away(conn: Any) -> bool:
    """Whether the server spoke or hung up on an idle connection (a
    restart's "terminating connection", or a closed socket): a local poll,
    no round trip. An idle connection normally has nothing to read."""
    try:
        readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


def _check(conn: psycopg.Connection) -> None:
    """Check a pooled connection before it is handed out, only when the
    server went away behind it: a restart then costs no failed call, and a
    busy pool pays no extra round trip."""
    if conn.closed or _went_away(conn):
        ConnectionPool.check_connection(conn)  # raises: the pool drops it and opens another


async def _acheck(conn: psycopg.AsyncConnection) -> None:
    if conn.closed or _went_away(conn):
        await AsyncConnectionPool.check_connection(conn)


def _pool_args(size: int, statement_timeout_ms: int | None, config: Mapping[str, Any] | None) -> dict[str, Any]:
    """Pool settings: ours, then ``config`` as PostgresStore's ``pool_config``
    takes it (``min_size``, ``max_size``, connection ``kwargs``). The
    library commits its own transactions, so autocommit stays on."""
    config = dict(config or {})
    unknown = set(config) - {"min_size", "max_size", "kwargs"}
    if unknown:
        raise ConfigurationError("pool_config takes min_size, max_size and kwargs")
    kwargs: dict[str, Any] = {**CONNECTION_KWARGS, "connect_timeout": int(CONNECT_TIMEOUT)}
    if statement_timeout_ms:
        kwargs["options"] = f"-c statement_timeout={int(statement_timeout_ms)}"
    kwargs.update(config.get("kwargs") or {})
    if kwargs.get("autocommit") is not True:
        raise ConfigurationError("pool_config kwargs must keep autocommit=True; the library commits its own work")
    min_size = int(config.get("min_size", 1))
    max_size = config.get("max_size", size)
    return {"min_size": min_size, "max_size": max(min_size, max_size) if max_size else None, "kwargs": kwargs}


@contextmanager
def pg_pool(
    url: str,
    size: int,
    *,
    statement_timeout_ms: int | None = None,
    pool_config: Mapping[str, Any] | None = None,
) -> Iterator[ConnectionPool]:
    """A pool whose connections are checked on checkout (a restarted server
    costs no failed call), opened only once the server answers."""
    args = _pool_args(size, statement_timeout_ms, pool_config)
    probe_postgres(url)
    pool = ConnectionPool(url, **args, check=_check, open=False)
    try:
        pool.open(wait=True, timeout=CONNECT_TIMEOUT * 2)
    except PoolTimeout:
        pool.close()
        raise ServiceUnavailable(
            "PostgreSQL did not give the pool a connection in time",
            service="PostgreSQL",
            reason="timeout",
        ) from None
    with pool:
        yield pool


@asynccontextmanager
async def async_pg_pool(
    url: str,
    size: int,
    *,
    statement_timeout_ms: int | None = None,
    pool_config: Mapping[str, Any] | None = None,
) -> AsyncIterator[AsyncConnectionPool]:
    """Async twin of :func:`pg_pool`."""
    args = _pool_args(size, statement_timeout_ms, pool_config)
    await aprobe_postgres(url)
    pool = AsyncConnectionPool(url, **args, check=_acheck, open=False)
    try:
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT * 2)
    except PoolTimeout:
        await pool.close()
        raise ServiceUnavailable(
            "PostgreSQL did not give the pool a connection in time",
            service="PostgreSQL",
            reason="timeout",
        ) from None
    async with pool:
        yield pool


def redis_client(url: str) -> Any:
    """A Redis client with socket and connect timeouts (a paused or lost
    Redis costs a call at most ``REDIS_TIMEOUT``, then PostgreSQL answers)."""
    import redis  # noqa: PLC0415
    from redis.backoff import NoBackoff  # noqa: PLC0415
    from redis.retry import Retry  # noqa: PLC0415

    return redis.Redis.from_url(url, retry=Retry(NoBackoff(), 0), **_REDIS_OPTIONS)


def async_redis_client(url: str) -> Any:
    import redis.asyncio  # noqa: PLC0415
    from redis.asyncio.retry import Retry  # noqa: PLC0415
    from redis.backoff import NoBackoff  # noqa: PLC0415

    return redis.asyncio.Redis.from_url(url, retry=Retry(NoBackoff(), 0), **_REDIS_OPTIONS)


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis  # noqa: PLC0415

    return (redis.RedisError, OSError)


REDIS_ERRORS = _redis_errors()


class RedisFence:
    """What keeps a Redis tier provably current, without I/O (the hot tier
    and the store's row cache each hold one).

    - Every entry is tied to the Redis server lifetime it was written in
      (the server's ``run_id``, which a restart, a restore from an
      append-only file or snapshot, or a failover changes). An entry from
      another lifetime is never served: it may predate acknowledged writes.
    - The lifetime is looked up again after every new connection and every
      error, before Redis is trusted for anything.
    - A write or deletion that fails is *owed*: this process neither reads
      nor writes Redis again until it has done it (never forgotten).
    - After an error Redis is left alone for a second, so an outage costs
      calls no timeout each.
    """

    COOLDOWN = 1.0  # seconds without trying Redis after an error: an outage costs no turn a timeout each

    def __init__(self) -> None:
        self.epoch: str | None = None
        self.pending: set[Any] = set()
        self.lock = threading.Lock()
        self.down_until = 0.0

    def on_connect(self) -> None:
        self.epoch = None

    def failed(self, tks: Iterable[Any]) -> None:
        with self.lock:
            self.epoch = None
            self.pending.update(tks)
            self.down_until = time.monotonic() + self.COOLDOWN

    def owe(self, tks: Iterable[Any]) -> None:
        """Redis was skipped for these threads: their entries may be stale."""
        with self.lock:
            self.pending.update(tks)

    @property
    def cooling(self) -> bool:
        return time.monotonic() < self.down_until

    def owed(self) -> list[Any]:
        with self.lock:
            return list(self.pending)

    def paid(self, tks: Iterable[Any]) -> None:
        with self.lock:
            self.pending.difference_update(tks)

    def ready(self, client: Any, settle: Callable[[list[Any]], Any], what: str, quiet: bool = False) -> bool:
        """Whether Redis may be used now: not cooling down after an error,
        its lifetime known, and every owed operation done (``settle``).
        ``quiet``: a background retry, whose failure is logged at debug
        level (a call's own failure has been logged already)."""
        if self.cooling:
            return False
        try:
            if self.epoch is None:
                self.epoch = run_id(client.info("server"))
            owed = self.owed()
            if owed:
                settle(owed)
                self.paid(owed)
            return True
        except REDIS_ERRORS:
            self.failed(())
            log.log(logging.DEBUG if quiet else logging.WARNING, "%s unavailable; reading PostgreSQL", what)
            return False

    async def aready(
        self, client: Any, settle: Callable[[list[Any]], Awaitable[Any]], what: str, quiet: bool = False
    ) -> bool:
        """Async twin of :meth:`ready`."""
        if self.cooling:
            return False
        try:
            if self.epoch is None:
                self.epoch = run_id(await client.info("server"))
            owed = self.owed()
            if owed:
                await settle(owed)
                self.paid(owed)
            return True
        except REDIS_ERRORS:
            self.failed(())
            log.log(logging.DEBUG if quiet else logging.WARNING, "%s unavailable; reading PostgreSQL", what)
            return False

    def current(self, entry: Any, epoch: str | None = None) -> Any:
        """The entry if it was written in the server's current lifetime (or
        in ``epoch``, the lifetime looked up after the reading connection
        was opened)."""
        epoch = epoch or self.epoch
        return entry if entry is not None and epoch is not None and entry.epoch == epoch else None


def run_id(info: Mapping[Any, Any]) -> str:
    return str(info.get("run_id") or info.get(b"run_id") or "")


def watch_connections(client: Any, fence: RedisFence, is_async: bool) -> None:
    """Reset the fence's lifetime whenever the client opens a connection
    (a reconnect may reach a restarted or promoted server)."""
    pool = getattr(client, "connection_pool", None)
    if pool is None:
        return
    if is_async:

        async def on_connect_async(conn: Any) -> None:
            await conn.on_connect()
            fence.on_connect()

        pool.connection_kwargs["redis_connect_func"] = on_connect_async
    else:

        def on_connect(conn: Any) -> None:
            conn.on_connect()
            fence.on_connect()

        pool.connection_kwargs["redis_connect_func"] = on_connect


__all__ = [
    "CONNECT_TIMEOUT",
    "REDIS_ERRORS",
    "RedisFence",
    "REDIS_TIMEOUT",
    "async_pg_pool",
    "async_redis_client",
    "aprobe_postgres",
    "pg_pool",
    "probe_postgres",
    "redact",
    "redis_client",
    "run_id",
    "watch_connections",
]
