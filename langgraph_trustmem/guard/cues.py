"""The last line of the guard: a credential named, and a value that could be it, side by side.

The detectors before this one recognise how a secret is usually written ("my PIN is 4821",
``password=...``) and say nothing when the phrasing is new: another language, a record
whose fields carry the meaning, digits spelled out or typed as keycaps. This check asks a
simpler question of the whole memory at once (its key, its field names and its texts, as
one document of short lines): does a line name a kind of credential (a cue from a small
multilingual lexicon) and hold, just after or just before the cue, a value of that kind's
shape (three to ten digits for a code; a token mixing letters with digits or symbols for a
password), that is not explained as something else (a year, a time, a price, a count with
its unit, a house number, a booking reference)?

Two narrower questions follow (:func:`record_secret`, :func:`pointed_secret`): does a
small record or list that names a credential hold it cut into pieces or disguised in its
other items, and does a memory say its credential is its key or namespace label?

It knows less than the detectors and so asks more of the value than they do; the held-out
corpora measure what it adds and what it costs.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from langgraph_trustmem.guard import detectors
from langgraph_trustmem.guard.bip39 import BIP39_WORDS
from langgraph_trustmem.guard.detectors import (
    _ADDRESS_WORDS,
    _CODE_REFERENCE,
    ONE_TIME_CODE,
    PASSWORD,
    PIN,
    _has,
)
from langgraph_trustmem.guard.fields import DOC_EXAMPLES, DOC_VALUES, SECURITY_ANSWER, passphrase
from langgraph_trustmem.guard.normalize import (
    _CHAR_CODES,
    _CHAR_HINT,
    BOLD,
    FORMAT_CHARS,
    KEYPAD,
    char_codes,
    decodes_to_prose,
    down_a_column,
    spelled_out,
)

__all__ = ["cued_secret", "document", "pointed_secret", "record_secret", "respelled"]


# -- the document ----------------------------------------------------------------------------

_MAX_LINES = 2000
_MAX_CHARS = 200_000  # a memory larger than this is read up to here (the detectors read it all)
_MAX_DEPTH = 32  # nesting read (JSON inside strings included); the store refuses deeper values
_MAX_PIECES = 24  # a record or list with more short items than this is data, not a split value
_CHUNK = 4000
_OVERLAP = 200


def document(value: Any, labels: Iterable[str] = ()) -> list[str]:
    """The memory as short lines: each label (namespace, key), each string at any depth
    prefixed by its field name, each record's short fields on one line, so
    ``{"note": "SIM card PIN", "value": "800134"}`` reads ``note: SIM card PIN, value: 800134``,
    and, where one item of a small record or list names a credential, the others joined
    after it (``{"label": "card PIN", "first": "16", "second": "75"}`` also reads
    ``card PIN: 1675``): a value split up so that no piece looks like one. A label that
    names a credential is read with a value that is one token (``("codes", "front door")``
    with ``{"value": "8841"}``)."""
    lines = [str(label).replace("_", " ").replace("-", " ") for label in labels]
    named = [label for label in lines if _names_credential(label)]
    if named:  # the value's own scalars (not those nested in its other fields)
        if isinstance(value, Mapping):
            top = [v for k, v in value.items() if not _META.match(str(k))]
        else:
            top = list(value) if isinstance(value, (list, tuple)) else [value]
        texts = [t for t in map(_scalar, top[: _MAX_PIECES + 1]) if t is not None and t.strip()]
        if len(texts) == 1 and len(texts[0]) <= 64 and not any(ch.isspace() for ch in texts[0].strip()):
            lines.extend(f"{label}: {texts[0]}" for label in named)
    out: list[str] = []
    size = 0
    for line in _lines(value, "", 0):
        for start in range(0, max(len(line) - _OVERLAP, 1), _CHUNK - _OVERLAP):
            chunk = line[start : start + _CHUNK]
            out.append(chunk)
            size += len(chunk)
        if len(out) >= _MAX_LINES or size >= _MAX_CHARS:
            break
    return lines + out[:_MAX_LINES]


def _scalar(v: Any) -> str | None:
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (str, int)):
        return str(v)
    return None


def _short(s: str | None) -> bool:
    """A piece of a record rather than a text of its own."""
    return s is not None and len(s) <= 60 and "\n" not in s


# Fields that describe a memory rather than hold its content: never pieces of a value.
_META = re.compile(
    r"(?i)^(?:role|source|created(?:_at)?|updated(?:_at)?|date|time|timestamp|ts|tags?|type|kind|id|uuid|lang"
    r"|language|author|user|vendor|provider|service|app|channel|category|priority|status|version|format)$"
)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}:\d{2}")


def _texts_of(v: Any, depth: int, limit: int = _MAX_PIECES + 1) -> list[str]:
    """The scalars of a record or list item, in order (a chat message's content), without
    the fields that only describe it (role, source, dates); at most ``limit`` of them."""
    out: list[str] = []
    stack: list[tuple[Any, int]] = [(v, depth)]
    while stack and len(out) < limit:
        x, d = stack.pop()
        if d > _MAX_DEPTH:
            continue
        if isinstance(x, Mapping):
            stack.extend((y, d + 1) for k, y in reversed(list(x.items())[:limit]) if not _META.match(str(k)))
        elif isinstance(x, (list, tuple)):
            stack.extend((y, d + 1) for y in reversed(x[:limit]))
        elif (text := _scalar(x)) is not None:
            out.append(text)
    return out


def _plain(text: str) -> str:
    """Lower case without accents (the cheap path for ASCII)."""
    low = text.lower()
    return low if low.isascii() else _unaccented(low).replace("ł", "l").replace("ı", "i")


def _names_credential(text: str) -> bool:
    low = _plain(text).replace("_", " ")
    return _triggered(low) and _CUE_ANY.search(low) is not None


def _strongly_named(text: str) -> bool:
    """Named by more than a word that only sometimes names a password ("pass", "clave")."""
    low = _plain(text).replace("_", " ")
    cues = [m.group() for m in _PASSWORD_CUE.finditer(low)]
    return not cues or any(c not in _WEAK_PW_CUES for c in cues) or _CUE_ANY.search(
        _PASSWORD_CUE.sub(" ", low)
    ) is not None


def _pieces(items: list[str]) -> Iterator[str]:
    """In a small record or list, the short items without spaces around the one item that
    names a credential, joined after it: ``card PIN: 1675``."""
    if not 3 <= len(items) <= _MAX_PIECES:
        return
    named = [item for item in items if " " in item.strip() and _names_credential(item)]
    if len(named) != 1 or not _strongly_named(named[0]):
        return  # none, a list of notes about credentials, or "Bus pass" among groceries
    rest = [p.strip() for p in items if p is not named[0] and p.strip() and " " not in p.strip()]
    rest = [p for p in rest if len(p) <= 24 and not _DATE.search(p) and not _names_credential(p)]
    if len(rest) >= 2:
        yield f"{named[0]}: {''.join(rest)}"


def _json_like(text: str) -> bool:
    text = text.strip()
    return 2 < len(text) <= 100_000 and text[0] in "{[" and text[-1] in "}]"


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _lines(value: Any, name: str, depth: int) -> Iterator[str]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, Mapping):
        parts = []
        sentences: list[tuple[str, str]] = []
        for k, v in value.items():
            s = _scalar(v)
            key = str(k).replace("_", " ")
            if isinstance(v, str) and _json_like(v):
                yield from _lines(v, key, depth + 1)
            elif _short(s):
                parts.append(f"{key}: {s}")
                if s is not None and " " in s.strip():
                    sentences.append((key, s))
            else:
                yield from _lines(v, key, depth + 1)
        if parts:
            yield ", ".join(parts)
        if len(parts) >= 2:  # each sentence that names a credential on its own too, beside the record's other fields
            yield from (f"{key}: {s}" for key, s in sentences if _triggered(_plain(s)))
        if len(value) <= _MAX_PIECES:
            yield from _pieces([t for t in _texts_of(value, depth) if _short(t)])
    elif isinstance(value, (list, tuple)):
        short = [s for s in map(_scalar, value) if s is not None and _short(s)]
        if short:
            yield (f"{name}: " if name else "") + ", ".join(short)
        if 2 <= len(short) <= _MAX_PIECES:  # each sentence on its own too: ["card PIN: 6200", "#todo"] reads as "card PIN: 6200" does
            yield from ((f"{name}: " if name else "") + s for s in short if " " in s.strip())
        for v in value:
            if not _short(_scalar(v)):
                yield from _lines(v, name, depth + 1)
        if len(value) <= _MAX_PIECES:
            yield from _pieces([t for t in _texts_of(value, depth) if _short(t)])
    elif isinstance(value, str):
        if _json_like(value):
            inner = _parsed(value.strip())
            if isinstance(inner, (dict, list)):
                yield from _lines(inner, name, depth + 1)
                return
        if "\n" in value:
            value = down_a_column(detectors.without_sealed(value))
        for line in value.splitlines():
            if line.strip():
                yield f"{name}: {line}" if name else line


# -- normalisation ---------------------------------------------------------------------------

_KEYCAP = re.compile("[\ufe0f\u20e3]")
_LOCK_EMOJI = re.compile(r"[🔐🔒](?=[\s:=\-]{0,3}\d)")


_SPACED = re.compile(r"(?<!\S)(?:\S ){5,}\S(?!\S)")  # "t h u n d e r 1 9 7 5"
_B64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{6,40}={0,2}(?![A-Za-z0-9+/=])")


def _decoded(m: re.Match[str]) -> str:
    token = m.group()
    if len(token) % 4 or not (any(c.isdigit() for c in token) or token.endswith("=")):
        return token
    try:
        text = base64.b64decode(token, validate=True).decode("ascii")
    except (binascii.Error, ValueError):
        return token
    return f"{token} {text}" if text.isprintable() and text.strip() else token


# Letters with no decomposition to drop an accent from ("dørkode", "Schloß").
_DIGITS_APART = re.compile(r"(?<![\w.,:/-])\d ?([^\w\s'\"`.,:/-]) ?(?:\d ?\1 ?){2,9}\d(?![\w.,:/-])")
_UNDECOMPOSED = str.maketrans({"ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "đ": "d", "Đ": "D"})
_LATIN_MARKS = re.compile(r"(?<=[A-Za-z\u00c0-\u024f])[\u0300-\u036f]+")


def _unaccented(text: str) -> str:
    """Accents off Latin letters (kana keep their marks, Hangul its syllables)."""
    return unicodedata.normalize("NFC", _LATIN_MARKS.sub("", unicodedata.normalize("NFKD", text)))


# A short run of character codes in brackets, as a PIN is hidden ("fromCharCode(49, 52, 57,
# 52)", "[48, 49, 54, 54]"); the detectors decode long runs (normalize.char_codes).
_BRACKETED_CODES = re.compile(r"[\[(]\s*((?:\d{2,3}\s*,\s*){3,}\d{2,3})\s*[\])]")


def _chars(m: re.Match[str]) -> str:
    chars = char_codes(m.group(1))
    return m.group() if chars is None or " " in chars else f" {chars} "


# A code given as the letters a phone's keypad prints on its keys ("the PIN spells SCBD on the
# phone keypad": 7223), and given digit by digit ("first digit 4, second digit 1, ... last one 8").
_KEYPAD_WORD = re.compile(
    r"(?i)(\bspells?[ \t]{1,3})([A-Z]{3,10})([ \t]{1,3}on[ \t]{1,3}(?:the |a |my )?(?:phone(?:'s)? |telephone )?(?:key ?pad|dial ?pad|keys))"
)
_POSITION = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|last|final|next|1st|2nd|3rd|[4-8]th)"
_POSITIONS = re.compile(
    rf"(?i)(?<!\w){_POSITION} {{1,3}}(?:digit|number|one)(?: is)? ?[:=]? ?\d(?: ?[,;]? {{0,3}}(?:and |then )?{_POSITION}"
    rf"(?: {{1,3}}(?:digit|number|one))?(?: is)? ?[:=]? ?\d(?!\d)){{2,9}}"
)
_POSITION_DIGIT = re.compile(r"(?<!\w)\d(?!\w)")


# (Chinese financial numerals become the plain ones, read as a run with 零 below)
_OTHER_DIGITS = str.maketrans("⚀⚁⚂⚃⚄⚅" "壹贰貳叁參肆伍陆陸柒捌玖" "۰۱۲۳۴۵۶۷۸۹", "123456" "一二二三三四五六六七八九" "0123456789")
# digits of other scripts and styles: Indic, Thai, Khmer, fullwidth, super- and subscript,
# circled, dingbat and mathematical ones ("२७१५", "⁵⁴²⁰", "①②⑧⑥", "𝟒𝟕")
_DIGIT_BLOCKS = (
    (0x660, 0x669), (0x966, 0x96F), (0x9E6, 0x9EF), (0xA66, 0xA6F), (0xAE6, 0xAEF), (0xB66, 0xB6F),
    (0xBE6, 0xBEF), (0xC66, 0xC6F), (0xCE6, 0xCEF), (0xD66, 0xD6F), (0xE50, 0xE59), (0xED0, 0xED9),
    (0xF20, 0xF29), (0x1040, 0x1049), (0x17E0, 0x17E9), (0x1810, 0x1819), (0xFF10, 0xFF19),
    (0xB2, 0xB3), (0xB9, 0xB9), (0x2070, 0x2070), (0x2074, 0x2079), (0x2080, 0x2089), (0x2460, 0x2468),
    (0x24EA, 0x24EA), (0x2776, 0x277E), (0x2780, 0x2788), (0x278A, 0x2792), (0x1D7CE, 0x1D7FF),
)
_OTHER_DIGITS.update(
    {cp: ord("0") + unicodedata.digit(chr(cp)) for lo, hi in _DIGIT_BLOCKS for cp in range(lo, hi + 1)}
)
_BRAILLE_DIGITS = str.maketrans("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚", "1234567890")
_BRAILLE_RUN = re.compile("⠼?[⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚]{3,10}")


def _fold(text: str) -> str:
    """Accents off, keycap emoji as digits, a lock emoji as the word "code", the arrows people type as separators, spaced
    characters closed up, character codes and short base64 decoded ("Debit PIN in base64:
    NjQ0OQ==")."""
    if "," in text and _CHAR_HINT.search(text):
        text = _BRACKETED_CODES.sub(_chars, text)
    if not text.isascii():
        text = text.translate(_OTHER_DIGITS)  # dice faces, Chinese financial numerals, Persian digits
        if "\u2800" < max(text) and _BRAILLE_RUN.search(text):  # braille digits: "⠼⠁⠃⠉⠙" is 1234
            text = _BRAILLE_RUN.sub(lambda m: m.group().replace("\u283c", "").translate(_BRAILLE_DIGITS), text)
        # invisible joiners out: Persian writes "دیجی‌کالا" with one, an evasion hides them in a value
        text = _unaccented(_KEYCAP.sub("", FORMAT_CHARS.sub("", text)))
        text = text.replace("→", ":").replace("←", ":").replace("ı", "i").replace("ł", "l").replace("Ł", "L")
        if "🔐" in text or "🔒" in text:  # a lock drawn for its code: "safe 🔐 4597"
            text = _LOCK_EMOJI.sub(" code ", text)
        text = text.replace("،", ",")  # the Arabic comma
        text = text.translate(_UNDECOMPOSED)
    text = text.replace("->", ":").replace("=>", ":").replace("<-", ":")
    if "**" in text or "__" in text:  # Markdown's bold: "- **Wi-Fi password**: `double-candy-dragon`"
        text = BOLD.sub(r"\1", text)
    if "spell" in text or "igit" in text or "irst" in text:
        text = _KEYPAD_WORD.sub(lambda m: m.group(1) + m.group(2).upper().translate(KEYPAD) + m.group(3), text)
        text = _POSITIONS.sub(lambda m: "".join(_POSITION_DIGIT.findall(m.group())), text)
    if _DIGITS_APART.search(text):
        text = _DIGITS_APART.sub(lambda m: "".join(ch for ch in m.group() if ch.isdigit()), text)  # "2🔸7🔸4🔸9": 2749
    if " " in text:
        text = _SPACED.sub(lambda m: m.group().replace(" ", ""), text)
        text = spelled_out(text) or text  # "golf echo juliett star ...": gej*...
    return _B64.sub(_decoded, text)


# The detectors' spelled digits, with languages they lack (Nordic, Czech, Finnish, Chinese,
# Korean, more Japanese readings), folded to no accents; words that are also everyday English
# ("to" in "3 to 4", "fire", "sex", "due", "ba", "bay") are left out: a run of them
# with numbers would read as a code.
_AMBIGUOUS = frozenset(
    "to fire sex due ba bay bon mot nam sau tam hai un en et ni null"
    # words of other languages too: "set", "sis", "u", "du", "pat", "uks" (a door), "moja" (my), Lima, "نه" (no)
    " set sis u du pat uks moja lima نه".split()
)
_DIGIT_WORDS: dict[str, str] = {
    _unaccented(w): d for w, d in detectors._DIGIT_WORDS.items() if _unaccented(w) not in _AMBIGUOUS
}
for _lang in (
    "noll ett tva tre fyra fem sex sju atta nio",
    "nul en to tre fire fem seks syv otte ni",
    "nolla yksi kaksi kolme nelja viisi kuusi seitseman kahdeksan yhdeksan",
    "nula jedna dva tri ctyri pet sest sedm osm devet",
    "khong mot hai ba bon nam sau bay tam chin",
    "零 一 二 三 四 五 六 七 八 九",
    "영 일 이 삼 사 오 육 칠 팔 구",
    "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة",
    "शून्य एक दो तीन चार पाँच छह सात आठ नौ",
    "nulla egy ketto harom negy ot hat het nyolc kilenc",
    "אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע",
    "אפס אחד שניים שלושה ארבעה חמישה שישה שבעה שמונה תשעה",
    "нуль один два три чотири п'ять шість сім вісім дев'ять",
    "μηδεν ενα δυο τρια τεσσερα πεντε εξι επτα οκτω εννεα",
    "zero unu doi trei patru cinci sase sapte opt noua",
    "nul een twee drie vier vijf zes zeven acht negen",
    "sifir bir iki uc dort bes alti yedi sekiz dokuz",
    # Bulgarian, Persian, Catalan, Swahili, Tagalog, Croatian/Serbian, Lithuanian, Estonian,
    # Slovak, Slovene, Thai
    "нула едно две три четири пет шест седем осем девет",
    "صفر یک دو سه چهار پنج شش هفت هشت نه",
    "zero u dos tres quatre cinc sis set vuit nou",
    "sifuri moja mbili tatu nne tano sita saba nane tisa",
    "sero isa dalawa tatlo apat lima anim pito walo siyam",
    "nula jedan dva tri cetiri pet sest sedam osam devet",
    "nulis vienas du trys keturi penki sesi septyni astuoni devyni",
    "null uks kaks kolm neli viis kuus seitse kaheksa uheksa",
    "nula jeden dva tri styri pat sest sedem osem devat",
    "nic ena dve tri stiri pet sest sedem osem devet",
    "ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า",
    # Bengali, Tamil, Telugu, Marathi, Gujarati, Punjabi, Urdu, Georgian, Armenian
    "শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়",
    "பூஜ்ஜியம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது",
    "సున్నా ఒకటి రెండు మూడు నాలుగు ఐదు ఆరు ఏడు ఎనిమిది తొమ్మిది",
    "शून्य एक दोन तीन चार पाच सहा सात आठ नऊ",
    "શૂન્ય એક બે ત્રણ ચાર પાંચ છ સાત આઠ નવ",
    "ਸਿਫ਼ਰ ਇੱਕ ਦੋ ਤਿੰਨ ਚਾਰ ਪੰਜ ਛੇ ਸੱਤ ਅੱਠ ਨੌਂ",
    "صفر ایک دو تین چار پانچ چھ سات آٹھ نو",
    "ნული ერთი ორი სამი ოთხი ხუთი ექვსი შვიდი რვა ცხრა",
    "զրո մեկ երկու երեք չորս հինգ վեց յոթ ութ ինը",
):
    for _i, _w in enumerate(_lang.split()):
        for _form in {_w, _unaccented(_w)}:
            if _form not in _AMBIGUOUS:
                _DIGIT_WORDS.setdefault(_form, str(_i))
_DIGIT_WORDS.update({"dwie": "2", "ぜろ": "0", "〇": "0", "きゅう": "9"})
# Those everyday words are read as digits only inside a run another digit word starts
# ("sechs null neun fünf"); "ni" is 2 in Japanese and 9 in Danish, so never.
_AMBIGUOUS_DIGITS = {"null": "0", "nul": "0"}  # ("to", "un", "en"... stay words: "one to one, two teams")
# A run of digits and digit words, one per token, separated by spaces, commas or dashes.
_TOKEN = r"(?:\d|" + "|".join(sorted(map(re.escape, _DIGIT_WORDS), key=len, reverse=True)) + ")"
_LATER_TOKEN = r"(?:" + "|".join(sorted(map(re.escape, _AMBIGUOUS_DIGITS), key=len, reverse=True)) + rf"|{_TOKEN})"
# a speaker's fillers between the digits of a transcript: "eight five wait, zero four"
_FILLER = r"(?:wait|yeah|yes|um+|uh+|erm|er|hmm+|sorry|ok|okay|then)"
_SPELLED_RUN = re.compile(
    rf"(?<!\w)(?<!\w'){_TOKEN}(?:(?:\s*[,\-./]\s*|\s+)(?:{_FILLER}[,.]?\s+)?{_LATER_TOKEN}){{2,11}}(?!\w|'\w)"
)
_SPELLED_CJK = re.compile(r"[零〇一二三四五六七八九](?:[、，, ]?[零〇一二三四五六七八九]){2,18}|(?:(?:ゼロ|いち|に|さん|よん|ご|ろく|なな|はち|きゅう|れい|しち)\s*){3,10}")
_ONE_TOKEN = re.compile(_TOKEN)
_ONE_LATER_TOKEN = re.compile(_LATER_TOKEN)


def _digits_of(run: str) -> str:
    words = _ONE_LATER_TOKEN.findall(_FILLERS.sub(" ", run))
    return "".join(_DIGIT_WORDS.get(t) or _AMBIGUOUS_DIGITS.get(t, t) for t in words)


_FILLERS = re.compile(rf"(?<![\w']){_FILLER}(?![\w'])")


_SPLIT = re.compile(r"[\s,\-./]+")


# A code read out in pairs, as people say it ("ninety-one thirty-seven", "six forty-one
# forty-five"): a run of spelled numbers below a hundred, one of them a tens word at least.
_UNITS = "zero oh one two three four five six seven eight nine".split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_SPOKEN = rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS[2:])})(?![\w-]))?|(?:{'|'.join(_UNITS)})(?![\w-]))"
_SPOKEN_RUN = re.compile(rf"(?i)(?<![\w-]){_SPOKEN}(?:[\s,-]+{_SPOKEN})+(?![\w-])")


