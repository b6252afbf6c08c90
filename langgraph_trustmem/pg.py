"""A small PostgreSQL helper the savers and stores share: a cursor from a
connection or a pool, multi-statement operations run in one transaction,
and append-only schema migrations.

Operations are generators that yield ``(sql, params, fetch)`` and receive
the fetched rows; :class:`PgClient` and :class:`AsyncPgClient` run them, so
the sync and async twins share every line of their logic.
"""

from __future__ import annotations

import asyncio
import hmac
import struct
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from contextlib import asynccontextmanager, contextmanager
from types import ModuleType
from typing import Any

import psycopg
from psycopg import AsyncConnection, AsyncCursor, Connection, Cursor
from psycopg.adapt import Dumper
from psycopg.errors import UndefinedTable
from psycopg.pq import Format
from psycopg.rows import tuple_row
from psycopg_pool import AsyncConnectionPool, ConnectionPool

from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.errors import ConfigurationError, SetupRequired, WrongKeyError

Statements = Generator[tuple[str, Any, bool], list[tuple], Any]
_NOT_SET_UP = "the database has no trustmem tables yet: call setup() once on the saver and the store"

# Autocommit (transactions are explicit), and server-side prepared
# statements for the hot queries after a few uses.
CONNECTION_KWARGS = {"autocommit": True, "prepare_threshold": 5}


def check_connection(conn: Any, pipe: Any = None) -> None:
    """Refuse, typed, a connection the library cannot commit through: the
    library runs its transactions explicitly, so a connection must be in
    autocommit mode (as PostgresSaver's docs also require). Rows are read
    with a row factory the library pins, whatever the caller's is. A
    pipeline (``pipe=conn.pipeline()``, as PostgresSaver takes it) belongs to
    one connection, so it comes with that connection, not a pool."""
    if pipe is not None and isinstance(conn, (ConnectionPool, AsyncConnectionPool)):
        raise ConfigurationError(
            "a pipeline belongs to one connection: pass the connection it was opened on, not a pool"
        )
    autocommit = (
        dict(conn.kwargs or {}).get("autocommit")  # type: ignore[arg-type]  # pools keep a dict here
        if isinstance(conn, (ConnectionPool, AsyncConnectionPool))
        else getattr(conn, "autocommit", True)
    )
    if not autocommit:
        raise ConfigurationError(
            "the connection must be opened with autocommit=True (as for LangGraph's PostgresSaver); "
            "the library commits its own transactions"
        )


# -- array parameters -----------------------------------------------------
# psycopg infers a list's element type on every call (about 40 us a
# statement with three arrays, as much as the rest of a put's parameters).
# The hot statements pass their arrays as these lists, which are dumped
# straight to PostgreSQL's binary array format. A connection made before
# this module was imported does not know them and dumps them as plain lists.

_I4 = struct.Struct(">i")
_F8 = struct.Struct(">d")
_ARRAY_HEAD = struct.Struct(">iiiii")  # ndim, has-null, element oid, length, lower bound


class TextArray(list[str]):
    """A ``text[]`` parameter."""


class BytesArray(list[bytes]):
    """A ``bytea[]`` parameter."""


class IntArray(list[int]):
    """An ``int4[]`` parameter."""


class FloatArray(list[float]):
    """A ``float8[]`` parameter."""


def _array(items: list[Any], element_oid: int, encode: Callable[[Any], bytes]) -> bytes:
    if not items:
        return _ARRAY_HEAD.pack(0, 0, element_oid, 0, 0)[:12]
    parts = [_ARRAY_HEAD.pack(1, 0, element_oid, len(items), 1)]
    for item in items:
        if item is None:
            parts.append(b"\xff\xff\xff\xff")
            continue
        data = encode(item)
        parts.append(_I4.pack(len(data)))
        parts.append(data)
    return b"".join(parts)


def _array_dumper(array_oid: int, element_oid: int, encode: Callable[[Any], bytes]) -> type[Dumper]:
    """A binary dumper for one of the array types above."""

    class ArrayDumper(Dumper):
        format = Format.BINARY
        oid = array_oid

        def dump(self, obj: Any) -> bytes:
            return _array(obj, element_oid, encode)

    return ArrayDumper


