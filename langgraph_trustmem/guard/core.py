"""Guard: the write-time check of everything a memory ``put`` persists.

A memory store is the wrong place for a credential: memories are copied into prompts,
embedded, backed up and shown to tools. Everything the store keeps is checked, not only
the text a sentence would hold: every string of the value at any depth, dict keys (and,
as context, what their names say the value is), integers that are card numbers, short
items that only make a token once joined, and the memory's key and namespace labels.

One check collects all those strings, adds the views in which a disguise is undone
(:mod:`.normalize`), runs our detectors (:mod:`.detectors`) on them and the rule engine
(:mod:`.engine`) once on all of them together, then refuses the value naming only the
kinds found, or returns it with the configured personal identifiers redacted.
"""

from __future__ import annotations

import datetime as _dt
import re
import uuid as _uuid
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from re import Pattern
from typing import Any

from langgraph_trustmem.errors import ConfigurationError, SecretRejected
from langgraph_trustmem.guard import chat, cues, detectors
from langgraph_trustmem.guard import learned as learned_reader
from langgraph_trustmem.guard.detectors import (
    card_spans,
    compile_patterns,
    looks_random,
    scan_text,
    scan_tokens_text,
)
from langgraph_trustmem.guard.engine import engine_scan, require_engine
from langgraph_trustmem.guard.fields import (
    SEALED_VALUE,
    field_kind,
    field_secret,
    label_secret,
    named_secret,
    parent_kind,
    sibling_secret,
)
from langgraph_trustmem.guard.normalize import (
    PIECE_LINE,
    decodes_to_prose,
    full_views,
    parts_joined,
    token_views,
)
from langgraph_trustmem.guard.pii import (
    CARD,
    DEFAULT_REDACT,
    SSN,
    _normalize_kinds,
    _normalize_regions,
    _redact,
)
from langgraph_trustmem.guard.rules import GENERATED_RULES

__all__ = ["Guard", "scan_secrets"]

_SCALARS = (type(None), bool, float, Decimal, _dt.date, _dt.time, _dt.timedelta, _uuid.UUID)
# Texts are separated in the engine's document by more blank lines than any of its rules
# looks across, so a keyword at the end of one string never pairs with the next string.
_SEPARATOR = "\n" * 9
_JOIN_MAX = 100  # items longer than this are texts, not pieces of a token
_SSN_FIELD = re.compile(r"(?i)^(?:ssn|ss_?no|social[_\s\-]?security(?:[_\s\-]?(?:number|no|num))?)$")
_SSN_VALUE = re.compile(r"^\s*\d{3}([\- ]?)\d{2}\1\d{4}\s*$")


# The engine's rules end a token at whitespace, a quote or a semicolon (they are written for
# code); in prose a token is often followed by ".", "," or ")". A copy of each text with such
# punctuation moved away from the token lets those rules match.
# (the one-character lookahead first: the 16-character lookbehind then runs at punctuation only)
_TRAILING_PUNCT = re.compile(r"(?=[.,:!?)\]}>])(?<=[A-Za-z0-9_\-=/+]{16})([.,:!?)\]}>]+)(?=\s|$)")
# A label this short and plain holds no secret our line detectors could find (token formats
# need 20 characters or a keyword and a separator); the engine and field rules still see it.
_PLAIN_LABEL = re.compile(r"[A-Za-z0-9_.@\-]{1,15}")
# A memory key an app made up: a word and a hex id (``mem_`` + ``uuid4().hex``, a SHA-1).
# Read as an id, not as an unknown vendor's token.
_STORE_HEX_KEY = re.compile(
    r"(?:mem|mems|memo|memory|memories|note|notes|fact|facts|entry|entries|item|items|rec|record)[_\-]"
    r"([0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})"
)
_EXPIRY = re.compile(r"(?:0[1-9]|1[0-2])\s*/\s*(?:\d{2}|20\d{2})")
_ULID_AFTER_ID = re.compile(r"\bid\s*[=:]\s*[\"']?[0-7][0-9A-HJKMNP-TV-Z]{25}(?![\w-])")
# A payment's record (its merchant, amount, reference): its authorisation code approves it.
_PAYMENT_RECORD = frozenset({"merchant", "amount", "rrn", "terminal", "total", "acquirer", "mcc"})
_BARCODE_FIELD = re.compile(r"(?i)ean(?:13|8)?|upc(?:_?a)?|gtin(?:13|14)?|isbn(?:13|10)?|barcode|sku")


