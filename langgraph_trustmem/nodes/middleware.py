"""The same wiring as agent middleware, for LangChain's ``create_agent``.

``TrustMiddleware`` runs the recall and the gate before every model call
and labels each reply with the taint of its context, exactly like the
pre- and post-model hooks of ``create_trust_agent``. Needs the optional
``langchain`` package (``pip install "langgraph-trustmem[agents]"``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware
from langgraph.config import get_config

from langgraph_trustmem.nodes.agent import make_post_model_hook, make_pre_model_hook
from langgraph_trustmem.trust import Ladder


class TrustMiddleware(AgentMiddleware):
    """Recall at the session's level, gate before every model call, taint
    after it. ``tool_levels`` maps tool names to the level of what they
    return (or "session" for tools that report on the session's own
    actions); undeclared tools are untrusted."""

    def __init__(
        self,
        *,
        store: Any = None,
        tool_levels: Mapping[str, str] | None = None,
        policy: Literal["fork", "terminate"] = "fork",
        namespace: Sequence[str] = ("memories", "{user_id}"),
        limit: int = 5,
        recall: bool = True,
        levels: Ladder | None = None,
    ) -> None:
        super().__init__()
        self._pre = make_pre_model_hook(
            store,
            tool_levels=tool_levels,
            policy=policy,
            namespace=namespace,
            limit=limit,
            levels=levels,
            recall=recall,
        )
        self._post = make_post_model_hook(levels=levels)

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self._pre(state, get_config()) or None

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self._post(state, get_config()) or None


__all__ = ["TrustMiddleware"]
