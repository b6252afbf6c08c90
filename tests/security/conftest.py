"""Attack tests use the store's fixtures (real servers, both Qdrant back ends); the guard's
tests share one guard (its checks keep no state between calls)."""

import pytest

from langgraph_trustmem.guard import Guard

from ..store.conftest import astore, embeddings, index, store, store_schema, user  # noqa: F401


@pytest.fixture(scope="session")
def guard() -> Guard:
    return Guard()