_PUBLIC_RULES = frozenset({"posthog-project-api-key"})
_URI_PASSWORD = re.compile(r"[A-Za-z][\w+.\-]*://[^:/@\s]*:(?P<pw>[^@\s/]+)@")
# (a slot, not a weak password: "secret" or "test" in a live URI is a password)
_URI_SLOT = re.compile(r"EXAMPLE|<[^<>]{1,40}>|\$\{[^{}]{1,60}\}|\{\{[^{}]{1,60}\}\}|[*x•X]{3,}|%s|\[[^\[\]]{1,40}\]")


def _accept(rule_id: str, value: str) -> bool:
    """Our second opinion on the engine's generic password rule, which is written for code:
    in prose "password: stored in the vault" is not a password."""
    if rule_id in _PUBLIC_RULES:
        return False  # keys made to ship in a web page (PostHog's project key, phc_...)
    if rule_id == "generic-password":
        return detectors._plausible_password(value)
    if rule_id == "generic-credential-uri":  # scheme://USER:PASSWORD@HOST is a template
        pw = value.rpartition("@")[0].partition("://")[2].partition(":")[2]
        return bool(pw) and not detectors._PLACEHOLDER.match(pw)
    if (uri := _URI_PASSWORD.match(value)) is not None and _URI_SLOT.fullmatch(uri["pw"]):
        return False  # a vendor's URI (mongodb://, redis://...) with a slot or the docs' example for its password
    if value in detectors.DOC_EXAMPLES or detectors._PLACEHOLDER_RUN.search(value):
        return False  # the documentation's example keys (AKIAIOSFODNN7EXAMPLE), T00000000/XXXXXXXX
    if detectors._PLACEHOLDER.match(value.strip("\"'`")):
        return False  # "Bearer YOUR_TOKEN", REPLACE_ME: a slot for a value
    if rule_id == "generic-api-key" and decodes_to_prose(value.strip("\"'`")):
        return False  # words encoded ("secret message: dHJhaW4g..."): the decoded words are read on their own
    if rule_id in GENERATED_RULES:  # "pa-hypertension-guidelines-2024" is a page, not a key
        return detectors.generated(value[GENERATED_RULES[rule_id] :])
    return True


def _engine_kinds(texts: Iterable[str]) -> set[str]:
    """The engine's kinds for all ``texts`` in one call; a generic-key finding introduced
    as a hash, id or public key is dropped (as our own detectors do)."""
    views: list[str] = []
    for t in texts:
        if t.strip():
            views.append(t)
            spaced = _TRAILING_PUNCT.sub(r" \1", t)
            if spaced != t:
                views.append(spaced)
    document = _SEPARATOR.join(views)
    if not document:
        return set()
    kinds: set[str] = set()
    lines: list[str] | None = None
    for hit in engine_scan(document, _accept):
        if hit.rule_id == "generic-api-key":
            if lines is None:
                lines = document.split("\n")
            line = lines[hit.line - 1] if 0 < hit.line <= len(lines) else ""
            if detectors.not_secret_context(line[max(0, hit.start - 41) : hit.end]):
                continue
            if _ULID_AFTER_ID.search(line[max(0, hit.start - 41) : hit.end]):
                continue  # "job done id=02K83PDSEFG4YRGJ169M1MY7VH": an id, not a key
        kinds.add(hit.kind)
    return kinds


# A JSON Web Key's public members; a key with any private member is read as a whole.
_JWK_PUBLIC = frozenset({"kty", "use", "alg", "kid", "n", "e", "x", "y", "crv", "x5t", "x5t#S256", "key_ops"})
_JWK_PRIVATE = frozenset({"d", "p", "q", "dp", "dq", "qi", "k", "oth"})


def _masked(value: Any, testing: bool, public: dict[str, str], sealed: frozenset[str] = frozenset()) -> Any:
    """``value`` as the readers of whole records see it: what is no one's secret (the
    documentation's examples, public identifiers, placeholders, statistics) masked in every
    string, as the text scans see it (``detectors.without_doc_values``; ``public`` holds the
    texts the scans masked already)."""
    if isinstance(value, str):
        if value in sealed:
            value = SEALED_VALUE.sub("[encrypted]", value)
        masked = public.get(value)
        return masked if masked is not None else detectors.without_doc_values(value, testing, masked=False)
    if isinstance(value, Mapping):
        return {k: _masked(v, testing, public, sealed) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_masked(v, testing, public, sealed) for v in value]
    return value


