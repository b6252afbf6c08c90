"""Memories that look like a credential without holding one pass the guard, and the
credentials written right beside them in the same shapes are still refused.

Each pair below is one rule seen from both sides: a card receipt's authorisation code
against a one-time code; base64 of a cookie's settings against a key; a password's
location ("on the sticker") against its value; a test's "wrong-password" against a real
one; the security questions offered against the answers given. Every case goes through
``Guard.check`` as ``TrustStore.put`` calls it; the phrasings are written for this test."""

from __future__ import annotations

import pytest

from .helpers import refused_kinds, stored

PASSES = [
    # where a password is, not what it is (Italian elision, German and French prepositions)
    "La password del Wi-Fi è sull'adesivo dietro il modem.",
    "Das Passwort steht auf der Rückseite der FRITZ!Box.",
    "Le mot de passe du wifi est sous la box, sur l'étiquette.",
    "Przypomnij: zmienić hasło do routera, nadal jest fabryczne.",
    # a card receipt's authorisation code approves one payment
    "Receipt - Mastercard ****4410, AUTH CODE 0912QX, total $42.10, keep for taxes",
    # base64 of a cookie's JSON settings
    "The 'ui' cookie is base64 JSON eyJsYXlvdXQiOiAiY29tcGFjdCIsICJzZWVuX3RvdXIiOiB0cnVlfQ== (layout only)",
    # statistics about the passwords people choose
    "Top 10 most common passwords this year: 123456, password, qwerty123 - slide 4 of the talk",
    "Reminder for the workshop: the most used password is still 'password1'.",
    # test code and forms: values that say they are not real, and code that computes one
    "fixtures:\n  admin:\n    email: qa@example.test\n    password: fake-password",
    "def test_rejects_bad_login(client):\n    r = client.post('/login', json={'password': 'wrong-password'})",
    "class SignupSerializer(serializers.Serializer):\n    password = serializers.CharField(write_only=True)",
    # the questions a bank offers, and a bank that dropped them
    "Security questions available: first pet, favourite teacher, city of birth. I answer with random words.",
    "Our bank replaced security questions with passkeys — nothing left to memorise.",
    # the payment gateways' published test cards
    "Stripe test card for the 3-D Secure flow: 4000 0027 6000 3184, any CVC",
]

# An independent review's findings on this round's rules (mended): what they must let pass
REVIEW_PASSES = [
    "Αγόρασα πορτοφόλι, κωδικός παραγγελίας 88213",
    "Κωδικός εξέτασης θυρεοειδούς 4521, ραντεβού την Τρίτη",
    "Car radio model code 7612 from Blaupunkt, for ordering the manual",
    "Recovery key needed for 2 of the 3 laptops (Dell 7420, ThinkPad X1)",
    "sleep(1500) // wait for the SMS code",
    "timeout = 3000  // auth code expiry in ms",
    "Asked about the gate code. It's 300 metres from the station, so walk",
    "Zugang zum Keller:\nTreppe-B\nTür-3\nRegal-12",
    "Secret ingredients:\nSmoked-paprika\n2tsp-cumin\nMSG",
    "password_chars = ''.join(['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'])",
    "Dependabot: pin: actions/checkout@v4.1.1",
    "TESCO STORES\nVISA ************4421\nTOTAL £23.40\nAUTH CODE: 083311\nTHANK YOU",
    "קוד פריט במחסן: 55123, כמות 40",
]
REVIEW_RECORDS_PASS = [
    {"u": "kg", "p": "low-medium-high"},
    {"h": 1080, "w": 1920, "u": "px", "p": "landscape-full-bleed"},
    {"title": "Password", "status": "In-Progress-QA"},
    {"note": "router password", "location": "sticker-under-router"},
    {"label": "Netflix password", "owner": "Dad", "shared_with": "kids-and-grandma"},
    {"shop": "Caja Rural", "code": "3058"},
    {"item": "Porta-potty rental", "code": "8841"},
]
# ... and what they must still refuse
REVIEW_REFUSED = [
    ("my password: Testpass123", "password"),
    ("Netflix password: Testkey123", "password"),
    ("A senha do wifi é a Casa#2024!", "password"),
    ("Het wachtwoord van de router is het Kx7#mQ2!pL9", "password"),
    ("SSH terminal login auth code 118273", "one-time code"),
    ("Most common passwords are junk, but mine is Kx7#mQ2!pL9 for the bank", "password"),
    ("My security question about my first pet — Biscuit", "security question answer"),
    ("Online-Banking-PIN: Kx7#mQ2!", "password"),
    ("Forgot the gym locker code again. It's 3917", "PIN"),
]
REVIEW_RECORDS_REFUSED = [
    {"db.h": "db.internal.example", "db.u": "admin", "db.p": "Kiefer!Nord77"},
]

