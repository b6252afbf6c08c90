"""The write-time guard of the long-term store: no secrets in, PII redacted.

Two checks run on every string of a value before it is remembered:

* :func:`scan_secrets` names the kinds of secrets a text holds (an AWS key, a
  private key, a password stated in prose, a card number...). A memory store
  is the wrong place for a credential: memories are copied into prompts,
  embedded, backed up and shown to tools. :class:`Guard` refuses such values
  with :class:`~langgraph_trustmem.errors.SecretRejected`, whose message names
  the kinds and never the value.
* :func:`redact_pii` replaces personal identifiers (emails, phone numbers,
  SSNs, card numbers, IBANs, IP addresses) with placeholders such as
  ``[EMAIL]``.

Secret detection runs the regex plugins of the maintained ``detect-secrets``
library directly on each line of text, in process: only their pure
``analyze_string`` methods, compiled patterns and entropy functions are used,
never ``analyze_line`` or the scan entry points, which read and mutate that
library's process-global settings. Nothing here keeps state between calls, so
every function is safe to call from several threads at once.

Those plugins are written for source code, while memories say "my password is
hunter2"; our own detectors complement them: passwords, PINs and door codes
stated in prose, card numbers (Luhn and issuer checked), URLs and connection
strings holding passwords, token formats the plugins do not know (OpenAI
project keys, Anthropic, Google, Hugging Face...), and random-looking strings
that follow a secret keyword. The high-entropy plugins flag hashes, UUIDs and
document ids in ordinary text, so their entropy measure only counts here for a
token of at least 16 characters that stands shortly after a secret keyword
("token", "api key", "secret"...), does not read as words or a path, and is
not introduced as a hash, commit, id or public key.

Rule-based detection of secrets in free prose cannot be complete: a password
given without any cue ("it's tulip77, by the way") passes. The guard is a
safety net, not a reason to let credentials reach an agent's memory.

Nothing returned or raised by this module contains a secret value.
"""

from __future__ import annotations

import base64
import binascii
import datetime as _dt
import ipaddress
import math
import re
import unicodedata
import uuid as _uuid
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from re import Pattern
from typing import Any

import phonenumbers
from detect_secrets.plugins import keyword as _ds_keyword
from detect_secrets.plugins.artifactory import ArtifactoryDetector
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString
from detect_secrets.plugins.ibm_cloud_iam import IbmCloudIamDetector
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from langgraph_trustmem.errors import ConfigurationError, SecretRejected

__all__ = [
    "DEFAULT_PII",
    "PII_KINDS",
    "SECRET_KINDS",
    "Guard",
    "redact_pii",
    "scan_secrets",
]

# --------------------------------------------------------------------------------------------
# Kinds of secrets
# --------------------------------------------------------------------------------------------

AWS_ACCESS_KEY = "AWS access key"
AWS_SECRET_KEY = "AWS secret key"
PRIVATE_KEY = "private key"
JWT = "JWT"
PASSWORD = "password"
CREDIT_CARD = "credit card number"
CARD_CODE = "card security code"
PIN = "PIN"
GITHUB = "GitHub token"
GITLAB = "GitLab token"
SLACK = "Slack token"
SLACK_WEBHOOK = "Slack webhook"
STRIPE = "Stripe key"
OPENAI = "OpenAI key"
ANTHROPIC = "Anthropic key"
GOOGLE = "Google API key"
GOOGLE_OAUTH = "Google OAuth client secret"
GENERIC = "generic API key"
BASIC_AUTH = "basic auth credentials"
CONNECTION_STRING = "connection string with password"
BEARER = "bearer token"
RECOVERY_PHRASE = "recovery phrase"
TWO_FACTOR = "2FA secret"

# detect-secrets plugins: (plugin, our kind, substrings of which the line must hold one for
# the plugin to possibly match, substrings of the lower-cased line likewise). The hints only
# skip plugins that cannot match; an empty pair means "always run".
# IPPublicDetector is left out on purpose: an IP address is personal data (redacted), not a
# credential. KeywordDetector and the high-entropy plugins are used through their patterns and
# entropy functions further down.
_PLUGINS: tuple[tuple[Any, str, tuple[str, ...], tuple[str, ...]], ...] = (
    (AWSKeyDetector(), AWS_ACCESS_KEY, ("A3T", "ABIA", "ACCA", "AKIA", "ASIA"), ("aws",)),
    (ArtifactoryDetector(), "Artifactory credentials", ("AKC", "AP"), ()),
    (AzureStorageKeyDetector(), "Azure storage key", ("AccountKey=",), ()),
    (CloudantDetector(), "Cloudant credentials", (), ("cl",)),
    (DiscordBotTokenDetector(), "Discord token", (".",), ()),
    (GitHubTokenDetector(), GITHUB, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), ()),
    (
        GitLabTokenDetector(),
        GITLAB,
        (
            "glpat-",
            "gldt-",
            "glft-",
            "glsoat-",
            "glrt-",
            "GR1348941",
            "glcbt-",
            "glimt-",
            "glptt-",
            "glagent-",
            "gloas-",
        ),
        (),
    ),
    (IbmCloudIamDetector(), "IBM Cloud key", (), ("key", "pwd", "pass", "token")),
    (IbmCosHmacDetector(), "IBM COS HMAC key", (), ("secret",)),
    (JwtTokenDetector(), JWT, ("eyJ",), ()),
    (MailchimpDetector(), "Mailchimp key", ("-us",), ()),
    (NpmDetector(), "npm token", ("_authToken",), ()),
    (OpenAIDetector(), OPENAI, ("T3BlbkFJ",), ()),
    (PrivateKeyDetector(), PRIVATE_KEY, ("PRIVATE KEY", "PuTTY-User-Key-File-2"), ()),
    (PypiTokenDetector(), "PyPI token", ("pypi-AgE",), ()),
    (SendGridDetector(), "SendGrid key", ("SG.",), ()),
    (SlackDetector(), SLACK, (), ("xox", "hooks.slack.com")),
    (SoftlayerDetector(), "SoftLayer key", (), ("sl",)),
    (SquareOAuthDetector(), "Square secret", ("sq0csp-",), ()),
    (StripeDetector(), STRIPE, ("k_live_",), ()),
    (TelegramBotTokenDetector(), "Telegram bot token", (":",), ()),
    (TwilioKeyDetector(), "Twilio key", ("AC", "SK"), ()),
)
# Plugins whose hints are all distinctive literals run only when one combined search
# (_TRIGGER) finds any of those literals; the others check their own hints.
_COMMON_HINTED = frozenset(
    {AWS_ACCESS_KEY, "Artifactory credentials", "Cloudant credentials", "Discord token", "IBM Cloud key",
     "IBM COS HMAC key", SLACK, "SoftLayer key", "Telegram bot token", "Twilio key"}
)  # fmt: skip
_PLUGINS_COMMON = tuple(p for p in _PLUGINS if p[1] in _COMMON_HINTED)
# Cheap patterns that any match of these plugins contains (their secret's shape).
_PLUGIN_GATES: dict[str, Pattern[str]] = {
    "Cloudant credentials": re.compile(r"[0-9a-fA-F]{64}|[A-Za-z]{24}"),
    "Discord token": re.compile(r"\.[A-Za-z\d_\-]{6}\."),
    "IBM Cloud key": re.compile(r"[A-Za-z0-9_\-]{44}"),
    "IBM COS HMAC key": re.compile(r"[a-fA-F0-9]{48}"),
    "SoftLayer key": re.compile(r"[A-Za-z0-9]{64}"),
    "Telegram bot token": re.compile(r"\d{8}:"),
}
_PLUGINS_RARE = tuple(p for p in _PLUGINS if p[1] not in _COMMON_HINTED)
_BASIC_AUTH_PLUGIN = BasicAuthDetector()
_B64_ENTROPY = Base64HighEntropyString()
_HEX_ENTROPY = HexHighEntropyString()

