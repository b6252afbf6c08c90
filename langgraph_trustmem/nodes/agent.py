"""Wiring for agents: one pre-model hook that recalls and gates, and a
prebuilt ReAct agent with both in place.

``create_react_agent`` calls its ``pre_model_hook`` before every model
call, which is exactly where the gate must sit; the hook's update is
persisted, so recalled memories enter the history once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import RemoveMessage
from langchain_core.runnables import RunnableConfig

from langgraph_trustmem.nodes.gate import SESSION, make_trust_gate
from langgraph_trustmem.nodes.recall import make_recall_node
from langgraph_trustmem.nodes.remember import make_remember_tool
from langgraph_trustmem.trust import Ladder


def make_pre_model_hook(
    store: Any = None,
    *,
    tool_levels: Mapping[str, str] | None = None,
    policy: Literal["fork", "terminate"] = "fork",
    namespace: Sequence[str] = ("memories", "{user_id}"),
    limit: int = 5,
    levels: Ladder | None = None,
    recall: bool = True,
):
    """Recall (optional) then gate, as one node: memories are injected at the
    session's level, then everything new is labelled and checked."""
    recall_node = make_recall_node(store, namespace=namespace, limit=limit) if recall else None
    gate = make_trust_gate(tool_levels=tool_levels, policy=policy, levels=levels)

    def trust_hook(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        new = recall_node.invoke(state, config).get("messages", []) if recall_node is not None else []
        gated = gate({**state, "messages": [*messages, *new]}, config).get("messages", [])
        # a recalled memory the gate removes in the same step never enters
        dropped = {m.id for m in gated if isinstance(m, RemoveMessage)}
        new_ids = {m.id for m in new}
        update = [m for m in new if m.id not in dropped]
        update += [m for m in gated if not (isinstance(m, RemoveMessage) and m.id in new_ids)]
        return {"messages": update} if update else {}

    return trust_hook


def create_trust_agent(
    model: Any,
    tools: Sequence[Any] = (),
    *,
    checkpointer: Any,
    store: Any = None,
    tool_levels: Mapping[str, str] | None = None,
    policy: Literal["fork", "terminate"] = "fork",
    namespace: Sequence[str] = ("memories", "{user_id}"),
    remember: bool = True,
    **kwargs: Any,
):
    """``create_react_agent`` with the trust hook before every model call and
    (if ``remember``) the remember tool, whose results are trusted."""
    from langgraph.prebuilt import create_react_agent

    tools = list(tools)
    levels = dict(tool_levels or {})
    if remember and store is not None:
        tools.append(make_remember_tool(namespace=namespace))
        levels.setdefault("remember", SESSION)  # it reports on the session's own write
    hook = make_pre_model_hook(tool_levels=levels, policy=policy, namespace=namespace, recall=store is not None)
    return create_react_agent(
        model, tools, checkpointer=checkpointer, store=store, pre_model_hook=hook, **kwargs
    )


__all__ = ["create_trust_agent", "make_pre_model_hook"]
