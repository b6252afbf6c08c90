"""The nodes and tools in real graphs: recall once at the session's level,
the gate on tool output, the remember tool's defences, and the seed
scenario end to end through ``create_trust_agent`` (no hand-written state
edits)."""

from __future__ import annotations

import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.types import Command

from langgraph_trustmem import TrustCheckpointSaver, label_of
from langgraph_trustmem.demo import ScriptedChatModel
from langgraph_trustmem.nodes import create_trust_agent, make_recall_node, make_trust_gate

AIRPORT = "IEH"


@pytest.fixture
def saver(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as s:
        yield s


def text(messages) -> str:
    return " ".join(str(m.content) for m in messages)


def call(name: str, **args) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call-{uuid.uuid4().hex[:8]}"}])


def airport_agent_rules(messages):
    """Reads mail when asked, repeats what its context says about airports,
    remembers when told to."""
    last = messages[-1]
    said = text(messages)
    if isinstance(last, HumanMessage) and "check my email" in last.content:
        return call("read_email")
    if isinstance(last, HumanMessage) and last.content.startswith("remember:"):
        category = "limits" if "budget" in last.content else "facts"
        return call("remember", content=last.content[len("remember:") :].strip(), category=category, key="k1")
    if isinstance(last, ToolMessage):
        return AIMessage(f"Done: {last.content[:60]}")
    if AIRPORT in said:
        return AIMessage(f"Booked from your preferred airport {AIRPORT}.")
    return AIMessage("Which airport should I book from?")


@tool
def read_email() -> str:
    """Read the newest email."""
    return "FWD: cheap flights!!! click http://example.invalid to claim"


def test_seed_scenario_through_the_real_nodes(saver, store, user):
    top = store.bound("sensitive")
    top.put(
        ("memories", user, "facts"),
        "airport",
        {"text": f"The user's preferred airport is {AIRPORT}."},
        level="personal",
    )
    model = ScriptedChatModel(respond=airport_agent_rules)
    agent = create_trust_agent(
        model, [read_email], checkpointer=saver, store=store, namespace=("memories", user, "facts")
    )
    thread = str(uuid.uuid4())
    personal = {"configurable": {"thread_id": thread, "user_id": user, "trust": "personal"}}

    out = agent.invoke(
        {"messages": [HumanMessage("Book my flight to Lisbon, which airport do I fly from?")]}, personal
    )
    assert AIRPORT in out["messages"][-1].content
    assert label_of(out["messages"][-1]).level == "personal"  # tainted by the recalled memory
    recalled = [m for m in out["messages"] if isinstance(m, SystemMessage)]
    assert len(recalled) == 1 and label_of(recalled[0]).source == "memory"

    out = agent.invoke(
        {"messages": [HumanMessage("check my email please")]}, {"configurable": {**personal["configurable"]}}
    )
    # the email came from an undeclared tool: the session forked before the model saw it
    session = saver.session(personal)
    assert session.level == "public" and session.branch == 1
    after_email = model.calls[-1]
    assert "cheap flights" in text(after_email) and AIRPORT not in text(after_email)
    for snap in agent.get_state_history({"configurable": {"thread_id": thread, "user_id": user}}):
        assert AIRPORT not in text(snap.values.get("messages", []))
    sealed = list(saver.list_branch(thread, 0, level="personal"))
    assert any(AIRPORT in text(t.checkpoint["channel_values"].get("messages", [])) for t in sealed)
    # every model call: nothing above the session's level beside less trusted content
    for inputs in model.calls:
        levels = {label_of(m).level for m in inputs if label_of(m)}
        assert not ({"personal", "sensitive"} & levels and "cheap flights" in text(inputs))


def test_the_block_holds_the_turns_memories_and_is_written_only_when_they_change(saver, store, user):
    top = store.bound("sensitive")
    ns = ("memories", user)
    top.put(ns, "diet", {"text": "The user is vegetarian."}, level="internal")
    top.put(ns, "sister", {"text": "The user's sister lives in Porto and visits monthly."}, level="personal")
    model = ScriptedChatModel(respond=lambda ms: AIMessage("ok"))

    b = StateGraph(MessagesState)
    b.add_node("recall", make_recall_node(namespace=("memories", "{user_id}")))
    b.add_node("gate", make_trust_gate())
    b.add_node("model", lambda s: {"messages": [model.invoke(s["messages"])]})
    b.add_edge(START, "recall")
    b.add_edge("recall", "gate")
    b.add_edge("gate", "model")
    graph = b.compile(checkpointer=saver, store=store)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}}

    def turn(q: str) -> list:
        """The recall node's writes for this turn."""
        steps = list(graph.stream({"messages": [HumanMessage(q)]}, cfg, stream_mode="updates"))
        return [m for step in steps for m in ((step.get("recall") or {}).get("messages") or [])]

    def block() -> list:
        return [m for m in graph.get_state(cfg).values["messages"] if isinstance(m, SystemMessage)]

    assert turn("what should I cook for dinner, vegetarian?")
    assert [m.content for m in block()] == ["Memory: The user is vegetarian."]
    assert label_of(block()[0]).level == "internal"  # only the diet: the block is no higher than it
    # the same memories for the next turns: no write at all
    assert turn("any vegetarian dessert?") == [] and turn("vegetarian lunch?") == []
    # another topic: the block now holds the sister, not the diet, at her level
    assert turn("when does my sister from Porto visit?")
    assert [m.content for m in block()] == ["Memory: The user's sister lives in Porto and visits monthly."]
    assert label_of(block()[0]).level == "personal"
    assert "The user is vegetarian." not in text(model.calls[-1])
    # a changed memory: the block is rewritten in place with the new version
    top.put(ns, "diet", {"text": "The user is vegan now, vegetarian before."}, level="internal")
    assert turn("vegetarian snack?")
    history = graph.get_state(cfg).values["messages"]
    assert len(block()) == 1 and history[0] is not None and history[0].id == "trustmem-memories"
    assert history[0].content == "Memory: The user is vegan now, vegetarian before."
    # nothing to recall any more: the block leaves the history
    top.delete(ns, "diet")
    top.delete(ns, "sister")
    turn("vegetarian supper?")
    assert block() == [] and "Memory:" not in text(model.calls[-1])
    # every model call ended on the user's turn, with no system message after the first
    for call in model.calls:
        assert isinstance(call[-1], HumanMessage) and label_of(call[-1]).source == "user"
        assert all(not isinstance(m, SystemMessage) for m in call[1:])
    # every reply the block outlived was labelled before the block changed:
    # none is left for the gate to label from a block it never saw
    replies = [m for m in graph.get_state(cfg).values["messages"] if isinstance(m, AIMessage)]
    assert all(label_of(m) is not None and label_of(m).level == "personal" for m in replies[:-1])
    # a public session recalls nothing above public
    top.put(ns, "diet", {"text": "The user is vegetarian."}, level="internal")
    public = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user}}
    graph.invoke({"messages": [HumanMessage("vegetarian?")]}, public)
    assert not [m for m in graph.get_state(public).values["messages"] if isinstance(m, SystemMessage)]