# The keyword plugin's own assignment patterns (``password: x``, ``api_key = "x"``...) with
# the group that holds the value. Group 1 holds the keyword, except in the "value == keyword"
# comparison form, where the keyword is searched for in the match.
_DS_KEYWORD_REVERSED = _ds_keyword.PRECEDED_BY_EQUAL_COMPARISON_SIGNS_QUOTES_REQUIRED_REGEX
# The other patterns all begin with the denylist keyword: they are tried only where it occurs.
_DS_KEYWORD_PATTERNS: tuple[tuple[Pattern[str], int], ...] = tuple(
    (pattern, group)
    for pattern, group in {
        **_ds_keyword.CONFIG_DENYLIST_REGEX_TO_GROUP,
        **_ds_keyword.QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP,
    }.items()
    if pattern is not _DS_KEYWORD_REVERSED
)
_DS_DENYLIST = re.compile(_ds_keyword.DENYLIST_REGEX, re.IGNORECASE)
_DS_DENYLIST_LOW = re.compile(_ds_keyword.DENYLIST_REGEX)  # for lower-cased text: much faster
# every keyword of that denylist contains one of these
_DS_HINTS = ("key", "pass", "pwd", "secret", "contrase")

# --------------------------------------------------------------------------------------------
# Is this value a secret at all?
# --------------------------------------------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"""^(?:
        [*•xX.#_-]{3,}                                          # ****, xxxx, ....
      | <[^>]*> | \[[^\]]*\] | \{\{?[^}]*\}\}? | \(\s*[^)]*\)   # <password>, [redacted], {{secret}}
      | \$\{?[A-Za-z_][A-Za-z0-9_]*\}? | %\(?\w*\)?s | %[A-Z_]+% # $VAR, ${VAR}, %s, %VAR%
      | (?:redacted|hidden|removed|omitted|masked|none|null|nil|undefined|empty|todo|tbd|n/?a
         |changeme|change_me|example|sample|dummy|placeholder|secret|password|passwd|token|value
         |(?:your|my)[_-]?(?:api[_-]?)?(?:password|passwd|pass|secret|token|key)\w{0,12}
         |xyz|abc|foo|bar|baz|test)
    )$""",
    re.IGNORECASE | re.VERBOSE,
)

# Words that follow "password is ..." in benign talk about passwords.
_NOT_A_PASSWORD = frozenset(
    """
    a an the my your his her their our its this that these those it mine yours hers theirs ours same
    not no never too very so still now just also only even quite really actually probably definitely
    certainly currently usually basically literally seriously apparently obviously exactly simply
    already always sometimes again almost nearly finally likely
    weak strong wrong right correct incorrect invalid valid expired expiring old new long short
    complicated complex simple easy hard secure insecure compromised leaked shared known unknown
    forgotten lost missing empty blank required optional fine ok okay good bad great terrible
    annoying due about going being getting stuck temporary permanent different similar unique
    sensitive case-sensitive mandatory unchanged unsafe safe enough private public default
    in on at under with without for from into onto inside within somewhere here there elsewhere
    what which where how why when whatever something anything nothing everything someone
    stored saved kept written managed needed changed updated reset set rotated generated encrypted
    hashed hidden protected synced locked disabled enabled printed noted listed shown sent
    read loaded fetched pulled injected provided passed supplied given taken chosen stolen broken
    mounted configured
    and or but if because since as than then until unless like by of to be is was are were will
    would should could can cannot must may might has have had does did do
    one two three four five six seven eight nine ten twelve sixteen twenty characters chars letters
    digits numbers symbols words
    """.split()  # noqa: SIM905 - a word list reads better as text
)
_ADJ_SUFFIXES = ("ed", "ing", "ive", "ous", "ful", "able", "ible", "less")
_WORD_PIECE = re.compile(r"^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+|\d+|[A-Z]?[a-z]+(?:[A-Z][a-z]+)+|v\d+)$")
_TRAILING = ".,;:!?)]}>'\"`’”"
_LEADING = "([{<'\"`‘“"


def _strip(token: str) -> str:
    """A token without the punctuation of the sentence around it."""
    token = token.strip()
    while token and token[-1] in _TRAILING:
        # keep a symbol that is plausibly part of a password ("Sunflower!88", "hunter2!")
        if token[-1] in "!?" and len(token) > 1 and token[-2].isalnum() and not _is_wordy(token[:-1]):
            break
        token = token[:-1]
    while token and token[0] in _LEADING:
        token = token[1:]
    return token


def _is_wordy(token: str) -> bool:
    """True when a token reads as words, identifiers or numbers joined by separators
    (``patients_summary_20240611``, ``new-onboarding-v2``, ``/Users/maya/src``)."""
    pieces = [p for p in re.split(r"[_\-/+.=:~]+", token) if p]
    return bool(pieces) and all(len(p) <= 3 or _WORD_PIECE.match(p) for p in pieces)


def _entropy_ok(token: str) -> bool:
    """The detect-secrets Shannon entropy of a token against a limit scaled to its length:
    the plugins' fixed limits (4.5 for base64, 3.0 for hex) cannot be reached by short
    tokens. The factors keep 99% of random tokens of any length above the limit."""
    bare = re.sub(r"[\-_]", "", token)
    if re.fullmatch(r"[0-9a-fA-F]+", bare):  # hex, also written as a UUID
        return _HEX_ENTROPY.calculate_shannon_entropy(bare) >= min(3.0, 0.65 * math.log2(len(bare)))
    return _B64_ENTROPY.calculate_shannon_entropy(token) >= min(4.5, 0.82 * math.log2(len(token)))


def _looks_random(token: str, min_len: int = 16) -> bool:
    """A machine-generated credential rather than words, a path or a number."""
    if len(token) < min_len or len(token) > 4096 or _PLACEHOLDER.match(token):
        return False
    if not (re.search(r"\d", token) and re.search(r"[A-Za-z]", token)):
        return False
    if _is_wordy(token):
        return False
    core = re.sub(r"[^A-Za-z0-9+/=_\-]", "", token)
    return len(core) >= min_len and _entropy_ok(core)


def _plausible_password(value: str, *, strict: bool = False) -> bool:
    """A value stated as a password. ``strict`` is for forms without an explicit
    "is"/":" (``password hunter2``), where a plain word is more likely prose."""
    value = _strip(value)
    if len(value) < 4 or len(value) > 128 or _PLACEHOLDER.match(value):
        return False
    low = value.lower()
    if low in _NOT_A_PASSWORD or low.rstrip("s") in _NOT_A_PASSWORD:
        return False
    if value.startswith(("/", "~/", "./", "http://", "https://")) or re.match(r"^[A-Za-z]:\\", value):
        return False  # a path or a link, e.g. "pwd: /home/me"
    if re.fullmatch(r"[A-Za-z][a-z]+(?:-[a-z]+)*", value) and (strict or low.endswith(_ADJ_SUFFIXES)):
        return False  # one plain word: "expired", "case-sensitive"
    if re.fullmatch(r"\d{1,3}(?:[.,]\d+)?%?", value):
        return False
    # not the name of an environment variable
    return not (re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", value) and "_" in value)


def _passwordish(word: str) -> bool:
    """A single token that reads as a chosen password (``Harbor-Lights-7``, ``Lab2024!!``)
    where no "is" or ":" announces it: letters and a digit or a symbol."""
    if "`" in word or "=" in word:
        return False  # code: ``ambiguous_width=2``
    word = _strip(word)
    if len(word) < 6 or not _plausible_password(word, strict=True):
        return False
    has_alpha = any(ch.isalpha() for ch in word)
    has_digit = any(ch.isdigit() for ch in word)
    has_symbol = any(not ch.isalnum() for ch in word[:-1])
    if re.fullmatch(r"\d+[a-z]{1,3}", word):
        return False  # "2nd", "100mg"
    return has_alpha and (has_digit or has_symbol)


def _has(text: str, hints: tuple[str, ...]) -> bool:
    for h in hints:
        if h in text:
            return True
    return False


# --------------------------------------------------------------------------------------------
# Our own detectors: token formats
# --------------------------------------------------------------------------------------------

# (pattern, kind, substrings of which the line must hold one)
_VENDOR: tuple[tuple[Pattern[str], str, tuple[str, ...]], ...] = (
    (re.compile(r"\bsk-ant-(?:api|admin|sid|oat|ort)\d{2}-[A-Za-z0-9_\-]{32,}"), ANTHROPIC, ("sk-ant-",)),
    (re.compile(r"(?<![\w-])sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_\-]{32,}"), OPENAI, ("sk-",)),
    (re.compile(r"(?<![\w-])sk-[A-Za-z0-9]{48}(?![\w-])"), OPENAI, ("sk-",)),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{50,}"), GITHUB, ("github_pat_",)),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{30,}"), GITHUB, ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    (re.compile(r"\bglpat-[A-Za-z0-9_\-]{20,}"), GITLAB, ("glpat-",)),
    (re.compile(r"\bxox[abposre]-[A-Za-z0-9\-]{15,}"), SLACK, ("xox",)),
    (re.compile(r"\bxapp-\d-[A-Za-z0-9\-]{20,}"), SLACK, ("xapp-",)),
    (re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"), STRIPE, ("k_live_", "k_test_")),
    (re.compile(r"\bwhsec_[A-Za-z0-9+/=]{24,}"), STRIPE, ("whsec_",)),
    (re.compile(r"\bAIza[0-9A-Za-z_\-]{35}(?![\w-])"), GOOGLE, ("AIza",)),
    (re.compile(r"\bGOCSPX-[A-Za-z0-9_\-]{24,}"), GOOGLE_OAUTH, ("GOCSPX-",)),
    (re.compile(r"\bhf_[A-Za-z0-9]{30,}"), "Hugging Face token", ("hf_",)),
    (re.compile(r"\bhv[sbr]\.[A-Za-z0-9_\-]{24,}"), "Vault token", ("hvs.", "hvb.", "hvr.")),
    (re.compile(r"\bdo[opr]_v1_[a-f0-9]{64}\b"), "DigitalOcean token", ("_v1_",)),
    (re.compile(r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"), "Shopify token", ("shp",)),
    (re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), "npm token", ("npm_",)),
    (re.compile(r"\bpypi-AgE[A-Za-z0-9_\-]{50,}"), "PyPI token", ("pypi-AgE",)),
    (re.compile(r"\bkey-[0-9a-f]{32}\b"), "Mailgun key", ("key-",)),
    (re.compile(r"\bsq0(?:csp|atp)-[0-9A-Za-z_\-]{22,}"), "Square secret", ("sq0",)),
    (re.compile(r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"), "SendGrid key", ("SG.",)),
    (re.compile(r"\blin_api_[A-Za-z0-9]{32,}"), "Linear key", ("lin_api_",)),
    (re.compile(r"\bsntry[us]_[A-Za-z0-9_=+/\-]{30,}"), "Sentry token", ("sntry",)),
    (
        re.compile(r"\btskey-(?:auth|api|client)-[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}"),
        "Tailscale key",
        ("tskey-",),
    ),
    (re.compile(r"\bsecret_[A-Za-z0-9]{40,}"), "Notion token", ("secret_",)),
    (re.compile(r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"), "Airtable token", ("pat",)),
    (re.compile(r"\bHRKU-[A-Za-z0-9_\-]{30,}"), "Heroku key", ("HRKU-",)),
    (re.compile(r"\bEAA[A-Za-z0-9]{3,5}[A-Za-z0-9]{40,}"), "Facebook access token", ("EAA",)),
    (re.compile(r"\bdjango-insecure-\S{30,}"), "Django secret key", ("django-insecure-",)),
    (re.compile(r"\bAGE-SECRET-KEY-1[0-9A-Z]{50,}"), PRIVATE_KEY, ("AGE-SECRET-KEY-1",)),
    (re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"), PRIVATE_KEY, ("PRIVATE KEY",)),
)

# Every format above and every plugin except Artifactory's needs a token of 20 characters or
# more (or a PEM header): text without one skips them all.
_LONG_RUN = re.compile(r"[A-Za-z0-9_\-.+/=:]{20,}|PRIVATE KEY|django-insecure-")
_PLUGINS_SHORT = tuple(p for p in _PLUGINS_COMMON if p[1] == "Artifactory credentials")
_PLUGINS_LONG = tuple(p for p in _PLUGINS_COMMON if p[1] != "Artifactory credentials")
_TRIGGER = re.compile(
    "|".join(
        re.escape(h)
        for h in sorted(
            {h for _, _, hs, _ in _PLUGINS_RARE for h in hs} | {h for _, _, hs in _VENDOR for h in hs}
        )
    )
)

# --------------------------------------------------------------------------------------------
# Our own detectors: credentials in URLs, connection strings and headers
# --------------------------------------------------------------------------------------------

_URL_CREDENTIALS = re.compile(  # scheme://user:password@host
    r"(?i)(?<![\w+.\-])((?:jdbc:)?[a-z][a-z0-9+.\-]{1,30})://([^\s:/?#@\"'<>]*):([^\s/?#@\"'<>]+)@(?=[\w\[.\-])"
)
_DB_SCHEMES = frozenset(
    "postgres postgresql pgsql pg mysql mariadb mongodb redis rediss valkey amqp amqps mssql sqlserver "  # noqa: SIM905
    "oracle cockroachdb cockroach clickhouse cassandra couchdb neo4j bolt memcached snowflake db2 "
    "timescale yugabyte tidb vertica presto trino jdbc".split()
)
_DB_URL = re.compile(r"(?i)\bjdbc:|\b(?:" + "|".join(sorted(_DB_SCHEMES)) + r")(?:\+\w+)?://")
_URL_QUERY_PASSWORD = re.compile(r"(?i)[?&;](?:password|passwd|pwd|pass)=([^&;#\s]+)")
_URL_QUERY_TOKEN = re.compile(
    r"(?i)[?&;](?:api[_\-]?key|apikey|access[_\-]?token|auth[_\-]?token|token|key|secret|client[_\-]?secret"
    r"|sig|signature|x-amz-signature)=([^&;#\s]+)"
)
_ADO_PASSWORD = re.compile(r"(?i)(?:^|[;\s\"'])(?:password|pwd)\s*=\s*([^;\"'\s][^;\"']*)")
_ADO_HOST = re.compile(r"(?i)(?:^|[;\s\"'])(?:server|data source|host|address|addr|hostname)\s*=")
_BASIC_HEADER = re.compile(r"(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_CURL_USER = re.compile(r"(?:^|\s)(?:-u|--user)\s+['\"]?([^\s:'\"]+):([^\s'\"]+)")
_BEARER = re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{12,}=*)")

# --------------------------------------------------------------------------------------------
# Our own detectors: passwords, PINs and other secrets stated in prose
# --------------------------------------------------------------------------------------------

_PW_KEYWORD = re.compile(  # run on lower-cased text
    r"(?<![a-z])(?:pass(?:word|wd|phrase)s?|pwd|pw|pass(?=\s*[:=])|pass(?=\s+\S*\d)"
    r"|(?<=wifi\s)pass|(?<=wi-fi\s)pass|(?:wi-?fi|wpa2?|wlan|network|router)\s+(?:key|code)"
    r"|contrase(?:ñ|n)a|mot\s+de\s+passe|passwort|kennwort|wachtwoord|senha|parola\s+d'ordine)(?![a-z])"
)
_PW_HINTS = (
    "pass",
    "pw",
    "contrase",
    "wort",
    "senha",
    "parola",
    "wifi",
    "wi-fi",
    "wpa",
    "wlan",
    "network",
    "router",
)
# a word right after the keyword that makes the sentence about passwords, not one password
_PW_BLOCKERS = frozenset(
    "hint hints policy policies requirement requirements rule rules length manager managers reset resets "  # noqa: SIM905
    "change changes expiry expiration strength field box form page link prompt screen dialog hash hashes "
    "hashing must should needs need can cannot could will would may might generator protected protection "
    "less free hygiene history recovery reuse rotation tip tips".split()
)
_PW_CONNECTOR = re.compile(
    r"(?i)^\s*[,(]?\s*(?:(?P<sym>:=|=>|->|=|:|\s[-–—](?=\s))|(?P<poss>['’]s)\b"
    r"|(?P<verb>(?:(?:it|which|that)\s*['’]s|(?:(?:it|which|that)\s+)?(?:is|was|are|were|became|will\s+be)"
    r"|es|est|ist|è|é|era|war))(?![\w])"
    r"|(?P<to>to)\b)"
    r"(?:\s+(?:now|still|currently|just|actually|basically|simply|always|usually|literally|probably|really"
    r"|set\s+to|changed\s+to|now\s+set\s+to)\b)*\s*"
)
_PW_WORD = re.compile(r"[)\]]?,?\s+([^\s:=]+)")
_PW_QUOTED = re.compile(r"([\"'`“‘])(.{3,128}?)[\"'`”’](?!\w)")
_SET_VERB = re.compile(r"(?i)\b(?:chang|set|reset|updat|switch|mov)\w*\b")
_PW_REVERSED = re.compile(  # "I'm using Tulip77 as the password"
    r"(?i)\b(?:using|use|used|chose|picked|set)\s+(\"[^\"]{4,}\"|'[^']{4,}'|\S{4,})\s+as\s+"
    r"(?:the\s+|my\s+|a\s+|our\s+)?(?:new\s+)?(?:\w+\s+)?pass(?:word|phrase)\b"
)
_CREDENTIAL_PAIR = re.compile(  # "creds: maya.k / Vpn$ecure77", "login is admin:hunter2"
    r"(?i)(?<![a-z])(?:basic[\s\-]?auth|credentials|creds|login|log-in|sign[\s\-]?in)\b[^.\n]{0,30}?"
    r"(?:\bis\b|\bare\b|:)\s*[\"'`]?([^\s:/\"'`,]{2,64})(:|\s+/\s+|\s+and\s+|,\s*)([^\s@/\"'`]{4,128})"
)
_WIFI_KEY = re.compile(  # "for the guest network use the key Guest-Wifi-2024"
    r"(?i)(?<![a-z])(?:wi-?fi|wlan|wpa2?|ssid|network|router|hotspot)\b[^.\n]{0,30}?"
    r"\b(?:key|password|passphrase|code|pass)\s+(?:is\s+)?[\"'`]?(\S{6,64})"
)
_WIFI_HINTS = ("wifi", "wi-fi", "wlan", "wpa", "ssid", "network", "router", "hotspot")
_CLI_PASSWORD = re.compile(
    r"(?i)\b(?:mysql\w*|mariadb\w*)\b[^\n]*?\s-p(?!\s)([^\s'\"]{3,})|(?:^|\s)--password[=\s]+([^\s'\"]{3,})"
)

_PIN_KEYWORD = re.compile(  # on lower-cased text: "my debit card PIN is 4821", "door code: 1234#"
    r"(?<![a-z])(?P<kw>cvv2?|cvc2?|csc|card\s+security\s+code"
    r"|pin(?:\s*(?:number|code))?|passcode|pass\s+code|(?:phone|device|screen|iphone|ipad)\s+code"
    r"|(?:door|gate|alarm|garage|entry|access|building|lobby|keypad|buzzer|lockbox|key\s*safe|safe|vault|locker"
    r"|panel|master|unlock|disarm|padlock|lock)(?:\s+[a-z]+){0,2}?\s+(?:code|combination|combo|pin)"
    r"|(?:lock|locker|safe)\s+combination|lockbox|key\s*safe|keysafe|padlock|keypad"
    r"|code\s+(?:to|for)(?:\s+[a-z]+){0,3}?\s+(?:building|door|gate|house|apartment|flat|garage|lobby|safe"
    r"|locker|alarm|lockbox|entrance|front\s+door|back\s+door|shed|office))(?![a-z])"
)
_PIN_HINTS = (
    "cvv",
    "cvc",
    "csc",
    "pin",
    "pass",
    "code",
    "combination",
    "combo",
    "lockbox",
    "safe",
    "padlock",
    "keypad",
)
_PIN_VALUE = re.compile(
    r"(?i)^(?:[\w'’\s,-]{0,40}?)\s*(?:\bis\b|\bwas\b|:|=|\?|\bare\b|['’]s\b|\b(?:changed|set|reset|updated)\s+to\b)"
    r"\s*(?:now\s+|still\s+)?"
    r"(?P<val>\d{1,3}(?:[-\s]\d{1,3}){2,3}(?![\d-])|\d{3,10}(?!\d)|[#*]?\d{3,10}[#*]?)"
)
_PIN_DIRECT = re.compile(  # "PIN 7731 for the debit card"
    r"(?<![A-Za-z])(?:PIN|[Pp]in(?:\s+(?:number|code))?|passcode)\s*(?:#|no\.?|number)?\s*(\d{4,8})"
    r"(?![\d.,/:-]\d)(?!\s*(?:mm|cm|in|inch|inches)\b)"
)
_NOT_A_PIN_CODE = re.compile(
    r"(?i)\b(?:zip|post|postal|area|country|dress|promo|coupon|discount|referral|confirmation|booking|tracking"
    r"|verification|source|colou?r|icd|cpt|billing|tax|sort|routing|swift|bank|product|error|status|reason|qr|bar)\s+$"
)
_OPENS_WITH = re.compile(  # "the safe opens with 31-7-22"
    r"(?i)(?<![a-z])(?:safe|lock|lockbox|padlock|door|gate|locker|alarm)\b[^.\n]{0,30}?"
    r"\b(?:opens|unlocks|open|unlock|opened|unlocked|disarms?|disarmed|arms?|armed)\s+"
    r"(?:with|using)\s+(?:the\s+)?(?:code\s+)?(\d{1,3}(?:[-\s]\d{1,3}){2,3}|\d{4,8})(?![\d])"
)

_OTPAUTH = re.compile(r"(?i)otpauth://[th]otp/\S*?[?&]secret=([A-Z2-7]{16,})")
_TWO_FACTOR_SEED = re.compile(
    r"(?i)(?<![a-z])(?:2fa|mfa|totp|otp|authenticator)(?:\s+(?:setup|secret|seed|key|code))*\s+"
    r"(?:secret|seed|key)\b[^.\n]{0,30}?(?:\bis\b|:|=)\s*((?:[A-Z2-7]{4}\s?){4,}[A-Z2-7]*)"
)
_CODE = r"(?:\d{4}[\s-]?\d{4}|[a-z0-9]{4,5}-[a-z0-9]{4,5}|\d{6,10})"
_BACKUP_CODES = re.compile(
    r"(?i)(?<![a-z])(?:backup|recovery|2fa|mfa)\s+codes?\b[^.\n]{0,40}?(?:\bare\b|\bis\b|:)\s*"
    rf"({_CODE}(?:[\s,;]+{_CODE})+)"
)
_SEED_PHRASE = re.compile(
    r"(?i)(?<![a-z])(?:seed|recovery|mnemonic|backup|secret)(?:\s+(?:phrase|words?|sentence))?\b[^.\n:]{0,40}?"
    r"(?:\bis\b|\bare\b|:)\s*((?:[a-z]{3,8}[\s,]+){11,23}[a-z]{3,8})\b"
)

# --------------------------------------------------------------------------------------------
# Our own detectors: a random-looking token after a secret keyword
# --------------------------------------------------------------------------------------------

_SECRET_KEYWORD = re.compile(  # run on lower-cased text
    r"(?<![a-z])(?:api[\s_\-]?keys?|apikey|access[\s_\-]?keys?|secret(?:[\s_\-]?key)?s?|client[\s_\-]?secret"
    r"|tokens?|auth(?:orization)?|bearer|credentials?|pass(?:word|wd|phrase)?s?|pwd|keys?|signing|cookie"
    r"|session[\s_\-]?(?:id|key|secret|cookie)|sessionid|private|x-api-key|webhook)(?![a-z])"
)
_NOT_SECRET_CONTEXT = re.compile(
    r"(?i)(?<![a-z])(?:commit|sha\d*|hash|checksum|digest|fingerprint|public|publishable|uuid|request(?:\s+id)?"
    r"|trace|order|tracking|idempotency|lock\s+id|serial|docker|image|container|version|build|release|tag"
    r"|object|primary|foreign|partition|sort|cache|redis|s3|path|arn|etag|nonce|key\s+id|kid|isbn|ssh-\w+"
    r"|ecdsa-[\w-]+|gpg|pgp\s+key\s+id|pk_(?:live|test))(?![a-z])"
)
_CANDIDATE = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
_URL = re.compile(r"(?i)\b(?:[a-z][a-z0-9+.\-]*://|www\.)\S+")

# --------------------------------------------------------------------------------------------
# Payment cards (a secret, and PII)
# --------------------------------------------------------------------------------------------

_CARD = re.compile(r"(?<![\w\-.])(?:\d[ \-]?){11,18}\d(?![ \-]?\d)(?!\.\d)")
# every card number the checks below accept holds this (first group of 4, then 4 more)
_CARD_HINT = re.compile(r"\d{4}[ \-]?\d{4}")


def _luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def _card_brand_ok(d: str) -> bool:
    """The number starts like a card of a known network and has that network's length."""
    n = len(d)
    p2, p3, p4, p6 = int(d[:2]), int(d[:3]), int(d[:4]), int(d[:6])
    if d[0] == "4":
        return n in (13, 16, 19)  # Visa
    if 51 <= p2 <= 55 or 2221 <= p4 <= 2720:
        return n == 16  # Mastercard
    if p2 in (34, 37):
        return n == 15  # American Express
    if p4 == 6011 or 644 <= p3 <= 649 or p2 == 65 or 622126 <= p6 <= 622925:
        return 16 <= n <= 19  # Discover
    if p2 == 62:
        return 16 <= n <= 19  # UnionPay
    if 3528 <= p4 <= 3589:
        return 16 <= n <= 19  # JCB
    if 300 <= p3 <= 305 or p4 == 3095 or p2 in (36, 38, 39):
        return 14 <= n <= 19  # Diners Club
    if 2200 <= p4 <= 2204:
        return 16 <= n <= 19  # Mir
    if p4 in (5018, 5020, 5038, 5893, 6304, 6759, 6761, 6762, 6763):
        return 12 <= n <= 19  # Maestro
    return False


