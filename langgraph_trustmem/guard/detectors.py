"""Our own secret detectors: what a rule engine built for source code does not know.

The engine underneath (:mod:`.engine`, betterleaks, with our rules in its format,
:mod:`.rules`) knows vendors' token formats. Memories are prose, so this module adds what
prose needs: passwords, PINs and door codes stated in sentences (the password first or
last, in a few European languages), card numbers (Luhn and issuer checked), credentials
in URLs, connection strings and ``.pgpass`` lines, ``name: value`` config lines read with
the same field-name rules as structured records (:mod:`.fields`), recovery phrases (twelve
BIP-39 words in a row, no keyword needed) and 2FA seeds, random-looking strings that
follow a secret keyword (detect-secrets' keyword patterns and entropy measure), a
vendor-style token of a vendor no rule knows (a short prefix and 32 random characters),
and a few formats that need a check a regular expression cannot make (an AWS key id
alone, a Discord webhook, an Ethereum key by its context, a Bitcoin key by its checksum).

detect-secrets is used through its plugins' pure ``analyze_string`` methods, compiled
patterns and entropy functions only, never ``analyze_line`` or the scan entry points,
which read and mutate that library's process-global settings. Nothing here keeps state
between calls, so every function is safe to call from several threads at once.

The high-entropy plugins flag hashes, UUIDs and document ids in ordinary text, so their
entropy measure only counts here for a token of at least 16 characters that stands shortly
after a secret keyword ("token", "api key", "secret"...), does not read as words or a path,
and is not introduced as a hash, commit, id or public key. Rule-based detection in free
prose cannot be complete: a password given without any cue ("it's tulip77, by the way")
passes. Nothing returned or raised by this module contains a secret value.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from re import Pattern
from typing import Any
from urllib.parse import unquote_plus

from detect_secrets.plugins import keyword as _ds_keyword
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.basic_auth import BasicAuthDetector
from detect_secrets.plugins.cloudant import CloudantDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString, HexHighEntropyString
from detect_secrets.plugins.ibm_cos_hmac import IbmCosHmacDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.private_key import PrivateKeyDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.softlayer import SoftlayerDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.guard.bip39 import BIP39_WORDS
from langgraph_trustmem.guard.fields import (
    AZURITE_KEY,
    BRACKETED_VALUE,
    CODE_CALL,
    DOC_EXAMPLE_RUN,
    DOC_EXAMPLES,
    DOC_VALUES,
    ENCRYPTED_VALUE,
    FERNET_TOKEN,
    JWT_SHAPE,
    KMS_BLOB,
    PASSWORD_HASH,
    PUBLIC_TOKEN,
    SALTED_VALUE,
    SAYS_NOT_REAL,
    SEALED_VALUE,
    SECURITY_ANSWER,
    UUID,
    anon_jwt,
    field_kind,
    field_secret,
    generated,
    hash_ok,
    kms_sealed,
    sealed,
)
from langgraph_trustmem.guard.fields import passphrase as _passphrase
from langgraph_trustmem.guard.normalize import FORMAT_CHARS, KEYPAD, NATO, decodes_to_prose

__all__ = [
    "SECRET_KINDS",
    "card_spans",
    "compile_patterns",
    "looks_random",
    "recovery_phrase",
    "resolve",
    "scan_text",
    "scan_tokens_text",
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
SLACK = "Slack token"
SLACK_WEBHOOK = "Slack webhook"
GENERIC = "generic API key"
BASIC_AUTH = "basic auth credentials"
CONNECTION_STRING = "connection string with password"
BEARER = "bearer token"
RECOVERY_PHRASE = "recovery phrase"
TWO_FACTOR = "2FA secret"
SESSION_COOKIE = "session cookie"
ONE_TIME_CODE = "one-time code"
GIFT_CARD = "gift card code"

# detect-secrets plugins: (plugin, our kind, substrings of which the line must hold one for
# the plugin to possibly match, substrings of the lower-cased line likewise). The hints only
# skip plugins that cannot match; an empty pair means "always run".
# IPPublicDetector is left out on purpose: an IP address is personal data (redacted), not a
# credential. KeywordDetector and the high-entropy plugins are used through their patterns and
# entropy functions further down.
# The engine (betterleaks) has dedicated rules for GitHub, GitLab, JWT, npm, OpenAI, PyPI,
# SendGrid, Stripe, Azure storage, Artifactory and IBM Cloud keys: those detect-secrets plugins
# are not run. These are kept: the engine reports an AWS key id only next to its secret and
# a Twilio key only near the word "twilio", and has no rule for the others' formats.
# IPPublicDetector is left out on purpose: an IP address is personal data, not a credential.
_PLUGINS: tuple[tuple[Any, str, tuple[str, ...], tuple[str, ...]], ...] = (
    (AWSKeyDetector(), AWS_ACCESS_KEY, ("ABIA", "ACCA", "AKIA", "ASIA"), ("aws",)),
    (CloudantDetector(), "Cloudant credentials", (), ("cl",)),
    (DiscordBotTokenDetector(), "Discord token", (".",), ()),
    (IbmCosHmacDetector(), "IBM COS HMAC key", (), ("secret",)),
    (MailchimpDetector(), "Mailchimp key", ("-us",), ()),
    (PrivateKeyDetector(), PRIVATE_KEY, ("PRIVATE KEY", "PuTTY-User-Key-File-2"), ()),
    (SlackDetector(), SLACK, (), ("xox", "hooks.slack.com")),
    (SoftlayerDetector(), "SoftLayer key", (), ("sl",)),
    (SquareOAuthDetector(), "Square secret", ("sq0csp-",), ()),
    (TelegramBotTokenDetector(), "Telegram bot token", (":",), ()),
    (TwilioKeyDetector(), "Twilio key", ("AC", "SK"), ()),
)
# Plugins whose hints are all distinctive literals run only when one combined search
# (_TRIGGER) finds any of those literals; the others check their own hints.
_COMMON_HINTED = frozenset(
    {AWS_ACCESS_KEY, "Cloudant credentials", "Discord token", "IBM COS HMAC key", SLACK, "SoftLayer key",
     "Telegram bot token", "Twilio key"}
)  # fmt: skip
_PLUGINS_COMMON = tuple(p for p in _PLUGINS if p[1] in _COMMON_HINTED)
# Cheap patterns that any match of these plugins contains (their secret's shape).
_PLUGIN_GATES: dict[str, Pattern[str]] = {
    "Cloudant credentials": re.compile(r"[0-9a-fA-F]{64}|[A-Za-z]{24}"),
    "Discord token": re.compile(r"\.[A-Za-z\d_\-]{6}\."),
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
    r"""^""" + BRACKETED_VALUE + r"""(?:
        [*•xX.#_-]{3,}                                          # ****, xxxx, ....
      | <[^>]*> | \[[^\]]*\] | \{\{?[^}]*\}\}? | \(\s*[^)]*\)   # <password>, [redacted], {{secret}}
      | \$\{[^}]*\} | \$(?-i:[A-Z_][A-Z0-9_]*|[a-z_]+)         # ${VAR:?x}, $VAR, $pass ($Pa55w0rd is one)
      | %\(?\w*\)?s | %[A-Z_]+%                                # %s, %VAR%
      | (?:redacted|hidden|removed|omitted|masked|none|null|nil|undefined|empty|todo|tbd|n/?a
         |change[_-]?me(?:[_-][a-z0-9]{1,12}){0,3}|replace[_-]?me(?:[_-][a-z0-9]{1,12}){0,3}
         |example|sample|dummy|placeholder|secret|password|passwd|token|value
         |(?:your|my)[_-]?(?:api[_-]?)?(?:password|passwd|pass|secret|token|key)(?:[_-][a-z]{1,8}){0,2}
         |xyz|abc|foo|bar|baz|test)
    )$""",
    re.IGNORECASE | re.VERBOSE,
)

# Words that follow "password is ..." in benign talk about passwords.
_NOT_A_PASSWORD = frozenset(
    """
    argon2 argon2id argon2i argon2d bcrypt scrypt pbkdf2 pbkdf2-sha256 sha256 sha512 sha-256 sha-512 sha1 md5
    yescrypt sha256-crypt sha512-crypt
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
    sulla sotto nella dentro dietro accanto sous dans derrière bajo debajo detrás unter hinter neben
    embaixo atrás debaixo onder achter naast fabryczne fabryczny domyślne domyślny werkseitig standard
    predeterminada predeterminado predefinita predefinito padrão défaut usine
    hemligt hemlig hemmelig geheim secreto secreta segreto secret sécurisé sicher sicuro seguro секрет
    секретный надёжный надежный
    and or but if because since as than then until unless like by of to be is was are were will
    would should could can cannot must may might has have had does did do
    one two three four five six seven eight nine ten twelve sixteen twenty characters chars letters
    digits numbers symbols words
    """.split()
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_ADJ_SUFFIXES = ("ed", "ing", "ive", "ous", "ful", "able", "ible", "less")
_CJK_TAIL = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+$")
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


_ONE_CASE = re.compile(r"[a-z0-9]+|[A-Z0-9]+")
_WORD_AND_HEX = re.compile(r"[a-z]{1,10}[0-9a-f]{6,}|[A-Z]{1,10}[0-9A-F]{6,}")


def _letters_share(text: str) -> float:
    return sum(c.isalpha() for c in text) / len(text) if text else 0.0


def _entropy_ok(token: str) -> bool:
    """The detect-secrets Shannon entropy of a token against a limit scaled to its length:
    the plugins' fixed limits (4.5 for base64, 3.0 for hex) cannot be reached by short
    tokens. The factors keep 99% of random tokens of any length above the limit, tokens of
    one case and digits (a smaller alphabet, lower entropy) by a limit of their own."""
    bare = re.sub(r"[\-_]", "", token)
    if bare[:2] in ("0x", "0X") and len(bare) > 2:
        bare = bare[2:]  # a hex number as written in code and wallets
    if len(bare) >= 28 and re.fullmatch(r"[a-z]{2,3}[0-9a-f]{24,}", bare):
        bare = bare.lstrip("abcdefghijklmnopqrstuvwxyz") or bare  # "csc" + hex: a vendor's prefix on hex
    if re.fullmatch(r"[0-9a-fA-F]+", bare):  # hex, also written as a UUID
        return _HEX_ENTROPY.calculate_shannon_entropy(bare) >= min(3.0, 0.65 * math.log2(len(bare)))
    limit = min(4.5, 0.82 * math.log2(len(token)))
    if _ONE_CASE.fullmatch(bare) and not _WORD_AND_HEX.fullmatch(bare) and 0.25 <= _letters_share(bare) <= 0.88:
        # 36 symbols, not 62: their 1st percentile is lower (0.69 passed at 40 characters before);
        # not a name and a hex id ("ami-001d05e6fb01f8522", "mem_5a481a11fb2b842ef"), not mostly
        # digits (a date) nor mostly letters (a host's name: "oak06.oakridge-data.com")
        limit = min(limit, 0.39 + 0.675 * math.log2(len(token)))
    return _B64_ENTROPY.calculate_shannon_entropy(token) >= limit


def _looks_random(token: str, min_len: int = 16) -> bool:
    """A machine-generated credential rather than words, a path or a number."""
    if len(token) < min_len or len(token) > 4096 or _PLACEHOLDER.match(token):
        return False
    if not (re.search(r"\d", token) and re.search(r"[A-Za-z]", token)):
        # letters only: a token cased at random ("ShGXvQHUTWDylmBwItnLJNkZveauywhA"), long
        return len(token) >= max(min_len, 20) and _random_letters(token) and _entropy_ok(token)
    if _is_wordy(token) or _caps_name(token):
        return False
    core = re.sub(r"[^A-Za-z0-9+/=_\-]", "", token)
    return len(core) >= min_len and _entropy_ok(core)


# A name in capitals that says what belongs in its place ("BASE32SECRET", "MYAPPTOKEN123"): a slot
# word and a few characters beside it, not a random run around it ("SK9TOKENX7Q2LM4P8RZ3").
_CAPS_NAME = re.compile(r"[A-Z][A-Z0-9_]{5,39}")
_SLOT_WORD = re.compile(r"SECRET|TOKEN|PASSWORD|API_?KEY")


def _caps_name(token: str) -> bool:
    if not _CAPS_NAME.fullmatch(token) or (slot := _SLOT_WORD.search(token)) is None:
        return False
    if _snake_name(token):
        return True  # words joined by "_": AUTH0_CLIENT_SECRET
    rest = (token[: slot.start()] + token[slot.end() :]).replace("_", "")
    return len(rest) <= 8 and sum(ch.isdigit() for ch in rest) <= 3


def _snake_name(name: str) -> bool:
    """Words in capitals joined by "_" (BIP39_WALLET_TOKEN, AUTH0_SECRET, DB_PASS_V2): a name,
    not a value dressed as one (P4SS_W0RD, TOKEN_7K2Q9ZM4, a year)."""
    return _UPPER_SNAKE.fullmatch(name) is not None and not any(
        re.search(r"\d[A-Z]", seg) or re.fullmatch(r"\d{4,}", seg) for seg in name.split("_")
    )


def _json_payload(token: str) -> bool:
    """Base64 of a JSON object (``eyJ...``, a cookie's or a claim's payload): structured
    text, whose contents the decoded view is read for, not a key. A JWT is read whole by
    its own rule."""
    if not token.startswith("eyJ") or "." in token:
        return False
    try:
        text = base64.urlsafe_b64decode(token.replace("+", "-").replace("/", "_") + "=" * (-len(token) % 4))
        json.loads(text)
    except (binascii.Error, ValueError):
        return False
    return True


def _plausible_password(value: str, *, strict: bool = False) -> bool:
    """A value stated as a password. ``strict`` is for forms without an explicit
    "is"/":" (``password hunter2``), where a plain word is more likely prose."""
    bare = value.strip()
    if CODE_CALL.match(bare):
        return False  # code that computes the value: jsondecode(data.x.secret_string)["password"]
    if _PLACEHOLDER.match(bare) or _PLACEHOLDER.match(bare.rstrip(".,;:!?)")) or _CODE_REFERENCE.search(value):
        return (
            False  # before the sentence's punctuation is stripped: ${DB_PASSWORD:?missing}, os.environ[...]
        )
    value = _strip(value)
    if len(value) < 4 or len(value) > 128 or _PLACEHOLDER.match(value):
        return False
    low = value.lower()
    if low in _NOT_A_PASSWORD or low.rstrip("s") in _NOT_A_PASSWORD:
        return False
    if _ELIDED.fullmatch(value) or CODE_CALL.match(value) or SAYS_NOT_REAL.fullmatch(low):
        return False  # "sull'etichetta", forms.CharField(...), "not-a-real-password"
    if _CJK.search(value):
        return False  # prose in a script written without spaces: "パスワードは定期的に変更すること"
    if value.startswith(("/", "~/", "./", "http://", "https://")) or re.match(r"^[A-Za-z]:\\", value):
        return False  # a path or a link, e.g. "pwd: /home/me"
    if "://" in value:
        return False  # a link or a connection string: the URL readers find a password in one
    if _CREDENTIAL_NAME.fullmatch(low):
        return False  # the name of the key a password is kept under: "adminPasswordKey: admin-password"
    if _passphrase(low):
        return True  # "wrist-all-all-caught": words joined as a passphrase generator joins them
    if re.fullmatch(r"[A-Za-z][a-z]+(?:-[a-z]+)*", value) and (strict or low.endswith(_ADJ_SUFFIXES)):
        return False  # one plain word: "expired", "case-sensitive"
    if re.fullmatch(r"\d{1,3}(?:[.,]\d+)?%?", value):
        return False
    # not the name of an environment variable
    return not (re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", value) and "_" in value)


# An identifier that names a credential ("admin-password", "db_password", "smtp.secret"): a
# key's or a variable's name where a password is kept, not the password.
_CREDENTIAL_NAME = re.compile(r"(?:[a-z]+[-_.])+(?:password|passwd|pwd|secret|credentials?|token)")
# A word with an elided article or preposition ("sull'etichetta", "l'étiquette"): prose.
_ELIDED = re.compile(r"[^\W\d_]{1,5}['’][a-zà-ÿ]{3,}")
_OWN = re.compile(r"\b(?:mine|my|our|ours|i (?:chose|picked|use|set)|\w+'s (?:card |bank |phone )?(?:pin|password|code)|\w+'s is)\b")
# Talk about which passwords people choose most: the values it lists are famous, not anyone's.
PW_STATISTICS = re.compile(
    r"(?i)\b(?:most|commonly|frequently)[\s-]+(?:common|used|popular|guessed|hacked|leaked)\b[^.\n]{0,20}\bpasswords?\b"
    r"|\bpasswords?\b[^.\n]{0,20}\bmost[\s-]+(?:common|used|popular)\b|\bworst\s+passwords\b"
    r"|\btop[\s-]+\d+\s+(?:most\s+)?(?:common\s+)?passwords\b|\bpassword\s+(?:statistics|stats|rankings?)\b"
    # PINs too ("Most common PINs are 1234, 0000 and 1111"), and an awareness poster's examples
    r"|\b(?:most|commonly|frequently)[\s-]+(?:common|used|popular|guessed)\s+(?:(?:\d|four|six)[\s-]digit\s+pins?|pins|pin codes"
    r"|passcodes)\b"
    r"|\b(?:never|don'?t|do not|avoid)\s+(?:use|pick|choose|using|picking)\s+(?:\w+\s+)?(?:passwords|pins|passcodes)"
    r"\s+(?:like|such as)\b|\bbreach(?:ed)? (?:lists?|dumps?)\b"
    r"|\bno\s+(?:\w+\s+)?(?:sequences|patterns|repeats|repeated digits|birthdays)\s+(?:like|such as)\b"
)
# A share of people and a study: "0.025% of people pick 8068 as a PIN, says a DataGenetics study".
_SHARE_STUDIED = re.compile(
    r"(?i)\d\s?%\s+of\s+(?:all\s+)?(?:people|users|customers|respondents|accounts|pins|passwords)\b"
    r"[^\n]{0,80}\b(?:study|survey|analysis|research|datagenetics|dataset|report|breach)\b"
    r"|\b(?:study|survey|analysis|research|datagenetics|dataset|report|breach)\b[^\n]{0,60}\d\s?%\s+of\s+(?:all\s+)?"
    r"(?:people|users|customers|respondents|accounts|pins|passwords)\b"
)

# One code given as the memory's own ("PIN: 9038", "The PIN is 9038", "Card PIN 1793", "passcode: 2580").
_CODE_GIVEN = re.compile(r"(?i)\b(?:pin|passcode|pin code|password|code)\b\s*(?:is|was|[:=\-–—])?\s*\d{4,}")


def pw_statistics(text: str) -> bool:
    """Whether ``text`` talks about passwords or PINs people choose (statistics, advice), not one
    of its own."""
    return PW_STATISTICS.search(text) is not None or (
        "%" in text and _SHARE_STUDIED.search(text) is not None and _CODE_GIVEN.search(text) is None
    )


def _passwordish(word: str) -> bool:
    """A single token that reads as a chosen password (``Harbor-Lights-7``, ``Lab2024!!``)
    where no "is" or ":" announces it: letters and a digit or a symbol."""
    if "`" in word or ("=" in word and re.search(r"(?:^|[(\[{,;:])[A-Za-z_][\w.\-]*=", word)):
        return False  # code: ``ambiguous_width=2`` (an "=" among symbols is a password's: "Tz4X$Sv?Ib=x0C")
    word = _strip(word)
    if len(word) < 6 or not _plausible_password(word, strict=True):
        return False
    has_alpha = any(ch.isalpha() for ch in word)
    has_digit = any(ch.isdigit() for ch in word)
    # a symbol, not a mark: Bengali, Devanagari or Thai vowel signs are not alphanumeric
    has_symbol = any(not ch.isalnum() and not unicodedata.category(ch).startswith("M") for ch in word[:-1])
    if re.fullmatch(r"\d+[a-z]{1,3}", word):
        return False  # "2nd", "100mg"
    if not has_digit and not word.isascii() and re.fullmatch(r"[^\W\d_]+(?:[-'’][^\W\d_]+)+", word):
        return False  # a word with a prefix in another script ("ל-כללית", "to Clalit"), not a password
    return has_alpha and (has_digit or has_symbol)


_CASE_PIECES = re.compile(r"[A-Z]+[a-z]*|[a-z]+")
_CAPITAL_RUNS = re.compile(r"[A-Z]{2,}")
def _random_letters(word: str) -> bool:
    """Ten letters or more whose case switches as a generator's output does
    (``tfSlRQDlyKDwiQlO``), not a word, a name or a CamelCase identifier."""
    word = _strip(word)
    if not 10 <= len(word) <= 64 or not word.isascii() or not word.isalpha():
        return False
    pieces = _CASE_PIECES.findall(word)  # CamelCase words are pieces of three letters or more
    if len(pieces) < 4 or sum(ch.isupper() for ch in word) < 3:
        return False
    # a long one may have longer pieces, if few of its letters are vowels (words have a third)
    few_vowels = (  # and several runs of capitals, as no API name has ("vkCmdBindVertexBuffers")
        len(word) >= 20 and sum(ch in "aeiouAEIOU" for ch in word) < 0.28 * len(word) and len(_CAPITAL_RUNS.findall(word)) >= 3
    )
    return len(word) / len(pieces) < (5 if few_vowels else 3.5)


_FUNCTION_WORDS = frozenset("and or via with of to the for on in by at from face id two factor".split())


def _strong_password(word: str, passphrase: bool = True) -> bool:
    """A value no one would take for a name or a word where no "password" keyword says it
    is one: a passphrase of words that are not a phrase (no "and", "via", "with"...), or
    eight characters or more of three classes (lower, upper, digits, symbols) with a
    symbol that names do not use."""
    low = word.lower()
    if _passphrase(low):
        return passphrase and not _FUNCTION_WORDS.intersection(low.split("-"))
    if len(word) < 8 or not _passwordish(word) or not re.search(r"[^A-Za-z0-9\-._]", word):
        return False  # "TimescaleDB2" is a product's name; "9855Q*wbj%8ylqKG" is not
    classes = sum(bool(re.search(p, word)) for p in (r"[a-z]", r"[A-Z]", r"\d", r"[^A-Za-z0-9]"))
    return classes >= 3


def _has(text: str, hints: tuple[str, ...] | Pattern[str]) -> bool:
    """Whether ``text`` holds one of the substrings ``hints`` (a tuple, or a pattern made
    of them by :func:`_hints`, which is faster for long lists)."""
    if isinstance(hints, re.Pattern):
        return hints.search(text) is not None
    for h in hints:
        if h in text:
            return True
    return False


def _hints(*words: str) -> Pattern[str]:
    return re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)))


# --------------------------------------------------------------------------------------------
# Our own detectors: token formats
# --------------------------------------------------------------------------------------------

# Every plugin needs a token of 20 characters or more (or a PEM header): text without one
# skips them all. Vendor token formats are the engine's (its rules and ours, :mod:`.rules`).
_LONG_RUN = re.compile(r"[A-Za-z0-9_\-.+/=:]{20,}|PRIVATE KEY")
_PLUGINS_LONG = _PLUGINS_COMMON
_TRIGGER = re.compile(
    "|".join(re.escape(h) for h in sorted({h for _, _, hs, _ in _PLUGINS_RARE for h in hs}))
)

# --------------------------------------------------------------------------------------------
# Our own detectors: credentials in URLs, connection strings and headers
# --------------------------------------------------------------------------------------------

_URL_CREDENTIALS = re.compile(  # scheme://user:password@host
    r"(?i)(?<![\w+.\-])((?:jdbc:)?[a-z][a-z0-9+.\-]{1,30})://([^\s:/?#@\"'<>]*):([^\s/?@\"'<>]+)@(?=[\w\[.\-])"
)
_DB_SCHEMES = frozenset(
    "postgres postgresql pgsql pg mysql mariadb mongodb redis rediss valkey amqp amqps mssql sqlserver "
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
# A .pgpass line: host:port:database:user:password
_PGPASS = re.compile(
    r"^\s*((?:[A-Za-z0-9][\w\-]*\.)*[A-Za-z][\w\-]*|\d{1,3}(?:\.\d{1,3}){3}|\*):(\d{1,5}|\*):([\w.\-]+|\*)"
    r":([\w.\-@]+|\*):(\S{4,128})\s*$"
)
_BASIC_HEADER = re.compile(r"(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_CURL_USER = re.compile(r"(?:^|\s)(?:-u|--user)\s+['\"]?([^\s:'\"]+):([^\s'\"]+)")
_BEARER = re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{12,}=*)")
# A template's or a placeholder's value: #{token}, @{variables('t')}, :token:, %VAR% (also as a
# percent-decoded view shows it), ***REDACTED***, xxxxx.yyyyy.zzzzz, "...-here"
_TEMPLATED = re.compile(
    r"(?i)^[#@%]\{|^:\w+:$|\ufffd|redacted|placeholder|(?:^|[-_])(?:here|goes|your|my)(?:[-_]|$)|^x+\.y+\.z+$|^@\w+$"
)
# An Authorization header's bearer value as written, symbols and all ("Bearer %-Tw7Mr2^v^^Yzus_KwUC").
_AUTH_BEARER = re.compile(r"(?i)\bauthorization\s*[:=]\s*[\"']?bearer\s+([^\s\"'`]{12,})")

# --------------------------------------------------------------------------------------------
# Our own detectors: passwords, PINs and other secrets stated in prose
# --------------------------------------------------------------------------------------------

_PW_KEYWORD = re.compile(  # run on lower-cased text
    r"(?<![a-z])(?:pass(?:word|wd|phrase)s?|p[a@4][s$5][s$5]w[o0]rd|pasword|passwrd|psword|pssword"
    r"|passwrod|passowrd|paswd|pswd|p\s+a\s+s\s+s\s+w\s+o\s+r\s+d|pwd|pw|p/w|pass(?=\s*(?:[:=]|->|→|⇒))|pass(?=\s+\S*\d)"
    r"|(?:unlock|login|log-in|master|access)\s+(?:phrase|word)"
    r"|(?<=wifi\s)pass|(?<=wi-fi\s)pass|(?:wi-?fi|wpa2?|wlan|network|router)\s+(?:key|code)"
    r"|contrase(?:ñ|n)a|mot\s+de\s+passe|mdp|passwort|kennwort|wachtwoord|senha|parola\s+d'ordine"
    r"|clave\s+(?:del?\s+wi-?fi|de\s+acceso)|(?:mi|tu|su)\s+clave|code\s+(?:du\s+|de\s+la\s+)?wi-?fi|jelszav\w*|mật\s+khẩu"
    r"|has(?:ł|l)(?:o|a|em)|l(?:ö|o)senord(?:et)?|(?:ş|s)ifre(?:si|m|n)?|парол\w*|salasan[a-zäö]*|adgangskode"
    r"|passord(?:et)?|heslo|jelsz(?:ó|o)|κωδικός|סיסמה|סיסמא|كلمة\s+(?:المرور|السر)|पासवर्ड|mật\s+khẩu|kata\s+sandi"
    r"|رمز\s+(?:عبور|ورود|المرور|السري)|পাসওয়ার্ড"
    # Estonian, Lithuanian, Croatian/Serbian/Bosnian, Macedonian, Slovene, Catalan, Galician, Basque,
    # Romanian (never a bare "parola": Italian for "word"), Turkish (inflected), Swahili, Malay,
    # Icelandic, Albanian, Welsh, Danish, Azerbaijani, Persian, Urdu, Tamil, Georgian, Armenian, Kazakh
    r"|parool\w*|slapta(?:ž|z)od\w*|lozink\w*|лозинк\w*|gesl(?:o|a|om|u)|contrasenya\w*|contrasinal\w*|pasahitz\w*"
    r"|parol(?:ă|ei)|parola\s+(?:mea|ta|sa|noastr[ăa]|de\s+la|pentru|contului)|parola(?:m|n|s[ıi]|m[ıi]z|n[ıi]z|y[ıi])\w*"
    r"|nenosiri|nywila|kata\s+laluan|lykilor(?:ð|d)\w*|fjal(?:ë|e)kalim\w*|cyfrinair|kodeord\w*|(?:ş|s)ifr(?:ə|e)(?:m|n|si)?"
    r"|گذرواژه|پسورد|(?:mana|tava)\s+parole|parole(?=\s+ir\s)|کلمه\s+(?:ی\s+)?عبور|پاس\s*ورڈ|கடவுச்சொல்\w*|პაროლ\w*|գաղտնաբառ\w*|құпия\s+сөз"
    r")(?![a-z])"
    r"|パスワード|暗証番号|密码|密碼|비밀번호|암호|รหัสผ่าน"  # no word boundary in these scripts: "WiFi密码"
    # a Wi-Fi's code in Thai (with the Thai words glued after it: "รหัสไวไฟที่บ้าน") and Persian
    r"|รหัส\s*(?:ไวไฟ|wi-?fi)[\u0e00-\u0e7f]*|رمز\s+(?:وای[\u200c ]?فای|wi-?fi)"
)
_PW_HINTS = _hints(
    "pswd",
    "رمز",
    "পাসওয়ার্ড",
    "סיסמא",
    "🔑",
    "pssw",
    "pa$$",
    "w0rd",
    "p a s s",
    "psw",
    "pasw",
    "clave",
    "jelsz",
    "khẩu",
    "p@",
    "has",
    "senord",
    "ifre",
    "парол",
    "salasana",
    "adgangskode",
    "passord",
    "heslo",
    "jelsz",
    "κωδικός",
    "סיסמה",
    "كلمة",
    "पासवर्ड",
    "khẩu",
    "sandi",
    "パスワード",
    "暗証番号",
    "密码",
    "密碼",
    "비밀번호",
    "암호",
    "รหัสผ่าน",
    "mdp",
    "pass",
    "pw",
    "contrase",
    "wort",
    "woord",
    "p/w",
    "phrase",
    "senha",
    "parola",
    "wifi",
    "wi-fi",
    "wpa",
    "wlan",
    "network",
    "router",
    "parool",
    "slapta",
    "lozink",
    "лозинк",
    "gesl",
    "contrasinal",
    "pasahitz",
    "parol",
    "nenosiri",
    "nywila",
    "laluan",
    "lykilor",
    "fjal",
    "cyfrinair",
    "kodeord",
    "şifrə",
    "گذرواژه",
    "پسورد",
    "کلمه",
    "پاس",
    "கடவுச்சொல்",
    "პაროლ",
    "գաղտնաբառ",
    "құпия",
    "ไวไฟ",
    "وای",
)
# a word right after the keyword that makes the sentence about passwords, not one password
_PW_BLOCKERS = frozenset(
    "hint hints policy policies requirement requirements rule rules length manager managers reset resets "
    "change changes expiry expiration strength field box form page link prompt screen dialog hash hashes "
    "hashing must should needs need can cannot could will would may might generator protected protection "
    "less free hygiene history recovery reuse rotation tip tips".split()
)
_PW_CONNECTOR = re.compile(
    r"(?i)^\s*[,(]?\s*(?:(?P<sym>:=|=>|->|→|⇒|=|[:∶꞉]|\s[-–—](?=\s))|(?P<poss>['’]s)\b"
    r"|(?P<cjk>[はがも是为為는은이：]|입니다|(?:ของ(?:ฉัน|ผม|เรา|ดิฉัน))?คือ)"
    r"|(?P<verb>(?:(?:it|which|that)\s*['’]s|(?:(?:it|which|that)\s+)?(?:is|was|are|were|became|will\s+be)"
    r"|es|est|c['’]est|ist|è|é|era|war|är|jest|je|lautet|lauten|هي|هو|это|er|είναι|là|este|היא|הוא|adalah"
    r"|é|és|є|ialah))(?![\w])"
    # copulas that are also common short words elsewhere ("on", "ni", "ay", "ir", "yra", Cyrillic
    # "е"): a connector only before a value that reads as a password
    r"|(?P<weak>(?<=\s)(?:on|yra|ir|ni|ay|е))(?=\s)"
    r"|(?P<to>to)\b)"
    r"(?:\s+(?:now|still|currently|just|actually|basically|simply|always|usually|literally|probably|really"
    r"|set\s+to|changed\s+to|now\s+set\s+to)\b)*\s*"
)
# Copulas that also start ordinary sentences ("c'est important"): after them a plain word is
# prose, and only a value that reads as a password counts.
_STRICT_VERBS = frozenset(
    {"c'est", "c’est", "είναι", "là", "este", "היא", "הוא", "adalah", "é", "er"}
)
_PW_WORD = re.compile(r"[)\]]?,?\s+([^\s:=]+)")
_PW_TAIL = re.compile(r"\s+([^\s\d]\S*)(?:\s+[^\s\d]\S*){0,2}\s+(\S{6,64})\s*$")
_PW_QUOTED = re.compile(r"([\"'`“‘])(.{3,128}?)[\"'`”’](?!\w)")
_SET_VERB = re.compile(r"(?i)\b(?:chang|set|reset|updat|switch|mov)\w*\b")
# what follows "password" when a sentence is about a tool, not one password
_PW_TOOL = (
    r"(?!\s+(?:manager|managers|vault|app|apps|hint|hints|policy|generator|reset|field|prompt|rules?)\b)"
)
_PW_REVERSED = re.compile(  # "I'm using Tulip77 as the password"
    r"(?i)\b(?:using|use|uses|used|chose|picked|set)\s+(\"[^\"]{4,}\"|'[^']{4,}'|\S{4,})\s+as\s+"
    r"(?:the\s+|my\s+|a\s+|our\s+)?(?:new\s+)?(?:\w+\s+)?pass(?:word|phrase)\b" + _PW_TOOL
)
_PW_FIRST = re.compile(  # "Bl@ckC0ffee#7 is my password for everything"
    r"(?i)(?:^|(?<=[\s\"'(]))([^\s\"'()]{6,64})[\"')]?\s+(?:is|was|=)\s+(?:still\s+|now\s+)?(?:my|our|the|his|her|their)\s+"
    r"(?:new\s+|current\s+|old\s+|main\s+|usual\s+)?(?:[\w\-]+\s+){0,2}?(?:password|passphrase|passcode|pass|pw|pwd)\b"
    + _PW_TOOL
)
_PW_FOR = re.compile(  # "pwd for the NAS hunter2hunter2": a value closing the sentence, no "is"
    r"(?i)(?<![a-z])(?:password|passwd|pwd|pw|passphrase|passcode)\s+(?:for|to|of|on)\s+(?:the\s+|my\s+|our\s+|a\s+)?"
    r"(?:[\w\-]+\s+){0,2}?[\w\-]+\s*[:\-–—]?\s+[\"'`]?([^\s\"'`]{6,64}?)[\"'`]?[.!]?\s*$"
)
_CREDENTIAL_PAIR = re.compile(  # "creds: maya.k / Vpn$ecure77", "login is admin:hunter2"
    r"(?i)(?<![a-z])(?:basic[\s\-]?auth|credentials|creds|login|log-in|sign[\s\-]?in)\b[^.\n]{0,30}?"
    r"(?:\bis\b|\bare\b|\bit['’]s\b|:|(?=\s+[^\s:/]{2,64}:\S))\s*[\"'`]?([^\s:/\"'`,]{2,64})(:|\s+/\s+|\s+and\s+|,\s*)"
    r"([^\s@/\"'`]{4,128})"
)
_WIFI_KEY = re.compile(  # "for the guest network use the key Guest-Wifi-2024"
    r"(?i)(?<![a-z])(?:wi-?fi|wlan|wpa2?|ssid|network|router|hotspot)\b[^.\n]{0,30}?"
    r"\b(?:key|password|passphrase|code|pass)\s+(?:is\s+)?[\"'`]?(\S{6,64})"
)
_WIFI_IS = re.compile(  # "wifi at the office is CorpGuest#2024"
    r"(?i)(?<![a-z])(?:wi-?fi|wlan|hotspot)(?:\s+(?:at|for|in|on|of)\s+[^.\n:=]{0,30}?)?\s*(?:\bis\b|:|=)\s*[\"'`]?(\S{6,64})"
)
_WIFI_HINTS = _hints("wifi", "wi-fi", "wlan", "wpa", "ssid", "network", "router", "hotspot")
_CLI_PASSWORD = re.compile(  # the value may be quoted: sshpass -p 'Tiger#0559' ssh admin@host
    r"(?i)\b(?:mysql\w*|mariadb\w*)\b[^\n]*?\s-p(?!\s)['\"]?([^\s'\"]{3,})|(?:^|\s)--password[=\s]+['\"]?([^\s'\"]{3,})"
    r"|\b(?:sshpass\s+-p|redis-cli\b[^\n]*?\s-a|docker\s+login\b[^\n]*?\s-p|smbclient\b[^\n]*?%"
    r"|(?:requirepass|masterauth)\s)\s*['\"]?([^\s'\"]{3,})"
)
# More command lines that take a password as an argument (the flag, then the value).
_CLI_PASSWORD_ARGS = re.compile(
    r"(?i)(?:\b(?:psexec|sqlcmd|bcp|osql|isql)\b[^\n]{0,200}?\s[-/]p\s+"
    r"|\bldap(?:search|modify|add|delete|passwd|whoami)\b[^\n]{0,200}?\s-w\s+"
    r"|\b(?:xfreerdp|rdesktop|wfreerdp)\b[^\n]{0,200}?\s[/-]p:?\s*"
    r"|\bzip\b[^\n]{0,200}?\s-P\s+|\b7za?\b[^\n]{0,200}?\s-p(?!\s)"
    r"|\bkeytool\b[^\n]{0,200}?\s-(?:src|dest)?(?:store|key)pass\s+"
    r"|\brclone\b[^\n]{0,200}?\spass\s+|\bopenssl\b[^\n]{0,200}?\s-(?:pass(?:in|out)|k)\s+(?:pass:)?"
    r"|\bPG?PASSWORD=|\bMYSQL_PWD=|\bsmbclient\b[^\n]{0,200}?\s-U\s+\S+%"
    r"|\bnet\s+use\b[^\n]{0,200}?\\\\\S+\s+(?=[^/\s]+\s+/user:)|\bnet\s+use\b[^\n]{0,200}?/user:\S+\s+(?=[^/\s])"
    r"|\bhtpasswd\s+-b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+"
    r"|\benter\s+the\s+password\s+for\s+\S+:\s*"
    r"|\b(?:mongosh|mongo|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n]{0,200}?\s(?:-p|--password)\s+"
    r"|\baz\s+login\b[^\n]{0,200}?\s(?:-p|--password)\s+|\blftp\b[^\n]{0,200}?\s-u\s+[^,\s]+,"
    r"|\bnet\s+user\s+(?!/)\S+\s+(?=[^/\s*])|\bvncpasswd\b[^\n]{0,40}?<<<\s*)"
    r"['\"]?([^\s'\"]{4,128})"
)
# A Windows environment variable read at run time ("%DB_PW%", "%ProgramFiles(x86)%", "%appdata%"):
# a name in capitals or a word, not a password between "%" signs ("%Zq8K_f3mLr0pX%", "%hunter2%").
_WIN_ENV = re.compile(r"%(?:[A-Z_][A-Z0-9_]{0,60}|[A-Za-z]{1,40}(?:\(x86\))?)%")
# A Cisco device's configuration: a user's or the enable password in clear (type 0, or none)
# or in the reversible type 7 (types 5, 8 and 9 are hashes)
_CISCO_PASSWORD = re.compile(
    r"(?i)^\s*(?:[\w.\-]{1,63}(?:\([\w\-]{1,30}\))?[#>]\s*|[^\n:]{1,60}:\s+)?"  # behind a prompt ("R1(config)#") or a lead-in
    r"(?:username\s+\S+(?:\s+privilege\s+\d{1,2})?\s+(?:password|secret)|enable\s+(?:password|secret)(?:\s+level\s+\d{1,2})?)"
    r"\s+(?:(?P<type>[07])\s+)?(?P<val>\S{4,128})\s*$"
)
# A password piped into a command that reads it from stdin: echo 'X' | sudo -S ..., | docker login --password-stdin
_CLI_STDIN_PASSWORD = re.compile(
    r"(?i)\becho\s+(?:-n\s+)?['\"]?([^\s'\"|]{4,128})['\"]?\s*\|\s*(?:sudo\s+-S|[^\n|]{0,200}--password-stdin"
    r"|passwd\b|chpasswd)"
)
_CLI_HINTS = _hints(
    "psexec", "sqlcmd", "bcp ", "osql", "isql", "ldap", "rdp", "zip", "7z", "keytool", "rclone", "openssl", "password=",
    "pgpassword", "mysql_pwd", "smbclient", "net use", "htpasswd", "enter the password", "echo", "rdesktop",
    "mongo", "az login", "lftp", "net user", "vncpasswd",
)  # fmt: skip
# .NET and Java XML configuration: <add key="Password" value="..."/>, <entry key="db.password">
_XML_PASSWORD = re.compile(
    r"(?i)\b(?:key|name)\s*=\s*[\"'][\w.\-]*(?:password|passwd|pwd|secret)[\"']\s+value\s*=\s*[\"']([^\"']{4,128})[\"']"
)
# <password>Mango_Tango_88</password>, <apiKey>...</apiKey>
_XML_ELEMENT = re.compile(
    r"(?i)<([\w.\-]*?(pass(?:word|wd|phrase)?|pwd|secret|token|api[_\-]?key|access[_\-]?key|private[_\-]?key)[\w.\-]*)>"
    r"\s*([^<>\s][^<>]{2,127}?)\s*</\1>"
)
# "use Wint3r!Coat to log into the router", "I use Wint3r!Coat for the bank"
# what a password opens: "is what I use for" says nothing about passwords without one
_LOGIN_THINGS = _hints(
    "vpn", "wifi", "wi-fi", "login", "log in", "sign in", "account", "laptop", "computer", "router", "bank", "email",
    "e-mail", "portal", "phone", "tablet", "password", "pin", "unlock", "admin", "server", "nas",
)  # fmt: skip
# "Sunset_1994 is what I set for the office VPN"
_PW_WHAT = re.compile(
    r"(?i)(?:^|(?<=[\s\"'(]))([^\s\"'()]{6,64})[\"')]?\s+is\s+what\s+(?:i|we)\s+(?:set|use|used|chose|picked|typed?)"
    r"\s+(?:for|as|on|to)\b"
)
# "the laptop login is now anchor-chalk-case-bullet": a login stated as a value that is no username
_LOGIN_IS = re.compile(
    r"(?i)(?<![a-z])(?:log-?in|sign-?in|unlock)\s+(?:is|was|:)\s+(?:now\s+|still\s+)?[\"'`]?([^\s\"'`]{8,64})"
)
# "the router admin page uses admin / 9855Q*wbj%8ylqKG", "for the streaming account it's kwame91 and nstm03WN+tbx"
_USER_SLASH_PASSWORD = re.compile(
    r"(?i)(?<![a-z])(?:admin|router|portal|page|console|dashboard|account|login|log-in|sign-in|site|app)\b[^.\n]{0,30}?"
    r"(?:\buses?\b|\bis\b|\bit['’]s\b|:)\s*[\"'`]?([^\s:/\"'`,]{2,40})(?:\s+/\s+|\s+and\s+)([^\s\"'`/]{6,64})"
)
_ACCOUNT_SLASH = re.compile(
    r"(?i)(?<![\w@.])([\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|admin|root|administrator|user)\s*/\s*[\"'`]?(\S{6,64}?)"
    r"[\"'`]?(?=\s*(?:$|\(|[.;,]\s|[.;,]$))"  # the value ends the sentence: no more words after it
)
_ACCOUNT_CUES = _hints(
    "login", "log in", "account", "password", "facebook", "instagram", "gmail", "email", "e-mail", "portal", "admin",
    "router", "wifi", "wi-fi", "app", "site", "credential", "creds", "root", "netflix", "bank",
)  # fmt: skip
_LITERALLY = re.compile(r"(?i)\b(?:literally|so\s+it['’]s)\s*:?\s*[\"'`]?(\S{6,64})")
# an LDAP bind: "ldap bind: cn=reporting,dc=corp,dc=local / zCnTL9WWlUD"
_LDAP_BIND = re.compile(
    r"(?i)(?<![\w=])(?:cn|uid)=[^\s/,=]{1,64}(?:,\s*(?:dc|ou|o|cn|uid)=[^\s/,=]{1,64}){1,12}"
    r"\s*(?:/|\s(?:password|pw|pwd)\s*[:=]?)\s*"
    r"([^\s\"'`]{6,128})"
)
_PW_USE = re.compile(
    r"(?i)\b(?:use|using|used|type|typed|enter|entered)\s+[\"'`]?(\S{6,64}?)[\"'`]?\s+(?:to\s+(?:log|sign)\s*(?:in|on)(?:to)?"
    r"|to\s+unlock|for\s+(?:the\s+|my\s+|our\s+)?(?:bank|banking|login|account|wi-?fi|router|laptop|e-?mail|vpn|portal"
    r"|phone|computer|pc|mac|nas|server))\b"
)

_PIN_KEYWORD = re.compile(  # on lower-cased text: "my debit card PIN is 4821", "door code: 1234#"
    r"(?<![a-z])(?P<kw>cvv2?|cvc2?|csc|card\s+security\s+code"
    r"|(?:bike|cargo\s+bike|cycle|scooter|suitcase|luggage|gym)\s+lock|(?:phone|tablet|ipad|iphone|laptop|screen)\s+unlock"
    r"|pin(?:\s*(?:number|code))?|passcode|pass\s+code|(?:phone|device|screen|iphone|ipad)\s+code"
    r"|(?:door|gate|alarm|garage|entry|access|building|lobby|keypad|buzzer|lockbox|key\s*safe|safe|vault|locker"
    r"|panel|master|unlock|disarm|padlock|lock)(?:\s+[a-z]+){0,2}?\s+(?:code|combination|combo|pin)"
    r"|(?:lock|locker|safe)\s+combination|lockbox|key\s*safe|keysafe|padlock|keypad"
    r"|combination\s+(?:to|for|of)\s+(?:the\s+|my\s+|our\s+)?(?:[a-z]+\s+){0,2}?(?:lock|padlock|safe|locker|lockbox)"
    r"|code\s+(?:to|for)(?:\s+[a-z]+){0,3}?\s+(?:building|door|gate|house|apartment|flat|garage|lobby|safe"
    r"|locker|alarm|lockbox|entrance|front\s+door|back\s+door|shed|office)"
    # the card's security code described rather than named
    r"|(?:security|verification)\s+code\s+on\s+the\s+back(?:\s+of\s+(?:the|my|this)\s+card)?"
    r"|(?:three|four|3|4)\s+digits\s+on\s+the\s+back(?:\s+of\s+(?:the|my|this)\s+card)?"
    # the same in French, German, Spanish, Italian, Portuguese and Dutch
    r"|code\s+(?:pin|secret|confidentiel)|digicode|geheimzahl|geheimnummer|pin-?code|pin-?nummer|pincode"
    r"|code\s+(?:de\s+la\s+|du\s+|de\s+l['’]|d['’]|de\s+)(?:carte|porte|portail|alarme|coffre|cadenas|immeuble"
    r"|entr[ée]e|garage|bo[iî]te)(?:\s+[a-zéèêàç]+)?"
    r"|c[óo]digo\s+(?:pin|secreto|de\s+(?:la\s+|el\s+)?(?:tarjeta|puerta|alarma|port[ãa]o|cart[ãa]o|cofre)"
    r"|d[ao]\s+(?:porta|port[ãa]o|cart[ãa]o|alarme|cofre))"
    r"|codice\s+(?:pin|segreto|della\s+(?:carta|porta)|del\s+(?:bancomat|cancello|portone))"
    r"|senha\s+do\s+cart[ãa]o|toegangscode|deurcode|暗証番号|card\s+verification\s+(?:code|value|number)"
    r"|пин(?:-код)?|pin-kod|portkod(?:en)?|larmkod(?:en)?|d[öo]rrkod(?:en)?|kart(?:ı|i)m(?:ı|i)n\s+(?:ş|s)ifresi"
    r"|kart\s+(?:ş|s)ifrem|(?:ovi|portti|hälytys|halytys|kassakaappi|puhelin)koodi|koodi\s+ovelle"
    r"|(?:voicemail|storage\s+unit|bike\s+lock|suitcase|combination\s+lock)(?:\s+[a-z]+){0,3}?\s+(?:code|combination|combo|pin)"
    r"|code\s+to\s+(?:our|my|the)\s+storage\s+unit"
    r"|code\s+d['’]acc[èe]s"
    # a card's PIN in Arabic, Persian, Hindi, Bengali, Ukrainian, Hebrew, Thai, Vietnamese, Indonesian
    r"|الرقم\s+السري|رمز\s+(?:کارت|بطاقة|البطاقة)|پین|पिन|পিন|пін(?:-код)?|הקוד\s+הסודי|mã\s+pin|pin\s+kartu"
    r")(?![a-z])"
)
# Every keyword of _PIN_KEYWORD holds one of these (a test tries one phrase per language):
# a keyword missing here is never seen by the expression.
_PIN_HINTS = _hints(
    "الرقم",
    "رمز",
    "پین",
    "पिन",
    "পিন",
    "пін",
    "הקוד",
    "koodi",
    "voicemail",
    "storage unit",
    "bike lock",
    "unlock",
    "scooter",
    "luggage",
    "cycle lock",
    "gym lock",
    "suitcase",
    "비밀번호",
    "пин",
    "kod",
    "şifre",
    "sifre",
    "accès",
    "acces",
    "geheim",
    "暗証",
    "verification",
    "código",
    "codigo",
    "codice",
    "senha",
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
    r"(?i)^(?:[^\d\n.!?;:=*#@/\\<>{}\[\]|\"]{0,40}?)\s*(?:\bis\b|\bwas\b|:|=|\?|\bare\b|['’]s\b"
    r"|\b(?:changed|set|reset|updated)\s+to\b"
    r"|\b(?:est|ist|lautet|es|era|è|é|war|är|er|je|jest|to|είναι|là|adalah|ialah|هو|هي|הוא|היא)\b"
    r"|[はがも是为為는은：]|คือ|\s[—–]\s)"
    r"\s*(?:now\s+|still\s+)?"
    r"(?P<val>\d{1,3}(?:[-\s]\d{1,3}){2,3}(?![\d-])|\d{3,10}(?!\d)|[#*]?\d{3,10}[#*]?)"
)
_PIN_NEAR = re.compile(  # "PIN do aplikacji 53452", "pincode internetbankieren 10211"
    r"(?i)(?<![a-z])(?:(?:pin|pincode|pin-code|pin\s+code|пин-код|пин|пін-код|пін)(?:\s+[^\W\d][\w'’]*){1,4}"
    r"|(?:पिन|পিন|پین|رمز\s+کارت)(?:\s+[^\d\s]+){0,4}|(?:ş|s)ifresi"
    r"|(?:현관|도어락|문)\s*비밀번호|lockbox\b[^.\n]{0,40}?\bcode|(?:phone|tablet|ipad|iphone|laptop|screen)\s+unlock|kart\s+(?:ş|s)ifrem|koodi\s+ovelle\s+on)\s*[:=]?\s*"
    r"(?!(?:19|20)\d\d(?!\d))(\d{4,6})(?![\d.,/:-]?\d|[^\W\d_])"  # (not "screen unlock 1080p")
)
_ADDRESS_WORDS = _hints("पिन कोड", "পিন কোড", "पता", "ঠিকানা", "address", "road", "street", "nagar", "marg", "delivery",
                        "shipping", "ship to", "postal", "postcode", "post code", "post office", "postleit", "postnummer", "pocztow",
                        "почтов", "india", "bengaluru",
                        "bangalore", "mumbai", "delhi", "chennai", "kolkata", "hyderabad", "pune", "district",
                        # and in India's scripts: road, lane, colony, district, the cities
                        "मार्ग", "रोड", "गली", "नगर", "कॉलोनी", "जिला", "ज़िला", "मुंबई", "दिल्ली", "बेंगलुरु", "चेन्नई",
                        "कोलकाता", "हैदराबाद", "पुणे", "রোড", "কলকাতা", "ঢাকা", "জেলা", "சாலை", "சென்னை", "రోడ్", "హైదరాబాద్",
                        "ರಸ್ತೆ", "ಬೆಂಗಳೂರು", "റോഡ്", "રોડ", "અમદાવાદ", "ਰੋਡ", "ਸੜਕ")  # fmt: skip
def postal_pin(value: str, low: str) -> bool:
    """Whether six digits named a PIN are an Indian postcode: an address, a road or a city is
    named beside them ("पता: 12 गांधी मार्ग, पिन 110001"; "मेरा पिन 482913 है" is a PIN)."""
    return len(value) == 6 and value[0] in "12345678" and _has(low, _ADDRESS_WORDS) and (
        not _has(low, _PAYMENT_WORDS) or _has(low, _SAID_POSTAL)
    )


_SAID_POSTAL = _hints("postal", "postcode", "post code", "pin code", "पिन कोड", "পিন কোড")


_PAYMENT_WORDS = _hints(
    "card", "atm", "upi", "bank", "debit", "credit", "paytm", "gpay", "कार्ड", "एटीएम", "यूपीआई", "बैंक", "डेबिट", "क्रेडिट",
    "पेटीएम", "কার্ড", "এটিএম", "ইউপিআই", "ব্যাংক", "கார்டு", "ஏடிஎம்", "కార్డ్", "ఏటీఎం", "ಕಾರ್ಡ್", "ಎಟಿಎಂ", "കാർഡ്", "എടിഎം",
)  # fmt: skip


_PIN_DIRECT = re.compile(  # "PIN 7731 for the debit card", "gate code 4410#"
    r"(?<![A-Za-z])(?:PIN|[Pp]in(?:\s+(?:number|code))?|passcode"
    r"|(?i:door|gate|alarm|garage|keypad|lockbox|safe|entry|building|lobby|disarm|bike\s+lock|locker|voicemail"
    r"|storage\s+unit|suitcase)\s+(?i:code|combination|pin))"
    r"\s*(?:#|no\.?|number)?\s*(\d{4,8})#?"
    r"(?![\d.,/:-]\d)(?!\s*(?:mm|cm|in|inch|inches)\b)"
)
_CARD_CODE_DIRECT = re.compile(  # "card verification code 998", "CVV 123"
    r"(?i)(?<![a-z])(?:cvv2?|cvc2?|card\s+(?:security|verification)\s+(?:code|value|number))\s*[:#]?\s*(\d{3,4})(?![\d])"
)
# digits spelled out ("pin is four seven nine two"), read as digits by the PIN scan
# Digits spelled out, in English, French, German, Spanish, Portuguese and Italian ("pin is four
# seven nine two", "Geheimzahl: sieben vier null", "Visa: quatre un huit deux, ..."): read as digits.
_DIGIT_WORDS: dict[str, str] = {}
for _lang in (
    "zero one two three four five six seven eight nine",
    "zéro un deux trois quatre cinq six sept huit neuf",
    "null eins zwei drei vier fünf sechs sieben acht neun",
    "cero uno dos tres cuatro cinco seis siete ocho nueve",
    "zero um dois três quatro cinco seis sete oito nove",
    "zero uno due tre quattro cinque sei sette otto nove",
    "nul een twee drie vier vijf zes zeven acht negen",
    "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",
    "ноль один два три четыре пять шесть семь восемь девять",
    "нуль один два три чотири п'ять шість сім вісім дев'ять",
    "sıfır bir iki üç dört beş altı yedi sekiz dokuz",
    "nol satu dua tiga empat lima enam tujuh delapan sembilan",
    "không một hai ba bốn năm sáu bảy tám chín",
    "μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα",
    "ゼロ いち に さん よん ご ろく なな はち きゅう",
):
    for _i, _w in enumerate(_lang.split()):
        _DIGIT_WORDS.setdefault(_w, str(_i))
_DIGIT_WORDS.update(
    {"oh": "0", "zero": "0", "ein": "1", "eine": "1", "une": "1", "una": "1", "uma": "1", "zwo": "2"}
)
_DIGIT_WORDS.update(  # variants: Greek spellings, Japanese readings, the Ukrainian apostrophe
    {"εφτά": "7", "οχτώ": "8", "εννιά": "9", "τρεις": "3", "τέσσερις": "4", "れい": "0", "しち": "7",
     "п’ять": "5", "дев’ять": "9", "pieć": "5"}
)  # fmt: skip
_DIGIT_ALT = "|".join(sorted(map(re.escape, _DIGIT_WORDS), key=len, reverse=True))
_SPELLED = re.compile(rf"(?i)(?<!\w)(?:(?:{_DIGIT_ALT})[\s,\-]+){{2,18}}(?:{_DIGIT_ALT})(?!\w)")


_DIGIT_WORD = re.compile(rf"(?i){_DIGIT_ALT}")
_WORD_SPLIT = re.compile(r"[\s,\-–—.;:!?()\"'‘’“”«»]+")


def _maybe_spelled(low: str) -> bool:
    """Whether a lower-cased line holds three digit words or more: only then is the
    expression for spelled digits (a long alternation, slow on every line) worth running."""
    n = 0
    for word in _WORD_SPLIT.split(low):
        if word in _DIGIT_WORDS:
            n += 1
            if n == 3:
                return True
    return False


def _spelled_digits(text: str) -> str:
    return _SPELLED.sub(
        lambda m: "".join(_DIGIT_WORDS.get(w, "") for w in _DIGIT_WORD.findall(m.group().lower())), text
    )


_COMBO_DIRECT = re.compile(  # "safe combination 12-65-49" (a padlock's numbers, no "is" needed)
    r"(?i)(?<![a-z])(?:lock|locker|safe|padlock|lockbox|suitcase|bike\s+lock)\s+(?:combination|combo)\s*[:=]?\s*"
    r"(\d{1,3}(?:[-\s/]\d{1,3}){2,3})(?![\d-])"
)
_OPEN_HINTS = _hints("open", "unlock", "arm")
_CARD_WORDS = _hints("visa", "mastercard", "amex", "diners", "discover", "jcb", "card", "carte", "karte", "tarjeta",
                     "cartão", "carta", "maestro")  # fmt: skip
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
    r"(?:secret|seed|key)\b[^.\n]{0,70}?(?:\bis\b|:|=)\s*((?:[A-Z2-7]{4}\s?){4,}[A-Z2-7]*)"
)
# An authenticator's base32 key as apps show it for typing: groups of four, a digit among them.
_SETUP_KEY_GROUPS = re.compile(r"(?i)(?<![\w-])(?=(?:[a-z2-7]{4} ){3,}[a-z2-7]{4}(?![\w-]))(?=[^\n]{0,40}[2-7])(?:[a-z2-7]{4} ){5,}[a-z2-7]{4}(?![\w-])")
_CODE = r"(?:\d{4}[\s-]?\d{4}|[a-z0-9]{4,5}-[a-z0-9]{4,5}|\d{6,10})"
_BACKUP_CODES = re.compile(
    r"(?i)(?<![a-z])(?:backup|recovery|2fa|mfa)\s+codes?\b[^.\n]{0,40}?(?:\bare\b|\bis\b|:|(?=\s+\d))\s*"
    rf"({_CODE}(?:[\s,;]+{_CODE})+)"
)
_PHRASE_NAMED = re.compile(r"(?i)(?:phrase|words?|sentence|w(?:ö|o|oe)rter|frase|zin|fraza)\b")
_SEED_PHRASE = re.compile(
    r"(?i)(?<![a-z])(?:(?:seed|recovery|mnemonic|backup|secret)(?:\s+(?:phrase|words?|sentence))?"
    r"|wiederherstellungsw(?:ö|o|oe)rter|frase de recupera(?:ción|cion|ção|cao)|frase (?:semente|seed)"
    r"|phrase de r[ée]cup[ée]ration|herstelzin|fraza odzyskiwania|frase di recupero)\b[^.\n:]{0,40}?"
    r"(?:\bis\b|\bare\b|:|\s[-–—=]\s)\s*((?:[a-z]{3,8}[\s,]+){11,23}[a-z]{3,8})\b"
)

# --------------------------------------------------------------------------------------------
# Our own detectors: a random-looking token after a secret keyword
# --------------------------------------------------------------------------------------------

_SECRET_KEYWORD = re.compile(  # run on lower-cased text
    r"(?<![a-z])(?:api[\s_\-]?keys?|apikey|access[\s_\-]?keys?|secret(?:[\s_\-]?key)?s?|client[\s_\-]?secret"
    r"|tokens?|auth(?:orization)?|bearer|credentials?|pass(?:word|wd|phrase)?s?|pwd|keys?|signing|cookie"
    r"|session[\s_\-]?(?:id|key|secret|cookie)|sessionid|private|x-api-key|webhook"
    # "key" and "token" in other languages
    r"|klucz\w*|sleutel|chave|cl[ée]|clave|schl[üu]ssel|chiave|nyckel\w*|n[øo]gle|avain|anahtar\w*|jeton"
    r"|ключ\w*|токен\w*|キー|トークン|密钥|密鑰|秘钥|令牌|토큰|api\s*키"
    # Estonian, Romanian, Hungarian, Czech, Slovak, Croatian/Slovene/Serbian, Greek, Hebrew,
    # Arabic, Persian, Lithuanian, Latvian, Norwegian, Indonesian/Malay, Vietnamese, Swahili,
    # Hindi, Thai
    # (not the languages' "keyword", "course", "answer key": kata kunci, từ khóa, khóa học, cuvânt cheie,
    # kulcsszó, klíčová slova, ključne riječi, atslēgvārdi, nøkkelord, λέξη-κλειδί)
    r"|v(?:õ|o)ti|(?<!cuvânt )(?<!cuvinte )(?<!cuvant )cheie|kulcs(?!sz[oó]|szav|rak)\w*|kl(?:í|i)(?:č|c)(?!ov|enk)\w*"
    r"|k(?:ľ|l)(?:ú|u)(?:č|c)(?!ov)\w*|klju(?:č|c)(?!n)\w*|(?<!λέξη-)(?<!λέξεις-)(?<!λέξη )κλειδ\w*|מפתח"
    r"|مفتاح|کلید|გასაღებ\w*|բանալի\w*|விசை\w*|চাবি|raktas|atsl(?:ē|e)g(?!v)\w*|n(?:ø|o)kkel(?!ord|fig)\w*|(?<!kata )kunci(?!\s+(?:jawaban|mobil|motor|kamar|rumah|pintu|loker))"
    r"|(?<!từ )khóa(?!\s+(?:học|luận))|ufunguo|कुंजी|คีย์)(?![a-z0-9|])"
)
_NOT_SECRET_CONTEXT = re.compile(
    r"(?i)(?<![a-z])(?:commit|sha\d*|hash|checksum|digest|fingerprint|public|publishable|uuid|request(?:\s+id)?"
    r"|trace|order|tracking|idempotency|lock\s+id|serial|docker|image|container|version|build|release|tag"
    r"|object|primary|foreign|partition|sort|cache|redis|s3|path|arn|etag|nonce|key\s+id|kid|isbn|ssh-\w+"
    r"|ecdsa-[\w-]+|gpg|pgp\s+key\s+id|site[\s_\-]?key|page[\s_\-]?token|pagination|cursor)(?![a-z])"
)
# a registry key's class id, an organisation's or a project's id, a value said not to be a key: they
# name the value only where no credential is named after them ("org id 4821, token ..." names a token)
_ID_CONTEXT = re.compile(
    r"(?i)(?<![a-z])(?:registry\s+key|clsid|guid|organi[sz]ation[\s_\-]?id|org[\s_\-]?id|project[\s_\-]?id|message[\s_\-]?id|ksuid"
    r"|not\s+a\s+(?:key|secret|token|password|credential))(?![a-z])"
)
# an OAuth client's id with its value right after ("auth0-client-id=gbXS...", "clientId: '...'"):
# the app's public name at the provider; its secret is named "secret"
_CLIENT_ID_VALUE = re.compile(r"(?i)(?<![a-z])client[\s_\-]?id[\"']?\s*[:=]\s*[\"']?[\w\-.~]{8,128}[\"']?\s*$")
_SAID_NOT = re.compile(r"(?i)\(?\s*not\s+a\s+(?:key|secret|token|password|credential)\s*\)?")
_CREDENTIAL_NOUN = re.compile(r"(?i)(?<![a-z])(?:api|key|token|secret|passw\w*|credential\w*|dsn|auth\w*)(?![a-z])")


def not_secret_context(text: str) -> bool:
    """Whether ``text`` (the words before a value) says the value is a hash, an id or public:
    an id's words count only where no credential is named after them ("org id 4821, token
    ..." names a token; "(not a key)" said of the value is no credential named)."""
    if _NOT_SECRET_CONTEXT.search(text) or _CLIENT_ID_VALUE.search(text):
        return True
    return any(not _CREDENTIAL_NOUN.search(_SAID_NOT.sub(" ", text[m.end() :])) for m in _ID_CONTEXT.finditer(text))


