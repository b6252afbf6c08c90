"""The decoded-value cache: a restore skips decrypting and decoding what it
already opened, and the cache never serves what it should not: a value a
caller mutated, a thread that was degraded, deleted or forgotten, anything
after key rotation or close, or more bytes than its budget."""

from __future__ import annotations

import uuid
from dataclasses import replace
from typing import Annotated, NamedTuple

import psycopg
import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.channels.delta import DeltaChannel
from langgraph.graph import START, MessagesState, StateGraph
from typing_extensions import TypedDict

from langgraph_trustmem import TrustCheckpointSaver
from langgraph_trustmem.checkpoint.base import _session_bytes
from langgraph_trustmem.crypto import generate_key


def chat(saver):
    b = StateGraph(MessagesState)
    # replies large enough to be cached (small values are decoded, not cached)
    b.add_node("model", lambda s: {"messages": [AIMessage("ok " * 1000)]})
    b.add_edge(START, "model")
    return b.compile(checkpointer=saver)


def turns(saver, n: int = 3, user: str = "u-dec") -> dict:
    cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": user, "trust": "personal"}}
    graph = chat(saver)
    for i in range(n):
        graph.invoke({"messages": [HumanMessage(f"turn {i}")]}, cfg)
    return cfg


class CountingSerde:
    def __init__(self, inner):
        self.inner, self.loads = inner, 0

    def dumps_typed(self, obj):
        return self.inner.dumps_typed(obj)

    def loads_typed(self, data):
        self.loads += 1
        return self.inner.loads_typed(data)


def test_a_value_read_again_is_decoded_twice_then_cached_and_callers_cannot_change_it(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as writer:
        cfg = turns(writer)
        assert len(writer.decoded) == 0  # saving keeps nothing: a chat reads each version once
        writer.serde = counting = CountingSerde(writer.serde)
        writer.get_tuple(cfg)
        assert counting.loads == 2  # the header and the messages
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:  # another process
        saver.serde = counting = CountingSerde(saver.serde)
        first = saver.get_tuple(cfg)
        once = counting.loads
        saver.get_tuple(cfg)
        assert counting.loads == 2 * once  # decoded again: the second decoding admits it
        second = saver.get_tuple(cfg)
        # the third restore decodes everything but the blobs, which came from the cache
        assert counting.loads - 2 * once == once - len(first.checkpoint["channel_values"])
        assert second.checkpoint["channel_values"] == first.checkpoint["channel_values"]
        second.checkpoint["channel_values"]["messages"].append(HumanMessage("injected"))
        third = saver.get_tuple(cfg)
        assert [m.content for m in third.checkpoint["channel_values"]["messages"]][-1] != "injected"


def test_a_chat_of_many_turns_leaves_nothing_in_the_cache(pg_url, key, schema):
    """Each turn restores the version the previous turn saved, once: caching
    it would only add long-lived objects for the collector to walk."""
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        turns(saver, n=6)
        assert len(saver.decoded) == 0 and saver.decoded.bytes == 0


def test_a_restored_message_changed_afterwards_is_restored_as_saved(pg_url, key, schema):
    """What the cache holds are copies: a node that edits a restored message
    object in place does not change what the next restore returns."""
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = turns(saver, n=2)
        saved = saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]
        live = saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]
        assert len(saver.decoded) > 0
        live[0].content = "edited in place"
        live[0].additional_kwargs["trustmem"] = {"level": "public", "source": "user"}
        again = saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]
        assert again[0].content == saved[0].content == "turn 0"
        assert again[0].additional_kwargs.get("trustmem") == saved[0].additional_kwargs.get("trustmem")