for _cls, _array_oid, _element_oid, _encode in (
    (TextArray, 1009, 25, str.encode),  # text[]
    (BytesArray, 1001, 17, bytes),  # bytea[]
    (IntArray, 1007, 23, _I4.pack),  # int4[]
    (FloatArray, 1022, 701, _F8.pack),  # float8[]
):
    psycopg.adapters.register_dumper(_cls, _array_dumper(_array_oid, _element_oid, _encode))


KEY_CHECK_TABLE_SQL = "CREATE TABLE IF NOT EXISTS trustmem_key_check (id SMALLINT PRIMARY KEY, mac BYTEA NOT NULL)"
KEY_CHECK_INSERT_SQL = (
    "INSERT INTO trustmem_key_check (id, mac) VALUES (1, %s) ON CONFLICT (id) DO NOTHING RETURNING mac"
)
KEY_CHECK_SELECT_SQL = "SELECT mac FROM trustmem_key_check WHERE id = 1"


def migrate_ops(schema: ModuleType, keyring: KeyRing | None = None) -> Statements:
    """Apply a schema module's MIGRATIONS past the recorded version, under
    an advisory lock (safe from many processes at once); then check the key
    against the database's key check value (written by the first setup)."""
    yield schema.MIGRATION_LOCK_SQL, (), False
    yield schema.MIGRATIONS[0], (), False
    rows = yield schema.SELECT_MIGRATION_SQL, (), True
    version = rows[0][0] if rows else -1
    for v, migration in enumerate(schema.MIGRATIONS):
        if v > version:
            yield migration, (), False
            yield schema.INSERT_MIGRATION_SQL, (v,), False
    if keyring is not None:
        yield from key_check_ops(keyring, getattr(schema, "SEALED_SAMPLE_SQL", None))
    return len(schema.MIGRATIONS) - 1


_WRONG_KEY = (
    "this database was set up with another key: check TRUSTMEM_KEY (the oldest key on the "
    "ring must stay the one the data was first written with)"
)


def key_check_ops(keyring: KeyRing, sample_sql: str | None = None) -> Statements:
    """A database remembers a MAC made with the identity key of its first
    setup (the key every identifier is hashed with, which rotation keeps).
    Another key would find nothing and read like an empty database; it gets
    ``WrongKeyError`` instead. A database sealed by a release that kept no
    check value gets one only if its sealed rows name a key on the ring
    (``sample_sql`` reads one envelope's header), so a wrong key opening it
    first is refused rather than recorded."""
    mac = keyring.mac(b"trustmem/key-check/v1")
    yield KEY_CHECK_TABLE_SQL, (), False
    if (yield KEY_CHECK_INSERT_SQL, (mac,), True):
        if sample_sql is not None:
            sample = yield sample_sql, (), True
            if sample and KeyRing.key_id_in(bytes(sample[0][0])) not in keyring.key_ids:
                raise WrongKeyError(_WRONG_KEY)  # the transaction drops the check value
        return
    rows = yield KEY_CHECK_SELECT_SQL, (), True
    if not hmac.compare_digest(bytes(rows[0][0]), mac):
        raise WrongKeyError(_WRONG_KEY)


