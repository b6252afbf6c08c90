"""The write-time guard of the long-term store: no secrets in, personal data kept.

* Secrets are refused: :class:`Guard` raises
  :class:`~langgraph_trustmem.errors.SecretRejected`, naming the kinds found and never a
  value. Detection is a maintained rule engine (betterleaks, :mod:`.engine`, with our token
  rules written in its format, :mod:`.rules`) under our own detectors for what memories
  hold and code does not (:mod:`.detectors`: passwords and PINs in prose, card numbers,
  recovery phrases, config lines, detect-secrets' keyword and entropy checks), applied to
  every string a put persists, to field names as context, and to the disguised forms of
  the text (:mod:`.normalize`). Last, the whole memory is read as one document for a
  credential named with a value of its shape beside it, in any phrasing (:mod:`.cues`).
  What every rule passes is scored by a small learned model shipped with the package
  (:mod:`.learned`), for the phrasings no rule names.
* Personal identifiers are kept unless the app opts in to redaction, except those that work
  as credentials (card numbers, SSNs): see :mod:`.pii`.

Detection is a safety net, not a proof: a password given without any cue passes.
"""

from __future__ import annotations

from langgraph_trustmem.guard import detectors as _detectors
from langgraph_trustmem.guard.core import Guard, scan_secrets
from langgraph_trustmem.guard.engine import ENGINE_KINDS, engine_available
from langgraph_trustmem.guard.fields import FIELD_KINDS
from langgraph_trustmem.guard.learned import KIND as LEARNED_KIND
from langgraph_trustmem.guard.pii import DEFAULT_PII, DEFAULT_REDACT, PII_KINDS, redact_pii

#: Every kind name a check can report (besides the names of a guard's extra patterns).
SECRET_KINDS: frozenset[str] = _detectors.SECRET_KINDS | ENGINE_KINDS | FIELD_KINDS | {LEARNED_KIND}

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
