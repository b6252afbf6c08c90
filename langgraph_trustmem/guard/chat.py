"""A memory that is a conversation: one message asks for a credential, the reply is it.

People keep chats as memories ("Ana: what's the door code?", "Ben: 4821"), and a reply that
is only the value carries no cue of its own: the question names it. Read message by message,
neither line is a secret; read as a conversation, the pair is one. This module finds the
conversations in a memory (a list of ``"Name: text"`` strings or chat-export lines, or of
records with a speaker and a text, at the top or inside a record: ``{"chat": [...]}``) and
asks:

* for a message that names a credential (a password, a code that opens something, a
  service's key), whether one of the first two replies is its value and filler words alone
  ("it's 3134", "563, никому не говори", "Mango!1955이야");
* whether the value arrives cut into pieces: single-token messages ("sending it in bits",
  "MTG$", "sunflow", "er047$"), labelled ones ("first part is ...", "next bit: ..."), or a
  card number one speaker gives over several messages.

Replies with other words ("ask the concierge, room 104"), requests that are talk (changing
a code, its policy, when or which model) and codes that open nothing (HS, bus, postal
codes) pass; so do lists of "Item: ... / Qty: ..." fields, which are records, not chats.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from langgraph_trustmem.guard import cues, detectors
from langgraph_trustmem.guard.bip39 import BIP39_WORDS
from langgraph_trustmem.guard.cues import (
    _CODE_NAMES,
    _DIGIT,
    _NOT_A_CODE,
    _OTP_CUE,
    _passwordish,
    _plain,
    _unaccented,
    _with_digits,
    names_password,
)
from langgraph_trustmem.guard.detectors import ONE_TIME_CODE, PASSWORD, PIN
from langgraph_trustmem.guard.fields import passphrase

__all__ = ["answered_secret", "joined_pieces", "messages"]

_MAX_MESSAGES = 60  # a longer list is a log or data, not a chat kept as a memory
_REPLY_WINDOW = 12  # messages read after a request for its reply
# "Jae-won: 2724", "user: ...": a speaker of one to three words before a colon.
# (a chat export's date and time may come first: "12/03/2024, 09:14 - Kim: ...", "[09:50] Emre: ...")
_SPEAKER = re.compile(
    r"^\s*(?:\[?\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}:\d{2}(?::\d{2})?\]?\s*[-–]?\s*"
    r"|\[\d{1,2}:\d{2}(?::\d{2})?\]\s*)?"
    r"([^\W\d_][\w.'’-]{0,19}(?: [^\W\d_][\w.'’-]{0,19}){0,2}):\s*(\S.*)$",
    re.S,
)
_SPEAKER_KEYS = ("from", "sender", "speaker", "author", "role", "name", "user", "who")
_TEXT_KEYS = ("text", "content", "message", "msg", "body")

# What names a lock's, a card's or a one-time code in a request, beyond the cue lexicon:
# a combination ("szyfr do zapięcia roweru"), a code word in the languages the cues read,
# and a locker's or a padlock's number ("사물함 번호", "密码锁的号码").
_CODE_WORD = re.compile(
    r"(?<![^\W\d_])(?:szyfr|combo|combination|combinacao|combinacion|combinazione|combinaison|kombination|pin"
    r"|pin-?code|pincode|passcode)(?![^\W\d_])"
    r"|(?:kapi\w*|kilit)\s+(?:kodu|sifresi)|(?:사물함|자물쇠|금고|도어락|현관문?|ロッカー|金庫)\s*(?:번호|番号)"
    # a code that came by text message, asked for
    r"|(?<![^\W\d_])(?:cod|code|codigo|codice|kod|kode|koden|koodi|код|κωδικ\w*|ה?קוד)\s+(?:\w+\s+)?"
    r"(?:pe|per|par|por|via|p[oо]|z|з|из|με|μεσω|ב-?|in der|en|i|na)\s*(?:sms|smsu|смс|whatsapp|text)(?![^\W\d_])"
    r"|(?<![^\W\d_])(?:ה?קוד אימות|sms-?(?:code|kod\w*|koodi)|code (?:they|he|she|it|you) (?:just )?(?:texted|sent)"
    # a caller who sent the code asks for it back ("I sent you a code, can you read it to me?")
    r"|(?:sent|texted|messaged|emailed) you (?:a|the) (?:\w+ )?code|(?:i|we) (?:just )?(?:sent|texted) (?:a|the) code)"
    r"|验证码|驗證碼|認証コード|確認コード|인증번호"
)
# Words that carry a reply on past the value it gives first ("4471 then press enter").
_GOES_ON = frozenset({"then", "and", "plus", "followed", "+", "&", "und", "dann", "et", "puis", "y", "luego", "e", "poi", "i"})
# A postal code, a city's or a region's dialling code: public numbers.
_POSTAL = re.compile(
    r"(?<![^\W\d_])(?:zip|postal|postcode|post code|postleitzahl|plz|code postal|codigo postal|codice postale|cap"
    r"|posta kodu|kod pocztowy|postnummer|postnumret|индекс|код города|код региона|insee|ateco|naics|hs)"
    r"(?![^\W\d_])|पिन कोड|পিন কোড|الرمز البريدي|邮编|郵便番号|우편번호"
)
# Talk about a credential the request is part of (changing it, its policy), where a number
# that follows is a day, a time or a count.
_TALK = re.compile(
    r"(?<![^\W\d_])(?:change|changed|reset|rotate|update|expire[sd]?|blocked|lost|policy|rules|must|should|hint"
    r"|stickers?|workshop|review|process|rollout|flyer|instructions|model|modelo|modell|version|serial|firmware)"
    r"(?![^\W\d_])"
)
# A service's credential asked for: its value must look machine-made.
_TOKEN_WORD = re.compile(
    r"(?<![^\W\d_])(?:api[ -]?key|key|token|secret|credentials?|access key|client secret|pat|webhook)(?![^\W\d_])"
)
# A question about a credential that a number answers without giving it: when it changed,
# how long it is, how many tries are left.
_ABOUT = re.compile(
    r"(?<![^\W\d_])(?:when|what year|which year|since when|how (?:long|many|often|old|much)|how many digits"
    r"|expires?|expiry|valid until|what time|which time|wann|um wie viel uhr|quand|a quelle heure|cuando|a que hora"
    r"|quando|a che ora|kiedy|o ktorej|когда|во сколько|ne zaman|saat kacta)(?![^\W\d_])"
    r"|何時|几点|幾點|몇 시|언제|متى"
)
# Words a reply may hold besides the value: "it's 3134", "563, никому не говори",
# "829798 - don't share it", "c'est 890", "é 158785", "same as before: ...", "328288 tabii".
_FILLER = frozenset(
    """
    it's its it is ist es est c'est e é è er är to here hier aqui voici voila sure ok okay yes ja si sí oui tak da
    evet tabii same as before new one now jetzt ahora maintenant agora teraz don't dont do not share tell anyone it
    never nobody pls please keep secret just only mine this that's thats yourself between us you me for
    não contes a ninguém no se lo digas nadie ne le dis à personne sag niemandem non dirlo nessuno nie mów nikomu
    kimseye söyleme теперь никому не говори это هو هي 是 就是 です だよ よ 이야 야 입니다 예요 이에요 ㅇㅇ ㅋㅋ ㅎㅎ
    says then press off enter כן
    """.split()
)
# Labels of fields, not speakers: a list of "Item: ..." / "Qty: ..." lines is a record.
_FIELD_LABELS = frozenset(
    """
    item items qty quantity price cost total amount meeting room ticket branch status note notes seats shopping aisle
    subject time date day location place name email phone address title type kind id ref order due owner tags
    category priority source url link code pin password key token value when where what who topic agenda
    件名 部屋 時間 主题 房间 时间 地点 日期 제목 시간 장소
    """.split()
)
# Where a script without spaces meets a value: "4-13-32이야", "hotaru-Falcon-75だよ", "是8124".
_SCRIPT_EDGE = re.compile(
    r"(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[!-~])|(?<=[!-~])(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)
_TRIM = ".,;:!?()[]{}<>'\"`«»“”‘’"
# "232170B", not "221B" (a house); "G-307087"; a keypad's letter first: "C4360"
_CODE = re.compile(r"[#*]?\d{3,10}[#*]?|\d{4,10}[A-Za-z]|[A-Z]-\d{4,8}|[A-Da-d]\d{4,6}|\d{3}-\d{3}")
_COMBO = re.compile(r"\d{1,2}-\d{1,2}-\d{1,2}")
_YEAR = re.compile(r"(?:19|20)\d\d")
_ASIDE = re.compile(r"\([^()\n]{0,60}\)")  # a reply's aside: "(I changed it last week)"
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")  # "don't", "c'est", "sağ"
_HALVES = re.compile(r"(?<=\b\d{3}) (?=\d{3}\b)")
_PICTOGRAPHS = re.compile(r"[\u2190-\u2bff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+")


def messages(value: Any) -> list[tuple[str | None, str]] | None:
    """The (speaker, text) messages of a conversation, or None when ``value`` is not one:
    a list of two or more ``"Name: text"`` strings (most of them with a speaker), or of
    records each holding a text field."""
    if not isinstance(value, (list, tuple)) or not 2 <= len(value) <= _MAX_MESSAGES:
        return None
    out: list[tuple[str | None, str]] = []
    spoken = 0
    for item in value:
        if isinstance(item, Mapping):
            text = next((item[k] for k in _TEXT_KEYS if isinstance(item.get(k), str)), None)
            parts = item.get("parts")
            if text is None and isinstance(parts, list):  # {"role": ..., "parts": [{"text": ...}]}
                said = [p["text"] for p in parts if isinstance(p, Mapping) and isinstance(p.get("text"), str)]
                text = " ".join(said) if said else None
            if text is None:
                return None
            who = next((item[k] for k in _SPEAKER_KEYS if isinstance(item.get(k), str)), None)
            out.append((who, text))
            spoken += who is not None
        elif isinstance(item, str):
            m = _SPEAKER.match(item)
            out.append((m.group(1), m.group(2)) if m else (None, item))
            spoken += m is not None
        else:
            return None
    if spoken * 2 <= len(out):
        return None
    if any(who is not None and who.strip().lower() in _FIELD_LABELS for who, _ in out):
        return None  # "Item: door code stickers" / "Qty: 150": a record's fields
    return out


def answered_secret(value: Any) -> str | None:
    """The kind of a credential a message of a conversation in ``value`` (the value itself,
    or a list anywhere inside it: ``{"chat": [...]}``) asks for or names, when a reply right
    after it gives it, or of a card number one speaker gives in pieces."""
    for msgs in _conversations(value, 0):
        kind = _conversation_kind(msgs)
        if kind:
            return kind
    return None


def _conversations(value: Any, depth: int) -> Iterator[list[tuple[str | None, str]]]:
    if depth > 8:
        return
    if isinstance(value, str):  # a chat kept as text, one message a line ("[09:50] Emre: ...")
        value = [line for line in value.split("\n") if line.strip()] if "\n" in value else ()
    msgs = messages(value)
    if msgs is not None:
        yield msgs
        return
    children = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else ()
    for child in list(children)[:_MAX_MESSAGES]:
        if isinstance(child, (Mapping, list, tuple)) or (isinstance(child, str) and "\n" in child):
            yield from _conversations(child, depth + 1)


def _conversation_kind(msgs: list[tuple[str | None, str]]) -> str | None:
    if _card_in_pieces(msgs):
        return detectors.CREDIT_CARD
    if _phrase_in_pieces(msgs):
        return detectors.RECOVERY_PHRASE
    if kind := _named_after(msgs):
        return kind
    if kind := _labelled_pieces(msgs):
        return kind
    if kind := _gift_in_reply(msgs):
        return kind
    for i, (_, text) in enumerate(msgs[:-1]):
        low = _plain(text).replace("_", " ")
        if _ABOUT.search(low) or _TALK.search(low) or _POSTAL.search(low):
            continue
        password = names_password(low)
        code: str | None = None
        if any(
            not _NOT_A_CODE.search(low[max(0, m.start() - 16) : m.start()])
            for cue in (_CODE_NAMES, _CODE_WORD)
            for m in cue.finditer(low)
        ) or cues.names_code(text):  # a code that opens something ("door code"), not a "zip code" or an "error code"
            code = ONE_TIME_CODE if _OTP_CUE.search(low) else PIN
        token = _TOKEN_WORD.search(low) is not None and not detectors.not_secret_context(low)
        if not (password or code or token):
            continue
        kind = _reply_kind(msgs[i + 1 : i + 1 + _REPLY_WINDOW], password, code, token)
        if kind:
            return kind
    return None


def _gift_in_reply(msgs: list[tuple[str | None, str]]) -> str | None:
    """A gift card named in one message and its claim code in a reply ("got you a Steam card"
    / "code: 7AQTL-BJYPM-EG9H8"): read as one line."""
    for i, (_, text) in enumerate(msgs[:-1]):
        if not detectors._has(text.lower(), detectors._GIFT_HINTS):
            continue
        for _, reply in msgs[i + 1 : i + 3]:
            line = f"{text} {reply}".replace("\n", " ")
            if detectors.gift_card_code(line, line.lower()):
                return detectors.GIFT_CARD
    return None


# A value handed over first, to be kept ("save this: T3$0r054%"), and what it is said later
# by the same speaker ("oh, that's the Mac login password").
_KEEP_THIS = re.compile(
    r"(?i)^\s*(?:(?:please|pls|plz)\s+)?(?:save|keep|remember|store|note|write down|hold on to)"
    r"(?:\s+(?:this|that|it)(?:\s+one)?)?(?:\s+(?:for me|please|pls))?\s*[:\-–—]\s*(?P<val>\S{4,100})\s*$"
)
# What the value is, said of it alone: "oh, that's the iCloud password", "it's my bank PIN".
_SAID_OF_IT = re.compile(
    r"(?i)^\s*(?:(?:oh|ah|ok|so),?\s+)?(?:that'?s|it'?s|this is|it is|that is|that was)\s+(?:for\s+)?"
    r"(?:(?:the|my|our|your)\s+)?(?P<what>[^.,;!?]{2,60}?)\s*[.!]?\s*$"
)
_OTHER_THING = re.compile(
    r"(?i)\b(?:number|room|order|album|licen[cs]e|name|date|address|ticket|booking|invoice|id|i use|different)\b"
)


def _named_after(msgs: list[tuple[str | None, str]]) -> str | None:
    for i, (who, text) in enumerate(msgs[:-1]):
        m = _KEEP_THIS.match(text)
        if not m:
            continue
        value = m.group("val").strip(_TRIM)
        for later_who, later in msgs[i + 1 : i + 4]:
            if later_who != who:
                continue
            said = _SAID_OF_IT.match(later)
            if said is None or _OTHER_THING.search(said.group("what")):
                continue
            low = _plain(said.group("what")).replace("_", " ")
            if _ABOUT.search(low) or _TALK.search(low):
                continue
            password = names_password(low)
            code = PIN if any(True for cue in (_CODE_NAMES, _CODE_WORD) for _ in cue.finditer(low)) else None
            token = _TOKEN_WORD.search(low) is not None and not detectors.not_secret_context(low)
            if password or code or token:
                return _value_kind(value, password, code, token)
    return None


# A card named in the conversation, its number given over several messages ("meine
# Kartendaten: fängt an mit 37550060" / "dann 90812..." / "und ...").
_CARD_WORD = re.compile(
    r"card|karte|tarjeta|carte|cartao|kaart|carta|kort|visa|mastercard|amex|maestro|jcb|unionpay|discover"
)
_DIGIT_RUN = re.compile(r"(?<![\d.,:/-])\d{4,8}(?![\d.,:/-]\d)")


def _card_in_pieces(msgs: list[tuple[str | None, str]]) -> bool:
    """One speaker's runs of digits, in order, that join into a Luhn- and issuer-checked
    card number, in a conversation that names a card."""
    if not any(_CARD_WORD.search(_plain(text)) for _, text in msgs):
        return False
    runs: dict[str | None, list[str]] = {}
    for who, text in msgs:
        runs.setdefault(who, []).extend(_DIGIT_RUN.findall(text))
    for said in runs.values():
        for i in range(len(said)):
            joined = ""
            for run in said[i : i + 5]:
                joined += run
                if len(joined) > 19:
                    break
                if len(joined) >= 13 and detectors.card_spans(joined) == [(0, len(joined))]:
                    return True
    return False


_PHRASE_CUE = re.compile(r"(?i)\b(?:wallet|seed|recovery|mnemonic)\s+(?:phrase|words?)\b|\bwallet\b")
_WORD_GAME = re.compile(r"(?i)game|crossword|pictionary|spelling|quiz|bingo|codenames|scrabble")
_PHRASE_TAIL = re.compile(r"(?:^|[:\-—–]\s*)((?:[a-z]{3,8}[ ,]+){2,23}[a-z]{3,8})[.!]?\s*$")


def _phrase_in_pieces(msgs: list[tuple[str | None, str]]) -> bool:
    """A wallet's recovery words one speaker gives over several messages ("first half of my
    wallet words: ...", "and the rest: ..."): twelve words of the BIP-39 list or more,
    joined, where a message names them."""
    if not any(_PHRASE_CUE.search(text) for _, text in msgs) or any(_WORD_GAME.search(text) for _, text in msgs):
        return False
    by_speaker: dict[str | None, list[str]] = {}
    for who, text in msgs:
        m = _PHRASE_TAIL.search(text.strip().lower())
        if m is None:
            continue
        words = re.split(r"[ ,]+", m.group(1))
        if sum(w in BIP39_WORDS for w in words) >= len(words) - 1 >= 2:
            by_speaker.setdefault(who, []).extend(w for w in words if w in BIP39_WORDS)
    return any(len(words) >= 12 and detectors.recovery_phrase(words, cued=True) for words in by_speaker.values())


# A value given in labelled pieces, one a message: "first part is tgp_v1_qF0g68" / "next
# bit: wUYJjf_wLDA" / "and the end is edLtt6aDjeg8...".
_PIECE_WORD = re.compile(
    r"(?<![^\W\d_])(?:part|parts|bit|bits|piece|pieces|chunk|half|next|then|rest|end|first|second|third|last|dann"
    r"|danach|luego|despues|ensuite|puis|poi|depois|potem|sonra|затем|потом)(?![^\W\d_])"
)
_PIECE_VALUE = re.compile(r"(?<![\w-])[A-Za-z0-9_\-+/=.$!@#%*?&]{2,}(?![\w-])")


def _pieces(msgs: list[tuple[str | None, str]]) -> list[str]:
    """Each speaker's labelled pieces, joined in order (two or more)."""
    pieces: dict[str | None, list[str]] = {}
    for who, text in msgs:
        if _PIECE_WORD.search(_plain(text)):
            found = [v for v in _PIECE_VALUE.findall(text) if not _WORD.fullmatch(v)]
            if len(found) == 1:
                pieces.setdefault(who, []).append(found[0].rstrip(".,;:!?"))
    return ["".join(said) for said in pieces.values() if len(said) >= 2]