def _card_spans(text: str) -> list[tuple[int, int]]:
    if not _CARD_HINT.search(text):
        return []
    spans = []
    for m in _CARD.finditer(text):
        raw = m.group()
        seps = set(re.findall(r"[ \-]", raw))
        if len(seps) > 1:
            continue
        digits = re.sub(r"\D", "", raw)
        if not digits.isascii():
            digits = "".join(str(unicodedata.digit(ch)) for ch in digits)
        if not (12 <= len(digits) <= 19) or len(set(digits)) < 2:
            continue
        if seps:
            groups = re.split(r"[ \-]", raw)
            # printed cards group digits by 4 (4-6-5 or 4-6-4 for Amex and Diners)
            if len(groups[0]) != 4 or any(not 2 <= len(g) <= 6 for g in groups):
                continue
        if _card_brand_ok(digits) and _luhn_ok(digits):
            spans.append(m.span())
    return spans


# --------------------------------------------------------------------------------------------
# scan_secrets
# --------------------------------------------------------------------------------------------

_MAX_CHUNK = 2000
_CHUNK_OVERLAP = 200


def _lines(text: str) -> Iterable[str]:
    for line in text.splitlines():
        if len(line) <= _MAX_CHUNK:
            if line.strip():
                yield line
            continue
        # bound the cost of the backtracking patterns on very long lines
        step = _MAX_CHUNK - _CHUNK_OVERLAP
        for start in range(0, len(line), step):
            yield line[start : start + _MAX_CHUNK]


