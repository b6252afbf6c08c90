"""Views of a text with the usual disguises undone, for the secret scan.

A person (or a model) who wants a credential remembered despite the guard spaces it out,
encodes it, reverses it or swaps letters for look-alikes. Each function here returns the
text the way a detector needs to see it. Views come in two strengths:

* *full* views (decoded base64, hex, percent-encoding or HTML entities; homoglyphs folded) read like the
  original and go through every detector;
* *token* views (a spaced or dotted run joined up, a run reversed) are not prose any more:
  only token formats (vendor prefixes, card numbers, the engine) are looked for in them,
  so joining ordinary words cannot make a "password is ..." sentence out of nothing.

Nothing here keeps state; every function is pure and thread-safe.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from urllib.parse import unquote

# The letters a phone's keypad prints on its keys, as the digits they stand for.
KEYPAD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "22233344455566677778889999")

__all__ = ["FORMAT_CHARS", "down_a_column", "fold", "full_views", "token_views"]

# Cyrillic and Greek letters that look like Latin ones (Unicode's confusables, the common
# subset). Applied only inside a run that also holds ASCII letters or digits, so Russian
# or Greek prose is left alone.
_CONFUSABLES = str.maketrans(
    {
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C",
        "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W",
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԛ": "q", "ԝ": "w", "һ": "h",
        "ɑ": "a", "ο": "o", "ρ": "p", "ν": "v", "τ": "t", "υ": "u", "ι": "i", "κ": "k",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
        "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    }
)  # fmt: skip
_RUN = re.compile(r"\S+")
_SYMBOL_IN_DIGITS = re.compile(r"(?<=\d)[\u2190-\u2bff\U0001f000-\U0001faff]{1,3}(?=\d)")
_HAS_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")


# Unicode's format characters (category Cf: soft hyphens, zero-width spaces and joiners,
# direction marks, tags), as one class: removing them with a pattern costs a fraction of
# testing each character's category (tests/security/test_guard_spelling.py checks the
# class against unicodedata).
FORMAT_CHARS = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]"
)


# The decimal digits of other scripts (Arabic-Indic, Persian, Devanagari, Bengali, Thai...),
# which NFKC leaves as they are, as ASCII digits.
_NATIVE_DIGITS = str.maketrans(
    {
        chr(zero + i): str(i)
        for zero in (0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
                     0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0xA8D0, 0xA900)
        for i in range(10)
    }
)  # fmt: skip
_RARE_DIGITS = re.compile(
    "[⁰¹²³⁴-⁹₀-₉零〇一二三四五六七八九\u0660-\u0669\u06f0-\u06f9\u07c0-\u07c9\u0966-\u096f\u09e6-\u09ef"
    "\u0a66-\u0a6f\u0ae6-\u0aef\u0b66-\u0b6f\u0be6-\u0bef\u0c66-\u0c6f\u0ce6-\u0cef\u0d66-\u0d6f\u0de6-\u0def"
    "\u0e50-\u0e59\u0ed0-\u0ed9\u0f20-\u0f29\u1040-\u1049\u1090-\u1099\u17e0-\u17e9\u1810-\u1819"
    "\u1946-\u194f\u19d0-\u19d9\ua8d0-\ua8d9\ua900-\ua909]"
)
_MARKS = re.compile("[\u0300-\u036f]")
# An ASCII letter or digit next to another script's character.
_MIXED = re.compile(r"[A-Za-z0-9][^\s\x00-\x7f]|[^\s\x00-\x7f][A-Za-z0-9]")
# A card's length of Chinese numerals, one digit each ("四五三九一四八八..."): its digits; and a
# code's (four to eight: "支付密码 六一五七四一"), not a weekday run ("周一二三四五") or a date's year.
_CJK_NUMERALS = re.compile(
    r"[零〇一二三四五六七八九]{12,19}|(?<![周期第礼拜])[零〇一二三四五六七八九]{4,8}(?![零〇一二三四五六七八九年月日号號個个次位])"
)
_CJK_DIGIT = str.maketrans("零〇一二三四五六七八九", "00123456789")
# Digits written small ("code⁸⁵⁴⁷⁵⁷"): NFKC makes them digits glued to the word before.
_SMALL_DIGITS = re.compile(r"(?<=[^\W\d_⁰¹²³⁴⁵⁶⁷⁸⁹₀-₉])([⁰¹²³⁴⁵⁶⁷⁸⁹₀-₉])")


# ASCII smuggled in characters no one sees: Unicode tag characters (U+E0020-E007E), and
# variation selectors carrying bytes (U+FE00-FE0F for 0-15, U+E0100-E01EF for 16-255).
_SMUGGLED = re.compile("[\U000e0020-\U000e007e]{4,}|[\ufe00-\ufe0f\U000e0100-\U000e01ef]{4,}")
_FLAG_LETTERS = re.compile("[\U0001f1e6-\U0001f1ff]")


def _unsmuggled(m: re.Match[str]) -> str:
    out = []
    for ch in m.group():
        cp = ord(ch)
        if 0xE0020 <= cp <= 0xE007E:
            out.append(chr(cp - 0xE0000))
        else:
            byte = cp - 0xFE00 if cp <= 0xFE0F else cp - 0xE0100 + 16
            out.append(chr(byte) if 32 <= byte < 127 else "")
    return " " + "".join(out) + " "


def fold(text: str) -> str:
    """Compatibility forms made plain (fullwidth letters, ligatures, digits written
    small or in another script), invisible format characters (zero-width spaces, joiners,
    direction marks) removed, and Cyrillic or Greek look-alikes inside Latin tokens
    replaced by the Latin letters."""
    if text.isascii():
        return text
    if _SMUGGLED.search(text):  # tag characters and variation selectors that spell ASCII unseen
        text = _SMUGGLED.sub(_unsmuggled, text)
    if "\U0001f1e6" <= max(text) and _FLAG_LETTERS.search(text):  # 🇦 🇧: regional indicators as letters
        text = _FLAG_LETTERS.sub(lambda m: chr(ord(m.group()) - 0x1F1E6 + ord("A")), text)
    if _RARE_DIGITS.search(text):  # (a quick test: most texts hold none of these)
        text = _SMALL_DIGITS.sub(r" \1", text).translate(_NATIVE_DIGITS)
        text = _CJK_NUMERALS.sub(lambda m: m.group().translate(_CJK_DIGIT), text)
    text = FORMAT_CHARS.sub("", unicodedata.normalize("NFKC", text))
    if _MARKS.search(text):  # h̶f̶_̶: marks drawn over Latin letters
        text = re.sub(r"(?<=[\x21-\x7e])[\u0300-\u036f]+", "", text)
    if _SYMBOL_IN_DIGITS.search(text):  # "6✨1✨1✨5": pictographs strung between digits
        text = _SYMBOL_IN_DIGITS.sub("", text)
    if text.isascii():
        return text

    if not _MIXED.search(text):
        return text  # no run mixes ASCII letters or digits with other letters: prose in its script

    def latin(m: re.Match[str]) -> str:
        run = m.group()
        if run.isascii() or not _HAS_ASCII_ALNUM.search(run):
            return run
        return run.translate(_CONFUSABLES)

    return _RUN.sub(latin, text)


# -- decoded views ------------------------------------------------------------------------------

_B64 = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}={0,2}")
_B32 = re.compile(r"(?<![A-Za-z0-9])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9])")
_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Fa-f])")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})")
_ENTITY = re.compile(r"&(?:#\d{2,7}|#[xX][0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")
# Printable ASCII written as hex pairs: each pair starts with 2-7.
_SPACED_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[2-7][0-9A-Fa-f] ){7,}[2-7][0-9A-Fa-f](?![0-9A-Fa-f])")
_CHAR_HINT = re.compile(
    r"(?i)char\s*code|charcode|\bchr\b|\bord\(|\bascii\b|\bbytes\(|\bbytearray\(|\bdecimal codes?\b|\bchar\(|\bbyte\s*\[\]"
    r"|new string\("
)
# With such a hint, four codes are enough ("String.fromCharCode(51,50,56,48)", a door code).
_HINTED_CODES = re.compile(r"(?<![\d.])(?:\d{2,3}\s*,\s*){3,}\d{2,3}(?![\d.])")
# Characters one call each: Excel's =CHAR(56)&CHAR(51)..., SQL's CHAR(52)||CHAR(88)...
_CHAR_CALLS = re.compile(r"(?i)(?:\b(?:CHAR|CHR)\(\s*\d{2,3}\s*\)\s*(?:&|\+|\|\||,|\.)?\s*){3,}")
_CHAR_CODES = re.compile(r"(?<![\d.])(?:\d{2,3}\s*,\s*){7,}\d{2,3}(?![\d.])")
# Eight or more codes separated by single spaces ("66 114 97 118 101 ..."): read without a
# hint when every one is a printable character other than a space, as no list of readings,
# scores or amounts is.
_SPACED_CODES = re.compile(r"(?<![\d.,/:-])(?:\d{2,3} ){7,}\d{2,3}(?![\d.,/:-])")
_CODES_START = re.compile(r"\d\d\d? \d\d\d? \d\d\d? \d\d")  # a quick test before the pattern below
_MAX_DECODE = 8192  # longer runs are data blobs (images), not a hidden credential
_MAX_INFLATE = 8192  # a credential compressed and encoded is short; so is what a text may inflate in all


def _readable(raw: bytes) -> str | None:
    """``raw`` as text when it reads as text: UTF-8, printable, some letters."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 6 or not any(ch.isalpha() for ch in text):
        return None
    printable = sum(ch.isprintable() or ch in "\n\t" for ch in text)
    return text if printable >= len(text) * 0.97 else None


