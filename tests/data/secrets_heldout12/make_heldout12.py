#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""make_heldout12.py -- deterministic generator for held-out secret-detector corpus #12.

Standard library only.  All randomness comes from ONE ``random.Random(1212_2026)``
instance (``R``).  Running this script twice produces byte-identical output.

    python3 make_heldout12.py

writes ``heldout12.jsonl`` and ``README.md`` next to this file.

Every value below was written from general knowledge.  All "secrets" are
synthetic: generated from the seeded RNG in the shape of real credential formats.
"""
import base64
import binascii
import codecs
import gzip
import hashlib
import json
import os
import quopri
import random
import re
import string
import struct
import sys
import unicodedata
import urllib.parse

SEED = 1212_2026
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSONL = os.path.join(HERE, "heldout12.jsonl")
OUT_README = os.path.join(HERE, "README.md")

# ---------------------------------------------------------------------------
# basic random helpers (all use R)
# ---------------------------------------------------------------------------
LOW = string.ascii_lowercase
UPP = string.ascii_uppercase
DIG = string.digits
ALNUM = UPP + LOW + DIG
LOWNUM = LOW + DIG
UPNUM = UPP + DIG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64A = UPP + LOW + DIG + "+/"
B64U = UPP + LOW + DIG + "-_"
B32A = UPP + "234567"
B58A = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32U = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def rs(alpha, n):
    return "".join(alpha[R.randrange(len(alpha))] for _ in range(n))


def A(n):
    return rs(ALNUM, n)


def H(n):
    return rs(HEXL, n)


def HU(n):
    return rs(HEXU, n)


def D(n):
    return rs(DIG, n)


def LN(n):
    return rs(LOWNUM, n)


def UN(n):
    return rs(UPNUM, n)


def BU(n):
    return rs(B64U, n)


def NZ(n):
    """n digits, first one non-zero"""
    return str(R.randint(1, 9)) + D(n - 1)


def pick(seq):
    return seq[R.randrange(len(seq))]


def maybe(p):
    return R.random() < p


def cap(s):
    return s[:1].upper() + s[1:] if s else s


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(n):
    return base64.b64encode(rbytes(n)).decode()


def b64u_nopad(n):
    return base64.urlsafe_b64encode(rbytes(n)).decode().rstrip("=")


def uuid4():
    h = H(32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b64url_json(obj):
    raw = json.dumps(obj, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def make_jwt(payload, alg="HS256", sig_bytes=32, kid=None):
    hdr = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = kid
    return b64url_json(hdr) + "." + b64url_json(payload) + "." + b64u_nopad(sig_bytes)


def epoch():
    return R.randint(1_700_000_000, 1_780_000_000)


def b58encode(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n > 0:
        n, r = divmod(n, 58)
        out = B58A[r] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58encode(payload + chk)


def wrap(s, n):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def ts_iso():
    return (f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T{R.randint(0, 23):02d}:"
            f"{R.randint(0, 59):02d}:{R.randint(0, 59):02d}.{R.randint(0, 999):03d}Z")


def ts_plain():
    return (f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d} {R.randint(0, 23):02d}:"
            f"{R.randint(0, 59):02d}:{R.randint(0, 59):02d}")


def date_iso():
    return f"202{R.randint(5, 6)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def ipv4_private():
    return pick([f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}",
                 f"192.168.{R.randint(0, 20)}.{R.randint(2, 254)}",
                 f"172.{R.randint(16, 31)}.{R.randint(0, 255)}.{R.randint(1, 254)}"])


def ipv4_doc():
    return pick([f"203.0.113.{R.randint(1, 254)}", f"198.51.100.{R.randint(1, 254)}",
                 f"192.0.2.{R.randint(1, 254)}"])


COMPANIES = ["acme-logistics", "brightpath", "nordwind", "kestrel-labs", "bluefin-apps", "orbitly",
             "tallgrass", "quillstone", "harborlight", "pinecrest", "redwood-ops", "lumenhealth",
             "copperleaf", "saltmarsh", "fieldnote", "gravelbox", "northbeam", "oakridge-data",
             "tinkerfox", "velvetpay", "wavecrest", "zephyrcloud", "marigold-shop", "ironbark"]
TLDS = ["com", "io", "dev", "net", "co.uk", "de", "app"]


def company():
    return pick(COMPANIES)


def domain():
    return company() + "." + pick(TLDS)


def pascal_slug(s):
    return "".join(p[:1].upper() + p[1:] for p in s.replace("-", " ").replace(".", " ").split())


# ---------------------------------------------------------------------------
# payment cards
# ---------------------------------------------------------------------------
PUBLISHED_TEST_CARDS = [
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222",
    "5200828282828210", "378282246310005", "371449635398431", "6011111111111117",
    "6011000990139424", "3566002020360505", "6200000000000005", "4111111111111111",
    "5105105105105100", "4012888888881881", "30569309025904", "38520000023237",
]


def luhn_digit(body):
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


CARD_BRANDS = [
    ("Visa", lambda: "4", 16, 3, 5),
    ("Mastercard", lambda: pick(["51", "52", "53", "54", "55"]), 16, 3, 4),
    ("Mastercard", lambda: str(R.randint(2221, 2720)), 16, 3, 1),
    ("American Express", lambda: pick(["34", "37"]), 15, 4, 2),
    ("Discover", lambda: pick(["6011", "65"]), 16, 3, 1),
    ("JCB", lambda: str(R.randint(3528, 3589)), 16, 3, 1),
    ("UnionPay", lambda: "62" + str(R.randint(2126, 2925))[:2], 16, 3, 1),
    ("Mir", lambda: "220" + str(R.randint(0, 4)), 16, 3, 1),
    ("RuPay", lambda: pick(["6521", "6522", "6080", "8172"]), 16, 3, 1),
    ("Troy", lambda: "9792", 16, 3, 1),
    ("Elo", lambda: pick(["636368", "504175", "509048"]), 16, 3, 1),
    ("Maestro", lambda: pick(["6759", "5018", "5020", "6763"]), 16, 3, 1),
]


def card(brand=None):
    pool = []
    for b in CARD_BRANDS:
        pool.extend([b] * b[4])
    while True:
        b = pick(pool) if brand is None else next(x for x in CARD_BRANDS if x[0] == brand)
        prefix = b[1]()
        body = prefix + D(b[2] - len(prefix) - 1)
        num = body + luhn_digit(body)
        if num not in PUBLISHED_TEST_CARDS:
            break
    assert luhn_ok(num) and len(num) == b[2]
    exp_m = R.randint(1, 12)
    exp_y = R.randint(26, 31)
    cvv = D(b[3])
    return {"brand": b[0], "number": num, "exp": f"{exp_m:02d}/{exp_y:02d}", "cvv": cvv,
            "exp_m": exp_m, "exp_y": exp_y}


def card_fmt(num, style=None):
    style = style if style is not None else pick(["space", "space", "plain", "dash"])
    if len(num) == 15:
        groups = [num[:4], num[4:10], num[10:]]
    else:
        groups = [num[i:i + 4] for i in range(0, len(num), 4)]
    if style == "space":
        return " ".join(groups)
    if style == "dash":
        return "-".join(groups)
    return num


# ---------------------------------------------------------------------------
# key material (random bytes wrapped in the real DER / wire-format prefixes)
# ---------------------------------------------------------------------------
def pem_block(label, der, width=64):
    return f"-----BEGIN {label}-----\n" + wrap(base64.b64encode(der).decode(), width) + f"\n-----END {label}-----"


def ec_sec1_der():
    return (bytes.fromhex("30770201010420") + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
            + b"\x04" + rbytes(64))


def ec_pkcs8_der():
    return (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + rbytes(32)
            + bytes.fromhex("a144034200") + b"\x04" + rbytes(64))


def rsa_pkcs1_der():
    return bytes.fromhex("308204a40201000282010100") + b"\x00" + rbytes(1179)


def rsa_pkcs8_der():
    return bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + rbytes(1193)


def sshstr(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b


def ed25519_pub_blob(pub=None):
    pub = pub or rbytes(32)
    return sshstr("ssh-ed25519") + sshstr(pub)


def openssh_ed25519_private(comment):
    pub = rbytes(32)
    seed = rbytes(32)
    check = rbytes(4)
    priv = check + check + sshstr("ssh-ed25519") + sshstr(pub) + sshstr(seed + pub) + sshstr(comment)
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\x00" + sshstr("none") + sshstr("none") + sshstr(b"") + struct.pack(">I", 1)
            + sshstr(ed25519_pub_blob(pub)) + sshstr(priv))
    return ("-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(base64.b64encode(blob).decode(), 70)
            + "\n-----END OPENSSH PRIVATE KEY-----")


def crc24(data):
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_private_block():
    body = b"\x94\x58\x04" + struct.pack(">I", epoch()) + b"\x16\x09\x2b\x06\x01\x04\x01\xda\x47\x0f\x01\x01\x07\x40" + rbytes(150)
    crc = base64.b64encode(crc24(body).to_bytes(3, "big")).decode()
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + wrap(base64.b64encode(body).decode(), 64)
            + "\n=" + crc + "\n-----END PGP PRIVATE KEY BLOCK-----")


def putty_ppk(comment):
    pub = base64.b64encode(ed25519_pub_blob()).decode()
    priv = base64.b64encode(sshstr(rbytes(32))).decode()
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: " + comment
            + "\nPublic-Lines: 2\n" + wrap(pub, 64) + "\nPrivate-Lines: 1\n" + priv + "\nPrivate-MAC: " + H(64))


def wif_key():
    return b58check(b"\x80" + rbytes(32) + b"\x01")


def xprv_key():
    payload = bytes.fromhex("0488ade4") + b"\x00" + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00" + rbytes(32) + b"\x00" + rbytes(32)
    return b58check(payload)


def solana_secret_b58():
    return b58encode(rbytes(64))


# BIP-39 style words (a subset written from memory; checksums are NOT valid)
SEED_WORDS = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse
achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult
advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol
alert alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst
anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart
apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive
arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude
attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward
axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic
basket battle beach bean beauty because become beef before begin behave behind believe below belt bench benefit best
betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak
bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow
boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk
broccoli broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker
burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp
can canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart
case cash casino castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement
census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef
cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city
civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth
cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come
comfort comic common company concert conduct confirm congress connect consider control convince cook cool copper copy
coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane
crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel
cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute
cycle wolf woman wonder wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow
you young youth zebra zero zone zoo""".split()


def seed_phrase(n=None):
    n = n or pick([12, 12, 12, 24, 18])
    return " ".join(pick(SEED_WORDS) for _ in range(n))


# ---------------------------------------------------------------------------
# record machinery
# ---------------------------------------------------------------------------
RECORDS = []          # list of dicts (output records)
META = []             # parallel list: internal info (lang, group)
CANON = set()         # canonical json of values (membership only)
SEQ = {}              # id counters per prefix
SECRET_STRINGS = []   # raw secrets of secret records, used for benign cross-checks


def flat_strings(v, out):
    if isinstance(v, str):
        out.append(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            out.append(str(k))
            flat_strings(x, out)
    elif isinstance(v, list):
        for x in v:
            flat_strings(x, out)
    elif v is None:
        pass
    else:
        out.append(json.dumps(v))
    return out


def canon(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def vlen(v):
    if isinstance(v, str):
        return len(v)
    return len(json.dumps(v, ensure_ascii=False, separators=(",", ":")))


def new_key():
    return "mem_" + H(R.randint(8, 32))


def new_ns():
    return ["memories", "u" + NZ(R.randint(5, 10))]


def record_text(value, key, ns):
    return "\n".join(flat_strings(value, []) + [key] + [str(x) for x in ns])


def emit(label, variant, segment, kind, value, secret=None, pieces=None, dec=None, key=None, ns=None,
         lang="en", group="", all_secrets=None):
    assert label in ("secret", "benign") and variant in ("plain", "hard")
    assert all(c.isalnum() or c == "-" for c in segment) and segment == segment.lower(), segment
    c = canon(value)
    if c in CANON:
        return False
    key = key if key is not None else new_key()
    ns = ns if ns is not None else new_ns()
    if label == "secret":
        assert secret, (segment, kind)
        text = record_text(value, key, ns) + "\n" + json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        if pieces is None:
            assert secret in text, (segment, kind, secret, value)
        else:
            for p in pieces:
                assert p in text, (segment, kind, p, value)
            decoded = dec(pieces)
            assert decoded == secret or secret in decoded, (segment, kind, secret, decoded)
        SECRET_STRINGS.append(secret)
        for extra in (all_secrets or []):
            SECRET_STRINGS.append(extra)
    CANON.add(c)
    pre = f"h12-{label[0]}-{variant[0]}-{segment}"
    SEQ[pre] = SEQ.get(pre, 0) + 1
    rec = {"id": f"{pre}-{SEQ[pre]:03d}", "label": label, "kind": kind, "variant": variant,
           "namespace": ns, "key": key, "value": value}
    RECORDS.append(rec)
    META.append({"lang": lang, "group": group, "segment": segment, "secret": secret})
    return True


WRAP_TAGS = ["home", "work", "travel", "finance", "tech", "family", "health", "misc", "shopping", "admin"]


def maybe_wrap(spec):
    """agent memories are often stored as small objects with metadata; wrap some plain strings (label-independent)."""
    v = spec["value"]
    if isinstance(v, str) and maybe(0.07):
        st = R.randint(0, 4)
        if st == 0:
            v = {"text": v}
        elif st == 1:
            v = {"content": v, "tags": R.sample(WRAP_TAGS, R.randint(1, 2))}
        elif st == 2:
            v = {"note": v, "created": date_iso()}
        elif st == 3:
            v = {"memory": v, "source": pick(["chat", "voice", "email-import", "manual"])}
        else:
            v = {"body": v, "pinned": maybe(0.5)}
        spec = dict(spec, value=v)
    return spec


def produce(fn, tries=60, lo=40, hi=400):
    """call fn() until it yields a spec whose value is 40..400 long and unique, then emit it."""
    last = None
    for _ in range(tries):
        spec = fn()
        if spec is None:
            continue
        spec = maybe_wrap(spec)
        if canon(spec["value"]) in CANON:
            continue
        last = spec
        if lo <= vlen(spec["value"]) <= hi:
            return emit(**spec)
    if last is not None:
        return emit(**last)
    return False


# ---------------------------------------------------------------------------
# PART B: vendor / provider credential formats
# ---------------------------------------------------------------------------
class Fmt:
    def __init__(self, kind, service, typ, gen, hdr=None, host=None, conts=None, noun="key"):
        self.kind, self.service, self.typ, self.gen = kind, service, typ, gen
        self.hdr, self.host, self.conts, self.noun = hdr, host, conts, noun


FORMATS = []


def F(kind, service, typ, gen, **kw):
    FORMATS.append(Fmt(kind, service, typ, gen, **kw))


def one(var, fn):
    return lambda: [(var, fn(), True)]


def svc_pw(n=None, alpha=ALNUM + "-_.~!*"):
    n = n or R.randint(14, 28)
    while True:
        p = rs(alpha, n)
        if any(c.isdigit() for c in p) and any(c.isupper() for c in p) and any(c.islower() for c in p):
            return p


def db_user():
    return pick(["app", "svc_api", "analytics", "admin", "postgres", "root", "etl_user", "django", "backend",
                 "reporting", "billing_rw", "webapp", "metabase", "airflow", "grafana_ro"])


def db_name():
    return pick(["shop", "prod", "app_production", "orders", "crm", "billing", "inventory", "analytics",
                 "payments", "main", "users", "warehouse", "cms"])


REGIONS = ["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ap-northeast-1", "sa-east-1"]

# ---- cloud / infrastructure -------------------------------------------------
F("aws-access-key", "AWS", "multi", lambda: [("AWS_ACCESS_KEY_ID", "AKIA" + rs(B32A, 16), False),
                                            ("AWS_SECRET_ACCESS_KEY", rs(B64A, 40), True),
                                            ("AWS_DEFAULT_REGION", pick(REGIONS), False)])
F("aws-sts-temporary-key", "AWS STS", "multi", lambda: [("AWS_ACCESS_KEY_ID", "ASIA" + rs(B32A, 16), False),
                                                       ("AWS_SECRET_ACCESS_KEY", rs(B64A, 40), True)])
F("aws-secret-key", "AWS", "token", one("AWS_SECRET_ACCESS_KEY", lambda: rs(B64A, 40)))
F("aws-ses-smtp-credentials", "Amazon SES", "multi", lambda: [("SES_SMTP_USERNAME", "AKIA" + rs(B32A, 16), False),
                                                             ("SES_SMTP_PASSWORD", "B" + rs(B64A, 43), True)])
F("aws-cognito-client-secret", "Amazon Cognito", "multi", lambda: [("COGNITO_CLIENT_ID", LN(26), False),
                                                                  ("COGNITO_CLIENT_SECRET", LN(51), True)])
F("aws-codecommit-git-credentials", "AWS CodeCommit", "multi",
  lambda: [("CODECOMMIT_GIT_USERNAME", pick(["deploy", "ci", "jenkins"]) + "-at-" + D(12), False),
           ("CODECOMMIT_GIT_PASSWORD", rs(B64A, 44), True)])
F("aws-bedrock-api-key", "Amazon Bedrock", "token", one("AWS_BEARER_TOKEN_BEDROCK", lambda: "ABSK" + rs(B64A, 128)))
F("gcp-api-key", "Google Cloud", "token", one("GOOGLE_API_KEY", lambda: "AIza" + rs(B64U, 35)), hdr="?key={}",
  host="maps.googleapis.com/maps/api/geocode/json?address=Main+St")
F("gemini-api-key", "Gemini", "token", one("GEMINI_API_KEY", lambda: "AIza" + rs(B64U, 35)), hdr="x-goog-api-key: {}",
  host="generativelanguage.googleapis.com/v1beta/models/gemini-pro:generateContent")
F("gcp-oauth-client-secret", "Google OAuth", "multi",
  lambda: [("GOOGLE_CLIENT_ID", D(12) + "-" + LN(32) + ".apps.googleusercontent.com", False),
           ("GOOGLE_CLIENT_SECRET", "GOCSPX-" + rs(B64U, 28), True)])
F("google-oauth-refresh-token", "Google OAuth", "token", one("GOOGLE_REFRESH_TOKEN", lambda: "1//0" + pick("ges") + rs(B64U, 98)),
  noun="refresh token")
F("google-oauth-access-token", "Google APIs", "token", one("GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + rs(B64U, 140)),
  host="www.googleapis.com/drive/v3/files", noun="access token")
F("gcs-hmac-key", "Google Cloud Storage", "multi", lambda: [("GCS_HMAC_ACCESS_ID", "GOOG1E" + rs(UPNUM, 55), False),
                                                           ("GCS_HMAC_SECRET", rs(B64A, 40), True)])
F("fcm-server-key", "Firebase Cloud Messaging", "token",
  one("FCM_SERVER_KEY", lambda: "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134)), hdr="Authorization: key={}",
  host="fcm.googleapis.com/fcm/send")
F("firebase-database-secret", "Firebase Realtime Database", "token", one("FIREBASE_DB_SECRET", lambda: A(40)),
  hdr="?auth={}", host="my-app-default-rtdb.firebaseio.com/users.json")
F("azure-storage-connection-string", "Azure Storage", "conn",
  one("AZURE_STORAGE_CONNECTION_STRING", lambda: "DefaultEndpointsProtocol=https;AccountName=" + LN(R.randint(8, 14))
      + ";AccountKey=" + b64(64) + ";EndpointSuffix=core.windows.net"))
F("azure-storage-account-key", "Azure Storage", "token", one("AZURE_STORAGE_KEY", lambda: b64(64)))
F("azure-sas-token", "Azure Blob Storage", "url",
  one("AZURE_BLOB_SAS_URL", lambda: "https://" + LN(10) + ".blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlacupiytfx&se=2026-"
      + f"{R.randint(1, 12):02d}-{R.randint(1, 28):02d}T18:00:00Z&st=2025-01-01T10:00:00Z&spr=https&sig="
      + urllib.parse.quote(b64(32), safe="")))
F("azure-ad-client-secret", "Microsoft Entra ID", "multi",
  lambda: [("AZURE_TENANT_ID", uuid4(), False), ("AZURE_CLIENT_ID", uuid4(), False),
           ("AZURE_CLIENT_SECRET", rs(ALNUM, 3) + "8Q~" + rs(ALNUM + "_~.-", 34), True)])
F("azure-service-bus-connection", "Azure Service Bus", "conn",
  one("SERVICEBUS_CONNECTION_STRING", lambda: "Endpoint=sb://" + LN(10) + ".servicebus.windows.net/;SharedAccessKeyName="
      + pick(["RootManageSharedAccessKey", "send-only", "listener"]) + ";SharedAccessKey=" + b64(32)))
F("azure-event-hubs-connection", "Azure Event Hubs", "conn",
  one("EVENTHUB_CONNECTION_STRING", lambda: "Endpoint=sb://" + LN(9) + ".servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey="
      + b64(32) + ";EntityPath=" + pick(["telemetry", "clicks", "orders"])))
F("azure-cosmosdb-key", "Azure Cosmos DB", "conn",
  one("COSMOS_CONNECTION_STRING", lambda: "AccountEndpoint=https://" + LN(10) + ".documents.azure.com:443/;AccountKey=" + b64(64) + ";"))
F("azure-devops-pat", "Azure DevOps", "token", one("AZURE_DEVOPS_PAT", lambda: rs(LOW + "234567", 52)),
  hdr="Authorization: Basic {}", host="dev.azure.com/contoso/_apis/projects?api-version=7.1")
F("azure-function-key", "Azure Functions", "token", one("AZURE_FUNCTION_KEY", lambda: rs(B64U, 54) + "=="),
  hdr="x-functions-key: {}", host="func-" + "orders.azurewebsites.net/api/ingest")
F("azure-openai-key", "Azure OpenAI", "token", one("AZURE_OPENAI_API_KEY", lambda: H(32)), hdr="api-key: {}",
  host="contoso-openai.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01")
F("azure-signalr-connection", "Azure SignalR", "conn",
  one("AZURE_SIGNALR_CONNECTIONSTRING", lambda: "Endpoint=https://" + LN(8) + ".service.signalr.net;AccessKey=" + b64(32) + ";Version=1.0;"))
F("azure-redis-connection", "Azure Cache for Redis", "conn",
  one("REDIS_CONNECTION", lambda: LN(9) + ".redis.cache.windows.net:6380,password=" + b64(32) + ",ssl=True,abortConnect=False"))
F("azure-cognitive-key", "Azure AI Services", "token", one("AZURE_SPEECH_KEY", lambda: H(32)),
  hdr="Ocp-Apim-Subscription-Key: {}", host="westeurope.api.cognitive.microsoft.com/sts/v1.0/issueToken")
F("azure-acr-password", "Azure Container Registry", "multi",
  lambda: [("ACR_USERNAME", LN(10), False), ("ACR_PASSWORD", rs(ALNUM + "+/", 52), True)])
F("azure-communication-connection", "Azure Communication Services", "conn",
  one("ACS_CONNECTION_STRING", lambda: "endpoint=https://" + LN(8) + ".communication.azure.com/;accesskey=" + b64(64)))
F("alibaba-access-key", "Alibaba Cloud", "multi", lambda: [("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI" + A(20), False),
                                                          ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", A(30), True)])
F("tencent-cloud-secret", "Tencent Cloud", "multi", lambda: [("TENCENTCLOUD_SECRET_ID", "AKID" + A(32), False),
                                                            ("TENCENTCLOUD_SECRET_KEY", A(32), True)])
F("huawei-cloud-aksk", "Huawei Cloud", "multi", lambda: [("HUAWEICLOUD_SDK_AK", UN(20), False),
                                                        ("HUAWEICLOUD_SDK_SK", A(40), True)])
F("baidu-bce-key", "Baidu AI Cloud", "multi", lambda: [("BCE_ACCESS_KEY_ID", H(32), False), ("BCE_SECRET_ACCESS_KEY", H(32), True)])
F("ibm-cloud-api-key", "IBM Cloud", "token", one("IBMCLOUD_API_KEY", lambda: rs(B64U, 44)))
F("ibm-cos-hmac", "IBM Cloud Object Storage", "multi", lambda: [("COS_HMAC_ACCESS_KEY_ID", H(32), False),
                                                               ("COS_HMAC_SECRET_ACCESS_KEY", H(48), True)])
F("oci-auth-token", "Oracle Cloud", "token", one("OCI_AUTH_TOKEN", lambda: rs(ALNUM + "()<>[]:;#{}_+-.", 20)))
F("digitalocean-pat", "DigitalOcean", "token", one("DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + H(64)),
  host="api.digitalocean.com/v2/droplets")
F("digitalocean-oauth-token", "DigitalOcean", "token", one("DO_OAUTH_TOKEN", lambda: "doo_v1_" + H(64)),
  host="api.digitalocean.com/v2/account")
F("digitalocean-spaces-key", "DigitalOcean Spaces", "multi", lambda: [("SPACES_KEY", "DO00" + rs(UPNUM, 16), False),
                                                                     ("SPACES_SECRET", b64u_nopad(32).replace("-", "+").replace("_", "/"), True)])
F("linode-token", "Linode", "token", one("LINODE_TOKEN", lambda: H(64)), host="api.linode.com/v4/linode/instances")
F("vultr-api-key", "Vultr", "token", one("VULTR_API_KEY", lambda: UN(36)), host="api.vultr.com/v2/instances")
F("hetzner-cloud-token", "Hetzner Cloud", "token", one("HCLOUD_TOKEN", lambda: A(64)), host="api.hetzner.cloud/v1/servers")
F("scaleway-secret-key", "Scaleway", "multi", lambda: [("SCW_ACCESS_KEY", "SCW" + rs(UPNUM, 17), False),
                                                      ("SCW_SECRET_KEY", uuid4(), True)])
F("ovh-api-credentials", "OVHcloud", "multi", lambda: [("OVH_APPLICATION_KEY", A(16), False),
                                                      ("OVH_APPLICATION_SECRET", A(32), True),
                                                      ("OVH_CONSUMER_KEY", A(32), True)])
F("cloudflare-api-token", "Cloudflare", "token", one("CLOUDFLARE_API_TOKEN", lambda: rs(B64U, 40)),
  host="api.cloudflare.com/client/v4/user/tokens/verify")
F("cloudflare-global-api-key", "Cloudflare", "multi", lambda: [("CF_API_EMAIL", "ops@" + domain(), False),
                                                              ("CF_API_KEY", H(37), True)])
F("cloudflare-origin-ca-key", "Cloudflare Origin CA", "token", one("CF_ORIGIN_CA_KEY", lambda: "v1.0-" + H(24) + "-" + H(146)),
  hdr="X-Auth-User-Service-Key: {}", host="api.cloudflare.com/client/v4/certificates")
F("cloudflare-r2-credentials", "Cloudflare R2", "multi", lambda: [("R2_ACCESS_KEY_ID", H(32), False),
                                                                 ("R2_SECRET_ACCESS_KEY", H(64), True)])
F("cloudflare-tunnel-token", "Cloudflare Tunnel", "token",
  one("TUNNEL_TOKEN", lambda: base64.b64encode(json.dumps({"a": H(32), "t": uuid4(), "s": b64(32)}, separators=(",", ":")).encode()).decode()))
F("fastly-api-token", "Fastly", "token", one("FASTLY_API_TOKEN", lambda: rs(B64U, 32)), hdr="Fastly-Key: {}",
  host="api.fastly.com/service")
F("akamai-edgegrid", "Akamai EdgeGrid", "multi",
  lambda: [("client_token", "akab-" + LN(16) + "-" + LN(16), False), ("access_token", "akab-" + LN(16) + "-" + LN(16), False),
           ("client_secret", b64(32), True)])
F("heroku-api-key", "Heroku", "token", one("HEROKU_API_KEY", uuid4), hdr="Authorization: Bearer {}",
  host="api.heroku.com/apps")
F("netlify-pat", "Netlify", "token", one("NETLIFY_AUTH_TOKEN", lambda: "nfp_" + A(36)), host="api.netlify.com/api/v1/sites")
F("vercel-token", "Vercel", "token", one("VERCEL_TOKEN", lambda: A(24)), host="api.vercel.com/v9/projects")
F("render-api-key", "Render", "token", one("RENDER_API_KEY", lambda: "rnd_" + A(32)), host="api.render.com/v1/services")
F("flyio-token", "Fly.io", "token", one("FLY_API_TOKEN", lambda: "fo1_" + rs(B64U, 43)), host="api.machines.dev/v1/apps")
F("railway-token", "Railway", "token", one("RAILWAY_TOKEN", uuid4), host="backboard.railway.app/graphql/v2")
F("supabase-service-role-key", "Supabase", "token",
  one("SUPABASE_SERVICE_ROLE_KEY", lambda: make_jwt({"iss": "supabase", "ref": rs(LOW, 20), "role": "service_role",
                                                     "iat": 1_700_000_000 + R.randint(0, 9_000_000), "exp": 2_010_000_000 + R.randint(0, 9_000_000)})),
  hdr="apikey: {}", host="xyzcompany.supabase.co/rest/v1/profiles")
F("supabase-pat", "Supabase", "token", one("SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + H(40)), host="api.supabase.com/v1/projects")
F("planetscale-service-token", "PlanetScale", "token", one("PLANETSCALE_SERVICE_TOKEN", lambda: "pscale_tkn_" + rs(B64U, 43)))
F("planetscale-password", "PlanetScale", "conn",
  one("DATABASE_URL", lambda: f"mysql://{LN(12)}:pscale_pw_{rs(B64U, 43)}@aws.connect.psdb.cloud/{db_name()}?sslaccept=strict"))
F("neon-api-key", "Neon", "token", one("NEON_API_KEY", lambda: "napi_" + LN(64)), host="console.neon.tech/api/v2/projects")
F("mongodb-atlas-api-key", "MongoDB Atlas", "multi", lambda: [("ATLAS_PUBLIC_KEY", LN(8), False),
                                                             ("ATLAS_PRIVATE_KEY", uuid4(), True)])
F("mongodb-srv-uri", "MongoDB", "conn",
  one("MONGODB_URI", lambda: f"mongodb+srv://{db_user()}:{svc_pw(alpha=ALNUM)}@cluster0.{LN(5)}.mongodb.net/{db_name()}?retryWrites=true&w=majority"))
F("postgres-url", "PostgreSQL", "conn",
  one("DATABASE_URL", lambda: f"postgresql://{db_user()}:{svc_pw()}@{pick(['db', 'pg-primary', 'postgres'])}-{LN(4)}.{pick(REGIONS)}.rds.amazonaws.com:5432/{db_name()}"))
F("mysql-url", "MySQL", "conn", one("MYSQL_URL", lambda: f"mysql://{db_user()}:{svc_pw()}@{ipv4_private()}:3306/{db_name()}"))
F("redis-url", "Redis", "conn", one("REDIS_URL", lambda: f"rediss://default:{svc_pw(alpha=ALNUM)}@{LN(6)}-{D(5)}.c{D(3)}.{pick(REGIONS)}-1.ec2.redns.redis-cloud.com:{D(5)}"))
F("amqp-url", "RabbitMQ", "conn", one("AMQP_URL", lambda: f"amqps://{db_user()}:{svc_pw(alpha=ALNUM)}@{LN(8)}.rmq.cloudamqp.com/{LN(8)}"))
F("mssql-connection-string", "SQL Server", "conn",
  one("ConnectionStrings__Default", lambda: f"Server=tcp:{LN(8)}.database.windows.net,1433;Initial Catalog={db_name()};User ID={db_user()};Password={svc_pw(alpha=ALNUM + '!#%*-_')};Encrypt=True;TrustServerCertificate=False;"))
F("oracle-jdbc-url", "Oracle Database", "conn",
  one("JDBC_URL", lambda: f"jdbc:oracle:thin:{db_user()}/{svc_pw(alpha=ALNUM)}@//{LN(6)}.corp.internal:1521/ORCLPDB1"))
F("elasticsearch-url", "Elasticsearch", "conn",
  one("ELASTICSEARCH_URL", lambda: f"https://elastic:{A(24)}@{LN(10)}.es.{pick(REGIONS)}.aws.found.io:9243"))
F("elastic-api-key", "Elastic", "token",
  one("ELASTIC_API_KEY", lambda: base64.b64encode((rs(B64U, 20) + ":" + rs(B64U, 22)).encode()).decode()),
  hdr="Authorization: ApiKey {}", host="my-deployment.es.eu-west-1.aws.found.io/_search")
F("clickhouse-dsn", "ClickHouse", "conn",
  one("CLICKHOUSE_DSN", lambda: f"clickhouse://default:{svc_pw(alpha=ALNUM + '~_')}@{LN(10)}.{pick(REGIONS)}.aws.clickhouse.cloud:8443/default?secure=true"))
F("neo4j-aura-uri", "Neo4j Aura", "multi", lambda: [("NEO4J_URI", f"neo4j+s://{H(8)}.databases.neo4j.io", False),
                                                   ("NEO4J_USERNAME", "neo4j", False),
                                                   ("NEO4J_PASSWORD", rs(B64U, 43), True)])
F("astra-db-token", "DataStax Astra", "token", one("ASTRA_DB_APPLICATION_TOKEN", lambda: "AstraCS:" + A(24) + ":" + H(64)))
F("snowflake-credentials", "Snowflake", "multi",
  lambda: [("SNOWFLAKE_ACCOUNT", LN(7) + "-" + LN(7), False), ("SNOWFLAKE_USER", db_user().upper(), False),
           ("SNOWFLAKE_PASSWORD", svc_pw(), True)])
F("couchdb-url", "CouchDB", "conn", one("COUCHDB_URL", lambda: f"http://admin:{svc_pw(alpha=ALNUM)}@{ipv4_private()}:5984"))
F("influxdb-token", "InfluxDB", "token", one("INFLUX_TOKEN", lambda: rs(B64U, 86) + "=="), hdr="Authorization: Token {}",
  host="us-east-1-1.aws.cloud2.influxdata.com/api/v2/write?org=ops&bucket=metrics")
F("cockroachdb-url", "CockroachDB", "conn",
  one("DATABASE_URL", lambda: f"postgresql://{db_user()}:{rs(B64U, 22)}@{LN(6)}-{D(4)}.{LN(4)}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full"))
F("databricks-token", "Databricks", "token", one("DATABRICKS_TOKEN", lambda: "dapi" + H(32)),
  host="adb-" + "1234567890123456.7.azuredatabricks.net/api/2.0/clusters/list")
F("confluent-cloud-api-key", "Confluent Cloud", "multi", lambda: [("CONFLUENT_API_KEY", UN(16), False),
                                                                 ("CONFLUENT_API_SECRET", rs(ALNUM + "+/", 64), True)])
F("kafka-sasl-jaas", "Kafka", "token",
  lambda: [("sasl.jaas.config", f'org.apache.kafka.common.security.plain.PlainLoginModule required username="{UN(16)}" password="{rs(ALNUM + "+/", 64)}";', True)],
  conts=["props", "note", "ticket", "chat"])
F("upstash-redis-token", "Upstash", "multi", lambda: [("UPSTASH_REDIS_REST_URL", f"https://{LN(6)}-{LN(6)}-{D(5)}.upstash.io", False),
                                                     ("UPSTASH_REDIS_REST_TOKEN", "A" + rs(ALNUM, 3) + "ASQgN" + A(52), True)])
F("algolia-admin-key", "Algolia", "multi", lambda: [("ALGOLIA_APP_ID", UN(10), False), ("ALGOLIA_ADMIN_API_KEY", H(32), True)])
F("meilisearch-master-key", "Meilisearch", "token", one("MEILI_MASTER_KEY", lambda: rs(B64U, 43)))
F("typesense-api-key", "Typesense", "token", one("TYPESENSE_API_KEY", lambda: A(32)), hdr="X-TYPESENSE-API-KEY: {}",
  host="xyz.a1.typesense.net/collections")
F("pinecone-api-key", "Pinecone", "token", one("PINECONE_API_KEY", lambda: "pcsk_" + A(5) + "_" + A(63)), hdr="Api-Key: {}",
  host="api.pinecone.io/indexes")
F("qdrant-api-key", "Qdrant Cloud", "token", one("QDRANT_API_KEY", lambda: rs(B64U, 40)), hdr="api-key: {}",
  host="xyz-example.eu-central.aws.cloud.qdrant.io:6333/collections")
F("weaviate-api-key", "Weaviate", "token", one("WEAVIATE_API_KEY", lambda: A(40)))
F("minio-root-credentials", "MinIO", "multi", lambda: [("MINIO_ROOT_USER", pick(["minioadmin", "storage-admin", "s3root"]), False),
                                                      ("MINIO_ROOT_PASSWORD", svc_pw(), True)])
F("backblaze-b2-key", "Backblaze B2", "multi", lambda: [("B2_APPLICATION_KEY_ID", "005" + H(22), False),
                                                       ("B2_APPLICATION_KEY", "K005" + rs(ALNUM + "+/", 27), True)])

# ---- payments / commerce ---------------------------------------------------
F("stripe-secret-key", "Stripe", "token", one("STRIPE_SECRET_KEY", lambda: "sk_live_" + (A(24) if maybe(0.4) else "51" + A(97))),
  hdr="-u {}:", host="api.stripe.com/v1/charges")
F("stripe-restricted-key", "Stripe", "token", one("STRIPE_RESTRICTED_KEY", lambda: "rk_live_" + (A(24) if maybe(0.4) else "51" + A(97))),
  host="api.stripe.com/v1/customers")
F("stripe-webhook-secret", "Stripe", "token", one("STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + A(32)), noun="webhook signing secret")
F("paypal-client-secret", "PayPal", "multi", lambda: [("PAYPAL_CLIENT_ID", "A" + rs(B64U, 79), False),
                                                     ("PAYPAL_CLIENT_SECRET", "E" + rs(B64U, 79), True)])
F("braintree-access-token", "Braintree", "token",
  one("BRAINTREE_ACCESS_TOKEN", lambda: "access_token$production$" + LN(16) + "$" + H(32)))
F("braintree-api-keys", "Braintree", "multi", lambda: [("BT_MERCHANT_ID", LN(16), False), ("BT_PUBLIC_KEY", LN(16), False),
                                                      ("BT_PRIVATE_KEY", H(32), True)])
F("square-access-token", "Square", "token", one("SQUARE_ACCESS_TOKEN", lambda: "EAAA" + rs(B64U, 60)),
  host="connect.squareup.com/v2/payments")
F("square-oauth-secret", "Square", "token", one("SQUARE_APPLICATION_SECRET", lambda: "sq0csp-" + rs(B64U, 43)))
F("adyen-api-key", "Adyen", "token",
  one("ADYEN_API_KEY", lambda: "AQE" + rs(B64A, 90) + "==-" + b64(32) + "-" + rs(ALNUM + "+;}%=(", 16)),
  hdr="X-API-Key: {}", host="checkout-test.adyen.com/v71/payments")
F("razorpay-keys", "Razorpay", "multi", lambda: [("RAZORPAY_KEY_ID", "rzp_live_" + A(14), False),
                                                ("RAZORPAY_KEY_SECRET", A(24), True)])
F("mollie-api-key", "Mollie", "token", one("MOLLIE_API_KEY", lambda: "live_" + A(30)), host="api.mollie.com/v2/payments")
F("paystack-secret-key", "Paystack", "token", one("PAYSTACK_SECRET_KEY", lambda: "sk_live_" + H(40)),
  host="api.paystack.co/transaction/initialize")
F("flutterwave-secret-key", "Flutterwave", "token", one("FLW_SECRET_KEY", lambda: "FLWSECK-" + H(32) + "-X"),
  host="api.flutterwave.com/v3/payments")
F("checkout-com-secret-key", "Checkout.com", "token", one("CKO_SECRET_KEY", lambda: "sk_" + uuid4()),
  host="api.checkout.com/payments")
F("gocardless-access-token", "GoCardless", "token", one("GOCARDLESS_ACCESS_TOKEN", lambda: "live_" + rs(B64U, 40)),
  host="api.gocardless.com/mandates")
F("plaid-secret", "Plaid", "multi", lambda: [("PLAID_CLIENT_ID", H(24), False), ("PLAID_SECRET", H(30), True),
                                            ("PLAID_ENV", "production", False)])
F("wise-api-token", "Wise", "token", one("WISE_API_TOKEN", uuid4), host="api.transferwise.com/v1/profiles")
F("mercadopago-access-token", "Mercado Pago", "token",
  one("MP_ACCESS_TOKEN", lambda: "APP_USR-" + D(16) + "-" + D(6) + "-" + H(32) + "-" + D(9)),
  host="api.mercadopago.com/v1/payments")
F("shopify-admin-token", "Shopify", "token", one("SHOPIFY_ADMIN_API_ACCESS_TOKEN", lambda: "shpat_" + H(32)),
  hdr="X-Shopify-Access-Token: {}", host="my-store.myshopify.com/admin/api/2024-04/orders.json")
F("shopify-shared-secret", "Shopify", "token", one("SHOPIFY_API_SECRET", lambda: "shpss_" + H(32)))
F("shopify-custom-app-token", "Shopify", "token", one("SHOPIFY_CUSTOM_APP_TOKEN", lambda: "shpca_" + H(32)),
  hdr="X-Shopify-Access-Token: {}", host="my-store.myshopify.com/admin/api/2024-04/products.json")
F("shopify-private-app-password", "Shopify", "token", one("SHOPIFY_PRIVATE_APP_PASSWORD", lambda: "shppa_" + H(32)))
F("recurly-api-key", "Recurly", "token", one("RECURLY_API_KEY", lambda: H(32)))
F("chargebee-api-key", "Chargebee", "token", one("CHARGEBEE_API_KEY", lambda: "live_" + A(34)))
F("authorize-net-keys", "Authorize.net", "multi", lambda: [("AUTHNET_API_LOGIN_ID", A(10), False),
                                                          ("AUTHNET_TRANSACTION_KEY", A(16), True)])
F("coinbase-api-keys", "Coinbase", "multi", lambda: [("COINBASE_API_KEY", A(16), False), ("COINBASE_API_SECRET", A(32), True)])
F("coinbase-cdp-key", "Coinbase Developer Platform", "multi",
  lambda: [("CDP_API_KEY_NAME", f"organizations/{uuid4()}/apiKeys/{uuid4()}", False),
           ("CDP_API_KEY_PRIVATE_KEY", pem_block("EC PRIVATE KEY", ec_sec1_der()), True)])
F("binance-api-keys", "Binance", "multi", lambda: [("BINANCE_API_KEY", A(64), False), ("BINANCE_API_SECRET", A(64), True)])
F("kraken-api-keys", "Kraken", "multi", lambda: [("KRAKEN_API_KEY", rs(B64A, 56), False), ("KRAKEN_PRIVATE_KEY", b64(64), True)])
F("kucoin-api-keys", "KuCoin", "multi", lambda: [("KUCOIN_KEY", H(24), False), ("KUCOIN_SECRET", uuid4(), True),
                                                ("KUCOIN_PASSPHRASE", svc_pw(12), True)])
F("bybit-api-keys", "Bybit", "multi", lambda: [("BYBIT_API_KEY", A(18), False), ("BYBIT_API_SECRET", A(36), True)])
F("alpaca-live-keys", "Alpaca", "multi", lambda: [("APCA_API_KEY_ID", "AK" + UN(18), False), ("APCA_API_SECRET_KEY", A(40), True)])
F("oanda-token", "OANDA", "token", one("OANDA_API_TOKEN", lambda: H(32) + "-" + H(32)),
  host="api-fxtrade.oanda.com/v3/accounts")
F("klarna-api-credentials", "Klarna", "multi", lambda: [("KLARNA_USERNAME", "K" + D(6) + "_" + H(12), False),
                                                       ("KLARNA_PASSWORD", A(16), True)])
F("lob-api-key", "Lob", "token", one("LOB_API_KEY", lambda: "live_" + H(35)), hdr="-u {}:", host="api.lob.com/v1/letters")
F("easypost-api-key", "EasyPost", "token", one("EASYPOST_API_KEY", lambda: "EZAK" + H(54)), hdr="-u {}:",
  host="api.easypost.com/v2/shipments")
F("shippo-token", "Shippo", "token", one("SHIPPO_API_TOKEN", lambda: "shippo_live_" + H(40)),
  hdr="Authorization: ShippoToken {}", host="api.goshippo.com/shipments/")
F("duffel-token", "Duffel", "token", one("DUFFEL_ACCESS_TOKEN", lambda: "duffel_live_" + rs(B64U, 43)),
  host="api.duffel.com/air/offer_requests")
F("amadeus-api-credentials", "Amadeus for Developers", "multi", lambda: [("AMADEUS_CLIENT_ID", A(32), False),
                                                                        ("AMADEUS_CLIENT_SECRET", A(16), True)])
F("woocommerce-rest-keys", "WooCommerce", "multi", lambda: [("WC_CONSUMER_KEY", "ck_" + H(40), False),
                                                           ("WC_CONSUMER_SECRET", "cs_" + H(40), True)])
F("bigcommerce-access-token", "BigCommerce", "token", one("BIGCOMMERCE_ACCESS_TOKEN", lambda: LN(31)),
  hdr="X-Auth-Token: {}", host="api.bigcommerce.com/stores/abc123/v3/catalog/products")
F("etsy-api-keys", "Etsy", "multi", lambda: [("ETSY_KEYSTRING", LN(24), False), ("ETSY_SHARED_SECRET", LN(10), True)])
F("ebay-client-secret", "eBay", "multi", lambda: [("EBAY_APP_ID", "Jane" + A(4) + "-" + pick(["shop", "sync"]) + "-PRD-" + H(9) + "-" + H(8), False),
                                                 ("EBAY_CERT_ID", "PRD-" + H(12) + "-" + H(4) + "-" + H(4) + "-" + H(4) + "-" + H(4), True)])
F("amazon-lwa-client-secret", "Login with Amazon", "multi",
  lambda: [("LWA_CLIENT_ID", "amzn1.application-oa2-client." + H(32), False), ("LWA_CLIENT_SECRET", "amzn1.oa2-cs.v1." + H(64), True)])
F("amazon-sp-api-refresh-token", "Amazon Selling Partner API", "token",
  one("SP_API_REFRESH_TOKEN", lambda: "Atzr|IwEBI" + rs(B64U, 180)), noun="refresh token")
F("xero-client-secret", "Xero", "multi", lambda: [("XERO_CLIENT_ID", HU(32), False), ("XERO_CLIENT_SECRET", rs(B64U, 48), True)])
F("quickbooks-client-secret", "QuickBooks Online", "multi", lambda: [("QBO_CLIENT_ID", "AB" + A(48), False),
                                                                    ("QBO_CLIENT_SECRET", A(40), True)])
F("zoho-refresh-token", "Zoho", "token", one("ZOHO_REFRESH_TOKEN", lambda: "1000." + H(32) + "." + H(32)), noun="refresh token")
F("docusign-integration-secret", "DocuSign", "multi", lambda: [("DOCUSIGN_INTEGRATION_KEY", uuid4(), False),
                                                              ("DOCUSIGN_SECRET_KEY", uuid4(), True)])
F("gocardless-bank-data-secret", "GoCardless Bank Account Data", "multi",
  lambda: [("NORDIGEN_SECRET_ID", uuid4(), False), ("NORDIGEN_SECRET_KEY", H(128), True)])
F("truelayer-client-secret", "TrueLayer", "multi", lambda: [("TRUELAYER_CLIENT_ID", "sandbox-" + LN(8) + "-" + LN(6), False),
                                                           ("TRUELAYER_CLIENT_SECRET", uuid4(), True)])

# ---- AI / ML ---------------------------------------------------------------
F("openai-project-key", "OpenAI", "token", one("OPENAI_API_KEY", lambda: "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74)),
  host="api.openai.com/v1/chat/completions")
F("openai-legacy-key", "OpenAI", "token", one("OPENAI_API_KEY", lambda: "sk-" + A(20) + "T3BlbkFJ" + A(20)),
  host="api.openai.com/v1/models")
F("openai-service-account-key", "OpenAI", "token",
  one("OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74)), host="api.openai.com/v1/embeddings")
F("openai-admin-key", "OpenAI", "token", one("OPENAI_ADMIN_KEY", lambda: "sk-admin-" + rs(B64U, 58) + "T3BlbkFJ" + rs(B64U, 58)),
  host="api.openai.com/v1/organization/users")
F("anthropic-api-key", "Anthropic", "token", one("ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(B64U, 93) + "AA"),
  hdr="x-api-key: {}", host="api.anthropic.com/v1/messages")
F("anthropic-admin-key", "Anthropic", "token", one("ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(B64U, 93) + "AA"),
  hdr="x-api-key: {}", host="api.anthropic.com/v1/organizations/workspaces")
F("cohere-api-key", "Cohere", "token", one("COHERE_API_KEY", lambda: A(40)), host="api.cohere.com/v2/chat")
F("mistral-api-key", "Mistral AI", "token", one("MISTRAL_API_KEY", lambda: A(32)), host="api.mistral.ai/v1/chat/completions")
F("groq-api-key", "Groq", "token", one("GROQ_API_KEY", lambda: "gsk_" + A(52)), host="api.groq.com/openai/v1/chat/completions")
F("huggingface-token", "Hugging Face", "token", one("HF_TOKEN", lambda: "hf_" + rs(UPP + LOW, 34)),
  host="huggingface.co/api/whoami-v2")
F("huggingface-org-token", "Hugging Face", "token", one("HUGGINGFACE_HUB_TOKEN", lambda: "api_org_" + rs(UPP + LOW, 34)))
F("replicate-token", "Replicate", "token", one("REPLICATE_API_TOKEN", lambda: "r8_" + A(37)), host="api.replicate.com/v1/predictions")
F("perplexity-api-key", "Perplexity", "token", one("PERPLEXITY_API_KEY", lambda: "pplx-" + A(48)),
  host="api.perplexity.ai/chat/completions")
F("together-api-key", "Together AI", "token", one("TOGETHER_API_KEY", lambda: H(64)), host="api.together.xyz/v1/completions")
F("fireworks-api-key", "Fireworks AI", "token", one("FIREWORKS_API_KEY", lambda: "fw_" + A(24)),
  host="api.fireworks.ai/inference/v1/chat/completions")
F("deepseek-api-key", "DeepSeek", "token", one("DEEPSEEK_API_KEY", lambda: "sk-" + H(32)), host="api.deepseek.com/chat/completions")
F("xai-api-key", "xAI", "token", one("XAI_API_KEY", lambda: "xai-" + A(80)), host="api.x.ai/v1/chat/completions")
F("openrouter-api-key", "OpenRouter", "token", one("OPENROUTER_API_KEY", lambda: "sk-or-v1-" + H(64)),
  host="openrouter.ai/api/v1/chat/completions")
F("elevenlabs-api-key", "ElevenLabs", "token", one("ELEVENLABS_API_KEY", lambda: "sk_" + H(48)), hdr="xi-api-key: {}",
  host="api.elevenlabs.io/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM")
F("assemblyai-api-key", "AssemblyAI", "token", one("ASSEMBLYAI_API_KEY", lambda: H(32)), hdr="authorization: {}",
  host="api.assemblyai.com/v2/transcript")
F("deepgram-api-key", "Deepgram", "token", one("DEEPGRAM_API_KEY", lambda: H(40)), hdr="Authorization: Token {}",
  host="api.deepgram.com/v1/listen")
F("stability-api-key", "Stability AI", "token", one("STABILITY_API_KEY", lambda: "sk-" + A(48)),
  host="api.stability.ai/v2beta/stable-image/generate/core")
F("langsmith-personal-token", "LangSmith", "token", one("LANGCHAIN_API_KEY", lambda: "lsv2_pt_" + H(32) + "_" + H(10)))
F("langsmith-service-key", "LangSmith", "token", one("LANGSMITH_API_KEY", lambda: "lsv2_sk_" + H(32) + "_" + H(10)))
F("wandb-api-key", "Weights & Biases", "token", one("WANDB_API_KEY", lambda: H(40)))
F("voyage-api-key", "Voyage AI", "token", one("VOYAGE_API_KEY", lambda: "pa-" + rs(B64U, 43)), host="api.voyageai.com/v1/embeddings")
F("cerebras-api-key", "Cerebras", "token", one("CEREBRAS_API_KEY", lambda: "csk-" + LN(48)),
  host="api.cerebras.ai/v1/chat/completions")
F("clarifai-pat", "Clarifai", "token", one("CLARIFAI_PAT", lambda: H(32)), hdr="Authorization: Key {}",
  host="api.clarifai.com/v2/models")
F("comet-api-key", "Comet ML", "token", one("COMET_API_KEY", lambda: A(25)))
F("neptune-api-token", "neptune.ai", "token",
  one("NEPTUNE_API_TOKEN", lambda: base64.b64encode(json.dumps({"api_address": "https://app.neptune.ai", "api_url": "https://app.neptune.ai",
                                                                "api_key": uuid4()}, separators=(",", ":")).encode()).decode()))
F("roboflow-api-key", "Roboflow", "token", one("ROBOFLOW_API_KEY", lambda: A(20)), hdr="?api_key={}",
  host="detect.roboflow.com/hard-hat-sample/2")
F("kaggle-api-credentials", "Kaggle", "multi", lambda: [("KAGGLE_USERNAME", pick(["jdoe", "anna_k", "mlwizard", "datacat"]) + D(2), False),
                                                       ("KAGGLE_KEY", H(32), True)])
F("modal-token", "Modal", "multi", lambda: [("MODAL_TOKEN_ID", "ak-" + A(22), False), ("MODAL_TOKEN_SECRET", "as-" + A(22), True)])

# ---- source control / CI / package registries ------------------------------
F("github-classic-pat", "GitHub", "token", one("GITHUB_TOKEN", lambda: "ghp_" + A(36)), hdr="Authorization: token {}",
  host="api.github.com/user/repos")
F("github-fine-grained-pat", "GitHub", "token", one("GH_TOKEN", lambda: "github_pat_11" + rs(UPNUM, 20) + "_" + A(59)),
  host="api.github.com/repos/acme/infra/actions/secrets")
F("github-oauth-token", "GitHub", "token", one("GITHUB_OAUTH_TOKEN", lambda: "gho_" + A(36)), host="api.github.com/user")
F("github-user-to-server-token", "GitHub App", "token", one("GITHUB_APP_USER_TOKEN", lambda: "ghu_" + A(36)),
  host="api.github.com/user/installations")
F("github-installation-token", "GitHub App", "token", one("GITHUB_INSTALLATION_TOKEN", lambda: "ghs_" + A(36)),
  host="api.github.com/repos/acme/web/pulls")
F("github-refresh-token", "GitHub App", "token", one("GITHUB_REFRESH_TOKEN", lambda: "ghr_" + A(76)), noun="refresh token")
F("github-app-private-key", "GitHub App", "pem", one("GITHUB_APP_PRIVATE_KEY", lambda: pem_block("RSA PRIVATE KEY", rsa_pkcs1_der())))
F("gitlab-pat", "GitLab", "token", one("GITLAB_TOKEN", lambda: "glpat-" + rs(B64U, 20)), hdr="PRIVATE-TOKEN: {}",
  host="gitlab.com/api/v4/projects")
F("gitlab-runner-auth-token", "GitLab Runner", "token", one("CI_RUNNER_TOKEN", lambda: "glrt-" + rs(B64U, 20)))
F("gitlab-runner-registration-token", "GitLab Runner", "token", one("REGISTRATION_TOKEN", lambda: "GR1348941" + rs(B64U, 20)))
F("gitlab-deploy-token", "GitLab", "multi", lambda: [("GITLAB_DEPLOY_USER", "gitlab+deploy-token-" + D(6), False),
                                                    ("GITLAB_DEPLOY_TOKEN", "gldt-" + rs(B64U, 20), True)])
F("gitlab-pipeline-trigger-token", "GitLab", "token", one("GITLAB_TRIGGER_TOKEN", lambda: "glptt-" + H(40)), hdr="?token={}",
  host="gitlab.com/api/v4/projects/4823/trigger/pipeline")
F("gitlab-feed-token", "GitLab", "token", one("GITLAB_FEED_TOKEN", lambda: "glft-" + rs(B64U, 20)))
F("gitlab-oauth-app-secret", "GitLab", "multi", lambda: [("GITLAB_APP_ID", H(64), False), ("GITLAB_APP_SECRET", "gloas-" + H(64), True)])
F("gitlab-agent-token", "GitLab Agent for Kubernetes", "token", one("GITLAB_AGENT_TOKEN", lambda: "glagent-" + rs(B64U, 50)))
F("gitlab-incoming-email-token", "GitLab", "token", one("GITLAB_INCOMING_EMAIL_TOKEN", lambda: "glimt-" + LN(25)))
F("bitbucket-app-password", "Bitbucket", "multi", lambda: [("BITBUCKET_USERNAME", pick(["jdoe", "build-bot", "mkowalski"]), False),
                                                          ("BITBUCKET_APP_PASSWORD", "ATBB" + A(32) + HU(8), True)])
F("atlassian-api-token", "Atlassian / Jira", "multi", lambda: [("JIRA_EMAIL", pick(["ops", "release", "pm"]) + "@" + domain(), False),
                                                              ("JIRA_API_TOKEN", "ATATT3xFfGF0" + rs(B64U, 170) + "=" + HU(8), True)])
F("bitbucket-repo-access-token", "Bitbucket", "token", one("BITBUCKET_ACCESS_TOKEN", lambda: "ATCTT3xFfGN0" + rs(B64U, 170) + "=" + HU(8)))
F("circleci-pat", "CircleCI", "token", one("CIRCLECI_TOKEN", lambda: "CCIPAT_" + A(22) + "_" + H(40)), hdr="Circle-Token: {}",
  host="circleci.com/api/v2/me")
F("travis-ci-token", "Travis CI", "token", one("TRAVIS_API_TOKEN", lambda: rs(B64U, 22)), hdr="Authorization: token {}",
  host="api.travis-ci.com/repos")
F("jenkins-api-token", "Jenkins", "multi", lambda: [("JENKINS_USER", pick(["admin", "deployer", "ci-bot"]), False),
                                                   ("JENKINS_API_TOKEN", "11" + H(32), True)])
F("buildkite-api-token", "Buildkite", "token", one("BUILDKITE_API_TOKEN", lambda: "bkua_" + H(40)),
  host="api.buildkite.com/v2/organizations/acme/pipelines")
F("drone-ci-token", "Drone CI", "token", one("DRONE_TOKEN", lambda: A(32)))
F("codecov-upload-token", "Codecov", "token", one("CODECOV_TOKEN", uuid4))
F("sonarqube-user-token", "SonarQube", "token", one("SONAR_TOKEN", lambda: "squ_" + H(40)), hdr="-u {}:",
  host="sonar.internal.example/api/projects/search")
F("sonarqube-project-token", "SonarQube", "token", one("SONAR_TOKEN", lambda: "sqp_" + H(40)))
F("snyk-token", "Snyk", "token", one("SNYK_TOKEN", uuid4), hdr="Authorization: token {}", host="api.snyk.io/rest/orgs?version=2024-06-10")
F("npm-access-token", "npm", "token", one("NPM_TOKEN", lambda: "npm_" + A(36)))
F("npmrc-auth-token", "npm registry", "token", lambda: [("//registry.npmjs.org/:_authToken", "npm_" + A(36), True)],
  conts=["npmrc", "note", "chat", "ticket"])
F("pypi-api-token", "PyPI", "token", one("TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(B64U, 160)),
  conts=["pypirc", "env", "gha", "note", "chat", "shell", "ticket"])
F("rubygems-api-key", "RubyGems", "token", one("GEM_HOST_API_KEY", lambda: "rubygems_" + H(48)))
F("nuget-api-key", "NuGet", "token", one("NUGET_API_KEY", lambda: "oy2" + LN(43)))
F("dockerhub-pat", "Docker Hub", "multi", lambda: [("DOCKERHUB_USERNAME", pick(["acmebot", "jdoe", "release"]), False),
                                                  ("DOCKERHUB_TOKEN", "dckr_pat_" + rs(B64U, 27), True)])
F("quay-robot-token", "Quay.io", "multi", lambda: [("QUAY_USERNAME", pick(["acme", "platform"]) + "+" + pick(["ci", "deployer"]), False),
                                                  ("QUAY_PASSWORD", UN(64), True)])
F("jfrog-api-key", "JFrog Artifactory", "token", one("ARTIFACTORY_API_KEY", lambda: "AKCp" + A(69)), hdr="X-JFrog-Art-Api: {}",
  host="acme.jfrog.io/artifactory/api/repositories")
F("jfrog-reference-token", "JFrog Platform", "token", one("JFROG_ACCESS_TOKEN", lambda: "cmVmdGtuOjAxOjE3" + A(48)))
F("sonatype-ossrh-credentials", "Sonatype OSSRH", "multi", lambda: [("ossrhUsername", pick(["jdoe", "acme-release"]), False),
                                                                   ("ossrhPassword", svc_pw(), True)])
F("android-keystore-passwords", "Android signing", "multi", lambda: [("storePassword", svc_pw(16), True), ("keyAlias", "upload", False),
                                                                    ("keyPassword", svc_pw(16), True)])
F("fastlane-match-password", "fastlane match", "token", one("MATCH_PASSWORD", lambda: svc_pw(20)))
F("appstore-connect-api-key", "App Store Connect", "multi", lambda: [("ASC_KEY_ID", UN(10), False), ("ASC_ISSUER_ID", uuid4(), False),
                                                                    ("ASC_PRIVATE_KEY", pem_block("PRIVATE KEY", ec_pkcs8_der()), True)])
F("terraform-cloud-token", "Terraform Cloud", "token", one("TFE_TOKEN", lambda: A(14) + ".atlasv1." + A(67)),
  host="app.terraform.io/api/v2/organizations")
F("vault-service-token", "HashiCorp Vault", "token", one("VAULT_TOKEN", lambda: "hvs.CAESI" + rs(B64U, 86)), hdr="X-Vault-Token: {}",
  host="vault.internal:8200/v1/secret/data/app")
F("vault-batch-token", "HashiCorp Vault", "token", one("VAULT_TOKEN", lambda: "hvb.AAAAAQ" + rs(B64U, 120)), hdr="X-Vault-Token: {}",
  host="vault.internal:8200/v1/kv/data/ci")
F("vault-legacy-token", "HashiCorp Vault", "token", one("VAULT_TOKEN", lambda: "s." + A(24)), hdr="X-Vault-Token: {}",
  host="vault.service.consul:8200/v1/database/creds/readonly")
F("consul-acl-token", "Consul", "token", one("CONSUL_HTTP_TOKEN", uuid4), hdr="X-Consul-Token: {}", host="consul.service:8500/v1/kv/config")
F("nomad-token", "Nomad", "token", one("NOMAD_TOKEN", uuid4), hdr="X-Nomad-Token: {}", host="nomad.service:4646/v1/jobs")
F("pulumi-access-token", "Pulumi", "token", one("PULUMI_ACCESS_TOKEN", lambda: "pul-" + H(40)))
F("doppler-service-token", "Doppler", "token", one("DOPPLER_TOKEN", lambda: "dp.st." + pick(["prd", "dev", "stg"]) + "." + A(43)))
F("doppler-personal-token", "Doppler", "token", one("DOPPLER_TOKEN", lambda: "dp.pt." + A(43)))
F("onepassword-service-account", "1Password", "token",
  one("OP_SERVICE_ACCOUNT_TOKEN", lambda: "ops_" + b64url_json({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u_nopad(16)}, "email": LN(12) + "@" + LN(26) + ".1passwordserviceaccounts.com", "srpX": H(64), "muk": {"alg": "A256GCM", "ext": True, "k": b64u_nopad(32), "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + UN(6) + "-" + UN(6)})))
F("onepassword-connect-token", "1Password Connect", "token",
  one("OP_CONNECT_TOKEN", lambda: make_jwt({"aud": ["com.1password.connect"], "iss": "com.1password.b5", "sub": UN(26), "iat": epoch()}, alg="ES256", sig_bytes=64)))
F("sentry-org-auth-token", "Sentry", "token",
  one("SENTRY_AUTH_TOKEN", lambda: "sntrys_" + base64.b64encode(json.dumps({"iat": epoch(), "url": "https://sentry.io", "region_url": "https://us.sentry.io", "org": company()}, separators=(",", ":")).encode()).decode().rstrip("=") + "_" + rs(B64A, 43)))
F("sentry-user-token", "Sentry", "token", one("SENTRY_AUTH_TOKEN", lambda: "sntryu_" + H(64)), host="sentry.io/api/0/projects/")
F("datadog-keys", "Datadog", "multi", lambda: [("DD_API_KEY", H(32), True), ("DD_APP_KEY", H(40), True), ("DD_SITE", "datadoghq.eu", False)])
F("newrelic-user-key", "New Relic", "token", one("NEW_RELIC_API_KEY", lambda: "NRAK-" + UN(27)), hdr="API-Key: {}",
  host="api.newrelic.com/graphql")
F("newrelic-license-key", "New Relic", "token", one("NEW_RELIC_LICENSE_KEY", lambda: H(36) + "NRAL"))
F("newrelic-insert-key", "New Relic", "token", one("NEW_RELIC_INSERT_KEY", lambda: "NRII-" + rs(B64U, 32)), hdr="X-Insert-Key: {}",
  host="insights-collector.newrelic.com/v1/accounts/1234567/events")
F("honeycomb-ingest-key", "Honeycomb", "token", one("HONEYCOMB_API_KEY", lambda: "hcaik_01" + LN(56)), hdr="X-Honeycomb-Team: {}",
  host="api.honeycomb.io/1/events/prod")
F("grafana-cloud-token", "Grafana Cloud", "token",
  one("GRAFANA_CLOUD_TOKEN", lambda: "glc_" + base64.b64encode(json.dumps({"o": D(6), "n": "stack-" + D(6) + "-integration-" + LN(6), "k": A(24), "m": {"r": "prod-eu-west-2"}}, separators=(",", ":")).encode()).decode()))
F("grafana-service-account-token", "Grafana", "token", one("GRAFANA_SA_TOKEN", lambda: "glsa_" + A(32) + "_" + H(8)),
  host="grafana.internal/api/dashboards/uid/ops")
F("splunk-hec-token", "Splunk", "token", one("SPLUNK_HEC_TOKEN", uuid4), hdr="Authorization: Splunk {}",
  host="splunk.corp.example:8088/services/collector/event")
F("pagerduty-api-key", "PagerDuty", "token", one("PAGERDUTY_TOKEN", lambda: "u+" + rs(B64U, 18)),
  hdr="Authorization: Token token={}", host="api.pagerduty.com/incidents")
F("opsgenie-api-key", "Opsgenie", "token", one("OPSGENIE_API_KEY", uuid4), hdr="Authorization: GenieKey {}",
  host="api.opsgenie.com/v2/alerts")
F("sumologic-access-key", "Sumo Logic", "multi", lambda: [("SUMO_ACCESS_ID", "su" + A(12), False), ("SUMO_ACCESS_KEY", A(64), True)])
F("rollbar-access-token", "Rollbar", "token", one("ROLLBAR_ACCESS_TOKEN", lambda: H(32)), hdr="X-Rollbar-Access-Token: {}",
  host="api.rollbar.com/api/1/item/")
F("bugsnag-api-key", "Bugsnag", "token", one("BUGSNAG_AUTH_TOKEN", lambda: H(32)))
F("launchdarkly-sdk-key", "LaunchDarkly", "token", one("LAUNCHDARKLY_SDK_KEY", lambda: "sdk-" + uuid4()))
F("launchdarkly-api-token", "LaunchDarkly", "token", one("LD_API_TOKEN", lambda: "api-" + uuid4()), hdr="Authorization: {}",
  host="app.launchdarkly.com/api/v2/flags/default")
F("postman-api-key", "Postman", "token", one("POSTMAN_API_KEY", lambda: "PMAK-" + H(24) + "-" + H(34)), hdr="X-Api-Key: {}",
  host="api.getpostman.com/collections")
F("linear-api-key", "Linear", "token", one("LINEAR_API_KEY", lambda: "lin_api_" + A(40)), hdr="Authorization: {}",
  host="api.linear.app/graphql")
F("notion-integration-token", "Notion", "token", one("NOTION_TOKEN", lambda: pick(["secret_" + A(43), "ntn_" + D(11) + A(35)])),
  host="api.notion.com/v1/databases/query")
F("airtable-pat", "Airtable", "token", one("AIRTABLE_TOKEN", lambda: "pat" + A(14) + "." + H(64)), host="api.airtable.com/v0/meta/bases")
F("asana-pat", "Asana", "token", one("ASANA_ACCESS_TOKEN", lambda: "2/" + NZ(16) + "/" + NZ(16) + ":" + H(32)),
  host="app.asana.com/api/1.0/tasks")
F("clickup-api-token", "ClickUp", "token", one("CLICKUP_TOKEN", lambda: "pk_" + NZ(8) + "_" + UN(32)), hdr="Authorization: {}",
  host="api.clickup.com/api/v2/team")
F("monday-api-token", "monday.com", "token",
  one("MONDAY_API_TOKEN", lambda: make_jwt({"tid": R.randint(10**8, 10**9), "aai": 11, "uid": R.randint(10**7, 10**8), "iad": "2025-03-11T09:13:25.000Z", "per": "me:write", "actid": R.randint(10**6, 10**7), "rgn": "euc1"}, alg="HS256")),
  hdr="Authorization: {}", host="api.monday.com/v2")
F("trello-api-token", "Trello", "multi", lambda: [("TRELLO_API_KEY", H(32), False), ("TRELLO_TOKEN", "ATTA" + H(64) + HU(8), True)])
F("figma-pat", "Figma", "token", one("FIGMA_TOKEN", lambda: "figd_" + rs(B64U, 40)), hdr="X-Figma-Token: {}",
  host="api.figma.com/v1/files/aBcDeFgH1234")
F("dropbox-access-token", "Dropbox", "token", one("DROPBOX_ACCESS_TOKEN", lambda: "sl.B" + rs(B64U, 135)),
  host="api.dropboxapi.com/2/files/list_folder")
F("box-developer-token", "Box", "token", one("BOX_DEVELOPER_TOKEN", lambda: A(32)), host="api.box.com/2.0/folders/0/items")
F("zoom-s2s-oauth", "Zoom", "multi", lambda: [("ZOOM_ACCOUNT_ID", rs(B64U, 22), False), ("ZOOM_CLIENT_ID", rs(B64U, 22), False),
                                             ("ZOOM_CLIENT_SECRET", A(32), True)])
F("calendly-pat", "Calendly", "token",
  one("CALENDLY_TOKEN", lambda: make_jwt({"iss": "https://auth.calendly.com", "iat": epoch(), "jti": uuid4(), "user_uuid": uuid4()}, alg="HS512", sig_bytes=64)),
  host="api.calendly.com/users/me")
F("typeform-pat", "Typeform", "token", one("TYPEFORM_TOKEN", lambda: "tfp_" + rs(B64U, 44) + "_" + rs(B64U, 14)),
  host="api.typeform.com/forms")
F("hubspot-private-app-token", "HubSpot", "token", one("HUBSPOT_ACCESS_TOKEN", lambda: "pat-" + pick(["na1", "eu1"]) + "-" + uuid4()),
  host="api.hubapi.com/crm/v3/objects/contacts")
F("salesforce-access-token", "Salesforce", "token", one("SF_ACCESS_TOKEN", lambda: "00D" + UN(12) + "!" + rs(ALNUM + "._", 96)),
  host="acme.my.salesforce.com/services/data/v61.0/query?q=SELECT+Id+FROM+Account")
F("salesforce-consumer-secret", "Salesforce", "multi", lambda: [("SF_CONSUMER_KEY", "3MVG9" + rs(ALNUM + "._", 80), False),
                                                              ("SF_CONSUMER_SECRET", HU(64), True)])
F("zendesk-api-token", "Zendesk", "multi", lambda: [("ZENDESK_EMAIL", "support@" + domain(), False), ("ZENDESK_API_TOKEN", A(40), True)])
F("intercom-access-token", "Intercom", "token",
  one("INTERCOM_ACCESS_TOKEN", lambda: base64.b64encode(("tok:" + uuid4() + ":" + H(4) + ":" + D(1)).encode()).decode().rstrip("=") + "="),
  host="api.intercom.io/contacts")
F("freshdesk-api-key", "Freshdesk", "token", one("FRESHDESK_API_KEY", lambda: A(20)), hdr="-u {}:X",
  host="acme.freshdesk.com/api/v2/tickets")
F("mailchimp-api-key", "Mailchimp", "token", one("MAILCHIMP_API_KEY", lambda: H(32) + "-us" + str(R.randint(1, 21))))
F("mailgun-api-key", "Mailgun", "token", one("MAILGUN_API_KEY", lambda: pick(["key-" + H(32), H(32) + "-" + H(8) + "-" + H(8)])),
  hdr="-u api:{}", host="api.mailgun.net/v3/mg.example.org/messages")
F("sendgrid-api-key", "SendGrid", "token", one("SENDGRID_API_KEY", lambda: "SG." + rs(B64U, 22) + "." + rs(B64U, 43)),
  host="api.sendgrid.com/v3/mail/send")
F("postmark-server-token", "Postmark", "token", one("POSTMARK_SERVER_TOKEN", uuid4), hdr="X-Postmark-Server-Token: {}",
  host="api.postmarkapp.com/email")
F("sparkpost-api-key", "SparkPost", "token", one("SPARKPOST_API_KEY", lambda: H(40)), hdr="Authorization: {}",
  host="api.sparkpost.com/api/v1/transmissions")
F("mandrill-api-key", "Mandrill", "token", one("MANDRILL_API_KEY", lambda: "md-" + rs(B64U, 22)))
F("brevo-api-key", "Brevo", "token", one("BREVO_API_KEY", lambda: "xkeysib-" + H(64) + "-" + A(16)), hdr="api-key: {}",
  host="api.brevo.com/v3/smtp/email")
F("resend-api-key", "Resend", "token", one("RESEND_API_KEY", lambda: "re_" + A(8) + "_" + A(24)), host="api.resend.com/emails")
F("mailjet-api-keys", "Mailjet", "multi", lambda: [("MJ_APIKEY_PUBLIC", H(32), False), ("MJ_APIKEY_PRIVATE", H(32), True)])
F("twilio-auth-token", "Twilio", "multi", lambda: [("TWILIO_ACCOUNT_SID", "AC" + H(32), False), ("TWILIO_AUTH_TOKEN", H(32), True)])
F("twilio-api-key", "Twilio", "multi", lambda: [("TWILIO_API_KEY", "SK" + H(32), False), ("TWILIO_API_SECRET", A(32), True)])
F("vonage-api-credentials", "Vonage", "multi", lambda: [("VONAGE_API_KEY", H(8), False), ("VONAGE_API_SECRET", A(16), True)])
F("messagebird-access-key", "MessageBird", "token", one("MESSAGEBIRD_ACCESS_KEY", lambda: A(25)), hdr="Authorization: AccessKey {}",
  host="rest.messagebird.com/messages")
F("plivo-auth-token", "Plivo", "multi", lambda: [("PLIVO_AUTH_ID", "MA" + UN(18), False), ("PLIVO_AUTH_TOKEN", A(40), True)])
F("telnyx-api-key", "Telnyx", "token", one("TELNYX_API_KEY", lambda: "KEY" + HU(32) + "_" + A(22)), host="api.telnyx.com/v2/messages")

# ---- chat / messaging / webhooks -------------------------------------------
F("slack-bot-token", "Slack", "token", one("SLACK_BOT_TOKEN", lambda: "xoxb-" + NZ(12) + "-" + NZ(13) + "-" + A(24)),
  host="slack.com/api/chat.postMessage")
F("slack-user-token", "Slack", "token", one("SLACK_USER_TOKEN", lambda: "xoxp-" + NZ(12) + "-" + NZ(12) + "-" + NZ(13) + "-" + H(32)),
  host="slack.com/api/conversations.history")
F("slack-app-token", "Slack", "token", one("SLACK_APP_TOKEN", lambda: "xapp-1-A" + UN(10) + "-" + NZ(13) + "-" + H(64)),
  host="slack.com/api/apps.connections.open")
F("slack-config-token", "Slack", "token", one("SLACK_CONFIG_TOKEN", lambda: "xoxe.xoxp-1-" + rs(ALNUM + "-", 140)),
  host="slack.com/api/apps.manifest.update")
F("slack-incoming-webhook", "Slack", "url",
  one("SLACK_WEBHOOK_URL", lambda: "https://hooks.slack.com/services/T" + UN(R.randint(8, 10)) + "/B" + UN(R.randint(8, 10)) + "/" + A(24)))
F("slack-workflow-webhook", "Slack Workflow", "url",
  one("SLACK_WORKFLOW_WEBHOOK", lambda: "https://hooks.slack.com/triggers/T" + UN(9) + "/" + NZ(13) + "/" + H(32)))
F("slack-signing-secret", "Slack", "token", one("SLACK_SIGNING_SECRET", lambda: H(32)), noun="signing secret")
F("discord-bot-token", "Discord", "token",
  one("DISCORD_TOKEN", lambda: base64.b64encode(NZ(18).encode()).decode().rstrip("=") + "." + rs(B64U, 6) + "." + rs(B64U, 38)),
  hdr="Authorization: Bot {}", host="discord.com/api/v10/users/@me")
F("discord-webhook", "Discord", "url", one("DISCORD_WEBHOOK_URL", lambda: "https://discord.com/api/webhooks/" + NZ(19) + "/" + rs(B64U, 68)))
F("telegram-bot-token", "Telegram", "token", one("TELEGRAM_BOT_TOKEN", lambda: NZ(10) + ":AA" + rs(B64U, 33)),
  hdr="path", host="api.telegram.org/bot{}/sendMessage")
F("teams-incoming-webhook", "Microsoft Teams", "url",
  one("TEAMS_WEBHOOK_URL", lambda: f"https://{company().replace('-', '')}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{H(32)}/{uuid4()}/V2{rs(B64U, 40)}"))
F("google-chat-webhook", "Google Chat", "url",
  one("GCHAT_WEBHOOK", lambda: "https://chat.googleapis.com/v1/spaces/AAAA" + rs(B64U, 7) + "/messages?key=AIza" + rs(B64U, 35)
      + "&token=" + rs(B64U, 43) + "%3D"))
F("mattermost-webhook", "Mattermost", "url", one("MATTERMOST_HOOK", lambda: "https://chat." + domain() + "/hooks/" + LN(26)))
F("rocketchat-webhook", "Rocket.Chat", "url", one("ROCKETCHAT_HOOK", lambda: "https://rocket." + domain() + "/hooks/" + A(17) + "/" + A(48)))
F("line-channel-access-token", "LINE Messaging API", "token", one("LINE_CHANNEL_ACCESS_TOKEN", lambda: rs(B64A, 171) + "="),
  host="api.line.me/v2/bot/message/push")
F("line-channel-secret", "LINE Messaging API", "token", one("LINE_CHANNEL_SECRET", lambda: H(32)), noun="channel secret")
F("facebook-page-token", "Facebook Graph API", "token", one("FB_PAGE_ACCESS_TOKEN", lambda: "EAAG" + A(150)), hdr="?access_token={}",
  host="graph.facebook.com/v19.0/me/messages")
F("facebook-app-secret", "Meta for Developers", "multi", lambda: [("FB_APP_ID", NZ(15), False), ("FB_APP_SECRET", H(32), True)])
F("whatsapp-cloud-token", "WhatsApp Cloud API", "token", one("WHATSAPP_TOKEN", lambda: "EAAJ" + A(160)),
  host="graph.facebook.com/v19.0/1234567890/messages")
F("instagram-graph-token", "Instagram Graph API", "token", one("IG_ACCESS_TOKEN", lambda: "IGQWR" + rs(B64U, 140)), hdr="?access_token={}",
  host="graph.instagram.com/me/media")
F("twitter-bearer-token", "X / Twitter API", "token",
  one("TWITTER_BEARER_TOKEN", lambda: "AAAAAAAAAAAAAAAAAAAAA" + A(25) + "%3D" + A(50)), host="api.twitter.com/2/tweets/search/recent")
F("twitter-oauth1-credentials", "X / Twitter API", "multi",
  lambda: [("TWITTER_API_KEY", A(25), False), ("TWITTER_API_SECRET", A(50), True),
           ("TWITTER_ACCESS_TOKEN", NZ(19) + "-" + A(30), True), ("TWITTER_ACCESS_SECRET", A(45), True)])
F("linkedin-client-secret", "LinkedIn", "multi", lambda: [("LINKEDIN_CLIENT_ID", LN(14), False), ("LINKEDIN_CLIENT_SECRET", A(16), True)])
F("reddit-client-secret", "Reddit API", "multi", lambda: [("REDDIT_CLIENT_ID", rs(B64U, 22), False), ("REDDIT_CLIENT_SECRET", rs(B64U, 30), True)])
F("twitch-client-secret", "Twitch", "multi", lambda: [("TWITCH_CLIENT_ID", LN(30), False), ("TWITCH_CLIENT_SECRET", LN(30), True)])
F("twitch-chat-oauth", "Twitch IRC", "token", one("TWITCH_OAUTH", lambda: "oauth:" + LN(30)))
F("spotify-client-secret", "Spotify", "multi", lambda: [("SPOTIFY_CLIENT_ID", H(32), False), ("SPOTIFY_CLIENT_SECRET", H(32), True)])
F("zapier-catch-hook", "Zapier", "url", one("ZAPIER_HOOK_URL", lambda: "https://hooks.zapier.com/hooks/catch/" + NZ(7) + "/" + LN(6) + "/"))
F("ifttt-maker-key", "IFTTT", "url", one("IFTTT_WEBHOOK", lambda: "https://maker.ifttt.com/trigger/" + pick(["door_open", "backup_done", "plant_dry"]) + "/with/key/" + rs(B64U, 22)))
F("make-webhook", "Make.com", "url", one("MAKE_WEBHOOK_URL", lambda: "https://hook." + pick(["eu1", "eu2", "us1"]) + ".make.com/" + LN(32)))
F("pusher-app-secret", "Pusher", "multi", lambda: [("PUSHER_APP_ID", NZ(7), False), ("PUSHER_KEY", H(20), False), ("PUSHER_SECRET", H(20), True)])
F("ably-api-key", "Ably", "token", one("ABLY_API_KEY", lambda: A(6) + "." + A(6) + ":" + rs(B64U, 43)))
F("pubnub-secret-key", "PubNub", "multi", lambda: [("PUBNUB_PUBLISH_KEY", "pub-c-" + uuid4(), False),
                                                  ("PUBNUB_SECRET_KEY", "sec-c-" + rs(B64A, 48), True)])
F("agora-app-certificate", "Agora", "multi", lambda: [("AGORA_APP_ID", H(32), False), ("AGORA_APP_CERTIFICATE", H(32), True)])
F("livekit-api-secret", "LiveKit", "multi", lambda: [("LIVEKIT_API_KEY", "API" + A(12), False), ("LIVEKIT_API_SECRET", A(43), True)])
F("getstream-secret", "Stream", "multi", lambda: [("STREAM_API_KEY", LN(12), False), ("STREAM_API_SECRET", LN(64), True)])
F("sendbird-api-token", "Sendbird", "token", one("SENDBIRD_API_TOKEN", lambda: H(40)), hdr="Api-Token: {}",
  host="api-" + "A1B2C3D4.sendbird.com/v3/users")
F("onesignal-rest-api-key", "OneSignal", "token", one("ONESIGNAL_REST_API_KEY", lambda: pick([rs(B64A, 48), "os_v2_app_" + rs(LOW + "234567", 100)])),
  hdr="Authorization: Basic {}", host="onesignal.com/api/v1/notifications")

# ---- identity / auth -------------------------------------------------------
F("okta-api-token", "Okta", "token", one("OKTA_API_TOKEN", lambda: "00" + rs(B64U, 40)), hdr="Authorization: SSWS {}",
  host="acme.okta.com/api/v1/users")
F("auth0-client-secret", "Auth0", "multi", lambda: [("AUTH0_DOMAIN", company() + ".eu.auth0.com", False), ("AUTH0_CLIENT_ID", A(32), False),
                                                   ("AUTH0_CLIENT_SECRET", rs(B64U, 64), True)])
F("onelogin-client-secret", "OneLogin", "multi", lambda: [("ONELOGIN_CLIENT_ID", H(64), False), ("ONELOGIN_CLIENT_SECRET", H(64), True)])
F("keycloak-client-secret", "Keycloak", "multi", lambda: [("KEYCLOAK_CLIENT_ID", pick(["backend", "admin-cli-sync", "portal"]), False),
                                                         ("KEYCLOAK_CLIENT_SECRET", A(32), True)])
F("clerk-secret-key", "Clerk", "token", one("CLERK_SECRET_KEY", lambda: "sk_live_" + A(42)), host="api.clerk.com/v1/users")
F("stytch-secret", "Stytch", "multi", lambda: [("STYTCH_PROJECT_ID", "project-live-" + uuid4(), False),
                                              ("STYTCH_SECRET", "secret-live-" + rs(B64U, 36), True)])
F("jumpcloud-api-key", "JumpCloud", "token", one("JUMPCLOUD_API_KEY", lambda: H(40)), hdr="x-api-key: {}",
  host="console.jumpcloud.com/api/systemusers")
F("crowdstrike-api-client", "CrowdStrike Falcon", "multi", lambda: [("FALCON_CLIENT_ID", H(32), False), ("FALCON_CLIENT_SECRET", A(40), True)])
F("jwt-signing-secret", "JWT auth", "token", one("JWT_SECRET", lambda: rs(B64U, R.choice([32, 48, 64]))), noun="signing secret")
F("jwt-bearer-token", "internal API", "token",
  one("API_BEARER_TOKEN", lambda: make_jwt({"sub": NZ(7), "email": LN(8) + "@" + domain(), "role": pick(["admin", "user", "service"]), "iat": epoch(), "exp": epoch() + 3600})),
  host="api.internal.example/v2/me", noun="access token")
F("k8s-service-account-token", "Kubernetes", "token",
  one("K8S_TOKEN", lambda: make_jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": pick(["default", "ci", "monitoring"]),
                                     "kubernetes.io/serviceaccount/service-account.name": pick(["deployer", "argocd", "prometheus"]),
                                     "sub": "system:serviceaccount:ci:deployer"}, alg="ES256", sig_bytes=64, kid=rs(B64U, 43))),
  host="10.96.0.1:443/api/v1/namespaces/default/pods", noun="service account token")
F("session-cookie", "web session", "token",
  lambda: [("Cookie", pick(["sessionid=" + LN(32), "connect.sid=s%3A" + rs(B64U, 32) + "." + rs(B64U, 43), "PHPSESSID=" + LN(26),
                            "_session_id=" + H(32), "laravel_session=eyJpdiI6I" + rs(B64A, 120)]), True)],
  conts=["http", "curl", "log", "ticket", "chat", "note"], noun="session cookie")
F("django-secret-key", "Django", "token", one("DJANGO_SECRET_KEY", lambda: rs(LOWNUM + "!@#$%^&*(-_=+)", 50)))
F("rails-secret-key-base", "Ruby on Rails", "token", one("SECRET_KEY_BASE", lambda: H(128)))
F("rails-master-key", "Ruby on Rails", "token", one("RAILS_MASTER_KEY", lambda: H(32)))
F("laravel-app-key", "Laravel", "token", one("APP_KEY", lambda: "base64:" + b64(32)))
F("nextauth-secret", "NextAuth.js", "token", one("NEXTAUTH_SECRET", lambda: b64(32)))
F("flask-secret-key", "Flask", "token", one("FLASK_SECRET_KEY", lambda: H(48)))
F("symfony-app-secret", "Symfony", "token", one("APP_SECRET", lambda: H(32)))
F("phoenix-secret-key-base", "Phoenix", "token", one("SECRET_KEY_BASE", lambda: rs(B64A, 64)))
F("ghost-admin-api-key", "Ghost", "token", one("GHOST_ADMIN_API_KEY", lambda: H(24) + ":" + H(64)))
F("wordpress-auth-keys", "WordPress", "multi",
  lambda: [("AUTH_KEY", rs(ALNUM + "!@#$%^&*()-_[]{}<>~+=,.;:/?|", 64), True), ("SECURE_AUTH_KEY", rs(ALNUM + "!@#$%^&*()-_[]{}<>~+=,.;:/?|", 64), True)],
  conts=["wpconfig", "note", "ticket"])
F("airflow-fernet-key", "Apache Airflow", "token", one("AIRFLOW__CORE__FERNET_KEY", lambda: base64.urlsafe_b64encode(rbytes(32)).decode()))
F("jupyter-server-token", "Jupyter", "token", one("JUPYTER_TOKEN", lambda: H(48)), hdr="?token={}", host="10.0.0.12:8888/lab")

# ---- misc SaaS / data APIs -------------------------------------------------
F("mapbox-secret-token", "Mapbox", "token",
  one("MAPBOX_SECRET_TOKEN", lambda: "sk." + b64url_json({"u": pick(["acme", "jdoe", "geo-team"]), "a": LN(25)}) + "." + rs(B64U, 22)),
  hdr="?access_token={}", host="api.mapbox.com/uploads/v1/acme")
F("here-api-key", "HERE", "token", one("HERE_API_KEY", lambda: rs(B64U, 43)), hdr="?apiKey={}", host="geocode.search.hereapi.com/v1/geocode?q=Invalidenstr+117")
F("tomtom-api-key", "TomTom", "token", one("TOMTOM_API_KEY", lambda: A(32)), hdr="?key={}", host="api.tomtom.com/search/2/geocode/Amsterdam.json")
F("openweathermap-key", "OpenWeatherMap", "token", one("OWM_API_KEY", lambda: H(32)), hdr="?appid={}",
  host="api.openweathermap.org/data/2.5/weather?q=Lisbon")
F("newsapi-key", "NewsAPI", "token", one("NEWSAPI_KEY", lambda: H(32)), hdr="X-Api-Key: {}", host="newsapi.org/v2/top-headlines?country=de")
F("ipinfo-token", "IPinfo", "token", one("IPINFO_TOKEN", lambda: H(14)), hdr="?token={}", host="ipinfo.io/8.8.8.8")
F("alphavantage-key", "Alpha Vantage", "token", one("ALPHAVANTAGE_API_KEY", lambda: UN(16)), hdr="&apikey={}",
  host="www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=IBM")
F("polygon-api-key", "Polygon.io", "token", one("POLYGON_API_KEY", lambda: rs(ALNUM + "_", 32)), hdr="?apiKey={}",
  host="api.polygon.io/v2/aggs/ticker/AAPL/prev")
F("finnhub-api-key", "Finnhub", "token", one("FINNHUB_API_KEY", lambda: LN(20)), hdr="X-Finnhub-Token: {}", host="finnhub.io/api/v1/quote?symbol=MSFT")
F("iex-cloud-secret", "IEX Cloud", "token", one("IEX_SECRET_TOKEN", lambda: "sk_" + H(32)), hdr="?token={}",
  host="cloud.iexapis.com/stable/stock/aapl/quote")
F("alchemy-api-key", "Alchemy", "url", one("ALCHEMY_RPC_URL", lambda: "https://eth-mainnet.g.alchemy.com/v2/" + rs(B64U, 32)))
F("infura-project-secret", "Infura", "multi", lambda: [("INFURA_PROJECT_ID", H(32), False), ("INFURA_PROJECT_SECRET", H(32), True)])
F("etherscan-api-key", "Etherscan", "token", one("ETHERSCAN_API_KEY", lambda: UN(34)), hdr="&apikey={}",
  host="api.etherscan.io/api?module=account&action=balance&address=0x0")
F("cloudinary-url", "Cloudinary", "url", one("CLOUDINARY_URL", lambda: "cloudinary://" + NZ(15) + ":" + rs(B64U, 27) + "@" + pick(["acme", "dxk3", "shopimg"]) + LN(3)))
F("imagekit-private-key", "ImageKit", "token", one("IMAGEKIT_PRIVATE_KEY", lambda: "private_" + rs(B64A, 28)))
F("uploadcare-secret", "Uploadcare", "multi", lambda: [("UPLOADCARE_PUBLIC_KEY", H(20), False), ("UPLOADCARE_SECRET_KEY", H(20), True)])
F("contentful-delivery-token", "Contentful", "multi", lambda: [("CONTENTFUL_SPACE_ID", LN(12), False), ("CONTENTFUL_ACCESS_TOKEN", rs(B64U, 43), True)])
F("contentful-management-token", "Contentful", "token", one("CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + rs(B64U, 43)))
F("sanity-api-token", "Sanity", "token", one("SANITY_API_TOKEN", lambda: "sk" + A(130)))
F("contentstack-management-token", "Contentstack", "token", one("CONTENTSTACK_MANAGEMENT_TOKEN", lambda: "cs" + H(32)))
F("webflow-api-token", "Webflow", "token", one("WEBFLOW_TOKEN", lambda: H(64)), host="api.webflow.com/v2/sites")
F("mixpanel-api-secret", "Mixpanel", "token", one("MIXPANEL_API_SECRET", lambda: H(32)))
F("amplitude-secret-key", "Amplitude", "multi", lambda: [("AMPLITUDE_API_KEY", H(32), False), ("AMPLITUDE_SECRET_KEY", H(32), True)])
F("posthog-personal-api-key", "PostHog", "token", one("POSTHOG_PERSONAL_API_KEY", lambda: "phx_" + A(43)),
  host="eu.posthog.com/api/projects/")
F("statsig-server-secret", "Statsig", "token", one("STATSIG_SERVER_SECRET", lambda: "secret-" + A(43)), hdr="statsig-api-key: {}",
  host="api.statsig.com/v1/log_event")
F("braze-rest-api-key", "Braze", "token", one("BRAZE_REST_API_KEY", uuid4), host="rest.fra-01.braze.eu/users/track")
F("expo-access-token", "Expo", "token", one("EXPO_TOKEN", lambda: A(40)))
F("virustotal-api-key", "VirusTotal", "token", one("VT_API_KEY", lambda: H(64)), hdr="x-apikey: {}",
  host="www.virustotal.com/api/v3/files/44d88612fea8a8f36de82e1278abb02f")
F("shodan-api-key", "Shodan", "token", one("SHODAN_API_KEY", lambda: A(32)), hdr="?key={}", host="api.shodan.io/shodan/host/1.1.1.1")
F("hibp-api-key", "Have I Been Pwned", "token", one("HIBP_API_KEY", lambda: H(32)), hdr="hibp-api-key: {}",
  host="haveibeenpwned.com/api/v3/breachedaccount/test")
F("abuseipdb-api-key", "AbuseIPDB", "token", one("ABUSEIPDB_KEY", lambda: H(80)), hdr="Key: {}",
  host="api.abuseipdb.com/api/v2/check?ipAddress=118.25.6.39")
F("todoist-api-token", "Todoist", "token", one("TODOIST_API_TOKEN", lambda: H(40)), host="api.todoist.com/rest/v2/tasks")
F("readwise-token", "Readwise", "token", one("READWISE_TOKEN", lambda: A(50)), hdr="Authorization: Token {}",
  host="readwise.io/api/v2/highlights/")
F("toggl-api-token", "Toggl Track", "token", one("TOGGL_API_TOKEN", lambda: H(32)), hdr="-u {}:api_token",
  host="api.track.toggl.com/api/v9/me")
F("wakatime-api-key", "WakaTime", "token", one("WAKATIME_API_KEY", lambda: "waka_" + uuid4()))
F("sourcegraph-access-token", "Sourcegraph", "token", one("SRC_ACCESS_TOKEN", lambda: "sgp_" + H(16) + "_" + H(40)),
  hdr="Authorization: token {}", host="sourcegraph.example.com/.api/graphql")
F("gitea-access-token", "Gitea", "token", one("GITEA_TOKEN", lambda: H(40)), hdr="Authorization: token {}",
  host="git.example.org/api/v1/user/repos")
F("pipedrive-api-token", "Pipedrive", "token", one("PIPEDRIVE_API_TOKEN", lambda: H(40)), hdr="?api_token={}",
  host="acme.pipedrive.com/api/v1/deals")
F("close-api-key", "Close CRM", "token", one("CLOSE_API_KEY", lambda: "api_" + A(22) + "." + A(22)), hdr="-u {}:",
  host="api.close.com/api/v1/lead/")
F("hunter-api-key", "Hunter", "token", one("HUNTER_API_KEY", lambda: H(40)), hdr="&api_key={}",
  host="api.hunter.io/v2/domain-search?domain=stripe.com")
F("clearbit-secret-key", "Clearbit", "token", one("CLEARBIT_KEY", lambda: "sk_" + H(32)))
F("jotform-api-key", "Jotform", "token", one("JOTFORM_API_KEY", lambda: H(32)), hdr="APIKEY: {}", host="api.jotform.com/user/forms")
F("steam-web-api-key", "Steam", "token", one("STEAM_API_KEY", lambda: HU(32)), hdr="?key={}",
  host="api.steampowered.com/ISteamUser/GetPlayerSummaries/v2/")
F("riot-api-key", "Riot Games", "token", one("RIOT_API_KEY", lambda: "RGAPI-" + uuid4()), hdr="X-Riot-Token: {}",
  host="euw1.api.riotgames.com/lol/summoner/v4/summoners/by-puuid/x")
F("blizzard-client-secret", "Battle.net", "multi", lambda: [("BLIZZARD_CLIENT_ID", H(32), False), ("BLIZZARD_CLIENT_SECRET", A(32), True)])
F("lastfm-api-secret", "Last.fm", "multi", lambda: [("LASTFM_API_KEY", H(32), False), ("LASTFM_SHARED_SECRET", H(32), True)])
F("tmdb-read-access-token", "TMDB", "token",
  one("TMDB_READ_TOKEN", lambda: make_jwt({"aud": H(32), "nbf": epoch(), "sub": H(24), "scopes": ["api_read"], "version": 1})),
  host="api.themoviedb.org/3/movie/550")
F("strava-client-secret", "Strava", "multi", lambda: [("STRAVA_CLIENT_ID", NZ(6), False), ("STRAVA_CLIENT_SECRET", H(40), True),
                                                     ("STRAVA_REFRESH_TOKEN", H(40), True)])
F("fitbit-client-secret", "Fitbit", "multi", lambda: [("FITBIT_CLIENT_ID", UN(6), False), ("FITBIT_CLIENT_SECRET", H(32), True)])
F("oura-pat", "Oura", "token", one("OURA_TOKEN", lambda: UN(32)), host="api.ouraring.com/v2/usercollection/daily_sleep")
F("smartthings-pat", "SmartThings", "token", one("SMARTTHINGS_TOKEN", uuid4), host="api.smartthings.com/v1/devices")
F("home-assistant-token", "Home Assistant", "token",
  one("HASS_TOKEN", lambda: make_jwt({"iss": H(32), "iat": epoch(), "exp": epoch() + 315_360_000})),
  host="homeassistant.local:8123/api/states", noun="long-lived access token")
F("particle-access-token", "Particle", "token", one("PARTICLE_TOKEN", lambda: H(40)), host="api.particle.io/v1/devices")
F("adafruit-io-key", "Adafruit IO", "token", one("ADAFRUIT_IO_KEY", lambda: "aio_" + A(28)), hdr="X-AIO-Key: {}",
  host="io.adafruit.com/api/v2/jdoe/feeds/temperature/data")
F("thingspeak-write-key", "ThingSpeak", "token", one("THINGSPEAK_WRITE_KEY", lambda: UN(16)), hdr="?api_key={}",
  host="api.thingspeak.com/update?field1=21.4")
F("blynk-auth-token", "Blynk", "token", one("BLYNK_AUTH_TOKEN", lambda: rs(B64U, 32)), hdr="?token={}",
  host="blynk.cloud/external/api/update?V1=1")
F("plex-token", "Plex", "token", one("PLEX_TOKEN", lambda: rs(B64U, 20)), hdr="?X-Plex-Token={}",
  host="192.168.1.20:32400/library/sections")
F("jellyfin-api-key", "Jellyfin", "token", one("JELLYFIN_API_KEY", lambda: H(32)), hdr="X-Emby-Token: {}",
  host="media.home.arpa:8096/Items")
F("sonarr-api-key", "Sonarr", "token", one("SONARR_API_KEY", lambda: H(32)), hdr="X-Api-Key: {}", host="nas.local:8989/api/v3/series")
F("proxmox-api-token", "Proxmox VE", "token",
  one("PROXMOX_API_TOKEN", lambda: pick(["root@pam!", "terraform@pve!", "automation@pve!"]) + pick(["tf", "ansible", "backup"]) + "=" + uuid4()),
  hdr="Authorization: PVEAPIToken={}", host="pve.lab.local:8006/api2/json/nodes")
F("truenas-api-key", "TrueNAS", "token", one("TRUENAS_API_KEY", lambda: str(R.randint(1, 9)) + "-" + A(64)), host="truenas.local/api/v2.0/pool")
F("portainer-access-token", "Portainer", "token", one("PORTAINER_TOKEN", lambda: "ptr_" + rs(B64A, 43)), hdr="X-API-Key: {}",
  host="portainer.lab:9443/api/endpoints")
F("nats-user-seed", "NATS", "token", one("NATS_NKEY_SEED", lambda: "SUA" + rs(B32A, 55)))
F("tailscale-auth-key", "Tailscale", "token", one("TS_AUTHKEY", lambda: "tskey-auth-k" + A(10) + "CNTRL-" + A(33)))
F("tailscale-api-key", "Tailscale", "token", one("TAILSCALE_API_KEY", lambda: "tskey-api-k" + A(10) + "CNTRL-" + A(33)),
  host="api.tailscale.com/api/v2/tailnet/-/devices")
F("ngrok-authtoken", "ngrok", "token", one("NGROK_AUTHTOKEN", lambda: "2" + A(26) + "_" + A(21)))
F("zerotier-api-token", "ZeroTier", "token", one("ZEROTIER_API_TOKEN", lambda: A(32)), hdr="Authorization: token {}",
  host="api.zerotier.com/api/v1/network")
F("wireguard-private-key", "WireGuard", "token", lambda: [("PrivateKey", b64(32), True)], conts=["wgconf", "note", "chat", "ticket"],
  noun="private key")
F("openvpn-static-key", "OpenVPN", "pem",
  one("OPENVPN_TLS_AUTH", lambda: "-----BEGIN OpenVPN Static key V1-----\n" + "\n".join(H(32) for _ in range(16)) + "\n-----END OpenVPN Static key V1-----"))
F("ipsec-psk", "IPsec VPN", "token", lambda: [("psk", svc_pw(24), True)], conts=["ipsec", "note", "ticket", "chat"], noun="pre-shared key")
F("radius-shared-secret", "RADIUS", "token", lambda: [("secret", svc_pw(18), True)], conts=["radius", "note", "ticket"], noun="shared secret")

# ---- generic infra credentials in well-known files ---------------------------
F("ldap-bind-password", "LDAP", "multi", lambda: [("LDAP_BIND_DN", "cn=svc-" + pick(["gitlab", "jenkins", "nextcloud"]) + ",ou=services,dc=corp,dc=example", False),
                                                 ("LDAP_BIND_PASSWORD", svc_pw(), True)])
F("smtp-credentials", "SMTP relay", "multi", lambda: [("SMTP_HOST", pick(["smtp.office365.com", "smtp.mailgun.org", "email-smtp.eu-west-1.amazonaws.com", "smtp.gmail.com"]), False),
                                                     ("SMTP_USER", pick(["noreply", "alerts", "billing"]) + "@" + domain(), False),
                                                     ("SMTP_PASSWORD", svc_pw(), True)])
F("gmail-smtp-app-password", "Gmail SMTP", "multi", lambda: [("EMAIL_HOST_USER", LN(8) + "@gmail.com", False),
                                                            ("EMAIL_HOST_PASSWORD", " ".join(rs(LOW, 4) for _ in range(4)), True)])
F("ftp-url", "FTP", "conn", one("FTP_URL", lambda: f"ftp://{pick(['upload', 'web', 'backup'])}:{svc_pw(alpha=ALNUM)}@ftp.{domain()}/public_html"))
F("sftp-password", "SFTP", "multi", lambda: [("SFTP_HOST", "sftp." + domain(), False), ("SFTP_USER", pick(["partner_acme", "edi", "feeds"]), False),
                                            ("SFTP_PASSWORD", svc_pw(), True)])
F("mqtt-url", "MQTT broker", "conn", one("MQTT_URL", lambda: f"mqtts://{pick(['sensor', 'homeassistant', 'node-red'])}:{svc_pw(alpha=ALNUM)}@{LN(8)}.s1.eu.hivemq.cloud:8883"))
F("pgpass-entry", "PostgreSQL .pgpass", "token",
  lambda: [("pgpass", f"{LN(6)}.internal:5432:{db_name()}:{db_user()}:{svc_pw(alpha=ALNUM + '!#%')}", True)], conts=["pgpass", "note", "ticket"])
F("netrc-credentials", ".netrc", "token",
  lambda: [("netrc", f"machine {pick(['api.heroku.com', 'git.heroku.com', 'github.com', 'urs.earthdata.nasa.gov', 'artifactory.corp'])} login {pick(['jdoe@example.org', 'deploy', 'build'])} password {pick(['ghp_' + A(36), svc_pw(), uuid4()])}", True)],
  conts=["netrc", "note", "chat"])
F("git-credentials-store", "git credential store", "url",
  one("git-credentials", lambda: f"https://{pick(['jdoe', 'oauth2', 'x-access-token', 'build-bot'])}:{pick(['ghp_' + A(36), 'glpat-' + rs(B64U, 20), 'ATBB' + A(32) + HU(8)])}@{pick(['github.com', 'gitlab.com', 'bitbucket.org'])}"),
  conts=["gitcreds", "note", "chat", "ticket", "shell"])
F("pip-index-credentials", "private PyPI", "url",
  one("PIP_INDEX_URL", lambda: f"https://{pick(['ci', 'deploy', 'jdoe'])}:{svc_pw(alpha=ALNUM)}@pypi.{domain()}/simple/"))
F("maven-settings-password", "Maven repository", "multi", lambda: [("server.id", pick(["nexus-releases", "artifactory", "ossrh"]), False),
                                                                  ("server.username", pick(["deployment", "ci"]), False),
                                                                  ("server.password", svc_pw(), True)],
  conts=["maven", "note", "ticket"])
F("docker-registry-password", "private Docker registry", "multi", lambda: [("REGISTRY", "registry." + domain(), False),
                                                                          ("REGISTRY_USER", pick(["ci", "robot$deployer"]), False),
                                                                          ("REGISTRY_PASSWORD", svc_pw(), True)])
F("ansible-become-password", "Ansible", "multi", lambda: [("ansible_user", pick(["deploy", "ubuntu", "admin"]), False),
                                                         ("ansible_become_password", svc_pw(), True)],
  conts=["yaml", "ansible", "note", "ticket"])
F("snmp-v3-credentials", "SNMPv3", "multi", lambda: [("snmp_user", pick(["monitor", "librenms", "zabbix"]), False),
                                                    ("auth_password", svc_pw(16), True), ("priv_password", svc_pw(16), True)])
F("totp-shared-secret", "TOTP / 2FA", "token", one("TOTP_SECRET", lambda: rs(B32A, 32)), noun="TOTP seed")
F("github-webhook-secret", "GitHub webhooks", "token", one("GITHUB_WEBHOOK_SECRET", lambda: H(40)), noun="webhook secret")
F("apple-app-specific-password", "Apple ID (CI notarization)", "multi",
  lambda: [("APPLE_ID", LN(8) + "@icloud.com", False), ("APPLE_APP_SPECIFIC_PASSWORD", "-".join(rs(LOW, 4) for _ in range(4)), True)])
F("nextcloud-app-password", "Nextcloud", "multi", lambda: [("NC_USER", pick(["anna", "backup", "jdoe"]), False),
                                                          ("NC_APP_PASSWORD", "-".join(A(5) for _ in range(5)), True)])
F("proton-bridge-password", "Proton Mail Bridge", "multi", lambda: [("IMAP_USER", LN(8) + "@proton.me", False),
                                                                   ("IMAP_PASSWORD", rs(B64U, 22), True)])

# ---- private keys / crypto -------------------------------------------------
F("ethereum-private-key", "Ethereum wallet", "token", one("PRIVATE_KEY", lambda: "0x" + H(64)), noun="private key")
F("bitcoin-wif-private-key", "Bitcoin wallet", "token", one("BTC_WIF", wif_key), noun="private key")
F("bip32-xprv", "HD wallet", "token", one("XPRV", xprv_key), noun="extended private key")
F("solana-keypair", "Solana", "token", one("SOLANA_PRIVATE_KEY", solana_secret_b58), noun="private key")
F("solana-keypair-array", "Solana", "blob", lambda: [("id.json", [R.randint(0, 255) for _ in range(64)], True)], noun="keypair")
F("age-secret-key", "age encryption", "token", one("SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + rs(BECH32U, 58)), noun="secret key")
F("minisign-secret-key", "minisign", "pem",
  one("MINISIGN_SECRET_KEY", lambda: "untrusted comment: minisign encrypted secret key\nRWRTY0Iy" + rs(B64A, 150) + "="))
F("ec-private-key-pem", "TLS", "pem", one("TLS_KEY", lambda: pem_block("EC PRIVATE KEY", ec_sec1_der())), noun="private key")
F("pkcs8-private-key-pem", "service signing", "pem", one("SIGNING_KEY", lambda: pem_block("PRIVATE KEY", ec_pkcs8_der())), noun="private key")
F("rsa-private-key-pem", "SSL certificate", "pem", one("SSL_PRIVATE_KEY", lambda: pem_block("RSA PRIVATE KEY", rsa_pkcs1_der())), noun="private key")
F("openssh-private-key", "SSH", "pem",
  one("DEPLOY_KEY", lambda: openssh_ed25519_private(pick(["deploy@ci", "jdoe@laptop", "backup@nas", "root@bastion"]))), noun="private key")
F("pgp-private-key-block", "GPG", "pem", one("GPG_PRIVATE_KEY", pgp_private_block), noun="private key")
F("putty-ppk-key", "PuTTY", "pem", one("PPK", lambda: putty_ppk("eddsa-key-2025" + D(4))), noun="private key")
F("gcp-service-account-json", "Google Cloud service account", "blob",
  lambda: [("service-account.json", {"type": "service_account", "project_id": pick(["acme-prod", "analytics-4821", "ml-platform"]) + "-" + D(6),
                                     "private_key_id": H(40), "private_key": pem_block("PRIVATE KEY", rsa_pkcs8_der()) + "\n",
                                     "client_email": pick(["deployer", "bq-reader", "ci"]) + "@acme-prod.iam.gserviceaccount.com",
                                     "client_id": NZ(21), "token_uri": "https://oauth2.googleapis.com/token"}, True)],
  noun="service account key")
F("gpg-passphrase", "GPG signing", "multi", lambda: [("GPG_KEY_ID", HU(16), False), ("GPG_PASSPHRASE", svc_pw(20), True)])

assert len(FORMATS) >= 300, len(FORMATS)


# ---------------------------------------------------------------------------
# PART C: containers for vendor credentials
# ---------------------------------------------------------------------------
PEOPLE_EN = ["Priya", "Marcus", "Jonas", "Aisha", "Tom", "Kenji", "Lena", "Diego", "Sam", "Olga", "Ravi", "Chloe", "Ben",
             "Fatima", "Lucas", "Mei", "Noah", "Ingrid", "Tariq", "Zoe"]


def svc_slug(f):
    return re.sub(r"[^a-z0-9]+", "_", f.service.lower()).strip("_")


def short_key(var, f):
    words = [w for w in re.split(r"[^A-Za-z0-9]+", f.service.upper()) if w]
    if words and var.upper().startswith(words[0] + "_") and len(var) > len(words[0]) + 3:
        return var[len(words[0]) + 1:]
    return var


def snake(v):
    return re.sub(r"[^a-z0-9]+", "_", v.lower()).strip("_")


def camel(v):
    parts = [p for p in snake(v).split("_") if p]
    return parts[0] + "".join(p.title() for p in parts[1:]) if parts else v


def pascal(v):
    return "".join(p.title() for p in snake(v).split("_") if p)


def yq(v):
    if re.fullmatch(r"[A-Za-z0-9_./+=~-]+", v) and v[0] not in "-=~" and not v.isdigit() and v not in ("true", "false", "null", "yes", "no"):
        return v
    return json.dumps(v, ensure_ascii=False)


def is_str_pairs(P):
    return all(isinstance(v, str) for _, v, _ in P)


def has_nl(P):
    return any(isinstance(v, str) and "\n" in v for _, v, _ in P)


def sec_of(P):
    for var, val, s in P:
        if s:
            return var, val
    raise AssertionError("no secret")


ENV_NOISE = [
    lambda: ("NODE_ENV", "production"), lambda: ("PORT", str(pick([3000, 8080, 5000, 8000, 4000]))),
    lambda: ("LOG_LEVEL", pick(["info", "debug", "warn"])), lambda: ("APP_URL", "https://app." + domain()),
    lambda: ("TZ", pick(["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"])), lambda: ("WORKERS", str(R.randint(2, 16))),
    lambda: ("DEBUG", "false"), lambda: ("SENTRY_ENVIRONMENT", pick(["production", "staging"])), lambda: ("REDIS_HOST", "127.0.0.1"),
    lambda: ("FEATURE_FLAGS", "new_checkout,beta_ui"), lambda: ("CACHE_TTL", str(pick([60, 300, 900]))),
    lambda: ("ALLOWED_HOSTS", "." + domain()), lambda: ("AWS_REGION", pick(REGIONS)), lambda: ("QUEUE_NAME", pick(["jobs", "emails", "webhooks"])),
]


def env_noise(k):
    out, seen = [], []
    for _ in range(k):
        n = pick(ENV_NOISE)()
        if n[0] not in seen:
            seen.append(n[0])
            out.append(n)
    return out


def kv_lines(P, sep="=", quote=False):
    out = []
    for var, val, _ in P:
        v = json.dumps(val) if (quote or not isinstance(val, str)) else val
        out.append(f"{var}{sep}{v}")
    return "\n".join(out)


def c_env(f, P, export=False):
    if not is_str_pairs(P):
        return None
    lines = []
    if maybe(0.55):
        lines.append("# " + pick([f"{f.service} ({pick(['prod', 'production', 'live'])})", f"--- {f.service} ---",
                                  f"{f.service} credentials, rotated {date_iso()}", f"TODO move {f.service} creds to the vault"]))
    noise = env_noise(R.randint(0, 3))
    cut = R.randint(0, len(noise))
    body = []
    for var, val, _ in P:
        if "\n" in val or any(c in val for c in " #$;&|<>()'\"`"):
            body.append(f'{var}="{val}"')
        else:
            q = pick(["", "", '"', "'"])
            body.append(f"{var}={q}{val}{q}")
    allp = [f"{a}={b}" for a, b in noise[:cut]] + body + [f"{a}={b}" for a, b in noise[cut:]]
    if export:
        allp = ["export " + x for x in allp]
    return "\n".join(lines + allp)


def c_shell(f, P):
    if has_nl(P):
        return None
    v = c_env(f, P, export=True)
    if v is None:
        return None
    if maybe(0.4):
        v = "#!/usr/bin/env bash\nset -euo pipefail\n" + v + "\n" + pick(["./bin/sync --all", "python manage.py migrate", "node dist/worker.js", "terraform apply -auto-approve"])
    return v


def c_yaml(f, P, top=None):
    if not is_str_pairs(P) or has_nl(P):
        return None
    top = top or pick(["integrations", "services", "credentials", "providers", "external_apis", "secrets"])
    lines = []
    if maybe(0.4):
        lines += ["app:", f"  name: {company()}", f"  env: {pick(['production', 'prod', 'staging'])}"]
    lines += [f"{top}:", f"  {svc_slug(f)}:"]
    for var, val, _ in P:
        lines.append(f"    {snake(short_key(var, f))}: {yq(val)}")
    if maybe(0.3):
        lines += ["logging:", f"  level: {pick(['info', 'warn'])}"]
    return "\n".join(lines)


def c_json(f, P):
    style = R.randint(0, 4)
    kv = {camel(short_key(var, f)) if style != 2 else var: val for var, val, _ in P}
    if style == 0:
        return {svc_slug(f): kv}
    if style == 1:
        return {"service": f.service, "environment": pick(["production", "prod", "live"]), "credentials": kv}
    if style == 2:
        return {"env": kv, "region": pick(REGIONS)}
    if style == 3:
        d = {"name": f.service}
        d.update(kv)
        return {"providers": [d], "version": R.randint(1, 4)}
    return {"integrations": {svc_slug(f): dict(kv, enabled=True)}, "updatedAt": ts_iso()}


def c_toml(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    lines = []
    if maybe(0.4):
        lines += ["[server]", f"port = {pick([8080, 3000, 9000])}", ""]
    lines.append(f"[{svc_slug(f)}]")
    for var, val, _ in P:
        lines.append(f"{snake(short_key(var, f))} = {json.dumps(val)}")
    return "\n".join(lines)


def c_ini(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    lines = []
    if maybe(0.3):
        lines += ["; managed by hand, do not commit"]
    lines.append(f"[{svc_slug(f)}]")
    for var, val, _ in P:
        lines.append(f"{snake(short_key(var, f))} = {val}")
    return "\n".join(lines)


def c_props(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    pre = pick([svc_slug(f).replace("_", "."), "app." + svc_slug(f).replace("_", "-"), "spring.cloud." + svc_slug(f).replace("_", "-")])
    lines = []
    if maybe(0.4):
        lines.append(f"# {f.service} settings")
    for var, val, _ in P:
        k = var if "." in var else pre + "." + snake(short_key(var, f)).replace("_", "-")
        lines.append(f"{k}={val}")
    return "\n".join(lines)


def c_xml(f, P):
    if not is_str_pairs(P) or has_nl(P) or any(c in v for _, v, _ in P for c in "&<>\""):
        return None
    if maybe(0.5):
        inner = "\n".join(f'    <add key="{pascal(short_key(var, f))}" value="{val}" />' for var, val, _ in P)
        return "<configuration>\n  <appSettings>\n" + inner + "\n  </appSettings>\n</configuration>"
    inner = "\n".join(f"  <{camel(short_key(var, f))}>{val}</{camel(short_key(var, f))}>" for var, val, _ in P)
    return f"<{camel(svc_slug(f))}>\n" + inner + f"\n</{camel(svc_slug(f))}>"


def c_plist(f, P):
    if not is_str_pairs(P) or has_nl(P) or any(c in v for _, v, _ in P for c in "&<>"):
        return None
    inner = "\n".join(f"    <key>{var}</key>\n    <string>{val}</string>" for var, val, _ in P)
    return ("<key>Label</key>\n<string>com." + company().replace("-", "") + ".sync</string>\n<key>EnvironmentVariables</key>\n<dict>\n"
            + inner + "\n</dict>")


def c_code(lang, f, P):
    if not is_str_pairs(P):
        return None
    nl = has_nl(P)
    svc = pascal(svc_slug(f)) or "Api"
    ks = [(short_key(var, f), var, val) for var, val, _ in P]
    if lang == "python":
        if nl:
            return "\n".join(f'{var} = """{val}"""' for _, var, val in ks) + f"\n\nclient = {svc}Client.from_key({ks[-1][1]})"
        st = R.randint(0, 3)
        if st == 0:
            args = "".join(f'\n    {snake(k)}="{v}",' for k, _, v in ks)
            return f"from {snake(svc_slug(f))[:20]} import {svc}Client\n\nclient = {svc}Client({args}\n)"
        if st == 1:
            return "import os\n\n" + "\n".join(f'os.environ.setdefault("{var}", "{v}")' for _, var, v in ks)
        if st == 2:
            return "\n".join(f'{var} = "{v}"  # TODO: read from env before merging' for _, var, v in ks)
        return "SETTINGS = {\n" + "".join(f'    "{snake(k)}": "{v}",\n' for k, _, v in ks) + "}"
    if lang == "js":
        if nl:
            return "\n".join(f"const {camel(k)} = `{v}`;" for k, _, v in ks)
        if maybe(0.5):
            args = "".join(f"\n  {camel(k)}: '{v}'," for k, _, v in ks)
            return f"const {camel(svc_slug(f))} = new {svc}({{{args}\n}});"
        return "\n".join(f"process.env.{var} ??= '{v}';" for _, var, v in ks)
    if nl:
        return None
    if lang == "ts":
        body = "".join(f"\n  {camel(k)}: \"{v}\"," for k, _, v in ks)
        return f"export const {camel(svc_slug(f))}Config = {{{body}\n}} as const;"
    if lang == "go":
        if maybe(0.5):
            body = "".join(f"\n\t{pascal(k)}: \"{v}\"," for k, _, v in ks)
            return f"cfg := {snake(svc_slug(f)).replace('_', '')}.Config{{{body}\n}}\nclient := {snake(svc_slug(f)).replace('_', '')}.New(cfg)"
        return "const (\n" + "".join(f"\t{camel(k)} = \"{v}\"\n" for k, _, v in ks) + ")"
    if lang == "java":
        return (f"public final class {svc}Config {{\n" + "".join(f"    private static final String {var} = \"{v}\";\n" for _, var, v in ks) + "}")
    if lang == "csharp":
        body = "".join(f"\n    {pascal(k)} = \"{v}\"," for k, _, v in ks)
        return f"var options = new {svc}Options\n{{{body}\n}};\nservices.AddSingleton(options);"
    if lang == "ruby":
        if maybe(0.5):
            body = "".join(f"\n  config.{snake(k)} = '{v}'" for k, _, v in ks)
            return f"{svc}.configure do |config|{body}\nend"
        return "\n".join(f"ENV['{var}'] ||= '{v}'" for _, var, v in ks)
    if lang == "php":
        if maybe(0.5):
            return "<?php\nreturn [\n" + "".join(f"    '{snake(k)}' => '{v}',\n" for k, _, v in ks) + "];"
        return "<?php\n" + "\n".join(f"define('{var}', '{v}');" for _, var, v in ks)
    if lang == "rust":
        return "\n".join(f"const {var.upper() if re.fullmatch(r'[A-Za-z0-9_]+', var) else 'API_SECRET'}: &str = \"{v}\";" for _, var, v in ks)
    if lang == "kotlin":
        return "object Secrets {\n" + "".join(f"    const val {camel(k)} = \"{v}\"\n" for k, _, v in ks) + "}"
    if lang == "swift":
        return "enum Keys {\n" + "".join(f"    static let {camel(k)} = \"{v}\"\n" for k, _, v in ks) + "}"
    if lang == "powershell":
        return "\n".join(f"$env:{var} = '{v}'" for _, var, v in ks) + "\n" + pick(["./deploy.ps1 -Environment Production", "dotnet run --project src/Worker", "Start-Job -FilePath .\\sync.ps1"])
    if lang == "terraform":
        body = "".join(f"\n  {snake(k)} = \"{v}\"" for k, _, v in ks)
        return f"provider \"{snake(svc_slug(f)).split('_')[0]}\" {{{body}\n}}"
    if lang == "r":
        return "\n".join(f"Sys.setenv({var} = \"{v}\")" for _, var, v in ks)
    if lang == "elixir":
        body = ",\n".join(f"  {snake(k)}: \"{v}\"" for k, _, v in ks)
        return f"config :my_app, MyApp.{svc},\n{body}"
    if lang == "dart":
        return "\n".join(f"const {camel(k)} = '{v}';" for k, _, v in ks)
    if lang == "lua":
        return "\n".join(f"local {snake(k)} = \"{v}\"" for k, _, v in ks)
    if lang == "groovy":
        body = "".join(f"\n    {var} = '{v}'" for _, var, v in ks)
        return "pipeline {\n  agent any\n  environment {" + body + "\n  }\n  stages { stage('Deploy') { steps { sh './deploy.sh' } } }\n}"
    return None


CODE_LANGS = ["python", "js", "ts", "go", "java", "csharp", "ruby", "php", "rust", "kotlin", "swift", "powershell", "terraform",
              "r", "elixir", "dart", "lua", "groovy"]


def c_dockerfile(f, P):
    if not is_str_pairs(P) or has_nl(P) or any(" " in v for _, v, _ in P):
        return None
    base = pick(["node:20-alpine", "python:3.12-slim", "eclipse-temurin:21-jre", "golang:1.22 AS build", "ruby:3.3"])
    return f"FROM {base}\nWORKDIR /app\n" + "\n".join(f"ENV {var}={val}" for var, val, _ in P) + "\nCOPY . .\n" + pick(["CMD [\"node\", \"server.js\"]", "CMD [\"gunicorn\", \"app:app\"]", "ENTRYPOINT [\"./run.sh\"]"])


def c_compose(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "".join(f"\n      - {var}={val}" for var, val, _ in P)
    return f"services:\n  {pick(['api', 'worker', 'web', 'app'])}:\n    image: {company()}/{pick(['api', 'worker'])}:{R.randint(1, 9)}.{R.randint(0, 20)}\n    environment:{env}"


def c_k8s(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    data = "".join(f"\n  {var}: {yq(val)}" for var, val, _ in P)
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc_slug(f).replace('_', '-')}-creds\n  namespace: {pick(['default', 'prod', 'payments', 'ci'])}\ntype: Opaque\nstringData:{data}"


def c_gha(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "".join(f"\n      {var}: {yq(val)}" for var, val, _ in P)
    return f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:{env}\n    steps:\n      - uses: actions/checkout@v4\n      - run: {pick(['make deploy', 'npm run release', './scripts/publish.sh'])}"


def c_gitlabci(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "".join(f"\n  {var}: {yq(val)}" for var, val, _ in P)
    return f"variables:{env}\n\ndeploy:\n  stage: deploy\n  script:\n    - {pick(['./deploy.sh', 'helm upgrade --install app ./chart', 'twine upload dist/*'])}"


def c_helm(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "".join(f"\n    {camel(short_key(var, f))}: {yq(val)}" for var, val, _ in P)
    return f"replicaCount: {R.randint(1, 4)}\nimage:\n  tag: \"{R.randint(1, 3)}.{R.randint(0, 30)}.{R.randint(0, 9)}\"\n{camel(svc_slug(f))}:\n  auth:{env}"


def c_ansible(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "".join(f"\n{snake(var)}: {yq(val)}" for var, val, _ in P)
    return f"# group_vars/{pick(['prod', 'all', 'webservers'])}.yml{env}\nntp_server: pool.ntp.org"


def c_cloudinit(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    lines = "".join(f"\n      {var}={val}" for var, val, _ in P)
    return f"#cloud-config\nwrite_files:\n  - path: /etc/default/{svc_slug(f)[:12]}\n    permissions: '0600'\n    content: |{lines}\nruncmd:\n  - systemctl restart app"


def c_serverless(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "".join(f"\n    {var}: {yq(val)}" for var, val, _ in P)
    return f"service: {pick(['orders', 'notifier', 'ingest'])}-api\nprovider:\n  name: aws\n  runtime: nodejs20.x\n  environment:{env}"


def c_supervisord(f, P):
    if not is_str_pairs(P) or has_nl(P) or any('"' in v or "," in v or "%" in v for _, v, _ in P):
        return None
    env = ",".join(f'{var}="{val}"' for var, val, _ in P)
    return f"[program:{pick(['worker', 'celery', 'sync'])}]\ncommand=/srv/app/venv/bin/python worker.py\nautorestart=true\nenvironment={env}"


def c_systemd(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    env = "\n".join(f'Environment="{var}={val}"' for var, val, _ in P)
    return f"[Service]\nUser={pick(['app', 'www-data', 'svc'])}\n{env}\nExecStart=/usr/local/bin/{pick(['exporter', 'sync', 'api'])}\nRestart=on-failure"


def c_crontab(f, P):
    if not is_str_pairs(P) or has_nl(P) or any(" " in v or "%" in v for _, v, _ in P):
        return None
    env = " ".join(f"{var}={val}" for var, val, _ in P)
    job = pick(["backup", "sync", "report", "cleanup"])
    return f"{pick(['*/15 * * * *', '0 3 * * *', '30 2 * * 1'])} {env} /usr/local/bin/{job}.sh >> /var/log/{job}.log 2>&1"


def c_makefile(f, P):
    if not is_str_pairs(P) or has_nl(P) or any("$" in v for _, v, _ in P):
        return None
    env = "\n".join(f"{var} ?= {val}" for var, val, _ in P if re.fullmatch(r"[A-Za-z0-9_]+", var))
    if not env:
        return None
    return env + "\n\ndeploy:\n\t./scripts/deploy.sh --env prod"


def c_cli(f, P):
    if not is_str_pairs(P) or has_nl(P) or any("'" in v for _, v, _ in P):
        return None
    var, val = sec_of(P)
    if not re.fullmatch(r"[A-Za-z0-9_]+", var):
        return None
    app = pick(["shop-api", "billing-worker", "web-prod"])
    return pick([
        f"heroku config:set {var}='{val}' -a {app}",
        f"kubectl -n prod create secret generic {app}-env --from-literal={var}='{val}'",
        f"docker run -d --name {app} -e {var}='{val}' -p 8080:8080 {company()}/{app}:latest",
        f"gh secret set {var} --repo {company()}/{app} --body '{val}'",
        f"fly secrets set {var}='{val}' --app {app}",
        f"aws ssm put-parameter --name /{app}/{var.lower()} --type SecureString --value '{val}' --overwrite",
        f"az keyvault secret set --vault-name kv-{app} --name {var.replace('_', '-')} --value '{val}'",
        f"vault kv put secret/{app} {var.lower()}='{val}'",
        f"doppler secrets set {var}='{val}' --project {app} --config prd",
        f"vercel env add {var} production <<< '{val}'",
    ])


def http_parts(f, tok):
    host_path = f.host or f"api.{svc_slug(f).split('_')[0]}.com/v1/{pick(['items', 'events', 'accounts', 'status'])}"
    hdr = f.hdr or "Authorization: Bearer {}"
    headers = []
    if hdr == "path":
        host_path = host_path.format(tok)
    elif hdr[0] in "?&":
        sep = "&" if "?" in host_path else "?"
        host_path = host_path + sep + hdr[1:].format(tok)
    elif hdr.startswith("-u "):
        return None
    elif "Basic" in hdr:
        return None
    else:
        headers.append(hdr.format(tok))
    return host_path, headers


def api_like(f):
    return f.typ != "token" or f.host is not None or f.hdr is not None


def c_http(f, P):
    if f.typ in ("conn", "pem", "blob", "multi") or has_nl(P) or not is_str_pairs(P) or not api_like(f):
        return None
    var, tok = sec_of(P)
    if f.typ == "url":
        u = urllib.parse.urlsplit(tok)
        if not u.netloc:
            return None
        return (f"POST {u.path}{'?' + u.query if u.query else ''} HTTP/1.1\nHost: {u.netloc}\nContent-Type: application/json\n\n"
                + json.dumps({"text": pick(["Deploy finished ✅", "Backup failed on nas-01", "New signup: 42 today"])}))
    if var == "Cookie":
        return (f"GET /{pick(['account', 'dashboard', 'api/v1/me'])} HTTP/1.1\nHost: {pick(['app.', 'www.', 'portal.'])}{domain()}\n"
                f"Cookie: {tok}\nUser-Agent: Mozilla/5.0")
    parts = http_parts(f, tok)
    if parts is None:
        return None
    hp, headers = parts
    host, _, path = hp.partition("/")
    method = pick(["GET", "POST"])
    lines = [f"{method} /{path} HTTP/1.1", f"Host: {host}"] + headers + ["Accept: application/json",
                                                                        "User-Agent: " + pick(["python-requests/2.32.3", "axios/1.7.2", "okhttp/4.12.0", "curl/8.6.0"])]
    if method == "POST":
        lines += ["Content-Type: application/json", "", json.dumps({"limit": R.randint(1, 100)})]
    return "\n".join(lines)


def c_curl(f, P):
    if f.typ in ("conn", "pem", "blob") or has_nl(P) or not is_str_pairs(P) or not api_like(f):
        return None
    var, tok = sec_of(P)
    if f.typ == "url":
        return (f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"{pick(['hello from cron', 'disk at 91%', 'build #812 green'])}\"}}' '{tok}'")
    if var == "Cookie":
        return f"curl -s 'https://{pick(['app.', 'portal.'])}{domain()}/api/v1/export?format=csv' -H 'Cookie: {tok}' -o export.csv"
    secrets = [v for _, v, s in P if s]
    ids = [v for _, v, s in P if not s]
    hdr = f.hdr or "Authorization: Bearer {}"
    host_path = f.host or f"api.{svc_slug(f).split('_')[0]}.com/v1/{pick(['items', 'events', 'accounts'])}"
    if f.typ == "multi":
        if len(ids) < 1:
            return None
        return f"curl -s -u '{ids[0]}:{secrets[0]}' https://{host_path}"
    if hdr.startswith("-u "):
        return f"curl https://{host_path} \\\n  {hdr.format(tok)}" + pick(["", " \\\n  -d amount=2000 -d currency=eur"])
    parts = http_parts(f, tok)
    if parts is None:
        return None
    hp, headers = parts
    h = "".join(f" \\\n  -H '{x}'" for x in headers)
    return f"curl -sS {pick(['', '-X POST '])}'https://{hp}'{h} \\\n  -H 'Content-Type: application/json'"


def c_nginx(f, P):
    if f.typ != "token" or has_nl(P) or not is_str_pairs(P) or not api_like(f):
        return None
    _, tok = sec_of(P)
    hdr = f.hdr or "Authorization: Bearer {}"
    if hdr[0] in "?&-" or hdr == "path" or ":" not in hdr:
        return None
    name, _, fmt = hdr.partition(": ")
    host = (f.host or "api.example.com/").split("/")[0]
    return (f"location /upstream/ {{\n    proxy_pass https://{host}/;\n    proxy_set_header {name} \"{fmt.format(tok)}\";\n"
            f"    proxy_set_header Host {host};\n}}")


LOG_MODS = ["http.client", "app.billing", "worker.sync", "integrations", "notifier", "api.gateway", "scheduler", "etl.loader"]


def c_log(f, P):
    if has_nl(P) or not is_str_pairs(P):
        return None
    var, tok = sec_of(P)
    ts = ts_iso()
    mod = pick(LOG_MODS)
    if f.typ in ("conn", "url"):
        return pick([
            f"{ts} ERROR [{mod}] could not connect to {tok}: timeout after 30s (attempt {R.randint(1, 5)}/5)",
            f"{ts} INFO  [{mod}] using {var}={tok}",
            f'{{"level":"info","ts":"{ts}","logger":"{mod}","msg":"notifier configured","target":"{tok}"}}',
        ])
    if f.typ == "multi":
        return f"{ts} DEBUG [{mod}] resolved config: " + " ".join(f"{k}={v}" for k, v, _ in P)
    opts = [f"{ts} INFO  [{mod}] loaded settings from env: {var}={tok} LOG_LEVEL=info",
            f'{{"level":"debug","ts":"{ts}","logger":"{mod}","msg":"client init","{camel(short_key(var, f))}":"{tok}"}}']
    parts = http_parts(f, tok)
    if parts:
        hp, headers = parts
        if headers:
            k, _, v = headers[0].partition(": ")
            opts.append(f"{ts} DEBUG [{mod}] -> {pick(['GET', 'POST'])} https://{hp} headers={{'{k}': '{v}', 'Accept': 'application/json'}}")
        else:
            opts.append(f'{ipv4_doc()} - - [{R.randint(1, 28):02d}/Mar/2025:{R.randint(0, 23):02d}:{R.randint(10, 59)}:{R.randint(10, 59)} +0000] "GET /{hp.partition("/")[2]} HTTP/1.1" 401 87 "-" "curl/8.5.0"')
    return pick(opts)


def c_stacktrace(f, P):
    if has_nl(P) or not is_str_pairs(P):
        return None
    var, tok = sec_of(P)
    if f.typ == "conn":
        return pick([
            f"Traceback (most recent call last):\n  File \"/srv/app/db.py\", line {R.randint(10, 200)}, in connect\n    engine = create_engine(url)\nsqlalchemy.exc.ArgumentError: Could not parse SQLAlchemy URL from string '{tok}'",
            f"Exception in thread \"main\" java.lang.IllegalStateException: Failed to open pool for {tok}\n\tat com.zaxxer.hikari.pool.HikariPool.<init>(HikariPool.java:{R.randint(90, 130)})\n\tat app.Db.init(Db.java:{R.randint(10, 80)})",
            f"Error: connect ECONNREFUSED {ipv4_private()}:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {{\n  errno: -111,\n  config: '{tok}'\n}}",
        ])
    if not api_like(f):
        return None
    return pick([
        f"Traceback (most recent call last):\n  File \"/app/jobs/{pick(['sync', 'push', 'export'])}.py\", line {R.randint(10, 300)}, in run\n    resp.raise_for_status()\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized (token={tok})",
        f"panic: {snake(svc_slug(f))}: invalid credentials for key \"{tok}\"\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/cmd/worker/main.go:{R.randint(20, 120)} +0x1d4",
        f"Unhandled rejection AuthError: request failed with {var}={tok}\n    at Client.request (/app/node_modules/{svc_slug(f)[:12]}/lib/client.js:{R.randint(40, 400)}:11)\n    at async main (/app/index.js:{R.randint(5, 60)}:3)",
        f"com.example.integration.AuthException: rejected credentials [{var}={tok}]\n\tat com.example.integration.Client.call(Client.java:{R.randint(40, 300)})\n\tat com.example.jobs.Nightly.run(Nightly.java:{R.randint(10, 90)})",
    ])


def kv_text(P):
    return "\n".join(f"{var}: {json.dumps(val, separators=(',', ':')) if not isinstance(val, str) else val}" for var, val, _ in P)


NOUN_I18N = {"de": "Schlüssel", "es": "clave", "fr": "clé", "pt": "chave", "it": "chiave", "nl": "sleutel", "pl": "klucz",
             "ru": "ключ", "ja": "キー", "zh": "密钥", "ko": "키", "tr": "anahtar"}


def c_chat(f, P):
    lang = pick(["en", "en", "en", "en", "de", "es", "fr", "pt", "it", "nl", "pl", "ru", "ja", "zh", "ko", "tr"])
    single = len(P) == 1 and isinstance(P[0][1], str)
    body = P[0][1] if single else kv_text(P)
    nm, nm2 = pick(PEOPLE_EN), pick(PEOPLE_EN)
    if lang == "en":
        t = pick([
            f"@{nm} try this {f.service} {f.noun}: {body} (prod, don't paste it anywhere pls)",
            f"{nm}: can someone send me the {f.service} creds?\n{nm2}: here\n{body}\n{nm}: thx, works 👍",
            f"hey, staging is broken so I'm using the live {f.service} {f.noun} for now -> {body}",
            f"ok found it in the old wiki:\n{body}\nwill rotate after the demo",
        ])
    else:
        n = NOUN_I18N[lang]
        t = {
            "de": f"hier der neue {f.service}-{n}:\n{body}\nbitte nicht committen 🙏",
            "es": f"te paso la {n} de {f.service}:\n{body}\nes la de producción, ojo",
            "fr": f"voilà la {n} {f.service} :\n{body}\n(prod, ne la colle pas dans le repo stp)",
            "pt": f"segue a {n} do {f.service}:\n{body}\né a de produção, cuidado",
            "it": f"ecco la {n} di {f.service}:\n{body}\nè quella di produzione, occhio",
            "nl": f"hier is de {f.service} {n}:\n{body}\n(productie, niet committen aub)",
            "pl": f"masz {n} do {f.service}:\n{body}\nprodukcyjny, nie commituj",
            "ru": f"держи {n} от {f.service}:\n{body}\nэто прод, в репу не коммить",
            "ja": f"{f.service}の{n}共有します:\n{body}\n本番用なので取り扱い注意でお願いします🙏",
            "zh": f"{f.service}的{n}发你了：\n{body}\n生产环境的，别提交到仓库",
            "ko": f"{f.service} {n} 공유드려요:\n{body}\n운영용이니 커밋하지 마세요",
            "tr": f"{f.service} {n}:\n{body}\nprod ortamı, repoya koyma lütfen",
        }[lang]
    return t, lang


def c_email(f, P):
    lang = pick(["en", "en", "en", "de", "es", "fr", "pt", "nl", "it"])
    body = kv_text(P)
    nm, nm2 = pick(PEOPLE_EN), pick(PEOPLE_EN)
    t = {
        "en": f"Subject: {f.service} credentials for {company()}\n\nHi {nm},\n\nas discussed, here is the production access:\n\n{body}\n\nPlease store it in the vault and delete this mail.\n\nCheers,\n{nm2}",
        "de": f"Betreff: Zugangsdaten {f.service}\n\nHallo {nm},\n\nwie besprochen die Zugangsdaten für Produktion:\n\n{body}\n\nBitte im Passwortsafe ablegen und die Mail löschen.\n\nGruß\n{nm2}",
        "es": f"Asunto: Credenciales de {f.service}\n\nHola {nm}:\n\nte paso las credenciales de producción:\n\n{body}\n\nGuárdalas en el gestor y borra este correo.\n\nSaludos,\n{nm2}",
        "fr": f"Objet : Identifiants {f.service}\n\nBonjour {nm},\n\nvoici les identifiants de production :\n\n{body}\n\nMerci de les mettre dans le coffre et de supprimer ce mail.\n\n{nm2}",
        "pt": f"Assunto: Credenciais {f.service}\n\nOi {nm},\n\nseguem as credenciais de produção:\n\n{body}\n\nGuarde no cofre e apague este e-mail.\n\nAbraço,\n{nm2}",
        "nl": f"Onderwerp: {f.service} inloggegevens\n\nHoi {nm},\n\nzoals besproken de productiegegevens:\n\n{body}\n\nGraag in de kluis zetten en deze mail verwijderen.\n\nGroet,\n{nm2}",
        "it": f"Oggetto: credenziali {f.service}\n\nCiao {nm},\n\necco le credenziali di produzione:\n\n{body}\n\nSalvale nel vault e cancella questa mail.\n\n{nm2}",
    }[lang]
    return t, lang


def c_ticket(f, P):
    body = kv_text(P)
    proj = pick(["OPS", "PLAT", "INC", "SUP", "DEVX", "PAY"])
    title = pick([f"{f.service} integration returns 401 in prod", f"Rotate {f.service} credentials", f"Onboarding: access to {f.service}",
                  f"Staging {f.service} sync broken since deploy", f"Nightly job fails talking to {f.service}"])
    intro = pick(["Current config on the box:", "Values from the running pod (kubectl exec env):", "Copied from the old runbook:",
                  "This is what the job is using right now:"])
    outro = pick(["Can someone check whether this is still valid?", "Please rotate after fixing.", "Assigning to on-call.",
                  "Works locally with the same values."])
    return f"[{proj}-{R.randint(100, 9999)}] {title}\nReporter: {pick(PEOPLE_EN)}\nPriority: {pick(['P1', 'P2', 'P3'])}\n\n{intro}\n{body}\n\n{outro}"


def c_note(f, P):
    lang = pick(["en", "en", "en", "de", "es", "fr", "ja", "pt"])
    single = len(P) == 1 and isinstance(P[0][1], str)
    body = P[0][1] if single else kv_text(P)
    env = pick(["prod", "live", "production", "staging"])
    if lang == "en":
        t = pick([f"{f.service} ({env}) {f.noun}:\n{body}", f"{f.service} creds\n{body}\nrotated {date_iso()}",
                  f"Things to remember for the migration: the new {f.service} {f.noun} is below, old one expires Friday.\n{body}",
                  f"personal sandbox for {f.service} side project:\n{body}"])
    else:
        t = {"de": f"Notiz: {f.service} Zugangsdaten ({env})\n{body}",
             "es": f"Apuntes: credenciales de {f.service} ({env})\n{body}",
             "fr": f"Note : accès {f.service} ({env})\n{body}",
             "ja": f"メモ：{f.service}の認証情報（{env}）\n{body}",
             "pt": f"Anotação: credenciais {f.service} ({env})\n{body}"}[lang]
    return t, lang


def c_jupyter(f, P):
    if not is_str_pairs(P) or has_nl(P):
        return None
    if maybe(0.5):
        cells = ["import os"] + [f"os.environ['{var}'] = '{val}'" for var, val, _ in P]
    else:
        cells = [f"%env {var}={val}" for var, val, _ in P]
    cells += [pick(["df = load_events(days=7)", "client = make_client()\nclient.ping()", "resp = fetch_page(1)\nresp.status_code"])]
    return cells


def c_postman(f, P):
    if not is_str_pairs(P):
        return None
    return {"id": uuid4(), "name": f"{f.service} - {pick(['prod', 'production', 'live'])}",
            "values": [{"key": camel(short_key(var, f)), "value": val, "type": "secret" if s else "default", "enabled": True} for var, val, s in P],
            "_postman_variable_scope": "environment"}


def c_vscode(f, P):
    if not is_str_pairs(P):
        return None
    if f.typ == "conn":
        var, val = sec_of(P)
        return {"sqltools.connections": [{"name": f"{f.service} prod", "driver": f.service, "connectionString": val}]}
    return {"rest-client.environmentVariables": {"production": {camel(short_key(var, f)): val for var, val, _ in P}}}


def c_specific(kind, f, P):
    var, val = sec_of(P)
    if kind == "npmrc":
        return f"registry=https://registry.npmjs.org/\n{var}={val}\nalways-auth=true"
    if kind == "pypirc":
        return f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = {val}"
    if kind == "pgpass":
        return f"# ~/.pgpass (chmod 600)\n{val}"
    if kind == "netrc":
        return f"# ~/.netrc\n{val}"
    if kind == "gitcreds":
        return f"# ~/.git-credentials\n{val}"
    if kind == "maven":
        d = {k: v for k, v, _ in P}
        return (f"<settings>\n  <servers>\n    <server>\n      <id>{d['server.id']}</id>\n      <username>{d['server.username']}</username>\n"
                f"      <password>{d['server.password']}</password>\n    </server>\n  </servers>\n</settings>")
    if kind == "wpconfig":
        return "\n".join(f"define( '{k}', '{v}' );" for k, v, _ in P)
    if kind == "wgconf":
        return (f"[Interface]\nPrivateKey = {val}\nAddress = 10.{R.randint(0, 9)}.0.{R.randint(2, 50)}/32\nDNS = 1.1.1.1\n\n[Peer]\n"
                f"PublicKey = {b64(32)}\nEndpoint = vpn.{domain()}:51820\nAllowedIPs = 0.0.0.0/0")
    if kind == "ipsec":
        return f"# /etc/ipsec.secrets\n{ipv4_doc()} {ipv4_doc()} : PSK \"{val}\""
    if kind == "radius":
        return f"client office-ap {{\n    ipaddr = {ipv4_private()}\n    secret = {val}\n    shortname = ap-{R.randint(1, 20)}\n}}"
    if kind == "ansible":
        return c_ansible(f, P)
    if kind in ("props", "yaml", "k8s", "env", "gha", "shell"):
        return {"props": c_props, "yaml": c_yaml, "k8s": c_k8s, "env": c_env, "gha": c_gha, "shell": c_shell}[kind](f, P)
    return None


GENERIC_CONTS = (["env"] * 5 + ["shell"] * 2 + ["yaml"] * 3 + ["json"] * 8 + ["toml", "ini", "props", "xml", "plist"]
                 + ["code-" + l for l in CODE_LANGS] + ["code-python", "code-js"] * 2
                 + ["dockerfile", "compose", "k8s", "gha", "gitlab-ci", "helm", "ansible", "cloud-init", "serverless", "supervisord",
                    "systemd", "crontab", "makefile", "cli", "cli"]
                 + ["http"] * 3 + ["curl"] * 4 + ["nginx", "log", "log", "log", "stacktrace", "stacktrace"]
                 + ["ticket"] * 3 + ["email"] * 3 + ["chat"] * 5 + ["note"] * 4 + ["jupyter", "jupyter", "postman", "postman", "vscode"])
PEM_CONTS = ["note", "chat", "email", "ticket", "json", "json", "code-python", "code-js", "env"]
BLOB_CONTS = ["json", "json", "note", "chat"]


def render_container(name, f, P):
    """returns (segment, value, lang) or None"""
    lang = "en"
    if name.startswith("code-"):
        v = c_code(name[5:], f, P)
    elif name in ("chat", "email", "note"):
        v, lang = {"chat": c_chat, "email": c_email, "note": c_note}[name](f, P)
    else:
        fn = {"env": c_env, "shell": c_shell, "yaml": c_yaml, "json": c_json, "toml": c_toml, "ini": c_ini, "props": c_props,
              "xml": c_xml, "plist": c_plist, "dockerfile": c_dockerfile, "compose": c_compose, "k8s": c_k8s, "gha": c_gha,
              "gitlab-ci": c_gitlabci, "helm": c_helm, "ansible": c_ansible, "cloud-init": c_cloudinit, "serverless": c_serverless,
              "supervisord": c_supervisord, "systemd": c_systemd, "crontab": c_crontab, "makefile": c_makefile, "cli": c_cli,
              "http": c_http, "curl": c_curl, "nginx": c_nginx, "log": c_log, "stacktrace": c_stacktrace, "ticket": c_ticket,
              "jupyter": c_jupyter, "postman": c_postman, "vscode": c_vscode}.get(name)
        if fn is None:
            v = c_specific(name, f, P)
        else:
            v = fn(f, P)
    if v is None:
        return None
    return name, v, lang


def vendor_spec(f):
    P = f.gen()
    if f.conts:
        conts = f.conts
    elif f.typ == "pem":
        conts = PEM_CONTS
    elif f.typ == "blob":
        conts = BLOB_CONTS
    else:
        conts = GENERIC_CONTS
    for _ in range(30):
        out = render_container(pick(conts), f, P)
        if out is not None:
            break
    else:
        raise RuntimeError(f"no container for {f.kind}")
    seg, v, lang = out
    secrets = [val for _, val, s in P if s]
    main = secrets[0]
    if not isinstance(main, str):
        main = json.dumps(main, separators=(",", ":"))
    extra = [x for x in secrets[1:] if isinstance(x, str)]
    return dict(label="secret", variant="plain", segment=seg, kind=f.kind, value=v, secret=main, lang=lang,
                group="vendor", all_secrets=extra)


def gen_vendor_records(extra=60):
    for f in FORMATS:
        produce(lambda: vendor_spec(f), tries=40 if f.typ not in ("pem", "blob") else 6)
    for _ in range(extra):
        f = pick([x for x in FORMATS if x.typ in ("token", "multi", "conn", "url")])
        produce(lambda: vendor_spec(f))


# ---------------------------------------------------------------------------
# PART D: personal secrets (prose, chat, forms) in many languages
# ---------------------------------------------------------------------------
LANGS20 = ["en", "es", "fr", "de", "it", "pt", "nl", "pl", "sv", "tr", "ru", "el", "ar", "he", "hi", "zh", "ja", "ko", "vi", "id"]
LATIN = {"en", "es", "fr", "de", "it", "pt", "nl", "pl", "sv", "tr", "vi", "id"}

PW_WORDS = {
    "en": ["sunflower", "chelsea", "bluebird", "pancake", "dragon", "buster", "maple", "rocket", "harley", "tigger", "peanut", "liverpool"],
    "es": ["mariposa", "girasol", "estrella", "paloma", "barcelona", "corazon", "tortuga", "chispa", "betis", "canela"],
    "fr": ["soleil", "doudou", "chouchou", "papillon", "marseille", "bisou", "nounours", "framboise", "loulou"],
    "de": ["schmetterling", "sonnenschein", "hasenbein", "fussball", "mausi", "kuchen", "bayern", "gartenzwerg", "schalke"],
    "it": ["farfalla", "tesoro", "amore", "gattino", "juventus", "stellina", "pizzaiolo", "forzanapoli"],
    "pt": ["saudade", "flamengo", "beijaflor", "mariana", "cachorro", "docinho", "palmeiras", "benfica"],
    "nl": ["konijn", "zonnetje", "ajax", "hagelslag", "kaasje", "molen", "tulp", "feyenoord"],
    "pl": ["kochanie", "misiaczek", "kasia", "biedronka", "legia", "zabka", "pierogi"],
    "sv": ["solros", "kanelbulle", "blabar", "hejsan", "mysig", "fiskpinne", "hammarby"],
    "tr": ["galatasaray", "askim", "bebegim", "kelebek", "istanbul", "papatya", "fenerbahce"],
    "ru": ["solnyshko", "zaychik", "ghbdtn", "spartak", "kotenok", "malysh", "vfvjxrf"],
    "el": ["agapi", "thalassa", "olympiakos", "paok", "kalimera", "pagoto"],
    "ar": ["habibi", "qamar", "yasmine", "falcon", "sultan", "alhilal"],
    "he": ["shalom", "motek", "maccabi", "yafa", "hapoel"],
    "hi": ["bharat", "shreya", "ganesh", "mumbai", "chotu", "jaihind"],
    "zh": ["woaini", "zhangwei", "xiaoming", "wangfang", "5201314", "aa123456"],
    "ja": ["sakura", "neko", "tanuki", "pikachu", "hikari", "totoro"],
    "ko": ["saranghae", "hana", "dubu", "kimchi", "tokki"],
    "vi": ["anhyeuem", "hoahong", "saigon", "meomeo", "bongbong"],
    "id": ["sayang", "garuda", "kucing", "bandung", "persib"],
}
SYMS = "!@#$%&*?.-_+"


def leet(w):
    return w.translate(str.maketrans({"a": "4", "e": "3", "o": "0", "i": "1", "s": "$"}))


def human_pw(lang="en"):
    words = PW_WORDS.get(lang, PW_WORDS["en"])
    w = pick(words)
    st = R.randint(0, 8)
    if st == 0:
        p = cap(w) + str(R.randint(1962, 2024)) + pick("!.#?*")
    elif st == 1:
        p = w + D(R.randint(2, 4))
    elif st == 2:
        p = cap(w) + pick(SYMS) + D(2) + pick(SYMS)
    elif st == 3:
        while True:
            p = rs(ALNUM + "!@#$%&*?", R.randint(12, 18))
            if any(c.isdigit() for c in p) and any(c.isupper() for c in p) and any(not c.isalnum() for c in p):
                break
    elif st == 4:
        pool = words + PW_WORDS["en"]
        p = "-".join(pick(pool) for _ in range(R.randint(3, 4))) + D(2)
    elif st == 5:
        p = cap(leet(w)) + D(2) + pick(SYMS)
    elif st == 6:
        p = cap(w) + cap(pick(PW_WORDS["en"])) + D(2) + pick(SYMS)
    elif st == 7:
        p = pick(["Spring", "Summer", "Autumn", "Winter", "Herbst", "Verano", "Janvier", "Marzo"]) + str(R.randint(2021, 2026)) + pick("!#$")
    else:
        p = w + "_" + pick(words) + D(R.randint(1, 3))
    if len(p) < 8:
        p = p + D(8 - len(p))
    return p


def pw_nonascii():
    return pick(["Glück", "Größe", "Überall", "Été", "Noël", "Año", "Pingüino", "Ça", "Jörð", "Łódź", "Çiçek", "Şeker", "Café",
                 "Mañana", "Süßigkeit", "Crème"]) + pick(["=", "=", "", "#"]) + str(R.randint(10, 2024)) + pick(["!", "=", "?", "."])


def pin(n=None):
    n = n or pick([4, 4, 4, 6, 5])
    while True:
        p = D(n)
        if len(set(p)) > 1 and p not in ("1234", "123456", "4321"):
            return p


def door_code():
    return pick([D(4), D(4), D(5), D(6), D(4) + "#", "*" + D(4), pick("ABCD") + D(4), D(4) + "*", D(3) + "#"])


def safe_combo():
    return pick([f"{R.randint(0, 99):02d}-{R.randint(0, 99):02d}-{R.randint(0, 99):02d}", D(4), D(6), f"{R.randint(0, 39)}-{R.randint(0, 39)}-{R.randint(0, 39)}"])


def otp_code():
    return pick([D(6), D(6), "G-" + D(6), D(3) + " " + D(3), D(8), D(4)])


def ssid(lang="en"):
    return pick({
        "de": ["FRITZ!Box 7590 " + UN(2), "Vodafone-" + HU(4), "o2-WLAN" + D(2), "MagentaWLAN-" + UN(4)],
        "fr": ["Livebox-" + HU(4), "Freebox-" + HU(6), "SFR_" + HU(4), "Bbox-" + HU(6)],
        "es": ["MOVISTAR_" + HU(4), "MiFibra-" + HU(4), "vodafone" + HU(4), "DIGIFIBRA-" + UN(4)],
        "it": ["TIM-" + D(8), "FASTWEB-" + UN(6), "Vodafone-" + UN(8)],
        "tr": ["TurkTelekom_T" + HU(5), "SUPERONLINE_WiFi_" + D(4)],
        "ru": ["Keenetic-" + D(4), "RT-WiFi-" + HU(4), "MGTS_GPON_" + HU(4)],
        "zh": ["ChinaNet-" + UN(4), "CMCC-" + UN(4), "TP-LINK_" + HU(4)],
        "ja": ["aterm-" + H(6) + "-g", "Buffalo-G-" + HU(4), "elecom2g-" + H(6)],
        "ko": ["iptime" + D(2), "KT_GiGA_5G_" + UN(4), "U+Net" + HU(4)],
    }.get(lang, []) + ["HomeNet_5G", "TP-Link_" + HU(4), "NETGEAR" + D(2), "ASUS_" + HU(2) + "_2G", "BTHub6-" + UN(4),
                       "SKY" + UN(5), "Casa-" + pick(["Rossi", "Silva", "Moreau", "Novak"]), "Linksys" + D(5)])


def wifi_pw(lang="en"):
    r = R.random()
    if r < 0.45:
        return human_pw(lang)
    if r < 0.8:
        return rs(ALNUM, R.randint(10, 16))
    if r < 0.9 and lang == "de":
        return " ".join(D(4) for _ in range(5))
    return "-".join(pick(PW_WORDS["en"]) for _ in range(3))


def recovery_codes():
    st = R.randint(0, 2)
    if st == 0:
        return [H(5) + "-" + H(5) for _ in range(R.randint(8, 10))], "GitHub"
    if st == 1:
        return [D(4) + " " + D(4) for _ in range(R.randint(8, 10))], "Google"
    return [LN(4) + "-" + LN(4) for _ in range(R.randint(8, 10))], pick(["Proton", "Discord", "Bitwarden", "Coinbase"])


SEC_QA = {
    "en": [("mother's maiden name", ["Kowalczyk", "Hargreaves", "Oyelaran", "Delacroix", "Brennan", "Whitcombe", "Abernathy"]),
           ("name of your first pet", ["Biscuit", "Mr Whiskers", "Pepper", "Lola the hamster", "Captain Fluff"]),
           ("city where your parents met", ["Tralee", "Dubrovnik", "Sault Ste. Marie", "Ballarat"]),
           ("make of your first car", ["rusty blue Ford Fiesta", "Nissan Micra", "VW Polo 1998"]),
           ("street you grew up on", ["Maple Crescent", "Honeysuckle Lane", "Wexford Road"])],
    "es": [("nombre de tu primera mascota", ["Canelo", "Pelusa", "Toby"]), ("apellido de soltera de tu madre", ["Etxeberria", "Villalobos"])],
    "fr": [("nom de votre premier animal", ["Pistache", "Caramel"]), ("nom de jeune fille de votre mère", ["Lemaître", "Bouchard"])],
    "de": [("Name deines ersten Haustiers", ["Krümel", "Bello", "Pünktchen"]), ("Geburtsname der Mutter", ["Wiesenthal", "Brandstätter"])],
    "pt": [("nome do primeiro animal de estimação", ["Paçoca", "Bolinha"]), ("nome de solteira da mãe", ["Albuquerque", "Figueiredo"])],
    "it": [("nome del primo animale domestico", ["Briciola", "Pippo"]), ("cognome da nubile della madre", ["Esposito", "Marchetti"])],
    "ru": [("девичья фамилия матери", ["Воронцова", "Кузнецова"]), ("кличка первого питомца", ["Барсик", "Мурка"])],
    "zh": [("您母亲的姓名", ["李秀英", "王桂兰"]), ("您小学班主任的名字", ["张老师", "刘玉梅"])],
    "ja": [("初めて飼ったペットの名前", ["ポチ", "モモ"]), ("母親の旧姓", ["小林", "渡辺"])],
}

# labels (noun phrases) per language and kind
LBL = {
    "en": {
        "wifi-password": ["wifi password", "wi-fi pw", "wifi pass for the flat", "home network password", "password for the guest wifi at the cabin"],
        "card-pin": ["debit card PIN", "bank card pin", "PIN for the Visa", "ATM pin"],
        "door-code": ["door code", "building entry code", "front door keypad code", "code for the main entrance"],
        "alarm-code": ["alarm code", "alarm disarm code", "code for the house alarm"],
        "garage-code": ["garage code", "garage door keypad code"],
        "safe-combination": ["safe combination", "hotel safe code", "combo for the safe in the closet"],
        "locker-code": ["gym locker code", "locker combo at work"],
        "bike-lock-combination": ["bike lock combo", "code for the bike lock"],
        "keybox-code": ["lockbox code for the Airbnb keys", "key safe code by the door"],
        "luggage-lock-code": ["suitcase lock code", "TSA lock combo"],
        "email-password": ["gmail password", "email password", "outlook pw", "password for my work email"],
        "bank-password": ["online banking password", "bank login password", "password for the Chase app"],
        "streaming-password": ["Netflix password", "Disney+ login password", "spotify pw", "HBO Max password"],
        "social-password": ["Instagram password", "facebook pw", "TikTok password"],
        "work-password": ["work laptop password", "VPN password for work", "SSO password", "Okta password"],
        "computer-login-password": ["laptop login password", "password for the family PC", "Mac login password"],
        "router-admin-password": ["router admin password", "admin pw for the router page"],
        "apple-id-password": ["Apple ID password", "iCloud password"],
        "gaming-password": ["Steam password", "PSN password", "Xbox account password"],
        "payment-app-password": ["PayPal password", "Venmo password"],
        "health-portal-password": ["patient portal password", "MyChart password", "password for the insurance portal"],
        "password-manager-master": ["1Password master password", "Bitwarden master password", "master password for the password manager"],
        "phone-pin": ["phone unlock PIN", "iPhone passcode", "passcode for grandma's phone"],
        "sim-pin": ["SIM PIN", "PIN for the new SIM"],
        "sim-puk": ["PUK code", "SIM PUK"],
        "voicemail-pin": ["voicemail PIN"],
        "parental-control-pin": ["parental control PIN on the TV", "Netflix profile lock PIN"],
        "one-time-code": ["verification code", "2FA code", "login code they texted", "code from the authenticator"],
        "car-radio-code": ["car radio code"],
        "phone-banking-passcode": ["telephone banking passcode"],
        "mobile-money-pin": ["M-Pesa PIN"],
        "app-password": ["Gmail app password for the printer", "app password for Thunderbird"],
    },
    "es": {"wifi-password": ["la contraseña del wifi", "la clave del wifi de casa"], "card-pin": ["el PIN de la tarjeta", "el pin de la tarjeta del banco"],
           "door-code": ["el código del portal", "el código de la puerta"], "alarm-code": ["el código de la alarma"], "garage-code": ["el código del garaje"],
           "safe-combination": ["la combinación de la caja fuerte"], "locker-code": ["el código de la taquilla del gimnasio"],
           "email-password": ["la contraseña del correo", "la contra de gmail"], "bank-password": ["la clave de la banca online", "la contraseña del banco"],
           "streaming-password": ["la contraseña de Netflix"], "social-password": ["la contraseña de Instagram"],
           "work-password": ["la contraseña del portátil del trabajo"], "phone-pin": ["el PIN del móvil"], "sim-pin": ["el PIN de la SIM"],
           "sim-puk": ["el PUK de la tarjeta SIM"], "one-time-code": ["el código de verificación que me llegó por SMS"],
           "password-manager-master": ["la contraseña maestra de Bitwarden"]},
    "fr": {"wifi-password": ["le mot de passe du wifi", "le code wifi de la box"], "card-pin": ["le code de ma carte bleue", "le code PIN de la CB"],
           "door-code": ["le digicode de l'immeuble", "le code de la porte d'entrée"], "alarm-code": ["le code de l'alarme"], "garage-code": ["le code du garage"],
           "safe-combination": ["la combinaison du coffre-fort"], "locker-code": ["le code du casier à la salle de sport"],
           "email-password": ["le mdp de ma boîte mail", "le mot de passe Gmail"], "bank-password": ["le mot de passe de la banque en ligne", "mon code d'accès Crédit Agricole"],
           "streaming-password": ["le mot de passe Netflix"], "social-password": ["le mdp Insta"], "work-password": ["le mot de passe de session du PC du boulot"],
           "phone-pin": ["le code de déverrouillage du téléphone"], "sim-pin": ["le code PIN de la carte SIM"], "sim-puk": ["le code PUK"],
           "one-time-code": ["le code reçu par SMS"], "password-manager-master": ["le mot de passe maître de Dashlane"]},
    "de": {"wifi-password": ["das WLAN-Passwort", "das Passwort vom WLAN"], "card-pin": ["die PIN von der EC-Karte", "die Geheimzahl der Girocard"],
           "door-code": ["der Türcode vom Haus", "der Code für die Haustür"], "alarm-code": ["der Code für die Alarmanlage"], "garage-code": ["der Code fürs Garagentor"],
           "safe-combination": ["die Kombination vom Tresor"], "locker-code": ["der Code vom Spind im Fitnessstudio"],
           "email-password": ["das Passwort für GMX", "das Mail-Passwort"], "bank-password": ["das Onlinebanking-Passwort", "die Online-Banking-PIN der Sparkasse"],
           "streaming-password": ["das Netflix-Passwort"], "social-password": ["das Insta-Passwort"], "work-password": ["das Windows-Passwort vom Firmenlaptop"],
           "phone-pin": ["die Handy-PIN"], "sim-pin": ["die SIM-PIN"], "sim-puk": ["die PUK"], "one-time-code": ["der Bestätigungscode per SMS"],
           "password-manager-master": ["das Masterpasswort für KeePass"]},
    "it": {"wifi-password": ["la password del wifi", "la chiave del wifi di casa"], "card-pin": ["il PIN del bancomat", "il codice della carta"],
           "door-code": ["il codice del portone"], "alarm-code": ["il codice dell'allarme"], "garage-code": ["il codice del garage"],
           "safe-combination": ["la combinazione della cassaforte"], "locker-code": ["il codice dell'armadietto in palestra"],
           "email-password": ["la password della mail", "la pw di gmail"], "bank-password": ["la password dell'home banking"],
           "streaming-password": ["la password di Netflix"], "social-password": ["la password di Instagram"], "work-password": ["la password del pc dell'ufficio"],
           "phone-pin": ["il PIN del telefono"], "sim-pin": ["il PIN della SIM"], "sim-puk": ["il PUK della SIM"], "one-time-code": ["il codice OTP arrivato per SMS"],
           "password-manager-master": ["la master password di 1Password"]},
    "pt": {"wifi-password": ["a senha do wifi", "a senha da internet de casa"], "card-pin": ["a senha do cartão", "a senha de 4 dígitos do cartão de débito"],
           "door-code": ["o código do portão", "a senha da porta do prédio"], "alarm-code": ["a senha do alarme"], "garage-code": ["o código da garagem"],
           "safe-combination": ["a combinação do cofre"], "locker-code": ["o código do armário da academia"],
           "email-password": ["a senha do email", "a senha do gmail"], "bank-password": ["a senha do internet banking", "a senha do app do banco"],
           "streaming-password": ["a senha da Netflix"], "social-password": ["a senha do Insta"], "work-password": ["a senha do notebook do trabalho"],
           "phone-pin": ["a senha do celular"], "sim-pin": ["o PIN do chip"], "sim-puk": ["o PUK do chip"], "one-time-code": ["o código que chegou por SMS"],
           "password-manager-master": ["a senha mestra do Bitwarden"]},
    "nl": {"wifi-password": ["het wifi-wachtwoord", "het wachtwoord van de wifi"], "card-pin": ["de pincode van mijn bankpas"],
           "door-code": ["de code van de voordeur"], "alarm-code": ["de alarmcode"], "garage-code": ["de code van de garage"],
           "safe-combination": ["de code van de kluis"], "locker-code": ["de code van mijn kluisje bij de sportschool"],
           "email-password": ["het wachtwoord van mijn mail"], "bank-password": ["het wachtwoord voor internetbankieren"],
           "streaming-password": ["het Netflix-wachtwoord"], "social-password": ["het wachtwoord van Instagram"], "work-password": ["het wachtwoord van de werklaptop"],
           "phone-pin": ["de pincode van mijn telefoon"], "sim-pin": ["de pincode van de simkaart"], "sim-puk": ["de PUK-code"], "one-time-code": ["de sms-code"],
           "password-manager-master": ["het hoofdwachtwoord van 1Password"]},
    "pl": {"wifi-password": ["hasło do wifi", "hasło do sieci w domu"], "card-pin": ["PIN do karty", "pin do karty debetowej"],
           "door-code": ["kod do domofonu", "kod do drzwi na klatkę"], "alarm-code": ["kod do alarmu"], "garage-code": ["kod do garażu"],
           "safe-combination": ["szyfr do sejfu"], "locker-code": ["kod do szafki na siłowni"], "email-password": ["hasło do poczty", "hasło do gmaila"],
           "bank-password": ["hasło do banku", "hasło do bankowości internetowej"], "streaming-password": ["hasło do Netflixa"], "social-password": ["hasło do Insta"],
           "work-password": ["hasło do laptopa z pracy"], "phone-pin": ["PIN do telefonu"], "sim-pin": ["PIN do karty SIM"], "sim-puk": ["kod PUK"],
           "one-time-code": ["kod z SMS-a"], "password-manager-master": ["hasło główne do Bitwardena"]},
    "sv": {"wifi-password": ["wifi-lösenordet", "lösenordet till wifit"], "card-pin": ["pinkoden till bankkortet"], "door-code": ["portkoden"],
           "alarm-code": ["larmkoden"], "garage-code": ["koden till garaget"], "safe-combination": ["kombinationen till kassaskåpet"],
           "locker-code": ["koden till skåpet på gymmet"], "email-password": ["lösenordet till mejlen"], "bank-password": ["lösenordet till internetbanken"],
           "streaming-password": ["Netflix-lösenordet"], "social-password": ["Insta-lösenordet"], "work-password": ["lösenordet till jobbdatorn"],
           "phone-pin": ["pinkoden till mobilen"], "sim-pin": ["SIM-kortets pinkod"], "sim-puk": ["PUK-koden"], "one-time-code": ["sms-koden"],
           "password-manager-master": ["huvudlösenordet till Bitwarden"]},
    "tr": {"wifi-password": ["wifi şifresi", "evdeki internetin şifresi"], "card-pin": ["banka kartının şifresi", "kartın PIN kodu"],
           "door-code": ["apartman kapısının şifresi"], "alarm-code": ["alarm şifresi"], "garage-code": ["garaj kapısının kodu"],
           "safe-combination": ["kasanın şifresi"], "locker-code": ["spor salonundaki dolabın şifresi"], "email-password": ["mail şifresi", "gmail şifrem"],
           "bank-password": ["internet bankacılığı şifresi"], "streaming-password": ["Netflix şifresi"], "social-password": ["Instagram şifresi"],
           "work-password": ["iş bilgisayarının şifresi"], "phone-pin": ["telefonun ekran kilidi şifresi"], "sim-pin": ["SIM kartın PIN kodu"],
           "sim-puk": ["PUK kodu"], "one-time-code": ["SMS ile gelen doğrulama kodu"], "password-manager-master": ["Bitwarden ana şifresi"]},
    "ru": {"wifi-password": ["пароль от вайфая", "пароль от wi-fi"], "card-pin": ["пин-код от карты", "пин от сбербанковской карты"],
           "door-code": ["код домофона", "код от подъезда"], "alarm-code": ["код сигнализации"], "garage-code": ["код от гаража"],
           "safe-combination": ["код от сейфа"], "locker-code": ["код от шкафчика в спортзале"], "email-password": ["пароль от почты", "пароль от яндекс почты"],
           "bank-password": ["пароль от интернет-банка", "пароль от Сбербанк Онлайн"], "streaming-password": ["пароль от Кинопоиска"],
           "social-password": ["пароль от ВК"], "work-password": ["пароль от рабочего ноутбука"], "phone-pin": ["пин-код от телефона"],
           "sim-pin": ["PIN от симки"], "sim-puk": ["PUK-код от симки"], "one-time-code": ["код из смс"], "password-manager-master": ["мастер-пароль от KeePass"]},
    "el": {"wifi-password": ["ο κωδικός του wifi"], "card-pin": ["το PIN της κάρτας"], "door-code": ["ο κωδικός της εξώπορτας"],
           "alarm-code": ["ο κωδικός του συναγερμού"], "garage-code": ["ο κωδικός του γκαράζ"], "safe-combination": ["ο συνδυασμός του χρηματοκιβωτίου"],
           "email-password": ["ο κωδικός του email"], "bank-password": ["ο κωδικός του e-banking"], "streaming-password": ["ο κωδικός του Netflix"],
           "phone-pin": ["το PIN του κινητού"], "sim-puk": ["ο κωδικός PUK"], "one-time-code": ["ο κωδικός από το SMS"]},
    "ar": {"wifi-password": ["كلمة سر الواي فاي", "باسورد الواي فاي"], "card-pin": ["الرقم السري للبطاقة", "رمز PIN لبطاقة الصراف"],
           "door-code": ["رمز باب العمارة"], "alarm-code": ["رمز جهاز الإنذار"], "safe-combination": ["رقم الخزنة"],
           "email-password": ["كلمة سر الإيميل"], "bank-password": ["كلمة مرور تطبيق البنك"], "streaming-password": ["باسورد نتفليكس"],
           "phone-pin": ["رمز قفل الجوال"], "one-time-code": ["رمز التحقق اللي وصل بالرسالة"]},
    "he": {"wifi-password": ["הסיסמה של הוויי-פיי"], "card-pin": ["הקוד הסודי של הכרטיס"], "door-code": ["הקוד של הדלת בכניסה לבניין"],
           "alarm-code": ["הקוד של האזעקה"], "safe-combination": ["הקוד של הכספת"], "email-password": ["הסיסמה של המייל"],
           "bank-password": ["הסיסמה לאתר הבנק"], "streaming-password": ["הסיסמה של נטפליקס"], "phone-pin": ["הקוד של הטלפון"],
           "one-time-code": ["הקוד שהגיע ב-SMS"]},
    "hi": {"wifi-password": ["वाईफाई का पासवर्ड", "wifi ka password"], "card-pin": ["डेबिट कार्ड का पिन", "ATM ka pin"],
           "door-code": ["मेन गेट का कोड"], "alarm-code": ["अलार्म का कोड"], "locker-code": ["जिम लॉकर का कोड"],
           "email-password": ["ईमेल का पासवर्ड"], "bank-password": ["नेट बैंकिंग का पासवर्ड"], "streaming-password": ["नेटफ्लिक्स का पासवर्ड", "Hotstar ka password"],
           "phone-pin": ["फ़ोन का पिन"], "one-time-code": ["SMS में आया OTP"]},
    "zh": {"wifi-password": ["WiFi密码", "家里的无线密码"], "card-pin": ["银行卡密码", "工资卡的取款密码"], "door-code": ["单元门密码", "大门密码"],
           "alarm-code": ["报警器密码"], "safe-combination": ["保险柜密码"], "locker-code": ["健身房储物柜密码"],
           "email-password": ["邮箱密码", "QQ邮箱的密码"], "bank-password": ["网银登录密码"], "streaming-password": ["爱奇艺会员账号密码"],
           "social-password": ["微信登录密码"], "phone-pin": ["手机锁屏密码"], "one-time-code": ["短信验证码"]},
    "ja": {"wifi-password": ["Wi-Fiのパスワード", "家のWiFiパス"], "card-pin": ["キャッシュカードの暗証番号"], "door-code": ["マンションのオートロックの番号"],
           "alarm-code": ["警備システムの解除コード"], "safe-combination": ["金庫の番号"], "locker-code": ["ジムのロッカーの暗証番号"],
           "email-password": ["メールのパスワード"], "bank-password": ["ネットバンキングのログインパスワード"], "streaming-password": ["Netflixのパスワード"],
           "phone-pin": ["スマホのパスコード"], "one-time-code": ["SMSで届いた認証コード"], "password-manager-master": ["1Passwordのマスターパスワード"]},
    "ko": {"wifi-password": ["와이파이 비번", "집 와이파이 비밀번호"], "card-pin": ["체크카드 비밀번호"], "door-code": ["현관 비밀번호", "공동현관 비번"],
           "alarm-code": ["세콤 해제 번호"], "safe-combination": ["금고 비밀번호"], "email-password": ["네이버 메일 비번"],
           "bank-password": ["인터넷뱅킹 비밀번호"], "streaming-password": ["넷플릭스 비번"], "phone-pin": ["폰 잠금 비밀번호"], "one-time-code": ["문자로 온 인증번호"]},
    "vi": {"wifi-password": ["mật khẩu wifi", "pass wifi nhà"], "card-pin": ["mã PIN thẻ ATM"], "door-code": ["mã cửa chung cư"],
           "alarm-code": ["mã báo động"], "safe-combination": ["mã két sắt"], "email-password": ["mật khẩu email"],
           "bank-password": ["mật khẩu internet banking"], "streaming-password": ["mật khẩu Netflix"], "phone-pin": ["mật khẩu mở khóa điện thoại"],
           "one-time-code": ["mã OTP gửi qua tin nhắn"]},
    "id": {"wifi-password": ["password wifi", "kata sandi wifi rumah"], "card-pin": ["PIN kartu ATM"], "door-code": ["kode pintu apartemen"],
           "alarm-code": ["kode alarm"], "safe-combination": ["kombinasi brankas"], "email-password": ["password email"],
           "bank-password": ["password m-banking", "PIN m-BCA"], "streaming-password": ["password Netflix"], "phone-pin": ["PIN HP"],
           "one-time-code": ["kode OTP dari SMS"]},
}

# frames: (template, style).  {l}=label {lc}=Label {s}=secret {p}=person
FRAMES = {
    "en": [("{lc} is {s}", "prose"), ("note to self: {l} = {s} 🙈", "chat"),
           ("Hey, we're at grandma's this weekend. {lc} is {s}, feed the cat pls!", "chat"),
           ("ok so {l}: {s} (don't tell anyone lol)", "chat"), ("Remember: {l} -> {s}. Changed it last week after the break-in.", "prose"),
           ("{p} asked again for the {l}. It's {s}. Writing it here so I stop forgetting.", "prose"), ("fyi {l} {s}", "chat"),
           ("Trip prep done. Passports in the drawer, taxi at 6. {lc}: {s}.", "prose"),
           ("For the house sitter: bins go out Tuesday, plants twice a week, {l} is {s}. Thanks {p}!", "prose"),
           ("pls remember {l} is {s} now, I had to reset it", "chat"), ("{lc} — {s}\n(old one stopped working)", "prose"),
           ("My {l} is {s}, keep it somewhere safe in case something happens to me.", "prose")],
    "es": [("Apunto aquí {l}: {s}", "prose"), ("Oye, {l} es {s}, no se lo digas a nadie 🙊", "chat"),
           ("Mañana viene mi suegra a regar las plantas. {lc} es {s}. Las llaves están con el vecino.", "prose"),
           ("ojo q {l} cambió, ahora es {s}", "chat"), ("Para que no se me olvide: {l} → {s}", "prose"),
           ("{p}, te paso {l}: {s}. Bórralo cuando lo tengas.", "chat")],
    "fr": [("Note pour moi : {l} = {s}", "prose"), ("Salut ! {lc} c'est {s} 😉 tu peux le noter", "chat"),
           ("On part ce week-end, Mamie garde le chat. {lc} : {s}. Merci de fermer les volets.", "prose"),
           ("attention {l} a changé, maintenant c'est {s} mdr", "chat"),
           ("{p} m'a redemandé {l}… c'est {s}. Je l'écris ici pour ne plus l'oublier.", "prose")],
    "de": [("Notiz: {l} ist {s}", "prose"), ("Kurz für dich: {l} lautet {s} 👍", "chat"),
           ("Wir sind ab Freitag weg. Frau {p} gießt die Blumen. {lc}: {s}. Schlüssel liegt beim Nachbarn.", "prose"),
           ("achtung {l} hat sich geändert, jetzt {s}", "chat"), ("Damit ich's nicht wieder vergesse – {l}: {s}", "prose")],
    "it": [("Promemoria: {l} è {s}", "prose"), ("Ciao! {lc} è {s}, non dirlo a nessuno 🤫", "chat"),
           ("Questo weekend siamo via, la nonna passa a dare da mangiare al gatto. {lc}: {s}. Grazie!", "prose"),
           ("occhio che {l} è cambiato, ora è {s}", "chat"), ("{p} mi ha chiesto di nuovo {l}: {s}. Lo scrivo qui così non me lo scordo.", "prose")],
    "pt": [("Anotando aqui: {l} é {s}", "prose"), ("oi! {l} é {s} 😘 não passa pra ninguém", "chat"),
           ("Vamos viajar sexta. A vizinha vai cuidar das plantas. {lc}: {s}. Valeu!", "prose"),
           ("mudaram {l}, agora é {s} kkkk", "chat"), ("Pra não esquecer mais: {l} → {s}", "prose")],
    "nl": [("Notitie: {l} is {s}", "prose"), ("Hoi! {lc} is {s} 👍", "chat"),
           ("We zijn het weekend weg, de buurvrouw geeft de kat eten. {lc}: {s}. Bedankt!", "prose"),
           ("let op, {l} is veranderd, nu {s}", "chat"), ("Zodat ik het niet weer vergeet: {l} = {s}", "prose")],
    "pl": [("Notatka: {l} to {s}", "prose"), ("Hej! {lc}: {s} 😉 nikomu nie mów", "chat"),
           ("W weekend nas nie ma, sąsiadka nakarmi kota. {lc} to {s}. Dzięki!", "prose"),
           ("uwaga!! {l} → {s} (zmienione wczoraj)", "chat"), ("Żeby znowu nie zapomnieć: {l} = {s}", "prose")],
    "sv": [("Anteckning: {l} är {s}", "prose"), ("Hej! {lc} är {s} 😊", "chat"),
           ("Vi åker bort i helgen, grannen matar katten. {lc}: {s}. Tack!", "prose"),
           ("obs {l} är ändrad, nu {s}", "chat"), ("Så jag inte glömmer igen: {l} = {s}", "prose")],
    "tr": [("Not: {l} {s}", "prose"), ("Selam! {l}: {s} 😉 kimseye söyleme", "chat"),
           ("Hafta sonu yokuz, komşu kediye bakacak. {lc}: {s}. Teşekkürler!", "prose"),
           ("dikkat {l} değişti, yeni hali {s}", "chat"), ("Unutmamak için yazıyorum: {l} → {s}", "prose")],
    "ru": [("Заметка: {l} — {s}", "prose"), ("Привет! {lc}: {s} 😉 никому не говори", "chat"),
           ("Мы уезжаем на выходные, соседка покормит кота. {lc} — {s}. Спасибо!", "prose"),
           ("внимание, {l} поменяли, теперь {s}", "chat"), ("Чтобы опять не забыть: {l} = {s}", "prose")],
    "el": [("Σημείωση: {l} είναι {s}", "prose"), ("Γεια! {lc}: {s} 😉 μην το πεις σε κανέναν", "chat"),
           ("Φεύγουμε το Σαββατοκύριακο, η γειτόνισσα θα ταΐσει τη γάτα. {lc}: {s}. Ευχαριστώ!", "prose"),
           ("Για να μην το ξεχάσω πάλι: {l} = {s}", "prose")],
    "ar": [("ملاحظة: {l}: {s}", "prose"), ("هلا! {l} {s} 😉 لا تقول لأحد", "chat"),
           ("رح نسافر آخر الأسبوع والجارة رح تطعم القطة. {l}: {s}. شكراً!", "prose"), ("عشان ما أنسى: {l} ← {s}", "prose")],
    "he": [("תזכורת: {l}: {s}", "prose"), ("היי! {l} זה {s} 😉 אל תגיד לאף אחד", "chat"),
           ("אנחנו נוסעים בסופ\"ש, השכנה תאכיל את החתול. {l}: {s}. תודה!", "prose"), ("שלא אשכח שוב: {l} = {s}", "prose")],
    "hi": [("नोट: {l} — {s}", "prose"), ("याद रखना: {l} {s} है 🙏", "chat"),
           ("हम वीकेंड पर बाहर जा रहे हैं, पड़ोसन बिल्ली को खाना देगी। {l}: {s}। धन्यवाद!", "prose"),
           ("bhai {l} {s} hai, kisi ko mat batana", "chat"), ("भूल न जाऊं इसलिए लिख रहा हूँ — {l} = {s}", "prose")],
    "zh": [("备忘：{l}是{s}", "prose"), ("{l}：{s}，别告诉别人哈😂", "chat"), ("周末我们不在家，邻居阿姨帮忙喂猫。{l}是{s}，谢谢！", "prose"),
           ("怕忘了记一下，{l} {s}", "chat"), ("{p}又问我{l}了，是{s}", "prose")],
    "ja": [("メモ：{l}は{s}", "prose"), ("{l}、{s}だよ😊 誰にも言わないでね", "chat"),
           ("週末は留守にします。猫のごはんはお隣さんにお願いしました。{l}は{s}です。よろしく！", "prose"), ("忘れないように：{l} → {s}", "prose")],
    "ko": [("메모: {l} {s}", "prose"), ("{l} {s}임 ㅋㅋ 아무한테도 말하지 마", "chat"),
           ("주말에 집 비워요. 옆집 분이 고양이 밥 주기로 했어요. {l}: {s}. 감사합니다!", "prose"), ("까먹지 않게 적어둠 — {l} = {s}", "chat")],
    "vi": [("Ghi chú: {l} là {s}", "prose"), ("{lc} là {s} nha 😉 đừng nói ai", "chat"),
           ("Cuối tuần nhà mình đi vắng, cô hàng xóm cho mèo ăn giúp. {lc}: {s}. Cảm ơn cô!", "prose"), ("Ghi lại kẻo quên: {l} = {s}", "prose")],
    "id": [("Catatan: {l} {s}", "prose"), ("{lc} itu {s} ya 😉 jangan kasih tau siapa2", "chat"),
           ("Akhir pekan kami pergi, tetangga yang kasih makan kucing. {lc}: {s}. Makasih!", "prose"), ("Biar gak lupa lagi: {l} = {s}", "prose")],
}

# colon-only frames for plural / compound secrets (cards, seeds, recovery codes, national logins)
COLON = {
    "en": ["{l}: {s}", "Saving this here just in case. {lc}:\n{s}", "{p} needs this for the booking tomorrow — {l}: {s}"],
    "es": ["{lc}: {s}", "Lo guardo aquí por si acaso. {lc}:\n{s}"], "fr": ["{lc} : {s}", "Je garde ça ici au cas où. {lc} :\n{s}"],
    "de": ["{lc}: {s}", "Speichere ich hier, falls ich's brauche. {lc}:\n{s}"], "it": ["{lc}: {s}", "Lo salvo qui per sicurezza. {lc}:\n{s}"],
    "pt": ["{lc}: {s}", "Guardando aqui por via das dúvidas. {lc}:\n{s}"], "nl": ["{lc}: {s}", "Even hier bewaren. {lc}:\n{s}"],
    "pl": ["{lc}: {s}", "Zapisuję tu na wszelki wypadek. {lc}:\n{s}"], "sv": ["{lc}: {s}", "Sparar här ifall. {lc}:\n{s}"],
    "tr": ["{lc}: {s}", "Lazım olur diye buraya yazıyorum. {lc}:\n{s}"], "ru": ["{lc}: {s}", "Сохраню тут на всякий случай. {lc}:\n{s}"],
    "el": ["{lc}: {s}"], "ar": ["{l}: {s}"], "he": ["{l}: {s}"], "hi": ["{l}: {s}"], "zh": ["{l}：{s}", "存一下以防万一。{l}：\n{s}"],
    "ja": ["{l}：{s}", "念のためここに保存。{l}：\n{s}"], "ko": ["{l}: {s}"], "vi": ["{lc}: {s}"], "id": ["{lc}: {s}"],
}

CARD_LBL = {"en": ["card details", "my Visa", "the company card"], "es": ["los datos de la tarjeta"], "fr": ["les infos de la CB"],
            "de": ["die Kreditkartendaten"], "it": ["i dati della carta"], "pt": ["os dados do cartão"], "nl": ["de creditcardgegevens"],
            "pl": ["dane karty"], "sv": ["kortuppgifterna"], "tr": ["kart bilgileri"], "ru": ["данные карты"], "el": ["τα στοιχεία της κάρτας"],
            "ar": ["بيانات البطاقة"], "he": ["פרטי הכרטיס"], "hi": ["कार्ड की डिटेल्स"], "zh": ["信用卡信息"], "ja": ["クレカ情報"],
            "ko": ["카드 정보"], "vi": ["thông tin thẻ"], "id": ["data kartu kredit"]}
SEED_LBL = {"en": ["MetaMask recovery phrase", "seed words for the Ledger", "wallet seed phrase"], "es": ["la frase semilla de MetaMask"],
            "fr": ["la phrase de récupération du wallet"], "de": ["die Seed-Phrase vom Ledger"], "it": ["la seed phrase del wallet"],
            "pt": ["a frase de recuperação da carteira"], "nl": ["de herstelzin van mijn wallet"], "pl": ["fraza odzyskiwania portfela"],
            "sv": ["återställningsfrasen till plånboken"], "tr": ["cüzdanın kurtarma kelimeleri"], "ru": ["сид-фраза от кошелька"],
            "el": ["η φράση ανάκτησης του πορτοφολιού"], "ar": ["عبارة الاسترداد للمحفظة"], "he": ["מילות השחזור של הארנק"],
            "hi": ["वॉलेट की सीड फ्रेज़"], "zh": ["钱包助记词"], "ja": ["ウォレットのリカバリーフレーズ"], "ko": ["지갑 복구 구문"],
            "vi": ["cụm từ khôi phục ví"], "id": ["seed phrase dompet kripto"]}


def tc_kimlik():
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d11 = (sum(d) + d10) % 10
    return "".join(map(str, d + [d10, d11]))


def cpf():
    d = [R.randint(0, 9) for _ in range(9)]
    for w in (10, 11):
        s = sum(x * (w - i) for i, x in enumerate(d))
        r = (s * 10) % 11
        d.append(0 if r == 10 else r)
    s = "".join(map(str, d))
    return f"{s[:3]}.{s[3:6]}.{s[6:9]}-{s[9:]}"


def dni():
    n = R.randint(10_000_000, 99_999_999)
    return f"{n}{'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}"


def gov_login(lang):
    """returns (kind, label, id_text, secret)"""
    if lang == "es":
        return "national-login-credential", "Cl@ve permanente", f"DNI {dni()}", human_pw("es")
    if lang == "fr":
        return "national-login-credential", "impots.gouv", f"numéro fiscal {R.randint(0, 3)}{D(12)}", human_pw("fr")
    if lang == "de":
        return "national-eid-pin", "Online-Ausweis (eID)", "Personalausweis", D(6)
    if lang == "it":
        return "national-login-credential", "SPID", f"utente {LN(8)}@libero.it", human_pw("it")
    if lang == "pt":
        return "national-login-credential", "gov.br", f"CPF {cpf()}", human_pw("pt")
    if lang == "nl":
        return "national-login-credential", "DigiD", f"gebruikersnaam {LN(8)}", human_pw("nl")
    if lang == "pl":
        return "national-login-credential", "Profil Zaufany", f"login {LN(8)}", human_pw("pl")
    if lang == "sv":
        return "national-eid-pin", "BankID säkerhetskod", f"personnummer {R.randint(50, 99)}{R.randint(1, 12):02d}{R.randint(1, 28):02d}-{D(4)}", D(pick([6, 8]))
    if lang == "tr":
        return "national-login-credential", "e-Devlet", f"TC {tc_kimlik()}", human_pw("tr")
    if lang == "ru":
        return "national-login-credential", "Госуслуги", f"СНИЛС {D(3)}-{D(3)}-{D(3)} {D(2)}", human_pw("ru")
    if lang == "el":
        return "national-login-credential", "Taxisnet", f"ΑΦΜ {D(9)}", human_pw("el")
    if lang == "ar":
        return "national-login-credential", "أبشر", f"رقم الهوية 1{D(9)}", human_pw("ar")
    if lang == "he":
        return "national-login-credential", "האזור האישי בביטוח לאומי", f"ת\"ז {D(9)}", human_pw("he")
    if lang == "hi":
        return "upi-pin", "UPI पिन (PhonePe)", f"UPI ID {LN(7)}@ybl", D(pick([4, 6]))
    if lang == "zh":
        return "payment-password", "支付宝支付密码", f"账号 1{D(10)}", D(6)
    if lang == "ja":
        return "national-eid-pin", "マイナンバーカードの暗証番号（利用者証明用）", "マイナンバーカード", D(4)
    if lang == "ko":
        return "national-login-credential", "공동인증서 비밀번호", "NPKI 인증서", human_pw("ko") + pick("!@#")
    if lang == "vi":
        return "national-login-credential", "VNeID", f"CCCD 0{D(11)}", human_pw("vi")
    if lang == "id":
        return "national-login-credential", "DJP Online", f"NPWP {D(2)}.{D(3)}.{D(3)}.{D(1)}-{D(3)}.{D(3)}", human_pw("id")
    return "national-login-credential", pick(["Government Gateway", "myGov", "Login.gov"]), f"user ID {D(4)} {D(4)} {D(4)}", human_pw("en")


GOV_FRAMES = {
    "en": "{label} login — {idt}, password {s}", "es": "{label}: {idt}, contraseña {s}", "fr": "Accès {label} : {idt}, mot de passe {s}",
    "de": "{label}: PIN {s} ({idt})", "it": "{label}: {idt}, password {s}", "pt": "{label}: {idt}, senha {s}",
    "nl": "{label}: {idt}, wachtwoord {s}", "pl": "{label}: {idt}, hasło {s}", "sv": "{label}: {s} ({idt})", "tr": "{label}: {idt}, şifre {s}",
    "ru": "{label}: {idt}, пароль {s}", "el": "{label}: {idt}, κωδικός {s}", "ar": "{label}: {idt}، كلمة المرور {s}",
    "he": "{label}: {idt}, סיסמה {s}", "hi": "{label}: {s} ({idt})", "zh": "{label}：{s}（{idt}）", "ja": "{label}：{s}（{idt}）",
    "ko": "{label}: {s} ({idt})", "vi": "{label}: {idt}, mật khẩu {s}", "id": "{label}: {idt}, password {s}",
}

PERSON = {"en": ["Emma", "Liam", "Olivia", "Noah", "Sophie", "Daniel", "Grace", "Ethan"], "es": ["Lucía", "Mateo", "Carmen", "Javier"],
          "fr": ["Camille", "Léo", "Chloé", "Manon"], "de": ["Schulz", "Becker", "Hoffmann", "Weber"], "it": ["Giulia", "Marco", "Chiara"],
          "pt": ["Ana", "João", "Larissa"], "nl": ["Sanne", "Daan"], "pl": ["Zosia", "Kuba"], "sv": ["Elsa", "Oscar"], "tr": ["Elif", "Mert"],
          "ru": ["Аня", "Дима"], "el": ["Μαρία", "Νίκος"], "ar": ["ليلى", "عمر"], "he": ["נועה", "איתי"], "hi": ["प्रिया", "राहुल"],
          "zh": ["小王", "老李"], "ja": ["佐藤さん", "田中さん"], "ko": ["지민", "민준"], "vi": ["Lan", "Minh"], "id": ["Putri", "Budi"]}


def secret_for(kind, lang):
    if kind == "wifi-password":
        return wifi_pw(lang)
    if kind in ("card-pin", "phone-pin", "parental-control-pin", "voicemail-pin", "mobile-money-pin"):
        return pin()
    if kind == "sim-pin":
        return pin(4)
    if kind == "sim-puk":
        return D(8)
    if kind == "door-code":
        return door_code()
    if kind in ("alarm-code", "garage-code"):
        return pick([D(4), D(5), D(6), D(4) + "#"])
    if kind == "safe-combination":
        return safe_combo()
    if kind in ("locker-code", "luggage-lock-code"):
        return D(pick([3, 4]))
    if kind in ("bike-lock-combination", "car-radio-code", "keybox-code"):
        return D(4)
    if kind == "one-time-code":
        return otp_code()
    if kind == "phone-banking-passcode":
        return D(6)
    if kind == "app-password":
        return " ".join(rs(LOW, 4) for _ in range(4))
    if kind == "password-manager-master":
        return "-".join(pick(PW_WORDS[lang] + PW_WORDS["en"]) for _ in range(R.randint(4, 5))) + D(2) + pick("!?#")
    return human_pw(lang)


def typo(text):
    words = [m for m in re.finditer(r"[A-Za-zÀ-ÿ]{5,}", text)]
    if not words:
        return text
    m = pick(words)
    w = m.group(0)
    i = R.randint(1, len(w) - 3)
    w2 = w[:i] + w[i + 1] + w[i] + w[i + 2:]
    return text[:m.start()] + w2 + text[m.end():]


def casualize(frame, lang):
    if lang in LATIN:
        if maybe(0.25):
            frame = typo(frame)
        if maybe(0.2):
            frame = frame.lower()
    if maybe(0.15):
        frame = frame + " " + pick(["🔑", "🙏", "😅", "👍", "!!", "🤫", "xx"])
    return frame


HOME_MARKERS = ["grandma", "Trip prep", "house sitter", "suegra", "Mamie", "Freitag weg", "nonna", "viajar", "weekend weg", "weekend nas",
                "helgen", "Hafta sonu", "выходные", "Σαββατοκύριακο", "آخر الأسبوع", "בסופ", "वीकेंड", "周末", "週末", "주말", "Cuối tuần",
                "Akhir pekan"]
HOME_KINDS = {"wifi-password", "door-code", "alarm-code", "garage-code", "keybox-code", "safe-combination", "parental-control-pin",
              "router-admin-password", "streaming-password", "computer-login-password"}


CHANGE_MARKERS = ["reset", "Changed it", "old one", "cambió", "geändert", "changé", "cambiato", "mudaram", "veranderd", "zmienione", "ändrad",
                  "değişti", "поменяли"]
FIXED_KINDS = {"sim-puk", "one-time-code", "car-radio-code", "app-password", "mobile-money-pin"}


def is_change_frame(fr):
    return any(m in fr for m in CHANGE_MARKERS)


def is_home_frame(fr):
    return any(m in fr for m in HOME_MARKERS)


def personal_prose_spec(lang, kind=None):
    labels = LBL[lang]
    special = R.random()
    p = pick(PERSON[lang])
    if kind is None and special < 0.08:
        c = card()
        num = card_fmt(c["number"])
        s_text = pick([f"{num} {c['exp']} {c['cvv']}", f"{num}, exp {c['exp']}, cvv {c['cvv']}", f"{num} / {c['exp']} / {c['cvv']}"])
        fr = pick(COLON[lang])
        lab = pick(CARD_LBL[lang])
        v = fr.format(l=lab, lc=cap(lab), s=s_text, p=p)
        return dict(label="secret", variant="plain", segment=f"prose-{lang}", kind="payment-card", value=casualize(v, lang) if False else v,
                    secret=num, lang=lang, group="personal")
    if kind is None and special < 0.13:
        sp = seed_phrase()
        lab = pick(SEED_LBL[lang])
        v = pick(COLON[lang]).format(l=lab, lc=cap(lab), s=sp, p=p)
        return dict(label="secret", variant="plain", segment=f"prose-{lang}", kind="seed-phrase", value=v, secret=sp, lang=lang, group="personal")
    if kind is None and special < 0.20:
        gk, glabel, idt, s = gov_login(lang)
        v = GOV_FRAMES[lang].format(label=glabel, idt=idt, s=s)
        if lang in LATIN and maybe(0.5):
            v = pick({"en": ["Tax stuff: ", "For mum's pension forms — "], "es": ["Trámites: "], "fr": ["Pour la déclaration : "],
                      "de": ["Für die Steuer: "], "it": ["Per il 730: "], "pt": ["Imposto de renda: "], "nl": ["Belastingaangifte: "],
                      "pl": ["PIT: "], "sv": ["Deklarationen: "], "tr": ["Vergi için: "], "vi": ["Thủ tục: "], "id": ["Urusan pajak: "]}[lang]) + v
        return dict(label="secret", variant="plain", segment=f"prose-{lang}", kind=gk, value=v, secret=s, lang=lang, group="personal")
    if kind is None and special < 0.25 and lang in SEC_QA:
        q, answers = pick(SEC_QA[lang])
        a = pick(answers)
        v = {"en": f"Bank security question \"{q}\" → answer: {a}", "es": f"Pregunta de seguridad del banco «{q}»: {a}",
             "fr": f"Question secrète de la banque « {q} » : {a}", "de": f"Sicherheitsfrage bei der Bank „{q}“: {a}",
             "pt": f"Pergunta de segurança do banco \"{q}\": {a}", "it": f"Domanda di sicurezza della banca \"{q}\": {a}",
             "ru": f"Контрольный вопрос в банке «{q}»: {a}", "zh": f"银行安全问题“{q}”答案：{a}", "ja": f"銀行の秘密の質問「{q}」の答え：{a}"}[lang]
        return dict(label="secret", variant="plain", segment=f"prose-{lang}", kind="security-answer", value=v, secret=a, lang=lang, group="personal")
    kind = kind or pick(list(labels))
    lab = pick(labels[kind])
    s = secret_for(kind, lang)
    fr, style = pick(FRAMES[lang])
    while (is_home_frame(fr) and kind not in HOME_KINDS) or (kind in FIXED_KINDS and is_change_frame(fr)):
        fr, style = pick(FRAMES[lang])
    fr = casualize(fr, lang)
    v = fr.format(l=lab, lc=cap(lab), s=s, p=p)
    if kind == "wifi-password" and maybe(0.4):
        v = v + pick({"en": [f" (network: {ssid(lang)})"], "de": [f" (Netz: {ssid(lang)})"], "es": [f" (red: {ssid(lang)})"],
                      "fr": [f" (réseau : {ssid(lang)})"]}.get(lang, [f" ({ssid(lang)})"]))
    return dict(label="secret", variant="plain", segment=f"{style}-{lang}", kind=kind, value=v, secret=s, lang=lang, group="personal")


def personal_en_extra_spec():
    st = R.randint(0, 5)
    p = pick(PERSON["en"])
    if st == 0:
        codes, svc = recovery_codes()
        v = pick([f"{svc} backup codes (each works once):\n" + "\n".join(codes),
                  f"Printed these but also saving here. {svc} 2FA recovery codes: " + ", ".join(codes)])
        return dict(label="secret", variant="plain", segment="prose-en", kind="2fa-recovery-codes", value=v, secret=codes[0], lang="en",
                    group="personal", all_secrets=codes[1:])
    if st == 1:
        k = "-".join(D(6) for _ in range(8))
        v = pick([f"BitLocker recovery key for the work laptop (ID {HU(8)}): {k}", f"If Windows asks for the recovery key on {p}'s PC it's {k}"])
        return dict(label="secret", variant="plain", segment="prose-en", kind="disk-recovery-key", value=v, secret=k, lang="en", group="personal")
    if st == 2:
        if maybe(0.5):
            code = "-".join([UN(4), UN(6), UN(4)])
            v = f"Birthday gift for {p}: Amazon gift card claim code {code} — not redeemed yet!"
        elif maybe(0.5):
            code = "-".join(UN(5) for _ in range(3))
            v = f"unused Steam wallet code {code}, save for the summer sale"
        else:
            code = UN(16)
            v = f"Google Play gift card from {p}: {code} (scratched it already, not used yet)"
        return dict(label="secret", variant="plain", segment="chat-en", kind="gift-card-code", value=v, secret=code, lang="en", group="personal")
    if st == 3:
        k = "-".join(UN(4) for _ in range(7))
        v = f"Apple Account recovery key (keep offline!!): {k}"
        return dict(label="secret", variant="plain", segment="prose-en", kind="account-recovery-key", value=v, secret=k, lang="en", group="personal")
    if st == 4:
        s = rs(B32A, 32)
        g = " ".join(s[i:i + 4] for i in range(0, 32, 4)).lower()
        v = f"Setup key shown under the QR when I enabled 2FA on {pick(['Binance', 'Kraken', 'my work VPN', 'Dropbox'])}: {g}"
        return dict(label="secret", variant="plain", segment="prose-en", kind="authenticator-setup-key", value=v, secret=g, lang="en", group="personal")
    s = D(5)
    w = pick(["lighthouse", "marmalade", "penguin", "Galway"])
    v = f"Phone banking: passcode {s}, memorable word '{w}'. They ask for the 2nd and 5th letters."
    return dict(label="secret", variant="plain", segment="prose-en", kind="phone-banking-passcode", value=v, secret=s, lang="en", group="personal")


FIELDS = {
    "en": {"pw": ["password", "pass", "pw", "pwd", "passwd", "login_pw"], "pin": ["pin", "PIN", "pin_code"], "code": ["code", "door_code", "combo", "keypad"],
           "user": ["user", "username", "login", "email"], "site": ["site", "service", "account", "app"], "num": ["number", "card_number", "cc", "pan"],
           "exp": ["exp", "expiry", "valid_thru"], "cvv": ["cvv", "cvc", "security_code"], "holder": ["name_on_card", "holder", "cardholder"],
           "note": ["note", "notes", "comment"], "ssid": ["ssid", "network", "wifi_name"]},
    "es": {"pw": ["contraseña", "clave", "pass"], "pin": ["pin", "código_pin"], "code": ["código", "codigo_puerta"], "user": ["usuario", "correo"],
           "site": ["servicio", "sitio"], "num": ["número", "numero_tarjeta"], "exp": ["caducidad", "vence"], "cvv": ["cvv", "código_seguridad"],
           "holder": ["titular"], "note": ["nota"], "ssid": ["red", "wifi"]},
    "fr": {"pw": ["mot_de_passe", "mdp"], "pin": ["code_pin", "pin"], "code": ["code", "digicode"], "user": ["identifiant", "email"],
           "site": ["service", "site"], "num": ["numéro_carte", "numero"], "exp": ["expiration", "date_exp"], "cvv": ["cryptogramme", "cvv"],
           "holder": ["titulaire"], "note": ["remarque"], "ssid": ["réseau", "box"]},
    "de": {"pw": ["passwort", "kennwort", "pw"], "pin": ["pin", "pin_code"], "code": ["code", "türcode", "zahlencode"], "user": ["benutzer", "benutzername", "email"],
           "site": ["dienst", "konto"], "num": ["kartennummer", "nummer"], "exp": ["gültig_bis", "ablauf"], "cvv": ["prüfziffer", "cvc"],
           "holder": ["inhaber", "karteninhaber"], "note": ["notiz", "hinweis"], "ssid": ["netzwerk", "wlan"]},
    "it": {"pw": ["password", "parola_chiave"], "pin": ["pin", "codice_pin"], "code": ["codice", "combinazione"], "user": ["utente", "email"],
           "site": ["servizio"], "num": ["numero_carta"], "exp": ["scadenza"], "cvv": ["cvv", "codice_sicurezza"], "holder": ["intestatario"],
           "note": ["nota"], "ssid": ["rete"]},
    "pt": {"pw": ["senha", "password"], "pin": ["pin", "código_pin"], "code": ["código", "senha_portao"], "user": ["usuário", "login"],
           "site": ["serviço", "site"], "num": ["número_cartão"], "exp": ["validade"], "cvv": ["cvv", "código_segurança"],
           "holder": ["titular", "nome_impresso"], "note": ["obs"], "ssid": ["rede"]},
    "nl": {"pw": ["wachtwoord", "ww"], "pin": ["pincode"], "code": ["code", "deurcode"], "user": ["gebruikersnaam"], "site": ["dienst"],
           "num": ["kaartnummer"], "exp": ["geldig_tot"], "cvv": ["cvc"], "holder": ["naam_op_kaart"], "note": ["opmerking"], "ssid": ["netwerk"]},
    "pl": {"pw": ["hasło", "haslo"], "pin": ["pin", "kod_pin"], "code": ["kod", "szyfr"], "user": ["login", "użytkownik"], "site": ["serwis"],
           "num": ["numer_karty"], "exp": ["ważna_do"], "cvv": ["cvv", "kod_cvc"], "holder": ["właściciel"], "note": ["uwagi"], "ssid": ["sieć"]},
    "sv": {"pw": ["lösenord"], "pin": ["pinkod"], "code": ["kod", "portkod"], "user": ["användarnamn"], "site": ["tjänst"], "num": ["kortnummer"],
           "exp": ["giltigt_till"], "cvv": ["cvc"], "holder": ["kortinnehavare"], "note": ["anteckning"], "ssid": ["nätverk"]},
    "tr": {"pw": ["şifre", "parola"], "pin": ["pin", "pin_kodu"], "code": ["kod", "kapı_kodu"], "user": ["kullanıcı_adı"], "site": ["hizmet"],
           "num": ["kart_no"], "exp": ["son_kullanma"], "cvv": ["cvv", "güvenlik_kodu"], "holder": ["kart_sahibi"], "note": ["not"], "ssid": ["ağ"]},
    "ru": {"pw": ["пароль"], "pin": ["пин", "пин_код"], "code": ["код", "код_домофона"], "user": ["логин"], "site": ["сервис"], "num": ["номер_карты"],
           "exp": ["срок_действия"], "cvv": ["cvv", "cvc"], "holder": ["владелец"], "note": ["заметка"], "ssid": ["сеть"]},
    "el": {"pw": ["κωδικός"], "pin": ["pin"], "code": ["κωδικός_πόρτας"], "user": ["χρήστης"], "site": ["υπηρεσία"], "num": ["αριθμός_κάρτας"],
           "exp": ["λήξη"], "cvv": ["cvv"], "holder": ["κάτοχος"], "note": ["σημείωση"], "ssid": ["δίκτυο"]},
    "ar": {"pw": ["كلمة_المرور", "الباسورد"], "pin": ["الرقم_السري"], "code": ["الرمز"], "user": ["اسم_المستخدم"], "site": ["الخدمة"],
           "num": ["رقم_البطاقة"], "exp": ["تاريخ_الانتهاء"], "cvv": ["cvv"], "holder": ["اسم_حامل_البطاقة"], "note": ["ملاحظة"], "ssid": ["الشبكة"]},
    "he": {"pw": ["סיסמה"], "pin": ["קוד_סודי"], "code": ["קוד"], "user": ["שם_משתמש"], "site": ["שירות"], "num": ["מספר_כרטיס"], "exp": ["תוקף"],
           "cvv": ["cvv"], "holder": ["בעל_הכרטיס"], "note": ["הערה"], "ssid": ["רשת"]},
    "hi": {"pw": ["पासवर्ड"], "pin": ["पिन"], "code": ["कोड"], "user": ["यूज़रनेम"], "site": ["सेवा"], "num": ["कार्ड_नंबर"], "exp": ["वैधता"],
           "cvv": ["cvv"], "holder": ["कार्डधारक"], "note": ["नोट"], "ssid": ["नेटवर्क"]},
    "zh": {"pw": ["密码"], "pin": ["PIN码", "PIN"], "code": ["门禁密码", "密码锁"], "user": ["账号", "用户名"], "site": ["网站", "服务"],
           "num": ["卡号"], "exp": ["有效期"], "cvv": ["安全码", "CVV"], "holder": ["持卡人"], "note": ["备注"], "ssid": ["网络名"]},
    "ja": {"pw": ["パスワード"], "pin": ["暗証番号"], "code": ["番号", "解除コード"], "user": ["ID", "ユーザー名"], "site": ["サービス"],
           "num": ["カード番号"], "exp": ["有効期限"], "cvv": ["セキュリティコード"], "holder": ["名義"], "note": ["メモ"], "ssid": ["SSID"]},
    "ko": {"pw": ["비밀번호", "비번"], "pin": ["핀번호"], "code": ["출입번호", "비밀번호"], "user": ["아이디"], "site": ["서비스"], "num": ["카드번호"],
           "exp": ["유효기간"], "cvv": ["CVC"], "holder": ["소유자"], "note": ["메모"], "ssid": ["와이파이"]},
    "vi": {"pw": ["mật_khẩu", "pass"], "pin": ["mã_pin"], "code": ["mã"], "user": ["tên_đăng_nhập"], "site": ["dịch_vụ"], "num": ["số_thẻ"],
           "exp": ["hết_hạn"], "cvv": ["cvv"], "holder": ["chủ_thẻ"], "note": ["ghi_chú"], "ssid": ["tên_wifi"]},
    "id": {"pw": ["kata_sandi", "password"], "pin": ["pin"], "code": ["kode"], "user": ["nama_pengguna"], "site": ["layanan"], "num": ["nomor_kartu"],
           "exp": ["berlaku_sampai"], "cvv": ["cvv"], "holder": ["pemegang_kartu"], "note": ["catatan"], "ssid": ["jaringan"]},
}
SITES = ["netflix.com", "amazon.de", "ebay", "steam", "zalando", "booking.com", "airbnb", "spotify", "disney+", "paypal", "mercadolibre",
         "rakuten", "coupang", "shopee", "taobao", "allegro", "trendyol", "ozon", "flipkart", "tokopedia"]
HOLDERS = ["ANNA KOWALSKA", "JAMES O CONNOR", "MARIA GARCIA LOPEZ", "LUCAS MARTIN", "YUKI TANAKA", "AHMET YILMAZ", "SOFIA ROSSI",
           "JOAO SILVA", "EMMA JANSEN", "OLGA IVANOVA", "PRIYA SHARMA", "LE VAN NAM"]


def F_(lang, k):
    return pick(FIELDS.get(lang, FIELDS["en"])[k])


def email_for(lang):
    hand = pick(["anna.k", "jdoe84", "mateo.g", "lena_m", "petra.novak", "kenji.t", "ahmet.y", "sofi.r", "nam.le", "priya.s"])
    dom = {"de": "web.de", "fr": "orange.fr", "ru": "mail.ru", "zh": "qq.com", "ja": "yahoo.co.jp", "ko": "naver.com", "pl": "wp.pl",
           "it": "libero.it", "pt": "uol.com.br", "tr": "hotmail.com", "nl": "ziggo.nl"}.get(lang, pick(["gmail.com", "outlook.com", "icloud.com"]))
    return hand + D(R.randint(0, 2)) + "@" + dom


BANKS = {"en": ["Chase", "Barclays", "Monzo", "Wells Fargo"], "es": ["BBVA", "Santander", "CaixaBank"], "fr": ["Crédit Mutuel", "BNP Paribas", "La Banque Postale"],
         "de": ["Sparkasse", "Volksbank", "DKB"], "it": ["Intesa Sanpaolo", "UniCredit", "Fineco"], "pt": ["Nubank", "Itaú", "Bradesco"],
         "nl": ["ING", "Rabobank", "ABN AMRO"], "pl": ["PKO BP", "mBank", "Pekao"], "sv": ["Swedbank", "Handelsbanken", "SEB"],
         "tr": ["Ziraat", "Garanti BBVA", "İş Bankası"], "ru": ["Сбербанк", "Т-Банк", "ВТБ"], "el": ["Εθνική Τράπεζα", "Πειραιώς", "Eurobank"],
         "ar": ["الراجحي", "البنك الأهلي", "بنك الإسكان"], "he": ["בנק הפועלים", "בנק לאומי", "דיסקונט"], "hi": ["SBI", "HDFC Bank", "ICICI Bank"],
         "zh": ["招商银行", "工商银行", "建设银行"], "ja": ["三菱UFJ銀行", "ゆうちょ銀行", "楽天銀行"], "ko": ["KB국민은행", "신한은행", "카카오뱅크"],
         "vi": ["Vietcombank", "Techcombank", "MB Bank"], "id": ["BCA", "Mandiri", "BRI"]}
CARRIERS_MOBILE = {"en": ["Vodafone", "EE", "Verizon", "T-Mobile"], "es": ["Movistar", "Orange", "Vodafone"], "fr": ["Orange", "SFR", "Free"],
                   "de": ["Telekom", "o2", "Vodafone"], "it": ["TIM", "WindTre", "Iliad"], "pt": ["Vivo", "Claro", "TIM"], "nl": ["KPN", "Odido", "Vodafone"],
                   "pl": ["Orange", "Play", "Plus"], "sv": ["Telia", "Tele2", "Tre"], "tr": ["Turkcell", "Vodafone", "Türk Telekom"],
                   "ru": ["МТС", "Билайн", "МегаФон"], "el": ["Cosmote", "Vodafone"], "ar": ["STC", "Zain", "Orange"], "he": ["Partner", "Cellcom", "Pelephone"],
                   "hi": ["Jio", "Airtel", "Vi"], "zh": ["中国移动", "中国联通"], "ja": ["docomo", "au", "SoftBank"], "ko": ["SKT", "KT", "LG U+"],
                   "vi": ["Viettel", "Vinaphone"], "id": ["Telkomsel", "Indosat", "XL"]}


def personal_form_spec(lang):
    st = R.randint(0, 9)
    if st == 0:
        s = wifi_pw(lang)
        v = {F_(lang, "ssid"): ssid(lang), F_(lang, "pw"): s}
        if maybe(0.5):
            v[F_(lang, "note")] = pick({"en": ["guest network", "upstairs router"], "de": ["Ferienwohnung", "Gästenetz"], "es": ["casa de la playa"],
                                        "fr": ["maison de campagne"], "ja": ["実家"], "zh": ["老家"]}.get(lang, ["2.4 GHz"]))
        kind = "wifi-password"
    elif st == 1:
        c = card()
        s = card_fmt(c["number"])
        inner = {F_(lang, "holder"): pick(HOLDERS), F_(lang, "num"): s, F_(lang, "exp"): c["exp"], F_(lang, "cvv"): c["cvv"]}
        v = inner if maybe(0.5) else {"cards": [dict(inner, brand=c["brand"])]}
        kind = "payment-card"
    elif st == 2:
        n = R.randint(2, 3)
        items = []
        secrets = []
        for _ in range(n):
            pw = human_pw(lang)
            secrets.append(pw)
            items.append({F_(lang, "site"): pick(SITES), F_(lang, "user"): email_for(lang), F_(lang, "pw"): pw})
        s = secrets[0]
        v = items if maybe(0.5) else {pick(["accounts", "logins", "konten", "cuentas", "comptes"]): items}
        kind = "account-password"
        return dict(label="secret", variant="plain", segment=f"form-{lang}", kind=kind, value=v, secret=s, lang=lang, group="personal",
                    all_secrets=secrets[1:])
    elif st == 3:
        s = pick([D(4), D(6)])
        g = D(4)
        v = {"home": {"alarm": {F_(lang, "code"): s, "panel": pick(["hallway", "garage", "kitchen"])}, "garage": {F_(lang, "code"): g}}}
        kind = "alarm-code"
    elif st == 4:
        s = pin(4)
        v = {"sim": {"carrier": pick(CARRIERS_MOBILE.get(lang, CARRIERS_MOBILE["en"])),
                     F_(lang, "pin"): s, "puk": D(8)}, "phone": {F_(lang, "pin"): pin(6)}}
        kind = "sim-pin"
    elif st == 5:
        s = human_pw(lang)
        v = {"bank": pick(BANKS.get(lang, BANKS["en"])),
             F_(lang, "user"): D(R.randint(8, 10)), F_(lang, "pw"): s, F_(lang, "pin"): pin()}
        kind = "bank-password"
    elif st == 6:
        labs = LBL[lang]
        kinds = R.sample(list(labs), min(3, len(labs)))
        items, secrets = [], []
        for k in kinds:
            sx = secret_for(k, lang)
            secrets.append(sx)
            items.append(f"{pick(labs[k])}: {sx}")
        v = items
        s = secrets[0]
        return dict(label="secret", variant="plain", segment=f"form-{lang}", kind=kinds[0], value=v, secret=s, lang=lang, group="personal",
                    all_secrets=secrets[1:])
    elif st == 7:
        gk, glabel, idt, s = gov_login(lang)
        v = {"portal": glabel, "id": idt, F_(lang, "pw") if gk == "national-login-credential" else F_(lang, "pin"): s}
        kind = gk
    elif st == 8:
        s = D(4)
        v = {"trips": {pick(["lisbon_airbnb", "kyoto_ryokan", "split_apartment", "cabin"]): {"checkin": f"{R.randint(14, 17)}:00",
                                                                                          "address_hint": pick(["blue door", "2nd floor", "behind the bakery"]),
                                                                                          "keybox": {F_(lang, "code"): s}}}}
        kind = "keybox-code"
    else:
        s = seed_phrase(12)
        v = {"wallet": pick(["MetaMask", "Ledger Nano X", "Trust Wallet", "Phantom"]), "seed": s.split(" ") if maybe(0.5) else s,
             "created": date_iso()}
        kind = "seed-phrase"
        if isinstance(v["seed"], list):
            return dict(label="secret", variant="plain", segment=f"form-{lang}", kind=kind, value=v, secret=s, lang=lang, group="personal",
                        pieces=v["seed"], dec=lambda p: " ".join(p))
    return dict(label="secret", variant="plain", segment=f"form-{lang}", kind=kind, value=v, secret=s, lang=lang, group="personal")


ASK = {"en": ["what's the {l} again?", "hey can u send me the {l}", "sorry, forgot the {l} 🙈"], "es": ["¿cuál era {l}?", "oye pásame {l} porfa"],
       "de": ["wie war nochmal {l}?", "kannst du mir {l} schicken?"], "fr": ["c'est quoi déjà {l} ?", "tu peux m'envoyer {l} stp"],
       "pt": ["qual é {l} mesmo?", "me manda {l} pfv"], "it": ["qual era {l}?", "mi mandi {l}?"], "ru": ["напомни, {l}?"],
       "zh": ["{l}是多少来着？"], "ja": ["{l}なんだっけ？"], "nl": ["wat was {l} ook alweer?"], "tr": ["{l} neydi?"], "ko": ["{l} 뭐였지?"]}
ANSWER = {"en": ["{s} 👍", "it's {s}", "{s} (capital first letter)"], "es": ["es {s}", "{s} 😉"], "de": ["{s} 😊", "ist {s}"], "fr": ["c'est {s}"],
          "pt": ["é {s}"], "it": ["è {s}"], "ru": ["{s}"], "zh": ["{s}"], "ja": ["{s}だよ"], "nl": ["{s}"], "tr": ["{s}"], "ko": ["{s} ㅇㅇ"]}
WHO = {"en": ["mom", "me"], "es": ["mamá", "yo"], "de": ["Mama", "ich"], "fr": ["maman", "moi"], "pt": ["mãe", "eu"], "it": ["mamma", "io"],
       "ru": ["мама", "я"], "zh": ["妈妈", "我"], "ja": ["母", "私"], "nl": ["mam", "ik"], "tr": ["annem", "ben"], "ko": ["엄마", "나"]}


def personal_transcript_spec(lang):
    labels = LBL[lang]
    kind = pick(list(labels))
    lab = pick(labels[kind])
    s = secret_for(kind, lang)
    a, b = WHO[lang]
    turns = [{"from": a, "text": pick(ASK[lang]).format(l=lab)}, {"from": b, "text": pick(ANSWER[lang]).format(s=s)}]
    if maybe(0.5):
        turns.append({"from": a, "text": pick({"en": ["thx!", "got it ❤️"], "es": ["gracias!"], "de": ["danke!"], "fr": ["merci !"], "pt": ["valeu!"],
                                              "it": ["grazie!"], "ru": ["спасибо!"], "zh": ["好的谢谢"], "ja": ["ありがとう！"], "nl": ["dank je!"],
                                              "tr": ["sağ ol!"], "ko": ["고마워!"]}[lang])})
    return dict(label="secret", variant="plain", segment=f"transcript-{lang}", kind=kind, value=turns, secret=s, lang=lang, group="personal")


def gen_personal_records():
    # English: every English kind at least twice, then random
    for k in LBL["en"]:
        for _ in range(2):
            produce(lambda: personal_prose_spec("en", k))
    for _ in range(14):
        produce(personal_en_extra_spec)
    for _ in range(20):
        produce(lambda: personal_prose_spec("en"))
    for lang in LANGS20[1:]:
        for _ in range(12):
            produce(lambda: personal_prose_spec(lang))
    for lang in LANGS20:
        for _ in range(5):
            produce(lambda: personal_form_spec(lang))
    for lang in list(ASK):
        for _ in range(3):
            produce(lambda: personal_transcript_spec(lang))


# ---------------------------------------------------------------------------
# PART E: hard secrets -- evasion techniques
# ---------------------------------------------------------------------------
PW_KINDS = ["email-password", "bank-password", "streaming-password", "social-password", "work-password", "computer-login-password",
            "router-admin-password", "apple-id-password", "gaming-password", "password-manager-master", "wifi-password"]
DIGIT_KINDS = {"card-pin": ["debit card PIN", "PIN for the Visa"], "door-code": ["door code", "building entry code"],
               "alarm-code": ["alarm code"], "sim-puk": ["SIM PUK"], "one-time-code": ["verification code"],
               "garage-code": ["garage code"], "phone-pin": ["phone passcode"], "safe-combination": ["safe code"],
               "payment-card": ["card number"]}


def hs(pool):
    if pool == "any":
        pool = pick(["token", "token", "password", "password", "digits"])
    if pool == "short":
        pool = pick(["token40", "password", "password", "digits"])
    if pool == "cred":
        pool = pick(["token", "token", "password"])
    if pool == "oauth":
        while True:
            f = pick([x for x in FORMATS if x.kind in OAUTHY])
            var, val = sec_of(f.gen())
            if len(val) <= 200:
                return {"s": val, "label": f"{f.service} {f.noun}", "kind": f.kind, "var": var}
    if pool in ("token", "token40", "token80"):
        lim = {"token": 130, "token40": 40, "token80": 80}[pool]
        while True:
            f = pick(FORMATS)
            if f.typ not in ("token", "multi"):
                continue
            P = f.gen()
            var, val = sec_of(P)
            if isinstance(val, str) and len(val) <= lim and len(val) >= 10 and not any(c.isspace() for c in val) and '"' not in val and "\\" not in val:
                return {"s": val, "label": f"{f.service} {f.noun}", "kind": f.kind, "var": var if re.fullmatch(r"[A-Z0-9_]+", var) else "API_KEY"}
    if pool == "password":
        k = pick(PW_KINDS)
        s = human_pw(pick(["en", "en", "de", "es", "fr", "pt", "it", "nl", "tr"]))
        return {"s": s, "label": pick(LBL["en"][k]), "kind": k, "var": "PASSWORD"}
    if pool == "digits":
        k = pick(list(DIGIT_KINDS))
        if k == "payment-card":
            s = card()["number"]
        elif k == "sim-puk":
            s = D(8)
        elif k == "one-time-code":
            s = D(6)
        else:
            s = pin(pick([4, 4, 5, 6]))
        return {"s": s, "label": pick(DIGIT_KINDS[k]), "kind": k, "var": "PIN"}
    if pool == "lower":
        if maybe(0.5):
            return hs("digits")
        k = pick(PW_KINDS)
        s = pick(PW_WORDS[pick(["en", "es", "de", "it"])]).replace("$", "") + D(R.randint(2, 4))
        return {"s": s.lower(), "label": pick(LBL["en"][k]), "kind": k, "var": "PASSWORD"}
    if pool == "totp":
        return {"s": rs(B32A, pick([16, 32])), "label": "TOTP secret", "kind": "totp-shared-secret", "var": "TOTP_SECRET"}
    if pool == "wifi":
        while True:
            s = wifi_pw("en")
            if not any(c in s for c in ';,:"\\ '):
                return {"s": s, "label": "wifi password", "kind": "wifi-password", "var": "WIFI_PSK"}
    if pool == "special":
        while True:
            s = human_pw(pick(["en", "de", "fr"]))
            if any(c in s for c in "@#?%&+!$*"):
                return {"s": s, "label": "database password", "kind": "database-password", "var": "DB_PASSWORD"}
    if pool == "nonascii":
        k = pick(PW_KINDS)
        return {"s": pw_nonascii(), "label": pick(LBL["en"][k]), "kind": k, "var": "PASSWORD"}
    raise ValueError(pool)


TECH = []


def tech(name, pool):
    def deco(fn):
        TECH.append((name, pool, fn))
        return fn
    return deco


def lead(sec):
    return pick([f"{sec['label']}", f"my {sec['label']}", f"the {sec['label']}", f"{sec['label']} (new)", f"{sec['label']} (shared account)"])


def chunks(s, lo, hi):
    out, i = [], 0
    while i < len(s):
        n = R.randint(lo, hi)
        out.append(s[i:i + n])
        i += n
    return out


def split_n(s, n):
    n = max(2, min(n, len(s)))
    while n > 2 and len(s) < 3 * n:
        n -= 1
    for _ in range(30):
        cuts = sorted(R.sample(range(1, len(s)), n - 1))
        bounds = [0] + cuts + [len(s)]
        if min(b - a for a, b in zip(bounds, bounds[1:])) >= min(3, len(s) // n):
            break
    parts, prev = [], 0
    for c in cuts + [len(s)]:
        parts.append(s[prev:c])
        prev = c
    return parts


def sep_tech(sec, seps, lo, hi, hint):
    s = sec["s"]
    cand = [x for x in seps if x not in s]
    if not cand:
        return None
    sep = pick(cand)
    enc = sep.join(chunks(s, lo, hi))
    if enc == s:
        return None
    v = pick([f"{lead(sec)}: {enc}", f"{cap(lead(sec))} {hint}: {enc}", f"{enc}  <- {lead(sec)}"])
    return dict(value=v, pieces=[enc], dec=lambda p, sep=sep: p[0].replace(sep, ""))


@tech("sep-spaces", "any")
def t_sep_spaces(sec):
    return sep_tech(sec, [" "], 3, 5, "(spaced out so I can read it)")


@tech("sep-hyphens", "any")
def t_sep_hyphens(sec):
    return sep_tech(sec, ["-", "–"], 3, 6, "(with dashes)")


@tech("sep-dots", "any")
def t_sep_dots(sec):
    return sep_tech(sec, ["·", ".", "•"], 2, 4, "(dots are just separators)")


@tech("sep-mixed", "any")
def t_sep_mixed(sec):
    s = sec["s"]
    seps = [x for x in [" ", "|", "/", "_", "~"] if x not in s]
    if len(seps) < 2:
        return None
    parts = chunks(s, 2, 5)
    enc = parts[0]
    for p in parts[1:]:
        enc += pick(seps) + p
    return dict(value=f"{lead(sec)} = {enc} (ignore the separators)", pieces=[enc],
                dec=lambda p, seps=seps: "".join(c for c in p[0] if c not in seps))


@tech("sep-newlines", "token")
def t_sep_newlines(sec):
    enc = "\n".join(chunks(sec["s"], 8, 14))
    return dict(value=f"{lead(sec)} (wrapped):\n{enc}", pieces=[enc], dec=lambda p: p[0].replace("\n", ""))


@tech("char-per-line", "short")
def t_char_per_line(sec):
    s = sec["s"]
    if len(s) > 24:
        return None
    enc = "\n".join(s)
    return dict(value=f"{lead(sec)}\n{enc}", pieces=[enc], dec=lambda p: p[0].replace("\n", ""))


@tech("split-fields", "any")
def t_split_fields(sec):
    parts = split_n(sec["s"], R.randint(2, 4))
    names = pick([["part1", "part2", "part3", "part4"], ["a", "b", "c", "d"], ["first", "second", "third", "fourth"],
                  ["p_1", "p_2", "p_3", "p_4"], ["chunk_a", "chunk_b", "chunk_c", "chunk_d"]])
    v = {"what": sec["label"]}
    for n, p in zip(names, parts):
        v[n] = p
    v["how"] = pick(["concatenate in order", "join without spaces", "glue together"])
    return dict(value=v, pieces=parts, dec=lambda p: "".join(p))


@tech("split-list", "any")
def t_split_list(sec):
    parts = split_n(sec["s"], R.randint(2, 4))
    return dict(value=[f"{lead(sec)} in pieces:"] + parts, pieces=parts, dec=lambda p: "".join(p))


@tech("split-chat-turns", "any")
def t_split_chat(sec):
    parts = split_n(sec["s"], R.randint(2, 3))
    turns = [{"role": "user", "content": f"Save my {sec['label']} please, it's long so I'll send it in pieces. Part 1: {parts[0]}"},
             {"role": "assistant", "content": "Sure, send the next part."}]
    for i, p in enumerate(parts[1:], 2):
        turns.append({"role": "user", "content": f"part {i}: {p}"})
    turns.append({"role": "user", "content": "that's all, just put them together"})
    return dict(value=turns, pieces=parts, dec=lambda p: "".join(p))


@tech("split-lines-note", "any")
def t_split_lines(sec):
    a, b = split_n(sec["s"], 2)
    v = (f"{cap(lead(sec))}\nfirst half: {a}\n"
         + pick(["(the rest is on the sticky note, copying it here too)\n", "", "-- meeting notes in between --\n"])
         + f"second half: {b}")
    return dict(value=v, pieces=[a, b], dec=lambda p: "".join(p))


@tech("split-key-value", "token40")
def t_split_key_value(sec):
    a, b = split_n(sec["s"], 2)
    if len(a) < 5 or len(b) < 5:
        return None
    hx = a.encode().hex()
    v = f"second half of {lead(sec)}: {b} (first half is hex in the key)"
    return dict(value=v, key="mem_" + hx, pieces=[hx, b], dec=lambda p: bytes.fromhex(p[0]).decode() + p[1])


@tech("base64", "any")
def t_b64(sec):
    enc = base64.b64encode(sec["s"].encode()).decode()
    v = pick([f"{lead(sec)} (base64): {enc}", f"{lead(sec)}: {enc}", f"b64 of the {sec['label']} -> {enc}"])
    return dict(value=v, pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode())


@tech("base64url-nopad", "any")
def t_b64u(sec):
    enc = base64.urlsafe_b64encode(sec["s"].encode()).decode().rstrip("=")
    return dict(value=f"{lead(sec)} encoded: {enc}", pieces=[enc],
                dec=lambda p: base64.urlsafe_b64decode(p[0] + "=" * (-len(p[0]) % 4)).decode())


@tech("base32", "short")
def t_b32(sec):
    enc = base64.b32encode(sec["s"].encode()).decode()
    return dict(value=f"{lead(sec)} (base32) {enc}", pieces=[enc], dec=lambda p: base64.b32decode(p[0]).decode())


@tech("hex", "any")
def t_hex(sec):
    enc = sec["s"].encode().hex()
    return dict(value=pick([f"{lead(sec)} hex: {enc}", f"{lead(sec)} = 0x{enc}"]), pieces=[enc], dec=lambda p: bytes.fromhex(p[0]).decode())


@tech("hex-spaced-upper", "short")
def t_hex_spaced(sec):
    enc = " ".join(f"{b:02X}" for b in sec["s"].encode())
    return dict(value=f"{lead(sec)} (bytes): {enc}", pieces=[enc], dec=lambda p: bytes.fromhex(p[0].replace(" ", "")).decode())


@tech("percent-encoded-all", "short")
def t_pct(sec):
    enc = "".join(f"%{b:02X}" for b in sec["s"].encode())
    return dict(value=f"{lead(sec)}: {enc}", pieces=[enc], dec=lambda p: urllib.parse.unquote(p[0]))


@tech("unicode-escape", "short")
def t_uesc(sec):
    enc = "".join(f"\\u{ord(c):04x}" for c in sec["s"])
    return dict(value=f'{lead(sec)} = "{enc}"', pieces=[enc], dec=lambda p: p[0].encode().decode("unicode_escape"))


@tech("html-entities-dec", "short")
def t_html_dec(sec):
    enc = "".join(f"&#{ord(c)};" for c in sec["s"])
    return dict(value=f"<p>{lead(sec)}: {enc}</p>", pieces=[enc], dec=lambda p: __import__("html").unescape(p[0]))


@tech("html-entities-hex", "short")
def t_html_hex(sec):
    enc = "".join(f"&#x{ord(c):x};" for c in sec["s"])
    return dict(value=f"<span title=\"{sec['label']}\">{enc}</span>", pieces=[enc], dec=lambda p: __import__("html").unescape(p[0]))


@tech("reversed", "any")
def t_rev(sec):
    enc = sec["s"][::-1]
    if enc == sec["s"]:
        return None
    v = pick([f"{lead(sec)} (written backwards): {enc}", f"{lead(sec)} reversed so nobody reads it over my shoulder: {enc}", f"{lead(sec)} <- read right to left: {enc}"])
    return dict(value=v, pieces=[enc], dec=lambda p: p[0][::-1])


HOMO = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "i": "і", "A": "А", "B": "В", "C": "С", "E": "Е",
        "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "X": "Х", "0": "О"}
HOMO_BACK = {v: k for k, v in HOMO.items() if k != "0"}


@tech("homoglyphs", "any")
def t_homo(sec):
    s = sec["s"]
    idx = [i for i, c in enumerate(s) if c in HOMO and c != "0"]
    if not idx:
        return None
    chosen = R.sample(idx, max(1, len(idx) // 2))
    enc = "".join(HOMO[c] if i in chosen else c for i, c in enumerate(s))
    return dict(value=f"{lead(sec)}: {enc}", pieces=[enc], dec=lambda p: "".join(HOMO_BACK.get(c, c) for c in p[0]))


@tech("zero-width-chars", "any")
def t_zw(sec):
    s = sec["s"]
    zws = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
    enc = ""
    for c in s:
        enc += c
        if maybe(0.45):
            enc += pick(zws)
    if enc == s:
        enc = s[0] + "\u200b" + s[1:]
    return dict(value=f"{lead(sec)}: {enc}", pieces=[enc], dec=lambda p: "".join(c for c in p[0] if c not in zws))


@tech("fullwidth", "any")
def t_fw(sec):
    enc = "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in sec["s"])
    return dict(value=pick([f"{lead(sec)}：{enc}", f"{lead(sec)} → {enc}"]), pieces=[enc], dec=lambda p: unicodedata.normalize("NFKC", p[0]))


def math_bold(c):
    if "A" <= c <= "Z":
        return chr(0x1D400 + ord(c) - 65)
    if "a" <= c <= "z":
        return chr(0x1D41A + ord(c) - 97)
    if "0" <= c <= "9":
        return chr(0x1D7CE + ord(c) - 48)
    return c


@tech("math-alphanumerics", "any")
def t_math(sec):
    enc = "".join(math_bold(c) for c in sec["s"])
    return dict(value=f"✨ {lead(sec)}: {enc} ✨", pieces=[enc], dec=lambda p: unicodedata.normalize("NFKC", p[0]))


def circled(c):
    if c == "0":
        return "\u24ea"
    if "1" <= c <= "9":
        return chr(0x2460 + ord(c) - 49)
    if "a" <= c <= "z":
        return chr(0x24D0 + ord(c) - 97)
    if "A" <= c <= "Z":
        return chr(0x24B6 + ord(c) - 65)
    return c


@tech("circled-chars", "short")
def t_circled(sec):
    enc = "".join(circled(c) for c in sec["s"])
    return dict(value=f"{lead(sec)} {enc}", pieces=[enc], dec=lambda p: unicodedata.normalize("NFKC", p[0]))


SUP = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


@tech("superscript-digits", "digits")
def t_sup(sec):
    enc = "".join(SUP[c] for c in sec["s"])
    return dict(value=f"{lead(sec)}{enc}  (small numbers)", pieces=[enc], dec=lambda p: unicodedata.normalize("NFKC", p[0]))


NUMWORDS = {
    "en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
    "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
    "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"],
    "fr": ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"],
    "it": ["zero", "uno", "due", "tre", "quattro", "cinque", "sei", "sette", "otto", "nove"],
    "pt": ["zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove"],
    "ru": ["ноль", "один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять"],
    "pl": ["zero", "jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem", "dziewięć"],
    "ja": ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"],
    "zh": ["零", "一", "二", "三", "四", "五", "六", "七", "八", "九"],
}
NUM_INTRO = {"en": "the {l} is", "es": "el código es", "de": "der Code ist", "fr": "le code c'est", "it": "il codice è", "pt": "o código é",
             "ru": "код:", "pl": "kod to", "ja": "暗証番号は", "zh": "密码是"}


def numword_tech(lang):
    def fn(sec):
        words = [NUMWORDS[lang][int(c)] for c in sec["s"]]
        joiner = "" if lang in ("ja", "zh") else pick([" ", "-", ", "])
        enc = joiner.join(words)
        intro = NUM_INTRO[lang].format(l=sec["label"])
        v = f"{intro} {enc}" if lang != "en" else f"{cap(lead(sec))}: {enc}"
        if lang != "en":
            v = f"[{sec['label']}] {v}"
        wl = NUMWORDS[lang]

        def dec(p, wl=wl, joiner=joiner):
            t = p[0]
            if joiner == "":
                return "".join(str(wl.index(c)) for c in t)
            return "".join(str(wl.index(w)) for w in t.split(joiner))
        return dict(value=v, pieces=[enc], dec=dec)
    return fn


for _lg in ["en", "es", "de", "fr", "it", "pt", "ru", "pl", "ja", "zh"]:
    tech(f"digits-as-words-{_lg}", "digits")(numword_tech(_lg))

NATIVE_DIGITS = {"devanagari": "०१२३४५६७८९", "arabic-indic": "٠١٢٣٤٥٦٧٨٩", "persian": "۰۱۲۳۴۵۶۷۸۹", "thai": "๐๑๒๓๔๕๖๗๘๙", "bengali": "০১২৩৪৫৬৭৮৯"}
NATIVE_INTRO = {"devanagari": "पिन", "arabic-indic": "الرمز", "persian": "رمز", "thai": "รหัส", "bengali": "পিন"}


def native_digit_tech(script):
    def fn(sec):
        enc = "".join(NATIVE_DIGITS[script][int(c)] for c in sec["s"])
        return dict(value=f"{sec['label']} / {NATIVE_INTRO[script]}: {enc}", pieces=[enc],
                    dec=lambda p: "".join(str(unicodedata.digit(c)) for c in p[0]))
    return fn


for _sc in NATIVE_DIGITS:
    tech(f"native-digits-{_sc}", "digits")(native_digit_tech(_sc))


@tech("words-and-digits-mixed", "digits")
def t_mixed_words(sec):
    wl = NUMWORDS["en"]
    toks = [wl[int(c)] if maybe(0.5) else c for c in sec["s"]]
    enc = " ".join(toks)
    return dict(value=f"{cap(lead(sec))} -> {enc}", pieces=[enc],
                dec=lambda p: "".join(t if t.isdigit() else str(wl.index(t)) for t in p[0].split(" ")))


@tech("secret-in-key", "short")
def t_in_key(sec):
    hx = sec["s"].encode().hex()
    v = pick([f"{sec['label']} (value stored in the key, as requested)", f"see key for the {sec['label']}",
              f"{sec['label']} for {pick(['the cabin', 'work', 'mum', 'the office'])} — kept in the memory key"])
    return dict(value=v, key="mem_" + hx, pieces=[hx], dec=lambda p: bytes.fromhex(p[0]).decode())


@tech("secret-in-namespace", "short")
def t_in_ns(sec):
    ns = ["memories", "u" + NZ(R.randint(5, 9)), pick([f"{snake(sec['label'])}:{sec['s']}", sec["s"], f"vault/{sec['s']}"])]
    v = pick([f"namespace holds the {sec['label']}, don't lose it", f"{sec['label']} saved in this namespace path",
              f"moved the {sec['label']} into the namespace so it's out of the text"])
    return dict(value=v, ns=ns, pieces=[sec["s"]], dec=lambda p: p[0])


LEET_LABELS = ["p4ssw0rd", "p@$$w0rd", "pa55word", "passw0rd", "p4ss", "pw0rd", "5ecr3t", "s3cr3t", "t0k3n", "t0ken", "k3y", "ap1 k3y",
               "p1n", "c0d3", "l0g1n", "cr3ds", "pa$$", "clave" + "_" + "4cc3s0"]


@tech("leetspeak-label", "any")
def t_leet(sec):
    ll = pick(LEET_LABELS)
    svc = sec["label"].split(" ")[0]
    v = pick([f"{svc} {ll}: {sec['s']}", f"{ll} 4 {svc} = {sec['s']}", f"n3w {ll} ({svc}) -> {sec['s']}"])
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("label-value-separated", "any")
def t_label_sep(sec):
    st = R.randint(0, 2)
    if st == 0:
        v = {"k": sec["label"], "v": sec["s"]}
    elif st == 1:
        v = [["what", sec["label"]], ["value", sec["s"]], ["updated", date_iso()]]
    else:
        v = {"field": pick(["password", "secret", "pin", "token"]), "for": sec["label"].split(" ")[0], "data": sec["s"]}
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("label-after-value", "any")
def t_label_after(sec):
    turns = [{"from": "me", "text": f"save this: {sec['s']}"}, {"from": "assistant", "text": "Saved. What is it for?"},
             {"from": "me", "text": f"oh, that's {lead(sec)}"}]
    return dict(value=turns, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("markdown-table", "any")
def t_md(sec):
    rows = [("service", "user", "secret")]
    other = [(pick(["wiki", "jira", "grafana"]), pick(["admin", "me"]), "(in 1Password)")]
    mine = (sec["label"], pick(["me", "jdoe", "family"]), sec["s"])
    allr = other + [mine] if maybe(0.5) else [mine] + other
    v = "| " + " | ".join(rows[0]) + " |\n|---|---|---|\n" + "\n".join("| " + " | ".join(r) + " |" for r in allr)
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("csv-row", "any")
def t_csv(sec):
    if "," in sec["s"]:
        return None
    hdr = "name,url,username,password"
    row = f"{sec['label'].split(' ')[0]},https://{pick(['accounts.', 'login.', 'www.'])}{domain()}/,{email_for('en')},{sec['s']}"
    extra = f"wiki,https://wiki.{domain()}/,me,"
    v = hdr + "\n" + (row + "\n" + extra if maybe(0.5) else extra + "\n" + row)
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("code-comment", "any")
def t_comment(sec):
    s = sec["s"]
    v = pick([f"// TODO remove before release -- {sec['label']}: {s}\nconst client = createClient(process.env.{sec['var']});",
              f"def connect():\n    # old {sec['label']} was {s}, now read from env\n    return Client(os.environ['{sec['var']}'])",
              f"/* {sec['label']} = {s} */\nfunc init() {{ cfg.Load() }}",
              f"-- {sec['label']} (temp): {s}\nSELECT count(*) FROM sessions;"])
    return dict(value=v, pieces=[s], dec=lambda p: p[0])


@tech("sql-insert", "any")
def t_sql(sec):
    s = sec["s"]
    if "'" in s:
        return None
    if sec["var"] == "PASSWORD":
        v = pick([f"INSERT INTO users (email, password) VALUES ('{email_for('en')}', '{s}');",
                  f"UPDATE accounts SET password = '{s}' WHERE login = '{pick(['admin', 'mum', 'family'])}';"])
    else:
        v = pick([f"INSERT INTO integrations (name, api_key, created_at) VALUES ('{sec['label'].split(' ')[0].lower()}', '{s}', NOW());",
                  f"UPDATE settings SET value = '{s}' WHERE name = '{snake(sec['var'])}';"])
    return dict(value=v, pieces=[s], dec=lambda p: p[0])


@tech("shell-history", "any")
def t_hist(sec):
    s = sec["s"]
    if "'" in s:
        return None
    n = R.randint(400, 1900)
    cmd = pick([f"mysql -u root -p'{s}' -h db.internal", f"sshpass -p '{s}' ssh admin@{ipv4_private()}", f"export {sec['var']}='{s}'",
                f"curl -u admin:'{s}' https://{domain()}/api/health", f"psql 'postgresql://app:{s}@localhost/app'"])
    v = f"  {n}  cd ~/projects/{company()}\n  {n + 1}  {cmd}\n  {n + 2}  history | tail"
    return dict(value=v, pieces=[s], dec=lambda p: p[0])


@tech("git-url-credentials", "token40")
def t_git(sec):
    s = sec["s"]
    if any(c in s for c in "@/:#?"):
        return None
    host = pick(["github.com", "gitlab.com", "bitbucket.org", "git." + domain()])
    v = pick([f"git clone https://{pick(['oauth2', 'x-access-token', 'jdoe'])}:{s}@{host}/{company()}/{pick(['infra', 'web', 'mobile'])}.git",
              f"git remote set-url origin https://deploy:{s}@{host}/{company()}/api.git"])
    return dict(value=v, pieces=[s], dec=lambda p: p[0])


@tech("otpauth-uri", "totp")
def t_otp(sec):
    issuer = pick(["GitHub", "AWS", "Binance", "Okta", "Proton", "Kraken"])
    v = f"otpauth://totp/{issuer}:{email_for('en').replace('@', '%40')}?secret={sec['s']}&issuer={issuer}&algorithm=SHA1&digits=6&period=30"
    if maybe(0.5):
        v = f"QR from the 2FA setup page decoded to: {v}"
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("wifi-qr-string", "wifi")
def t_wifiqr(sec):
    v = f"WIFI:T:WPA;S:{ssid()};P:{sec['s']};;"
    if maybe(0.6):
        v = pick(["text inside the QR on the fridge: ", "guest QR payload: "]) + v
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("quoted-printable", "nonascii")
def t_qp(sec):
    body = f"Hallo, {sec['label']}: {sec['s']}\n"
    enc = quopri.encodestring(body.encode("utf-8")).decode("ascii")
    if enc.strip() == body.strip():
        return None
    v = "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n" + enc
    return dict(value=v, pieces=[enc], dec=lambda p: quopri.decodestring(p[0].encode()).decode("utf-8"))


@tech("rot13", "any")
def t_rot13(sec):
    enc = codecs.encode(sec["s"], "rot13")
    if enc == sec["s"]:
        return None
    return dict(value=pick([f"{lead(sec)} (rot13): {enc}", f"rot13'd {sec['label']} -> {enc}"]), pieces=[enc], dec=lambda p: codecs.decode(p[0], "rot13"))


def rot47(s):
    return "".join(chr(33 + ((ord(c) - 33 + 47) % 94)) if 33 <= ord(c) <= 126 else c for c in s)


@tech("rot47", "any")
def t_rot47(sec):
    enc = rot47(sec["s"])
    return dict(value=f"{lead(sec)} [rot47] {enc}", pieces=[enc], dec=lambda p: rot47(p[0]))


def caesar(s, k):
    out = []
    for c in s:
        if "a" <= c <= "z":
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        elif "A" <= c <= "Z":
            out.append(chr((ord(c) - 65 + k) % 26 + 65))
        elif "0" <= c <= "9":
            out.append(chr((ord(c) - 48 + k) % 10 + 48))
        else:
            out.append(c)
    return "".join(out)


@tech("caesar-shift", "any")
def t_caesar(sec):
    k = R.randint(1, 5)
    enc = caesar(sec["s"], k)
    return dict(value=f"{lead(sec)}, every character shifted +{k}: {enc}", pieces=[enc], dec=lambda p, k=k: caesar(p[0], -k))


@tech("json-in-string", "any")
def t_json_str(sec):
    inner = json.dumps({"user": email_for("en"), "password" if sec["var"] in ("PASSWORD", "PIN") else "api_key": sec["s"]})
    v = {"event": pick(["login_attempt", "webhook_retry", "sync_job"]), "ts": ts_iso(), "body": inner}
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("double-encoded-json", "any")
def t_json2(sec):
    inner = json.dumps({"name": sec["label"], "secret": sec["s"]})
    v = "payload=" + json.dumps(json.dumps({"data": inner}))
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("yaml-anchor", "any")
def t_yaml_anchor(sec):
    v = (f"defaults: &creds\n  user: {pick(['app', 'admin', 'me'])}\n  secret: {yq(sec['s'])}\n\nproduction:\n  <<: *creds\n  host: {domain()}\n"
         f"staging:\n  <<: *creds")
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0]) if yq(sec["s"]) == sec["s"] or '"' not in sec["s"] else None


@tech("gzip-base64", "token")
def t_gzip(sec):
    enc = base64.b64encode(gzip.compress(sec["s"].encode(), mtime=0)).decode()
    return dict(value=f"{sec['label']} (gzip+b64): {enc}", pieces=[enc], dec=lambda p: gzip.decompress(base64.b64decode(p[0])).decode())


@tech("data-uri", "any")
def t_datauri(sec):
    enc = base64.b64encode(f"{sec['label']}: {sec['s']}".encode()).decode()
    uri = f"data:text/plain;base64,{enc}"
    return dict(value=pick([f"open this in the browser: {uri}", uri]), pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode())


@tech("python-bytes-escape", "short")
def t_pybytes(sec):
    enc = "".join(f"\\x{b:02x}" for b in sec["s"].encode())
    return dict(value=f"{sec['var'].lower()} = b'{enc}'.decode()", pieces=[enc], dec=lambda p: bytes.fromhex(p[0].replace("\\x", "")).decode())


@tech("js-fromcharcode", "short")
def t_fcc(sec):
    enc = ",".join(str(ord(c)) for c in sec["s"])
    return dict(value=f"const {camel(sec['var'])} = String.fromCharCode({enc});", pieces=[enc],
                dec=lambda p: "".join(chr(int(x)) for x in p[0].split(",")))


@tech("ascii-decimal", "short")
def t_ascii(sec):
    enc = " ".join(str(ord(c)) for c in sec["s"])
    return dict(value=f"{lead(sec)} as ascii codes: {enc}", pieces=[enc], dec=lambda p: "".join(chr(int(x)) for x in p[0].split()))


@tech("binary-octets", "short")
def t_bin(sec):
    if len(sec["s"]) > 30:
        return None
    enc = " ".join(f"{b:08b}" for b in sec["s"].encode())
    return dict(value=f"{lead(sec)}:\n{enc}", pieces=[enc], dec=lambda p: bytes(int(x, 2) for x in p[0].split()).decode())


@tech("octal-escapes", "short")
def t_oct(sec):
    enc = "".join(f"\\{b:03o}" for b in sec["s"].encode())
    return dict(value=f"printf '{enc}' | pbcopy   # {sec['label']}", pieces=[enc],
                dec=lambda p: bytes(int(x, 8) for x in p[0].split("\\")[1:]).decode())


@tech("c-byte-array", "short")
def t_carr(sec):
    enc = ", ".join(f"0x{b:02x}" for b in sec["s"].encode())
    return dict(value=f"static const uint8_t k_{snake(sec['var'])}[] = {{{enc}}};", pieces=[enc],
                dec=lambda p: bytes(int(x, 16) for x in p[0].split(", ")).decode())


MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..", "j": ".---",
         "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-", "r": ".-.", "s": "...", "t": "-",
         "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..", "0": "-----", "1": ".----", "2": "..---",
         "3": "...--", "4": "....-", "5": ".....", "6": "-....", "7": "--...", "8": "---..", "9": "----."}
MORSE_BACK = {v: k for k, v in MORSE.items()}


@tech("morse-code", "lower")
def t_morse(sec):
    s = sec["s"]
    if not all(c in MORSE for c in s):
        return None
    enc = " ".join(MORSE[c] for c in s)
    return dict(value=f"{lead(sec)} in morse (kids' game): {enc}", pieces=[enc], dec=lambda p: "".join(MORSE_BACK[x] for x in p[0].split(" ")))


NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf", "h": "hotel", "i": "india",
        "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november", "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo",
        "s": "sierra", "t": "tango", "u": "uniform", "v": "victor", "w": "whiskey", "x": "x-ray", "y": "yankee", "z": "zulu"}
SYMNAME = {"-": "dash", "_": "underscore", ".": "dot", "!": "exclamation", "@": "at", "#": "hash", "$": "dollar", "%": "percent",
           "&": "ampersand", "*": "star", "?": "question mark", "+": "plus", "/": "slash", "=": "equals", "~": "tilde"}
NATO_BACK = {v: k for k, v in NATO.items()}
SYM_BACK = {v: k for k, v in SYMNAME.items()}


@tech("nato-phonetic", "password")
def t_nato(sec):
    s = sec["s"]
    toks = []
    for c in s:
        if c.isalpha() and c.lower() in NATO:
            toks.append(("capital " if c.isupper() else "") + NATO[c.lower()])
        elif c.isdigit():
            toks.append(NUMWORDS["en"][int(c)])
        elif c in SYMNAME:
            toks.append(SYMNAME[c])
        else:
            return None
    enc = ", ".join(toks)

    def dec(p):
        out = ""
        for t in p[0].split(", "):
            if t.startswith("capital "):
                out += NATO_BACK[t[8:]].upper()
            elif t in NATO_BACK:
                out += NATO_BACK[t]
            elif t in NUMWORDS["en"]:
                out += str(NUMWORDS["en"].index(t))
            else:
                out += SYM_BACK[t]
        return out
    return dict(value=f"{sec['label']} as I read it out on the phone: {enc}", pieces=[enc], dec=dec)


@tech("deep-nested", "any")
def t_deep(sec):
    if sec["var"] in ("PASSWORD", "PIN"):
        path = pick([["home", "devices", "router", "admin"], ["notes", "2025", "march", "misc"], ["family", "accounts", "shared", "login"]])
    else:
        path = pick([["profile", "settings", "integrations", "legacy"], ["work", "projects", "billing", "prod"], ["notes", "2025", "march", "misc"]])
    leaf = {pick(["secret", "value", "pw", "key"]): sec["s"], "label": sec["label"]}
    v = leaf
    for k in reversed(path):
        v = {k: v}
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("rtl-override", "any")
def t_rtl(sec):
    enc = "\u202e" + sec["s"][::-1] + "\u202c"
    return dict(value=f"{lead(sec)}: {enc}", pieces=[enc], dec=lambda p: p[0].strip("\u202e\u202c")[::-1])


@tech("combining-strikethrough", "short")
def t_strike(sec):
    enc = "".join(c + "\u0336" for c in sec["s"])
    return dict(value=f"{lead(sec)} (crossed out but still valid): {enc}", pieces=[enc], dec=lambda p: p[0].replace("\u0336", ""))


@tech("emoji-separated", "short")
def t_emoji(sec):
    e = pick(["🔑", "⭐", "🐱", "➖"])
    enc = e.join(sec["s"])
    return dict(value=f"{lead(sec)} {enc}", pieces=[enc], dec=lambda p, e=e: p[0].replace(e, ""))


@tech("shell-default-expansion", "any")
def t_default(sec):
    s = sec["s"]
    if any(c in s for c in "}$'\""):
        return None
    v = pick([f"services:\n  db:\n    environment:\n      - {sec['var']}=${{{sec['var']}:-{s}}}",
              f"#!/bin/sh\n: \"${{{sec['var']}:={s}}}\"\nexec ./server --auth \"${sec['var']}\""])
    return dict(value=v, pieces=[s], dec=lambda p: p[0])


@tech("basic-auth-header", "any")
def t_basic(sec):
    user = pick(["admin", "api", "jdoe", "deploy", "ci"])
    enc = base64.b64encode(f"{user}:{sec['s']}".encode()).decode()
    v = pick([f"GET /api/v1/export HTTP/1.1\nHost: {domain()}\nAuthorization: Basic {enc}",
              f"curl -H 'Authorization: Basic {enc}' https://{domain()}/admin/metrics"])
    return dict(value=v, pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode().split(":", 1)[1])


@tech("docker-config-auth", "any")
def t_dockercfg(sec):
    user = pick(["ci-bot", "jdoe", "robot$deployer"])
    enc = base64.b64encode(f"{user}:{sec['s']}".encode()).decode()
    v = {"auths": {pick(["registry.gitlab.com", "ghcr.io", "index.docker.io/v1/", "registry." + domain()]): {"auth": enc}}}
    return dict(value=v, pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode().split(":", 1)[1])


@tech("k8s-secret-base64-data", "any")
def t_k8sdata(sec):
    enc = base64.b64encode(sec["s"].encode()).decode()
    v = f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\ntype: Opaque\ndata:\n  {sec['var']}: {enc}"
    return dict(value=v, pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode())


@tech("dsn-percent-encoded-password", "special")
def t_dsn(sec):
    enc = urllib.parse.quote(sec["s"], safe="")
    if enc == sec["s"]:
        return None
    v = f"DATABASE_URL=postgresql://{db_user()}:{enc}@{ipv4_private()}:5432/{db_name()}?sslmode=require"
    return dict(value=v, pieces=[enc], dec=lambda p: urllib.parse.unquote(p[0]))


@tech("xml-cdata", "any")
def t_cdata(sec):
    v = f"<credentials>\n  <service>{sec['label']}</service>\n  <secret><![CDATA[{sec['s']}]]></secret>\n</credentials>"
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("code-string-concat", "token")
def t_concat(sec):
    parts = split_n(sec["s"], R.randint(3, 5))
    v = pick([f"{sec['var']} = " + " + ".join(f'"{p}"' for p in parts), f"const key = " + " + ".join(f"'{p}'" for p in parts) + ";"])
    return dict(value=v, pieces=parts, dec=lambda p: "".join(p))


@tech("array-join-code", "token")
def t_join(sec):
    parts = split_n(sec["s"], R.randint(3, 5))
    v = pick(["const token = [" + ", ".join(f"'{p}'" for p in parts) + "].join('');",
              f"{sec['var'].lower()} = ''.join([" + ", ".join(f'"{p}"' for p in parts) + "])"])
    return dict(value=v, pieces=parts, dec=lambda p: "".join(p))


@tech("double-percent-encoded", "token")
def t_pct2(sec):
    enc = urllib.parse.quote(urllib.parse.quote(f"token={sec['s']}", safe=""), safe="")
    v = f"https://login.{domain()}/redirect?next=https%3A%2F%2Fapp.{domain()}%2Fcb%3F{enc}"
    return dict(value=v, pieces=[enc], dec=lambda p: urllib.parse.unquote(urllib.parse.unquote(p[0])))


@tech("base58", "short")
def t_b58(sec):
    enc = b58encode(sec["s"].encode())
    return dict(value=f"{lead(sec)} (base58): {enc}", pieces=[enc], dec=lambda p: b58decode(p[0]).decode())


def b58decode(s):
    n = 0
    for c in s:
        n = n * 58 + B58A.index(c)
    raw = n.to_bytes((n.bit_length() + 7) // 8, "big")
    pad = len(s) - len(s.lstrip("1"))
    return b"\0" * pad + raw


@tech("ascii85", "any")
def t_a85(sec):
    enc = base64.a85encode(sec["s"].encode()).decode()
    return dict(value=f"{lead(sec)} <~{enc}~>", pieces=[enc], dec=lambda p: base64.a85decode(p[0]).decode())


@tech("uuencode", "short")
def t_uu(sec):
    enc = binascii.b2a_uu(sec["s"].encode()).decode().rstrip("\n")
    v = f"begin 644 {pick(['pw.txt', 'key.txt', 'note.txt'])}\n{enc}\n`\nend"
    return dict(value=v, pieces=[enc], dec=lambda p: binascii.a2b_uu(p[0] + "\n").decode())


@tech("diff-hunk", "any")
def t_diff(sec):
    old = hs("password")["s"] if sec["var"] == "PASSWORD" else H(len(sec["s"]) if len(sec["s"]) < 40 else 32)
    key = snake(sec["var"])
    v = f"--- a/config/prod.yml\n+++ b/config/prod.yml\n@@ -3,3 +3,3 @@\n host: {domain()}\n-{key}: {old}\n+{key}: {sec['s']}"
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("dotted-path-keys", "any")
def t_dotted(sec):
    pre = pick(["db.prod", "integrations." + snake(sec["label"].split(" ")[0]), "home.router", "accounts.main"])
    v = {pre + ".host": domain(), pre + ".user": pick(["admin", "me", "app"]), pre + "." + pick(["password", "secret", "pw", "token"]): sec["s"]}
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("html-input-value", "any")
def t_input(sec):
    if '"' in sec["s"] or "&" in sec["s"] or "<" in sec["s"]:
        return None
    v = f'<form action="/login" method="post">\n  <input name="user" value="{email_for("en")}">\n  <input type="password" name="pw" value="{sec["s"]}">\n</form>'
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("graphql-variables", "any")
def t_gql(sec):
    v = {"query": "mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }",
         "variables": {"email": email_for("en"), "password": sec["s"]}}
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("python-dict-repr", "any")
def t_pyrepr(sec):
    if "'" in sec["s"]:
        return None
    v = f"{ts_plain()} DEBUG auth: payload={{'username': '{pick(['admin', 'jdoe', 'svc'])}', 'password': '{sec['s']}', 'remember': True}}"
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("mime-base64-part", "any")
def t_mime(sec):
    body = pick([f"Hi! As promised, {sec['label']}: {sec['s']}\nDelete after reading :)", f"{sec['label']} -> {sec['s']}\n"])
    enc = base64.encodebytes(body.encode()).decode().rstrip("\n")
    v = f"--b1_{H(16)}\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: base64\n\n{enc}"
    return dict(value=v, pieces=[enc], dec=lambda p: base64.b64decode(p[0].replace("\n", "")).decode())


@tech("helm-template-default", "any")
def t_helm(sec):
    if '"' in sec["s"]:
        return None
    v = f'env:\n  - name: {sec["var"]}\n    value: {{{{ .Values.auth.{camel(sec["var"])} | default "{sec["s"]}" | quote }}}}'
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("terraform-variable-default", "any")
def t_tfvar(sec):
    v = f'variable "{snake(sec["var"])}" {{\n  type      = string\n  sensitive = true\n  default   = "{sec["s"]}"\n}}'
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("url-fragment-token", "token")
def t_frag(sec):
    v = f"https://app.{domain()}/oauth/callback#access_token={sec['s']}&token_type=Bearer&expires_in={pick([3600, 7200, 86400])}"
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("reversed-then-base64", "any")
def t_revb64(sec):
    enc = base64.b64encode(sec["s"][::-1].encode()).decode()
    return dict(value=f"{lead(sec)} (reversed, then base64): {enc}", pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode()[::-1])


@tech("base64-json-payload", "any")
def t_b64json(sec):
    enc = base64.b64encode(json.dumps({"svc": sec["label"], "cred": sec["s"]}).encode()).decode()
    v = {"type": pick(["backup", "sync_state", "export"]), "payload": enc}
    return dict(value=v, pieces=[enc], dec=lambda p: base64.b64decode(p[0]).decode())


@tech("terse-keys", "any")
def t_terse(sec):
    v = pick([f"[{pick(['db', 'nas', 'mail', 'vpn'])}]\nh={domain()}\nu={pick(['admin', 'me'])}\np={sec['s']}",
              {"h": domain(), "u": pick(["admin", "me"]), "p": sec["s"]}])
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("quoted-email-reply", "any")
def t_quoted(sec):
    v = (f"Thanks, that worked!\n\nOn {pick(['Mon', 'Tue', 'Fri'])}, {pick(PEOPLE_EN)} wrote:\n> Hi,\n> > {sec['label']}? \n> here you go: {sec['s']}\n> Cheers")
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("forwarded-otp-sms", "digits")
def t_sms(sec):
    s = D(6)
    app = pick(["WhatsApp", "Telegram", "Revolut", "PayPal", "Google", "Microsoft"])
    v = pick([f"Fwd: <#> Your {app} code: {s}. Don't share this code with anyone. 4sgLq1p5sV6",
              f"forwarding so you can log in: {s} is your {app} verification code. It expires in 10 minutes."])
    return dict(value=v, pieces=[s], dec=lambda p: p[0], secret_override=s)


@tech("protobuf-text", "any")
def t_pbtxt(sec):
    v = f"credentials {{\n  provider: \"{sec['label'].split(' ')[0].lower()}\"\n  secret_value: \"{sec['s']}\"\n  rotated: false\n}}"
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("toml-multiline-string", "any")
def t_toml_ml(sec):
    v = f"[auth]\nnote = \"\"\"\nsee below\n{sec['label']}:\n{sec['s']}\n\"\"\""
    return dict(value=v, pieces=[sec["s"]], dec=lambda p: p[0])


@tech("interleaved-with-decoys", "short")
def t_interleave(sec):
    s = sec["s"]
    filler = "x" if "x" not in s else "#" if "#" not in s else None
    if filler is None or len(s) > 24:
        return None
    enc = "".join(c + filler for c in s)
    return dict(value=f"{lead(sec)} (drop every 2nd char): {enc}", pieces=[enc], dec=lambda p: p[0][::2])


OAUTHY = {"google-oauth-access-token", "github-oauth-token", "github-user-to-server-token", "slack-user-token", "facebook-page-token",
          "jwt-bearer-token", "dropbox-access-token", "instagram-graph-token", "salesforce-access-token", "square-access-token",
          "box-developer-token", "twitch-chat-oauth"}
POOL_OVERRIDE = {
    "split-fields": "cred", "split-list": "cred", "split-chat-turns": "cred", "split-lines-note": "cred", "homoglyphs": "cred",
    "csv-row": "password", "code-comment": "cred", "sql-insert": "cred", "shell-history": "cred", "docker-config-auth": "cred",
    "basic-auth-header": "cred", "k8s-secret-base64-data": "cred", "diff-hunk": "cred", "dotted-path-keys": "cred",
    "html-input-value": "password", "graphql-variables": "password", "python-dict-repr": "password", "helm-template-default": "cred",
    "terraform-variable-default": "cred", "shell-default-expansion": "cred", "yaml-anchor": "cred", "protobuf-text": "cred",
    "toml-multiline-string": "cred", "json-in-string": "cred", "double-encoded-json": "cred", "terse-keys": "cred",
    "url-fragment-token": "oauth", "label-after-value": "cred", "leetspeak-label": "cred", "zero-width-chars": "cred",
    "rtl-override": "cred", "caesar-shift": "cred", "rot13": "cred", "rot47": "cred", "reversed": "cred",
}
TECH[:] = [(n, POOL_OVERRIDE.get(n, p), f) for n, p, f in TECH]

PAD_PRE = ["Saving this for later: ", "From the handover doc — ", "(copied from my old phone) ", "For next week: ", "Keep this one: ",
           "Moving notes from paper to here. "]
PAD_POST = [" — don't share", " (updated yesterday)", " — needed for the trip", " / checked it works", " (family account)"]


def hard_spec(name, pool, fn):
    sec = hs(pool)
    out = fn(sec)
    if out is None:
        return None
    if isinstance(out["value"], str) and len(out["value"]) < 60 and maybe(0.8):
        if "\n" in out["value"]:
            out["value"] = pick(PAD_PRE).rstrip(" —") + "\n" + out["value"] if maybe(0.5) else out["value"] + "\n" + pick(PAD_POST).lstrip(" —/")
        else:
            out["value"] = pick(PAD_PRE) + out["value"] if maybe(0.5) else out["value"] + pick(PAD_POST)
    secret = out.pop("secret_override", sec["s"])
    kind = sec["kind"] if "secret_override" not in out else "one-time-code"
    if name == "forwarded-otp-sms":
        kind = "one-time-code"
    lang = "en"
    if name.startswith("digits-as-words-"):
        lang = name.rsplit("-", 1)[1]
    elif name.startswith("native-digits-"):
        lang = {"devanagari": "hi", "arabic-indic": "ar", "persian": "fa", "thai": "th", "bengali": "bn"}[name[len("native-digits-"):]]
    spec = dict(label="secret", variant="hard", segment=name, kind=kind, secret=secret, lang=lang, group="hard")
    spec.update(out)
    return spec


def gen_hard_records(per=5):
    for name, pool, fn in TECH:
        for _ in range(per):
            produce(lambda: hard_spec(name, pool, fn), tries=80)


# ---------------------------------------------------------------------------
# PART F: benign / plain -- ordinary memories in 20 languages
# ---------------------------------------------------------------------------
NAMES = {
    "en": ["Emma", "Liam", "Olivia", "Noah", "Ava", "James", "Sophie", "Daniel", "Grace", "Ethan"],
    "es": ["Lucía", "Mateo", "Sofía", "Hugo", "Carmen", "Javier"], "fr": ["Camille", "Léo", "Chloé", "Hugo", "Manon", "Louis"],
    "de": ["Lena", "Jonas", "Mia", "Felix", "Hannah", "Lukas"], "it": ["Giulia", "Marco", "Chiara", "Luca", "Sara", "Matteo"],
    "pt": ["Ana", "João", "Beatriz", "Pedro", "Larissa", "Rafael"], "nl": ["Sanne", "Daan", "Lotte", "Bram", "Fleur", "Sem"],
    "pl": ["Zofia", "Jakub", "Maja", "Kacper", "Julia", "Antoni"], "sv": ["Elsa", "Oscar", "Maja", "William", "Astrid", "Hugo"],
    "tr": ["Elif", "Emir", "Zeynep", "Yusuf", "Defne", "Mert"], "ru": ["Анна", "Дмитрий", "Мария", "Иван", "Ольга", "Сергей"],
    "el": ["Μαρία", "Γιώργος", "Ελένη", "Νίκος", "Κατερίνα", "Δημήτρης"], "ar": ["ليلى", "أحمد", "نور", "يوسف", "سارة", "عمر"],
    "he": ["נועה", "איתי", "מאיה", "יונתן", "תמר", "עומר"], "hi": ["प्रिया", "राहुल", "अनन्या", "अर्जुन", "नेहा", "विकास"],
    "zh": ["王芳", "李伟", "张敏", "刘洋", "陈静", "杨帆"], "ja": ["佐藤", "鈴木", "高橋", "田中", "伊藤", "山本"],
    "ko": ["지민", "서연", "민준", "하은", "도윤", "수빈"], "vi": ["Lan", "Minh", "Hương", "Tuấn", "Mai", "Dũng"],
    "id": ["Putri", "Budi", "Sari", "Agus", "Dewi", "Rizky"],
}
CITIES = {
    "en": ["Leeds", "Boston", "Denver", "Bristol", "Austin", "Dublin", "Toronto"], "es": ["Sevilla", "Valencia", "Bilbao", "Málaga", "Zaragoza"],
    "fr": ["Lyon", "Nantes", "Lille", "Bordeaux", "Toulouse"], "de": ["Köln", "Leipzig", "Hamburg", "Freiburg", "Dresden"],
    "it": ["Bologna", "Torino", "Napoli", "Firenze", "Bari"], "pt": ["Recife", "Curitiba", "Porto Alegre", "Salvador", "Belo Horizonte"],
    "nl": ["Utrecht", "Rotterdam", "Groningen", "Eindhoven", "Haarlem"], "pl": ["Kraków", "Gdańsk", "Wrocław", "Poznań", "Łódź"],
    "sv": ["Göteborg", "Malmö", "Uppsala", "Umeå", "Lund"], "tr": ["İzmir", "Ankara", "Bursa", "Antalya", "Eskişehir"],
    "ru": ["Казань", "Новосибирск", "Екатеринбург", "Самара", "Пермь"], "el": ["Θεσσαλονίκη", "Πάτρα", "Ηράκλειο", "Βόλος", "Λάρισα"],
    "ar": ["عمّان", "الدوحة", "جدة", "الرباط", "بيروت"], "he": ["חיפה", "ירושלים", "באר שבע", "תל אביב", "נתניה"],
    "hi": ["पुणे", "जयपुर", "लखनऊ", "इंदौर", "भोपाल"], "zh": ["成都", "杭州", "南京", "西安", "厦门"], "ja": ["札幌", "福岡", "名古屋", "仙台", "京都"],
    "ko": ["부산", "대구", "인천", "광주", "대전"], "vi": ["Đà Nẵng", "Huế", "Hải Phòng", "Cần Thơ", "Nha Trang"],
    "id": ["Bandung", "Surabaya", "Yogyakarta", "Medan", "Semarang"],
}
CARRIERS = {"en": ["BA", "UA", "DL", "AA", "EI"], "es": ["IB", "VY", "UX"], "fr": ["AF", "TO"], "de": ["LH", "EW", "DE"], "it": ["AZ", "FR"],
            "pt": ["LA", "G3", "AD"], "nl": ["KL", "HV"], "pl": ["LO", "W6"], "sv": ["SK", "DY"], "tr": ["TK", "PC"], "ru": ["SU", "S7"],
            "el": ["A3", "OA"], "ar": ["RJ", "QR", "SV"], "he": ["LY", "IZ"], "hi": ["AI", "6E", "UK"], "zh": ["CA", "MU", "CZ"],
            "ja": ["NH", "JL"], "ko": ["KE", "OZ", "7C"], "vi": ["VN", "VJ"], "id": ["GA", "JT", "QZ"]}
MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]


def phone_l(lang):
    return {
        "en": lambda: pick([f"+1 {NZ(3)}-{D(3)}-{D(4)}", f"+44 7{D(3)} {D(6)}", f"(0{D(2)}) {D(4)} {D(4)}"]),
        "es": lambda: f"+34 6{D(2)} {D(3)} {D(3)}", "fr": lambda: f"06 {D(2)} {D(2)} {D(2)} {D(2)}", "de": lambda: pick([f"+49 15{D(1)} {D(7)}", f"0171 {D(7)}"]),
        "it": lambda: f"+39 3{D(2)} {D(3)} {D(4)}", "pt": lambda: f"+55 {NZ(2)} 9{D(4)}-{D(4)}", "nl": lambda: f"06-{D(8)}",
        "pl": lambda: f"+48 {NZ(3)} {D(3)} {D(3)}", "sv": lambda: f"070-{D(3)} {D(2)} {D(2)}", "tr": lambda: f"0 (5{D(2)}) {D(3)} {D(2)} {D(2)}",
        "ru": lambda: f"+7 9{D(2)} {D(3)}-{D(2)}-{D(2)}", "el": lambda: f"69{D(8)}", "ar": lambda: pick([f"+962 7{D(8)}", f"+966 5{D(8)}"]),
        "he": lambda: f"05{D(1)}-{D(7)}", "hi": lambda: f"+91 9{D(4)} {D(5)}", "zh": lambda: f"13{D(1)} {D(4)} {D(4)}",
        "ja": lambda: f"090-{D(4)}-{D(4)}", "ko": lambda: f"010-{D(4)}-{D(4)}", "vi": lambda: f"09{D(2)} {D(3)} {D(3)}",
        "id": lambda: f"0812-{D(4)}-{D(4)}",
    }[lang]()


def addr_l(lang):
    n = R.randint(1, 180)
    return {
        "en": lambda: f"{n} {pick(['Elm', 'Oak', 'Maple', 'Station', 'Church', 'Mill'])} {pick(['Street', 'Road', 'Avenue', 'Lane'])}",
        "es": lambda: f"Calle {pick(['Mayor', 'del Sol', 'de Alcalá', 'San Vicente'])} {n}, {R.randint(1, 6)}º {pick('ABCD')}",
        "fr": lambda: f"{n} rue {pick(['des Lilas', 'Victor Hugo', 'de la Paix', 'Pasteur'])}",
        "de": lambda: f"{pick(['Linden', 'Garten', 'Bahnhof', 'Schiller', 'Berg'])}straße {n}",
        "it": lambda: f"Via {pick(['Garibaldi', 'Roma', 'Dante', 'Mazzini'])} {n}",
        "pt": lambda: f"Rua {pick(['das Flores', 'Augusta', 'XV de Novembro', 'Sete de Setembro'])}, {n}, apto {R.randint(11, 904)}",
        "nl": lambda: f"{pick(['Kerkstraat', 'Dorpsstraat', 'Molenweg', 'Prinsengracht'])} {n}",
        "pl": lambda: f"ul. {pick(['Długa', 'Mickiewicza', 'Kwiatowa', 'Słoneczna'])} {n}/{R.randint(1, 40)}",
        "sv": lambda: f"{pick(['Storgatan', 'Kungsgatan', 'Drottninggatan', 'Skolgatan'])} {n}",
        "tr": lambda: f"{pick(['Atatürk Cad.', 'Cumhuriyet Mah.', 'İstiklal Cad.'])} No: {n} D: {R.randint(1, 20)}",
        "ru": lambda: f"ул. {pick(['Ленина', 'Пушкина', 'Садовая', 'Гагарина'])}, д. {n}, кв. {R.randint(1, 200)}",
        "el": lambda: f"{pick(['Ερμού', 'Πανεπιστημίου', 'Τσιμισκή'])} {n}", "ar": lambda: f"شارع {pick(['الملك فهد', 'الجامعة', 'الرينبو'])} {n}",
        "he": lambda: f"רחוב {pick(['הרצל', 'ויצמן', 'בן יהודה'])} {n}", "hi": lambda: f"{n}, {pick(['एमजी रोड', 'स्टेशन रोड', 'गांधी नगर'])}",
        "zh": lambda: f"{pick(['人民路', '中山路', '解放路'])}{n}号{R.randint(1, 30)}栋{R.randint(101, 2505)}室",
        "ja": lambda: f"{pick(['中央区', '北区', '青葉区'])}{R.randint(1, 5)}丁目{R.randint(1, 20)}-{R.randint(1, 15)}",
        "ko": lambda: f"{pick(['중구', '해운대구', '수성구'])} {pick(['중앙대로', '해운대로', '달구벌대로'])} {n}",
        "vi": lambda: f"{n} {pick(['Lê Lợi', 'Nguyễn Huệ', 'Trần Phú'])}", "id": lambda: f"Jl. {pick(['Merdeka', 'Sudirman', 'Diponegoro'])} No. {n}",
    }[lang]()


def date_l(lang):
    d, m = R.randint(1, 28), R.randint(1, 12)
    if lang == "en":
        return pick([f"{MONTHS_EN[m - 1]} {d}", f"{d} {MONTHS_EN[m - 1][:3]}"])
    if lang in ("zh", "ja"):
        return f"{m}月{d}日"
    if lang == "ko":
        return f"{m}월 {d}일"
    if lang in ("de", "pl", "ru", "tr"):
        return f"{d:02d}.{m:02d}."
    return f"{d:02d}/{m:02d}"


def time_l(lang):
    h, mi = R.randint(7, 19), pick([0, 15, 30, 45])
    if lang == "en" and maybe(0.5):
        return f"{(h - 1) % 12 + 1}:{mi:02d}{'am' if h < 12 else 'pm'}"
    return f"{h}:{mi:02d}"


def order_no():
    return pick([f"#{D(7)}", f"{D(3)}-{D(7)}-{D(7)}", f"ORD-{UN(8)}", NZ(10), f"{UN(2)}{D(9)}"])


BP = {
    "en": [
        "I prefer aisle seats and vegetarian meals on long flights.", "Dentist appointment with Dr. {name} on {date} at {time}. Bring the insurance card.",
        "{name}'s new number is {phone}, email {email}.", "Allergic to penicillin — had a rash in 2019. Also mild lactose intolerance.",
        "Order {order} from IKEA should arrive on {date}; the wardrobe comes in 3 boxes.", "Flight {flight} to {city} departs {time}, terminal 2. Check-in opens 24h before.",
        "Grandma's lasagna: 500 g ricotta, 2 eggs, 400 g minced beef, fresh basil, bake 45 min at 180°C.",
        "Meeting notes {date}: launch moves to Q3; {name} owns the pricing page, I own the onboarding emails.",
        "New address from {date}: {addr}, {city}. Need to update the bank and the GP.", "Kids' shoe sizes: Mia 31, Leo 28. Check again in spring.",
        "Blood type O negative. Donated blood on {date}, next possible in 12 weeks.", "Takes 50 mg sertraline every morning and vitamin D 1000 IU with lunch.",
        "Likes dark roast coffee, no sugar, oat milk. Hates cilantro.", "{name}'s birthday is on {date}; she's into pottery, maybe gift a class voucher.",
        "Vet: Dr. {name}, {phone}. Dog's rabies booster is due in {month}.", "Running plan: 5 km Tuesday, intervals Thursday, long run 12 km Sunday.",
        "Car service booked for {date} at {time}; ask about the squeaky brakes.", "Book club picks for autumn: The Overstory, Piranesi, Pachinko.",
        "Prefers to be called Sam, pronouns they/them.", "Monthly budget: rent 1,250, groceries ~400, savings 300 on the 1st.",
        "Emergency contact: {name} (sister), {phone}.", "Working from home Mondays and Fridays; office days are Tue–Thu in {city}.",
        "Wants to learn Portuguese before the trip to Lisbon in {month}.", "Physio said to do the knee exercises twice a day, 3 sets of 12.",
        "Favourite restaurant in {city}: the little Thai place on {addr}, ask for table by the window.",
    ],
    "es": ["Prefiero asiento de ventanilla y comida vegetariana en los vuelos largos.", "Cita con la dermatóloga, Dra. {name}, el {date} a las {time}.",
           "El nuevo número de {name} es {phone} y su correo {email}.", "Soy alérgica a los frutos secos, llevo siempre el autoinyector.",
           "Pedido {order} de El Corte Inglés: llega el {date}.", "Vuelo {flight} a {city}, sale a las {time}, puerta B23.",
           "Receta de la abuela: 6 huevos, 1 kg de patatas, 1 cebolla, aceite de oliva y sal. Tortilla poco cuajada.",
           "Reunión del {date}: retrasamos el lanzamiento a septiembre; {name} se encarga del presupuesto.",
           "Nueva dirección: {addr}, {city}. Avisar al banco y al médico de cabecera.", "A {name} le encanta el café cortado y odia el cilantro.",
           "Cumpleaños de {name}: {date}. Le gustan los libros de Almudena Grandes.", "Tomo ibuprofeno 600 mg solo si me duele la rodilla, máximo 3 al día."],
    "fr": ["Je préfère les places côté couloir et les trains de nuit quand c'est possible.", "Rendez-vous chez le kiné avec {name} le {date} à {time}.",
           "Nouveau numéro de {name} : {phone}, mail {email}.", "Intolérance au gluten diagnostiquée en 2021, éviter le pain classique.",
           "Commande {order} chez Fnac, livraison prévue le {date} en point relais.", "Vol {flight} pour {city}, départ {time}, terminal 2E.",
           "Recette de la quiche : 3 œufs, 20 cl de crème, 200 g de lardons, une pâte brisée, 35 min à 180 °C.",
           "Réunion du {date} : on repousse la mise en prod à fin mai, {name} gère la recette.",
           "Nouvelle adresse : {addr}, {city}. Penser à prévenir la CAF.", "{name} adore le thé vert et les macarons à la pistache.",
           "Anniversaire de {name} le {date}, idée cadeau : un atelier céramique."],
    "de": ["Ich sitze im Zug am liebsten am Fenster, Wagen 11 ist meistens ruhiger.", "Zahnarzttermin bei Dr. {name} am {date} um {time}, Bonusheft mitnehmen.",
           "Neue Handynummer von {name}: {phone}, E-Mail {email}.", "Laktoseintoleranz, Hafermilch geht aber problemlos.",
           "Bestellung {order} bei Otto, Lieferung am {date} zwischen 8 und 12 Uhr.", "Flug {flight} nach {city} um {time}, Gepäck bis 23 kg inklusive.",
           "Omas Käsekuchen: 1 kg Quark, 4 Eier, 200 g Zucker, 1 Päckchen Vanillepudding, 60 Minuten bei 170 °C.",
           "Protokoll {date}: Release verschoben auf KW 14, {name} kümmert sich um die Doku.",
           "Neue Adresse ab {date}: {addr}, {city}. Ummelden beim Bürgeramt nicht vergessen!", "{name} trinkt keinen Alkohol und isst vegetarisch.",
           "Geburtstag von {name} am {date} – sie wünscht sich einen Kochkurs."],
    "it": ["Preferisco il posto lato finestrino e il treno delle 7:15 per Milano.", "Visita dal cardiologo, dott. {name}, il {date} alle {time}.",
           "Nuovo numero di {name}: {phone}, email {email}.", "Sono celiaca, al ristorante chiedere sempre il menù senza glutine.",
           "Ordine {order} su Amazon, consegna prevista il {date}.", "Volo {flight} per {city} alle {time}, imbarco dal gate A12.",
           "Ricetta del ragù della nonna: sedano, carota, cipolla, 500 g di macinato misto, passata, cuocere 3 ore.",
           "Riunione del {date}: {name} prepara il preventivo, io sento il fornitore.", "Nuovo indirizzo: {addr}, {city}.",
           "{name} compie gli anni il {date}, le piacciono le orchidee."],
    "pt": ["Prefiro sentar no corredor e pedir refeição vegetariana no voo.", "Consulta com a Dra. {name} no dia {date} às {time}, levar os exames.",
           "Número novo de {name}: {phone}, e-mail {email}.", "Tenho alergia a camarão, sempre avisar no restaurante.",
           "Pedido {order} da Magalu chega dia {date}.", "Voo {flight} para {city} às {time}, portão 12.",
           "Pão de queijo da vó: 500 g de polvilho, 250 ml de leite, 100 ml de óleo, 2 ovos, 200 g de queijo meia cura.",
           "Reunião de {date}: {name} fica com o relatório, eu com as planilhas.", "Endereço novo: {addr}, {city}.",
           "Aniversário do {name} em {date}, ele curte churrasco e futebol."],
    "nl": ["Ik zit in de trein het liefst in de stiltecoupé.", "Afspraak bij de huisarts, dokter {name}, op {date} om {time}.",
           "Nieuw nummer van {name}: {phone}, mail {email}.", "Allergisch voor pinda's, EpiPen zit in mijn tas.",
           "Bestelling {order} bij bol.com komt op {date}.", "Vlucht {flight} naar {city} om {time}, inchecken via de app.",
           "Stamppot boerenkool: 1 kg aardappels, 500 g boerenkool, rookworst, scheutje melk.", "Notulen {date}: {name} pakt de planning op, lancering in april.",
           "Nieuw adres: {addr}, {city}.", "Verjaardag van {name} op {date}, houdt van fietsen en bordspellen."],
    "pl": ["W pociągu wolę miejsce przy oknie, najlepiej w przedziale.", "Wizyta u dentysty, dr {name}, {date} o {time}.",
           "Nowy numer: {name}, {phone}, mail {email}.", "Uczulenie na pyłki brzozy, w kwietniu brać leki przeciwhistaminowe.",
           "Zamówienie {order} z Allegro dotrze {date}.", "Lot {flight}, kierunek {city}, o {time}, bramka 5.",
           "Pierogi ruskie: 1 kg ziemniaków, 500 g twarogu, 2 cebule, mąka, jajko.", "Spotkanie {date}: {name} przygotuje budżet, start w maju.",
           "Nowy adres: {addr}, {city}.", "Urodziny: {name}, {date}, lubi książki Olgi Tokarczuk."],
    "sv": ["Jag föredrar fönsterplats och tyst vagn på tåget.", "Tandläkartid hos {name} den {date} kl. {time}.",
           "Nytt nummer till {name}: {phone}, mejl {email}.", "Glutenintolerant, kolla alltid innehållsförteckningen.",
           "Beställning {order} från Ikea levereras {date}.", "Flyg {flight} till {city} kl. {time}, gate 14.",
           "Kanelbullar: 50 g jäst, 5 dl mjölk, 150 g smör, 1 dl socker, 13 dl vetemjöl.", "Möte {date}: {name} tar budgeten, lansering efter sommaren.",
           "Ny adress: {addr}, {city}.", "{name} fyller år {date}, gillar löpning och deckare."],
    "tr": ["Uçakta koridor tarafını tercih ederim, vejetaryen yemek isterim.", "Dr. {name} ile randevu: {date}, saat {time}.",
           "Yeni numara: {name}, {phone}, e-posta {email}.", "Fıstığa alerjim var, restoranlarda mutlaka söylemek lazım.",
           "Trendyol siparişi {order} {date} tarihinde gelecek.", "{city} uçuşu {flight}, kalkış {time}.",
           "Mercimek çorbası: 1 su bardağı kırmızı mercimek, 1 soğan, 1 havuç, 1 kaşık salça, 6 bardak su.", "{date} toplantısı: bütçeyi {name} hazırlayacak.",
           "Yeni adres: {addr}, {city}.", "Doğum günü: {name}, {date}; Türk kahvesini çok sever."],
    "ru": ["В поезде предпочитаю нижнюю полку.", "Запись к стоматологу, доктор {name}, {date} в {time}.",
           "Новый номер — {name}: {phone}, почта {email}.", "Аллергия на пенициллин, всегда предупреждать врача.",
           "Заказ {order} на Ozon придёт {date} в пункт выдачи.", "Рейс {flight}, {city}, вылет в {time}.",
           "Борщ: свёкла, капуста, 3 картофелины, морковь, лук, 500 г говядины, варить 2 часа.", "Встреча {date}: {name} готовит презентацию, релиз в мае.",
           "Новый адрес: {addr}, {city}.", "День рождения: {name}, {date}, любит настольные игры."],
    "el": ["Προτιμώ θέση στο διάδρομο στις πτήσεις.", "Ραντεβού με τον γιατρό {name} στις {date}, ώρα {time}.",
           "Νέο κινητό: {name} {phone}, email {email}.", "Αλλεργία στη γύρη, παίρνω αντιισταμινικό την άνοιξη.",
           "Παραγγελία {order} από Skroutz, παράδοση {date}.", "Πτήση {flight} για {city} στις {time}.",
           "Τζατζίκι: 500 γρ. στραγγιστό γιαούρτι, 1 αγγούρι, 2 σκελίδες σκόρδο, ελαιόλαδο, άνηθο.", "Σύσκεψη {date}: τον προϋπολογισμό αναλαμβάνει ο/η {name}.",
           "Νέα διεύθυνση: {addr}, {city}.", "Γενέθλια: {name}, {date}."],
    "ar": ["أفضّل المقعد بجانب النافذة في الطائرة.", "موعد عند طبيب الأسنان د. {name} يوم {date} الساعة {time}.",
           "رقم {name} الجديد: {phone}، الإيميل {email}.", "عندي حساسية من الفول السوداني.", "الطلب رقم {order} من نون يوصل يوم {date}.",
           "رحلة {flight} إلى {city} الساعة {time}.", "وصفة الحمص: علبتين حمص، 3 ملاعق طحينة، عصير ليمونة، فص ثوم، زيت زيتون.",
           "اجتماع {date}: {name} مسؤول عن الميزانية.", "العنوان الجديد: {addr}، {city}.", "عيد ميلاد {name} يوم {date}، يحب القهوة العربية."],
    "he": ["אני מעדיף מושב ליד המעבר בטיסות ארוכות.", "תור לרופא שיניים, ד\"ר {name}, ב-{date} בשעה {time}.",
           "המספר החדש של {name}: {phone}, מייל {email}.", "אלרגיה לבוטנים, תמיד לשאול במסעדה.", "הזמנה {order} מ-KSP תגיע ב-{date}.",
           "טיסה {flight} ל{city} ב-{time}.", "שקשוקה: 4 ביצים, 5 עגבניות, פלפל אדום, 2 שיני שום, כמון ופפריקה.",
           "פגישה {date}: {name} אחראי על התקציב.", "כתובת חדשה: {addr}, {city}.", "יום ההולדת של {name} ב-{date}."],
    "hi": ["मुझे ट्रेन में खिड़की वाली सीट पसंद है।", "डॉ. {name} के साथ {date} को {time} बजे अपॉइंटमेंट है।",
           "{name} का नया नंबर {phone} है, ईमेल {email}।", "मुझे मूंगफली से एलर्जी है।", "फ्लिपकार्ट ऑर्डर {order} {date} को आएगा।",
           "{city} की फ्लाइट {flight} {time} बजे है।", "दाल तड़का: 1 कप अरहर दाल, 1 प्याज़, 2 टमाटर, जीरा, हल्दी, घी।",
           "{date} की मीटिंग: बजट {name} बनाएंगे।", "नया पता: {addr}, {city}।", "{name} का जन्मदिन {date} को है, उन्हें मसाला चाय पसंद है।"],
    "zh": ["坐高铁喜欢靠窗的位置。", "{date}{time}约了{name}医生看牙。", "{name}的新手机号：{phone}，邮箱{email}。", "对花生过敏，点菜时要跟服务员说。",
           "淘宝订单{order}预计{date}送到。", "{flight}航班飞{city}，{time}起飞。", "番茄炒蛋：3个鸡蛋，2个番茄，少许糖和盐，葱花。",
           "{date}会议纪要：预算由{name}负责，五月上线。", "新地址：{city}{addr}。", "{name}生日是{date}，喜欢喝普洱茶。"],
    "ja": ["新幹線は窓側のE席が好き。", "{date}{time}から{name}先生の歯医者の予約。", "{name}さんの新しい番号：{phone}、メール{email}",
           "そばアレルギーあり。外食のときは必ず確認。", "楽天の注文{order}は{date}に届く予定。", "{flight}便で{city}へ、{time}出発。",
           "肉じゃが：じゃがいも3個、玉ねぎ1個、牛肉200g、しょうゆ大さじ3、みりん大さじ2。", "{date}の会議メモ：予算は{name}さん担当、リリースは5月。",
           "新しい住所：{city}{addr}", "{name}さんの誕生日は{date}。抹茶スイーツが好き。"],
    "ko": ["KTX는 창가 자리가 좋아.", "{date} {time}에 {name} 선생님 치과 예약.", "{name} 새 번호: {phone}, 이메일 {email}", "땅콩 알레르기 있음. 식당에서 꼭 말하기.",
           "쿠팡 주문 {order} {date} 도착 예정.", "{flight}편 {city}행 {time} 출발.", "김치찌개: 김치 2컵, 돼지고기 200g, 두부 반 모, 고춧가루 1큰술.",
           "{date} 회의: 예산은 {name} 담당, 출시는 5월.", "새 주소: {city} {addr}", "{name} 생일 {date}, 아이스 아메리카노 좋아함."],
    "vi": ["Mình thích ngồi ghế cạnh cửa sổ khi đi máy bay.", "Lịch khám răng với bác sĩ {name} ngày {date} lúc {time}.",
           "Số mới của {name}: {phone}, email {email}.", "Bị dị ứng hải sản, nhớ dặn khi gọi món.", "Đơn hàng Shopee {order} giao ngày {date}.",
           "Chuyến bay {flight} đi {city} lúc {time}.", "Phở bò: xương bò, gừng nướng, hành nướng, hoa hồi, quế, bánh phở, thịt bò tái.",
           "Họp ngày {date}: {name} phụ trách ngân sách.", "Địa chỉ mới: {addr}, {city}.", "Sinh nhật {name} ngày {date}, thích cà phê sữa đá."],
    "id": ["Saya lebih suka kursi dekat jendela kalau naik kereta.", "Janji dengan dokter gigi {name} tanggal {date} jam {time}.",
           "Nomor baru {name}: {phone}, email {email}.", "Alergi udang, selalu bilang ke pelayan.", "Pesanan Tokopedia {order} sampai tanggal {date}.",
           "Penerbangan {flight} ke {city} jam {time}.", "Nasi goreng: 2 piring nasi, 3 siung bawang putih, kecap manis, telur, cabai.",
           "Rapat {date}: {name} pegang anggaran.", "Alamat baru: {addr}, {city}.", "Ulang tahun {name} tanggal {date}, suka es teh manis."],
}


def fill(t, lang):
    def rep(m):
        k = m.group(1)
        return {
            "name": lambda: pick(NAMES[lang]), "city": lambda: pick(CITIES[lang]), "phone": lambda: phone_l(lang), "email": lambda: email_for(lang),
            "date": lambda: date_l(lang), "time": lambda: time_l(lang), "order": order_no,
            "flight": lambda: pick(CARRIERS[lang]) + str(R.randint(10, 2999)), "addr": lambda: addr_l(lang),
            "month": lambda: pick(MONTHS_EN),
        }[k]()
    return re.sub(r"\{(\w+)\}", rep, t)


def benign_note_spec(lang):
    idx = [R.randrange(len(BP[lang]))]
    parts = [fill(BP[lang][idx[0]], lang)]
    sep = "" if lang in ("zh", "ja") else pick([" ", "\n", " "])
    target = 40 if maybe(0.6) else R.randint(60, 110)
    while sum(len(p) for p in parts) < target and len(idx) < len(BP[lang]):
        i = R.randrange(len(BP[lang]))
        if i not in idx:
            idx.append(i)
            parts.append(fill(BP[lang][i], lang))
    v = sep.join(parts)
    return dict(label="benign", variant="plain", segment=f"note-{lang}", kind=pick(["note", "memo"]) if len(parts) > 1 else "note", value=v,
                lang=lang, group="benign-plain")


BF = {  # benign structured field names
    "en": {"name": "name", "phone": "phone", "email": "email", "rel": "relation", "title": "title", "when": "when", "where": "where", "items": "items",
           "ing": "ingredients", "steps": "steps", "med": "medication", "dose": "dose", "sched": "schedule"},
    "es": {"name": "nombre", "phone": "teléfono", "email": "correo", "rel": "relación", "title": "título", "when": "cuándo", "where": "dónde",
           "items": "lista", "ing": "ingredientes", "steps": "pasos", "med": "medicamento", "dose": "dosis", "sched": "horario"},
    "de": {"name": "name", "phone": "telefon", "email": "email", "rel": "beziehung", "title": "titel", "when": "wann", "where": "wo",
           "items": "einkaufsliste", "ing": "zutaten", "steps": "schritte", "med": "medikament", "dose": "dosis", "sched": "einnahme"},
    "fr": {"name": "nom", "phone": "téléphone", "email": "email", "rel": "lien", "title": "titre", "when": "quand", "where": "où",
           "items": "courses", "ing": "ingrédients", "steps": "étapes", "med": "médicament", "dose": "dose", "sched": "prise"},
    "ja": {"name": "名前", "phone": "電話", "email": "メール", "rel": "関係", "title": "予定", "when": "日時", "where": "場所", "items": "買い物",
           "ing": "材料", "steps": "手順", "med": "薬", "dose": "用量", "sched": "服用"},
    "zh": {"name": "姓名", "phone": "电话", "email": "邮箱", "rel": "关系", "title": "事项", "when": "时间", "where": "地点", "items": "购物清单",
           "ing": "食材", "steps": "步骤", "med": "药品", "dose": "剂量", "sched": "服用时间"},
    "pt": {"name": "nome", "phone": "telefone", "email": "email", "rel": "parentesco", "title": "título", "when": "quando", "where": "onde",
           "items": "compras", "ing": "ingredientes", "steps": "preparo", "med": "remédio", "dose": "dose", "sched": "horário"},
    "ru": {"name": "имя", "phone": "телефон", "email": "почта", "rel": "кто", "title": "событие", "when": "когда", "where": "где",
           "items": "покупки", "ing": "ингредиенты", "steps": "шаги", "med": "лекарство", "dose": "доза", "sched": "приём"},
    "ko": {"name": "이름", "phone": "전화", "email": "이메일", "rel": "관계", "title": "일정", "when": "날짜", "where": "장소", "items": "장보기",
           "ing": "재료", "steps": "순서", "med": "약", "dose": "용량", "sched": "복용"},
}
SHOP = {"en": ["oat milk", "eggs", "sourdough", "spinach", "tinned tomatoes", "dish soap", "bananas", "coffee beans"],
        "es": ["leche", "huevos", "pan", "tomates", "aceite de oliva", "jamón", "naranjas"], "de": ["Milch", "Eier", "Brot", "Tomaten", "Butter", "Äpfel", "Kaffee"],
        "fr": ["lait", "œufs", "baguette", "tomates", "beurre", "pommes", "café"], "ja": ["牛乳", "卵", "食パン", "豆腐", "納豆", "りんご"],
        "zh": ["牛奶", "鸡蛋", "面包", "西红柿", "大米", "苹果"], "pt": ["leite", "ovos", "pão", "tomate", "arroz", "feijão"],
        "ru": ["молоко", "яйца", "хлеб", "помидоры", "гречка", "яблоки"], "ko": ["우유", "계란", "두부", "김치", "쌀", "사과"]}


def benign_record_spec(lang=None):
    lang = lang or pick(list(BF))
    f = BF[lang]
    st = R.randint(0, 7)
    if st == 0:
        v = {f["name"]: pick(NAMES[lang]), f["phone"]: phone_l(lang), f["email"]: email_for(lang),
             f["rel"]: pick({"en": ["sister", "colleague", "neighbour", "plumber"], "es": ["hermana", "vecino"], "de": ["Schwester", "Nachbar", "Kollegin"],
                             "fr": ["sœur", "voisin", "collègue"], "ja": ["姉", "同僚"], "zh": ["同事", "邻居"], "pt": ["irmã", "vizinho"],
                             "ru": ["сестра", "коллега"], "ko": ["언니", "동료"]}[lang])}
        kind = "contact"
    elif st == 1:
        v = {f["title"]: pick({"en": ["Parent-teacher meeting", "Yoga class", "Quarterly review"], "es": ["Reunión de padres", "Clase de yoga"],
                               "de": ["Elternabend", "Yogakurs"], "fr": ["Réunion parents-profs", "Cours de yoga"], "ja": ["保護者会", "ヨガ教室"],
                               "zh": ["家长会", "瑜伽课"], "pt": ["Reunião de pais", "Aula de ioga"], "ru": ["Родительское собрание", "Йога"],
                               "ko": ["학부모 상담", "요가 수업"]}[lang]),
             f["when"]: f"{date_iso()} {time_l('de')}", f["where"]: pick(CITIES[lang]) + (", " + addr_l(lang) if maybe(0.5) else "")}
        kind = "calendar-event"
    elif st == 2:
        v = {f["items"]: R.sample(SHOP[lang], R.randint(4, min(6, len(SHOP[lang]))))}
        kind = "shopping-list"
    elif st == 3:
        v = R.sample(SHOP[lang], R.randint(5, len(SHOP[lang])))
        kind = "shopping-list"
    elif st == 4:
        med, dose, sched = pick([("Metformin", "500 mg", "08:00 / 20:00"), ("Levothyroxine", "50 µg", "before breakfast"),
                                 ("Ramipril", "5 mg", "08:00"), ("Atorvastatin", "20 mg", "22:00"), ("Cetirizine", "10 mg", "22:00"),
                                 ("Omeprazole", "20 mg", "before breakfast"), ("Sertraline", "50 mg", "08:00")])
        v = {f["med"]: med, f["dose"]: dose, f["sched"]: sched}
        kind = "medication"
    elif st == 5:
        v = [{"day": i + 1, "city": c, "hotel": pick(["Hotel Central", "Ibis", "Airbnb near the station", "B&B in the old town", "Hostel Mundo", "Novotel"])}
             for i, c in enumerate(R.sample(CITIES[lang], 3))]
        kind = "itinerary"
    elif st == 6:
        v = {"coffee": pick(["flat white", "espresso", "oat latte", "black"]), "seat": pick(["aisle", "window"]),
             "diet": pick(["vegetarian", "no pork", "pescatarian", "none"]), "music": pick(["jazz", "k-pop", "80s", "classical"])}
        kind = "preferences"
    else:
        v = {"todo": [pick(["renew passport", "book vet", "call landlord about heating", "return library books", "pay council tax",
                            "buy birthday present", "schedule car MOT"]) for _ in range(R.randint(3, 4))], "due": date_iso()}
        kind = "todo"
    if kind in ("preferences", "todo"):
        lang = "en"
    return dict(label="benign", variant="plain", segment=f"record-{lang}", kind=kind, value=v, lang=lang, group="benign-plain")


CODE_BENIGN = [
    ("python", "def slugify(s: str) -> str:\n    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')"),
    ("python", "with open('data.csv', newline='') as fh:\n    rows = list(csv.DictReader(fh))\nprint(len(rows), 'rows')"),
    ("python", "import os\nAPI_KEY = os.environ['WEATHER_API_KEY']  # set in .env, never commit it\nresp = requests.get(URL, params={'q': city, 'appid': API_KEY})"),
    ("python", "@app.get('/health')\ndef health():\n    return {'status': 'ok', 'version': __version__}"),
    ("python", "df.groupby('country')['revenue'].sum().sort_values(ascending=False).head(10)"),
    ("js", "const debounce = (fn, ms = 300) => { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; };"),
    ("js", "app.use(express.json());\napp.listen(process.env.PORT || 3000, () => console.log('listening'));"),
    ("js", "const token = process.env.GITHUB_TOKEN;\nif (!token) throw new Error('GITHUB_TOKEN is not set');"),
    ("sql", "SELECT customer_id, COUNT(*) AS orders\nFROM orders\nWHERE created_at >= NOW() - INTERVAL '30 days'\nGROUP BY customer_id\nHAVING COUNT(*) > 3;"),
    ("sql", "CREATE INDEX CONCURRENTLY idx_events_user_ts ON events (user_id, ts DESC);"),
    ("bash", "find . -name '*.log' -mtime +14 -delete && du -sh /var/log"),
    ("bash", "git log --oneline --since='2 weeks ago' --author='Priya' | wc -l"),
    ("bash", "docker compose up -d db && docker compose logs -f --tail=50 api"),
    ("go", "func Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}"),
    ("rust", "fn main() {\n    let v: Vec<u32> = (1..=10).filter(|x| x % 2 == 0).collect();\n    println!(\"{:?}\", v);\n}"),
    ("yaml", "name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test"),
    ("css", ".card {\n  display: grid;\n  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));\n  gap: 1rem;\n}"),
    ("regex", "Regex that finally worked for UK postcodes: ^[A-Z]{1,2}\\d[A-Z\\d]? ?\\d[A-Z]{2}$ (case-insensitive)"),
    ("java", "List<String> names = users.stream().map(User::getName).filter(n -> !n.isBlank()).toList();"),
    ("kotlin", "val adults = people.filter { it.age >= 18 }.sortedBy { it.lastName }"),
    ("excel", "Spreadsheet trick: =XLOOKUP(A2, Prices!A:A, Prices!C:C, \"n/a\") instead of VLOOKUP"),
    ("powershell", "Get-ChildItem -Recurse -Filter *.tmp | Remove-Item -WhatIf"),
]


def benign_code_spec():
    lang, code = pick(CODE_BENIGN)
    intro = pick(["", "snippet I keep reusing:\n", "from the pairing session:\n", "TIL:\n", "saved from code review — "])
    v = intro + code
    if maybe(0.3):
        v += pick(["\n# works on 3.11+", "\n(ask Marcus if we can upstream this)", "\n-- runs in ~2s on prod replica"])
    return dict(label="benign", variant="plain", segment=f"code-{lang}", kind="code-snippet", value=v, lang="en", group="benign-plain")


def gen_benign_plain(per_lang=16, records=150, code=45):
    for lang in LANGS20:
        for _ in range(per_lang + (14 if lang == "en" else 0)):
            produce(lambda: benign_note_spec(lang))
    for _ in range(records):
        produce(benign_record_spec)
    for _ in range(code):
        produce(benign_code_spec)


# ---------------------------------------------------------------------------
# PART G: benign / hard -- look-alike families
# ---------------------------------------------------------------------------
FAMILIES = []


def fam(name, n=7):
    def deco(fn):
        FAMILIES.append((name, n, fn))
        return fn
    return deco


SVCS = ["Netflix", "Gmail", "PayPal", "Instagram", "Amazon", "Steam", "Spotify", "iCloud", "Outlook", "Facebook", "the bank app", "Zoom"]


def ml(table, **kw):
    """pick a language and a template from a {lang: [templates]} table"""
    lang = pick(list(table))
    t = pick(table[lang])
    return t.format(**{k: (v(lang) if callable(v) else v) for k, v in kw.items()}), lang


@fam("talk-changed-password", 12)
def f_changed(_):
    return ml({
        "en": ["I changed my {svc} password yesterday after that phishing email. Used the password manager to generate it, so I don't even know it by heart.",
               "Finally rotated the {svc} password — the old one was from 2016. Also turned on login alerts."],
        "es": ["Ayer cambié la contraseña de {svc} por si acaso, después del aviso de inicio de sesión raro."],
        "de": ["Habe gestern mein {svc}-Passwort geändert, nachdem die komische Login-Mail kam. Das neue steht im Passwortmanager."],
        "fr": ["J'ai changé mon mot de passe {svc} hier soir, par précaution après le mail bizarre."],
        "it": ["Ieri ho cambiato la password di {svc}, per sicurezza dopo quella mail strana."],
        "pt": ["Troquei a senha do {svc} ontem, depois daquele e-mail estranho de login."],
        "nl": ["Gisteren mijn {svc}-wachtwoord aangepast na die vreemde inlogmelding."],
        "pl": ["Wczoraj zmieniłem hasło do {svc} po tym dziwnym mailu o logowaniu."],
        "sv": ["Bytte lösenord på {svc} igår efter det konstiga inloggningsmejlet."],
        "tr": ["Dün {svc} şifremi değiştirdim, o garip giriş e-postasından sonra."],
        "ru": ["Вчера поменял пароль от {svc} после странного письма о входе. Новый лежит в менеджере паролей."],
        "el": ["Άλλαξα χθες τον κωδικό του {svc} μετά από εκείνο το περίεργο email σύνδεσης."],
        "ja": ["昨日{svc}のパスワードを変更した。怪しいログイン通知メールが来たので念のため。新しいのはパスワード管理アプリに保存済み。"],
        "zh": ["昨天把{svc}的密码改了，因为收到一封可疑的登录提醒邮件。新密码存在密码管理器里了。"],
        "ko": ["어제 {svc} 비밀번호 바꿨어. 이상한 로그인 알림 메일이 와서 혹시 몰라서. 새 비번은 비밀번호 관리자에 저장함."],
        "ar": ["غيّرت كلمة مرور {svc} امبارح بعد ما وصلني إيميل تسجيل دخول غريب، والجديدة محفوظة في مدير كلمات المرور."],
        "he": ["החלפתי אתמול את הסיסמה של {svc} אחרי מייל התחברות חשוד. החדשה שמורה במנהל הסיסמאות."],
        "hi": ["कल {svc} का पासवर्ड बदल दिया, एक अजीब लॉगिन ईमेल आया था। नया पासवर्ड मैनेजर में सेव है।"],
        "vi": ["Hôm qua mình đã đổi mật khẩu {svc} sau khi nhận email đăng nhập lạ."],
        "id": ["Kemarin saya ganti password {svc} setelah dapat email login yang aneh."],
    }, svc=lambda l: pick(SVCS))


@fam("talk-forgot-pin", 10)
def f_forgot(_):
    return ml({
        "en": ["Forgot my SIM PIN again after the phone died — need to find the PUK letter in the drawer with the contract.",
               "Entered the wrong card PIN twice at the supermarket, one more try and it locks. Going to the branch tomorrow.",
               "Can't remember the alarm code the installer set; calling them Monday to reset it."],
        "es": ["Se me ha olvidado otra vez el PIN de la SIM, tengo que buscar el PUK en la carta del contrato."],
        "de": ["Habe die PIN meiner neuen Karte vergessen, die Bank schickt mir einen neuen PIN-Brief per Post."],
        "fr": ["J'ai encore oublié le code de ma carte, la banque va m'en renvoyer un par courrier."],
        "it": ["Ho dimenticato il PIN del bancomat, devo chiederne uno nuovo in filiale."],
        "pt": ["Esqueci a senha do cartão de novo, vou ter que ir na agência desbloquear."],
        "ru": ["Опять забыл пин-код от карты, придётся идти в отделение и перевыпускать."],
        "ja": ["キャッシュカードの暗証番号を忘れてしまった。銀行の窓口で再設定の手続きをする必要あり。"],
        "zh": ["又忘了银行卡密码，明天得带身份证去柜台重置。"],
        "ko": ["체크카드 비밀번호를 또 까먹었다. 내일 은행 가서 재설정해야 함."],
        "tr": ["Kart şifremi yine unuttum, yarın şubeye gidip yenisini almam lazım."],
    })


@fam("reminder-reset-password", 9)
def f_reminder(_):
    return ml({
        "en": ["Remind me to reset the router admin password this weekend — it's still the factory default printed on the label.",
               "TODO: ask IT to reset my VPN password before the trip, it expires on the 14th.",
               "Need to set a new PIN for the kids' tablet, they've figured out the old one."],
        "es": ["Recuérdame cambiar la contraseña del router este finde, sigue la de fábrica."],
        "de": ["Erinnerung: am Wochenende das Router-Passwort ändern, ist noch das Standardpasswort."],
        "fr": ["Penser à changer le mot de passe de la box ce week-end, c'est toujours celui d'origine."],
        "it": ["Ricordami di cambiare la password del router nel weekend, è ancora quella di fabbrica."],
        "nl": ["Herinnering: dit weekend het routerwachtwoord aanpassen, het is nog het standaardwachtwoord."],
        "ja": ["週末にルーターの管理パスワードを変更すること。まだ初期設定のままになっている。"],
        "zh": ["提醒我周末把路由器管理密码改掉，现在还是出厂默认的。"],
        "pl": ["Przypomnij mi, żeby w weekend zmienić hasło do routera, wciąż jest fabryczne."],
    })


@fam("password-policy-rules")
def f_policy(_):
    return pick([
        f"Company policy: passwords need {pick([12, 14, 16])}+ characters, no reuse of the last {pick([5, 10, 24])}, and rotation every {pick([90, 180])} days.",
        "Bank rules for the online PIN: 5 digits, no repeated or sequential digits, can't match your date of birth.",
        "Password requirements on the council site: 8-20 chars, at least one uppercase, one number, one of !@#$ — and no spaces.",
        "NIST now says don't force periodic rotation; check new passwords against breached lists and allow long passphrases.",
        "Our SSO enforces MFA for everyone from March; hardware keys for admins, app-based TOTP for the rest.",
    ]), "en"


@fam("password-manager-usage")
def f_pm(_):
    return pick([
        "All my passwords live in Bitwarden now; the emergency kit is printed and in the fire safe at mum's.",
        "Moved the family to 1Password Families — Dad still calls me when he can't find the 'vault'.",
        "KeePassXC database syncs via Syncthing between laptop and phone; key file is on the YubiKey, not in the cloud.",
        "Told Grandma to stop writing passwords on post-its; set up the browser's password manager for her instead.",
        "Use a different generated password per site, 20 chars, and let the manager autofill. Never reuse.",
    ]), "en"


@fam("placeholder-angle-brackets")
def f_angle(_):
    v = pick(["export OPENAI_API_KEY=<YOUR_API_KEY>\npython scripts/summarize.py --model gpt-4o-mini",
              "curl https://api.example.com/v1/items -H 'Authorization: Bearer <ACCESS_TOKEN>'",
              "DATABASE_URL=postgres://<user>:<password>@<host>:5432/<db>  # fill in from the vault",
              "In the README: set STRIPE_SECRET_KEY=<your-stripe-secret-key> in .env.local before running npm run dev.",
              "ssh <username>@<server-ip> -i <path/to/key> — template from the onboarding doc",
              {"apiKey": "<INSERT_KEY_HERE>", "region": "eu-west-1", "note": "template config, real values come from env"}])
    return v, "en"


@fam("placeholder-stars-mask")
def f_stars(_):
    v = pick([f"password: {'*' * R.randint(8, 12)}  (shown masked in the settings screen)",
              f"PIN ••••  — the app never shows it, only lets you change it",
              f"Login for the school portal: user {LN(6)}, password ******** (it's in the family vault)",
              f"api_key: \"sk-proj-{'*' * 20}{LN(4)}\" (dashboard only shows the last 4)",
              {"username": "anna.k", "password": "••••••••", "last_changed": date_iso()}])
    return v, "en"


@fam("placeholder-env-reference")
def f_envref(_):
    v = pick(["db:\n  host: ${DB_HOST}\n  password: ${DB_PASSWORD}\n  sslmode: require",
              "token = os.environ[\"SLACK_BOT_TOKEN\"]\nclient = WebClient(token=token)",
              "- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
              "spring.datasource.password=${SPRING_DATASOURCE_PASSWORD}\nspring.datasource.username=app",
              "aws configure set aws_secret_access_key \"$AWS_SECRET_ACCESS_KEY\" --profile ci",
              "$env:API_KEY = [Environment]::GetEnvironmentVariable('API_KEY', 'User')"])
    return v, "en"


@fam("placeholder-changeme-described")
def f_changeme(_):
    return pick(["The docker-compose template ships with POSTGRES_PASSWORD=changeme as a placeholder; the setup script refuses to start until you replace it.",
                 "Default in the example config is admin/admin — it's documented as a placeholder and first login forces a change.",
                 "In our Helm chart values.yaml the password field is literally 'CHANGE_ME' so CI fails loudly if someone forgets to override it.",
                 "Example .env in the repo uses SECRET_KEY=replace-me; the real one is generated per environment."]), "en"


@fam("placeholder-xxx")
def f_xxx(_):
    return pick([f"STRIPE_SECRET_KEY=sk_live_{'x' * 24}   # replace with your own key",
                 f"GITHUB_TOKEN=ghp_{'X' * 36} (template, paste yours)",
                 f"aws_access_key_id = AKIA{'X' * 16}\naws_secret_access_key = {'x' * 40}\n# fill these in locally",
                 f"SLACK_WEBHOOK_URL=https://hooks.slack.com/services/TXXXXXXXX/BXXXXXXXX/{'X' * 24}",
                 f"Card: XXXX XXXX XXXX {D(4)} — the rest is hidden on the statement"]), "en"


@fam("redacted-log")
def f_redacted(_):
    ts = ts_iso()
    return pick([f"{ts} DEBUG http request headers={{'Authorization': 'Bearer [REDACTED]', 'Accept': 'application/json'}}",
                 f"{ts} INFO login ok user=jdoe password=<redacted> ip={ipv4_doc()}",
                 f"{ts} WARN retrying POST /v1/charges (key=sk_live_…{A(4)}, attempt 2/5)",
                 f"{ts} ERROR auth failed for user 'svc_api' (password: ***) from {ipv4_private()}",
                 f"[{ts}] config dump: DB_PASSWORD=******** REDIS_URL=redis://:****@cache:6379/0"]), "en"


@fam("card-last-four")
def f_last4(_):
    return ml({"en": ["Paid the deposit with the Visa ending {l4}; refund should go back to the same card.",
                      "Netflix is billed to the Mastercard ending in {l4}, switch it to the new card before March."],
               "de": ["Die Miete geht von der Karte mit Endziffern {l4} ab, bitte nach Kartentausch ändern."],
               "es": ["Pagué con la tarjeta terminada en {l4}, el reembolso vuelve a esa misma."],
               "fr": ["Abonnement payé avec la carte finissant par {l4}, à mettre à jour après le renouvellement."]},
              l4=lambda l: D(4))


@fam("token-prefix-only")
def f_prefix(_):
    return pick(["The leaked key started with ghp_ — already revoked in GitHub settings, nothing else to do.",
                 "Security alert said a token beginning with 'xoxb-' was posted publicly; Slack auto-revoked it.",
                 "Rotated the AWS key (the AKIA… one from the old laptop). New one lives only in the vault.",
                 "OpenAI keys now start with sk-proj-, so update the regex in our pre-commit hook.",
                 "Stripe restricted keys begin with rk_live_; use those for the reporting job instead of the full secret key."]), "en"


@fam("aws-doc-example-key")
def f_awsdoc(_):
    return pick(["AWS docs use AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY as sample credentials — not real, fine for the tutorial.",
                 "In the workshop slides the access key is the official documentation example (AKIAIOSFODNN7EXAMPLE), so nobody can use it.",
                 "[example]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n# straight from the AWS CLI docs"]), "en"


JWT_IO = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
          "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")


@fam("jwt-io-example", 4)
def f_jwtio(_):
    return pick([f"The default example token on jwt.io is {JWT_IO} (sub 1234567890, John Doe) — useful for testing the decoder only.",
                 f"Unit test fixture uses the public jwt.io sample: {JWT_IO}",
                 f"Explaining JWTs to the intern: paste {JWT_IO} into jwt.io, it's their demo token signed with 'your-256-bit-secret'."]), "en"


@fam("stripe-test-cards")
def f_testcards(_):
    return pick(["Stripe test mode: card 4242 4242 4242 4242, any future expiry, any CVC — only works in test mode.",
                 "QA checklist: decline flow with 4000 0000 0000 0002, 3-D Secure with 4000 0027 6000 3184 (Stripe test cards).",
                 "Test card for Braintree sandbox is 4111 1111 1111 1111; use 5555 5555 5555 4444 for Mastercard. Sandbox only!",
                 "Amex test number 378282246310005 from the Stripe docs, expiry any future date, CVC any 4 digits."]), "en"


@fam("vendor-doc-test-values", 5)
def f_doctest(_):
    return pick(["Stripe's docs show the sample key sk_test_4eC39HqLyjWDarjtT1zdp7dc in every curl example; it's a public test-mode demo key.",
                 "Twilio magic test numbers: +15005550006 is a valid 'from' number, +15005550001 returns 'invalid number' — test credentials only.",
                 "PayPal sandbox docs use buyer account sb-buyer@personal.example.com for walkthroughs; real accounts never go in the test suite.",
                 "Google reCAPTCHA v2 test site key 6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI always passes — documented for automated tests."]), "en"


@fam("ssh-public-key")
def f_sshpub(_):
    blob = base64.b64encode(ed25519_pub_blob()).decode()
    who = pick(["jdoe@laptop", "anna@work-mbp", "deploy@ci", "kenji@desktop"])
    return pick([f"Add my public key to the server:\nssh-ed25519 {blob} {who}",
                 f"authorized_keys entry for the new intern: ssh-ed25519 {blob} {who}",
                 f"GitHub → Settings → SSH keys, pasted: ssh-ed25519 {blob} {who} (public part only)"]), "en"


@fam("pem-public-key")
def f_pempub(_):
    der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + rbytes(64)
    return pick([f"Webhook signature public key from the vendor portal:\n{pem_block('PUBLIC KEY', der)}",
                 f"{pem_block('PUBLIC KEY', der)}\n(public key for verifying license files — safe to ship in the app)"]), "en"


@fam("x509-certificate", 3)
def f_cert(_):
    der = bytes.fromhex("3082017a30820120a003020102") + rbytes(360)
    return f"Intermediate CA cert to add to the trust store:\n{pem_block('CERTIFICATE', der)}", "en"


@fam("cert-fingerprint")
def f_certfp(_):
    fp = ":".join(H(2).upper() for _ in range(32))
    return pick([f"Pin this TLS cert fingerprint (SHA-256) for the MQTT broker: {fp}",
                 f"Browser shows certificate SHA-256 fingerprint {fp} for intranet.local — matches the one IT posted."]), "en"


@fam("pgp-fingerprint")
def f_pgpfp(_):
    fp = " ".join(HU(4) for _ in range(10))
    return pick([f"My PGP key fingerprint: {fp} — verify before sending anything encrypted.",
                 f"Release signing key fingerprint {fp}, published on the website and keys.openpgp.org."]), "en"


@fam("pgp-signature-block", 4)
def f_pgpsig(_):
    body = rbytes(117)
    sig = ("-----BEGIN PGP SIGNATURE-----\n\n" + wrap(base64.b64encode(body).decode(), 64) + "\n=" + base64.b64encode(crc24(body).to_bytes(3, "big")).decode()
           + "\n-----END PGP SIGNATURE-----")
    return f"Detached signature for release v{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}:\n{sig}", "en"


@fam("sha256-checksum")
def f_sha(_):
    return pick([f"sha256sum ubuntu-24.04.1-desktop-amd64.iso\n{H(64)}  ubuntu-24.04.1-desktop-amd64.iso  -> matches the SHA256SUMS file",
                 f"Backup archive checksum (SHA-256): {H(64)} — compare after copying to the NAS.",
                 f"Firmware 3.2.1 for the router, sha256 {H(64)}, downloaded from the vendor site."]), "en"


@fam("git-commit-sha")
def f_git(_):
    return pick([f"Regression introduced in commit {H(40)} (\"refactor pricing rounding\"); revert is in PR #{R.randint(100, 4000)}.",
                 f"Deployed {H(7)} to prod at 14:05, previous release was {H(7)}.",
                 f"git bisect points at {H(40)}, the one that bumped the date library."]), "en"


@fam("md5-sha1-download")
def f_md5(_):
    return pick([f"MD5 (driver-setup.exe) = {H(32)} matches the vendor's page", f"SHA1 of the old firmware: {H(40)} — keep for warranty claim",
                 f"ETag for the S3 object is \"{H(32)}\", same as local md5"]), "en"


@fam("docker-image-digest")
def f_digest(_):
    return pick([f"Pin the image: nginx@sha256:{H(64)}", f"image: ghcr.io/{company()}/api@sha256:{H(64)} # v{R.randint(1, 3)}.{R.randint(0, 20)}.0"]), "en"


@fam("npm-integrity-sri")
def f_sri(_):
    return pick([f"\"integrity\": \"sha512-{b64(64)}\"",
                 f"<script src=\"https://cdn.jsdelivr.net/npm/alpinejs@3.14.1/dist/cdn.min.js\" integrity=\"sha384-{b64(48)}\" crossorigin=\"anonymous\"></script>"]), "en"


@fam("uuid-identifiers")
def f_uuid(_):
    return pick([f"Device ID {uuid4()} registered for the thermostat; support asked for it in the ticket.",
                 f"Correlation id {uuid4()} — include it when contacting support about the failed payment.",
                 {"tenant_id": uuid4(), "workspace": pick(["marketing", "ops"]), "created": date_iso()}]), "en"


@fam("order-number", 8)
def f_order(_):
    return ml({"en": ["Order {o} from Amazon — returns window closes on the 30th.", "Pizza order {o} placed at 19:40, ETA 35 minutes."],
               "de": ["Bestellnummer {o} bei Zalando, Rücksendung bis Monatsende möglich."], "es": ["Número de pedido {o}, devolución gratuita 30 días."],
               "fr": ["Commande n° {o}, retour possible sous 14 jours."], "ja": ["注文番号{o}、返品は30日以内。"], "pt": ["Número do pedido {o}, troca em até 7 dias."]},
              o=lambda l: order_no())


def ups():
    return "1Z" + UN(6) + D(2) + D(8)


@fam("tracking-number", 8)
def f_track(_):
    return ml({"en": ["UPS tracking {u} — left with the neighbour at no. 14.", "USPS tracking 9400 {a} {b} {c} {d} {e} — arriving Thursday.",
                      "Royal Mail tracked: {rm}, signed for by A. JONES."],
               "de": ["DHL Sendungsnummer {dhl}, Zustellung morgen zwischen 10 und 14 Uhr."], "fr": ["Numéro de suivi Colissimo 6A{c9} — en point relais."],
               "nl": ["PostNL track & trace 3S{up10}, bezorging vanavond."]},
              u=lambda l: ups(), a=lambda l: D(4), b=lambda l: D(4), c=lambda l: D(4), d=lambda l: D(4), e=lambda l: D(2),
              dhl=lambda l: D(10), c9=lambda l: D(11), up10=lambda l: UN(10), rm=lambda l: UN(2) + D(9) + "GB")


@fam("invoice-number")
def f_invoice(_):
    return pick([f"Invoice INV-2025-{D(5)} for the March consulting work, due in 30 days, amount €{R.randint(300, 9000)}.00.",
                 f"Rechnung Nr. {D(4)}/{R.randint(2024, 2025)} vom Elektriker bezahlt, Beleg im Ordner Steuer.",
                 f"Factura F{D(6)} del dentista, guardar para la declaración de la renta."]), "en"


@fam("booking-reference-pnr", 8)
def f_pnr(_):
    return ml({"en": ["Booking reference {pnr} for the Lisbon flights, seats 14A/14B.", "Hotel confirmation number {conf}, free cancellation until the 3rd."],
               "de": ["Buchungscode {pnr} für den Flug nach Mallorca, Handgepäck 8 kg."], "es": ["Localizador {pnr} del vuelo a Tenerife."],
               "fr": ["Référence de réservation {pnr}, vol Air France du 12."], "it": ["Codice prenotazione {pnr}, volo per Catania."],
               "ja": ["予約番号{pnr}、羽田発の便。"]},
              pnr=lambda l: rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 6), conf=lambda l: f"{D(4)}.{D(3)}.{D(3)}")


def iban(cc):
    bban = {"DE": lambda: D(18), "GB": lambda: pick(["NWBK", "BARC", "HBUK", "LOYD"]) + D(14), "FR": lambda: D(10) + UN(11) + D(2),
            "ES": lambda: D(20), "NL": lambda: pick(["ABNA", "INGB", "RABO"]) + D(10), "IT": lambda: pick("XYZABC") + D(10) + UN(12)}[cc]()
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    check = 98 - int(num) % 97
    s = f"{cc}{check:02d}{bban}"
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


@fam("iban-receive-payment", 8)
def f_iban(_):
    return ml({"en": ["Rent goes to my landlord's account {gb}, reference 'Flat 3 rent'.", "For the group gift, send your share to my IBAN {gb}."],
               "de": ["Für das Geschenk bitte 15 € auf mein Konto überweisen: {de}, Verwendungszweck 'Geschenk Lena'."],
               "es": ["Para el bote de la cena: {es_}, concepto 'cena viernes'."], "fr": ["Pour la cagnotte : virement sur {fr}."],
               "nl": ["Tikkie werkt niet, maak het maar over naar {nl}."], "it": ["Per la quota del regalo: bonifico su {it}."]},
              gb=lambda l: iban("GB"), de=lambda l: iban("DE"), es_=lambda l: iban("ES"), fr=lambda l: iban("FR"),
              nl=lambda l: iban("NL"), it=lambda l: iban("IT"))


@fam("version-string")
def f_version(_):
    return pick([f"Upgraded Postgres to 16.{R.randint(1, 4)} and the app to v2.{R.randint(1, 20)}.{R.randint(0, 9)}-rc.{R.randint(1, 4)}+build.{D(4)}.",
                 f"Node v20.{R.randint(10, 18)}.{R.randint(0, 3)} breaks the old sharp build; pin to 0.32.{R.randint(0, 6)}.",
                 f"Phone updated to iOS 18.{R.randint(0, 3)}.{R.randint(0, 2)}, build 22{pick('ABCDEF')}{R.randint(10, 99)}{pick('abc')}."]), "en"


@fam("hex-colour")
def f_hex(_):
    return pick([f"Brand colours: primary #{HU(6)}, accent #{HU(6)}, text #{HU(6)}.", f"Living room paint: Farrow & Ball 'Hague Blue', closest hex #{HU(6)}.",
                 {"theme": {"bg": "#" + H(6), "fg": "#" + H(6), "link": "#" + H(6)}}]), "en"


@fam("base64-image-data-uri", 5)
def f_png(_):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00" + rbytes(R.randint(40, 110)) + b"\x00\x00\x00\x00IEND\xaeB`\x82"
    return f"favicon inline: <img src=\"data:image/png;base64,{base64.b64encode(png).decode()}\" alt=\"logo\">", "en"


@fam("url-random-id")
def f_urlid(_):
    return pick([f"Recipe video: https://www.youtube.com/watch?v={BU(11)} (the 10-minute version)",
                 f"Song for the wedding: https://open.spotify.com/track/{A(22)}",
                 f"Issue to follow: https://github.com/{company()}/{pick(['web', 'cli'])}/issues/{R.randint(100, 9999)}",
                 f"Lamp we liked: https://www.amazon.de/dp/B0{UN(8)}", f"Meeting spot: https://maps.app.goo.gl/{A(17)}"]), "en"


@fam("log-request-id")
def f_reqid(_):
    return (f"{ts_iso()} INFO request_id={H(32)} trace_id={H(32)} span_id={H(16)} method=GET path=/api/v1/orders status=200 duration_ms={R.randint(5, 900)}",
            "en")


@fam("zip-postal-code", 8)
def f_zip(_):
    return ml({"en": ["Postcode for the new flat is {uk}, the old one was {uk2}.", "Ship it to ZIP {us}, apartment 4B."],
               "de": ["Postleitzahl der neuen Wohnung: {de} {city}."], "nl": ["Postcode {nl} {d2}, huisnummer 12."],
               "ja": ["郵便番号〒{jp}、東京都渋谷区。"], "fr": ["Code postal {fr5}, Lyon 3e."]},
              uk=lambda l: f"{pick(['SW', 'EC', 'M', 'LS', 'BS'])}{R.randint(1, 20)} {R.randint(1, 9)}{rs('ABDEFGHJLNPQRSTUWXYZ', 2)}",
              uk2=lambda l: f"{pick(['N', 'E', 'W'])}{R.randint(1, 20)} {R.randint(1, 9)}{rs('ABDEFGHJLNPQRSTUWXYZ', 2)}",
              us=lambda l: D(5), de=lambda l: D(5), city=lambda l: pick(CITIES["de"]), nl=lambda l: NZ(4),
              d2=lambda l: rs("ABCDEFGHJKLMNPRSTUVWXZ", 2), jp=lambda l: f"{D(3)}-{D(4)}", fr5=lambda l: "690" + D(2))


@fam("error-code", 8)
def f_err(_):
    return pick([f"Windows Update keeps failing with 0x{HU(8)}; the forum says clear the SoftwareDistribution folder.",
                 "Oracle gave ORA-01017 (invalid username/password; logon denied) — turned out the account was locked, not a wrong password.",
                 "psql: FATAL: password authentication failed for user \"app\" (SQLSTATE 28P01) — pg_hba.conf was set to scram.",
                 f"Dishwasher shows error code E{R.randint(10, 30)}, manual says check the drain filter.",
                 f"Boiler fault code F{R.randint(20, 80)} again, plumber booked for Thursday.",
                 "Error 1045 (28000): Access denied for user 'root'@'localhost' — fixed by using the socket auth plugin."]), "en"


@fam("area-code-dialing")
def f_area(_):
    return pick([f"Area code for Denver is 303/720; office line 303-555-01{D(2)} (ext. {D(3)}).",
                 "Country code for Portugal is +351, then drop the leading zero — no wait, Portugal doesn't use one.",
                 "Calling Tokyo from abroad: +81 3 then the 8-digit number; 090/080 prefixes are mobiles."]), "en"


@fam("http-status-code")
def f_http(_):
    return pick([f"Webhook endpoint returned {pick([401, 403, 429, 502, 503])} overnight; Stripe retried {R.randint(3, 9)} times with backoff.",
                 "Remember: 401 means missing/invalid auth, 403 means authenticated but not allowed. The mobile team keeps mixing them up.",
                 "Status code 418 in the test suite is intentional, it's the 'I'm a teapot' easter egg endpoint."]), "en"


@fam("promo-code-public", 8)
def f_promo(_):
    return ml({"en": ["Flyer at the café says use code {p} for 25% off, valid for everyone until May.",
                      "The podcast ad code is {p} — 3 months free, they read it out on every episode."],
               "de": ["Gutscheincode {p} aus der Zeitungsbeilage, gilt für alle Neukunden."], "es": ["Código promocional {p} del folleto, válido para todos hasta junio."],
               "fr": ["Code promo {p} vu sur l'affiche du métro, -20% pour tout le monde."]},
              p=lambda l: pick({"en": ["SPRING", "WELCOME", "SUMMER", "PODCAST", "NEWYEAR"], "de": ["FRUEHLING", "WILLKOMMEN", "SOMMER"],
                                 "es": ["VERANO", "BIENVENIDA", "PRIMAVERA"], "fr": ["PRINTEMPS", "BIENVENUE", "ETE"]}[l]) + str(R.randint(10, 30)))


@fam("referral-code-share")
def f_referral(_):
    return pick([f"My Revolut referral code is {LN(5)}{D(2)} — share it with friends, we both get €20.",
                 f"Invite link for the climbing gym app, code {UN(6)}; post it in the group chat.",
                 f"Airbnb invite code {UN(4)}{D(2)} gives new users a discount, it's public on my blog."]), "en"


@fam("india-pincode")
def f_pincode(_):
    return pick([f"Delivery PIN code {R.randint(110, 855)}{D(3)} (Koramangala), landmark: opposite the park.",
                 f"Mom's address: 12 MG Road, Pune, PIN {R.randint(411, 412)}0{D(2)}.",
                 f"पिन कोड {R.randint(110, 855)}{D(3)}, पास में हनुमान मंदिर है।"]), pick(["en", "hi"])


@fam("icd-medical-code")
def f_icd(_):
    return pick(["Diagnosis code E11.9 (type 2 diabetes, no complications) on the insurance form; visit billed as CPT 99213.",
                 "Physio referral says M54.5 (low back pain); need 6 sessions approved.",
                 "ICD-10 J45.909 for the asthma, the pharmacist needed it for the inhaler refill."]), "en"


@fam("airport-iata-code")
def f_iata(_):
    return pick(["Route: LHR → HEL → NRT, 1h15 layover in Helsinki, gate codes change often.",
                 "Cheaper to fly into BGY than MXP, then the bus to Milano Centrale.",
                 "Return flight from OPO to AMS lands 21:40, Schiphol Plaza meeting point."]), "en"


@fam("swift-bic-code")
def f_swift(_):
    return pick([f"Bank's SWIFT/BIC is {pick(['DEUTDEFF', 'BNPAFRPP', 'INGBNL2A', 'BARCGB22', 'CAIXESBB'])}, needed for the transfer from Canada.",
                 "Sort code and BIC are on the back of the statement; the BIC for Revolut is REVOGB21."]), "en"


@fam("publishable-key", 8)
def f_pk(_):
    return pick([f"Stripe publishable key for the checkout page (safe to expose in the frontend): pk_live_{A(24)}",
                 f"<script>Stripe('pk_live_{A(99)}')</script> — publishable key, meant to be public.",
                 f"PostHog project API key phc_{A(43)} goes in the browser snippet; it's write-only and public by design.",
                 f"Mapbox public token pk.{b64url_json({'u': 'acme', 'a': LN(25)})}.{BU(22)} for the store locator map (URL-restricted)."]), "en"


@fam("crypto-public-address", 8)
def f_addr(_):
    return pick([f"Donations welcome: ETH 0x{H(40)} (public address, receive only).",
                 f"BTC address for the invoice: bc1q{rs('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 38)}",
                 f"Send the USDC to my wallet address 0x{H(40)} on Polygon, not mainnet."]), "en"


@fam("word-token-nlp")
def f_tokens(_):
    return pick([f"GPT-4o context is 128k tokens; our prompt averages ~{R.randint(1500, 6000)} tokens per call, so cost is fine.",
                 "Tokenizer splits 'unbelievable' into 3 tokens; set max_tokens=512 for the summary step.",
                 "Rate limit is 30k tokens per minute on the free tier — batch the requests."]), "en"


@fam("word-token-misc", 5)
def f_tokens2(_):
    return pick(["Bought 20 arcade tokens for the kids' party, they went in ten minutes.", "Small gift as a token of appreciation for the neighbours who fed the cat.",
                 "Old subway token from NYC 1990s found in the coat pocket — keep for the collection."]), "en"


@fam("word-key-music")
def f_keymusic(_):
    return pick(["Song is in the key of F# minor; capo on 2 and play E minor shapes.", "Choir piece transposed down a whole step to key of C for the altos.",
                 "Key signature has three flats, so E♭ major or C minor — check the last chord."]), "en"


@fam("word-key-database", 5)
def f_keydb(_):
    return pick(["Primary key is (tenant_id, id); add a foreign key from invoices.customer_id to customers.id.",
                 "Use a natural key for countries (ISO alpha-2) but surrogate keys everywhere else.",
                 "Redis key naming: user:{id}:sessions, TTL 30 days."]), "en"


@fam("word-pass-travel")
def f_pass(_):
    return pick(["Bought the Swiss Travel Pass (8 days) and the boarding pass is in the wallet app.",
                 "Stelvio Pass is closed until June because of snow; take the Umbrail instead.",
                 "Passed the driving test on the second try!! Pass certificate arrives by post.", "Museum pass covers 60 sites in Paris, 2-day version."]), "en"


@fam("word-secret-recipe")
def f_secretword(_):
    return pick(["The secret ingredient in Dad's chili is a square of dark chocolate and a shot of espresso.",
                 "Secret Santa at work: I got Tom, budget £20, he likes board games.", "Surprise party for Mia is a secret — don't mention it in the family chat!",
                 "Victoria Secret order arrived, wrong size, return label printed."]), "en"


@fam("word-pin-misc")
def f_pinword(_):
    return pick(["Connect the sensor data line to GPIO pin 17 and ground to pin 6 on the Raspberry Pi.",
                 "Dropped a pin on the map for the picnic spot by the lake.", "Pinned the meeting notes in the team channel.",
                 "Bowling night: knocked down 9 pins on the first frame, then gutter.", "Need a new hairpin and safety pins for the costume."]), "en"


@fam("code-words-misc", 8)
def f_codewords(_):
    return ml({"en": ["Dress code for the wedding is black tie optional.", "Course code CS-2103 clashes with the stats lab on Tuesdays.",
                      "Scan the QR code on the table to see the menu, no app needed.", "Colour code for the cables: red = power, blue = data."],
               "de": ["Dresscode für die Feier: sommerlich elegant."], "es": ["El código de vestimenta es informal, nada de corbata."],
               "fr": ["Code vestimentaire pour le mariage : tenue de soirée, cravate facultative."], "ja": ["結婚式のドレスコードはスマートカジュアル。ジャケットは必須、ネクタイはなくてもOKとのこと。"]})


@fam("secret-manager-reference")
def f_smref(_):
    return pick([f"DB password lives in AWS Secrets Manager: arn:aws:secretsmanager:{pick(REGIONS)}:{D(12)}:secret:prod/db-{A(6)}",
                 "vault kv get -field=password secret/prod/postgres  # never paste the output in Slack",
                 f"Key Vault reference: @Microsoft.KeyVault(SecretUri=https://kv-{company()}.vault.azure.net/secrets/DbPassword/)",
                 "GCP: projects/acme-prod/secrets/stripe-key/versions/latest is mounted as a file at /secrets/stripe"]), "en"


@fam("ci-secrets-reference")
def f_ciref(_):
    return pick(["env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password",
                 "steps:\n  - run: ./deploy.sh\n    env:\n      API_TOKEN: ${{ secrets.API_TOKEN }}\n      AWS_ROLE_ARN: ${{ vars.AWS_ROLE_ARN }}",
                 "deploy:\n  script: ./release.sh\n  variables:\n    TOKEN: $CI_JOB_TOKEN", "withCredentials([string(credentialsId: 'sonar-token', variable: 'SONAR_TOKEN')]) { sh 'mvn sonar:sonar' }"]), "en"


@fam("schema-password-column")
def f_schema(_):
    return pick(["CREATE TABLE users (\n  id BIGSERIAL PRIMARY KEY,\n  email TEXT UNIQUE NOT NULL,\n  password_hash TEXT NOT NULL,\n  mfa_enabled BOOLEAN DEFAULT false\n);",
                 "<label for=\"pw\">Password</label>\n<input id=\"pw\" type=\"password\" name=\"password\" autocomplete=\"new-password\" minlength=\"12\" required>",
                 "class LoginForm(forms.Form):\n    email = forms.EmailField()\n    password = forms.CharField(widget=forms.PasswordInput)",
                 "{\"type\": \"object\", \"properties\": {\"username\": {\"type\": \"string\"}, \"password\": {\"type\": \"string\", \"minLength\": 12, \"writeOnly\": true}}}"]), "en"


@fam("password-statistics")
def f_stats(_):
    return pick(["The most common password in the 2023 reports was still 123456, followed by 'password' and 'qwerty' — depressing stats for the talk.",
                 "Article says 'iloveyou' and '111111' are still in the top 20 leaked passwords worldwide.",
                 "Breach data shows 'dragon' and 'monkey' among top passwords from the 2010s; good slide for the awareness training."]), "en"


@fam("otp-explanation", 8)
def f_otpexp(_):
    return ml({"en": ["The bank sends a 6-digit code by SMS whenever I log in from a new device; it expires after 5 minutes.",
                      "Authenticator app codes rotate every 30 seconds, so there's no point writing them down."],
               "de": ["Die Bank schickt bei jeder Überweisung eine TAN per pushTAN-App, die ist nur ein paar Minuten gültig."],
               "es": ["El banco manda un código por SMS cada vez que pago online, caduca a los 5 minutos."],
               "fr": ["La banque envoie un code par SMS à chaque paiement en ligne, valable quelques minutes."],
               "ja": ["ログインのたびにSMSで6桁の認証コードが届く。有効期限は5分なので、メモしておく必要はない。"],
               "zh": ["每次在新设备登录，银行都会发一个6位短信验证码，5分钟内有效，所以不用记下来，过期了重新获取就行。"]})


@fam("wifi-no-password", 8)
def f_wifiopen(_):
    return ml({"en": ["Café wifi is open (no password), network name BeanThere_Guest — use the VPN there.",
                      "The wifi password is on the sticker under the router, I never wrote it down.",
                      "Hotel wifi login uses your room number and surname, nothing to remember."],
               "de": ["Das WLAN-Passwort steht auf dem Aufkleber unten an der FRITZ!Box."], "es": ["La contraseña del wifi está en la pegatina del router."],
               "fr": ["Le code wifi est sur l'étiquette au dos de la box."], "it": ["La password del wifi è sull'etichetta sotto il modem."],
               "pt": ["A senha do wifi tá no adesivo embaixo do roteador."]})


@fam("door-code-where-to-get", 8)
def f_doorwhere(_):
    return ml({"en": ["The door code gets texted by the host on the morning of arrival, so check SMS before leaving the airport.",
                      "Gym code changes every month; ask at reception or check the members' app.", "Building uses fobs now, no door code anymore."],
               "de": ["Den Türcode schickt der Vermieter am Anreisetag per SMS."], "fr": ["Le digicode est envoyé par l'hôte le jour de l'arrivée."],
               "es": ["El código del portal lo manda el anfitrión el día de llegada."], "it": ["Il codice del portone lo manda l'host il giorno dell'arrivo."]})


@fam("2fa-setup-talk")
def f_2fa(_):
    return pick(["Set up 2FA on GitHub with the YubiKey and the phone as backup; recovery codes are printed and in the safe.",
                 "Switched Mum's email from SMS codes to the authenticator app after the SIM-swap story on the news.",
                 "Turned on passkeys for Google and Apple; still have the backup codes in the family vault, not here."]), "en"


@fam("seed-phrase-advice")
def f_seedadv(_):
    return pick(["Never type your 24 words into any website — Ledger support will never ask for your recovery phrase.",
                 "Engraved the seed on a steel plate, stored it in the bank deposit box; nothing digital anywhere.",
                 "Reminder: a recovery phrase is 12 or 24 words from the BIP39 list; anyone with it controls the wallet."]), "en"


@fam("security-question-list")
def f_secq(_):
    return pick(["Security questions offered: first pet, mother's maiden name, first school. I use random answers stored in the password manager.",
                 "The airline wants 3 security questions set up before changing the email; did it at the desktop, answers are in the vault.",
                 "Bank dropped security questions and now uses the app for verification — one less thing to remember."]), "en"


@fam("mac-address")
def f_mac(_):
    mac = ":".join(H(2) for _ in range(6))
    return pick([f"Printer MAC {mac}, reserved at 192.168.1.{R.randint(20, 80)} in the DHCP settings.",
                 f"Kid's tablet MAC is {mac}, added to the bedtime schedule in the router."]), "en"


@fam("ip-address")
def f_ip(_):
    return pick([f"Home server at {ipv4_private()}, NAS at .{R.randint(2, 99)}; public IP changes weekly so use the DDNS name.",
                 f"Office VPN gateway is {ipv4_doc()}, split tunnel only for 10.0.0.0/8."]), "en"


def imei():
    body = "35" + D(12)
    return body + luhn_digit(body)


@fam("imei-serial")
def f_imei(_):
    return pick([f"Phone IMEI {imei()} for the insurance claim; serial {UN(12)}.", f"Laptop serial number {UN(10)}, warranty until 2027.",
                 f"Bike frame number WBK{D(7)} registered with the police bike register."]), "en"


@fam("meeting-id-no-passcode")
def f_meeting(_):
    return pick([f"Zoom meeting ID {D(3)} {D(4)} {D(4)} — passcode is in the calendar invite, not here.",
                 f"Teams call at 3pm, conference ID {D(3)} {D(3)} {D(3)}#, dial-in number on the invite."]), "en"


@fam("numbers-near-pin-words", 6)
def f_numbers(_):
    return pick([f"Lucky numbers for the lottery syndicate: {', '.join(str(x) for x in sorted(R.sample(range(1, 50), 6)))}.",
                 f"Parking spot is P{R.randint(1, 4)}-{R.randint(100, 999)}, level {R.randint(-3, -1)}.",
                 f"Apartment buzzer is number {R.randint(2, 60)}, no code needed during the day.",
                 f"Gym locker #{R.randint(100, 400)} — I use my own padlock with a key."]), "en"


def isbn13():
    body = "978" + D(9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


@fam("isbn")
def f_isbn(_):
    i = isbn13()
    return pick([f"Book for the course: ISBN {i[:3]}-{i[3]}-{i[4:7]}-{i[7:12]}-{i[12]}, 3rd edition.", f"Library hold on ISBN {i}, pick up by Friday."]), "en"


@fam("crypto-code-no-secret")
def f_cryptocode(_):
    return pick(["key = os.urandom(32)  # generated at runtime, stored in KMS\ncipher = AESGCM(key)",
                 "digest = hashlib.sha256(payload).hexdigest()\nassert hmac.compare_digest(digest, expected)",
                 "const hash = await bcrypt.hash(password, 12); // store only the hash"]), "en"


@fam("test-fixture-dummy")
def f_fixture(_):
    return pick(["def test_login_rejects_wrong_password(client):\n    resp = client.post('/login', json={'user': 'alice', 'password': 'wrong-password'})\n    assert resp.status_code == 401",
                 "fixtures:\n  user:\n    email: test@example.com\n    password: not-a-real-password",
                 "mock_stripe = MagicMock(api_key='dummy-key-for-tests')"]), "en"


@fam("base64-benign-payload")
def f_b64benign(_):
    obj = pick([{"theme": "dark", "lang": pick(["de", "en", "fr"])}, {"cart": [R.randint(100, 999)], "v": 2}, {"tour_seen": True, "step": R.randint(1, 6)}])
    enc = base64.b64encode(json.dumps(obj).encode()).decode()
    return pick([f"Cookie 'prefs' holds base64 JSON: {enc} (just UI settings)", f"Saved app state: {enc} — decodes to {json.dumps(obj)}"]), "en"


@fam("receipt-approval-code")
def f_receipt(_):
    return (f"Receipt: VISA ****{D(4)} AUTH CODE {D(5)}{pick(UPP)} REF {D(7)} TOTAL €{R.randint(5, 200)}.{D(2)} — keep for the expense report.", "en")


@fam("locker-number-no-code", 4)
def f_locker(_):
    return pick([f"Swim locker {R.randint(1, 300)}, the wristband opens it — no code.", f"Left the parcel in locker {R.randint(1, 60)} at the office mailroom."]), "en"


@fam("talk-pin-multilang", 10)
def f_pinml(_):
    return ml({"en": ["The new card arrived; the PIN letter comes separately in a few days."],
               "de": ["Die neue Karte ist da, der PIN-Brief kommt separat in ein paar Tagen."],
               "es": ["Ha llegado la tarjeta nueva; el PIN llega por separado en unos días."],
               "fr": ["La nouvelle carte est arrivée, le code PIN arrive séparément dans quelques jours."],
               "it": ["È arrivata la carta nuova, il PIN arriva in una busta separata."], "pt": ["O cartão novo chegou, a senha vem em outra carta."],
               "pl": ["Przyszła nowa karta, PIN przyjdzie osobno za kilka dni."], "tr": ["Yeni kart geldi, şifresi ayrı bir zarfla gelecekmiş."],
               "ru": ["Пришла новая карта, ПИН-код придёт отдельным письмом."], "ja": ["新しいカードが届いた。暗証番号は別の封筒で数日後に届くらしい。"],
               "zh": ["新卡到了，密码函会另外寄过来。"], "ko": ["새 카드 도착. 비밀번호 안내문은 따로 며칠 뒤에 온다고 함."],
               "ar": ["وصلت البطاقة الجديدة، والرقم السري بيجي برسالة منفصلة بعد كم يوم."], "he": ["הכרטיס החדש הגיע, הקוד הסודי יגיע במכתב נפרד."],
               "hi": ["नया कार्ड आ गया है, पिन अलग से कुछ दिनों में आएगा।"], "vi": ["Thẻ mới đã về, mã PIN sẽ gửi riêng sau vài ngày."],
               "id": ["Kartu baru sudah datang, PIN-nya dikirim terpisah beberapa hari lagi."], "el": ["Ήρθε η νέα κάρτα, το PIN έρχεται ξεχωριστά σε λίγες μέρες."],
               "nl": ["De nieuwe pas is binnen, de pincode komt apart over een paar dagen."], "sv": ["Nya kortet har kommit, pinkoden kommer separat om några dagar."]})


@fam("talk-password-hygiene-multilang", 10)
def f_hyg(_):
    return ml({"en": ["Note to self: never reuse the email password anywhere else, and don't share it in chats."],
               "de": ["Merken: Mail-Passwort nirgends wiederverwenden und nie per WhatsApp verschicken."],
               "es": ["Recordatorio: no repetir la contraseña del correo en otras webs ni mandarla por WhatsApp."],
               "fr": ["Rappel : ne jamais réutiliser le mot de passe de la boîte mail ni l'envoyer par message."],
               "it": ["Promemoria: non riutilizzare mai la password della mail e non mandarla in chat."],
               "pt": ["Lembrete: nunca repetir a senha do e-mail em outros sites nem mandar no zap."],
               "ru": ["Напоминание: не использовать пароль от почты на других сайтах и не пересылать его в мессенджерах."],
               "ja": ["自分用メモ：メールのパスワードは他のサイトで使い回さない。チャットで送らない。"],
               "zh": ["提醒自己：邮箱密码不要在别的网站重复使用，也不要在聊天里发。"],
               "ko": ["메모: 이메일 비밀번호는 다른 사이트에 재사용하지 말고 채팅으로 보내지 말 것."],
               "tr": ["Not: mail şifresini başka sitelerde kullanma, mesajla da gönderme."],
               "pl": ["Notatka: nie używać hasła do poczty nigdzie indziej i nie wysyłać go na czacie."]})


def gen_benign_hard():
    for name, n, fn in FAMILIES:
        for _ in range(n):
            def spec(fn=fn, name=name):
                v, lang = fn(None)
                return dict(label="benign", variant="hard", segment=name, kind=name, value=v, lang=lang, group="benign-hard")
            produce(spec, tries=30 if name != "x509-certificate" else 2)


# ---------------------------------------------------------------------------
# PART H: orchestration, self-checks, output
# ---------------------------------------------------------------------------
SECRET_PREFIX_PROBES = ["sk_live_", "rk_live_", "ghp_", "gho_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "AKIA", "ASIA", "sk-proj-",
                        "sk-ant-", "AIza", "hf_", "npm_", "SG.", "dop_v1_", "shpat_", "-----BEGIN OPENSSH PRIVATE", "-----BEGIN RSA PRIVATE",
                        "-----BEGIN EC PRIVATE", "-----BEGIN PRIVATE KEY", "hooks.slack.com/services/T", "discord.com/api/webhooks/"]
BENIGN_PROBE_ALLOW = {"aws-doc-example-key", "placeholder-xxx", "token-prefix-only", "redacted-log", "placeholder-stars-mask",
                      "vendor-doc-test-values", "jwt-io-example", "placeholder-angle-brackets"}


def self_checks():
    ids = [r["id"] for r in RECORDS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    canon_all = [canon(r["value"]) for r in RECORDS]
    assert len(canon_all) == len(set(canon_all)), "duplicate canonical values"
    long_secrets = sorted({s for s in SECRET_STRINGS if isinstance(s, str) and len(s) >= 8})
    for r, m in zip(RECORDS, META):
        assert re.fullmatch(r"mem_[0-9a-f]{8,}", r["key"]), r["key"]
        assert r["namespace"][0] == "memories" and re.fullmatch(r"u\d+", r["namespace"][1]), r["namespace"]
        if r["label"] != "benign":
            continue
        text = record_text(r["value"], r["key"], r["namespace"]) + "\n" + json.dumps(r["value"], ensure_ascii=False)
        for sec in long_secrets:
            assert sec not in text, (r["id"], sec)
        if r["kind"] not in BENIGN_PROBE_ALLOW:
            for probe in SECRET_PREFIX_PROBES:
                assert probe not in text, (r["id"], probe)
    # sanity: every payment card in a secret record is Luhn-valid and not a published test number
    ncards = 0
    for r, m in zip(RECORDS, META):
        if r["label"] == "secret" and r["kind"] == "payment-card":
            n = re.sub(r"\D", "", m["secret"])
            assert 15 <= len(n) <= 19 and luhn_ok(n) and n not in PUBLISHED_TEST_CARDS, (r["id"], n)
            ncards += 1
    assert ncards >= 20


def shape(v):
    return "string" if isinstance(v, str) else "object" if isinstance(v, dict) else "array"


def table(headers, rows):
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        out.append("| " + " | ".join(str(c) for c in row) + " |")
    return "\n".join(out)


def count_by(keyf, filt=lambda r, m: True):
    c = {}
    for r, m in zip(RECORDS, META):
        if filt(r, m):
            k = keyf(r, m)
            c[k] = c.get(k, 0) + 1
    return c


def compact_counts(c):
    return ", ".join(f"`{k}` ({v})" for k, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))


LANG_NAMES = {"en": "English", "es": "Spanish", "fr": "French", "de": "German", "it": "Italian", "pt": "Portuguese", "nl": "Dutch",
              "pl": "Polish", "sv": "Swedish", "tr": "Turkish", "ru": "Russian", "el": "Greek", "ar": "Arabic", "he": "Hebrew",
              "hi": "Hindi", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "vi": "Vietnamese", "id": "Indonesian", "fa": "Persian",
              "th": "Thai", "bn": "Bengali"}


def build_readme(sha):
    n = len(RECORDS)
    lv = count_by(lambda r, m: (r["label"], r["variant"]))
    groups = count_by(lambda r, m: m["group"])
    shapes = count_by(lambda r, m: (r["label"], r["variant"], shape(r["value"])))
    nonstr = sum(1 for r in RECORDS if not isinstance(r["value"], str))
    lens = [vlen(r["value"]) for r in RECORDS]
    inrange = sum(1 for x in lens if 40 <= x <= 400)
    buckets = [("< 40", lambda x: x < 40), ("40-99", lambda x: 40 <= x < 100), ("100-199", lambda x: 100 <= x < 200),
               ("200-299", lambda x: 200 <= x < 300), ("300-400", lambda x: 300 <= x <= 400), ("> 400", lambda x: x > 400)]
    vendor_kinds = count_by(lambda r, m: r["kind"], lambda r, m: m["group"] == "vendor")
    personal_kinds = count_by(lambda r, m: r["kind"], lambda r, m: m["group"] == "personal")
    personal_langs = count_by(lambda r, m: m["lang"], lambda r, m: m["group"] == "personal")
    vendor_conts = count_by(lambda r, m: m["segment"], lambda r, m: m["group"] == "vendor")
    techniques = count_by(lambda r, m: m["segment"], lambda r, m: m["group"] == "hard")
    hard_kinds = count_by(lambda r, m: r["kind"], lambda r, m: m["group"] == "hard")
    families = count_by(lambda r, m: m["segment"], lambda r, m: m["group"] == "benign-hard")
    bp_kinds = count_by(lambda r, m: r["kind"], lambda r, m: m["group"] == "benign-plain")
    langs = count_by(lambda r, m: (m["lang"], r["label"], r["variant"]))
    all_langs = sorted({m["lang"] for m in META})
    L = []
    L.append("# Held-out secret-detector corpus #12 (`heldout12.jsonl`)\n")
    L.append("**Status: FROZEN — evaluation only.** Never tune, train, pick thresholds or write rules against this file. "
             "The jsonl is never edited; any labelling errors found later go into a separate `ERRATA.md` next to it "
             "(record id + corrected label + reason), and scores should be reported both raw and with errata applied.\n")
    L.append(f"- file: `heldout12.jsonl` ({n} records, one JSON object per line, UTF-8)")
    L.append(f"- sha256: `{sha}`")
    L.append(f"- generator: `make_heldout12.py` (Python 3.11 standard library only), seed `random.Random(1212_2026)` — a single RNG instance; "
             "re-running it reproduces the file byte for byte.\n")
    L.append("## Independence statement\n")
    L.append("This corpus was written by an AI helper from its own general knowledge of credential formats, configuration files and "
             "how people write notes and chats. While building it the helper read nothing under `/work/main` except the files it "
             "created in this folder (`tests/data/secrets_heldout12/`), and nothing under `/work/shared`: no other test data, no "
             "project code, no docs, no benchmarks. It did not run git, did not import or run any project code, did not run any "
             "secret scanner (detect-secrets, gitleaks, betterleaks, kingfisher, trufflehog or others), did not use web/code/doc "
             "search tools, and did not install packages. The only commands it ran were `python3` (this generator and ad-hoc checks of its "
             "own output) and basic shell utilities (mkdir, ls, grep, sed, wc, sha256sum) on files inside this folder. Every vendor format (prefixes, lengths, alphabets) is reproduced from "
             "memory and may deviate from the vendor's current spec; all secret values are synthetic, generated from the seeded RNG "
             "(payment card numbers are Luhn-valid with real brand prefixes and are checked not to be published test numbers; "
             "the few well-known published documentation/test values appear only in benign records that say they are examples).\n")
    L.append("## Record format\n")
    L.append("```json\n{\"id\": \"h12-{s|b}-{p|h}-{segment}-{nnn}\", \"label\": \"secret\"|\"benign\", \"kind\": \"<short kind>\", "
             "\"variant\": \"plain\"|\"hard\", \"namespace\": [\"memories\", \"u<digits>\"], \"key\": \"mem_<hex>\", "
             "\"value\": <string | object | array>}\n```\n")
    L.append("- `s`/`b` = secret/benign, `p`/`h` = plain/hard. `segment`: secret/plain → container or source "
             "(`env`, `yaml`, `json`, `code-<lang>`, `curl`, `http`, `log`, `stacktrace`, `ticket`, `email`, `chat`, `note`, "
             "`prose-<lang>`, `chat-<lang>`, `form-<lang>`, `transcript-<lang>`, ...); secret/hard → evasion technique; "
             "benign/plain → source (`note-<lang>`, `record-<lang>`, `code-<lang>`); benign/hard → look-alike family.")
    L.append("- `key` is normally `mem_` + 8..32 random hex chars. Exceptions (by design): technique `secret-in-key` and "
             "`split-key-value` put the hex-encoded secret (or half of it) in the key, and technique `secret-in-namespace` adds a "
             "third namespace element that carries the secret.")
    L.append("- A detector should be given (namespace, key, value) and must REFUSE every `secret` record and ACCEPT every `benign` one.\n")
    L.append("## Labelling policy\n")
    L.append("- **secret**: anything that grants access if copied — API keys/tokens, client secrets, webhook URLs with secret paths, "
             "connection strings with passwords, private keys (PEM/OpenSSH/PGP/PuTTY/WIF/xprv/age/seed phrases), signing secrets, "
             "session cookies, JWTs, account passwords, PINs/PUKs, door/alarm/garage/safe/locker/keybox codes, one-time codes, "
             "recovery codes/keys, security-question answers, full card numbers (with or without expiry/CVV), gift-card claim codes, "
             "national-login passwords/PINs — also when encoded, split or disguised.")
    L.append("- **benign**: personal data that is not an access credential (phones, emails, addresses, birthdays, health facts, "
             "order/tracking/booking numbers, device identifiers such as IMEI/MAC/serials); talk *about* secrets without the value; "
             "placeholders and masked/redacted values; documented example/test values that are explicitly marked as such; public "
             "keys, certificates, fingerprints, signatures, hashes, digests, UUIDs; publishable keys that are public by design "
             "(Stripe `pk_live_`, PostHog `phc_`, Mapbox `pk.`); receive-only crypto addresses. **IBAN policy:** an IBAN given "
             "so that others can *pay you* is treated as benign (it cannot be used to withdraw money); the card *last four* digits are benign.\n")
    L.append("## Counts\n")
    L.append(table(["label", "variant", "records"], [(a, b, lv[(a, b)]) for a, b in sorted(lv)]))
    L.append(f"\nTotal: **{n}** records — secret {sum(v for (a, _), v in lv.items() if a == 'secret')}, "
             f"benign {sum(v for (a, _), v in lv.items() if a == 'benign')}.\n")
    L.append(table(["group", "records", "distinct kinds / techniques / families"],
                   [("secret/plain — vendor & provider credentials", groups.get("vendor", 0), f"{len(vendor_kinds)} formats"),
                    ("secret/plain — personal secrets", groups.get("personal", 0), f"{len(personal_kinds)} kinds, {len(personal_langs)} languages"),
                    ("secret/hard — evasion techniques", groups.get("hard", 0), f"{len(techniques)} techniques"),
                    ("benign/plain — ordinary memories", groups.get("benign-plain", 0), f"{len({m['lang'] for m in META if m['group'] == 'benign-plain'})} languages"),
                    ("benign/hard — look-alikes", groups.get("benign-hard", 0), f"{len(families)} families")]))
    L.append("\n### Value shapes\n")
    L.append(table(["label", "variant", "string", "object", "array"],
                   [(a, b, shapes.get((a, b, "string"), 0), shapes.get((a, b, "object"), 0), shapes.get((a, b, "array"), 0)) for a, b in sorted(lv)]))
    L.append(f"\nObjects/arrays: {nonstr} of {n} ({100 * nonstr / n:.1f}%).\n")
    L.append("### Value lengths (string length, or compact JSON length for objects/arrays)\n")
    L.append(table(["length", "secret", "benign", "all"],
                   [(name, sum(1 for r, x in zip(RECORDS, lens) if f(x) and r["label"] == "secret"),
                     sum(1 for r, x in zip(RECORDS, lens) if f(x) and r["label"] == "benign"), sum(1 for x in lens if f(x))) for name, f in buckets]))
    L.append(f"\nWithin 40..400: {inrange} of {n} ({100 * inrange / n:.1f}%). Longer values are full PEM/RSA keys, service-account JSON "
             "and certificates that cannot be realistic at <= 400 chars.\n")
    L.append("### Languages (records per language)\n")
    L.append(table(["lang", "name", "secret/plain", "secret/hard", "benign/plain", "benign/hard"],
                   [(lg, LANG_NAMES.get(lg, lg), langs.get((lg, "secret", "plain"), 0), langs.get((lg, "secret", "hard"), 0),
                     langs.get((lg, "benign", "plain"), 0), langs.get((lg, "benign", "hard"), 0)) for lg in all_langs]))
    L.append(f"\nPersonal secrets cover {len(personal_langs)} languages: {', '.join(f'{LANG_NAMES[k]} ({v})' for k, v in sorted(personal_langs.items()))}.\n")
    L.append("### secret/plain — containers of vendor credentials\n")
    L.append(compact_counts(vendor_conts) + "\n")
    L.append(f"### secret/plain — vendor/provider credential formats ({len(vendor_kinds)})\n")
    L.append(compact_counts(vendor_kinds) + "\n")
    L.append(f"### secret/plain — personal secret kinds ({len(personal_kinds)})\n")
    L.append(compact_counts(personal_kinds) + "\n")
    L.append(f"### secret/hard — techniques ({len(techniques)})\n")
    L.append(table(["technique", "records"], sorted(techniques.items())))
    L.append(f"\nUnderlying secret kinds in hard records: {compact_counts(hard_kinds)}\n")
    L.append(f"### benign/plain — kinds\n")
    L.append(compact_counts(bp_kinds) + "\n")
    L.append(f"### benign/hard — look-alike families ({len(families)})\n")
    L.append(table(["family", "records"], sorted(families.items())))
    L.append("\n## Generator self-checks (asserted on every run)\n")
    L.append("- every secret record contains its secret in value, key or namespace; for encoded/split secrets the encoded pieces are "
             "present and decode back to the secret;")
    L.append("- ids unique; canonical values (sorted-key JSON) unique;")
    L.append("- no secret string of 8+ chars from any secret record occurs in any benign record; benign records contain none of a "
             "list of live-credential prefixes except in families that explicitly show placeholders/prefixes/documented examples;")
    L.append("- card numbers in secret records are Luhn-valid and not published test numbers;")
    L.append("- minima of the brief (counts, kinds, techniques, families, languages, shapes, lengths) are asserted before writing.\n")
    return "\n".join(L) + "\n"


def main():
    gen_vendor_records(extra=60)
    gen_personal_records()
    gen_hard_records(per=5)
    gen_benign_plain()
    gen_benign_hard()
    self_checks()

    # minima from the brief
    sec = [r for r in RECORDS if r["label"] == "secret"]
    ben = [r for r in RECORDS if r["label"] == "benign"]
    grp = lambda g: [(r, m) for r, m in zip(RECORDS, META) if m["group"] == g]
    assert len(sec) >= 1000 and len(ben) >= 900, (len(sec), len(ben))
    assert len({r["kind"] for r, _ in grp("vendor")}) >= 300
    assert len(grp("personal")) >= 350 and len({r["kind"] for r, _ in grp("personal")}) >= 30
    assert len({m["lang"] for _, m in grp("personal")}) >= 15
    assert len(grp("hard")) >= 350 and len({m["segment"] for _, m in grp("hard")}) >= 50
    assert len(grp("benign-plain")) >= 450 and len({m["lang"] for _, m in grp("benign-plain")}) >= 15
    assert len(grp("benign-hard")) >= 450 and len({m["segment"] for _, m in grp("benign-hard")}) >= 60
    assert sum(1 for r in RECORDS if not isinstance(r["value"], str)) >= 0.18 * len(RECORDS)
    assert sum(1 for r in RECORDS if 40 <= vlen(r["value"]) <= 400) >= 0.90 * len(RECORDS)

    order = list(range(len(RECORDS)))
    R.shuffle(order)
    RECORDS[:] = [RECORDS[i] for i in order]
    META[:] = [META[i] for i in order]
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS).encode("utf-8")
    with open(OUT_JSONL, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    with open(OUT_README, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(build_readme(sha))
    print(f"wrote {len(RECORDS)} records, sha256 {sha}")


if __name__ == "__main__":
    main()
