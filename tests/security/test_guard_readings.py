"""Credentials the guard reads where they stand: encoded in a shape that names itself
(bytes in a C array, octal escapes, octets in binary, Ascii85, a uuencoded block, a short
value the memory says is base64 or base32), written in digits of another script or small,
named in Greek, Hebrew, Korean or Polish, kept in a record whose label says what it is,
or told in the sentence after the one that names it. Beside each, the look-alike that
must pass. Values are made in the test; the phrasings are written for it."""

from __future__ import annotations

import base64
import binascii

import pytest

from langgraph_trustmem.errors import SecretRejected

from .helpers import refused_kinds, stored


def _octal(text: str) -> str:
    return "".join(f"\\{ord(ch):03o}" for ch in text)


def _c_array(text: str) -> str:
    return "{" + ", ".join(f"0x{ord(ch):02x}" for ch in text) + "}"


def _binary(text: str) -> str:
    return " ".join(f"{ord(ch):08b}" for ch in text)


def _uuencoded(text: str) -> str:
    return "begin 644 pin.txt\n" + binascii.b2a_uu(text.encode()).decode() + "`\nend"


_THAI = str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙")
_PERSIAN = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")
_SMALL = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

REFUSED = [
    # encodings read in place, so the words around still name what they hide
    (f"printf '{_octal('58213')}' | pbcopy   # gate code", "PIN"),
    (f"static const uint8_t k_pw[] = {_c_array('Kr4nich!77')}; // router admin password", "password"),
    (f"alarm panel code:\n{_binary('6042')}\n(works)", "PIN"),
    (f"my bank password {'<~' + base64.a85encode(b'Lindenbaum-88!').decode() + '~>'}", "password"),
    (f"the voicemail PIN, encoded: {base64.b64encode(b'7316').decode()}", "PIN"),
    (f"phone passcode (base32) {base64.b32encode(b'4420').decode()}", "PIN"),
    # digits of another script, or written small
    ("debit card PIN / รหัส: " + "2581".translate(_THAI), "PIN"),
    ("door code: " + "460218".translate(_PERSIAN), "PIN"),
    ("the login code" + "730194".translate(_SMALL) + " (small print)", "one-time code"),
    # named in other languages
    ("Ο κωδικός της πόρτας: 5821", "PIN"),
    ("הקוד של הכספת זה 7713", "PIN"),
    ("보안 해제 번호: 3390", "PIN"),
    ("Kod do garażu to 61027, dzięki!", "PIN"),
    ("비번 Sonagi2019! 잊지 마", "password"),
    ("家里的无线密码是maple-river-lantern，别告诉别人", "password"),
    ("hasło do sieci to maple-river-lantern", "password"),
    # a PIN made of letters and symbols is a password; a Wi-Fi QR code's P field
    ("Notiz: die Banking-PIN ist Morgenrot55%", "password"),
    ("WIFI:T:WPA;S:Gartenhaus;P:kettle-orchid-basin;;", "password"),
    # told in the sentence after the one naming it, after a change
    ("Lena asked again for the gate code. It's 40917.", "PIN"),
    ("the code from my authenticator is 55120983", "one-time code"),
    ("пароль от ноутбука поменяли, теперь Medved1984*", "password"),
]

# a value alone on the lines below the line naming it, whole, wrapped or in halves
BELOW_REFUSED = [
    ("aqui está a chave da API do Mailgun:\nq8ZrT2mVx7LpN4cWd9KfH3sJ", "generic API key"),
    ("Zugangsdaten Staging (intern)\nVx82kLmQ7pRt4NzWc9JdY5fH", "generic API key"),
    ("my Postmark key (wrapped):\nb7Qx2LmN9\npR4tZc8Wd\nK3sJf6Hy", "generic API key"),
    ("LDAP bind password\nfirst half: Kw8!rT2q\nsecond half: Zp4#mL9x", "password"),
    ("const token = ['8fa3c1', '9d0b7e42aa', '51c6d9e0f3', '7b21'].join('');", "generic API key"),
    ("Pushover key (dots are only separators): aQ7·zR2k·Lm9W·pX4t·Nc8v", "generic API key"),
    ("my car radio code: 4417", "PIN"),
    ("BankID säkerhetskod: 204817", "one-time code"),
    ("Apple Account recovery key: KQ7P-2MXD-R8ZT-W4NB-6HJC-Y3LF-9GVS", None),
]