def joined_pieces(value: Any) -> list[str]:
    """The values the conversations in ``value`` give in labelled pieces, joined, for the
    token scans to read ("first part is rdme_855e..." / "next bit: 66" / "the end is ...")."""
    return [joined for msgs in _conversations(value, 0) for joined in _pieces(msgs)]


def _labelled_pieces(msgs: list[tuple[str | None, str]]) -> str | None:
    """A credential named in the conversation and one speaker's labelled pieces that join
    into a value of its shape."""
    named = [_plain(text) for _, text in msgs]
    password = any(names_password(low) for low in named)
    token = any(_TOKEN_WORD.search(low.replace("_", " ")) for low in named)
    if not (password or token):
        return None
    for joined in _pieces(msgs):
        if token and detectors._looks_random(joined, 20) and detectors.generated(joined):
            return detectors.GENERIC
        if password and _passwordish(joined):
            return PASSWORD
    return None


_TRANSLATE_SPACE = str.maketrans({"・": " ", "、": " "})


def _reply_kind(
    replies: list[tuple[str | None, str]], password: bool, code: str | None, token: bool
) -> str | None:
    """The kind of the value the replies to a request give: one of the first two replies,
    the value and filler words alone; or single-token messages that join into one."""
    pieces: list[str] = []
    for n, (_, text) in enumerate(replies):
        if code and not _DIGIT.search(text):  # "nine two four two", "eins-drei-zwei-null": digits spelled
            spelled = _with_digits(_unaccented(text.lower()).translate(_TRANSLATE_SPACE))
            if spelled != text.lower():
                text = spelled
        text = _ASIDE.sub(" ", text)  # "SVF$zephyr835. (I changed it last week)"
        text = _HALVES.sub("", text)  # "it's 585 659": a code shown in two halves
        words = [w.strip(_TRIM) for w in _SCRIPT_EDGE.sub(" ", text).split()]
        words = [w for w in words if w.strip("-–—") and not _PICTOGRAPHS.fullmatch(w)]  # "😉", "🙏"
        values = [w for w in words if not _WORD.fullmatch(w)]
        if len(words) == 1 and len(values) == 1:
            pieces.append(values[0])
        # the answer is one of the first two replies, the value and filler words only
        if n < 2 and len(values) == 1 and all(w.lower() in _FILLER for w in words if w is not values[0]):
            kind = _value_kind(values[0], password, code, token)
            if kind:
                return kind
        # the value first, then what to do with it: "9674 then press the up arrow"
        if n < 2 and len(values) == 1 and len(words) >= 2 and words[0] is values[0] and words[1].lower() in _GOES_ON:
            kind = _value_kind(values[0], password, code, token)
            if kind:
                return kind
    if len(pieces) >= 2:
        return _value_kind("".join(pieces), password, None, token)
    return None


def _value_kind(value: str, password: bool, code: str | None, token: bool) -> str | None:
    """The kind ``value`` is, given what the request named."""
    if (code or password) and (_CODE.fullmatch(value) or _COMBO.fullmatch(value)):
        digits = re.sub(r"\D", "", value)
        if len(digits) >= (3 if code else 4) and not (len(digits) >= 9 and digits[0] in "0+"):
            if code or not _YEAR.fullmatch(digits):
                return code or PIN
    if password and (
        _passwordish(value)
        or passphrase(value.lower().replace("_", " "))  # "network_holiday_pen_address"
        or (value.isdigit() and 8 <= len(value) <= 64 and value[0] not in "0+")  # a router's long number
    ):
        return PASSWORD
    if token and detectors._looks_random(value, 16) and detectors.generated(value):
        return detectors.GENERIC
    return None

