"""A memory that is a conversation: one message asks for a credential, the reply is it.

People keep chats as memories ("Ana: what's the door code?", "Ben: 4821"), and a reply that
is only the value carries no cue of its own: the question names it. Read message by message,
neither line is a secret; read as a conversation, the pair is one. This module finds the
messages of a conversation (a list of ``"Name: text"`` strings, or of records with a speaker
and a text field), and asks, for a message that names a credential, whether a reply after
it holds a value of that credential's shape and little else ("it's 3134", "563, never tell
anyone", "Mango!1955이야"), or holds it cut into single-token messages ("sending it in
bits", "MTG$", "sunflow", "er047$").

The reply must be short and hold exactly one value-shaped token, so talk about credentials
("it's on the fridge", "ask Tom") and replies to other questions (a time, a platform, a
dish) pass.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from langgraph_trustmem.guard import detectors
from langgraph_trustmem.guard.cues import _CODE_NAMES, _NOT_A_CODE, _OTP_CUE, _passwordish, _plain
from langgraph_trustmem.guard.detectors import ONE_TIME_CODE, PASSWORD, PIN

__all__ = ["answered_secret", "messages"]

_MAX_MESSAGES = 60  # a longer list is a log or data, not a chat kept as a memory
_REPLY_WINDOW = 12  # messages read after a request for its reply
_MAX_REPLY_WORDS = 7
# "Jae-won: 2724", "user: ...": a speaker of one to three words before a colon.
_SPEAKER = re.compile(r"^\s*([^\W\d_][\w.'’-]{0,19}(?: [^\W\d_][\w.'’-]{0,19}){0,2}):\s+(\S.*)$", re.S)
_SPEAKER_KEYS = ("from", "sender", "speaker", "author", "role", "name", "user", "who")
_TEXT_KEYS = ("text", "content", "message", "msg", "body")

# What names a password in a request, compounds and scripts without spaces included
# ("beheerderswachtwoord", "Netflix-lösenordet", "管理者パスワード").
_PASSWORD_WORD = re.compile(
    r"password|passwort|kennwort|wachtwoord|losenord|kodeord|adgangskode|passord|haslo|sifre|senha|contrasena"
    r"|contrasenya|mot de passe|(?<!\w)mdp(?!\w)|(?<!\w)parol|(?<!\w)parola(?!\w)|пароль|парол|passcode|passphrase"
    r"|(?<!\w)pw(?!\w)|(?<!\w)pwd(?!\w)|mima|salasana|jelszo|lozinka|geslo|heslo|パスワード|暗証番号|密码|密碼"
    r"|비밀번호|비번|암호|كلمة (?:ال)?(?:سر|مرور)|كلمة المرور|رمز عبور|סיסמ|รหัสผ่าน|पासवर्ड"
)
# What names a lock's, a card's or a one-time code in a request, beyond the cue lexicon:
# a combination ("szyfr do zapięcia roweru"), a code word in the languages the cues read,
# and a locker's or a padlock's number ("사물함 번호", "密码锁的号码").
_CODE_WORD = re.compile(
    r"(?<![^\W\d_])(?:code|codes|codigo|codice|kod|kodu|kode|koden|koodi|код|szyfr|combo|combination|combinacao"
    r"|combinacion|combinazione|combinaison|pin|pin-?code|pincode|passcode)(?![^\W\d_])"
    r"|(?:رمز|كود)(?!\s*(?:عبور|المرور))|コード|(?:사물함|자물쇠|금고|도어락|현관문?|ロッカー|金庫)\s*(?:번호|番号)"
)
# A service's credential asked for: its value must look machine-made.
_TOKEN_WORD = re.compile(
    r"(?<![^\W\d_])(?:api[ -]?key|key|token|secret|credentials?|access key|client secret|pat|webhook)(?![^\W\d_])"
)
# A question about a credential that a number answers without giving it: when it changed,
# how long it is, how many tries are left.
_ABOUT = re.compile(
    r"(?<![^\W\d_])(?:when|what year|which year|since when|how (?:long|many|often|old|much)|how many digits"
    r"|expires?|expiry|valid until)(?![^\W\d_])"
)
# Where a script without spaces meets a value: "4-13-32이야", "hotaru-Falcon-75だよ", "是8124".
_SCRIPT_EDGE = re.compile(
    r"(?<=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])(?=[!-~])|(?<=[!-~])(?=[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
)
_TRIM = ".,;:!?()[]{}<>'\"`«»“”‘’"
_CODE = re.compile(r"[#*]?\d{3,10}[#*]?[A-Za-z]?")
_COMBO = re.compile(r"\d{1,2}-\d{1,2}-\d{1,2}")
_YEAR = re.compile(r"(?:19|20)\d\d")


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
    return out if spoken * 2 > len(out) else None


def answered_secret(value: Any) -> str | None:
    """The kind of a credential a message of the conversation ``value`` asks for or names,
    when a reply after it gives it."""
    msgs = messages(value)
    if msgs is None:
        return None
    for i, (who, text) in enumerate(msgs[:-1]):
        low = _plain(text).replace("_", " ")
        password = _PASSWORD_WORD.search(low) is not None
        code: str | None = None
        if any(
            not _NOT_A_CODE.search(low[max(0, m.start() - 16) : m.start()])
            for cue in (_CODE_NAMES, _CODE_WORD)
            for m in cue.finditer(low)
        ):  # a code that opens something ("door code"), not a "zip code" or an "error code"
            code = ONE_TIME_CODE if _OTP_CUE.search(low) else PIN
        token = _TOKEN_WORD.search(low) is not None and not detectors._NOT_SECRET_CONTEXT.search(low)
        if not (password or code or token) or _ABOUT.search(low):
            continue
        kind = _reply_kind(msgs[i + 1 : i + 1 + _REPLY_WINDOW], who, password, code, token)
        if kind:
            return kind
    return None


def _reply_kind(
    replies: list[tuple[str | None, str]], asker: str | None, password: bool, code: str | None, token: bool
) -> str | None:
    pieces: list[str] = []
    for who, text in replies:
        words = [w.strip(_TRIM) for w in _SCRIPT_EDGE.sub(" ", text).split()]
        words = [w for w in words if w.strip("-–—")]
        values = [w for w in words if not _WORD.fullmatch(w)]
        if len(words) == 1 and len(values) == 1:
            pieces.append(values[0])
        if len(words) > _MAX_REPLY_WORDS or len(values) != 1:
            if asker is not None and who == asker:
                break  # the asker speaks of something else: the answer, if any, came before
            continue
        kind = _value_kind(values[0], password, code, token)
        if kind:
            return kind
    if len(pieces) >= 2:
        return _value_kind("".join(pieces), password, None, token)
    return None


_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")  # "don't", "c'est", "sağ"


def _value_kind(value: str, password: bool, code: str | None, token: bool) -> str | None:
    """The kind ``value`` is, given what the request named."""
    if (code or password) and (_CODE.fullmatch(value) or (code and _COMBO.fullmatch(value))):
        digits = re.sub(r"\D", "", value)
        if len(digits) >= (3 if code else 4) and not (len(digits) >= 9 and digits[0] in "0+"):
            if code or not _YEAR.fullmatch(digits):
                return code or PIN
    if password and _passwordish(value):
        return PASSWORD
    if token and detectors._looks_random(value, 16) and detectors.generated(value):
        return detectors.GENERIC
    return None