def decodes_to_prose(token: str) -> bool:
    """Whether a base64 (standard or URL-safe, maybe compressed) or hex token decodes to a
    sentence ("dHJhaW4gbGVhdmVzIGF0IDg=": "train leaves at 8"): a sentence's small words, its
    punctuation or an emoji, or a script written without spaces; never a passphrase's bare
    words ("orange tiger canoe maple"). Such a token is words encoded, not a random key; the
    decoded words are read on their own (see ``full_views``), so a credential encoded inside
    a sentence is still found there."""
    if len(token) < 12 or len(token) > _MAX_DECODE:
        return False
    raws: list[bytes] = []
    if re.fullmatch(r"(?:[0-9a-f]{2})+|(?:[0-9A-F]{2})+", token):
        raws.append(bytes.fromhex(token))
    body = token.rstrip("=")
    try:
        alt = "-" in body or "_" in body
        raws.append((base64.urlsafe_b64decode if alt else base64.b64decode)(body + "=" * (-len(body) % 4)))
    except (binascii.Error, ValueError):
        pass
    for raw in raws:
        text = _readable(_inflated(raw, [_MAX_INFLATE]))
        if text is None:
            continue
        words = text.split()
        letters = sum(ch.isalpha() or ch.isspace() for ch in text)
        if (
            len(words) >= 2
            and letters >= 0.6 * len(text)
            and max(len(w) for w in words) <= 20
            # a sentence's words, or its punctuation or an emoji ("Happy birthday Lena! 🎂", "call
            # grandma"); not a passphrase's bare words ("orange tiger canoe maple")
            and (_sentence(words) or (len(words) == 2 and len(text) <= 16) or _SENTENCE_MARK.search(text) is not None)
        ):
            return True
        if _NO_SPACES_SCRIPT.search(text) and letters >= 0.6 * len(text):
            return True  # Chinese, Japanese, Thai: prose without spaces
    return False


# Words a sentence has and a passphrase generator's list does not ("train leaves at 8", "dont
# forget the umbrella"; not "orange tiger canoe maple").
_SENTENCE_WORDS = frozenset(
    """the a an at to is are was on in of and or for with from you your me my we our it its be this that
    not dont don't see by i he she they them his her de la le les et un une des du est à der die das und
    ist zu ein eine nicht el los las y es que en con por para il lo di e che per het een van ik je na w
    z że się jest nie o da u od za ne se ja ei ir yra uz kas в и не на как что я ты às até em com do""".split()
)
_SENTENCE_MARK = re.compile(r"[!?.…]\W*$|[\U0001F300-\U0001FAFF\u2600-\u27BF]")
_NO_SPACES_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\u0e00-\u0e7f\uac00-\ud7af]{4,}")


def _sentence(words: list[str]) -> bool:
    return any(w.strip(".,!?;:'\"()").lower() in _SENTENCE_WORDS for w in words)


def _inflated(raw: bytes, budget: list[int]) -> bytes:
    """gzip's or zlib's stream inflated (a compressed payload in base64: "H4sI...",
    "eNr..."), within what is left of ``budget`` (bytes, shared by one text's
    payloads: a text of many small bombs inflates no more than one); anything
    else as it is."""
    if budget[0] > 0 and (
        raw[:2] == b"\x1f\x8b" or (raw[:1] == b"\x78" and len(raw) > 2 and (raw[0] * 256 + raw[1]) % 31 == 0)
    ):
        try:
            out = zlib.decompressobj(wbits=47).decompress(raw, min(budget[0], _MAX_INFLATE))
        except zlib.error:
            return raw
        budget[0] -= len(out)
        return out
    return raw


def _short_text(raw: bytes | None) -> str | None:
    """A decoded value read where it stood: printable ASCII, digits alone included (a PIN
    written in octal escapes is "5122" once decoded)."""
    if raw is None or not 3 <= len(raw) <= 256:
        return None
    text = raw.decode("ascii", "replace")
    return text if text.isprintable() and text.isascii() and not text.isspace() else None


def _or_none(decode: Callable[[str], bytes]) -> Callable[[str], bytes | None]:
    def safe(run: str) -> bytes | None:
        try:
            return decode(run)
        except (binascii.Error, ValueError):
            return None

    return safe


def _uudecoded(block: str) -> bytes:
    lines = block.split("\n")[1:]
    return b"".join(binascii.a2b_uu(line) for line in lines if line.strip() and line.strip() not in ("`", "end"))


# Encodings read in place, each by its own unmistakable shape: bytes listed as 0x pairs (a C
# array), octal escapes (printf '\065\061'), octets in binary, Ascii85 between <~ ~>, and a
# uuencoded block.
_IN_PLACE: tuple[tuple[str, re.Pattern[str], Callable[[str], bytes | None]], ...] = (
    (  # a C array's braces become a string's quotes: k_pw[] = "..."
        "0x",
        re.compile(r"\{?\s*(?:0[xX][0-9A-Fa-f]{2}\s*,\s*){2,}0[xX][0-9A-Fa-f]{2}\s*\}?"),
        _or_none(lambda r: b'"' + bytes(int(x, 16) for x in re.findall(r"0[xX]([0-9A-Fa-f]{2})", r)) + b'"'),
    ),
    ("\\", re.compile(r"(?:\\[0-3][0-7]{2}){3,}"), _or_none(lambda r: bytes(int(x, 8) for x in r.split("\\")[1:]))),
    ("01", re.compile(r"(?<![01])(?:[01]{8}[ \t\n]+){2,}[01]{8}(?![01])"), _or_none(lambda r: bytes(int(x, 2) for x in r.split()))),
    ("<~", re.compile(r"<~[!-u\s]{4,}?~>"), _or_none(lambda r: base64.a85decode(r, adobe=True))),
    ("begin ", re.compile(r"(?m)^begin [0-7]{3} \S+\n(?:[ -`]{1,62}\n){1,20}end$"), _or_none(_uudecoded)),
)


