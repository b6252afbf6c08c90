"""The store's guard lives in :mod:`langgraph_trustmem.guard`; this module keeps the old
import path working."""

from __future__ import annotations

from langgraph_trustmem.guard import (
    DEFAULT_PII,
    DEFAULT_REDACT,
    PII_KINDS,
    SECRET_KINDS,
    Guard,
    engine_available,
    redact_pii,
    scan_secrets,
)

__all__ = [
    "DEFAULT_PII",
    "DEFAULT_REDACT",
    "PII_KINDS",
    "SECRET_KINDS",
    "Guard",
    "engine_available",
    "redact_pii",
    "scan_secrets",
]
