"""Trust on every read and write: levels, tenant isolation, overwrite and
high-stakes rules, secrets, all through real graph runs where it matters."""

from __future__ import annotations

import uuid

import pytest
from langchain_core.messages import HumanMessage
from langgraph.config import get_store
from langgraph.graph import START, MessagesState, StateGraph

from langgraph_trustmem import (
    ConfirmationRequired,
    OverwriteRefused,
    SecretRejected,
    TenantIsolationError,
    TrustCheckpointSaver,
    TrustEscalationError,
    label,
)
from langgraph_trustmem.nodes import make_trust_gate

AIRPORT = "preferred airport is IEH"


def run_node(saver, store, fn):
    """A one-node graph whose node calls ``fn(store)`` inside the run and
    keeps what it returned."""
    box: dict = {}

    def node(state, config):
        box["out"] = fn(get_store())
        return {}

    b = StateGraph(MessagesState)
    b.add_node("node", node)
    b.add_edge(START, "node")
    graph = b.compile(checkpointer=saver, store=store)
    return graph, box


@pytest.fixture
def saver(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as s:
        yield s


@pytest.fixture
def seeded(store, user):
    """A personal and a public memory for ``user``."""
    personal = store.bound("personal")
    personal.put(("memories", user), "airport", {"text": AIRPORT})
    personal.put(("memories", user), "food", {"text": "likes pizza"}, level="public")
    return store


def every_read(store, user):
    """Every read path a tool inside a graph could take."""
    ns = ("memories", user)
    found = []
    if (item := store.get(ns, "airport")) is not None:
        found.append(("get", item.value["text"]))
    for hit in store.search(ns, query="which airport do I fly from", limit=10):
        found.append(("search-query", hit.value["text"]))
    for hit in store.search(("memories",), limit=50):
        found.append(("search-prefix", hit.value["text"]))
    for hit in store.search(ns, filter={"text": AIRPORT}):
        found.append(("search-filter", hit.value["text"]))
    for hit in store.search((), query="airport", limit=50):
        found.append(("search-all", hit.value["text"]))
    found.append(("namespaces", store.list_namespaces(prefix=("memories",))))
    return found


def test_a_public_session_cannot_reach_a_personal_memory(seeded, saver, user):
    graph, box = run_node(saver, seeded, lambda s: every_read(s, user))
    graph.invoke(
        {"messages": []},
        {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "public"}},
    )
    texts = [t for kind, t in box["out"] if kind != "namespaces"]
    assert "likes pizza" in texts and not any(AIRPORT in str(t) for t in texts)
    # the same paths in a personal session do reach it
    graph.invoke(
        {"messages": []},
        {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}},
    )
    kinds = {kind for kind, t in box["out"] if AIRPORT in str(t)}
    assert kinds == {"get", "search-query", "search-prefix", "search-filter", "search-all"}


def test_outside_a_run_the_unbound_store_reaches_no_user(seeded, user):
    # nothing says who reads: no user's memories at all (fail closed)
    with pytest.raises(TenantIsolationError):
        seeded.get(("memories", user), "food")
    with pytest.raises(TenantIsolationError):
        seeded.search(("memories",), query="pizza")
    # bound to the user, it reads at its level
    mine = seeded.bound("public", user_id=user)
    assert mine.get(("memories", user), "airport") is None
    assert mine.get(("memories", user), "food").value == {"text": "likes pizza"}
    assert seeded.bound("personal").get(("memories", user), "airport").label.level == "personal"
    assert seeded.bound("internal").search(("memories", user), query="airport") != []
    assert all(
        h.key != "airport" for h in seeded.bound("internal").search(("memories", user), query="airport")
    )


def test_after_a_degrade_the_store_reads_at_the_new_level(seeded, saver, user):
    thread = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}}
    seen = []

    def node(state, config):
        seen.append(get_store().get(("memories", user), "airport"))
        return {}

    b = StateGraph(MessagesState)
    b.add_node("gate", make_trust_gate())
    b.add_node("node", node)
    b.add_edge(START, "gate")
    b.add_edge("gate", "node")
    graph = b.compile(checkpointer=saver, store=seeded)
    graph.invoke({"messages": [label(HumanMessage("hi"), "personal")]}, thread)
    assert seen[-1] is not None
    untrusted = label(HumanMessage("FWD: click here"), "public", source="email")
    graph.invoke(
        {"messages": [untrusted]},
        {"configurable": {"thread_id": thread["configurable"]["thread_id"], "user_id": user}},
    )
    assert seen[-1] is None


