"""Memories that look like a credential without holding one pass the guard, and the
credentials written right beside them in the same shapes are still refused.

Each pair below is one rule seen from both sides: a card receipt's authorisation code
against a one-time code; base64 of a cookie's settings against a key; a password's
location ("on the sticker") against its value; a test's "wrong-password" against a real
one; the security questions offered against the answers given. Every case goes through
``Guard.check`` as ``TrustStore.put`` calls it; the phrasings are written for this test."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard

PASSES = [
    # where a password is, not what it is (Italian elision, German and French prepositions)
    "La password del Wi-Fi è sull'adesivo dietro il modem.",
    "Das Passwort steht auf der Rückseite der FRITZ!Box.",
    "Le mot de passe du wifi est sous la box, sur l'étiquette.",
    "Przypomnij: zmienić hasło do routera, nadal jest fabryczne.",
    # a card receipt's authorisation code approves one payment
    "Receipt - Mastercard ****4410, AUTH CODE 0912QX, total $42.10, keep for taxes",
    # base64 of a cookie's JSON settings
    "The 'ui' cookie is base64 JSON eyJsYXlvdXQiOiAiY29tcGFjdCIsICJzZWVuX3RvdXIiOiB0cnVlfQ== (layout only)",
    # statistics about the passwords people choose
    "Top 10 most common passwords this year: 123456, password, qwerty123 - slide 4 of the talk",
    "Reminder for the workshop: the most used password is still 'password1'.",
    # test code and forms: values that say they are not real, and code that computes one
    "fixtures:\n  admin:\n    email: qa@example.test\n    password: fake-password",
    "def test_rejects_bad_login(client):\n    r = client.post('/login', json={'password': 'wrong-password'})",
    "class SignupSerializer(serializers.Serializer):\n    password = serializers.CharField(write_only=True)",
    # the questions a bank offers, and a bank that dropped them
    "Security questions available: first pet, favourite teacher, city of birth. I answer with random words.",
    "Our bank replaced security questions with passkeys — nothing left to memorise.",
    # the payment gateways' published test cards
    "Stripe test card for the 3-D Secure flow: 4000 0027 6000 3184, any CVC",
]

REFUSED = [
    ("Mot de passe du wifi : Sous-Bois#2291", "password"),
    ("Das Passwort der FRITZ!Box ist Rk7!mTz29q", "password"),
    ("the bank app sent an auth code: 661204", "one-time code"),
    ("my password is 123456 for the old laptop", "password"),
    ("fixtures:\n  admin:\n    email: ops@acme.example\n    password: Vk82!pLzq0", "password"),
    ("const password = String.fromCharCode(72,117,110,116,101,114,50,33);", "password"),
    ("security answers: favourite teacher Mr Okafor, first car Skoda Fabia", "security question answer"),
    ("For the shop's recovery questions: city of birth = Porto", "security question answer"),
    ("my new Visa for the test trip: 4539 1488 0343 6467", "credit card number"),
]


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard()


@pytest.mark.parametrize("text", PASSES)
def test_a_look_alike_passes_unchanged(guard, text):
    stored, redacted = guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")
    assert stored == {"text": text}
    assert redacted == []


@pytest.mark.parametrize(("text", "kind"), REFUSED)
def test_the_credential_beside_it_is_refused(guard, text, kind):
    with pytest.raises(SecretRejected) as err:
        guard.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")
    assert kind in err.value.kinds
