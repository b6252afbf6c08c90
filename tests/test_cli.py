"""The trustmem command line."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import uuid
from types import SimpleNamespace

import psycopg
import pytest
from typer.testing import CliRunner

from langgraph_trustmem.cli import app
from langgraph_trustmem.crypto import generate_key

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

    forgot = runner.invoke(app, ["forget", "cli-user", "--json"])
    assert forgot.exit_code == 0
    receipt = json.loads(forgot.stdout)
    assert receipt["removed"]["memories"] == 1 and receipt["removed"]["threads"] == 1
    assert "cli-user" not in forgot.output


# -- on configured services (the suite's PostgreSQL, a database per test) ------

LONG_ID = "thread-" + "0123456789abcdef" * 8  # 135 characters: wider than any terminal default


@pytest.fixture
def services(trustmem_home, pg, monkeypatch):
    """TRUSTMEM_POSTGRES_URL and TRUSTMEM_KEY for a fresh database."""
    name = f"cli_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = SimpleNamespace(url=pg.url_for(name), key=generate_key(), pg=pg)
    monkeypatch.setenv("TRUSTMEM_POSTGRES_URL", env.url)
    monkeypatch.setenv("TRUSTMEM_KEY", env.key)
    yield env
    with psycopg.connect(pg.url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _populate(user: str = "ann", thread_id: str = LONG_ID) -> None:
    from langchain_core.messages import HumanMessage

    import langgraph_trustmem
    from langgraph_trustmem.demo import build

    with langgraph_trustmem.open() as mem:
        graph = build(mem.checkpointer)
        cfg = {"configurable": {"thread_id": thread_id, "user_id": user, "trust": "personal"}}
        graph.invoke({"messages": [HumanMessage("hello")]}, cfg)
        mem.store.bound("personal").put(("memories", user), "k", {"text": "a fact"})


def test_every_listing_speaks_json_with_level_names(services):
    _populate()
    listed = runner.invoke(app, ["threads", "list", "--json"])
    assert listed.exit_code == 0, listed.output
    (thread,) = json.loads(listed.stdout)["threads"]
    assert thread["thread_id"] == LONG_ID and thread["level"] == "personal" and thread["checkpoints"] >= 2
    assert set(thread) == {
        "thread_id",
        "level",
        "status",
        "head_branch",
        "checkpoints",
        "created_at",
        "touched_at",
    }

    shown = json.loads(runner.invoke(app, ["threads", "show", LONG_ID, "--json"]).stdout)
    assert shown["level"] == "personal" and shown["branches"][0]["head"] is True
    assert shown["branches"][0]["level"] == "personal" and shown["branches"][0]["checkpoints"] >= 2

    audited = json.loads(runner.invoke(app, ["audit", "--json", "--tail", "5"]).stdout)
    assert audited["chain"]["ok"] is True
    assert {e["action"] for e in audited["events"]} >= {"write"}
    assert all(e["level"] in (None, "public", "internal", "personal", "sensitive") for e in audited["events"])

    doctor = runner.invoke(app, ["doctor", "--json"])
    assert doctor.exit_code == 0, doctor.output
    report = json.loads(doctor.stdout)
    assert report["ok"] is True and {c["status"] for c in report["checks"]} == {"ok"}

    migrated = json.loads(runner.invoke(app, ["migrate", "--json"]).stdout)
    assert migrated == {"upgraded": 0, "schema_version": 1}

    forgot = runner.invoke(app, ["forget", "ann"])  # a table by default
    assert forgot.exit_code == 0 and "erasure receipt" in forgot.stdout and "memories" in forgot.stdout
    again = json.loads(runner.invoke(app, ["forget", "ann", "--json"]).stdout)
    assert set(again) >= {"receipt_id", "started_at", "finished_at", "removed"}


def test_a_piped_listing_shows_ids_in_full(services):
    _populate()
    _populate(thread_id="[bold]not markup[/bold]")
    listed = runner.invoke(app, ["threads", "list"]).stdout
    assert LONG_ID in listed and "[bold]not markup[/bold]" in listed
    # a real pipe, with the terminal width of a narrow terminal in the environment
    env = {**os.environ, "COLUMNS": "80"}
    piped = subprocess.run(
        [sys.executable, "-m", "langgraph_trustmem", "threads", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert piped.returncode == 0, piped.stderr
    assert LONG_ID in piped.stdout
    shown = runner.invoke(app, ["threads", "show", LONG_ID])
    assert shown.exit_code == 0 and "branch 0 (personal) head" in shown.stdout


def test_every_error_says_what_to_do(services, monkeypatch):
    def fails(args: list[str], *needles: str) -> None:
        result = runner.invoke(app, args)
        assert result.exit_code != 0, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert "Traceback" not in result.output
        assert len(result.stderr.strip().splitlines()) <= 1  # one line: cause; remedy
        for needle in needles:
            assert needle in result.output, (needle, result.output)

    monkeypatch.delenv("TRUSTMEM_KEY")
    fails(["doctor"], "TRUSTMEM_KEY", "trustmem keygen")
    fails(["threads", "list"], "TRUSTMEM_KEY", "trustmem keygen")
    doctor = json.loads(runner.invoke(app, ["doctor", "--json"]).stdout)
    assert doctor["ok"] is False and "TRUSTMEM_KEY" in doctor["checks"][-1]["remedy"]
    monkeypatch.setenv("TRUSTMEM_KEY", "not-a-key")
    fails(["audit"], "TRUSTMEM_KEY", "trustmem keygen")
    monkeypatch.setenv("TRUSTMEM_KEY", services.key)
    fails(["threads", "show", "no-such-thread"], "no such thread", "trustmem threads list")
    fails(["import", "--from-postgres", services.pg.url_for("no_such_db_q7"), "--dry-run"], "--from-postgres")
    fails(["import", "--from-postgres", services.url, "--namespace-level", "memories"], "PREFIX=LEVEL")
    monkeypatch.setenv("TRUSTMEM_POSTGRES_URL", "postgresql://nobody:s3cret@/db?host=/nonexistent&port=1")
    result = runner.invoke(app, ["threads", "list"])
    assert (
        result.exit_code == 1 and "TRUSTMEM_POSTGRES_URL" in result.output and "s3cret" not in result.output
    )


def test_doctor_tells_a_wrong_key_from_tampering(services, monkeypatch):
    _populate()
    monkeypatch.setenv("TRUSTMEM_KEY", generate_key())
    wrong = runner.invoke(app, ["doctor"])
    assert wrong.exit_code == 1 and "wrong key" in wrong.stdout and "TAMPERED" not in wrong.stdout
    assert "TRUSTMEM_KEY" in wrong.stdout

    monkeypatch.setenv("TRUSTMEM_KEY", services.key)
    with psycopg.connect(services.url, autocommit=True) as conn:
        conn.execute("UPDATE trustmem_audit SET detail = 'edited' WHERE seq = 1")
    tampered = runner.invoke(app, ["doctor", "--json"])
    assert tampered.exit_code == 1
    checks = {c["check"]: c for c in json.loads(tampered.stdout)["checks"]}
    assert checks["audit chain"]["status"] == "fail" and "TAMPERED" in checks["audit chain"]["result"]
    assert "key" not in checks  # the key is right
    assert runner.invoke(app, ["audit"]).exit_code == 2

    # a database set up before key check values existed: the sealed data
    # still tells a wrong key (its envelopes name keys not on the ring)
    with psycopg.connect(services.url, autocommit=True) as conn:
        conn.execute("UPDATE trustmem_audit SET detail = NULL WHERE seq = 1")
        conn.execute("DELETE FROM trustmem_key_check")
    monkeypatch.setenv("TRUSTMEM_KEY", generate_key())
    legacy = json.loads(runner.invoke(app, ["doctor", "--json"]).stdout)
    checks = {c["check"]: c for c in legacy["checks"]}
    assert checks["key"]["status"] == "fail" and "wrong key" in checks["key"]["result"]
    assert "TAMPERED" not in checks.get("audit chain", {}).get("result", "")
    with psycopg.connect(services.url, autocommit=True) as conn:  # and the wrong key was not recorded
        assert conn.execute("SELECT count(*) FROM trustmem_key_check").fetchone()[0] == 0


def test_import_command_dry_run_then_import_then_again(services):
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.store.postgres import PostgresStore

    from tests.test_import import echo_graph

    name = f"cli_src_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(services.pg.url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    src = services.pg.url_for(name)
    try:
        with PostgresSaver.from_conn_string(src) as stock:
            stock.setup()
            for tid in ("t1", "t2"):
                echo_graph(stock).invoke(
                    {"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": tid, "user_id": "ann"}}
                )
        with PostgresStore.from_conn_string(src) as stock_store:
            stock_store.setup()
            stock_store.put(("memories", "ann", "health"), "bp", {"text": "120/80"})
            stock_store.put(("memories", "ann", "prefs"), "seat", {"text": "aisle"})
        rules = [
            "--thread-level",
            "personal",
            "--namespace-level",
            "memories=internal",
            "--namespace-level",
            "memories.ann.health=sensitive",
        ]

        dry = runner.invoke(app, ["import", "--from-postgres", src, "--dry-run", "--json", *rules])
        assert dry.exit_code == 0, dry.output
        counts = json.loads(dry.stdout)
        assert counts["dry_run"] is True and counts["source"] == {
            "threads": 2,
            "checkpoints": 6,
            "writes": 6,
            "items": 2,
        }
        assert counts["levels"] == {"threads": {"personal": 2}, "items": {"internal": 1, "sensitive": 1}}
        with psycopg.connect(services.url) as conn:  # not even the schema was created
            assert conn.execute("SELECT to_regclass('trustmem_threads')").fetchone()[0] is None

        done = runner.invoke(app, ["import", "--from-postgres", src, "--json", "--no-index", *rules])
        assert done.exit_code == 0, done.output
        result = json.loads(done.stdout)
        assert result["ok"] is True and result["verified"] == result["source"] == counts["source"]
        assert "importing" in done.stderr  # the progress bar is on stderr, stdout is the JSON alone

        again = runner.invoke(app, ["import", "--from-postgres", src, *rules])
        assert again.exit_code == 0, again.output
        assert "already here" in again.stdout and "verified" in again.stdout
        listed = json.loads(runner.invoke(app, ["threads", "list", "--json"]).stdout)["threads"]
        assert sorted(t["thread_id"] for t in listed) == ["t1", "t2"] and {t["level"] for t in listed} == {
            "personal"
        }
    finally:
        with psycopg.connect(services.pg.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