_CANDIDATE = re.compile(r"[A-Za-z0-9+/_\-]{16,}={0,2}")
# Keys made to be published in a web page: Stripe's publishable keys, PostHog's project keys.
_PUBLIC_TOKEN = PUBLIC_TOKEN
_ID_NAMED = re.compile(r"(?:client|app|tenant|user|object|job|request|trace|session|device)[ _-]?id\b|\bid\s*[=:]")
# Ids that look random: a ULID (Crockford base32, 26 characters, a timestamp first) and a
# UUID written with its dashes.
ID_SHAPE = re.compile(
    r"[0-7][0-9A-HJKMNP-TV-Z]{25}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
)
_URL = re.compile(r"(?i)\b(?:[a-z][a-z0-9+.\-]*://|www\.)\S+")

# --------------------------------------------------------------------------------------------
# Payment cards (a secret, and PII)
# --------------------------------------------------------------------------------------------

_CARD = re.compile(
    r"(?<![\w\-.])(?:\d[ \-]?){11,18}\d(?![ \-]?\d(?!\d/\d\d))(?!\.\d)"
)  # an expiry may follow
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
    testing = _TEST_CONTEXT.search(text) is not None
    spans = []
    for m in _DIGIT_RUN.finditer(text):
        if m.end() - m.start() < 12:
            continue  # too short to hold a card's twelve digits
        if _IBAN_BEFORE.search(text, max(0, m.start() - 6), m.start()):
            continue  # the rest of an IBAN ("DE60 5101 5875 ...")
        if _NOT_CARD_LABEL.search(text, max(0, m.start() - 32), m.start()) and not _EXPIRY_AFTER.search(
            text, m.start() + 12, m.end() + 12
        ):
            continue  # a parcel's, a phone's or an order's number ("Nomor resi JNE: 4310..."), unless an expiry follows
        if m.start() and text[m.start() - 1] == "/" and _IN_LINK.search(text, 0, m.start()):
            continue  # an id in a link's path (discord.com/channels/.../4476341376603262320)
        pieces = re.split(r"([ \-])", m.group())
        groups, seps = pieces[::2], pieces[1::2]
        # a card followed by its expiry or its code ("... 1486 12/31", "4539...1486 123"): the
        # run takes those too, so the card may end a group or two earlier
        for keep in range(len(groups), max(0, len(groups) - 3), -1):
            if keep < len(groups) and len(groups[keep]) > 3:
                break  # only an expiry's or a code's short groups follow a card
            kept, kept_seps = groups[:keep], set(seps[: keep - 1])
            if len(kept_seps) > 1:
                continue
            if _card_ok("".join(kept), kept if kept_seps else None, testing):
                end = m.start() + sum(map(len, kept)) + keep - 1
                spans.append((m.start(), end))
                break
    return spans