def _spoken_number(word: str) -> str:
    parts = re.split(r"[- ]", word.lower())
    if parts[0] in _TENS:
        return str(_TENS.index(parts[0]) + 2) + (str(_UNITS.index(parts[1]) - 1) if len(parts) > 1 else "0")
    return "0" if parts[0] in ("zero", "oh") else str(_UNITS.index(parts[0]) - 1)


def _spoken_run(m: re.Match[str]) -> str:
    words = re.findall(_SPOKEN, m.group(), re.I)
    if not any(w.lower().split("-")[0].split(" ")[0] in _TENS for w in words):
        return m.group()  # digits one by one: read below
    return "".join(_spoken_number(w) for w in words)


def _with_digits(line: str) -> str:
    """Digits spelled out ("seven-6-six-0", "tujuh satu nol") or typed one by one
    ("3, 2, 6, 6, 5, 0") as one number."""
    if "ty" in line and (low := line.lower()) and any(t in low for t in _TENS):
        line = _SPOKEN_RUN.sub(_spoken_run, line)
    words = (w.strip("\"'“”‘’«»()") for w in _SPLIT.split(line.lower()))  # '"four two six seven"' quoted too
    if sum(1 for w in words if w in _DIGIT_WORDS or (len(w) == 1 and w.isdigit())) >= 3:
        line = _SPELLED_RUN.sub(lambda m: m.group() if _VERSION.fullmatch(m.group()) else _digits_of(m.group()), line)
    if not line.isascii():
        line = _SPELLED_CJK.sub(lambda m: _digits_of(m.group().replace(" ", "")), line)
    if "*" in line or "#" in line:
        line = _KEYPAD_LEAD.sub(r"\1", line)  # "*-5424": the star typed first
    return line


_BOUGHT = re.compile(r"(?<![^\W\d_])(?:bought|dated|purchased|installed|since|from|on)\s*$")
_MASKED_BEFORE = re.compile(r"[*•xX]{3,}[\s-]*$")
_TO_BEFORE = re.compile(r"(?<![^\W\d_])to\s*$")
_WORD_AFTER_NUMBER = re.compile(r"\s+[^\W\d_]{2,}")
_VERSION = re.compile(r"\d{1,3}\.\d{1,3}\.\d{1,3}")  # "5.2.1", a version: not digits typed one by one
_HALVES = re.compile(r"(?<![\w.:/+-])\d{3}[- ]\d{3}(?![\w]|[.:/-]\d| \d)")
_KEYPAD_LEAD = re.compile(r"(?<!\w)([#*])[-.](?=\d)")


# -- cues ------------------------------------------------------------------------------------

# Things a code opens, arms or pays with, in the languages the guard reads (folded: no accents).
_OPENS = (
    r"door|front door|back door|side door|gate|back gate|garage|alarm|adt|security system|keypad|lock ?box"
    r"|key ?box|key ?safe|safe|vault|locker|padlock|bike lock|lock|building|entry|entrance|lobby|buzzer"
    r"|intercom|storage unit|suitcase|debit card|credit card|bank card|atm card|sim|sim card|phone unlock"
    r"|iphone|unlock|disarm|porte|portail|digicode|alarme|coffre|cadenas|boite a cles|carte bleue"
    r"|carte bancaire|carte de credit|tur|haustur|gartentor|alarmanlage|tresor|schlusselsafe|schlusselkasten"
    r"|schliessfach|spind|bankkarte|ec-karte|kreditkarte|puerta|porton|portal|alarma|caja fuerte|candado"
    r"|taquilla|tarjeta de (?:credito|debito)|tarjeta bancaria|porta|portao|portone|cancello|allarme"
    r"|antifurto|cassaforte|lucchetto|armadietto|carta di credito|bancomat|cofre|cadeado|cartao do banco"
    r"|cartao de credito|cartao de debito|deur|voordeur|achterdeur|poort"
    r"|hek|kluis|sleutelkluisje|sleutelkluis|kluisje|hangslot|pinpas|drzwi|brama|domofon|alarmu|sejf|klodk\w*"
    r"|szafka|karty (?:platniczej|kredytowej|debetowej)|dorr|porten|grind|larm|larmet|kassaskap|hanglas|skap"
    r"|bankkortet|kapi|kasa|asma kilit|dolap|banka karti|kredi karti|pintu|gerbang|brankas|gembok|loker"
    r"|kartu atm|kartu debit|kartu kredit|vchod|vchodu|brana|trezor|zamek|skrinka|skrzynk"
    r"|klatki|keller|fahrradkeller|tiefgarage|fietsenstalling|fahrradschloss|zahlenschloss|schloss|fietsslot"
    # what unlocking a phone is called ("código de desbloqueo de mi móvil"), phones by
    # names no other thing has, rooms and boxes a code opens
    r"|de desbloqueo|de desbloqueio|di sblocco|de deverrouillage|entsperr\w*|ontgrendel\w*|odblokowani\w*"
    r"|de deblocare|k odemceni|odemykaci|розблокуванн\w*|garaje|riaszto\w*|kassakaapi\w*"
    r"|(?:min|mi|mijn|meine?s?|my|mon|ma|il mio|o meu) (?:telefon|telefoon|telefono|telefone|telephone|mobil|movil|handy)\w*"
    r"|telefonului|puhelimen|kunci (?:hp|ponsel|layar|pintu|rumah)"
    r"|smartphone|ipad|bike room|bike shed|bike storage|mailbox|letterbox|storage room|voicemail|voice mail"
    r"|buzon de voz|mobilbox|messagerie vocale|segreteria telefonica|correio de voz|sprachbox|poczta glosowa"
    r"|casier|cacifo|armario|kastje|шкафчик\w*|шкаф\w*"
    r"|car park|parking garage|laundry room|server room|car radio|autoradio|dolab(?:in|i)?"
    r"|дверь|двер|домофон|подъезд|сигнализац|сейф|замок|банковской карт|голосов\w* почт\w*|разблокировк\w*"
    r"|garaz|garazu|χρηματοκιβ\w*|π[οό]ρτα[ςσ]?|συναγερμ[οό][υς]?|γκαρ[αά]ζ|κλειδαρι[αά][ςσ]?|θ[υύ]ρα[ςσ]?"
    r"|сигналізац\w*|домофон\w*|ปลดล็อก\w*|ประตู|ตู้เซฟ"
    r"|[הלב]?(?:דלת|טלפון|אזעקה|כספת|שער|בניין|כניסה|לוקר|מנעול|חניון)"
    r"|bike cage|cage|parkeergarage|parkhaus|kaapin|kaappi\w*|kulcsdoboz\w*|сейф-бокс\w*|opgang\w*|garasje\w*"
    r"|halytyks\w*|seif\w*|tor|εξ[ωώ]πορτα[ςσ]?|verisure|simplisafe"
    r"|lango|mlango|kadi ya benki|kadi ya atm|sefu|kabati|kengele"  # Swahili: gate, door, bank card, safe, locker, alarm
)
_CODE = (
    r"code|codes|pin|pin code|pincode|passcode|combo|combination|combinaison|kombination|combinacion"
    r"|combinazione|combinacao|combinatie|kombinacja|kombinasi|codigo|codice|kod|kode|koden|kodu|koodi|kodas"
    r"|clave|senha|heslo|sifre|sifresi|код|κωδικ\w*|συνδυασμ\w*|ה?קוד|codul|kodja|kodunu|szyfr|segredo|รหัส"
    r"|msimbo|namba ya siri|nambari ya siri"
)
_W = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"  # a word ("dell'allarme", "Instagram-account")
# "is", in the languages the cues are in
_IS = r"(?:is|are|was|its|it's|it’s|c'est|c’est|la|est|ist|lautet|es|e|era|este|adalah|ialah|jest|wynosi|to|je|er|ar|on|olan|это|は|是|는|은|هو|هي|الجديدة|الجديد|זה|זו|הוא|היא|είναι|ειναι|คือ)"

_CJK_OPENS = (
    r"警報|金庫|ドア|玄関のドア|キーボックス|大门|家门|房门|门锁|保险箱|保險箱|报警器|报警|警报|银行卡|銀行卡"
    r"|현관문|도어락|금고|경보기|키박스|スマホ|携帯|アイフォン|iphone|手机|手機|핸드폰|휴대폰"
)
# "number" (号码, 番号, 번호) is not "code": an outpatient number, a house number.
_CJK_CODE = r"コード|パスコード|暗証番号|密码|密碼|비밀번호|비번|암호|코드"
_COMPOUND = (
    r"(?:tur|tor|haus|haustur|deur|poort|hek|alarm|safe|tresor|kluis|port|dorr|dor|larm|garage|toegangs|zugangs"
    r"|eingangs|schloss|kassaskaps|kassakaappi|ovi|portti|halytys|puhelin|sim|pin|bank|kaart|karten|kort|porta|fahrrad|spind|zahlenschloss|schliessfach"
    r"|kapu|ajto|riaszto|lukitus|turva)"
    r"(?:code|kode|koden|kod|koodi|pincode|kombination|kombinationen)|pin-?nummer"
)
# A lock's or a card's code: a thing it opens and a code word within three words of each
# other, either way round ("door code", "code de la porte", "Kod alarmu", "Türcode").
_LOCK_CUE = re.compile(
    rf"(?<!\w)(?:(?:{_OPENS})(?:\s+(?:{_W}|\d{{1,4}}|n°\s?\d{{1,4}}|#\d{{1,4}})[,]?){{0,4}}?\s*[,\-:]?\s*(?:{_CODE})(?!\w)"
    # a device named as a heading: "voicemail: The code is 4671", "SIM card: O código é 6614"
    rf"|(?:{_OPENS}):\s+(?:the|le|la|el|o|a|der|die|das|de|il|het|den|det)\s+(?:{_CODE})(?!\w)"
    rf"|(?:{_CODE})(?:\s+{_W}){{0,3}}?\s+(?:[^\W\d_]{{1,4}}['’])?(?:{_OPENS})\w*|{_COMPOUND}(?!\w)"
    r"|ma (?:mo )?(?:cua|cong|the|khoa|ket sat|pin|bao dong|tat bao dong|khoa cua)\w*|code cb(?!\w))"
    r"|(?:金庫|ロッカー|保险箱|保險箱|금고)の?\s?(?:番号|号码|號碼|번호)"
    r"|(?:رمز|كود|الرمز|رقم)\s+(?:(?:فتح|إيقاف|ايقاف|تعطيل|إلغاء)\s+)?(?:جهاز\s+)?(?:ال)?(?:باب|بوابة|البوابة|إنذار|انذار|الإنذار|خزنة|الخزنة|خزنه|قفل|خزانة"
    r"|هاتف|الهاتف|جوال|الجوال)"
    r"|(?:तिजोरी|दरवाज़े|दरवाजे|अलार्म|लॉकर|गेट)\s*(?:का|की|के)?\s*(?:कोड|पिन|पासवर्ड)"
    rf"|(?:{_CJK_OPENS})[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af ]{{0,5}}?(?:{_CJK_CODE})"
    r"|해제\s*(?:번호|코드|비번)"
)
# A device whose number is its code without the word "code": "front door keypad 5618",
# "Gym locker padlock 639", "Alarmanlage ausschalten mit 9432", "Suitcase lock is set to 105".
_DEVICE_CUE = re.compile(
    r"(?<!\w)(?:keypad|padlock|lockbox|lock box|key ?safe|key ?box|combination lock|cadenas|candado|lucchetto"
    r"|boite a cles?|cassetta (?:delle|per le) chiavi|nyckelbox(?:en)?|nyckelskap(?:et)?|schlusselbox|schlusselkasten"
    r"|schlusseltresor|caja (?:de|para) llaves|caixa (?:de|para) chaves|sleutelkastje|sleutelkluis(?:je)?"
    r"|(?:skrytka|skrzynka|sejfik) na klucze|nokkelboks(?:en)?|noglebox(?:en)?|nogleboks(?:en)?|avainboksi|anahtar kutusu"
    r"|digicode"
    r"|キーボックス|钥匙盒|키박스"
    r"|vorhangeschloss|hangslot|klodka|hanglas|gembok|(?:lock|padlock|safe|lockbox)(?: is)? set to(?=\s*[#*]?\d)"
    r"|(?:disarm|deactivate|turn off|switch off)\s+(?:the\s+)?alarm(?:\s+(?:type|with|enter|using|by))?"
    r"|alarm(?:anlage)?\s+(?:ausschalten|deaktivieren|entscharfen)(?:\s+mit)?"
    r"|(?:desactivar|apagar)\s+(?:la\s+)?alarma(?:\s+con)?|(?:desactiver|couper)\s+l'alarme(?:\s+avec)?"
    r"(?:(?:\s+[\w']+){0,3},?\s+(?:taper|tapez|composer|composez|entrer|entrez|saisir|saisissez))?"
    r"|(?:spegnere|disattivare|disinserire)\s+l'allarme(?:\s+(?:digita|digitare|inserisci|inserire|con))?)(?!\w)"
)
# A safe whose number opens it, in a few more words than a keypad: "la caja fuerte del
# hotel se abre con 283618", "Tresor im Hotelzimmer: 10148".
_SAFE_CUE = re.compile(
    r"(?<!\w)(?:cassaforte|tresor|caja fuerte|coffre-fort|coffre fort|kluis|kassaskap|sejf(?:u|ie|em)?|сейф|cofre|brankas"
    r"|(?:الخزنة|خزنة)|तिजोरी"
    r"|(?:hotel|room|wall|gun|home) safe|safe (?:in|at|behind|under|inside) (?:the|my|our) \w+|金庫|保险箱|금고)(?!\w)"
)
_SAFE_AFTER = 44
# Its number straight after a colon or a word that says it opens it: "Tresor im Hotelzimmer:
# 10148", "se abre con 283618"; not "box 1187", "contrat 8821904", "Modell 4510".
_SAFE_VALUE = re.compile(
    r"^[^:\n\d]{0,32}?(?::\s*|\b(?:opens? with|open(?:ed)? with|code|combo|combination|pin|se abre con|abre con"
    r"|abre com|si apre con|offnet mit|oeffnet mit|s'ouvre avec|opent met|otwiera sie|kod|kode|kodu|codice|codigo)"
    r"\s*:?\s*)(?P<val>[#*]?\d{4,10}[#*]?)(?![\d,/-]|\.\d)"  # a full stop may end the sentence
)
_SAFE_COMBO = re.compile(r"^[^:\n\d]{0,32}?:\s*(\d{1,2})(-)(\d{1,2})-(\d{1,2})(?![\w:/-]|\.\d)")
_PIN_CUE = re.compile(
    r"(?<![\w-])(?:pin code|pincode|pin-code|pin-koden|pin-koodi|pin-kod|pin kodu|pin(?![ -]?pad)|pins|puk code|puk-code"
    r"|puk2|puk|p1n|пин-код|пин"
    r"|пін|पिन|পিন|پین|clave de acceso|clave acceso|clave (?:de )?firma|clave (?:de )?cajero|clave secreta"
    r"|numero secreto|codigo secreto|geheimzahl|code secret|الرقم السري|رقم سري|الرمز السري|רמז סודי|קוד סודי"
    r"|passcode|pass code|unlock code|unlock pin|(?<!social )security number|entsperrcode|הקוד הסודי"
    r"|รหัส ?(?:atm|เอทีเอ็ม|บัตร|พิน|pin)[\u0e00-\u0e7f]*|รหัสปลดล็อก[\u0e00-\u0e7f]*|szef kodja"
    r"|(?:telefon|ekran|tablet) kilidi|ma mo khoa\w*|카드 ?비밀번호|门禁密码|門禁密碼|开门密码|開門密碼"
    r")(?!\w)|暗証番号|パスコード"
)
_OTP_CUE = re.compile(
    r"(?<!\w)(?:otp|2fa|mfa|one[- ]time (?:pass)?code|verification code|verify code|login code"
    r"|recovery codes?|backup[- ]codes?|steam guard(?: code)?|wiederherstellungscodes?|code de recuperation"
    r"|codigo de recuperacion|codice di recupero|herstelcode|codigo de (?:backup|respaldo|seguranca)"
    r"|kod zapasowy|dogrulama kod\w*|ma xac minh"
    r"|log-?in code|sign[- ]in code|auth(?:entication|enticator)? code|security code|sms code|code sms|codigo sms"
    r"|code (?:from|in|on) (?:the |my )?(?:authenticator|authy|2fa app)|(?:account )?recovery key"
    r"|ה?קוד(?:\s+\S+){0,2}\s+ב-?sms|(?<=<#> )your [\w.-]+(?: [\w.-]+)? code|your (?:whatsapp|telegram|signal"
    r"|google|microsoft|apple|facebook|instagram|uber|paypal|amazon|steam|discord|tiktok|snapchat|twitter|x) code"
    r"|(?:codigo|code|codice|kod|kode) (?:de |do |da |di )?(?:whatsapp|telegram|signal|google|microsoft|apple|facebook"
    r"|instagram|uber|paypal|amazon|steam|discord|tiktok|linkedin|revolut)"
    r"|pick-?up code|abholcode|kod odbioru|codice (?:di )?ritiro|code de retrait|codigo de (?:recogida|retirada)"
    r"|code (?:they|you|it|the bank|the app) (?:sent|texted)|(?:sent|texted) (?:me )?(?:a |the )?code"
    r"|code(?=\s+\d{4,8}\s+to\s+(?:approve|confirm|verify|sign|log))"
    r"|sakerhetskod(?:en)?|sikkerhedskode(?:n)?|sikkerhetskode(?:n)?|turvakoodi"
    r"|code[^.\n\d]{0,30}\b(?:par|per|by|via|por|tramite|p[aå])\s+sms|sms[- ]code"
    r"|verificatiecode|inlogcode|verifizierungscode|bestatigungscode|anmeldecode|sicherheitscode"
    r"|code de (?:verification|securite|connexion)|codigo de (?:verificacion|verificacao|seguridad|acceso)"
    r"|codice (?:di verifica|otp|di sicurezza|di accesso)|kod (?:weryfikacyjny|sms|jednorazowy)"
    r"|engangskod|engangskoden|verifieringskod|verifieringskoden|engangskode|dogrulama kodu|tek kullanimlik|kode (?:verifikasi|otp)"
    r"|ma (?:xac minh|xac thuc|otp)|overovaci kod|jednorazovy kod|код подтверждения|код из смс|одноразовый код"
    r"|인증번호|인증 코드|認証コード|確認コード|ワンタイム|验证码|驗證碼|动态码|動態碼|校验码|确认码|短信码"
    r"|رمز التحقق|رمز التفعيل|كود التحقق|kod(?:u|em)? blik|blik[- ]kod\w*|sms-?tan"
    r"|tan(?=\s+fur\s)|tan-(?:nummer|code))(?!\w)"
)
_PASSWORD_CUE = re.compile(
    r"(?<![\w@])(?:password|passwort|kennwort|passwd|pwd|pw|pass|p@ss|passphrase|mot de passe|mot de pass|mdp"
    r"|passwrod|pasword|passowrd|paswd|paswoord|kodeord|adgangskode|passord|парол|كلمة سر"
    r"|contrasena|contrasenya|clave|senha|palavra-passe|wachtwoord|haslo|losenordet|losenord|losen|passordet|kodeordet|sifre|sifrem|sifresi"
    r"|kata sandi|sandi|parol|parola|пароль|heslo|mat khau|salasana|jelszo|jelszava|jelszavam|lozinka|geslo|wifi key|wlan key"
    r"|nenosiri|neno la siri"
    r"|(?:wifi|wi-fi|wlan)[ -]?(?:kode|koden|koodi|kod|codigo|codice|kodu)|adgangskoden"
    r"|(?:wifi|wi-fi|wlan|network|netzwerk|red|reseau|rete|netwerk|siec|natverk)[ -]?(?:key|schlussel|clave|cle"
    r"|chiave|sleutel|klucz|nyckel|kennwort|pass)|network key|wpa key|wpa2|パスワード|密码|密碼|비밀번호|비번|암호"
    r"|पासवर्ड|l0gin|كلمة مرور|كلمة المرور|كلمة السر|رمز عبور|[הלבשו]?סיסמ[הא]|รหัสผ่าน[\u0e00-\u0e7f]*|συνθηματικο|κωδικος προσβασης"
    r"|passcode|creds|mima|bimilbeonho|pasuwado|ramz-?e? ?(?:oboor|obur)|p4ss|p4\$\$|pa\$\$|pa55|p@\$\$|passw0rd"
    r"|p4ssw0rd|pa55w0rd|s3cr3t|l0g1n|(?:windows|laptop|pc|computer|macbook|imac|router|admin|wifi|wlan)"
    r" (?:login|log-in|logon|sign-in)"
    # compounds ("adminlösenordet", "beheerderswachtwoord", "Inloggningslösenordet")
    r"|[^\W\d_]{2,20}?(?:losenord|losenordet|passordet|kodeordet|wachtwoord|passwort|kennwort|adgangskoden|haslo))(?![\w-])"
)
# Cues that name a password only with the value right after a colon or "is": a device's
# login ("Windows login broke after KB5034441"), leet ("'S3cr3t H1story', a novel").
_ANNOUNCED_ONLY = re.compile(r"login|logon|log-in|sign-in|p4ss|p4\$\$|pa\$\$|pa55|p@\$\$|s3cr3t|l0g1n")
# Words that name a password only when a value is announced (": X", "is X"), not one
# written right after them ("boarding pass KL1234", "clave fiscal", "parola chiave").
_WEAK_PW_CUES = frozenset({"pass", "clave", "parola", "sandi", "parol", "key", "cle", "chiave", "schlussel", "sleutel"})
# In a line about a wireless network, its "key" is its password.
_WIFI_KEY = re.compile(
    r"(?<!\w)(?:key|clave|cle|chiave|schlussel|sleutel|klucz|nyckel|nokkel|anahtar|kunci|ключ|رمز|비번|キー)(?!\w)"
)
# A strong password named just after it: "kiwi1992& for the wifi", "Tulip#77 is my bank password".
_PW_BEFORE = re.compile(
    r"(?P<val>[^\s,;\"'`]{6,64})\s+(?:[-:]\s+)?(?:is|was|for|as|=|\(?(?:that'?s|that is|this is|it'?s))\s+"
    r"(?:(?:the|my|our|that's|thats|it's|its|your)\s+)?(?:[^\W\d]+\s+){0,3}$"
)
_WIFI_CUE = re.compile(r"(?<![\w-])(?:wifi|wi-fi|wlan|wlan-netz|ssid|network|netzwerk|reseau|red wifi|rede)(?![\w-])")
# Security questions: the answer is a plain word, so only a strong cue and a stated answer count.
_ANSWER_CUE = re.compile(
    r"(?<!\w)(?:security (?:question|answer|q)s?|sec\. (?:question|answer|q)s?|secret (?:question|answer)|recovery questions?|memorable word|memorable info(?:rmation)?(?=[^.\n]{0,30}\b(?:bank|banking|account|login)\b)"
    r"|سؤال الأمان|سؤال الامان|السؤال السري"
    r"|respuesta (?:de seguridad|secreta)|pregunta de seguridad|resposta (?:secreta|de seguranca)"
    r"|pergunta secreta|pregunta secreta|domanda segreta|geheimfrage|vraag van de bank"
    r"|pergunta de seguranca|reponse (?:secrete|de securite)|question secrete|sicherheitsfrage|sicherheitsantwort"
    r"|geheime antwort|risposta (?:segreta|di sicurezza)|domanda di sicurezza|beveiligingsvraag|geheime vraag"
    r"|pytanie (?:pomocnicze|bezpieczenstwa)|odpowiedz (?:pomocnicza|na pytanie)|sakerhetsfraga\w*|guvenlik sorusu\w*"
    # inflected, and in more languages ("svar pa sakerhetsfragan", "sikkerhetssporsmalet",
    # "bezpecnostni otazku", "sigurnosno pitanje", "soalan keselamatan", "intrebarea de securitate")
    r"|sikkerhetssporsmal\w*|sikkerhedssporgsmal\w*|turvakysymy\w*|bezpecnostn\w* otazk\w*|sigurnosn\w* pitanj\w*"
    r"|varnostn\w* vprasanj\w*|biztonsagi kerdes\w*|soalan keselamatan|pertanyaan keamanan|intrebarea de securitate"
    r"|pregunta de seguretat|resposta de seguretat|respuesta de seguridad|cau tra loi bao mat|ερωτηση\w* ασφαλειας"
    r"|тайни\w* въпрос|контролни\w* въпрос|питання безпеки|سؤال امنیتی|שאלת האבטחה|सुरक्षा प्रश्न|คำถามความปลอดภัย"
    r"|pertanyaan keamanan|cau hoi bao mat|контрольн\w* (?:вопрос|ответ|слово)|秘密の質問|安全问题|보안 질문"
    r"|(?:(?:mother'?s )?maiden name|first pet'?s name|name of (?:my|your|the) first (?:pet|car|school|teacher)"
    r"|city of birth|city (?:where|i was) born|first school|favou?rite teacher)"
    r"(?=[^.\n]{0,60}\b(?:security|question|answer|bank|recovery|verification|memorable)\b"
    r"|[^.\n]{0,20}(?:for|of|to) (?:the|my) \w+ (?:account|login)))(?!\w)"
)
_PASS_THING = re.compile(
    r"(?:boarding|bus|gym|season|day|ski|travel|museum|metro|train|transit|parking|festival|event|press|backstage"
    r"|hall|library|guest|annual|monthly|weekly)\s*$"
)
# A credential of a service: its value is a machine's, so it must look random.
_TOKEN_CUE = re.compile(
    r"(?<![\w-])(?:api[ -]?key|apikey|access[ -]key|secret(?:[ -]key)?|client[ -]secret|token|t0k3n|pat|auth[ -]token"
    r"|credentials?|webhook|key|chave|clave|cle|schlussel|sleutel|klucz|nyckel|ключ|токен|トークン|キー|令牌|密钥|토큰"
    r"|voti|cheie|kulcs|klic|kluc|kljuc|κλειδι|מפתח|مفتاح|کلید|raktas|atslega|nokkel|kunci|khoa|ufunguo|कुंजी|คีย์)(?![\w-])"
)
# What a key meant to be seen is called.
_PUBLIC = re.compile(
    r"search[- ]only|publishable|public|safe (?:in|for) the browser|client[- ]side|example|sample|dummy|placeholder"
    r"|fake|revoked|read[- ]only"
)
_TOKEN_AFTER = re.compile(
    rf"^[^:=\n]{{0,60}}?(?:[:=]|\b{_IS}\b)\s*['\"`]?(?P<val>[A-Za-z0-9+/_\-.~]{{20,200}}={{0,2}})"
)
# A value with the credential named right after it, in a comment or a bracket: "const k =
# '...'; // Typesense credential", "decode 2x -> sk_... (Checkout.com token)".
_TOKEN_BEFORE = re.compile(
    r"(?P<val>[A-Za-z0-9+/_\-.~]{20,200}={0,2})['\"`]?\s*[;,)]?\s*(?://|#|--|\(|<-|:)\s*(?:[^\W\d][\w.+-]*\s+){0,3}$"
)
# Any of these, to find the item that names what the pieces around it make up.
_CUE_ANY = re.compile(
    "|".join(f"(?:{c.pattern})" for c in (_LOCK_CUE, _DEVICE_CUE, _PIN_CUE, _OTP_CUE, _PASSWORD_CUE, _ANSWER_CUE))
)


