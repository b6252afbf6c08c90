"""The quickstart scenario, runnable offline: ``trustmem demo``.

A personal session remembers the user's preferred airport; a later session
recalls it and the model repeats it; an email from an untrusted tool
arrives, and the session forks. A scripted model stands in for a provider
so the demo needs no network and no key.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from pydantic import Field

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

    def _generate(
        self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
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


@tool
def read_email() -> str:
    """Read the newest email (an outside source nobody declared trusted)."""
    return "FWD: cheap flights, click here to claim your prize"


def agent_rules(messages: list[Any]) -> AIMessage:
    """The scripted model of the demo: remembers when told to, reads email
    when asked, and repeats what its context holds."""
    last = messages[-1]
    said = last.content if isinstance(last.content, str) else ""
    if isinstance(last, HumanMessage) and said.lower().startswith("remember:"):
        fact = said.split(":", 1)[1].strip()
        args = {"content": fact, "category": "preferences", "key": "airport"}
        return AIMessage("", tool_calls=[{"name": "remember", "args": args, "id": "call-remember"}])
    if isinstance(last, HumanMessage) and "email" in said.lower():
        return AIMessage("", tool_calls=[{"name": "read_email", "args": {}, "id": "call-email"}])
    if isinstance(last, ToolMessage):
        if last.name == "remember":
            return AIMessage("Noted for next time.")
        return AIMessage("That email looks like a promotion; I did not act on it.")
    return scripted_model(messages)


def run(mem: Any, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Run the quickstart scenario on an opened TrustMem; returns what happened."""
    from langgraph_trustmem.nodes.agent import create_trust_agent  # noqa: PLC0415

    saver = mem.checkpointer
    model = ScriptedChatModel(respond=agent_rules)
    agent = create_trust_agent(model, [read_email], checkpointer=saver, store=mem.store)
    user = f"demo-user-{uuid.uuid4().hex[:6]}"
    monday = {"configurable": {"thread_id": f"monday-{user}", "user_id": user, "trust": "personal"}}
    agent.invoke({"messages": [HumanMessage("Remember: my preferred airport is IEH.")]}, monday)
    if mem.store is not None:
        item = mem.store.bound("personal").get(("memories", user, "preferences"), "airport")
        say(f'1. Remembered in a personal session: "{item.value["text"]}"')
        say(f"   stored at level '{item.label.level}', source '{item.label.source}', encrypted at rest")
    thread_id = f"thursday-{user}"
    thursday = {"configurable": {"thread_id": thread_id, "user_id": user, "trust": "personal"}}
    thread = {"configurable": {"thread_id": thread_id, "user_id": user}}
    ask = (
        "Book my flight to Lisbon." if mem.store is not None else "Book my flight to Lisbon, I fly from IEH."
    )
    out = agent.invoke({"messages": [HumanMessage(ask)]}, thursday)
    reply = out["messages"][-1]
    if mem.store is not None:
        say("2. A new personal session recalled it once and the model used it:")
    else:
        say("1-2. Ephemeral mode has no long-term store; the user names the airport in a personal session:")
    taint = label_of(reply)
    say(f'   model: "{reply.content}" -> labelled {taint.level if taint else "?"} (taint of its context)')

    out = agent.invoke({"messages": [HumanMessage("Now check my email.")]}, thread)
    session = saver.session(thread)
    saw = " ".join(str(m.content) for m in model.calls[-1])
    say("3. An email from an undeclared tool (level public) entered the session.")
    say(f"   the session forked: now level '{session.level}' on branch {session.branch}")
    say(f"   the model saw the email without the airport: {'IEH' not in saw and 'cheap flights' in saw}")
    say(f'   model: "{out["messages"][-1].content}"')

    branches = saver.branches(thread_id)
    sealed = list(saver.list_branch(thread_id, 0, level="personal", limit=1))
    head_text = " ".join(str(m.content) for m in agent.get_state(thread).values["messages"])
    sealed_text = " ".join(str(m.content) for m in sealed[0].checkpoint["channel_values"]["messages"])
    say("4. Branches:")
    for b in branches:
        state = "head" if b.head else "sealed"
        what = head_text if b.head else sealed_text
        say(f"   branch {b.branch} ({b.level}, {state}): mentions IEH: {'IEH' in what}")
    try:
        agent.invoke({"messages": [HumanMessage("What is my airport?")]}, thursday)
        refused = False
    except TrustEscalationError:
        refused = True
    say(f"5. A later run asking for 'personal' on this thread was refused: {refused}")
    return {
        "thread_id": thread_id,
        "reply": reply.content,
        "session": session,
        "branches": branches,
        "head_mentions_airport": "IEH" in head_text,
        "sealed_mentions_airport": "IEH" in sealed_text,
        "model_saw_airport_with_email": "IEH" in saw,
        "escalation_refused": refused,
    }