# Runs of digit groups separated by one space or dash; an expiry's "/" may follow.
# (digits glued to a word of a script written without spaces count: "カード番号3700 309055 94908")
_DIGIT_RUN = re.compile(
    r"(?<![A-Za-z0-9_\-.\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF])\d{1,19}(?:[ \-]\d{1,19}){0,11}(?!\w|[\-.]\d)"
)
_IBAN_BEFORE = re.compile(r"[A-Z]{2}\d{2}[ \-]?$")
_EXPIRY_AFTER = re.compile(r"(?<!\d)(?:0[1-9]|1[0-2]) ?/ ?\d{2}(?!\d)")
_NOT_CARD_LABEL = re.compile(
    r"(?i)\b(?:resi|tracking|awb|waybill|sendungsnummer|sendungs-?nr|imei|iccid|serial|invoice|order|rastreio|pixel"
    r"|seguimiento|suivi|colis|paket)\b(?:(?!card|visa|master|amex|karte|tarjeta|carte)[^\d\n]){0,16}$"
    # the same labels where no space stands before the number: an order's, a parcel's, a member's
    r"|(?:注文|注文番号|伝票番号|追跡番号|問い合わせ番号|会員番号|订单|订单号|訂單|运单号|快递单号|物流单号|会员号|주문번호|송장번호"
    r"|운송장번호|회원번호)[^\d\n]{0,6}$"
)
_IN_LINK = re.compile(r"(?:https?://|www\.)[^\s]*$")


def _card_ok(digits: str, groups: list[str] | None, testing: bool) -> bool:
    """``digits`` (printed in ``groups``, if grouped) is a payment card's number."""
    if not digits.isascii():
        digits = "".join(str(unicodedata.digit(ch)) for ch in digits)
    if not (12 <= len(digits) <= 19) or len(set(digits)) < 2 or (testing and digits in TEST_CARDS):
        return False
    # printed cards group digits by 4 (4-6-5 or 4-6-4 for Amex and Diners)
    if groups is not None and (len(groups[0]) != 4 or any(not 2 <= len(g) <= 6 for g in groups)):
        return False
    return _card_brand_ok(digits) and _luhn_ok(digits)


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




# The payment networks' and gateways' published test cards (Stripe, Adyen, Braintree,
# PayPal, Visa's and Mastercard's docs): numbers every developer pastes, that pay nothing.
TEST_CARDS = frozenset(
    """
    4242424242424242 4000056655665556 5555555555554444 2223003122003222 5200828282828210 5105105105105100
    378282246310005 371449635398431 6011111111111117 6011000990139424 3056930009020004 36227206271667
    3566002020360505 6200000000000005 4111111111111111 4012888888881881 4222222222222 5431111111111111
    4000000000000002 4000000000009995 4000000000000077 4000002500003155 4000000000003220 378734493671000
    6011601160116611 5019717010103742 4917610000000000 38520000023237 30569309025904 3530111333300000
    4444333322221111 4988438843884305 5454545454545454 2222400070000005 4005519200000004 4009348888881881
    4012000033330026 4012000077777777 4217651111111119 4500600000000061 5425233430109903 6011000400000000
    4000000000009987 4000000000009979 4000000000000069 4000000000000127 4000000000000119 4000000000000101
    4000000000000341 4000002760003184 4000000000003063 4000008400001629 4000003720000278 4000000000000259
    4000000000001976 4000000000005423 4100000000000019 4000000000004954 4000000000009235 4000000000000010
    4000000000000028 4000000000000036 4000000000000044 4000000760000002 4000001240000000 4000004840008001
    4000000400000008 4000000560000004 4000002080000001 4000002460000001 4000002500000003 4000002760000016
    4000003720000005 4000003800000008 4000004420000006 4000005280000002 4000005780000007 4000006200000007
    4000007240000007 4000007520000008 4000007560000009 4000008260000000 4000058260000005 4000000360000006
    4000001560000002 4000003440000004 4000003920000003 4000007020000003 4000000000003055 4000000000003238
    4000000000003246 4000000000003253 4000008260003178 4000000000006975 4000000000000093 6205500000000000004
    """.split()
)
_TWELVE_DIGITS = re.compile(r"\d(?:[ -]?\d){11}")  # a quick test before the card run's
_CARD_RUN = re.compile(r"(?<![\d-])\d(?:[ -]?\d){11,18}(?![\d-])")
# Words that say a card number is a gateway's test card: "Stripe test card: 4242 ...", not
# "my Visa is 4242 ..." (a test number claimed as one's own is still refused).
_TEST_CONTEXT = re.compile(r"(?i)(?<![^\W_])(?:test|testing|sandbox|sample|example|docs|documentation|dummy|fake)(?![^\W_])")
# A value shown masked ("sk-proj-****...TZQ4"), an AWS resource name (an address, not a key),
# a reference to where a secret is kept ("${DB_PASSWORD:?must be set}", Home Assistant's
# "!secret wifi_password"), and a certificate or public key (public by design).
# (the run of masks first, then the token around it: a pattern that starts at the token's
# first character backtracks over every mask run of a long line, quadratic in its length)
_MASK_RUN = re.compile(r"[*•●]{6,}")
_TOKEN_EDGE = re.compile(r"[\s\"']")
_ARN = re.compile(r"\barn:aws[\w-]*:[^\s\"'<>]+")
# (not "${TOKEN:-ghp_...}": a default written in the reference is a value)
_REFERENCE = re.compile(
    r"(?:\$\{[A-Za-z_][A-Za-z0-9_]*(?::?\?[^}\n]{0,200})?\}|!secret\s+[\w.\-]+"
    # a lookup by names, never with a string that could be the secret itself
    r"|keyring\.get_password\(\s*[\"'][\w.\-@ ]{1,64}[\"']\s*,\s*[A-Za-z_][\w.]{0,60}(?:\(\))?\s*\)"
    r"|getpass\.getpass\(\s*(?:[\"'][^\"'\n]{0,80}[\"'])?\s*\)"
    r"|(?:os\.getenv|os\.environ\.get)\(\s*[\"'][\w.\-]{1,100}[\"']\s*\)"  # not one with a default: a value
    # a template's (Ansible, Jinja, Helm) lookup of a value kept elsewhere, by names only
    r"|\{\{\s*(?:lookup|query)\(\s*[\"'](?:env|file|password|hashi_vault|aws_secret|aws_ssm|community\.[\w.]+)[\"']"
    r"(?:\s*,\s*[\"'](?:[a-z][a-z0-9_./\-:]{0,99}|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[\"']){1,3}\s*\)\s*\}\}"
    r"|\{\{\s*\.Values(?:\.[A-Za-z_]\w{0,63}){1,6}\s*\}\}"
    # an environment variable read by name in more languages and tools: a pipeline's $(NAME), a Go
    # template's {{ .Env.NAME }} or {{ env "NAME" }}, an Ansible variable, PowerShell's $env:NAME,
    # ${env:NAME}, ${NAME:-} (empty default only), Ruby's ENV['NAME'], .NET, Java, Go, Node, PHP
    r"|!ENV\s+\$\{[A-Za-z_]\w{0,99}\}|\$\(\s*[A-Z_][A-Z0-9_]{1,99}\s*\)|\{\{\s*\.Env\.[A-Za-z_]\w{0,99}\s*\}\}|\{\{\s*env\s+[\"'][A-Za-z_]\w{0,99}[\"']\s*\}\}"
    r"|\{\{\s*[a-z_][a-z0-9_]{0,99}\s*\}\}|\$env:[A-Za-z_]\w{0,99}|\$\{env:[A-Za-z_]\w{0,99}\}|\$\{[A-Za-z_]\w{0,99}:-\}"
    r"|#\{ENV\[\s*[\"'][A-Za-z_]\w{0,99}[\"']\s*\]\}|(?<![\w.])ENV\[\s*[\"'][A-Za-z_]\w{0,99}[\"']\s*\]"
    r"|(?:Environment\.GetEnvironmentVariable|System\.getenv|os\.Getenv|std::env::var|getenv)\(\s*[\"'][\w.\-]{1,100}[\"']\s*\)"
    r"|process\.env(?:\.[A-Za-z_]\w{0,99}|\[\s*[\"'][\w.\-]{1,100}[\"']\s*\])"
    r"|(?<![(\w])\(\([a-z][a-z0-9_.\-]{0,99}\)\)(?!\))"  # Concourse's ((name))
    r")(?![\w.])(?!\s*(?:\|\||\?\?|[+\-.])?=(?!=))"  # read, not assigned: ENV["X"] ||= "...", $env:X = "..."
    r"(?!\s*(?:\|\||\?\?|\?:|\bor\b))"  # nor given a literal to fall back on: process.env.X || 'value'
)
# A variable's, a secret's or a path part's name: words in lower case joined by "-", "_" or ".",
# words in capitals joined by "_" (AUTH0_CLIENT_SECRET), or letters only
_NAME_LIKE = re.compile(
    r"[a-z][a-z0-9]{0,23}(?:[-_.][a-z0-9]{1,23}){0,7}|[A-Z][A-Z0-9]{0,23}(?:_[A-Z0-9]{1,23}){1,7}|[A-Za-z]{1,40}"
)


def _name_like(part: str) -> bool:
    """Whether ``part`` reads as a name, not as a value dressed as one (a run of random
    lower-case letters and digits is no name)."""
    if not _NAME_LIKE.fullmatch(part):
        return False
    return not (part.islower() and not re.search(r"[-_.]", part) and _looks_random(part, 12))


def _reference(m: re.Match[str]) -> str:
    """A reference by name replaced, unless a name in it reads as a password or a token
    (``os.Getenv("hunter2024")``, ``$(P4SS_W0RD)``, a UUID: a value dressed as a reference)
    or a value stands right after it (the rules read it beside the name), or it is joined to
    another ("${A}${B}": a value put together from pieces the text may set)."""
    if m.string.startswith("$", m.end()) or m.string.endswith("}", 0, m.start()):
        return m.group()
    for name in re.findall(r"[\w.\-]{4,}", m.group()):
        if _UPPER_SNAKE.fullmatch(name):
            if not _snake_name(name):
                return m.group()  # P4SS_W0RD: a value dressed as a name
            continue
        if len(re.findall(r"\d", name)) >= 2 or _UUIDISH.search(name):
            return m.group()  # digits in a name: "hunter2024", "p4ssw0rd", a UUID
        if _name_like(name):
            continue
        if re.search(r"\d", name) or _looks_random(name, 12):
            return m.group()
    after = [w.strip("\"'`,;") for w in m.string[m.end() : m.end() + 120].split("\n", 1)[0].split()[:2]]
    if any((_passwordish(w) and re.search(r"\d", w) and re.search(r"[^\w:/.\-]", w)) or _looks_random(w, 12) for w in after):
        return m.group()  # a value beside it keeps the name it is read by: "{{ .Env.DB_PASSWORD }} Zx8#q..."
    return "<secret>"


_UPPER_SNAKE = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_UUIDISH = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-|[0-9a-f]{12,}")


_REFERENCE_HINTS = _hints(
    "${", "!secret", "get_password(", "getpass(", "os.", "{{", "$(", "$env:", "ENV[", "getenv(", "Getenv(",
    "GetEnvironmentVariable(", "env::var(", "process.env", "((",
)  # fmt: skip
# The unit a policy counts, after its number: a quick test before the policy pattern.
_POLICY_UNIT = re.compile(r"(?i)\d\s+(?:char|cara|zeic|teck|tegn|znak|kara|teke|merk|lett|digi|cifr|díg|chif|ziff)")
# A Terraform reference to a variable or a local ("password = var.db_password"): a name,
# unless what follows the dot is a token (an evasion).
_TF_REFERENCE = re.compile(r"(?<![\w.])(?:var|local)\.([A-Za-z_]\w{0,63})")


def _tf_token(name: str) -> bool:
    """What follows ``var.`` is a token, not a variable's name (names are short words)."""
    return len(name) >= 16 and (_looks_random(name) or generated(name) and any(ch.isdigit() for ch in name))


# A password policy's terms ("at least 12 characters", "mínimo 16 caracteres") and a
# validation pattern's lookaheads: about passwords, never one.
_POLICY = re.compile(
    r"(?i)(?<![\w])(?:at least|minimum(?: of)?|min\.?|maximum|max\.?|mínimo|minimo|almeno|mindestens|minst"
    r"|au moins|co najmniej|en az|minimaal|ten minste|pelo menos|al menos|wenigstens|vähintään)\s+\d{1,3}\s+"
    r"(?:characters?|chars?|caratteri|caracteres|caractères|zeichen|tecken|tegn|znak\w*|karakter\w*|tekens"
    r"|merkkiä|letters?|digits?|cifre|dígitos|chiffres|ziffern)"
    r"|\^?(?:\(\?[=!][^()\n]{0,40}(?:\([^()\n]{0,20}\))?[^()\n]{0,10}\)){2,}(?:[.\\][SsWwDd*+]?\{\d+,?\d*\}|\.[*+])?\$?"
)
_PUBLIC_PEM = re.compile(
    r"-----BEGIN ((?:[A-Z0-9]+ )*(?:CERTIFICATE|PUBLIC KEY)(?: REQUEST)?)-----.*?-----END \1-----", re.DOTALL
)
# An SSH public key: its body the key blob of its algorithm ("AAAAC3NzaC1lZDI1NTE5" names
# ssh-ed25519), then the key of that algorithm's length. Public; a value written in its place
# must keep the blob's header and length.
_SSH_PUBLIC = re.compile(
    r"(?:ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43}"
    r"|ssh-rsa AAAAB3NzaC1yc2EAAAA[A-Za-z0-9+/]{340,}={0,2}"
    r"|ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB[A-Za-z0-9+/]{78,87}={0,2}"
    r"|ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhB[A-Za-z0-9+/]{120,128}={0,2}"
    r"|ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFB[A-Za-z0-9+/]{170,176}={0,2})"
    r"(?![A-Za-z0-9+/=])"
)
_SHOWN_RUN = re.compile(r"[A-Za-z0-9]{12,}")


# An OpenPGP key's id or fingerprint where the text names it as one, and a GitHub OAuth or
# GitHub App client id: identifiers, public by design.
_PGP_ID = re.compile(
    r"(?i)((?:fingerprint|key\s*id|keyid|(?:gpg|pgp|with)\s+key|signing\s*key)\s*(?:is\s+)?[:=]?\s*)(?:0x)?"
    r"(?:[0-9A-F]{4}\s?){3}[0-9A-F]{4}(?:\s?(?:[0-9A-F]{4}\s?){5}[0-9A-F]{4})?(?![0-9A-Za-z])"
)
# Identifiers public by design: a Google OAuth client's id (its secret is "GOCSPX-..."), a
# minisign or signify public key where the text says it is one, a placeholder in angle
# brackets ("<your-openai-key>", "mongodb://<username>:<password>@"; an element that is closed,
# "<password>...</password>", is markup).
_GOOGLE_CLIENT_ID = re.compile(r"(?<![\w-])\d{6,14}-[a-z0-9]{32}\.apps\.googleusercontent\.com(?![\w-])")
_MINISIGN_PUBLIC = re.compile(r"(?i)(public key[^\n]{0,12}?[:=]?\s*)RW[A-Za-z0-9+/]{54}(?![A-Za-z0-9+/=])")
_ANGLE_PLACEHOLDER = re.compile(
    r"<(?:(?:your|my|the|a|an)[-_ ])?[a-z0-9_-]{0,30}(?:key|token|password|passwd|pwd|secret|user|username|pass|id|value)"
    r"(?:[-_ ][a-z]{1,12}){0,3}>"
)
# The PINs statistics name ("1234 is the most common PIN, then 1111"): one digit repeated,
# or digits in a row.
_PIN_RUN = re.compile(r"(?<![\d.,-])\d{4,8}(?![\d.,-])")


# A key named as one ("API key", "secret", "token"): a client id's shape beside it hides a key.
_KEY_LABEL = re.compile(r"(?i)api[ _-]?key|secret[ _-]?key|access[ _-]?key|(?<!not )(?<!not a )secret\b(?! manager)|token|password")
# A PIN stated as someone's or something's: "the shed keypad PIN is 5555", "card PIN: 1111".
_PIN_GIVEN = re.compile(r"(?i)\bpin(?:\s+code)?\s*(?:is|was|=|:)\s*\d")
# What follows a placeholder when a value was put after it: "<your-password>: BlueHeron#2291".
_AFTER_PLACEHOLDER = re.compile(r"[ \t]*+(?:[:=]|->|→|=>|\bis\b)?[ \t]*+([^\s<>]{6,})")  # possessive: no backtracking over spaces


def _not_placeholder(text: str, m: re.Match[str]) -> bool:
    """A closed element (markup) or a label with a value after it."""
    if "</" + m.group()[1:] in text:
        return True
    after = _AFTER_PLACEHOLDER.match(text, m.end())
    return after is not None and not after.group(1).startswith(("@", ":", "/", "(")) and (
        _passwordish(after.group(1).rstrip(".,;)")) or _looks_random(after.group(1).rstrip(".,;)"), 12)
    )


def _trivial_pin(m: re.Match[str]) -> str:
    d = m.group()
    return "[common PIN]" if len(set(d)) == 1 or d in "01234567890" or d in "09876543210" else d


_GITHUB_CLIENT_ID = re.compile(r"(?<![A-Za-z0-9])(?:Ov23li[A-Za-z0-9]{14}|Iv23li[A-Za-z0-9]{14}|Iv1\.[0-9a-f]{16})(?![A-Za-z0-9])")
# A map position ("45.45816, 7.79177"): not a number to join up and read as a card.
_COORDINATES = re.compile(r"(?<![\w.])-?\d{1,3}\.\d{4,8},\s?-?\d{1,3}\.\d{4,8}(?![\w.])")




def without_masked(text: str) -> str:
    """``text`` with masked values replaced ("sk-proj-****...TZQ4")."""
    return _without_masked(text) if "*" in text or "•" in text or "●" in text else text


def _without_masked(text: str) -> str:
    """``text`` with each value shown masked replaced. A masked value keeps a few characters
    at its ends (``sk-proj-****TZQ4``); one with a long run left in the clear (a token with
    stars appended) is not masked."""
    out: list[str] = []
    done = 0
    for run in _MASK_RUN.finditer(text):
        if run.start() < done:
            continue  # inside the token of the run before
        start = run.start()
        while start > done and not _TOKEN_EDGE.match(text[start - 1]):
            start -= 1
        end = _TOKEN_EDGE.search(text, run.end())
        stop = end.start() if end else len(text)
        token = text[start:stop]
        out.append(text[done:start])
        out.append(token if _SHOWN_RUN.search(token) else "[masked]")
        done = stop
    return "".join(out) + text[done:] if out else text


# Secrets Manager ends a secret's ARN with six random characters of its own ("...:secret:
# prod/db-Ab12Cd"): part of the name, not a value.
_SECRET_ARN_SUFFIX = re.compile(r"(:secret:[^\s\"'<>]+)-[A-Za-z0-9]{6}$")


def _arn(m: re.Match[str]) -> str:
    name = _SECRET_ARN_SUFFIX.sub(r"\1", m.group())
    return m.group() if any(map(_looks_random, _CANDIDATE.findall(name))) else "[arn]"


def _pgp_text(text: str) -> bool:
    """A signing key's id only where the text is about GnuPG or git ("user.signingkey"), not a
    webhook's or a token's signing key ("Webhook signingkey: 9F3A...", "JWT signingkey = ...")."""
    low = text.lower()
    if "signingkey" in low.replace(" ", "") and not re.search(r"gpg|pgp|gnupg|\.gitconfig|git config|user\.signingkey|commit", low):
        return False
    return not re.search(r"hmac|webhook|jwt|slack|(?<!not )secret|api", low) or "fingerprint" in low


def _pgp_named(text: str, m: re.Match[str]) -> bool:
    """A key id "with key ..." only where the text signs with it or names GnuPG; "encrypt the
    backup with key <hex>" or "push with key <token>" holds a secret."""
    if not m.group(1).lower().lstrip().startswith("with"):
        return True
    return re.search(r"(?i)\bsign|\bgpg\b|\bpgp\b|gnupg", text) is not None and not re.search(r"(?i)token|secret|password", text)


_KMS_SAID = re.compile(r"(?i)kms|ciphertext")
_FERNET_SAID = re.compile(r"(?i)fernet")


def without_sealed(text: str) -> str:
    """``text`` with the values sealed for storage by design (SOPS, Ansible Vault, a Sealed
    Secret's ciphertext, dotenvx, Jasypt, EJSON, Vault's transit engine, AWS KMS) replaced:
    read whole, before the text is cut into lines."""
    if (
        "ENC[" in text or "$ANSIBLE_VAULT" in text or "!vault" in text or "encrypted:" in text or "ENC(" in text
        or "EJ[1:" in text or "vault:v" in text
    ):
        text = ENCRYPTED_VALUE.sub(lambda m: "[encrypted]" if sealed(m.group()) else m.group(), text)
    if "U2FsdGVkX1" in text:
        text = SALTED_VALUE.sub("[encrypted]", text)
    if "SealedSecret" in text or "encryptedData" in text:
        text = SEALED_VALUE.sub("[encrypted]", text)
    if "gAAAAA" in text and _FERNET_SAID.search(text):
        text = FERNET_TOKEN.sub("[encrypted]", text)  # "encrypted field (fernet, key not stored here): gAAAAAB..."
    if "AQ" in text and _KMS_SAID.search(text):  # "aws kms encrypt ...", "NEON_API_KEY_CIPHERTEXT=AQICAH..."
        text = KMS_BLOB.sub(lambda m: "[encrypted]" if kms_sealed(m.group()) else m.group(), text)
    return text


# A request's signature header (a webhook's HMAC of one body): "x-slack-signature: v0=<hex>".
_SIGNATURE_HEADER = re.compile(
    r"(?im)((?<![\w-])x-(?![\w-]{0,40}(?:key|secret|token|signing|auth|credential))(?:[a-z0-9]+-){0,3}signature(?:-\d+)?"
    r"\s*:\s*(?:v\d+=|sha\d+=)?)[0-9a-f]{32,128}[ \t]*$"
)
# A value a secret manager's command fetches when it runs: "=$(aws secretsmanager get-secret-value ...)"
# (not "$(echo ...)": that holds the value).
_KEY_TALK = re.compile(r"(?i)(?<![^\W_])(?:key|secret|token|password|credential|private)(?![^\W_])")
_COMMAND_VALUE = re.compile(
    r"=\s*\$\((?:aws secretsmanager|aws ssm get-parameter|vault (?:kv get|read)|op (?:read|item get)|gcloud secrets"
    r"|az keyvault|kubectl get secret|security find-generic-password|pass show|doppler secrets get|bw get|gopass"
    r"|cat /run/secrets/)[^()\n`;|&<>]*\)"
)
# A word and the digits a phone's keypad gives it, taught as a game ("GOLF = 4653 (just a game)").
_KEYPAD_GAME = re.compile(r"\b([A-Z]{3,10})\s*=\s*(\d{3,10})\b")
_DATADOG_CLIENT_TOKEN = re.compile(r"(clientToken\W{1,4})pub[0-9a-f]{32}(?![0-9a-f])")
_KEYPAD_SPELLS = re.compile(r"(?<!\d)(\d{3,10})\s+spells\s+(?:out\s+)?[\"'“]?([A-Za-z]{3,10})\b")
_LOCK_WORDS = re.compile(r"(?i)code|pin\b|puk|safe|door|alarm|lock|combination|passw|passcode|gate|garage|\bkey\b|sim\b|atm|card|voicemail")
# A Firebase web app's config (its apiKey is public by design: it ships in the page, and the
# project's security rules hold the access).
_FIREBASE_WEB = re.compile(r"firebaseConfig|authDomain\W{1,4}[\w-]+\.firebaseapp\.com")
_FIREBASE_KEY = re.compile(r"((?i:api_?key)\W{1,4})AIza[\w-]{35}(?![\w-])")
_CHANGE_ME = re.compile(r"(?i)(?<![\w-])(?:change|replace)[_-]?me(?:[_-][a-z0-9]{1,12}){0,3}(?![\w-])")
# A Twilio Account SID: an identifier (the account's name in its API, printed beside every
# call, message and recording SID), not a key; its auth token (32 hex digits) is the secret.
# Named ("account sid: AC..."), or where no auth token stands: an id. Beside an unnamed token
# the pair is the credential, and the SID is what shows it is Twilio's.
_ACCOUNT_SID = re.compile(r"((?i:account[ _]?sid|\bsid\b)[^\n]{0,40}?)\bAC[0-9a-f]{32}\b")
_BARE_SID = re.compile(r"(?<![A-Za-z0-9_\-])AC[0-9a-f]{32}(?![A-Za-z0-9_\-])")
# (any run of hex, in either case or in pieces, or a long token, once the SIDs are taken out)
_AUTH_TOKEN_SHAPE = re.compile(
    r"(?=[0-9A-Fa-f]*[A-Fa-f])(?=[0-9A-Fa-f]*\d)[0-9A-Fa-f]{8,}"
    r"|(?=[A-Za-z0-9+/_\-]*\d)(?=[A-Za-z0-9+/_\-]*[A-Za-z])[A-Za-z0-9+/_\-]{20,}"
)
_ANY_SID = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}[0-9a-f]{32}(?![A-Za-z0-9])")
# A secret manager's address of a value ("vault:secret/data/shop/db#password",
# "op://Private/GitHub/password"): where a password is kept. Only addresses whose every part is a
# plain name (no part that reads as a password or a random token) are references.
_STORE_URI = re.compile(
    r"(?<![\w/:])(?:vault|op|ssm|secretsmanager|awssm|gcpsm|azurekv|keyvault|azurekeyvault|doppler|infisical|bws|sops"
    r"|k8s|sm|gsm|berglas|conjur)"
    r":(?://)?[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)+(?:#[A-Za-z_][\w.-]*|\?key=[A-Za-z_][\w.-]*)?(?![\w/#?])"
    # Azure Key Vault's address of a secret, with the version's id or not
    r"|https://[a-z0-9-]{3,24}\.vault\.azure\.net/secrets/[A-Za-z0-9-]{1,127}(?:/[0-9a-f]{32})?(?![\w/])"
)


_STORE_SCHEMES = (
    "vault:", "op:", "ssm:", "sm:", "kv:", "keyvault:", "doppler:", "infisical:", "bws:", "sops:", "k8s:", "berglas:",
    "conjur:", ".vault.azure.net/",
)  # fmt: skip
# An AWS access key's id where the memory says its secret is not in it: the id names the key
# (it is in every CloudTrail record); the secret access key beside it would be the secret.
_AWS_KEY_ID = re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])")
# a secret access key's shape, also written after its id ("AKIA.../<secret>", "id/secret")
_AWS_SECRET_SHAPE = re.compile(r"(?:(?<![A-Za-z0-9/+])|(?<=[A-Z0-9]{20}/))[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")
_ID_ONLY = re.compile(
    r"(?i)\b(?:(?:key\s+)?id\s+only|only\s+the\s+(?:key\s+)?id|ask\s+(?:\w+\s+){1,3}for\s+the\s+secret"
    r"|secret\s+(?:was\s+)?never\s+stored|without\s+(?:the|its)\s+secret|no\s+secret\s+(?:key\s+)?(?:here|in\s+this)"
    # the secret said to be kept elsewhere: "the secret key itself is in Doppler", "secret comes from credential_process"
    r"|secret(?:\s+(?:access\s+)?key)?(?:\s+itself)?\s+(?:is|lives|stays|comes\s+from|is\s+kept|is\s+stored)\s+"
    r"(?:in\s+|from\s+|with\s+)?(?:the\s+|our\s+|my\s+)?(?:\w+\s+){0,2}(?:vault|doppler|1password|bitwarden|lastpass"
    r"|keepass|keychain|secrets?\s+manager|parameter\s+store|ssm|(?:github\s+)?actions\s+secrets|credential_process"
    r"|aws-vault|sops|not\s+here|elsewhere)"
    # where AWS itself prints a key's id: an AccessDenied error, a CloudTrail event, a rotation's to-do
    r"|is\s+not\s+authorized\s+to\s+perform|userIdentity|accessKeyId\W{1,4}(?:AKIA|ASIA)\w{16}\W{1,4}used\s+from"
    r"|deactivate\s+(?:the\s+)?(?:access\s+)?key|accessKeyId\W{1,4}(?:AKIA|ASIA)\w{16}\W{1,4}status\W{1,4}(?:in)?active"
    # the secret's value a reference: "{{ aws_secret_access_key }}", "${AWS_SECRET_ACCESS_KEY}", "vault:...", "-e NAME \\"
    r"|\w{0,40}?secret[_\-.]?access[_\-.]?key\w{0,40}\W{0,3}[=:]\s*\W{0,2}(?:\{\{\s*\w+|\$\{\w+|\$\(\w+|vault:|op:)"
    r"|(?<=-)e\s+AWS_SECRET_ACCESS_KEY(?=\s*\\))\b"
)
# A vendor's test-mode or sandbox key ("sk_test_", "sk_sbox_", "access-sandbox-"...), and the memory
# saying in words that it is one ("# sandbox account for CI", "test-mode key", "no real money"; not
# "stripe_test_secret_key" or "stripe-test-credentials", names a live key may have too).
_TEST_MODE_KEY = re.compile(
    r"(?<![A-Za-z0-9_\-])(?:[sr]k_test_|sk_sbox_|FLWSECK_TEST-|access-sandbox-|secret-test-|shippo_test_|EZTK"
    r"|xnd_development_|pdl_sdbx_|T_S_|TEST-(?=\d)|sandbox_(?=[a-z0-9]{8}_))(?P<tail>[A-Za-z0-9_\-]{8,})"
)
# (Stripe, Paystack, Clerk, Checkout.com, Flutterwave, Plaid, Stytch, Shippo, EasyPost, Xendit, Paddle,
# Worldpay, Mercado Pago, Braintree); a tail naming a live key is one joined to it: not masked
_TEST_MODE_PREFIXES = (
    "_test_", "sk_sbox_", "TEST-", "access-sandbox-", "secret-test-", "EZTK", "xnd_development_", "pdl_sdbx_", "T_S_",
    "sandbox_",
)  # fmt: skip
_LIVE_IN_TAIL = re.compile(r"(?i)live|prod|(?:sk|rk|pk)_|[_\-](?:ghp|gho|xox[a-z]|glpat|npm|AKIA)")
_VAPID_PUBLIC = re.compile(r"(applicationServerKey\W{1,4})B[A-Za-z0-9_\-]{84,88}(?![A-Za-z0-9_\-])")
_GO_SUM = re.compile(r"((?<!\S)[\w.\-/~]{1,200} v\d+\.\d+\.\d+[\w.+\-]*(?:/go\.mod)? )h1:[A-Za-z0-9+/]{43}=(?![A-Za-z0-9+/=])")
_TEST_MODE_SAID = re.compile(
    r"(?i)(?<![\w\-./])(?:sandbox|test[\s\-]mode|test\s+keys?|testing\s+keys?|test\s+(?:env(?:ironment)?|account|credentials?)"
    r"|dev/test|no\s+real\s+money)(?![\w\-])"
)
_NAME_PART = re.compile(r"[a-z]+(?:[_\-][a-z]+)?")  # a field's or a path's name: "api_key", "db-password"
# A secret's name in Google's Secret Manager and in Azure Key Vault (its version an id):
# "projects/1704.../secrets/db-password/versions/latest", "https://x-kv.vault.azure.net/secrets/db/<32 hex>"
_CLOUD_SECRET_NAME = re.compile(
    r"(?:(?<![\w/])projects/[\w\-]+|https://[a-z0-9\-]{3,24}\.vault\.azure\.net)/secrets/(?P<name>[\w\-]+)"
    r"(?:/versions/(?:latest|\d{1,6})|/[0-9a-f]{32})?(?![\w/])"
)  # (a name that reads as a password is kept: "secrets/Hunter2Pass/versions/1")