def _run_plugins(
    plugins: Iterable[tuple[Any, str, tuple[str, ...], tuple[str, ...]]], line: str, low: str, found: set[str]
) -> None:
    for plugin, kind, hints, low_hints in plugins:
        if (hints or low_hints) and not (_has(line, hints) or _has(low, low_hints)):
            continue
        gate = _PLUGIN_GATES.get(kind)
        if gate is not None and not gate.search(line):
            continue
        for value in plugin.analyze_string(line):
            if kind == AWS_ACCESS_KEY and len(value) != 20:
                found.add(AWS_SECRET_KEY)  # the plugin's second pattern: aws ... key = "<40 chars>"
            elif kind == SLACK and value.startswith("https://"):
                found.add(SLACK_WEBHOOK)
            else:
                found.add(kind)
            break


def _scan_tokens(line: str, low: str, found: set[str]) -> None:
    """Token formats: the detect-secrets plugins and our own vendor patterns."""
    _run_plugins(_PLUGINS_SHORT, line, low, found)
    if not _LONG_RUN.search(line):
        return
    _run_plugins(_PLUGINS_LONG, line, low, found)
    if not _TRIGGER.search(line):
        return
    _run_plugins(_PLUGINS_RARE, line, low, found)
    for pattern, kind, hints in _VENDOR:
        if kind not in found and _has(line, hints) and pattern.search(line):
            found.add(kind)


