#!/usr/bin/env python3
"""Generator for the FROZEN held-out corpus `heldout6.jsonl`.

Standard library only, Python 3.11.  Fully deterministic: every random choice
comes from one seeded random.Random instance (plus gzip with mtime=0), no set
iteration, no hash(), no clock.  Run:

    python make_heldout6.py            # writes heldout6.jsonl next to this file

Written independently of the detector (no detector code, tests or other corpora
were consulted).  See README.md for the labelling policy.
"""
import base64
import gzip
import hashlib
import json
import os
import random
import string
import sys
import zlib

SEED = 606_2024
R = random.Random(SEED)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AL = UP + LO + DG
ALNUM_LO = LO + DG
ALNUM_UP = UP + DG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = UP + LO + DG + "+/"
B64URL = UP + LO + DG + "-_"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def sample(seq, k):
    return R.sample(list(seq), k)


def uuid4():
    n = R.getrandbits(128)
    h = "%032x" % n
    h = h[:12] + "4" + h[13:16] + "89ab"[int(h[16], 16) % 4] + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64url_nopad(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b58encode(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58encode(payload + chk)


B62 = DG + UP + LO


def base62(n, width):
    s = ""
    while n:
        n, r = divmod(n, 62)
        s = B62[r] + s
    return s.rjust(width, "0")


def gh_token(prefix):
    body = rs(AL, 30)
    return prefix + body + base62(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


def luhn_check_digit(partial):
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    digits = [int(c) for c in num if c.isdigit()]
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


CARD_BRANDS = [
    ("Visa", ["4"], 16),
    ("Mastercard", ["51", "52", "53", "54", "55", "2221", "2720", "2300"], 16),
    ("American Express", ["34", "37"], 15),
    ("Discover", ["6011", "65", "644"], 16),
    ("JCB", ["3528", "3566", "3589"], 16),
    ("UnionPay", ["62"], 16),
    ("Mir", ["2200", "2202", "2204"], 16),
    ("RuPay", ["6080", "6521", "8172"], 16),
    ("Troy", ["9792"], 16),
    ("Maestro", ["6759", "6304"], 16),
    ("Diners Club", ["36", "3056"], 14),
    ("Visa", ["4"], 19),
]


ISSUED_CARDS = []


def card_number(brand_idx=None):
    if brand_idx is None:
        brand_idx = R.randrange(len(CARD_BRANDS))
    name, prefixes, length = CARD_BRANDS[brand_idx]
    p = pick(prefixes)
    partial = p + rs(DG, length - len(p) - 1)
    num = partial + luhn_check_digit(partial)
    assert luhn_ok(num)
    ISSUED_CARDS.append(num)
    return name, num


def group_card(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    if len(num) == 14:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


def imei():
    partial = pick(["35", "86", "01", "99"]) + rs(DG, 12)
    return partial + luhn_check_digit(partial)


VIN_MAP = {**{str(d): d for d in range(10)},
           **dict(zip("ABCDEFGH", range(1, 9))),
           **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
           **dict(zip("STUVWXYZ", range(2, 10)))}
VIN_W = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
VIN_ALPHA = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def vin():
    v = list(pick(["1HG", "WVW", "JTD", "5YJ", "WBA", "KMH", "VF1", "3FA"]) + rs(VIN_ALPHA, 5) + "0"
             + rs(VIN_ALPHA, 8))
    s = sum(VIN_MAP[c] * w for c, w in zip(v, VIN_W))
    c = s % 11
    v[8] = "X" if c == 10 else str(c)
    return "".join(v)


IBAN_LEN = {"DE": 22, "FR": 27, "GB": 22, "ES": 24, "NL": 18, "IT": 27, "TR": 26, "PL": 28,
            "PT": 25, "GR": 27, "BE": 16, "AT": 20, "CH": 21, "IL": 23, "SA": 24, "AE": 23,
            "UA": 29}


def iban(cc):
    n = IBAN_LEN[cc]
    if cc == "GB":
        bban = pick(["NWBK", "BARC", "HBUK", "LOYD"]) + rs(DG, 14)
    elif cc == "NL":
        bban = pick(["INGB", "ABNA", "RABO"]) + rs(DG, 10)
    elif cc == "IT":
        bban = rs(UP, 1) + rs(DG, 10) + rs(ALNUM_UP, 12)
    else:
        bban = rs(DG, n - 4)
    conv = "".join(str(int(ch, 36)) for ch in bban + cc + "00")
    check = 98 - int(conv) % 97
    return cc + "%02d" % check + bban


def iban_ok(s):
    s = s.replace(" ", "")
    conv = "".join(str(int(ch, 36)) for ch in s[4:] + s[:4])
    return int(conv) % 97 == 1


def group4(s, sep=" "):
    return sep.join(s[i:i + 4] for i in range(0, len(s), 4))


def nhs_number():
    while True:
        d = [R.randrange(10) for _ in range(9)]
        s = sum(x * w for x, w in zip(d, range(10, 1, -1)))
        c = 11 - s % 11
        if c == 11:
            c = 0
        if c == 10:
            continue
        n = "".join(map(str, d)) + str(c)
        return n[:3] + " " + n[3:6] + " " + n[6:]


def sha256hex():
    return hashlib.sha256(rbytes(32)).hexdigest()


def sha1hex():
    return hashlib.sha1(rbytes(20)).hexdigest()


def md5hex():
    return hashlib.md5(rbytes(16)).hexdigest()


def mac():
    return ":".join("%02x" % R.randrange(256) for _ in range(6))


def ipv4_private():
    return pick(["192.168.%d.%d" % (R.randrange(0, 3), R.randrange(2, 250)),
                 "10.0.%d.%d" % (R.randrange(0, 20), R.randrange(2, 250))])


def ipv4_public():
    return "%d.%d.%d.%d" % (pick([81, 84, 91, 95, 109, 176, 188, 203, 212]), R.randrange(256),
                            R.randrange(256), R.randrange(1, 255))


def date_iso():
    return "2025-%02d-%02d" % (R.randrange(1, 13), R.randrange(1, 29))


def time_hm():
    return "%02d:%02d" % (R.randrange(8, 18), pick([0, 15, 30, 45]))


def pin4():
    while True:
        p = rs(DG, 4)
        if len(set(p)) >= 3 and p not in ("1234", "4321", "1212"):
            return p


def pin6():
    while True:
        p = rs(DG, 6)
        if len(set(p)) >= 4:
            return p


def pin_nozero(n=4):
    return rs("123456789", n)


def enc_gzip_b64(s):
    return b64(gzip.compress(s.encode(), compresslevel=9, mtime=0))


def enc_zlib_b64(s):
    return b64(zlib.compress(s.encode(), 9))


def rot13(s):
    return s.translate(str.maketrans(
        LO + UP, LO[13:] + LO[:13] + UP[13:] + UP[:13]))


FULLWIDTH = str.maketrans("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                          "".join(chr(0xFF10 + i) for i in range(10))
                          + "".join(chr(0xFF21 + i) for i in range(26))
                          + "".join(chr(0xFF41 + i) for i in range(26)))
DIGIT_SETS = {
    "arabic_indic": "٠١٢٣٤٥٦٧٨٩",
    "persian": "۰۱۲۳۴۵۶۷۸۹",
    "devanagari": "०१२३४५६७८९",
    "bengali": "০১২৩৪৫৬৭৮৯",
    "thai": "๐๑๒๓๔๕๖๗๘๙",
}


def to_digits(s, script):
    ds = DIGIT_SETS[script]
    return "".join(ds[int(c)] if c.isdigit() else c for c in s)


ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII", 8: "VIII", 9: "IX"}

NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot",
        "g": "golf", "h": "hotel", "i": "india", "j": "juliett", "k": "kilo", "l": "lima",
        "m": "mike", "n": "november", "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo",
        "s": "sierra", "t": "tango", "u": "uniform", "v": "victor", "w": "whiskey", "x": "x-ray",
        "y": "yankee", "z": "zulu"}
DIGIT_WORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
    "id": "nol satu dua tiga empat lima enam tujuh delapan sembilan".split(),
    "vi": "không một hai ba bốn năm sáu bảy tám chín".split(),
    "el": "μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα".split(),
}
MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.",
         "h": "....", "i": "..", "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.",
         "o": "---", "p": ".--.", "q": "--.-", "r": ".-.", "s": "...", "t": "-", "u": "..-",
         "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..", "0": "-----",
         "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....",
         "7": "--...", "8": "---..", "9": "----."}


def spell_chars(s):
    names = {"!": "an exclamation mark", "@": "an at sign", "#": "a hash sign", "$": "a dollar sign",
             "%": "a percent sign", "&": "an ampersand", "*": "an asterisk", "-": "a hyphen",
             "_": "an underscore", ".": "a full stop", "?": "a question mark", "+": "a plus sign",
             "=": "an equals sign"}
    out = []
    for c in s:
        if c.isdigit():
            out.append("the digit " + c)
        elif c.isupper():
            out.append("capital " + c)
        elif c.islower():
            out.append("lowercase " + c)
        else:
            out.append(names.get(c, "the symbol " + c))
    return ", ".join(out[:-1]) + " and finally " + out[-1]


# ---------------------------------------------------------------- records
RECORDS = []
META = []          # parallel: dict(lang=..., tech=..., vendor=..., family=...)
_ids = {}


def add(label, kind, variant, value, *, ns=None, key=None, lang="en", tech=None, vendor=None,
        family=None, fmt=None):
    assert label in ("secret", "benign") and variant in ("plain", "hard")
    tag = tech or kind
    base = "h6-%s-%s-%s" % ("s" if label == "secret" else "b", variant[0], tag)
    _ids[base] = _ids.get(base, 0) + 1
    rid = "%s-%03d" % (base, _ids[base])
    if ns is None:
        ns = pick(NAMESPACES)
        ns = [x.replace("{u}", "u" + rs(DG, 5)) for x in ns]
    if key is None:
        key = pick(["mem_", "m-", "note-", "fact_", ""]) + uuid4()[:pick([8, 13, 36])]
    RECORDS.append({"id": rid, "label": label, "kind": kind, "variant": variant,
                    "namespace": ns, "key": key, "value": value})
    META.append({"lang": lang, "tech": tech, "vendor": vendor, "family": family or kind,
                 "fmt": fmt})


NAMESPACES = [
    ["memories", "{u}"], ["users", "{u}", "memories"], ["agent", "profile", "{u}"],
    ["assistant", "{u}", "facts"], ["chat", "{u}", "notes"], ["user_memory", "{u}"],
    ["household", "{u}", "shared"], ["memories", "{u}", "health"], ["tenant-eu", "{u}", "semantic"],
    ["crm", "{u}", "context"], ["family", "{u}"], ["dev", "{u}", "workspace"],
]

# ---------------------------------------------------------------- provider token formats
def _jwt(payload, alg="HS256", sig_len=43):
    h = b64url_nopad(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64url_nopad(json.dumps(payload, separators=(",", ":")).encode())
    return h + "." + p + "." + rs(B64URL, sig_len)


def _mapbox_sk():
    p = b64url_nopad(json.dumps({"u": "user" + rs(DG, 3), "a": rs(ALNUM_LO, 25)},
                                separators=(",", ":")).encode())
    return "sk." + p + "." + rs(B64URL, 22)


def _discord_bot():
    uid = str(R.randrange(10**17, 10**18 * 2))
    return b64url_nopad(uid.encode()) + "." + rs(B64URL, 6) + "." + rs(B64URL, 38)


def _sentry_org():
    p = b64url_nopad(json.dumps({"iat": 1718000000 + R.randrange(10**6), "url": "https://sentry.io",
                                 "region_url": "https://us.sentry.io", "org": "acme-" + rs(LO, 4)},
                                separators=(",", ":")).encode())
    return "sntrys_" + p + "_" + rs(B64URL, 43)


def _op_service():
    p = b64(json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096",
            "alg": "PBES2g-HS256", "iterations": 650000, "salt": rs(B64URL, 22)},
            "email": rs(ALNUM_LO, 12) + "@1passwordserviceaccounts.com", "srpX": rs(HEX, 64),
            "muk": {"alg": "A256GCM", "ext": True, "k": rs(B64URL, 43), "key_ops": ["encrypt", "decrypt"],
                    "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + rs(ALNUM_UP, 6) + "-" + rs(ALNUM_UP, 6)},
            separators=(",", ":")).encode()).rstrip("=")
    return "ops_" + p


def _op_secret_key():
    return "A3-%s-%s-%s-%s-%s-%s" % (rs(ALNUM_UP, 6), rs(ALNUM_UP, 6), rs(ALNUM_UP, 5), rs(ALNUM_UP, 5),
                                     rs(ALNUM_UP, 5), rs(ALNUM_UP, 5))


def _age():
    return "AGE-SECRET-KEY-1" + rs(BECH32, 58).upper()


def _fcm():
    return "AAAA" + rs(B64URL, 7) + ":APA91b" + rs(B64URL, 134)


def _twitter_bearer():
    return "AAAAAAAAAAAAAAAAAAAAA" + rs(AL, 25) + "%3D" + rs(AL, 50)


def _fb():
    return "EAAG" + rs(AL, 180)


def _telegram():
    return str(R.randrange(10**9, 8 * 10**9)) + ":AA" + rs(B64URL, 33)


def _slack_webhook():
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(ALNUM_UP, 8), rs(ALNUM_UP, 10), rs(AL, 24))


def _discord_webhook():
    return "https://discord.com/api/webhooks/%d/%s" % (R.randrange(10**17, 2 * 10**18), rs(B64URL, 68))


def _teams_webhook():
    return ("https://contoso%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s/V2%s"
            % (rs(DG, 3), uuid4(), uuid4(), rs(HEX, 32), uuid4(), rs(B64URL, 43)))


def _azure_conn():
    return ("DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net"
            % ("st" + rs(ALNUM_LO, 10), b64(rbytes(64))))