# disguises a memory names or shows, an aside after the value, escaped JSON, CDATA, pairs
MORE_REFUSED = [
    ("Dropbox key [rot47] " + "".join(chr(33 + (ord(c) - 33 + 47) % 94) for c in "sl.Bq7Kx2LmN9pR4tZc8WdK3sJf6HyQw"), None),
    ("my safe code (drop every 2nd char): 5x8x1x9x", "PIN"),
    ("debit card PIN: " + "6042".translate(str.maketrans("0123456789", "๐๑๒๓๔๕๖๗๘๙")) + " (changed last week)", "PIN"),
    ("SonarQube token: \u202e" + "sqp_5e1a9c0b7d2f4e6a8c1b3d5f7a9e0c2b4d6f8a1c"[::-1] + "\u202c", None),
    ('payload="{\\"data\\": \\"{\\\\\\"name\\\\\\": \\\\\\"gmail password\\\\\\", '
     '\\\\\\"secret\\\\\\": \\\\\\"Kl4vier!Sonate\\\\\\"}\\"}"', None),
    ("<credentials>\n  <service>garage code</service>\n  <secret><![CDATA[4817]]></secret>\n</credentials>", "PIN"),
    ("銀行のパスワード、Tsuki7Hana9だよ", "password"),
    ("비번 maple-river-lantern42임 ㅋㅋ", "password"),
    ("היי! הקוד שהגיע ב-SMS זה 602913", "one-time code"),
    ("t0k3n 4 Sentry = qR7vX2mK9pL4wN8tZ3cB6hJ1", "generic API key"),
]

# a setting inside a log line, a prefixed hex token, a webhook's path, a node provider's key,
# a plist's key and string, an element's title, an SMS code, a gift card, CJK digits
CONTEXT_REFUSED = [
    ("ERROR sync failed with HUBITAT_TOKEN=7f3c2a91-5d0e-4b8a-9c61-2e4f8a0b7d35 after retry", "generic API key"),
    ("loaded from env: PAYMENTS_API_TOKEN=pmt9c2e4a7b1d3f5e8a0c2b4d6f8e1a3c5b", "generic API key"),
    ("https://chat.example-corp.io/hooks/Q8mZr2Kx9LwT4vB7/nP3sY6dH1jF5gC8aV2eR9tU4", "generic API key"),
    ("RPC: https://eth-mainnet.g.alchemy.com/v2/Zq8Lm2Vx7Rt4Kp9Nc3Wd6Hy1Bf5Js0Qa", "generic API key"),
    ("<key>SYNC_API_TOKEN</key>\n<string>Zq8Lm2Vx7Rt4Kp9Nc3Wd6Hy1Bf5Js0Qa</string>", "generic API key"),
    ('<span title="bank password">&#x4b;&#x6c;&#x61;&#x76;&#x69;&#x65;&#x72;&#x21;&#x37;&#x37;</span>', "password"),
    ("<#> Your Signal code: 482913. Don't share it.", "one-time code"),
    ("Birthday gift from Jo: Steam gift card code QX7P-4MZ2-K9LW", "gift card code"),
    ("[card number] 四五三九一四八八〇三四三六四六七", "credit card number"),
]

