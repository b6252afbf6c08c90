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
