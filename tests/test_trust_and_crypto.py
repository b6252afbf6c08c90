"""The trust ladder, labels and the key ring."""

from __future__ import annotations

import subprocess
import sys

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_trustmem import (
    KeyRing,
    Ladder,
    TamperedDataError,
    UnknownLevelError,
    generate_key,
    label,
    label_of,
)
from langgraph_trustmem.crypto import aad
from langgraph_trustmem.nodes.gate import infer_label
from langgraph_trustmem.trust import DEFAULT_LADDER, content_rank


def test_ladder_orders_and_joins():
    assert DEFAULT_LADDER.levels == ("public", "internal", "personal", "sensitive")
    assert DEFAULT_LADDER.join(["public", "personal", "internal"]) == "personal"
    assert DEFAULT_LADDER.join([]) == "public"
    custom = Ladder(["open", "restricted", "phi"])
    assert custom.rank("phi") == 2 and custom.lowest == "open"
    with pytest.raises(UnknownLevelError):
        custom.rank("personal")
    with pytest.raises(UnknownLevelError):
        Ladder(["a", "a"])


def test_labels_round_trip_through_serialization():
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    m = label(HumanMessage("hi"), "personal", source="email")
    assert label_of(m).level == "personal" and label_of(m).source == "email"
    serde = JsonPlusSerializer()
    back = serde.loads_typed(serde.dumps_typed([m]))[0]
    assert label_of(back) == label_of(m)
    assert label_of(HumanMessage("x")) is None
    assert content_rank([[m, HumanMessage("unlabelled")]]) == 2


def test_inferred_labels_follow_taint_and_declared_tools():
    ladder = DEFAULT_LADDER
    assert infer_label(HumanMessage("x"), "personal", [], {}, ladder).level == "personal"
    assert infer_label(AIMessage("x"), "personal", ["public", "personal"], {}, ladder).level == "personal"
    assert (
        infer_label(ToolMessage("x", tool_call_id="1", name="web"), "personal", [], {}, ladder).level
        == "public"
    )
    declared = {"calendar": "personal"}
    lab = infer_label(ToolMessage("x", tool_call_id="1", name="calendar"), "personal", [], declared, ladder)
    assert (lab.level, lab.source) == ("personal", "tool:calendar")


def test_envelopes_bind_place_and_key():
    ring = KeyRing.parse(generate_key())
    sealed = ring.encrypt(b"secret", aad("blob", b"t1", "", "messages", "1"))
    assert ring.decrypt(sealed, aad("blob", b"t1", "", "messages", "1")) == b"secret"
    for wrong in (aad("blob", b"t2", "", "messages", "1"), aad("blob", b"t1", "", "messages", "2")):
        with pytest.raises(TamperedDataError):
            ring.decrypt(sealed, wrong)
    with pytest.raises(TamperedDataError):
        KeyRing.parse(generate_key()).decrypt(sealed, aad("blob", b"t1", "", "messages", "1"))
    assert "secret" not in repr(ring) and ring.hash_id("user", "u1") == ring.hash_id("user", "u1")
    assert ring.hash_id("user", "u1") != ring.hash_id("thread", "u1")


def test_associated_data_keeps_its_byte_layout():
    """Every stored envelope was sealed with these bytes: each part after its
    4-byte length, integers (booleans too) as decimal text, any str or bytes
    type as its bytes. A change here would make every stored value fail
    authentication."""

    class Name(str):
        pass

    assert aad("blob", b"t1", "", "messages", 7, True) == (
        b"\x00\x00\x00\x04blob\x00\x00\x00\x02t1\x00\x00\x00\x00"
        b"\x00\x00\x00\x08messages\x00\x00\x00\x017\x00\x00\x00\x04True"
    )
    assert aad(Name("é"), bytearray(b"k"), memoryview(b"v")) == b"\x00\x00\x00\x02\xc3\xa9\x00\x00\x00\x01k\x00\x00\x00\x01v"


def test_harden_process_disables_core_dumps():
    code = (
        "import resource; from langgraph_trustmem import harden_process; r = harden_process(); "
        "assert r['core_dumps_disabled'] and resource.getrlimit(resource.RLIMIT_CORE) == (0, 0), r; "
        "print(r)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "'not_dumpable': True" in out.stdout


def test_a_delta_channels_stored_snapshot_ranks_as_what_it_holds():
    """LangGraph stores a DeltaChannel's value wrapped in a snapshot (a
    one-item tuple). Read as it is, it would be content of no known level;
    the labels of the messages inside decide its rank, as for a plain list."""
    from langgraph.checkpoint.serde.types import _DeltaSnapshot

    from langgraph_trustmem.trust import Vouch, state_rank

    personal = label(AIMessage("dx"), "personal", source="model")
    public = label(HumanMessage("hi"), "public", source="user")
    assert state_rank({"messages": _DeltaSnapshot([public, personal])}, DEFAULT_LADDER) == (
        DEFAULT_LADDER.rank("personal"),
        False,
    )
    assert state_rank({"notes": _DeltaSnapshot([])}, DEFAULT_LADDER) == (0, False)  # empty: nothing to rank
    lowered = {"notes": Vouch(None, 0, [])}
    assert state_rank({"notes": _DeltaSnapshot([])}, DEFAULT_LADDER, lowered) == (0, False)
    assert state_rank({"notes": _DeltaSnapshot(["x"])}, DEFAULT_LADDER) == (0, True)  # unlabelled: its branch's


def test_state_rank_reads_every_message_as_message_rank_does():
    """The fast reading of labels in ``state_rank`` agrees with
    ``message_rank`` on every shape a label can take, LangChain's messages
    and others alike."""
    from collections import UserDict

    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from langgraph_trustmem.trust import DEFAULT_LADDER, message_rank, state_rank

    class Level(str):
        pass

    class MyMessage(HumanMessage):
        pass

    labels = [
        None,
        {"level": "public", "source": "user"},
        {"level": "personal"},
        {"level": "secret-ish"},  # unknown: ranks highest
        {"level": Level("personal")},
        {"level": 3},
        "personal",
        UserDict({"level": "personal"}),
        {},
    ]
    messages = []
    for i, lab in enumerate(labels):
        for make in (HumanMessage, AIMessage, MyMessage):
            m = make(f"m{i}")
            if lab is not None:
                m.additional_kwargs["trustmem"] = lab
            messages.append(m)
    tool = ToolMessage("t", tool_call_id="c")
    tool.additional_kwargs = UserDict({"trustmem": {"level": "personal"}})
    messages.append(tool)
    groups = [[m] for m in messages] + [[a, b] for a in messages[::3] for b in messages[1::3]] + [messages]
    for chosen in groups:
        ranks = [message_rank(m, DEFAULT_LADDER) for m in chosen]
        expected = (max([r for r in ranks if r is not None], default=0), any(r is None for r in ranks))
        assert state_rank({"messages": chosen}, DEFAULT_LADDER) == expected