# -- values ----------------------------------------------------------------------------------

# A code: three to ten digits (a trailing letter or # allowed), not part of a longer number,
# a decimal, a date or a time.
_CODE_VALUE = re.compile(
    r"(?<![A-Za-z0-9_.:/+#£€$¥₹-])(?<!\d,)(?:[#*]|g-(?=\d{6}(?!\d))|[a-z](?=\d{4}))?(\d{3,10})[#*a-z]?(?![A-Za-z0-9_]|[.,:/-]\d)"
)
# A combination lock's numbers: "29-33-01", "15 26 18" (not a date).
_COMBO = re.compile(r"(?<![\w.:/-])(\d{1,2})([- ])(\d{1,2})\2(\d{1,2})(?![\w:/-]|\.\d|[ -]\d)")
# A recovery code as services print it ("NZGAK-C85EV-ZGVKL-1H86S-3OS0M"), and a setup key
# for an authenticator app ("yk7c gsb6 rigg g3gz").
_RECOVERY_VALUE = re.compile(r"(?<![\w-])(?:[a-z0-9]{4,6}-){2,}[a-z0-9]{4,6}(?![\w-])")
_SETUP_KEY = re.compile(r"(?<![\w-])(?:[a-z2-7]{4} ){3,}[a-z2-7]{4}(?![\w-])")
# A one-time code of letters and digits announced after its name ("Steam Guard code: KVX9W"),
# and backup codes printed as a row of short random words ("hppjakvi vs9068e9 whdjfvse").
_OTP_ALNUM = re.compile(r"^\s*(?:[:=]|is|es|est|ist|lautet|e)?\s*([a-z0-9]{5,8})(?![\w-])")
# a device or a product's name is not a code: "pixel8a", "win11", "yubikey5" (a word, then
# digits), where a code's letters are random ("kvx9w")
_PRODUCT_NAME = re.compile(r"[a-z]*[aeiouy][a-z]*\d{1,3}[a-z]{0,2}")
_CODE_ROW = re.compile(r"^[^:=\n\d]{0,30}?[:=]?\s*((?:[a-z0-9]{6,10}[\s,;]+){2,}[a-z0-9]{6,10})(?![\w-])")
_YEAR = re.compile(r"(?:19|20)\d\d")
# announced: after a colon or a line break, or right after the cue ("PIN 1920", "code is 1930")
_RIGHT_AFTER = re.compile(rf"\s*[:=]?\s*(?:{_IS}(?!\w)\s*)?[:=]?\s*$")  # the value straight after its name
_ANNOUNCED = re.compile(rf"(?:[:=]|\n)\s*$|^\s*(?:{_IS}(?!\w)\s*)?$")
# What a number right after or before it says it is not a code.
_UNIT_AFTER = re.compile(
    r"\s*(?:%|€|\$|£|x\b|h\b|am\b|pm\b|uhr\b|hrs?\b|hours?|min|minutes?|sec|seconds?|days?|weeks?|months?|years?"
    r"|sek|sekund|segund|godzin|секунд|минут|час"
    r"|times|tries|attempts|digits?|chars?|characters?|letters?|people|persons?|users?|steps?|degrees?|°"
    r"|km|kg|cm|mm|m\b|metres?|meters?|ml|mg|g\b|lbs?|miles?|euros?|eur\b|usd\b|dollars?|kr\b|sek\b|nok\b|dkk\b|pln\b|zl"
    r"|rub|руб|yen|円|元|원|pages?|items?|calories|kcal|ft|feet|inch|sq|ppl|rooms?|floor|st\b|nd\b|rd\b|th\b"
    r"|jours|tage|dias|giorni|dagen|dni|dagar|gun|hari|ngay|дней|日|일|年|월|月|series|pack|pcs|pieces|units?"
    r"|model|edition|tablets?|pills?|capsules?|glasses|cups?|servings?)"
)
_NOT_CODE_BEFORE = re.compile(
    r"(?<![^\W\d_])(?:no\.?|nr\.?|number|nummer|numero|num|#|room|zimmer|chambre|habitacion|apt|apartment|flat|unit"
    r"|suite|house|haus|huis|street|st|road|rd|lane|ave|avenue|straat|strasse|calle|rue|via|ulica|gatan|vej"
    r"|flight|vlucht|flug|vuelo|vol|train|bus|tram|line|platform|gleis|gate [a-z]|seat|row|order|ticket|invoice"
    r"|booking|reservation|reference|ref|confirmation|tracking|case|claim|policy|account|acct|customer"
    r"|member|membership|patient|mrn|zip|postal|post|postcode|plz|cp|cap|area|ext|extension|tel|phone"
    r"|fax|model|version|v|build|error|status|chapter|page|p\.|year|anno|ano|jahr|since|from|until|(?<=\d )to|(?<=\d)to|(?<=up )to|at|by"
    r"|in|on|around|about|ca\.|approx|every|each|per|up|level|step|size|grade|class|route|exit|km|mile"
    r"|sku|item|product|batch|lot|serial|icd|cpt|room no|bed|ward|floor|etage|piso|nummer|for|price|priced"
    r"|costs?|paid|total|amount|qty|quantity|dose|count|age|weight|height|pack|stock|rating|score|points|rank"
    r"|tsa|hotline|call|ring|dial|whatsapp|mark|clinic|consultorio|permit|license|licence"
    r"|الغرفة|غرفة|غرفه|कमरा|कमरे|user|userid|user id|uid|id|pid|uuid|filiale|lieferung|bestellung|rechnung"
    r"|lagenhet|lgh|huisnummer|mieszkanie|mieszkania|daire|asunto|wohnung|interno|apartamento|piso|andar|block|blok"
    r"|desk|wing|port|zamowienie|zamowienia|rezerwacja|rezerwacji|الطلب|طلب|동|호|층"
    r"|installed|installiert|instalado|expires|expiry|valid|changed|updated|replaced"
    r"|ending|ending in|ends in|ends with|final|last|last four|letzte|terminant par|terminada en|termina em|eindigend op"
    # scripts written without spaces: the word may be glued to the one before it
    r")\s*[:.#=]?\s*$|(?:房间|房間|号室|호실|楼号|号楼|栋|单元|番号|末尾)\s*[:.#=]?\s*$"
)
# A room's number is said without a colon ("sejf w pokoju 1412"); "in camera: 099823" gives a code.
_ROOM_BEFORE = re.compile(
    r"(?<![^\W\d_])(?:kamer|pokoju|pokoj|номере|номер|quarto|kamar|rom|rum|stanza|camera|cuarto|habitacion"
    r"|客室|部屋|房间|객실|호실)\s*$"
)
# A number of several groups ("0800 1234", "0800 123 456") is a phone or an account number.
_GROUPED = re.compile(r"\d{2,5}[ .-]\d{2,5}(?:[ .-]\d{2,5})*")


def _code_value(seg: str, least: int = 3, announced: bool = False) -> bool:
    """Whether ``seg`` holds a number that reads as a code, not as a year, a time, an amount
    with its unit, a phone number or the number of a house, a room, a flight or an order.
    ``announced``: ``seg`` follows a PIN's or a lock's name, so a year-like number given
    right after a colon is its code ("PIN: 2044", "Türcode = 1986")."""
    grouped = [g.span() for g in _GROUPED.finditer(seg)] if " " in seg or "-" in seg or "." in seg else []
    for m in _CODE_VALUE.finditer(seg):
        digits = m.group(1)
        if len(digits) < least or any(a <= m.start(1) < b and b - a >= 8 for a, b in grouped):
            continue
        after = seg[m.end() : m.end() + 12]
        before = seg[max(0, m.start() - 24) : m.start()]
        given = announced and _RIGHT_AFTER.match(seg, 0, m.start()) is not None  # "PIN-koodi on 2549"
        if _UNIT_AFTER.match(after) or (_NOT_CODE_BEFORE.search(before) and not given) or _ROOM_BEFORE.search(before):
            continue
        if _TO_BEFORE.search(before) and _WORD_AFTER_NUMBER.match(after):
            continue  # "sent the door code to 150 residents": a count, not the code
        if _MASKED_BEFORE.search(before):
            continue  # "card **** **** **** 4674": a masked card's last digits
        if (
            len(digits) == 4
            and _YEAR.fullmatch(digits)
            and not (m.group().endswith("#") or m.group()[0] == "*")
            and not (announced and _ANNOUNCED.search(seg[: m.start()]))
        ):
            continue  # a year, unless typed as a keypad's code ("1950#") or announced ("PIN: 2044")
        if len(digits) >= 9 and digits[0] in "0+":  # a phone number
            continue
        return True
    return False


_PW_TRIM = ".,;:!?)]}>'\"`"
_HANDLE = re.compile(r"@[A-Za-z0-9._]{2,30}")
# A link, an address, a user at a host ("pi@raspberrypi"; not "K@n3lbull3892", a password).
_URLISH = re.compile(
    r"(?i)^(?:https?|www\.|[\w.-]+@[\w-]+(?:\.[\w-]+)+(?![\w.@-])|[\w.-]+@[a-z][a-z-]*(?![^\s,;:)\]])"
    r"|[\w-]+\.(?:com|org|net|io|de|fr|nl|es|it)\b)"
)


def _passwordish(token: str) -> bool:
    """Letters with digits or symbols, as a chosen password is written; not a placeholder,
    a reference to where one is kept, a link, a date, a social handle (@annasnaps_22), or
    words joined by separators."""
    if detectors._PLACEHOLDER.match(token) or "${" in token or "<" in token or ">" in token:
        return False
    if _HANDLE.fullmatch(token.rstrip(_PW_TRIM)) or token.startswith("\\"):
        return False  # a handle, or a Windows path (C:\Users\...)
    token = token.rstrip(_PW_TRIM)
    if not detectors._passwordish(token):
        return False
    if not 6 <= len(token) <= 64 or _URLISH.match(token) or _DATE.search(token):
        return False
    if detectors._is_wordy(token) and not any(ch.isdigit() for ch in token):
        return False  # secret/prod/postgres, email/work
    return True


# Words one of the cues above starts with (or, for compounds, ends with): a memory holding
# none of them is not looked at further, which keeps the check cheap for most memories.
_TRIGGERS = frozenset(
    """
    password passwort kennwort passwd pwd pw pass p@ss passphrase passcode mdp contrasena contrasenya clave
    passwrod pasword passowrd paswd kodeord adgangskode passord cassaforte tresor caja fuerte coffre kluis
    kassaskap sejf cofre brankas geheimzahl steam cvv cvv2 cvc cvc2 passe voicemail prufziffer
    kartenprufnummer cryptogramme parola wiederherstellungscodes codewort codul cod kodja kilidi kodunuz
    senha wachtwoord haslo losenord losen sifre sifrem sifresi sandi parol parola пароль heslo khau
    salasana jelszo lozinka geslo wpa wpa2 l0gin wifi wi-fi wlan ssid rede pin pins pincode p1n пин пін पिन
    পিন پین code codes codigo codice kod kode koden kodu koodi kodas код combo combination combinaison
    kombination combinacion combinazione combinacao combinatie kombinacja kombinasi otp 2fa mfa sms
    token tokens apikey api-key key keys secret secrets credential credentials pat webhook chave ключ токен
    verification keypad padlock lockbox lock keysafe keybox cadenas candado lucchetto vorhangeschloss
    hangslot klodka hanglas gembok disarm alarm alarmanlage alarma alarme suitcase safe security
    recovery memorable respuesta pregunta resposta pergunta reponse question sicherheitsfrage
    sicherheitsantwort geheime risposta domanda beveiligingsvraag pytanie odpowiedz sakerhetsfraga guvenlik
    pertanyaan hoi контрольный контрольная контрольное контрольные answer maiden pet birth born school
    teacher cua cong khoa xac ket bao blik tan mtan smstan sms-tan pushtan push-tan chiptan sejfu szyfr cassetta
    chiavi boite cles nyckelbox nyckelboxen nyckelskap nyckelskapet schlusselbox llaves chaves sleutelkastje
    klucze nokkelboks avainboksi anahtar creds mima bimilbeonho pasuwado ramz-e puk puk2 login logon
    קוד הקוד κωδικος κωδικός συνδυασμος συνδυασμός
    zugangsdaten credenciales credenciais credenziali identifiants dostepowe inloggegevens доступы
    segredo verisure simplisafe adt sakerhetsfragan sakerhetsfragor sikkerhetssporsmal sikkerhetssporsmalet
    sikkerhedssporgsmal sikkerhedssporgsmalet turvakysymys turvakysymykseen otazku otazka pitanje keselamatan
    cevabi sorusunun sorusu securitate seguretat msimbo siri nenosiri
    """.split()
)
_TRIGGER_ENDINGS = (
    "code", "kod", "koden", "kode", "koodi", "pass", "password", "wort", "losenord", "losenordet", "wachtwoord",
    "passord", "passordet", "kodeord", "kodeordet", "haslo", "kombination",
)


_TRIGGER_CJK = re.compile(
    r"コード|番号|パスワード|密码|密碼|码|碼|비밀번호|비번|번호|암호|인증|認証|验证|驗證|秘密|安全|보안|ワンタイム|金庫|금고"
    r"|رمز ال|كود ال|الرقم السري|رقم سري|كلمة سر|كلمة مرور|كلمة المرور|خزن|сейф|парол|пин|код"
    r"|कोड|तिजोरी|경보기|报警|動態|动态|قفل|الجواب|해제|رمز|รหัส"
)
_WORDS = re.compile(r"[^\W_]+(?:[@'-][^\W_]+)*")


def _triggered(low: str) -> bool:
    """Whether ``low`` holds a cue word (the reader spells slips right first)."""
    for word in _WORDS.findall(low):
        if word in _TRIGGERS or word.endswith(_TRIGGER_ENDINGS):
            return True
        if "-" in word and any(w in _TRIGGERS or w.endswith(_TRIGGER_ENDINGS) for w in word.split("-")):
            return True  # "wifi-kodeord", "wlan-schlüssel"
    if ("$" in low or "0" in low or "3" in low or "4" in low or "5" in low) and _LEET_TRIGGER.search(low):
        return True  # "p4$$", "s3cr3t", "l0g1n"
    return not low.isascii() and ("🔐" in low or "🔒" in low or _TRIGGER_CJK.search(low) is not None)


_LEET_TRIGGER = re.compile(r"p(?:[4@][s$5]|a[$5])[s$5]|s3cr3t|passw0rd|l0g1n")  # a leet spelling, not "compass"


# -- slips of the keyboard ------------------------------------------------------------------------
# A credential's word typed with two neighbouring letters swapped ("psasword", "senah",
# "alarmcdoe"), or, in words of seven letters or more, one letter dropped or doubled
# ("passwrd", "contrasenna"), is spelled right before the cues are read. Only words of five
# letters or more, only words that name a credential (not a lock, a safe or a question:
# their slips are words, "andado" for "candado"), and never a slip that is a word itself.
_SPELLED = frozenset(
    """
    password passwort kennwort passphrase passcode contrasena contrasenya contrasenha senha wachtwoord haslo
    losenord losenordet sifre sifrem sifresi sifremi salasana jelszo heslo geslo lozinka kodeord adgangskode
    passord sicurezza sicherheit schlussel alarmcode alarmkod larmkoden larmkod portkod portkoden turcode torcode
    pinkoden pinkod pincode verificatiecode verifizierungscode bestatigungscode credential credentials codice codigo
    keypad keysafe lockbox keybox
    """.split()
)
# Slips of those that are words or names: checked against the word lists of eleven
# languages (English, German, Dutch, French, Spanish, Portuguese, Italian, Polish, Swedish,
# Danish, Norwegian) and common first and last names when this list was written.
_NOT_SLIPS = frozenset(
    """
    olsen losne lozina lsenord lsenordet paswoord pinkode portko recover schlusse schlussle schussel geheim gelso
    gesol contrassenha sneha
    """.split()
)


def _slips(word: str) -> set[str]:
    out = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1) if word[i] != word[i + 1]}
    if len(word) >= 7:
        out.update(word[:i] + word[i + 1 :] for i in range(len(word)))
    if len(word) >= 6:  # a letter doubled ("keeypad")
        out.update(word[:i] + word[i] + word[i:] for i in range(len(word)))
    return out


