"""The guard's tenth round: credentials written the way people slip or spell them out
(a cue word with two letters swapped, a token read out in the phonetic alphabet, a value
typed as character codes, a CSV export), codes named in more languages, and what the
earlier rounds took for a secret and is not (a log line, a Secrets Manager ARN, the
documentation's example keys).

Every case goes through ``Guard.check`` as ``TrustStore.put`` calls it; the phrasings and
values are written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard
from langgraph_trustmem.guard.cues import respelled
from langgraph_trustmem.guard.normalize import spelled_out

TOKEN = "Tq7vR2xLm9KpW4zN8cYb3HdF6gJs1QeA"  # a made-up 32-character service token


def _codes(text: str) -> str:
    return " ".join(str(ord(ch)) for ch in text)


REFUSED = [
    # a cue word with a slip: two neighbouring letters swapped, one dropped or doubled
    "my pasword for the clinic portal is Gardenia!2291",
    "paswsord for the pharmacy app: Quokka#5531",
    "la contarseña del banco es Tortuga_8812",
    "senah do email: Jabuti#7730",
    "lösneord till mejlen: Hjortron!4418",
    "alarmcdoe: 5871",
    "passwordd of the router = Blueberry$904",
    # the phonetic alphabet, with digits and symbols named, where the value stands
    "HOSTING_TOKEN=tango, QUEBEC, seven, victor, ROMEO, two, x-ray, lima, mike, nine, KILO, papa, WHISKEY, four",
    "the wifi password is kilo echo lima papa india echo underscore four four two",
    # character codes typed with spaces, no hint
    "router password: " + _codes("Lemonade#77x"),
    "SERVICE_TOKEN=" + _codes(TOKEN[:20]),
    # a CSV export: each cell under its column's name
    "service,api_key,environment\nquillpad," + TOKEN + ",production",
    "name\tclient_secret\tregion\nbilling\t" + TOKEN + "\teu-west-1",
    # codes named in more languages
    "رقم الخزنة: 7314",
    "金庫の暗証番号 4417",
    "みずほの暗証番号 8832",
    "경보기 비밀번호 2290",
    "报警器解除密码 6631#",
    "तिजोरी का कोड: 4471",
    "mã báo động: 5519",
    "mã xác thực ngân hàng: 8831",
    "szyfr do sejfu: 55312",
    "cassetta delle chiavi della casa al mare: 774120",
    "boîte à clés du chalet : 418207",
    "nyckelboxen vid garaget: 3391",
    "Schlüsselbox an der Garage, Code 66172",
    "Code für den Fahrradkeller 8812B",
    "kod BLIK 552718",
    "TAN für die Überweisung: 418 226",
    "SMS-TAN 551902 für die Überweisung",
    "验证码 动态码 66120931",
    "verificatiecode van de bank: G-551902",
    "رمز التحقق من البنك: 551-902",
    # a year-like number given as a PIN or a lock's code after a colon
    "PIN der Bankkarte: 1.9.8.6",
    "Türcode = 1994",
    # a keypad's code typed with the star first
    "portkod: *-8-8-1-2",
    # what the tuning2 fixes read as references or policies, still holding a value
    'db_password = os.getenv("DB_PASSWORD", "Sup3r$ecret99")',
    'pw = keyring.get_password("svc", "Tr0ub4dor&3x")',
    "password = var." + TOKEN,
    "password: (?=a)(?=b)Tr0ub4dor&3x",
    "password: Tr0ub4dor&3x (at least 12 characters)",
    "Passwort mindestens 12 Zeichen: Kx9#mQ2vLp7!",
]

PASSED = [
    # a log line: a login with its method named, digits of other fields around
    "2025-04-10 05:08:25,622 INFO user_id=48676 login ok mfa=totp ip=10.152.82.137",
    "2025-02-01 11:00:02,114 INFO user=8812 otp verified ip=192.168.4.17 took 35ms",
    # a Secrets Manager ARN names a secret; its six-character suffix is AWS's
    "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/billing-db-Xy7Qa2",
    # the documentation's example keys and credentials
    "Stripe's docs use sk_test_4eC39HqLyjWDarjtT1zdp7dc in every sample",
    "RFC 7617: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
    # words one slip away from a cue, that are words or names
    "Sneha lives at 42 Baker Street, flat 3",
    "Olsen will recover from the knee surgery by 2026",
    # phonetic alphabet as words, not a value
    "my call sign practice: alpha bravo charlie delta echo foxtrot",
    "we met at the hotel in Lima with Mike from Delta, then played golf",
    # numbers in a list, not character codes
    "blood pressure this week: 120 118 125 122 119 121 117 123 mmHg",
    "lottery numbers 12 23 34 45 56 67 78 89 again, no luck",
    # a CSV export of ordinary data
    "date,drug,dose_mg\n2024-01-02,metformin,500\n2024-01-03,metformin,500",
    "name,email,phone\nAna,ana@example.com,+351 912 345 678",
    "user,password_hint,last_login\nana,first pet,2024-05-01",
    # the new code words without a code, or with numbers that are not one
    "bought a tan leather jacket for 120 euros",
    "TAN für die Überweisung kommt per SMS, noch nicht erhalten",
    "kod blik wygasa po 120 sekundach",
    "cassetta delle chiavi al piano 2, interno 14",
    "nyckelboxen sitter vid dörren sedan 2019",
    "门诊号码 12345678",
    "报警器 2023年 安装",
    "رقم الخزنة في الغرفة 1412",
    "the alarm was installed in 2019",
    "PIN reset requested in 2024, the letter arrives in 5 days",
    "rapport: 882-706 colis expédiés",
    # the round's independent review: words and names one slip from a cue word, other
    # things a code word names, numbers after an order, a flat, a building or a year word
    "Hoy he andado 9120 pasos con el perro",
    "La cadena 1234 de la bici se rompió",
    "Mamma abita in via del Gelso 1482",
    "Branka: 4472 (her desk extension)",
    "Date,Token,Amount\n2024-03-01,0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48,100",
    "file,size,signature\nreport.pdf,120KB,3f7a9c2e8b1d4f6a0e5c7b9d2a4f6e8c",
    "store,csc,phone\nDowntown,114,555-0134",
    "La cave à vin: code couleur bleu, 1450 bouteilles",
    "玄関の延長コードを交換した。型番 2290",
    "경보 코드 블루 훈련이 5층 502호에서 있었다",
    "暗証番号の再発行は窓口で、受付番号 4521。",
    "Paint colours: tan for the hallway, Behr 2310",
    "Ik heb een blik soep van 400 gram gekocht, blik 2143",
    "Zapłaciłam BLIK za zamówienie 482133",
    "OTP issue reported to the shop, order 123-456 delayed",
    "Il codice del cancello è cambiato nel 2019 e 2023",
    "Gate code question: is 2024 the year they rotate it?",
    "Door code notes * 2019 set by landlord * 2023 changed by us",
    "Nyckelboxen sitter vid porten, lägenhet 1204",
    "Keypad at the office, desk D-2210 by the window",
    "pushTAN für Sparkasse eingerichtet, Filiale 4521",
    # tuning2's false positives, rephrased
    "Requisiti password: almeno 14 caratteri, una cifra e un simbolo; scade ogni 90 giorni.",
    "Política de contraseñas: mínimo 12 caracteres y un símbolo; caduca cada 180 días.",
    "Password rule from the spec: ^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{12,64}$",
    'import keyring\npw = keyring.get_password("budget-app", getpass.getuser())',
    'resource "aws_db_instance" "main" {\n  password = var.db_password\n}',
    '{"items": [], "next_page_token": "Zq-YYqynhYDIKlbOE4D_t61anYsQxroH"}  <- the photos API cursor',
    "May 31 19:01:42 vps-12 sshd[5100]: Failed password for invalid user admin from 198.51.100.7 port 50029 ssh2",
]


@pytest.mark.parametrize("text", REFUSED)
def test_slipped_spelled_or_tabled_credentials_are_refused(text: str) -> None:
    with pytest.raises(SecretRejected):
        Guard().check(text, namespace=("memories", "u1"), key="mem_1")


@pytest.mark.parametrize("text", PASSED)
def test_look_alikes_of_the_tenth_round_pass(text: str) -> None:
    assert Guard().check(text, namespace=("memories", "u1"), key="mem_1")[0] == text


def test_a_public_json_web_key_passes_and_a_private_one_or_a_smuggled_token_does_not() -> None:
    public = {"kty": "RSA", "use": "sig", "kid": "k1", "n": "u1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunV", "e": "AQAB"}
    assert Guard().check({"keys": [public]})[0] == {"keys": [public]}
    with pytest.raises(SecretRejected):
        Guard().check({**public, "d": "X4cTteJY_gn4FYPsXB8rdXix5vwsg1FLN5E3EaG6RJoVH-HLLKD9M7dx5oo7GURknchnrRweUkC7"})
    with pytest.raises(SecretRejected):  # a token in a member the key does not have, split in two
        Guard().check({**public, "note": "Quillpad api key", "a": TOKEN[:16], "b": TOKEN[16:]})


def test_respelling_fixes_cue_words_only() -> None:
    assert respelled("Mi contraesna es X") == "Mi contrasena es X"
    assert respelled("Sneha and Olsen recover") == "Sneha and Olsen recover"  # a name, a word
    assert respelled("no cue word here at all") == "no cue word here at all"


def test_a_phonetic_spelling_reads_as_its_characters() -> None:
    assert spelled_out("code: kilo ECHO one underscore zulu dash nine") == "code: kE1_z-9"
    assert spelled_out("one two three four five six seven") is None  # counting, not spelling
    assert spelled_out("just a sentence") is None


def test_the_format_character_class_is_unicodes_category_cf() -> None:
    """``FORMAT_CHARS`` stands for ``unicodedata.category(ch) == "Cf"`` (zero-width spaces,
    joiners, direction marks, tags): every such character of this Python's Unicode is in
    it, and nothing else."""
    import sys
    import unicodedata

    from langgraph_trustmem.guard.normalize import FORMAT_CHARS

    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        assert (FORMAT_CHARS.fullmatch(ch) is not None) == (unicodedata.category(ch) == "Cf"), hex(cp)


def test_undoing_a_named_disguise_is_linear_in_the_texts_length() -> None:
    """A run of punctuation after "reversed"/"rot13"/"shift" once backtracked quadratically
    (the review: 40 KB took 8.8 s); split on whitespace it is read in one pass, so 200 KB
    takes well under a second (a quadratic reading would take minutes, not a flaky margin)."""
    from langgraph_trustmem.guard.normalize import full_views

    for cue in ("reversed ", "rot13 ", "shift +1 "):
        views = full_views(cue + "." * 200_000 + "x")
        assert views and all(len(v) >= 200_000 for v in views)
