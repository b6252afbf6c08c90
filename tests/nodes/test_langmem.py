"""langmem against TrustStore: its manage/search memory tools inside a
trust agent, and its memory store manager, keep every memory labelled at
the session's level, searchable only at or above it, and still pass the
store's secret guard."""

from __future__ import annotations

import json
import uuid

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.func import entrypoint
from langmem import create_manage_memory_tool, create_memory_store_manager, create_search_memory_tool

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.demo import ScriptedChatModel
from langgraph_trustmem.nodes import SESSION, create_trust_agent

NS = ("memories", "{user_id}")
FACT = "The patient prefers morning appointments."
SECRET = "AKIAZ7VRSQ5TJNNW2M4Q is the clinic's AWS access key"  # not AWS's documentation example (AKIAIOSFODNN7EXAMPLE), which passes


@pytest.fixture
def saver(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as s:
        yield s


def call(name: str, **args) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"c-{uuid.uuid4().hex[:8]}"}])


def rules(messages):
    last = messages[-1]
    if isinstance(last, ToolMessage):
        return AIMessage(f"Done: {str(last.content)[:200]}")
    said = str(last.content)
    if said.startswith("remember "):
        return call("manage_memory", action="create", content=said[len("remember ") :])
    if said.startswith("search "):
        return call("search_memory", query=said[len("search ") :])
    return AIMessage("ok")


def agent(saver, store, model):
    tools = [create_manage_memory_tool(namespace=NS), create_search_memory_tool(namespace=NS)]
    return create_trust_agent(
        model,
        tools,
        checkpointer=saver,
        store=store,
        remember=False,
        # both only touch the session's own memories, at its level
        tool_levels={"manage_memory": SESSION, "search_memory": SESSION},
    )


def session(user: str, trust: str) -> dict:
    return {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": trust}}


def tool_results(out) -> list[str]:
    return [str(m.content) for m in out["messages"] if isinstance(m, ToolMessage)]


def test_langmem_tools_keep_memories_at_the_session_level(saver, store, user):
    model = ScriptedChatModel(respond=rules)
    graph = agent(saver, store, model)
    graph.invoke({"messages": [HumanMessage(f"remember {FACT}")]}, session(user, "personal"))
    stored = store.bound("sensitive").search(("memories", user))
    assert [i.value["content"] for i in stored] == [FACT]
    assert stored[0].label.level == "personal"

    found = graph.invoke({"messages": [HumanMessage("search morning appointments")]}, session(user, "personal"))
    assert FACT in json.dumps(tool_results(found))
    # a public session's search never reaches the personal memory
    public = graph.invoke({"messages": [HumanMessage("search morning appointments")]}, session(user, "public"))
    assert FACT not in json.dumps(tool_results(public))
    # nor does another user's
    other = graph.invoke(
        {"messages": [HumanMessage("search morning appointments")]}, session(f"{user}-b", "personal")
    )
    assert FACT not in json.dumps(tool_results(other))


def test_langmem_tools_pass_the_secret_guard(saver, store, user):
    """The store's typed refusal comes back to the model as the tool's
    result: it names the kind of secret, never its value, nothing is stored
    and the thread goes on."""
    model = ScriptedChatModel(respond=rules)
    graph = agent(saver, store, model)
    cfg = session(user, "personal")
    out = graph.invoke({"messages": [HumanMessage(f"remember {SECRET}")]}, cfg)
    result = tool_results(out)[0]
    assert "secret" in result and "AKIA" not in result
    assert store.bound("sensitive").search(("memories", user)) == []
    out = graph.invoke({"messages": [HumanMessage(f"remember {FACT}")]}, cfg)
    assert out["messages"][-1].content.startswith("Done")
    assert [i.value["content"] for i in store.bound("sensitive").search(("memories", user))] == [FACT]


def test_langmem_memory_store_manager_writes_labelled_memories(saver, store, user):
    def extract(messages):
        text = " ".join(str(m.content) for m in messages)
        if "Generate JSONPatches" in text and FACT in text:
            # the manager shows the existing memory: patch it
            doc = next(line for line in text.splitlines() if FACT in line)
            doc_id = json.loads(doc[doc.index("{") :])["json_doc_id"] if "json_doc_id" in doc else None
            if doc_id is not None:
                patch = [{"op": "replace", "path": "/content", "value": "Afternoons suit the patient now."}]
                return call("PatchDoc", json_doc_id=doc_id, planned_edits="update", patches=patch)
        return call("Memory", content=FACT)

    model = ScriptedChatModel(respond=extract)
    manager = create_memory_store_manager(model, namespace=NS)

    @entrypoint(checkpointer=saver, store=store)
    def app(messages: list) -> str:
        manager.invoke({"messages": messages})
        return "ok"

    personal = session(user, "personal")
    app.invoke([{"role": "user", "content": "I prefer morning appointments"}], personal)
    stored = store.bound("sensitive").search(("memories", user))
    assert [i.value["content"]["content"] for i in stored] == [FACT]
    assert stored[0].label.level == "personal"

    # a public session's manager is shown none of the personal memories
    model.calls.clear()
    app.invoke([{"role": "user", "content": "I like tea"}], session(user, "public"))
    assert model.calls and all(FACT not in " ".join(str(m.content) for m in c) for c in model.calls)
    public_items = [i for i in store.bound("sensitive").search(("memories", user)) if i.label.level == "public"]
    assert len(public_items) == 1  # its own memory, at its own level