def test_dropped_with_the_thread_on_degrade_delete_and_forget(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        tks = []
        for _ in range(3):
            cfg = turns(saver)
            saver.get_tuple(cfg)
            saver.get_tuple(cfg)
            tks.append((cfg, saver.thread_key(cfg["configurable"]["thread_id"])))

        def cached(tk):
            held = saver.decoded
            return [k for k in (*held._entries, *held._seen) if k[0] == tk]

        assert all(cached(tk) for _, tk in tks)
        saver.degrade(tks[0][0], "public")
        saver.delete_thread(tks[1][0]["configurable"]["thread_id"])
        saver.forget_user("u-dec")
        assert not any(cached(tk) for _, tk in tks)


def test_tampered_bytes_are_still_caught_and_rotation_and_close_empty_it(pg_url, key, schema):
    other = generate_key()
    with TrustCheckpointSaver.from_conn_string(pg_url, key=f"{other},{key}") as saver:
        cfg = turns(saver)
        saver.get_tuple(cfg)
        saver.get_tuple(cfg)
        assert len(saver.decoded) > 0
        saver.rotate_keys()
        assert len(saver.decoded) == 0 and not saver.decoded._seen
        saver.get_tuple(cfg)
        saver.get_tuple(cfg)
        assert len(saver.decoded) > 0
        held = saver.decoded
    assert len(held) == 0 and held.bytes == 0  # closing the saver empties it
    # a blob edited in the database (a new envelope) misses the cache and fails authentication
    tk = saver.thread_key(cfg["configurable"]["thread_id"])
    with TrustCheckpointSaver.from_conn_string(pg_url, key=f"{other},{key}") as saver:
        saver.get_tuple(cfg)
        saver.get_tuple(cfg)
        assert len(saver.decoded) > 0
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE trustmem_blobs SET blob = overlay(blob placing '\\x00000000000000000000000000'::bytea"
                " from 9) WHERE thread_key = %s AND channel = 'messages'",
                (tk,),
            )
        import pytest

        from langgraph_trustmem.errors import TamperedDataError

        with pytest.raises(TamperedDataError):
            saver.get_tuple(cfg)


def test_the_budget_holds(pg_url, key, schema):
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, decoded_cache_bytes=60_000) as saver:
        for _ in range(5):
            cfg = turns(saver, n=4)
            saver.get_tuple(cfg)
            saver.get_tuple(cfg)
            assert 0 < saver.decoded.bytes <= 60_000
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, decoded_cache_bytes=0) as saver:
        cfg = turns(saver)
        saver.get_tuple(cfg)
        saver.get_tuple(cfg)
        assert len(saver.decoded) == 0


def test_the_in_process_hot_tier_has_a_byte_budget(pg_url, key, schema):
    from langgraph_trustmem.checkpoint.hot import LocalHotTier

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        saver.hot = LocalHotTier(max_bytes=60_000)
        configs = [turns(saver, n=6) for _ in range(8)]
        assert 0 < saver.hot.bytes <= 60_000
        assert len(saver.hot._entries) < len(configs)  # the oldest threads left
        for cfg in configs:  # and every thread still restores, from PostgreSQL when evicted
            assert len(saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]) == 12
        saver.delete_thread(configs[-1]["configurable"]["thread_id"])
        assert saver.hot.bytes == sum(saver.hot._sizes.values())


def _deep_size(obj, seen=None) -> int:
    """Every object reachable through containers and instance fields, once."""
    import sys

    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(_deep_size(k, seen) + _deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, (list, tuple, set, frozenset)):
        size += sum(_deep_size(x, seen) for x in obj)
    elif hasattr(obj, "__slots__"):
        size += sum(_deep_size(getattr(obj, a, None), seen) for a in obj.__slots__)
    elif hasattr(obj, "__dict__"):
        size += _deep_size(vars(obj), seen)
    return size


def test_the_hot_tier_counts_its_objects_not_only_its_sealed_bytes(pg_url, key, schema):
    """The budget bounds the heap only if the count covers what the entries
    really cost; with small states the containers are most of it."""
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        for n in (1, 3):
            for _ in range(4):
                turns(saver, n=n)
        held = sum(_deep_size(k) + _deep_size(v) for k, v in saver.hot._entries.items())
        sealed = sum(
            len(v)
            for _, entry, writes in saver.hot._entries.values()
            for v in [*entry.blobs.values(), entry.payload, *(w for ws in writes.values() for w in ws.values())]
        )
        assert held <= saver.hot.bytes <= 1.5 * held
        assert saver.hot.bytes > sealed * 1.1  # the objects are counted


