"""open()/aopen() on the embedded default and on URLs."""

from __future__ import annotations

import stat

import pytest
from langchain_core.messages import HumanMessage

import langgraph_trustmem
from langgraph_trustmem import MissingKeyError

from .checkpoint.test_saver import chat_graph


def test_embedded_default_creates_a_private_key_and_survives_restart(trustmem_home):
    config = {"configurable": {"thread_id": "r1", "user_id": "u1", "trust": "personal"}}
    with langgraph_trustmem.open(durable=False) as mem:
        assert mem.postgres is not None
        chat_graph(mem.checkpointer).invoke({"messages": [HumanMessage("remember me")]}, config)
    key = trustmem_home / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    # a new process-like start on the same home finds the thread
    with langgraph_trustmem.open(durable=False) as mem:
        state = chat_graph(mem.checkpointer).get_state(config)
        assert [m.content for m in state.values["messages"]] == ["remember me", "echo 1"]
        receipt = mem.forget("u1")
        assert receipt["removed"]["threads"] == 1 and "u1" not in str(receipt)
        assert mem.checkpointer.get_tuple(config) is None


async def test_aopen_on_urls(pg_url, redis_url, key, schema, monkeypatch):
    monkeypatch.setenv("TRUSTMEM_POSTGRES_URL", pg_url)
    monkeypatch.setenv("TRUSTMEM_REDIS_URL", redis_url)
    monkeypatch.setenv("TRUSTMEM_KEY", key)
    async with langgraph_trustmem.aopen() as mem:
        assert mem.postgres is None
        out = await chat_graph(mem.checkpointer).ainvoke(
            {"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": "r2-async"}}
        )
        assert out["messages"][-1].content == "echo 1"


def test_urls_without_a_key_refuse(pg_url, monkeypatch):
    monkeypatch.setenv("TRUSTMEM_POSTGRES_URL", pg_url)
    monkeypatch.delenv("TRUSTMEM_KEY", raising=False)
    with pytest.raises(MissingKeyError), langgraph_trustmem.open():
        pass
