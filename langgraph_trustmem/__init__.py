"""langgraph-trustmem: trust-aware, encrypted memory for LangGraph.

Sessions (threads) hold a trust level fixed when they start; when less
trusted content enters, the session forks onto a branch that holds nothing
above the new level, or it ends. See README.md for the model.
"""

from langgraph_trustmem.checkpoint.aio import AsyncTrustCheckpointSaver
from langgraph_trustmem.checkpoint.base import Branch, Retention, Session
from langgraph_trustmem.checkpoint.ephemeral import EphemeralTrustSaver
from langgraph_trustmem.checkpoint.saver import TrustCheckpointSaver
from langgraph_trustmem.context import ContextThreadPoolExecutor, carry_context
from langgraph_trustmem.crypto import KeyRing, generate_key
from langgraph_trustmem.errors import (
    BranchAccessDenied,
    ConcurrentRunError,
    ConfigurationError,
    ConfirmationRequired,
    ContentAboveLevel,
    InvalidKeyError,
    MissingKeyError,
    OverwriteRefused,
    SecretRejected,
    SessionTerminated,
    StaleBranch,
    TamperedDataError,
    TamperedDataWarning,
    TenantIsolationError,
    ThreadExists,
    ThreadOwnershipError,
    TrustEscalationError,
    TrustMemError,
    TrustViolation,
    UnknownLevelError,
    WrongKeyError,
)
from langgraph_trustmem.hardening import harden_process
from langgraph_trustmem.importer import (
    ImportCounts,
    ImportResult,
    ImportRules,
    ImportSourceError,
    import_from_postgres,
)
from langgraph_trustmem.nodes import make_trust_gate
from langgraph_trustmem.runtime import TrustMem, aopen, open
from langgraph_trustmem.store import AsyncTrustStore, TrustItem, TrustSearchItem, TrustStore, ValueMigrations
from langgraph_trustmem.trust import DEFAULT_LADDER, ChannelPolicy, Label, Ladder, label, label_of

__all__ = [
    "DEFAULT_LADDER",
    "AsyncTrustCheckpointSaver",
    "AsyncTrustStore",
    "ConfirmationRequired",
    "ContentAboveLevel",
    "StaleBranch",
    "ThreadExists",
    "OverwriteRefused",
    "TenantIsolationError",
    "TrustItem",
    "TrustSearchItem",
    "TrustStore",
    "ValueMigrations",
    "make_trust_gate",
    "Branch",
    "BranchAccessDenied",
    "ChannelPolicy",
    "ConcurrentRunError",
    "ConfigurationError",
    "EphemeralTrustSaver",
    "InvalidKeyError",
    "KeyRing",
    "Label",
    "Ladder",
    "MissingKeyError",
    "Retention",
    "SecretRejected",
    "Session",
    "SessionTerminated",
    "TamperedDataError",
    "TamperedDataWarning",
    "ThreadOwnershipError",
    "TrustCheckpointSaver",
    "TrustEscalationError",
    "TrustMem",
    "TrustMemError",
    "TrustViolation",
    "UnknownLevelError",
    "WrongKeyError",
    "ContextThreadPoolExecutor",
    "aopen",
    "carry_context",
    "generate_key",
    "harden_process",
    "import_from_postgres",
    "ImportCounts",
    "ImportResult",
    "ImportRules",
    "ImportSourceError",
    "label",
    "label_of",
    "open",
]
