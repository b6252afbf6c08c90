"""The long-term memory store: trust-labelled, sealed, recalled in Qdrant."""

from langgraph_trustmem.store.aio import AsyncTrustStore
from langgraph_trustmem.store.base import TrustItem, TrustSearchItem, ValueMigrations
from langgraph_trustmem.store.store import TrustStore

__all__ = ["AsyncTrustStore", "TrustItem", "TrustSearchItem", "TrustStore", "ValueMigrations"]