_CREDENTIAL_WORD = frozenset(
    {"key", "keys", "token", "tokens", "secret", "secrets", "pass", "password", "pwd", "api", "auth", "cred", "creds",
     "credentials", "cert", "conn", "dsn", "url", "sa"}
)  # fmt: skip


def _store_name(part: str) -> bool:
    """A secret's or a folder's name in a store's address: up to two words ("hazel-secrets")
    or words that say what it holds ("paddle-api-key"). Four words that say nothing of the
    kind are a passphrase put in the address ("correct-horse-battery-staple"), and a part with
    digits is read as a value may be ("sunflower-2024")."""
    if not _name_like(part) or re.search(r"\d", part):
        return False
    words = re.split(r"[-_.]", part.lower())
    return len(words) <= 2 or not _CREDENTIAL_WORD.isdisjoint(words)


def _store_uri(text: str, m: re.Match[str]) -> str:
    """The address replaced, unless a part of it, or a word after it on its line, reads as a
    password ("vault:db/prod  # fallback literal Zebra!Cactus9")."""
    address = re.sub(r"^https://[a-z0-9-]+\.vault\.azure\.net/secrets/([^/]+)(?:/[0-9a-f]{32})?$", r"akv:\1", m.group())
    parts = [p for p in re.split(r"[:/#?=]+", address)[1:] if not _NAME_PART.fullmatch(p) and not _store_name(p)]
    rest = text[m.end() : m.end() + 200].split("\n", 1)[0].split()[:6]
    if any(_passwordish(p) or _looks_random(p) for p in parts) or any(
        _passwordish(w) and re.search(r"\d", w) for w in rest
    ):
        return m.group()
    return "<secret>"


_ACCOUNT = re.compile(r"[a-z][a-z0-9._@-]{0,63}")


def _hash_replaced(m: re.Match[str]) -> str:
    """A password's hash as "[hash]", with an htpasswd line's account name ("admin",
    "alice@example.com"). Anything else before the colon stays for the detectors to read
    ("my PIN is 4821:{SHA}..." still shows 4821), and what reads as a password or a token
    is no account: the text is left as it is ("ghp_...:$2b$...")."""
    user = m.group("user")
    if not hash_ok(m) or (user and (_looks_random(user, 12) or _passwordish(user))):
        return m.group()
    return f"{user} [hash]" if user and not _ACCOUNT.fullmatch(user) else "[hash]"


_DOC_EXAMPLE_HINTS = tuple(sorted({v[:8] for v in DOC_EXAMPLES}))  # a quick test before the pattern
_AZURITE_SAID = re.compile(r"(?i)devstoreaccount1|azurite|storage emulator|UseDevelopmentStorage")
_AZURITE_VALUE = re.compile(r"(?<![A-Za-z0-9+/])" + re.escape(AZURITE_KEY) + r"(?=$|[;\s\"'`])")


def without_doc_values(text: str, testing: bool = False, masked: bool = True) -> str:
    """``text`` with what is no one's secret replaced before the scan: the documentation's
    well-known example values (jwt.io's sample token, AWS's example key pair, a gateway's
    test card where the text says it is one), masked values, AWS resource names, references
    to a secret kept elsewhere, and certificates and public keys (PEM and SSH). Each keeps what an
    evasion would hide in it: a default in a reference, a token in a resource name or in a
    masked value, a private key under a certificate's header. ``testing``: the memory
    says elsewhere (a field name, another field) that it is about testing. ``masked``: also
    replace masked values (the readers of whole records keep them: "VISA ****4421" says the
    lines around it are a receipt)."""
    if "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" in text or "eyJ0eXAiOiJKV1QiLA0K" in text:
        text = DOC_VALUES.sub("EXAMPLE", text)
    if _has(text, _DOC_EXAMPLE_HINTS):
        text = DOC_EXAMPLE_RUN.sub("EXAMPLE", text)
    if AZURITE_KEY in text and _AZURITE_SAID.search(text):
        # the emulator's key, where the text says it is the emulator's, and nothing glued to it (a space
        # for it: its connection string's next ";Name=value" is not read as the key's tail)
        text = _AZURITE_VALUE.sub("EXAMPLE ", text)
    if ("JBSWY3DP" in text or "GEZDGNBV" in text) and _DOCS_SAID.search(text):
        for value in DOC_TOTP_EXAMPLES:  # an authenticator's docs' secret, said to be the docs' (a test account may use it)
            text = re.sub(rf"(?<![A-Z2-7]){value}(?![A-Z2-7])", "EXAMPLE", text)  # alone, not the start of a longer secret
    if masked:
        text = without_masked(text)
    if "AIza" in text and "firebase" in text.lower() and _FIREBASE_WEB.search(text):
        text = _FIREBASE_KEY.sub(r"\1[public]", text)  # a Firebase web app's config ships in its page
    if "AC" in text and ("SID" in text or "sid" in text or "Sid" in text) and _ACCOUNT_SID.search(text):
        text = _ACCOUNT_SID.sub(r"\1[account id]", text)  # Twilio's account id: its auth token is the secret
    if "AC" in text and _BARE_SID.search(text) and not _AUTH_TOKEN_SHAPE.search(_ANY_SID.sub(" ", text)):
        text = _BARE_SID.sub("[account id]", text)
    if ("hange" in text or "eplace" in text) and _CHANGE_ME.search(text):
        text = _CHANGE_ME.sub("<placeholder>", text)  # "MYSQL_PASSWORD=change-me-before-prod"
    if ":" in text and any(scheme in text for scheme in _STORE_SCHEMES) and _STORE_URI.search(text):
        text = _STORE_URI.sub(lambda m: _store_uri(text, m), text)
    if _has(text, _TEST_MODE_PREFIXES) and _TEST_MODE_SAID.search(text):
        text = _TEST_MODE_KEY.sub(  # "# sandbox account for CI" beside an sk_test_ key; not one a live key is joined to
            lambda m: m.group() if _LIVE_IN_TAIL.search(m["tail"]) else "[test-mode key]", text
        )
    if "applicationServerKey" in text:
        text = _VAPID_PUBLIC.sub(r"\1[public]", text)  # Web Push's VAPID key: the server's public key
    if " h1:" in text:
        text = _GO_SUM.sub(r"\1[checksum]", text)  # go.sum: "github.com/x/y v1.2.3 h1:<base64>="
    if ("AKIA" in text or "ASIA" in text) and _ID_ONLY.search(text) and not _AWS_SECRET_SHAPE.search(text):
        text = _AWS_KEY_ID.sub("[key id]", text)  # "# key id only — ask ops for the secret"
    if "/secrets/" in text:
        text = _CLOUD_SECRET_NAME.sub(
            lambda m: m.group() if _passwordish(m["name"]) and not _NAME_PART.fullmatch(m["name"]) else "<secret>", text
        )
    if "arn:aws" in text:  # a resource's name, unless a token was put in it
        text = _ARN.sub(_arn, text)
    if _has(text, _REFERENCE_HINTS):
        text = _REFERENCE.sub(_reference, text)
    if "var." in text or "local." in text:
        text = _TF_REFERENCE.sub(lambda m: m.group() if _tf_token(m.group(1)) else "<secret>", text)
    if "(?=" in text or _POLICY_UNIT.search(text):
        text = _POLICY.sub("...", text)
    if " AAAA" in text:
        text = _SSH_PUBLIC.sub("[public]", text)
    if "-----BEGIN" in text:  # a private key's body under a certificate's header stays
        text = _PUBLIC_PEM.sub(lambda m: m.group() if _DER_PRIVATE.search(m.group()) else "[public]", text)
    text = without_sealed(text)
    if "$" in text or "}" in text:  # a password's hash is not the password
        text = PASSWORD_HASH.sub(_hash_replaced, text)
    if "ignature" in text and not _KEY_TALK.search(text):
        text = _SIGNATURE_HEADER.sub(r"\1[signature]", text)
    if "$(" in text:  # DB_PASSWORD=$(aws secretsmanager ...): fetched, not written
        text = _COMMAND_VALUE.sub("=<secret>", text)
    if "spells" in text and not _LOCK_WORDS.search(text) and not _PW_KEYWORD.search(text.lower()) and _KEYPAD_SPELLS.search(text):  # "on a phone keypad 4663 spells HOME": a word's digits
        text = _KEYPAD_SPELLS.sub(lambda m: ("[word]" if m.group(2).upper().translate(KEYPAD) == m.group(1) else m.group(1)) + m.group()[len(m.group(1)) :], text)
    if "game" in text.lower() and "=" in text and not _LOCK_WORDS.search(text):
        text = _KEYPAD_GAME.sub(lambda m: m.group(1) + ("[game]" if m.group(1).translate(KEYPAD) == m.group(2) else m.group(2)), text)
    if "eyJ" in text:  # (the anon role is inside the token: its field may be named anything)
        text = JWT_SHAPE.sub(lambda m: "[public]" if anon_jwt(m.group()) else m.group(), text)
    if "clientToken" in text and "pub" in text and ("atadog" in text or "DD_RUM" in text):
        text = _DATADOG_CLIENT_TOKEN.sub(r"\1[public]", text)  # a browser SDK's token: Datadog ships it in the page
    if "Ov23li" in text or "Iv23li" in text or "Iv1." in text:
        text = _GITHUB_CLIENT_ID.sub("[client id]", text)
    if "googleusercontent" in text and "client" in text.lower() and not _KEY_LABEL.search(text):
        text = _GOOGLE_CLIENT_ID.sub("[client id]", text)
    if "RW" in text and "ublic key" in text:
        text = _MINISIGN_PUBLIC.sub(r"\1[public]", text)
    if "<" in text and ">" in text:
        text = _ANGLE_PLACEHOLDER.sub(lambda m: m.group() if _not_placeholder(text, m) else "<placeholder>", text)
    if "PIN" in text.upper() and pw_statistics(text) and not _OWN.search(text.lower()) and not _PIN_GIVEN.search(text):
        if sum(_trivial_pin(m) != m.group() for m in _PIN_RUN.finditer(text)) >= 2:  # a list of them
            text = _PIN_RUN.sub(_trivial_pin, text)
    if ("rint" in text or "pg" in text or "PG" in text or "ith key" in text or "ey id" in text or "ey I" in text or "eyid" in text or "ngkey" in text) and _PGP_ID.search(text) and _pgp_text(text):
        text = _PGP_ID.sub(lambda m: m.group(1) + "[key id]" if _pgp_named(text, m) else m.group(), text)
    if "." in text and "," in text:
        text = _COORDINATES.sub("[position]", text)
    if _TWELVE_DIGITS.search(text) and (testing or _TEST_CONTEXT.search(text)):  # before the views join digit runs up
        text = _CARD_RUN.sub(lambda m: "[test card]" if re.sub(r"[ -]", "", m.group()) in TEST_CARDS else m.group(), text)
        if "[test card]" in text:  # its security code on its line is the docs' too ("exp 12/34 CVC 123")
            text = _TEST_CARD_CODE.sub(r"\1[test code]", text)
    return text


_TEST_CARD_CODE = re.compile(
    r"(?i)(\[test card\](?:(?!\b(?:real|own|my|actual|instead|ending)\b)[^\n]){0,40}?\b(?:cvc|cvv|csc|cid)2?\W{0,3})\d{3,4}(?!\d)"
)


_CODE_REFERENCE = re.compile(
    r"environ\[|getenv\(|\blookup\(\s*['\"](?:env|file|password|hashi_vault|aws_secret|aws_ssm)|process\.env\.|\{\{|%\(\w+\)s|secrets\.\w|\bvault\(|get_password\(|getpass\("
)
_PLACEHOLDER_RUN = re.compile(r"X{8,}|x{8,}|\*{6,}|0{12,}")


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
            if _PLACEHOLDER_RUN.search(value) or value in DOC_EXAMPLES:
                continue  # "AKIAXXXXXXXXXXXXXXXX", AKIAIOSFODNN7EXAMPLE: the docs' examples
            if kind == AWS_ACCESS_KEY and len(value) != 20:
                found.add(AWS_SECRET_KEY)  # the plugin's second pattern: aws ... key = "<40 chars>"
            elif kind == SLACK and value.startswith("https://"):
                found.add(SLACK_WEBHOOK)
            else:
                found.add(kind)
            break


def _scan_tokens(line: str, low: str, found: set[str]) -> None:
    """Token formats of the detect-secrets plugins."""
    if not _LONG_RUN.search(line):
        return
    _run_plugins(_PLUGINS_LONG, line, low, found)
    if _TRIGGER.search(line):
        _run_plugins(_PLUGINS_RARE, line, low, found)


# A webhook's secret path (".../hooks/<id>/<token>"), a node provider's key in its path
# (Alchemy, Infura, QuickNode, Ankr).
_HOOK_URL = re.compile(r"(?i)https?://[^\s/]+/(?:[^\s/]+/)*?(?:hooks?|webhooks?)/(?:[^\s/]+/)*?([A-Za-z0-9_\-]{24,})")
_RPC_URL = re.compile(
    r"(?i)https?://[^\s/]*(?:alchemy\.com|infura\.io|quiknode\.pro|ankr\.com|alchemyapi\.io)/(?:v\d/)?([A-Za-z0-9_\-]{20,})"
)


def _scan_urls(line: str, low: str, found: set[str]) -> None:
    if "://" in line and ("hook" in low or "alchemy" in low or "infura" in low or "quiknode" in low or "ankr" in low):
        if any(_looks_random(m.group(1), 20) for p in (_HOOK_URL, _RPC_URL) for m in p.finditer(line)):
            found.add(GENERIC)
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
    if line.count(":") == 4:
        pg = _PGPASS.match(line)
        if pg and _plausible_password(pg.group(5)) and not pg.group(5).isdigit():
            found.add(CONNECTION_STRING)
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
        for m in _AUTH_BEARER.finditer(line):  # whatever an Authorization header carries is a credential
            token = m.group(1).rstrip(",;")
            if not (_PLACEHOLDER.match(token) or token.startswith(("$", "{{", "<", "%(")) or "${" in token) and (
                _looks_random(token) or (_passwordish(token) and not _TEMPLATED.search(token) and not _is_wordy(token))
            ):
                found.add(BEARER)


# words that may follow a one-word password and start a new clause
_JOINING = frozenset(
    "and but or so then und aber oder et mais ou y pero o e ma och og en "  # a new clause
    "for since if on at in to from until till by with when while as "  # what a password is for
    "für seit wenn bei im am zum zur pour depuis si sur dans avec para desde si en con por per da se su con "
    "voor sinds als op bij met för sedan om på till med".split()
)


# A clause about where the password is, not the password: "again - it's on the sticker".
_POINTING = frozenset("it's it’s its that's that’s there's there’s it this that".split())

_NO_PASSWORD = re.compile(r"(?i)(?<![\w-])(?:no|without|kein\w{0,2}|sans|sin|senza|sem|geen|ingen|inget)\s+$")


# What may follow a value given after a weak copula: the clause ends, or "and" starts the next one.
_WEAK_NEXT = frozenset("ja ning ir un и і na at and und et y e i og och -- - – — (".split())
_LENGTH_WORD = re.compile(r"\d{1,3}-[^\W\d_]+|[^\W\d_]+-\d{1,3}")  # "8-kohaline", "herufi-8": a length


def _weak_value(after: str, keyword: str, weak: str) -> bool:
    """Whether a value after a weak copula ("on", "yra", "е", "ni", "ay") is a password: one
    token that ends the clause (or is quoted), reading as a password; English "password on X"
    is a preposition."""
    if weak == "on" and keyword.lower().startswith(("pass", "pin", "pwd")):
        return False
    q = _PW_QUOTED.match(after.lstrip())
    if q:
        return not (_PLACEHOLDER.match(q.group(2)) or SAYS_NOT_REAL.fullmatch(q.group(2)))
    parts = after.split(None, 2)
    if not parts:
        return False
    tok = parts[0]
    core = tok.rstrip(".,;!?")
    ends = len(parts) == 1 or tok[-1:] in ".,;" or parts[1].lower() in _WEAK_NEXT
    if not ends or _LENGTH_WORD.fullmatch(core):
        return False
    if core.isdigit():
        return len(core) >= 6
    return _passwordish(tok) or (
        len(core) >= 6 and any(ch.isupper() for ch in core) and not core.isalpha() and not core[0].isdigit()
    ) or (len(tok) >= 7 and tok.endswith("!") and any(ch.isupper() for ch in core[1:]))


# A word in brackets with spaces inside ("{{ Tr0ub4dor99 }}"); _PLACEHOLDER says whether it is a name.
_BRACKETED = re.compile(r"[<\[{]{1,2}[ \t]*([^\s<>\[\]{}()]{6,64})[ \t]*[>\]}]{1,2}")


