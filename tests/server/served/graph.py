"""The graph the test server serves: ``create_trust_agent`` with a scripted
model (offline) and a tool nobody declared trusted. A graph factory, so the
agent gets the server's store (remember and recall)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph_sdk.runtime import ServerRuntime

from langgraph_trustmem.demo import ScriptedChatModel
from langgraph_trustmem.nodes import create_trust_agent


@tool
def read_email() -> str:
    """Read the newest email (outside content)."""
    return "FWD: cheap flights, click here to claim your prize"


def rules(messages: list[Any]) -> AIMessage:
    last = messages[-1]
    if isinstance(last, HumanMessage):
        text = str(last.content)
        if text.lower().startswith("remember:"):
            args = {"content": text.split(":", 1)[1].strip(), "category": "health", "key": "medication"}
            return AIMessage("", tool_calls=[{"name": "remember", "args": args, "id": "call-remember"}])
        if "email" in text.lower():
            return AIMessage("", tool_calls=[{"name": "read_email", "args": {}, "id": "call-email"}])
    if isinstance(last, ToolMessage):
        return AIMessage("Stored." if last.name == "remember" else "That email is a promotion.")
    return AIMessage("Noted.")


model = ScriptedChatModel(respond=rules)


def graph(runtime: ServerRuntime):
    return create_trust_agent(model, [read_email], checkpointer=None, store=runtime.store)