# Look-alike families of the third tuning corpus, in phrasings written for this test
FAMILY_PASSES = [
    "mapboxgl.accessToken = 'pk.eyJ1IjoibWFwcyIsImEiOiJjbGs3In0.Ab3_cD4eF5gH6iJ7kL8mN9'; // public, URL-restricted",
    'resource "aws_db_instance" "db" {\n  password = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)["pw"]\n}',
    'def test_login(client):\n    make_user(email="a@example.test", password="fake-password")\n    assert client.login("a@example.test", "fake-password")',
    "2025-01-02T10:00:00Z INFO export job done id=01HQ3K5N8V2W4X6Y8Z0A2B4C6D",
    "2025-01-02T10:00:00Z webhook received evt_9fJ2kLm8QpR4sT6vW1xY3zA5 (invoice.paid)",
    "const app = new PublicClientApplication({ auth: { clientId: '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c' } });",
    "Boarding pass saved: KL1023, seat 14A, boards 09:40 at gate D7.",
]
FAMILY_RECORDS_PASS = [
    {"merchant": "Corner Bakery", "amount": "$12.40", "card": "Visa ending 4410", "auth_code": "118204"},
    {"title": "laptop", "key": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFq8Zx2mK9pL4wN8tZ3cB6hJ1vR7sT0 me@laptop"},
    {"cache_key": "v2:cart:1042:9f8e7d6c5b4a", "ttl": 600},
    [{"ean": "5901234123457", "qty": 2}, {"ean": "4006381333931", "qty": 1}],
]

REFUSED = [
    ("Mot de passe du wifi : Sous-Bois#2291", "password"),
    ("Das Passwort der FRITZ!Box ist Rk7!mTz29q", "password"),
    ("the bank app sent an auth code: 661204", "one-time code"),
    ("my password is 123456 for the old laptop", "password"),
    ("fixtures:\n  admin:\n    email: ops@acme.example\n    password: Vk82!pLzq0", "password"),
    ("const password = String.fromCharCode(72,117,110,116,101,114,50,33);", "password"),
    ("security answers: favourite teacher Mr Okafor, first car Skoda Fabia", "security question answer"),
    ("For the shop's recovery questions: city of birth = Porto", "security question answer"),
    ("my new Visa for the test trip: 4539 1488 0343 6467", "credit card number"),
]


@pytest.mark.parametrize("text", PASSES)
def test_a_look_alike_passes_unchanged(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize(("text", "kind"), REFUSED)
def test_the_credential_beside_it_is_refused(guard, text, kind):
    kinds = refused_kinds(guard, {"text": text})
    assert kind in kinds


@pytest.mark.parametrize("text", REVIEW_PASSES)
def test_the_reviews_look_alikes_pass(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize("value", REVIEW_RECORDS_PASS)
def test_the_reviews_records_pass(guard, value):
    assert stored(guard, value) == (value, [])


@pytest.mark.parametrize(("text", "kind"), REVIEW_REFUSED)
def test_the_reviews_credentials_are_refused(guard, text, kind):
    kinds = refused_kinds(guard, {"text": text})
    assert kind in kinds


@pytest.mark.parametrize("value", REVIEW_RECORDS_REFUSED)
def test_dotted_login_fields_are_read_without_error(guard, value):
    refused_kinds(guard, value)
    stored(guard, {"db.u": "admin", "db.p": "see vault"})  # no error


@pytest.mark.parametrize("text", FAMILY_PASSES)
def test_the_tuning_families_pass(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize("value", FAMILY_RECORDS_PASS)
def test_the_tuning_families_records_pass(guard, value):
    assert stored(guard, value) == (value, [])


def test_what_those_families_hide_is_still_refused(guard):
    for text in (
        "password = jsondecode('Kx7#mQ2!pL9')",
        "2025-01-02 job done id=01HQ3K5N8V2W4X6Y8Z0A2B4C6D token=Zq8Lm2Vx7Rt4Kp9Nc3Wd6Hy1Bf5Js0Qa",
        "mapbox secret token sk.eyJ1IjoibWFwcyIsImEiOiJjbGs3In0.Ab3_cD4eF5gH6iJ7kL8mN9",
    ):
        refused_kinds(guard, {"text": text})
    refused_kinds(guard, {"merchant": "Bank app", "otp": "118204", "login": "ana"})


def test_a_payment_record_beside_a_code_does_not_hide_it(guard):
    """The payment exemption covers the payment record's own fields, never a code found
    elsewhere in the memory."""
    refused_kinds(guard, [{"verification_code": "482913"}, {"merchant": "Corner shop", "amount": "$3.20"}])


# Values sealed for storage by design, public identifiers and talk about PINs: each passes,
# and the credential written in the same place, in the clear, is still refused.
SEALED_SOPS = (
    "# secrets.enc.yaml (sops)\ndb_password: ENC[AES256_GCM,data:q1w2e3r4t5y6u7i8o9p0,"
    "iv:Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3=,tag:Zx9cVb6nMq3wEr0tYu7iOp==,type:str]"
)
SEALED_VAULT = (
    "smtp_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n"
    "  39653861363265376364383233663330623438326139393536353364663565386438366232316134\n"
    "  3234356236613762383765316236613431396465613634610a"
)
SEALED_SECRET = (
    "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: smtp\nspec:\n  encryptedData:\n"
    "    password: AgCq" + "Zt4Xv8Bn2Mk6Lp0Rs5Wd9Fh3Jy7Qa1Ec" * 4 + "==\n"
)
ANON_JWT = (  # claims: {"iss": "supabase", "ref": "qwertyuiopasdfghjklz", "role": "anon"}
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6InF3ZXJ0eXVpb3Bhc2RmZ2hqa2x6Iiwicm9sZSI6"
    "ImFub24ifQ.Tk3pQ9sT7uV1wZ2aB4cD6eF8gH0iJ2kL4mN6oP8qR0s"
)
SERVICE_JWT = (  # the same project's service_role key
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJlZiI6InF3ZXJ0eXVpb3Bhc2RmZ2hqa2x6Iiwicm9sZSI6"
    "InNlcnZpY2Vfcm9sZSJ9.Tk3pQ9sT7uV1wZ2aB4cD6eF8gH0iJ2kL4mN6oP8qR0s"
)
BY_DESIGN_PASSES = [
    SEALED_SOPS,
    SEALED_VAULT,
    SEALED_SECRET,
    f"NEXT_PUBLIC_SUPABASE_ANON_KEY={ANON_JWT}",
    "Release signing: gpg key id 9C4E2B7A15D3F608, fingerprint 0D1E 2F3A 4B5C 6D7E 8F90 A1B2 9C4E 2B7A 15D3 F608",
    "GitHub OAuth app client id: Ov23liQx8Rm2Kd7Lp4Zt (the client secret stays in the vault)",
    "Most common PINs are 1234, 1111 and 0000 - the bank's leaflet says to avoid them.",
    "Awareness slide: never use passwords like 123456 or qwerty1, they top every breach list.",
    "The bank app wants a 6-digit PIN and no sequences like 123456.",
    "The guest network has no password - it's isolated from the office.",
    "Ich sollte mein Passwort ändern, das alte ist seit Jahren dasselbe.",
    "Nomor resi J&T: 4539945807302151 (paket sepatu)",
    "Parked at the trailhead: 46.55812, 8.56145",
]
BY_DESIGN_REFUSED = [
    ("# secrets.enc.yaml (sops)\ndb_password: Qv7#mLp2!zR9", "password"),
    (SEALED_SECRET + "  stringData:\n    smtp_password: Hx4$kLq9!wZ2", "password"),
    (f"SUPABASE_SERVICE_ROLE_KEY={SERVICE_JWT}", "JWT"),
    ("My PIN is 8315, not one of the most common PINs like 1234.", "PIN"),
    ("Order paid with card 4539945807302151, exp 09/29", "credit card number"),
]


@pytest.mark.parametrize("text", BY_DESIGN_PASSES)
def test_values_sealed_or_public_by_design_pass(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize(("text", "kind"), BY_DESIGN_REFUSED)
def test_a_clear_value_beside_them_is_refused(guard, text, kind):
    assert kind in refused_kinds(guard, {"text": text})


def test_a_sealed_value_in_a_field_passes_and_a_clear_one_does_not(guard):
    sops = SEALED_SOPS.split(": ", 1)[1]
    assert stored(guard, {"db_password": sops}) == ({"db_password": sops}, [])
    refused_kinds(guard, {"db_password": "Qv7#mLp2!zR9"})


# The fourteenth round's independent review: ordinary memories near its new rules, which
# its first version refused, and the secrets it had let through. Both sides, as found.
REVIEW15_PASSES = [
    "Apple MacBook Pro serial: C02XL0GTJGH5 (bought 2021, AppleCare until March)",
    "Amazon package tracking: TBA304958677000, arriving Thursday",
    "apple pie recipe code: GRANDMA1958PIE from the church cookbook",
    "Rezervasyon onay kodu: 458812 — otel Kaş'ta, 3 gece",
    "The project code atm is 4471, finance will rename it next quarter",
    "Szef podał kod projektu: 4471 — wpisywać w karcie czasu pracy",
    "# SMTP password lives in 1Password (Ops vault)\nSMTP_HOST=smtp-relay-01.example.com\nSMTP_PORT=587",
    'hash = "$2b$12$KIXQJZ8z5bL0aP9Q2mC9eu"  # bcrypt of the password, not the password',
    "# password\nlength = 'min12chars'",
    "| Requirement | Value |\n|---|---|\n| Password length | 12+ |\n| Password history | last-5 |",
    "| Field | Type |\n|---|---|\n| password | varchar128 |\n| salt | bytea |",
    "| Guest Wi-Fi password | ask-at-reception |",
    "Password hint: it's Fido's-name+2-digits",
    "Password hint: it is Grandma1's birthday year",
    "Alarm code training at 9: three sessions, one to one, two teams",
    "Gate code list got longer... 1200 residents now",
    "Which flat has the broken door code panel? It's 214.",
    "The PIN is the year when Grandpa was born, I should change it",
    "Post-surgery recovery plan - rest walk stretch swim yoga sleep water fruit protein salad soup tea",
    "Spelling test words:\n" + "\n".join(
        f"{i} {w}" for i, w in enumerate("ocean tiger planet coffee garden rocket pencil castle dragon window guitar island".split(), 1)
    ),
    "注文番号4539123456789017、届くのは金曜日",
    "Bus lines:\n4539\n1234\n5678\n9017",
    "Vulkan notes: the key call is vkCmdBindVertexBuffers before the draw",
    "totp step is 30s with 6 digits; test word list: ruby java rust perl bash php2",
]
REVIEW15_CHATS_PASS = [
    [{"role": "user", "content": "secret word game tonight, words so far: ocean, tiger, planet, coffee, garden, rocket"},
     {"role": "user", "content": "more words: pencil, castle, dragon, window, guitar, island"}],
    [{"role": "user", "content": "Pictionary seed words for tonight - ocean, tiger, planet, rocket, castle, dragon"},
     {"role": "user", "content": "more - window, guitar, island, pencil, garden, coffee"}],
]
REVIEW15_REFUSED = [
    "Encrypt the backup with key 4f1c2a9e8b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e",
    "db_password: ENC[AES256_GCM,data:SHVudGVyMjAyNCE=,iv:q83jfPqq3nO6eXRn1EXAMPLE0=,tag:abcdEFGHijklMNOP1234==,type:str]",
    "smtp_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  436f62616c7423526964676532322d736d74702d70617373776f7264",
    "Never use PINs like 1234 — the bank PIN I chose is 7391",
    "Most common PINs are 1234 and 0000 but my wife's is 8061",
    "Order: 4539 1234 5678 9017 09/29 318",
    "mnemonic: kiosk cobalt delta autumn thunder crystal papaya juniper moss reef flint beacon and",
]


@pytest.mark.parametrize("value", [*REVIEW15_PASSES, *REVIEW15_CHATS_PASS])
def test_the_fourteenth_reviews_look_alikes_pass(guard, value):
    value = value if isinstance(value, list) else {"text": value}
    assert stored(guard, value) == (value, [])


@pytest.mark.parametrize("text", REVIEW15_REFUSED)
def test_what_the_fourteenth_review_found_let_through_is_refused(guard, text):
    refused_kinds(guard, {"text": text})


def test_masked_values_pass_and_a_token_with_stars_appended_does_not(guard):
    """Masked values are found from their run of masks outward, so a long line of stars and
    letters is read in time linear in its length (it was quadratic)."""
    for text in (
        "OpenAI key on file: sk-proj-********TZQ4 (rotated)",
        "card ●●●●●● 4674, PIN [hidden]",
        "**a" * 3000,
    ):
        assert stored(guard, {"text": text}) == ({"text": text}, [])
    refused_kinds(guard, {"text": "token ghp_BnCS5cMOcUbd0UOSWjXlDEAIBAjcS0RbhObo******"})


# Password hashes as the stores that keep them print them, and values dotenvx and Jasypt
# encrypted (from the reader's training corpora): each passes; the htpasswd line's user
# too. A password written beside one, or shaped only partly like one, is still refused.
PASSWORD_HASHES = [
    'basic_auth_htpasswd: "admin:$2b$12$asoz3Sl9GDJ03XAhM.YaBXZ2V2GBkayvhxOOenmxlyNRDP2lz/G7g"',
    "ok so auth_user.password = pbkdf2_sha256$870000$LYDaV8hn7WSvSYWCPyblbD$EfJaHvJ8gr+q8lFU7pb2Cjvg+DL2Hg5Ex8MzRKgW6PU=",
    "enable secret 8 $8$YHxxxcc4bW3Ech$mg0/EYnN3h/1sWyVLf4hCaSuOMtfZTaqXfUIN2Zx16s",
    "enable secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM",
    "userPassword: {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g/0sleWmsIbw==",
    "deploy:$apr1$Tx8gQ1Zl$XjBrbu3gG3Lr1dT8Iqzfy0",
    "root password hash: $y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o.9agCG9G317fhZg9SqC.5i5rd.RhAtQ7",
    "userPassword: {CRYPT}$6$saltsalt$" + "a" * 86,
]
SEALED_BY_TOOLS = [
    'API_KEY="encrypted:BD9paBaun2284WcqdFQZUlDKapPiuE/ruoLY7rINtQPXKWcfqI4Bd6pnq+DDqN0ooiFhvPkH9MQiJAf8HDHBQgdbNoLw8ffw'
    'H5FgVKVUpG+NLm8oa2D+6Tg3/GYtgXMVuYJfv8LSOxOLcL9TcJ8i5A=="',
    "spring.datasource.password=ENC(9+E939zK6khjl2LdkeSAC5H+fUetyOwnSVIMGmsfz9Y=)\n"
    "jasypt.encryptor.algorithm=PBEWITHHMACSHA512ANDAES_256",
]
BESIDE_HASHES = [
    # a password base64-encoded behind an encryption tool's prefix is not ciphertext
    'API_KEY="encrypted:c2tfbGl2ZV81MUh4WXpBYkNkRWZHaElqS2xNbk9wUXJTdFV2V3hZejAxMjM0NTY3ODk="',
    "db.password=ENC(VHIwdWI0ZG9yJjN4LWh1bnRlcjIh)",
    # what follows a hash with no space between is not taken in with it
    "pbkdf2_sha256$260000$abcdEFGH1234$EfJaHvJ8gr+q8lFU7pb2Cjvg+DL2Hg5Ex8MzRKgW6PU=|apikey=sk_live_51HxYzAbCdEfGhIjKlMnOpQrSt",
    "pbkdf2_sha256$1$a$b,password=Hunter2Secret!x",
    "{SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g/0sleWmsIbw==sk_live_51HxYzAbCdEfGhIjKlMnOpQr",
    # what stands before a hash's colon is read, unless it is an account's name (review of
    # the twentieth round): a token, a password, a PIN, a card number stay refused
    "github token ghp_BnCS5cMOcUbd0UOSWjXlDEAIBAjcS0RbhObo:{MD5}AAAAAAAAAAAAAAAAAAAAAA==",
    "my password is Sup3rS3cretPass99:$2b$12$asoz3Sl9GDJ03XAhM.YaBXZ2V2GBkayvhxOOenmxlyNRDP2lz/G7g",
    "my bank PIN is 4821:{SHA}AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    "my visa is 4111111111111111:{SHA}AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
    # a secret dressed in a hash or ciphertext shape of the wrong size or alphabet
    "AWS secret key {SSHA}wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK9h2Lq3xT",
    "DD_API_KEY=ENC(0f4a8c2e9b7d6e5f1a3c5e7b9d2f4a6c)",
    "db.password=ENC(VHIwdWI0ZG9yJjN4LWh1bnRlcjIhA)",  # not base64 at all
    "note: ENC(5oiR55qE6ZO26KGM5a+G56CB5pivIFp4OWtMbTJRcDc=)",  # text in any script is not ciphertext
    'DB_PASSWORD="S3cr3t$2bPass!xyz"',
    'basic_auth: "admin:Tr0ub4dor&3xQ"',
    "admin_password_hash: $2b$12$etOLmGOmnCiSduJBvWkBRTBzyMO.bO0KBFDPcYWNQEyFCFK.eA53T\nadmin_password: Qv7#mLp2!zR9",
]


@pytest.mark.parametrize("text", [*PASSWORD_HASHES, *SEALED_BY_TOOLS])
def test_password_hashes_and_values_sealed_by_tools_pass(guard, text):
    assert stored(guard, {"text": text}) == ({"text": text}, [])


@pytest.mark.parametrize("text", BESIDE_HASHES)
def test_a_password_beside_or_shaped_like_a_hash_is_refused(guard, text):
    refused_kinds(guard, {"text": text})


def test_a_record_holding_a_password_hash_passes_and_one_holding_a_password_does_not(guard):
    """A record's field is read by the same rule as text: a user table's row with its hash
    passes; with a password, or something only partly hash-shaped, it is refused."""
    for value in (
        {"username": "bob", "password": "pbkdf2_sha256$870000$LYDaV8hn7WSvSYWCPyblbD$EfJaHvJ8gr+q8lFU7pb2Cjvg+DL2Hg5Ex8MzRKgW6PU="},
        {"user": "admin", "htpasswd": "admin:$2b$12$etOLmGOmnCiSduJBvWkBRTBzyMO.bO0KBFDPcYWNQEyFCFK.eA53T"},
    ):
        assert stored(guard, value) == (value, [])
    for value in ({"username": "bob", "password": "Tr0ub4dor&3x!"}, {"password": "$2b$12$short"}):
        refused_kinds(guard, value)
