"""The fifteenth round's rules, each seen from both sides: codes that open things named in
more languages, a security question and its answer as a record's fields in any language,
chats kept as text lines or asking for a texted code, digits of other scripts, numbers read
out in pairs, gift cards' codes in more shapes, and the values that are no one's
secret (a password's hash, a request's signature, an anon or a documentation token, a
keypad word taught as a game, a value a command fetches). The phrasings are written for
this test, not taken from the corpora."""

from __future__ import annotations

import base64
import json

import pytest

from .helpers import refused_kinds, stored


def jwt(claims: dict) -> str:
    def part(d: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(d).encode()).decode().rstrip("=")

    return f"{part({'alg': 'HS256', 'typ': 'JWT'})}.{part(claims)}.c2lnbmF0dXJlLW9mLXRoZS10b2tlbi14eXo"


REFUSED = [
    # a code and what it opens, in the languages people keep such notes in
    "Cadeado do cacifo, segredo 3391.",
    "The code for the bike cage behind the school is 6612.",
    "Koden til opgangen i baghuset er 2256.",
    "Uimahallin kaapin koodi on 4093.",
    "Garasjeporten vår åpnes med kode 5519.",
    "Seiful din birou are codul 4418.",
    "Mã tắt báo động ở nhà là 2208.",
    "Code CB Banque Populaire : 6621",
    # a security question and its answer as fields
    {"Sikkerhetsspørsmål": "Hvilken by ble du født i?", "Svar": "Bergen"},
    {"Pregunta de seguridad": "¿Nombre de tu primera mascota?", "Respuesta": "Toby"},
    {"보안 질문": "어릴 때 별명은?", "답변": "콩이"},
    # chats: kept as text lines, or asking for a code that came by text message
    "[08:12] Ola: hva er wifi-passordet?\n[08:15] Kari: Fjord-77-Lys",
    [{"role": "user", "content": "你收到验证码了吗？"}, {"role": "contact", "content": "90317"}],
    ["Dana: קיבלת קוד אימות?", "Yoni: כן, 551902"],
    [{"from": "Ion", "text": "ți-a venit un cod pe SMS?"}, {"from": "Ana", "text": "3391"}],
    "[19:02] Lena: kannst du mir den Code per SMS vorlesen?\n[19:03] Max: 448210",
    [{"role": "user", "content": "Read me the code they just texted you"}, {"role": "contact", "content": "It says 662014"}],
    ["Ana: ¿te llegó el código por SMS?", "Luis: sí, 481-220"],
    # digits of other scripts and styles, numbers read out in pairs, a value named after it
    "Locker code: ①④⑦⑨",
    "Alarm code: २२१९",
    "locker code: seventy seventy-two",
    "Keep this for me: 4417 — that is the gate code.",
    "Hotel safe set to 802213",
    "Casier n°12 au club, code 4418.",
    # a gift card's code: a brand glued to "code", in groups of four, in a reply
    "Xbox-Code: 7HJ2K-9PLM4-QW3ER",
    "Google Play gift card 7KJ2 P9Q4 LM3X 8ZT5",
    [{"role": "user", "content": "I sent you an Xbox gift card"}, {"role": "contact", "content": "got it, code KQ7P2-M3XJ9-TT4W8"}],
    # the look-alikes' shapes used to smuggle a real one (the round's review)
    "GITHUB_TOKEN=$(echo ghp_6U2o38ahWB8t1EaPDgWQQjmNYBHH5bhAIprM)",
    "DB_PASSWORD=$(echo Winter2024!Kx9)",
    "token=" + jwt({"role": "anon", "aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kLm2Vb7", "iss": "x"}),
    "x-signature-secret: 9f3c2e7a41b8d05c6e2f9a1b7c4d8e03a5f6b2c9d1e4f7a0b3c6d9e2f5a8b1c4",
    "Garage door code (the word game): GATE = 4283",
    "ops,$2b$12$" + "Qm9vdHN0cmFwLXNlZWQtdXNlci1oYXNoLWZvci10ZXN0cw"[:53].ljust(53, "x") + ",password=Winter2024Kx9",
    {"password": "my_dog_rex_loves_bones"},
    # beside the look-alikes below
    {"username": "demo", "password": "Tr0ub4dor&3x"},
    "DB_PASSWORD=Kx9!mQ2#vLp4",
    {"serviceKey": jwt({"iss": "supabase", "role": "service_role", "iat": 1712000000})},
    "Alarm code spells LAMP on the phone keypad",
]

PASSES = [
    {"Pregunta": "¿Cuál es el río más largo de España?", "Respuesta": "El Tajo"},
    "[08:12] Ola: når kommer teknikeren for wifi?\n[08:15] Kari: kl 14",
    "The code for the bike cage sticker order is in the shared drive.",
    "x-hub-signature-256: sha256=" + "3f" * 32,
    {"username": "demo", "password_hash": "$2b$12$" + "Qm9vdHN0cmFwLXNlZWQtdXNlci1oYXNoLWZvci10ZXN0cw"[:53].ljust(53, "x")},
    "Practising the phone keypad with the kids: LAMP = 5267 (a game)",
    "DB_PASSWORD=$(vault kv get -field=pw secret/db)",
    {"projectUrl": "https://abcdefghijklmnop.supabase.co", "publicKey": jwt({"iss": "supabase", "role": "anon"})},
    {"fixture": "token from the jwt.io debugger", "token": (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )},
    {"key_id": "AKIAIOSFODNN7EXAMPLE", "secret_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
    "Chapter ② covers the basics; see footnote ³.",
    "We were sixty-nine people at the wedding.",
    "Keep this for me: 2024 — that is the year we moved.",
    "Google Play gift card balance: USD 25.00 left",
    [{"role": "user", "content": "I sent you an Xbox gift card"}, {"role": "contact", "content": "thanks, order ORD-23498-XK"}],
    'password = "REPLACE_ME"',
    {"Frage zur Arbeitssicherheit": "Wo hängt der Feuerlöscher im 2. OG?", "Antwort": "Neben dem Aufzug"},
    "The new gun safe set to arrive on 14 March weighs 180 kg.",
    'curl https://api.example.com/v1/items -H "Authorization: Bearer YOUR_TOKEN"',
]


@pytest.mark.parametrize("value", REFUSED)
def test_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
