"""The write-time guard: secrets refused, PII redacted, nothing leaked.

No server is needed: every check runs on strings in process.
"""

from __future__ import annotations

import contextlib
import random
import re
import string
import time
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from langgraph_trustmem.errors import ConfigurationError, SecretRejected
from langgraph_trustmem.store.guard import (
    DEFAULT_PII,
    DEFAULT_REDACT,
    PII_KINDS,
    SECRET_KINDS,
    Guard,
    redact_pii,
    scan_secrets,
)

DATA = Path(__file__).resolve().parent.parent / "data"


def corpus(name: str) -> list[str]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("# ")]


SECRETS = corpus("secrets.txt")
BENIGN = corpus("benign.txt")


# -- the labelled corpus ---------------------------------------------------------------------


def test_corpus_is_large_and_distinct():
    assert len(SECRETS) >= 220 and len(BENIGN) >= 220
    assert len(set(SECRETS)) == len(SECRETS)
    assert len(set(BENIGN)) == len(BENIGN)


def test_flags_at_least_99_percent_of_secrets():
    missed = [line for line in SECRETS if not scan_secrets(line)]
    rate = 1 - len(missed) / len(SECRETS)
    print(f"\nsecrets flagged: {rate:.2%} ({len(SECRETS) - len(missed)}/{len(SECRETS)})")
    assert rate >= 0.99, "missed (fake) secrets:\n" + "\n".join(missed)


def test_flags_at_most_1_percent_of_benign_memories():
    flagged = [(line, scan_secrets(line)) for line in BENIGN]
    flagged = [(line, kinds) for line, kinds in flagged if kinds]
    rate = len(flagged) / len(BENIGN)
    print(f"\nbenign flagged: {rate:.2%} ({len(flagged)}/{len(BENIGN)})")
    assert rate <= 0.01, "false positives:\n" + "\n".join(f"{kinds} {line}" for line, kinds in flagged)


def test_only_fixed_kind_names_come_out():
    """Kinds are constants of the module, so no part of a value can leak through them."""
    for line in SECRETS + BENIGN:
        kinds = scan_secrets(line)
        assert kinds == sorted(set(kinds))
        assert set(kinds) <= SECRET_KINDS, line


# -- kinds -----------------------------------------------------------------------------------

RSA = "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA7V1dxkq3\\n-----END RSA PRIVATE KEY-----"
JWT_TOKEN = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("the uploader uses AKIAZ7VRSQ5TJNNWBJGM", "AWS access key"),
        ("aws secret access key is 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", "AWS secret key"),
        (f"backup of the server key {RSA}", "private key"),
        (f"the portal gave me {JWT_TOKEN}", "JWT"),
        ("my password is hunter2", "password"),
        ("the wifi password at mom's place is sunflower", "password"),
        ("I changed my bank password to Tr0ub4dor&3", "password"),
        ("my Visa is 4111 1111 1111 1111, expires 04/27", "credit card number"),
        ("my GitHub token is ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ", "GitHub token"),
        ("GitLab token glpat-xY7zK9mN2pQ4rS6tU8vW", "GitLab token"),
        ("bot token xoxb-123456789012-123456789012-abcdefghijklmnopqrstuvwx", "Slack token"),
        ("Stripe: sk_live_51Hq2mKLx9TzQa8Vb7Nc6Md5L", "Stripe key"),
        ("openai key sk-proj-" + "Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAB7cDE0fGH3iJK6lMN9o", "OpenAI key"),
        (
            "claude key sk-ant-api03-" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8Ba7Zy6Xw5Vu4Ts3Rq2Po1" + "AA",
            "Anthropic key",
        ),
        ("maps key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", "Google API key"),
        ("the weather api key is zT9xQ2mL7vB4nR8kW3pJ6hF1dS5gA0cE", "generic API key"),
        (
            "DATABASE_URL=postgres://app:S3cret-pass@db.internal:5432/health",
            "connection string with password",
        ),
        ("Server=db;Database=Clinic;User Id=sa;Password=Pg!2024app;", "connection string with password"),
        ("the old wiki is at https://admin:Sunflower88@wiki.example.com/", "basic auth credentials"),
        ("Authorization: Basic YWRtaW46aHVudGVyMg==", "basic auth credentials"),
        ("Authorization: Bearer 27rqfDpiCtwRWdbJcXfEHoajwP1PMWt4", "bearer token"),
        ("my debit card PIN is 4821", "PIN"),
        ("CVV on the new card is 737", "card security code"),
    ],
)
def test_kinds_are_named(text, kind):
    assert kind in scan_secrets(text)


def test_several_kinds_sorted_and_distinct():
    text = "my password is hunter2 and my other password is Winter2024!, key AKIAZ7VRSQ5TJNNWBJGM"
    assert scan_secrets(text) == ["AWS access key", "password"]


def test_secret_on_a_later_line_of_a_long_text():
    text = "Notes from the visit.\n" * 50 + "Remember: my password is hunter2\n" + "All good." * 30
    assert scan_secrets(text) == ["password"]


def test_extra_patterns():
    assert scan_secrets("badge EMP-99887766", extra_patterns={"employee badge": r"\bEMP-\d{8}\b"}) == [
        "employee badge"
    ]
    with pytest.raises(ConfigurationError):
        scan_secrets("x", extra_patterns={"bad": "("})


def test_unicode_disguises_do_not_hide_secrets():
    assert scan_secrets("my \uff50\uff41\uff53\uff53\uff57\uff4f\uff52\uff44 is hunter2") == ["password"]
    assert "AWS access key" in scan_secrets("key AKIA\u200bZ7VRSQ5TJNNWBJGM")
    assert scan_secrets("card \uff14\uff11\uff11\uff11" + " \uff11\uff11\uff11\uff11" * 3) == [
        "credit card number"
    ]


def test_scan_rejects_non_strings():
    with pytest.raises(TypeError):
        scan_secrets(b"my password is hunter2")  # type: ignore[arg-type]


# -- nothing leaks ---------------------------------------------------------------------------

LEAK_CASES = [
    ("my password is hunter2", "hunter2"),
    ("the uploader uses AKIAZ7VRSQ5TJNNWBJGM", "AKIAZ7VRSQ5TJNNWBJGM"),
    ("card 4242 4242 4242 4242", "4242 4242 4242 4242"),
    ("DATABASE_URL=postgres://app:S3cret-pass@db.internal:5432/health", "S3cret-pass"),
]


@pytest.mark.parametrize(("text", "secret"), LEAK_CASES)
def test_secret_rejected_does_not_carry_the_secret(text, secret):
    with pytest.raises(SecretRejected) as info:
        Guard().check({"memory": {"notes": ["fine", text]}})
    exc = info.value
    rendered = " ".join([str(exc), repr(exc), repr(exc.args), repr(exc.kinds), repr(vars(exc))])
    for piece in {secret, secret.replace(" ", ""), secret[:6], secret[-6:]}:
        assert piece not in rendered
    assert exc.kinds and set(exc.kinds) <= SECRET_KINDS
    # the traceback's own frames hold the value, but not the exception
    assert exc.__cause__ is None and exc.__context__ is None


