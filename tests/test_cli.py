"""The trustmem command line."""

from __future__ import annotations

import base64

from typer.testing import CliRunner

from langgraph_trustmem.cli import app

runner = CliRunner()


def test_demo_runs_the_quickstart_on_the_embedded_default(trustmem_home):
    result = runner.invoke(app, ["demo"])
    assert result.exit_code == 0, result.output
    assert "forked" in result.output and "The invariant held." in result.output
    assert (trustmem_home / "key").exists()


def test_demo_ephemeral():
    result = runner.invoke(app, ["demo", "--ephemeral"])
    assert result.exit_code == 0, result.output


def test_keygen_prints_a_32_byte_key():
    result = runner.invoke(app, ["keygen"])
    assert len(base64.b64decode(result.output.strip())) == 32


def test_operator_commands_on_the_embedded_default(trustmem_home):
    import json
    import re

    from langchain_core.messages import HumanMessage

    import langgraph_trustmem
    from langgraph_trustmem.demo import build

    with langgraph_trustmem.open(durable=False) as mem:
        graph = build(mem.checkpointer)
        cfg = {"configurable": {"thread_id": "cli-thread", "user_id": "cli-user", "trust": "personal"}}
        graph.invoke({"messages": [HumanMessage("hello")]}, cfg)
        mem.checkpointer.degrade(cfg, "public")
        graph.invoke(
            {"messages": [HumanMessage("again")]},
            {"configurable": {"thread_id": "cli-thread", "user_id": "cli-user"}},
        )
        mem.store.bound("personal").put(("memories", "cli-user"), "k", {"text": "a fact"})

    listed = runner.invoke(app, ["threads", "list"])
    assert listed.exit_code == 0 and "cli-thread" in listed.output and "public" in listed.output
    shown = runner.invoke(app, ["threads", "show", "cli-thread"])
    assert (
        shown.exit_code == 0
        and "branch 0 (personal) sealed" in shown.output
        and "branch 1 (public) head" in shown.output
    )
    assert runner.invoke(app, ["threads", "show", "no-such-thread"]).exit_code == 1

    audit = runner.invoke(app, ["audit", "--tail", "5"])
    assert audit.exit_code == 0 and "chain intact" in audit.output and "write" in audit.output

    migrate = runner.invoke(app, ["migrate"])
    assert migrate.exit_code == 0 and re.search(r"\d+ memories upgraded", migrate.output)

    doctor = runner.invoke(app, ["doctor"])
    assert doctor.exit_code == 0, doctor.output
    assert "reachable" in doctor.output and "intact" in doctor.output

    forgot = runner.invoke(app, ["forget", "cli-user"])
    assert forgot.exit_code == 0
    receipt = json.loads(forgot.output)
    assert receipt["removed"]["memories"] == 1 and receipt["removed"]["threads"] == 1
    assert "cli-user" not in forgot.output