def _stated_password(line: str, m: re.Match[str]) -> bool:
    """Whether the password keyword matched by ``m`` introduces a password: up to six words,
    then "is" / ":" / "was changed to"..., then a value that is not prose."""
    if _NO_PASSWORD.search(line, max(0, m.start() - 12), m.start()):
        return False  # "the guest network has no password — it's isolated"
    rest = line[m.end() : m.end() + 120]
    bare_pass = m.group(0).lower() == "pass"
    words, pos, ended = 0, 0, False
    while True:
        c = _PW_CONNECTOR.match(rest[pos:])
        if c and c.group("to") and not _SET_VERB.search(line[max(0, m.start() - 40) : m.end() + pos]):
            # "to" only after "changed", "set"... ("I changed my password to X"), or before a value
            # that reads as a password (Polish "hasło do banku to L1mon4da$99")
            first = rest[pos + c.end() :].split(None, 1)
            if first and _passwordish(first[0]) and re.search(r"\d", first[0]):
                return True
            c = None
        if c and c.group("weak"):
            if not _weak_value(rest[pos + c.end() :], m.group(0), c.group("weak")):
                c = None  # "Salasana on jääkaapin ovessa": a word of the sentence, read on
        if c:
            after = rest[pos + c.end() :]
            q = _PW_QUOTED.match(after)
            if q:
                return not (_PLACEHOLDER.match(q.group(2)) or SAYS_NOT_REAL.fullmatch(q.group(2)))
            if (b := _BRACKETED.match(after)) is not None and not _PLACEHOLDER.match(b.group()):
                return _plausible_password(b.group(1))  # "{{ Tr0ub4dor99 }}": a value in a template's braces
            strict = c.group("verb") is not None and c.group("verb").lower() in _STRICT_VERBS
            parts = after.split(None, 2)
            # a CJK particle or copula glued to the value ("S4ffr0n+03야", "…#rHです"), a colon doubled
            value = _CJK_TAIL.sub("", parts[0]).lstrip(":：") if parts else ""
            if bare_pass:  # "bus pass is in my coat"
                return _passwordish(value)
            if value.lower() in _JOINING or value.lower().rstrip(".,;:!") in _POINTING:
                return False  # the sentence goes on: "das alte ist seit Jahren dasselbe", "- it's on the sticker"
            if (
                value.isalpha()
                and value.islower()
                and len(parts) > 1
                and parts[1].isalpha()
                and parts[1].islower()
                and parts[1] not in _JOINING
            ):
                return False  # a word the sentence goes on from: "Passwort ist sicher genug"
            if strict:  # "c'est important", "είναι σημαντικό": a word, unless it reads as a password
                return _passwordish(value)
            if (c.group("sym") or "").strip() in ("-", "–", "—") and re.fullmatch(r"[a-z]+[,;]", value):
                return False  # a dash, then prose: "adminPasswordKey: admin-password — anyway, how was..."
            return bool(value) and _plausible_password(value)
        w = _PW_WORD.match(rest[pos:])
        if not w or words >= 6:
            return False
        word = w.group(1)
        email = re.fullmatch(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+[.,:;]?", word) is not None
        if not words and word.startswith("@") and not email and _passwordish(word) and re.search(r"\d", word):
            return True  # "password @Pingw269mari": a symbol first, not a handle
        if (
            re.search(r"[/<>{}\[\]\\|]", word)
            or ("$" in word and (word.startswith("$") or "${" in word or "$(" in word or re.search(r"\$\d", word)))
            or ("@" in word and not email)
        ):
            return False  # not prose: a URL, a template ($VAR, ${...}), a path
        low = word.lower().strip(".,;!?()[]\"'")
        if (low in _PW_BLOCKERS and not words) or (ended and words):
            return False
        if not words:
            if re.fullmatch(r"([\"'`“‘]).{3,}[\"'`”’]", word) and _plausible_password(word):
                return True  # password "swordfish"
            if _passwordish(word) or _random_letters(word):
                return True  # "user maya.k, password hunter2!", "password tfSlRQDlyKDwiQlO for the site"
        words += 1
        pos += w.end()
        ended = word[-1:] in ".;!?"  # a sentence ended; only "? It's ..." may follow


# Seventh round: a value glued to a keyword of a script without spaces ("密码pFp5_52WUq%447"),
# a key or "pw" pointing at it ("Spotify 🔑 → slonce7708"), and the password spelled out after
# its description ("the dog's name and the year (so: Rex1987!)", "— Sunshine42#").
_PW_GLUED = re.compile(r"(?:パスワード|暗証番号|密码|密碼|비밀번호|암호|รหัสผ่าน)[：:=\s]*([!-~]{6,64})")
_PW_ARROW = re.compile(
    r"(?i)(?:🔑|🔐|(?<![\w])(?:ps|pw|pwd|password))\s*:?\s*(?:→|->|=>|⇒|➜|➡)\ufe0f?\s*[\"'`]?([^\s\"'`]{6,64})"
)
_PW_ASIDE = re.compile(
    r"(?i)(?<![\w])(?:so|i\.?\s?e\.?|namely|o\s+sea|es\s+decir|c['’]est-à-dire|d\.\s?h\.|also|dus|cioè|ou\s+seja"
    r"|то\s+есть)\s*[:,]\s*[\"'“‘]?([^\s\"'”’)]{6,64})|(?<![\w])(?:i\.e\.|o\s+sea|so\s+it\s+is)\s+[\"'“‘]?([^\s\"'”’)]{6,64})"
    r"|\s[—–]\s*[\"'“‘]?([^\s\"'”’]{6,64})\s*[.)]?\s*$"
)


# A password given in halves: "first part X, second part Y", "la primera mitad es X y la segunda Y",
# "первая часть X, вторая часть Y", "前半部分是X，后半部分是Y".
_HALVES = re.compile(
    r"(?i)(?:first|second|other)\s+(?:half|part)|(?:primera|segunda)\s+(?:mitad|parte)|la\s+segunda"
    r"|(?:premi[èe]re|seconde|deuxi[èe]me)\s+(?:moiti[ée]|partie)|(?:erste|zweite)\s+(?:h[äa]lfte|teil)"
    r"|(?:первая|вторая)\s+(?:часть|половина)|(?:перша|друга)\s+(?:частина|половина)"
    r"|前半|后半|後半|앞부분|뒷부분|पहला\s+हिस्सा|दूसरा\s+हिस्सा|الجزء\s+(?:الأول|الثاني)|(?:ilk|ikinci)\s+(?:yarı|kısım)"
)


def _spelled_password(line: str, low: str) -> bool:
    """A password spelled out with the phonetic alphabet ("Lima echo mike oscar november
    zero seven"), or given in two halves, after a password keyword."""
    if _has(low, _NATO_HINTS):
        run = 0
        for w in _WORD_SPLIT.split(low):
            run = run + 1 if (w in NATO or w in _DIGIT_WORDS) else 0
            if run >= 5:
                return True
    if not _has(low, _HALF_HINTS):
        return False
    # each half marker followed closely by a piece that reads as part of a password
    pieces = 0
    for m in _HALVES.finditer(line):
        after = line[m.end() : m.end() + 30]
        t = re.search(r"[«「“\"']?([^\s«»「」“”\"'，,。]{3,})", re.sub(r"^[\s:：是为は은는]*(?:(?:is|es|est|ist|это|—|-)\s+)?", "", after))
        if t and re.search(r"[A-Za-z]", t.group(1)) and re.search(r"[\d\W_]", t.group(1).rstrip(".;")):
            pieces += 1
    return pieces >= 2


_ASIDE_HINTS = _hints(
    "so:", "so,", "so it is", "i.e", "ie:", "ie,", "namely", "o sea", "es decir", "c'est-à-dire", "c’est-à-dire", "d.h",
    "d. h", "also:", "also,", "dus:", "dus,", "cioè", "ou seja", "то есть", "—", "–",
)  # fmt: skip
_NATO_HINTS = _hints(*NATO)
_HALF_HINTS = _hints(
    "half", "part", "mitad", "segunda", "moiti", "partie", "hälfte", "halfte", "teil", "часть", "половин", "частина",
    "前半", "后半", "後半", "앞부분", "뒷부분", "हिस्सा", "الجزء", "yarı", "kısım",
)  # fmt: skip


def _password_aside(line: str, low: str) -> bool:
    if _CJK.search(line):
        for m in _PW_GLUED.finditer(line):
            if _plausible_password(_strip(m.group(1))) and re.search(r"\d", m.group(1)):
                return True
    if ("→" in line or "->" in line or "=>" in line or "⇒" in line or "➜" in line or "➡" in line) and any(
        _plausible_password(_strip(m.group(1))) and re.search(r"\d", m.group(1)) for m in _PW_ARROW.finditer(line)
    ):
        return True
    if not _has(low, _ASIDE_HINTS):
        return False
    for m in _PW_ASIDE.finditer(line):
        value = _strip(m.group(1) or m.group(2) or m.group(3))
        if _passwordish(value) and re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
            return True
    return False


# A Wi-Fi network as a QR code spells it: WIFI:T:WPA;S:<network>;P:<password>;;
_WIFI_QR = re.compile(r"WIFI:(?:[^;\n]*;)*?P:((?:\\.|[^;\\\n])+);")


# A passphrase of words given after its name ("VeraCrypt passphrase: marble thunder pebble lantern"):
# three to eight words, the clause ending with them, none a word of a sentence or a pointer.
_PASSPHRASE_SAID = re.compile(
    r"(?<![\w-])pass ?phrase(?:\s+(?:is|was))?\s*[:=]?\s+['\"]?(?P<words>[a-z]{3,12}(?: [a-z]{3,12}){2,7})['\"]?\s*(?:[.!;,)]|$)"
)
_XKCD = "correct horse battery staple"  # the comic's example, quoted everywhere


def _passphrase_said(low: str) -> bool:
    for m in _PASSPHRASE_SAID.finditer(low):
        words = m["words"].split()
        if m["words"] != _XKCD and not any(w in _FUNCTION_WORDS or w in _NOT_A_PASSWORD or w in _PHRASE_STOP for w in words):
            return True
    return False


_PHRASE_STOP = frozenset(
    "you me we they she him them its is are was were be been has have had do does did can could will would should "
    "must may might shall not but so if then than as when where what which who why how all any each every some "
    "one two three four five six seven eight nine ten words word phrase passphrase password key keys vault "
    "manager stored saved written kept inside file note notes same usual enter type use choose pick set create "
    "make name first then later network wifi your".split()
)


def _scan_passwords(line: str, low: str, found: set[str]) -> None:
    if "phrase" in low and _passphrase_said(low):
        found.add(PASSWORD)
    if "WIFI:" in line and any(not _PLACEHOLDER.match(m.group(1)) for m in _WIFI_QR.finditer(line)):
        found.add(PASSWORD)
    if "password" in low and pw_statistics(line) and not _OWN.search(low):
        return  # "the most common password was still 123456": statistics, not a secret
    if ("🔑" in line or "🔐" in line or "→" in line or "->" in line or "=>" in line) and _password_aside(line, low):
        found.add(PASSWORD)
        return
    if _has(low, _PW_HINTS):
        keyword = False
        for m in _PW_KEYWORD.finditer(low):
            keyword = True
            if "${" in line and line.rfind("${", 0, m.start()) > line.rfind("}", 0, m.start()):
                continue  # inside a ${...} reference: "${DB_PASSWORD:?missing}"
            if _stated_password(line, m):
                found.add(PASSWORD)
                break
        if "pass" in low and " as " in low:
            rev = _PW_REVERSED.search(line)
            if rev and _plausible_password(rev.group(1).strip("\"':")):
                found.add(PASSWORD)
        if PASSWORD not in found and (" is " in low or " was " in low or "=" in low):
            for m in _PW_FIRST.finditer(line):
                if _passwordish(m.group(1)):
                    found.add(PASSWORD)
                    break
        if PASSWORD not in found:  # "Мой пароль от почты Oskar2106=": a few words, then the value, no verb
            for m in _PW_KEYWORD.finditer(low):
                tail = _PW_TAIL.match(line[m.end() : m.end() + 120])
                if tail and tail.group(1).lower().strip(".,:") not in _PW_BLOCKERS:
                    value = _strip(tail.group(2))
                    if (
                        re.search(r"\d", value)
                        and re.search(r"[^\w]", value)  # a symbol: "Windows11" is a product
                        and value.lower() != value
                        and _plausible_password(value, strict=True)
                        and not _is_wordy(value)
                    ):
                        found.add(PASSWORD)
                        break
        if PASSWORD not in found and keyword and (_password_aside(line, low) or _spelled_password(line, low)):
            found.add(PASSWORD)
        if PASSWORD not in found:
            fm = _PW_FOR.search(line)
            value = fm.group(1) if fm else ""
            if (
                fm
                and _passwordish(value)
                and re.search(r"\d", value)
                and (len(value) >= 8 or not value.isalnum())
            ):
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
        for m in _WIFI_IS.finditer(line):
            word = _strip(m.group(1))
            if _passwordish(word) and any(ch.isdigit() for ch in word) and not _is_wordy(word):
                found.add(PASSWORD)
    if _has(
        low,
        (
            "mysql",
            "mariadb",
            "--password",
            "sshpass",
            "redis-cli",
            "docker",
            "smbclient",
            "requirepass",
            "masterauth",
        ),
    ):
        for m in _CLI_PASSWORD.finditer(line):
            value = m.group(1) or m.group(2) or m.group(3) or ""
            if value.startswith(("$", "`")) or _WIN_ENV.match(value):
                continue  # read from somewhere at run time: "$(pass show nas)", "$DB_PW", "%PW%"
            if _plausible_password(value):
                found.add(PASSWORD)
    cli = _has(low, _CLI_HINTS)
    for pattern, plausible in (
        (_CLI_PASSWORD_ARGS, _plausible_password),
        (_CLI_STDIN_PASSWORD, _passwordish),
    ):
        if not cli:
            break
        for m in pattern.finditer(line):
            value = m.group(1)
            if value.startswith(("$", "`", "<", "{", "-")) or _WIN_ENV.match(value) or re.match(r"\d?>|.*/dev/", value):
                continue  # read from somewhere at run time, a redirection ("2>/dev/null"), the next flag
            if re.search(r"(?i)\.(?:pem|pfx|p12|crt|cer|key)$", value):
                continue  # a certificate's file: "az login --service-principal -p cert.pem"
            if plausible(value) and re.search(r"\d", value):
                found.add(PASSWORD)
    if ("username" in low or "enable" in low) and (cisco := _CISCO_PASSWORD.match(line)) is not None:
        value = cisco.group("val")
        if cisco.group("type") == "7" and re.fullmatch(r"[0-9A-Fa-f]{4,}", value):
            found.add(PASSWORD)  # type 7 is an encoding, reversed in one line of code
        elif _plausible_password(value) and re.search(r"\d", value):
            found.add(PASSWORD)
    if "value" in low and _has(low, ("pass", "pwd", "secret")):
        for m in _XML_PASSWORD.finditer(line):
            if _plausible_password(m.group(1)):
                found.add(PASSWORD)
    if "</" in line:
        for m in _XML_ELEMENT.finditer(line):
            value = m.group(3)
            if m.group(2).lower().startswith(("pass", "pwd")):
                if " " not in value and _plausible_password(value):
                    found.add(PASSWORD)
            elif _looks_random(value, 12):
                found.add(GENERIC)
    if " is what " in low and _has(low, _LOGIN_THINGS):
        for m in _PW_WHAT.finditer(line):
            value = _strip(m.group(1))
            if _passwordish(value) and re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
                found.add(PASSWORD)
    if _has(low, ("login", "log-in", "sign-in", "signin", "unlock")):
        for m in _LOGIN_IS.finditer(line):
            if _strong_password(_strip(m.group(1))):
                found.add(PASSWORD)
    if "/" in line or " and " in low or ":" in line:
        for m in _USER_SLASH_PASSWORD.finditer(line):
            if _strong_password(_strip(m.group(2)), passphrase=False) and not re.fullmatch(
                r"\d{1,4}", m.group(1)
            ):
                found.add(BASIC_AUTH)
    if "/" in line and _has(low, _ACCOUNT_CUES):
        for m in _ACCOUNT_SLASH.finditer(line):  # "ines@acme.io / Biscuit.Cobalt9024", "admin / Gi&5*qA4rz"
            value = _strip(m.group(2))
            symbol = re.search(r"[^\w]", value) is not None
            if (
                re.search(r"\d", value)
                and value.lower() != value
                and _plausible_password(value, strict=True)
                and (("@" in m.group(1) and symbol) or _strong_password(value, passphrase=False))
            ):
                found.add(BASIC_AUTH)
    if (
        " literally " in low or " so it's " in low
    ):  # "my dog's name followed by 1993 - so literally Bodhi1993!"
        lit = _LITERALLY.search(line)
        if lit and _passwordish(lit.group(1)) and re.search(r"\d", lit.group(1)) and _has(low, _PW_HINTS):
            found.add(PASSWORD)
    if "=" in line and ("cn=" in low or "uid=" in low):
        for m in _LDAP_BIND.finditer(line):
            if _plausible_password(m.group(1)):
                found.add(BASIC_AUTH)
    if _has(low, ("use", "type", "enter")):
        for m in _PW_USE.finditer(line):
            word = _strip(m.group(1))
            if _passwordish(word) and re.search(r"\d", word) and re.search(r"[^\w]", word[:-1]):
                found.add(PASSWORD)


_CODE_IS_PASSWORD = re.compile(  # "the code to the garage app is Krok0dil_59": letters, so no PIN
    r"(?i)(?<![a-z])code\s+(?:to|for)\s+(?:the\s+|my\s+|our\s+)?(?:[\w\-]+\s+){0,2}?(?:app|account|laptop|phone"
    r"|login|portal|wi-?fi|router|computer|tablet|vault|door|garage|safe|alarm|archive|zip)\s+(?:is|was|:)\s+"
    r"[\"'`]?(\S{6,64})"
)
_OPENS_WITH_PASSWORD = re.compile(r"(?i)\b(?:opens|unlocks|decrypts)\s+with\s+[\"'`]?(\S{8,64})")


def _scan_code_words(line: str, low: str, found: set[str]) -> None:
    if "code" in low:
        for m in _CODE_IS_PASSWORD.finditer(line):
            value = _strip(m.group(1))
            if _passwordish(value) and re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
                found.add(PASSWORD)
    if " with " in low and _has(low, ("opens", "unlocks", "decrypts")):
        for m in _OPENS_WITH_PASSWORD.finditer(line):
            if _strong_password(_strip(m.group(1)), passphrase=False):
                found.add(PASSWORD)


def _scan_pins(line: str, low: str, found: set[str]) -> None:
    if not _has(low, _PIN_HINTS) and not _has(low, _OPEN_HINTS):
        return
    if pw_statistics(line) and not _OWN.search(low):
        return  # "Most common PINs are 1234 and 0000", "no sequences like 123456": examples
    if _maybe_spelled(low) and _SPELLED.search(line):
        line = _spelled_digits(line)
        low = _lower(line)
    if _has(low, ("cvv", "cvc", "card")) and _CARD_CODE_DIRECT.search(line):
        found.add(CARD_CODE)
    direct = _PIN_DIRECT.search(line) or _PIN_NEAR.search(line)
    if direct and not postal_pin(direct.group(1), low):
        found.add(PIN)
    if "comb" in low and _COMBO_DIRECT.search(line):
        found.add(PIN)
    if _has(low, _OPEN_HINTS) and _OPENS_WITH.search(line):
        found.add(PIN)
    for m in _PIN_KEYWORD.finditer(low):
        kw = m.group("kw").lower()
        if kw.startswith("code") and _NOT_A_PIN_CODE.search(line[max(0, m.start() - 16) : m.start()]):
            continue  # "zip code for the apartment is 94110"
        v = _PIN_VALUE.match(line[m.end() : m.end() + 80])
        if not v:
            continue
        value = re.sub(r"\D", "", v.group("val"))
        if kw.startswith(("cvv", "cvc", "csc", "card")) or "back" in kw:
            if len(value) in (3, 4):
                found.add(CARD_CODE)
        elif 4 <= len(value) <= 10 and not postal_pin(value, low):
            found.add(PIN)


# A variable that holds the password, passed on in code: "connect(user=USER, password=password)".
_PASSWORD_VARIABLE = re.compile(
    r"(?i)(?:(?:self|this|cfg|config|settings|args|opts|options|env|creds|credentials)\.)?(?:[a-z]+_)?(?:password|passwd|pwd)"
)


# A value that names where a secret is kept (a vault path, an environment variable, a file), and
# a field whose name says its value does ("password_from", "password_file", "secret_ref").
_STORE_REF = re.compile(
    r"(?i)[\"'`]?(?:vault|env|file|ssm|secretsmanager|awssm|gcpsm|azurekv|keyvault|op|sops|k8s|kubernetes|secretref"
    r"|aws-?secrets?|gcp-?secrets?)(?::|://)"
)
_STORE_REF_FIELD = re.compile(r"[_\-.](?:from|file|path|ref|env|source|cmd|command|secret[_\-]?name)\b")


# A program that reads a secret store (a command that prints a literal, echo or printf, is the literal)
_READS_STORE = re.compile(
    r"(?i)[\"'`]?(?:pass|gopass|op|bw|security|secret-tool|gpg|vault|aws|gcloud|az|kubectl|sops|keyring|cat|systemd-creds|doppler)\b"
)


def _reference_value(value: str, after: str) -> bool:
    """Whether a password field's value names where the password is kept (a store's URI, a
    path, a variable, a command that reads a store) and nothing after it on the line gives one."""
    v = value.strip().strip("\"'`")
    first = v.split(None, 1)[0] if v else ""
    ok = (
        bool(_STORE_REF.match(first)) and not first.lower().startswith("literal")
        or first.startswith(("/", "~/", "./", "$", "${", "%"))
        or bool(re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", first))
        or bool(_READS_STORE.match(v))
    )
    rest = (v[len(first):] + " " + after).split()
    return ok and not any(_passwordish(w) and re.search(r"\d", w) for w in rest)


_QUERY_NAME = re.compile(r"[?&][\w.\-]{1,40}=$")
# A secret manager's command that prints a secret: where the password comes from, not the password.
_FETCH_COMMAND = re.compile(
    r"(?:vault\s+(?:kv\s+get|read)|aws\s+(?:secretsmanager\s+get-secret-value|ssm\s+get-parameters?)|op\s+(?:read|item\s+get)"
    r"|g?pass\s+show|bw\s+get|gcloud\s+secrets\s+versions\s+access|az\s+keyvault\s+secret\s+show"
    r"|kubectl\s+get\s+secrets?|doppler\s+secrets\s+get|security\s+find-generic-password)\s"
)
_FIELD_FLAGS = ("-field=", "-field ", "--field=", "--field ", "--query=", "--query ")


def _scan_keywords(line: str, low: str, found: set[str]) -> None:
    """detect-secrets' keyword patterns (``password: x``, ``api_key = "x"``), with the
    value checked: a password must not read as prose, a key must look random."""
    if not _has(low, _DS_HINTS) or not (":" in line or "=" in line or ";" in line):
        return
    matches: list[tuple[re.Match[str], int, str]] = []
    for k in _DS_DENYLIST_LOW.finditer(low):
        if low.endswith(_FIELD_FLAGS, 0, k.start(1)):
            continue  # "vault kv get -field=password secret/app": which field to fetch, not its value
        keyword = k.group(1).lower()
        for pattern, group in _DS_KEYWORD_PATTERNS:
            m = pattern.match(line, k.start())
            if m:
                matches.append((m, group, keyword))
    if "==" in line or "!=" in line:
        for rm in _DS_KEYWORD_REVERSED.finditer(line):
            kw = _DS_DENYLIST.search(rm.group(0))
            matches.append((rm, 2, kw.group(1).lower() if kw else ""))
    for m, group, keyword in matches:
        value = (m.group(group) or "").strip()
        quoted = bool(re.search(r"[\"'`]\s*$", line[: m.start(group)]))
        first = value if quoted else (value.split(None, 1)[0] if value else "")
        if "&" in first and _QUERY_NAME.search(line, 0, m.start(group)):
            first = first.split("&", 1)[0]  # a URL's query parameter ends at the next one
        if any(k in keyword for k in ("pass", "pwd", "contrase")):
            if _FETCH_COMMAND.match(value) and not any(passwordish(w) for w in value.split()[2:]):
                continue  # "the db password: vault kv get -field=password ...": the command that fetches it
            if (
                _STORE_REF.match(first) or _STORE_REF_FIELD.match(low, line.lower().find(keyword, m.start()) + len(keyword))
            ) and _reference_value(value, line[m.end(group) :]):
                continue  # where the password is kept, not the password: password_from: vault:db/prod
            if _plausible_password(first) and not (not quoted and _PASSWORD_VARIABLE.fullmatch(_strip(first))):
                found.add(PASSWORD)
        elif _looks_random(_strip(first), 12) and not not_secret_context(
            line[: m.start(group)][-40:]
        ):
            found.add(GENERIC)


_AWS_SECRET = re.compile(r"(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])")


# ``name: value`` / ``name = value`` in a config line, an env file, YAML, JSON or INI. The
# name is read as a structured record's field name is (:mod:`.fields`), so ``psk: x``,
# ``encryption_key: x`` and ``{"door_code": 1234}`` follow one rule.
_CONFIG_PAIR = re.compile(
    r"(?:^|(?<=[\s{,;(\[])|(?<=\$env:))[\"'`]?([A-Za-z][A-Za-z0-9_.\-]{1,48})(?:\[\d{0,4}\])?[\"'`]?"
    # a declared type between the name and "=": "apiKey: string =", "TOKEN: &'static str ="
    r"(?:[ \t]*:[ \t]*&?(?:'static[ \t]+)?[A-Za-z_][\w.<>\[\]?]{0,24}(?=[ \t]*=[^=>]))?[ \t]*(?::=|=>|=|:)[ \t]*"
    r"(?:\"([^\"\n]{1,256})\"|'([^'\n]{1,256})'|`([^`\n]{1,256})`|([^\s\"'`,;{}\[\]][^\n;]{0,255}))"
)
_TRAILING_COMMENT = re.compile(r"\s+(?:#|//|--|;)\s.*$|[\s,]+$")
# every field name field_kind() reads as a secret holds one of these
_FIELD_HINTS = _hints(
    "pass", "pw", "pin", "secret", "token", "key", "cred", "auth", "cvv", "cvc", "csc", "seed", "mnemonic",
    "otp", "2fa", "mfa", "psk", "mdp", "combo", "combination", "code", "answer", "wort", "senha", "contrase",
    "cookie", "session", "signature", "hmac", "jwt", "bearer", "wif", "phrase", "words", "puk", "cid", "_sk", "_pat",
)  # fmt: skip


def _scan_config_pairs(line: str, low: str, found: set[str]) -> None:
    if not (":" in line or "=" in line) or not _has(low, _FIELD_HINTS):
        return
    pos, inside = 0, False
    while (m := _CONFIG_PAIR.search(line, pos)) is not None:
        name = m.group(1).rsplit(".", 1)[-1]
        kind = field_kind(name)
        if inside and "=" not in line[m.end(1) : m.start(2) if m.group(2) is not None else m.end(1) + 8]:
            kind = None  # inside another pair's prose only a setting counts (NAME=value), not "password: stored"
        # a pair that names nothing may hold one that does in its unquoted value: read on from it
        inside = kind is None and m.group(5) is not None
        pos = m.start(5) if inside else m.end()
        if kind is None:
            continue
        value = m.group(2) or m.group(3) or m.group(4)
        if value is None:
            value = _TRAILING_COMMENT.sub("", m.group(5))
            if kind not in (PASSWORD, PIN, CARD_CODE):
                # a token ends at a space; "token: REDACTED (removed) ..." is prose after it,
                # while a password value with words after it is a sentence, not a password
                value = value.split(None, 1)[0] if value.strip() else ""
            first = value.split(None, 1)[0] if value.strip() else ""
            if _PASSWORD_VARIABLE.fullmatch(first.rstrip(",)]}")) or (first and _PLACEHOLDER.fullmatch(first)):
                continue  # a variable passed on ("connect(host=HOST, password=password)"), a placeholder
        hit = field_secret(kind, value, _looks_random)
        if hit:
            found.add(hit)


# A vendor-style token of a vendor no rule knows: a short prefix ending in "_", "-" or "."
# (``abc_``, ``xyz-live-``, ``dp.pt.``), then at least 32 random characters, the first 16 of
# them in one run. Object and request ids of the same shape (Stripe's ``cus_``, OpenAI's
# ``asst_``, Anthropic's ``msg_``) are shorter than that; the prefixes below name ids,
# hashes and publishable keys, and a version first (``v3-deps-<hash>``) names a cache key.
_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9_\-.+/=@])((?:[A-Za-z][A-Za-z0-9]{0,11}[_\-.]){1,3})([A-Za-z0-9]{16,}(?:[_\-][A-Za-z0-9_\-]*)?)"
    r"(?![A-Za-z0-9_\-+/=])"
)
_ID_PREFIXES = frozenset(
    """
    user usr users org orgs proj project asst assistant thread run runs msg message file files chatcmpl call toolu
    batch cus ch evt acct sub txn prod price seti src tok sess session req request cs pm pk po tr in ii il card ba
    py ord order orders inv invoice job task evt sha sha1 sha224 sha256 sha384 sha512 md5 blake2b blake3 uuid guid
    id ids ref build release deps cache img image ver version ticket case doc docs page rec row obj node pub public
    trace span commit hash digest fingerprint cid bafy ipfs magnet urn arn did
    """.split()
)
_UUID_HEX = re.compile(r"[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}")


#: Internal: a vendor-style token was seen. It is reported as GENERIC only when nothing else
#: was found (:func:`resolve`), so a token a rule names is not reported twice.
VENDOR_STYLE = "vendor-style token"


# What says a key is public by design: a browser's or a checkout page's key, a search-only
# key, an id rather than a secret ("Paddle documents client-side tokens as safe to expose";
# "key_id ... is the public identifier"), unless the words just before deny it ("not a
# public key"). Read by only_public_key, where the key stands.
_SAID_PUBLIC = re.compile(
    r"(?i)(?:search[- _]?only|publishable|client[- ]side (?:key|token|id)s?|site key"
    r"|(?:shipped|ships|ends? up|goes) (?:to|in(?:to)?) the (?:js |javascript |browser |client |frontend )?(?:browser|bundle|client|frontend)"
    r"|safe (?:to expose|to publish|to share publicly|in the browser|for the browser|in client code)"
    r"|public (?:project |site |client |web )?(?:key|identifier|id|token)\b|public by design"
    r"|used (?:client-side|in (?:the )?(?:browser|frontend|checkout\.js|web page)))"
)
# said right beside it (within a few words): "(browser key, public)", "(public, web drop-in)",
# "the key id is public"
_PUBLIC_BESIDE = re.compile(r"(?i)\(public\b|\bpublic\)|browser (?:key|token)s?\b|(?:key|id|token) is public\b")
_BESIDE = 48
# a key said to have got out is a secret that leaked, not a public one: "(public now, leaked)",
# "I pushed it to GitHub by mistake"; unless the words deny it or say it is meant to be seen
_LEAKED = re.compile(
    r"(?i)\b(?:leak(?:ed|s)?|exposed|compromised|stolen|pasted|committed|pushed|by\s+mistake|by\s+accident|accidentally"
    r"|got\s+out|ended\s+up\s+in"
    r"|oops|fuite|fuit[ée]|geleakt|filtrad[ao])\b"
)
_LEAK_EXCUSED = re.compile(r"(?i)\b(?:by\s+design|intentionally|meant\s+to)\b")
# What such a memory may still hold without it being refused: a key no rule names.
PUBLIC_KINDS = frozenset({GENERIC, "API key or token", "Google API key"})


_DENIED = re.compile(r"(?i)\b(?:not|never|isn't|aren't|no longer|if|unless|whether)\b[^.,;:\n]{0,20}$")
# A random-looking run that could be a key, and the prefixes of secret keys (never public,
# whatever a memory says: "sk_live_", "npm_", "ghp_", "xoxb-", "AKIA"...).
_KEYLIKE = re.compile(r"(?<![A-Za-z0-9_\-])[A-Za-z0-9][A-Za-z0-9_\-.]{15,}(?![A-Za-z0-9_\-])")
_SECRET_PREFIX = re.compile(
    r"(?i)(?:sk|rk|whsec|secret|npm|ghp|gho|ghs|ghu|ghr|github_pat|glpat|gldt|xox[a-z]|atatt|key|dp|shpat|shpss|shpca"
    r"|sg|hf|sq0csp|lin_api|pat|dop_v1|doo_v1|r8|gsk|xai|pplx|fw|tgp)[_\-.]|AKIA|ASIA|EAA[A-Z]"
)
_SECRET_FIELD = re.compile(r"(?i)secret|private|admin|server|backend|internal|password|master|root|signing")
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)|\n")
# A Firebase web config's fields besides its key: ids the page ships with.
_FIREBASE_PUBLIC = frozenset(
    {"authDomain", "projectId", "storageBucket", "messagingSenderId", "appId", "measurementId", "databaseURL"}
)


def said_public(texts: Iterable[str], key: tuple[int, int] | None = None) -> bool:
    """Whether a text says a key is one meant to be seen (and does not deny it, nor say it
    leaked). The short forms count only within a few characters of the ``key`` (its span in
    the first text) or, without one, in a short text (a record's note beside the key)."""
    texts = list(texts)
    for t in texts:
        for leak in _LEAKED.finditer(t):
            if not _DENIED.search(t[max(0, leak.start() - 24) : leak.start()]) and not _LEAK_EXCUSED.search(t, leak.end(), leak.end() + 40):
                return False  # ("never leaked", "exposed in the page source by design" are no leak)
    said = [(t, m) for t in texts for m in _SAID_PUBLIC.finditer(t)]
    said += [
        (t, m)
        for t in (texts[:1] if key else [t for t in texts if len(t) <= 2 * _BESIDE])
        for m in _PUBLIC_BESIDE.finditer(t)
        if key is None or (key[0] - _BESIDE <= m.start() and m.end() <= key[1] + _BESIDE)
    ]
    return any(not _DENIED.search(t[max(0, m.start() - 24) : m.start()]) for t, m in said)


def _strings(value: Any, record: Mapping[Any, Any] | None, field: str, out: list[Any], depth: int = 0) -> None:
    if depth > 32 or len(out) > 256:
        return
    if isinstance(value, str):
        if not (record is not None and "authDomain" in record and field in _FIREBASE_PUBLIC):
            out.append((value, record, field))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _strings(v, value, str(k), out, depth + 1)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, record, field, out, depth + 1)


# A comment on a line of its own or ending one ("# ...", "...; // ...", "-- ..."), or a note in
# brackets ending a line.
_COMMENT = re.compile(
    r"(?m)(?:^[ \t]*(?:#+|//|--)|[ \t](?:#|//))[ \t]*([^\n]{4,120})$|\(([^()\n]{4,80})\)[ \t]*$"
)


# a comment that negates, warns or sets a condition says nothing of the key ("careful: this is
# not something that goes to the frontend", "rotate it if it ever goes to the frontend")
_HEDGED = re.compile(r"(?i)\b(?:not|never|no|if|unless|careful|keep|rotate|leak\w*|out\s+of|secret|private|server)\b|n't\b")
_NOT_A_SECRET = re.compile(r"(?i)\bnot\s+a\s+secret\b")


def _comments(text: str) -> list[str]:
    return [m.group(1) or m.group(2) for m in _COMMENT.finditer(text)] if ("#" in text or "/" in text or "-" in text or "(" in text) else []


def only_public_key(value: Any) -> bool:
    """Whether the memory's one key-like value is said to be public where it stands: in its
    own sentence ("Paddle client-side token for Paddle.js: live_...") or in the small record
    that holds it ({"searchOnlyApiKey": ..., "comment": "safe in the browser"}; a Firebase
    web config, its ``authDomain`` beside the ``AIza`` key). Never for two keys, a key of a
    secret's prefix, or one under a field that names a secret."""
    strings: list[Any] = []
    _strings(value, None, "", strings)
    keys = [
        (text, m, record, field)
        for text, record, field in strings
        for m in _KEYLIKE.finditer(text)
        if _looks_random(m.group(), 16)
    ]
    if len(keys) != 1:
        return False
    text, m, record, field = keys[0]
    token = m.group()
    if _SECRET_PREFIX.match(token) or _SECRET_FIELD.search(field):
        return False
    if record is not None and token.startswith("AIza") and "authDomain" in record:
        return True
    start = max((e.end() for e in _SENTENCE_END.finditer(text, 0, m.start())), default=0)
    end = next((e.start() for e in _SENTENCE_END.finditer(text, m.end())), len(text))
    if _SECRET_FIELD.search(text, start, m.start()):
        return False  # "search-only key in the widget, admin api key <key>": another key named before it
    if said_public([text[start:end]], (m.start() - start, m.end() - start)):
        return True
    if said_public(c for t, _, _ in strings for c in _comments(t) if not _HEDGED.search(_NOT_A_SECRET.sub(" ", c))):
        return True  # "# publishable key - safe to expose client-side" on a line of its own
    if record is None or len(record) > 8:
        return False
    # its own field's name, or what the record's other fields say
    others = [field] + [v for v in record.values() if isinstance(v, str) and v is not text]
    return said_public(others)


def resolve(found: set[str]) -> set[str]:
    """The kinds to report: a vendor-style token no rule named is a generic API key."""
    if VENDOR_STYLE in found:
        found = found - {VENDOR_STYLE}
        if not found:
            found.add(GENERIC)
    return found


def _scan_prefixed_tokens(line: str, low: str, found: set[str]) -> None:
    if VENDOR_STYLE in found or GENERIC in found or len(line) < 36:
        return
    urls: list[tuple[int, int]] | None = None
    for m in _PREFIXED.finditer(line):
        prefix, body = m.group(1), m.group(2)
        if len(body) < 32:
            continue
        first = re.split(r"[_\-.]", prefix, maxsplit=1)[0].lower()
        if first in _ID_PREFIXES or re.fullmatch(r"v\d+", first) or _UUID_HEX.fullmatch(body):
            continue
        if _PUBLIC_TOKEN.fullmatch(m.group()):
            continue
        if not _looks_random(body) or not_secret_context(low[max(0, m.start() - 40) : m.start()]):
            continue
        if urls is None:
            urls = [u.span() for u in _URL.finditer(line)] if ("://" in line or "www." in low) else []
        if any(a <= m.start() < b for a, b in urls):
            continue
        found.add(VENDOR_STYLE)
        return


_EVM_ADDRESS = re.compile(r"0x[0-9a-fA-F]{40}")


def _scan_near_keyword(line: str, low: str, found: set[str]) -> None:
    """High-entropy tokens standing shortly after a secret keyword; a 40-character AWS
    secret key anywhere on a line that says "aws" and "secret" (before or after it)."""
    if "aws" in low and "secret" in low and AWS_SECRET_KEY not in found:
        for m in _AWS_SECRET.finditer(line):
            if _looks_random(m.group()) and re.search(r"[A-Z]", m.group()) and re.search(r"[a-z]", m.group()):
                found.add(AWS_SECRET_KEY)
                break
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
        if not keywords or not_secret_context(window):
            continue
        token = _strip(m.group())
        if not _looks_random(token) or _PUBLIC_TOKEN.fullmatch(token):
            continue
        if ID_SHAPE.fullmatch(token) and _ID_NAMED.search(window):
            continue  # an id said to be one: "clientId: '<uuid>'", "job done id=<ULID>"
        if token.split("_", 1)[0].lower() in _ID_PREFIXES and "_" in token:
            continue  # evt_..., cus_...: a payment provider's object id
        if _EVM_ADDRESS.fullmatch(token) and not re.search(r"secret|private|hmac|signing|seed", window):
            continue  # a wallet's or a contract's address (a private key is 64 hex digits)
        if _json_payload(token) and "." not in line[max(0, m.start() - 1) : m.end() + 1]:
            continue  # a cookie's base64 JSON, alone (a JWT's or a Mapbox token's part is read whole)
        if decodes_to_prose(token):
            continue  # "secret message: dHJhaW4g...": words encoded; the decoded words are read on their own
        if any(k.startswith(("pass", "pwd")) for k in keywords):
            found.add(PASSWORD)
        elif len(token) == 40 and "aws" in window:
            found.add(AWS_SECRET_KEY)
        elif "bearer" in keywords:
            found.add(BEARER)
        else:
            found.add(GENERIC)


_WORD = re.compile(r"[a-z]+")
_BARE_WORDS = re.compile(r"[a-z]{3,8}(?: [a-z]{3,8})+")
_PHRASE_MIN = 12  # the shortest BIP-39 phrase


_BIP39_INDEX = {w: i for i, w in enumerate(sorted(BIP39_WORDS))}  # the list is in alphabetical order
_PHRASE_LENGTHS = (12, 15, 18, 21, 24)