def char_codes(run: str) -> str | None:
    """A run of comma-separated character codes as the text it spells, when every code is
    printable ASCII (``103, 104, 115`` reads ``ghs``)."""
    codes = [int(c) for c in re.findall(r"\d+", run)]
    return "".join(map(chr, codes)) if all(32 <= c <= 126 for c in codes) else None


def _decoded(text: str) -> list[str]:
    out: list[str] = []
    runs: list[tuple[tuple[int, int], str]] = []
    budget = [_MAX_INFLATE]
    if len(text) >= 16:
        for m in _B64.finditer(text):
            run = m.group()
            if len(run) > _MAX_DECODE or run.isdigit() or run.isalpha():
                continue
            body = run.rstrip("=")
            alt = "-" in body or "_" in body
            if alt and ("+" in body or "/" in body):
                continue
            try:
                raw = (base64.urlsafe_b64decode if alt else base64.b64decode)(body + "=" * (-len(body) % 4))
            except (binascii.Error, ValueError):
                continue
            decoded = _readable(_inflated(raw, budget))
            if decoded is not None:
                out.append(decoded)
        for m in _B32.finditer(text):  # "JFXHG5DBM5ZGC3JA...": upper-case letters and 2-7 only
            run = m.group()
            if len(run) <= _MAX_DECODE and not run.isalpha():
                try:
                    decoded = _readable(base64.b32decode(run + "=" * (-len(run) % 8)))
                except (binascii.Error, ValueError):
                    continue
                if decoded is not None:
                    out.append(decoded)
        for m in _HEX.finditer(text):
            run = m.group()
            if len(run) <= _MAX_DECODE:
                decoded = _readable(bytes.fromhex(run))
                if decoded is not None:
                    out.append(decoded)
                    runs.append((m.span(), decoded))
        if " " in text:
            for m in _SPACED_HEX.finditer(text):  # "3f 54 74 4b 44 59 40 58": bytes written out
                decoded = _readable(bytes.fromhex(m.group().replace(" ", "")))
                if decoded is not None:
                    runs.append((m.span(), decoded))
    if "," in text and _HINTED_CODES.search(text) and _CHAR_HINT.search(text):  # fromCharCode(103, 104, ...)
        for m in _HINTED_CODES.finditer(text):
            if (chars := char_codes(m.group())) is not None:
                runs.append((m.span(), chars))
    if "(" in text and _CHAR_CALLS.search(text):
        for m in _CHAR_CALLS.finditer(text):
            if (chars := char_codes(m.group())) is not None:
                runs.append((m.span(), chars))
    if _CODES_START.search(text):
        for m in _SPACED_CODES.finditer(text):
            chars = char_codes(m.group())
            if chars is not None and " " not in chars and any(ch.isalpha() for ch in chars):
                runs.append((m.span(), chars))
    for mark, pattern, decode in _IN_PLACE:
        if mark in text and pattern.search(text):
            for m in pattern.finditer(text):
                if (chars := _short_text(decode(m.group()))) is not None:
                    runs.append((m.span(), chars))
    if runs:  # hex and character codes decoded where they stood, so the words around still name them
        runs.sort()
        parts, at = [], 0
        for (start, end), decoded in runs:
            if start >= at:
                parts += [text[at:start], decoded]
                at = end
        out.append("".join([*parts, text[at:]]))
    if "%" in text and _PERCENT.search(text):
        unquoted = unquote(text)
        if unquoted != text:
            out.append(unquoted)
    if "\\" in text and _ESCAPE.search(text):  # \u0073\u006b... or \x73\x6b...: escapes in code
        out.append(_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), text))
    if "&" in text and _ENTITY.search(text):
        unescaped = html.unescape(text)
        if unescaped != text:
            out.append(unescaped)
    return out


# Disguises a memory names itself ("rot13'd", "shifted forward by one", "take every other
# character", "in morse"): undone only where the text says so.
_MORSE = {
    ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h", "..": "i",
    ".---": "j", "-.-": "k", ".-..": "l", "--": "m", "-.": "n", "---": "o", ".--.": "p", "--.-": "q", ".-.": "r",
    "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x", "-.--": "y", "--..": "z",
    "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4", ".....": "5", "-....": "6",
    "--...": "7", "---..": "8", "----.": "9",
}  # fmt: skip
_MORSE_RUN = re.compile(r"(?:[.\-]{1,6}[ /]+){2,}[.\-]{1,6}")
_SHIFT = re.compile(r"(?i)shift(?:ed)?\s+(?:(?:forward|up|right)?\s*by\s+|\+\s?)(one|two|three|\d)")
# A run a disguise hides a value in: six characters or more, a digit or a symbol in them
# (not the words around it, nor their brackets, quotes, commas and apostrophes).
_OPENERS = "([{'\"“‘"
_CLOSERS = ")]}'\"”’.,;:"
_SPACE_SPLIT = re.compile(r"(\s+)")
_VALUE_MARK = re.compile(r"[\d_]|[^\w\s'’-]")


def _undone_values(text: str, undo: Callable[[str], str], marked: bool = True) -> str:
    """``text`` with ``undo`` applied to each run that could hide a value (split on
    whitespace in Python: a pattern for "a run and its closing punctuation" backtracks
    quadratically on a long run of punctuation)."""
    parts = _SPACE_SPLIT.split(text)
    for i in range(0, len(parts), 2):
        run = parts[i]
        core = run.lstrip(_OPENERS)
        lead = run[: len(run) - len(core)]
        stripped = core.rstrip(_CLOSERS)
        tail = core[len(stripped) :]
        if len(stripped) >= 6 and (not marked or _VALUE_MARK.search(stripped)):
            parts[i] = lead + undo(stripped) + tail
    return "".join(parts)
_RUN_LONG = re.compile(r"\S{8,}")


def _shift_back(text: str, n: int) -> str:
    def back(ch: str) -> str:
        if "a" <= ch <= "z":
            return chr((ord(ch) - 97 - n) % 26 + 97)
        if "A" <= ch <= "Z":
            return chr((ord(ch) - 65 - n) % 26 + 65)
        return ch

    return "".join(back(ch) for ch in text)


# "password", "secret", "token", "passwort", "contraseña" in rot13 and reversed: a keyword so
# disguised names the disguise as plainly as "rot13" does.
_ROT13_KEYWORDS = ("cnffjbeq", "frperg", "gbxra", "cnffjbeg", "pbagenfr")
_REVERSED_KEYWORDS = ("drowssap", "terces", "nekot", "trowssap", "aesartnoc", "nip ym")


def _has_any(low: str, words: tuple[str, ...]) -> bool:
    return any(w in low for w in words)


_ENCODING_NAMED = re.compile(r"base ?64|\bb64\b|base ?32|\bencod|\bkodiert|\bcodifi")
_B64_VALUE = re.compile(r"[A-Za-z0-9+/_\-]{4,}={0,2}")
_B32_VALUE = re.compile(r"[A-Z2-7]{4,}={0,6}")


def _short_b64(value: str) -> str:
    """A value in base32 or base64 decoded, when it decodes to printable text; else as is."""
    decoded = None
    if _B32_VALUE.fullmatch(value) and len(value.rstrip("=")) % 8 in (0, 2, 4, 5, 7):
        decoded = _or_none(base64.b32decode)(value + "=" * (-len(value) % 8))
    if decoded is None and _B64_VALUE.fullmatch(value):
        body = value.rstrip("=")
        decoded = _or_none(base64.urlsafe_b64decode)(body.replace("+", "-").replace("/", "_") + "=" * (-len(body) % 4))
    text = _short_text(decoded)
    return text if text is not None else value


