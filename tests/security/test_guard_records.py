"""The guard's ninth round: credentials split across a record, disguised inside it, or
kept in the memory's key and namespace; encodings undone where they stand; and what the
earlier rounds passed that is no one's secret (publishable keys, test cards in a record
about testing, a hash algorithm's name).

Every case goes through ``Guard.check`` as ``TrustStore.put`` calls it; the values and
phrasings are written for this test (made-up tokens of each shape), not taken from the
corpora."""

from __future__ import annotations

import base64
import codecs

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard
from langgraph_trustmem.guard.detectors import card_spans

TOKEN = "Tq7vR2xLm9KpW4zN8cYb3HdF6gJs1QeA"  # a made-up 32-character service token
CARD = "4539 5787 6362 1486"  # Luhn-valid, not a published test card

REFUSED = [
    # pieces of a token around the item that names it, in a record, a list, a nested record
    ({"service": "Quillpad api key", "p1": TOKEN[:9], "p2": TOKEN[9:20], "p3": TOKEN[20:], "note": "glue them"}, "generic API key"),
    (["Ledgerly token", TOKEN[:11], TOKEN[11:23], TOKEN[23:]], "generic API key"),
    ({"label": "Corvid secret key", "bits": {"x": TOKEN[:16], "y": TOKEN[16:]}}, "generic API key"),
    (["Orbit deploy token (1/3): " + TOKEN[:10], "(2/3) " + TOKEN[10:21], "part 3 of 3: " + TOKEN[21:]], "generic API key"),
    (
        [
            {"role": "user", "content": "sending the Ferrywork auth token in pieces"},
            {"role": "user", "content": TOKEN[:14]},
            {"role": "user", "content": TOKEN[14:]},
        ],
        "generic API key",
    ),
    # disguised where the record says how: reversed, rot13, base64, hex, character codes, spaced
    ({"v": TOKEN[::-1], "how": "backwards", "for": "Pylon access token"}, "generic API key"),
    ({"for": "Marlin api key", "enc": "rot13", "data": codecs.encode(TOKEN, "rot13")}, "generic API key"),
    ({"for": "Marlin api key", "blob": base64.b64encode(TOKEN.encode()).decode()}, "generic API key"),
    ({"name": "Heron api token", "hex": TOKEN.encode().hex()}, "generic API key"),
    ({"what": "Sable api key", "codes": [ord(c) for c in TOKEN]}, "generic API key"),
    ({"what": "Sable api key", "value": " ".join(TOKEN[i : i + 4] for i in range(0, 32, 4))}, "generic API key"),
    # a password in pieces with their own labels
    (["Steam password, part 1/3: Pe", "part 2/3: bble", "part 3/3: 77Rook!"], "password"),
    # a card number written backwards, backup codes listed
    ({"n": CARD.replace(" ", "")[::-1], "hint": "reverse it", "for": "debit card"}, "credit card number"),
    (["GitLab recovery codes", *[f"{a}7{b}2-{b}9{a}4" for a, b in zip("abcdefgh", "qrstuvwx", strict=True)]], "one-time code"),
    ([f"{a}4{b}c9-{b}7{a}21" for a, b in zip("abcdefghij", "klmnopqrst", strict=True)], "one-time code"),
    # a token beside an ordinary note about it
    ({"service": "Ledgerly", "note": "token updated today", "v": TOKEN}, "generic API key"),
    # a wallet key in pieces
    (["Rabby wallet private key", "0x" + "3f9a" * 4, "c1d7" * 4, "8e2b" * 4, "5a06" * 4], "generic API key"),
]


@pytest.mark.parametrize(("value", "kind"), REFUSED)
def test_a_split_or_disguised_credential_in_a_record_is_refused(value: object, kind: str) -> None:
    with pytest.raises(SecretRejected) as err:
        Guard().check(value, namespace=("memories", "u1"), key="mem_1")
    assert kind in err.value.kinds