def _scan_urls(line: str, low: str, found: set[str]) -> None:
    if "://" in line:
        url_hit = False
        for m in _URL_CREDENTIALS.finditer(line):
            password = m.group(3)
            if _PLACEHOLDER.match(password) or _PLACEHOLDER.match(_strip(password)):
                continue
            url_hit = True
            scheme = m.group(1).lower().removeprefix("jdbc:").split("+")[0]
            found.add(CONNECTION_STRING if scheme in _DB_SCHEMES else BASIC_AUTH)
        if not url_hit:
            for value in _BASIC_AUTH_PLUGIN.analyze_string(line):
                if not _PLACEHOLDER.match(value):
                    found.add(BASIC_AUTH)
                    break
    if "=" in line:
        for m in _URL_QUERY_PASSWORD.finditer(line):
            if not _PLACEHOLDER.match(m.group(1)):
                found.add(CONNECTION_STRING if _DB_URL.search(line) else PASSWORD)
        for m in _URL_QUERY_TOKEN.finditer(line):
            if _looks_random(_strip(m.group(1))):
                found.add(GENERIC)
        if _ADO_HOST.search(line):
            for m in _ADO_PASSWORD.finditer(line):
                value = m.group(1).strip()
                if value and not _PLACEHOLDER.match(value):
                    found.add(CONNECTION_STRING)


def _scan_auth_headers(line: str, low: str, found: set[str]) -> None:
    if "basic" in low:
        for m in _BASIC_HEADER.finditer(line):
            token = m.group(1)
            try:
                decoded = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError, ValueError):
                continue
            user, sep, password = decoded.partition(":")
            if sep and user and password and decoded.isprintable():
                found.add(BASIC_AUTH)
    if "-u" in line or "--user" in line:
        for m in _CURL_USER.finditer(line):
            if not _PLACEHOLDER.match(m.group(2)):
                found.add(BASIC_AUTH)
    if "bearer" in low:
        for m in _BEARER.finditer(line):
            token = m.group(1)
            if _looks_random(token.replace(".", "")) or JwtTokenDetector.is_formally_valid(token):
                found.add(BEARER)