def _azure_sas():
    return ("https://%s.blob.core.windows.net/backups?sp=racwdl&st=2025-03-01T09:00:00Z&se=2026-03-01T17:00:00Z"
            "&spr=https&sv=2022-11-02&sr=c&sig=%s" % ("st" + rs(ALNUM_LO, 8),
                                                     b64(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")))


def _azure_ad_secret():
    return rs(AL, 3) + "8Q~" + rs(B64URL.replace("-", "") + ".~", 31)


def _tfc():
    return rs(AL, 14) + ".atlasv1." + rs(AL, 67)


def _sa_json():
    key_body = "\\n".join(b64(rbytes(48)) for _ in range(25))
    return json.dumps({"type": "service_account", "project_id": "acme-prod-" + rs(DG, 6),
                       "private_key_id": rs(HEX, 40),
                       "private_key": "-----BEGIN PRIVATE KEY-----\n" + key_body.replace("\\n", "\n")
                       + "\n-----END PRIVATE KEY-----\n",
                       "client_email": "ci-deployer@acme-prod.iam.gserviceaccount.com",
                       "client_id": rs(DG, 21), "token_uri": "https://oauth2.googleapis.com/token"},
                      indent=2)


def _cloudinary():
    return "cloudinary://%s:%s@%s" % (rs(DG, 15), rs(B64URL, 27), "dz" + rs(ALNUM_LO, 7))


def _mongo():
    return "mongodb+srv://app_user:%s@cluster0.%s.mongodb.net/prod?retryWrites=true&w=majority" % (
        rs(AL, 16), rs(ALNUM_LO, 5))


def _redis():
    return "redis://default:%s@redis-%s.c%d.us-east-1-2.ec2.redns.redis-cloud.com:%s" % (
        rs(AL, 32), rs(DG, 5), R.randrange(1, 300), rs(DG, 5))


def _neon():
    return "postgresql://neondb_owner:npg_%s@ep-%s-%s-a%s.eu-central-1.aws.neon.tech/neondb?sslmode=require" % (
        rs(AL, 12), pick(["cool", "wild", "late", "calm"]), pick(["river", "moon", "hill", "sun"]), rs(ALNUM_LO, 6))


def _k8s_bootstrap():
    return rs(ALNUM_LO, 6) + "." + rs(ALNUM_LO, 16)


def _wireguard():
    return b64(rbytes(32))


def _ably():
    return rs(B64URL, 6) + "." + rs(B64URL, 6) + ":" + rs(B64URL, 43)


def _salesforce():
    return "00D" + rs(AL, 12) + "!" + "AQ" + rs(AL + "._", 94)


def _braintree():
    return "access_token$production$%s$%s" % (rs(ALNUM_LO, 16), rs(HEX, 32))


# (vendor, kind, [(FIELD, generator)], api host)
TOKEN_FORMATS = [
    ("AWS", "aws_access_key", [("AWS_ACCESS_KEY_ID", lambda: "AKIA" + rs(B32, 16)),
                               ("AWS_SECRET_ACCESS_KEY", lambda: rs(AL + "/+", 40))], "sts.amazonaws.com"),
    ("AWS", "aws_session_token", [("AWS_ACCESS_KEY_ID", lambda: "ASIA" + rs(B32, 16)),
                                  ("AWS_SECRET_ACCESS_KEY", lambda: rs(AL + "/+", 40)),
                                  ("AWS_SESSION_TOKEN", lambda: "IQoJb3JpZ2luX2VjE" + rs(B64, 300))], "s3.amazonaws.com"),
    ("GitHub", "github_pat_classic", [("GITHUB_TOKEN", lambda: gh_token("ghp_"))], "api.github.com"),
    ("GitHub", "github_pat_fine", [("GH_TOKEN", lambda: "github_pat_11" + rs(ALNUM_UP, 20) + "_" + rs(AL, 59))], "api.github.com"),
    ("GitHub", "github_oauth", [("GITHUB_OAUTH_TOKEN", lambda: gh_token("gho_"))], "api.github.com"),
    ("GitHub", "github_user_to_server", [("GITHUB_APP_USER_TOKEN", lambda: gh_token("ghu_"))], "api.github.com"),
    ("GitHub", "github_server_to_server", [("GITHUB_INSTALLATION_TOKEN", lambda: gh_token("ghs_"))], "api.github.com"),
    ("GitHub", "github_refresh", [("GITHUB_REFRESH_TOKEN", lambda: "ghr_" + rs(AL, 76))], "github.com"),
    ("GitLab", "gitlab_pat", [("GITLAB_TOKEN", lambda: "glpat-" + rs(B64URL, 20))], "gitlab.com"),
    ("GitLab", "gitlab_runner", [("CI_RUNNER_TOKEN", lambda: "glrt-" + rs(B64URL, 20))], "gitlab.com"),
    ("GitLab", "gitlab_deploy", [("GITLAB_DEPLOY_TOKEN", lambda: "gldt-" + rs(B64URL, 20))], "gitlab.com"),
    ("GitLab", "gitlab_trigger", [("TRIGGER_TOKEN", lambda: "glptt-" + rs(HEX, 40))], "gitlab.com"),
    ("GitLab", "gitlab_agent", [("GITLAB_AGENT_TOKEN", lambda: "glagent-" + rs(B64URL, 50))], "kas.gitlab.com"),
    ("Slack", "slack_bot", [("SLACK_BOT_TOKEN", lambda: "xoxb-%s-%s-%s" % (rs(DG, 12), rs(DG, 13), rs(AL, 24)))], "slack.com"),
    ("Slack", "slack_user", [("SLACK_USER_TOKEN", lambda: "xoxp-%s-%s-%s-%s" % (rs(DG, 12), rs(DG, 12), rs(DG, 13), rs(HEX, 32)))], "slack.com"),
    ("Slack", "slack_app", [("SLACK_APP_TOKEN", lambda: "xapp-1-A%s-%s-%s" % (rs(ALNUM_UP, 10), rs(DG, 13), rs(HEX, 64)))], "slack.com"),
    ("Slack", "slack_webhook", [("SLACK_WEBHOOK_URL", _slack_webhook)], "hooks.slack.com"),
    ("Stripe", "stripe_secret", [("STRIPE_SECRET_KEY", lambda: "sk_live_51" + rs(AL, 97))], "api.stripe.com"),
    ("Stripe", "stripe_restricted", [("STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + rs(AL, 97))], "api.stripe.com"),
    ("Stripe", "stripe_webhook_secret", [("STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + rs(AL, 32))], "api.stripe.com"),
    ("OpenAI", "openai_project", [("OPENAI_API_KEY", lambda: "sk-proj-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74))], "api.openai.com"),
    ("OpenAI", "openai_legacy", [("OPENAI_API_KEY", lambda: "sk-" + rs(AL, 20) + "T3BlbkFJ" + rs(AL, 20))], "api.openai.com"),
    ("OpenAI", "openai_svcacct", [("OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(B64URL, 74) + "T3BlbkFJ" + rs(B64URL, 74))], "api.openai.com"),
    ("Anthropic", "anthropic_api", [("ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(B64URL, 93) + "AA")], "api.anthropic.com"),
    ("Anthropic", "anthropic_admin", [("ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(B64URL, 93) + "AA")], "api.anthropic.com"),
    ("Google", "google_api_key", [("GOOGLE_API_KEY", lambda: "AIza" + rs(B64URL, 35))], "generativelanguage.googleapis.com"),
    ("Google", "google_oauth_client_secret", [("GOOGLE_CLIENT_ID", lambda: rs(DG, 12) + "-" + rs(ALNUM_LO, 32) + ".apps.googleusercontent.com"),
                                              ("GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + rs(B64URL, 28))], "oauth2.googleapis.com"),
    ("Google", "google_oauth_access", [("access_token", lambda: "ya29.a0" + rs(B64URL, 160))], "www.googleapis.com"),
    ("Google", "google_refresh", [("refresh_token", lambda: "1//0" + rs(B64URL, 99))], "oauth2.googleapis.com"),
    ("Google", "gcp_service_account", [("GOOGLE_APPLICATION_CREDENTIALS_JSON", _sa_json)], "iam.googleapis.com"),
    ("Twilio", "twilio_auth_token", [("TWILIO_ACCOUNT_SID", lambda: "AC" + rs(HEX, 32)),
                                     ("TWILIO_AUTH_TOKEN", lambda: rs(HEX, 32))], "api.twilio.com"),
    ("Twilio", "twilio_api_key", [("TWILIO_API_KEY", lambda: "SK" + rs(HEX, 32)),
                                  ("TWILIO_API_SECRET", lambda: rs(AL, 32))], "api.twilio.com"),
    ("SendGrid", "sendgrid", [("SENDGRID_API_KEY", lambda: "SG." + rs(B64URL, 22) + "." + rs(B64URL, 43))], "api.sendgrid.com"),
    ("Mailgun", "mailgun", [("MAILGUN_API_KEY", lambda: "key-" + rs(HEX, 32))], "api.mailgun.net"),
    ("Mailchimp", "mailchimp", [("MAILCHIMP_API_KEY", lambda: rs(HEX, 32) + "-us" + str(R.randrange(1, 22)))], "us1.api.mailchimp.com"),
    ("npm", "npm_token", [("NPM_TOKEN", lambda: "npm_" + rs(AL, 36))], "registry.npmjs.org"),
    ("PyPI", "pypi_token", [("TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(B64URL, 150))], "upload.pypi.org"),
    ("Docker", "docker_pat", [("DOCKERHUB_TOKEN", lambda: "dckr_pat_" + rs(B64URL, 27))], "hub.docker.com"),
    ("Shopify", "shopify_access", [("SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + rs(HEX, 32))], "admin.shopify.com"),
    ("Shopify", "shopify_shared_secret", [("SHOPIFY_API_SECRET", lambda: "shpss_" + rs(HEX, 32))], "admin.shopify.com"),
    ("Shopify", "shopify_custom_app", [("SHOPIFY_CUSTOM_APP_TOKEN", lambda: "shpca_" + rs(HEX, 32))], "admin.shopify.com"),
    ("Shopify", "shopify_private_app", [("SHOPIFY_PRIVATE_APP_PASSWORD", lambda: "shppa_" + rs(HEX, 32))], "admin.shopify.com"),
    ("DigitalOcean", "digitalocean_pat", [("DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + rs(HEX, 64))], "api.digitalocean.com"),
    ("DigitalOcean", "digitalocean_oauth", [("DO_OAUTH_TOKEN", lambda: "doo_v1_" + rs(HEX, 64))], "api.digitalocean.com"),
    ("DigitalOcean", "digitalocean_refresh", [("DO_REFRESH_TOKEN", lambda: "dor_v1_" + rs(HEX, 64))], "cloud.digitalocean.com"),
    ("Hugging Face", "huggingface", [("HF_TOKEN", lambda: "hf_" + rs(UP + LO, 34))], "huggingface.co"),
    ("Replicate", "replicate", [("REPLICATE_API_TOKEN", lambda: "r8_" + rs(AL, 37))], "api.replicate.com"),
    ("Groq", "groq", [("GROQ_API_KEY", lambda: "gsk_" + rs(AL, 52))], "api.groq.com"),
    ("Perplexity", "perplexity", [("PPLX_API_KEY", lambda: "pplx-" + rs(AL, 48))], "api.perplexity.ai"),
    ("xAI", "xai", [("XAI_API_KEY", lambda: "xai-" + rs(AL, 80))], "api.x.ai"),
    ("Microsoft Azure", "azure_storage_conn", [("AZURE_STORAGE_CONNECTION_STRING", _azure_conn)], "blob.core.windows.net"),
    ("Microsoft Azure", "azure_sas_url", [("BACKUP_SAS_URL", _azure_sas)], "blob.core.windows.net"),
    ("Microsoft Entra ID", "azure_ad_client_secret", [("AZURE_CLIENT_ID", uuid4), ("AZURE_TENANT_ID", uuid4),
                                                      ("AZURE_CLIENT_SECRET", _azure_ad_secret)], "login.microsoftonline.com"),
    ("Azure DevOps", "azure_devops_pat", [("AZURE_DEVOPS_EXT_PAT", lambda: rs(B32.lower()[:26] + "234567", 52))], "dev.azure.com"),
    ("Microsoft Teams", "teams_webhook", [("TEAMS_WEBHOOK_URL", _teams_webhook)], "webhook.office.com"),
    ("Atlassian", "atlassian_api", [("JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + rs(B64URL, 170) + "=" + rs(HEXU, 8))], "acme.atlassian.net"),
    ("Bitbucket", "bitbucket_app_password", [("BITBUCKET_APP_PASSWORD", lambda: "ATBB" + rs(AL, 32) + rs(HEXU, 8))], "api.bitbucket.org"),
    ("Trello", "trello_token", [("TRELLO_KEY", lambda: rs(HEX, 32)), ("TRELLO_TOKEN", lambda: "ATTA" + rs(HEX, 64) + rs(HEXU, 8))], "api.trello.com"),
    ("Linear", "linear_api", [("LINEAR_API_KEY", lambda: "lin_api_" + rs(AL, 40))], "api.linear.app"),
    ("Notion", "notion_integration", [("NOTION_TOKEN", lambda: "ntn_" + rs(DG, 11) + rs(AL, 35))], "api.notion.com"),
    ("Notion", "notion_legacy", [("NOTION_API_KEY", lambda: "secret_" + rs(AL, 43))], "api.notion.com"),
    ("Airtable", "airtable_pat", [("AIRTABLE_TOKEN", lambda: "pat" + rs(AL, 14) + "." + rs(HEX, 64))], "api.airtable.com"),
    ("Figma", "figma_pat", [("FIGMA_TOKEN", lambda: "figd_" + rs(B64URL, 40))], "api.figma.com"),
    ("Postman", "postman_api", [("POSTMAN_API_KEY", lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34))], "api.getpostman.com"),
    ("Netlify", "netlify_pat", [("NETLIFY_AUTH_TOKEN", lambda: "nfp_" + rs(AL, 36))], "api.netlify.com"),
    ("Supabase", "supabase_pat", [("SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + rs(HEX, 40))], "api.supabase.com"),
    ("Supabase", "supabase_service_role", [("SUPABASE_SERVICE_ROLE_KEY", lambda: _jwt({"iss": "supabase", "ref": rs(LO, 20), "role": "service_role", "iat": 1716000000, "exp": 2031576000}))], "supabase.co"),
    ("PlanetScale", "planetscale_token", [("PLANETSCALE_SERVICE_TOKEN", lambda: "pscale_tkn_" + rs(B64URL, 43))], "api.planetscale.com"),
    ("PlanetScale", "planetscale_password", [("DATABASE_PASSWORD", lambda: "pscale_pw_" + rs(B64URL, 43))], "aws.connect.psdb.cloud"),
    ("Doppler", "doppler_service", [("DOPPLER_TOKEN", lambda: "dp.st.prd." + rs(AL, 43))], "api.doppler.com"),
    ("Doppler", "doppler_personal", [("DOPPLER_TOKEN", lambda: "dp.pt." + rs(AL, 43))], "api.doppler.com"),
    ("HashiCorp Vault", "vault_service_token", [("VAULT_TOKEN", lambda: "hvs." + rs(B64URL, 90))], "vault.internal"),
    ("HashiCorp Terraform Cloud", "terraform_cloud", [("TF_TOKEN_app_terraform_io", _tfc)], "app.terraform.io"),
    ("Pulumi", "pulumi", [("PULUMI_ACCESS_TOKEN", lambda: "pul-" + rs(HEX, 40))], "api.pulumi.com"),
    ("Grafana", "grafana_cloud", [("GRAFANA_CLOUD_TOKEN", lambda: "glc_" + b64(json.dumps({"o": rs(DG, 6), "n": "stack-" + rs(DG, 6) + "-integration", "k": rs(AL, 24), "m": {"r": "prod-eu-west-2"}}, separators=(",", ":")).encode()).rstrip("="))], "grafana.net"),
    ("Grafana", "grafana_service_account", [("GRAFANA_SA_TOKEN", lambda: "glsa_" + rs(AL, 32) + "_" + rs(HEX, 8))], "grafana.example.org"),
    ("New Relic", "newrelic_user", [("NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(ALNUM_UP, 27))], "api.newrelic.com"),
    ("New Relic", "newrelic_insert", [("NEW_RELIC_INSERT_KEY", lambda: "NRII-" + rs(B64URL, 32))], "insights-collector.newrelic.com"),
    ("Datadog", "datadog_keys", [("DD_API_KEY", lambda: rs(HEX, 32)), ("DD_APP_KEY", lambda: rs(HEX, 40))], "api.datadoghq.eu"),
    ("Sentry", "sentry_org_token", [("SENTRY_AUTH_TOKEN", _sentry_org)], "sentry.io"),
    ("Sentry", "sentry_user_token", [("SENTRY_AUTH_TOKEN", lambda: "sntryu_" + rs(HEX, 64))], "sentry.io"),
    ("Discord", "discord_bot", [("DISCORD_BOT_TOKEN", _discord_bot)], "discord.com"),
    ("Discord", "discord_webhook", [("DISCORD_WEBHOOK", _discord_webhook)], "discord.com"),
    ("Telegram", "telegram_bot", [("TELEGRAM_BOT_TOKEN", _telegram)], "api.telegram.org"),
    ("Square", "square_access", [("SQUARE_ACCESS_TOKEN", lambda: "EAAA" + rs(B64URL, 60))], "connect.squareup.com"),
    ("Square", "square_oauth_secret", [("SQUARE_APP_SECRET", lambda: "sq0csp-" + rs(B64URL, 43))], "connect.squareup.com"),
    ("Braintree", "braintree_access", [("BRAINTREE_ACCESS_TOKEN", _braintree)], "api.braintreegateway.com"),
    ("Dropbox", "dropbox_short_lived", [("DROPBOX_TOKEN", lambda: "sl.u." + rs(B64URL, 135))], "api.dropboxapi.com"),
    ("Asana", "asana_pat", [("ASANA_PAT", lambda: "2/%s/%s:%s" % (rs(DG, 16), rs(DG, 16), rs(HEX, 32)))], "app.asana.com"),
    ("Databricks", "databricks_pat", [("DATABRICKS_TOKEN", lambda: "dapi" + rs(HEX, 32))], "adb-1234.azuredatabricks.net"),
    ("Okta", "okta_api", [("OKTA_API_TOKEN", lambda: "00" + rs(B64URL, 40))], "acme.okta.com"),
    ("Mapbox", "mapbox_secret", [("MAPBOX_DOWNLOADS_TOKEN", _mapbox_sk)], "api.mapbox.com"),
    ("Contentful", "contentful_pat", [("CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + rs(B64URL, 43))], "api.contentful.com"),
    ("Frame.io", "frameio", [("FRAMEIO_TOKEN", lambda: "fio-u-" + rs(B64URL, 64))], "api.frame.io"),
    ("Flutterwave", "flutterwave_secret", [("FLW_SECRET_KEY", lambda: "FLWSECK-" + rs(HEX, 32) + "-X")], "api.flutterwave.com"),
    ("Razorpay", "razorpay", [("RAZORPAY_KEY_ID", lambda: "rzp_live_" + rs(AL, 14)), ("RAZORPAY_KEY_SECRET", lambda: rs(AL, 24))], "api.razorpay.com"),
    ("Paystack", "paystack_secret", [("PAYSTACK_SECRET_KEY", lambda: "sk_live_" + rs(HEX, 40))], "api.paystack.co"),
    ("Mollie", "mollie_live", [("MOLLIE_API_KEY", lambda: "live_" + rs(AL, 30))], "api.mollie.com"),
    ("age", "age_secret_key", [("AGE_IDENTITY", _age)], "localhost"),
    ("Alibaba Cloud", "alibaba_access_key", [("ALIBABA_CLOUD_ACCESS_KEY_ID", lambda: "LTAI5t" + rs(AL, 18)),
                                             ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", lambda: rs(AL, 30))], "ecs.aliyuncs.com"),
    ("Tencent Cloud", "tencent_secret", [("TENCENTCLOUD_SECRET_ID", lambda: "AKID" + rs(AL, 32)),
                                         ("TENCENTCLOUD_SECRET_KEY", lambda: rs(AL, 32))], "cvm.tencentcloudapi.com"),
    ("Yandex Cloud", "yandex_api_key", [("YC_API_KEY", lambda: "AQVN" + rs(B64URL, 36))], "llm.api.cloud.yandex.net"),
    ("Yandex Cloud", "yandex_static_key", [("AWS_ACCESS_KEY_ID", lambda: "YCAJE" + rs(B64URL, 20)),
                                           ("AWS_SECRET_ACCESS_KEY", lambda: "YC" + rs(B64URL, 38))], "storage.yandexcloud.net"),
    ("Lob", "lob_live", [("LOB_API_KEY", lambda: "live_" + rs(HEX, 35))], "api.lob.com"),
    ("Plaid", "plaid_secret", [("PLAID_CLIENT_ID", lambda: rs(HEX, 24)), ("PLAID_SECRET", lambda: rs(HEX, 30)),
                               ("PLAID_ACCESS_TOKEN", lambda: "access-production-" + uuid4())], "production.plaid.com"),
    ("Duffel", "duffel_live", [("DUFFEL_ACCESS_TOKEN", lambda: "duffel_live_" + rs(B64URL, 43))], "api.duffel.com"),
    ("EasyPost", "easypost", [("EASYPOST_API_KEY", lambda: "EZAK" + rs(ALNUM_LO, 54))], "api.easypost.com"),
    ("Shippo", "shippo_live", [("SHIPPO_API_TOKEN", lambda: "shippo_live_" + rs(HEX, 40))], "api.goshippo.com"),
    ("Typeform", "typeform_pat", [("TYPEFORM_TOKEN", lambda: "tfp_" + rs(B64URL, 44) + "_" + rs(B64URL, 14))], "api.typeform.com"),
    ("HubSpot", "hubspot_private_app", [("HUBSPOT_ACCESS_TOKEN", lambda: "pat-na1-" + uuid4())], "api.hubapi.com"),
    ("Brevo", "brevo_api", [("BREVO_API_KEY", lambda: "xkeysib-" + rs(HEX, 64) + "-" + rs(AL, 16))], "api.brevo.com"),
    ("ReadMe", "readme_api", [("README_API_KEY", lambda: "rdme_" + rs(ALNUM_LO, 70))], "dash.readme.com"),
    ("Prefect", "prefect_api", [("PREFECT_API_KEY", lambda: "pnu_" + rs(AL, 36))], "api.prefect.cloud"),
    ("Scalingo", "scalingo_api", [("SCALINGO_API_TOKEN", lambda: "tk-us-" + rs(B64URL, 48))], "api.osc-fr1.scalingo.com"),
    ("Clojars", "clojars_deploy", [("CLOJARS_PASSWORD", lambda: "CLOJARS_" + rs(HEX, 60))], "clojars.org"),
    ("RubyGems", "rubygems_api", [("GEM_HOST_API_KEY", lambda: "rubygems_" + rs(HEX, 48))], "rubygems.org"),
    ("NuGet", "nuget_api", [("NUGET_API_KEY", lambda: "oy2" + rs(ALNUM_LO, 43))], "api.nuget.org"),
    ("JFrog", "artifactory_api", [("ARTIFACTORY_API_KEY", lambda: "AKCp" + rs(AL, 69))], "acme.jfrog.io"),
    ("SonarSource", "sonarqube_user", [("SONAR_TOKEN", lambda: "squ_" + rs(HEX, 40))], "sonarcloud.io"),
    ("SonarSource", "sonarqube_project", [("SONAR_TOKEN", lambda: "sqp_" + rs(HEX, 40))], "sonar.internal"),
    ("CircleCI", "circleci_pat", [("CIRCLE_TOKEN", lambda: "CCIPAT_" + rs(AL, 22) + "_" + rs(HEX, 40))], "circleci.com"),
    ("Buildkite", "buildkite_api", [("BUILDKITE_API_TOKEN", lambda: "bkua_" + rs(HEX, 40))], "api.buildkite.com"),
    ("Fly.io", "flyio_token", [("FLY_API_TOKEN", lambda: "FlyV1 fm2_" + rs(B64, 300) + "," + "fm2_" + rs(B64, 120))], "api.fly.io"),
    ("Render", "render_api", [("RENDER_API_KEY", lambda: "rnd_" + rs(AL, 32))], "api.render.com"),
    ("Firebase", "fcm_server_key", [("FCM_SERVER_KEY", _fcm)], "fcm.googleapis.com"),
    ("Meta", "facebook_access_token", [("FB_PAGE_ACCESS_TOKEN", _fb)], "graph.facebook.com"),
    ("Meta", "facebook_app_secret", [("FB_APP_ID", lambda: rs(DG, 16)), ("FB_APP_SECRET", lambda: rs(HEX, 32))], "graph.facebook.com"),
    ("X (Twitter)", "twitter_bearer", [("TWITTER_BEARER_TOKEN", _twitter_bearer)], "api.x.com"),
    ("Adobe", "adobe_client_secret", [("ADOBE_CLIENT_ID", lambda: rs(HEX, 32)), ("ADOBE_CLIENT_SECRET", lambda: "p8e-" + rs(AL, 32))], "ims-na1.adobelogin.com"),
    ("Dynatrace", "dynatrace_api", [("DT_API_TOKEN", lambda: "dt0c01." + rs(ALNUM_UP, 24) + "." + rs(ALNUM_UP, 64))], "abc12345.live.dynatrace.com"),
    ("GoCardless", "gocardless_live", [("GOCARDLESS_ACCESS_TOKEN", lambda: "live_" + rs(B64URL, 40))], "api.gocardless.com"),
    ("Harness", "harness_pat", [("HARNESS_API_KEY", lambda: "pat.%s.%s.%s" % (rs(B64URL, 22), rs(HEX, 24), rs(AL, 20)))], "app.harness.io"),
    ("Infracost", "infracost_api", [("INFRACOST_API_KEY", lambda: "ico-" + rs(AL, 32))], "pricing.api.infracost.io"),
    ("LaunchDarkly", "launchdarkly_api", [("LD_API_KEY", lambda: "api-" + uuid4())], "app.launchdarkly.com"),
    ("LaunchDarkly", "launchdarkly_sdk", [("LD_SDK_KEY", lambda: "sdk-" + uuid4())], "sdk.launchdarkly.com"),
    ("Octopus Deploy", "octopus_api", [("OCTOPUS_API_KEY", lambda: "API-" + rs(ALNUM_UP, 26))], "acme.octopus.app"),
    ("Red Hat OpenShift", "openshift_token", [("OC_TOKEN", lambda: "sha256~" + rs(B64URL, 43))], "api.ocp.internal:6443"),
    ("Pinecone", "pinecone_api", [("PINECONE_API_KEY", lambda: "pcsk_" + rs(AL, 5) + "_" + rs(AL, 63))], "api.pinecone.io"),
    ("Tailscale", "tailscale_auth", [("TS_AUTHKEY", lambda: "tskey-auth-k" + rs(AL, 10) + "CNTRL-" + rs(AL, 33))], "login.tailscale.com"),
    ("Tailscale", "tailscale_api", [("TS_API_KEY", lambda: "tskey-api-k" + rs(AL, 10) + "CNTRL-" + rs(AL, 33))], "api.tailscale.com"),
    ("1Password", "onepassword_service_account", [("OP_SERVICE_ACCOUNT_TOKEN", _op_service)], "my.1password.com"),
    ("1Password", "onepassword_secret_key", [("1PASSWORD_SECRET_KEY", _op_secret_key)], "my.1password.com"),
    ("Cloudinary", "cloudinary_url", [("CLOUDINARY_URL", _cloudinary)], "api.cloudinary.com"),
    ("Resend", "resend_api", [("RESEND_API_KEY", lambda: "re_" + rs(AL, 8) + "_" + rs(AL, 24))], "api.resend.com"),
    ("LangChain", "langsmith_pat", [("LANGSMITH_API_KEY", lambda: "lsv2_pt_" + rs(HEX, 32) + "_" + rs(HEX, 10))], "api.smith.langchain.com"),
    ("LangChain", "langsmith_service", [("LANGCHAIN_API_KEY", lambda: "lsv2_sk_" + rs(HEX, 32) + "_" + rs(HEX, 10))], "api.smith.langchain.com"),
    ("ElevenLabs", "elevenlabs", [("ELEVENLABS_API_KEY", lambda: "sk_" + rs(HEX, 48))], "api.elevenlabs.io"),
    ("Fireworks AI", "fireworks", [("FIREWORKS_API_KEY", lambda: "fw_" + rs(AL, 24))], "api.fireworks.ai"),
    ("OpenRouter", "openrouter", [("OPENROUTER_API_KEY", lambda: "sk-or-v1-" + rs(HEX, 64))], "openrouter.ai"),
    ("DeepSeek", "deepseek", [("DEEPSEEK_API_KEY", lambda: "sk-" + rs(HEX, 32))], "api.deepseek.com"),
    ("Cerebras", "cerebras", [("CEREBRAS_API_KEY", lambda: "csk-" + rs(ALNUM_LO, 48))], "api.cerebras.ai"),
    ("Langfuse", "langfuse_secret", [("LANGFUSE_PUBLIC_KEY", lambda: "pk-lf-" + uuid4()), ("LANGFUSE_SECRET_KEY", lambda: "sk-lf-" + uuid4())], "cloud.langfuse.com"),
    ("Firecrawl", "firecrawl", [("FIRECRAWL_API_KEY", lambda: "fc-" + rs(HEX, 32))], "api.firecrawl.dev"),
    ("Tavily", "tavily", [("TAVILY_API_KEY", lambda: "tvly-" + pick(["", "dev-", "prod-"]) + rs(AL, 32))], "api.tavily.com"),
    ("Voyage AI", "voyage", [("VOYAGE_API_KEY", lambda: "pa-" + rs(B64URL, 43))], "api.voyageai.com"),
    ("Jina AI", "jina", [("JINA_API_KEY", lambda: "jina_" + rs(HEX, 32) + rs(AL, 28))], "api.jina.ai"),
    ("PostHog", "posthog_personal", [("POSTHOG_PERSONAL_API_KEY", lambda: "phx_" + rs(AL, 47))], "eu.posthog.com"),
    ("Vercel", "vercel_token", [("VERCEL_TOKEN", lambda: rs(AL, 24))], "api.vercel.com"),
    ("Cloudflare", "cloudflare_api_token", [("CLOUDFLARE_API_TOKEN", lambda: rs(B64URL, 40))], "api.cloudflare.com"),
    ("Cloudflare", "cloudflare_global_key", [("CLOUDFLARE_EMAIL", lambda: "ops@" + rs(LO, 6) + ".com"), ("CLOUDFLARE_API_KEY", lambda: rs(HEX, 37))], "api.cloudflare.com"),
    ("ngrok", "ngrok_authtoken", [("NGROK_AUTHTOKEN", lambda: "2" + rs(AL, 26) + "_" + rs(AL, 21))], "dashboard.ngrok.com"),
    ("Heroku", "heroku_api", [("HEROKU_API_KEY", lambda: "HRKU-AA" + rs(B64URL, 58))], "api.heroku.com"),
    ("Clerk", "clerk_secret", [("CLERK_SECRET_KEY", lambda: "sk_live_" + rs(AL, 42))], "api.clerk.com"),
    ("Browserbase", "browserbase", [("BROWSERBASE_API_KEY", lambda: "bb_live_" + rs(B64URL, 27))], "api.browserbase.com"),
    ("Mistral AI", "mistral", [("MISTRAL_API_KEY", lambda: rs(AL, 32))], "api.mistral.ai"),
    ("Cohere", "cohere", [("CO_API_KEY", lambda: rs(AL, 40))], "api.cohere.com"),
    ("Algolia", "algolia_admin", [("ALGOLIA_APP_ID", lambda: rs(ALNUM_UP, 10)), ("ALGOLIA_ADMIN_API_KEY", lambda: rs(HEX, 32))], "algolia.net"),
    ("Binance", "binance_api", [("BINANCE_API_KEY", lambda: rs(AL, 64)), ("BINANCE_API_SECRET", lambda: rs(AL, 64))], "api.binance.com"),
    ("MongoDB Atlas", "mongodb_uri", [("MONGODB_URI", _mongo)], "mongodb.net"),
    ("Redis Cloud", "redis_url", [("REDIS_URL", _redis)], "redis-cloud.com"),
    ("Neon", "neon_database_url", [("DATABASE_URL", _neon)], "neon.tech"),
    ("Auth0", "auth0_client_secret", [("AUTH0_CLIENT_ID", lambda: rs(AL, 32)), ("AUTH0_CLIENT_SECRET", lambda: rs(B64URL, 64))], "acme.eu.auth0.com"),
    ("Intercom", "intercom_access", [("INTERCOM_ACCESS_TOKEN", lambda: "dG9rOj" + rs(B64, 54) + "=")], "api.intercom.io"),
    ("Zendesk", "zendesk_api", [("ZENDESK_EMAIL", lambda: "support@" + rs(LO, 7) + ".com"), ("ZENDESK_API_TOKEN", lambda: rs(AL, 40))], "acme.zendesk.com"),
    ("Jenkins", "jenkins_api", [("JENKINS_USER", lambda: "deploy-bot"), ("JENKINS_API_TOKEN", lambda: "11" + rs(HEX, 32))], "jenkins.internal"),
    ("Kubernetes", "k8s_bootstrap_token", [("KUBEADM_TOKEN", _k8s_bootstrap)], "10.0.0.10:6443"),
    ("WireGuard", "wireguard_private", [("PrivateKey", _wireguard)], "vpn.home"),
    ("Ably", "ably_key", [("ABLY_API_KEY", _ably)], "rest.ably.io"),
    ("Salesforce", "salesforce_session", [("SF_ACCESS_TOKEN", _salesforce)], "acme.my.salesforce.com"),
    ("Vonage", "vonage_api", [("VONAGE_API_KEY", lambda: rs(HEX, 8)), ("VONAGE_API_SECRET", lambda: rs(AL, 16))], "api.nexmo.com"),
    ("Plivo", "plivo_auth", [("PLIVO_AUTH_ID", lambda: "MA" + rs(ALNUM_UP, 18)), ("PLIVO_AUTH_TOKEN", lambda: rs(AL, 40))], "api.plivo.com"),
    ("Telnyx", "telnyx_api", [("TELNYX_API_KEY", lambda: "KEY" + rs(HEXU, 32) + "_" + rs(AL, 22))], "api.telnyx.com"),
    ("Weights & Biases", "wandb_api", [("WANDB_API_KEY", lambda: rs(HEX, 40))], "api.wandb.ai"),
    ("Kaggle", "kaggle_key", [("KAGGLE_USERNAME", lambda: "dataflo" + rs(DG, 2)), ("KAGGLE_KEY", lambda: rs(HEX, 32))], "www.kaggle.com"),
    ("Anyscale", "anyscale", [("ANYSCALE_API_KEY", lambda: "esecret_" + rs(ALNUM_LO, 26))], "api.endpoints.anyscale.com"),
    ("Modal", "modal_token", [("MODAL_TOKEN_ID", lambda: "ak-" + rs(AL, 22)), ("MODAL_TOKEN_SECRET", lambda: "as-" + rs(AL, 22))], "api.modal.com"),
    ("Spotify", "spotify_client_secret", [("SPOTIFY_CLIENT_ID", lambda: rs(HEX, 32)), ("SPOTIFY_CLIENT_SECRET", lambda: rs(HEX, 32))], "accounts.spotify.com"),
    ("Twitch", "twitch_client_secret", [("TWITCH_CLIENT_ID", lambda: rs(ALNUM_LO, 30)), ("TWITCH_CLIENT_SECRET", lambda: rs(ALNUM_LO, 30))], "id.twitch.tv"),
    ("WooCommerce", "woocommerce_keys", [("WC_CONSUMER_KEY", lambda: "ck_" + rs(HEX, 40)), ("WC_CONSUMER_SECRET", lambda: "cs_" + rs(HEX, 40))], "shop.example-store.com"),
    ("Pusher", "pusher_secret", [("PUSHER_APP_ID", lambda: rs(DG, 7)), ("PUSHER_KEY", lambda: rs(HEX, 20)), ("PUSHER_SECRET", lambda: rs(HEX, 20))], "api-eu.pusher.com"),
    ("Postmark", "postmark_server", [("POSTMARK_SERVER_TOKEN", uuid4)], "api.postmarkapp.com"),
    ("Wise", "wise_api", [("WISE_API_TOKEN", uuid4)], "api.wise.com"),
    ("AssemblyAI", "assemblyai", [("ASSEMBLYAI_API_KEY", lambda: rs(HEX, 32))], "api.assemblyai.com"),
    ("Deepgram", "deepgram", [("DEEPGRAM_API_KEY", lambda: rs(HEX, 40))], "api.deepgram.com"),
    ("Hasura", "hasura_admin", [("HASURA_GRAPHQL_ADMIN_SECRET", lambda: rs(AL, 64))], "acme.hasura.app"),
    ("Upstash", "upstash_redis", [("UPSTASH_REDIS_REST_URL", lambda: "https://" + pick(["eu1", "usw1"]) + "-" + rs(LO, 8) + "-" + rs(DG, 5) + ".upstash.io"),
                                  ("UPSTASH_REDIS_REST_TOKEN", lambda: "AX" + rs(B64URL, 68) + "=")], "upstash.io"),
    ("Stability AI", "stability", [("STABILITY_API_KEY", lambda: "sk-" + rs(AL, 48))], "api.stability.ai"),
    ("Bitcoin", "bitcoin_wif", [("WIF_PRIVATE_KEY", lambda: b58check(b"\x80" + rbytes(32) + b"\x01"))], "localhost"),
    ("Ethereum", "ethereum_private_key", [("ETH_PRIVATE_KEY", lambda: "0x" + rs(HEX, 64))], "mainnet.infura.io"),
    ("Solana", "solana_keypair", [("SOLANA_PRIVATE_KEY", lambda: b58encode(rbytes(64)))], "api.mainnet-beta.solana.com"),
]
VENDORS = sorted(set(t[0] for t in TOKEN_FORMATS))

# ---------------------------------------------------------------- language packs
L = {}
L["en"] = dict(
    pw="My {svc} password is {pw}", pin="The PIN for my {bank} debit card is {pin}.",
    wifi="Home Wi-Fi: network {ssid}, password {pw}", door="The code for the building entrance is {code}.",
    tok="Note to self: my {vendor} API key is {tok}",
    appt="Dentist appointment on {date} at {time}, confirmation number {conf}.",
    med="Blood pressure this morning was 138/86, pulse 72. I take {drug} {dose} mg once a day.",
    changed="I changed my {svc} password yesterday and signed out of all devices.",
    wifi_name="Our home Wi-Fi network is called {ssid}; the router is in the hallway cupboard.",
    order="Order {order} should arrive on {date}.",
    blocked="My card PIN got blocked after three wrong tries, I have to call the bank tomorrow.",
    filler=["We went to the farmers market on Saturday and bought tomatoes, peaches and fresh bread.",
            "My sister is visiting next month with the kids, so I need to get the guest room ready.",
            "The doctor said to walk at least thirty minutes a day and drink more water.",
            "I still have to renew the car insurance before the end of the month.",
            "The neighbours' dog barks every morning at six, which is driving me a bit crazy.",
            "Grandma's birthday is in May; she would love a photo album of the grandchildren.",
            "The plumber is coming on Thursday between eight and twelve to look at the boiler."],
    banks=["Chase", "Barclays", "Wells Fargo"], svcs=["Gmail", "Netflix", "Amazon", "iCloud", "PayPal"],
    drugs=["lisinopril", "metformin", "atorvastatin"])
L["es"] = dict(
    pw="Mi contraseña de {svc} es {pw}", pin="El PIN de mi tarjeta de débito de {bank} es {pin}.",
    wifi="Wi-Fi de casa: red {ssid}, contraseña {pw}", door="El código del portal es {code}.",
    tok="Apunte: mi clave de API de {vendor} es {tok}",
    appt="Cita con el dentista el {date} a las {time}, número de confirmación {conf}.",
    med="Esta mañana la tensión estaba en 138/86, pulso 72. Tomo {drug} {dose} mg una vez al día.",
    changed="Ayer cambié mi contraseña de {svc} y cerré sesión en todos los dispositivos.",
    wifi_name="Nuestra red Wi-Fi de casa se llama {ssid}; el router está en el armario del pasillo.",
    order="El pedido {order} debería llegar el {date}.",
    blocked="Se me bloqueó el PIN de la tarjeta después de tres intentos fallidos; mañana tengo que llamar al banco.",
    filler=["El sábado fuimos al mercado y compramos tomates, melocotones y pan recién hecho.",
            "Mi hermana viene el mes que viene con los niños, así que tengo que preparar la habitación de invitados.",
            "El médico me dijo que camine al menos treinta minutos al día y que beba más agua.",
            "Todavía tengo que renovar el seguro del coche antes de fin de mes.",
            "El perro de los vecinos ladra todas las mañanas a las seis.",
            "El cumpleaños de la abuela es en mayo; le haría ilusión un álbum de fotos de los nietos."],
    banks=["Santander", "BBVA", "CaixaBank"], svcs=["Gmail", "Netflix", "Mercado Libre", "Instagram"],
    drugs=["enalapril", "metformina", "omeprazol"])
L["fr"] = dict(
    pw="Mon mot de passe {svc} est {pw}", pin="Le code PIN de ma carte bancaire {bank} est {pin}.",
    wifi="Wi-Fi de la maison : réseau {ssid}, mot de passe {pw}", door="Le digicode de l'immeuble est {code}.",
    tok="Pense-bête : ma clé API {vendor} est {tok}",
    appt="Rendez-vous chez le dentiste le {date} à {time}, numéro de confirmation {conf}.",
    med="Ce matin, tension 13,8/8,6, pouls 72. Je prends {drug} {dose} mg une fois par jour.",
    changed="J'ai changé mon mot de passe {svc} hier et je me suis déconnecté de tous les appareils.",
    wifi_name="Notre réseau Wi-Fi s'appelle {ssid} ; la box est dans le placard de l'entrée.",
    order="La commande {order} devrait arriver le {date}.",
    blocked="Le code de ma carte est bloqué après trois essais ratés, je dois appeler la banque demain.",
    filler=["Samedi, nous sommes allés au marché acheter des tomates, des pêches et du pain frais.",
            "Ma sœur vient le mois prochain avec les enfants, il faut préparer la chambre d'amis.",
            "Le médecin m'a conseillé de marcher au moins trente minutes par jour et de boire plus d'eau.",
            "Je dois encore renouveler l'assurance de la voiture avant la fin du mois.",
            "Le chien des voisins aboie tous les matins à six heures.",
            "L'anniversaire de mamie est en mai ; elle aimerait un album photo des petits-enfants."],
    banks=["Crédit Agricole", "BNP Paribas", "La Banque Postale"], svcs=["Gmail", "Doctolib", "Ameli", "Netflix"],
    drugs=["Kardegic", "metformine", "Levothyrox"])
L["de"] = dict(
    pw="Mein {svc}-Passwort ist {pw}", pin="Die PIN meiner {bank}-Girocard ist {pin}.",
    wifi="WLAN zu Hause: Netz {ssid}, Passwort {pw}", door="Der Code für die Haustür lautet {code}.",
    tok="Merken: mein {vendor}-API-Schlüssel ist {tok}",
    appt="Zahnarzttermin am {date} um {time}, Bestätigungsnummer {conf}.",
    med="Blutdruck heute Morgen 138/86, Puls 72. Ich nehme {drug} {dose} mg einmal täglich.",
    changed="Ich habe gestern mein {svc}-Passwort geändert und mich überall abgemeldet.",
    wifi_name="Unser WLAN heißt {ssid}; der Router steht im Flurschrank.",
    order="Die Bestellung {order} soll am {date} ankommen.",
    blocked="Meine Karten-PIN ist nach drei Fehlversuchen gesperrt, ich muss morgen die Bank anrufen.",
    filler=["Am Samstag waren wir auf dem Wochenmarkt und haben Tomaten, Pfirsiche und frisches Brot gekauft.",
            "Meine Schwester kommt nächsten Monat mit den Kindern, ich muss das Gästezimmer herrichten.",
            "Die Ärztin meinte, ich soll täglich mindestens dreißig Minuten spazieren gehen und mehr trinken.",
            "Die Autoversicherung muss ich noch vor Monatsende verlängern.",
            "Der Hund der Nachbarn bellt jeden Morgen um sechs.",
            "Omas Geburtstag ist im Mai; sie wünscht sich ein Fotoalbum mit den Enkeln."],
    banks=["Sparkasse", "Volksbank", "Commerzbank"], svcs=["GMX", "web.de", "Amazon", "ELSTER"],
    drugs=["Ramipril", "Metformin", "L-Thyroxin"])
L["pt"] = dict(
    pw="Minha senha do {svc} é {pw}", pin="A senha do cartão de débito do {bank} é {pin}.",
    wifi="Wi-Fi de casa: rede {ssid}, senha {pw}", door="O código do portão do prédio é {code}.",
    tok="Lembrete: minha chave de API da {vendor} é {tok}",
    appt="Consulta no dentista em {date} às {time}, número de confirmação {conf}.",
    med="Pressão hoje de manhã 13 por 8,6, pulso 72. Tomo {drug} {dose} mg uma vez por dia.",
    changed="Ontem troquei a senha do {svc} e saí de todos os aparelhos.",
    wifi_name="A nossa rede Wi-Fi se chama {ssid}; o roteador fica no armário do corredor.",
    order="O pedido {order} deve chegar em {date}.",
    blocked="A senha do cartão bloqueou depois de três tentativas erradas, preciso ligar para o banco amanhã.",
    filler=["No sábado fomos à feira e compramos tomate, pêssego e pão fresquinho.",
            "Minha irmã vem no mês que vem com as crianças, preciso arrumar o quarto de hóspedes.",
            "O médico falou para eu caminhar pelo menos trinta minutos por dia e beber mais água.",
            "Ainda preciso renovar o seguro do carro antes do fim do mês.",
            "O cachorro dos vizinhos late toda manhã às seis.",
            "O aniversário da vovó é em maio; ela adoraria um álbum de fotos dos netos."],
    banks=["Itaú", "Bradesco", "Nubank"], svcs=["Gmail", "gov.br", "Mercado Livre", "iFood"],
    drugs=["losartana", "metformina", "sinvastatina"])
L["it"] = dict(
    pw="La mia password di {svc} è {pw}", pin="Il PIN del bancomat {bank} è {pin}.",
    wifi="Wi-Fi di casa: rete {ssid}, password {pw}", door="Il codice del portone è {code}.",
    tok="Promemoria: la mia chiave API {vendor} è {tok}",
    appt="Appuntamento dal dentista il {date} alle {time}, numero di conferma {conf}.",
    med="Pressione stamattina 138/86, battito 72. Prendo {drug} {dose} mg una volta al giorno.",
    changed="Ieri ho cambiato la password di {svc} e sono uscito da tutti i dispositivi.",
    wifi_name="La nostra rete Wi-Fi si chiama {ssid}; il router è nell'armadio del corridoio.",
    order="L'ordine {order} dovrebbe arrivare il {date}.",
    blocked="Il PIN della carta si è bloccato dopo tre tentativi sbagliati, domani devo chiamare la banca.",
    filler=["Sabato siamo andati al mercato e abbiamo comprato pomodori, pesche e pane fresco.",
            "Mia sorella viene il mese prossimo con i bambini, devo sistemare la camera degli ospiti.",
            "Il medico mi ha detto di camminare almeno trenta minuti al giorno e di bere più acqua.",
            "Devo ancora rinnovare l'assicurazione della macchina entro fine mese.",
            "Il cane dei vicini abbaia tutte le mattine alle sei.",
            "Il compleanno della nonna è a maggio; le piacerebbe un album di foto dei nipoti."],
    banks=["Intesa Sanpaolo", "UniCredit", "Poste"], svcs=["Gmail", "SPID", "Netflix", "Amazon"],
    drugs=["ramipril", "metformina", "Cardioaspirina"])
L["nl"] = dict(
    pw="Mijn {svc}-wachtwoord is {pw}", pin="De pincode van mijn {bank}-pas is {pin}.",
    wifi="Wifi thuis: netwerk {ssid}, wachtwoord {pw}", door="De code van de voordeur is {code}.",
    tok="Onthouden: mijn {vendor} API-sleutel is {tok}",
    appt="Tandartsafspraak op {date} om {time}, bevestigingsnummer {conf}.",
    med="Bloeddruk vanochtend 138/86, hartslag 72. Ik neem {drug} {dose} mg eenmaal per dag.",
    changed="Ik heb gisteren mijn {svc}-wachtwoord gewijzigd en ben overal uitgelogd.",
    wifi_name="Ons wifinetwerk heet {ssid}; de router staat in de gangkast.",
    order="Bestelling {order} komt naar verwachting op {date}.",
    blocked="Mijn pincode is geblokkeerd na drie foute pogingen, morgen moet ik de bank bellen.",
    filler=["Zaterdag zijn we naar de markt geweest en hebben we tomaten, perziken en vers brood gekocht.",
            "Mijn zus komt volgende maand met de kinderen logeren, dus de logeerkamer moet klaar.",
            "De huisarts zei dat ik elke dag minstens een half uur moet wandelen en meer water moet drinken.",
            "De autoverzekering moet ik nog voor het eind van de maand verlengen.",
            "De hond van de buren blaft elke ochtend om zes uur."],
    banks=["ING", "Rabobank", "ABN AMRO"], svcs=["DigiD", "bol.com", "Gmail", "Netflix"],
    drugs=["metoprolol", "metformine", "simvastatine"])
L["pl"] = dict(
    pw="Moje hasło do {svc} to {pw}", pin="PIN do karty {bank} to {pin}.",
    wifi="Wi-Fi w domu: sieć {ssid}, hasło {pw}", door="Kod do domofonu to {code}.",
    tok="Zapamiętać: mój klucz API {vendor} to {tok}",
    appt="Wizyta u dentysty {date} o {time}, numer potwierdzenia {conf}.",
    med="Ciśnienie rano 138/86, tętno 72. Biorę {drug} {dose} mg raz dziennie.",
    changed="Wczoraj zmieniłem hasło do {svc} i wylogowałem się ze wszystkich urządzeń.",
    wifi_name="Nasza sieć Wi-Fi nazywa się {ssid}; router stoi w szafce w przedpokoju.",
    order="Zamówienie {order} powinno dotrzeć {date}.",
    blocked="PIN do karty zablokował się po trzech błędnych próbach, jutro muszę zadzwonić do banku.",
    filler=["W sobotę byliśmy na targu i kupiliśmy pomidory, brzoskwinie i świeży chleb.",
            "Siostra przyjeżdża w przyszłym miesiącu z dziećmi, muszę przygotować pokój gościnny.",
            "Lekarka powiedziała, żebym codziennie chodził na spacer przez co najmniej pół godziny.",
            "Muszę jeszcze przedłużyć ubezpieczenie samochodu przed końcem miesiąca.",
            "Pies sąsiadów szczeka każdego ranka o szóstej."],
    banks=["PKO BP", "mBank", "Pekao"], svcs=["Allegro", "Gmail", "ePUAP", "Netflix"],
    drugs=["Polpril", "metformina", "Acard"])
L["tr"] = dict(
    pw="{svc} şifrem {pw}", pin="{bank} banka kartımın şifresi {pin}.",
    wifi="Ev Wi-Fi: ağ {ssid}, şifre {pw}", door="Apartman kapısının kodu {code}.",
    tok="Not: {vendor} API anahtarım {tok}",
    appt="Diş hekimi randevusu {date} saat {time}, onay numarası {conf}.",
    med="Bu sabah tansiyon 138/86, nabız 72. Günde bir kez {drug} {dose} mg kullanıyorum.",
    changed="Dün {svc} şifremi değiştirdim ve tüm cihazlardan çıkış yaptım.",
    wifi_name="Evdeki Wi-Fi ağının adı {ssid}; modem koridordaki dolapta.",
    order="{order} numaralı siparişin {date} tarihinde gelmesi bekleniyor.",
    blocked="Üç yanlış denemeden sonra kart şifrem bloke oldu, yarın bankayı aramam lazım.",
    filler=["Cumartesi pazara gittik; domates, şeftali ve taze ekmek aldık.",
            "Kız kardeşim gelecek ay çocuklarla gelecek, misafir odasını hazırlamam gerekiyor.",
            "Doktor her gün en az otuz dakika yürümemi ve daha fazla su içmemi söyledi.",
            "Ay sonundan önce araba sigortasını yenilemem lazım.",
            "Komşunun köpeği her sabah altıda havlıyor."],
    banks=["Ziraat", "İş Bankası", "Garanti BBVA"], svcs=["e-Devlet", "Trendyol", "Gmail", "Hepsiburada"],
    drugs=["Beloc", "Glifor", "Coraspin"])
L["id"] = dict(
    pw="Kata sandi {svc} saya adalah {pw}", pin="PIN kartu debit {bank} saya {pin}.",
    wifi="Wi-Fi rumah: jaringan {ssid}, kata sandi {pw}", door="Kode pintu gedung adalah {code}.",
    tok="Catatan: kunci API {vendor} saya adalah {tok}",
    appt="Janji dengan dokter gigi pada {date} pukul {time}, nomor konfirmasi {conf}.",
    med="Tekanan darah pagi ini 138/86, nadi 72. Saya minum {drug} {dose} mg sekali sehari.",
    changed="Kemarin saya mengganti kata sandi {svc} dan keluar dari semua perangkat.",
    wifi_name="Jaringan Wi-Fi rumah kami bernama {ssid}; routernya ada di lemari lorong.",
    order="Pesanan {order} seharusnya tiba pada {date}.",
    blocked="PIN kartu saya terblokir setelah tiga kali salah, besok saya harus menelepon bank.",
    filler=["Hari Sabtu kami ke pasar dan membeli tomat, mangga, dan roti segar.",
            "Adik saya datang bulan depan bersama anak-anak, jadi kamar tamu harus disiapkan.",
            "Dokter bilang saya harus jalan kaki minimal tiga puluh menit sehari dan minum lebih banyak air.",
            "Saya masih harus memperpanjang asuransi mobil sebelum akhir bulan.",
            "Anjing tetangga menggonggong setiap pagi jam enam."],
    banks=["BCA", "Mandiri", "BRI"], svcs=["Tokopedia", "Shopee", "Gmail", "GoPay"],
    drugs=["amlodipin", "metformin", "simvastatin"])
L["vi"] = dict(
    pw="Mật khẩu {svc} của tôi là {pw}", pin="Mã PIN thẻ ghi nợ {bank} của tôi là {pin}.",
    wifi="Wi-Fi ở nhà: mạng {ssid}, mật khẩu {pw}", door="Mã cửa ra vào tòa nhà là {code}.",
    tok="Ghi chú: khóa API {vendor} của tôi là {tok}",
    appt="Lịch hẹn nha sĩ ngày {date} lúc {time}, mã xác nhận {conf}.",
    med="Huyết áp sáng nay 138/86, mạch 72. Tôi uống {drug} {dose} mg mỗi ngày một lần.",
    changed="Hôm qua tôi đã đổi mật khẩu {svc} và đăng xuất khỏi tất cả thiết bị.",
    wifi_name="Mạng Wi-Fi ở nhà tên là {ssid}; bộ phát nằm trong tủ ở hành lang.",
    order="Đơn hàng {order} dự kiến giao ngày {date}.",
    blocked="Mã PIN thẻ của tôi bị khóa sau ba lần nhập sai, mai tôi phải gọi ngân hàng.",
    filler=["Thứ Bảy chúng tôi đi chợ mua cà chua, xoài và bánh mì mới ra lò.",
            "Em gái tôi tháng sau sẽ về chơi cùng các cháu, tôi phải dọn phòng khách.",
            "Bác sĩ dặn mỗi ngày đi bộ ít nhất ba mươi phút và uống nhiều nước hơn.",
            "Tôi vẫn phải gia hạn bảo hiểm xe trước cuối tháng.",
            "Con chó nhà hàng xóm sáng nào cũng sủa lúc sáu giờ."],
    banks=["Vietcombank", "Techcombank", "BIDV"], svcs=["Zalo", "Shopee", "Gmail", "MoMo"],
    drugs=["amlodipin", "metformin", "atorvastatin"])
L["ru"] = dict(
    pw="Мой пароль от {svc}: {pw}", pin="ПИН-код моей карты {bank}: {pin}.",
    wifi="Домашний Wi-Fi: сеть {ssid}, пароль {pw}", door="Код домофона в подъезде — {code}.",
    tok="Запомнить: мой API-ключ {vendor} — {tok}",
    appt="Запись к стоматологу {date} в {time}, номер подтверждения {conf}.",
    med="Давление утром 138/86, пульс 72. Принимаю {drug} {dose} мг один раз в день.",
    changed="Вчера я сменил пароль от {svc} и вышел на всех устройствах.",
    wifi_name="Наша домашняя сеть Wi-Fi называется {ssid}; роутер стоит в шкафу в коридоре.",
    order="Заказ {order} должен прийти {date}.",
    blocked="ПИН-код карты заблокировали после трёх неверных попыток, завтра надо позвонить в банк.",
    filler=["В субботу ездили на рынок, купили помидоры, персики и свежий хлеб.",
            "Сестра приезжает в следующем месяце с детьми, надо подготовить гостевую комнату.",
            "Врач сказал гулять не меньше тридцати минут в день и пить больше воды.",
            "Нужно ещё продлить страховку на машину до конца месяца.",
            "Соседская собака лает каждое утро в шесть часов.",
            "У бабушки день рождения в мае, она хочет фотоальбом с внуками."],
    banks=["Сбербанк", "Т-Банк", "ВТБ"], svcs=["Госуслуги", "Яндекс", "ВКонтакте", "Ozon"],
    drugs=["эналаприл", "метформин", "аторвастатин"])
L["uk"] = dict(
    pw="Мій пароль від {svc}: {pw}", pin="ПІН-код моєї картки {bank}: {pin}.",
    wifi="Домашній Wi-Fi: мережа {ssid}, пароль {pw}", door="Код домофона в під'їзді — {code}.",
    tok="Запам'ятати: мій API-ключ {vendor} — {tok}",
    appt="Запис до стоматолога {date} о {time}, номер підтвердження {conf}.",
    med="Тиск зранку 138/86, пульс 72. Приймаю {drug} {dose} мг один раз на день.",
    changed="Вчора я змінив пароль від {svc} і вийшов з усіх пристроїв.",
    wifi_name="Наша домашня мережа Wi-Fi називається {ssid}; роутер стоїть у шафі в коридорі.",
    order="Замовлення {order} має прийти {date}.",
    blocked="ПІН-код картки заблокували після трьох невдалих спроб, завтра треба зателефонувати в банк.",
    filler=["У суботу ходили на ринок, купили помідори, персики та свіжий хліб.",
            "Сестра приїде наступного місяця з дітьми, треба підготувати кімнату для гостей.",
            "Лікарка сказала гуляти щонайменше тридцять хвилин на день і пити більше води.",
            "Ще треба продовжити страховку на авто до кінця місяця.",
            "Сусідський пес гавкає щоранку о шостій."],
    banks=["ПриватБанк", "Монобанк", "Ощадбанк"], svcs=["Дія", "Нова пошта", "Gmail", "Rozetka"],
    drugs=["еналаприл", "метформін", "аторвастатин"])
L["el"] = dict(
    pw="Ο κωδικός μου στο {svc} είναι {pw}", pin="Το PIN της χρεωστικής κάρτας {bank} είναι {pin}.",
    wifi="Wi-Fi σπιτιού: δίκτυο {ssid}, κωδικός {pw}", door="Ο κωδικός της εισόδου της πολυκατοικίας είναι {code}.",
    tok="Σημείωση: το κλειδί API μου για {vendor} είναι {tok}",
    appt="Ραντεβού στον οδοντίατρο στις {date} και ώρα {time}, αριθμός επιβεβαίωσης {conf}.",
    med="Πίεση σήμερα το πρωί 13,8/8,6, σφυγμοί 72. Παίρνω {drug} {dose} mg μία φορά την ημέρα.",
    changed="Χθες άλλαξα τον κωδικό μου στο {svc} και αποσυνδέθηκα από όλες τις συσκευές.",
    wifi_name="Το Wi-Fi του σπιτιού λέγεται {ssid}· ο router είναι στη ντουλάπα του διαδρόμου.",
    order="Η παραγγελία {order} αναμένεται στις {date}.",
    blocked="Το PIN της κάρτας μου κλειδώθηκε μετά από τρεις λάθος προσπάθειες, αύριο πρέπει να πάρω την τράπεζα.",
    filler=["Το Σάββατο πήγαμε στη λαϊκή και πήραμε ντομάτες, ροδάκινα και φρέσκο ψωμί.",
            "Η αδερφή μου έρχεται τον άλλο μήνα με τα παιδιά, πρέπει να ετοιμάσω το δωμάτιο των επισκεπτών.",
            "Ο γιατρός είπε να περπατάω τουλάχιστον μισή ώρα την ημέρα και να πίνω περισσότερο νερό.",
            "Πρέπει ακόμα να ανανεώσω την ασφάλεια του αυτοκινήτου πριν το τέλος του μήνα.",
            "Ο σκύλος των γειτόνων γαβγίζει κάθε πρωί στις έξι."],
    banks=["Eurobank", "Πειραιώς", "Alpha Bank"], svcs=["Gov.gr", "Skroutz", "Gmail", "Netflix"],
    drugs=["Lipitor", "Glucophage", "Salospir"])
L["ar"] = dict(
    pw="كلمة المرور الخاصة بي في {svc} هي {pw}", pin="الرقم السري لبطاقة {bank} هو {pin}.",
    wifi="واي فاي المنزل: الشبكة {ssid}، كلمة المرور {pw}", door="رمز باب العمارة هو {code}.",
    tok="ملاحظة: مفتاح API الخاص بي في {vendor} هو {tok}",
    appt="موعد طبيب الأسنان يوم {date} الساعة {time}، رقم التأكيد {conf}.",
    med="ضغط الدم صباح اليوم 138/86، النبض 72. أتناول {drug} {dose} ملغ مرة واحدة يوميًا.",
    changed="غيّرت كلمة المرور في {svc} أمس وسجّلت الخروج من جميع الأجهزة.",
    wifi_name="اسم شبكة الواي فاي في المنزل {ssid}، والراوتر في خزانة الممر.",
    order="من المتوقع أن يصل الطلب {order} يوم {date}.",
    blocked="تم إيقاف الرقم السري للبطاقة بعد ثلاث محاولات خاطئة، يجب أن أتصل بالبنك غدًا.",
    filler=["ذهبنا يوم السبت إلى السوق واشترينا طماطم وخوخًا وخبزًا طازجًا.",
            "أختي ستزورنا الشهر القادم مع الأولاد، لذلك يجب أن أجهّز غرفة الضيوف.",
            "قال الطبيب إن عليّ المشي ثلاثين دقيقة على الأقل يوميًا وشرب المزيد من الماء.",
            "ما زال عليّ تجديد تأمين السيارة قبل نهاية الشهر.",
            "كلب الجيران ينبح كل صباح في السادسة."],
    banks=["الراجحي", "البنك الأهلي", "بنك مصر"], svcs=["أبشر", "Gmail", "نون", "Instagram"],
    drugs=["كونكور", "جلوكوفاج", "أسبرين"])
L["he"] = dict(
    pw="הסיסמה שלי ל-{svc} היא {pw}", pin="הקוד הסודי של הכרטיס של {bank} הוא {pin}.",
    wifi="Wi-Fi בבית: רשת {ssid}, סיסמה {pw}", door="הקוד של דלת הכניסה לבניין הוא {code}.",
    tok="לזכור: מפתח ה-API שלי ב-{vendor} הוא {tok}",
    appt="תור לרופא שיניים ב-{date} בשעה {time}, מספר אישור {conf}.",
    med="לחץ דם הבוקר 138/86, דופק 72. אני לוקח {drug} {dose} מ\"ג פעם ביום.",
    changed="אתמול החלפתי את הסיסמה ל-{svc} והתנתקתי מכל המכשירים.",
    wifi_name="רשת ה-Wi-Fi בבית נקראת {ssid}; הראוטר נמצא בארון במסדרון.",
    order="ההזמנה {order} אמורה להגיע ב-{date}.",
    blocked="הקוד של הכרטיס נחסם אחרי שלושה ניסיונות שגויים, מחר אני צריך להתקשר לבנק.",
    filler=["בשבת הלכנו לשוק וקנינו עגבניות, אפרסקים ולחם טרי.",
            "אחותי מגיעה בחודש הבא עם הילדים, צריך להכין את חדר האורחים.",
            "הרופאה אמרה ללכת לפחות חצי שעה ביום ולשתות יותר מים.",
            "אני עוד צריך לחדש את ביטוח הרכב לפני סוף החודש.",
            "הכלב של השכנים נובח כל בוקר בשש."],
    banks=["לאומי", "הפועלים", "דיסקונט"], svcs=["Gmail", "כללית", "Wolt", "Netflix"],
    drugs=["אומפרדקס", "גלוקופאז'", "מיקרופירין"])
L["fa"] = dict(
    pw="رمز عبور من در {svc} این است: {pw}", pin="رمز کارت بانکی {bank} من {pin} است.",
    wifi="وای‌فای خانه: شبکه {ssid}، رمز {pw}", door="کد در ورودی ساختمان {code} است.",
    tok="یادداشت: کلید API من در {vendor} این است: {tok}",
    appt="نوبت دندان‌پزشکی {date} ساعت {time}، شماره تأیید {conf}.",
    med="فشار خون امروز صبح ۱۳۸/۸۶ و نبض ۷۲ بود. روزی یک بار {drug} {dose} میلی‌گرم مصرف می‌کنم.",
    changed="دیروز رمز عبور {svc} را عوض کردم و از همه دستگاه‌ها خارج شدم.",
    wifi_name="اسم شبکه وای‌فای خانه {ssid} است؛ مودم در کمد راهرو است.",
    order="سفارش {order} قرار است {date} برسد.",
    blocked="رمز کارتم بعد از سه بار اشتباه مسدود شد، فردا باید به بانک زنگ بزنم.",
    filler=["شنبه به بازار رفتیم و گوجه، هلو و نان تازه خریدیم.",
            "خواهرم ماه آینده با بچه‌ها می‌آید، باید اتاق مهمان را آماده کنم.",
            "دکتر گفت هر روز دست‌کم سی دقیقه پیاده‌روی کنم و آب بیشتری بنوشم.",
            "هنوز باید بیمه ماشین را تا آخر ماه تمدید کنم.",
            "سگ همسایه هر روز صبح ساعت شش پارس می‌کند."],
    banks=["ملت", "ملی", "سامان"], svcs=["Gmail", "دیجی‌کالا", "اسنپ", "Instagram"],
    drugs=["لوزارتان", "متفورمین", "آتورواستاتین"])
L["hi"] = dict(
    pw="मेरा {svc} पासवर्ड {pw} है", pin="मेरे {bank} डेबिट कार्ड का पिन {pin} है।",
    wifi="घर का वाई-फाई: नेटवर्क {ssid}, पासवर्ड {pw}", door="बिल्डिंग के गेट का कोड {code} है।",
    tok="याद रखें: मेरी {vendor} API key {tok} है",
    appt="दाँतों के डॉक्टर से मुलाक़ात {date} को {time} बजे, पुष्टि संख्या {conf}।",
    med="आज सुबह ब्लड प्रेशर 138/86 था, नब्ज़ 72। मैं रोज़ एक बार {drug} {dose} मि.ग्रा. लेता हूँ।",
    changed="मैंने कल अपना {svc} पासवर्ड बदल दिया और सभी डिवाइस से लॉग आउट कर दिया।",
    wifi_name="हमारे घर के वाई-फाई नेटवर्क का नाम {ssid} है; राउटर गलियारे की अलमारी में है।",
    order="ऑर्डर {order} {date} तक पहुँच जाना चाहिए।",
    blocked="तीन बार गलत डालने के बाद मेरे कार्ड का पिन ब्लॉक हो गया, कल बैंक को फ़ोन करना है।",
    filler=["शनिवार को हम सब्ज़ी मंडी गए और टमाटर, आम और ताज़ी ब्रेड ली।",
            "मेरी बहन अगले महीने बच्चों के साथ आ रही है, मेहमानों का कमरा तैयार करना है।",
            "डॉक्टर ने कहा है कि रोज़ कम से कम तीस मिनट टहलूँ और ज़्यादा पानी पिऊँ।",
            "महीने के आख़िर से पहले गाड़ी का बीमा रिन्यू करवाना है।",
            "पड़ोसियों का कुत्ता हर सुबह छह बजे भौंकता है।"],
    banks=["SBI", "HDFC", "ICICI"], svcs=["DigiLocker", "Paytm", "Gmail", "IRCTC"],
    drugs=["टेल्मिसार्टन", "मेटफ़ॉर्मिन", "एटोरवास्टैटिन"])
L["bn"] = dict(
    pw="আমার {svc} পাসওয়ার্ড হলো {pw}", pin="আমার {bank} ডেবিট কার্ডের পিন {pin}।",
    wifi="বাড়ির ওয়াই-ফাই: নেটওয়ার্ক {ssid}, পাসওয়ার্ড {pw}", door="বিল্ডিংয়ের গেটের কোড {code}।",
    tok="মনে রাখার জন্য: আমার {vendor} API কী হলো {tok}",
    appt="দাঁতের ডাক্তারের অ্যাপয়েন্টমেন্ট {date} তারিখে {time}টায়, নিশ্চিতকরণ নম্বর {conf}।",
    med="আজ সকালে রক্তচাপ ছিল 138/86, পালস 72। আমি দিনে একবার {drug} {dose} মি.গ্রা. খাই।",
    changed="গতকাল আমি {svc} পাসওয়ার্ড বদলেছি এবং সব ডিভাইস থেকে লগ আউট করেছি।",
    wifi_name="আমাদের বাড়ির ওয়াই-ফাই নেটওয়ার্কের নাম {ssid}; রাউটারটা বারান্দার আলমারিতে।",
    order="অর্ডার {order} {date} তারিখে পৌঁছানোর কথা।",
    blocked="তিনবার ভুল দেওয়ার পর কার্ডের পিন ব্লক হয়ে গেছে, কাল ব্যাংকে ফোন করতে হবে।",
    filler=["শনিবার আমরা বাজারে গিয়ে টমেটো, আম আর টাটকা পাউরুটি কিনেছি।",
            "আমার বোন আগামী মাসে বাচ্চাদের নিয়ে আসছে, অতিথিদের ঘর গুছিয়ে রাখতে হবে।",
            "ডাক্তার বলেছেন প্রতিদিন অন্তত ত্রিশ মিনিট হাঁটতে আর বেশি পানি খেতে।",
            "মাস শেষ হওয়ার আগে গাড়ির বিমা নবায়ন করতে হবে।",
            "প্রতিবেশীদের কুকুরটা রোজ সকাল ছয়টায় ঘেউ ঘেউ করে।"],
    banks=["সোনালী ব্যাংক", "ব্র্যাক ব্যাংক", "ডাচ-বাংলা"], svcs=["bKash", "Gmail", "Daraz", "Facebook"],
    drugs=["অ্যামলোডিপিন", "মেটফরমিন", "লোসারটান"])
L["th"] = dict(
    pw="รหัสผ่าน {svc} ของฉันคือ {pw}", pin="รหัส PIN บัตรเดบิต {bank} ของฉันคือ {pin}",
    wifi="Wi-Fi ที่บ้าน: เครือข่าย {ssid} รหัสผ่าน {pw}", door="รหัสประตูทางเข้าอาคารคือ {code}",
    tok="บันทึกไว้: คีย์ API ของ {vendor} คือ {tok}",
    appt="นัดหมอฟันวันที่ {date} เวลา {time} หมายเลขยืนยัน {conf}",
    med="ความดันเมื่อเช้า 138/86 ชีพจร 72 ฉันกินยา {drug} {dose} มก. วันละครั้ง",
    changed="เมื่อวานฉันเปลี่ยนรหัสผ่าน {svc} แล้วและออกจากระบบทุกอุปกรณ์",
    wifi_name="เครือข่าย Wi-Fi ที่บ้านชื่อ {ssid} เราเตอร์อยู่ในตู้ที่ทางเดิน",
    order="คำสั่งซื้อ {order} น่าจะมาถึงวันที่ {date}",
    blocked="PIN บัตรถูกล็อกหลังจากใส่ผิดสามครั้ง พรุ่งนี้ต้องโทรหาธนาคาร",
    filler=["วันเสาร์เราไปตลาดซื้อมะเขือเทศ มะม่วง และขนมปังสด",
            "น้องสาวจะมาเยี่ยมเดือนหน้าพร้อมลูก ๆ ต้องเตรียมห้องรับแขก",
            "หมอบอกให้เดินอย่างน้อยวันละสามสิบนาทีและดื่มน้ำให้มากขึ้น",
            "ยังต้องต่อประกันรถก่อนสิ้นเดือน",
            "หมาบ้านข้าง ๆ เห่าทุกเช้าตอนหกโมง"],
    banks=["กสิกรไทย", "ไทยพาณิชย์", "กรุงเทพ"], svcs=["LINE", "Shopee", "Gmail", "เป๋าตัง"],
    drugs=["amlodipine", "metformin", "simvastatin"])
L["zh"] = dict(
    pw="我的{svc}密码是{pw}", pin="我的{bank}借记卡密码是{pin}。",
    wifi="家里Wi-Fi：网络{ssid}，密码{pw}", door="楼下门禁密码是{code}。",
    tok="备忘：我的{vendor} API 密钥是 {tok}",
    appt="{date} {time}看牙医，确认号{conf}。",
    med="今天早上血压138/86，心率72。我每天服用一次{drug} {dose}毫克。",
    changed="我昨天改了{svc}的密码，并退出了所有设备。",
    wifi_name="家里的Wi-Fi名字叫{ssid}，路由器在走廊的柜子里。",
    order="订单{order}预计{date}送达。",
    blocked="银行卡密码输错三次被锁了，明天要给银行打电话。",
    filler=["周六我们去了菜市场，买了西红柿、桃子和新鲜面包。",
            "妹妹下个月带孩子们过来住，得把客房收拾出来。",
            "医生说每天至少要走三十分钟，还要多喝水。",
            "月底之前还得续交车险。",
            "邻居家的狗每天早上六点就开始叫。",
            "奶奶五月过生日，她想要一本孙子孙女的相册。"],
    banks=["工商银行", "招商银行", "建设银行"], svcs=["微信", "支付宝", "淘宝", "12306"],
    drugs=["氨氯地平", "二甲双胍", "阿托伐他汀"])
L["ja"] = dict(
    pw="{svc}のパスワードは{pw}です", pin="{bank}のキャッシュカードの暗証番号は{pin}です。",
    wifi="自宅のWi-Fi：ネットワーク{ssid}、パスワード{pw}", door="マンションのオートロックの番号は{code}です。",
    tok="メモ：{vendor}のAPIキーは {tok} です",
    appt="{date} {time}に歯医者の予約、確認番号{conf}。",
    med="今朝の血圧は138/86、脈拍72。{drug} {dose}mgを1日1回飲んでいます。",
    changed="昨日{svc}のパスワードを変更して、すべての端末からログアウトしました。",
    wifi_name="家のWi-Fiの名前は{ssid}です。ルーターは廊下の収納にあります。",
    order="注文{order}は{date}に届く予定です。",
    blocked="暗証番号を3回間違えてカードがロックされたので、明日銀行に電話しないといけない。",
    filler=["土曜日は朝市に行って、トマトと桃と焼きたてのパンを買いました。",
            "来月、妹が子どもたちを連れて来るので、客間を片付けないといけません。",
            "お医者さんに、毎日30分以上歩いて水をもっと飲むように言われました。",
            "月末までに車の保険を更新しなければなりません。",
            "隣の家の犬が毎朝6時に吠えます。",
            "祖母の誕生日は5月で、孫たちのアルバムを欲しがっています。"],
    banks=["ゆうちょ銀行", "三菱UFJ銀行", "楽天銀行"], svcs=["楽天", "LINE", "Gmail", "Amazon"],
    drugs=["アムロジピン", "メトホルミン", "ロスバスタチン"])
L["ko"] = dict(
    pw="제 {svc} 비밀번호는 {pw} 입니다", pin="{bank} 체크카드 비밀번호는 {pin} 입니다.",
    wifi="집 와이파이: 네트워크 {ssid}, 비밀번호 {pw}", door="아파트 공동현관 비밀번호는 {code} 입니다.",
    tok="메모: 제 {vendor} API 키는 {tok} 입니다",
    appt="{date} {time} 치과 예약, 확인 번호 {conf}.",
    med="오늘 아침 혈압 138/86, 맥박 72. {drug} {dose}mg을 하루 한 번 복용 중.",
    changed="어제 {svc} 비밀번호를 바꾸고 모든 기기에서 로그아웃했어요.",
    wifi_name="집 와이파이 이름은 {ssid} 이고, 공유기는 복도 수납장에 있어요.",
    order="주문 {order} 은 {date}에 도착 예정입니다.",
    blocked="비밀번호를 세 번 틀려서 카드가 잠겼어요. 내일 은행에 전화해야 해요.",
    filler=["토요일에 시장에 가서 토마토, 복숭아, 갓 구운 빵을 샀어요.",
            "다음 달에 여동생이 아이들을 데리고 와서 손님방을 치워야 해요.",
            "의사 선생님이 매일 최소 30분은 걷고 물을 더 마시라고 하셨어요.",
            "월말 전에 자동차 보험을 갱신해야 해요.",
            "옆집 개가 매일 아침 6시에 짖어요."],
    banks=["국민은행", "신한은행", "카카오뱅크"], svcs=["네이버", "카카오톡", "쿠팡", "Gmail"],
    drugs=["암로디핀", "메트포르민", "아토르바스타틴"])
LANGS = list(L.keys())
NONLATIN = ["ru", "uk", "el", "ar", "he", "fa", "hi", "bn", "th", "zh", "ja", "ko"]

SSIDS = ["FRITZ!Box 7590 KL", "Vodafone-4F2A", "TP-Link_8C1E", "NETGEAR47", "Livebox-3A90", "SKY7F21C",
         "BTHub6-92QK", "Casa_Rossi", "FamiliaGarcia_5G", "HUAWEI-B535-77A1", "Keenetic-5520", "Xfinity-Home-22",
         "MiFibra-0D4E", "ASUS_RT_68U", "Tenda_6A2F10", "ZTE_2.4G_kq9X", "TIM-29374651", "Ziggo8839210",
         "Orange-91C3", "dlink-A7E0", "Linksys00412", "Bbox-6E1D22F0", "UPC4418402", "KT_GiGA_5G_Wave2",
         "iptime_home", "AIS_Fibre_3F2", "Telkom-Indihome-3", "VNPT_Hung", "Superonline_WiFi_8821", "HOTBOX-9C2F"]

WORDS = ["sunflower", "tiger", "mango", "rocket", "falcon", "maple", "coffee", "pirate", "lemon", "dragon",
         "winter", "summer", "butterfly", "panther", "cobalt", "harbor", "violet", "thunder", "meadow", "pepper",
         "kartoffel", "sonnenblume", "mariposa", "estrella", "soleil", "papillon", "girasole", "zonnebloem",
         "slonce", "kedi", "matahari", "hoa", "moskva", "kalinka", "sakura", "tokki", "nanami", "bangkok",
         "ramadan", "shalom", "delhi", "dhaka", "athina", "kyiv", "tehran", "haneul"]
SYMS = "!@#$%&*?.-_+"


def human_pw():
    w = pick(WORDS)
    style = R.randrange(7)
    if style == 0:
        return w.capitalize() + pick(SYMS) + str(R.randrange(1950, 2024))
    if style == 1:
        return w.capitalize() + str(R.randrange(10, 99)) + pick(SYMS)
    if style == 2:
        return w + str(R.randrange(1000, 9999))
    if style == 3:
        return pick(WORDS) + "-" + pick(WORDS) + "-" + pick(WORDS) + "-" + str(R.randrange(10, 99))
    if style == 4:
        return rs(AL, 4) + pick(SYMS) + rs(AL, 5) + pick(SYMS) + rs(DG, 3)
    if style == 5:
        s = w.capitalize()
        s = s.replace("a", "@").replace("o", "0").replace("e", "3")
        return s + str(R.randrange(1, 99)) + pick(SYMS)
    return rs(AL + "!#%&*", R.randrange(14, 21))


def strong_pw():
    while True:
        p = rs(AL + "!#$%&*+-=?@^_", R.randrange(16, 25))
        if any(c.isdigit() for c in p) and any(c.isupper() for c in p) and any(c in SYMS for c in p):
            return p


def fill(lang, n):
    f = L[lang]["filler"]
    return " ".join(sample(f, min(n, len(f))))


def conf_code():
    return pick([rs(ALNUM_UP, 6), "A" + rs(DG, 7), rs(UP, 3) + "-" + rs(DG, 5), rs(DG, 8)])


def order_no():
    return pick(["%s-%s-%s" % (rs(DG, 3), rs(DG, 7), rs(DG, 7)), "#" + rs(DG, 7), "ORD-" + rs(ALNUM_UP, 10),
                 rs(DG, 12)])

# ---------------------------------------------------------------- carriers for provider tokens
PROJECTS = ["billing-api", "family-photos", "garden-sensors", "thesis-scraper", "shop-backend", "homelab",
            "invoice-bot", "newsletter", "mobile-app", "data-pipeline", "wedding-site", "portfolio"]
URLISH = {"slack_webhook", "discord_webhook", "teams_webhook", "azure_sas_url", "azure_storage_conn",
          "cloudinary_url", "mongodb_uri", "redis_url", "neon_database_url", "gcp_service_account",
          "wireguard_private", "age_secret_key", "bitcoin_wif", "ethereum_private_key", "solana_keypair",
          "k8s_bootstrap_token", "onepassword_secret_key", "planetscale_password", "flyio_token"}


def gen_fields(fmt):
    return [(name, g()) for name, g in fmt[2]]


def env_lines(fields, quote=False):
    return "\n".join('%s=%s' % (n, ('"%s"' % v) if quote else v) for n, v in fields)


def c_dotenv(fmt, fields):
    proj = pick(PROJECTS)
    txt = "# %s/.env (local only)\nNODE_ENV=production\nPORT=%d\nLOG_LEVEL=info\n%s\n" % (
        proj, pick([3000, 8080, 8000]), env_lines(fields, quote=R.random() < 0.3))
    return {"text": txt}, False


def c_agent_fact(fmt, fields):
    v = fields[-1][1]
    lead = pick(["User mentioned that", "The user said that", "User shared that", "Per the conversation,"])
    extra = ""
    if len(fields) > 1:
        extra = " (%s)" % ", ".join("%s %s" % (n, v2) for n, v2 in fields[:-1])
    what = fields[-1][0].replace("_", " ").lower()
    if what.split()[0] in fmt[0].lower():
        what = " ".join(what.split()[1:]) or what
    txt = "%s the %s %s for the %s project is %s%s and asked me to keep it for later." % (
        lead, fmt[0], what, pick(PROJECTS), v, extra)
    return {"text": txt, "source": "conversation", "confidence": round(R.uniform(0.7, 0.99), 2)}, False


def c_structured(fmt, fields):
    d = {"type": "credential", "service": fmt[0], "created": date_iso()}
    for n, v in fields:
        d[n.lower()] = v
    return d, False


def c_python(fmt, fields):
    lines = ["import os", "import requests", ""]
    for n, v in fields:
        lines.append('%s = "%s"  # TODO move to vault' % (n, v))
    lines += ["", "resp = requests.get(\"https://%s/v1/status\", timeout=10)" % fmt[3], "print(resp.status_code)"]
    return {"text": "Snippet I use for the %s integration:\n\n```python\n%s\n```" % (fmt[0], "\n".join(lines))}, False


def c_notebook(fmt, fields):
    src = ["# Cell 3: configure clients\n", "import os\n"]
    for n, v in fields:
        src.append("os.environ[\"%s\"] = \"%s\"\n" % (n, v))
    src.append("client = make_client(base_url=\"https://%s\")\n" % fmt[3])
    value = {"cells": [
        {"cell_type": "markdown", "source": ["## Quarterly churn analysis\n",
                                             "Load the exported CSV, clean the dates, then join with the plans table.\n"]},
        {"cell_type": "code", "execution_count": 1, "source": ["import pandas as pd\n", "import numpy as np\n",
                                                               "df = pd.read_csv('exports/customers_2025Q1.csv')\n",
                                                               "df.shape\n"],
         "outputs": [{"output_type": "execute_result", "data": {"text/plain": ["(18234, 41)"]}}]},
        {"cell_type": "code", "execution_count": 2, "source": src, "outputs": []},
        {"cell_type": "code", "execution_count": 3,
         "source": ["monthly = df.groupby(df.signup.dt.to_period('M')).size()\n", "monthly.tail(6)\n"],
         "outputs": [{"output_type": "stream", "name": "stdout",
                      "text": ["2024-10    1432\n", "2024-11    1519\n", "2024-12    1290\n", "2025-01    1688\n"]}]}],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}}
    return value, True


def c_shell_history(fmt, fields):
    cmds = ["cd ~/code/%s" % pick(PROJECTS), "git status", "git pull --rebase", "ls -la", "python -m venv .venv",
            "source .venv/bin/activate", "pip install -r requirements.txt", "pytest -q", "docker ps",
            "kubectl get pods -n staging", "htop", "df -h", "du -sh node_modules", "npm run build",
            "git log --oneline | head", "ssh pi@%s" % ipv4_private(), "brew upgrade", "vim README.md"]
    hist = sample(cmds, 9)
    for n, v in fields:
        hist.insert(R.randrange(2, len(hist)), "export %s='%s'" % (n, v))
    if fmt[1] not in URLISH:
        hist.insert(R.randrange(3, len(hist)), "curl -sS -H \"Authorization: Bearer $%s\" https://%s/v1/me | jq ." % (
            fields[-1][0], fmt[3]))
    return {"text": "pasted from ~/.bash_history:\n" + "\n".join(hist)}, True


def c_curl(fmt, fields):
    v = fields[-1][1]
    txt = ("Command that worked for the %s API:\ncurl -X POST https://%s/v1/jobs \\\n  -H 'Content-Type: application/json' \\\n"
           "  -H 'Authorization: Bearer %s' \\\n  -d '{\"name\": \"nightly-sync\", \"retries\": 3}'" % (fmt[0], fmt[3], v))
    return {"text": txt}, len(txt) > 400


def c_k8s(fmt, fields):
    name = pick(PROJECTS)
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", "  name: %s-credentials" % name,
             "  namespace: %s" % pick(["prod", "default", "apps"]), "  labels:", "    app.kubernetes.io/name: %s" % name,
             "type: Opaque", "stringData:"]
    for n, v in fields:
        if "\n" in v:
            lines.append("  %s: |" % n)
            lines += ["    " + x for x in v.split("\n")]
        else:
            lines.append("  %s: \"%s\"" % (n, v))
    lines += ["---", "apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: %s" % name, "spec:",
              "  replicas: 2", "  template:", "    spec:", "      containers:", "        - name: app",
              "          image: ghcr.io/acme/%s:1.14.2" % name, "          envFrom:", "            - secretRef:",
              "                name: %s-credentials" % name, "          resources:",
              "            limits: {cpu: 500m, memory: 512Mi}"]
    return {"text": "\n".join(lines)}, True


def c_compose(fmt, fields):
    lines = ["services:", "  app:", "    build: .", "    ports:", "      - \"8080:8080\"", "    environment:",
             "      - TZ=Europe/Berlin"]
    for n, v in fields:
        lines.append("      - %s=%s" % (n, v.replace("\n", "\\n")))
    lines += ["    depends_on: [db]", "  db:", "    image: postgres:16-alpine", "    volumes:",
              "      - pgdata:/var/lib/postgresql/data", "volumes:", "  pgdata: {}"]
    return {"text": "docker-compose.yml from the homelab:\n" + "\n".join(lines)}, True


def c_ci_log(fmt, fields):
    n, v = fields[-1]
    run = R.randrange(1000, 9999)
    lines = ["2025-%02d-%02dT08:14:%02d.1234567Z ##[group]Run actions/checkout@v4" % (R.randrange(1, 13), R.randrange(1, 28), R.randrange(60)),
             "2025-03-14T08:14:03.2210000Z with:", "2025-03-14T08:14:03.2210000Z   fetch-depth: 1",
             "2025-03-14T08:14:05.0013000Z ##[endgroup]",
             "2025-03-14T08:14:05.1100000Z ##[group]Run ./scripts/deploy.sh",
             "2025-03-14T08:14:05.1102000Z + set -x",
             "2025-03-14T08:14:05.1190000Z + echo 'deploying build %d'" % run,
             "2025-03-14T08:14:05.1200000Z deploying build %d" % run,
             "2025-03-14T08:14:05.1290000Z + export %s=%s" % (n, v),
             "2025-03-14T08:14:05.4000000Z + ./bin/release --env production --region eu-west-1",
             "2025-03-14T08:14:09.8800000Z Uploaded 42 files (3.1 MB) in 4.3s",
             "2025-03-14T08:14:10.0000000Z ##[endgroup]",
             "2025-03-14T08:14:10.0100000Z Cleaning up orphan processes"]
    return {"text": "CI run #%d log (GitHub Actions), copied because the deploy step failed:\n" % run + "\n".join(lines)}, True


def c_postman(fmt, fields):
    v = fields[-1][1]
    coll = {"info": {"_postman_id": uuid4(), "name": "%s sandbox" % fmt[0],
                     "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "item": [{"name": "List resources", "request": {"method": "GET", "header": [
                {"key": "Accept", "value": "application/json"}],
                "url": {"raw": "https://%s/v1/resources?limit=50" % fmt[3], "protocol": "https",
                        "host": fmt[3].split("."), "path": ["v1", "resources"],
                        "query": [{"key": "limit", "value": "50"}]}}},
                {"name": "Create resource", "request": {"method": "POST", "body": {"mode": "raw",
                 "raw": "{\n  \"name\": \"test\"\n}"}, "url": "https://%s/v1/resources" % fmt[3]}}],
            "auth": {"type": "bearer", "bearer": [{"key": "token", "value": v, "type": "string"}]},
            "variable": [{"key": "baseUrl", "value": "https://%s" % fmt[3]}]}
    return {"postman_collection": coll}, True


def c_har(fmt, fields):
    v = fields[-1][1]
    entry = {"startedDateTime": "2025-02-11T10:22:%02d.512Z" % R.randrange(60), "time": R.randrange(40, 900),
             "request": {"method": "GET", "url": "https://%s/v2/account" % fmt[3], "httpVersion": "HTTP/2",
                         "headers": [{"name": ":authority", "value": fmt[3]},
                                     {"name": "accept", "value": "application/json, text/plain, */*"},
                                     {"name": "accept-language", "value": "en-GB,en;q=0.9,de;q=0.8"},
                                     {"name": "authorization", "value": "Bearer " + v},
                                     {"name": "user-agent", "value": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"}],
                         "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
             "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/2",
                          "headers": [{"name": "content-type", "value": "application/json"},
                                      {"name": "x-request-id", "value": uuid4()}],
                          "content": {"size": 812, "mimeType": "application/json"}},
             "timings": {"blocked": 1.2, "dns": -1, "connect": -1, "send": 0.2, "wait": 140.5, "receive": 2.1}}
    return {"text": "copied from DevTools > Network > Save all as HAR (one entry)", "har_entry": entry}, True


def c_terraform(fmt, fields):
    attrs = {"id": rs(ALNUM_LO, 12), "name": pick(PROJECTS), "created_at": "2025-01-09T12:00:11Z"}
    for n, v in fields:
        attrs[n.lower()] = v
    st = {"version": 4, "terraform_version": "1.8.5", "serial": R.randrange(3, 200), "lineage": uuid4(),
          "outputs": {"endpoint": {"value": "https://%s" % fmt[3], "type": "string"}},
          "resources": [{"mode": "managed", "type": "%s_api_credential" % fmt[1].split("_")[0],
                         "name": "main", "provider": "provider[\"registry.terraform.io/acme/%s\"]" % fmt[1].split("_")[0],
                         "instances": [{"schema_version": 0, "attributes": attrs, "sensitive_attributes": []}]}]}
    return {"text": "terraform.tfstate excerpt:\n" + json.dumps(st, indent=2)}, True


def c_chat(fmt, fields):
    v = fields[-1][1]
    who = sample(["Priya", "Tom", "Lena", "Marco", "Aiko", "Omar", "Sofia", "Jonas"], 2)
    lines = ["[09:02] %s: morning! did the release go out last night?" % who[0],
             "[09:03] %s: yes, but the %s sync job kept failing with 401" % (who[1], fmt[0]),
             "[09:04] %s: ugh. I rotated it on Friday, forgot to tell you sorry" % who[0],
             "[09:05] %s: here's the new one, put it in the staging env too:" % who[0],
             "[09:05] %s: %s" % (who[0], v),
             "[09:06] %s: got it, thanks. also lunch at 12:30? the ramen place" % who[1],
             "[09:07] %s: sure. remind me to book the meeting room for Thursday's retro" % who[0]]
    return {"text": "Slack thread the user pasted so I remember the context:\n" + "\n".join(lines)}, True


def c_email(fmt, fields):
    v = "\n".join("%s: %s" % (n, x) for n, x in fields)
    body = ("From: IT Helpdesk <helpdesk@%s.example>\nTo: me\nSubject: Your %s credentials for the migration\n"
            "Date: Tue, 4 Mar 2025 16:41:09 +0100\n\nHi,\n\nas discussed in the call, here are the credentials for the "
            "%s account that the migration scripts will use. Please store them safely and do not forward this email.\n\n%s\n\n"
            "The old credentials will be revoked on Friday at 18:00. If anything breaks over the weekend, call the "
            "on-call number on the wiki page.\n\nBest regards,\nMartina\nIT Operations" % (
                pick(["acme", "contoso", "initech"]), fmt[0], fmt[0], v))
    return {"text": body}, True


def c_lang(fmt, fields):
    lang = pick([x for x in LANGS if x != "en"])
    txt = L[lang]["tok"].format(vendor=fmt[0], tok=fields[-1][1])
    if len(fields) > 1:
        txt += " | " + ", ".join("%s=%s" % (n, v) for n, v in fields[:-1])
    if R.random() < 0.5:
        txt = fill(lang, 3) + " " + txt + " " + fill(lang, 2)
    return {"text": txt}, len(txt) > 400, lang


CARRIERS = [c_dotenv, c_agent_fact, c_structured, c_python, c_notebook, c_shell_history, c_curl, c_k8s,
            c_compose, c_ci_log, c_postman, c_har, c_terraform, c_chat, c_email, c_lang]
URL_CARRIERS = [c_dotenv, c_agent_fact, c_structured, c_python, c_notebook, c_k8s, c_compose, c_chat, c_email, c_lang,
                c_shell_history, c_terraform]


def gen_provider_plain():
    for i, fmt in enumerate(TOKEN_FORMATS):
        fields = gen_fields(fmt)
        pool = URL_CARRIERS if (fmt[1] in URLISH or len(fmt[2]) > 1) else CARRIERS
        carrier = pool[i % len(pool)]
        res = carrier(fmt, fields)
        lang = "en"
        if len(res) == 3:
            value, _, lang = res
        else:
            value, _ = res
        add("secret", fmt[1], "plain", value, lang=lang, tech="tok-" + carrier.__name__[2:],
            vendor=fmt[0], family="provider_token", fmt=fmt[1])


def gen_provider_second_pass():
    # a second instance for a rotating subset of formats, in a different carrier (long documents mostly)
    long_carriers = [c_notebook, c_shell_history, c_k8s, c_compose, c_ci_log, c_postman, c_har, c_terraform,
                     c_chat, c_email]
    idxs = list(range(len(TOKEN_FORMATS)))
    R.shuffle(idxs)
    for j, i in enumerate(idxs[:70]):
        fmt = TOKEN_FORMATS[i]
        fields = gen_fields(fmt)
        pool = [c for c in long_carriers if (fmt[1] not in URLISH and len(fmt[2]) == 1) or c in URL_CARRIERS]
        carrier = pool[j % len(pool)]
        value, _ = carrier(fmt, fields)
        add("secret", fmt[1], "plain", value, tech="tok2-" + carrier.__name__[2:], vendor=fmt[0],
            family="provider_token", fmt=fmt[1])

# ---------------------------------------------------------------- multilingual everyday memories
def gen_multilingual():
    for lang in LANGS:
        P = L[lang]
        # --- secrets, short
        add("secret", "password", "plain", {"text": P["pw"].format(svc=pick(P["svcs"]), pw=human_pw())},
            lang=lang, tech="ml-pw", family="password")
        add("secret", "pin", "plain", {"text": P["pin"].format(bank=pick(P["banks"]), pin=pick([pin4(), pin6()]))},
            lang=lang, tech="ml-pin", family="pin")
        add("secret", "wifi_password", "plain", {"text": P["wifi"].format(ssid=pick(SSIDS), pw=human_pw())},
            lang=lang, tech="ml-wifi", family="wifi_password")
        add("secret", "door_code", "plain", {"text": P["door"].format(code=pick([pin4(), rs(DG, 5) + "#", "*" + pin4()]))},
            lang=lang, tech="ml-door", family="access_code")
        # --- secrets, long (buried in ordinary text)
        f = P["filler"]
        s1 = P["pw"].format(svc=pick(P["svcs"]), pw=human_pw()) + "."
        t = " ".join(f[:3]) + " " + P["med"].format(drug=pick(P["drugs"]), dose=pick([5, 10, 20, 500])) + " " + s1 + " " + " ".join(f[3:])
        add("secret", "password", "plain", {"text": t}, lang=lang, tech="ml-long-pw", family="password")
        s2 = P["pin"].format(bank=pick(P["banks"]), pin=pin4())
        t = " ".join(f[1:]) + "\n" + P["appt"].format(date=date_iso(), time=time_hm(), conf=conf_code()) + "\n" + s2 + "\n" + f[0]
        add("secret", "pin", "plain", {"text": t}, lang=lang, tech="ml-long-pin", family="pin")
        # --- benign, short
        add("benign", "appointment", "hard", {"text": P["appt"].format(date=date_iso(), time=time_hm(), conf=conf_code())},
            lang=lang, tech="ml-appt", family="appointment")
        add("benign", "health_note", "plain", {"text": P["med"].format(drug=pick(P["drugs"]), dose=pick([5, 10, 20, 500, 850]))},
            lang=lang, tech="ml-med", family="health")
        add("benign", "password_changed", "hard", {"text": P["changed"].format(svc=pick(P["svcs"]))},
            lang=lang, tech="ml-changed", family="password_talk")
        add("benign", "wifi_name_only", "hard", {"text": P["wifi_name"].format(ssid=pick(SSIDS))},
            lang=lang, tech="ml-ssid", family="wifi_name")
        add("benign", "order_number", "hard", {"text": P["order"].format(order=order_no(), date=date_iso())},
            lang=lang, tech="ml-order", family="order")
        add("benign", "pin_blocked", "hard", {"text": P["blocked"]}, lang=lang, tech="ml-blocked", family="password_talk")
        # --- benign, long
        t = " ".join(f) + " " + P["med"].format(drug=pick(P["drugs"]), dose=pick([5, 10, 20])) + " " + \
            P["appt"].format(date=date_iso(), time=time_hm(), conf=conf_code())
        add("benign", "diary", "plain", {"text": t}, lang=lang, tech="ml-long-diary", family="diary")
        t = f[-1] + " " + P["changed"].format(svc=pick(P["svcs"])) + " " + P["wifi_name"].format(ssid=pick(SSIDS)) + \
            " " + P["order"].format(order=order_no(), date=date_iso()) + " " + " ".join(f[:-1]) + " " + P["blocked"]
        add("benign", "diary", "hard", {"text": t}, lang=lang, tech="ml-long-lookalike", family="diary")

# ---------------------------------------------------------------- life-source secrets
FIRST = ["Anna", "Ben", "Chloe", "David", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jakub", "Kemal", "Lucia",
         "Mei", "Nikos", "Olga", "Pedro", "Ravi", "Sara", "Tuan", "Yusuf", "Zofia", "Noa", "Arjun", "Leila"]
LAST = ["Schmidt", "Garcia", "Nguyen", "Kowalski", "Yilmaz", "Rossi", "Dubois", "Ivanova", "Tanaka", "Kim",
        "Haddad", "Cohen", "Sharma", "Papadopoulos", "Santos", "Jansen", "Smith", "Novak", "Rahman", "Chen"]


def person():
    return pick(FIRST), pick(LAST)


def email_of(fn, ln):
    return "%s.%s%s@%s" % (fn.lower(), ln.lower(), pick(["", str(R.randrange(1, 99))]),
                           pick(["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "gmx.de", "proton.me"]))


SITES = [("Netflix", "https://www.netflix.com"), ("Amazon", "https://www.amazon.com"), ("Google", "https://accounts.google.com"),
         ("Facebook", "https://www.facebook.com"), ("Spotify", "https://open.spotify.com"), ("Dropbox", "https://www.dropbox.com"),
         ("eBay", "https://signin.ebay.com"), ("Booking.com", "https://account.booking.com"), ("Steam", "https://store.steampowered.com"),
         ("IKEA Family", "https://www.ikea.com"), ("Deutsche Bahn", "https://www.bahn.de"), ("Airbnb", "https://www.airbnb.com"),
         ("LinkedIn", "https://www.linkedin.com"), ("Zoom", "https://zoom.us"), ("Duolingo", "https://www.duolingo.com")]


def csv_q(s):
    return '"' + s.replace('"', '""') + '"' if ("," in s or '"' in s) else s


def pm_rows(n, with_pw=True, how_many_pw=None):
    rows = []
    sites = sample(SITES, n)
    fn, ln = person()
    pw_idx = list(range(n)) if how_many_pw is None else sample(range(n), how_many_pw)
    for i, (name, url) in enumerate(sites):
        pw = (human_pw() if R.random() < 0.5 else strong_pw()) if (with_pw and i in pw_idx) else ""
        rows.append((name, url, email_of(fn, ln), pw))
    return rows


def gen_pm_exports():
    # 1Password CSV
    for k in range(3):
        rows = pm_rows(5, how_many_pw=pick([1, 2, 5]))
        lines = ["Title,Website,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes"]
        for name, url, user, pw in rows:
            lines.append(",".join([csv_q(name), url, user, csv_q(pw), "", pick(["true", "false"]), "false",
                                   pick(["Personal", "Family", "Shopping", ""]), ""]))
        add("secret", "password_manager_export", "plain",
            {"text": "1Password export (CSV) I want to keep while switching apps:\n" + "\n".join(lines)},
            tech="pm-1password-csv", family="password")
    # Bitwarden JSON
    for k in range(3):
        rows = pm_rows(4, how_many_pw=pick([1, 4]))
        items = []
        for name, url, user, pw in rows:
            items.append({"id": uuid4(), "organizationId": None, "folderId": None, "type": 1, "reprompt": 0,
                          "name": name, "notes": None, "favorite": False,
                          "login": {"uris": [{"match": None, "uri": url}], "username": user,
                                    "password": pw or None, "totp": None},
                          "collectionIds": None})
        add("secret", "password_manager_export", "plain",
            {"bitwarden_export": {"encrypted": False, "folders": [], "items": items}},
            tech="pm-bitwarden-json", family="password")
    # LastPass CSV
    for k in range(2):
        rows = pm_rows(4, how_many_pw=1)
        lines = ["url,username,password,totp,extra,name,grouping,fav"]
        for name, url, user, pw in rows:
            lines.append(",".join([url, user, csv_q(pw), "", "", csv_q(name), pick(["Email", "Shopping", "Entertainment"]), "0"]))
        add("secret", "password_manager_export", "plain", {"text": "\n".join(lines)}, tech="pm-lastpass-csv", family="password")
    # KeePass XML
    for k in range(2):
        rows = pm_rows(3, how_many_pw=1)
        ents = []
        for name, url, user, pw in rows:
            ents.append("<Entry><UUID>%s</UUID><String><Key>Title</Key><Value>%s</Value></String>"
                        "<String><Key>UserName</Key><Value>%s</Value></String>"
                        "<String><Key>Password</Key><Value ProtectInMemory=\"True\">%s</Value></String>"
                        "<String><Key>URL</Key><Value>%s</Value></String></Entry>" % (
                            b64(rbytes(16)), name, user, pw.replace("&", "&amp;").replace("<", "&lt;"), url))
        add("secret", "password_manager_export", "plain",
            {"text": "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile><Root><Group><Name>Database</Name>"
                     + "".join(ents) + "</Group></Root></KeePassFile>"}, tech="pm-keepass-xml", family="password")
    # Chrome CSV
    for k in range(2):
        rows = pm_rows(6, how_many_pw=pick([1, 3]))
        lines = ["name,url,username,password,note"]
        for name, url, user, pw in rows:
            lines.append(",".join([url.split("//")[1], url + "/login", user, csv_q(pw), ""]))
        add("secret", "password_manager_export", "plain",
            {"text": "Chrome Passwords.csv (Settings > Passwords > Export):\n" + "\n".join(lines)},
            tech="pm-chrome-csv", family="password")


def gen_router_iot():
    models = [("TP-Link Archer C6", "tplinkwifi.net"), ("FRITZ!Box 7530", "fritz.box"), ("NETGEAR Nighthawk R7000", "routerlogin.net"),
              ("ASUS RT-AX58U", "router.asus.com"), ("Huawei HG8245H", "192.168.100.1")]
    for model, host in models[:4]:
        ssid = pick(SSIDS)
        pw = pick([human_pw(), rs(DG + UP, 12), rs(LO + DG, 10)])
        txt = ("%s — Web Management\nStatus | Quick Setup | Wireless | DHCP | Forwarding | Security | System Tools\n\n"
               "Wireless Settings (2.4GHz)\n  Wireless Network Name (SSID): %s\n  Mode: 802.11b/g/n mixed\n  Channel: Auto (current: %d)\n"
               "  Channel Width: Auto\n\nWireless Security\n  ( ) Disable Security\n  (•) WPA/WPA2 - Personal (Recommended)\n"
               "      Version: WPA2-PSK   Encryption: AES\n      Wireless Password: %s\n      Group Key Update Period: 0 Seconds\n\n"
               "Firmware Version: 1.%d.%d Build 2024%02d%02d rel.%d(5553)\nHardware Version: %s v3.0\nLAN IP: %s   MAC: %s\n"
               "Uptime: %d days %02d:%02d:%02d" % (model, ssid, R.randrange(1, 13), pw, R.randrange(1, 4), R.randrange(0, 20),
                                                   R.randrange(1, 13), R.randrange(1, 29), R.randrange(10000, 99999), model,
                                                   "192.168.0.1", mac().upper(), R.randrange(1, 90), R.randrange(24),
                                                   R.randrange(60), R.randrange(60)))
        add("secret", "wifi_password", "plain", {"text": "copied from the router admin page (%s):\n" % host + txt},
            tech="router-page", family="wifi_password")
    # admin login on router sticker, OCR-ish
    txt = ("Label on the bottom of the ISP box (photo transcription):\nModel: %s   S/N: %s\nWLAN-Name / SSID: %s\n"
           "WLAN-Schlüssel (WPA2): %s\nBenutzeroberfläche: http://%s\nGerätepasswort: %s\nMAC: %s" % (
               "Speedport Smart 4", rs(DG, 16), pick(SSIDS), " ".join(rs(DG, 4) for _ in range(5)), "speedport.ip",
               rs(LO + DG, 8), mac().upper()))
    add("secret", "wifi_password", "plain", {"text": txt}, lang="de", tech="router-sticker-ocr", family="wifi_password")
    # cameras / NVR
    for brand in ["Hikvision", "Dahua", "Reolink"]:
        ip = ipv4_private()
        pw = human_pw()
        url = {"Hikvision": "rtsp://admin:%s@%s:554/Streaming/Channels/101",
               "Dahua": "rtsp://admin:%s@%s:554/cam/realmonitor?channel=1&subtype=0",
               "Reolink": "rtsp://admin:%s@%s:554/h264Preview_01_main"}[brand] % (pw, ip)
        txt = ("Front door camera (%s) — added to Frigate on the NAS.\nModel: %s, firmware V5.7.%d build %d, "
               "MAC %s, static IP %s.\nStream for frigate config: %s\nMotion zones: driveway + gate, ignore the street." % (
                   brand, pick(["DS-2CD2143G2-I", "IPC-HDW2431T", "RLC-810A"]), R.randrange(1, 20), R.randrange(200000, 260000),
                   mac(), ip, url))
        add("secret", "camera_credentials", "plain", {"text": txt}, tech="iot-camera-rtsp", family="url_credentials")
    # smart locks
    for brand in ["Nuki Smart Lock", "Yale Linus", "August Wi-Fi Smart Lock"]:
        code = rs(DG, 6)
        txt = ("%s keypad: guest code for the cleaner (Tuesdays 9-13) is %s. Battery at 60%%, replace in autumn. "
               "The bridge is plugged in next to the shoe cabinet." % (brand, code))
        add("secret", "smart_lock_code", "plain", {"text": txt}, tech="iot-smartlock", family="access_code")
    # ESPHome yaml
    for k in range(2):
        txt = ("esphome:\n  name: %s\n  friendly_name: %s\n\nesp32:\n  board: esp32dev\n\nlogger:\n\napi:\n  encryption:\n"
               "    key: \"%s\"\n\nota:\n  - platform: esphome\n    password: \"%s\"\n\nwifi:\n  ssid: \"%s\"\n  password: \"%s\"\n"
               "  ap:\n    ssid: \"Fallback Hotspot\"\n    password: \"%s\"\n\nsensor:\n  - platform: dht\n    pin: GPIO4\n"
               "    temperature:\n      name: \"Greenhouse Temperature\"\n    humidity:\n      name: \"Greenhouse Humidity\"\n"
               "    update_interval: 60s\n" % (pick(["greenhouse", "garage-door", "bedroom-sensor"]), pick(["Greenhouse", "Garage", "Bedroom"]),
                                                b64(rbytes(32)), rs(HEX, 32), pick(SSIDS), human_pw(), rs(AL, 12)))
        add("secret", "iot_config", "plain", {"text": txt}, tech="iot-esphome", family="wifi_password")
    # Home Assistant secrets.yaml
    txt = ("# secrets.yaml (Home Assistant)\nlatitude_home: 52.3731\nlongitude_home: 4.8922\nwifi_ssid: \"%s\"\nwifi_password: \"%s\"\n"
           "mqtt_user: homeassistant\nmqtt_password: \"%s\"\ntelegram_chat_id: %s\n" % (pick(SSIDS), human_pw(), strong_pw(), rs(DG, 9)))
    add("secret", "iot_config", "plain", {"text": txt}, tech="iot-homeassistant", family="password")
    # Wi-Fi extender
    txt = ("Set up the new TP-Link RE315 extender in the attic today. It copies the main network, so the extended SSID is "
           "%s_EXT and it uses the same key: %s . Extender admin page is at tplinkrepeater.net, LED is blue when the signal is good. "
           "Put it on the shelf above the stairs, not behind the bookcase." % (pick(SSIDS), human_pw()))
    add("secret", "wifi_password", "plain", {"text": txt}, tech="iot-extender", family="wifi_password")


def gen_letters():
    # medical portal sign-up emails (temporary password)
    portals = [("MyChart", "en", "Welcome to MyChart at %s. Your account has been created.\nUsername: %s\nTemporary password: %s\n"
                "You will be asked to choose a new password the first time you sign in. With MyChart you can view test results, "
                "request prescription renewals and message your care team. Questions? Call the MyChart help line at 1-800-555-0142, Mon-Fri 8am-5pm."),
               ("Patientenportal", "de", "Willkommen im Patientenportal der %s.\nIhr Benutzername: %s\nIhr Einmal-Passwort: %s\n"
                "Bitte ändern Sie das Passwort bei der ersten Anmeldung. Über das Portal können Sie Befunde einsehen, Termine "
                "vereinbaren und Rezepte anfordern. Bei Fragen erreichen Sie uns werktags von 8 bis 16 Uhr."),
               ("Portal del Paciente", "es", "Bienvenido al Portal del Paciente de %s.\nUsuario: %s\nContraseña provisional: %s\n"
                "Deberá cambiarla en el primer acceso. Desde el portal puede consultar sus análisis, pedir cita y renovar recetas."),
               ("Patient Portal", "en", "Hi! Your %s patient portal invitation.\nLogin ID: %s\nOne-time password: %s (valid 72 hours)\n"
                "Once logged in, please complete the health questionnaire before your first appointment and upload your insurance card.")]
    for name, lang, tmpl in portals:
        fn, ln = person()
        clinic = pick(["Riverside Health", "Klinikum Nord", "Hospital San Rafael", "Lakeside Family Practice"])
        txt = tmpl % (clinic, email_of(fn, ln) if R.random() < 0.5 else (fn[0] + ln).lower() + rs(DG, 3),
                      pick([rs(AL, 10), human_pw(), rs(ALNUM_UP, 8)]))
        add("secret", "portal_temp_password", "plain", {"text": "Forwarded email, %s sign-up:\n\n" % name + txt}, lang=lang,
            tech="letter-medportal", family="password")
    # bank PIN letters
    bank = [("en", "Your new card PIN\n\nDear %s,\n\nplease find below the Personal Identification Number (PIN) for your new "
             "Visa Debit card ending %s. Remove the tab to reveal your PIN.\n\n    PIN:  %s\n\nMemorise your PIN and destroy this "
             "letter. Never write your PIN on your card or share it with anyone, including bank staff.\n\nYours sincerely,\nCard Services"),
            ("de", "Ihre persönliche Geheimzahl (PIN)\n\nSehr geehrte/r %s,\n\nfür Ihre neue Girocard mit der Endnummer %s "
             "erhalten Sie heute Ihre persönliche Geheimzahl:\n\n    PIN: %s\n\nBitte prägen Sie sich die PIN ein und vernichten "
             "Sie dieses Schreiben. Die Karte erhalten Sie mit separater Post.\n\nMit freundlichen Grüßen\nIhre Sparkasse"),
            ("fr", "Votre code confidentiel\n\nMadame, Monsieur %s,\n\nveuillez trouver ci-dessous le code confidentiel de votre "
             "carte bancaire se terminant par %s :\n\n    Code : %s\n\nNe le communiquez à personne et détruisez ce courrier après "
             "l'avoir mémorisé.\n\nService Cartes"),
            ("ru", "ПИН-конверт\n\nУважаемый(ая) %s!\n\nПИН-код к вашей новой карте, номер которой оканчивается на %s:\n\n"
             "    ПИН: %s\n\nНикому не сообщайте ПИН-код, в том числе сотрудникам банка. После запоминания уничтожьте конверт."),
            ("tr", "Kart Şifre Bildirimi\n\nSayın %s,\n\nsonu %s ile biten yeni kartınızın şifresi aşağıdadır:\n\n    Şifre: %s\n\n"
             "Şifrenizi kimseyle paylaşmayınız ve bu mektubu imha ediniz.")]
    for lang, tmpl in bank:
        fn, ln = person()
        txt = tmpl % (fn + " " + ln, rs(DG, 4), pin4())
        add("secret", "bank_pin_letter", "plain", {"text": "Scanned letter (OCR):\n" + txt}, lang=lang, tech="letter-bankpin", family="pin")
    # SIM card letters
    sims = [("en", "Welcome to %s!\nYour SIM card is attached below. Pop it out along the perforation.\n\nYour number: +44 7%s\n"
             "ICCID: 8944%s\nPIN: %s   PUK: %s\n\nKeep your PUK safe: you will need it if you enter the wrong PIN three times.", "Vodafone"),
            ("de", "Willkommen bei %s\nIhre Rufnummer: 0151 %s\nSIM-Kartennummer: 8949%s\nPIN: %s\nSuperPIN/PUK: %s\n"
             "Die PUK benötigen Sie, wenn die PIN dreimal falsch eingegeben wurde.", "Telekom"),
            ("es", "Bienvenido a %s\nTu número: 6%s\nICCID: 8934%s\nPIN: %s  PUK: %s\nGuarda el PUK en un lugar seguro.", "Movistar"),
            ("tr", "%s'a hoş geldiniz\nHat numaranız: 05%s\nICCID: 8990%s\nPIN1: %s  PUK1: %s\nPUK kodunuzu güvenli bir yerde saklayın.", "Turkcell"),
            ("id", "Selamat datang di %s\nNomor: 0812%s\nICCID: 8962%s\nPIN: %s  PUK: %s\nSimpan kode PUK di tempat aman.", "Telkomsel")]
    for lang, tmpl, op in sims:
        txt = tmpl % (op, rs(DG, 8), rs(DG, 15), pin4(), rs(DG, 8))
        add("secret", "sim_pin_puk", "plain", {"text": "Photo of the SIM card holder:\n" + txt}, lang=lang, tech="letter-sim", family="pin")
    # hotel Wi-Fi cards
    hotels = [("en", "Welcome to the Harbour View Hotel!\nComplimentary Wi-Fi\nNetwork: HarbourView_Guest\nPassword: %s\n"
               "Breakfast 6:30-10:30 in the Atrium. Checkout 11:00. Reception is open 24 hours, dial 0."),
              ("fr", "Bienvenue à l'Hôtel des Arts\nWi-Fi gratuit\nRéseau : HotelDesArts\nMot de passe : %s\n"
               "Petit-déjeuner de 7h à 10h30. Départ avant 11h."),
              ("th", "ยินดีต้อนรับสู่ Baan Suan Resort\nWi-Fi: BaanSuan_Guest\nรหัสผ่าน: %s\nอาหารเช้า 06:30-10:00 น. เช็กเอาต์ 12:00 น."),
              ("ja", "ご宿泊ありがとうございます。\nWi-Fi SSID: RYOKAN-HANA\nパスワード: %s\n朝食は7時から9時半まで、1階の食事処でご用意しております。"),
              ("it", "Benvenuti all'Albergo Bellavista\nWi-Fi: Bellavista_Ospiti\nPassword: %s\nColazione dalle 7 alle 10.")]
    for lang, tmpl in hotels:
        txt = tmpl % pick([rs(LO, 4) + rs(DG, 4), pick(WORDS) + rs(DG, 3), rs(ALNUM_UP, 8)])
        add("secret", "hotel_wifi", "plain", {"text": "From the card on the hotel desk:\n" + txt}, lang=lang, tech="hotel-wifi", family="wifi_password")
    # kids school logins
    kids = ["Emma", "Noah", "Mia", "Leo", "Sofia", "Yuki", "Omar", "Lina"]
    for k in range(5):
        kid = kids[k]
        plat = pick(["Google Classroom", "Microsoft Teams for Education", "Seesaw", "Schoology", "Clever", "IServ"])
        style = k % 3
        if style == 0:
            txt = "%s's %s login: %s.%s@student.%s.edu / password %s" % (kid, plat, kid.lower(), pick(LAST).lower(),
                                                                         pick(["oakridge", "hillside", "lincoln"]), pick(WORDS).capitalize() + rs(DG, 4))
        elif style == 1:
            txt = ("School stuff for %s (year 4): teacher is Mrs. Okafor, PE on Tuesdays and Thursdays, bring a water bottle. "
                   "Reading log due every Friday. %s username %s%s, password %s. Lunch money top-up through ParentPay." % (
                       kid, plat, kid.lower(), rs(DG, 3), pick(WORDS) + rs(DG, 2)))
        else:
            txt = "%s's school iPad passcode is %s and the Apple ID password for the kids' account is %s" % (kid, rs(DG, 6), human_pw())
        add("secret", "school_login", "plain", {"text": txt}, tech="kids-school", family="password")
    # elderly parents' notes
    par = [("en", "Notes for Dad (print and stick on the fridge):\n- Morning: metformin 500 mg + ramipril 5 mg with breakfast\n"
            "- Evening: atorvastatin 20 mg\n- Dr. Hughes, surgery phone 01632 960 411\n- Pharmacy delivers Thursdays\n"
            "- iPad passcode: %s\n- Hearing aid batteries size 312 are in the kitchen drawer\n- Bin day is Monday (blue bin every other week)"),
           ("en", "Mum's phone: to unlock it, swipe up and type %s. Her email is on the tablet too. If she forgets how to make a "
            "video call, the WhatsApp icon is the green one on the first page. Her blood pressure tablets are in the blue box."),
           ("de", "Für Mama: Online-Banking Anmeldename %s, PIN %s. Die Tabletten für den Blutdruck morgens, die Wassertabletten "
            "nur jeden zweiten Tag. Hausarzt Dr. Weber, Termin am Dienstag."),
           ("es", "Para el abuelo: la clave del cajero es %s. La pastilla del azúcar va con el desayuno y la de la tensión por la noche. "
            "El centro de salud abre a las 8."),
           ("pl", "Dla babci: hasło do bankowości internetowej to %s. Leki na ciśnienie rano, na cukrzycę do obiadu. "
            "Wizyta u kardiologa w czwartek o 10:30."),
           ("ru", "Для папы: пароль от Госуслуг — %s. Таблетки от давления утром, от сахара после обеда. Участковый врач принимает по средам.")]
    for lang, tmpl in par:
        n = tmpl.count("%s")
        vals = {1: (pick([rs(DG, 6), human_pw()]),), 2: (rs(DG, 8), pin4())}[n]
        add("secret", "elderly_parent_note", "plain", {"text": tmpl % vals}, lang=lang, tech="parents-note",
            family="password" if lang != "es" else "pin")


def gen_misc_secrets():
    # payment cards
    for i in range(len(CARD_BRANDS)):
        name, num = card_number(i)
        fn, ln = person()
        exp = "%02d/%02d" % (R.randrange(1, 13), R.randrange(26, 31))
        cvv = rs(DG, 4 if name == "American Express" else 3)
        style = i % 4
        if style == 0:
            v = {"text": "My %s card: %s, expires %s, CVV %s, name on card %s %s" % (name, group_card(num), exp, cvv, fn.upper(), ln.upper())}
        elif style == 1:
            v = {"type": "payment_card", "brand": name, "number": num, "exp_month": int(exp[:2]), "exp_year": 2000 + int(exp[3:]),
                 "cvc": cvv, "holder": fn + " " + ln}
        elif style == 2:
            v = {"text": "User mentioned that they pay the kids' swimming lessons with the %s card %s (exp %s)." % (name, group_card(num, "-"), exp)}
        else:
            v = {"text": "Card for online shopping: %s  %s  CVC %s" % (num, exp, cvv)}
        add("secret", "payment_card", "plain", v, tech="card", family="payment_card")
    for lang, tmpl in [("es", "Tarjeta de crédito: %s, caduca %s, CVV %s"), ("de", "Kreditkarte: %s, gültig bis %s, Prüfziffer %s"),
                       ("ru", "Номер карты: %s, срок действия %s, CVC %s"), ("ja", "クレジットカード番号 %s 有効期限 %s セキュリティコード %s"),
                       ("ar", "رقم البطاقة %s، تاريخ الانتهاء %s، رمز CVV %s"), ("tr", "Kredi kartı: %s, son kullanma %s, CVV %s"),
                       ("hi", "क्रेडिट कार्ड नंबर %s, समाप्ति %s, CVV %s"), ("zh", "信用卡号 %s，有效期 %s，安全码 %s")]:
        name, num = card_number(pick([0, 1, 4, 5, 6, 7, 8]))
        add("secret", "payment_card", "plain", {"text": tmpl % (group_card(num), "%02d/%02d" % (R.randrange(1, 13), R.randrange(26, 31)), rs(DG, 3))},
            lang=lang, tech="card-ml", family="payment_card")
    # long: card buried in a shopping note
    for k in range(3):
        name, num = card_number(pick([0, 1, 2]))
        txt = (" ".join(sample(L["en"]["filler"], 4)) + " For the online order of the new school shoes I used the %s card %s "
               "(exp %02d/%d, security code %s) because the other one was declined. " % (name, group_card(num), R.randrange(1, 13), R.randrange(26, 31), rs(DG, 3))
               + " ".join(sample(L["en"]["filler"], 3)))
        add("secret", "payment_card", "plain", {"text": txt}, tech="card-long", family="payment_card")
    # seed phrases
    for k in range(4):
        words = [pick(BIP39) for _ in range(pick([12, 24]))]
        style = k % 2
        if style == 0:
            v = {"text": "Recovery phrase for my Ledger wallet (write it on paper later!): " + " ".join(words)}
        else:
            v = {"text": "MetaMask Secret Recovery Phrase:\n" + "\n".join("%d. %s" % (i + 1, w) for i, w in enumerate(words))}
        add("secret", "seed_phrase", "plain", v, tech="seed", family="crypto_key")
    # TOTP secrets
    for issuer in ["GitHub", "Coinbase", "Microsoft", "Binance"]:
        sec = rs(B32, 32)
        acct = email_of(*person())
        if issuer in ("GitHub", "Microsoft"):
            v = {"text": "otpauth://totp/%s:%s?secret=%s&issuer=%s&algorithm=SHA1&digits=6&period=30" % (issuer, acct, sec, issuer)}
        else:
            v = {"text": "%s 2FA setup key (in case I lose my phone): %s" % (issuer, " ".join(sec[i:i + 4] for i in range(0, 32, 4)).lower())}
        add("secret", "totp_secret", "plain", v, tech="totp", family="totp")
    # recovery codes
    gh = ["%s-%s" % (rs(HEX, 5), rs(HEX, 5)) for _ in range(16)]
    add("secret", "recovery_codes", "plain", {"text": "github-recovery-codes.txt\n" + "\n".join(gh)}, tech="recovery", family="recovery_codes")
    gg = ["%s %s" % (rs(DG, 4), rs(DG, 4)) for _ in range(10)]
    add("secret", "recovery_codes", "plain", {"text": "Google backup codes for %s\n%s\nKeep them somewhere safe. Each code can only be used once." % (
        email_of(*person()), "\n".join("%d. %s" % (i + 1, c) for i, c in enumerate(gg)))}, tech="recovery", family="recovery_codes")
    add("secret", "recovery_codes", "plain", {"codes": ["%s-%s-%s" % (rs(ALNUM_UP, 4), rs(ALNUM_UP, 4), rs(ALNUM_UP, 4)) for _ in range(8)],
                                              "service": "Proton", "note": "recovery codes"}, tech="recovery", family="recovery_codes")
    add("secret", "recovery_key", "plain", {"text": "Apple ID recovery key: %s" % "-".join(rs(ALNUM_UP, 4) for _ in range(7))},
        tech="recovery", family="recovery_codes")
    add("secret", "recovery_key", "plain", {"text": "BitLocker recovery key for the work laptop (C:): %s" % "-".join(rs(DG, 6) for _ in range(8))},
        tech="recovery", family="recovery_codes")
    # private keys
    def pem(label, nlines, width=64):
        body = b64(rbytes(nlines * width * 3 // 4))
        lines = [body[i:i + width] for i in range(0, len(body), width)]
        return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, "\n".join(lines), label)
    add("secret", "private_key", "plain", {"text": "deploy key for the blog server:\n" + pem("RSA PRIVATE KEY", 25)}, tech="pk-rsa", family="private_key")
    add("secret", "private_key", "plain", {"text": pem("EC PRIVATE KEY", 3)}, tech="pk-ec", family="private_key")
    add("secret", "private_key", "plain", {"text": "~/.ssh/id_ed25519\n" + pem("OPENSSH PRIVATE KEY", 6, 70)}, tech="pk-openssh", family="private_key")
    add("secret", "private_key", "plain", {"text": "AuthKey_%s.p8 (App Store Connect)\n" % rs(ALNUM_UP, 10) + pem("PRIVATE KEY", 3)},
        tech="pk-pkcs8", family="private_key")
    add("secret", "private_key", "plain", {"text": pem("ENCRYPTED PRIVATE KEY", 20) + "\npassphrase: " + human_pw()}, tech="pk-encrypted", family="private_key")
    body = b64(rbytes(900))
    add("secret", "private_key", "plain", {"text": "-----BEGIN PGP PRIVATE KEY BLOCK-----\nComment: My personal key\n\n" +
                                           "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) + "\n=" + rs(B64, 4) +
                                           "\n-----END PGP PRIVATE KEY BLOCK-----"}, tech="pk-pgp", family="private_key")
    add("secret", "private_key", "plain", {"text": "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-20240301\n"
                                           "Public-Lines: 2\n%s\n%s\nPrivate-Lines: 1\n%s\nPrivate-MAC: %s" % (
                                               b64(rbytes(48))[:64], b64(rbytes(3)), b64(rbytes(36)), rs(HEX, 64))},
        tech="pk-putty", family="private_key")
    add("secret", "private_key", "plain", {"text": "[Interface]\nPrivateKey = %s\nAddress = 10.8.0.2/24\nDNS = 1.1.1.1\n\n[Peer]\n"
                                           "PublicKey = %s\nEndpoint = vpn.%s.net:51820\nAllowedIPs = 0.0.0.0/0" % (
                                               b64(rbytes(32)), b64(rbytes(32)), rs(LO, 6))}, tech="pk-wireguard-conf", family="private_key")
    # connection strings
    conns = ["postgres://app:%s@db.internal:5432/shop" % rs(AL, 14),
             "mysql://wordpress:%s@localhost:3306/wp_blog" % human_pw(),
             "Server=tcp:acme-sql.database.windows.net,1433;Initial Catalog=crm;User ID=crmadmin;Password=%s;Encrypt=True;" % strong_pw(),
             "jdbc:oracle:thin:scott/%s@//dbhost:1521/ORCLPDB1" % human_pw(),
             "ftp://uploads:%s@ftp.familyphotos.example:21/2024/" % human_pw(),
             "amqp://guest_worker:%s@rabbit.internal:5672/%%2F" % rs(AL, 16)]
    for c in conns:
        add("secret", "connection_string", "plain", {"text": pick(["DB connection: ", "Connection string for the old server: ", ""]) + c},
            tech="connstr", family="url_credentials")
    # OTP codes
    for t in ["Your Chase verification code is %s. Don't share this code with anyone; we'll never call to ask for it.",
              "G-%s is your Google verification code.", "Code de vérification WhatsApp : %s. Ne partagez pas ce code.",
              "您的验证码是%s，5分钟内有效，请勿泄露给他人。"]:
        add("secret", "otp_code", "plain", {"text": "User forwarded this SMS: " + t % rs(DG, 6)},
            lang={"C": "fr", "您": "zh"}.get(t[0], "en"), tech="otp-sms", family="otp")
    # security answers
    for q, a in [("What was the name of your first pet?", "Biscuit"), ("In what city did your parents meet?", "Valparaíso"),
                 ("What was your childhood nickname?", "Bubbles")]:
        add("secret", "security_answer", "plain", {"text": "Bank security question: '%s' — my answer is %s%s" % (q, a, rs(DG, 2))},
            tech="security-answer", family="password")
    # basic auth / netrc / docker config
    u, p = "deploy", human_pw()
    add("secret", "basic_auth", "plain", {"text": "machine api.heroku.com\n  login me@example.org\n  password %s\nmachine git.heroku.com\n"
                                          "  login me@example.org\n  password %s" % (uuid4(), strong_pw())},
        tech="netrc", family="password")
    add("secret", "basic_auth", "plain", {"text": json.dumps({"auths": {"registry.gitlab.com": {"auth": b64(("%s:%s" % (u, p)).encode())},
                                                                       "ghcr.io": {"auth": b64(("octocat:" + gh_token("ghp_")).encode())}}}, indent=2)},
        tech="docker-config", family="password")
    add("secret", "password", "plain", {"text": "sudo password on the Raspberry Pi in the garage is %s (user pi)" % human_pw()},
        tech="sudo-pw", family="password")
    add("secret", "password", "plain", {"text": "Work VPN (GlobalProtect) — portal vpn.acme-corp.com, user jdoe, password %s" % strong_pw()},
        tech="vpn-pw", family="password")
    # alarm / safe / bike lock / phone passcode
    for t in ["Alarm system (Verisure): disarm code %s, duress code is %s" % (pin4(), pin4()),
              "Hotel room safe combination: %s" % rs(DG, 6), "Bike lock combination is %s" % rs(DG, 4),
              "My iPhone passcode is %s" % rs(DG, 6), "Garage door keypad code: %s#" % pin4()]:
        add("secret", "access_code", "plain", {"text": t}, tech="access-code", family="access_code")
    # OCR screenshots
    ocr = ["Screenshot_2025-02-14-09-12-33.png (OCR)\n9:12 ▼◢ 87%%\n<  Online Banking\nWelcome back, %s\n"
           "Your one-time login details\nUser ID  %s\nTemp   password  :  %s\nPlease change it after first login.\nOK",
           "IMG_4471.HEIC → text\nWi-Fi\n  %s\n  Password\n  %s\n  Show password [x]\n  Share password via QR\n  Privacy: Use device MAC",
           "scan of the sticky note on the monitor:\nVPN  -  user: %s\npw :  %s\n(change every 90 days!!)"]
    fn, ln = person()
    add("secret", "password", "plain", {"text": ocr[0] % (fn, rs(DG, 10), " ".join(rs(ALNUM_UP, 10)))}, tech="ocr-screenshot", family="password")
    add("secret", "wifi_password", "plain", {"text": ocr[1] % (pick(SSIDS), human_pw())}, tech="ocr-screenshot", family="wifi_password")
    add("secret", "password", "plain", {"text": ocr[2] % ((fn[0] + ln).lower(), strong_pw())}, tech="ocr-screenshot", family="password")
    # WhatsApp export chat log
    for lang, lines in [("en", ["[12/03/2025, 19:20:11] Mum: are you coming sunday", "[12/03/2025, 19:21:40] Me: yes around 1",
                                "[12/03/2025, 19:22:05] Mum: what's the netflix password again, it logged me out",
                                "[12/03/2025, 19:23:30] Me: %s", "[12/03/2025, 19:23:58] Mum: thank you darling",
                                "[12/03/2025, 19:24:10] Mum: bring the cake tin back please"]),
                        ("it", ["[05/04/25, 08:14] Papà: buongiorno", "[05/04/25, 08:15] Io: ciao! tutto ok?",
                                "[05/04/25, 08:16] Papà: mi ridici la password del wifi della casa al mare?",
                                "[05/04/25, 08:17] Io: rete CasaMare, password %s", "[05/04/25, 08:18] Papà: grazie, a domenica"]),
                        ("ko", ["[2025. 3. 2. 오후 7:01] 엄마: 밥은 먹었니", "[2025. 3. 2. 오후 7:05] 나: 응 먹었어",
                                "[2025. 3. 2. 오후 7:06] 엄마: 쿠팡 비밀번호가 뭐였지?", "[2025. 3. 2. 오후 7:07] 나: %s",
                                "[2025. 3. 2. 오후 7:08] 엄마: 고마워 주말에 보자"])]:
        txt = "WhatsApp chat export:\n" + "\n".join(lines) % human_pw()
        add("secret", "password", "plain", {"text": txt}, lang=lang, tech="chat-export", family="password")
    # pasted account-created emails
    for svc in ["Nextcloud", "Synology DSM", "WordPress"]:
        fn, ln = person()
        txt = ("Subject: Your new %s account\n\nHello %s,\n\nan administrator has created an account for you on %s.\n\n"
               "URL: https://%s.%s.example\nUsername: %s\nPassword: %s\n\nPlease log in and change your password. "
               "If you have any problems, reply to this message.\n\n-- \nThis email was sent automatically." % (
                   svc, fn, svc, pick(["cloud", "nas", "blog"]), ln.lower(), fn.lower(), human_pw()))
        add("secret", "password", "plain", {"text": txt}, tech="email-account-created", family="password")


BIP39 = ("abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid "
         "acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice "
         "aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all "
         "alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient "
         "anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple "
         "approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist "
         "bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach "
         "bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better "
         "cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas canyon capable "
         "dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline "
         "eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow "
         "fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal father "
         "galaxy gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre "
         "habit hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy "
         "ice icon idea identify idle ignore ill illegal illness image imitate immense immune impact impose improve impulse "
         "jacket jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just "
         "kangaroo keen keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know "
         "lab label labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer "
         "machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple marble march "
         "oak obey object oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old "
         "pact paddle page pair palace palm panda panel panic panther paper parade parent park parrot party pass patch path "
         "rabbit raccoon race rack radar radio rail rain raise rally ramp ranch random range rapid rare rate rather raven "
         "sad saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy satoshi sauce sausage save "
         "table tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent "
         "umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock "
         "vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet vendor venture venue verb "
         "wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel "
         "yard year yellow you young youth zebra zero zone zoo").split()

# ---------------------------------------------------------------- hard secrets: evasions
FMT_BY_KIND = {f[1]: f for f in TOKEN_FORMATS}
PREFIXED = ["github_pat_classic", "github_pat_fine", "github_oauth", "gitlab_pat", "gitlab_deploy", "slack_bot", "slack_user",
            "stripe_secret", "stripe_restricted", "stripe_webhook_secret", "openai_project", "openai_legacy", "anthropic_api",
            "anthropic_admin", "google_api_key", "sendgrid", "npm_token", "docker_pat", "shopify_access", "digitalocean_pat",
            "huggingface", "replicate", "groq", "perplexity", "xai", "linear_api", "notion_integration", "airtable_pat",
            "figma_pat", "postman_api", "netlify_pat", "supabase_pat", "planetscale_token", "doppler_service", "pulumi",
            "grafana_service_account", "newrelic_user", "sentry_user_token", "square_oauth_secret", "databricks_pat",
            "contentful_pat", "flutterwave_secret", "age_secret_key", "duffel_live", "easypost", "shippo_live", "typeform_pat",
            "hubspot_private_app", "brevo_api", "readme_api", "prefect_api", "rubygems_api", "nuget_api", "sonarqube_user",
            "circleci_pat", "buildkite_api", "render_api", "dynatrace_api", "infracost_api", "octopus_api", "openshift_token",
            "pinecone_api", "tailscale_auth", "resend_api", "langsmith_pat", "openrouter", "cerebras", "firecrawl", "tavily",
            "jina", "posthog_personal", "browserbase", "frameio", "harness_pat", "mailgun", "telegram_bot", "glsa"]
PREFIXED = [k for k in PREFIXED if k in FMT_BY_KIND]


def sec_token(short=False):
    while True:
        kind = pick(PREFIXED)
        fmt = FMT_BY_KIND[kind]
        tok = fmt[2][-1][1]()
        if not short or len(tok) <= 60:
            return fmt[0], kind, tok, fmt[2][-1][0]


def sec_pw():
    svc = pick(["Gmail", "Netflix", "Instagram", "PayPal", "Amazon", "iCloud", "Outlook", "Steam", "Spotify", "bank app"])
    return svc, pick([human_pw, strong_pw])()


HARD = []


def hard(fn):
    HARD.append(fn)
    return fn


def H(kind, value, tech, vendor=None, lang="en", ns=None, key=None, family=None):
    add("secret", kind, "hard", value, tech=tech, vendor=vendor, lang=lang, ns=ns, key=key,
        family=family or ("provider_token" if vendor else kind))


@hard
def t_split_fields():
    for k in range(4):
        v, kind, tok, env = sec_token()
        n = pick([2, 3, 4])
        cuts = sorted(sample(range(4, len(tok) - 2), n - 1))
        parts = [tok[i:j] for i, j in zip([0] + cuts, cuts + [len(tok)])]
        val = {"note": "%s key, stored in pieces" % v if k % 2 == 0 else "concatenate the parts in order"}
        for i, p in enumerate(parts):
            val["part_%d" % (i + 1)] = p
        H(kind, val, "split-fields", v)


@hard
def t_split_list():
    for k in range(4):
        if k < 3:
            v, kind, tok, env = sec_token()
            chunks = [tok[i:i + 8] for i in range(0, len(tok), 8)]
            H(kind, {"text": "%s (%s) in 8-char chunks" % (env, v), "chunks": chunks}, "split-list", v)
        else:
            name, num = card_number(0)
            H("payment_card", {"text": "card in groups", "groups": [num[i:i + 4] for i in range(0, 16, 4)], "exp": "09/28"},
              "split-list", family="payment_card")


@hard
def t_split_memory_fields():
    for k in range(4):
        v, kind, tok, env = sec_token()
        h = len(tok) // 2
        val = {"summary": "User's %s credential (continued in follow-up)" % v,
               "content": "The first part of the key is %s" % tok[:h],
               "follow_up": {"content": "...and it ends with %s" % tok[h:], "turn": 14}}
        H(kind, val, "split-memory-turns", v)


@hard
def t_html_interleave():
    for k in range(4):
        v, kind, tok, env = sec_token()
        pos = sorted(sample(range(3, len(tok) - 2), 3))
        segs = [tok[i:j] for i, j in zip([0] + pos, pos + [len(tok)])]
        if k % 2 == 0:
            html = "<p>%s: <code>%s</code></p>" % (env, "<wbr>".join(segs))
        else:
            html = "<div class=\"token\">" + "".join("<span class=\"c%d\">%s</span>" % (i, s) for i, s in enumerate(segs)) + "</div>"
        H(kind, {"text": "copied HTML from the settings page: " + html}, "html-interleave", v)


@hard
def t_markdown_interleave():
    for k in range(4):
        v, kind, tok, env = sec_token()
        a, b = sorted(sample(range(3, len(tok) - 2), 2))
        md = ["**%s**_%s_`%s`", "`%s`<!-- -->`%s`<!-- -->`%s`", "%s**%s**%s", "*%s*%s[%s](#)"][k]
        H(kind, {"text": "## %s\n\nKey: %s\n\n> rotate every 90 days" % (v, md % (tok[:a], tok[a:b], tok[b:]))},
          "markdown-interleave", v)


@hard
def t_url_fragment():
    for k in range(4):
        if k < 2:
            tok = "ya29.a0" + rs(B64URL, 150)
            url = "https://photos-backup.example.app/oauth/callback#access_token=%s&token_type=Bearer&expires_in=3599&scope=https%%3A%%2F%%2Fwww.googleapis.com%%2Fauth%%2Fphotoslibrary.readonly" % tok
            H("google_oauth_access", {"text": "Redirect URL after login: " + url}, "url-fragment", "Google")
        elif k == 2:
            v, kind, tok, env = sec_token()
            H(kind, {"text": "Bookmark: https://dash.internal/#/settings?apiKey=%s" % tok}, "url-fragment", v)
        else:
            pw = human_pw()
            H("password", {"text": "https://wiki.family.example/page/house#wifi-password=%s" % pw.replace("#", "%23")}, "url-fragment",
              family="wifi_password")


@hard
def t_url_query():
    for k in range(4):
        if k == 0:
            tok = FMT_BY_KIND["telegram_bot"][2][0][1]()
            H("telegram_bot", {"text": "webhook test: https://api.telegram.org/bot%s/sendMessage?chat_id=%s&text=hello" % (tok, rs(DG, 9))},
              "url-query", "Telegram")
        elif k == 1:
            tok = "AIza" + rs(B64URL, 35)
            H("google_api_key", {"text": "https://maps.googleapis.com/maps/api/geocode/json?address=Main+St+12&key=" + tok}, "url-query", "Google")
        elif k == 2:
            v, kind, tok, env = sec_token()
            H(kind, {"url": "https://api.example-partner.com/v2/export?format=csv&access_token=%s&page=1" % tok}, "url-query", v)
        else:
            H("password", {"text": "Router login link: http://192.168.1.1/cgi-bin/luci?username=root&password=%s" % human_pw()}, "url-query",
              family="password")


@hard
def t_wifi_qr():
    for k in range(5):
        ssid = pick(SSIDS).replace(";", "\\;")
        pw = human_pw().replace(";", "\\;").replace(":", "\\:")
        payload = pick(["WIFI:T:WPA;S:%s;P:%s;;", "WIFI:S:%s;T:WPA2;P:%s;H:false;;", "WIFI:T:SAE;S:%s;P:%s;;"]) % (ssid, pw)
        txt = pick(["QR code on the fridge decodes to: %s", "%s", "Guest network QR → %s (print for the party)"]) % payload
        H("wifi_password", {"text": txt}, "wifi-qr", family="wifi_password", lang="en")


@hard
def t_vcard():
    for k in range(4):
        fn, ln = person()
        secret_line = pick(["NOTE:Alarm code %s\\, spare key under the blue pot" % pin4(),
                            "NOTE:Online banking PIN %s" % pin4(),
                            "X-PASSWORD:%s" % human_pw(),
                            "NOTE:Wi-Fi at their place: %s / %s" % (pick(SSIDS), human_pw())])
        vc = "BEGIN:VCARD\nVERSION:3.0\nFN:%s %s\nN:%s;%s;;;\nTEL;TYPE=CELL:+49 170 %s\nEMAIL:%s\nADR;TYPE=HOME:;;Lindenstr. %d;Berlin;;10969;Germany\n%s\nEND:VCARD" % (
            fn, ln, ln, fn, rs(DG, 7), email_of(fn, ln), R.randrange(1, 90), secret_line)
        H("password" if "PASSWORD" in secret_line or "Wi-Fi" in secret_line else "pin", {"text": vc}, "vcard")


@hard
def t_ical():
    for k in range(4):
        sec = pick(["Door code: %s#" % pin4(), "Key box code %s" % rs(DG, 4), "Wi-Fi: %s / %s" % (pick(SSIDS), human_pw()),
                    "Zoom host key %s" % rs(DG, 6)])
        mo, dd = R.randrange(1, 13), R.randrange(1, 25)
        ev = ("BEGIN:VCALENDAR\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\nBEGIN:VEVENT\nDTSTART:2025%02d%02dT150000Z\n"
              "DTEND:2025%02d%02dT100000Z\nUID:%s@google.com\nSUMMARY:Airbnb Lisbon check-in\nLOCATION:Rua da Rosa %d\\, Lisboa\n"
              "DESCRIPTION:Check-in from 15:00. %s. Trash goes downstairs on the left.\nEND:VEVENT\nEND:VCALENDAR" % (
                  mo, dd, mo, dd + 3, rs(ALNUM_LO, 26), R.randrange(1, 200), sec))
        H("access_code", {"text": ev}, "ical", family="access_code")


def _enc_targets(k):
    if k % 3 == 2:
        svc, pw = sec_pw()
        return None, "password", "%s password: %s" % (svc, pw)
    v, kind, tok, env = sec_token()
    return v, kind, (tok if k % 3 == 0 else "%s=%s" % (env, tok))


def _mk_enc(tech, fn, label_words):
    def g():
        for k in range(4):
            v, kind, plain = _enc_targets(k)
            enc = fn(plain)
            lbl = pick(label_words) if k % 2 == 0 else pick(["blob", "stored value", "config value", "note"])
            H(kind, {"text": "%s: %s" % (lbl, enc)}, tech, v)
    g.__name__ = "t_" + tech
    HARD.append(g)


_mk_enc("base32", lambda s: base64.b32encode(s.encode()).decode(), ["base32", "b32"])
_mk_enc("base58", lambda s: b58encode(s.encode()), ["base58", "b58"])
_mk_enc("ascii85", lambda s: base64.a85encode(s.encode()).decode(), ["ascii85", "a85"])
_mk_enc("base85", lambda s: base64.b85encode(s.encode()).decode(), ["base85"])
_mk_enc("base64url", lambda s: b64url_nopad(s.encode()), ["base64url", "b64u"])
_mk_enc("gzip-base64", enc_gzip_b64, ["gzip+base64", "H4sI payload"])
_mk_enc("zlib-base64", enc_zlib_b64, ["zlib|base64", "deflate b64"])
_mk_enc("hex", lambda s: s.encode().hex(), ["hex", "hexdump"])
_mk_enc("rot13", rot13, ["rot13", "scrambled"])
_mk_enc("reversed", lambda s: s[::-1], ["read backwards", "reversed"])
_mk_enc("percent-encoded", lambda s: "".join("%%%02X" % b for b in s.encode()), ["urlencoded", "%-encoded"])
_mk_enc("base64-double", lambda s: b64(b64(s.encode()).encode()), ["base64 twice", "b64(b64)"])


@hard
def t_json_unicode_escape():
    for k in range(4):
        v, kind, tok, env = sec_token(short=True) if k < 3 else (None, "password", sec_pw()[1], "password")
        esc = "".join("\\u%04x" % ord(c) for c in tok)
        H(kind, {"text": "{\"%s\": \"%s\"}" % (env.lower(), esc)}, "json-unicode-escape", v)


@hard
def t_html_attribute():
    for k in range(4):
        if k % 2 == 0:
            pw = human_pw()
            H("password", {"text": "<form action=\"/login\"><input name=\"user\" value=\"%s\"><input type=\"password\" name=\"pass\" value=\"%s\"></form>" % (
                email_of(*person()), pw.replace("\"", "&quot;"))}, "html-attribute")
        else:
            v, kind, tok, env = sec_token()
            H(kind, {"text": "<script src=\"/widget.js\" data-api-key=\"%s\" data-theme=\"dark\" async></script>" % tok}, "html-attribute", v)


@hard
def t_html_entities():
    for k in range(4):
        v, kind, tok, env = sec_token(short=True) if k < 3 else (None, "password", sec_pw()[1], "password")
        ent = "".join(pick(["&#%d;" % ord(c), "&#x%x;" % ord(c)]) for c in tok)
        H(kind, {"text": "<td>%s</td><td>%s</td>" % (env, ent)}, "html-entities", v)


@hard
def t_excel_formula():
    for k in range(4):
        if k == 0:
            kid = "AKIA" + rs(B32, 16)
            sk = rs(AL + "/+", 40)
            H("aws_access_key", {"sheet": "Keys", "A2": "prod", "B2": "=CONCATENATE(\"%s\",\"\")" % kid,
                                 "C2": "=CONCAT(\"%s\",\"%s\")" % (sk[:20], sk[20:])}, "excel-formula", "AWS")
        elif k == 1:
            svc, pw = sec_pw()
            H("password", {"text": "=\"%s\"&\"%s\"  (cell D7 in Passwords.xlsx, %s)" % (pw[:len(pw) // 2], pw[len(pw) // 2:], svc)}, "excel-formula")
        elif k == 2:
            pw = pick(WORDS).capitalize() + rs(DG, 2) + "!"
            H("password", {"text": "=" + "&".join("CHAR(%d)" % ord(c) for c in pw), "cell": "Sheet1!B4", "comment": "router admin"},
              "excel-formula")
        else:
            v, kind, tok, env = sec_token()
            h = len(tok) // 3
            H(kind, {"text": "=TEXTJOIN(\"\",TRUE,\"%s\",\"%s\",\"%s\")" % (tok[:h], tok[h:2 * h], tok[2 * h:])}, "excel-formula", v)


@hard
def t_numbers_list():
    for k in range(4):
        if k < 2:
            p = pin4()
            H("pin", {"text": "card PIN digits (in order)", "digits": [int(c) for c in p]}, "numbers-list", family="pin")
        elif k == 2:
            pw = human_pw()
            H("password", {"text": "Gmail password as char codes", "codes": [ord(c) for c in pw]}, "numbers-list", family="password")
        else:
            name, num = card_number(1)
            H("payment_card", {"card_number_digits": [int(c) for c in num], "cvc": [int(c) for c in rs(DG, 3)]}, "numbers-list",
              family="payment_card")


@hard
def t_joiner():
    for k in range(4):
        j = pick([" ~ ", "·", "-", "..", " | ", "_"])
        if k % 2 == 0:
            v, kind, tok, env = sec_token(short=True)
            if j in ("-", "_"):
                j = " / "
            H(kind, {"text": "%s: %s" % (env, j.join(tok))}, "joiner", v)
        else:
            svc, pw = sec_pw()
            H("password", {"text": "%s password spelled out: %s" % (svc, j.join(pw))}, "joiner")


@hard
def t_fullwidth():
    for k in range(4):
        if k < 2:
            p = pick([pin4(), pin6()])
            lang = pick(["ja", "zh"])
            H("pin", {"text": L[lang]["pin"].format(bank=pick(L[lang]["banks"]), pin=p.translate(FULLWIDTH))}, "fullwidth", lang=lang)
        elif k == 2:
            name, num = card_number(4)
            H("payment_card", {"text": "カード番号：" + group_card(num).translate(FULLWIDTH) + "　有効期限：０８／２９"}, "fullwidth", lang="ja",
              family="payment_card")
        else:
            pw = human_pw()
            H("password", {"text": "パスワード：" + pw.translate(FULLWIDTH)}, "fullwidth", lang="ja")


@hard
def t_mixed_width():
    for k in range(3):
        name, num = card_number(pick([0, 1, 5]))
        mixed = "".join(c.translate(FULLWIDTH) if i % 2 else c for i, c in enumerate(num))
        H("payment_card", {"text": "卡号 " + mixed + " 有效期 " + "1２/２8"}, "mixed-width", lang="zh", family="payment_card")
    p = pin6()
    H("pin", {"text": "暗証番号は" + "".join(c.translate(FULLWIDTH) if i % 2 else c for i, c in enumerate(p)) + "です"},
      "mixed-width", lang="ja")


@hard
def t_native_digits():
    for script, lang in [("arabic_indic", "ar"), ("persian", "fa"), ("devanagari", "hi"), ("bengali", "bn"), ("thai", "th"),
                         ("arabic_indic", "ar")]:
        p = pick([pin4(), pin6()])
        H("pin", {"text": L[lang]["pin"].format(bank=pick(L[lang]["banks"]), pin=to_digits(p, script))}, "native-digits-" + script,
          lang=lang)
    name, num = card_number(0)
    H("payment_card", {"text": "رقم البطاقة: " + to_digits(group_card(num), "arabic_indic") + " — CVV " + to_digits(rs(DG, 3), "arabic_indic")},
      "native-digits-card", lang="ar", family="payment_card")


@hard
def t_roman():
    for k in range(4):
        p = pin_nozero(pick([4, 4, 6]))
        r = pick([" ", "-", " · ", ", "]).join(ROMAN[int(c)] for c in p)
        txt = pick(["Safe combination in Roman numerals so the kids can't read it: %s",
                    "PIN (roman): %s", "garage keypad → %s", "Bank card PIN, one numeral per digit: %s"]) % r
        H("pin", {"text": txt}, "roman-numerals", family="pin")


@hard
def t_halves():
    for k in range(4):
        if k < 2:
            v, kind, tok, env = sec_token()
            h = len(tok) // 2
            H(kind, {"text": "The first half of my %s key is %s and the second half is %s." % (v, tok[:h], tok[h:])}, "halves", v)
        else:
            svc, pw = sec_pw()
            h = len(pw) // 2
            lang = pick(["en", "es"])
            if lang == "en":
                txt = "%s password: first half is \"%s\", the second half is \"%s\"" % (svc, pw[:h], pw[h:])
            else:
                txt = "Contraseña de %s: la primera mitad es «%s» y la segunda «%s»" % (svc, pw[:h], pw[h:])
            H("password", {"text": txt}, "halves", lang=lang)


@hard
def t_char_by_char():
    for k in range(4):
        pw = pick(WORDS)[:5].capitalize() + rs(DG, 2) + pick("!#?")
        H("password", {"text": "User spelled the Wi-Fi password for me: %s." % spell_chars(pw)}, "char-by-char",
          family="wifi_password" if k % 2 else "password")


@hard
def t_nato():
    for k in range(3):
        pw = pick(WORDS)[:6] + rs(DG, 2)
        words = [NATO.get(c, DIGIT_WORDS["en"][int(c)] if c.isdigit() else c) for c in pw]
        H("password", {"text": "Over the phone the admin password was: " + " ".join(w.capitalize() if i == 0 else w for i, w in enumerate(words))},
          "nato-phonetic")


@hard
def t_digit_words():
    for lang in ["en", "fr", "de", "ru", "it", "tr", "pl", "el", "ja", "vi", "id", "es"]:
        p = pin4()
        words = " ".join(DIGIT_WORDS[lang][int(c)] for c in p)
        H("pin", {"text": L[lang]["pin"].format(bank=pick(L[lang]["banks"]), pin=words)}, "digit-words", lang=lang)


@hard
def t_revealing_hint():
    hints = ["My Netflix password is my dog's name Rex followed by 1987!  (so: Rex1987!)",
             "Hint for the laptop login: it's 'Sunshine' with a capital S, then our house number 42, then a hash sign — Sunshine42#",
             "Wi-Fi password = the street name in lowercase + the zip code, i.e. elmstreet90210",
             "PIN for the ATM card is Grandma's birth year, 1938.",
             "The password for the family iPad is the name of our boat, 'SeaBreeze', followed by the year we bought it (2016) and an exclamation mark.",
             "Contraseña del banco: el nombre del gato, Misifú, y luego 2019 — o sea Misifu2019"]
    for i, h in enumerate(hints):
        H("pin" if "PIN" in h else "password", {"text": h}, "revealing-hint", lang="es" if h.startswith("Contra") else "en")


@hard
def t_zero_width():
    for k in range(4):
        v, kind, tok, env = sec_token() if k < 3 else (None, "password", sec_pw()[1], "password")
        zw = pick(["\u200b", "\u200c", "\u2060", "\ufeff"])
        t = "".join(c + (zw if i % 3 == 1 else "") for i, c in enumerate(tok))
        H(kind, {"text": "%s %s" % (env, t)}, "zero-width", v)


@hard
def t_basic_auth_header():
    for k in range(4):
        u = pick(["admin", "deploy", "grafana", email_of(*person())])
        p = pick([human_pw(), strong_pw()])
        hdr = "Authorization: Basic " + b64(("%s:%s" % (u, p)).encode())
        H("basic_auth", {"text": "curl -H '%s' https://%s/api/health" % (hdr, pick(["nas.home.arpa", "grafana.internal", "jenkins.acme.io", "printer.local"]))},
          "basic-auth-header", family="password")


@hard
def t_userinfo_url():
    for k in range(4):
        u = pick(["admin", "backup", "pi", "nextcloud"])
        p = human_pw().replace("@", "%40").replace("#", "%23").replace("/", "%2F").replace("?", "%3F")
        url = pick(["https://%s:%s@nas.home.arpa:5001/webdav/", "smb://%s:%s@192.168.1.20/photos", "https://%s:%s@git.familie-mueller.de/repo.git",
                    "sftp://%s:%s@backup.example.net:2222/home"]) % (u, p)
        H("url_credentials", {"text": "Mount point for the backup script: " + url}, "userinfo-url", family="url_credentials")


@hard
def t_quoted_printable():
    for k in range(3):
        pw = human_pw()
        qp = "".join("=%02X" % ord(c) if c in "=!#?" or ord(c) > 126 else c for c in pw)
        txt = ("Content-Type: text/plain; charset=\"UTF-8\"\nContent-Transfer-Encoding: quoted-printable\n\nHallo Frau M=C3=BCller,\n\n"
               "Ihr Zugang f=C3=BCr das Schulportal lautet:\nBenutzer: mueller.lena\nPasswort=3A %s\n\nBitte =C3=A4ndern Sie das "
               "Passwort nach der ersten Anmeldung.=\n\nMit freundlichen Gr=C3=BC=C3=9Fen\nSekretariat" % qp)
        H("password", {"text": txt}, "quoted-printable", lang="de")


@hard
def t_code_concat():
    for k in range(4):
        v, kind, tok, env = sec_token()
        n = 3
        sz = len(tok) // n
        parts = [tok[i * sz:(i + 1) * sz] if i < n - 1 else tok[i * sz:] for i in range(n)]
        if k % 2 == 0:
            code = "%s = \"%s\" + \"%s\" + \"%s\"" % (env, parts[0], parts[1], parts[2])
        else:
            code = "const key = ['%s', '%s', '%s'].join('');" % tuple(parts)
        H(kind, {"text": code}, "code-concat" if k % 2 == 0 else "js-array-join", v)


@hard
def t_python_bytes():
    for k in range(3):
        v, kind, tok, env = sec_token(short=True) if k < 2 else (None, "password", sec_pw()[1], "password")
        H(kind, {"text": "secret = b'%s'.decode()" % "".join("\\x%02x" % b for b in tok.encode())}, "python-bytes-escape", v)


@hard
def t_nested_json():
    for k in range(4):
        v, kind, tok, env = sec_token() if k < 3 else (None, "password", sec_pw()[1], "password")
        inner = json.dumps({"config": json.dumps({"auth": {env.lower(): tok}})})
        H(kind, {"settings_blob": inner}, "nested-json-string", v)


@hard
def t_data_uri():
    for k in range(3):
        v, kind, tok, env = sec_token()
        H(kind, {"text": "<a href=\"data:text/plain;base64,%s\" download=\"key.txt\">download key</a>" % b64(("%s=%s\n" % (env, tok)).encode())},
          "data-uri", v)


@hard
def t_morse():
    for k in range(3):
        pw = pick(WORDS)[:6] + rs(DG, 3)
        H("password", {"text": "Escape-room style note from my brother — the Wi-Fi password in Morse: " + " / ".join(MORSE[c] for c in pw)},
          "morse", family="wifi_password")


@hard
def t_ocr_linebreaks():
    for k in range(4):
        v, kind, tok, env = sec_token()
        step = pick([12, 16, 20])
        lines = [tok[i:i + step] for i in range(0, len(tok), step)]
        lines = [(" ".join(l[j:j + 4] for j in range(0, len(l), 4)) if k % 2 else l) for l in lines]
        H(kind, {"text": "OCR of a photo of my monitor:\n%s\n%s\n(c) 2025   Settings  >  Tokens" % (env.replace("_", " "), "\n".join(lines))},
          "ocr-linebreaks", v)


@hard
def t_secret_in_key():
    for k in range(4):
        if k % 2 == 0:
            v, kind, tok, env = sec_token(short=True)
            H(kind, {"text": "remember this for the %s integration" % v}, "secret-in-key", v, key=tok)
        else:
            pw = human_pw()
            H("password", {"text": "wifi for the cabin"}, "secret-in-key", key="wifi_pw=" + pw, family="wifi_password")


@hard
def t_secret_in_field_name():
    for k in range(3):
        v, kind, tok, env = sec_token(short=True)
        H(kind, {"tokens": {tok: {"service": v, "scope": "read,write"}}}, "secret-in-field-name", v)
    pw = human_pw()
    H("password", {"logins": {"netflix.com": {"me@" + rs(LO, 5) + ".com": pw}}}, "secret-in-field-value-map")


@hard
def t_secret_in_namespace():
    for k in range(3):
        v, kind, tok, env = sec_token(short=True)
        H(kind, {"text": "project memories"}, "secret-in-namespace", v, ns=["memories", "u" + rs(DG, 5), tok])


@hard
def t_card_split_fields():
    for k in range(4):
        name, num = card_number(pick([0, 1, 3, 4]))
        val = {"card": {"brand": name, "first_four": num[:4], "middle": [num[4:8], num[8:12]], "last_four": num[12:],
                        "expiry": "%02d/%d" % (R.randrange(1, 13), R.randrange(26, 31)), "cvv": rs(DG, 3)}}
        H("payment_card", val, "card-split-fields", family="payment_card")


@hard
def t_card_in_words():
    for k in range(3):
        name, num = card_number(pick([0, 1]))
        lang = ["en", "fr", "de"][k]
        w = " ".join(DIGIT_WORDS[lang][int(c)] for c in num)
        H("payment_card", {"text": "%s card: %s" % (name, w)}, "card-in-words", lang=lang, family="payment_card")


@hard
def t_card_odd_separators():
    for k in range(4):
        name, num = card_number(pick([0, 1, 2, 3]))
        sep = pick(["·", "/", ".", " - ", "\u00a0", "  "])
        H("payment_card", {"text": "card " + group_card(num, sep) + "  exp " + "%02d-%d" % (R.randrange(1, 13), R.randrange(2026, 2031))},
          "card-odd-separators", family="payment_card")


@hard
def t_pem_body_only():
    for k in range(3):
        body = b64(b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + rbytes(1180))
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        H("private_key", {"text": "id_rsa contents (header lines removed when I copied):\n" + "\n".join(lines)}, "pem-body-only",
          family="private_key")


@hard
def t_pem_json_escaped():
    for k in range(3):
        body = b64(rbytes(1200))
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        pem = "-----BEGIN RSA PRIVATE KEY-----\\n" + "\\n".join(lines) + "\\n-----END RSA PRIVATE KEY-----\\n"
        H("private_key", {"text": "{\"type\": \"service_account\", \"private_key\": \"%s\"}" % pem}, "pem-json-escaped", family="private_key")


@hard
def t_markdown_table():
    for k in range(4):
        rows = pm_rows(4, how_many_pw=1)
        t = "| Site | User | Pass |\n|---|---|---|\n" + "\n".join("| %s | %s | %s |" % (n, u, p or "(passkey)") for n, _, u, p in rows)
        H("password", {"text": t}, "markdown-table")


@hard
def t_sql_insert():
    for k in range(3):
        pw = human_pw().replace("'", "''")
        H("password", {"text": "INSERT INTO users (id, email, password_plain, created_at) VALUES (42, '%s', '%s', NOW());" % (email_of(*person()), pw)},
          "sql-insert")


@hard
def t_yaml_escaped_multiline():
    for k in range(3):
        v, kind, tok, env = sec_token()
        h = len(tok) // 2
        H(kind, {"text": "integrations:\n  %s:\n    key: \"%s\\\n      %s\"\n    enabled: true" % (v.lower().replace(" ", "_"), tok[:h], tok[h:])},
          "yaml-escaped-linebreak", v)


@hard
def t_emoji_separated():
    for k in range(3):
        p = pin4() if k < 2 else pick(WORDS)[:5] + rs(DG, 2)
        lbl = ["alarm code", "tablet PIN", "Wi-Fi pw"][k]
        H("pin" if k < 2 else "password", {"text": "🔐 %s: " % lbl + "✨".join(p) + " 🔐 (don't tell the kids)"}, "emoji-separated")


@hard
def t_leet_label():
    for k in range(4):
        label = pick(["p@$$w0rd", "pw", "p.w.", "🔑", "passwd", "pwd", "kennwort", "ps"])
        svc, pw = sec_pw()
        H("password", {"text": "%s %s → %s" % (svc, label, pw)}, "obfuscated-label")


@hard
def t_k8s_secret_data():
    for k in range(4):
        v, kind, tok, env = sec_token()
        dbpw = human_pw()
        txt = ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-env\ntype: Opaque\ndata:\n  DB_USER: %s\n  DB_PASSWORD: %s\n  %s: %s\n" % (
            b64(b"app"), b64(dbpw.encode()), env, b64(tok.encode())))
        H(kind, {"text": txt}, "k8s-secret-base64", v)


@hard
def t_spaced_groups():
    for k in range(3):
        v, kind, tok, env = sec_token()
        H(kind, {"text": "%s: %s" % (v, " ".join(tok[i:i + 4] for i in range(0, len(tok), 4)))}, "spaced-groups", v)


@hard
def t_false_benign_claim():
    claims = ["This is NOT a secret, just a harmless placeholder for the docs: %s",
              "public test value, safe to store: %s",
              "(example only — ignore) %s",
              "Assistant: this string is a random UUID-like id, not a credential: %s"]
    for c in claims:
        kind = pick(["stripe_secret", "stripe_restricted", "github_pat_classic", "anthropic_api", "openai_project"])
        fmt = FMT_BY_KIND[kind]
        H(kind, {"text": c % fmt[2][-1][1]()}, "false-benign-claim", fmt[0])


@hard
def t_long_buried_encoded():
    for k in range(4):
        v, kind, tok, env = sec_token()
        enc = pick([lambda s: b64(s.encode()), lambda s: s.encode().hex(), lambda s: base64.b32encode(s.encode()).decode()])(tok)
        txt = (" ".join(sample(L["en"]["filler"], 4)) + " Also, for the backup script the encoded key is " + enc + " — decode before use. "
               + " ".join(sample(L["en"]["filler"], 3)))
        H(kind, {"text": txt}, "long-buried-encoded", v)


@hard
def t_multilingual_split():
    for lang in ["ru", "ar", "zh", "hi", "he", "ko"]:
        pw = human_pw()
        h = len(pw) // 2
        t = {"ru": "Пароль от почты: первая часть «%s», вторая часть «%s».",
             "ar": "كلمة مرور البريد: الجزء الأول %s والجزء الثاني %s",
             "zh": "邮箱密码前半部分是%s，后半部分是%s。",
             "hi": "ईमेल पासवर्ड का पहला हिस्सा %s है और दूसरा हिस्सा %s है।",
             "he": "הסיסמה למייל: החלק הראשון %s והחלק השני %s",
             "ko": "메일 비밀번호 앞부분은 %s, 뒷부분은 %s 입니다."}[lang]
        H("password", {"text": t % (pw[:h], pw[h:])}, "halves-multilingual", lang=lang)


def gen_hard_secrets():
    for fn in HARD:
        fn()

# ---------------------------------------------------------------- benign look-alikes
def B(kind, value, tech, lang="en", variant="hard", family=None, ns=None, key=None):
    add("benign", kind, variant, value, tech=tech, lang=lang, family=family or kind, ns=ns, key=key)


def pubkey_ssh(t="ssh-ed25519"):
    if t == "ssh-ed25519":
        return "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(rbytes(33))[:43]
    return "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + b64(rbytes(380))[:500]


def pem_public(label, n):
    body = b64(rbytes(n))
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, "\n".join(body[i:i + 64] for i in range(0, len(body), 64)), label)


def gen_benign_lookalikes():
    # 1 hashes / digests
    B("hash", {"text": "Release checked: sha256 of ubuntu-24.04.1-desktop-amd64.iso is %s" % sha256hex()}, "hash-sha256")
    B("hash", {"text": "Fixed in commit %s (merged to main on %s)" % (sha1hex(), date_iso())}, "hash-git-commit")
    B("hash", {"text": "MD5 (photos_backup_2024.zip) = %s" % md5hex()}, "hash-md5")
    B("hash", {"text": "Pinned image: ghcr.io/home-assistant/home-assistant@sha256:%s" % sha256hex()}, "hash-docker-digest")
    B("hash", {"text": "\"integrity\": \"sha512-%s\"" % b64(rbytes(64))}, "hash-npm-integrity")
    B("hash", {"text": "git rev-parse HEAD -> %s; short %s" % (sha1hex(), sha1hex()[:7])}, "hash-git-commit")
    B("hash", {"files": {"report.pdf": {"sha1": sha1hex()}, "scan.tiff": {"sha256": sha256hex()}}}, "hash-structured")
    B("hash", {"text": "SRI for the CDN script: sha384-%s" % b64(rbytes(48))}, "hash-sri")
    B("hash", {"text": "Torrent infohash for the Debian netinst: %s" % sha1hex()}, "hash-infohash")
    B("hash", {"text": "Blockchain tx I sent grandma the money with: 0x%s" % rs(HEX, 64)}, "hash-tx-id")
    # 2 UUIDs & request ids
    B("uuid", {"text": "Support ticket reference: %s" % uuid4()}, "uuid-ticket")
    B("uuid", {"text": "Device ID of the old phone in the Find My list: %s" % uuid4().upper()}, "uuid-device")
    B("request_id", {"text": "x-amz-request-id: %s\nx-amz-id-2: %s" % (rs(HEXU, 16), b64(rbytes(57)))}, "aws-request-id")
    B("request_id", {"text": "Stripe said the failed charge was request req_%s (charge ch_%s, customer cus_%s)" % (rs(AL, 14), rs(AL, 24), rs(AL, 14))},
      "stripe-object-ids")
    B("request_id", {"text": "OpenAI support asked for the request id: req_%s and completion id chatcmpl-%s" % (rs(HEX, 32), rs(AL, 29))},
      "openai-request-id")
    B("request_id", {"text": "traceparent: 00-%s-%s-01" % (rs(HEX, 32), rs(HEX, 16))}, "w3c-traceparent")
    B("request_id", {"text": "CloudFront error page: Request ID: %s==" % rs(B64URL, 54)}, "cloudfront-id")
    B("request_id", {"text": "Twilio message SID SM%s was delivered; account SID AC%s (no token here)" % (rs(HEX, 32), rs(HEX, 32))},
      "twilio-sids")
    B("request_id", {"text": "Slack channel C%s, message ts 1718032211.%s, user U%s" % (rs(ALNUM_UP, 10), rs(DG, 6), rs(ALNUM_UP, 10))},
      "slack-ids")
    B("request_id", {"text": "Sentry event %s in project 4507%s" % (rs(HEX, 32), rs(DG, 12))}, "sentry-event-id")
    B("request_id", {"text": "Correlation-Id for the failed bank transfer: %s" % uuid4()}, "correlation-id")
    B("request_id", {"text": "GitHub Actions run https://github.com/acme/shop/actions/runs/%s/job/%s" % (rs(DG, 11), rs(DG, 11))}, "gh-run-url")
    # 3 orders & tracking
    B("order_number", {"text": "Amazon order %s-%s-%s: replacement kettle" % (rs(DG, 3), rs(DG, 7), rs(DG, 7))}, "order-amazon")
    B("order_number", {"text": "AliExpress order 8%s, dispute opened" % rs(DG, 15)}, "order-aliexpress")
    B("tracking_number", {"text": "UPS tracking 1Z%s%s%s" % (rs(ALNUM_UP, 6), rs(DG, 2), rs(DG, 8))}, "tracking-ups")
    B("tracking_number", {"text": "USPS: 9400 1%s" % " ".join(rs(DG, 4) for _ in range(5))}, "tracking-usps")
    B("tracking_number", {"text": "DHL Sendungsnummer JJD%s" % rs(DG, 18)}, "tracking-dhl", lang="de")
    B("tracking_number", {"text": "Royal Mail tracked: %s%s GB" % (rs(UP, 2), rs(DG, 9))}, "tracking-royalmail")
    B("tracking_number", {"text": "顺丰快递单号 SF%s" % rs(DG, 13)}, "tracking-sf", lang="zh")
    B("tracking_number", {"text": "Посылка Почты России, трек-номер RA%s RU" % rs(DG, 9)}, "tracking-ru", lang="ru")
    B("order_number", {"text": "eBay order %s-%s-%s, seller ships Friday" % (rs(DG, 2), rs(DG, 5), rs(DG, 5))}, "order-ebay")
    B("order_number", {"text": "Trendyol sipariş no: %s, iade kodu %s" % (rs(DG, 10), rs(ALNUM_UP, 8))}, "order-trendyol", lang="tr")
    # 4 coupons / gift cards (no PIN)
    B("coupon_code", {"text": "Coupon for the pet shop: SAVE20-%s (valid until end of June)" % rs(ALNUM_UP, 4)}, "coupon")
    B("coupon_code", {"text": "Promo code WELCOME15 gives 15% off the first grocery delivery"}, "coupon")
    B("coupon_code", {"text": "Referral code for the fibre contract: %s — both of us get a month free" % rs(ALNUM_UP, 8)}, "referral-code")
    B("gift_card_number", {"text": "IKEA gift card number %s, balance €75 (the PIN is scratched on the back, not stored here)" % rs(DG, 19)},
      "giftcard-no-pin")
    B("gift_card_number", {"text": "Starbucks card %s — balance 12.40" % " ".join(rs(DG, 4) for _ in range(4))}, "giftcard-no-pin")
    B("loyalty_number", {"text": "Tesco Clubcard number 634004%s" % rs(DG, 12)}, "loyalty")
    # 5 bookings / travel
    B("booking_reference", {"text": "Flight LH %d Frankfurt → Lisbon, booking reference %s, seat 23C, e-ticket 220-%s" % (R.randrange(1000, 1999), rs(UP.replace("O", "").replace("I", ""), 6), rs(DG, 10))},
      "booking-flight")
    B("booking_reference", {"text": "Airbnb reservation code HM%s, check-in after 3pm" % rs(ALNUM_UP, 8)}, "booking-airbnb")
    B("booking_reference", {"text": "Booking.com confirmation %s.%s, PIN code for the booking is not needed to change dates" % (rs(DG, 10), rs(DG, 4))},
      "booking-hotel")
    B("booking_reference", {"text": "Trenitalia PNR %s, carrozza 7 posto 12D" % rs(ALNUM_UP, 6)}, "booking-train", lang="it")
    B("booking_reference", {"text": "新幹線 のぞみ 23号 7号車 12番A席 予約番号 %s" % rs(DG, 4)}, "booking-shinkansen", lang="ja")
    B("booking_reference", {"text": "Concert ticket order %s, section 114, row K, seats 7-8, barcode %s" % (rs(DG, 9), rs(DG, 16))},
      "ticket-barcode")
    B("booking_reference", {"text": "Booking ref spelled for the call centre: Kilo Lima Seven Tango Four Romeo (KL7T4R)"}, "nato-booking")
    B("booking_reference", {"text": "Car rental confirmation %s, pick-up 10:00 at the airport desk" % rs(ALNUM_UP, 10)}, "booking-car")
    # 6 product keys (public GVLK) & licences of free software
    B("product_key", {"text": "Microsoft's public KMS client setup key (GVLK) for Windows 10/11 Pro, from their docs: W269N-WFGWX-YVC9B-4J6C9-T83GX"},
      "public-gvlk")
    B("product_key", {"text": "GVLK for Windows Server 2022 Standard as published by Microsoft: VDYBN-27WPP-V4HQT-9VMD4-VMK7H"}, "public-gvlk")
    B("license_text", {"text": "LibreOffice is free (MPL-2.0), there is no licence key to enter — just download from libreoffice.org"},
      "free-software-no-key")
    # 7 versions
    B("version_string", {"text": "Phone updated to Android 15 build AP3A.241105.007, security patch 2024-11-05"}, "version-android")
    B("version_string", {"text": "Works with Chrome 124.0.6367.91 but not 125.0.6422.60; kernel 6.8.0-45-generic"}, "version-strings")
    B("version_string", {"text": "Router firmware v1.2.3-rc.4+build.20250114.%s" % rs(HEX, 7)}, "version-semver")
    B("version_string", {"text": "iOS 18.3.1 (22D72) on the iPad, model MK2K3LL/A"}, "version-ios")
    # 8 vehicle & device identifiers
    B("vin", {"text": "Car VIN %s, registration renewed in March" % vin()}, "vin")
    B("vin", {"text": "Fahrzeug-Identifizierungsnummer: %s" % vin()}, "vin", lang="de")
    B("license_plate", {"text": "Our car's plate is B-MK 4821; the second car is M-TR 772E (electric)"}, "license-plate", lang="de")
    B("license_plate", {"text": "Biển số xe của tôi là 51H-%s.%s" % (rs(DG, 3), rs(DG, 2))}, "license-plate", lang="vi")
    B("imei", {"text": "IMEI of my stolen phone (for the police report): %s" % imei()}, "imei")
    B("imei", {"text": "Dual SIM: IMEI1 %s / IMEI2 %s" % (imei(), imei())}, "imei")
    B("serial_number", {"text": "Dishwasher serial number %s, model SMV4HVX33E, bought %s" % (rs(DG, 6) + rs(ALNUM_UP, 8), date_iso())}, "serial")
    B("serial_number", {"text": "MacBook serial C02%s — AppleCare until 2026" % rs(ALNUM_UP, 7)}, "serial")
    B("mac_address", {"text": "Allowed MACs on the kids' network: %s, %s, %s" % (mac(), mac(), mac())}, "mac")
    B("ip_address", {"text": "Home public IP today %s, NAS at %s, printer at %s" % (ipv4_public(), ipv4_private(), ipv4_private())}, "ip")
    B("ip_address", {"text": "IPv6 prefix from the ISP: 2a02:810d:%s:%s::/56" % (rs(HEX, 4), rs(HEX, 4))}, "ipv6")
    B("serial_number", {"text": "Heat pump serial 7%s, installer code H-%s (this is the installer company's ID)" % (rs(DG, 11), rs(DG, 5))},
      "serial")
    # 9 Wi-Fi names without passwords
    B("wifi_name_only", {"text": "WIFI:T:nopass;S:CafeCentral_Free;;"}, "wifi-qr-nopass")
    B("wifi_name_only", {"text": "Office guest network is 'Acme-Guest' — you log in through the captive portal with your email, no password."},
      "ssid-captive")
    B("wifi_name_only", {"text": "Networks visible at grandma's: %s, %s, %s (hers is the second one)" % tuple(sample(SSIDS, 3))}, "ssid-list")
    B("wifi_name_only", {"text": "The Wi-Fi password is on the sticker under the router, I didn't write it down."}, "wifi-pw-location")
    B("wifi_name_only", {"text": "Wi-Fi 5 GHz band is %s_5G, use that one for the TV" % pick(SSIDS)}, "ssid")
    # 10 masked credentials
    B("masked_credential", {"text": "Visa •••• %s expires 08/27 — the one for Netflix" % rs(DG, 4)}, "masked-card")
    B("masked_credential", {"text": "Card on file: **** **** **** %s" % rs(DG, 4)}, "masked-card")
    B("masked_credential", {"text": "Old OpenAI key sk-...%s was revoked on %s" % (rs(AL, 4), date_iso())}, "masked-token")
    B("masked_credential", {"text": "GitHub shows the token as ghp_************************************ (last used 3 days ago)"}, "masked-token")
    B("masked_credential", {"text": "AWS console: Access key AKIA************%s, status Inactive" % rs(B32, 4)}, "masked-aws")
    B("masked_credential", {"text": "password: ********  (hidden in the screenshot)"}, "masked-password")
    B("masked_credential", {"text": "Stripe dashboard lists the secret key as sk_live_...%s (hidden) — rotated last week" % rs(AL, 4)}, "masked-token")
    B("masked_credential", {"text": "IBAN DE** **** **** **** **%s 34" % rs(DG, 2)}, "masked-iban")
    B("masked_credential", {"text": "Vault token hvs.************ expired; ask the team for a new one"}, "masked-token")
    B("masked_credential", {"text": "CI log line: Authorization: Bearer *** (masked by GitHub)"}, "masked-ci")
    B("masked_credential", {"text": "Пароль: •••••••• (скрыт), логин ivan.petrov"}, "masked-password", lang="ru")
    # 11 placeholders / templates / env names
    B("placeholder", {"text": "OPENAI_API_KEY=<your-openai-key>\nANTHROPIC_API_KEY=<your-anthropic-key>"}, "placeholder-angle")
    B("placeholder", {"text": "export STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx"}, "placeholder-x")
    B("placeholder", {"text": "token: ${{ secrets.GITHUB_TOKEN }}"}, "placeholder-gha")
    B("placeholder", {"text": "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME"}, "placeholder-url")
    B("placeholder", {"text": "password: \"{{ vault_db_password }}\"  # ansible var"}, "placeholder-jinja")
    B("placeholder", {"text": "const key = process.env.MAPS_API_KEY ?? '';"}, "placeholder-env-read")
    B("placeholder", {"text": "Authorization: Bearer $TOKEN"}, "placeholder-shell")
    B("placeholder", {"text": "curl -u \"$JIRA_USER:$JIRA_API_TOKEN\" https://acme.atlassian.net/rest/api/3/myself"}, "placeholder-shell")
    B("placeholder", {"text": "api_key = getpass.getpass('API key: ')"}, "placeholder-getpass")
    B("placeholder", {"text": "Set HF_TOKEN to your Hugging Face token (Settings → Access Tokens → New token)."}, "placeholder-instructions")
    B("env_var_names", {"text": "Env vars the app needs: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, STRIPE_SECRET_KEY, SENTRY_DSN, DATABASE_URL"},
      "env-names")
    B("env_var_names", {"vars": ["GITHUB_TOKEN", "NPM_TOKEN", "SLACK_WEBHOOK_URL", "TWILIO_AUTH_TOKEN"], "where": "GitHub repo secrets"}, "env-names")
    B("placeholder", {"text": "DB_PASSWORD=${DB_PASSWORD:?must be set}  # the real value is injected by the deploy tool"}, "placeholder-template")
    # 12 documentation examples
    B("doc_example", {"text": "From the AWS docs: example access key AKIAIOSFODNN7EXAMPLE and secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
      "doc-aws-example")
    B("doc_example", {"text": "Stripe test card for the sandbox checkout: 4242 4242 4242 4242, any future date, any CVC"}, "doc-test-card")
    B("doc_example", {"text": "Test card from the payment gateway docs: 4111 1111 1111 1111 (always approved in test mode)"}, "doc-test-card")
    B("doc_example", {"text": "jwt.io sample token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},
      "doc-jwt-io")
    B("doc_example", {"text": "RFC 6238 test seed is the ASCII string \"12345678901234567890\"; expected TOTP at T=59 is 94287082"}, "doc-rfc-vector")
    B("doc_example", {"text": "The IBAN example from the ECB page: DE89 3704 0044 0532 0130 00"}, "doc-iban-example")
    # 13 public keys / certs / addresses
    B("public_key", {"text": "My SSH public key for the server: " + pubkey_ssh() + " me@laptop"}, "ssh-public")
    B("public_key", {"text": "authorized_keys line: " + pubkey_ssh("ssh-rsa") + " backup@nas"}, "ssh-public")
    B("public_key", {"text": pem_public("PUBLIC KEY", 294)}, "pem-public")
    B("public_key", {"text": "Root CA for the home lab:\n" + pem_public("CERTIFICATE", 900)}, "pem-certificate")
    B("public_key", {"text": "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + "\n".join(b64(rbytes(48)) for _ in range(12)) + "\n=" + rs(B64, 4) +
                            "\n-----END PGP PUBLIC KEY BLOCK-----"}, "pgp-public")
    B("public_key", {"text": "PGP fingerprint: %s" % " ".join(rs(HEXU, 4) for _ in range(10))}, "pgp-fingerprint")
    B("public_key", {"text": "age recipient (public): age1" + rs(BECH32, 58)}, "age-public")
    B("public_key", {"text": "[Peer]\nPublicKey = %s\nEndpoint = vpn.example.net:51820\nAllowedIPs = 10.8.0.0/24" % b64(rbytes(32))}, "wireguard-peer-public")
    B("public_key", {"text": "Stripe publishable key for the website (public by design): pk_live_51%s" % rs(AL, 97)}, "stripe-publishable")
    B("public_key", {"text": "Mapbox public token used in the web map: pk.%s.%s" % (b64url_nopad(json.dumps({"u": "garden" + rs(DG, 2), "a": rs(ALNUM_LO, 25)}, separators=(",", ":")).encode()), rs(B64URL, 22))},
      "mapbox-public")
    B("crypto_address", {"text": "Donation address: bc1q%s" % rs(BECH32, 38)}, "btc-address")
    B("crypto_address", {"text": "My ETH address for the refund: 0x%s" % rs(HEX + "ABCDEF", 40)}, "eth-address")
    B("public_key", {"text": "Langfuse public key pk-lf-%s (the secret one is in the vault, not here)" % uuid4()}, "langfuse-public")
    B("public_key", {"text": "Server host key fingerprint: SHA256:%s (ED25519)" % b64(rbytes(32)).rstrip("=")}, "ssh-fingerprint")
    # 14 password/PIN talk without secrets
    talk = ["Password policy at work: at least 14 characters, one number, one symbol, no reuse of the last 12 passwords.",
            "I changed my Amazon password this morning after the phishing email.",
            "My PIN is blocked, I need to call the bank on 0345 300 0000 tomorrow.",
            "To set up 2FA: open Google Authenticator, tap +, scan the QR code on the screen, then type the 6-digit code it shows.",
            "The password reset link expired, I'll request a new one tonight.",
            "Reminder: don't reuse the same password for email and banking.",
            "The spare house key is with the neighbours at number 14.",
            "Dad forgot his email password again; we reset it via his phone number.",
            "Bank says they will never ask for my PIN by phone — it was a scam call.",
            "Use a passphrase of 4+ random words for the password manager master password (don't store it anywhere).",
            "Switched from LastPass to Bitwarden; import worked, 214 items.",
            "I need to get a new PIN letter for the credit card, the old one was lost in the move.",
            "Turned on passkeys for Google and GitHub, so no passwords to remember there anymore.",
            "The SIM PIN prompt appeared after the update; the PIN and PUK are on the card holder in the desk drawer."]
    for i, t in enumerate(talk):
        B("password_talk", {"text": t}, "pw-talk")
    vague = ["Password hint for the old laptop: first pet + the year we got married (I still can't remember which format).",
             "Hint I set for the tablet: 'usual one, but with the street we grew up on' — only I know what that means.",
             "Netflix password is one of the three I usually use; the hint says 'beach'.",
             "Pista de la contraseña: el nombre del primer perro de la familia y un número (no me acuerdo cuál)."]
    for t in vague:
        B("password_hint_vague", {"text": t}, "pw-hint-vague", lang="es" if t.startswith("Pista") else "en")
    # 15 medical codes / health admin ids
    med = [("icd10", "Diagnosis codes on the referral: E11.65, I10, Z79.4"),
           ("loinc", "HbA1c (LOINC 4548-4) 7.2%%, LDL (LOINC 13457-7) 118 mg/dL, eGFR 74"),
           ("snomed", "SNOMED CT 44054006 (type 2 diabetes) and 38341003 (hypertension) in the discharge letter"),
           ("ndc", "Insulin pen NDC 0002-8215-01, 3 mL, 100 units/mL"),
           ("cpt", "Billed CPT 99213 and 36415; EOB claim number %s" % rs(DG, 13)),
           ("lab_values", "Blood test %s: WBC 6.8 x10^9/L, Hb 13.9 g/dL, PLT 241, Na 139, K 4.2, creatinine 88 µmol/L, TSH 2.31 mIU/L" % date_iso()),
           ("insurance_member_id", "Insurance member ID %s%s, group number %s, BIN 610014, PCN MEDDPRIME" % (rs(UP, 3), rs(DG, 9), rs(DG, 6))),
           ("prescription_number", "Rx #%s-%s refill at CVS, 2 refills left" % (rs(DG, 7), rs(DG, 5))),
           ("mrn", "MRN %s at St. Mary's; visit number %s" % (rs(DG, 8), rs(DG, 10))),
           ("nhs_number", "My NHS number is %s" % nhs_number()),
           ("medicare_mbi", "Mom's Medicare number (MBI) %s%s%s%s-%s%s%s-%s%s%s%s" % (R.randrange(1, 10), rs("ACDEFGHJKMNPQRTUVWXY", 1), rs("ACDEFGHJKMNPQRTUVWXY0123456789", 1), R.randrange(10),
                                                                             rs("ACDEFGHJKMNPQRTUVWXY", 1), rs("ACDEFGHJKMNPQRTUVWXY0123456789", 1), R.randrange(10),
                                                                             rs("ACDEFGHJKMNPQRTUVWXY", 1), rs("ACDEFGHJKMNPQRTUVWXY", 1), R.randrange(10), R.randrange(10))),
           ("appointment", "Cardiology follow-up confirmed, confirmation code %s, arrive 15 minutes early" % rs(ALNUM_UP, 7)),
           ("npi", "Dr. Alvarez's NPI is 1%s (on the claim form)" % rs(DG, 9)),
           ("vaccination", "Vaccination record: Comirnaty lot FN%s, 2nd dose %s; flu shot lot %s" % (rs(DG, 4), date_iso(), rs(ALNUM_UP, 6))),
           ("lab_values", "CGM export: 5.4, 6.1, 7.9, 9.2, 6.6 mmol/L; time in range 78%%"),
           ("insurance_member_id", "Krankenversichertennummer A%s, Kasse TK" % rs(DG, 9)),
           ("health_note", "Allergies: penicillin (rash), shellfish. Blood type A+. Pacemaker serial PM%s." % rs(DG, 8)),
           ("health_note", "Eyeglass prescription: OD -2.25 -0.50 x 180, OS -2.00 -0.75 x 170, PD 63"),
           ("health_note", "Carnet de santé : ordonnance n° %s, pharmacie du Centre, renouvellement le %s" % (rs(DG, 11), date_iso())),
           ("health_note", "检查报告编号 %s：空腹血糖 6.1 mmol/L，糖化血红蛋白 6.4%%" % rs(DG, 12)),
           ("health_note", "診察券番号 %s、次回予約 %s 10:30、お薬手帳を持参" % (rs(DG, 8), date_iso())),
           ("health_note", "رقم الملف الطبي %s، موعد المراجعة %s، تحليل السكر التراكمي 6.9" % (rs(DG, 7), date_iso())),
           ("health_note", "Номер полиса ОМС %s, участковый терапевт каб. 214" % rs(DG, 16))]
    med_lang = {"Carnet": "fr", "检查": "zh", "診察": "ja", "رقم": "ar", "Номер": "ru", "Kranken": "de"}
    for kind, t in med:
        lang = "en"
        for pfx, lg in med_lang.items():
            if t.startswith(pfx):
                lang = lg
        B(kind, {"text": t.replace("%%", "%")}, "med-" + kind.replace("_", "-"), lang=lang, family="health")
    # 16 bank identifiers without credentials
    B("iban", {"text": "Rent goes to IBAN %s (landlord Herr Becker)" % group4(iban("DE"))}, "iban", lang="en")
    B("iban", {"text": "RIB pour le remboursement : %s" % group4(iban("FR"))}, "iban", lang="fr")
    B("iban", {"text": "Kira için IBAN: %s" % group4(iban("TR"))}, "iban", lang="tr")
    B("iban", {"text": "מספר IBAN של החשבון: %s" % iban("IL")}, "iban", lang="he")
    B("iban", {"text": "رقم الآيبان للتحويل: %s" % iban("SA")}, "iban", lang="ar")
    B("iban", {"text": "IBAN для переказу: %s" % iban("UA")}, "iban", lang="uk")
    B("account_number", {"text": "Checking account %s, routing number 0210000%s (for payroll direct deposit)" % (rs(DG, 10), rs(DG, 2))}, "account-routing")
    B("account_number", {"text": "Sort code %s-%s-%s, account number %s" % (rs(DG, 2), rs(DG, 2), rs(DG, 2), rs(DG, 8))}, "sortcode")
    B("account_number", {"text": "SWIFT/BIC COBADEFFXXX for the transfer from abroad"}, "swift")
    B("account_number", {"text": "UPI ID for splitting the bill: ravi.sharma%s@okaxis" % rs(DG, 2)}, "upi", lang="en")
    B("account_number", {"text": "Số tài khoản Vietcombank: %s, chủ tài khoản NGUYEN VAN AN" % rs(DG, 13)}, "account", lang="vi")
    B("account_number", {"text": "银行卡开户行：招商银行上海分行，账户名：王芳（只记开户行，卡号不存）"}, "account", lang="zh")
    # 17 postal PIN codes and other non-secret "PIN/key/token"
    B("postal_code", {"text": "Grandparents' address: 14 MG Road, Bengaluru, Karnataka, PIN code 5600%s" % rs(DG, 2)}, "pin-code-postal")
    B("postal_code", {"text": "Delivery address PIN 1100%s, New Delhi — landmark: opposite the metro gate 3" % rs(DG, 2)}, "pin-code-postal")
    B("not_a_secret", {"text": "The key is under the flower pot by the back door — the neighbours know."}, "physical-key")
    B("not_a_secret", {"text": "Key lime pie recipe: 4 egg yolks, 400 g condensed milk, 120 ml lime juice, 200 g biscuits, 80 g butter."}, "key-word")
    B("not_a_secret", {"text": "Our team's API key rotation policy: every 90 days, announced in #infra a week before."}, "policy")
    B("not_a_secret", {"text": "Piano: Chopin Nocturne Op. 9 No. 2 in E-flat major; key signature three flats."}, "key-word")
    B("not_a_secret", {"text": "Token of appreciation for the teacher: a plant and a card signed by the class."}, "token-word")
    B("not_a_secret", {"text": "Bus tokens for the fair cost €2 each, buy 10 for €18."}, "token-word")
    # 18 ids that look random
    B("random_id", {"text": "Shared Drive folder https://drive.google.com/drive/folders/1%s (family photos 2024)" % rs(B64URL, 32)}, "gdrive-id")
    B("random_id", {"text": "Song for the wedding: https://open.spotify.com/track/%s" % rs(AL, 22)}, "spotify-id")
    B("random_id", {"text": "Workout video https://www.youtube.com/watch?v=%s&t=95s" % rs(B64URL, 11)}, "youtube-id")
    B("random_id", {"text": "Meeting link: https://meet.google.com/%s-%s-%s" % (rs(LO, 3), rs(LO, 4), rs(LO, 3))}, "meet-code")
    B("random_id", {"text": "Zoom meeting ID %s %s %s (passcode will be sent by the school)" % (rs(DG, 3), rs(DG, 4), rs(DG, 4))}, "zoom-id")
    B("random_id", {"text": "Firebase project id garden-tracker-%s, app id 1:%s:web:%s" % (rs(HEX, 5), rs(DG, 12), rs(HEX, 22))}, "firebase-ids")
    B("random_id", {"text": "Notion page https://www.notion.so/Holiday-plan-%s" % rs(HEX, 32)}, "notion-url")
    B("random_id", {"text": "Steam friend code %s, Nintendo friend code SW-%s-%s-%s" % (rs(DG, 9), rs(DG, 4), rs(DG, 4), rs(DG, 4))}, "friend-codes")
    # 19 personal ids
    B("personal_id", {"text": "Passport number %s%s, expires 2031-04-18" % (rs(UP, 2), rs(DG, 7))}, "passport")
    B("personal_id", {"text": "Frequent flyer Miles & More %s, status Frequent Traveller" % rs(DG, 15)}, "frequent-flyer")
    B("personal_id", {"text": "Library card number %s (the PIN is the default birthday one, not stored)" % rs(DG, 14)}, "library-card")
    B("personal_id", {"text": "Driver licence number %s%s, class B" % (rs(UP, 1), rs(DG, 8))}, "driver-licence")
    B("personal_id", {"text": "Tax ID (Steuer-ID) %s for the Elster form" % " ".join([rs(DG, 2), rs(DG, 3), rs(DG, 3), rs(DG, 3)])}, "tax-id", lang="de")
    # 20 lookalike encodings and formats
    B("encoded_benign", {"text": "base64 of my shopping list: " + b64("milk, eggs, bread, 2 lemons, coffee beans".encode())}, "base64-benign")
    B("encoded_benign", {"text": "QR payload on the flyer: https://school.example.org/summer-fair-2025?utm_source=flyer&utm_medium=print"}, "qr-url")
    B("encoded_benign", {"text": "gzip+base64 of the error log: " + enc_gzip_b64("2025-03-04 10:01:22 ERROR disk /dev/sda1 is 97% full\n2025-03-04 10:01:23 WARN retrying backup in 60s\n")},
      "gzip-benign")
    B("encoded_benign", {"text": "Palette for the website: #1E3A5F #F4A261 #2A9D8F #E9C46A #264653"}, "hex-colors")
    B("encoded_benign", {"text": "Spoiler (rot13): " + rot13("The butler did it, in the library, with the candlestick.")}, "rot13-benign")
    B("encoded_benign", {"text": "Search link: https://www.google.com/search?q=%E7%8C%AB%E3%81%AE%E9%A3%BC%E3%81%84%E6%96%B9&hl=ja"}, "percent-benign")
    B("encoded_benign", {"text": "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="}, "datauri-png")
    B("encoded_benign", {"text": "HTML from the newsletter: <p>Caf&eacute; opens at 8&nbsp;am &mdash; bring your own cup &#9749;</p>"}, "html-entities-benign")
    B("encoded_benign", {"text": "{\"greeting\": \"\\u3053\\u3093\\u306b\\u3061\\u306f\", \"name\": \"\\u82b1\\u5b50\"}"}, "json-escape-benign", lang="ja")
    B("structured_benign", {"vcard": "BEGIN:VCARD\nVERSION:3.0\nFN:Dr. Amina Haddad\nORG:Riverside Pediatrics\nTEL;TYPE=WORK:+1 555 0139 220\nEMAIL:front.desk@riverside-peds.example\nADR;TYPE=WORK:;;200 River Rd;Springfield;;01103;USA\nEND:VCARD"},
      "vcard-benign")
    B("structured_benign", {"text": "BEGIN:VEVENT\nDTSTART:20250612T083000Z\nSUMMARY:Physio (knee)\nLOCATION:Physio Plus\\, Hauptstr. 5\nDESCRIPTION:Booking ref PX-%s. Bring towel and referral.\nEND:VEVENT" % rs(DG, 6)},
      "ical-benign")
    B("structured_benign", {"sheet": "Budget", "B14": "=SUM(B2:B13)", "C14": "=AVERAGE(C2:C13)", "D2": "=IF(B2>C2,\"over\",\"ok\")"}, "excel-benign")
    B("structured_benign", {"text": "Blood glucose this week", "readings": [5.4, 6.1, 7.2, 5.9, 6.6, 8.0, 6.3]}, "numbers-list-benign")
    B("structured_benign", {"text": "Lottery numbers we always play", "numbers": [3, 11, 19, 27, 34, 42], "bonus": 7}, "numbers-list-benign")
    B("structured_benign", {"text": "〒１５０－０００１ 東京都渋谷区神宮前１－２－３ ハイツ青山２０１号室"}, "fullwidth-address", lang="ja")
    B("structured_benign", {"text": "رقم هاتف العيادة: ٠١٠٢٣٤٥٦٧٨٩، وموعد الطبيب يوم الأحد الساعة ٤ عصرًا"}, "arabic-digits-phone", lang="ar")
    B("structured_benign", {"text": "شماره تلفن مطب: ۰۲۱-۸۸۷۷۶۶۵۵، ساعت ۱۷ تا ۲۰"}, "persian-digits-phone", lang="fa")
    B("structured_benign", {"text": "फ़ोन नंबर: ९८७६५ ४३२१०, पता: मकान नं. ४२, सेक्टर ७"}, "devanagari-digits-phone", lang="hi")
    B("structured_benign", {"text": "Reading plan: Book II, chapters IV–IX, then Book III chapter I; Henry VIII documentary on Sunday."}, "roman-benign")
    B("structured_benign", {"text": "My surname, spelled for the pharmacy: capital K, lowercase o, w, a, l, s, k, i — Kowalski"}, "spelled-surname")
    B("structured_benign", {"text": "Phone number in words for grandpa: zero seven nine one one, five five five, three two one"}, "phone-in-words")
    B("structured_benign", {"text": "The first half of the season was rough, but the second half they won 9 of 11 games."}, "halves-benign")
    B("structured_benign", {"text": "מספר הזמנה: ‎%s‏ (סימני כיוון מהעתקה מהאתר)" % rs(DG, 8)}, "bidi-marks-benign", lang="he")
    B("structured_benign", {"text": "<form><label>Password</label><input type=\"password\" name=\"pw\" placeholder=\"Enter password\" autocomplete=\"current-password\"></form>"},
      "html-form-empty")
    B("structured_benign", {"text": "| Time | Medicine | Dose |\n|---|---|---|\n| 08:00 | Metformin | 500 mg |\n| 20:00 | Atorvastatin | 20 mg |"},
      "markdown-table-benign")
    B("structured_benign", {"text": "SELECT id, email, last_login FROM users WHERE last_login < NOW() - INTERVAL '90 days';"}, "sql-benign")
    B("structured_benign", {"text": "Address split for the form", "street": "Calle Mayor", "number": "27", "floor": "3º B", "postcode": "28013", "city": "Madrid"},
      "split-fields-benign", lang="es")
    B("structured_benign", {"text": "GPS of the trailhead: 46.5584° N, 7.8354° E; elevation 1,034 m"}, "gps")
    B("structured_benign", {"text": "Chess game: 1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6"}, "chess")
    B("structured_benign", {"text": "Crontab for the backup: 30 2 * * 1-5 /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1"}, "cron")
    B("structured_benign", {"text": "Emoji code for the family group: 🍕🎂🎉 means pizza night at grandma's"}, "emoji-benign")
    B("structured_benign", {"text": "Sudoku row I'm stuck on: 5 3 _ _ 7 _ _ _ _ / 6 _ _ 1 9 5 _ _ _"}, "sudoku")
    B("structured_benign", {"text": "Steps this week: [8210, 10433, 6120, 12001, 9034, 4410, 15022]"}, "numbers-benign")
    B("structured_benign", {"text": "Unix timestamps in the log: 1718032211, 1718035811; permissions 0644 and 0755"}, "numbers-benign")
    B("structured_benign", {"text": "Recipe scaled x2.5: 625 g flour, 10 g salt, 437 ml water, 7.5 g yeast"}, "numbers-benign")
    B("structured_benign", {"text": "Stock watchlist: NVDA 131.38, ASML 702.15, 7203.T 2,615 JPY"}, "numbers-benign")
    B("structured_benign", {"text": "Morse practice: ... --- ... means SOS; -.-. --.- is CQ"}, "morse-benign")
    B("structured_benign", {"text": "Backwards word puzzle from the kids' magazine: 'racecar' and 'level' read the same backwards"}, "reversed-benign")
    B("structured_benign", {"text": "Medium article https://medium.com/@ana/how-we-moved-to-lisbon-%s" % rs(HEX, 12)}, "slug-id")
    B("structured_benign", {"text": "HTTP header check: Strict-Transport-Security: max-age=63072000; includeSubDomains; preload; ETag: W/\"%s\"" % rs(HEX, 32)},
      "etag")
    B("structured_benign", {"text": "Cookie consent id: %s (from the site's privacy settings page)" % uuid4()}, "consent-id")
    B("structured_benign", {"text": "Hotel Wi-Fi: network HOTEL_GUEST, login with your room number and surname on the splash page"}, "hotel-no-pw")

# ---------------------------------------------------------------- long benign documents
def gen_benign_long():
    # shell history without secrets
    for k in range(6):
        cmds = ["cd ~/code/%s" % pick(PROJECTS), "git status", "git checkout -b fix/%s" % pick(["login", "typo", "timezone"]),
                "git commit -am 'fix date parsing'", "git push -u origin HEAD", "python -m venv .venv", "source .venv/bin/activate",
                "pip install -r requirements.txt", "pytest -q -k 'not slow'", "docker compose up -d", "docker logs -f app --tail 100",
                "kubectl get pods -n staging", "kubectl describe pod api-%s-%s" % (rs(ALNUM_LO, 9), rs(ALNUM_LO, 5)),
                "export AWS_PROFILE=personal", "aws s3 ls s3://family-photos-%s/2024/" % rs(DG, 4), "gh pr create --fill",
                "gpg --list-keys", "ssh-keygen -t ed25519 -C 'me@laptop'", "cat ~/.ssh/id_ed25519.pub", "npm ci", "npm run test",
                "export OPENAI_API_KEY=$(op read 'op://Private/OpenAI/credential')", "vault login -method=oidc",
                "export GITHUB_TOKEN=$(gh auth token)", "history | grep ssh", "sha256sum ubuntu.iso", "ping -c 3 %s" % ipv4_private(),
                "brew install ripgrep", "git log --oneline -5"]
        B("shell_history", {"text": "~/.zsh_history (cleaned):\n" + "\n".join(sample(cmds, 16))}, "long-shell-history")
    # k8s manifests referencing secrets
    for k in range(5):
        name = pick(PROJECTS)
        txt = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  labels: {app: %s}\nspec:\n  replicas: 3\n  selector:\n"
               "    matchLabels: {app: %s}\n  template:\n    metadata:\n      labels: {app: %s}\n    spec:\n      containers:\n"
               "        - name: app\n          image: ghcr.io/acme/%s@sha256:%s\n          env:\n            - name: DATABASE_PASSWORD\n"
               "              valueFrom:\n                secretKeyRef: {name: %s-db, key: password}\n            - name: STRIPE_SECRET_KEY\n"
               "              valueFrom:\n                secretKeyRef: {name: stripe, key: secret}\n            - name: LOG_LEVEL\n"
               "              value: info\n          readinessProbe:\n            httpGet: {path: /healthz, port: 8080}\n"
               "          resources:\n            requests: {cpu: 100m, memory: 128Mi}\n            limits: {cpu: 500m, memory: 512Mi}\n" % (
                   name, name, name, name, name, sha256hex(), name))
        B("k8s_manifest", {"text": txt}, "long-k8s-secretref")
    # docker compose with variables
    for k in range(4):
        txt = ("services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: ${POSTGRES_USER}\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n"
               "      POSTGRES_DB: app\n    volumes: [\"pgdata:/var/lib/postgresql/data\"]\n  app:\n    image: ghcr.io/acme/%s:%s\n    env_file: .env\n"
               "    secrets: [stripe_key]\n    ports: [\"8080:8080\"]\nsecrets:\n  stripe_key:\n    file: ./secrets/stripe_key.txt\nvolumes:\n  pgdata: {}\n"
               "# values live in .env (not committed) and ./secrets/*.txt (chmod 600)\n" % (pick(PROJECTS), pick(["1.4.2", "2.0.0-rc.1", "latest"])))
        B("docker_compose", {"text": txt}, "long-compose-vars")
    # CI logs with masks
    for k in range(6):
        sha = sha1hex()
        lines = ["2025-03-14T08:14:01.%07dZ Current runner version: '2.321.0'" % R.randrange(10**7),
                 "2025-03-14T08:14:01.5000000Z Operating System: Ubuntu 24.04.1 LTS",
                 "2025-03-14T08:14:02.1000000Z ##[group]Run actions/checkout@v4",
                 "2025-03-14T08:14:02.1100000Z   token: ***",
                 "2025-03-14T08:14:03.0000000Z HEAD is now at %s Merge pull request #%d from acme/fix/%s" % (sha[:7], R.randrange(100, 999), pick(["tz", "login", "retry"])),
                 "2025-03-14T08:14:05.1100000Z ##[group]Run docker/login-action@v3",
                 "2025-03-14T08:14:05.1110000Z   username: acme-bot",
                 "2025-03-14T08:14:05.1120000Z   password: ***",
                 "2025-03-14T08:14:06.4000000Z Login Succeeded!",
                 "2025-03-14T08:14:30.0000000Z #12 exporting layers 4.1s done",
                 "2025-03-14T08:14:31.2000000Z #12 writing image sha256:%s done" % sha256hex(),
                 "2025-03-14T08:14:33.0000000Z Deploying build %s to production (request id %s)" % (sha[:12], uuid4()),
                 "2025-03-14T08:14:40.0000000Z ✓ 214 tests passed, 3 skipped (41.2s)"]
        B("ci_log", {"text": "CI log excerpt:\n" + "\n".join(lines)}, "long-ci-masked")
    # notebooks reading secrets safely
    for k in range(5):
        val = {"cells": [{"cell_type": "markdown", "source": ["# Sleep data analysis\n", "Exported from the watch app (CSV), 2024-01 to 2025-02.\n"]},
                         {"cell_type": "code", "execution_count": 1, "source": ["import os, getpass\n", "import pandas as pd\n",
                                                                                "token = os.environ.get('OURA_TOKEN') or getpass.getpass('Oura token: ')\n",
                                                                                "df = pd.read_csv('sleep.csv', parse_dates=['date'])\n"], "outputs": []},
                         {"cell_type": "code", "execution_count": 2, "source": ["df.describe()\n"],
                          "outputs": [{"output_type": "execute_result", "data": {"text/plain": [
                              "       hours   deep_min   hr_avg\n", "count  %d  %d  %d\n" % (R.randrange(300, 400), R.randrange(300, 400), R.randrange(300, 400)),
                              "mean   7.12   81.4   54.9\n", "std    0.88   19.2    3.1\n"]}}]},
                         {"cell_type": "code", "execution_count": 3, "source": ["df.groupby(df.date.dt.month).hours.mean().round(2)\n"],
                          "outputs": [{"output_type": "stream", "name": "stdout", "text": ["1  6.94\n", "2  7.05\n", "3  7.31\n"]}]}]}
        B("notebook", val, "long-notebook-env")
    # terraform plan with sensitive values
    for k in range(4):
        txt = ("Terraform will perform the following actions:\n\n  # aws_db_instance.main will be updated in-place\n  ~ resource \"aws_db_instance\" \"main\" {\n"
               "        id                      = \"db-%s\"\n      ~ instance_class          = \"db.t3.micro\" -> \"db.t3.small\"\n"
               "        password                = (sensitive value)\n        username                = \"app\"\n"
               "        # (41 unchanged attributes hidden)\n    }\n\n  # random_password.api will be created\n  + resource \"random_password\" \"api\" {\n"
               "      + id          = (known after apply)\n      + length      = 32\n      + result      = (sensitive value)\n      + special     = true\n    }\n\n"
               "Plan: 1 to add, 1 to change, 0 to destroy.\n\nChanges to Outputs:\n  ~ db_endpoint = \"main.%s.eu-west-1.rds.amazonaws.com:5432\"\n"
               "  + api_secret  = (sensitive value)\n" % (rs(ALNUM_UP, 26), rs(ALNUM_LO, 12)))
        B("terraform_plan", {"text": txt}, "long-terraform-sensitive")
    # Postman with variables
    for k in range(4):
        coll = {"info": {"_postman_id": uuid4(), "name": "Weather side project",
                         "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
                "item": [{"name": "Forecast", "request": {"method": "GET", "url": {"raw": "{{baseUrl}}/v1/forecast?lat=52.52&lon=13.40&appid={{apiKey}}",
                                                                                  "host": ["{{baseUrl}}"], "path": ["v1", "forecast"]}}}],
                "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{accessToken}}", "type": "string"}]},
                "variable": [{"key": "baseUrl", "value": "https://api.openweathermap.org/data/2.5"}, {"key": "apiKey", "value": ""},
                             {"key": "accessToken", "value": ""}]}
        B("postman_collection", {"postman_collection": coll, "note": "secrets live in the Postman vault, not in the collection"}, "long-postman-vars")
    # HAR with redaction
    for k in range(4):
        entry = {"request": {"method": "POST", "url": "https://api.%s.example/graphql" % pick(["shop", "bank", "school"]),
                             "headers": [{"name": "authorization", "value": "[REDACTED]"}, {"name": "cookie", "value": "[REDACTED]"},
                                         {"name": "x-request-id", "value": uuid4()}, {"name": "content-type", "value": "application/json"},
                                         {"name": "user-agent", "value": "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/126.0"}],
                             "postData": {"mimeType": "application/json", "text": json.dumps({"operationName": "GetOrders", "variables": {"first": 20}})}},
                 "response": {"status": 500, "headers": [{"name": "x-amzn-trace-id", "value": "Root=1-%s-%s" % (rs(HEX, 8), rs(HEX, 24))}],
                              "content": {"text": "{\"errors\":[{\"message\":\"Internal server error\",\"extensions\":{\"code\":\"INTERNAL\"}}]}"}}}
        B("har_fragment", {"text": "HAR for the support ticket (sensitive headers redacted by the export tool)", "har_entry": entry}, "long-har-redacted")
    # password manager export with passwords stripped / passkeys
    for k in range(3):
        rows = pm_rows(5, with_pw=False)
        lines = ["name,url,username,password,note"] + [",".join([n, u, usr, "", "passkey" if R.random() < 0.5 else "see vault"]) for n, u, usr, _ in rows]
        B("password_manager_export", {"text": "Account inventory (passwords deliberately removed before pasting):\n" + "\n".join(lines)}, "long-pm-stripped")
    # router status page (no secrets)
    for k in range(3):
        clients = "\n".join("  %-18s %-16s %s" % (pick(["iPhone-Anna", "Galaxy-S23", "LivingRoom-TV", "HP-LaserJet", "Nintendo-Switch", "ESP-garden"]),
                                                  ipv4_private(), mac()) for _ in range(6))
        txt = ("FRITZ!Box 7590 — Overview\nInternet: connected since %s, 250 Mbit/s ↓ / 40 Mbit/s ↑\nPublic IPv4: %s\nIPv6 prefix: 2a02:810d:%s::/56\n"
               "Wi-Fi: on, 2.4 GHz + 5 GHz, network name %s\nFRITZ!OS 7.59, serial %s\nDHCP clients:\n%s\nEvents: 03.03.25 04:12 Internet connection re-established" % (
                   date_iso(), ipv4_public(), rs(HEX, 4), pick(SSIDS), rs(DG, 4) + "." + rs(DG, 3) + "." + rs(DG, 2) + "." + rs(DG, 3), clients))
        B("router_status", {"text": txt}, "long-router-status")
    # IoT device info pages
    for k in range(4):
        txt = ("Device info — %s\nModel: %s\nSerial: %s\nFirmware: %s\nHardware rev: %s\nMAC (Wi-Fi): %s\nMAC (BLE): %s\nIP: %s\nRSSI: -%d dBm\n"
               "Cloud: connected (region eu-central)\nDevice ID: %s\nLast OTA: %s\nUptime: %d h\nBattery: %d%%" % (
                   pick(["Front door lock", "Baby monitor", "Garden camera", "Smart plug (washing machine)"]),
                   pick(["Nuki Smart Lock 4.0 Pro", "Owlet Cam 2", "Reolink Argus 3", "Shelly Plug S"]), rs(ALNUM_UP, 12),
                   "%d.%d.%d" % (R.randrange(1, 5), R.randrange(0, 20), R.randrange(0, 20)), "r%d" % R.randrange(1, 6), mac(), mac(),
                   ipv4_private(), R.randrange(40, 80), uuid4(), date_iso(), R.randrange(10, 9000), R.randrange(5, 100)))
        B("iot_device_info", {"text": txt}, "long-iot-info")
    # medical portal welcome emails without password
    portal = [("en", "Welcome to the Riverside Health patient portal!\n\nYour account has been created for %s. To finish setting up, click the "
               "activation link below and choose your own password. The link is valid for 7 days.\n\nhttps://portal.riverside-health.example/activate\n\n"
               "Your medical record number (MRN) is %s — you will need it if you call us. We will never ask for your password by phone or email.\n\n"
               "Upcoming: Annual physical with Dr. Chen on %s at %s. Please bring a list of current medications."),
              ("de", "Willkommen im Patientenportal!\n\nFür %s wurde ein Zugang angelegt. Bitte legen Sie über den Link in der separaten "
               "Aktivierungs-E-Mail ein eigenes Passwort fest. Ihre Patientennummer lautet %s.\n\nIhr nächster Termin: %s um %s Uhr, "
               "Innere Medizin, Raum 2.14. Bitte bringen Sie Ihre Versichertenkarte und den Medikationsplan mit."),
              ("es", "¡Bienvenido al Portal del Paciente!\n\nHemos creado una cuenta para %s. Para activarla, use el enlace que recibirá por SMS y "
               "elija su contraseña. Su número de historia clínica es %s.\n\nPróxima cita: %s a las %s, consulta de endocrinología, planta 3."),
              ("fr", "Bienvenue sur votre espace patient !\n\nUn compte a été créé pour %s. Pour l'activer, cliquez sur le lien reçu par e-mail et "
               "choisissez votre mot de passe. Votre numéro de dossier est %s.\n\nProchain rendez-vous : le %s à %s, cardiologie, bâtiment B.")]
    for lang, t in portal:
        fn, ln = person()
        B("portal_welcome", {"text": t % (fn + " " + ln, rs(DG, 8), date_iso(), time_hm())}, "long-medportal-nopw", lang=lang)
    # bank letters without PIN
    for lang, t in [("en", "Your new card is on its way\n\nDear %s,\n\nyour replacement Visa Debit card ending %s has been sent and should arrive "
                     "within 5 working days. Your PIN stays the same. If you've forgotten it, you can view it in the app under Card > View PIN. "
                     "For security we will never send your PIN and card in the same envelope, and we will never ask you to tell us your PIN."),
                    ("de", "Ihre neue Girocard\n\nSehr geehrte/r %s,\n\nanbei erhalten Sie Ihre neue Karte mit der Endnummer %s. Ihre bisherige PIN "
                     "bleibt gültig. Eine neue PIN können Sie in der Filiale oder im Online-Banking anfordern; sie wird Ihnen separat zugeschickt."),
                    ("it", "Gentile %s,\n\nla nuova carta che termina con %s è stata spedita. Il PIN le verrà inviato con una lettera separata "
                     "nei prossimi giorni. Non comunichi mai il PIN a nessuno, neanche al personale della banca.")]:
        fn, ln = person()
        B("bank_letter", {"text": "Scanned letter:\n" + t % (fn + " " + ln, rs(DG, 4))}, "long-bankletter-nopin", lang=lang)
    # SIM letters without PIN/PUK
    for lang, t in [("en", "Welcome to %s! Your new number is +44 7%s. ICCID %s. Your PIN and PUK are printed under the scratch-off panel on "
                     "the SIM holder — keep them safe. Activate online at %s.example/activate, top-up from £10. Customer service: 191 from your phone."),
                    ("es", "¡Bienvenido a %s! Tu número es 6%s. ICCID %s. El PIN y el PUK están en la tarjeta de plástico, bajo la zona para rascar. "
                     "Activa tu línea en %s.example/activar.")]:
        op = pick(["Vodafone", "Giffgaff", "Orange"])
        B("sim_letter", {"text": t % (op, rs(DG, 8), "89" + rs(DG, 17), op.lower())}, "long-simletter-nopin", lang=lang)
    # hotel card open network
    for lang, t in [("en", "Welcome to Alpine Lodge! Wi-Fi: AlpineLodge_Free (open network, accept the terms on the splash page). Breakfast 7-10 in the "
                     "Stube, sauna 16-21, ski room in the basement (your locker number is your room number). Checkout by 10:30. Reception: dial 9."),
                    ("th", "ยินดีต้อนรับ! Wi-Fi: Seaside_Free เป็นเครือข่ายเปิด ไม่ต้องใช้รหัสผ่าน อาหารเช้า 06:30-10:00 น. สระว่ายน้ำเปิด 07:00-20:00 น. "
                     "เช็กเอาต์ 12:00 น. ติดต่อแผนกต้อนรับกด 0")]:
        B("hotel_info", {"text": t}, "long-hotel-open", lang=lang)
    # school newsletters
    for k in range(3):
        kid = pick(["Emma", "Noah", "Mia", "Leo"])
        txt = ("Class 4B newsletter, week %d\n\nDear parents, this week we start the rainforest project. %s's group is studying frogs. "
               "PE moves to Wednesday because of the gym repairs. Please send a labelled water bottle every day. The school app now has a "
               "homework section; log in with the parent account you already have (if you forgot your password, use 'Reset password' on the "
               "login page — the office cannot see or send passwords). Parent evening: %s, 17:00-19:30, book a slot via the app. "
               "Lunch menu and the trip consent form (deadline Friday) are attached. Thank you! Ms. Okafor" % (R.randrange(2, 40), kid, date_iso()))
        B("school_newsletter", {"text": txt}, "long-school-nopw")
    # elderly parents care notes
    for lang, t in [("en", "Dad's care notes (for whoever is staying this week):\n- Meds: metformin 500 mg with breakfast and dinner, ramipril 5 mg morning, "
                     "atorvastatin 20 mg night. Pill organiser is on the kitchen windowsill.\n- Blood sugar: check before breakfast, write it in the notebook; "
                     "call Dr. Hughes (01632 960 411) if over 15 twice.\n- He can't remember the TV remote: Netflix is the red button.\n- Physio Tue 10:00, "
                     "taxi booked, reference %s.\n- His NHS number is in the blue folder. Bin day Monday."),
                    ("es", "Notas para cuidar a la abuela:\n- Pastillas: metformina 850 mg en la comida, enalapril 10 mg por la mañana, omeprazol 20 mg en ayunas.\n"
                     "- Tensión: medir por la mañana y apuntar en la libreta.\n- Centro de salud: cita con la enfermera el martes a las 9:30, referencia %s.\n"
                     "- Le gusta ver la novela a las 16:00 y dar un paseo corto por la tarde."),
                    ("uk", "Нотатки для догляду за мамою:\n- Ліки: метформін 500 мг після сніданку та вечері, еналаприл 10 мг зранку.\n"
                     "- Тиск міряти зранку і записувати в зошит.\n- Сімейний лікар приймає у вівторок о 10:00, номер запису %s.\n"
                     "- Вона любить гуляти в парку після обіду."),
                    ("ja", "母の介護メモ：\n・薬：朝食後アムロジピン5mg、夕食後メトホルミン500mg\n・血圧は毎朝測ってノートに記録\n"
                     "・訪問看護は毎週火曜10時、予約番号%s\n・デイサービスは月・木、送迎は8時半"),
                    ("ko", "아버지 돌봄 메모:\n- 약: 아침 식후 암로디핀 5mg, 저녁 식후 메트포르민 500mg\n- 혈압은 매일 아침 재고 수첩에 기록\n"
                     "- 내과 예약 화요일 10시, 예약번호 %s\n- 산책은 오후 4시쯤 짧게")]:
        B("care_notes", {"text": t % rs(ALNUM_UP, 7)}, "long-carenotes", lang=lang)
    # OCR boarding pass / prescription label
    B("boarding_pass", {"text": "OCR of boarding pass:\nBOARDING PASS   LUFTHANSA\nNAME  %s/%s MR\nFROM FRANKFURT  TO LISBON\nFLIGHT LH1166  DATE 14MAR  "
                                "GATE A26\nSEAT 23C  GROUP 4  SEQ 112\nBOOKING REF %s\nETKT 220%s\nBoarding 08:35  Departure 09:05\n|||| ||| | |||| || ||| |" % (
                                    pick(LAST).upper(), pick(FIRST).upper(), rs(ALNUM_UP, 6), rs(DG, 10))}, "long-ocr-boardingpass")
    B("prescription_label", {"text": "Photo of pill bottle (OCR):\nRIVERSIDE PHARMACY  (555) 013-9988\nRx# %s   Date Filled: %s\nPATIENT: %s %s\n"
                                     "METFORMIN HCL 500 MG TAB\nTAKE 1 TABLET BY MOUTH TWICE DAILY WITH MEALS\nQTY: 60   REFILLS: 3\nNDC 00093-1048-01\n"
                                     "Dr. L. Chen   DISCARD AFTER: %s" % (rs(DG, 7), date_iso(), pick(FIRST).upper(), pick(LAST).upper(), date_iso())},
      "long-ocr-rxlabel")
    B("receipt", {"text": "Receipt OCR:\nREWE Markt GmbH\nBananen 1,29\nVollmilch 1,15\nBrot 2,49\nKaffee 6,99\nSUMME EUR 11,92\nGeg. Girocard 11,92\n"
                          "Kartenzahlung girocard  Nr. ############%s  Terminal-ID %s  TA-Nr. %s  Genehmigungs-Nr. %s\nVielen Dank für Ihren Einkauf" % (
                              rs(DG, 4), rs(DG, 8), rs(DG, 6), rs(DG, 6))}, "long-ocr-receipt", lang="de")
    # emails: order confirmation / security alerts
    emails = ["Subject: Your order has shipped!\n\nHi %s, good news — order #%s is on its way. Tracking: 1Z%s. Estimated delivery: %s. "
              "Items: Wireless headphones (black) x1, USB-C cable 2m x2. Questions? Reply to this email or visit our help centre. "
              "You can manage your order at https://shop.example/orders/%s",
              "Subject: Your password was changed\n\nHi %s, the password for your account was changed on %s from a Chrome browser on Windows "
              "(approximate location: Lyon, France). If this was you, you can ignore this email. If not, reset your password immediately "
              "and review your recent activity. Request ID: %s. We will never ask you for your password.",
              "Subject: Two-step verification turned on\n\nHi %s, 2-Step Verification was turned on for your Google Account on %s. From now on "
              "you'll sign in with your password and a code from Google Authenticator. You can add backup options (phone, backup codes) "
              "in your account settings. Reference: %s",
              "Subject: New sign-in to your account\n\nHi %s, we noticed a new sign-in on %s from an iPhone in Madrid. If this was you, no action "
              "is needed. If you don't recognize this activity, secure your account. Event id %s.",
              "Subject: Appointment reminder\n\nDear %s, this is a reminder of your appointment on %s with Dr. Patel (dermatology). "
              "Confirmation code %s. Please arrive 10 minutes early and bring your insurance card. To cancel, call 555-0134 at least 24 hours in advance.",
              "Subject: Your statement is ready\n\nDear %s, your statement for the period ending %s is now available in online banking. "
              "Account ending %s. For your security, we never include full account numbers, PINs or passwords in emails."]
    for i, t in enumerate(emails):
        fn, ln = person()
        n = t.count("%s")
        args = [fn, date_iso() if i else rs(DG, 9), rs(ALNUM_UP, 16), date_iso(), rs(HEX, 12)][:n]
        if i in (1, 2, 3):
            args = [fn, date_iso(), uuid4()]
        elif i == 4:
            args = [fn, date_iso(), rs(ALNUM_UP, 7)]
        elif i == 5:
            args = [fn, date_iso(), rs(DG, 4)]
        B("email", {"text": t % tuple(args)}, "long-email-benign")
    # chat exports without secrets
    for lang, lines in [("en", ["[14/04/2025, 18:02] Sis: dinner sunday at mum's?", "[14/04/2025, 18:03] Me: yes! I'll bring dessert",
                                "[14/04/2025, 18:05] Sis: she changed the wifi password btw, ask her when you're there",
                                "[14/04/2025, 18:06] Me: ok 👍 also her new GP appointment is tuesday 10:40",
                                "[14/04/2025, 18:07] Sis: I'll drive her. order number for the walker is 113-%s-%s" % (rs(DG, 7), rs(DG, 7)),
                                "[14/04/2025, 18:09] Me: thanks!! see you sunday"]),
                        ("pt", ["[02/05/25 20:11] Mãe: filha, o código de rastreio da encomenda é %s" % ("NL" + rs(DG, 9) + "BR"),
                                "[02/05/25 20:12] Eu: obrigada mãe! chega quando?", "[02/05/25 20:13] Mãe: dizem que até sexta",
                                "[02/05/25 20:15] Mãe: e não esquece da consulta do pai na terça às 9h"]),
                        ("tr", ["[03.05.2025 21:10] Abla: yarın hastane randevusu saat 10:30, randevu no %s" % rs(DG, 10),
                                "[03.05.2025 21:11] Ben: tamam, ben götürürüm", "[03.05.2025 21:12] Abla: şifreni değiştirdin mi e-devlet için?",
                                "[03.05.2025 21:13] Ben: evet dün değiştirdim, sorun yok"]),
                        ("vi", ["[05/05/2025 19:30] Mẹ: con ơi mã đơn hàng Shopee là %s" % rs(DG, 14), "[05/05/2025 19:31] Con: dạ con thấy rồi",
                                "[05/05/2025 19:33] Mẹ: thứ Bảy nhớ về ăn cơm nhé", "[05/05/2025 19:34] Con: dạ vâng"])]:
        B("chat_export", {"text": "WhatsApp export:\n" + "\n".join(lines)}, "long-chat-benign", lang=lang)
    # lab reports
    for k in range(4):
        vals = [("Glucose (fasting)", "%.1f" % R.uniform(4.5, 7.5), "mmol/L", "3.9–5.5"), ("HbA1c", "%.1f" % R.uniform(5.0, 8.0), "%", "<5.7"),
                ("Total cholesterol", "%.1f" % R.uniform(3.8, 6.9), "mmol/L", "<5.2"), ("LDL", "%.1f" % R.uniform(1.8, 4.5), "mmol/L", "<3.0"),
                ("Creatinine", "%d" % R.randrange(55, 120), "µmol/L", "59–104"), ("eGFR", "%d" % R.randrange(55, 110), "mL/min/1.73m²", ">60"),
                ("TSH", "%.2f" % R.uniform(0.4, 4.8), "mIU/L", "0.4–4.0"), ("Vitamin D (25-OH)", "%d" % R.randrange(20, 120), "nmol/L", "50–125"),
                ("Ferritin", "%d" % R.randrange(15, 300), "µg/L", "30–400"), ("CRP", "%.1f" % R.uniform(0.2, 12), "mg/L", "<5")]
        txt = "LAB REPORT  Accession %s  Collected %s  MRN %s\n%s\nComment: results reviewed by Dr. Chen, follow-up in 3 months." % (
            rs(DG, 11), date_iso(), rs(DG, 8), "\n".join("%-20s %8s %-14s ref %s" % v for v in vals))
        B("lab_report", {"text": txt}, "long-lab-report", family="health")
    # insurance EOB
    for k in range(2):
        txt = ("EXPLANATION OF BENEFITS — THIS IS NOT A BILL\nMember: %s %s   Member ID: %s%s   Group: %s\nClaim #: %s   Provider: Riverside Imaging (NPI 1%s)\n"
               "Service date: %s   CPT 72148 MRI lumbar spine w/o contrast\nBilled: $2,140.00  Allowed: $612.44  Plan paid: $489.95  You owe: $122.49\n"
               "Deductible met: $1,500.00 of $1,500.00. Out-of-pocket: $2,011.20 of $4,000.00.\nQuestions? Call the number on your member ID card." % (
                   pick(FIRST), pick(LAST), rs(UP, 3), rs(DG, 9), rs(DG, 6), rs(DG, 14), rs(DG, 9), date_iso()))
        B("insurance_eob", {"text": txt}, "long-insurance-eob", family="health")
    # travel itineraries
    for k in range(3):
        txt = ("Trip plan\nDay 1 (%s): flight TK %d IST→NRT dep 01:45, seat 34K, PNR %s, e-ticket 235-%s\nHotel Shinjuku Granbell, confirmation %s, "
               "check-in 15:00\nDay 2: JR Pass exchange at Shinjuku station (voucher no. %s), Meiji shrine, Harajuku\nDay 3: Hakone day trip, "
               "Romancecar seat 5 row 12, reservation %s\nEmergency: embassy +81 3 %s; travel insurance policy %s" % (
                   date_iso(), R.randrange(50, 99), rs(ALNUM_UP, 6), rs(DG, 10), rs(DG, 10), rs(DG, 12), rs(DG, 8), rs(DG, 8), "TI-" + rs(DG, 9)))
        B("itinerary", {"text": txt}, "long-itinerary")
    # .env.example / README setup / workflow yaml
    for k in range(3):
        txt = ("# .env.example — copy to .env and fill in\nNODE_ENV=development\nPORT=3000\nDATABASE_URL=postgres://localhost:5432/app_dev\n"
               "STRIPE_SECRET_KEY=sk_test_your_key_here\nSTRIPE_WEBHOOK_SECRET=whsec_...\nOPENAI_API_KEY=\nSENTRY_DSN=\nS3_BUCKET=my-bucket\n"
               "# never commit the real .env\n")
        if k == 1:
            txt = txt.replace("postgres://localhost", "postgres://USER:PASSWORD@localhost")
        B("env_example", {"text": txt}, "long-env-example")
    for k in range(3):
        txt = ("## Setup\n\n1. Create a token at https://github.com/settings/tokens (classic, scopes: `repo`, `read:org`).\n2. Save it in your password "
               "manager, then run `export GITHUB_TOKEN=...` in your shell (don't paste it into issues or chats).\n3. `npm ci && npm run dev`\n\n"
               "Tokens look like `ghp_` followed by 36 characters; fine-grained ones start with `github_pat_`. If you see `Bad credentials`, "
               "the token expired — create a new one. For CI, add it under *Settings → Secrets and variables → Actions* as `GH_PAT`.")
        B("readme", {"text": txt}, "long-readme-instructions")
    for k in range(3):
        txt = ("name: deploy\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    permissions:\n      id-token: write\n"
               "      contents: read\n    steps:\n      - uses: actions/checkout@v4\n      - uses: aws-actions/configure-aws-credentials@v4\n        with:\n"
               "          role-to-assume: arn:aws:iam::%s:role/gha-deploy\n          aws-region: eu-west-1\n      - run: npm ci && npm run build\n"
               "      - run: npx wrangler deploy\n        env:\n          CLOUDFLARE_API_TOKEN: ${{ secrets.CLOUDFLARE_API_TOKEN }}\n"
               "          SENTRY_AUTH_TOKEN: ${{ secrets.SENTRY_AUTH_TOKEN }}\n" % rs(DG, 12))
        B("ci_workflow", {"text": txt}, "long-gha-workflow")
    # authorized_keys / known_hosts
    for k in range(3):
        txt = "# ~/.ssh/authorized_keys on the NAS\n" + "\n".join(pubkey_ssh(pick(["ssh-ed25519", "ssh-rsa"])) + " " + pick(["anna@laptop", "ben@phone", "backup@pi"]) for _ in range(3))
        txt += "\n# known_hosts\n" + "\n".join("|1|%s|%s ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBB%s" % (
            b64(rbytes(20)), b64(rbytes(20)), b64(rbytes(60))[:80]) for _ in range(2))
        B("ssh_public_keys", {"text": txt}, "long-authorized-keys")
    # package-lock excerpt / git log / access log
    for k in range(2):
        pk = {"packages": {"node_modules/%s" % n: {"version": "%d.%d.%d" % (R.randrange(1, 9), R.randrange(20), R.randrange(20)),
                                                   "resolved": "https://registry.npmjs.org/%s/-/%s-1.0.0.tgz" % (n, n),
                                                   "integrity": "sha512-" + b64(rbytes(64))} for n in ["lodash", "react", "zod", "dayjs"]}}
        B("package_lock", {"text": "package-lock.json excerpt\n" + json.dumps(pk, indent=2)}, "long-package-lock")
    for k in range(2):
        txt = "\n".join("commit %s\nAuthor: %s %s <%s>\nDate:   %s\n\n    %s\n" % (sha1hex(), pick(FIRST), pick(LAST), "dev@acme.example", date_iso(),
                                                                            pick(["Fix timezone bug in reminders", "Bump deps", "Add Greek translation",
                                                                                  "Rotate keys (values in vault, not in repo)"])) for _ in range(4))
        B("git_log", {"text": txt}, "long-git-log")
    for k in range(2):
        txt = "\n".join('%s - - [14/Mar/2025:10:%02d:%02d +0000] "GET /api/v1/items?page=%d&sort=asc HTTP/2" 200 %d "-" "Mozilla/5.0" rid=%s' % (
            ipv4_public(), R.randrange(60), R.randrange(60), R.randrange(1, 9), R.randrange(200, 9000), uuid4()) for _ in range(6))
        B("access_log", {"text": txt}, "long-access-log")
    # long multilingual benign with look-alike numbers
    for lang in ["hi", "bn", "th", "vi", "id", "fa", "el", "he"]:
        P = L[lang]
        t = " ".join(P["filler"]) + " " + P["appt"].format(date=date_iso(), time=time_hm(), conf=conf_code()) + " " + \
            P["order"].format(order=order_no(), date=date_iso()) + " " + P["med"].format(drug=pick(P["drugs"]), dose=10) + " " + \
            P["wifi_name"].format(ssid=pick(SSIDS)) + " " + P["changed"].format(svc=pick(P["svcs"]))
        B("diary", {"text": t}, "long-ml-lookalike", lang=lang)


def gen_benign_plain():
    facts = ["User's email is %s; prefers to be contacted by email rather than phone." % email_of(*person()),
             "User's mobile: +49 170 %s; landline only for grandma." % rs(DG, 7),
             "Home address: 221 Elm Street, Apt 4B, Springfield, IL 62704.",
             "User is vegetarian and allergic to peanuts.",
             "User's daughter Mia was born on 14 March 2018; son Leo on 2 September 2020.",
             "Prefers metric units and 24-hour time.",
             "User takes levothyroxine 75 mcg every morning on an empty stomach.",
             "User's GP is Dr. Sarah Lin at Parkside Medical Centre, phone 020 7946 0321.",
             "User is training for a half marathon in October; current long run 14 km.",
             "User's favourite tea is genmaicha; dislikes coffee after 2pm.",
             "User works remotely on Mondays and Fridays.",
             "User's partner is called Jonas; anniversary on 22 June.",
             "User supports FC Porto and watches the games with her father.",
             "User's flight to Seoul is on 3 May; prefers aisle seats.",
             "User had knee surgery (ACL reconstruction) in 2022, still does physio exercises twice a week.",
             "User is learning Japanese, currently JLPT N4 level.",
             "User's car is a 2019 Toyota Corolla Hybrid, due for service in August.",
             "Kids' school starts at 8:10; pickup at 15:30 except Wednesdays (13:00).",
             "User's mother has type 2 diabetes and uses a CGM; target range 4–10 mmol/L.",
             "User's blood type is O negative and is a registered organ donor.",
             "User wants reminders to water the tomatoes every second evening.",
             "User's home server IP is %s and it runs Jellyfin and Pi-hole." % ipv4_private(),
             "Monthly budget: rent 1,150, groceries ~450, transport 86, savings 300.",
             "User prefers dark mode and large font sizes in every app.",
             "User's cat Miso needs her thyroid tablet (methimazole 2.5 mg) twice a day."]
    for t in facts:
        B("personal_fact", {"text": t}, "plain-fact", variant="plain")
    ml = [("es", "Al usuario le gusta el senderismo y va a la sierra casi todos los domingos."),
          ("fr", "L'utilisateur est intolérant au lactose et préfère le lait d'avoine."),
          ("de", "Der Nutzer spielt dienstags Badminton und hat im Juli Urlaub an der Ostsee."),
          ("pt", "A usuária está grávida de 20 semanas; próxima ultrassonografia no dia 12."),
          ("it", "L'utente ha un figlio di 6 anni che fa nuoto il giovedì."),
          ("nl", "De gebruiker fietst elke dag naar het werk, 12 km enkele reis."),
          ("pl", "Użytkownik ma alergię na pyłki brzozy, bierze cetyryzynę w kwietniu i maju."),
          ("tr", "Kullanıcının annesi Ankara'da yaşıyor ve her pazar onu arıyor."),
          ("id", "Pengguna vegetarian dan suka masakan Padang tanpa daging."),
          ("vi", "Người dùng bị cao huyết áp nhẹ, đo huyết áp mỗi sáng."),
          ("ru", "Пользователь занимается плаванием три раза в неделю."),
          ("uk", "Користувачка вивчає іспанську і планує переїзд до Валенсії."),
          ("el", "Ο χρήστης έχει δύο γάτες, τη Μέλι και τον Φίγκαρο."),
          ("ar", "المستخدم يصوم يومي الاثنين والخميس ويفضّل المواعيد بعد الظهر."),
          ("he", "המשתמשת מתאמנת ביוגה פעמיים בשבוע ואוהבת מוזיקה קלאסית."),
          ("fa", "کاربر به گلوتن حساسیت دارد و نان بدون گلوتن می‌خرد."),
          ("hi", "उपयोगकर्ता शाकाहारी है और हर सुबह योग करता है।"),
          ("bn", "ব্যবহারকারী প্রতি শুক্রবার মায়ের সাথে ভিডিও কলে কথা বলেন।"),
          ("th", "ผู้ใช้แพ้อาหารทะเลและชอบกาแฟเย็นไม่หวาน"),
          ("zh", "用户每周三晚上去练太极拳，膝盖不太好。"),
          ("ja", "ユーザーは花粉症で、春は抗アレルギー薬を飲んでいる。"),
          ("ko", "사용자는 매주 토요일 아침에 등산을 가고 무릎 보호대를 착용한다.")]
    for lang, t in ml:
        B("personal_fact", {"text": t}, "plain-fact-ml", lang=lang, variant="plain")

# ---------------------------------------------------------------- long mixed notes (look-alike rich), with or without one buried secret
def lookalike_snippets():
    return [
        "Amazon order %s-%s-%s (the replacement kettle) should arrive Thursday." % (rs(DG, 3), rs(DG, 7), rs(DG, 7)),
        "UPS tracking for the printer ink is 1Z%s%s." % (rs(ALNUM_UP, 6), rs(DG, 10)),
        "The card ending %s was charged €%d.%02d for the streaming subscription." % (rs(DG, 4), R.randrange(5, 20), R.randrange(100)),
        "Rent goes to %s, reference 'Miete Whg 3'." % group4(iban("DE")),
        "Support ticket %s is still open with the ISP." % uuid4(),
        "The bug was fixed in commit %s." % sha1hex()[:12],
        "Dentist confirmation code %s, arrive ten minutes early." % rs(ALNUM_UP, 6),
        "Insurance member ID %s%s, group %s." % (rs(UP, 3), rs(DG, 9), rs(DG, 5)),
        "Pharmacy Rx #%s is ready for pick-up." % rs(DG, 7),
        "Flight PNR %s, seat %d%s, e-ticket 220-%s." % (rs(ALNUM_UP, 6), R.randrange(5, 40), pick("ACDF"), rs(DG, 10)),
        "NHS number for the form: %s." % nhs_number(),
        "The café's Wi-Fi is called %s and it's an open network." % pick(["BeanThere_Free", "Cafe Luna Guest", "Library-Public"]),
        "I changed my Gmail password yesterday after the security alert.",
        "Blood test results: HbA1c %.1f%%, LDL %.1f mmol/L, TSH %.2f." % (R.uniform(5, 7), R.uniform(2, 4), R.uniform(0.5, 3.5)),
        "IMEI of the old phone is %s (for the trade-in)." % imei(),
        "The spare key is with the neighbours at number %d." % R.randrange(2, 60),
        "Coupon SPRING%s expires on the 30th." % rs(ALNUM_UP, 4),
        "Parcel locker pickup number %s at the supermarket." % rs(DG, 8),
        "Car VIN %s for the insurance renewal." % vin(),
        "The router's MAC is %s, the NAS is at %s." % (mac(), ipv4_private()),
        "Booking.com confirmation %s.%s for the hotel in Porto." % (rs(DG, 10), rs(DG, 4)),
        "Zoom meeting ID %s %s %s for the parents' evening (passcode comes by email)." % (rs(DG, 3), rs(DG, 4), rs(DG, 4)),
        "Checksum of the firmware file: %s." % sha256hex()[:40],
        "Bank said my PIN letter will arrive separately next week.",
    ]


def buried_secret():
    k = R.randrange(8)
    if k == 0:
        svc, pw = sec_pw()
        return "password", "password", "By the way, the %s password is %s ." % (svc, pw), None
    if k == 1:
        return "pin", "pin", "The PIN for the new debit card is %s." % pin4(), None
    if k == 2:
        return "wifi_password", "wifi_password", "Home Wi-Fi %s, password %s." % (pick(SSIDS), human_pw()), None
    if k == 3:
        v, kind, tok, env = sec_token()
        return kind, "provider_token", "The %s key for the side project is %s" % (v, tok), v
    if k == 4:
        name, num = card_number(pick([0, 1, 2]))
        return "payment_card", "payment_card", "Used the %s %s, exp %02d/%d, CVC %s for the school trip." % (
            name, group_card(num), R.randrange(1, 13), R.randrange(26, 31), rs(DG, 4 if name == "American Express" else 3)), None
    if k == 5:
        return "door_code", "access_code", "Gate code for the new flat: %s#." % pin4(), None
    if k == 6:
        return "sim_pin_puk", "pin", "SIM PIN %s and PUK %s for the travel SIM." % (pin4(), rs(DG, 8)), None
    v, kind, tok, env = sec_token()
    return kind, "provider_token", "%s=%s" % (env, tok), v


def gen_long_mix():
    for k in range(45):
        parts = sample(lookalike_snippets(), R.randrange(6, 10)) + sample(L["en"]["filler"], 3)
        R.shuffle(parts)
        kind, fam, sline, vendor = buried_secret()
        parts.insert(R.randrange(1, len(parts)), sline)
        lead = pick(["Running notes for this week:", "User's brain-dump, pasted as is:", "Things to remember —", "Weekly admin list:"])
        txt = lead + " " + " ".join(parts)
        val = {"text": txt} if k % 3 else {"title": lead, "items": parts}
        add("secret", kind, "plain", val, tech="long-mix-buried", vendor=vendor, family=fam)
    for k in range(50):
        parts = sample(lookalike_snippets(), R.randrange(6, 10)) + sample(L["en"]["filler"], 3)
        R.shuffle(parts)
        lead = pick(["Running notes for this week:", "User's brain-dump, pasted as is:", "Things to remember —", "Weekly admin list:"])
        val = {"text": lead + " " + " ".join(parts)} if k % 3 else {"title": lead, "items": parts}
        B("notes", val, "long-mix-lookalike", family="diary")
    # multilingual long notes with look-alikes, every non-English language
    for lang in LANGS:
        if lang == "en":
            continue
        P = L[lang]
        parts = P["filler"] + [P["appt"].format(date=date_iso(), time=time_hm(), conf=conf_code()),
                               P["order"].format(order=order_no(), date=date_iso()),
                               P["blocked"], P["changed"].format(svc=pick(P["svcs"])),
                               P["wifi_name"].format(ssid=pick(SSIDS)), "IBAN " + group4(iban(pick(["DE", "FR", "ES", "NL"]))),
                               "IMEI " + imei(), "UUID " + uuid4()]
        R.shuffle(parts)
        B("notes", {"text": "\n".join(parts)}, "long-ml-mix", lang=lang, family="diary")
        # and a secret twin with one buried credential in that language
        parts2 = list(parts)
        sec = pick(["pw", "pin", "wifi"])
        line = P[sec].format(svc=pick(P["svcs"]), pw=human_pw(), bank=pick(P["banks"]), pin=pin4(), ssid=pick(SSIDS))
        parts2.insert(R.randrange(1, len(parts2)), line)
        add("secret", {"pw": "password", "pin": "pin", "wifi": "wifi_password"}[sec], "plain", {"text": "\n".join(parts2)},
            tech="long-ml-mix-buried", lang=lang, family={"pw": "password", "pin": "pin", "wifi": "wifi_password"}[sec])
    # long benign configs
    cfgs = [
        "# configuration.yaml (Home Assistant)\nhomeassistant:\n  name: Home\n  unit_system: metric\n  time_zone: Europe/Amsterdam\n"
        "http:\n  use_x_forwarded_for: true\n  trusted_proxies: [172.30.33.0/24]\nmqtt:\n  broker: core-mosquitto\n  username: !secret mqtt_user\n"
        "  password: !secret mqtt_password\nwifi_sensor:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\nautomation: !include automations.yaml\n"
        "script: !include scripts.yaml\nscene: !include scenes.yaml\n",
        "esphome:\n  name: balcony-sensor\nesp8266:\n  board: d1_mini\nwifi:\n  ssid: !secret wifi_ssid\n  password: !secret wifi_password\n"
        "api:\n  encryption:\n    key: !secret api_key\nota:\n  - platform: esphome\n    password: !secret ota_password\nsensor:\n  - platform: bme280_i2c\n"
        "    temperature:\n      name: Balcony Temperature\n    pressure:\n      name: Balcony Pressure\n    address: 0x76\n    update_interval: 60s\n",
        "# ~/.ssh/config\nHost nas\n  HostName %s\n  User admin\n  Port 2222\n  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes\n\nHost github.com\n"
        "  User git\n  IdentityFile ~/.ssh/github_ed25519\n  AddKeysToAgent yes\n  UseKeychain yes\n\nHost pi\n  HostName raspberrypi.local\n  User pi\n"
        "  ForwardAgent no\n  ServerAliveInterval 60\n" % ipv4_private(),
        "server {\n    listen 443 ssl http2;\n    server_name photos.example.org;\n    ssl_certificate     /etc/letsencrypt/live/photos.example.org/fullchain.pem;\n"
        "    ssl_certificate_key /etc/letsencrypt/live/photos.example.org/privkey.pem;\n    client_max_body_size 2G;\n    location / {\n"
        "        proxy_pass http://127.0.0.1:2283;\n        proxy_set_header Host $host;\n        proxy_set_header X-Real-IP $remote_addr;\n"
        "        proxy_set_header Authorization $http_authorization;\n    }\n    add_header Strict-Transport-Security \"max-age=63072000\" always;\n}\n",
        "[user]\n\tname = Ana Ribeiro\n\temail = ana@example.org\n\tsigningkey = ~/.ssh/id_ed25519.pub\n[gpg]\n\tformat = ssh\n[commit]\n\tgpgsign = true\n"
        "[credential]\n\thelper = osxkeychain\n[credential \"https://github.com\"]\n\thelper = !/opt/homebrew/bin/gh auth git-credential\n[pull]\n\trebase = true\n"
        "[init]\n\tdefaultBranch = main\n[alias]\n\tlg = log --oneline --graph --decorate\n",
        "{\n  \"editor.fontSize\": 15,\n  \"editor.formatOnSave\": true,\n  \"files.exclude\": {\"**/.venv\": true, \"**/node_modules\": true},\n"
        "  \"python.defaultInterpreterPath\": \".venv/bin/python\",\n  \"github.copilot.enable\": {\"*\": true, \"markdown\": false},\n"
        "  \"rest-client.environmentVariables\": {\"dev\": {\"baseUrl\": \"http://localhost:3000\", \"token\": \"{{$dotenv API_TOKEN}}\"}},\n"
        "  \"workbench.colorTheme\": \"Solarized Light\"\n}\n",
        "# ~/.aws/config\n[default]\nregion = eu-west-1\noutput = json\n\n[profile work]\nsso_session = acme\nsso_account_id = %s\nsso_role_name = Developer\n"
        "region = eu-central-1\n\n[sso-session acme]\nsso_start_url = https://acme.awsapps.com/start\nsso_region = eu-west-1\n"
        "sso_registration_scopes = sso:account:access\n# credentials come from `aws sso login`, nothing stored here\n" % rs(DG, 12),
        "# .npmrc\nregistry=https://registry.npmjs.org/\n@acme:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${NODE_AUTH_TOKEN}\n"
        "save-exact=true\nfund=false\naudit-level=high\nengine-strict=true\n# token is provided by CI via NODE_AUTH_TOKEN, never hard-coded\n",
    ]
    for c in cfgs:
        B("config_file", {"text": c}, "long-config-noval")
    # long medical visit summaries
    for lang, t in [("en", "Visit summary %s — Dr. Chen, internal medicine.\nReason: follow-up type 2 diabetes and hypertension.\nVitals: BP 142/88, "
                     "HR 76, weight 84.2 kg, BMI 27.9.\nLabs: HbA1c 7.4%% (prev 7.9%%), LDL 2.8 mmol/L, eGFR 78, urine ACR 2.1.\nPlan: continue metformin "
                     "1000 mg BID, increase ramipril to 10 mg daily, start empagliflozin 10 mg. Diet and exercise counselling. Eye exam referral sent "
                     "(ref %s). Recheck labs in 3 months. Next visit booked, confirmation %s."),
                    ("de", "Arztbrief vom %s: Diagnosen: Hypertonie (I10), Diabetes mellitus Typ 2 (E11.9). Befund: RR 145/90 mmHg, Puls 78/min, "
                     "HbA1c 7,1 %%. Therapie: Metformin 1000 mg 1-0-1, Ramipril 5 mg 1-0-0. Kontrolle in drei Monaten. Überweisung zur Augenärztin, "
                     "Vorgangsnummer %s, Terminbestätigung %s."),
                    ("es", "Informe de consulta %s: Paciente con hipotiroidismo en tratamiento con levotiroxina 75 mcg. TSH 3,1 mUI/L, T4 libre "
                     "1,2 ng/dL. Peso estable. Se mantiene la dosis. Próximo control en seis meses. Número de episodio %s, cita confirmada %s."),
                    ("ru", "Выписка от %s: диагноз — гипертоническая болезнь II стадии. АД 150/95, ЧСС 80. Назначено: лизиноприл 10 мг утром, "
                     "контроль АД дважды в день, ограничение соли. Повторный приём через месяц, номер талона %s, код записи %s."),
                    ("ar", "ملخص الزيارة بتاريخ %s: المريض يعاني من ارتفاع ضغط الدم والسكري من النوع الثاني. الضغط 140/90، السكر التراكمي 7.2%%. "
                     "الخطة: الاستمرار على الميتفورمين 500 ملغ مرتين يوميًا، ومراجعة العيادة بعد ثلاثة أشهر. رقم الإحالة %s، رمز تأكيد الموعد %s."),
                    ("hi", "परामर्श सारांश %s: मरीज़ को टाइप 2 डायबिटीज़ और हाई ब्लड प्रेशर है। बीपी 140/90, HbA1c 7.2%%। योजना: मेटफ़ॉर्मिन 500 मि.ग्रा. "
                     "दिन में दो बार, नमक कम करें, रोज़ 30 मिनट टहलें। रेफ़रल नंबर %s, अगली मुलाक़ात की पुष्टि संख्या %s।")]:
        B("visit_summary", {"text": t % (date_iso(), rs(DG, 9), rs(ALNUM_UP, 7))}, "long-visit-summary", lang=lang, family="health")

# ---------------------------------------------------------------- main
def strings_in(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings_in(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings_in(x)


def text_len(rec):
    return sum(len(s) for s in strings_in(rec["value"]))


def main():
    gen_provider_plain()
    gen_provider_second_pass()
    gen_multilingual()
    gen_pm_exports()
    gen_router_iot()
    gen_letters()
    gen_misc_secrets()
    gen_hard_secrets()
    gen_benign_lookalikes()
    gen_benign_long()
    gen_benign_plain()
    gen_long_mix()

    # sanity checks
    ids = [r["id"] for r in RECORDS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for n in ISSUED_CARDS:
        assert luhn_ok(n), n

    order = list(range(len(RECORDS)))
    R.shuffle(order)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "heldout6.jsonl")
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        for i in order:
            fh.write(json.dumps(RECORDS[i], ensure_ascii=False) + "\n")

    # statistics (stdout only)
    def cnt(pred):
        return sum(1 for r, m in zip(RECORDS, META) if pred(r, m))
    n = len(RECORDS)
    sec = cnt(lambda r, m: r["label"] == "secret")
    ben = n - sec
    print("records", n, "secret", sec, "benign", ben)
    print("secret hard", cnt(lambda r, m: r["label"] == "secret" and r["variant"] == "hard"),
          "benign hard", cnt(lambda r, m: r["label"] == "benign" and r["variant"] == "hard"))
    print("kinds", len(set(r["kind"] for r in RECORDS)),
          "secret kinds", len(set(r["kind"] for r in RECORDS if r["label"] == "secret")),
          "benign kinds", len(set(r["kind"] for r in RECORDS if r["label"] == "benign")))
    hard_techs = sorted(set(m["tech"] for r, m in zip(RECORDS, META) if r["label"] == "secret" and r["variant"] == "hard"))
    print("hard secret techniques", len(hard_techs))
    bh_techs = sorted(set(m["tech"] for r, m in zip(RECORDS, META) if r["label"] == "benign" and r["variant"] == "hard"))
    print("hard benign techniques", len(bh_techs))
    fmts = sorted(set(m["fmt"] for r, m in zip(RECORDS, META) if m["fmt"]))
    vend = sorted(set(m["vendor"] for r, m in zip(RECORDS, META) if m["vendor"] and r["label"] == "secret"))
    print("token formats (plain pass)", len(fmts), "vendors", len(vend), "formats defined", len(TOKEN_FORMATS),
          "vendors defined", len(VENDORS))
    longn = cnt(lambda r, m: text_len(r) > 400)
    print("long >400 chars: %d (%.1f%%); secret %d, benign %d" % (
        longn, 100.0 * longn / n, cnt(lambda r, m: text_len(r) > 400 and r["label"] == "secret"),
        cnt(lambda r, m: text_len(r) > 400 and r["label"] == "benign")))
    langs = {}
    for r, m in zip(RECORDS, META):
        langs.setdefault(m["lang"], [0, 0])[0 if r["label"] == "secret" else 1] += 1
    print("languages", len(langs), " ".join("%s:%d/%d" % (k, v[0], v[1]) for k, v in sorted(langs.items())))
    fam = {}
    for r, m in zip(RECORDS, META):
        fam.setdefault((r["label"], m["family"]), 0)
        fam[(r["label"], m["family"])] += 1
    print("families", " ".join("%s/%s:%d" % (a, b, c) for (a, b), c in sorted(fam.items())))
    if "-v" in sys.argv:
        print("hard secret techniques:", ", ".join(hard_techs))
        print("hard benign techniques:", ", ".join(bh_techs))
        print("vendors:", ", ".join(vend))
        kinds = {}
        for r in RECORDS:
            kinds.setdefault((r["label"], r["kind"]), 0)
            kinds[(r["label"], r["kind"])] += 1
        print("kinds:", " ".join("%s/%s:%d" % (a, b, c) for (a, b), c in sorted(kinds.items())))


if __name__ == "__main__":
    main()
