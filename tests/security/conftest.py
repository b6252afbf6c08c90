"""Attack tests use the store's fixtures (real servers, both Qdrant back ends)."""

from ..store.conftest import astore, embeddings, index, store, store_schema, user  # noqa: F401
