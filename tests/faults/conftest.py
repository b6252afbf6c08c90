"""Fault tests run on servers of their own (killed, paused, restarted)."""

from __future__ import annotations

import os
import signal
import tempfile
from pathlib import Path

import pytest

from langgraph_trustmem.embedded import EmbeddedPostgres

from .servers import PersistentRedis


@pytest.fixture
def own_redis(workdir):
    d = Path(tempfile.mkdtemp(prefix="faults-redis-", dir=workdir))
    server = PersistentRedis(d)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def own_pg(workdir):
    d = Path(tempfile.mkdtemp(prefix="faults-pg-", dir=workdir))
    d.chmod(0o755)
    server = EmbeddedPostgres(d, durable=True)
    server.start()
    yield server
    server.stop()


def kill_postgres(server: EmbeddedPostgres) -> None:
    """SIGKILL the postmaster and every backend (its own session)."""
    assert server.proc is not None
    os.killpg(server.proc.pid, signal.SIGKILL)
    server.proc.wait()
    server.proc = None


from ..store.conftest import embeddings, index, store_schema  # noqa: E402, F401