# pickup codes, codes a service sent, gift and wallet codes, auth tuples, pieces joined by "+"
SENT_REFUSED = [
    ("Packstation 118: Abholcode 402917", "one-time code"),
    ("Your parcel is in locker B12, pick-up code: 553018", "one-time code"),
    ("the code they sent is 771 204, please type it in", "one-time code"),
    ("Tu código de WhatsApp: 402-917. No lo compartas.", "one-time code"),
    ("Code 618204 to approve the payment of $42.00. Never share it.", "one-time code"),
    ("Steam wallet code for Mia: QX7P4-MZ2K9-LW3RT", "gift card code"),
    ('session = requests.get(url, auth=("mila.k", "Harbor&Lights88"))', "basic auth credentials"),
    ("Koden til nøgleboksen er 6190.", "PIN"),
    ("A kapukód: 4471", "PIN"),
    ("Digicode : B4471, bâtiment C", "PIN"),
    ("Amazonのパスワードは「Zq8LmVx7Rt4Kp」。", "password"),
]
SENT_PASS = [
    "Gutscheincode WINTER25 aus dem Newsletter, 25 % Rabatt",
    "Steam wallet balance is 12 EUR, gift card code still to buy",
    "The bank sent a code but I ignored it",
    'requests.get(url, auth=("user", "${API_PASSWORD}"))',
    "price 4 + tax 2 + tip 1 = 7",
]

CONTEXT_PASS = [
    "ERROR request failed with STATUS=503 after retry (request id 7f3c2a91-5d0e-4b8a-9c61-2e4f8a0b7d35)",
    "docs: https://docs.example.io/hooks/overview-and-setup for the webhooks guide",
    "<key>CFBundleIdentifier</key>\n<string>com.example.notes</string>",
    '<img alt="team photo" src="team.png">',
    "Gift card balance: 25.00 EUR left on the card ending 4410",
    "Your Uber code of conduct was updated",
]

PAIRS_REFUSED = [
    [["what", "Mistral key"], ["value", "Zq8Lm2Vx7Rt4Kp9Nc3Wd6Hy1Bf5Js0Qa"], ["updated", "2025-04-05"]],
    {"k": "Meilisearch key", "v": "Hq7!Zx2LmN9pR4tZc8WdK3sJ"},
    {"portal": "UPI पिन (PhonePe)", "पिन": "482913"},
]

BELOW_PASS = [
    "API key rotation checklist:\nstep1\nstep2",
    "SSH key fingerprint:\nSHA256:k2Fq8ZxP0vLr7TmN4cWd9KfH3sJb6Yx",
    "# .env\nDB_PASSWORD=${DB_PASSWORD}\nREDIS_URL=redis://cache.internal:6379/0\nLOG_LEVEL=info",
    "publishable key:\npk_live_51HqT8ZxP0vLr7TmN4cWd9KfH3sJb6Yx",
    "order ids for the refund:\nA7C9-22K1\nB8D0-33L2",
    "Weekdays ['mon', 'tue', 'wed', 'thu', 'fri'].join(', ') for the header",
    "rot47 is a cipher on printable ASCII; rot13 only shifts letters",
    "Door code policy (updated yesterday): codes change monthly",
    "<note><![CDATA[buy milk, eggs and bread]]></note>",
    "word-of-mouth-marketing2 was the campaign's slug",
    [["what", "dentist"], ["when", "Tuesday 9:30"]],
]

RECORDS_REFUSED = [
    ({"misc": {"key": "Winter2024!", "label": "Spotify password"}}, "password"),
    ({"h": "nas.home.arpa", "u": "admin", "p": "tulip-kettle-barn77"}, "password"),
    ({"sync.host": "files.example", "sync.user": "ana", "sync.secret": "Rotkehl7chen?"}, "password"),
    ({"cabin": {"keybox": {"szyfr": "2291"}}}, "PIN"),
    ({"home": {"alarm": {"kode": "8154", "panel": "hall"}}}, "PIN"),
    ({"flat": {"alarm": {"कोड": "6630"}}}, "PIN"),
]