def _public_jwk(record: Mapping[Any, Any]) -> bool:
    """A public JSON Web Key (``{"kty": "RSA", "n": ..., "e": "AQAB"}``): published by
    design (a JWKS endpoint serves it)."""
    return record.get("kty") in ("RSA", "EC", "OKP") and not _JWK_PRIVATE.intersection(record)


class _Check:
    """The working state of one check: texts to scan, and what was found already."""

    __slots__ = ("full", "redacted", "sealed", "sealed_fields", "sealed_values", "secrets", "tokens")

    def __init__(self) -> None:
        self.full: list[str] = []  # scanned by every detector
        self.tokens: list[str] = []  # scanned for token formats only
        self.secrets: set[str] = set()
        self.redacted: set[str] = set()
        self.sealed = False  # the record names a Sealed Secret (see ``_unsealed``)
        self.sealed_values: set[str] = set()  # ciphertexts (or their lines) under encryptedData
        self.sealed_fields: set[str] = set()  # what field names found in those ciphertexts

    def _unsealed(self) -> frozenset[str]:
        """A Sealed Secret's manifest is published by design: in a record that names the kind
        (``SealedSecret``), the kubeseal ciphertexts under its ``encryptedData`` (as fields, or
        as a manifest's lines kept a line an item) are no one's secret; nothing else in the
        record is excused. Otherwise what a field's name found in them counts. Returns the
        texts excused."""
        if not self.sealed or not self.sealed_values:
            self.secrets |= self.sealed_fields
            return frozenset()
        excused = frozenset(self.sealed_values)
        self.full = [SEALED_VALUE.sub("[encrypted]", t) if t in excused else t for t in self.full]
        return excused


_SEALED_KIND = re.compile(r"(?m)^\s*kind:\s*SealedSecret\s*$")
_SEALED_LINE = re.compile(r"\s+[\w.\-]{1,253}:\s*Ag[A-Za-z0-9+/]{100,}={0,2}\s*")


def _ciphertext(path: tuple[str, ...], value: Any) -> bool:
    """A kubeseal ciphertext where a manifest keeps one: a value under ``encryptedData``."""
    return "encryptedData" in path and isinstance(value, str) and SEALED_VALUE.fullmatch(value) is not None


def _sealed_lines(items: Any, check: _Check) -> None:
    """A manifest kept a line a list item: the lines under its ``encryptedData:`` line, each
    a name and a ciphertext, indented deeper."""
    under: int | None = None
    for item in items:
        if not isinstance(item, str):
            under = None
            continue
        if item.strip() == "encryptedData:":
            under = len(item) - len(item.lstrip())
        elif under is not None and _SEALED_LINE.fullmatch(item) and len(item) - len(item.lstrip()) > under:
            check.sealed_values.add(item)
        else:
            under = None


# a line of a file or a record written out: indented, or closing on an opener or a comma
_FILE_LINE = re.compile(r"[ \t]+\S|.*[{\[(,]\s*$")