PASSES = [
    # records that name a key but hold ids, hashes, prose or nothing of a token's shape
    {"service": "Ledgerly", "what": "token usage this week", "run1": 5255, "run2": 8065, "run3": 7731},
    {"note": "Bought some USDC token", "tx": "0x" + "5c504ed4" * 8},
    ["HLTH-1021", "HLTH-1022", "HLTH-1035", "HLTH-1040", "HLTH-1057", "HLTH-1063", "HLTH-1078", "HLTH-1090"],
    {"what": "Spare key for mum", "when": "Friday", "locker": "C34", "sku": "SKU-95124", "bay": "B33"},
    {"title": "Pat's birthday", "gift": "book", "wishlist": "3KQ9ZX2L7M1WPRTB8VNC"},
    {"title": "signing key", "fingerprint": "SHA256:Jq8sLk2mN4pR7tV1wX3yZ5aB9cD6eF0gH2jK4lM6nP8"},
    {
        "title": "Errands",
        "items": [
            "Spare key is under the blue pot by number 12.",
            "Library card number for the form: 204 118 3391.",
            "Pick up the parcel, locker 3 of 6, code comes by SMS.",
        ],
    },
    ["room 1201", "room 1202", "room 1203", "room 1204", "room 1205", "room 1206", "room 1207", "room 1208"],
    ["k2m4p6r8", "t1v3x5z7", "b2d4f6h8", "j1l3n5p7", "q2s4u6w8", "y1a3c5e7", "g2i4k6m8", "o1q3s5u7"],
    {"card": "gift card", "balance": "25.00", "codes": ["SPRING25", "SUMMER10"]},
    {"what": "api key rotation checklist", "steps": ["create new", "deploy", "revoke old"]},
    # an independent review's false positives: ids, SKUs and flights in lists, statistics
    {"skus": ["TSH12-BLK01", "TSH12-BLK02", "TSH12-WHT01", "TSH12-WHT02", "TSH12-RED01", "TSH12-RED02", "TSH12-GRN01", "TSH12-GRN02"]},
    ["Lab result codes", "12345678", "22345678", "32345678", "42345678", "52345678", "62345678"],
    "token counts per message: 112, 87, 65, 99, 120, 76, 54, 83, 101, 68, 90, 73, 57, 110, 88, 49",
    "Login code bug fixed in PR #2019",
    "SSID ClinicGuest / 0800123456 for support",
    "kluis op kamer 1412",
    "сейф в номере 1412",
    # a second review's: phone numbers of an emergency card, referral numbers, storage labels
    {"title": "Emergency card for Dad", "phones": ["9123 4567", "8765 4321", "6234 5678", "9988 7766", "8123 4455", "6789 0123"]},
    {"title": "Post-surgery recovery: insurance card and referral numbers", "refs": ["48213377", "59123401", "60234518", "71345629", "82456730", "93567841"]},
    ["bike-2041", "tent-1182", "oven-3390", "sofa-7712", "lamp-0931", "desk-4410", "fan1-9982", "rug2-7734"],
    {"type": "loyalty card", "data": "9922001122334455"},
    ["Bus pass", "Milk", "Eggs", "B12", "Omega3", "Bread"],
    # a code of the right shape with nothing naming it, a date after a lock word
    {"hotel": "Casa Azul", "room": "214", "checkout": "11:00"},
    "We changed the door lock on 12-05-24 and the old keys are gone.",
]


@pytest.mark.parametrize("value", PASSES)
def test_records_that_only_look_like_a_split_credential_pass(value: object) -> None:
    Guard().check(value, namespace=("memories", "u1"), key="mem_7a3f9c21")