def test_the_session_cache_has_a_byte_budget_and_keeps_a_pending_fork(pg_url, key, schema):
    """Threads' access states past the budget leave the cache (and are read
    again from PostgreSQL, rules intact), except one whose fork is pending:
    the gate asks the cache, without I/O, whether to lower every channel."""
    from langgraph_trustmem.errors import TrustEscalationError

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        saver.session_cache_bytes = 2_000
        degraded = turns(saver, n=1)
        saver.degrade(degraded, "public")
        fixed = turns(saver, n=1)  # personal
        others = [turns(saver, n=1, user=f"u-{i}") for i in range(12)]
        assert saver._sessions_bytes <= 2_000 + 500  # the budget, and the pinned session
        assert len(saver._sessions) < len(others)
        assert saver.cached_session(degraded).fork_pending  # kept despite its age
        assert saver.cached_session(fixed) is None  # it left
        assert saver.hot.get(saver.thread_key(fixed["configurable"]["thread_id"]), "") is not None
        with pytest.raises(TrustEscalationError):  # the level is still never raised
            chat(saver).invoke(
                {"messages": [HumanMessage("x")]}, {"configurable": {**fixed["configurable"], "trust": "sensitive"}}
            )
        assert saver.session(fixed).level == "personal"
        saver.forget_user("u-dec")
        assert saver._sessions_bytes == sum(
            _session_bytes(tk, st) for tk, st in saver._sessions.items()
        )


def test_abandoned_pending_forks_cannot_grow_the_session_cache(pg_url, key, schema):
    """Threads degraded and never run again stay pinned only up to the
    budget once more; a pending session that left is read again by the gate
    and still forks at its next run, with nothing above its new level."""
    from langgraph_trustmem.nodes import make_trust_gate

    seen: list[list] = []

    def model(state):
        seen.append(list(state["messages"]))
        return {"messages": [AIMessage("noted")]}

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        b = StateGraph(MessagesState)
        b.add_node("gate", make_trust_gate())
        b.add_node("model", model)
        b.add_edge(START, "gate")
        b.add_edge("gate", "model")
        graph = b.compile(checkpointer=saver)
        saver.session_cache_bytes = 2_000
        first = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-pin", "trust": "personal"}}
        graph.invoke({"messages": [HumanMessage("my diagnosis is in the notes")]}, first)
        saver.degrade(first, "public")
        for i in range(40):  # abandoned: degraded, never run again
            cfg = turns(saver, n=1, user=f"u-pin-{i}")
            saver.degrade(cfg, "public")
        assert saver._sessions_bytes <= 2 * 2_000 + 500
        assert saver.cached_session(first) is None  # the oldest pending session left
        thread = {"configurable": {k: v for k, v in first["configurable"].items() if k != "trust"}}
        graph.invoke({"messages": [HumanMessage("hello from the web")]}, thread)
        session = saver.session(thread)
        assert session.level == "public" and session.branch == 1 and not session.fork_pending
        assert "diagnosis" not in " ".join(str(m.content) for m in seen[-1])
        state = graph.get_state(thread).values["messages"]
        assert "diagnosis" not in " ".join(str(m.content) for m in state)


def test_the_async_hot_tier_hands_memory_back_off_the_event_loop(monkeypatch):
    """Returning freed memory to the OS takes about a millisecond: the sync
    tier does it in the caller's thread, the async one on a worker thread,
    never on the event loop."""
    import asyncio
    import threading

    from langgraph_trustmem.checkpoint import hot

    calls: list[str] = []
    monkeypatch.setattr(hot, "TRIM_AFTER", 4096)
    monkeypatch.setattr(hot, "release_freed_memory", lambda: calls.append(threading.current_thread().name))
    entry = hot.HotEntry("1", None, b"p" * 2048, 0, 0, "active", False)

    tier = hot.LocalHotTier(max_bytes=8192)
    for i in range(10):
        tier.put(f"t{i}".encode(), "", replace(entry, checkpoint_id=str(i)), (), 60.0)
    assert calls and set(calls) == {threading.current_thread().name}

    calls.clear()
    tier = hot.LocalHotTier(max_bytes=8192)

    async def fill() -> str:
        for i in range(10):
            await tier.aput(f"t{i}".encode(), "", replace(entry, checkpoint_id=str(i)), (), 60.0)
            await tier.aadd_writes(f"t{i}".encode(), "", str(i), {("task", 0, "ch", ""): b"w" * 2048})
        return threading.current_thread().name

    loop_thread = asyncio.run(fill())
    assert calls and loop_thread not in calls
    assert tier.bytes <= 8192