def _bip39_checksum_ok(words: Sequence[str]) -> bool:
    """Whether ``words`` (12-24 of them) carry a valid BIP-39 checksum: the
    last ``len/3`` bits are the head of the SHA-256 of the rest. Every phrase
    a wallet issues has one; a run of common words has it one time in 16
    (12 words) to 256 (24)."""
    bits = 0
    for w in words:
        bits = (bits << 11) | _BIP39_INDEX[w]
    cs = len(words) // 3
    ent = len(words) * 11 - cs
    entropy = (bits >> cs).to_bytes(ent // 8, "big")
    return hashlib.sha256(entropy).digest()[0] >> (8 - cs) == bits & ((1 << cs) - 1)


# Words that say a run of wallet words is a wallet's phrase.
WALLET_CUES = (
    "wallet", "mnemonic", "seed", "recovery", "phrase", "words", "bip39", "bip-39", "ledger", "metamask", "trezor",
    # the same in other languages
    "semilla", "semente", "graine", "frase", "billetera", "carteira", "portefeuille", "portafoglio", "wiederherstellung",
    "herstel", "kurtarma", "odzyskiwania", "восстановлен", "сид", "助记词", "助記詞", "ニーモニック", "シード", "복구", "시드",
    "pemulihan", "กู้คืน", "วลี", "リカバリー", "フレーズ", "gendannelses", "gjenopprett", "återställ", "palautus", "obnovov",
    "recuperação", "recuperacao", "récupération", "ripristino", "الاسترداد", "استرداد", "पुनर्प्राप्ति", "khôi phục", "phục hồi",
    "pagbawi", "urejesho", "helyreállít", "ανάκτησ", "שחזור", "відновлен", "odzysk", "obnovení",
)  # fmt: skip


# Cues that name a wallet's phrase only loosely: a leather wallet, a phrase, words, a ledger.
_WEAK_WALLET_CUES = frozenset({"wallet", "words", "phrase", "frase", "ledger", "carteira", "portefeuille", "portafoglio", "billetera"})


def wallet_cued(text: str) -> bool:
    low = text.lower()
    return any(cue in low for cue in WALLET_CUES)


# A wallet's words kept as a record's items rather than a line: numbered items in any order
# ("4. maid"), one field a word ({"w01": "repeat", ...}), columns, bullet lines, words marked
# in a story ("*word* with *clip*"), a message of them, or each word written backwards.
_ITEM_WORD = re.compile(r"^\s*(?:#?(\d{1,2})\s*[.):\-]\s*|[-*•]\s*)?([a-z]{3,8})\s*[,.;]?\s*$")
_MARKED_WORD = re.compile(r"(?<![\w*])\*([a-z]{3,8})\*(?![\w*])")
_LOWER_RUN = re.compile(r"[a-z]{3,8}(?:[ ,]+[a-z]{3,8}){11,}")


def record_texts(value: Any, depth: int = 0) -> Iterator[str]:
    """The texts of a record for the readers of whole records: the strings of each record or
    list joined a line each (a conversation's messages too: the value may be in the message
    before the one that names it), then those of the containers inside it."""
    if isinstance(value, str):
        yield value
    elif depth < 8 and isinstance(value, Mapping):
        texts = [v for v in value.values() if isinstance(v, str)]
        if texts:
            yield "\n".join(texts)
        for v in value.values():
            if not isinstance(v, str):
                yield from record_texts(v, depth + 1)
    elif depth < 8 and isinstance(value, (list, tuple)):
        said = [v if isinstance(v, str) else next((v[k] for k in ("text", "content", "message") if isinstance(v.get(k), str)), None)
                for v in value if isinstance(v, (str, Mapping))]
        joined = [s for s in said if isinstance(s, str)]
        if joined:
            yield "\n".join(joined)
        for v in value:
            if not isinstance(v, str):
                yield from record_texts(v, depth + 1)


def _nearly_phrase(words: Sequence[str]) -> bool:
    """Twelve words or more of which at most two are not on the BIP-39 list (a phrase written
    from memory), ten different, not in alphabetical order (a word list)."""
    return (
        len(words) >= _PHRASE_MIN
        and sum(w in BIP39_WORDS for w in words) >= len(words) - 2
        and len(set(words)) >= 10
        and list(words) != sorted(words)
    )


def phrase_in_record(value: Any) -> bool:
    """A wallet's recovery words anywhere in a record that names a wallet (in one of the
    languages of ``WALLET_CUES``): kept as items, fields, lines or marked words, or as a
    message of words, forwards or each word backwards."""
    texts = list(record_texts(value))
    whole = " ".join(texts).lower()
    if not texts or not wallet_cued(whole):
        return False
    strong = any(cue in whole for cue in WALLET_CUES if cue not in _WEAK_WALLET_CUES)
    if _WORD_LIST.search(whole) and not strong:
        return False  # ("spelling words", "shopping list for the wallet shop": a list of words)
    items: list[tuple[int | None, str]] = []
    for text in texts:
        low = text.lower()
        for line in low.split("\n"):
            m = _ITEM_WORD.match(line)
            if m:
                items.append((int(m.group(1)) if m.group(1) else None, m.group(2)))
            for run in _LOWER_RUN.findall(line):
                words = re.split(r"[ ,]+", run)
                if _nearly_phrase(words) or _nearly_phrase([w[::-1] for w in words]):
                    return True
        items.extend((None, w) for w in _MARKED_WORD.findall(low))
    if items and all(n is not None for n, _ in items):
        items.sort(key=lambda item: item[0] or 0)  # numbered, in any order
    words = [w for _, w in items]
    if not strong:  # only "wallet" and the like: the exact list, a phrase's length
        return len(words) in _PHRASE_LENGTHS and all(w in BIP39_WORDS for w in words) and len(set(words)) >= 10
    return _nearly_phrase(words) or _nearly_phrase([w[::-1] for w in words])


# A line that says its words are a list of words (spelling, vocabulary, groceries): without a
# wallet's cue, twelve common words there are that list, whatever their checksum.
_WORD_LIST = re.compile(
    r"(?<![a-z])(?:spelling|vocabulary|vocab|word list|words for|words of the week|grocer(?:y|ies)|shopping|ingredients"
    r"|flashcards?|rhymes?|menu|pictionary|codenames|charades|taboo|scrabble|wordle|boggle|game|deck|cards)(?![a-z])"
)


def recovery_phrase(words: Iterable[str], cued: bool = False) -> bool:
    """A wallet's recovery phrase: twelve or more BIP-39 words in a row (at
    least eight of them different). With a cue (``wallet_cued``) that is
    enough; with nothing to introduce it the words, taken as a phrase of a
    standard length, must also carry its checksum, so a twelve-item shopping
    list of common words stays a shopping list. Numbering and commas between
    words are allowed."""
    run: list[str] = []
    for word in [*words, ""]:
        if word in BIP39_WORDS:
            run.append(word)
            continue
        if len(run) >= _PHRASE_MIN and len(set(run)) >= 8:
            if cued:
                return True
            if run == sorted(run):
                run = []  # uncued and in alphabetical order: a word list (a random phrase almost never is)
                continue
            for n in _PHRASE_LENGTHS:
                if any(_bip39_checksum_ok(run[i : i + n]) for i in range(len(run) - n + 1)):
                    return True
        run = []
    return False


# A gift card's claim code: whoever types it spends the card ("Amazon gift card claim code
# SHE2-78RH59-9G4M", "Google Play gift card: 83HMDU3T1XHIGXT4").
_GIFT_CARD = re.compile(
    r"(?i)(?:gift[ -]?card|wallet code|carte cadeau|cheque cadeau|tarjeta regalo|vale regalo|buono regalo"
    r"|cart[aã]o presente|gutschein\w*|cadeaukaart|voucher code|gift code|redeem later"
    # a store's card by its brand ("Amazon code ...", {"store": "Google Play", "code": ...})
    r"|(?<![a-z])(?P<brand>amazon|google play|itunes|apple|app store|steam|playstation|psn|xbox|nintendo|eshop|netflix|spotify"
    r"|roblox|razer gold|target|walmart|starbucks|sephora|ikea|zalando)(?: gift| store)?(?: card)?(?=[\s,:;(-])"
    r")[^\n]{0,40}?(?:claim|redemption|redeem|card)?[\s-]*(?:(?:code|codice|codigo|código|pin|:)\s*:?\s*|(?=\w{4} \w{4} ))"
    r"(?P<val>[A-Z0-9]{3,6}(?:-[A-Z0-9]{3,6}){2,4}|[A-Z0-9]{4}(?: [A-Z0-9]{4}){3,4}|[A-Z0-9]{12,20})(?![\w-])"
)


def gift_card_code(line: str, low: str) -> bool:
    """A gift card's claim code, named by the card or its store, not a promotion's code: a
    code of letters and digits, or of sixteen capitals (an Apple card's)."""
    if not _has(low, _GIFT_HINTS) or _PROMO.search(low):
        return False
    return any(
        _claim_code(m.group("val"))
        and (
            not m.group("brand")
            or _has(low, _GIFT_WORDS)
            or ("-" in m.group("val") and not _OTHER_NUMBER.search(m.group()))
        )
        for m in _GIFT_CARD.finditer(line)
    )


# Words that say a code is a gift card's, and the stores whose brand alone may say it.
_GIFT_TERMS = ("gift", "redeem", "claim", "voucher", "gutschein", "cadeau", "regalo", "presente")
_GIFT_STORES = (
    "amazon", "google play", "itunes", "apple", "app store", "steam", "playstation", "psn", "xbox", "nintendo", "eshop",
    "netflix", "spotify", "roblox", "razer", "target", "walmart", "starbucks", "sephora", "ikea", "zalando",
)  # fmt: skip
_GIFT_WORDS = _hints(*_GIFT_TERMS)
_OTHER_NUMBER = re.compile(r"(?i)serial|tracking|order|return|retoure|member|playlist|recipe|case|model|name")


_GIFT_HINTS = _hints(*_GIFT_TERMS, *_GIFT_STORES, "wallet code")  # a quick test before the pattern


def _claim_code(v: str) -> bool:
    """Random capitals and digits: in groups, one of them mixing both ("TPTA-NWY19P-YDP0",
    not a case number "CASE-2024-88812"); whole, no word in it ("WILLKOMMEN23")."""
    if v.upper() != v or not re.search(r"[A-Z]", v):
        return False
    if "-" in v:
        return any(re.search(r"[A-Z]", g) and re.search(r"\d", g) for g in v.split("-"))
    return (re.search(r"\d", v) is not None or len(v) >= 15) and generated(v)


# A user and a password passed together in code: requests' auth=("user", "pass"),
# HTTPBasicAuth("user", "pass").
_AUTH_TUPLE = re.compile(
    r"(?:auth\s*=\s*\(|BasicAuth\()\s*[\"']([^\"'\n]{1,64})[\"']\s*,\s*[\"']([^\"'\n]{4,128})[\"']\s*\)"
)


_PROMO = re.compile(r"\b(?:promo\w*|rabatt|discount|coupon|\d+ ?% ?off|% rabatt|newsletter)\b")


def _scan_misc(line: str, low: str, found: set[str]) -> None:
    if "auth" in low and any(_plausible_password(m.group(2)) for m in _AUTH_TUPLE.finditer(line)):
        found.add(BASIC_AUTH)
    if gift_card_code(line, low):
        found.add(GIFT_CARD)
    if "otpauth" in low and _OTPAUTH.search(line):
        found.add(TWO_FACTOR)
    if _has(low, ("2fa", "mfa", "otp", "authenticator")) and _TWO_FACTOR_SEED.search(line):
        found.add(TWO_FACTOR)
    if ("setup key" in low or "secret key" in low or "totp secret" in low or "totp key" in low or "totp_" in low) and _SETUP_KEY_GROUPS.search(line):
        found.add(TWO_FACTOR)  # an authenticator's key typed in by hand: "setup key: a2o5 qp7q gxdn ..."
    if "code" in low and _has(low, ("backup", "recovery", "2fa", "mfa")) and _BACKUP_CODES.search(line):
        found.add(TWO_FACTOR)
    if _has(low, ("seed", "recovery", "mnemonic", "backup", "secret", "wiederherstell", "recupera", "semente",
                  "herstelzin", "odzyskiw", "recupero")):
        m = _SEED_PHRASE.search(line)
        words = m.group(1).lower().replace(",", " ").split() if m else []
        if words and words[-1] in _FUNCTION_WORDS:
            words = words[:-1]  # "... flint beacon and"
        if m and len(set(words)) >= 8 and not _FUNCTION_WORDS.intersection(words) and (
            ":" in m.group(0)[: m.start(1) - m.start(0)] or " is " in m.group(0) or " are " in m.group(0)
            or _PHRASE_NAMED.search(m.group(0)[: m.start(1) - m.start(0)]) is not None  # after a dash: named
        ):
            found.add(RECOVERY_PHRASE)
    if RECOVERY_PHRASE not in found and low.count(" ") >= _PHRASE_MIN - 1:
        words = _WORD.findall(low)
        # a line that is nothing but a phrase's length of wallet words, written as a wallet shows
        # them (lower case, single spaces), is a phrase even without its checksum
        bare = len(words) in _PHRASE_LENGTHS and _BARE_WORDS.fullmatch(low.strip()) is not None
        listed = _WORD_LIST.search(low) is not None  # "spelling words for ...": "words" is no wallet's cue there
        cued = bare or wallet_cued(low.replace("words", "") if listed else low)
        if (cued or not listed) and len(BIP39_WORDS.intersection(words)) >= 8 and recovery_phrase(words, cued):
            found.add(RECOVERY_PHRASE)
    if _card_spans(line) or (
        _has(low, _CARD_WORDS) and _maybe_spelled(low) and _SPELLED.search(line) and _card_spans(_spelled_digits(line))
    ):
        found.add(CREDIT_CARD)


# --------------------------------------------------------------------------------------------
# Token formats the engine misses or only reports with a second component
# --------------------------------------------------------------------------------------------

DISCORD_WEBHOOK = "Discord webhook"
CRYPTO_KEY = "cryptocurrency private key"

_DISCORD_WEBHOOK = re.compile(
    r"(?i)https?://(?:(?:canary|ptb)\.)?discord(?:app)?\.com/api/(?:v\d+/)?webhooks/\d{15,21}/[A-Za-z0-9_\-]{60,80}"
)
# 64 hex digits (32 bytes) stated as a private key: an Ethereum / EVM key. A transaction or
# block hash has the same shape, so the keyword must come first and "hash"/"tx" must not.
_HEX_KEY = re.compile(
    r"(?i)(?<![a-z])(?:priv(?:ate)?[\s_\-]?key|privkey|secret[\s_\-]?key|wallet[\s_\-]?key|signing[\s_\-]?key"
    r"|metamask|rabby|ledger|keystore|mnemonic|eth(?:ereum)?[\s_\-]?(?:private|priv|secret|key))"
    r"[^\n]{0,40}?(?<![0-9a-fA-F])(?:0x)?([0-9a-fA-F]{64})(?![0-9a-fA-F])"
)
_HEX_KEY_HINTS = _hints(
    "priv",
    "secret",
    "wallet",
    "signing",
    "metamask",
    "rabby",
    "ledger",
    "keystore",
    "mnemonic",
    "eth",
)
_NOT_A_KEY = re.compile(
    r"(?i)(?<![a-z])(?:hash|tx|txid|transaction|block|commit|sha\d*|digest|checksum|address|public)(?![a-z])"
)
# Bitcoin private keys in wallet import format carry a base58check checksum: no context needed.
_WIF = re.compile(r"(?<![1-9A-HJ-NP-Za-km-z])[5KL][1-9A-HJ-NP-Za-km-z]{50,51}(?![1-9A-HJ-NP-Za-km-z])")
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _wif_ok(candidate: str) -> bool:
    n = 0
    for ch in candidate:
        n = n * 58 + _B58.index(ch)
    size = 38 if candidate[0] in "KL" else 37
    if n.bit_length() > size * 8:
        return False  # too large for a key in wallet import format: another base58 string
    raw = n.to_bytes(size, "big")
    if raw[0] != 0x80:
        return False
    body, check = raw[:-4], raw[-4:]
    return hashlib.sha256(hashlib.sha256(body).digest()).digest()[:4] == check


# A Solana private key as wallets export it: 64 bytes in base58 (87 or 88 characters), or a
# keypair file's array of 64 numbers. A transaction signature has the base58 shape too, so the
# string needs a word saying it is a key or an export.
_SOLANA_KEY = re.compile(r"(?<![1-9A-HJ-NP-Za-km-z])[1-9A-HJ-NP-Za-km-z]{86,88}(?![1-9A-HJ-NP-Za-km-z])")
_SOLANA_HINTS = _hints(
    "phantom", "solflare", "backpack", "solana", "private key", "secret key", "export", "keypair"
)
_KEYPAIR_ARRAY = re.compile(r"\[\s*(?:\d{1,3}\s*,\s*){63}\d{1,3}\s*\]")


def _scan_wallets(line: str, low: str, found: set[str]) -> None:
    if len(line) >= 86 and _has(low, _SOLANA_HINTS) and not _has(low, ("signature", "txid", "transaction")):
        if _SOLANA_KEY.search(line):
            found.add(CRYPTO_KEY)
    if len(line) >= 128 and "[" in line:
        for m in _KEYPAIR_ARRAY.finditer(line):
            nums = [int(n) for n in re.findall(r"\d+", m.group())]
            # random bytes span the range (readings such as heart rates do not)
            if max(nums) <= 255 and min(nums) < 16 and max(nums) > 239 and len(set(nums)) >= 40:
                found.add(CRYPTO_KEY)
    if "webhooks/" in low and _DISCORD_WEBHOOK.search(line):
        found.add(DISCORD_WEBHOOK)
    if len(line) >= 64 and _has(low, _HEX_KEY_HINTS):
        for m in _HEX_KEY.finditer(line):
            if not _NOT_A_KEY.search(line[max(0, m.start() - 20) : m.start(1)]):
                found.add(CRYPTO_KEY)
                break
    if len(line) >= 51 and ("5" in line or "K" in line or "L" in line):
        for m in _WIF.finditer(line):
            if _wif_ok(m.group()):
                found.add(CRYPTO_KEY)
                break


#: Every kind name the built-in detectors can return.
SECRET_KINDS: frozenset[str] = frozenset(
    {kind for _, kind, _, _ in _PLUGINS}
    | {AWS_SECRET_KEY, SLACK_WEBHOOK, PASSWORD, CREDIT_CARD, CARD_CODE, PIN, GENERIC, BASIC_AUTH}
    | {CONNECTION_STRING, BEARER, RECOVERY_PHRASE, TWO_FACTOR, DISCORD_WEBHOOK, CRYPTO_KEY}
    | {SECURITY_ANSWER, SESSION_COOKIE, ONE_TIME_CODE, GIFT_CARD}
)


# --------------------------------------------------------------------------------------------
# Fifth round: security answers, session cookies, recovery codes, vendor-named tokens
# --------------------------------------------------------------------------------------------

# An account's security question (or its "memorable word"), in several languages.
_SECURITY_Q = re.compile(
    r"(?i)(?<![a-z])(?:security\s+(?:question|answer)s?|secret\s+(?:question|answer)s?|recovery\s+answers?"
    r"|memorable\s+word|memorable\s+info(?:rmation)?(?=[^.\n]{0,30}\b(?:bank|banking|account|login|security)\b)|verification\s+word"
    r"|sicherheitsfrage|sicherheitsantwort|question\s+secr[èe]te|r[ée]ponse\s+secr[èe]te|pregunta\s+(?:de\s+)?seguridad"
    r"|pregunta\s+secreta|pergunta\s+(?:de\s+)?seguran[çc]a|domanda\s+(?:di\s+)?sicurezza|beveiligingsvraag"
    r"|pytanie\s+bezpiecze[ńn]stwa|s[äa]kerhetsfr[åa]ga|секретный\s+вопрос|秘密の質問|安全问题|密保问题|보안\s*질문"
    r"|pregunta\s+de\s+seguretat|turvakysymy\w*|biztons[áa]gi\s+k[ée]rd[ée]s\w*"
    r"|[îi]ntrebare(?:a)?\s+(?:de\s+securitate|secret[ăa])|sigurnosno\s+pitanje|tajno\s+pitanje|безбедносно\s+питање"
    r"|bezpe[čc]nostn[áaíi]\s+ot[áa]zk[ay]|kontroln[íi]\s+ot[áa]zk[ay]|контролен\s+въпрос|таен\s+въпрос"
    r"|въпрос\s+за\s+сигурност|контрольн\w*\s+(?:питання|вопрос)|секретне\s+питання"
    r"|sikkerhetssp[øo]rsm[åa]l\w*|sikkerhedssp[øo]rgsm[åa]l\w*|swali\s+la\s+(?:usalama|siri)"
    r"|ερ[ωώ]τηση\s+ασφαλε[ιί]ας|μυστικ[ηή]\s+ερ[ωώ]τηση|שאלת\s+(?:אבטחה|ביטחון)|שאלה\s+סודית"
    r"|saugumo\s+klausim\w*|slaptas\s+klausim\w*|dro[šs][īi]bas\s+jaut[āa]jum\w*|varnostno\s+vpra[šs]anje"
    r"|turvak[üu]simus\w*|salak[üu]simus\w*|[öo]ryggisspurning\w*|pyetje\w*\s+sigurie"
    r"|سؤال\s+(?:الأمان|الأمن)|السؤال\s+السري|سؤال\s+امنیتی|سوال\s+امنیتی|پرسش\s+امنیتی|حفاظتی\s+سوال"
    r"|सुरक्षा\s+(?:प्रश्न|सवाल)|নিরাপত্তা\s+প্রশ্ন|คำถามความปลอดภัย|คำถามลับ|pertanyaan\s+(?:keamanan|rahasia)"
    r"|soalan\s+keselamatan|c[âa]u\s+h[ỏo]i\s+b[ảa]o\s+m[ậa]t|tanong\s+pang-?seguridad|セキュリティ質問|安全問題)"
)
# What separates a question from its answer: "... pet): Bello", "→ Lefebvre", "Respuesta: Los Pinos".
# A question asked by its topic, in quotes ("asks 'favourite teacher'", "the question 'first pet'").
_ASKED_TOPIC = re.compile(r"(?i)\b(?:asks?|asked|question|answer\s+to)\b[^.\n]{0,20}?[\"'“‘]([^\"'”’\n]{3,40})[\"'”’]")
_PERSONAL_TOPIC = re.compile(
    r"(?i)\b(?:pet|teacher|school|maiden|born|birth\w*|city|street|car|childhood|nickname|friend|hero|team|food|book"
    r"|film|movie|band|job|honeymoon|grand\w*|mother|father|sibling|cousin)\b"
)
_ANSWER_SEP = re.compile(
    r"(?i)(?:[:=→]|->|\s[-–—]\s|\b(?:answer|respuesta|antwort|r[ée]ponse|resposta|risposta|antwoord)\b\s*:?"
    r"|\bit['’]s\b|\bis\b)\s*[\"'“‘]?([^\n?.;]{2,48})(?:[.;\n]|$)"
)


# What a security question asks about, named where the questions are listed ("first pet,
# mother's maiden name"): the start of a question, not of an answer.
QUESTION_TOPIC = re.compile(
    r"(?i)(?:first|favou?rite|mother['’]?s|father['’]?s|maiden|childhood|oldest|youngest|birth\w*|which|what"
    r"|name of|city (?:of|where)|street (?:you|where))\b"
)


_QUOTED_OR_BRACKETED = re.compile(r"\([^)]*\)|'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")


def topics_only(answer: str) -> bool:
    """Whether a stated answer only lists what questions ask ("first pet, mother's maiden
    name"): lower-case items, each a question's topic; an answer names something
    ("favourite teacher Mrs Abernathy")."""
    items = [i.strip() for i in re.split(r"[,;/]|\band\b|\bor\b", answer) if i.strip()]
    return bool(items) and all(i == i.lower() and QUESTION_TOPIC.match(i) for i in items)



_SECURITY_HINTS = _hints(
    "secur", "secret", "secrè", "memorable", "verification", "recovery", "sicherheit", "pregunta", "pergunta", "question",
    "réponse", "reponse", "respuesta", "asks", "asked", "answer to",
    "domanda", "beveilig", "pytanie", "säkerhet", "sakerhet", "секрет", "秘密", "安全", "密保", "보안",
    "seguretat", "turvakys", "biztons", "securitate", "secret", "pitanje", "питање", "bezpe", "kontroln", "контрол",
    "таен", "сигурност", "sikkerhe", "swali", "ασφαλ", "μυστικ", "אבטח", "ביטחון", "סודית", "saugumo", "klausim",
    "drošības", "drosibas", "vprašanje", "vprasanje", "turvak", "salak", "ryggisspurning", "pyetje", "سؤال", "سوال",
    "پرسش", "السري", "सुरक्षा", "নিরাপত্তা", "คำถาม", "pertanyaan", "soalan", "câu hỏi", "cau hoi", "tanong", "セキュリティ",
)  # fmt: skip


# The questions themselves, as banks ask them and end them with "?" ("name of your first pet?: Milo",
# "девичья фамилия матери? — Смирнова"): the answer after one is the credential.
_ASKED_QUESTION = re.compile(
    r"(?i)(?:(?:name of )?(?:your|my|the) first (?:pet|dog|cat)(?:['’]s name)?|first pet['’]?s name|(?:your |my )?mother['’]?s maiden name"
    r"|maiden name of (?:your|my) mother|(?:city|town) (?:where|in which) (?:you|i) (?:were|was) born|(?:your |my )?(?:city|place) of birth"
    r"|(?:your|my) (?:first|childhood) (?:car|school|teacher|best friend|nickname|street)|favou?rite teacher"
    r"|street (?:you|i) grew up on|(?:your|my) father['’]?s middle name|(?:your|my) elementary school"
    r"|девичья фамилия (?:матери|мамы)|кличка (?:вашего |первого |моего )*(?:питомца|улюбленця|домашнего животного)"
    r"|дівоче прізвище матері|nazwisko panieńskie matki|imię (?:pierwszego|twojego pierwszego) zwierzaka"
    r"|annenizin kızlık soyadı|ilk evcil hayvanınızın adı|nom de (?:votre|ton) premier animal|nom de jeune fille de (?:votre|ta) mère"
    r"|nombre de tu primera mascota|apellido de soltera de tu madre|nome d[oa] (?:seu|teu) primeiro animal"
    r"|nome de solteira da (?:sua|tua) mãe|name (?:ihres|deines) ersten haustiers|mädchenname (?:ihrer|deiner) mutter"
    r"|nome del (?:tuo|suo) primo animale|cognome da nubile di (?:tua|sua) madre|tên thú cưng đầu tiên|họ thời con gái của mẹ"
    r"|πατρικό επώνυμο της μητέρας|όνομα του πρώτου σας κατοικίδιου|어머니의 결혼 전 성|첫 번째 애완동물의 이름|첫 애완동물 이름"
    r"|母亲的娘家姓|你母亲的娘家姓|第一只宠物的名字|最初のペットの名前|母親の旧姓"
    r"|jina la ukoo la mama yako|jina la mnyama wako wa kwanza|nama hewan peliharaan pertama|nama gadis ibu)"
    r"[^?？\n]{0,12}[?？]"
)
# the answer right after it: one to three words after a separator, the clause ending; with no
# separator, the line ending ("What was the name of your first pet? Milo")
_ASKED_ANSWER = re.compile(
    r"\s*(?:(?:[:=→]|->|[-–—]|\b(?:is|est|ist|es|é|è|là|jest|adalah|ni|это)\b|\bA\s*:|\banswer\s*:)\s*[\"'“‘]?(\w[\w'’-]{1,30}(?:\s\w[\w'’-]{1,30}){0,2}?)[\"'”’]?"
    r"\s*(?:$|[.!;,|(\n]|\s+(?:btw|lol|for|in|at|on|from|with)\b)"
    r"|[\"'“‘]?(\w[\w'’-]{1,30}(?:\s\w[\w'’-]{1,30}){0,2}?)[\"'”’]?[.!]?\s*(?:$|\n))"
)


def _scan_security_answers(line: str, low: str, found: set[str]) -> None:
    if "?" in line or "？" in line:
        for asked in _ASKED_QUESTION.finditer(line):
            a = _ASKED_ANSWER.match(line, asked.end())
            if _answer_after(line, asked) or (a is not None and _an_answer(a.group(1) or a.group(2), bare=True)):
                found.add(SECURITY_ANSWER)
                return
    if not _has(low, _SECURITY_HINTS):
        return
    q = _SECURITY_Q.search(line)
    if not q and ("ask" in low or "question" in low or "answer to" in low):  # "if Zoom asks 'favourite teacher', the answer I set is ..."
        q = next(
            (m for m in _ASKED_TOPIC.finditer(line) if topics_only(m.group(1)) and _PERSONAL_TOPIC.search(m.group(1))),
            None,
        )
    if q and _answer_after(line, q):
        found.add(SECURITY_ANSWER)


def _answer_after(line: str, q: re.Match[str]) -> bool:
    """Whether an answer follows the question ``q`` in its sentence."""
    rest = line[q.end() : q.end() + 120]  # the answer follows its question closely,
    rest = re.split(r"\.\s|\n", rest, maxsplit=1)[0]  # in the same sentence
    pos = 0
    while (m := _ANSWER_SEP.search(rest, pos)) is not None:  # ": 'Your first pet?' — my answer is Biscuit01"
        pos = m.start() + 1  # overlapping: "— my answer is X" holds "answer is X" and "is X"
        answer = m.group(1).strip(" .\"'”’")
        labelled = re.search(r"(?i)answer|respuesta|antwort|r[ée]ponse|resposta|risposta|antwoord", m.group()) is not None
        if len([w for w in answer.split() if len(w) > 1]) > 4 or (topics_only(answer) and not labelled):
            continue  # a clause ("— one less thing to remember"), the questions offered ("first pet, ...")
        if m.group().lstrip()[:1] in "-–—" and answer[:1].islower() and " " in answer:
            continue  # a dash before a clause ends a sentence about it: "... with passkeys — nothing left"
        if _an_answer(answer):
            return True
    return False


def _an_answer(answer: str, bare: bool = False) -> bool:
    """An answer, not the question asked or talk about questions ("is about my first pet");
    ``bare``: with nothing between the question and it, not the next sentence either."""
    return bool(answer) and not (_NOT_AN_ANSWER.match(answer) or (bare and _NEXT_SENTENCE.match(answer)))


_NOT_AN_ANSWER = re.compile(
    r"(?i)(?:about|a|an|the|my|what|which|who|where|when|how|set|on|in|not|never|no|none|stored|saved"
    r"|kept|somewhere|there|here|is|was|it|her|his|their|your|our|still|pending|done|ready|due|missing"
    r"|required|needed|optional|empty|blank|being|going|to|too|also|now|already|unset|updated|changed)\b"
)
_NEXT_SENTENCE = re.compile(
    r"(?i)(?:and|or|but|if|for|why|do|does|did|can|could|should|would|will|i|we|you|they|she|he|see|ask|same)\b"
)


# Session cookies: a session cookie's name, "=", and a value no one types.
_SESSION_COOKIE = re.compile(
    r"(?i)(?<![\w.])(?:phpsessid|jsessionid|asp\.net_sessionid|aspsessionid\w*|connect\.sid|laravel_session"
    r"|_[a-z]+_sess(?:ion)?|[a-z_]*session(?:id|_id|_token)?|sessid|sid|remember_token|__host-[\w-]+"
    r"|__secure-[\w-]+)=([^;\s\"']{16,})"
)


def _scan_cookies(line: str, low: str, found: set[str]) -> None:
    if "=" not in line or not _has(low, ("sess", "sid", "remember_token", "__host-", "__secure-")):
        return
    for m in _SESSION_COOKIE.finditer(line):
        value = unquote_plus(m.group(1))
        if len(set(value)) >= 10 and not _PLACEHOLDER.match(value) and _entropy_ok(value[:64]):
            found.add(SESSION_COOKIE)
            return


# Recovery and backup codes, in several languages: the keyword, then three codes or more.
_RECOVERY_KW = re.compile(
    r"(?i)(?<![a-z])(?:recovery|backup|restore|rescue|emergency|one-time)\s+(?:codes?|keys?)"
    r"|wiederherstellungs(?:code|schl[üu]ssel)\w*|backup-?codes?|c[óo]digos?\s+de\s+(?:respaldo|recupera[cç]i?[óoã]o?n?"
    r"|seguran[çc]a|emergencia)|codes?\s+de\s+(?:r[ée]cup[ée]ration|secours)|codici\s+di\s+(?:backup|recupero)"
    r"|herstelcodes?|kody\s+(?:zapasowe|odzyskiwania)|リカバリー(?:コード|キー)|バックアップコード|备用码|恢复码|복구\s*코드"
    r"|bitlocker|c[óo]digos?\s+de\s+backup|резервн\w+\s+код\w*|код\w*\s+восстановления|kode\s+(?:cadangan|pemulihan)"
    r"|misimbo\s+ya\s+(?:akiba|dharura)|herstelsleutel|m[ãa]\s+d[ựu]\s+ph[òo]ng|yedek\s+kod\w*|kurtarma\s+(?:kod|anahtar)\w*"
    r"|sicherungscodes?|백업\s*코드|รหัสสำรอง|备用代码|備用碼"
)
_CODE_TOKEN = re.compile(
    r"(?<![\w-])(?=[A-Za-z0-9-]*\d)[A-Za-z0-9]{3,12}(?:-[A-Za-z0-9]{3,12}){0,7}(?![\w-])"
)


_RECOVERY_HINTS = _hints(
    "recovery", "backup", "restore", "rescue", "emergency", "one-time", "wiederherstell", "códig", "codig", "codes",
    "codici", "herstel", "kody", "リカバリー", "バックアップ", "备用码", "恢复码", "복구", "bitlocker", "резервн",
    "восстановления", "cadangan", "pemulihan", "misimbo", "dự phòng", "du phong", "yedek", "kurtarma", "sicherung",
    "백업", "สำรอง", "备用", "備用",
)  # fmt: skip


def _scan_recovery_codes(line: str, low: str, found: set[str]) -> None:
    if not _has(low, _RECOVERY_HINTS):
        return
    m = _RECOVERY_KW.search(line)
    if m is None:
        return
    codes = [c for c in _CODE_TOKEN.findall(line[m.end() :]) if not re.fullmatch(r"(?:19|20)\d\d", c)]
    if len(codes) >= 3 or any(len(c) >= 40 or (c.count("-") >= 4 and not UUID.match(c)) for c in codes):
        # (a BitLocker key is one long code, a recovery key five groups or more; a UUID is a reference)
        found.add(TWO_FACTOR)


# A sheet of backup codes, in any language and with no word for it: five or more codes of one
# shape in a row, as sites print them (eight digits; two groups of four or five letters and
# digits; ten hex characters in two groups).
_SHEET_CODE = re.compile(
    r"(?<![\w-])(?:\d{8}|[a-z0-9]{4}-[a-z0-9]{4}|[A-Z0-9]{4}-[A-Z0-9]{4}|[0-9a-f]{5}-[0-9a-f]{5}|[A-Z0-9]{5}-[A-Z0-9]{5})(?![\w-])"
)
_SHEET_GAP = re.compile(r"[\s,;|/]*")
_SHEET_MIN = 5
_ANY_DIGIT = re.compile(r"\d")


def _code_shape(code: str) -> str:
    return re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", code)))


# Words for backup or recovery codes: with one, five codes make a sheet; without, eight.
_SHEET_CUE = re.compile(
    r"backup|back-up|recovery|spare|reserve|rezerv|reserv|z[aá]lo[zž]n|zapasow|varakood|cadangan|yedek|d[uự] ph[oò]ng|sicherung"
    r"|secours|respaldo|recupera|herstel|gendannelse|[aå]terst[aä]ll|tartal[eé]k|резерв|запасн|احتياط|גיבוי|สำรอง"
    r"|バックアップ|予備|备用|備用|백업|복구|2fa|mfa|two-factor|one-time|einmal"
)
_SHEET_DATE = re.compile(r"(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])")


_SHEET_NOT = re.compile(
    r"(?<![a-z])(?:part|parts|sku|skus|article|model|serial|order|orders|invoice|invoices|tracking|ticket|item|ref|refs"
    r"|reference|references|referral|insurance|policy|claim|member|patient|account|phone|tel|call)(?![a-z])"
)


def _sheet_ok(codes: list[str], cued: bool) -> bool:
    """Five codes or more under a backup cue, eight without; not dates, not numbers in a
    row (invoices), not one prefix (part numbers, SKUs)."""
    if len(codes) < (_SHEET_MIN if cued else 8):
        return False
    if sum(bool(_SHEET_DATE.fullmatch(c)) for c in codes) > 1:
        return False
    if all(c.isdigit() for c in codes):
        nums = sorted(int(c) for c in codes)
        if max(b - a for a, b in zip(nums, nums[1:], strict=False)) < 1000:
            return False
    if len({c[:3] for c in codes}) < len(codes) // 2 or len({c.split("-")[0] for c in codes}) < len(codes) // 2:
        return False
    return True


def sheet_cued(text: str) -> bool:
    """Whether a text names backup or recovery codes (in one of the languages above)."""
    low = text.lower()
    return _SHEET_CUE.search(low) is not None and not _SHEET_NOT.search(low)


def _scan_code_sheet(line: str, low: str, found: set[str]) -> None:
    if len(line) >= 40 and _SHEET_CODE.search(line) and code_sheet_in(line, _SHEET_CUE.search(low) is not None):
        found.add(TWO_FACTOR)


def code_sheet_in(line: str, cued: bool) -> bool:
    """Five or more codes of one shape in a row under a backup cue, eight without."""
    if len(line) < 40 or not _ANY_DIGIT.search(line):
        return False
    if _SHEET_NOT.search(line.lower()):
        return False  # part numbers, SKUs, orders, invoices, tracking numbers
    run, shape, end = 0, "", -1
    codes: list[str] = []
    for m in _SHEET_CODE.finditer(line):
        code = m.group()
        same = m.start() == end or (end >= 0 and _SHEET_GAP.fullmatch(line, end, m.start()) is not None)
        this = "8" if code.isdigit() else f"{len(code)}{'A' if code.isupper() else 'a'}"
        random = code.isdigit() or (_ANY_DIGIT.search(code) is not None and re.search(r"[A-Za-z]", code) is not None)
        if not random or _YEARS.fullmatch(code) or len(set(code.replace("-", ""))) < 4:
            run, end, codes = 0, -1, []
            continue
        if same and this == shape:
            run += 1
            codes.append(code)
        else:
            run, codes = 1, [code]
        shape, end = this, m.end()
        if run >= _SHEET_MIN and _sheet_ok(codes, cued):
            return True
    return False


_YEARS = re.compile(r"(?:19|20)\d\d-(?:19|20)\d\d|\d{4}-\d{4}")


# A vendor named in the sentence and a random token beside it: "it talks to Cloudflare with
# CGcjUb1R1pJf...", "Kunci API Vercel saya adalah PTDH9pJM...". The token must look random
# (and not be a hash or an id the sentence calls one).
_VENDOR_NAMES = (
    "openai", "anthropic", "azure", "aws", "gcp", "google", "gemini", "cloudflare", "vercel", "netlify", "heroku",
    "railway", "render", "fly.io", "digitalocean", "linode", "vultr", "hetzner", "supabase", "firebase", "mongodb",
    "planetscale", "neon", "upstash", "redis", "algolia", "mapbox", "stripe", "paypal", "braintree", "square", "adyen",
    "plaid", "wise", "coinbase", "binance", "alchemy", "infura", "etherscan", "moralis", "twilio", "vonage", "nexmo",
    "sendgrid", "mailgun", "postmark", "mailchimp", "resend", "slack", "discord", "telegram", "zoom", "intercom",
    "zendesk", "hubspot", "salesforce", "notion", "linear", "asana", "airtable", "jira", "atlassian", "figma",
    "sentry", "datadog", "new relic", "newrelic", "grafana", "pagerduty", "opsgenie", "okta", "auth0", "clerk",
    "1password", "bitwarden", "vault", "terraform", "doppler", "pulumi", "snyk", "sonar", "circleci", "travis",
    "buildkite", "github", "gitlab", "bitbucket", "docker", "npm", "pypi", "rubygems", "nuget", "hugging face",
    "huggingface", "replicate", "cohere", "mistral", "groq", "together", "fireworks", "perplexity", "deepseek",
    "elevenlabs", "assemblyai", "deepgram", "pinecone", "weaviate", "qdrant", "wandb", "weights & biases", "deepl",
    "launchdarkly", "mixpanel", "amplitude", "segment", "ably", "pusher", "ngrok", "modal", "jina", "tavily",
    "langsmith", "langfuse", "dropbox", "box", "twitch", "shopify", "contentful", "cloudinary", "harness",
)  # fmt: skip
_VENDORS = re.compile(
    r"(?<![a-z0-9_])(?:" + "|".join(re.escape(v) for v in _VENDOR_NAMES) + r")(?![a-z0-9_])"
)
# What makes the token beside a vendor's name an id rather than a key.
_VENDOR_ID_CONTEXT = re.compile(
    r"(?i)(?<![a-z])(?:id|ids|identifier|customer|subscription|file|response|user|account\s+id|client\s+id"
    r"|project\s+id|tx|transaction|address|wallet|pod|k8s|kubernetes|deployment|replica|event|issue)(?![a-z])"
)
_VENDOR_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_\-+/=.|@])[A-Za-z0-9][A-Za-z0-9_\-.:]{18,98}[A-Za-z0-9=](?![A-Za-z0-9_\-+/=])"
)
_HASH_SHAPE = re.compile(
    r"(?i)[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
)