_RESPELL = {
    slip: word
    for word in sorted(w for w in _SPELLED if len(w) >= 5 and w.isascii() and w.isalpha())
    for slip in _slips(word)
    if slip not in _SPELLED and slip not in _TRIGGERS and slip not in _NOT_SLIPS
}
_RESPELL_WORD = re.compile(r"[^\W\d_]{5,}")
_ASCII_WORD = re.compile(r"[a-z]{5,}")  # the slips: five letters or more, accents off


def _respell_key(word: str) -> str:
    low = word.lower()
    return low if low.isascii() else _unaccented(low).replace("ł", "l").replace("ı", "i")


def respelled(text: str) -> str:
    """``text`` with the cue words typed with a slip spelled right (in lower case, without
    accents)."""
    if _RESPELL.keys().isdisjoint(_ASCII_WORD.findall(_respell_key(text))):
        return text
    return _RESPELL_WORD.sub(lambda m: _RESPELL.get(_respell_key(m.group()), m.group()), text)


def _classes(token: str) -> int:
    """How many of lower case, upper case, digits and symbols a token mixes."""
    return sum(c.search(token) is not None for c in _CLASSES)


def _strong(token: str) -> bool:
    """A password no one would take for a word, a name or a timestamp."""
    token = token.rstrip(_PW_TRIM)
    return _passwordish(token) and detectors._strong_password(token, passphrase=False)


# -- the check -------------------------------------------------------------------------------

# (a value said after a pause, "the PIN is... 8504", stays with its name)
_SEGMENT = re.compile(
    r"(?<=[!?;])\s+(?=\S)|(?<=\.)(?<!\.\.\.)\s+(?=\S)(?!(?:it'?s|it is|that'?s|c'est|es|ist|è)\s+[#*]?\d)"
    r"|(?<=\.\.\.)(?<!is\.\.\.)(?<!was\.\.\.)(?<!are\.\.\.)\s+(?=\S)(?!(?:it'?s|it is|that'?s|c'est|es|ist|è)\s+[#*]?\d)"
    r"|(?<=\.\.\.)\s+(?=[^\d\s#*])(?!(?:it'?s|it is|that'?s|c'est|es|ist|è)\s+[#*]?\d)|\n"
)
# Talk about a credential rather than the credential: forgotten, blocked, to be changed, asked
# about (in the cue lexicon's main languages).
_NEGATED = re.compile(
    # English words whole ("musteri", "Mustang" and "asking price" do not say "must" or "ask")
    r"(?<![^\W\d_])(?:(?:forgot|forgotten|(?<!don't )(?<!dont )(?<!do not )(?<!never )forget|forgets|forgetting"
    r"|reset|resets|resetting|change (?:the|my|your)"
    r"|changed|rotate|rotates"
    r"|rotated|rotating|updated?|updates|updating|policy|policies|rules?|requirements?|managers?|must|should"
    r"|need(?:s|ed)? to|minimum|at least|expire|expires|expired|expiring|hints?|don'?t (?:share|store)"
    r"|never (?:share|store|save)|without|blocked|locked out|lost|stolen|reminders?|remind|reminded|reminds|about"
    r"|ask|asks|asked|asking|call (?:the|my)|to ?do|set (?:it |them )?up|setup(?! key)|errors?|compliance"
    r"|inspections?)(?![^\W\d_])"
    # stems in other languages, any ending
    r"|vergessen|gesperrt|oublie|bloque|olvide|bloqueado|esqueci|dimenticat|bloccat|vergeten|geblokkeerd"
    r"|zapomnial|zablokowan|glomt|glemt|unuttum|lupa|diblokir|забыл|заблокирован)"
)
_AFTER = 48  # how far after a cue a code may sit
_DEVICE_AFTER = 32
_BEFORE = 14  # and before it, joined by a few words ("9547 is the alarm code")
_JOINED_BEFORE = re.compile(r"^[^\W\d]*(?:\s+[^\W\d]+){0,3}\s*$")
# A line that is a code, then what it is: "5599 : my Wells Fargo debit card PIN".
_CODE_FIRST = re.compile(
    r"^(?:[^\W\d]{1,20}(?: [^\W\d]{1,20}){0,3}:\s*)?[\s*•>-]*(?P<val>[#*]?\d{3,10}[#*]?)\s*"
    r"(?:[:=\-–—#]+|//|<-+|←)\s*[^\d\n]*$"
)  # ("keep this for me: 1085 — that is the key safe code", "1286  <- Verisure code")  # (after the field's name the document gives a line: "text: 5599 : ...")
# "now" after "is" ("is nu", "ist jetzt", "est maintenant").
_NOW_WORDS = (
    r"(?:now|nu|jetzt|nun|ahora|maintenant|desormais|agora|ora|adesso|teraz|nyt|na|simdi|sekarang"
    r"|теперь|сейчас)"
)
_NOW = rf"(?:\s+{_NOW_WORDS})?"
# After a password cue, the value: right after a colon or "=", after up to two words, after
# up to four words and "is" (in the languages above), or after any words up to a colon.
_PW_AFTER = (
    re.compile(r"^\s*[:=]\s*(?P<val>[^\s,;\"'`]{6,64})"),
    re.compile(rf"^\s+(?:{_W}\s+|\([^()\n]{{1,30}}\)\s+){{0,4}}?{_IS}{_NOW}\s*:?\s+(?P<val>[^\s,;\"'`]{{6,64}})"),
    re.compile(
        r"^\s+(?:(?!(?:with|using|via|in|on|at|by|to|into|as|like|than|from|field|hash)\b)[^\W\d]+\s+){0,3}"
        r"(?P<val>[^\s,;\"'`]{6,64})"
    ),
    re.compile(r"^[^\d:=\n]{0,40}?[:=]\s*[\"']?(?P<val>[^\s,;\"'`]{6,64})"),
    re.compile(r"^\s*\([^()\n]{1,40}\)\s*[:=]?\s*(?P<val>[^\s,;\"'`()]{6,64})"),  # "WLAN-Schlüssel (TIM-4471) X"
    # in a file's name: ".../ebay_pw_RqfuxAXDnOIr8F.txt"
    re.compile(r"^[_-](?P<val>[^\s/\\.]{6,40})\.(?:txt|csv|md|json|docx?|pdf|xlsx?|png|jpe?g|zip|kdbx)\b"),
    # a bracket before the colon: "... every letter shifted +1 (shift back to use): Orchi72.8PdK"
    re.compile(r"^[^:=\n]{0,100}?\)\s*[:=]\s*(?P<val>[^\s,;\"'`]{6,64})"),
    # a sentence about it first: "The wifi password is the dog's name and the year: Ziggy2012"
    re.compile(
        r"^(?![^:=\n]*\b(?:name|ssid|network|netzwerk|user|username|login|email|account|id)\b)"
        r"[^\d:=\n]{41,80}?[:=]\s*(?P<val>[^\s,;\"'`]{6,64})"
    ),
)
# After a device's login or a leet cue: a colon or "is" before the value.
_PW_ANNOUNCED = (_PW_AFTER[0], _PW_AFTER[1], _PW_AFTER[3])
# After a word that names a password only sometimes ("pass", "clave"), the value must be
# announced right after it: "pass: X", "pass is X", "clave del wifi: X".
_PW_AFTER_WEAK = (
    _PW_AFTER[0],
    re.compile(rf"^\s+{_IS}\s*:?\s+(?P<val>[^\s,;\"'`]{{6,64}})"),
    _PW_AFTER[3],
)
# A strong value ending the sentence that names it: "Netflix password we share with my
# parents (reversed) vH7Bik4FGc#S$y".
_PW_LAST = re.compile(rf"^\s+(?:{_W}\s+|\([^()\n]{{1,30}}\)\s+){{0,8}}?(?P<val>[^\s,;\"'`]{{8,64}})\s*$")
# A passphrase of four to eight plain words announced after the cue ("Masterpasswort für
# Bitwarden ist enhance dish cram text coast"), ending its sentence or before a capital.
_PW_WORDS = re.compile(
    rf"^(?:\s*[:=]|(?:\s+{_W}){{0,4}}?\s+{_IS}(?!\w)|[^\d:=\n]{{0,40}}?[:=])\s*:?\s*"
    r"(?P<val>[a-z]{3,10}(?: [a-z]{3,10}){3,7})"
    r"(?=\s*(?:$|[.,;!?)]|\s+[^\sa-z]))"
)
# Words a sentence is made of, which a generated passphrase leaves out.
_PHRASE_WORDS = frozenset(
    """
    the and but for with from was were are been being this that these those your our his her their its
    not yes same also please ask asks asked change changed reset written stored kept saved used use using
    into onto than then there here what when where which who why how all any some every each other more most
    very just only still even about after before again always never should would could will can may might must
    have has had does did done make made like want need know think say said tell told get got give gave
    inside outside under below above behind near next beside between among during within without into upon
    over across along around through toward towards door fridge drawer notebook router box wall desk shelf
    """.split()
)


def _diceware(phrase: str, colon: bool = False) -> bool:
    """Four or more words from a generator's list (BIP-39's 2,048), or five or more after a
    colon, none of which a sentence needs: a generated passphrase, not "taped inside kitchen
    cupboard door"."""
    words = phrase.split()
    return (
        (len(words) >= 4 and all(w in BIP39_WORDS for w in words) or colon and len(words) >= 5)
        and not _PHRASE_WORDS.intersection(words)
        and not _NEGATED.search(phrase)
    )


# A value, then its name in a bracket: "t1Ff3r795! (password for the health insurance app)".
_PW_BRACKET = re.compile(r"(?<![^\s,;\"'`(])(?P<val>(?!-)[^\s,;\"'`()]{6,64})\s+\((?:(?:the|my|our|a)\s+)?(?:[^\W\d][\w+.-]*\s+){0,3}$")
# An article or a preposition just before a sentence's last word makes it a thing named
# ("steht auf dem Aufkleber an der FRITZ!Box"), not a value given.
_NAMED_THING = re.compile(
    r"(?<![^\W\d_])(?:the|a|an|of|on|at|der|die|das|dem|den|des|an|am|im|le|la|les|du|au|el|il|lo|della|del"
    r"|do|da|de|het|een|op)\s+$"
)
# Further from its cue, only a value no one would take for a word counts.
_PW_FAR = re.compile(
    rf"^\s+(?:{_W},?\s+|\([^()\n]{{1,30}}\)\s+){{0,8}}?(?:{_IS}{_NOW}|{_NOW_WORDS})\s*:?\s+(?P<val>[^\s,;\"'`]{{8,64}})"
)
# An answer stated: "= Bruno", ": Sapporo", "is 'Escort'".
_ANSWER = re.compile(
    rf"^[^:=\n]{{0,50}}?(?:[:=]\s*['\"‘“]?|\b{_IS}\s+['\"‘“])(?P<val>[^\W\d_][\w'’ -]{{1,30}})"
    # the question in brackets, then the answer ("svar pa sakerhetsfragan (mammas flicknamn) Fatima")
    rf"|^[^:=\n()]{{0,50}}?\([^()\n]{{3,60}}\)\s*(?:[:=→-]\s*|\b{_IS}\s+|lautet\s+|\n\s*)?['\"‘“]?(?P<after>[^\W\d_][\w'’ .-]{{1,30}})"
)
_WIFI_PAIR = re.compile(r"^[^/\n]{0,40}?\S\s*/\s*(?P<val>[^\s,;\"'`]{6,64})")


# A row of an account list without its header: site, e-mail address, password (after the
# field name the document gives a line: "text: github,kai@...,...").
_ACCOUNT_ROW = re.compile(
    r"^\s*(?:[\w ]{1,30}:\s+)?[A-Za-z0-9][a-z0-9.\-]{1,30}[ ]*([,;\t|])\s*[^\s,;|@]+@[\w-]+(?:\.[\w-]+)+\s*\1\s*"
    r"(?P<val>[^\s,;|]{8,64})\s*$"
)  # (separated by commas, semicolons, tabs or bars)
_CLASSES = (re.compile(r"[a-z]"), re.compile(r"[A-Z]"), re.compile(r"\d"), re.compile(r"[^A-Za-z0-9]"))


# What a contact list's third column holds: hours, days, rooms, groups, ids.
_SCHEDULE = re.compile(
    r"(?i)mon|tue|wed|thu|fri|sat|sun|\d\s*(?:am|pm|h|uhr)\b|room|rm\d|aula|gruppe|locker|order|zoom|iban|call|dr\."
)


def _account_row(line: str) -> bool:
    """``line`` is a site, an address and a password no one would take for an id."""
    m = _ACCOUNT_ROW.match(line)
    val = m.group("val") if m else ""
    return _passwordish(val) and _classes(val) >= 3 and not _SCHEDULE.search(val)


def cued_secret(lines: Iterable[str]) -> str | None:
    """The kind of the first credential a line names together with a value of its shape."""
    written = list(lines)
    lines = [detectors.without_doc_values(raw) for raw in written]
    if any("@" in line and _account_row(line) for line in lines):
        return PASSWORD
    joined = _plain("\n".join(lines))
    if not _triggered(joined) and not _triggered(respelled(joined)):  # "psasword": password
        return None
    # a card receipt, read as written (before its masked card is replaced)
    receipt = "auth" in joined and _receipt("\n".join(written).lower())
    # one text, so a line can give the value the line before names ("my SIM PIN", "2120")
    text = "\n".join(_with_digits(respelled(_fold(raw))) for raw in lines)
    low = text.lower()
    cased = text if len(low) == len(text) else low  # offsets must agree
    low = low.replace("_", " ")
    if ("//" in low or "#" in low or "|" in low or "hint" in low) and (kind := _placed_value(cased, low)):
        return kind
    if "code" in low and any(detectors.gift_card_code(line, line.lower()) for line in lines):
        return detectors.GIFT_CARD  # a record's fields read together: {"store": "Google Play", "code": ...}
    spans = list(_segments(low))
    for i, (start, end) in enumerate(spans):
        kind = _segment_kind(cased[start:end], low[start:end], receipt)
        if kind:
            return kind
        if i + 1 < len(spans):
            kind = _next_segment_kind(cased, low, (start, end), spans[i + 1], receipt) or _value_below(
                cased, low, spans, i
            )
            if kind:
                return kind
    return None


# Credentials named in a few more languages ("Zugangsdaten", "credenciais", "accès").
_CRED_WORDS = re.compile(
    r"(?<![\w-])(?:zugangsdaten|credenciales|credenciais|credenziali|identifiants|dane dostepowe|inloggegevens"
    r"|учетные данные|доступы)(?![\w-])"
)
# What a line about a credential's settings says: its lifetime, its format, its rotation.
_TOKEN_SETTINGS = re.compile(r"\b(?:ttl|expir\w*|timeout|lifetime|length|format|rotation|policy|ingredients?)\b")
_FIELD_PREFIX = re.compile(r"[\w.\-]{1,40}: ")
# A line holding only a piece of a token (base64 padding at its end only).
_PIECE = re.compile(r"[A-Za-z0-9+/_\-.~!@#$%^&*?]{1,100}={0,2}")
# A piece's label when a value is given in halves or parts ("first half: ...").
_PIECE_LABEL = re.compile(r"^(?:first|second|third|1st|2nd|3rd|last)\s+(?:half|part)\s*:\s*|^part\s*\d\s*:\s*")


def _value_below(cased: str, low: str, spans: list[tuple[int, int]], i: int) -> str | None:
    """A credential named at the end of a line and its value alone on the lines below it,
    one token cut over several lines or given in halves ("segue a chave do WireGuard:\n
    pXaT...", "my SendGrid key (wrapped):\nSG.Zqe...\nCWdB...")."""
    start, end = spans[i]
    line = low[start:end]
    cue = _TOKEN_CUE.search(line) or _CRED_WORDS.search(line)
    password = _PASSWORD_CUE.search(line)
    if (cue is None and password is None) or _PUBLIC.search(line) or detectors.not_secret_context(line):
        return None
    if _TOKEN_SETTINGS.search(line):
        return None
    named = password if password is not None else cue
    assert named is not None
    if _negated(low[start:end], named, 10) or re.search(r"[^\W_]{20,}|\S{24,}|=\s*\S", line[named.end() :]):
        return None  # talk about it, or a value on the line itself (read there)
    pieces: list[str] = []
    at = end
    field = _FIELD_PREFIX.match(cased, start, end)  # the document's "text: " before each line of a field
    for s, e in spans[i + 1 : i + 13]:
        if "\n" not in low[at:s]:
            break
        if field is not None and cased.startswith(field.group(), s):
            s += len(field.group())
        piece = _PIECE_LABEL.sub("", cased[s:e].strip().lstrip("> ").strip())
        if not _PIECE.fullmatch(piece):
            break  # a line of prose, a setting (NAME=value), a link
        pieces.append(piece)
        at = e
    value = "".join(pieces)
    if not value:
        return None
    if password is not None and password.group() not in _WEAK_PW_CUES and len(value) <= 64 and _strong(value):
        return PASSWORD
    if (
        cue is not None
        and detectors._looks_random(value, 16)
        and detectors.generated(value)
        and not detectors._UUID_HEX.fullmatch(value)
    ):
        return detectors.GENERIC
    return None


# A password given in the sentence after the one naming it: "I reset my Hulu password. New
# one is K0@l@888@".
_ANAPHOR = re.compile(
    r"(?:and |so )?(?:(?:the )?new one(?: is|:)|(?:it'?s|it is) now|now it'?s|now it is|(?:i )?changed it to"
    r"|la nueva(?: es)?|el nuevo(?: es)?|la nouvelle(?: est)?|le nouveau(?: est)?|(?:das|der) neue(?: ist| lautet)?"
    r"|het nieuwe(?: is)?|a nova(?: e)?|o novo(?: e)?|la nuova(?: e)?|il nuovo(?: e)?|nowe(?: to)?|yenisi)"
    r"\s*:?\s+(?P<val>[^\s,;\"'`])"  # (read whole from the text as written: _token_at)
)
# A password given in the sentence after a request naming it: "Can you keep my Etsy
# password? It's 9Mh@$Kuw7&cC4."
_GIVEN = re.compile(
    r"(?:here it is|here you go|it'?s|it is|c'est|es|ist|e|is|ar|er|to|hier)\s*:?\s+(?P<val>[^\s,;\"'`])"
)


# A line of code whose quoted value a comment at its end names: 'const k = "Velvet57"; // the
# Netflix password', "printf 'Copper@Tallinn71'   # my VPN password".
_COMMENTED = re.compile(
    r"""(["'`])(?P<val>[^"'`\s]{6,64})\1[^"'`\n]{0,40}?(?://|(?<!\S)#)\s*(?P<note>[^\n]{3,80})"""
)


# ... or a comment on the line above names: "// my Apple ID password" then
# "const s = String.fromCharCode(...)" (its character codes read in place).
_COMMENT_ABOVE = re.compile(
    r"""(?m)^(?:[\w .-]{1,40}:)?[ \t]*(?://|#)\s*(?P<note>[^\n]{3,80})\n[^\n]{0,60}?[(=:]\s*(?:b|r|u)?(["'`]|(?<=\())(?P<val>[^"'`()\s,;]{6,64})"""
    r"""(?:["'`)]|\2)[^\n]{0,12}$"""
)


# ... or a table row's first cell names ("| the router admin password | `Tern-Fjord-81` |"), or
# a password's "hint" that is the password ({"password": "", "password_hint": "it's X"}).
_TABLE_ROW = re.compile(
    r"(?m)^(?:[\w .-]{1,40}: ?)?\| {0,4}(?P<note>[^|\n]{3,80}?) {0,4}\| {0,4}`?(?P<val>[^|`\s]{4,64})`? {0,4}\|"
)
# A table's row about passwords in general (their length, storage, rotation, a column's type).
_POLICY_CELL = re.compile(
    r"\b(?:length|history|mfa|2fa|store|strength|rotation|security|column|field|type|hash\w*|polic\w+|where"
    r"|requirements?|manager|location|reset|expir\w*|format|label|salt|minimum|maximum|rules?)\b"
)
_ABOUT_PASSWORDS = re.compile(
    r"hash|bcrypt|argon|scrypt|vault|1password|bitwarden|keepass|env var|environment|sticker|lives|stored|manager"
    r"|field|label|screen|bug|\bno password|not the password|goes through|same user|where|login goes|comes from"
)
_HINT_FORMULA = re.compile(r"year|name|digit|birth|street|pet|teacher|grade|usual")
_HINT_IS = re.compile(
    r"(?P<note>password hint|passwort hinweis|pw hint):\s*(?:it'?s|it is|=)\s+(?P<val>[^\s,;]{6,64})[^,;\n]{0,40}"
)


def _placed_value(cased: str, low: str) -> str | None:
    """A password whose name stands where code, a table or a form puts it: in a comment
    at the end of its line or on the line above, in the row's first cell, as its hint."""
    found = [*_COMMENTED.finditer(low), *_COMMENT_ABOVE.finditer(low)] if "//" in low or "#" in low else []
    if "|" in low:
        found += _TABLE_ROW.finditer(low)
    if "hint" in low or "hinweis" in low:
        found += _HINT_IS.finditer(low)
    for m in found:
        note = m.group("note")
        cue = _PASSWORD_CUE.search(note)
        hint = m.re is _HINT_IS  # a hint that says "it's X" gives X, though a hint is not the password
        if cue is None or cue.group() in _WEAK_PW_CUES or (_negated(note, cue) and not hint):
            continue
        if _ABOUT_PASSWORDS.search(note) or _POLICY_CELL.search(m.group(0) if m.re is _COMMENT_ABOVE else note):
            continue  # "# password hashed with bcrypt", "| Password length | 12+ |"
        value = cased[m.start("val") : m.end("val")]
        if "://" in value or (hint and ("+" in m.group(0) or _HINT_FORMULA.search(m.group(0)))):
            continue  # a connection string (the detectors read it); a hint's formula ("Fido's-name+2-digits")
        digit = _DIGIT.search(value) is not None
        if m.re is _TABLE_ROW:  # a settings table's cell is often a short code: a password is mixed
            mixed = (value.lower() != value and value.upper() != value) or re.search(r"[^\w\-.]", value)
            phrase = passphrase(value.lower()) and (digit or len(re.split(r"[-_.]", value)) >= 4)
            if (_passwordish(value) and digit and mixed) or phrase:
                return PASSWORD
        elif (_passwordish(value) and digit) or (not hint and passphrase(value.lower())):
            return PASSWORD
    return None