def _extend_in_place(state, writes):
    state = state if state is not None else []
    for w in writes:
        state.extend(w)
    return state


class Log(TypedDict):
    log: Annotated[list, DeltaChannel(_extend_in_place, snapshot_frequency=3)]


def test_a_delta_channel_reducing_in_place_never_changes_the_cache(pg_url, key, schema):
    """A DeltaChannel takes its stored snapshot's list as its value and its
    reducer may extend that list in place: a restore must hand out a copy,
    or the next restore of the same snapshot returns the changed list (here:
    entries doubled, as PostgresSaver, which decodes every time, never does)."""
    b = StateGraph(Log)
    b.add_node("n", lambda s: {"log": ["r" * 3000]})
    b.add_edge(START, "n")
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        graph = b.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4())}}
        for i in range(9):
            graph.invoke({"log": [f"q{i}" + "y" * 3000]}, cfg, durability="sync")
            assert len(graph.get_state(cfg).values["log"]) == 2 * (i + 1)
        expected = [x for i in range(9) for x in (f"q{i}", "rr")]
        assert [x[:2] for x in graph.get_state(cfg).values["log"]] == expected
        assert len(saver.decoded) > 0  # the snapshots were cached, as copies


def test_a_delta_channels_cached_snapshot_is_read_as_its_header_only(pg_url, key, schema):
    """A long DeltaChannel history starts at the same stored snapshot turn
    after turn: once the decoded cache holds it, PostgreSQL sends its header
    only (here the rest of the row is overwritten and the history still
    reads), and a saver that never decoded it reads the whole row and
    refuses the edited bytes."""
    from langgraph_trustmem.crypto import HEADER_SIZE
    from langgraph_trustmem.errors import TamperedDataError

    b = StateGraph(Log)
    b.add_node("n", lambda s: {"log": ["r" * 3000]})
    b.add_edge(START, "n")
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        graph = b.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4())}}
        for i in range(4):
            graph.invoke({"log": [f"q{i}" + "y" * 3000]}, cfg, durability="sync")
        before = [x[:2] for x in graph.get_state(cfg).values["log"]]
        graph.get_state(cfg)  # decoded a second time: kept
        tk = saver.thread_key(cfg["configurable"]["thread_id"])
        held = saver.decoded.held(tk, "")
        assert held
        with psycopg.connect(pg_url, autocommit=True) as conn:
            edited = 0
            for version, blob in conn.execute(
                "SELECT version, blob FROM trustmem_blobs WHERE thread_key = %s AND channel = 'log'", (tk,)
            ).fetchall():
                if ("log", version, bytes(blob)[8:20]) in held:
                    conn.execute(
                        "UPDATE trustmem_blobs SET blob = substring(blob FROM 1 FOR 20) || %s"
                        " WHERE thread_key = %s AND channel = 'log' AND version = %s",
                        (b"x" * (len(blob) - 20), tk, version),
                    )
                    edited += 1
            assert edited >= 1
        sizes = []
        opened = saver._open_blob

        def recording(tk, ns, channel, version, blob, held=None):
            sizes.append(len(blob))
            return opened(tk, ns, channel, version, blob, held)

        saver._open_blob = recording
        assert [x[:2] for x in graph.get_state(cfg).values["log"]] == before
        assert HEADER_SIZE in sizes  # the snapshot came as its header
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as fresh:
        with pytest.raises(TamperedDataError):
            b.compile(checkpointer=fresh).get_state(cfg)


class Visit(NamedTuple):
    clinic: str
    note: str


class VisitState(TypedDict):
    visit: Visit


def test_a_named_tuple_comes_back_as_itself(pg_url, key, schema):
    """A channel holding a NamedTuple (large enough to be cached) restores as
    that NamedTuple, as decoding gives it, not as a plain tuple."""
    b = StateGraph(VisitState)
    b.add_node("n", lambda s: {"visit": Visit(s["visit"].clinic, s["visit"].note + ".")})
    b.add_edge(START, "n")
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        graph = b.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4())}}
        for _ in range(3):
            graph.invoke({"visit": Visit("north", "x" * 5000)}, cfg)
            value = graph.get_state(cfg).values["visit"]
            assert type(value) is Visit and value.clinic == "north"