def _rot47(value: str) -> str:
    return "".join(chr(33 + (ord(ch) - 33 + 47) % 94) if "!" <= ch <= "~" else ch for ch in value)


def _named_disguises(text: str) -> list[str]:
    low = text.lower()
    out: list[str] = []
    if "rot13" in low or "rot-13" in low or "rot 13" in low or _has_any(low, _ROT13_KEYWORDS):
        out.append(codecs.encode(text, "rot13"))
        out.append(_undone_values(text, lambda v: codecs.encode(v, "rot13")))
    if "reversed" in low or "backwards" in low or "right to left" in low or _has_any(low, _REVERSED_KEYWORDS):
        out.append(text[::-1])
        out.append(_undone_values(text, lambda v: v[::-1]))
    if "morse" in low:
        out.append(_MORSE_RUN.sub(lambda m: "".join(_MORSE.get(c, "") for c in re.split(r"[ /]+", m.group())), text))
    if "shift" in low and (m := _SHIFT.search(text)):
        n = {"one": 1, "two": 2, "three": 3}.get(m.group(1).lower()) or int(m.group(1))
        # only the runs that hold a digit or a symbol: the sentence around them stays readable
        out.append(_undone_values(text, lambda v: _shift_back(v, n)))
    if _ENCODING_NAMED.search(low):  # "the PIN encoded: MzE3OA", "(base32) GAZTKNQ=": values too short to find unnamed
        b64 = _undone_values(text, _short_b64, marked=False)
        out.append(b64)
        if "revers" in low:
            out.append(_undone_values(text, lambda v: _short_b64(v)[::-1], marked=False))
    if "rot47" in low or "rot-47" in low:
        out.append(_undone_values(text, _rot47))
    if "every other" in low or "every second" in low or "every 2nd" in low:
        out.append(_RUN_LONG.sub(lambda m: m.group()[::2], text))
    return out


# A value spelled with the phonetic alphabet, digits and symbols named ("golf, lima, sierra,
# alfa, underscore, KILO, ..."): each word read as its character where it stands, a word in
# capitals as a capital letter.
NATO = frozenset(
    "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima mike november oscar papa "
    "quebec romeo sierra tango uniform victor whiskey whisky x-ray xray yankee zulu".split()
)
_SPOKEN_DIGITS = {w: str(i) for i, w in enumerate("zero one two three four five six seven eight nine".split())}
_SPOKEN_SYMBOLS = {
    "niner": "9", "underscore": "_", "dash": "-", "hyphen": "-", "minus": "-", "dot": ".", "period": ".",
    "star": "*", "asterisk": "*", "hash": "#", "pound": "#", "plus": "+", "slash": "/", "equals": "=",
    "exclamation": "!", "bang": "!", "at": "@", "dollar": "$", "percent": "%", "ampersand": "&", "and": "&",
}  # fmt: skip
_SPOKEN = NATO | _SPOKEN_DIGITS.keys() | _SPOKEN_SYMBOLS.keys()
_SPOKEN_WORD = "(?:" + "|".join(sorted(map(re.escape, _SPOKEN), key=len, reverse=True)) + ")"
_SPOKEN_RUN = re.compile(rf"(?i)(?<![\w-]){_SPOKEN_WORD}(?:[\s,;]+{_SPOKEN_WORD}){{5,}}(?![\w-])")


def _spoken_char(word: str) -> str:
    low = word.lower()
    if low in NATO:
        return low[0].upper() if word.isupper() else low[0]
    return _SPOKEN_DIGITS.get(low) or _SPOKEN_SYMBOLS[low]


def _spoken(m: re.Match[str]) -> str:
    words = re.split(r"[\s,;]+", m.group())
    if sum(w.lower() in NATO for w in words) < 3:
        return m.group()  # "one two three four five six": counting, not spelling
    return "".join(map(_spoken_char, words))


def spelled_out(text: str) -> str | None:
    """``text`` with every value spelled with the phonetic alphabet written as its
    characters, or None when it holds none."""
    if len(NATO.intersection(text.lower().replace(",", " ").split())) < 3:
        return None
    out = _SPOKEN_RUN.sub(_spoken, text)
    return out if out != text else None


BOLD = re.compile(r"(?:\*\*|__)(?=[^\s*_])([^*_\n]{1,80}?)(?<=[^\s*_])(?:\*\*|__)")
_B64_LINES = re.compile(r"(?m)^[ \t]*[A-Za-z0-9+/]{8,76}[ \t]*(?:\n[ \t]*[A-Za-z0-9+/]{4,76}={0,2}[ \t]*){1,30}$")
_CODE_POINTS = re.compile(r"(?:U\+[0-9A-Fa-f]{4,5}[\s,;]*){3,}")
_PIECES_IN_ORDER = re.compile(
    r"(?i)\b(?:begins|starts|beginning|starting)\s+with\s+(\S{3,})|\b(?:the\s+)?(?:middle|next|then)(?:\s+(?:bit|part|piece))?"
    r"\s+(?:is|are)\s+(\S{3,})|\b(?:ends|finishes|ending)\s+(?:in|with)\s+(\S{3,})"
)


def _pieces_in_order(text: str) -> list[str]:
    return [next(g for g in m.groups() if g).rstrip(".,;") for m in _PIECES_IN_ORDER.finditer(text)]


_ONE_PER_LINE = re.compile(r"(?m)^[ \t]*\S[ \t]*(?:\n[ \t]*\S[ \t]*){5,}$")
# Words given one per number, as a wallet's recovery sheet prints them: one per line ("1. bronze",
# " 2 tiger") or in a table's cells ("| 1 | about | 7 | pumpkin |").
_NUMBERED_WORD = re.compile(
    r"(?m)(?:^[ \t]{0,8}|\|[ \t]{0,4}|[ \t]{2,12})(\d{1,2})[.):]?[ \t]{0,4}\|?[ \t]{1,12}([a-z]{3,8})(?=[ \t]{0,12}(?:\||$)|[ \t]{2,12}\d)"
)


def _numbered_words(text: str) -> str | None:
    """The words numbered 1 to 12, 18 or 24, in their order, joined by spaces."""
    found = {int(n): w for n, w in _NUMBERED_WORD.findall(text)}
    for size in (24, 18, 12):
        if all(i in found for i in range(1, size + 1)):
            return " ".join(found[i] for i in range(1, size + 1))
    return None


# A value given in numbered pieces, one a line ("1) tornado-", "2) copper-g", "3) alaxy-93"): read
# as one, after the line that says what it is.
PIECE_LINE = re.compile(r"^[ \t]*\(?(\d{1,2})[).:][ \t]*(\S{1,12})[ \t]*$")
_PIECE_LINES = re.compile(r"(?:\n[ \t]*\(?\d{1,2}[).:][ \t]*\S{1,12}[ \t]*){2,12}(?=\n|$)")


def _pieces_joined(m: re.Match[str]) -> str:
    """Numbered pieces joined in their numbers' order (listed shuffled too: "4) SMGw\n1) glft-VF")."""
    pieces = [PIECE_LINE.match(line) for line in m.group().split("\n")[1:]]
    numbers = [int(p.group(1)) for p in pieces if p]
    if not all(pieces) or sorted(numbers) != list(range(1, len(pieces) + 1)):
        return m.group()
    return " " + "".join(p.group(2) for _, p in sorted(zip(numbers, pieces, strict=True)) if p)


