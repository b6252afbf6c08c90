#!/usr/bin/env python3
"""Generator for the held-out secret-detection corpus *heldout21*.

Python 3.11 standard library only.  One ``random.Random(SEED)`` drives every
random choice, so the output is byte-identical regardless of the working
directory or PYTHONHASHSEED.  Writes ``heldout21.jsonl`` next to this file.

    python3 make_heldout21.py            # write the corpus, print sha256
    python3 make_heldout21.py --stats    # ... and print count tables

All values are synthetic: only public *shapes* (prefixes, lengths, alphabets,
checksums) are copied; every random part comes from the seeded generator.
"""
import argparse
import base64
import codecs
import hashlib
import json
import os
import random
import re
import string
import sys
import unicodedata
import urllib.parse
import zlib
from collections import Counter

SEED = 0x48_21_C0_DE_5EED
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout21.jsonl")

# ---------------------------------------------------------------------------
# primitive random helpers
# ---------------------------------------------------------------------------
ALPH = {
    "a": string.ascii_lowercase + string.digits,
    "A": string.ascii_uppercase + string.digits,
    "n": string.ascii_letters + string.digits,
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "b": string.ascii_letters + string.digits + "+/",
    "u": string.ascii_letters + string.digits + "-_",
    "d": string.digits,
    "l": string.ascii_lowercase,
    "L": string.ascii_uppercase,
    "5": "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
    "3": "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    "c": "qpzry9x8gf2tvdw0s3jn54khce6mua7l",
    "C": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    "p": string.ascii_letters + string.digits + "!#%*+-.=?@^_~",
    "j": string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)",
}


def rs(alpha, n):
    a = ALPH[alpha]
    return "".join(R.choice(a) for _ in range(n))


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def uuid4():
    return f"{rs('h', 8)}-{rs('h', 4)}-4{rs('h', 3)}-{R.choice('89ab')}{rs('h', 3)}-{rs('h', 12)}"


def wrap(s, w=64):
    return "\n".join(s[i:i + w] for i in range(0, len(s), w))


def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def luhn_ok(digits):
    tot = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        tot += d
    return tot % 10 == 0


def luhn_complete(prefix, length):
    body = prefix + "".join(R.choice(string.digits) for _ in range(length - len(prefix) - 1))
    for c in string.digits:
        if luhn_ok(body + c):
            return body + c
    raise AssertionError


def card_number():
    brand = pick(["visa", "visa", "mc", "mc2", "amex", "disc"])
    if brand == "visa":
        return "Visa", luhn_complete("4", 16)
    if brand == "mc":
        return "Mastercard", luhn_complete(str(R.randint(51, 55)), 16)
    if brand == "mc2":
        return "Mastercard", luhn_complete(str(R.randint(2221, 2720)), 16)
    if brand == "amex":
        return "Amex", luhn_complete(pick(["34", "37"]), 15)
    return "Discover", luhn_complete("6011", 16)


def group_card(n):
    if len(n) == 15:
        return f"{n[:4]} {n[4:10]} {n[10:]}"
    return " ".join(n[i:i + 4] for i in range(0, len(n), 4))


# ---------------------------------------------------------------------------
# people, places, dates (all synthetic)
# ---------------------------------------------------------------------------
FIRST = ["Anna", "Lukas", "Sofia", "Mateo", "Chloé", "Hiroshi", "Mei", "Olumide", "Priya", "Jonas",
         "Fatima", "Tomasz", "Ingrid", "Diego", "Yuki", "Amara", "Liam", "Noor", "Elif", "Marek",
         "Camille", "Rafael", "Sanne", "Aarav", "Linh", "Kwame", "Greta", "Omar", "Isabela", "Niko",
         "Zoe", "Emre", "Hana", "Pavel", "Lucía", "Ben", "Maya", "Jakub", "Aiko", "Chen"]
LAST = ["Müller", "García", "Rossi", "Nakamura", "Okafor", "Sharma", "Kowalski", "Lindqvist", "Dubois",
        "Silva", "Novak", "Yılmaz", "Nguyen", "Haddad", "Kim", "Jansen", "Petrov", "Costa", "Fischer",
        "O'Brien", "Moreau", "Tanaka", "Mensah", "Ivanova", "Hughes", "Bauer", "Santos", "Virtanen",
        "Dvořák", "Park", "Wang", "Ali", "Reyes", "Schmidt", "Berg", "Lopez"]
DOMAINS = ["gmail.com", "outlook.com", "web.de", "yahoo.co.jp", "proton.me", "icloud.com", "gmx.net",
           "orange.fr", "libero.it", "hotmail.co.uk", "mail.ru", "naver.com", "qq.com", "seznam.cz",
           "wp.pl", "uol.com.br", "posteo.de", "fastmail.com"]
WORKDOM = ["northwind-logistics.com", "acme-robotics.io", "brightpath.health", "tallis-media.co.uk",
           "kestrel-analytics.de", "blueorchid.jp", "veldt-energy.co.za", "lumen-studio.fr"]
CITIES = [("Berlin", "10115", "Linienstraße"), ("München", "80331", "Sendlinger Str."),
          ("Lyon", "69002", "Rue Mercière"), ("Madrid", "28004", "Calle de Fuencarral"),
          ("Milano", "20121", "Via Solferino"), ("Porto", "4050-262", "Rua das Flores"),
          ("Utrecht", "3511 LA", "Oudegracht"), ("Kraków", "31-008", "ul. Floriańska"),
          ("Göteborg", "411 19", "Vasagatan"), ("Austin, TX", "78704", "South Congress Ave"),
          ("Leeds", "LS1 6AD", "Briggate"), ("Toronto, ON", "M5V 2T6", "King St W"),
          ("Osaka", "530-0001", "Umeda"), ("Brno", "602 00", "Veveří"), ("Istanbul", "34433", "İstiklal Cd."),
          ("Melbourne VIC", "3000", "Flinders Lane"), ("São Paulo", "01310-100", "Av. Paulista")]
SITES = ["Netflix", "Amazon", "PayPal", "Spotify", "Steam", "eBay", "Instagram", "Gmail", "the bank app",
         "Disney+", "Deliveroo", "the school portal", "the tax portal", "LinkedIn", "Zalando", "the gym app"]
SSIDS = ["FRITZ!Box 7590 XK", "Vodafone-4F2A", "Livebox-8C31", "MOVISTAR_1A9E", "TIM-29384712",
         "Ziggo2837461", "UPC1234567", "Telia-5G-3B2C", "TurkTelekom_ZT7R2", "Keenetic-3321", "aterm-7d3c2a",
         "ChinaNet-x9Qe", "iptime5G", "HUAWEI-B311-6E2A", "Casa_Oliveira", "VNPT_Thu_Ha", "IndiHome-8812",
         "O2-Internet-725", "SKYB2C4D", "BT-7QCX9P", "Sunrise_5GHz_9A1E", "NETGEAR42", "HomeNet-Attic"]
WORDS = ["marigold", "tangerine", "falcon", "harbor", "velvet", "cobalt", "juniper", "pepper", "saturn",
         "willow", "biscuit", "nimbus", "orchid", "granite", "lantern", "mango", "pickle", "quartz", "rocket",
         "sparrow", "thistle", "walnut", "zephyr", "bramble", "cactus", "dolphin", "ember", "fjord", "gecko",
         "hazel", "iguana", "jasmine", "kiwi", "lemur", "maple", "nutmeg", "otter", "panda", "raven", "sequoia",
         "tulip", "umber", "violet", "wombat", "zinnia", "autumn", "blizzard", "canyon", "meadow", "pistachio"]
NEUTRAL_FOLDERS = ["inbox", "notes", "work", "home", "personal", "archive", "misc", "projects", "family",
                   "travel", "ops", "scratch", "imported", "2025", "later", "shared"]
PROJ = ["OPS", "INFRA", "PLAT", "DATA", "WEB", "MOB", "SEC", "HELP", "IT", "DEV"]


def ascii_fold(s):
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c)).replace("'", "").replace("ı", "i")


def person():
    return pick(FIRST), pick(LAST)


def email_for(first=None, last=None, work=False):
    if first is None:
        first, last = person()
    local = ascii_fold(f"{first}.{last}").lower().replace(" ", "")
    if chance(0.4):
        local += str(R.randint(1, 99))
    return f"{local}@{pick(WORKDOM) if work else pick(DOMAINS)}"


def phone():
    k = R.randrange(8)
    if k == 0:
        return f"+49 {R.randint(151, 179)} {rs('d', 7)}"
    if k == 1:
        return f"+33 6 {rs('d', 2)} {rs('d', 2)} {rs('d', 2)} {rs('d', 2)}"
    if k == 2:
        return f"+1 ({R.randint(201, 989)}) 555-{rs('d', 4)}"
    if k == 3:
        return f"+44 7{rs('d', 3)} {rs('d', 6)}"
    if k == 4:
        return f"+81 90-{rs('d', 4)}-{rs('d', 4)}"
    if k == 5:
        return f"+39 3{rs('d', 2)} {rs('d', 3)} {rs('d', 4)}"
    if k == 6:
        return f"+48 {rs('d', 3)} {rs('d', 3)} {rs('d', 3)}"
    return f"0{R.randint(20, 99)} {rs('d', 4)} {rs('d', 4)}"


def address():
    city, zp, street = pick(CITIES)
    return f"{street} {R.randint(1, 180)}, {zp} {city}"


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


def ymd(y0=2024, y1=2026):
    return R.randint(y0, y1), R.randint(1, 12), R.randint(1, 28)


def iso_date(y0=2024, y1=2026):
    y, m, d = ymd(y0, y1)
    return f"{y}-{m:02d}-{d:02d}"


def human_date():
    y, m, d = ymd()
    return pick([f"{d} {MONTHS[m - 1]}", f"{MONTHS[m - 1]} {d}", f"{d:02d}.{m:02d}.{y}", f"{d}/{m}/{y}"])


def dob():
    y, m, d = ymd(1941, 2016)
    return f"{y}-{m:02d}-{d:02d}"


def hostname():
    return pick([f"db-{pick(['prod', 'stg', 'dev', 'eu1', 'us2'])}-{R.randint(1, 9)}.{pick(['internal', 'corp', 'svc'])}.{pick(['northwind-logistics.com', 'acme-robotics.io', 'kestrel.lan'])}",
                 f"{rs('l', 6)}.{pick(['eu-west-1', 'us-east-1', 'ap-south-1'])}.rds.amazonaws.com",
                 f"10.{R.randint(0, 254)}.{R.randint(0, 254)}.{R.randint(1, 254)}",
                 f"{pick(['pg', 'mysql', 'mongo', 'redis', 'cache', 'queue'])}{R.randint(1, 4)}.{pick(['prod', 'staging'])}.local"])


def dbuser():
    return pick(["app", "svc_api", "reporting", "etl_writer", "admin", "postgres", "root", "ci_bot",
                 "analytics_ro", "billing", "webapp", "django", "rails"]) + (str(R.randint(1, 9)) if chance(0.2) else "")


def url_pw():
    alpha = string.ascii_letters + string.digits + "-_.~"
    while True:
        s = "".join(R.choice(alpha) for _ in range(R.randint(14, 28)))
        if any(c.isdigit() for c in s) and any(c.isupper() for c in s):
            return s


def human_pw():
    k = R.randrange(7)
    w = pick(WORDS)
    if k == 0:
        return w.capitalize() + str(R.randint(1958, 2014)) + pick("!?#$*.")
    if k == 1:
        t = w.translate(str.maketrans({"a": "@", "o": "0", "e": "3", "i": "1", "s": "$"}))
        return t.capitalize() + pick(["#", "!", "_"]) + str(R.randint(10, 99))
    if k == 2:
        while True:
            s = rs("p", R.randint(12, 20))
            if any(c.isdigit() for c in s):
                return s
    if k == 3:
        return "-".join(R.sample(WORDS, 3)) + "-" + str(R.randint(10, 99))
    if k == 4:
        return w + pick(["_", ".", ""]) + pick(WORDS).capitalize() + str(R.randint(1, 999))
    if k == 5:
        f = ascii_fold(pick(FIRST)).lower()
        return f + f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}" + pick(["!", "", "*"])
    return pick(WORDS).upper()[:4] + str(R.randint(1000, 9999)) + pick(WORDS)[:3] + pick("!%&")


def wifi_psk():
    k = R.randrange(4)
    if k == 0:
        return rs("A", 4) + "-" + rs("A", 4) + "-" + rs("A", 4) + "-" + rs("A", 4)
    if k == 1:
        return human_pw()
    if k == 2:
        return rs("a", R.randint(10, 16))
    return rs("d", R.randint(10, 20))


def pin(n=None):
    n = n or pick([4, 4, 4, 5, 6, 6])
    while True:
        s = rs("d", n)
        if len(set(s)) > 1:
            return s


# ---------------------------------------------------------------------------
# structured key material (synthetic, random bytes in realistic armour)
# ---------------------------------------------------------------------------
def der_len(n):
    if n < 128:
        return bytes([n])
    if n < 256:
        return b"\x81" + bytes([n])
    return b"\x82" + n.to_bytes(2, "big")


def der_int(b):
    if b[0] & 0x80:
        b = b"\x00" + b
    return b"\x02" + der_len(len(b)) + b


def der_tlv(tag, body):
    return bytes([tag]) + der_len(len(body)) + body


def der_seq(*parts):
    return der_tlv(0x30, b"".join(parts))


def big(n):
    b = rbytes(n)
    return bytes([b[0] | 0x80]) + b[1:]


OID_RSA = bytes.fromhex("06092a864886f70d010101") + b"\x05\x00"
OID_EC = bytes.fromhex("06072a8648ce3d0201")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")


def pem(label, der):
    return f"-----BEGIN {label}-----\n{wrap(b64(der))}\n-----END {label}-----"


def rsa_der():
    return der_seq(der_int(b"\x00"), der_int(big(256)), der_int(b"\x01\x00\x01"), der_int(big(256)),
                   der_int(big(128)), der_int(big(128)), der_int(big(128)), der_int(big(128)), der_int(big(128)))


def ec_der():
    return der_seq(der_int(b"\x01"), der_tlv(0x04, rbytes(32)), der_tlv(0xA0, OID_P256),
                   der_tlv(0xA1, der_tlv(0x03, b"\x00\x04" + rbytes(64))))


def pem_rsa():
    return pem("RSA PRIVATE KEY", rsa_der())


def pem_pkcs8():
    return pem("PRIVATE KEY", der_seq(der_int(b"\x00"), der_seq(OID_RSA), der_tlv(0x04, rsa_der())))


def pem_ec():
    return pem("EC PRIVATE KEY", ec_der())


def pem_p8():
    return pem("PRIVATE KEY", der_seq(der_int(b"\x00"), der_seq(OID_EC, OID_P256), der_tlv(0x04, ec_der())))


def pem_ed25519():
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rbytes(32))


def pem_dsa():
    return pem("DSA PRIVATE KEY", der_seq(der_int(b"\x00"), der_int(big(128)), der_int(big(20)),
                                          der_int(big(128)), der_int(big(128)), der_int(big(20))))


def pem_rsa_public():
    spki = der_seq(der_seq(OID_RSA), der_tlv(0x03, b"\x00" + der_seq(der_int(big(256)), der_int(b"\x01\x00\x01"))))
    return pem("PUBLIC KEY", spki)


def pem_ec_public():
    return pem("PUBLIC KEY", der_seq(der_seq(OID_EC, OID_P256), der_tlv(0x03, b"\x00\x04" + rbytes(64))))


def pem_cert():
    body = der_seq(der_seq(der_tlv(0xA0, der_int(b"\x02")), der_int(rbytes(20)), rbytes(R.randint(600, 760))),
                   rbytes(R.randint(200, 280)))
    return pem("CERTIFICATE", body)


def sshstr(b):
    return len(b).to_bytes(4, "big") + b


def ssh_comment():
    return f"{ascii_fold(pick(FIRST)).lower()}@{pick(['laptop', 'build-01', 'mbp', 'ws-lin', 'pi4', 'nas'])}"


def openssh_priv():
    seed, pub = rbytes(32), rbytes(32)
    pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
    chk = rbytes(4)
    priv = chk + chk + sshstr(b"ssh-ed25519") + sshstr(pub) + sshstr(seed + pub) + sshstr(ssh_comment().encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\x00" + sshstr(b"none") + sshstr(b"none") + sshstr(b"") + (1).to_bytes(4, "big")
            + sshstr(pubblob) + sshstr(priv))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(b64(blob), 70) + "\n-----END OPENSSH PRIVATE KEY-----"


def ssh_pub():
    if chance(0.5):
        blob = sshstr(b"ssh-ed25519") + sshstr(rbytes(32))
        return f"ssh-ed25519 {b64(blob)} {ssh_comment()}"
    blob = sshstr(b"ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00" + big(256))
    return f"ssh-rsa {b64(blob)} {ssh_comment()}"


def putty_key():
    pubblob = sshstr(b"ssh-ed25519") + sshstr(rbytes(32))
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\n"
            f"Comment: ed25519-key-{iso_date().replace('-', '')}\nPublic-Lines: 2\n{wrap(b64(pubblob))}\n"
            f"Private-Lines: 1\n{b64(sshstr(rbytes(32)))}\nPrivate-MAC: {rs('h', 64)}")


def pgp_block(kind):
    head = bytes.fromhex("9458") if kind == "PRIVATE" else bytes.fromhex("9833")
    body = head + b"\x04" + rbytes(4) + b"\x16\x09\x2b\x06\x01\x04\x01\xda\x47\x0f\x01" + rbytes(R.randint(380, 520))
    return (f"-----BEGIN PGP {kind} KEY BLOCK-----\n\n{wrap(b64(body))}\n={b64(rbytes(3))}\n"
            f"-----END PGP {kind} KEY BLOCK-----")


def jwk(kind, private=True):
    if kind == "RSA":
        d = {"kty": "RSA", "kid": rs("u", 12), "use": "sig", "alg": "RS256", "n": b64u(big(256)), "e": "AQAB"}
        if private:
            d.update({"d": b64u(rbytes(256)), "p": b64u(rbytes(128)), "q": b64u(rbytes(128)),
                      "dp": b64u(rbytes(128)), "dq": b64u(rbytes(128)), "qi": b64u(rbytes(128))})
    elif kind == "EC":
        d = {"kty": "EC", "crv": "P-256", "kid": rs("h", 8), "x": b64u(rbytes(32)), "y": b64u(rbytes(32))}
        if private:
            d["d"] = b64u(rbytes(32))
    else:
        d = {"kty": "OKP", "crv": "Ed25519", "kid": rs("h", 8), "x": b64u(rbytes(32))}
        if private:
            d["d"] = b64u(rbytes(32))
    return json.dumps(d, indent=2)


B58 = ALPH["5"]


def b58enc(b):
    n = int.from_bytes(b, "big")
    s = ""
    while n:
        n, r = divmod(n, 58)
        s = B58[r] + s
    return "1" * (len(b) - len(b.lstrip(b"\0"))) + s


def b58check(p):
    return b58enc(p + hashlib.sha256(hashlib.sha256(p).digest()).digest()[:4])


def wif():
    return b58check(b"\x80" + rbytes(32) + (b"\x01" if chance(0.7) else b""))


def xprv():
    return b58check(bytes.fromhex("0488ade4") + b"\x00" * 9 + rbytes(32) + b"\x00" + rbytes(32))


BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse
achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult
advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol
alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused
analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any
apart apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest
arrive arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend
attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful
awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base
basic basket battle beach bean beauty because become beef before begin behave behind believe below belt bench
benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket
blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border
boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright
bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet
bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm
camera camp can canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet
carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave ceiling celery
cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese
chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen
city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close
cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine
come comfort comic common company concert conduct confirm congress connect consider control convince cook cool
copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft
cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd
crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve
cushion custom cute cycle""".split()


def mnemonic(n):
    return " ".join(pick(BIP39) for _ in range(n))


def jwt(alg="HS256", payload=None):
    t = R.randint(1_700_000_000, 1_760_000_000)
    if payload is None:
        payload = pick([
            {"sub": uuid4(), "role": pick(["admin", "user", "service", "editor"]), "iat": t, "exp": t + pick([3600, 86400, 2592000])},
            {"sub": str(R.randint(1000, 999999)), "name": " ".join(person()), "scope": pick(["read write", "api:all", "openid profile email"]), "iat": t},
            {"iss": f"https://auth.{pick(WORKDOM)}/", "aud": pick(["api", "internal", "mobile"]), "sub": rs("u", 24), "iat": t, "exp": t + 900},
        ])
    sig = {"HS256": 32, "RS256": 256, "ES256": 64, "EdDSA": 64}[alg]
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256":
        hdr["kid"] = rs("u", 16)
    enc = lambda o: b64u(json.dumps(o, separators=(",", ":"), ensure_ascii=False).encode())
    return f"{enc(hdr)}.{enc(payload)}.{b64u(rbytes(sig))}"


def discord_token():
    uid = str(R.randint(10**17, 13 * 10**17))
    return f"{b64u(uid.encode())}.{rs('u', 6)}.{rs('u', 38)}"


def gcp_sa():
    proj = f"{pick(WORDS)}-{pick(WORDS)}-{R.randint(100000, 999999)}"
    name = pick(["ci-deployer", "backup-writer", "bq-reader", "terraform"])
    return json.dumps({"type": "service_account", "project_id": proj, "private_key_id": rs("h", 40),
                       "private_key": pem_pkcs8() + "\n", "client_email": f"{name}@{proj}.iam.gserviceaccount.com",
                       "client_id": rs("d", 21), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                       "token_uri": "https://oauth2.googleapis.com/token"}, indent=2)


def docker_auth():
    reg = pick(["registry.gitlab.com", "ghcr.io", f"registry.{pick(WORKDOM)}", "index.docker.io/v1/"])
    return json.dumps({"auths": {reg: {"auth": b64(f"{dbuser()}:{url_pw()}".encode())}}})


SPECIAL = {
    "uuid": uuid4, "UUID": lambda: uuid4().upper(), "user": dbuser, "pw": url_pw, "host": hostname,
    "db": lambda: pick(["orders", "app_prod", "analytics", "inventory", "crm", "wiki", "billing", "main"]),
    "email": lambda: email_for(work=True), "email_enc": lambda: email_for(work=True).replace("@", "%40"),
    "jwt": lambda: jwt("HS256"), "jwt_rs": lambda: jwt("RS256"), "jwt_es": lambda: jwt("ES256"),
    "jwt_eddsa": lambda: jwt("EdDSA", {"a": "rw", "iat": R.randint(1_700_000_000, 1_760_000_000), "id": uuid4()}),
    "jwt_supabase_service": lambda: jwt("HS256", {"iss": "supabase", "ref": rs("l", 20), "role": "service_role",
                                                   "iat": 1_700_000_000 + R.randint(0, 5 * 10**7), "exp": 2_000_000_000 + R.randint(0, 10**8)}),
    "jwt_k8s": lambda: jwt("RS256", {"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": pick(["default", "ci", "monitoring"]),
                                     "kubernetes.io/serviceaccount/service-account.name": pick(["deployer", "argo", "runner"]),
                                     "sub": "system:serviceaccount:ci:deployer"}),
    "jwe": lambda: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + f"{rs('u', 16)}.{rs('u', 300)}.{rs('u', 22)}",
    "sasig": lambda: urllib.parse.quote(rs("b", 43) + "=", safe=""),
    "pem_rsa": pem_rsa, "pem_pkcs8": pem_pkcs8, "pem_ec": pem_ec, "pem_p8": pem_p8, "pem_ed25519": pem_ed25519,
    "pem_dsa": pem_dsa, "openssh": openssh_priv, "putty": putty_key, "pgp_priv": lambda: pgp_block("PRIVATE"),
    "jwk_rsa": lambda: jwk("RSA"), "jwk_ec": lambda: jwk("EC"), "jwk_okp": lambda: jwk("OKP"),
    "b64pem": lambda: b64(pem_ec().encode()), "wif": wif, "xprv": xprv, "sol": lambda: b58enc(rbytes(64)),
    "sol_json": lambda: json.dumps([R.randrange(256) for _ in range(64)]),
    "bip39_12": lambda: mnemonic(12), "bip39_24": lambda: mnemonic(24), "discord": discord_token,
    "gcp_sa": gcp_sa, "docker_auth": docker_auth,
    "ovpn_static": lambda: "-----BEGIN OpenVPN Static key V1-----\n" + "\n".join(rs("h", 32) for _ in range(16)) + "\n-----END OpenVPN Static key V1-----",
}
TOK = re.compile(r"\{(\w):(\d+)\}|\{(\w+)\}")


def render(t):
    def sub(m):
        if m.group(1):
            return rs(m.group(1), int(m.group(2)))
        return SPECIAL[m.group(3)]()
    return TOK.sub(sub, t)


# ---------------------------------------------------------------------------
# CATALOGUE of public credential formats: (kind, category, (NAME, template)...)
# The last field of every entry is a credential; earlier ones may be context.
# ---------------------------------------------------------------------------
CAT = []


def V(kind, cat, *fields):
    CAT.append((kind, cat, fields))


# cloud
V("aws_access_key_pair", "cloud", ("AWS_ACCESS_KEY_ID", "AKIA{A:16}"), ("AWS_SECRET_ACCESS_KEY", "{b:40}"))
V("aws_temporary_credentials", "cloud", ("AWS_ACCESS_KEY_ID", "ASIA{A:16}"), ("AWS_SECRET_ACCESS_KEY", "{b:40}"), ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2VjE{b:280}"))
V("aws_secret_key_alone", "cloud", ("aws_secret_access_key", "{b:40}"))
V("aws_ses_smtp", "email", ("SES_SMTP_USERNAME", "AKIA{A:16}"), ("SES_SMTP_PASSWORD", "B{b:43}"))
V("gcp_api_key", "cloud", ("GOOGLE_API_KEY", "AIza{u:35}"))
V("gcp_oauth_client_secret", "identity", ("GOOGLE_CLIENT_ID", "{d:12}-{a:32}.apps.googleusercontent.com"), ("GOOGLE_CLIENT_SECRET", "GOCSPX-{u:28}"))
V("gcp_service_account_key", "cloud", ("GOOGLE_APPLICATION_CREDENTIALS_JSON", "{gcp_sa}"))
V("google_oauth_refresh_token", "identity", ("GOOGLE_REFRESH_TOKEN", "1//0{u:99}"))
V("google_oauth_access_token", "identity", ("GOOGLE_ACCESS_TOKEN", "ya29.a0{u:150}"))
V("azure_storage_connection_string", "cloud", ("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=https;AccountName={l:10}store;AccountKey={b:86}==;EndpointSuffix=core.windows.net"))
V("azure_sas_url", "cloud", ("AZURE_BLOB_SAS_URL", "https://{l:9}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rwdlacx&se=2026-01-31T18:00:00Z&st=2025-01-01T10:00:00Z&spr=https&sig={sasig}"))
V("azure_client_secret", "identity", ("AZURE_CLIENT_ID", "{uuid}"), ("AZURE_CLIENT_SECRET", "{n:3}8Q~{u:31}"))
V("azure_devops_pat", "vcs", ("AZURE_DEVOPS_PAT", "{a:52}"))
V("azure_function_key", "cloud", ("AZURE_FUNCTION_KEY", "{u:54}=="))
V("azure_cosmos_key", "database", ("COSMOS_ENDPOINT", "https://{l:8}.documents.azure.com:443/"), ("COSMOS_KEY", "{b:86}=="))
V("azure_servicebus_connection", "messaging", ("SERVICEBUS_CONNECTION", "Endpoint=sb://{l:8}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b:43}="))
V("azure_eventhub_connection", "messaging", ("EVENTHUB_CONNECTION_STRING", "Endpoint=sb://{l:7}-ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b:43}=;EntityPath=telemetry"))
V("azure_appconfig_connection", "cloud", ("APP_CONFIG_CONNECTION", "Endpoint=https://{l:8}.azconfig.io;Id={n:4}-l0-s0:{n:20};Secret={b:43}="))
V("azure_openai_key", "ai", ("AZURE_OPENAI_ENDPOINT", "https://{l:8}.openai.azure.com/"), ("AZURE_OPENAI_API_KEY", "{h:32}"))
V("azure_search_admin_key", "cloud", ("AZURE_SEARCH_ADMIN_KEY", "{n:52}"))
V("azure_iot_device_connection", "iot", ("IOTHUB_DEVICE_CONNECTION_STRING", "HostName={l:8}-hub.azure-devices.net;DeviceId=sensor-{d:3};SharedAccessKey={b:43}="))
V("azure_signalr_connection", "messaging", ("AZURE_SIGNALR_CONNECTION_STRING", "Endpoint=https://{l:8}.service.signalr.net;AccessKey={b:43}=;Version=1.0;"))
V("azure_speech_key", "ai", ("SPEECH_REGION", "westeurope"), ("SPEECH_KEY", "{h:32}"))
V("azure_ad_refresh_token", "identity", ("AZURE_REFRESH_TOKEN", "0.AX{u:250}"))
V("digitalocean_pat", "cloud", ("DIGITALOCEAN_TOKEN", "dop_v1_{h:64}"))
V("digitalocean_oauth", "cloud", ("DO_OAUTH_TOKEN", "doo_v1_{h:64}"))
V("digitalocean_refresh", "cloud", ("DO_REFRESH_TOKEN", "dor_v1_{h:64}"))
V("digitalocean_spaces_key", "cloud", ("SPACES_ACCESS_KEY_ID", "DO00{A:16}"), ("SPACES_SECRET_ACCESS_KEY", "{b:43}"))
V("alibaba_access_key", "cloud", ("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI5t{n:18}"), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", "{n:30}"))
V("tencent_cloud_secret", "cloud", ("TENCENTCLOUD_SECRET_ID", "AKID{n:32}"), ("TENCENTCLOUD_SECRET_KEY", "{n:32}"))
V("huawei_cloud_ak_sk", "cloud", ("HUAWEICLOUD_SDK_AK", "{A:20}"), ("HUAWEICLOUD_SDK_SK", "{n:40}"))
V("ibm_cloud_api_key", "cloud", ("IBMCLOUD_API_KEY", "{u:44}"))
V("ibm_cos_hmac", "cloud", ("COS_HMAC_ACCESS_KEY_ID", "{h:32}"), ("COS_HMAC_SECRET_ACCESS_KEY", "{h:48}"))
V("oracle_oci_auth_token", "cloud", ("OCI_USER", "ocid1.user.oc1..aaaaaaaa{a:52}"), ("OCI_AUTH_TOKEN", "{p:20}"))
V("linode_token", "cloud", ("LINODE_TOKEN", "{h:64}"))
V("vultr_api_key", "cloud", ("VULTR_API_KEY", "{A:36}"))
V("hetzner_cloud_token", "cloud", ("HCLOUD_TOKEN", "{n:64}"))
V("scaleway_secret_key", "cloud", ("SCW_ACCESS_KEY", "SCW{A:17}"), ("SCW_SECRET_KEY", "{uuid}"))
V("ovh_api_credentials", "cloud", ("OVH_APPLICATION_KEY", "{n:16}"), ("OVH_CONSUMER_KEY", "{n:32}"), ("OVH_APPLICATION_SECRET", "{n:32}"))
V("exoscale_api_secret", "cloud", ("EXOSCALE_API_KEY", "EXO{h:24}"), ("EXOSCALE_API_SECRET", "{u:43}"))
V("cloudflare_api_token", "cloud", ("CLOUDFLARE_API_TOKEN", "{u:40}"))
V("cloudflare_global_api_key", "cloud", ("CLOUDFLARE_EMAIL", "{email}"), ("CLOUDFLARE_API_KEY", "{h:37}"))
V("cloudflare_origin_ca_key", "cloud", ("CF_ORIGIN_CA_KEY", "v1.0-{h:24}-{h:146}"))
V("cloudflare_r2_keys", "cloud", ("R2_ACCESS_KEY_ID", "{h:32}"), ("R2_SECRET_ACCESS_KEY", "{h:64}"))
V("cloudflare_tunnel_token", "network", ("TUNNEL_TOKEN", "eyJhIjoi{b:180}"))
V("fastly_api_token", "cloud", ("FASTLY_API_TOKEN", "{u:32}"))
V("akamai_edgegrid", "cloud", ("client_token", "akab-{a:16}-{a:16}"), ("access_token", "akab-{a:16}-{a:16}"), ("client_secret", "{b:43}="))
V("heroku_api_key", "cloud", ("HEROKU_API_KEY", "{uuid}"))
V("heroku_platform_token", "cloud", ("HEROKU_API_TOKEN", "HRKU-AA{u:58}"))
V("netlify_pat", "cloud", ("NETLIFY_AUTH_TOKEN", "nfp_{n:36}{h:4}"))
V("vercel_token", "cloud", ("VERCEL_TOKEN", "{n:24}"))
V("flyio_token", "cloud", ("FLY_API_TOKEN", "FlyV1 fm2_lJPECAAAAAAAA{b:200}"))
V("render_api_key", "cloud", ("RENDER_API_KEY", "rnd_{n:32}"))
V("railway_token", "cloud", ("RAILWAY_TOKEN", "{uuid}"))
V("supabase_service_role_key", "database", ("SUPABASE_URL", "https://{l:20}.supabase.co"), ("SUPABASE_SERVICE_ROLE_KEY", "{jwt_supabase_service}"))
V("supabase_secret_key", "database", ("SUPABASE_SECRET_KEY", "sb_secret_{u:31}"))
V("supabase_access_token", "database", ("SUPABASE_ACCESS_TOKEN", "sbp_{h:40}"))
V("firebase_fcm_server_key", "messaging", ("FCM_SERVER_KEY", "AAAA{u:7}:APA91b{u:134}"))
V("planetscale_service_token", "database", ("PLANETSCALE_SERVICE_TOKEN", "pscale_tkn_{u:43}"))
V("planetscale_password", "database", ("DATABASE_PASSWORD", "pscale_pw_{u:43}"))
V("planetscale_oauth", "database", ("PSCALE_OAUTH_TOKEN", "pscale_oauth_{u:43}"))
V("neon_api_key", "database", ("NEON_API_KEY", "napi_{a:64}"))
V("mongodb_atlas_api_key", "database", ("MONGODB_ATLAS_PUBLIC_KEY", "{l:8}"), ("MONGODB_ATLAS_PRIVATE_KEY", "{uuid}"))
V("upstash_redis_token", "database", ("UPSTASH_REDIS_REST_URL", "https://{l:6}-{l:5}-{d:5}.upstash.io"), ("UPSTASH_REDIS_REST_TOKEN", "A{n:3}ASQgN{u:60}"))
V("turso_auth_token", "database", ("TURSO_AUTH_TOKEN", "{jwt_eddsa}"))
V("fauna_secret", "database", ("FAUNA_SECRET", "fnA{u:37}"))
V("aiven_token", "database", ("AIVEN_TOKEN", "{b:120}"))
V("databricks_pat", "database", ("DATABRICKS_HOST", "https://dbc-{h:8}-{h:4}.cloud.databricks.com"), ("DATABRICKS_TOKEN", "dapi{h:32}"))
V("snowflake_password", "database", ("SNOWFLAKE_ACCOUNT", "{l:7}-{l:2}{d:5}"), ("SNOWFLAKE_USER", "{user}"), ("SNOWFLAKE_PASSWORD", "{pw}"))
V("confluent_cloud_api_secret", "messaging", ("CONFLUENT_CLOUD_API_KEY", "{A:16}"), ("CONFLUENT_CLOUD_API_SECRET", "{n:64}"))
V("kafka_sasl_jaas", "messaging", ("sasl.jaas.config", 'org.apache.kafka.common.security.plain.PlainLoginModule required username="{A:16}" password="{n:64}";'))
# databases / connection strings
V("postgres_uri", "database", ("DATABASE_URL", "postgresql://{user}:{pw}@{host}:5432/{db}"))
V("postgres_uri_pooler", "database", ("DATABASE_URL", "postgres://{user}.{l:20}:{pw}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres?sslmode=require"))
V("mysql_uri", "database", ("MYSQL_URL", "mysql://{user}:{pw}@{host}:3306/{db}"))
V("mariadb_jdbc_params", "database", ("spring.datasource.url", "jdbc:mariadb://{host}:3306/{db}?user={user}&password={pw}"))
V("mongodb_srv_uri", "database", ("MONGODB_URI", "mongodb+srv://{user}:{pw}@cluster0.{a:5}.mongodb.net/{db}?retryWrites=true&w=majority"))
V("mongodb_replset_uri", "database", ("MONGO_URL", "mongodb://{user}:{pw}@{host}:27017/{db}?replicaSet=rs0&authSource=admin"))
V("redis_uri", "database", ("REDIS_URL", "redis://default:{pw}@{host}:6379/0"))
V("rediss_uri", "database", ("REDIS_TLS_URL", "rediss://:{pw}@{host}:6380"))
V("amqp_uri", "messaging", ("RABBITMQ_URL", "amqp://{user}:{pw}@{host}:5672/%2F"))
V("cloudamqp_uri", "messaging", ("CLOUDAMQP_URL", "amqps://{l:8}:{u:32}@{l:5}.rmq.cloudamqp.com/{l:8}"))
V("mssql_connection_string", "database", ("ConnectionStrings__Default", "Server=tcp:{host},1433;Initial Catalog={db};Persist Security Info=False;User ID={user};Password={pw};Encrypt=True;"))
V("oracle_jdbc_thin", "database", ("ORACLE_URL", "jdbc:oracle:thin:{user}/{pw}@//{host}:1521/ORCLPDB1"))
V("jdbc_postgres_params", "database", ("JDBC_URL", "jdbc:postgresql://{host}:5432/{db}?user={user}&password={pw}&ssl=true"))
V("sqlalchemy_uri", "database", ("SQLALCHEMY_DATABASE_URI", "postgresql+psycopg2://{user}:{pw}@{host}/{db}"))
V("cassandra_credentials", "database", ("CASSANDRA_CONTACT_POINTS", "{host}"), ("CASSANDRA_USERNAME", "{user}"), ("CASSANDRA_PASSWORD", "{pw}"))
V("neo4j_aura_password", "database", ("NEO4J_URI", "neo4j+s://{h:8}.databases.neo4j.io"), ("NEO4J_USERNAME", "neo4j"), ("NEO4J_PASSWORD", "{u:43}"))
V("clickhouse_dsn", "database", ("CLICKHOUSE_DSN", "clickhouse://{user}:{pw}@{host}:9440/{db}?secure=true"))
V("elasticsearch_basic_url", "database", ("ELASTICSEARCH_URL", "https://elastic:{pw}@{host}:9243"))
V("elastic_api_key", "observability", ("ELASTIC_API_KEY", "{b:58}=="))
V("couchdb_uri", "database", ("COUCHDB_URL", "http://admin:{pw}@{host}:5984/"))
V("influxdb_token", "database", ("INFLUX_TOKEN", "{u:86}=="))
V("cockroach_uri", "database", ("COCKROACH_URL", "postgresql://{user}:{pw}@{l:6}-{l:5}-{d:4}.{d:1}xc.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full"))
V("odbc_connection_string", "database", ("ODBC_CONNECTION", "DRIVER=SQL Server;SERVER={host};DATABASE={db};UID={user};PWD={pw}"))
V("ldap_bind_password", "identity", ("LDAP_URL", "ldaps://{host}:636"), ("LDAP_BIND_DN", "cn={user},ou=svc,dc=corp,dc=internal"), ("LDAP_BIND_PASSWORD", "{pw}"))
V("smtp_uri", "email", ("SMTP_URL", "smtp://{email_enc}:{pw}@smtp.{l:7}.com:587"))
V("ftp_uri", "network", ("FTP_URL", "ftp://{user}:{pw}@ftp.{l:7}.net/uploads"))
V("sftp_password", "network", ("SFTP_HOST", "{host}"), ("SFTP_USER", "{user}"), ("SFTP_PASSWORD", "{pw}"))
V("prisma_accelerate_url", "database", ("DATABASE_URL", "prisma://accelerate.prisma-data.net/?api_key={jwt}"))
V("git_https_credentials", "vcs", ("GIT_REMOTE", "https://{user}:{pw}@git.{l:6}.io/{l:5}/{l:7}.git"))
V("pip_index_url_credentials", "registry", ("PIP_INDEX_URL", "https://{user}:{u:32}@pypi.{l:6}.internal/simple"))
V("docker_auth_config", "registry", ("DOCKER_AUTH_CONFIG", "{docker_auth}"))
V("wordpress_db_password", "database", ("WORDPRESS_DB_PASSWORD", "{pw}"))
V("mysql_root_password", "database", ("MYSQL_ROOT_PASSWORD", "{pw}"))
V("postgres_password", "database", ("POSTGRES_PASSWORD", "{pw}"))
V("rabbitmq_default_pass", "messaging", ("RABBITMQ_DEFAULT_USER", "{user}"), ("RABBITMQ_DEFAULT_PASS", "{pw}"))
V("grafana_admin_password", "observability", ("GF_SECURITY_ADMIN_PASSWORD", "{pw}"))
V("mqtt_uri", "iot", ("MQTT_URL", "mqtts://{user}:{pw}@{host}:8883"))
# framework signing / encryption secrets
V("django_secret_key", "devtools", ("DJANGO_SECRET_KEY", "django-insecure-{j:50}"))
V("django_secret_key_plain", "devtools", ("SECRET_KEY", "{j:50}"))
V("rails_master_key", "devtools", ("RAILS_MASTER_KEY", "{h:32}"))
V("rails_secret_key_base", "devtools", ("SECRET_KEY_BASE", "{h:128}"))
V("laravel_app_key", "devtools", ("APP_KEY", "base64:{b:43}="))
V("flask_secret_key", "devtools", ("FLASK_SECRET_KEY", "{h:64}"))
V("nextauth_secret", "devtools", ("NEXTAUTH_SECRET", "{b:43}="))
V("jwt_signing_secret", "devtools", ("JWT_SECRET", "{u:64}"))
V("symfony_app_secret", "devtools", ("APP_SECRET", "{h:32}"))
V("aes_encryption_key", "devtools", ("ENCRYPTION_KEY", "{h:64}"))
V("express_session_secret", "devtools", ("SESSION_SECRET", "{n:48}"))
# AI APIs
V("openai_project_key", "ai", ("OPENAI_API_KEY", "sk-proj-{u:74}T3BlbkFJ{u:74}"))
V("openai_legacy_key", "ai", ("OPENAI_API_KEY", "sk-{n:20}T3BlbkFJ{n:20}"))
V("openai_service_account_key", "ai", ("OPENAI_API_KEY", "sk-svcacct-{u:74}T3BlbkFJ{u:74}"))
V("openai_admin_key", "ai", ("OPENAI_ADMIN_KEY", "sk-admin-{u:74}T3BlbkFJ{u:74}"))
V("anthropic_api_key", "ai", ("ANTHROPIC_API_KEY", "sk-ant-api03-{u:93}AA"))
V("anthropic_admin_key", "ai", ("ANTHROPIC_ADMIN_KEY", "sk-ant-admin01-{u:93}AA"))
V("anthropic_oauth_token", "ai", ("CLAUDE_CODE_OAUTH_TOKEN", "sk-ant-oat01-{u:93}AA"))
V("huggingface_token", "ai", ("HF_TOKEN", "hf_{n:34}"))
V("huggingface_org_token", "ai", ("HUGGINGFACEHUB_API_TOKEN", "api_org_{n:34}"))
V("cohere_api_key", "ai", ("COHERE_API_KEY", "{n:40}"))
V("replicate_token", "ai", ("REPLICATE_API_TOKEN", "r8_{n:37}"))
V("groq_api_key", "ai", ("GROQ_API_KEY", "gsk_{n:52}"))
V("mistral_api_key", "ai", ("MISTRAL_API_KEY", "{n:32}"))
V("perplexity_api_key", "ai", ("PERPLEXITY_API_KEY", "pplx-{n:48}"))
V("deepseek_api_key", "ai", ("DEEPSEEK_API_KEY", "sk-{h:32}"))
V("xai_api_key", "ai", ("XAI_API_KEY", "xai-{n:80}"))
V("gemini_api_key", "ai", ("GEMINI_API_KEY", "AIzaSy{u:33}"))
V("together_api_key", "ai", ("TOGETHER_API_KEY", "tgp_v1_{u:43}"))
V("fireworks_api_key", "ai", ("FIREWORKS_API_KEY", "fw_{n:24}"))
V("openrouter_api_key", "ai", ("OPENROUTER_API_KEY", "sk-or-v1-{h:64}"))
V("elevenlabs_api_key", "ai", ("ELEVENLABS_API_KEY", "sk_{h:48}"))
V("assemblyai_api_key", "ai", ("ASSEMBLYAI_API_KEY", "{h:32}"))
V("deepgram_api_key", "ai", ("DEEPGRAM_API_KEY", "{h:40}"))
V("stability_api_key", "ai", ("STABILITY_API_KEY", "sk-{n:48}"))
V("pinecone_api_key", "ai", ("PINECONE_API_KEY", "pcsk_{n:5}_{n:63}"))
V("pinecone_legacy_key", "ai", ("PINECONE_ENVIRONMENT", "us-west1-gcp"), ("PINECONE_API_KEY", "{uuid}"))
V("langsmith_personal_token", "ai", ("LANGSMITH_API_KEY", "lsv2_pt_{h:32}_{h:10}"))
V("langsmith_service_key", "ai", ("LANGCHAIN_API_KEY", "lsv2_sk_{h:32}_{h:10}"))
V("wandb_api_key", "ai", ("WANDB_API_KEY", "{h:40}"))
V("voyage_api_key", "ai", ("VOYAGE_API_KEY", "pa-{u:43}"))
V("cerebras_api_key", "ai", ("CEREBRAS_API_KEY", "csk-{a:48}"))
V("langfuse_secret_key", "ai", ("LANGFUSE_PUBLIC_KEY", "pk-lf-{uuid}"), ("LANGFUSE_SECRET_KEY", "sk-lf-{uuid}"))
V("clarifai_pat", "ai", ("CLARIFAI_PAT", "{h:32}"))
V("ai21_api_key", "ai", ("AI21_API_KEY", "{n:32}"))
V("nvidia_api_key", "ai", ("NVIDIA_API_KEY", "nvapi-{u:64}"))
V("runpod_api_key", "ai", ("RUNPOD_API_KEY", "rpa_{A:46}"))
V("modal_token", "ai", ("MODAL_TOKEN_ID", "ak-{n:22}"), ("MODAL_TOKEN_SECRET", "as-{n:22}"))
V("tavily_api_key", "ai", ("TAVILY_API_KEY", "tvly-{n:32}"))
V("serpapi_key", "ai", ("SERPAPI_API_KEY", "{h:64}"))
V("exa_api_key", "ai", ("EXA_API_KEY", "{uuid}"))
V("firecrawl_api_key", "ai", ("FIRECRAWL_API_KEY", "fc-{h:32}"))
V("jina_api_key", "ai", ("JINA_API_KEY", "jina_{h:32}{u:28}"))
V("qdrant_api_key", "ai", ("QDRANT_URL", "https://{uuid}.eu-central.aws.cloud.qdrant.io:6333"), ("QDRANT_API_KEY", "{u:32}"))
V("weaviate_api_key", "ai", ("WEAVIATE_API_KEY", "{n:40}"))
V("baseten_api_key", "ai", ("BASETEN_API_KEY", "{n:8}.{n:32}"))
# payments / commerce
V("stripe_live_secret_key", "payments", ("STRIPE_SECRET_KEY", "sk_live_51{n:97}"))
V("stripe_test_secret_key", "payments", ("STRIPE_SECRET_KEY", "sk_test_51{n:97}"))
V("stripe_restricted_live_key", "payments", ("STRIPE_RESTRICTED_KEY", "rk_live_51{n:97}"))
V("stripe_restricted_test_key", "payments", ("STRIPE_RESTRICTED_KEY", "rk_test_51{n:97}"))
V("stripe_webhook_secret", "payments", ("STRIPE_WEBHOOK_SECRET", "whsec_{n:32}"))
V("braintree_access_token", "payments", ("BRAINTREE_ACCESS_TOKEN", "access_token$production${a:16}${h:32}"))
V("braintree_private_key", "payments", ("BRAINTREE_MERCHANT_ID", "{a:16}"), ("BRAINTREE_PUBLIC_KEY", "{a:16}"), ("BRAINTREE_PRIVATE_KEY", "{h:32}"))
V("paypal_client_secret", "payments", ("PAYPAL_CLIENT_ID", "A{u:79}"), ("PAYPAL_CLIENT_SECRET", "E{u:79}"))
V("square_access_token", "payments", ("SQUARE_ACCESS_TOKEN", "EAAA{u:60}"))
V("square_oauth_secret", "payments", ("SQUARE_APPLICATION_SECRET", "sq0csp-{u:43}"))
V("square_legacy_token", "payments", ("SQUARE_TOKEN", "sq0atp-{u:22}"))
V("adyen_api_key", "payments", ("ADYEN_API_KEY", "AQE{n:130}"))
V("razorpay_key_secret", "payments", ("RAZORPAY_KEY_ID", "rzp_live_{n:14}"), ("RAZORPAY_KEY_SECRET", "{n:24}"))
V("paystack_secret_key", "payments", ("PAYSTACK_SECRET_KEY", "sk_live_{h:40}"))
V("flutterwave_secret_key", "payments", ("FLW_SECRET_KEY", "FLWSECK-{h:32}-X"))
V("flutterwave_test_secret_key", "payments", ("FLW_SECRET_KEY", "FLWSECK_TEST-{h:32}-X"))
V("flutterwave_encryption_key", "payments", ("FLW_ENCRYPTION_KEY", "FLWSECK_TEST{h:12}"))
V("mollie_live_key", "payments", ("MOLLIE_API_KEY", "live_{n:30}"))
V("mollie_test_key", "payments", ("MOLLIE_API_KEY", "test_{n:30}"))
V("checkout_sandbox_secret", "payments", ("CKO_SECRET_KEY", "sk_sbox_{a:26}"))
V("shopify_admin_token", "payments", ("SHOPIFY_ACCESS_TOKEN", "shpat_{h:32}"))
V("shopify_shared_secret", "payments", ("SHOPIFY_API_SECRET", "shpss_{h:32}"))
V("shopify_custom_app_token", "payments", ("SHOPIFY_CUSTOM_APP_TOKEN", "shpca_{h:32}"))
V("shopify_private_app_password", "payments", ("SHOPIFY_PRIVATE_APP_PASSWORD", "shppa_{h:32}"))
V("plaid_secret", "payments", ("PLAID_CLIENT_ID", "{h:24}"), ("PLAID_SECRET", "{h:30}"))
V("plaid_access_token", "payments", ("PLAID_ACCESS_TOKEN", "access-production-{uuid}"))
V("gocardless_token", "payments", ("GOCARDLESS_ACCESS_TOKEN", "live_{u:40}"))
V("paddle_api_key", "payments", ("PADDLE_API_KEY", "pdl_live_apikey_{a:26}_{n:22}_{n:3}"))
V("lemonsqueezy_api_key", "payments", ("LEMONSQUEEZY_API_KEY", "{jwt_rs}"))
V("wise_api_token", "payments", ("WISE_API_TOKEN", "{uuid}"))
V("coinbase_cdp_key", "crypto", ("CDP_API_KEY_NAME", "organizations/{uuid}/apiKeys/{uuid}"), ("CDP_API_KEY_PRIVATE_KEY", "{pem_ec}"))
V("coinbase_commerce_key", "payments", ("COINBASE_COMMERCE_API_KEY", "{uuid}"))
V("klarna_credentials", "payments", ("KLARNA_USERNAME", "K{d:6}_{h:12}"), ("KLARNA_PASSWORD", "{n:16}"))
V("dwolla_secret", "payments", ("DWOLLA_KEY", "{n:50}"), ("DWOLLA_SECRET", "{n:50}"))
V("authorize_net_transaction_key", "payments", ("AUTHNET_API_LOGIN_ID", "{n:10}"), ("AUTHNET_TRANSACTION_KEY", "{n:16}"))
V("mercadopago_access_token", "payments", ("MP_ACCESS_TOKEN", "APP_USR-{d:16}-{d:6}-{h:32}-{d:9}"))
V("xendit_secret_key", "payments", ("XENDIT_SECRET_KEY", "xnd_production_{n:50}"))
V("midtrans_server_key", "payments", ("MIDTRANS_SERVER_KEY", "Mid-server-{u:24}"))
V("revolut_business_token", "payments", ("REVOLUT_API_KEY", "oa_prod_{n:43}"))
V("chargebee_api_key", "payments", ("CHARGEBEE_SITE", "{l:8}"), ("CHARGEBEE_API_KEY", "live_{n:34}"))
V("recurly_api_key", "payments", ("RECURLY_API_KEY", "{h:32}"))
V("easypost_production_key", "saas", ("EASYPOST_API_KEY", "EZAK{h:54}"))
V("easypost_test_key", "saas", ("EASYPOST_TEST_KEY", "EZTK{h:54}"))
V("shippo_live_token", "saas", ("SHIPPO_API_TOKEN", "shippo_live_{h:40}"))
V("shippo_test_token", "saas", ("SHIPPO_TEST_TOKEN", "shippo_test_{h:40}"))
V("lob_live_key", "saas", ("LOB_API_KEY", "live_{h:35}"))
V("duffel_live_token", "saas", ("DUFFEL_ACCESS_TOKEN", "duffel_live_{u:43}"))
V("duffel_test_token", "saas", ("DUFFEL_TEST_TOKEN", "duffel_test_{u:43}"))
# VCS
V("github_classic_pat", "vcs", ("GITHUB_TOKEN", "ghp_{n:36}"))
V("github_oauth_token", "vcs", ("GH_OAUTH_TOKEN", "gho_{n:36}"))
V("github_user_to_server_token", "vcs", ("GITHUB_USER_TOKEN", "ghu_{n:36}"))
V("github_installation_token", "vcs", ("GITHUB_INSTALLATION_TOKEN", "ghs_{n:36}"))
V("github_refresh_token", "vcs", ("GITHUB_REFRESH_TOKEN", "ghr_{n:76}"))
V("github_fine_grained_pat", "vcs", ("GH_TOKEN", "github_pat_11{A:20}_{n:59}"))
V("github_app_private_key", "vcs", ("GITHUB_APP_ID", "{d:6}"), ("GITHUB_APP_PRIVATE_KEY", "{pem_rsa}"))
V("github_app_client_secret", "vcs", ("GITHUB_CLIENT_ID", "Iv23li{n:14}"), ("GITHUB_CLIENT_SECRET", "{h:40}"))
V("github_webhook_secret", "vcs", ("GITHUB_WEBHOOK_SECRET", "{n:40}"))
V("gitlab_pat", "vcs", ("GITLAB_TOKEN", "glpat-{u:20}"))
V("gitlab_deploy_token", "vcs", ("GITLAB_DEPLOY_USER", "gitlab+deploy-token-{d:6}"), ("GITLAB_DEPLOY_TOKEN", "gldt-{u:20}"))
V("gitlab_runner_token", "cicd", ("CI_RUNNER_TOKEN", "glrt-{u:20}"))
V("gitlab_runner_registration_token", "cicd", ("REGISTRATION_TOKEN", "GR1348941{u:20}"))
V("gitlab_pipeline_trigger_token", "cicd", ("TRIGGER_TOKEN", "glptt-{h:40}"))
V("gitlab_cicd_job_token", "cicd", ("CI_JOB_TOKEN", "glcbt-{h:2}_{u:20}"))
V("gitlab_oauth_app_secret", "vcs", ("GITLAB_OAUTH_SECRET", "gloas-{h:64}"))
V("gitlab_feed_token", "vcs", ("GITLAB_FEED_TOKEN", "glft-{u:20}"))
V("gitlab_incoming_mail_token", "vcs", ("INCOMING_EMAIL_TOKEN", "glimt-{a:25}"))
V("gitlab_agent_token", "cicd", ("KAS_AGENT_TOKEN", "glagent-{u:50}"))
V("gitlab_scim_token", "vcs", ("GITLAB_SCIM_TOKEN", "glsoat-{u:20}"))
V("gitlab_feature_flag_token", "vcs", ("UNLEASH_INSTANCE_TOKEN", "glffct-{u:20}"))
V("bitbucket_app_password", "vcs", ("BITBUCKET_APP_PASSWORD", "ATBB{n:32}{H:8}"))
V("bitbucket_access_token", "vcs", ("BITBUCKET_ACCESS_TOKEN", "ATCTT3xFfGN0{u:180}={H:8}"))
V("atlassian_api_token", "saas", ("JIRA_USER", "{email}"), ("JIRA_API_TOKEN", "ATATT3xFfGF0{u:180}={H:8}"))
V("gitea_token", "vcs", ("GITEA_TOKEN", "{h:40}"))
V("sourcegraph_token", "vcs", ("SRC_ACCESS_TOKEN", "sgp_{h:16}_{h:40}"))
V("sourcegraph_local_token", "vcs", ("SRC_ACCESS_TOKEN", "sgp_local_{h:40}"))
V("gerrit_http_password", "vcs", ("GERRIT_HTTP_PASSWORD", "{n:42}"))
# CI/CD, secrets management, feature flags
V("circleci_pat", "cicd", ("CIRCLECI_TOKEN", "CCIPAT_{n:22}_{h:40}"))
V("circleci_project_token", "cicd", ("CIRCLE_PROJECT_TOKEN", "CCIPRJ_{n:22}_{h:40}"))
V("travis_api_token", "cicd", ("TRAVIS_API_TOKEN", "{u:22}"))
V("buildkite_api_token", "cicd", ("BUILDKITE_API_TOKEN", "bkua_{h:40}"))
V("buildkite_agent_token", "cicd", ("BUILDKITE_AGENT_TOKEN", "{h:50}"))
V("drone_token", "cicd", ("DRONE_SERVER", "https://drone.{l:6}.dev"), ("DRONE_TOKEN", "{n:32}"))
V("jenkins_api_token", "cicd", ("JENKINS_USER", "{user}"), ("JENKINS_API_TOKEN", "11{h:32}"))
V("teamcity_token", "cicd", ("TEAMCITY_TOKEN", "eyJ0eXAiOiAiVENWMiJ9.{u:36}.{u:48}"))
V("octopus_api_key", "cicd", ("OCTOPUS_API_KEY", "API-{A:26}"))
V("harness_pat", "cicd", ("HARNESS_PLATFORM_API_KEY", "pat.{u:22}.{h:24}.{n:20}"))
V("codecov_token", "cicd", ("CODECOV_TOKEN", "{uuid}"))
V("sonarqube_user_token", "cicd", ("SONAR_TOKEN", "squ_{h:40}"))
V("sonarqube_project_token", "cicd", ("SONAR_TOKEN", "sqp_{h:40}"))
V("sonarqube_global_token", "cicd", ("SONAR_TOKEN", "sqa_{h:40}"))
V("snyk_token", "cicd", ("SNYK_TOKEN", "{uuid}"))
V("terraform_cloud_token", "cicd", ("TFE_TOKEN", "{n:14}.atlasv1.{u:67}"))
V("pulumi_access_token", "cicd", ("PULUMI_ACCESS_TOKEN", "pul-{h:40}"))
V("doppler_personal_token", "secrets_mgmt", ("DOPPLER_TOKEN", "dp.pt.{n:43}"))
V("doppler_service_token", "secrets_mgmt", ("DOPPLER_TOKEN", "dp.st.{l:3}.{n:40}"))
V("doppler_service_account_token", "secrets_mgmt", ("DOPPLER_TOKEN", "dp.sa.{n:43}"))
V("doppler_cli_token", "secrets_mgmt", ("DOPPLER_TOKEN", "dp.ct.{n:43}"))
V("doppler_scim_token", "secrets_mgmt", ("DOPPLER_SCIM_TOKEN", "dp.scim.{n:43}"))
V("vault_service_token", "secrets_mgmt", ("VAULT_ADDR", "https://vault.{l:6}.internal:8200"), ("VAULT_TOKEN", "hvs.{u:90}"))
V("vault_batch_token", "secrets_mgmt", ("VAULT_TOKEN", "hvb.{u:138}"))
V("vault_legacy_token", "secrets_mgmt", ("VAULT_TOKEN", "s.{n:24}"))
V("vault_approle_secret_id", "secrets_mgmt", ("VAULT_ROLE_ID", "{uuid}"), ("VAULT_SECRET_ID", "{uuid}"))
V("infisical_service_token", "secrets_mgmt", ("INFISICAL_TOKEN", "st.{uuid}.{h:32}.{h:32}"))
V("onepassword_service_account", "secrets_mgmt", ("OP_SERVICE_ACCOUNT_TOKEN", "ops_eyJ{b:300}"))
V("onepassword_connect_token", "secrets_mgmt", ("OP_CONNECT_HOST", "http://op-connect:8080"), ("OP_CONNECT_TOKEN", "{jwt_es}"))
V("bitwarden_sm_access_token", "secrets_mgmt", ("BWS_ACCESS_TOKEN", "0.{uuid}.{n:30}:{b:22}=="))
V("akeyless_access_key", "secrets_mgmt", ("AKEYLESS_ACCESS_ID", "p-{a:12}"), ("AKEYLESS_ACCESS_KEY", "{b:43}="))
V("launchdarkly_sdk_key", "devtools", ("LD_SDK_KEY", "sdk-{uuid}"))
V("launchdarkly_api_key", "devtools", ("LD_API_KEY", "api-{uuid}"))
V("statsig_server_secret", "devtools", ("STATSIG_SERVER_SECRET", "secret-{n:43}"))
V("unleash_admin_token", "devtools", ("UNLEASH_API_TOKEN", "*:*.{h:64}"))
V("argocd_auth_token", "cicd", ("ARGOCD_SERVER", "argocd.{l:6}.internal"), ("ARGOCD_AUTH_TOKEN", "{jwt}"))
V("spacelift_api_secret", "cicd", ("SPACELIFT_API_KEY_ID", "01{A:24}"), ("SPACELIFT_API_KEY_SECRET", "{h:64}"))
V("openshift_token", "cicd", ("OC_TOKEN", "sha256~{u:43}"))
V("browserstack_access_key", "cicd", ("BROWSERSTACK_USERNAME", "{l:8}_{A:6}"), ("BROWSERSTACK_ACCESS_KEY", "{n:20}"))
V("saucelabs_access_key", "cicd", ("SAUCE_USERNAME", "{user}"), ("SAUCE_ACCESS_KEY", "{uuid}"))
V("lambdatest_access_key", "cicd", ("LT_ACCESS_KEY", "LT_{n:47}"))
V("percy_token", "cicd", ("PERCY_TOKEN", "web_{h:64}"))
V("chromatic_project_token", "cicd", ("CHROMATIC_PROJECT_TOKEN", "chpt_{h:14}"))
V("cypress_record_key", "cicd", ("CYPRESS_RECORD_KEY", "{uuid}"))
V("fastlane_match_password", "cicd", ("MATCH_PASSWORD", "{pw}"))
V("apple_app_specific_password", "identity", ("FASTLANE_USER", "{email}"), ("FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD", "{l:4}-{l:4}-{l:4}-{l:4}"))
# registries
V("npm_token", "registry", ("NPM_TOKEN", "npm_{n:36}"))
V("npmrc_auth_token", "registry", ("//registry.npmjs.org/:_authToken", "npm_{n:36}"))
V("npm_legacy_token", "registry", ("NPM_AUTH_TOKEN", "{uuid}"))
V("pypi_token", "registry", ("PYPI_API_TOKEN", "pypi-AgEIcHlwaS5vcmc{u:140}"))
V("testpypi_token", "registry", ("TEST_PYPI_API_TOKEN", "pypi-AgENdGVzdC5weXBpLm9yZw{u:140}"))
V("rubygems_api_key", "registry", ("GEM_HOST_API_KEY", "rubygems_{h:48}"))
V("nuget_api_key", "registry", ("NUGET_API_KEY", "oy2{a:43}"))
V("dockerhub_pat", "registry", ("DOCKERHUB_USERNAME", "{user}"), ("DOCKERHUB_TOKEN", "dckr_pat_{u:27}"))
V("dockerhub_org_token", "registry", ("DOCKER_ORG_TOKEN", "dckr_oat_{u:32}"))
V("cratesio_token", "registry", ("CARGO_REGISTRY_TOKEN", "cio{n:32}"))
V("jfrog_api_key", "registry", ("ARTIFACTORY_API_KEY", "AKCp{n:69}"))
V("jfrog_reference_token", "registry", ("JFROG_ACCESS_TOKEN", "cmVmdGtuOjAxOj{n:50}"))
V("packagist_user_token", "registry", ("PACKAGIST_TOKEN", "packagist_uut_{h:68}"))
V("packagist_org_token", "registry", ("PACKAGIST_ORG_TOKEN", "packagist_ort_{h:68}"))
V("quay_robot_token", "registry", ("QUAY_ROBOT", "myorg+{l:6}"), ("QUAY_ROBOT_TOKEN", "{A:64}"))
V("clojars_token", "registry", ("CLOJARS_TOKEN", "CLOJARS_{h:60}"))
V("anaconda_token", "registry", ("ANACONDA_API_TOKEN", "{l:2}-{uuid}"))
V("maven_settings_password", "registry", ("maven.username", "{user}"), ("maven.password", "{pw}"))
V("gradle_publish_secret", "registry", ("gradle.publish.key", "{n:32}"), ("gradle.publish.secret", "{n:32}"))
V("sonatype_ossrh_token", "registry", ("OSSRH_USERNAME", "{n:8}"), ("OSSRH_TOKEN", "{n:44}"))
V("harbor_robot_secret", "registry", ("HARBOR_ROBOT_NAME", "robot$ci"), ("HARBOR_ROBOT_SECRET", "{n:32}"))
V("cloudsmith_api_key", "registry", ("CLOUDSMITH_API_KEY", "{h:40}"))
V("gemfury_token", "registry", ("GEMFURY_TOKEN", "{n:20}"))
V("hex_pm_api_key", "registry", ("HEX_API_KEY", "{h:32}"))
V("cocoapods_trunk_token", "registry", ("COCOAPODS_TRUNK_TOKEN", "{h:32}"))
V("chocolatey_api_key", "registry", ("CHOCO_API_KEY", "{uuid}"))
V("helm_repo_password", "registry", ("HELM_REPO_USERNAME", "{user}"), ("HELM_REPO_PASSWORD", "{pw}"))
# observability
V("datadog_api_and_app_key", "observability", ("DD_API_KEY", "{h:32}"), ("DD_APP_KEY", "{h:40}"))
V("datadog_api_key", "observability", ("DD_SITE", "datadoghq.eu"), ("DATADOG_API_KEY", "{h:32}"))
V("newrelic_user_key", "observability", ("NEW_RELIC_API_KEY", "NRAK-{A:27}"))
V("newrelic_insert_key", "observability", ("NEW_RELIC_INSERT_KEY", "NRII-{u:32}"))
V("newrelic_license_key", "observability", ("NEW_RELIC_LICENSE_KEY", "{h:36}NRAL"))
V("newrelic_admin_key", "observability", ("NEW_RELIC_ADMIN_KEY", "NRAA-{h:27}"))
V("newrelic_query_key", "observability", ("NEW_RELIC_QUERY_KEY", "NRIQ-{u:32}"))
V("sentry_org_token", "observability", ("SENTRY_AUTH_TOKEN", "sntrys_eyJpYXQiO{u:100}_{u:43}"))
V("sentry_user_token", "observability", ("SENTRY_AUTH_TOKEN", "sntryu_{h:64}"))
V("honeycomb_ingest_key", "observability", ("HONEYCOMB_API_KEY", "hcaik_01{a:58}"))
V("honeycomb_config_key", "observability", ("HONEYCOMB_WRITEKEY", "{n:22}"))
V("honeycomb_management_key", "observability", ("HONEYCOMB_MGMT_KEY", "hcxmk_01{a:26}"))
V("grafana_cloud_token", "observability", ("GRAFANA_CLOUD_TOKEN", "glc_eyJvIjoi{b:120}=="))
V("grafana_service_account_token", "observability", ("GRAFANA_SA_TOKEN", "glsa_{n:32}_{h:8}"))
V("grafana_legacy_api_key", "observability", ("GRAFANA_API_KEY", "eyJrIjoi{b:70}="))
V("splunk_hec_token", "observability", ("SPLUNK_HEC_URL", "https://http-inputs-{l:8}.splunkcloud.com:443"), ("SPLUNK_HEC_TOKEN", "{uuid}"))
V("dynatrace_api_token", "observability", ("DT_API_TOKEN", "dt0c01.{A:24}.{A:64}"))
V("dynatrace_platform_token", "observability", ("DT_PLATFORM_TOKEN", "dt0s16.{A:24}.{A:64}"))
V("logzio_token", "observability", ("LOGZIO_TOKEN", "{n:32}"))
V("loggly_token", "observability", ("LOGGLY_TOKEN", "{uuid}"))
V("papertrail_api_token", "observability", ("PAPERTRAIL_API_TOKEN", "{n:20}"))
V("bugsnag_api_key", "observability", ("BUGSNAG_API_KEY", "{h:32}"))
V("rollbar_access_token", "observability", ("ROLLBAR_ACCESS_TOKEN", "{h:32}"))
V("pagerduty_api_token", "observability", ("PAGERDUTY_TOKEN", "u+{u:18}"))
V("pagerduty_routing_key", "observability", ("PD_ROUTING_KEY", "R0{A:30}"))
V("opsgenie_api_key", "observability", ("OPSGENIE_API_KEY", "{uuid}"))
V("axiom_api_token", "observability", ("AXIOM_TOKEN", "xaat-{uuid}"))
V("axiom_personal_token", "observability", ("AXIOM_PERSONAL_TOKEN", "xapt-{uuid}"))
V("posthog_personal_key", "observability", ("POSTHOG_PERSONAL_API_KEY", "phx_{n:47}"))
V("mixpanel_service_account", "observability", ("MIXPANEL_SERVICE_ACCOUNT_USERNAME", "{l:8}.{d:6}.mp-service-account"), ("MIXPANEL_SERVICE_ACCOUNT_SECRET", "{n:32}"))
V("amplitude_secret_key", "observability", ("AMPLITUDE_API_KEY", "{h:32}"), ("AMPLITUDE_SECRET_KEY", "{h:32}"))
V("sumologic_access_key", "observability", ("SUMO_ACCESS_ID", "su{n:12}"), ("SUMO_ACCESS_KEY", "{n:64}"))
V("coralogix_private_key", "observability", ("CORALOGIX_PRIVATE_KEY", "cxtp_{n:30}"))
V("logtail_source_token", "observability", ("LOGTAIL_SOURCE_TOKEN", "{n:24}"))
V("checkly_api_key", "observability", ("CHECKLY_ACCOUNT_ID", "{uuid}"), ("CHECKLY_API_KEY", "cu_{h:32}"))
V("uptimerobot_api_key", "observability", ("UPTIMEROBOT_API_KEY", "u{d:7}-{h:24}"))
V("statuspage_api_key", "observability", ("STATUSPAGE_API_KEY", "{uuid}"))
V("instana_api_token", "observability", ("INSTANA_API_TOKEN", "{u:22}"))
V("lacework_api_secret", "observability", ("LW_API_KEY", "{A:4}_{H:50}"), ("LW_API_SECRET", "_{h:32}"))
# messaging / chat / social
V("slack_bot_token", "messaging", ("SLACK_BOT_TOKEN", "xoxb-{d:11}-{d:13}-{n:24}"))
V("slack_user_token", "messaging", ("SLACK_USER_TOKEN", "xoxp-{d:11}-{d:11}-{d:13}-{h:32}"))
V("slack_app_level_token", "messaging", ("SLACK_APP_TOKEN", "xapp-1-A{A:10}-{d:13}-{h:64}"))
V("slack_config_token", "messaging", ("SLACK_CONFIG_TOKEN", "xoxe.xoxp-1-{u:150}"))
V("slack_refresh_token", "messaging", ("SLACK_REFRESH_TOKEN", "xoxe-1-{u:140}"))
V("slack_workspace_token", "messaging", ("SLACK_TOKEN", "xoxa-2-{d:11}-{d:12}-{d:12}-{h:64}"))
V("slack_signing_secret", "messaging", ("SLACK_SIGNING_SECRET", "{h:32}"))
V("slack_d_cookie", "session", ("SLACK_D_COOKIE", "xoxd-{b:150}"))
V("discord_bot_token", "messaging", ("DISCORD_BOT_TOKEN", "{discord}"))
V("discord_client_secret", "messaging", ("DISCORD_CLIENT_ID", "{d:18}"), ("DISCORD_CLIENT_SECRET", "{u:32}"))
V("telegram_bot_token", "messaging", ("TELEGRAM_BOT_TOKEN", "{d:10}:AA{u:33}"))
V("twilio_auth_token", "messaging", ("TWILIO_ACCOUNT_SID", "AC{h:32}"), ("TWILIO_AUTH_TOKEN", "{h:32}"))
V("twilio_api_key_secret", "messaging", ("TWILIO_API_KEY", "SK{h:32}"), ("TWILIO_API_SECRET", "{n:32}"))
V("vonage_api_secret", "messaging", ("VONAGE_API_KEY", "{h:8}"), ("VONAGE_API_SECRET", "{n:16}"))
V("messagebird_access_key", "messaging", ("MESSAGEBIRD_ACCESS_KEY", "{n:25}"))
V("sinch_api_token", "messaging", ("SINCH_SERVICE_PLAN_ID", "{h:32}"), ("SINCH_API_TOKEN", "{h:32}"))
V("plivo_auth_token", "messaging", ("PLIVO_AUTH_ID", "MA{A:18}"), ("PLIVO_AUTH_TOKEN", "{n:40}"))
V("line_channel_token", "messaging", ("LINE_CHANNEL_SECRET", "{h:32}"), ("LINE_CHANNEL_ACCESS_TOKEN", "{b:171}="))
V("facebook_page_token", "social", ("FB_PAGE_ACCESS_TOKEN", "EAAG{n:180}"))
V("whatsapp_cloud_token", "messaging", ("WHATSAPP_PHONE_NUMBER_ID", "1{d:14}"), ("WHATSAPP_TOKEN", "EAAJ{n:200}"))
V("facebook_app_secret", "social", ("FACEBOOK_APP_ID", "{d:16}"), ("FACEBOOK_APP_SECRET", "{h:32}"))
V("instagram_access_token", "social", ("IG_ACCESS_TOKEN", "IGQV{u:200}"))
V("twitter_bearer_token", "social", ("TWITTER_BEARER_TOKEN", "AAAAAAAAAAAAAAAAAAAAA{n:25}%3D{n:50}"))
V("twitter_oauth1_keys", "social", ("TWITTER_API_KEY", "{n:25}"), ("TWITTER_ACCESS_TOKEN", "{d:19}-{n:30}"), ("TWITTER_API_SECRET", "{n:50}"), ("TWITTER_ACCESS_SECRET", "{n:45}"))
V("linkedin_client_secret", "social", ("LINKEDIN_CLIENT_ID", "{a:14}"), ("LINKEDIN_CLIENT_SECRET", "WPL_AP1.{n:16}.{b:8}=="))
V("reddit_client_secret", "social", ("REDDIT_CLIENT_ID", "{u:22}"), ("REDDIT_CLIENT_SECRET", "{u:30}"))
V("mattermost_pat", "messaging", ("MM_SERVICESETTINGS_SITEURL", "https://chat.{l:6}.org"), ("MM_TOKEN", "{a:26}"))
V("rocketchat_pat", "messaging", ("ROCKETCHAT_USER_ID", "{n:17}"), ("ROCKETCHAT_AUTH_TOKEN", "{u:43}"))
V("zulip_api_key", "messaging", ("ZULIP_EMAIL", "bot@{l:6}.zulipchat.com"), ("ZULIP_API_KEY", "{n:32}"))
V("pusher_secret", "messaging", ("PUSHER_APP_ID", "{d:7}"), ("PUSHER_KEY", "{h:20}"), ("PUSHER_SECRET", "{h:20}"))
V("ably_api_key", "messaging", ("ABLY_API_KEY", "{u:6}.{u:6}:{u:43}"))
V("intercom_access_token", "saas", ("INTERCOM_ACCESS_TOKEN", "dG9rOj{b:54}="))
V("sendbird_api_token", "messaging", ("SENDBIRD_APP_ID", "{UUID}"), ("SENDBIRD_API_TOKEN", "{h:40}"))
V("stream_api_secret", "messaging", ("STREAM_API_KEY", "{a:12}"), ("STREAM_API_SECRET", "{a:64}"))
V("onesignal_rest_key", "messaging", ("ONESIGNAL_REST_API_KEY", "os_v2_app_{a:100}"))
V("expo_access_token", "messaging", ("EXPO_TOKEN", "{u:40}"))
V("apns_auth_key", "messaging", ("APNS_KEY_ID", "{A:10}"), ("APNS_AUTH_KEY", "{pem_p8}"))
V("pushover_token", "messaging", ("PUSHOVER_USER", "u{a:29}"), ("PUSHOVER_TOKEN", "a{a:29}"))
V("gitter_token", "messaging", ("GITTER_TOKEN", "{h:40}"))
V("twitch_client_secret", "social", ("TWITCH_CLIENT_ID", "{a:30}"), ("TWITCH_CLIENT_SECRET", "{a:30}"))
V("twitch_oauth_token", "social", ("TWITCH_OAUTH", "oauth:{a:30}"))
V("spotify_client_secret", "social", ("SPOTIPY_CLIENT_ID", "{h:32}"), ("SPOTIPY_CLIENT_SECRET", "{h:32}"))
# email
V("sendgrid_api_key", "email", ("SENDGRID_API_KEY", "SG.{u:22}.{u:43}"))
V("mailgun_legacy_key", "email", ("MAILGUN_API_KEY", "key-{h:32}"))
V("mailgun_api_key", "email", ("MAILGUN_DOMAIN", "mg.{l:8}.com"), ("MAILGUN_API_KEY", "{h:32}-{h:8}-{h:8}"))
V("mailgun_webhook_signing_key", "email", ("MAILGUN_WEBHOOK_SIGNING_KEY", "{h:32}"))
V("mailchimp_api_key", "email", ("MAILCHIMP_API_KEY", "{h:32}-us{d:2}"))
V("mandrill_api_key", "email", ("MANDRILL_API_KEY", "md-{u:22}"))
V("postmark_server_token", "email", ("POSTMARK_SERVER_TOKEN", "{uuid}"))
V("sparkpost_api_key", "email", ("SPARKPOST_API_KEY", "{h:40}"))
V("brevo_api_key", "email", ("BREVO_API_KEY", "xkeysib-{h:64}-{n:16}"))
V("brevo_smtp_key", "email", ("BREVO_SMTP_KEY", "xsmtpsib-{h:64}-{n:16}"))
V("resend_api_key", "email", ("RESEND_API_KEY", "re_{n:8}_{n:24}"))
V("mailjet_keys", "email", ("MJ_APIKEY_PUBLIC", "{h:32}"), ("MJ_APIKEY_PRIVATE", "{h:32}"))
V("mailersend_token", "email", ("MAILERSEND_API_KEY", "mlsn.{h:64}"))
V("mailtrap_token", "email", ("MAILTRAP_API_TOKEN", "{h:32}"))
V("smtp_password", "email", ("SMTP_HOST", "smtp.{l:8}.com"), ("SMTP_USER", "{email}"), ("SMTP_PASS", "{pw}"))
V("gmail_app_password", "email", ("GMAIL_USER", "{email}"), ("GMAIL_APP_PASSWORD", "{l:4} {l:4} {l:4} {l:4}"))
V("convertkit_api_secret", "email", ("CONVERTKIT_API_SECRET", "{u:43}"))
V("loops_api_key", "email", ("LOOPS_API_KEY", "{h:32}"))
V("customerio_app_key", "email", ("CUSTOMERIO_APP_API_KEY", "{h:32}"))
V("klaviyo_private_key", "email", ("KLAVIYO_PRIVATE_API_KEY", "pk_{h:34}"))
V("elasticemail_api_key", "email", ("ELASTICEMAIL_API_KEY", "{H:96}"))
V("mailerlite_token", "email", ("MAILERLITE_API_KEY", "{jwt_rs}"))
V("zeptomail_token", "email", ("ZEPTOMAIL_TOKEN", "Zoho-enczapikey wSsVR6{b:120}=="))
# identity
V("okta_api_token", "identity", ("OKTA_ORG_URL", "https://{l:8}.okta.com"), ("OKTA_API_TOKEN", "00{u:40}"))
V("auth0_client_secret", "identity", ("AUTH0_DOMAIN", "{l:8}.eu.auth0.com"), ("AUTH0_CLIENT_ID", "{n:32}"), ("AUTH0_CLIENT_SECRET", "{u:64}"))
V("onelogin_client_secret", "identity", ("ONELOGIN_CLIENT_ID", "{h:64}"), ("ONELOGIN_CLIENT_SECRET", "{h:64}"))
V("keycloak_client_secret", "identity", ("KEYCLOAK_CLIENT_ID", "backend"), ("KEYCLOAK_CLIENT_SECRET", "{n:32}"))
V("clerk_secret_key", "identity", ("CLERK_SECRET_KEY", "sk_live_{n:40}"))
V("clerk_test_secret_key", "identity", ("CLERK_SECRET_KEY", "sk_test_{n:40}"))
V("stytch_secret", "identity", ("STYTCH_PROJECT_ID", "project-live-{uuid}"), ("STYTCH_SECRET", "secret-live-{u:36}"))
V("workos_api_key", "identity", ("WORKOS_CLIENT_ID", "client_01{A:24}"), ("WORKOS_API_KEY", "sk_{n:60}"))
V("duo_secret_key", "identity", ("DUO_HOST", "api-{h:8}.duosecurity.com"), ("DUO_IKEY", "DI{A:18}"), ("DUO_SKEY", "{n:40}"))
V("jumpcloud_api_key", "identity", ("JUMPCLOUD_API_KEY", "jca_{n:36}"))
V("magic_secret_key", "identity", ("MAGIC_SECRET_KEY", "sk_live_{H:16}"))
V("descope_management_key", "identity", ("DESCOPE_MANAGEMENT_KEY", "K{n:27}:{u:100}"))
V("frontegg_api_key", "identity", ("FRONTEGG_CLIENT_ID", "{uuid}"), ("FRONTEGG_API_KEY", "{uuid}"))
V("pingone_client_secret", "identity", ("PINGONE_CLIENT_SECRET", "{u:64}"))
V("fusionauth_api_key", "identity", ("FUSIONAUTH_API_KEY", "{u:64}"))
V("cognito_client_secret", "identity", ("COGNITO_CLIENT_ID", "{a:26}"), ("COGNITO_CLIENT_SECRET", "{a:51}"))
V("kinde_client_secret", "identity", ("KINDE_CLIENT_SECRET", "{n:48}"))
V("oidc_client_secret", "identity", ("OIDC_ISSUER", "https://sso.{l:7}.com/realms/main"), ("OIDC_CLIENT_SECRET", "{u:43}"))
V("microsoft_graph_bearer", "jwt", ("Authorization", "Bearer {jwt_rs}"))
# crypto / web3
V("eth_private_key", "crypto", ("PRIVATE_KEY", "0x{h:64}"))
V("eth_private_key_raw", "crypto", ("DEPLOYER_PRIVATE_KEY", "{h:64}"))
V("btc_wif_private_key", "crypto", ("BTC_WIF", "{wif}"))
V("btc_xprv", "crypto", ("XPRV", "{xprv}"))
V("solana_private_key_b58", "crypto", ("SOLANA_PRIVATE_KEY", "{sol}"))
V("solana_keypair_json", "crypto", ("SOLANA_KEYPAIR", "{sol_json}"))
V("bip39_mnemonic_12", "crypto", ("MNEMONIC", "{bip39_12}"))
V("bip39_mnemonic_24", "crypto", ("WALLET_SEED", "{bip39_24}"))
V("infura_project_secret", "crypto", ("INFURA_PROJECT_ID", "{h:32}"), ("INFURA_PROJECT_SECRET", "{h:32}"))
V("alchemy_api_key", "crypto", ("ALCHEMY_API_KEY", "{u:32}"))
V("alchemy_rpc_url", "crypto", ("RPC_URL", "https://eth-mainnet.g.alchemy.com/v2/{u:32}"))
V("infura_rpc_url", "crypto", ("MAINNET_RPC_URL", "https://mainnet.infura.io/v3/{h:32}"))
V("etherscan_api_key", "crypto", ("ETHERSCAN_API_KEY", "{A:34}"))
V("binance_api_secret", "crypto", ("BINANCE_API_KEY", "{n:64}"), ("BINANCE_API_SECRET", "{n:64}"))
V("kraken_private_key", "crypto", ("KRAKEN_API_KEY", "{b:56}"), ("KRAKEN_PRIVATE_KEY", "{b:86}=="))
V("kucoin_api_secret", "crypto", ("KUCOIN_KEY", "{h:24}"), ("KUCOIN_PASSPHRASE", "{pw}"), ("KUCOIN_SECRET", "{uuid}"))
V("bybit_api_secret", "crypto", ("BYBIT_API_KEY", "{n:18}"), ("BYBIT_API_SECRET", "{n:36}"))
V("monero_spend_key", "crypto", ("spend_key", "{h:64}"))
V("nostr_nsec", "crypto", ("NOSTR_NSEC", "nsec1{c:58}"))
V("moralis_api_key", "crypto", ("MORALIS_API_KEY", "{n:64}"))
V("quicknode_url", "crypto", ("QUICKNODE_URL", "https://{l:6}-{l:5}-{l:6}.quiknode.pro/{h:40}/"))
# private keys in armour
V("pem_rsa_pkcs1", "private_key", ("server.key", "{pem_rsa}"))
V("pem_pkcs8", "private_key", ("tls.key", "{pem_pkcs8}"))
V("pem_ec", "private_key", ("ec.key", "{pem_ec}"))
V("pem_ed25519_pkcs8", "private_key", ("signing.key", "{pem_ed25519}"))
V("pem_dsa", "private_key", ("dsa.key", "{pem_dsa}"))
V("openssh_private_key", "private_key", ("id_ed25519", "{openssh}"))
V("putty_ppk", "private_key", ("deploy.ppk", "{putty}"))
V("pgp_private_key_block", "private_key", ("signing-key.asc", "{pgp_priv}"))
V("jwk_rsa_private", "private_key", ("JWK", "{jwk_rsa}"))
V("jwk_ec_private", "private_key", ("JWK", "{jwk_ec}"))
V("jwk_okp_private", "private_key", ("JWK", "{jwk_okp}"))
V("age_secret_key", "private_key", ("AGE_SECRET_KEY", "AGE-SECRET-KEY-1{C:58}"))
V("wireguard_private_key", "network", ("Address", "10.8.0.{d:1}/24"), ("PrivateKey", "{b:43}="))
V("kubeconfig_client_key_data", "private_key", ("client-certificate-data", "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t{b:120}"), ("client-key-data", "{b64pem}"))
V("pkcs12_keystore_password", "private_key", ("KEYSTORE_PATH", "/etc/ssl/app.p12"), ("KEYSTORE_PASSWORD", "{pw}"))
V("android_keystore_passwords", "private_key", ("keyAlias", "upload"), ("storePassword", "{pw}"), ("keyPassword", "{pw}"))
V("appstore_connect_p8", "private_key", ("ISSUER_ID", "{uuid}"), ("APP_STORE_CONNECT_API_KEY", "{pem_p8}"))
V("openvpn_static_key", "network", ("ta.key", "{ovpn_static}"))
V("tailscale_auth_key", "network", ("TS_AUTHKEY", "tskey-auth-k{n:10}CNTRL-{n:33}"))
V("tailscale_api_key", "network", ("TAILSCALE_API_KEY", "tskey-api-k{n:10}CNTRL-{n:33}"))
V("ngrok_authtoken", "network", ("NGROK_AUTHTOKEN", "2{n:26}_{n:21}"))
V("zerotier_api_token", "network", ("ZEROTIER_API_TOKEN", "{n:32}"))
V("ipsec_psk", "network", ("IPSEC_PSK", "{n:32}"))
V("defined_networking_key", "network", ("DN_API_KEY", "dnkey-{A:26}-{A:52}"))
# webhooks with secret paths
V("slack_incoming_webhook", "webhook", ("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T{A:8}/B{A:10}/{n:24}"))
V("slack_workflow_webhook", "webhook", ("SLACK_WORKFLOW_URL", "https://hooks.slack.com/triggers/T{A:8}/{d:13}/{h:32}"))
V("discord_webhook", "webhook", ("DISCORD_WEBHOOK", "https://discord.com/api/webhooks/1{d:18}/{u:68}"))
V("teams_incoming_webhook", "webhook", ("TEAMS_WEBHOOK_URL", "https://{l:7}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h:32}/{uuid}/V2{u:43}"))
V("teams_workflow_webhook", "webhook", ("TEAMS_FLOW_URL", "https://prod-{d:2}.westeurope.logic.azure.com:443/workflows/{h:32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={u:43}"))
V("google_chat_webhook", "webhook", ("GCHAT_WEBHOOK", "https://chat.googleapis.com/v1/spaces/AAAA{u:7}/messages?key=AIzaSy{u:33}&token={u:43}%3D"))
V("zapier_catch_hook", "webhook", ("ZAPIER_HOOK", "https://hooks.zapier.com/hooks/catch/{d:7}/{a:7}/"))
V("ifttt_webhook_key", "webhook", ("IFTTT_WEBHOOK", "https://maker.ifttt.com/trigger/door_open/with/key/{u:22}"))
V("mattermost_incoming_webhook", "webhook", ("MATTERMOST_HOOK", "https://chat.{l:7}.io/hooks/{a:26}"))
V("dingtalk_robot_webhook", "webhook", ("DINGTALK_WEBHOOK", "https://oapi.dingtalk.com/robot/send?access_token={h:64}"))
V("dingtalk_robot_secret", "webhook", ("DINGTALK_SECRET", "SEC{h:64}"))
V("feishu_bot_webhook", "webhook", ("FEISHU_WEBHOOK", "https://open.feishu.cn/open-apis/bot/v2/hook/{uuid}"))
V("wecom_bot_webhook", "webhook", ("WECOM_WEBHOOK", "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uuid}"))
V("make_webhook", "webhook", ("MAKE_WEBHOOK", "https://hook.eu1.make.com/{a:32}"))
V("rocketchat_webhook", "webhook", ("RC_HOOK", "https://chat.{l:6}.org/hooks/{n:17}/{n:48}"))
V("webex_incoming_webhook", "webhook", ("WEBEX_HOOK", "https://webexapis.com/v1/webhooks/incoming/Y2lzY29zcGFyazovL3VzL1dFQkhPT0sv{b:48}"))
V("telegram_send_url", "webhook", ("ALERT_URL", "https://api.telegram.org/bot{d:10}:AA{u:33}/sendMessage?chat_id=-100{d:10}"))
V("n8n_webhook", "webhook", ("N8N_WEBHOOK", "https://{l:6}.app.n8n.cloud/webhook/{uuid}"))
V("gitlab_webhook_token", "webhook", ("X-Gitlab-Token", "{h:32}"))
V("uptime_kuma_push_url", "webhook", ("PUSH_URL", "https://status.{l:6}.net/api/push/{n:10}?status=up&msg=OK&ping="))
V("healthchecks_ping_url", "webhook", ("HC_PING_URL", "https://hc-ping.com/{uuid}"))
V("home_assistant_webhook", "webhook", ("HA_WEBHOOK", "https://{l:6}.duckdns.org:8123/api/webhook/{u:40}"))
V("netlify_build_hook", "webhook", ("BUILD_HOOK", "https://api.netlify.com/build_hooks/{h:24}"))
V("vercel_deploy_hook", "webhook", ("DEPLOY_HOOK", "https://api.vercel.com/v1/integrations/deploy/prj_{n:28}/{n:10}"))
# session cookies and bearer JWTs
V("django_session_cookie", "session", ("Cookie", "sessionid={a:32}; csrftoken={n:32}"))
V("express_session_cookie", "session", ("Cookie", "connect.sid=s%3A{u:32}.{u:43}"))
V("jsessionid_cookie", "session", ("Cookie", "JSESSIONID={H:32}"))
V("phpsessid_cookie", "session", ("Cookie", "PHPSESSID={a:26}"))
V("laravel_session_cookie", "session", ("Cookie", "laravel_session=eyJpdiI6I{b:200}%3D"))
V("rails_session_cookie", "session", ("Cookie", "_shop_session={b:120}--{h:40}"))
V("aspnet_auth_cookie", "session", ("Cookie", "ASP.NET_SessionId={a:24}; .AspNetCore.Cookies=CfDJ8{u:180}"))
V("nextauth_session_cookie", "session", ("Cookie", "__Secure-next-auth.session-token={jwe}"))
V("wordpress_logged_in_cookie", "session", ("Cookie", "wordpress_logged_in_{h:32}={user}%7C{d:10}%7C{n:43}%7C{h:64}"))
V("github_user_session_cookie", "session", ("Cookie", "user_session={u:48}; __Host-user_session_same_site={u:48}"))
V("supabase_auth_cookie", "session", ("Cookie", "sb-{a:20}-auth-token=base64-eyJ{b:200}"))
V("flask_session_cookie", "session", ("Cookie", "session=eyJ{u:40}.{u:6}.{u:27}"))
V("grafana_session_cookie", "session", ("Cookie", "grafana_session={h:32}"))
V("jupyter_token_url", "session", ("JUPYTER_URL", "http://127.0.0.1:8888/lab?token={h:48}"))
V("kibana_sid_cookie", "session", ("Cookie", "sid=Fe26.2**{h:64}*{u:22}*{u:200}**{h:64}*{u:43}"))
V("google_sid_cookie", "session", ("Cookie", "SID=g.a000{u:60}; __Secure-1PSID=g.a000{u:60}"))
V("cloudflare_access_cookie", "session", ("Cookie", "CF_Authorization={jwt_rs}"))
V("bearer_jwt_hs256", "jwt", ("Authorization", "Bearer {jwt}"))
V("bearer_jwt_es256", "jwt", ("Authorization", "Bearer {jwt_es}"))
V("k8s_service_account_token", "jwt", ("token", "{jwt_k8s}"))
V("home_assistant_long_lived_token", "iot", ("HASS_TOKEN", "{jwt}"))
# SaaS
V("airtable_pat", "saas", ("AIRTABLE_API_KEY", "pat{n:14}.{h:64}"))
V("airtable_legacy_key", "saas", ("AIRTABLE_API_KEY", "key{n:14}"))
V("notion_integration_secret", "saas", ("NOTION_TOKEN", "secret_{n:43}"))
V("notion_ntn_token", "saas", ("NOTION_API_KEY", "ntn_{d:11}{n:35}"))
V("linear_api_key", "saas", ("LINEAR_API_KEY", "lin_api_{n:40}"))
V("linear_oauth_token", "saas", ("LINEAR_OAUTH_TOKEN", "lin_oauth_{h:64}"))
V("asana_pat", "saas", ("ASANA_PAT", "2/{d:16}/{d:16}:{h:32}"))
V("asana_legacy_pat", "saas", ("ASANA_TOKEN", "1/{d:16}:{h:32}"))
V("trello_token", "saas", ("TRELLO_API_KEY", "{h:32}"), ("TRELLO_TOKEN", "ATTA{h:64}{H:8}"))
V("clickup_api_token", "saas", ("CLICKUP_API_TOKEN", "pk_{d:8}_{A:32}"))
V("monday_api_token", "saas", ("MONDAY_API_TOKEN", "{jwt}"))
V("hubspot_pat_na", "saas", ("HUBSPOT_ACCESS_TOKEN", "pat-na1-{uuid}"))
V("hubspot_pat_eu", "saas", ("HUBSPOT_TOKEN", "pat-eu1-{uuid}"))
V("salesforce_access_token", "saas", ("SF_INSTANCE_URL", "https://{l:8}.my.salesforce.com"), ("SF_ACCESS_TOKEN", "00D{A:12}!{u:96}"))
V("salesforce_consumer_secret", "saas", ("SF_CONSUMER_KEY", "3MVG9{u:80}"), ("SF_CONSUMER_SECRET", "{H:64}"))
V("zendesk_api_token", "saas", ("ZENDESK_EMAIL", "{email}"), ("ZENDESK_API_TOKEN", "{n:40}"))
V("freshdesk_api_key", "saas", ("FRESHDESK_DOMAIN", "{l:8}.freshdesk.com"), ("FRESHDESK_API_KEY", "{n:20}"))
V("typeform_token", "saas", ("TYPEFORM_TOKEN", "tfp_{u:44}_{u:14}"))
V("figma_token", "saas", ("FIGMA_TOKEN", "figd_{u:40}"))
V("dropbox_short_lived_token", "saas", ("DROPBOX_ACCESS_TOKEN", "sl.u.{u:140}"))
V("dropbox_refresh_token", "saas", ("DROPBOX_APP_KEY", "{a:15}"), ("DROPBOX_REFRESH_TOKEN", "{n:11}AAAAAAAAAA{u:32}"))
V("box_developer_token", "saas", ("BOX_DEVELOPER_TOKEN", "{n:32}"))
V("zoom_s2s_secret", "saas", ("ZOOM_ACCOUNT_ID", "{u:22}"), ("ZOOM_CLIENT_ID", "{n:22}"), ("ZOOM_CLIENT_SECRET", "{n:32}"))
V("calendly_pat", "saas", ("CALENDLY_TOKEN", "{jwt}"))
V("docusign_secret_key", "saas", ("DOCUSIGN_INTEGRATION_KEY", "{uuid}"), ("DOCUSIGN_SECRET_KEY", "{uuid}"))
V("adobe_client_secret", "saas", ("ADOBE_CLIENT_ID", "{h:32}"), ("ADOBE_CLIENT_SECRET", "p8e-{u:32}"))
V("contentful_management_token", "saas", ("CONTENTFUL_MANAGEMENT_TOKEN", "CFPAT-{u:43}"))
V("sanity_api_token", "saas", ("SANITY_PROJECT_ID", "{a:8}"), ("SANITY_API_TOKEN", "sk{n:78}"))
V("storyblok_management_token", "saas", ("STORYBLOK_MANAGEMENT_TOKEN", "{n:22}-{d:6}-{u:20}"))
V("algolia_admin_key", "saas", ("ALGOLIA_APP_ID", "{A:10}"), ("ALGOLIA_ADMIN_KEY", "{h:32}"))
V("mapbox_secret_token", "saas", ("MAPBOX_SECRET_TOKEN", "sk.eyJ1Ijoi{b:30}IiwiYSI6I{b:30}In0.{u:22}"))
V("postman_api_key", "saas", ("POSTMAN_API_KEY", "PMAK-{h:24}-{h:34}"))
V("readme_api_key", "saas", ("README_API_KEY", "rdme_{a:70}"))
V("prefect_api_key", "saas", ("PREFECT_API_KEY", "pnu_{n:36}"))
V("dbt_cloud_token", "saas", ("DBT_CLOUD_API_TOKEN", "dbtc_{u:50}"))
V("fivetran_api_secret", "saas", ("FIVETRAN_API_KEY", "{n:16}"), ("FIVETRAN_API_SECRET", "{n:32}"))
V("frameio_token", "saas", ("FRAMEIO_TOKEN", "fio-u-{u:64}"))
V("intra42_client_secret", "saas", ("FT_UID", "u-s4t2ud-{h:64}"), ("FT_SECRET", "s-s4t2ud-{h:64}"))
V("yandex_oauth_token", "cloud", ("YANDEX_OAUTH", "y0_{u:55}"))
V("yandex_cloud_api_key", "cloud", ("YC_API_KEY", "AQVN{u:36}"))
V("yandex_iam_token", "cloud", ("YC_IAM_TOKEN", "t1.{u:150}"))
V("rapidapi_key", "saas", ("X-RapidAPI-Key", "{h:10}msh{h:15}p1{h:6}jsn{h:12}"))
V("settlemint_pat", "saas", ("SETTLEMINT_TOKEN", "sm_pat_{a:16}"))
V("beamer_api_key", "saas", ("BEAMER_API_KEY", "b_{u:44}"))
V("scalingo_api_token", "cloud", ("SCALINGO_API_TOKEN", "tk-us-{u:48}"))
V("pipedrive_api_token", "saas", ("PIPEDRIVE_API_TOKEN", "{h:40}"))
V("smartsheet_token", "saas", ("SMARTSHEET_ACCESS_TOKEN", "{n:37}"))
V("miro_access_token", "saas", ("MIRO_TOKEN", "eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{u:27}"))
V("webflow_api_token", "saas", ("WEBFLOW_API_TOKEN", "{h:64}"))
V("ghost_admin_api_key", "saas", ("GHOST_ADMIN_API_KEY", "{h:24}:{h:64}"))
V("strapi_api_token", "saas", ("STRAPI_API_TOKEN", "{h:256}"))
V("zoho_refresh_token", "saas", ("ZOHO_REFRESH_TOKEN", "1000.{h:32}.{h:32}"))
V("xero_client_secret", "saas", ("XERO_CLIENT_ID", "{H:32}"), ("XERO_CLIENT_SECRET", "{u:48}"))
V("quickbooks_client_secret", "saas", ("QB_CLIENT_ID", "AB{n:48}"), ("QB_CLIENT_SECRET", "{n:40}"))
V("bamboohr_api_key", "saas", ("BAMBOOHR_API_KEY", "{h:40}"))
V("greenhouse_api_key", "saas", ("GREENHOUSE_API_KEY", "{h:32}-{d:1}"))
V("openweather_api_key", "saas", ("OPENWEATHER_API_KEY", "{h:32}"))
V("nytimes_api_key", "saas", ("NYT_API_KEY", "{n:32}"))
V("newsapi_key", "saas", ("NEWS_API_KEY", "{h:32}"))
V("ipinfo_token", "saas", ("IPINFO_TOKEN", "{h:14}"))
V("here_api_key", "saas", ("HERE_API_KEY", "{u:43}"))
V("tomtom_api_key", "saas", ("TOMTOM_API_KEY", "{n:32}"))
V("cloudinary_url", "saas", ("CLOUDINARY_URL", "cloudinary://{d:15}:{u:27}@{l:8}"))
V("uploadthing_secret", "saas", ("UPLOADTHING_SECRET", "sk_live_{h:64}"))
V("imgix_api_key", "saas", ("IMGIX_API_KEY", "ak_{h:64}"))
V("mux_token_secret", "saas", ("MUX_TOKEN_ID", "{uuid}"), ("MUX_TOKEN_SECRET", "{b:75}"))
V("vimeo_access_token", "saas", ("VIMEO_ACCESS_TOKEN", "{h:32}"))
V("bitly_token", "saas", ("BITLY_TOKEN", "{h:40}"))
V("todoist_api_token", "saas", ("TODOIST_API_TOKEN", "{h:40}"))
V("youtrack_permanent_token", "saas", ("YOUTRACK_TOKEN", "perm:{b:16}.{b:16}.{n:30}"))
# IoT
V("particle_access_token", "iot", ("PARTICLE_ACCESS_TOKEN", "{h:40}"))
V("thingspeak_write_key", "iot", ("THINGSPEAK_CHANNEL_ID", "{d:7}"), ("THINGSPEAK_WRITE_API_KEY", "{A:16}"))
V("blynk_auth_token", "iot", ("BLYNK_TEMPLATE_ID", "TMPL{n:8}"), ("BLYNK_AUTH_TOKEN", "{u:32}"))
V("adafruit_io_key", "iot", ("AIO_USERNAME", "{user}"), ("AIO_KEY", "aio_{n:28}"))
V("smartthings_pat", "iot", ("SMARTTHINGS_PAT", "{uuid}"))
V("tuya_access_secret", "iot", ("TUYA_ACCESS_ID", "{a:20}"), ("TUYA_ACCESS_SECRET", "{a:32}"))
V("ttn_api_key", "iot", ("TTN_API_KEY", "NNSXS.{A:39}.{A:52}"))
V("balena_api_key", "iot", ("BALENA_API_KEY", "{n:32}"))
V("hue_bridge_username", "iot", ("HUE_BRIDGE_IP", "192.168.{d:1}.{d:2}"), ("HUE_USERNAME", "{u:40}"))
V("ubidots_token", "iot", ("UBIDOTS_TOKEN", "BBFF-{n:30}"))
V("arduino_cloud_secret", "iot", ("ARDUINO_CLIENT_ID", "{n:32}"), ("ARDUINO_CLIENT_SECRET", "{n:64}"))
V("esphome_api_encryption_key", "iot", ("api_encryption_key", "{b:43}="))
V("esphome_ota_password", "iot", ("ota_password", "{h:32}"))
V("golioth_psk", "iot", ("GOLIOTH_PSK_ID", "{l:6}@{l:8}"), ("GOLIOTH_PSK", "{n:24}"))
V("losant_access_secret", "iot", ("LOSANT_ACCESS_KEY", "{uuid}"), ("LOSANT_ACCESS_SECRET", "{h:64}"))
V("octoprint_api_key", "iot", ("OCTOPRINT_URL", "http://octopi.local"), ("OCTOPRINT_API_KEY", "{u:43}"))


# ---------------------------------------------------------------------------
# containers: the SAME renderers are used for secret and benign field lists
# ---------------------------------------------------------------------------
def envname(k):
    e = re.sub(r"[^A-Za-z0-9]+", "_", k).strip("_").upper()
    return e or "VALUE"


def words_of(k):
    return [p.lower() for p in re.split(r"[^A-Za-z0-9]+", k) if p]


def ident(k, style="snake"):
    w = words_of(k) or ["value"]
    if style == "camel":
        return w[0] + "".join(p.capitalize() for p in w[1:])
    if style == "const":
        return "_".join(p.upper() for p in w)
    if style == "pascal":
        return "".join(p.capitalize() for p in w)
    return "_".join(w)


def hum(k):
    return " ".join(words_of(k))


def dq(v):
    return json.dumps(v, ensure_ascii=False)


def yaml_scalar(v, indent):
    if "\n" in v:
        pad = " " * (indent + 2)
        return "|\n" + "\n".join(pad + ln for ln in v.split("\n"))
    if (v == "" or re.search(r"[:#{}\[\],&*?|<>=!%@`'\"~]", v) or v[0] in " -" or v[-1] == " "
            or re.fullmatch(r"[0-9.eE+-]+|true|false|yes|no|null|on|off", v, re.I)):
        return dq(v)
    return v


def com(prefix, note, indent=""):
    return [f"{indent}{prefix} {note}"] if note else []


def c_dotenv(F, note, svc):
    L = com("#", note)
    for k, v in F:
        needs = re.search(r'[\s#$"]', v)
        L.append(f"{envname(k)}={dq(v) if needs else v}")
    return "\n".join(L)


def c_shell(F, note, svc):
    L = com("#", note)
    for k, v in F:
        if "\n" in v:
            L.append(f"export {envname(k)}=\"$(cat <<'EOF'\n{v}\nEOF\n)\"")
        elif "'" not in v:
            L.append(f"export {envname(k)}='{v}'")
        else:
            L.append(f"export {envname(k)}={dq(v)}")
    return "\n".join(L)


def c_yaml(F, note, svc):
    L = com("#", note) + [f"{svc}:"]
    for k, v in F:
        L.append(f"  {ident(k)}: {yaml_scalar(v, 2)}")
    return "\n".join(L)


def c_json(F, note, svc):
    d = {}
    if note:
        d["_comment"] = note
    for k, v in F:
        d[k] = v
    return json.dumps(d, indent=2, ensure_ascii=False)


def c_toml(F, note, svc):
    L = com("#", note) + [f"[{svc}]"]
    for k, v in F:
        L.append(f"{ident(k)} = " + (f"'''\n{v}'''" if "\n" in v else dq(v)))
    return "\n".join(L)


def c_ini(F, note, svc):
    L = com(";", note) + [f"[{svc}]"]
    for k, v in F:
        L.append(f"{ident(k)} = {dq(v) if chr(10) in v else v}")
    return "\n".join(L)


def c_dockerfile(F, note, svc):
    L = [f"FROM {pick(['python:3.12-slim', 'node:20-alpine', 'eclipse-temurin:21-jre', 'golang:1.22', 'ruby:3.3'])}",
         "WORKDIR /app", "COPY . ."] + com("#", note)
    for k, v in F:
        L.append(f"ENV {envname(k)}={dq(v)}")
    L.append(pick(['CMD ["python", "main.py"]', 'CMD ["node", "server.js"]', 'ENTRYPOINT ["/app/run.sh"]']))
    return "\n".join(L)


def c_k8s_secret(F, note, svc):
    L = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {svc.replace('_', '-')}-config",
         f"  namespace: {pick(['default', 'prod', 'apps', 'ci'])}"]
    if note:
        L += ["  annotations:", f"    note: {dq(note)}"]
    L += ["type: Opaque", "stringData:"]
    for k, v in F:
        L.append(f"  {envname(k)}: {yaml_scalar(v, 2)}")
    return "\n".join(L)


def c_k8s_env(F, note, svc):
    L = ["spec:", "  containers:", f"    - name: {svc.replace('_', '-')}-worker",
         f"      image: registry.local/{svc.replace('_', '-')}-worker:{R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}"]
    L += com("#", note, "      ") + ["      env:"]
    for k, v in F:
        L += [f"        - name: {envname(k)}", f"          value: {yaml_scalar(v, 10)}"]
    return "\n".join(L)


def c_terraform(F, note, svc):
    L = com("#", note) + [f'provider "{svc}" {{']
    for k, v in F:
        L.append(f"  {ident(k)} = " + (f"<<EOT\n{v}\nEOT" if "\n" in v else dq(v)))
    L.append("}")
    return "\n".join(L)


def c_gha(F, note, svc):
    L = ["jobs:", "  deploy:", "    runs-on: ubuntu-latest"] + com("#", note, "    ") + ["    env:"]
    for k, v in F:
        L.append(f"      {envname(k)}: {yaml_scalar(v, 6)}")
    L += ["    steps:", "      - uses: actions/checkout@v4", f"      - run: ./scripts/{pick(['deploy', 'release', 'sync'])}.sh"]
    return "\n".join(L)


def c_gitlab(F, note, svc):
    L = com("#", note) + ["variables:"]
    for k, v in F:
        L.append(f"  {envname(k)}: {yaml_scalar(v, 2)}")
    L += [f"{pick(['deploy', 'publish', 'sync'])}:", "  stage: deploy", "  script:", f"    - make {pick(['deploy', 'release'])}"]
    return "\n".join(L)


def c_compose(F, note, svc):
    s = svc.replace("_", "-")
    L = ["services:", f"  {s}:", f"    image: {s}/{pick(['server', 'agent', 'app'])}:latest"] + com("#", note, "    ") + ["    environment:"]
    for k, v in F:
        L.append(f"      {envname(k)}: {yaml_scalar(v, 6)}")
    return "\n".join(L)


def c_curl(F, note, svc):
    L = com("#", note)
    k, v = F[-1]
    if len(F) == 1 and "\n" not in v and chance(0.5):
        hdr = "X-" + "-".join(p.capitalize() for p in words_of(k))
        L.append(f'curl -sS -H "{hdr}: {v}" https://api.{svc.replace("_", "-")}.com/v1/{pick(["status", "me", "projects", "items"])}')
    else:
        L.append(f"curl -sS -X POST https://api.{svc.replace('_', '-')}.com/v2/config \\")
        L.append(" \\\n".join(f"  --data-urlencode {dq(ident(a) + '=' + b)}" for a, b in F))
    return "\n".join(L)


def c_http(F, note, svc):
    body = json.dumps({ident(a): b for a, b in F}, indent=2, ensure_ascii=False)
    L = [f"POST /v1/{pick(['settings', 'integrations', 'config'])} HTTP/1.1", f"Host: api.{svc.replace('_', '-')}.io",
         "Content-Type: application/json"]
    if note:
        L.append(f"X-Note: {note}")
    return "\n".join(L) + "\n\n" + body


def c_python(F, note, svc):
    L = com("#", note)
    style = R.randrange(3)
    if style == 2:
        L.append("import os")
    for k, v in F:
        lit = f'"""{v}"""' if "\n" in v else dq(v)
        if style == 0:
            L.append(f"{ident(k, 'const')} = {lit}")
        elif style == 1:
            L.append(f"{ident(k)} = {lit}")
        else:
            L.append(f'os.environ.setdefault("{envname(k)}", {lit})')
    return "\n".join(L)


def c_js(F, note, svc):
    L = com("//", note)
    for k, v in F:
        lit = f"`{v}`" if "\n" in v else dq(v)
        L.append(pick([f"const {ident(k, 'camel')} = {lit};", f"process.env.{envname(k)} ??= {lit};"]))
    return "\n".join(L)


def c_go(F, note, svc):
    L = ["package config", ""] + com("//", note) + ["const ("]
    for k, v in F:
        L.append(f"\t{ident(k, 'pascal')} = " + (f"`{v}`" if "\n" in v else dq(v)))
    L.append(")")
    return "\n".join(L)


def c_java(F, note, svc):
    L = [f"public final class {svc.title().replace('_', '')}Config {{"] + com("//", note, "    ")
    for k, v in F:
        L.append(f"    static final String {ident(k, 'const')} = {dq(v)};")
    L.append("}")
    return "\n".join(L)


def c_csharp(F, note, svc):
    L = com("//", note)
    for k, v in F:
        L.append(f'Environment.SetEnvironmentVariable("{envname(k)}", {dq(v)});')
    return "\n".join(L)


def c_ruby(F, note, svc):
    L = com("#", note)
    for k, v in F:
        L.append(f'ENV["{envname(k)}"] ||= {dq(v)}')
    return "\n".join(L)


def c_php(F, note, svc):
    L = ["<?php"] + com("//", note)
    for k, v in F:
        vv = v.replace("\\", "\\\\").replace("'", "\\'")
        L.append(f"$config['{ident(k)}'] = '{vv}';")
    return "\n".join(L)


def c_rust(F, note, svc):
    L = com("//", note)
    for k, v in F:
        L.append(f"pub const {ident(k, 'const')}: &str = " + (f'r#"{v}"#;' if "\n" in v else f"{dq(v)};"))
    return "\n".join(L)


def c_powershell(F, note, svc):
    L = com("#", note)
    for k, v in F:
        L.append(f'$env:{envname(k)} = ' + (f'@"\n{v}\n"@' if "\n" in v else dq(v).replace("$", "`$")))
    return "\n".join(L)


def c_kotlin(F, note, svc):
    L = com("//", note)
    for k, v in F:
        L.append(f"val {ident(k, 'camel')} = " + (f'"""{v}"""' if "\n" in v else dq(v).replace("$", "\\$")))
    return "\n".join(L)


def c_chat(F, note, svc):
    opener = pick(["hey, can you keep this for me —", "ok here it is:", "saving this here so I don't lose it:",
                   f"{svc} stuff from {pick(FIRST)}:", "for next time:", "copying from the other chat:",
                   "this is what I set up yesterday:", f"re {svc}:"])
    body = "\n".join(f"{hum(k)}: {v}" for k, v in F)
    s = opener + ("\n" if ("\n" in body or len(F) > 1) else " ") + body
    if note:
        s += f"\n({note})"
    return s


def c_email(F, note, svc):
    f1, l1 = person()
    f2, _ = person()
    body = "\n".join(f"{hum(k)}: {v}" for k, v in F)
    s = (f"Subject: {svc} {pick(['setup', 'access', 'details', 'config', 'info'])}\nFrom: {email_for(f2, pick(LAST), work=True)}\n"
         f"To: {email_for(f1, l1, work=True)}\n\nHi {f1},\n\n{pick(['as discussed, here are the details:', 'here is what you asked for:', 'for the migration:', 'details below.'])}\n{body}\n")
    if note:
        s += f"\nNote: {note}\n"
    return s + f"\nBest,\n{f2}"


def c_ticket(F, note, svc):
    body = "\n".join(f"{hum(k)}: {v}" for k, v in F)
    s = (f"[{pick(PROJ)}-{R.randint(100, 9999)}] {svc} {pick(['setup', 'migration', 'onboarding', 'config', 'handover'])}\n"
         f"Assignee: {' '.join(person())}\nStatus: {pick(['Open', 'In progress', 'Done', 'Blocked'])}\n\n{body}")
    if note:
        s += f"\n\nComment: {note}"
    return s


def c_prose(F, note, svc):
    if any("\n" in v for _, v in F):
        s = f"{svc} — {', '.join(hum(k) for k, _ in F)}:\n" + "\n".join(v for _, v in F)
    elif len(F) == 1:
        k, v = F[0]
        s = pick([f"The {hum(k)} for {svc} is {v}.", f"{svc} {hum(k)}: {v}", f"Use {v} as the {hum(k)} ({svc})."])
    else:
        s = f"For {svc}: " + ", ".join(f"{hum(k)} is {v}" for k, v in F) + "."
    if note:
        s += f" ({note})"
    return s


def c_markdown(F, note, svc):
    L = [f"### {svc}", ""] + ([f"> {note}", ""] if note else []) + ["| name | value |", "|---|---|"]
    for k, v in F:
        L.append(f"| {k} | `{v.replace(chr(10), '<br>')}` |")
    return "\n".join(L)


def c_csv(F, note, svc):
    L = ["name,value,comment"]
    for i, (k, v) in enumerate(F):
        c = note if (note and i == 0) else ""
        L.append(f'{k},"{v.replace(chr(34), chr(34) * 2)}",{c}')
    return "\n".join(L)


def c_xml(F, note, svc):
    esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    L = ["<appSettings>"] + ([f"  <!-- {note} -->"] if note else [])
    for k, v in F:
        L.append(f'  <add key="{envname(k)}" value="{esc(v)}" />')
    L.append("</appSettings>")
    return "\n".join(L)


def c_systemd(F, note, svc):
    L = ["[Service]"] + com("#", note) + [f"ExecStart=/usr/local/bin/{svc.replace('_', '-')}-agent"]
    for k, v in F:
        L.append(f'Environment="{envname(k)}={v.replace(chr(10), chr(92) + "n")}"')
    return "\n".join(L)


def c_properties(F, note, svc):
    L = com("#", note)
    for k, v in F:
        key = k if "." in k else f"{svc}.{ident(k).replace('_', '.')}"
        L.append(f"{key}={v.replace(chr(10), chr(92) + 'n')}")
    return "\n".join(L)


def c_sql(F, note, svc):
    L = com("--", note)
    for k, v in F:
        L.append(f"INSERT INTO app_settings (name, value) VALUES ('{k}', '{v.replace(chr(39), chr(39) * 2)}');")
    return "\n".join(L)


def c_jupyter(F, note, svc):
    L = com("#", note)
    for k, v in F:
        L.append(f"%env {envname(k)}={v}" if "\n" not in v else f"os.environ[{dq(envname(k))}] = {dq(v)}")
    return "\n".join(L)


CONTAINERS = [c_dotenv, c_shell, c_yaml, c_json, c_toml, c_ini, c_dockerfile, c_k8s_secret, c_k8s_env, c_terraform,
              c_gha, c_gitlab, c_compose, c_curl, c_http, c_python, c_js, c_go, c_java, c_csharp, c_ruby, c_php,
              c_rust, c_powershell, c_kotlin, c_chat, c_email, c_ticket, c_prose, c_markdown, c_csv, c_xml,
              c_systemd, c_properties, c_sql, c_jupyter]
CAPS = ["config", "settings", "credentials", "keys", "env", "setup", "details", "integration", "access"]


def neutral_note():
    return pick(["prod", "staging only", f"rotated {iso_date()}", f"from {pick(FIRST)}", f"valid until {iso_date()}",
                 "old one revoked", "for the side project", f"set up by {pick(FIRST)}", "do not commit",
                 "copied from the wiki", "used by the nightly job", "temporary", "eu region",
                 f"check with {pick(FIRST)} before changing", "same as last year", "new laptop setup"])


def cc(fields, svc, note=None, caption=None, kind=None):
    fields = [(k, v) for k, v in fields]
    if note is None:
        note = neutral_note() if chance(0.45) else ""
    text = pick(CONTAINERS)(fields, note, svc)
    return {"text": text, "fields": fields, "caption": caption or f"{svc} {pick(CAPS)}", "kind": kind,
            "container": True}


# ---------------------------------------------------------------------------
# framing and value shapes (identical code for both labels)
# ---------------------------------------------------------------------------
TAGS = ["home", "work", "todo", "family", "admin", "dev", "finance", "health", "travel", "misc", "important", "ref"]


def frame(text):
    p = pick(["", "", "", "", "", "remember: ", "Remember this: ", "note to self: ", "Please remember: ", "FYI ",
              "for later: ", f"saved {iso_date()}: ", f"{iso_date()} — ", "pin this: ", "keep this handy: ",
              "Reminder: ", "from today's chat: ", "important: "])
    s = pick(["", "", "", "", "", " thanks!", f"\n— {pick(FIRST)[0]}.{pick(LAST)[0]}.", "\n(copied from my old notes)",
              f"\nlast checked {iso_date()}", "\n-- sent from my phone", " 👍", "\nping me if this changes"])
    f = pick(["", "", "", "", "", "", "Also: buy milk.", "Need to tidy this up later.", "See the other note too.",
              "Ask again next week.", "This replaces what I saved before."])
    out = p + text + s
    if f:
        out = out + "\n" + f if chance(0.5) else f + "\n" + out
    return out


def shape_kind():
    r = R.random()
    return "str" if r < 0.70 else ("dict" if r < 0.90 else "list")


def shape(core, sk):
    r = {"str": 0.0, "dict": 0.8, "list": 0.95}[sk]
    if r < 0.70:
        return frame(core["text"])
    if r < 0.90:
        F = core.get("fields")
        if F and R.random() < 0.55:
            d = {}
            if chance(0.4):
                d["note"] = core["caption"]
            for a, b in F:
                d[a] = b
            if chance(0.3):
                d["saved"] = iso_date()
            return d
        k = R.randrange(3)
        if k == 0:
            return {"note": frame(core["text"])}
        if k == 1:
            return {"title": core["caption"], "body": core["text"], "tags": R.sample(TAGS, R.randint(1, 3))}
        return {"text": core["text"], "source": pick(["chat", "email", "voice memo", "web clipper", "manual"]),
                "created": iso_date()}
    lines = core.get("lines") or [ln for ln in core["text"].split("\n") if ln.strip()]
    if len(lines) >= 2 and chance(0.7):
        return list(lines)
    F = core.get("fields")
    if F and chance(0.5):
        return [{"name": a, "value": b} for a, b in F]
    return [core["caption"], core["text"]]


def C(text, caption, kind=None, fields=None, lines=None, **kw):
    d = {"text": text, "caption": caption, "kind": kind, "fields": fields, "lines": lines}
    d.update(kw)
    return d


# ---------------------------------------------------------------------------
# languages: secret phrasings and benign mirrors using the same vocabulary
# ---------------------------------------------------------------------------
LANG = {
    "de": dict(pw="Mein Passwort für {site}: {v}", pin="PIN der EC-Karte: {v}", door="Haustür-Code bei {name}: {v}",
               wifi="WLAN „{ssid}“ – Passwort: {v}", gate="Garagentor-Code: {v} (danach # drücken)",
               t_pw="Hab mein {site}-Passwort gestern geändert, das neue steht im Passwortmanager.",
               t_pin="Die neue PIN für die Kreditkarte kommt per Post, der Brief liegt dann in der Schublade.",
               t_door="Der Türcode wird nächste Woche geändert, {name} schickt ihn dann.",
               t_wifi="Das Gäste-WLAN heißt „{ssid}“ und ist offen, kein Passwort nötig.",
               t_note="{name} hat am {date} Geburtstag, wünscht sich ein Buch.",
               t_appt="Zahnarzttermin am {date} um 10:30, Praxis Dr. {last}, {addr}, Tel. {phone}."),
    "fr": dict(pw="Mot de passe {site} : {v}", pin="Code PIN de la carte bancaire : {v}", door="Digicode chez {name} : {v}",
               wifi="Wi-Fi « {ssid} » — mot de passe : {v}", gate="Code du portail : {v}",
               t_pw="J'ai changé mon mot de passe {site} hier, il est dans le gestionnaire.",
               t_pin="Le code PIN est dans le tiroir du bureau, pas dans le téléphone.",
               t_door="Le digicode change la semaine prochaine, {name} nous l'enverra.",
               t_wifi="Le Wi-Fi invité s'appelle « {ssid} », réseau ouvert sans mot de passe.",
               t_note="Anniversaire de {name} le {date}, penser au gâteau.",
               t_appt="RDV chez le Dr {last} le {date} à 9h15, {addr}, tél. {phone}."),
    "es": dict(pw="Contraseña de {site}: {v}", pin="PIN de la tarjeta: {v}", door="Código del portal de {name}: {v}",
               wifi="Wifi «{ssid}», clave: {v}", gate="Código de la alarma: {v}",
               t_pw="Cambié la contraseña de {site} ayer; la nueva está en el gestor.",
               t_pin="El PIN está apuntado en un sobre en el cajón de la cocina.",
               t_door="El código del portal cambia el lunes, {name} nos lo dirá.",
               t_wifi="La red de invitados «{ssid}» no tiene contraseña.",
               t_note="El cumpleaños de {name} es el {date}.",
               t_appt="Cita con la Dra. {last} el {date} a las 17:00 en {addr}. Tel. {phone}."),
    "it": dict(pw="Password di {site}: {v}", pin="PIN del bancomat: {v}", door="Codice del portone da {name}: {v}",
               wifi="Wi-Fi \"{ssid}\", password: {v}", gate="Codice dell'allarme: {v}",
               t_pw="Ho cambiato la password di {site} ieri, la nuova è nel gestore password.",
               t_pin="Il PIN nuovo arriva per posta tra una settimana.",
               t_door="Il codice del portone lo cambiano domani, chiedere a {name}.",
               t_wifi="La rete ospiti \"{ssid}\" è aperta, niente password.",
               t_note="Compleanno di {name}: {date}.",
               t_appt="Visita dal dott. {last} il {date} alle 11:00, {addr}, tel. {phone}."),
    "pt": dict(pw="Senha do {site}: {v}", pin="PIN do cartão: {v}", door="Código do portão da casa da {name}: {v}",
               wifi="Wi-Fi \"{ssid}\" — senha: {v}", gate="Código do alarme: {v}",
               t_pw="Troquei a senha do {site} ontem, a nova está no gerenciador.",
               t_pin="O PIN está guardado no cofre, não anotei em lugar nenhum.",
               t_door="O código do portão vai mudar na segunda, {name} avisa.",
               t_wifi="A rede de convidados \"{ssid}\" é aberta, sem senha.",
               t_note="Aniversário da {name}: {date}.",
               t_appt="Consulta com a Dra. {last} em {date} às 14h, {addr}, tel. {phone}."),
    "nl": dict(pw="Wachtwoord {site}: {v}", pin="Pincode bankpas: {v}", door="Deurcode bij {name}: {v}",
               wifi="Wifi '{ssid}', wachtwoord: {v}", gate="Code garagedeur: {v}",
               t_pw="Gisteren mijn {site}-wachtwoord veranderd, staat in de wachtwoordmanager.",
               t_pin="De pincode ligt in de la van het bureau.",
               t_door="De deurcode wordt volgende week gewijzigd, {name} stuurt hem dan.",
               t_wifi="Het gastennetwerk '{ssid}' heeft geen wachtwoord.",
               t_note="{name} is jarig op {date}.",
               t_appt="Afspraak huisarts dr. {last} op {date} om 8:40, {addr}, tel. {phone}."),
    "pl": dict(pw="Hasło do {site}: {v}", pin="PIN do karty: {v}", door="Kod do klatki (mieszkanie {name}): {v}",
               wifi="Wi-Fi „{ssid}”, hasło: {v}", gate="Kod do bramy: {v}",
               t_pw="Wczoraj zmieniłem hasło do {site}, nowe jest w menedżerze haseł.",
               t_pin="PIN jest w szufladzie biurka, nie w telefonie.",
               t_door="Kod do klatki zmienia się w przyszłym tygodniu, {name} go wyśle.",
               t_wifi="Sieć dla gości „{ssid}” jest otwarta, bez hasła.",
               t_note="Urodziny: {name}, {date}.",
               t_appt="Wizyta u dr. {last} {date} o 12:20, {addr}, tel. {phone}."),
    "sv": dict(pw="Lösenord till {site}: {v}", pin="PIN-kod till kortet: {v}", door="Portkod hos {name}: {v}",
               wifi="Wifi \"{ssid}\", lösenord: {v}", gate="Larmkod: {v}",
               t_pw="Bytte lösenordet till {site} igår, det nya finns i lösenordshanteraren.",
               t_pin="PIN-koden ligger i skrivbordslådan.",
               t_door="Portkoden ändras nästa vecka, {name} skickar den.",
               t_wifi="Gästnätverket \"{ssid}\" är öppet, inget lösenord.",
               t_note="{name} fyller år den {date}.",
               t_appt="Tandläkare {last} den {date} kl. 13.15, {addr}, tel. {phone}."),
    "tr": dict(pw="{site} şifresi: {v}", pin="Banka kartı şifresi: {v}", door="{name} apartman kapı kodu: {v}",
               wifi="Wi-Fi \"{ssid}\" şifresi: {v}", gate="Alarm kodu: {v}",
               t_pw="{site} şifremi dün değiştirdim, yenisi şifre yöneticisinde.",
               t_pin="Kartın şifresi çekmecede, telefona kaydetmedim.",
               t_door="Kapı kodu haftaya değişecek, {name} gönderecek.",
               t_wifi="Misafir ağı \"{ssid}\" açık, şifre yok.",
               t_note="{name} doğum günü: {date}.",
               t_appt="Dr. {last} randevusu {date} saat 15:30, {addr}, tel. {phone}."),
    "ru": dict(pw="Пароль от {site}: {v}", pin="ПИН-код карты: {v}", door="Код домофона у {name}: {v}",
               wifi="Wi-Fi «{ssid}», пароль: {v}", gate="Код сигнализации: {v}",
               t_pw="Вчера сменил пароль от {site}, новый в менеджере паролей.",
               t_pin="ПИН-код лежит в ящике стола, в конверте из банка.",
               t_door="Код домофона поменяют на следующей неделе, {name} пришлёт.",
               t_wifi="Гостевая сеть «{ssid}» открытая, без пароля.",
               t_note="День рождения: {name}, {date}.",
               t_appt="Приём у врача {last} {date} в 10:00, {addr}, тел. {phone}."),
    "ja": dict(pw="{site}のパスワード：{v}", pin="キャッシュカードの暗証番号：{v}", door="{name}さんのマンションのオートロック番号：{v}",
               wifi="Wi-Fi「{ssid}」のパスワード：{v}", gate="金庫の番号：{v}",
               t_pw="昨日{site}のパスワードを変更した。新しいのはパスワードマネージャーに保存済み。",
               t_pin="暗証番号は机の引き出しの封筒に入っている。",
               t_door="オートロックの番号は来週変わるので{name}さんが連絡してくれる。",
               t_wifi="ゲスト用Wi-Fi「{ssid}」はパスワードなしで使える。",
               t_note="{name}さんの誕生日は{date}。",
               t_appt="{date} 14時に{last}歯科（{addr}）、電話 {phone}。"),
    "zh": dict(pw="{site}的密码：{v}", pin="银行卡密码：{v}", door="{name}家的门禁密码：{v}",
               wifi="WiFi「{ssid}」密码：{v}", gate="保险箱密码：{v}",
               t_pw="昨天改了{site}的密码，新的存在密码管理器里。",
               t_pin="银行卡密码在抽屉里的信封里，别存在手机上。",
               t_door="门禁密码下周会换，{name}会发给我们。",
               t_wifi="访客网络「{ssid}」不需要密码。",
               t_note="{name}的生日是{date}。",
               t_appt="{date}上午十点看{last}医生，地址：{addr}，电话 {phone}。"),
    "ko": dict(pw="{site} 비밀번호: {v}", pin="체크카드 비밀번호: {v}", door="{name}네 현관 비밀번호: {v}",
               wifi="와이파이 \"{ssid}\" 비번: {v}", gate="주차장 차단기 코드: {v}",
               t_pw="어제 {site} 비밀번호 바꿨음. 새 비번은 비밀번호 관리자에 있음.",
               t_pin="카드 비밀번호는 책상 서랍 봉투 안에 있음.",
               t_door="현관 비밀번호가 다음 주에 바뀐대. {name}가 알려준대.",
               t_wifi="게스트 와이파이 \"{ssid}\"는 비밀번호 없음.",
               t_note="{name} 생일: {date}.",
               t_appt="{date} 오후 3시 {last} 치과, 주소 {addr}, 전화 {phone}."),
    "ar": dict(pw="كلمة مرور {site}: {v}", pin="الرقم السري للبطاقة: {v}", door="رمز باب العمارة عند {name}: {v}",
               wifi="شبكة الواي فاي \"{ssid}\" وكلمة المرور: {v}", gate="رمز جهاز الإنذار: {v}",
               t_pw="غيرت كلمة مرور {site} أمس، الجديدة محفوظة في مدير كلمات المرور.",
               t_pin="الرقم السري موجود في درج المكتب.",
               t_door="سيتغير رمز الباب الأسبوع القادم، {name} سيرسله.",
               t_wifi="شبكة الضيوف \"{ssid}\" مفتوحة بدون كلمة مرور.",
               t_note="عيد ميلاد {name} في {date}.",
               t_appt="موعد مع الدكتور {last} يوم {date} الساعة 11، العنوان: {addr}، هاتف {phone}."),
    "hi": dict(pw="{site} का पासवर्ड: {v}", pin="एटीएम कार्ड का पिन: {v}", door="{name} के घर के दरवाज़े का कोड: {v}",
               wifi="वाई-फ़ाई \"{ssid}\" का पासवर्ड: {v}", gate="अलार्म कोड: {v}",
               t_pw="कल {site} का पासवर्ड बदल दिया, नया पासवर्ड मैनेजर में है।",
               t_pin="पिन दराज़ में रखे लिफ़ाफ़े में है।",
               t_door="दरवाज़े का कोड अगले हफ़्ते बदलेगा, {name} भेज देंगे।",
               t_wifi="मेहमानों वाला नेटवर्क \"{ssid}\" खुला है, पासवर्ड नहीं चाहिए।",
               t_note="{name} का जन्मदिन {date} को है।",
               t_appt="डॉ. {last} से {date} को शाम 6 बजे मिलना है, पता: {addr}, फ़ोन {phone}।"),
    "vi": dict(pw="Mật khẩu {site}: {v}", pin="Mã PIN thẻ ATM: {v}", door="Mã cửa nhà {name}: {v}",
               wifi="Wi-Fi \"{ssid}\" mật khẩu: {v}", gate="Mã cổng gara: {v}",
               t_pw="Hôm qua mình đã đổi mật khẩu {site}, mật khẩu mới lưu trong trình quản lý.",
               t_pin="Mã PIN để trong ngăn kéo bàn làm việc.",
               t_door="Tuần sau mã cửa sẽ đổi, {name} sẽ gửi lại.",
               t_wifi="Mạng khách \"{ssid}\" không cần mật khẩu.",
               t_note="Sinh nhật {name}: {date}.",
               t_appt="Hẹn bác sĩ {last} ngày {date} lúc 9 giờ, {addr}, ĐT {phone}."),
    "id": dict(pw="Kata sandi {site}: {v}", pin="PIN kartu ATM: {v}", door="Kode pintu rumah {name}: {v}",
               wifi="Wi-Fi \"{ssid}\", sandinya: {v}", gate="Kode brankas: {v}",
               t_pw="Kemarin aku ganti kata sandi {site}, yang baru ada di pengelola sandi.",
               t_pin="PIN-nya ada di laci meja kerja.",
               t_door="Kode pintu diganti minggu depan, nanti {name} kirim.",
               t_wifi="Wi-Fi tamu \"{ssid}\" terbuka, tanpa sandi.",
               t_note="Ulang tahun {name} tanggal {date}.",
               t_appt="Janji dengan dr. {last} tanggal {date} jam 16.00 di {addr}, telp {phone}."),
    "cs": dict(pw="Heslo k {site}: {v}", pin="PIN ke kartě: {v}", door="Kód od vchodu ({name}): {v}",
               wifi="Wi-Fi „{ssid}“, heslo: {v}", gate="Kód od garáže: {v}",
               t_pw="Včera jsem změnil heslo k {site}, nové je ve správci hesel.",
               t_pin="PIN je v šuplíku psacího stolu.",
               t_door="Kód od vchodu se příští týden mění, {name} ho pošle.",
               t_wifi="Síť pro hosty „{ssid}“ je otevřená, bez hesla.",
               t_note="{name} má narozeniny {date}.",
               t_appt="Zubař MUDr. {last} {date} v 7:45, {addr}, tel. {phone}."),
}
LNAMES = {"ru": ["Ольги", "Дмитрия", "Ирины", "Сергея"], "ja": ["佐藤", "鈴木", "高橋", "田中"],
          "zh": ["王芳", "李伟", "张敏", "刘洋"], "ko": ["민준", "서연", "지호", "하은"],
          "ar": ["أحمد", "فاطمة", "يوسف", "مريم"], "hi": ["राहुल", "प्रिया", "अमित", "नेहा"]}


def lang_fill(lang, tpl, v=None):
    name = pick(LNAMES.get(lang, FIRST))
    y, m, d = ymd()
    if lang in ("ja", "zh"):
        date = f"{m}月{d}日"
    elif lang == "ko":
        date = f"{m}월 {d}일"
    else:
        date = f"{d:02d}.{m:02d}.{y}" if lang in ("de", "pl", "cs", "ru", "tr") else f"{d}/{m}"
    return tpl.format(site=pick(SITES), v=v, name=name, ssid=pick(SSIDS), date=date, last=pick(LAST),
                      addr=address(), phone=phone())


def lang_secret(lang, typ):
    v = {"pw": human_pw, "pin": lambda: pin(pick([4, 4, 6])), "door": lambda: pick([pin(4), pin(5), pin(4) + "#", "A" + pin(4)]),
         "wifi": wifi_psk, "gate": lambda: pin(pick([4, 6]))}[typ]()
    kind = {"pw": "password", "pin": "pin", "door": "door_code", "wifi": "wifi_psk", "gate": "gate_alarm_safe_code"}[typ]
    text = lang_fill(lang, LANG[lang][typ], v)
    return C(text, pick(["note", "memo", lang + " note", "saved"]), kind=kind, lang=lang)


# ---------------------------------------------------------------------------
# personal secrets in English
# ---------------------------------------------------------------------------
BANKS = ["Sparkasse", "Chase", "Barclays", "ING", "Revolut", "Monzo", "N26", "BNP", "Santander", "Wells Fargo", "HSBC"]
PETS = ["Biscuit", "Mochi", "Pepper", "Rusty", "Luna", "Bandit", "Noodle", "Ziggy", "Tofu", "Captain"]


def sp_password_prose():
    site, pw = pick(SITES), human_pw()
    t = pick([f"My {site} password is {pw}", f"{site} login → {email_for()} / {pw}", f"pw for {site}: {pw}",
              f"{site}: user {email_for()}, pass {pw}", f"new password for {site} after the reset: {pw}",
              f"Mum's {site} password (she keeps forgetting): {pw}"])
    return C(t, f"{site} login", "password")


def sp_password_record():
    site, pw = pick(SITES), human_pw()
    F = [("site", site), ("username", pick([email_for(), ascii_fold(pick(FIRST)).lower() + str(R.randint(1, 99))])), ("password", pw)]
    if chance(0.4):
        F.append(("notes", pick(["2FA via SMS", "shared with family", "security question set", "renews yearly"])))
    return C("\n".join(f"{k}: {v}" for k, v in F), f"{site} account", "password_record", fields=F)


def sp_router():
    return C(pick([f"Router admin page 192.168.{R.randint(0, 2)}.1 — login admin / {human_pw()}",
                   f"NAS admin: http://nas.local:5000 user admin pw {human_pw()}",
                   f"Work laptop login: {ascii_fold(pick(FIRST)).lower()}.{ascii_fold(pick(LAST)).lower()} / {human_pw()}",
                   f"Password manager master password: {'-'.join(R.sample(WORDS, 4))}",
                   f"BIOS password on the old ThinkPad: {human_pw()}"]), "device login", "password")


def sp_pin():
    t = pick([f"{pick(BANKS)} card PIN: {pin(4)}", f"{pick(FIRST)}'s phone unlock code is {pin(6)}", f"iPad passcode {pin(6)}",
              f"SIM PIN {pin(4)}, PUK {pin(8)}", f"Voicemail PIN {pin(4)}", f"Credit card PIN {pin(4)} (the {pick(BANKS)} one)",
              f"Kid's tablet parental-controls PIN: {pin(4)}"])
    return C(t, "PIN", "pin")


def sp_codes():
    kind, t = pick([
        ("door_code", lambda: f"Front door code at {address()}: {pin(4)}#"),
        ("door_code", lambda: f"Building entry code for {pick(FIRST)}'s flat: {pin(4)} then the bell"),
        ("gate_code", lambda: f"Gate code for the community pool: *{pin(4)}"),
        ("alarm_code", lambda: f"Alarm disarm code {pin(4)}, panic code {pin(4)}"),
        ("garage_code", lambda: f"Garage keypad: {pin(pick([4, 6]))}"),
        ("safe_code", lambda: pick([f"Hotel room safe: {pin(4)}", f"Home safe combination {R.randint(10, 59)}-{R.randint(10, 59)}-{R.randint(10, 59)}"])),
        ("locker_code", lambda: pick([f"Gym locker combo {pin(4)}", f"School locker combination {R.randint(1, 39)}-{R.randint(1, 39)}-{R.randint(1, 39)}"])),
        ("keybox_code", lambda: f"Airbnb key box at {address()}: code {pin(4)}"),
        ("bike_lock_code", lambda: f"bike lock combo {pin(pick([4, 5]))}"),
    ])
    return C(t(), "codes", kind)


def sp_wifi():
    ssid, psk = pick(SSIDS), wifi_psk()
    t = pick([f"Wi-Fi {ssid} / {psk}", f"WIFI:T:WPA;S:{ssid};P:{psk};;", f"Wifi at {pick(FIRST)}'s: network {ssid}, password {psk}",
              f"home wifi pw {psk}", f"Office guest Wi-Fi \"{ssid}\" key: {psk}"])
    return C(t, "Wi-Fi", "wifi_psk", fields=[("ssid", ssid), ("password", psk)] if chance(0.5) else None)


def sp_otp():
    t = pick([f"Your verification code is {pin(6)}. It expires in 10 minutes.", f"login code from the bank: {pin(6)}",
              f"{pick(SITES)} sign-in code {pin(6)} (the one from the SMS)", f"one-time passcode for the parcel service: {pin(6)}"])
    return C(t, "code", "one_time_code")


def sp_backup_codes():
    if chance(0.5):
        codes = [f"{rs('h', 5)}-{rs('h', 5)}" for _ in range(10)]
        head = "GitHub recovery codes"
    else:
        codes = [f"{rs('d', 4)} {rs('d', 4)}" for _ in range(10)]
        head = f"{pick(['Google', 'Dropbox', 'Microsoft'])} backup codes"
    return C(head + ":\n" + "\n".join(codes), head, "backup_codes", lines=[head] + codes)


def sp_totp():
    seed = rs("3", pick([16, 32]))
    site = pick(SITES)
    t = pick([f"2FA secret for {site}: {' '.join(seed[i:i + 4] for i in range(0, len(seed), 4)).lower()}",
              f"otpauth://totp/{site.replace(' ', '')}:{email_for()}?secret={seed}&issuer={site.replace(' ', '')}",
              f"authenticator setup key ({site}): {seed}"])
    return C(t, "2FA", "totp_seed")


def sp_seed():
    n = pick([12, 24])
    words = mnemonic(n).split()
    if chance(0.5):
        body = "\n".join(f"{i + 1}. {w}" for i, w in enumerate(words))
    else:
        body = " ".join(words)
    return C(f"{pick(['wallet recovery phrase', 'MetaMask seed', 'Ledger backup words', 'seed phrase'])}:\n{body}", "wallet", "seed_phrase")


def sp_security_q():
    F = [("mother's maiden name", pick(LAST)), ("first pet", pick(PETS)), ("city where parents met", pick(CITIES)[0])]
    R.shuffle(F)
    F = F[:R.randint(2, 3)]
    site = pick(SITES + BANKS)
    return C(f"Security questions for {site}: " + "; ".join(f"{k} — {v}" for k, v in F), f"{site} security", "security_answers", fields=F)


def sp_memorable():
    return C(pick([f"Memorable word for {pick(BANKS)}: {pick(WORDS)}", f"memorable info for phone banking: {pick(WORDS)}{R.randint(1, 99)}",
                   f"telephone banking passphrase: {pick(WORDS)} {pick(WORDS)}"]), "bank", "memorable_word")


def sp_card():
    brand, n = card_number()
    mm, yy, cvv = R.randint(1, 12), R.randint(26, 31), rs("d", 4 if brand == "Amex" else 3)
    if chance(0.4):
        F = [("cardholder", " ".join(person())), ("number", group_card(n)), ("expiry", f"{mm:02d}/{yy}"), ("cvv", cvv)]
        return C("\n".join(f"{k}: {v}" for k, v in F), f"{brand} card", "card_details", fields=F)
    return C(pick([f"{brand} {group_card(n)} exp {mm:02d}/{yy} CVV {cvv}", f"card for online orders: {n}, {mm:02d}/{yy}, {cvv}",
                   f"{pick(FIRST)}'s {brand}: {group_card(n)} valid thru {mm:02d}/{yy}"]), "card", "card_details")


def sp_card_bare():
    brand, n = card_number()
    return C(pick([f"card number {n}", f"{brand} number for the hotel booking: {group_card(n)}", f"new debit card {group_card(n)} arrived"]),
             "card", "card_number_bare")


def sp_claim_codes():
    kind, t = pick([
        ("gift_card_code", lambda: f"Amazon gift card claim code: {rs('A', 4)}-{rs('A', 6)}-{rs('A', 5)}"),
        ("gift_card_code", lambda: f"Steam wallet code from {pick(FIRST)}: {rs('A', 5)}-{rs('A', 5)}-{rs('A', 5)}"),
        ("parcel_locker_code", lambda: f"InPost pickup code {pin(6)}, locker {rs('L', 3)}{R.randint(10, 99)}M"),
        ("parcel_locker_code", lambda: f"Amazon Locker pickup code {pin(6)} (expires Friday)"),
        ("meeting_passcode", lambda: f"Zoom: meeting ID {rs('d', 3)} {rs('d', 4)} {rs('d', 4)}, passcode {rs('n', 6)}"),
        ("meeting_passcode", lambda: f"Teams meeting ID: {rs('d', 3)} {rs('d', 3)} {rs('d', 3)} {rs('d', 3)} Passcode: {rs('n', 6)}"),
    ])
    return C(t(), "codes", kind)


EN_PERSONAL = [sp_password_prose, sp_password_record, sp_router, sp_pin, sp_codes, sp_codes, sp_wifi, sp_otp,
               sp_backup_codes, sp_totp, sp_seed, sp_security_q, sp_memorable, sp_card, sp_card_bare, sp_claim_codes,
               sp_claim_codes, sp_password_prose, sp_pin, sp_wifi]


# ---------------------------------------------------------------------------
# benign look-alikes (never call a secret generator here)
# ---------------------------------------------------------------------------
REGIONS = ["eu-west-1", "us-east-1", "eu-central-1", "ap-southeast-2", "us-west-2"]


def la_aws_key_id():
    F = [("AWS_ACCESS_KEY_ID", "AKIA" + rs("A", 16)), ("AWS_REGION", pick(REGIONS))]
    if chance(0.5):
        F.insert(1, ("AWS_ACCOUNT_ID", rs("d", 12)))
    return cc(F, "aws", note=pick(["", "secret key is in the team vault, not here", "key id only — ask ops for the secret"]), kind="aws_access_key_id_alone")


def la_twilio_sid():
    F = [("TWILIO_ACCOUNT_SID", "AC" + rs("h", 32)), ("TWILIO_FROM_NUMBER", f"+1{R.randint(201, 989)}555{rs('d', 4)}")]
    if chance(0.4):
        F.append(("TWILIO_MESSAGING_SERVICE_SID", "MG" + rs("h", 32)))
    return cc(F, "twilio", kind="twilio_sid_alone")


def la_cloud_ids():
    k = R.randrange(4)
    if k == 0:
        F = [("AZURE_TENANT_ID", uuid4()), ("AZURE_SUBSCRIPTION_ID", uuid4()), ("AZURE_CLIENT_ID", uuid4())]
        return cc(F, "azure", note=pick(["", "uses managed identity, no client secret"]), kind="tenant_subscription_ids")
    if k == 1:
        proj = f"{pick(WORDS)}-{pick(WORDS)}-{R.randint(100000, 999999)}"
        F = [("GCP_PROJECT_ID", proj), ("GCP_PROJECT_NUMBER", rs("d", 12)), ("SERVICE_ACCOUNT", f"{pick(['ci', 'reader', 'etl'])}@{proj}.iam.gserviceaccount.com")]
        return cc(F, "gcp", kind="project_ids")
    if k == 2:
        F = [("GOOGLE_CLIENT_ID", f"{rs('d', 12)}-{rs('a', 32)}.apps.googleusercontent.com"), ("GITHUB_CLIENT_ID", "Iv23li" + rs("n", 14)),
             ("AUTH0_DOMAIN", f"{rs('l', 8)}.eu.auth0.com")]
        return cc(F[:R.randint(1, 3)], "oauth", note=pick(["", "client IDs are public; secrets are injected at deploy"]), kind="oauth_client_id")
    F = [("AWS_ROLE_ARN", f"arn:aws:iam::{rs('d', 12)}:role/{pick(['ci-deploy', 'ReadOnly', 'github-oidc'])}"), ("AWS_ACCOUNT_ID", rs("d", 12)),
         ("S3_BUCKET", f"{pick(WORDS)}-{pick(['assets', 'backups', 'logs'])}-{rs('a', 6)}")]
    return cc(F, "aws", kind="arn_account_ids")


def la_uuids():
    return C(pick([f"Support ticket ref {uuid4()}, trace id {rs('h', 32)}", f"request-id: {uuid4()} (the 502 on checkout)",
                   f"correlation id {uuid4()} — send to vendor support", f"Device ID of the old phone: {uuid4().upper()}",
                   f"Pod {pick(['api', 'worker', 'web'])}-{rs('a', 10)}-{rs('a', 5)} restarted, uid {uuid4()}"]), "ids", "uuid_identifier")


def la_commit():
    sha = rs("h", 40)
    return C(pick([f"Deployed {sha} to prod on {iso_date()}", f"bisect: good {rs('h', 7)}, bad {sha}", f"Release v{R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)} = commit {sha}",
                   f"revert {sha[:12]} if the migration fails", f"git cherry-pick {sha}"]), "git", "commit_sha")


def la_hashes():
    k = R.randrange(5)
    fn = pick(["ubuntu-24.04.1-live-server-amd64.iso", "backup-2025-03.tar.zst", "firmware_v2.4.bin", "dataset.parquet"])
    if k == 0:
        t = f"{rs('h', 64)}  {fn}"
    elif k == 1:
        t = f"MD5 ({fn}) = {rs('h', 32)}"
    elif k == 2:
        t = f"image: ghcr.io/{pick(WORDS)}/{pick(['api', 'web', 'worker'])}@sha256:{rs('h', 64)}"
    elif k == 3:
        t = f'<script src="https://cdn.example.net/lib.min.js" integrity="sha384-{b64(rbytes(48))}" crossorigin="anonymous"></script>'
    else:
        t = f'"resolved": "https://registry.npmjs.org/{pick(WORDS)}/-/{pick(WORDS)}-1.{R.randint(0, 9)}.{R.randint(0, 9)}.tgz",\n"integrity": "sha512-{b64(rbytes(64))}"'
    return C(pick(["checksum: ", "verify: ", "", "hash for the download: "]) + t, "checksum", "content_hash")


def bcrypt_like():
    return f"$2b${pick(['10', '12', '12', '14'])}$" + "".join(R.choice("./" + string.ascii_letters + string.digits) for _ in range(53))


def la_pw_hash():
    k = R.randrange(5)
    u = dbuser()
    if k == 0:
        h = bcrypt_like()
        return cc([("username", u), ("password_hash", h)], "users", kind="password_hash_bcrypt")
    if k == 1:
        h = f"$argon2id$v=19$m=65536,t=3,p=4${b64(rbytes(16)).rstrip('=')}${b64(rbytes(32)).rstrip('=')}"
        return cc([("user", u), ("PASSWORD_HASH", h)], "auth", kind="password_hash_argon2")
    if k == 2:
        h = "$6$" + rs("n", 16) + "$" + "".join(R.choice("./" + string.ascii_letters + string.digits) for _ in range(86))
        return C(f"{u}:{h}:19{R.randint(700, 999)}:0:99999:7:::", "shadow", "password_hash_crypt")
    if k == 3:
        h = f"pbkdf2_sha256$870000${rs('n', 22)}${b64(rbytes(32))}"
        return C(f"UPDATE auth_user SET password = '{h}' WHERE username = '{u}';", "django", "password_hash_pbkdf2")
    h = "$apr1$" + rs("n", 8) + "$" + "".join(R.choice("./" + string.ascii_letters + string.digits) for _ in range(22))
    return C(f".htpasswd line for staging:\n{u}:{h}", "htpasswd", "password_hash_apr1")


def la_public_key():
    k = R.randrange(9)
    if k == 0:
        return C(f"my public SSH key (safe to share):\n{ssh_pub()}", "ssh", "ssh_public_key")
    if k == 1:
        return cc([("authorized_keys", ssh_pub())], "server", kind="ssh_public_key")
    if k == 2:
        return C(pem_rsa_public() if chance(0.5) else pem_ec_public(), "public key", "pem_public_key")
    if k == 3:
        return C(f"CA cert for the internal proxy:\n{pem_cert()}", "certificate", "x509_certificate")
    if k == 4:
        return C(pgp_block("PUBLIC"), "pgp", "pgp_public_key")
    if k == 5:
        keys = {"keys": [json.loads(jwk(pick(["RSA", "EC", "OKP"]), private=False)) for _ in range(R.randint(1, 2))]}
        return C(json.dumps(keys, indent=2), "jwks", "jwks_public")
    if k == 6:
        return cc([("age_recipient", "age1" + rs("c", 58))], "backup", kind="age_public_key")
    if k == 7:
        return C(f"[Peer]\nPublicKey = {b64(rbytes(32))}\nAllowedIPs = 10.8.0.{R.randint(2, 250)}/32\nEndpoint = vpn.{pick(WORKDOM)}:51820",
                 "wireguard peer", "wireguard_public_key")
    return C(pick([f"Host key fingerprint: SHA256:{b64(rbytes(32)).rstrip('=')} (ED25519)",
                   f"GPG key fingerprint: {' '.join(rs('H', 4) for _ in range(10))}",
                   f"my nostr pubkey: npub1{rs('c', 58)}"]), "fingerprint", "key_fingerprint")


def la_encrypted():
    k = R.randrange(5)
    if k == 0:
        body = "\n".join(rs("h", 80) for _ in range(R.randint(4, 7)))
        return C(f"$ANSIBLE_VAULT;1.1;AES256\n{body}", "ansible vault", "encrypted_blob_ansible_vault")
    if k == 1:
        v = f"ENC[AES256_GCM,data:{b64(rbytes(R.randint(12, 40)))},iv:{b64(rbytes(32))},tag:{b64(rbytes(16))},type:str]"
        return cc([("db_password", v)], "sops", note="sops-encrypted; key is in KMS", kind="encrypted_blob_sops")
    if k == 2:
        return C(f"-----BEGIN AGE ENCRYPTED FILE-----\n{wrap(b64(rbytes(R.randint(200, 320))))}\n-----END AGE ENCRYPTED FILE-----",
                 "age", "encrypted_blob_age")
    if k == 3:
        return C(f"-----BEGIN PGP MESSAGE-----\n\n{wrap(b64(rbytes(R.randint(250, 400))))}\n={b64(rbytes(3))}\n-----END PGP MESSAGE-----",
                 "pgp", "encrypted_blob_pgp")
    return C("apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: db\nspec:\n  encryptedData:\n"
             f"    password: {b64(rbytes(R.randint(300, 380)))}", "sealed secret", "encrypted_blob_sealed_secret")


def la_env_ref():
    k = R.randrange(7)
    if k == 0:
        return cc([("DB_HOST", hostname()), ("DB_USER", dbuser()), ("DB_PASSWORD", "${DB_PASSWORD}")], "app", kind="env_reference")
    if k == 1:
        return cc([("NPM_TOKEN", "${{ secrets.NPM_TOKEN }}"), ("NODE_VERSION", "20")], "ci", kind="env_reference")
    if k == 2:
        return C("env:\n  - name: API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: api-credentials\n        key: api-key",
                 "k8s", "env_reference")
    if k == 3:
        return C(pick(['api_key = os.environ["OPENAI_API_KEY"]', 'const token = process.env.GITHUB_TOKEN;',
                       'password: "%env(DATABASE_PASSWORD)%"', 'stripe.api_key = ENV.fetch("STRIPE_SECRET_KEY")',
                       'export AWS_SECRET_ACCESS_KEY="$(pass show aws/ci)"']), "code", "env_reference")
    if k == 4:
        return cc([("DATABASE_URL", f"postgres://{dbuser()}:${{PGPASSWORD}}@{hostname()}:5432/app")], "db", kind="env_reference")
    if k == 5:
        return C("//registry.npmjs.org/:_authToken=${NPM_TOKEN}\nalways-auth=true", ".npmrc", "env_reference")
    return cc([("SLACK_WEBHOOK_URL", "${SLACK_WEBHOOK_URL}"), ("SLACK_CHANNEL", "#alerts")], "alerts", kind="env_reference")


def la_secret_manager_ref():
    acct = rs("d", 12)
    v = pick([f"vault:secret/data/{pick(['prod', 'staging'])}/{pick(['db', 'stripe', 'github'])}#{pick(['password', 'token', 'api_key'])}",
              f"arn:aws:secretsmanager:{pick(REGIONS)}:{acct}:secret:prod/{pick(['db', 'api'])}-{rs('n', 6)}",
              f"op://{pick(['Private', 'Engineering', 'Family'])}/{pick(['GitHub', 'Stripe', 'Router'])}/{pick(['password', 'credential', 'token'])}",
              f"projects/{rs('d', 12)}/secrets/{pick(['db-password', 'api-key'])}/versions/latest",
              f"https://{rs('l', 8)}-kv.vault.azure.net/secrets/{pick(['db-password', 'sendgrid-key'])}/{rs('h', 32)}",
              f"ssm:/{pick(['prod', 'dev'])}/{pick(['payments', 'search'])}/api_key"])
    return cc([(pick(["DB_PASSWORD", "API_KEY", "GITHUB_TOKEN", "password", "secret_ref"]), v)], "secrets", kind="secret_manager_reference")


def la_placeholder():
    v = pick(["<your-api-key>", "YOUR_API_KEY_HERE", "<INSERT_TOKEN>", "sk-...", "REPLACE_ME", "xxxxxxxxxxxxxxxxxxxx",
              "<password>", "changeme", "TODO", "your_secret_here", "ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "<paste token here>",
              "********", "None", "\"\""])
    name = pick(["API_KEY", "OPENAI_API_KEY", "DB_PASSWORD", "GITHUB_TOKEN", "SECRET_KEY", "STRIPE_SECRET_KEY", "password"])
    notes = ["placeholder — real value comes from the vault", "template, fill in locally", "default slot, replaced at deploy"]
    note = pick(notes) if v in ("changeme", "TODO", "None", "\"\"", "********") else pick(notes + [""])
    return cc([(name, v)] + ([("DEBUG", "false")] if chance(0.4) else []), "template", note=note, kind="placeholder")


def la_masked():
    k = R.randrange(6)
    if k == 0:
        v = "sk-" + "*" * R.randint(4, 20) + rs("n", 4)
    elif k == 1:
        v = "ghp_" + "•" * 8 + rs("n", 4)
    elif k == 2:
        v = "AKIA" + "*" * 12 + rs("A", 4)
    elif k == 3:
        v = f"xoxb-…{rs('n', 4)} (redacted)"
    elif k == 4:
        v = "[REDACTED]"
    else:
        v = rs("n", 4) + "…" + rs("n", 4)
    name = pick(["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_ACCESS_KEY_ID", "SLACK_BOT_TOKEN", "API_KEY", "token"])
    if chance(0.5):
        return C(pick([f"The key in the dashboard shows as {v}, it's the one ending {v[-4:]}", f"{name}={v} (masked in the logs)",
                       f"old token {v} was revoked on {iso_date()}"]), "masked", "masked_value")
    return cc([(name, v)], "logs", note="masked", kind="masked_value")


def la_publishable():
    k = R.randrange(10)
    if k == 0:
        return cc([("STRIPE_PUBLISHABLE_KEY", pick(["pk_live_", "pk_test_"]) + "51" + rs("n", 97))], "stripe", note="publishable key, safe in the browser", kind="publishable_key_stripe")
    if k == 1:
        return cc([("NEXT_PUBLIC_MAPBOX_TOKEN", "pk.eyJ1Ijoi" + rs("b", 30) + "IiwiYSI6I" + rs("b", 30) + "In0." + rs("u", 22))], "mapbox", note="public token (pk.), URL-restricted", kind="publishable_key_mapbox")
    if k == 2:
        return cc([("ALGOLIA_APP_ID", rs("A", 10)), ("ALGOLIA_SEARCH_ONLY_KEY", rs("h", 32))], "algolia", note="search-only key, meant for the frontend", kind="publishable_key_algolia")
    if k == 3:
        return cc([("NEXT_PUBLIC_POSTHOG_KEY", "phc_" + rs("n", 43)), ("NEXT_PUBLIC_POSTHOG_HOST", "https://eu.i.posthog.com")], "posthog", note="project API key is public by design", kind="publishable_key_posthog")
    if k == 4:
        return cc([("SENTRY_DSN", f"https://{rs('h', 32)}@o{rs('d', 6)}.ingest.sentry.io/{rs('d', 7)}")], "sentry", note="DSN is public (client-side)", kind="public_dsn_sentry")
    if k == 5:
        cfg = {"apiKey": "AIza" + rs("u", 35), "authDomain": f"{pick(WORDS)}-app.firebaseapp.com", "projectId": f"{pick(WORDS)}-app",
               "appId": f"1:{rs('d', 12)}:web:{rs('h', 22)}"}
        return C("// Firebase web config (public, shipped in the client bundle)\nconst firebaseConfig = " + json.dumps(cfg, indent=2) + ";",
                 "firebase", "publishable_firebase_web_config")
    if k == 6:
        return cc([("RECAPTCHA_SITE_KEY", "6L" + rs("u", 38))], "recaptcha", note="site key (public); the secret key is separate", kind="publishable_recaptcha_site_key")
    if k == 7:
        return cc([("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", "pk_live_" + b64(f"clerk.{pick(WORKDOM)}$".encode()).rstrip("="))], "clerk", note="publishable", kind="publishable_key_clerk")
    if k == 8:
        anon = jwt("HS256", {"iss": "supabase", "ref": rs("l", 20), "role": "anon", "iat": 1_700_000_000 + R.randint(0, 5 * 10**7), "exp": 2_000_000_000})
        return cc([("NEXT_PUBLIC_SUPABASE_ANON_KEY", anon)], "supabase", note="anon key — public, protected by RLS", kind="publishable_supabase_anon")
    return C(pick([f"GA measurement ID G-{rs('A', 10)}", f"GTM container GTM-{rs('A', 7)}", f"Plausible domain {pick(WORKDOM)}, script data-domain attr",
                   f"Meta pixel id {rs('d', 15)}"]), "analytics", "public_analytics_id")


TEST_CARDS = [("4242424242424242", "Visa"), ("4000056655665556", "Visa debit"), ("5555555555554444", "Mastercard"),
              ("2223003122003222", "Mastercard 2-series"), ("5200828282828210", "Mastercard debit"), ("378282246310005", "Amex"),
              ("371449635398431", "Amex"), ("6011111111111117", "Discover"), ("3056930009020004", "Diners"),
              ("4000000000000002", "Visa (always declined)"), ("4000002500003155", "Visa (3DS required)")]


def la_test_card():
    n, brand = pick(TEST_CARDS)
    shown = group_card(n) if chance(0.5) else n
    return C(pick([f"Stripe test card ({brand}): {shown}, any future expiry, any CVC — test mode only",
                   f"for QA in test mode use the documented test card {shown} ({brand})",
                   f"test card {shown} exp 12/34 CVC 123 (Stripe docs test number, not a real card)"]), "test card", "published_test_card")


def la_doc_example():
    k = R.randrange(6)
    if k == 0:
        return cc([("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"), ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")], "aws",
                  note="example values from the AWS docs", kind="documented_example_aws")
    if k == 1:
        return C("jwt.io example token (docs sample, not ours): eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
                 "jwt example", "documented_example_jwt")
    if k == 2:
        return C("Slack docs example webhook format: https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX", "slack docs", "documented_example_webhook")
    if k == 3:
        return cc([("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;")],
                  "azurite", note="Azurite local emulator default, publicly documented", kind="documented_example_azurite")
    if k == 4:
        return C("RFC 6238 test vector seed (ASCII \"12345678901234567890\", base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ) — for unit tests of our TOTP code",
                 "rfc test vector", "documented_example_totp")
    return C("BIP39 test vector from the spec (publicly known, empty wallet): abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
             "bip39 test vector", "documented_example_mnemonic")


def la_order_numbers():
    return C(pick([f"UPS tracking 1Z{rs('A', 6)}{rs('d', 10)}", f"DHL parcel {rs('d', 10)}", f"Amazon order {rs('d', 3)}-{rs('d', 7)}-{rs('d', 7)}",
                   f"Invoice INV-{R.randint(2024, 2026)}-{rs('d', 5)} due {iso_date()}", f"Booking reference {rs('L', 6)} ({pick(['Lufthansa', 'easyJet', 'KLM', 'Iberia'])})",
                   f"Hotel confirmation #{rs('d', 10)}", f"Return authorization RMA-{rs('A', 8)}", f"Case number {rs('d', 8)} with the insurer",
                   f"Train ticket order {rs('A', 3)}{rs('d', 6)}, coach {R.randint(1, 12)} seat {R.randint(1, 80)}"]), "orders", "order_tracking_booking")


def la_misc_numbers():
    return C(pick([f"Windows update fails with 0x8007{rs('H', 4)}", f"ORA-{rs('d', 5)} on the nightly job", f"HTTP {pick(['502', '503', '429'])} from the API since {iso_date()}",
                   f"running node v{R.randint(18, 22)}.{R.randint(0, 15)}.{R.randint(0, 9)}, npm {R.randint(9, 11)}.{R.randint(0, 9)}.{R.randint(0, 9)}",
                   f"SKU {rs('A', 3)}-{rs('d', 5)}-{rs('A', 2)}, ISBN 978-{rs('d', 1)}-{rs('d', 3)}-{rs('d', 5)}-{rs('d', 1)}",
                   f"flight {pick(['LH', 'BA', 'AF', 'UA', 'NH', 'TK'])}{R.randint(100, 9999)} departs {R.randint(5, 22)}:{pick(['05', '20', '45'])}",
                   f"measurements: {R.randint(60, 120)}x{R.randint(40, 90)}x{R.randint(30, 80)} cm, {R.randint(2, 40)}.{R.randint(0, 9)} kg",
                   f"final score {R.randint(0, 5)}-{R.randint(0, 5)}, next match {human_date()}", f"zip code {pick(CITIES)[1]}",
                   f"{pick(FIRST)}'s number: {phone()}", f"Build {R.randint(1000, 99999)} passed in {R.randint(2, 40)}m{R.randint(0, 59)}s",
                   f"Postcode {pick(CITIES)[1]}, parcel shop opening hours 8-20"]), "numbers", "misc_numbers")


def la_password_talk():
    return C(pick([f"I changed my {pick(SITES)} password yesterday; the new one is in 1Password.",
                   f"The PIN for the {pick(BANKS)} card is in the top drawer of the desk.",
                   f"Door code changes on {human_date()} — {pick(FIRST)} will text it.",
                   f"Guest Wi-Fi \"{pick(SSIDS)}\" is open, no password.",
                   f"Reset my {pick(SITES)} password — the link expired, try again tomorrow.",
                   "Password rules for the school portal: 12+ characters, one symbol, no reuse of the last 5.",
                   f"2FA is on for {pick(SITES)} via the authenticator app; backup codes are printed and in the safe.",
                   f"Locker number {R.randint(1, 400)} at the gym (bring own padlock).",
                   f"Buzz flat {R.randint(1, 9)}{pick('ABCD')}, {pick(FIRST)} will let you in.",
                   "Never store the alarm code in the phone — it's on the card in my wallet.",
                   f"{pick(FIRST)} knows the garage code, ask her.",
                   f"Bank says they will never ask for my PIN by phone; report calls to {phone()}.",
                   f"Forgot the Wi-Fi password again, it's on the sticker under the router.",
                   f"Card ending {rs('d', 4)} expires {R.randint(1, 12):02d}/{R.randint(26, 30)} — order replacement."]), "note", "password_talk")


_LANG_ORDER = list(LANG)
_LANG_POS = {"talk": 0, "ordinary": 0}


def next_lang(stream):
    i = _LANG_POS[stream]
    _LANG_POS[stream] = i + 1
    return _LANG_ORDER[i % len(_LANG_ORDER)]


def la_lang_talk():
    lang = next_lang("talk")
    typ = pick(["t_pw", "t_pin", "t_door", "t_wifi"])
    return C(lang_fill(lang, LANG[lang][typ]), pick(["note", "memo", lang + " note", "saved"]), "password_talk", lang=lang)


def la_vendor_object_ids():
    return C(pick([f"Stripe customer cus_{rs('n', 14)}, subscription sub_{rs('n', 24)}, last invoice in_{rs('n', 24)}",
                   f"payment intent pi_{rs('n', 24)} failed, charge ch_{rs('n', 24)}", f"price_{rs('n', 24)} is the yearly plan, product prod_{rs('n', 14)}",
                   f"OpenAI org org-{rs('n', 24)}, project proj_{rs('n', 24)}", f"assistant asst_{rs('n', 24)} uses file file-{rs('n', 22)}",
                   f"Anthropic request id req_011C{rs('n', 20)} for the timeout", f"message id msg_01{rs('n', 22)}",
                   f"Slack channel C0{rs('A', 9)}, user U0{rs('A', 9)}, workspace T0{rs('A', 9)}",
                   f"connected account acct_1{rs('n', 15)} (Stripe Connect)", f"chatcmpl-{rs('n', 29)} returned an empty reply"]), "ids", "vendor_object_ids")


def la_crypto_public():
    return C(pick([f"my ETH address for reimbursements: 0x{rs('h', 40)}", f"tx hash 0x{rs('h', 64)} confirmed on {iso_date()}",
                   f"BTC receive address bc1q{rs('c', 38)}", f"token contract 0x{rs('h', 40)} on Base",
                   f"txid {rs('h', 64)} (bitcoin, 3 confirmations)", f"ENS: {ascii_fold(pick(FIRST)).lower()}{R.randint(1, 99)}.eth"]), "crypto", "public_crypto_address_or_hash")


def la_encoded_benign():
    plain = pick([f"meeting moved to {human_date()}", f"ship to {address()}", f"{pick(FIRST)} likes oat milk", '{"theme":"dark","lang":"en"}',
                  f"call {pick(FIRST)} back about the quote", "grocery: eggs, rice, lemons", f"flight {pick(['LH', 'BA'])}{R.randint(100, 999)} gate B{R.randint(1, 40)}"])
    k = R.randrange(6)
    if k == 0:
        return C(f"base64: {b64(plain.encode())}", "encoded", "encoded_benign_base64")
    if k == 1:
        return C(f"hex: {plain.encode().hex()}", "encoded", "encoded_benign_hex")
    if k == 2:
        return C(f"rot13 (spoiler): {codecs.encode(plain, 'rot13')}", "encoded", "encoded_benign_rot13")
    if k == 3:
        return C(f"reversed for the puzzle: {plain[::-1]}", "encoded", "encoded_benign_reversed")
    if k == 4:
        return C(f"zlib+base64 of the settings: {b64(zlib.compress(plain.encode(), 9))}", "encoded", "encoded_benign_zlib")
    return C(f"url-encoded: {urllib.parse.quote(plain, safe='')}", "encoded", "encoded_benign_url")


SPELL_EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def la_digits_benign():
    k = R.randrange(6)
    n = rs("d", 3)
    if k == 0:
        return C(f"our flat is number {' '.join(SPELL_EN[int(c)] for c in n)} on the third floor", "address", "spelled_digits_benign")
    if k == 1:
        ar = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
        return C(f"العنوان: شارع {R.randint(1, 99)} عمارة {R.randint(1, 40)}، الرمز البريدي {rs('d', 5)}".translate(ar), "address", "non_ascii_digits_benign")
    if k == 2:
        dv = str.maketrans("0123456789", "०१२३४५६७८९")
        return C(f"शादी की तारीख {R.randint(1, 28)}/{R.randint(1, 12)}/{R.randint(2025, 2026)}, हॉल नंबर {R.randint(1, 9)}".translate(dv), "date", "non_ascii_digits_benign")
    if k == 3:
        p = phone()
        a, b = p[:len(p) // 2], p[len(p) // 2:]
        return C(f"phone, first half: {a}\nsecond half: {b}", "phone", "split_benign", fields=[("part_1", a), ("part_2", b)])
    if k == 4:
        fw = str.maketrans("0123456789-", "０１２３４５６７８９－")
        return C(f"〒{rs('d', 3)}-{rs('d', 4)} 大阪市北区梅田{R.randint(1, 3)}-{R.randint(1, 9)}-{R.randint(1, 20)}".translate(fw), "住所", "fullwidth_digits_benign")
    return C(f"lottery numbers we always play: {' '.join(str(x) for x in sorted(R.sample(range(1, 50), 6)))}", "lottery", "number_list_benign")


def la_code_concat_benign():
    return C(pick([f'base = "https://api.{pick(WORKDOM)}"\nurl = base + "/v2/" + "orders" + "?page=" + str(page)',
                   "greeting = ''.join(['Hel', 'lo, ', name, '!'])",
                   "const label = `${firstName} ${lastName}`.trim();",
                   "String.fromCharCode(72, 105, 33) // prints Hi!",
                   'path = os.path.join(HOME, "Documents", "taxes", str(year))',
                   'msg := fmt.Sprintf("%s-%s", region, env)']), "code", "code_concat_benign")


def la_unicode_benign():
    return C(pick(["family emoji for the group chat: 👨‍👩‍👧‍👦 and 🧑🏽‍🍳", "Ημερομηνία: Τρίτη, ραντεβού στο καφέ Αθηνά",
                   f"Адрес: ул. Ленина, д. {R.randint(1, 80)}, кв. {R.randint(1, 200)}", "＃ＴＯＤＯ　牛乳を買う（全角メモ）",
                   "soft\u00adhyphen test for the typesetter: hy\u00adphen\u00adation", "word\u200bbreak hints in the Thai text: ภาษา\u200bไทย"]), "text", "unicode_text_benign")


def la_config_no_secret():
    k = R.randrange(6)
    if k == 0:
        return C(f"Host {pick(['prod-bastion', 'nas', 'pi'])}\n  HostName {hostname()}\n  User {dbuser()}\n  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes", "ssh config", "config_without_secret")
    if k == 1:
        return C("git config --global credential.helper osxkeychain\ngit config --global user.email " + email_for(), "git", "config_without_secret")
    if k == 2:
        return C("users:\n- name: eks-admin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n"
                 f"      args: [\"eks\", \"get-token\", \"--cluster-name\", \"{pick(WORDS)}\"]", "kubeconfig", "config_without_secret")
    if k == 3:
        return cc([("DATABASE_URL", f"postgres://{dbuser()}@{hostname()}:5432/{pick(['app', 'orders'])}?sslmode=verify-full")], "db",
                  note="password comes from ~/.pgpass", kind="config_without_secret")
    if k == 4:
        return C(f"[profile {pick(['dev', 'prod'])}]\nsso_start_url = https://{rs('l', 8)}.awsapps.com/start\nsso_region = {pick(REGIONS)}\n"
                 f"sso_account_id = {rs('d', 12)}\nsso_role_name = {pick(['Admin', 'ReadOnly'])}\nregion = {pick(REGIONS)}", "aws config", "config_without_secret")
    return C(f"[global]\nindex-url = https://pypi.org/simple\nextra-index-url = https://pypi.{pick(WORKDOM)}/simple\ntimeout = 60", "pip.conf", "config_without_secret")


def la_personal_ids():
    return C(pick([f"VIN of the Golf: WVW{rs('A', 14)}", f"license plate {rs('L', 2)}-{rs('L', 2)} {R.randint(100, 9999)}",
                   f"passport no. {rs('L', 1)}{rs('A', 8)}, expires {iso_date(2027, 2034)}", f"driver's licence {rs('L', 1)}{rs('d', 7)}",
                   f"health insurance member ID {rs('L', 1)}{rs('d', 9)}", f"library card {rs('d', 9)}",
                   f"frequent flyer number {rs('d', 9)}", f"NHS number {rs('d', 3)} {rs('d', 3)} {rs('d', 4)}"]), "documents", "personal_identifier")


def la_public_links():
    return C(pick([f"video to watch later: https://www.youtube.com/watch?v={rs('u', 11)}", f"spotify:track:{rs('n', 22)}",
                   f"https://github.com/{pick(WORDS)}/{pick(WORDS)}/issues/{R.randint(1, 9999)}", f"paper doi:10.{R.randint(1000, 9999)}/{rs('a', 8)}",
                   f"arXiv:{R.randint(2301, 2512)}.{rs('d', 5)}", f"webinar registration: https://zoom.us/webinar/register/WN_{rs('u', 22)}",
                   f"Zoom meeting ID {rs('d', 3)} {rs('d', 4)} {rs('d', 4)} — host will admit from the waiting room",
                   f"maps: https://maps.app.goo.gl/{rs('n', 17)}"]), "links", "public_link_or_id")


def la_otp_talk():
    return C(pick([f"{pick(BANKS)} sends a 6-digit code by SMS whenever I log in from a new device.",
                   "Backup codes for the email account are printed and in the fireproof box.",
                   f"Set up the authenticator app for {pick(SITES)}; QR code scanned, nothing to save here.",
                   "Parcel locker sends the pickup code by SMS on delivery day.",
                   "The meeting passcode is in the calendar invite.",
                   "Gift card arrived by email — haven't redeemed it yet, check the inbox."]), "2FA", "otp_talk")


LOOKALIKE_FAMS = [la_aws_key_id, la_twilio_sid, la_cloud_ids, la_cloud_ids, la_uuids, la_commit, la_hashes, la_pw_hash,
                  la_pw_hash, la_public_key, la_public_key, la_encrypted, la_env_ref, la_env_ref, la_secret_manager_ref,
                  la_placeholder, la_placeholder, la_masked, la_masked, la_publishable, la_publishable, la_test_card,
                  la_doc_example, la_order_numbers, la_misc_numbers, la_misc_numbers, la_password_talk, la_password_talk,
                  la_lang_talk, la_lang_talk, la_lang_talk, la_lang_talk, la_vendor_object_ids, la_crypto_public, la_encoded_benign,
                  la_encoded_benign, la_digits_benign, la_code_concat_benign, la_unicode_benign, la_config_no_secret,
                  la_config_no_secret, la_personal_ids, la_public_links, la_otp_talk]


# ---------------------------------------------------------------------------
# ordinary memories (benign, lots of personal data)
# ---------------------------------------------------------------------------
MEDS = [("hypothyroidism", "levothyroxine 50 µg", "every morning before breakfast"), ("type 2 diabetes", "metformin 500 mg", "twice daily with meals"),
        ("hypertension", "ramipril 5 mg", "once daily"), ("asthma", "salbutamol inhaler", "as needed, max 8 puffs/day"),
        ("migraine", "sumatriptan 50 mg", "at onset, max 2 per day"), ("ADHD", "methylphenidate 20 mg", "mornings"),
        ("depression", "sertraline 50 mg", "once daily"), ("atrial fibrillation", "apixaban 5 mg", "twice daily"),
        ("high cholesterol", "atorvastatin 20 mg", "in the evening"), ("epilepsy", "lamotrigine 100 mg", "twice daily")]


def om_contact():
    f, l = person()
    F = [("name", f"{f} {l}"), ("email", email_for(f, l)), ("phone", phone())]
    if chance(0.6):
        F.append(("address", address()))
    if chance(0.4):
        F.append(("birthday", dob()))
    return C("\n".join(f"{k}: {v}" for k, v in F), f"contact: {f}", "contact_card", fields=F)


def om_birthday():
    f, l = person()
    born = dob()
    return C(pick([f"{f}'s birthday is {human_date()} — she likes {pick(['orchids', 'dark chocolate', 'jazz vinyl', 'board games'])}",
                   f"{f} {l} born {born}, turns {2026 - int(born[:4])} this year", f"Anniversary with {f}: {human_date()}",
                   f"Grandma {f}'s birthday {human_date()}, call her at {phone()}"]), "birthday", "family_birthday")


def om_health():
    cond, med, how = pick(MEDS)
    f, l = person()
    t = pick([f"Diagnosed with {cond} in {R.randint(2010, 2025)}. Taking {med} {how}. GP: Dr {l}, {phone()}.",
              f"{f}'s meds: {med} {how}; allergic to {pick(['penicillin', 'peanuts', 'latex', 'ibuprofen'])}.",
              f"Blood test {iso_date()}: HbA1c {R.randint(50, 75) / 10}%, LDL {R.randint(20, 45) / 10} mmol/L. Next check in 3 months.",
              f"Physio for {pick(['knee', 'lower back', 'shoulder'])} every {pick(['Tuesday', 'Thursday'])} at 8:00, {address()}"])
    F = [("condition", cond), ("medication", med), ("dosage", how), ("doctor", f"Dr {l}")] if chance(0.3) else None
    return C(t, "health", "health_note", fields=F)


def om_appointment():
    return C(pick([f"Dentist {human_date()} 10:30 at {address()}", f"Parent-teacher meeting {human_date()} 17:00, room {R.randint(100, 330)}",
                   f"Car service booked {human_date()}, garage phone {phone()}", f"Haircut with {pick(FIRST)} on {human_date()} at 12:15",
                   f"Vet appointment for {pick(PETS)} {human_date()}, vaccination booster"]), "appointment", "appointment")


def om_travel():
    F = [("flight", f"{pick(['LH', 'BA', 'AF', 'UA', 'NH', 'TK', 'KL'])}{R.randint(100, 2999)}"), ("date", iso_date()),
         ("hotel", f"{pick(['Hotel Astoria', 'Ibis Centre', 'Casa Lumen', 'Ryokan Sakura'])}, {pick(CITIES)[0]}"),
         ("booking_ref", rs("L", 6)), ("seat", f"{R.randint(1, 40)}{pick('ACDF')}")]
    if chance(0.5):
        return C("\n".join(f"{k}: {v}" for k, v in F), "trip", "travel_plan", fields=F)
    return C(f"Trip to {pick(CITIES)[0]}: flight {F[0][1]} on {F[1][1]}, staying at {F[2][1]}, prefer aisle seat, vegetarian meal.", "trip", "travel_plan")


def om_preferences():
    return C(pick(["I prefer tea over coffee, no sugar, a splash of oat milk.", "Window seat on short flights, aisle on long-haul.",
                   "Vegetarian, but eats fish occasionally. No coriander!", "Call me by my middle name at work.",
                   "Likes the meeting notes in bullet points, max one page.", "Prefers replies in German when it's about the flat.",
                   f"Shoe size EU {R.randint(36, 46)}, shirt size {pick(['S', 'M', 'L', 'XL'])}", "Running: 5k three times a week, goal sub-25 by summer.",
                   "Please always use metric units and 24-hour time."]), "preferences", "preference")


def om_work():
    f, l = person()
    return C(pick([f"1:1 with {f} moved to Thursdays 14:00. Topics: hiring plan, Q3 OKRs.",
                   f"Project Falcon deadline {human_date()}; {f} {l} ({email_for(f, l, work=True)}) owns the API part.",
                   f"Standup notes: migration {R.randint(40, 95)}% done, blocker is the legacy CSV export.",
                   f"New manager is {f} {l}, office {R.randint(1, 5)}.{R.randint(10, 60)}, ext. {rs('d', 4)}.",
                   f"Expense report for {pick(CITIES)[0]} trip: {R.randint(200, 1500)} EUR, submit by the 5th.",
                   f"Onboarding buddy for {f}: me. Prepare laptop, Jira access request, team lunch on {human_date()}."]), "work", "work_note")


def om_recipe():
    return C(pick(["Pancakes: 200 g flour, 2 eggs, 300 ml milk, pinch of salt, 1 tbsp sugar. Rest 20 min.",
                   "Grandma's goulash: 1 kg beef, 3 onions, 2 tbsp paprika, 1 tsp caraway, simmer 2.5 h.",
                   "Overnight oats: 50 g oats, 150 ml milk, 1 tbsp chia, berries. Fridge 8 h.",
                   "Dal: 250 g red lentils, 1 tsp turmeric, 1 tsp cumin seeds, 2 garlic cloves, 400 ml coconut milk.",
                   "Focaccia: 500 g flour, 400 g water, 10 g salt, 4 g yeast, 50 ml olive oil, 220°C for 25 min."]), "recipe", "recipe")


def om_code():
    return C(pick([
        "def slugify(s):\n    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')",
        "server {\n    listen 80;\n    server_name example.org;\n    location / {\n        proxy_pass http://127.0.0.1:8000;\n    }\n}",
        "services:\n  web:\n    image: nginx:1.27\n    ports:\n      - \"8080:80\"\n    volumes:\n      - ./site:/usr/share/nginx/html:ro",
        '{\n  "compilerOptions": {\n    "target": "ES2022",\n    "strict": true,\n    "moduleResolution": "bundler"\n  }\n}',
        "SELECT customer_id, COUNT(*) AS orders\nFROM orders\nWHERE created_at >= now() - interval '30 days'\nGROUP BY 1 ORDER BY 2 DESC LIMIT 20;",
        "#!/usr/bin/env bash\nset -euo pipefail\nrsync -av --delete ~/Photos/ /mnt/backup/photos/",
        "0 3 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1",
        "[tool.ruff]\nline-length = 100\ntarget-version = \"py311\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"",
        f"git remote add upstream https://github.com/{pick(WORDS)}/{pick(WORDS)}.git\ngit fetch upstream && git rebase upstream/main",
        "LOG_LEVEL=info\nPORT=8080\nFEATURE_NEW_CHECKOUT=false\nTZ=Europe/Berlin"]), "snippet", "code_or_config")


def om_config_fields():
    F = [("LOG_LEVEL", pick(["info", "debug", "warn"])), ("PORT", str(pick([3000, 8000, 8080]))), ("REGION", pick(REGIONS)),
         ("TIMEOUT_SECONDS", str(R.randint(5, 120))), ("FEATURE_FLAGS", pick(["new-ui,beta-search", "none", "dark-mode"]))]
    R.shuffle(F)
    return cc(F[:R.randint(2, 5)], pick(["app", "worker", "api", "frontend"]), kind="config_no_secret")


def om_family():
    f1, l1 = person()
    f2, _ = person()
    return C(pick([f"{f1}'s school: {pick(['Goethe-Grundschule', 'St Mary’s Primary', 'École Jules Ferry'])}, teacher {f2} {pick(LAST)} ({email_for(f2, pick(LAST))}). Pickup 15:30.",
                   f"Emergency contact: {f1} {l1}, {phone()}, {address()}",
                   f"{f1} is allergic to {pick(['nuts', 'eggs', 'cats', 'wasp stings'])}; EpiPen in the blue bag.",
                   f"Parents' address: {address()}. Landline {phone()}.", f"Babysitter {f1}: {phone()}, {R.randint(12, 18)} EUR/h, free Tue/Thu."]), "family", "family_fact")


def om_documents():
    return C(pick([f"Passport expires {iso_date(2027, 2034)}, renew 6 months before.", f"Car insurance renews {human_date()}, policy {rs('A', 3)}-{rs('d', 7)}",
                   f"Tax ID is in the blue folder; appointment with the accountant {human_date()}.", f"Rent {R.randint(700, 2200)} EUR due on the 1st, landlord {' '.join(person())}, {phone()}",
                   f"Electricity meter reading {iso_date()}: {rs('d', 5)} kWh", f"Warranty for the washing machine until {iso_date(2026, 2029)}, receipt in the drawer."]), "admin", "household_admin")


def om_misc():
    return C(pick(["Books to read: The Left Hand of Darkness, Piranesi, Middlemarch.", "Movies: Perfect Days, Past Lives, Aftersun.",
                   "Gift ideas for Dad: fountain pen, bird feeder, concert tickets.", "Plant watering: fern weekly, cactus monthly.",
                   f"Gym schedule: Mon/Wed/Fri {R.randint(6, 8)}:00, leg day Friday.", "Shopping: eggs, rice, lemons, dish soap, batteries (AA).",
                   f"Quote I liked: \"{pick(['Done is better than perfect.', 'Slow is smooth, smooth is fast.', 'Leave it better than you found it.'])}\"",
                   "Kids' screen time: 1 h on school days, 2 h weekends."]), "misc", "misc_note")


def om_todo():
    items = R.sample(["renew passport", "call the plumber", f"email {pick(FIRST)} about the offsite", "book dentist", "pay the electricity bill",
                      "return the library books", "order cat food", "update CV", "back up the laptop", f"RSVP to {pick(FIRST)}'s wedding"], R.randint(3, 6))
    return C("TODO:\n" + "\n".join(f"- {i}" for i in items), "todo", "todo_list", lines=items)


def om_lang():
    lang = next_lang("ordinary")
    typ = pick(["t_note", "t_appt"])
    return C(lang_fill(lang, LANG[lang][typ]), pick(["note", "memo", lang + " note", "saved"]), "multilingual_" + typ[2:], lang=lang)


ORDINARY_FAMS = [om_contact, om_contact, om_birthday, om_health, om_health, om_appointment, om_travel, om_preferences,
                 om_work, om_work, om_recipe, om_code, om_code, om_config_fields, om_family, om_family, om_documents, om_misc,
                 om_todo, om_lang, om_lang, om_lang, om_lang]


# ---------------------------------------------------------------------------
# evasions (secret, hard): each technique used at most twice
# ---------------------------------------------------------------------------
MULTI_MARKERS = ("{pem", "{openssh", "{putty", "{pgp", "{jwk", "{gcp_sa", "{ovpn", "{sol_json", "{b64pem", "{docker_auth", "{bip39")


def tok_pick(maxlen=64, minlen=16, alpha=None):
    while True:
        kind, cat, fields = pick(CAT)
        name, tpl = fields[-1]
        if any(m in tpl for m in MULTI_MARKERS):
            continue
        v = render(tpl)
        if "\n" in v or not (minlen <= len(v) <= maxlen):
            continue
        if alpha and not all(c in alpha for c in v):
            continue
        return hum(name), v


def secret_pick(maxlen=64):
    r = R.random()
    if r < 0.6:
        return tok_pick(maxlen)
    if r < 0.85:
        return f"{pick(SITES)} password", human_pw()
    return f"Wi-Fi password for {pick(SSIDS)}", wifi_psk()


def digit_pick():
    r = R.randrange(6)
    if r == 0:
        return f"{pick(BANKS)} card PIN", pin(4)
    if r == 1:
        return "front door code", pin(pick([4, 5, 6]))
    if r == 2:
        return "garage code", pin(4)
    if r == 3:
        return "alarm code", pin(pick([4, 6]))
    if r == 4:
        return "phone unlock code", pin(6)
    b, n = card_number()
    return f"{b} card number", n


def chunks(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def say(label, enc, how):
    return pick([f"{label} ({how}): {enc}", f"{label} — {how}:\n{enc}", f"{how} {label}: {enc}", f"{enc}\n^ {label}, {how}"])


HOMO = str.maketrans({"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "A": "А", "B": "В",
                      "E": "Е", "K": "К", "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х", "s": "ѕ"})


def math_bold(c):
    if "A" <= c <= "Z":
        return chr(0x1D400 + ord(c) - 65)
    if "a" <= c <= "z":
        return chr(0x1D41A + ord(c) - 97)
    if "0" <= c <= "9":
        return chr(0x1D7CE + ord(c) - 48)
    return c


def caesar(s, k):
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + k) % 26 + 65))
        elif c.isdigit():
            out.append(str((int(c) + k) % 10))
        else:
            out.append(c)
    return "".join(out)


def vigenere(s, key):
    out, j = [], 0
    for c in s:
        if c.isalpha() and c.isascii():
            k = ord(key[j % len(key)]) - 97
            base = 97 if c.islower() else 65
            out.append(chr((ord(c) - base + k) % 26 + base))
            j += 1
        else:
            out.append(c)
    return "".join(out)


def atbash(s):
    return "".join(chr(219 - ord(c)) if "a" <= c <= "z" else chr(155 - ord(c)) if "A" <= c <= "Z" else c for c in s)


SPELL = {"en": SPELL_EN, "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
         "fr": ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
         "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"]}
NATO = dict(zip(string.ascii_lowercase, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey x-ray yankee zulu".split()))
SYMN = {"_": "underscore", "-": "dash", ".": "dot", "!": "exclamation mark", "#": "hash", "$": "dollar", "*": "star", "?": "question mark",
        "@": "at", "%": "percent", "+": "plus", "/": "slash", "=": "equals", "&": "ampersand", "^": "caret", "~": "tilde", ":": "colon"}
MORSE = ["-----", ".----", "..---", "...--", "....-", ".....", "-....", "--...", "---..", "----."]


def spoken(s, nato=False):
    out = []
    for c in s:
        if c.isdigit():
            out.append(SPELL_EN[int(c)])
        elif c.isalpha():
            w = NATO[c.lower()] if nato else c.lower()
            out.append(("capital " if c.isupper() else ("lowercase " if nato else "")) + w)
        else:
            out.append(SYMN.get(c, f"'{c}'"))
    return ", ".join(out) if nato else " ".join(out)


def ev_spaced():
    l, t = secret_pick(48)
    return C(say(l, " ".join(t), "spaced out"), "note")


def ev_sep_chunks():
    l, t = secret_pick()
    sep = pick([" - ", " | ", " / ", " · "])
    return C(say(l, sep.join(chunks(t, 4)), "drop the separators"), "note")


def ev_newline_chunks():
    l, t = secret_pick()
    return C(f"{l}, one piece per line:\n" + "\n".join(chunks(t, R.randint(5, 9))), "note")


def ev_base64():
    l, t = secret_pick()
    return C(say(l, b64(t.encode()), "base64"), "note")


def ev_b64_envline():
    name, t = tok_pick()
    return C(f"{pick(['config', 'env', '.env line'])} (b64): {b64(f'{envname(name)}={t}'.encode())}", "env")


def ev_hex():
    l, t = secret_pick()
    return C(say(l, t.encode().hex(), "hex"), "note")


def ev_rot13():
    l, t = secret_pick()
    return C(say(l, codecs.encode(t, "rot13"), "rot13"), "note")


def ev_reversed():
    l, t = secret_pick()
    return C(say(l, t[::-1], "written backwards"), "note")


def ev_b64_reversed():
    l, t = secret_pick()
    return C(say(l, b64(t[::-1].encode()), "base64 of the reversed string"), "note")


def ev_double_b64():
    l, t = secret_pick()
    return C(say(l, b64(b64(t.encode()).encode()), "base64 twice"), "note")


def ev_hex_of_b64():
    l, t = secret_pick()
    return C(say(l, b64(t.encode()).encode().hex(), "hex of the base64"), "note")


def ev_zlib_b64():
    l, t = secret_pick()
    return C(say(l, b64(zlib.compress(t.encode(), 9)), "zlib-compressed then base64"), "note")


def ev_url_percent_all():
    l, t = secret_pick()
    return C(say(l, "".join("%%%02X" % b for b in t.encode()), "url-encoded"), "note")


def ev_base32():
    l, t = secret_pick()
    return C(say(l, base64.b32encode(t.encode()).decode(), "base32"), "note")


def ev_base85():
    l, t = secret_pick()
    return C(say(l, base64.b85encode(t.encode()).decode(), "base85"), "note")


def ev_ascii_codes():
    l, t = secret_pick(40)
    return C(say(l, ",".join(str(ord(c)) for c in t), "ASCII codes"), "note")


def ev_octal():
    l, t = secret_pick(40)
    return C(f'{envname(l)} = "' + "".join("\\%03o" % ord(c) for c in t) + '"', "code")


def ev_unicode_escapes():
    l, t = secret_pick(40)
    return C(f'"{ident(l)}": "' + "".join("\\u%04x" % ord(c) for c in t) + '"', "json")


def ev_html_entities():
    l, t = secret_pick(40)
    return C(f"<p>{l}: " + "".join("&#%d;" % ord(c) for c in t) + "</p>", "html")


def ev_homoglyph():
    l, t = secret_pick()
    return C(f"{l}: {t.translate(HOMO)}", "note")


def ev_fullwidth():
    l, t = secret_pick()
    return C(f"{l}: " + "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in t), "note")


def ev_math_bold():
    l, t = secret_pick()
    return C(f"{l}: " + "".join(math_bold(c) for c in t), "note")


def ev_zwsp():
    l, t = secret_pick()
    return C(f"{l}: " + "\u200b".join(t), "note")


def ev_zw_mix():
    l, t = secret_pick()
    return C(f"{l}: " + "".join(c + (pick(["\u200c", "\u200d", "\u2060", "\u00ad"]) if chance(0.6) else "") for c in t), "note")


def ev_rtl_override():
    l, t = secret_pick()
    return C(f"{l}: \u202e{t[::-1]}\u202c", "note")


def ev_split_fields():
    l, t = secret_pick()
    cut = sorted(R.sample(range(3, len(t) - 2), 2))
    parts = [t[:cut[0]], t[cut[0]:cut[1]], t[cut[1]:]]
    F = [(f"{ident(l)}_part_{i + 1}", p) for i, p in enumerate(parts)]
    return C(f"{l} in three pieces, concatenate in order:\n" + "\n".join(f"{k}: {v}" for k, v in F), "pieces", fields=F)


def ev_split_list():
    l, t = secret_pick()
    items = chunks(t, R.randint(4, 8))
    return C(f"{l} (join the items):\n" + "\n".join(f"- {i}" for i in items), "list", lines=[f"{l}, join these:"] + items)


def ev_split_shuffled():
    l, t = secret_pick()
    parts = list(enumerate(chunks(t, R.randint(5, 9)), 1))
    R.shuffle(parts)
    return C(f"{l}, pieces numbered — put them in order:\n" + "\n".join(f"{i}) {p}" for i, p in parts), "pieces",
             fields=[(f"piece_{i}", p) for i, p in parts])


def ev_key_split():
    name, t = tok_pick(maxlen=80, alpha=ALPH["h"] + "x_-v0123456789abcdefdopr")
    m = re.search(r"[0-9a-f]{16,}$", t)
    while not m:
        name, t = tok_pick(maxlen=80)
        m = re.search(r"[0-9a-f]{16,}$", t)
    tail_len = min(R.randint(8, 32), len(m.group()) - 4)
    head, tail = t[:-tail_len], t[-tail_len:]
    c = C(pick([f"{name}: {head} — the rest is the hex after 'mem_' in this memory's key",
                f"{name} starts with {head}; append this note's key (without the mem_ prefix)",
                f"first part of the {name}: {head}. Second part = this memory's key minus 'mem_'."]), "split")
    c["key"] = "mem_" + tail
    return c


def ev_ns_split():
    l, code = pick([("garage code", pin(4)), ("alarm code", pin(4)), ("door code", pin(6)), ("bank card PIN", pin(4))])
    total = max(R.randint(6, 9), len(code) + 2)
    user = "u" + str(R.randint(1, 9)) + rs("d", total - len(code) - 1) + code
    c = C(pick([f"{l}: the last {len(code)} digits of my user number in this folder path",
                f"reminder: {l} = final {len(code)} digits of the u-number this memory is filed under"]), "split")
    c["ns"] = ["memories", user]
    return c


def ev_key_pin():
    l, code = pick([("garage code", pin(4)), ("alarm code", pin(4)), ("safe code", pin(4)), ("bike lock combo", pin(4))])
    c = C(f"{l} = last {len(code)} characters of this note's key", "split")
    c["key"] = "mem_" + rs("h", R.randint(4, 24)) + code
    return c


def ev_py_concat():
    l, t = secret_pick()
    parts = chunks(t, R.randint(5, 12))
    return C(f"{ident(l, 'const')} = " + " + ".join(dq(p) for p in parts), "code")


def ev_js_template():
    l, t = secret_pick()
    a, b = t[:len(t) // 2], t[len(t) // 2:]
    return C(f"const p1 = {dq(a)};\nconst p2 = {dq(b)};\nconst {ident(l, 'camel')} = `${{p1}}${{p2}}`;", "code")


def ev_join_list():
    l, t = secret_pick()
    return C(f"{ident(l)} = ''.join([{', '.join(repr(p) for p in chunks(t, 3))}])", "code")


def ev_fromcharcode():
    l, t = secret_pick(40)
    return C(f"const {ident(l, 'camel')} = String.fromCharCode({', '.join(str(ord(c)) for c in t)});", "code")


def ev_bytes_fromhex():
    l, t = secret_pick()
    return C(f"{ident(l)} = bytes.fromhex({t.encode().hex()!r}).decode()", "code")


def ev_shell_b64():
    l, t = secret_pick()
    return C(f"export {envname(l)}=\"$(echo '{b64(t.encode())}' | base64 -d)\"", "shell")


def ev_go_sprintf():
    l, t = secret_pick()
    parts = chunks(t, (len(t) + 2) // 3)
    return C(f"{ident(l, 'camel')} := fmt.Sprintf(\"{'%s' * len(parts)}\", {', '.join(dq(p) for p in parts)})", "code")


def ev_spelled_en():
    l, d = digit_pick()
    return C(f"{l}: {' '.join(SPELL_EN[int(c)] for c in d)}", "note")


def ev_spelled_other():
    lang = pick(["de", "fr", "es"])
    l, d = digit_pick()
    lab = {"de": "Code", "fr": "code", "es": "código"}[lang]
    return C(f"{l} ({lab}): {' '.join(SPELL[lang][int(c)] for c in d)}", "note")


def digits_in(d, zero):
    return "".join(chr(ord(zero) + int(c)) for c in d)


def ev_arabic_indic():
    l, d = digit_pick()
    return C(f"{l}: {digits_in(d, '٠')}", "note")


def ev_devanagari():
    l, d = digit_pick()
    return C(f"{l}: {digits_in(d, '०')}", "note")


def ev_cjk_numerals():
    l, d = digit_pick()
    return C(f"{l}：{''.join('〇一二三四五六七八九'[int(c)] for c in d)}", "note")


def ev_thai_bengali():
    l, d = digit_pick()
    return C(f"{l}: {digits_in(d, pick(['๐', '০']))}", "note")


def ev_circled():
    l, d = digit_pick()
    return C(f"{l}: {''.join('⓪①②③④⑤⑥⑦⑧⑨'[int(c)] for c in d)}", "note")


def ev_nato():
    l, t = f"{pick(SITES)} password", human_pw()
    return C(f"{l}, spelled out: {spoken(t, nato=True)}", "note")


def ev_interleave():
    l, t = secret_pick(48)
    f = pick(["x", "#", "~", "0"])
    return C(f"{l} — read every other character starting with the first: {''.join(c + f for c in t)}", "note")


def ev_caesar():
    l, t = secret_pick()
    k = R.randint(1, 9)
    return C(f"{l}, Caesar-shifted by {k} (letters and digits): {caesar(t, k)}", "note")


def ev_xor():
    l, t = secret_pick(40)
    key = rs("l", 4)
    enc = bytes(b ^ ord(key[i % 4]) for i, b in enumerate(t.encode())).hex()
    return C(f"{l} XOR key \"{key}\" (hex): {enc}", "note")


def ev_vigenere():
    l, t = secret_pick()
    key = pick(WORDS)
    return C(f"{l}, Vigenère with key \"{key}\" (letters only): {vigenere(t, key)}", "note")


def ev_atbash():
    l, t = secret_pick()
    return C(f"{l} (atbash, a↔z): {atbash(t)}", "note")


def ev_acrostic():
    l, t = f"{pick(SITES)} password", rs("n", R.randint(8, 12))
    lines = [f"{c} {pick(WORDS)}" for c in t]
    return C(f"{l} = first character of each line:\n" + "\n".join(lines), "note", lines=[f"{l}: first characters"] + lines)


def ev_derived():
    y = R.randint(1950, 2010)
    d, m = R.randint(1, 28), R.randint(1, 12)
    return C(pick([f"My bank PIN is my birth year backwards. I was born in {y}.",
                   f"door code = my birthday as DDMM, and my birthday is {d} {MONTHS[m - 1]}",
                   f"alarm code is the year we bought the house ({y}) plus 1111"]), "note")


def ev_morse():
    l, d = digit_pick()
    return C(f"{l} in morse: {' '.join(MORSE[int(c)] for c in d)}", "note")


def ev_binary():
    l, d = digit_pick()
    return C(f"{l}, one nibble per digit: {' '.join(format(int(c), '04b') for c in d)}", "note")


def ev_json_key():
    l, t = secret_pick()
    F = [(t, l)]
    return C(json.dumps({t: l}, ensure_ascii=False), "map", fields=F)


def ev_env_split():
    name, t = tok_pick()
    a, b = t[:len(t) // 2], t[len(t) // 2:]
    F = [(envname(name) + "_PART1", a), (envname(name) + "_PART2", b)]
    c = cc(F, "app", note="concatenate PART1+PART2 at startup")
    return c


def ev_k8s_data_b64():
    name, t = secret_pick()
    return C(f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pick(WORDS)}\ndata:\n  {envname(name)}: {b64(t.encode())}", "k8s")


def ev_reverse_chunks():
    l, t = secret_pick()
    parts = chunks(t, 4)
    return C(f"{l}, groups in reverse order: {' '.join(parts[::-1])}", "note")


def ev_spoken_token():
    l, t = secret_pick(40)
    return C(f"{l} (read aloud on the call): {spoken(t)}", "note")


def ev_variation_selectors():
    l, t = secret_pick()
    return C(f"{l}: " + "".join(c + "\ufe0f" for c in t), "note")


def ev_md_table_cells():
    l, t = secret_pick(32)
    return C(f"{l}\n| " + " | ".join(t) + " |\n|" + "---|" * len(t), "table")


def ev_email_subject_body():
    l, t = secret_pick()
    a, b = t[:len(t) // 2], t[len(t) // 2:]
    return C(f"Subject: {l} part 1: {a}\n\nHi,\nsecond half is {b} — glue them together.\n{pick(FIRST)}", "email")


def ev_url_userinfo_encoded():
    pw = human_pw()
    enc = "".join("%%%02X" % b for b in pw.encode())
    return C(f"DATABASE_URL=postgres://{dbuser()}:{enc}@{hostname()}:5432/{pick(['app', 'crm'])}", "db")


def ev_described_composition():
    pet, y = pick(PETS), R.randint(2005, 2022)
    return C(pick([f"Netflix password is our dog's name ({pet}) followed by the year we got him ({y}) and an exclamation mark",
                   f"laptop password = {pick(WORDS)} in capitals + my house number {R.randint(1, 99)} + #"]), "note")


EVASIONS = [(n[3:], f) for n, f in list(globals().items()) if n.startswith("ev_") and callable(f)]


# ---------------------------------------------------------------------------
# assembly
# ---------------------------------------------------------------------------
N_VENDOR, N_EN_PERSONAL, N_LANG_PER, N_EVASION, N_LOOKALIKE, N_ORDINARY = 222, 60, 4, 104, 255, 205
LUHN_RE = re.compile(r"(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)")


def has_luhn(s):
    for m in LUHN_RE.finditer(s):
        d = re.sub(r"\D", "", m.group())
        if 13 <= len(d) <= 19 and luhn_ok(d):
            return True
    return False


def canon(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def make_ns():
    return ["memories", f"u{R.randint(10**5, 10**9 - 1)}"]


def build():
    recs, seen = [], set()

    # exact, identical shape quotas per label: 70 % string, 20 % object, 10 % array
    n_lab = {"secret": N_VENDOR + N_EN_PERSONAL + N_LANG_PER * len(LANG) + N_EVASION, "benign": N_LOOKALIKE + N_ORDINARY}
    pools = {}
    for lab, n in n_lab.items():
        pool = ["str"] * round(0.7 * n) + ["dict"] * round(0.2 * n)
        pool += ["list"] * (n - len(pool))
        R.shuffle(pool)
        pools[lab] = pool

    def add(label, variant, segment, gen, kind=None, guard=False, meta=None):
        sk = pools[label].pop()
        for _ in range(500):
            core = gen()
            value = shape(core, sk)
            c = canon(value)
            if c in seen:
                continue
            if guard and core.get("kind") != "published_test_card" and has_luhn(c):
                continue
            break
        else:
            raise RuntimeError("could not generate a unique value")
        seen.add(c)
        ns = core.get("ns") or make_ns()
        key = core.get("key") or "mem_" + rs("h", R.randint(8, 32))
        m = dict(meta or {})
        if core.get("lang"):
            m["lang"] = core["lang"]
        m["shape"] = type(value).__name__
        recs.append({"label": label, "kind": core.get("kind") or kind, "variant": variant, "namespace": ns, "key": key,
                     "value": value, "_seg": segment, "_meta": m})

    # every private-key armour is included; the rest of the vendor slice is a random draw
    cat = [e for e in CAT if e[1] == "private_key"]
    rest = [e for e in CAT if e[1] != "private_key"]
    R.shuffle(rest)
    cat = cat + rest[:N_VENDOR - len(cat)]
    R.shuffle(cat)
    for kind, catg, fields in cat:
        def gen(fields=fields, kind=kind):
            F = [(n, render(t)) for n, t in fields]
            if len(F) > 1 and chance(0.2):
                F = F[-1:]
            return cc(F, kind.split("_")[0], kind=kind)
        add("secret", "plain", "vendor", gen, meta={"category": catg})

    for i in range(N_EN_PERSONAL):
        add("secret", "plain", "personal", EN_PERSONAL[i % len(EN_PERSONAL)], meta={"lang": "en"})
    for lang in LANG:
        for typ in R.sample(["pw", "pin", "door", "wifi", "gate"], N_LANG_PER):
            add("secret", "plain", "personal", lambda lang=lang, typ=typ: lang_secret(lang, typ))

    evs = list(EVASIONS)
    R.shuffle(evs)
    twice = N_EVASION - len(evs)
    assert 0 <= twice <= len(evs)
    for j, (name, fn) in enumerate(evs):
        for _ in range(2 if j < twice else 1):
            add("secret", "hard", "evasion", fn, kind=name)

    for i in range(N_LOOKALIKE):
        fam = LOOKALIKE_FAMS[i % len(LOOKALIKE_FAMS)]
        add("benign", "hard", "lookalike", fam, kind=fam.__name__[3:], guard=True)
    for i in range(N_ORDINARY):
        fam = ORDINARY_FAMS[i % len(ORDINARY_FAMS)]
        add("benign", "plain", "ordinary", fam, kind=fam.__name__[3:], guard=True)

    # third neutral folder label: exactly the same rate (30 %) for both labels
    for lab in ("secret", "benign"):
        idx = [i for i, r in enumerate(recs) if r["label"] == lab]
        for i in sorted(R.sample(idx, round(0.3 * len(idx)))):
            recs[i]["namespace"].append(pick(NEUTRAL_FOLDERS))
    assert not pools["secret"] and not pools["benign"]
    counters = Counter()
    for r in recs:
        g = (r["label"][0], r["variant"][0], r["_seg"])
        counters[g] += 1
        r["id"] = f"h21-{g[0]}-{g[1]}-{g[2]}-{counters[g]:03d}"
    R.shuffle(recs)
    vals = [canon(r["value"]) for r in recs]
    assert len(vals) == len(set(vals)), "duplicate values"
    for r in recs:
        assert re.fullmatch(r"mem_[0-9a-f]{8,32}", r["key"]), r["key"]
        assert r["namespace"][0] == "memories" and re.fullmatch(r"u\d+", r["namespace"][1]) and len(r["namespace"]) in (2, 3)
    return recs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stats", action="store_true")
    args = ap.parse_args()
    recs = build()
    lines = []
    for r in recs:
        o = {k: r[k] for k in ("id", "label", "kind", "variant", "namespace", "key", "value")}
        lines.append(json.dumps(o, ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    if args.stats:
        print_stats(recs)
    print(f"records: {len(recs)}")
    print(f"sha256:  {sha}")


def table(title, counter, total=None):
    print(f"\n## {title}")
    for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        print(f"  {str(k):<55} {v:>5}")


def print_stats(recs):
    print(f"catalogue: {len(CAT)} vendor formats ({len(set(tuple(t for _, t in f) for _, _, f in CAT))} distinct templates), "
          f"{len(EVASIONS)} evasion techniques")
    table("label", Counter(r["label"] for r in recs))
    table("label / variant / segment", Counter((r["label"], r["variant"], r["_seg"]) for r in recs))
    table("value shape by label", Counter((r["label"], r["_meta"]["shape"]) for r in recs))
    ns3 = Counter((r["label"], len(r["namespace"]) == 3) for r in recs)
    print("\n## third namespace label rate")
    for lab in ("secret", "benign"):
        n = ns3[(lab, True)] + ns3[(lab, False)]
        print(f"  {lab:<8} {ns3[(lab, True)]}/{n} = {ns3[(lab, True)] / n:.3f}")
    print("\n## mean value length (chars of JSON) by label")
    for lab in ("secret", "benign"):
        L = [len(canon(r["value"])) for r in recs if r["label"] == lab]
        L.sort()
        print(f"  {lab:<8} mean {sum(L) / len(L):.0f}  median {L[len(L) // 2]}")
    table("vendor category", Counter(r["_meta"].get("category") for r in recs if r["_seg"] == "vendor"))
    table("personal secret kind", Counter(r["kind"] for r in recs if r["_seg"] == "personal"))
    table("personal secret language", Counter(r["_meta"].get("lang") for r in recs if r["_seg"] == "personal"))
    table("evasion technique", Counter(r["kind"] for r in recs if r["_seg"] == "evasion"))
    table("look-alike family", Counter(r["kind"] for r in recs if r["_seg"] == "lookalike"))
    table("ordinary topic", Counter(r["kind"] for r in recs if r["_seg"] == "ordinary"))
    table("benign language (multilingual items)", Counter(r["_meta"].get("lang") for r in recs if r["label"] == "benign" and r["_meta"].get("lang")))


if __name__ == "__main__":
    main()