@pytest.mark.parametrize(
    ("namespace", "key", "value", "kind"),
    [
        (("memories", "u8", "5813"), "mem_0c1d2e3f", "Debit card PIN - see path", "PIN"),
        (("memories", "u8"), "R4417", {"note": "gate code (value in key)"}, "PIN"),
        (("memories", "u8", "codes", "portao-da-frente", "90317"), "mem_1", {"note": "stored in namespace"}, "PIN"),
        (("memories", "u8"), "mem_5183", "see key", "PIN"),
        (("memories", "u8"), "Saffron#Harbor51", "see key", "password"),
        (("memories", "u8", "Petra1987"), "mem_a1b2c3d4", "Gmail密码 - see path", "password"),
        (("memories", "u8", TOKEN), "mem_a1b2c3d4", {"note": "Koala api token stored in namespace"}, "generic API key"),
        (("memories", "u8", "4471"), "mem_a1b2c3d4", {"kind": "credential-ref", "owner": "Ines"}, "PIN"),
        (("memories", "u8"), "mem_Lagoon%Ember62", {"type": "credential", "source": "chat"}, "password"),
        (("memories", "u8"), "Quartz!Meadow84", "Spotify password", "password"),
        (("memories", "u8"), "mem_5521", "Garagencode: siehe Schlüssel", "PIN"),
        (("memories", "u8"), "mem_5521", "code du portail : voir la clé", "PIN"),
        (("memories", "u8"), "mem_5521", {"note": "gate code: look at the key"}, "PIN"),
    ],
)
def test_a_credential_kept_in_the_key_or_namespace_is_refused(namespace, key, value, kind) -> None:
    with pytest.raises(SecretRejected) as err:
        Guard().check(value, namespace=namespace, key=key)
    assert kind in err.value.kinds


@pytest.mark.parametrize(
    ("namespace", "key", "value"),
    [
        (("memories", "u8"), "3b1f8a9e-2c44-4d1e-9a77-0f5b6c7d8e9a", "Spare key is kept in the key safe by the door"),
        (("memories", "u8"), "3b1f8a9e-2c44-4d1e-9a77-0f5b6c7d8e9a", "Wifi password is on the fridge; check the folder"),
        (("users", "48213", "memories"), "mem_1", "Bank card PIN letter is kept in the folder in my desk drawer"),
        (("users", "48213", "memories"), "mem_1", {"type": "login", "service": "patient portal"}),
        (("memories", "u8"), "mem_7301", "Door code changed last week; see key"),
        (("memories", "u8"), "flight_LH454", "Boarding pass PDF is saved in the folder Travel"),
        (("memories", "u8"), "V1StGXR8_Z5jdHi6B-myT", "House key is in the drawer"),
        (("memories", "u8"), "mem_c6ffba10", {"type": "credential", "source": "chat"}),
        (("memories", "u8"), "note_2211", {"kind": "credential", "owner": "u1"}),
        (("memories", "u8"), "Quartz!Meadow84", "Spotify password changed today"),
        (("memories", "u8"), "mem_5521", "look at the key under the mat"),
        (("memories", "u8"), "mem_5521", "voir la clé USB pour les photos"),
        (("memories", "u8"), "Pasta&Pesto2024!", "my favourite recipes"),
        (("memories", "u8"), "mem_c6ffba10", "see the key docs for the API"),
        (("memories", "u8", "2024"), "mem_c6ffba10", "photos from the trip: see folder 2024"),
        (("memories", "u8"), "mem_c6ffba10", "see key"),
        (("memories", "u4471"), "mem_c6ffba10", "PIN changed, see key"),
    ],
)
def test_pointers_to_labels_that_hold_no_credential_pass(namespace, key, value) -> None:
    Guard().check(value, namespace=namespace, key=key)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        # encodings undone where they stand, so the words around them still name them
        ('deploy_token = bytes.fromhex("' + TOKEN.encode().hex() + '").decode()  # deploy token', "generic API key"),
        ("mot de passe du routeur : " + " ".join(f"{b:02x}" for b in b"Rx9!lampe#Toit"), "password"),
        ("api_key = String.fromCharCode(" + ", ".join(str(ord(c)) for c in TOKEN) + ")", "generic API key"),
        ('export SERVICE_TOKEN="' + TOKEN[:12] + '\\\n' + TOKEN[12:24] + '\\\n' + TOKEN[24:] + '"', "generic API key"),
        # prose in more words and languages
        ("dørkoden er 4812", "PIN"),
        ("Wifi-kodeord: vinter7Sol", "password"),
        ("mon mot de pass Fnac c'est Tortuga2291!", "password"),
        ("remember the mail passwrod its river-stone-cabin41", "password"),
        ("kapi kodu B4471", "PIN"),
        ("clave de la alarma 1987#", "PIN"),
        ("ロッカーの番号 7713#", "PIN"),
        ("la cassaforte dello studio: 204417", "PIN"),
        ("Der Tresor im Keller öffnet mit 55812", "PIN"),
        ("رمز البوابة 5520", "PIN"),
        ("الرقم السري لبطاقتي 8831", "PIN"),
        ("garden shed lock code 14-38-22", "PIN"),
        ("Dropbox recovery code: QW7RT-9ZXCV-B2NM4-KLP8A", None),
        ("authenticator setup key for Kraken 2FA: mz4q 7rtb k2wx p5ha", None),
        ("pergunta secreta do cartão: Tartaruga", "security question answer"),
        ("Gäste-WLAN-Schlüssel (Router im Flur) Wiese7Regen", "password"),
        # a card followed by its expiry or its code, grouped or not
        ("Mum's Visa for the chemist: " + CARD + " 09/29", "credit card number"),
        ("Visa " + CARD.replace(" ", "") + " 12/31 cvv on back", "credit card number"),
        ("card " + CARD.replace(" ", "") + " 123", "credit card number"),
        (CARD + " 12 31", "credit card number"),
        # a service token stored beside an ordinary note
        ("Ledgerly token updated today: " + TOKEN, None),
        # a publishable key in front of a secret hides nothing
        ("public pk_live then the secret sk_live_" + TOKEN, None),
    ],
)
def test_texts_refused_after_the_ninth_round(text: str, kind: str | None) -> None:
    with pytest.raises(SecretRejected) as err:
        Guard().check({"text": text})
    assert kind is None or kind in err.value.kinds