def test_nested_parts_of_a_message_edited_in_place_do_not_reach_the_cache(pg_url, key, schema):
    """Tool call arguments, a label's nested memory list and content blocks
    sit two levels down in a message: a restore hands out its own copies."""
    labelled = AIMessage(
        content=[{"type": "text", "text": "ok " * 1500}],
        tool_calls=[{"name": "lookup", "args": {"q": "hba1c"}, "id": "c1"}],
        additional_kwargs={"trustmem": {"level": "personal", "memories": [{"level": "personal"}]}},
    )
    b = StateGraph(MessagesState)
    b.add_node("model", lambda s: {"messages": [labelled]})
    b.add_edge(START, "model")
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key, local_hot=True) as saver:
        graph = b.compile(checkpointer=saver)
        cfg = {"configurable": {"thread_id": str(uuid.uuid4()), "user_id": "u-dec", "trust": "personal"}}
        graph.invoke({"messages": [HumanMessage("q")]}, cfg)
        got = saver.get_tuple(cfg).checkpoint["channel_values"]["messages"][-1]
        got.tool_calls[0]["args"]["q"] = "changed"
        got.additional_kwargs["trustmem"]["memories"][0]["level"] = "public"
        got.content[0]["text"] = "changed"
        again = saver.get_tuple(cfg).checkpoint["channel_values"]["messages"][-1]
        assert again.tool_calls[0]["args"]["q"] == "hba1c"
        assert again.additional_kwargs["trustmem"]["memories"][0]["level"] == "personal"
        assert again.content[0]["text"].startswith("ok ")


def test_admission_at_the_second_decoding_remembers_a_bounded_number_of_keys():
    from langgraph_trustmem.checkpoint.decoded import SEEN_KEYS, DecodedCache

    cache = DecodedCache(max_bytes=1 << 20)
    value = [HumanMessage("x" * 5000)]
    key = (b"t" * 16, "", "messages", "1", b"n" * 12)
    cache.keep(key, 5000, value)
    assert cache.get(key) == (False, None) and cache.bytes == 0
    cache.keep(key, 5000, value)
    hit, got = cache.get(key)
    assert hit and got == value and got[0] is not value[0] and cache.bytes == 5000
    for i in range(SEEN_KEYS + 50):  # values seen once never grow it past its bound
        cache.keep((b"u" * 16, "", "messages", str(i), b"n" * 12), 5000, value)
    assert len(cache._seen) == SEEN_KEYS and len(cache) == 1


def test_without_a_hot_tier_a_read_again_fetches_only_the_headers_of_what_it_decoded(pg_url, key, schema):
    """No hot tier: the third restore names the envelopes it has decoded and
    PostgreSQL sends their 20-byte headers only; values come out whole, as
    saved, and a new version is fetched in full."""
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = turns(saver, n=2)
        first = saver.get_tuple(cfg).checkpoint["channel_values"]
        saver.get_tuple(cfg)  # the second decoding caches the messages
        sent = []
        real = psycopg.Cursor.fetchone

        def spy(cur):
            row = real(cur)
            if row is not None and len(row) > 6 and row[6]:
                sent.extend(len(bytes(b)) for _, _, b in row[6] if b is not None)
            return row

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(psycopg.Cursor, "fetchone", spy)
            third = saver.get_tuple(cfg).checkpoint["channel_values"]
            assert 20 in sent  # the messages' envelope came back as its header
            assert third == first
            third["messages"][0].content = "edited by a node"
            assert saver.get_tuple(cfg).checkpoint["channel_values"] == first
            chat(saver).invoke({"messages": [HumanMessage("turn 9")]}, cfg)
            sent.clear()
            latest = saver.get_tuple(cfg).checkpoint["channel_values"]["messages"]
            assert min(sent) > 20 and latest[-2].content == "turn 9"


