"""A patient's session on LangGraph's Agent Server (``langgraph dev``) with
the checkpointer, store and encryption hook of ``langgraph_trustmem.server``,
driven with ``langgraph-sdk``; then every file the server and the library
wrote is scanned for the patient's words and the users' ids."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx
import pytest
from langgraph_sdk.errors import NotFoundError, PermissionDeniedError

import langgraph_trustmem
from langgraph_trustmem.crypto import KeyRing
from langgraph_trustmem.server import SEALED_PREFIX, TAG_PREFIX

from .conftest import AgentServer, bearer, scan, wait_until_gone

pytestmark = pytest.mark.server


def say(text: str) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": text}]}


def dump(value: Any) -> str:
    return json.dumps(value, default=str)


def texts(values: dict[str, Any]) -> list[str]:
    """Message texts, from the API's dicts or the checkpointer's messages."""
    return [str(m["content"] if isinstance(m, dict) else m.content) for m in values.get("messages", [])]


@pytest.fixture
def people() -> dict[str, str]:
    tag = uuid.uuid4().hex[:10]
    return {
        "alice": f"patient-alice-{tag}",
        "bob": f"patient-bob-{tag}",
        "diagnosis": f"DIAGNOSIS-CANARY-{tag}",
        "medication": f"MEDICATION-CANARY-{tag}",
        "note": f"NOTE-CANARY-{tag}",
    }


def sse_events(response: httpx.Response) -> list[tuple[str, str]]:
    events, name = [], None
    for line in response.text.splitlines():
        if line.startswith("event:"):
            name = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and name is not None:
            events.append((name, line.split(":", 1)[1].strip()))
    return events


def test_a_patient_session_leaves_nothing_readable_where_the_server_keeps_state(
    agent_server: AgentServer, people: dict[str, str], monkeypatch: pytest.MonkeyPatch
):
    server = agent_server
    alice, bob = people["alice"], people["bob"]
    server.start()
    a, b = server.client(alice), server.client(bob)
    personal = {"configurable": {"trust": "personal"}}

    # a personal session: a diagnosis said, a medication remembered
    thread = a.threads.create(metadata={"note": people["note"]})
    tid = thread["thread_id"]
    assert thread["metadata"]["note"] == people["note"]  # the hook opens what it sealed
    out = a.runs.wait(
        tid, "agent", input=say(f"My diagnosis code is {people['diagnosis']}."), config=personal
    )
    assert texts(out)[-1] == "Noted."
    out = a.runs.wait(
        tid, "agent", input=say(f"Remember: I take {people['medication']} daily."), config=personal
    )
    assert texts(out)[-1] == "Stored."

    # the server finds the checkpointer's state and history
    state = a.threads.get_state(tid)
    assert people["diagnosis"] in dump(state["values"])
    history = a.threads.get_history(tid, limit=50)
    assert len(history) >= 6
    assert any(people["diagnosis"] in dump(h["values"]) for h in history)
    assert history[0]["checkpoint"]["checkpoint_id"] == state["checkpoint"]["checkpoint_id"]

    # another user reaches nothing: the server's auth hides the thread
    with pytest.raises(NotFoundError):
        b.threads.get_state(tid)
    # the store API runs outside any graph run: refused cleanly, nothing stored
    with pytest.raises(PermissionDeniedError):
        a.store.put_item(["memories", alice, "health"], "note", {"text": people["diagnosis"]})
    with pytest.raises(PermissionDeniedError):
        a.store.search_items(["memories", alice])

    # an untrusted tool's output enters (streamed): the session drops to public
    # and forks; the personal branch is sealed away from the head
    chunks = list(
        a.runs.stream(tid, "agent", input=say("Now check my email."), stream_mode=["values", "updates"])
    )
    assert not [c for c in chunks if c.event == "error"]
    assert any("cheap flights" in dump(c.data) for c in chunks if c.event == "values")
    state = a.threads.get_state(tid)
    assert "cheap flights" in dump(state["values"])
    assert people["diagnosis"] not in dump(state) and people["medication"] not in dump(state)
    after = a.threads.get_history(tid, limit=50)
    assert after and not any(people["diagnosis"] in dump(h) for h in after)

    # asking for the old level again is refused before the run exists (the
    # auth handler calls admit_run): an HTTP error naming nothing
    for route in ("wait", "stream"):
        r = httpx.post(
            f"{server.url}/threads/{tid}/runs/{route}",
            headers=bearer(alice),
            json={"assistant_id": "agent", "input": say("What is my code?"), "config": personal},
            timeout=60,
        )
        assert r.status_code == 409, r.status_code
        assert r.json() == {"detail": "a run asked for a trust level above its session's"}
    with pytest.raises(httpx.HTTPStatusError) as refused:
        a.runs.wait(tid, "agent", input=say("What is my code?"), config=personal)
    assert refused.value.response.status_code == 409
    assert [run["status"] for run in a.runs.list(tid)].count("error") == 0
    assert "cheap flights" in dump(a.threads.get_state(tid)["values"])

    # the server stops, and with it the embedded PostgreSQL
    postmaster = server.postmaster()
    server.stop()
    assert wait_until_gone(postmaster, 30), "the embedded PostgreSQL outlived the server"
    assert scan(server.written(), people) == []
    # inside the sealed file, the hook sealed the thread's metadata and
    # left the owner tag the auth handler filters on
    ring = KeyRing.parse((server.home / "key").read_text())
    (record,) = server.thread_records()
    assert record["thread_id"] == tid
    assert record["metadata"]["note"].startswith(SEALED_PREFIX)
    assert record["metadata"]["owner"] == TAG_PREFIX + ring.hash_hex("server-owner", alice)

    # what the library kept: two branches, the personal one sealed
    for var in ("TRUSTMEM_POSTGRES_URL", "TRUSTMEM_REDIS_URL", "TRUSTMEM_QDRANT_URL", "TRUSTMEM_KEY"):
        monkeypatch.delenv(var, raising=False)
    with langgraph_trustmem.open(home=server.home) as mem:
        saver = mem.checkpointer
        assert saver.session({"configurable": {"thread_id": tid, "user_id": alice}}).level == "public"
        branches = saver.branches(tid)
        assert sorted((b.level, b.head) for b in branches) == [("personal", False), ("public", True)]
        sealed = next(b for b in branches if not b.head)
        old = list(saver.list_branch(tid, sealed.branch, level="personal", limit=1))
        assert people["diagnosis"] in dump(texts(old[0].checkpoint["channel_values"]))
        memory = mem.store.bound("personal", user_id=alice).get(("memories", alice, "health"), "medication")
        assert people["medication"] in memory.value["text"] and memory.label.level == "personal"

    # a restart finds the server's sealed records and the thread's state
    server.start()
    assert [t["thread_id"] for t in a.threads.search()] == [tid]
    assert "cheap flights" in dump(a.threads.get_state(tid)["values"])

    # the patient asks to be forgotten: memories, vectors, branches, and
    # the server's records of the thread
    r = httpx.post(f"{server.url}/trustmem/forget", headers=bearer(alice), json={}, timeout=120)
    assert r.status_code == 200, r.text
    receipt = r.json()
    assert receipt["server_threads"] == 1 and receipt["removed"]["memories"] == 1
    assert alice not in r.text
    assert a.threads.search() == []
    with pytest.raises(NotFoundError):
        a.threads.get_state(tid)
    r = httpx.post(f"{server.url}/trustmem/forget", headers=bearer(bob), json={"user_id": alice}, timeout=60)
    assert r.status_code == 403  # one user cannot erase another

    postmaster = server.postmaster()
    server.stop()
    assert wait_until_gone(postmaster, 30)
    assert scan(server.written(), people) == []
    with langgraph_trustmem.open(home=server.home) as mem:
        assert mem.checkpointer.branches(tid) == []
        assert (
            mem.store.bound("personal", user_id=alice).get(("memories", alice, "health"), "medication")
            is None
        )


def test_a_killed_server_takes_its_postgres_with_it(agent_server: AgentServer):
    agent_server.start()
    postmaster = agent_server.postmaster()
    assert agent_server.proc is not None
    agent_server.proc.kill()  # SIGKILL: no shutdown code runs
    agent_server.proc.wait()
    assert wait_until_gone(postmaster, 15), "the embedded PostgreSQL outlived a killed server"


@pytest.mark.parametrize("agent_server", [False], ids=["no-auth"], indirect=True)
def test_without_custom_auth_reads_name_their_user_as_runs_do(
    agent_server: AgentServer, people: dict[str, str]
):
    server = agent_server
    alice = people["alice"]
    server.start()
    c = server.client()
    tid = c.threads.create()["thread_id"]
    config = {"configurable": {"user_id": alice, "trust": "personal"}}
    c.runs.wait(tid, "agent", input=say(f"My diagnosis code is {people['diagnosis']}."), config=config)

    # the server has no user of its own to read for: a read names its user
    with pytest.raises(PermissionDeniedError) as refused:
        c.threads.get_state(tid)
    assert alice not in str(refused.value.body) and people["diagnosis"] not in str(refused.value.body)
    assert people["diagnosis"] in dump(c.threads.get_state(tid, checkpoint={"user_id": alice})["values"])
    history = c.threads.get_history(tid, checkpoint={"user_id": alice}, limit=20)
    assert any(people["diagnosis"] in dump(h["values"]) for h in history)
    for claim in ({"user_id": people["bob"]}, {"langgraph_auth_user_id": alice}):
        with pytest.raises(PermissionDeniedError):
            c.threads.get_state(tid, checkpoint=claim)

    # without an auth handler to refuse it early, a run asking for more than
    # its session holds fails when it starts: a clean run error, no content
    higher = {"configurable": {"user_id": alice, "trust": "sensitive"}}
    for route in ("wait", "stream"):
        r = httpx.post(
            f"{server.url}/threads/{tid}/runs/{route}",
            json={"assistant_id": "agent", "input": say("What is my code?"), "config": higher},
            timeout=60,
        )
        assert r.status_code == 200, r.status_code
        error = r.json()["__error__"] if route == "wait" else json.loads(dict(sse_events(r))["error"])
        assert error == {"error": "TrustEscalationError", "message": "An internal error occurred"}
        for secret in (people["diagnosis"], alice, "Traceback"):
            assert secret not in r.text

    # an operator erases a user by name (no custom auth to say who asks)
    r = httpx.post(f"{server.url}/trustmem/forget", json={"user_id": alice}, timeout=120)
    assert r.status_code == 200 and r.json()["server_threads"] == 1
    assert httpx.post(f"{server.url}/trustmem/forget", json={}, timeout=30).status_code == 422
    assert c.threads.search() == []

    postmaster = server.postmaster()
    server.stop()
    assert wait_until_gone(postmaster, 30)
    assert scan(server.written(), people) == []
