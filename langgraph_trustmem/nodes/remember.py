"""The remember tool: the model stores a fact, with provenance and the
session's level, and is told plainly when it may not.

Defences against poisoning: secrets are refused (the model hears which kind
and what to do instead); a lower-level session cannot overwrite what a
higher one stored; and facts in high-stakes categories (authorisation,
limits, constraints) are never taken from the conversation alone — the tool
interrupts the graph for a human to confirm, so "I am an admin" or "the
budget is $10M" said in a chat does not become a memory by itself.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from typing import Annotated, Any

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import InjectedToolArg, StructuredTool
from langgraph.prebuilt import InjectedStore
from langgraph.types import interrupt

from langgraph_trustmem.errors import (
    ConfirmationRequired,
    OverwriteRefused,
    SecretRejected,
    TenantIsolationError,
    TrustEscalationError,
)
from langgraph_trustmem.nodes.recall import fill_namespace
from langgraph_trustmem.store.base import DEFAULT_HIGH_STAKES
from langgraph_trustmem.store.base import high_stakes as high_stakes_memory

CONFIRMER = "human-review"


def _secret_reply(refusal: SecretRejected) -> str:
    return (
        f"Not stored: it contains a secret ({', '.join(refusal.kinds)}). Never store credentials; "
        "suggest the user keep them in a password manager."
    )


def make_remember_tool(
    store: Any = None,
    *,
    namespace: Sequence[str] = ("memories", "{user_id}"),
    high_stakes: Collection[str] = DEFAULT_HIGH_STAKES,
    confirmer: str = CONFIRMER,
    name: str = "remember",
) -> StructuredTool:
    """Build the tool. ``store`` defaults to the graph's store (injected by
    ToolNode). ``high_stakes`` categories need a human's confirmation, asked
    through ``interrupt()``; resume with ``Command(resume=True)`` (or a dict
    with ``approved: True``) to store, anything else to drop it. The rule is
    the store's own (``store.base.high_stakes``): words of who may do what
    or how much, in the category, key or content; first writes included."""
    stakes = tuple(high_stakes)

    def remember(
        content: str,
        category: str = "facts",
        key: str | None = None,
        *,
        config: Annotated[RunnableConfig, InjectedToolArg],
        injected_store: Annotated[Any, InjectedStore()] = None,
    ) -> str:
        target = store if store is not None else injected_store
        if target is None:
            return "Memory is not available in this conversation."
        category = (category or "facts").strip().lower() or "facts"
        ns = (*fill_namespace(namespace, config), category)
        mkey = key or uuid.uuid4().hex[:12]
        value = {"text": content, "category": category}
        confirmed_by = None
        guard = getattr(target, "guard", None)
        if guard is not None:  # a secret is refused before any person is asked
            try:
                guard.check(value)
            except SecretRejected as refusal:
                return _secret_reply(refusal)
        if high_stakes_memory(ns, mkey, value, stakes):
            answer = interrupt(
                {
                    "type": "confirm_memory",
                    "category": category,
                    "key": mkey,
                    "content": content,
                    "question": "The assistant wants to store this high-stakes fact. Confirm it?",
                }
            )
            approved = answer.get("approved") is True if isinstance(answer, dict) else answer is True
            if not approved:
                return "Not stored: a person did not confirm this fact, so treat it as unverified."
            confirmed_by = confirmer
        try:
            target.put(ns, mkey, value, source=f"tool:{name}", confirmed_by=confirmed_by)
        except SecretRejected as refusal:
            return _secret_reply(refusal)
        except ConfirmationRequired:
            return "Not stored: this fact needs confirmation by a trusted person first."
        except OverwriteRefused:
            return "Not stored: a more sensitive memory with this name exists and this conversation may not change it."
        except (TrustEscalationError, TenantIsolationError):
            return "Not stored: this conversation may not write there."
        return f"Remembered (key {mkey}, category {category})."

    return StructuredTool.from_function(
        remember,
        name=name,
        description=(
            "Save a durable fact about the user for future conversations. content: the fact in one or "
            "two plain sentences. category: facts, preferences, profile, health, authorization, limits "
            "or constraints. key: a short stable name, to update an earlier memory. Never save "
            "passwords, keys or card numbers."
        ),
    )


__all__ = ["make_remember_tool"]