# Pieces said to be joined: a bulleted list of short runs ("join the items:\n- glft-\n- OgSUB"),
# runs between one separator ("W8NQ / wdMs / DzNM ... drop the separators"), groups given in
# reverse order ("groups in reverse order: b20f 291c ... key-").
_JOIN_SAID = re.compile(
    r"(?i)\bjoin(?:ed)?\b|\bconcatenat|\bno spaces\b|\b(?:glue|put|stick)\s+(?:them\s+|it\s+)?together\b|\bdrop the (?:separators|slashes|dashes|spaces)"
    r"|\bwithout the (?:separators|slashes|dashes|spaces)|\bremove the (?:separators|slashes|dashes|spaces)"
)
_BULLET_PIECES = re.compile(r"(?:\n[ \t]*[-*•][ \t]*[^\s\-*•]\S{0,11}[ \t]*){3,12}(?=\n|$)|(?:\n[ \t]*[-*•][ \t]*\S{1,12}[ \t]*){3,12}(?=\n|$)")
_SEPARATED_PIECES = re.compile(r"(?<!\S)\S{2,8}(?:[ \t]+[/|·•][ \t]+\S{2,8}){3,15}(?!\S)")
_REVERSED_GROUPS = re.compile(r"(?i)\b(?:groups?|chunks?|pieces?|parts?|blocks?) in reverse(?:d)? order\W{0,3}((?:\S{2,16}[ \t]+){3,15}\S{2,16})")
_TABLE_CELLS = re.compile(r"(?m)^[ \t]*\|(?:[ \t]*\S{1,2}[ \t]*\|){8,64}[ \t]*$")


# A note under a value that points up at it: "W8NQwdMs...\n^ gradle publish secret": read as
# "gradle publish secret: W8NQwdMs...".
_CARET_NOTE = re.compile(r"(?m)^(?P<val>[^\n^]{1,400})\n[ \t]*\^+[ \t]*(?P<name>[^\n]{1,120})")


# A value kept in numbered parts under one name ("CLARIFAI_PAT_PART1", "..._PART2"): the
# name without its number, and the parts joined in order.
_PART_NAME = re.compile(r"(?i)^(?P<base>[A-Za-z][\w.\-]*?)[_\-. ]?(?:part|pt|chunk|piece|seg(?:ment)?)?[_\-. ]?(?P<n>[1-9])$")
_PART_LINE = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?(?P<name>[A-Za-z][\w.\-]*?[_\-. ]?(?:part|pt|chunk|piece|seg(?:ment)?)[_\-. ]?[1-9])[ \t]*[:=][ \t]*[\"']?(?P<val>[^\s\"']{1,64})[\"']?[ \t]*$", re.I)