def test_a_header_moved_onto_another_blob_is_caught(pg_url, key, schema):
    """Two versions of the messages cached; the older one's header copied
    onto the newer one's row makes PostgreSQL send a header only, for a
    channel and version no cached value stands for: the read fails
    authentication rather than serve the older messages."""
    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        cfg = turns(saver, n=3)
        older_cfg = next(
            t.config for t in saver.list(cfg) if len(t.checkpoint["channel_values"].get("messages", [])) == 4
        )
        for c in (cfg, cfg, older_cfg, older_cfg):
            saver.get_tuple(c)
        tk = saver.thread_key(cfg["configurable"]["thread_id"])
        assert len([k for k in saver.decoded._entries if k[0] == tk]) == 2
        with psycopg.connect(pg_url, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT version, blob FROM trustmem_blobs WHERE thread_key = %s AND channel = 'messages'"
                " ORDER BY version DESC",
                (tk,),
            ).fetchall()
            held = {(k[3], k[4]) for k in saver.decoded._entries if k[0] == tk}
            newest = rows[0]
            older = next(r for r in rows[1:] if (r[0], bytes(r[1])[8:20]) in held)
            conn.execute(
                "UPDATE trustmem_blobs SET blob = overlay(blob placing %s from 1)"
                " WHERE thread_key = %s AND channel = 'messages' AND version = %s",
                (bytes(older[1])[:20], tk, newest[0]),
            )
        from langgraph_trustmem.errors import TamperedDataError

        with pytest.raises(TamperedDataError):
            saver.get_tuple(cfg)


def test_a_held_value_stays_usable_after_its_entry_leaves():
    from langgraph_trustmem.checkpoint.decoded import DecodedCache

    cache = DecodedCache(max_bytes=1 << 20)
    key = (b"t" * 16, "", "messages", "1", b"n" * 12)
    value = [HumanMessage("x" * 5000)]
    cache.keep(key, 5000, value)
    cache.keep(key, 5000, value)
    held = cache.held(b"t" * 16, "")
    assert list(held) == [("messages", "1", b"n" * 12)]
    cache.drop([b"t" * 16])
    assert cache.held(b"t" * 16, "") == {} and not cache._threads
    got = cache.use(key, held[("messages", "1", b"n" * 12)])
    assert got == value and got[0] is not held[("messages", "1", b"n" * 12)][0]


async def test_the_async_saver_reads_headers_only_of_what_it_decoded(pg_url, key, schema):
    from langgraph_trustmem import AsyncTrustCheckpointSaver

    with TrustCheckpointSaver.from_conn_string(pg_url, key=key) as writer:
        cfg = turns(writer, n=2)
    async with AsyncTrustCheckpointSaver.from_conn_string(pg_url, key=key) as saver:
        saver.serde = counting = CountingSerde(saver.serde)
        first = (await saver.aget_tuple(cfg)).checkpoint["channel_values"]
        await saver.aget_tuple(cfg)
        before = counting.loads
        tk = saver.thread_key(cfg["configurable"]["thread_id"])
        assert saver.decoded.held(tk, "")  # what the next read names
        third = (await saver.aget_tuple(cfg)).checkpoint["channel_values"]
        assert third == first and counting.loads - before == 1  # the header only was decoded


def test_a_cached_message_comes_back_equal_and_its_own_every_time():
    """The cache keeps each message once, analysed (which fields need a copy);
    every hit hands out an equal message of the same type whose fields, set
    of fields and extra attributes are its own."""
    from langgraph_trustmem.checkpoint.decoded import DecodedCache

    messages = [
        HumanMessage("hi " * 2000, id="h1", additional_kwargs={"trustmem": {"level": "personal"}}),
        AIMessage("", id="a1", tool_calls=[{"name": "lookup", "args": {"q": "x"}, "id": "c1"}], usage_metadata=None),
    ]
    cache = DecodedCache()
    key = (b"t" * 16, "", "messages", "1", b"n" * 12)
    cache.keep(key, 5000, messages)  # first decoding: only remembered
    cache.keep(key, 5000, messages)
    first = cache.get(key)[1]
    assert first == messages and [type(m) for m in first] == [HumanMessage, AIMessage]
    first[0].additional_kwargs["trustmem"]["level"] = "public"
    first[0].__pydantic_fields_set__.add("name")
    first[1].tool_calls.append({"name": "other", "args": {}, "id": "c2"})
    first[1].id = "changed"
    again = cache.get(key)[1]
    assert again == messages
    assert again[0].additional_kwargs["trustmem"]["level"] == "personal"
    assert again[0].__pydantic_fields_set__ == messages[0].__pydantic_fields_set__
    assert again[0] is not first[0] and again[0].additional_kwargs is not first[0].additional_kwargs
