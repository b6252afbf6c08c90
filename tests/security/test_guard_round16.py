"""The sixteenth round's rules, each seen from both sides: what is no one's secret is
masked before every reader of a memory, the record readers too (a Google OAuth client's id,
a minisign public key, a GnuPG signing key's id, placeholders in angle brackets, the PINs
statistics name, a gateway's test card in a bundled note); a note's headings ("Also:",
"Tax return:") are not a chat's speakers; a password variable passed on in code is not a
password; a sheet of backup codes and a dial safe's combination are known by their shape in
any language; a wallet's words are found as a record's items, fields, marked words or
written backwards, where the record names a wallet in any of more languages; a code or a
password beside words that say to keep it secret or to delete the message, in 30 languages;
a code named in one of 35 languages (what it opens, and "code" in the language), right after
its name or in the reply to a message naming it. The phrasings are written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from .helpers import refused_kinds, stored

REFUSED = [
    # the public shapes, with a secret in them or beside them
    "Google OAuth client secret: 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",
    "minisign secret key: RWRTY0IyXk9vZ3Jhbm9sYS1wcml2YXRlLWtleS1ib2R5LWZvci10ZXN0aW5nLW9ubHkK8sPq2",
    "public key: ghp_6U2o38ahWB8t1EaPDgWQQjmNYBHH5bhAIprM",
    "mongodb://admin:Xk9#pQ2!vL7m@cluster0.mongodb.net/app",
    "<password>Tangerine_Tide_41</password>",
    "My PIN is 1234 - the most common PIN, I know.",
    "wifi password again - Tr0ub4dor&3x",
    'conn = psycopg.connect(host="db", user="app", password="s3cr3t-Pw!9x")',
    "conn = psycopg.connect(host=HOST, user=USER, password=Winter2024Kx9)",
    # a sheet of backup codes, whatever the language around it: five or more of one shape
    "Codes de secours, gardez-les : 84066852 74022734 85060114 37347476 51790086 40128879",
    "84066852 74022734 85060114 37347476 51790086 40128879 13572468 97531246",  # eight: no word needed
    ["Kun je me de back-upcodes sturen?", "3f9a2-c81d0 77b1e-0a4c2 9d0e3-5b7f1 a2c4e-6f8d0 4b6d8-0f2a4 e1c3b-5d7f9"],
    {"dla": "biuro", "kody zapasowe": "k3p9-x2m7 q8w4-z1n6 t5r2-b9v3 h7j4-c6x1 m2n8-p4q7"},
    # a dial safe's combination: right, left, right
    "Kasa w biurze: R22 L48 R47",
    [{"from": "Ana", "text": "¿la caja fuerte?"}, {"from": "Luis", "text": "L 12 - R 30 - L 5"}],
    # a wallet's words kept as items, fields, marked words or backwards, named in any language
    ["7. cabin", "2. orbit", "11. velvet", "4. glance", "1. harbor", "9. canyon", "12. pulse", "3. timber",
     "5. lizard", "10. frost", "6. sketch", "8. meadow", "frase de recuperação"],
    {"wallet": "Trezor", **{f"w{i:02d}": w for i, w in enumerate(
        "harbor orbit timber glance lizard sketch cabin meadow canyon frost velvet pulse".split(), 1)}},
    "Bedtime story (wallet): the *harbor* and the *orbit* met a *timber* *glance*, a *lizard*, a *sketch*, "
    "a *cabin* in a *meadow*, a *canyon* of *frost*, *velvet* and *pulse*.",
    "frasa pemulihan: robrah tibro rebmit ecnalg drazil hcteks nibac wodaem noynac tsorf tevlev eslup",
    "Ana: ส่งวลีกู้คืนให้หน่อย\nBen: harbor orbit timber glance lizard sketch cabin meadow canyon frost velvet pulse",
    # a value the memory says to keep to oneself, whatever it calls the value
    "Cod pentru boxă: 558120. Nu spune nimănui!",
    "Šifra za skrinju u podrumu 7391#, nikome ne govori",
    [{"from": "Eli", "text": "szafka w pracy?"}, {"from": "Ola", "text": "4410, usuń potem wiadomość"}],
    "Mã tủ 20-14-7, đừng nói với ai nhé",
    "Voucher XK7P2M9QZ4T1, niet doorsturen!",
    "pw for the NAS hK8#vq2Lp, delete this after reading",
    # a code named in one of many languages, right after its name or in the reply asking for it
    "Nakumbuka: namba ya kengele (ofisi): 557302",
    "kod do skrytki na klucze (działka): 804411",
    "Notat: nøkkelbokskode (hytta) er 2719",
    "Recorda: codi de l'alarma del pis = 9034",
    {"Dùng cho": "nhà bà", "mã hộp chìa khóa": "6620B"},
    {"Για": "γραφείο", "κωδικός ντουλαπιού": "314"},
    ["Ola: Kan du sende skabskode (kontoret)?", "Per: 7720"],
    [{"from": "Ali", "text": "ما هو رمز الكراج (البيت)؟"}, {"from": "Sami", "text": "*4471"}],
    # the review's smuggling through the round's masks and exemptions
    "<your-password>: BlueHeron#2291 (hers, for the shared iPad)",
    "Webhook signingkey: 9F3A2B1C4D5E6F70 (keep secret, used to HMAC the payloads)",
    "Datadog API key: 123456-4f3c9a8b7e6d5c4b3a2f1e0d9c8b7a69.apps.googleusercontent.com",
    "Grandma's bank card PIN is 1111 - one of the most common PINs, I know.",
    "Quick question: what's the wifi password?\nAnswer from Tom: BlueHeron#2291",
    # a real chat still is one
    "Ana: what's the wifi password?\nBen: Mango!1955",
    "Re: house\nBen: what's the door code?\nAna: 4471",  # a heading line does not undo the chat
    "Coffee order: flat white.\nAlso: my Visa 4539 5787 6362 1486 exp 09/29",
]

PASSES = [
    "OAuth client ID (not a secret): 123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com",
    "release signing, minisign public key: RWQf6LRCGA9i53mlYecO4IzT51TGPpvWucNSCh1CBM0QTaLn73Y7GFO3",
    "gpg key id 0x3AA5C34371567BD2 (the signing key in .gitconfig: signingkey = 8B54A49A9E1221C7)",
    "Slept 6h, woke up twice.\nAlso: mongodb://<username>:<password>@cluster0.example.mongodb.net",
    "Fun fact: 1234 is the most common 4-digit PIN, then 1111 and 0000.",
    "Most common 4-digit PINs: 1234, 1111, 0000 - never use those.",
    "Quentin forgot the wifi password again - it's on the sticker under the router.",
    "conn = psycopg.connect(host=HOST, user=USER, password=password)",
    ["password = getpass.getpass('Password: ')", "db = connect(user=USER, password=password)"],
    "Coffee order: flat white.\nAlso: Stripe test card 4000 0566 5566 5556, any expiry, sandbox only",
    # secrecy beside no value: a date, a time, an amount, a year, a product's name
    "Surprise party for Lena on 2026-03-14 at 19:30 - don't tell anyone!",
    "Gift budget 1500 € this year, nicht weitergeben",
    "Ask Liam for the 1Password vault; don't share creds over Slack.",
    "Never share the 6-digit code the bank texts you with anyone who calls.",
    "Entre nous: we moved here in 2019.",
    # a code's name beside a number that is no code: an order's, a locker's, a date, a year
    "서점 주문번호 #300101, 금요일까지 도착 예정.",
    "ロッカー番号 12 は二階",
    "Alarmanlagen-Code geändert am 2025-04-03, neuer im Passwortmanager",
    "Garagentor-Code seit 2019 nicht geändert",
    ["Ola: Kan du sende skabskode (kontoret)?", "Per: jeg sender den i morgen"],
    # the independent review's look-alikes of the round's rules
    "Surprise party for Mum - don't tell anyone! Meet at the pub at 1830.",
    "Don't tell anyone I paid $4500 for the bike.",
    "Build dates: 20240101 20240108 20240115 20240122 20240129 20240205",
    "Invoice numbers paid: 40021873, 40021874, 40021875, 40021876, 40021877",
    "Physio: side lunges R10 L10 R10, then rest",
    "Szafka ma 180 cm wysokości i 60 cm szerokości.",
    "Szafka kod produktu: 30214588, kolor biały.",
    "Shopping list for the wallet shop trip:\n- apple\n- butter\n- cheese\n- coffee\n- lemon\n- garlic\n"
    "- onion\n- potato\n- salad\n- tomato\n- banana\n- bread",
    # the look-alikes beside the new shape rules
    "Seasons played: 2019-2020 2020-2021 2021-2022 2022-2023 2023-2024",
    "Two codes left: 84066852 74022734",
    "Request ids: 1a2b3c4d 5e6f7a8b 9c0d1e2f",
    "Knitting: R1 R2 R3 plain, then purl",
    "Spelling words: 7. cabin 2. orbit 11. velvet",
    ["1. harbor", "2. orbit", "3. timber", "4. glance", "5. lizard", "6. sketch", "7. cabin", "8. meadow",
     "9. canyon", "10. frost", "11. velvet", "12. pulse", "spelling words for Friday"],
]


@pytest.mark.parametrize("value", REFUSED)
def test_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
