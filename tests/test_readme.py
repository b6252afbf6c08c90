"""The README's "Use it" examples run as written: PostgresSaver-style
connections, a pooled saver with Redis, and the embedded default with an
agent. Only the names the README leaves to the reader (the database URL,
the graph builder, the model and tools) are given here."""

from __future__ import annotations

import re
import tempfile
import uuid
from pathlib import Path

import psycopg
import pytest
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem.demo import ScriptedChatModel

README = Path(__file__).parent.parent / "README.md"


def use_it_blocks() -> list[str]:
    text = README.read_text()
    section = text[text.index("## Use it\n") : text.index("\n## ", text.index("## Use it\n") + 1)]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_use_it_section_has_the_three_examples():
    blocks = use_it_blocks()
    assert len(blocks) == 3
    assert "Connection.connect(DB_URI, autocommit=True, prepare_threshold=0, row_factory=dict_row)" in blocks[0]


def builder() -> StateGraph:
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [AIMessage(f"echo: {s['messages'][-1].content}")]})
    b.add_edge(START, "model")
    return b


@tool
def calendar() -> str:
    """The user's calendar."""
    return "Flight to Lisbon on Friday."


def agent_rules(messages):
    if isinstance(messages[-1], AIMessage) or messages[-1].type == "tool":
        return AIMessage("Booked.")
    return AIMessage("", tool_calls=[{"name": "calendar", "args": {}, "id": "c-1"}])


@pytest.fixture
def readme_env(monkeypatch, key, pg):
    monkeypatch.setenv("TRUSTMEM_KEY", key)
    # a database of its own: the README calls setup() on what it is given
    name = f"readme_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return pg.url_for(name)


def test_the_drop_in_example(readme_env, capsys):
    ns = {"DB_URI": readme_env, "builder": builder()}
    exec(use_it_blocks()[0], ns)
    assert capsys.readouterr().out.strip() == "echo: hi"
    # the thread is sealed and belongs to u1
    with psycopg.connect(readme_env) as conn:
        dump = conn.execute("SELECT string_agg(encode(blob, 'escape'), '') FROM trustmem_blobs").fetchone()[0]
    assert "echo: hi" not in dump
    from langgraph_trustmem import TrustCheckpointSaver

    with TrustCheckpointSaver.from_conn_string(readme_env) as saver:
        assert saver.session(ns["config"]).level == "personal"


def test_the_pooled_example_with_redis(readme_env, redis_url):
    ns = {"DB_URI": readme_env, "REDIS_URI": redis_url, "builder": builder()}
    exec(use_it_blocks()[1], ns)
    from langgraph_trustmem import TrustCheckpointSaver

    with TrustCheckpointSaver.from_conn_string(readme_env) as saver:
        got = saver.get_tuple({"configurable": {"thread_id": "t2", "user_id": "u1"}})
    assert got.checkpoint["channel_values"]["messages"][-1].content == "echo: hi"


def test_the_embedded_agent_example(monkeypatch, workdir):
    home = Path(tempfile.mkdtemp(prefix="readme-", dir=workdir))
    home.chmod(0o755)
    monkeypatch.setenv("TRUSTMEM_HOME", str(home))
    for var in ("TRUSTMEM_POSTGRES_URL", "TRUSTMEM_REDIS_URL", "TRUSTMEM_QDRANT_URL", "TRUSTMEM_KEY"):
        monkeypatch.delenv(var, raising=False)
    model = ScriptedChatModel(respond=agent_rules)
    ns = {"model": model, "tools": [calendar]}
    exec(use_it_blocks()[2], ns)
    assert model.calls and model.calls[0][0].type == "system"
    assert ns["receipt"]["removed"]["threads"] == 1
