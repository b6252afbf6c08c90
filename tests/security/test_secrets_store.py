"""TrustStore.put refuses secrets wherever the put carries them (value, key, namespace),
and keeps the personal data a user asks it to remember. Real PostgreSQL, Redis and both
vector back ends (the store fixtures)."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected

GH = "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"


@pytest.mark.parametrize(
    ("where", "namespace_tail", "mem_key", "value"),
    [
        ("key", (), GH, {"text": "see the key"}),
        ("key", (), "password=Hunter2!!", {"text": "bank"}),
        ("namespace", ("sk_live_4eC39HqLyjWDarjtT1zdp7dc",), "k", {"text": "stripe"}),
        ("namespace", ("password",), "Ch3rry!Pie", {"text": "portal"}),
        ("value", (), "k", {"username": "bob", "password": "Tr0ub4dor&3x!"}),
        ("value", (), "k", {"bank_pin": "4821"}),
        ("value", (), "k", {"part1": GH[:15], "part2": GH[15:]}),
        ("value", (), "k", {"text": "b64 Z2hwXzFhMkIzYzRENWU2RjdnOEg5aTBKa0xtTm9QcVJzVHVWd1h5Wg=="}),
    ],
)
def test_put_refuses_secrets_in_value_key_and_namespace(store, user, where, namespace_tail, mem_key, value):
    top = store.bound("sensitive")
    ns = ("memories", user, *namespace_tail)
    with pytest.raises(SecretRejected) as err:
        top.put(ns, mem_key, value)
    message = str(err.value)
    for piece in (GH, GH[:8], "Hunter2", "Ch3rry", "Tr0ub4dor", "4eC39Hq"):
        assert piece not in message
    assert top.get(ns, mem_key) is None
    assert [r[2] for r in store.audit_trail(ns, mem_key)] == ["refused"]


async def test_aput_refuses_a_secret_in_the_key(astore, user):
    top = astore.bound("sensitive")
    with pytest.raises(SecretRejected):
        await top.aput(("memories", user), GH, {"text": "see the key"})
    assert await top.aget(("memories", user), GH) is None


def test_personal_data_is_kept_and_ssns_redacted_by_default(store, user):
    top = store.bound("sensitive")
    ns = ("memories", user)
    contact = {
        "text": "Call Dr. Chen at (415) 555-0132 or chen@clinic.example.org",
        "rent": "IBAN DE89 3704 0044 0532 0130 00",
        "nas": "192.168.1.20",
    }
    top.put(ns, "contact", contact)
    assert top.get(ns, "contact").value == contact
    assert "redacted" not in [r[2] for r in store.audit_trail(ns, "contact")]
    top.put(ns, "tax", {"text": "my SSN is 123-45-6789"})
    assert top.get(ns, "tax").value == {"text": "my SSN is [SSN]"}
    trail = store.audit_trail(ns, "tax")
    assert [(r[2], r[5]) for r in trail if r[2] == "redacted"] == [("redacted", "SSN")]


def test_ordinary_ids_as_keys_and_namespaces_are_stored(store, user):
    top = store.bound("sensitive")
    for ns, mem_key in [
        (("memories", user, "user_2LD3obGjgOsxJ8H2J2kCl1gobGN"), "3fa85f64-5717-4562-b3fc-2c963f66afa6"),
        (("memories", user, "passwords-to-change"), "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432"),
    ]:
        top.put(ns, mem_key, {"text": "likes tea"})
        assert top.get(ns, mem_key).value == {"text": "likes tea"}
