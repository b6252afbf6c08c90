"""The typed errors users catch.

Every message here is written for logs: it names what went wrong and never
carries message text, memory contents, keys or identifiers (thread ids, user
ids), which may be PHI.
"""

from __future__ import annotations


class TrustMemError(Exception):
    """Base class of every error raised by langgraph-trustmem."""


class ConfigurationError(TrustMemError, ValueError):
    """The library was started with missing or invalid settings."""


class MissingKeyError(ConfigurationError):
    """Real service URLs were configured but no encryption key was given."""


class WrongKeyError(ConfigurationError):
    """The key does not open this database: it was set up with another one.
    (Without this check another key finds nothing and the database reads
    as empty.)"""


class InvalidKeyError(ConfigurationError):
    """An encryption key is not 32 bytes of base64."""


class SetupRequired(ConfigurationError):
    """The schema or the vector index is not there: call ``setup()`` once
    (the saver's and the store's) before use."""


class InvalidInputError(TrustMemError, ValueError):
    """A value or config the library cannot store faithfully: a non-finite
    number, nesting too deep, text that is not valid Unicode, a memory that
    is not a dict, a thread id or namespace of the wrong type or with NUL.
    Nothing already stored is touched; the message names no content."""


class ServiceUnavailable(TrustMemError, ConnectionError):
    """PostgreSQL (or another service) cannot be used: unreachable, refused
    the credentials, or has no such database. Says which and what to check,
    never a credential. ``service`` and ``reason`` say the same for code."""

    def __init__(self, message: str, *, service: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.service = service
        self.reason = reason


class TamperedDataError(TrustMemError):
    """A stored value failed authentication: plaintext, altered, moved or
    encrypted under a key this process does not hold."""


class UnknownLevelError(TrustMemError, ValueError):
    """A trust level name is not on the configured ladder."""


class TrustViolation(TrustMemError):
    """Base class of refusals made to keep the session trust invariant."""


class TrustEscalationError(TrustViolation):
    """A run asked for a higher trust level than its session holds.

    A session's level is fixed when the thread starts and can only go down.
    """


class SessionTerminated(TrustViolation):
    """The session was ended because less trusted content entered it under
    the ``terminate`` policy; the thread refuses further runs."""


class BranchAccessDenied(TrustViolation):
    """A sealed branch was asked for at a level below the one it holds."""


class ContentAboveLevel(TrustViolation):
    """A checkpoint holds content above its branch's level (a trust gate
    must clean the state before it is saved, at the level of the graph that
    holds it)."""


class StaleBranch(TrustViolation):
    """A run continued from a checkpoint on a sealed branch (the session
    forked meanwhile); restart it from the thread's head."""


class ConcurrentRunError(TrustMemError):
    """Another run advanced the thread while this one ran (one run at a time
    per thread): nothing of this run's step was stored. Run it again on the
    thread's latest state."""


class ThreadOwnershipError(TrustViolation, PermissionError):
    """A run or read named a thread that belongs to another user (or gave no
    ``configurable.user_id`` for a thread that has an owner). The message
    names neither the thread nor any user."""


class ThreadExists(TrustMemError, ValueError):
    """copy_thread was asked to copy onto a thread that already exists."""


class TenantIsolationError(TrustViolation):
    """A graph run reached for another user's memories (the namespace
    template keyed on ``configurable.user_id`` is enforced)."""


class OverwriteRefused(TrustViolation):
    """A writer below a memory's level tried to overwrite it."""


class ConfirmationRequired(TrustViolation):
    """An in-conversation write to a high-stakes namespace needs a trusted
    source's confirmation (the remember tool routes it to a human)."""


class ImportSourceError(TrustMemError):
    """The source database cannot be imported from: unreachable, not a
    stock PostgresSaver/PostgresStore database, or a schema older than the
    stock classes read. Says what to check; never names a credential, an
    id or any content."""


class SecretRejected(TrustMemError, ValueError):
    """A value to be remembered contains a secret; the message names the kind
    of secret, never its value."""

    def __init__(self, kinds: list[str] | tuple[str, ...]):
        self.kinds = tuple(sorted(set(kinds)))
        super().__init__(
            "refused to store a value containing a secret ("
            + ", ".join(self.kinds)
            + "); store a reference to a secret manager instead"
        )


class TamperedDataWarning(UserWarning):
    """A stored row failed authentication and was left out of a listing or
    search (the rest of the result is served). It names no content."""


__all__ = [
    "WrongKeyError",
    "ImportSourceError",
    "ConcurrentRunError",
    "InvalidInputError",
    "SetupRequired",
    "ServiceUnavailable",
    "TamperedDataWarning",
    "BranchAccessDenied",
    "ContentAboveLevel",
    "StaleBranch",
    "ThreadExists",
    "ThreadOwnershipError",
    "ConfirmationRequired",
    "OverwriteRefused",
    "TenantIsolationError",
    "ConfigurationError",
    "InvalidKeyError",
    "MissingKeyError",
    "SecretRejected",
    "SessionTerminated",
    "TamperedDataError",
    "TrustEscalationError",
    "TrustMemError",
    "TrustViolation",
    "UnknownLevelError",
]