def _scan_vendor_tokens(line: str, low: str, found: set[str]) -> None:
    if GENERIC in found or len(line) < 24 or not _LONG_RUN.search(line) or not _VENDORS.search(low):
        return
    if not_secret_context(line) or _VENDOR_ID_CONTEXT.search(line):
        return
    if _has(low, ("example", "placeholder", "sample", "redacted")):
        return
    for m in _VENDOR_TOKEN.finditer(line):
        token = m.group()
        if "://" in line[max(0, m.start() - 8) : m.start()] or _is_wordy(token) or token[:2] in ("0x", "0X"):
            continue
        if _PUBLIC_TOKEN.fullmatch(token):
            continue
        prefix = re.split(r"[_\-|.]", token, maxsplit=1)[0].lower()
        if prefix in _ID_PREFIXES and prefix != token.lower():
            continue  # cus_..., asst_..., chatcmpl-...: ids
        if not _VENDORS.search(low[: m.start()] + " " + low[m.end() :]):
            continue  # the vendor is named only inside the token: "firebase-FapQ..." is a user id
        bare = token.replace("-", "").replace("_", "").replace(".", "").replace(":", "")
        if _HASH_SHAPE.fullmatch(token) and not _has(
            low, ("key", "token", "secret", "cred", "密钥", "キー", "키")
        ):
            continue  # a commit, a checksum or an id unless the sentence calls it a key
        if len(bare) >= 20 and _looks_random(bare, 20):
            found.add(GENERIC)
            return


# Whole texts: a private key's body without its header lines (DER as base64), and a PEM
# header whose body is a template.
_DER_PRIVATE = re.compile(
    r"(?<![A-Za-z0-9+/])(?:MII[A-Za-z0-9+/]{3}IBAAK|MII[A-Za-z0-9+/]{3}IBADAN|MHcCAQEE|MIGkAgEBBD|MC4CAQAwBQYDK2Vw)"
    r"[A-Za-z0-9+/]{40,}"
)
_PEM_BODY = re.compile(r"PRIVATE KEY-----(?:\s|\\n)*(?:[A-Za-z][\w-]*:[^\n]*\n\s*)*[A-Za-z0-9+/=]{8,}")


# Tables whose header names a credential column: CSV, TSV, semicolons, markdown. Each cell
# is read under its column's name, as a record's field ("oci_auth_token" over "(EOkk...").
_TABLE_SEPS = (",", ";", "\t", "|")
_TABLE_KINDS = frozenset({PASSWORD, PIN, GENERIC, PRIVATE_KEY})
_HEX_ID = re.compile(r"(?:0x)?[0-9a-fA-F]{32,128}")  # a contract's address, a file's digest
# A setting named in code, then its value: define('DB_PASSWORD', '...'), os.environ["X_PAT"] = "...",
# a Terraform variable's default.
_NAMED_IN_CODE = re.compile(
    r"(?is)\bdefine\(\s*['\"]([\w.]{2,64})['\"]\s*,\s*['\"]([^'\"\n]{4,256})['\"]"
    r"|\[\s*['\"]([\w.]{2,64})['\"]\s*\]\s*=\s*['\"]([^'\"\n]{4,256})['\"]"
    r"|\bvariable\s+\"([\w.\-]{2,64})\"\s*\{[^}]{0,400}?\bdefault\s*=\s*\"([^\"\n]{4,256})\""
)
_SQL_INSERT = re.compile(
    r"(?is)\binsert\s+into\s+[\w.\"`]+\s*\(([^)]{1,400})\)\s*values\s*\(([^)]{1,1000})\)"
)
_YAML_BLOCK = re.compile(r"(?m)^([ \t]*)([\w.\-]{2,40}):[ \t]*[|>][-+]?[ \t]*\n\1[ \t]+(\S[^\n]{3,127})$")
_RECOVERY_TEXT_CODE = re.compile(
    r"(?<![\w-])(?=[A-Za-z0-9 -]*\d)[A-Za-z0-9]{4,12}(?:[ -][A-Za-z0-9]{4,12})?(?![\w-])"
)


def _cells(row: str, sep: str) -> list[str]:
    return [c.strip().strip("\"'`") for c in row.strip().strip("|").split(sep)]


def _named_credential_column(name: str) -> bool:
    """A token column named for what it opens ("api_key", "drone_token", "client secret"),
    not one word ("Token" over a wallet's contract addresses, "signature" over hashes)."""
    return len(re.findall(r"[A-Za-z][a-z]*|[A-Z]+(?![a-z])", name)) >= 2


_CODE_CELL = re.compile(r"[=()\"'{}]")


def _scan_tables(text: str, found: set[str]) -> None:
    lines = text.splitlines()
    budget = 400  # cells looked at per text: a long table costs what its first rows cost
    for i, line in enumerate(lines[:-1]):
        if budget <= 0:
            return
        for sep in _TABLE_SEPS:
            if sep not in line or line.count(sep) > 24:
                continue
            header = _cells(line, sep)
            budget -= len(header)
            login = any(h.lower() in ("login", "user", "username", "email", "account") for h in header)
            # not cached: a header candidate may be a row of values
            # a column's name, not code ("password=\"...\")" is an argument)
            kinds = {k: field_kind(h, cached=False) for k, h in enumerate(header) if len(h) <= 32 and not _CODE_CELL.search(h)}
            cols = [
                k
                for k, kind in kinds.items()
                if (kind in _TABLE_KINDS and (kind != GENERIC or _named_credential_column(header[k])))
                or (kind == "secret" and login)
            ]
            if not cols:
                continue
            for row in lines[i + 1 : i + 40]:
                budget -= 1
                cells = _cells(row, sep)
                if len(cells) != len(header):
                    continue
                for k in cols:
                    kind = kinds[k] if kinds[k] != "secret" else PASSWORD  # a login table's secret column
                    if kind == GENERIC and _HEX_ID.fullmatch(cells[k]):
                        continue
                    hit = field_secret(kind, cells[k], _looks_random)
                    if hit and not set(cells[k]) <= set("-: "):
                        found.add(hit)
                        return


def _scan_code_settings(text: str, found: set[str]) -> None:
    if "define(" in text or "variable" in text or ("]" in text and "=" in text):
        _named_in_code(text, found)
    if "insert" in text.lower():
        _sql_inserts(text, found)
    if "\n" in text and (": |" in text or ": >" in text or ":|" in text or ":>" in text):
        for m in _YAML_BLOCK.finditer(text):
            hit = field_secret(field_kind(m.group(2)), m.group(3).strip(), _looks_random)
            if hit:
                found.add(hit)


def _named_in_code(text: str, found: set[str]) -> None:
    for m in _NAMED_IN_CODE.finditer(text):
        name = m.group(1) or m.group(3) or m.group(5)
        value = m.group(2) or m.group(4) or m.group(6)
        hit = field_secret(field_kind(name), value, _looks_random)
        if hit:
            found.add(hit)


def _sql_inserts(text: str, found: set[str]) -> None:
    for m in _SQL_INSERT.finditer(text):
        names = [c.strip().strip('"`[]') for c in m.group(1).split(",")]
        values = [v.strip().strip("'\"") for v in re.split(r",(?=(?:[^']*'[^']*')*[^']*$)", m.group(2))]
        if len(names) == len(values):
            for name, value in zip(names, values, strict=True):
                hit = field_secret(field_kind(name), value, _looks_random)
                if hit:
                    found.add(hit)


def scan_blocks(text: str, found: set[str], had_private_key: bool) -> None:
    """Detectors that read a whole text rather than a line."""
    if "\n" in text:
        _scan_tables(text, found)
        m = _RECOVERY_KW.search(text)  # codes listed one per line under their heading
        if m and TWO_FACTOR not in found:
            codes = _RECOVERY_TEXT_CODE.findall(text[m.end() : m.end() + 600])
            if len(codes) >= 4:
                found.add(TWO_FACTOR)
    if "define(" in text or "variable" in text or "]" in text or "insert" in text.lower() or "\n" in text:
        _scan_code_settings(text, found)
    if PRIVATE_KEY in found and not had_private_key and "PRIVATE KEY" in text and not _PEM_BODY.search(text):
        found.discard(PRIVATE_KEY)  # "-----BEGIN PRIVATE KEY-----\n...\n" (paste yours here)
    if ("MII" in text or "MHcC" in text or "MIGk" in text or "MC4C" in text) and _DER_PRIVATE.search(
        re.sub(r"\s*\n\s*", "", text)
    ):
        found.add(PRIVATE_KEY)
    if "kty" in text and PRIVATE_KEY not in found:
        # a JSON Web Key written as text, escaped in a string or a CSV cell: its "d" is the private key
        plain = re.sub(r'\\+"|""', '"', text)
        if _JWK_TYPE.search(plain) and any(_looks_random(d.group(1), 32) for d in _JWK_D.finditer(plain)):
            found.add(PRIVATE_KEY)


_JWK_TYPE = re.compile(r'"kty"\s*:\s*"(?:RSA|EC|OKP)"')
_JWK_D = re.compile(r'"(?:d|p|q|dp|dq)"\s*:\s*"([A-Za-z0-9_\-]{32,})"')


# --------------------------------------------------------------------------------------------
# Seventh round: door codes in any language, one-time codes, a lock's guest codes, login forms
# --------------------------------------------------------------------------------------------

# A door, gate or intercom (English is read by _PIN_KEYWORD) and a word for "code", in either
# order and close together, then a keypad value: "Kod do domofonu to 7429", "Der Code für die
# Haustür lautet *6170", "マンションのオートロックの番号は61664#です".
_DOOR_WORD = re.compile(  # lower-cased text
    r"(?<!\w)(?:(?<=del\s)portal|(?<=do\s)portal|portail|porte|porta|port[ãa]o|port[óo]n|puerta|portone|cancello|deur"
    r"|voordeur|t[üu]r|haust[üu]r|eingang|domofon\w*|drzwi|bram[ay]|klatk\w*|домофон\w*|подъезд\w*|під['’]їзд\w*"
    r"|двер\w*|ворот\w*|kap[ıi](?:s[ıi]\w*|n[ıi]\w*|da|ya)?|cửa(?!\s+hàng)|pintu|gerbang|εισόδου|είσοδο\w*|πόρτα\w*"
    r"|דלת|השער|باب|بوابة|در\s+ورودی|درب)(?!\w)"
    r"|(?<!\S)(?:गेट|दरवाज|গেট|দরজা)|ประตู|オートロック|玄関|门禁|大门"
)
_DOOR_CODE_WORD = re.compile(
    r"(?<!\w)(?:code|kod|kodu|kode|код|c[óo]digo|codice|mã|κωδικός|קוד|הקוד|رمز|کد)(?!\w)"
    r"|(?<!\S)(?:कोड|কোড)|รหัส|番号|暗証"
)
_DOOR_HINTS = _hints(
    "porta", "porte", "portã", "portó", "puerta", "cancello", "deur", "tür", "eingang", "domofon", "drzwi", "bram",
    "klatk", "домофон", "подъезд", "під", "двер", "ворот", "kapı", "kapi", "cửa", "pintu", "gerbang", "εισόδ",
    "είσοδ", "πόρτ", "דלת", "שער", "باب", "بوابة", "در", "गेट", "दरवाज", "গেট", "দরজা", "ประตู", "オートロック", "玄関",
    "门禁", "大门",
)  # fmt: skip
_DOOR_CODE_HINTS = _hints(
    "code", "kod", "код", "códig", "codig", "codice", "mã", "κωδικ", "קוד", "رمز", "کد", "कोड", "কোড", "รหัส", "番号",
    "暗証",
)  # fmt: skip
_KEYPAD_VALUE = re.compile(
    r"^[^\d\n.!?;]{0,30}?(?<![A-Za-z0-9_-])([#*]?|[A-Za-z](?=\d{4,6}(?!\d)))(\d{4,8})([#*]?)(?![\d.,/:-]?\d)"
)  # a keypad's letter first too: "kod do bramy: K5683"
_POSTAL = re.compile(r"(?:post|zip|plz|cep|cap|почтов|indeks)\w*\W{0,3}$")
# a code word qualified as anything but a door's: "código postal", "код товара", "ürün kodu"
_NOT_A_DOOR_CODE = re.compile(
    r"(?i)post|zip|pocztow|\bpos\b|bưu|ไปรษณีย์|reserva|booking|order|course|product|tracking|region|товар|регион"
    r"|почтов|منتج|البريد|ürün|sipariş|kargo|hàng|προϊόν|παραγγελ|ταχυδρομ|produkt|bestell|artikel|prodotto|ordine"
    r"|produit|commande|pedido|producto|rejs|lot|flight|vuelo|model|train|tren|zug|поезд|ट्रेन|ट्रैन|বাস|bus"
    # an order's, a booking's, a coupon's or a loyalty card's code in Persian, Hindi, Romanian
    r"|loyalty|coupon|voucher|promo|discount|سفارش|رزرو|پیگیری|رهگیری|تخفیف|کوپن|باشگاه\s+مشتریان|ऑर्डर|बुकिंग"
    r"|आरक्षण|ट्रैकिंग|कूपन|डिस्काउंट|छूट|comenz|comanda\s+(?:nr|num)|comandă\s+(?:nr|num)|rezervar|fidelitate|reducere|cupon"
)


def _scan_door_codes(line: str, low: str, found: set[str]) -> None:
    if PIN in found or not _has(low, _DOOR_HINTS) or not _has(low, _DOOR_CODE_HINTS):
        return
    doors = [m.span() for m in _DOOR_WORD.finditer(low)]
    if not doors:
        return
    for c in _DOOR_CODE_WORD.finditer(low):
        if _POSTAL.search(low[max(0, c.start() - 16) : c.start()]):
            continue  # a postal code: "Postleitzahl-Code", "zip code"
        for start, end in doors:
            between = low[min(c.end(), end) : max(c.start(), start)]
            if -40 <= start - c.end() <= 40 and not re.search(r"[\n,;،؛।]", between):  # one clause
                v = _KEYPAD_VALUE.match(line[max(c.end(), end) : max(c.end(), end) + 50])
                # the words around the code word say whose code it is: a door's, not a product's
                around = low[min(c.start(), start) : max(c.end(), end) + (v.start(2) if v else 0)]
                if v and _NOT_A_DOOR_CODE.search(around):
                    continue
                if v and (v.group(1) or v.group(3) or not re.fullmatch(r"(?:19|20)\d\d", v.group(2))):
                    found.add(PIN)
                    return


# A verification code named in more languages: Estonian, Hungarian, Romanian, Finnish, Danish,
# Norwegian, Swedish, Dutch, Italian, Polish, Czech, Slovak, Croatian/Serbian, Slovene, Turkish,
# Indonesian, Malay, Vietnamese, Bulgarian, Greek, Lithuanian, Latvian, Hebrew, Arabic, Persian,
# Hindi, Bengali, Thai, Swahili, Catalan, Japanese; German's "Bestätigungscode" and Polish's "kod
# weryfikacyjny" are read with the code before them too.
_OTP_WORDS = (
    r"kinnituskood\w*|ellen[őo]rz[őo]\s+k[óo]d\w*|egyszeri\s+k[óo]d\w*|cod(?:ul)?\s+de\s+verificare"
    r"|vahvistuskood\w*|varmistuskood\w*|kertak[äa]ytt[öo]kood\w*|engangskode\w*|verifikationskode\w*"
    r"|verifieringskod\w*|eng(?:å|a)ngskod\w*|verificatiecode|codice\s+di\s+verifica|kod\s+(?:weryfikacyjny|sms)"
    r"|ov[ěe][řr]ovac[íi]\s+k[óo]d|overovac[íi]\s+k[óo]d|verifikacijsk[iaio]\s+ko[dk]\w*|do[ğg]rulama\s+kodu"
    r"|kode\s+(?:verifikasi|otp)|kod\s+pengesahan|m[ãa]\s+(?:x[áa]c\s+minh|otp)|код\s+за\s+верификация"
    r"|κωδικ[όο]ς\s+επαλ[ήη]θευσης|verifik[āa]cijas\s+kods|קוד\s+ה?אימות|رمز\s+التحقق|सत्यापन\s+कोड"
    r"|वेरिफ़िकेशन\s+कोड|ओटीपी|যাচাইকরণ\s+কোড|รหัสยืนยัน|msimbo\s+wa\s+uthibitisho|nambari\s+ya\s+uthibitisho"
    r"|codi\s+de\s+verificaci[óo]|ワンタイムパスワード|best[äa]tigungscode|verifizierungscode"
)
# A one-time code a service sent: "Your Chase verification code is 759928", "G-341147 is your
# Google verification code", "您的验证码是240471", "Code de vérification WhatsApp : 400988".
_OTP = re.compile(
    r"(?i)(?<![a-z])(?:verification|one[-\s]?time|otp|log-?in|sign[-\s]?in|authentication|2fa|mfa|sms)"
    r"\s+(?:code|passcode|pin)\b[^\d\n]{0,24}?(?<![\w-])(?:[A-Z]-)?(?!(?:19|20)\d\d(?!\d))(\d{4,8})(?![\d.,/:-]?\d)"
    r"|(?<![\w-])(?:[A-Z]-)?(\d{4,8})\s+is\s+your\s+(?:[\w.\-]+\s+){0,3}?"
    r"(?:verification|log-?in|sign-?in|one-time|authentication|otp|security)\s+(?:code|pin)"
    r"|(?:验证码|驗證碼|認証コード|確認コード|인증\s*번호|인증\s*코드)[^\d\n]{0,6}?(\d{4,8})(?!\d)"
    r"|code\s+de\s+(?:v[ée]rification|connexion|confirmation\s+sms)[^\d\n]{0,24}?(\d{4,8})(?!\d)"
    r"|c[óo]digo\s+de\s+(?:verificaci[óo]n|verifica[çc][ãa]o|acceso|acesso)[^\d\n]{0,24}?(\d{4,8})(?!\d)"
    r"|(?:best[äa]tigungs|verifizierungs|anmelde|einmal)code[^\d\n]{0,24}?(\d{4,8})(?!\d)"
    r"|код\s+(?:подтверждения|проверки|для\s+входа|підтвердження)[^\d\n]{0,24}?(\d{4,8})(?!\d)"
    # a verification code named in more languages (above)
    r"|(?:" + _OTP_WORDS + r")[^\d\n]{0,24}?(\d{4,8})(?!\d)"
    # and the code first, as the messages in those languages put it ("448812 on sinu kinnituskood",
    # "123456 to Twój kod weryfikacyjny")
    r"|(?<![\w-])(?!(?:19|20)\d\d(?!\d))(\d{4,8})\s+(?:[^\s\d]+\s+){0,3}?(?:" + _OTP_WORDS + r")"
)
# A confirmation code is a booking's as often as a login's ("mã xác nhận A6349647" for the
# dentist): one counts only where the line says it came by SMS.
_OTP_CONFIRM = re.compile(
    r"(?i)(?<![a-z])(?:meger[őo]s[íi]t[őo]\s+k[óo]d\w*|cod(?:ul)?\s+de\s+confirmare|bekr(?:æ|ae)ftelseskode\w*"
    r"|bekreftelseskode\w*|bekr(?:ä|a)ftelsekod\w*|bevestigingscode|codice\s+di\s+conferma"
    r"|kod\s+potwierdzaj[ąa]cy|potvrzovac[íi]\s+k[óo]d|potrditven[ai]\s+kod[ao]|onay\s+kodu|m[ãa]\s+x[áa]c\s+nh[ậa]n"
    r"|код\s+за\s+потвърждение|κωδικ[όο]ς\s+επιβεβα[ίι]ωσης|patvirtinimo\s+kod\w*|apstiprin[āa]juma\s+kods"
    r"|رمز\s+التأكيد|کد\s+(?:تأیید|تایید))[^\d\n]{0,24}?(\d{4,8})(?!\d)"
)
_OTP_HINTS = _hints(
    "verif", "vérif", "one-time", "one time", "otp", "login", "log-in", "sign-in", "sign in", "authentication", "2fa", "mfa",
    "sms code", "验证码", "驗證碼", "認証コード", "確認コード", "인증", "connexion", "acceso", "acesso", "bestätigungs",
    "bestatigungs", "anmelde", "einmalcode", "подтвержд", "провер", "для входа", "підтвердж",
    "kinnitus", "ellenőrz", "ellenorz", "megerősít", "megerosit", "egyszeri", "verificare", "confirmare", "vahvistus",
    "varmistus", "kertakäyt", "kertakayt", "bekræft", "bekraeft", "bekreft", "engangs", "verifikation", "verifiering",
    "bekräft", "bekraft", "engångs", "verificatie", "bevestiging", "verifica", "conferma", "weryfik", "potwierdz",
    "kod sms", "ověřov", "overov", "potvrzov", "verifikacij", "potrditv", "doğrulama", "dogrulama", "onay kodu",
    "verifikasi", "kode otp", "pengesahan", "xác minh", "xac minh", "xác nhận", "xac nhan", "mã otp", "ma otp",
    "потвържд", "верификац", "επαλ", "επιβεβ", "patvirtin", "verifikāc", "verifikac", "apstiprin", "אימות",
    "التحقق", "التأكيد", "تأیید", "تایید", "सत्यापन", "वेरिफ़िकेशन", "ओटीपी", "যাচাই", "ยืนยัน", "uthibitisho",
    "verificació", "verificacio", "ワンタイム",
)  # fmt: skip


_FOUR_DIGITS = re.compile(r"\d{4}")  # what every one-time code above holds


def _scan_one_time_codes(line: str, low: str, found: set[str]) -> None:
    if not _FOUR_DIGITS.search(line):
        return
    if not _has(low, _OTP_HINTS):
        return
    if any(not _IN_REFERENCE.search(line, max(0, m.start(m.lastindex or 0) - 1), m.end(m.lastindex or 0) + 1) for m in _OTP.finditer(line)):
        found.add(ONE_TIME_CODE)
    elif "sms" in low and _OTP_CONFIRM.search(line) and not _BOOKED.search(low):
        found.add(ONE_TIME_CODE)  # a confirmation code by SMS, not a booking's or an order's


_IN_REFERENCE = re.compile(r"^/|/$|^\d+/")  # INV/20240512/MPL/4471: a reference's part
_BOOKED = re.compile(
    r"(?:booking|reservation|hotel|rezerv|rezerwacj|objedn|κράτησ|đặt chỗ|đặt bàn|đặt phòng|prenotazion|bestilling"
    r"|bordbestilling|reserv|otel|sipari|pesanan|pedido|commande|bestellung|randevu|lịch hẹn|termin)"
)


# A smart lock's or keypad's code for someone: "keypad: guest code for the cleaner is 391412".
_GUEST_CODE = re.compile(
    r"(?i)(?<![a-z])(?:guest|cleaner|visitor|temporary|temp|dog\s*walker|babysitter|sitter|nanny|family|user|master"
    r"|admin|owner|delivery)\s+(?:access\s+)?(?:code|pin|passcode)(?![a-z])"
)


_GUEST_VALUE = re.compile(
    r"(?i)^[^\n.!?;]{0,50}?(?:\bis\b|\bwas\b|:|=|\bto\b)\s*(?:now\s+)?(?!(?:19|20)\d\d(?!\d))[#*]?\d{4,8}[#*]?"
    r"(?![\d.,/:-]?\d)"
)


def _scan_guest_codes(line: str, low: str, found: set[str]) -> None:
    if PIN in found or not _has(low, ("keypad", " lock", "lock ", "door", "gate", "garage", "alarm")):
        return
    for m in _GUEST_CODE.finditer(line):
        if _GUEST_VALUE.match(line[m.end() : m.end() + 80]):
            found.add(PIN)
            return


# A login form with its password filled in: <input type="password" name="pass" value="...">.
_INPUT_PASSWORD = re.compile(
    r"(?is)<input\b(?=[^>]*\btype\s*=\s*[\"']?password\b)[^>]*?\bvalue\s*=\s*([\"'])([^\"'\n]{3,128})\1"
)


def _scan_login_forms(line: str, low: str, found: set[str]) -> None:
    if "<input" in low and "password" in low:
        for m in _INPUT_PASSWORD.finditer(line):
            if _plausible_password(m.group(2)):
                found.add(PASSWORD)
                return



# --------------------------------------------------------------------------------------------
# Codes and passwords named in the languages the rules above do not read
# --------------------------------------------------------------------------------------------
# India's scripts (where "code", "PIN" and "password" are borrowed and spelled out), Urdu,
# Persian, Georgian, Armenian, Serbian, Romanian, Icelandic and the compounds of the Nordic
# languages: a thing a code opens (a door, a gate, an alarm, a safe, a card, a login that sent
# a code) and a word for "code" in one clause, then a keypad's value; or a word for
# "password" and a value a password could be. Words are as ``_fold`` and ``_lower`` leave them
# (joiners removed). One table per role, so a language is added in one place.
_ML_CODE_WORDS = (
    "कोड", "কোড", "குறியீடு", "குறியீட்டு", "கோட்", "கோடு", "కోడ్", "ಕೋಡ್", "കോഡ്", "કોડ", "ਕੋਡ", "କୋଡ", "کوڈ",
    "کد", "کُد", "კოდი", "კოდს", "კოდ", "կոդը", "կոդ", "шифра", "шифру", "šifra", "šifru", "sifra", "codul", "cod",
    "kóði", "kóðinn", "kódja", "kód", "kods", "kodas", "kood", "koodi", "kode", "koden", "kod", "kodu", "mã",
    "комбинација", "комбинацију", "kombinacija", "kombinaciju", "combinația", "combinatia", "combinaţia", "सांकेतिक",
)  # fmt: skip
# a thing a code opens; the kind it makes (a login's code is a one-time code)
_ML_THINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (PIN, (  # doors, gates, entrances
        "दरवाज", "दरवाज़", "दाराच", "गेट", "দরজা", "গেট", "கதவு", "கதவின்", "கேட்", "வாயில்", "తలుపు", "గేట్", "ಬಾಗಿಲ", "ಗೇಟ್",
        "വാതിൽ", "ഗേറ്റ്", "દરવાજ", "ગેટ", "ਦਰਵਾਜ", "ਗੇਟ", "دروازے", "دروازہ", "گیٹ", "در ورودی", "درب", "კარის", "ჭიშკრის",
        "შესასვლელის", "დომოფონის", "դռան", "դարպասի", "մուտքի", "врата", "капије", "ulaza", "vrata", "kapije",
        "ușii", "uşii", "usii", "porții", "portii", "interfonului", "hurðar", "hurð-", "hlið-", "útidyra", "låge-", "låg",
        "dør-", "gadedør-", "opgang", "dörr-", "portti-", "portin", "oven", "ovi", "ukse", "värava", "durvju", "vārtu",
        "durų", "vartų", "laukujų", "kapu-", "kaputa",
    )),
    (PIN, (  # alarms
        "अलार्म", "অ্যালার্ম", "এলার্ম", "அலாரம்", "అలారం", "ಅಲಾರಂ", "ಅಲಾರ್ಮ್", "അലാറം", "એલાર્મ", "અલાર્મ", "ਅਲਾਰਮ",
        "الارم", "دزدگیر", "აზდ", "სიგნალიზაციის", "განგაშის", "ազդանշանի", "аларма", "alarma", "alarmei",
        "þjófavarnar", "þjófavarn", "öryggiskerfis", "hälytys", "riasztó", "signalizacijos", "signalizācijas", "alarmu",
        "สัญญาณกันขโมย",
    )),
    (PIN, (  # safes, lockers, lock boxes
        "तिजोरी", "लॉकर", "সিন্দুক", "লকার", "பெட்டக", "பெட்டகத்", "லாக்கர்", "లాకర్", "ఇనుప పెట్టె", "ಲಾಕರ್", "ലോക്കർ",
        "તિજોરી", "લોકર", "ਤਿਜੋਰੀ", "ਲਾਕਰ", "تجوری", "لاکر", "گاوصندوق", "صندوق", "სეიფის", "სეიფი", "պահարանի",
        "պահատուփի", "сефа", "сеф", "sefa", "sef", "seifului", "seif", "öryggisskáps", "skáps", "pengeskab", "kassaskåp",
        "kassakaapin", "széf", "seifa", "seifo", "ตู้เซฟ", "保险箱", "保險箱", "保险柜", "保險櫃",
    )),
    (PIN, (  # cards
        "कार्ड", "एटीएम", "কার্ড", "এটিএম", "கார்டு", "கார்ட்", "ஏடிஎம்", "కార్డ్", "ఏటీఎం", "ಕಾರ್ಡ್", "ಎಟಿಎಂ",
        "കാർഡ്", "എടിഎം", "કાર્ડ", "એટીએમ", "ਕਾਰਡ", "ਏਟੀਐਮ", "کارڈ", "اے ٹی ایم", "کارت", "ბარათის", "քարտի",
        "картице", "kartice", "cardului", "kortsins", "korts",
    )),
    (ONE_TIME_CODE, (  # a login's or a payment's confirmation
        "सत्यापन", "पुष्टि", "पुष्टिकरण", "वेरिफिकेशन", "वेरिफ़िकेशन", "पडताळणी", "যাচাই", "যাচাইকরণ", "নিশ্চিতকরণ",
        "ভেরিফিকেশন", "சரிபார்ப்பு", "உறுதிப்படுத்தல்", "உறுதிப்படுத்தும்", "ధృవీకరణ", "నిర్ధారణ", "ಪರಿಶೀಲನಾ", "ಪರಿಶೀಲನೆ",
        "ದೃಢೀಕರಣ", "സ്ഥിരീകരണ", "പരിശോധന", "ચકાસણી", "પુષ્ટિ", "વેરિફિકેશન", "ਪੁਸ਼ਟੀ", "ਤਸਦੀਕ", "ਵੈਰੀਫਿਕੇਸ਼ਨ",
        "تصدیقی", "تصدیق", "تایید", "تأیید", "ورود", "დადასტურების", "ვერიფიკაციის", "հաստատման", "ստուգման",
        "потврде", "потврду", "верификације", "potvrde", "potvrdu", "verifikacije", "verificare", "confirmare",
        "staðfestingar", "staðfesting", "bekræftelses", "bekreftelses", "bekräftelse", "vahvistus", "ellenőrző",
        "megerősítő", "apstiprinājuma", "patvirtinimo", "pengesahan", "підтвердження", "ยืนยัน",
    )),
)
# words that are a code's name on their own: a PIN, a one-time password, the Nordic compounds
_ML_SELF_NAMED: tuple[tuple[str, tuple[str, ...]], ...] = (
    (PIN, (
        "पिन", "পিন", "பின்", "పిన్", "ಪಿನ್", "പിൻ", "પિન", "ਪਿੰਨ", "ପିନ", "پن", "پین", "პინ", "պին",
        "pin-ul", "pinul", "pin-kóði", "pin-númer",
    )),
    (ONE_TIME_CODE, ("ओटीपी", "ওটিপি", "ஓடிபி", "ఓటీపీ", "ಒಟಿಪಿ", "ഒടിപി", "ઓટીપી", "ਓਟੀਪੀ", "او ٹی پی")),
)
# compounds that end in a code word: "lågekode", "hurðarkóði", "þjófavarnarkóði", "ajtókód"
_ML_COMPOUND = re.compile(
    r"(?<![^\W\d_])(?:låge|låg|dør|gadedør|opgang|port|dörr|larm|alarm|boks|hurðar|þjófavarnar|öryggis|staðfestingar"
    r"|aðgangs|hlið|bekræftelses|bekreftelses|ovi|portti|hälytys|vahvistus|ajtó|kapu|riasztó|széf)"
    r"(?:kode|koden|kod|kóði|kóðinn|koodi|kód|kódja)(?![^\W\d_])"
)
# a PIN word that is a postal code's name: India's "PIN code" (पिन कोड) is its postcode
_ML_POSTAL = re.compile(
    r"(?:पिन|পিন|பின்|పిన్|ಪಿನ್|പിൻ|પિન|ਪਿੰਨ|پن)\s*(?:कोड|কোড|கோட்|கோடு|குறியீடு|కోడ్|ಕೋಡ್|കോഡ്|કોડ|ਕੋਡ|کوڈ)"
)
_ML_PASSWORD = re.compile(
    r"(?<![^\W\d_])(?:पासवर्ड|पासवड|पास वर्ड|পাসওয়ার্ড|কাউন্টসিগন্যাল|கடவுச்சொல்|கடவுச்சொல்லு"
    r"|பாஸ்வேர்ட்|பாஸ்வேர்டு|పాస్వర్డ్|సంకేతపదం|ಪಾಸ್ವರ್ಡ್|ಗುಪ್ತಪದ|പാസ്വേഡ്|പാസ്വേർഡ്|પાસવર્ડ|ਪਾਸਵਰਡ|ପାସୱାର୍ଡ"
    r"|پاس ورڈ|پاسورڈ|پاس‌ورڈ|رمز عبور|رمز ورود|گذرواژه|پسورد|პაროლი|პაროლს|პაროლ|գաղտնաբառը|գաղտնաբառ"
    r"|лозинка|лозинку|lozinka|lozinku|parola|parolă|lykilorð|lykilorðið|kata laluan|kata sandi|mật khẩu|รหัสผ่าน"
    r"|κωδικός πρόσβασης|κωδικός wifi|κωδικός του wifi|κωδικός wi-fi|wifi κωδικός|κωδικος wifi|salasana|jelszó|jelszava"
    r"|parool|parole|slaptažodis|слаптажодис|nenosiri|neno la siri)(?![^\W\d_])"
)
# Latvian "parole" is English's release from prison too: a value after it counts when "parole" is
# followed by ":", "=", a dash or "ir", or when the value is a strong password ("Banka parole Zv41gz!2024")
_PAROLE_SAID = re.compile(r"\s*[:=—–-]|\s+ir\s")
_ML_HINT = re.compile(
    "|".join(
        re.escape(w)
        for w in sorted(
            {*_ML_CODE_WORDS, *(w for _, ws in _ML_SELF_NAMED for w in ws)}
            | {"पास", "পাস", "கடவு", "பாஸ", "పాస", "ಪಾಸ", "ಗುಪ್ತ", "പാസ", "પાસ", "ਪਾਸ",
               "پاس", "رمز", "گذرواژه", "پسورد", "პაროლ", "գաղտնաբառ", "лозин", "lozin", "parol", "lykilorð",
               "kata laluan", "kata sandi", "mật khẩu", "รหัส", "κωδικ", "salasana", "jelsz", "slaptažod", "nenosiri",
               "neno la siri"},
            key=len,
            reverse=True,
        )
    )
)
_ML_CODE = re.compile(
    r"(?<![^\W\d_])(?:" + "|".join(re.escape(w) for w in sorted(_ML_CODE_WORDS, key=len, reverse=True)) + r")(?![^\W\d_])"
)