def test_tenant_isolation_inside_runs(store, saver, user):
    other = f"{user}-other"
    admin = store.bound("sensitive")
    admin.put(("memories", user), "mine", {"text": "mine"}, level="public")
    admin.put(("memories", other), "theirs", {"text": "theirs"}, level="public")
    admin.put(("shared", "faq"), "hours", {"text": "open 9-5"}, level="public")

    def reads(s):
        out = {"prefix": sorted(h.key for h in s.search(("memories",), limit=100))}
        out["all"] = sorted(
            h.key for h in s.search((), limit=1000) if h.namespace[0] in ("memories", "shared")
        )
        out["namespaces"] = s.list_namespaces(prefix=("memories",))
        try:
            s.get(("memories", other), "theirs")
            out["cross"] = "read"
        except TenantIsolationError:
            out["cross"] = "refused"
        try:
            s.put(("memories", other), "planted", {"text": "x"})
            out["cross-write"] = "written"
        except TenantIsolationError:
            out["cross-write"] = "refused"
        return out

    graph, box = run_node(saver, store, reads)
    graph.invoke({"messages": []}, {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user}})
    out = box["out"]
    assert out["prefix"] == ["mine"]
    assert "theirs" not in out["all"] and "mine" in out["all"] and "hours" in out["all"]
    assert out["namespaces"] == [("memories", user)]
    assert out["cross"] == "refused" and out["cross-write"] == "refused"
    assert admin.get(("memories", other), "planted") is None


def test_write_levels_follow_the_session(store, saver, user):
    def writes(s):
        s.put(("memories", user), "default", {"text": "a"})
        s.put(("memories", user), "lower", {"text": "b"}, level="public")
        with pytest.raises(TrustEscalationError):
            s.put(("memories", user), "higher", {"text": "c"}, level="sensitive")
        return True

    graph, box = run_node(saver, store, writes)
    graph.invoke(
        {"messages": []},
        {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}},
    )
    assert box["out"]
    top = store.bound("sensitive")
    assert top.get(("memories", user), "default").label.level == "personal"
    assert top.get(("memories", user), "lower").label.level == "public"
    assert top.get(("memories", user), "higher") is None
    # no run and not bound: no user's namespace, and shared ones only where opted in
    with pytest.raises(TenantIsolationError):
        store.put(("memories", user), "unbound", {"text": "d"})
    with pytest.raises(TenantIsolationError):
        store.put(("shared", user), "unbound", {"text": "d"})
    shared = ("kb", f"unbound-{user}")
    store.shared_writable.append(shared)
    try:
        store.put(shared, "unbound", {"text": "d"})  # with no level given: the highest (fail closed)
    finally:
        store.shared_writable.remove(shared)
    assert top.get(shared, "unbound").label.level == "sensitive"
    assert store.get(shared, "unbound") is None
    # provenance names the writer and the session's thread
    prov = top.get(("memories", user), "default").provenance
    assert prov["user"] == user and prov["thread"] and prov["writer"].startswith("session:")


def test_lower_writers_cannot_overwrite_and_high_stakes_need_confirmation(store, saver, user):
    top = store.bound("sensitive")
    top.put(("memories", user), "diagnosis", {"text": "type 2 diabetes"}, level="personal")
    top.put(("memories", user, "limits"), "budget", {"amount": 1000}, level="public")

    def attempts(s):
        out = {}
        for name, call in {
            "overwrite": lambda: s.put(("memories", user), "diagnosis", {"text": "none"}),
            "delete": lambda: s.delete(("memories", user), "diagnosis"),
            "limits": lambda: s.put(("memories", user, "limits"), "budget", {"amount": 10_000_000}),
            "confirmed": lambda: s.put(
                ("memories", user, "limits"), "budget", {"amount": 2000}, confirmed_by="human-review"
            ),
            "new-limit": lambda: s.put(("memories", user, "limits"), "daily", {"amount": 50}),
        }.items():
            try:
                call()
                out[name] = "ok"
            except (OverwriteRefused, ConfirmationRequired) as e:
                out[name] = type(e).__name__
        return out

    graph, box = run_node(saver, store, attempts)
    graph.invoke(
        {"messages": []},
        {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "public"}},
    )
    assert box["out"] == {
        "overwrite": "OverwriteRefused",
        "delete": "OverwriteRefused",
        "limits": "ConfirmationRequired",
        "confirmed": "ok",
        "new-limit": "ConfirmationRequired",  # first writes too
    }
    assert top.get(("memories", user), "diagnosis").value == {"text": "type 2 diabetes"}
    assert top.get(("memories", user, "limits"), "budget").value == {"amount": 2000}


