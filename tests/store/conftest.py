"""Store fixtures: real PostgreSQL and Redis (from the session fixtures), and
both vector back ends: qdrant-edge in a directory, qdrant-client in
``:memory:`` mode (the same client API as a Qdrant server)."""

from __future__ import annotations

import tempfile
import uuid
from pathlib import Path

import pytest

from langgraph_trustmem.store import AsyncTrustStore, TrustStore
from langgraph_trustmem.store.embeddings import default_embeddings


@pytest.fixture(scope="session")
def embeddings():
    return default_embeddings()


@pytest.fixture(scope="session")
def index(embeddings):
    return {"dims": embeddings.dims, "embed": embeddings, "fields": ["$"]}


@pytest.fixture(scope="session")
def store_schema(pg_url, key):
    with TrustStore.from_conn_string(pg_url, key=key) as s:
        s.setup()
    return True


def vector_location(kind: str, workdir: Path) -> str:
    if kind == "edge":
        return str(Path(tempfile.mkdtemp(prefix="edge-", dir=workdir)) / "shard")
    return ":memory:"


@pytest.fixture(params=["edge", "qdrant-client"])
def store(request, pg_url, redis_url, key, index, store_schema, workdir):
    with TrustStore.from_conn_string(
        pg_url, key=key, qdrant=vector_location(request.param, workdir), redis_url=redis_url, index=index
    ) as s:
        s.setup()
        yield s


@pytest.fixture(params=["edge", "qdrant-client"])
async def astore(request, pg_url, redis_url, key, index, store_schema, workdir):
    async with AsyncTrustStore.from_conn_string(
        pg_url, key=key, qdrant=vector_location(request.param, workdir), redis_url=redis_url, index=index
    ) as s:
        await s.setup()
        yield s


@pytest.fixture
def user():
    """A fresh user id per test, so tests sharing the database never meet."""
    return f"user-{uuid.uuid4().hex[:10]}"
