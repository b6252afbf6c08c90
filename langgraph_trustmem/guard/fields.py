"""Field names as context: ``{"password": "Tr0ub4dor&3x!"}`` needs no sentence around it.

A structured memory says what a value is through its field name (or, for the store's
labels, through the namespace part before it). The head word of the name decides
(``bank_pin`` is a PIN, ``pin_required`` is a flag), and the value must still look like
what the name says (``{"password": "ask Tom"}`` and ``{"token": "$CHAT_TOKEN"}`` are not
secrets).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from langgraph_trustmem.guard.bip39 import BIP39_WORDS

__all__ = ["field_kind", "field_secret", "label_secret", "named_secret", "parent_kind", "passphrase", "sibling_secret"]

PASSWORD = "password"
PIN = "PIN"
CARD_CODE = "card security code"
GENERIC = "generic API key"
PRIVATE_KEY = "private key"
RECOVERY_PHRASE = "recovery phrase"
TWO_FACTOR = "2FA secret"
SECURITY_ANSWER = "security question answer"
BASIC_AUTH = "basic auth credentials"
SECRET = "secret"  # a field named only "secret": a token, or a password a person chose

FIELD_KINDS = frozenset(
    {PASSWORD, PIN, CARD_CODE, GENERIC, PRIVATE_KEY, RECOVERY_PHRASE, TWO_FACTOR, SECURITY_ANSWER, BASIC_AUTH}
)

_NAME_LIKE = re.compile(r"[^\W\d]+(?:[ _.\-][^\W\d]+)*")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# Compound words people write without separators.
_COMPOUND = (
    ("password", "password"), ("passwd", "passwd"), ("passphrase", "passphrase"), ("passcode", "passcode"),
    ("apikey", "apikey"), ("pincode", "pin"), ("privatekey", "privkey"), ("secretkey", "secretkey"),
    ("accesstoken", "token"), ("authtoken", "token"), ("refreshtoken", "token"),
)  # fmt: skip

_PW_HEADS = frozenset({"password", "passwd", "pwd", "pw", "pass", "passphrase", "passwort", "kennwort", "contrasena",
                       "senha", "psk", "mdp", "motdepasse", "wachtwoord", "haslo", "losenord", "salasana", "sifre",
                       "parol", "heslo", "jelszo", "passord", "adgangskode", "rootpw", "adminpw", "masterpw", "psw",
                       "khau", "sandi", "jelszavam", "requirepass", "masterauth"})  # fmt: skip
_PIN_HEADS = frozenset({"pin", "passcode", "pincode", "puk", "combination", "combo", "keypad", "geheimzahl",
                        "kombination", "combinacion", "combinaison", "combinazione", "combinatie", "kombinacja"})
_CODE_QUALIFIERS = frozenset({"door", "gate", "alarm", "garage", "lock", "safe", "keypad", "unlock", "entry", "access",
                              "building", "lockbox", "padlock", "locker", "vault", "disarm", "phone", "screen", "device",
                              "pin", "pass", "voicemail", "sim"})  # fmt: skip
_CODE_WORDS = frozenset({"code", "codigo", "codice", "kod", "kode", "koodi", "kodu", "codi", "szyfr", "sifre"})
_CODE_QUALIFIERS_INTL = frozenset({"alarma", "alarme", "allarme", "alarm", "puerta", "porta", "porte", "tur", "tor",
                                   "garaje", "garagem", "cancello", "portao", "portail", "tresor", "caja", "cofre",
                                   "coffre", "cassaforte", "kluis", "sejf", "door", "gate", "safe", "garage"})  # fmt: skip
_CVV_HEADS = frozenset({"cvv", "cvc", "cvv2", "cvc2", "csc", "cid"})
_TOKEN_HEADS = frozenset({"token", "secret", "apikey", "secretkey", "bearer", "jwt", "credential", "credentials", "creds", "pat",
                          "jsessionid", "phpsessid",
                          "sessionid", "cookie", "signature", "hmac", "encrypt"})  # fmt: skip
_KEY_QUALIFIERS = frozenset({"api", "access", "secret", "private", "client", "signing", "encryption", "master", "auth",
                             "license", "app", "service", "account", "admin", "webhook", "session", "ssh", "gpg", "pgp",
                             "wallet", "aws", "stripe", "openai", "deploy"})  # fmt: skip
_PUBLIC = frozenset({"public", "publishable", "pub", "id", "name", "hint", "hints", "policy", "length", "rotation",
                     "expiry", "expires", "expiration", "manager", "required", "enabled", "set", "changed", "reset",
                     "last", "type", "count", "budget", "max", "min", "limit", "location", "url", "uri", "endpoint",
                     "path", "file", "prefix", "format", "hash", "fingerprint", "days", "date", "at", "age", "strength",
                     "group", "santa", "version", "scope", "scopes", "provider", "label", "note", "notes", "status",
                     "ref", "reference", "vault", "storage", "env", "var", "field", "kind", "page", "cursor",
                     "pagination"})  # fmt: skip
_PASS_THINGS = frozenset({"boarding", "gym", "bus", "season", "day", "ski", "travel", "hall", "guest", "press",
                          "backstage", "library", "museum", "metro", "train", "transit", "parking", "annual",
                          "monthly", "weekly", "festival", "event"})  # fmt: skip
_SECRET_HEADS = frozenset({"secret", "credential", "credentials", "creds", "clave", "parola"})  # in a login record
_SEED_HEADS = frozenset({"seed", "mnemonic", "wif", "privkey"})
_OTP_HEADS = frozenset({"totp", "otp", "mfa", "2fa"})
_GENERIC_CHILD = frozenset({"value", "val", "v", "data", "secret", "string", "raw"})


# Field names in scripts without Latin letters: the word itself is the head.
_SCRIPT_HEADS = {
    "пароль": "password", "密码": "password", "密碼": "password", "パスワード": "password", "비밀번호": "password",
    "암호": "password", "كلمة المرور": "password", "סיסמה": "password", "κωδικός": "password", "पासवर्ड": "password",
    "пин": "pin", "пин-код": "pin", "暗証番号": "pin", "كلمة_المرور": "password", "المرور": "password",
    "कोड": "code", "код": "code", "コード": "code", "코드": "code", "קוד": "code", "رمز": "code", "पिन": "pin",
}  # fmt: skip


def _words(name: str) -> list[str]:
    low = _CAMEL.sub(" ", name).lower()  # "alarmCode", "hcloudToken": the words camel case joins
    for word, head in _SCRIPT_HEADS.items():
        if word in low:
            low = low.replace(word, f" {head} ")
    if not low.isascii():  # "contraseña", "hasło", "lösenord": letters without their marks
        low = "".join(ch for ch in unicodedata.normalize("NFKD", low.replace("ł", "l")) if not unicodedata.combining(ch))
    for compound, word in _COMPOUND:
        if compound in low and not re.search(r"[^a-z]", compound):
            low = low.replace(compound, f" {word} ")
    return [w.lower() for w in _WORDS.findall(low)] or []


def field_kind(name: str, *, cached: bool = True) -> str | None:
    """The kind of secret a field of this name holds, or None when the name does not say.
    ``cached=False`` for strings that may be values rather than names (a table's cells):
    the cache must never keep a secret."""
    if not isinstance(name, str) or len(name) > 64:
        return None
    # only names made of words are cached: a key or a cell like "Crème$7670" may be the secret
    return _field_kind(name) if cached and _NAME_LIKE.fullmatch(name) else _field_kind.__wrapped__(name)


_PLAIN = frozenset(("plain", "plaintext", "clear", "cleartext", "raw"))


@lru_cache(maxsize=4096)  # field names repeat (a record's keys, config lines): cached, pure
def _field_kind(name: str) -> str | None:
    words = _words(name)
    if "for" in words[1:-1]:  # "wiFiPasswordForAterm7d3c2a", "pin_for_garage": what is named is before "for"
        words = words[: words.index("for")]
    if not words or any(w in _PUBLIC for w in words[1:]) or words[-1] in _PUBLIC:
        return None
    if words[0] in ("cache", "etag", "idempotency", "object", "partition", "sort", "primary", "foreign", "row", "dedup"):
        return None  # "cache_key", "object_key": the name of a thing
    if words[0] in ("public", "publishable", "pub"):  # "public_key", "PublicKey": not a secret
        return None
    if words[-2:] == ["site", "key"] or words[-1] == "sitekey":  # a CAPTCHA's site key ships in the page
        return None
    head = words[-1]
    before = words[-2] if len(words) > 1 else ""
    if head == "pass" and before in _PASS_THINGS:
        return None  # a boarding pass, a gym pass
    if head in _PW_HEADS or (head == "word" and before == "pass") or (head == "passe" and before == "de"):
        return PASSWORD
    if head in _PLAIN and before in _PW_HEADS:  # "password_plain", "passwd_clear": the password as typed
        return PASSWORD
    if head in _CVV_HEADS or (head == "code" and before == "security" and "card" in words):
        return CARD_CODE
    if head in _PIN_HEADS or (head in ("code", "number") and before in _CODE_QUALIFIERS):
        return PIN
    if _CODE_WORDS.intersection(words) and _CODE_QUALIFIERS_INTL.intersection(words):
        return PIN  # "código_alarma", "Türcode"
    if head in ("answer", "answers") and ("security" in words or "secret" in words or "recovery" in words):
        return SECURITY_ANSWER
    if head == "word" and before in ("memorable", "secret", "verification"):
        return SECURITY_ANSWER
    if head in _SEED_HEADS or (
        head in ("phrase", "words") and before in ("seed", "recovery", "backup", "secret")
    ):
        return RECOVERY_PHRASE if head not in ("wif", "privkey") else PRIVATE_KEY
    if head in ("secret", "seed", "key") and before in _OTP_HEADS:
        return TWO_FACTOR
    if head in ("code", "codes") and before in ("backup", "recovery", "rescue"):
        return TWO_FACTOR
    if head == "key" and before in ("private", "priv", "secret", "signing", "wallet", "ssh"):
        return PRIVATE_KEY if before in ("private", "priv", "wallet", "ssh") else GENERIC
    if head in _SECRET_HEADS and len(words) == 1:
        return SECRET  # {"secret": ...}: a token or a chosen password
    if head in _TOKEN_HEADS or (head == "key" and before in _KEY_QUALIFIERS) or head == "auth":
        return GENERIC
    if head == "sk" and before in ("sdk", "cloud", "access", "api", "oss", "obs", "iam") or (head == "sk" and len(words) >= 3):
        return GENERIC  # Huawei's and Alibaba's AK/SK pairs: "HUAWEICLOUD_SDK_SK", the secret key
    if head == "key" or (head == "session" and before):
        # weak: a random value only, never a UUID or a hash; a named session is a cookie
        # ("grafana_session", "_gitlab_session"), a bare {"session": ...} an id
        return "key"
    return None


def parent_kind(path: tuple[str, ...]) -> str | None:
    """The kind for a value at ``path`` (field names, outermost first): its own field, or
    its parent's when its own name is generic (``{"auth": {"value": ...}}``)."""
    if not path:
        return None
    kind = field_kind(path[-1])
    if kind is None and len(path) > 1 and path[-1].lower() in _GENERIC_CHILD:
        kind = field_kind(path[-2])
    if kind is None and len(path) > 1 and field_kind(path[-2]) == SECURITY_ANSWER:
        kind = SECURITY_ANSWER  # {"security_answers": {"first_street": ...}}
    if kind is None and len(path) > 1 and _words(path[-2]) in (["codes"], ["code"], ["pins"]):
        if _SIBLING_QUALIFIERS.intersection(_words(path[-1])):
            kind = PIN  # {"codes": {"garage": "6037", "gate": "4371"}}
    if kind is None and len(path) > 1 and _bare_code(path[-1]):
        if _PARENT_QUALIFIERS.intersection(_words(path[-2])):
            kind = PIN  # {"alarm": {"code": "2700"}}, {"keybox": {"szyfr": "3113"}}
    return kind


def _bare_code(name: str) -> bool:
    """A field named only "code" (in one of the languages read) or "combination"."""
    words = _words(name)
    return len(words) == 1 and (words[0] in _CODE_WORDS or words[0] in ("combination", "combo"))


# What the other fields of a record may say that makes a bare "code" field a door code:
# ``{"door": "front", "code": "6121"}``.
_SIBLING_QUALIFIERS = frozenset({"door", "gate", "alarm", "garage", "lock", "safe", "keypad", "entry", "building",
                                 "lockbox", "padlock", "locker", "vault", "disarm", "unlock", "doors", "gates",
                                 "keybox", "keysafe"})  # fmt: skip
_PARENT_QUALIFIERS = _SIBLING_QUALIFIERS | _CODE_QUALIFIERS_INTL


# A record that says in another field what its value is: ``{"name": "DB_PASSWORD",
# "value": "..."}`` (an env list, a Kubernetes container spec), ``{"kind": "secret",
# "value": "..."}``.
NAMING_FIELDS = frozenset({"name", "key", "kind", "type", "label", "field", "env", "var", "variable", "what", "k"})
VALUE_FIELDS = frozenset({"value", "val", "data", "content", "v"})
_PLAIN_NAMES = frozenset({"pass", "combination", "combo", "code", "key", "keys", "session", "cookie", "auth"})


# What the other fields of a login record are called: {"secret": ..., "user": ...}.
# What account security questions ask about.
_SECURITY_ASKS = re.compile(
    r"(?i)\b(?:maiden\s+name|first\s+pet|name\s+of\s+your|your\s+(?:first|favou?rite|childhood|oldest|mother|father)"
    r"|gr[eo]w\s+up|city\s+(?:where|of\s+birth)|childhood\s+(?:friend|nickname|hero)|nickname)\b"
)
_LOGIN_FIELDS = frozenset({"user", "username", "login", "email", "site", "service", "portal", "account", "host", "ssid",
                           "url", "app", "website", "server", "domain", "system", "usr", "uid"})  # fmt: skip


def _chosen_password(v: str) -> bool:
    """A password a person chose: letters and digits with a symbol or both cases,
    no spaces, no reference (``arn:...``, ``projects/p/secrets/db``)."""
    return (
        6 <= len(v) <= 64
        and re.search(r"[\s:/]", v) is None
        and re.search(r"[A-Za-z]", v) is not None
        and re.search(r"\d", v) is not None
        and (re.search(r"[^A-Za-z0-9]", v) is not None or (v.lower() != v and v.upper() != v))
    )


# A security question and its answer as a record's fields, in the languages the cues read
# ({"Sikkerhetsspørsmål": "...", "Svar": "Rex"}): the question's field names security (or
# a password's recovery) as one phrase, so a quiz's {"Pregunta": ..., "Respuesta": ...}
# or a safety drill's {"Frage zur Arbeitssicherheit": ...} is not one.
_QUESTION_NAMES = (
    "question", "pregunta", "pergunta", "domanda", "frage", "vraag", "pytanie", "otázka", "otazka", "întrebare",
    "intrebare", "spørsmål", "spørgsmål", "sporsmal", "fråga", "fraga", "kysymys", "soru", "вопрос", "питання",
    "ερώτηση", "ερωτηση", "שאלה", "سؤال", "प्रश्न", "คำถาม", "질문", "質問", "问题", "問題", "pertanyaan", "câu hỏi",
    "kérdés", "kerdes",
)
_ANSWER_NAMES = frozenset(
    """
    answer respuesta resposta risposta antwort antwoord odpowiedź odpowiedz odpověď odpoved răspuns raspuns svar
    svaret vastaus cevap ответ відповідь απάντηση απαντηση תשובה جواب الإجابة الجواب उत्तर คำตอบ 답변 답 答え 答案
    jawaban válasz valasz réponse reponse
    """.split()
) | {"trả lời"}
_SECURITY_NAMES = (
    "security", "secret", "recovery", "pregunta de seguridad", "pergunta de seguranca", "pergunta de segurança",
    "domanda di sicurezza", "sicherheitsfrage", "beveiligingsvraag", "pytanie bezpieczenstwa",
    "pytanie bezpieczeństwa", "bezpečnostní otázka", "bezpecnostni otazka", "întrebare de securitate",
    "intrebare de securitate", "sikkerhetsspørsmål", "sikkerhedsspørgsmål", "säkerhetsfråga", "sakerhetsfraga",
    "turvakysymys", "güvenlik sorusu", "guvenlik sorusu", "question de sécurité", "question de securite",
    "question secrète", "контрольный вопрос", "секретный вопрос", "питання безпеки", "контрольне питання",
    "ερώτηση ασφαλείας", "ερωτηση ασφαλειας", "שאלת אבטחה", "سؤال الأمان", "سؤال الامان", "السؤال السري",
    "सुरक्षा प्रश्न", "คำถามความปลอดภัย", "보안 질문", "비밀번호 찾기 질문", "秘密の質問", "安全问题", "安全問題",
    "pertanyaan keamanan", "câu hỏi bảo mật", "biztonsági kérdés", "biztonsagi kerdes",
)


def named_secret(record: Mapping[Any, object], looks_random: object) -> str | None:
    """The kind of secret a record's value field holds when a naming field says what it
    is (the name read as a field name: ``DB_PASSWORD`` is a password), or a password in a
    login record's field named only ``secret`` or ``credentials`` (``{"secret":
    "Tiger.9798", "site": "insurance portal", "user": "ana.k"}``)."""
    names = {k.lower().rsplit(".", 1)[-1] for k in record if isinstance(k, str)}
    if "kty" in names and "d" in names and isinstance(record.get("d"), str) and len(str(record.get("d"))) >= 16:
        return PRIVATE_KEY  # a JSON Web Key with its private part
    question = next((n for n in names if n in ("q", "question") or any(w in n for w in _QUESTION_NAMES)), None)
    answer = next((n for n in names if n in ("a", "answer") or n in _ANSWER_NAMES), None)
    if question and answer:
        q = next(str(v) for k, v in record.items() if isinstance(k, str) and k.lower() == question)
        a = next(v for k, v in record.items() if isinstance(k, str) and k.lower() == answer)
        named = any(w in n.replace("_", " ") for n in names for w in _SECURITY_NAMES)
        asks = named or _SECURITY_ASKS.search(q) is not None  # an account's question, not an FAQ's
        if isinstance(a, str) and 2 <= len(a.strip()) <= 64 and asks:
            return SECURITY_ANSWER  # {"security_question": "...?", "answer": "Marchetti"}
    if names & _LOGIN_FIELDS:
        for k, v in record.items():
            if isinstance(k, str) and isinstance(v, str) and field_kind(k.rsplit(".", 1)[-1]) == SECRET:
                if _chosen_password(v.strip()) and not _PLACEHOLDER.match(v.strip()):
                    return PASSWORD
                pair = v.strip().partition(":")
                if pair[1] and pair[0] and " " not in v.strip() and _chosen_password(pair[2]):
                    return BASIC_AUTH  # {"creds": "lukas1990:Rosemary*17", "host": ...}
    if names >= _SHORT_LOGIN and _short_login(record):
        return PASSWORD  # {"h": "host.example", "u": "admin", "p": "..."}
    values = [k for k in record if isinstance(k, str) and k.lower() in VALUE_FIELDS]
    if not values:
        return _labelled_password(record)
    if len(values) != 1:
        return None
    for k, v in record.items():
        if isinstance(k, str) and k.lower() in NAMING_FIELDS and isinstance(v, str) and len(v) <= 64:
            if v.strip().lower() in _PLAIN_NAMES:
                continue  # {"type": "pass", "value": "annual"}: a word, not a setting's name
            kind = field_kind(v)
            if kind is not None:
                return field_secret(kind, record[values[0]], looks_random)
    return None


_SHORT_LOGIN = frozenset({"h", "u", "p"})
_HOST = re.compile(r"[\w-]+(?:\.[\w-]+)+")
_LOGIN_NAME = re.compile(r"[\w.@+-]{1,64}")


def _short_login(record: Mapping[Any, object]) -> bool:
    """A host, a user and a password under one-letter names: the host a host name, the
    user a login, the password one chosen, generated or random."""
    short = {k.lower().rsplit(".", 1)[-1]: v for k, v in record.items() if isinstance(k, str)}
    h, u, p = short.get("h"), short.get("u"), short.get("p")
    if not (isinstance(h, str) and isinstance(u, str) and isinstance(p, str)):
        return False
    p = p.strip()
    return (
        _HOST.fullmatch(h.strip()) is not None
        and _LOGIN_NAME.fullmatch(u.strip()) is not None
        and not _PLACEHOLDER.match(p)
        and (_chosen_password(p) or passphrase(p) or (len(p) >= 16 and _hexish_or_mixed(p)))
    )


def _hexish_or_mixed(p: str) -> bool:
    return re.fullmatch(r"[0-9a-f]{16,}", p) is not None or (re.search(r"\d", p) is not None and p.lower() != p)


_LABEL_FIELDS = frozenset({"label", "name", "title", "description", "desc", "service", "what", "note", "for"})
_HELD_FIELDS = frozenset({"key", "value", "val", "v", "secret", "pw", "pass", "password", "data", "content", "string"})


def _labelled_password(record: Mapping[Any, object]) -> str | None:
    """A record with no value field whose label says it holds a password, and one other
    field holding one (``{"key": "Summer2021!", "label": "Netflix password"}``)."""
    labelled = any(
        isinstance(k, str) and k.lower() in _LABEL_FIELDS and isinstance(v, str) and len(v) <= 64
        and field_kind(v) == PASSWORD
        for k, v in record.items()
    )
    if not labelled:
        return None
    held = [
        v.strip() for k, v in record.items()
        if isinstance(k, str) and k.lower() in _HELD_FIELDS and isinstance(v, str)
        and (_chosen_password(v.strip()) or passphrase(v.strip())) and not _PLACEHOLDER.match(v.strip())
    ]  # fmt: skip
    return PASSWORD if len(held) == 1 else None


def sibling_secret(name: str, value: object, siblings: list[str]) -> str | None:
    """The kind of secret in the field ``name`` whose own name says nothing but ``code``,
    given the other field names and short string values of its record."""
    if not isinstance(name, str) or _words(name) != ["code"]:
        return None
    for text in siblings:
        if len(text) <= 40 and _SIBLING_QUALIFIERS.intersection(_words(text)):
            return field_secret(PIN, value, None)
    return None


# A bracket that holds a value, not a name ("{{ Tr0ub4dor99 }}", "<hunter2024>", "<P@ssw0rd!>"): one
# word of six characters or more, with letters and either two digits (no dot: ".Values.db.pass2" is
# a path; not words joined by "-" or "_": "<your-16-char-key>", "{{ DB_PASS_V2 }}"), a digit and a
# symbol no name holds, or a digit written between letters ("[m0nkey.b4r]"; not a name in capitals
# or a template's path: "{{ .Env.NEO4J_PASSWORD }}"). Not a placeholder.
# (Parentheses annotate: "passcode (base32) ...".)
_IN = r"[^\s<>\[\]{}()]"
BRACKETED_VALUE = (
    r"(?![<\[{]{1,2}\s*(?:"
    r"(?!(?-i:[a-z]+(?:[-_][a-z0-9]+)+|[A-Z]+(?:_[A-Z0-9]+)+)\s*[>\]}])(?=[^\s.<>\[\]{}()]*\d[^\s.<>\[\]{}()]*\d)"
    r"(?=[^\s.<>\[\]{}()]*[A-Za-z])[^\s.<>\[\]{}()]{6,}"
    rf"|(?!\.|(?-i:[A-Z0-9_.]+)\s*[>\]}}])(?={_IN}*\d)(?={_IN}*[A-Za-z])(?={_IN}*[!@#$%^&*+=?~]){_IN}{{6,40}}"
    rf"|(?!\.|(?-i:[A-Z0-9_.]+)\s*[>\]}}])(?={_IN}*[A-Za-z]\d+[A-Za-z]){_IN}{{6,40}}"
    r")\s*[>\]}]{1,2}$)"
)
_PLACEHOLDER = re.compile(
    r"(?i)^" + BRACKETED_VALUE + r"(?:[*•xX.#_\-]{3,}|<[^>]*>|\[[^\]]*\]|\{\{?[^}]*\}\}?|\$\{[^}]*\}|\$(?-i:[A-Z_][A-Z0-9_]*|[a-z_]+)|%[A-Z_]+%|%\(\w+\)s|\{\{.*\}\}|.*environ\[.*|.*getenv\(.*"
    r"|redacted|hidden|removed|omitted|masked|none|null|nil|undefined|empty|todo|tbd|n/?a|unknown|unset|changeme"
    r"|change_me|example|sample|dummy|placeholder|secret|password|passwd|token|value|true|false|yes|no|required"
    r"|optional|same|see\s.*|ask\s.*|in\s.*|on\s.*|stored\s.*|saved\s.*|replace[_-]?me|(?:your|my)[_-](?:api[_-]?)?(?:password|passwd|pass|pwd|secret|token|key)(?:[_-][a-z]{1,8}){0,2})$"
)
_DIGITS = re.compile(r"\d+")
_SSH_PUBLIC = re.compile(r"(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com) AAAA")
UUID = re.compile(r"(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_APP_PASSWORD = re.compile(r"^[a-z]{4}(?: [a-z]{4}){3}$")  # Google/Apple app passwords as shown


_LABEL_SEPS = re.compile(r"[:=\-_ ]")
_SLUG = re.compile(r"[a-z]+(?:[-_ ][a-z0-9]+)+")
_LABEL_PAIR = re.compile(r"^([A-Za-z][A-Za-z _]{1,30}?)\s*[:=\-_ ]\s*(\S.*)$")


def label_secret(label: str, looks_random: object) -> str | None:
    """A label that names and holds a secret at once (a key ``"pin-7720"`` or
    ``"password=Hunter2!"``). Stricter than a field: a label is usually a name, so the
    value must have a digit (``"pw-reset-reminder"`` is a name)."""
    m = _LABEL_PAIR.match(label)
    if not m or not any(ch.isdigit() for ch in m.group(2)):
        return None
    hit = _label_value(m.group(1), m.group(2), looks_random)
    # the name may run over several separators: "wifi-pw-?Limon104sonn" names "wifi-pw"
    for sep in _LABEL_SEPS.finditer(label[: min(len(label), 40)]):
        if hit is not None:
            break
        name, value = label[: sep.start()], label[sep.end() :]
        if name and value and any(ch.isdigit() for ch in value) and re.fullmatch(r"[A-Za-z][A-Za-z _\-]*", name):
            hit = _label_value(name, value, looks_random)
    return hit


def _label_value(name: str, value: str, looks_random: object) -> str | None:
    if _SLUG.fullmatch(value):
        return None  # "pw-reset-reminder-2024": the rest of a slug, words and a number
    return field_secret(field_kind(name), value, looks_random)


# Phrases written with hyphens that a sentence may call a password without holding one.
_HYPHENATED_PHRASES = frozenset(
    "up-to-date out-of-date state-of-the-art end-to-end one-on-one face-to-face day-to-day hard-to-guess "
    "easy-to-remember hard-to-remember peer-to-peer word-of-mouth mother-in-law father-in-law one-time-use "
    "all-in-one ready-to-use easy-to-guess".split()
)


def passphrase(low: str) -> bool:
    """Three or more lower-case words joined by hyphens, twelve characters or more: the
    shape of a generated passphrase (``chief-account-aim-amazing``)."""
    return (
        len(low) >= 12
        and low.count("-") >= 2
        and re.fullmatch(r"[a-z]{2,12}(?:-[a-z]{2,12}){2,7}(?:\d{1,4}[!?#$%&*+]?)?", low) is not None
        and low not in _HYPHENATED_PHRASES
    )


# Keys made to ship in a web page: Stripe's publishable keys, PostHog's project keys,
# Mapbox's public tokens.
# Values encrypted for storage by design, their key kept elsewhere: SOPS's ENC[...] (its iv and
# tag included), an Ansible Vault block (its "!vault |" tag too), OpenSSL's salted output, and
# where the text is a Sealed Secret, its ciphertext (always "Ag..." and long). No one's secret; a value in the clear beside
# them is read.
ENCRYPTED_VALUE = re.compile(
    r"ENC\[AES256_GCM,data:[A-Za-z0-9+/=]*,iv:[A-Za-z0-9+/=]{16,},tag:[A-Za-z0-9+/=]{16,}(?:,type:\w+)?\]"
    r"|(?:!vault\s*\|\s*)?\$ANSIBLE_VAULT;1\.[12];AES256(?:;[\w.\-]+)?(?:\s*[0-9a-f]{32,})+"
    # cut short where a title or a preview shows it ("ENC[AES256_GCM,data:UZOr..."), and the
    # vault tag ending its line, the block on the lines (or list items) after it
    r"|ENC\[AES256_GCM,data:[A-Za-z0-9+/=]{0,64}(?:\.\.\.|…)|!vault\s*\|[ \t]*$"
    # dotenvx's values ("encrypted:BD9p..."), Jasypt's ("ENC(9+E9...)")
    # (dotenvx's start with the ephemeral key's 0x04 byte and hold at least 98 bytes)
    r"|(?<![\w:])encrypted:B[A-Za-z0-9+/]{130,}={0,2}(?![A-Za-z0-9+/=])|(?<!\w)ENC\([A-Za-z0-9+/]{20,}={0,2}\)"
    # EJSON's ("EJ[1:<public key>:<nonce>:<box>]"), Vault's transit engine's ("vault:v1:<base64>")
    r"|EJ\[1:[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{32}:[A-Za-z0-9+/]{24,}={0,2}\]"
    r"|(?<![\w:])vault:v\d{1,3}:[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/=])"
)
_WORDLIKE = re.compile(r"[A-Z]?[a-z]{3,}|[A-Z]{4,}")
_VOWELS = frozenset("aeiouyAEIOUY")


def generated(token: str) -> bool:
    """Whether a token reads as a generator's output rather than words: less
    than half of it is word-like runs (three lower-case letters or more, or
    four capitals, with a word's share of vowels). ``w9hW9d9YOTg`` is
    generated; ``ConfigurationBackup2024`` and ``hypertension-guidelines``
    are not. About one random 24-character token in 200 reads as words."""
    words = sum(len(p) for p in _WORDLIKE.findall(token) if sum(c in _VOWELS for c in p) >= 0.3 * len(p))
    return words < 0.5 * len(token)


# A password's hash as bcrypt, argon2, crypt(3) (MD5, SHA-256/512, Apache's MD5, yescrypt),
# Cisco's types 8 and 9, phpass, Drupal, Django, Werkzeug and LDAP store it ("$2b$12$...", "pbkdf2_sha256$870000$...",
# "{SSHA}..."), each field of the length its scheme writes (so a random secret of another
# length does not pass dressed as one), and the user it belongs to in an htpasswd line
# ("admin:$2b$..."), kept for the detectors to read: the hash is not the password.
PASSWORD_HASH = re.compile(
    r"(?:(?<![\w.@-])(?P<user>[\w.@-]{1,64}):(?=[${]))?(?:"
    r"(?:\{CRYPT\})?(?:"
    r"\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}"
    r"|\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{43}"
    r"|\$(?:1|apr1)\$[./A-Za-z0-9]{1,8}\$[./A-Za-z0-9]{22}"
    r"|\$5\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{43}"
    r"|\$6\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{86}"
    r"|\$y\$[./A-Za-z0-9]{3,12}\$[./A-Za-z0-9]{8,86}\$[./A-Za-z0-9]{43}"
    r"|\$[89]\$[./A-Za-z0-9]{14}\$[./A-Za-z0-9]{43}"
    # phpass (WordPress, phpBB) and Drupal 7: a rounds character, 8 of salt, the digest
    r"|\$[PH]\$[./A-Za-z0-9]{31}|\$S\$[./A-Za-z0-9]{52})"
    # Werkzeug's (Flask): the method, a salt, the digest in hex of its size
    r"|(?<![\w$])(?:pbkdf2:sha256(?::\d{4,7})?\$[A-Za-z0-9]{8,32}\$[0-9a-f]{64}"
    r"|pbkdf2:sha512(?::\d{4,7})?\$[A-Za-z0-9]{8,32}\$[0-9a-f]{128}"
    r"|scrypt:\d{4,7}:\d{1,2}:\d{1,2}\$[A-Za-z0-9]{8,32}\$[0-9a-f]{128})"
    # Django's, each scheme's fields exactly, so nothing written after one is taken in
    r"|(?<![\w$])(?:pbkdf2_sha256\$\d{4,7}\$[A-Za-z0-9./+]{4,64}\$[A-Za-z0-9+/]{43}="
    r"|pbkdf2_sha1\$\d{4,7}\$[A-Za-z0-9./+]{4,64}\$[A-Za-z0-9+/]{27}="
    r"|bcrypt_sha256\$\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}"
    r"|argon2\$argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]{11,64}\$[A-Za-z0-9+/]{43}"
    r"|scrypt\$\d+\$[A-Za-z0-9./+]{4,64}\$\d+\$\d+\$[A-Za-z0-9+/]{86}==)"
    r"|\{(?P<ldap>S?(?:SHA(?:256|384|512)?|MD5))\}(?P<digest>[A-Za-z0-9+/]{20,}={0,2})"
    r")(?![\w$,=./+])"
)
# LDAP's schemes: the digest's size, and the salt's after it for the salted ("S") ones.
_LDAP_DIGEST = {"MD5": 16, "SHA": 20, "SHA256": 32, "SHA384": 48, "SHA512": 64}


_LEET = str.maketrans("0134578@$", "oleastbas")
_HASH_WORD = re.compile(
    "|".join(
        sorted(
            {w for w in BIP39_WORDS if len(w) >= 6}
            | {"password", "passwort", "passw", "hunter", "admin", "secret", "qwerty", "letmein", "welcome", "dragon",
               "monkey", "master", "login", "summer", "winter", "spring", "autumn", "sunshine", "princess", "shadow",
               "football", "baseball", "iloveyou", "trustno", "mypass", "realpass", "changeme", "default"},
            key=len,
            reverse=True,
        )
    )
)  # fmt: skip


def hash_ok(m: re.Match[str]) -> bool:
    """Whether a :data:`PASSWORD_HASH` match is one: an LDAP value must decode to its
    scheme's digest (and a salt of 4 to 8 bytes, as OpenLDAP and 389 write, for a salted
    scheme: a 40-character secret key decodes to 30 bytes, a salted SHA-1's size)."""
    scheme = m.group("ldap")
    if scheme is None:
        # a salt and a digest are a generator's output: a chosen value dressed as a hash
        # ("$P$BMyRealPassword...", a Werkzeug salt "Hunt3r2P4ssw0rd") holds words, which a
        # random run of 64 symbols all but never does (a word of six letters: about 1 in 10^9
        # per place)
        digest = m.group()[m.end("user") - m.start() + 1 :] if m.group("user") else m.group()
        return not _HASH_WORD.search(digest.lower().translate(_LEET))
    try:
        size = len(base64.b64decode(m.group("digest"), validate=True))
    except (ValueError, binascii.Error):
        return False
    if scheme in _LDAP_DIGEST:
        return size == _LDAP_DIGEST[scheme]
    return _LDAP_DIGEST[scheme[1:]] + 4 <= size <= _LDAP_DIGEST[scheme[1:]] + 8


def without_hash(value: str) -> str | None:
    """A field's value with the password's hash it holds taken out: None when it holds
    none, "" for a hash alone, the user for an htpasswd line (read as the value then)."""
    m = PASSWORD_HASH.fullmatch(value)
    if m is None or not hash_ok(m):
        return None
    return m.group("user") or ""


# OpenSSL's "enc" output in base64: it always starts with "Salted__" ("U2FsdGVkX1...").
SALTED_VALUE = re.compile(r"(?<![A-Za-z0-9+/])U2FsdGVkX1[A-Za-z0-9+/]{20,}={0,2}(?![A-Za-z0-9+/=])")
SEALED_VALUE = re.compile(r"(?<![A-Za-z0-9+/_\-])Ag[A-Za-z0-9+/]{100,}={0,2}(?![A-Za-z0-9+/=])")  # not pypi-AgEI...
# AWS KMS's ciphertext blob in base64 (its header: version 1, then "AH" for the key's ARN that
# follows): sealed by a key that never leaves KMS. Its header, IV, tag and key id alone take
# over 80 bytes, so a shorter run dressed with the prefix is no blob.
KMS_BLOB = re.compile(r"(?<![A-Za-z0-9+/])AQ[IE][BCD]AH[A-Za-z0-9+/]{114,}={0,2}(?![A-Za-z0-9+/=])")
# A Fernet token (Python's cryptography): version 0x80 and a timestamp, then IV, ciphertext and HMAC.
FERNET_TOKEN = re.compile(r"(?<![A-Za-z0-9_\-])gAAAAAB[A-Za-z0-9_\-]{80,}={0,2}(?![A-Za-z0-9_\-=])")
_SOPS_DATA = re.compile(
    r"data:([A-Za-z0-9+/=]*)|^encrypted:([A-Za-z0-9+/=]*)|^ENC\(([A-Za-z0-9+/=]*)\)|^vault:v\d+:([A-Za-z0-9+/=]*)"
    r"|^EJ\[1:[^:]+:[^:]+:([A-Za-z0-9+/=]*)\]"
)
_VAULT_BODY = re.compile(r"AES256(?:;[\w.\-]+)?\s*([0-9a-f\s]+)$")


def _ascii_text(data: bytes) -> bool:
    """Whether decoded bytes are (nine tenths or more) printable ASCII."""
    return sum(32 <= b < 127 or b in (9, 10, 13) for b in data) >= 0.9 * len(data)


def _reads_as_text(data: bytes) -> bool:
    """Whether decoded bytes are text (ASCII, UTF-8 in any script, UTF-16), not ciphertext."""
    if _ascii_text(data):
        return True
    try:
        text = data.decode("utf-8")  # random bytes almost never are UTF-8
    except UnicodeDecodeError:
        pass
    else:
        if sum(c.isprintable() or c.isspace() for c in text) >= 0.9 * len(text):
            return True
    for codec in ("utf-16-le", "utf-16-be"):  # random bytes often are: ASCII text in it is not
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if text and sum(" " <= c <= "~" for c in text) >= 0.9 * len(text):
            return True
    return False


def kms_sealed(blob: str) -> bool:
    """Whether a :data:`KMS_BLOB` match holds ciphertext, not readable text dressed with its
    header ("AQICAH" + the base64 of a password): no stretch of it decodes to text. Read
    leniently: a blob cut or quoted inexactly is still one."""
    body = blob.rstrip("=")
    for start in range(4, 12):  # the text may begin right after the header, at any alignment
        part = body[start : start + (len(body) - start) // 4 * 4]
        if len(part) >= 24 and _ascii_text(base64.b64decode(part)):
            return False  # ASCII only: a stretch of random bytes is valid UTF-8 often enough
    return True


def sealed(value: str) -> bool:
    """Whether a value shaped as SOPS's, dotenvx's, Jasypt's, EJSON's, Vault transit's or
    Ansible Vault's really is
    ciphertext: the base64 decodes to bytes, not to readable text, and a Vault body to the hex
    lines Vault writes (salt, HMAC, ciphertext), not to a password
    ("ENC[AES256_GCM,data:SHVudGVy...]", "encrypted:SHVudGVy...")."""
    if (m := _SOPS_DATA.search(value)) is not None:
        sops, b64 = m.group(1) is not None, next(g for g in m.groups() if g is not None)
        try:
            data = base64.b64decode(b64 + "=" * (-len(b64) % 4) if sops else b64, validate=not sops)
        except (ValueError, binascii.Error):
            return sops  # what a tool wrote decodes; a value that does not is no ciphertext
        if not sops and not (re.search(r"[A-Z]", b64) and re.search(r"[a-z]", b64) and re.search(r"\d", b64)):
            return False  # ciphertext's base64 mixes every class; a hex key read as base64 does not
        if not sops and value.startswith("ENC(") and (len(data) < 16 or len(data) % 8):
            return False  # Jasypt writes a salt and whole cipher blocks
        return len(data) < 4 or not _reads_as_text(data)  # (a SOPS preview cut short: too short to hold one)
    if (m := _VAULT_BODY.search(value)) is not None:
        body = "".join(m.group(1).split())
        try:
            text = bytes.fromhex(body[: len(body) // 2 * 2]).decode("ascii")
        except (ValueError, UnicodeDecodeError):
            return True
        return re.fullmatch(r"[0-9a-f\n]*", text) is not None
    return True


JWT_SHAPE = re.compile(r"eyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}")


def anon_jwt(token: str) -> bool:
    """A JWT whose claims give it the anonymous role (Supabase's anon key): public by design,
    its access held by row-level security. A service_role key is a secret."""
    parts = token.split(".")
    if len(parts) != 3:
        return False
    try:
        claims = json.loads(base64.urlsafe_b64decode(parts[1] + "=" * (-len(parts[1]) % 4)))
    except (ValueError, binascii.Error):
        return False
    return (
        isinstance(claims, dict)
        and claims.get("role") == "anon"
        and set(claims) <= _ANON_CLAIMS  # a claim beyond these could carry anything
        and all(not isinstance(v, str) or len(v) <= 64 for v in claims.values())
    )


_ANON_CLAIMS = frozenset({"iss", "ref", "role", "iat", "exp", "nbf", "aud"})


PUBLIC_TOKEN = re.compile(r"(?:pk_(?:live|test)_|phc_)[A-Za-z0-9]{16,}|pk\.eyJ[A-Za-z0-9_\-]+(?:\.[A-Za-z0-9_\-]+)?")
# Code that computes a value (``forms.CharField(widget=...)``, ``getpass()``): not one.
# A call on numbers (``String.fromCharCode(77, 52)``) is a literal written in code points.
CODE_CALL = re.compile(
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\((?:\)\s*$|\s*[A-Za-z_][\w.]*\s*(?:=|,|$|\)(?:\[[^\]]*\]?|\.\w+)*\s*$))"
)
# A value that says it is not a real one: a test's "wrong-password", "not-a-real-password".
SAYS_NOT_REAL = re.compile(
    r"(?i)(?:not[-_ ]?a[-_ ]?real|not[-_ ]?real|fake|dummy|wrong|invalid|incorrect|bogus|bad|test|example|sample)"
    r"[-_ ](?:password|passwd|pass|pwd|pw|secret|token|key|pin)s?"
)


# Keys the vendors' own documentation and the RFCs print as examples (AWS's example key pair,
# the test keys in every Stripe code sample, RFC 7617's "Aladdin:open sesame", RFC 6749's access
# and refresh tokens, RFC 7636's code verifier, the MongoDB manual's "myDBReader" password).
DOC_EXAMPLES = frozenset(
    {
        "AKIAIOSFODNN7EXAMPLE",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "pk_test_TYooMQauvdEDq54NiTphI7jx",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "pk_test_6pRNASCoBOKtIshFeQd4XMUh",
        "QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
        "2YotnFZFEjr1zCsicMWpAA",
        "tGzv3JOkF0XG5Qx2TlKWIA",
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        "D1fficultP%40ssw0rd",
    }
)
# Each of them where it stands alone: nothing glued before or after it that a password could
# hold ("2YotnFZFEjr1zCsicMWpAA!" is a password built on it); the MongoDB manual's only in its URI.
DOC_EXAMPLE_RUN = re.compile(
    r"(?<![^\s\"'`=(\[{<,;])(?:"
    + "|".join(re.escape(v) for v in sorted(DOC_EXAMPLES - {"D1fficultP%40ssw0rd"}, key=len, reverse=True))
    + r")(?=$|[\s\"'`)\]}>,;]|\.(?:\s|$))"
    r"|(?<=//myDBReader:)D1fficultP%40ssw0rd(?=@)"
)
# Values every reader of the docs knows (jwt.io's sample token, RFC 7519's example JWT): no
# one's secret. Replaced before the scan, wherever they stand.
DOC_VALUES = re.compile(
    r"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
    r"\.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    r"|eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9\.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
    r"\.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
)
# Azurite's (the Azure Storage emulator's) account key: the same for every install, valid only
# for its account "devstoreaccount1".
AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="


def field_secret(kind: str | None, value: object, looks_random: object) -> str | None:
    """The kind of secret ``value`` is, given its field's kind (from :func:`field_kind`).
    ``looks_random`` is the detectors' test for machine-generated tokens."""
    if kind is None or isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str):
        return None
    v = value.strip().strip("\"'`")
    if not v or _PLACEHOLDER.match(v) or _SSH_PUBLIC.match(v) or PUBLIC_TOKEN.fullmatch(v) or v in DOC_EXAMPLES:
        return None  # (an SSH public key: "ssh-ed25519 AAAA... ci@host" is public by design)
    if (ENCRYPTED_VALUE.fullmatch(v) and sealed(v)) or (v.startswith("eyJ") and (anon_jwt(v) or DOC_VALUES.fullmatch(v))):
        return None  # sealed for storage, or public by design
    if (user := without_hash(v)) is not None:
        if not user:
            return None  # a password's hash
        v = user  # an htpasswd line: its user is read as the value
    if len(v) > 512:
        return None  # a public key, a certificate
    digits = "".join(_DIGITS.findall(v))
    if kind == PIN:
        if re.fullmatch(r"(?:19|20)\d\d-\d\d-\d\d", v):
            return None  # a date: {"door": {"code": "2024-05-01"}} is when, not how
        only_digits = re.fullmatch(r"[#*]?\d{1,10}(?:[ \-]\d{1,4}){0,3}[#*]?", v) is not None
        return PIN if only_digits and 3 <= len(digits) <= 10 else None
    if kind == CARD_CODE:
        return CARD_CODE if re.fullmatch(r"\d{3,4}", v) else None
    if kind == PASSWORD:
        if _APP_PASSWORD.match(v):
            return PASSWORD
        if re.search(r"\s", v) or len(v) < 4 or len(v) > 128:
            return None
        if SAYS_NOT_REAL.fullmatch(v) or CODE_CALL.match(v):
            return None  # a test's "wrong-password"; forms.CharField(widget=forms.PasswordInput)
        if re.fullmatch(r"[a-z]+", v) and len(v) < 6:
            return None  # "pass", "none"
        if v.startswith(("/", "~/", "./", "../", "http://", "https://")) or re.match(r"[A-Za-z]:\\", v):
            return None  # a path or a link: "pwd: /home/maya" is the working directory
        return PASSWORD
    if kind == SECURITY_ANSWER:
        return SECURITY_ANSWER if 2 <= len(v) <= 64 else None
    if kind == RECOVERY_PHRASE:
        words = v.split()
        if len(words) >= 12 and all(w.isalpha() for w in words):
            return RECOVERY_PHRASE
        return PRIVATE_KEY if looks_random(v) else None  # type: ignore[operator]
    if kind == SECRET:  # a chosen password needs a login beside it: see named_secret
        return GENERIC if looks_random(v) else None  # type: ignore[operator]
    if kind in (GENERIC, PRIVATE_KEY, TWO_FACTOR, "key"):
        if kind == "key" and (UUID.match(v) or re.fullmatch(r"[0-9a-fA-F]{32,128}", v)):
            return None
        if re.fullmatch(r"[A-Z2-7]{16,64}", v) and kind == TWO_FACTOR:
            return TWO_FACTOR
        if kind == TWO_FACTOR and re.fullmatch(r"(?=.*\d)[A-Za-z0-9]{3,8}(?:[- ][A-Za-z0-9]{3,8}){0,5}", v):
            return TWO_FACTOR  # a backup code: "sy36-c8xu", "KAOU2-4F6EU-CVIBB-B985L-O7GW6"
        if looks_random(v):  # type: ignore[operator]
            return GENERIC if kind == "key" else kind
        if kind == GENERIC and re.fullmatch(r"(?=.*\d)(?=.*[a-zA-Z])[A-Za-z0-9]{12,15}", v) and looks_random(v, 12) and generated(v):  # type: ignore[operator]
            return GENERIC  # a field named a token holds short ones too (ipinfo's: 14 hex)
        return None
    return None