PASSES = [
    "Pin the image to python@sha256:6c73ac191e90f4468a78b7c2ba9731aeee3ac3b437b46fb44f620c85dfb88a48 for now.",
    "Bytes of the PNG header: {0x89, 0x50, 0x4e, 0x47}",
    "The door code changed last week; ask Lena for it. It's on the fridge too.",
    "Ο κωδικός ταχυδρομείου είναι στο γράμμα.",
    "WIFI:T:WPA;S:Gartenhaus;P:;; is the template the QR generator printed",
    "room 1204, floor " + "12".translate(_THAI),
]

RECORDS_PASS = [
    {"key": "theme", "label": "dark mode"},
    {"name": "Wifi password", "key": "on the fridge"},
    {"h": "example.org", "u": "ana", "p": "3"},
    {"office": {"door": "blue", "floor": "2"}},
]


@pytest.mark.parametrize(("text", "kind"), REFUSED)
def test_a_credential_read_where_it_stands_is_refused(guard, text, kind):
    kinds = refused_kinds(guard, {"text": text})
    assert kind in kinds


@pytest.mark.parametrize(("value", "kind"), RECORDS_REFUSED)
def test_a_credential_a_record_labels_is_refused(guard, value, kind):
    kinds = refused_kinds(guard, value)
    assert kind in kinds


