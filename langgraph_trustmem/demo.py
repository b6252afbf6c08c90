"""The quickstart scenario, runnable offline: ``trustmem demo``.

A personal-trust session is told the user's preferred airport, the model
repeats it, an untrusted email arrives, and the session forks. A scripted
model stands in for a provider so the demo needs no network and no key.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem.errors import TrustEscalationError
from langgraph_trustmem.nodes.gate import make_trust_gate
from langgraph_trustmem.trust import label, label_of


class ScriptedChatModel(BaseChatModel):
    """A chat model for demos and tests that answers by a rule (a function of
    the messages it is given) and records every call. It stands in for a
    provider offline; ``bind_tools`` is accepted so prebuilt agents run."""

    respond: Callable[[list[Any]], AIMessage]
    calls: list[list[Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        return self

    def _generate(self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        self.calls.append(list(messages))
        reply = self.respond(list(messages))
        return ChatResult(generations=[ChatGeneration(message=reply)])


def scripted_model(messages: list[Any]) -> AIMessage:
    """Answers like a model whose context holds what it was given."""
    text = " ".join(str(m.content) for m in messages)
    if "IEH" in text:
        return AIMessage("Booked: your flight leaves from IEH, your preferred airport.")
    if "email" in text.lower() or "click" in text.lower():
        return AIMessage("That email looks like a promotion; I did not act on it.")
    return AIMessage("Noted.")


def build(checkpointer: Any, model: Callable[[list[Any]], AIMessage] = scripted_model):
    def call_model(state: MessagesState) -> dict[str, Any]:
        reply = model(state["messages"])
        taint = checkpointer.ladder.join(lab.level for m in state["messages"] if (lab := label_of(m)))
        return {"messages": [label(reply, taint, source="model")]}

    b = StateGraph(MessagesState)
    b.add_node("trust_gate", make_trust_gate(levels=checkpointer.ladder))
    b.add_node("model", call_model)
    b.add_edge(START, "trust_gate")
    b.add_edge("trust_gate", "model")
    return b.compile(checkpointer=checkpointer)


def run(mem: Any, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the scenario on an opened TrustMem; returns what happened."""
    saver = mem.checkpointer
    graph = build(saver)
    thread_id = f"demo-{uuid.uuid4().hex[:8]}"
    personal = {"configurable": {"thread_id": thread_id, "user_id": "demo-user", "trust": "personal"}}
    thread = {"configurable": {"thread_id": thread_id}}

    memory = label(SystemMessage("Memory: the user's preferred airport is IEH."), "personal", source="memory")
    out = graph.invoke({"messages": [memory, HumanMessage("Book my flight to Lisbon.")]}, personal)
    reply = out["messages"][-1]
    say(
        f"1. Session started at level 'personal'; remembered: \"{memory.content}\" (level personal, source memory)"
    )
    say(f'   model: "{reply.content}"  -> labelled {label_of(reply).level} (taint of its context)')

    email = label(HumanMessage("FWD: cheap flights, click here"), "public", source="email")
    out = graph.invoke({"messages": [email]}, thread)
    session = saver.session(thread)
    say("2. An untrusted email (level public) entered the session.")
    say(f"   the session forked: now level '{session.level}' on branch {session.branch}")
    say(f"   model saw only: {[m.content for m in out['messages'][:-1]]}")
    say(f'   model: "{out["messages"][-1].content}"')

    branches = saver.branches(thread_id)
    sealed = list(saver.list_branch(thread_id, 0, level="personal", limit=1))
    head_text = " ".join(str(m.content) for m in graph.get_state(thread).values["messages"])
    sealed_text = " ".join(str(m.content) for m in sealed[0].checkpoint["channel_values"]["messages"])
    say("3. Branches:")
    for b in branches:
        what = head_text if b.head else sealed_text
        state = "head" if b.head else "sealed"
        say(f"   branch {b.branch} ({b.level}, {state}): mentions IEH: {'IEH' in what}")

    try:
        graph.invoke({"messages": [HumanMessage("What is my airport?")]}, personal)
        refused = False
    except TrustEscalationError:
        refused = True
    say(f"4. A later run asking for 'personal' on this thread was refused: {refused}")
    return {
        "thread_id": thread_id,
        "reply": reply.content,
        "session": session,
        "branches": branches,
        "head_mentions_airport": "IEH" in head_text,
        "sealed_mentions_airport": "IEH" in sealed_text,
        "escalation_refused": refused,
    }