def test_remember_tool_stores_refuses_secrets_and_asks_a_human_for_limits(saver, store, user):
    model = ScriptedChatModel(respond=airport_agent_rules)
    agent = create_trust_agent(model, [], checkpointer=saver, store=store)
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}}

    agent.invoke({"messages": [HumanMessage("remember: I take metformin every morning")]}, cfg)
    item = store.bound("personal").get(("memories", user, "facts"), "k1")
    assert item.value["text"] == "I take metformin every morning"
    assert item.label.level == "personal" and item.label.source == "tool:remember"
    assert saver.session(cfg).level == "personal"  # the tool's own report does not degrade the session

    agent.invoke({"messages": [HumanMessage("remember: my password is hunter2-Blue!")]}, cfg)
    tool_reply = [m for m in agent.get_state(cfg).values["messages"] if isinstance(m, ToolMessage)][-1]
    assert (
        tool_reply.content.startswith("Not stored: it contains a secret")
        and "hunter2" not in tool_reply.content
    )
    assert store.bound("personal").get(("memories", user, "facts"), "k1").value["text"].startswith("I take")

    # "the budget is $10M" said in a chat is not stored without a person confirming
    agent.invoke({"messages": [HumanMessage("remember: the budget is $10M")]}, cfg)
    state = agent.get_state(cfg)
    assert state.interrupts and state.interrupts[0].value["type"] == "confirm_memory"
    assert store.bound("personal").get(("memories", user, "limits"), "k1") is None
    agent.invoke(Command(resume={"approved": False}), cfg)
    assert store.bound("personal").get(("memories", user, "limits"), "k1") is None
    agent.invoke({"messages": [HumanMessage("remember: the budget is $2000")]}, cfg)
    agent.invoke(Command(resume={"approved": True}), cfg)
    assert (
        store.bound("personal").get(("memories", user, "limits"), "k1").value["text"] == "the budget is $2000"
    )


def test_terminate_policy_in_the_agent(saver, store, user):
    model = ScriptedChatModel(respond=airport_agent_rules)
    agent = create_trust_agent(model, [read_email], checkpointer=saver, store=store, policy="terminate")
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}}
    agent.invoke({"messages": [HumanMessage("hello")]}, cfg)
    from langgraph_trustmem import SessionTerminated

    with pytest.raises(SessionTerminated):
        agent.invoke({"messages": [HumanMessage("check my email please")]}, cfg)
    assert all("cheap flights" not in text(call) for call in model.calls)
    assert saver.session(cfg).terminated


def test_langchain_create_agent_with_the_trust_middleware(saver, store, user):
    from langchain.agents import create_agent

    from langgraph_trustmem.nodes.middleware import TrustMiddleware

    store.bound("sensitive").put(("memories", user), "airport", {"text": f"Preferred airport: {AIRPORT}."},
                                 level="personal")
    model = ScriptedChatModel(respond=airport_agent_rules)
    agent = create_agent(model, tools=[read_email], middleware=[TrustMiddleware()], checkpointer=saver, store=store)
    thread = str(uuid.uuid4())
    cfg = {"configurable": {"thread_id": thread, "user_id": user, "trust": "personal"}}
    out = agent.invoke({"messages": [HumanMessage("which airport do I fly from?")]}, cfg)
    assert AIRPORT in out["messages"][-1].content and label_of(out["messages"][-1]).level == "personal"
    agent.invoke({"messages": [HumanMessage("check my email please")]}, {"configurable": {"thread_id": thread, "user_id": user}})
    assert saver.session(cfg).level == "public"
    assert "cheap flights" in text(model.calls[-1]) and AIRPORT not in text(model.calls[-1])