def parts_joined(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(name, value) pairs whose names are one name numbered 1..n: that name and the values
    joined in order."""
    groups: dict[str, dict[int, str]] = {}
    for name, value in pairs:
        if (m := _PART_NAME.match(name)) is not None:
            groups.setdefault(m["base"], {})[int(m["n"])] = value
    return [
        (base, "".join(parts[i] for i in sorted(parts)))
        for base, parts in groups.items()
        if len(parts) >= 2 and sorted(parts) == list(range(1, len(parts) + 1))
    ]


def _said_joined(text: str) -> str:
    if _JOIN_SAID.search(text):
        text = _BULLET_PIECES.sub(lambda m: " " + "".join(re.sub(r"^[ \t]*[-*•][ \t]*", "", line).strip() for line in m.group().split("\n")[1:]), text)
        text = _SEPARATED_PIECES.sub(lambda m: re.sub(r"[ \t]+[/|·•][ \t]+", "", m.group()), text)
    if "revers" in text:
        text = _REVERSED_GROUPS.sub(lambda m: m.group()[: m.start(1) - m.start()] + "".join(reversed(m.group(1).split())), text)
    if "|" in text:
        text = _TABLE_CELLS.sub(lambda m: "".join(c.strip() for c in m.group().split("|")), text)
    return text


# A value given as its characters at odd positions, then those at even positions.
_ODD_EVEN = re.compile(
    r"(?i)\bodd(?:\s+(?:positions?|chars?|characters?|letters?))?\s*[:=]\s*(\S{2,40})\s*[|,;/]?\s*"
    r"even(?:\s+(?:positions?|chars?|characters?|letters?))?\s*[:=]\s*(\S{2,40})"
)


def _interleaved(m: re.Match[str]) -> str:
    odd, even = m.group(1), m.group(2)
    if not 0 <= len(odd) - len(even) <= 1:
        return m.group()
    return "".join(a + b for a, b in zip(odd, even, strict=False)) + (odd[-1] if len(odd) > len(even) else "")


# What names a wallet's words, and a card (the joined views are made only where one is named).
_WALLET_WORDS = re.compile(r"(?i)seed|recovery|mnemonic|wallet|backup|ledger|trezor|metamask|electrum|phrase|bip-?39")
_CARD_NAMED = re.compile(
    r"(?i)card|visa|master|amex|american express|jcb|diners|discover|unionpay|maestro|karte|tarjeta|carte|cart[aã]o|kaart"
)
# Three to five lines that each hold only a group of four to six digits.
_GROUP_LINES = re.compile(r"(?m)^[ \t]*\d{4,6}[ \t]*(?:\n[ \t]*\d{4,6}[ \t]*){2,4}$")


# A value built in code from parts: a template of variables each given a literal above
# ("const p1 = \"3i1x\"; ... `${p1}${p2}`"), or a format of only "%s" / "{}" filled by literals.
_LITERAL_VAR = re.compile(r"(?<![\w.])([A-Za-z_]\w{0,30})\s*(?::=|=)\s*([\"'`])([^\"'`\n]{1,64})\2")
_TEMPLATE_VARS = re.compile(r"([`\"'])((?:\$\{\s*[A-Za-z_]\w*\s*\}|\{\s*[A-Za-z_]\w*\s*\}){2,12})\1")
_FORMAT_PARTS = re.compile(
    r"(?P<call>\b[\w.]*(?i:printf|format)\s*\(\s*)?([\"'])((?:%s|\{\}){2,12})\2\s*"
    r"(?:,|%\s*(?P<tup>\()?|\)\s*\.format\s*(?P<fmt>\()|\.format\s*(?P<fmt2>\())"
    r"\s*((?:[\"'][^\"'\n]{1,64}[\"']\s*,?\s*){2,12})(?(call)\s*\))(?(tup)\s*\))(?(fmt)\s*\))(?(fmt2)\s*\))"
)


def _built_from_parts(text: str) -> str:
    names = {m.group(1): m.group(3) for m in _LITERAL_VAR.finditer(text)}

    def template(m: re.Match[str]) -> str:
        parts = re.findall(r"[A-Za-z_]\w*", m.group(2))
        if not all(p in names for p in parts):
            return m.group()
        return m.group(1) + "".join(names[p] for p in parts) + m.group(1)

    def formatted(m: re.Match[str]) -> str:
        literals = re.findall(r"[\"']([^\"'\n]{1,64})[\"']", m.group(7))
        if len(literals) != len(re.findall(r"%s|\{\}", m.group(3))):
            return m.group()
        return f'"{"".join(literals)}"'

    if names and ("${" in text or "{" in text):
        text = _TEMPLATE_VARS.sub(template, text)
    if "%s" in text or "{}" in text:
        text = _FORMAT_PARTS.sub(formatted, text)
    return text


_CODES_SAID = re.compile(r"(?i)[ \t]*[-—–,(]?[ \t]*(?:in[ \t]+|as[ \t]+)?(?:ascii|decimal|char(?:acter)?)[ \t]+codes?\)?(?=[ \t]*[:\n])")
_DECIMAL_CODES = re.compile(r"(?<![\d.])(?:\d{2,3}[ \t]*[,; ][ \t]*){7,200}\d{2,3}(?![\d.])")


def _decimal_chars(m: re.Match[str]) -> str:
    codes = [int(c) for c in re.findall(r"\d+", m.group())]
    return "".join(map(chr, codes)) if all(32 < c < 127 for c in codes) else m.group()


def full_views(text: str, depth: int = 2) -> list[str]:
    """Texts that read like ``text`` with one disguise undone: homoglyphs folded, base64,
    hex and percent-encoded runs decoded (again inside what was decoded, to ``depth``),
    and the disguises a text names undone (rot13, a letter shift, morse, every other
    character)."""
    out: list[str] = []
    folded = fold(text)
    if "\\\n" in folded:  # a shell line continued: export TOKEN="dp.pt.PUcLv\<newline>aq7b..."
        folded = re.sub(r"\\\n[ \t]*", "", folded)
    if folded != text:
        out.append(folded)
    # a value cut into string literals joined by "+", or written a character at a time: read
    # whole where it stands, so the words around it still name it
    if ("+" in folded or "' '" in folded or '" "' in folded) and _CONCAT.search(folded):
        out.append(_CONCAT.sub(lambda m: _joint(folded, m), folded))
    if any(h in folded for h in _JOIN_MARKS) and _JOIN_HINT.search(folded) and (
        _JOINED.search(folded) or _WORD_ARRAY.search(folded)
    ):  # CONCAT('t3Sc', 'jIuo'), "a" .. "b", .append("x")
        joined = _JOINED.sub("", _WORD_ARRAY.sub(lambda m: "".join(m.group(1).split()), folded))
        if not _ALPHABETS.search(joined.lower()):  # a character set joined ("abc..." + "ABC..." + "0123..."): as written
            out.append(joined)
    if "\u202e" in text:  # U+202E shows the run after it reversed: read it as shown
        out.append(_RLO_RUN.sub(lambda m: m.group(1)[::-1], text))
    if '\\"' in folded:  # JSON escaped inside JSON: payload="{\"data\": \"{\\\"name\\\": ...
        unescaped = folded
        for _ in range(3):
            unescaped = unescaped.replace("\\\\", "\\").replace('\\"', '"')
        out.append(unescaped)
    if ("${" in folded or "%s" in folded or "{}" in folded) and (built := _built_from_parts(folded)) != folded:
        out.append(built)  # `${p1}${p2}` of literals defined above; Sprintf("%s%s", "ly4p", "o9oh")
    if "<key>" in folded and _PLIST_PAIR.search(folded):
        out.append(_PLIST_PAIR.sub(r'\1 = "\2"', folded))
    if ("name" in folded or "label" in folded) and "value" in folded and _NAME_VALUE.search(folded):
        # a container's env ("- name: X_SECRET / value: ..."), a form's field ("label=PIN; value=...")
        out.append(_NAME_VALUE.sub(lambda m: f"{m.group(1) or m.group(3)}: {m.group(2) or m.group(4)}", folded))
    if "variable" in folded and "default" in folded and _TF_DEFAULT.search(folded):
        out.append(_TF_DEFAULT.sub(r'\1 = "\2"', folded))  # variable "x_secret" { default = "..." }
    if "=" in folded and "</" in folded and _TITLED.search(folded):
        out.append(_TITLED.sub(r"\2: \3", html.unescape(folded) if "&" in folded else folded))
    if "<![CDATA[" in folded:
        out.append(_CDATA.sub(r"\1", folded))
    if "join" in folded and _JOINED_LIST.search(folded):
        out.append(_JOINED_LIST.sub(_joined_list, folded))
    if not folded.isascii() and _GROUPS_APART.search(folded):  # "fJf·c3B·YJfA·E20D·Ie": one separator between groups
        out.append(_GROUPS_APART.sub(lambda m: m.group().replace(m.group(1), ""), folded))
    if _ONE_AT_A_TIME.search(folded):
        out.append(_ONE_AT_A_TIME.sub(lambda m: m.group()[::2], folded))
    if "\n" in folded and (column := down_a_column(folded)) != folded:
        out.append(column)
    if ("**" in folded or "__" in folded) and BOLD.search(folded):  # "- **password**: `...`": Markdown's bold
        out.append(BOLD.sub(r"\1", folded))
    if ("ascii" in folded.lower() or "char code" in folded.lower() or "chr(" in folded) and _DECIMAL_CODES.search(folded):
        decoded = _DECIMAL_CODES.sub(_decimal_chars, folded)  # "ASCII codes: 97,111,112,...": characters by number
        out.append(_CODES_SAID.sub("", decoded))  # the words naming the disguise gone: "token — ASCII codes:" reads "token:"
    if "U+" in folded and _CODE_POINTS.search(folded):  # "U+0039 U+0036 U+0035": characters by number
        out.append(_CODE_POINTS.sub(lambda m: "".join(chr(int(h, 16)) for h in re.findall(r"[0-9A-Fa-f]{4,5}", m.group())), folded))
    if ("with" in folded or "iddle" in folded) and len(pieces := _pieces_in_order(folded)) >= 2:
        out.append(folded + " : " + "".join(pieces))  # "begins with X. The middle bit is Y. It ends in Z."
    if "\n" in folded and _B64_LINES.search(folded):  # base64 wrapped over lines: one run to decode
        joined = _B64_LINES.sub(lambda m: "".join(m.group().split()), folded)
        out.append(joined)
        out.extend(_decoded(joined))
    if "\n" in folded and _ONE_PER_LINE.search(folded):  # "T\ni\ng\ne\nr": a value written downwards
        out.append(_ONE_PER_LINE.sub(lambda m: m.group().replace("\n", "").replace(" ", ""), folded))
    if "\n" in folded and (words := _numbered_words(folded)):
        # as a wallet shows them where the text names one; else listed, so their checksum must hold
        words = words if _WALLET_WORDS.search(folded) else words.replace(" ", ", ")  # " 1 cable\n 2 tiger\n ...": a wallet's words
        out.append(words)
    if ("join" in folded or "revers" in folded or "|" in folded or "together" in folded or "order" in folded or "separat" in folded
        or "combin" in folded or "concat" in folded or "spaces" in folded) and (said := _said_joined(folded)) != folded:
        out.append(said)
    if "\n" in folded and ("art" in folded or "ART" in folded) and len(lines := _PART_LINE.findall(folded)) >= 2:
        out.extend(f"{name}: {value}" for name, value in parts_joined(lines))  # "X_PASSWORD_PART1: emsj-pcxk" ...
    if ("\n^" in folded or "\n ^" in folded) and (noted := _CARET_NOTE.sub(lambda m: f"{m['name']}: {m['val']}", folded)) != folded:
        if len(noted) <= 2000 and folded.count("^") <= 4:  # a note, not a log of carets: read as any text
            out.extend([noted, *full_views(noted, depth)])
        else:
            out.extend([noted, _said_joined(noted)])
    if "\n" in folded and (joined_pieces := _PIECE_LINES.sub(_pieces_joined, folded)) != folded:
        out.append(joined_pieces)  # "wifi password, in pieces:\n1) tornado-\n2) copper-g\n3) alaxy-93"
    if "odd" in folded and "even" in folded and _ODD_EVEN.search(folded):  # "odd: kC8rL | even: v$*L-"
        out.append(_ODD_EVEN.sub(_interleaved, folded))
    if "\n" in folded and _GROUP_LINES.search(folded) and _CARD_NAMED.search(folded):  # a card's groups one per line
        out.append(_GROUP_LINES.sub(lambda m: " ".join(m.group().split()), folded))
    if len(text) >= 20 and any(
        h in text for h in ("rot", "ROT", "orse", "hift", "every", "evers", "ackwards", "cnff", "frperg", "gbxra", "pbagen",
                            "drowssap", "terces", "nekot", "aesartnoc", "nip ym", "ase64", "to left", "ot47", "ot-47", "ase 64", "b64", "ase32",
                            "ncod", "odiert", "odifi")
    ):
        out.extend(_named_disguises(folded))
    if (spelled := spelled_out(folded)) is not None:
        out.append(spelled)
    frontier = [folded]
    for _ in range(depth):
        nxt = []
        for t in frontier:
            nxt.extend(_decoded(t))
        out.extend(nxt)
        frontier = nxt
        if not frontier:
            break
    return out


# -- token views --------------------------------------------------------------------------------

# Four or more short chunks separated by spaces: "g h p _ 1 a", "AKIA Z7VR SQ5T JNNW".
_SPACED = re.compile(r"(?<!\S)(?:[^\s]{1,6}[ \t]{1,3}){3,}[^\s]{1,6}(?!\S)")
# A run without spaces cut into short chunks by one separator: "AKIA.Z7VR.SQ5T", "4111.1111".
_SEPARATED = re.compile(r"[^\s]{16,}")
# Digits in groups with any separators between them: "4111.1111.1111.1111", "4111 / 1111".
_DIGIT_GROUPS = re.compile(r"(?<![\w])(?:\d{1,6}[ \t.\-/|·•_,]{1,3}){2,}\d{1,6}(?![\w])")
_SEPARATORS = ".-·•|/:,"
_TOKENISH = re.compile(r"[A-Za-z0-9_+/=\-]{16,}")
_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[A-Za-z]")
_UPPER = re.compile(r"[A-Z]")
_LOWER = re.compile(r"[a-z]")
_TOKENISH_LONG = re.compile(r"[A-Za-z0-9_+/=\-]{20,}")
# A token wrapped over lines: two or more lines that each hold one run and nothing else
# (an e-mail's "> " quoting aside); the last may be short. A variable's name with an empty
# value ("SMTP_PASSWORD=") is a line of its own, not a piece of the next one.
_WRAPPED = re.compile(
    r"(?m)(?:^(?![ \t]*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+=[ \t]*$)[ \t]*(?:>[ \t]?)*[A-Za-z0-9_+/=\-]{6,100}"
    r"\\?[ \t]*\n){1,11}"
    r"^[ \t]*(?:>[ \t]?)*[A-Za-z0-9_+/=\-]{1,100}\\?[ \t]*$"
)
# String literals joined in code: "hf_Dkyy" + "aqST", 'sk_' 'live...' (possessive: no
# backtracking over long runs of blanks).
_CONCAT = re.compile(r"([\"'`])\s*+(?:\+\s*+)?\1")
# Code that builds a value from literals: the literals' joints, and Ruby's %w[...] words.
_JOIN_MARKS = ("oncat", "ONCAT", "oin", "ppend", "uildString", "..", "||", "%s%s", "%w[")  # a quick test first
_JOIN_HINT = re.compile(r"(?i)\bconcat|\bjoin\b|\.join\(|append\(|buildstring|\.\.|\|\||%s%s|%w\[|\bstring\.join")
_JOINED = re.compile(
    r"([\"'`])\s*(?:\+|\|\||\.\.|&|,|\)\s*;?\s*\.?\s*append\s*\(|\)\s*;\s*append\s*\()?\s*\1"
)
_WORD_ARRAY = re.compile(r"%w\[([^\]\n]{4,200})\]")
_ALPHABETS = re.compile(r"abcdefghij|0123456789")
_RLO_RUN = re.compile("\u202e([^\u202c\n]*)\u202c?")
_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.S)
_PLIST_PAIR = re.compile(r"<key>([^<]{1,80})</key>\s*<string>([^<]{1,500})</string>")
# A variable named in one field and valued in the next: Kubernetes' and ECS's env lists
# (YAML "- name: X" then "value: ...", or JSON {"name": "X", "value": "..."}), Postman's
# environments ({"key": "X", "value": "..."}).
_NAME_VALUE = re.compile(
    r"""["']?(?:name|key)["']?\s*:\s*["']?([A-Za-z_][\w.-]{1,80})["']?\s*(?:,\s*|\n[ \t]*)["']?value["']?\s*:\s*["']?([^"'\s,}]{1,500})["']?"""
    # a form's field: "label=mã két sắt; value=12-29-10", {"label": "...", "value": "..."}
    r"""|["']?label["']?\s*[:=]\s*["']?([^"'\n;]{1,80}?)["']?\s*(?:[,;]\s*|\n[ \t]*)["']?value["']?\s*[:=]\s*["']?([^"'\n;}]{1,200}?)["']?\s*(?=[;,}\n]|$)"""
)
# A Terraform variable and its default, a few lines apart in its block.
_TF_DEFAULT = re.compile(r'variable\s+"([\w-]{1,80})"\s*\{[^{}]{0,200}?\bdefault\s*=\s*"([^"\n]{1,500})"')
_TITLED = re.compile(
    r"<(\w+)[^>]*?\b(?:title|aria-label|data-label|alt)=\"([^\"]{1,80})\"[^>]*>([^<]{1,300})</\1>"
)
# A list of string literals joined in code: ['f8d4', '6f1f'].join(''), "".join(["shpss", "_3f3c"]).
_LITERAL = r"""(?:'[^'\n]{0,80}'|"[^"\n]{0,80}")"""
_LIST_ITEMS = rf"\[\s*(?:{_LITERAL}\s*,\s*)+{_LITERAL}\s*,?\s*\]"
_JOINED_LIST = re.compile(rf"""(?P<a>{_LIST_ITEMS})\.join\(\s*(?:''|"")\s*\)|(?:''|"")\.join\(\s*(?P<b>{_LIST_ITEMS})\s*\)""")