def test_secret_rejected_for_every_secret_of_the_corpus_without_its_tokens():
    """What a refusal says; which lines are refused is test_flags_at_least_99_percent_of_secrets'
    (two corpus lines pass: a PIN spelled out, and a token holding the alphabet in order,
    which the engine's global filter takes for a documentation example)."""
    guard = Guard(redact=())
    for line in SECRETS[:: max(1, len(SECRETS) // 60)]:
        if not scan_secrets(line):
            continue
        with pytest.raises(SecretRejected) as info:
            guard.check({"text": line})
        message = str(info.value)
        tokens = [t for t in re.split(r"[\s,;\"'()]+", line) if len(t) >= 8 and not t.isalpha()]
        for token in tokens:
            assert token not in message, "a value reached the message"


# -- PII redaction ---------------------------------------------------------------------------


def test_redacts_email_phone_ssn_card_iban_ip():
    text = (
        "Email priya.r@clinic-mail.com or call (415) 555-0132 / +44 20 7946 0958. "
        "SSN 123-45-6789, card 4111-1111-1111-1111, IBAN DE89 3704 0044 0532 0130 00, "
        "laptop at 203.0.113.17."
    )
    out, kinds = redact_pii(text)
    assert kinds == ["CARD", "EMAIL", "IBAN", "IP", "PHONE", "SSN"]
    assert out == (
        "Email [EMAIL] or call [PHONE] / [PHONE]. SSN [SSN], card [CARD], IBAN [IBAN], laptop at [IP]."
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to mailto:dana.r@example.net today", "write to mailto:[EMAIL] today"),
        ("text me at 415.555.0199", "text me at [PHONE]"),
        ("my social security number is 078-05-1121", "my social security number is [SSN]"),
        ("SSN: 123456789", "SSN: [SSN]"),
        ("Amex 3782 822463 10005 for travel", "Amex [CARD] for travel"),
        ("GB82 WEST 1234 5698 7654 32 is the account", "[IBAN] is the account"),
        ("VPS at 2001:db8:85a3::8a2e:370:7334 now", "VPS at [IP] now"),
    ],
)
def test_redacts_each_kind(text, expected):
    assert redact_pii(text)[0] == expected


BENIGN_PII_FREE = [
    "Blood pressure this morning: 122/78, pulse 64.",
    "Dentist appointment with Dr. Alvarez on 2024-09-14 at 10:15.",
    "Order #112-4839201-3382210 arrives Thursday.",
    "USPS tracking 9400 1000 0000 0000 0000 00 for the refill.",
    "My phone's IMEI is 356938035643809.",
    "Python 3.11.7 and firmware 4.2.0-rc.3; build 10.0.19045.2965.",
    "The ISBN is 978-0-7432-7356-5; NPI 1234567893.",
    "Card ending in 4242 was declined.",
    "Epoch timestamp 1714060800; HbA1c 6.1%; LDL 128 mg/dL.",
    "npm package @clinic/ui-kit@3.4.1 and python:3.11-slim@sha256:abc are pinned.",
    "Localhost is 127.0.0.1 and the MAC is 3C:22:FB:9A:10:7E; meeting at 12:30:45.",
    "Version v1.2.3.4 of the app.",
]


@pytest.mark.parametrize("text", BENIGN_PII_FREE)
def test_leaves_benign_text_alone(text):
    assert redact_pii(text) == (text, [])


def test_no_card_ssn_or_iban_false_positives_in_benign_corpus():
    changed = []
    for line in BENIGN:
        _, kinds = redact_pii(line, {"CARD", "SSN", "IBAN"})
        if kinds:
            changed.append(f"{kinds} {line}")
    assert not changed, "\n".join(changed)


def test_kinds_are_configurable():
    text = "mail a@b.org, phone (415) 555-0132"
    assert redact_pii(text, {"EMAIL"}) == ("mail [EMAIL], phone (415) 555-0132", ["EMAIL"])
    assert redact_pii(text, ["phone"]) == ("mail a@b.org, phone [PHONE]", ["PHONE"])
    assert redact_pii(text, ()) == (text, [])
    with pytest.raises(ConfigurationError):
        redact_pii(text, {"NAME"})


def test_phone_regions():
    text = "ring 07911 123456 after six"
    assert redact_pii(text)[0] == text  # a UK national number is not a US one
    assert redact_pii(text, phone_regions=("US", "GB"))[0] == "ring [PHONE] after six"
    with pytest.raises(ConfigurationError):
        redact_pii(text, phone_regions=("XX",))


def test_default_pii_kinds():
    """redact_pii() alone redacts every kind; the guard by default only those that work
    as credentials."""
    assert DEFAULT_PII == PII_KINDS == {"EMAIL", "PHONE", "SSN", "CARD", "IBAN", "IP"}
    assert DEFAULT_REDACT == {"SSN", "CARD"}
    assert Guard().redact == DEFAULT_REDACT


# -- Guard.check -----------------------------------------------------------------------------

Visit = namedtuple("Visit", "doctor contact")


def test_check_walks_nested_values_and_redacts_every_string():
    value = {
        "summary": "call Dr. Chen at (415) 555-0132",
        "visits": [
            {"when": "2024-09-14", "contacts": ("dr.chen@clinic.example.org", 3, None, True, 1.5)},
            Visit("Chen", "priya.r@clinic-mail.com"),
        ],
        "tags": ["cardio", ["nested", ["deeper: 203.0.113.17"]]],
        "owner@example.com": "key holds PII",
    }
    original = repr(value)
    assert Guard().check(value) == (value, [])  # personal data is kept by default
    out, kinds = Guard(redact=PII_KINDS).check(value)
    assert kinds == ["EMAIL", "IP", "PHONE"]
    assert out == {
        "summary": "call Dr. Chen at [PHONE]",
        "visits": [
            {"when": "2024-09-14", "contacts": ("[EMAIL]", 3, None, True, 1.5)},
            Visit("Chen", "[EMAIL]"),
        ],
        "tags": ["cardio", ["nested", ["deeper: [IP]"]]],
        "[EMAIL]": "key holds PII",
    }
    assert repr(value) == original  # the input is not modified


def test_check_rejects_a_secret_deep_inside():
    value = {"a": [{"b": ({"c": "fine"}, ["still fine", {"d": "my password is hunter2"}])}]}
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert info.value.kinds == ("password",)


def test_check_rejects_a_secret_in_a_key_and_a_card_number_as_int():
    with pytest.raises(SecretRejected):
        Guard().check({"AKIAZ7VRSQ5TJNNWBJGM": "aws"})
    with pytest.raises(SecretRejected) as info:
        Guard().check({"card": 4111111111111111})
    assert info.value.kinds == ("credit card number",)


def test_check_collects_all_kinds_before_raising():
    with pytest.raises(SecretRejected) as info:
        Guard().check(["my password is hunter2", {"k": "the uploader uses AKIAZ7VRSQ5TJNNWBJGM"}])
    assert info.value.kinds == ("AWS access key", "password")


def test_check_options():
    value = {"note": "my password is hunter2, mail a@b.org, MRN 00482913"}
    assert Guard(reject_secrets=False).check(value) == (value, [])
    out, kinds = Guard(reject_secrets=False, redact={"EMAIL"}).check(value)
    assert out == {"note": "my password is hunter2, mail [EMAIL], MRN 00482913"} and kinds == ["EMAIL"]
    assert Guard(reject_secrets=False, redact=()).check(value) == (value, [])
    out, kinds = Guard(
        reject_secrets=False, redact={"EMAIL"}, extra_pii={"MRN": r"\bMRN\s*\d{6,10}\b"}
    ).check(value)
    assert out == {"note": "my password is hunter2, mail [EMAIL], [MRN]"} and kinds == ["EMAIL", "MRN"]
    with pytest.raises(SecretRejected) as info:
        Guard(extra_patterns={"employee badge": r"\bEMP-\d{8}\b"}).check({"badge": "EMP-99887766"})
    assert info.value.kinds == ("employee badge",)
    with pytest.raises(ConfigurationError):
        Guard(redact={"NAME"})


def test_check_passes_plain_scalars_and_refuses_what_it_cannot_inspect():
    assert Guard().check(None) == (None, [])
    assert Guard().check(12345) == (12345, [])
    assert Guard().check([1.5, False, "ok"]) == ([1.5, False, "ok"], [])
    with pytest.raises(TypeError):
        Guard().check({"blob": b"my password is hunter2"})
    with pytest.raises(TypeError):
        Guard().check({"obj": object()})


def test_check_refuses_cycles_and_keeps_colliding_keys():
    cyclic: dict = {"a": 1}
    cyclic["self"] = cyclic
    with pytest.raises(ValueError):
        Guard().check(cyclic)
    out, _ = Guard(redact={"EMAIL"}).check({"a@b.org": 1, "c@d.org": 2})
    assert out == {"[EMAIL]": 1, "[EMAIL] (2)": 2}


def test_guard_is_immutable():
    with pytest.raises(AttributeError):
        Guard().reject_secrets = False  # type: ignore[misc]


# -- concurrency, global state, speed --------------------------------------------------------


def test_thread_safe_and_no_detect_secrets_settings_touched():
    from detect_secrets.settings import get_settings

    before = get_settings().json()
    sample = SECRETS + BENIGN
    expected = [scan_secrets(line) for line in sample]
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(3):
            assert list(pool.map(scan_secrets, sample)) == expected
    assert get_settings().json() == before


def _memories(n: int, *, with_secret: bool, length: int = 200) -> list[str]:
    """Texts of about ``length`` characters made of benign memories, one holding a secret
    line when ``with_secret``."""
    rng = random.Random(7)
    out = []
    for _ in range(n):
        parts = [rng.choice(SECRETS)] if with_secret else []
        while sum(len(p) + 1 for p in parts) < length:
            parts.append(rng.choice(BENIGN))
        rng.shuffle(parts)
        text = " ".join(parts)
        out.append(text if with_secret else text[:length])
    return out


def _per_text_us(fn, texts: list[str], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in texts:
            fn(text)
        best = min(best, time.perf_counter() - start)
    return best / len(texts) * 1e6


def test_scan_speed_per_200_char_text():
    benign = _memories(400, with_secret=False)
    with_secret = _memories(400, with_secret=True)
    scan_secrets(benign[0])
    redact_pii(benign[0])
    scan_benign = _per_text_us(scan_secrets, benign)
    scan_secret = _per_text_us(scan_secrets, with_secret)
    redact = _per_text_us(redact_pii, benign)
    guard = Guard()
    check = _per_text_us(lambda t: guard.check({"text": t}), benign)
    print(
        f"\nper 200-char memory: scan_secrets {scan_benign:.0f} us (benign), {scan_secret:.0f} us (with a secret); "
        f"redact_pii {redact:.0f} us; Guard.check {check:.0f} us"
    )
    assert scan_benign < 2000  # a regression guard, far above the measured figure


def test_long_and_adversarial_texts_stay_fast():
    rng = random.Random(3)
    noise = "".join(rng.choice(string.ascii_letters + string.digits + " :=/@-_.'\"") for _ in range(100_000))
    cases = [
        noise,
        "password " * 20_000,
        "a" * 100_000,
        "4" * 50_000,
        "key=" + "A1b2" * 25_000,
        "https://" + "user:" * 20_000 + "@host",
    ]
    for text in cases:
        start = time.perf_counter()
        scan_secrets(text)
        redact_pii(text)
        assert time.perf_counter() - start < 10, text[:40]


# -- the rule engine ---------------------------------------------------------------------------


def test_the_engine_is_loaded_and_runs_offline_in_process():
    from langgraph_trustmem.guard import engine_available

    assert engine_available()
    # formats only the engine's rules know, each followed by sentence punctuation
    assert scan_secrets("the workspace token is dapi" + "0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d.") == [
        "Databricks token"
    ]
    assert scan_secrets(
        "postman: PMAK-0123456789abcdef01234567-0123456789abcdef0123456789abcdef01, thanks"
    ) == ["Postman key"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("alerts go to https://discord.com/api/webhooks/123456789012345678/" + "aB3_xY9-" * 8 + "Qz7k", "Discord webhook"),
        ("my metamask private key is 0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
         "cryptocurrency private key"),
        ("newrelic NRAK-" + "A1B2C3D4E5F6G7H8I9J0K1L2M3N", "New Relic key"),
    ],
)  # fmt: skip
def test_formats_the_engine_misses_are_ours(text, kind):
    assert kind in scan_secrets(text)


def test_hashes_next_to_key_words_are_not_keys():
    for text in [
        "tx hash 0x" + "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318" + " confirmed",
        "The key fingerprint SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s matches.",
        "password: stored in the vault",
    ]:
        assert scan_secrets(text) == [], text


def test_engine_failure_is_typed_and_names_no_content(monkeypatch):
    from langgraph_trustmem.guard import engine

    def boom(document):
        raise RuntimeError(f"bad input: {document}")

    monkeypatch.setattr(engine, "_scan_string", boom)
    with pytest.raises(RuntimeError) as info:
        Guard().check({"text": "my token ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"})
    assert "ghp_" not in str(info.value) and info.value.__cause__ is None and info.value.__suppress_context__


def test_a_missing_engine_is_a_configuration_error_not_a_weaker_guard(monkeypatch):
    from langgraph_trustmem.guard import engine

    monkeypatch.setattr(engine, "_scan_string", None)
    monkeypatch.setattr(engine, "_load_error", "ImportError")
    with pytest.raises(ConfigurationError, match="betterleaks"):
        Guard()
    guard = Guard(engine=False)  # the built-in rules alone, chosen explicitly
    with pytest.raises(SecretRejected):
        guard.check({"text": "my password is hunter2"})


# -- structured memories: field names as context --------------------------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({"username": "bob", "password": "Tr0ub4dor&3x!"}, "password"),
        ({"bank_pin": "4821"}, "PIN"),
        ({"phone_passcode": 551903}, "PIN"),
        ({"card": {"cvv": "737"}}, "card security code"),
        ({"login": {"email": "maya@example.com", "pwd": "correct-horse-battery-staple"}}, "password"),
        ({"auth": {"type": "bearer", "value": "zT9xQ2mL7vB4nR8kW3pJ6hF1dS5gA0cE"}}, "generic API key"),
        ({"totp_secret": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"}, "2FA secret"),
        ({"security_answer": "Rosebud Lane"}, "security question answer"),
    ],
)
def test_field_names_say_what_a_value_is(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


@pytest.mark.parametrize(
    "value",
    [
        {"password_hint": "first pet + birth year"},
        {"password_last_changed": "2024-05-01"},
        {"pin_required": True},
        {"max_tokens": 1024, "token_budget": 4000},
        {"password": "********"},
        {"api_key": "<redacted>"},
        {"token": "$CHAT_TOKEN"},
        {"wifi": {"ssid": "Home-5G", "password": "ask Tom"}},
        {"key": "C minor", "keys": "under the mat"},
        {"session": {"id": "3fa85f64-5717-4562-b3fc-2c963f66afa6"}},
        {"secret_santa_group": "Office 2024"},
        {"door_code_location": "ask the concierge"},
    ],
)
def test_secret_sounding_fields_with_harmless_values_pass(value):
    assert Guard().check(value) == (value, [])


# -- disguises ---------------------------------------------------------------------------------

GH = "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"


@pytest.mark.parametrize(
    "value",
    [
        {"text": "spaced: " + " ".join(GH)},
        {"text": "aws AKIA Z7VR SQ5T JNNW BJGM"},
        {"text": "b64 " + "Z2hwXzFhMkIzYzRENWU2RjdnOEg5aTBKa0xtTm9QcVJzVHVWd1h5Wg=="},
        {"text": "hex " + GH.encode().hex()},
        {"text": "reversed: " + GH[::-1]},
        {"part1": GH[:15], "part2": GH[15:]},
        {"pieces": [GH[:10], GH[10:25], GH[25:]]},
        {"card_1": "4111", "card_2": "1111", "card_3": "1111", "card_4": "1111"},
        {"text": "card 4111.1111.1111.1111"},
        {"text": "card 4111 / 1111 / 1111 / 1111"},
        {"text": "key \u0410\u041aIAZ7VRSQ5TJNNWBJGM"},  # Cyrillic A and K
        {"text": "token " + "\u200b".join(GH)},
        {"text": "user=maya&password%3DS3cr3t%21Pass"},
    ],
)
def test_disguised_secrets_are_found(value):
    with pytest.raises(SecretRejected):
        Guard().check(value)


@pytest.mark.parametrize(
    "value",
    [
        {"text": "SGVsbG8gZnJvbSB0aGUgY2xpbmljLCBzZWUgeW91IE1vbmRheQ=="},  # "Hello from the clinic..."
        {"text": "e n j o y  t h e  t r i p"},
        {"text": "Москва, встреча в 18:00"},
        {"area": "415", "exchange": "555", "line": "0132"},
        {"lottery": ["07", "19", "23", "31", "42", "45"]},
        {"text": "Python 3.12.1, build 10.0.22631.3296, IP 192.168.1.20"},
    ],
)
def test_undoing_disguises_does_not_invent_secrets(value):
    assert Guard().check(value) == (value, [])


# -- the key and the namespace ------------------------------------------------------------------


def test_secrets_in_the_key_or_namespace_are_refused():
    guard = Guard()
    for namespace, key in [
        (("memories", "u1"), GH),
        (("memories", "u1"), "password=Hunter2!!"),
        (("memories", "u1"), "pin-7720"),
        (("memories", "u1", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"), "k"),
        (("memories", "u1", "password"), "Ch3rry!Pie"),
    ]:
        with pytest.raises(SecretRejected) as info:
            guard.check({"text": "fine"}, namespace=namespace, key=key)
        assert GH not in str(info.value) and "Hunter2" not in str(info.value)


def test_ordinary_keys_and_namespaces_pass():
    guard = Guard()
    for namespace, key in [
        (("memories", "ana.silva@example.com"), "3fa85f64-5717-4562-b3fc-2c963f66afa6"),
        (
            ("memories", "user_2LD3obGjgOsxJ8H2J2kCl1gobGN", "notes"),
            "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432",
        ),
        (("memories", "auth0|64f1c2a9b8e7d6c5b4a39281", "passwords-to-change"), "pw-reset-reminder"),
        (("memories", "u1", "tokens"), "pin-board"),
    ]:
        assert guard.check({"text": "likes tea"}, namespace=namespace, key=key) == ({"text": "likes tea"}, [])


# -- personal data is kept, credential-like identifiers are not -------------------------------


def test_default_keeps_personal_data_and_redacts_ssns():
    value = {
        "contact": "call me at (415) 555-0132 or maya@example.com",
        "rent": "IBAN DE89 3704 0044 0532 0130 00",
        "nas": "192.168.1.20",
        "tax": "my SSN is 123-45-6789",
        "ssn": "123456789",
    }
    out, kinds = Guard().check(value)
    assert kinds == ["SSN"]
    assert out == {**value, "tax": "my SSN is [SSN]", "ssn": "[SSN]"}
    with pytest.raises(SecretRejected) as info:
        Guard().check({"card": "4111 1111 1111 1111"})
    assert info.value.kinds == ("credit card number",)
    out, _ = Guard(reject_secrets=False).check({"card": "4111 1111 1111 1111"})
    assert out == {"card": "[CARD]"}  # payment card data never stays, even with refusals off


@pytest.mark.parametrize(
    "value",
    [
        {"text": "spaced: " + " ".join(GH)},
        {"part1": GH[:15], "part2": GH[15:]},
        {"username": "bob", "password": "Tr0ub4dor&3x!"},
        {"text": "b64 Z2hwXzFhMkIzYzRENWU2RjdnOEg5aTBKa0xtTm9QcVJzVHVWd1h5Wg=="},
    ],
)
def test_refusals_of_disguised_and_structured_secrets_name_no_value(value):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value, namespace=("memories", "u1"), key="k")
    exc = info.value
    rendered = " ".join([str(exc), repr(exc), repr(exc.args), repr(vars(exc))])
    for piece in (GH, GH[:8], GH[-8:], "Tr0ub4dor", "Z2hwXzFh"):
        assert piece not in rendered
    assert set(exc.kinds) <= SECRET_KINDS and exc.__context__ is None


# -- the engine extension and the second round of detectors -------------------------------------


def test_extension_rules_load_with_the_engines_defaults():
    from langgraph_trustmem.guard import rules

    assert "useDefault = true" in rules.extension_toml()
    assert len({r.id for r in rules.EXTENSION_RULES}) == len(rules.EXTENSION_RULES)
    assert set(rules.RULE_KINDS.values()) <= SECRET_KINDS
    # one of the engine's own rules still runs beside ours
    assert "GitHub token" in scan_secrets("token ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ")


def _tok(alphabet: str, n: int, seed: int = 5) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


AN = string.ascii_letters + string.digits
URLSAFE = AN + "-_"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("AAAAAAAAAAAAAAAAAAAAA" + _tok(AN, 7) + "AAAAAA" + _tok(AN + "%", 60) + " is the X token", "Twitter token"),
        ("use ya29." + _tok(URLSAFE, 120), "Google OAuth token"),
        ("refresh 1//0" + _tok(URLSAFE, 60), "Google OAuth token"),
        ("for the photo site: AAAA" + _tok(URLSAFE, 7) + ":APA91b" + _tok(URLSAFE, 134), "Firebase key"),
        ("sk.eyJ1IjoibWF5YSIsImEiOiJ4In0." + _tok(URLSAFE, 22), "Mapbox token"),
        ("Carlos pasted lsv2_sk_" + _tok("0123456789abcdef", 32) + "_" + _tok("0123456789abcdef", 10) + " into the doc",
         "LangSmith key"),
        ("the thing Priya gave me was H8Z0Q~" + _tok(AN, 34), "Azure credential"),
        ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n" + _tok(AN, 44), "private key"),
        ("re_" + _tok(AN, 8) + "_" + _tok(AN, 24), "Resend key"),
    ],
)  # fmt: skip
def test_bare_vendor_tokens(text, kind):
    assert kind in scan_secrets(text)


def test_a_vendor_style_token_no_rule_knows_is_a_generic_key():
    assert scan_secrets("new one from the dashboard: zqx_" + _tok(AN, 40)) == ["generic API key"]
    assert scan_secrets("zqx-live-" + _tok(AN, 36)) == ["generic API key"]
    # a token a rule names is reported under that name only
    assert scan_secrets(
        "postman PMAK-" + _tok("0123456789abcdef", 24) + "-" + _tok("0123456789abcdef", 34)
    ) == ["Postman key"]


@pytest.mark.parametrize(
    "text",
    [
        "Stripe publishable key pk_live_" + _tok(AN, 99) + " goes in the frontend",
        "customer cus_" + _tok(AN, 14) + " and payment pi_" + _tok(AN, 24),
        "assistant asst_" + _tok(AN, 24) + ", thread thread_" + _tok(AN, 24),
        "message msg_01" + _tok(AN, 22) + " and tool call toolu_01" + _tok(AN, 22),
        "integrity sha512-" + _tok(AN + "+/", 86) + "==",
        "cache key v3-deps-" + _tok("0123456789abcdef", 40),
        "backup_2024-03-01_full_" + _tok("0123456789abcdef", 32) + ".tar.zst",
        "job job_" + _tok("0123456789abcdef", 32) + " finished",
        "I use Bitwarden as my password manager now.",
        "1Password is my password manager; Bitwarden was my old password manager.",
        "pwd: /Users/maya/projects/health-tracker",
        "token: REDACTED (removed before sharing) and a note 212.555.3198",
        "WireGuard peer PublicKey = " + _tok(AN, 43) + "=",
        "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + _tok(AN, 43),
        "the combination of 3 drugs was 10-20-30 mg",
        "Reset the password for the account tomorrow.",
    ],
)
def test_look_alikes_of_the_new_rules_pass(text):
    assert scan_secrets(text) == [], text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("use " + _tok(AN + "+/", 40) + " when the newsletter asks for the AWS secret access key", "AWS secret key"),
        ("ftp://maya:Sunshine#1987@files.example.net/backups", "basic auth credentials"),
        ("prod-db.example.com:5432:health:app:Pa55word!", "connection string with password"),
        ("<password>Mango_Tango_88</password>", "password"),
        ("wifi:\n  ssid: CabinNet\n  psk: ilovemycat2019", "password"),
        ("client_secret=@Ys6VY3LbnQg@uGLe3Dhhb4vRCmI#ezNRRSDUv#fN6xIIjJT", "generic API key"),
        ("encryption_key: C0sH7^g^GX^T@Dw%%go2rXXRpMABz#zxCnQ@dAI2xe1MyhyI", "generic API key"),
        ("Bl@ckC0ffee#7 is my password for everything, don't judge", "password"),
        ("pwd for the NAS hunter2hunter2", "password"),
        ("safe combination 12-65-49", "PIN"),
        ("Code de la carte bleue: 0451", "PIN"),
        ("the security code on the back is 854", "card security code"),
        ("wallet mnemonic -> arrive beef call because economy fancy acid amazing album debris ancient amused",
         "recovery phrase"),
        ("12 words for the cold wallet: arrange echo ecology adult army egg annual april beef arm above almost",
         "recovery phrase"),
    ],
)  # fmt: skip
def test_prose_and_config_forms(text, kind):
    assert kind in scan_secrets(text), text


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({"code": "6121", "door": "front", "note": "keypad on the left"}, "PIN"),
        ({"chain": "ethereum", "private_key": "0x" + _tok("0123456789abcdef", 64)}, "private key"),
        ({"wallet": "cold", "words": "abandon ability able about above absent absorb abstract absurd abuse access "
          "accident".split()}, "recovery phrase"),
        ({"note": "api key sk -A UX I3 QU yl wH zG d8 un H3 hT 3B lb kF Jq 2d P0 1M 6N 4O wH g2 rZ Qj Z"}, "OpenAI key"),
    ],
)  # fmt: skip
def test_structured_and_disguised_forms(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


def test_reversed_token_without_digits():
    with pytest.raises(SecretRejected):
        Guard().check({"memory": ("glpat-" + "jVqJMGQcEQvmaHPOwzBu")[::-1] + " (read it backwards)"})


@pytest.mark.parametrize(
    "value",
    [
        {"code": "6121", "type": "promo", "shop": "bakery"},
        {"tags": ["abandon", "ability", "able"]},
        {"public_key": "AAAAC3NzaC1lZDI1NTE5AAAAI" + _tok(AN, 43)},
    ],
)
def test_structured_look_alikes_pass(value):
    assert Guard().check(value) == (value, [])


def test_a_base58_run_too_large_for_a_wallet_key_does_not_crash():
    # a base58 run of a WIF key's length was decoded into a buffer of a WIF key's size
    assert scan_secrets("address 5" + "z" * 51) == []  # raised OverflowError before


def test_the_rules_reach_the_engine_without_writing_a_file_on_linux():
    import sys

    from langgraph_trustmem.guard import rules

    path = rules.config_path()
    if sys.platform.startswith("linux"):
        assert path.startswith("/proc/self/fd/")
    assert rules.config_path() == path  # one configuration per process


@pytest.mark.parametrize(
    "value",
    [
        # twelve wallet-list words that are a shopping list, not a phrase (no checksum, no cue)
        {"text": "shopping: apple banana bread butter cheese coffee egg lemon rice salad sugar tomato"},
        {"items": "apple banana bread butter cheese coffee egg lemon rice salad sugar tomato".split()},
        {"text": "Review blue concert prefers old family doctor hotel warm concert soup ticket old music trip second."},
    ],
)
def test_word_lists_that_are_not_recovery_phrases_pass(value):
    assert Guard().check(value) == (value, [])


def test_an_unannounced_phrase_is_known_by_its_checksum():
    phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"  # BIP-39 test vector
    with pytest.raises(SecretRejected) as info:
        Guard().check({"text": f"keep this safe: {phrase}"})
    assert "recovery phrase" in info.value.kinds
    with pytest.raises(SecretRejected):
        Guard().check({"notes": phrase.split()})


# -- the third round: languages, passphrases, name/value records, wallets ------------------------


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({"text": "Hasło do poczty: Zielony#Las42"}, "password"),
        ({"text": "Lösenordet till wifi är Kaffe!Bryggare9"}, "password"),
        ({"text": "ルーターのパスワードは Neko7!shima です"}, "password"),
        ({"text": "邮箱的密码是 Lan8#shan2024"}, "password"),
        ({"text": "대문 비밀번호는 Sky9!Tree77 입니다"}, "password"),
        ({"text": "the vpn password is marble-otter-canvas-drift"}, "password"),
        ({"text": "router pass → lemon-kettle-orbit-snow"}, "password"),
        ({"text": "Tulip_2018 is what I set for the tablet"}, "password"),
        ({"text": "my work laptop login is now gravel-piano-hinge-cloud"}, "password"),
        ({"text": "the printer admin page uses root / pR1nt#Adm!n"}, "basic auth credentials"),
        ({"text": "for the music account it's lena_k and vX8#qt!Lm2"}, "basic auth credentials"),
        ({"text": "ldap: uid=svc_sync,ou=apps,dc=example,dc=org / Qm7rT2vX9p"}, "basic auth credentials"),
        ({"text": "requirepass Tq83!mZpa0"}, "password"),
        ({"env": [{"name": "SMTP_PASSWORD", "value": "gT5%kw9Lq"}, {"name": "PORT", "value": "587"}]}, "password"),
        ({"kind": "api_key", "value": "Zr8kQ2pX7vN4mT9wL3yH6bD1"}, "generic API key"),
        ({"mot_de_passe": "Soleil!2024"}, "password"),
        ({"contraseña": "Playa#Azul7"}, "password"),
        ({"keypad": "80417"}, "PIN"),
        ({"text": "Die Geheimzahl meiner Karte ist 7305"}, "PIN"),
        ({"text": "銀行カードの暗証番号は4417"}, "PIN"),
        ({"text": "the door pin is five one nine three"}, "PIN"),
        ({"text": "card verification code 482 on the travel card"}, "card security code"),
        ({"text": "Klucz API do Mistrala: q7Wm2ZxR9tLp4KvB8nYc3HdF"}, "generic API key"),
        ({"text": "A chave de API do serviço é 3b9f2c71-8e4d-4a06-b5d2-9c17e0a4f3b8"}, "generic API key"),
        ({"text": "Google backup codes 8812 4470 3391 2205 6617 9043"}, "2FA secret"),
        ({"text": "orbit cactus dolphin embark fossil glimpse harbor island jungle kitten lemon marble"},
         "recovery phrase"),
        ({"text": "palabras de la semilla: jungle kitten lemon marble orbit cactus dolphin embark fossil "
                  "glimpse harbor island"}, "recovery phrase"),
        ({"text": "[" + ", ".join(str((i * 37 + 11) % 256) for i in range(64)) + "]"}, "cryptocurrency private key"),
        ({"text": "&#103;&#104;&#112;&#95;" + "".join(f"&#{ord(c)};" for c in GH[4:])}, "GitHub token"),
    ],
)
def test_third_round_kinds_are_caught(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


@pytest.mark.parametrize(
    "text",
    [
        "The admin page uses Postgres / TimescaleDB2",
        "Das Passwort ist sicher genug",
        "パスワードは定期的に変更すること",
        "login is handled by the SSO provider now",
        "the account is jdoe and the plan is premium",
        "reCAPTCHA site key 6LcQm2kqAAAAAB3xVt9wPf8sZr1YuN0eKdLh5Gj",
        "part number 300-81-5223 for the dishwasher",
        "AWS account 123456789012, role arn:aws:iam::123456789012:role/ReadOnly",
        "He keeps writing passwords on sticky notes",
        "Solana transaction signature 5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW",
        "the recovery codes are in the safe",
        "I have one two three four kids",
        # found by the review of the third round
        "Omega3 is what I use for my joints",
        "SPF50+ is what I use on my face",
        "My login is now fingerprint-and-face-id",
        "My account is active and up-to-date-with-payments",
        "The therapy app: Calm / guided-sleep-stories",
        "[" + ", ".join(str(60 + (i * 7) % 50) for i in range(64)) + "]",  # heart-rate readings
        "Mitt lösenord är hemligt",
    ],
)
def test_third_round_look_alikes_pass(text):
    assert Guard().check({"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize(
    "text",
    [
        "my debit card PIN is 4821",
        "code de la porte : 4821",
        "Die Geheimzahl ist 4821",
        "mi código PIN es 4821",
        "o código da porta é 4821",
        "il codice del bancomat è 48213",
        "a senha do cartão é 4821",
        "de deurcode is 4821",
        "暗証番号は4821",
    ],
)
def test_pin_keywords_of_every_language_pass_the_gate(text):
    """The PIN scan runs behind a substring gate; a language whose keywords the gate
    lacks was never scanned (German, Spanish, Italian and Portuguese were not)."""
    with pytest.raises(SecretRejected) as info:
        Guard().check({"text": text})
    assert "PIN" in info.value.kinds



@pytest.mark.parametrize(
    "text",
    [
        "The password is Sunflower for the garage laptop",
        "Her email password is Wombat since March",
        "Mi contraseña es Girasol para el portátil",
        "the password is sunflower for the garage laptop",
    ],
)
def test_a_one_word_password_the_sentence_goes_on_from_is_still_one(text):
    with pytest.raises(SecretRejected):
        Guard().check({"text": text})


def test_odd_letters_in_spelled_digits_are_no_error():
    """A dotless i matches "nine" case-insensitively in Unicode; the guard
    must answer, not raise: the door code spelled with it is refused as one."""
    with pytest.raises(SecretRejected) as err:
        Guard().check({"text": "door code n\u0131ne one two three"})
    assert list(err.value.kinds) == ["PIN"]


@pytest.mark.parametrize(
    "value", [{"type": "pass", "value": "annual"}, {"label": "combination", "value": "325"}]
)
def test_records_naming_a_plain_word_are_not_secrets(value):
    assert Guard().check(value) == (value, [])


def test_an_insurance_policy_number_shaped_like_an_ssn_is_redacted():
    _, redacted = Guard().check({"text": "Blue Cross member policy 123-45-6789"})
    assert "SSN" in redacted


def _rand(seed: int, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(n))


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ({"text": f"embedding calls go through fw_{_rand(1, 24)}"}, "Fireworks key"),
        ({"note": f"pa-{_rand(2, 43, string.ascii_letters + string.digits + '_-')}"}, "Voyage key"),
        ({"text": f"scraper key fc-{_rand(3, 32, '0123456789abcdef')}"}, "Firecrawl key"),
        ({"text": f"pscale_tkn_{_rand(4, 43)}"}, "PlanetScale credential"),
        ({"text": f"jfrog: AKCp{_rand(5, 69)}"}, "Artifactory key"),
        ({"text": f"sb_secret_{_rand(6, 31)}"}, "Supabase key"),
        ({"text": f"fo1_{_rand(7, 43)}"}, "Fly.io token"),
        ({"text": "sshpass -p \"Gr@nite-44x\" scp backup.tar pi@nas.local:"}, "password"),
        ({"text": "mysqldump -u report -p'Wq9!zLm2' clinic > dump.sql"}, "password"),
        ({"text": "login with bea.s and password qWeRtzUiOpLkJh at the lab portal"}, "password"),
        ({"secret": "Maple.4471", "portal": "pharmacy", "user": "bea.s"}, "password"),
        ({"accounts": [{"service": "gym app", "credentials": "Sw1mming!Pool"}]}, "password"),
        ({"garage": {"code": "55210"}}, "PIN"),
        ({"locker": {"combination": "12-34-07"}}, "PIN"),
        ({"text": "key wrapped by the terminal:\n" + "\n".join(_rand(8, 48, string.ascii_letters + string.digits)[i:i + 16]
                                                            for i in range(0, 48, 16)).join(["fo1_", ""])}, "Fly.io token"),
        ({"text": 'token = "pscale_tkn_' + _rand(9, 20) + '" + "' + _rand(10, 23) + '"'}, "PlanetScale credential"),
        ({"text": "key: " + " ".join("fw_" + _rand(11, 24))}, "Fireworks key"),
    ],
)
def test_fourth_round_kinds_are_caught(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


@pytest.mark.parametrize(
    "value",
    [
        {"text": "AKIAXXXXXXXXXXXXXXXX stands in for the key id in the runbook"},
        {"secret": "a surprise party for Mum on Friday"},
        {"secret_santa": "Bob draws Alice"},
        {"phone": {"code": "044"}},
        {"trip": {"code": "LIS2024"}},
        {"text": "the password manager is Bitwarden, the vault is shared with Sam"},
        {"text": "He said the Password Reset flow is broken on iOS"},
        {"text": 'print("Hello, " + "world")'},
        {"text": "steps:\nwake up at 7\nmedication at 8\nwalk 30 minutes"},
        {"secret": "v2"},
    ],
)
def test_fourth_round_look_alikes_pass(value):
    assert Guard().check(value) == (value, [])


@pytest.mark.parametrize(
    "value",
    [  # found by the review of the fourth round
        {"text": "https://www.health.pa.gov/pa-hypertension-guidelines-for-adults-2024-update"},
        {"text": "file: pa-Medicaid_Renewal_Form_Instructions_2024v3"},
        {"text": "router backup fw_ConfigurationBackup2024March"},
        {"text": "EXOSKELETONREHAB2023PROGRAM starts Monday"},
        {"text": 'docker login -p "$(aws ecr get-login-password)" registry.example'},
        {"text": 'sshpass -p "$(pass show nas)" ssh me@nas'},
        {"secret": "Covid19"},
        {"secret": "HIV+2019", "note": "told my sister"},
        {"doctor": {"name": "Dr Okafor", "credentials": "MBBS2008"}},
        {"secret": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:db", "service": "billing"},
        {"door": {"code": "2024-05-01"}},
    ],
)
def test_fourth_round_review_look_alikes_pass(value):
    assert Guard().check(value) == (value, [])


@pytest.mark.parametrize("width", [8, 10, 11, 15, 16, 17, 30, 33])
def test_a_token_wrapped_at_any_width_is_joined(width):
    token = "fc-" + _rand(12, 32, "0123456789abcdef")
    text = "scraper key:\n" + "\n".join(token[i : i + width] for i in range(0, len(token), width))
    with pytest.raises(SecretRejected) as info:
        Guard().check({"text": text})
    assert "Firecrawl key" in info.value.kinds


def test_quoted_and_implicitly_joined_literals_are_joined():
    body = _rand(13, 24)
    for text in (
        "> fo1_" + body[:12] + "\n> " + _rand(14, 16) + "\n> " + _rand(15, 15),
        'key = ("fw_' + body[:10] + '"\n       "' + body[10:] + '")',
    ):
        with pytest.raises(SecretRejected):
            Guard().check({"text": text})


def test_blank_runs_after_a_quote_cost_no_backtracking():
    """A quote, a "+" and a long run of blanks made the concatenation view
    backtrack quadratically (33 s for 100 KB); possessive quantifiers bound it.
    The bound below is two orders of magnitude above the measured ~30 ms."""
    start = time.perf_counter()
    for text in ('a + b "' + " " * 100_000, 'x "' + "\n" * 100_000 + " + y"):
        Guard().check({"text": text})
    assert time.perf_counter() - start < 10


@pytest.mark.parametrize(
    ("value", "kind"),
    [  # fifth round: my own examples of the kinds heldout4 missed
        ({"text": "Security question for the pension fund (first school): Oakfield Primary"}, "security question answer"),
        ({"text": "Sicherheitsfrage der Bank: Lieblingsessen → Spätzle"}, "security question answer"),
        ({"text": "Cookie: JSESSIONID=9F3A1C77B2D04E5A8C6B1D2E3F4A5B6C; Path=/"}, "session cookie"),
        ({"text": "laravel_session=" + _rand(16, 40)}, "session cookie"),
        ({"text": "Dropbox recovery codes: 7hq2-k9xm 3pd8-w2zn r5tt-8cqa v0ne-4kfy"}, "2FA secret"),
        ({"text": "Wiederherstellungscodes: 4KQ9ZT2W1P 8ML3XC0V7D 2RB6NY5H9S"}, "2FA secret"),
        ({"text": "the backup job talks to Cloudflare with " + _rand(17, 40)}, "generic API key"),
        ({"text": "key body only:\nMIIEowIBAAKCAQEA" + _rand(18, 60, string.ascii_letters + string.digits + "+/")},
         "private key"),
        ({"text": "Moje hasło do poczty to Zielony7#Las"}, "password"),
        ({"text": "Heslo k routeru je Kocka88!modra"}, "password"),
        ({"text": "Das Passwort für das Portal lautet Haus12_Garten"}, "password"),
        ({"text": "学校WiFi密码：Panda2024!x"}, "password"),
        ({"text": "pc 비밀번호는 Tiger77!home야"}, "password"),
        ({"text": "my p@ssw0rd for the forum -> kq8!Lm2zW"}, "password"),
        ({"text": "the backup archive opens with Harbor#2291x"}, "password"),
        ({"site": "ozon.ru", "логин": "anna.k", "пароль": "Zima#2023sk"}, "password"),
        ({"código_puerta": "4821"}, "PIN"),
        ({"Safe": {"Kombination": "14-22-08"}}, "PIN"),
        ({"text": 'API_KEY="\\u0073\\u006b\\u005f\\u006c\\u0069\\u0076\\u0065\\u005f' + _rand(19, 24) + '"'},
         "Stripe key"),
        ({"text": "PIN do karty 8812"}, "PIN"),
        ({"text": "Geheimzahl: acht eins null drei"}, "PIN"),
    ],
)
def test_fifth_round_kinds_are_caught(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


@pytest.mark.parametrize(
    "value",
    [
        {"text": "My bank's security question is about my first pet"},
        {"text": "Security question: what was the name of your first school?"},
        {"text": "The answer to the security question is not something to store here."},
        {"text": "Delivery address: 3 Park Street, Kolkata, PIN 700016"},
        {"text": "my pin number changed in 2023"},
        {"text": "Stripe customer cus_Q8x2Lm4Vt7Rk9a, subscription sub_1PzXc9Lm4Vt7Rk9aBq2W"},
        {"text": "see etherscan for 0x" + "ab12" * 16},
        {"text": "Google Drive doc id 1c8N2BQtxfxgwSWoznOCgh-6T8dM5gs-R4HU is the budget"},
        {"text": "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME"},
        {"text": "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY----- (template)"},
        {"text": "password: ${DB_PASSWORD:?missing}"},
        {"text": "AWS docs example: AKIAIOSFODNN7EXAMPLE"},
        {"text": "Ich habe zwei oder drei Katzen"},
        {"text": "The book opens with Chapter12"},
    ],
)
def test_fifth_round_look_alikes_pass(value):
    assert Guard().check(value) == (value, [])


@pytest.mark.parametrize(
    ("value", "kind"),
    [  # sixth round: my own examples of the kinds heldout5 missed
        ({"text": "sqlcmd -S db01 -U sa -P 'Rq8!vLm2zT' -Q \"SELECT 1\""}, "password"),
        ({"text": "ldapwhoami -x -D 'cn=ops,dc=clinic' -w 'Moss7#Fern'"}, "password"),
        ({"text": "zip -P 'Kq9#Lw2!vB' records.zip scans/*.pdf"}, "password"),
        ({"text": "echo 'Tq7Wm2Lx9Pz' | sudo -S systemctl restart nginx"}, "password"),
        ({"text": "net use Y: \\\\nas\\photos /user:HOME\\dana Harbor71#Lake"}, "password"),
        ({"text": "site,username,password\nclinic portal,dana.k,Fjord42!mist"}, "password"),
        ({"text": "| app | login | password |\n|---|---|---|\n| pharmacy | dana | Cedar9$Vale |"}, "password"),
        ({"text": "INSERT INTO creds (site, password) VALUES ('bank', 'Otter#5521x');"}, "password"),
        ({"text": "login:\n  user: dana\n  password: |\n    Willow#88pine\n"}, "password"),
        ({"text": "define('SMTP_PASSWORD', 'Quartz55!sky');"}, "password"),
        ({"text": "Mon mot de passe du portail, c'est Lune42!bleu"}, "password"),
        ({"text": "Το συνθηματικό; ο κωδικός είναι Thalassa7!"}, "password"),
        ({"text": "pasword for the lab site is Brook19#stone"}, "password"),
        ({"text": "Мой пароль от банка Zvezda77!"}, "password"),
        ({"account": "Chase", "security_question": "Name of your first pet?", "answer": "Pickles"}, "security question answer"),
        ({"memorable_word": "lighthouse", "bank": "NatWest"}, "security question answer"),
        ({"service": "Slack", "backup_codes": ["a1b2-c3d4", "e5f6-g7h8", "k9m2-n3p4"]}, "2FA secret"),
        ({"codes": {"garage": "4471", "front door": "9902"}}, "PIN"),
        ({"keys": [{"kty": "EC", "crv": "P-256", "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", "d": "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}]}, "private key"),
        ({"creds": "dana.k:Otter*Lake55", "host": "sftp.clinic.example"}, "basic auth credentials"),
        ({"Harbor#2291x": "the wifi password"}, "password"),
        ({"text": "my Apple ID password is my cat's name Tibbles and 2011 - so literally Tibbles2011!"}, "password"),
        ({"text": "mom's email: dana.k@example.org / Maple.Court77"}, "basic auth credentials"),
    ],
)
def test_sixth_round_kinds_are_caught(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


@pytest.mark.parametrize(
    "value",
    [
        {"text": "Mon mot de passe, c'est important de le changer"},
        {"text": "I reset the password for Windows11 yesterday"},
        {"text": "echo hello | sudo -S true"},
        {"question": "What time is the appointment?", "answer": "3pm"},
        {"faq": [{"q": "Is the clinic open on Sunday?", "a": "No"}]},
        {"text": "write to dana@clinic.example | Room4B"},
        {"Metformin500": "take with food"},
        {"text": "| name | dose | time |\n|---|---|---|\n| metformin | 500 mg | 08:00 |"},
        {"text": "name,password_changed,notes\nGmail,2023-01-02,fine"},
        {"stripe_key": "{{ STRIPE_SECRET_KEY }}", "db_password": "%(DB_PASS)s", "token": "$TOKEN"},
        {"text": "password = os.environ['MAIL_PASSWORD']"},
        {"text": "Sentry event cdb5baaf7d3e19fffd4fcb8b460fbd45 - NullPointerException in Checkout"},
        {"text": "jwt.io sample token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
                 "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
        {"text": "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX is the docs' example"},
    ],
)
def test_sixth_round_look_alikes_pass(value):
    assert Guard().check(value) == (value, [])


@pytest.mark.parametrize(
    "value",
    [  # found by the review of the sixth round
        {"question": "When should I take the first dose?", "answer": "After breakfast"},
        {"question": "Where was dad born?", "answer": "Porto"},
        {"text": "La clave es Ozempic 1mg."},
        {"text": "La parola del giorno è Vitamina-D3"},
        {"clave": "E11.9"},
        {"text": "The suitcase is 2300 grams"},
        {"text": "voicemail said the appointment is 1530 on Tuesday"},
        {"text": "Reseptin koodi: 123456"},
        {"text": "ana@clinic.org / Room-204B (oncology)"},
        {"text": "root | Home-Folder2!"},
        {"trip": "Lisbon", "boardingPass": "TP1352-14C"},
        {"emergency_code": "112"},
        {"Metformin-500mg": "the wifi password is on the box"},
        {"text": "echo Monday2 | grep -S day"},
        {"text": "ldapsearch -x -w 2>/dev/null"},
    ],
)
def test_sixth_round_review_look_alikes_pass(value):
    assert Guard().check(value) == (value, [])


def test_long_tables_and_command_lines_stay_fast():
    """Every line tried as a table header, and unbounded gaps in the command-line
    patterns, took seconds on 100 KB (the review's finding); bounded now. The limit is far
    above the measured ~250 ms, a guard against the quadratic cases only."""
    start = time.perf_counter()
    for text in ("pw,pw\n" * 20_000, "| pin | pin |\n" * 7_000, "7z " * 33_000):
        with contextlib.suppress(SecretRejected):
            Guard().check({"text": text})
    assert time.perf_counter() - start < 15


def test_field_names_that_may_be_secrets_are_not_cached():
    """The field-name cache keeps names, never values: a key or a table cell that holds a
    password is read without being remembered (the review's finding on table headers)."""
    from langgraph_trustmem.guard import fields

    fields._field_kind.cache_clear()
    with pytest.raises(SecretRejected):
        Guard().check({"Crème$7670": "the wifi password"})
    assert fields._field_kind.cache_info().currsize == 0  # its only key is the password
    with pytest.raises(SecretRejected):
        Guard().check({"text": "site,user,password\nx,ana,Tiger#0559"})
    assert fields._field_kind.cache_info().currsize == 1  # "text"


@pytest.mark.parametrize(
    ("value", "kind"),
    [  # seventh round: my own examples of the kinds heldout6 missed
        ({"text": "Kod do domofonu to 5512."}, "PIN"),
        ({"text": "Der Code für die Haustür lautet *3391."}, "PIN"),
        ({"text": "マンションの玄関の番号は4471#です。"}, "PIN"),
        ({"text": "Код домофона — 8823."}, "PIN"),
        ({"text": "El código del portal es *4410."}, "PIN"),
        ({"text": "Mã cửa tòa nhà là *7720."}, "PIN"),
        ({"text": "My bank card PIN: ٣٨٢٩"}, "PIN"),
        ({"text": "رمز کارت من ۲۹۱۰ است"}, "PIN"),
        ({"text": "मेरा एटीएम पिन ४४२१ है"}, "PIN"),
        ({"text": "PIN kartu ATM saya lima tujuh dua satu"}, "PIN"),
        ({"text": "Το PIN μου είναι τρία επτά ένα ένα"}, "PIN"),
        ({"text": "Bankkaart pincode: vier drie twee een"}, "PIN"),
        ({"text": "🔐 phone PIN: 4✨9✨1✨7 🔐"}, "PIN"),
        ({"text": "Yale keypad: guest code for the nanny (Mon 8-12) is 552901."}, "PIN"),
        ({"text": "Your Acme verification code is 553201. Do not share it."}, "one-time code"),
        ({"text": "H-882134 is your Foo login code"}, "one-time code"),
        ({"text": "您的验证码是 551209。"}, "one-time code"),
        ({"text": "Code de vérification Foo : 662018. Ne le partagez pas."}, "one-time code"),
        ({"text": '<input type="password" name="pw" value="Kestrel!2041">'}, "password"),
        ({"text": "Security question: 'Name of your first school?' — my answer is Oakfield77"}, "security question answer"),
        ({"text": "自宅のWi-Fi：ネットワークx、パスワードLotus$2288"}, "password"),
        ({"text": "رمز عبور وای‌فای: Odessa41$"}, "password"),
        ({"text": "ওয়াই-ফাই পাসওয়ার্ড Kp*8wQzTr2"}, "password"),
        ({"text": "Netflix 🔑 → tulip4471"}, "password"),
        ({"text": "Dropbox ps → Brisa!1984"}, "password"),
        ({"text": "The iPad password is our boat's name plus the year (so: Ariel2011!)"}, "password"),
        ({"text": "Laptop password: first pet, then 77 — Biscuit77#"}, "password"),
        ({"text": "The router password, read out: Hotel oscar tango echo lima four two"}, "password"),
        ({"text": "Email password: first half Tiger8 and second half &Moon3"}, "password"),
        ({"text": "密码前半部分是mango-77，后半部分是kiwi-rain"}, "password"),
        ({"text": "b32: JZSXIZTMNF4CA4DBONZXO33SMQ5CAT3SMNQSGMRSHEYA===="}, "password"),
        ({"text": "gz: H4sIAAAAAAACA0tKzMtWKEgsLi7PL0qxUvCpzKtQNDExNAcAoup6exgAAAA="}, "password"),
        ({"text": "backwards: 8812!nomeL si drowssap ym"}, "password"),
        ({"text": "mixed up: Arcsyvk cnffjbeq: Gnatb#4471"}, "password"),
        ({"text": "INSERT INTO users (id, password_plain, created_at) VALUES (7, 'Fjord.42x', NOW());"}, "password"),
    ],
)
def test_seventh_round_kinds_are_caught(value, kind):
    with pytest.raises(SecretRejected) as info:
        Guard().check(value)
    assert kind in info.value.kinds


@pytest.mark.parametrize(
    "text",
    [
        "The gate for flight LH 404 changed to B12; boarding at 1545.",
        "Door 3 of the clinic opens at 0830, code of conduct applies.",
        "Verification code is sent by SMS to your phone.",
        "The building was built in 1998, the door code changes every year.",
        "Il codice fiscale è sulla tessera; la porta del garage è rotta dal 2019.",
        "Booking confirmation code 448812 for the hotel.",
        "My sister's PIN code district is 560034, Bengaluru address.",
        "Der Postleitzahl-Code für die Tür-zu-Tür-Lieferung ist 10115.",
        "Kapıdaki kod 2019'dan beri aynı.",
        "Login code arrives by SMS within 60 seconds.",
        "PS → remember to call mum",
        "The train goes Paris → Lyon at 10:45",
        "Password policy — at least 12 characters",
        "I reset my password yesterday, i.e. twice this week",
        "First half of the match was boring, second half better: 2-1.",
        "Password tips: first part a word, second part a number.",
        "NATO alphabet lesson: alpha bravo charlie delta echo foxtrot",
        "Score 3⭐5 in the review",
        "গতকাল আমি Gmail পাসওয়ার্ড বদলেছি।",  # "yesterday I changed my Gmail password"
        "The meeting ran backwards: notes reversed order",
        "UPPERCASE ID ABCDEFGH23456723 in the ticket",
    ],
)
def test_seventh_round_look_alikes_pass(text):
    assert Guard().check({"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize(
    "value",
    [
        {"text": "Adyen sandbox test card 4111 1111 1111 1111, any CVC, for the checkout demo"},
        {"text": "From the docs: example key pair AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
        {"text": 'openai_key: "sk-proj-**************************************9xQa"'},
        {"text": "db secret lives at arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-Ab12Cd"},
        {"text": "wifi:\n  ssid: !secret home_ssid\n  password: !secret home_wifi_password"},
        {"text": "API_TOKEN=${API_TOKEN:?set it in the deploy tool}"},
        {"text": "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----"},
        {"text": "Theo's spelling list this week: anchor, ancient, answer, arrive, attitude, autumn, balance, "
                 "bridge, brother, castle, kitchen, window"},
    ],
)  # fmt: skip
def test_what_is_no_ones_secret_passes(value):
    """Published examples and test cards named as such, masked values, resource names,
    references to a secret kept elsewhere, certificates, and an alphabetical word list
    with no wallet named."""
    assert Guard().check(value) == (value, [])


def test_a_test_card_claimed_as_ones_own_is_still_refused():
    with pytest.raises(SecretRejected):
        Guard().check({"text": "my Visa is 4242 4242 4242 4242, expires 09/28"})


def test_a_default_written_in_a_reference_is_a_value():
    with pytest.raises(SecretRejected):
        Guard().check({"text": "export GH=${GH_TOKEN:-ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ}"})


def test_a_private_key_under_a_certificates_header_is_refused():
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    with pytest.raises(SecretRejected):
        Guard().check({"text": pem.replace("PRIVATE KEY", "CERTIFICATE")})


def test_a_token_with_stars_appended_is_not_a_masked_value():
    with pytest.raises(SecretRejected):
        Guard().check({"text": "github: ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ******"})


def test_a_token_inside_a_resource_name_is_still_a_token():
    with pytest.raises(SecretRejected):
        Guard().check({"text": "arn:aws:s3:::notes/ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"})
    value = {"text": "db secret lives at arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-Ab12Cd"}
    assert Guard().check(value) == (value, [])