def _next_segment_kind(
    cased: str, low: str, cur: tuple[int, int], nxt: tuple[int, int], receipt: bool = False
) -> str | None:
    """A value the next segment holds for a cue this one ends with: a code on the line
    after its name ("my SIM PIN\\n2120"), a password in the sentence after."""
    (start, end), (nstart, nend) = cur, nxt
    nstart += len(_QUOTING.match(low, nstart, nend).group())  # type: ignore[union-attr]  # "> here you go: ..."
    if "\n" in low[end:nstart] and nend - nstart <= 24 and _DIGIT.search(low, nstart, nend):
        return _segment_kind(cased[start:nend], low[start:nend], receipt)
    if low.startswith(("//", "#", "--"), nstart) and nend - nstart <= 80:
        return _segment_kind(cased[start:nend], low[start:nend], receipt)  # "k = '...'; // Typesense credential"
    if _IT_IS_NUMBER.match(low, nstart, nend) and _CODE_NAMES.search(low, start, end) and not _WH_QUESTION.match(low, start):
        return _segment_kind(cased[start:nend], low[start:nend], receipt)  # "The PIN for my card? It's 1703."
    vm = _ANAPHOR.match(low, nstart, nend)
    if vm and _CHANGED_PASSWORD.search(low, start, end) and _passwordish(_token_at(cased, vm.start("val"))):
        return PASSWORD
    vm = _GIVEN.match(low, nstart, nend)
    if vm and (kind := _given_credential(low, (start, end), _token_at(cased, vm.start("val")))):
        return kind  # "can you remember my Spotify client secret? it's 37f6..."
    if vm and _strong(_token_at(cased, vm.start("val"))):
        cue = _PASSWORD_CUE.search(low, start, end)
        if cue and cue.group() not in _WEAK_PW_CUES:
            # "Can you keep my Etsy password? It's ..."; "IT changed the password; it's ..."
            if not _negated(low, cue, 10) or _CHANGED_PASSWORD.search(low, start, end):
                return PASSWORD
    return None


def _given_credential(low: str, cur: tuple[int, int], value: str) -> str | None:
    """The kind of credential a question names ("can you remember my Pusher app secret?") when
    the next sentence answers it with a value of a generator's shape ("it's a5d7..."): hex, a
    token, letters cased at random. Not a key said to be public, nor one asked about ("which
    token do I use?")."""
    start, end = cur
    value = value.rstrip(".,;:!?)")
    cue = _TOKEN_CUE.search(low, start, end) or _PASSWORD_CUE.search(low, start, end)
    if cue is None or _negated(low, cue, 10) or _PUBLIC.search(low, start, end) or _WH_QUESTION.match(low, start):
        return None
    if cue.re is _PASSWORD_CUE and cue.group() in _WEAK_PW_CUES:
        return None
    shaped = (
        detectors._looks_random(value, 12)
        or detectors._random_letters(value)
        or (re.fullmatch(r"[0-9a-f]{16,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}", value) is not None)
    )
    if not shaped or decodes_to_prose(value):
        return None
    return PASSWORD if _PASSWORD_CUE.search(low, start, end) else detectors.GENERIC


_WH_QUESTION = re.compile(r"\s*(?:[\w ]{1,20}:\s*)?(?:which|what|where|how|who|when|why)\b|[^?\n]*\bhow (?:much|many)\b")
_IT_IS_NUMBER = re.compile(r"(?:it'?s|it is|that'?s)\s+[#*]?\d{3,10}[#*]?(?![\w.,:/-]\w)")
_QUOTING = re.compile(r"(?:[ \t]*>)+[ \t]*|")  # an e-mail's quoting at a line's start (always matches)
_TOKEN_AT = re.compile(r"[^\s,;\"'`]{1,64}")


def _token_at(cased: str, pos: int) -> str:
    """The value at ``pos`` as written (the lower-cased text reads "_" as a space)."""
    m = _TOKEN_AT.match(cased, pos)
    return m.group() if m else ""


# A sentence saying a password itself was changed (not a manager, a policy, a network's
# security mode).
_CHANGED_PASSWORD = re.compile(
    r"(?:reset|changed|updated|new|cambi\w*|modifi\w*|geandert|zmienil\w*|mudei|alterei|veranderd|gewijzigd)"
    r"\s+(?:my|the|our|his|her|la|le|el|mi|mon|ma|a|o|mein|meine|het|mijn)?\s*(?:[\w+.&'-]+\s+){0,2}?(?:password|passwort"
    r"|passcode|pin|mot de passe|contrasena|senha|wachtwoord|haslo|sifre|kennwort)"
    r"(?!\s*(?:manager|policy|rules|requirements|doc|reset|hint|field))"
)


