#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Deterministic generator for heldout20.jsonl, a held-out evaluation corpus
for a "does this memory contain an access credential?" detector.

Standard library only.  Every random choice (and the final shuffle) comes from
ONE random.Random(20112026) instance; nothing depends on set or dict-hash
ordering, the working directory or PYTHONHASHSEED.  All credential values are
synthetic: only the public *shape* of each format is reproduced.

    python3 make_heldout20.py              # (re)write heldout20.jsonl next to this file
    python3 make_heldout20.py --stats      # same, then print count tables and the sha256
    python3 make_heldout20.py --tables-md  # same, then print markdown composition tables
"""
import base64
import binascii
import codecs
import hashlib
import json
import os
import quopri
import re
import string
import sys
import unicodedata
import urllib.parse
import random

SEED = 20112026
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout20.jsonl")

ch = R.choice
ri = R.randint


def chance(p):
    return R.random() < p


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def sample(seq, k):
    return R.sample(list(seq), k)


UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
ALNUM = UP + LO + DG
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
CRYPT = "./" + DG + UP + LO
ALPH = {
    "a": ALNUM, "A": UP + DG, "l": LO + DG, "h": "0123456789abcdef",
    "H": "0123456789ABCDEF", "d": DG, "b": ALNUM + "+/", "u": ALNUM + "-_",
    "U": UP, "L": LO, "m": B58, "z": BECH, "Z": BECH.upper(),
    "c": "0123456789ABCDEFGHJKMNPQRSTVWXYZ", "g": "ABCDEFGHJKLMNPQRSTUVWXYZ23456789",
    "n": "123456789", "y": CRYPT,
}

# ---------------------------------------------------------------- word pools
WORDS = ("amber anchor apex arc aspen atlas aurora basil beacon birch bison bloom boulder brook "
         "cactus canyon cedar cinder citrus clover cobalt comet coral cosmos cricket crystal cypress "
         "dahlia delta dune echo ember falcon fern fjord flint galaxy garnet glacier granite harbor "
         "hazel heron indigo iris ivy jade jasper juniper kelp lagoon lark lotus lumen lynx maple "
         "marble meadow mesa mist moss nebula nectar nova oak oasis onyx orbit orchid otter pebble "
         "pepper pine plume polar prairie quartz quill raven reef ridge river robin saffron sage "
         "sierra slate sparrow spruce summit tundra valley velvet willow zephyr").split()
HWORDS = ("sunflower pancake tiger summer coffee river mango rocket velvet dragon pepper biscuit "
          "marble winter ocean pumpkin falcon cookie butter galaxy banana maple thunder lemon violet "
          "hazel garden harbor penguin cactus jasmine walnut cherry pirate comet lantern meadow pickle "
          "turtle cobalt willow cinnamon puffin nutmeg saturn orchid zebra koala bramble muffin "
          "rainbow dolphin tulip blueberry hedgehog waffle").split()
FIRST = ("Anna Ben Carlos Dana Elif Femi Grace Hiro Ines Jonas Kavya Liam Mei Nadia Omar Priya "
         "Quinn Rosa Sven Tariq Uma Viktor Wen Yusuf Zoe Aiko Bruno Chloe Diego Emma Farah Gabriel "
         "Hana Ivan Jamal Katja Leila Mateo Noor Olga Pedro Ravi Sofia Tomas Ulla Valentina Wiktor "
         "Xin Yara Zainab Amara Bilal Camille Dmitri Esther Kofi Lucia Marek Nina Oskar").split()
SURN = ("Schmidt Okafor Tanaka Garcia Novak Kowalski Rossi Nguyen Haddad Johansson Muller Dubois "
        "Silva Petrov Kim Shah Larsen Moreau Costa Yilmaz Ivanova Fischer Hughes Mensah Bianchi "
        "Sato Ahmed Lindqvist OBrien Papadopoulos Horvath Jensen Andersen Popescu Kaur Mendes "
        "Fernandes Wojcik Dvorak Nakamura Castillo Abara Brennan Whitfield Kapoor").split()
CITIES = ("Lisbon Porto Leeds Lyon Graz Krakow Utrecht Gothenburg Bologna Valencia Austin Denver "
          "Toronto Osaka Pune Nairobi Accra Cork Tallinn Ghent Bergen Malaga Turin Brno Adelaide "
          "Auckland Halifax Tucson Boise Dresden").split()
STREETS = ["Maple Ave", "Elm Street", "Rue des Lilas", "Hauptstrasse", "Calle Mayor", "Via Roma",
           "Oak Lane", "Kingsway", "Birch Road", "Harbour View", "Linden Allee", "Station Road",
           "Chestnut Close", "Mill Lane", "Park Crescent", "Rua Augusta", "Canal Street"]
MAILDOM = ["gmail.com", "outlook.com", "proton.me", "yahoo.com", "icloud.com", "gmx.de",
           "fastmail.com", "hotmail.co.uk", "web.de", "orange.fr", "libero.it", "hey.com", "pm.me"]
CORP = ["acme-corp.io", "northwind.dev", "bluepeak.net", "fabrikam.cloud", "contoso-labs.com",
        "initech.io", "globex.net", "umbrella-labs.com", "hooli.xyz", "vandelay.co",
        "tyrell.systems", "wonka.io", "soylent.app", "oscorp.tech", "larkspur.io", "tidewater.dev",
        "quillstack.com", "brightforge.net", "oakridge-data.com", "kestrel.cloud"]
APPS = ["billing-api", "checkout", "search-svc", "notifier", "ledger", "webshop", "crm-sync",
        "reporting", "auth-gateway", "media-worker", "scheduler", "inventory", "mobile-bff",
        "data-pipeline", "support-bot", "analytics", "ingest", "payouts", "chat-relay", "docs-site"]
ENVS = ["prod", "production", "staging", "dev", "qa", "uat", "sandbox", "preprod"]
PETS = ["Biscuit", "Luna", "Pepper", "Milo", "Nala", "Rocky", "Mochi", "Ziggy", "Olive", "Bruno",
        "Tofu", "Pixel", "Maple", "Coco", "Sherlock"]
TAGS = ["personal", "home", "todo", "misc", "2024", "2025", "work", "later", "inbox", "family",
        "phone", "saved", "quick", "ref", "weekend"]
NS3 = ["notes", "work", "inbox", "personal", "home", "archive", "misc", "projects", "journal",
       "family", "travel", "dev", "shared", "phone", "import", "scratch", "reference", "weekly"]
TITLES = ["Note", "Misc", "From phone", "Untitled", "Saved", "Quick note", "Reminder", "Memo",
          "Scratch", "Copied", "Keep", "Info", "Pinned"]


def first():
    return ch(FIRST)


def surname():
    return ch(SURN)


def full_name():
    return f"{first()} {surname()}"


def email(corp=False):
    dom = ch(CORP) if corp else ch(MAILDOM)
    f, s = first().lower(), surname().lower()
    k = ri(0, 3)
    local = [f"{f}.{s}", f"{f[0]}{s}", f"{f}{ri(1, 99)}", f"{s}.{f[0]}"][k]
    return f"{local}@{dom}"


def host():
    k = ri(0, 3)
    if k == 0:
        return f"{ch(WORDS)}-{ch(['db', 'api', 'cache', 'mq', 'app', 'web', 'core', 'svc', 'gw'])}{ri(1, 9)}.{ch(CORP)}"
    if k == 1:
        return f"{ch(['api', 'db', 'mail', 'vpn', 'git', 'ci', 'grafana', 'kibana'])}.{ch(CORP)}"
    if k == 2:
        return f"{ch(APPS)}.{ch(['internal', 'svc.cluster.local', 'corp.lan', 'eu-west-1.compute.internal'])}"
    return f"{ch(WORDS)}{ri(1, 40):02d}.{ch(CORP)}"


def dbname():
    return ch(["app", "prod", "main", "orders", "billing", "analytics", "users", "crm", "inventory",
               "ledger", "shop", "events", "warehouse", "wiki"]) + ch(["", "", "_" + ch(ENVS)])


def uname():
    k = ri(0, 5)
    return [ch(["admin", "app", "deploy", "backend", "etl", "api", "root", "service"]),
            "svc_" + ch(WORDS), first().lower() + str(ri(1, 99)), ch(APPS).replace("-", "_"),
            f"{first().lower()}.{surname().lower()}", ch(["postgres", "dbadmin", "app_rw", "reporting_ro"])][k]


def leet(w):
    m = {"a": "4@", "e": "3", "i": "1!", "o": "0", "s": "$5", "t": "7"}
    return "".join(ch(m[c]) if c in m and chance(0.5) else c for c in w)


def pw_human():
    k = ri(0, 8)
    w1, w2 = ch(HWORDS), ch(HWORDS)
    if k == 0:
        return w1.capitalize() + w2.capitalize() + str(ri(1, 9999)) + ch("!?#$*.")
    if k == 1:
        return w1 + str(ri(1960, 2024)) + ch(["!", "!!", "#", "", "?"])
    if k == 2:
        return leet(w1).capitalize() + ch("#_-!") + str(ri(10, 999))
    if k == 3:
        return "-".join(ch(HWORDS) for _ in range(ri(3, 4)))
    if k == 4:
        return first() + str(ri(1, 28)).zfill(2) + str(ri(60, 99)) + ch("!@")
    if k == 5:
        return w1.capitalize() + "." + w2 + "." + str(ri(10, 99))
    if k == 6:
        return rs(ALNUM, ri(10, 14))
    if k == 7:
        return w1.upper()[:3] + rs(DG, 3) + w2 + ch("%&*")
    return ch(PETS) + ch(["", "_", "."]) + w2 + str(ri(1, 99)) + ch("!$")


SYM = "!@#$%^&*-_=+?~"


def pw_strong(n=None):
    n = n or ri(12, 22)
    while True:
        s = rs(ALNUM + SYM, n)
        if any(c.isdigit() for c in s) and any(c in SYM for c in s) and any(c.isupper() for c in s):
            return s


def pw_url(n=None):
    n = n or ri(14, 28)
    return rs(ALNUM + "-_.", n)


def pw_any():
    return pw_human() if chance(0.5) else pw_strong()


def digits(n, lead_nonzero=False):
    s = rs(DG, n)
    if lead_nonzero and s[0] == "0":
        s = ch("123456789") + s[1:]
    return s


def pin(n=4):
    while True:
        s = rs(DG, n)
        if len(set(s)) > 1 and s not in ("1234", "123456", "0000"):
            return s


def iso_date(y0=2023, y1=2026):
    return f"{ri(y0, y1)}-{ri(1, 12):02d}-{ri(1, 28):02d}"


def iso_ts():
    return f"{iso_date()}T{ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}Z"


def hhmm():
    return f"{ri(6, 21)}:{ch(['00', '15', '30', '45', '10', '20', '40', '50'])}"


def phone():
    k = ri(0, 6)
    if k == 0:
        return f"({ri(201, 989)}) 555-01{ri(0, 99):02d}"
    if k == 1:
        return f"+44 7{ri(100, 999)} {ri(100000, 999999)}"
    if k == 2:
        return f"+49 15{ri(1, 9)} {ri(1000000, 9999999)}"
    if k == 3:
        return f"06 {ri(10, 99)} {ri(10, 99)} {ri(10, 99)} {ri(10, 99)}"
    if k == 4:
        return f"+34 6{ri(10, 99)} {ri(100, 999)} {ri(100, 999)}"
    if k == 5:
        return f"+1-{ri(201, 989)}-555-{ri(100, 199):04d}"
    return f"0{ri(20, 99)} {ri(1000, 9999)} {ri(1000, 9999)}"


# ---------------------------------------------------------------- encoders
def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b64s(s):
    return base64.b64encode(s.encode()).decode()


def pem(label, der, width=64):
    body = base64.b64encode(der).decode()
    lines = [body[i:i + width] for i in range(0, len(body), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def crc24(data):
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_armor(label, data):
    body = base64.b64encode(data).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    c = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return f"-----BEGIN PGP {label}-----\n\n" + "\n".join(lines) + f"\n={c}\n-----END PGP {label}-----"


def sstr(b):
    return len(b).to_bytes(4, "big") + b


def bech32_polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def convertbits(data, frombits=8, tobits=5):
    acc, bits, out, maxv = 0, 0, [], (1 << tobits) - 1
    for v in data:
        acc = (acc << frombits) | v
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            out.append((acc >> bits) & maxv)
    if bits:
        out.append((acc << (tobits - bits)) & maxv)
    return out


def bech32(hrp, data5):
    exp = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = bech32_polymod(exp + data5 + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[d] for d in data5 + chk)


def b58enc(b):
    n = int.from_bytes(b, "big")
    s = ""
    while n:
        n, r = divmod(n, 58)
        s = B58[r] + s
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + s


def b58check(payload):
    return b58enc(payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4])


def luhn_digit(body):
    s = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


# Published test card numbers (allowed ONLY in benign records, marked as test numbers).
TEST_CARDS = [
    ("Visa", "4242424242424242"), ("Visa", "4111111111111111"), ("Visa", "4012888888881881"),
    ("Visa (debit)", "4000056655665556"), ("Mastercard", "5555555555554444"),
    ("Mastercard", "2223003122003222"), ("Mastercard (debit)", "5200828282828210"),
    ("Mastercard", "5105105105105100"), ("American Express", "378282246310005"),
    ("American Express", "371449635398431"), ("Discover", "6011111111111117"),
    ("Diners Club", "3056930009020004"), ("Diners Club", "36227206271667"),
    ("JCB", "3566002020360505"), ("UnionPay", "6200000000000005"),
]
TEST_SET = set(n for _, n in TEST_CARDS)
BRANDS = [
    ("Visa", lambda: "4", 16), ("Mastercard", lambda: str(ri(51, 55)), 16),
    ("Mastercard", lambda: str(ri(2221, 2720)), 16), ("Amex", lambda: ch(["34", "37"]), 15),
    ("Discover", lambda: ch(["6011", "65", str(ri(644, 649))]), 16),
    ("JCB", lambda: str(ri(3528, 3589)), 16), ("Diners Club", lambda: ch(["36", "38"]), 14),
    ("UnionPay", lambda: "62" + str(ri(2126, 2925))[:2], 16), ("Maestro", lambda: ch(["6759", "5018", "5020"]), 16),
    ("Mir", lambda: str(ri(2200, 2204)), 16), ("Elo", lambda: ch(["636368", "438935", "504175"]), 16),
    ("RuPay", lambda: ch(["6521", "6522", "508"]), 16), ("Visa", lambda: "4", 16), ("Mastercard", lambda: str(ri(51, 55)), 16),
]


def card_number(brand=None):
    while True:
        b = ch(BRANDS) if brand is None else brand
        pre = b[1]()
        body = pre + rs(DG, b[2] - 1 - len(pre))
        num = body + luhn_digit(body)
        if num not in TEST_SET and len(set(num[len(pre):])) > 3:
            return b[0], num


def fmt_card(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    if len(num) == 14:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


def card_exp():
    return f"{ri(1, 12):02d}/{ri(26, 31)}"


def cvv(brand):
    return rs(DG, 4 if brand == "Amex" else 3)


def iban(cc=None):
    cc = cc or ch(["DE", "GB", "FR", "NL", "ES", "IT", "BE", "AT", "IE", "PT"])
    bban = {"DE": lambda: rs(DG, 18), "GB": lambda: rs(UP, 4) + rs(DG, 14),
            "FR": lambda: rs(DG, 10) + rs(DG, 11) + rs(DG, 2), "NL": lambda: rs(UP, 4) + rs(DG, 10),
            "ES": lambda: rs(DG, 20), "IT": lambda: ch(UP) + rs(DG, 10) + rs(DG, 12),
            "BE": lambda: rs(DG, 12), "AT": lambda: rs(DG, 16), "IE": lambda: rs(UP, 4) + rs(DG, 14),
            "PT": lambda: rs(DG, 21)}[cc]()
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    chk = 98 - int(num) % 97
    s = f"{cc}{chk:02d}{bban}"
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


VIN_T = {c: v for c, v in zip("ABCDEFGHJKLMNPRSTUVWXYZ", [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 7, 9, 2, 3, 4, 5, 6, 7, 8, 9])}
VIN_W = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]


def vin():
    al = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    v = list(ch(["1HG", "WVW", "JHM", "5YJ", "WBA", "VF1", "KMH", "SAL", "ZFA", "YV1", "3FA", "1FT", "JTD", "TMB"]) + rs(al, 14))
    s = sum((int(c) if c.isdigit() else VIN_T[c]) * w for c, w in zip(v, VIN_W))
    v[8] = "X" if s % 11 == 10 else str(s % 11)
    return "".join(v)


def imei():
    body = ch(["35", "86", "01", "49"]) + rs(DG, 12)
    return body + luhn_digit(body)


def nhs():
    while True:
        d = rs(DG, 9)
        s = sum(int(c) * w for c, w in zip(d, range(10, 1, -1)))
        c = 11 - s % 11
        if c == 11:
            c = 0
        if c != 10:
            n = d + str(c)
            return f"{n[:3]} {n[3:6]} {n[6:]}"


def aba():
    while True:
        d = rs(DG, 8)
        w = [3, 7, 1, 3, 7, 1, 3, 7]
        s = sum(int(c) * x for c, x in zip(d, w))
        c = (10 - s % 10) % 10
        return d + str(c)


def dni():
    n = ri(10000000, 99999999)
    return f"{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def iso_week():
    return ch(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])


# ---------------------------------------------------------------- key material
def jwt(kind=None):
    kind = kind or "user"
    alg = ch(["HS256", "RS256", "ES256"])
    hdr = {"alg": alg, "typ": "JWT"}
    if chance(0.4):
        hdr["kid"] = rs(ALNUM, ri(8, 16))
    now = ri(1700000000, 1790000000)
    if kind == "service_role" or kind == "anon":
        pl = {"iss": "supabase", "ref": rs(LO, 20), "role": kind, "iat": now, "exp": now + 315360000}
    elif kind == "k8s":
        ns = ch(["default", "ci", "monitoring", "payments", "kube-system"])
        sa = ch(["deployer", "builder", "argocd", "ci-runner", "prometheus"])
        pl = {"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": ns,
              "kubernetes.io/serviceaccount/secret.name": f"{sa}-token-{rs(LO + DG, 5)}",
              "kubernetes.io/serviceaccount/service-account.name": sa, "sub": f"system:serviceaccount:{ns}:{sa}"}
    elif kind == "ha":
        pl = {"iss": rs("0123456789abcdef", 32), "iat": now, "exp": now + 315360000}
    else:
        pl = {"sub": ch([str(ri(1000, 9999999)), rs("0123456789abcdef", 24), f"auth0|{rs('0123456789abcdef', 24)}"]),
              "iat": now, "exp": now + ch([900, 3600, 86400, 2592000])}
        if chance(0.6):
            pl["iss"] = f"https://{ch(['auth', 'login', 'id', 'sso'])}.{ch(CORP)}/"
        if chance(0.5):
            pl["scope"] = ch(["read write", "openid profile email", "admin", "api:all", "orders:read orders:write"])
        if chance(0.4):
            pl["email"] = email()
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(pl, separators=(",", ":")).encode())
    sig = b64u(rbytes({"HS256": 32, "RS256": 256, "ES256": 64}[alg]))
    return f"{h}.{p}.{sig}"


def rsa_der(bits=2048):
    if bits == 1024:
        pre = bytes.fromhex("3082025d02010002818100")
        return pre + rbytes(609 - len(pre))
    pre = bytes.fromhex("308204a40201000282010100")
    return pre + rbytes(1192 - len(pre))


def pem_rsa(arg=None):
    return pem("RSA PRIVATE KEY", rsa_der(1024 if arg == "1024" else 2048))


def pem_ec(_=None):
    d = bytes.fromhex("30770201010420") + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rbytes(64)
    return pem("EC PRIVATE KEY", d)


def pem_p8(_=None):
    pre = bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100")
    return pem("PRIVATE KEY", pre + rbytes(1218 - len(pre)))


def pem_p8ed(_=None):
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rbytes(32))


def pem_p8ec(_=None):
    d = (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + rbytes(32)
         + bytes.fromhex("a14403420004") + rbytes(64))
    return pem("PRIVATE KEY", d)


def pem_dsa(_=None):
    pre = bytes.fromhex("308201bb02010002818100")
    return pem("DSA PRIVATE KEY", pre + rbytes(0x1bb + 4 - len(pre)))


def ossh_ed(_=None):
    pub, seed = rbytes(32), rbytes(32)
    pubblob = sstr(b"ssh-ed25519") + sstr(pub)
    chk = rbytes(4)
    comment = f"{uname()}@{ch(WORDS)}-{ch(['laptop', 'mbp', 'desktop', 'build', 'ci'])}".encode()
    priv = chk + chk + sstr(b"ssh-ed25519") + sstr(pub) + sstr(seed + pub) + sstr(comment)
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = (b"openssh-key-v1\0" + sstr(b"none") + sstr(b"none") + sstr(b"") + (1).to_bytes(4, "big")
            + sstr(pubblob) + sstr(priv))
    return pem("OPENSSH PRIVATE KEY", blob, 70)


def ossh_rsa(_=None):
    e, n = b"\x01\x00\x01", b"\x00" + rbytes(256)
    pubblob = sstr(b"ssh-rsa") + sstr(e) + sstr(n)
    chk = rbytes(4)
    priv = (chk + chk + sstr(b"ssh-rsa") + sstr(n) + sstr(e) + sstr(rbytes(256)) + sstr(b"\x00" + rbytes(128))
            + sstr(b"\x00" + rbytes(128)) + sstr(b"\x00" + rbytes(128)) + sstr(f"{uname()}@{ch(WORDS)}".encode()))
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = (b"openssh-key-v1\0" + sstr(b"none") + sstr(b"none") + sstr(b"") + (1).to_bytes(4, "big")
            + sstr(pubblob) + sstr(priv))
    return pem("OPENSSH PRIVATE KEY", blob, 70)


def pgp_priv(_=None):
    data = bytes([0x95, 0x01, 0xD8, 0x04]) + rbytes(4) + bytes([0x16, 0x09, 0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01, 0x01, 0x07, 0x40]) + rbytes(ri(300, 520))
    return pgp_armor("PRIVATE KEY BLOCK", data)


def putty(_=None):
    pubblob = sstr(b"ssh-ed25519") + sstr(rbytes(32))
    pb = b64(pubblob)
    pl = [pb[i:i + 64] for i in range(0, len(pb), 64)]
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n"
            f"Comment: eddsa-key-{ri(2022, 2025)}{ri(1, 12):02d}{ri(1, 28):02d}\n"
            f"Public-Lines: {len(pl)}\n" + "\n".join(pl) + "\nPrivate-Lines: 1\n" + b64(sstr(rbytes(32)))
            + "\nPrivate-MAC: " + rs(ALPH["h"], 64))


def ovpn_static(_=None):
    return ("#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n"
            + "\n".join(rs(ALPH["h"], 32) for _ in range(16)) + "\n-----END OpenVPN Static key V1-----")


def gsa_json(_=None):
    proj = f"{ch(WORDS)}-{ch(WORDS)}-{ri(100000, 999999)}"
    sa = ch(["deployer", "ci-runner", "bq-loader", "terraform", "backup", "firebase-adminsdk-" + rs(LO, 5)])
    d = {"type": "service_account", "project_id": proj, "private_key_id": rs(ALPH["h"], 40),
         "private_key": pem_p8() + "\n", "client_email": f"{sa}@{proj}.iam.gserviceaccount.com",
         "client_id": rs(DG, 21), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
         "token_uri": "https://oauth2.googleapis.com/token"}
    return json.dumps(d)


def jwk_priv(_=None):
    if chance(0.5):
        d = {"kty": "EC", "crv": "P-256", "x": b64u(rbytes(32)), "y": b64u(rbytes(32)), "d": b64u(rbytes(32)),
             "kid": rs(ALNUM, 10)}
    else:
        d = {"kty": "OKP", "crv": "Ed25519", "x": b64u(rbytes(32)), "d": b64u(rbytes(32)), "use": "sig"}
    return json.dumps(d)


def wif(_=None):
    return b58check(b"\x80" + rbytes(32) + b"\x01")


def xprv(_=None):
    return b58check(bytes.fromhex("0488ade4") + b"\0" * 9 + rbytes(32) + b"\0" + rbytes(32))


def xpub(_=None):
    return b58check(bytes.fromhex("0488b21e") + b"\0" * 9 + rbytes(32) + bytes([ch([2, 3])]) + rbytes(32))


def nsec(_=None):
    return bech32("nsec", convertbits(rbytes(32)))


def npub(_=None):
    return bech32("npub", convertbits(rbytes(32)))


def agesec(_=None):
    return bech32("age-secret-key-", convertbits(rbytes(32))).upper()


def agepub(_=None):
    return bech32("age", convertbits(rbytes(32)))


def btc_addr(_=None):
    if chance(0.5):
        return bech32("bc", [0] + convertbits(rbytes(20)))
    return b58check(b"\x00" + rbytes(20))


def sol_kp(_=None):
    return "[" + ",".join(str(b) for b in rbytes(64)) + "]"


def ssh_pub(kind=None):
    kind = kind or ch(["ed", "rsa", "ecdsa"])
    if kind == "ed":
        t, blob = "ssh-ed25519", sstr(b"ssh-ed25519") + sstr(rbytes(32))
    elif kind == "rsa":
        t, blob = "ssh-rsa", sstr(b"ssh-rsa") + sstr(b"\x01\x00\x01") + sstr(b"\x00" + rbytes(256))
    else:
        t, blob = "ecdsa-sha2-nistp256", sstr(b"ecdsa-sha2-nistp256") + sstr(b"nistp256") + sstr(b"\x04" + rbytes(64))
    return f"{t} {b64(blob)} {uname()}@{ch(WORDS)}-{ch(['laptop', 'mbp', 'desktop', 'pc'])}"


def pem_pub(_=None):
    if chance(0.5):
        return pem("PUBLIC KEY", bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + rbytes(64))
    return pem("PUBLIC KEY", bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
               + rbytes(256) + bytes.fromhex("0203010001"))


def cert(_=None):
    n = ri(0x380, 0x5A0)
    d = bytes.fromhex(f"3082{n:04x}3082{n - 0xF0:04x}a0030201020210") + rbytes(n + 4 - 15)
    return pem("CERTIFICATE", d)


def csr(_=None):
    n = ri(0x290, 0x2C0)
    d = bytes.fromhex(f"3082{n:04x}3082{n - 0x110:04x}020100") + rbytes(n + 4 - 11)
    return pem("CERTIFICATE REQUEST", d)


def pgp_pub(_=None):
    data = bytes([0x99, 0x02, 0x0D, 0x04]) + rbytes(4) + bytes([0x01, 0x10, 0x00]) + rbytes(ri(500, 700))
    return pgp_armor("PUBLIC KEY BLOCK", data)


def pgp_msg(_=None):
    data = bytes([0x85, 0x02, 0x0C, 0x03]) + rbytes(ri(300, 600))
    return pgp_armor("MESSAGE", data)


def crypt_str(n):
    return rs(CRYPT, n)


def pw_hash(kind=None):
    kind = kind or ch(["bcrypt", "argon2", "sha512crypt", "sha256crypt", "md5crypt", "apr1", "yescrypt",
                       "django", "werkzeug", "scram", "ssha", "phpass", "drupal", "cisco8", "cisco9"])
    if kind == "bcrypt":
        return f"$2{ch('aby')}${ch(['10', '11', '12', '13'])}$" + crypt_str(53)
    if kind == "argon2":
        return (f"$argon2id$v=19$m={ch(['65536', '19456', '47104'])},t={ri(2, 4)},p={ri(1, 4)}$"
                + b64(rbytes(16)).rstrip("=") + "$" + b64(rbytes(32)).rstrip("="))
    if kind == "sha512crypt":
        return "$6$" + crypt_str(16) + "$" + crypt_str(86)
    if kind == "sha256crypt":
        return "$5$rounds=" + str(ri(5000, 80000)) + "$" + crypt_str(16) + "$" + crypt_str(43)
    if kind == "md5crypt":
        return "$1$" + crypt_str(8) + "$" + crypt_str(22)
    if kind == "apr1":
        return "$apr1$" + crypt_str(8) + "$" + crypt_str(22)
    if kind == "yescrypt":
        return "$y$j9T$" + crypt_str(22) + "$" + crypt_str(43)
    if kind == "django":
        return f"pbkdf2_sha256${ch(['600000', '720000', '870000'])}$" + rs(ALNUM, 22) + "$" + b64(rbytes(32))
    if kind == "werkzeug":
        return f"scrypt:32768:8:1${rs(ALNUM, 16)}${rs(ALPH['h'], 128)}" if chance(0.5) else f"pbkdf2:sha256:600000${rs(ALNUM, 16)}${rs(ALPH['h'], 64)}"
    if kind == "scram":
        return f"SCRAM-SHA-256$4096:{b64(rbytes(16))}${b64(rbytes(32))}:{b64(rbytes(32))}"
    if kind == "ssha":
        return "{SSHA}" + b64(rbytes(24))
    if kind == "phpass":
        return "$P$B" + crypt_str(30)
    if kind == "drupal":
        return "$S$E" + crypt_str(51)
    if kind == "cisco8":
        return "$8$" + crypt_str(14) + "$" + crypt_str(43)
    return "$9$" + crypt_str(14) + "$" + crypt_str(43)


def sops_val(_=None):
    return (f"ENC[AES256_GCM,data:{b64(rbytes(ri(12, 40)))},iv:{b64(rbytes(32))},"
            f"tag:{b64(rbytes(16))},type:str]")


def ansible_vault(_=None):
    hexed = binascii.hexlify(binascii.hexlify(rbytes(32)) + b"\n" + binascii.hexlify(rbytes(32)) + b"\n" + binascii.hexlify(rbytes(ri(16, 64)))).decode()
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(hexed[i:i + 80] for i in range(0, len(hexed), 80))


def age_enc(_=None):
    hdr = b"age-encryption.org/v1\n-> X25519 " + b64(rbytes(32)).rstrip("=").encode() + b"\n" + b64(rbytes(32)).rstrip("=").encode() + b"\n--- " + b64(rbytes(32)).rstrip("=").encode() + b"\n"
    body = b64(hdr + rbytes(ri(40, 120)))
    return "-----BEGIN AGE ENCRYPTED FILE-----\n" + "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) + "\n-----END AGE ENCRYPTED FILE-----"


def kms_blob(_=None):
    return "AQICAHh" + b64(rbytes(ri(150, 190)))[7:]


def ossl_salted(_=None):
    return b64(b"Salted__" + rbytes(8) + rbytes(16 * ri(1, 4)))


def md5h(_=None):
    return rs(ALPH["h"], 32)


def sha1h(_=None):
    return rs(ALPH["h"], 40)


def sha256h(_=None):
    return rs(ALPH["h"], 64)


def sha512h(_=None):
    return rs(ALPH["h"], 128)


def uuid4(_=None):
    h = rs(ALPH["h"], 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{ch('89ab')}{h[17:20]}-{h[20:]}"


def ulid(_=None):
    return rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[:8], 1) + rs(ALPH["c"], 25)


SPECIAL = {
    "uuid": uuid4, "UUID": lambda a: uuid4().upper(), "user": lambda a: uname(), "email": lambda a: email(a == "corp"),
    "host": lambda a: host(), "word": lambda a: ch(WORDS), "db": lambda a: dbname(), "pw": lambda a: pw_strong(int(a) if a else None),
    "upw": lambda a: pw_url(int(a) if a else None), "hpw": lambda a: pw_human(), "first": lambda a: first(),
    "surname": lambda a: surname(), "name": lambda a: full_name(), "city": lambda a: ch(CITIES),
    "ip": lambda a: f"10.{ri(0, 255)}.{ri(0, 255)}.{ri(2, 254)}", "pubip": lambda a: f"{ri(11, 223)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}",
    "jwt": jwt, "b64": lambda a: b64(rbytes(int(a))), "b64u": lambda a: b64u(rbytes(int(a))),
    "sigenc": lambda a: urllib.parse.quote(b64(rbytes(32)), safe=""),
    "pem_rsa": pem_rsa, "pem_ec": pem_ec, "pem_p8": pem_p8, "pem_p8ed": pem_p8ed, "pem_p8ec": pem_p8ec,
    "pem_dsa": pem_dsa, "ossh_ed": ossh_ed, "ossh_rsa": ossh_rsa, "pgp_priv": pgp_priv, "putty": putty,
    "ovpn_static": ovpn_static, "gsa_json": gsa_json, "jwk_priv": jwk_priv, "wif": wif, "xprv": xprv,
    "nsec": nsec, "agesec": agesec, "sol_kp": sol_kp, "xpub": xpub, "npub": npub, "agepub": agepub,
    "btc_addr": btc_addr, "sshpub": ssh_pub, "pem_pub": pem_pub, "cert": cert, "csr": csr, "pgp_pub": pgp_pub,
    "pgp_msg": pgp_msg, "pwhash": pw_hash, "sops": sops_val, "avault": ansible_vault, "age_enc": age_enc,
    "kms_blob": kms_blob, "ossl_salted": ossl_salted, "md5": md5h, "sha1": sha1h, "sha256": sha256h,
    "sha512": sha512h, "iban": lambda a: iban(a), "vin": lambda a: vin(), "imei": lambda a: imei(),
    "nhs": lambda a: nhs(), "aba": lambda a: aba(), "dni": lambda a: dni(), "phone": lambda a: phone(),
    "date": lambda a: iso_date(), "ts": lambda a: iso_ts(), "time": lambda a: hhmm(), "ulid": ulid,
    "yr": lambda a: str(ri(1950, 2005)), "app": lambda a: ch(APPS), "env": lambda a: ch(ENVS),
    "corp": lambda a: ch(CORP), "pet": lambda a: ch(PETS), "street": lambda a: ch(STREETS),
    "num": lambda a: str(ri(*[int(x) for x in a.split("-")])) if a else str(ri(1, 99)),
    "pick": lambda a: ch(a.split("|")), "pin": lambda a: pin(int(a) if a else 4),
    "gitsha": sha1h, "wgkey": lambda a: b64(rbytes(32)), "region": lambda a: ch(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ap-northeast-1", "sa-east-1"]),
}

PH = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::([^{}]*))?\}")


def fill(t):
    def rep(m):
        name, arg = m.group(1), m.group(2)
        if name in ALPH and arg is not None and arg.isdigit():
            return rs(ALPH[name], int(arg))
        fn = SPECIAL.get(name)
        if fn is None:
            return m.group(0)
        return fn(arg)
    return PH.sub(rep, t)

# ====================================================================== vendor catalogue
# Hand-written list of credential *shapes*.  Each entry: vendor/product, category, one or
# more NAME=pattern fields (all fields together form ONE credential), optional auth header
# template for HTTP renderings and optional API host.
CAT = []


def v(vendor, cat, *fields, hdr=None, api=None):
    CAT.append({"vendor": vendor, "cat": cat, "fields": [tuple(f.split("=", 1)) for f in fields],
                "hdr": hdr, "api": api})


# --- cloud / infrastructure
v("AWS IAM user", "cloud", "AWS_ACCESS_KEY_ID=AKIA{A:16}", "AWS_SECRET_ACCESS_KEY={b:40}")
v("AWS STS session", "cloud", "AWS_ACCESS_KEY_ID=ASIA{A:16}", "AWS_SECRET_ACCESS_KEY={b:40}", "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{b:20}{b:240}")
v("AWS secret key only", "cloud", "aws_secret_access_key={b:40}")
v("Google Cloud API key", "cloud", "GOOGLE_API_KEY=AIza{u:35}", hdr="X-Goog-Api-Key: {v}", api="generativelanguage.googleapis.com")
v("Google Cloud service account", "cloud", "GOOGLE_CREDENTIALS={gsa_json}")
v("Google OAuth client", "identity", "GOOGLE_CLIENT_ID={d:12}-{l:32}.apps.googleusercontent.com", "GOOGLE_CLIENT_SECRET=GOCSPX-{u:28}")
v("Google OAuth refresh token", "identity", "GOOGLE_REFRESH_TOKEN=1//0{u:6}{u:90}")
v("Google OAuth access token", "identity", "GOOGLE_ACCESS_TOKEN=ya29.a0{u:150}")
v("Azure Storage", "cloud", "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={l:12};AccountKey={b64:64};EndpointSuffix=core.windows.net")
v("Azure Storage account key", "cloud", "AZURE_STORAGE_ACCOUNT={l:14}", "AZURE_STORAGE_KEY={b64:64}")
v("Azure Blob SAS URL", "cloud", "BLOB_SAS_URL=https://{l:12}.blob.core.windows.net/{word}?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-12-31T23:59:59Z&st=2025-01-01T00:00:00Z&spr=https&sig={sigenc}")
v("Azure AD app", "identity", "AZURE_CLIENT_ID={uuid}", "AZURE_TENANT_ID={uuid}", "AZURE_CLIENT_SECRET={a:3}8Q~{u:31}")
v("Azure Service Bus", "cloud", "SERVICEBUS_CONNECTION=Endpoint=sb://{l:10}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64:32}")
v("Azure Event Hubs", "cloud", "EVENTHUB_CONNECTION_STRING=Endpoint=sb://{l:9}-ehns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b64:32};EntityPath={word}")
v("Azure Cosmos DB", "database", "COSMOS_ENDPOINT=https://{l:10}.documents.azure.com:443/", "COSMOS_KEY={b64:64}")
v("Azure OpenAI", "ai", "AZURE_OPENAI_ENDPOINT=https://{l:10}.openai.azure.com/", "AZURE_OPENAI_API_KEY={h:32}", hdr="api-key: {v}")
v("Azure AI Services", "ai", "AZURE_AI_KEY={A:84}", hdr="Ocp-Apim-Subscription-Key: {v}")
v("Azure Functions", "cloud", "FUNCTION_URL=https://{l:10}.azurewebsites.net/api/{word}?code={u:54}==")
v("Azure Container Registry", "registry", "ACR_USERNAME={l:10}acr", "ACR_PASSWORD={a:52}")
v("Azure SignalR", "messaging", "SIGNALR_CONNECTION=Endpoint=https://{l:10}.service.signalr.net;AccessKey={b64:32};Version=1.0;")
v("DigitalOcean", "cloud", "DIGITALOCEAN_TOKEN=dop_v1_{h:64}")
v("DigitalOcean OAuth", "cloud", "DO_OAUTH_TOKEN=doo_v1_{h:64}")
v("DigitalOcean refresh", "cloud", "DO_REFRESH_TOKEN=dor_v1_{h:64}")
v("DigitalOcean Spaces", "storage", "SPACES_ACCESS_KEY_ID=DO00{A:16}", "SPACES_SECRET_ACCESS_KEY={b:43}")
v("Linode", "cloud", "LINODE_TOKEN={h:64}", api="api.linode.com")
v("Vultr", "cloud", "VULTR_API_KEY={A:36}", api="api.vultr.com")
v("Hetzner Cloud", "cloud", "HCLOUD_TOKEN={a:64}", api="api.hetzner.cloud")
v("Scaleway", "cloud", "SCW_ACCESS_KEY=SCW{A:17}", "SCW_SECRET_KEY={uuid}")
v("OVHcloud", "cloud", "OVH_APPLICATION_KEY={a:16}", "OVH_APPLICATION_SECRET={a:32}", "OVH_CONSUMER_KEY={a:32}")
v("Alibaba Cloud", "cloud", "ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI{a:20}", "ALIBABA_CLOUD_ACCESS_KEY_SECRET={a:30}")
v("Tencent Cloud", "cloud", "TENCENTCLOUD_SECRET_ID=AKID{a:32}", "TENCENTCLOUD_SECRET_KEY={a:32}")
v("Huawei Cloud", "cloud", "HUAWEICLOUD_SDK_AK={A:20}", "HUAWEICLOUD_SDK_SK={a:40}")
v("IBM Cloud", "cloud", "IBMCLOUD_API_KEY={u:44}")
v("IBM COS HMAC", "storage", "COS_HMAC_ACCESS_KEY_ID={h:32}", "COS_HMAC_SECRET_ACCESS_KEY={h:48}")
v("Oracle Cloud API key", "cloud", "OCI_USER_OCID=ocid1.user.oc1..{l:60}", "OCI_FINGERPRINT={h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}:{h:2}", "OCI_PRIVATE_KEY={pem_p8}")
v("Oracle Cloud auth token", "cloud", "OCI_AUTH_TOKEN={a:8}{pick:;|(|]|)|+}{a:11}")
v("Cloudflare API token", "cdn", "CLOUDFLARE_API_TOKEN={u:40}", api="api.cloudflare.com")
v("Cloudflare Global API key", "cdn", "CF_API_EMAIL={email}", "CF_API_KEY={h:37}")
v("Cloudflare R2", "storage", "R2_ACCESS_KEY_ID={h:32}", "R2_SECRET_ACCESS_KEY={h:64}")
v("Cloudflare Tunnel", "network", "TUNNEL_TOKEN=eyJhIjoi{b:40}{b:140}")
v("Cloudflare Origin CA key", "cdn", "CF_ORIGIN_CA_KEY=v1.0-{h:24}-{h:146}")
v("Fastly", "cdn", "FASTLY_API_TOKEN={u:32}", hdr="Fastly-Key: {v}", api="api.fastly.com")
v("Akamai EdgeGrid", "cdn", "client_secret={b:43}=", "host=akab-{l:16}-{l:16}.luna.akamaiapis.net", "access_token=akab-{l:16}-{l:16}", "client_token=akab-{l:16}-{l:16}")
v("Bunny.net", "cdn", "BUNNY_API_KEY={uuid}{h:4}-{h:4}-{h:4}-{h:4}-{h:12}", hdr="AccessKey: {v}")
v("KeyCDN", "cdn", "KEYCDN_API_KEY=sk_prod_{a:32}")
v("Heroku", "cloud", "HEROKU_API_KEY=HRKU-AA{u:58}", api="api.heroku.com")
v("Heroku legacy key", "cloud", "HEROKU_API_KEY={uuid}")
v("Netlify", "cloud", "NETLIFY_AUTH_TOKEN=nfp_{a:36}", api="api.netlify.com")
v("Vercel", "cloud", "VERCEL_TOKEN={a:24}", api="api.vercel.com")
v("Render", "cloud", "RENDER_API_KEY=rnd_{a:32}", api="api.render.com")
v("Fly.io", "cloud", "FLY_API_TOKEN=FlyV1 fm2_{b:48}{b:160}")
v("Railway", "cloud", "RAILWAY_TOKEN={uuid}")
v("Koyeb", "cloud", "KOYEB_TOKEN={a:64}")
v("Northflank", "cloud", "NF_API_TOKEN=nf-{a:48}")
v("Backblaze B2", "storage", "B2_APPLICATION_KEY_ID=005{h:22}", "B2_APPLICATION_KEY=K005{a:27}")
v("Wasabi", "storage", "WASABI_ACCESS_KEY={A:20}", "WASABI_SECRET_KEY={a:40}")
v("MinIO", "storage", "MINIO_ROOT_USER={user}", "MINIO_ROOT_PASSWORD={pw}")
v("Storj", "storage", "STORJ_ACCESS_GRANT=1{m:40}{m:200}")
v("Filebase", "storage", "FILEBASE_KEY={A:20}", "FILEBASE_SECRET={a:40}")
v("Supabase service role", "database", "SUPABASE_URL=https://{l:20}.supabase.co", "SUPABASE_SERVICE_ROLE_KEY={jwt:service_role}")
v("Supabase management", "database", "SUPABASE_ACCESS_TOKEN=sbp_{h:40}")
v("Supabase secret key", "database", "SUPABASE_SECRET_KEY=sb_secret_{u:32}")
v("Firebase Cloud Messaging legacy", "messaging", "FCM_SERVER_KEY=AAAA{u:7}:APA91b{u:134}", hdr="Authorization: key={v}")
v("Pulumi", "cicd", "PULUMI_ACCESS_TOKEN=pul-{h:40}")
v("Terraform Cloud", "cicd", "TF_TOKEN_app_terraform_io={a:14}.atlasv1.{a:67}")
v("HashiCorp Vault", "secrets", "VAULT_ADDR=https://vault.{corp}:8200", "VAULT_TOKEN=hvs.{u:90}", hdr="X-Vault-Token: {v}")
v("HashiCorp Vault batch", "secrets", "VAULT_TOKEN=hvb.{u:138}")
v("HashiCorp Vault legacy", "secrets", "VAULT_TOKEN=s.{a:24}")
v("Vault AppRole", "secrets", "VAULT_ROLE_ID={uuid}", "VAULT_SECRET_ID={uuid}")
v("Doppler service token", "secrets", "DOPPLER_TOKEN=dp.st.{pick:prd|stg|dev}.{a:43}")
v("Doppler personal token", "secrets", "DOPPLER_TOKEN=dp.pt.{a:43}")
v("Infisical", "secrets", "INFISICAL_TOKEN=st.{uuid}.{h:32}.{h:32}")
v("1Password service account", "secrets", "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{b:40}{b:300}")
v("1Password Connect", "secrets", "OP_CONNECT_TOKEN={jwt}")
v("Akeyless", "secrets", "AKEYLESS_ACCESS_ID=p-{l:12}", "AKEYLESS_ACCESS_KEY={b:44}")
v("Bitwarden Secrets Manager", "secrets", "BWS_ACCESS_TOKEN=0.{uuid}.{a:30}:{b:22}==")
v("Kubernetes service account", "cloud", "KUBE_TOKEN={jwt:k8s}")
v("Kubernetes bootstrap token", "cloud", "BOOTSTRAP_TOKEN={l:6}.{l:16}")
v("k3s cluster token", "cloud", "K3S_TOKEN=K10{h:64}::server:{h:32}")
v("OpenStack", "cloud", "OS_AUTH_URL=https://keystone.{corp}:5000/v3", "OS_USERNAME={user}", "OS_PASSWORD={pw}")
v("VMware vSphere", "cloud", "VSPHERE_USER=administrator@vsphere.local", "VSPHERE_PASSWORD={pw}")
v("Proxmox", "cloud", "PM_API_TOKEN_ID=terraform@pve!{word}", "PM_API_TOKEN_SECRET={uuid}")
v("Exoscale", "cloud", "EXOSCALE_API_KEY=EXO{h:24}", "EXOSCALE_API_SECRET={u:43}")
v("UpCloud", "cloud", "UPCLOUD_USERNAME={user}", "UPCLOUD_PASSWORD={pw}")
v("Civo", "cloud", "CIVO_TOKEN={a:50}")
v("Yandex Cloud OAuth", "cloud", "YC_TOKEN=y0_{u:55}")
v("Yandex Cloud static key", "cloud", "YC_ACCESS_KEY_ID=YCAJ{u:21}", "YC_SECRET_ACCESS_KEY=YCP{u:37}")
v("Equinix Metal", "cloud", "METAL_AUTH_TOKEN={a:32}")
v("Packer/Atlas token", "cicd", "ATLAS_TOKEN={a:14}.atlasv1.{a:60}")
v("Tailscale auth key", "network", "TS_AUTHKEY=tskey-auth-{a:17}-{a:32}")
v("Tailscale API key", "network", "TAILSCALE_API_KEY=tskey-api-{a:17}-{a:32}")
v("ngrok", "network", "NGROK_AUTHTOKEN={a:27}_{a:21}")
v("ZeroTier", "network", "ZEROTIER_API_TOKEN={a:32}")
v("Twingate", "network", "TWINGATE_API_TOKEN={u:88}")

# --- AI / ML APIs
v("OpenAI project key", "ai", "OPENAI_API_KEY=sk-proj-{u:74}T3BlbkFJ{u:74}", api="api.openai.com")
v("OpenAI legacy key", "ai", "OPENAI_API_KEY=sk-{a:20}T3BlbkFJ{a:20}", api="api.openai.com")
v("OpenAI service account", "ai", "OPENAI_API_KEY=sk-svcacct-{u:74}T3BlbkFJ{u:74}", api="api.openai.com")
v("OpenAI admin key", "ai", "OPENAI_ADMIN_KEY=sk-admin-{u:74}T3BlbkFJ{u:74}")
v("Anthropic", "ai", "ANTHROPIC_API_KEY=sk-ant-api03-{u:93}AA", hdr="x-api-key: {v}", api="api.anthropic.com")
v("Anthropic admin", "ai", "ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{u:93}AA", hdr="x-api-key: {v}")
v("Cohere", "ai", "CO_API_KEY={a:40}", api="api.cohere.com")
v("Hugging Face", "ai", "HF_TOKEN=hf_{a:34}", api="huggingface.co")
v("Hugging Face org", "ai", "HUGGINGFACE_API_KEY=api_org_{a:34}")
v("Replicate", "ai", "REPLICATE_API_TOKEN=r8_{a:37}", api="api.replicate.com")
v("Groq", "ai", "GROQ_API_KEY=gsk_{a:52}", api="api.groq.com")
v("Mistral AI", "ai", "MISTRAL_API_KEY={a:32}", api="api.mistral.ai")
v("Perplexity", "ai", "PERPLEXITY_API_KEY=pplx-{a:48}", api="api.perplexity.ai")
v("Together AI", "ai", "TOGETHER_API_KEY={h:64}", api="api.together.xyz")
v("Fireworks AI", "ai", "FIREWORKS_API_KEY=fw_{a:24}")
v("DeepSeek", "ai", "DEEPSEEK_API_KEY=sk-{h:32}", api="api.deepseek.com")
v("xAI", "ai", "XAI_API_KEY=xai-{a:80}", api="api.x.ai")
v("Google Gemini", "ai", "GEMINI_API_KEY=AIza{u:35}", hdr="x-goog-api-key: {v}")
v("Stability AI", "ai", "STABILITY_API_KEY=sk-{a:48}", api="api.stability.ai")
v("ElevenLabs", "ai", "ELEVENLABS_API_KEY=sk_{h:48}", hdr="xi-api-key: {v}", api="api.elevenlabs.io")
v("AssemblyAI", "ai", "ASSEMBLYAI_API_KEY={h:32}", hdr="authorization: {v}")
v("Deepgram", "ai", "DEEPGRAM_API_KEY={h:40}", hdr="Authorization: Token {v}", api="api.deepgram.com")
v("Pinecone", "ai", "PINECONE_API_KEY=pcsk_{a:6}_{a:63}", hdr="Api-Key: {v}")
v("Pinecone legacy", "ai", "PINECONE_API_KEY={uuid}")
v("LangSmith", "ai", "LANGSMITH_API_KEY=lsv2_pt_{h:32}_{h:10}")
v("LangSmith service key", "ai", "LANGCHAIN_API_KEY=lsv2_sk_{h:32}_{h:10}")
v("Voyage AI", "ai", "VOYAGE_API_KEY=pa-{u:43}")
v("Jina AI", "ai", "JINA_API_KEY=jina_{h:32}{a:28}")
v("OpenRouter", "ai", "OPENROUTER_API_KEY=sk-or-v1-{h:64}", api="openrouter.ai")
v("Cerebras", "ai", "CEREBRAS_API_KEY=csk-{l:48}")
v("Weights & Biases", "ai", "WANDB_API_KEY={h:40}")
v("Clarifai", "ai", "CLARIFAI_PAT={h:32}", hdr="Authorization: Key {v}")
v("AI21", "ai", "AI21_API_KEY={a:32}")
v("Modal", "ai", "MODAL_TOKEN_ID=ak-{a:22}", "MODAL_TOKEN_SECRET=as-{a:22}")
v("RunPod", "ai", "RUNPOD_API_KEY=rpa_{A:48}")
v("Baseten", "ai", "BASETEN_API_KEY={a:8}.{a:32}", hdr="Authorization: Api-Key {v}")
v("Kaggle", "ai", "KAGGLE_USERNAME={user}", "KAGGLE_KEY={h:32}")
v("NVIDIA NGC", "ai", "NGC_API_KEY=nvapi-{u:64}")
v("Comet ML", "ai", "COMET_API_KEY={a:25}")
v("Neptune", "ai", "NEPTUNE_API_TOKEN=eyJhcGlfYWRkcmVzcyI6{b:40}{b:120}==")
v("Firecrawl", "ai", "FIRECRAWL_API_KEY=fc-{h:32}")
v("Tavily", "ai", "TAVILY_API_KEY=tvly-{a:32}")
v("Exa", "ai", "EXA_API_KEY={uuid}", hdr="x-api-key: {v}")
v("SerpAPI", "search", "SERPAPI_API_KEY={h:64}")
v("Brave Search", "search", "BRAVE_API_KEY=BSA{a:28}", hdr="X-Subscription-Token: {v}")
v("ScrapingBee", "ai", "SCRAPINGBEE_API_KEY={A:80}")
v("Apify", "ai", "APIFY_TOKEN=apify_api_{a:36}")
v("Qdrant Cloud", "database", "QDRANT_URL=https://{uuid}.eu-central-1-0.aws.cloud.qdrant.io:6333", "QDRANT_API_KEY={u:40}", hdr="api-key: {v}")
v("Weaviate Cloud", "database", "WEAVIATE_API_KEY={a:40}")
v("Roboflow", "ai", "ROBOFLOW_API_KEY={a:20}")
v("Leonardo AI", "ai", "LEONARDO_API_KEY={uuid}")
v("Gradient", "ai", "GRADIENT_ACCESS_TOKEN={a:32}")
v("Writer", "ai", "WRITER_API_KEY={a:40}")
v("Unstructured", "ai", "UNSTRUCTURED_API_KEY={a:30}", hdr="unstructured-api-key: {v}")
v("Anyscale", "ai", "ANYSCALE_API_KEY=esecret_{l:26}")
v("Lambda Labs", "ai", "LAMBDA_API_KEY=secret_{l:24}_{h:32}.{a:32}")
v("Novita AI", "ai", "NOVITA_API_KEY=sk_{u:43}")

# --- payments / commerce / fintech
v("Stripe secret key", "payments", "STRIPE_SECRET_KEY=sk_live_{a:24}", api="api.stripe.com")
v("Stripe secret key (long)", "payments", "STRIPE_API_KEY=sk_live_51{a:22}{a:77}", api="api.stripe.com")
v("Stripe restricted key", "payments", "STRIPE_RESTRICTED_KEY=rk_live_51{a:22}{a:77}")
v("Stripe webhook secret", "payments", "STRIPE_WEBHOOK_SECRET=whsec_{a:32}")
v("PayPal REST app", "payments", "PAYPAL_CLIENT_ID=A{u:79}", "PAYPAL_CLIENT_SECRET=E{u:79}")
v("Braintree", "payments", "BRAINTREE_ACCESS_TOKEN=access_token$production${l:16}${h:32}")
v("Braintree keys", "payments", "BRAINTREE_MERCHANT_ID={l:16}", "BRAINTREE_PUBLIC_KEY={l:16}", "BRAINTREE_PRIVATE_KEY={h:32}")
v("Square", "payments", "SQUARE_ACCESS_TOKEN=EAAA{u:60}", api="connect.squareup.com")
v("Square OAuth secret", "payments", "SQUARE_APPLICATION_SECRET=sq0csp-{u:43}")
v("Adyen", "payments", "ADYEN_API_KEY=AQE{u:6}{u:80}=-{u:20}{b:24}=-{a:12}", hdr="X-API-Key: {v}")
v("Razorpay", "payments", "RAZORPAY_KEY_ID=rzp_live_{a:14}", "RAZORPAY_KEY_SECRET={a:24}")
v("Paystack", "payments", "PAYSTACK_SECRET_KEY=sk_live_{h:40}", api="api.paystack.co")
v("Flutterwave", "payments", "FLW_SECRET_KEY=FLWSECK-{h:32}-X")
v("Mollie", "payments", "MOLLIE_API_KEY=live_{a:30}", api="api.mollie.com")
v("Checkout.com", "payments", "CKO_SECRET_KEY=sk_{l:8}-{l:4}-{l:4}-{l:4}-{l:12}")
v("GoCardless", "payments", "GOCARDLESS_ACCESS_TOKEN=live_{u:40}")
v("Plaid", "fintech", "PLAID_CLIENT_ID={h:24}", "PLAID_SECRET={h:30}")
v("Plaid access token", "fintech", "PLAID_ACCESS_TOKEN=access-production-{uuid}")
v("Wise", "fintech", "WISE_API_TOKEN={uuid}")
v("Shopify admin token", "commerce", "SHOPIFY_ACCESS_TOKEN=shpat_{h:32}", hdr="X-Shopify-Access-Token: {v}")
v("Shopify app secret", "commerce", "SHOPIFY_API_SECRET=shpss_{h:32}")
v("Shopify custom app", "commerce", "SHOPIFY_CUSTOM_APP_TOKEN=shpca_{h:32}")
v("Shopify private app", "commerce", "SHOPIFY_PASSWORD=shppa_{h:32}")
v("Paddle", "payments", "PADDLE_API_KEY=pdl_live_apikey_{l:26}_{a:24}_{a:3}")
v("Lemon Squeezy", "payments", "LEMONSQUEEZY_API_KEY={jwt}")
v("Chargebee", "payments", "CHARGEBEE_API_KEY=live_{a:32}")
v("Recurly", "payments", "RECURLY_API_KEY={h:32}")
v("Authorize.Net", "payments", "AUTHNET_API_LOGIN_ID={a:10}", "AUTHNET_TRANSACTION_KEY={a:16}")
v("Mercado Pago", "payments", "MP_ACCESS_TOKEN=APP_USR-{d:16}-{d:6}-{h:32}-{d:9}")
v("Xendit", "payments", "XENDIT_SECRET_KEY=xnd_production_{u:60}")
v("Midtrans", "payments", "MIDTRANS_SERVER_KEY=Mid-server-{u:24}")
v("PayU", "payments", "PAYU_MERCHANT_KEY={a:6}", "PAYU_MERCHANT_SALT={a:32}")
v("Coinbase Commerce", "crypto", "COINBASE_COMMERCE_API_KEY={uuid}", hdr="X-CC-Api-Key: {v}")
v("Klarna", "payments", "KLARNA_USERNAME=K{d:6}_{h:12}", "KLARNA_PASSWORD={a:16}")
v("Worldpay", "payments", "WORLDPAY_SERVICE_KEY=T_S_{uuid}")
v("Payoneer", "payments", "PAYONEER_CLIENT_SECRET={a:40}")
v("Twint/Datatrans", "payments", "DATATRANS_MERCHANT_ID={d:10}", "DATATRANS_PASSWORD={a:20}")
v("BigCommerce", "commerce", "BIGCOMMERCE_ACCESS_TOKEN={l:31}", hdr="X-Auth-Token: {v}")
v("WooCommerce", "commerce", "WC_CONSUMER_KEY=ck_{h:40}", "WC_CONSUMER_SECRET=cs_{h:40}")
v("Magento", "commerce", "MAGENTO_ACCESS_TOKEN={l:32}")
v("Etsy", "commerce", "ETSY_API_KEY={l:24}", "ETSY_SHARED_SECRET={l:10}")
v("Shippo", "commerce", "SHIPPO_API_TOKEN=shippo_live_{h:40}", hdr="Authorization: ShippoToken {v}")
v("EasyPost", "commerce", "EASYPOST_API_KEY=EZAK{h:54}")
v("Lob", "commerce", "LOB_API_KEY=live_{h:32}")
v("Alpaca", "fintech", "APCA_API_KEY_ID=AK{A:18}", "APCA_API_SECRET_KEY={a:40}")
v("Polygon.io", "fintech", "POLYGON_API_KEY={a:32}")
v("Alpha Vantage", "fintech", "ALPHAVANTAGE_API_KEY={A:16}")
v("Finnhub", "fintech", "FINNHUB_TOKEN={l:20}")
v("IEX Cloud", "fintech", "IEX_TOKEN=sk_{h:32}")
v("Nasdaq Data Link", "fintech", "NASDAQ_DATA_LINK_API_KEY={a:20}")
v("Tink", "fintech", "TINK_CLIENT_ID={h:32}", "TINK_CLIENT_SECRET={h:32}")
v("TrueLayer", "fintech", "TRUELAYER_CLIENT_SECRET={uuid}")
v("Revolut Business", "fintech", "REVOLUT_ACCESS_TOKEN=oa_prod_{u:43}")
v("Modern Treasury", "fintech", "MT_API_KEY=live-{a:64}")

# --- messaging / communications
v("Twilio", "messaging", "TWILIO_ACCOUNT_SID=AC{h:32}", "TWILIO_AUTH_TOKEN={h:32}")
v("Twilio API key", "messaging", "TWILIO_API_KEY=SK{h:32}", "TWILIO_API_SECRET={a:32}")
v("Vonage", "messaging", "VONAGE_API_KEY={h:8}", "VONAGE_API_SECRET={a:16}")
v("MessageBird", "messaging", "MESSAGEBIRD_ACCESS_KEY={a:25}", hdr="Authorization: AccessKey {v}")
v("Plivo", "messaging", "PLIVO_AUTH_ID=MA{A:18}", "PLIVO_AUTH_TOKEN={a:40}")
v("Sinch", "messaging", "SINCH_SERVICE_PLAN_ID={h:32}", "SINCH_API_TOKEN={h:32}")
v("Telnyx", "messaging", "TELNYX_API_KEY=KEY{A:32}_{a:22}")
v("Bandwidth", "messaging", "BANDWIDTH_USERNAME={user}", "BANDWIDTH_PASSWORD={pw}")
v("Slack bot token", "messaging", "SLACK_BOT_TOKEN=xoxb-{d:11}-{d:13}-{a:24}", api="slack.com")
v("Slack user token", "messaging", "SLACK_USER_TOKEN=xoxp-{d:11}-{d:11}-{d:13}-{h:32}", api="slack.com")
v("Slack app-level token", "messaging", "SLACK_APP_TOKEN=xapp-1-A{A:10}-{d:13}-{h:64}")
v("Slack refresh token", "messaging", "SLACK_REFRESH_TOKEN=xoxe-1-{a:140}")
v("Slack signing secret", "messaging", "SLACK_SIGNING_SECRET={h:32}")
v("Discord bot", "messaging", "DISCORD_TOKEN=M{a:23}.{u:6}.{u:38}", hdr="Authorization: Bot {v}", api="discord.com")
v("Discord OAuth secret", "messaging", "DISCORD_CLIENT_SECRET={u:32}")
v("Telegram bot", "messaging", "TELEGRAM_BOT_TOKEN={n:1}{d:9}:AA{u:33}")
v("WhatsApp Cloud API", "messaging", "WHATSAPP_TOKEN=EAA{a:4}ZC{a:180}")
v("Facebook page token", "social", "FB_PAGE_ACCESS_TOKEN=EAAG{a:190}")
v("Facebook app secret", "social", "FACEBOOK_APP_ID={d:15}", "FACEBOOK_APP_SECRET={h:32}")
v("Instagram Graph", "social", "IG_ACCESS_TOKEN=IGQV{u:200}")
v("LINE Messaging", "messaging", "LINE_CHANNEL_ACCESS_TOKEN={b:172}=", "LINE_CHANNEL_SECRET={h:32}")
v("Viber", "messaging", "VIBER_AUTH_TOKEN={h:16}-{h:16}-{h:16}")
v("Pusher Channels", "messaging", "PUSHER_APP_ID={d:7}", "PUSHER_KEY={h:20}", "PUSHER_SECRET={h:20}")
v("Ably", "messaging", "ABLY_API_KEY={a:6}.{a:6}:{u:43}")
v("Stream Chat", "messaging", "STREAM_API_KEY={l:12}", "STREAM_API_SECRET={l:64}")
v("Sendbird", "messaging", "SENDBIRD_API_TOKEN={h:40}", hdr="Api-Token: {v}")
v("Intercom", "saas", "INTERCOM_ACCESS_TOKEN=dG9rOj{b:40}{b:20}=")
v("Front", "saas", "FRONT_API_TOKEN={jwt}")
v("Crisp", "saas", "CRISP_IDENTIFIER={uuid}", "CRISP_KEY={h:64}")
v("Mattermost", "messaging", "MATTERMOST_TOKEN={l:26}")
v("Rocket.Chat", "messaging", "ROCKETCHAT_USER_ID={a:17}", "ROCKETCHAT_AUTH_TOKEN={u:43}")
v("Matrix", "messaging", "MATRIX_ACCESS_TOKEN=syt_{a:12}_{a:20}_{a:6}")
v("Zoom Server-to-Server", "messaging", "ZOOM_ACCOUNT_ID={u:22}", "ZOOM_CLIENT_ID={u:22}", "ZOOM_CLIENT_SECRET={a:32}")
v("Webex bot", "messaging", "WEBEX_BOT_TOKEN={a:64}_{a:4}_{uuid}")
v("Microsoft Teams bot", "messaging", "MICROSOFT_APP_ID={uuid}", "MICROSOFT_APP_PASSWORD={a:3}8Q~{u:31}")
v("Gitter", "messaging", "GITTER_TOKEN={h:40}")
v("Pushover", "messaging", "PUSHOVER_APP_TOKEN=a{l:29}", "PUSHOVER_USER_KEY=u{l:29}")
v("OneSignal REST", "messaging", "ONESIGNAL_REST_API_KEY=os_v2_app_{l:100}")
v("Expo access token", "devtools", "EXPO_TOKEN={u:40}")
v("Agora", "media", "AGORA_APP_ID={h:32}", "AGORA_APP_CERTIFICATE={h:32}")
v("Daily.co", "media", "DAILY_API_KEY={h:64}")
v("Twitch", "social", "TWITCH_CLIENT_ID={l:30}", "TWITCH_CLIENT_SECRET={l:30}")
v("Twitch OAuth", "social", "TWITCH_OAUTH_TOKEN=oauth:{l:30}")
v("X / Twitter bearer", "social", "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{a:25}%3D{a:50}")
v("X / Twitter OAuth1", "social", "TWITTER_CONSUMER_KEY={a:25}", "TWITTER_CONSUMER_SECRET={a:50}", "TWITTER_ACCESS_TOKEN={d:19}-{a:30}", "TWITTER_ACCESS_SECRET={a:45}")
v("Reddit", "social", "REDDIT_CLIENT_ID={u:22}", "REDDIT_CLIENT_SECRET={u:30}", "REDDIT_PASSWORD={hpw}")
v("LinkedIn", "social", "LINKEDIN_CLIENT_ID={l:14}", "LINKEDIN_CLIENT_SECRET=WPL_AP1.{a:16}.{a:8}==")
v("Mastodon", "social", "MASTODON_ACCESS_TOKEN={u:43}")
v("Bluesky app password", "social", "BSKY_HANDLE={word}.bsky.social", "BSKY_APP_PASSWORD={l:4}-{l:4}-{l:4}-{l:4}")
v("YouTube Data API", "media", "YOUTUBE_API_KEY=AIza{u:35}")
v("Pinterest", "social", "PINTEREST_ACCESS_TOKEN=pina_{A:96}")
v("TikTok", "social", "TIKTOK_CLIENT_SECRET={a:32}")

# --- email delivery
v("SendGrid", "email", "SENDGRID_API_KEY=SG.{u:22}.{u:43}", api="api.sendgrid.com")
v("Mailgun", "email", "MAILGUN_API_KEY=key-{h:32}")
v("Mailgun (new)", "email", "MAILGUN_API_KEY={h:32}-{h:8}-{h:8}")
v("Mailchimp", "email", "MAILCHIMP_API_KEY={h:32}-us{n:1}{d:1}")
v("Mailchimp Transactional", "email", "MANDRILL_API_KEY=md-{u:22}")
v("Postmark", "email", "POSTMARK_SERVER_TOKEN={uuid}", hdr="X-Postmark-Server-Token: {v}")
v("SparkPost", "email", "SPARKPOST_API_KEY={h:40}")
v("Brevo", "email", "BREVO_API_KEY=xkeysib-{h:64}-{a:16}", hdr="api-key: {v}")
v("Brevo SMTP", "email", "BREVO_SMTP_KEY=xsmtpsib-{h:64}-{a:16}")
v("Mailjet", "email", "MJ_APIKEY_PUBLIC={h:32}", "MJ_APIKEY_PRIVATE={h:32}")
v("Resend", "email", "RESEND_API_KEY=re_{a:8}_{a:24}", api="api.resend.com")
v("Amazon SES SMTP", "email", "SMTP_USERNAME=AKIA{A:16}", "SMTP_PASSWORD=B{b:43}")
v("Mailtrap", "email", "MAILTRAP_API_TOKEN={h:32}")
v("Loops", "email", "LOOPS_API_KEY={h:32}")
v("ConvertKit", "email", "CONVERTKIT_API_SECRET={u:43}")
v("Klaviyo private key", "email", "KLAVIYO_PRIVATE_KEY=pk_{h:34}", hdr="Authorization: Klaviyo-API-Key {v}")
v("Customer.io", "email", "CUSTOMERIO_SITE_ID={h:20}", "CUSTOMERIO_API_KEY={h:20}")
v("Gmail app password", "email", "SMTP_USER={email}", "SMTP_PASS={L:4} {L:4} {L:4} {L:4}")
v("SMTP relay", "email", "MAIL_HOST=smtp.{corp}", "MAIL_USERNAME=noreply@{corp}", "MAIL_PASSWORD={pw}")
v("Microsoft 365 SMTP", "email", "O365_SMTP_USER=alerts@{corp}", "O365_SMTP_PASSWORD={hpw}")
v("Zoho Mail", "email", "ZOHO_SMTP_PASSWORD={a:12}")
v("Elastic Email", "email", "ELASTICEMAIL_API_KEY={H:96}")
v("SMTP2GO", "email", "SMTP2GO_API_KEY=api-{H:32}")
v("MailerSend", "email", "MAILERSEND_API_KEY=mlsn.{h:64}")
v("Campaign Monitor", "email", "CM_API_KEY={b:86}==")
v("Mailgun webhook signing", "email", "MAILGUN_WEBHOOK_SIGNING_KEY={h:32}")

# --- version control
v("GitHub classic PAT", "vcs", "GITHUB_TOKEN=ghp_{a:36}", api="api.github.com")
v("GitHub fine-grained PAT", "vcs", "GH_TOKEN=github_pat_11{A:20}_{a:59}", api="api.github.com")
v("GitHub OAuth token", "vcs", "GITHUB_OAUTH_TOKEN=gho_{a:36}")
v("GitHub user-to-server", "vcs", "GITHUB_USER_TOKEN=ghu_{a:36}")
v("GitHub installation token", "vcs", "GITHUB_APP_TOKEN=ghs_{a:36}")
v("GitHub refresh token", "vcs", "GITHUB_REFRESH_TOKEN=ghr_{a:76}")
v("GitHub App private key", "vcs", "GITHUB_APP_ID={d:6}", "GITHUB_APP_PRIVATE_KEY={pem_rsa}")
v("GitHub OAuth app secret", "vcs", "GITHUB_CLIENT_ID=Ov23li{a:14}", "GITHUB_CLIENT_SECRET={h:40}")
v("GitHub webhook secret", "vcs", "GITHUB_WEBHOOK_SECRET={h:40}")
v("GitLab PAT", "vcs", "GITLAB_TOKEN=glpat-{u:20}", hdr="PRIVATE-TOKEN: {v}", api="gitlab.com")
v("GitLab deploy token", "vcs", "GITLAB_DEPLOY_USER=gitlab+deploy-token-{d:7}", "GITLAB_DEPLOY_TOKEN=gldt-{u:20}")
v("GitLab runner token", "cicd", "CI_SERVER_TOKEN=glrt-{u:20}")
v("GitLab runner registration", "cicd", "REGISTRATION_TOKEN=GR1348941{u:20}")
v("GitLab pipeline trigger", "cicd", "TRIGGER_TOKEN=glptt-{h:40}")
v("GitLab feed token", "vcs", "GITLAB_FEED_TOKEN=glft-{u:20}")
v("GitLab OAuth app secret", "vcs", "GITLAB_APP_SECRET=gloas-{h:64}")
v("Bitbucket access token", "vcs", "BITBUCKET_TOKEN=ATCTT3xFfGN0{u:180}={H:8}")
v("Bitbucket app password", "vcs", "BITBUCKET_USERNAME={user}", "BITBUCKET_APP_PASSWORD=ATBB{a:32}{H:8}")
v("Azure DevOps PAT", "vcs", "AZURE_DEVOPS_EXT_PAT={l:52}")
v("Gitea", "vcs", "GITEA_TOKEN={h:40}", hdr="Authorization: token {v}")
v("Gerrit HTTP password", "vcs", "GERRIT_USER={user}", "GERRIT_HTTP_PASSWORD={a:42}")
v("SourceHut", "vcs", "SRHT_TOKEN={b:20}{b:100}")
v("Atlassian API token", "saas", "ATLASSIAN_EMAIL={email:corp}", "ATLASSIAN_API_TOKEN=ATATT3xFfGF0{u:170}={H:8}")
v("Jira Data Center PAT", "saas", "JIRA_PAT=NjA{b:41}")

# --- CI/CD & devtools
v("CircleCI", "cicd", "CIRCLECI_TOKEN=CCIPAT_{a:22}_{h:40}", hdr="Circle-Token: {v}")
v("CircleCI legacy", "cicd", "CIRCLE_TOKEN={h:40}")
v("Travis CI", "cicd", "TRAVIS_TOKEN={u:22}", hdr="Authorization: token {v}")
v("Jenkins API token", "cicd", "JENKINS_USER={user}", "JENKINS_API_TOKEN=11{h:32}")
v("Buildkite", "cicd", "BUILDKITE_API_TOKEN=bkua_{h:40}")
v("Buildkite agent", "cicd", "BUILDKITE_AGENT_TOKEN={h:50}")
v("Drone CI", "cicd", "DRONE_TOKEN={a:32}")
v("TeamCity", "cicd", "TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{u:36}.{u:48}")
v("Octopus Deploy", "cicd", "OCTOPUS_API_KEY=API-{A:26}", hdr="X-Octopus-ApiKey: {v}")
v("Harness", "cicd", "HARNESS_API_KEY=pat.{u:22}.{h:24}.{a:20}")
v("Argo CD", "cicd", "ARGOCD_AUTH_TOKEN={jwt}")
v("Codecov", "cicd", "CODECOV_TOKEN={uuid}")
v("SonarQube user token", "cicd", "SONAR_TOKEN=squ_{h:40}")
v("SonarQube project token", "cicd", "SONAR_TOKEN=sqp_{h:40}")
v("SonarCloud", "cicd", "SONARCLOUD_TOKEN={h:40}")
v("Snyk", "cicd", "SNYK_TOKEN={uuid}")
v("Semaphore CI", "cicd", "SEMAPHORE_API_TOKEN={a:20}")
v("Bitrise", "cicd", "BITRISE_TOKEN={u:86}")
v("AppVeyor", "cicd", "APPVEYOR_API_TOKEN=v2.{l:20}")
v("Codemagic", "cicd", "CM_API_TOKEN={u:43}")
v("Sauce Labs", "devtools", "SAUCE_USERNAME={user}", "SAUCE_ACCESS_KEY={uuid}")
v("BrowserStack", "devtools", "BROWSERSTACK_USERNAME={l:8}_{a:6}", "BROWSERSTACK_ACCESS_KEY={a:20}")
v("LambdaTest", "devtools", "LT_USERNAME={user}", "LT_ACCESS_KEY={a:50}")
v("Cypress Cloud", "devtools", "CYPRESS_RECORD_KEY={uuid}")
v("Chromatic", "devtools", "CHROMATIC_PROJECT_TOKEN=chpt_{h:15}")
v("Percy", "devtools", "PERCY_TOKEN=web_{h:64}")
v("Postman", "devtools", "POSTMAN_API_KEY=PMAK-{h:24}-{h:34}", hdr="X-Api-Key: {v}")
v("RapidAPI", "devtools", "RAPIDAPI_KEY={a:50}", hdr="X-RapidAPI-Key: {v}")
v("Fastlane session", "devtools", "FASTLANE_PASSWORD={hpw}", "FASTLANE_USER={email}")
v("App Store Connect API key", "devtools", "ASC_KEY_ID={A:10}", "ASC_ISSUER_ID={uuid}", "ASC_PRIVATE_KEY={pem_p8ec}")
v("Apple app-specific password", "devtools", "APPLE_ID={email}", "APPLE_APP_SPECIFIC_PASSWORD={L:4}-{L:4}-{L:4}-{L:4}")
v("Google Play service account", "devtools", "PLAY_STORE_JSON_KEY={gsa_json}")
v("Android keystore", "devtools", "KEYSTORE_PASSWORD={pw}", "KEY_ALIAS=upload", "KEY_PASSWORD={pw}")
v("Code signing cert password", "devtools", "CSC_LINK=file:///secrets/cert.p12", "CSC_KEY_PASSWORD={pw}")
v("Sentry auth token", "observability", "SENTRY_AUTH_TOKEN=sntrys_eyJ{b:40}{b:100}_{b:43}")
v("Sentry user token", "observability", "SENTRY_AUTH_TOKEN=sntryu_{h:64}")
v("Netlify build hook", "webhook", "NETLIFY_BUILD_HOOK=https://api.netlify.com/build_hooks/{h:24}")
v("Vercel deploy hook", "webhook", "VERCEL_DEPLOY_HOOK=https://api.vercel.com/v1/integrations/deploy/prj_{a:28}/{a:10}")
v("Retool", "saas", "RETOOL_API_TOKEN=retool_{a:32}")
v("Linear", "saas", "LINEAR_API_KEY=lin_api_{a:40}", hdr="Authorization: {v}")
v("Figma", "saas", "FIGMA_TOKEN=figd_{u:40}", hdr="X-Figma-Token: {v}")
v("Readme.io", "devtools", "README_API_KEY=rdme_{l:70}")
v("Stackblitz/Gitpod", "devtools", "GITPOD_TOKEN=gitpod_pat_{u:43}.{h:40}")
v("JetBrains Space", "devtools", "SPACE_TOKEN={jwt}")

# --- package registries
v("npm", "registry", "NPM_TOKEN=npm_{a:36}")
v("npm legacy", "registry", "NPM_AUTH_TOKEN={uuid}")
v("NuGet", "registry", "NUGET_API_KEY=oy2{l:43}")
v("PyPI", "registry", "PYPI_API_TOKEN=pypi-AgEIcHlwaS5vcmc{u:50}{u:100}")
v("TestPyPI", "registry", "TEST_PYPI_TOKEN=pypi-AgENdGVzdC5weXBpLm9yZw{u:50}{u:80}")
v("RubyGems", "registry", "GEM_HOST_API_KEY=rubygems_{h:48}")
v("crates.io", "registry", "CARGO_REGISTRY_TOKEN=cio{a:32}")
v("Docker Hub", "registry", "DOCKERHUB_USERNAME={user}", "DOCKERHUB_TOKEN=dckr_pat_{u:27}")
v("Docker Hub password", "registry", "DOCKER_USER={user}", "DOCKER_PASS={hpw}")
v("JFrog Artifactory", "registry", "ARTIFACTORY_API_KEY=AKCp{a:69}")
v("JFrog access token", "registry", "JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOjE3{b:40}")
v("Sonatype Nexus", "registry", "NEXUS_USER={user}", "NEXUS_PASSWORD={pw}")
v("Maven Central", "registry", "OSSRH_USERNAME={a:8}", "OSSRH_TOKEN={a:44}")
v("Packagist", "registry", "PACKAGIST_TOKEN={a:20}")
v("Anaconda", "registry", "ANACONDA_API_TOKEN={l:2}-{uuid}")
v("Cloudsmith", "registry", "CLOUDSMITH_API_KEY={h:40}")
v("Quay robot", "registry", "QUAY_ROBOT=myorg+{word}", "QUAY_TOKEN={A:64}")
v("GitHub Container Registry", "registry", "CR_PAT=ghp_{a:36}")
v("Hex.pm", "registry", "HEX_API_KEY={h:32}")
v("pub.dev", "registry", "PUB_TOKEN={b:43}=")
v("Gemfury", "registry", "FURY_PUSH_TOKEN={a:20}")
v("Harbor robot", "registry", "HARBOR_USERNAME=robot${word}", "HARBOR_PASSWORD={a:32}")
v("Google Artifact Registry", "registry", "GAR_JSON_KEY={gsa_json}")
v("Chocolatey", "registry", "CHOCO_API_KEY={uuid}")
v("Open VSX", "registry", "OVSX_PAT={uuid}")
v("VS Marketplace", "registry", "VSCE_PAT={l:52}")

# --- observability / analytics
v("Datadog", "observability", "DD_API_KEY={h:32}", "DD_APP_KEY={h:40}", hdr="DD-API-KEY: {v}")
v("Datadog API only", "observability", "DATADOG_API_KEY={h:32}", hdr="DD-API-KEY: {v}")
v("New Relic user key", "observability", "NEW_RELIC_API_KEY=NRAK-{A:27}", hdr="Api-Key: {v}")
v("New Relic ingest key", "observability", "NEW_RELIC_LICENSE_KEY={h:36}NRAL")
v("New Relic insights insert", "observability", "NEW_RELIC_INSERT_KEY=NRII-{u:32}")
v("Grafana service account", "observability", "GRAFANA_TOKEN=glsa_{a:32}_{h:8}")
v("Grafana Cloud", "observability", "GRAFANA_CLOUD_TOKEN=glc_eyJ{b:40}{b:100}")
v("Grafana API key", "observability", "GRAFANA_API_KEY=eyJrIjoi{a:32}IiwibiI6I{a:20}IsImlkIjo{a:3}fQ==")
v("Honeycomb", "observability", "HONEYCOMB_API_KEY=hcaik_{l:58}", hdr="X-Honeycomb-Team: {v}")
v("Honeycomb classic", "observability", "HONEYCOMB_WRITEKEY={h:32}")
v("Splunk HEC", "observability", "SPLUNK_HEC_TOKEN={uuid}", hdr="Authorization: Splunk {v}")
v("Splunk session", "observability", "SPLUNK_PASSWORD={pw}", "SPLUNK_USERNAME=admin")
v("Loggly", "observability", "LOGGLY_TOKEN={uuid}")
v("Logz.io", "observability", "LOGZIO_TOKEN={a:32}")
v("Dynatrace", "observability", "DT_API_TOKEN=dt0c01.{A:24}.{A:64}")
v("Lightstep", "observability", "LIGHTSTEP_ACCESS_TOKEN={b:84}==")
v("Elastic APM", "observability", "ELASTIC_APM_SECRET_TOKEN={a:24}")
v("Elastic Cloud API key", "observability", "ELASTIC_API_KEY={b64:40}", hdr="Authorization: ApiKey {v}")
v("Bugsnag", "observability", "BUGSNAG_AUTH_TOKEN={h:32}")
v("Rollbar", "observability", "ROLLBAR_ACCESS_TOKEN={h:32}", hdr="X-Rollbar-Access-Token: {v}")
v("Raygun", "observability", "RAYGUN_API_KEY={a:22}")
v("PagerDuty", "observability", "PAGERDUTY_API_TOKEN=u+{u:18}", hdr="Authorization: Token token={v}")
v("PagerDuty integration key", "observability", "PAGERDUTY_ROUTING_KEY={h:32}")
v("Opsgenie", "observability", "OPSGENIE_API_KEY={uuid}", hdr="Authorization: GenieKey {v}")
v("Statuspage", "observability", "STATUSPAGE_API_KEY={uuid}")
v("Mixpanel API secret", "analytics", "MIXPANEL_API_SECRET={h:32}")
v("Mixpanel service account", "analytics", "MIXPANEL_SA_USERNAME={word}.{h:6}.mp-service-account", "MIXPANEL_SA_SECRET={a:32}")
v("Amplitude secret", "analytics", "AMPLITUDE_API_KEY={h:32}", "AMPLITUDE_SECRET_KEY={h:32}")
v("PostHog personal key", "analytics", "POSTHOG_PERSONAL_API_KEY=phx_{a:43}")
v("Heap", "analytics", "HEAP_API_KEY={h:32}")
v("LaunchDarkly SDK key", "devtools", "LAUNCHDARKLY_SDK_KEY=sdk-{uuid}")
v("LaunchDarkly API token", "devtools", "LD_API_TOKEN=api-{uuid}")
v("Optimizely", "devtools", "OPTIMIZELY_API_TOKEN=2:{u:43}")
v("Sumo Logic", "observability", "SUMO_ACCESS_ID=su{a:12}", "SUMO_ACCESS_KEY={a:64}")
v("Coralogix", "observability", "CORALOGIX_API_KEY=cxtp_{a:30}")
v("Axiom", "observability", "AXIOM_TOKEN=xaat-{uuid}")
v("Better Stack", "observability", "LOGTAIL_SOURCE_TOKEN={a:24}")
v("Checkly", "observability", "CHECKLY_API_KEY=cu_{h:32}")
v("UptimeRobot", "observability", "UPTIMEROBOT_API_KEY=u{d:7}-{h:24}")
v("Pingdom", "observability", "PINGDOM_API_TOKEN={u:64}")
v("Instana", "observability", "INSTANA_API_TOKEN={u:22}")
v("AppDynamics", "observability", "APPDYNAMICS_AGENT_ACCOUNT_ACCESS_KEY={l:12}")
v("Segment Config API", "analytics", "SEGMENT_API_TOKEN=sgp_{a:64}")
v("Google Analytics MP secret", "analytics", "GA_API_SECRET={u:22}")
v("Hotjar", "analytics", "HOTJAR_CLIENT_SECRET={a:64}")
v("Fullstory", "analytics", "FULLSTORY_API_KEY=na1.{b:60}")
v("Matomo", "analytics", "MATOMO_TOKEN_AUTH={h:32}")
v("Plausible", "analytics", "PLAUSIBLE_API_KEY={u:64}")
v("Sentry DSN with secret", "observability", "SENTRY_DSN=https://{h:32}:{h:32}@o{d:6}.ingest.sentry.io/{d:7}")

# --- databases and data platforms (passwords in connection strings)
v("PostgreSQL", "database", "DATABASE_URL=postgresql://{user}:{upw}@{host}:5432/{db}")
v("PostgreSQL (libpq keywords)", "database", "PG_CONN=host={host} port=5432 dbname={db} user={user} password={upw} sslmode=require")
v("MySQL", "database", "DATABASE_URL=mysql://{user}:{upw}@{host}:3306/{db}")
v("MariaDB", "database", "MARIADB_ROOT_PASSWORD={pw}")
v("MongoDB", "database", "MONGO_URI=mongodb://{user}:{upw}@{host}:27017/{db}?authSource=admin")
v("MongoDB Atlas", "database", "MONGODB_URI=mongodb+srv://{user}:{upw}@cluster0.{l:5}.mongodb.net/{db}?retryWrites=true&w=majority")
v("MongoDB Atlas API", "database", "ATLAS_PUBLIC_KEY={l:8}", "ATLAS_PRIVATE_KEY={uuid}")
v("Redis", "database", "REDIS_URL=redis://default:{upw}@{host}:6379/0")
v("Redis TLS", "database", "REDIS_URL=rediss://:{upw}@{host}:6380")
v("Redis Cloud", "database", "REDIS_PASSWORD={a:32}", "REDIS_HOST=redis-{d:5}.c{d:3}.us-east-1-2.ec2.redns.redis-cloud.com")
v("RabbitMQ", "database", "AMQP_URL=amqp://{user}:{upw}@{host}:5672/{word}")
v("CloudAMQP", "database", "CLOUDAMQP_URL=amqps://{l:8}:{u:32}@{word}.rmq.cloudamqp.com/{l:8}")
v("Confluent Cloud", "database", "CONFLUENT_API_KEY={A:16}", "CONFLUENT_API_SECRET={b:64}")
v("Kafka SASL", "database", "KAFKA_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"{user}\" password=\"{upw}\";")
v("Elasticsearch", "database", "ELASTICSEARCH_URL=https://elastic:{upw}@{host}:9200")
v("OpenSearch", "database", "OPENSEARCH_PASSWORD={pw}", "OPENSEARCH_USERNAME=admin")
v("DataStax Astra", "database", "ASTRA_DB_APPLICATION_TOKEN=AstraCS:{a:24}:{h:64}")
v("CockroachDB", "database", "DATABASE_URL=postgresql://{user}:{upw}@{word}-{d:4}.{l:4}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full")
v("Snowflake", "database", "SNOWFLAKE_ACCOUNT={l:7}-{l:7}", "SNOWFLAKE_USER={user}", "SNOWFLAKE_PASSWORD={pw}")
v("Snowflake key-pair", "database", "SNOWFLAKE_PRIVATE_KEY={pem_p8}")
v("ClickHouse Cloud", "database", "CLICKHOUSE_URL=https://default:{upw}@{l:10}.europe-west4.gcp.clickhouse.cloud:8443")
v("InfluxDB", "database", "INFLUX_TOKEN={u:86}==")
v("Neo4j", "database", "NEO4J_URI=neo4j+s://{h:8}.databases.neo4j.io", "NEO4J_USERNAME=neo4j", "NEO4J_PASSWORD={u:43}")
v("Couchbase Capella", "database", "CB_CONNSTR=couchbases://cb.{l:16}.cloud.couchbase.com", "CB_USERNAME={user}", "CB_PASSWORD={pw}")
v("CouchDB", "database", "COUCHDB_URL=https://admin:{upw}@{host}:6984")
v("SQL Server", "database", "ConnectionStrings__Default=Server=tcp:{l:10}.database.windows.net,1433;Initial Catalog={db};User ID={user};Password={upw};Encrypt=True;")
v("Oracle DB", "database", "ORACLE_DSN={user}/{upw}@//{host}:1521/ORCLPDB1")
v("JDBC URL with password", "database", "SPRING_DATASOURCE_URL=jdbc:postgresql://{host}:5432/{db}?user={user}&password={upw}")
v("Databricks", "database", "DATABRICKS_HOST=https://adb-{d:16}.{d:2}.azuredatabricks.net", "DATABRICKS_TOKEN=dapi{h:32}")
v("BigQuery service account", "database", "BQ_CREDENTIALS={gsa_json}")
v("Amazon Redshift", "database", "REDSHIFT_URL=redshift://{user}:{upw}@{word}.{l:12}.us-east-1.redshift.amazonaws.com:5439/dev")
v("Aiven", "database", "AIVEN_PG_URI=postgres://avnadmin:AVNS_{u:19}@pg-{word}-{l:6}.aivencloud.com:{d:5}/defaultdb?sslmode=require")
v("Aiven API token", "database", "AIVEN_TOKEN={b:300}")
v("TimescaleDB", "database", "TIMESCALE_SERVICE_URL=postgres://tsdbadmin:{upw}@{l:10}.{l:10}.tsdb.cloud.timescale.com:3{d:4}/tsdb?sslmode=require")
v("Fauna", "database", "FAUNA_SECRET=fnA{a:37}")
v("Upstash Redis", "database", "UPSTASH_REDIS_REST_URL=https://{word}-{word}-{d:5}.upstash.io", "UPSTASH_REDIS_REST_TOKEN=A{u:63}")
v("Upstash QStash", "database", "QSTASH_TOKEN=eyJVc2VySUQiOi{b:120}=")
v("Turso", "database", "TURSO_DATABASE_URL=libsql://{word}-{word}.turso.io", "TURSO_AUTH_TOKEN={jwt}")
v("PlanetScale service token", "database", "PLANETSCALE_SERVICE_TOKEN_ID={l:12}", "PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{u:43}")
v("PlanetScale password", "database", "DATABASE_URL=mysql://{l:12}:pscale_pw_{u:43}@aws.connect.psdb.cloud/{db}?sslaccept=strict")
v("Neon", "database", "DATABASE_URL=postgresql://{user}:npg_{a:12}@ep-{word}-{word}-{l:8}.us-east-2.aws.neon.tech/neondb?sslmode=require")
v("Neon API", "database", "NEON_API_KEY=napi_{l:64}")
v("Xata", "database", "XATA_API_KEY=xau_{a:36}")
v("Airtable PAT", "saas", "AIRTABLE_TOKEN=pat{a:14}.{h:64}")
v("Notion integration", "saas", "NOTION_TOKEN=secret_{a:43}")
v("Notion (new format)", "saas", "NOTION_API_KEY=ntn_{d:11}{a:35}")
v("Algolia admin key", "search", "ALGOLIA_APP_ID={A:10}", "ALGOLIA_ADMIN_KEY={h:32}", hdr="X-Algolia-API-Key: {v}")
v("Typesense admin", "search", "TYPESENSE_API_KEY={a:32}", hdr="X-TYPESENSE-API-KEY: {v}")
v("Meilisearch master key", "search", "MEILI_MASTER_KEY={u:44}")
v("Elastic Enterprise Search", "search", "ENTERPRISE_SEARCH_PRIVATE_KEY=private-{l:24}")
v("ScyllaDB", "database", "SCYLLA_PASSWORD={pw}", "SCYLLA_USERNAME=scylla")
v("ArangoDB", "database", "ARANGO_ROOT_PASSWORD={pw}")
v("SurrealDB", "database", "SURREAL_PASS={pw}", "SURREAL_USER=root")
v("YugabyteDB", "database", "YSQL_URL=postgresql://admin:{upw}@{word}.aws.yugabyte.cloud:5433/yugabyte?ssl=true")
v("SingleStore", "database", "SINGLESTORE_URL=singlestore://admin:{upw}@svc-{uuid}-dml.aws-virginia-6.svc.singlestore.com:3306/{db}")
v("MotherDuck", "database", "MOTHERDUCK_TOKEN={jwt}")
v("Tinybird", "database", "TINYBIRD_TOKEN=p.eyJ1Ijog{b:100}")
v("Firebase database secret", "database", "FIREBASE_DB_SECRET={a:40}")
v("Memcached SASL", "database", "MEMCACHIER_SERVERS=mc{d:1}.dev.eu.ec2.memcachier.com:11211", "MEMCACHIER_USERNAME={A:6}", "MEMCACHIER_PASSWORD={H:32}")
v("Cassandra", "database", "CASSANDRA_PASSWORD={pw}", "CASSANDRA_USER=cassandra_app")
v("Vertica", "database", "VERTICA_URL=vertica://dbadmin:{upw}@{host}:5433/{db}")
v("DB2", "database", "DB2_DSN=DATABASE={db};HOSTNAME={host};PORT=50000;PROTOCOL=TCPIP;UID={user};PWD={upw};")
v("FTP server", "database", "FTP_URL=ftp://{user}:{upw}@ftp.{corp}/")
v("SFTP", "storage", "SFTP_HOST=sftp.{corp}", "SFTP_USER={user}", "SFTP_PASSWORD={pw}")

# --- identity / auth
v("Okta", "identity", "OKTA_ORG_URL=https://{word}.okta.com", "OKTA_API_TOKEN=00{u:40}", hdr="Authorization: SSWS {v}")
v("Auth0", "identity", "AUTH0_DOMAIN={word}.eu.auth0.com", "AUTH0_CLIENT_ID={a:32}", "AUTH0_CLIENT_SECRET={u:64}")
v("Auth0 Management token", "identity", "AUTH0_MGMT_TOKEN={jwt}")
v("Keycloak client", "identity", "KEYCLOAK_CLIENT_ID={word}-backend", "KEYCLOAK_CLIENT_SECRET={a:32}")
v("Keycloak admin", "identity", "KEYCLOAK_ADMIN=admin", "KEYCLOAK_ADMIN_PASSWORD={pw}")
v("Clerk", "identity", "CLERK_SECRET_KEY=sk_live_{a:40}")
v("Stytch", "identity", "STYTCH_PROJECT_ID=project-live-{uuid}", "STYTCH_SECRET=secret-live-{u:36}=")
v("Descope", "identity", "DESCOPE_MANAGEMENT_KEY=K{A:28}:{a:40}")
v("WorkOS", "identity", "WORKOS_API_KEY=sk_{a:64}")
v("FusionAuth", "identity", "FUSIONAUTH_API_KEY={u:64}")
v("OneLogin", "identity", "ONELOGIN_CLIENT_ID={h:64}", "ONELOGIN_CLIENT_SECRET={h:64}")
v("JumpCloud", "identity", "JC_API_KEY=jca_{a:36}")
v("Duo Security", "identity", "DUO_IKEY=DI{A:18}", "DUO_SKEY={a:40}", "DUO_HOST=api-{h:8}.duosecurity.com")
v("Ping Identity", "identity", "PINGONE_CLIENT_SECRET={u:64}")
v("Azure AD B2C", "identity", "B2C_CLIENT_SECRET={a:3}8Q~{u:31}")
v("Firebase Auth custom token", "identity", "FIREBASE_ID_TOKEN={jwt}")
v("Apple Sign In key", "identity", "APPLE_TEAM_ID={A:10}", "APPLE_KEY_ID={A:10}", "APPLE_PRIVATE_KEY={pem_p8ec}")
v("APNs auth key", "messaging", "APNS_KEY_ID={A:10}", "APNS_AUTH_KEY={pem_p8ec}")
v("Salesforce", "saas", "SF_USERNAME={email:corp}", "SF_PASSWORD={hpw}", "SF_SECURITY_TOKEN={a:25}")
v("Salesforce refresh token", "saas", "SF_REFRESH_TOKEN=5Aep861{u:80}")
v("LDAP bind", "identity", "LDAP_BIND_DN=cn=svc-ldap,ou=services,dc={word},dc=com", "LDAP_BIND_PASSWORD={pw}")
v("Active Directory service account", "identity", "AD_USER={U:4}\\svc_{word}", "AD_PASSWORD={pw}")
v("Kerberos password", "identity", "KRB5_PRINCIPAL={user}@{U:8}.LOCAL", "KRB5_PASSWORD={pw}")
v("SAML signing key", "identity", "SAML_SP_PRIVATE_KEY={pem_rsa:1024}")
v("JWT signing secret", "identity", "JWT_SECRET={a:64}")
v("Django secret key", "identity", "DJANGO_SECRET_KEY=django-insecure-{pw:50}")
v("Rails master key", "identity", "RAILS_MASTER_KEY={h:32}")
v("Laravel app key", "identity", "APP_KEY=base64:{b64:32}")
v("Flask secret key", "identity", "FLASK_SECRET_KEY={h:64}")
v("NextAuth secret", "identity", "NEXTAUTH_SECRET={b64:32}")
v("Session encryption key", "identity", "SESSION_SECRET={u:48}")
v("Phoenix secret key base", "identity", "SECRET_KEY_BASE={b:64}")
v("Symfony app secret", "identity", "APP_SECRET={h:32}")
v("Spring Boot admin", "identity", "SPRING_SECURITY_USER_NAME=admin", "SPRING_SECURITY_USER_PASSWORD={pw}")
v("Basic auth header", "identity", "BASIC_AUTH={basicauth}")
v("htpasswd plaintext", "identity", "DASHBOARD_USER=admin", "DASHBOARD_PASSWORD={hpw}")

# --- crypto exchanges / web3
v("Binance", "crypto", "BINANCE_API_KEY={a:64}", "BINANCE_API_SECRET={a:64}")
v("Coinbase Advanced", "crypto", "COINBASE_API_KEY=organizations/{uuid}/apiKeys/{uuid}", "COINBASE_API_SECRET={pem_ec}")
v("Kraken", "crypto", "KRAKEN_API_KEY={b:56}", "KRAKEN_PRIVATE_KEY={b64:64}")
v("Bitfinex", "crypto", "BFX_API_KEY={a:43}", "BFX_API_SECRET={a:43}")
v("KuCoin", "crypto", "KUCOIN_API_KEY={h:24}", "KUCOIN_API_SECRET={uuid}", "KUCOIN_API_PASSPHRASE={hpw}")
v("OKX", "crypto", "OKX_API_KEY={uuid}", "OKX_SECRET_KEY={H:32}", "OKX_PASSPHRASE={hpw}")
v("Bybit", "crypto", "BYBIT_API_KEY={a:18}", "BYBIT_API_SECRET={a:36}")
v("Gemini exchange", "crypto", "GEMINI_API_KEY=account-{a:20}", "GEMINI_API_SECRET={a:28}")
v("Bitstamp", "crypto", "BITSTAMP_KEY={a:32}", "BITSTAMP_SECRET={a:32}")
v("Gate.io", "crypto", "GATE_API_KEY={h:32}", "GATE_API_SECRET={h:64}")
v("Crypto.com Exchange", "crypto", "CDC_API_KEY={a:22}", "CDC_SECRET_KEY={a:22}")
v("Alchemy", "crypto", "ALCHEMY_API_URL=https://eth-mainnet.g.alchemy.com/v2/{u:32}")
v("Infura", "crypto", "INFURA_PROJECT_ID={h:32}", "INFURA_PROJECT_SECRET={h:32}")
v("QuickNode", "crypto", "QUICKNODE_RPC=https://{word}-{word}-{word}.quiknode.pro/{h:40}/")
v("Etherscan", "crypto", "ETHERSCAN_API_KEY={A:34}")
v("Moralis", "crypto", "MORALIS_API_KEY=eyJ{b:40}{b:140}")
v("Ethereum deployer key", "crypto", "DEPLOYER_PRIVATE_KEY=0x{h:64}")
v("Hardhat accounts", "crypto", "PRIVATE_KEY={h:64}")
v("Solana keypair", "crypto", "SOLANA_KEYPAIR={sol_kp}")
v("Bitcoin WIF", "crypto", "BTC_WIF={wif}")
v("BIP32 xprv", "crypto", "WALLET_XPRV={xprv}")
v("Nostr nsec", "crypto", "NOSTR_NSEC={nsec}")
v("Fireblocks", "crypto", "FIREBLOCKS_API_KEY={uuid}", "FIREBLOCKS_SECRET_KEY={pem_p8}")
v("BlockCypher", "crypto", "BLOCKCYPHER_TOKEN={h:32}")
v("Helius", "crypto", "HELIUS_RPC_URL=https://mainnet.helius-rpc.com/?api-key={uuid}")

# --- private keys of all armours
v("RSA private key (PKCS#1)", "privatekey", "TLS_KEY={pem_rsa}")
v("RSA private key 1024", "privatekey", "LEGACY_SIGNING_KEY={pem_rsa:1024}")
v("EC private key (SEC1)", "privatekey", "EC_PRIVATE_KEY={pem_ec}")
v("PKCS#8 RSA private key", "privatekey", "PRIVATE_KEY_PEM={pem_p8}")
v("PKCS#8 Ed25519 private key", "privatekey", "SIGNING_KEY={pem_p8ed}")
v("PKCS#8 EC private key", "privatekey", "ES256_PRIVATE_KEY={pem_p8ec}")
v("DSA private key", "privatekey", "DSA_KEY={pem_dsa}")
v("OpenSSH ed25519 private key", "privatekey", "SSH_PRIVATE_KEY={ossh_ed}")
v("OpenSSH RSA private key", "privatekey", "DEPLOY_KEY={ossh_rsa}")
v("PGP private key block", "privatekey", "GPG_PRIVATE_KEY={pgp_priv}")
v("PuTTY private key", "privatekey", "PPK_FILE={putty}")
v("OpenVPN static key", "network", "OVPN_TLS_AUTH={ovpn_static}")
v("WireGuard private key", "network", "WG_PRIVATE_KEY={wgkey}")
v("age secret key", "privatekey", "SOPS_AGE_KEY={agesec}")
v("JWK private key", "privatekey", "JWT_PRIVATE_JWK={jwk_priv}")
v("Tor onion service key", "privatekey", "ONION_KEY=ED25519-V3:{b64:64}")
v("minisign secret key", "privatekey", "MINISIGN_SECRET_KEY=RWRTY0Iy{b:40}{b:112}==")
v("Cosign private key", "privatekey", "COSIGN_PASSWORD={pw}", "COSIGN_PRIVATE_KEY={pgp_priv}")

# --- network devices
v("Cisco IOS local user", "network", "IOS_LOCAL_USER=username {word} privilege 15 password 0 {pw}")
v("SNMP community (RW)", "network", "SNMP_COMMUNITY={word}{d:3}RW")
v("WPA2 PSK (wpa_supplicant)", "network", "WIFI_PSK={hpw}", "WIFI_SSID={word}-{d:3}")
v("hostapd passphrase", "network", "wpa_passphrase={hpw}")
v("IPsec PSK", "network", "IPSEC_PSK={a:32}")
v("RADIUS shared secret", "network", "RADIUS_SECRET={pw}")
v("TACACS+ key", "network", "TACACS_KEY={pw}")
v("Fortinet API token", "network", "FORTIGATE_TOKEN={a:30}")
v("Palo Alto API key", "network", "PANOS_API_KEY=LUFRPT1{b:40}{b:60}==")
v("Cisco Meraki", "network", "MERAKI_DASHBOARD_API_KEY={h:40}", hdr="X-Cisco-Meraki-API-Key: {v}")
v("MikroTik RouterOS", "network", "ROUTEROS_USER=admin", "ROUTEROS_PASSWORD={pw}")
v("UniFi controller", "network", "UNIFI_USERNAME={user}", "UNIFI_PASSWORD={hpw}")
v("F5 BIG-IP", "network", "BIGIP_USER=admin", "BIGIP_PASSWORD={pw}")
v("pfSense API", "network", "PFSENSE_API_CLIENT_ID={h:32}", "PFSENSE_API_TOKEN={h:32}")
v("BGP session password", "network", "BGP_MD5_PASSWORD={pw}")
v("IPMI/iDRAC", "network", "IDRAC_USER=root", "IDRAC_PASSWORD={pw}")
v("Synology DSM", "network", "SYNOLOGY_USER={user}", "SYNOLOGY_PASSWORD={hpw}")
v("Pi-hole", "network", "PIHOLE_WEBPASSWORD={hpw}")
v("Home router admin", "network", "ROUTER_ADMIN_PASSWORD={hpw}")
v("Zabbix API", "network", "ZABBIX_API_TOKEN={h:64}")

# --- webhooks with secret paths / tokens
v("Slack incoming webhook", "webhook", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{A:8}/B{A:10}/{a:24}")
v("Slack workflow webhook", "webhook", "SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{A:8}/{d:13}/{h:32}")
v("Discord webhook", "webhook", "DISCORD_WEBHOOK=https://discord.com/api/webhooks/{n:1}{d:17}/{u:68}")
v("Microsoft Teams webhook", "webhook", "TEAMS_WEBHOOK_URL=https://{word}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h:32}/{uuid}/V2{u:40}")
v("Google Chat webhook", "webhook", "GCHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA{u:7}/messages?key=AIza{u:35}&token={u:43}%3D")
v("Zapier catch hook", "webhook", "ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{d:7}/{l:6}/")
v("Make.com webhook", "webhook", "MAKE_WEBHOOK=https://hook.eu1.make.com/{l:32}")
v("IFTTT Maker webhook", "webhook", "IFTTT_URL=https://maker.ifttt.com/trigger/{word}/with/key/{u:43}")
v("Mattermost incoming webhook", "webhook", "MM_WEBHOOK=https://chat.{corp}/hooks/{l:26}")
v("Rocket.Chat webhook", "webhook", "RC_HOOK=https://chat.{corp}/hooks/{a:17}/{a:48}")
v("DingTalk robot", "webhook", "DINGTALK_WEBHOOK=https://oapi.dingtalk.com/robot/send?access_token={h:64}")
v("Feishu/Lark bot", "webhook", "FEISHU_WEBHOOK=https://open.feishu.cn/open-apis/bot/v2/hook/{uuid}")
v("WeCom bot", "webhook", "WECOM_WEBHOOK=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uuid}")
v("n8n webhook with token", "webhook", "N8N_WEBHOOK=https://n8n.{corp}/webhook/{uuid}?token={a:32}")
v("Home Assistant webhook", "webhook", "HA_WEBHOOK=https://{word}.duckdns.org:8123/api/webhook/{u:40}")
v("PagerDuty Events URL", "webhook", "PD_EVENTS=https://events.pagerduty.com/integration/{h:32}/enqueue")
v("Opsgenie heartbeat", "webhook", "OG_PING=https://api.opsgenie.com/v2/heartbeats/{word}/ping?apiKey={uuid}")
v("Healthchecks.io ping", "webhook", "HC_PING_URL=https://hc-ping.com/{uuid}")
v("Jenkins remote trigger", "webhook", "JENKINS_TRIGGER=https://ci.{corp}/job/{word}/build?token={a:32}")
v("GitLab trigger URL", "webhook", "GITLAB_TRIGGER=https://gitlab.com/api/v4/projects/{d:8}/trigger/pipeline?token=glptt-{h:40}&ref=main")
v("Twilio Studio webhook basic auth", "webhook", "STUDIO_URL=https://{user}:{upw}@webhooks.{corp}/twilio/inbound")
v("Sentry webhook secret", "webhook", "SENTRY_CLIENT_SECRET={h:64}")

# --- sessions / bearer tokens
v("Bearer JWT", "session", "ACCESS_TOKEN={jwt}")
v("OAuth access token (opaque)", "session", "OAUTH_ACCESS_TOKEN={u:64}")
v("Refresh token (opaque)", "session", "REFRESH_TOKEN=rt_{u:80}")
v("Django session cookie", "session", "COOKIE=sessionid={l:32}; csrftoken={a:64}")
v("Rails session cookie", "session", "COOKIE=_{word}_session={b:40}{b:200}--{h:40}")
v("PHP session", "session", "COOKIE=PHPSESSID={l:26}")
v("Express session", "session", "COOKIE=connect.sid=s%3A{u:32}.{b:43}")
v("Java session", "session", "COOKIE=JSESSIONID={H:32}")
v("ASP.NET auth cookie", "session", "COOKIE=.AspNetCore.Cookies=CfDJ8{u:40}{u:300}")
v("WordPress logged-in cookie", "session", "COOKIE=wordpress_logged_in_{h:32}={user}%7C{d:10}%7C{a:43}%7C{h:64}")
v("GitHub user session", "session", "COOKIE=user_session={u:48}; __Host-user_session_same_site={u:48}")
v("Google SID cookie", "session", "COOKIE=__Secure-1PSID=g.a000{u:80}{u:60}")
v("Firebase ID token", "session", "FIREBASE_TOKEN={jwt}")
v("AWS Cognito token", "session", "COGNITO_ID_TOKEN={jwt}")
v("Grafana session", "session", "COOKIE=grafana_session={h:32}")
v("Jupyter server token", "session", "JUPYTER_TOKEN={h:48}")
v("Home Assistant long-lived token", "iot", "HASS_TOKEN={jwt:ha}")
v("Kibana basic auth", "session", "KIBANA_AUTH={basicauth}")

# --- SaaS / productivity / support / CMS
v("Asana", "saas", "ASANA_PAT=2/{d:16}/{d:16}:{h:32}")
v("Trello", "saas", "TRELLO_KEY={h:32}", "TRELLO_TOKEN=ATTA{h:64}{H:8}")
v("Monday.com", "saas", "MONDAY_API_TOKEN={jwt}")
v("ClickUp", "saas", "CLICKUP_TOKEN=pk_{d:8}_{A:32}")
v("Todoist", "saas", "TODOIST_API_TOKEN={h:40}")
v("Basecamp", "saas", "BASECAMP_ACCESS_TOKEN=BAhbB0kiAbB7{b:200}--{h:40}")
v("Smartsheet", "saas", "SMARTSHEET_ACCESS_TOKEN={a:37}")
v("Coda", "saas", "CODA_API_TOKEN={uuid}")
v("Miro", "saas", "MIRO_ACCESS_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{u:43}")
v("Dropbox", "storage", "DROPBOX_ACCESS_TOKEN=sl.{u:40}{u:100}")
v("Dropbox app", "storage", "DROPBOX_APP_KEY={l:15}", "DROPBOX_APP_SECRET={l:15}", "DROPBOX_REFRESH_TOKEN={u:64}")
v("Box", "storage", "BOX_DEVELOPER_TOKEN={a:32}")
v("OneDrive/Graph", "storage", "GRAPH_ACCESS_TOKEN=EwB{b:40}{b:200}")
v("HubSpot private app", "saas", "HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}")
v("HubSpot legacy key", "saas", "HUBSPOT_API_KEY={uuid}")
v("Zendesk", "saas", "ZENDESK_EMAIL={email:corp}/token", "ZENDESK_API_TOKEN={a:40}")
v("Freshdesk", "saas", "FRESHDESK_API_KEY={a:20}")
v("Help Scout", "saas", "HELPSCOUT_APP_SECRET={a:32}")
v("Typeform", "saas", "TYPEFORM_TOKEN=tfp_{a:44}_{a:14}")
v("SurveyMonkey", "saas", "SURVEYMONKEY_ACCESS_TOKEN={u:40}{u:20}")
v("Calendly", "saas", "CALENDLY_TOKEN={jwt}")
v("DocuSign", "saas", "DOCUSIGN_INTEGRATION_KEY={uuid}", "DOCUSIGN_RSA_PRIVATE_KEY={pem_rsa}")
v("Contentful", "saas", "CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{u:43}")
v("Contentful delivery", "saas", "CONTENTFUL_SPACE_ID={l:12}", "CONTENTFUL_PREVIEW_TOKEN={u:43}")
v("Sanity", "saas", "SANITY_API_TOKEN=sk{a:40}{a:140}")
v("Storyblok", "saas", "STORYBLOK_MANAGEMENT_TOKEN={a:22}-{d:6}-{a:20}")
v("Strapi", "saas", "STRAPI_API_TOKEN={h:64}{h:64}{h:64}")
v("Ghost Admin", "saas", "GHOST_ADMIN_API_KEY={h:24}:{h:64}")
v("WordPress application password", "saas", "WP_USER={user}", "WP_APP_PASSWORD={a:4} {a:4} {a:4} {a:4} {a:4} {a:4}")
v("Webflow", "saas", "WEBFLOW_API_TOKEN={h:64}")
v("Prismic", "saas", "PRISMIC_ACCESS_TOKEN=MC5{b:40}{b:50}")
v("DatoCMS", "saas", "DATOCMS_API_TOKEN={h:30}")
v("Mapbox secret token", "maps", "MAPBOX_SECRET_TOKEN=sk.eyJ1Ijoi{b:20}IiwiYSI6I{b:20}In0.{u:22}")
v("HERE", "maps", "HERE_API_KEY={u:43}")
v("TomTom", "maps", "TOMTOM_API_KEY={a:32}")
v("Google Maps server key", "maps", "GOOGLE_MAPS_SERVER_KEY=AIza{u:35}")
v("Spotify", "media", "SPOTIFY_CLIENT_ID={h:32}", "SPOTIFY_CLIENT_SECRET={h:32}")
v("Vimeo", "media", "VIMEO_ACCESS_TOKEN={h:32}")
v("Mux", "media", "MUX_TOKEN_ID={uuid}", "MUX_TOKEN_SECRET={b:75}")
v("Cloudinary", "media", "CLOUDINARY_URL=cloudinary://{d:15}:{u:27}@{l:8}")
v("Imgur", "media", "IMGUR_CLIENT_ID={h:15}", "IMGUR_CLIENT_SECRET={h:40}")
v("Unsplash", "media", "UNSPLASH_SECRET_KEY={u:43}")
v("Giphy", "media", "GIPHY_API_KEY={a:32}")
v("Shutterstock", "media", "SHUTTERSTOCK_TOKEN=v2/{b:200}")
v("Last.fm", "media", "LASTFM_API_KEY={h:32}", "LASTFM_SHARED_SECRET={h:32}")
v("TMDB", "media", "TMDB_READ_TOKEN=eyJhbGciOiJIUzI1NiJ9.{u:160}.{u:43}")
v("Plex", "media", "PLEX_TOKEN={u:20}")
v("Jellyfin", "media", "JELLYFIN_API_KEY={h:32}")
v("Sonarr/Radarr", "media", "RADARR_API_KEY={h:32}", hdr="X-Api-Key: {v}")
v("api.video", "media", "APIVIDEO_API_KEY={a:43}")
v("Transloadit", "media", "TRANSLOADIT_SECRET={h:40}")
v("Uploadcare", "media", "UPLOADCARE_SECRET_KEY={h:20}")
v("DeepL", "ai", "DEEPL_AUTH_KEY={uuid}:fx", hdr="Authorization: DeepL-Auth-Key {v}")
v("Google Translate key", "ai", "TRANSLATE_API_KEY=AIza{u:35}")
v("OpenWeather", "saas", "OPENWEATHER_API_KEY={h:32}")
v("Twilio SendGrid Marketing", "email", "SENDGRID_MC_KEY=SG.{u:22}.{u:43}")
v("DocuSeal", "saas", "DOCUSEAL_API_KEY={a:40}")
v("PandaDoc", "saas", "PANDADOC_API_KEY={h:40}", hdr="Authorization: API-Key {v}")
v("Pipedrive", "saas", "PIPEDRIVE_API_TOKEN={h:40}")
v("Close CRM", "saas", "CLOSE_API_KEY=api_{a:22}.{a:22}")
v("Copper CRM", "saas", "COPPER_API_KEY={h:32}", "COPPER_USER_EMAIL={email:corp}")
v("Zoho CRM", "saas", "ZOHO_REFRESH_TOKEN=1000.{h:32}.{h:32}")
v("Xero", "fintech", "XERO_CLIENT_ID={H:32}", "XERO_CLIENT_SECRET={u:48}")
v("QuickBooks", "fintech", "QBO_REFRESH_TOKEN=AB11{a:46}")
v("FreshBooks", "fintech", "FRESHBOOKS_TOKEN=eyJ{b:40}{b:160}")
v("Gusto", "fintech", "GUSTO_API_TOKEN={h:64}")
v("Greenhouse", "saas", "GREENHOUSE_API_KEY={h:32}-{d:1}")
v("BambooHR", "saas", "BAMBOOHR_API_KEY={h:40}")
v("Lever", "saas", "LEVER_API_KEY={u:32}")
v("Personio", "saas", "PERSONIO_CLIENT_ID=papi-{uuid}", "PERSONIO_CLIENT_SECRET=papi-{u:44}")
v("Rippling", "saas", "RIPPLING_API_TOKEN={a:64}")
v("Deel", "saas", "DEEL_API_TOKEN={u:96}")
v("Algolia write key", "search", "ALGOLIA_WRITE_API_KEY={h:32}")
v("Google reCAPTCHA secret", "identity", "RECAPTCHA_SECRET_KEY=6L{u:38}")
v("Cloudflare Turnstile secret", "identity", "TURNSTILE_SECRET_KEY=0x4AAAAAAA{u:22}")
v("hCaptcha secret", "identity", "HCAPTCHA_SECRET=0x{h:40}")
v("Sentry relay secret", "observability", "RELAY_SECRET_KEY={u:43}")
v("Vonage Video", "media", "OPENTOK_API_KEY={d:8}", "OPENTOK_API_SECRET={h:40}")
v("Bandcamp/merch store admin", "commerce", "STORE_ADMIN_PASSWORD={hpw}", "STORE_ADMIN_EMAIL={email}")

# --- IoT / smart home / hardware
v("Particle", "iot", "PARTICLE_ACCESS_TOKEN={h:40}")
v("Adafruit IO", "iot", "IO_USERNAME={user}", "IO_KEY=aio_{a:28}")
v("ThingSpeak write key", "iot", "THINGSPEAK_WRITE_KEY={A:16}")
v("Blynk", "iot", "BLYNK_AUTH_TOKEN={u:32}")
v("Arduino Cloud", "iot", "ARDUINO_CLIENT_ID={a:32}", "ARDUINO_CLIENT_SECRET={a:64}")
v("Tuya", "iot", "TUYA_ACCESS_ID={l:20}", "TUYA_ACCESS_SECRET={h:32}")
v("SmartThings PAT", "iot", "SMARTTHINGS_TOKEN={uuid}")
v("Philips Hue bridge user", "iot", "HUE_USERNAME={u:40}")
v("AWS IoT device cert key", "iot", "DEVICE_PRIVATE_KEY={pem_rsa}")
v("Azure IoT Hub device", "iot", "IOTHUB_DEVICE_CONNECTION_STRING=HostName={word}-hub.azure-devices.net;DeviceId={word}-{d:3};SharedAccessKey={b64:32}")
v("Losant", "iot", "LOSANT_ACCESS_KEY={uuid}", "LOSANT_ACCESS_SECRET={h:64}")
v("The Things Network", "iot", "TTN_API_KEY=NNSXS.{A:39}.{A:52}")
v("MQTT broker", "iot", "MQTT_URL=mqtts://{user}:{upw}@{word}.s1.eu.hivemq.cloud:8883")
v("Shelly Cloud", "iot", "SHELLY_AUTH_KEY=M{b:60}")
v("Ring refresh token", "iot", "RING_REFRESH_TOKEN={b:40}{b:300}")
v("Nest/SDM refresh", "iot", "SDM_REFRESH_TOKEN=1//0{u:6}{u:90}")
v("Octopus Energy", "iot", "OCTOPUS_API_KEY=sk_live_{a:24}")
v("Tesla Fleet token", "iot", "TESLA_ACCESS_TOKEN={jwt}")
v("Frigate/RTSP camera", "iot", "CAMERA_URL=rtsp://admin:{upw}@{ip}:554/Streaming/Channels/101")
v("Octoprint", "iot", "OCTOPRINT_API_KEY={H:32}")
v("ESPHome API encryption key", "iot", "ESPHOME_API_KEY={b64:32}")
v("Zigbee2MQTT network key", "iot", "Z2M_NETWORK_KEY=[{d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}, {d:2}]")
v("DuckDNS", "network", "DUCKDNS_TOKEN={uuid}")
v("No-IP DDNS", "network", "NOIP_USERNAME={email}", "NOIP_PASSWORD={hpw}")
v("Dynu", "network", "DYNU_API_KEY={a:30}")
v("Namecheap", "network", "NAMECHEAP_API_USER={user}", "NAMECHEAP_API_KEY={h:32}")
v("GoDaddy", "network", "GODADDY_API_KEY={a:12}_{a:22}", "GODADDY_API_SECRET={a:22}")
v("Gandi", "network", "GANDI_PAT={h:40}")
v("Porkbun", "network", "PORKBUN_API_KEY=pk1_{h:64}", "PORKBUN_SECRET_KEY=sk1_{h:64}")
v("Let's Encrypt ACME account key", "privatekey", "ACME_ACCOUNT_KEY={pem_ec}")
v("Certbot DNS Cloudflare", "network", "dns_cloudflare_api_token={u:40}")
v("Route53 DDNS user", "cloud", "DDNS_AWS_ACCESS_KEY_ID=AKIA{A:16}", "DDNS_AWS_SECRET_ACCESS_KEY={b:40}")

SPECIAL["basicauth"] = lambda a: "Basic " + b64s(f"{uname()}:{pw_strong()}")

# ====================================================================== containers
# Every container renders a list of (NAME, value) pairs.  The same containers render
# the vendor credentials (secret) and plain configuration (benign).


def slugify(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def snake(n):
    return re.sub(r"[^a-z0-9]+", "_", n.lower()).strip("_")


def camel(n):
    p = snake(n).split("_")
    return p[0] + "".join(w.title() for w in p[1:])


def pascal(n):
    return "".join(w.title() for w in snake(n).split("_"))


def kebab(n):
    return snake(n).replace("_", "-")


def jq(v):
    return json.dumps(v, ensure_ascii=False)


def sq(v):
    if "'" in v:
        return jq(v)
    return "'" + v + "'"


def shq(v):
    if "'" not in v:
        return "'" + v + "'"
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


PLAIN_YAML = re.compile(r"[A-Za-z0-9_./@+-][A-Za-z0-9_./@+=~,-]*")


def yv(v, ind):
    if "\n" in v:
        return "|\n" + "\n".join((" " * ind + line) if line else "" for line in v.split("\n"))
    if PLAIN_YAML.fullmatch(v) and not re.fullmatch(r"[0-9.eE+-]+|true|false|yes|no|null|on|off", v, re.I) and chance(0.6):
        return v
    if chance(0.3) and "'" not in v:
        return "'" + v + "'"
    return jq(v)


def xmlesc(v):
    return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def clsname(x):
    w = re.findall(r"[A-Za-z0-9]+", x["vendor"])
    return "".join(t[:1].upper() + t[1:] for t in w[:2]) + ch(["Client", "", "API", "Service"])


IMAGES = ["python:3.12-slim", "node:20-alpine", "golang:1.22", "eclipse-temurin:21-jre", "ruby:3.3",
          "php:8.3-fpm", "alpine:3.20", "ubuntu:24.04", "debian:bookworm-slim", "mcr.microsoft.com/dotnet/aspnet:8.0"]


def c_dotenv(P, x):
    out = []
    if chance(0.35):
        out.append(ch([f"# {x['app']}", f"# --- {x['slug']} ---", "# local overrides", f"# {x['vendor']}", "# copied from staging", f"# .env.{ch(ENVS)}"]))
    for n, v in P:
        if "\n" in v:
            out.append(f'{n}="{v}"')
        elif re.search(r"[\s#'\"$;&|<>()]", v):
            out.append(f'{n}="{v}"' if '"' not in v else f"{n}='{v}'")
        else:
            q = ch(["", "", '"'])
            out.append(f"{n}={q}{v}{q}")
    return "\n".join(out)


def c_export(P, x):
    out = []
    for n, v in P:
        if "\n" in v:
            out.append(f'export {n}="$(cat <<\'EOF\'\n{v}\nEOF\n)"')
        else:
            out.append(f"export {n}={shq(v)}")
    if chance(0.3):
        out.append(ch([f"./bin/{x['app']} --env {ch(ENVS)}", "make run", "source venv/bin/activate", f"npm run start:{ch(ENVS)}"]))
    return "\n".join(out)


def c_yaml(P, x):
    k = ri(0, 2)
    if k == 0:
        return f"{x['slug']}:\n" + "\n".join(f"  {snake(n)}: {yv(v, 4)}" for n, v in P)
    if k == 1:
        return (f"{ch(['integrations', 'services', 'config', 'settings', 'providers'])}:\n  {x['slug']}:\n"
                + "\n".join(f"    {snake(n)}: {yv(v, 6)}" for n, v in P))
    return "\n".join(f"{n}: {yv(v, 2)}" for n, v in P)


def c_json(P, x):
    k = ri(0, 2)
    if k == 0:
        d = {x["slug"]: {snake(n): v for n, v in P}}
    elif k == 1:
        d = {n: v for n, v in P}
    else:
        d = {"name": x["app"], "env": {n: v for n, v in P}}
    return json.dumps(d, indent=ch([2, 4]), ensure_ascii=False)


def c_toml(P, x):
    out = [f"[{x['slug'].replace('-', '_')}]"]
    for n, v in P:
        out.append(f'{snake(n)} = """\n{v}"""' if "\n" in v else f"{snake(n)} = {jq(v)}")
    return "\n".join(out)


def c_ini(P, x):
    return f"[{x['slug']}]\n" + "\n".join(f"{snake(n)} {ch(['=', '='])} {v}" for n, v in P)


def c_properties(P, x):
    pre = x["app"].replace("-", ".") + "." + x["slug"].replace("-", ".")
    return "\n".join(f"{pre}.{kebab(n)}={v}" for n, v in P)


DOCKER_CMDS = ['["python", "main.py"]', '["node", "server.js"]', '["/bin/app"]', '["bundle", "exec", "puma"]']
DOCKER_RUNS = ['pip install -r requirements.txt', 'npm ci --omit=dev', 'go build -o /bin/app ./cmd/app', 'bundle install']


def dockq(v):
    return jq(v) if re.search(r"[\s#]", v) else v


def c_dockerfile(P, x):
    img = ch(IMAGES)
    env = "\n".join(f"ENV {n}={dockq(v)}" for n, v in P)
    wd = ch(["app", "srv", "opt/" + x["app"]])
    return f"FROM {img}\nWORKDIR /{wd}\nCOPY . .\n{env}\nRUN {ch(DOCKER_RUNS)}\nCMD {ch(DOCKER_CMDS)}"


def c_compose(P, x):
    if chance(0.5):
        env = "\n".join(f"      {n}: {yv(v, 8)}" for n, v in P)
    else:
        env = "\n".join(f"      - {n}={v}" for n, v in P)
    return (f"services:\n  {x['app']}:\n    image: {ch(['ghcr.io', 'registry.gitlab.com', 'docker.io'])}/{ch(WORDS)}/{x['app']}:{ri(1, 4)}.{ri(0, 20)}\n"
            f"    restart: unless-stopped\n    environment:\n{env}\n    ports:\n      - \"{ri(3000, 9000)}:{ri(3000, 9000)}\"")


def c_k8s(P, x):
    name = f"{x['slug']}-{ch(['config', 'env', 'settings', 'creds'])}"
    ns = ch(["default", "prod", "apps", x["app"], "platform"])
    if chance(0.85 if x["ncred"] else 0.35):
        if chance(0.7) or any("\n" in v for _, v in P):
            body = "stringData:\n" + "\n".join(f"  {n}: {yv(v, 4)}" for n, v in P)
        else:
            body = "data:\n" + "\n".join(f"  {n}: {b64s(v)}" for n, v in P)
        return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}\n  namespace: {ns}\ntype: Opaque\n{body}"
    body = "data:\n" + "\n".join(f"  {n}: {yv(v, 4)}" for n, v in P)
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: {ns}\n{body}"


def c_helm(P, x):
    return (f"# values-{ch(ENVS)}.yaml\n{camel(x['slug'])}:\n  enabled: true\n  replicaCount: {ri(1, 5)}\n  image:\n    tag: \"{ri(1, 9)}.{ri(0, 30)}.{ri(0, 9)}\"\n  env:\n"
            + "\n".join(f"    {n}: {yv(v, 6)}" for n, v in P))


def tfv(v):
    if "\n" in v:
        return "<<-EOT\n" + "\n".join("    " + line for line in v.split("\n")) + "\n  EOT"
    return jq(v)


def c_terraform(P, x):
    k = ri(0, 3)
    s = x["slug"].replace("-", "_")
    if k == 0:
        return f'provider "{s}" {{\n' + "\n".join(f"  {snake(n)} = {tfv(v)}" for n, v in P) + "\n}"
    if k == 1:
        return f"# {ch(ENVS)}.auto.tfvars\n" + "\n".join(f"{snake(n)} = {tfv(v)}" for n, v in P)
    if k == 2:
        return "\n\n".join(f'variable "{snake(n)}" {{\n  type    = string\n  default = {tfv(v)}\n}}' for n, v in P)
    return (f'resource "kubernetes_config_map" "{s}" {{\n  metadata {{\n    name = "{x["slug"]}"\n  }}\n  data = {{\n'
            + "\n".join(f"    {n} = {tfv(v)}" for n, v in P) + "\n  }\n}")


def c_gha(P, x):
    env = "\n".join(f"      {n}: {yv(v, 8)}" for n, v in P)
    return (f"name: {ch(['deploy', 'ci', 'release', 'nightly'])}\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
            f"    env:\n{env}\n    steps:\n      - uses: actions/checkout@v4\n      - run: {ch(['make deploy', './scripts/release.sh', 'npm test', 'pytest -q'])}")


def c_gitlab(P, x):
    env = "\n".join(f"  {n}: {yv(v, 4)}" for n, v in P)
    return (f"variables:\n{env}\n\n{ch(['deploy', 'build', 'test'])}:\n  stage: {ch(['deploy', 'build', 'test'])}\n  image: {ch(IMAGES)}\n"
            f"  script:\n    - {ch(['./deploy.sh', 'make release', 'python -m pytest', 'npm run build'])}")


def c_jenkins(P, x):
    env = "\n".join(f"        {n} = {sq(v)}" for n, v in P)
    return (f"pipeline {{\n    agent any\n    environment {{\n{env}\n    }}\n    stages {{\n        stage('{ch(['Build', 'Deploy', 'Test'])}') {{\n"
            f"            steps {{ sh '{ch(['./gradlew build', 'make deploy', 'npm ci && npm test'])}' }}\n        }}\n    }}\n}}")


def c_circleci(P, x):
    env = "\n".join(f"      {n}: {yv(v, 8)}" for n, v in P)
    return (f"version: 2.1\njobs:\n  build:\n    docker:\n      - image: cimg/{ch(['python:3.12', 'node:20.11', 'go:1.22'])}\n    environment:\n{env}\n"
            f"    steps:\n      - checkout\n      - run: {ch(['make test', 'npm test', 'go test ./...'])}")


def curl_ok(x):
    cred = x["cred"]
    if not cred:
        return True
    if any("ACCESS_KEY" in n.upper() or "SECRET_KEY" in n.upper() for n, _ in cred):
        return False
    if len(cred) > 2 or any("\n" in v for _, v in cred):
        return False
    if len(cred) == 1:
        v = cred[0][1]
        return v.startswith("http") or ("://" not in v and " " not in v.replace("Basic ", "").replace("FlyV1 ", ""))
    return all("://" not in v and " " not in v and ":" not in v for _, v in cred)


def api_host(x):
    return x.get("api") or f"api.{x['slug'].split('-')[0]}.{ch(['com', 'io', 'dev'])}"


def auth_header(x, v):
    if v.startswith("Basic ") or v.startswith("FlyV1 "):
        return f"Authorization: {v}"
    return (x.get("hdr") or "Authorization: Bearer {v}").replace("{v}", v)


PATHS = ["/v1/me", "/v2/status", "/v1/items?limit=10", "/api/v1/projects", "/v1/accounts", "/health",
         "/v1/usage", "/api/v2/users/me", "/v3/events?since=yesterday", "/v1/messages"]


def c_curl(P, x):
    api, path = api_host(x), ch(PATHS)
    extra = [(n, v) for n, v in P if (n, v) not in x["cred"]]
    qs = "&".join(f"{snake(n)}={urllib.parse.quote(v, safe='')}" for n, v in extra)
    url = f"https://{api}{path}" + (("&" if "?" in path else "?") + qs if qs else "")
    cred = x["cred"]
    if not cred:
        return f"curl -s '{url}' -H 'Accept: application/json'" + ch(["", " | jq .", " -o out.json"])
    if len(cred) == 1:
        v = cred[0][1]
        if v.startswith("http"):
            return f"curl -X POST -H 'Content-Type: application/json' \\\n  -d '{{\"text\": \"{ch(['deploy finished', 'backup ok', 'build #' + str(ri(100, 999)) + ' passed'])}\"}}' \\\n  '{v}'"
        return f"curl -s \\\n  -H \"{auth_header(x, v)}\" \\\n  '{url}'"
    return f"curl -s -u '{cred[0][1]}:{cred[1][1]}' '{url}'"


UAS = ["python-requests/2.32.3", "curl/8.5.0", "axios/1.7.2", "Go-http-client/2.0", "PostmanRuntime/7.39.0", "okhttp/4.12.0"]


def c_http(P, x):
    api, path = api_host(x), ch(PATHS)
    cred = x["cred"]
    lines = [f"{ch(['GET', 'GET', 'POST'])} {path} HTTP/1.1", f"Host: {api}"]
    if len(cred) == 1:
        v = cred[0][1]
        if v.startswith("http"):
            u = urllib.parse.urlsplit(v)
            lines = [f"POST {u.path}{'?' + u.query if u.query else ''} HTTP/1.1", f"Host: {u.netloc}"]
        else:
            lines.append(auth_header(x, v))
    elif len(cred) == 2:
        lines.append("Authorization: Basic " + b64s(f"{cred[0][1]}:{cred[1][1]}"))
    for n, v in P:
        if (n, v) not in cred:
            lines.append(f"X-{pascal(n).replace('_', '-')}: {v}")
    lines += ["Accept: application/json", f"User-Agent: {ch(UAS)}"]
    return "\n".join(lines)


def pyv(v):
    if "\n" in v:
        return '"""' + v + '"""'
    return jq(v) if chance(0.6) else sq(v)


def c_python(P, x):
    k = ri(0, 4)
    if k == 0:
        return "\n".join(f"{n} = {pyv(v)}" for n, v in P)
    if k == 1:
        return "import os\n\n" + "\n".join(f"os.environ.setdefault({jq(n)}, {pyv(v)})" for n, v in P)
    if k == 2:
        return (f"from {slugify(x['vendor']).split('-')[0]} import {clsname(x)}\n\nclient = {clsname(x)}(\n"
                + "\n".join(f"    {snake(n)}={pyv(v)}," for n, v in P) + "\n)")
    if k == 3:
        return "SETTINGS = {\n" + "\n".join(f"    {jq(n)}: {pyv(v)}," for n, v in P) + "\n}"
    return ("from pydantic_settings import BaseSettings\n\n\nclass Settings(BaseSettings):\n"
            + "\n".join(f"    {snake(n)}: str = {pyv(v)}" for n, v in P))


def jsv(v):
    if "\n" in v:
        return "`" + v + "`"
    return sq(v) if chance(0.6) else jq(v)


def c_js(P, x):
    k = ri(0, 3)
    if k == 0:
        return "\n".join(f"const {camel(n)} = {jsv(v)};" for n, v in P)
    if k == 1:
        return "module.exports = {\n" + "\n".join(f"  {camel(n)}: {jsv(v)}," for n, v in P) + "\n};"
    if k == 2:
        return "\n".join(f"process.env.{n} ??= {jsv(v)};" for n, v in P)
    return (f"import {{ {clsname(x)} }} from '{slugify(x['vendor']).split('-')[0]}';\n\nconst client = new {clsname(x)}({{\n"
            + "\n".join(f"  {camel(n)}: {jsv(v)}," for n, v in P) + "\n});")


def c_ts(P, x):
    return ("export const config = {\n" + "\n".join(f"  {camel(n)}: {jq(v)}," for n, v in P) + "\n} as const;\n"
            + ch(["", "\nexport type Config = typeof config;"]))


def c_go(P, x):
    if chance(0.5):
        return "const (\n" + "\n".join(f"\t{camel(n)} = {('`' + v + '`') if chr(10) in v else jq(v)}" for n, v in P) + "\n)"
    return "func init() {\n" + "\n".join(f"\tos.Setenv({jq(n)}, {('`' + v + '`') if chr(10) in v else jq(v)})" for n, v in P) + "\n}"


def c_java(P, x):
    return (f"public final class {pascal(x['slug'])}Config {{\n" + "\n".join(f"    public static final String {n} = {jq(v)};" for n, v in P)
            + f"\n\n    private {pascal(x['slug'])}Config() {{}}\n}}")


def c_csharp(P, x):
    if chance(0.5):
        return "\n".join(f"Environment.SetEnvironmentVariable({jq(n)}, {jq(v)});" for n, v in P)
    return (f"internal static class {pascal(x['slug'])}Settings\n{{\n" + "\n".join(f"    public const string {pascal(n)} = {jq(v)};" for n, v in P) + "\n}")


def c_ruby(P, x):
    if chance(0.5):
        return "\n".join((f"ENV[{jq(n)}] ||= <<~KEY\n{v}\nKEY" if "\n" in v else f"ENV[{jq(n)}] ||= {sq(v)}") for n, v in P)
    return (f"{clsname(x)}.configure do |config|\n" + "\n".join((f"  config.{snake(n)} = <<~KEY\n{v}\n  KEY" if "\n" in v else f"  config.{snake(n)} = {sq(v)}") for n, v in P) + "\nend")


def c_php(P, x):
    if chance(0.5):
        return "<?php\n" + "\n".join(f"define('{n}', {sq(v)});" for n, v in P)
    return "<?php\n\nreturn [\n" + "\n".join(f"    '{snake(n)}' => {sq(v)}," for n, v in P) + "\n];"


def c_rust(P, x):
    return "\n".join(f"pub const {n}: &str = {jq(v)};" for n, v in P)


def c_kotlin(P, x):
    return "object Config {\n" + "\n".join(f"    const val {n} = {jq(v)}" for n, v in P) + "\n}"


def c_swift(P, x):
    return f"enum {ch(['AppConfig', 'Env', 'Constants', 'Secrets', 'Keys'])} {{\n" + "\n".join(f"    static let {camel(n)} = {jq(v)}" for n, v in P) + "\n}"


def c_notebook(P, x):
    n0 = ri(1, 40)
    k = ri(0, 2)
    if k == 0:
        return f"In [{n0}]: import os\n" + "\n".join(f"   ...: os.environ[{sq(n)}] = {pyv(v)}" for n, v in P)
    if k == 1:
        return "\n".join(f"%env {n}={v}" for n, v in P if "\n" not in v) or "\n".join(f"{n} = {pyv(v)}" for n, v in P)
    return "# cell " + str(n0) + "\n" + "\n".join(f"{snake(n)} = {pyv(v)}" for n, v in P) + "\nprint('configured')"


def kvlines(P, style=None):
    style = style or ri(0, 2)
    if style == 0:
        return "\n".join(f"{n}={v}" for n, v in P)
    if style == 1:
        return "\n".join(f"{snake(n)}: {v}" for n, v in P)
    return "\n".join(f"- {n.replace('_', ' ').lower()}: {v}" for n, v in P)


def c_chat(P, x):
    a, b = first(), first()
    t = f"{ri(8, 18):02d}:{ri(0, 59):02d}"
    opener = ch([f"can you send me the {x['slug']} settings for {x['app']}?", f"what do I put in the env for {x['app']}?",
                 f"{x['vendor']} config pls", f"setting up {x['app']} locally, what are the values?"])
    return (f"[{t}] {a}: {opener}\n[{t}] {b}: here you go\n[{t}] {b}: {kvlines(P)}\n[{t}] {a}: {ch(['thanks!', '👍', 'ty', 'got it, cheers'])}")


def c_email(P, x):
    a, b = full_name(), first()
    return (f"From: {a} <{email(True)}>\nTo: {b.lower()}@{ch(CORP)}\nSubject: {x['vendor']} setup for {x['app']}\n\n"
            f"Hi {b},\n\n{ch(['as discussed', 'as promised', 'following up on the call', 'here is what you need'])}, the values for {x['app']} ({ch(ENVS)}):\n\n"
            f"{kvlines(P)}\n\n{ch(['Cheers', 'Best', 'Thanks', 'Regards'])},\n{a.split()[0]}")


def c_ticket(P, x):
    proj = ch(["OPS", "PLAT", "INFRA", "DEV", "SUP", "SRE", "IT"])
    return (f"[{proj}-{ri(100, 9999)}] Configure {x['vendor']} for {x['app']}\nStatus: {ch(['In Progress', 'Open', 'Review', 'Done'])}\n"
            f"Assignee: {full_name()}\n\nValues for the {ch(ENVS)} environment:\n{kvlines(P)}\n\n"
            f"Acceptance: {ch(['deploy passes smoke tests', 'dashboard shows data', 'integration test green'])}")


def c_note(P, x):
    return f"{x['vendor']} — {x['app']}\n{kvlines(P)}"


def c_runbook(P, x):
    h = host()
    steps = [f"ssh deploy@{h}"] + [f"`export {n}={shq(v)}`" if "\n" not in v else f"paste into /etc/{x['app']}/{snake(n)}:\n```\n{v}\n```" for n, v in P]
    steps += [f"sudo systemctl restart {x['app']}", f"check https://{h}/healthz"]
    return f"## Runbook: redeploy {x['app']}\n" + "\n".join(f"{i + 1}. {s}" for i, s in enumerate(steps))


def c_sql(P, x):
    if chance(0.5):
        return ("INSERT INTO integration_settings (provider, name, value) VALUES\n"
                + ",\n".join(f"  ('{x['slug']}', '{n}', '{v.replace(chr(39), chr(39) * 2)}')" for n, v in P) + ";")
    return "\n".join(f"UPDATE app_config SET value = '{v.replace(chr(39), chr(39) * 2)}' WHERE key = '{snake(n)}';" for n, v in P)


def c_powershell(P, x):
    return "\n".join(f'$env:{n} = {jq(v)}' for n, v in P)


def c_makefile(P, x):
    return "\n".join(f"{n} ?= {v}" for n, v in P) + f"\n\n{ch(['deploy', 'run', 'up'])}:\n\t./scripts/{ch(['deploy', 'start', 'up'])}.sh"


def c_systemd(P, x):
    return (f"[Unit]\nDescription={x['app']}\n\n[Service]\n" + "\n".join(f'Environment="{n}={v}"' for n, v in P)
            + f"\nExecStart=/usr/local/bin/{x['app']}\nRestart=always")


def c_ansible(P, x):
    return f"# group_vars/{ch(ENVS)}.yml\n" + "\n".join(f"{snake(n)}: {yv(v, 2)}" for n, v in P)


def c_xml(P, x):
    return "<appSettings>\n" + "\n".join(f'  <add key="{n}" value="{xmlesc(v)}" />' for n, v in P) + "\n</appSettings>"


def c_csv(P, x):
    def q(s):
        return '"' + s.replace('"', '""') + '"' if re.search(r'[,"]', s) else s
    return "service,name,value\n" + "\n".join(f"{x['slug']},{n},{q(v)}" for n, v in P)


def c_fish(P, x):
    return "\n".join(f"set -gx {n} {shq(v)}" for n, v in P)


def c_cmd(P, x):
    return "\n".join(f'setx {n} "{v}"' if chance(0.5) else f"set {n}={v}" for n, v in P)


def c_crontab(P, x):
    return "\n".join(f"{n}={v}" for n, v in P) + f"\n{ri(0, 59)} {ri(0, 23)} * * * /usr/local/bin/{x['app']}-job >> /var/log/{x['app']}.log 2>&1"


def c_serverless(P, x):
    return (f"service: {x['app']}\nprovider:\n  name: aws\n  runtime: {ch(['nodejs20.x', 'python3.12'])}\n  region: {fill('{region}')}\n  environment:\n"
            + "\n".join(f"    {n}: {yv(v, 6)}" for n, v in P))


def c_docker_run(P, x):
    return "docker run -d --name " + x["app"] + " \\\n" + " \\\n".join(f"  -e {n}={shq(v)}" for n, v in P) + f" \\\n  {ch(['ghcr.io', 'docker.io'])}/{ch(WORDS)}/{x['app']}:latest"


def c_kubectl(P, x):
    kind = "secret generic" if chance(0.85 if x["ncred"] else 0.3) else "configmap"
    return f"kubectl create {kind} {x['slug']}-env -n {ch(['default', 'prod', 'apps'])} \\\n" + " \\\n".join(f"  --from-literal={n}={shq(v)}" for n, v in P)


def c_cli(P, x):
    k = ri(0, 3)
    if k == 0:
        return f"heroku config:set " + " ".join(f"{n}={shq(v)}" for n, v in P) + f" -a {x['app']}"
    if k == 1:
        return "\n".join(f"railway variables --set \"{n}={v}\"" for n, v in P)
    if k == 2:
        return "\n".join(f"netlify env:set {n} {shq(v)}" for n, v in P)
    return "\n".join(ch([f"gh secret set {n} --body {shq(v)}", f"fly secrets set {n}={shq(v)}", f"gh variable set {n} --body {shq(v)}"]) for n, v in P)


def c_postman(P, x):
    return json.dumps({"name": f"{x['app']} ({ch(ENVS)})", "values": [{"key": n, "value": v, "enabled": True} for n, v in P]}, indent=2, ensure_ascii=False)


def c_dotnet(P, x):
    return "\n".join(f'dotnet user-secrets set "{pascal(x["slug"])}:{pascal(n)}" "{v}"' for n, v in P)


def c_spring(P, x):
    return f"spring:\n  application:\n    name: {x['app']}\n{x['slug']}:\n" + "\n".join(f"  {kebab(n)}: {yv(v, 4)}" for n, v in P)


def c_vscode(P, x):
    return json.dumps({"version": "0.2.0", "configurations": [{"name": f"Run {x['app']}", "type": ch(["python", "node", "go"]), "request": "launch",
                                                                "env": {n: v for n, v in P}}]}, indent=2, ensure_ascii=False)


def c_supervisord(P, x):
    return f"[program:{x['app']}]\ncommand=/usr/local/bin/{x['app']}\nenvironment=" + ",".join(f'{n}="{v}"' for n, v in P)


def c_elixir(P, x):
    return f"config :{x['app'].replace('-', '_')}, {pascal(x['app'])}.{pascal(x['slug'])},\n" + ",\n".join(f"  {snake(n)}: {jq(v)}" for n, v in P)


def c_appsettings(P, x):
    return json.dumps({"Logging": {"LogLevel": {"Default": "Information"}}, pascal(x["slug"]): {pascal(n): v for n, v in P}}, indent=2, ensure_ascii=False)


CONTAINERS = [
    ("dotenv", c_dotenv, True), ("shell-export", c_export, True), ("yaml", c_yaml, True), ("json", c_json, True),
    ("toml", c_toml, True), ("ini", c_ini, False), ("properties", c_properties, False), ("dockerfile", c_dockerfile, False),
    ("compose", c_compose, False), ("k8s", c_k8s, True), ("helm", c_helm, True), ("terraform", c_terraform, True),
    ("github-actions", c_gha, True), ("gitlab-ci", c_gitlab, True), ("jenkinsfile", c_jenkins, False), ("circleci", c_circleci, False),
    ("curl", c_curl, False), ("http", c_http, False), ("python", c_python, True), ("javascript", c_js, True),
    ("typescript", c_ts, False), ("go", c_go, True), ("java", c_java, False), ("csharp", c_csharp, False),
    ("ruby", c_ruby, True), ("php", c_php, False), ("rust", c_rust, False), ("kotlin", c_kotlin, False),
    ("swift", c_swift, False), ("notebook", c_notebook, True), ("chat", c_chat, True), ("email", c_email, True),
    ("ticket", c_ticket, True), ("note", c_note, True), ("runbook", c_runbook, True), ("sql", c_sql, False),
    ("powershell", c_powershell, False), ("makefile", c_makefile, False), ("systemd", c_systemd, False),
    ("ansible", c_ansible, True), ("xml", c_xml, False), ("csv", c_csv, False), ("fish", c_fish, False),
    ("cmd", c_cmd, False), ("crontab", c_crontab, False), ("serverless", c_serverless, False),
    ("docker-run", c_docker_run, False), ("kubectl", c_kubectl, False), ("paas-cli", c_cli, False),
    ("postman", c_postman, True), ("dotnet-user-secrets", c_dotnet, False), ("spring", c_spring, True),
    ("vscode-launch", c_vscode, True), ("supervisord", c_supervisord, False), ("elixir", c_elixir, False),
    ("appsettings", c_appsettings, True),
]


CRED_WORDS = {"secret", "key", "keys", "token", "tokens", "password", "passwords", "pat", "private", "api", "access", "auth",
              "credential", "credentials", "app-level", "session", "refresh", "bearer", "signing", "webhook", "secrets", "only",
              "legacy", "opaque", "long", "new", "format", "plaintext", "header", "cookie", "hmac", "static", "admin", "service",
              "account", "user", "personal", "management", "master", "ingest", "integration", "classic", "fine-grained"}


def display_vendor(v):
    base = re.sub(r"\([^)]*\)", "", v)
    words = [w for w in base.split() if w.lower() not in CRED_WORDS]
    return " ".join(words) if words else ch(["backend", "integration", "platform"])


def render_pairs(P, cred, vendor, api=None, hdr=None):
    """Pick a container compatible with the pairs and render them."""
    vendor = display_vendor(vendor)
    x = {"vendor": vendor, "slug": slugify(vendor)[:24].strip("-"), "app": ch(APPS), "ncred": len(cred),
         "cred": cred, "api": api, "hdr": hdr}
    ml = any("\n" in v for _, v in P)
    while True:
        name, fn, mlok = ch(CONTAINERS)
        if ml and not mlok:
            continue
        if name in ("curl", "http") and not curl_ok(x):
            continue
        if name in ("curl", "http") and ml:
            continue
        return name, fn(P, x)


# benign configuration pairs (generic) and vendor non-secret settings
GENERIC_PAIRS = [
    ("LOG_LEVEL", "{pick:info|debug|warn|error}"), ("PORT", "{num:3000-9000}"), ("TIMEOUT_SECONDS", "{num:5-120}"),
    ("NODE_ENV", "{pick:production|development|test}"), ("MAX_RETRIES", "{num:1-8}"), ("FEATURE_FLAGS", "{pick:beta,search|new-checkout|dark-mode,export}"),
    ("CACHE_TTL", "{num:60-86400}"), ("DEBUG", "{pick:false|true|0|1}"), ("APP_NAME", "{app}"), ("BASE_URL", "https://{host}"),
    ("WORKERS", "{num:1-16}"), ("TZ", "{pick:Europe/Berlin|UTC|America/New_York|Asia/Tokyo|Europe/Lisbon}"), ("DB_HOST", "{host}"),
    ("DB_PORT", "{pick:5432|3306|27017|6379}"), ("DB_NAME", "{db}"), ("DB_USER", "{user}"), ("SMTP_HOST", "smtp.{corp}"),
    ("SMTP_PORT", "{pick:587|465|25|2525}"), ("S3_BUCKET", "{word}-{word}-{pick:assets|backups|uploads|logs}"),
    ("AWS_REGION", "{region}"), ("REDIS_URL", "redis://{pick:localhost|redis|cache}:6379/{num:0-5}"),
    ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector:4317"), ("PAGE_SIZE", "{num:10-200}"),
    ("ALLOWED_HOSTS", "{host},localhost"), ("CORS_ORIGINS", "https://{corp}"), ("RATE_LIMIT_PER_MIN", "{num:30-1200}"),
    ("ENVIRONMENT", "{env}"), ("RELEASE", "v{num:1-9}.{num:0-40}.{num:0-9}"), ("SENTRY_ENVIRONMENT", "{env}"),
    ("METRICS_PATH", "/metrics"), ("UPLOAD_MAX_MB", "{num:5-500}"), ("LOCALE", "{pick:en_US|de_DE|fr_FR|pt_BR|ja_JP}"),
    ("QUEUE_NAME", "{word}-jobs"), ("HEALTHCHECK_INTERVAL", "{num:5-60}s"), ("GIT_SHA", "{h:40}"), ("BUILD_NUMBER", "{num:100-9999}"),
    ("IMAGE_TAG", "{h:7}"), ("KAFKA_TOPIC", "{word}.{word}.v{num:1-3}"), ("GRPC_PORT", "{num:50051-50059}"), ("HTTP_PROXY_ENABLED", "false"),
]
VENDOR_SETTINGS = [
    ("OpenAI", "OPENAI_MODEL", "{pick:gpt-4o-mini|gpt-4.1|o3-mini}"), ("OpenAI", "OPENAI_BASE_URL", "https://api.openai.com/v1"),
    ("OpenAI", "OPENAI_ORG_NAME", "{word}-labs"), ("Anthropic", "ANTHROPIC_MODEL", "{pick:claude-3-5-sonnet-latest|claude-3-5-haiku-latest}"),
    ("Anthropic", "ANTHROPIC_MAX_TOKENS", "{num:256-8192}"), ("Twilio", "TWILIO_FROM_NUMBER", "+1{n:1}{d:9}"),
    ("Twilio", "TWILIO_MESSAGING_REGION", "{pick:us1|ie1|au1}"), ("Slack", "SLACK_CHANNEL", "#{pick:deploys|alerts|ops|general}"),
    ("Slack", "SLACK_USERNAME", "{word}-bot"), ("Datadog", "DD_SITE", "{pick:datadoghq.com|datadoghq.eu|us5.datadoghq.com}"),
    ("Datadog", "DD_ENV", "{env}"), ("Datadog", "DD_SERVICE", "{app}"), ("Sentry", "SENTRY_TRACES_SAMPLE_RATE", "0.{num:1-9}"),
    ("GitHub", "GITHUB_REPOSITORY", "{word}/{app}"), ("GitHub", "GITHUB_API_URL", "https://api.github.com"),
    ("AWS", "AWS_DEFAULT_REGION", "{region}"), ("AWS", "AWS_DEFAULT_OUTPUT", "json"), ("AWS", "AWS_PROFILE", "{pick:default|prod|dev-admin}"),
    ("Google Cloud", "GOOGLE_CLOUD_PROJECT", "{word}-{word}-{num:100000-999999}"), ("Google Cloud", "GCP_REGION", "{pick:europe-west1|us-central1|asia-east1}"),
    ("Azure", "AZURE_LOCATION", "{pick:westeurope|eastus2|northeurope}"), ("Azure", "AZURE_RESOURCE_GROUP", "rg-{app}-{env}"),
    ("Mailgun", "MAILGUN_DOMAIN", "mg.{corp}"), ("SendGrid", "SENDGRID_TEMPLATE_ID", "d-{h:32}"), ("SendGrid", "SENDGRID_FROM", "noreply@{corp}"),
    ("PostgreSQL", "PGHOST", "{host}"), ("PostgreSQL", "PGSSLMODE", "require"), ("Redis", "REDIS_DB", "{num:0-15}"),
    ("Kafka", "KAFKA_BOOTSTRAP_SERVERS", "broker-1:9092,broker-2:9092"), ("Elasticsearch", "ES_INDEX", "logs-{word}"),
    ("Cloudflare", "CF_ZONE_NAME", "{corp}"), ("Vercel", "VERCEL_ENV", "{pick:preview|production}"), ("Netlify", "NETLIFY_SITE_NAME", "{word}-{word}"),
    ("Auth0", "AUTH0_DOMAIN", "{word}.eu.auth0.com"), ("Auth0", "AUTH0_AUDIENCE", "https://api.{corp}"), ("Okta", "OKTA_ORG_URL", "https://{word}.okta.com"),
    ("Docker", "DOCKER_REGISTRY", "ghcr.io/{word}"), ("npm", "NPM_CONFIG_REGISTRY", "https://registry.npmjs.org/"),
    ("Mapbox", "MAPBOX_STYLE", "mapbox://styles/mapbox/streets-v12"), ("Shopify", "SHOPIFY_SHOP", "{word}-{word}.myshopify.com"),
    ("HubSpot", "HUBSPOT_PORTAL_ID", "{d:8}"), ("Zendesk", "ZENDESK_SUBDOMAIN", "{word}"), ("Jira", "JIRA_PROJECT_KEY", "{U:4}"),
    ("PagerDuty", "PAGERDUTY_SERVICE", "{word}-oncall"), ("LaunchDarkly", "LD_PROJECT_KEY", "default"), ("Algolia", "ALGOLIA_INDEX_NAME", "products_{env}"),
    ("Pinecone", "PINECONE_INDEX", "{word}-embeddings"), ("Hugging Face", "HF_HOME", "/data/hf-cache"), ("Kubernetes", "KUBE_NAMESPACE", "{word}"),
    ("Stripe", "STRIPE_API_VERSION", "2024-06-20"), ("Stripe", "STRIPE_CURRENCY", "{pick:eur|usd|gbp}"), ("Stripe", "STRIPE_PRICE_ID", "price_{a:24}"),
    ("MongoDB", "MONGO_DB_NAME", "{db}"), ("RabbitMQ", "RABBITMQ_VHOST", "/{word}"), ("Grafana", "GF_SERVER_ROOT_URL", "https://grafana.{corp}"),
    ("Terraform", "TF_WORKSPACE", "{env}"), ("Vault", "VAULT_ADDR", "https://vault.{corp}:8200"), ("Vault", "VAULT_NAMESPACE", "admin/{word}"),
    ("Snowflake", "SNOWFLAKE_WAREHOUSE", "{U:6}_WH"), ("Snowflake", "SNOWFLAKE_ROLE", "ANALYST"), ("Databricks", "DATABRICKS_HOST", "https://adb-{d:16}.{d:2}.azuredatabricks.net"),
    ("Supabase", "SUPABASE_URL", "https://{l:20}.supabase.co"), ("Firebase", "FIREBASE_PROJECT_ID", "{word}-{word}-{l:5}"),
    ("Cloudinary", "CLOUDINARY_CLOUD_NAME", "{l:8}"), ("Spotify", "SPOTIFY_REDIRECT_URI", "http://localhost:8888/callback"),
    ("Discord", "DISCORD_GUILD_ID", "{n:1}{d:17}"), ("Telegram", "TELEGRAM_CHAT_ID", "-100{d:10}"), ("New Relic", "NEW_RELIC_APP_NAME", "{app}"),
    ("Honeycomb", "HONEYCOMB_DATASET", "{app}"), ("Plausible", "PLAUSIBLE_DOMAIN", "{corp}"), ("Matomo", "MATOMO_SITE_ID", "{num:1-40}"),
    ("Home Assistant", "HASS_URL", "http://homeassistant.local:8123"), ("MQTT", "MQTT_TOPIC", "home/{word}/state"), ("Tailscale", "TS_HOSTNAME", "{word}-{num:1-9}"),
]

# ====================================================================== personal secrets (English)
BIP = ("abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve "
       "acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance "
       "advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert "
       "alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst "
       "anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart "
       "apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive "
       "arrow art artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract "
       "auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby "
       "bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket "
       "battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best "
       "betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak "
       "bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring "
       "borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring "
       "brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle "
       "dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline "
       "decorate decrease deer defense define defy degree delay deliver demand denial dentist deny depart depend deposit "
       "depth deputy derive describe desert design desk despair destroy detail detect develop device devote diagram dial "
       "diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree discover "
       "eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow "
       "elder electric elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower "
       "fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal father "
       "gadget gain galaxy gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general "
       "habit hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy "
       "ice icon idea identify idle ignore ill illegal illness image imitate immense immune impact impose improve impulse "
       "jacket jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just "
       "kangaroo keen keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know "
       "lab label labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer "
       "machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple marble "
       "naive name napkin narrow nasty nation nature near neck need negative neglect neither nephew nerve nest net network "
       "oak obey object oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old "
       "olive olympic omit once one onion online only open opera opinion oppose option orange orbit orchard order ordinary").split()


def seed_words(n):
    return [ch(BIP) for _ in range(n)]


def kcode():
    return ch([pin(4), pin(4), pin(5), pin(6), pin(4) + "#", "*" + pin(4), pin(4) + "*", "#" + pin(4)])


def combo3():
    a, b, c = ri(0, 39), ri(0, 39), ri(0, 39)
    return ch([f"{a:02d}-{b:02d}-{c:02d}", f"{a}-{b}-{c}", f"R{a} L{b} R{c}", f"{a} {b} {c}"])


def wifi_pw():
    return pw_human() if chance(0.7) else pw_strong(ri(10, 16))


def ssid():
    return ch([f"{ch(WORDS).title()}Net", f"{surname()}_WiFi", f"Vodafone-{rs('ABCDEF0123456789', 4)}",
               f"FRITZ!Box 7590 {rs(UP, 2)}", f"BT-{rs(UP + DG, 6)}", f"{ch(HWORDS)}-5G", f"NETGEAR{ri(10, 99)}",
               f"Livebox-{rs('0123456789ABCDEF', 4)}", "Casa-Guest", f"TP-Link_{rs('0123456789ABCDEF', 4)}"])


BANKS = ["Chase", "Barclays", "Santander", "ING", "N26", "Monzo", "HSBC", "BNP", "Sparkasse", "Revolut",
         "Wells Fargo", "Nationwide", "Commerzbank", "CaixaBank", "Rabobank", "Lloyds", "Credit Union"]
SERVICES = ["Google", "GitHub", "Proton", "Dropbox", "Coinbase", "Microsoft", "Discord", "Bitwarden", "Twitter", "Kraken",
            "Amazon", "Instagram", "Binance", "Fastmail", "Nextcloud"]


def b32secret(n=32):
    return rs("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", n)


def grouped(s, k=4, sep=" "):
    return sep.join(s[i:i + k] for i in range(0, len(s), k))


def backup_codes(n=None):
    n = n or ch([8, 10])
    k = ri(0, 2)
    if k == 0:
        return [f"{digits(4)} {digits(4)}" for _ in range(n)]
    if k == 1:
        return [f"{rs(LO + DG, 5)}-{rs(LO + DG, 5)}" for _ in range(n)]
    return [digits(8) for _ in range(n)]


def card_block(style=None):
    brand, num = card_number()
    exp, c = card_exp(), cvv(brand)
    nm = full_name()
    style = ri(0, 6) if style is None else style
    f = fmt_card(num, ch([" ", " ", "-", ""]))
    if style == 0:
        return f"Card: {brand} {f} exp {exp} CVV {c}"
    if style == 1:
        return f"card no {f}\nexp {exp}\ncvc {c}\nname {nm}"
    if style == 2:
        return f"{nm.upper()}\n{f}\n{exp}  {c}"
    if style == 3:
        return f"new {brand.lower()} for online stuff {f} {exp} sec code {c}"
    if style == 4:
        return f"Mum's card (for the pharmacy order): {f}, expires {exp}, code on back {c}"
    if style == 5:
        return f"Name on card: {nm}\nCard number: {f}\nExpiry: {exp}\nCVV: {c}"
    return f"{brand} ending {num[-4:]} — full no. {f} / {exp} / {c} (work travel card)"


def gift_code():
    g = ALPH["g"]
    k = ri(0, 10)
    if k == 0:
        return "Amazon", f"claim code {rs(g, 4)}-{rs(g, 6)}-{rs(g, 4)}"
    if k == 1:
        return "Apple", f"code X{rs(UP + DG, 15)}"
    if k == 2:
        return "Google Play", f"code {grouped(rs(g, 20), 4, ' ')}"
    if k == 3:
        return "Steam", f"wallet code {rs(g, 5)}-{rs(g, 5)}-{rs(g, 5)}"
    if k == 4:
        return "Xbox", f"code {'-'.join(rs(g, 5) for _ in range(5))}"
    if k == 5:
        return "PlayStation", f"voucher {rs(g, 4)}-{rs(g, 4)}-{rs(g, 4)}"
    if k == 6:
        return "Nintendo eShop", f"code {grouped(rs(g, 16), 4, ' ')}"
    if k == 7:
        return "Target", f"card {digits(15, True)}{ri(0, 9)} access number {digits(8)}"
    if k == 8:
        return "Starbucks", f"card {grouped(digits(16, True))} security code {digits(8)}"
    if k == 9:
        return "IKEA", f"gift card {digits(19, True)} PIN {digits(4)}"
    return "Netflix", f"gift PIN {rs(UP + DG, 11)}"


def zoom_id():
    return f"{ri(800, 999)} {ri(1000, 9999)} {ri(1000, 9999)}"


def en_personal():
    """Return (kind, text) for one English personal secret."""
    k = ri(0, 60)
    v = kcode()
    city = ch(CITIES)
    if k <= 1:
        return "door-code", ch([f"front door code {v}", f"Door code at Mum's new flat: {v} (press the key symbol first)",
                                f"🚪 {v}", f"apt door = {v}", f"new door cod is {v} - changed after the cleaners left",
                                f"Door code for the Airbnb in {city}: {v}", f"office side door keypad {v}, front desk closes at 6"])
    if k <= 3:
        return "gate-code", ch([f"gate code for the community pool: {v}", f"Gate {v} then wait for the beep",
                                f"grandma's gate code changed to {v}", f"back gate (allotment) {v}",
                                f"Fwd: Hi all, the new gate code as of Monday is {v}. Please keep it within the building. – HOA",
                                f"gate code @ {city} campsite: {v}"])
    if k == 4:
        return "building-entry-code", ch([f"call box code for Priya's building: {v}", f"intercom: dial {ri(100, 999)} then code {v}",
                                          f"lobby keypad code {v} (after 10pm)", f"entry code for the co-working space {v}"])
    if k <= 6:
        return "alarm-code", ch([f"alarm code {v} (disarm within 30s!!)", f"House alarm: code {pin(4)}, duress code {pin(4)}",
                                 f"ADT code: {pin(ri(4, 6))}", f"alarm pin for the shop — {pin(4)}. Sam sets it when leaving",
                                 f"Voice memo: ok so the alarm code at the cabin is {pin(4)}, and the panel is behind the coats"])
    if k == 7:
        return "garage-code", ch([f"garage keypad {pin(4)} + enter", f"garage door: {pin(ri(4, 6))}", f"Garage code for Dad's: {pin(4)} (still the old one)"])
    if k == 8:
        return "safe-code", ch([f"safe combo {combo3()}", f"hotel room safe — I set it to {pin(4)}", f"gun safe: {pin(ri(4, 6))}",
                                f"office safe combination: right {ri(10, 39)}, left {ri(10, 39)}, right {ri(10, 39)}"])
    if k == 9:
        return "locker-code", ch([f"gym locker #{ri(10, 300)} combo {pin(4)}", f"school locker combination {combo3()}",
                                  f"locker at work: {pin(4)}", f"swim club locker {ri(1, 99)} — code {pin(4)}"])
    if k == 10:
        return "keybox-code", ch([f"key box by the back door, code {pin(4)}", f"Airbnb lockbox {pin(4)}, keys on the hook inside",
                                  f"Keysafe for Dad's carers: {pin(4)}", f"key lockbox at the cottage is {pin(4)} (the black one by the shed)"])
    if k == 11:
        return "bike-lock-code", ch([f"bike lock {pin(4)}", f"🚲 lock combo: {pin(ri(4, 5))}", f"kids' bike lock: {pin(3)}", f"cargo bike lock = {pin(4)}"])
    if k == 12:
        return ch([("padlock-code", f"shed padlock {pin(3)}"), ("padlock-code", f"storage cage padlock: {pin(4)}"),
                   ("padlock-code", f"padlock on the trailer hitch {pin(4)}"), ("luggage-lock-code", f"suitcase lock set to {pin(3)}"),
                   ("luggage-lock-code", f"TSA lock on the blue bag: {pin(3)}")])
    if k == 13:
        return ch([("mailbox-code", f"mailbox combo {pin(4)}"), ("mailbox-code", f"PO box combination: {combo3()}"),
                   ("storage-unit-code", f"Storage unit gate code {pin(4)}, unit B-{ri(10, 99)}")])
    if k <= 15:
        p = pin(4)
        return "card-pin", ch([f"PIN for the {ch(BANKS)} debit card: {p}", f"new card pin {p}", f"{ch(BANKS)} visa pin {p}",
                               f"Mum's bank card PIN is {p} (for the pharmacy)", f"credit card PIN {p} — shred the letter",
                               f"pin nr for joint acct card {p}"])
    if k == 16:
        return "phone-passcode", ch([f"phone unlock pin {pin(6)}", f"iPad passcode {pin(4)}", f"Mom's phone passcode: {pin(6)}",
                                     f"kids' tablet unlock {pin(4)}", f"old android pattern = 1-4-7-8-9 then pin {pin(4)}"])
    if k == 17:
        return ch([("sim-pin", f"SIM PIN {pin(4)} / PUK {digits(8)}"), ("sim-pin", f"PUK code for the work SIM: {digits(8)}"),
                   ("voicemail-pin", f"voicemail PIN: {pin(4)}"), ("voicemail-pin", f"vm pin {pin(ri(4, 6))}")])
    if k == 18:
        return "parental-pin", ch([f"Screen Time passcode (kids don't know): {pin(4)}", f"Netflix profile lock PIN {pin(4)}",
                                   f"TV parental control PIN {pin(4)}", f"Switch parental controls PIN {pin(4)}"])
    if k == 19:
        return "car-code", ch([f"car door keypad code {pin(5)}", f"PIN to Drive: {pin(4)}", f"car radio code {pin(4)} (if battery dies)",
                               f"van immobiliser code {pin(4)}"])
    if k <= 23:
        w = wifi_pw()
        s = ssid()
        return "wifi-password", ch([f"wifi pw {w}", f"WiFi: {s} / {w}", f"Network: {s}\nPassword: {w}", f"guest wifi at the office is {w}",
                                    f"wifi password at grandma's: {w}", f"Fwd from Tom: wifi is {s}, pass {w} 🙂",
                                    f"the wiffi password is {w} (capital first letter)", f"📶 {s} → {w}",
                                    f"Holiday rental in {city} wifi: {w}"])
    if k == 24:
        return "router-admin", ch([f"router admin login admin / {pw_strong(12)} at 192.168.1.1", f"Fritz!Box password: {pw_human()}",
                                   f"NAS admin pw {pw_strong()} (DSM at 192.168.{ri(0, 2)}.{ri(2, 250)}:5001)"])
    if k <= 30:
        pw, em, us = pw_any(), email(), uname()
        return "account-password", ch([f"gmail pw {pw}", f"Netflix login: {em} / {pw}", f"school portal: user {us}, pass {pw}",
                                       f"bank login - user {us} pw {pw}", f"work laptop password {pw}", f"Apple ID {em} pw {pw}",
                                       f"amazon password {pw}", f"Spotify family acct {em} {pw}", f"Disney+ (shared w/ Ana): {em} / {pw}",
                                       f"electricity account online: {em} / pw {pw}", f"pswd for the council tax portal: {pw}",
                                       f"Login for the kids' school app: {em}\npassword: {pw}", f"VPN for work: {us} / {pw}",
                                       f"insurance portal  {em}  {pw}", f"Steam acct {us} pass {pw}", f"wordpress admin for the club site: {us} / {pw}"])
    if k <= 32:
        o = digits(6)
        return "one-time-code", ch([f"verification code {o} (expires in 10 min)", f"Your code is {o} — from the bank app",
                                    f"G-{o}", f"2FA code for the transfer: {o}", f"Fwd: {o} is your Microsoft account security code",
                                    f"login code {o[:3]} {o[3:]}", f"{o} <- code from the delivery app, driver asked for it"])
    if k == 33:
        codes = backup_codes()
        svc = ch(SERVICES)
        return "backup-codes", ch([f"{svc} backup codes:\n" + "\n".join(codes), f"{svc} recovery codes: " + ", ".join(codes),
                                   f"2FA backup ({svc}) — keep offline\n" + "\n".join(f"{i + 1}. {c}" for i, c in enumerate(codes))])
    if k == 34:
        s, svc, em = b32secret(ch([16, 32])), ch(SERVICES), email()
        return "totp-seed", ch([f"authenticator setup key for {svc}: {grouped(s.lower())}",
                                f"otpauth://totp/{svc}:{em}?secret={s}&issuer={svc}",
                                f"2FA secret (in case phone dies) {svc}: {s}"])
    if k <= 36:
        n = ch([12, 12, 24])
        w = seed_words(n)
        return "seed-phrase", ch([f"wallet seed: {' '.join(w)}", "recovery phrase (metamask):\n" + "\n".join(f"{i + 1}. {x}" for i, x in enumerate(w)),
                                  f"Ledger {n} words: {' '.join(w)}", f"seed for the old trezor — {', '.join(w)}"])
    if k == 37:
        return "wallet-key", ch([f"ETH priv key 0x{rs(ALPH['h'], 64)}", f"BTC WIF: {wif()}", f"old wallet private key {rs(ALPH['h'], 64)}",
                                 f"paper wallet (the one in the drawer) key: {wif()}"])
    if k <= 40:
        return "card-details", card_block()
    if k <= 42:
        brand, code = gift_code()
        return "gift-card-code", ch([f"{brand} gift card {code}", f"{brand} {code} ($50 from Aunt May)",
                                     f"unused {brand} gift card — {code}", f"birthday gift card for Leo: {brand} {code}"])
    if k == 43:
        return "parcel-locker-code", ch([f"Amazon Locker pickup code {digits(6)} (Whole Foods on {ch(STREETS)})",
                                         f"InPost collection code {digits(6)}, locker {rs(UP, 3)}{ri(10, 99)}M",
                                         f"parcel locker code {digits(6)} — expires Friday", f"DHL Packstation {ri(100, 199)} pickup code {digits(6)}"])
    if k <= 45:
        zid, zp = zoom_id(), ch([digits(6), rs(ALNUM, 6)])
        return "meeting-passcode", ch([f"Zoom: ID {zid} passcode {zp}", f"Teams meeting ID: {ri(100, 999)} {ri(100, 999)} {ri(100, 999)} {ri(100, 999)} Passcode: {rs(ALNUM, 6)}",
                                       f"webex pw {rs(ALNUM, 11)} (meeting {ri(2000, 2999)} {ri(100, 999)} {ri(1000, 9999)})",
                                       f"join link https://us02web.zoom.us/j/{zid.replace(' ', '')}?pwd={rs(ALNUM, 32)}",
                                       f"parents' evening zoom {zid}, code {zp}"])
    if k <= 47:
        return "security-answer", ch([f"Bank security Q - mother's maiden name: {surname()}", f"security question 'first pet' -> {ch(PETS)}",
                                      f"secret answer for the pension site: {ch(HWORDS)}{ri(1, 99)}", f"memorable word for Halifax: {ch(HWORDS)}",
                                      f"sec. question (street you grew up on): {ch(STREETS)}", f"first school (security Q): St {first()}'s"])
    if k == 48:
        return "phone-banking-passcode", ch([f"telephone banking passcode {pin(5)}", f"phone banking security number {pin(6)}",
                                             f"{ch(BANKS)} phone PIN {pin(4)} and memorable date 14 Feb"])
    if k == 49:
        return "tax-portal-pin", ch([f"IRS IP PIN for 2025: {digits(6)}", f"Government Gateway ID {digits(12)} password {pw_any()}",
                                     f"tax portal login {uname()} / {pw_any()}"])
    if k == 50:
        return "badge-pin", ch([f"badge PIN {pin(4)}", f"printer release PIN {pin(4)}", f"photocopier code at the library {pin(5)}"])
    if k == 51:
        bl = "-".join(digits(6) for _ in range(8))
        return "recovery-key", ch([f"BitLocker recovery key: {bl}", f"FileVault recovery key {'-'.join(rs(UP + DG, 4) for _ in range(6))}",
                                   f"Apple recovery key {'-'.join(rs(UP + DG, 4) for _ in range(7))}"])
    if k == 52:
        ap = " ".join(rs(LO, 4) for _ in range(4))
        return "app-password", ch([f"app password for Thunderbird: {ap}", f"gmail app pw (for the printer scan-to-email): {ap}",
                                   f"outlook app password {rs(LO, 16)}"])
    if k == 53:
        return "laptop-password", ch([f"BIOS supervisor password {pw_strong(10)}", f"old macbook login {pw_any()}", f"FileVault login pw {pw_any()}"])
    if k <= 55:
        items = []
        gens = [lambda: f"gym locker {pin(4)}", lambda: f"bike {pin(4)}", lambda: f"garage {pin(4)}", lambda: f"gate {kcode()}",
                lambda: f"keybox {pin(4)}", lambda: f"shed {pin(3)}", lambda: f"alarm {pin(4)}", lambda: f"wifi {wifi_pw()}"]
        for g in sample(gens, ri(2, 4)):
            items.append(g())
        return "code-list", ch(["codes:\n", "", "house stuff\n", "🔢\n"]) + "\n".join(f"- {i}" for i in items)
    if k == 56:
        return "streaming-login", f"{ch(['HBO', 'Hulu', 'Prime Video', 'YouTube Premium', 'Crunchyroll'])} — {email()} / {pw_any()}"
    if k == 57:
        return "alarm-code", f"Fwd from Dad: the alarm code is {pin(4)} and the spare key is with Mrs {surname()}"
    if k == 58:
        return "door-code", f"Voice memo transcript: uh the door code for the new office is {pin(4)}, no wait, it's {pin(4)}"
    if k == 59:
        pw = pw_any()
        return "account-password", f"Form:\nUsername: {uname()}\nPassword: {pw}\nConfirm password: {pw}"
    return "wifi-password", f"wifi for the party 🎉\nname: {ssid()}\npw: {wifi_pw()}"


# ====================================================================== other languages
# code, 8 labels (door|gate|alarm|wifi|card PIN|mail password|safe|verification code),
# 3 frames, 5 benign notes, 2 credential-talk lines without any value.
LANGS_RAW = [
    ("es", "código de la puerta|código del portón|código de la alarma|contraseña del wifi|PIN de la tarjeta|contraseña del correo|combinación de la caja fuerte|código de verificación",
     "{k}: {v}|Apuntar → {k} {v}|Para no olvidarlo 😅 {k} = {v}",
     "Cita con el dentista el martes a las {t}|Comprar {n} huevos, leche y pan integral|El tren a Sevilla sale a las {t}, vagón {n}|Pagar la factura de la luz antes del día {d}|Reunión de padres en el colegio, aula {m}, a las {t}",
     "Tengo que cambiar la contraseña del wifi este fin de semana|Pedirle a Carmen el código nuevo del portón"),
    ("fr", "code de la porte|code du portail|code de l'alarme|mot de passe wifi|code PIN de la carte|mot de passe de la boîte mail|combinaison du coffre-fort|code de vérification",
     "{k} : {v}|À retenir — {k} {v}|{k} = {v} (ne pas partager)",
     "Rendez-vous chez le dentiste mardi à {t}|Acheter {n} œufs, du lait et du pain complet|Le train pour Lyon part à {t}, voiture {n}|Payer la facture d'électricité avant le {d}|Réunion parents-profs salle {m} à {t}",
     "Penser à changer le mot de passe du wifi ce week-end|Demander à Julie le nouveau code du portail"),
    ("de", "Türcode|Tor-Code|Code der Alarmanlage|WLAN-Passwort|PIN der EC-Karte|E-Mail-Passwort|Tresorkombination|Bestätigungscode",
     "{k}: {v}|Merken → {k} {v}|{k} ist {v}, nicht weitersagen",
     "Zahnarzttermin Dienstag um {t} Uhr|Einkaufen: {n} Eier, Milch, Vollkornbrot|Zug nach Hamburg fährt um {t}, Wagen {n}|Stromrechnung bis zum {d}. überweisen|Elternabend in Raum {m} um {t}",
     "Am Wochenende das WLAN-Passwort ändern|Frau Keller nach dem neuen Türcode fragen"),
    ("it", "codice del portone|codice del cancello|codice dell'allarme|password del wifi|PIN del bancomat|password della mail|combinazione della cassaforte|codice di verifica",
     "{k}: {v}|Da ricordare → {k} {v}|{k} = {v} 🙏",
     "Dentista martedì alle {t}|Comprare {n} uova, latte e pane integrale|Il treno per Bologna parte alle {t}, carrozza {n}|Pagare la bolletta della luce entro il {d}|Colloquio con i professori aula {m} alle {t}",
     "Cambiare la password del wifi nel weekend|Chiedere a Giulia il nuovo codice del cancello"),
    ("pt", "código da porta|código do portão|código do alarme|senha do wifi|PIN do cartão|senha do email|combinação do cofre|código de verificação",
     "{k}: {v}|Anotar → {k} {v}|Pra não esquecer: {k} é {v}",
     "Dentista na terça às {t}|Comprar {n} ovos, leite e pão integral|O comboio para o Porto sai às {t}, carruagem {n}|Pagar a conta da luz até dia {d}|Reunião de pais na sala {m} às {t}",
     "Preciso trocar a senha do wifi no fim de semana|Perguntar à Ana o novo código do portão"),
    ("nl", "deurcode|poortcode|alarmcode|wifi-wachtwoord|pincode bankpas|wachtwoord e-mail|kluiscombinatie|verificatiecode",
     "{k}: {v}|Onthouden → {k} {v}|{k} is {v}, niet doorsturen",
     "Tandarts dinsdag om {t}|Boodschappen: {n} eieren, melk, volkorenbrood|Trein naar Utrecht vertrekt om {t}, spoor {n}|Energierekening betalen voor de {d}e|Ouderavond lokaal {m} om {t}",
     "Dit weekend het wifi-wachtwoord veranderen|Aan Sanne de nieuwe poortcode vragen"),
    ("sv", "portkod|grindkod|larmkod|wifi-lösenord|pinkod till kortet|mejllösenord|kassaskåpskombination|verifieringskod",
     "{k}: {v}|Kom ihåg → {k} {v}|{k} = {v} (byt efter sommaren)",
     "Tandläkare tisdag kl {t}|Handla {n} ägg, mjölk och fullkornsbröd|Tåget till Göteborg går {t}, vagn {n}|Betala elräkningen senast den {d}|Föräldramöte i sal {m} kl {t}",
     "Ändra wifi-lösenordet i helgen|Fråga Karin om den nya portkoden"),
    ("nb", "dørkode|portkode|alarmkode|wifi-passord|PIN-kode til kortet|e-postpassord|safekombinasjon|bekreftelseskode",
     "{k}: {v}|Husk → {k} {v}|{k} er {v}",
     "Tannlege tirsdag kl. {t}|Kjøpe {n} egg, melk og grovbrød|Toget til Bergen går {t}, vogn {n}|Betale strømregningen innen den {d}.|Foreldremøte på rom {m} kl. {t}",
     "Bytte wifi-passordet i helgen|Spørre Ingrid om den nye portkoden"),
    ("da", "dørkode|lågekode|alarmkode|wifi-kode|pinkode til kortet|adgangskode til mail|pengeskabskombination|bekræftelseskode",
     "{k}: {v}|Husk → {k} {v}|{k} = {v} (skift efter ferien)",
     "Tandlæge tirsdag kl. {t}|Købe {n} æg, mælk og rugbrød|Toget til Aarhus kører {t}, vogn {n}|Betale elregningen senest den {d}.|Forældremøde i lokale {m} kl. {t}",
     "Skifte wifi-koden i weekenden|Spørge Mette om den nye lågekode"),
    ("fi", "ovikoodi|portin koodi|hälytyskoodi|wifin salasana|kortin PIN-koodi|sähköpostin salasana|kassakaapin yhdistelmä|vahvistuskoodi",
     "{k}: {v}|Muista → {k} {v}|{k} on {v}",
     "Hammaslääkäri tiistaina klo {t}|Osta {n} kananmunaa, maitoa ja ruisleipää|Juna Tampereelle lähtee {t}, vaunu {n}|Maksa sähkölasku {d}. päivään mennessä|Vanhempainilta luokassa {m} klo {t}",
     "Vaihda wifin salasana viikonloppuna|Kysy Annelta portin uusi koodi"),
    ("pl", "kod do drzwi|kod do bramy|kod alarmu|hasło do wifi|PIN do karty|hasło do poczty|szyfr do sejfu|kod weryfikacyjny",
     "{k}: {v}|Zapamiętać → {k} {v}|{k} to {v}, nie podawać nikomu",
     "Dentysta we wtorek o {t}|Kupić {n} jajek, mleko i chleb razowy|Pociąg do Krakowa odjeżdża o {t}, wagon {n}|Zapłacić rachunek za prąd do {d}.|Wywiadówka w sali {m} o {t}",
     "W weekend zmienić hasło do wifi|Zapytać Kasię o nowy kod do bramy"),
    ("cs", "kód od dveří|kód od brány|kód alarmu|heslo k wifi|PIN ke kartě|heslo k e-mailu|kombinace trezoru|ověřovací kód",
     "{k}: {v}|Zapamatovat → {k} {v}|{k} je {v}",
     "Zubař v úterý v {t}|Koupit {n} vajec, mléko a celozrnný chléb|Vlak do Brna jede v {t}, vůz {n}|Zaplatit elektřinu do {d}.|Třídní schůzky v učebně {m} v {t}",
     "O víkendu změnit heslo k wifi|Zeptat se Petry na nový kód od brány"),
    ("sk", "kód od dverí|kód od brány|kód alarmu|heslo na wifi|PIN ku karte|heslo k e-mailu|kombinácia trezoru|overovací kód",
     "{k}: {v}|Zapamätať → {k} {v}|{k} je {v}",
     "Zubár v utorok o {t}|Kúpiť {n} vajec, mlieko a chlieb|Vlak do Košíc ide o {t}, vozeň {n}|Zaplatiť elektrinu do {d}.|Rodičovské združenie v triede {m} o {t}",
     "Cez víkend zmeniť heslo na wifi|Opýtať sa Zuzany na nový kód od brány"),
    ("hu", "ajtókód|kapukód|riasztókód|wifi jelszó|bankkártya PIN|e-mail jelszó|széf kombináció|ellenőrző kód",
     "{k}: {v}|Megjegyezni → {k} {v}|{k} = {v}",
     "Fogorvos kedden {t}-kor|Venni: {n} tojás, tej, teljes kiőrlésű kenyér|A debreceni vonat {t}-kor indul, {n}. kocsi|Villanyszámlát befizetni {d}-ig|Szülői értekezlet a {m}-es teremben {t}-kor",
     "Hétvégén megváltoztatni a wifi jelszót|Megkérdezni Évát az új kapukódról"),
    ("ro", "codul ușii|codul porții|codul alarmei|parola de la wifi|PIN-ul cardului|parola de la mail|combinația seifului|cod de verificare",
     "{k}: {v}|De reținut → {k} {v}|{k} e {v}",
     "Dentist marți la {t}|De cumpărat {n} ouă, lapte și pâine integrală|Trenul spre Cluj pleacă la {t}, vagonul {n}|Plătit factura la curent până pe {d}|Ședință cu părinții în sala {m} la {t}",
     "Schimb parola de la wifi în weekend|O întreb pe Ioana de noul cod al porții"),
    ("tr", "kapı şifresi|bahçe kapısı kodu|alarm kodu|wifi şifresi|kart şifresi|e-posta şifresi|kasa şifresi|doğrulama kodu",
     "{k}: {v}|Unutma → {k} {v}|{k} {v} (kimseye söyleme)",
     "Salı saat {t} dişçi randevusu|{n} yumurta, süt ve kepekli ekmek al|Ankara treni saat {t}, vagon {n}|Elektrik faturasını ayın {d}'ine kadar öde|Veli toplantısı {m} numaralı sınıfta, saat {t}",
     "Hafta sonu wifi şifresini değiştir|Ayşe'ye yeni kapı kodunu sor"),
    ("el", "κωδικός πόρτας|κωδικός αυλόπορτας|κωδικός συναγερμού|κωδικός wifi|PIN κάρτας|κωδικός email|συνδυασμός χρηματοκιβωτίου|κωδικός επαλήθευσης",
     "{k}: {v}|Να θυμάμαι → {k} {v}|{k} = {v}",
     "Οδοντίατρος την Τρίτη στις {t}|Να πάρω {n} αυγά, γάλα και ψωμί ολικής|Το τρένο για Θεσσαλονίκη φεύγει στις {t}, βαγόνι {n}|Πληρωμή λογαριασμού ρεύματος έως τις {d}|Συνάντηση γονέων στην αίθουσα {m} στις {t}",
     "Να αλλάξω τον κωδικό του wifi το Σαββατοκύριακο|Να ρωτήσω τη Μαρία για τον νέο κωδικό της αυλόπορτας"),
    ("ru", "код домофона|код от ворот|код сигнализации|пароль от вайфая|ПИН-код карты|пароль от почты|комбинация сейфа|код подтверждения",
     "{k}: {v}|Запомнить → {k} {v}|{k} — {v}, никому не говорить",
     "Стоматолог во вторник в {t}|Купить {n} яиц, молоко и хлеб|Поезд в Казань в {t}, вагон {n}|Оплатить свет до {d} числа|Родительское собрание в кабинете {m} в {t}",
     "На выходных поменять пароль от вайфая|Спросить у Лены новый код от ворот"),
    ("uk", "код від дверей|код від воріт|код сигналізації|пароль від вайфаю|ПІН-код картки|пароль від пошти|комбінація сейфа|код підтвердження",
     "{k}: {v}|Запам'ятати → {k} {v}|{k} — {v}",
     "Стоматолог у вівторок о {t}|Купити {n} яєць, молоко і хліб|Потяг до Львова о {t}, вагон {n}|Сплатити за світло до {d} числа|Батьківські збори в кабінеті {m} о {t}",
     "На вихідних змінити пароль від вайфаю|Запитати в Оксани новий код від воріт"),
    ("bg", "код на входа|код на портата|код на алармата|парола за wifi|ПИН на картата|парола за пощата|комбинация на сейфа|код за потвърждение",
     "{k}: {v}|Да запомня → {k} {v}|{k} е {v}",
     "Зъболекар във вторник в {t}|Да купя {n} яйца, мляко и пълнозърнест хляб|Влакът за Варна тръгва в {t}, вагон {n}|Да платя тока до {d}-о число|Родителска среща в стая {m} в {t}",
     "Да сменя паролата за wifi през уикенда|Да питам Мария за новия код на портата"),
    ("sr", "шифра за улаз|шифра за капију|шифра аларма|лозинка за вајфај|ПИН картице|лозинка за мејл|комбинација сефа|верификациони код",
     "{k}: {v}|Запамтити → {k} {v}|{k} је {v}",
     "Зубар у уторак у {t}|Купити {n} јаја, млеко и хлеб|Воз за Нови Сад полази у {t}, вагон {n}|Платити струју до {d}.|Родитељски састанак у учионици {m} у {t}",
     "Променити лозинку за вајфај викендом|Питати Јелену за нову шифру капије"),
    ("hr", "šifra ulaza|šifra za kapiju|šifra alarma|lozinka za wifi|PIN kartice|lozinka za mail|kombinacija sefa|kod za potvrdu",
     "{k}: {v}|Zapamtiti → {k} {v}|{k} je {v}",
     "Zubar u utorak u {t}|Kupiti {n} jaja, mlijeko i kruh|Vlak za Split polazi u {t}, vagon {n}|Platiti struju do {d}.|Roditeljski sastanak u učionici {m} u {t}",
     "Vikendom promijeniti lozinku za wifi|Pitati Ivanu za novu šifru kapije"),
    ("sl", "koda za vrata|koda za dvoriščna vrata|koda alarma|geslo za wifi|PIN kartice|geslo za e-pošto|kombinacija sefa|potrditvena koda",
     "{k}: {v}|Zapomniti si → {k} {v}|{k} je {v}",
     "Zobozdravnik v torek ob {t}|Kupiti {n} jajc, mleko in kruh|Vlak za Maribor odpelje ob {t}, vagon {n}|Plačati elektriko do {d}.|Roditeljski sestanek v učilnici {m} ob {t}",
     "Med vikendom zamenjati geslo za wifi|Vprašati Majo za novo kodo vrat"),
    ("lt", "durų kodas|vartų kodas|signalizacijos kodas|wifi slaptažodis|kortelės PIN|pašto slaptažodis|seifo kodas|patvirtinimo kodas",
     "{k}: {v}|Įsiminti → {k} {v}|{k} yra {v}",
     "Odontologas antradienį {t}|Nupirkti {n} kiaušinių, pieno ir duonos|Traukinys į Kauną išvyksta {t}, vagonas {n}|Sumokėti už elektrą iki {d} d.|Tėvų susirinkimas {m} kabinete {t}",
     "Savaitgalį pakeisti wifi slaptažodį|Paklausti Rūtos naujo vartų kodo"),
    ("lv", "durvju kods|vārtu kods|signalizācijas kods|wifi parole|kartes PIN|e-pasta parole|seifa kombinācija|apstiprinājuma kods",
     "{k}: {v}|Atcerēties → {k} {v}|{k} ir {v}",
     "Zobārsts otrdien plkst. {t}|Nopirkt {n} olas, pienu un maizi|Vilciens uz Jelgavu atiet {t}, vagons {n}|Samaksāt par elektrību līdz {d}. datumam|Vecāku sapulce {m}. kabinetā plkst. {t}",
     "Nedēļas nogalē nomainīt wifi paroli|Pajautāt Ilzei jauno vārtu kodu"),
    ("et", "uksekood|väravakood|alarmikood|wifi parool|kaardi PIN|meili parool|seifi kombinatsioon|kinnituskood",
     "{k}: {v}|Meelde jätta → {k} {v}|{k} on {v}",
     "Hambaarst teisipäeval kell {t}|Osta {n} muna, piima ja leiba|Rong Tartusse väljub {t}, vagun {n}|Maksa elektriarve {d}. kuupäevaks|Lastevanemate koosolek klassis {m} kell {t}",
     "Nädalavahetusel wifi parool ära vahetada|Küsida Kadrilt uut väravakoodi"),
    ("ar", "رمز الباب|رمز البوابة|رمز الإنذار|كلمة سر الواي فاي|الرقم السري للبطاقة|كلمة سر البريد|رمز الخزنة|رمز التحقق",
     "{k}: {v}|للتذكير ← {k} {v}|{k} هو {v}",
     "موعد طبيب الأسنان يوم الثلاثاء الساعة {t}|شراء {n} بيضات وحليب وخبز|القطار إلى الإسكندرية يغادر الساعة {t}، العربة {n}|دفع فاتورة الكهرباء قبل يوم {d}|اجتماع أولياء الأمور في القاعة {m} الساعة {t}",
     "يجب تغيير كلمة سر الواي فاي في عطلة نهاية الأسبوع|أسأل سارة عن رمز البوابة الجديد"),
    ("he", "קוד לדלת|קוד לשער|קוד האזעקה|סיסמה לוויפי|קוד סודי לכרטיס|סיסמה למייל|צירוף לכספת|קוד אימות",
     "{k}: {v}|לזכור ← {k} {v}|{k} זה {v}",
     "רופא שיניים ביום שלישי ב-{t}|לקנות {n} ביצים, חלב ולחם מלא|הרכבת לחיפה יוצאת ב-{t}, קרון {n}|לשלם חשבון חשמל עד ה-{d}|אסיפת הורים בכיתה {m} ב-{t}",
     "להחליף את הסיסמה של הוויפי בסוף השבוע|לשאול את נועה מה הקוד החדש לשער"),
    ("fa", "رمز در|رمز درِ حیاط|رمز دزدگیر|رمز وای‌فای|رمز کارت بانکی|رمز ایمیل|رمز گاوصندوق|کد تأیید",
     "{k}: {v}|یادم بماند ← {k} {v}|{k} = {v}",
     "دندانپزشکی سه‌شنبه ساعت {t}|خرید: {n} تخم‌مرغ، شیر و نان سنگک|قطار مشهد ساعت {t} حرکت می‌کند، واگن {n}|قبض برق را تا {d}ام پرداخت کنم|جلسه اولیا در کلاس {m} ساعت {t}",
     "آخر هفته رمز وای‌فای را عوض کنم|از مریم رمز جدید در حیاط را بپرسم"),
    ("ur", "دروازے کا کوڈ|گیٹ کا کوڈ|الارم کا کوڈ|وائی فائی کا پاس ورڈ|کارڈ کا پن|ای میل کا پاس ورڈ|تجوری کا کوڈ|تصدیقی کوڈ",
     "{k}: {v}|یاد رکھنا ← {k} {v}|{k} ہے {v}",
     "منگل کو {t} بجے دانتوں کے ڈاکٹر سے ملاقات|{n} انڈے، دودھ اور ڈبل روٹی خریدنی ہے|لاہور کی ٹرین {t} بجے روانہ ہوگی، بوگی {n}|بجلی کا بل {d} تاریخ سے پہلے جمع کرانا ہے|کمرہ {m} میں والدین کی میٹنگ {t} بجے",
     "ہفتے کے آخر میں وائی فائی کا پاس ورڈ بدلنا ہے|عائشہ سے گیٹ کا نیا کوڈ پوچھنا ہے"),
    ("hi", "दरवाज़े का कोड|गेट का कोड|अलार्म कोड|वाईफ़ाई पासवर्ड|कार्ड का पिन|ईमेल पासवर्ड|तिजोरी का कोड|वेरिफ़िकेशन कोड",
     "{k}: {v}|याद रखना → {k} {v}|{k} है {v}",
     "मंगलवार को {t} बजे दाँत के डॉक्टर के पास जाना है|{n} अंडे, दूध और ब्रेड लाना है|दिल्ली की ट्रेन {t} बजे, कोच {n}|बिजली का बिल {d} तारीख़ तक भरना है|कमरा {m} में पेरेंट्स मीटिंग {t} बजे",
     "वीकेंड पर वाईफ़ाई का पासवर्ड बदलना है|प्रिया से गेट का नया कोड पूछना है"),
    ("bn", "দরজার কোড|গেটের কোড|অ্যালার্মের কোড|ওয়াইফাই পাসওয়ার্ড|কার্ডের পিন|ইমেইলের পাসওয়ার্ড|সিন্দুকের কোড|যাচাইকরণ কোড",
     "{k}: {v}|মনে রাখতে হবে → {k} {v}|{k} হলো {v}",
     "মঙ্গলবার {t}টায় দাঁতের ডাক্তার|{n}টা ডিম, দুধ আর পাউরুটি কিনতে হবে|ঢাকার ট্রেন {t}টায়, বগি {n}|বিদ্যুৎ বিল {d} তারিখের মধ্যে দিতে হবে|{m} নম্বর ঘরে অভিভাবক সভা {t}টায়",
     "সপ্তাহান্তে ওয়াইফাই পাসওয়ার্ড বদলাতে হবে|রিনাকে গেটের নতুন কোড জিজ্ঞেস করতে হবে"),
    ("ta", "கதவு குறியீடு|கேட் குறியீடு|அலாரம் குறியீடு|வைஃபை கடவுச்சொல்|கார்டு பின்|மின்னஞ்சல் கடவுச்சொல்|பெட்டக குறியீடு|சரிபார்ப்பு குறியீடு",
     "{k}: {v}|நினைவில் வை → {k} {v}|{k} = {v}",
     "செவ்வாய் {t} மணிக்கு பல் மருத்துவர்|{n} முட்டை, பால், ரொட்டி வாங்க வேண்டும்|சென்னை ரயில் {t} மணிக்கு, பெட்டி {n}|மின்சார கட்டணம் {d}ஆம் தேதிக்குள் கட்ட வேண்டும்|அறை {m} இல் பெற்றோர் கூட்டம் {t} மணிக்கு",
     "வார இறுதியில் வைஃபை கடவுச்சொல்லை மாற்ற வேண்டும்|கேட்டின் புதிய குறியீட்டை மீனாவிடம் கேட்க வேண்டும்"),
    ("te", "తలుపు కోడ్|గేట్ కోడ్|అలారం కోడ్|వైఫై పాస్‌వర్డ్|కార్డ్ పిన్|ఈమెయిల్ పాస్‌వర్డ్|లాకర్ కోడ్|ధృవీకరణ కోడ్",
     "{k}: {v}|గుర్తుంచుకో → {k} {v}|{k} = {v}",
     "మంగళవారం {t}కి దంత వైద్యుడి అపాయింట్‌మెంట్|{n} గుడ్లు, పాలు, బ్రెడ్ కొనాలి|హైదరాబాద్ రైలు {t}కి, బోగీ {n}|కరెంటు బిల్లు {d}వ తేదీలోగా కట్టాలి|గది {m}లో తల్లిదండ్రుల సమావేశం {t}కి",
     "వారాంతంలో వైఫై పాస్‌వర్డ్ మార్చాలి|గేట్ కొత్త కోడ్ గురించి లక్ష్మిని అడగాలి"),
    ("mr", "दरवाज्याचा कोड|गेटचा कोड|अलार्मचा कोड|वायफाय पासवर्ड|कार्डचा पिन|ईमेलचा पासवर्ड|तिजोरीचा कोड|पडताळणी कोड",
     "{k}: {v}|लक्षात ठेव → {k} {v}|{k} आहे {v}",
     "मंगळवारी {t} वाजता दाताच्या डॉक्टरकडे|{n} अंडी, दूध आणि पाव आणायचे|पुण्याची ट्रेन {t} वाजता, डबा {n}|वीज बिल {d} तारखेपर्यंत भरायचे|खोली {m} मध्ये पालक सभा {t} वाजता",
     "आठवड्याच्या शेवटी वायफायचा पासवर्ड बदलायचा|गेटचा नवीन कोड सुनीताला विचारायचा"),
    ("gu", "દરવાજાનો કોડ|ગેટનો કોડ|એલાર્મ કોડ|વાઇફાઇ પાસવર્ડ|કાર્ડનો પિન|ઇમેઇલ પાસવર્ડ|તિજોરીનો કોડ|ચકાસણી કોડ",
     "{k}: {v}|યાદ રાખવું → {k} {v}|{k} છે {v}",
     "મંગળવારે {t} વાગ્યે દાંતના ડૉક્ટર|{n} ઈંડાં, દૂધ અને બ્રેડ લાવવાં|અમદાવાદની ટ્રેન {t} વાગ્યે, ડબ્બો {n}|વીજળી બિલ {d} તારીખ સુધી ભરવું|રૂમ {m} માં વાલી મીટિંગ {t} વાગ્યે",
     "વીકએન્ડમાં વાઇફાઇ પાસવર્ડ બદલવો છે|ગેટનો નવો કોડ હેતલને પૂછવો"),
    ("pa", "ਦਰਵਾਜ਼ੇ ਦਾ ਕੋਡ|ਗੇਟ ਦਾ ਕੋਡ|ਅਲਾਰਮ ਦਾ ਕੋਡ|ਵਾਈਫਾਈ ਪਾਸਵਰਡ|ਕਾਰਡ ਦਾ ਪਿੰਨ|ਈਮੇਲ ਪਾਸਵਰਡ|ਤਿਜੋਰੀ ਦਾ ਕੋਡ|ਪੁਸ਼ਟੀ ਕੋਡ",
     "{k}: {v}|ਯਾਦ ਰੱਖਣਾ → {k} {v}|{k} ਹੈ {v}",
     "ਮੰਗਲਵਾਰ {t} ਵਜੇ ਦੰਦਾਂ ਦਾ ਡਾਕਟਰ|{n} ਆਂਡੇ, ਦੁੱਧ ਤੇ ਬਰੈੱਡ ਲਿਆਉਣੀ ਹੈ|ਅੰਮ੍ਰਿਤਸਰ ਦੀ ਰੇਲ {t} ਵਜੇ, ਡੱਬਾ {n}|ਬਿਜਲੀ ਦਾ ਬਿੱਲ {d} ਤਾਰੀਖ ਤੱਕ ਭਰਨਾ|ਕਮਰਾ {m} ਵਿੱਚ ਮਾਪਿਆਂ ਦੀ ਮੀਟਿੰਗ {t} ਵਜੇ",
     "ਹਫ਼ਤੇ ਦੇ ਅੰਤ ਵਿੱਚ ਵਾਈਫਾਈ ਪਾਸਵਰਡ ਬਦਲਣਾ ਹੈ|ਗੇਟ ਦਾ ਨਵਾਂ ਕੋਡ ਹਰਪ੍ਰੀਤ ਤੋਂ ਪੁੱਛਣਾ"),
    ("th", "รหัสประตู|รหัสประตูรั้ว|รหัสสัญญาณกันขโมย|รหัสไวไฟ|รหัส ATM|รหัสผ่านอีเมล|รหัสตู้เซฟ|รหัสยืนยัน",
     "{k}: {v}|จำไว้ → {k} {v}|{k} คือ {v}",
     "นัดหมอฟันวันอังคาร {t} น.|ซื้อไข่ {n} ฟอง นม และขนมปัง|รถไฟไปเชียงใหม่ออก {t} ตู้ {n}|จ่ายค่าไฟก่อนวันที่ {d}|ประชุมผู้ปกครองห้อง {m} เวลา {t}",
     "สุดสัปดาห์นี้ต้องเปลี่ยนรหัสไวไฟ|ถามพี่นุ่นเรื่องรหัสประตูรั้วใหม่"),
    ("vi", "mã cửa|mã cổng|mã báo động|mật khẩu wifi|mã PIN thẻ|mật khẩu email|mã két sắt|mã xác minh",
     "{k}: {v}|Nhớ nhé → {k} {v}|{k} là {v}",
     "Hẹn nha sĩ thứ Ba lúc {t}|Mua {n} quả trứng, sữa và bánh mì|Tàu đi Đà Nẵng chạy lúc {t}, toa {n}|Đóng tiền điện trước ngày {d}|Họp phụ huynh phòng {m} lúc {t}",
     "Cuối tuần phải đổi mật khẩu wifi|Hỏi chị Lan mã cổng mới"),
    ("id", "kode pintu|kode gerbang|kode alarm|kata sandi wifi|PIN kartu ATM|kata sandi email|kombinasi brankas|kode verifikasi",
     "{k}: {v}|Ingat → {k} {v}|{k} adalah {v}",
     "Ke dokter gigi hari Selasa jam {t}|Beli {n} butir telur, susu, dan roti|Kereta ke Bandung berangkat jam {t}, gerbong {n}|Bayar listrik sebelum tanggal {d}|Rapat orang tua di ruang {m} jam {t}",
     "Akhir pekan ganti kata sandi wifi|Tanya Dewi kode gerbang yang baru"),
    ("ms", "kod pintu|kod pagar|kod penggera|kata laluan wifi|PIN kad|kata laluan emel|kombinasi peti besi|kod pengesahan",
     "{k}: {v}|Ingat → {k} {v}|{k} ialah {v}",
     "Temu janji doktor gigi hari Selasa pukul {t}|Beli {n} biji telur, susu dan roti|Kereta api ke Ipoh bertolak pukul {t}, koc {n}|Bayar bil elektrik sebelum {d} haribulan|Mesyuarat ibu bapa di bilik {m} pukul {t}",
     "Hujung minggu tukar kata laluan wifi|Tanya Aisyah kod pagar yang baru"),
    ("tl", "code ng pinto|code ng gate|code ng alarm|password ng wifi|PIN ng card|password ng email|kombinasyon ng safe|verification code",
     "{k}: {v}|Tandaan → {k} {v}|Ang {k} ay {v}",
     "Dentista sa Martes, {t}|Bumili ng {n} itlog, gatas at tinapay|Aalis ang bus papuntang Baguio ng {t}, upuan {n}|Bayaran ang kuryente bago mag-{d}|Pulong ng magulang sa silid {m}, {t}",
     "Palitan ang password ng wifi sa weekend|Tanungin si Joy sa bagong code ng gate"),
    ("zh", "门禁密码|大门密码|报警器密码|WiFi密码|银行卡密码|邮箱密码|保险柜密码|验证码",
     "{k}：{v}|记一下 → {k} {v}|{k}是{v}，别告诉别人",
     "周二{t}看牙医|买{n}个鸡蛋、牛奶和全麦面包|去杭州的高铁{t}发车，{n}号车厢|{d}号之前交电费|{t}在{m}教室开家长会",
     "周末要改一下WiFi密码|问问小王大门的新密码"),
    ("zh-TW", "大門密碼|社區門禁碼|保全密碼|WiFi密碼|提款卡密碼|信箱密碼|保險箱密碼|驗證碼",
     "{k}：{v}|記下來 → {k} {v}|{k}是{v}",
     "週二{t}看牙醫|買{n}顆蛋、牛奶跟吐司|往台中的高鐵{t}出發，{n}車|{d}號前繳電費|{t}在{m}教室開家長會",
     "週末要換WiFi密碼|問阿明社區門禁的新密碼"),
    ("ja", "玄関の暗証番号|門のコード|警報の解除コード|Wi-Fiのパスワード|キャッシュカードの暗証番号|メールのパスワード|金庫の番号|認証コード",
     "{k}：{v}|メモ → {k} {v}|{k}は{v}（誰にも言わない）",
     "火曜{t}に歯医者|卵{n}個、牛乳、食パンを買う|新幹線は{t}発、{n}号車|電気代を{d}日までに払う|{t}から{m}教室で保護者会",
     "週末にWi-Fiのパスワードを変える|門の新しいコードを田中さんに聞く"),
    ("ko", "현관 비밀번호|대문 비밀번호|경보 해제 코드|와이파이 비밀번호|카드 비밀번호|메일 비밀번호|금고 비밀번호|인증번호",
     "{k}: {v}|기억하기 → {k} {v}|{k} = {v}",
     "화요일 {t} 치과 예약|계란 {n}개, 우유, 식빵 사기|부산 가는 KTX {t} 출발, {n}호차|{d}일까지 전기요금 내기|{t} {m}호 교실 학부모 모임",
     "주말에 와이파이 비밀번호 바꾸기|대문 새 비밀번호 지민이한테 물어보기"),
    ("sw", "namba ya siri ya mlango|namba ya geti|namba ya kengele|nenosiri la wifi|PIN ya kadi|nenosiri la barua pepe|namba ya sefu|msimbo wa uthibitisho",
     "{k}: {v}|Kumbuka → {k} {v}|{k} ni {v}",
     "Miadi ya daktari wa meno Jumanne saa {t}|Nunua mayai {n}, maziwa na mkate|Treni ya Mombasa inaondoka saa {t}, behewa {n}|Lipa bili ya umeme kabla ya tarehe {d}|Mkutano wa wazazi darasa {m} saa {t}",
     "Wikendi nibadilishe nenosiri la wifi|Nimuulize Amina namba mpya ya geti"),
    ("ka", "კარის კოდი|ჭიშკრის კოდი|სიგნალიზაციის კოდი|wifi-ის პაროლი|ბარათის PIN|ფოსტის პაროლი|სეიფის კოდი|დადასტურების კოდი",
     "{k}: {v}|დასამახსოვრებლად → {k} {v}|{k} არის {v}",
     "სამშაბათს {t}-ზე სტომატოლოგთან|ვიყიდო {n} კვერცხი, რძე და პური|ბათუმის მატარებელი გადის {t}-ზე, ვაგონი {n}|დენის გადასახადი {d}-მდე გადავიხადო|მშობელთა კრება {m} ოთახში {t}-ზე",
     "შაბათ-კვირას wifi-ის პაროლი შევცვალო|ნინოს ვკითხო ჭიშკრის ახალი კოდი"),
    ("hy", "դռան կոդը|դարպասի կոդը|ազդանշանի կոդը|wifi-ի գաղտնաբառը|քարտի PIN-ը|փոստի գաղտնաբառը|պահարանի կոդը|հաստատման կոդը",
     "{k}: {v}|Հիշել → {k} {v}|{k} — {v}",
     "Երեքշաբթի {t}-ին ատամնաբույժի մոտ|Գնել {n} ձու, կաթ և հաց|Գյումրիի գնացքը մեկնում է {t}-ին, վագոն {n}|Վճարել լույսի վարձը մինչև {d}-ը|Ծնողական ժողով {m} սենյակում {t}-ին",
     "Շաբաթ-կիրակի փոխել wifi-ի գաղտնաբառը|Աննային հարցնել դարպասի նոր կոդը"),
    ("is", "hurðarkóði|hliðkóði|þjófavarnarkóði|wifi lykilorð|PIN á kortinu|lykilorð að pósti|samsetning öryggisskáps|staðfestingarkóði",
     "{k}: {v}|Muna → {k} {v}|{k} er {v}",
     "Tannlæknir á þriðjudag kl. {t}|Kaupa {n} egg, mjólk og brauð|Rútan til Akureyrar fer kl. {t}, sæti {n}|Borga rafmagnsreikninginn fyrir {d}.|Foreldrafundur í stofu {m} kl. {t}",
     "Skipta um wifi lykilorð um helgina|Spyrja Guðrúnu um nýja hliðkóðann"),
    ("ca", "codi de la porta|codi de la tanca|codi de l'alarma|contrasenya del wifi|PIN de la targeta|contrasenya del correu|combinació de la caixa forta|codi de verificació",
     "{k}: {v}|Apuntar → {k} {v}|{k} és {v}",
     "Dentista dimarts a les {t}|Comprar {n} ous, llet i pa integral|El tren cap a Girona surt a les {t}, cotxe {n}|Pagar el rebut de la llum abans del dia {d}|Reunió de pares a l'aula {m} a les {t}",
     "Canviar la contrasenya del wifi aquest cap de setmana|Preguntar a la Núria el codi nou de la tanca"),
]
LANGS = [{"code": c, "labels": l.split("|"), "frames": f.split("|"), "notes": n.split("|"), "talk": t.split("|")}
         for c, l, f, n, t in LANGS_RAW]
INTL_KINDS = ["door-code", "gate-code", "alarm-code", "wifi-password", "card-pin", "account-password", "safe-code", "one-time-code"]


def intl_value(i):
    if i in (0, 1):
        return ch([pin(4), pin(5), pin(4) + "#", "#" + pin(4), pin(6), "*" + pin(4)])
    if i == 2:
        return pin(ch([4, 5, 6]))
    if i in (3, 5):
        return pw_human() if chance(0.6) else pw_strong(ri(10, 16))
    if i == 4:
        return pin(4)
    if i == 6:
        return ch([pin(4), pin(6), combo3()])
    o = digits(6)
    return ch([o, f"{o[:3]} {o[3:]}"])


def slot_fill(t):
    t = t.replace("{t}", hhmm()).replace("{n}", str(ri(2, 12))).replace("{d}", str(ri(1, 28))).replace("{m}", str(ri(100, 420)))
    return t


def intl_personal(L):
    i = ri(0, 7)
    text = ch(L["frames"]).replace("{k}", L["labels"][i]).replace("{v}", intl_value(i))
    if chance(0.2):
        j = ri(0, 7)
        if j != i:
            text += "\n" + ch(L["frames"]).replace("{k}", L["labels"][j]).replace("{v}", intl_value(j))
    if chance(0.2):
        text = slot_fill(ch(L["notes"])) + "\n" + text
    return INTL_KINDS[i], text


INTL_NOTE_TOPICS = ["health", "shopping", "travel", "finance", "school"]


def intl_note(L):
    i = ri(0, 4)
    text = slot_fill(L["notes"][i])
    if chance(0.2):
        text += "\n" + slot_fill(ch(L["notes"]))
    if chance(0.2):
        text = slot_fill(ch(L["notes"])) + "\n" + text
    return f"note-{INTL_NOTE_TOPICS[i]}", text


# ====================================================================== ordinary benign notes (English)
def _rn(a, b):
    return str(ri(a, b))


FOODS = ["oat milk", "lentils", "basmati rice", "feta", "spinach", "sourdough", "greek yogurt", "tortillas", "chickpeas",
         "parmesan", "blueberries", "coffee beans", "dishwasher tabs", "bin bags", "toothpaste", "apples", "avocados"]
NOTE_TOPICS = {
    "health": [
        lambda: f"Dentist {iso_week()} {hhmm()} — Dr. {surname()}, bring the referral letter",
        lambda: f"BP this morning {_rn(110, 140)}/{_rn(70, 90)}, pulse {_rn(55, 85)}",
        lambda: f"Ibuprofen {ch(['200', '400'])}mg max {_rn(3, 4)}x a day, with food",
        lambda: f"Physio exercises: {_rn(2, 4)} sets of {_rn(8, 15)} squats, {_rn(20, 60)}s plank",
        lambda: f"Allergy: penicillin (rash in {_rn(1995, 2015)}). Mention at every appointment",
        lambda: f"Eye test results: left {ch(['-1.25', '-2.00', '-0.75', '+1.50'])}, right {ch(['-1.50', '-1.75', '-0.50', '+1.25'])}, next check in 2 years",
        lambda: f"Flu jab booked at the pharmacy, {iso_week()} {hhmm()}",
        lambda: f"Voice memo: remind me to ask the GP about the knee pain, it's been {_rn(2, 8)} weeks",
        lambda: f"Vitamin D {ch(['1000', '2000'])} IU daily over winter, blood test again in {ch(['March', 'April', 'May'])}",
        lambda: f"HbA1c came back {ch(['5.4', '5.7', '6.1', '5.9'])}% — fine, recheck in 6 months",
    ],
    "family": [
        lambda: f"{first()}'s birthday on the {_rn(1, 28)}th — she wants a {ch(['lego set', 'scooter', 'book on volcanoes', 'watercolour kit'])}",
        lambda: f"Pick up kids at {hhmm()} on {iso_week()}, swimming till {hhmm()}",
        lambda: f"Fwd from Mum: Sunday lunch at 1, bring the {ch(['salad', 'dessert', 'wine', 'folding chairs'])}",
        lambda: f"{first()} shoe size {_rn(28, 38)}, trousers age {_rn(5, 12)}",
        lambda: f"Grandpa's hearing aid batteries size {ch(['10', '13', '312'])}, he needs a new pack",
        lambda: f"School trip money £{_rn(5, 25)} due {iso_week()}",
        lambda: f"Babysitter {first()} free {iso_week()} and {iso_week()} evenings, £{_rn(10, 15)}/h",
        lambda: f"Family photo day booked {iso_date()} at {hhmm()}",
    ],
    "travel": [
        lambda: f"Flight {ch(['LH', 'BA', 'KL', 'IB', 'TP', 'AF', 'U2', 'FR'])}{_rn(100, 9999)} departs {hhmm()}, terminal {_rn(1, 5)}, seat {_rn(1, 40)}{ch('ABCDEF')}",
        lambda: f"Hotel in {ch(CITIES)}: check-in from {_rn(14, 16)}:00, breakfast {_rn(7, 8)}–{_rn(10, 11)}",
        lambda: f"Packing: adapter, sunscreen, {_rn(3, 7)} t-shirts, charger, passport",
        lambda: f"Train to {ch(CITIES)} platform {_rn(1, 18)}, coach {_rn(1, 14)} seat {_rn(1, 90)}",
        lambda: f"Car rental pickup {iso_date()} {hhmm()}, return full tank",
        lambda: f"Visa on arrival costs ${_rn(20, 60)}, bring cash",
        lambda: f"Things to see in {ch(CITIES)}: old town, the market on {iso_week()}, sunset from the hill",
        lambda: f"Airport parking level {_rn(1, 6)} row {ch(UP)}{_rn(1, 40)}",
    ],
    "work": [
        lambda: f"1:1 with {first()} {iso_week()} {hhmm()} — talk about Q{_rn(1, 4)} goals",
        lambda: f"Standup moved to {hhmm()} from next week",
        lambda: f"Expense report due {iso_date()}, receipts in the blue folder",
        lambda: f"Room {_rn(100, 600)} booked for the offsite planning, {_rn(6, 20)} people",
        lambda: f"Quarterly numbers: revenue up {_rn(2, 19)}%, churn {_rn(1, 5)}.{_rn(0, 9)}%",
        lambda: f"Remember to send {first()} the slides before {hhmm()}",
        lambda: f"Out of office {iso_date()} – {iso_date()}, {first()} covers",
        lambda: f"Ticket backlog: {_rn(10, 90)} open, {_rn(2, 15)} urgent",
        lambda: f"Code review for the {ch(APPS)} PR #{_rn(100, 9999)} before Friday",
    ],
    "shopping": [
        lambda: "Shopping: " + ", ".join(sample(FOODS, ri(3, 6))),
        lambda: f"Need {_rn(2, 6)} x AA batteries and a {ch(['60W', '40W', '9W LED'])} bulb",
        lambda: f"Return the jacket before {iso_date()} (receipt in email)",
        lambda: f"Paint: {ch(['Hague Blue', 'Sage Green', 'Chalk White'])} {_rn(1, 5)}L, {ch(['matt', 'eggshell'])}",
        lambda: f"Compare prices: vacuum {ch(['€', '£', '$'])}{_rn(89, 399)} vs {ch(['€', '£', '$'])}{_rn(89, 399)}",
        lambda: f"Hardware store: {_rn(4, 40)} screws 4x40, wall plugs, sandpaper grit {ch(['80', '120', '240'])}",
    ],
    "finance": [
        lambda: f"Rent £{_rn(700, 2200)} goes out on the {_rn(1, 5)}th",
        lambda: f"Savings goal: {_rn(2, 20)}k by December, currently {_rn(1, 15)}k",
        lambda: f"Split the dinner bill: €{_rn(60, 300)} / {_rn(2, 8)} people",
        lambda: f"Council tax band {ch('ABCDEF')}, £{_rn(90, 250)}/month over 10 months",
        lambda: f"Phone contract ends {iso_date()}, look for SIM-only under £{_rn(8, 20)}",
        lambda: f"Budget: groceries {_rn(300, 700)}, transport {_rn(50, 200)}, fun {_rn(50, 300)}",
    ],
    "recipe": [
        lambda: f"Pancakes: {_rn(1, 3)} cups flour, {_rn(1, 3)} eggs, {_rn(200, 400)}ml milk, pinch of salt",
        lambda: f"Roast chicken {_rn(180, 220)}°C for {_rn(60, 100)} min, rest {_rn(10, 20)} min",
        lambda: f"Sourdough: {_rn(400, 600)}g flour, {_rn(300, 420)}g water, {_rn(80, 120)}g starter, {_rn(9, 12)}g salt",
        lambda: f"Granny's curry: {_rn(2, 4)} onions, {_rn(3, 6)} garlic cloves, {_rn(1, 3)} tbsp garam masala, simmer {_rn(20, 45)} min",
        lambda: f"Lemon cake at {_rn(160, 180)}°C, {_rn(35, 50)} min, skewer test",
        lambda: f"Cold brew ratio 1:{_rn(5, 8)}, steep {_rn(12, 20)} hours",
    ],
    "form": [
        lambda: f"Name: {full_name()}\nDate of birth: {_rn(1, 28)}.{_rn(1, 12)}.{_rn(1950, 2010)}\nAddress: {_rn(1, 200)} {ch(STREETS)}, {ch(CITIES)}\nPhone: {phone()}",
        lambda: f"Emergency contact: {full_name()} ({ch(['sister', 'neighbour', 'husband', 'wife', 'friend'])}) {phone()}",
        lambda: f"School form: allergies none, GP Dr {surname()}, consent for photos: yes",
        lambda: f"Registration: {full_name()}, born {_rn(1960, 2005)}, membership type: family",
    ],
    "home": [
        lambda: f"Boiler service {iso_date()}, engineer arrives between {_rn(8, 10)} and {_rn(12, 14)}",
        lambda: f"Bin day {iso_week()} — recycling every other week",
        lambda: f"Plumber {first()} {phone()} — quoted £{_rn(80, 400)} for the leak",
        lambda: f"Meter reading: electricity {_rn(10000, 99999)}, gas {_rn(1000, 9999)}",
        lambda: f"Living room window {_rn(90, 180)} x {_rn(100, 200)} cm for the blinds",
        lambda: f"Spare key is with {first()} at number {_rn(2, 80)}",
        lambda: f"Smoke alarm battery changed {iso_date()}",
    ],
    "car": [
        lambda: f"MOT due {iso_date()}, tyres {_rn(30, 36)} psi front / {_rn(30, 38)} rear",
        lambda: f"Oil change at {_rn(30000, 160000)} km, next at +15000",
        lambda: f"Parking permit zone {ch(UP)}{_rn(1, 20)} expires {iso_date()}",
        lambda: f"Car wash voucher expires end of month",
    ],
    "pets": [
        lambda: f"{ch(PETS)}: vet {iso_week()} {hhmm()}, worming tablet every {_rn(1, 3)} months",
        lambda: f"Dog food {_rn(150, 400)}g twice a day",
        lambda: f"Cat sitter {first()} — feeds at {hhmm()}, litter every 2 days",
        lambda: f"{ch(PETS)} weighs {_rn(3, 35)}.{_rn(0, 9)} kg",
    ],
    "school": [
        lambda: f"Homework: maths p.{_rn(10, 200)} ex {_rn(1, 12)}–{_rn(13, 20)}",
        lambda: f"Parents' evening {iso_week()} {hhmm()}, room {_rn(1, 40)}",
        lambda: f"Exam timetable: history {iso_date()}, biology {iso_date()}",
        lambda: f"Library books due back {iso_date()}",
    ],
    "garden": [
        lambda: f"Sow tomatoes indoors in {ch(['Feb', 'March'])}, plant out after {ch(['May', 'the last frost'])}",
        lambda: f"Lawn feed every {_rn(4, 8)} weeks, mow at {_rn(3, 5)}cm",
        lambda: f"Water the pots every {_rn(1, 3)} days if no rain",
    ],
    "fitness": [
        lambda: f"Run {_rn(3, 15)} km in {_rn(18, 90)}:{_rn(10, 59)}, avg HR {_rn(130, 170)}",
        lambda: f"Gym: bench {_rn(40, 100)}kg x {_rn(5, 10)}, deadlift {_rn(60, 180)}kg x {_rn(3, 8)}",
        lambda: f"Yoga class {iso_week()} {hhmm()}, bring own mat",
        lambda: f"Swim {_rn(20, 80)} lengths, pool closes at {hhmm()}",
    ],
    "media": [
        lambda: f"Books to read: {ch(['Piranesi', 'The Overstory', 'Klara and the Sun', 'Educated', 'Circe'])}, {ch(['Dune', 'Middlemarch', 'Stoner', 'Sapiens'])}",
        lambda: f"Watch: {ch(['Severance', 'The Bear', 'Slow Horses', 'Shogun', 'Andor'])} season {_rn(1, 3)}",
        lambda: f"Podcast episode {_rn(10, 400)} about sleep was great",
        lambda: f"Concert {iso_date()} doors {hhmm()}, row {ch(UP)} seats {_rn(1, 20)}–{_rn(21, 30)}",
    ],
    "events": [
        lambda: f"Wedding {iso_date()}, ceremony {hhmm()}, reception at the {ch(['barn', 'hotel', 'vineyard'])}",
        lambda: f"Book club {iso_week()} at {first()}'s, bring snacks",
        lambda: f"Marathon registration opens {iso_date()}",
        lambda: f"BBQ for {_rn(8, 30)} people — {_rn(2, 6)} kg sausages, {_rn(2, 5)} kg veg skewers",
    ],
}
NOTE_TOPIC_NAMES = list(NOTE_TOPICS.keys())


def en_note():
    t = ch(NOTE_TOPIC_NAMES)
    return f"note-{t}", ch(NOTE_TOPICS[t])()

# ====================================================================== hard secrets (evasions)
def _secretish(name):
    n = name.upper()
    return not re.search(r"(^|_)(ID|USER|USERNAME|URL|HOST|DOMAIN|ENDPOINT|ACCOUNT|EMAIL|REGION|ALIAS|SITE|HANDLE|ORG|APP|TEAM|ISSUER|SPACE|CONNSTR|SERVERS|URI)($|_)", n) \
        or re.search(r"SECRET|TOKEN|PASSWORD|PASS|KEY|PAT|AUTH", n) and not n.endswith("_ID")


SINGLE = []
for _e in CAT:
    for _n, _p in _e["fields"]:
        _ok = (len(_e["fields"]) == 1 and _secretish(_n)) or (re.search(r"SECRET|PASSWORD|PASS$|_PASS_|TOKEN|PRIVATE", _n.upper()) and not _n.upper().endswith("_ID"))
        if _ok and not re.search(r"\{(pem_|ossh_|pgp_|gsa_|putty|ovpn|sol_kp|jwk_|jwt)", _p) and "://" not in _p \
                and "DefaultEndpoints" not in _p and "Endpoint=" not in _p and " " not in _p and "basicauth" not in _p:
            SINGLE.append((_e["vendor"], _n, _p))


def kindword(name):
    n = name.upper()
    if "COOKIE" in n:
        return "session cookie"
    if "PASS" in n:
        return "password"
    if "TOKEN" in n or "PAT" in n:
        return "token"
    if "SECRET" in n:
        return "secret"
    return "API key"


def text_secret(maxlen=90):
    r = R.random()
    if r < 0.5:
        while True:
            vend, n, p = ch(SINGLE)
            val = fill(p)
            if 8 <= len(val) <= maxlen:
                kw = kindword(n)
                if any(w in vend.lower() for w in ("token", "key", "password", "secret", "cookie", "session", "pat")):
                    return vend, val
                return f"{vend} {kw}", val
    if r < 0.78:
        return ch(["wifi password", "email password", "bank login password", "router admin password", "NAS password",
                   "laptop password", "Netflix password", "work VPN password", "Apple ID password", "school portal password"]), pw_human()
    return ch([f"root password for {host()}", f"db password ({dbname()})", "admin password for the CMS", "sudo password on the build box",
               "password for the shared drive", "service account password"]), pw_strong(ri(12, 20))


DIGIT_DESCS = ["door code", "card PIN", "alarm code", "garage code", "safe combination", "gate code", "locker code",
               "bike lock code", "phone passcode", "keybox code", "building entry code", "debit card PIN", "storage unit code"]


def digit_secret():
    return ch(DIGIT_DESCS), pin(ch([4, 4, 4, 5, 6, 6]))


def lowpw():
    """a lowercase+digits password (for lossy-case techniques)"""
    return ch(HWORDS) + str(ri(10, 9999)) + ch(HWORDS)[:ri(3, 6)]


def chunks(s, n=None):
    n = n or ri(2, 4)
    n = max(2, min(n, len(s)))
    cuts = sorted(sample(range(1, len(s)), n - 1))
    out, prev = [], 0
    for c in cuts + [len(s)]:
        out.append(s[prev:c])
        prev = c
    return out


def rot13(s):
    return codecs.encode(s, "rot13")


def rot47(s):
    return "".join(chr(33 + (ord(c) - 33 + 47) % 94) if 33 <= ord(c) <= 126 else c for c in s)


def uu(s):
    b = s.encode()
    lines = [binascii.b2a_uu(b[i:i + 45]).decode().rstrip("\n") for i in range(0, len(b), 45)]
    return "begin 644 note.txt\n" + "\n".join(lines) + "\n`\nend"


ENC = [
    ("base64", b64s, "base64"), ("base64url", lambda s: b64u(s.encode()), "base64url"),
    ("base32", lambda s: base64.b32encode(s.encode()).decode(), "base32"), ("hex", lambda s: s.encode().hex(), "hex"),
    ("hex-spaced", lambda s: " ".join(f"{b:02X}" for b in s.encode()), "hex bytes"), ("rot13", rot13, "rot13"),
    ("reversed", lambda s: s[::-1], "reversed"), ("percent", lambda s: "".join(f"%{b:02X}" for b in s.encode()), "url-encoded"),
    ("base85", lambda s: base64.b85encode(s.encode()).decode(), "base85"),
    ("ascii85", lambda s: "<~" + base64.a85encode(s.encode()).decode() + "~>", "ascii85"),
    ("octal-escapes", lambda s: "".join(f"\\{b:03o}" for b in s.encode()), "octal escapes"),
    ("hex-escapes", lambda s: "".join(f"\\x{b:02x}" for b in s.encode()), "\\x escapes"),
    ("unicode-escapes", lambda s: "".join(f"\\u{ord(c):04x}" for c in s), "\\u escapes"),
    ("decimal-codes", lambda s: " ".join(str(b) for b in s.encode()), "ASCII codes"),
    ("binary", lambda s: " ".join(f"{b:08b}" for b in s.encode()), "binary"),
    ("html-dec", lambda s: "".join(f"&#{ord(c)};" for c in s), "HTML entities"),
    ("html-hex", lambda s: "".join(f"&#x{ord(c):x};" for c in s), "HTML hex entities"),
    ("qp", lambda s: "".join(f"={b:02X}" for b in s.encode()), "quoted-printable"),
    ("uuencode", uu, "uuencoded"), ("base58", lambda s: b58enc(s.encode()), "base58"), ("rot47", rot47, "rot47"),
    ("utf16le-hex", lambda s: s.encode("utf-16-le").hex(), "UTF-16LE hex"),
    ("bigint", lambda s: str(int.from_bytes(s.encode(), "big")), "big-endian integer of the UTF-8 bytes"),
    ("octal-codes", lambda s: " ".join(f"{b:o}" for b in s.encode()), "octal byte values"),
    ("base36-codes", lambda s: " ".join(f"{int(str(b)):d}" if False else _b36(b) for b in s.encode()), "base-36 byte values"),
]
ENCD = {n: (f, h) for n, f, h in ENC}


def _b36(n):
    a = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        n, r = divmod(n, 36)
        s = a[r] + s
        if not n:
            return s


def frame_enc(desc, enc, hint):
    k = ri(0, 6)
    if k == 0:
        return f"{desc}: {enc}"
    if k == 1:
        return f"{desc} ({hint}): {enc}"
    if k == 2:
        return f"{desc} — stored as {hint} so it isn't readable at a glance:\n{enc}"
    if k == 3:
        return f"{enc}\n^ {desc}, {hint}"
    if k == 4:
        return f"[{hint}] {desc} = {enc}"
    if k == 5:
        return f"{desc[:1].upper() + desc[1:]}, {hint}-encoded → {enc}"
    return f"decode this later ({hint}) — it's the {desc}:\n{enc}"


HARD = []


def H(name, fn):
    HARD.append((name, fn))


def _mk_enc(name):
    def fn():
        desc, s = text_secret(60 if name in ("binary", "bigint", "utf16le-hex") else 90)
        f, h = ENCD[name]
        return frame_enc(desc, f(s), h)
    return fn


for _name, _f, _h in ENC:
    H(f"enc-{_name}", _mk_enc(_name))

LAYERS = [("reversed", "base64"), ("base64", "reversed"), ("rot13", "base64"), ("base64", "rot13"), ("hex", "base64"),
          ("base64", "hex"), ("base32", "base64"), ("base64", "base64"), ("percent", "base64"), ("base64", "percent"),
          ("reversed", "hex"), ("rot13", "hex"), ("base64", "base32"), ("hex", "reversed"), ("base85", "base64"),
          ("rot13", "reversed"), ("base64", "decimal-codes"), ("rot47", "base64"), ("base58", "reversed"), ("base32", "reversed"),
          ("base64url", "hex"), ("base64", "base64", "base64"), ("reversed", "base64", "hex"), ("rot13", "base64", "reversed"),
          ("hex", "base64", "rot13"), ("base64", "hex", "base64"), ("rot47", "hex"), ("base64", "html-dec"), ("hex", "base32"),
          ("base64", "unicode-escapes")]


def _mk_layer(names):
    def fn():
        desc, s = text_secret(48)
        e = s
        for n in names:
            e = ENCD[n][0](e)
        hint = " → ".join(ENCD[n][1] for n in names)
        if chance(0.4):
            return f"{desc}: {e}"
        return frame_enc(desc, e, ch([f"encoded {hint}", f"{hint}", f"decode in reverse order of: {hint}"]))
    return fn


for _names in LAYERS:
    H("layer-" + "-".join(_names), _mk_layer(_names))


# --- ciphers with their key given
def caesar(s, k):
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + k) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)


def vigenere(s, key):
    out, i = [], 0
    for c in s:
        if c.isascii() and c.isalpha():
            k = ord(key[i % len(key)].lower()) - 97
            base = 65 if c.isupper() else 97
            out.append(chr((ord(c) - base + k) % 26 + base))
            i += 1
        else:
            out.append(c)
    return "".join(out)


def atbash(s):
    return "".join(chr(219 - ord(c)) if "a" <= c <= "z" else chr(155 - ord(c)) if "A" <= c <= "Z" else c for c in s)


def affine(s, a, b):
    return "".join(chr((a * (ord(c) - 97) + b) % 26 + 97) if "a" <= c <= "z" else chr((a * (ord(c) - 65) + b) % 26 + 65) if "A" <= c <= "Z" else c for c in s)


def railfence(s, n):
    rails = [[] for _ in range(n)]
    r, d = 0, 1
    for c in s:
        rails[r].append(c)
        if r == 0:
            d = 1
        elif r == n - 1:
            d = -1
        r += d
    return "".join("".join(x) for x in rails)


def rot18(s):
    return "".join(str((int(c) + 5) % 10) if c.isdigit() else rot13(c) for c in s)


KB_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"]


def kb_shift(s):
    out = []
    for c in s:
        for row in KB_ROWS:
            if c in row:
                out.append(row[row.index(c) + 1])
                break
    return "".join(out)


def kb_payload():
    ok = "".join(r[:-1] for r in KB_ROWS)
    return rs(ok, ri(9, 13))


CIPHER_KEYS = ["lemon", "orchard", "kestrel", "harbor", "velvet", "quasar", "meadow", "tundra", "cobalt", "saffron"]


def t_caesar():
    desc, s = text_secret()
    k = ri(1, 25)
    return ch([f"{desc} (Caesar, shift {k}, letters only): {caesar(s, k)}", f"{caesar(s, k)}\n← {desc}; shift every letter back by {k}",
               f"{desc} = {caesar(s, k)}  [rot{k}]"])


def t_vigenere():
    desc, s = text_secret()
    key = ch(CIPHER_KEYS)
    return ch([f"{desc}, Vigenère with key '{key}' (letters only): {vigenere(s, key)}",
               f"cipher: vigenere / key: {key}\n{desc}: {vigenere(s, key)}"])


def t_xor_hex():
    desc, s = text_secret()
    key = ch(CIPHER_KEYS)
    x = bytes(b ^ ord(key[i % len(key)]) for i, b in enumerate(s.encode())).hex()
    return ch([f"{desc} XOR '{key}' (repeating key), hex: {x}", f"xor key = {key}\n{desc} → {x}"])


def t_xor_b64():
    desc, s = text_secret()
    key = ch(CIPHER_KEYS)
    x = b64(bytes(b ^ ord(key[i % len(key)]) for i, b in enumerate(s.encode())))
    return f"{desc}: base64(xor(secret, \"{key}\")) = {x}"


def t_xor_byte():
    desc, s = text_secret()
    k = ri(1, 255)
    return f"{desc}, each byte XOR 0x{k:02x}: " + " ".join(f"{b ^ k:02x}" for b in s.encode())


def t_otp_hex():
    desc, s = text_secret(60)
    pad = rbytes(len(s.encode()))
    x = bytes(a ^ b for a, b in zip(s.encode(), pad))
    return f"one-time pad for the {desc}\npad:    {pad.hex()}\ncipher: {x.hex()}\n(xor them)"


def t_atbash():
    desc, s = text_secret()
    return ch([f"{desc} (atbash): {atbash(s)}", f"{desc} — letters mirrored A↔Z, B↔Y…: {atbash(s)}"])


def t_affine():
    desc, s = text_secret()
    a, b = ch([3, 5, 7, 11, 17]), ri(1, 25)
    return f"{desc}, affine cipher E(x) = ({a}x + {b}) mod 26 on letters: {affine(s, a, b)}"


def t_rail():
    desc, s = text_secret()
    n = ri(2, 4)
    return f"{desc} written in a {n}-rail fence: {railfence(s, n)}"


def t_rot18():
    desc, s = text_secret()
    return f"{desc} in rot18 (rot13 letters + rot5 digits): {rot18(s)}"


def t_kbshift():
    s = kb_payload()
    desc = ch(["laptop password", "wifi password", "locker app password", "old email password"])
    return ch([f"{desc}: {kb_shift(s)} (typed with my hands shifted one key to the right on a QWERTY keyboard)",
               f"{kb_shift(s)}\n^ {desc}; every key is one to the right of the real one (QWERTY)"])


def t_digit_pad():
    desc, s = digit_secret()
    pad = rs(DG, len(s))
    c = "".join(str((int(a) + int(b)) % 10) for a, b in zip(s, pad))
    return f"{desc}: {c} — subtract {pad} digit by digit (mod 10)"


def t_digit_shift():
    desc, s = digit_secret()
    k = ri(1, 9)
    return ch([f"{desc} + {k} on each digit (mod 10): " + "".join(str((int(c) + k) % 10) for c in s),
               f"{desc}: " + "".join(str((int(c) + k) % 10) for c in s) + f" (every digit is {k} too high, wrap around)"])


def t_digit_letters():
    desc, s = digit_secret()
    return f"{desc} as letters (A=0, B=1 … J=9): " + "".join(chr(65 + int(c)) for c in s)


def t_digit_subst():
    desc, s = digit_secret()
    table = list("KMPQRSTVWX")
    R.shuffle(table)
    return f"{desc}: {''.join(table[int(c)] for c in s)}\nkey: " + " ".join(f"{i}={t}" for i, t in enumerate(table))


CISCO_XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"


def cisco7(pw):
    seed = ri(0, 15)
    return f"{seed:02d}" + "".join(f"{ord(c) ^ ord(CISCO_XLAT[(seed + i) % 53]):02X}" for i, c in enumerate(pw))


def t_cisco7():
    pw = pw_strong(ri(10, 16))
    k = ri(0, 2)
    if k == 0:
        return f"interface Tunnel0\n ip address 10.{ri(0, 255)}.{ri(0, 255)}.1 255.255.255.252\nusername {uname()} privilege 15 password 7 {cisco7(pw)}"
    if k == 1:
        return f"router bgp {ri(64512, 65534)}\n neighbor 10.{ri(0, 255)}.0.{ri(1, 254)} remote-as {ri(64512, 65534)}\n neighbor 10.{ri(0, 255)}.0.{ri(1, 254)} password 7 {cisco7(pw)}"
    return f"enable password 7 {cisco7(pw)}\nline vty 0 4\n login local"


for _n, _f in [("cipher-caesar", t_caesar), ("cipher-vigenere", t_vigenere), ("cipher-xor-hex", t_xor_hex), ("cipher-xor-b64", t_xor_b64),
               ("cipher-xor-byte", t_xor_byte), ("cipher-otp-hex", t_otp_hex), ("cipher-atbash", t_atbash), ("cipher-affine", t_affine),
               ("cipher-railfence", t_rail), ("cipher-rot18", t_rot18), ("cipher-keyboard-shift", t_kbshift),
               ("cipher-digit-pad", t_digit_pad), ("cipher-digit-shift", t_digit_shift), ("cipher-digit-letters", t_digit_letters),
               ("cipher-digit-substitution", t_digit_subst), ("cipher-cisco-type7", t_cisco7)]:
    H(_n, _f)


# --- code-level obfuscation
def cvar():
    return ch(["token", "apiKey", "secret", "key", "pw", "auth", "credential", "k", "tok", "passwd"])


def cchar(c):
    return "'\\''" if c == "'" else "'\\\\'" if c == "\\" else f"'{c}'"


def noise_char(s):
    for c in "~§¤|^`":
        if c not in s:
            return c
    return "\u00b6"


def _code_variants():
    V = {}

    def py_concat(d, s, v):
        return f"# {d}\n{v} = " + " + ".join(jq(p) for p in chunks(s))

    def py_join(d, s, v):
        return f"# {d}\n{v} = \"\".join([{', '.join(jq(p) for p in chunks(s, 3))}])"

    def py_chr(d, s, v):
        return f"# {d}\n{v} = \"\".join(map(chr, [{', '.join(str(ord(c)) for c in s)}]))"

    def py_slice(d, s, v):
        return f"# {d}\n{v} = {jq(s[::-1])}[::-1]"

    def py_fromhex(d, s, v):
        return f"# {d}\n{v} = bytes.fromhex(\"{s.encode().hex()}\").decode()"

    def py_b64(d, s, v):
        return f"import base64\n\n# {d}\n{v} = base64.b64decode(\"{b64s(s)}\").decode()"

    def py_rot13(d, s, v):
        return f"import codecs\n{v} = codecs.decode({jq(rot13(s))}, \"rot_13\")  # {d}"

    def py_xor(d, s, v):
        k = ri(1, 255)
        return f"# {d}\n{v} = bytes(b ^ 0x{k:02x} for b in bytes.fromhex(\"{bytes(b ^ k for b in s.encode()).hex()}\")).decode()"

    def py_zip(d, s, v):
        return (f"from itertools import zip_longest\n# {d}\n{v} = \"\".join(a + b for a, b in zip_longest({jq(s[0::2])}, {jq(s[1::2])}, fillvalue=\"\"))")

    def py_fstring(d, s, v):
        p = chunks(s, 2)
        return f"_a = {jq(p[0])}\n_b = {jq(p[1])}\n{v} = f\"{{_a}}{{_b}}\"  # {d}"

    def py_format(d, s, v):
        p = chunks(s, 3)
        return f"{v} = \"{{}}{{}}{{}}\".format({', '.join(jq(x) for x in p)})  # {d}"

    def py_replace(d, s, v):
        j = noise_char(s)
        noisy = "".join(c + (j if chance(0.5) else "") for c in s)
        return f"# {d}\n{v} = {jq(noisy)}.replace({jq(j)}, \"\")"

    def js_concat(d, s, v):
        return f"// {d}\nconst {v} = " + " + ".join(sq(p) for p in chunks(s)) + ";"

    def js_template(d, s, v):
        p = chunks(s, 2)
        return f"const a = {sq(p[0])};\nconst b = {sq(p[1])};\nconst {v} = `${{a}}${{b}}`; // {d}"

    def js_fromcc(d, s, v):
        return f"// {d}\nconst {v} = String.fromCharCode({', '.join(str(ord(c)) for c in s)});"

    def js_atob(d, s, v):
        return f"const {v} = atob('{b64s(s)}'); // {d}"

    def js_join(d, s, v):
        return f"const {v} = [{', '.join(sq(p) for p in chunks(s, 3))}].join(''); // {d}"

    def js_reverse(d, s, v):
        return f"// {d}\nconst {v} = {sq(s[::-1])}.split('').reverse().join('');"

    def js_buffer(d, s, v):
        return f"const {v} = Buffer.from('{s.encode().hex()}', 'hex').toString('utf8'); // {d}"

    def js_replace(d, s, v):
        j = ch(["~", "§", "¤"])
        if j in s:
            j = "\u00b6"
        noisy = "".join(c + (j if chance(0.6) else "") for c in s)
        return f"// {d}\nconst {v} = {jq(noisy)}.replace(/{j}/g, '');"

    def js_xor(d, s, v):
        k = ri(1, 99)
        return f"// {d}\nconst {v} = [{', '.join(str(ord(c) ^ k) for c in s)}].map(c => String.fromCharCode(c ^ {k})).join('');"

    def java_chars(d, s, v):
        return f"// {d}\nString {v} = new String(new char[]{{{', '.join(cchar(c) for c in s)}}});"

    def java_sb(d, s, v):
        return f"String {v} = new StringBuilder({jq(s[::-1])}).reverse().toString(); // {d}"

    def java_b64(d, s, v):
        return f"// {d}\nString {v} = new String(Base64.getDecoder().decode(\"{b64s(s)}\"), StandardCharsets.UTF_8);"

    def java_join(d, s, v):
        return f"String {v} = String.join(\"\", {', '.join(jq(p) for p in chunks(s, 3))}); // {d}"

    def cs_b64(d, s, v):
        return f"// {d}\nvar {v} = Encoding.UTF8.GetString(Convert.FromBase64String(\"{b64s(s)}\"));"

    def cs_concat(d, s, v):
        return f"var {v} = string.Concat({', '.join(jq(p) for p in chunks(s, 3))}); // {d}"

    def cs_chars(d, s, v):
        return f"// {d}\nvar {v} = new string(new[] {{ {', '.join(cchar(c) for c in s)} }});"

    def go_bytes(d, s, v):
        return f"// {d}\n{v} := string([]byte{{{', '.join(f'0x{b:02x}' for b in s.encode())}}})"

    def go_join(d, s, v):
        return f"{v} := strings.Join([]string{{{', '.join(jq(p) for p in chunks(s, 3))}}}, \"\") // {d}"

    def go_hex(d, s, v):
        return f"// {d}\nraw, _ := hex.DecodeString(\"{s.encode().hex()}\")\n{v} := string(raw)"

    def rust_vec(d, s, v):
        return f"// {d}\nlet {v} = String::from_utf8(vec![{', '.join(str(b) for b in s.encode())}]).unwrap();"

    def rust_concat(d, s, v):
        return f"const {v.upper()}: &str = concat!({', '.join(jq(p) for p in chunks(s, 3))}); // {d}"

    def rb_unpack(d, s, v):
        return f"# {d}\n{v} = \"{b64s(s)}\".unpack1(\"m\")"

    def rb_reverse(d, s, v):
        return f"{v} = {jq(s[::-1])}.reverse # {d}"

    def rb_pack(d, s, v):
        return f"# {d}\n{v} = [{', '.join(str(b) for b in s.encode())}].pack(\"c*\")"

    def php_b64(d, s, v):
        return f"<?php\n// {d}\n${v} = base64_decode('{b64s(s)}');"

    def php_strrev(d, s, v):
        return f"<?php\n${v} = strrev({sq(s[::-1])}); // {d}"

    def php_rot13(d, s, v):
        return f"<?php\n${v} = str_rot13({sq(rot13(s))}); // {d}"

    def php_implode(d, s, v):
        return f"<?php\n// {d}\n${v} = implode('', [{', '.join(sq(p) for p in chunks(s, 3))}]);"

    def php_chr(d, s, v):
        return f"<?php\n// {d}\n${v} = " + ".".join(f"chr({ord(c)})" for c in s) + ";"

    def sh_printf(d, s, v):
        return f"# {d}\nexport {v.upper()}=$(printf '" + "".join(f"\\x{b:02x}" for b in s.encode()) + "')"

    def sh_b64(d, s, v):
        return f"export {v.upper()}=$(echo '{b64s(s)}' | base64 -d)  # {d}"

    def sh_rev(d, s, v):
        return f"export {v.upper()}=$(echo {shq(s[::-1])} | rev)  # {d}"

    def sh_tr(d, s, v):
        return f"# {d}\nexport {v.upper()}=$(echo {shq(rot13(s))} | tr 'A-Za-z' 'N-ZA-Mn-za-m')"

    def sh_concat(d, s, v):
        p = chunks(s, 2)
        return f"# {d}\nP1={shq(p[0])}\nP2={shq(p[1])}\nexport {v.upper()}=\"$P1$P2\""

    def sh_xxd(d, s, v):
        return f"export {v.upper()}=$(echo {s.encode().hex()} | xxd -r -p)  # {d}"

    def ps_chars(d, s, v):
        return f"# {d}\n${v} = -join [char[]]({','.join(str(ord(c)) for c in s)})"

    def ps_b64(d, s, v):
        return f"# {d}\n${v} = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{b64s(s)}'))"

    def sql_char(d, s, v):
        return f"-- {d}\nSELECT " + " + ".join(f"CHAR({ord(c)})" for c in s) + f" AS {v};"

    def sql_unhex(d, s, v):
        return f"-- {d}\nSET @{v} = UNHEX('{s.encode().hex().upper()}');"

    def perl_pack(d, s, v):
        return f"# {d}\nmy ${v} = pack(\"H*\", \"{s.encode().hex()}\");"

    def lua_char(d, s, v):
        return f"-- {d}\nlocal {v} = string.char({', '.join(str(b) for b in s.encode())})"

    def kotlin_chars(d, s, v):
        return f"// {d}\nval {v} = charArrayOf({', '.join(cchar(c) for c in s)}).concatToString()"

    def swift_bytes(d, s, v):
        return f"// {d}\nlet {v} = String(decoding: [{', '.join(str(b) for b in s.encode())}] as [UInt8], as: UTF8.self)"

    def c_array(d, s, v):
        return f"/* {d} */\nstatic const char {v}[] = {{{', '.join(f'0x{b:02x}' for b in s.encode())}, 0x00}};"

    def cpp_concat(d, s, v):
        parts = chunks(s, 3)
        return "// " + d + "\nconst std::string " + v + " = std::string(" + jq(parts[0]) + ") + " + " + ".join(jq(p) for p in parts[1:]) + ";"

    def excel(d, s, v):
        return f"' {d}\n=" + "&".join(f"CHAR({ord(c)})" for c in s)

    def vba(d, s, v):
        return f"' {d}\nDim {v} As String\n{v} = " + " & ".join(f"Chr({ord(c)})" for c in s)

    def r_paste(d, s, v):
        return f"# {d}\n{v} <- paste0({', '.join(jq(p) for p in chunks(s, 3))})"

    def docker_args(d, s, v):
        p = chunks(s, 2)
        return f"# {d}\nARG P1={p[0]}\nARG P2={p[1]}\nENV {v.upper()}=${{P1}}${{P2}}"

    def make_concat(d, s, v):
        p = chunks(s, 2)
        return f"# {d}\nA := {p[0]}\nB := {p[1]}\n{v.upper()} := $(A)$(B)"

    def tf_join(d, s, v):
        return f"# {d}\nlocals {{\n  {v} = join(\"\", [{', '.join(jq(p) for p in chunks(s, 3))}])\n}}"

    def jinja(d, s, v):
        return f"{{# {d} #}}\n{{% set {v} = " + " ~ ".join(sq(p) for p in chunks(s, 3)) + " %}"

    def elixir(d, s, v):
        return f"# {d}\n{v} = Base.decode64!(\"{b64s(s)}\")"

    def dart(d, s, v):
        return f"// {d}\nfinal {v} = String.fromCharCodes([{', '.join(str(ord(c)) for c in s)}]);"

    def matlab(d, s, v):
        return f"% {d}\n{v} = char([{' '.join(str(ord(c)) for c in s)}]);"

    def julia(d, s, v):
        return f"# {d}\n{v} = String(UInt8[{', '.join(f'0x{b:02x}' for b in s.encode())}])"

    for name, f in list(locals().items()):
        if callable(f) and name not in ("V",):
            V[name] = f
    return V


CODE_V = _code_variants()
for _cn in sorted(CODE_V):
    def _mk_code(f):
        def fn():
            d, s = text_secret(70)
            return f(d, s, cvar())
        return fn
    H("code-" + _cn.replace("_", "-"), _mk_code(CODE_V[_cn]))


# --- splitting / interleaving
def t_split_json():
    d, s = text_secret()
    p = chunks(s, ri(2, 3))
    o = {f"part_{i + 1}": x for i, x in enumerate(p)}
    o["note"] = f"{d} = " + " + ".join(f"part_{i + 1}" for i in range(len(p)))
    return o


def t_split_list():
    d, s = text_secret()
    return [f"{d} ({ri(2, 4)} pieces, in order):"] + chunks(s, ri(2, 4)) if False else (lambda p: [f"{d} ({len(p)} pieces, in order):"] + p)(chunks(s, ri(2, 4)))


def t_split_lines():
    d, s = text_secret()
    return f"{d}, split over lines — join them without spaces:\n" + "\n".join(chunks(s, ri(2, 4)))


def t_split_chat():
    d, s = text_secret()
    a, b = first(), first()
    p = chunks(s, 3)
    return (f"[{hhmm()}] {a}: what's the {d} again?\n[{hhmm()}] {b}: {p[0]}\n[{hhmm()}] {b}: then {p[1]}\n"
            f"[{hhmm()}] {b}: and {p[2]} — no spaces\n[{hhmm()}] {a}: thx")


def t_split_email_ps():
    d, s = text_secret()
    p = chunks(s, 2)
    return (f"Subject: access for the new laptop\n\nHi {first()},\nthe {d} starts with {p[0]} — I'll send the rest separately.\n"
            f"Best,\n{first()}\n\nP.S. never mind, here's the rest: {p[1]}")


def t_split_csv():
    d, s = text_secret()
    p = chunks(s, 3)
    return f"item,a,b,c\n{d},{p[0]},{p[1]},{p[2]}\n(concatenate a+b+c)"


def t_split_md():
    d, s = text_secret()
    p = chunks(s, 3)
    return f"**{d}**\n\n| # | piece |\n|---|---|\n" + "\n".join(f"| {i + 1} | `{x}` |" for i, x in enumerate(p))


def t_split_title_body():
    d, s = text_secret()
    p = chunks(s, 2)
    return {"title": f"{d} (1/2): {p[0]}", "body": f"(2/2) {p[1]}"}


def t_split_reverse_order():
    d, s = text_secret()
    p = chunks(s, 3)
    return f"{d}, chunks listed last-to-first: {p[2]} | {p[1]} | {p[0]}"


def t_split_dashes():
    d, s = text_secret()
    sep = "-" if "-" not in s else "·"
    return f"{d}: {sep.join(s[i:i + 4] for i in range(0, len(s), 4))}  (ignore the {sep}'s)"


def t_split_spaces():
    d, s = text_secret()
    return f"{d}: {' '.join(s[i:i + ri(2, 5)] for i in range(0, len(s), 3)) if False else ' '.join(s[i:i + 3] for i in range(0, len(s), 3))} (remove spaces)"


def t_split_vertical():
    d, s = text_secret(40)
    return f"{d} (one char per line):\n" + "\n".join(s)


def t_split_vars():
    d, s = text_secret()
    p = chunks(s, 2)
    return f"# {d}\nFIRST_HALF={p[0]}\nSECOND_HALF={p[1]}\nFULL=${{FIRST_HALF}}${{SECOND_HALF}}"


def t_split_odd_even():
    d, s = text_secret()
    return f"{d}\nodd positions:  {s[0::2]}\neven positions: {s[1::2]}\n(interleave them, odd first)"


def t_split_numbered_shuffled():
    d, s = text_secret()
    p = chunks(s, 4)
    idx = list(range(len(p)))
    R.shuffle(idx)
    return f"{d} fragments: " + "  ".join(f"[{i + 1}] {p[i]}" for i in idx)


def t_split_kv_order():
    d, s = text_secret()
    p = chunks(s, 3)
    keys = ["x", "y", "z"]
    R.shuffle(keys)
    return {"what": d, keys[0]: p[0], keys[1]: p[1], keys[2]: p[2], "order": keys}


def t_split_sms():
    d, s = text_secret()
    p = chunks(s, 2)
    return f"(1/2) Hi it's {first()}, {d}: {p[0]}\n(2/2) {p[1]} — delete after reading x"


def t_split_sticky():
    d, s = text_secret()
    p = chunks(s, 2)
    return f"sticky note on the monitor: {p[0]}\nsticky note under the keyboard: {p[1]}\n(together = {d})"


def t_split_days():
    d, s = text_secret()
    p = chunks(s, 3)
    return f"Mon — first bit of the {d}: {p[0]}\nTue — middle: {p[1]}\nWed — end: {p[2]}"


def t_split_yaml_list():
    d, s = text_secret()
    return f"# {d}\n{snake(d)[:20]}_parts:\n" + "\n".join(f"  - \"{x}\"" for x in chunks(s, 3)) + "\n# join: ''.join(parts)"


def t_split_nested():
    d, s = text_secret()
    p = chunks(s, 2)
    return {"creds": {"a": {"v": p[0]}, "b": {"v": p[1]}}, "hint": f"{d} = creds.a.v + creds.b.v"}


def t_split_array_objects():
    d, s = text_secret()
    p = chunks(s, 3)
    items = [{"i": i + 1, "s": x} for i, x in enumerate(p)]
    R.shuffle(items)
    return [{"label": d, "join": "sort by i"}] + items


def t_interleave2():
    d, s = text_secret()
    return f"{d} (take every 2nd char starting with the 1st): " + "".join(c + rs(ALNUM, 1) for c in s)


def t_interleave3():
    d, s = text_secret()
    return f"{d} — characters 1, 4, 7, …: " + "".join(c + rs(ALNUM, 2) for c in s)


def t_grid_columns():
    d, s = text_secret()
    k = ri(3, 4)
    lines = [s[i::k] for i in range(k)]
    return f"{d}, read down the columns (1st char of each line, then 2nd char of each line …):\n" + "\n".join(lines)


def t_acrostic():
    d, s = text_secret(24)
    lines = [f"{c} {' '.join(sample(WORDS, ri(2, 4)))}" for c in s]
    return f"{d}: first character of each line\n" + "\n".join(lines)


def t_lastchar():
    d, s = text_secret(24)
    lines = [f"{' '.join(sample(WORDS, ri(2, 3)))} {c}" for c in s]
    return f"{d} = last character of each line below\n" + "\n".join(lines)


def t_zip_halves():
    d, s = text_secret()
    h = (len(s) + 1) // 2
    a, b = s[:h], s[h:]
    z = "".join(x + y for x, y in zip(a, b + " "))
    return f"{d}: first half and second half interleaved → {z.rstrip()}"


def t_brackets():
    d, s = text_secret()
    return f"{d} is only the bracketed chars: " + "".join(rs(ALNUM, ri(0, 2)) + f"[{c}]" for c in s)


def t_first_letters():
    s = lowpw()
    d = ch(["wifi password", "email password", "Netflix password"])
    words = []
    byletter = {}
    for w in BIP + WORDS:
        byletter.setdefault(w[0], []).append(w)
    for c in s:
        words.append(c if c.isdigit() else ch(byletter.get(c, [c])))
    return f"{d}: first letters of: {' '.join(words)} (numbers as they are)"


for _n, _f in [("split-json-fields", t_split_json), ("split-list-items", t_split_list), ("split-lines", t_split_lines),
               ("split-chat-messages", t_split_chat), ("split-email-ps", t_split_email_ps), ("split-csv-columns", t_split_csv),
               ("split-markdown-table", t_split_md), ("split-title-body", t_split_title_body), ("split-reverse-order", t_split_reverse_order),
               ("split-dashes-inserted", t_split_dashes), ("split-spaces-inserted", t_split_spaces), ("split-vertical", t_split_vertical),
               ("split-two-vars", t_split_vars), ("split-odd-even", t_split_odd_even), ("split-numbered-shuffled", t_split_numbered_shuffled),
               ("split-kv-order", t_split_kv_order), ("split-sms-parts", t_split_sms), ("split-sticky-notes", t_split_sticky),
               ("split-across-days", t_split_days), ("split-yaml-list", t_split_yaml_list), ("split-nested-object", t_split_nested),
               ("split-array-of-objects", t_split_array_objects),
               ("interleave-every-2nd", t_interleave2), ("interleave-every-3rd", t_interleave3), ("interleave-grid-columns", t_grid_columns),
               ("interleave-acrostic", t_acrostic), ("interleave-last-chars", t_lastchar), ("interleave-halves", t_zip_halves),
               ("interleave-bracketed", t_brackets), ("interleave-first-letters", t_first_letters)]:
    H(_n, _f)

# --- invisible characters / bidi / tags
INVIS = [("zwsp", "\u200b"), ("zwnj", "\u200c"), ("zwj", "\u200d"), ("word-joiner", "\u2060"), ("soft-hyphen", "\u00ad"),
         ("bom", "\ufeff"), ("lrm", "\u200e"), ("rlm", "\u200f"), ("cgj", "\u034f"), ("vs16", "\ufe0f"),
         ("invisible-separator", "\u2063"), ("invisible-times", "\u2062"), ("function-application", "\u2061"), ("mvs", "\u180e")]


def _mk_invis(cp):
    def fn():
        d, s = text_secret()
        if chance(0.5):
            x = cp.join(s)
        else:
            x = "".join(c + (cp * ri(1, 2) if chance(0.5) else "") for c in s)
        return ch([f"{d}: {x}", f"{d} → {x}", f"{x}\n({d})"])
    return fn


for _n, _c in INVIS:
    H(f"invisible-{_n}", _mk_invis(_c))


def t_tags():
    d, s = text_secret()
    hidden = "".join(chr(0xE0000 + ord(c)) for c in s)
    cover = ch(["Lovely weather today, going for a walk later.", "Meeting notes: nothing urgent this week.",
                "Reminder to water the plants.", "Great dinner at the new place on the corner."])
    return f"{cover} \U000E0001{hidden}\U000E007F\n(the {d} is hidden in the tag characters above)"


def t_rlo():
    d, s = text_secret()
    return f"{d}: \u202e{s[::-1]}\u202c"


H("invisible-unicode-tags", t_tags)
H("bidi-rlo-reversed", t_rlo)

# --- homoglyphs
CYR = dict(zip("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ"))
GRK = dict(zip("ABEHIKMNOPTXYZoiv", "ΑΒΕΗΙΚΜΝΟΡΤΧΥΖοιν"))


def _mathmap(s, up, low, dig):
    out = []
    for c in s:
        if "A" <= c <= "Z" and up:
            out.append(chr(up + ord(c) - 65))
        elif "a" <= c <= "z" and low:
            out.append(chr(low + ord(c) - 97))
        elif "0" <= c <= "9" and dig:
            out.append(chr(dig + ord(c) - 48))
        else:
            out.append(c)
    return "".join(out)


HOMO = [
    ("cyrillic", lambda s: "".join(CYR.get(c, c) for c in s)),
    ("greek", lambda s: "".join(GRK.get(c, c) for c in s)),
    ("mixed-cyrillic-greek", lambda s: "".join((CYR.get(c) or GRK.get(c) or c) if chance(0.7) else c for c in s)),
    ("fullwidth", lambda s: "".join(chr(ord(c) + 0xFEE0) if 33 <= ord(c) <= 126 else c for c in s)),
    ("math-bold", lambda s: _mathmap(s, 0x1D400, 0x1D41A, 0x1D7CE)),
    ("math-sans", lambda s: _mathmap(s, 0x1D5A0, 0x1D5BA, 0x1D7E2)),
    ("math-sans-bold", lambda s: _mathmap(s, 0x1D5D4, 0x1D5EE, 0x1D7EC)),
    ("math-monospace", lambda s: _mathmap(s, 0x1D670, 0x1D68A, 0x1D7F6)),
    ("circled", lambda s: _mathmap(s, 0x24B6, 0x24D0, 0) .replace("0", "\u24ea") if False else "".join(
        chr(0x24B6 + ord(c) - 65) if "A" <= c <= "Z" else chr(0x24D0 + ord(c) - 97) if "a" <= c <= "z" else
        ("\u24ea" if c == "0" else chr(0x2460 + int(c) - 1)) if "0" <= c <= "9" else c for c in s)),
]


def _mk_homo(f):
    def fn():
        d, s = text_secret()
        return ch([f"{d}: {f(s)}", f"{f(s)}\n— {d}", f"{d} = {f(s)}"])
    return fn


for _n, _f in HOMO:
    H(f"homoglyph-{_n}", _mk_homo(_f))

# --- Unicode digit systems
DIGIT_SYS = [("arabic-indic", 0x660), ("extended-arabic-indic", 0x6F0), ("nko", 0x7C0), ("devanagari", 0x966),
             ("bengali", 0x9E6), ("gurmukhi", 0xA66), ("gujarati", 0xAE6), ("oriya", 0xB66), ("tamil", 0xBE6),
             ("telugu", 0xC66), ("kannada", 0xCE6), ("malayalam", 0xD66), ("thai", 0xE50), ("lao", 0xED0),
             ("tibetan", 0xF20), ("myanmar", 0x1040), ("khmer", 0x17E0), ("mongolian", 0x1810), ("limbu", 0x1946),
             ("new-tai-lue", 0x19D0), ("balinese", 0x1B50), ("sundanese", 0x1BB0), ("ol-chiki", 0x1C50), ("vai", 0xA620),
             ("javanese", 0xA9D0), ("cham", 0xAA50), ("meetei-mayek", 0xABF0), ("fullwidth", 0xFF10),
             ("math-bold", 0x1D7CE), ("math-double-struck", 0x1D7D8), ("math-monospace", 0x1D7F6), ("adlam", 0x1E950),
             ("osmanya", 0x104A0), ("sinhala-lith", 0xDE6)]
DIGIT_LISTS = [("superscript", "⁰¹²³⁴⁵⁶⁷⁸⁹"), ("subscript", "₀₁₂₃₄₅₆₇₈₉"), ("circled", "⓪①②③④⑤⑥⑦⑧⑨"),
               ("negative-circled", "⓿❶❷❸❹❺❻❼❽❾"), ("cjk-ideographic", "〇一二三四五六七八九"),
               ("keycap-emoji", ["0\ufe0f\u20e3", "1\ufe0f\u20e3", "2\ufe0f\u20e3", "3\ufe0f\u20e3", "4\ufe0f\u20e3", "5\ufe0f\u20e3", "6\ufe0f\u20e3", "7\ufe0f\u20e3", "8\ufe0f\u20e3", "9\ufe0f\u20e3"]),
               ("financial-chinese", "零壹贰叁肆伍陆柒捌玖"), ("dingbat-sans-circled", ["🄋", "➀", "➁", "➂", "➃", "➄", "➅", "➆", "➇", "➈"])]


def _mk_digsys(mapper):
    def fn():
        d, s = digit_secret()
        x = "".join(mapper(c) for c in s)
        return ch([f"{d}: {x}", f"{d} {x}", f"{x} ← {d}", f"new {d} = {x}"])
    return fn


for _n, _b in DIGIT_SYS:
    H(f"digits-{_n}", _mk_digsys(lambda c, b=_b: chr(b + int(c))))
for _n, _l in DIGIT_LISTS:
    H(f"digits-{_n}", _mk_digsys(lambda c, l=_l: l[int(c)]))

# --- spoken digits in many languages
SPOKEN = {
    "en": "zero one two three four five six seven eight nine", "es": "cero uno dos tres cuatro cinco seis siete ocho nueve",
    "fr": "zéro un deux trois quatre cinq six sept huit neuf", "de": "null eins zwei drei vier fünf sechs sieben acht neun",
    "it": "zero uno due tre quattro cinque sei sette otto nove", "pt": "zero um dois três quatro cinco seis sete oito nove",
    "nl": "nul een twee drie vier vijf zes zeven acht negen", "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",
    "ru": "ноль один два три четыре пять шесть семь восемь девять", "uk": "нуль один два три чотири п'ять шість сім вісім дев'ять",
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう", "zh": "零 一 二 三 四 五 六 七 八 九",
    "zh-pinyin": "líng yī èr sān sì wǔ liù qī bā jiǔ", "ko": "공 일 이 삼 사 오 육 칠 팔 구",
    "hi": "शून्य एक दो तीन चार पाँच छह सात आठ नौ", "ar": "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة",
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz", "sv": "noll ett två tre fyra fem sex sju åtta nio",
    "el": "μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα", "he": "אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע",
    "vi": "không một hai ba bốn năm sáu bảy tám chín", "id": "nol satu dua tiga empat lima enam tujuh delapan sembilan",
    "sw": "sifuri moja mbili tatu nne tano sita saba nane tisa", "fi": "nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän",
    "hu": "nulla egy kettő három négy öt hat hét nyolc kilenc", "cs": "nula jedna dva tři čtyři pět šest sedm osm devět",
    "th": "ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า", "fa": "صفر یک دو سه چهار پنج شش هفت هشت نه",
    "ro": "zero unu doi trei patru cinci șase șapte opt nouă", "da": "nul en to tre fire fem seks syv otte ni",
    "bn": "শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়", "ta": "பூஜ்யம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது",
}


def _mk_spoken(words):
    w = words.split()

    def fn():
        d, s = digit_secret()
        said = " ".join(w[int(c)] for c in s)
        return ch([f"{d}: {said}", f"voice memo → {d} is {said}", f"{d} (said out loud): {said}", f"\"{said}\" — that's the {d}"])
    return fn


for _n in SPOKEN:
    H(f"spoken-digits-{_n}", _mk_spoken(SPOKEN[_n]))

# --- riddles and arithmetic whose answer is the code
EVENTS = [(1969, "the first Moon landing"), (1989, "the fall of the Berlin Wall"), (1945, "the end of WWII"),
          (1066, "the Battle of Hastings"), (1492, "Columbus's first voyage"), (1776, "the US Declaration of Independence"),
          (1789, "the storming of the Bastille"), (1912, "the Titanic sinking"), (1903, "the Wright brothers' first flight"),
          (1990, "German reunification"), (2007, "the first iPhone"), (1815, "the Battle of Waterloo")]
T9 = {c: d for d, letters in [("2", "abc"), ("3", "def"), ("4", "ghi"), ("5", "jkl"), ("6", "mno"), ("7", "pqrs"), ("8", "tuv"), ("9", "wxyz")] for c in letters}
T9_WORDS = ["bear", "home", "cake", "lamp", "frog", "star", "moon", "tiger", "piano", "mango", "river", "wolf", "cloud", "lemon"]
ONES = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def words_num(n):
    if n < 20:
        return ONES[n]
    if n < 100:
        return TENS[n // 10] + ("-" + ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return ONES[n // 100] + " hundred" + (" and " + words_num(n % 100) if n % 100 else "")
    return words_num(n // 1000) + " thousand" + ((" " if n % 1000 >= 100 else " and ") + words_num(n % 1000) if n % 1000 else "")


def roman(n):
    vals = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for v_, s_ in vals:
        while n >= v_:
            out += s_
            n -= v_
    return out


def t_sum():
    d, s = digit_secret()
    n = int(s)
    a = ri(1, max(1, n - 1))
    return f"{d} = {a} + {n - a}" if n > 1 else f"{d} = {n} + 0"


def t_diff():
    d, s = digit_secret()
    n = int(s)
    b = ri(100, 5000)
    return f"{d}: {n + b} minus {b}" + (" (keep leading zeros, it's " + str(len(s)) + " digits)" if s[0] == "0" else "")


def t_product():
    a, b = ri(12, 99), ri(101, 999)
    d = ch(DIGIT_DESCS)
    return f"{d} is {a} × {b}"


def t_square():
    n = ri(32, 999)
    return f"{ch(DIGIT_DESCS)} = {n} squared"


def t_each_plus():
    d, s = digit_secret()
    return f"{d}: each digit is one more than in {''.join(str((int(c) - 1) % 10) for c in s)} (9 wraps to 0)"


def t_reverse_digits():
    d, s = digit_secret()
    return f"{d} backwards is {s[::-1]}"


def t_event_year():
    y, ev = ch(EVENTS)
    tail = rs(DG, ri(1, 2))
    return ch([f"alarm code: the year of {ev}, then {tail}", f"{ch(DIGIT_DESCS)} = year of {ev} followed by {tail}"])


def t_hex_number():
    n = ri(1000, 999999)
    return f"{ch(DIGIT_DESCS)}: 0x{n:X} in decimal"


def t_binary_number():
    n = ri(1000, 99999)
    return f"{ch(DIGIT_DESCS)} in binary: {n:b}"


def t_roman():
    n = ri(1000, 3999)
    return f"{ch(DIGIT_DESCS)}: {roman(n)} (roman numerals)"


def t_t9():
    w = ch(T9_WORDS)
    return f"{ch(DIGIT_DESCS)} spells {w.upper()} on a phone keypad"


def t_alpha_pos():
    s = "".join(ch("123456789") for _ in range(ch([4, 4, 5, 6])))
    return f"{ch(DIGIT_DESCS)}: {'-'.join(chr(64 + int(c)) for c in s)} (A=1, B=2, …)"


def t_constant():
    name, dg = ch([("pi", "14159265"), ("e", "71828182"), ("the square root of 2", "41421356"), ("the golden ratio", "61803398")])
    k = ch([4, 6])
    return f"{ch(DIGIT_DESCS)} = the first {k} decimals of {name}"


def t_words():
    n = ri(1000, 99999)
    return f"{ch(DIGIT_DESCS)}: {words_num(n)}"


def t_divide():
    d, s = digit_secret()
    n = int(s)
    m = ch([3, 7, 11])
    return f"{d}: {n * m} divided by {m}" + (f" (pad to {len(s)} digits)" if s[0] == "0" else "")


for _n, _f in [("riddle-sum", t_sum), ("riddle-difference", t_diff), ("riddle-product", t_product), ("riddle-square", t_square),
               ("riddle-each-digit-plus-one", t_each_plus), ("riddle-reversed-digits", t_reverse_digits), ("riddle-event-year", t_event_year),
               ("riddle-hex-number", t_hex_number), ("riddle-binary-number", t_binary_number), ("riddle-roman-numerals", t_roman),
               ("riddle-t9-word", t_t9), ("riddle-alphabet-positions", t_alpha_pos), ("riddle-constant-digits", t_constant),
               ("riddle-number-words", t_words), ("riddle-division", t_divide)]:
    H(_n, _f)


# --- other encodings of text
MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..", "j": ".---",
         "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-", "r": ".-.", "s": "...", "t": "-",
         "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..", "0": "-----", "1": ".----", "2": "..---",
         "3": "...--", "4": "....-", "5": ".....", "6": "-....", "7": "--...", "8": "---..", "9": "----."}
NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf", "h": "hotel", "i": "india",
        "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november", "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo",
        "s": "sierra", "t": "tango", "u": "uniform", "v": "victor", "w": "whiskey", "x": "x-ray", "y": "yankee", "z": "zulu"}
BRAILLE = {c: chr(0x2800 + m) for c, m in zip("abcdefghijklmnopqrstuvwxyz", [1, 3, 9, 25, 17, 11, 27, 19, 10, 26, 5, 7, 13, 29, 21, 15, 31, 23, 14, 30, 37, 39, 58, 45, 61, 53])}


def t_morse():
    s = lowpw()
    return f"{ch(['wifi password', 'email password', 'router password'])} in morse: " + " / ".join(MORSE[c] for c in s)


def t_nato():
    d, s = text_secret(30)
    out = []
    for c in s:
        if c.isalpha() and c.isascii():
            out.append(("capital " if c.isupper() else "") + NATO[c.lower()])
        elif c.isdigit():
            out.append(SPOKEN["en"].split()[int(c)])
        else:
            out.append({"-": "dash", "_": "underscore", ".": "dot", "!": "exclamation mark", "#": "hash", "$": "dollar",
                        "@": "at", "*": "star", "?": "question mark", "%": "percent", "&": "ampersand", "+": "plus",
                        "=": "equals", "/": "slash", "^": "caret", "~": "tilde"}.get(c, f"'{c}'"))
    return f"{d}, spelled: " + ", ".join(out)


def t_braille():
    s = ch(HWORDS) + ch(HWORDS)
    return f"{ch(['wifi password', 'locker app password', 'guest network password'])} in braille: " + "".join(BRAILLE[c] for c in s)


def t_data_uri():
    d, s = text_secret()
    return f"{d}: data:text/plain;base64,{b64s(s)}"


def t_html_comment():
    d, s = text_secret()
    return f"<div class=\"footer\">© {ri(2019, 2025)} {ch(CORP)}</div>\n<!-- {d}: {s} -->"


def t_alt_text():
    d, s = text_secret()
    return f"<img src=\"/img/{ch(WORDS)}.png\" alt=\"{d} {s}\" width=\"1\" height=\"1\">"


def t_exif():
    d, s = text_secret()
    return (f"ExifTool Version Number         : 12.76\nFile Name                       : IMG_{ri(1000, 9999)}.JPG\nMake                            : Apple\n"
            f"Camera Model Name               : iPhone 13\nUser Comment                    : {d} {s}\nCreate Date                     : {iso_date().replace('-', ':')} {hhmm()}:00")


def t_wifi_qr():
    return f"WIFI:T:WPA;S:{ssid()};P:{wifi_pw()};;"


def t_ics():
    zid = zoom_id().replace(" ", "")
    return (f"BEGIN:VEVENT\nSUMMARY:{ch(['Quarterly review', 'Parents committee', 'Vendor sync', 'Book club'])}\nDTSTART:{iso_date().replace('-', '')}T{ri(8, 18):02d}0000Z\n"
            f"LOCATION:https://zoom.us/j/{zid}\nDESCRIPTION:Meeting ID {zid}\\nPasscode: {digits(6)}\nEND:VEVENT")


def t_vcard():
    return (f"BEGIN:VCARD\nVERSION:3.0\nFN:{full_name()}\nTEL;TYPE=cell:{phone()}\nNOTE:gate {kcode()} / alarm {pin(4)}\nEND:VCARD")


for _n, _f in [("morse", t_morse), ("nato-spelling", t_nato), ("braille", t_braille), ("data-uri-base64", t_data_uri),
               ("hidden-html-comment", t_html_comment), ("hidden-alt-text", t_alt_text), ("exif-user-comment", t_exif),
               ("wifi-qr-payload", t_wifi_qr), ("ics-meeting-passcode", t_ics), ("vcard-note-codes", t_vcard)]:
    H(_n, _f)

# --- dotfiles and tool configs
def F(t):
    return fill(t)


DOT = {
    "netrc": lambda: F(f"machine {ch(['api.heroku.com', 'git.heroku.com', 'ftp.' + ch(CORP), 'github.com', 'nexus.' + ch(CORP)])}\n  login {email()}\n  password " + ch(["{uuid}", "HRKU-AA{u:58}", "ghp_{a:36}", pw_strong()])),
    "pgpass": lambda: f"# ~/.pgpass\n{host()}:5432:{dbname()}:{uname()}:{pw_url()}\nlocalhost:5432:*:postgres:{pw_url()}",
    "npmrc": lambda: F("registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=npm_{a:36}\nsave-exact=true"),
    "pypirc": lambda: F("[distutils]\nindex-servers =\n    pypi\n\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc{u:50}{u:60}"),
    "git-credentials": lambda: F("https://{user}:ghp_{a:36}@github.com\nhttps://oauth2:glpat-{u:20}@gitlab.com"),
    "docker-config": lambda: json.dumps({"auths": {ch(["https://index.docker.io/v1/", "ghcr.io", "registry.gitlab.com", f"{ch(WORDS)}.azurecr.io"]): {"auth": b64s(f"{uname()}:{pw_strong()}")}}}, indent=2),
    "aws-credentials": lambda: F("[default]\naws_access_key_id = AKIA{A:16}\naws_secret_access_key = {b:40}\n\n[prod]\nregion = {region}"),
    "kubeconfig-token": lambda: (f"apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://{ch(['k8s', 'api', 'kube'])}.{ch(CORP)}:6443\n  name: {ch(ENVS)}\n"
                                 f"users:\n- name: admin\n  user:\n    token: {jwt('k8s')}\ncurrent-context: {ch(ENVS)}"),
    "kubeconfig-client-key": lambda: (f"users:\n- name: kubernetes-admin\n  user:\n    client-certificate-data: {b64s(cert())[:120]}\n"
                                      f"    client-key-data: {b64s(pem_ec())}"),
    "s3cfg": lambda: F("[default]\naccess_key = AKIA{A:16}\nsecret_key = {b:40}\nhost_base = s3.amazonaws.com\nuse_https = True"),
    "rclone-token": lambda: ("[gdrive]\ntype = drive\nscope = drive\ntoken = " + json.dumps({"access_token": F("ya29.a0{u:140}"), "token_type": "Bearer", "refresh_token": F("1//0{u:96}"), "expiry": iso_ts()})),
    "boto": lambda: F("[Credentials]\ngs_access_key_id = GOOG1E{A:55}\ngs_secret_access_key = {b:40}"),
    "my-cnf": lambda: f"[client]\nuser=root\npassword={pw_strong()}\nhost={host()}",
    "maven-settings": lambda: (f"<settings>\n  <servers>\n    <server>\n      <id>{ch(['releases', 'nexus', 'ossrh'])}</id>\n      <username>{uname()}</username>\n"
                               f"      <password>{xmlesc(pw_strong())}</password>\n    </server>\n  </servers>\n</settings>"),
    "gem-credentials": lambda: F("---\n:rubygems_api_key: rubygems_{h:48}"),
    "cargo-credentials": lambda: F("[registry]\ntoken = \"cio{a:32}\""),
    "composer-auth": lambda: json.dumps({"github-oauth": {"github.com": F("ghp_{a:36}")}, "http-basic": {f"repo.{ch(CORP)}": {"username": uname(), "password": pw_strong()}}}, indent=4),
    "yarnrc": lambda: F("nodeLinker: node-modules\nnpmRegistryServer: \"https://registry.npmjs.org\"\nnpmAuthToken: npm_{a:36}"),
    "terraformrc": lambda: F("credentials \"app.terraform.io\" {\n  token = \"{a:14}.atlasv1.{a:67}\"\n}"),
    "gh-hosts": lambda: F("github.com:\n    user: {user}\n    oauth_token: gho_{a:36}\n    git_protocol: https"),
    "glab-config": lambda: F("hosts:\n  gitlab.com:\n    token: glpat-{u:20}\n    api_protocol: https"),
    "doctl-config": lambda: F("access-token: dop_v1_{h:64}\ncontext: default"),
    "pip-conf": lambda: f"[global]\nindex-url = https://{uname()}:{pw_url()}@pypi.{ch(CORP)}/simple\ntimeout = 60",
    "condarc": lambda: F("channels:\n  - https://conda.anaconda.org/t/{l:2}-{uuid}/{word}\n  - conda-forge"),
    "wgetrc": lambda: f"user = {uname()}\npassword = {pw_strong()}\ntimeout = 30",
    "curlrc": lambda: f"user = \"{uname()}:{pw_url()}\"\nconnect-timeout = 10",
    "fetchmailrc": lambda: f"poll imap.{ch(CORP)} protocol IMAP\n  user \"{email(True)}\" there with password \"{pw_strong()}\" is {uname()} here\n  ssl",
    "msmtprc": lambda: f"account default\nhost smtp.{ch(MAILDOM)}\nport 587\nauth on\nuser {email()}\npassword {pw_strong()}\ntls on",
    "muttrc": lambda: f"set smtp_url = \"smtps://{email().split('@')[0]}:{pw_url()}@smtp.gmail.com:465/\"\nset ssl_force_tls = yes",
    "offlineimaprc": lambda: f"[Repository Remote]\ntype = IMAP\nremotehost = imap.{ch(MAILDOM)}\nremoteuser = {email()}\nremotepass = {pw_strong()}",
    "irssi-config": lambda: f"servers = (\n  {{ address = \"irc.libera.chat\"; chatnet = \"liberachat\"; port = \"6697\"; password = \"{pw_strong()}\"; use_tls = \"yes\"; }}\n);",
    "transmission-settings": lambda: json.dumps({"rpc-authentication-required": True, "rpc-username": uname(), "rpc-password": pw_human(), "rpc-port": 9091}, indent=4),
    "filezilla-sitemanager": lambda: (f"<Server>\n  <Host>ftp.{ch(CORP)}</Host>\n  <Port>21</Port>\n  <User>{uname()}</User>\n"
                                      f"  <Pass encoding=\"base64\">{b64s(pw_strong())}</Pass>\n</Server>"),
    "vault-token-file": lambda: F("$ cat ~/.vault-token\nhvs.{u:90}"),
    "databrickscfg": lambda: F("[DEFAULT]\nhost = https://adb-{d:16}.{d:2}.azuredatabricks.net\ntoken = dapi{h:32}"),
    "snowsql-config": lambda: f"[connections]\naccountname = {rs(LO, 7)}-{rs(LO, 7)}\nusername = {uname()}\npassword = {pw_strong()}",
    "hcloud-cli": lambda: F("active_context = \"prod\"\n\n[[contexts]]\n  name = \"prod\"\n  token = \"{a:64}\""),
    "ngrok-yml": lambda: F("version: \"2\"\nauthtoken: {a:27}_{a:21}\ntunnels:\n  web:\n    proto: http\n    addr: 8080"),
    "gcloud-adc": lambda: json.dumps({"client_id": F("{d:12}-{l:32}.apps.googleusercontent.com"), "client_secret": F("GOCSPX-{u:28}"),
                                      "refresh_token": F("1//0{u:96}"), "type": "authorized_user"}, indent=2),
    "circleci-cli": lambda: F("host: https://circleci.com\ntoken: CCIPAT_{a:22}_{h:40}"),
    "ssh-private-key-file": lambda: "$ cat ~/.ssh/id_ed25519\n" + ossh_ed(),
    "wpa-supplicant": lambda: f"ctrl_interface=/var/run/wpa_supplicant\nnetwork={{\n    ssid=\"{ssid()}\"\n    psk=\"{wifi_pw()}\"\n    key_mgmt=WPA-PSK\n}}",
    "nmconnection": lambda: f"[connection]\nid={ssid()}\ntype=wifi\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk={wifi_pw()}",
    "windows-wlan-profile": lambda: (f"<WLANProfile>\n  <name>{ssid()}</name>\n  <MSM><security>\n    <sharedKey>\n      <keyType>passPhrase</keyType>\n"
                                     f"      <protected>false</protected>\n      <keyMaterial>{xmlesc(wifi_pw())}</keyMaterial>\n    </sharedKey>\n  </security></MSM>\n</WLANProfile>"),
    "git-config-remote-token": lambda: F("[remote \"origin\"]\n\turl = https://x-access-token:ghs_{a:36}@github.com/{word}/{app}.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*"),
    "pulumi-credentials": lambda: json.dumps({"current": "https://api.pulumi.com", "accessTokens": {"https://api.pulumi.com": F("pul-{h:40}")}}, indent=4),
    "netlify-config": lambda: json.dumps({"userId": rs(ALPH["h"], 24), "users": {rs(ALPH["h"], 24): {"auth": {"token": F("nfp_{a:36}")}}}}, indent=2),
    "kaggle-json": lambda: json.dumps({"username": uname(), "key": rs(ALPH["h"], 32)}),
    "hf-token-file": lambda: F("$ cat ~/.cache/huggingface/token\nhf_{a:34}"),
    "spotify-tui-client": lambda: F("client_id: {h:32}\nclient_secret: {h:32}\nport: 8888"),
    "dockercfg-legacy": lambda: json.dumps({"https://index.docker.io/v1/": {"auth": b64s(f"{uname()}:{pw_strong()}"), "email": email()}}),
    "travis-config": lambda: F("endpoints:\n  https://api.travis-ci.com/:\n    access_token: {u:22}\ndefault_endpoint: https://api.travis-ci.com/"),
}
for _n in DOT:
    H(f"dotfile-{_n}", DOT[_n])


# --- password-manager exports
def _rows(n=None):
    n = n or ri(2, 3)
    out = []
    for _ in range(n):
        site = ch(["github.com", "amazon.com", "netflix.com", "bank." + ch(CORP), "mail.proton.me", "router.local", "dropbox.com",
                   "spotify.com", "linkedin.com", "ikea.com", "booking.com", "airbnb.com", "paypal.com", "reddit.com"])
        out.append((site.split(".")[0].title(), "https://" + site, ch([email(), uname()]), pw_any()))
    return out


def pm_1password():
    return "Title,Website,Username,Password,Notes\n" + "\n".join(f"{t},{u},{n},{p}," for t, u, n, p in _rows())


def pm_bitwarden():
    items = [{"id": uuid4(), "type": 1, "name": t, "login": {"username": n, "password": p, "uris": [{"uri": u}], "totp": None}} for t, u, n, p in _rows()]
    return json.dumps({"encrypted": False, "folders": [], "items": items}, indent=2)


def pm_keepass():
    t, u, n, p = _rows(1)[0]
    return (f"<Entry>\n  <String><Key>Title</Key><Value>{t}</Value></String>\n  <String><Key>UserName</Key><Value>{xmlesc(n)}</Value></String>\n"
            f"  <String><Key>Password</Key><Value ProtectInMemory=\"True\">{xmlesc(p)}</Value></String>\n  <String><Key>URL</Key><Value>{u}</Value></String>\n</Entry>")


def pm_lastpass():
    return "url,username,password,totp,extra,name,grouping,fav\n" + "\n".join(f"{u},{n},{p},,,{t},Personal,0" for t, u, n, p in _rows())


def pm_chrome():
    return "name,url,username,password,note\n" + "\n".join(f"{u.split('//')[1]},{u}/login,{n},{p}," for t, u, n, p in _rows())


def pm_firefox():
    return ('"url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"\n'
            + "\n".join(f'"{u}","{n}","{p}",,"{u}","{{{uuid4()}}}","{ri(1600000000, 1750000000)}000","{ri(1600000000, 1750000000)}000","{ri(1600000000, 1750000000)}000"' for t, u, n, p in _rows()))


def pm_dashlane():
    return "username,username2,username3,title,password,note,url,category,otpSecret\n" + "\n".join(f"{n},,,{t},{p},,{u},," for t, u, n, p in _rows())


def pm_apple():
    return "Title,URL,Username,Password,Notes,OTPAuth\n" + "\n".join(f"{u.split('//')[1]} ({n}),{u},{n},{p},," for t, u, n, p in _rows())


def pm_enpass():
    t, u, n, p = _rows(1)[0]
    return json.dumps({"items": [{"title": t, "category": "login", "fields": [{"label": "Username", "value": n}, {"label": "Password", "value": p}, {"label": "Website", "value": u}]}]}, indent=2)


def pm_nordpass():
    return "name,url,username,password,note,cardholdername,cardnumber,cvc,expirydate,zipcode,folder\n" + "\n".join(f"{t},{u},{n},{p},,,,,,,Personal" for t, u, n, p in _rows())


def pm_keepassxc():
    return ('"Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"\n'
            + "\n".join(f'"Root/Internet","{t}","{n}","{p}","{u}","","","0","{iso_ts()}","{iso_ts()}"' for t, u, n, p in _rows()))


def pm_proton():
    t, u, n, p = _rows(1)[0]
    return json.dumps({"version": "1.21.0", "vaults": {rs(ALNUM, 20): {"name": "Personal", "items": [{"data": {"metadata": {"name": t}, "type": "login",
                                                                                                              "content": {"itemEmail": n, "password": p, "urls": [u]}}}]}}}, indent=2)


def pm_bitwarden_card():
    brand, num = card_number()
    return json.dumps({"encrypted": False, "items": [{"type": 3, "name": f"{brand} card", "card": {"cardholderName": full_name(), "brand": brand, "number": num,
                                                                                                   "expMonth": str(ri(1, 12)), "expYear": str(ri(2026, 2031)), "code": cvv(brand)}}]}, indent=2)


for _n, _f in [("1password-csv", pm_1password), ("bitwarden-json", pm_bitwarden), ("keepass-xml", pm_keepass), ("lastpass-csv", pm_lastpass),
               ("chrome-csv", pm_chrome), ("firefox-csv", pm_firefox), ("dashlane-csv", pm_dashlane), ("apple-passwords-csv", pm_apple),
               ("enpass-json", pm_enpass), ("nordpass-csv", pm_nordpass), ("keepassxc-csv", pm_keepassxc), ("proton-pass-json", pm_proton),
               ("bitwarden-card", pm_bitwarden_card)]:
    H(f"pwexport-{_n}", _f)

# --- URIs with userinfo or tokens
URIS = {
    "ftp": lambda: f"ftp://{uname()}:{pw_url()}@ftp.{ch(CORP)}/pub/",
    "sftp": lambda: f"sftp://{uname()}:{pw_url()}@{host()}:22/uploads",
    "smb": lambda: f"smb://{uname()}:{pw_url()}@nas.local/{ch(['photos', 'backup', 'media'])}",
    "https-userinfo-token": lambda: F("git clone https://oauth2:glpat-{u:20}@gitlab.com/{word}/{app}.git"),
    "git-https-pat": lambda: F("pip install git+https://{user}:ghp_{a:36}@github.com/{word}/{app}.git@main"),
    "http-proxy": lambda: f"export HTTPS_PROXY=http://{uname()}:{pw_url()}@proxy.{ch(CORP)}:3128",
    "socks5": lambda: f"socks5://{uname()}:{pw_url()}@{ri(11, 223)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}:1080",
    "rtsp": lambda: f"rtsp://admin:{pw_url(10)}@192.168.{ri(0, 2)}.{ri(20, 250)}:554/cam/realmonitor?channel=1&subtype=0",
    "vnc": lambda: f"vnc://:{pw_url(8)}@{host()}:5900",
    "sip": lambda: f"sip:{ri(1000, 9999)}:{pw_url(12)}@pbx.{ch(CORP)}",
    "webdav": lambda: f"davs://{uname()}:{pw_url()}@cloud.{ch(CORP)}/remote.php/dav/files/{uname()}/",
    "imap": lambda: f"imaps://{email().replace('@', '%40')}:{pw_url()}@imap.{ch(MAILDOM)}:993/INBOX",
    "smtp": lambda: f"smtp://{uname()}:{pw_url()}@smtp.{ch(CORP)}:587",
    "s3-inline": lambda: F("s3://AKIA{A:16}:{u:40}@{word}-backups/2024/"),
    "telnet": lambda: f"telnet://admin:{pw_url(10)}@10.{ri(0, 255)}.{ri(0, 255)}.1",
    "query-access-token": lambda: F("https://graph.{corp}/v1/me/messages?access_token=EAAG{a:120}"),
    "query-api-key": lambda: F("https://api.{corp}/v2/export?format=csv&api_key={h:40}"),
    "fragment-access-token": lambda: F("https://app.{corp}/callback#access_token={jwt}&token_type=bearer&expires_in=3600"),
    "wss-token": lambda: F("wss://stream.{corp}/socket?token={u:48}"),
    "mqtt": lambda: f"mqtt://{uname()}:{pw_url()}@broker.{ch(CORP)}:1883",
    "ldap-bind-url": lambda: f"ldapsearch -H ldaps://ldap.{ch(CORP)} -D \"cn=admin,dc={ch(WORDS)},dc=com\" -w '{pw_url()}' -b \"dc={ch(WORDS)},dc=com\"",
    "jdbc-password-param": lambda: f"jdbc:sqlserver://{host()}:1433;databaseName={dbname()};user={uname()};password={pw_url()};encrypt=true",
}
for _n in URIS:
    H(f"uri-{_n}", URIS[_n])


# --- transcripts of sessions
def tr_smtp_plain():
    u, p = email(True), pw_strong()
    blob = b64(bytes(1) + u.encode() + bytes(1) + p.encode())
    return (f"S: 220 smtp.{u.split('@')[1]} ESMTP ready\nC: EHLO laptop\nS: 250-AUTH PLAIN LOGIN\nS: 250 8BITMIME\n"
            f"C: AUTH PLAIN {blob}\nS: 235 2.7.0 Authentication successful")


def tr_smtp_login():
    u, p = email(True), pw_strong()
    return (f"C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: {b64s(u)}\nS: 334 UGFzc3dvcmQ6\nC: {b64s(p)}\nS: 235 Authentication succeeded")


def tr_imap():
    return f"* OK IMAP4rev1 ready\na001 LOGIN {email()} {pw_strong()}\na001 OK LOGIN completed\na002 SELECT INBOX\n* {ri(10, 999)} EXISTS"


def tr_pop3():
    return f"+OK POP3 server ready\nUSER {email()}\n+OK\nPASS {pw_strong()}\n+OK Logged in.\nSTAT\n+OK {ri(1, 99)} {ri(10000, 999999)}"


def tr_ftp():
    return f"220 FTP server ready\nUSER {uname()}\n331 Password required\nPASS {pw_strong()}\n230 User logged in.\nPWD\n257 \"/\" is current directory"


def tr_redis():
    return f"$ redis-cli -h {host()}\n{host()}:6379> AUTH {pw_url()}\nOK\n{host()}:6379> DBSIZE\n(integer) {ri(100, 99999)}"


def tr_mysql():
    return f"$ mysql -h {host()} -u root -p'{pw_url()}' {dbname()}\nWelcome to the MySQL monitor.  Commands end with ; or \\g.\nmysql> SHOW TABLES;"


def tr_psql():
    return f"$ PGPASSWORD='{pw_url()}' psql -h {host()} -U {uname()} {dbname()}\npsql (16.2)\nSSL connection (protocol: TLSv1.3)\n{dbname()}=> \\dt"


def tr_mongo():
    return f"test> use admin\nswitched to db admin\nadmin> db.auth(\"{uname()}\", \"{pw_url()}\")\n{{ ok: 1 }}"


def tr_expect():
    return f"#!/usr/bin/expect -f\nspawn ssh {uname()}@{host()}\nexpect \"password:\"\nsend \"{pw_url()}\\r\"\ninteract"


def tr_sshpass():
    return f"$ sshpass -p '{pw_url()}' ssh -o StrictHostKeyChecking=no {uname()}@{host()} 'uptime'\n 10:42:01 up {ri(1, 300)} days,  load average: 0.{ri(1, 99)}"


def tr_curl_verbose():
    return F("$ curl -v https://api.{corp}/v1/me\n> GET /v1/me HTTP/2\n> Host: api.{corp}\n> user-agent: curl/8.5.0\n> authorization: Bearer {jwt}\n>\n< HTTP/2 200\n< content-type: application/json")


def tr_net_use():
    return f"C:\\> net use Z: \\\\fileserver\\{ch(['finance', 'shared', 'it'])} /user:{rs(UP, 4)}\\{uname()} {pw_strong()}\nThe command completed successfully."


def tr_docker_login():
    return (f"$ docker login -u {uname()} -p {pw_url()} {ch(['ghcr.io', 'registry.gitlab.com', 'docker.io'])}\nWARNING! Using --password via the CLI is insecure. Use --password-stdin.\nLogin Succeeded")


def tr_htpasswd():
    return f"$ htpasswd -b -c /etc/nginx/.htpasswd admin '{pw_url()}'\nAdding password for user admin"


def tr_vault_login():
    return F("$ vault login\nToken (will be hidden):\nSuccess! You are now authenticated.\n\nKey                  Value\n---                  -----\ntoken                hvs.{u:90}\ntoken_accessor       {a:24}\ntoken_duration       768h")


def tr_rabbitmq():
    return f"$ rabbitmqctl add_user {uname()} '{pw_url()}'\nAdding user \"{uname()}\" ...\nDone. Don't forget to grant the user permissions to some virtual hosts!"


def tr_git_clone_output():
    return F("$ git clone https://{user}:ghp_{a:36}@github.com/{word}/{app}.git\nCloning into '{app}'...\nremote: Enumerating objects: 1532, done.")


for _n, _f in [("smtp-auth-plain", tr_smtp_plain), ("smtp-auth-login", tr_smtp_login), ("imap-login", tr_imap), ("pop3", tr_pop3),
               ("ftp", tr_ftp), ("redis-auth", tr_redis), ("mysql-cli", tr_mysql), ("psql-pgpassword", tr_psql), ("mongo-db-auth", tr_mongo),
               ("expect-script", tr_expect), ("sshpass", tr_sshpass), ("curl-verbose", tr_curl_verbose), ("net-use", tr_net_use),
               ("docker-login", tr_docker_login), ("htpasswd-b", tr_htpasswd), ("vault-login-output", tr_vault_login),
               ("rabbitmqctl-add-user", tr_rabbitmq), ("git-clone-output", tr_git_clone_output)]:
    H(f"transcript-{_n}", _f)


# --- logs and stack traces
def lg_headers():
    return F("{ts} DEBUG http.client: send: request headers={'Accept': 'application/json', 'Authorization': 'Bearer sk_live_{a:24}', 'User-Agent': 'python-requests/2.32'}").replace("{ts}", iso_ts())


def lg_py_traceback():
    dsn = f"postgresql://{uname()}:{pw_url()}@{host()}:5432/{dbname()}"
    return (f"Traceback (most recent call last):\n  File \"/app/db.py\", line {ri(10, 200)}, in connect\n    conn = psycopg2.connect(dsn)\n"
            f"    dsn = '{dsn}'\npsycopg2.OperationalError: connection to server at \"{host()}\" failed: timeout expired")


def lg_java():
    return (f"Caused by: java.sql.SQLException: Cannot create PoolableConnectionFactory (url=jdbc:mysql://{host()}:3306/{dbname()}?user={uname()}&password={pw_url()})\n"
            f"\tat org.apache.commons.dbcp2.BasicDataSource.createPoolableConnectionFactory(BasicDataSource.java:{ri(600, 700)})")


def lg_nginx():
    return F("{pubip} - - [12/Mar/2025:10:{num:10-59}:{num:10-59} +0000] \"GET /api/v1/export?api_key={h:40}&fmt=csv HTTP/1.1\" 200 {num:1000-99999} \"-\" \"curl/8.5.0\"")


def lg_k8s_describe():
    return (f"Containers:\n  {ch(APPS)}:\n    Image:  ghcr.io/{ch(WORDS)}/{ch(APPS)}:{ri(1, 9)}.{ri(0, 9)}\n    Environment:\n      LOG_LEVEL:    info\n"
            f"      DB_PASSWORD:  {pw_strong()}\n      PORT:         8080")


def lg_node():
    return F("Error: Request failed with status code 502\n    at createError (node_modules/axios/lib/core/createError.js:16:15) {\n  config: {\n    url: 'https://api.{corp}/v1/orders',\n    headers: { 'x-api-key': '{a:40}', 'Content-Type': 'application/json' }\n  }\n}")


def lg_go_panic():
    return (f"panic: dial tcp {ri(10, 172)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}:6379: i/o timeout\n\ngoroutine 1 [running]:\n"
            f"main.mustRedis({{0xc0000a6000, 0x{ri(30, 60):x}}}, {{\"redis://:{pw_url()}@{host()}:6379/0\"}})\n\t/src/main.go:{ri(20, 90)} +0x1a5")


def lg_env_dump():
    return F("=== crash report ===\nuname: Linux 6.8.0\nenv:\n  HOME=/home/app\n  PATH=/usr/local/bin:/usr/bin\n  GITHUB_TOKEN=ghp_{a:36}\n  LANG=C.UTF-8")


def lg_ci_base64():
    tok = F("npm_{a:36}")
    return f"Run echo $NPM_TOKEN | base64\n{b64s(tok + chr(10))}\nJob succeeded"


def lg_har():
    return json.dumps({"request": {"method": "GET", "url": F("https://app.{corp}/api/session"),
                                   "headers": [{"name": "Cookie", "value": F("sessionid={l:32}; csrftoken={a:64}")}, {"name": "Accept", "value": "*/*"}]},
                       "response": {"status": 200}}, indent=2)


def lg_sentry():
    return json.dumps({"breadcrumbs": [{"category": "http", "data": {"method": "POST", "url": F("https://hooks.slack.com/services/T{A:8}/B{A:10}/{a:24}"), "status_code": 404}}]}, indent=2)


for _n, _f in [("debug-headers", lg_headers), ("python-traceback", lg_py_traceback), ("java-exception", lg_java), ("nginx-access", lg_nginx),
               ("k8s-describe", lg_k8s_describe), ("node-error", lg_node), ("go-panic", lg_go_panic), ("env-dump", lg_env_dump),
               ("ci-base64-echo", lg_ci_base64), ("har-cookie", lg_har), ("sentry-breadcrumb", lg_sentry)]:
    H(f"log-{_n}", _f)


# --- diffs and commits
def df_removed():
    k = F("sk_live_{a:24}")
    return f"diff --git a/config/settings.py b/config/settings.py\n@@ -12,7 +12,7 @@\n-STRIPE_KEY = \"{k}\"\n+STRIPE_KEY = os.environ[\"STRIPE_KEY\"]"


def df_added():
    return F("diff --git a/.env b/.env\nnew file mode 100644\n--- /dev/null\n+++ b/.env\n@@ -0,0 +1,3 @@\n+PORT=8080\n+SENDGRID_API_KEY=SG.{u:22}.{u:43}\n+LOG_LEVEL=debug")


def df_commit_msg():
    return (f"commit {sha1h()}\nAuthor: {full_name()} <{email(True)}>\nDate:   {iso_date()}\n\n    rotate slack token (old one was " + F("xoxb-{d:11}-{d:13}-{a:24}") + ")")


def df_pr_comment():
    return F("> const client = new Twilio('AC{h:32}', '{h:32}');\n\nPlease don't hardcode credentials here — move them to the secrets store.")


def df_env_example():
    return f"--- a/.env.example\n+++ b/.env.example\n@@ -1,3 +1,3 @@\n DB_HOST=localhost\n-DB_PASSWORD=changeme-placeholder\n+DB_PASSWORD={pw_strong()}"


def df_blame():
    return F("^{h:7} ({name} {date} 10:0{num:0-9}:1{num:0-9} +0200 14) AWS_SECRET_ACCESS_KEY = '{b:40}'")


def df_conflict():
    return F("<<<<<<< HEAD\nDATADOG_API_KEY={h:32}\n=======\nDATADOG_API_KEY={h:32}\n>>>>>>> feature/metrics")


def df_stash():
    return F("$ git stash show -p\ndiff --git a/deploy.sh b/deploy.sh\n@@ -3 +3 @@\n-export TOKEN=\"\"\n+export TOKEN=\"glpat-{u:20}\"")


for _n, _f in [("removed-line", df_removed), ("added-env-file", df_added), ("commit-message", df_commit_msg), ("pr-review-quote", df_pr_comment),
               ("env-example-leak", df_env_example), ("git-blame", df_blame), ("merge-conflict", df_conflict), ("stash-show", df_stash)]:
    H(f"diff-{_n}", _f)


# --- secrets that sit partly in the record's key or namespace (value says so)
def split_key_hex():
    tok = rs(ALPH["h"], 32)
    vend = ch(["Datadog API key", "Mailchimp key", "PagerDuty integration key", "Bugsnag token", "Rollbar token", "Heap API key"])
    key = "mem_" + tok[:16]
    return {"key": key, "value": ch([f"{vend} = this memory's key without the mem_ prefix, followed by {tok[16:]}",
                                     f"{vend}: first half is the hex in this record's key (after mem_), second half {tok[16:]}"])}


def split_key_last4():
    p = pin(4)
    key = "mem_" + rs(ALPH["h"], ri(8, 20)) + p
    d = ch(["bike lock", "gym locker", "door code", "padlock", "garage code"])
    return {"key": key, "value": ch([f"{d} = last four characters of this note's key", f"{d}: see the last 4 digits of this memory's key 😉"])}


def split_key_prefix_pw():
    frag = rs(ALPH["h"], 8)
    rest = pw_strong(8)
    key = "mem_" + frag + rs(ALPH["h"], ri(4, 12))
    return {"key": key, "value": f"NAS admin password = the first 8 characters of this record's key after 'mem_', then {rest}"}


def split_ns_wifi():
    frag = rs(LO + DG, 6)
    rest = pw_human()
    return {"ns3": f"wifi-{frag}", "value": ch([f"wifi password = the folder name after 'wifi-' + {rest}",
                                                f"home wifi: the part of this folder's name after the dash, then {rest}"])}


def split_ns_door():
    p = pin(4)
    return {"ns3": f"door{p}", "value": ch(["door code is the number in this folder's name", "the digits in the folder name = gate code"])}


def split_ns_pw():
    frag = pw_url(7)
    rest = pw_url(7)
    return {"ns3": frag, "value": f"server login root / <name of this folder>{rest}"}


def split_ns_pin():
    p = pin(4)
    return {"ns3": f"box-{p}", "value": "keybox code = digits at the end of this folder name"}


SPLIT_SECRET = [("split-key-hex-half", split_key_hex), ("split-key-last4", split_key_last4), ("split-key-prefix-password", split_key_prefix_pw),
                ("split-ns-wifi-fragment", split_ns_wifi), ("split-ns-door-digits", split_ns_door), ("split-ns-password-fragment", split_ns_pw),
                ("split-ns-keybox-digits", split_ns_pin)]


def split_counter():
    k = ri(0, 6)
    if k == 0:
        return "key-innocent", {"key": "mem_" + rs(ALPH["h"], ri(8, 24)), "value": f"(this memory's key is just the sync id from the old phone — ignore it) parking is on level {ri(1, 6)}"}
    if k == 1:
        n = ri(10, 99)
        return "key-innocent", {"key": "mem_" + rs(ALPH["h"], ri(6, 20)) + str(n), "value": f"funny: the last two digits of this note's key are {n}, same as Lena's house number"}
    if k == 2:
        return "key-innocent", {"key": "mem_" + rs(ALPH["h"], ri(8, 24)), "value": "duplicate of the note with the same key from the laptop import — keep this one"}
    if k == 3:
        f = ch(["kitchen-reno", "garden-2025", "tax-docs", "wedding-plans", "school-forms"])
        return "ns-innocent", {"ns3": f, "value": f"budget for everything in this folder (see the folder name): €{ri(500, 9000)}"}
    if k == 4:
        f = ch(["wifi-setup", "router-manuals", "door-repair", "alarm-install"])
        return "ns-innocent", {"ns3": f, "value": "manuals and receipts for the project in this folder's name; no codes stored here"}
    if k == 5:
        f = f"trip-{ri(2023, 2026)}"
        return "ns-innocent", {"ns3": f, "value": f"everything under this folder is for the trip in the folder name — {ri(2, 9)} people, {ri(3, 14)} nights"}
    f = ch(["box-3", "shelf-12", "room-214", "locker-7"])
    return "ns-innocent", {"ns3": f, "value": "the folder name is where the physical copy is stored (box/shelf), nothing secret"}

# ====================================================================== benign look-alike families
FAMS = []


def tfill(t):
    return fill(t).replace("{{", "\x00").replace("}}", "\x01").replace("\x00", "{").replace("\x01", "}")


def T(fam, *tpls):
    FAMS.append((fam, lambda: tfill(ch(tpls))))


def FN(fam, fn):
    FAMS.append((fam, fn))


def PAIRS(fam, vendor, *sets):
    def fn():
        P = [(n, fill(p)) for n, p in ch(sets)]
        for n, p in sample(GENERIC_PAIRS, ri(0, 2)):
            P.append((n, fill(p)))
        return render_pairs(P, [], vendor)[1]
    FAMS.append((fam, fn))


SPECIAL.update({
    "weekday": lambda a: ch(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]),
    "month": lambda a: ch(["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]),
    "zip": lambda a: ch([rs(DG, 5), f"{rs(UP, 2)}{ri(1, 9)} {ri(1, 9)}{rs(UP, 2)}", f"{ri(1000, 9999)} {rs(UP, 2)}", rs(DG, 4)]),
    "mac": lambda a: ":".join(rs("0123456789ABCDEF", 2) for _ in range(6)),
    "soladdr": lambda a: b58enc(rbytes(32)),
    "ethaddr": lambda a: "0x" + rs(ALPH["h"], 40),
    "fp": lambda a: " ".join(rs("0123456789ABCDEF", 4) for _ in range(10)),
    "tlsfp": lambda a: ":".join(rs("0123456789ABCDEF", 2) for _ in range(32)),
    "flight": lambda a: ch(["LH", "BA", "KL", "IB", "TP", "AF", "U2", "FR", "UA", "DL", "EK", "QR"]) + str(ri(10, 9999)),
})

# --- personal data that is not a credential
T("phone-number", "Dentist: {phone}", "Plumber Marek — {phone} (after 5pm)", "Taxi company {phone}", "new number for {first}: {phone}",
  "Vet emergency line {phone}", "Call {first} back on {phone} re: the sofa")
T("phone-list", "Emergency numbers:\n- {first}: {phone}\n- {first}: {phone}\n- GP surgery: {phone}", "Neighbours: {first} {phone} / {first} {phone}")
T("postal-address", "New address: {num:1-250} {street}, {city} {zip}", "Send the parcel to {name}, {num:1-99} {street}, {zip} {city}",
  "Grandma moved: Flat {num:1-40}, {num:1-200} {street}, {city}")
T("po-box", "PO Box {num:100-9999}, {city} {zip}", "Postfach {num:1000-99999}, {zip} {city}")
T("birthday", "{first}'s birthday: {num:1-28}/{num:1-12}/{num:1950-2015}", "Birthdays: {first} {num:1-28} {month}, {first} {num:1-28} {month}",
  "DOB {num:1-28}.{num:1-12}.{num:1940-2010} ({first}, for the insurance form)")
T("anniversary", "Anniversary {num:1-28} {month} — book {pick:Luigi's|the Thai place|Osteria Nova} for {num:7-9}pm")
T("passport-number", "Passport no. {U:2}{d:7}, issued {date}, expires {date}", "{first}'s passport {U:1}{d:8} — renew before {month}",
  "Reisepass Nr. C{A:8}, gültig bis {date}")
T("national-id", "DNI {dni}", "Personalausweis-Nr. {pick:L|T|C}{A:8}", "NI number {U:2} {d:2} {d:2} {d:2} {pick:A|B|C|D}",
  "Carte d'identité n° {A:12}", "Codice fiscale {U:6}{d:2}{U:1}{d:2}{U:1}{d:3}{U:1}")
T("tax-id", "Steuer-ID {d:2} {d:3} {d:3} {d:3}", "PAN {U:5}{d:4}{U:1}", "EIN {d:2}-{d:7} (for the contractor invoice)", "TFN {d:3} {d:3} {d:3}",
  "VAT number {pick:DE|FR|NL|IE}{d:9}")
T("drivers-license", "Driving licence no. {U:5}{d:6}{U:2}{d:1}{U:2}", "driver's license {U:1}{d:7}, class B, exp {date}")
T("nhs-number", "NHS number {nhs}", "{first}'s NHS no. {nhs} (for the school nurse)")
T("health-insurance-number", "Krankenkasse Versichertennummer {U:1}{d:9}", "Health insurance member ID {U:3}{d:9}, group {d:6}",
  "Carte Vitale {d:1} {d:2} {d:2} {d:2} {d:3} {d:3} {d:2}")
T("order-number", "Amazon order #{d:3}-{d:7}-{d:7}", "Order {pick:#|No.} {d:8} — arriving {weekday}", "IKEA order {d:10}, delivery slot {time}")
T("tracking-number", "UPS 1Z{A:6}{d:10}", "USPS {pick:9400|9205|9361} {d:4} {d:4} {d:4} {d:4} {d:2}", "DHL tracking {d:10}",
  "Royal Mail {U:2}{d:9}GB", "FedEx {d:12} — out for delivery")
T("policy-number", "Home insurance policy {U:3}-{d:7}", "car insurance policy no. {d:10}, renewal {date}", "Travel insurance policy {U:2}{d:8}, emergency line {phone}")
T("member-number", "Gym membership no. {d:8}", "National Trust member {d:9}", "Costco member #{d:12}", "Library card {d:14}, books due {date}")
T("frequent-flyer", "Miles & More {d:15}", "BA Executive Club {d:8}", "Flying Blue {d:10}", "United MileagePlus {U:2}{d:6}")
T("invoice-number", "Invoice INV-{d:6} due {date}, €{num:50-5000}", "Rechnung Nr. {d:4}-{d:5}, fällig am {date}")
T("claim-number", "Claim #{U:2}{d:8} — adjuster {name}", "case number {d:7} (council, parking appeal)")
T("customer-number", "Customer no. {d:9} (electricity)", "Account number for the water bill: {d:10}", "Broadband account {U:2}{d:8}")
T("imei", "Phone IMEI {imei}", "IMEI of the stolen phone: {imei} (police report {d:6})")
T("vin", "Car VIN {vin}", "VIN {vin} — for the recall check")
T("serial-number", "Laptop serial {A:12}", "Bike frame number {U:2}{d:8}", "Boiler serial {d:4}-{d:4}-{d:4}", "Fridge model {U:3}{d:4} serial {A:10}")
T("mac-address", "printer MAC {mac}", "Add {mac} to the allowed devices list (kids' tablet)")
T("ip-address", "NAS is at 192.168.{num:0-2}.{num:2-250}, printer .{num:2-250}", "home IPv4 {pubip}, router 192.168.1.1")
T("license-plate", "Car reg {U:2}{d:2} {U:3}", "plate {U:1}-{U:2} {d:4}", "Visitor parking: registration {U:2}{d:2}{U:3}")
T("iban", "IBAN {iban}", "Rent goes to {name}, IBAN {iban}", "refund to IBAN {iban}, BIC {U:4}{U:2}{A:2}")
T("sort-code-account", "Sort code {d:2}-{d:2}-{d:2}, account {d:8} (builder, for the deposit)")
T("routing-number", "ABA routing {aba}, account ending {d:4}")
T("flight-booking", "Flight {flight}, seat {num:1-40}{pick:A|C|D|F}, gate B{num:1-40}", "Boarding {time} at gate {pick:A|B|C|D}{num:1-60} — {flight}")
T("room-number", "Hotel room {num:100-1200}, floor {num:1-12}", "Conference in room {num:100-600}, building {pick:A|B|C}")
T("parking-spot", "Parked on level {num:1-6}, spot {U:1}{num:1-99}", "Airport parking row {U:1}{num:1-40}, bay {num:1-200}")
T("locker-number-only", "My gym locker is #{num:1-300} (the one by the window)", "Left the bag in locker {num:1-120} at the station")
T("blood-pressure", "BP {num:100-150}/{num:60-95}, HR {num:50-100}", "Morning readings: {num:110-140}/{num:70-90}, {num:110-140}/{num:70-90}")
T("medication", "Metformin {pick:500|850|1000} mg twice daily", "Insulin {num:4-20} units before dinner", "Amoxicillin {pick:250|500} mg, 3x/day for {num:5-10} days")
T("lab-results", "Cholesterol {num:3-7}.{num:0-9} mmol/L, LDL {num:1-5}.{num:0-9}", "TSH {num:0-5}.{num:10-99} mU/L, ferritin {num:20-300}")
T("prescription-number", "Rx #{d:7} refill at {pick:CVS|Boots|Walgreens}", "Repeat prescription ref {d:10}")
T("vaccination-lot", "Vaccine lot {U:2}{d:4}, dose {num:1-3}, {date}")
T("weight-log", "Weight {num:55-110}.{num:0-9} kg, waist {num:70-110} cm", "Baby weight {num:3-9}.{num:10-99} kg at {num:2-40} weeks")

# --- hashes, checksums, identifiers
T("md5-checksum", "MD5 ({word}-{num:1-9}.{num:0-9}.iso) = {md5}", "md5sum: {md5}  backup.tar")
T("sha1-checksum", "SHA1 {sha1}  installer.exe", "sha1 of the firmware: {sha1}")
T("sha256-checksum", "{sha256}  {word}-{num:1-9}.{num:0-9}.tar.gz", "SHA256 checksum to verify the download: {sha256}")
T("sha512-checksum", "SHA512 ({app}.zip) = {sha512}")
T("git-commit-sha", "fixed in {gitsha}", "commit {gitsha}\nAuthor: {name} <{email:corp}>\n\n    fix typo in README", "revert {gitsha} if the build breaks")
T("git-short-sha", "deployed {h:7} to prod at {time}", "bisect: good {h:7}, bad {h:7}")
T("docker-digest", "image: ghcr.io/{word}/{app}@sha256:{sha256}", "pinned base image digest sha256:{sha256}")
T("npm-integrity", "\"integrity\": \"sha512-{b64:64}\"", "\"resolved\": \"https://registry.npmjs.org/{word}/-/{word}-{num:1-9}.{num:0-9}.{num:0-9}.tgz\",\n\"integrity\": \"sha512-{b64:64}\"")
T("sri-hash", "<script src=\"https://cdn.{corp}/lib.js\" integrity=\"sha384-{b64:48}\" crossorigin=\"anonymous\"></script>")
T("pip-hash", "requests==2.32.3 \\\n    --hash=sha256:{sha256}")
T("go-sum", "github.com/{word}/{word} v1.{num:0-20}.{num:0-9} h1:{b64:32}")
T("etag", "ETag: \"{h:32}\"", "If-None-Match: W/\"{h:16}\"")
T("request-id", "x-request-id: {uuid}", "Request ID: req_{a:24} (quote this to support)", "cf-ray: {h:16}-{pick:FRA|LHR|AMS|IAD}")
T("traceparent", "traceparent: 00-{h:32}-{h:16}-01", "trace_id={h:32} span_id={h:16}")
T("uuid-reference", "ticket {uuid}", "device id {uuid}", "correlation id {UUID}")
T("ulid", "event id {ulid}", "order {ulid} created")
T("mongo-objectid", "_id: ObjectId(\"{h:24}\")", "user {h:24} reported the bug")
T("snowflake-id", "Discord user id {n:1}{d:17}", "tweet id {n:1}{d:18}")
T("nanoid-public-id", "Receipt public id: {u:21}", "share slug for the public recipe page: {u:10}")
T("youtube-video-id", "watch later: https://www.youtube.com/watch?v={u:11}", "video id {u:11} for the slideshow")
T("aws-arn", "arn:aws:iam::{d:12}:role/{word}-{pick:deployer|reader|lambda-exec}", "arn:aws:s3:::{word}-{word}-assets",
  "arn:aws:lambda:{region}:{d:12}:function:{app}", "arn:aws:sns:{region}:{d:12}:{word}-alerts", "arn:aws:sqs:{region}:{d:12}:{app}-queue",
  "arn:aws:kms:{region}:{d:12}:key/{uuid}", "arn:aws:dynamodb:{region}:{d:12}:table/{word}")
T("aws-secretsmanager-arn", "db creds live in arn:aws:secretsmanager:{region}:{d:12}:secret:prod/{app}/db-{a:6}")
T("aws-account-id", "AWS account {d:12} (prod), {d:12} (staging)", "billing account id {d:12}")
T("aws-resource-ids", "instance i-0{h:16} in subnet-0{h:16}", "ami-0{h:16} (ubuntu 24.04)", "vpc-0{h:16} / sg-0{h:16}", "snapshot snap-0{h:16} of vol-0{h:16}")
T("cloudfront-distribution", "CloudFront distribution E{A:13}", "invalidate E{A:13} after deploy")
T("route53-zone", "Hosted zone Z{A:20} for {corp}")
T("ecr-uri", "{d:12}.dkr.ecr.{region}.amazonaws.com/{app}:{h:7}")
T("azure-resource-id", "/subscriptions/{uuid}/resourceGroups/rg-{app}/providers/Microsoft.Web/sites/{app}", "subscription id {uuid}")
T("gcp-resource-name", "projects/{word}-{d:6}/locations/europe-west1/functions/{app}", "project number {d:12}",
  "{word}@{word}-{d:6}.iam.gserviceaccount.com")
T("k8s-uid", "uid: {uuid}", "pod {app}-{l:10}-{l:5} uid {uuid}")
T("container-id", "container {h:64}", "docker logs {h:12}")
T("oci-ocid", "ocid1.instance.oc1.iad.{l:60}", "compartment ocid1.compartment.oc1..{l:60}")
T("cloudflare-zone-id", "zone_id = \"{h:32}\"", "Cloudflare account id {h:32}, zone id {h:32}")
T("stripe-object-ids", "customer cus_{a:14}, subscription sub_{a:24}", "refund for charge ch_{a:24}", "price_{a:24} is the monthly plan, prod_{a:14}",
  "webhook event evt_{a:24} failed", "connected account acct_{a:16}", "PaymentIntent pi_{a:24} succeeded")
T("twilio-message-sid", "message SM{h:32} delivered", "call CA{h:32} lasted {num:1-30} min")
T("slack-ids", "channel C0{A:9}, user U0{A:9}, team T0{A:8}")
T("github-app-ids", "GitHub App id {d:6}, installation id {d:8}")
T("oauth-client-id", "Google OAuth client id {d:12}-{l:32}.apps.googleusercontent.com", "GitHub OAuth app client id Iv1.{h:16}",
  "Okta client id 0oa{a:17}", "Azure app (client) id {uuid}", "GitHub App client id Iv23li{a:14}")
T("facebook-app-id", "FB app id {d:16}", "Meta pixel id {d:16}")
T("apple-team-id", "Apple Team ID {A:10}, bundle id com.{word}.{word}")
T("analytics-measurement-id", "G-{A:10}", "GTM-{A:7}", "UA-{d:8}-1 (old analytics property)")
PAIRS("aws-access-key-id-alone", "AWS", [("AWS_ACCESS_KEY_ID", "AKIA{A:16}"), ("AWS_REGION", "{region}")],
      [("AWS_ACCESS_KEY_ID", "AKIA{A:16}"), ("AWS_SECRET_ACCESS_KEY_SOURCE", "vault:secret/data/aws/{app}")])
T("aws-access-key-id-alone", "Access key ID AKIA{A:16} — the secret is in Vault, not here", "which key is this? AKIA{A:16} (id only, for the IAM audit)")
PAIRS("twilio-account-sid-alone", "Twilio", [("TWILIO_ACCOUNT_SID", "AC{h:32}"), ("TWILIO_FROM_NUMBER", "+1{n:1}{d:9}")])
PAIRS("oauth-client-id-config", "Auth0", [("AUTH0_CLIENT_ID", "{a:32}"), ("AUTH0_DOMAIN", "{word}.eu.auth0.com")],
      [("GOOGLE_CLIENT_ID", "{d:12}-{l:32}.apps.googleusercontent.com"), ("GOOGLE_REDIRECT_URI", "https://{corp}/auth/callback")])
PAIRS("tenant-subscription-ids", "Azure", [("AZURE_TENANT_ID", "{uuid}"), ("AZURE_SUBSCRIPTION_ID", "{uuid}")],
      [("ARM_TENANT_ID", "{uuid}"), ("ARM_SUBSCRIPTION_ID", "{uuid}"), ("ARM_CLIENT_ID", "{uuid}")])
PAIRS("uuid-config", "Config", [("TENANT_ID", "{uuid}"), ("FEATURE_NAMESPACE", "{uuid}")], [("DEVICE_ID", "{uuid}"), ("INSTALLATION_ID", "{uuid}")])

# --- publishable-by-design keys (marked as such)
T("stripe-publishable-key", "pk_live_{a:99}  # publishable key — safe to ship in the frontend", "Stripe publishable key (public): pk_live_{a:24}")
PAIRS("stripe-publishable-key", "Stripe", [("NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY", "pk_live_{a:99}")], [("VITE_STRIPE_PK", "pk_live_{a:24}")])
T("mapbox-public-token", "Mapbox public token (pk., safe for the browser): pk.eyJ1Ijoi{b:20}IiwiYSI6I{b:20}In0.{u:22}")
T("algolia-search-key", "Algolia search-only API key {h:32} — public, used by the InstantSearch widget")
T("posthog-project-key", "posthog.init('phc_{a:43}', {{ api_host: 'https://eu.posthog.com' }}) // project key is public")
T("sentry-dsn-public", "Sentry.init({{ dsn: \"https://{h:32}@o{d:6}.ingest.sentry.io/{d:7}\" }}); // DSN is not a secret")
PAIRS("supabase-anon-key", "Supabase", [("NEXT_PUBLIC_SUPABASE_URL", "https://{l:20}.supabase.co"), ("NEXT_PUBLIC_SUPABASE_ANON_KEY", "{jwt:anon}")])
T("recaptcha-site-key", "<div class=\"g-recaptcha\" data-sitekey=\"6L{u:38}\"></div>", "reCAPTCHA site key (public): 6L{u:38}")
T("turnstile-site-key", "<div class=\"cf-turnstile\" data-sitekey=\"0x4AAAAAAA{u:14}\"></div>")
T("hcaptcha-sitekey", "<div class=\"h-captcha\" data-sitekey=\"{uuid}\"></div>")
FN("clerk-publishable-key", lambda: f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_{b64s('clerk.' + ch(CORP) + '$').rstrip('=')}  # publishable")
T("adyen-client-key", "Adyen client key (public, web drop-in): live_{A:32}")
T("square-application-id", "Square application id sq0idp-{u:22} (used in the web payments SDK)")
T("paypal-js-sdk", "<script src=\"https://www.paypal.com/sdk/js?client-id=A{u:79}&currency=EUR\"></script>")
T("razorpay-key-id", "Razorpay checkout key_id: 'rzp_live_{a:14}' (the key id is public, secret stays on the server)")
T("datadog-rum-client-token", "datadogRum.init({{ applicationId: '{uuid}', clientToken: 'pub{h:32}', site: 'datadoghq.eu' }})")
T("newrelic-browser-key", "New Relic browser snippet licenseKey: \"NRJS-{h:19}\" (browser key, public)")
T("launchdarkly-client-id", "LaunchDarkly client-side ID {h:24} (safe to expose)")
T("mixpanel-project-token", "mixpanel.init('{h:32}') // project token is public by design")
T("segment-browser-write-key", "analytics.load(\"{a:32}\") // Segment browser write key, public")
FN("firebase-web-config", lambda: "const firebaseConfig = " + json.dumps({"authDomain": f"{ch(WORDS)}-{rs(LO, 5)}.firebaseapp.com", "projectId": f"{ch(WORDS)}-{rs(LO, 5)}",
                                                                            "messagingSenderId": rs(DG, 12), "appId": f"1:{rs(DG, 12)}:web:{rs(ALPH['h'], 22)}"}, indent=2) + ";")
T("pusher-app-key", "const pusher = new Pusher('{h:20}', {{ cluster: 'eu' }}); // app key is public")
T("onesignal-app-id", "OneSignal appId: \"{uuid}\"")

# --- documented example values / published test numbers
T("aws-docs-example", "From the AWS docs example: aws_access_key_id = AKIAIOSFODNN7EXAMPLE, aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "(AWS documentation placeholder) AKIAIOSFODNN7EXAMPLE")
T("rfc-example-basic-auth", "RFC 7617 example: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== (Aladdin / open sesame)")
T("jwt-io-sample", "the sample token from jwt.io: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
T("slack-docs-placeholder", "SLACK_BOT_TOKEN=xoxb-not-a-real-token-this-will-not-work  # from the Slack tutorial")
T("docs-user-password-literal", "curl -u 'username:password' https://api.example.com/v1/items   # replace with your own", "docs say: mysql -u USER -pPASSWORD")


def test_card_fam():
    brand, num = ch(TEST_CARDS)
    return ch([f"{brand} test card {fmt_card(num)} (exp any future date, CVC any 3 digits) — Stripe test mode",
               f"QA checklist: use test number {num} in the sandbox, it always succeeds",
               f"Braintree sandbox test card: {num}, expiry 12/{ri(27, 33)}, CVV 123 (test only)",
               f"published test card for the payment form demo: {fmt_card(num, '-')}"])


FN("test-card-number", test_card_fam)

# --- masked / redacted values
T("masked-card", "Card ending in {d:4}", "**** **** **** {d:4}", "Visa •••• {d:4}, exp {num:1-12}/{num:26-31}", "XXXX-XXXX-XXXX-{d:4}")
T("masked-token", "sk_live_••••••••{a:4}", "ghp_****************************{a:4}", "AKIA************{A:4} (last used {date})",
  "token: ****{h:4} (masked in the dashboard)", "API key ending …{a:4} was revoked")
T("redacted-value", "password: [REDACTED]", "Authorization: Bearer <redacted>", "api_key=***", "DB_PASSWORD=********", "secret: \"{{REDACTED}}\"")
T("masked-iban", "IBAN {pick:DE|FR|NL}** **** **** **** **{d:2} {d:2}")
T("masked-contact", "j***@gmail.com", "+44 7*** ***{d:3}", "SSN ***-**-{d:4}", "code sent to phone ending {d:2}")

# --- placeholders and references
PAIRS("placeholder-angle", "OpenAI", [("OPENAI_API_KEY", "<your-openai-api-key>")], [("STRIPE_SECRET_KEY", "<YOUR_STRIPE_SECRET_KEY>")],
      [("GITHUB_TOKEN", "<personal-access-token>")], [("DB_PASSWORD", "<db-password>")])
PAIRS("placeholder-x", "Example", [("OPENAI_API_KEY", "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")], [("GITHUB_TOKEN", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX")],
      [("API_KEY", "your-api-key-here")], [("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/XXX/YYY/ZZZ")], [("AWS_SECRET_ACCESS_KEY", "REPLACE_ME")])
PAIRS("placeholder-todo", "Config", [("SENDGRID_API_KEY", "TODO"), ("SENDGRID_FROM", "noreply@{corp}")], [("API_TOKEN", ""), ("API_BASE", "https://api.{corp}")])
PAIRS("env-var-reference", "Config", [("DATABASE_URL", "${DATABASE_URL}")], [("STRIPE_SECRET_KEY", "${STRIPE_SECRET_KEY}")],
      [("DB_PASSWORD", "$DB_PASSWORD")], [("API_TOKEN", "%API_TOKEN%")], [("SENTRY_AUTH_TOKEN", "${{ secrets.SENTRY_AUTH_TOKEN }}")])
T("code-env-lookup", "api_key = os.environ[\"OPENAI_API_KEY\"]", "const key = process.env.STRIPE_SECRET_KEY;", "token := os.Getenv(\"GITHUB_TOKEN\")",
  "String pw = System.getenv(\"DB_PASSWORD\");", "password: \"{{{{ lookup('env', 'DB_PASSWORD') }}}}\"")
T("gha-secrets-reference", "      - run: npm publish\n        env:\n          NODE_AUTH_TOKEN: ${{{{ secrets.NPM_TOKEN }}}}",
  "env:\n  AWS_ACCESS_KEY_ID: ${{{{ secrets.AWS_ACCESS_KEY_ID }}}}\n  AWS_SECRET_ACCESS_KEY: ${{{{ secrets.AWS_SECRET_ACCESS_KEY }}}}")
T("k8s-secret-key-ref", "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {app}-db\n        key: password")
T("docker-secret-file", "DB_PASSWORD_FILE=/run/secrets/db_password", "secrets:\n  db_password:\n    file: ./secrets/db_password.txt")
T("vault-path-reference", "api_key: vault:secret/data/{app}#api_key", "VAULT_SECRET_PATH=secret/data/prod/{app}", "vault kv get -field=password secret/{app}/db")
T("cloud-secret-reference", "{{{{resolve:secretsmanager:prod/{app}/db:SecretString:password}}}}", "{{{{resolve:ssm-secure:/{app}/prod/db-password:1}}}}",
  "op://Private/{word}/credential", "projects/{word}-{d:6}/secrets/{app}-db-password/versions/latest",
  "@Microsoft.KeyVault(SecretUri=https://kv-{word}.vault.azure.net/secrets/{app}-key/)")
T("doppler-run", "doppler run --project {app} --config prd -- npm start", "infisical run --env=prod -- python app.py")
T("external-secret-manifest", "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {app}\nspec:\n  secretStoreRef:\n    name: aws-sm\n  data:\n    - secretKey: password\n      remoteRef:\n        key: prod/{app}/db")
T("terraform-var-reference", "password = var.db_password", "token = data.vault_generic_secret.{word}.data[\"token\"]")
T("helm-values-reference", "password: {{{{ .Values.db.password | quote }}}}", "apiKey: {{{{ required \"apiKey is required\" .Values.apiKey }}}}")
T("ci-job-token", "curl --header \"JOB-TOKEN: $CI_JOB_TOKEN\" \"$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages\"")

# --- encrypted blobs without their key
T("sops-encrypted", "db_password: {sops}\nsops:\n    kms:\n        - arn: arn:aws:kms:{region}:{d:12}:key/{uuid}\n    lastmodified: \"{ts}\"\n    version: 3.8.1")
FN("ansible-vault-blob", lambda: "db_password: !vault |\n  " + ansible_vault().replace("\n", "\n  "))
FN("pgp-encrypted-message", lambda: pgp_msg())
FN("age-encrypted-file", lambda: age_enc())
T("kms-ciphertext", "CiphertextBlob: {kms_blob}", "encrypted with KMS (key in the prod account): {kms_blob}")
FN("sealed-secret", lambda: f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {ch(APPS)}\nspec:\n  encryptedData:\n    password: AgB{b64(rbytes(ri(300, 500)))}")
T("openssl-salted", "encrypted with openssl enc -aes-256-cbc (passphrase NOT stored here): {ossl_salted}")
T("jasypt-enc", "spring.datasource.password=ENC({b64:48})")
FN("laravel-encrypted", lambda: b64s(json.dumps({"iv": b64(rbytes(16)), "value": b64(rbytes(48)), "mac": rs(ALPH["h"], 64), "tag": ""}, separators=(",", ":"))))
T("rails-credentials-enc", "config/credentials.yml.enc:\n{b:80}--{b:16}--{b:22}==")
T("dpapi-blob", "AQAAANCMnd8BFdERjHoAwE/Cl+sBAAAA{b:120}==")
FN("encrypted-pm-export", lambda: json.dumps({"encrypted": True, "passwordProtected": True, "salt": b64(rbytes(16)), "kdfType": 0, "kdfIterations": 600000,
                                              "encKeyValidation_DO_NOT_EDIT": f"2.{b64(rbytes(16))}|{b64(rbytes(48))}|{b64(rbytes(32))}",
                                              "data": f"2.{b64(rbytes(16))}|{b64(rbytes(120))}|{b64(rbytes(32))}"}, indent=2))

# --- password hashes
FN("bcrypt-hash", lambda: ch([f"admin:{pw_hash('bcrypt')}", f"password_hash = '{pw_hash('bcrypt')}'", f"UPDATE users SET password = '{pw_hash('bcrypt')}' WHERE id = {ri(1, 999)};"]))
FN("argon2-hash", lambda: f"stored hash: {pw_hash('argon2')}")
FN("shadow-line", lambda: f"{uname()}:{pw_hash(ch(['sha512crypt', 'yescrypt']))}:{ri(19000, 20200)}:0:99999:7:::")
FN("htpasswd-line", lambda: f"{uname()}:{pw_hash(ch(['apr1', 'bcrypt']))}")
FN("django-hash", lambda: f"pbkdf2 hash from the users table: {pw_hash('django')}")
FN("werkzeug-hash", lambda: f"user.password_hash = \"{pw_hash('werkzeug')}\"")
FN("postgres-scram-verifier", lambda: f"rolname | rolpassword\n{uname()} | {pw_hash('scram')}")
FN("ldap-ssha", lambda: f"dn: uid={uname()},ou=people,dc={ch(WORDS)},dc=com\nuserPassword: {pw_hash('ssha')}")
FN("wordpress-phpass", lambda: f"user_pass: {pw_hash('phpass')}")
FN("drupal-hash", lambda: f"pass: {pw_hash('drupal')}")
FN("cisco-secret-hash", lambda: ch([f"enable secret 9 {pw_hash('cisco9')}", f"username admin privilege 15 secret 8 {pw_hash('cisco8')}",
                                    f"enable secret 5 {pw_hash('md5crypt')}"]))
FN("md5crypt-hash", lambda: f"{pw_hash('md5crypt')}")

# --- public keys, certificates, public crypto identifiers
FN("ssh-public-key", lambda: ch(["my public key for the server: ", "authorized_keys:\n", "add this to GitHub deploy keys: ", ""]) + ssh_pub())
FN("authorized-keys-options", lambda: f"from=\"10.0.0.0/8\",no-pty,no-port-forwarding {ssh_pub()}")
T("known-hosts-hashed", "|1|{b64:20}|{b64:20} ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB{b:80}=")
T("ssh-fingerprint", "SHA256:{b64u:32} (ED25519) — matches the server's host key", "host key fingerprint SHA256:{b64u:32}")
FN("pgp-public-key", lambda: pgp_pub())
FN("x509-certificate", lambda: cert())
FN("certificate-request", lambda: csr())
FN("pem-public-key", lambda: pem_pub())
FN("jwk-public", lambda: json.dumps({"keys": [{"kty": "RSA", "kid": rs(ALNUM, 12), "use": "sig", "alg": "RS256", "n": b64u(rbytes(256)), "e": "AQAB"}]}, indent=2))
T("jwks-url", "jwks_uri: https://{corp}/.well-known/jwks.json", "issuer https://login.{corp}/ , JWKS at /.well-known/jwks.json")
FN("age-public-key", lambda: f"age recipient (public): {agepub()}")
FN("wireguard-peer-public", lambda: f"[Peer]\nPublicKey = {b64(rbytes(32))}\nAllowedIPs = 10.8.0.{ri(2, 250)}/32\nEndpoint = vpn.{ch(CORP)}:51820\nPersistentKeepalive = 25")
T("minisign-public-key", "untrusted comment: minisign public key {H:16}\nRWQ{b:53}")
T("gpg-fingerprint", "my GPG fingerprint: {fp}", "Signed-off-by key {fp}")
FN("bitcoin-address", lambda: f"donations: {btc_addr()}")
T("ethereum-address", "send the refund to {ethaddr}", "contract address {ethaddr}")
FN("xpub-watch-only", lambda: f"watch-only wallet xpub (public): {xpub()}")
T("solana-address", "Solana wallet (public address): {soladdr}")
FN("nostr-npub", lambda: f"follow me on nostr: {npub()}")
T("lightning-invoice", "pay this invoice: lnbc{num:10-999}u1p{z:50}{z:100}")
T("dkim-record", "default._domainkey.{corp}  TXT  \"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ{b:150}IDAQAB\"")
T("spf-dmarc-record", "{corp} TXT \"v=spf1 include:_spf.google.com ~all\"", "_dmarc.{corp} TXT \"v=DMARC1; p=quarantine; rua=mailto:dmarc@{corp}\"")
T("tls-fingerprint", "SHA-256 Fingerprint: {tlsfp}")
T("hpkp-pin", "pin-sha256=\"{b64:32}\"; max-age=5184000")
T("dnssec-ds-record", "{corp}. 3600 IN DS {num:10000-65000} 13 2 {H:64}")

# --- innocuous encodings
BENIGN_SENT = ["Meet at the cafe at 3", "Happy birthday Grandma!", "See you at the station", "The cake is in the fridge",
               "Dinner at 7, bring wine", "Thanks for the lovely evening", "Book club moved to Thursday", "Feed the cat twice a day"]
FN("base64-benign-text", lambda: ch(["base64: ", "decoded later: ", "", "msg (b64): "]) + b64s(ch(BENIGN_SENT)))
FN("hex-benign-text", lambda: "hex: " + ch(BENIGN_SENT).encode().hex())
FN("rot13-spoiler", lambda: "Spoiler (rot13): " + rot13(ch(["the butler did it", "they were siblings all along", "the ship sinks at the end", "it was all a dream"])))
T("url-encoded-query", "https://www.google.com/search?q=best%20pizza%20in%20{city}&hl=en", "?redirect=%2Fdashboard%3Ftab%3Dbilling&lang=en")
FN("data-uri-image", lambda: "data:image/png;base64," + b64(bytes.fromhex("89504e470d0a1a0a0000000d49484452") + rbytes(60)))
T("quoted-printable-body", "Caf=C3=A9 au lait =E2=80=93 see you at {num:7-9}", "Content-Transfer-Encoding: quoted-printable\n\nGr=C3=BC=C3=9Fe aus {city}!")
T("punycode-domain", "xn--mnchen-3ya.de is münchen.de", "the shop's domain xn--caf-dma.fr (café.fr)")
T("morse-benign", "SOS in morse: ... --- ...", "kid's morse practice: .... . .-.. .-.. ---")
FN("binary-benign", lambda: "binary joke: " + " ".join(f"{b:08b}" for b in ch(["hi mom", "hello", "lol"]).encode()))
T("html-entities-benign", "Caf&eacute; &amp; Bar &mdash; open till 11", "&lt;b&gt;bold&lt;/b&gt; shows as literal tags")
T("unicode-escape-i18n", "\"greeting\": \"Gr\\u00fc\\u00df Gott\"", "\"title\": \"Caf\\u00e9 Menu\"")
FN("base64-json-event", lambda: "webhook body: " + b64s(json.dumps({"event": "order.created", "id": rs(DG, 8), "total": ri(5, 500)})))
FN("configmap-binarydata", lambda: "binaryData:\n  nginx.conf: " + b64s("server { listen 80; root /srv/www; }"))
FN("caesar-kids-puzzle", lambda: "Puzzle for Mia (shift 3): " + caesar(ch(["meet at the park", "look under the bed", "the treasure is in the garden"]), 3))
FN("nato-name-spelling", lambda: "Surname spelled for the booking: " + " ".join(NATO[c].title() for c in surname().lower() if c in NATO))
T("spoken-numbers-benign", "recipe: two hundred and fifty grams of flour, three eggs", "the bus is number forty-two", "she counted one, two, three and jumped")
FN("native-digits-benign", lambda: ch(["السعر ٤٥ درهم", "१५ अगस्त को छुट्टी", "ราคา ๑๒๐ บาท", "二〇二五年三月十二日", "قیمت ۱۲۰ هزار تومان",
                                       f"বাস নম্বর {''.join(chr(0x9E6 + int(c)) for c in str(ri(10, 99)))}"]))
T("homoglyph-phishing-warning", "Beware: 'pаypal.com' (with a Cyrillic а) is a phishing domain", "IT warning: the link uses 'miсrosoft' with a Cyrillic с")
T("zwj-emoji", "family pic 👨‍👩‍👧‍👦", "🏳️‍🌈 parade on {weekday}", "👩‍💻 coding club at {time}")
T("soft-hyphen-text", "Donau\u00addampf\u00adschiff\u00adfahrt is a long word", "Rechts\u00adschutz\u00adversicherung renewal")
T("nbsp-french", "Prix\u202f: 12\u00a0€ — rendez-vous à 14\u00a0h", "Attention\u00a0! Fermé lundi")
T("rtl-mixed-text", "meeting with \u200fأحمد\u200e at {time}", "shop name: \u200fשלום\u200e bakery")
T("tag-flag-emoji", "Go England 🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F!", "Scotland trip 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F")
T("fancy-text-social", "𝐒𝐚𝐥𝐞 𝐭𝐨𝐝𝐚𝐲 𝐨𝐧𝐥𝐲", "𝓗𝓪𝓹𝓹𝔂 𝓑𝓲𝓻𝓽𝓱𝓭𝓪𝔂")
T("fullwidth-japanese", "ＡＢＣ商事 ０３－{num:1000-9999}－{num:1000-9999}", "ＪＲ東日本 ２番線")
T("circled-list", "① buy milk ② call mum ③ book dentist", "❶ passport ❷ charger ❸ snacks")
T("superscript-math", "x² + y² = r²", "area 12 m², volume 3 m³")
T("keycap-emoji-benign", "Top 3️⃣ restaurants in {city}", "1️⃣ eggs 2️⃣ milk")
T("arithmetic-homework", "Homework: {num:12-99} × {num:101-999} = ?", "Maths: 1537 + 2284, then check with a calculator")
T("budget-math", "Rent split: {num:1200-2400} / {num:2-4} each", "{num:40-90} km × 0.30 €/km = mileage claim")
T("unit-conversion", "350°F = 177°C", "5 km ≈ 3.1 miles", "1 cup = 240 ml, so {pick:2 cups = 480|3 cups = 720|4 cups = 960} ml", "{pick:10|21|42} km in miles: {pick:6.2|13.0|26.1}")
T("riddle-benign", "Riddle: what has keys but can't open locks? — a piano", "What gets wetter the more it dries? A towel.")
T("history-trivia", "Quiz night: the Berlin Wall fell in 1989, the moon landing was 1969", "Kids' history test: Battle of Hastings 1066")
T("t9-fun-fact", "Fun fact for Leo: on a phone keypad 4663 spells HOME or GOOD")
T("roman-numerals-benign", "Super Bowl LVIII party", "Chapter XIV is the best one", "Louis XIV, Henry VIII — history homework")
T("pi-trivia", "Pi day! Mia memorised 3.14159265358979 for school")

# --- dotfiles / configs without credentials
T("gitconfig", "[user]\n\tname = {name}\n\temail = {email}\n[pull]\n\trebase = true\n[init]\n\tdefaultBranch = main")
T("ssh-config", "Host {word}\n  HostName {host}\n  User {user}\n  IdentityFile ~/.ssh/id_ed25519\n  Port 22", "Host *\n  AddKeysToAgent yes\n  UseKeychain yes")
T("npmrc-env-ref", "//registry.npmjs.org/:_authToken=${{NPM_TOKEN}}\nalways-auth=true", "registry=https://npm.pkg.github.com/{word}\n//npm.pkg.github.com/:_authToken=${{GITHUB_TOKEN}}")
T("pypirc-keyring", "[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\n# password comes from the system keyring")
T("aws-config", "[profile prod]\nregion = {region}\noutput = json\nsso_start_url = https://{word}.awsapps.com/start\nsso_role_name = ReadOnly")
T("kubeconfig-exec", "users:\n- name: eks-admin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n      args: [\"eks\", \"get-token\", \"--cluster-name\", \"{word}\"]")
T("docker-config-credstore", "{{\n  \"credsStore\": \"desktop\",\n  \"auths\": {{\n    \"https://index.docker.io/v1/\": {{}}\n  }}\n}}")
T("bashrc", "alias ll='ls -la'\nexport PATH=$HOME/.local/bin:$PATH\nexport EDITOR=vim", "export HISTSIZE=10000\nshopt -s histappend")
T("vimrc", "set number\nset expandtab\nset shiftwidth=4\nsyntax on")
T("git-credential-helper", "[credential]\n\thelper = osxkeychain", "[credential \"https://github.com\"]\n\thelper = !gh auth git-credential")
T("wpa-open-network", "network={{\n    ssid=\"{pick:CafeFree|Library-Guest|Airport_Free_WiFi}\"\n    key_mgmt=NONE\n}}")
T("gh-hosts-keyring", "github.com:\n    user: {user}\n    git_protocol: ssh\n    # token stored in the OS keyring")
T("editorconfig", "root = true\n\n[*]\nindent_style = space\nindent_size = 2\nend_of_line = lf")

# --- password managers without secrets
T("pm-export-template", "Title,Website,Username,Password,Notes\n(empty template for the import)", "name,url,username,password,note")
FN("pm-secure-note", lambda: json.dumps({"encrypted": False, "items": [{"type": 2, "name": "Router", "notes": f"model {ch(['FRITZ!Box 7590', 'TP-Link AX55'])}, bought {iso_date()}, warranty 2 years"}]}, indent=2))
T("pm-folders", "Password manager folders: Banking, Shopping, Travel, Work, Kids", "Moved 214 logins into the Family vault")

# --- URIs without usable credentials
T("uri-username-only", "git@github.com:{word}/{app}.git", "ssh://{user}@{host}:22", "postgres://{user}@localhost:5432/{db}", "sftp://{user}@{host}/uploads")
T("uri-no-creds", "redis://localhost:6379/0", "amqp://rabbitmq:5672/", "mongodb://mongo:27017/{db}", "https://{host}/api/v1/health")
T("uri-placeholder-creds", "postgres://USER:PASSWORD@HOST:5432/DB", "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/",
  "amqp://user:pass@localhost:5672  (docs default, replace)")
T("uri-masked", "postgres://app:****@db:5432/app", "redis://:•••••@cache:6379", "https://user:[redacted]@git.{corp}/repo.git")
T("uri-env-ref", "postgres://${{DB_USER}}:${{DB_PASSWORD}}@${{DB_HOST}}/app", "amqp://$RABBIT_USER:$RABBIT_PASS@mq:5672/")

# --- transcripts / logs / diffs without secrets
T("smtp-no-auth", "S: 220 mx.{corp} ESMTP\nC: EHLO relay\nS: 250-STARTTLS\nC: MAIL FROM:<noreply@{corp}>\nS: 250 OK\nC: RCPT TO:<{email}>\nS: 250 Accepted")
T("imap-capability", "* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE AUTH=PLAIN] Dovecot ready.")
T("mysql-prompt", "$ mysql -u root -p\nEnter password:\nWelcome to the MySQL monitor.  Commands end with ; or \\g.")
T("ssh-login-prompt", "$ ssh {user}@{host}\n{user}@{host}'s password:\nLast login: {weekday} from 10.0.{num:0-9}.{num:2-250}")
T("redis-ping", "127.0.0.1:6379> PING\nPONG\n127.0.0.1:6379> INFO keyspace\ndb0:keys={num:10-9999},expires=0")
T("docker-login-stdin", "$ echo $CR_PAT | docker login ghcr.io -u {user} --password-stdin\nLogin Succeeded")
T("vault-status", "Key             Value\n---             -----\nSeal Type       shamir\nSealed          false\nVersion         1.15.{num:0-6}")
T("log-auth-failure", "{pick:Jan|Feb|Mar} {num:10-28} 03:{num:10-59}:{num:10-59} web sshd[{num:1000-9999}]: Failed password for invalid user admin from {pubip} port {num:30000-60000} ssh2")
T("log-401", "{ts} WARN api: 401 Unauthorized — invalid API key (key id ends ...{h:4})", "HTTP 403: token expired, please re-authenticate")
T("log-filtered-header", "{ts} DEBUG request headers={{'Authorization': '[FILTERED]', 'Accept': 'application/json'}}")
T("log-stacktrace-benign", "java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n\tat com.{word}.App.main(App.java:{num:10-99})")
T("log-k8s-events", "Warning  BackOff  {num:1-59}m  kubelet  Back-off restarting failed container {app}")
T("log-ci-masked", "Run echo \"$NPM_TOKEN\"\n***\nJob succeeded")
T("diff-placeholder-to-env", "- API_KEY=<your-key>\n+ API_KEY=${{API_KEY}}", "-password: <set-me>\n+password: ${{DB_PASSWORD}}  # from env")
T("diff-version-bump", "-    \"lodash\": \"4.17.20\",\n+    \"lodash\": \"4.17.21\",", "- FROM node:18-alpine\n+ FROM node:20-alpine")
T("commit-rotate-no-value", "chore: rotate credentials (new values in Vault)", "commit {gitsha}\n\n    remove hardcoded key, read it from env instead")
T("diff-gitignore", "+.env\n+*.pem\n+secrets/", "+# never commit credentials\n+.env.local")
T("html-comment-benign", "<!-- TODO: fix footer spacing on mobile -->", "<!-- build {h:7} {date} -->")
T("wifi-qr-open", "WIFI:T:nopass;S:{pick:CafeGuest|LibraryFree|Hotel_Lobby};;")
FN("vcard-benign", lambda: f"BEGIN:VCARD\nVERSION:3.0\nFN:{full_name()}\nTEL;TYPE=cell:{phone()}\nEMAIL:{email()}\nEND:VCARD")
FN("ics-no-passcode", lambda: f"BEGIN:VEVENT\nSUMMARY:{ch(['Dentist', 'Team lunch', 'School play', 'Yoga'])}\nDTSTART:{iso_date().replace('-', '')}T{ri(8, 18):02d}0000Z\nLOCATION:{ch(STREETS)}\nEND:VEVENT")
T("exif-benign", "Make                            : Canon\nCamera Model Name               : EOS R6\nExposure Time                   : 1/{num:60-2000}\nISO                             : {num:100-6400}")
T("meeting-id-only", "Zoom meeting ID {num:800-999} {num:1000-9999} {num:1000-9999} (waiting room on, host will admit)", "Teams link is in the calendar invite")
T("parcel-no-code", "Parcel is in locker {num:1-60} at the Shell station — pickup code will come by SMS", "DHL left the parcel with neighbour at no. {num:1-99}")
T("gift-card-balance", "Amazon gift card balance €{num:5-100}.{num:10-99}", "gift card from Aunt May already redeemed", "Steam wallet: {num:2-60},{num:10-99} € left")
T("card-expiry-only", "Card expires {num:1-12}/{num:26-31}, order the replacement", "new debit card arriving by post ({weekday})")
T("seed-phrase-talk", "Wrote the seed phrase on the steel plate, it's in the safe deposit box", "Ledger firmware updated; recovery sheet is in the fire safe")
T("recovery-key-location", "BitLocker recovery key saved to the Microsoft account", "FileVault key escrowed to IT (ticket {num:1000-9999})")
T("crypto-price", "BTC {num:40-99},{num:100-999}, ETH {num:2-4},{num:100-999} — don't panic sell", "sold 0.{num:1-9} ETH at {num:2000-4000}")
T("wifi-ssid-only", "Network name: {pick:BlueHouse_5G|Casa-Guest|Kowalski-2G}", "Café wifi is free, no password needed")
T("hash-in-code", "EXPECTED_SHA256 = \"{sha256}\"  # release artifact checksum", "const BUILD_ID = \"{h:40}\";")
T("random-seed-config", "seed: {num:0-99999}\nlearning_rate: 3e-4\nbatch_size: {num:8-256}", "torch.manual_seed({num:0-9999})", "np.random.seed({num:0-9999})")
T("llm-token-limit", "max_tokens: {num:256-8192}", "context window {num:8-200}k tokens, we used {num:1000-90000} tokens today")
T("india-postal-pin", "PIN code {n:1}{d:5} ({pick:Bengaluru|Pune|Chennai|Kochi|Jaipur})", "Address: {num:1-99} MG Road, Bengaluru, Karnataka - PIN 560{d:3}")

# --- homonyms
T("dress-code", "Dress code for the wedding: black tie", "dress code on Friday is casual", "Dresscode: smart casual, no trainers")
T("zip-code", "zip code {d:5}", "Zip: {zip}", "Postleitzahl {d:5}")
T("area-code", "area code {num:201-989}", "their area code is 0{num:20-99}")
T("country-code", "country code +{num:1-99}", "use the +44 country code when dialing from abroad")
T("code-of-conduct", "read the code of conduct before the conference", "Code of conduct section {num:1-9} covers gifts")
T("promo-code-public", "Newsletter promo code SUMMER{num:10-30} for {num:10-30}% off (public)", "Code WELCOME10 from the ad gives 10% off first order")
T("qr-code-menu", "Scan the QR code on the table for the menu", "QR code for the parking app is on the sign")
T("morse-code-class", "Morse code class for scouts {weekday} {time}")
T("code-review", "Code review for PR #{num:100-9999} at {time}", "pair on the code review with {first}")
T("source-code", "Source code is on GitHub under {word}/{app}", "print the source code listing for the exam")
T("barcode", "barcode on the parcel is smudged", "scan the barcode at the self checkout")
T("highway-code", "revise the Highway Code for the theory test")
T("building-code", "building code inspection {weekday} at {time}")
T("rolling-pin", "buy a rolling pin and baking paper", "rolling pin is in the second drawer")
T("bowling-pins", "bowling: {num:2-10} pins on the last frame 😅")
T("lapel-pins", "enamel pins for the team ({num:20-200} pcs)", "collect the pin badges from the printer")
T("pinned-message", "see the pinned message in the family group", "pinned: rota for the school run")
T("pin-header-electronics", "solder a 2.54mm {num:4-40}-pin header to the board", "GPIO pin {num:2-27} drives the LED")
T("hairpin-turn", "hairpin turns after km {num:3-30} — drive slowly")
T("seed-funding", "they raised ${num:1-9}M in seed funding", "seed round closes {month}")
T("seed-potatoes", "plant seed potatoes in {month}", "sesame seeds and chia seeds for the granola", "tomato seeds from Grandad")
T("tournament-seeding", "we are seeded {num:1-8}th in the tournament")
T("florida-keys", "road trip to the Florida Keys in {month}", "Key West sunset at {time}")
T("piano-keys", "the piano has {num:2-5} sticky keys, tuner coming {weekday}", "piano lesson: practise scales in the key of {pick:C|G|D|F} major")
T("key-lime-pie", "key lime pie recipe from Mum", "bake a key lime pie for Sunday")
T("key-takeaways", "Key takeaways from the meeting: ship earlier, test more", "keynote at {time} in hall {num:1-5}")
T("keyboard-shortcut", "shortcut: Ctrl+Shift+T reopens the closed tab", "Cmd+Space opens Spotlight")
T("house-keys-location", "spare house key is with {first} next door", "car keys are in the blue bowl")
T("primary-key", "add a primary key on (user_id, created_at)", "foreign key from orders.customer_id to customers.id")
T("token-economy", "token economy chart for the kids — {num:5-20} tokens = screen time", "token of appreciation for the volunteers")
T("arcade-tokens", "{num:10-50} arcade tokens left in the jar", "bus tokens for the old ticket machine")
T("boarding-pass", "boarding pass is in the Wallet app", "print boarding passes at the kiosk")
T("hall-pass", "season pass for the ski resort expires {date}", "museum pass covers {num:2-6} people", "mountain pass closed until {month}")
T("pass-the-salt", "pass the salt and the pepper")
T("passport-renewal", "passport renewal appointment {weekday} {time}, bring photos")
T("secret-santa", "Secret Santa budget £{num:10-30}, draw names on {weekday}", "secret ingredient in the chili is cocoa")
T("alarm-clock", "alarm set for {time}", "set the alarm clock 10 min earlier")
T("lock-screen", "new lock screen wallpaper from the trip", "lockdown anniversary pics")
T("locksmith", "locksmith coming {weekday} at {time} to fix the front door lock", "mortgage rate lock-in until {date}")
T("academic-credentials", "her credentials: PhD, MBA, 10 years in biotech", "verify the applicant's credentials with the university")
T("cookie-recipe", "cookies: {num:100-250}g butter, {num:100-200}g sugar, {num:1-2} eggs", "clear the browser cookies if the page is stuck")
T("therapy-session", "therapy session {weekday} {time}", "jam session at {first}'s garage")
T("hash-browns", "hash browns and eggs for brunch", "hashtag for the event: #{word}{num:2024-2026}")
T("pole-vault", "pole vault practice at {time}", "the gym is called The Vault")
T("garage-sale", "garage sale on {weekday}, price stickers in the box")
T("door-prize", "door prize raffle at the gala")

# --- talk about credentials (no value)
CRED_TALK_EN = [
    "Need to reset my bank password tomorrow, the app locked me out", "Ask Tom for the wifi password when we get there",
    "Change the door code after the tenants move out", "Bank says they'll never ask for your PIN over the phone",
    "Set up 2FA on the family Google accounts this weekend", "Moved all passwords into Bitwarden, old spreadsheet deleted",
    "Ask the landlord for the mailbox code", "Renew the SSL certificate before it expires next month",
    "Rotated the Stripe keys today, old ones revoked", "The API key is stored in 1Password under 'Prod Stripe'",
    "Grandpa forgot his PIN again — bank appointment on Tuesday", "Wi-Fi password is on the sticker under the router",
    "Switch the email account to passkeys", "Never text door codes — send them through the building app",
    "Phishing training due Friday", "New rule at work: passwords need 14 characters", "The gate code changes on the 1st, check the residents' email",
    "Forgot the safe combination — locksmith coming Thursday", "Alarm company will call to set a new code",
    "Card PIN letter arrived, put it in the drawer (not writing it here)", "Lena will text me the Airbnb lockbox code on the day",
    "IT will reset my VPN password after lunch", "Don't reuse the Netflix password anywhere else",
    "Backup codes are printed and in the blue folder, top shelf", "Security question answers are in the password manager",
    "Remind Dad not to write his PIN on the card", "Turn on the SIM PIN on the new phone", "Ask the hotel to reset the room safe",
    "Revoke the old GitHub tokens from the laptop that was stolen", "Our CI now pulls secrets from Vault instead of env files",
    "Change the router admin password from the default", "Parcel locker code should arrive by text tomorrow",
    "Meeting passcode will be in the calendar invite", "Gift card code is on the back under the scratch strip — haven't scratched it yet",
]
FN("cred-talk", lambda: ch(CRED_TALK_EN))

# ====================================================================== wrapping (applied identically to both labels)
FRAMES = ["remember: ", "Remember this: ", "note to self: ", "save: ", "📌 ", "for later - ", "keep this: ", "FYI ", "memo: ",
          "don't lose this → ", "jot: ", "pls remember ", "Saved from chat: ", "NB: ", "⭐ "]
FILLERS = ["also buy oat milk", "call back Dana", "🎂 Sam's bday next week", "pick up dry cleaning", "book the dentist",
           "water the plants", "return library books", "charge the camera battery", "check the bus times", "send the invoice",
           "renew the parking permit", "order more printer paper", "text Grandma", "bring the umbrella", "cancel the free trial",
           "laundry on Sunday", "buy birthday card", "update the laptop", "email the landlord about the heating", "recycling goes out Thursday"]
TRAILERS = ["\n— sent from my iPhone", "\n\nSent from my Galaxy", "\n-- \nSent from Outlook for Android", " (from phone)", "\n#later",
            "\n\n(copied from WhatsApp)", "\n— J.", "\nSent from Proton Mail mobile", "\n\n[forwarded]", " ✅"]
MONTHS3 = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def date_prefix():
    k = ri(0, 3)
    if k == 0:
        return f"{iso_date()}: "
    if k == 1:
        return f"{ri(1, 28):02d}/{ri(1, 12):02d}: "
    if k == 2:
        return f"{iso_week()} {ri(1, 28)} {ch(MONTHS3)} — "
    return f"[{iso_date()} {hhmm()}] "


def wrap(c):
    if not isinstance(c, str):
        return c
    if chance(0.06) and "\n" not in c:
        items = sample(FILLERS, ri(1, 3))
        items.insert(ri(0, len(items)), c)
        c = ch(["Quick dump:\n", "this week:\n", "", "TODO / misc\n", "random stuff\n"]) + "\n".join(f"{ch(['-', '•', '*'])} {i}" for i in items)
    if chance(0.12):
        f = ch(FILLERS)
        c = (f + "\n" + c) if chance(0.5) else (c + "\n" + f)
    if chance(0.18):
        c = ch(FRAMES) + c
    if chance(0.12):
        c = date_prefix() + c
    if chance(0.08):
        c = c + ch(TRAILERS)
    return c


def shape_obj(c):
    k = ri(0, 6)
    if k == 0:
        return {"text": c}
    if k == 1:
        return {"note": c, "tags": sample(TAGS, ri(1, 3))}
    if k == 2:
        return {"title": ch(TITLES), "body": c}
    if k == 3:
        return {"content": c, "source": ch(["chat", "voice", "email", "import", "web", "share-sheet"]), "created_at": iso_ts()}
    if k == 4:
        return {"type": "memory", "data": c, "pinned": chance(0.3)}
    if k == 5:
        return {"message": c, "from": first()}
    return {"entry": {"text": c, "lang": "auto"}, "v": 2}


def shape_arr(c):
    k = ri(0, 4)
    if k == 0:
        return [c]
    if k == 1:
        lines = c.split("\n")
        return lines if len(lines) > 1 else [c, ch(FILLERS)]
    if k == 2:
        return [{"role": "user", "content": c}]
    if k == 3:
        return [iso_date(), c]
    return [ch(TAGS), c]


# ====================================================================== record builders
COUNTS = {"vendor": 550, "personal_en": 160, "personal_intl": 320, "evasion": 335, "split": 15,
          "lookalike": 735, "split_counter": 15, "note_en": 140, "note_intl": 280, "code": 220}


def gen_key():
    return "mem_" + rs(ALPH["h"], ri(8, 32))


class Builder:
    def __init__(self):
        self.records = []
        self.seen = set()
        self.counters = {}

    def add(self, label, variant, segment, kind, make, meta=None, forced_key=None):
        """make() -> content (str/dict/list) or a split dict with key/ns3."""
        for _ in range(60):
            out = make()
            key, ns3 = None, None
            if isinstance(out, dict) and "value" in out and ("key" in out or "ns3" in out) and set(out) <= {"key", "ns3", "value"}:
                key, ns3, content = out.get("key"), out.get("ns3"), out["value"]
            else:
                content = out
            content = wrap(content)
            sig = json.dumps(content, ensure_ascii=False, sort_keys=True)
            if sig in self.seen:
                continue
            self.seen.add(sig)
            n = self.counters.get((label, variant, segment), 0) + 1
            self.counters[(label, variant, segment)] = n
            rid = f"h20-{label[0]}-{variant[0]}-{segment}-{n:03d}"
            self.records.append({"id": rid, "label": label, "kind": kind if isinstance(kind, str) else kind(), "variant": variant,
                                 "key": key or gen_key(), "ns3": ns3, "value": content, "meta": meta or {}})
            return
        raise RuntimeError(f"could not make a unique record for {segment}/{kind}")


def build():
    B = Builder()

    # --- vendor credentials: every catalogue format at least once, the rest sampled
    order = list(range(len(CAT)))
    R.shuffle(order)
    picks = order[:COUNTS["vendor"]] if len(order) >= COUNTS["vendor"] else order + [ri(0, len(CAT) - 1) for _ in range(COUNTS["vendor"] - len(order))]
    for idx in picks:
        e = CAT[idx]
        box = {}

        def mk(e=e, box=box):
            cred = [(n, fill(p)) for n, p in e["fields"]]
            extra = [(n, fill(p)) for n, p in sample(GENERIC_PAIRS, ch([0, 0, 1, 1, 2]))]
            P = cred + extra
            if chance(0.5):
                R.shuffle(P)
            name, text = render_pairs(P, cred, e["vendor"], e["api"], e["hdr"])
            box["container"] = name
            return text
        B.add("secret", "plain", "vendor", f"vendor-{e['cat']}", mk, {"vendor": e["vendor"], "box": box})

    # --- personal secrets
    for _ in range(COUNTS["personal_en"]):
        box = {}

        def mk(box=box):
            k, t = en_personal()
            box["kind"] = k
            return t
        B.add("secret", "plain", "personal", lambda box=box: box["kind"], mk, {"lang": "en"})
    langs = list(range(len(LANGS)))
    R.shuffle(langs)
    for i in range(COUNTS["personal_intl"]):
        L = LANGS[langs[i % len(langs)]]
        box = {}

        def mk(L=L, box=box):
            k, t = intl_personal(L)
            box["kind"] = k
            return t
        B.add("secret", "plain", "personal", lambda box=box: box["kind"], mk, {"lang": L["code"]})

    # --- hard evasions: distinct techniques
    tech = list(range(len(HARD)))
    R.shuffle(tech)
    if len(tech) >= COUNTS["evasion"]:
        tech = tech[:COUNTS["evasion"]]
    else:
        tech = tech + [ri(0, len(HARD) - 1) for _ in range(COUNTS["evasion"] - len(tech))]
    for t in tech:
        name, fn = HARD[t]
        B.add("secret", "hard", "evasion", name, fn)
    for i in range(COUNTS["split"]):
        name, fn = SPLIT_SECRET[i % len(SPLIT_SECRET)]
        B.add("secret", "hard", "split", name, fn)

    # --- benign: look-alikes
    talk_langs = list(range(len(LANGS)))
    R.shuffle(talk_langs)
    n_talk_intl, n_talk_en = 50, 40
    for i in range(n_talk_intl):
        L = LANGS[talk_langs[i % len(talk_langs)]]
        B.add("benign", "hard", "lookalike", "cred-talk", lambda L=L: ch(L["talk"]) + ch(["", "", "\n" + slot_fill(ch(L["notes"]))]), {"lang": L["code"]})
    for i in range(n_talk_en):
        B.add("benign", "hard", "lookalike", "cred-talk", lambda: ch(CRED_TALK_EN), {"lang": "en"})
    others = [f for f in FAMS if f[0] != "cred-talk"]
    remaining = COUNTS["lookalike"] - n_talk_intl - n_talk_en
    seq = []
    while len(seq) < remaining:
        block = list(range(len(others)))
        R.shuffle(block)
        seq += block
    for j in seq[:remaining]:
        fam, fn = others[j]
        B.add("benign", "hard", "lookalike", fam, fn)
    for i in range(COUNTS["split_counter"]):
        box = {}

        def mk(box=box):
            k, o = split_counter()
            box["kind"] = k
            return o
        B.add("benign", "hard", "split", lambda box=box: box["kind"], mk)

    # --- benign: ordinary notes and code/config
    for _ in range(COUNTS["note_en"]):
        box = {}

        def mk(box=box):
            k, t = en_note()
            box["kind"] = k
            return t
        B.add("benign", "plain", "note", lambda box=box: box["kind"], mk, {"lang": "en"})
    langs2 = list(range(len(LANGS)))
    R.shuffle(langs2)
    for i in range(COUNTS["note_intl"]):
        L = LANGS[langs2[i % len(langs2)]]
        box = {}

        def mk(L=L, box=box):
            k, t = intl_note(L)
            box["kind"] = k
            return t
        B.add("benign", "plain", "note", lambda box=box: box["kind"], mk, {"lang": L["code"]})
    vs_vendors = []
    for vname, _, _ in VENDOR_SETTINGS:
        if vname not in vs_vendors:
            vs_vendors.append(vname)
    for _ in range(COUNTS["code"]):
        box = {}

        def mk(box=box):
            vendor = ch(vs_vendors)
            vs = [(n, p) for vn, n, p in VENDOR_SETTINGS if vn == vendor]
            P = [(n, fill(p)) for n, p in sample(vs, min(len(vs), ri(1, 2)))]
            for n, p in sample(GENERIC_PAIRS, ri(1, 3)):
                P.append((n, fill(p)))
            R.shuffle(P)
            name, text = render_pairs(P, [], vendor)
            box["container"] = name
            return text
        B.add("benign", "plain", "code", lambda box=box: "code-" + box["container"], mk, {"box": box})

    recs = B.records
    # --- value shapes: ~70/20/10 per label (native objects/arrays count towards the quota)
    for label in ("secret", "benign"):
        L = [r for r in recs if r["label"] == label]
        n = len(L)
        t_obj, t_arr = round(0.2 * n), round(0.1 * n)
        n_obj = sum(1 for r in L if isinstance(r["value"], dict))
        n_arr = sum(1 for r in L if isinstance(r["value"], list))
        strs = [r for r in L if isinstance(r["value"], str)]
        pick = sample(range(len(strs)), max(0, t_obj - n_obj) + max(0, t_arr - n_arr))
        for j, idx in enumerate(pick):
            r = strs[idx]
            r["value"] = shape_obj(r["value"]) if j < max(0, t_obj - n_obj) else shape_arr(r["value"])
    # --- namespaces: exactly 30% of each label carry a third element
    for label in ("secret", "benign"):
        L = [r for r in recs if r["label"] == label]
        target = round(0.3 * len(L))
        forced = [r for r in L if r["ns3"]]
        rest = [r for r in L if not r["ns3"]]
        for idx in sample(range(len(rest)), max(0, target - len(forced))):
            rest[idx]["ns3"] = ch(NS3)
    for r in recs:
        ns = ["memories", f"u{ri(1000, 99999999)}"]
        if r["ns3"]:
            ns.append(r["ns3"])
        r["namespace"] = ns
    # --- uniqueness check on final values
    sigs = set()
    for r in recs:
        s = json.dumps(r["value"], ensure_ascii=False, sort_keys=True)
        assert s not in sigs, r["id"]
        sigs.add(s)
        assert re.fullmatch(r"mem_[0-9a-f]{8,32}", r["key"]), r["key"]
    R.shuffle(recs)
    return recs


def write(recs):
    lines = []
    for r in recs:
        o = {"id": r["id"], "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": r["namespace"],
             "key": r["key"], "value": r["value"]}
        lines.append(json.dumps(o, ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)
    return hashlib.sha256(data).hexdigest()


def counter(items):
    d = {}
    for i in items:
        d[i] = d.get(i, 0) + 1
    return sorted(d.items(), key=lambda kv: (-kv[1], str(kv[0])))


def seg_of(r):
    return r["id"].split("-")[3]


def stats(recs, sha):
    out = []
    P = out.append
    P(f"records: {len(recs)}   sha256: {sha}")
    P("\nlabel x variant:")
    for (k, v) in counter((r["label"], r["variant"]) for r in recs):
        P(f"  {k[0]:7s} {k[1]:6s} {v}")
    P("\nlabel x segment:")
    for (k, v) in counter((r["label"], seg_of(r)) for r in recs):
        P(f"  {k[0]:7s} {k[1]:10s} {v}")
    P("\nvalue shape by label:")
    for label in ("secret", "benign"):
        L = [r for r in recs if r["label"] == label]
        c = dict(counter("object" if isinstance(r["value"], dict) else "array" if isinstance(r["value"], list) else "string" for r in L))
        P(f"  {label:7s} " + "  ".join(f"{k}={c.get(k, 0)} ({100 * c.get(k, 0) / len(L):.1f}%)" for k in ("string", "object", "array")))
    P("\nnamespace with third element by label:")
    for label in ("secret", "benign"):
        L = [r for r in recs if r["label"] == label]
        n3 = sum(1 for r in L if len(r["namespace"]) == 3)
        P(f"  {label:7s} {n3}/{len(L)} ({100 * n3 / len(L):.1f}%)")
    langs_p = [r["meta"].get("lang") for r in recs if seg_of(r) == "personal"]
    langs_n = [r["meta"].get("lang") for r in recs if seg_of(r) == "note"]
    P(f"\npersonal secrets: {len(langs_p)} records, {sum(1 for x in langs_p if x == 'en')} English, "
      f"{len(set(x for x in langs_p if x != 'en'))} other languages")
    P("  " + ", ".join(f"{k}:{v}" for k, v in counter(langs_p)))
    P(f"ordinary notes: {len(langs_n)} records, {sum(1 for x in langs_n if x == 'en')} English, {len(set(x for x in langs_n if x != 'en'))} other languages")
    P("  " + ", ".join(f"{k}:{v}" for k, v in counter(langs_n)))
    ven = [r for r in recs if seg_of(r) == "vendor"]
    P(f"\nvendor records: {len(ven)} from {len(set(r['meta']['vendor'] for r in ven))} distinct catalogue formats "
      f"(catalogue: {len(CAT)} formats); containers used: {len(set(r['meta']['box']['container'] for r in ven))}")
    P("  containers: " + ", ".join(f"{k}:{v}" for k, v in counter(r["meta"]["box"]["container"] for r in ven)))
    for seg, title in [("vendor", "vendor kinds"), ("personal", "personal secret kinds"), ("evasion", "evasion techniques"),
                       ("lookalike", "look-alike families"), ("note", "ordinary note kinds"), ("code", "benign code/config kinds")]:
        c = counter(r["kind"] for r in recs if seg_of(r) == seg)
        P(f"\n{title}: {len(c)} distinct")
        P("  " + ", ".join(f"{k}:{v}" for k, v in c))
    c = counter((r["label"], r["kind"]) for r in recs if seg_of(r) == "split")
    P("\nkey/namespace split records:")
    P("  " + ", ".join(f"{k[0]}/{k[1]}:{v}" for k, v in c))
    return "\n".join(out)


def tables_md(recs):
    out = []
    for seg, title in [("vendor", "Vendor credential categories (secret, plain)"), ("personal", "Personal secret kinds (secret, plain)"),
                       ("evasion", "Evasion techniques (secret, hard)"), ("split", "Key/namespace split records (both labels, hard)"),
                       ("lookalike", "Look-alike families (benign, hard)"), ("note", "Ordinary notes (benign, plain)"),
                       ("code", "Benign code/config snippets by container (benign, plain)")]:
        rows = counter((r["kind"], r["label"]) for r in recs if seg_of(r) == seg)
        out.append(f"\n### {title}: {len(rows)} distinct, {sum(v for _, v in rows)} records\n")
        out.append("| kind | label | count |\n|---|---|---|")
        for (k, lab), v in rows:
            out.append(f"| `{k}` | {lab} | {v} |")
    return "\n".join(out)


def main():
    recs = build()
    sha = write(recs)
    if "--stats" in sys.argv:
        print(stats(recs, sha))
    elif "--tables-md" in sys.argv:
        print(tables_md(recs))
    else:
        print(f"wrote {OUT} ({len(recs)} records) sha256={sha}")


if __name__ == "__main__":
    main()
