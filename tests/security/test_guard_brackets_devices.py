"""Three ways a credential was stored, found by the review of stop 41's exemptions: a password
inside a template's braces with spaces ("{{ Tr0ub4dor99 }}": the braces made it read as a
placeholder), a Cisco line behind a device prompt ("R1(config)#") or with a privilege level
("enable secret level 15 0 ..."), and an LND macaroon (Lightning's bearer credential, hex or
base64). Each beside what must still be stored: a template's variable names, a password's
hash on a device, a macaroon's file path.

The values the RFCs and vendors' manuals print (RFC 6749's tokens, RFC 7519's JWT, RFC 7636's
code verifier, the MongoDB manual's "myDBReader" URI, Azurite's emulator key) are no one's
secret (tuned on train20a's and train40b's false positives; heldout22 never read); the same
shapes with another value, or the emulator's key for another account, are refused. A Twilio
account SID is an identifier, stored unless its auth token stands beside it. Phrasings
written for this test."""

from __future__ import annotations

import base64

import pytest

from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

GUARD = Guard()

# 2 + 1 + 3 bytes "lnd" are the macaroon's header; the rest stands for its caveats and signature
_MACAROON = bytes.fromhex("0201036c6e6402f801030a10") + bytes(range(7, 247, 2))

REFUSED = [
    "password: {{ Tr0ub4dor99 }}",
    'db_password: "{{ Tr0ub4dor99 }}"',
    "my password is {{ Tr0ub4dor99 }}",
    "password: <hunter2024>",
    "enable secret level 15 0 Adm1nPass9",
    "enable password level 7 Tr4nsp0rt!",
    "sw-core-01(config)# username backup privilege 15 secret 0 Bkp!2024net",
    "R1> enable password level 3 n3tw0rkOps",
    "from the config review: username ops privilege 15 password 0 Harbor@Kite2290",
    f"LND admin macaroon: {_MACAROON.hex()}",
    f"macaroon = {base64.b64encode(_MACAROON).decode()}",
    f"export LND_MACAROON={_MACAROON.hex()}",
]

STORED = [
    "password: {{ vault_db_password }}",
    "password: {{ secrets.DB_PASS_2 }}",
    "password: <your-16-char-key>",
    "password: {{ db_password_2024 }}",
    "password: {{ .Values.db.pass22 }}",
    "Switch(config)# enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
    "Router(config)# enable secret ********",
    "note: enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
    "the enable secret is stored in vault",
    "lncli reads ~/.lnd/data/chain/bitcoin/mainnet/admin.macaroon; bake a read-only one for the dashboard",
]


@pytest.mark.parametrize("text", REFUSED)
def test_the_credential_is_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})


@pytest.mark.parametrize("text", STORED)
def test_names_hashes_and_paths_are_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


_AZURITE = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

PUBLISHED = [
    "from the OAuth spec: Authorization: Bearer 2YotnFZFEjr1zCsicMWpAA",
    'curl -H "X-Refresh-Token: tGzv3JOkF0XG5Qx2TlKWIA" https://api.example.org/v1/me',
    "RFC 7519's JWT: eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6"
    "Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    "MONGODB_URI=mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin",
    f"local dev: DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey={_AZURITE};"
    "BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;",
    # a Twilio account SID is the account's name; the call, message and recording SIDs beside it too
    "Call CA7870daa54bbce1beaa85afdf2a4fffcc on ACc8c54e6867e5a95ff2452e2580aa7014, recording"
    " RE7a7d7c1947f24090027887463efa5060",
]

NOT_PUBLISHED = [
    "Authorization: Bearer 2YotnFZFEjr1zCsicMWpAAq8Xk3Lm9Tz",  # the example's head, a token after it
    "MONGODB_URI=mongodb://myDBReader:Qv7%40Lm2x9Tz@cluster0.mongodb.net/?authSource=admin",
    f"DefaultEndpointsProtocol=https;AccountName=payments;AccountKey={_AZURITE}",  # not the emulator's account
    # the SID beside its auth token: the pair is the credential
    'client = Client("AC5f44bc8bb1d876f3ac8178ad1f7af93b", "d5b86c3589624b9b539e9bfef560cf4a")',
]


@pytest.mark.parametrize("text", PUBLISHED)
def test_a_published_example_value_is_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


@pytest.mark.parametrize("text", NOT_PUBLISHED)
def test_the_same_shape_with_another_value_is_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})
