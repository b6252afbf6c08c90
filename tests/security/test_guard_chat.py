"""A memory that is a conversation (``guard/chat.py``): one message asks for a credential and
a reply after it is the value, or the value arrives a piece per message. Replies that are
talk, or answers to other questions, pass.

Every case goes through ``Guard.check``, both as a list and inside a record as the store
keeps one (``{"chat": [...]}``: ``TrustStore.put`` takes dicts); the phrasings are written
for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard
from langgraph_trustmem.guard.chat import messages

REFUSED = [
    # a code asked for, the reply only the code (strings "Name: text", or records)
    (["Maya: what's the code for the storage unit?", "Raj: 80417", "Maya: ty"], "PIN"),
    ([{"from": "Ilse", "text": "Schickst du mir den Code vom Fahrradschloss?"}, {"from": "Tom", "text": "ist 5092"}], "PIN"),
    (["Lea: le code du portail c'est quoi déjà ?", "Noé: 7741B"], "PIN"),
    (["Ana: combinação do cadeado?", "Rui: 12-31-07, não contes a ninguém"], "PIN"),
    ([{"sender": "Min", "message": "창고 자물쇠 번호 알려줘"}, {"sender": "Jun", "message": "5521이야"}], "PIN"),
    (["Wei: 把门禁的密码发我", "Lin: 是20931"], "PIN"),
    # a password asked for in any language; the reply the password and a few words
    (["Kim: what's the password for the NAS again?", "Sam: it's Otter#Pond88 - keep it to yourself"], "password"),
    ([{"role": "user", "content": "Qual é a senha do roteiro da sala?"}, {"role": "assistant", "content": "é Caju!2231"}], "password"),
    (["Eva: wat was het beheerwachtwoord van de printer?", "Bo: tulp-Regen-42"], "password"),
    (["Aki: プリンターの管理パスワード教えて", "Ren: sakura7-Hoshi!だよ"], "password"),
    # the asker speaks again with the value after an assistant asks for it
    (
        [
            {"role": "user", "content": "please remember the gate passcode"},
            {"role": "assistant", "content": "Sure, what is it?"},
            {"role": "user", "content": "604417"},
        ],
        "PIN",
    ),
    # the value sent a piece per message
    (["Jo: send me the admin password?", "Pat: in bits, the chat is logged", "Pat: Bl4ck", "Pat: bird$", "Pat: 77x"], "password"),
    (["Ola: the deploy token please", "Ivo: splitting it", "Ivo: ghp_R8mT2qLx9", "Ivo: Vw4Kc7Zn1Yb5Hs3Jd6Pf0Ga2Ue8", "Ola: thx"], "GitHub token"),
    # a card number given over several messages, with words around each piece
    (
        [
            {"role": "user", "content": "meine Kartendaten: fängt an mit 45320151"},
            {"role": "assistant", "content": "ok"},
            {"role": "user", "content": "dann 12833600, gültig bis 09/29"},
        ],
        "credit card number",
    ),
    # the reply's filler in Korean chat shorthand or a pictograph; a code in two halves;
    # a combination answering a password's name; a value handed over first, named after
    ([{"from": "누나", "text": "회사 와이파이 비번 뭐야?"}, {"from": "나", "text": "Haneul2020! ㅇㅇ"}], "password"),
    (["Inés: pásame la contraseña de Spotify", "Leo: Qx7&mPz2Lw 😉"], "password"),
    (["Dad: what was that 2FA code?", "Me: it's 318 774"], "one-time code"),
    (["Elif: dolabın şifresi neydi?", "Can: 22-41-07"], "PIN"),
    (["Me: save this: Vr8#tKq2Lm", "Bot: Saved. What is it for?", "Me: oh, that's the Dropbox password"], "password"),
]

PASSES = [
    # the reply is talk, not the value
    ["Maya: what's the wifi password?", "Raj: it's on the fridge", "Maya: found it, thanks"],
    ["Kim: what was the door code again?", "Sam: ask Priya, she changed it"],
    ["Lea: tu as le code de la porte ?", "Noé: je te l'envoie ce soir"],
    # questions about a credential that a number answers without giving it
    ["Ana: how many digits is the new PIN?", "Rui: 6"],
    ["Ana: when did you last change the alarm code?", "Rui: 2023"],
    ["Bo: how long does the verification code stay valid?", "Eva: 10 minutes"],
    # codes that open nothing
    ["Jo: what's the zip code for the office?", "Pat: 94110"],
    ["Jo: what's the error code on the dishwasher?", "Pat: 4021"],
    ["Jo: what's the promo code?", "Pat: SPRING25"],
    # replies to other questions
    ["Ola: what time is the train?", "Ivo: 18:45, platform 4"],
    ["Ola: room number at the clinic?", "Ivo: 2041"],
    [{"from": "Wei", "text": "电话号码是多少？"}, {"from": "Lin", "text": "13812345678"}],
    # numbers over several messages that make no card number
    ["Ana: the gift card order?", "Bo: order 12345678", "Bo: tracking 87654321"],
    # the independent review's look-alikes: a number that is something else, in a reply
    # with other words, after a request that is talk, or in a record's fields
    ["Ben: can you text me the door code?", "Ana: no idea, call 5551234"],
    ["Ben: door code for the building?", "Ana: ask the concierge, room 104"],
    ["Ben: hotel wifi password?", "Ana: reception, ext 2100"],
    ["Ben: what's the HS code for laptops?", "Ana: 8471"],
    ["Ben: which code is the bus to the stadium?", "Ana: 123"],
    ["Ben: I'll need the alarm code. What time do you land?", "Ana: 1845"],
    ["Ben: password for the router? also what's the model", "Ana: AX3000"],
    ["Ben: what's the code to get in?", "Ana: 221B, Baker Street, ring twice"],
    [{"role": "user", "content": "remind me to change the alarm code"}, {"role": "assistant", "content": "Sure, when?"},
     {"role": "user", "content": "Friday 1700"}],
    ["Ben: whats the door pin", "Ana: can't", "Ana: now", "Ana: in", "Ana: meeting", "Ana: till", "Ana: 1430"],
    ["Lea: quel est le code postal de la mairie ?", "Noé: 75011"],
    ["Wei: 门禁密码多少？", "Lin: 问一下1502的王阿姨"],
    ["Item: door code stickers", "Qty: 150", "Price: 4.99"],
    ["Ticket: customer forgot card PIN", "Branch: 5521", "Status: closed"],
    # one speaker's list of notes is not a conversation
    ["password manager: switch to 1Password", "router: reboot weekly", "printer: toner low"],
]


@pytest.mark.parametrize("wrap", [False, True], ids=["list", "in-record"])
@pytest.mark.parametrize(("value", "kind"), REFUSED)
def test_a_credential_given_in_reply_to_a_request_is_refused(guard, value, kind, wrap):
    with pytest.raises(SecretRejected) as err:
        guard.check({"chat": value} if wrap else value, namespace=("memories", "u1"), key="m1")
    assert kind in err.value.kinds
    assert not any(ch.isdigit() for ch in str(err.value))  # the kind, never the value


@pytest.mark.parametrize("wrap", [False, True], ids=["list", "in-record"])
@pytest.mark.parametrize("value", PASSES)
def test_talk_about_credentials_and_other_answers_pass(guard, value, wrap):
    value = {"chat": value} if wrap else value
    stored, redacted = guard.check(value, namespace=("memories", "u1"), key="m1")
    assert stored == value
    assert redacted == []


def test_chat_exports_and_parts_records_are_read():
    """A chat export's timestamped lines and ``{"role", "parts": [{"text"}]}`` records."""
    guard = Guard()
    for chat in (
        ["12/03/2024, 09:14 - Kim: what's the wifi password?", "12/03/2024, 09:15 - Sam: Otter#Pond88"],
        ["Kim:what's the door code?", "Sam:4821"],
        [{"role": "user", "parts": [{"text": "what's the alarm code?"}]}, {"role": "model", "parts": [{"text": "4821"}]}],
    ):
        with pytest.raises(SecretRejected):
            guard.check({"messages": chat}, namespace=("memories", "u1"), key="m1")


def test_messages_reads_speakers_and_leaves_other_lists_alone():
    assert messages(["Ana: hi", "Bo: hello"]) == [("Ana", "hi"), ("Bo", "hello")]
    assert messages([{"from": "Ana", "text": "hi"}, {"from": "Bo", "text": "hello"}]) == [("Ana", "hi"), ("Bo", "hello")]
    assert messages(["eggs", "milk", "bread"]) is None  # no speakers
    assert messages(["Ana: hi"]) is None  # one message
    assert messages([{"from": "Ana"}, {"from": "Bo", "text": "x"}]) is None  # a record without a text
