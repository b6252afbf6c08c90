"""The sixteenth round's rules, each seen from both sides: what is no one's secret is
masked before every reader of a memory, the record readers too (a Google OAuth client's id,
a minisign public key, a GnuPG signing key's id, placeholders in angle brackets, the PINs
statistics name, a gateway's test card in a bundled note); a note's headings ("Also:",
"Tax return:") are not a chat's speakers; a password variable passed on in code is not a
password. The phrasings are written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

REFUSED = [
    # the public shapes, with a secret in them or beside them
    "Google OAuth client secret: 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",
    "minisign secret key: RWRTY0IyXk9vZ3Jhbm9sYS1wcml2YXRlLWtleS1ib2R5LWZvci10ZXN0aW5nLW9ubHkK8sPq2",
    "public key: ghp_6U2o38ahWB8t1EaPDgWQQjmNYBHH5bhAIprM",
    "mongodb://admin:Xk9#pQ2!vL7m@cluster0.mongodb.net/app",
    "<password>Tangerine_Tide_41</password>",
    "My PIN is 1234 - the most common PIN, I know.",
    "wifi password again - Tr0ub4dor&3x",
    'conn = psycopg.connect(host="db", user="app", password="s3cr3t-Pw!9x")',
    "conn = psycopg.connect(host=HOST, user=USER, password=Winter2024Kx9)",
    # a real chat still is one
    "Ana: what's the wifi password?\nBen: Mango!1955",
    "Coffee order: flat white.\nAlso: my Visa 4539 5787 6362 1486 exp 09/29",
]

PASSES = [
    "OAuth client ID (not a secret): 123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com",
    "release signing, minisign public key: RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3",
    "gpg key id 0x3AA5C34371567BD2 (the signing key in .gitconfig: signingkey = 8B54A49A9E1221C7)",
    "Slept 6h, woke up twice.\nAlso: mongodb://<username>:<password>@cluster0.example.mongodb.net",
    "Tax return: due in June, receipts first.\nAlso: OPENAI_API_KEY=<your-openai-key>\n"
    "DATABASE_URL=postgres://user:password@localhost:5432/app",
    "Fun fact: 1234 is the most common 4-digit PIN, then 1111 and 0000.",
    "Most common 4-digit PINs: 1234, 1111, 0000 - never use those.",
    "Quentin forgot the wifi password again - it's on the sticker under the router.",
    "conn = psycopg.connect(host=HOST, user=USER, password=password)",
    ["password = getpass.getpass('Password: ')", "db = connect(user=USER, password=password)"],
    "Coffee order: flat white.\nAlso: Stripe test card 4000 0566 5566 5556, any expiry, sandbox only",
]


@pytest.fixture(scope="module")
def guard():
    return Guard()


@pytest.mark.parametrize("value", REFUSED)
def test_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