def _ml_word(word: str) -> str:
    """A thing's word as a pattern: a stem in India's and the Perso-Arabic scripts (their
    endings join the word) and where the table marks one ("hlið-": "hliðinu"), else a whole
    word in the alphabets ("oven" is a Finnish door's, not the start of "ovenproof")."""
    if word.endswith("-"):
        return re.escape(word[:-1])
    whole = word[0].isascii() or "\u00c0" <= word[0] <= "\u052f"  # Latin, Greek, Cyrillic
    return re.escape(word) + (r"(?![^\W\d_])" if whole else "")


_ML_THING = [
    (kind, re.compile(r"(?<![^\W\d_])(?:" + "|".join(_ml_word(w) for w in sorted(ws, key=len, reverse=True)) + r")"))
    for kind, ws in _ML_THINGS
]
_ML_SELF = [
    (kind, re.compile(r"(?<![^\W\d_])(?:" + "|".join(re.escape(w) for w in sorted(ws, key=len, reverse=True)) + r")(?![^\W\d_])"))
    for kind, ws in _ML_SELF_NAMED
]
# the value after the name, in the same clause: a keypad's ("#3824", "6233#"), a one-time
# code in two halves ("682 292"), a dial's combination ("19-12-0", "R30 L4 R35")
_ML_VALUE = re.compile(
    r"[^\d\n.!?;|]{0,24}?(?<![\w-])"
    r"(?:(?P<keypad>[#*]?(?!(?:19|20)\d\d(?!\d))\d{4,8}[#*]?)(?![\d.,/:-]?\d)"
    r"|(?P<halves>\d{3}[ \-]\d{3})(?![\d.,/:-]?\d)"
    r"|(?P<dial>\d{1,2}(?:\s*[-–]\s*\d{1,2}){2,3}|\d{1,2}(?:\s\d{1,2}){2}|[RL]\d{1,2}(?:\s+[RL]\d{1,2}){2,3})(?![\d.,/:-]?\d))"
)
_ML_PASSWORD_VALUE = re.compile(r"[^\n]{0,16}?(?:[:=\-—–→]\s*|\s)(?P<val>[^\s\"'`,;]{6,64})")
_ML_CLAUSE_BREAK = re.compile(r"[\n,;،؛।]")


def _ml_value(line: str, at: int, kind: str, comma_ends: bool = False) -> bool:
    v = _ML_VALUE.match(line, at)
    if v is None or (comma_ends and re.search(r"[,،؛।]", v.group())):
        return False  # after Serbian "kod" ("at"), a comma ends the clause: "kod vrata, 1830 je bilo"
    if v.group("halves") and kind != ONE_TIME_CODE:
        return False  # "123 456" is a one-time code's shape; a keypad's has no gap
    return not v.group("dial") or kind == PIN


def _scan_named_in_more_languages(line: str, low: str, found: set[str]) -> None:
    if not _ML_HINT.search(low):
        return
    if PIN not in found or ONE_TIME_CODE not in found:
        things = [(kind, t.span()) for kind, thing in _ML_THING for t in thing.finditer(low)]  # once a line
        for m in _ML_CODE.finditer(low) if things else ():
            if _NOT_A_DOOR_CODE.search(near := low[max(0, m.start() - 24) : m.end() + 24]) or "poștal" in near:
                continue  # a product's, a postal or a booking's code
            for kind, (start, end) in things:
                if start < m.start() - 30 or end > m.end() + 30:
                    continue
                lo, hi = min(start, m.start()), max(end, m.end())
                if _ML_CLAUSE_BREAK.search(low, lo, hi) or _ML_POSTAL.search(low, lo, hi):
                    continue
                if _ml_value(line, hi, kind, comma_ends=m.group() in ("kod", "код")):
                    found.add(kind)
                    return
        for m in _ML_COMPOUND.finditer(low):
            kind = ONE_TIME_CODE if m.group().startswith(("staðfest", "bekræft", "bekreft", "vahvist")) else PIN
            if _ml_value(line, m.end(), kind):
                found.add(kind)
                return
        for kind, self_named in _ML_SELF:
            for m in self_named.finditer(low):
                if _ML_POSTAL.match(low, m.start()):
                    continue
                v = _ML_VALUE.match(line, m.end())
                if v and v.group("keypad") and postal_pin(v.group("keypad"), low):
                    continue
                if _ml_value(line, m.end(), kind):
                    found.add(kind)
                    return
    if PASSWORD not in found:
        for m in _ML_PASSWORD.finditer(low):
            v = _ML_PASSWORD_VALUE.match(line, m.end())
            if v and m.group() == "parole" and not _PAROLE_SAID.match(low, m.end()) and not _strong_password(v.group("val")):
                continue
            if v and not _CJK.search(v.group("val")) and _plausible_password(v.group("val"), strict=True):
                val = v.group("val")
                if not val.isascii() and not any(ch.isdigit() for ch in val):
                    continue  # a word of the sentence, not a value
                found.add(PASSWORD)
                return


# An account written as its user and its password side by side, the way notes keep logins:
# "Crunchyroll — sofia5@fastmail.com / Maple_waffle14$", "insurance portal  obrien@web.de
# Pixel.falcon90!", "router admin login admin / wRXQxN$Pv6DS at 192.168.1.1". An e-mail
# address is the user wherever it stands; any other name only before " / " on a line that
# names a login. The value must read as a password (see ``_account_value``) and end its clause.
_PAIR_END = r"(?=\s*$|\s*[,;]|\s+(?:and|at|on|for|via|from|in)\b|\s*[(\[]|\s+[-—–]\s)"
_ACCOUNT_PAIR = re.compile(
    r"(?<![\w@.+\-/])(?P<user>[A-Za-z][\w.\-]{1,39})(?P<sep>\s+/\s+)"
    r"[\"'`]?(?P<val>[^\s\"'`]{8,64})[\"'`]?" + _PAIR_END
)
# an e-mail address is the user wherever it stands, whatever stands before it on the line
_EMAIL_PAIR = re.compile(
    r"(?<![\w@.+\-/])(?P<user>[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*\.[A-Za-z]{2,})"
    r"(?P<sep>\s+/\s+|\s*\|\s*|\s+[—–-]\s+|:\s*|\s{2,}|\s)"
    r"[\"'`]?(?P<val>[^\s\"'`,;]{8,64})[\"'`]?" + _PAIR_END
)
_EMAIL_LIKE = re.compile(r"[\w.+\-]+@[\w\-]+\.[A-Za-z]{2,}")
# words in title case and a number or year: a message's subject or a file's name after an
# address ("Statement_March2024", "BirthdayPlans2024"), not a password beside its login
_TITLED = re.compile(r"(?:[A-Z][a-z]{2,}[_\-.]?){2,}\d{0,4}")


def _titled_words(value: str) -> bool:
    """Each capitalised part a word (a vowel in every three letters or so), not random letters."""
    parts = re.findall(r"[A-Z][a-z]+", value)
    return all(len(p) <= 12 and sum(c in "aeiouy" for c in p.lower()) >= max(1, len(p) // 4) for p in parts)
_LOGIN_CONTEXT = _hints(
    "login", "log in", "log-in", "sign-in", "sign in", "account", "acct", "admin", "portal", "vpn", "console",
    "dashboard", "wordpress", "router", "site", "app ", "user", "server", "streaming", "creds", "credentials",
)  # fmt: skip


def _account_value(value: str, email: bool) -> bool:
    """A value no one writes after a user but as its password: a strong one (three classes
    and a symbol, or a passphrase), or letters and digits a generator mixed; after an e-mail
    address, any random-looking run ("sommerhus379"), after a name only a generated one (not
    "Postgres / TimescaleDB2")."""
    if _EMAIL_LIKE.search(value) or "://" in value or value.startswith(("/", "+", "(", "#")):
        return False
    if "/" in value or "," in value or re.match(r"[A-Za-z]+:", value) or re.search(r"\d{6,}", value):
        return False
    if _strong_password(value):
        return True
    return _random_letters(value) or (
        len(value) >= 12 and _looks_random(value, 12) and bool(re.search(r"\d", value)) and (email or generated(value))
    )


# An OAuth client written as its id and its secret side by side ("client id acme-web /
# Xq9vT2mLp8Rz...", "client_id=acme:Xq9v..."): what follows the id is the client's secret.
_CLIENT_PAIR = re.compile(
    r"(?i)(?<![a-z])client[\s_\-]?id[\"']?\s*[:=]?\s*[\"']?[\w\-.~]{4,128}[\"']?(?:\s*[/|:]\s*|\s+[—–-]\s+)[\"']?(?P<val>[\w\-.~+/=]{16,128})"
)


def _scan_account_pairs(line: str, low: str, found: set[str]) -> None:
    if PASSWORD in found or BASIC_AUTH in found:
        return
    if "client" in low and GENERIC not in found:
        for c in _CLIENT_PAIR.finditer(line):
            val = c.group("val")
            if "/" in val and re.search(r"(?:^|/)[a-z][a-z\-]{3,}(?:[/.]|$)|\.[a-z]{2,4}$", val):
                continue  # a file's path after the id: "client id C-20931 / uploads/2024/c20931-intake.pdf"
            if _looks_random(val, 16) and not ID_SHAPE.fullmatch(val):
                found.add(GENERIC)
                return
    at = "@" in line
    for m in _EMAIL_PAIR.finditer(line) if at else ():
        value, sep = _strip(m.group("val")), m.group("sep").strip()
        if sep != "/" and (
            (_TITLED.fullmatch(value) and _titled_words(value) and not _has(low, _LOGIN_CONTEXT))
            or not (generated(value) or (_strong_password(value) and re.search(r"[!$%^&*?+=~@]", value)))
        ):
            continue  # "billing@stmarys.org: Statement#A7731", "mom@gmail.com | BirthdayPlans2024": a subject
        if _account_value(value, True):
            found.add(PASSWORD)
            return
    if not ("/" in line and _has(low, _LOGIN_CONTEXT)):
        return
    for m in _ACCOUNT_PAIR.finditer(line):
        if not _has(low[: m.start()], _LOGIN_CONTEXT):
            continue  # after a name, only " / " on a line that names a login
        value = _strip(m.group("val"))
        if _account_value(value, False):
            found.add(PASSWORD)
            return



# Three shapes that need no sentence around them: an app password as Google and Microsoft
# issue it (16 lower-case letters, in fours or not) after its name; a keypad value typed with
# its star or hash right after the thing it opens ("Gate *1910 then wait for the beep"); an
# Oracle connect descriptor with its password ("svc_app/<password>@//db.host:1521/ORCL").
_APP_PASSWORD = re.compile(r"(?i)\bapp(?:lication)?[\s\-]?passwor(?:d|t)\b\W{0,3}([a-z]{4}(?:[ \-]?[a-z]{4}){3})(?![a-z])")
_THING_KEYPAD = re.compile(
    r"(?i)(?<![a-z])(?:gate|door|garage|alarm|keypad|lockbox|key\s?box|key\s?safe|intercom)"
    r"\s*[:=]?\s*(?:\*\d{4,8}|(?<=gate)\s*#\d{4,8}|(?<=keypad)\s*#\d{4,8}|#\d{4,8}(?=\s+(?:then|and\s+press|press|enter|wait))"
    r"|\d{4,8}[#*])(?![\d#*])"
)
_ORACLE_CONNECT = re.compile(
    r"(?<![\w/.@-])([A-Za-z][\w$#]{1,29})/([^\s@/\"'`]{6,64})@"
    r"(?://?[\w.\-]+(?::\d{2,5})?(?:/[\w.$]+)?|(?P<ez>[\w.\-]+:\d{4,5}/[A-Za-z][\w.$]*))"  # EZConnect: "@host:1521/service"
)
# sqlplus and the other Oracle tools take "user/password@alias" (a tnsnames entry, a
# descriptor) after their name: "sqlplus scott/Tiger#2024@ORCL"
_ORACLE_TOOL = re.compile(
    r"(?i)\b(?:sqlplus|sqlcl|sql|connect|conn|expdp|impdp|exp|imp|rman|sqlldr)\s+(?:-\w+\s+)*"
    r"([A-Za-z][\w$#]{1,29})/([^\s@/\"'`]{6,64})@[\w.(\-]"
)


_FOUR_LETTER_WORDS = frozenset(
    """that with your this from they them then than have been were will when what also just only some more
    most over into like make mail work help open here there each does done goes much many must need able
    once well very even sure used uses page link sign send sent told said tell keep kept want your mine
    ours find give gave take took come came back next last year time good best same else""".split()
)  # fmt: skip


def _app_password(letters: str) -> bool:
    """Sixteen letters an app password is made of: lower case, not words ("then open mail
    also") nor the alphabet of a help page's example ("abcd efgh ijkl mnop")."""
    groups = re.findall(r"[a-z]{4}", letters.replace(" ", "").replace("-", ""))
    if letters.lower() != letters or len(groups) != 4:
        return False
    if sum(g in _FOUR_LETTER_WORDS or g in BIP39_WORDS for g in groups) >= 2:
        return False
    return not any(all(ord(b) - ord(a) == 1 for a, b in zip(g, g[1:], strict=False)) for g in groups)


# A code with the thing it opens after its value: "the code is 4827 for the gate", "combo
# '1939' on the shed padlock" (a product's, an error's or an order's code is no one's secret).
_CODE_FOR_THING = re.compile(
    r"(?i)(?<![a-z])(?P<what>[a-z]+\s+)?(?:code|combination|combo|pin|passcode)\s*(?:is|was|:|=)?\s*(?:now\s+|still\s+)?"
    r"[\"'`‘’“”]?(?P<val>[#*]?\d{4,8}[#*]?)[\"'`‘’“”]?,?\s+(?:for|to|on|opens|at|into|unlocks|to\s+get\s+into|gets\s+you\s+into)\s+"
    r"(?:(?:the|my|our|your|his|her|their)\s+|[a-z]+['’]s\s+)(?:[a-z]+\s+){0,2}?"
    r"(?P<thing>door|gate|garage|alarm|keypad|lock\s?box|key\s?box|key\s?safe|safe|locker|padlock|lock|shed|storage\s+unit"
    r"|mailbox|intercom|building|entry|lobby|entrance|apartment|flat|house)s?(?![a-z])"
)


_NOT_AN_OPENING = re.compile(  # whole words only: "apartment" holds "part", "motorcycle" "motor"
    r"(?i)(?<![a-z])(?:error|fault|status|model|part|serial|reference|ref|sku|item|area|dial|country|warranty|remote"
    r"|opener|motor|sensor|battery|fob|manual|colou?r|paint|pantone|ral|tax|county|zone|school|parcel|deed|district"
    r"|billing|budget|cost|procedure|medication|batch|room|postal|post|zip"
    r"|" + _NOT_A_DOOR_CODE.pattern.removeprefix("(?i)") + r")(?![a-z])"
)


# A value named after it as the token to use: "Use 7462-...-c4b6 as the exa api key", "use
# cmVmdGtu... as the jfrog access token". A random run, or a UUID (ids have no "key" after them).
_USE_AS_TOKEN = re.compile(
    r"(?i)\b(?:use|using|set|paste)\s+[\"'`]?(?P<val>[A-Za-z0-9][\w\-.+/=:]{15,511})[\"'`]?\s+as\s+(?:the|my|our|a|your|an)\s+"
    r"(?P<what>(?:[\w\-.]+\s+){0,3}?)(?:api[\s_\-]?key|access[\s_\-]?token|auth[\s_\-]?token|token|secret|api[\s_\-]?secret"
    r"|pat|password|credential)s?\b"
)


_USE_AS_NOT = re.compile(r"(?i)\b(?:test|tests|testing|mock|fixture|csrf|signing|rotation|algorithm|method|hook|example|sample|dummy)\b")


def _use_as_token(line: str, low: str, found: set[str]) -> None:
    for m in _USE_AS_TOKEN.finditer(line):
        val, what = m.group("val"), m.group("what")
        if _NOT_SECRET_CONTEXT.search(what) or _PLACEHOLDER.match(val) or _USE_AS_NOT.search(what + line[m.end() : m.end() + 40]):
            continue  # a signing method, a rotation hook, a test's or a mock's value
        if _looks_random(val) or ID_SHAPE.search(val) or _UUID_HEX.search(val.lower().replace("-", "")):
            found.add(GENERIC)
            return


# A Wi-Fi network's key after its name, as routers' stickers print it: digits only
# ("key: 69681196222692037188"), or in a language the password words do not list
# ("sandinya: rwus1fcp9qsk2"). WPA's keys are 8 to 63 characters.
_WIFI_PSK = re.compile(
    r"(?i)(?<![a-z])(?:wi-?fi|wlan|ssid)(?![a-z])[^\n]{0,60}?(?<![a-z])(?:key|clave|sandi(?:nya)?|password|passwort|senha"
    r"|contrase(?:ñ|n)a|wachtwoord|lösenord|heslo|hasło|şifre\w*|пароль|kunci|parola|lozinka|jelszó|salasana)"
    r"\s*[:=]\s*[\"'`«„]?(?P<val>[^\s\"'`»“”,;]{8,63})[\"'`»“”]?(?:[\s,;.]|$)"
)


# A meeting's passcode, which Zoom and Teams make of letters alone too ("passcode qfNPpo")
_MEETING_PASSCODE = re.compile(
    r"(?i)(?<![a-z])(?:zoom|teams|webex|meet|meeting|call)(?![a-z])[^\n]{0,60}?(?<![a-z])pass(?:code|word)\s*[:=]?\s*"
    r"(?P<val>[A-Za-z0-9.@*_\-]{5,16})(?![\w\-])"
)


# A secret kept in the memory's own key or namespace, the text saying how to read it out
# ("garage code = last 4 characters of this note's key", "append this note's key", "the
# final 4 digits of the u-number this memory is filed under"): the text names the secret
# and says part of it is the label the store keeps beside it.
_SELF_LABEL = re.compile(
    r"(?i)\b(?:this|the)\s+(?:memory|note|entry|record|item)(?:['’]s)?\s+(?:key|id|name|namespace|label)\b"
    r"|\b(?:this|the)\s+(?:memory|note|entry|record)\s+is\s+(?:filed|stored|saved|kept)\s+(?:under|in)\b"
    r"|\bu-number\b"
)
_DERIVED = re.compile(
    r"(?i)\b(?:last|final|first)\s+(?:\d{1,2}|two|three|four|five|six|eight)\s+(?:digits|characters|chars|letters)"
    r"|\bappend\b|\bthe\s+rest\s+is\b|\bthe\s+hex\b|\bdigits\s+of\b"
)
_NAMED_SECRET = re.compile(
    r"(?i)(?<![a-z])(?:(?P<pin>code|pin|combination|combo|passcode)|(?P<pw>password|passphrase|pw)|token|api\s+key|secret)(?![a-z])"
)


def _self_label(line: str, found: set[str]) -> None:
    if _SELF_LABEL.search(line) and _DERIVED.search(line) and (n := _NAMED_SECRET.search(line)):
        found.add(PIN if n.group("pin") else PASSWORD if n.group("pw") else GENERIC)


_WIFI_NOT = re.compile(r"(?i)\b(?:helpline|hotline|support|phone|call|ticket|order|account\s+number|customer\s+number)\b")


def _scan_plain_shapes(line: str, low: str, found: set[str]) -> None:
    if ("this" in low or "u-number" in low) and ("note" in low or "memory" in low or "entry" in low or "record" in low):
        _self_label(line, found)
    if PASSWORD not in found and "pass" in low and (p := _MEETING_PASSCODE.search(line)):
        val = p.group("val")
        mixed = re.search(r"[A-Z]", val[1:]) and re.search(r"[a-z]", val)
        if (mixed or (re.search(r"\d", val) and re.search(r"[A-Za-z]", val))) and generated(val):
            found.add(PASSWORD)  # not a word after it ("Password Reset", "passcode iPhone lockout")
    if " as " in low and GENERIC not in found:
        _use_as_token(line, low, found)
    if PASSWORD not in found and ("wi" in low or "wlan" in low or "ssid" in low):
        for w in _WIFI_PSK.finditer(line):
            val = w.group("val")
            if _WIFI_NOT.search(line, w.end()) or _WIFI_NOT.search(line, max(0, w.start("val") - 40), w.start("val")):
                continue  # "support key: 0800123456 is the ISP helpline"
            if val.isdigit() or (re.search(r"\d", val) and re.search(r"[^\W\d_]", val) and not _is_wordy(val)):
                found.add(PASSWORD)
                break
    if PIN not in found and ("code" in low or "comb" in low or "pin" in low):
        said = _spelled_digits(line) if _maybe_spelled(low) and _SPELLED.search(line) else line
        for c in _CODE_FOR_THING.finditer(said):
            val = c.group("val").strip("#*")
            after = said[c.start("thing") : c.end()] + " " + (said[c.end() :].split(None, 1) or [""])[0]  # the thing, the word after
            if _NOT_AN_OPENING.search(c.group("what") or "") or _NOT_AN_OPENING.search(after):
                continue
            if val != c.group("val") or not re.fullmatch(r"(?:19|20)\d\d", val):
                found.add(PIN)
                break
    if "pass" in low and "app" in low and (m := _APP_PASSWORD.search(line)) and _app_password(m.group(1)):
        found.add(PASSWORD)
    if ("*" in line or "#" in line) and _THING_KEYPAD.search(line):
        found.add(PIN)
    if "@" in line and "/" in line:
        for m in [*_ORACLE_CONNECT.finditer(line), *_ORACLE_TOOL.finditer(line)]:
            pw = m.group(2)
            if not _plausible_password(pw) or _PLACEHOLDER.match(pw):
                continue
            if m.re is _ORACLE_CONNECT and m.group("ez") and not (
                (re.search(r"[A-Za-z]", pw) and re.search(r"[\d!#$%&*+=?^~]", pw)) or _random_letters(pw) or (pw.isalpha() and pw.lower() != pw and generated(pw)) or pw.count("-") >= 3
            ):
                continue  # without "//", a password's shape: "node/exporter@monitor:9100/metrics" is a path
            found.add(CONNECTION_STRING)
            return


_DETECTORS: tuple[Callable[[str, str, set[str]], None], ...] = (
    _scan_tokens,
    _scan_wallets,
    _scan_urls,
    _scan_auth_headers,
    _scan_passwords,
    _scan_pins,
    _scan_keywords,
    _scan_config_pairs,
    _scan_near_keyword,
    _scan_prefixed_tokens,
    _scan_misc,
    _scan_security_answers,
    _scan_code_words,
    _scan_cookies,
    _scan_recovery_codes,
    _scan_code_sheet,
    _scan_vendor_tokens,
    _scan_door_codes,
    _scan_one_time_codes,
    _scan_guest_codes,
    _scan_login_forms,
    _scan_named_in_more_languages,
    _scan_account_pairs,
    _scan_plain_shapes,
)


def compile_patterns(
    patterns: Mapping[str, str | Pattern[str]] | None, what: str
) -> tuple[tuple[Pattern[str], str], ...]:
    """Validate a user's ``{kind name: regular expression}`` mapping once."""
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
    """Fullwidth letters and digits made plain, invisible format characters removed."""
    if text.isascii():
        return text
    return FORMAT_CHARS.sub("", unicodedata.normalize("NFKC", text))


# The TOTP secret the authenticator apps' documentation shows, and RFC 6238's test secret in
# base32: examples where the memory says they are ("the docs use ...", "a sample").
DOC_TOTP_EXAMPLES = ("JBSWY3DPEHPK3PXP", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
_DOCS_SAID = re.compile(r"(?i)(?<![@.\w-])(?:example|sample|docs|documentation|tutorial|rfc\s*6238|demo)(?![\w-]|\.\w)")  # not example.com
# What a private key's armour holds: base64 lines (or one run of them), not "...key omitted...".
_ARMOUR = re.compile(r"-----(?:BEGIN|END)[A-Z ]*PRIVATE KEY-----")
# a piece of base64 a key could be (even cut short: "MIIEowIBAAKCAQEA7V1d..."), not a word
_KEY_PIECE = re.compile(
    r"(?<![A-Za-z0-9+/])(?:(?=[A-Za-z0-9+/]*[0-9+/])|(?=(?:[a-z0-9+/]*[A-Z]){4}))[A-Za-z0-9+/]{10,}|[A-Za-z0-9+/]{24,}"
)


def scan_text(text: str, found: set[str]) -> None:
    """Every detector, line by line, then those that read the whole text: for text as
    written (or decoded)."""
    had_private_key = PRIVATE_KEY in found
    for line in _lines(_fold(text)):
        low = _lower(line)
        for detector in _DETECTORS:
            detector(line, low, found)
    scan_blocks(text, found, had_private_key)


def empty_armour(texts: Iterable[str]) -> bool:
    """Whether the texts hold a private key's armour and nowhere a piece of a key (the
    armour's lines may stand in other fields or list items than the key's): "-----BEGIN RSA
    PRIVATE KEY----- ...key omitted... -----END RSA PRIVATE KEY-----"."""
    texts = list(texts)
    if not any("PRIVATE KEY-----" in t for t in texts):
        return False
    if any(_PEM_BODY.search(t) or any(not _PATHLIKE.fullmatch(k.group()) for k in _KEY_PIECE.finditer(_ARMOUR.sub(" ", t))) for t in texts):
        return False
    return not _key_material(_ARMOUR.sub(" ", "\n".join(texts)))  # a body cut in short pieces is still one


_PATHLIKE = re.compile(r"/?(?:[a-z0-9]{1,24}/)+[a-z0-9]*")  # "/home/deploy/", "2024/05/12": a path or a date
_SPLIT_PIECES = re.compile(r"[\s|,.;:\-–—()\[\]<>\"'`]+")
_B64_PIECE = re.compile(r"[A-Za-z0-9+/=]+")


def _key_material(text: str) -> bool:
    """Base64 pieces of any length that together make a key's body (40 characters or more,
    most of the text): "MC4CAQA wBQYDK2 VwBCIEI ..." or one piece a list item."""
    total = chars = 0
    for tok in _SPLIT_PIECES.split(text):
        if not tok:
            continue
        chars += len(tok)
        if _B64_PIECE.fullmatch(tok) and (
            re.search(r"[0-9+/]", tok) or (sum(c.isupper() for c in tok) >= 2 and any(c.islower() for c in tok))
        ):
            total += len(tok)
    return total >= 40 and total >= 0.6 * chars


def scan_tokens_text(text: str, found: set[str]) -> None:
    """Token formats and card numbers only: for a token view (joined, reversed...)."""
    for line in _lines(_fold(text)):
        low = _lower(line)
        _scan_tokens(line, low, found)
        _scan_wallets(line, low, found)
        if card_spans(line):
            found.add(CREDIT_CARD)


def names_password(text: str) -> bool:
    """Whether a short text says "this is a password" ("the wifi password", "Apple ID passwort")."""
    low = _lower(text)
    return _has(low, _PW_HINTS) and _PW_KEYWORD.search(low) is not None


def passwordish(word: str) -> bool:
    """A single token that reads as a chosen password: letters and a digit, and a symbol or
    both cases."""
    return (
        _passwordish(word)
        and re.search(r"\d", word) is not None
        and (re.search(r"[^\w]", word) is not None or word.lower() != word)
    )


def testing(text: str) -> bool:
    """Whether ``text`` says it is about testing ("test_card", "from the Stripe docs")."""
    return _TEST_CONTEXT.search(text) is not None


def looks_random(token: str, min_len: int = 16) -> bool:
    """A machine-generated credential rather than words, a path or a number."""
    return _looks_random(token, min_len)


def card_spans(text: str) -> list[tuple[int, int]]:
    """Spans of Luhn- and issuer-checked payment card numbers in ``text``."""
    return _card_spans(text)