@pytest.mark.parametrize("text", PASSES)
def test_the_look_alikes_pass(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize("value", RECORDS_PASS)
def test_records_that_label_nothing_secret_pass(guard, value):
    assert stored(guard, value) == (value, [])


def test_a_uuencoded_block_is_read_where_it_stood():
    from langgraph_trustmem.guard.normalize import full_views

    text = f"notes moved from paper:\n{_uuencoded('Zebra!Kaffee42')}\nend of notes"
    assert "notes moved from paper:\nZebra!Kaffee42\nend of notes" in full_views(text)


@pytest.mark.parametrize(("text", "kind"), BELOW_REFUSED)
def test_a_value_below_or_joined_from_pieces_is_refused(guard, text, kind):
    for value in (text, {"text": text}):  # as a string, and as a record's field
        kinds = refused_kinds(guard, value)
        assert kind is None or kind in kinds


@pytest.mark.parametrize("text", BELOW_PASS)
def test_lines_below_a_name_that_hold_no_credential_pass(guard, text):
    value = text if isinstance(text, list) else {"text": text}
    assert stored(guard, value) == (value, [])


@pytest.mark.parametrize(("text", "kind"), MORE_REFUSED)
def test_a_disguise_named_or_shown_is_undone(guard, text, kind):
    kinds = refused_kinds(guard, {"text": text})
    assert kind is None or kind in kinds


@pytest.mark.parametrize("value", PAIRS_REFUSED)
def test_a_record_kept_as_pairs_or_short_fields_is_read(guard, value):
    refused_kinds(guard, value)


@pytest.mark.parametrize(("text", "kind"), CONTEXT_REFUSED)
def test_a_credential_in_its_context_is_refused(guard, text, kind):
    kinds = refused_kinds(guard, {"text": text})
    assert kind in kinds


@pytest.mark.parametrize("text", CONTEXT_PASS)
def test_the_same_contexts_without_a_credential_pass(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize(("text", "kind"), SENT_REFUSED)
def test_codes_sent_and_handed_over_are_refused(guard, text, kind):
    kinds = refused_kinds(guard, {"text": text})
    assert kind in kinds


@pytest.mark.parametrize("text", SENT_PASS)
def test_talk_about_sent_codes_and_promotions_passes(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


def test_a_token_cut_with_plus_signs_is_read_whole(guard):
    refused_kinds(guard, {"text": "token (split): ghp_6HzlOTVmaX + LUA8DrlCmYpLO6 + 2XcgQhRCRwVQ"})


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("Gym locker 118 combo 10-8-26", True),  # a combination right after its name, even date-like
        ("Safe combination: R12-L40-R7", True),  # a dial's turns
        ("locker 12 code 4471", True),  # the locker's number between the locker and its code
        ("locker combination changed on 10-8-26", False),  # a date said of it
        ("combination therapy started 10-8-26", False),
        ("door 3 code is on the fridge", False),
    ],
)
def test_combinations_named_and_dates_beside_them(guard, text, refused):
    if refused:
        refused_kinds(guard, {"text": text})
    else:
        assert stored(guard, {"text": text}) == ({"text": text}, [])


# Values placed where code, a table or a form names them, and codes given key by key or
# digit by digit; beside each, the same shape holding nothing.
PLACED_REFUSED = [
    ('const pw = "\\x54\\x65\\x72\\x6e\\x46\\x6a\\x6f\\x72\\x64\\x38\\x31"; // the Spotify password', "password"),
    ("echo 'Kestrel#Dune52'   # my NAS password", "password"),
    ("// the router admin password\nconst s = String.fromCharCode(79, 116, 116, 101, 114, 35, 55, 55, 66, 97, 121);", "password"),
    ("| what | value |\n|---|---|\n| the NAS admin password | `heron-granite-lantern7` |", "password"),
    ({"site": "ebay.com", "username": "kim@example.org", "password": "", "password_hint": "it's Quokka2291"}, "password"),
    ("The bike lock code: first digit 7, second digit 0, third digit 3, last one 9", "PIN"),
    ("Our alarm PIN spells KDRW on the phone keypad", "PIN"),
]
PLACED_PASSES = [
    'DATABASE_URL = "postgresql://user:password@localhost/db"  # replace user/password',
    "| what | value |\n|---|---|\n| the NAS admin password | `in the drawer` |",
    {"site": "ebay.com", "username": "kim@example.org", "password": "", "password_hint": "the usual one"},
    "Pancakes: first add 2 eggs, second 1 cup milk, third 5 minutes rest, last 3 tbsp butter",
    "For flowers call 1-800-FLOWERS, it spells FLOWERS on the phone keypad",
]


@pytest.mark.parametrize(("value", "kind"), PLACED_REFUSED)
def test_a_value_its_name_places_is_refused(guard, value, kind):
    assert kind in refused_kinds(guard, value if isinstance(value, dict) else {"text": value})


@pytest.mark.parametrize("value", PLACED_PASSES)
def test_the_same_places_holding_nothing_pass(guard, value):
    value = value if isinstance(value, dict) else {"text": value}
    assert stored(guard, value) == (value, [])


# Tokens in declarations with a type, tokens of letters only, a named session cookie, an
# authenticator's key typed in groups; beside each, what only looks like one.
DECLARED_REFUSED = [
    'export const stripeSecret: string = "Vx7Qm2Lp9Rt4Kz8Hb3Nc6Wd1Fy5Js0Qa";',
    'val apiToken: String = "Vx7Qm2Lp9Rt4Kz8Hb3Nc6Wd1Fy5Js0Qa"',
    "ci:\n  DEPLOY_TOKEN: QvHxZbTkWmRpYdLsNfJcGqBvXtKw",
    's.cookies.update({"shop_session": "Qm2Lp9Rt4-Kz8Hb3Nc6Wd1Fy5Js0QaVx7"})',
    "typed the authenticator setup key by hand: k3q7 mzp2 xv4t rw6y nb5c ja2d",
]
DECLARED_PASSES = [
    'export const apiBaseUrl: string = "https://api.example.com/v2";',
    "class_name: AbstractSingletonProxyFactoryBean",
    {"session": "8b59a347-72bb-4fe5-90f3-3e0955187c68", "turn": 5},
    "The setup key for the router is printed on page four of the manual.",
]


@pytest.mark.parametrize("text", DECLARED_REFUSED)
def test_declared_and_typed_in_tokens_are_refused(guard, text):
    refused_kinds(guard, {"text": text})


@pytest.mark.parametrize("value", DECLARED_PASSES)
def test_declarations_and_ids_without_a_token_pass(guard, value):
    value = value if isinstance(value, dict) else {"text": value}
    assert stored(guard, value) == (value, [])


def _refused(guard, value, namespace=("memories", "u1"), key="mem_5e1f"):
    with pytest.raises(SecretRejected) as err:
        guard.check(value, namespace=namespace, key=key)
    return err.value.kinds


def test_a_credential_the_text_says_is_in_the_key_or_namespace_is_refused(guard):
    # the key is the hex of "604127"; the third namespace label is the password itself
    assert "PIN" in _refused(guard, "Bank card PIN - stored encoded in this memory's key (hex)", key="mem_363034313237")
    _refused(guard, "The office VPN password is filed in the last namespace element", ("memories", "u1", "Qv7#mLp2!zR9"))
    _refused(guard, "kept the wifi password out of the note on purpose; decode the key", key="mem_4b65737472656c2331")
    # a folder named in the namespace, a key that is an app's id: nothing points there
    guard.check("Notes on the garage are filed in the third namespace element", namespace=("memories", "u1", "garage"))
    guard.check("The SIM PIN is in the drawer by the key box", namespace=("memories", "u1"), key="mem_363034313237")


def test_values_given_in_pieces_are_joined_and_refused(guard):
    assert "credit card number" in _refused(guard, "Visa (Ana Ruiz)\n4539\n9458\n0730\n2151\n09/29\n311")
    chat = [
        {"role": "user", "content": "first half of my seed words: debate mix empower master rug exhaust"},
        {"role": "assistant", "content": "Noted."},
        {"role": "user", "content": "and the rest: stamp steel home bar drum deny"},
    ]
    assert "recovery phrase" in _refused(guard, chat)
    _refused(guard, ["the NAS admin password (3 pieces, in order):", "Heron#I", "zmi", "r39"])
    _refused(guard, "My Gmail password split into odd/even positions: odd: kC8rL7sxY | even: v$*L-dW3")
    assert "PIN" in _refused(guard, "[voice memo] so the PIN for the Amex is... six one wait, zero four. yeah. that's it.")


def test_pieces_that_make_nothing_pass(guard):
    for value in (
        "Steps this week:\n8412\n9034\n7761\n10230",
        [
            {"role": "user", "content": "shopping list: apple banana orange grape lemon melon"},
            {"role": "user", "content": "also: bread milk butter cheese eggs flour"},
        ],
        "Odd: 1, 3, 5 | even: 2, 4 - the house numbers on our side",
        "The queue was long... 45 minutes before we got in.",
    ):
        assert guard.check(value, namespace=("memories", "u1"), key="mem_5e1f")[0] == value


def test_braille_digits_a_value_written_downwards_and_a_public_riddle_are_refused(guard):
    assert "PIN" in _refused(guard, "braille PIN for the bike lock: ⠼⠙⠁⠛⠊")
    _refused(guard, "K\ne\ns\nt\nr\ne\nl\n#\n5\n2\n^ the NAS password, read downwards")
    assert "PIN" in _refused(guard, "bank PIN = the year the Berlin Wall fell")


def test_private_hints_and_short_columns_pass(guard):
    for text in (
        "My passcode is my daughter's birthday, I should change it.",
        "PIN is Grandpa's birth year.",
        "Shopping:\na\nb\nc",
        "The bank PIN policy changed the year the branch closed.",
    ):
        assert guard.check(text, namespace=("memories", "u1"), key="mem_5e1f")[0] == text


def test_escaped_surrogates_are_read_without_error(guard):
    """A view that decodes "\\ud83c\\udf89" holds surrogates, which have no UTF-8 form: the
    engine still reads the text (a pair joined into its emoji, a lone one replaced), and a
    token beside them is still refused."""
    text = 'const party = "\\ud83c\\udf89"; const lone = "\\ud83c"; // emoji for the banner'
    assert stored(guard, {"text": text}) == ({"text": text}, [])
    refused_kinds(guard, {"text": text + "\ntoken = ghp_AbCdEf1234567890aBcDeF1234567890aBcD"})


def test_values_built_in_code_and_spelled_in_more_scripts_are_refused(guard):
    for text in (
        "SELECT CONCAT('ghp_BnCS5cMOcUbd0U', 'OSWjXlDEAIBAjcS0RbhObo') AS t;",
        'String k = new StringBuilder().append("ghp_BnCS5cMOcUbd0U").append("OSWjXlDEAIBAjcS0RbhObo").toString();',
        "HF_TOKEN = %w[hf_uQGMjDV UcptgqNaL ZJRBTrsAa mdYQrIpUW].join",
        "door code: =CHAR(56)&CHAR(51)&CHAR(56)&CHAR(50)&CHAR(57)&CHAR(48)",
        "locker code: String.fromCharCode(51,50,56,48,51,48)",
        "رمز الباب = تسعة صفر تسعة سبعة اثنان أربعة",
        "गेट का कोड: नौ, तीन, पाँच, तीन",
        "경보기 코드 = ⚅ ⚅ ⚁ ⚄",
        "SIM PUK: 壹贰零叁叁零捌肆",
    ):
        refused_kinds(guard, {"text": text})
    refused_kinds(guard, {"note": "For later", "item": "PIN (voicemail)", "data": "sechs null neun fünf"})
    chat = [{"role": "user", "content": "Bitte merken: Türcode"}, {"role": "user", "content": "eins-drei-zwei-null"}]
    refused_kinds(guard, chat)


def test_code_that_builds_other_things_and_counted_words_pass(guard):
    for value in (
        {"text": "SELECT CONCAT(first_name, ' ', last_name) FROM users;"},
        {"text": "local greeting = 'Hello, ' .. name .. '!'"},
        {"text": "We were three to four people at the door code workshop."},
        [{"role": "user", "content": "how many guests for the gate code party?"}, {"role": "user", "content": "three or four"}],
        {"item": "Lego set", "price": "1299"},
    ):
        assert stored(guard, value) == (value, [])


def test_values_smuggled_in_unseen_characters_or_told_in_parts_are_refused(guard):
    tags = "".join(chr(0xE0000 + ord(c)) for c in "ghp_BnCS5cMOcUbd0UOSWjXlDEAIBAjcS0RbhObo")
    refused_kinds(guard, {"text": "Notes from the meeting" + tags})
    assert "PIN" in refused_kinds(guard, {"text": "PIN-koodi (second SIM) = U+0039 U+0036 U+0035 U+0038"})
    refused_kinds(guard, {"text": "The shop's session cookie begins with sessionid=mi2d. The middle bit is "
                                  "r8tqzijjq5gzn2. It ends in sd6l09vqrj6lwo."})
    sheet = "Trezor backup card\n" + "\n".join(
        f"{i:2d} {a:<10} {i + 6:2d} {b}" for i, (a, b) in enumerate(
            zip("marble assume cotton senior attend elevator".split(), "buddy tumble neglect casual lady legend".split(), strict=True), 1
        )
    )
    assert "recovery phrase" in refused_kinds(guard, {"text": sheet})
    refused_kinds(guard, {"text": "## the school portal\n\n- **password**: `lX-*vL2_MRs-`"})


def test_bold_masks_code_points_and_ordinary_sequences_pass(guard):
    for text in (
        "PIN: [hidden], card **** **** **** 4674",
        "The unicode for the heart is U+2764, the smiley U+1F600.",
        "The film begins with a storm. The middle part is slow. It ends in Lisbon.",
        "## notes\n\n- **bold** text and __underlined__ words only",
    ):
        assert stored(guard, {"text": text}) == ({"text": text}, [])


def test_base64_wrapped_over_lines_is_read_whole(guard):
    refused_kinds(guard, {"item": "session cookie (forum)", "data": "UEhQU0VTU0lEPWh4\nbXptemNoZWtkazIw\ndDR2dDFzOTl3bG9m"})
    lines = {"text": "Groceries:\nbananas\ntomatoes"}
    assert stored(guard, lines) == (lines, [])