def _joint(text: str, m: re.Match[str]) -> str:
    """Two literals side by side joined ("" for the joint), unless nothing but blanks joins
    them and they read as a command's separate arguments, a setting's name and its value
    (``dotnet user-secrets set "Api:Region" "eu-west-1"``), a header and a URL, a variable's
    reference (``"$CI_JOB_TOKEN" "$CI_API_URL/..."``): a name and its value are read as
    ``"name"="value"``, the others are left apart."""
    if "+" in m.group():
        return ""
    q = m.group(1)
    left = text[text.rfind(q, 0, m.start()) + 1 : m.start()]
    end = text.find(q, m.end())
    right = text[m.end() : end if end >= 0 else len(text)]
    if "$" in left or right.startswith(("$", "http", "/")):
        return m.group()
    if _SETTING_NAME.fullmatch(left):
        return q + "=" + q  # read as a name and its value: "Api:Token"="..."
    return ""


_SETTING_NAME = re.compile(r"[A-Za-z_][\w.\-]*(?::[A-Za-z_][\w.\-]*)+")  # "Billing:Region", not "https:" or "admin:"


def _joined_list(m: re.Match[str]) -> str:
    """The list's literals as one string literal (an alphabet joined, "abcdef..." or
    "0123456789", is a character set, left as written)."""
    items = re.findall(_LITERAL, m.group("a") or m.group("b"))
    joined = "".join(item[1:-1] for item in items)
    if "abcdef" in joined.lower() or "0123456" in joined:
        return m.group()
    return '"' + joined + '"'