def _segments(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    for m in _SEGMENT.finditer(text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)


def _negated(low: str, m: re.Match[str], after: int = 30) -> bool:
    """Whether the clause of the cue ``m`` talks about the credential rather than gives it.
    A clause before it says nothing of the value after it ("in case I forget, the alarm
    code is 1184"; "Jakbym znowu zapomniał, kod do alarmu to 118475")."""
    return _NEGATED.search(_clause(low, m.start(), m.end(), 30, after)) is not None


# Where a clause ends: a comma, a semicolon, a dash between spaces, a bracket, a colon or a
# full stop before a space.
_CLAUSE_END = re.compile(r"[,;!?()\[\]–—]|\s-\s|[.:](?=\s|$)")


def _clause(low: str, start: int, end: int, before: int, after: int) -> str:
    """Up to ``before`` characters before the span and ``after`` after it, within its
    clause."""
    head = low[max(0, start - before) : start]
    cut = [m.end() for m in _CLAUSE_END.finditer(head)]
    tail = low[end : end + after]
    return (head[cut[-1] :] if cut else head) + low[start:end] + tail.split("(", 1)[0].split("[", 1)[0]


_DIGIT = re.compile(r"\d")


def _segment_kind(seg: str, low: str, receipt: bool = False) -> str | None:
    if len(seg) < 5 or not _triggered(low) or _CODE_REFERENCE.search(seg) or "${" in seg:
        return None
    if (_DIGIT.search(low) or _RIDDLE_HINT.search(low)) and not _has(low, _ADDRESS_WORDS):
        kind = _code_kind(low, receipt)
        if kind:
            return kind
    if "://" in low:
        return None  # a link or a connection string: the detectors read those
    if not low.isascii() and (kind := _cjk_kind(seg, low)):
        return kind
    if ("insert" in low or "update" in low) and (kind := _sql_kind(seg)):
        return kind
    for m in _PIN_NAME.finditer(low) if "pin" in low else ():
        rest = seg[m.end() : m.end() + 120]
        if _PIN_VERB.match(rest):
            continue  # "pin the image to python@sha256:...": to pin, not a PIN
        if not _negated(low, m, 10) and any(
            (vm := pattern.match(rest))
            and _passwordish(vm.group("val"))
            and not detectors._is_wordy(vm.group("val").rstrip(_PW_TRIM))
            and _classes(vm.group("val")) >= 3
            and len(re.findall(r"[^\W\d_]", vm.group("val"))) >= 3
            and not _DEPENDENCY.match(vm.group("val"))
            for pattern in _PW_ANNOUNCED
        ):
            return PASSWORD  # a PIN of letters, digits and symbols is a password
    wifi = _WIFI_CUE.search(low) is not None
    cues = [*_PASSWORD_CUE.finditer(low), *(_WIFI_KEY.finditer(low) if wifi else ())]
    for m in cues:
        if _negated(low, m, 10):
            continue
        if m.group() == "pass" and _PASS_THING.search(low, max(0, m.start() - 16), m.start()):
            continue  # a boarding pass, a bus pass, a ski pass
        rest = seg[m.end() : m.end() + 120]
        announced_only = _ANNOUNCED_ONLY.search(m.group()) is not None
        weak = announced_only or m.group() in _WEAK_PW_CUES
        for pattern in _PW_ANNOUNCED if announced_only else _PW_AFTER_WEAK if weak else _PW_AFTER:
            vm = pattern.match(rest)
            if vm and _passwordish(vm.group("val")):
                return PASSWORD
            val = vm.group("val").rstrip(_PW_TRIM) if vm else ""
            if vm and pattern in _PW_AFTER[:2] and val == val.lower() and passphrase(val):
                return PASSWORD  # "hasło do sieci to peanut-harley-liverpool"
        if announced_only:
            continue
        vm = _PW_FAR.match(rest) or _PW_LAST.match(rest)
        if vm and _strong(vm.group("val")) and not (
            _NAMED_THING.search(rest[: vm.start("val")]) and not _DIGIT.search(vm.group("val"))
        ):
            return PASSWORD
        if not weak and (vm := _PW_WORDS.match(rest)) and _diceware(vm.group("val"), ":" in rest[: vm.start("val")]):
            return PASSWORD
        vm = _PW_BEFORE.search(seg[max(0, m.start() - 90) : m.start()])
        if vm and _strong(vm.group("val")):
            return PASSWORD
        vm = _PW_BRACKET.search(seg[max(0, m.start() - 90) : m.start()])
        if vm and _passwordish(vm.group("val")) and not weak:
            return PASSWORD
    for m in (_TOKEN_CUE.finditer(low) if not _PUBLIC.search(low) else ()):
        before = seg[max(0, m.start() - 90) : m.start()]
        vm = _TOKEN_BEFORE.search(before)  # "... 'ldSbvR8EqB...'; // Typesense credential"
        if vm and not detectors.not_secret_context(low[max(0, m.start() - 90) : m.end()]):
            value = vm.group("val")
            if (
                detectors._looks_random(value, 20)
                and detectors.generated(value)
                and not detectors._UUID_HEX.fullmatch(value)
                and not decodes_to_prose(value)
            ):
                return detectors.GENERIC
        vm = _TOKEN_AFTER.match(seg[m.end() : m.end() + 260])
        if vm and not detectors.not_secret_context(low[max(0, m.start() - 40) : m.end() + vm.start("val")]):
            value = vm.group("val").rstrip(".-")
            if (
                detectors._looks_random(value, 20) or (detectors.generated(value) and detectors._looks_random(value))
            ) and not decodes_to_prose(value) and not detectors._json_payload(value):
                return detectors.GENERIC  # (base64 of a JSON record, "webhook body: eyJldmVudCI6...", is data)
    for m in (_WIFI_CUE.finditer(low) if wifi else ()):
        vm = _WIFI_PAIR.match(seg[m.end() : m.end() + 100])
        val = vm.group("val") if vm else ""
        if vm and (_passwordish(val) or detectors._random_letters(val)):
            return PASSWORD
    for m in _ANSWER_CUE.finditer(low):
        after = seg[m.end() : m.end() + 90]
        vm = _ANSWER.match(after)
        answer = (vm.group("val") or vm.group("after") or "") if vm else ""
        if vm and vm.group("after") and answer[:1].islower():
            answer = ""  # after the question in brackets, a name: "(mammas flicknamn) Fatima", not "(...) veranderd"
        if vm and after[vm.end() : vm.end() + 12].split("\n", 1)[0].rstrip().endswith("?"):
            answer = ""  # the question itself: "Întrebarea de securitate: numele primului animal de companie?"
        if (
            vm
            and answer.split()
            and not _negated(low, m)
            and answer.split()[0].lower().strip(".") not in _NOT_ANSWERS
            # the questions offered ("first pet, maiden name."), not one answered ("city of birth = Pune")
            and not (detectors.topics_only(answer) and not re.match(r"\s*[:=→]", after[vm.end() :]))
        ):
            return SECURITY_ANSWER
    for m in _WORD_CUE.finditer(low):
        vm = _WORD_AFTER.match(seg[m.end() : m.end() + 40])
        if vm and not _negated(low, m) and vm.group("val").lower() not in _NOT_ANSWERS:
            return SECURITY_ANSWER
    for m in _APP_PASSWORD.finditer(low):
        if _APP_PASSWORD_VALUE.search(low[m.end() : m.end() + 90]):
            return PASSWORD
    for m in _CHANGED_TO.finditer(low) if " to" in low and _CHANGE_VERB.search(low) else ():
        if kind := _changed_to(m, seg[m.start("val") : m.end("val")].rstrip(_PW_TRIM), low[max(0, m.start() - 30) : m.start()]):
            return kind
    return None


_CHANGE_VERB = re.compile(r"changed|updated|reset|\bset\b")
# A credential said to have been changed to a value ("the bank app pass changed to quinn2007*",
# "SIM PUK changed to 40567234", "gift card code changed to XSEDTTY67DNTSLVB").
_CHANGED_TO = re.compile(
    r"(?<![\w-])(?P<cue>pass|password|passwd|pwd|passcode|passphrase|login|pin|puk|code)"
    r"\s+(?:was\s+|has\s+been\s+|got\s+|is\s+now\s+)?(?:changed|updated|reset|set)\s+to\s*:?\s+(?P<val>[^\s,;\"'`()]{4,64})"
)


# What a code opens or proves, named just before "code" (not a zip code, an error code).
_CODE_THING = re.compile(
    r"(?:door|gate|alarm|garage|lock|safe|keypad|key ?box|lockbox|locker|sim|voicemail|phone|tablet|bank|card"
    r"|gift|entry|access|building|wi-?fi|unlock|security|verification|2fa|login)\W+(?:\w+\W+)?$"
)


def _changed_to(m: re.Match[str], value: str, before: str) -> str | None:
    if m.group("cue") in ("pin", "puk", "code", "passcode"):
        if m.group("cue") == "code" and not _CODE_THING.search(before):
            return None
        if re.fullmatch(r"\d{4,12}#?", value):
            return PIN
        if m.group("cue") == "code" and re.fullmatch(r"[A-Z0-9]{4,6}(?:-?[A-Z0-9]{4,6}){1,4}|[A-Z0-9]{10,20}", value):
            return detectors.GIFT_CARD if re.search(r"\d", value) and re.search(r"[A-Z]", value) else None
        return None
    return PASSWORD if _passwordish(value) and _DIGIT.search(value) else None


# In Chinese, Japanese and Korean the cue is glued to the words around it and the value
# follows a copula or a colon after a few more characters ("公司VPN密码是WCI@...",
# "新しいのはharbo89!pKKZです", "비밀번호는 604260이야", "密码锁的号码，现在是6837").
_CJK_PASSWORD = re.compile(r"密码|密碼|口令|パスワード|비밀번호|비번|암호")
_CJK_CODE_CUE = re.compile(
    r"暗証番号|パスコード|解除コード|認証コード|確認コード|验证码|驗證碼|인증번호"
    r"|(?:사물함|자물쇠|금고|도어락|경보|보안|ロック|ダイヤルロック)\s*(?:해제\s*)?(?:の\s*)?(?:번호|番号)"
)
_CJK_VALUE = re.compile(
    r"(?:[^\x00-\x7f。！？，、]|[ ]|[，、,]\s*(?=是|现在|新的|新密码|新しい|새|지금|الجديد))"
    r"{0,16}?(?:是|为|為|は|が|는|은|:|：|=)\s*[「『“]?(?P<val>[!-~]{3,64}?)(?=[」』”]|[^!-~]|$)"
    # or right after the cue, a space or a comma between, a particle glued after it
    # ("비번 Autumn2022$임", "パスワード、H1k4r167?だよ")
    r"|[ 、，,]\s*(?P<bare>[!-~]{6,64}?)[.,!?]?(?=[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]|\s|$)"
)
# A code's value may follow its name after a space alone ("사물함 번호 2644").
_CJK_CODE_VALUE = re.compile(
    r"(?:(?:[^\x00-\x7f。！？，、]|[ ]){0,16}?(?:是|为|為|は|が|는|은|:|：|=)|\s)\s*(?P<val>[!-~]{3,64})"
)
# Another number named between a cue and a value owns the value ("暗証番号の再発行は窓口で、受付番号 4521").
_CJK_OTHER_NUMBER = re.compile(r"番号|号码|號碼|번호|编号|編號")
# A lock's own words before a password's: its code may be three digits ("储物柜密码：532").
_CJK_LOCK_BEFORE = re.compile(r"(?:储物柜|柜|锁|门|保险箱|保險箱|金庫|ロッカー|사물함|자물쇠|금고|도어락)\s*(?:的|の)?\s*$")
# A security question's answer: "安全问题（…）答案是Biscuit60", "秘密の質問（…）の答えはKowalczyk45".
_CJK_ANSWER = re.compile(
    r"(?:安全问题|安全問題|秘密の質問|보안\s*질문)[^。！？\n]{0,40}?(?:答案是|答案为|答案[:：]|答えは|答え[:：]|답은|답[:：])"
    r"\s*(?P<val>[!-~]{2,40})"
)
# A bracket opening a note right after the value, full-width once folded ("toffeeRocket29（SSID: ..."):
# the note is not the value's.
_NOTE_OPENS = re.compile(r"(?<=[A-Za-z0-9!-/])\((?:[A-Za-z]{1,12}:?)?$")
_CJK_CODE_SHAPE = re.compile(r"[#*]?(\d{3,10})[#*]?|\d{1,2}-\d{1,2}-\d{1,2}|\d{3}-\d{3}")
# A number of something, not a code: digits, characters, minutes, days, times.
_CJK_UNIT = re.compile(r"\s*(?:位|个|個|分|天|日|次|秒|元|円|원|자|文字|桁|回|時間|小时|시간|일|번|개|年|년|月|월|号|號)")


def names_password(low: str) -> bool:
    """Whether ``low`` (lower case, accents off) names a password, in any of the cue
    lexicon's languages, a script without spaces included."""
    return _PASSWORD_CUE.search(low) is not None or _CJK_PASSWORD.search(low) is not None


def _cjk_kind(seg: str, low: str) -> str | None:
    """A password, a code or a security answer named in Chinese, Japanese or Korean with
    its value after it."""
    for cue, password in ((_CJK_PASSWORD, True), (_CJK_CODE_CUE, False)):
        for m in cue.finditer(low):
            vm = (_CJK_VALUE if password else _CJK_CODE_VALUE).match(seg, m.end())
            if not vm or (not password and _CJK_OTHER_NUMBER.search(seg, m.end(), vm.start("val"))):
                continue
            if password and vm.group("bare") is not None:
                bare = vm.group("bare")
                if _strong(bare) or passphrase(bare.lower()) or (
                    _passwordish(bare) and _DIGIT.search(bare) and re.search(r"[A-Za-z]", bare)
                ):
                    return PASSWORD
                continue
            val = _NOTE_OPENS.sub("", vm.group("val")).rstrip(_PW_TRIM)
            code = _CJK_CODE_SHAPE.fullmatch(val)
            if code and not _CJK_UNIT.match(seg, vm.end("val")):
                lock = (
                    not password
                    or _CJK_LOCK_BEFORE.search(low, 0, m.start()) is not None
                    or low.startswith("锁", m.end())  # 密码锁: a combination lock
                )
                if not code.group(1) or len(code.group(1)) >= (3 if lock else 4):
                    return PIN
            elif password and (_passwordish(val) or passphrase(val.lower())):
                return PASSWORD
    if (am := _CJK_ANSWER.search(seg)) and not am.group("val").isdigit():
        return SECURITY_ANSWER
    return None


# SQL that stores a credential: a column named as one in an INSERT, or "SET value = '...'
# WHERE name = 'weaviate_api_key'".
_SQL_INSERT = re.compile(r"(?i)insert\s+into\s+[\w.\"`]+\s*\(([^()]{1,300})\)\s*values\s*\(([^()]{1,600})\)")
_SQL_UPDATE = re.compile(r"(?i)\bset\s+[\w\"`]+\s*=\s*'([^']{1,200})'\s+where\s+[\w\"`]+\s*=\s*'([^']{1,80})'")
_SQL_ITEM = re.compile(r"\s*(?:'(?:[^']|'')*'|[^,]+)")


def _sql_kind(seg: str) -> str | None:
    """A credential an SQL statement in ``seg`` stores, by its column's or its row's name."""
    pairs: list[tuple[str, str]] = []
    for m in _SQL_INSERT.finditer(seg):
        cols = [c.strip().strip('"`').lower() for c in m.group(1).split(",")]
        vals = [v.strip().strip("'") for v in _SQL_ITEM.findall(m.group(2))]
        if len(cols) == len(vals):
            pairs += zip(cols, vals, strict=True)
    pairs += [(m.group(2).lower(), m.group(1)) for m in _SQL_UPDATE.finditer(seg)]
    for name, value in pairs:
        name = name.replace("_", " ")
        if _NEGATED.search(name) or not value or any(ch.isspace() for ch in value):
            continue  # "password_hint", or words
        if _RECORD_TOKEN.search(name) and detectors._looks_random(value, 16) and detectors.generated(value):
            return detectors.GENERIC
        if _PASSWORD_CUE.search(name) and _passwordish(value):
            return PASSWORD
    return None


# A word that is itself the secret: a bank's security word, a family's code word.
_WORD_CUE = re.compile(
    r"(?<!\w)(?:security word|code ?word|safe ?word|password word|mot de code|codewort|kennwort fur"
    r"|parola d'ordine|кодовое слово|кодового слова|секретное слово)(?!\w)"
)
# (a colon after a few words too: "code word for the bank: Tver"; the value ends its clause)
_WORD_AFTER = re.compile(
    rf"^\s*(?:[:=]|(?:\s+{_W}){{0,4}}?(?:\s*[:=]|\s+{_IS}(?!\w)))\s*['\"‘“]?(?P<val>[^\W\d_]{{3,24}})(?![\w@]|\.\w)"
    r"(?=['\"’”]?\s*(?:$|[.,;!?)]))"  # the word ends its clause: "... : ask mum" is a pointer
)
# An app password as Google and Apple print it: four groups of four letters.
_APP_PASSWORD = re.compile(
    r"(?<!\w)(?:app|application|app-specific|app specific|anwendungs|applikations)[ -]?"
    r"(?:password|passwort|kennwort|passcode|contrasena|senha|mot de passe|wachtwoord|losenord)(?!\w)"
)
_APP_PASSWORD_VALUE = re.compile(
    r"(?:[:=]|(?<!\w)is)\s*['\"]?[a-z]{4}([ -])[a-z]{4}\1[a-z]{4}\1[a-z]{4}(?![\w-]|[ -][a-z])"
)


_NOT_ANSWERS = frozenset(
    "a an the my your his her their our it this that what which who where when how why not no none yes set "
    "asked ask saved stored kept changed updated reset required needed in on at for from to of and or "
    "i i'll i’ll i'm i’m i've we we'll will would should must need needs todo tbd pending unknown later "
    "see check look ask ask written printed same secret different".split()
)


# A PIN's name, in a compound too ("Online-Banking-PIN").
_PIN_NAME = re.compile(r"(?<!\w)(?:[^\W\d_]+-)?(?:pin|pin-?code|pincode|pin-?nummer|pin-?kod)(?!\w)")
# A line of code holding a number, and a comment naming it after: the comment's words up to
# the cue ("... '58213' | pbcopy   # building entry code").
_COMMENT_NAMES = re.compile(
    r"['\"(]([#*]?\d{3,10}[#*]?)['\")][^\n\d#]{0,40}?(?:#|//|--|/\*)\s*(?:(?!(?:ttl|timeout|expiry|expires|port|wait|retry|retries|backoff)\b)[^\W\d]+\s+){0,4}$"
)
# A pinned dependency ("python@sha256:...", "actions/checkout@v4.1.1", "requests==2.31").
_DEPENDENCY = re.compile(r"[\w./-]+(?:@(?:v?\d[\w.]*|sha\d+:\w+)|==[\w.]+)")
# "pin" as a verb: "pin the image", "pin it to the top".
_PIN_VERB = re.compile(r"(?i)\s+(?:the|it|them|this|that|these|those|to|down|up|a|an)\b")
# A sentence that gives the code named at the end of the one before.
_TOLD_NEXT = re.compile(
    r"(?:\s+[^\W\d_]+){0,5}[^\w.!?]{0,3}[.!?]\s+(?:it'?s|it is|that'?s|c'est|es|ist|è)\s+[#*]?\d+[#*]?(?!\d|[.,:]\d)"
)
_RIDDLE_HINT = re.compile(r"\byear\b")
# A code given as a public fact that fixes it ("the year the Berlin Wall fell"); a private one
# ("my daughter's birthday") is a hint, which the memory may keep.
_DETERMINED = re.compile(
    rf"\s*(?:[:=]|(?<!\w){_IS}(?!\w))\s*(?:just\s+|simply\s+)?(?:the\s+)?year\s+(?:the|when)\s+(?!i\b|we\b|my\b|our\b)"
    r"(?![^.\n]{0,40}\b(?:born|built|married|moved|bought|met|started|died|kids|grandpa|grandma|dad|mum|mom)\b)"
)
_PRODUCT_WORDS = re.compile(
    r"(?<![^\W\d_])(?:product|produkt\w*|produit|producto|prodotto|urun\w*|model\w*|modell\w*|item(?!\s*:)|artikel\w*|sku"
    r"|מוצר|פריט)(?![^\W\d_])"
)
# A combination named, and its numbers right after the name; a dial's turns left and right.
_COMBINATION_NAMED = re.compile(r"combo|combination|kombination|combinacion|combinaison|combinazione|kombinacja")
_ANNOUNCED_COMBO = re.compile(r"\s*[:=]?\s*\d{1,2}[- ]\d{1,2}[- ]\d{1,2}(?![\d:/.-])")
_DIAL = re.compile(r"\s*[:=]?\s*[rl]\d{1,2}-[rl]\d{1,2}-[rl]\d{1,2}(?![\w-])")
# A card payment's receipt: its masked card, its totals.
_RECEIPT_WORD = re.compile(
    r"\b(?:receipt|subtotal|total|merchant|terminal|approved|approval|tip|change due|amount|rrn|card ending|ending in)\b"
)
_MASKED_CARD = re.compile(r"[*•x]{4}\s?\d{4}")
_LOGIN_WORD = re.compile(r"\b(?:log ?in|sign ?in|2fa|mfa|ssh|account|verify|verification)\b")


def _receipt(low: str) -> bool:
    """A card payment's receipt: a masked card, or two of its words; never a login's text."""
    if _LOGIN_WORD.search(low):
        return False
    return _MASKED_CARD.search(low) is not None or len(set(_RECEIPT_WORD.findall(low))) >= 2
# Codes that open nothing.
_NOT_A_CODE_WORDS = (
    r"(?:error|status|country|area|dial(?:l?ing)?|postal|zip|post|building|dress|promo|discount|coupon|voucher|gift"
    r"|referral|tax|sort|bar|qr|source|colou?r|icd|cpt|billing|product|tracking|booking|confirmation|course|class"
    r"|airport|station|language|currency|access (?:to the|for the) course)"
)
_NOT_A_CODE = re.compile(r"(?<![^\W\d_])" + _NOT_A_CODE_WORDS + r"[ -]?$")  # (a word: "inpost" is no post)


# A card's security code, its value announced ("CVV of the card ending 5521 is 804"), not
# any number near the word ("CVV2 mismatch declines were 312").
_CVV_CUE = re.compile(
    r"(?<!\w)(?:cvv2?|cvc2?|cvn|prufziffer|kartenprufnummer|cryptogramme|card security code)(?!\w)"
)
_CVV_VALUE = re.compile(rf"(?:[:=]|(?<!\w){_IS}(?!\w))\s*(?P<val>\d{{3,4}})(?!\d|[.,/:-]\d)")


def _code_kind(low: str, receipt: bool = False) -> str | None:
    """A one-time code, a PIN or a lock's code named in ``low`` with its digits nearby."""
    for cue, kind in (
        (_OTP_CUE, ONE_TIME_CODE),
        (_PIN_CUE, PIN),
        (_LOCK_CUE, PIN),
        (_PASSWORD_CUE, PIN),
    ):
        for m in cue.finditer(low):
            tm = _TOLD_NEXT.match(low, m.end())  # "asked for the door code. It's 49952"
            told = tm is not None and not _UNIT_AFTER.match(low, tm.end())  # not "It's 300 metres away"
            if (_negated(low, m) and not told) or (cue is _PASSWORD_CUE and m.group() in _WEAK_PW_CUES):
                continue
            if cue is _OTP_CUE and m.group() == "auth code" and (receipt or _receipt(low)):
                continue  # a card receipt's authorisation code approves one payment, opens nothing
            if _PRODUCT_WORDS.search(low, max(0, m.start() - 16), m.end() + 40):
                continue  # a product's, a model's or an item's code: "car radio model code 7612", "ürün kodu"
            if cue is _OTP_CUE and "recovery key" in m.group() and not _RECOVERY_VALUE.search(low, m.end()):
                continue  # a recovery key has its own shape; "needed for 2 of the 3 laptops" is not one
            if (cue is _PASSWORD_CUE or cue is _PIN_CUE) and detectors.pw_statistics(low) and not detectors._OWN.search(low):
                continue  # statistics: "the most common password was still 123456"
            if _NOT_A_CODE.search(low[max(0, m.start() - 16) : m.start()]) or _NOT_A_CODE.search(
                low[m.start() : m.end()].rsplit(" ", 1)[0] + " "
            ):
                continue
            if m.group() == "pin" and _PIN_VERB.match(low, m.end()):
                continue  # "pin this: port is 8080": to pin a note, not a PIN
            after = _window_after(low, m.end(), _AFTER)
            if _code_value(after, 4 if cue is _PASSWORD_CUE else 3, cue is _PIN_CUE or cue is _LOCK_CUE):
                return kind
            if (cue is _PIN_CUE or cue is _LOCK_CUE) and _DETERMINED.match(low, m.end()):
                return kind  # a riddle only its answer fits: "bank PIN = the year the Berlin Wall fell"
            if (
                cue is _LOCK_CUE
                and (combo := _COMBO.search(after))
                # a date unless it follows the combination's own name ("combo 10-8-26")
                and (not _date_like(combo) or (_COMBINATION_NAMED.search(m.group()) and _ANNOUNCED_COMBO.match(after)))
                and not _BOUGHT.search(after[: combo.start()])
            ):
                return kind
            if cue is _LOCK_CUE and _COMBINATION_NAMED.search(m.group()) and _DIAL.match(after):
                return kind  # a dial's turns: "Safe combination: R6-L95-R74"
            if cue is _OTP_CUE and any(
                not _NOT_CODE_BEFORE.search(_window_before(after, h.start(), 24)) for h in _HALVES.finditer(after)
            ):
                return kind  # "882-706", as a code is shown in two halves; not "order 123-456"
            if cue is _OTP_CUE and any(
                _DIGIT.search(v.group()) and re.search(r"[a-z]", v.group())
                for v in _SETUP_KEY.finditer(after)
            ):
                return kind
            if (
                cue is _OTP_CUE
                and "code" in m.group()
                and (vm := _OTP_ALNUM.match(after))
                and _DIGIT.search(vm.group(1))
                and re.search(r"[a-z]", vm.group(1))
                and not _PRODUCT_NAME.fullmatch(vm.group(1))
            ):
                return kind
            if (
                cue is _OTP_CUE
                and (vm := _CODE_ROW.match(low[m.end() : m.end() + 120]))
                and sum(bool(_DIGIT.search(c) and re.search(r"[a-z]", c)) for c in vm.group(1).split()) >= 2
            ):
                return kind
            if cue is _OTP_CUE and re.search(r"code|recovery|backup|wiederherstell|recuper|herstel", m.group()) and any(
                sum(bool(_DIGIT.search(g) and re.search(r"[a-z]", g)) for g in v.group().split("-")) >= 2
                for v in _RECOVERY_VALUE.finditer(after)
            ):
                return kind  # "NZGAK-C85EV-ZGVKL-1H86S-3OS0M", not a host "web01-prod-east"
            if (vm := _CODE_FIRST.match(low[: m.start()])) and _code_value(vm.group("val"), 3):
                return kind
            if cue is not _PASSWORD_CUE and (vm := _COMMENT_NAMES.search(low, 0, m.start())) and _code_value(vm.group(1), 4):
                return kind  # printf '58213' | pbcopy   # gate code
            before = _window_before(low, m.start(), _BEFORE)
            vm = _CODE_VALUE.search(before)
            if vm and _JOINED_BEFORE.match(before[vm.end() :]) and _code_value(before):
                return kind
    for m in _CVV_CUE.finditer(low):
        vm = _CVV_VALUE.search(_window_after(low, m.end(), _AFTER))
        if vm and not _negated(low, m):
            return detectors.CARD_CODE
    for m in _DEVICE_CUE.finditer(low):
        if not _negated(low, m) and _code_value(low[m.end() : m.end() + _DEVICE_AFTER], announced=True):
            return PIN
    for m in _SAFE_CUE.finditer(low):
        after = low[m.end() : m.end() + _SAFE_AFTER]
        vm = _SAFE_VALUE.match(after)
        if vm and not _negated(low, m) and _code_value(vm.group("val"), 4):
            return PIN
        # a dial's three numbers right after the colon ("safe behind the painting: 20-14-33"), never a date
        cm = _SAFE_COMBO.match(after)
        if cm and not _date_like(cm) and not _negated(low, m):
            return PIN
    return None


def _window_after(low: str, start: int, width: int) -> str:
    """Up to ``width`` characters after ``start``, never ending inside a word or a number
    (a cut "2026 edition" is not a code "202")."""
    end = min(len(low), start + width)
    while end < len(low) and low[end - 1].isalnum() and low[end].isalnum():
        end += 1
    if low[start:end].rstrip().endswith((":", "=")):  # a value announced at the edge
        end = min(len(low), end + 16)
    elif low[end - 1 : end].isdigit():
        end = min(len(low), end + 12)  # and what follows a number: "2026 edition", "922 km"
    return low[start:end]


def _window_before(low: str, end: int, width: int) -> str:
    """Up to ``width`` characters before ``end``, never starting inside a word or a number
    ("user_id=48676 login ok mfa": not "676 login ok ")."""
    start = max(0, end - width)
    while 0 < start < end and low[start - 1].isalnum():
        start += 1
    return low[start:end]


def _date_like(m: re.Match[str]) -> bool:
    """Three numbers that could be a date (day, month, year either way round; a year is
    written with two digits, so "2-20-9" is a combination)."""
    a, b, c = int(m.group(1)), int(m.group(3)), int(m.group(4))
    if len(m.group(4)) == 2 and ((1 <= a <= 31 and 1 <= b <= 12) or (1 <= a <= 12 and 1 <= b <= 31)):
        return True  # 18-05-91, 05-18-91
    # 91-05-18, a year first: written zero-padded (a year is two or four digits)
    return len(m.group(1)) == len(m.group(3)) == len(m.group(4)) == 2 and 1 <= b <= 12 and 1 <= c <= 31


# -- records ---------------------------------------------------------------------------------

_MAX_LEAVES = 24  # a record or list with more scalars than this is data, not one credential
# "part 2/4: Gs5BlN", "(3/3) Qq2a", "Teil 1 von 2 -": a piece's own label, read off before joining.
_PART = re.compile(
    r"(?i)^(?P<head>.*?)[\s,;(]*(?:part|teil|partie|parte|deel|czesc|del|osa|parca|bagian)?\s*"
    r"\(?\d{1,2}\s*(?:/|of|von|de|di|van|z|av|af)\s*\d{1,2}\)?\s*[:\-=]?\s+(?P<piece>\S{1,100})$"
)
# What every _PART holds, "1/4", "2 of 3": found first, in a fraction of _PART's time.
_PART_NUMBER = re.compile(r"(?i)\d\s*(?:/|of|von|de|di|van|z|av|af)\s*\d")
# Fields that name a record's value rather than hold it, and fields whose values are ids.
_NOT_PIECE_KEY = re.compile(
    r"(?i)^(?:note|notes|hint|comment|description|desc|label|name|what|for|service|app|title|kind|type|enc"
    r"|encoding|format|algo|algorithm|how|instructions?|site|url|host|user(?:name)?|login|email|account"
    r"|key_?id|kid|fingerprint|hash|sha\d*|checksum|digest|commit|etag|request_?id|trace_?id|order_?id"
    r"|id|uuid|ref|reference|created(?:_at)?|updated(?:_at)?|date|time|timestamp|ts|tags?|source|role|status"
    r"|expires?(?:_at)?|expiry|scope|scopes|region|env|environment|version|lang|language|owner|device)$"
)
_RECORD_TOKEN = re.compile(
    r"(?<![\w-])(?:(?:api|access|secret|private|auth|deploy|service|bearer|personal access|write|signing|license"
    r"|licence|master|root|admin|client|app|integration|webhook|sdk|server)[ -]?(?:key|token|secret)|apikey"
    r"|authtoken|token|tokens|secret|client secret|credentials?|webhook(?: url)?|private key|seed phrase"
    r"|recovery phrase|mnemonic|chave|clave|ключ|токен|トークン|令牌|密钥|토큰)(?![\w-])"
)
_CODES_CUE = re.compile(
    r"(?<!\w)(?:(?:backup|recovery|reserve|emergency|scratch|one[- ]time|2fa|mfa|verification)[ -]codes?"
    r"|wiederherstellungscodes?|codes? de (?:secours|respaldo|recuperacion|recuperacao)|codici di backup)(?!\w)"
)
_CARD_CUE = re.compile(r"(?<!\w)(?:card|tarjeta|carte|karte|cartao|kaart|carta|kort|visa|mastercard|maestro|amex)(?!\w)")
_LETTER = re.compile(r"[A-Za-z]")


def record_secret(value: Any) -> str | None:
    """The kind of a credential split, encoded or disguised inside a small record or list
    that names it: one item says what it is ("Figma token", "Nintendo password, part 1/4:
    L"), and the other items hold it whole (rot13'd, reversed, base64'd, hex'd or written
    as character codes, all of which leave a machine-made token machine-made), spaced
    into groups, or cut into pieces that only make it joined up. A service's credential
    must then look machine-made; a password must read as a chosen one."""
    for leaves in _records(value, 0):
        kind = _record_kind(leaves)
        if kind:
            return kind
    return None


def _records(value: Any, depth: int) -> Iterator[list[tuple[str, str]]]:
    """Each small record or list (nested records read into it), as (field, text) leaves."""
    if depth > _MAX_DEPTH or not isinstance(value, (Mapping, list, tuple)):
        return
    leaves: list[tuple[str, str]] = []
    if _leaves(value, "", leaves, depth) and len(leaves) >= 2:
        yield leaves
    children = value.values() if isinstance(value, Mapping) else value
    for child in list(children)[:_MAX_LEAVES * 4]:
        if isinstance(child, (Mapping, list, tuple)):
            yield from _records(child, depth + 1)
        elif isinstance(child, str) and _json_like(child):
            yield from _records(_parsed(child.strip()), depth + 1)


def _leaves(value: Any, name: str, out: list[tuple[str, str]], depth: int) -> bool:
    """Append ``value``'s scalars with their field names; False when there are too many."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, Mapping):
        for k, v in value.items():
            if not _leaves(v, str(k), out, depth + 1):
                return False
        return True
    if isinstance(value, (list, tuple)):
        if len(value) >= 8 and all(type(v) is int and 32 <= v <= 126 for v in value):
            out.append((name, "".join(map(chr, value))))  # a token written as character codes
            return len(out) <= _MAX_LEAVES
        for v in value:
            if not _leaves(v, name, out, depth + 1):
                return False
        return True
    text = _scalar(value)
    if text is not None and text.strip():
        out.append((name, text))
    return len(out) <= _MAX_LEAVES


_IN_PIECES = re.compile(r"\(?\b\d{1,2}\s+(?:pieces|parts|chunks|bits)\b,?(?:\s+in\s+order)?\)?|\bin\s+order\b")


def _record_kind(leaves: list[tuple[str, str]]) -> str | None:
    named: list[str] = []
    code_named: list[str] = []  # an item naming a PIN or a code: {"desc": "my voicemail PIN", "v": "7838"}
    pieces: list[str] = []
    wholes: list[str] = []
    labelled = False  # the pieces carry labels of their own ("part 2/4: ...")
    for field, text in leaves:
        text = text.strip()
        if len(text) > 300:
            return None  # a text of its own: the line checks read it
        if text in DOC_EXAMPLES or DOC_VALUES.fullmatch(text):
            continue  # the documentation's example, named as the key it stands for
        m = _PART.match(text) if " " in text and _PART_NUMBER.search(text) else None
        head, piece = (m.group("head"), m.group("piece")) if m else (text, None)
        labelled = labelled or piece is not None
        if head and " " in head.strip() or (head and piece is None and not _DIGIT.search(head)):
            low = _IN_PIECES.sub(" ", _plain(head).replace("_", " "))  # "(3 pieces, in order)": not an order
            if _PUBLIC.search(low):
                return None  # about a key meant to be seen
            # (a quick test first: the name patterns are the costly part of reading a record)
            names = _triggered(low) or _RECORD_TRIGGER.search(low) is not None
            if names and piece is None and _names_code_only(low) and not _NEGATED.search(low):
                code_named.append(low)  # "tablet passcode": a PIN's name, though "passcode" names passwords too
                continue
            if names and _RECORD_NAMES.search(low) and not _NOT_CREDENTIAL.search(low) and _strongly_named(low):
                if detectors.not_secret_context(low) or _NEGATED.search(low):
                    return None  # a hash or an id, or talk about a credential
                named.append(low)
                if piece is not None:
                    pieces.append(piece)
                continue
            if names and piece is None and _CODE_NAMES.search(low) and not _NEGATED.search(low):
                code_named.append(low)
                continue
        key = field.replace("-", "_").lower()
        if _NOT_PIECE_KEY.match(key) or _DATE.search(text):
            continue
        if field and not (_PIECE_KEY.match(key) or _VALUE_KEY.match(key)):
            continue  # a field with a meaning of its own ("locker", "when", "sku")
        if piece is not None:
            pieces.append(piece)
        elif " " not in text:
            pieces.append(text)
            wholes.append(text)
        else:
            chunks = text.split()
            if len(chunks) >= 4 and len({len(c) for c in chunks[:-1]}) == 1 and len(chunks[0]) <= 6:
                wholes.append("".join(chunks))  # "07eaa c51fb 7c9d6 227fc": spaced into groups
            elif _CHAR_CODES.fullmatch(text) and (chars := char_codes(text)) is not None:
                wholes.append(chars)
    if not named and len(code_named) == 1 and len(wholes) == 1 and _CODE_WHOLE.fullmatch(wholes[0]):
        if _code_value(wholes[0], 3, announced=True):  # the record's own value field holds the code
            return ONE_TIME_CODE if _OTP_CUE.search(code_named[0]) else PIN
    if len(named) != 1:
        return _code_list(leaves) if not named else None  # a list of notes about credentials
    if _CODES_CUE.search(named[0]) and (kind := _code_list(leaves, named=True)):
        return kind
    if _CARD_CUE.search(named[0]):  # a card's number, backwards where the record says so
        backwards = any(_BACKWARDS.search(_plain(t)) for _, t in leaves)
        for value in [*wholes, "".join(pieces)]:
            if value.isdigit() and (
                detectors.card_spans(value) or (backwards and detectors.card_spans(value[::-1]))
            ):
                return detectors.CREDIT_CARD
    password = _PASSWORD_CUE.search(named[0]) is not None
    token = not password and _RECORD_TOKEN.search(named[0]) is not None
    if not (token or password):
        return None
    wallet = _WALLET_KEY.search(named[0]) is not None
    candidates = [*wholes, "".join(pieces)] if len(pieces) >= 2 else wholes
    for value in candidates:
        if _TX_HASH.fullmatch(value) and not wallet:
            continue  # a transaction's hash, not a wallet's key
        value = _decoded_whole(value)
        if token and detectors._looks_random(value, 20) and detectors.generated(value):
            return detectors.GENERIC
        if password and _passwordish(value) and (len(pieces) >= 2 and (labelled or value not in wholes)):
            return PASSWORD
    return None


def _names_code_only(low: str) -> bool:
    """Names a PIN or a code, and no password (but a passcode), token, card or list of codes."""
    return (
        _CODE_NAMES.search(low) is not None
        and _PASSWORD_CUE.search(_PIN_CUE.sub(" ", low)) is None
        and _RECORD_TOKEN.search(low) is None
        and _CARD_CUE.search(low) is None
        and _CODES_CUE.search(low) is None
    )


# Words of the record names that the cue triggers (``_triggered``) do not hold.
_RECORD_TRIGGER = re.compile(
    r"token|secret|key|cred|webhook|pass|pwd|card|tarjeta|carte|karte|cartao|kaart|visa|master|maestro|amex|seed"
    r"|mnemonic|phrase|chave|clave|ключ|токен"
    r"|トークン|令牌|密钥|토큰|סיסמ|รหัสผ่าน|συνθηματικ|κωδικ|पासवर्ड"
)
# What names a PIN or a lock's or one-time code in a record, and a value of a code's shape.
_CODE_NAMES = re.compile(f"(?:{_PIN_CUE.pattern})|(?:{_LOCK_CUE.pattern})|(?:{_OTP_CUE.pattern})")
_CODE_WHOLE = re.compile(r"[#*]?\d{3,10}[#*]?")
# What names a credential in a record: a service's key or token, a password, a wallet's
# key or words, backup codes, a card (not "key" or "seed" alone: a house key, seed packets).
_RECORD_NAMES = re.compile(
    rf"{_RECORD_TOKEN.pattern}|(?<![\w-])(?:backup codes?|recovery codes?|card|tarjeta|carte|karte|cartao"
    rf"|kaart)(?![\w-])|{_PASSWORD_CUE.pattern}"
)
# Token talk that is not a credential: usage, counts, limits, a coin.
_NOT_CREDENTIAL = re.compile(
    r"(?<!\w)(?:tokens? (?:usage|used|count|counts|limit|limits|budget|per|cost|price|window)|(?:usage|count|number)"
    r" of tokens|token(?:ized|izer|ization)|(?:bought|sold|swap(?:ped)?|buy|sell) (?:some |the )?\w+ tokens?)(?!\w)"
)
# Field names of pieces ("a", "p2", "part3", "second", "fin") and of a value ("v", "data").
_PIECE_KEY = re.compile(
    r"^(?:[a-z]|[a-z]?\d{1,2}|[a-z]_?\d|p\d+|part_?\d+|piece_?\d+|chunk_?\d+|seg(?:ment)?_?\d+|first|second"
    r"|third|fourth|fifth|sixth|last|rest|start|middle|end|left|right|debut|milieu|fin|reste|anfang|mitte|ende"
    r"|inizio|fine|one|two|three|four|head|tail|half_?\d?|pieces|parts|bits|chunks|segments)$"
)
_VALUE_KEY = re.compile(
    r"^(?:v|k|val|value|data|blob|hex|b64|base64|encoded|enc_value|content|codes|code|secret|token|key|payload"
    r"|raw|string|s|body|cipher|ciphertext|reversed"
    # "code" and "value" in the languages the cues are in ({"Servicio": "el código del garaje", "Código": "61854"})
    r"|c[oó]digo|codice|cod|codul|k[oó]d|kode|koden|kodu|koodi|kood|koda|kodas|код|كود|رمز|الرمز|कोड|κωδικός|κωδικος"
    r"|valor|valeur|valore|wert|waarde|значение|arvo|verdi|v[aä]rde|warto[sś][cć])$"
)
_BACKWARDS = re.compile(
    r"(?<!\w)(?:reverse[ds]?|backwards?|reversed|ruckwarts|al reves|a l'envers|omgekeerd|al contrario|invertid[oa])(?!\w)"
)
_WALLET_KEY = re.compile(r"(?<!\w)(?:private key|priv(?:ate)? ?key|wallet key|secret key|seed|mnemonic)(?!\w)")
_TX_HASH = re.compile(r"0x[0-9a-fA-F]{64}")


# One-time backup or recovery codes, as services print them: "3ir2-btz4", "ff32c-5cb0b".
_BACKUP_CODE = re.compile(r"[a-z0-9]{4,5}-[a-z0-9]{4,5}|[A-Z0-9]{4,5}-[A-Z0-9]{4,5}|\d{4} ?\d{4}|[a-z0-9]{8,10}")
_UNNAMED_CODE = re.compile(r"[a-z0-9]{4,5}-[a-z0-9]{4,5}")


def _code_list(leaves: list[tuple[str, str]], named: bool = False) -> str | None:
    """A list of backup codes: at least six items of one code's shape, each with a digit.
    Where nothing names them, eight or more lower-case codes with letters and digits on a
    dash, none sharing their first three characters with another (ticket ids, SKUs and
    flight numbers share a prefix or are upper case)."""
    texts = [t.strip() for f, t in leaves if not f or _VALUE_KEY.match(f.lower()) or _PIECE_KEY.match(f.lower())]
    codes = [t for t in texts if _BACKUP_CODE.fullmatch(t) and _DIGIT.search(t)]
    if len(codes) < (6 if named else 8) or len({len(c) for c in codes}) > 1:
        return None
    if not named:
        if len(codes) != len(texts) or not all(_UNNAMED_CODE.fullmatch(c) and _LETTER.search(c) for c in codes):
            return None
        if len({c[:3] for c in codes}) < len(codes):
            return None
        halves = [h for c in codes for h in c.split("-")]
        if sum(h.isalpha() and any(v in h for v in "aeiou") for h in halves) > len(halves) // 4:
            return None  # labels made of words: "bike-2041", "tent-1182"
    elif len({c[:3] for c in codes}) < len(codes) * 0.75:
        return None  # numbered or prefixed like ids
    return ONE_TIME_CODE


def _decoded_whole(value: str, least: int = 32) -> str:
    """A value written as hex (``31663638...``, ``least`` digits or more) as the text it
    encodes, when it is one."""
    if re.fullmatch(r"0x[0-9a-fA-F]{64}", value):
        return value[2:]  # a wallet's private key
    if len(value) >= least and len(value) % 2 == 0 and re.fullmatch(r"[0-9a-fA-F]+", value):
        try:
            text = bytes.fromhex(value).decode("ascii")
        except (ValueError, UnicodeDecodeError):
            return value
        if text.isprintable():
            return text
    return value


# -- labels ----------------------------------------------------------------------------------

# "see key", "(value in key)", "stored in namespace", "- see path": the value says its
# credential is the memory's key or a namespace label (named as such: a key box, a folder
# or a title are not pointers).
_POINTER = re.compile(
    r"(?i)(?:\b(?:see|refer to|look at|same as|check)\s+(?:the\s+)?(?:memory'?s\s+)?(?P<a>key|path|namespace)\b"
    r"(?!\s+(?:docs?|page|box|safe|hook|ring|cabinet|holder|drawer|rack|under|on|in|for))(?!-)"
    r"|\b(?:siehe|voir|ver|vedi|zie|patrz|bkz)\s+(?:den\s+|die\s+|la\s+|le\s+|de\s+|il\s+)?"
    r"(?P<d>schl(?:ü|ue|u)ssel|pfad|namespace|cl[ée]|chemin|clave|ruta|chiave|percorso|sleutel|pad|klucz|anahtar)\b"
    r"|\b(?:value|it|code|pin|password|secret|token)(?:'s|\s+is)?\s+(?:stored\s+|kept\s+|saved\s+)?in\s+(?:the\s+)?"
    r"(?P<b>key|path|namespace)\b(?!\s+(?:box|safe|hook|ring|cabinet|holder|drawer))"
    r"|\b(?:stored|saved|kept)\s+in\s+(?:the\s+)?(?P<c>namespace|path)\b"
    # "stored encoded in this memory's key (hex)", "filed in the third namespace element",
    # "decode the key", "hex in the key"
    r"|\b(?:encoded|hidden|filed|stored|kept|saved|put|hex|base64)\s+(?:\w+\s+)?in\s+(?:this\s+|the\s+)?"
    r"(?:memory'?s\s+)?(?:(?:third|last|final|extra)\s+)?(?P<e>key|namespace|path)\b(?!\s+(?:box|safe|hook|ring))"
    r"|\bdecode\s+(?:the\s+)?(?:memory'?s\s+)?(?P<f>key)\b"
    # "the hex part of this memory's key", "see key of this entry"
    r"|\b(?:hex|part|digits|chars|characters|rest)\s+(?:\w+\s+)?(?:of|in)\s+(?:this\s+|the\s+)?"
    r"(?:memory'?s|entry'?s|note'?s|record'?s)\s+(?P<g>key)\b"
    r"|\b(?:see|check|use)\s+(?:the\s+)?(?P<h>key)\s+of\s+(?:this|the)\s+(?:entry|memory|note|record)\b)"
)
# What a pointer in another language names: the key, or the path.
_POINTED = {"key": "key", "path": "path", "namespace": "namespace", "pfad": "path", "chemin": "path", "ruta": "path",
            "percorso": "path", "pad": "path"}
_CREDENTIAL_TYPES = frozenset({"credential", "credentials", "credential-ref", "credential_ref", "secret"})
_STORE_KEY = re.compile(r"(?i)^(?:mem|memory|note|fact|key|item)[_\-]")
_LABEL_CODE = re.compile(r"[A-Za-z]?(\d{3,10})[A-Za-z#]?")
_DIGITS_ONLY = re.compile(r"(\d{3,10})")
_HEX_ID = re.compile(r"(?i)[0-9a-f]{6,}|[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}")
_CJK_AFTER_LATIN = re.compile(r"(?<=[a-z0-9])(?=[\u3040-\u9fff\uac00-\ud7af])")


# A credential named beside a pointer to the key (the pointer's own "key" aside): a token, or a
# service's key, secret or certificate; and the words that say there is none.
_KEY_NAMED = re.compile(r"(?<![\w-])(?:key|token|secret|certificate|cert)(?![\w-])")
_NOT_A_KEY = re.compile(r"(?<![\w-])(?:no|not an?|not the|isn'?t an?)\s+(?:\w+\s+)?(?:key|token|secret|credential)")
_PREFIX_DROPPED = re.compile(r"(?<![\w-])(?:without|minus|dropping|drop|strip|remove)\s+the\s+\S+\s+prefix(?![\w-])")


def pointed_secret(value: Any, labels: list[str]) -> str | None:
    """The kind of a credential kept in the memory's key or last namespace label when the
    value points there ("PIN der Girokarte - see path", ``{"note": "saved garagecode
    (value in key)"}``) or is only a credential's stub (``{"type": "credential"}``): the
    labels are persisted (sealed) and shown, so they are checked as that credential. The
    first two namespace labels (an app's and a user's) are never read as one."""
    if len(labels) < 2:
        return None
    texts = _texts_of(value, 0, _MAX_LEAVES)
    pointers = [m for t in texts for m in _POINTER.finditer(t)]
    stub = (
        isinstance(value, Mapping)
        and any(isinstance(v, str) and v.strip().lower() in _CREDENTIAL_TYPES for v in value.values())
        and all(_META.match(str(k)) or str(k).lower() in ("owner", "for", "note") for k in value)
    )
    # a value that only names a password ("Netflix password"), kept under a key that is one
    named_only = (
        isinstance(value, str)
        and len(_WORDS.findall(value)) <= 5
        and _PASSWORD_CUE.search(_plain(value)) is not None
        and _strongly_named(value)
        and not _NEGATED.search(_plain(value))
    )
    if named_only and _strong(_STORE_KEY.sub("", labels[-1].strip())):
        return PASSWORD
    if not (pointers or stub):
        return None
    low = _CJK_AFTER_LATIN.sub(" ", _plain(" ".join(texts)).replace("_", " "))
    if _NEGATED.search(_PREFIX_DROPPED.sub(" ", low)):
        return None  # "door code changed last week; see key" (not "without the mem_ prefix")
    targets = {_POINTED.get(next(g for g in m.groups() if g).lower(), "key") for m in pointers}
    candidates: list[tuple[str, bool]] = []  # (label, is the key)
    key = labels[-1].strip()
    app_id = (prefix := _STORE_KEY.match(key)) is not None and key[prefix.end() :].isdigit()  # "note_2211"
    if "key" in targets or (stub and not app_id):
        candidates.append((_STORE_KEY.sub("", key), True))
    if (stub or targets & {"path", "namespace"}) and len(labels) >= 4:
        candidates.append((labels[-2].strip(), False))
    named = _CUE_ANY.search(low) is not None or _LOCK_CUE.search(_plain(" ".join(labels)).replace("-", " "))
    # "see key", "Outlook密码 - see path": nothing but the pointer and a few words
    bare = bool(pointers) and sum(len(_WORDS.findall(_POINTER.sub(" ", t))) for t in texts) <= 2
    for label, is_key in candidates:
        if not label or _DATE.fullmatch(label):
            continue
        code = (_LABEL_CODE if is_key else _DIGITS_ONLY).fullmatch(label)
        if code and not _YEAR.fullmatch(code.group(1)) and (named or stub or bare):
            return PIN
        if _HEX_ID.fullmatch(label):
            if bare and is_key and len(label) >= 32 and not detectors._UUID_HEX.fullmatch(label.lower()):
                return detectors.GENERIC  # only "see key", and the key is a hex token, not a UUID
            if (
                pointers
                and is_key
                and len(label) >= 16
                and _KEY_NAMED.search(_POINTER.sub(" ", low))
                and not _NOT_A_KEY.search(low)
                and not detectors._UUID_HEX.fullmatch(label.lower())
            ):
                return detectors.GENERIC  # "Datadog API key: see key of this entry": the key's hex is the credential
            decoded = _decoded_whole(label, 6) if pointers and is_key else label
            if decoded != label:  # "see key for the OVHcloud token": the key is the hex of one
                if (digits := _DIGITS_ONLY.fullmatch(decoded)) and named and not _YEAR.fullmatch(digits.group(1)):
                    return PIN  # "The SIM PIN, stored encoded in this memory's key (hex)"
                if _RECORD_TOKEN.search(low) and detectors._looks_random(decoded, 16):
                    return detectors.GENERIC
                if _PASSWORD_CUE.search(low) and _passwordish(decoded):
                    return PASSWORD
            continue  # an id the app made up (``mem_c6ffba10``, a UUID)
        if pointers and _RECORD_TOKEN.search(low) and (
            detectors._looks_random(label, 16) or re.fullmatch(r"0x[0-9a-fA-F]{64}", label)
        ):
            return detectors.GENERIC
        if "_" in label and not _strong(label):
            continue  # an identifier ("flight_LH454")
        if _strong(label) or (_passwordish(label) and pointers and (bare or _PASSWORD_CUE.search(low))):
            return PASSWORD
    return None


# -- a value the memory says to keep to oneself ------------------------------------------------

# "Don't tell anyone", "delete it after reading", "keep it secret", in the languages people
# write their notes and chats in: said beside a value, it says the value opens something,
# whatever the memory calls it.
_SECRECY = re.compile(  # (matched on lower-cased text: without re.I it runs three times as fast)
    r"(?<![^\W\d_])(?:"
    r"don'?t tell (?:any ?one|any ?body|no ?one)|do not tell (?:any ?one|any ?body)|tell no ?one|don'?t share(?: it| this)?|do not share"
    r"|never share|keep (?:it|this) (?:secret|to yourself)|for your eyes only|don'?t pass (?:it|this) on"
    r"|delete (?:the message|this message)(?: after)?|delete (?:it|this) after (?:reading|you read)|delete after reading|read and delete"
    r"|no compartir|no lo compartas|no se lo digas a nadie|no decirle a nadie|b[oó]rralo(?: luego| despu[eé]s)"
    r"|n[aã]o (?:compartilhar|partilhar|contes? a ningu[eé]m|conta a ningu[eé]m)|apag(?:a|ue) depois"
    r"|ne (?:le )?dis (?:[aà] )?personne|(?:[aà] )?ne pas partager|ne le partage pas|efface(?:-le)? apr[eè]s"
    r"|non dirlo a nessuno|non condividere|poi cancella|cancella(?:lo)? dopo"
    r"|nicht weitergeben|niemandem (?:sagen|verraten)|sag(?: es)? niemandem|nicht teilen|danach l[oö]schen"
    r"|niet doorsturen|niet delen|aan niemand vertellen|daarna verwijderen"
    r"|ikke del|del ikke|sig det ikke til nogen|slet (?:beskeden|den)(?: bagefter)?|ikke fortell|ikke si det til noen|slett (?:meldingen|etterp[aå])"
    r"|dela inte|ber[aä]tta inte f[oö]r n[aå]gon|s[aä]g inte till n[aå]gon|radera (?:sen|efter[aå]t)"
    r"|[aä]l[aä] kerro kenellek[aä][aä]n|[aä]l[aä] jaa|poista viesti"
    r"|nikomu nie m[oó]w|nie m[oó]w nikomu|nie udost[eę]pniaj|usu[nń] (?:potem|wiadomo[sś][cć])"
    r"|nikomu (?:ne[rř][ií]kat|to ne[rř]ekni|ne[rř]ekni|nehovor)|nesd[ií]let|pak sma[zž]|sma[zž] to"
    r"|nu spune nim[aă]nui|nu [iî]mp[aă]rt[aă][sș]i|[sș]terge(?:-l)? dup[aă]"
    r"|senkinek|ne oszd meg|t[oö]r[oö]ld (?:ut[aá]na|k[eé]s[oő]bb)"
    r"|nikome ne govori|ne dijeli|izbri[sš]i (?:poslije|kasnije)|obri[sš]i (?:poslije|posle)|nikomur ne povej"
    r"|kimseyle payla[sş]ma|kimseye s[oö]yleme|sonra sil|mesaj[ıi] sil"
    r"|μην το πεις σε κανέναν|μην το μοιραστείς|σβήσ[εέ] το"
    r"|никому не (?:говори(?:ть)?|рассказывай)|не делись|удали (?:потом|сообщение|после)|не пересылай"
    r"|нікому не (?:кажи|говори)|видали (?:потім|повідомлення)"
    r"|لا تشارك(?:ها|ه)?|لا تخبر أحد"
    r"|לא לשתף|אל תספר(?:י)? לאף אחד|למחוק אחרי|תמחק(?:י)? אחרי"
    r"|किसी को (?:मत|न) बता|शेयर मत कर|डिलीट कर देना|मिटा देना"
    r"|อย่าบอกใคร|ห้ามบอกใคร|อ่านแล้วลบ|อย่าแชร์"
    r"|đừng nói với ai|(?:không|đừng) chia sẻ|xem xong x[oó]a"
    r"|jangan (?:dibagi|disebar|bilang siapa|kasih tahu)|(?:habis itu|setelah itu) hapus|hapus setelah"
    r"|h?wag (?:ibahagi|sabihin)|burahin"
    r"|usimwambie mtu|usishiriki|futa (?:ujumbe|baadaye)"
    r")(?![^\W\d_])"
    r"|不要告诉别人|别告诉别人|不要告訴別人|不要分享|看完删|看完刪|阅后即焚|誰にも言わないで|共有しないで|見たら消して|消してね"
    r"|아무한테도 말하지|공유하지 마|보고 나서 지워"
)
# A value beside it: four to ten digits (a "#", a "*" or a letter may end or start them), a
# password's mix of letters with digits or symbols, or a code in groups ("PF11-I7S2-X416").
_KEPT_DIGITS = re.compile(
    r"(?<![\w./:,+-])[#*]?\d{4,10}[#*]?[A-Z]?(?![\w/:-]|[.,]\d|\s?(?:%|€|\$|£|kg|km|g\b|m\b|min|h\b|x\b))"
    r"|(?<![\w./:-])\d{1,2}-\d{1,2}-\d{1,2}(?![\w/:-]|[.,]\d)"
)
_KEPT_GROUPS = re.compile(
    r"(?<![\w-])(?:(?=[\w-]*[A-Z])[A-Z0-9]{4,5}(?:-[A-Z0-9]{1,5}){2,4}|(?=[A-Z]*\d)(?=\d*[A-Z])[A-Z0-9]{12,20})(?![\w-])"
)
_KEPT_YEAR = re.compile(r"(?:19|20)\d\d")
# What a number is when these words come right before it: money, a place, a count.
_NOT_KEPT = re.compile(
    r"(?:[$€£¥₹]|usd|eur|gbp|chf|kr|zł|zl|rs\.?|paid|cost|costs|price|for|at|on|due|address|street|st\.|flat|apt|room"
    r"|order|box|no\.|nr\.?|#|masa|番号は?|号)\s*$"
)
# ... or right after it: a count of something ("6000 visitors", "125000 units", "350 kişi").
_COUNTED = re.compile(r"\s+(?:[a-z]{3,}s|people|kişi|kisi|personas|personnes|leute|osób|osob|lidí|lidi)\b")


def kept_secret(value: Any) -> str | None:
    """The kind of a value a memory says to keep to oneself ("... 986482. Nu spune
    nimănui!", "9573 보고 나서 지워", "PlayStation 0OZ9-LH0U-4CBU, niet doorsturen!"): a
    code-shaped value or a password beside a word of secrecy, in any of the languages above.
    A year, a date, a time, an amount or a measure is not such a value, and digits count only
    where the memory names a code, a lock or a credential."""
    for text in detectors.record_texts(value):
        if not _SECRECY.search(text.lower()):
            continue
        if _KEPT_GROUPS.search(text):
            return detectors.PASSWORD
        if any(_kept_password(token.strip(_PW_TRIM)) for token in _MIXED_TOKEN.findall(text)):
            return detectors.PASSWORD
        if _kept_digits(text) and (_maybe_code(text) or _names_thing(text) or _triggered(_plain(text))):
            return detectors.PIN
    return None


# A token with a digit or a symbol among letters, eight characters or more: the only ones
# worth asking whether they are a password.
_MIXED_TOKEN = re.compile(r"(?<!\S)(?=\S*[A-Za-z])(?=\S*[\d!@#$%^&*+=?~_])\S{8,64}(?!\S)")


def _kept_digits(text: str) -> bool:
    for line in text.split("\n"):
        for m in _KEPT_DIGITS.finditer(line):
            digits = m.group().strip("#*")
            before = line[max(0, m.start() - 12) : m.start()].lower()
            if not (
                _KEPT_YEAR.fullmatch(digits.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
                or _NOT_KEPT.search(before)
                or _COUNTED.match(line.lower(), m.end())
            ):
                return True
    return False


def _kept_password(token: str) -> bool:
    """A password's mix, of eight characters or more, with two digits or a symbol: not a
    product's name ("1Password", "Windows11")."""
    return (
        len(token) >= 8
        and _passwordish(token)
        and (sum(ch.isdigit() for ch in token) >= 2 or re.search(r"[^\w-]", token) is not None)
    )


# -- a code named in one of many languages -----------------------------------------------------

# What a code opens, in the languages of the memories people keep (accents off, lower case):
# doors, gates, garages, alarms, safes, lockers, key boxes, padlocks, intercoms.
_THINGS = (
    "door|front door|gate|garage|alarm|safe|locker|key ?box|key ?safe|lockbox|padlock|intercom|storage unit|bike lock"
    "|tur|haustur|hoftor|garagentor|alarmanlage|tresor|spind|schliessfach|schlusselbox|schlusselkasten|vorhangeschloss"
    "|deur|voordeur|poort|hek|kluis|kluisje|sleutelkluisje?|sleutelkastje|hangslot"
    "|porte|portail|alarme|coffre(?:-fort)?|casier|boite a cles|cadenas|digicode|interphone"
    "|puerta|porton|garaje|alarma|caja fuerte|taquilla|casillero|caja de llaves|candado|portero"
    "|porta|portao|garagem|cofre|cacifo|caixa de chaves|cadeado"
    "|portone|cancello|allarme|cassaforte|armadietto|cassetta delle chiavi|lucchetto|citofono"
    "|garatge|caixa forta|cadenat"
    "|usa|poarta|garaj|seif\\w*|dulap\\w*|cutia cu chei|lacat|interfon"
    "|drzwi|brama|garaz\\w*|sejf\\w*|szafk\\w*|skrytk\\w* na klucze|klodk\\w*|domofon\\w*"
    "|dvere|vrata|trezor\\w*|skrin\\w*|schrank\\w* na klice|zamk\\w*"
    "|ajto|kapu|garazs|riaszto|szekreny|kulcsdoboz|lakat"
    "|garaza|sef|ormaric\\w*|kutij\\w* za kljuceve|lokot"
    "|dor|hoveddor|pengeskab\\w*|skab\\w*|nogleboks\\w*|garasje|skap\\w*|nokkelboks\\w*|dorr|larm\\w*|kassaskap\\w*"
    "|nyckelbox\\w*|nyckelskap\\w*|hanglas"
    "|ovi|portti|autotalli|halyt\\w*|kassakaappi|kaappi|avainboksi|riippulukko"
    "|kapi\\w*|dolap\\w*|anahtar kutusu|asma kilit|kasa"
    "|pintu|gerbang|garasi|brankas|loker|kotak kunci|gembok"
    "|pinto|garahe|lagayan ng susi|kandado"
    "|mlango|geti|gereji|kengele|sefu|kabati|kisanduku cha funguo|kufuli"
    "|cua|cong|nha xe|bao dong|ket sat|tu do|hop chia khoa|o khoa"
    "|двер\\w*|ворот\\w*|гараж\\w*|сигнализац\\w*|сигналізац\\w*|сейф\\w*|шкафчик\\w*|шафк\\w*|ключниц\\w*|замк\\w*|замок|домофон\\w*"
    "|πορτα\\w*|γκαραζ|συναγερμ\\w*|χρηματοκιβωτι\\w*|ντουλαπι\\w*|κλειδαρι\\w*"
    "|(?:ال)?باب|(?:ال)?بوابة|(?:ال)?كراج|(?:ال)?مرآب|(?:ال)?إنذار|(?:ال)?خزنة|(?:ال)?خزانة|صندوق المفاتيح|(?:ال)?قفل"
    "|[הלב]?(?:דלת|שער|מוסך|אזעקה|כספת|לוקר|ארונית|קופסת מפתחות|מנעול)"
    "|दरवाज़े|दरवाजे|गेट|गैरेज|अलार्म|तिजोरी|लॉकर|चाबी बॉक्स|ताला"
    # Estonian, Lithuanian, Latvian, Croatian/Serbian/Bosnian, Czech, Bulgarian/Macedonian/Serbian
    # Cyrillic, Persian ("در", a door, is also "in": only with what it is the door of)
    "|uks\\w*|varav\\w*|valvesusteem\\w*|signalisatsioon\\w*|garaaz\\w*|duru|durys|vartai|vartu|signalizacij\\w*"
    "|trepi\\w*|rappukaytav\\w*|trapphus\\w*|gadedor\\w*|laiptin\\w*|kapnu telp\\w*|zgrad\\w*"
    "|seifas|durvis|durvju|varti|ulaz(?!nic)\\w*|dver\\w*|врат(?!ар)\\w*|вход(?!ящ)\\w*|аларм\\w*|улаз(?!ниц)\\w*"
    "|دزدگیر|گاوصندوق|درب|در\u0650? ?(?:ورودی|خانه|ساختمان|حیاط|پارکینگ)"
)
_THINGS_CJK = (
    "ประตู|โรงรถ|สัญญาณกันขโมย|ตู้เซฟ|ล็อกเกอร์|กล่องกุญแจ|大门|家门|房门|门锁|车库|警报器?|保险箱|储物柜|钥匙盒|ドア|ガレージ|警報"
    "|金庫|ロッカー|キーボックス|현관문|차고|경보기|금고|사물함|키박스"
)
_CODE_WORDS = (
    "code|codes|pin|pin code|pincode|combination|combo|passcode|kombination|zahlenkombination|combinatie|combinaison"
    "|codigo|clave|combinacion|senha|combinacao|segredo|codice|combinazione|codi|combinacio|cod|codul|combinatia"
    "|combinatie|kod|kodu|szyfr|kombinacja|kombinace|kombinacia|kombinacio|sifra|kombinacija|kode|koden|kombinasjon"
    "|koodi|yhdistelma|sifre|sifresi|kombinasyon|kombinasi|sandi|msimbo|mat ma|код|комбинац\\w*|комбінац\\w*"
    "|κωδικ\\w*|συνδυασμ\\w*|(?:ال)?رمز|كود|رقم|ה?קוד|कोड|पिन"
    "|kood|koodi|kodas|kods|koda|کد|namba ya siri|nambari ya siri|msimbo wa siri"
)
# ("number" is a code only after a key box or a safe: a locker's or an order's number is not)
_CODE_CJK = "รหัส|密码|密碼|コード|暗証番号|비밀번호|코드|(?<=キーボックス)の?番号|(?<=金庫)の?番号|(?<=금고) ?번호"
_GLUED = r"(?:tur|garagentor|garage|alarm|tresor|safe|spind|dor|skab|pengeskab|nogleboks|nokkelboks|kassaskap|skap|larm|deur|kluis|poort|hek|garasje|ukse|varava|garaazi|seifi|valve|trepi)-?(?:code|kode|koden|kod|koodi|kood|koda)"
_NAMED = re.compile(
    # Vietnamese "mã" only before what it opens (Polish "ma" is "has": "Szafka ma 180 cm")
    r"(?<![^\W\d_])ma (?:tu do|tu|hop chia khoa|cua|cong|ket sat|bao dong|o khoa|nha xe|khoa)(?![^\W\d_])|"
    # Swahili "namba" (number) only as the number *of* what it opens: "namba ya kengele", not "kabati namba 4421"
    rf"(?<![^\W\d_])namba ya (?:{_THINGS})(?![^\W\d_])|"
    rf"(?<![^\W\d_])(?:(?:{_THINGS})(?:[ \t]+[^\W\d_]+){{0,3}}?[ \t]*[,:-]?[ \t]*(?:{_CODE_WORDS})"
    rf"|(?:{_CODE_WORDS})(?:[ \t]+[^\W\d_]+){{0,3}}?[ \t]+(?:[^\W\d_]{{1,4}}['’])?(?:{_THINGS})|{_GLUED})(?![^\W\d_])"
    rf"|(?:{_THINGS_CJK})[^\n\d]{{0,6}}?(?:{_CODE_CJK})|(?:{_CODE_CJK})[^\n\d]{{0,4}}?(?:{_THINGS_CJK})"
)
# The value right after its name: past a place in brackets, a separator or "is" in a few
# languages, then a code (three to ten digits, "#" or "*" or one letter or a tick beside them,
# or a combination "08-25-41").
_NAMED_SEP = r"(?:[:=→>\-–—]+|[ \t](?:is|ist|er|es|est|on|je|e|este|ni|ay|adalah|la|ja|har|yra|ir|е|є)[ \t])"
_NAMED_VALUE = re.compile(
    rf"(?:[ \t]*\([^()\n]{{0,30}}\))?(?:[ \t]*{_NAMED_SEP}?|(?:[ \t]+[^\W\d_]+(?:['’][^\W\d_]+)?){{1,4}}?[ \t]*[:=→>\-–—]+)[ \t]*"
    r"(?P<val>[#*]?\d{3,10}[#*]?[A-Za-z✓]?|[a-z]\d{4,6}#?|\d{1,2}-\d{1,2}-\d{1,2})(?![\w/:.,-]\d|[\w/])"
    r"(?!\s?(?:%|€|\$|£|zł|zl|kr|kg|km|cm|mm|m2|m²|m\b|l\b|litr\w*|liter\w*|g\b|min\b|h\b|lei|lira|tl\b))"
)


# ... and, for the named reader, a product's, a model's, a part's or a postal code in more languages
_NOT_CODE_IN = re.compile(
    rf"(?<![^\W\d_])(?:{_NOT_A_CODE_WORDS}|produkt\w*|produs\w*|produit|producto|produto|prodotto|model\w*|pos|postal\w*"
    r"|part|parts|ersatzteil\w*|katalog\w*|catalog\w*|artikel\w*|article|sku|ean|serial|serie|seri|order|bestell\w*"
    r"|ticket|support|ral|colou?r|kolor\w*|farb\w*)(?![^\W\d_])"
)


# A quick test before _NAMED: one of its code words (or a part of one) is in the text.
_CODE_PARTS = (
    "cod", "kod", "kood", "pin ", "pin:", "pin-", "pin.", "pin,", "pincode", "pin)", "comb", "kombin", "senha", "clave", "segredo", "sifr", "szyfr", "namba", "msimbo",
    "sandi", "yhdistelm", "mật mã", "код", "комбин", "комбін", "κωδικ", "συνδυασμ", "رمز", "كود", "رقم", "קוד", "कोड", "पिन",
    "รหัส", "密码", "密碼", "コード", "番号", "暗証", "비밀번호", "코드", "번호",
    # as written, before the accents come off
    "cód", "kód", "şifr", "šifr", "mã", "combinaç", "combinaţ", "combinaț", "κωδ", "کد",
)  # fmt: skip


def _maybe_code(text: str) -> bool:
    low = text.lower()
    return any(part in low for part in _CODE_PARTS)


def _named_value(low: str) -> bool:
    """(Callers test ``_maybe_code`` on the text as written first.)"""
    for m in _NAMED.finditer(low):
        v = _NAMED_VALUE.match(low, m.end())
        if v is None or _KEPT_YEAR.fullmatch(v.group("val")):
            continue
        around = low[m.start() : v.end() + 30].split("\n", 1)[0]
        if not _NOT_CODE_IN.search(around):  # "error code 3012", "kod produktu: 3021", "kode 4521 i IKEA-kataloget"
            return True
    return False


def named_code(value: Any, labels: Iterable[str] = ()) -> str | None:
    """A code named in one of the languages above and given right after its name ("namba ya
    kengele (stoo): 893188", "Garagentor-Code = 533503", {"mã tủ đồ": "3221"}). Dates,
    times and years are not codes."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            pair = f"{k}: {v}" if isinstance(k, str) and isinstance(v, (str, int)) and not isinstance(v, bool) else ""
            if pair and _maybe_code(pair) and _named_value(_unaccented(pair).translate(_UNDECOMPOSED).lower()):
                return PIN
    for text in detectors.record_texts(value) if not isinstance(value, Mapping) else detectors.record_texts(
        [v for v in value.values() if not isinstance(v, str)]  # (its strings were read with their names)
    ):
        if _maybe_code(text) and _named_value(_unaccented(text).translate(_UNDECOMPOSED).lower()):
            return PIN
    return None


# Notes people jot: a credential's name on a line of its own and the value alone on the next
# ("NAS admin password\nWehateParis340?", "modem admin login\ninjury-stairs-fresh-40"), a
# device's login with its value after it ("modem admin login Snowboardlighthouse1965"), or
# the value first and its name after ("893459 is the phone passcode", "8276 then # -> lockbox
# code", "bacalhau0770 = Hulu login", "<64 hex> is the private key for the old eth wallet").
_PW_NAMES = r"password|passwd|passphrase|pwd|pw|login|lgoin|community string"
_NAME_LINE = re.compile(rf"(?:[^\n\d:=]{{0,40}}\s)?(?:{_PW_NAMES})\b[^\n\d:=]{{0,50}}")
_DEVICE_LOGIN = re.compile(
    r"(?<!\w)(?:admin|router|modem|nas|wi-?fi|network|nvr|camera|printer)\s+(?:login|password|pass|pw)"
    r"\s+(?P<val>\S{6,64})\s*$"
)
_VALUE_FIRST = re.compile(
    r"(?:^|(?<=[\s:>]))(?P<val>[^\s:=<>←]{3,80})\s*(?:then\s+[#*]\s*)?"
    r"(?:=|->|→|←|<-|\bis\s+(?:the|my|our)\b|\bis\s+for\s+(?:the|my|our)\b"
    r"|(?:[—–-]\s*|\(\s*)(?:that'?s|that is|this is|it'?s)\s+(?:the|my|our)\b)\s*"
    r"(?P<what>(?:[\w.&'’-]+\s+){0,4}?)(?P<name>passcode|pin|puk|code|combo|combination|login|lgoin|password|passwd"
    r"|private key)\b"
)
_CODE_OWNERS = re.compile(
    r"phone|tablet|ipad|iphone|laptop|lock ?box|key ?box|key ?safe|keypad|door|gate|garage|alarm|safe|locker"
    r"|padlock|bike|sim|voicemail|bank|card|debit|atm|building|entry|unlock|storage|shed|mailbox|intercom"
)


# What every note above names (or a slip of it): texts without any are not read.
_NOTED_HINT = re.compile(r"(?i)p\w?a\w?s|pwd|pw\b|l\w?o\w?g\w?in|lgoin|pin|puk|code|combo|combination|private key|community")


def _credential_value(value: str) -> bool:
    """A value that reads as a password a person chose or a generator made."""
    v = value.strip(".,;:!?()[]\"'`")
    return (
        (detectors._passwordish(v) and _DIGIT.search(v) is not None and not detectors._is_wordy(v))
        or (passphrase(v.lower()) and v.lower() == v and (_DIGIT.search(v) is not None or v.count("-") >= 3))
        or re.fullmatch(r"[a-z]{3,10}(?:-[a-z]{3,10}){2,5}-\d{1,4}", v) is not None  # "injury-stairs-fresh-40"
        or detectors._random_letters(v)
        or detectors._looks_random(v, 14)
    )


def noted_secret(value: Any) -> str | None:
    """The kind of a credential jotted as a note (see above)."""
    for text in detectors.record_texts(value):
        if len(text) > 2000 or not _NOTED_HINT.search(text):
            continue
        lines = [line.strip(" \t*•-") for line in text.splitlines()]
        for i, line in enumerate(lines):
            low = respelled(_plain(line))
            if len(low) != len(line):
                continue  # offsets must agree to read the value as written
            nxt = next((x for x in lines[i + 1 :] if x), "")
            words = [w for w in nxt.split() if any(c.isalnum() for c in w)]  # (an emoji after it aside)
            nxt = words[0] if len(words) == 1 else ""
            if (
                nxt
                and "," not in low + nxt  # not a table's header and row
                and _NAME_LINE.fullmatch(low)
                and not _NEGATED.search(low)
                and _credential_value(nxt)
            ):
                return PASSWORD
            if (m := _DEVICE_LOGIN.search(low)) and _credential_value(line[m.start("val") : m.end("val")]):
                return PASSWORD
            spelled = _with_digits(low)  # '"deux six sept zéro" — that's the keybox code'
            for m in [*_VALUE_FIRST.finditer(low), *(_VALUE_FIRST.finditer(spelled) if spelled != low else ())]:
                if m.string[: m.start()].rstrip()[-1:].isalnum():
                    continue  # the value starts its clause ("save this: 8276 ..."): not "Flight 4412 -> gate"
                val = (line if m.string is low else m.string)[m.start("val") : m.end("val")].strip("*#\"'“”«»")
                name = m.group("name")
                if name == "private key":
                    if re.fullmatch(r"(?:0x)?[0-9a-fA-F]{64}", val):
                        return detectors.CRYPTO_KEY
                elif name in ("login", "lgoin", "password", "passwd"):
                    if _credential_value(val):
                        return PASSWORD
                elif re.fullmatch(r"\d{4,10}", val) and (name != "code" or _CODE_OWNERS.search(m.group("what"))):
                    return PIN
    return None


def names_code(text: str) -> bool:
    """Whether a message names a code in one of the languages above ("Kan du sende
    skabskode?", "ما هو رمز الكراج؟"), for the chat reader to find its value in a reply."""
    if not _maybe_code(text):
        return False
    return _NAMED.search(_unaccented(text).translate(_UNDECOMPOSED).lower()) is not None


# A dial safe's combination, turns right and left in turn ("R22 L48 R47", "L 12 - R 30 - L 5"),
# where the memory names a safe, a lock or a code (in any of the languages above): not a rally's
# pace notes, a physio's reps or a hearing test ("R10 L10 R10", "R 20 L 25 R 20 dB").
_DIAL = re.compile(
    r"(?<![\w-])([RL]) ?(\d{1,2})(?:[ ,/]|\s*-\s*)+([RL]) ?(\d{1,2})(?:[ ,/]|\s*-\s*)+([RL]) ?(\d{1,2})"
    r"(?!\w|\.\w|\s?(?:db|mm|cm|kg|%|°|mmhg|reps|x\b))"  # a full stop may end the sentence
)
_DIAL_HINT = re.compile(r"[RL] ?\d")
_TURN_PARTS = ("ight", "eft", "echts", "inks", "roite", "auche", "erecha", "zquierda", "estra")  # of _TURN's words
# The same turns written out: "right 84, left 34, right 69", "rechts 12 - links 40 - rechts 7".
_TURN = r"(right|left|rechts|links|droite|gauche|derecha|izquierda|destra|sinistra)"
_DIAL_WORDS = re.compile(
    rf"(?i)(?<![\w-])(?<!turn )(?<!go )(?<!then )"
    rf"{_TURN} ?(\d{{1,2}})(?:[ ,;/]|\s*-\s*)+{_TURN} ?(\d{{1,2}})(?:[ ,;/]|\s*-\s*)+{_TURN} ?(\d{{1,2}})"
    r"(?!\w|\.\d|\s?(?:db|mm|cm|kg|%|°|mmhg|reps|x\b|times|blocks?|streets?|km|miles?|m\b|exits?|steps?))"
)
_RIGHT = frozenset({"right", "rechts", "droite", "derecha", "destra"})
_DIAL_THINGS = re.compile(
    r"(?i)safe|dial|lock|combination|combo|tresor|sejf|cofre|coffre|cassaforte|caja fuerte|caixa forta|brankas|kasa"
    r"|seif|trezor|kassaskap|pengeskab|kluis|χρηματοκιβ|сейф|خزنة|כספת|तिजोरी|ตู้เซฟ|金庫|保险箱|금고"
)


# turns written out count where a safe or a lock is named just before them and nothing is counted after
_DIAL_NAMED_BEFORE = re.compile(
    r"(?i)(?:safe|lock|padlock|combination|combo|dial|tresor|sejf|kluis|coffre|caja fuerte|cassaforte|locker)"
    r"(?:\s+\w+){0,4}\s*[:=\-–—]\s*$"
)
_DIAL_ENDS = re.compile(r"\s*(?:[.;,)!]|$|\n|\s+(?:and|then|to open|und|et|y)\b)")


def _named_dial(text: str, m: re.Match[str]) -> bool:
    return bool(_DIAL_NAMED_BEFORE.search(text[max(0, m.start() - 40) : m.start()])) and bool(_DIAL_ENDS.match(text, m.end()))


def dial_combination(value: Any) -> str | None:
    """The kind of a dial safe's combination in a memory that names a safe, a lock or a code."""
    texts = [
        t
        for t in detectors.record_texts(value)
        if _DIAL_HINT.search(t) or (any(part in t for part in _TURN_PARTS) and _DIAL_WORDS.search(t) is not None)
    ]
    if not texts:
        return None
    if isinstance(value, Mapping):  # {"Tresor-Kombination": "R22 L48 R47"}
        texts += [f"{k}: {v}" for k, v in value.items() if isinstance(k, str) and isinstance(v, str)]
    for text in texts:
        if _DIAL_THINGS.search(text) or _maybe_code(text) or _DIAL_THINGS.search(respelled(_plain(text))):
            for m in [*_DIAL.finditer(text), *_DIAL_WORDS.finditer(text)]:
                if m.re is _DIAL_WORDS and not _named_dial(text, m):
                    continue  # "Salsa combo: right 8, left 6, right 4 counts": a routine's turns
                values = (m.group(2), m.group(4), m.group(6))
                turns = [m.group(i).lower() in _RIGHT or m.group(i) == "R" for i in (1, 3, 5)]
                if turns[0] != turns[1] != turns[2] and len(set(values)) > 1:
                    return PIN
    return None


def code_sheet(value: Any) -> str | None:
    """A sheet of backup codes (see ``detectors.code_sheet_in``) where the record names backup
    codes anywhere: in a field's name, or in the message before the one that gives them."""
    texts = list(detectors.record_texts(value))
    if not any(detectors._SHEET_CODE.search(t) for t in texts):
        return None
    if isinstance(value, Mapping):
        texts += [str(k) for k in value if isinstance(k, str)]
    whole = "\n".join(texts)
    if not detectors.sheet_cued(whole):
        return None
    return detectors.TWO_FACTOR if any(detectors.code_sheet_in(t, cued=True) for t in texts) else None


_THING = re.compile(rf"(?<![^\W\d_])(?:{_THINGS})(?![^\W\d_])|{_THINGS_CJK}")


def _names_thing(text: str) -> bool:
    """Whether a text names something a code opens (a locker, a safe...), in any of the languages above."""
    return _THING.search(_unaccented(text).translate(_UNDECOMPOSED).lower()) is not None
