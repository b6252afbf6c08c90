"""The same wiring as agent middleware, for LangChain's ``create_agent``.

``TrustMiddleware`` runs the recall and the gate before every model call
and labels each reply with the taint of its context, exactly like the
pre- and post-model hooks of ``create_trust_agent``. Needs the optional
``langchain`` package (``pip install "langgraph-trustmem[agents]"``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

from langchain.agents.middleware import AgentMiddleware, ModelRequest
from langchain_core.messages import ToolMessage
from langgraph.config import get_config

from langgraph_trustmem.nodes.agent import TOOL_REFUSALS, make_post_model_hook, make_pre_model_hook
from langgraph_trustmem.nodes.recall import model_messages
from langgraph_trustmem.trust import DEFAULT_LADDER, Ladder


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
        self._ladder = levels or DEFAULT_LADDER

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self._pre(state, get_config()) or None

    def after_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self._post(state, get_config()) or None

    def _folded(self, request: ModelRequest) -> ModelRequest:
        """One system message for the model: the agent's and the memories."""
        head = [request.system_message] if request.system_message is not None else []
        messages = model_messages([*head, *request.messages], ladder=self._ladder)
        if messages and messages[0].type == "system":
            return request.override(system_message=messages[0], messages=messages[1:])
        return request.override(messages=messages)

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], Any]) -> Any:
        return handler(self._folded(request))

    def wrap_tool_call(self, request: Any, handler: Callable[[Any], Any]) -> Any:
        try:
            return handler(request)
        except TOOL_REFUSALS as refused:
            return _refusal(request, refused)

    async def awrap_tool_call(self, request: Any, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        try:
            return await handler(request)
        except TOOL_REFUSALS as refused:
            return _refusal(request, refused)

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[Any]]
    ) -> Any:
        return await handler(self._folded(request))


def _refusal(request: Any, refused: Exception) -> ToolMessage:
    """The store's refusal as the tool's result (it names no content)."""
    call = request.tool_call
    return ToolMessage(str(refused), tool_call_id=call["id"], name=call.get("name"), status="error")


__all__ = ["TrustMiddleware"]
