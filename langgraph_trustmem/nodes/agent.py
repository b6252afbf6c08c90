"""Wiring for agents: one pre-model hook that recalls and gates, and a
prebuilt ReAct agent with both in place.

``create_react_agent`` calls its ``pre_model_hook`` before every model
call, which is exactly where the gate must sit; the hook's update is
persisted, so recalled memories enter the history once.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage, RemoveMessage
from langchain_core.runnables import RunnableConfig

from langgraph_trustmem.nodes.gate import SESSION, make_trust_gate, session_level
from langgraph_trustmem.nodes.recall import make_recall_node
from langgraph_trustmem.nodes.remember import make_remember_tool
from langgraph_trustmem.trust import DEFAULT_LADDER, ChannelPolicy, Ladder, label, label_of


def make_pre_model_hook(
    store: Any = None,
    *,
    tool_levels: Mapping[str, str] | None = None,
    policy: Literal["fork", "terminate"] = "fork",
    namespace: Sequence[str] = ("memories", "{user_id}"),
    limit: int = 5,
    levels: Ladder | None = None,
    recall: bool = True,
    channels: Mapping[str, ChannelPolicy] | None = None,
):
    """Recall (optional) then gate, as one node: memories are injected at the
    session's level, then everything new is labelled and checked (and state
    keys other than messages lowered on a degrade, per ``channels``)."""
    recall_node = make_recall_node(store, namespace=namespace, limit=limit) if recall else None
    gate = make_trust_gate(tool_levels=tool_levels, policy=policy, levels=levels, channels=channels)

    def trust_hook(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        new = recall_node.invoke(state, config).get("messages", []) if recall_node is not None else []
        out = gate({**state, "messages": [*messages, *new]}, config)
        gated = out.pop("messages", [])
        # a recalled memory the gate removes in the same step never enters
        dropped = {m.id for m in gated if isinstance(m, RemoveMessage)}
        new_ids = {m.id for m in new}
        update = [m for m in new if m.id not in dropped]
        update += [m for m in gated if not (isinstance(m, RemoveMessage) and m.id in new_ids)]
        if update:
            out["messages"] = update
        return out

    return trust_hook


def make_post_model_hook(*, levels: Ladder | None = None):
    """Label the model's reply with the highest level of its context (taint)
    as soon as it is written, so the persisted reply says who may see it."""
    ladder = levels or DEFAULT_LADDER

    def taint_hook(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        if not messages or not isinstance(messages[-1], AIMessage) or label_of(messages[-1]) is not None:
            return {}
        context = [lab.level for m in messages[:-1] if (lab := label_of(m)) is not None]
        level = ladder.join(context) if context else session_level(config, ladder)
        reply = messages[-1].model_copy(update={"additional_kwargs": dict(messages[-1].additional_kwargs)})
        return {"messages": [label(reply, level, source="model", ladder=ladder)]}

    return taint_hook


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
    channels: Mapping[str, ChannelPolicy] | None = None,
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
    ladder = getattr(checkpointer, "ladder", None)
    hook = make_pre_model_hook(
        tool_levels=levels,
        policy=policy,
        namespace=namespace,
        recall=store is not None,
        levels=ladder,
        channels=channels,
    )
    with warnings.catch_warnings():  # its successor lives in `langchain`, not a dependency here
        warnings.simplefilter("ignore")
        return create_react_agent(
            model,
            tools,
            checkpointer=checkpointer,
            store=store,
            pre_model_hook=hook,
            post_model_hook=make_post_model_hook(levels=ladder),
            **kwargs,
        )


__all__ = ["create_trust_agent", "make_post_model_hook", "make_pre_model_hook"]