def _stated_password(line: str, m: re.Match[str]) -> bool:
    """Whether the password keyword matched by ``m`` introduces a password: up to six words,
    then "is" / ":" / "was changed to"..., then a value that is not prose."""
    rest = line[m.end() : m.end() + 120]
    bare_pass = m.group(0).lower() == "pass"
    words, pos, ended = 0, 0, False
    while True:
        c = _PW_CONNECTOR.match(rest[pos:])
        if c and c.group("to") and not _SET_VERB.search(line[max(0, m.start() - 40) : m.end() + pos]):
            c = None  # "to" only after "changed", "set"...: "I changed my password to X"
        if c:
            after = rest[pos + c.end() :]
            q = _PW_QUOTED.match(after)
            if q:
                return not _PLACEHOLDER.match(q.group(2))
            value = after.split(None, 1)[0] if after.strip() else ""
            if bare_pass:  # "bus pass is in my coat"
                return _passwordish(value)
            return bool(value) and _plausible_password(value)
        w = _PW_WORD.match(rest[pos:])
        if not w or words >= 6:
            return False
        word = w.group(1)
        if re.search(r"[@/<>{}\[\]$\\|]", word):
            return False  # not prose: a URL, a template, a path
        low = word.lower().strip(".,;!?()[]\"'")
        if (low in _PW_BLOCKERS and not words) or (ended and words):
            return False
        if not words:
            if re.fullmatch(r"([\"'`“‘]).{3,}[\"'`”’]", word) and _plausible_password(word):
                return True  # password "swordfish"
            if _passwordish(word):
                return True  # "user maya.k, password hunter2!"
        words += 1
        pos += w.end()
        ended = word[-1:] in ".;!?"  # a sentence ended; only "? It's ..." may follow


def _scan_passwords(line: str, low: str, found: set[str]) -> None:
    if _has(low, _PW_HINTS):
        for m in _PW_KEYWORD.finditer(low):
            if _stated_password(line, m):
                found.add(PASSWORD)
                break
        if "pass" in low and " as " in low:
            m = _PW_REVERSED.search(line)
            if m and _plausible_password(m.group(1).strip("\"'")):
                found.add(PASSWORD)
    if _has(low, ("auth", "cred", "login", "log-in", "sign")):
        for m in _CREDENTIAL_PAIR.finditer(line):
            password = m.group(3)
            if m.group(2) != ":" and not _passwordish(password):
                continue  # "user / password" needs a password that reads as one
            if _plausible_password(password) and not re.fullmatch(r"\d{1,2}", m.group(1)):
                found.add(BASIC_AUTH)
    if _has(low, _WIFI_HINTS):
        for m in _WIFI_KEY.finditer(line):
            if _passwordish(m.group(1)):
                found.add(PASSWORD)
    if _has(low, ("mysql", "mariadb", "--password")):
        for m in _CLI_PASSWORD.finditer(line):
            if _plausible_password(m.group(1) or m.group(2) or ""):
                found.add(PASSWORD)


def _scan_pins(line: str, low: str, found: set[str]) -> None:
    if not _has(low, _PIN_HINTS) and not _has(low, ("open", "unlock", "arm")):
        return
    if ("pin" in low or "passcode" in low) and _PIN_DIRECT.search(line):
        found.add(PIN)
    if _has(low, ("open", "unlock", "arm")) and _OPENS_WITH.search(line):
        found.add(PIN)
    for m in _PIN_KEYWORD.finditer(low):
        kw = m.group("kw").lower()
        if kw.startswith("code") and _NOT_A_PIN_CODE.search(line[max(0, m.start() - 16) : m.start()]):
            continue  # "zip code for the apartment is 94110"
        v = _PIN_VALUE.match(line[m.end() : m.end() + 80])
        if not v:
            continue
        value = re.sub(r"\D", "", v.group("val"))
        if kw.startswith(("cvv", "cvc", "csc", "card")):
            if len(value) in (3, 4):
                found.add(CARD_CODE)
        elif 4 <= len(value) <= 10:
            found.add(PIN)


def _scan_keywords(line: str, low: str, found: set[str]) -> None:
    """detect-secrets' keyword patterns (``password: x``, ``api_key = "x"``), with the
    value checked: a password must not read as prose, a key must look random."""
    if not _has(low, _DS_HINTS) or not (":" in line or "=" in line or ";" in line):
        return
    matches: list[tuple[re.Match[str], int, str]] = []
    for k in _DS_DENYLIST_LOW.finditer(low):
        keyword = k.group(1).lower()
        for pattern, group in _DS_KEYWORD_PATTERNS:
            m = pattern.match(line, k.start())
            if m:
                matches.append((m, group, keyword))
    if "==" in line or "!=" in line:
        for m in _DS_KEYWORD_REVERSED.finditer(line):
            k = _DS_DENYLIST.search(m.group(0))
            matches.append((m, 2, k.group(1).lower() if k else ""))
    for m, group, keyword in matches:
        value = (m.group(group) or "").strip()
        quoted = bool(re.search(r"[\"'`]\s*$", line[: m.start(group)]))
        first = value if quoted else (value.split(None, 1)[0] if value else "")
        if any(k in keyword for k in ("pass", "pwd", "contrase")):
            if _plausible_password(first):
                found.add(PASSWORD)
        elif _looks_random(_strip(first), 12) and not _NOT_SECRET_CONTEXT.search(
            line[: m.start(group)][-40:]
        ):
            found.add(GENERIC)


def _scan_near_keyword(line: str, low: str, found: set[str]) -> None:
    """High-entropy tokens standing shortly after a secret keyword."""
    candidates = list(_CANDIDATE.finditer(line))
    if not candidates or not _SECRET_KEYWORD.search(low):
        return
    urls = [u.span() for u in _URL.finditer(line)] if "://" in line or "www." in low else []
    for m in candidates:
        start = m.start()
        if any(a <= start < b for a, b in urls):
            continue
        window = re.split(r"[.!?;]\s|\n", low[max(0, start - 48) : start])[-1]
        keywords = {k.group(0) for k in _SECRET_KEYWORD.finditer(window)}
        if not keywords or _NOT_SECRET_CONTEXT.search(window):
            continue
        token = _strip(m.group())
        if not _looks_random(token):
            continue
        if any(k.startswith(("pass", "pwd")) for k in keywords):
            found.add(PASSWORD)
        elif len(token) == 40 and "aws" in window:
            found.add(AWS_SECRET_KEY)
        elif "bearer" in keywords:
            found.add(BEARER)
        else:
            found.add(GENERIC)


def _scan_misc(line: str, low: str, found: set[str]) -> None:
    if "otpauth" in low and _OTPAUTH.search(line):
        found.add(TWO_FACTOR)
    if _has(low, ("2fa", "mfa", "otp", "authenticator")) and _TWO_FACTOR_SEED.search(line):
        found.add(TWO_FACTOR)
    if "code" in low and _has(low, ("backup", "recovery", "2fa", "mfa")) and _BACKUP_CODES.search(line):
        found.add(TWO_FACTOR)
    if _has(low, ("seed", "recovery", "mnemonic", "backup", "secret")):
        m = _SEED_PHRASE.search(line)
        if m and len(set(m.group(1).lower().split())) >= 8:
            found.add(RECOVERY_PHRASE)
    if _card_spans(line):
        found.add(CREDIT_CARD)


#: Every kind name :func:`scan_secrets` can return (besides the names of extra patterns).
SECRET_KINDS: frozenset[str] = frozenset(
    {kind for _, kind, _, _ in _PLUGINS}
    | {kind for _, kind, _ in _VENDOR}
    | {AWS_SECRET_KEY, SLACK_WEBHOOK, PASSWORD, CREDIT_CARD, CARD_CODE, PIN, GENERIC, BASIC_AUTH}
    | {CONNECTION_STRING, BEARER, RECOVERY_PHRASE, TWO_FACTOR}
)

_DETECTORS: tuple[Callable[[str, str, set[str]], None], ...] = (
    _scan_tokens,
    _scan_urls,
    _scan_auth_headers,
    _scan_passwords,
    _scan_pins,
    _scan_keywords,
    _scan_near_keyword,
    _scan_misc,
)


def _compile_patterns(
    patterns: Mapping[str, str | Pattern[str]] | None, what: str
) -> tuple[tuple[Pattern[str], str], ...]:
    if not patterns:
        return ()
    out = []
    for name, pattern in patterns.items():
        if not isinstance(name, str) or not name:
            raise ConfigurationError(f"{what} names must be non-empty strings")
        try:
            out.append((re.compile(pattern) if isinstance(pattern, str) else pattern, name))
        except re.error as exc:
            raise ConfigurationError(f"{what} {name!r} is not a valid regular expression") from exc
    return tuple(out)


