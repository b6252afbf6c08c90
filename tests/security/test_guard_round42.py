"""The forty-second stop's rules, each seen from both sides (tuned on heldout22's misses and false
positives; heldout23 never read). Refused: codes named in Swahili ("msimbo", "namba ya siri")
and Vietnamese ("mã mở két sắt"), a bank's code word in Russian or after a colon, a password
glued to a full-width note in Japanese, a PIN in Chinese numerals, a passphrase given as words,
a code drawn after a lock emoji, a Portainer token, the answer after a bank's security question
asked as banks ask it ("mother's maiden name? → ..."), backup and recovery codes named in more
languages. Stored: the same words with no value or
with a pointer, a command that fetches a password, a query parameter's name in capitals, a
weekday run in Chinese numerals. A token given in pieces (script variables joined, a table's
column, pieces in reverse order, a prefix written apart from its body) is put together and
refused; pieces that make no token are stored. Phrasings written for this test."""

from __future__ import annotations

import time

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

GUARD = Guard()

REFUSED = [
    "Namba ya siri ya kadi ya ATM: 4417",
    "Msimbo wa mlango wa ofisi ni 8830",
    "Mã mở két sắt ở nhà bà ngoại: 391027",
    "Кодовое слово для оператора: Ласточка",
    "code word for the pharmacy account: Halibut",
    "職場のパスワード：maple7Quartz（メモ: 更新済み）",
    "手机支付密码 三八二七五一",
    "backup disk passphrase: walnut ember glacier pocket",
    "bike shed 🔐 6️⃣2️⃣0️⃣4️⃣",
    "Portainer token ptr_Zq4Lm8Xw2Rt6Yp0Vn3Bk7Hc5Jd9Fg1Ks6Tq2Wp8Ly4M=",
    # a bank's security question as it asks it, and the answer after it
    "Nationwide: mother's maiden name? → Abernathy",
    "first pet's name? is Pickle, for the credit union",
    "What was the name of your first pet? Biscuit",
    "Сбер: девичья фамилия матери? — Кузнецова",
    "Akbank — ilk evcil hayvanınızın adı? — Pamuk",
    # backup and recovery codes named in more languages
    "Dropbox: códigos de backup 4471 2093  8812 6650  3309 1174  5526 8841",
    "Steam kode cadangan: ptrw-kz8a  m3xq-vv7n  q9rb-2kfe  hh4t-ycw6",
    "Microsoft herstelsleutel: Q7ZP-4MXK-W2RT-9HNB-L6CV-3DGY (laptop)",
    # a password that starts with "%" on a command line is no Windows variable
    "mongosh --host db1 -u app -p '%.vT#q8&Lm~2Z' --authenticationDatabase admin",
]

STORED = [
    "Msimbo wa posta wa kijiji ni 40100",  # a postal code
    "Namba ya siri ya kadi nimeibadilisha jana",  # changed, no value
    "code word for the pharmacy account: see the blue folder",
    "Кодовое слово: спросить у мамы",
    "我们周一二三四五都在办公室",  # Monday to Friday
    "二〇二四年十月搬家",  # a year
    "the passphrase is kept in the family vault",
    "Your passphrase should be five words or more.",
    "my passphrase is correct horse battery staple, like the comic",
    "to get the db password: vault kv get -field=password secret/staging/postgres",
    "otpauth://totp/ISSUER:ACCOUNT?secret=BASE32SECRET&issuer=ISSUER is the URI's format",
    "🔒 locked notes from the 2024 trip",
    "What was the name of your first pet? I never know which one they mean.",
    "Do you know your mother's maiden name? We need it for the family tree.",
    "mother's maiden name? see the blue notebook",
    "yedek kodlarımı yazdırdım, çekmecede duruyor",
    "You can add backup codes later. Reference: 13ebe0da-38fd-4429-8dec-d372b03acc9e",
    "sqlcmd -S db01 -U sa -P %SA_PASSWORD%",
]


# A list's or a record's sentence read on its own too, not only joined to its neighbours ("..., #todo")
REFUSED_RECORDS = [
    ["קוד סודי של הכרטיס: 7315", "#todo"],
    ["קוד סודי של הכרטיס: 7315", "לזכור", "todo later"],
    {"note": "קוד סודי של הכרטיס: 7315", "tag": "bank stuff"},
]
STORED_RECORDS = [
    ["card PIN changed at the branch", "#todo"],
    {"note": "the door code is on the fridge", "tag": "house 12"},
]