@dataclass(frozen=True)
class Guard:
    """The write-time check of a memory.

    ``reject_secrets``: refuse values holding a secret (:class:`SecretRejected`).
    ``redact``: the personal-identifier kinds to replace by placeholders; by default
    only those that work as credentials (``DEFAULT_REDACT``: card numbers and SSNs).
    Pass ``PII_KINDS`` to also redact emails, phone numbers, IPs and IBANs, or ``()``
    for none.
    ``extra_patterns``: further secrets, as kind name -> regular expression.
    ``extra_pii``: further personal identifiers, as label -> regular
    expression; a match becomes ``[LABEL]`` (e.g. ``{"MRN": r"\\bMRN\\s*\\d{6,10}\\b"}``).
    ``phone_regions``: the regions whose national phone number formats are known.
    ``engine``: run the betterleaks rule engine under our detectors (default). Without
    it only the built-in rules run; a missing engine raises :class:`ConfigurationError`
    here rather than silently weakening the check.
    ``learned``: after every rule passed, refuse what the learned reader
    (:mod:`.learned`) scores as a credential (kind ``learned-credential``).

    Instances are immutable and can be shared between threads.
    """

    reject_secrets: bool = True
    redact: Collection[str] = DEFAULT_REDACT
    extra_patterns: Mapping[str, str | Pattern[str]] = field(default_factory=dict)
    extra_pii: Mapping[str, str | Pattern[str]] = field(default_factory=dict)
    phone_regions: Collection[str] = ("US",)
    engine: bool = True
    learned: bool = True
    _kinds: frozenset[str] = field(init=False, repr=False, compare=False)
    _extra: tuple[tuple[Pattern[str], str], ...] = field(init=False, repr=False, compare=False)
    _extra_pii: tuple[tuple[Pattern[str], str], ...] = field(init=False, repr=False, compare=False)
    _regions: tuple[str, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kinds", _normalize_kinds(self.redact or ()))
        object.__setattr__(self, "_extra", compile_patterns(self.extra_patterns, "extra pattern"))
        extra_pii = compile_patterns(self.extra_pii, "extra PII pattern")
        for _, label in extra_pii:
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_ ]*", label):
                raise ConfigurationError("extra PII labels must be letters, digits, spaces or underscores")
        object.__setattr__(self, "_extra_pii", extra_pii)
        object.__setattr__(self, "_regions", _normalize_regions(self.phone_regions))
        if self.engine and self.reject_secrets:
            require_engine()
        if self.learned and self.reject_secrets:
            learned_reader.require_model()

    # -- public ----------------------------------------------------------------------------

    def scan(self, text: str) -> list[str]:
        """The kinds of secrets in ``text`` (its disguised forms included), this guard's
        extra patterns included."""
        if not isinstance(text, str):
            raise TypeError("scan expects a str")
        return sorted(detectors.resolve(self._secrets([text], [])))

    def redact_text(self, text: str) -> tuple[str, list[str]]:
        """``text`` with this guard's PII kinds redacted, and the kinds found."""
        new, done = _redact(text, self._kinds, self._regions, self._extra_pii)
        return new, sorted(done)

    def check(
        self,
        value: Any,
        *,
        namespace: Iterable[str] | None = None,
        key: str | None = None,
    ) -> tuple[Any, list[str]]:
        """Check a JSON-like value (dicts, lists, tuples, strings, numbers) before storing it,
        with the ``namespace`` labels and ``key`` it will be stored under.

        Raises :class:`SecretRejected` naming the kinds when any string (a dict key too,
        an item that only makes a secret joined with its neighbours, an integer that is a
        card number, a value whose field name says it is a password or PIN, a namespace
        label, the key; a reply in a conversation that gives the credential a message asks
        for) holds a secret and ``reject_secrets`` is set. A key no vendor's rule names
        passes where the memory says, beside it, that it is public by design. Otherwise returns a
        copy of the value with the configured personal identifiers redacted, and the sorted
        kinds redacted; the key and namespace are never rewritten. A value that cannot be
        inspected (bytes, arbitrary objects) raises ``TypeError`` rather than pass
        unchecked; dict keys that collide once redacted get a ``" (2)"`` suffix.
        """
        check = _Check()
        out = self._walk(value, check, (), set())
        sealed = check._unsealed()
        if self.reject_secrets:
            labels = [*(namespace or ()), *([key] if isinstance(key, str) else [])]
            self._labels(labels, check)
            check.tokens.extend(chat.joined_pieces(value))  # a token sent a labelled piece a message
            undone: list[str] = []
            public: dict[str, str] = {}
            found = detectors.resolve(check.secrets | self._secrets(check.full, check.tokens, undone, public))
            if found and found <= detectors.PUBLIC_KINDS and detectors.only_public_key(value):
                found = set()  # only a key no rule names, which the memory says is public ("search-only")
            if not found:  # the last line: a credential named, and a value of its shape beside it
                names = [x for x in labels if isinstance(x, str)]
                probe = _masked(value, any(detectors.testing(t) for t in check.full), public, sealed)
                kind = (
                    cues.cued_secret(cues.document(probe, names))
                    or cues.record_secret(probe)
                    or cues.pointed_secret(probe, names)
                    or chat.answered_secret(probe)
                    or (detectors.RECOVERY_PHRASE if detectors.phrase_in_record(probe) else None)
                    or cues.kept_secret(probe)
                    or cues.named_code(probe)
                    or cues.dial_combination(probe)
                    or cues.code_sheet(probe)
                    or cues.noted_secret(probe)
                    or (cues.cued_secret(undone) if undone else None)  # its disguise undone (morse, rot13...)
                )
                if kind and not (kind in detectors.PUBLIC_KINDS and detectors.only_public_key(value)):
                    found = {kind}
                elif not kind and self.learned and learned_reader.refuses(value, undone):
                    found = {learned_reader.KIND}
            if found:
                raise SecretRejected(sorted(found))
        return out, sorted(check.redacted)

    # -- scanning --------------------------------------------------------------------------

    def _secrets(
        self, full: list[str], tokens: list[str], undone: list[str] | None = None, public: dict[str, str] | None = None
    ) -> set[str]:
        """The kinds the detectors and the engine find; ``undone`` receives the texts'
        disguises undone (decoded, folded, rot13'd back...)."""
        found: set[str] = set()
        texts: dict[str, None] = {}
        testing = any(detectors.testing(t) for t in full)  # a field "test_card", a note "Stripe docs"
        if public is not None:  # each text's public values masked once, for the record readers too
            public.update((t, detectors.without_doc_values(t, testing, masked=False)) for t in full if t not in public)
            full = [detectors.without_masked(public[t]) for t in full]
        else:
            full = [detectors.without_doc_values(t, testing) for t in full]
        tokens = [detectors.without_doc_values(t, testing) for t in tokens]
        for text in full:
            texts[text] = None
            if _PLAIN_WORD.fullmatch(text):
                continue  # a field's name or a word: nothing to undo
            for view in full_views(text):
                if undone is not None and view not in texts:
                    undone.append(view)
                texts[view] = None
        token_texts: dict[str, None] = dict.fromkeys(tokens)
        for text in texts:
            for view in token_views(text):
                token_texts[view] = None
        for text in texts:
            if not _PLAIN_WORD.fullmatch(text):
                scan_text(text, found)
        for text in token_texts:
            scan_tokens_text(text, found)
        for pattern, kind in self._extra:
            if any(pattern.search(text) for text in texts):
                found.add(kind)
        if self.engine:
            found |= _engine_kinds([*texts, *token_texts])
        if detectors.PRIVATE_KEY in found and detectors.empty_armour(texts):
            found.discard(detectors.PRIVATE_KEY)  # the armour with the key left out: a note about a key
        return found

    def _labels(self, labels: Iterable[Any], check: _Check) -> None:
        """The namespace labels and the key are persisted too (sealed, and hashed for
        lookups): scan them, and read each label as the field name of the next one."""
        labels = [label for label in labels if isinstance(label, str)]
        for i, label in enumerate(labels):
            if (store_key := _STORE_HEX_KEY.fullmatch(label)) is not None:
                check.full.append(store_key.group(1))  # an id; hex of a token still decodes and is read
                continue
            if _PLAIN_LABEL.fullmatch(label):
                check.tokens.append(label)
            else:
                check.full.append(label)
            hit = label_secret(label, looks_random)
            if i and not hit:
                hit = field_secret(field_kind(labels[i - 1]), label, looks_random)
            if hit:
                check.secrets.add(hit)

    def _field(self, path: tuple[str, ...], value: str | int, check: _Check) -> bool:
        """Field-name context for a scalar; True when the value is an SSN to redact."""
        if self.reject_secrets:
            hit = field_secret(parent_kind(path), value, looks_random)
            if hit:
                (check.sealed_fields if _ciphertext(path, value) else check.secrets).add(hit)
        return (
            SSN in self._kinds
            and bool(path)
            and bool(_SSN_FIELD.match(path[-1]))
            and bool(_SSN_VALUE.match(str(value)))
        )

    def _siblings(self, record: Mapping[Any, Any], check: _Check) -> None:
        """A field named only ``code`` is a PIN when the record's other fields say what it
        opens (``{"door": "front", "code": "6121"}``)."""
        siblings = [t for k, v in record.items() if k != "code" for t in (k, v) if isinstance(t, str)]
        hit = sibling_secret("code", record["code"], siblings)
        if hit:
            check.secrets.add(hit)

    def _text(self, text: str, check: _Check) -> str:
        if self.reject_secrets:
            check.full.append(text)
        if not self._kinds and not self._extra_pii:
            return text
        new, done = _redact(text, self._kinds, self._regions, self._extra_pii)
        check.redacted.update(done)
        return new

    def _join(self, items: Iterable[Any], check: _Check, path: tuple[Any, ...] = ()) -> None:
        """Consecutive short items joined: a token or card number split across fields or
        list items (``{"part1": "ghp_ab...", "part2": "...cd"}``) is whole again. ``path``
        (the field names above) may say that a list of words is a wallet's."""
        if not self.reject_secrets:
            return
        items = list(items)
        lines = [item for item in items if isinstance(item, str)]
        if sum(PIECE_LINE.match(item) is not None for item in lines) >= 2 or (
            len(lines) >= 3 and sum(_FILE_LINE.match(item) is not None for item in lines) >= 2
        ):
            # a value given in numbered pieces, one an item, or a file kept a line an item (a
            # manifest's "- name: X_TOKEN" and its "value: ..."): read as lines, where they join
            check.full.append("\n".join(lines))
        if len(items) >= 12:  # a recovery phrase kept as a list of words
            words = [item.strip().lower() for item in items if isinstance(item, str)]
            cued = detectors.wallet_cued(" ".join(str(p) for p in path))
            if len(words) >= 12 and detectors.recovery_phrase(words, cued):
                check.secrets.add(detectors.RECOVERY_PHRASE)
        run: list[str] = []
        for item in [*items, None]:
            piece = None
            if (
                isinstance(item, str)
                and 0 < len(item) <= _JOIN_MAX
                and not any(ch.isspace() for ch in item.strip())
            ):
                piece = item.strip()
            elif isinstance(item, int) and not isinstance(item, bool) and item >= 0:
                piece = str(item)
            if piece is not None:
                run.append(piece)
                continue
            if len(run) >= 2:
                check.tokens.append("".join(run))
            if len(run) >= 3 and any(_EXPIRY.fullmatch(p) for p in run):
                # a card split in two beside its expiry (and code): each neighbouring pair
                check.tokens.extend(run[i] + run[i + 1] for i in range(min(len(run), 12) - 1))
            run = []

    def _walk(self, value: Any, check: _Check, path: tuple[str, ...], seen: set[int]) -> Any:
        if isinstance(value, str) and path and _BARCODE_FIELD.fullmatch(path[-1]) and value.isdigit():
            return value  # an EAN, a UPC, an ISBN: a product's number, whatever its check digit
        if isinstance(value, str):
            if "SealedSecret" in value and (value == "SealedSecret" or _SEALED_KIND.search(value)):
                check.sealed = True
            if _ciphertext(path, value):
                check.sealed_values.add(value)
            if path and self._field(path, value, check):
                check.redacted.add(SSN)
                return f"[{SSN}]"
            return self._text(value, check)
        if isinstance(value, _SCALARS):
            return value
        if isinstance(value, int):
            ssn = path and self._field(path, value, check)
            if ssn:
                check.redacted.add(SSN)
                return f"[{SSN}]"
            digits = str(abs(value))
            if 12 <= len(digits) <= 19 and card_spans(digits):
                if self.reject_secrets:
                    check.secrets.add(detectors.CREDIT_CARD)
                if CARD in self._kinds:
                    check.redacted.add(CARD)
                    return f"[{CARD}]"
            return value
        if not isinstance(value, (Mapping, list, tuple, set, frozenset)):
            raise TypeError(f"Guard.check cannot inspect a value of type {type(value).__name__}")
        if id(value) in seen:
            raise ValueError("value contains a reference cycle")
        seen.add(id(value))
        try:
            if isinstance(value, Mapping):
                out: dict[Any, Any] = {}
                public = _public_jwk(value)
                had_code = detectors.ONE_TIME_CODE in check.secrets
                for k, v in value.items():
                    if public and k in _JWK_PUBLIC and isinstance(v, str):
                        check.tokens.append(v)  # a public key's modulus: token formats only
                        out[k] = v
                        continue
                    new_key = self._walk(k, check, (), seen)
                    if new_key in out:
                        n = 2
                        while f"{new_key} ({n})" in out:
                            n += 1
                        new_key = f"{new_key} ({n})"
                    out[new_key] = self._walk(v, check, (*path, k) if isinstance(k, str) else path, seen)
                labelled = _labelled(value)
                if labelled is not None and self.reject_secrets:
                    check.full.append(labelled)  # {"label": "garage code", "value": "*3402"}: one line
                if len(value) >= 2 and self.reject_secrets:
                    strings = [(k, v) for k, v in value.items() if isinstance(k, str) and isinstance(v, str)]
                    for name, joined in parts_joined(strings):  # {"X_PAT_PART1": "fb2c...", "X_PAT_PART2": "8eef..."}
                        check.full.append(f"{name}: {joined}")
                rest = {k: v for k, v in value.items() if not (public and k in _JWK_PUBLIC)}
                if not had_code and _PAYMENT_RECORD.intersection(str(k).lower() for k in value):
                    check.secrets.discard(detectors.ONE_TIME_CODE)  # found in this payment's own fields only
                self._join(rest.values(), check, (*path, *(k for k in rest if isinstance(k, str))))
                if self.reject_secrets and "code" in value:
                    self._siblings(value, check)
                if self.reject_secrets and 2 <= len(value) <= 8:
                    hit = named_secret(value, looks_random)
                    if hit:
                        check.secrets.add(hit)
                if self.reject_secrets:
                    for k, v in value.items():  # swapped: {"Crème$7670": "the wifi password"}
                        if isinstance(k, str) and isinstance(v, str) and len(v) <= 40 and len(k) <= 64:
                            if " is " not in v and detectors.names_password(v) and detectors.passwordish(k):
                                check.secrets.add(detectors.PASSWORD)
                return out
            items = [self._walk(v, check, path, seen) for v in value]
            if self.reject_secrets and 2 <= len(value) <= 8 and all(
                isinstance(i, (list, tuple)) and len(i) == 2 and isinstance(i[0], str) for i in value
            ):  # a record kept as pairs: [["what", "Cohere key"], ["value", "..."]]
                hit = named_secret(dict(value), looks_random)
                if hit:
                    check.secrets.add(hit)
            if not isinstance(value, (set, frozenset)):
                _sealed_lines(value, check)
                self._join(value, check, path)
                if (said := chat.messages(value)) is not None:  # a token sent a piece a message
                    self._join([text for _, text in said], check, path)
            if isinstance(value, list):
                return items
            if isinstance(value, tuple) and hasattr(value, "_fields"):
                return type(value)(*items)  # a named tuple
            return type(value)(items)
        finally:
            seen.discard(id(value))