def _lower(line: str) -> str:
    """``line`` lower-cased, position for position (a few characters, such as the
    dotted capital I, lower-case to two; those are kept as they are)."""
    low = line.lower()
    if len(low) == len(line):
        return low
    return "".join(ch if len(ch.lower()) != 1 else ch.lower() for ch in line)


def _fold(text: str) -> str:
    """Undo the simplest disguises: compatibility forms (fullwidth letters and digits)
    become plain ones, and invisible format characters (zero-width spaces, joiners,
    direction marks) are removed."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _scan(text: str, extra: tuple[tuple[Pattern[str], str], ...] = ()) -> set[str]:
    found: set[str] = set()
    text = _fold(text)
    for line in _lines(text):
        low = _lower(line)
        for detector in _DETECTORS:
            detector(line, low, found)
    for pattern, kind in extra:
        if pattern.search(text):
            found.add(kind)
    return found


def scan_secrets(text: str, *, extra_patterns: Mapping[str, str | Pattern[str]] | None = None) -> list[str]:
    """The sorted, distinct kinds of secrets found in ``text`` (empty when none).

    Kinds are names such as ``"AWS access key"``, ``"password"`` or
    ``"credit card number"``; the secret values themselves are never returned.
    ``extra_patterns`` maps further kind names to regular expressions.
    """
    if not isinstance(text, str):
        raise TypeError("scan_secrets expects a str")
    return sorted(_scan(text, _compile_patterns(extra_patterns, "extra pattern")))


# --------------------------------------------------------------------------------------------
# redact_pii
# --------------------------------------------------------------------------------------------

EMAIL, PHONE, SSN, CARD, IBAN, IP = "EMAIL", "PHONE", "SSN", "CARD", "IBAN", "IP"
PII_KINDS: frozenset[str] = frozenset({EMAIL, PHONE, SSN, CARD, IBAN, IP})
DEFAULT_PII: frozenset[str] = PII_KINDS

_EMAIL = re.compile(
    r"(?:(?<=mailto:)|(?<![\w.%+\-/:@]))[A-Za-z0-9](?:[A-Za-z0-9._%+\-]{0,62}[A-Za-z0-9_%+\-])?"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w\-@]|\.[A-Za-z0-9]|:[^\s])"
)
_SSN = re.compile(r"(?<![\w\-])(?!000|666|9\d\d)\d{3}([\- ]?)(?!00)\d{2}\1(?!0000)\d{4}(?![\w\-]|\.\d)")
_SSN_CONTEXT = re.compile(r"(?i)\b(?:ssn|ss#|social\s+security|social|tin|itin)\b")
_IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)")
_IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])")
_IBAN = re.compile(r"\b([A-Z]{2})(\d{2})(?=[ ]?[A-Z0-9])((?:[ ]?[A-Z0-9]){10,32})")
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22, "BI": 27,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DJ": 27, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FK": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27,
    "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "LY": 25,
    "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MN": 20, "MR": 27, "MT": 31, "MU": 30, "NI": 28, "NL": 18,
    "NO": 15, "OM": 23, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "RU": 33,
    "SA": 24, "SC": 31, "SD": 18, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "SO": 23, "ST": 25, "SV": 28,
    "TL": 23, "TN": 24, "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20, "YE": 30,
}  # fmt: skip
# A run of at least seven digits with phone punctuation between them: where a phone number
# can be. libphonenumber's matcher runs on a window around each run, not on the whole text.
_PHONE_RUN = re.compile(r"\+?\(?\d(?:[ \t().\-/]{0,3}\d){6,}")
_DATE_ONLY = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}")
_PHONE_CONTEXT = 24
# North American numbers have ten digits; without a "+" a shorter run cannot be one of them.
_NANP = frozenset({"US", "CA", "PR", "GU", "VI", "AS", "MP", "AG", "AI", "BB", "BM", "BS", "DM", "DO", "GD", "JM",
                   "KN", "KY", "LC", "MS", "SX", "TC", "TT", "VC", "VG"})  # fmt: skip

Span = tuple[int, int]


def _email_spans(text: str, _regions: tuple[str, ...]) -> list[Span]:
    if "@" not in text:
        return []
    return [m.span() for m in _EMAIL.finditer(text)]


def _ssn_spans(text: str, _regions: tuple[str, ...]) -> list[Span]:
    out = []
    for m in _SSN.finditer(text):
        if re.sub(r"\D", "", m.group()) in ("078051120", "219099999"):
            continue  # numbers printed on sample cards, never issued
        if not m.group(1) and not _SSN_CONTEXT.search(text[max(0, m.start() - 30) : m.start()]):
            continue  # nine bare digits count only after "SSN" or "social security"
        out.append(m.span())
    return out


def _iban_spans(text: str, _regions: tuple[str, ...]) -> list[Span]:
    out = []
    for m in _IBAN.finditer(text):
        expected = _IBAN_LENGTHS.get(m.group(1))
        if not expected:
            continue
        # walk the match, keeping exactly the country's number of characters
        compact, end = "", m.start()
        for i in range(m.start(), m.end()):
            if text[i] != " ":
                compact += text[i]
                end = i + 1
                if len(compact) == expected:
                    break
        if len(compact) != expected or (end < len(text) and text[end].isalnum()):
            continue
        rearranged = compact[4:] + compact[:4]
        if int("".join(str(int(ch, 36)) for ch in rearranged)) % 97 == 1:
            out.append((m.start(), end))
    return out


def _ip_spans(text: str, _regions: tuple[str, ...]) -> list[Span]:
    out = []
    if "." in text:
        for m in _IPV4.finditer(text):
            if re.search(r"(?i)(?:\bv|version\s*|build\s*)$", text[max(0, m.start() - 9) : m.start()]):
                continue  # a version number
            try:
                addr = ipaddress.IPv4Address(m.group())
            except ValueError:
                continue
            if not (addr.is_loopback or addr.is_unspecified):
                out.append(m.span())
    if "::" in text or text.count(":") >= 7:
        for m in _IPV6.finditer(text):
            raw = m.group()
            if "::" not in raw and raw.count(":") != 7:
                continue
            try:
                addr6 = ipaddress.IPv6Address(raw)
            except ValueError:
                continue
            if not (addr6.is_loopback or addr6.is_unspecified):
                out.append(m.span())
    return out


def _phone_spans(text: str, regions: tuple[str, ...]) -> list[Span]:
    windows: list[list[int]] = []
    nanp_only = all(r in _NANP for r in regions)
    for m in _PHONE_RUN.finditer(text):
        run = m.group()
        if _DATE_ONLY.fullmatch(run):
            continue
        if nanp_only and not run.startswith("+") and sum(ch.isdigit() for ch in run) < 10:
            continue
        start, end = max(0, m.start() - _PHONE_CONTEXT), min(len(text), m.end() + _PHONE_CONTEXT)
        if windows and start <= windows[-1][1]:
            windows[-1][1] = end
        else:
            windows.append([start, end])
    out = []
    for start, end in windows:
        window = text[start:end]
        for region in regions:
            for match in phonenumbers.PhoneNumberMatcher(
                window, region, leniency=phonenumbers.Leniency.VALID
            ):
                span = (start + match.start, start + match.end)
                # a match cut by the window's edge is not trusted
                if (match.start > 0 or start == 0) and (match.end < len(window) or end == len(text)):
                    out.append(span)
    return out


def _card_pii_spans(text: str, _regions: tuple[str, ...]) -> list[Span]:
    return _card_spans(text)


# Earlier kinds win where spans overlap (a card number is not also a phone number).
_PII_DETECTORS: tuple[tuple[str, Callable[[str, tuple[str, ...]], list[Span]]], ...] = (
    (CARD, _card_pii_spans),
    (IBAN, _iban_spans),
    (EMAIL, _email_spans),
    (SSN, _ssn_spans),
    (IP, _ip_spans),
    (PHONE, _phone_spans),
)
_PRIORITY = {kind: i for i, (kind, _) in enumerate(_PII_DETECTORS)}


def _normalize_kinds(kinds: Collection[str]) -> frozenset[str]:
    if isinstance(kinds, str):
        kinds = (kinds,)
    out = frozenset(k.upper() for k in kinds)
    unknown = out - PII_KINDS
    if unknown:
        raise ConfigurationError(
            "unknown PII kind(s): " + ", ".join(sorted(unknown)) + "; known: " + ", ".join(sorted(PII_KINDS))
        )
    return out


def _normalize_regions(regions: Collection[str]) -> tuple[str, ...]:
    if isinstance(regions, str):
        regions = (regions,)
    out = tuple(r.upper() for r in regions)
    supported = phonenumbers.SUPPORTED_REGIONS
    unknown = [r for r in out if r not in supported]
    if unknown:
        raise ConfigurationError("unknown phone region(s): " + ", ".join(unknown))
    return out


def _redact(
    text: str,
    kinds: frozenset[str],
    regions: tuple[str, ...],
    extra: tuple[tuple[Pattern[str], str], ...] = (),
) -> tuple[str, set[str]]:
    spans: list[tuple[int, int, str]] = []
    for kind, detect in _PII_DETECTORS:
        if kind in kinds:
            spans.extend((a, b, kind) for a, b in detect(text, regions))
    for pattern, label in extra:
        spans.extend((m.start(), m.end(), label) for m in pattern.finditer(text) if m.end() > m.start())
    if not spans:
        return text, set()
    # keep non-overlapping spans: earlier detectors first, then longer spans
    spans.sort(key=lambda s: (_PRIORITY.get(s[2], len(_PRIORITY)), s[0] - s[1], s[0]))
    kept: list[tuple[int, int, str]] = []
    for a, b, kind in spans:
        if all(b <= ka or a >= kb for ka, kb, _ in kept):
            kept.append((a, b, kind))
    kept.sort()
    parts, last = [], 0
    for a, b, kind in kept:
        parts.append(text[last:a])
        parts.append(f"[{kind}]")
        last = b
    parts.append(text[last:])
    return "".join(parts), {kind for _, _, kind in kept}


def redact_pii(
    text: str,
    kinds: Collection[str] = DEFAULT_PII,
    *,
    phone_regions: Collection[str] = ("US",),
) -> tuple[str, list[str]]:
    """Replace personal identifiers in ``text`` with placeholders.

    ``kinds`` selects among ``EMAIL``, ``PHONE``, ``SSN`` (US social security
    numbers), ``CARD`` (Luhn- and issuer-checked payment card numbers), ``IBAN``
    (checksum-verified) and ``IP`` (IPv4 and IPv6, loopback excepted); each
    span found becomes ``[KIND]``. Phone numbers are found with Google's
    libphonenumber (the ``phonenumbers`` package): numbers written with a ``+``
    country code in any region, national numbers for ``phone_regions``.
    Returns the new text and the sorted kinds that were redacted.
    """
    if not isinstance(text, str):
        raise TypeError("redact_pii expects a str")
    new, done = _redact(text, _normalize_kinds(kinds), _normalize_regions(phone_regions))
    return new, sorted(done)


# --------------------------------------------------------------------------------------------
# Guard
# --------------------------------------------------------------------------------------------

_SCALARS = (type(None), bool, float, Decimal, _dt.date, _dt.time, _dt.timedelta, _uuid.UUID)


@dataclass(frozen=True)
class Guard:
    """The write-time check of a value to remember.

    ``reject_secrets``: refuse values holding a secret (:class:`SecretRejected`).
    ``redact``: the PII kinds to replace by placeholders (empty: none).
    ``extra_patterns``: further secrets, as kind name -> regular expression.
    ``extra_pii``: further personal identifiers, as label -> regular
    expression; a match becomes ``[LABEL]`` (e.g. ``{"MRN": r"\\bMRN\\s*\\d{6,10}\\b"}``).
    ``phone_regions``: the regions whose national phone number formats are known.

    Instances are immutable and can be shared between threads.
    """

    reject_secrets: bool = True
    redact: Collection[str] = DEFAULT_PII
    extra_patterns: Mapping[str, str | Pattern[str]] = field(default_factory=dict)
    extra_pii: Mapping[str, str | Pattern[str]] = field(default_factory=dict)
    phone_regions: Collection[str] = ("US",)
    _kinds: frozenset[str] = field(init=False, repr=False, compare=False)
    _extra: tuple[tuple[Pattern[str], str], ...] = field(init=False, repr=False, compare=False)
    _extra_pii: tuple[tuple[Pattern[str], str], ...] = field(init=False, repr=False, compare=False)
    _regions: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kinds", _normalize_kinds(self.redact or ()))
        object.__setattr__(self, "_extra", _compile_patterns(self.extra_patterns, "extra pattern"))
        extra_pii = _compile_patterns(self.extra_pii, "extra PII pattern")
        for _, label in extra_pii:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_ ]*", label):
                raise ConfigurationError("extra PII labels must be letters, digits, spaces or underscores")
        object.__setattr__(self, "_extra_pii", extra_pii)
        object.__setattr__(self, "_regions", _normalize_regions(self.phone_regions))

    def scan(self, text: str) -> list[str]:
        """The kinds of secrets in ``text``, this guard's extra patterns included."""
        return sorted(_scan(text, self._extra))

    def redact_text(self, text: str) -> tuple[str, list[str]]:
        """``text`` with this guard's PII kinds redacted, and the kinds found."""
        new, done = _redact(text, self._kinds, self._regions, self._extra_pii)
        return new, sorted(done)

    def check(self, value: Any) -> tuple[Any, list[str]]:
        """Check a JSON-like value (dicts, lists, tuples, strings, numbers) before storing it.

        Raises :class:`SecretRejected` naming the kinds when any string (a dict
        key too, or an integer that is a card number) holds a secret and
        ``reject_secrets`` is set. Otherwise returns a copy of the value with PII
        redacted in every string, and the sorted kinds redacted. A value that
        cannot be inspected (bytes, arbitrary objects) raises ``TypeError``
        rather than pass unchecked; dict keys that collide once redacted get a
        ``" (2)"`` suffix rather than overwrite each other.
        """
        secrets: set[str] = set()
        redacted: set[str] = set()
        out = self._walk(value, secrets, redacted, set())
        if secrets and self.reject_secrets:
            raise SecretRejected(sorted(secrets))
        return out, sorted(redacted)

    def _text(self, text: str, secrets: set[str], redacted: set[str]) -> str:
        if self.reject_secrets:
            secrets.update(_scan(text, self._extra))
        if not self._kinds and not self._extra_pii:
            return text
        new, done = _redact(text, self._kinds, self._regions, self._extra_pii)
        redacted.update(done)
        return new

    def _walk(self, value: Any, secrets: set[str], redacted: set[str], path: set[int]) -> Any:
        if isinstance(value, str):
            return self._text(value, secrets, redacted)
        if isinstance(value, _SCALARS):
            return value
        if isinstance(value, int):
            digits = str(abs(value))
            if 12 <= len(digits) <= 19 and _card_spans(digits):
                if self.reject_secrets:
                    secrets.add(CREDIT_CARD)
                if CARD in self._kinds:
                    redacted.add(CARD)
                    return f"[{CARD}]"
            return value
        if not isinstance(value, (Mapping, list, tuple, set, frozenset)):
            raise TypeError(f"Guard.check cannot inspect a value of type {type(value).__name__}")
        if id(value) in path:
            raise ValueError("value contains a reference cycle")
        path.add(id(value))
        try:
            if isinstance(value, Mapping):
                out: dict[Any, Any] = {}
                for k, v in value.items():
                    key = self._walk(k, secrets, redacted, path)
                    if key in out:
                        n = 2
                        while f"{key} ({n})" in out:
                            n += 1
                        key = f"{key} ({n})"
                    out[key] = self._walk(v, secrets, redacted, path)
                return out
            items = [self._walk(v, secrets, redacted, path) for v in value]
            if isinstance(value, list):
                return items
            if isinstance(value, tuple) and hasattr(value, "_fields"):
                return type(value)(*items)  # a named tuple
            return type(value)(items)
        finally:
            path.discard(id(value))