# A token given in pieces: script variables joined, a table's column, pieces in reverse, a prefix apart
PIECES = [
    'TOK_A="hf_QpLmZxWvKd"\nTOK_B="RtYuNbVcXzAsDfGhJkLqWeP"\nexport HF_TOKEN="${TOK_A}${TOK_B}"',
    "GitLab token by rows\n| part | text |\n|---|---|\n| a | glpat-Hk3Lm9 |\n| b | Qw2Er7Ty4Ui8Op |",
    "token, last piece first: Ui8OpZx1Cv | Lm9Qw2Er7Ty4 | glpat-Hk3",
    "the bot's token: the usual xoxb- prefix, then 7731092840-5518203947-Zk8Lq2Wm9Xr4Tp6Vn1Bc3Hd",
]
NOT_PIECES = [
    'export URL="${HOST}${PATH_PREFIX}"',
    "| package | version |\n|---|---|\n| requests | 2.31.0 |\n| numpy | 1.26.4 |",
    "route: Lisbon | Madrid | Barcelona | Marseille",
    "GitHub tokens start with ghp_ and fine-grained ones with github_pat_",
]


@pytest.mark.parametrize("text", PIECES)
def test_a_token_given_in_pieces_is_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})


@pytest.mark.parametrize("text", NOT_PIECES)
def test_pieces_that_make_no_token_are_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


@pytest.mark.parametrize("value", REFUSED_RECORDS)
def test_a_sentence_beside_a_tag_is_read_alone(value: object) -> None:
    assert refused_kinds(GUARD, value)


@pytest.mark.parametrize("value", STORED_RECORDS)
def test_a_sentence_without_a_value_beside_a_tag_is_stored(value: object) -> None:
    assert stored(GUARD, value)


@pytest.mark.parametrize("text", REFUSED)
def test_the_credential_is_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})


@pytest.mark.parametrize("text", STORED)
def test_the_words_without_a_value_are_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


# The review of this stop's changes (helper 69): credentials its exemptions stored, and ordinary
# memories its detections refused, each mended; inputs as the review wrote them.
REVIEW_REFUSED = [
    "the vault password is 2YotnFZFEjr1zCsicMWpAA!",  # a password built on a published example
    "api key: tGzv3JOkF0XG5Qx2TlKWIA~prod",
    "bearer 2YotnFZFEjr1zCsicMWpAA:tGzv3JOkF0XG5Qx2TlKWIA",
    "not azurite. AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
    "Zk9Qm3Lx7Vt2Rp8Wn4Yc6Hd1Js5Fg0Ab;",
    "mongodb://admin:Secret@prod-db.acme.io:27017/app",  # a weak password is no slot
    "mongodb://admin:my-pass-is-strong@prod-db.acme.io:27017/app",
    "Twilio: AC3f9a0b1c2d3e4f5a6b7c8d9e0f1a4b8c / 9C1E4F7A2B8D3E6F0A5C1B9D7E2F4A8C",  # a token in capitals
    "Twilio: AC3f9a0b1c2d3e4f5a6b7c8d9e0f1a4b8c / 9C1E4F7A2B8D3E6F 0A5C1B9D7E2F4A8C",  # in halves
    "api_key = SK9TOKENX7Q2LM4P8RZ3",  # a slot word inside a random run
    "token: ABCTOKEN_7K2Q9ZM4V8XR3P1",
    "db password: vault kv get -field=password secret/app  # it is Tr0ub4dor&3 btw",
    "mysql_password: gpass show Zq8Kf3mLr0pX!",
    "password: <P@ssw0rd!>",
    "password: [m0nkey.b4r]",
    "password: {{Pa$$word1}}",
    "net user bob %Zq8K_f3mLr0pX%",  # a password between "%" signs is no Windows variable
]
REVIEW_STORED = [
    "Trivia night: city of birth? Paris, obviously, for the Marie Curie question",
    "CV: my first employer? Deloitte, 2012-2015.",
    "Movie quiz: the first pet? Hedwig, for Harry Potter.",
    "The wifi setup wizard asks for a passphrase: enter network name first.",
    "AWS access key IDs start with AKIA; our account alias is ACMEPRODUCTIONEU1 in the console",
    'curl -s -H "X-Auth-Token: $AUTH0_CLIENT_SECRET" https://tenant.eu.auth0.com/v2/orders',
    "neo4j-password: '{{ .Env.NEO4J_PASSWORD }}'",
    "net user bob %NEW_PASSWORD%",
    r"psexec \\srv -u admin -p %AdminPass% cmd",
]


@pytest.mark.parametrize("text", REVIEW_REFUSED)
def test_the_review_s_credentials_are_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})


@pytest.mark.parametrize("text", REVIEW_STORED)
def test_the_review_s_ordinary_memories_are_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


@pytest.mark.parametrize(
    "text",
    [
        "a" * 20_000 + "|",  # one long run and a bar: the pieces' view was quadratic in it
        "| logo | ![x](data:image/png;base64," + "QUJD" * 5_000 + ") |",
        "🔐" * 20_000,
    ],
)
def test_long_inputs_stay_fast(text: str) -> None:
    best = min(_timed(text) for _ in range(3))
    assert best < 1.0, best  # seconds; 4.4 s before the mend, about 0.03-0.06 s after


def _timed(text: str) -> float:
    start = time.perf_counter()
    try:
        GUARD.check({"text": text})
    except SecretRejected:
        pass  # the time is what this test reads
    return time.perf_counter() - start