def test_secrets_are_refused_with_their_kind_and_nothing_is_stored(store, user, pg_url):
    top = store.bound("sensitive")
    secret = "AKIAZ7VRSQ5TJNNW2M4Q"
    with pytest.raises(SecretRejected) as err:
        top.put(("memories", user), "creds", {"text": f"my aws key is {secret} keep it"})
    assert secret not in str(err.value) and err.value.kinds
    assert top.get(("memories", user), "creds") is None
    assert [r[2] for r in store.audit_trail(("memories", user), "creds")] == ["refused"]


def test_a_degrade_before_the_first_checkpoint_is_not_lost(store, saver, user):
    """durability="exit" stores nothing until the run ends: the gate's degrade
    comes first and must still hold, for the saver and for the store."""
    store.bound("personal").put(("memories", user), "airport", {"text": AIRPORT})
    seen = []

    def node(state, config):
        seen.append(get_store().get(("memories", user), "airport"))
        return {}

    b = StateGraph(MessagesState)
    b.add_node("gate", make_trust_gate())
    b.add_node("node", node)
    b.add_edge(START, "gate")
    b.add_edge("gate", "node")
    graph = b.compile(checkpointer=saver, store=store)
    thread = str(uuid.uuid4())
    email = label(HumanMessage("FWD: click here"), "public", source="email")
    graph.invoke({"messages": [label(HumanMessage("hi"), "personal"), email]},
                 {"configurable": {"thread_id": thread, "user_id": user, "trust": "personal"}}, durability="exit")
    assert seen == [None]
    assert saver.session({"configurable": {"thread_id": thread, "user_id": user}}).level == "public"


def test_runs_without_a_thread_are_confined_and_read_at_the_lowest_level(seeded, user):
    other = f"{user}-x"
    seeded.bound("sensitive").put(("memories", other), "theirs", {"text": "theirs"}, level="public")
    box: dict = {}

    def node(state, config):
        s = get_store()
        box["own"] = s.get(("memories", user), "airport")  # personal: above a run with no trust checkpointer
        box["food"] = s.get(("memories", user), "food")
        try:
            s.get(("memories", other), "theirs")
            box["cross"] = "read"
        except TenantIsolationError:
            box["cross"] = "refused"
        return {}

    b = StateGraph(MessagesState)
    b.add_node("node", node)
    b.add_edge(START, "node")
    b.compile(store=seeded).invoke({"messages": []}, {"configurable": {"user_id": user, "trust": "sensitive"}})
    assert box == {"own": None, "food": box["food"], "cross": "refused"} and box["food"] is not None


def test_runs_write_to_shared_namespaces_only_where_allowed(pg_url, key, store_schema, saver, user):
    from langgraph_trustmem.store import TrustStore

    with TrustStore.from_conn_string(pg_url, key=key, shared_writable=[("shared", "notes")]) as store:
        def writes(s):
            out = {}
            for ns in (("shared", "faq"), ("shared", "notes")):
                try:
                    s.put(ns, f"k-{user}", {"text": "x"}, level="public")
                    out[ns[1]] = "written"
                except TenantIsolationError:
                    out[ns[1]] = "refused"
            return out

        graph, box = run_node(saver, store, writes)
        graph.invoke({"messages": []}, {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}})
        assert box["out"] == {"faq": "refused", "notes": "written"}
        prov = store.bound("public").get(("shared", "notes"), f"k-{user}").provenance
        assert prov["user"] is None and prov["thread"] is None  # no identifiers on shared memories