class PgClient:
    """Sync plumbing: ``self.conn`` is a Connection (guarded by
    ``self.lock``) or a ConnectionPool."""

    conn: Connection | ConnectionPool
    lock: Any
    pipe: Any = None  # the caller's Pipeline on ``conn``, synced after each operation

    @contextmanager
    def _cursor(self, *, transaction: bool = False) -> Iterator[Cursor]:
        if isinstance(self.conn, ConnectionPool):
            with self.conn.connection() as conn:
                yield from self._in(conn, transaction)
        else:
            with self.lock:
                yield from self._in(self.conn, transaction)

    @staticmethod
    def _in(conn: Connection, transaction: bool) -> Iterator[Cursor]:
        """A cursor; in a transaction, pipelined (see ``_run``)."""
        try:
            if transaction:
                with conn.pipeline(), conn.transaction(), conn.cursor(row_factory=tuple_row) as cur:
                    yield cur
            else:
                with conn.cursor(row_factory=tuple_row) as cur:
                    yield cur
        except UndefinedTable:
            raise SetupRequired(_NOT_SET_UP) from None

    def _run(self, ops: Statements) -> Any:
        """Run a multi-statement operation in one transaction, pipelined:
        statements whose rows the operation does not read are sent without
        waiting, so the server is waited on only where a result decides
        what comes next (and at the commit)."""
        with self._cursor(transaction=True) as cur:
            try:
                query, params, fetch = next(ops)
                while True:
                    # a cursor per statement: in a pipeline, a cursor's rows are
                    # those of whichever of its statements answered last
                    one = cur.connection.cursor(row_factory=tuple_row)
                    one.execute(query, params)
                    query, params, fetch = ops.send(one.fetchall() if fetch else [])
            except StopIteration as done:
                result = done.value
        if self.pipe is not None:
            self.pipe.sync()  # errors surface here, not in the caller's next statement
        return result

    def _fetch(self, query: str, params: Any, rows: bool = True) -> list[tuple]:
        """One statement on its own, rows (if any are wanted) in binary. On
        a caller's pipeline it is synced: statements between syncs share an
        implicit transaction, and a write must commit before it returns."""
        with self._cursor() as cur:
            cur.execute(query, params, binary=True)
            out = cur.fetchall() if rows else []
        if self.pipe is not None:
            self.pipe.sync()
        return out


class AsyncPgClient:
    """Async plumbing, the twin of :class:`PgClient`."""

    conn: AsyncConnection | AsyncConnectionPool
    lock: Any
    pipe: Any = None  # the caller's AsyncPipeline on ``conn``, synced after each operation
    _slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    def _pool_slots(self, pool: AsyncConnectionPool) -> asyncio.Semaphore:
        """At most the pool's size of this client's calls wait on the pool;
        the rest queue here. Thousands of concurrent calls (``gather`` over
        a batch of writes) otherwise all wait on the pool, whose timeout
        fails every call that waited longer than it, however busy the
        connections were. Our operations never hold one connection while
        asking for another, so this queue cannot deadlock."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(pool.max_size))
        return self._slots[1]

    @asynccontextmanager
    async def _cursor(self, *, transaction: bool = False) -> AsyncIterator[AsyncCursor]:
        if isinstance(self.conn, AsyncConnectionPool):
            pool = self.conn
            async with (
                self._pool_slots(pool),
                pool.connection() as conn,
                self._in(conn, transaction) as cur,
            ):
                yield cur
        else:
            async with self.lock, self._in(self.conn, transaction) as cur:
                yield cur

    @staticmethod
    @asynccontextmanager
    async def _in(conn: AsyncConnection, transaction: bool) -> AsyncIterator[AsyncCursor]:
        try:
            if transaction:
                async with conn.pipeline(), conn.transaction(), conn.cursor(row_factory=tuple_row) as cur:
                    yield cur
            else:
                async with conn.cursor(row_factory=tuple_row) as cur:
                    yield cur
        except UndefinedTable:
            raise SetupRequired(_NOT_SET_UP) from None

    async def _run(self, ops: Statements) -> Any:
        """Run a multi-statement operation in one transaction, pipelined."""
        async with self._cursor(transaction=True) as cur:
            try:
                query, params, fetch = next(ops)
                while True:
                    one = cur.connection.cursor(row_factory=tuple_row)  # as in the sync twin
                    await one.execute(query, params)
                    query, params, fetch = ops.send(await one.fetchall() if fetch else [])
            except StopIteration as done:
                result = done.value
        if self.pipe is not None:
            await self.pipe.sync()  # errors surface here, not in the caller's next statement
        return result

    async def _fetch(self, query: str, params: Any, rows: bool = True) -> list[tuple]:
        """One statement on its own, rows (if any are wanted) in binary;
        synced on a caller's pipeline, as in the sync twin."""
        async with self._cursor() as cur:
            await cur.execute(query, params, binary=True)
            out = await cur.fetchall() if rows else []
        if self.pipe is not None:
            await self.pipe.sync()
        return out


__all__ = ["CONNECTION_KWARGS", "AsyncPgClient", "PgClient", "Statements", "check_connection", "migrate_ops"]