def _labelled(record: Mapping[Any, Any]) -> str | None:
    """A form's field kept as a record, its name in one key and its value in another, read
    as one line ("garage code: *3402")."""
    keys = {str(k).lower(): k for k in record}
    name = next((keys[k] for k in ("label", "field") if k in keys), None)
    if name is None or "value" not in keys:
        return None
    label, val = record[name], record[keys["value"]]
    if not isinstance(label, str) or not label.strip() or " " not in label.strip():
        return None  # a label of one word is the field rules' to read ({"label": "combination", ...})
    return f"{label}: {val}" if isinstance(val, (str, int)) and not isinstance(val, bool) else None


_DEFAULT: dict[bool, Guard] = {}
# One lower-case word, capitalised at most ("text", "Fact"): no detector finds a secret in
# it alone (a token mixes in digits or capitals; a password in a field is the field
# rules' to read), so the text scans skip it.
_PLAIN_WORD = re.compile(r"[A-Za-z]?[a-z]{0,23}")


def scan_secrets(
    text: str,
    *,
    extra_patterns: Mapping[str, str | Pattern[str]] | None = None,
    engine: bool = True,
) -> list[str]:
    """The sorted, distinct kinds of secrets found in ``text`` (empty when none).

    Kinds are names such as ``"AWS access key"``, ``"password"`` or
    ``"credit card number"``; the secret values themselves are never returned.
    ``extra_patterns`` maps further kind names to regular expressions; ``engine=False``
    runs the built-in rules only.
    """
    if not isinstance(text, str):
        raise TypeError("scan_secrets expects a str")
    if extra_patterns:
        return Guard(redact=(), extra_patterns=extra_patterns, engine=engine).scan(text)
    guard = _DEFAULT.get(engine)
    if guard is None:
        guard = _DEFAULT[engine] = Guard(redact=(), engine=engine)
    return guard.scan(text)
