"""The ephemeral saver: same session rules, nothing on disk, nothing after close."""

from __future__ import annotations

import os

import pytest
from langchain_core.messages import HumanMessage

import langgraph_trustmem
from langgraph_trustmem import EphemeralTrustSaver, SessionTerminated, TrustEscalationError, label

from .test_seed_scenario import AIRPORT, build_graph, email_turn, personal_turn, text_of


def test_fork_and_escalation_in_memory():
    saver = EphemeralTrustSaver()
    seen: list = []
    graph = build_graph(saver, seen)
    thread = {"configurable": {"thread_id": "e1"}}
    graph.invoke(personal_turn(), {"configurable": {"thread_id": "e1", "trust": "personal"}})
    graph.invoke(email_turn(), thread)
    assert AIRPORT not in text_of(seen[-1])
    assert AIRPORT not in text_of(graph.get_state(thread).values["messages"])
    for snap in graph.get_state_history(thread):
        assert AIRPORT not in text_of(snap.values.get("messages", []))
    assert [(b.branch, b.level, b.head) for b in saver.branches("e1")] == [
        (0, "personal", False),
        (1, "public", True),
    ]
    sealed = list(saver.list_branch("e1", 0, level="personal"))
    assert any(AIRPORT in text_of(t.checkpoint["channel_values"].get("messages", [])) for t in sealed)
    with pytest.raises(TrustEscalationError):
        graph.invoke(
            {"messages": [HumanMessage("x")]}, {"configurable": {"thread_id": "e1", "trust": "personal"}}
        )


def test_terminate_in_memory():
    saver = EphemeralTrustSaver()
    graph = build_graph(saver, [], policy="terminate")
    graph.invoke(personal_turn(), {"configurable": {"thread_id": "e2", "trust": "personal"}})
    with pytest.raises(SessionTerminated):
        graph.invoke(email_turn(), {"configurable": {"thread_id": "e2"}})
    for tup in saver.list({"configurable": {"thread_id": "e2"}}):
        assert "cheap flights" not in text_of(tup.checkpoint["channel_values"].get("messages", []))
    with pytest.raises(SessionTerminated):
        graph.invoke(
            {"messages": [label(HumanMessage("x"), "personal")]}, {"configurable": {"thread_id": "e2"}}
        )


def test_open_ephemeral_writes_nothing_and_drops_everything(trustmem_home):
    before = sorted(os.listdir(trustmem_home))
    with langgraph_trustmem.open(ephemeral=True) as mem:
        graph = build_graph(mem.checkpointer, [])
        graph.invoke(personal_turn(), {"configurable": {"thread_id": "e3", "trust": "personal"}})
        assert mem.checkpointer.get_tuple({"configurable": {"thread_id": "e3"}}) is not None
        saver = mem.checkpointer
    assert sorted(os.listdir(trustmem_home)) == before == []
    assert not saver.storage and not saver.blobs and not saver.writes
    assert saver.session({"configurable": {"thread_id": "e3"}}) is None
