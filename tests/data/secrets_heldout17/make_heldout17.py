#!/usr/bin/env python3
"""Generator for the held-out secret-detector evaluation corpus ``heldout17``.

Standard library only (Python 3.11).  Every random choice - and the final
shuffle - is drawn from ONE ``random.Random(17172028)`` instance, so running
this script again reproduces ``heldout17.jsonl`` byte for byte.

All values are synthetic.  Tokens imitate the public *shape* of vendor
credentials (prefixes, lengths, alphabets, CRC checksums where vendors use
them) but are random and were never issued by anybody.

Usage:  python3 make_heldout17.py            # writes heldout17.jsonl
        python3 make_heldout17.py --stats    # also prints count tables
"""
import base64
import binascii
import codecs
import gzip
import json
import os
import quopri
import random
import re
import string
import sys
import urllib.parse
import zlib

SEED = 17172028
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout17.jsonl")

# ----------------------------------------------------------------------------
# basic random helpers (all draw from R)
# ----------------------------------------------------------------------------
HEXL = "0123456789abcdef"
HEXU = HEXL.upper()
DIG = string.digits
LOW = string.ascii_lowercase
UPP = string.ascii_uppercase
B62 = DIG + UPP + LOW
B64 = UPP + LOW + DIG + "+/"
B64U = UPP + LOW + DIG + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = UPP + "234567"
ALPH = {
    "h": HEXL, "H": HEXU, "d": DIG, "l": LOW, "u": UPP, "a": LOW + DIG,
    "A": UPP + DIG, "b": B62, "B": B64, "U": B64U, "s": B58, "c": B32,
    "C": B32.lower(), "n": "123456789",
}


def ch(seq):
    return R.choice(seq)


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def ri(a, b):
    return R.randint(a, b)


def coin(p=0.5):
    return R.random() < p


def sample(seq, k):
    return R.sample(list(seq), k)


def shuffled(seq):
    s = list(seq)
    R.shuffle(s)
    return s


def uuid4():
    h = rs(HEXL, 32)
    h = h[:12] + "4" + h[13:16] + ch("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def b62enc(n, width):
    out = ""
    while n:
        n, r = divmod(n, 62)
        out = B62[r] + out
    return out.rjust(width, "0")


def gh_body():
    """30 random base62 chars + 6-char base62 CRC32 (GitHub/npm style)."""
    body = rs(B62, 30)
    return body + b62enc(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


def b64u(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt_token(payload=None, alg="HS256", siglen=43):
    hdr = {"alg": alg, "typ": "JWT"}
    if payload is None:
        now = ri(1690000000, 1760000000)
        payload = {"sub": uuid4() if coin() else str(ri(10000, 99999999)),
                   "iat": now, "exp": now + ch([3600, 86400, 2592000, 31536000])}
        if coin(0.5):
            payload["scope"] = ch(["read write", "admin", "api", "openid profile", "repo"])
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = rs(B64U, siglen if alg.startswith("HS") else 86)
    return "%s.%s.%s" % (h, p, sig)


def jwt_supabase():
    ref = rs(LOW, 20)
    now = ri(1690000000, 1740000000)
    return jwt_token({"iss": "supabase", "ref": ref, "role": "service_role",
                      "iat": now, "exp": now + 315360000})


def pem_body(prefix, nbytes):
    raw = base64.b64encode(bytes(R.getrandbits(8) for _ in range(nbytes))).decode()
    raw = prefix + raw[len(prefix):]
    return "\n".join(raw[i:i + 64] for i in range(0, len(raw), 64))


def pem_rsa_pkcs1():
    return ("-----BEGIN RSA PRIVATE KEY-----\n" + pem_body("MIIEpAIBAAKCAQEA", ch([1190, 1192, 1218]))
            + "\n-----END RSA PRIVATE KEY-----")


def pem_pkcs8():
    return ("-----BEGIN PRIVATE KEY-----\n" + pem_body("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1217)
            + "\n-----END PRIVATE KEY-----")


def pem_ec():
    return ("-----BEGIN EC PRIVATE KEY-----\n" + pem_body("MHcCAQEEI", 121)
            + "\n-----END EC PRIVATE KEY-----")


def pem_p8():
    return ("-----BEGIN PRIVATE KEY-----\n" + pem_body("MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg", 150)
            + "\n-----END PRIVATE KEY-----")


def pem_openssh():
    return ("-----BEGIN OPENSSH PRIVATE KEY-----\n"
            + pem_body("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACD", 300)
            + "\n-----END OPENSSH PRIVATE KEY-----")


def pem_openssh_rsa():
    return ("-----BEGIN OPENSSH PRIVATE KEY-----\n"
            + pem_body("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn", 1380)
            + "\n-----END OPENSSH PRIVATE KEY-----")


def pem_dsa():
    return ("-----BEGIN DSA PRIVATE KEY-----\n" + pem_body("MIIBuwIBAAKBgQD", 445)
            + "\n-----END DSA PRIVATE KEY-----")


def pem_pgp():
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + pem_body("lQVYBG", 700)
            + "\n=" + rs(B64, 4) + "\n-----END PGP PRIVATE KEY BLOCK-----")


def pem_encrypted_pkcs8_with_pass():
    # the encrypted key itself is not usable without the passphrase; used only
    # as companion material next to a passphrase (the secret part)
    return ("-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + pem_body("MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1250)
            + "\n-----END ENCRYPTED PRIVATE KEY-----")


def putty_ppk():
    pub = pem_body("AAAAC3NzaC1lZDI1NTE5AAAAI", 51).replace("\n", "")
    prv = pem_body("AAAAI", 36).replace("\n", "")
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: %s\nPublic-Lines: 2\n%s\n%s\n"
            "Private-Lines: 1\n%s\nPrivate-MAC: %s" % (ch(["eddsa-key-20240311", "deploy@bastion", "laptop-key"]),
                                                       pub[:64], pub[64:], prv, rs(HEXL, 64)))


def sa_json():
    proj = "%s-%s-%d" % (ch(["acme", "orbit", "fjord", "lumen", "tidal", "quartz", "hazel", "nimbus"]),
                         ch(["prod", "data", "ml", "web", "etl", "infra"]), ri(100000, 999999))
    name = ch(["deployer", "ci-runner", "bq-loader", "terraform", "backup-bot", "vertex-caller"])
    return json.dumps({
        "type": "service_account", "project_id": proj, "private_key_id": rs(HEXL, 40),
        "private_key": pem_pkcs8() + "\n",
        "client_email": "%s@%s.iam.gserviceaccount.com" % (name, proj),
        "client_id": str(ri(10 ** 20, 10 ** 21 - 1)),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }, indent=2)


def solana_json():
    return json.dumps([ri(0, 255) for _ in range(64)], separators=(",", ":"))


SPECIAL = {
    "uuid": lambda: uuid4(),
    "UUID": lambda: uuid4().upper(),
    "gh": gh_body,
    "jwt": lambda: jwt_token(),
    "jwtes": lambda: jwt_token(alg="ES256"),
    "jwtsr": jwt_supabase,
    "pemrsa": pem_rsa_pkcs1,
    "pempk": pem_pkcs8,
    "pemec": pem_ec,
    "pemapple": pem_p8,
    "pemssh": pem_openssh,
    "pemsshrsa": pem_openssh_rsa,
    "pemdsa": pem_dsa,
    "pempgp": pem_pgp,
    "ppk": putty_ppk,
    "sajson": sa_json,
    "soljson": solana_json,
    "yr": lambda: str(ri(2019, 2025)),
    "mon": lambda: "%02d" % ri(1, 12),
}
TPL = re.compile(r"\{([a-zA-Z]+)(\d+)?(?:-(\d+))?\}")


def expand(t):
    def rep(m):
        name, a, b = m.group(1), m.group(2), m.group(3)
        if name in SPECIAL:
            return SPECIAL[name]()
        n = int(a) if not b else ri(int(a), int(b))
        return rs(ALPH[name], n)
    return TPL.sub(rep, t)


# ----------------------------------------------------------------------------
# Luhn / payment cards
# ----------------------------------------------------------------------------
PUBLISHED_TEST_CARDS = {
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222",
    "5200828282828210", "5105105105105100", "378282246310005", "371449635398431",
    "6011111111111117", "6011000990139424", "3056930009020004", "36227206271667",
    "3566002020360505", "6200000000000005", "4111111111111111", "4012888888881881",
    "4222222222222", "5454545454545454", "4917610000000000", "4000000000000002",
    "4000000000009995", "4000002500003155", "4000000000000077", "4000000000003220",
    "378734493671000", "6011000400000000", "3530111333300000", "5019717010103742",
    "6331101999990016", "30569309025904", "38520000023237", "4988438843884305",
    "5425233430109903", "2222420000001113", "4263982640269299", "4001919257537193",
    "4007702835532454", "6062826786276634", "6220264390045758", "6759649826438453",
}
TEST_CARD_SHOW = ["4242 4242 4242 4242", "4000 0566 5566 5556", "5555 5555 5555 4444",
                  "2223 0031 2200 3222", "5105 1051 0510 5100", "3782 822463 10005",
                  "3714 496353 98431", "6011 1111 1111 1117", "3566 0020 2036 0505",
                  "4111 1111 1111 1111", "4012 8888 8888 1881", "6200 0000 0000 0005"]


def luhn_digit(partial):
    s = 0
    for i, c in enumerate(reversed(partial)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


CARD_BRANDS = [
    ("Visa", lambda: "4" + rs(DIG, 5), 16),
    ("Visa", lambda: ch(["4147", "4266", "4388", "4539", "4716", "4929", "4485", "4024"]) + rs(DIG, 2), 16),
    ("Mastercard", lambda: str(ri(51, 55)) + rs(DIG, 4), 16),
    ("Mastercard", lambda: str(ri(2221, 2720)) + rs(DIG, 2), 16),
    ("Amex", lambda: ch(["34", "37"]) + rs(DIG, 4), 15),
    ("Discover", lambda: ch(["6011", "65" + rs(DIG, 2), str(ri(644, 649)) + rs(DIG, 1)]) + rs(DIG, 2), 16),
    ("JCB", lambda: str(ri(3528, 3589)) + rs(DIG, 2), 16),
    ("Diners Club", lambda: ch(["36", "38", "300", "305"]), 14),
    ("UnionPay", lambda: "62" + ch(["2", "4", "5", "8"]) + rs(DIG, 3), 16),
    ("Maestro", lambda: ch(["6759", "5018", "5020", "6304"]) + rs(DIG, 2), 16),
]


def card_number(brand=None):
    while True:
        b = ch(CARD_BRANDS) if brand is None else ch([x for x in CARD_BRANDS if x[0] == brand])
        pre = b[1]()
        body = pre + rs(DIG, b[2] - 1 - len(pre))
        num = body + luhn_digit(body)
        if num not in PUBLISHED_TEST_CARDS and len(set(num)) > 4:
            return b[0], num


def fmt_card(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    if len(num) == 14:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


def card_exp():
    return "%02d/%02d" % (ri(1, 12), ri(25, 31))


def cvv(n=3):
    return rs(DIG, n)


def imei():
    tac = ch(["35", "86", "01", "99", "53"]) + rs(DIG, 6)
    body = tac + rs(DIG, 14 - len(tac))
    return body + luhn_digit(body)


# ----------------------------------------------------------------------------
# encoders used by hard techniques and look-alike families
# ----------------------------------------------------------------------------
MORSE = {
    "a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....",
    "i": "..", "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.",
    "q": "--.-", "r": ".-.", "s": "...", "t": "-", "u": "..-", "v": "...-", "w": ".--", "x": "-..-",
    "y": "-.--", "z": "--..", "0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-",
    "5": ".....", "6": "-....", "7": "--...", "8": "---..", "9": "----.", "_": "..--.-", "-": "-....-",
    ".": ".-.-.-", "!": "-.-.--", "@": ".--.-.", "#": "", "$": "...-..-", "&": ".-...", "?": "..--..",
}
NATO = {
    "a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf",
    "h": "hotel", "i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november",
    "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo", "s": "sierra", "t": "tango", "u": "uniform",
    "v": "victor", "w": "whiskey", "x": "x-ray", "y": "yankee", "z": "zulu",
}
DIGWORD = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
    "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
    "fr": ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
    "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
    "it": ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"],
    "pl": ["zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem", "dziewięć"],
    "ja": ["ゼロ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう"],
    "zh": ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"],
    "ru": ["ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"],
    "nl": ["nul", "een", "twee", "drie", "vier", "vijf", "zes", "zeven", "acht", "negen"],
    "pt": ["zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"],
    "tr": ["sıfır", "bir", "iki", "üç", "dört", "beş", "altı", "yedi", "sekiz", "dokuz"],
}
KEYCAP = ["0️⃣", "1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]
ROMAN = ["0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і",
        "A": "А", "B": "В", "E": "Е", "K": "К", "M": "М", "H": "Н", "O": "О", "P": "Р",
        "C": "С", "T": "Т", "X": "Х", "s": "ѕ", "j": "ј"}


def rot13(s):
    return codecs.encode(s, "rot13")


def rot47(s):
    return "".join(chr(33 + ((ord(c) + 14) % 94)) if 33 <= ord(c) <= 126 else c for c in s)


def caesar(s, k):
    out = []
    for c in s:
        if c in LOW:
            out.append(LOW[(LOW.index(c) + k) % 26])
        elif c in UPP:
            out.append(UPP[(UPP.index(c) + k) % 26])
        else:
            out.append(c)
    return "".join(out)


def atbash(s):
    return "".join(LOW[25 - LOW.index(c)] if c in LOW else UPP[25 - UPP.index(c)] if c in UPP else c for c in s)


def b64s(s):
    return base64.b64encode(s.encode()).decode()


def hexs(s):
    return s.encode().hex()


def homoglyph(s, p=0.7):
    return "".join(HOMO[c] if c in HOMO and coin(p) else c for c in s)


def fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if 33 <= ord(c) <= 126 else c for c in s)


def math_bold(s):
    out = []
    for c in s:
        if c in UPP:
            out.append(chr(0x1D400 + UPP.index(c)))
        elif c in LOW:
            out.append(chr(0x1D41A + LOW.index(c)))
        elif c in DIG:
            out.append(chr(0x1D7CE + DIG.index(c)))
        else:
            out.append(c)
    return "".join(out)


def spell_digits(s, lang="en", sep=" "):
    return sep.join(DIGWORD[lang][int(c)] if c.isdigit() else c for c in s)


def chunk(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def split_n(s, k):
    step = -(-len(s) // k)
    return [s[i:i + step] for i in range(0, len(s), step)]


# ----------------------------------------------------------------------------
# shared pools
# ----------------------------------------------------------------------------
FIRST = ["Anna", "Ben", "Carla", "Dev", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemi", "Lars",
         "Mina", "Noah", "Olga", "Priya", "Quinn", "Rosa", "Sam", "Tomás", "Uma", "Viktor", "Wen", "Yusuf",
         "Zoe", "Marek", "Aiko", "Bruno", "Chloé", "Dmitri", "Esra", "Fatima", "Giulia", "Hannah", "Ivan",
         "Jae", "Kofi", "Leila", "Mateo", "Nadia", "Oskar", "Paulo", "Rahul", "Sofia", "Tariq", "Valentina"]
LAST = ["Novak", "Schmidt", "García", "Okafor", "Tanaka", "Kowalski", "Haddad", "Lindqvist", "Rossi",
        "Dubois", "Nguyen", "Petrov", "O'Brien", "Silva", "Yilmaz", "Mehta", "Kim", "Jansen", "Moreau",
        "Fischer", "Costa", "Ivanova", "Larsen", "Begum", "Cohen", "Aziz", "Hughes", "Bauer", "Mendes"]
CITIES = ["Lisbon", "Austin", "Osaka", "Leeds", "Kraków", "Porto", "Denver", "Lyon", "Gdańsk", "Cork",
          "Bergen", "Tampere", "Brno", "Izmir", "Pune", "Daegu", "Cusco", "Perth", "Halifax", "Malmö"]
PETS = ["Biscuit", "Pepper", "Mochi", "Rex", "Luna", "Simba", "Noodle", "Captain", "Ziggy", "Bella",
        "Tofu", "Gizmo", "Oreo", "Willow", "Kiki", "Bruno", "Pixel", "Mango", "Sushi", "Bandit"]
STREETS = ["Maple Ave", "Rue des Lilas", "Elm Street", "Calle Mayor", "Birkenweg", "Harbour Rd",
           "Via Roma", "Oak Lane", "Kirkegata", "Station Road", "Jasmine Ct", "Lindenstraße"]
DOMAINS = ["gmail.com", "outlook.com", "proton.me", "yahoo.com", "icloud.com", "gmx.de", "web.de",
           "hotmail.fr", "fastmail.com", "mail.ru", "naver.com", "qq.com"]
COMPANY = ["acme", "orbitly", "fjordlabs", "lumenhq", "tidalworks", "quartzpay", "hazelbyte", "nimbusfin",
           "pinecrest", "redkite", "bluemoss", "copperfield", "saltbox", "glasshouse", "ironleaf", "mintcart"]
SSIDS = ["Vodafone-7F2A", "FRITZ!Box 7590 QX", "TP-Link_5G_3E1C", "NETGEAR42", "Livebox-9a1d",
         "casa_garcia", "Pretty Fly for a WiFi", "BTHub6-K2P9", "Telia-88C1", "HomeNet_5G", "UPC4419327",
         "Ziggo-Guest", "MOVISTAR_A3F0", "ORBI77", "eero-cabin", "SKYNET-GUEST", "Koti_2.4"]
AWS_REGIONS = ["us-east-1", "us-west-2", "eu-central-1", "eu-west-1", "ap-southeast-2", "ap-northeast-1",
               "sa-east-1", "ca-central-1", "eu-north-1"]
DBHOSTS = ["db.internal", "pg-prod-01.{c}.net", "10.0.3.17", "mysql.{c}.io", "rds-main.cx{r}.{reg}.rds.amazonaws.com",
           "localhost", "postgres", "cluster0.{r}.mongodb.net", "redis-14523.c{n}.us-east-1-2.ec2.cloud.redislabs.com",
           "sql-{c}.database.windows.net", "{c}-db.postgres.database.azure.com", "ep-{w}-{r}.eu-central-1.aws.neon.tech"]


def dbhost():
    return ch(DBHOSTS).format(c=ch(COMPANY), r=rs(LOW + DIG, 6), reg=ch(AWS_REGIONS), n=ri(10, 99),
                               w=ch(["cool", "misty", "quiet", "bold", "wild"]) + "-" + ch(["river", "sun", "leaf", "wave"]))


def dbuser():
    return ch(["app", "admin", "postgres", "root", "svc_api", "etl_user", "readwrite", "django", "webapp",
               "analytics", "sa", "billing", "doadmin", "default"])


def dbpw():
    k = ri(0, 3)
    if k == 0:
        return rs(B62, ri(16, 32))
    if k == 1:
        return rs(B62 + "-_.~", ri(14, 24))
    if k == 2:
        return ch(["Winter", "Blue", "Harbor", "Pixel", "Falcon", "Orchid"]) + rs(DIG, 4) + ch(["x", "Q", "z"]) + rs(B62, 6)
    return rs(HEXL, 32)


def company():
    return ch(COMPANY)


SPECIAL.update({
    "dbhost": dbhost, "dbuser": dbuser, "dbpw": dbpw, "co": company, "rgn": lambda: ch(AWS_REGIONS),
    "acct": lambda: ch(COMPANY) + ch(["prod", "data", "store", "logs", "media", ""]) + rs(DIG, ri(0, 3)),
})

# ----------------------------------------------------------------------------
# vendor credential formats:  kind || Vendor || human label || VAR=template ;; VAR=template
# the FIRST variable is the credential; later ones may be companion identifiers
# ----------------------------------------------------------------------------
FORMATS_TXT = r"""
# --- cloud: AWS / GCP / Azure / other clouds
aws-access-key-pair || AWS || access key || AWS_SECRET_ACCESS_KEY={B40} ;; AWS_ACCESS_KEY_ID=AKIA{c16}
aws-session-credentials || AWS || session credentials || AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{U8}aCXVzLWVhc3QtMSJHMEUCI{B280-340} ;; AWS_ACCESS_KEY_ID=ASIA{c16} ;; AWS_SECRET_ACCESS_KEY={B40}
aws-secret-key-only || AWS || secret access key || AWS_SECRET_ACCESS_KEY={B40} ;; AWS_DEFAULT_REGION={rgn}
aws-bedrock-api-key || Amazon Bedrock || API key || AWS_BEARER_TOKEN_BEDROCK=ABSK{B108}
aws-ses-smtp-password || Amazon SES || SMTP password || SES_SMTP_PASSWORD=B{B43} ;; SES_SMTP_USERNAME=AKIA{c16}
aws-codecommit-git-credentials || AWS CodeCommit || HTTPS Git password || CODECOMMIT_PASSWORD={B43}= ;; CODECOMMIT_USERNAME=deploy-at-{d12}
gcp-api-key || Google Cloud || API key || GOOGLE_API_KEY=AIza{U35}
gcp-oauth-client-secret || Google OAuth || client secret || GOOGLE_CLIENT_SECRET=GOCSPX-{U28} ;; GOOGLE_CLIENT_ID={d12}-{a32}.apps.googleusercontent.com
gcp-oauth-refresh-token || Google OAuth || refresh token || GOOGLE_REFRESH_TOKEN=1//0{U6}Cg{U88}
gcp-oauth-access-token || Google OAuth || access token || GOOGLE_ACCESS_TOKEN=ya29.a0{U160}
gcp-service-account-json || Google Cloud || service account key || GOOGLE_APPLICATION_CREDENTIALS_JSON={sajson}
gcs-hmac-key || Google Cloud Storage || HMAC secret || GCS_HMAC_SECRET={B40} ;; GCS_HMAC_ACCESS_ID=GOOG1E{A55}
azure-storage-account-key || Azure Storage || account key || AZURE_STORAGE_KEY={B86}== ;; AZURE_STORAGE_ACCOUNT={acct}
azure-storage-connection-string || Azure Storage || connection string || AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={B86}==;EndpointSuffix=core.windows.net
azure-sas-token || Azure Storage || SAS token || AZURE_SAS_TOKEN=sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2026-0{n1}-1{n1}T0{n1}:00:00Z&st=2025-01-0{n1}T00:00:00Z&spr=https&sig={b43}%3D
azure-ad-client-secret || Microsoft Entra ID || client secret || AZURE_CLIENT_SECRET={b3}8Q~{U34} ;; AZURE_CLIENT_ID={uuid} ;; AZURE_TENANT_ID={uuid}
azure-service-bus-connection || Azure Service Bus || connection string || SERVICEBUS_CONNECTION=Endpoint=sb://{co}-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={B43}=
azure-event-hubs-connection || Azure Event Hubs || connection string || EVENTHUB_CONNECTION_STRING=Endpoint=sb://{co}-events.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={B43}=;EntityPath=telemetry
azure-cosmosdb-connection || Azure Cosmos DB || connection string || COSMOS_CONNECTION_STRING=AccountEndpoint=https://{co}-cosmos.documents.azure.com:443/;AccountKey={B86}==;
azure-devops-pat || Azure DevOps || personal access token || AZURE_DEVOPS_PAT={A52}JQQJ99{A18}AZDO{A4}
azure-devops-pat-legacy || Azure DevOps || personal access token || AZDO_PAT={C52}
azure-openai-key || Azure OpenAI || API key || AZURE_OPENAI_API_KEY={h32} ;; AZURE_OPENAI_ENDPOINT=https://{co}-oai.openai.azure.com/
azure-functions-key || Azure Functions || function key || AZURE_FUNCTION_KEY={U54}==
azure-search-admin-key || Azure AI Search || admin key || AZURE_SEARCH_ADMIN_KEY={b42}AzSeA{b5}
azure-communication-connection || Azure Communication Services || connection string || ACS_CONNECTION_STRING=endpoint=https://{co}-acs.communication.azure.com/;accesskey={B86}==
azure-signalr-connection || Azure SignalR || connection string || AZURE_SIGNALR_CONNECTION_STRING=Endpoint=https://{co}.service.signalr.net;AccessKey={B43}=;Version=1.0;
azure-redis-connection || Azure Cache for Redis || connection string || AZURE_REDIS={co}.redis.cache.windows.net:6380,password={b44}=,ssl=True,abortConnect=False
alibaba-access-key || Alibaba Cloud || AccessKey secret || ALIBABA_CLOUD_ACCESS_KEY_SECRET={b30} ;; ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI{b20}
tencent-cloud-secret || Tencent Cloud || SecretKey || TENCENTCLOUD_SECRET_KEY={b32} ;; TENCENTCLOUD_SECRET_ID=AKID{b32}
huawei-cloud-sk || Huawei Cloud || secret key || HUAWEICLOUD_SDK_SK={b40} ;; HUAWEICLOUD_SDK_AK={A20}
ibm-cloud-api-key || IBM Cloud || API key || IBMCLOUD_API_KEY={U44}
ibm-cos-hmac || IBM Cloud Object Storage || HMAC secret key || COS_HMAC_SECRET_ACCESS_KEY={h48} ;; COS_HMAC_ACCESS_KEY_ID={h32}
oracle-oci-auth-token || Oracle Cloud || auth token || OCI_AUTH_TOKEN={b8}({b5}){b5}#
oracle-oci-api-signing-key || Oracle Cloud || API signing key || OCI_PRIVATE_KEY={pempk} ;; OCI_FINGERPRINT={h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}:{h2}
digitalocean-pat || DigitalOcean || personal access token || DIGITALOCEAN_TOKEN=dop_v1_{h64}
digitalocean-oauth-token || DigitalOcean || OAuth token || DO_OAUTH_TOKEN=doo_v1_{h64}
digitalocean-refresh-token || DigitalOcean || refresh token || DO_REFRESH_TOKEN=dor_v1_{h64}
digitalocean-spaces-key || DigitalOcean Spaces || secret key || SPACES_SECRET_KEY={B43} ;; SPACES_ACCESS_KEY_ID=DO00{A16}
linode-token || Linode || API token || LINODE_TOKEN={h64}
vultr-api-key || Vultr || API key || VULTR_API_KEY={A36}
hetzner-cloud-token || Hetzner Cloud || API token || HCLOUD_TOKEN={b64}
scaleway-secret-key || Scaleway || secret key || SCW_SECRET_KEY={uuid} ;; SCW_ACCESS_KEY=SCW{A17}
ovh-application-secret || OVHcloud || application secret || OVH_APPLICATION_SECRET={a32} ;; OVH_APPLICATION_KEY={b16} ;; OVH_CONSUMER_KEY={a32}
exoscale-api-secret || Exoscale || API secret || EXOSCALE_API_SECRET={U43} ;; EXOSCALE_API_KEY=EXO{h24}
upcloud-password || UpCloud || API password || UPCLOUD_PASSWORD={dbpw} ;; UPCLOUD_USERNAME=api-{co}
yandex-cloud-api-key || Yandex Cloud || API key || YC_API_KEY=AQVN{U36}
yandex-cloud-iam-token || Yandex Cloud || IAM token || YC_IAM_TOKEN=t1.9euelZ{U150}
yandex-cloud-static-key || Yandex Cloud || static access key secret || YC_SECRET_ACCESS_KEY=YC{U38} ;; YC_ACCESS_KEY_ID=YCAJE{U20}
cloudflare-api-token || Cloudflare || API token || CLOUDFLARE_API_TOKEN={U40}
cloudflare-global-api-key || Cloudflare || global API key || CLOUDFLARE_API_KEY={h37} ;; CLOUDFLARE_EMAIL=ops@{co}.com
cloudflare-origin-ca-key || Cloudflare || Origin CA key || CF_ORIGIN_CA_KEY=v1.0-{h24}-{h146}
cloudflare-r2-secret || Cloudflare R2 || secret access key || R2_SECRET_ACCESS_KEY={h64} ;; R2_ACCESS_KEY_ID={h32}
cloudflare-tunnel-token || Cloudflare Tunnel || tunnel token || TUNNEL_TOKEN=eyJhIjoi{U180}
fastly-api-token || Fastly || API token || FASTLY_API_TOKEN={U32}
akamai-edgegrid || Akamai || EdgeGrid client secret || AKAMAI_CLIENT_SECRET={B43}= ;; AKAMAI_ACCESS_TOKEN=akab-{a16}-{a16} ;; AKAMAI_CLIENT_TOKEN=akab-{a16}-{a16}
bunny-cdn-api-key || bunny.net || API key || BUNNY_API_KEY={uuid}-{h4}-{h4}-{h4}-{h12}
heroku-api-key-legacy || Heroku || API key || HEROKU_API_KEY={uuid}
heroku-api-key || Heroku || API key || HEROKU_API_KEY=HRKU-AA{U58}
flyio-token || Fly.io || access token || FLY_API_TOKEN=FlyV1 fm2_lJPECAAAAAAAA{U160}
flyio-macaroon-legacy || Fly.io || access token || FLY_ACCESS_TOKEN=fo1_{U43}
netlify-pat || Netlify || personal access token || NETLIFY_AUTH_TOKEN=nfp_{b36}
vercel-token || Vercel || access token || VERCEL_TOKEN={b24}
render-api-key || Render || API key || RENDER_API_KEY=rnd_{b28}
railway-token || Railway || API token || RAILWAY_TOKEN={uuid}
koyeb-token || Koyeb || API token || KOYEB_TOKEN={a64}
supabase-pat || Supabase || access token || SUPABASE_ACCESS_TOKEN=sbp_{h40}
supabase-service-role-key || Supabase || service_role key || SUPABASE_SERVICE_ROLE_KEY={jwtsr} ;; SUPABASE_URL=https://{l20}.supabase.co
supabase-secret-key || Supabase || secret API key || SUPABASE_SECRET_KEY=sb_secret_{U31}
firebase-fcm-server-key || Firebase Cloud Messaging || server key || FCM_SERVER_KEY=AAAA{U7}:APA91b{U134}
appwrite-api-key || Appwrite || API key || APPWRITE_API_KEY=standard_{h256}
convex-deploy-key || Convex || deploy key || CONVEX_DEPLOY_KEY=prod:{l6}-{l6}-{d3}|{U80}
# --- databases and connection strings
planetscale-service-token || PlanetScale || service token || PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{U43}
planetscale-password || PlanetScale || database password || DATABASE_PASSWORD=pscale_pw_{U43}
planetscale-oauth-token || PlanetScale || OAuth token || PSCALE_OAUTH=pscale_oauth_{U43}
neon-api-key || Neon || API key || NEON_API_KEY=napi_{a64}
mongodb-atlas-api-key || MongoDB Atlas || API private key || MONGODB_ATLAS_PRIVATE_KEY={uuid} ;; MONGODB_ATLAS_PUBLIC_KEY={l8}
mongodb-srv-uri || MongoDB || connection URI || MONGODB_URI=mongodb+srv://{dbuser}:{dbpw}@cluster0.{a5}.mongodb.net/{co}?retryWrites=true&w=majority
mongodb-uri || MongoDB || connection URI || MONGO_URL=mongodb://{dbuser}:{dbpw}@mongo-{d1}.{co}.internal:27017/admin?authSource=admin
postgres-uri || PostgreSQL || connection URI || DATABASE_URL=postgresql://{dbuser}:{dbpw}@{dbhost}:5432/{co}
postgres-libpq-dsn || PostgreSQL || DSN || PG_DSN=host={dbhost} port=5432 dbname={co} user={dbuser} password={dbpw} sslmode=require
mysql-uri || MySQL || connection URI || MYSQL_URL=mysql://{dbuser}:{dbpw}@{dbhost}:3306/{co}
mariadb-uri || MariaDB || connection URI || MARIADB_URL=mariadb://{dbuser}:{dbpw}@{dbhost}:3306/shop
mssql-connection-string || SQL Server || connection string || SQLSERVER_CONNECTION=Server=tcp:{dbhost},1433;Initial Catalog={co};User ID={dbuser};Password={dbpw};Encrypt=True;
oracle-jdbc-url || Oracle DB || JDBC URL || ORACLE_JDBC_URL=jdbc:oracle:thin:{dbuser}/{dbpw}@//ora-{d2}.{co}.local:1521/ORCLPDB1
jdbc-postgres-url || PostgreSQL || JDBC URL || SPRING_DATASOURCE_URL=jdbc:postgresql://{dbhost}:5432/{co}?user={dbuser}&password={dbpw}
redis-uri || Redis || connection URI || REDIS_URL=redis://default:{dbpw}@{dbhost}:6379/0
rediss-uri || Redis || TLS connection URI || REDIS_TLS_URL=rediss://:{b32}@redis-{d5}.{co}.cache.io:6380
upstash-redis-token || Upstash || REST token || UPSTASH_REDIS_REST_TOKEN=A{U3}QAAIjcDE{U60}
upstash-redis-url || Upstash || Redis URL || UPSTASH_REDIS_URL=rediss://default:{b32}@{l6}-{l6}-{d5}.upstash.io:6379
rabbitmq-amqp-uri || RabbitMQ || AMQP URI || RABBITMQ_URL=amqp://{dbuser}:{dbpw}@rabbit.{co}.internal:5672/%2F
cloudamqp-uri || CloudAMQP || AMQPS URI || CLOUDAMQP_URL=amqps://{l8}:{U32}@{l5}.lmq.cloudamqp.com/{l8}
kafka-sasl-jaas || Apache Kafka || SASL JAAS config || KAFKA_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username="{A16}" password="{B64}";
confluent-cloud-api-secret || Confluent Cloud || API secret || CONFLUENT_API_SECRET={B64} ;; CONFLUENT_API_KEY={A16}
elasticsearch-uri || Elasticsearch || connection URI || ELASTICSEARCH_URL=https://elastic:{b24}@{co}-{h6}.es.us-central1.gcp.cloud.es.io:9243
elastic-cloud-api-key || Elastic Cloud || API key || ELASTIC_API_KEY={B58}==
couchbase-uri || Couchbase || connection string || COUCHBASE_CONNSTR=couchbases://{dbuser}:{dbpw}@cb.{a16}.cloud.couchbase.com
neo4j-bolt-uri || Neo4j || connection URI || NEO4J_URI=neo4j+s://neo4j:{U43}@{h8}.databases.neo4j.io
cassandra-astra-token || DataStax Astra || application token || ASTRA_DB_APPLICATION_TOKEN=AstraCS:{b24}:{h64}
cockroachdb-uri || CockroachDB || connection URI || COCKROACH_URL=postgresql://{dbuser}:{b22}@free-tier{d2}.gcp-us-central1.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full
snowflake-password || Snowflake || user password || SNOWFLAKE_PASSWORD={dbpw} ;; SNOWFLAKE_ACCOUNT={A7}-{A7} ;; SNOWFLAKE_USER=LOADER
snowflake-pat || Snowflake || programmatic access token || SNOWFLAKE_TOKEN={jwtes}
databricks-token || Databricks || personal access token || DATABRICKS_TOKEN=dapi{h32} ;; DATABRICKS_HOST=https://adb-{d16}.{d1}.azuredatabricks.net
databricks-token-suffix || Databricks || personal access token || DATABRICKS_TOKEN=dapi{h32}-{d1}
clickhouse-cloud-key || ClickHouse Cloud || API key secret || CLICKHOUSE_KEY_SECRET=4b1d{b38} ;; CLICKHOUSE_KEY_ID={A20}
clickhouse-uri || ClickHouse || connection URI || CLICKHOUSE_URL=clickhouse://default:{b16}@{l10}.europe-west4.gcp.clickhouse.cloud:9440/default?secure=true
influxdb-token || InfluxDB || API token || INFLUXDB_TOKEN={U86}==
turso-auth-token || Turso || auth token || TURSO_AUTH_TOKEN={jwtes}
fauna-secret || Fauna || secret || FAUNA_SECRET=fnA{U37}
airtable-pat || Airtable || personal access token || AIRTABLE_TOKEN=pat{b14}.{h64}
airtable-api-key-legacy || Airtable || API key || AIRTABLE_API_KEY=key{b14}
pinecone-api-key || Pinecone || API key || PINECONE_API_KEY=pcsk_{b5}_{b60}
pinecone-api-key-legacy || Pinecone || API key || PINECONE_API_KEY={uuid}
weaviate-api-key || Weaviate Cloud || API key || WEAVIATE_API_KEY={b40}
qdrant-api-key || Qdrant Cloud || API key || QDRANT_API_KEY={b22}_{U64}
algolia-admin-key || Algolia || admin API key || ALGOLIA_ADMIN_KEY={h32} ;; ALGOLIA_APP_ID={A10}
meilisearch-master-key || Meilisearch || master key || MEILI_MASTER_KEY={U43}
typesense-admin-key || Typesense || admin API key || TYPESENSE_API_KEY={b32}
ldap-bind-password || LDAP || bind password || LDAP_BIND_PASSWORD={dbpw} ;; LDAP_BIND_DN=cn=svc-sync,ou=services,dc={co},dc=com
ftp-url || FTP || URL with password || FTP_URL=ftp://{dbuser}:{dbpw}@ftp.{co}.com:21/uploads
sftp-url || SFTP || URL with password || SFTP_URL=sftp://deploy:{dbpw}@files.{co}.net:22/var/www
smb-share || SMB || share credentials || SMB_URL=smb://{co};{dbuser}:{dbpw}@nas01/backup
smtp-url || SMTP || URL with password || SMTP_URL=smtp://noreply%40{co}.com:{dbpw}@smtp.{co}.com:587
minio-root-credentials || MinIO || root password || MINIO_ROOT_PASSWORD={b32} ;; MINIO_ROOT_USER=minio-{co}
# --- payments / fintech / commerce
stripe-secret-key || Stripe || live secret key || STRIPE_SECRET_KEY=sk_live_51{b96}
stripe-secret-key-legacy || Stripe || live secret key || STRIPE_API_KEY=sk_live_{b24}
stripe-restricted-key || Stripe || restricted key || STRIPE_RESTRICTED_KEY=rk_live_51{b96}
stripe-webhook-secret || Stripe || webhook signing secret || STRIPE_WEBHOOK_SECRET=whsec_{b32}
braintree-access-token || PayPal Braintree || access token || BRAINTREE_ACCESS_TOKEN=access_token$production${a16}${h32}
braintree-private-key || Braintree || private key || BRAINTREE_PRIVATE_KEY={h32} ;; BRAINTREE_MERCHANT_ID={a16} ;; BRAINTREE_PUBLIC_KEY={a16}
paypal-client-secret || PayPal || client secret || PAYPAL_CLIENT_SECRET=E{U79} ;; PAYPAL_CLIENT_ID=A{U79}
square-access-token || Square || access token || SQUARE_ACCESS_TOKEN=EAAA{U60}
square-oauth-secret || Square || OAuth secret || SQUARE_OAUTH_SECRET=sq0csp-{U43}
square-access-token-legacy || Square || access token || SQUARE_TOKEN=sq0atp-{U22}
adyen-api-key || Adyen || API key || ADYEN_API_KEY=AQE{d1}hmfxK{U3}jhFAhMv+{U88}
razorpay-key-secret || Razorpay || key secret || RAZORPAY_KEY_SECRET={b24} ;; RAZORPAY_KEY_ID=rzp_live_{b14}
paystack-secret-key || Paystack || secret key || PAYSTACK_SECRET_KEY=sk_live_{h40}
flutterwave-secret-key || Flutterwave || secret key || FLW_SECRET_KEY=FLWSECK-{h32}-X
mollie-live-key || Mollie || live API key || MOLLIE_API_KEY=live_{b30}
checkout-com-secret || Checkout.com || secret key || CKO_SECRET_KEY=sk_{l8}{b18}
gocardless-live-token || GoCardless || live access token || GOCARDLESS_ACCESS_TOKEN=live_{U40}
plaid-secret || Plaid || secret || PLAID_SECRET={h30} ;; PLAID_CLIENT_ID={h24}
wise-api-token || Wise || API token || WISE_API_TOKEN={uuid}
klarna-api-password || Klarna || API password || KLARNA_API_PASSWORD=klarna_live_api_{U72} ;; KLARNA_USERNAME={uuid}
coinbase-cdp-key || Coinbase Developer Platform || API private key || COINBASE_API_PRIVATE_KEY={pemec} ;; COINBASE_API_KEY_NAME=organizations/{uuid}/apiKeys/{uuid}
coinbase-legacy-key || Coinbase || API secret || COINBASE_API_SECRET={b32} ;; COINBASE_API_KEY={b16}
binance-api-secret || Binance || API secret || BINANCE_API_SECRET={b64} ;; BINANCE_API_KEY={b64}
kraken-private-key || Kraken || private key || KRAKEN_PRIVATE_KEY={B86}== ;; KRAKEN_API_KEY={B56}
kucoin-api-secret || KuCoin || API secret || KUCOIN_API_SECRET={uuid} ;; KUCOIN_API_KEY={h24} ;; KUCOIN_PASSPHRASE={b12}
okx-secret-key || OKX || secret key || OKX_SECRET_KEY={H32} ;; OKX_API_KEY={uuid} ;; OKX_PASSPHRASE={b10}!
bybit-api-secret || Bybit || API secret || BYBIT_API_SECRET={b36} ;; BYBIT_API_KEY={b18}
gemini-exchange-secret || Gemini (exchange) || API secret || GEMINI_API_SECRET={b28} ;; GEMINI_API_KEY=account-{b20}
bitstamp-secret || Bitstamp || API secret || BITSTAMP_API_SECRET={b32} ;; BITSTAMP_API_KEY={b32}
bitfinex-secret || Bitfinex || API secret || BFX_API_SECRET={b43} ;; BFX_API_KEY={b43}
lemonsqueezy-api-key || Lemon Squeezy || API key || LEMONSQUEEZY_API_KEY={jwt}
paddle-api-key || Paddle || API key || PADDLE_API_KEY=pdl_live_apikey_01{a24}_{b27}
chargebee-api-key || Chargebee || API key || CHARGEBEE_API_KEY=live_{b34}
recurly-api-key || Recurly || private API key || RECURLY_API_KEY={h32}
authorize-net-transaction-key || Authorize.Net || transaction key || AUTHNET_TRANSACTION_KEY={b16} ;; AUTHNET_API_LOGIN_ID={b10}
dwolla-secret || Dwolla || application secret || DWOLLA_SECRET={b50} ;; DWOLLA_KEY={b50}
shippo-live-token || Shippo || live API token || SHIPPO_API_TOKEN=shippo_live_{h40}
easypost-prod-key || EasyPost || production API key || EASYPOST_API_KEY=EZAK{h54}
lob-live-key || Lob || live API key || LOB_API_KEY=live_{h35}
taxjar-token || TaxJar || API token || TAXJAR_API_KEY={h32}
avalara-license-key || Avalara || license key || AVALARA_LICENSE_KEY={H16} ;; AVALARA_ACCOUNT_ID={d10}
mercadopago-access-token || Mercado Pago || access token || MERCADOPAGO_ACCESS_TOKEN=APP_USR-{d16}-{d6}-{h32}-{d9}
midtrans-server-key || Midtrans || server key || MIDTRANS_SERVER_KEY=Mid-server-{U24}
xendit-secret-key || Xendit || secret key || XENDIT_SECRET_KEY=xnd_production_{U60}
iyzico-secret-key || iyzico || secret key || IYZICO_SECRET_KEY={b32} ;; IYZICO_API_KEY={b32}
payu-md5-key || PayU || second key (MD5) || PAYU_SECOND_KEY={h32} ;; PAYU_POS_ID={d6}
sumup-secret-key || SumUp || API key || SUMUP_API_KEY=sup_sk_{b32}
shopify-admin-token || Shopify || Admin API access token || SHOPIFY_ACCESS_TOKEN=shpat_{h32} ;; SHOPIFY_STORE={co}.myshopify.com
shopify-shared-secret || Shopify || app shared secret || SHOPIFY_API_SECRET=shpss_{h32}
shopify-custom-app-token || Shopify || custom app token || SHOPIFY_CUSTOM_TOKEN=shpca_{h32}
shopify-private-app-password || Shopify || private app password || SHOPIFY_PASSWORD=shppa_{h32}
bigcommerce-access-token || BigCommerce || access token || BIGCOMMERCE_ACCESS_TOKEN={a31} ;; BIGCOMMERCE_STORE_HASH={a10}
woocommerce-consumer-secret || WooCommerce || consumer secret || WC_CONSUMER_SECRET=cs_{h40} ;; WC_CONSUMER_KEY=ck_{h40}
magento-integration-token || Magento || integration access token || MAGENTO_ACCESS_TOKEN={a32}
etsy-shared-secret || Etsy || shared secret || ETSY_SHARED_SECRET={a10} ;; ETSY_KEYSTRING={a24}
ebay-client-secret || eBay || client secret (cert id) || EBAY_CERT_ID=PRD-{h12}-{h4}-{h4}-{h4}-{h4} ;; EBAY_APP_ID={co}-app-PRD-{h9}-{h8}
amazon-lwa-client-secret || Amazon Login with Amazon || client secret || LWA_CLIENT_SECRET=amzn1.oa2-cs.v1.{h64}
amazon-sp-api-refresh-token || Amazon SP-API || refresh token || SP_API_REFRESH_TOKEN=Atzr|IwEBI{U240}
gumroad-access-token || Gumroad || access token || GUMROAD_ACCESS_TOKEN={U43}
printful-token || Printful || private token || PRINTFUL_TOKEN={b40}
# --- source control, CI/CD, registries
github-pat-classic || GitHub || personal access token || GITHUB_TOKEN=ghp_{gh}
github-oauth-token || GitHub || OAuth token || GH_OAUTH_TOKEN=gho_{gh}
github-user-to-server || GitHub || user-to-server token || GH_APP_USER_TOKEN=ghu_{gh}
github-server-to-server || GitHub || installation token || GH_INSTALLATION_TOKEN=ghs_{gh}
github-refresh-token || GitHub || refresh token || GH_REFRESH_TOKEN=ghr_{b76}
github-fine-grained-pat || GitHub || fine-grained token || GH_PAT=github_pat_11{A20}0{b1}_{b59}
github-app-private-key || GitHub App || private key || GITHUB_APP_PRIVATE_KEY={pemrsa} ;; GITHUB_APP_ID={d6}
github-oauth-client-secret || GitHub OAuth App || client secret || GITHUB_CLIENT_SECRET={h40} ;; GITHUB_CLIENT_ID=Iv1.{h16}
gitlab-pat || GitLab || personal access token || GITLAB_TOKEN=glpat-{U20}
gitlab-deploy-token || GitLab || deploy token || GITLAB_DEPLOY_TOKEN=gldt-{U20}
gitlab-runner-token || GitLab || runner authentication token || CI_RUNNER_TOKEN=glrt-{U20}
gitlab-pipeline-trigger || GitLab || pipeline trigger token || TRIGGER_TOKEN=glptt-{h40}
gitlab-cicd-job-token || GitLab || CI/CD job token || CI_JOB_TOKEN=glcbt-{h2}_{U20}
gitlab-feed-token || GitLab || feed token || GITLAB_FEED_TOKEN=glft-{U20}
gitlab-incoming-mail-token || GitLab || incoming mail token || GITLAB_INCOMING_TOKEN=glimt-{a25}
gitlab-scim-token || GitLab || SCIM OAuth token || GITLAB_SCIM_TOKEN=glsoat-{U20}
gitlab-oauth-secret || GitLab || OAuth application secret || GITLAB_OAUTH_SECRET=gloas-{h64}
gitlab-agent-token || GitLab || agent token || GITLAB_AGENT_TOKEN=glagent-{U50}
gitlab-runner-registration || GitLab || runner registration token || REGISTRATION_TOKEN=GR1348941{U20}
bitbucket-app-password || Bitbucket || app password || BITBUCKET_APP_PASSWORD=ATBB{b32}{H8}
bitbucket-access-token || Bitbucket || repository access token || BITBUCKET_ACCESS_TOKEN=ATCTT3xFfGN0{U180}={H8}
atlassian-api-token || Atlassian || API token || ATLASSIAN_API_TOKEN=ATATT3xFfGF0{U180}={H8} ;; ATLASSIAN_EMAIL={l6}@{co}.com
gitea-token || Gitea || access token || GITEA_TOKEN={h40}
sourcegraph-token || Sourcegraph || access token || SRC_ACCESS_TOKEN=sgp_{h16}_{h40}
sourcehut-token || sourcehut || OAuth token || SRHT_TOKEN={U60}
circleci-pat || CircleCI || personal API token || CIRCLECI_TOKEN=CCIPAT_{b22}_{h40}
circleci-project-token || CircleCI || project API token || CIRCLE_PROJECT_TOKEN=CCIPRJ_{b22}_{h40}
travis-ci-token || Travis CI || API token || TRAVIS_TOKEN={U22}
buildkite-api-token || Buildkite || API token || BUILDKITE_API_TOKEN=bkua_{h40}
buildkite-agent-token || Buildkite || agent token || BUILDKITE_AGENT_TOKEN={h50}
jenkins-api-token || Jenkins || API token || JENKINS_API_TOKEN=11{h32} ;; JENKINS_USER=ci-bot
drone-ci-token || Drone CI || token || DRONE_TOKEN={b32}
teamcity-token || TeamCity || access token || TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{U36}.{U48}
sonarqube-user-token || SonarQube || user token || SONAR_TOKEN=squ_{h40}
sonarqube-project-token || SonarQube || project analysis token || SONAR_PROJECT_TOKEN=sqp_{h40}
sonarqube-global-token || SonarQube || global analysis token || SONAR_GLOBAL_TOKEN=sqa_{h40}
sonarcloud-token || SonarCloud || token || SONARCLOUD_TOKEN={h40}
snyk-token || Snyk || API token || SNYK_TOKEN={uuid}
codecov-token || Codecov || upload token || CODECOV_TOKEN={uuid}
coveralls-repo-token || Coveralls || repo token || COVERALLS_REPO_TOKEN={b33}
octopus-api-key || Octopus Deploy || API key || OCTOPUS_API_KEY=API-{A26}
harness-pat || Harness || personal access token || HARNESS_API_KEY=pat.{b22}.{b24}.{b20}
argocd-token || Argo CD || API token || ARGOCD_AUTH_TOKEN={jwt}
bitrise-pat || Bitrise || personal access token || BITRISE_TOKEN={U86}
expo-token || Expo || access token || EXPO_TOKEN={U40}
codemagic-token || Codemagic || API token || CM_API_TOKEN={U43}
appveyor-token || AppVeyor || API token || APPVEYOR_TOKEN=v2.{b20}
docker-hub-pat || Docker Hub || personal access token || DOCKERHUB_TOKEN=dckr_pat_{U27} ;; DOCKERHUB_USERNAME={co}bot
docker-hub-oat || Docker Hub || organization access token || DOCKER_ORG_TOKEN=dckr_oat_{U32}
docker-config-auth || Docker || registry auth (config.json) || DOCKER_AUTH_CONFIG={dockerauth}
quay-robot-token || Quay.io || robot token || QUAY_ROBOT_TOKEN={A64} ;; QUAY_ROBOT=org+deployer
jfrog-api-key || JFrog Artifactory || API key || ARTIFACTORY_API_KEY=AKCp{b69}
jfrog-identity-token || JFrog || identity token || JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOj{b50}
ghcr-login || GitHub Container Registry || registry token || CR_PAT=ghp_{gh}
npm-token || npm || access token || NPM_TOKEN=npm_{gh}
npm-token-legacy || npm || auth token || NPM_AUTH_TOKEN={uuid}
pypi-token || PyPI || API token || PYPI_TOKEN=pypi-AgEIcHlwaS5vcmcCJ{U150}
testpypi-token || TestPyPI || API token || TEST_PYPI_TOKEN=pypi-AgENdGVzdC5weXBpLm9yZwIk{U150}
rubygems-api-key || RubyGems || API key || GEM_HOST_API_KEY=rubygems_{h48}
nuget-api-key || NuGet || API key || NUGET_API_KEY=oy2{a43}
crates-io-token || crates.io || API token || CARGO_REGISTRY_TOKEN=cio{b32}
hex-pm-key || Hex.pm || API key || HEX_API_KEY={h32}
cocoapods-trunk-token || CocoaPods trunk || session token || COCOAPODS_TRUNK_TOKEN={h32}
packagist-token || Packagist || API token || PACKAGIST_TOKEN={b20}
terraform-cloud-token || Terraform Cloud || API token || TFE_TOKEN={b14}.atlasv1.{b67}
pulumi-access-token || Pulumi || access token || PULUMI_ACCESS_TOKEN=pul-{h40}
vault-service-token || HashiCorp Vault || service token || VAULT_TOKEN=hvs.{U90}
vault-batch-token || HashiCorp Vault || batch token || VAULT_BATCH_TOKEN=hvb.{U138}
vault-token-legacy || HashiCorp Vault || token || VAULT_TOKEN=s.{b24}
vault-unseal-key || HashiCorp Vault || unseal key || VAULT_UNSEAL_KEY_1={B44}
consul-acl-token || Consul || ACL token || CONSUL_HTTP_TOKEN={uuid}
nomad-token || Nomad || ACL token || NOMAD_TOKEN={uuid}
doppler-service-token || Doppler || service token || DOPPLER_TOKEN=dp.st.prd.{b40}
doppler-personal-token || Doppler || personal token || DOPPLER_PERSONAL_TOKEN=dp.pt.{b43}
doppler-cli-token || Doppler || CLI token || DOPPLER_CLI_TOKEN=dp.ct.{b40}
doppler-scim-token || Doppler || SCIM token || DOPPLER_SCIM_TOKEN=dp.scim.{b40}
doppler-audit-token || Doppler || audit token || DOPPLER_AUDIT_TOKEN=dp.audit.{b40}
onepassword-service-account || 1Password || service account token || OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{U260}
onepassword-connect-token || 1Password Connect || access token || OP_CONNECT_TOKEN={jwtes}
infisical-service-token || Infisical || service token || INFISICAL_TOKEN=st.{uuid}.{h32}.{h32}
bitwarden-sm-token || Bitwarden Secrets Manager || access token || BWS_ACCESS_TOKEN=0.{uuid}.{b30}:{B22}==
akeyless-access-key || Akeyless || access key || AKEYLESS_ACCESS_KEY={B43}= ;; AKEYLESS_ACCESS_ID=p-{a12}
apple-app-store-connect-key || App Store Connect || API private key (.p8) || ASC_PRIVATE_KEY={pemapple} ;; ASC_KEY_ID={A10} ;; ASC_ISSUER_ID={uuid}
apple-app-specific-password || Apple ID || app-specific password || APPLE_APP_SPECIFIC_PASSWORD={l4}-{l4}-{l4}-{l4} ;; APPLE_ID={l6}@icloud.com
android-keystore-password || Android signing || keystore password || ANDROID_KEYSTORE_PASSWORD={dbpw} ;; ANDROID_KEY_ALIAS=upload
postman-api-key || Postman || API key || POSTMAN_API_KEY=PMAK-{h24}-{h34}
rapidapi-key || RapidAPI || API key || RAPIDAPI_KEY={b50}
readme-api-key || ReadMe || API key || README_API_KEY=rdme_{a70}
ngrok-authtoken || ngrok || authtoken || NGROK_AUTHTOKEN=2{b26}_{b21}
ngrok-api-key || ngrok || API key || NGROK_API_KEY=2{b26}_{b24}
tailscale-auth-key || Tailscale || auth key || TS_AUTHKEY=tskey-auth-{b11}CNTRL-{b33}
tailscale-api-key || Tailscale || API access token || TS_API_KEY=tskey-api-{b11}CNTRL-{b33}
tailscale-oauth-secret || Tailscale || OAuth client secret || TS_OAUTH_SECRET=tskey-client-{b11}CNTRL-{b33}
zerotier-api-token || ZeroTier || API token || ZEROTIER_TOKEN={b32}
prefect-api-key || Prefect Cloud || API key || PREFECT_API_KEY=pnu_{b36}
dbt-cloud-token || dbt Cloud || service token || DBT_CLOUD_TOKEN=dbtc_{U50}
fivetran-api-secret || Fivetran || API secret || FIVETRAN_API_SECRET={b32} ;; FIVETRAN_API_KEY={b16}
airbyte-api-key || Airbyte Cloud || API key || AIRBYTE_API_KEY={jwt}
n8n-api-key || n8n || API key || N8N_API_KEY={jwt}
# --- observability / incident / analytics
datadog-api-key || Datadog || API key || DD_API_KEY={h32} ;; DD_SITE=datadoghq.eu
datadog-app-key || Datadog || application key || DD_APP_KEY={h40}
newrelic-user-key || New Relic || user API key || NEW_RELIC_API_KEY=NRAK-{A27}
newrelic-license-key || New Relic || ingest license key || NEW_RELIC_LICENSE_KEY={h36}NRAL
newrelic-insert-key || New Relic || Insights insert key || NEW_RELIC_INSERT_KEY=NRII-{U32}
honeycomb-ingest-key || Honeycomb || ingest key || HONEYCOMB_API_KEY=hcaik_01{a24}{a32}
honeycomb-config-key || Honeycomb || configuration key || HONEYCOMB_CONFIG_KEY={b22}
grafana-cloud-token || Grafana Cloud || access policy token || GRAFANA_CLOUD_TOKEN=glc_eyJvIjoi{U100}
grafana-service-account-token || Grafana || service account token || GRAFANA_SA_TOKEN=glsa_{b32}_{h8}
grafana-api-key-legacy || Grafana || API key || GRAFANA_API_KEY=eyJrIjoi{U60}
dynatrace-api-token || Dynatrace || API token || DT_API_TOKEN=dt0c01.{A24}.{A64}
splunk-hec-token || Splunk || HEC token || SPLUNK_HEC_TOKEN={uuid}
splunk-observability-token || Splunk Observability || access token || SFX_ACCESS_TOKEN={U22}
sumologic-access-key || Sumo Logic || access key || SUMO_ACCESS_KEY={b64} ;; SUMO_ACCESS_ID=su{b12}
logzio-shipping-token || Logz.io || shipping token || LOGZIO_TOKEN={a32}
loggly-token || Loggly || customer token || LOGGLY_TOKEN={uuid}
papertrail-token || Papertrail || API token || PAPERTRAIL_API_TOKEN={b20}
mezmo-ingestion-key || Mezmo || ingestion key || MEZMO_INGESTION_KEY={h32}
pagerduty-routing-key || PagerDuty || integration (routing) key || PAGERDUTY_ROUTING_KEY={h32}
pagerduty-api-token || PagerDuty || REST API token || PAGERDUTY_TOKEN=u+{U18}
opsgenie-api-key || Opsgenie || API key || OPSGENIE_API_KEY={uuid}
lightstep-access-token || Lightstep || access token || LS_ACCESS_TOKEN={B84}
elastic-apm-secret-token || Elastic APM || secret token || ELASTIC_APM_SECRET_TOKEN={b24}
bugsnag-api-key || Bugsnag || data access token || BUGSNAG_AUTH_TOKEN={h32}
rollbar-server-token || Rollbar || post_server_item token || ROLLBAR_ACCESS_TOKEN={h32}
airbrake-project-key || Airbrake || project key || AIRBRAKE_PROJECT_KEY={h32} ;; AIRBRAKE_PROJECT_ID={d6}
sentry-org-token || Sentry || organization auth token || SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiOj{U120}_{U43}
sentry-user-token || Sentry || user auth token || SENTRY_AUTH_TOKEN=sntryu_{h64}
sentry-auth-token-legacy || Sentry || auth token || SENTRY_TOKEN={h64}
launchdarkly-sdk-key || LaunchDarkly || server SDK key || LAUNCHDARKLY_SDK_KEY=sdk-{uuid}
launchdarkly-api-token || LaunchDarkly || API access token || LD_API_KEY=api-{uuid}
split-server-key || Split || server-side SDK key || SPLIT_API_KEY={a36}
flagsmith-server-key || Flagsmith || server-side environment key || FLAGSMITH_SERVER_KEY=ser.{b22}
configcat-sdk-key || ConfigCat || SDK key || CONFIGCAT_SDK_KEY=configcat-sdk-1/{U22}/{U22}
unleash-admin-token || Unleash || admin API token || UNLEASH_API_TOKEN=*:*.{h64}
unleash-client-token || Unleash || client token || UNLEASH_CLIENT_TOKEN=default:production.{h64}
growthbook-secret-key || GrowthBook || secret key || GROWTHBOOK_SECRET=secret_{b24}
posthog-personal-key || PostHog || personal API key || POSTHOG_PERSONAL_API_KEY=phx_{b43}
mixpanel-service-secret || Mixpanel || service account secret || MIXPANEL_SERVICE_SECRET={b32} ;; MIXPANEL_SERVICE_USER={l8}.{h6}.mp-service-account
amplitude-secret-key || Amplitude || secret key || AMPLITUDE_SECRET_KEY={h32} ;; AMPLITUDE_API_KEY={h32}
statuspage-api-key || Statuspage || API key || STATUSPAGE_API_KEY={uuid}
checkly-api-key || Checkly || API key || CHECKLY_API_KEY=cu_{h32}
# --- messaging / email / comms
slack-bot-token || Slack || bot token || SLACK_BOT_TOKEN=xoxb-{d12}-{d13}-{b24}
slack-user-token || Slack || user token || SLACK_USER_TOKEN=xoxp-{d12}-{d12}-{d13}-{h32}
slack-app-token || Slack || app-level token || SLACK_APP_TOKEN=xapp-1-A{A10}-{d13}-{h64}
slack-refresh-token || Slack || refresh token || SLACK_REFRESH_TOKEN=xoxe-1-{U146}
slack-config-token || Slack || configuration token || SLACK_CONFIG_TOKEN=xoxe.xoxp-1-{U160}
slack-legacy-workspace-token || Slack || workspace token || SLACK_WORKSPACE_TOKEN=xoxa-2-{d12}-{d12}-{d13}-{h64}
slack-webhook || Slack || incoming webhook URL || SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{A10}/B{A10}/{b24}
slack-workflow-webhook || Slack || workflow webhook URL || SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{A10}/{d13}/{h32}
slack-signing-secret || Slack || signing secret || SLACK_SIGNING_SECRET={h32}
discord-bot-token || Discord || bot token || DISCORD_TOKEN=M{U25}.{U6}.{U38}
discord-webhook || Discord || webhook URL || DISCORD_WEBHOOK=https://discord.com/api/webhooks/{d19}/{U68}
discord-client-secret || Discord || OAuth2 client secret || DISCORD_CLIENT_SECRET={U32} ;; DISCORD_CLIENT_ID={d19}
telegram-bot-token || Telegram || bot token || TELEGRAM_BOT_TOKEN={d10}:AA{U33}
twilio-api-key-secret || Twilio || API key secret || TWILIO_API_SECRET={b32} ;; TWILIO_API_KEY=SK{h32}
twilio-auth-token || Twilio || auth token || TWILIO_AUTH_TOKEN={h32} ;; TWILIO_ACCOUNT_SID=AC{h32}
sendgrid-api-key || SendGrid || API key || SENDGRID_API_KEY=SG.{U22}.{U43}
mailgun-api-key-legacy || Mailgun || API key || MAILGUN_API_KEY=key-{h32}
mailgun-private-key || Mailgun || private API key || MAILGUN_API_KEY={h32}-{h8}-{h8}
mailgun-webhook-signing-key || Mailgun || webhook signing key || MAILGUN_WEBHOOK_SIGNING_KEY={h32}
mailchimp-api-key || Mailchimp || API key || MAILCHIMP_API_KEY={h32}-us{n1}{d1}
mandrill-api-key || Mandrill || API key || MANDRILL_KEY=md-{U22}
postmark-server-token || Postmark || server token || POSTMARK_SERVER_TOKEN={uuid}
brevo-api-key || Brevo || API key || BREVO_API_KEY=xkeysib-{h64}-{b16}
brevo-smtp-key || Brevo || SMTP key || BREVO_SMTP_KEY=xsmtpsib-{h64}-{b16}
mailjet-secret-key || Mailjet || secret key || MJ_APISECRET_PRIVATE={h32} ;; MJ_APIKEY_PUBLIC={h32}
sparkpost-api-key || SparkPost || API key || SPARKPOST_API_KEY={h40}
resend-api-key || Resend || API key || RESEND_API_KEY=re_{b8}_{b24}
customerio-app-key || Customer.io || App API key || CUSTOMERIO_APP_API_KEY={h32}
loops-api-key || Loops || API key || LOOPS_API_KEY={h32}
mailersend-token || MailerSend || API token || MAILERSEND_API_KEY=mlsn.{h64}
gmail-app-password || Google || app password || GMAIL_APP_PASSWORD={l4} {l4} {l4} {l4} ;; GMAIL_USER={l7}@gmail.com
office365-smtp-password || Microsoft 365 || SMTP password || O365_SMTP_PASSWORD={dbpw} ;; O365_SMTP_USER=alerts@{co}.com
vonage-api-secret || Vonage || API secret || VONAGE_API_SECRET={b16} ;; VONAGE_API_KEY={h8}
plivo-auth-token || Plivo || auth token || PLIVO_AUTH_TOKEN={b40} ;; PLIVO_AUTH_ID=MA{A18}
messagebird-live-key || MessageBird || live access key || MESSAGEBIRD_ACCESS_KEY=live_{b25}
sinch-api-secret || Sinch || key secret || SINCH_KEY_SECRET={U22} ;; SINCH_KEY_ID={uuid}
pusher-app-secret || Pusher || app secret || PUSHER_APP_SECRET={h20} ;; PUSHER_APP_KEY={h20} ;; PUSHER_APP_ID={d7}
ably-api-key || Ably || API key || ABLY_API_KEY={b6}.{b6}:{U43}
getstream-secret || Stream || API secret || STREAM_API_SECRET={a64} ;; STREAM_API_KEY={a12}
sendbird-api-token || Sendbird || API token || SENDBIRD_API_TOKEN={h40}
intercom-access-token || Intercom || access token || INTERCOM_ACCESS_TOKEN=dG9rOj{B50}=
zendesk-api-token || Zendesk || API token || ZENDESK_API_TOKEN={b40} ;; ZENDESK_EMAIL=support@{co}.com/token
freshdesk-api-key || Freshdesk || API key || FRESHDESK_API_KEY={b20}
helpscout-app-secret || Help Scout || app secret || HELPSCOUT_APP_SECRET={a32}
teams-webhook || Microsoft Teams || incoming webhook URL || TEAMS_WEBHOOK_URL=https://{co}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h32}/{uuid}/V2{U43}
google-chat-webhook || Google Chat || webhook URL || GCHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA{U7}/messages?key=AIza{U35}&token={U43}%3D
mattermost-webhook || Mattermost || incoming webhook URL || MATTERMOST_HOOK=https://chat.{co}.com/hooks/{a26}
rocketchat-webhook || Rocket.Chat || webhook URL || ROCKETCHAT_HOOK=https://rocket.{co}.io/hooks/{b17}/{b48}
zapier-webhook || Zapier || catch hook URL || ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{d7}/{a6}/
make-webhook || Make || webhook URL || MAKE_WEBHOOK=https://hook.eu1.make.com/{a32}
ifttt-webhook-key || IFTTT || Webhooks key || IFTTT_KEY={U22}
pushover-app-token || Pushover || application token || PUSHOVER_TOKEN=a{a29} ;; PUSHOVER_USER=u{a29}
pushbullet-token || Pushbullet || access token || PUSHBULLET_TOKEN=o.{b32}
line-channel-access-token || LINE || channel access token || LINE_CHANNEL_ACCESS_TOKEN={B171}=
line-channel-secret || LINE || channel secret || LINE_CHANNEL_SECRET={h32}
dingtalk-robot-webhook || DingTalk || robot webhook || DINGTALK_WEBHOOK=https://oapi.dingtalk.com/robot/send?access_token={h64}
feishu-bot-webhook || Feishu/Lark || bot webhook || FEISHU_WEBHOOK=https://open.feishu.cn/open-apis/bot/v2/hook/{uuid}
wecom-webhook || WeCom || group robot webhook || WECOM_WEBHOOK=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uuid}
wechat-appsecret || WeChat || AppSecret || WECHAT_APPSECRET={h32} ;; WECHAT_APPID=wx{h16}
facebook-access-token || Meta / Facebook || access token || FB_ACCESS_TOKEN=EAA{b190}
facebook-app-secret || Meta / Facebook || app secret || FB_APP_SECRET={h32} ;; FB_APP_ID={d15}
whatsapp-cloud-token || WhatsApp Cloud API || permanent token || WHATSAPP_TOKEN=EAAG{b200}
instagram-graph-token || Instagram || access token || IG_ACCESS_TOKEN=IGQV{U170}
twitter-bearer-token || X / Twitter || bearer token || TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{b25}%3D{b50}
twitter-consumer-secret || X / Twitter || API secret || TWITTER_API_SECRET={b50} ;; TWITTER_API_KEY={b25}
twitter-access-token-secret || X / Twitter || access token secret || TWITTER_ACCESS_SECRET={b45} ;; TWITTER_ACCESS_TOKEN={d19}-{b31}
linkedin-client-secret || LinkedIn || client secret || LINKEDIN_CLIENT_SECRET=WPL_AP1.{b16}.{U8}== ;; LINKEDIN_CLIENT_ID={a14}
reddit-client-secret || Reddit || client secret || REDDIT_CLIENT_SECRET={U27} ;; REDDIT_CLIENT_ID={U22}
spotify-client-secret || Spotify || client secret || SPOTIFY_CLIENT_SECRET={h32} ;; SPOTIFY_CLIENT_ID={h32}
twitch-oauth-token || Twitch || OAuth token || TWITCH_OAUTH=oauth:{a30}
twitch-client-secret || Twitch || client secret || TWITCH_CLIENT_SECRET={a30}
zoom-s2s-client-secret || Zoom || client secret || ZOOM_CLIENT_SECRET={b32} ;; ZOOM_ACCOUNT_ID={U22}
webex-bot-token || Webex || bot access token || WEBEX_BOT_TOKEN={b64}_{b4}_{uuid}
dropbox-short-lived-token || Dropbox || access token || DROPBOX_ACCESS_TOKEN=sl.u.{U140}
dropbox-long-lived-token || Dropbox || long-lived token || DROPBOX_TOKEN={b11}AAAAAAAAAA{U43}
box-developer-token || Box || developer token || BOX_DEVELOPER_TOKEN={b32}
figma-pat || Figma || personal access token || FIGMA_TOKEN=figd_{U40}
figma-pat-legacy || Figma || personal access token || FIGMA_TOKEN={d6}-{uuid}
notion-integration-secret || Notion || integration secret || NOTION_TOKEN=secret_{b43}
notion-token || Notion || internal integration token || NOTION_API_KEY=ntn_{d11}{b35}
linear-api-key || Linear || API key || LINEAR_API_KEY=lin_api_{b40}
linear-oauth-token || Linear || OAuth token || LINEAR_OAUTH_TOKEN=lin_oauth_{h64}
asana-pat || Asana || personal access token || ASANA_PAT=2/{d16}/{d16}:{h32}
asana-pat-legacy || Asana || personal access token || ASANA_TOKEN=1/{d16}:{h32}
clickup-token || ClickUp || personal token || CLICKUP_TOKEN=pk_{d8}_{A32}
monday-api-token || monday.com || API token || MONDAY_API_TOKEN=eyJhbGciOiJIUzI1NiJ9.{U120}.{U43}
trello-token || Trello || API token || TRELLO_TOKEN=ATTA{h64}{H8} ;; TRELLO_KEY={h32}
todoist-token || Todoist || API token || TODOIST_API_TOKEN={h40}
calendly-pat || Calendly || personal access token || CALENDLY_TOKEN={jwtes}
typeform-token || Typeform || personal token || TYPEFORM_TOKEN=tfp_{U44}_{U14}
jotform-api-key || Jotform || API key || JOTFORM_API_KEY={h32}
dropbox-sign-key || Dropbox Sign || API key || HELLOSIGN_API_KEY={h64}
docusign-rsa-key || DocuSign || RSA private key || DOCUSIGN_PRIVATE_KEY={pemrsa} ;; DOCUSIGN_INTEGRATION_KEY={uuid}
miro-token || Miro || access token || MIRO_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{U27}
canva-client-secret || Canva || client secret || CANVA_CLIENT_SECRET=cnvca{U43}
shortcut-token || Shortcut || API token || SHORTCUT_API_TOKEN={uuid}
basecamp-token || Basecamp || access token || BASECAMP_TOKEN=BAhbB0kiAbB7ImNsaWVudF9pZCI6{U180}--{h40}
# --- identity / auth
okta-api-token || Okta || API token || OKTA_API_TOKEN=00{U40} ;; OKTA_ORG_URL=https://{co}.okta.com
auth0-client-secret || Auth0 || client secret || AUTH0_CLIENT_SECRET={U64} ;; AUTH0_DOMAIN={co}.eu.auth0.com
auth0-management-token || Auth0 || Management API token || AUTH0_MGMT_TOKEN={jwt}
clerk-secret-key || Clerk || secret key || CLERK_SECRET_KEY=sk_live_{b40}
stytch-secret || Stytch || secret || STYTCH_SECRET=secret-live-{U36} ;; STYTCH_PROJECT_ID=project-live-{uuid}
workos-api-key || WorkOS || API key || WORKOS_API_KEY=sk_{b64}
magic-secret-key || Magic || secret key || MAGIC_SECRET_KEY=sk_live_{H16}
keycloak-client-secret || Keycloak || client secret || KEYCLOAK_CLIENT_SECRET={b32}
onelogin-client-secret || OneLogin || client secret || ONELOGIN_CLIENT_SECRET={h64}
duo-secret-key || Duo Security || secret key || DUO_SKEY={b40} ;; DUO_IKEY=DI{A18}
cognito-client-secret || Amazon Cognito || app client secret || COGNITO_CLIENT_SECRET={a52}
firebase-auth-secret || Firebase || database secret || FIREBASE_DATABASE_SECRET={b40}
descope-management-key || Descope || management key || DESCOPE_MANAGEMENT_KEY=K{A27}:{U80}
frontegg-api-key || Frontegg || API key || FRONTEGG_API_KEY={uuid}
fusionauth-api-key || FusionAuth || API key || FUSIONAUTH_API_KEY={U64}
zitadel-pat || ZITADEL || personal access token || ZITADEL_PAT={U70}
# --- CRM / support / marketing / CMS / media
salesforce-access-token || Salesforce || access token || SF_ACCESS_TOKEN=00D{b12}!AQ{U4}{U90}
salesforce-consumer-secret || Salesforce || consumer secret || SF_CONSUMER_SECRET={H64}
hubspot-private-app-token || HubSpot || private app token || HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}
hubspot-private-app-token-eu || HubSpot || private app token || HUBSPOT_TOKEN=pat-eu1-{uuid}
hubspot-api-key-legacy || HubSpot || API key || HUBSPOT_API_KEY={uuid}
pipedrive-api-token || Pipedrive || API token || PIPEDRIVE_API_TOKEN={h40}
zoho-refresh-token || Zoho || refresh token || ZOHO_REFRESH_TOKEN=1000.{h32}.{h32}
close-api-key || Close || API key || CLOSE_API_KEY=api_{b22}.{b22}
attio-api-key || Attio || API key || ATTIO_API_KEY={h64}
activecampaign-key || ActiveCampaign || API key || ACTIVECAMPAIGN_KEY={h72}
klaviyo-private-key || Klaviyo || private API key || KLAVIYO_PRIVATE_KEY=pk_{h34}
convertkit-secret || Kit (ConvertKit) || API secret || CONVERTKIT_API_SECRET={U43}
contentful-management-token || Contentful || management token || CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{U43}
sanity-token || Sanity || API token || SANITY_API_TOKEN=sk{b180}
strapi-api-token || Strapi || API token || STRAPI_API_TOKEN={h256}
ghost-admin-key || Ghost || Admin API key || GHOST_ADMIN_API_KEY={h24}:{h64}
wordpress-app-password || WordPress || application password || WP_APP_PASSWORD={b4} {b4} {b4} {b4} {b4} {b4} ;; WP_USER=editor
storyblok-token || Storyblok || management token || STORYBLOK_OAUTH_TOKEN={b22}-{d6}-{b20}
datocms-token || DatoCMS || full-access API token || DATOCMS_API_TOKEN={h30}
cloudinary-url || Cloudinary || API environment URL || CLOUDINARY_URL=cloudinary://{d15}:{U27}@{co}
uploadcare-secret || Uploadcare || secret key || UPLOADCARE_SECRET_KEY={h20}
mux-token-secret || Mux || token secret || MUX_TOKEN_SECRET={B75} ;; MUX_TOKEN_ID={uuid}
vimeo-access-token || Vimeo || access token || VIMEO_ACCESS_TOKEN={h32}
mapbox-secret-token || Mapbox || secret token || MAPBOX_SECRET_TOKEN=sk.eyJ1Ijoi{U40}.{U22}
here-api-key || HERE || API key || HERE_API_KEY={U43}
tomtom-api-key || TomTom || API key || TOMTOM_API_KEY={b32}
openweather-api-key || OpenWeather || API key || OPENWEATHER_API_KEY={h32}
ipinfo-token || IPinfo || access token || IPINFO_TOKEN={h14}
youtube-data-key || YouTube Data API || API key || YOUTUBE_API_KEY=AIzaSy{U33}
adobe-client-secret || Adobe Developer || client secret || ADOBE_CLIENT_SECRET=p8e-{U32}
kakao-rest-key || Kakao || REST API key || KAKAO_REST_API_KEY={h32}
naver-client-secret || Naver || client secret || NAVER_CLIENT_SECRET={b10}
vk-service-token || VK || service token || VK_SERVICE_TOKEN={h84}
# --- AI / ML
openai-project-key || OpenAI || project API key || OPENAI_API_KEY=sk-proj-{U74}T3BlbkFJ{U74}
openai-legacy-key || OpenAI || API key || OPENAI_API_KEY=sk-{b20}T3BlbkFJ{b20}
openai-service-account-key || OpenAI || service account key || OPENAI_API_KEY=sk-svcacct-{U74}T3BlbkFJ{U74}
openai-admin-key || OpenAI || admin key || OPENAI_ADMIN_KEY=sk-admin-{U74}T3BlbkFJ{U74}
anthropic-api-key || Anthropic || API key || ANTHROPIC_API_KEY=sk-ant-api03-{U93}AA
anthropic-admin-key || Anthropic || admin key || ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{U93}AA
huggingface-token || Hugging Face || access token || HF_TOKEN=hf_{b34}
huggingface-org-token || Hugging Face || org API token || HF_ORG_TOKEN=api_org_{b34}
cohere-api-key || Cohere || API key || COHERE_API_KEY={b40}
replicate-token || Replicate || API token || REPLICATE_API_TOKEN=r8_{b37}
groq-api-key || Groq || API key || GROQ_API_KEY=gsk_{b52}
perplexity-api-key || Perplexity || API key || PPLX_API_KEY=pplx-{b48}
mistral-api-key || Mistral AI || API key || MISTRAL_API_KEY={b32}
deepseek-api-key || DeepSeek || API key || DEEPSEEK_API_KEY=sk-{h32}
together-api-key || Together AI || API key || TOGETHER_API_KEY={h64}
fireworks-api-key || Fireworks AI || API key || FIREWORKS_API_KEY=fw_{b24}
xai-api-key || xAI || API key || XAI_API_KEY=xai-{b80}
elevenlabs-api-key || ElevenLabs || API key || ELEVENLABS_API_KEY=sk_{h48}
assemblyai-api-key || AssemblyAI || API key || ASSEMBLYAI_API_KEY={h32}
deepgram-api-key || Deepgram || API key || DEEPGRAM_API_KEY={h40}
stability-api-key || Stability AI || API key || STABILITY_API_KEY=sk-{b48}
langsmith-pat || LangSmith || personal access token || LANGSMITH_API_KEY=lsv2_pt_{h32}_{h10}
langsmith-service-key || LangSmith || service key || LANGCHAIN_API_KEY=lsv2_sk_{h32}_{h10}
wandb-api-key || Weights & Biases || API key || WANDB_API_KEY={h40}
voyage-api-key || Voyage AI || API key || VOYAGE_API_KEY=pa-{U43}
openrouter-api-key || OpenRouter || API key || OPENROUTER_API_KEY=sk-or-v1-{h64}
cerebras-api-key || Cerebras || API key || CEREBRAS_API_KEY=csk-{a48}
runpod-api-key || RunPod || API key || RUNPOD_API_KEY=rpa_{A40}
modal-token-secret || Modal || token secret || MODAL_TOKEN_SECRET=as-{b22} ;; MODAL_TOKEN_ID=ak-{b22}
clarifai-pat || Clarifai || personal access token || CLARIFAI_PAT={h32}
roboflow-api-key || Roboflow || API key || ROBOFLOW_API_KEY={b20}
comet-api-key || Comet ML || API key || COMET_API_KEY={b25}
neptune-api-token || neptune.ai || API token || NEPTUNE_API_TOKEN=eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkiLCJhcGlfdXJsIjoiaHR0cHM6Ly9hcHAubmVwdHVuZS5haSIsImFwaV9rZXkiOiI{U60}In0=
jina-api-key || Jina AI || API key || JINA_API_KEY=jina_{h32}{U28}
nvidia-api-key || NVIDIA NIM || API key || NVIDIA_API_KEY=nvapi-{U64}
kaggle-api-key || Kaggle || API key || KAGGLE_KEY={h32} ;; KAGGLE_USERNAME={l8}
ai21-api-key || AI21 Labs || API key || AI21_API_KEY={b32}
scale-api-key || Scale AI || live API key || SCALE_API_KEY=live_{h32}
labelbox-api-key || Labelbox || API key || LABELBOX_API_KEY={jwt}
gemini-api-key || Google Gemini || API key || GEMINI_API_KEY=AIzaSy{U33}
vertex-express-key || Vertex AI || express API key || VERTEX_API_KEY=AQ.Ab8RN6{U48}
baseten-api-key || Baseten || API key || BASETEN_API_KEY={b8}.{b32}
novita-api-key || Novita AI || API key || NOVITA_API_KEY=sk_{U43}
hyperbolic-api-key || Hyperbolic || API key || HYPERBOLIC_API_KEY={jwt}
luma-api-key || Luma AI || API key || LUMAAI_API_KEY=luma-{uuid}-{uuid}
# --- crypto wallets
ethereum-private-key || Ethereum || wallet private key || ETH_PRIVATE_KEY=0x{h64}
bitcoin-wif-compressed || Bitcoin || WIF private key || BTC_WIF=K{s51}
bitcoin-wif-uncompressed || Bitcoin || WIF private key || BTC_WIF=5{n1}{s49}
bitcoin-xprv || Bitcoin || extended private key || BTC_XPRV=xprv9{s106}
solana-private-key-b58 || Solana || private key || SOLANA_PRIVATE_KEY={s88}
solana-keypair-json || Solana || keypair file || SOLANA_KEYPAIR={soljson}
tron-private-key || TRON || private key || TRON_PRIVATE_KEY={h64}
# --- keys / framework secrets / cookies
rsa-private-key-pkcs1 || OpenSSL || RSA private key || TLS_KEY={pemrsa}
pkcs8-private-key || OpenSSL || private key || PRIVATE_KEY={pempk}
ec-private-key || OpenSSL || EC private key || JWT_SIGNING_KEY={pemec}
openssh-ed25519-key || OpenSSH || private key || SSH_PRIVATE_KEY={pemssh}
openssh-rsa-key || OpenSSH || private key || DEPLOY_KEY={pemsshrsa}
dsa-private-key || OpenSSL || DSA private key || LEGACY_DSA_KEY={pemdsa}
pgp-private-key || GnuPG || private key block || GPG_PRIVATE_KEY={pempgp}
putty-private-key || PuTTY || private key (.ppk) || PPK_FILE={ppk}
age-secret-key || age || secret key || AGE_SECRET_KEY=AGE-SECRET-KEY-1{c58}
minisign-secret-key || minisign || secret key || MINISIGN_SECRET_KEY=RWRTY0Iy{B204}
cosign-private-key || Sigstore cosign || encrypted key password || COSIGN_PASSWORD={dbpw}
jwt-hs256-secret || JWT || HMAC signing secret || JWT_SECRET={b64}
django-secret-key || Django || SECRET_KEY || DJANGO_SECRET_KEY={djsk}
rails-secret-key-base || Rails || secret_key_base || SECRET_KEY_BASE={h128}
rails-master-key || Rails || master key || RAILS_MASTER_KEY={h32}
laravel-app-key || Laravel || APP_KEY || APP_KEY=base64:{B43}=
flask-secret-key || Flask || SECRET_KEY || FLASK_SECRET_KEY={h48}
nextauth-secret || NextAuth.js || secret || NEXTAUTH_SECRET={B43}=
symfony-app-secret || Symfony || APP_SECRET || APP_SECRET={h32}
phoenix-secret-key-base || Phoenix || secret_key_base || SECRET_KEY_BASE={B64}
spring-encrypt-key || Spring Cloud Config || encrypt key || ENCRYPT_KEY={b32}
express-session-cookie || Express || session cookie || COOKIE=connect.sid=s%3A{U32}.{U43}
django-session-cookie || Django || session cookie || COOKIE=sessionid={a32}
php-session-cookie || PHP || session cookie || COOKIE=PHPSESSID={a26}
laravel-session-cookie || Laravel || session cookie || COOKIE=laravel_session=eyJpdiI6I{B200}
rails-session-cookie || Rails || session cookie || COOKIE=_app_session={B160}--{h40}
aspnet-auth-cookie || ASP.NET || auth cookie || COOKIE=.AspNetCore.Cookies=CfDJ8{U250}
wordpress-login-cookie || WordPress || logged-in cookie || COOKIE=wordpress_logged_in_{h32}=admin%7C{d10}%7C{b43}%7C{h64}
github-session-cookie || GitHub || session cookie || COOKIE=user_session={U48}
google-sid-cookie || Google || session cookies || COOKIE=__Secure-3PSID=g.a000{U140}
wpa-psk || Wi-Fi || WPA2 PSK || WIFI_PSK={wifipw} ;; WIFI_SSID={ssid}
rabbitmq-erlang-cookie || RabbitMQ || Erlang cookie || RABBITMQ_ERLANG_COOKIE={A20}
redis-requirepass || Redis || requirepass || REDIS_PASSWORD={b32}
grafana-admin-password || Grafana || admin password || GF_SECURITY_ADMIN_PASSWORD={dbpw}
jenkins-admin-password || Jenkins || initial admin password || JENKINS_ADMIN_PASSWORD={h32}
keycloak-admin-password || Keycloak || admin password || KEYCLOAK_ADMIN_PASSWORD={dbpw}
pgadmin-password || pgAdmin || default password || PGADMIN_DEFAULT_PASSWORD={dbpw}
mysql-root-password || MySQL || root password || MYSQL_ROOT_PASSWORD={dbpw}
postgres-password || PostgreSQL || superuser password || POSTGRES_PASSWORD={dbpw}
mongo-root-password || MongoDB || root password || MONGO_INITDB_ROOT_PASSWORD={dbpw}
rabbitmq-default-pass || RabbitMQ || default password || RABBITMQ_DEFAULT_PASS={dbpw}
elastic-password || Elasticsearch || elastic password || ELASTIC_PASSWORD={dbpw}
sonarqube-db-password || SonarQube || JDBC password || SONAR_JDBC_PASSWORD={dbpw}
wireguard-private-key || WireGuard || private key || WG_PRIVATE_KEY={B43}=
openvpn-static-key || OpenVPN || static key (tls-auth) || OVPN_TA_KEY={ovpnkey}
ipsec-psk || IPsec || pre-shared key || IPSEC_PSK={b32}
snmp-community || SNMP || community string (rw) || SNMP_RW_COMMUNITY={b16}
kubernetes-sa-token || Kubernetes || service account token || K8S_TOKEN={kubetoken}
kubeconfig-client-key || Kubernetes || client key || KUBE_CLIENT_KEY_DATA={pemecb}
rancher-api-token || Rancher || API token || RANCHER_TOKEN=token-{a5}:{a54}
portainer-api-key || Portainer || access token || PORTAINER_TOKEN=ptr_{U43}=
harbor-robot-secret || Harbor || robot account secret || HARBOR_ROBOT_SECRET={b32} ;; HARBOR_ROBOT=robot$ci
gcp-firebase-token || Firebase CLI || CI token || FIREBASE_TOKEN=1//0{U6}Cg{U92}
mapbox-download-token || Mapbox || downloads token || MAPBOX_DOWNLOADS_TOKEN=sk.eyJ1IjoiZGwi{U30}.{U22}
"""


def _djsk():
    return rs(LOW + DIG + "!@#$%^&*(-_=+)", 50)


def _wifipw():
    return ch([lambda: rs(B62, ri(12, 20)), lambda: ch(["Sunny", "Kiwi", "Lotus", "Maple", "Cobalt"]) + rs(DIG, 4) + ch(["!", "#", "?"]) + rs(LOW, 3),
               lambda: "-".join(ch(BIP_WORDS) for _ in range(3)) + str(ri(10, 99))])()


def _ssid():
    return ch(SSIDS)


def _dockerauth():
    auth = b64s("%s:%s" % (ch(["deploy", "ci", "robot"]), "dckr_pat_" + rs(B64U, 27)))
    return json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": auth}}})


def _ovpnkey():
    lines = [rs(HEXL, 32) for _ in range(16)]
    return "-----BEGIN OpenVPN Static key V1-----\n" + "\n".join(lines) + "\n-----END OpenVPN Static key V1-----"


def _kubetoken():
    return jwt_token({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": ch(["default", "ci", "prod"]),
                      "kubernetes.io/serviceaccount/secret.name": "deployer-token-" + rs(LOW + DIG, 5),
                      "kubernetes.io/serviceaccount/service-account.name": "deployer",
                      "sub": "system:serviceaccount:ci:deployer"}, alg="RS256")


SPECIAL.update({"djsk": _djsk, "wifipw": _wifipw, "ssid": _ssid, "dockerauth": _dockerauth,
                "ovpnkey": _ovpnkey, "kubetoken": _kubetoken, "pemecb": lambda: b64s(pem_ec())})


class Fmt:
    __slots__ = ("kind", "vendor", "label", "vars")

    def __init__(self, kind, vendor, label, vars_):
        self.kind, self.vendor, self.label, self.vars = kind, vendor, label, vars_

    def gen(self):
        return [(name, expand(t)) for name, t in self.vars]


def parse_formats():
    out = []
    for line in FORMATS_TXT.strip().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        kind, vendor, label, rest = [x.strip() for x in line.split(" || ")]
        vs = []
        for part in rest.split(" ;; "):
            name, tpl = part.split("=", 1)
            vs.append((name.strip(), tpl.strip()))
        out.append(Fmt(kind, vendor, label, vs))
    kinds = [f.kind for f in out]
    assert len(kinds) == len(set(kinds)), [k for k in kinds if kinds.count(k) > 1]
    return out


# ----------------------------------------------------------------------------
# personal secret values
# ----------------------------------------------------------------------------
BIP_WORDS = """abandon ability able about above absent absorb abstract absurd abuse access accident account
accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust
admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm
album alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among
amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna
antique anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor army
around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma
athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado avoid
awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana
banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef before begin
behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind biology
bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board
boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand
brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush
bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter
buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas
canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual cat catalog
catch category cattle caught cause caution cave ceiling celery cement census century cereal certain chair chalk
champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney
choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay
clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump cluster
clutch coach coast coconut code coffee coil coin collect color column combine come comfort comic common company
concert conduct confirm congress connect consider control convince cook cool copper copy coral core corn correct
cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl
crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble
crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle dad
damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline
decorate decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart depend
deposit depth deputy derive describe desert design desk despair destroy detail detect develop device devote
diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree
discover disease dish dismiss disorder display distance divert divide divorce dizzy doctor document dog doll
dolphin domain donate donkey donor door dose double dove draft dragon drama drastic draw dream dress drift drill
drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf dynamic eager eagle early earn earth
easily east easy echo ecology economy edge edit educate effort egg eight either elbow elder electric elegant
element elephant elevator elite else embark embody embrace emerge emotion employ empower empty enable enact end
endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich enroll ensure enter entire
entry envelope episode equal equip era erase erode erosion error erupt escape essay essence estate eternal ethics
evidence evil evoke evolve exact example excess exchange excite exclude excuse execute exercise exhaust exhibit
exile exist exit exotic expand expect expire explain expose express extend extra eye eyebrow fabric face faculty
fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal father fatigue fault
favorite feature february federal fee feed feel female fence festival fetch fever few fiber fiction field figure
file film filter final find fine finger finish fire firm first fiscal fish fit fitness fix flag flame flash flat
flavor flee flight flip float flock floor flower fluid flush fly foam focus fog foil fold follow food foot force
forest forget fork fortune forum forward fossil foster found fox fragile frame frequent fresh friend fringe frog
front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy gallery game gap garage
garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre gentle genuine gesture ghost
giant gift giggle ginger giraffe girl give glad glance glare glass glide glimpse globe gloom glory glove glow
glue goat goddess gold good goose gorilla gospel gossip govern gown grab grace grain grant grape grass gravity
great green grid grief grit grocery group grow grunt guard guess guide guilt guitar gun gym habit hair half
hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy hedgehog height
hello helmet help hen hero hidden high hill hint hip hire history hobby hockey hold hole holiday hollow home
honey hood hope horn horror horse hospital host hotel hour hover hub huge human humble humor hundred hungry hunt
hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal illness image imitate immense
immune impact impose improve impulse inch include income increase index indicate indoor industry infant inflict
inform inhale inherit initial inject injury inmate inner innocent input inquiry insane insect inside inspire
install intact interest into invest invite involve iron island isolate issue item ivory jacket jaguar jar jazz
jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep
ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor
ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader
leaf learn leave lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level liar
liberty library license life lift light like limb limit link lion liquid list little live lizard load loan
lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch luxury
lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple
marble march margin marine market marriage mask mass master match material math matrix matter maximum maze
meadow mean measure meat mechanic medal media melody melt member memory mention menu mercy merge merit merry
mesh message metal method middle midnight milk million mimic mind minimum minor minute miracle mirror misery
miss mistake mix mixed mixture mobile model modify mom moment monitor monkey monster month moon moral more
morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply muscle museum mushroom
music must mutual myself mystery myth naive name napkin narrow nasty nation nature near neck need negative
neglect neither nephew nerve nest net network neutral never news next nice night noble noise nominee noodle
normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey object oblige obscure
observe obtain obvious occur ocean october odor off offer office often oil okay old olive olympic omit once one
onion online only open opera opinion oppose option orange orbit orchard order ordinary organ orient original
orphan ostrich other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact paddle page
pair palace palm panda panel panic panther paper parade parent park parrot party pass patch path patient patrol
pattern pause pave payment peace peanut pear peasant pelican pen penalty pencil people pepper perfect permit
person pet phone photo phrase physical piano picnic picture piece pig pigeon pill pilot pink pioneer pipe pistol
pitch pizza place planet plastic plate play please pledge pluck plug plunge poem poet point polar pole police
pond pony pool popular portion position possible post potato pottery poverty powder power practice praise
predict prefer prepare present pretty prevent price pride primary print priority prison private prize problem
process produce profit program project promote proof property prosper protect proud provide public pudding pull
pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid quality quantum
quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally ramp ranch
random range rapid rare rate rather raven raw razor ready real reason rebel rebuild recall receive recipe record
recycle reduce reflect reform refuse region regret regular reject relax release relief rely remain remember
remind remove render renew rent reopen repair repeat replace report require rescue resemble resist resource
response result retire retreat return reunion reveal review reward rhythm rib ribbon rice rich ride ridge rifle
right rigid ring riot ripple risk ritual rival river road roast robot robust rocket romance roof rookie room rose
rotate rough round route royal rubber rude rug rule run runway rural sad saddle sadness safe sail salad salmon
salon salt salute same sample sand satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme
school science scissors scorpion scout scrap screen script scrub sea search season seat second secret section
security seed seek segment select sell seminar senior sense sentence series service session settle setup seven
shadow shaft shallow share shed shell sheriff shield shift shine ship shiver shock shoe shoot shop short
shoulder shove shrimp shrug shuffle shy sibling sick side siege sight sign silent silk silly silver similar
simple since sing siren sister situate six size skate sketch ski skill skin skirt skull slab slam sleep slender
slice slide slight slim slogan slot slow slush small smart smile smoke smooth snack snake snap sniff snow soap
soccer social sock soda soft solar soldier solid solution solve someone song soon sorry sort soul sound soup
source south space spare spatial spawn speak special speed spell spend sphere spice spider spike spin spirit
split spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel stable stadium staff stage
stairs stamp stand start state stay steak steel stem step stereo stick still sting stock stomach stone stool
story stove strategy street strike strong struggle student stuff stumble style subject submit subway success
such sudden suffer sugar suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise
surround survey suspect sustain swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom
syrup system table tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten
tenant tennis tent term test text thank that theme then theory there they thing this thought three thrive throw
thumb thunder ticket tide tiger tilt timber time tiny tip tired tissue title toast tobacco today toddler toe
together toilet token tomato tomorrow tone tongue tonight tool tooth top topic topple torch tornado tortoise
toss total tourist toward tower town toy track trade traffic tragic train transfer trap trash travel tray treat
tree trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet trust truth try tube
tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist two type typical ugly umbrella
unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock until
unusual unveil update upgrade uphold upon upper upset urban urge usage use used useful useless usual utility
vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet venue verb verify
version very vessel veteran viable vibrant vicious victory video view village vintage violin virtual virus visa
visit visual vital vivid vocal voice void volcano volume vote voyage wage wagon wait walk wall walnut want
warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel weather web wedding weekend weird
welcome west wet whale what wheat wheel when where whip whisper wide width wife wild will win window wine wing
wink winner winter wire wisdom wise wish witness wolf woman wonder wood wool word work world worry worth wrap
wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone zoo""".split()

PW_WORDS = ["Marmalade", "Sunflower", "Tractor", "Lighthouse", "Pumpkin", "Blueberry", "Raccoon", "Galaxy",
            "Schmetterling", "mariposa", "Kartoffel", "sakura", "Fenêtre", "Tortuga", "Kanelbulle", "Bacalhau",
            "Pierogi", "Zeppelin", "Avocado", "Nebula", "Jasmine", "Harbour", "Dragonfly", "Cappuccino",
            "Viking", "Tangerine", "Koala", "Pistachio", "Mustang", "Origami", "Paprika", "Snowboard"]


def human_pw():
    k = ri(0, 9)
    w = ch(PW_WORDS)
    if k == 0:
        return w + ch("!#$%&*?@") + rs(DIG, ri(2, 4))
    if k == 1:
        return ch(PW_WORDS) + ch(PW_WORDS).lower() + str(ri(1960, 2015))
    if k == 2:
        lee = w.replace("o", "0").replace("a", "@").replace("e", "3").replace("i", "1")
        return lee + rs(DIG, 2) + ch("!?#")
    if k == 3:
        return w.lower() + rs(DIG, ri(3, 5))
    if k == 4:
        return rs(B62 + "!#%&*", ri(10, 16))
    if k == 5:
        return "-".join(ch(BIP_WORDS) for _ in range(ri(3, 4))) + "-" + str(ri(10, 99))
    if k == 6:
        return ch(FIRST).lower().replace("é", "e").replace("á", "a") + str(ri(1970, 2012)) + ch(["!", ".", "*", ""])
    if k == 7:
        return w[:4].capitalize() + ch(PW_WORDS)[:4].lower() + "_" + rs(DIG, 4) + ch(UPP)
    if k == 8:
        return ch(PETS) + "&" + ch(PETS) + str(ri(1, 99))
    return ch(["I", "My", "We"]) + ch(["love", "miss", "hate"]) + ch(["Tacos", "Paris", "Mondays", "Rain"]) + str(ri(10, 999)) + ch("!.?")


def pin4():
    while True:
        p = rs(DIG, 4)
        if len(set(p)) > 1 and p not in ("1234", "4321", "0000", "1111"):
            return p


def pin6():
    while True:
        p = rs(DIG, 6)
        if len(set(p)) > 2 and p not in ("123456", "654321"):
            return p


def door_code():
    k = ri(0, 5)
    if k == 0:
        return pin4() + "#"
    if k == 1:
        return "*" + pin4()
    if k == 2:
        return rs(DIG, 5)
    if k == 3:
        return ch("ABCK") + rs(DIG, 4)
    if k == 4:
        return pin4() + " then #"
    return pin6()


def safe_combo():
    k = ri(0, 2)
    if k == 0:
        return "%d-%d-%d" % (ri(1, 39), ri(1, 39), ri(1, 39))
    if k == 1:
        return "L%d R%d L%d" % (ri(1, 99), ri(1, 99), ri(1, 99))
    return rs(DIG, 6)


def seed_phrase(n=None):
    n = n or ch([12, 12, 12, 24, 18])
    return " ".join(ch(BIP_WORDS) for _ in range(n))


def backup_codes():
    k = ri(0, 3)
    n = ri(5, 10)
    if k == 0:
        return [rs(DIG, 4) + " " + rs(DIG, 4) for _ in range(n)]
    if k == 1:
        return [rs("abcdefghjkmnpqrstuvwxyz23456789", 4) + "-" + rs("abcdefghjkmnpqrstuvwxyz23456789", 4) for _ in range(n)]
    if k == 2:
        return [rs(DIG, 8) for _ in range(n)]
    return [rs(HEXL, 10) for _ in range(n)]


def recovery_key():
    k = ri(0, 3)
    if k == 0:  # BitLocker
        return "-".join(rs(DIG, 6) for _ in range(8))
    if k == 1:  # Apple-ish
        return "-".join(rs(UPP + DIG, 4) for _ in range(7))
    if k == 2:  # Microsoft account recovery code
        return "-".join(rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 5) for _ in range(5))
    return rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4) + " " + rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4) + " " + rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4) + " " + rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4)


def gift_code():
    k = ri(0, 4)
    al = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    if k == 0:
        return ("Amazon", rs(al, 4) + "-" + rs(al, 6) + "-" + rs(al, 4))
    if k == 1:
        return ("Apple", "X" + rs(al, 15))
    if k == 2:
        return ("Google Play", rs(al, 20))
    if k == 3:
        return ("Steam", "-".join(rs(al, 5) for _ in range(3)))
    return ("Nintendo eShop", rs(al, 16))


SEC_Q = [("mother's maiden name", lambda: ch(LAST)), ("first pet's name", lambda: ch(PETS)),
         ("city where my parents met", lambda: ch(CITIES)), ("name of my first school", lambda: ch(["St. Brigid's", "Lincoln Elementary", "Escola Camões", "Grundschule am Park", "Holy Cross"])),
         ("childhood best friend", lambda: ch(FIRST)), ("street I grew up on", lambda: ch(STREETS)),
         ("favourite teacher", lambda: "Mr. " + ch(LAST)), ("first car", lambda: ch(["Corolla", "Golf", "Clio", "Civic", "Fiat Panda", "Beetle"])),
         ("make of first bike", lambda: ch(["Raleigh", "Peugeot", "Giant", "Schwinn"]))]

PERSONAL_KINDS = ["wifi-password", "door-code", "gate-code", "alarm-code", "safe-combination", "locker-code",
                  "card-pin", "phone-unlock-pin", "sim-puk", "account-password", "banking-login", "backup-codes",
                  "recovery-key", "seed-phrase", "security-answer", "payment-card", "gift-card-code",
                  "one-time-code", "router-admin", "voicemail-pin", "bike-lock", "garage-code", "keybox-code",
                  "wallet-private-key", "email-password"]


def personal_value(kind):
    """returns (value_text, extra_dict)"""
    if kind == "wifi-password":
        return _wifipw(), {"ssid": ch(SSIDS)}
    if kind in ("door-code", "gate-code", "garage-code", "keybox-code"):
        return door_code(), {}
    if kind == "alarm-code":
        return pin4() if coin(0.8) else pin6(), {}
    if kind == "safe-combination":
        return safe_combo(), {}
    if kind in ("locker-code", "bike-lock"):
        return rs(DIG, ch([3, 4, 4])), {}
    if kind in ("card-pin", "voicemail-pin"):
        return pin4(), {}
    if kind == "phone-unlock-pin":
        return pin6() if coin(0.6) else pin4(), {}
    if kind == "sim-puk":
        return rs(DIG, 8), {"pin": pin4()}
    if kind in ("account-password", "email-password", "banking-login", "router-admin"):
        return human_pw(), {}
    if kind == "backup-codes":
        return backup_codes(), {}
    if kind == "recovery-key":
        return recovery_key(), {}
    if kind == "seed-phrase":
        return seed_phrase(), {}
    if kind == "security-answer":
        q, f = ch(SEC_Q)
        return f(), {"question": q}
    if kind == "payment-card":
        b, n = card_number()
        return n, {"brand": b, "exp": card_exp(), "cvv": cvv(4 if b == "Amex" else 3)}
    if kind == "gift-card-code":
        s, c = gift_code()
        return c, {"store": s}
    if kind == "one-time-code":
        return rs(DIG, 6), {}
    if kind == "wallet-private-key":
        return rs(HEXL, 64), {}
    raise KeyError(kind)


# ----------------------------------------------------------------------------
# English note building blocks
# ----------------------------------------------------------------------------
SITES = ["netflix", "my bank", "the tax portal", "Spotify", "amazon", "the kids' school portal", "work vpn",
         "HBO", "the electricity account", "Zillow", "LinkedIn", "the pension site", "Disney+", "steam",
         "the insurance portal", "ebay", "Hulu", "my old hotmail", "the HOA site", "Costco", "PlayStation"]
PLACES = ["mom's", "the cabin", "grandma's flat", "the office", "the Airbnb in Lisbon", "Dad's place",
          "the beach house", "aunt Rosa's", "the lake house", "the studio", "Sam's apartment", "the new flat"]

EN_SUBJ = {
    "wifi-password": ["wifi pw", "wi-fi password", "wifi at {place}", "guest wifi pass", "wifi ({ssid})", "WLAN key for {ssid}",
                      "the router password on the sticker", "internet password at {place}", "hotspot pw"],
    "door-code": ["front door code", "building door code", "lobby keypad", "door code for {place}", "entry code",
                  "side door keypad", "apartment door code", "code to get in at {place}"],
    "gate-code": ["gate code", "community gate code", "parking gate", "back gate code at {place}", "gate keypad"],
    "alarm-code": ["alarm code", "house alarm", "alarm disarm code", "security system code at {place}", "the ADT code"],
    "safe-combination": ["safe combo", "hotel safe code", "combination for the safe", "gun safe combination", "office safe"],
    "locker-code": ["gym locker code", "locker combo", "school locker", "locker #{n3} code", "pool locker code"],
    "card-pin": ["debit card PIN", "visa pin", "ATM pin", "PIN for the new card", "credit card PIN", "pin for the {bank} card"],
    "phone-unlock-pin": ["phone passcode", "iPad passcode", "unlock code for Dad's phone", "phone pin", "tablet code for the kids"],
    "sim-puk": ["SIM PUK", "PUK code for the {bank2} sim"],
    "account-password": ["{site} password", "{site} login", "pw for {site}", "password for {site}", "{site} pass"],
    "email-password": ["gmail password", "email pw", "password for my work email", "outlook password", "yahoo mail pw"],
    "banking-login": ["online banking password", "{bank} login password", "bank app pass", "netbanking pw"],
    "backup-codes": ["2FA backup codes", "google backup codes", "recovery codes for github", "backup codes (authenticator)"],
    "recovery-key": ["BitLocker recovery key", "Apple ID recovery key", "Microsoft account recovery code", "recovery key for the laptop"],
    "seed-phrase": ["metamask seed", "seed phrase", "recovery phrase for the ledger", "wallet words", "12 words for the trust wallet"],
    "security-answer": ["security question answer", "bank security answer", "secret question"],
    "payment-card": ["my card", "the joint account card", "new credit card", "company amex", "visa details"],
    "gift-card-code": ["gift card code", "{store} gift card", "voucher code from the birthday card", "{store} card for Mia"],
    "one-time-code": ["verification code", "OTP", "login code", "one-time code from the bank", "2fa code"],
    "router-admin": ["router admin password", "admin pw for 192.168.1.1", "modem admin login", "NAS admin password"],
    "voicemail-pin": ["voicemail pin", "voicemail password"],
    "bike-lock": ["bike lock combo", "bike lock code", "lock code for the blue bike"],
    "garage-code": ["garage code", "garage door keypad", "code for the underground garage"],
    "keybox-code": ["key box code", "lockbox code", "keysafe at {place}", "code for the key safe"],
    "wallet-private-key": ["private key for the old eth wallet", "wallet private key", "hot wallet key"],
}
BANKS = ["Chase", "Revolut", "ING", "Sparkasse", "Barclays", "N26", "Santander", "BNP", "Monzo", "Wells Fargo", "Nubank", "Itaú"]
OPENERS = ["", "", "", "hey, ", "pls remember: ", "note to self - ", "ok so ", "fyi ", "📝 ", "save this: ",
           "for future me: ", "remind me later: ", "Hi! ", "Quick one: ", "btw ", "Remember this pls — ", "ugh ",
           "jot down → ", "can you keep this? ", "so I don't forget: "]
SUFFIXES = ["", "", "", " !!", " 🙂", " (dont share)", " thx", ". thanks!", " lol", " 🔑", " — changed last week",
            " ok", " 👍", " (new)", ".", " (for the weekend)", " ty", " — do not lose", " 🙏", " !"]
CONNS = [": ", " is ", " = ", " -> ", " — ", " is now ", " changed to ", " ", ":  ", " => ", " - "]


def typo(s, p=0.18):
    if not coin(p) or len(s) < 6:
        return s
    i = ri(1, len(s) - 3)
    k = ri(0, 2)
    if not (s[i].isalpha() and s[i + 1].isalpha()):
        return s
    if k == 0:
        return s[:i] + s[i + 1] + s[i] + s[i + 2:]
    if k == 1:
        return s[:i] + s[i + 1:]
    return s[:i] + s[i] + s[i:]


def fill_subj(t):
    return t.format(place=ch(PLACES), ssid=ch(SSIDS), site=ch(SITES), n3=ri(1, 300), bank=ch(BANKS),
                    bank2=ch(["Vodafone", "O2", "Orange", "T-Mobile", "Lebara"]), store=ch(["Amazon", "Apple", "Steam", "Google Play", "IKEA"]))


# ----------------------------------------------------------------------------
# multilingual tables: nouns, secret frames, talk frames (no value), ordinary notes
# ----------------------------------------------------------------------------
NOUN_KIND = {"wifi": "wifi-password", "door": "door-code", "pin": "card-pin", "alarm": "alarm-code",
             "safe": "safe-combination", "pw": "email-password", "gate": "gate-code", "card": "payment-card",
             "seed": "seed-phrase", "answer": "security-answer", "phone": "phone-unlock-pin", "garage": "garage-code"}
NOUN_KEYS = list(NOUN_KIND)


def _L(nouns, frames, talk, ordinary):
    return {"n": dict(zip(NOUN_KEYS, nouns.split(" | "))), "f": frames, "t": talk, "o": ordinary}


LANGS = {
    "de": _L("WLAN-Passwort | Türcode | PIN meiner EC-Karte | Alarmanlagen-Code | Tresorcode | Passwort fürs E-Mail-Konto | Code fürs Hoftor | Kreditkartennummer | Wiederherstellungswörter der Wallet | Sicherheitsfrage (Mädchenname der Mutter) | Handy-Entsperrcode | Garagentor-Code",
             ["{n}: {v}", "Bitte merken – {n} ist {v}", "{n} = {v} (nicht weitersagen!)", "Notiz für mich: {n} lautet {v} 👍"],
             ["{n} wurde gestern geändert, der neue Wert liegt im Passwortmanager.", "Muss {n} bald ändern, erinnere mich nächste Woche daran.", "Frag Oma nach: {n} – ich weiß es nicht mehr."],
             ["Zahnarzttermin am {d}. um {t} Uhr", "Einkaufen: Milch, {k} Eier, Brot, Tomaten", "Paket kommt Donnerstag, Packstation {k}", "Elternabend am {d}. ab {t}"]),
    "fr": _L("mot de passe wifi | code de la porte | code PIN de ma carte bleue | code de l'alarme | code du coffre | mot de passe de ma boîte mail | code du portail | numéro de carte bancaire | phrase de récupération du wallet | réponse à la question secrète (nom de jeune fille de maman) | code de déverrouillage du téléphone | code du garage",
             ["{n} : {v}", "À retenir → {n} = {v}", "Note pour moi : {n}, c'est {v}", "{n} (ne pas partager) : {v} 🙏"],
             ["{n} modifié hier, je te le donnerai de vive voix.", "Penser à changer : {n}, la semaine prochaine.", "Demande à Julie pour : {n}, je ne m'en souviens plus."],
             ["RDV chez le dentiste le {d} à {t}", "Courses : lait, {k} œufs, pain, beurre", "Réunion parents-profs jeudi à {t}", "Le colis arrive au point relais n°{k}"]),
    "es": _L("contraseña del wifi | código de la puerta | PIN de la tarjeta | código de la alarma | combinación de la caja fuerte | contraseña del correo | código del portón | número de la tarjeta de crédito | frase semilla de la billetera | respuesta de seguridad (nombre de mi primera mascota) | código para desbloquear el móvil | código del garaje",
             ["{n}: {v}", "Acuérdate: {n} es {v}", "ojo!! {n} -> {v}", "Nota: {n} = {v} (no compartir)"],
             ["Cambié {n} ayer, luego te lo paso en persona.", "Tengo que cambiar {n} la semana que viene.", "Pregúntale a mamá por {n}, yo no me acuerdo."],
             ["Cita con el dentista el día {d} a las {t}", "Comprar: leche, {k} huevos, pan y tomates", "Reunión del cole el jueves a las {t}", "El paquete llega al punto de recogida {k}"]),
    "it": _L("password del wifi | codice del portone | PIN del bancomat | codice dell'allarme | combinazione della cassaforte | password della mail | codice del cancello | numero della carta di credito | frase di recupero del wallet | risposta di sicurezza (cognome da nubile di mamma) | codice di sblocco del telefono | codice del garage",
             ["{n}: {v}", "Ricordati: {n} è {v}", "{n} = {v} (non dirlo a nessuno)", "Nota per me → {n} {v}"],
             ["Ho cambiato {n} ieri, te lo dico a voce.", "Devo cambiare {n} la settimana prossima.", "Chiedi a Marco: {n}, io non me lo ricordo."],
             ["Dentista il {d} alle {t}", "Spesa: latte, {k} uova, pane, pomodori", "Colloqui con le maestre giovedì alle {t}", "Il pacco arriva al punto di ritiro n. {k}"]),
    "pt": _L("senha do wi-fi | código da porta | senha do cartão | código do alarme | combinação do cofre | senha do e-mail | código do portão | número do cartão de crédito | frase de recuperação da carteira | resposta de segurança (nome do primeiro pet) | senha de desbloqueio do celular | código da garagem",
             ["{n}: {v}", "Lembrar: {n} é {v}", "{n} = {v} (não compartilhar)", "anota aí, {n} {v} 😉"],
             ["Troquei {n} ontem, depois te passo pessoalmente.", "Preciso trocar {n} semana que vem.", "Pergunta pra Ana: {n}, eu esqueci."],
             ["Dentista dia {d} às {t}", "Comprar: leite, {k} ovos, pão e tomate", "Reunião da escola quinta às {t}", "A encomenda chega no ponto de retirada {k}"]),
    "nl": _L("wifi-wachtwoord | deurcode | pincode van mijn bankpas | alarmcode | kluiscode | wachtwoord van mijn mail | code van het hek | creditcardnummer | herstelzin van de wallet | antwoord beveiligingsvraag (meisjesnaam moeder) | ontgrendelcode telefoon | garagecode",
             ["{n}: {v}", "Onthouden: {n} is {v}", "{n} = {v} (niet doorvertellen)", "Notitie: {n} {v} 👍"],
             ["Gisteren {n} veranderd, ik vertel het je straks.", "Moet volgende week {n} wijzigen.", "Vraag maar aan Sanne: {n}, ik weet het niet meer."],
             ["Tandarts op de {d}e om {t}", "Boodschappen: melk, {k} eieren, brood", "Ouderavond donderdag om {t}", "Pakketje ligt bij afhaalpunt {k}"]),
    "sv": _L("wifi-lösenord | portkod | pinkod till bankkortet | larmkod | kassaskåpskod | lösenord till mejlen | grindkod | kortnummer | återställningsfras för plånboken | svar på säkerhetsfrågan (mammas flicknamn) | upplåsningskod för mobilen | garagekod",
             ["{n}: {v}", "Kom ihåg: {n} är {v}", "{n} = {v} (säg inte till någon)", "Anteckning: {n} {v}"],
             ["Bytte {n} igår, berättar sen.", "Måste byta {n} nästa vecka.", "Fråga Erik om {n}, jag minns inte."],
             ["Tandläkare den {d}:e kl {t}", "Handla: mjölk, {k} ägg, bröd", "Föräldramöte torsdag kl {t}", "Paketet finns hos ombud nr {k}"]),
    "nb": _L("wifi-passord | dørkode | PIN-kode til bankkortet | alarmkode | safekode | passord til e-posten | portkode | kortnummer | gjenopprettingsfrase til lommeboka | svar på sikkerhetsspørsmålet (mors pikenavn) | opplåsingskode til mobilen | garasjekode",
             ["{n}: {v}", "Husk: {n} er {v}", "{n} = {v} (ikke del)", "Notat til meg selv: {n} {v}"],
             ["Byttet {n} i går, sier det senere.", "Må bytte {n} neste uke.", "Spør Ingrid om {n}, jeg husker det ikke."],
             ["Tannlege den {d}. kl {t}", "Handle: melk, {k} egg, brød", "Foreldremøte torsdag kl {t}", "Pakken er på hentested {k}"]),
    "da": _L("wifi-kode | dørkode | pinkode til dankortet | alarmkode | kode til pengeskabet | adgangskode til mailen | kode til porten | kortnummer | gendannelsessætning til wallet | svar på sikkerhedsspørgsmål (mors pigenavn) | oplåsningskode til telefonen | garagekode",
             ["{n}: {v}", "Husk: {n} er {v}", "{n} = {v} (del ikke)", "Note: {n} {v}"],
             ["Skiftede {n} i går, siger det senere.", "Skal skifte {n} i næste uge.", "Spørg Mette om {n}, jeg kan ikke huske det."],
             ["Tandlæge den {d}. kl. {t}", "Indkøb: mælk, {k} æg, rugbrød", "Forældremøde torsdag kl. {t}", "Pakken ligger i pakkeshop {k}"]),
    "fi": _L("wifin salasana | ovikoodi | pankkikortin PIN | hälytyskoodi | kassakaapin koodi | sähköpostin salasana | portin koodi | luottokortin numero | lompakon palautuslause | turvakysymyksen vastaus (äidin tyttönimi) | puhelimen avauskoodi | autotallin koodi",
             ["{n}: {v}", "Muista: {n} on {v}", "{n} = {v} (älä kerro kenellekään)", "Muistiinpano: {n} {v}"],
             ["{n} vaihdettu eilen, kerron myöhemmin.", "{n} pitää vaihtaa ensi viikolla.", "{n} unohtui, kysy Villeltä."],
             ["Hammaslääkäri {d}. päivä klo {t}", "Kauppa: maito, {k} munaa, leipä", "Vanhempainilta torstaina klo {t}", "Paketti noutopisteessä {k}"]),
    "pl": _L("hasło do wifi | kod do drzwi | PIN do karty | kod do alarmu | szyfr do sejfu | hasło do maila | kod do bramy | numer karty kredytowej | fraza odzyskiwania portfela | odpowiedź na pytanie pomocnicze (nazwisko panieńskie mamy) | kod do odblokowania telefonu | kod do garażu",
             ["{n}: {v}", "Zapamiętaj: {n} to {v}", "{n} = {v} (nikomu nie mów)", "Notatka: {n} {v} 🙂"],
             ["Wczoraj zmieniłem {n}, powiem ci osobiście.", "Muszę zmienić {n} w przyszłym tygodniu.", "Nie pamiętam już: {n} — zapytaj Kasię."],
             ["Dentysta {d}. o {t}", "Zakupy: mleko, {k} jajek, chleb", "Wywiadówka w czwartek o {t}", "Paczka w paczkomacie nr {k}"]),
    "cs": _L("heslo na wifi | kód od dveří | PIN ke kartě | kód od alarmu | kód od trezoru | heslo k e-mailu | kód od brány | číslo kreditní karty | obnovovací fráze peněženky | odpověď na bezpečnostní otázku (rodné příjmení mámy) | kód k odemčení mobilu | kód od garáže",
             ["{n}: {v}", "Zapamatovat: {n} je {v}", "{n} = {v} (nikomu to neříkej)", "Poznámka: {n} {v}"],
             ["Včera jsem změnil {n}, řeknu ti osobně.", "Příští týden musím změnit {n}.", "Nepamatuju si {n}, zeptej se Petry."],
             ["Zubař {d}. v {t}", "Nákup: mléko, {k} vajec, chleba", "Třídní schůzky ve čtvrtek v {t}", "Balík je na výdejním místě {k}"]),
    "sk": _L("heslo na wifi | kód od dverí | PIN ku karte | kód od alarmu | kód od trezoru | heslo k e-mailu | kód od brány | číslo kreditnej karty | obnovovacia fráza peňaženky | odpoveď na bezpečnostnú otázku (meno prvého psa) | kód na odomknutie mobilu | kód od garáže",
             ["{n}: {v}", "Zapamätaj si: {n} je {v}", "{n} = {v} (nikomu nehovor)", "Poznámka: {n} {v}"],
             ["Včera som zmenil {n}, poviem ti osobne.", "Budúci týždeň musím zmeniť {n}.", "Nepamätám si {n}, opýtaj sa Janky."],
             ["Zubár {d}. o {t}", "Nákup: mlieko, {k} vajec, chlieb", "Rodičovské združenie vo štvrtok o {t}", "Balík je na výdajnom mieste {k}"]),
    "hu": _L("wifi jelszó | ajtókód | bankkártya PIN | riasztó kódja | széf kódja | e-mail jelszó | kapukód | bankkártyaszám | tárca visszaállító szavai | biztonsági kérdés válasza (anyja leánykori neve) | telefon feloldókód | garázskód",
             ["{n}: {v}", "Megjegyezni: {n} = {v}", "{n} → {v} (ne add tovább!)", "Jegyzet: {n} {v}"],
             ["Tegnap megváltozott: {n}. Majd személyesen elmondom.", "Jövő héten cserélni kell: {n}.", "Nem emlékszem rá ({n}), kérdezd Annát."],
             ["Fogorvos {d}-én {t}-kor", "Bevásárlás: tej, {k} tojás, kenyér", "Szülői értekezlet csütörtökön {t}-kor", "A csomag a {k}. számú átvevőponton van"]),
    "ro": _L("parola de la wifi | codul de la ușă | PIN-ul cardului | codul alarmei | codul seifului | parola de la email | codul de la poartă | numărul cardului | fraza de recuperare a portofelului | răspunsul la întrebarea de securitate (numele primului câine) | codul de deblocare al telefonului | codul de la garaj",
             ["{n}: {v}", "Reține: {n} e {v}", "{n} = {v} (nu spune nimănui)", "Notă: {n} {v}"],
             ["Am schimbat ieri {n}, ți-l spun personal.", "Trebuie să schimb {n} săptămâna viitoare.", "Întreab-o pe Ioana de {n}, eu nu mai știu."],
             ["Dentist pe {d} la ora {t}", "Cumpărături: lapte, {k} ouă, pâine", "Ședință cu părinții joi la {t}", "Coletul e la easybox nr. {k}"]),
    "tr": _L("wifi şifresi | kapı şifresi | kart şifresi | alarm kodu | kasa şifresi | e-posta şifresi | bahçe kapısı kodu | kredi kartı numarası | cüzdan kurtarma kelimeleri | güvenlik sorusunun cevabı (annemin kızlık soyadı) | telefon kilit şifresi | garaj kodu",
             ["{n}: {v}", "Unutma: {n} {v}", "{n} = {v} (kimseye söyleme)", "Not: {n} → {v}"],
             ["Dün değiştirdim ({n}), sonra yüz yüze söylerim.", "Gelecek hafta değiştirmem lazım: {n}.", "Hatırlamıyorum ({n}), Ayşe'ye sor."],
             ["Dişçi randevusu ayın {d}'inde saat {t}", "Alışveriş: süt, {k} yumurta, ekmek", "Veli toplantısı perşembe saat {t}", "Kargo {k} numaralı teslim noktasında"]),
    "el": _L("κωδικός wifi | κωδικός πόρτας | PIN κάρτας | κωδικός συναγερμού | συνδυασμός χρηματοκιβωτίου | κωδικός email | κωδικός αυλόπορτας | αριθμός πιστωτικής κάρτας | φράση ανάκτησης πορτοφολιού | απάντηση ερώτησης ασφαλείας (όνομα πρώτου κατοικιδίου) | κωδικός ξεκλειδώματος κινητού | κωδικός γκαράζ",
             ["{n}: {v}", "Θυμήσου: {n} = {v}", "{n} → {v} (μην το πεις σε κανέναν)", "Σημείωση: {n} {v}"],
             ["Άλλαξα χθες: {n}. Θα σου το πω από κοντά.", "Πρέπει να αλλάξω την άλλη εβδομάδα: {n}.", "Δεν θυμάμαι ({n}), ρώτα τη Μαρία."],
             ["Οδοντίατρος στις {d} ώρα {t}", "Ψώνια: γάλα, {k} αυγά, ψωμί", "Συνάντηση γονέων Πέμπτη {t}", "Το δέμα είναι στο σημείο παραλαβής {k}"]),
    "ru": _L("пароль от вайфая | код домофона | пин-код карты | код сигнализации | код сейфа | пароль от почты | код от ворот | номер карты | сид-фраза кошелька | ответ на секретный вопрос (девичья фамилия мамы) | код разблокировки телефона | код гаража",
             ["{n}: {v}", "Запомнить: {n} — {v}", "{n} = {v} (никому не говори)", "Заметка: {n} {v}"],
             ["Поменял вчера ({n}), скажу лично.", "Напомни сменить: {n}.", "Не помню: {n}. Спроси у Лены."],
             ["Стоматолог {d} числа в {t}", "Купить: молоко, {k} яиц, хлеб", "Родительское собрание в четверг в {t}", "Посылка в пункте выдачи №{k}"]),
    "uk": _L("пароль від вайфаю | код домофона | пін-код картки | код сигналізації | код сейфа | пароль від пошти | код від воріт | номер картки | сід-фраза гаманця | відповідь на секретне питання (дівоче прізвище мами) | код розблокування телефона | код гаража",
             ["{n}: {v}", "Запам'ятати: {n} — {v}", "{n} = {v} (нікому не кажи)", "Нотатка: {n} {v}"],
             ["Змінив учора ({n}), скажу особисто.", "Нагадай змінити: {n}.", "Не пам'ятаю: {n}. Спитай у Олі."],
             ["Стоматолог {d} числа о {t}", "Купити: молоко, {k} яєць, хліб", "Батьківські збори в четвер о {t}", "Посилка у відділенні №{k}"]),
    "ar": _L("كلمة سر الواي فاي | رمز الباب | الرقم السري للبطاقة | رمز جهاز الإنذار | رمز الخزنة | كلمة مرور البريد | رمز البوابة | رقم بطاقة الائتمان | عبارة استرداد المحفظة | جواب سؤال الأمان (اسم أول حيوان أليف) | رمز فتح الجوال | رمز المرآب",
             ["{n}: {v}", "تذكّر: {n} هو {v}", "{n} = {v} (لا تخبر أحداً)", "ملاحظة: {n} {v}"],
             ["غيّرت {n} أمس، سأخبرك به شخصياً.", "يجب أن أغيّر {n} الأسبوع القادم.", "لا أتذكر {n}، اسأل سارة."],
             ["موعد طبيب الأسنان يوم {d} الساعة {t}", "مشتريات: حليب، {k} بيضات، خبز", "اجتماع أولياء الأمور يوم الخميس الساعة {t}", "الطرد في نقطة الاستلام رقم {k}"]),
    "he": _L("סיסמת הוויפי | קוד הדלת | קוד הכרטיס | קוד האזעקה | קוד הכספת | הסיסמה למייל | קוד השער | מספר כרטיס האשראי | מילות השחזור של הארנק | תשובה לשאלת האבטחה (שם חיית המחמד הראשונה) | קוד פתיחת הטלפון | קוד החניה",
             ["{n}: {v}", "לזכור: {n} זה {v}", "{n} = {v} (לא לשתף)", "הערה: {n} {v}"],
             ["החלפתי אתמול את {n}, אגיד לך פנים אל פנים.", "צריך להחליף את {n} בשבוע הבא.", "לא זוכר את {n}, תשאל את נועה."],
             ["תור לרופא שיניים ב-{d} בשעה {t}", "קניות: חלב, {k} ביצים, לחם", "אסיפת הורים ביום חמישי ב-{t}", "החבילה בנקודת איסוף {k}"]),
    "fa": _L("رمز وای‌فای | کد در | رمز کارت بانکی | کد دزدگیر | رمز گاوصندوق | رمز ایمیل | کد در حیاط | شماره کارت اعتباری | عبارت بازیابی کیف پول | جواب سؤال امنیتی (اسم اولین حیوان خانگی) | رمز قفل گوشی | کد پارکینگ",
             ["{n}: {v}", "یادت باشه: {n} {v} است", "{n} = {v} (به کسی نگو)", "یادداشت: {n} {v}"],
             ["دیروز {n} را عوض کردم، حضوری می‌گویم.", "هفته بعد باید {n} را عوض کنم.", "{n} یادم نیست، از مریم بپرس."],
             ["وقت دندانپزشکی روز {d} ساعت {t}", "خرید: شیر، {k} تخم‌مرغ، نان", "جلسه اولیا پنجشنبه ساعت {t}", "بسته در باجه شماره {k} است"]),
    "hi": _L("वाईफाई पासवर्ड | दरवाज़े का कोड | एटीएम पिन | अलार्म कोड | तिजोरी का कोड | ईमेल का पासवर्ड | गेट का कोड | क्रेडिट कार्ड नंबर | वॉलेट का रिकवरी फ्रेज़ | सुरक्षा प्रश्न का उत्तर (माँ का मायके का नाम) | फ़ोन अनलॉक कोड | गैराज कोड",
             ["{n}: {v}", "याद रखना: {n} {v} है", "{n} = {v} (किसी को मत बताना)", "नोट: {n} {v}"],
             ["कल {n} बदल दिया, मिलकर बताऊँगा।", "अगले हफ्ते {n} बदलना है।", "{n} याद नहीं, प्रिया से पूछ लो।"],
             ["डेंटिस्ट की अपॉइंटमेंट {d} तारीख को {t} बजे", "सामान: दूध, {k} अंडे, ब्रेड", "पेरेंट-टीचर मीटिंग गुरुवार {t} बजे", "पार्सल पिकअप पॉइंट {k} पर है"]),
    "bn": _L("ওয়াইফাই পাসওয়ার্ড | দরজার কোড | কার্ডের পিন | অ্যালার্ম কোড | সিন্দুকের কোড | ইমেইলের পাসওয়ার্ড | গেটের কোড | ক্রেডিট কার্ড নম্বর | ওয়ালেটের রিকভারি শব্দগুলো | নিরাপত্তা প্রশ্নের উত্তর (প্রথম পোষা প্রাণীর নাম) | ফোন আনলক কোড | গ্যারেজ কোড",
             ["{n}: {v}", "মনে রাখো: {n} হলো {v}", "{n} = {v} (কাউকে বলবে না)", "নোট: {n} {v}"],
             ["গতকাল {n} বদলেছি, সামনাসামনি বলব।", "আগামী সপ্তাহে {n} বদলাতে হবে।", "{n} মনে নেই, রিনাকে জিজ্ঞেস করো।"],
             ["ডেন্টিস্টের অ্যাপয়েন্টমেন্ট {d} তারিখে {t}টায়", "বাজার: দুধ, {k}টা ডিম, পাউরুটি", "অভিভাবক সভা বৃহস্পতিবার {t}টায়", "পার্সেল পিকআপ পয়েন্ট {k}-এ"]),
    "zh": _L("WiFi密码 | 门禁密码 | 银行卡密码 | 报警器密码 | 保险箱密码 | 邮箱密码 | 大门密码 | 信用卡号 | 钱包助记词 | 密保问题答案（第一只宠物的名字） | 手机解锁密码 | 车库密码",
             ["{n}：{v}", "记一下：{n}是{v}", "{n} = {v}（别告诉别人）", "备忘：{n} {v}"],
             ["昨天把{n}改了，见面再告诉你。", "下周要改一下{n}。", "{n}我忘了，问问小王。"],
             ["{d}号{t}看牙医", "买：牛奶、{k}个鸡蛋、面包", "周四{t}开家长会", "快递在{k}号驿站"]),
    "ja": _L("Wi-Fiのパスワード | 玄関の暗証番号 | キャッシュカードの暗証番号 | 警報装置のコード | 金庫の番号 | メールのパスワード | 門のコード | クレジットカード番号 | ウォレットの復元フレーズ | 秘密の質問の答え（初めて飼ったペットの名前） | スマホのロック解除コード | ガレージのコード",
             ["{n}：{v}", "覚えておく：{n}は{v}", "{n} = {v}（誰にも言わないこと）", "メモ：{n} {v}"],
             ["昨日{n}を変えた。会ったときに教えるね。", "来週{n}を変更しないと。", "{n}忘れた、田中さんに聞いて。"],
             ["{d}日{t}に歯医者", "買い物：牛乳、卵{k}個、パン", "木曜{t}から保護者会", "荷物は{k}番の受取ロッカーに"]),
    "ko": _L("와이파이 비번 | 현관 비밀번호 | 카드 비밀번호 | 경보기 코드 | 금고 비밀번호 | 이메일 비밀번호 | 대문 비밀번호 | 신용카드 번호 | 지갑 복구 문구 | 보안 질문 답 (첫 반려동물 이름) | 폰 잠금 해제 번호 | 차고 비밀번호",
             ["{n}: {v}", "기억하기 → {n} {v}", "{n} = {v} (아무한테도 말하지 마)", "메모: {n} {v}"],
             ["어제 {n} 바꿨어, 만나서 알려줄게.", "다음 주에 {n} 바꿔야 함.", "{n} 기억 안 나, 민지한테 물어봐."],
             ["{d}일 {t}에 치과 예약", "장보기: 우유, 계란 {k}개, 빵", "목요일 {t}에 학부모 모임", "택배는 {k}번 보관함에 있음"]),
    "vi": _L("mật khẩu wifi | mã cửa | mã PIN thẻ ATM | mã báo động | mã két sắt | mật khẩu email | mã cổng | số thẻ tín dụng | cụm từ khôi phục ví | câu trả lời bảo mật (tên thú cưng đầu tiên) | mã mở khóa điện thoại | mã nhà xe",
             ["{n}: {v}", "Nhớ nhé: {n} là {v}", "{n} = {v} (đừng nói ai)", "Ghi chú: {n} {v}"],
             ["Hôm qua đã đổi {n}, gặp rồi nói.", "Tuần sau phải đổi {n}.", "Quên {n} rồi, hỏi chị Lan nhé."],
             ["Hẹn nha sĩ ngày {d} lúc {t}", "Mua: sữa, {k} quả trứng, bánh mì", "Họp phụ huynh thứ Năm lúc {t}", "Bưu kiện ở điểm nhận số {k}"]),
    "th": _L("รหัสไวไฟ | รหัสประตู | รหัสบัตร ATM | รหัสสัญญาณกันขโมย | รหัสตู้เซฟ | รหัสผ่านอีเมล | รหัสประตูรั้ว | เลขบัตรเครดิต | วลีกู้คืนกระเป๋าเงิน | คำตอบคำถามความปลอดภัย (ชื่อสัตว์เลี้ยงตัวแรก) | รหัสปลดล็อกมือถือ | รหัสโรงรถ",
             ["{n}: {v}", "จำไว้: {n} คือ {v}", "{n} = {v} (ห้ามบอกใคร)", "โน้ต: {n} {v}"],
             ["เมื่อวานเปลี่ยน{n}แล้ว เดี๋ยวเจอกันค่อยบอก", "อาทิตย์หน้าต้องเปลี่ยน{n}", "จำ{n}ไม่ได้ ถามพี่นิดนะ"],
             ["นัดหมอฟันวันที่ {d} เวลา {t}", "ซื้อ: นม ไข่ {k} ฟอง ขนมปัง", "ประชุมผู้ปกครองวันพฤหัส {t}", "พัสดุอยู่จุดรับของหมายเลข {k}"]),
    "id": _L("password wifi | kode pintu | PIN kartu ATM | kode alarm | kode brankas | password email | kode pagar | nomor kartu kredit | frasa pemulihan dompet | jawaban pertanyaan keamanan (nama hewan peliharaan pertama) | kode buka kunci HP | kode garasi",
             ["{n}: {v}", "Ingat ya: {n} itu {v}", "{n} = {v} (jangan kasih tahu siapa-siapa)", "Catatan: {n} {v}"],
             ["Kemarin {n} sudah kuganti, nanti kukasih tahu langsung.", "Minggu depan harus ganti {n}.", "Lupa {n}, tanya Dewi aja."],
             ["Janji dokter gigi tanggal {d} jam {t}", "Belanja: susu, {k} telur, roti", "Rapat orang tua Kamis jam {t}", "Paket ada di titik ambil nomor {k}"]),
    "ms": _L("kata laluan wifi | kod pintu | PIN kad ATM | kod penggera | kod peti besi | kata laluan emel | kod pagar | nombor kad kredit | frasa pemulihan dompet | jawapan soalan keselamatan (nama haiwan peliharaan pertama) | kod buka kunci telefon | kod garaj",
             ["{n}: {v}", "Ingat: {n} ialah {v}", "{n} = {v} (jangan beritahu sesiapa)", "Nota: {n} {v}"],
             ["Semalam saya tukar {n}, nanti saya beritahu sendiri.", "Minggu depan kena tukar {n}.", "Lupa {n}, tanya Aisyah."],
             ["Temu janji doktor gigi pada {d} hb jam {t}", "Beli: susu, {k} biji telur, roti", "Mesyuarat PIBG Khamis jam {t}", "Bungkusan di pusat ambil no. {k}"]),
    "tl": _L("password ng wifi | code ng pinto | PIN ng ATM | code ng alarm | combination ng vault | password ng email | code ng gate | numero ng credit card | recovery phrase ng wallet | sagot sa security question (pangalan ng unang alaga) | passcode ng cellphone | code ng garahe",
             ["{n}: {v}", "Tandaan: {n} ay {v}", "{n} = {v} (wag mong sabihin kahit kanino)", "Note: {n} {v} haha"],
             ["Pinalitan ko kahapon ang {n}, sasabihin ko na lang pag nagkita tayo.", "Kailangan palitan ang {n} next week.", "Nakalimutan ko ang {n}, tanungin mo si Joy."],
             ["Dentista sa {d} ng {t}", "Bilhin: gatas, {k} itlog, tinapay", "PTA meeting sa Huwebes ng {t}", "Nasa pickup point {k} ang parcel"]),
    "sw": _L("nenosiri la wifi | namba ya siri ya mlango | PIN ya kadi ya benki | namba ya kengele ya usalama | namba ya sefu | nenosiri la barua pepe | namba ya geti | namba ya kadi ya mkopo | maneno ya kurejesha pochi | jibu la swali la usalama (jina la mnyama wa kwanza) | namba ya kufungua simu | namba ya gereji",
             ["{n}: {v}", "Kumbuka: {n} ni {v}", "{n} = {v} (usimwambie mtu)", "Dokezo: {n} {v}"],
             ["Jana nimebadilisha {n}, nitakuambia ana kwa ana.", "Wiki ijayo lazima nibadilishe {n}.", "Nimesahau {n}, muulize Amina."],
             ["Miadi ya daktari wa meno tarehe {d} saa {t}", "Nunua: maziwa, mayai {k}, mkate", "Mkutano wa wazazi Alhamisi saa {t}", "Kifurushi kiko kituo namba {k}"]),
    "ca": _L("contrasenya del wifi | codi de la porta | PIN de la targeta | codi de l'alarma | combinació de la caixa forta | contrasenya del correu | codi de la tanca | número de la targeta de crèdit | frase de recuperació del moneder | resposta de seguretat (nom de la primera mascota) | codi de desbloqueig del mòbil | codi del garatge",
             ["{n}: {v}", "Recorda: {n} és {v}", "{n} = {v} (no ho diguis a ningú)", "Nota: {n} {v}"],
             ["Ahir vaig canviar {n}, ja t'ho diré en persona.", "He de canviar {n} la setmana que ve.", "No recordo {n}, pregunta-ho a la Núria."],
             ["Dentista el dia {d} a les {t}", "Comprar: llet, {k} ous, pa", "Reunió de l'escola dijous a les {t}", "El paquet és al punt de recollida {k}"]),
    "hr": _L("lozinka za wifi | kod za vrata | PIN kartice | kod alarma | kod sefa | lozinka za mail | kod za dvorišna vrata | broj kreditne kartice | fraza za oporavak novčanika | odgovor na sigurnosno pitanje (ime prvog ljubimca) | kod za otključavanje mobitela | kod garaže",
             ["{n}: {v}", "Zapamti: {n} je {v}", "{n} = {v} (nikome ne govori)", "Bilješka: {n} {v}"],
             ["Jučer sam promijenio: {n}. Reći ću ti uživo.", "Sljedeći tjedan moram promijeniti: {n}.", "Ne sjećam se ({n}), pitaj Ivanu."],
             ["Zubar {d}. u {t}", "Kupiti: mlijeko, {k} jaja, kruh", "Roditeljski sastanak u četvrtak u {t}", "Paket je na paketomatu br. {k}"]),
    "bg": _L("парола за уайфая | код на входа | ПИН на картата | код на алармата | код на сейфа | парола за имейла | код на портата | номер на кредитната карта | фраза за възстановяване на портфейла | отговор на тайния въпрос (моминско име на мама) | код за отключване на телефона | код на гаража",
             ["{n}: {v}", "Запомни: {n} е {v}", "{n} = {v} (не казвай на никого)", "Бележка: {n} {v}"],
             ["Вчера смених: {n}. Ще ти кажа лично.", "Другата седмица трябва да сменя: {n}.", "Не помня ({n}), питай Мария."],
             ["Зъболекар на {d}-ти в {t}", "Да купя: мляко, {k} яйца, хляб", "Родителска среща в четвъртък в {t}", "Пратката е в офис №{k}"]),
}
LANG_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
              "nl": "Dutch", "sv": "Swedish", "nb": "Norwegian Bokmål", "da": "Danish", "fi": "Finnish", "pl": "Polish",
              "cs": "Czech", "sk": "Slovak", "hu": "Hungarian", "ro": "Romanian", "tr": "Turkish", "el": "Greek",
              "ru": "Russian", "uk": "Ukrainian", "ar": "Arabic", "he": "Hebrew", "fa": "Persian", "hi": "Hindi",
              "bn": "Bengali", "zh": "Chinese (Simplified)", "ja": "Japanese", "ko": "Korean", "vi": "Vietnamese",
              "th": "Thai", "id": "Indonesian", "ms": "Malay", "tl": "Tagalog", "sw": "Swahili", "ca": "Catalan",
              "hr": "Croatian", "bg": "Bulgarian"}
assert all(len(v["n"]) == 12 for v in LANGS.values()), [k for k, v in LANGS.items() if len(v["n"]) != 12]


# ----------------------------------------------------------------------------
# record store
# ----------------------------------------------------------------------------
RECORDS = []
SEEN = set()


def fresh(fn):
    """call a generator until it yields a value not produced before (max 8 tries)"""
    for _ in range(8):
        x = fn()
        k = json.dumps(x["value"], ensure_ascii=False, sort_keys=True)
        if k not in SEEN:
            break
    else:  # still a repeat (tiny template pool): add a date stamp, same rule for both labels
        v = x["value"]
        if isinstance(v, str):
            x["value"] = "%s: %s" % (rdate(), v)
        elif isinstance(v, dict):
            x["value"] = dict(v, noted=rdate())
        else:
            x["value"] = list(v) + ["(%s)" % rdate()]
        k = json.dumps(x["value"], ensure_ascii=False, sort_keys=True)
    SEEN.add(k)
    return x


def add(label, variant, segment, kind, value, lang="en", key=None, ns3=None, fixed=False, tag=None):
    RECORDS.append({"label": label, "variant": variant, "segment": segment, "kind": kind, "value": value,
                    "lang": lang, "key": key, "ns3": ns3, "fixed": fixed, "tag": tag or kind})


def rdate():
    return "%d-%02d-%02d" % (ri(2023, 2025), ri(1, 12), ri(1, 28))


def rtime():
    return "%02d:%02d" % (ri(6, 21), ch([0, 15, 30, 45, 10, 20, 40, 50]))


def slug(s):
    return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")


def camel(v):
    p = v.lower().split("_")
    return p[0] + "".join(x.capitalize() for x in p[1:])


def kebab(v):
    return v.lower().replace("_", "-")


ENV_EXTRAS = ["NODE_ENV=production", "PORT=8080", "LOG_LEVEL=info", "TZ=UTC", "APP_ENV=staging", "DEBUG=false",
              "WORKERS=4", "REGION=eu-west-1", "CACHE_TTL=300", "FEATURE_NEW_CHECKOUT=true", "APP_NAME={co}-api",
              "PUBLIC_URL=https://{co}.com", "MAX_UPLOAD_MB=25", "LOCALE=en_US", "RETRY_LIMIT=3", "HOST=0.0.0.0"]


def env_extra(n):
    return [x.format(co=ch(COMPANY)) for x in sample(ENV_EXTRAS, n)]


def q_env(v):
    if "\n" in v:
        return '"' + v.replace("\n", "\\n") + '"'
    if any(c in v for c in " $&;|()<>#'\"") or coin(0.25):
        return '"' + v.replace('"', '\\"') + '"' if '"' in v or coin(0.6) else "'" + v + "'"
    return v


def yaml_scalar(v, indent):
    if "\n" in v:
        pad = " " * (indent + 2)
        return "|\n" + "\n".join(pad + ln for ln in v.split("\n"))
    if any(c in v for c in ":#{}[],&*!|>'\"%@`") or v[:1] in "-?" or coin(0.3):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return v


def pyq(v):
    if "\n" in v:
        return '"""' + v + '"""'
    return json.dumps(v, ensure_ascii=False) if coin(0.6) else "'" + v.replace("'", "\\'") + "'"


# --- containers -------------------------------------------------------------
def c_env(f, vs):
    lines = []
    if coin(0.5):
        lines.append(ch(["# %s", "# --- %s ---", "## %s credentials", "# %s (prod)", "# added for %s integration"]) % f.vendor)
    extra = env_extra(ri(0, 3))
    for e in extra[: len(extra) // 2]:
        lines.append(e)
    for n, v in vs:
        lines.append(("export " if coin(0.15) else "") + n + "=" + q_env(v))
    lines += extra[len(extra) // 2:]
    return "env-file", "\n".join(lines)


def c_yaml(f, vs):
    top = slug(f.vendor.split(" ")[0]) or "service"
    style = ri(0, 2)
    if style == 0:
        out = [top + ":"] + ["  %s: %s" % (n.lower().replace(top.upper() + "_", "").lower() or n.lower(), yaml_scalar(v, 2)) for n, v in vs]
    elif style == 1:
        out = ["env:"] + ["  - name: %s\n    value: %s" % (n, yaml_scalar(v, 4)) for n, v in vs]
    else:
        out = ["%s:" % ch(["integrations", "secrets", "providers", "credentials", "config"]), "  %s:" % top]
        out += ["    %s: %s" % (camel(n), yaml_scalar(v, 4)) for n, v in vs]
    if coin(0.4):
        out.insert(0, ch(["# config/%s.yml" % top, "---", "# generated %s" % rdate(), "version: 2"]))
    return "yaml", "\n".join(out)


def c_toml(f, vs):
    sec = slug(f.vendor.split(" ")[0])
    out = ["[%s]" % ch([sec, "credentials." + sec, "tool." + sec, "services." + sec])]
    for n, v in vs:
        val = ('"""\n' + v + '\n"""') if "\n" in v else json.dumps(v, ensure_ascii=False)
        out.append("%s = %s" % (n.lower(), val))
    if coin(0.4):
        out = ["[server]", "port = %d" % ch([8000, 8080, 3000, 5000]), ""] + out
    return "toml", "\n".join(out)


def c_ini(f, vs):
    sec = slug(f.vendor)
    out = ["[%s]" % ch([sec, "default", "production", sec + ":prod"])]
    for n, v in vs:
        out.append("%s %s %s" % (n.lower(), ch(["=", "="]), v.replace("\n", "\\n")))
    return "ini", "\n".join(out)


def c_json(f, vs):
    style = ri(0, 3)
    if style == 0:
        return "json-config", {n: v for n, v in vs}
    if style == 1:
        return "json-config", {slug(f.vendor): {camel(n): v for n, v in vs}}
    if style == 2:
        d = {"name": ch(COMPANY) + "-" + ch(["api", "worker", "web", "etl"]), "env": ch(["production", "prod", "live"])}
        d["secrets"] = {n: v for n, v in vs}
        return "json-config", d
    return "json-config", {"provider": f.vendor, "credentials": {camel(n): v for n, v in vs}, "enabled": True}


def c_properties(f, vs):
    pre = ch(["app", "spring", "integration", slug(f.vendor)])
    out = ["%s.%s=%s" % (pre, kebab(n), v.replace("\n", "\\n")) for n, v in vs]
    if coin(0.4):
        out.insert(0, "server.port=%d" % ch([8080, 8443, 9000]))
    return "properties", "\n".join(out)


def c_python(f, vs):
    k = ri(0, 3)
    if k == 0:
        body = "\n".join("%s = %s" % (n, pyq(v)) for n, v in vs)
        return "code-python", "# settings.py\n" + body if coin(0.5) else body
    if k == 1:
        args = ", ".join("%s=%s" % (n.lower().split("_", 1)[-1], pyq(v)) for n, v in vs)
        return "code-python", "client = %sClient(%s)" % (re.sub(r"[^A-Za-z]", "", f.vendor.split(" ")[0]), args)
    if k == 2:
        body = "\n".join("os.environ[%s] = %s" % (json.dumps(n), pyq(v)) for n, v in vs)
        return "code-python", "import os\n" + body
    n, v = vs[0]
    return "code-python", "def get_client():\n    # TODO move to vault\n    %s = %s\n    return connect(%s)" % (n.lower(), pyq(v), n.lower())


def c_js(f, vs):
    k = ri(0, 2)
    if k == 0:
        return "code-js", "\n".join("const %s = %s;" % (n, json.dumps(v) if "\n" not in v else "`" + v + "`") for n, v in vs)
    if k == 1:
        inner = ",\n".join("  %s: %s" % (camel(n), json.dumps(v)) for n, v in vs)
        return "code-js", "module.exports = {\n%s\n};" % inner
    inner = ", ".join("%s: %s" % (camel(n), json.dumps(v)) for n, v in vs)
    return "code-js", "const client = new %s({ %s });" % (re.sub(r"[^A-Za-z]", "", f.vendor.split(" ")[0]) or "Api", inner)


def c_ts(f, vs):
    inner = "\n".join("  %s: %s," % (camel(n), json.dumps(v)) for n, v in vs)
    return "code-ts", "export const %sConfig = {\n%s\n} as const;" % (camel(slug(f.vendor)) or "api", inner)


def c_go(f, vs):
    if coin(0.5):
        return "code-go", "const (\n" + "\n".join("\t%s = %s" % (camel(n)[0].upper() + camel(n)[1:], ("`" + v + "`") if "\n" in v else json.dumps(v)) for n, v in vs) + "\n)"
    n, v = vs[0]
    return "code-go", 'req.Header.Set("Authorization", "Bearer %s")' % v if "\n" not in v else "var key = `%s`" % v


def c_ruby(f, vs):
    return "code-ruby", "\n".join("ENV[%s] ||= %s" % (json.dumps(n), json.dumps(v)) for n, v in vs)


def c_java(f, vs):
    return "code-java", "\n".join('    private static final String %s = %s;' % (n, json.dumps(v)) for n, v in vs)


def c_csharp(f, vs):
    return "code-csharp", "\n".join('var %s = %s;' % (camel(n), ("@\"" + v + "\"") if "\n" in v else json.dumps(v)) for n, v in vs)


def c_php(f, vs):
    return "code-php", "<?php\n" + "\n".join("define('%s', '%s');" % (n, v.replace("'", "\\'")) for n, v in vs)


def c_rust(f, vs):
    return "code-rust", "\n".join('const %s: &str = %s;' % (n, json.dumps(v)) for n, v in vs)


def c_shell(f, vs):
    n0 = ri(100, 2400)
    out = []
    if coin(0.5):
        out.append("%5d  cd ~/src/%s" % (n0, ch(COMPANY)))
        n0 += 1
    for n, v in vs:
        out.append("%5d  export %s=%s" % (n0, n, q_env(v)))
        n0 += 1
    out.append("%5d  %s" % (n0, ch(["npm run deploy", "make release", "terraform apply", "python manage.py runserver", "./scripts/sync.sh", "kubectl get pods"])))
    return "shell-history", "\n".join(out)


def c_curl(f, vs):
    n, v = vs[0]
    host = "https://api.%s.com" % (slug(f.vendor.split(" ")[0]).replace("_", "") or "service")
    k = ri(0, 3)
    if k == 0:
        return "curl", 'curl -s %s/v1/%s -H "Authorization: Bearer %s"' % (host, ch(["me", "users", "projects", "status", "events"]), v)
    if k == 1:
        return "curl", "curl -X POST %s/v2/%s \\\n  -H 'Content-Type: application/json' \\\n  -H 'X-API-Key: %s' \\\n  -d '{\"limit\": %d}'" % (host, ch(["query", "messages", "jobs"]), v, ri(1, 100))
    if k == 2:
        return "curl", "curl -u %s:%s %s/api/%s" % (ch(["api", "admin", "token", ch(COMPANY)]), v, host, ch(["health", "keys", "orders"]))
    return "curl", "curl '%s/v1/%s?api_key=%s&format=json'" % (host, ch(["search", "data", "report"]), urllib.parse.quote(v, safe=""))


def c_docker(f, vs):
    envs = " ".join("-e %s=%s" % (n, q_env(v)) for n, v in vs)
    return "docker", "docker run -d --name %s %s %s/%s:%s" % (ch(["api", "worker", "app", "sync"]), envs, ch(COMPANY), ch(["api", "web", "jobs"]), ch(["latest", "1.4.2", "stable"]))


def c_compose(f, vs):
    svc = ch(["api", "worker", "web", "backend"])
    out = ["services:", "  %s:" % svc, "    image: %s/%s:latest" % (ch(COMPANY), svc), "    environment:"]
    for n, v in vs:
        out.append("      %s: %s" % (n, yaml_scalar(v, 6)) if coin(0.5) or "\n" in v else "      - %s=%s" % (n, v))
    return "docker-compose", "\n".join(out)


def c_k8s(f, vs):
    out = ["apiVersion: v1", "kind: Secret", "metadata:", "  name: %s-credentials" % kebab(slug(f.vendor)),
           "  namespace: %s" % ch(["default", "prod", "payments", "ci"]), "type: Opaque", "stringData:"]
    for n, v in vs:
        out.append("  %s: %s" % (n, yaml_scalar(v, 2)))
    return "kubernetes", "\n".join(out)


def c_kubeconfig(f, vs):
    n, v = vs[0]
    fld = "client-key-data" if "CLIENT_KEY" in n else "token"
    return "kubeconfig", ("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://%s.k8s.%s.io:6443\n  name: prod\n"
                          "contexts:\n- context: {cluster: prod, user: deployer}\n  name: prod\ncurrent-context: prod\n"
                          "users:\n- name: deployer\n  user:\n    %s: %s") % (rs(HEXL, 8), ch(COMPANY), fld, v)


def c_terraform(f, vs):
    if coin(0.5):
        out = ['variable "%s" {' % vs[0][0].lower(), '  type    = string', '  default = %s' % json.dumps(vs[0][1]), "}"]
        return "terraform", "\n".join(out)
    body = "\n".join("  %s = %s" % (n.lower(), ('<<EOT\n' + v + '\nEOT') if "\n" in v else json.dumps(v)) for n, v in vs)
    return "terraform", 'provider "%s" {\n%s\n}' % (slug(f.vendor.split(" ")[0]), body)


def c_ci(f, vs):
    if coin(0.5):
        out = ["name: deploy", "on: [push]", "jobs:", "  build:", "    runs-on: ubuntu-latest", "    env:"]
        out += ["      %s: %s" % (n, yaml_scalar(v, 6)) for n, v in vs]
        out += ["    steps:", "      - uses: actions/checkout@v4", "      - run: %s" % ch(["make deploy", "npm ci && npm run release", "./deploy.sh"])]
    else:
        out = ["variables:"] + ["  %s: %s" % (n, yaml_scalar(v, 2)) for n, v in vs]
        out += ["", "deploy:", "  stage: deploy", "  script:", "    - %s" % ch(["./ci/deploy.sh", "helm upgrade --install app ./chart", "python release.py"])]
    return "ci-yaml", "\n".join(out)


def c_powershell(f, vs):
    return "powershell", "\n".join('$env:%s = "%s"' % (n, v.replace('"', '`"')) for n, v in vs)


def c_systemd(f, vs):
    return "systemd", "[Service]\nExecStart=/usr/local/bin/%s\n" % ch(["api", "worker", "exporter"]) + "\n".join('Environment="%s=%s"' % (n, v.replace("\n", "\\n")) for n, v in vs)


def c_http(f, vs):
    n, v = vs[0]
    return "http-request", "POST /v1/%s HTTP/1.1\nHost: api.%s.com\nAuthorization: Bearer %s\nContent-Type: application/json\n\n{\"id\": %d}" % (
        ch(["events", "send", "charge", "sync"]), slug(f.vendor.split(" ")[0]), v, ri(1, 9999))


NOTE_LINES = [
    "{vendor} {label} for {proj}: {v}",
    "new {vendor} {label} ({env}) -> {v}",
    "keep this safe: {vendor} {label} {v}",
    "{label} for {vendor}, {env} account:\n{v}",
    "saving the {vendor} {label} here so I stop losing it: {v}",
    "{vendor} {env} {label} = {v}",
    "{proj} / {vendor}\n{label}: {v}",
    "rotated the {vendor} {label} today, new one is {v}",
]


def _kv_lines(vs):
    return "\n".join("%s: %s" % (n, v) for n, v in vs[1:])


def nctx():
    return {"proj": ch(["the side project", "staging", "the shop", "client X", "the newsletter bot", "prod", "our demo", "the hackathon app"]),
            "env": ch(["prod", "live", "production", "staging", "main"])}


def c_notes(f, vs):
    n, v = vs[0]
    t = ch(NOTE_LINES).format(vendor=f.vendor, label=f.label, v=v, **nctx())
    if len(vs) > 1 and coin(0.6):
        t += "\n" + _kv_lines(vs)
    return "notes", typo(t, 0.1)


def c_chat(f, vs):
    n, v = vs[0]
    k = ri(0, 2)
    who = ch(FIRST)
    if k == 0:
        return "chat", [{"role": "user", "content": "can you remember my %s %s? it's %s" % (f.vendor, f.label, v)},
                        {"role": "assistant", "content": "Saved. I'll remember your %s %s." % (f.vendor, f.label)}]
    if k == 1:
        return "chat", ["%s: whats the %s %s again?" % (who, f.vendor, f.label), "me: %s" % v, "%s: thx!!" % who]
    return "chat", "[%s %s] %s: here's the %s %s for %s\n%s" % (rdate(), rtime(), who, f.vendor, f.label, nctx()["proj"], v)


def c_email(f, vs):
    who = ch(FIRST)
    body = "Hi %s,\n\n%s\n\n%s\n\nCheers,\n%s" % (
        who, ch(["As discussed, here are the %s credentials for the %s environment:" % (f.vendor, nctx()["env"]),
                 "Please use the following %s %s until we move it into the vault:" % (f.vendor, f.label),
                 "Sharing the %s %s you asked for:" % (f.vendor, f.label)]),
        "\n".join("%s: %s" % (n, v) for n, v in vs), ch(FIRST))
    if coin(0.5):
        body = "Subject: %s access\n\n" % f.vendor + body
    return "email", body


def c_ticket(f, vs):
    n, v = vs[0]
    return "ticket", "%s-%d: %s\n%s\n%s=%s" % (ch(["OPS", "INFRA", "SUP", "DEV", "IT"]), ri(100, 9999),
                                                ch(["Integration failing after key rotation", "Set up %s for billing" % f.vendor,
                                                    "Customer cannot connect to %s" % f.vendor, "Handover notes"]),
                                                ch(["Repro steps below. Current config:", "Working value confirmed by vendor:", "Temporary credentials:"]), n, v)


def c_form(f, vs):
    d = {"service": f.vendor, "field": f.label}
    d[ch(["value", "secret", "credential", "token", "key"])] = vs[0][1]
    for n, v in vs[1:]:
        d[n.lower()] = v
    if coin(0.5):
        d["added"] = rdate()
    return "form", d


CONTAINERS = [(c_env, 10), (c_yaml, 7), (c_toml, 3), (c_ini, 3), (c_json, 8), (c_properties, 2), (c_python, 6),
              (c_js, 5), (c_ts, 2), (c_go, 2), (c_ruby, 2), (c_java, 2), (c_csharp, 2), (c_php, 2), (c_rust, 1),
              (c_shell, 4), (c_curl, 4), (c_docker, 3), (c_compose, 3), (c_k8s, 3), (c_terraform, 3), (c_ci, 4),
              (c_powershell, 2), (c_systemd, 1), (c_http, 2), (c_notes, 6), (c_chat, 5), (c_email, 3), (c_ticket, 2),
              (c_form, 3)]


def pick_container(f, vs):
    v0 = vs[0][1]
    multiline = "\n" in v0
    uri_like = "://" in v0 or "=" in v0 or " " in v0
    while True:
        c = R.choices([c for c, w in CONTAINERS], weights=[w for c, w in CONTAINERS])[0]
        if c in (c_curl, c_http, c_go) and (multiline or uri_like):
            continue
        if f.kind in ("kubernetes-sa-token", "kubeconfig-client-key", "rancher-api-token") and coin(0.5):
            return c_kubeconfig
        return c


def gen_vendor_plain(formats, total):
    order = shuffled(formats)
    extra = [ch(formats) for _ in range(total - len(formats))]
    for f in order + extra:
        vs = f.gen()
        c = pick_container(f, vs)
        seg, val = c(f, vs)
        add("secret", "plain", seg, f.kind, val, tag="vendor")


# ----------------------------------------------------------------------------
# personal secrets (plain)
# ----------------------------------------------------------------------------
def _val_text(kind, v, extra):
    if kind == "backup-codes":
        return ch(["\n".join(v), ", ".join(v), " ".join(v), "\n".join("%d. %s" % (i + 1, c) for i, c in enumerate(v))])
    if kind == "payment-card":
        num = fmt_card(v, ch([" ", " ", "-", ""]))
        return ch(["%s exp %s cvv %s", "%s  %s  %s", "%s, valid thru %s, security code %s", "%s (%s) cvc %s"]) % (num, extra["exp"], extra["cvv"])
    if kind == "sim-puk":
        return "%s (pin %s)" % (v, extra["pin"]) if coin(0.5) else v
    if kind == "security-answer":
        return v
    return v


def en_personal(kind):
    v, extra = personal_value(kind)
    subj = fill_subj(ch(EN_SUBJ[kind]))
    if kind == "wifi-password" and "{ssid}" not in ch(EN_SUBJ[kind]) and coin(0.3):
        subj += " (" + extra["ssid"] + ")"
    if kind == "security-answer":
        subj = ch(["security q for %s: %s", "%s security question – %s", "%s secret question (%s)"]) % (ch(BANKS + SITES), extra["question"])
    if kind == "gift-card-code":
        subj = subj.replace("gift card code", "%s gift card code" % extra["store"])
    vt = _val_text(kind, v, extra)
    style = ri(0, 11)
    op, suf = ch(OPENERS), ch(SUFFIXES)
    if style <= 3:
        s = op + typo(subj) + ch(CONNS) + vt + suf
    elif style == 4:
        s = op + vt + ch([" is the ", " = ", " -> ", " ← "]) + typo(subj) + suf
    elif style == 5:
        s = typo(subj) + "\n" + vt
    elif style == 6:
        items = [ch(["passports in the blue folder", "charger!!", "water the plants", "book the taxi", "pay rent",
                     "call the plumber", "bring sunscreen", "return library books", "buy oat milk", "milk, eggs"])
                 for _ in range(ri(1, 3))]
        items.insert(ri(0, len(items)), "%s%s%s" % (subj, ch(CONNS), vt))
        s = ch(["stuff to remember:", "todo", "TRIP LIST", "things for this week", "notes"]) + "\n" + "\n".join(ch(["- ", "• ", "* ", ""]) + x for x in items)
    elif style == 7:
        s = "%s %s%s%s" % (ch(["We're at %s next week." % ch(PLACES), "Babysitter comes Friday.", "Landlord texted today.",
                                "Moved everything to the new phone.", "For the holiday:", "Got the new card in the mail."]),
                             subj, ch(CONNS), vt) + suf
    elif style == 8:
        s = "%s%s%s %s" % (subj.upper() if coin(0.3) else subj, ch(CONNS), vt, ch(["🔐", "🚪", "📶", "💳", "🙈", "🤫", ""]))
    elif style == 9:
        s = "%s%s, %s" % (op, ch(["my", "our", "the"]) + " " + subj.replace("the ", "") + ch(CONNS) + vt,
                          ch(["don't forget it this time", "dont tell the kids", "Mia knows it too", "expires end of month", "old one doesn't work"]))
    elif style == 10:
        s = "%s %s:\n%s" % (ch(["mom", "Dad", "landlord", "Priya", "the airbnb host", "IT desk", "Tom"]), ch(["said", "texted", "wrote"]), subj + ch(CONNS) + vt)
    else:
        s = "%s%s%s%s" % (op, typo(subj).replace(" ", ch([" ", " "])), ch(CONNS), vt.replace(" ", "  ") if kind != "seed-phrase" else vt)
    return v, extra, s


def gen_personal_plain(n_en, per_lang):
    kinds = PERSONAL_KINDS
    # English
    for i in range(n_en):
        kind = kinds[i % len(kinds)] if i < len(kinds) * 3 else ch(kinds)
        v, extra, s = en_personal(kind)
        src = R.choices(["notes", "chat", "form", "email", "ticket", "voice-memo", "sms-forward"], [40, 22, 12, 9, 4, 8, 5])[0]
        if src == "chat":
            val = ch([[{"role": "user", "content": s}, {"role": "assistant", "content": ch(["Got it, saved.", "Noted!", "I'll remember that."])}],
                      s, ["me: " + s.split("\n")[0]] + (["me: " + x for x in s.split("\n")[1:]])])
        elif src == "form":
            val = _personal_form(kind, v, extra)
        elif src == "email":
            val = "Hi %s,\n\n%s\n\n%s" % (ch(FIRST), s, ch(["Thanks!", "See you Saturday", "x", "Best,\n" + ch(FIRST)]))
        elif src == "ticket":
            val = "Ticket %d – %s\n%s" % (ri(1000, 99999), ch(["account locked", "new starter setup", "guest access", "handover"]), s)
        elif src == "voice-memo":
            val = "[voice memo transcript] " + s.replace("\n", " ")
        elif src == "sms-forward":
            val = "Fwd SMS from %s: %s" % (ch(FIRST), s.replace("\n", " "))
        else:
            val = s
        add("secret", "plain", src, kind, val, lang="en", tag="personal")
    # other languages
    for lang, L in LANGS.items():
        keys = shuffled(NOUN_KEYS)
        for j in range(per_lang):
            nk = keys[j % len(keys)]
            kind = NOUN_KIND[nk]
            v, extra = personal_value(kind)
            vt = _val_text(kind, v, extra)
            if kind == "email-password" and coin(0.4):
                vt = vt + " (" + ch(FIRST).lower() + "." + ch(LAST).lower().replace("'", "") + "@" + ch(DOMAINS) + ")"
            frame = ch(L["f"])
            s = frame.format(n=L["n"][nk], v=vt)
            k = ri(0, 6)
            if k == 0:
                s = ch(["📌 ", "!!! ", "", "— "]) + s + ch([" 🔑", " 🙈", "", " !!"])
            elif k == 1:
                s = L["n"][nk] + "\n" + vt
            elif k == 2:
                other = L["o"][ri(0, 3)].format(d=ri(1, 28), t=rtime(), k=ri(2, 12))
                s = other + "\n" + s if coin() else s + "\n" + other
            elif k == 3:
                s = s + ch([" (ok?)", " – thx", " 👍", " lol", " pls"])  # mixed-language touch
            src = R.choices(["notes", "chat", "form", "sms-forward"], [60, 25, 8, 7])[0]
            if src == "chat":
                val = [{"role": "user", "content": s}, {"role": "assistant", "content": "✓"}] if coin(0.5) else s
            elif src == "form":
                val = {"label": L["n"][nk], "value": vt}
            elif src == "sms-forward":
                val = "Fwd: " + s.replace("\n", " ")
            else:
                val = s
            add("secret", "plain", "%s-%s" % (src, lang), kind, val, lang=lang, tag="personal")


def _personal_form(kind, v, extra):
    if kind == "payment-card":
        return {"cardholder": "%s %s" % (ch(FIRST), ch(LAST)), "number": fmt_card(v, ch([" ", ""])), "expiry": extra["exp"],
                "cvc": extra["cvv"], "brand": extra["brand"]}
    if kind in ("account-password", "email-password", "banking-login", "router-admin"):
        return {"site": ch(SITES) if kind == "account-password" else ch(["gmail.com", "online banking", "192.168.0.1", "outlook"]),
                "username": ch(FIRST).lower() + str(ri(1, 99)) + ch(["", "@" + ch(DOMAINS)]), "password": v}
    if kind == "wifi-password":
        return {"network": extra["ssid"], "password": v, "security": ch(["WPA2", "WPA3", "WPA2-PSK"])}
    if kind == "security-answer":
        return {"question": extra["question"], "answer": v, "account": ch(BANKS)}
    if kind == "backup-codes":
        return {"service": ch(["Google", "GitHub", "Microsoft", "Dropbox", "Discord"]), "backup_codes": v}
    if kind == "seed-phrase":
        return {"wallet": ch(["MetaMask", "Ledger", "Trust Wallet", "Exodus", "Phantom"]), "recovery_phrase": v}
    if kind == "gift-card-code":
        return {"store": extra["store"], "claim_code": v, "amount": "%d %s" % (ch([10, 25, 50, 100]), ch(["USD", "EUR", "GBP"]))}
    label = kind.replace("-", " ")
    return {"what": label, "code": v, "where": ch(PLACES)}


# ----------------------------------------------------------------------------
# secret / hard: evasion techniques
# ----------------------------------------------------------------------------
FORMATS = parse_formats()
SIMPLE_FORMATS = [f for f in FORMATS if not any(s in f.vars[0][1] for s in ("{pem", "{sajson", "{soljson", "{ppk", "{ovpn", "{dockerauth", "{kubetoken", "{jwt", "{wifipw", "{djsk"))]
TOKEN_FORMATS = [f for f in SIMPLE_FORMATS if "://" not in f.vars[0][1] and "=" not in f.vars[0][1][:-2] and " " not in f.vars[0][1]]
CONN_FORMATS = [f for f in SIMPLE_FORMATS if "://" in f.vars[0][1] and "{dbpw}" in f.vars[0][1]]


class Sec:
    def __init__(self, kind, desc, val, var=None):
        self.kind, self.desc, self.val, self.var = kind, desc, val, var


PW_DESC = {
    "account-password": ["{site} password", "password for {site}", "my {site} login"],
    "email-password": ["gmail password", "work email password", "mail password"],
    "wifi-password": ["wifi password", "wifi pw at {place}", "guest wifi key"],
    "router-admin": ["router admin password", "NAS admin pw"],
    "banking-login": ["online banking password", "{bank} app password"],
}


def tok(maxlen=110):
    while True:
        f = ch(TOKEN_FORMATS)
        v = expand(f.vars[0][1])
        if len(v) <= maxlen:
            return Sec(f.kind, "%s %s" % (f.vendor, f.label), v, f.vars[0][0])


def pwsec(alnum=False):
    kind = ch(list(PW_DESC))
    d = fill_subj(ch(PW_DESC[kind]))
    if alnum:
        v = ch(PW_WORDS).lower() + rs(DIG, ri(2, 4)) if coin() else rs(LOW + DIG, ri(10, 14))
        v = v.replace("ê", "e").replace("â", "a")
    else:
        v = human_pw()
    return Sec(kind, d, v)


def connsec():
    f = ch(CONN_FORMATS)
    return Sec(f.kind, "%s %s" % (f.vendor, f.label), expand(f.vars[0][1]), f.vars[0][0])


def S(maxlen=110):
    r = R.random()
    if r < 0.55:
        return tok(maxlen)
    if r < 0.9 or maxlen < 60:
        return pwsec()
    return connsec()


PIN_KINDS = [("door-code", ["front door code", "door code for {place}", "building code"]),
             ("card-pin", ["debit card PIN", "PIN for the {bank} card", "ATM pin"]),
             ("alarm-code", ["alarm code", "house alarm code", "alarm code at {place}"]),
             ("gate-code", ["gate code", "parking gate code"]),
             ("garage-code", ["garage code"]), ("safe-combination", ["safe code", "hotel safe code"]),
             ("phone-unlock-pin", ["phone passcode", "iPad passcode"]), ("keybox-code", ["key box code at {place}"]),
             ("locker-code", ["gym locker code"]), ("voicemail-pin", ["voicemail PIN"])]


def P(n=None):
    kind, ds = ch(PIN_KINDS)
    n = n or ch([4, 4, 4, 5, 6])
    while True:
        v = rs(DIG, n)
        if len(set(v)) > 1:
            break
    return Sec(kind, fill_subj(ch(ds)), v)


def H(kind, value, key=None, ns3=None, fixed=False, lang="en"):
    return {"kind": kind, "value": value, "key": key, "ns3": ns3, "fixed": fixed, "lang": lang}


TECH = []


def T(name, n=2):
    def deco(fn):
        TECH.append((name, fn, n))
        return fn
    return deco


def lead():
    return ch(["", "", "note: ", "fyi ", "keep: ", "saving this — ", "for later: ", "", "pls store "])


# --- encodings -----------------------------------------------------------------
@T("base64-labelled")
def _():
    s = S()
    return H(s.kind, "%s%s (base64): %s" % (lead(), s.desc, b64s(s.val)))


@T("base64-in-json-blob")
def _():
    s = S()
    return H(s.kind, {"name": s.desc, "encoding": "b64", "blob": b64s(s.val)}, fixed=True)


@T("base64url-unpadded")
def _():
    s = S()
    return H(s.kind, "%s, urlsafe b64 w/o padding -> %s" % (s.desc, b64u(s.val.encode())))


@T("base32")
def _():
    s = S()
    return H(s.kind, "%s [base32] %s" % (s.desc, base64.b32encode(s.val.encode()).decode()))


@T("hex-lowercase")
def _():
    s = S()
    return H(s.kind, "%s as hex: %s" % (s.desc, hexs(s.val)))


@T("hex-uppercase-spaced")
def _():
    s = S()
    return H(s.kind, "%s\n%s" % (s.desc, " ".join(chunk(hexs(s.val).upper(), 2))))


@T("hex-0x-list")
def _():
    s = S()
    return H(s.kind, "%s = [%s]" % (slug(s.desc), ", ".join("0x%02x" % b for b in s.val.encode())))


@T("x-escaped-string")
def _():
    s = S()
    return H(s.kind, '%s: "%s"' % (s.desc, "".join("\\x%02x" % b for b in s.val.encode())))


@T("url-encoded-every-char")
def _():
    s = S()
    return H(s.kind, "%s=%s" % (slug(s.desc), "".join("%%%02X" % b for b in s.val.encode())))


@T("url-encoded-partial")
def _():
    s = S()
    return H(s.kind, "stored %s (urlencoded): %s" % (s.desc, urllib.parse.quote(s.val, safe="")))


@T("rot13-labelled")
def _():
    s = S()
    return H(s.kind, "%s (rot13 so nobody reads it over my shoulder): %s" % (s.desc, rot13(s.val)))


@T("rot13-python-codecs")
def _():
    s = S()
    return H(s.kind, "import codecs\n%s = codecs.decode(%s, 'rot_13')" % (slug(s.desc), json.dumps(rot13(s.val))))


@T("rot47")
def _():
    s = S()
    return H(s.kind, "%s — rot47: %s" % (s.desc, rot47(s.val)))


@T("caesar-shift")
def _():
    s = S()
    k = ri(1, 5)
    return H(s.kind, "%s, every letter shifted forward by %d (shift back to use): %s" % (s.desc, k, caesar(s.val, k)))


@T("atbash")
def _():
    s = S()
    return H(s.kind, "%s written in atbash (a<->z, b<->y…): %s" % (s.desc, atbash(s.val)))


@T("charcodes-python")
def _():
    s = S()
    return H(s.kind, "%s = ''.join(map(chr, %s))" % (slug(s.desc), [ord(c) for c in s.val]))


@T("charcodes-js")
def _():
    s = S()
    return H(s.kind, "const %s = String.fromCharCode(%s);" % (camel(slug(s.desc)), ",".join(str(ord(c)) for c in s.val)))


@T("octal-escapes")
def _():
    s = S()
    return H(s.kind, "printf '%s'   # %s" % ("".join("\\%03o" % b for b in s.val.encode()), s.desc))


@T("binary-bytes")
def _():
    s = S(60)
    return H(s.kind, "%s in binary:\n%s" % (s.desc, " ".join("{:08b}".format(b) for b in s.val.encode())))


@T("unicode-escapes")
def _():
    s = S()
    return H(s.kind, "%s: %s" % (s.desc, "".join("\\u%04x" % ord(c) for c in s.val)))


@T("html-decimal-entities")
def _():
    s = S()
    return H(s.kind, "<span title=\"%s\">%s</span>" % (s.desc, "".join("&#%d;" % ord(c) for c in s.val)))


@T("html-hex-entities")
def _():
    s = S()
    return H(s.kind, "%s → %s" % (s.desc, "".join("&#x%x;" % ord(c) for c in s.val)))


@T("morse-code")
def _():
    s = pwsec(alnum=True) if coin(0.6) else P()
    return H(s.kind, "%s in morse (lowercase): %s" % (s.desc, " ".join(MORSE[c] for c in s.val.lower())))


@T("nato-phonetic")
def _():
    s = pwsec(alnum=True)
    words = []
    for c in s.val:
        if c.isdigit():
            words.append(DIGWORD["en"][int(c)])
        elif c.isalpha():
            words.append(("capital " if c.isupper() else "") + NATO[c.lower()])
    return H(s.kind, "%s spelled out: %s" % (s.desc, " ".join(words)))


@T("base64-double")
def _():
    s = S()
    return H(s.kind, "%s (b64 twice): %s" % (s.desc, b64s(b64s(s.val))))


@T("gzip-base64")
def _():
    s = S()
    blob = base64.b64encode(gzip.compress(s.val.encode(), mtime=0)).decode()
    return H(s.kind, {"label": s.desc, "format": "gzip+base64", "data": blob}, fixed=True)


@T("zlib-base64")
def _():
    s = S()
    return H(s.kind, "%s = zlib.decompress(base64.b64decode(%s)).decode()" % (slug(s.desc), json.dumps(base64.b64encode(zlib.compress(s.val.encode(), 9)).decode())))


@T("base85")
def _():
    s = S()
    return H(s.kind, "%s (b85): %s" % (s.desc, base64.b85encode(s.val.encode()).decode()))


@T("ascii85")
def _():
    s = S()
    return H(s.kind, "%s <~%s~>" % (s.desc, base64.a85encode(s.val.encode()).decode()))


@T("uuencode")
def _():
    s = S(44)
    return H(s.kind, "begin 644 %s.txt\n%s`\nend" % (slug(s.desc), binascii.b2a_uu(s.val.encode()).decode().rstrip("\n")))


@T("data-uri-base64")
def _():
    s = S()
    return H(s.kind, "[%s](data:text/plain;base64,%s)" % (s.desc, b64s(s.val)))


@T("base64-in-xml-attribute")
def _():
    s = S()
    return H(s.kind, '<credential name="%s" encoding="base64" value="%s"/>' % (s.desc, b64s(s.val)))


@T("base64-in-csv")
def _():
    s = S()
    return H(s.kind, "service,encoding,payload\n%s,base64,%s\nnewsletter,none,-" % (s.desc.replace(",", " "), b64s(s.val)))


@T("basic-auth-header-b64")
def _():
    s = pwsec()
    user = ch(FIRST).lower()
    return H(s.kind, "Authorization: Basic %s   <- %s for user %s" % (b64s(user + ":" + s.val), s.desc, user))


@T("cisco-type7")
def _():
    s = pwsec(alnum=True)
    xl = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"
    salt = ri(0, 15)
    enc = "%02d" % salt + "".join("%02X" % (ord(c) ^ ord(xl[(salt + i) % len(xl)])) for i, c in enumerate(s.val))
    return H("router-admin", "interface config backup:\nusername admin privilege 15 password 7 %s\n! type 7 is reversible, this is the router admin pw" % enc)


@T("ldif-base64-userpassword")
def _():
    s = pwsec()
    u = ch(FIRST).lower()
    return H(s.kind, "dn: uid=%s,ou=people,dc=%s,dc=org\nobjectClass: inetOrgPerson\nuid: %s\nuserPassword:: %s" % (u, ch(COMPANY), u, b64s(s.val)))


@T("k8s-secret-data-base64")
def _():
    s = S()
    return H(s.kind, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\ndata:\n  %s: %s" % (s.var or slug(s.desc).upper(), b64s(s.val)))


@T("echo-base64-decode")
def _():
    s = S()
    return H(s.kind, "export %s=$(echo '%s' | base64 -d)" % (s.var or slug(s.desc).upper(), b64s(s.val)))


@T("printf-hex-escapes")
def _():
    s = S()
    return H(s.kind, "%s=\"$(printf '%s')\"" % (s.var or slug(s.desc).upper(), "".join("\\x%02x" % b for b in s.val.encode())))


@T("python-bytes-fromhex")
def _():
    s = S()
    return H(s.kind, "%s = bytes.fromhex(%s).decode()" % (slug(s.desc), json.dumps(hexs(s.val))))


@T("js-atob")
def _():
    s = S()
    return H(s.kind, "const %s = atob('%s');" % (camel(slug(s.desc)), b64s(s.val)))


@T("node-buffer-hex")
def _():
    s = S()
    return H(s.kind, "const key = Buffer.from('%s', 'hex').toString(); // %s" % (hexs(s.val), s.desc))


@T("python-bytes-literal")
def _():
    s = S()
    return H(s.kind, "%s = b'%s'" % (slug(s.desc), "".join("\\x%02x" % b if coin(0.4) else chr(b) for b in s.val.encode()).replace("'", "\\'")))


@T("c-char-array")
def _():
    s = S()
    return H(s.kind, "static const char %s[] = {%s, 0};" % (slug(s.desc), ", ".join("'%s'" % c if c not in "'\\" else "0x%02x" % ord(c) for c in s.val)))


@T("go-byte-slice")
def _():
    s = S()
    return H(s.kind, "var %s = string([]byte{%s})" % (camel(slug(s.desc)), ", ".join(str(b) for b in s.val.encode())))


@T("rust-byte-string")
def _():
    s = S()
    return H(s.kind, "const %s: &[u8] = b\"%s\";" % (slug(s.desc).upper(), "".join("\\x%02x" % b for b in s.val.encode())))


@T("properties-unicode-escapes")
def _():
    s = S()
    return H(s.kind, "%s=%s" % (kebab(s.var or slug(s.desc)).replace("-", "."), "".join("\\u%04X" % ord(c) if c.isalpha() and coin(0.7) else c for c in s.val)))


@T("json-unicode-escaped-string")
def _():
    s = S()
    return H(s.kind, '{"%s": "%s"}' % (slug(s.desc), "".join("\\u%04x" % ord(c) for c in s.val)))


@T("xxd-hexdump")
def _():
    s = S(64)
    b = s.val.encode()
    lines = []
    for off in range(0, len(b), 16):
        seg = b[off:off + 16]
        hx = " ".join(seg[i:i + 2].hex() for i in range(0, len(seg), 2))
        lines.append("%08x: %-39s  %s" % (off, hx, "".join(chr(x) if 32 <= x < 127 else "." for x in seg)))
    return H(s.kind, "$ xxd %s.txt\n" % slug(s.desc) + "\n".join(lines))


@T("od-c-dump")
def _():
    s = S(48)
    b = s.val
    lines = []
    for off in range(0, len(b), 16):
        lines.append("%07o " % off + " ".join("%3s" % c for c in b[off:off + 16]))
    return H(s.kind, "$ od -c %s\n" % slug(s.desc) + "\n".join(lines))


# --- reversal / spacing / interleaving / unicode -------------------------------
@T("reversed-string", 3)
def _():
    s = S()
    return H(s.kind, "%s%s (backwards): %s" % (lead(), s.desc, s.val[::-1]))


@T("reversed-base64")
def _():
    s = S()
    return H(s.kind, "%s: %s  (reverse the string, then b64 decode)" % (s.desc, b64s(s.val)[::-1]))


@T("reversed-hex")
def _():
    s = S(60)
    return H(s.kind, "%s hex reversed: %s" % (s.desc, hexs(s.val)[::-1]))


@T("spaced-characters")
def _():
    s = S()
    return H(s.kind, "%s: %s" % (s.desc, " ".join(s.val)))


@T("one-char-per-line")
def _():
    s = S(40)
    return H(s.kind, s.desc + "\n" + "\n".join(s.val))


@T("zero-width-spaces")
def _():
    s = S()
    return H(s.kind, "%s: %s" % (s.desc, "\u200b".join(s.val)))


@T("soft-hyphens")
def _():
    s = S()
    return H(s.kind, "%s = %s" % (s.desc, "\u00ad".join(chunk(s.val, 3))))


@T("homoglyph-cyrillic", 3)
def _():
    s = S()
    return H(s.kind, "%s: %s" % (s.desc, homoglyph(s.val)))


@T("fullwidth-characters")
def _():
    s = S()
    return H(s.kind, "%s：%s" % (s.desc, fullwidth(s.val)))


@T("math-bold-unicode")
def _():
    s = S()
    return H(s.kind, "%s → %s" % (s.desc, math_bold(s.val)))


@T("swapcase-instruction")
def _():
    s = pwsec()
    return H(s.kind, "%s but with upper/lower case swapped: %s" % (s.desc, s.val.swapcase()))


@T("noise-every-other-char")
def _():
    s = S()
    noise = rs(B62, len(s.val))
    mixed = "".join(a + b for a, b in zip(s.val, noise))
    return H(s.kind, "%s — take every 2nd char starting at the 1st: %s" % (s.desc, mixed))


@T("filler-char-removal")
def _():
    s = S()
    fill = ch([c for c in "~^°§¤" if c not in s.val])
    out = "".join(c + (fill * ri(1, 2) if coin(0.35) else "") for c in s.val)
    return H(s.kind, "%s (delete every %s): %s" % (s.desc, fill, out))


@T("zigzag-two-rows")
def _():
    s = S()
    return H(s.kind, "%s, read zig-zag (top, bottom, top…):\n%s\n%s" % (s.desc, s.val[0::2], s.val[1::2]))


@T("emoji-separated-chars")
def _():
    s = S()
    sep = ch(["🔸", "✨", "🍀", "•"])
    return H(s.kind, "%s %s" % (s.desc, sep.join(s.val)))


@T("index-labelled-shuffled-chars")
def _():
    s = pwsec(alnum=True)
    pairs = shuffled(list(enumerate(s.val, 1)))
    return H(s.kind, "%s, position:char → %s" % (s.desc, " ".join("%d:%s" % p for p in pairs)))


@T("columnar-grid")
def _():
    s = S(48)
    w = ri(4, 6)
    rows = chunk(s.val, w)
    return H(s.kind, "%s (read the grid row by row)\n%s" % (s.desc, "\n".join(" ".join(r) for r in rows)))


@T("vertical-columns-read-down")
def _():
    s = pwsec(alnum=True)
    h = 3
    cols = chunk(s.val, h)
    rows = ["".join(c[i] if i < len(c) else " " for c in cols) for i in range(h)]
    return H(s.kind, "%s – read each column top to bottom, left to right:\n%s" % (s.desc, "\n".join(rows)))


# --- splitting ----------------------------------------------------------------
@T("split-json-fields", 3)
def _():
    s = S()
    parts = split_n(s.val, ri(2, 4))
    d = {"what": s.desc}
    for i, p in enumerate(parts):
        d["part%d" % (i + 1)] = p
    return H(s.kind, d, fixed=True)


@T("split-array-items", 3)
def _():
    s = S()
    parts = split_n(s.val, ri(2, 4))
    return H(s.kind, [s.desc + " (join these):"] + parts, fixed=True)


@T("split-lines-with-prose")
def _():
    s = S()
    a, b = split_n(s.val, 2)[:2] if len(split_n(s.val, 2)) >= 2 else (s.val, "")
    return H(s.kind, "%s starts with %s\n%s\nand the rest is %s" % (s.desc, a, ch(["(weather was awful today)", "— remind me to buy coffee —", "ok where was I", "also call the vet"]), b))


@T("split-reordered-numbered")
def _():
    s = S()
    parts = split_n(s.val, 3)
    idx = shuffled(range(len(parts)))
    return H(s.kind, {"note": "%s in 3 pieces, put them in order 1-2-3" % s.desc, **{str(i + 1): parts[i] for i in idx}}, fixed=True)


@T("split-order-instruction")
def _():
    s = S()
    p = split_n(s.val, 3)
    while len(p) < 3:
        p.append("")
    return H(s.kind, ["B: " + p[1], "C: " + p[2], "A: " + p[0], "%s = A+B+C" % s.desc], fixed=True)


@T("prefix-omitted-with-instruction")
def _():
    f = ch([f for f in TOKEN_FORMATS if len(f.vars[0][1].split("{")[0]) >= 3])
    pre = f.vars[0][1].split("{")[0]
    s = Sec(f.kind, "%s %s" % (f.vendor, f.label), expand(f.vars[0][1]), f.vars[0][0])
    return H(s.kind, "%s (without the %s prefix, add it back): %s" % (s.desc, pre, s.val[len(pre):]))


@T("python-string-concat")
def _():
    s = S()
    parts = split_n(s.val, ri(2, 4))
    return H(s.kind, "%s = %s" % (slug(s.desc), " + ".join(json.dumps(p) for p in parts)))


@T("js-array-join")
def _():
    s = S()
    parts = split_n(s.val, ri(3, 5))
    return H(s.kind, "const k = [%s].join(''); // %s" % (", ".join("'%s'" % p.replace("'", "\\'") for p in parts), s.desc))


@T("js-template-literal")
def _():
    s = S()
    a, b = split_n(s.val, 2)[0], "".join(split_n(s.val, 2)[1:])
    return H(s.kind, "const a = '%s';\nconst b = '%s';\nconst %s = `${a}${b}`;" % (a.replace("'", "\\'"), b.replace("'", "\\'"), camel(slug(s.desc))))


@T("shell-variable-concat")
def _():
    s = S()
    p = split_n(s.val, 3)
    return H(s.kind, "P1='%s'\nP2='%s'\nP3='%s'\nexport %s=\"${P1}${P2}${P3}\"" % tuple((p + ["", ""])[:3] + [s.var or "SECRET"]))


@T("nested-yaml-path-split")
def _():
    s = S()
    p = split_n(s.val, 3)
    p = (p + ["", ""])[:3]
    return H(s.kind, "# %s = a.b + a.c.d + e\na:\n  b: \"%s\"\n  c:\n    d: \"%s\"\ne: \"%s\"" % (s.desc, p[0], p[1], p[2]))


@T("toml-line-continuation")
def _():
    s = S()
    p = split_n(s.val, 2)
    return H(s.kind, '[auth]\n# %s\nvalue = """\\\n    %s\\\n    %s"""' % (s.desc, p[0], "".join(p[1:])))


@T("split-first-last-messages")
def _():
    s = S()
    a, b = s.val[: len(s.val) // 2], s.val[len(s.val) // 2:]
    return H(s.kind, [{"from": "me", "text": "%s first half: %s" % (s.desc, a)}, {"from": "me", "text": "ok unrelated but dinner at 7?"},
                      {"from": "me", "text": "second half %s" % b}], fixed=True)


@T("split-postscript")
def _():
    s = S()
    a, b = s.val[: len(s.val) // 2], s.val[len(s.val) // 2:]
    return H(s.kind, "%s: %s…\n\nSee you Sunday!\n\nP.S. the end of it is …%s" % (s.desc, a, b))


@T("interleaved-two-fields")
def _():
    s = S()
    return H(s.kind, {"even_chars": s.val[0::2], "odd_chars": s.val[1::2], "hint": "interleave even/odd → " + s.desc}, fixed=True)


@T("csv-split-columns")
def _():
    s = S()
    p = split_n(s.val, 3)
    p = (p + ["", ""])[:3]
    return H(s.kind, "id,chunk_a,chunk_b,chunk_c,comment\n1,%s,%s,%s,%s (concat a+b+c)" % (p[0], p[1], p[2], s.desc))


# --- containers: markup, code, tables, logs ----------------------------------
@T("sql-insert")
def _():
    s = S()
    return H(s.kind, "INSERT INTO integrations (name, secret, created_at) VALUES ('%s', '%s', '%s');" % (s.desc.replace("'", ""), s.val.replace("'", "''"), rdate()))


@T("sql-alter-user-password")
def _():
    s = pwsec()
    return H("database-password", "ALTER USER %s WITH PASSWORD '%s';  -- %s" % (ch(["app", "reporting", "etl"]), s.val.replace("'", "''"), ch(["ran on prod", "from migration 042", "tmp"])))


@T("sql-create-user-identified-by")
def _():
    s = pwsec()
    return H("database-password", "2024-%02d-%02dT%s:11.204Z  42 Query  CREATE USER 'svc'@'%%' IDENTIFIED BY '%s'" % (ri(1, 12), ri(1, 28), rtime(), s.val.replace("'", "")))


@T("csv-row-password-column")
def _():
    s = pwsec()
    return H(s.kind, "site,username,password,notes\n%s,%s,%s,%s" % (s.desc.split(" ")[0], ch(FIRST).lower(), s.val, ch(["family acct", "old", "shared w/ Sam"])))


@T("tsv-row")
def _():
    s = S()
    return H(s.kind, "name\tvalue\tupdated\n%s\t%s\t%s" % (s.desc, s.val, rdate()))


@T("markdown-table", 3)
def _():
    s = S()
    rows = [("Wi-Fi SSID", ch(SSIDS)), ("Printer", "HP-%d" % ri(100, 999)), (s.desc, "`%s`" % s.val), ("Router IP", "192.168.%d.1" % ri(0, 2))]
    R.shuffle(rows)
    return H(s.kind, "| item | value |\n|---|---|\n" + "\n".join("| %s | %s |" % r for r in rows))


@T("html-table")
def _():
    s = S()
    return H(s.kind, "<table><tr><th>Service</th><th>Secret</th></tr><tr><td>%s</td><td>%s</td></tr></table>" % (s.desc, s.val))


@T("html-comment")
def _():
    s = S()
    return H(s.kind, "<div class=\"footer\">© %d</div>\n<!-- %s: %s -->" % (ri(2019, 2025), s.desc, s.val))


@T("html-hidden-input")
def _():
    s = S()
    return H(s.kind, '<form action="/sync"><input type="hidden" name="%s" value="%s"><button>Go</button></form>' % (slug(s.desc), s.val.replace('"', "&quot;")))


@T("xml-attribute")
def _():
    s = S()
    return H(s.kind, '<service name="%s" endpoint="https://api.example.net" secret="%s" />' % (s.desc, s.val.replace('"', "&quot;").replace("&", "&amp;")))


@T("xml-cdata")
def _():
    s = S()
    return H(s.kind, "<config><%s><![CDATA[%s]]></%s></config>" % (slug(s.desc), s.val, slug(s.desc)))


@T("svg-metadata")
def _():
    s = S()
    return H(s.kind, '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><desc>%s=%s</desc><path d="M4 4h16v16H4z"/></svg>' % (s.desc, s.val))


@T("latex-comment")
def _():
    s = S()
    return H(s.kind, "\\section{Results}\nWe observe a %d\\%% increase.\n%% %s: %s\n\\end{document}" % (ri(2, 40), s.desc, s.val))


@T("yaml-comment")
def _():
    s = S()
    return H(s.kind, "database:\n  host: db.internal\n  port: 5432\n  # %s (old, still works): %s\n  pool: 10" % (s.desc, s.val))


@T("commented-env-line")
def _():
    s = tok()
    return H(s.kind, "PORT=3000\n#%s=%s\n%s=${%s_NEW}" % (s.var, s.val, s.var, s.var))


@T("code-comment-old-key")
def _():
    s = tok()
    return H(s.kind, "api_key = os.environ[\"%s\"]  # was %s before rotation" % (s.var, s.val))


@T("innocuous-variable-name")
def _():
    s = tok()
    name = ch(["color", "theme_seed", "placeholder_text", "banner_id", "font_hash"])
    return H(s.kind, "%s = \"%s\"  # lol this is actually the %s" % (name, s.val, s.desc))


@T("diff-removed-line")
def _():
    s = tok()
    return H(s.kind, "--- a/.env\n+++ b/.env\n@@ -3,3 +3,3 @@\n LOG_LEVEL=info\n-%s=%s\n+%s=${%s}" % (s.var, s.val, s.var, s.var))


@T("diff-added-line")
def _():
    s = tok()
    return H(s.kind, "diff --git a/config/prod.py b/config/prod.py\n@@ -10,6 +10,7 @@\n DEBUG = False\n+%s = \"%s\"\n ALLOWED_HOSTS = [\"*\"]" % (s.var, s.val))


@T("git-commit-message")
def _():
    s = tok()
    return H(s.kind, "commit %s\nAuthor: %s <%s@%s.com>\n\n    hotfix: hardcode %s for now (%s), revert later" % (rs(HEXL, 40), ch(FIRST), ch(FIRST).lower(), ch(COMPANY), s.desc, s.val))


@T("log-authorization-header")
def _():
    s = tok()
    return H(s.kind, '%sT%s:%02d.%03dZ DEBUG http.client send: b\'GET /v1/me HTTP/1.1\\r\\nHost: api.service.io\\r\\nAuthorization: Bearer %s\\r\\n\'' % (rdate(), rtime(), ri(0, 59), ri(0, 999), s.val))


@T("log-api-key-query-param")
def _():
    s = tok()
    return H(s.kind, '10.0.%d.%d - - [%s] "GET /v2/report?api_key=%s&page=2 HTTP/1.1" 200 %d' % (ri(0, 9), ri(1, 254), rdate(), urllib.parse.quote(s.val, safe=""), ri(200, 9000)))


@T("stacktrace-connection-string")
def _():
    s = connsec()
    return H(s.kind, "Traceback (most recent call last):\n  File \"app/db.py\", line 42, in connect\n    engine = create_engine(url)\nsqlalchemy.exc.OperationalError: could not connect to server: Connection refused\n(Background on this error: url=%s)" % s.val)


@T("python-traceback-locals")
def _():
    s = S()
    return H(s.kind, "  File \"sync.py\", line 88, in push\n    resp.raise_for_status()\nlocals:\n    self = <Client object>\n    %s = %r\n    retries = 3" % (slug(s.desc), s.val))


@T("java-exception-jdbc")
def _():
    s = pwsec()
    return H("database-password", "java.sql.SQLException: Access denied for user 'app'@'10.2.0.7'\n\tat com.mysql.cj.jdbc.ConnectionImpl.<init>\n\tat Main.main(Main.java:17)\nCaused by url: jdbc:mysql://db.prod:3306/shop?user=app&password=%s" % urllib.parse.quote(s.val, safe=""))


@T("conn-string-in-error-message")
def _():
    s = connsec()
    return H(s.kind, "ERROR [worker-3] failed to reach broker %s (timeout after 30s), retrying in 5s" % s.val)


@T("http-dump-cookie")
def _():
    sess = "sessionid=" + rs(LOW + DIG, 32)
    return H("django-session-cookie", "GET /admin/ HTTP/1.1\nHost: shop.%s.com\nCookie: csrftoken=%s; %s\nUser-Agent: Mozilla/5.0" % (ch(COMPANY), rs(B62, 32), sess))


@T("har-entry-cookie")
def _():
    v = rs(B64U, 48)
    return H("github-session-cookie", {"request": {"method": "GET", "url": "https://github.com/settings/profile",
                                                  "cookies": [{"name": "user_session", "value": v}, {"name": "logged_in", "value": "yes"}]},
                                      "response": {"status": 200}}, fixed=True)


@T("set-cookie-header")
def _():
    v = "s%3A" + rs(B64U, 32) + "." + rs(B64U, 43)
    return H("express-session-cookie", "HTTP/1.1 302 Found\nLocation: /dashboard\nSet-Cookie: connect.sid=%s; Path=/; HttpOnly; Secure" % v)


@T("netscape-cookie-jar")
def _():
    v = rs(B64U, 140)
    return H("google-sid-cookie", "# Netscape HTTP Cookie File\n.google.com\tTRUE\t/\tTRUE\t%d\t__Secure-3PSID\tg.a000%s" % (ri(1760000000, 1800000000), v))


@T("curl-basic-auth")
def _():
    s = pwsec()
    return H(s.kind, "curl -u %s:'%s' https://nas.local:5001/webapi/auth.cgi" % (ch(FIRST).lower(), s.val.replace("'", "")))


@T("git-remote-url-token")
def _():
    t = "ghp_" + gh_body()
    return H("github-pat-classic", "[remote \"origin\"]\n\turl = https://%s:%s@github.com/%s/%s.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*" % (ch(FIRST).lower(), t, ch(COMPANY), ch(["api", "infra", "site"])))


@T("docker-login-password-flag")
def _():
    t = "dckr_pat_" + rs(B64U, 27)
    return H("docker-hub-pat", "  512  docker login -u %sbot -p %s\n  513  docker push %s/api:latest" % (ch(COMPANY), t, ch(COMPANY)))


@T("heredoc-env")
def _():
    s = tok()
    return H(s.kind, "cat > .env <<'EOF'\n%s=%s\nDEBUG=0\nEOF" % (s.var, s.val))


@T("dockerfile-arg-default")
def _():
    s = tok()
    return H(s.kind, "FROM python:3.12-slim\nARG %s=%s\nENV %s=${%s}\nCOPY . /app\nCMD [\"python\", \"main.py\"]" % (s.var, s.val, s.var, s.var))


@T("dockerfile-env")
def _():
    s = tok()
    return H(s.kind, "FROM node:20-alpine\nWORKDIR /srv\nENV %s %s\nRUN npm ci\n" % (s.var, s.val))


@T("makefile-variable")
def _():
    s = tok()
    return H(s.kind, "%s ?= %s\n\ndeploy:\n\t./deploy.sh --token $(%s)" % (s.var, s.val, s.var))


@T("kubectl-from-literal")
def _():
    s = S()
    return H(s.kind, "kubectl -n prod create secret generic app --from-literal=%s='%s'" % (s.var or "password", s.val.replace("'", "")))


@T("helm-set-flag")
def _():
    s = pwsec()
    return H("database-password", "helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword='%s' --set auth.database=shop" % s.val.replace("'", ""))


@T("ansible-vars-plaintext")
def _():
    s = pwsec()
    return H(s.kind, "# group_vars/all.yml\nansible_user: deploy\nansible_become_pass: \"%s\"\nntp_server: pool.ntp.org" % s.val)


@T("jupyter-cell")
def _():
    s = tok()
    return H(s.kind, {"cell_type": "code", "execution_count": ri(1, 40), "metadata": {},
                      "source": ["import requests\n", "%s = \"%s\"\n" % (s.var.lower(), s.val), "r = requests.get(URL, headers={'Authorization': f'Bearer {%s}'})" % s.var.lower()],
                      "outputs": []}, fixed=True)


@T("unit-test-fixture")
def _():
    s = tok()
    return H(s.kind, "def test_client_auth():\n    c = Client(api_key=%s)\n    assert c.whoami().ok  # uses the real prod key, careful" % json.dumps(s.val))


@T("python-repl-session")
def _():
    s = tok()
    return H(s.kind, ">>> import os\n>>> os.environ['%s'] = '%s'\n>>> client.ping()\nTrue" % (s.var, s.val))


@T("terminal-echo-transcript")
def _():
    s = pwsec()
    ip = ri(2, 250)
    return H(s.kind, "$ ssh admin@10.0.0.%d\nadmin@10.0.0.%d's password: %s\nPermission denied, please try again." % (ip, ip, s.val))


@T("powershell-securestring-plaintext")
def _():
    s = pwsec()
    return H(s.kind, "$pw = ConvertTo-SecureString '%s' -AsPlainText -Force\n$cred = New-Object PSCredential('CORP\\svc_backup', $pw)" % s.val.replace("'", ""))


@T("net-use-command")
def _():
    s = pwsec()
    return H(s.kind, "net use Z: \\\\fileserver\\share /user:CORP\\%s %s /persistent:yes" % (ch(FIRST).lower(), s.val.replace(" ", "")))


@T("mysql-p-flag")
def _():
    s = pwsec()
    return H("database-password", "mysql -h db.internal -u root -p'%s' -e 'SHOW DATABASES;'" % s.val.replace("'", ""))


@T("sshpass-flag")
def _():
    s = pwsec()
    return H(s.kind, "sshpass -p '%s' rsync -av ./site/ deploy@web01:/var/www/" % s.val.replace("'", ""))


@T("openssl-pass-flag")
def _():
    s = pwsec()
    return H("encryption-passphrase", "openssl enc -aes-256-cbc -pbkdf2 -in taxes.zip -out taxes.enc -k '%s'" % s.val.replace("'", ""))


@T("archive-password-flag")
def _():
    s = pwsec()
    return H("encryption-passphrase", ch(["7z a -p'%s' backup.7z ~/Documents", "zip -P '%s' -r photos.zip Photos/"]) % s.val.replace("'", ""))


@T("gpg-passphrase-flag")
def _():
    s = pwsec()
    return H("encryption-passphrase", "gpg --batch --pinentry-mode loopback --passphrase '%s' -d secrets.gpg" % s.val.replace("'", ""))


@T("netrc-line")
def _():
    s = tok()
    return H(s.kind, "machine api.%s.com login %s password %s" % (ch(COMPANY), ch(FIRST).lower(), s.val))


@T("pgpass-line")
def _():
    s = pwsec()
    return H("database-password", "db.internal:5432:shop:app:%s" % s.val.replace(":", "\\:"))


@T("git-credentials-line")
def _():
    t = ch(["ghp_" + gh_body(), "glpat-" + rs(B64U, 20)])
    return H("github-pat-classic" if t.startswith("ghp") else "gitlab-pat", "https://%s:%s@%s" % (ch(FIRST).lower(), t, "github.com" if t.startswith("ghp") else "gitlab.com"))


@T("npmrc-authtoken")
def _():
    t = "npm_" + gh_body()
    return H("npm-token", "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=%s\nalways-auth=true" % t)


@T("pip-conf-index-url")
def _():
    s = pwsec()
    return H("package-registry-password", "[global]\nindex-url = https://%s:%s@pypi.%s.internal/simple/" % (ch(FIRST).lower(), urllib.parse.quote(s.val, safe=""), ch(COMPANY)))


@T("maven-settings-xml")
def _():
    s = pwsec()
    return H("package-registry-password", "<settings><servers><server><id>nexus-releases</id><username>deployer</username><password>%s</password></server></servers></settings>" % s.val.replace("&", "&amp;").replace("<", "&lt;"))


@T("gradle-properties")
def _():
    s = pwsec()
    return H("android-keystore-password", "org.gradle.jvmargs=-Xmx2g\nRELEASE_STORE_FILE=release.jks\nRELEASE_STORE_PASSWORD=%s\nRELEASE_KEY_ALIAS=upload" % s.val)


@T("json-key-base64-name")
def _():
    s = pwsec()
    return H(s.kind, {b64s("password"): s.val, "site": s.desc.split(" ")[0]}, fixed=True)


@T("key-name-foreign-language")
def _():
    s = pwsec()
    kn = ch(["contraseña", "Passwort", "mot_de_passe", "пароль", "senha", "wachtwoord", "hasło", "parola", "パスワード", "密码", "şifre", "salasana"])
    return H(s.kind, {"usuario" if coin() else "user": ch(FIRST).lower(), kn: s.val}, fixed=True)


@T("key-name-misspelled")
def _():
    s = pwsec()
    kn = ch(["pasword", "passwrd", "pswd", "pwd", "passw", "p4ssword", "psswd", "pw"])
    return H(s.kind, "%s: %s\n%s: %s" % (ch(["login", "usr", "user"]), ch(FIRST).lower(), kn, s.val))


@T("key-name-split-nested")
def _():
    s = pwsec()
    return H(s.kind, {"account": s.desc, "pass": {"word": s.val}}, fixed=True)


@T("double-encoded-json")
def _():
    s = tok()
    inner = json.dumps({s.var: s.val})
    return H(s.kind, json.dumps({"payload": inner, "type": "env"}))


@T("protobuf-text-format")
def _():
    s = tok()
    return H(s.kind, "credentials {\n  provider: \"%s\"\n  secret: \"%s\"\n}" % (s.desc, s.val))


@T("graphql-variables")
def _():
    s = tok()
    return H(s.kind, {"query": "mutation Connect($token: String!) { connectIntegration(token: $token) { id } }", "variables": {"token": s.val}}, fixed=True)


@T("grpcurl-metadata")
def _():
    s = tok()
    return H(s.kind, "grpcurl -H 'authorization: Bearer %s' -d '{\"id\": %d}' api.internal:443 orders.v1.Orders/Get" % (s.val, ri(1, 999)))


@T("websocket-url-token")
def _():
    s = tok()
    return H(s.kind, "wss://stream.%s.io/v1/feed?token=%s&channel=prices" % (ch(COMPANY), urllib.parse.quote(s.val, safe="")))


@T("terraform-state-json")
def _():
    s = pwsec()
    return H("database-password", {"version": 4, "resources": [{"type": "aws_db_instance", "name": "main", "instances": [{"attributes": {"username": "admin", "password": s.val, "engine": "postgres"}}]}]}, fixed=True)


@T("cloudformation-parameters")
def _():
    s = pwsec()
    return H("database-password", [{"ParameterKey": "DBUser", "ParameterValue": "admin"}, {"ParameterKey": "DBPassword", "ParameterValue": s.val}], fixed=True)


@T("gha-with-input-literal")
def _():
    t = "ghp_" + gh_body()
    return H("github-pat-classic", "- uses: peter-evans/create-pull-request@v6\n  with:\n    token: %s\n    branch: bot/update" % t)


@T("nginx-proxy-header")
def _():
    s = tok()
    return H(s.kind, "location /api/ {\n    proxy_pass https://upstream.example.net/;\n    proxy_set_header Authorization \"Bearer %s\";\n}" % s.val)


@T("apache-setenv")
def _():
    s = tok()
    return H(s.kind, "<VirtualHost *:443>\n  ServerName app.local\n  SetEnv %s %s\n</VirtualHost>" % (s.var, s.val))


@T("crontab-line")
def _():
    s = tok()
    return H(s.kind, "*/15 * * * * %s=%s /usr/local/bin/sync-orders >> /var/log/sync.log 2>&1" % (s.var, s.val))


@T("procfile")
def _():
    s = tok()
    return H(s.kind, "web: gunicorn app:app\nworker: %s=%s celery -A tasks worker" % (s.var, s.val))


@T("android-strings-xml")
def _():
    s = tok()
    return H(s.kind, "<resources>\n    <string name=\"app_name\">Shoply</string>\n    <string name=\"%s\">%s</string>\n</resources>" % (s.var.lower(), s.val))


@T("ios-plist")
def _():
    s = tok()
    return H(s.kind, "<dict>\n\t<key>CFBundleName</key>\n\t<string>Shoply</string>\n\t<key>%s</key>\n\t<string>%s</string>\n</dict>" % (s.var, s.val))


@T("postman-environment-export")
def _():
    s = tok()
    return H(s.kind, {"name": "prod", "values": [{"key": "baseUrl", "value": "https://api.%s.com" % ch(COMPANY), "enabled": True},
                                                 {"key": s.var.lower(), "value": s.val, "enabled": True}]}, fixed=True)


@T("browser-password-csv-export")
def _():
    s = pwsec()
    return H(s.kind, "name,url,username,password\n%s,https://%s.com/login,%s,%s" % (s.desc.split(" ")[0], slug(s.desc.split(" ")[0]) or "site", ch(FIRST).lower() + "@" + ch(DOMAINS), s.val))


@T("keepass-xml-entry")
def _():
    s = pwsec()
    return H(s.kind, "<Entry><String><Key>Title</Key><Value>%s</Value></String><String><Key>UserName</Key><Value>%s</Value></String><String><Key>Password</Key><Value>%s</Value></String></Entry>" % (s.desc, ch(FIRST).lower(), s.val.replace("&", "&amp;")))


@T("bitwarden-json-export")
def _():
    s = pwsec()
    return H(s.kind, {"items": [{"type": 1, "name": s.desc, "login": {"username": ch(FIRST).lower() + "@" + ch(DOMAINS), "password": s.val, "totp": None}}]}, fixed=True)


@T("localstorage-dump")
def _():
    s = tok()
    return H(s.kind, "localStorage: {\"theme\":\"dark\",\"auth\":\"{\\\"access_token\\\":\\\"%s\\\",\\\"expires\\\":%d}\"}" % (s.val, ri(1700000000, 1800000000)))


@T("redis-monitor-auth")
def _():
    s = pwsec(alnum=True)
    return H("redis-password", '1718200%d.%d [0 10.0.0.%d:51234] "AUTH" "%s"\n1718200%d.%d [0 10.0.0.5:51234] "GET" "session:42"' % (ri(100, 999), ri(100000, 999999), ri(2, 99), s.val, ri(100, 999), ri(100000, 999999)))


@T("wifi-qr-string")
def _():
    s = pwsec()
    return H("wifi-password", "WIFI:T:WPA;S:%s;P:%s;;" % (ch(SSIDS), s.val.replace(";", "\\;")))


@T("wpa-supplicant-psk")
def _():
    s = pwsec()
    return H("wifi-password", 'network={\n    ssid="%s"\n    psk="%s"\n    key_mgmt=WPA-PSK\n}' % (ch(SSIDS), s.val))


@T("networkmanager-connection")
def _():
    s = pwsec()
    return H("wifi-password", "[connection]\nid=%s\ntype=wifi\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk=%s" % (ch(SSIDS), s.val))


@T("windows-unattend-xml")
def _():
    s = pwsec()
    return H("account-password", "<UserAccounts><AdministratorPassword><Value>%s</Value><PlainText>true</PlainText></AdministratorPassword></UserAccounts>" % s.val.replace("&", "&amp;"))


@T("jenkins-credentials-xml")
def _():
    s = pwsec()
    return H("account-password", "<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <id>deploy</id>\n  <username>deployer</username>\n  <password>%s</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>" % s.val.replace("&", "&amp;"))


@T("ldif-plaintext-userpassword")
def _():
    s = pwsec()
    return H("account-password", "dn: cn=svc-sync,ou=services,dc=%s,dc=com\nuserPassword: %s" % (ch(COMPANY), s.val))


@T("vcard-note")
def _():
    s = P()
    return H(s.kind, "BEGIN:VCARD\nVERSION:3.0\nFN:%s %s\nTEL:+1 555 %03d %04d\nNOTE:%s %s\nEND:VCARD" % (ch(FIRST), ch(LAST), ri(100, 999), ri(0, 9999), s.desc, s.val))


@T("ical-description")
def _():
    s = P()
    return H(s.kind, "BEGIN:VEVENT\nSUMMARY:Cleaner\nDTSTART:%s\nDESCRIPTION:Let her in - %s %s\nEND:VEVENT" % (rdate().replace("-", "") + "T090000", s.desc, s.val))


@T("otpauth-uri")
def _():
    sec = rs(B32, 32)
    return H("totp-seed", "otpauth://totp/%s:%s@%s?secret=%s&issuer=%s&digits=6" % (ch(["GitHub", "AWS", "Okta", "Binance", "Google"]), ch(FIRST).lower(), ch(DOMAINS), sec, ch(["GitHub", "AWS", "Okta"])))


@T("totp-seed-grouped")
def _():
    sec = rs(B32, 32)
    return H("totp-seed", "authenticator setup key (in case I lose my phone): %s" % " ".join(chunk(sec.lower(), 4)))


@T("jwk-private-d")
def _():
    return H("ec-private-key", {"kty": "EC", "crv": "P-256", "x": rs(B64U, 43), "y": rs(B64U, 43), "d": rs(B64U, 43), "use": "sig", "kid": rs(HEXL, 8)}, fixed=True)


@T("aws-pair-split-reversed-secret")
def _():
    ak, sk = "AKIA" + rs(B32, 16), rs(B64, 40)
    return H("aws-access-key-pair", {"id": ak, "s_rev": sk[::-1], "note": "secret is stored reversed"}, fixed=True)


@T("presigned-s3-url")
def _():
    return H("aws-presigned-url", "https://%s-exports.s3.%s.amazonaws.com/dump.sql.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA%s%%2F2025%02d%02d%%2F%s%%2Fs3%%2Faws4_request&X-Amz-Date=20250101T000000Z&X-Amz-Expires=604800&X-Amz-Security-Token=IQoJb3JpZ2luX2Vj%s&X-Amz-SignedHeaders=host&X-Amz-Signature=%s" % (
        ch(COMPANY), ch(AWS_REGIONS), rs(B32, 16), ri(1, 12), ri(1, 28), ch(AWS_REGIONS), rs(B64U, 120), rs(HEXL, 64)))


@T("azure-sas-url-in-markdown")
def _():
    return H("azure-sas-token", "download the backup here: [backup.bak](https://%sstore.blob.core.windows.net/backups/backup.bak?sp=r&st=2025-01-01T00:00:00Z&se=2026-01-01T00:00:00Z&spr=https&sv=2022-11-02&sr=b&sig=%s%%3D)" % (ch(COMPANY), rs(B62, 43)))


@T("slack-webhook-split-host-path")
def _():
    return H("slack-webhook", {"host": "hooks.slack.com", "path": "/services/T%s/B%s/%s" % (rs(UPP + DIG, 10), rs(UPP + DIG, 10), rs(B62, 24)), "method": "POST"}, fixed=True)


@T("discord-webhook-id-token-fields")
def _():
    return H("discord-webhook", {"webhook_id": rs(DIG, 19), "webhook_token": rs(B64U, 68), "base": "https://discord.com/api/webhooks/{id}/{token}"}, fixed=True)


@T("webhook-url-nested-urlencoded")
def _():
    inner = "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(UPP + DIG, 10), rs(UPP + DIG, 10), rs(B62, 24))
    return H("slack-webhook", "https://redirect.%s.com/out?u=%s&src=newsletter" % (ch(COMPANY), urllib.parse.quote(inner, safe="")))


@T("password-in-query-param")
def _():
    s = pwsec()
    return H(s.kind, "http://192.168.1.%d/cgi-bin/login.cgi?user=admin&password=%s" % (ri(1, 254), urllib.parse.quote(s.val, safe="")))


@T("conn-string-urlencoded-password")
def _():
    p = ch(PW_WORDS) + ch("@:/#?%") + rs(DIG, 3) + ch("@:/!")
    return H("postgres-uri", "postgresql://app:%s@db.%s.internal:5432/main" % (urllib.parse.quote(p, safe=""), ch(COMPANY)))


@T("markdown-link-credential-url")
def _():
    s = pwsec(alnum=True)
    return H(s.kind, "[open the NAS](https://%s:%s@nas.home.arpa:5001/)" % (ch(FIRST).lower(), s.val))


@T("markdown-code-block-in-chat")
def _():
    s = tok()
    return H(s.kind, [{"role": "user", "content": "why does this 401?\n```bash\nexport %s=%s\npython bot.py\n```" % (s.var, s.val)},
                      {"role": "assistant", "content": "The token may have expired; check its scopes."}], fixed=True)


@T("markdown-footnote")
def _():
    s = S()
    return H(s.kind, "Deploy checklist done[^1].\n\n[^1]: %s — %s" % (s.desc, s.val))


@T("markdown-image-alt-text")
def _():
    s = S()
    return H(s.kind, "![%s %s](https://imgur.com/%s.png)" % (s.desc, s.val, rs(B62, 7)))


@T("k8s-env-name-value-list")
def _():
    s = tok()
    return H(s.kind, "containers:\n- name: api\n  env:\n  - name: LOG_LEVEL\n    value: info\n  - name: %s\n    value: \"%s\"" % (s.var, s.val))


@T("token-in-file-path")
def _():
    s = tok()
    return H(s.kind, "saved it as /home/%s/Desktop/%s__%s.txt lol" % (ch(FIRST).lower(), slug(s.desc), s.val))


@T("email-subject-line")
def _():
    s = S()
    return H(s.kind, "Subject: %s = %s\nFrom: me\nTo: me\n\n(sent to myself)" % (s.desc, s.val))


@T("email-quoted-reply")
def _():
    s = S()
    return H(s.kind, "Thanks, that worked!\n\nOn %s, %s wrote:\n> here you go\n> %s: %s\n> delete after reading" % (rdate(), ch(FIRST), s.desc, s.val))


@T("forwarded-message")
def _():
    s = S()
    return H(s.kind, "---------- Forwarded message ---------\nFrom: IT Helpdesk <it@%s.com>\nSubject: your access\n\nTemporary %s: %s\nPlease change it at first login." % (ch(COMPANY), s.desc, s.val))


@T("screenshot-ocr-transcript")
def _():
    s = tok()
    return H(s.kind, "[OCR of screenshot]\nAPI keys\nName   Created   Key\n%s  %s  %s  Copy  Revoke" % (ch(["prod", "ci", "default"]), rdate(), s.val))


@T("voice-transcript-spelled")
def _():
    s = pwsec(alnum=True)
    words = []
    for c in s.val:
        if c.isdigit():
            words.append(DIGWORD["en"][int(c)])
        elif c.isupper():
            words.append("capital " + c)
        else:
            words.append(c)
    return H(s.kind, "[transcribed voice note] ok the %s is, %s, got it?" % (s.desc, ", ".join(words)))


@T("spelled-punctuation-words")
def _():
    s = tok()
    out = s.val.replace("_", " underscore ").replace("-", " dash ").replace(".", " dot ")
    return H(s.kind, "%s: %s" % (s.desc, out))


@T("hidden-in-long-ramble")
def _():
    s = S()
    filler = ["So today was long.", "Traffic on the ring road again, 40 minutes.", "Lunch with Jo was nice, she's moving to Porto.",
              "Need to book the vet for the cat.", "Also the boiler guy comes Thursday.", "Watched half of that documentary.",
              "Remember to water the basil.", "The kids want pancakes Saturday."]
    parts = sample(filler, 5)
    parts.insert(ri(1, 4), "Oh and (%s %s)" % (s.desc, s.val))
    return H(s.kind, " ".join(parts))


@T("padding-blank-lines")
def _():
    s = S()
    return H(s.kind, "grocery list: oats, apples, coffee" + "\n" * ri(8, 20) + s.desc + " " + s.val)


@T("trailing-tab-separated")
def _():
    s = S()
    return H(s.kind, "todo: renew passport\t\t\t\t%s\t%s" % (s.desc, s.val))


@T("password-hint-is-password")
def _():
    s = pwsec()
    return H(s.kind, "%s hint: it's literally %s" % (s.desc, s.val))


@T("fake-redaction")
def _():
    s = S()
    return H(s.kind, "%s: [REDACTED] … jk, it's %s" % (s.desc, s.val))


@T("sms-otp-forward")
def _():
    code = rs(DIG, 6)
    return H("one-time-code", "Fwd: %s: Your verification code is %s. It expires in 10 minutes. Don't share it." % (ch(["Chase", "Google", "PayPal", "Revolut", "Microsoft"]), code))


@T("sms-otp-foreign-language")
def _():
    code = rs(DIG, 6)
    lang, txt = ch([("de", "Ihr Bestätigungscode lautet %s. Geben Sie ihn niemals weiter."), ("fr", "Votre code de vérification est %s. Ne le communiquez à personne."),
                    ("es", "Tu código de verificación es %s. No lo compartas."), ("pt", "Seu código de verificação é %s. Não compartilhe."),
                    ("it", "Il tuo codice di verifica è %s. Non condividerlo."), ("nl", "Je verificatiecode is %s. Deel deze niet.")])
    return H("one-time-code", "SMS copy: " + txt % code, lang=lang)


@T("otp-in-html-email")
def _():
    code = rs(DIG, 6)
    return H("one-time-code", "<table><tr><td style=\"font-size:28px;letter-spacing:6px\"><b>%s</b></td></tr><tr><td>Enter this code to sign in to %s.</td></tr></table>" % (code, ch(["Slack", "Notion", "Steam", "Epic Games"])))


@T("card-number-in-receipt-full")
def _():
    b, n = card_number()
    return H("payment-card", "RECEIPT #%d\nCoffee x2   8.40\nTOTAL      8.40\n%s %s  EXP %s\n(printed full number, keep for expense report)" % (ri(1000, 9999), b.upper(), n, card_exp()))


# --- cards / seeds / keys ------------------------------------------------------
@T("card-digit-words")
def _():
    b, n = card_number()
    return H("payment-card", "%s card: %s, exp %s" % (b, spell_digits(n, "en", "-"), card_exp()))


@T("card-split-four-fields")
def _():
    b, n = card_number("Visa") if coin() else card_number("Mastercard")
    g = chunk(n, 4)
    return H("payment-card", {"a": g[0], "b": g[1], "c": g[2], "d": g[3], "exp": card_exp(), "cvc": cvv(), "note": "card for groceries"}, fixed=True)


@T("card-reversed")
def _():
    b, n = card_number()
    return H("payment-card", "%s (digits reversed): %s / %s / %s" % (b, n[::-1], card_exp(), cvv(4 if b == "Amex" else 3)))


@T("card-dotted-groups")
def _():
    b, n = card_number()
    return H("payment-card", "card %s · exp %s · cvv %s" % (fmt_card(n, "."), card_exp(), cvv()))


@T("card-compact-pipe-string")
def _():
    b, n = card_number()
    return H("payment-card", "%s|%s|%s|%s %s" % (n, card_exp().replace("/", ""), cvv(), ch(FIRST).upper(), ch(LAST).upper()))


@T("card-lines-labelled-parts")
def _():
    b, n = card_number()
    g = chunk(n, 4)
    return H("payment-card", ["part 1: " + g[0], "part 2: " + g[1], "part 3: " + g[2], "part 4: " + "".join(g[3:]), "valid to " + card_exp()], fixed=True)


@T("giftcard-lowercase-nodashes")
def _():
    st, c = gift_code()
    return H("gift-card-code", "%s gift card claim code %s (for Mia's birthday, unused)" % (st, c.replace("-", "").lower()))


@T("giftcard-split-lines")
def _():
    st, c = gift_code()
    p = split_n(c.replace("-", ""), 3)
    return H("gift-card-code", "%s card from grandma, scratched off:\n%s" % (st, "\n".join(p)))


@T("backup-codes-grid")
def _():
    codes = [rs(DIG, 4) + " " + rs(DIG, 4) for _ in range(10)]
    rows = ["| %s | %s |" % (codes[i], codes[i + 1]) for i in range(0, 10, 2)]
    return H("backup-codes", "%s backup codes\n| | |\n|---|---|\n" % ch(["Google", "GitHub", "Proton"]) + "\n".join(rows))


@T("seed-numbered-shuffled-lines")
def _():
    w = seed_phrase(12).split()
    items = shuffled(list(enumerate(w, 1)))
    return H("seed-phrase", ["%d) %s" % (i, x) for i, x in items] + ["(metamask, put in order)"], fixed=True)


@T("seed-markdown-table")
def _():
    w = seed_phrase(12).split()
    rows = ["| %d | %s | %d | %s |" % (i + 1, w[i], i + 7, w[i + 6]) for i in range(6)]
    return H("seed-phrase", "Ledger words\n| # | word | # | word |\n|---|---|---|---|\n" + "\n".join(rows))


@T("seed-four-letter-prefixes")
def _():
    w = [x for x in BIP_WORDS if len(x) >= 4]
    words = [ch(w) for _ in range(12)]
    return H("seed-phrase", "wallet backup (first 4 letters of each word, that's enough for bip39): %s" % " ".join(x[:4].upper() for x in words))


@T("seed-json-numbered-object")
def _():
    w = seed_phrase(24).split()
    return H("seed-phrase", {"wallet": "cold storage", "words": {str(i + 1): x for i, x in enumerate(w)}}, fixed=True)


@T("seed-two-fields")
def _():
    w = seed_phrase(12).split()
    return H("seed-phrase", {"first_six": " ".join(w[:6]), "last_six": " ".join(w[6:]), "what": "recovery phrase (trust wallet)"}, fixed=True)


@T("seed-camelcase-joined")
def _():
    w = seed_phrase(12).split()
    return H("seed-phrase", "seed: " + "".join(x.capitalize() for x in w))


@T("seed-reversed-word-order")
def _():
    w = seed_phrase(12).split()
    return H("seed-phrase", "phantom wallet words, LAST to FIRST: %s" % " ".join(reversed(w)))


@T("seed-hidden-in-sentence")
def _():
    w = seed_phrase(12).split()
    return H("seed-phrase", "the capitalised words are my recovery phrase in order: " + " ".join("%s the %s" % (ch(["saw", "and", "with", "near", "then"]), x.upper()) for x in w))


@T("private-key-hex-grouped")
def _():
    k = rs(HEXL, 64)
    return H("ethereum-private-key", "old metamask acct private key\n" + " ".join(chunk(k, 4)))


@T("private-key-split-halves")
def _():
    k = rs(HEXL, 64)
    return H("ethereum-private-key", {"wallet": "0x" + rs(HEXL, 40), "pk_a": k[:32], "pk_b": k[32:]}, fixed=True)


@T("pem-headers-stripped")
def _():
    body = pem_openssh().split("\n")[1:-1]
    return H("openssh-ed25519-key", "ssh key for the pi (I removed the BEGIN/END lines):\n" + "\n".join(body))


@T("pem-json-escaped-newlines")
def _():
    return H("rsa-private-key-pkcs1", json.dumps({"name": "deploy", "key": pem_rsa_pkcs1()}))


@T("pem-single-line-spaces")
def _():
    return H("pkcs8-private-key", pem_pkcs8().replace("\n", " "))


@T("pem-base64-wrapped")
def _():
    return H("ec-private-key", "TLS_KEY_B64=%s" % b64s(pem_ec()))


# --- digits, riddles, common knowledge ----------------------------------------
for _lang in ["en", "de", "fr", "es", "it", "pl", "ja", "zh", "ru", "nl", "pt", "tr"]:
    def _mk(lang):
        def fn():
            s = P()
            sep = "" if lang in ("ja", "zh") else ch([" ", "-", ", "])
            return H(s.kind, "%s: %s" % (s.desc, spell_digits(s.val, lang, sep)), lang=lang)
        return fn
    T("spelled-digits-%s" % _lang, 2)(_mk(_lang))


@T("keycap-emoji-digits")
def _():
    s = P()
    return H(s.kind, "%s %s" % (s.desc, "".join(KEYCAP[int(c)] for c in s.val)))


@T("roman-numeral-digits")
def _():
    s = P()
    return H(s.kind, "%s in roman numerals, one per digit: %s" % (s.desc, "-".join(ROMAN[int(c)] for c in s.val)))


HIST = [("the year of the moon landing", "1969"), ("the year the Berlin Wall fell", "1989"), ("the year the Titanic sank", "1912"),
        ("the year WW2 ended", "1945"), ("the year of the French Revolution", "1789"), ("the year Columbus reached the Americas", "1492"),
        ("the year the US declared independence", "1776"), ("the Chernobyl year", "1986"), ("the year the first iPhone came out", "2007"),
        ("the year the Magna Carta was sealed", "1215"), ("the year of the Battle of Hastings", "1066"), ("the year euro cash was introduced", "2002")]


@T("riddle-historic-year", 3)
def _():
    s = P(4)
    (d1, y1), (d2, y2) = sample(HIST, 2)
    if coin():
        return H(s.kind, "%s = %s (easy to remember)" % (s.desc, d1))
    return H(s.kind, "%s is %s followed by the last two digits of %s" % (s.desc, d1, d2))


@T("riddle-math-constants")
def _():
    s = P()
    d, v = ch([("the first four digits of pi", "3141"), ("the first 4 decimals of pi", "1415"), ("the first six digits of pi", "314159"),
               ("e to four digits", "2718"), ("sqrt(2) to 4 digits", "1414"), ("the golden ratio to four digits", "1618")])
    return H(s.kind, "%s: %s" % (s.desc, d))


@T("riddle-atomic-numbers")
def _():
    s = P()
    els = [("gold", 79), ("silver", 47), ("iron", 26), ("copper", 29), ("neon", 10), ("zinc", 30), ("tin", 50), ("lead", 82), ("oxygen", 8)]
    a, b = sample(els, 2)
    return H(s.kind, "%s = atomic number of %s then atomic number of %s" % (s.desc, a[0], b[0]))


@T("arithmetic-expression")
def _():
    s = P()
    a = ri(11, 97)
    b = ri(11, 97)
    return H(s.kind, "%s is %d × %d (do the math)" % (s.desc, a, b))


@T("arithmetic-sum")
def _():
    s = P(4)
    t = int(s.val)
    a = ri(100, t - 1) if t > 200 else ri(0, t)
    return H(s.kind, "%s = %d + %d" % (s.desc, a, t - a))


@T("digit-description")
def _():
    s = P(4)
    v = s.val
    ords = ["first", "second", "third", "fourth"]
    return H(s.kind, "%s: %s" % (s.desc, ", ".join("the %s digit is %s" % (ords[i], DIGWORD["en"][int(c)]) for i, c in enumerate(v))))


@T("phone-keypad-word")
def _():
    keypad = {"a": 2, "b": 2, "c": 2, "d": 3, "e": 3, "f": 3, "g": 4, "h": 4, "i": 4, "j": 5, "k": 5, "l": 5, "m": 6, "n": 6, "o": 6,
              "p": 7, "q": 7, "r": 7, "s": 7, "t": 8, "u": 8, "v": 8, "w": 9, "x": 9, "y": 9, "z": 9}
    w = ch(["cake", "love", "bear", "moon", "fish", "home", "rose", "star", "jazz", "wolf", "kiwi", "taco"])
    kind, ds = ch(PIN_KINDS[:4])
    return H(kind, "%s: spells %s on a phone keypad" % (fill_subj(ch(ds)), w.upper()))


@T("keyboard-shift-symbols")
def _():
    s = P(4)
    shift = dict(zip("1234567890", "!@#$%^&*()"))
    return H(s.kind, "%s typed with shift held (US keyboard): %s" % (s.desc, "".join(shift[c] for c in s.val)))


@T("date-derived-code")
def _():
    d, m = ri(1, 28), ri(1, 12)
    mn = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][m - 1]
    return H("alarm-code", "%s's birthday is %d %s. The alarm code is that birthday as DDMM." % (ch(["Mum", "Grandpa", "Leo", "Aunt Bea"]), d, mn))


@T("date-literal-code")
def _():
    d, m = ri(1, 28), ri(1, 12)
    return H("door-code", "door code = the date %02d/%02d without the slash" % (d, m))


@T("digit-shift-plus-one")
def _():
    s = P()
    enc = "".join(str((int(c) + 1) % 10) for c in s.val)
    return H(s.kind, "%s (each digit +1, subtract to use): %s" % (s.desc, enc))


@T("hex-of-pin")
def _():
    s = P()
    return H(s.kind, "%s in hex: 0x%X" % (s.desc, int(s.val)) if s.val[0] != "0" else "%s ascii-hex: %s" % (s.desc, hexs(s.val)))


@T("binary-of-pin")
def _():
    s = P(4)
    return H(s.kind, "%s as binary digits: %s" % (s.desc, " ".join("{:04b}".format(int(c)) for c in s.val)))


@T("octal-number-pin")
def _():
    s = P(4)
    if s.val[0] == "0":
        s.val = "1" + s.val[1:]
    return H(s.kind, "%s written in octal: %o" % (s.desc, int(s.val)))


@T("mnemonic-sentence-password")
def _():
    sent = ch(["My dog Rex ate 2 socks in 2019!", "We moved to Lyon on 3 May 2016.", "I love Tacos and Rain 4 ever?",
               "Our 1st flat had 7 cold Rooms!", "Grandma baked 12 Pies every Sunday."])
    return H("account-password", "new %s password = first letter of each word (keep digits & punctuation) of: \"%s\"" % (ch(SITES), sent))


@T("acrostic-lines")
def _():
    w = ch(PW_WORDS).lower()
    w = "".join(c for c in w if c.isalpha())[:8]
    lines = [ch([x for x in ["apples", "bread", "cereal", "dates", "eggs", "flour", "grapes", "honey", "ice", "jam", "kale", "lemons", "milk",
                             "nuts", "oats", "pears", "quinoa", "rice", "salt", "tea", "udon", "vinegar", "water", "yogurt", "zucchini"] if x[0] == c] or [c + "…"]) for c in w]
    return H("wifi-password", "shopping list (first letters = wifi pw, then %s):\n%s" % (rs(DIG, 2), "\n".join(lines)))


@T("riddle-pop-culture-password")
def _():
    d, v = ch([("the Beatles album with the zebra crossing, no spaces", "AbbeyRoad"), ("Sherlock's street address, no spaces", "221BBakerStreet"),
               ("the name of Harry Potter's owl", "Hedwig"), ("the ship in Moby-Dick", "Pequod"), ("Frodo's gardener's first name", "Samwise")])
    return H("wifi-password", "wifi password is %s, followed by %s" % (d, rs(DIG, 4)))


@T("security-answer-riddle")
def _():
    d = ch(["the dog's name in Peter Pan", "the capital of Australia", "Don Quixote's horse", "the street the Simpsons live on"])
    return H("security-answer", "%s security question (first pet): answer is %s, one word" % (ch(BANKS), d))


@T("combined-parts-record")
def _():
    pre = ri(10, 99)
    suf = ch(PETS)
    return H("account-password", {"pet": suf, "lucky_number": pre, "hint": "%s password = pet name + lucky number + '!'" % ch(SITES)}, fixed=True)


@T("grocery-list-hidden-item")
def _():
    s = pwsec()
    items = ["bananas", "oat milk", "dish soap", s.val, "bread", "coffee filters"]
    pos = 3
    return H(s.kind, ["shopping"] + ["%d. %s" % (i + 1, x) for i, x in enumerate(items)] + ["(#%d isn't food, it's the %s)" % (pos + 1, s.desc)], fixed=True)


# --- key / namespace dependent (about 1-2 %) ------------------------------------
@T("key-hex-second-half", 3)
def _():
    s = pwsec()
    v = s.val
    while len(v.encode()) < 10:
        v += rs(DIG, 2)
    cut = max(len(v) - 12, len(v) // 2)
    a, b = v[:cut], v[cut:]
    while len(hexs(b)) > 32:
        a, b = a + b[0], b[1:]
    return H(s.kind, "%s starts %s… (rest is in the key)" % (s.desc, a), key="mem_" + hexs(b))


@T("key-hex-pin", 2)
def _():
    s = P(4)
    return H(s.kind, "%s — I put it in this memory's key (hex)." % s.desc, key="mem_" + hexs(s.val))


@T("namespace-names-field", 3)
def _():
    s = pwsec() if coin(0.6) else P()
    return H(s.kind, s.val, ns3=slug(s.desc)[:40])


@T("namespace-and-value-split", 1)
def _():
    s = pwsec()
    v = s.val
    return H(s.kind, {"part": v[len(v) // 2:], "see": "namespace"}, ns3="%s_first_half_%s" % (slug(s.desc)[:20], v[:len(v) // 2]), fixed=True)


# ----------------------------------------------------------------------------
# benign / plain: ordinary memories
# ----------------------------------------------------------------------------
MEDS = ["metformin", "lisinopril", "ibuprofen", "vitamin D", "levothyroxine", "amoxicillin", "omeprazole", "sertraline", "cetirizine"]
FOODS = ["lasagna", "pho", "shakshuka", "pierogi", "tacos", "ramen", "paella", "dal", "risotto", "bibimbap", "moussaka"]
AIRLINES = ["LH", "BA", "AF", "KL", "UA", "DL", "TK", "QR", "EK", "IB", "SK", "AY", "NH"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def F(t):
    """fill an ordinary template"""
    return t.format(
        name=ch(FIRST), name2=ch(FIRST), last=ch(LAST), city=ch(CITIES), day=ch(WEEKDAYS), time=rtime(), date=rdate(),
        med=ch(MEDS), dose=ch([5, 10, 20, 25, 50, 100, 200, 400, 500]), n=ri(2, 12), n2=ri(10, 99), n3=ri(100, 999),
        amt="%d.%02d" % (ri(5, 2500), ri(0, 99)), cur=ch(["€", "$", "£", "CHF ", "kr "]), food=ch(FOODS), pet=ch(PETS),
        airline=ch(AIRLINES), fl=ri(100, 9999), gate=ch("ABCDEFG") + str(ri(1, 60)), co=ch(COMPANY), street=ch(STREETS),
        sys=ri(105, 150), dia=ri(65, 95), pulse=ri(52, 95), a1c="%.1f" % (R.uniform(4.8, 7.9)), kg="%.1f" % R.uniform(50, 110),
        proj=ch(["billing revamp", "mobile app", "Q3 report", "data migration", "onboarding flow", "search service", "pricing page"]),
        km=ri(3, 42), miles=ri(10000, 150000), temp=ri(-5, 35), floor=ri(1, 12), site=ch(SITES), store=ch(["IKEA", "Lidl", "Target", "Decathlon", "Costco", "Rewe"]), shoe=ri(24, 46))


ORD_TEXT = {
    "health": ["Dr. {last} appointment {day} at {time}, bring the glucose log", "took {med} {dose}mg at {time}, slight headache after",
               "BP this morning {sys}/{dia}, pulse {pulse}", "A1c came back at {a1c}% — doctor happy, recheck in 6 months",
               "allergic to penicillin (hives) — tell the new dentist", "physio exercises: 3x{n} squats, 2x{n2}s plank, daily",
               "weight {kg} kg today, down a bit since {date}", "{name}'s vaccination booklet is in the blue folder, next shot due {date}",
               "ran {km} km along the river, knee felt fine", "dermatologist said the mole is benign, check again next year",
               "need to refill {med} before {day}", "sleep tracker: 6h{n2}m, woke up twice"],
    "family": ["{name}'s soccer practice moved to {day}s at {time}", "Mom's birthday is on {date} — order flowers from the shop on {street}",
               "{name} is allergic to peanuts, tell the party host", "grandpa likes {food} and hates cilantro",
               "school pickup rota: me Mon/Wed, {name} Tue/Thu, Fri whoever", "{name2} lost a tooth today!! tooth fairy owes {cur}2",
               "parents' evening {day} {time}, room {n3}", "{pet} goes to the vet {day} for the yearly check",
               "{name} wants a dinosaur cake for the {n}th birthday", "call Aunt {name2} back about the reunion in {city}"],
    "travel": ["flight {airline}{fl} departs {time} from gate {gate}", "hotel in {city} — check-in after 15:00, breakfast included",
               "rental car pickup at {city} airport, terminal {n}", "train to {city} leaves {time} from platform {n}",
               "pack: adapters, sunscreen, {name}'s inhaler, the good umbrella", "visa appointment {date} at {time}, bring 2 photos",
               "museum in {city} is closed on {day}s", "the ferry takes {n2} minutes, last one back at 22:10",
               "currency: about {cur}{n3} cash for the first days", "layover in {city} is {n}h {n2}m"],
    "work": ["standup moved to 9:30 from next {day}", "{proj} deck due {date}, ask {name} for the numbers",
             "1:1 with {name} {day} at {time}", "remind {name2} about the {proj} retro", "expense report for the {city} trip: {cur}{amt}",
             "OKR draft: ship {proj} by end of quarter, reduce p95 latency by {n2}%", "{co} offsite {date} in {city}",
             "interview panel for the backend role {day} {time}", "prod freeze from {date} until after the release",
             "the {proj} postmortem is in the shared drive under /incidents"],
    "shopping": ["groceries: oat milk, {n} eggs, spinach, {food} ingredients", "return the shoes to {store} before {date}",
                 "buy a birthday gift for {name} (budget {cur}{n2})", "{store} list: shelf brackets, {n} light bulbs (E27), doormat",
                 "compare vacuum cleaners, the one at {store} is {cur}{n3}", "need printer paper and AA batteries",
                 "order {name}'s school shoes, size {shoe}"],
    "finance": ["rent {cur}{amt} due on the 1st", "paid the electricity bill ({cur}{amt}) on {date}",
                "budget: groceries {cur}{n3}/month, eating out {cur}{n2}", "tax return deadline {date}, receipts in the drawer",
                "car insurance renews {date}, current premium {cur}{amt}", "moved {cur}{n3} to the holiday savings pot",
                "split dinner with {name}: I owe {cur}{n2}", "subscription audit: cancel the magazine, keep {site}"],
    "home": ["furnace filter size 16x25x1, change every 3 months", "plumber coming {day} between {time} and noon",
             "paint color for the hallway: 'Warm Linen' by the hardware store", "water the tomatoes every 2 days while {name} is away",
             "bin day is {day}, recycling every other week", "the boiler pressure should be about 1.5 bar",
             "wifi router restarts itself at 4am (scheduled)", "smoke alarm batteries replaced {date}"],
    "hobby": ["chess: try the Sicilian next time, {name} keeps playing e4", "knitting pattern needs {n} skeins of the grey wool",
              "book club picks '{food} & Tears' for next month (lol not really)", "guitar: practice barre chords {n2} min a day",
              "sourdough: 75% hydration, bulk ferment {n}h at {temp}°C", "garden: plant garlic in October, {n} rows",
              "photography walk in {city} on {day}, bring the 35mm lens"],
    "car": ["oil change at {miles} km", "tyre pressure 2.{n} bar front, 2.{n} rear", "car service booked {date} at {time}",
            "parking permit zone {n}, renew in {date}", "winter tyres are stored at the garage on {street}"],
}


def ord_text(topic=None):
    topic = topic or ch(list(ORD_TEXT))
    return topic, F(ch(ORD_TEXT[topic]))


# code / config snippets without secrets
def snip_env():
    keys = sample(["PORT=%d" % ch([3000, 8000, 8080]), "NODE_ENV=%s" % ch(["production", "development"]), "LOG_LEVEL=%s" % ch(["info", "debug", "warn"]),
                   "DATABASE_HOST=%s" % ch(["localhost", "db", "postgres"]), "DATABASE_PORT=5432", "REDIS_HOST=redis", "TZ=Europe/Berlin",
                   "FEATURE_DARK_MODE=true", "MAX_WORKERS=%d" % ri(2, 16), "CACHE_TTL_SECONDS=%d" % ri(30, 3600), "PUBLIC_BASE_URL=https://%s.com" % ch(COMPANY),
                   "S3_BUCKET=%s-assets" % ch(COMPANY), "AWS_REGION=%s" % ch(AWS_REGIONS), "SMTP_HOST=smtp.%s.com" % ch(COMPANY), "SMTP_PORT=587",
                   "SENTRY_ENVIRONMENT=staging", "RATE_LIMIT_PER_MIN=%d" % ri(30, 600), "DEFAULT_LOCALE=en-GB"], ri(3, 7))
    return "env-file", "\n".join(keys)


def snip_yaml():
    return "yaml", ch([
        "logging:\n  level: %s\n  format: json\n  handlers:\n    - console\n    - file" % ch(["INFO", "DEBUG", "WARNING"]),
        "server:\n  host: 0.0.0.0\n  port: %d\n  read_timeout: %ds\ndatabase:\n  host: db.internal\n  port: 5432\n  name: %s\n  pool_size: %d" % (ch([8080, 9000]), ri(5, 60), ch(COMPANY), ri(5, 30)),
        "feature_flags:\n  new_checkout: %s\n  beta_search: %s\n  max_items: %d" % (ch(["true", "false"]), ch(["true", "false"]), ri(10, 200)),
        "schedule:\n  - cron: \"0 %d * * *\"\n    job: nightly-report\n  - cron: \"*/15 * * * *\"\n    job: sync-inventory" % ri(0, 6),
    ])


def snip_json():
    return "json-config", ch([
        {"compilerOptions": {"target": "ES2022", "module": "ESNext", "strict": True, "outDir": "dist"}, "include": ["src"]},
        {"name": "%s-web" % ch(COMPANY), "version": "%d.%d.%d" % (ri(0, 4), ri(0, 20), ri(0, 30)), "scripts": {"dev": "vite", "build": "vite build", "test": "vitest"}},
        {"theme": ch(["dark", "light", "system"]), "fontSize": ri(11, 18), "autosave": True, "recentFiles": ["notes.md", "todo.txt"]},
        {"retry": {"max_attempts": ri(2, 6), "backoff_ms": ri(100, 2000)}, "timeouts": {"connect": 5, "read": 30}},
    ])


def snip_python():
    return "code-python", ch([
        "def median(xs):\n    xs = sorted(xs)\n    n = len(xs)\n    mid = n // 2\n    return xs[mid] if n % 2 else (xs[mid - 1] + xs[mid]) / 2",
        "import csv\n\nwith open('expenses.csv') as f:\n    total = sum(float(r['amount']) for r in csv.DictReader(f))\nprint(f'total: {total:.2f}')",
        "from dataclasses import dataclass\n\n@dataclass\nclass Book:\n    title: str\n    author: str\n    pages: int = 0",
        "for i in range(1, %d):\n    print('Fizz' * (i %% 3 == 0) + 'Buzz' * (i %% 5 == 0) or i)" % ri(16, 101),
        "resp = requests.get('https://api.open-meteo.com/v1/forecast', params={'latitude': %.2f, 'longitude': %.2f, 'hourly': 'temperature_2m'})" % (R.uniform(-50, 60), R.uniform(-120, 120)),
    ])


def snip_js():
    return "code-js", ch([
        "const debounce = (fn, ms) => {\n  let t;\n  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };\n};",
        "export function formatPrice(cents, currency = 'EUR') {\n  return new Intl.NumberFormat('de-DE', { style: 'currency', currency }).format(cents / 100);\n}",
        "app.get('/health', (req, res) => res.json({ ok: true, uptime: process.uptime() }));",
        "const sorted = [...items].sort((a, b) => a.date.localeCompare(b.date));",
        "const total = cart.reduce((s, i) => s + i.price * i.qty, 0).toFixed(%d);" % ri(0, 2),
        "document.querySelector('#%s').addEventListener('click', () => toggle('%s'));" % (ch(["menu", "theme", "save"]), ch(["open", "dark", "busy"])),
    ])


def snip_go():
    return "code-go", ch([
        "func Sum(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn\n}",
        "type Point struct{ X, Y float64 }\n\nfunc (p Point) Dist() float64 { return math.Hypot(p.X, p.Y) }",
        "if err := db.PingContext(ctx); err != nil {\n\tlog.Fatalf(\"db down: %v\", err)\n}",
        "ctx, cancel := context.WithTimeout(context.Background(), %d*time.Second)\ndefer cancel()" % ri(2, 30),
        "http.HandleFunc(\"/ping\", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, \"pong\") })",
    ])


def snip_shell():
    n0 = ri(100, 2000)
    cmds = sample(["git status", "git pull --rebase", "ls -la", "docker compose up -d", "npm run test", "cd ~/projects/%s" % ch(COMPANY),
                   "python -m venv .venv", "source .venv/bin/activate", "pip install -r requirements.txt", "kubectl get pods -n staging",
                   "terraform plan", "htop", "du -sh *", "brew upgrade", "make build", "ssh pi@raspberrypi.local"], ri(3, 6))
    return "shell-history", "\n".join("%5d  %s" % (n0 + i, c) for i, c in enumerate(cmds))


def snip_compose():
    return "docker-compose", "services:\n  web:\n    image: nginx:%s\n    ports:\n      - \"%d:80\"\n  cache:\n    image: redis:7-alpine\n    command: [\"redis-server\", \"--maxmemory\", \"%dmb\"]" % (ch(["1.25", "alpine", "stable"]), ch([8080, 8000, 80]), ri(64, 512))


def snip_ci():
    if coin(0.5):
        return "ci-yaml", "stages: [test, build]\n\nunit:\n  stage: test\n  image: %s\n  script:\n    - %s" % (ch(["node:20", "python:3.12", "golang:1.22"]), ch(["npm ci && npm test", "pip install -r req.txt && pytest", "go test ./..."]))
    return "ci-yaml", "name: test\non: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with:\n          python-version: '%s'\n      - run: pip install -e .[dev] && pytest -q" % ch(["3.11", "3.12", "3.10"])


def snip_terraform():
    return "terraform", 'resource "aws_s3_bucket" "assets" {\n  bucket = "%s-assets-%s"\n  tags = {\n    env   = "%s"\n    owner = "%s"\n  }\n}' % (ch(COMPANY), ch(["prod", "dev"]), ch(["prod", "dev"]), ch(FIRST).lower())


def snip_sql():
    return "sql", ch(["SELECT customer_id, SUM(total) AS revenue FROM orders WHERE created_at >= '%s' GROUP BY 1 ORDER BY 2 DESC LIMIT %d;" % (rdate(), ri(5, 50)),
                      "CREATE INDEX CONCURRENTLY idx_orders_created ON orders (created_at);",
                      "UPDATE products SET price = price * 1.0%d WHERE category = 'garden';" % ri(1, 9)])


def snip_toml():
    return "toml", ch(['[tool.pytest.ini_options]\naddopts = "%s"\ntestpaths = ["tests"]\n\n[tool.ruff]\nline-length = %d' % (ch(["-q", "-ra", "-x -q"]), ch([88, 100, 120])),
                       '[package]\nname = "%s"\nversion = "0.%d.%d"\nedition = "2021"\n\n[dependencies]\nserde = { version = "1", features = ["derive"] }' % (ch(COMPANY), ri(1, 9), ri(0, 20)),
                       '[server]\nhost = "0.0.0.0"\nport = %d\n\n[log]\nlevel = "%s"' % (ch([8000, 8080, 9000]), ch(["info", "debug"]))])


def snip_properties():
    return "properties", "server.port=%d\nspring.datasource.url=jdbc:postgresql://db:5432/%s\nspring.datasource.username=app\nspring.datasource.password=${DB_PASSWORD}\nlogging.level.root=%s" % (ch([8080, 8081]), ch(COMPANY), ch(["INFO", "WARN"]))


def snip_php():
    return "code-php", ch(["<?php\nfunction slugify(string $s): string {\n    return strtolower(trim(preg_replace('/[^A-Za-z0-9]+/', '-', $s), '-'));\n}",
                           "<?php\n$items = array_filter($cart, fn($i) => $i['qty'] > 0);\necho count($items);"])


def snip_csharp():
    return "code-csharp", ch(["public record Order(int Id, decimal Total, DateTime CreatedAt);",
                              "var total = orders.Where(o => o.CreatedAt.Year == %d).Sum(o => o.Total);" % ri(2020, 2025)])


def snip_java():
    return "code-java", ch(["public static int gcd(int a, int b) {\n    return b == 0 ? a : gcd(b, a % b);\n}",
                            "List<String> names = users.stream().map(User::getName).sorted().toList();"])


def snip_ruby():
    return "code-ruby", ch(["def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)", "Order.where(status: :paid).group(:country).count"])


def snip_ts():
    return "code-ts", "export interface Booking {\n  id: string;\n  guests: number;\n  checkIn: string;\n  notes?: string;\n}"


def snip_rust():
    return "code-rust", "fn mean(xs: &[f64]) -> f64 {\n    xs.iter().sum::<f64>() / xs.len() as f64\n}"


def snip_powershell():
    return "powershell", ch(["Get-ChildItem -Path C:\\Users\\%s\\Downloads -Filter *.pdf | Sort-Object Length -Descending | Select-Object -First %d" % (ch(FIRST), ri(3, 10)),
                             "$env:PATH += ';C:\\tools\\bin'\nWrite-Host 'done'"])


def snip_docker():
    return "docker", "docker run --rm -p %d:%d -v $PWD:/app -w /app %s %s" % (ch([3000, 8000]), ch([3000, 8000]), ch(["node:20", "python:3.12"]), ch(["npm test", "pytest -q", "make"]))


def snip_curl():
    return "curl", "curl -s 'https://api.open-meteo.com/v1/forecast?latitude=%.2f&longitude=%.2f&daily=temperature_2m_max&timezone=auto' | jq .daily" % (R.uniform(-50, 60), R.uniform(-120, 120))


def snip_http():
    return "http-request", "GET /v1/status HTTP/1.1\nHost: status.%s.com\nAccept: application/json" % ch(COMPANY)


def snip_systemd():
    return "systemd", "[Unit]\nDescription=%s worker\nAfter=network.target\n\n[Service]\nExecStart=/usr/bin/python3 /opt/%s/worker.py\nRestart=on-failure\nEnvironment=LOG_LEVEL=info" % (ch(COMPANY), ch(COMPANY))


def snip_ini():
    return "ini", "[core]\n\teditor = %s\n\tautocrlf = input\n[alias]\n\tco = checkout\n\tst = status\n[pull]\n\trebase = true" % ch(["vim", "nano", "code --wait"])


def snip_k8s():
    return "kubernetes", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\nspec:\n  replicas: %d\n  template:\n    spec:\n      containers:\n      - name: app\n        image: ghcr.io/%s/app:%s\n        resources:\n          limits: {cpu: 500m, memory: 256Mi}" % (ch(["api", "web", "worker"]), ri(1, 6), ch(COMPANY), ch(["1.2.3", "latest", "sha-" + rs(HEXL, 7)]))


SNIPS = [snip_env, snip_yaml, snip_json, snip_python, snip_js, snip_go, snip_shell, snip_compose, snip_ci, snip_terraform,
         snip_sql, snip_toml, snip_ini, snip_k8s, snip_properties, snip_php, snip_csharp, snip_java, snip_ruby, snip_ts,
         snip_rust, snip_powershell, snip_docker, snip_curl, snip_http, snip_systemd, snip_env, snip_yaml, snip_json]


def gen_benign_plain(n_en, per_lang):
    for i in range(n_en):
        r = R.random()
        if r < 0.30:
            for _ in range(8):
                seg, val = ch(SNIPS)()
                if json.dumps(val, sort_keys=True) not in SEEN:
                    break
            SEEN.add(json.dumps(val, sort_keys=True))
        else:
            topic, t = ord_text()
            if coin(0.45):
                t2 = ord_text()[1]
                t = ch(["%s\n%s", "%s. Also %s", "- %s\n- %s"]) % (t, t2)
            t = typo(t, 0.12)
            src = R.choices(["notes", "chat", "form", "email", "calendar", "voice-memo", "sms-forward", "ticket"], [40, 22, 10, 9, 8, 5, 3, 3])[0]
            op, suf = ch(OPENERS), ch(SUFFIXES)
            if src == "chat":
                val = ch([[{"role": "user", "content": op + t}, {"role": "assistant", "content": ch(["Got it, saved.", "Noted!", "I'll remember that."])}],
                          op + t + suf, ["me: " + x for x in t.split("\n")]])
            elif src == "form":
                val = {"topic": topic, "note": t, "date": rdate()}
            elif src == "email":
                val = "Hi %s,\n\n%s\n\n%s" % (ch(FIRST), t, ch(["Thanks!", "See you Saturday", "x", "Best,\n" + ch(FIRST)]))
            elif src == "calendar":
                val = {"title": t.split("\n")[0][:60], "when": "%s %s" % (rdate(), rtime()), "reminder_minutes": ch([10, 30, 60, 1440])}
            elif src == "voice-memo":
                val = "[voice memo transcript] " + t.replace("\n", " ")
            elif src == "sms-forward":
                val = "Fwd SMS from %s: %s" % (ch(FIRST), t.replace("\n", " "))
            elif src == "ticket":
                val = "Ticket %d – %s\n%s" % (ri(1000, 99999), ch(["printer offline", "laptop slow", "new monitor", "room booking"]), t)
            else:
                val = op + t + suf
            seg = src
        add("benign", "plain", seg, "ordinary-" + seg, val, tag="ordinary")
    for lang, L in LANGS.items():
        for j in range(per_lang):
            o = L["o"][j % len(L["o"])].format(d=ri(1, 28), t=rtime(), k=ri(2, 12))
            if coin(0.35):
                o = o + "\n" + L["o"][(j + 1) % len(L["o"])].format(d=ri(1, 28), t=rtime(), k=ri(2, 12))
            k = ri(0, 4)
            if k == 0:
                o = ch(["📌 ", "!!! ", "", "— "]) + o + ch([" 🙂", "", " !!"])
            elif k == 1:
                o = o + ch([" (ok?)", " – thx", " 👍", " lol", " pls"])
            src = R.choices(["notes", "chat", "form", "sms-forward"], [60, 25, 8, 7])[0]
            if src == "chat":
                val = [{"role": "user", "content": o}, {"role": "assistant", "content": "✓"}] if coin(0.5) else o
            elif src == "form":
                val = {"label": o.split("\n")[0][:30], "value": o}
            elif src == "sms-forward":
                val = "Fwd: " + o.replace("\n", " ")
            else:
                val = o
            seg = "%s-%s" % (src, lang)
            add("benign", "plain", seg, "ordinary-" + seg, val, lang=lang, tag="ordinary")


# ----------------------------------------------------------------------------
# benign / hard: look-alike families
# ----------------------------------------------------------------------------
FAM = []


def B(name, n=4):
    def deco(fn):
        FAM.append((name, fn, n))
        return fn
    return deco


def BH(value, fixed=False, ns3=None, lang="en"):
    return {"value": value, "fixed": fixed, "ns3": ns3, "lang": lang}


def pick(*opts):
    return ch(opts)


# --- hashes, digests, identifiers -------------------------------------------
@B("git-commit-sha", 4)
def _():
    sha = rs(HEXL, 40)
    return BH(pick("the fix landed in commit %s, cherry-pick it onto release/%d.%d" % (sha, ri(1, 5), ri(0, 20)),
                   "bisect says %s is the first bad commit" % sha, "git revert %s  # broke the login page" % sha,
                   {"repo": "%s/%s" % (ch(COMPANY), ch(["api", "web"])), "deployed_sha": sha, "deployed_at": rdate()}))


@B("git-log-oneline")
def _():
    lines = ["%s %s" % (rs(HEXL, 7), ch(["fix typo in README", "bump deps", "add retry to uploader", "refactor auth middleware", "update CI cache key", "docs: explain env vars", "feat: dark mode"])) for _ in range(ri(3, 6))]
    return BH("$ git log --oneline -%d\n" % len(lines) + "\n".join(lines))


@B("sha256-download-checksum", 4)
def _():
    h = rs(HEXL, 64)
    f = ch(["ubuntu-24.04-desktop-amd64.iso", "node-v20.11.1-linux-x64.tar.xz", "Firefox Setup 125.0.exe", "backup-%s.tar.gz" % rdate(), "model.safetensors"])
    return BH(pick("sha256 of %s should be %s — verified OK" % (f, h), "%s  %s" % (h, f), {"file": f, "sha256": h, "verified": True}))


@B("md5-checksum")
def _():
    return BH("md5(%s) = %s, matches the vendor page" % (ch(["firmware.bin", "photos.zip", "thesis_final_v3.pdf"]), rs(HEXL, 32)))


@B("sha512-checksum")
def _():
    return BH("SHA512 (release.tar.gz) = %s" % rs(HEXL, 128))


@B("sha256sums-file")
def _():
    return BH("\n".join("%s  %s" % (rs(HEXL, 64), f) for f in sample(["app-linux-amd64", "app-darwin-arm64", "app-windows.exe", "app.deb", "app.rpm", "checksums.sig"], 4)))


@B("uuid-request-id", 4)
def _():
    u = uuid4()
    return BH(pick("support asked for the request id: %s (failed upload at %s)" % (u, rtime()), "X-Request-Id: %s" % u,
                   {"order_uuid": u, "status": "shipped"}, "correlation id %s shows up in both services' logs" % u))


@B("ulid-ids")
def _():
    al = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return BH("event ids: %s" % ", ".join("01" + rs(al, 24) for _ in range(ri(2, 4))))


@B("docker-image-digest")
def _():
    return BH("pin the base image: python:3.12-slim@sha256:%s" % rs(HEXL, 64))


@B("npm-integrity-hash")
def _():
    return BH('"node_modules/%s": {\n  "version": "%d.%d.%d",\n  "resolved": "https://registry.npmjs.org/%s/-/%s-%d.%d.%d.tgz",\n  "integrity": "sha512-%s=="\n}' % (
        (lambda p, a, b, c: (p, a, b, c, p, p, a, b, c, rs(B64, 86)))(ch(["lodash", "react", "zod", "chalk", "axios"]), ri(1, 9), ri(0, 20), ri(0, 30))))


@B("subresource-integrity")
def _():
    return BH('<script src="https://cdn.jsdelivr.net/npm/alpinejs@3.%d.%d/dist/cdn.min.js" integrity="sha384-%s" crossorigin="anonymous"></script>' % (ri(10, 14), ri(0, 9), rs(B64, 64)))


@B("git-lfs-pointer")
def _():
    return BH("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d" % (rs(HEXL, 64), ri(10000, 900000000)))


@B("ipfs-cid")
def _():
    return BH("pinned the photo album to IPFS: bafybei%s" % rs("abcdefghijklmnopqrstuvwxyz234567", 52))


@B("nix-store-path")
def _():
    return BH("/nix/store/%s-%s" % (rs("0123456789abcdfghijklmnpqrsvwxyz", 32), ch(["python3-3.11.9", "nodejs-20.12.2", "git-2.44.0"])))


@B("go-sum-lines")
def _():
    return BH("\n".join("%s v%d.%d.%d h1:%s=" % (m, ri(0, 2), ri(0, 30), ri(0, 20), rs(B64, 43)) for m in sample(["github.com/spf13/cobra", "golang.org/x/net", "github.com/google/uuid", "go.uber.org/zap"], 3)))


@B("cargo-lock-checksum")
def _():
    return BH('[[package]]\nname = "%s"\nversion = "%d.%d.%d"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "%s"' % (ch(["serde", "tokio", "rand", "anyhow"]), ri(0, 2), ri(0, 40), ri(0, 20), rs(HEXL, 64)))


@B("etag-header")
def _():
    return BH('HTTP/1.1 304 Not Modified\nETag: W/"%s"\nCache-Control: max-age=3600' % rs(HEXL, 32))


@B("traceparent-trace-id")
def _():
    return BH("traceparent: 00-%s-%s-01  (slow span in checkout)" % (rs(HEXL, 32), rs(HEXL, 16)))


@B("aws-request-id")
def _():
    return BH("AccessDenied when calling PutObject. RequestId: %s, HostId: %s" % (rs(UPP + DIG, 16), rs(B64, 76)))


@B("ec2-instance-ids")
def _():
    return BH("instances to drain: %s" % ", ".join("i-0" + rs(HEXL, 16) for _ in range(ri(2, 4))))


@B("aws-arn")
def _():
    return BH(pick("role to assume: arn:aws:iam::%s:role/%s" % (rs(DIG, 12), ch(["ci-deployer", "ReadOnly", "lambda-exec"])),
                   "topic arn:aws:sns:%s:%s:alerts" % (ch(AWS_REGIONS), rs(DIG, 12))))


@B("aws-account-id")
def _():
    return BH("our AWS accounts: prod %s, staging %s, sandbox %s" % (rs(DIG, 12), rs(DIG, 12), rs(DIG, 12)))


@B("azure-subscription-tenant-ids")
def _():
    return BH({"subscriptionId": uuid4(), "tenantId": uuid4(), "resourceGroup": "rg-%s-prod" % ch(COMPANY)})


@B("gcp-project-number")
def _():
    return BH("GCP project %s-%s (number %s)" % (ch(COMPANY), ch(["prod", "dev"]), rs(DIG, 12)))


@B("k8s-pod-names")
def _():
    return BH("\n".join("%s-%s-%s   1/1   Running   %d   %dh" % (ch(["api", "web", "worker"]), rs(HEXL, 9), rs("bcdfghjklmnpqrstvwxz2456789", 5), ri(0, 3), ri(1, 90)) for _ in range(3)))


@B("slack-channel-user-ids")
def _():
    return BH("post the release notes in C0%s and ping U0%s" % (rs(UPP + DIG, 9), rs(UPP + DIG, 9)))


@B("discord-snowflake-ids")
def _():
    return BH("discord: server id %s, my user id %s" % (rs(DIG, 18), rs(DIG, 18)))


@B("youtube-video-ids")
def _():
    return BH("workout playlist: https://youtu.be/%s and https://www.youtube.com/watch?v=%s" % (rs(B64U, 11), rs(B64U, 11)))


@B("spotify-uris")
def _():
    return BH("song for the wedding: spotify:track:%s" % rs(B62, 22))


@B("short-urls")
def _():
    return BH("recipe link https://bit.ly/%s and the map https://maps.app.goo.gl/%s" % (rs(B62, 7), rs(B62, 17)))


@B("stripe-object-ids", 4)
def _():
    return BH(pick("refund customer cus_%s, charge ch_%s" % (rs(B62, 14), rs(B62, 24)), "price id for the pro plan: price_%s" % rs(B62, 24),
                   {"payment_intent": "pi_%s" % rs(B62, 24), "status": "succeeded", "amount": ri(500, 90000)}, "subscription sub_%s cancels at period end" % rs(B62, 24)))


@B("twilio-account-sid-alone")
def _():
    return BH("Twilio Account SID (identifier only, not secret): AC%s" % rs(HEXL, 32))


@B("google-oauth-client-id")
def _():
    return BH("OAuth client ID (public, goes in the frontend): %s-%s.apps.googleusercontent.com" % (rs(DIG, 12), rs(LOW + DIG, 32)))


@B("github-app-numeric-ids")
def _():
    return BH({"app_id": ri(100000, 999999), "installation_id": ri(10000000, 99999999), "client_id": "Iv23" + rs(B62, 16)})


@B("sentry-dsn-public")
def _():
    return BH("Sentry DSN for the browser bundle (public by design): https://%s@o%d.ingest.sentry.io/%d" % (rs(HEXL, 32), ri(100000, 999999), ri(1000000, 9999999)))


@B("analytics-measurement-ids")
def _():
    return BH("tracking: GA4 G-%s, GTM-%s, Meta pixel %s" % (rs(UPP + DIG, 10), rs(UPP + DIG, 7), rs(DIG, 15)))


@B("mailchimp-audience-id")
def _():
    return BH("newsletter audience id %s, tag 'beta-testers'" % rs(HEXL, 10))


@B("ethereum-address", 4)
def _():
    return BH(pick("send the ETH to 0x%s (my public address)" % rs(HEXL, 40), "ENS resolves to 0x%s" % rs(HEXL, 40),
                   {"chain": "ethereum", "address": "0x" + rs(HEXL, 40), "label": "donations"}))


@B("ethereum-tx-hash", 4)
def _():
    return BH(pick("tx hash 0x%s — confirmed after 12 blocks" % rs(HEXL, 64), "etherscan: https://etherscan.io/tx/0x%s" % rs(HEXL, 64),
                   {"txid": "0x" + rs(HEXL, 64), "gas_used": ri(21000, 300000)}))


@B("bitcoin-address")
def _():
    return BH(pick("BTC receiving address bc1q%s" % rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38), "old address 1%s (public)" % rs(B58, 33)))


@B("bitcoin-txid")
def _():
    return BH("btc txid %s, fee 12 sat/vB" % rs(HEXL, 64))


@B("bitcoin-xpub")
def _():
    return BH("watch-only wallet xpub (public, for the accountant): xpub6%s" % rs(B58, 106))


@B("solana-address")
def _():
    return BH("my Solana address for the NFT airdrop: %s" % rs(B58, 44))


@B("ens-names")
def _():
    return BH("renew %s.eth and %s.eth before they expire" % (ch(FIRST).lower(), ch(COMPANY)))


@B("lightning-invoice")
def _():
    return BH("pay this lightning invoice for the coffee: lnbc%du1p%s" % (ri(1, 99) * 10, rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 200)))


@B("magnet-link")
def _():
    return BH("magnet:?xt=urn:btih:%s&dn=ubuntu-24.04-live-server-amd64.iso" % rs(HEXL, 40))


@B("ssh-host-fingerprint")
def _():
    return BH("The authenticity of host 'pi.local' can't be established.\nED25519 key fingerprint is SHA256:%s." % rs(B64, 43))


@B("gpg-fingerprint")
def _():
    return BH("my GPG key fingerprint: %s" % " ".join(chunk(rs(HEXU, 40), 4)))


@B("tls-cert-fingerprint")
def _():
    return BH("cert SHA-256 fingerprint %s (expires %s)" % (":".join(chunk(rs(HEXU, 64), 2)), rdate()))


@B("gravatar-hash")
def _():
    return BH("https://www.gravatar.com/avatar/%s?s=200" % rs(HEXL, 64))


@B("doi-arxiv-pubmed")
def _():
    return BH("read later: doi:10.%d/%s, arXiv:%d.%05d, PMID %d" % (ri(1000, 9999), rs(LOW + DIG, 8), ri(2001, 2412), ri(0, 99999), ri(10000000, 39999999)))


@B("geohash-pluscode")
def _():
    return BH("meet at plus code %s+%s (geohash %s)" % (rs("23456789CFGHJMPQRVWX", 4), rs("23456789CFGHJMPQRVWX", 2), rs("0123456789bcdefghjkmnpqrstuvwxyz", 9)))


@B("what3words-address")
def _():
    return BH("festival entrance is at ///%s.%s.%s" % (ch(BIP_WORDS), ch(BIP_WORDS), ch(BIP_WORDS)))


@B("protein-sequence")
def _():
    return BH(">sp|P%05d|sample protein\n%s" % (ri(0, 99999), "\n".join(chunk(rs("ACDEFGHIKLMNPQRSTVWY", 120), 60))))


@B("dna-sequence")
def _():
    return BH("primer F: 5'-%s-3'\nprimer R: 5'-%s-3'" % (rs("ACGT", 22), rs("ACGT", 21)))


@B("isbn-ean-codes")
def _():
    return BH("books to borrow: ISBN 978-%d-%02d-%06d-%d and 978-%d-%03d-%05d-%d" % (ri(0, 1), ri(10, 99), ri(0, 999999), ri(0, 9), ri(0, 1), ri(100, 999), ri(0, 99999), ri(0, 9)))


@B("product-sku-serial")
def _():
    return BH("warranty: model %s-%d, serial %s, bought %s" % (ch(["WM", "DW", "TV", "FR"]), ri(1000, 9999), rs(UPP + DIG, 12), rdate()))


@B("license-plate")
def _():
    return BH("parking permit for plate %s-%s %d" % (rs(UPP, 2), rs(UPP, 2), ri(100, 9999)))


@B("vin-number")
def _():
    return BH("car VIN %s (for the insurance form)" % rs("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17))


@B("imei-number", 4)
def _():
    return BH(pick("phone IMEI %s — needed for the warranty claim" % imei(), "IMEI 1: %s / IMEI 2: %s" % (imei(), imei()),
                   {"device": "Pixel", "imei": imei()}))


@B("mac-addresses")
def _():
    return BH("allowlist the printer %s and the TV %s on the router" % (":".join(rs(HEXU, 2) for _ in range(6)), ":".join(rs(HEXU, 2) for _ in range(6))))


@B("ip-addresses")
def _():
    return BH("NAS at 192.168.%d.%d, printer .%d, pihole 10.0.0.%d" % (ri(0, 2), ri(2, 254), ri(2, 254), ri(2, 254)))


@B("ipv6-addresses")
def _():
    return BH("server IPv6 2001:db8:%s::%s" % (":".join(rs(HEXL, 4) for _ in range(2)), rs(HEXL, 4)))


@B("passport-number", 4)
def _():
    return BH(pick("passport no. %s%s, expires %s" % (rs(UPP, 2), rs(DIG, 7), rdate()), {"traveller": "%s %s" % (ch(FIRST), ch(LAST)), "passport": rs(UPP, 1) + rs(DIG, 8), "nationality": ch(["DE", "FR", "PT", "IE"])},
                   "%s's passport number for the ESTA form: %s" % (ch(FIRST), rs(UPP + DIG, 9))))


@B("national-id-numbers")
def _():
    return BH(pick("SSN for the tax form: %03d-%02d-%04d" % (ri(100, 665), ri(1, 99), ri(1, 9999)), "NIF %s%s" % (rs(DIG, 8), ch(UPP)),
                   "personnummer %s-%s" % (rs(DIG, 8), rs(DIG, 4)), "Steuer-ID %s" % rs(DIG, 11)))


@B("drivers-license")
def _():
    return BH("driving licence number %s%s, valid until %s" % (rs(UPP, 5), rs(DIG, 6), rdate()))


@B("tracking-numbers", 4)
def _():
    return BH(pick("UPS tracking 1Z%s%s" % (rs(UPP + DIG, 6), rs(DIG, 10)), "DHL %s" % rs(DIG, 10), "FedEx %s arrives Tue" % rs(DIG, 12),
                   "Royal Mail %s%sGB" % (rs(UPP, 2), rs(DIG, 9))))


@B("order-numbers")
def _():
    return BH(pick("Amazon order %s-%s-%s (headphones)" % (rs(DIG, 3), rs(DIG, 7), rs(DIG, 7)), "order #%d from the bakery" % ri(10000, 999999)))


@B("invoice-number")
def _():
    return BH("invoice INV-%d-%05d for %s%s, due %s" % (ri(2023, 2025), ri(1, 99999), ch(["€", "$"]), "%d.%02d" % (ri(50, 5000), ri(0, 99)), rdate()))


@B("insurance-policy-number")
def _():
    return BH("home insurance policy %s-%s, hotline +44 20 %04d %04d" % (rs(UPP, 3), rs(DIG, 9), ri(0, 9999), ri(0, 9999)))


@B("claim-number")
def _():
    return BH("claim number CLM%s for the water damage, adjuster %s %s" % (rs(DIG, 10), ch(FIRST), ch(LAST)))


@B("loyalty-member-number")
def _():
    return BH("%s member number %s" % (ch(["IKEA Family", "Payback", "Tesco Clubcard", "Starbucks Rewards", "REI"]), " ".join(chunk(rs(DIG, 16), 4))))


@B("frequent-flyer-number")
def _():
    return BH("%s frequent flyer %s" % (ch(["Miles&More", "Flying Blue", "Avios", "MileagePlus"]), rs(DIG, 12)))


@B("library-card-number")
def _():
    return BH("library card %s (the barcode on the back)" % rs(DIG, 14))


@B("student-employee-id")
def _():
    return BH(pick("student ID %s" % rs(DIG, 8), "employee number E%s, badge %s" % (rs(DIG, 6), rs(DIG, 5))))


@B("medical-record-number")
def _():
    return BH("hospital MRN %s, GP practice code %s%s" % (rs(DIG, 10), ch(UPP), rs(DIG, 5)))


@B("prescription-number")
def _():
    return BH("Rx #%s — %s %dmg, %d refills left" % (rs(DIG, 7), ch(MEDS), ch([5, 10, 20, 50]), ri(0, 5)))


@B("lab-values")
def _():
    return BH({"LDL": ri(70, 190), "HDL": ri(35, 90), "TSH": round(R.uniform(0.4, 4.5), 2), "ferritin": ri(15, 300), "date": rdate()})


@B("blood-pressure-log")
def _():
    return BH("\n".join("%s  %d/%d  pulse %d" % (rdate(), ri(105, 150), ri(65, 95), ri(52, 95)) for _ in range(ri(3, 5))))


@B("bank-branch-info")
def _():
    return BH(pick("branch sort code %02d-%02d-%02d, BIC %s%s%s" % (ri(10, 99), ri(10, 99), ri(10, 99), rs(UPP, 4), ch(["GB", "DE", "FR", "NL"]), rs(UPP + DIG, 2)),
                   "routing number %s (bank's public ABA number)" % rs(DIG, 9)))


@B("phone-numbers")
def _():
    return BH("plumber %s, pediatrician +1 (%03d) %03d-%04d, pizza place 0%d %d" % (("+49 %d %d" % (ri(150, 179), ri(1000000, 9999999))), ri(200, 999), ri(200, 999), ri(0, 9999), ri(20, 99), ri(100000, 999999)))


@B("email-addresses")
def _():
    return BH("new emails: %s.%s@%s, school office: office@%s-school.org" % (ch(FIRST).lower(), ch(LAST).lower().replace("'", ""), ch(DOMAINS), ch(CITIES).lower()))


@B("street-address")
def _():
    return BH("new address: %d %s, apt %d, %s %05d" % (ri(1, 300), ch(STREETS), ri(1, 40), ch(CITIES), ri(1000, 99999)))


@B("birthdays-list")
def _():
    return BH("\n".join("%s — %02d.%02d.%d" % (ch(FIRST), ri(1, 28), ri(1, 12), ri(1940, 2020)) for _ in range(ri(3, 5))))


@B("jira-ticket-ids")
def _():
    return BH("blocked by %s-%d, follow-up in %s-%d" % (ch(["PAY", "WEB", "OPS"]), ri(100, 9999), ch(["PAY", "WEB", "OPS"]), ri(100, 9999)))


@B("build-version-numbers")
def _():
    return BH("release %d.%d.%d+build.%d (%s)" % (ri(1, 9), ri(0, 30), ri(0, 99), ri(1000, 99999), rs(HEXL, 7)))


@B("color-hex-palette")
def _():
    return BH("brand colors: " + ", ".join("#" + rs(HEXU, 6) for _ in range(5)))


@B("webpack-chunk-hashes")
def _():
    return BH("dist/assets/index-%s.js  %d kB\ndist/assets/vendor-%s.js  %d kB\ndist/assets/index-%s.css  %d kB" % (rs(B64U, 8), ri(20, 400), rs(B64U, 8), ri(100, 900), rs(B64U, 8), ri(5, 60)))


@B("notion-page-url")
def _():
    return BH("meeting notes live at https://www.notion.so/%s/Team-Weekly-%s" % (ch(COMPANY), rs(HEXL, 32)))


@B("cache-key-ci")
def _():
    return BH("Cache restored from key: Linux-node-modules-%s" % rs(HEXL, 64))


@B("random-seed-experiments")
def _():
    return BH("experiment %s: seed=%d, lr=3e-4, batch %d, val acc %.3f" % (rs(HEXL, 6), ri(0, 99999), ch([16, 32, 64]), R.uniform(0.6, 0.97)))


@B("csp-nonce")
def _():
    return BH("Content-Security-Policy: script-src 'self' 'nonce-%s'" % rs(B64, 22))


# --- encoded but innocuous ----------------------------------------------------
INNOCUOUS = ["hello from grandma", "see you at the lake on Sunday", "the cake is in the oven", "meeting moved to 3pm",
             "happy birthday Leo!", "buy more coffee", "I love you, Mum", "tickets are on the fridge", "dinner at 7, bring salad",
             "don't forget the umbrella"]


@B("base64-innocuous-text", 4)
def _():
    t = ch(INNOCUOUS)
    return BH(pick("decode this for fun: %s" % b64s(t), "Mia sent me a 'secret message' in base64: %s (it says '%s')" % (b64s(t), t), {"puzzle": b64s(t), "type": "base64"}))


@B("hex-innocuous-text")
def _():
    t = ch(INNOCUOUS)
    return BH("hex puzzle from the escape room: %s" % hexs(t))


@B("data-uri-png")
def _():
    return BH('<img alt="dot" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42m%s">' % rs(B64, 24))


@B("base64-json-nonsecret")
def _():
    d = json.dumps({"theme": ch(["dark", "light"]), "lang": ch(["en", "de", "fr"]), "fontSize": ri(12, 18)})
    return BH("prefs cookie (just UI settings): prefs=%s" % b64s(d))


@B("jwt-io-example")
def _():
    return BH(ch(["the example token from jwt.io docs (not a real credential): ", "tutorial sample JWT (public example from jwt.io): ", "paste this jwt.io demo token to see the decoder work: "]) + "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")


@B("jwt-header-only")
def _():
    return BH("JWT header for our tokens is always %s (alg RS256) — decoder shows kid=%s" % (b64u(json.dumps({"alg": "RS256", "typ": "JWT", "kid": "k%d" % ri(1, 9)}).encode()), rs(HEXL, 8)))


@B("rot13-spoiler", 4)
def _():
    t = ch(["The butler did it.", "Snape kills Dumbledore.", "Bruce Willis was dead all along.", "Rosebud is the sled.", "The answer to the riddle is an echo."])
    return BH(pick("spoiler (rot13): %s" % rot13(t), "rot13'd so Sam doesn't see: %s" % rot13(t)))


@B("morse-message")
def _():
    t = ch(["sos", "hello", "love you", "dinner", "cq cq"])
    return BH("learned morse today: %s = %s" % (" / ".join(" ".join(MORSE[c] for c in w) for w in t.split()), t.upper()))


@B("nato-spelling-surname")
def _():
    n = ch(LAST).lower()
    n = "".join(c for c in n if c in NATO)
    return BH("spell my surname on the phone: %s" % " ".join(NATO[c].capitalize() for c in n))


@B("reversed-palindrome-game")
def _():
    w = ch(["racecar", "level", "rotator", "Was it a car or a cat I saw", "never odd or even"])
    return BH("%s's palindrome of the day: '%s' reads the same backwards ('%s')" % (ch(FIRST), w, w[::-1]))


@B("acrostic-poem")
def _():
    w = ch(["MOM", "LOVE", "HOPE", "MAYA"])
    lines = {"M": "Mornings with coffee", "O": "Old songs on the radio", "L": "Laughing at nothing", "V": "Very long walks",
             "E": "Evenings by the lake", "H": "Holding hands", "P": "Pancakes on Sunday", "A": "Always there", "Y": "Yellow tulips"}
    return BH("acrostic for the card:\n" + "\n".join(lines[c] for c in w))


@B("riddle-non-secret")
def _():
    return BH(ch(["riddle for the kids: what has keys but can't open locks? a piano",
                  "riddle: the more you take, the more you leave behind — footsteps",
                  "what has a neck but no head? a bottle", "what goes up but never comes down? your age"]))


@B("math-puzzle")
def _():
    a, b = ri(11, 97), ri(11, 97)
    return BH("homework check: %d × %d = %d, and %d + %d = %d" % (a, b, a * b, a, b, a + b))


@B("historic-year-trivia", 4)
def _():
    d, y = ch(HIST)
    return BH(pick("pub quiz answer: %s → %s" % (d, y), "Leo asked about %s; it's %s" % (d, y)))


@B("pi-digits-trivia")
def _():
    return BH(pick("pi day trivia: 3.14159265358979, and e ≈ 2.71828", "%s memorised %d digits of pi for school: 3.1415926535…" % (ch(FIRST), ri(10, 60)),
                   "golden ratio ≈ 1.618, sqrt(2) ≈ 1.414 — for the math worksheet"))


@B("chess-notation")
def _():
    return BH("game vs %s: 1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 — I lost on move %d" % (ch(FIRST), ri(20, 60)))


@B("lottery-numbers")
def _():
    return BH("lotto numbers we always play: %s + bonus %d" % (" ".join(str(x) for x in sorted(sample(range(1, 50), 6))), ri(1, 10)))


@B("sudoku-row")
def _():
    row = shuffled(range(1, 10))
    return BH("sudoku row 4 solved: %s" % " ".join(map(str, row)))


@B("sports-scores")
def _():
    return BH("%s %d–%d, %s scored twice; next match %s %s" % (ch(["City", "United", "FC Porto", "Bayern"]), ri(0, 5), ri(0, 5), ch(FIRST), ch(WEEKDAYS), rtime()))


@B("recipe-quantities")
def _():
    return BH("%s: %dg flour, %d eggs, %dml milk, bake %d min at %d°C" % (ch(["pancakes", "banana bread", "crepes"]), ri(100, 500), ri(1, 4), ri(100, 500), ri(15, 60), ri(160, 220)))


@B("keycap-emoji-steps")
def _():
    return BH(ch(["1️⃣ preheat oven 2️⃣ mix dry stuff 3️⃣ add eggs 4️⃣ bake", "top 3 hikes: 1️⃣ %s ridge 2️⃣ the lake loop 3️⃣ old mill trail" % ch(CITIES),
                  "packing: 1️⃣ passports 2️⃣ chargers 3️⃣ snacks", "%s's ranking: 1️⃣ pizza 2️⃣ %s 3️⃣ ice cream" % (ch(FIRST), ch(FOODS))]))


@B("spelled-out-numbers-prose")
def _():
    return BH("%s turns %s next week and wants exactly %s candles, not one more" % (ch(FIRST), ch(["seven", "nine", "twelve"]), ch(["seven", "nine", "twelve"])))


# --- credential talk without values ---------------------------------------------
@B("changed-pin-talk", 4)
def _():
    return BH(pick("I changed my bank PIN yesterday, need to memorise the new one", "changed the phone passcode after the repair shop visit",
                   "card PIN reset at the branch today, all good", "set a new PIN for the debit card, don't store it here"))


@B("wifi-password-location", 4)
def _():
    return BH(pick("the wifi password is on the fridge", "guest wifi password is printed on the back of the router",
                   "wifi pw is on the card in the kitchen drawer, ask Sam if missing", "for the Airbnb: wifi details are in the welcome binder"))


@B("rotate-key-reminder", 4)
def _():
    return BH(pick("rotate the Stripe key next week", "reminder: the GitHub token expires on %s, regenerate it" % rdate(),
                   "need to revoke the old OpenAI key after the migration", "AWS access keys older than 90 days must be rotated — check IAM report"))


@B("reset-link-expired")
def _():
    return BH("the password reset link from %s expired, requested a new one" % ch(SITES))


@B("door-code-changed-ask")
def _():
    return BH(pick("the door code changed, ask %s for the new one" % ch(FIRST), "building changed the gate code again, %s will text it" % ch(["landlord", "the caretaker", "the HOA", "Mrs " + ch(LAST)]),
                   "alarm code is different since the service visit; %s has it" % ch(["Dad", "Mum", "the neighbour", ch(FIRST)])))


@B("password-policy-statement", 4)
def _():
    return BH(pick("password must be at least %d chars with a number and a symbol" % ri(8, 16), "our policy: no password reuse, 2FA required for admin",
                   "PIN codes must be 6 digits from next month (bank letter)", {"min_length": ri(8, 14), "require_symbol": True, "max_age_days": ch([90, 180, 365])}))


@B("password-advice")
def _():
    return BH(pick("reminder from IT: phishing test next week, don't type the %s password into links from email" % ch(["VPN", "SSO", "email"]), "tip from the security talk: use a passphrase of 4+ random words and a manager", "never reuse the work password for personal stuff",
                   "don't write passwords on post-its, use Bitwarden"))


@B("password-manager-talk")
def _():
    return BH("moved all logins into %s, master password is only in my head" % ch(["1Password", "Bitwarden", "KeePassXC", "Proton Pass"]))


@B("forgot-pin-talk")
def _():
    return BH(pick("forgot the card PIN again, card blocked after 3 tries", "I keep forgetting the gym locker combination, buy a key lock instead",
                   "forgot the bike lock combo, had to cut it"))


@B("backup-codes-location")
def _():
    return BH(pick("2FA backup codes are printed and in the safe", "recovery codes for GitHub are in the password manager", "seed phrase is on the steel plate in the safe deposit box"))


@B("enable-2fa-reminder")
def _():
    return BH("turn on two-factor for %s and the email account this weekend" % ch(SITES))


@B("otp-talk-no-code")
def _():
    return BH(pick("got the verification code by SMS but it arrived too late", "the bank keeps sending OTPs I didn't request, called them",
                   "authenticator app moved to the new phone, all codes work"))


@B("gift-card-balance-talk")
def _():
    return BH("%s gift card still has %s%d left" % (ch(["Amazon", "IKEA", "Apple", "Starbucks"]), ch(["€", "$", "£"]), ri(3, 80)))


@B("recovery-key-location")
def _():
    return BH(pick("BitLocker recovery key is saved in my Microsoft account, not on the laptop", "Apple ID recovery key printed and in the fireproof box",
                   "FileVault recovery key: stored with iCloud, check there if locked out"))


@B("private-key-advice")
def _():
    return BH(pick("never share your wallet private key or seed, support will never ask for it", "scam alert: someone in the %s Discord asked for my seed phrase. blocked." % ch(["Ledger", "MetaMask", "Phantom"]),
                   "hardware wallet tip: write the recovery words on paper, never in a notes app"))


@B("encrypted-zip-talk")
def _():
    return BH(pick("the tax zip uses the usual family password", "photos archive is encrypted, password in the manager under 'archives'"))


@B("username-only")
def _():
    return BH(pick("my %s username is %s%d" % (ch(SITES), ch(FIRST).lower(), ri(1, 999)), {"site": ch(SITES), "username": ch(FIRST).lower() + "_" + ch(LAST).lower().replace("'", "")}))


@B("email-reset-sent")
def _():
    return BH("reset email sent to %s.%s@%s — check spam" % (ch(FIRST).lower(), ch(LAST).lower().replace("'", ""), ch(DOMAINS)))


@B("wifi-ssid-only")
def _():
    return BH("wifi network at %s is called '%s' (password on the router)" % (ch(PLACES), ch(SSIDS)))


@B("pin-length-talk")
def _():
    return BH("bank says the new PIN has to be %d digits and no repeated numbers" % ch([4, 5, 6]))


@B("namespace-says-password-no-value")
def _():
    return BH(pick("todo: move these to the password manager", "(nothing saved here yet)", "asked IT to reset, waiting"), ns3=ch(["passwords", "credentials", "secrets", "pins"]))


# --- 'code' / 'PIN' / 'key' / 'token' homonyms -----------------------------------
@B("code-homonyms", 6)
def _():
    return BH(pick("zip code for the new place is %05d" % ri(1000, 99999), "area code %03d" % ri(200, 999), "dress code: smart casual",
                   "promo code SUMMER%d from the newsletter (public)" % ri(10, 30), "ICD-10 code E11.9 on the referral",
                   "HTTP status code %d again from the API" % ch([403, 404, 429, 502]), "error code 0x%08X when updating Windows" % ri(0x80000000, 0x8FFFFFFF),
                   "airport code %s" % rs(UPP, 3), "course code CS%d" % ri(100, 599), "country code +%d" % ri(1, 99),
                   "postal code %s%d %d%s" % (rs(UPP, 2), ri(1, 9), ri(1, 9), rs(UPP, 2))))


@B("pin-homonyms", 4)
def _():
    return BH(pick("pin the recipe to the fridge", "bowling: knocked down %d pins in the last frame" % ri(1, 10), "pinned %d ideas on Pinterest" % ri(5, 60),
                   "form validation: PIN field must be numeric and %d digits long" % ch([4, 6]), "Arduino LED on pin %d" % ri(2, 13),
                   "pin the tab in the browser"))


@B("key-homonyms", 4)
def _():
    return BH(pick("key takeaways from the workshop: ship smaller, test more", "song is in the key of %s" % ch(["D minor", "G major", "E flat"]),
                   "key lime pie recipe from %s" % ch(FIRST), "primary key on the orders table is (id)", "spare house key is with the neighbour",
                   "keyboard shortcut: Ctrl+Shift+T reopens a tab"))


@B("token-homonyms")
def _():
    return BH(pick("the prompt was %d tokens, response %d tokens" % (ri(100, 9000), ri(50, 2000)), "subway tokens for the kids' collection",
                   "a small token of appreciation for the team", "tokenizer splits 'unbelievable' into 3 tokens"))


@B("secret-homonyms")
def _():
    return BH(pick("secret santa: I drew %s, budget %s20" % (ch(FIRST), ch(["€", "$"])), "grandma's secret ingredient is a pinch of cinnamon",
                   "the surprise party is a secret, don't tell %s" % ch(FIRST)))


@B("seed-homonyms")
def _():
    return BH(pick("sunflower seeds for the bird feeder", "plant the tomato seeds indoors in March", "random seed 1337 for reproducibility", "tournament seed #%d" % ri(1, 16)))


@B("locker-room-gate-numbers", 4)
def _():
    return BH(pick("gym locker number %d (bring my own lock)" % ri(1, 300), "hotel room %d, %dth floor" % (ri(100, 1999), ri(1, 19)), "boarding gate %s%d" % (ch("ABCD"), ri(1, 60)),
                   "seat %d%s on the train" % (ri(1, 80), ch("ABCD")), "platform %d" % ri(1, 20), "apartment %d, door on the left" % ri(1, 60)))


@B("alarm-clock-times")
def _():
    return BH("alarm set for %s on weekdays, %s on Saturday" % (rtime(), rtime()))


@B("safe-deposit-box-number")
def _():
    return BH("safe deposit box #%d at the %s branch, the key is with Dad" % (ri(100, 999), ch(BANKS)))


@B("xkcd-passphrase-example")
def _():
    return BH(pick("the famous xkcd example passphrase 'correct horse battery staple' — example only, obviously don't use it",
                   "security training used the xkcd example 'correct horse battery staple' to explain passphrases (not anyone's real one)",
                   "%s keeps quoting 'correct horse battery staple' from xkcd 936 lol" % ch(FIRST)))


# --- placeholders, references, redaction ---------------------------------------
@B("env-var-reference", 4)
def _():
    f = ch(TOKEN_FORMATS)
    v = f.vars[0][0]
    return BH(pick("api_key = os.environ[\"%s\"]" % v, "const key = process.env.%s;" % v, "key := os.Getenv(\"%s\")" % v,
                   "client = Client(api_key=os.getenv('%s'))  # set in the shell, never commit" % v))


@B("k8s-secret-key-ref")
def _():
    v = ch(["DATABASE_PASSWORD", "STRIPE_SECRET_KEY", "REDIS_PASSWORD", "OPENAI_API_KEY", "SMTP_PASSWORD"])
    return BH("env:\n- name: %s\n  valueFrom:\n    secretKeyRef:\n      name: %s-%s\n      key: %s" % (v, ch(COMPANY), ch(["credentials", "secrets", "env"]), v.lower().replace("_", "-")))


@B("gha-secrets-reference", 4)
def _():
    f = ch(TOKEN_FORMATS)
    return BH("- run: ./deploy.sh\n  env:\n    %s: ${{ secrets.%s }}" % (f.vars[0][0], f.vars[0][0]))


@B("vault-path-reference")
def _():
    return BH("password: vault:secret/data/%s/db#password" % ch(COMPANY))


@B("secrets-manager-arn")
def _():
    return BH("DB creds live in arn:aws:secretsmanager:%s:%s:secret:prod/db-%s" % (ch(AWS_REGIONS), rs(DIG, 12), rs(B62, 6)))


@B("env-example-empty-values", 4)
def _():
    fs = sample(TOKEN_FORMATS, ri(2, 4))
    return BH("# .env.example — copy to .env and fill in\n" + "\n".join("%s=" % f.vars[0][0] for f in fs))


@B("terraform-sensitive-variable")
def _():
    n = ch(["db_password", "api_token", "admin_password", "slack_webhook_url", "github_token"])
    return BH('variable "%s" {\n  description = "%s"\n  type        = string\n  sensitive   = true\n}' % (n, ch(["set via TF_VAR_%s" % n, "injected by CI", "from the vault", "provided at apply time"])))


@B("yaml-password-empty-or-null", 4)
def _():
    return BH(pick("database:\n  user: app\n  password: \"\"", "smtp:\n  username: null\n  password: null", {"user": "admin", "password": None, "note": "set via env"}))


@B("password-masked-asterisks", 4)
def _():
    return BH(pick("password: ********", "DB_PASSWORD=•••••••• (hidden in the UI)", {"username": ch(FIRST).lower(), "password": "************"},
                   "wifi password: ●●●●●●●●●●"))


@B("redacted-log-bearer", 4)
def _():
    return BH(pick("DEBUG request headers: {'Authorization': 'Bearer [REDACTED]', 'Accept': 'application/json'}",
                   "Authorization: Bearer ***", "token=<redacted> user=%s status=401" % ch(FIRST).lower()))


@B("stacktrace-masked-password")
def _():
    return BH(pick("OperationalError: FATAL: password authentication failed for user \"%s\" (url=postgresql://%s:***@db.internal:5432/main)" % (("app",) * 2),
                   "redis.exceptions.AuthenticationError: invalid password (REDIS_URL=redis://:****@cache:6379/0)",
                   "ERROR connect failed: mysql://root:[FILTERED]@db:3306/shop"))


@B("conn-string-placeholder", 4)
def _():
    return BH(pick("DATABASE_URL=postgresql://app:${DB_PASSWORD}@db.internal:5432/main", "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/",
                   "redis://:%s@localhost:6379" % "{{ .Values.redis.password }}", "Server=tcp:sql.example.net;User ID=app;Password=<your-password>;"))


@B("conn-string-no-password")
def _():
    return BH(pick("postgresql://app@localhost/devdb", "redis://localhost:6379/0", "mongodb://localhost:27017/test", "amqp://localhost:5672"))


@B("url-username-only")
def _():
    return BH("git clone https://%s@github.com/%s/site.git  (it will prompt for the token)" % (ch(FIRST).lower(), ch(COMPANY)))


@B("webhook-url-no-secret")
def _():
    return BH("our own webhook receiver: https://api.%s.com/webhooks/%s (signature verified server-side)" % (ch(COMPANY), ch(["stripe", "github", "shopify"])))


@B("slack-webhook-doc-placeholder")
def _():
    return BH(pick("docs example: curl -X POST -d '{\"text\":\"hi\"}' https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
                   "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/TXXXXXXXX/BXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX  # example from README",
                   "discord webhook format: https://discord.com/api/webhooks/<id>/<token> (fill in yours)"))


@B("k8s-secret-placeholder")
def _():
    ks = sample(["API_KEY", "DB_PASSWORD", "JWT_SECRET", "SMTP_PASSWORD", "STRIPE_KEY"], 2)
    return BH("apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\ndata:\n  %s: %s\n  %s: %s" % (ch(["api", "web", "worker"]), ks[0], ch(["<base64-encoded-value>", "REPLACE_ME_BASE64", "\"\""]), ks[1], ch(["<base64-encoded-value>", "CHANGEME", "\"\""])))


@B("helm-existing-secret")
def _():
    return BH("%s:\n  auth:\n    existingSecret: %s-%s\n    secretKeys:\n      adminPasswordKey: %s" % (ch(["postgresql", "redis", "mongodb", "rabbitmq"]), ch(COMPANY), ch(["credentials", "auth"]), ch(["postgres-password", "admin-password", "password"])))


@B("oidc-no-static-credentials")
def _():
    return BH("permissions:\n  id-token: write\nsteps:\n  - uses: aws-actions/configure-aws-credentials@v4\n    with:\n      role-to-assume: arn:aws:iam::%s:role/gha-deploy\n      aws-region: %s" % (rs(DIG, 12), ch(AWS_REGIONS)))


@B("docs-ellipsis-key", 4)
def _():
    return BH(pick("export OPENAI_API_KEY=sk-...", "ANTHROPIC_API_KEY=sk-ant-... (get yours in the console)", "set STRIPE_SECRET_KEY=sk_live_… in the dashboard",
                   "token looks like ghp_xxxx… — paste yours"))


@B("angle-bracket-placeholders", 4)
def _():
    return BH(pick("curl -H 'Authorization: Bearer <your-token>' https://api.example.com/v1/me", "API_KEY=<insert-api-key-here>",
                   "password: <your-password-here>", {"client_secret": "<CLIENT_SECRET>", "client_id": "<CLIENT_ID>"}))


@B("your-api-key-placeholders", 4)
def _():
    return BH(pick("apiKey: 'YOUR_API_KEY'", "Authorization: Bearer YOUR_TOKEN_HERE", "key = 'REPLACE_ME'", "SENDGRID_API_KEY=SG.your-key-here"))


@B("xxx-placeholders", 4)
def _():
    return BH(pick("STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "AWS_SECRET_ACCESS_KEY=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                   "token: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "password=xxxxxx  # placeholder"))


@B("changeme-placeholders-marked")
def _():
    return BH(pick("POSTGRES_PASSWORD=changeme  # template default, replaced at deploy", "admin_password: CHANGE_ME (placeholder in the sample config)",
                   "%s_PASSWORD=change-me-before-prod  # from docker-compose.example.yml" % ch(["MYSQL", "REDIS", "GRAFANA", "MINIO"]),
                   "the sample config ships with password 'changeme' — our deploy script replaces it with a generated one"))


@B("aws-documented-example-keys", 4)
def _():
    return BH(pick("AWS docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (example values)",
                   "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n# from the AWS CLI docs"))


@B("stripe-publishable-key", 4)
def _():
    return BH(pick("Stripe publishable key for checkout.js (public): pk_live_51%s" % rs(B62, 96), {"stripePublishableKey": "pk_live_" + rs(B62, 24), "note": "publishable, safe in frontend"}))


@B("mapbox-public-token")
def _():
    return BH("mapbox public token (pk, URL-restricted) pk.eyJ1Ijoi%s.%s" % (rs(B64U, 40), rs(B64U, 22)))


@B("algolia-search-only-key")
def _():
    return BH("Algolia app %s search-only API key (public): %s" % (rs(UPP + DIG, 10), rs(HEXL, 32)))


@B("supabase-anon-key")
def _():
    now = ri(1690000000, 1740000000)
    t = jwt_token({"iss": "supabase", "ref": rs(LOW, 20), "role": "anon", "iat": now, "exp": now + 315360000})
    return BH("NEXT_PUBLIC_SUPABASE_ANON_KEY=%s  # anon public key, RLS protects data" % t)


@B("firebase-web-config-public")
def _():
    p = ch(COMPANY) + "-app"
    return BH("// Firebase web config — public by design, ships in the client bundle\nconst firebaseConfig = {\n  apiKey: \"AIza%s\",\n  authDomain: \"%s.firebaseapp.com\",\n  projectId: \"%s\",\n  appId: \"1:%s:web:%s\"\n};" % (rs(B64U, 35), p, p, rs(DIG, 12), rs(HEXL, 22)))


@B("posthog-project-key")
def _():
    return BH("posthog.init('phc_%s', {api_host: 'https://eu.posthog.com'})  // project key is public" % rs(B62, 43))


@B("recaptcha-site-key")
def _():
    return BH('<div class="g-recaptcha" data-sitekey="6L%s"></div>  <!-- site key is public -->' % rs(B64U, 38))


@B("launchdarkly-client-side-id")
def _():
    return BH("LaunchDarkly client-side ID (public): %s" % rs(HEXL, 24))


@B("clerk-publishable-key")
def _():
    return BH("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_%s" % b64s("clerk.%s.com$" % ch(COMPANY)).rstrip("="))


@B("ssh-public-key", 4)
def _():
    return BH(pick("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s %s@laptop" % (rs(B64, 43), ch(FIRST).lower()),
                   "add this to authorized_keys: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ%s deploy" % rs(B64, 360)))


@B("pgp-public-key-block")
def _():
    return BH("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmDMEZ%s\n=%s\n-----END PGP PUBLIC KEY BLOCK-----" % (pem_body("", 300)[5:], rs(B64, 4)))


@B("x509-certificate")
def _():
    return BH("-----BEGIN CERTIFICATE-----\n" + pem_body("MIIDdzCCAl+gAwIBAgIU", 820) + "\n-----END CERTIFICATE-----")


@B("certificate-signing-request")
def _():
    return BH("-----BEGIN CERTIFICATE REQUEST-----\n" + pem_body("MIICvDCCAaQCAQAwdzEL", 700) + "\n-----END CERTIFICATE REQUEST-----")


@B("jwk-public-only")
def _():
    return BH({"keys": [{"kty": "RSA", "kid": rs(HEXL, 8), "use": "sig", "alg": "RS256", "n": rs(B64U, 342), "e": "AQAB"}]}, fixed=True)


@B("age-public-key")
def _():
    return BH("age recipient (public): age1%s" % rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58))


@B("wireguard-public-key")
def _():
    return BH("[Peer]\nPublicKey = %s=\nAllowedIPs = 10.8.0.%d/32\nEndpoint = vpn.example.net:51820" % (rs(B64, 43), ri(2, 254)))


@B("published-test-card-numbers", 6)
def _():
    c = ch(TEST_CARD_SHOW)
    return BH(pick("Stripe test card %s, any future date, any CVC (test mode only)" % c, "QA: use the documented test number %s for the sandbox checkout" % c,
                   {"test_card": c, "mode": "sandbox", "source": "payment provider docs"}))


@B("masked-card-last4", 4)
def _():
    return BH(pick("refund went to the card ending in %s" % rs(DIG, 4), "charged to Visa ending in %s" % rs(DIG, 4), "card **** **** **** %s expires %s" % (rs(DIG, 4), card_exp()), "Mastercard •••• %s, replace before %s" % (rs(DIG, 4), card_exp())))


@B("card-expiry-talk")
def _():
    return BH("the joint card expires %s, the bank sends a new one automatically" % card_exp())


@B("masked-gift-card")
def _():
    return BH("Amazon gift card ending in %s already redeemed" % rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4))


# --- encrypted / hashed ---------------------------------------------------------
@B("sops-encrypted-value", 4)
def _():
    return BH("db_password: ENC[AES256_GCM,data:%s,iv:%s=,tag:%s==,type:str]\nsops:\n  kms:\n  - arn: arn:aws:kms:%s:%s:key/%s" % (rs(B64, 24), rs(B64, 43), rs(B64, 22), ch(AWS_REGIONS), rs(DIG, 12), uuid4()))


@B("ansible-vault-encrypted")
def _():
    return BH("db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + "\n  ".join(rs(DIG + "abcdef", 80) for _ in range(5)))


@B("age-encrypted-file")
def _():
    return BH("-----BEGIN AGE ENCRYPTED FILE-----\n" + pem_body("YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOS", 200) + "\n-----END AGE ENCRYPTED FILE-----")


@B("pgp-encrypted-message")
def _():
    return BH("-----BEGIN PGP MESSAGE-----\n\nhQEMA" + pem_body("", 400)[5:] + "\n=" + rs(B64, 4) + "\n-----END PGP MESSAGE-----")


@B("openssl-salted-blob")
def _():
    return BH("encrypted notes backup (key not stored here): U2FsdGVkX1%s" % rs(B64, 86))


@B("fernet-token-no-key")
def _():
    return BH("ciphertext column sample: gAAAAAB%s==" % rs(B64U, 130))


@B("kms-ciphertext-blob")
def _():
    return BH("CiphertextBlob: AQICAHh%s (decrypt via KMS, needs IAM permission)" % rs(B64, 160))


@B("bcrypt-hash", 4)
def _():
    al = "./" + UPP + LOW + DIG
    return BH(pick("users.password_hash = $2b$12$%s" % rs(al, 53), "admin:$2y$10$%s" % rs(al, 53), {"user": ch(FIRST).lower(), "hash": "$2a$12$" + rs(al, 53)}))


@B("argon2-hash")
def _():
    return BH("$argon2id$v=19$m=65536,t=3,p=4$%s$%s" % (rs(B64, 22), rs(B64, 43)))


@B("sha-crypt-shadow")
def _():
    al = "./" + UPP + LOW + DIG
    return BH("%s:$6$%s$%s:19%d:0:99999:7:::" % (ch(FIRST).lower(), rs(al, 16), rs(al, 86), ri(100, 999)))


@B("htpasswd-apr1")
def _():
    al = "./" + UPP + LOW + DIG
    return BH("%s:$apr1$%s$%s" % (ch(FIRST).lower(), rs(al, 8), rs(al, 22)))


@B("django-pbkdf2-hash")
def _():
    return BH("pbkdf2_sha256$870000$%s$%s=" % (rs(B62, 22), rs(B64, 43)))


# --- code without secrets --------------------------------------------------------
@B("password-generator-code")
def _():
    n = ri(12, 32)
    return BH(pick("import secrets, string\nalphabet = string.ascii_letters + string.digits\npw = ''.join(secrets.choice(alphabet) for _ in range(%d))\nprint(pw)" % n,
                   "openssl rand -base64 %d   # generate a fresh secret, don't paste it here" % n,
                   "python -c 'import secrets; print(secrets.token_urlsafe(%d))'" % n,
                   "const token = crypto.randomBytes(%d).toString('hex');" % n))


@B("dockerfile-build-secret-mount")
def _():
    sid = ch(["npm_token", "pip_conf", "github_token", "aws"])
    return BH("# syntax=docker/dockerfile:1\nFROM %s\nRUN --mount=type=secret,id=%s \\\n    %s" % (ch(["node:20", "python:3.12", "golang:1.22"]), sid, ch(["cat /run/secrets/%s > /dev/null && make build" % sid, "TOKEN=$(cat /run/secrets/%s) ./fetch-deps.sh" % sid])))


@B("secret-scanner-config")
def _():
    rid, rx, kw = ch([("stripe-live", "sk_live_[0-9a-zA-Z]{24,}", "sk_live_"), ("github-pat", "ghp_[0-9a-zA-Z]{36}", "ghp_"),
                      ("slack-bot", "xoxb-[0-9]+-[0-9]+-[0-9a-zA-Z]{24}", "xoxb-"), ("aws-akid", "AKIA[0-9A-Z]{16}", "AKIA")])
    return BH("[[rules]]\nid = \"%s\"\nregex = '''%s'''\nkeywords = [\"%s\"]" % (rid, rx, kw))


@B("regex-for-validation")
def _():
    return BH(pick("PIN_RE = re.compile(r'^\\d{4,6}$')  # validate PIN length only", "if (!/^\\d{%d}$/.test(pin)) showError('PIN must be %d digits');" % ((lambda n: (n, n))(ch([4, 5, 6]))),
                   "password field: minlength=%d, pattern must include a digit" % ri(8, 14)))


@B("login-form-html-no-values")
def _():
    return BH('<form method="post" action="/%s"><input name="%s"><input type="password" name="%s" autocomplete="current-password"><button>%s</button></form>' % (
        ch(["login", "signin", "auth"]), ch(["username", "email", "user"]), ch(["password", "pass", "pwd"]), ch(["Sign in", "Log in", "Continue"])))


@B("auth-code-flow-docs")
def _():
    return BH(pick("OAuth flow: redirect to /authorize, exchange the code at /token with the client secret from your env, store refresh token server-side",
                   "PKCE: generate a verifier per login, send only the challenge to %s, never log tokens" % ch(["Auth0", "Okta", "Google", "Keycloak"]),
                   "service-to-service auth uses short-lived tokens from the metadata server, nothing static in config"))


@B("wifi-qr-open-network")
def _():
    return BH("WIFI:T:nopass;S:%s;;  (open guest network at the café, no password)" % ch(["CafeGuest", "Library-Free", "Airport_Free_WiFi", "Bakery Guest"]))


@B("bluetooth-device-names")
def _():
    return BH("paired devices: %s, %s, JBL Flip %d" % (ch(["Pixel Buds", "AirPods Pro", "WH-1000XM4"]), ch(["Garmin Forerunner", "Kindle", "Polar H10"]), ri(3, 6)))


@B("serial-console-settings")
def _():
    return BH("router console: %d baud, 8N1, no flow control; COM%d" % (ch([9600, 38400, 115200]), ri(1, 8)))


@B("printer-ip-and-model")
def _():
    return BH("printer: Brother HL-L%dCDW at 192.168.%d.%d, toner TN-%d" % (ri(2000, 9999), ri(0, 2), ri(2, 254), ri(200, 999)))


@B("curl-public-api-no-auth", 4)
def _():
    return BH(pick("curl -s https://api.github.com/repos/%s/%s/releases/latest | jq .tag_name" % (ch(COMPANY), ch(["cli", "sdk"])),
                   "curl 'https://api.open-meteo.com/v1/forecast?latitude=%.2f&longitude=%.2f&current_weather=true'" % (R.uniform(-50, 60), R.uniform(-120, 120)),
                   "curl -I https://%s.com/health" % ch(COMPANY)))


@B("http-request-no-auth")
def _():
    return BH("GET /api/v1/products?page=%d HTTP/1.1\nHost: shop.%s.com\nAccept: application/json\nUser-Agent: curl/8.5.0" % (ri(1, 20), ch(COMPANY)))


@B("log-lines-with-ids", 4)
def _():
    return BH("\n".join("%sT%s:%02dZ INFO order=%d user_id=%s status=%s latency_ms=%d" % (rdate(), rtime(), ri(0, 59), ri(100000, 999999), uuid4()[:8], ch(["paid", "shipped", "refunded"]), ri(5, 900)) for _ in range(ri(2, 4))))


@B("csv-users-no-password")
def _():
    return BH("email,name,last_login\n" + "\n".join("%s@%s,%s,%s" % (ch(FIRST).lower(), ch(DOMAINS), ch(FIRST), rdate()) for _ in range(3)))


@B("csv-password-column-masked")
def _():
    return BH("site,username,password\n" + "\n".join("%s,%s,%s" % (ch(SITES), ch(FIRST).lower(), ch(["********", "(in manager)", "", "[hidden]"])) for _ in range(3)))


@B("markdown-table-inventory", 4)
def _():
    rows = ["| %s | %s | %s |" % (ch(["Laptop", "Monitor", "Router", "NAS", "Phone"]), rs(UPP + DIG, 10), rdate()) for _ in range(3)]
    return BH("| device | serial | bought |\n|---|---|---|\n" + "\n".join(rows))


@B("html-comment-todo")
def _():
    return BH('<section id="%s">\n  <!-- %s -->\n  <h2>%s</h2>\n</section>' % (ch(["pricing", "faq", "team"]), ch(["TODO: swap the hero image before launch", "copy approved by marketing", "keep in sync with the app"]), ch(["Plans", "Questions", "About us"])))


@B("xml-config-no-secret")
def _():
    return BH('<configuration><appSettings><add key="PageSize" value="%d"/><add key="Theme" value="%s"/></appSettings></configuration>' % (ri(10, 100), ch(["dark", "light"])))


@B("sql-password-hash-column")
def _():
    return BH("CREATE TABLE %s (\n  id BIGSERIAL PRIMARY KEY,\n  email TEXT UNIQUE NOT NULL,\n  %s TEXT NOT NULL,\n  created_at TIMESTAMPTZ DEFAULT now()\n);" % (ch(["users", "accounts", "members"]), ch(["password_hash", "pw_hash", "hashed_password"])))


@B("git-diff-no-secret")
def _():
    return BH("--- a/config.yml\n+++ b/config.yml\n@@ -1,3 +1,3 @@\n server:\n-  port: %d\n+  port: %d\n   workers: %d" % (ch([8080, 5000]), ch([8000, 9090, 3000]), ri(2, 16)))


@B("ical-event-room")
def _():
    return BH("BEGIN:VEVENT\nSUMMARY:Quarterly review\nLOCATION:Room %d, building %s\nDTSTART:%sT%s00\nEND:VEVENT" % (ri(100, 999), ch("ABC"), rdate().replace("-", ""), rtime().replace(":", "")))


@B("vcard-contact")
def _():
    return BH("BEGIN:VCARD\nVERSION:3.0\nFN:%s %s\nTEL;TYPE=cell:+44 7%d %06d\nEMAIL:%s@%s\nEND:VCARD" % (ch(FIRST), ch(LAST), ri(100, 999), ri(0, 999999), ch(FIRST).lower(), ch(DOMAINS)))


@B("sms-delivery-notification")
def _():
    return BH("SMS: Your parcel %s will be delivered %s between %s and %s. Track: https://trk.%s.com/%s" % (rs(UPP + DIG, 12), ch(WEEKDAYS), rtime(), rtime(), ch(["dhl", "dpd", "gls"]), rs(B62, 10)))


@B("sms-marketing-promo")
def _():
    return BH("SMS: %s weekend sale! Use code WEEKEND%d for %d%% off. Reply STOP to opt out" % (ch(["Zalando", "Decathlon", "Sephora"]), ri(10, 30), ch([10, 15, 20])))


@B("bank-sms-transaction-alert")
def _():
    return BH("SMS from %s: card ending %s used for %s%d.%02d at %s. Not you? Call us." % (ch(BANKS), rs(DIG, 4), ch(["€", "$", "£"]), ri(3, 300), ri(0, 99), ch(["REWE", "Shell", "Amazon", "Uber"])))


@B("email-signature-block")
def _():
    return BH("--\n%s %s\nSenior Engineer, %s\n+1 %03d %03d %04d | %s.com" % (ch(FIRST), ch(LAST), ch(COMPANY).capitalize(), ri(200, 999), ri(200, 999), ri(0, 9999), ch(COMPANY)))


@B("binary-innocuous")
def _():
    t = ch(["Hi", "Yes", "Ok", "Love"])
    return BH("binary on the nerdy birthday card: %s (= '%s')" % (" ".join("{:08b}".format(b) for b in t.encode()), t))


@B("unicode-escape-talk")
def _():
    return BH(pick("\\u2764 is a heart, \\u00e9 is é — JSON escapes are annoying", "%s asked why the export shows \\u00fc instead of ü" % ch(FIRST), "&#9731; is a snowman in HTML, cute"))


@B("homoglyph-phishing-talk")
def _():
    return BH(pick("phishing email used a Cyrillic 'а' in the domain — looked like apple.com but wasn't. reported it.", "homoglyph domain раypal.com in a text to %s, warned her" % ch(FIRST),
                   "IT newsletter: watch for look-alike domains (rn vs m, Cyrillic о vs o)"))


@B("zero-width-normal-text")
def _():
    t = F(ch(ORD_TEXT["family"]))
    return BH("\u200b".join(t.split(" ")) if coin() else t.replace(" ", " \u200b"))


@B("spaced-out-shouting")
def _():
    return BH(" ".join(ch(["HAPPY BIRTHDAY", "GAME DAY", "WE WON", "DONE"])) + " 🎉")


@B("fullwidth-aesthetic-text")
def _():
    return BH("caption for the beach photo: " + fullwidth(ch(["summer vibes", "aesthetic", "sunset club"])))


@B("math-bold-styled-post")
def _():
    return BH(math_bold(ch(["SALE", "New post", "Open House"])) + " this %s at %s" % (ch(WEEKDAYS), rtime()))


@B("reversed-text-joke")
def _():
    t = ch(["hello there", "nice try", "happy monday"])
    return BH("Leo writes everything backwards now: '%s'" % t[::-1])


@B("ascii-table-talk")
def _():
    return BH(pick("ASCII reminder: 'A' = 65, 'a' = 97, '0' = 48, space = 32", "chr(%d) is '%s' — for the coding class" % ((lambda c: (ord(c), c))(ch(UPP)))))


@B("png-header-hexdump")
def _():
    return BH("00000000: 8950 4e47 0d0a 1a0a 0000 000d 4948 4452  .PNG........IHDR\n00000010: 0000 %s 0000 %s 0806 0000 00%s  ................" % (rs(HEXL, 4), rs(HEXL, 4), rs(HEXL, 2)))


@B("ascii-art")
def _():
    return BH("  /\\_/\\\n ( o.o )\n  > ^ <   %s the cat" % ch(PETS))


@B("numbered-grocery-list", 4)
def _():
    items = sample(["bananas", "oat milk", "dish soap", "bread", "coffee filters", "tomatoes", "rice", "lentils", "yogurt", "AA batteries", "basil"], 6)
    return BH(["shopping"] + ["%d. %s" % (i + 1, x) for i, x in enumerate(items)], fixed=True)


@B("wedding-table-plan")
def _():
    return BH({"table %d" % i: sample(FIRST, 4) for i in range(1, ri(3, 5))}, fixed=True)


@B("model-weights-hash")
def _():
    return BH("downloaded %s-%dB.Q4_K_M.gguf, sha256 %s" % (ch(["mistral", "llama", "qwen"]), ch([7, 8, 13, 14]), rs(HEXL, 64)))


@B("docker-run-no-secrets")
def _():
    return BH("docker run -d -p %d:80 -v $PWD/html:/usr/share/nginx/html:ro --name site nginx:alpine" % ch([8080, 8000, 80]))


@B("split-json-fields-innocuous")
def _():
    t = ch(INNOCUOUS)
    p = split_n(t, 3)
    return BH({"part1": p[0], "part2": p[1], "part3": "".join(p[2:]), "what": "magnetic poetry from the fridge"}, fixed=True)


@B("hex-color-split-parts")
def _():
    return BH(["red %d" % ri(0, 255), "green %d" % ri(0, 255), "blue %d" % ri(0, 255), "(paint mix for the nursery)"], fixed=True)


# i18n credential talk (no values) - family per frame type
def gen_i18n_talk(per_lang):
    fams = ["i18n-credential-changed-talk", "i18n-credential-change-reminder", "i18n-credential-ask-someone"]
    for lang, L in LANGS.items():
        idx = shuffled(range(3))[:per_lang]
        for j in idx:
            nk = ch(NOUN_KEYS)
            t = L["t"][j].format(n=L["n"][nk])
            if coin(0.3):
                t = L["o"][ri(0, 3)].format(d=ri(1, 28), t=rtime(), k=ri(2, 12)) + "\n" + t
            add("benign", "hard", fams[j], fams[j], t, lang=lang, tag="family")


# ----------------------------------------------------------------------------
# shaping, context wrapping, ids, output
# ----------------------------------------------------------------------------
NEUTRAL_TAGS = ["home", "work", "family", "todo", "misc", "2024", "2025", "imported", "phone", "laptop", "inbox", "personal"]
NEUTRAL_NS3 = ["notes", "personal", "work", "chat", "inbox", "home", "travel", "imported", "voice", "2024", "2025", "misc", "journal"]
CTX_PREFIX = ["[{d}] ", "({d} {t}) ", "Hey! ", "Morning. ", "hi again — ", "{d}: ", "Saved from chat on {d}: ", "ok, ", "One more thing: ",
              "From my phone: ", "Re: earlier — ", "Quick note ({t}) "]
CTX_SUFFIX = ["\n\nalso: buy milk", "\n(unrelated: dentist on {w})", " — anyway, how was your weekend?", "\n\nP.S. call Mum back",
              "\n– sent from my phone", " (more later)", "\n\nbtw the plumber comes {w}", "\n\nps: book club moved to {w}",
              " 🙂", "\n\nok that's all for today"]
CTX_FIELDS = [("saved_at", lambda: "%sT%s:00Z" % (rdate(), rtime())), ("source", lambda: ch(["chat", "import", "voice", "web", "email"])),
              ("context", lambda: ch(["while planning the trip", "during the move", "after the call with Sam", "end of day dump"])),
              ("mood", lambda: ch(["tired", "ok", "happy", "rushed"])), ("device", lambda: ch(["iphone", "android", "laptop", "watch"])),
              ("pinned", lambda: ch([True, False])), ("lang_hint", lambda: ch(["en", "auto"]))]
CTX_ITEMS = ["(saved {d})", "unrelated: buy stamps", "— end —", "note from {w}", "see also: shopping list"]


def shape_of(v):
    return "string" if isinstance(v, str) else "object" if isinstance(v, dict) else "array"


def vlen(v):
    return len(v) if isinstance(v, str) else len(json.dumps(v, ensure_ascii=False))


def to_obj(v):
    if isinstance(v, dict):
        return v
    if isinstance(v, list):
        return ch([lambda: {"items": v}, lambda: {"entries": v, "count": len(v)}, lambda: {"list": v, "saved": rdate()}])()
    k = ri(0, 4)
    if k == 0:
        return {"note": v}
    if k == 1:
        return {"text": v, "saved": rdate()}
    if k == 2:
        return {"content": v, "tags": sample(NEUTRAL_TAGS, ri(1, 3))}
    if k == 3:
        return {"memory": v, "source": ch(["chat", "import", "voice", "web"])}
    first = v.split("\n")[0]
    return {"title": (first[:37] + "...") if len(first) > 40 else first, "body": v}


def to_arr(v):
    if isinstance(v, list):
        return v
    if isinstance(v, dict):
        if coin(0.5) or any(not isinstance(x, (str, int, float, bool, type(None))) for x in v.values()):
            return [v]
        return ["%s: %s" % (k, x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)) for k, x in v.items()]
    lines = [ln for ln in v.split("\n") if ln.strip()]
    if 1 < len(lines) <= 60:
        return lines
    return [v]


def to_str(v):
    if isinstance(v, str):
        return v
    if isinstance(v, dict):
        flat = all(isinstance(x, (str, int, float, bool, type(None))) for x in v.values())
        k = ri(0, 2)
        if k == 0 or not flat:
            return json.dumps(v, ensure_ascii=False, indent=ch([None, 2]))
        if k == 1:
            return "\n".join("%s: %s" % (a, b) for a, b in v.items())
        return "; ".join("%s=%s" % (a, b) for a, b in v.items())
    if all(isinstance(x, str) for x in v):
        k = ri(0, 2)
        if k == 0:
            return "\n".join(v)
        if k == 1:
            return "\n".join("- " + x for x in v)
        return " | ".join(v)
    return json.dumps(v, ensure_ascii=False)


CONVERT = {"string": to_str, "object": to_obj, "array": to_arr}
TARGET = {"string": 0.70, "object": 0.20, "array": 0.10}


def assign_shapes():
    for label in ("secret", "benign"):
        recs = [r for r in RECORDS if r["label"] == label]
        n = len(recs)
        fixed = [r for r in recs if r["fixed"]]
        free = [r for r in recs if not r["fixed"]]
        need = {s: round(TARGET[s] * n) - sum(1 for r in fixed if shape_of(r["value"]) == s) for s in TARGET}
        for s in need:
            need[s] = max(0, need[s])
        tot = sum(need.values())
        # scale to the number of free records
        shapes = []
        for s in ("object", "array"):
            shapes += [s] * round(need[s] * len(free) / max(tot, 1))
        shapes += ["string"] * (len(free) - len(shapes))
        R.shuffle(shapes)
        for r, s in zip(free, shapes):
            r["value"] = CONVERT[s](r["value"])


def fillctx(t):
    return t.format(d=rdate(), t=rtime(), w=ch(WEEKDAYS))


def wrap_context():
    for r in RECORDS:
        L = vlen(r["value"])
        p = 0.55 if L < 40 else 0.35 if L < 100 else 0.25 if L < 300 else 0.12
        if not coin(p):
            continue
        v = r["value"]
        if isinstance(v, str):
            k = ri(0, 2)
            if v[:1] in "{[" and k:
                k = 0
            if k == 0:
                v = fillctx(ch(CTX_PREFIX)) + v
            elif k == 1:
                v = v + fillctx(ch(CTX_SUFFIX))
            else:
                v = fillctx(ch(CTX_PREFIX)) + v + fillctx(ch(CTX_SUFFIX))
        elif isinstance(v, dict):
            v = dict(v)
            for name, f in sample(CTX_FIELDS, ri(1, 2)):
                if name not in v:
                    v[name] = f()
        else:
            v = list(v)
            item = fillctx(ch(CTX_ITEMS))
            if coin():
                v.insert(0, item)
            else:
                v.append(item)
        r["value"] = v


def finalize():
    users = ["u" + ch("123456789") + rs(DIG, ri(2, 11)) for _ in range(700)]
    counters = {}
    out = []
    for r in RECORDS:
        seg = r["segment"]
        ck = (r["label"], r["variant"], seg)
        counters[ck] = counters.get(ck, 0) + 1
        rid = "h17-%s-%s-%s-%03d" % (r["label"][0], r["variant"][0], seg, counters[ck])
        ns = ["memories", ch(users)]
        if r["ns3"]:
            ns.append(r["ns3"])
        elif coin(0.12):
            ns.append(ch(NEUTRAL_NS3))
        key = r["key"] or "mem_" + rs(HEXL, ri(8, 32))
        out.append(({"id": rid, "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": ns, "key": key,
                     "value": r["value"]}, r))
    R.shuffle(out)
    return out


def build():
    # --- secrets
    gen_vendor_plain(FORMATS, 680)
    gen_personal_plain(170, 10)
    for name, fn, n in TECH:
        for _ in range(n):
            h = fresh(fn)
            add("secret", "hard", name, h["kind"], h["value"], lang=h["lang"], key=h["key"], ns3=h["ns3"], fixed=h["fixed"], tag=name)
    # --- benign
    gen_benign_plain(380, 4)
    for name, fn, n in FAM:
        for _ in range(n):
            b = fresh(fn)
            v = b["value"]
            if isinstance(v, str) and not b["fixed"] and coin(0.3):
                t = ord_text()[1]
                v = ch(["%s\n%s", "%s — %s", "%s\n\n%s"]) % ((t, v) if coin() else (v, t))
            b["value"] = v
            add("benign", "hard", name, name, b["value"], lang=b["lang"], ns3=b["ns3"], fixed=b["fixed"], tag=name)
    gen_i18n_talk(2)
    assign_shapes()
    wrap_context()
    return finalize()


def band(n):
    return "<40" if n < 40 else "40-99" if n < 100 else "100-299" if n < 300 else "300-999" if n < 1000 else "1000+"


def stats(out):
    from collections import Counter
    recs = [o for o, _ in out]
    meta = [m for _, m in out]
    p = print
    p("total", len(recs))
    p("label x variant", Counter((r["label"], r["variant"]) for r in recs))
    p("shape", Counter((r["label"], shape_of(r["value"])) for r in recs))
    p("band", Counter((r["label"], band(vlen(r["value"]))) for r in recs))
    p("langs", sorted(Counter((m["lang"], m["label"]) for m in meta).items()))
    p("n langs secret", len({m["lang"] for m in meta if m["label"] == "secret"}), "benign", len({m["lang"] for m in meta if m["label"] == "benign"}))
    p("n langs personal", len({m["lang"] for m in meta if m["tag"] == "personal"}))
    p("vendor formats", len({m["kind"] for m in meta if m["tag"] == "vendor"}), "vendor records", sum(1 for m in meta if m["tag"] == "vendor"))
    p("personal records", sum(1 for m in meta if m["tag"] == "personal"), "kinds", len({m["kind"] for m in meta if m["tag"] == "personal"}))
    p("techniques", len({r["id"].rsplit("-", 1)[0] for r in recs if r["id"].startswith("h17-s-h-")}))
    p("families", len({r["kind"] for r in recs if r["id"].startswith("h17-b-h-")}))
    p("key/ns dependent", sum(1 for m in meta if m["label"] == "secret" and m["variant"] == "hard" and (m["key"] or m["ns3"])))
    p("secret plain segments", Counter(r["id"].split("-", 3)[3].rsplit("-", 1)[0] for r in recs if r["id"].startswith("h17-s-p-")).most_common())
    p("benign plain segments", Counter(r["id"].split("-", 3)[3].rsplit("-", 1)[0] for r in recs if r["id"].startswith("h17-b-p-")).most_common())
    ns3 = Counter((r["label"], len(r["namespace"]) == 3) for r in recs)
    p("ns3", ns3)


def main():
    out = build()
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for rec, _ in out:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    if "--stats" in sys.argv:
        stats(out)


if __name__ == "__main__":
    main()