# Groups of characters with one separator between them that no text uses there (a middle
# dot, a bullet, an en dash): "fJf·c3B·YJfA·E20D·Ie", "Kfw–bVAaf–ZbI6–BVRy".
_GROUPS_APART = re.compile(r"(?<![\w·•‧∙–])[\w!+/=~-]{1,8}([·•‧∙–])(?:[\w!+/=~-]{1,8}\1){3,}[\w!+/=~-]{1,8}(?![\w·•‧∙–])")
# A token cut into pieces joined by " + " outside any quotes ("ghp_6Hzl + LUA8Drl + 2Xcg").
_PLUS_JOINED = re.compile(r"[A-Za-z0-9_\-]{4,}(?:\s*\+\s*[A-Za-z0-9_\-]{4,}){1,8}")
# A value written one character at a time with one separator: "h-f-i-W-C-k-1-g-2-x".
# (any one symbol between: "3🔸4🔸8🔸6", not a letter, a digit, a space or a quote)
_ONE_AT_A_TIME = re.compile(
    r"(?<![\w-])[A-Za-z0-9~#%+!@$&*?^_-]([^\w\s'\"`])(?:[A-Za-z0-9~#%+!@$&*?^_-]\1){4,}[A-Za-z0-9~#%+!@$&*?^_-](?![\w-])"
)
# A value written down a column, a character a line ("(vertical, read down):\nA\nA\nR\n!...").
_COLUMN = re.compile(r"(?:\n[ \t]*\S[ \t]*(?=\n|$)){6,}|(?:\n[ \t]*\d[ \t]*(?=\n|$)){4,}")


def down_a_column(text: str) -> str:
    """``text`` with six or more one-character lines in a row (four digits: a PIN) joined onto
    the line above."""
    return _COLUMN.sub(lambda m: " " + "".join(m.group().split()), text)


def _rejoin(run: str, sep: str) -> str | None:
    """``run`` without the separators that cut it into chunks; an empty chunk (two
    separators in a row) stands for a separator that belonged to the value."""
    pieces = run.split(sep)
    if len(pieces) < 4:
        return None
    real = [p for p in pieces if p]
    if sum(len(p) <= 5 for p in real) < 0.75 * len(real):
        return None
    return "".join(p if p else sep for p in pieces)


# A value built from shell or script variables: 'A="hf_Gm..."', 'B="gUB..."', then "${A}${B}".
_VAR_SET = re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+|set[ \t]+|let[ \t]+|const[ \t]+|var[ \t]+)?([A-Za-z_]\w{0,30})[ \t]*=[ \t]*"
    r"[\"']?([A-Za-z0-9_\-+/.=~]{2,200}?)[\"']?[ \t;]*$"
)
_VAR_JOIN = re.compile(r"(?:\$\{?[A-Za-z_]\w{0,30}\}?){2,8}")
_VAR_REF = re.compile(r"\$\{?([A-Za-z_]\w{0,30})\}?")
# A table's row (Markdown, or any line cut by "|") and the cells of a column read down it.
_TABLE_LINE = re.compile(r"(?m)^[ \t]*\|?(?:[^|\n]*\|){1,12}[^|\n]*$")
_RULE_CELL = re.compile(r"\s*:?-{2,}:?\s*")
# A token's prefix written alone, its body after it ("the usual ghp_ prefix, and after that: 9TBZ...").
_BARE_PREFIX = re.compile(
    r"(?<![\w-])(ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|xox[abpr]-|sk-proj-|sk-ant-|sk-|sk_live_|rk_live_|hf_|npm_"
    r"|pypi-|shpat_|dop_v1_|AKIA|ASIA)(?![A-Za-z0-9])"
)
_BODY = re.compile(r"(?<![\w-])[A-Za-z0-9_\-]{16,}(?![\w-])")
# what joins a prefix to its body in words: "ghp_ prefix, and after that: ...", "sk- then ..."
_JOINS = re.compile(r"(?i)\b(?:then|after|followed|rest|next|plus|and)\b|\+|:")
_PIECE = re.compile(r"\S{4,}")


def _pieced(text: str) -> list[str]:
    """A token given in pieces: variables joined in a script, a table's column, pieces on a
    line cut by "|" (in either order: "chunks, last one first"), a prefix named apart from
    its body."""
    out: list[str] = []
    if "$" in text and "=" in text and _VAR_JOIN.search(text):
        names = dict(_VAR_SET.findall(text))
        for m in _VAR_JOIN.finditer(text):
            refs = _VAR_REF.findall(m.group())
            if all(r in names for r in refs):
                out.append("".join(names[r] for r in refs))
    if "|" in text:
        rows = [
            [c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.split("\n")
            if _TABLE_LINE.fullmatch(line) and "|" in line
        ]
        rows = [r for r in rows if not all(_RULE_CELL.fullmatch(c) or not c for c in r)]
        if 2 <= len(rows) <= 40:
            width = max(len(r) for r in rows)
            for col in range(width):
                cells = [r[col] for r in rows if col < len(r) and r[col] and " " not in r[col]]
                if len(cells) >= 2:
                    out.append("".join(cells))
                    out.append("".join(cells[1:]))  # under its header
        for line in text.split("\n"):
            if line.count("|") < 2:
                continue
            run: list[str] = []
            for cell in [*line.split("|"), " "]:  # runs of 3 to 12 cells, each one word of 4+ characters
                words = cell.split()
                if len(words) == 1 and _PIECE.fullmatch(words[0]):
                    run.append(words[0])
                    continue
                if words and _PIECE.fullmatch(words[0]):
                    run.append(words[0])  # a sentence's first word ends the run ("... | xoxb-66 (the start)")
                if 3 <= len(run) <= 12:
                    out.append("".join(run))
                    out.append("".join(reversed(run)))
                run = [words[-1]] if len(words) > 1 and _PIECE.fullmatch(words[-1]) else []  # its last word starts one
    if _BARE_PREFIX.search(text):
        for m in _BARE_PREFIX.finditer(text):
            body = _BODY.search(text, m.end(), m.end() + 160)
            if body is not None and _JOINS.search(text, m.end(), body.start()):
                out.append(m.group(1) + body.group())
    return out


def token_views(text: str) -> list[str]:
    """Strings that may be a token once the text's spacing, separators or direction is
    undone, or its pieces put together. Meant for token formats only (see the module's docstring)."""
    out: list[str] = _pieced(text)
    if "\n" in text:
        for m in _WRAPPED.finditer(text):
            joined = re.sub(r"[\s\\>]+", "", m.group())
            if len(joined) >= 20:
                out.append(joined)
    if "+" in text:
        for m in _PLUS_JOINED.finditer(text):
            out.append(re.sub(r"\s*\+\s*", "", m.group()))
    if "\n" in text and _CONCAT.search(text):  # literals on lines of their own (joined in full_views otherwise)
        out.append(_CONCAT.sub("", text))
    if not _DIGIT.search(text):
        # token formats hold a digit, or mixed case and a separator ("glpat-...", "xoxb-..."):
        # only a reversed run of the latter can hide one here
        if len(text) >= 20:
            for m in _TOKENISH_LONG.finditer(text):
                run = m.group()
                if ("-" in run or "_" in run) and _UPPER.search(run) and _LOWER.search(run):
                    out.append(run[::-1])
        return out
    for m in _SPACED.finditer(text):
        run = m.group()
        if _DIGIT.search(run):
            joined = re.sub(r"[ \t]+", "", run)
            if len(joined) >= 12:
                out.append(joined)
                # "api key sk -A UX I3 ...": the words before the token joined to it would
                # hide its prefix
                chunks = run.split()
                lead = 0
                while lead < len(chunks) - 4 and len(chunks[lead]) >= 3 and chunks[lead].isalpha():
                    lead += 1
                if lead:
                    out.append("".join(chunks[lead:]))
    for m in _DIGIT_GROUPS.finditer(text):
        digits = re.sub(r"\D", "", m.group())
        if 12 <= len(digits) <= 19:
            out.append(digits)
    if len(text) >= 16:
        for m in _SEPARATED.finditer(text):
            run = m.group()
            for sep in _SEPARATORS:
                if run.count(sep) >= 3:
                    rejoined = _rejoin(run, sep)
                    if rejoined is not None:
                        out.append(rejoined)
        for m in _TOKENISH.finditer(text):
            run = m.group()
            if _DIGIT.search(run) and _LETTER.search(run):
                out.append(run[::-1])
    return out
