"""Wiring for agents: one pre-model hook that recalls and gates, and a
prebuilt ReAct agent with both in place.

``create_react_agent`` calls its ``pre_model_hook`` before every model
call, which is exactly where the gate must sit; the hook's update is
persisted, so the memory block is rewritten only when the turn's relevant
memories change (a tool loop within one turn writes nothing more).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from langchain_core.messages import AIMessage, RemoveMessage, SystemMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages

from langgraph_trustmem.errors import (
    ConfirmationRequired,
    InvalidInputError,
    OverwriteRefused,
    SecretRejected,
    TenantIsolationError,
)
from langgraph_trustmem.nodes.gate import SESSION, make_trust_gate, session_level
from langgraph_trustmem.nodes.recall import make_recall_node, model_messages
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
    """Recall (optional) then gate, as one node: the turn's memories are
    given at the session's level, then everything new is labelled and
    checked (and state keys other than messages lowered on a degrade, per
    ``channels``)."""
    recall_node = make_recall_node(store, namespace=namespace, limit=limit) if recall else None
    gate = make_trust_gate(tool_levels=tool_levels, policy=policy, levels=levels, channels=channels)

    def trust_hook(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        messages = list(state.get("messages") or [])
        recalled = recall_node.invoke(state, config).get("messages", []) if recall_node is not None else []
        current = add_messages(messages, recalled) if recalled else messages
        out = gate({**state, "messages": current}, config)
        gated = out.pop("messages", [])
        if _rewrites(recalled):
            # the recall moved messages: the gate's verdict applies to the
            # rewritten list, and a memory it removes never enters
            out["messages"] = [RemoveMessage(id=REMOVE_ALL_MESSAGES), *add_messages(current, gated)]
        elif recalled or gated:
            out["messages"] = [*recalled, *gated]
        return out

    return trust_hook


def _rewrites(update: Sequence[Any]) -> bool:
    return any(isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES for m in update)


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


def model_prompt(prompt: Any = None, *, levels: Ladder | None = None) -> Runnable:
    """An agent's ``prompt`` that gives the model one leading system message
    (the prompt, the conversation's leading system messages and the memory
    block folded together) and the conversation after it. A callable or
    runnable ``prompt`` runs first; its output is folded the same way."""
    ladder = levels or DEFAULT_LADDER

    def fold(messages: Any) -> list[Any]:
        if hasattr(messages, "to_messages"):  # a prompt template's value
            messages = messages.to_messages()
        return model_messages(messages, ladder=ladder)

    if prompt is None or isinstance(prompt, (str, SystemMessage)):

        def with_prompt(state: Any) -> list[Any]:
            messages = state["messages"] if isinstance(state, Mapping) else state.messages
            return model_messages(messages, prompt, ladder=ladder)

        return RunnableLambda(with_prompt, name="Prompt")
    first = prompt if isinstance(prompt, Runnable) else RunnableLambda(prompt)
    return first | RunnableLambda(fold, name="Prompt")


# The store's refusals of what a tool tried to remember: they go back to the
# model as the tool's result (their messages name no content) instead of
# ending the run with an unanswered tool call in the history.
TOOL_REFUSALS: tuple[type[Exception], ...] = (
    SecretRejected,
    OverwriteRefused,
    ConfirmationRequired,
    TenantIsolationError,
    InvalidInputError,
)


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
    prompt: Any = None,
    **kwargs: Any,
):
    """``create_react_agent`` with the trust hook before every model call and
    (if ``remember``) the remember tool, whose results are trusted. The
    model is called with one leading system message (``prompt`` and the
    recalled memories) and the user's turn last, as every provider accepts."""
    from langgraph.prebuilt import ToolNode, create_react_agent  # noqa: PLC0415
    from langgraph.prebuilt.tool_node import ToolInvocationError  # noqa: PLC0415

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
            ToolNode(tools, handle_tool_errors=(ToolInvocationError, *TOOL_REFUSALS)) if tools else [],
            checkpointer=checkpointer,
            store=store,
            pre_model_hook=hook,
            post_model_hook=make_post_model_hook(levels=ladder),
            prompt=model_prompt(prompt, levels=ladder),
            **kwargs,
        )


__all__ = ["TOOL_REFUSALS", "create_trust_agent", "make_post_model_hook", "make_pre_model_hook", "model_prompt"]
