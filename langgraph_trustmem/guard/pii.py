"""Personal identifiers: found, and replaced by placeholders when the app asks for it.

Personal data is not a secret. A user who asks the assistant to remember a phone number
or an email address wants it remembered; the store's trust labels (the memory's level)
protect it, as they protect every other personal memory. So the guard's default redacts
only what works as a credential:

* ``CARD`` payment card numbers (refused as secrets in the first place; redacted when an
  app turns refusal off),
* ``SSN`` US social security numbers (a national id used to prove identity to banks and
  agencies: an assistant needs to know there is one, not the number).

``EMAIL``, ``PHONE``, ``IP`` and ``IBAN`` (an account number printed on every invoice,
needed to pay someone, not an authenticator) are kept unless the app opts in, e.g.
``Guard(redact=PII_KINDS)``. :func:`redact_pii` on its own still redacts every kind.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Collection
from re import Pattern

import phonenumbers

from langgraph_trustmem.errors import ConfigurationError
from langgraph_trustmem.guard.detectors import card_spans

__all__ = ["DEFAULT_PII", "DEFAULT_REDACT", "PII_KINDS", "redact_pii"]

EMAIL, PHONE, SSN, CARD, IBAN, IP = "EMAIL", "PHONE", "SSN", "CARD", "IBAN", "IP"
PII_KINDS: frozenset[str] = frozenset({EMAIL, PHONE, SSN, CARD, IBAN, IP})
#: What :func:`redact_pii` redacts when no kinds are given: every kind.
DEFAULT_PII: frozenset[str] = PII_KINDS
#: What :class:`~langgraph_trustmem.guard.Guard` redacts by default: identifiers that work as
#: credentials. Other personal data is kept (see the module's docstring).
DEFAULT_REDACT: frozenset[str] = frozenset({SSN, CARD})

_EMAIL = re.compile(
    r"(?:(?<=mailto:)|(?<![\w.%+\-/:@]))[A-Za-z0-9](?:[A-Za-z0-9._%+\-]{0,62}[A-Za-z0-9_%+\-])?"
    r"@(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w\-@]|\.[A-Za-z0-9]|:[^\s])"
)
_SSN = re.compile(r"(?<![\w\-])(?!000|666|9\d\d)\d{3}([\- ]?)(?!00)\d{2}\1(?!0000)\d{4}(?![\w\-]|\.\d)")
_SSN_CONTEXT = re.compile(r"(?i)\b(?:ssn|ss#|social\s+security|social|tin|itin)\b")
# what a 3-2-4 number is when the words before it name another kind of number (not an
# insurance policy, account or case number: insurers used SSNs as member numbers)
_NOT_SSN_CONTEXT = re.compile(
    r"(?i)\b(?:part|model|serial|order|invoice|tracking|sku|item|product|catalog(?:ue)?|phone|fax|tel|batch|lot)"
    r"(?:\s+(?:number|no\.?|nr\.?|#))?\s*[:#]?\s*$"
)
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
        before = text[max(0, m.start() - 30) : m.start()]
        if not _SSN_CONTEXT.search(before) and (not m.group(1) or _NOT_SSN_CONTEXT.search(before)):
            continue  # nine bare digits count only after "SSN"; "part number 300-81-5223" is none
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
    return card_spans(text)


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