@pytest.mark.parametrize(
    "value",
    [
        "The hotel safe is in the wardrobe next to room 1204.",
        "la caja fuerte del hotel cuesta 20 euros al día",
        "Tresor im Hotelzimmer ist seit 2023 kaputt",
        "recovery code generated on 2024-05-01 and stored in the password manager",
        "Our guest Wi-Fi is CasaVerde_24 / no password needed",
        "alarm kodu değiştirildi 2024",
        "setup the 2FA app tomorrow morning",
        "Flight code AB1234 departs 10:45",
        "Rent goes to DE60 5101 5875 2967 8891 75, reference March",
        "Rent goes to NL91 4539 5787 6362 1486 00, reference March",
        "[auth]\npassword_hash = argon2id\nmfa_required = true",
        "posthog.init('phc_" + TOKEN + "', { api_host: 'https://eu.posthog.com' })",
        "stripe publishable key pk_live_" + TOKEN,
        {"test_card": "4000 0000 0000 9995", "source": "Stripe docs", "purpose": "declines"},
        "The metamask extension asked me to update, so I did.",
        "Safe at the bank: box 1187, annual fee 120 EUR, renewal in March.",
        "Hotel safe receipt: deposit slip 550912 at the front desk for the jewelry.",
        "Coffre-fort loué à la banque, contrat 8821904, agence de Lyon Part-Dieu.",
        "Tresor im Keller, Modell Burg-Wächter 4510, Schlüssel beim Nachbarn.",
        "Kluis bij de ABN AMRO, kluisnummer 4418, sleutel in de la.",
        "Im Notfall: Alarmnummer 112, Hausnotruf-Taste am Armband.",
        "Turned on 2FA for host web01-prod-east, ticket inc-4821-ab12.",
        "2FA enabled on laptop-home-2024.",
        "Calories this week: 2426 2646 2410 2285 2473",
    ],
)
def test_what_is_no_ones_secret_passes(value: object) -> None:
    with_card = isinstance(value, dict)
    _, redacted = Guard(redact=() if with_card else ("CARD",)).check(value)
    assert redacted == []


def test_a_grouped_card_keeps_its_span_when_an_expiry_follows() -> None:
    text = "card " + CARD + " 11/30"
    spans = card_spans(text)
    assert [text[a:b] for a, b in spans] == [CARD]
