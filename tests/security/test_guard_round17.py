"""The seventeenth round's rules, each seen from both sides. More languages: a password
named in Estonian, Lithuanian, Finnish (inflected), Bulgarian, Croatian and Serbian, Slovene,
Catalan, Galician, Romanian, Turkish, Swahili, Malay, Icelandic, Albanian, Welsh, Persian and
Tagalog, with their copulas ("on", "yra", "е", "ni", "ay": only before a value that reads as a
password); a security question in 30 more languages; a verification code in 30 more (a
"confirmation" code only where the line says it came by SMS: bookings have them too); a door's,
an alarm's or a safe's code in more languages, a keypad letter first ("B7543"); a safe's
number at a sentence's end and its dial turns written out. A reply that gives the value first
and goes on ("5512 then hit enter"); a caller who sent a code and asks for it back; an "=" among a
password's symbols; a card number glued to a CJK label; an Authorization header's bearer value
whatever its characters; "API key" in 18 more languages. And what is no one's secret: words
encoded in base64 or hex, a private key's armour with the key left out, where a password is kept
(password_from: vault:..., *_file), a registry key's class id, an organisation's id said not to be
a key, a share of people in a study, the authenticator docs' example secret said to be one, a
physio's or a route's turns, a booking's confirmation code. The phrasings are written for this
test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected

from .helpers import refused_kinds, stored

REFUSED = [
    'Mu Spotify parool: Lumi#4471',
    'Gmaili parool on Kask2290!',
    'Mano Gmail slaptažodis yra Ruta8812!',
    'Banko slaptažodis: Vilnius#2290',
    'Spotifyn salasana on Koivu#5521',
    'Pankin salasanani: Sauna2287!',
    'Паролата за Gmail е Sofia#7731',
    'Моята парола за банката: Varna2231!',
    'Lozinka za Gmail je Split#5521',
    'Moja lozinka za banku: Zagreb8812!',
    'Лозинка за Фејсбук: Beograd#4471',
    'Geslo za Gmail je Bled#3391',
    'La contrasenya del correu és Girona#4471',
    'A contrasinal do banco é Vigo#2291',
    'Parola mea de la bancă este Brasov#4471',
    'Parola pentru Gmail: Cluj#2291x',
    'Gmail parolam: Izmir#5521',
    'Nenosiri la benki ni Simba#4471',
    'Nenosiri langu la Gmail: Tembo2291!',
    'Kata laluan bank saya ialah Melaka#2291',
    'Lykilorðið mitt er Hekla#5521',
    'Fjalëkalimi i bankës: Tirana#4471',
    'Ang password ko sa Gmail ay Mangga#2291',
    'Cyfrinair y banc: Conwy#4471',
    'گذرواژه جیمیل من: Tehran#4471',
    'Pregunta de seguretat (nom de la primera mascota): Bruixa',
    'Turvakysymys (äidin tyttönimi): Korhonen',
    'Biztonsági kérdés (első iskola): Petőfi',
    'Întrebare de securitate (oraș natal): Sibiu',
    'Sigurnosno pitanje (ime prvog ljubimca): Medo',
    'Bezpečnostná otázka (meno prvého psa): Dunčo',
    'Контролен въпрос (първи домашен любимец): Шаро',
    'Контрольне питання (дівоче прізвище матері): Коваленко',
    'Sikkerhetsspørsmål (første bil): Volvo',
    'Sikkerhedsspørgsmål (første kæledyr): Fido',
    'Swali la usalama (jina la mnyama wa kwanza): Simba',
    'Ερώτηση ασφαλείας (πρώτο σχολείο): Αθηνά',
    'שאלת אבטחה (שם בית הספר הראשון): אלונים',
    'Saugumo klausimas (pirmas augintinis): Rudis',
    'Varnostno vprašanje (prvi hišni ljubljenček): Piki',
    'Turvaküsimus (esimene lemmikloom): Muri',
    'Kinnituskood SMS-ist: 448812',
    'Ellenőrző kód az SMS-ben: 551903',
    'Codul de verificare este 772014',
    'Vahvistuskoodi: 330981',
    'Bekræftelseskode fra SMS: 662017',
    'Bekreftelseskoden i SMS-en er 551288',
    'Verifieringskod: 448190',
    'Kod weryfikacyjny: 228814',
    'Ověřovací kód je 774412',
    'Doğrulama kodu: 661209',
    'Kode verifikasi Anda 882104',
    'Mã xác minh của bạn là 339120',
    'Код за потвърждение от SMS: 551208',
    'Κωδικός επαλήθευσης: 660381',
    'Patvirtinimo kodas iš SMS: 448821',
    'קוד אימות: 774102',
    'رمز التحقق: 551822',
    'کد تأیید شما در SMS: 662031',
    'सत्यापन कोड: 448109',
    'รหัสยืนยัน 551820',
    'Codice di verifica: 332019',
    'Verificatiecode: 771209',
    'Uksekood: 4471',
    'Valvesüsteemi kood on 5521',
    'Durų kodas: 2291',
    'Signalizacijos kodas 7781',
    'Šifra za ulaz: 4417',
    'Šifra alarma je 9921',
    'Код на вратата: 3381',
    'Код на алармата е 6620',
    'Kod alarmu: 4471',
    'Kapukód: 5512',
    'Kód ke dveřím: 8810',
    'Codul de la interfon: 2290',
    'Kapı şifresi: 4471',
    'Koda za vrata: 9931',
    'Dørkode: 5521',
    'Alarmkoden er 3318',
    'Garagekode: 7710',
    'Κωδικός συναγερμού: 6618',
    'קוד לדלת: 4471',
    'رمز الباب: 5521',
    'کد دزدگیر خانه: 6610',
    'Kode pintu: 4471',
    'Mã cửa: 5521',
    'Namba ya siri ya mlango: 4471',
    'รหัสประตู: 5521',
    "Digicode de l'immeuble: A1234",
    'Door code for the building: B5521',
    'Safe in the study: 448812. Jewellery is inside.',
    'The safe behind the painting: 20-14-33. Cash is in there.',
    'curl -s -H "Authorization: Bearer %-Tw7Mr2^v^^Yzus_KwUC" https://api.example.net/v1/usage',
    [{'from': 'Ola', 'text': "what's the code for the garage again?"}, {'from': 'Per', 'text': '5512 then hit enter'}],
    [{'from': 'Ola', 'text': 'at the door, code?'}, {'from': 'Per', 'text': 'B7719'}],
    '[10:02] Bank: Hi, this is the fraud team, we just texted you a code, please read it back\n[10:03] Me: sure it says 448 190',
    '[08:10] Kim: what was the router password again?\n[08:11] Lee: Qw7&Zp?Lm=x2R',
    'カード番号4539 1488 0343 6467、有効期限09/28',
    'รหัสไวไฟที่ออฟฟิศ: Lamp44#x',
    'رمز وای\u200cفای دفتر: Sara.tak8812',
    'Bike lock: left 12, right 30, left 5',
    '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7V1d...\n-----END RSA PRIVATE KEY-----',
    ['-----BEGIN PRIVATE KEY-----', 'MC4CAQAwBQYDK2VwBCIEIGfWtXxHS8Io5nzHdc4zig5FkBTamlxeOb3PGiD4gJ9X', '-----END PRIVATE KEY-----'],
    'TOTP key JBSWY3DPEHPK3PXP for the staging account',
    'Codeberg API võti: 4f1c9a77d02b5e8e3a6b9c0d1e2f3a4b5c6d7e8f',
    # a value in numbered pieces, one a line or an item
    "alarm PIN, split up:\n1) 48\n2) 19\n3) 27",
    ["Router password in parts:", "1) maple-", "2) rocket-", "3) 77x"],
    # digits spelled in Bulgarian, Tagalog, Croatian
    "PIN на картата: пет нула осем две",
    "PIN ng ATM ko: walo tatlo siyam anim",
    "Kod PIN-a: osam tri devet sest",
    # the code first, as messages in other languages put it
    "448812 on sinu kinnituskood",
    "123456 to Twój kod weryfikacyjny. Nie udostępniaj go.",
    # the review's gaps in the new languages: Latvian and Persian password words, stairwell and
    # building codes, "API key" in Georgian
    "Mana Gmail parole ir Ruta8812!",
    "پسورد وای فای: Sara.tak8812",
    "Trepikoda: 4471",
    "Laiptinės kodas: 2291",
    "Kod za zgradu: 7781",
    "API გასაღები: 7b3e9f2c4a6d8e0f1a3c5e7b9d1f3a5c",
    'מפתח API של Sentry: 7b3e9f2c4a6d8e0f1a3c5e7b9d1f3a5c',
]

PASSES = [
    'Vahetasin eile Gmaili parooli ära.',
    'Parool peab olema vähemalt 12 märki.',
    'Pean parooli uuendama järgmisel nädalal.',
    'Slaptažodis turi būti ilgesnis nei 8 simboliai.',
    'Salasana on jääkaapin ovessa.',
    'Salasanan pitää olla pitkä.',
    'Паролата трябва да е поне 10 символа.',
    'Lozinka mora imati najmanje 8 znakova.',
    'Promijenio sam lozinku jučer.',
    'La contrasenya ha de tenir 8 caràcters.',
    'Parola mea este scrisă pe un bilet în sertar.',
    'Parola del giorno è serendipità.',
    'La parola chiave è pazienza.',
    'Nenosiri ni lazima liwe na herufi 8.',
    'Ang password ko ay nasa notebook.',
    'Gmail parolamı değiştirdim.',
    'Turvakysymys on lemmikin nimi.',
    'Întrebarea de securitate a fost schimbată.',
    'Kinnituskood tuli SMS-iga, aga ma ei kasutanud seda.',
    'Vahvistuskoodi vanhenee 10 minuutissa.',
    'Kod weryfikacyjny wygasa po 5 minutach.',
    'Ellenőrző kód nélkül nem lehet belépni.',
    'Uksekood muutub järgmisel kuul.',
    'Durų kodą žino tik administratorius.',
    'Kod alarmu zmienimy w poniedziałek.',
    'Dørkoden står i velkomstbrevet.',
    'کد پستی: 1543812345',
    'کد ملی را به بانک دادم.',
    'کد تخفیف در فروشگاه: SALE20',
    'Kode pos rumah: 40115',
    'Mã bưu điện: 700000',
    'Namba ya simu ya daktari: 0712 345 678',
    'Šifra proizvoda: 44170',
    'Kapı numarası: 12',
    'Gate 4471 at terminal 2 for the Lisbon flight.',
    'Safe travels! Flight number 4471.',
    'The safe room is on floor 3, room 4412.',
    'Alarm set for 0630 tomorrow.',
    'Door 12B, second floor, code of conduct applies.',
    'Kids sent me a secret message: dHJhaW4gbGVhdmVzIGF0IDg= (it says "train leaves at 8")',
    'Secret note from Mia: 646f6e7420666f726765742074686520756d6272656c6c61 (decodes to "dont forget the umbrella")',
    '-----BEGIN RSA PRIVATE KEY-----\n...not pasted here, it lives on the office USB stick...\n-----END RSA PRIVATE KEY-----',
    'database:\n  host: db.internal.example\n  password_from: vault:apps/billing',
    'db_password_file: /run/secrets/db_password',
    "Registry key HKCR\\CLSID\\{7e2f4c1a-90b3-4d5e-8f6a-1c2d3e4f5a6b} is the shell extension's.",
    'OpenAI organization id (not a key): org-Xk29fjQpL0aZ8wRtYb3nQe7u',
    'Only about 0.04% of people pick 7219 as their PIN, according to a 2012 study.',
    "Google Authenticator's docs use the example secret JBSWY3DPEHPK3PXP - just a sample.",
    'Physio: turn head right 10, left 10, right 10 reps',
    'Directions: turn right 2, left 5, right 3 blocks to the safe house',
    'Lịch hẹn nha sĩ, mã xác nhận đặt chỗ: A6349647',
    'Codice di conferma della prenotazione: 58812204',
    'Khóa học Python cơ bản: bài 12, lớp PY2024',
    ["Shopping:", "1) milk", "2) eggs", "3) bread"],
    "Agenda:\n1) intro\n2) budget\n3) Q&A",
    "Tatlo kami sa bahay, apat na kwarto, lima ang aso",
    "Tenim set gats i dos gossos a casa",
    "Nina watoto tatu na mbwa moja nyumbani",
    "Saimme 2024 vahvistuskoodit ajoissa.",
    "Parole ir jāmaina katru mēnesi.",
    "La parole est à vous, 2024 fois merci",
    "Trepist üles, korter 12",
]


# A credential the memory says is its key ("see key of this entry", "the hex part of this
# memory's key"): the key is persisted and shown, so it is checked as that credential.
KEY = "mem_3fa91c0d7e52b8a4c6d1e9f07b2a5c38"


@pytest.mark.parametrize(
    "value",
    [
        "Sentry auth token: see key of this entry, without the mem_ prefix",
        "The Postmark server token is the hex part of this memory's key (after mem_).",
        "webhook signing secret: 9c1e4b7a02d35f68 + the hex chars in this memory's key",
    ],
)
def test_a_credential_kept_in_the_memory_key_is_refused(guard, value):
    with pytest.raises(SecretRejected):
        guard.check(value, namespace=("memories", "u1"), key=KEY)


@pytest.mark.parametrize(
    "value",
    [
        "Lunch with Ana on Friday; the key of this entry is just an id the app made up",
        "See key of this entry for the date we met (no secret here)",
        "Sentry auth token: rotated last week, see the vault",
    ],
)
def test_an_id_key_beside_talk_is_stored(guard, value):
    assert guard.check(value, namespace=("memories", "u1"), key=KEY) == (value, [])


# The round's review (a helper given its commit): secrets smuggled through its exemptions, and
# ordinary memories near its rules, each family mended (examples from the review's own sets).
REVIEW_REFUSED = [
    'The token is b3JhbmdlIHRpZ2VyIGNhbm9lIG1hcGxl',
    '-----BEGIN PRIVATE KEY-----\nMC4CAQA\nwBQYDK2\nVwBCIEI\nHx9kxpy\nQwNqdtw\n2vYD8mO\n7I2E5O8\nA/kW++s\nK3TlDwl\nM\n-----END PRIVATE KEY-----',
    'Acme project id: acme-prod-42, api key: 7b3e9f2c4a6d8e0f1a3c5e7b9d1f3a5c',
    'password_cmd: echo Hunter2024!',
    'The PIN is 9038 — only 0.01% of accounts in the DataGenetics dataset used it',
    'TOTP secret JBSWY3DPEHPK3PXPQ7RKM4TZ for admin@example.com',
    'Wifi parool on 88124471',
    "Salsa combo: right 8, left 6, right 4 counts is no safe, but Safe in the study: right 12, left 30, right 5.",
]
REVIEW_PASSES = [
    'Reset the password on Server01 tonight.',
    'Kunci motor ada di laci nomor 3.',
    'Kata kunci pencarian: LaptopGaming2024Murah',
    'Hotel sent the booking by SMS, confirmation code (mã xác nhận) 44812093 for the front desk.',
    'Uks: B1204, teine korrus.',
    'Knitting: left 12, right 14, left 10 stitches then lock the row with a slip knot.',
    'Authorization: Bearer #{access_token}',
    '-----BEGIN RSA PRIVATE KEY-----\n(removed on 2024/05/12, rotated)\n-----END RSA PRIVATE KEY-----',
    "Kids sent me a secret message: SGFwcHkgYmlydGhkYXkgTGVuYSEg8J+Ogg== (a birthday wish)",
]


@pytest.mark.parametrize("value", REFUSED + REVIEW_REFUSED)
def test_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES + REVIEW_PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
