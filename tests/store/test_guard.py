"""The write-time guard: secrets refused, PII redacted, nothing leaked.

No server is needed: every check runs on strings in process.
"""

from __future__ import annotations

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
        ("aws secret access key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AWS secret key"),
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
    guard = Guard(redact=())
    for line in SECRETS[:: max(1, len(SECRETS) // 60)]:
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
    assert DEFAULT_PII == {"EMAIL", "PHONE", "SSN", "CARD", "IBAN", "IP"}


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
    out, kinds = Guard().check(value)
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
    out, kinds = Guard(reject_secrets=False).check(value)
    assert out == {"note": "my password is hunter2, mail [EMAIL], MRN 00482913"} and kinds == ["EMAIL"]
    assert Guard(reject_secrets=False, redact=()).check(value) == (value, [])
    out, kinds = Guard(reject_secrets=False, extra_pii={"MRN": r"\bMRN\s*\d{6,10}\b"}).check(value)
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
    out, _ = Guard().check({"a@b.org": 1, "c@d.org": 2})
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
