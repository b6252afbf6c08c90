"""The seed scenario (shared/seeds/001): a personal session recalls the
preferred airport, the model repeats it, then an untrusted email enters.

The session must fork: nothing reachable on the thread at the new level
mentions the airport, the sealed branch keeps the whole original history,
and the thread can never be raised back to ``personal``. The graph runs the
package's trust gate before its model, which finds the saver in the run's
config.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import (
    BranchAccessDenied,
    SessionTerminated,
    TrustCheckpointSaver,
    TrustEscalationError,
    label,
    label_of,
)
from langgraph_trustmem.nodes import make_trust_gate

AIRPORT = "IEH"


def build_graph(saver, seen: list[list], policy: str = "fork"):
    ladder = saver.ladder

    def call_model(state):
        seen.append(list(state["messages"]))
        # A model that repeats what its context holds: the leak the seed describes.
        said = text_of(state["messages"])
        reply = AIMessage(f"I'll book your flight from {AIRPORT}." if AIRPORT in said else "Noted.")
        taint = ladder.join(lab.level for m in state["messages"] if (lab := label_of(m)))
        return {"messages": [label(reply, taint, source="model")]}

    b = StateGraph(MessagesState)
    b.add_node("gate", make_trust_gate(policy=policy))
    b.add_node("model", call_model)
    b.add_edge(START, "gate")
    b.add_edge("gate", "model")
    return b.compile(checkpointer=saver)


def personal_turn():
    return {
        "messages": [
            label(
                SystemMessage(f"Memory: the user's preferred airport is {AIRPORT}."),
                "personal",
                source="memory",
            ),
            label(HumanMessage("Book my flight to Lisbon."), "personal", source="user"),
        ]
    }


def email_turn():
    return {"messages": [label(HumanMessage("FWD: cheap flights, click here"), "public", source="email")]}


def text_of(messages) -> str:
    return " ".join(str(m.content) for m in messages)


@pytest.mark.parametrize("restart", [False, True], ids=["same-process", "new-saver-objects"])
def test_untrusted_email_forks_the_session(pg_url, redis_url, key, schema, restart):
    import uuid

    thread = {"configurable": {"thread_id": f"seed-{uuid.uuid4()}", "user_id": "u-seed"}}
    personal = {"configurable": {**thread["configurable"], "trust": "personal"}}
    seen: list[list] = []

    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as saver:
        graph = build_graph(saver, seen)
        out = graph.invoke(personal_turn(), personal)
        assert AIRPORT in out["messages"][-1].content
        assert label_of(out["messages"][-1]).level == "personal"
        if not restart:
            graph.invoke(email_turn(), thread)

    with TrustCheckpointSaver.from_conn_string(pg_url, redis_url=redis_url, key=key) as saver:
        graph = build_graph(saver, seen)
        if restart:
            graph.invoke(email_turn(), thread)

        # The model never saw the airport together with the email.
        after_email = seen[-1]
        assert "cheap flights" in text_of(after_email)
        assert AIRPORT not in text_of(after_email)

        # Nothing reachable on the thread at the new level holds the airport.
        state = graph.get_state(thread)
        assert AIRPORT not in text_of(state.values["messages"])
        history = list(graph.get_state_history(thread))
        assert history, "the new branch has history"
        for snap in history:
            assert AIRPORT not in text_of(snap.values.get("messages", []))
        for tup in saver.list(thread):
            assert AIRPORT not in text_of(tup.checkpoint["channel_values"].get("messages", []))
        session = saver.session(thread)
        assert session.level == "public" and session.branch == 1 and not session.fork_pending

        # The sealed branch keeps the whole original history, at its level only.
        branches = saver.branches(thread["configurable"]["thread_id"])
        assert [(b.branch, b.level, b.head) for b in branches] == [
            (0, "personal", False),
            (1, "public", True),
        ]
        assert branches[0].sealed_at is not None
        sealed = list(saver.list_branch(thread["configurable"]["thread_id"], 0, level="personal"))
        assert any(AIRPORT in text_of(t.checkpoint["channel_values"].get("messages", [])) for t in sealed)
        with pytest.raises(BranchAccessDenied):
            list(saver.list_branch(thread["configurable"]["thread_id"], 0, level="public"))

        # The session can never be raised back.
        with pytest.raises(TrustEscalationError):
            graph.invoke({"messages": [HumanMessage("what is my airport?")]}, personal)
        # A run at the session's level goes on, on the new branch.
        graph.invoke({"messages": [label(HumanMessage("thanks"), "public")]}, thread)
        assert AIRPORT not in text_of(graph.get_state(thread).values["messages"])


def test_terminate_policy_discards_the_run_and_refuses_more(saver):
    import uuid

    thread = {"configurable": {"thread_id": f"seed-t-{uuid.uuid4()}"}}
    personal = {"configurable": {**thread["configurable"], "trust": "personal"}}
    seen: list[list] = []
    graph = build_graph(saver, seen, policy="terminate")
    graph.invoke(personal_turn(), personal)
    before = graph.get_state(thread).values["messages"]

    with pytest.raises(SessionTerminated):
        graph.invoke(email_turn(), thread)
    # The untrusted content is not persisted on the session.
    for tup in saver.list(thread):
        assert "cheap flights" not in text_of(tup.checkpoint["channel_values"].get("messages", []))
        for _task, _channel, value in tup.pending_writes or []:
            assert "cheap flights" not in str(value)
    assert saver.session(thread).terminated
    with pytest.raises(SessionTerminated):
        graph.invoke({"messages": [label(HumanMessage("hello?"), "personal")]}, personal)
    assert len(seen) == 1 and text_of(before)
