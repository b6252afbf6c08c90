#!/usr/bin/env python3
"""Deterministic generator for the held-out secret-detector corpus ``heldout8.jsonl``.

* Python 3.11 standard library only.
* Every random choice comes from ONE ``random.Random(808_2026)`` instance.  No
  ``hash()``, no clock, no set/dict-of-set iteration order is used, so the output
  is byte-identical across runs and across ``PYTHONHASHSEED`` values.
* Written from general knowledge of credential formats and of how people write
  notes, chats, configs, logs and code.  It does not import, run or consult any
  detector, scanner or other corpus.

Usage:  python3 make_heldout8.py     (writes heldout8.jsonl next to this file,
                                      prints summary statistics to stdout)
"""
from __future__ import annotations

import base64
import codecs
import json
import random
import string
import urllib.parse
from pathlib import Path

SEED = 808_2026
R = random.Random(SEED)
HERE = Path(__file__).resolve().parent
OUT = HERE / "heldout8.jsonl"

# --------------------------------------------------------------------------
# alphabets and small helpers
# --------------------------------------------------------------------------
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
ANL = LO + DG
ANU = UP + DG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = AN + "+/"
B64U = AN + "-_"
B32 = UP + "234567"
LB32 = LO + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SYMS = "!@#$%&*?"
WP_SYMS = "()[]{}<>"


def rs(alpha: str, n: int) -> str:
    return "".join(R.choice(alpha) for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def rint(a: int, b: int) -> int:
    return R.randint(a, b)


def uuid4() -> str:
    h = rs(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{pick('89ab')}{h[17:20]}-{h[20:32]}"


def rbytes(n: int) -> bytes:
    return bytes(R.randrange(256) for _ in range(n))


def b64e(s: str) -> str:
    return base64.b64encode(s.encode("utf-8")).decode("ascii")


def b64url(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode("ascii").rstrip("=")


def jwt(payload: dict, alg: str = "HS256", siglen: int = 32) -> str:
    head = b64url(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(payload, separators=(",", ":")).encode())
    return f"{head}.{body}.{b64url(rbytes(siglen))}"


def date_str() -> str:
    return f"{pick([2023, 2024, 2025])}-{rint(1, 12):02d}-{rint(1, 28):02d}"


def time_str() -> str:
    return f"{rint(7, 19):02d}:{pick(['00', '15', '30', '45'])}"


def ts() -> str:
    return f"{date_str()}T{rint(0, 23):02d}:{rint(0, 59):02d}:{rint(0, 59):02d}Z"


def epoch() -> int:
    return rint(1_690_000_000, 1_760_000_000)


def label_of(var: str) -> str:
    return var.lower().replace("_", " ")


def nice_label(vendor: str, var: str) -> str:
    """'Sentry' + 'SENTRY_AUTH_TOKEN' -> 'Sentry auth token' (drop words repeating the vendor name)."""
    vn = "".join(ch for ch in vendor.lower() if ch.isalnum())
    words = label_of(var).split()
    i = 0
    while i < len(words) - 1 and words[i] in vn:
        i += 1
    return f"{vendor} {' '.join(words[i:])}"


def slugify(v: str) -> str:
    out = "".join(c.lower() if c.isalnum() else "-" for c in v)
    while "--" in out:
        out = out.replace("--", "-")
    return out.strip("-")


def camel(var: str) -> str:
    parts = var.lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def cls_name(v: str) -> str:
    return "".join(ch for ch in v.title() if ch.isalnum()) + "Client"


def split_into(s: str, n: int) -> list[str]:
    n = max(2, min(n, len(s)))
    cuts = sorted(R.sample(range(1, len(s)), n - 1))
    parts, prev = [], 0
    for c in cuts:
        parts.append(s[prev:c])
        prev = c
    parts.append(s[prev:])
    return parts


def chunks(s: str, k: int) -> list[str]:
    return [s[i:i + k] for i in range(0, len(s), k)]


# --------------------------------------------------------------------------
# Luhn / cards
# --------------------------------------------------------------------------
def luhn_valid(num: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def luhn_complete(prefix: str, length: int) -> str:
    body = prefix + rs(DG, length - len(prefix) - 1)
    for c in DG:
        if luhn_valid(body + c):
            return body + c
    raise AssertionError("unreachable")


DOC_TEST_CARDS = ["4242424242424242", "4000056655665556", "5555555555554444",
                  "378282246310005", "4000000000009995", "4000000000000002",
                  "4111111111111111", "5105105105105100", "6011111111111117"]

CARD_BRANDS = [
    ("Visa", lambda: "4", 16), ("Visa", lambda: "4", 16), ("Mastercard", lambda: str(rint(51, 55)), 16),
    ("Mastercard", lambda: str(rint(2221, 2720)), 16), ("Amex", lambda: pick(["34", "37"]), 15),
    ("Discover", lambda: "6011", 16), ("JCB", lambda: str(rint(3528, 3589)), 16),
    ("Diners Club", lambda: "36", 14), ("UnionPay", lambda: "62" + rs(DG, 2), 16),
    ("Maestro", lambda: pick(["6759", "6761", "5018"]), 16),
]


def card() -> tuple[str, str]:
    while True:
        brand, pre, ln = pick(CARD_BRANDS)
        num = luhn_complete(pre(), ln)
        if num not in DOC_TEST_CARDS:
            return brand, num


def group_card(num: str, sep: str = " ") -> str:
    if len(num) == 15:
        parts = [num[:4], num[4:10], num[10:]]
    elif len(num) == 14:
        parts = [num[:4], num[4:10], num[10:]]
    else:
        parts = chunks(num, 4)
    return sep.join(parts)


def expiry() -> str:
    return f"{rint(1, 12):02d}/{rint(25, 31)}"


def cvv(num: str) -> str:
    return rs(DG, 4 if len(num) == 15 else 3)


# --------------------------------------------------------------------------
# people, places, passwords, codes
# --------------------------------------------------------------------------
FIRST = ["Anna", "Tomasz", "Priya", "Kenji", "Fatima", "Lucas", "Sofia", "Mehmet", "Olga", "Jonas",
         "Aiko", "Wei", "Marta", "Diego", "Amara", "Niels", "Ingrid", "Rahul", "Léa", "Mateus",
         "Hannah", "Yusuf", "Camille", "Bartek", "Elif", "Sven", "Chiara", "Nadia", "Kwame", "Hiro",
         "Linh", "Petra", "Oskar", "Ayesha", "Marco", "Julia", "Ravi", "Emma", "Noah", "Zofia"]
FIRST_ASCII = ["Anna", "Tomasz", "Priya", "Kenji", "Fatima", "Lucas", "Sofia", "Mehmet", "Olga", "Jonas",
               "Aiko", "Marta", "Diego", "Amara", "Niels", "Ingrid", "Rahul", "Lea", "Mateus", "Hannah",
               "Yusuf", "Camille", "Elif", "Sven", "Chiara", "Nadia", "Oskar", "Marco", "Julia", "Emma"]
LAST = ["Müller", "Kowalski", "Sharma", "Tanaka", "Haddad", "Silva", "Rossi", "Yilmaz", "Ivanova",
        "Jansen", "Nakamura", "Chen", "García", "Okafor", "Andersen", "Lindqvist", "Patel", "Dubois",
        "Costa", "Novak", "Virtanen", "Nguyen", "Schmidt", "Moreau", "Fernández", "Kim", "Park",
        "Hansen", "Santos", "Bianchi"]
LAST_ASCII = ["Mueller", "Kowalski", "Sharma", "Tanaka", "Haddad", "Silva", "Rossi", "Yilmaz", "Ivanova",
              "Jansen", "Nakamura", "Chen", "Garcia", "Okafor", "Andersen", "Lindqvist", "Patel", "Dubois",
              "Costa", "Novak", "Virtanen", "Nguyen", "Schmidt", "Moreau", "Kim", "Hansen", "Santos"]
CITIES = ["Lisbon", "Berlin", "Kraków", "Osaka", "Marrakesh", "Montréal", "Valencia", "Bologna", "Utrecht",
          "Gothenburg", "Izmir", "Hanoi", "Brno", "Tampere", "Aarhus", "Pune", "Bandung", "Seoul", "Chengdu",
          "Buenos Aires", "Nairobi", "Reykjavík", "Porto", "Edinburgh", "Ljubljana", "Cusco", "Tbilisi"]
PROJECTS = ["billing-api", "photo-sorter", "homelab", "thesis-scraper", "shop-frontend", "bakery-site",
            "ml-playground", "chatbot-poc", "invoice-bot", "garden-sensors", "wedding-site", "crm-sync",
            "etl-nightly", "mobile-app", "data-warehouse", "hackathon-2024", "support-portal", "recipe-box",
            "podcast-feed", "fleet-tracker", "kita-anmeldung", "side-quest", "newsletter", "warehouse-ui"]
CONSUMER = ["Netflix", "Spotify", "Amazon", "eBay", "PayPal", "Instagram", "Facebook", "Gmail", "Outlook",
            "iCloud", "Dropbox", "Steam", "PlayStation Network", "Disney+", "LinkedIn", "Booking.com",
            "Airbnb", "Uber", "Zalando", "Deutsche Bahn", "SNCF Connect", "Revolut", "N26", "Duolingo",
            "Strava", "Garmin Connect", "Etsy", "Vinted", "AliExpress", "Allegro", "Mercado Libre",
            "Rakuten", "LINE", "Naver", "Yandex", "Tokopedia", "Shopee", "Trendyol", "Bol.com",
            "Leboncoin", "Wallapop", "Seznam", "Nordea", "ING", "Santander", "Sparkasse", "Nubank",
            "Itaú", "Elster", "Ameli", "DigiD", "Steuerportal", "HMRC", "Nintendo", "Epic Games"]
DOMAINS = ["gmail.com", "outlook.com", "web.de", "gmx.net", "yahoo.fr", "libero.it", "hotmail.es",
           "proton.me", "icloud.com", "wp.pl", "seznam.cz", "mail.ru", "naver.com", "yandex.ru", "uol.com.br"]

PW_WORDS = ["sunflower", "tiger", "maple", "ocean", "falcon", "pepper", "river", "cactus", "lemon",
            "violet", "thunder", "marble", "pixel", "rocket", "willow", "coconut", "panther", "harbor",
            "copper", "saffron", "nebula", "juniper", "mango", "biscuit", "pumpkin", "dragon", "kiwi",
            "comet", "cobalt", "hazel", "walrus", "tango", "glacier", "orchid", "lantern"]
PW_WORDS_INTL = ["Schmetterling", "Sonnenblume", "Kaffeetasse", "papillon", "fromage", "mariposa",
                 "girasol", "farfalla", "cavallo", "borboleta", "saudade", "vlinder", "fiets", "motyl",
                 "kotek", "fjaril", "kanelbulle", "kelebek", "pamuk", "koshka", "sakura", "neko",
                 "xiaomao", "sarang", "kucing", "hoahong", "kocka", "perhonen", "sommerfugl", "Eichhoernchen"]


def leet(w: str) -> str:
    m = {"a": "@", "o": "0", "e": "3", "i": "1", "s": "$"}
    return "".join(m[c] if c in m and R.random() < 0.6 else c for c in w)


def human_pw() -> str:
    s = rint(0, 9)
    w = pick(PW_WORDS)
    if s == 0:
        return w.capitalize() + str(rint(1965, 2019)) + pick(SYMS)
    if s == 1:
        return w + pick(PW_WORDS) + str(rint(10, 99))
    if s == 2:
        return rs(AN + SYMS, rint(12, 20))
    if s == 3:
        return "-".join(pick(PW_WORDS) for _ in range(rint(3, 4))) + str(rint(1, 99))
    if s == 4:
        return leet(w.capitalize()) + pick(SYMS) + str(rint(10, 99))
    if s == 5:
        return pick(FIRST_ASCII) + f"{rint(1, 28):02d}{rint(1, 12):02d}" + pick(["", "!", "#", ""])
    if s == 6:
        return w.capitalize() + pick(SYMS) + pick(PW_WORDS).capitalize() + str(rint(1, 99))
    if s == 7:
        return pick(PW_WORDS_INTL) + str(rint(10, 2024)) + pick(["", "!", "?", "#"])
    if s == 8:
        return rs(AN, 3) + pick(SYMS) + rs(AN, 5) + pick(SYMS) + rs(DG, 2)
    return rs(LO, 4) + rs(DG, 4) + rs(UP, 2)


def wifi_pw() -> str:
    s = rint(0, 6)
    if s == 0:
        return pick(["Familie", "Famille", "Familia", "Casa", "Haus", "Home", "Dom"]) + pick(LAST_ASCII) + str(rint(2010, 2025))
    if s == 1:
        return rs(DG, pick([8, 10, 16, 20]))
    if s == 2:
        return "-".join(rs(LO + DG, 4) for _ in range(3))
    if s == 3:
        return rs(AN, rint(10, 16))
    if s == 4:
        return rs(UP + DG, 8) + rs(LO, 2)
    return human_pw()


def ssid() -> str:
    return pick([
        lambda: "FRITZ!Box 7590 " + rs(UP, 2), lambda: "Vodafone-" + rs(HEXU, 4), lambda: "TP-Link_" + rs(HEXU, 4),
        lambda: "NETGEAR" + rs(DG, 2), lambda: "Casa" + pick(LAST_ASCII), lambda: "Livebox-" + rs(HEXU, 4),
        lambda: "MOVISTAR_" + rs(HEXU, 4), lambda: "BTHub6-" + rs(ANU, 4), lambda: "HUAWEI-" + rs(ANU, 4),
        lambda: "Ziggo" + rs(DG, 7), lambda: "TIM-" + rs(DG, 8), lambda: "UPC" + rs(DG, 7),
        lambda: pick(["PrettyFlyForAWiFi", "FBI Surveillance Van", "Hogwarts", "Skynet_5G", "Datcha", "Chalet-Wifi"]),
        lambda: "Domek_" + rs(DG, 3), lambda: "Telia-" + rs(HEXU, 6), lambda: "iPhone von " + pick(FIRST),
    ])()


def door_code() -> str:
    s = rint(0, 6)
    if s == 0:
        return rs(DG, 4)
    if s == 1:
        return rs(DG, 5)
    if s == 2:
        return rs(DG, 6)
    if s == 3:
        return rs(DG, 4) + "#"
    if s == 4:
        return "*" + rs(DG, 4)
    if s == 5:
        return pick("ABC") + rs(DG, 4)
    return f"{rint(0, 39):02d}-{rint(0, 39):02d}-{rint(0, 39):02d}"


def pin(n: int | None = None) -> str:
    return rs(DG, n or pick([4, 4, 4, 6]))


# BIP39-style words (all taken from the standard English list)
BIP = ("abandon ability able about above absent absorb abstract absurd abuse access accident account "
       "accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict "
       "address adjust admit adult advance advice aerobic affair afford afraid again age agent agree "
       "ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha "
       "already also alter always amateur amazing among amount amused analyst anchor ancient anger angle "
       "angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear "
       "apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive "
       "arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack "
       "attend attitude attract auction audit august aunt author auto autumn average avocado avoid awake "
       "aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo "
       "banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become "
       "beef before begin behave behind believe below belt bench benefit best betray better between beyond "
       "bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind "
       "blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring "
       "borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief "
       "bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo "
       "build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz "
       "cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe "
       "canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino "
       "castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement "
       "census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap "
       "check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk "
       "churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever "
       "click client cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch "
       "coach coast coconut code coffee coil coin collect color column combine come comfort comic common "
       "company concert conduct confirm congress connect consider control convince cook cool copper copy "
       "coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle "
       "craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop "
       "cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard "
       "curious current curtain curve cushion custom cute cycle damp dawn desert dinosaur dolphin dragon "
       "dwarf eagle elephant emerald engine exotic faculty fatigue festival fiction flame forest frog "
       "furnace galaxy garlic giraffe gravity guitar hammer hockey hurdle hybrid iron island jaguar jungle "
       "kitten kiwi ladder lemon lizard lobster lunar magnet mango monkey mosquito museum mystery napkin "
       "nephew oak ocean orange panther piano pizza planet pottery pumpkin puzzle quantum rabbit ribbon "
       "rocket saddle salmon season shadow shrimp siren slogan solar spirit spoon stove sugar sunny swift "
       "tennis theme thunder timber tomato toy trend tribe tunnel twelve umbrella uncle upgrade vacuum "
       "valley village vintage visit vivid voyage wagon warm water wheel wild window winter wolf world "
       "wrong year youth zero zone zoo").split()


def mnemonic(n: int | None = None) -> str:
    return " ".join(pick(BIP) for _ in range(n or pick([12, 12, 24])))


# --------------------------------------------------------------------------
# PEM / key material
# --------------------------------------------------------------------------
def b64_body(head: str, nchars: int) -> str:
    nchars -= nchars % 4
    return head + rs(B64, nchars - len(head))


def pem(label: str, head: str, nchars: int, width: int = 64, headers: str = "") -> str:
    body = b64_body(head, nchars)
    lines = chunks(body, width)
    return f"-----BEGIN {label}-----\n" + headers + "\n".join(lines) + f"\n-----END {label}-----"


def rsa_pkcs1() -> str:
    return pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 1588)


def pkcs8_rsa() -> str:
    return pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 1624)


def ec_key() -> str:
    return pem("EC PRIVATE KEY", "MHcCAQEEI", 164)


def openssh_ed25519() -> str:
    return pem("OPENSSH PRIVATE KEY",
               "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACA",
               396, width=70)


def openssh_rsa() -> str:
    return pem("OPENSSH PRIVATE KEY",
               "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcnNhAAAAAwEAAQAAAYEA",
               2600, width=70)


def pgp_private() -> str:
    body = b64_body("lQdGBG" + rs(B64, 2), 1800)
    lines = chunks(body, 64)
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(lines) + "\n=" + rs(B64, 4)
            + "\n-----END PGP PRIVATE KEY BLOCK-----")


def ed25519_raw_pub() -> str:
    return "AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(B64, 43)


def wg_key() -> str:
    return rs(B64, 42) + pick("AEIMQUYcgkosw048") + "="


# --------------------------------------------------------------------------
# vendor token specifications
# --------------------------------------------------------------------------
class Spec:
    __slots__ = ("vendor", "kind", "kvs")

    def __init__(self, vendor, kind, *kvs):
        self.vendor = vendor
        self.kind = kind
        self.kvs = kvs


def g(prefix: str, alpha: str, n: int, suffix: str = ""):
    return lambda: prefix + rs(alpha, n) + suffix


def _azure_secret():
    return rs(AN, 3) + str(rint(0, 9)) + "Q~" + rs(AN + "_-.~", 34)


def _fcm():
    return "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134)


def _pypi():
    return "pypi-AgEIcHlwaS5vcmc" + rs(B64U, rint(120, 160))


def _tfc():
    return rs(AN, 14) + ".atlasv1." + rs(AN, 67)


def _vault():
    return "hvs." + rs(B64U, 24) if R.random() < 0.4 else "hvs.CAESI" + rs(B64U, 82)


def _atlassian():
    return "ATATT3xFfGF0" + rs(B64U, 170) + "=" + rs(HEXU, 8)


def _grafana_cloud():
    payload = {"o": str(rint(100000, 999999)), "n": f"{pick(PROJECTS)}-token", "k": rs(AN, 24),
               "m": {"r": pick(["prod-eu-west-0", "prod-us-central-0", "prod-ap-southeast-0"])}}
    return "glc_" + base64.b64encode(json.dumps(payload, separators=(",", ":")).encode()).decode()


def _slack_bot():
    return f"xoxb-{rs(DG, rint(10, 12))}-{rs(DG, 13)}-{rs(AN, 24)}"


def _slack_user():
    return f"xoxp-{rs(DG, 12)}-{rs(DG, 12)}-{rs(DG, 13)}-{rs(HEX, 32)}"


def _slack_app():
    return f"xapp-1-A{rs(ANU, 10)}-{rs(DG, 13)}-{rs(HEX, 64)}"


def _slack_hook():
    return f"https://hooks.slack.com/services/T{rs(ANU, 8)}/B{rs(ANU, 10)}/{rs(AN, 24)}"


def _discord_bot():
    uid = str(rint(10 ** 17, 10 ** 18 - 1))
    return b64url(uid.encode()) + "." + rs(B64U, 6) + "." + rs(B64U, 38)


def _discord_hook():
    return f"https://discord.com/api/webhooks/{rint(10 ** 17, 10 ** 19 - 1)}/{rs(B64U, 68)}"


def _telegram():
    return f"{rint(1_000_000_000, 7_999_999_999)}:AA{rs(B64U, 33)}"


def _teams_hook():
    org = pick(["contoso", "fabrikam", "northwind", "acmecorp", "tailspin"])
    return (f"https://{org}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/"
            f"{rs(HEX, 32)}/{uuid4()}/V2{rs(B64U, 40)}")


def _mapbox(kind: str) -> str:
    user = pick(["annak", "tmaps", "geo-lab", "rkowal", "citybikes", "hikerpriya", "dronemap"])
    body = b64url(json.dumps({"u": user, "a": "c" + rs(ANL, 24)}, separators=(",", ":")).encode())
    return f"{kind}.{body}.{rs(B64U, 22)}"


def _cloudinary():
    return f"cloudinary://{rs(DG, 15)}:{rs(B64U, 27)}@{pick(['dx3k', 'my-shop-media', 'acme-cdn', 'photos'])}{rs(ANL, 3)}"


def _supabase_jwt():
    ref = rs(LO, 20)
    return jwt({"iss": "supabase", "ref": ref, "role": "service_role", "iat": epoch(), "exp": epoch() + 315_360_000})


def _dynatrace():
    return "dt0c01." + rs(ANU, 24) + "." + rs(ANU, 64)


def _akamai_tok():
    return "akab-" + rs(ANL, 16) + "-" + rs(ANL, 16)


S = Spec
VENDOR_SPECS = [
    # ---- cloud / infra
    S("AWS", "aws_access_key_pair", ("AWS_ACCESS_KEY_ID", g("AKIA", B32, 16)), ("AWS_SECRET_ACCESS_KEY", g("", AN + "+/", 40))),
    S("AWS", "aws_sts_session_credentials", ("AWS_ACCESS_KEY_ID", g("ASIA", B32, 16)), ("AWS_SECRET_ACCESS_KEY", g("", AN + "+/", 40)), ("AWS_SESSION_TOKEN", g("IQoJb3JpZ2luX2VjE", B64, 280))),
    S("Google Cloud", "gcp_api_key", ("GOOGLE_API_KEY", g("AIza", B64U, 35))),
    S("Azure", "azure_client_secret", ("AZURE_CLIENT_SECRET", _azure_secret)),
    S("Azure", "azure_storage_account_key", ("AZURE_STORAGE_KEY", lambda: rs(B64, 86) + "==")),
    S("Azure DevOps", "azure_devops_pat", ("AZURE_DEVOPS_EXT_PAT", g("", LB32, 52))),
    S("Azure OpenAI", "azure_openai_key", ("AZURE_OPENAI_API_KEY", g("", HEX, 32))),
    S("DigitalOcean", "digitalocean_pat", ("DIGITALOCEAN_ACCESS_TOKEN", g("dop_v1_", HEX, 64))),
    S("DigitalOcean Spaces", "do_spaces_key_pair", ("SPACES_KEY", g("DO00", ANU, 16)), ("SPACES_SECRET", g("", B64, 43))),
    S("Alibaba Cloud", "alibaba_access_key_pair", ("ALIBABA_CLOUD_ACCESS_KEY_ID", g("LTAI", AN, 20)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", g("", AN, 30))),
    S("IBM Cloud", "ibm_cloud_api_key", ("IBMCLOUD_API_KEY", g("", B64U, 44))),
    S("Oracle Cloud", "oci_auth_token", ("OCI_AUTH_TOKEN", g("", AN + "()[]{}<>#:;.-_+", 20))),
    S("Linode", "linode_pat", ("LINODE_TOKEN", g("", HEX, 64))),
    S("Vultr", "vultr_api_key", ("VULTR_API_KEY", g("", ANU, 36))),
    S("Hetzner Cloud", "hetzner_api_token", ("HCLOUD_TOKEN", g("", AN, 64))),
    S("Scaleway", "scaleway_key_pair", ("SCW_ACCESS_KEY", g("SCW", ANU, 17)), ("SCW_SECRET_KEY", uuid4)),
    S("OVHcloud", "ovh_api_credentials", ("OVH_APPLICATION_KEY", g("", AN, 16)), ("OVH_APPLICATION_SECRET", g("", AN, 32)), ("OVH_CONSUMER_KEY", g("", AN, 32))),
    S("Cloudflare", "cloudflare_api_token", ("CLOUDFLARE_API_TOKEN", g("", B64U, 40))),
    S("Cloudflare", "cloudflare_global_api_key", ("CF_API_KEY", g("", HEX, 37))),
    S("Heroku", "heroku_api_key", ("HEROKU_API_KEY", uuid4)),
    S("Vercel", "vercel_token", ("VERCEL_TOKEN", g("", AN, 24))),
    S("Netlify", "netlify_pat", ("NETLIFY_AUTH_TOKEN", g("nfp_", AN, 36))),
    S("Fly.io", "flyio_token", ("FLY_API_TOKEN", g("fo1_", B64U, 43))),
    S("Render", "render_api_key", ("RENDER_API_KEY", g("rnd_", AN, 32))),
    S("Railway", "railway_token", ("RAILWAY_TOKEN", uuid4)),
    S("Tailscale", "tailscale_auth_key", ("TS_AUTHKEY", lambda: "tskey-auth-k" + rs(AN, 11) + "CNTRL-" + rs(AN, 33))),
    S("ngrok", "ngrok_authtoken", ("NGROK_AUTHTOKEN", lambda: "2" + rs(AN, 26) + "_" + rs(AN, 21))),
    S("Fastly", "fastly_api_token", ("FASTLY_API_TOKEN", g("", B64U, 32))),
    S("Akamai", "akamai_edgegrid_credentials", ("client_secret", lambda: rs(B64, 43) + "="), ("host", lambda: "akab-" + rs(ANL, 16) + "-" + rs(ANL, 16) + ".luna.akamaiapis.net"), ("access_token", _akamai_tok), ("client_token", _akamai_tok)),
    # ---- databases / data platforms
    S("Supabase", "supabase_access_token", ("SUPABASE_ACCESS_TOKEN", g("sbp_", HEX, 40))),
    S("Supabase", "supabase_service_role_key", ("SUPABASE_SERVICE_ROLE_KEY", _supabase_jwt)),
    S("PlanetScale", "planetscale_password", ("DATABASE_PASSWORD", g("pscale_pw_", B64U, 43))),
    S("Neon", "neon_api_key", ("NEON_API_KEY", g("", ANL, 64))),
    S("MongoDB Atlas", "mongodb_atlas_api_key_pair", ("MONGODB_ATLAS_PUBLIC_KEY", g("", LO, 8)), ("MONGODB_ATLAS_PRIVATE_KEY", uuid4)),
    S("Upstash", "upstash_redis_token", ("UPSTASH_REDIS_REST_TOKEN", g("AX", B64U, 58))),
    S("Firebase", "firebase_fcm_server_key", ("FCM_SERVER_KEY", _fcm)),
    S("Databricks", "databricks_pat", ("DATABRICKS_TOKEN", g("dapi", HEX, 32))),
    S("Snowflake", "snowflake_credentials", ("SNOWFLAKE_USER", lambda: pick(["ETL_SVC", "ANALYTICS_RO", "DBT_PROD"])), ("SNOWFLAKE_PASSWORD", human_pw)),
    S("Pinecone", "pinecone_api_key", ("PINECONE_API_KEY", lambda: "pcsk_" + rs(AN, 5) + "_" + rs(AN, 63))),
    S("Elastic Cloud", "elastic_cloud_api_key", ("ELASTIC_API_KEY", lambda: b64e(rs(B64U, 20) + ":" + rs(B64U, 22)))),
    S("Algolia", "algolia_admin_key", ("ALGOLIA_APP_ID", g("", ANU, 10)), ("ALGOLIA_ADMIN_API_KEY", g("", HEX, 32))),
    S("Airtable", "airtable_pat", ("AIRTABLE_API_KEY", lambda: "pat" + rs(AN, 14) + "." + rs(HEX, 64))),
    S("Notion", "notion_integration_secret", ("NOTION_TOKEN", lambda: pick(["secret_" + rs(AN, 43), "ntn_" + rs(DG, 11) + rs(AN, 35)]))),
    S("Confluent Cloud", "confluent_api_key_pair", ("CONFLUENT_API_KEY", g("", ANU, 16)), ("CONFLUENT_API_SECRET", g("", B64, 64))),
    S("Aiven", "aiven_service_password", ("AIVEN_PG_PASSWORD", g("AVNS_", B64U, 19))),
    S("Turso", "turso_auth_token", ("TURSO_AUTH_TOKEN", lambda: jwt({"a": "rw", "iat": epoch(), "id": uuid4()}, alg="EdDSA", siglen=64))),
    S("CockroachDB Cloud", "cockroach_cloud_api_key", ("COCKROACH_API_KEY", lambda: "CCDB1_" + rs(AN, 22) + "_" + rs(AN, 40))),
    S("Meilisearch", "meilisearch_master_key", ("MEILI_MASTER_KEY", g("", B64U, 32))),
    S("Typesense", "typesense_admin_key", ("TYPESENSE_API_KEY", g("", AN, 32))),
    # ---- source control / CI/CD / registries / devtools
    S("GitHub", "github_pat_classic", ("GITHUB_TOKEN", g("ghp_", AN, 36))),
    S("GitHub", "github_pat_fine_grained", ("GH_TOKEN", lambda: "github_pat_11" + rs(ANU, 20) + "_" + rs(AN, 59))),
    S("GitHub", "github_oauth_token", ("GITHUB_OAUTH_TOKEN", g("gho_", AN, 36))),
    S("GitHub", "github_app_installation_token", ("GITHUB_APP_TOKEN", g("ghs_", AN, 36))),
    S("GitHub", "github_refresh_token", ("GITHUB_REFRESH_TOKEN", g("ghr_", AN, 76))),
    S("GitLab", "gitlab_pat", ("GITLAB_TOKEN", g("glpat-", B64U, 20))),
    S("GitLab", "gitlab_runner_token", ("CI_RUNNER_TOKEN", g("glrt-", B64U, 20))),
    S("GitLab", "gitlab_deploy_token", ("GITLAB_DEPLOY_TOKEN", g("gldt-", B64U, 20))),
    S("Bitbucket", "bitbucket_app_password", ("BITBUCKET_APP_PASSWORD", g("ATBB", AN, 32))),
    S("Atlassian", "atlassian_api_token", ("JIRA_API_TOKEN", _atlassian)),
    S("CircleCI", "circleci_pat", ("CIRCLECI_TOKEN", lambda: "CCIPAT_" + rs(AN, 22) + "_" + rs(HEX, 40))),
    S("Travis CI", "travis_ci_token", ("TRAVIS_API_TOKEN", g("", B64U, 22))),
    S("Jenkins", "jenkins_api_token", ("JENKINS_API_TOKEN", g("11", HEX, 32))),
    S("Buildkite", "buildkite_api_token", ("BUILDKITE_API_TOKEN", g("bkua_", HEX, 40))),
    S("Drone CI", "drone_token", ("DRONE_TOKEN", g("", AN, 32))),
    S("TeamCity", "teamcity_token", ("TEAMCITY_TOKEN", lambda: "eyJ0eXAiOiAiVENWMiJ9." + rs(B64U, 36) + "." + rs(B64U, 48))),
    S("Docker Hub", "dockerhub_pat", ("DOCKERHUB_TOKEN", g("dckr_pat_", B64U, 27))),
    S("npm", "npm_access_token", ("NPM_TOKEN", g("npm_", AN, 36))),
    S("PyPI", "pypi_api_token", ("PYPI_API_TOKEN", _pypi)),
    S("RubyGems", "rubygems_api_key", ("GEM_HOST_API_KEY", g("rubygems_", HEX, 48))),
    S("NuGet", "nuget_api_key", ("NUGET_API_KEY", g("oy2", ANL, 43))),
    S("crates.io", "cratesio_token", ("CARGO_REGISTRY_TOKEN", g("cio", AN, 32))),
    S("Sonatype OSSRH", "sonatype_user_token", ("OSSRH_USERNAME", g("", AN, 8)), ("OSSRH_PASSWORD", g("", B64, 44))),
    S("JFrog Artifactory", "jfrog_api_key", ("ARTIFACTORY_API_KEY", g("AKCp", AN, 69))),
    S("Terraform Cloud", "terraform_cloud_token", ("TFE_TOKEN", _tfc)),
    S("HashiCorp Vault", "vault_service_token", ("VAULT_TOKEN", _vault)),
    S("HashiCorp Consul", "consul_acl_token", ("CONSUL_HTTP_TOKEN", uuid4)),
    S("Pulumi", "pulumi_access_token", ("PULUMI_ACCESS_TOKEN", g("pul-", HEX, 40))),
    S("Doppler", "doppler_token", ("DOPPLER_TOKEN", lambda: pick(["dp.pt.", "dp.st.prd.", "dp.sa."]) + rs(AN, 43))),
    S("1Password", "onepassword_service_account_token", ("OP_SERVICE_ACCOUNT_TOKEN", lambda: "ops_eyJ" + rs(B64U, 240))),
    S("Sentry", "sentry_auth_token", ("SENTRY_AUTH_TOKEN", lambda: pick(["sntryu_" + rs(HEX, 64), "sntrys_eyJpYXQiO" + rs(B64U, 150)]))),
    S("Postman", "postman_api_key", ("POSTMAN_API_KEY", lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34))),
    S("SonarCloud", "sonar_token", ("SONAR_TOKEN", lambda: pick(["squ_", "sqp_", "sqa_"]) + rs(HEX, 40))),
    S("Snyk", "snyk_token", ("SNYK_TOKEN", uuid4)),
    S("Codecov", "codecov_token", ("CODECOV_TOKEN", uuid4)),
    S("Sauce Labs", "saucelabs_access_key", ("SAUCE_USERNAME", lambda: pick(["qa-bot", "anna.k", "ci-runner"])), ("SAUCE_ACCESS_KEY", uuid4)),
    S("BrowserStack", "browserstack_access_key", ("BROWSERSTACK_USERNAME", lambda: pick(FIRST_ASCII).lower() + "_" + rs(AN, 5)), ("BROWSERSTACK_ACCESS_KEY", g("", AN, 20))),
    # ---- observability / analytics
    S("Datadog", "datadog_api_app_keys", ("DD_API_KEY", g("", HEX, 32)), ("DD_APP_KEY", g("", HEX, 40))),
    S("New Relic", "newrelic_user_api_key", ("NEW_RELIC_API_KEY", g("NRAK-", ANU, 27))),
    S("New Relic", "newrelic_license_key", ("NEW_RELIC_LICENSE_KEY", lambda: rs(HEX, 36) + "NRAL")),
    S("Grafana", "grafana_service_account_token", ("GRAFANA_TOKEN", lambda: "glsa_" + rs(AN, 32) + "_" + rs(HEX, 8))),
    S("Grafana Cloud", "grafana_cloud_token", ("GRAFANA_CLOUD_TOKEN", _grafana_cloud)),
    S("Honeycomb", "honeycomb_api_key", ("HONEYCOMB_API_KEY", g("", AN, 22))),
    S("PagerDuty", "pagerduty_api_key", ("PAGERDUTY_TOKEN", g("u+", B64U, 18))),
    S("Opsgenie", "opsgenie_api_key", ("OPSGENIE_API_KEY", uuid4)),
    S("Splunk", "splunk_hec_token", ("SPLUNK_HEC_TOKEN", uuid4)),
    S("Dynatrace", "dynatrace_api_token", ("DT_API_TOKEN", _dynatrace)),
    S("Rollbar", "rollbar_access_token", ("ROLLBAR_ACCESS_TOKEN", g("", HEX, 32))),
    S("Bugsnag", "bugsnag_api_key", ("BUGSNAG_API_KEY", g("", HEX, 32))),
    S("LaunchDarkly", "launchdarkly_sdk_key", ("LAUNCHDARKLY_SDK_KEY", lambda: "sdk-" + uuid4())),
    S("Sumo Logic", "sumologic_access_key", ("SUMO_ACCESS_ID", g("su", AN, 12)), ("SUMO_ACCESS_KEY", g("", AN, 64))),
    S("Loggly", "loggly_token", ("LOGGLY_TOKEN", uuid4)),
    S("Logz.io", "logzio_token", ("LOGZIO_TOKEN", g("", AN, 32))),
    S("Mixpanel", "mixpanel_api_secret", ("MIXPANEL_API_SECRET", g("", HEX, 32))),
    S("Amplitude", "amplitude_secret_key", ("AMPLITUDE_API_KEY", g("", HEX, 32)), ("AMPLITUDE_SECRET_KEY", g("", HEX, 32))),
    S("Segment", "segment_write_key", ("SEGMENT_WRITE_KEY", g("", AN, 32))),
    S("PostHog", "posthog_personal_api_key", ("POSTHOG_PERSONAL_API_KEY", g("phx_", AN, 43))),
    # ---- messaging / email / sms
    S("Slack", "slack_bot_token", ("SLACK_BOT_TOKEN", _slack_bot)),
    S("Slack", "slack_user_token", ("SLACK_USER_TOKEN", _slack_user)),
    S("Slack", "slack_app_token", ("SLACK_APP_TOKEN", _slack_app)),
    S("Slack", "slack_webhook_url", ("SLACK_WEBHOOK_URL", _slack_hook)),
    S("Discord", "discord_bot_token", ("DISCORD_BOT_TOKEN", _discord_bot)),
    S("Discord", "discord_webhook_url", ("DISCORD_WEBHOOK", _discord_hook)),
    S("Telegram", "telegram_bot_token", ("TELEGRAM_BOT_TOKEN", _telegram)),
    S("Microsoft Teams", "teams_incoming_webhook", ("TEAMS_WEBHOOK_URL", _teams_hook)),
    S("Mattermost", "mattermost_access_token", ("MATTERMOST_TOKEN", g("", ANL, 26))),
    S("Zoom", "zoom_oauth_credentials", ("ZOOM_ACCOUNT_ID", g("", B64U, 22)), ("ZOOM_CLIENT_ID", g("", AN, 22)), ("ZOOM_CLIENT_SECRET", g("", AN, 32))),
    S("Twilio", "twilio_account_credentials", ("TWILIO_ACCOUNT_SID", g("AC", HEX, 32)), ("TWILIO_AUTH_TOKEN", g("", HEX, 32))),
    S("Twilio", "twilio_api_key", ("TWILIO_API_KEY", g("SK", HEX, 32)), ("TWILIO_API_SECRET", g("", AN, 32))),
    S("SendGrid", "sendgrid_api_key", ("SENDGRID_API_KEY", lambda: "SG." + rs(B64U, 22) + "." + rs(B64U, 43))),
    S("Mailgun", "mailgun_api_key", ("MAILGUN_API_KEY", lambda: pick(["key-" + rs(HEX, 32), rs(HEX, 32) + "-" + rs(HEX, 8) + "-" + rs(HEX, 8)]))),
    S("Mailchimp", "mailchimp_api_key", ("MAILCHIMP_API_KEY", lambda: rs(HEX, 32) + "-us" + str(rint(1, 21)))),
    S("Postmark", "postmark_server_token", ("POSTMARK_SERVER_TOKEN", uuid4)),
    S("Mandrill", "mandrill_api_key", ("MANDRILL_API_KEY", g("md-", B64U, 22))),
    S("Resend", "resend_api_key", ("RESEND_API_KEY", lambda: "re_" + rs(AN, 8) + "_" + rs(AN, 24))),
    S("Brevo", "brevo_api_key", ("BREVO_API_KEY", lambda: "xkeysib-" + rs(HEX, 64) + "-" + rs(AN, 16))),
    S("Mailjet", "mailjet_api_credentials", ("MJ_APIKEY_PUBLIC", g("", HEX, 32)), ("MJ_APIKEY_PRIVATE", g("", HEX, 32))),
    S("SparkPost", "sparkpost_api_key", ("SPARKPOST_API_KEY", g("", HEX, 40))),
    S("Vonage", "vonage_api_credentials", ("VONAGE_API_KEY", g("", HEX, 8)), ("VONAGE_API_SECRET", g("", AN, 16))),
    S("MessageBird", "messagebird_access_key", ("MESSAGEBIRD_ACCESS_KEY", g("", AN, 25))),
    S("Plivo", "plivo_auth_credentials", ("PLIVO_AUTH_ID", g("MA", ANU, 18)), ("PLIVO_AUTH_TOKEN", g("", AN, 40))),
    S("Telnyx", "telnyx_api_key", ("TELNYX_API_KEY", lambda: "KEY" + rs(ANU, 29) + "_" + rs(AN, 22))),
    S("Pusher", "pusher_app_credentials", ("PUSHER_APP_ID", lambda: str(rint(1000000, 1999999))), ("PUSHER_KEY", g("", HEX, 20)), ("PUSHER_SECRET", g("", HEX, 20))),
    S("Ably", "ably_api_key", ("ABLY_API_KEY", lambda: rs(B64U, 6) + "." + rs(B64U, 6) + ":" + rs(B64U, 43))),
    S("Intercom", "intercom_access_token", ("INTERCOM_ACCESS_TOKEN", lambda: "dG9rOj" + rs(B64, 54) + "=")),
    # ---- payments / commerce / logistics
    S("Stripe", "stripe_secret_key", ("STRIPE_SECRET_KEY", lambda: "sk_live_51" + rs(AN, 97) if R.random() < 0.6 else "sk_live_" + rs(AN, 24))),
    S("Stripe", "stripe_restricted_key", ("STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + rs(AN, 97))),
    S("Stripe", "stripe_webhook_secret", ("STRIPE_WEBHOOK_SECRET", g("whsec_", AN, 32))),
    S("PayPal", "paypal_client_credentials", ("PAYPAL_CLIENT_ID", g("A", B64U, 79)), ("PAYPAL_CLIENT_SECRET", g("E", B64U, 79))),
    S("Braintree", "braintree_access_token", ("BRAINTREE_ACCESS_TOKEN", lambda: "access_token$production$" + rs(ANL, 16) + "$" + rs(HEX, 32))),
    S("Square", "square_access_token", ("SQUARE_ACCESS_TOKEN", g("EAAA", B64U, 60))),
    S("Square", "square_oauth_secret", ("SQUARE_APPLICATION_SECRET", g("sq0csp-", B64U, 43))),
    S("Adyen", "adyen_api_key", ("ADYEN_API_KEY", lambda: "AQE" + rs(AN, 2) + "hmfxL" + rs(B64U, 80) + "=-" + rs(B64U, 43) + "=-" + rs(AN, 14))),
    S("Razorpay", "razorpay_key_pair", ("RAZORPAY_KEY_ID", g("rzp_live_", AN, 14)), ("RAZORPAY_KEY_SECRET", g("", AN, 24))),
    S("Paystack", "paystack_secret_key", ("PAYSTACK_SECRET_KEY", g("sk_live_", HEX, 40))),
    S("Flutterwave", "flutterwave_secret_key", ("FLW_SECRET_KEY", lambda: "FLWSECK-" + rs(HEX, 32) + "-X")),
    S("Mollie", "mollie_api_key", ("MOLLIE_API_KEY", g("live_", AN, 30))),
    S("GoCardless", "gocardless_access_token", ("GOCARDLESS_ACCESS_TOKEN", g("live_", B64U, 40))),
    S("Plaid", "plaid_client_credentials", ("PLAID_CLIENT_ID", g("", HEX, 24)), ("PLAID_SECRET", g("", HEX, 30))),
    S("Wise", "wise_api_token", ("WISE_API_TOKEN", uuid4)),
    S("Checkout.com", "checkout_secret_key", ("CKO_SECRET_KEY", lambda: "sk_" + uuid4())),
    S("Shopify", "shopify_admin_token", ("SHOPIFY_ACCESS_TOKEN", g("shpat_", HEX, 32))),
    S("Shopify", "shopify_shared_secret", ("SHOPIFY_API_SECRET", g("shpss_", HEX, 32))),
    S("WooCommerce", "woocommerce_rest_keys", ("WC_CONSUMER_KEY", g("ck_", HEX, 40)), ("WC_CONSUMER_SECRET", g("cs_", HEX, 40))),
    S("Shippo", "shippo_live_token", ("SHIPPO_API_TOKEN", g("shippo_live_", HEX, 40))),
    S("EasyPost", "easypost_api_key", ("EASYPOST_API_KEY", g("EZAK", HEX, 54))),
    S("Duffel", "duffel_access_token", ("DUFFEL_ACCESS_TOKEN", g("duffel_live_", B64U, 43))),
    S("Lob", "lob_api_key", ("LOB_API_KEY", g("live_", HEX, 35))),
    # ---- crypto exchanges / web3
    S("Coinbase", "coinbase_api_credentials", ("COINBASE_API_KEY", g("", AN, 16)), ("COINBASE_API_SECRET", g("", AN, 32))),
    S("Binance", "binance_api_credentials", ("BINANCE_API_KEY", g("", AN, 64)), ("BINANCE_API_SECRET", g("", AN, 64))),
    S("Kraken", "kraken_api_credentials", ("KRAKEN_API_KEY", g("", B64, 56)), ("KRAKEN_PRIVATE_KEY", lambda: rs(B64, 86) + "==")),
    S("Bybit", "bybit_api_credentials", ("BYBIT_API_KEY", g("", AN, 18)), ("BYBIT_API_SECRET", g("", AN, 36))),
    S("OKX", "okx_api_credentials", ("OKX_API_KEY", uuid4), ("OKX_SECRET_KEY", g("", HEXU, 32)), ("OKX_PASSPHRASE", human_pw)),
    S("Etherscan", "etherscan_api_key", ("ETHERSCAN_API_KEY", g("", ANU, 34))),
    S("Infura", "infura_api_secret", ("INFURA_PROJECT_ID", g("", HEX, 32)), ("INFURA_API_KEY_SECRET", g("", HEX, 32))),
    S("Alchemy", "alchemy_api_key", ("ALCHEMY_API_KEY", g("", B64U, 32))),
    # ---- AI / LLM
    S("OpenAI", "openai_project_key", ("OPENAI_API_KEY", lambda: "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))),
    S("OpenAI", "openai_legacy_key", ("OPENAI_API_KEY", lambda: "sk-" + rs(AN, 20) + "T3BlbkFJ" + rs(AN, 20))),
    S("OpenAI", "openai_service_account_key", ("OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))),
    S("Anthropic", "anthropic_api_key", ("ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(B64U, 93) + "AA")),
    S("Anthropic", "anthropic_admin_key", ("ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(B64U, 93) + "AA")),
    S("Google Gemini", "gemini_api_key", ("GEMINI_API_KEY", g("AIza", B64U, 35))),
    S("Hugging Face", "huggingface_token", ("HF_TOKEN", g("hf_", UP + LO, 34))),
    S("Cohere", "cohere_api_key", ("COHERE_API_KEY", g("", AN, 40))),
    S("Replicate", "replicate_api_token", ("REPLICATE_API_TOKEN", g("r8_", AN, 37))),
    S("Groq", "groq_api_key", ("GROQ_API_KEY", g("gsk_", AN, 52))),
    S("Mistral AI", "mistral_api_key", ("MISTRAL_API_KEY", g("", AN, 32))),
    S("Perplexity", "perplexity_api_key", ("PERPLEXITY_API_KEY", g("pplx-", AN, 48))),
    S("xAI", "xai_api_key", ("XAI_API_KEY", g("xai-", AN, 80))),
    S("DeepSeek", "deepseek_api_key", ("DEEPSEEK_API_KEY", g("sk-", HEX, 32))),
    S("Together AI", "together_api_key", ("TOGETHER_API_KEY", g("", HEX, 64))),
    S("ElevenLabs", "elevenlabs_api_key", ("ELEVENLABS_API_KEY", g("sk_", HEX, 48))),
    S("Stability AI", "stability_api_key", ("STABILITY_API_KEY", g("sk-", AN, 48))),
    S("LangSmith", "langsmith_api_key", ("LANGSMITH_API_KEY", lambda: "lsv2_pt_" + rs(HEX, 32) + "_" + rs(HEX, 10))),
    S("Weights & Biases", "wandb_api_key", ("WANDB_API_KEY", g("", HEX, 40))),
    S("OpenRouter", "openrouter_api_key", ("OPENROUTER_API_KEY", g("sk-or-v1-", HEX, 64))),
    S("Fireworks AI", "fireworks_api_key", ("FIREWORKS_API_KEY", g("fw_", AN, 24))),
    S("Deepgram", "deepgram_api_key", ("DEEPGRAM_API_KEY", g("", HEX, 40))),
    S("AssemblyAI", "assemblyai_api_key", ("ASSEMBLYAI_API_KEY", g("", HEX, 32))),
    S("Voyage AI", "voyage_api_key", ("VOYAGE_API_KEY", g("pa-", B64U, 43))),
    # ---- SaaS / CRM / productivity / media
    S("Salesforce", "salesforce_access_token", ("SF_ACCESS_TOKEN", lambda: "00D" + rs(AN, 12) + "!AQ" + rs(AN + "._", 94))),
    S("Salesforce", "salesforce_connected_app", ("SF_CONSUMER_KEY", lambda: "3MVG9" + rs(AN + "._", 80)), ("SF_CONSUMER_SECRET", g("", HEXU, 64))),
    S("HubSpot", "hubspot_private_app_token", ("HUBSPOT_ACCESS_TOKEN", lambda: "pat-" + pick(["na1", "eu1"]) + "-" + uuid4())),
    S("Zendesk", "zendesk_api_token", ("ZENDESK_API_TOKEN", g("", AN, 40))),
    S("Pipedrive", "pipedrive_api_token", ("PIPEDRIVE_API_TOKEN", g("", HEX, 40))),
    S("Freshdesk", "freshdesk_api_key", ("FRESHDESK_API_KEY", g("", AN, 20))),
    S("Asana", "asana_pat", ("ASANA_ACCESS_TOKEN", lambda: "2/" + rs(DG, 16) + "/" + rs(DG, 16) + ":" + rs(HEX, 32))),
    S("Linear", "linear_api_key", ("LINEAR_API_KEY", g("lin_api_", AN, 40))),
    S("Trello", "trello_key_token", ("TRELLO_API_KEY", g("", HEX, 32)), ("TRELLO_TOKEN", lambda: "ATTA" + rs(HEX, 64) + rs(HEXU, 8))),
    S("ClickUp", "clickup_api_token", ("CLICKUP_API_TOKEN", lambda: "pk_" + rs(DG, 8) + "_" + rs(ANU, 32))),
    S("monday.com", "monday_api_token", ("MONDAY_API_TOKEN", lambda: jwt({"tid": rint(10 ** 8, 10 ** 9), "aai": 11, "uid": rint(10 ** 7, 10 ** 8), "iad": ts(), "per": "me:write", "actid": rint(10 ** 6, 10 ** 7), "rgn": "euc1"}))),
    S("Figma", "figma_pat", ("FIGMA_TOKEN", g("figd_", B64U, 40))),
    S("Dropbox", "dropbox_access_token", ("DROPBOX_ACCESS_TOKEN", g("sl.", B64U, 136))),
    S("Box", "box_developer_token", ("BOX_DEVELOPER_TOKEN", g("", AN, 32))),
    S("Contentful", "contentful_management_token", ("CONTENTFUL_MANAGEMENT_TOKEN", g("CFPAT-", B64U, 43))),
    S("Sanity", "sanity_api_token", ("SANITY_API_TOKEN", g("sk", AN, 78))),
    S("Typeform", "typeform_pat", ("TYPEFORM_TOKEN", lambda: "tfp_" + rs(AN, 44) + "_" + rs(AN, 14))),
    S("Cloudinary", "cloudinary_url", ("CLOUDINARY_URL", _cloudinary)),
    S("Frame.io", "frameio_token", ("FRAMEIO_TOKEN", g("fio-u-", B64U, 64))),
    S("Mapbox", "mapbox_secret_token", ("MAPBOX_SECRET_TOKEN", lambda: _mapbox("sk"))),
    # ---- auth / identity / social
    S("Auth0", "auth0_client_secret", ("AUTH0_CLIENT_ID", g("", AN, 32)), ("AUTH0_CLIENT_SECRET", g("", B64U, 64))),
    S("Okta", "okta_api_token", ("OKTA_API_TOKEN", g("00", B64U, 40))),
    S("Clerk", "clerk_secret_key", ("CLERK_SECRET_KEY", g("sk_live_", AN, 40))),
    S("Stytch", "stytch_secret", ("STYTCH_PROJECT_ID", lambda: "project-live-" + uuid4()), ("STYTCH_SECRET", g("secret-live-", B64U, 36))),
    S("Keycloak", "keycloak_client_secret", ("KEYCLOAK_CLIENT_SECRET", g("", AN, 32))),
    S("Google OAuth", "google_oauth_client_secret", ("GOOGLE_CLIENT_ID", lambda: f"{rint(10 ** 11, 10 ** 12 - 1)}-{rs(ANL, 32)}.apps.googleusercontent.com"), ("GOOGLE_CLIENT_SECRET", g("GOCSPX-", B64U, 28))),
    S("Google OAuth", "google_oauth_refresh_token", ("GOOGLE_REFRESH_TOKEN", lambda: "1//0" + rs(B64U, 99))),
    S("X (Twitter)", "twitter_bearer_token", ("TWITTER_BEARER_TOKEN", lambda: "AAAAAAAAAAAAAAAAAAAAA" + rs(AN, 30) + "%3D" + rs(AN, 50))),
    S("X (Twitter)", "twitter_consumer_secret", ("TWITTER_API_KEY", g("", AN, 25)), ("TWITTER_API_SECRET", g("", AN, 50))),
    S("Meta", "facebook_access_token", ("FB_ACCESS_TOKEN", g("EAAG", AN, 180))),
    S("Meta", "facebook_app_secret", ("FB_APP_ID", lambda: str(rint(10 ** 14, 10 ** 15 - 1))), ("FB_APP_SECRET", g("", HEX, 32))),
    S("LinkedIn", "linkedin_client_secret", ("LINKEDIN_CLIENT_ID", g("", ANL, 14)), ("LINKEDIN_CLIENT_SECRET", g("", AN, 16))),
    S("Spotify", "spotify_client_secret", ("SPOTIFY_CLIENT_ID", g("", HEX, 32)), ("SPOTIFY_CLIENT_SECRET", g("", HEX, 32))),
    S("Reddit", "reddit_app_secret", ("REDDIT_CLIENT_ID", g("", B64U, 22)), ("REDDIT_CLIENT_SECRET", g("", B64U, 30))),
    S("Apple", "apple_app_specific_password", ("APPLE_APP_SPECIFIC_PASSWORD", lambda: "-".join(rs(LO, 4) for _ in range(4)))),
]
SINGLE_SPECS = [s for s in VENDOR_SPECS if len(s.kvs) == 1]
VENDORS_USED: dict[str, int] = {}


def use_vendor(v: str) -> None:
    VENDORS_USED[v] = VENDORS_USED.get(v, 0) + 1


# --------------------------------------------------------------------------
# renderers for vendor tokens (plain variant).  Each returns (value, src, lang)
# --------------------------------------------------------------------------
TOK_PROSE = {
    "en": ["note to self: {v} {label} for {proj} is {val}",
           "Saving this so I stop digging through Slack - {v} {label}: {val}",
           "new {v} {label} after yesterday's rotation: {val} (old one revoked)",
           "if the {proj} deploy breaks again, the {v} {label} is {val}",
           "{v} {label} (prod, expires in 90 days) -> {val}",
           "remember the {v} {label} for {proj}? here it is: {val}"],
    "de": ["Mein {v}-Token für {proj}: {val}", "Neuer {v} API-Schlüssel, gültig ab heute: {val}",
           "{v} Zugangsschluessel fuer das {proj}-Projekt: {val}"],
    "fr": ["Ma clé API {v} pour {proj} : {val}", "nouveau token {v} (l'ancien est revoque) : {val}"],
    "es": ["Mi clave de API de {v} para {proj}: {val}", "token nuevo de {v}, el anterior ya no sirve: {val}"],
    "pt": ["Chave da API do {v} para o {proj}: {val}", "token do {v} que o {person} mandou: {val}"],
    "it": ["La chiave API di {v} per {proj} è {val}", "token di {v} per lo staging: {val}"],
    "nl": ["{v} API-sleutel voor {proj}: {val}", "nieuwe {v} token, oude is ingetrokken: {val}"],
    "pl": ["Klucz API {v} do projektu {proj}: {val}", "token {v} (nie udostepniac!): {val}"],
    "ja": ["{v}のAPIキー（{proj}用）: {val}", "{v}のトークンをメモ: {val}"],
    "zh": ["{proj}用的{v} API密钥：{val}", "{v}的访问令牌是 {val}"],
    "ko": ["{proj}용 {v} API 키: {val}", "{v} 토큰 메모 {val}"],
    "ru": ["API-ключ {v} для {proj}: {val}", "токен {v}: {val}, не светить в чате"],
    "tr": ["{proj} için {v} API anahtarı: {val}", "{v} token'ı: {val}"],
    "sv": ["{v} API-nyckel för {proj}: {val}"],
}


def _kvtext(kvs):
    return ", ".join(f"{label_of(k)} {val}" for k, val in kvs)


def r_env(v, kvs):
    lines = []
    if R.random() < 0.6:
        lines.append(f"# {v} - {pick(PROJECTS)}")
    extras = [f"NODE_ENV={pick(['production', 'staging'])}", f"PORT={pick(['3000', '8080', '5000', '8000'])}",
              f"LOG_LEVEL={pick(['info', 'debug', 'warn'])}", f"APP_URL=https://{pick(PROJECTS)}.example.org"]
    R.shuffle(extras)
    body = [f"{k}={val}" for k, val in kvs]
    lines += extras[:rint(0, 2)] + body + extras[2:2 + rint(0, 1)]
    return "\n".join(lines) + "\n", "env", "en"


def r_export(v, kvs):
    lines = [f"# {v}"] if R.random() < 0.5 else []
    lines += [f"export {k}='{val}'" for k, val in kvs]
    if R.random() < 0.4:
        lines.insert(0, "# appended to ~/.zshrc")
    return "\n".join(lines), "shell", "en"


def r_json(v, kvs):
    d = {"service": v, "project": pick(PROJECTS)}
    for k, val in kvs:
        d[k.lower()] = val
    d["added"] = date_str()
    return d, "json", "en"


def r_json_nested(v, kvs):
    inner = {k.lower(): val for k, val in kvs}
    inner["enabled"] = True
    return {"integrations": {slugify(v): inner}, "updated_by": pick(FIRST), "updated_at": ts()}, "json", "en"


def r_yaml(v, kvs):
    lines = [f"{slugify(v).replace('-', '_')}:"]
    for k, val in kvs:
        lines.append(f"  {k.lower()}: \"{val}\"")
    lines.append(f"  timeout_seconds: {pick([10, 30, 60])}")
    return "\n".join(lines) + "\n", "yaml", "en"


def r_toml(v, kvs):
    lines = [f"[{slugify(v)}]"] + [f"{k.lower()} = \"{val}\"" for k, val in kvs]
    return "\n".join(lines) + "\n", "toml", "en"


def r_ini(v, kvs):
    lines = [f"[{slugify(v)}]"] + [f"{k.lower()}={val}" for k, val in kvs] + [f"retries={rint(1, 5)}"]
    return "\n".join(lines) + "\n", "ini", "en"


def r_prose(v, kvs):
    if len(kvs) == 1:
        k, val = kvs[0]
        t = pick(TOK_PROSE["en"])
        return t.format(v=v, label=nice_label(v, k)[len(v) + 1:], proj=pick(PROJECTS), val=val, person=pick(FIRST)), "prose", "en"
    t = pick(["{v} creds for {proj}: {kv}", "keep these {v} credentials handy ({proj}): {kv}",
              "{v} - {kv}. Don't lose them again!"])
    return t.format(v=v, proj=pick(PROJECTS), kv=_kvtext(kvs)), "prose", "en"


def r_prose_intl(v, kvs):
    lang = pick(["de", "fr", "es", "pt", "it", "nl", "pl", "ja", "zh", "ko", "ru", "tr", "sv"])
    if len(kvs) == 1:
        k, val = kvs[0]
        t = pick(TOK_PROSE[lang])
        return t.format(v=v, proj=pick(PROJECTS), val=val, person=pick(FIRST), label=nice_label(v, k)[len(v) + 1:]), "prose-" + lang, lang
    heads = {"de": "Zugangsdaten {v}", "fr": "Identifiants {v}", "es": "Credenciales de {v}",
             "pt": "Credenciais do {v}", "it": "Credenziali {v}", "nl": "Inloggegevens {v}",
             "pl": "Dane dostepowe {v}", "ja": "{v}の認証情報", "zh": "{v}凭据", "ko": "{v} 인증 정보",
             "ru": "Доступы {v}", "tr": "{v} erişim bilgileri", "sv": "Inloggning {v}"}
    return heads[lang].format(v=v) + ": " + _kvtext(kvs), "prose-" + lang, lang


def r_chat(v, kvs):
    who = pick(FIRST)
    if len(kvs) == 1:
        k, val = kvs[0]
        text = pick([f"here's the {nice_label(v, k)} you asked for: {val} - please don't paste it in #general",
                     f"@{pick(FIRST).lower()} staging uses {k}={val}, prod is different",
                     f"ok I regenerated the {v} key, new one is {val}"])
    else:
        text = f"{v} creds for the demo -> {_kvtext(kvs)}"
    if R.random() < 0.5:
        return {"channel": pick(["#dev", "#ops", "#random", "DM"]), "from": who, "ts": ts(), "text": text}, "chat", "en"
    return f"[{rint(8, 22):02d}:{rint(0, 59):02d}] {who.lower()}: {text}", "chat", "en"


def r_code(v, kvs):
    lang = rint(0, 7)
    k0, val0 = kvs[0]
    if lang == 0:
        args = ",\n".join(f"    {k.lower()}=\"{val}\"" for k, val in kvs)
        return f"from {slugify(v).replace('-', '_')} import {cls_name(v)}\n\nclient = {cls_name(v)}(\n{args},\n)\n", "code-python", "en"
    if lang == 1:
        lines = [f"const {camel(k)} = \"{val}\";" for k, val in kvs]
        return "\n".join(lines) + f"\nconst client = new {cls_name(v)}({{ {camel(k0)} }});\n", "code-js", "en"
    if lang == 2:
        lines = [f"\t{camel(k)} = \"{val}\"" for k, val in kvs]
        return "var (\n" + "\n".join(lines) + "\n)\n", "code-go", "en"
    if lang == 3:
        lines = [f"private static final String {k} = \"{val}\";" for k, val in kvs]
        return "\n".join(lines), "code-java", "en"
    if lang == 4:
        lines = [f"define('{k}', '{val}');" for k, val in kvs]
        return "<?php\n" + "\n".join(lines) + "\n", "code-php", "en"
    if lang == 5:
        lines = [f"{k} = '{val}'.freeze" for k, val in kvs]
        return "\n".join(lines) + "\n", "code-ruby", "en"
    if lang == 6:
        lines = [f"var {camel(k)} = \"{val}\";" for k, val in kvs]
        return "\n".join(lines), "code-csharp", "en"
    body = "\n".join(f"  {k.lower()} = \"{val}\"" for k, val in kvs)
    return f"provider \"{slugify(v)}\" {{\n{body}\n}}\n", "terraform", "en"


def r_curl(v, kvs):
    k, val = kvs[0]
    host = f"api.{slugify(v).replace('-', '')}.com"
    hdr = pick([f"Authorization: Bearer {val}", f"X-API-Key: {val}", f"Authorization: token {val}"])
    return f"curl -s -H \"{hdr}\" https://{host}/v1/{pick(['me', 'projects', 'usage', 'items?limit=5'])}", "curl", "en"


def r_header(v, kvs):
    k, val = kvs[0]
    return {"service": v, "request": {"method": pick(["GET", "POST"]), "url": f"https://api.{slugify(v).replace('-', '')}.com/v2/{pick(['events', 'messages', 'jobs'])}",
                                      "headers": {"Authorization": f"Bearer {val}", "Content-Type": "application/json"}}}, "http-header", "en"


def r_log(v, kvs):
    k, val = kvs[0]
    t = pick([f"{ts()} DEBUG {slugify(v)}.client: initialising with {k}={val}",
              f"{ts()} INFO  [{slugify(v)}] auth ok using {label_of(k)} '{val}'",
              f"{ts()} WARN  config: {k} loaded from plaintext file (value={val}); move it to the secret store"])
    return t, "log", "en"


def r_k8s(v, kvs):
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {slugify(v)}-credentials",
             f"  namespace: {pick(['default', 'prod', 'payments', 'monitoring'])}", "type: Opaque", "stringData:"]
    lines += [f"  {k}: \"{val}\"" for k, val in kvs]
    return "\n".join(lines) + "\n", "k8s", "en"


def r_compose(v, kvs):
    lines = ["services:", f"  {pick(['api', 'worker', 'web', 'bot'])}:", f"    image: {pick(PROJECTS)}:latest",
             "    environment:"] + [f"      - {k}={val}" for k, val in kvs]
    return "\n".join(lines) + "\n", "docker-compose", "en"


def r_gha(v, kvs):
    lines = ["jobs:", "  deploy:", "    runs-on: ubuntu-latest", "    env:"]
    lines += [f"      {k}: {val}" for k, val in kvs]
    lines += ["    steps:", "      - uses: actions/checkout@v4", f"      - run: ./scripts/deploy.sh"]
    return "\n".join(lines) + "\n", "ci-yaml", "en"


def r_list(v, kvs):
    items = [pick(["TODO move to vault", "for the migration", "copied from old laptop"])]
    items += [f"{k}: {val}" for k, val in kvs]
    items.append(f"owner: {pick(FIRST)}")
    return items, "list", "en"


def r_appsettings(v, kvs):
    return {"Logging": {"LogLevel": {"Default": "Information"}},
            cls_name(v).replace("Client", ""): {camel(k)[0].upper() + camel(k)[1:]: val for k, val in kvs},
            "AllowedHosts": "*"}, "appsettings-json", "en"


SINGLE_RENDERERS = [r_env, r_export, r_json, r_json_nested, r_yaml, r_toml, r_ini, r_prose, r_prose,
                    r_prose_intl, r_prose_intl, r_chat, r_code, r_code, r_curl, r_header, r_log, r_k8s,
                    r_compose, r_gha, r_list, r_appsettings]
MULTI_RENDERERS = [r_env, r_export, r_json, r_json_nested, r_yaml, r_toml, r_ini, r_prose, r_prose_intl,
                   r_chat, r_code, r_code, r_k8s, r_compose, r_gha, r_list, r_appsettings]


def gen_vendor_records():
    """One plain record per vendor spec, renderer picked round-robin from a shuffled pool."""
    out = []
    pool_s, pool_m = [], []
    for spec in VENDOR_SPECS:
        kvs = [(k, fn()) for k, fn in spec.kvs]
        if len(kvs) == 1:
            if not pool_s:
                pool_s = SINGLE_RENDERERS[:]
                R.shuffle(pool_s)
            r = pool_s.pop()
        else:
            if not pool_m:
                pool_m = MULTI_RENDERERS[:]
                R.shuffle(pool_m)
            r = pool_m.pop()
        value, src, lang = r(spec.vendor, kvs)
        use_vendor(spec.vendor)
        out.append((spec.kind, src, value, lang))
    return out


# --------------------------------------------------------------------------
# plain secrets: private keys and wallets
# --------------------------------------------------------------------------
def eth_key() -> str:
    return rs(HEX, 64)


def wif() -> str:
    return pick(["5" + pick("HJK") + rs(B58, 49), pick("KL") + rs(B58, 51)])


def gen_keys():
    proj = pick(PROJECTS)
    items = [
        ("rsa_private_key_pem", "pem", {"path": pick(["~/.ssh/id_rsa", "deploy/keys/prod.pem", "certs/server.key"]), "content": rsa_pkcs1()}),
        ("pkcs8_private_key_pem", "pem", f"TLS key for {proj}.example.org (renewed {date_str()}):\n{pkcs8_rsa()}"),
        ("ec_private_key_pem", "pem", ec_key()),
        ("openssh_private_key_ed25519", "ssh-key", "my laptop key, ~/.ssh/id_ed25519 - copy to the new machine:\n" + openssh_ed25519()),
        ("openssh_private_key_rsa", "ssh-key", {"host": "bastion.internal", "user": "ubuntu", "identity_file_contents": openssh_rsa()}),
        ("pgp_private_key_block", "pgp", "backup of my GPG signing key (passphrase is in my head):\n" + pgp_private()),
        ("encrypted_private_key_with_passphrase", "pem", {"key": pem("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1780), "passphrase": human_pw()}),
        ("gcp_service_account_json", "json", {"type": "service_account", "project_id": proj, "private_key_id": rs(HEX, 40),
                                              "private_key": pkcs8_rsa() + "\n", "client_email": f"{pick(['ci-deployer', 'etl', 'backup'])}@{proj}.iam.gserviceaccount.com",
                                              "client_id": rs(DG, 21), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                                              "token_uri": "https://oauth2.googleapis.com/token"}),
        ("apple_p8_auth_key", "pem", f"AuthKey_{rs(ANU, 10)}.p8 for push notifications (team {rs(ANU, 10)}):\n"
         + pem("PRIVATE KEY", "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg", 200)),
        ("github_app_private_key", "pem", f"GitHub App private key for the release bot (app id {rint(100000, 999999)}):\n" + rsa_pkcs1()),
        ("putty_private_key", "ppk", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ed25519-key-" + date_str().replace("-", "")
         + "\nPublic-Lines: 2\n" + ed25519_raw_pub()[:64] + "\n" + ed25519_raw_pub()[64:] + "\nPrivate-Lines: 1\nAAAAI" + rs(B64, 43)
         + "\nPrivate-MAC: " + rs(HEX, 64)),
        ("wireguard_private_key", "ini", f"[Interface]\nPrivateKey = {wg_key()}\nAddress = 10.{rint(0, 9)}.0.{rint(2, 40)}/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {wg_key()}\nEndpoint = vpn.{pick(LAST_ASCII).lower()}.net:51820\nAllowedIPs = 0.0.0.0/0\n"),
        ("ethereum_private_key", "prose", f"MetaMask account 2 private key: 0x{eth_key()} - the one with the NFTs"),
        ("ethereum_private_key", "json", {"wallet": "hot wallet (bot)", "address": "0x" + rs(HEX, 40), "private_key": eth_key()}),
        ("bip39_seed_phrase", "prose", f"seed phrase for the Ledger, write it on paper later: {mnemonic()}"),
        ("bip39_seed_phrase", "list", [f"{i + 1}. {w}" for i, w in enumerate(mnemonic(24).split())]),
        ("bip39_seed_phrase_de", "prose-de", f"Wiederherstellungsphrase für die Trezor-Wallet: {mnemonic(12)}"),
        ("bip39_seed_phrase_es", "prose-es", f"frase semilla de mi billetera (no compartir): {mnemonic(12)}"),
        ("bitcoin_wif_private_key", "prose", f"paper wallet from 2017, WIF private key {wif()}"),
        ("bitcoin_xprv", "prose", f"extended private key for the multisig cosigner: xprv9s21ZrQH143K{rs(B58, 95)}"),
        ("solana_keypair_json", "json", {"file": "~/.config/solana/id.json", "content": [R.randrange(256) for _ in range(64)]}),
        ("age_secret_key", "prose", f"# created: {ts()}\n# public key: age1{rs(BECH, 58)}\nAGE-SECRET-KEY-1{rs(BECH.upper(), 58)}"),
        ("minisign_secret_key", "prose", "untrusted comment: minisign encrypted secret key\nRWRTY0Iy" + rs(B64, 204)),
        ("kubeconfig_client_key", "yaml", "apiVersion: v1\nkind: Config\nusers:\n- name: admin@" + proj + "\n  user:\n    client-certificate-data: "
         + rs(B64, 120) + "\n    client-key-data: " + b64e(ec_key()) + "\n"),
        ("monero_spend_key", "prose", f"Monero wallet: private spend key {rs(HEX, 64)}, view key {rs(HEX, 64)}"),
    ]
    return [(k, s, v, "de" if s.endswith("-de") else "es" if s.endswith("-es") else "en") for k, s, v in items]


# --------------------------------------------------------------------------
# plain secrets: JWTs, sessions, cookies
# --------------------------------------------------------------------------
def _user_claims():
    return {"sub": str(rint(1000, 999999)), "email": f"{pick(FIRST_ASCII).lower()}@{pick(DOMAINS)}",
            "role": pick(["admin", "user", "editor", "service"]), "iat": epoch(), "exp": epoch() + 3600}


def gen_sessions():
    claims = _user_claims()
    items = [
        ("jwt_bearer_header", "http-header", f"Authorization: Bearer {jwt(_user_claims())}"),
        ("auth0_access_token", "json", {"access_token": jwt({"iss": f"https://{pick(PROJECTS)}.eu.auth0.com/", "sub": "auth0|" + rs(HEX, 24), "aud": ["https://api.example.org"], "iat": epoch(), "exp": epoch() + 86400, "scope": "openid profile read:orders"}, alg="RS256", siglen=256),
                                        "token_type": "Bearer", "expires_in": 86400}),
        ("oauth_token_response", "json", {"access_token": jwt(claims), "refresh_token": rs(B64U, 64), "expires_in": 3600, "token_type": "bearer"}),
        ("firebase_id_token", "prose", "firebase id token copied from devtools for testing: " + jwt({"iss": "https://securetoken.google.com/" + pick(PROJECTS), "aud": pick(PROJECTS), "user_id": rs(AN, 28), "iat": epoch(), "exp": epoch() + 3600}, alg="RS256", siglen=256)),
        ("jwt_in_localstorage", "json", {"localStorage": {"auth": json.dumps({"token": jwt(_user_claims()), "user": pick(FIRST)}), "theme": "dark"}}),
        ("k8s_service_account_token", "yaml", "users:\n- name: ci-bot\n  user:\n    token: " + jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "sub": "system:serviceaccount:ci:deployer"}, alg="RS256", siglen=256) + "\n"),
        ("django_session_cookie", "http-header", f"Cookie: csrftoken={rs(AN, 32)}; sessionid={rs(ANL, 32)}"),
        ("express_session_cookie", "http-header", f"Set-Cookie: connect.sid=s%3A{rs(B64U, 32)}.{rs(B64U, 43)}; Path=/; HttpOnly; Secure"),
        ("php_session_cookie", "prose", f"logged-in admin session for the shop backend: PHPSESSID={rs(ANL, 26)} (valid till tonight)"),
        ("java_session_cookie", "log", f"{ts()} DEBUG o.a.c.session: restored session JSESSIONID={rs(HEXU, 32)} for user {pick(FIRST_ASCII).lower()}"),
        ("laravel_session_cookie", "http-header", "Cookie: XSRF-TOKEN=" + b64e(json.dumps({"iv": rs(B64, 24), "value": rs(B64, 64), "mac": rs(HEX, 64), "tag": ""})) + "; laravel_session=" + b64e(json.dumps({"iv": rs(B64, 24), "value": rs(B64, 88), "mac": rs(HEX, 64), "tag": ""}))),
        ("rails_session_cookie", "http-header", f"Cookie: _{pick(PROJECTS).replace('-', '_')}_session={rs(B64, 200)}--{rs(HEX, 40)}"),
        ("aspnet_auth_cookie", "http-header", f"Cookie: .AspNetCore.Cookies=CfDJ8{rs(B64U, 300)}"),
        ("nextauth_session_token", "json", {"name": "__Secure-next-auth.session-token", "value": "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + rs(B64U, 16) + "." + rs(B64U, 380) + "." + rs(B64U, 22), "domain": pick(PROJECTS) + ".vercel.app"}),
        ("netscape_cookie_line", "cookies-txt", f"# Netscape HTTP Cookie File\n.github.com\tTRUE\t/\tTRUE\t{epoch() + 10 ** 7}\tuser_session\t{rs(B64U, 48)}\n"),
        ("google_sid_cookie", "json", {"cookies": [{"name": "SID", "value": "g." + rs(B64U, 150), "domain": ".google.com"}, {"name": "NID", "value": rs(B64U, 40), "domain": ".google.com"}]}),
        ("jwt_refresh_prose_de", "prose-de", f"Refresh-Token für die Kunden-App (läuft in 30 Tagen ab): {jwt({'sub': str(rint(1000, 99999)), 'typ': 'refresh', 'exp': epoch()})}"),
        ("aws_cognito_id_token", "json", {"IdToken": jwt({"sub": uuid4(), "cognito:username": pick(FIRST_ASCII).lower(), "iss": "https://cognito-idp.eu-central-1.amazonaws.com/eu-central-1_" + rs(AN, 9)}, alg="RS256", siglen=256), "TokenType": "Bearer"}),
    ]
    return [(k, s, v, "de" if s.endswith("-de") else "en") for k, s, v in items]


# --------------------------------------------------------------------------
# plain secrets: connection strings and basic auth
# --------------------------------------------------------------------------
def _u():
    return pick(["app", "admin", "etl_user", "postgres", "root", "svc_orders", "analytics", "django", "wp_user", "sa", "grafana", "reporting"])


def _q(pw):
    return urllib.parse.quote(pw, safe="")


def gen_conn():
    proj = pick(PROJECTS)
    h = lambda: pick(["db.internal", "10.0.3.17", "prod-db-1.cluster-c" + rs(ANL, 12) + ".eu-west-1.rds.amazonaws.com", "pg.homelab.lan", "mysql.example.net"])
    items = [
        ("postgres_url_with_password", "env", f"DATABASE_URL=postgres://{_u()}:{_q(human_pw())}@{h()}:5432/{proj.replace('-', '_')}"),
        ("postgres_url_with_password", "prose", f"prod read replica: postgresql://reporting:{_q(human_pw())}@{h()}:5432/analytics?sslmode=require"),
        ("mysql_url_with_password", "yaml", f"database:\n  url: mysql://{_u()}:{_q(human_pw())}@{h()}:3306/shop\n  pool: 10\n"),
        ("mongodb_srv_url", "env", f"MONGODB_URI=mongodb+srv://{_u()}:{_q(human_pw())}@cluster0.{rs(ANL, 5)}.mongodb.net/{proj}?retryWrites=true&w=majority"),
        ("redis_url_with_password", "env", f"REDIS_URL=redis://:{rs(AN, 32)}@redis.internal:6379/0"),
        ("redis_url_with_password", "json", {"cache": {"url": f"rediss://default:{rs(AN, 34)}@{pick(['eu1', 'us1'])}-{pick(['brave', 'quick', 'lucky'])}-{pick(['owl', 'fox', 'crab'])}-{rint(10000, 99999)}.upstash.io:6379"}}),
        ("amqp_url_with_password", "env", f"CELERY_BROKER_URL=amqp://{_u()}:{_q(human_pw())}@rabbitmq:5672/{proj}"),
        ("mssql_connection_string", "appsettings-json", {"ConnectionStrings": {"Default": f"Server=tcp:{proj}.database.windows.net,1433;Initial Catalog=appdb;Persist Security Info=False;User ID=sqladmin;Password={human_pw()};Encrypt=True;"}}),
        ("jdbc_url_with_password", "properties", f"spring.datasource.url=jdbc:postgresql://{h()}:5432/app?user=app&password={_q(human_pw())}\nspring.jpa.hibernate.ddl-auto=validate\n"),
        ("ftp_url_with_password", "prose", f"old web host FTP: ftp://{pick(LAST_ASCII).lower()}:{_q(human_pw())}@ftp.{pick(LAST_ASCII).lower()}-webhosting.de/public_html"),
        ("smtp_url_with_password", "env", f"EMAIL_URL=smtp+tls://noreply%40{proj}.org:{_q(human_pw())}@smtp.{pick(['gmail.com', 'office365.com', 'mailbox.org'])}:587"),
        ("git_https_url_with_token", "shell", f"git remote set-url origin https://{pick(FIRST_ASCII).lower()}:ghp_{rs(AN, 36)}@github.com/{pick(LAST_ASCII).lower()}/{proj}.git"),
        ("elasticsearch_url_with_password", "yaml", f"output.elasticsearch:\n  hosts: [\"https://elastic:{_q(human_pw())}@es.{proj}.internal:9200\"]\n"),
        ("snowflake_url_with_password", "python", f"engine = create_engine(\"snowflake://ETL_SVC:{_q(human_pw())}@{rs(LO, 7)}-{rs(LO, 7)}/ANALYTICS/PUBLIC?warehouse=COMPUTE_WH\")"),
        ("neo4j_url_with_password", "env", f"NEO4J_URI=neo4j+s://neo4j:{rs(B64U, 43)}@{rs(HEX, 8)}.databases.neo4j.io"),
        ("kafka_sasl_jaas_config", "properties", f"sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username=\"{rs(ANU, 16)}\" password=\"{rs(B64, 64)}\";\n"),
        ("oracle_easy_connect_password", "shell", f"sqlplus system/{human_pw()}@//oracle.internal:1521/ORCLPDB1"),
        ("ldap_bind_password", "ini", f"[ldap]\nuri = ldaps://ldap.corp.local\nbind_dn = cn=svc-sync,ou=services,dc=corp,dc=local\nbind_password = {human_pw()}\n"),
        ("proxy_url_with_password", "shell", f"export https_proxy=http://{pick(FIRST_ASCII).lower()}:{_q(human_pw())}@proxy.corp.local:3128"),
        ("clickhouse_dsn_password", "env", f"CLICKHOUSE_DSN=clickhouse://default:{rs(AN, 20)}@ch.{proj}.internal:9000/events"),
        ("azure_storage_connection_string", "env", f"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={rs(ANL, 12)};AccountKey={rs(B64, 86)}==;EndpointSuffix=core.windows.net"),
        ("azure_service_bus_connection_string", "json", {"ServiceBus": f"Endpoint=sb://{proj}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={rs(B64, 43)}="}),
        # --- basic auth and friends
        ("basic_auth_header", "http-header", f"Authorization: Basic {b64e(pick(FIRST_ASCII).lower() + ':' + human_pw())}"),
        ("basic_auth_header", "log", f"{ts()} DEBUG outgoing request GET https://jenkins.internal/api/json headers={{'Authorization': 'Basic {b64e('admin:' + human_pw())}'}}"),
        ("curl_user_password", "shell", f"curl -u admin:{human_pw()} https://nexus.internal/service/rest/v1/repositories"),
        ("netrc_password", "netrc", f"machine api.{pick(['heroku.com', 'example.com', 'bitbucket.org'])}\n  login {pick(FIRST_ASCII).lower()}@{pick(DOMAINS)}\n  password {human_pw()}\n"),
        ("pgpass_line", "pgpass", f"# ~/.pgpass\ndb.internal:5432:*:{_u()}:{human_pw()}\n"),
        ("git_credentials_store", "prose", f"~/.git-credentials contains https://{pick(FIRST_ASCII).lower()}:{rs(AN, 20)}@bitbucket.org"),
        ("docker_login_password", "shell", f"docker login registry.{pick(PROJECTS)}.io -u deploy -p {human_pw()}"),
        ("mysql_cli_password", "shell-history", f"  512  mysql -h 127.0.0.1 -u root -p{human_pw()} shop_prod\n  513  exit\n"),
        ("sshpass_password", "shell", f"sshpass -p '{human_pw()}' ssh pi@192.168.{rint(0, 2)}.{rint(2, 250)}"),
        ("maven_settings_password", "xml", f"<servers>\n  <server>\n    <id>nexus-releases</id>\n    <username>deployer</username>\n    <password>{human_pw()}</password>\n  </server>\n</servers>"),
        ("pip_index_url_credentials", "ini", f"[global]\nindex-url = https://ci:{_q(human_pw())}@pypi.{pick(PROJECTS)}.internal/simple/\n"),
        ("wget_password", "shell", f"wget --user=backup --password='{human_pw()}' https://files.internal/dumps/latest.sql.gz"),
    ]
    return [(k, s, v, "en") for k, s, v in items]


# --------------------------------------------------------------------------
# plain secrets: passwords / PINs / codes in prose, many languages
# --------------------------------------------------------------------------
LANG_SECRET_TEMPLATES = {
    "en": [("wifi_password", "wifi at the cabin: network {ssid}, pw {wpw}"),
           ("wifi_password", "Guest wifi for the party -> {ssid} / {wpw}"),
           ("door_code", "Front door keypad code is {code}, don't give it to the cleaners until Monday"),
           ("bank_card_pin", "my debit card PIN is {pin}"),
           ("alarm_code", "alarm code for mom's house: {code}, you have 30 seconds to disarm"),
           ("safe_code", "hotel room safe combo {code}"),
           ("account_password", "{svc} login is {email} / {pw}"),
           ("account_password", "remember: my {svc} password is {pw}"),
           ("router_admin_password", "pasword for the router admin page is {pw}"),
           ("garage_code", "garage door opener code {code}"),
           ("voicemail_pin", "voicemail pin {pin}"),
           ("laptop_password", "work laptop login pw: {pw} (IT resets it every 90 days)"),
           ("gate_code", "gate code for the parking garage at the office is {code}"),
           ("device_unlock_pin", "kids' tablet unlock pin = {pin}"),
           ("account_password", "pls remeber my {svc} passwrod its {pw}")],
    "de": [("wifi_password", "WLAN-Passwort im Ferienhaus: {wpw} (Netz: {ssid})"),
           ("door_code", "Türcode Haustür: {code}"),
           ("bank_card_pin", "Meine PIN für die EC-Karte ist {pin}"),
           ("alarm_code", "Alarmanlage bei Oma: Code {code}, danach Taste #"),
           ("account_password", "Passwort fuer {svc}: {pw}"),
           ("safe_code", "Tresor im Hotelzimmer: {code}"),
           ("account_password", "Zugangsdaten Steuerportal: Benutzer {user}, Kennwort {pw}"),
           ("garage_code", "Garagentor-Code ist {code}, bitte nicht weitersagen")],
    "fr": [("door_code", "Le code de la porte d'entrée est {code}"),
           ("wifi_password", "mot de passe wifi chez mamie : {wpw}"),
           ("bank_card_pin", "Mon code PIN carte bleue: {pin}"),
           ("alarm_code", "code alarme maison {code} (a taper avant 30 secondes)"),
           ("account_password", "mdp {svc}: {pw}"),
           ("door_code", "digicode immeuble: {code}, puis interphone 'Durand'"),
           ("safe_code", "le coffre de la chambre s'ouvre avec {code}"),
           ("account_password", "mon mot de pass {svc} c'est {pw}")],
    "es": [("wifi_password", "La contraseña del wifi es {wpw}"),
           ("account_password", "contrasena de {svc}: {pw}"),
           ("door_code", "el codigo del portal es {code}"),
           ("bank_card_pin", "PIN de la tarjeta: {pin}"),
           ("alarm_code", "clave de la alarma {code}"),
           ("safe_code", "la caja fuerte del hotel se abre con {code}"),
           ("account_password", "usuario {user} y clave {pw} para {svc}")],
    "it": [("wifi_password", "La password del wifi è {wpw}"),
           ("door_code", "codice del portone: {code}"),
           ("bank_card_pin", "PIN bancomat {pin}"),
           ("alarm_code", "codice allarme casa al mare {code}"),
           ("account_password", "password di {svc}: {pw}"),
           ("safe_code", "la cassaforte in camera: {code}"),
           ("account_password", "la pasword di {svc} e {pw}")],
    "pt": [("wifi_password", "A senha do wifi é {wpw}"),
           ("bank_app_pin", "senha do app do banco é {pin}"),
           ("gate_code", "codigo do portao {code}"),
           ("account_password", "minha senha do {svc} é {pw}"),
           ("alarm_code", "código do alarme: {code}"),
           ("account_password", "senha {svc} -> {pw} (nao esquecer)")],
    "nl": [("wifi_password", "Wifi wachtwoord bij de buren: {wpw}"),
           ("bank_card_pin", "pincode van mijn bankpas is {pin}"),
           ("door_code", "code van de voordeur: {code}"),
           ("account_password", "wachtwoord {svc}: {pw}"),
           ("alarm_code", "alarmcode zomerhuis {code}")],
    "pl": [("wifi_password", "hasło do wifi: {wpw}"),
           ("account_password", "haslo do {svc} to {pw}"),
           ("bank_card_pin", "PIN do karty: {pin}"),
           ("door_code", "kod do domofonu {code}"),
           ("alarm_code", "kod alarmu u rodzicow {code}")],
    "sv": [("wifi_password", "Wifi-lösenordet är {wpw}"),
           ("door_code", "portkod: {code}"),
           ("bank_card_pin", "min pinkod till bankkortet är {pin}"),
           ("account_password", "losenord till {svc}: {pw}"),
           ("alarm_code", "larmkoden i stugan är {code}")],
    "tr": [("wifi_password", "Wifi şifresi: {wpw}"),
           ("door_code", "kapı kodu {code}"),
           ("bank_card_pin", "kart şifrem {pin}"),
           ("account_password", "sifre {svc}: {pw}"),
           ("alarm_code", "alarm kodu {code}, unutma")],
    "ru": [("wifi_password", "Пароль от вайфая: {wpw}"),
           ("door_code", "код домофона {code}"),
           ("bank_card_pin", "пин-код карты {pin}"),
           ("account_password", "пароль от {svc}: {pw}"),
           ("email_password", "парол от почты {pw}"),
           ("alarm_code", "код сигнализации на даче {code}")],
    "ja": [("wifi_password", "Wi-Fiのパスワードは {wpw} です"),
           ("door_code", "玄関の暗証番号: {code}"),
           ("bank_card_pin", "キャッシュカードの暗証番号は{pin}"),
           ("account_password", "{svc}のパスワード {pw}"),
           ("safe_code", "金庫の番号 {code}")],
    "zh": [("wifi_password", "家里WiFi密码是{wpw}"),
           ("door_code", "门禁密码：{code}"),
           ("bank_card_pin", "银行卡密码 {pin}"),
           ("account_password", "{svc}的密码是{pw}"),
           ("safe_code", "保险箱密码{code}")],
    "ko": [("wifi_password", "와이파이 비밀번호: {wpw}"),
           ("door_code", "현관 비밀번호 {code}"),
           ("bank_card_pin", "카드 비밀번호는 {pin}"),
           ("account_password", "{svc} 비번 {pw}")],
    "ar": [("wifi_password", "كلمة سر الواي فاي: {wpw}"),
           ("door_code", "رمز الباب {code}"),
           ("bank_card_pin", "الرقم السري للبطاقة {pin}"),
           ("account_password", "كلمة المرور لحساب {svc} هي {pw}")],
    "id": [("wifi_password", "password wifi rumah: {wpw}"),
           ("account_password", "kata sandi {svc} saya {pw}"),
           ("bank_card_pin", "PIN ATM {pin}"),
           ("door_code", "kode pintu kos {code}")],
    "vi": [("wifi_password", "Mật khẩu wifi là {wpw}"),
           ("account_password", "mat khau {svc}: {pw}"),
           ("bank_card_pin", "mã PIN thẻ ATM {pin}"),
           ("door_code", "mã cửa {code}")],
    "cs": [("wifi_password", "Heslo na wifi: {wpw}"),
           ("bank_card_pin", "PIN ke kartě {pin}"),
           ("door_code", "kod od vchodu {code}"),
           ("account_password", "heslo do {svc}: {pw}")],
    "fi": [("wifi_password", "Wifin salasana on {wpw}"),
           ("door_code", "ovikoodi {code}"),
           ("bank_card_pin", "pankkikortin PIN {pin}"),
           ("account_password", "{svc} salasana: {pw}")],
    "da": [("wifi_password", "Wifi-kodeord: {wpw}"),
           ("door_code", "dørkode {code}"),
           ("bank_card_pin", "pinkode til dankort {pin}"),
           ("account_password", "adgangskode til {svc}: {pw}")],
    "hi": [("wifi_password", "wifi ka password {wpw} hai"),
           ("bank_card_pin", "ATM pin {pin} hai, kisi ko mat batana"),
           ("account_password", "{svc} का पासवर्ड {pw} है")],
}


def slots() -> dict:
    return {"pw": human_pw(), "wpw": wifi_pw(), "code": door_code(), "pin": pin(), "svc": pick(CONSUMER),
            "ssid": ssid(), "user": pick(FIRST_ASCII).lower() + str(rint(1, 99)),
            "email": f"{pick(FIRST_ASCII).lower()}.{pick(LAST_ASCII).lower()}@{pick(DOMAINS)}"}


def gen_prose_secrets():
    out = []
    for lang, temps in LANG_SECRET_TEMPLATES.items():
        chosen = temps[:] if lang == "en" else R.sample(temps, min(4, len(temps)))
        for kind, t in chosen:
            text = t.format_map(slots())
            if R.random() < 0.25:
                text = {"note": text, "tags": [pick(["home", "family", "travel", "admin", "misc"])], "created": date_str()}
            out.append((f"{kind}_prose_{lang}", "prose-" + lang, text, lang))
    return out


# --------------------------------------------------------------------------
# plain secrets: dict fields with meaningful names in many languages
# --------------------------------------------------------------------------
def gen_field_secrets():
    u = lambda: pick(FIRST_ASCII).lower() + str(rint(1, 99))
    b = [
        ("password_field_de", "json-de", lambda: {"dienst": pick(CONSUMER), "benutzer": u(), "passwort": human_pw()}),
        ("password_field_es", "json-es", lambda: {"servicio": pick(CONSUMER), "usuario": u(), "contraseña": human_pw()}),
        ("password_field_fr", "json-fr", lambda: {"site": pick(CONSUMER), "identifiant": u(), "mot_de_passe": human_pw()}),
        ("password_field_it", "json-it", lambda: {"sito": pick(CONSUMER), "utente": u(), "password": human_pw()}),
        ("password_field_pt", "json-pt", lambda: {"servico": pick(CONSUMER), "login": u(), "senha": human_pw()}),
        ("password_field_nl", "json-nl", lambda: {"dienst": pick(CONSUMER), "gebruikersnaam": u(), "wachtwoord": human_pw()}),
        ("password_field_pl", "json-pl", lambda: {"serwis": pick(CONSUMER), "login": u(), "hasło": human_pw()}),
        ("password_field_sv", "json-sv", lambda: {"tjänst": pick(CONSUMER), "användarnamn": u(), "lösenord": human_pw()}),
        ("password_field_tr", "json-tr", lambda: {"site": pick(CONSUMER), "kullanıcı_adı": u(), "şifre": human_pw()}),
        ("password_field_ru", "json-ru", lambda: {"сервис": pick(CONSUMER), "логин": u(), "пароль": human_pw()}),
        ("password_field_ja", "json-ja", lambda: {"サービス": pick(CONSUMER), "ユーザー名": u(), "パスワード": human_pw()}),
        ("password_field_zh", "json-zh", lambda: {"网站": pick(CONSUMER), "用户名": u(), "密码": human_pw()}),
        ("password_field_ko", "json-ko", lambda: {"사이트": pick(CONSUMER), "아이디": u(), "비밀번호": human_pw()}),
        ("password_field_id", "json-id", lambda: {"layanan": pick(CONSUMER), "nama_pengguna": u(), "kata_sandi": human_pw()}),
        ("password_field_vi", "json-vi", lambda: {"dich_vu": pick(CONSUMER), "tai_khoan": u(), "mat_khau": human_pw()}),
        ("password_field_cs", "json-cs", lambda: {"služba": pick(CONSUMER), "uživatel": u(), "heslo": human_pw()}),
        ("password_field_fi", "json-fi", lambda: {"palvelu": pick(CONSUMER), "käyttäjätunnus": u(), "salasana": human_pw()}),
        ("password_field_da", "json-da", lambda: {"tjeneste": pick(CONSUMER), "brugernavn": u(), "adgangskode": human_pw()}),
        ("password_field_ar", "json-ar", lambda: {"الخدمة": pick(CONSUMER), "اسم_المستخدم": u(), "كلمة_المرور": human_pw()}),
        ("password_field_en_pwd", "json", lambda: {"account": pick(CONSUMER), "pwd": human_pw()}),
        ("passcode_field", "json", lambda: {"device": pick(["front door", "side gate", "bike shed", "storage unit"]), "passcode": door_code()}),
        ("alarm_code_nested", "json", lambda: {"alarm": {"zone": "ground floor", "code": door_code(), "duress_code": pin(4)}, "installer": "SecuriHome"}),
        ("card_pin_field", "json", lambda: {"bank": pick(["ING", "Santander", "Nordea", "Chase", "Barclays"]), "card": "debit", "card_pin": pin(4)}),
        ("sim_pin_puk", "json", lambda: {"sim": {"carrier": pick(["Vodafone", "Orange", "Telekom", "Movistar", "Play"]), "pin": pin(4), "puk": rs(DG, 8)}}),
        ("locker_combination", "json", lambda: {"locker": {"number": rint(1, 400), "combination": f"{rint(0, 39):02d}-{rint(0, 39):02d}-{rint(0, 39):02d}"}}),
        ("password_list_nested", "json", lambda: {"accounts": [{"site": pick(CONSUMER), "user": u(), "pass": human_pw()} for _ in range(rint(2, 4))]}),
        ("wifi_psk_field", "json", lambda: {"wifi": {"ssid": ssid(), "psk": wifi_pw(), "band": pick(["2.4GHz", "5GHz"])}}),
        ("secret_field_generic", "json", lambda: {"secret": human_pw(), "for": pick(["vpn", "nas", "router", "printer admin"])}),
        ("pin_code_field_de", "json-de", lambda: {"gerät": pick(["Handy", "Tablet", "Laptop"]), "pin_code": pin(6)}),
        ("kennwort_field_de", "json-de", lambda: {"Benutzername": u(), "Kennwort": human_pw(), "Portal": pick(["Elster", "Krankenkasse", "Stadtwerke"])}),
        ("safe_combo_nested", "json", lambda: {"safe": {"location": pick(["wardrobe", "office", "basement"]), "combo": door_code()}}),
        ("clave_field_es", "json-es", lambda: {"banco": pick(["BBVA", "CaixaBank", "Sabadell"]), "clave_acceso": pin(6), "clave_firma": rs(DG, 4)}),
    ]
    out = []
    for kind, src, fn in b:
        lang = src.split("-")[1] if "-" in src else "en"
        out.append((kind, src, fn(), lang))
    return out


# --------------------------------------------------------------------------
# plain secrets: payment cards (all Luhn-valid)
# --------------------------------------------------------------------------
CARD_TEMPLATES = [
    ("en", "prose", lambda b, n, e, c, nm: f"my {b} {group_card(n)} exp {e} cvv {c}"),
    ("en", "json", lambda b, n, e, c, nm: {"card_number": n, "exp_month": int(e[:2]), "exp_year": 2000 + int(e[3:]), "cvc": c, "name": nm}),
    ("de", "prose-de", lambda b, n, e, c, nm: f"Kreditkarte ({b}): {group_card(n)}, gültig bis {e}, Prüfnummer {c}"),
    ("fr", "prose-fr", lambda b, n, e, c, nm: f"carte bancaire {group_card(n)} expire fin {e} cryptogramme {c}"),
    ("es", "prose-es", lambda b, n, e, c, nm: f"tarjeta {b} {group_card(n, '-')} vence {e} CVV {c}"),
    ("pt", "prose-pt", lambda b, n, e, c, nm: f"cartão {group_card(n, '.')} validade {e} cvv {c}"),
    ("en", "prose", lambda b, n, e, c, nm: f"card for the hotel booking: {n}"),
    ("en", "csv", lambda b, n, e, c, nm: f"name,number,exp,cvv\n{nm},{n},{e},{c}\n"),
    ("en", "prose", lambda b, n, e, c, nm: f"Dad's {b} (for the pharmacy refills): {group_card(n)} {e}"),
    ("en", "list", lambda b, n, e, c, nm: [b, group_card(n), e, c]),
    ("en", "json", lambda b, n, e, c, nm: {"payment_method": {"type": "card", "card": {"number": group_card(n, ''), "exp": e, "cvc": c}}}),
    ("ja", "prose-ja", lambda b, n, e, c, nm: f"クレジットカード番号 {group_card(n)} 有効期限 {e} セキュリティコード {c}"),
    ("zh", "prose-zh", lambda b, n, e, c, nm: f"信用卡号 {group_card(n)} 有效期 {e} 安全码 {c}"),
    ("ru", "prose-ru", lambda b, n, e, c, nm: f"номер карты {group_card(n)} срок {e} cvc {c}"),
    ("pl", "prose-pl", lambda b, n, e, c, nm: f"numer karty {group_card(n)}, ważna do {e}, CVV {c}"),
    ("tr", "prose-tr", lambda b, n, e, c, nm: f"kart numarası {group_card(n)} son kullanma {e} cvv {c}"),
    ("nl", "prose-nl", lambda b, n, e, c, nm: f"creditcard {group_card(n)} geldig tot {e}"),
    ("it", "prose-it", lambda b, n, e, c, nm: f"carta di credito {group_card(n)} scad. {e} cvv {c}"),
    ("en", "log", lambda b, n, e, c, nm: f"{ts()} ERROR checkout: payment declined card={n} exp={e} cvc={c} amount=49.90 EUR"),
    ("en", "form-body", lambda b, n, e, c, nm: f"cc-name={urllib.parse.quote(nm)}&cc-number={n}&cc-exp={urllib.parse.quote(e, safe='')}&cc-csc={c}"),
    ("ko", "prose-ko", lambda b, n, e, c, nm: f"카드번호 {group_card(n)} 유효기간 {e} CVC {c}"),
    ("sv", "prose-sv", lambda b, n, e, c, nm: f"kortnummer {group_card(n)} giltigt till {e} CVC {c}"),
    ("en", "chat", lambda b, n, e, c, nm: {"from": pick(FIRST), "text": f"can you order the tickets with my card? {group_card(n)}, {e}, code on the back {c}"}),
    ("en", "prose", lambda b, n, e, c, nm: f"company Amex for travel: {group_card(n, '')} / {e}"),
    ("en", "yaml", lambda b, n, e, c, nm: f"billing:\n  card_holder: {nm}\n  pan: \"{group_card(n, '')}\"\n  expiry: \"{e}\"\n"),
    ("es", "prose-es", lambda b, n, e, c, nm: f"numero de tarjeta {group_card(n, ' ')} caducidad {e}"),
    ("de", "prose-de", lambda b, n, e, c, nm: f"Kartennummer von Mama: {group_card(n, '-')}"),
    ("fr", "prose-fr", lambda b, n, e, c, nm: f"la CB de Paul: {group_card(n, '')} date {e} code {c}"),
]


def gen_cards():
    out = []
    for lang, src, fn in CARD_TEMPLATES:
        brand, num = card()
        nm = f"{pick(FIRST)} {pick(LAST)}"
        out.append((f"payment_card_{slugify(brand).replace('-', '_')}", src, fn(brand, num, expiry(), cvv(num), nm), lang))
    return out


# --------------------------------------------------------------------------
# plain secrets: recovery codes, TOTP seeds, security answers
# --------------------------------------------------------------------------
def gen_recovery():
    pet = pick(["Biscuit", "Bello", "Minou", "Tofu", "Rex", "Luna", "Pirata", "Kiki", "Bobik", "Momo"])
    city = pick(CITIES)
    items = [
        ("en", "github_recovery_codes", "list", [f"{rs(HEX, 5)}-{rs(HEX, 5)}" for _ in range(16)]),
        ("en", "google_backup_codes", "prose", "Google backup codes (print these!): " + "  ".join(f"{rs(DG, 4)} {rs(DG, 4)}" for _ in range(10))),
        ("en", "microsoft_recovery_code", "prose", "Microsoft account recovery code: " + "-".join(rs(ANU, 5) for _ in range(5))),
        ("en", "apple_recovery_key", "prose", "Apple ID recovery key: " + "-".join(rs(ANU, 4) for _ in range(7))),
        ("en", "bitlocker_recovery_key", "json", {"device": "work laptop", "key_id": rs(HEXU, 8), "recovery_key": "-".join(rs(DG, 6) for _ in range(8))}),
        ("en", "onepassword_secret_key", "prose", f"1Password Secret Key (emergency kit): A3-{rs(ANU, 6)}-{rs(ANU, 6)}-{rs(ANU, 5)}-{rs(ANU, 5)}-{rs(ANU, 5)}-{rs(ANU, 5)}"),
        ("en", "bitwarden_recovery_code", "prose", "bitwarden 2FA recovery code " + rs(ANU, 28)),
        ("en", "totp_otpauth_uri", "prose", f"otpauth://totp/GitHub:{pick(FIRST_ASCII).lower()}?secret={rs(B32, 32)}&issuer=GitHub"),
        ("en", "totp_seed", "json", {"issuer": pick(["AWS", "Coinbase", "Proton", "Discord", "Dropbox"]), "account": f"{pick(FIRST_ASCII).lower()}@{pick(DOMAINS)}", "totp_secret": rs(B32, 32), "digits": 6}),
        ("en", "totp_setup_key", "prose", "setup key for Binance 2FA: " + " ".join(chunks(rs(B32, 16).lower(), 4))),
        ("en", "steam_guard_recovery", "prose", f"steam guard recovery code R{rs(DG, 5)}"),
        ("en", "discord_backup_codes", "list", ["discord backup codes"] + [f"{rs(ANL, 4)}-{rs(ANL, 4)}" for _ in range(10)]),
        ("en", "security_answer", "prose", f"Security question (mother's maiden name) for the bank: {pick(LAST)}"),
        ("en", "security_answer", "json", {"question": "Name of your first pet?", "answer": pet, "site": pick(CONSUMER)}),
        ("de", "security_answer", "prose-de", f"Sicherheitsfrage 'Name des ersten Haustiers': {pet}"),
        ("fr", "security_answer", "prose-fr", f"question secrète (ville de naissance de ma mère) : réponse {city}"),
        ("es", "security_answer", "prose-es", f"pregunta de seguridad: nombre de mi primera escuela -> Colegio {pick(['San José', 'Cervantes', 'Santa Ana'])}"),
        ("pt", "security_answer", "prose-pt", f"resposta da pergunta secreta do banco: {pet}"),
        ("it", "security_answer", "prose-it", f"domanda di sicurezza: cognome da nubile di mia madre = {pick(LAST)}"),
        ("ja", "security_answer", "prose-ja", f"秘密の質問の答え：{pet}"),
        ("en", "security_answer", "prose", f"answers for PayPal security questions: 1) {city} 2) {pet}"),
        ("de", "tan_list", "prose-de", "TAN-Liste Sparkasse: " + ", ".join(f"{i:02d}: {rs(DG, 6)}" for i in range(1, 9))),
        ("de", "whatsapp_two_step_pin", "prose-de", f"WhatsApp Bestätigung in zwei Schritten, PIN: {pin(6)}"),
        ("en", "ledger_device_pin", "prose", f"Ledger Nano PIN {pin(8)} - keep separate from the seed"),
    ]
    return [(k, s, v, lang) for lang, k, s, v in items]


# --------------------------------------------------------------------------
# plain secrets: structured files (.env, YAML, INI, CSV, code, logs, ...)
# --------------------------------------------------------------------------
def gen_structured():
    proj = lambda: pick(PROJECTS)
    items = [
        ("dotenv_file_mixed", "env", f"# {proj()} .env\nNODE_ENV=production\nPORT=8080\nDATABASE_URL=postgres://app:{_q(human_pw())}@db:5432/app\nSTRIPE_SECRET_KEY=sk_live_{rs(AN, 24)}\nSENTRY_ENVIRONMENT=prod\nJWT_SECRET={rs(AN, 48)}\n"),
        ("dotenv_file_mixed", "env", f"APP_NAME={proj()}\nAPP_ENV=local\nAPP_KEY=base64:{base64.b64encode(rbytes(32)).decode()}\nAPP_DEBUG=false\nDB_CONNECTION=mysql\nDB_HOST=127.0.0.1\nDB_DATABASE=laravel\nDB_USERNAME=laravel\nDB_PASSWORD={human_pw()}\nMAIL_MAILER=smtp\n"),
        ("docker_compose_postgres_password", "docker-compose", f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: {human_pw()}\n      POSTGRES_DB: app\n    volumes:\n      - pgdata:/var/lib/postgresql/data\n"),
        ("spring_datasource_password", "yaml", f"spring:\n  datasource:\n    url: jdbc:mysql://db.internal:3306/orders\n    username: orders_svc\n    password: {human_pw()}\n  jpa:\n    open-in-view: false\n"),
        ("wp_config_db_password", "code-php", f"define( 'DB_NAME', 'wp_{rs(ANL, 6)}' );\ndefine( 'DB_USER', 'wp_user' );\ndefine( 'DB_PASSWORD', '{human_pw()}' );\ndefine( 'DB_HOST', 'localhost' );\ndefine( 'AUTH_KEY', '{rs(AN + SYMS + WP_SYMS, 64)}' );\n"),
        ("django_secret_key", "code-python", f"# settings/production.py\nDEBUG = False\nALLOWED_HOSTS = ['{proj()}.example.org']\nSECRET_KEY = '{rs(LO + DG + '!@#$%^&*(-_=+)', 50)}'\n"),
        ("rails_master_key", "prose", f"config/master.key for {proj()}: {rs(HEX, 32)}"),
        ("rails_secret_key_base", "yaml", f"production:\n  secret_key_base: {rs(HEX, 128)}\n"),
        ("flask_secret_key", "code-python", f"app = Flask(__name__)\napp.config['SECRET_KEY'] = '{rs(HEX, 48)}'\napp.config['SQLALCHEMY_DATABASE_URI'] = 'sqlite:///app.db'\n"),
        ("ansible_inventory_password", "ini", f"[webservers]\nweb1.internal ansible_user=deploy ansible_password={human_pw()} ansible_become_pass={human_pw()}\n"),
        ("mysql_client_cnf", "ini", f"# ~/.my.cnf\n[client]\nuser=root\npassword={human_pw()}\nhost=127.0.0.1\n"),
        ("aws_credentials_file", "ini", f"[default]\naws_access_key_id = AKIA{rs(B32, 16)}\naws_secret_access_key = {rs(AN + '+/', 40)}\nregion = eu-central-1\n\n[personal]\naws_access_key_id = AKIA{rs(B32, 16)}\naws_secret_access_key = {rs(AN + '+/', 40)}\n"),
        ("s3cmd_config", "ini", f"[default]\naccess_key = AKIA{rs(B32, 16)}\nsecret_key = {rs(AN + '+/', 40)}\nhost_base = s3.amazonaws.com\nuse_https = True\n"),
        ("http_request_dump", "http-request", f"POST /api/v1/orders HTTP/1.1\nHost: api.{proj()}.com\nUser-Agent: curl/8.4.0\nAccept: */*\nX-Api-Key: {rs(AN, 40)}\nContent-Type: application/json\n\n{{\"sku\": \"A-{rint(100, 999)}\", \"qty\": 2}}"),
        ("password_manager_csv_export", "csv", "name,url,username,password,note\n" + "\n".join(f"{s},https://{slugify(s)}.com,{pick(FIRST_ASCII).lower()}@{pick(DOMAINS)},{human_pw()}," for s in R.sample(CONSUMER, 4)) + "\n"),
        ("bitwarden_json_export_item", "json", {"items": [{"type": 1, "name": pick(CONSUMER), "login": {"username": f"{pick(FIRST_ASCII).lower()}@{pick(DOMAINS)}", "password": human_pw(), "totp": rs(B32, 32)}}]}),
        ("shell_history_password", "shell-history", f"  201  ssh admin@nas.local\n  202  echo '{human_pw()}' | sudo -S systemctl restart smb\n  203  history | tail\n"),
        ("login_log_with_password", "log", f"{ts()} WARN auth: login failed for user '{pick(FIRST_ASCII).lower()}' with password '{human_pw()}' from 192.168.{rint(0, 9)}.{rint(2, 250)}"),
        ("nginx_log_api_key_query", "log", f"203.0.113.{rint(1, 254)} - - [10/Mar/2025:13:55:36 +0000] \"GET /v1/weather?city=Berlin&api_key={rs(HEX, 32)} HTTP/1.1\" 200 512 \"-\" \"python-requests/2.31\""),
        ("jupyter_cell_openai_key", "notebook", {"cell_type": "code", "source": ["import openai\n", f"openai.api_key = \"sk-proj-{rs(B64U, 74)}T3BlbkFJ{rs(B64U, 74)}\"\n", "resp = openai.chat.completions.create(model='gpt-4o-mini', messages=msgs)\n"]}),
        ("postman_environment_secret", "json", {"name": f"{proj()} prod", "values": [{"key": "base_url", "value": f"https://api.{proj()}.com", "enabled": True}, {"key": "api_key", "value": rs(AN, 40), "type": "secret", "enabled": True}]}),
        ("terraform_tfvars_secret", "hcl", f"region          = \"eu-west-1\"\ndb_username     = \"admin\"\ndb_password     = \"{human_pw()}\"\ncloudflare_token = \"{rs(B64U, 40)}\"\n"),
        ("helm_values_password", "yaml", f"postgresql:\n  auth:\n    username: app\n    password: \"{human_pw()}\"\n    postgresPassword: \"{human_pw()}\"\nredis:\n  auth:\n    password: \"{rs(AN, 24)}\"\n"),
        ("systemd_env_secret", "ini", f"[Service]\nEnvironment=\"API_TOKEN={rs(AN, 40)}\"\nExecStart=/usr/local/bin/{proj()} --port 9000\nRestart=always\n"),
        ("crontab_curl_password", "crontab", f"0 3 * * * curl -fsS -u backup:{human_pw()} https://nas.local/api/backup/run > /dev/null\n"),
        ("smtp_settings_json", "json", {"smtp": {"host": "smtp.gmail.com", "port": 587, "user": f"{pick(FIRST_ASCII).lower()}@gmail.com", "app_password": " ".join(rs(LO, 4) for _ in range(4))}}),
        ("home_assistant_secrets_yaml", "yaml", f"# secrets.yaml\nwifi_ssid: \"{ssid()}\"\nwifi_password: \"{wifi_pw()}\"\nmqtt_password: {human_pw()}\nlatitude_home: 52.52\n"),
        ("esphome_wifi_config", "yaml", f"wifi:\n  ssid: \"{ssid()}\"\n  password: \"{wifi_pw()}\"\n  ap:\n    ssid: \"Garden Sensor Fallback\"\n    password: \"{rs(AN, 12)}\"\n"),
        ("wpa_supplicant_psk", "conf", f"ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\ncountry=DE\n\nnetwork={{\n    ssid=\"{ssid()}\"\n    psk=\"{wifi_pw()}\"\n    key_mgmt=WPA-PSK\n}}\n"),
        ("networkmanager_wifi_psk", "ini", f"[connection]\nid={ssid()}\ntype=wifi\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk={wifi_pw()}\n"),
        ("arduino_wifi_credentials", "code-c", f"const char* ssid = \"{ssid()}\";\nconst char* password = \"{wifi_pw()}\";\n\nvoid setup() {{\n  WiFi.begin(ssid, password);\n}}\n"),
        ("kubeconfig_bearer_token", "yaml", f"apiVersion: v1\nclusters:\n- cluster:\n    server: https://k8s.{proj()}.internal:6443\n  name: prod\nusers:\n- name: admin\n  user:\n    token: {rs(AN, 6)}.{rs(ANL, 16)}\n"),
        ("npmrc_auth_token", "npmrc", f"//registry.npmjs.org/:_authToken=npm_{rs(AN, 36)}\n@{proj()}:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=ghp_{rs(AN, 36)}\n"),
        ("pypirc_token", "ini", f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc{rs(B64U, 140)}\n"),
        ("gem_credentials", "yaml", f"---\n:rubygems_api_key: rubygems_{rs(HEX, 48)}\n"),
        ("cargo_credentials_toml", "toml", f"[registry]\ntoken = \"cio{rs(AN, 32)}\"\n"),
        ("composer_auth_json", "json", {"http-basic": {"repo.packagist.com": {"username": "token", "password": rs(HEX, 40)}}, "github-oauth": {"github.com": "ghp_" + rs(AN, 36)}}),
        ("nuget_config_cleartext_password", "xml", f"<packageSourceCredentials>\n  <internal>\n    <add key=\"Username\" value=\"build\" />\n    <add key=\"ClearTextPassword\" value=\"{human_pw()}\" />\n  </internal>\n</packageSourceCredentials>"),
        ("docker_config_auth", "json", {"auths": {"https://index.docker.io/v1/": {"auth": b64e(pick(FIRST_ASCII).lower() + ":dckr_pat_" + rs(B64U, 27))}}}),
        ("github_actions_hardcoded_token", "ci-yaml", f"- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: npm_{rs(AN, 36)}\n"),
        ("support_ticket_with_password", "ticket", {"ticket": f"SUP-{rint(1000, 9999)}", "subject": "Can't log in to the staff portal", "body": f"Hi, I changed my password yesterday to {human_pw()} and now it says invalid. Username {pick(FIRST_ASCII).lower()}.{pick(LAST_ASCII).lower()}. Please help!", "priority": "high"}),
        ("email_forward_with_credentials", "email", f"From: IT Service Desk <it@{proj()}.com>\nSubject: Your new account\n\nHello,\nyour temporary password is {human_pw()}\nPlease change it at first login.\n"),
        ("go_code_hardcoded_password", "code-go", f"db, err := sql.Open(\"postgres\", \"host=db user=app password={human_pw()} dbname=app sslmode=disable\")\nif err != nil {{\n\tlog.Fatal(err)\n}}\n"),
        ("powershell_securestring_plain", "powershell", f"$pw = ConvertTo-SecureString '{human_pw()}' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential ('CORP\\svc_backup', $pw)\n"),
        ("vnc_password_note", "prose", f"VNC to grandpa's PC: 192.168.178.{rint(20, 60)}:5900, password {rs(AN, 8)}"),
        ("router_admin_json", "json", {"router": "FRITZ!Box 7590", "admin_url": "http://fritz.box", "admin_password": human_pw(), "wifi": {"ssid": ssid(), "key": wifi_pw()}}),
        ("jwt_signing_secret_env", "env", f"JWT_SECRET={rs(B64, 64)}\nJWT_EXPIRES_IN=15m\n"),
        ("encryption_key_hex", "yaml", f"encryption:\n  algorithm: aes-256-gcm\n  key: \"{rs(HEX, 64)}\"\n"),
    ]
    return [(k, s, v, "en") for k, s, v in items]


# --------------------------------------------------------------------------
# HARD secrets: payload makers
# --------------------------------------------------------------------------
CTX_PW = {"en": "{svc} password", "de": "Passwort für {svc}", "fr": "mot de passe {svc}", "es": "contraseña de {svc}",
          "it": "password di {svc}", "pt": "senha do {svc}", "nl": "wachtwoord {svc}", "pl": "hasło do {svc}",
          "ru": "пароль от {svc}", "ja": "{svc}のパスワード", "zh": "{svc}密码", "tr": "{svc} şifresi"}
CTX_WIFI = {"en": "wifi password ({ssid})", "de": "WLAN-Schlüssel ({ssid})", "fr": "code wifi ({ssid})",
            "es": "clave del wifi ({ssid})", "pt": "senha do wifi ({ssid})", "ru": "пароль wifi ({ssid})",
            "sv": "wifi-lösenord ({ssid})"}
CTX_CODE = [("door_code", "en", "front door code"), ("alarm_code", "en", "alarm code"), ("safe_code", "en", "safe combination"),
            ("door_code", "de", "Türcode"), ("alarm_code", "fr", "code de l'alarme"), ("gate_code", "es", "código del portón"),
            ("door_code", "it", "codice del portone"), ("door_code", "pl", "kod do klatki"), ("garage_code", "nl", "garagecode"),
            ("alarm_code", "pt", "código do alarme")]
CTX_PIN = [("bank_card_pin", "en", "debit card PIN"), ("bank_card_pin", "de", "PIN der Girokarte"),
           ("bank_card_pin", "fr", "code de la carte bleue"), ("sim_pin", "en", "SIM PIN"),
           ("device_unlock_pin", "en", "phone unlock PIN"), ("bank_card_pin", "es", "PIN de la tarjeta"),
           ("bank_card_pin", "pt", "senha do cartão"), ("bank_card_pin", "it", "PIN del bancomat"),
           ("bank_card_pin", "nl", "pincode bankpas"), ("bank_card_pin", "pl", "PIN do karty")]


def hp_vendor():
    spec = pick(SINGLE_SPECS)
    k, fn = spec.kvs[0]
    use_vendor(spec.vendor)
    return {"kind": spec.kind, "ctx": nice_label(spec.vendor, k), "var": k, "secret": fn(), "cls": "token", "lang": "en"}


def hp_vendor_pair():
    spec = pick([s for s in VENDOR_SPECS if len(s.kvs) > 1])
    kvs = [(k, fn()) for k, fn in spec.kvs]
    use_vendor(spec.vendor)
    k, v = kvs[-1]
    return {"kind": spec.kind, "ctx": f"{nice_label(spec.vendor, k)} ({label_of(kvs[0][0])} {kvs[0][1]})", "var": k,
            "secret": v, "cls": "token", "lang": "en"}


def hp_password():
    lang = pick(list(CTX_PW))
    svc = pick(CONSUMER)
    return {"kind": "account_password", "ctx": CTX_PW[lang].format(svc=svc), "var": "password", "secret": human_pw(), "cls": "pw", "lang": lang}


def hp_wifi():
    lang = pick(list(CTX_WIFI))
    return {"kind": "wifi_password", "ctx": CTX_WIFI[lang].format(ssid=ssid()), "var": "wifi_password", "secret": wifi_pw(), "cls": "pw", "lang": lang}


def hp_code(digits_only=False):
    kind, lang, ctx = pick(CTX_CODE)
    code = rs(DG, pick([4, 5, 6])) if digits_only else door_code()
    return {"kind": kind, "ctx": ctx, "var": "code", "secret": code, "cls": "num", "lang": lang}


def hp_pin():
    kind, lang, ctx = pick(CTX_PIN)
    return {"kind": kind, "ctx": ctx, "var": "pin", "secret": pin(), "cls": "num", "lang": lang}


def hp_card():
    brand, num = card()
    return {"kind": f"payment_card_{slugify(brand).replace('-', '_')}", "ctx": f"{brand} card", "var": "card_number",
            "secret": num, "extra": f" exp {expiry()} cvv {cvv(num)}", "cls": "card", "lang": "en"}


def hp_conn():
    u, pw = _u(), _q(human_pw())
    url = pick([f"postgres://{u}:{pw}@db.internal:5432/app", f"mysql://{u}:{pw}@10.0.{rint(0, 9)}.{rint(2, 250)}:3306/shop",
                f"mongodb+srv://{u}:{pw}@cluster0.{rs(ANL, 5)}.mongodb.net/prod", f"redis://:{rs(AN, 28)}@cache.internal:6379/1",
                f"amqp://{u}:{pw}@mq.internal:5672/"])
    return {"kind": "connection_string_with_password", "ctx": "prod database URL", "var": "DATABASE_URL", "secret": url, "cls": "url", "lang": "en"}


def hp_jwt():
    return {"kind": "jwt_bearer_token", "ctx": "admin bearer token", "var": "ACCESS_TOKEN", "secret": jwt(_user_claims()), "cls": "token", "lang": "en"}


def hp_privkey():
    kind, key = pick([("ec_private_key_pem", None), ("openssh_private_key_ed25519", None), ("pkcs8_private_key_pem", None)])
    key = ec_key() if kind.startswith("ec") else openssh_ed25519() if kind.startswith("openssh") else pkcs8_rsa()
    return {"kind": kind, "ctx": "private key", "var": "PRIVATE_KEY", "secret": key, "cls": "privkey", "lang": "en"}


def hp_mnemonic():
    return {"kind": "bip39_seed_phrase", "ctx": "wallet seed phrase", "var": "mnemonic", "secret": mnemonic(12), "cls": "mnemonic", "lang": "en"}


def hp_eth():
    return {"kind": "ethereum_private_key", "ctx": "MetaMask private key", "var": "ETH_PRIVATE_KEY", "secret": "0x" + eth_key(), "cls": "token", "lang": "en"}


def hp_totp():
    return {"kind": "totp_seed", "ctx": f"{pick(['GitHub', 'AWS root', 'Coinbase', 'Proton'])} 2FA secret", "var": "totp_secret", "secret": rs(B32, 32), "cls": "token", "lang": "en"}


P_TOKENISH = [hp_vendor] * 12 + [hp_vendor_pair, hp_vendor_pair, hp_eth, hp_totp, hp_jwt]
P_PW = [hp_password, hp_password, hp_wifi]
P_NUM = [hp_pin, hp_code]

ELIGIBLE = {
    "base64": P_TOKENISH + P_PW * 2 + [hp_card, hp_conn, hp_privkey, hp_mnemonic],
    "hex": P_TOKENISH + P_PW * 2 + [hp_card, hp_conn, hp_mnemonic],
    "split-fields": P_TOKENISH + P_PW + [hp_card, hp_card, hp_conn],
    "split-list": P_TOKENISH + P_PW + [hp_card, hp_mnemonic, hp_mnemonic, hp_privkey, hp_conn],
    "spaced": P_TOKENISH + P_PW + P_NUM + [hp_card, hp_card],
    "dotted": P_TOKENISH + P_PW + P_NUM + [hp_card],
    "dashed": P_TOKENISH + P_PW + [hp_card, hp_card],
    "reversed": P_TOKENISH + P_PW * 2 + P_NUM + [hp_card, hp_conn],
    "homoglyph": P_TOKENISH + P_PW * 2 + [hp_conn],
    "buried": P_TOKENISH + P_PW * 2 + P_NUM + [hp_card, hp_conn, hp_mnemonic, hp_privkey],
    "secret-in-key": P_TOKENISH + P_PW * 2 + P_NUM + [hp_card],
    "secret-in-namespace": P_TOKENISH + P_PW * 2 + P_NUM,
    "fullwidth": P_TOKENISH + P_PW + P_NUM + [hp_card],
    "zero-width": P_TOKENISH + P_PW + [hp_card],
    "url-encoded": P_TOKENISH + P_PW * 3 + [hp_conn],
    "rot13": P_TOKENISH + P_PW * 2 + [hp_conn],
    "char-codes": P_TOKENISH + P_PW + P_NUM,
    "spelled-out": [hp_pin, hp_pin, lambda: hp_code(True), lambda: hp_code(True), hp_card],
    "line-wrapped": [hp_privkey, hp_privkey, hp_jwt, hp_vendor, hp_vendor],
    "json-in-string": P_TOKENISH + P_PW + [hp_card, hp_conn, hp_privkey],
    "nested-deep": P_TOKENISH + P_PW + P_NUM + [hp_card, hp_conn, hp_mnemonic],
}
HARD_COUNTS = {"base64": 30, "hex": 16, "split-fields": 26, "split-list": 20, "spaced": 18, "dotted": 12,
               "dashed": 12, "reversed": 18, "homoglyph": 20, "buried": 34, "secret-in-key": 20,
               "secret-in-namespace": 18, "fullwidth": 10, "zero-width": 14, "url-encoded": 10, "rot13": 10,
               "char-codes": 8, "spelled-out": 14, "line-wrapped": 10, "json-in-string": 12, "nested-deep": 14}

# --------------------------------------------------------------------------
# HARD secrets: transformations
# --------------------------------------------------------------------------
HOMO = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "i": "і", "s": "ѕ", "j": "ј",
        "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "X": "Х"}
ZW = ["\u200b", "\u200c", "\u200d", "\u2060"]
NUMWORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "nl": "nul een twee drie vier vijf zes zeven acht negen".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
}
SPELL_TEMPLATES = {
    "en": "my {ctx}, spelled out so it isn't obvious: {w}", "de": "{ctx} in Worten: {w}",
    "fr": "{ctx} en toutes lettres : {w}", "es": "{ctx}: {w} (en letras)", "it": "{ctx} scritto a lettere: {w}",
    "pt": "{ctx} por extenso: {w}", "nl": "{ctx} uitgeschreven: {w}", "pl": "{ctx} słownie: {w}",
}
NAME_SETS = [["part1", "part2", "part3", "part4"], ["a", "b", "c", "d"], ["first", "second", "third", "fourth"],
             ["prefix", "middle", "end", "tail"], ["teil1", "teil2", "teil3", "teil4"], ["k1", "k2", "k3", "k4"],
             ["debut", "milieu", "fin", "reste"], ["x", "y", "z", "w"]]


def homoglyph(s: str, rate: float = 0.5) -> str:
    eligible = [i for i, ch in enumerate(s) if ch in HOMO]
    if not eligible:
        return s
    force = pick(eligible)
    return "".join(HOMO[ch] if ch in HOMO and (i == force or R.random() < rate) else ch for i, ch in enumerate(s))


def fullwidth(s: str) -> str:
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ("\u3000" if ch == " " else ch) for ch in s)


def zero_width(s: str) -> str:
    out, inserted = [], False
    for i, ch in enumerate(s):
        out.append(ch)
        if i < len(s) - 1 and (R.random() < 0.4 or (not inserted and i == len(s) // 2)):
            out.append(pick(ZW))
            inserted = True
    return "".join(out)


FILLER_EN = [
    "We went over the Q3 roadmap and agreed to push the mobile redesign to November.",
    "Marta raised concerns about the on-call rotation during the holidays.",
    "The caterer confirmed 45 guests, two of them gluten-free.",
    "Remember to water the tomatoes twice a day while it's this hot.",
    "Kenji will send the revised floor plan by Thursday.",
    "The landlord says the boiler inspection is booked for the 14th.",
    "Budget for the offsite is capped at 12k including travel.",
    "Lena's swimming lessons move to Saturday mornings next term.",
    "Nobody remembered who owns the legacy cron jobs, so we'll audit them next sprint.",
    "The train was delayed by 40 minutes again, third time this week.",
    "Dr. Haddad wants a follow-up blood test in six weeks.",
    "We should compare the two quotes for the roof repair before deciding.",
    "The design team prefers the darker palette for the landing page.",
    "Return the library books before the 30th to avoid the fee.",
    "Priya is taking over the vendor contract negotiations.",
    "Grandpa's 80th birthday dinner is at the Italian place near the river.",
    "The CI pipeline takes 18 minutes; the target is under 10.",
    "Bought new running shoes, half a size bigger this time.",
    "Action item: draft the incident postmortem and circulate it by Friday.",
    "The kids want to go camping at the lake again in August.",
    "Our insurance renewal letter arrived; the premium went up 8 percent.",
    "Tomasz suggested moving standups to 9:30 so the Lisbon folks can join.",
    "The new espresso machine needs descaling every 200 shots.",
    "Customer churn dipped slightly after the onboarding emails were rewritten.",
    "Book the vet for the cat's annual vaccination.",
    "Infra costs are up because of the extra staging cluster.",
    "I finally finished the second book in the trilogy; the ending felt rushed.",
    "We agreed that documentation PRs don't need two approvals.",
    "The neighbours are renovating until mid-March, expect noise.",
    "Sofia will handle the school fundraiser spreadsheet.",
    "Latency on the search endpoint spiked after Tuesday's deploy, rollback fixed it.",
    "Need to renew the passport before the trip in June.",
    "The quarterly numbers look fine except for the EMEA region.",
    "Mum asked whether we can host Christmas this year.",
]
FILLER_DE = [
    "Wir haben den Umzug auf Ende April verschoben.", "Die Heizung im Bad macht wieder Geräusche.",
    "Jonas bringt am Samstag den Anhänger mit.", "Beim Elternabend ging es hauptsächlich um die Klassenfahrt.",
    "Der Zahnarzttermin wurde auf Donnerstag verlegt.", "Die Steuererklärung muss bis Juli raus.",
    "Im Sprint-Review kam gutes Feedback zum neuen Dashboard.", "Oma wünscht sich zum Geburtstag einen Ausflug an den See.",
]
FILLER_FR = [
    "On a décidé de repeindre la chambre des enfants en vert.", "La réunion de copropriété est fixée au 12.",
    "Camille s'occupe des billets de train pour Lyon.", "Le plombier passe mardi entre 8h et 12h.",
    "Penser à acheter du pain pour le pique-nique.", "Le client veut une démo avant la fin du mois.",
]


def buried_text(line: str, lang: str) -> str:
    n = rint(14, 30)
    if lang in ("de", "fr"):
        local = FILLER_DE if lang == "de" else FILLER_FR
        k = min(len(local), n)
        sents = R.sample(local, k) + R.sample(FILLER_EN, n - k)
        R.shuffle(sents)
    else:
        sents = R.sample(FILLER_EN, n)
    pos = rint(n // 4, (3 * n) // 4)
    sents.insert(pos, line)
    paras, cur = [], []
    for s in sents:
        cur.append(s)
        if len(cur) >= rint(3, 6):
            paras.append(" ".join(cur))
            cur = []
    if cur:
        paras.append(" ".join(cur))
    head = pick(["Meeting notes", "Weekly journal", "Notes from the call", "Brain dump", "Notizen", "Notes"])
    return f"{head} ({date_str()})\n\n" + "\n\n".join(paras)


def _full(p, transformed):
    return transformed + p.get("extra", "")


def t_base64(p):
    s, c = p["secret"], p["ctx"]
    if p["cls"] == "privkey":
        if R.random() < 0.6:
            return {"value": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: tls-" + pick(PROJECTS) + "\ntype: kubernetes.io/tls\ndata:\n  tls.crt: "
                    + rs(B64, 240) + "\n  tls.key: " + b64e(s) + "\n"}
        return {"value": {"label": c, "encoding": "base64", "blob": b64e(s)}}
    full = s + p.get("extra", "")
    m = rint(0, 5)
    if m == 0:
        return {"value": f"{c} (base64 so it's not plain text): {b64e(full)}"}
    if m == 1:
        name = p["var"].lower().replace("_", "-")
        return {"value": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + pick(PROJECTS) + "-secrets\ntype: Opaque\ndata:\n  " + name + ": " + b64e(s) + "\n"}
    if m == 2:
        return {"value": {"label": c, "encoding": "base64", "blob": b64e(full)}}
    if m == 3:
        return {"value": {"backup": b64e(json.dumps({p["var"]: full, "note": c}, ensure_ascii=False))}}
    if m == 4:
        return {"value": f"echo {b64e(full)} | base64 -d   # {c}"}
    return {"value": [c + ":", b64e(p["var"] + "=" + full)]}


def t_hex(p):
    s, c = p["secret"], p["ctx"]
    h = (s + p.get("extra", "")).encode("utf-8").hex()
    m = rint(0, 4)
    if m == 0:
        return {"value": f"{c} in hex: {h}"}
    if m == 1:
        return {"value": {"name": c, "hex": h}}
    if m == 2:
        return {"value": p["var"].lower() + " = bytes.fromhex(\"" + h + "\").decode()  # " + c}
    if m == 3:
        return {"value": c + ": " + " ".join(chunks(h, 2))}
    return {"value": c + " = b\"" + "".join("\\x" + h[i:i + 2] for i in range(0, len(h), 2)) + "\""}


def t_split_fields(p):
    s, c = p["secret"], p["ctx"]
    parts = split_into(s, rint(2, 4))
    names = pick(NAME_SETS)[:len(parts)]
    m = rint(0, 2)
    if m == 0 or len(parts) > 2 and m == 2:
        d = {"service": c}
        d.update(zip(names, parts))
        note = pick(["join in order", "concatenate without spaces", "zusammensetzen", ""])
        if note:
            d["note"] = note
    elif m == 1:
        d = {"label": c, "pieces": dict(zip(names, parts))}
    else:
        d = {"what": c, "left": parts[0], "right": parts[1]}
    if p.get("extra"):
        d["exp_cvv"] = p["extra"].strip()
    return {"value": d}


def t_split_list(p):
    s, c = p["secret"], p["ctx"]
    if p["cls"] == "mnemonic":
        w = s.split()
        k = rint(3, 6)
        return {"value": [f"{c}, words {i + 1}-{min(i + k, len(w))}: " + " ".join(w[i:i + k]) for i in range(0, len(w), k)]}
    n = rint(2, 4) if p["cls"] != "privkey" else rint(3, 5)
    parts = split_into(s, n)
    m = rint(0, 2)
    if m == 0:
        vals = [f"{c}, part {i + 1}/{len(parts)}: {x}" if i == 0 else f"part {i + 1}/{len(parts)}: {x}" for i, x in enumerate(parts)]
    elif m == 1:
        vals = [{"role": "user", "content": f"I'll send the {c} in {len(parts)} messages"}] + [{"role": "user", "content": x} for x in parts]
    else:
        vals = [c] + parts
    if p.get("extra"):
        vals.append(p["extra"].strip())
    return {"value": vals}


def _grouped(s, sep):
    if R.random() < 0.5 or len(s) <= 8:
        return sep.join(s)
    return sep.join(chunks(s, pick([2, 3, 4, 5])))


def t_spaced(p):
    sp = _grouped(p["secret"], " ")
    if R.random() < 0.3:
        return {"value": {"what": p["ctx"], "value": _full(p, sp)}}
    return {"value": f"{p['ctx']}: {_full(p, sp)}"}


def t_dotted(p):
    return {"value": f"{p['ctx']}: {_full(p, _grouped(p['secret'], '.'))}"}


def t_dashed(p):
    return {"value": f"{p['ctx']} - {_full(p, _grouped(p['secret'], '-'))}"}


def t_reversed(p):
    r = p["secret"][::-1]
    m = rint(0, 3)
    if m == 0:
        return {"value": f"{p['ctx']} (reversed): {_full(p, r)}"}
    if m == 1:
        return {"value": f"{p['ctx']}: {_full(p, r)}  <- read it backwards"}
    if m == 2:
        return {"value": {"k": r, "hint": "reverse", "for": p["ctx"]}}
    return {"value": f"{p['ctx']} {_full(p, r)}"}


def t_homoglyph(p):
    hs = homoglyph(p["secret"])
    if R.random() < 0.5:
        return {"value": f"{homoglyph(p['ctx'], 0.3)}: {hs}"}
    return {"value": {"service": p["ctx"], p["var"].lower(): hs}}


def t_buried(p):
    s, c = p["secret"], p["ctx"]
    line = pick([f"Oh and the {c} is {s}{p.get('extra', '')}, in case I need it tonight.",
                 f"(for later: {p['var']}={s})", f"{c}: {s}{p.get('extra', '')}",
                 f"Side note - {c} -> {s}"])
    if p["cls"] == "privkey":
        line = f"Pasting the {c} here so I can grab it from my phone:\n{s}\n"
    lang = p["lang"] if p["lang"] in ("de", "fr") else pick(["en", "en", "en", "de", "fr"])
    return {"value": buried_text(line, lang), "lang": lang}


def t_key(p):
    s = p["secret"]
    slug = slugify(p["ctx"].split(" (")[0])[:24]
    key = pick([s, f"{p['var'].lower()}={s}", f"mem_{s}", f"{slug}_{s}"])
    val = pick(["see key", {"note": f"saved {p['ctx']} (value in key)", "created": date_str()},
                {"type": "credential", "source": "chat"}, p["ctx"]])
    return {"value": val, "key": key}


def t_ns(p):
    s = p["secret"]
    slug = slugify(p["ctx"].split(" (")[0])[:24]
    ns = pick([[s], [p["var"].lower(), s], [f"{slug}:{s}"], ["vault", slug, s]])
    val = pick([{"note": f"{p['ctx']} stored in namespace", "created": date_str()}, f"{p['ctx']} - see path",
                {"kind": "credential-ref", "owner": pick(FIRST)}])
    return {"value": val, "ns": ns}


def t_fullwidth(p):
    fw = fullwidth(p["secret"])
    if R.random() < 0.4:
        return {"value": fullwidth(p["ctx"]) + "： " + fw}
    return {"value": f"{p['ctx']}: {fw}{p.get('extra', '')}"}


def t_zero_width(p):
    return {"value": f"{p['ctx']}: {zero_width(p['secret'])}{p.get('extra', '')}"}


def t_urlenc(p):
    enc = "".join(f"%{b:02X}" for b in p["secret"].encode("utf-8"))
    user = pick(FIRST_ASCII).lower()
    if p["cls"] == "pw":
        m = rint(0, 1)
        if m == 0:
            return {"value": f"https://{slugify(p['ctx'])[:20]}.example.com/login?user={user}&password={enc}"}
        return {"value": f"POST /session body: username={user}&password={enc}&remember=1   ({p['ctx']})"}
    if p["cls"] == "url":
        return {"value": {"what": p["ctx"], "encoded_url": enc}}
    return {"value": {"redirect": f"https://app.{pick(PROJECTS)}.org/callback#access_token={enc}&token_type=bearer", "what": p["ctx"]}}


def t_rot13(p):
    r = codecs.encode(p["secret"], "rot_13")
    if R.random() < 0.6:
        return {"value": f"{p['ctx']} (rot13): {r}"}
    return {"value": {"for": p["ctx"], "enc": "rot13", "data": r}}


def t_charcodes(p):
    codes = [ord(ch) for ch in p["secret"]]
    m = rint(0, 2)
    if m == 0:
        return {"value": {"what": p["ctx"], "codes": codes}}
    if m == 1:
        return {"value": f"{p['ctx']} as char codes: " + ",".join(str(x) for x in codes)}
    return {"value": "String.fromCharCode(" + ", ".join(str(x) for x in codes) + ")  // " + p["ctx"]}


def t_spelled(p):
    lang = p["lang"] if p["lang"] in NUMWORDS else pick(list(NUMWORDS))
    digits = [ch for ch in p["secret"] if ch.isdigit()]
    w = " ".join(NUMWORDS[lang][int(d)] for d in digits)
    return {"value": SPELL_TEMPLATES[lang].format(ctx=p["ctx"], w=w), "lang": lang}


def t_wrapped(p):
    s, c = p["secret"], p["ctx"]
    if p["cls"] == "privkey":
        lines = s.split("\n")
        if R.random() < 0.5:
            return {"value": lines}
        return {"value": {"file": pick(["id_ed25519", "server.key", "signing.pem"]), "lines": lines}}
    k = rint(10, 16)
    parts = chunks(s, k)
    if R.random() < 0.5:
        return {"value": f"{c} (wrapped):\n" + "\n".join(parts)}
    return {"value": "export " + p["var"] + "=\"" + "\\\n".join(parts) + "\""}


def t_json_str(p):
    inner = {"service": p["ctx"], p["var"].lower(): p["secret"] + p.get("extra", "")}
    s = json.dumps(inner, ensure_ascii=False)
    if R.random() < 0.4:
        s = json.dumps(s, ensure_ascii=False)
    return {"value": s}


def t_nested(p):
    leaf = {p["var"].lower(): p["secret"] + p.get("extra", "")}
    path = R.sample(["settings", "integrations", "config", "auth", "credentials", "profiles", "default", "env",
                     "prod", "data", "vault_cache", "secrets"], rint(4, 6))
    node = leaf
    for i, name in enumerate(reversed(path)):
        node = {name: [node]} if i == 2 else {name: node}
    node["label"] = p["ctx"]
    return {"value": node}


TECHNIQUES = {"base64": t_base64, "hex": t_hex, "split-fields": t_split_fields, "split-list": t_split_list,
              "spaced": t_spaced, "dotted": t_dotted, "dashed": t_dashed, "reversed": t_reversed,
              "homoglyph": t_homoglyph, "buried": t_buried, "secret-in-key": t_key, "secret-in-namespace": t_ns,
              "fullwidth": t_fullwidth, "zero-width": t_zero_width, "url-encoded": t_urlenc, "rot13": t_rot13,
              "char-codes": t_charcodes, "spelled-out": t_spelled, "line-wrapped": t_wrapped,
              "json-in-string": t_json_str, "nested-deep": t_nested}


def gen_hard_secrets():
    out = []
    for tech, n in HARD_COUNTS.items():
        for _ in range(n):
            p = pick(ELIGIBLE[tech])()
            if tech == "homoglyph":
                while not any(ch in HOMO for ch in p["secret"]):
                    p = pick(ELIGIBLE[tech])()
            res = TECHNIQUES[tech](p)
            out.append((p["kind"], tech, res["value"], res.get("lang", p["lang"]), res.get("key"), res.get("ns")))
    return out


# --------------------------------------------------------------------------
# BENIGN plain: ordinary memories and technical notes without secrets
# --------------------------------------------------------------------------
MONTHS = {"en": "January February March April May June July August September October November December".split(),
          "de": "Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
          "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
          "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
          "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
          "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro".split(),
          "pl": "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia".split(),
          "ru": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(),
          "tr": "Ocak Şubat Mart Nisan Mayıs Haziran Temmuz Ağustos Eylül Ekim Kasım Aralık".split(),
          "sv": "januari februari mars april maj juni juli augusti september oktober november december".split(),
          "nl": "januari februari maart april mei juni juli augustus september oktober november december".split()}
FOODS = ["ramen", "paella", "pierogi", "pho", "tacos al pastor", "dal makhani", "bibimbap", "shakshuka", "risotto", "falafel"]
MEDS = [("sertraline", "50 mg"), ("levothyroxine", "75 µg"), ("metformin", "500 mg"), ("ramipril", "5 mg"),
        ("vitamin D", "1000 IU"), ("cetirizine", "10 mg"), ("ibuprofen", "400 mg as needed"), ("iron", "100 mg")]
ALLERGENS = ["penicillin", "peanuts", "shellfish", "latex", "bee stings", "sesame", "cats", "ibuprofen"]
HOBBIES = ["bouldering", "sourdough baking", "birdwatching", "chess", "salsa dancing", "woodworking", "trail running", "pottery"]
AIRLINES = [("LH", "Lufthansa"), ("TP", "TAP"), ("KL", "KLM"), ("AF", "Air France"), ("IB", "Iberia"), ("LO", "LOT"),
            ("TK", "Turkish Airlines"), ("NH", "ANA"), ("BA", "British Airways"), ("SK", "SAS")]
TECH_VENDORS = ["Stripe", "GitHub", "AWS", "OpenAI", "Slack", "Twilio", "SendGrid", "Datadog", "Cloudflare", "Heroku", "Supabase", "Vercel"]

BENIGN_EN = [
    ("benign_preference", "I prefer {seat} seats on long flights and always order the vegetarian meal."),
    ("benign_preference", "Coffee order: {coffee}, no sugar. Switch to decaf after 3pm."),
    ("benign_preference", "Favourite restaurants in {city}: one for {food}, another for {food2}."),
    ("benign_preference", "Likes {hobby} and {hobby2}; dislikes loud bars and cilantro."),
    ("benign_preference", "Use metric units and 24-hour time in summaries."),
    ("benign_preference", "Don't schedule meetings before 10am on Mondays."),
    ("benign_preference", "I'm vegetarian but eat fish occasionally."),
    ("benign_preference", "Keep answers short; bullet points are fine for lists."),
    ("benign_preference", "My running goal this year is a half marathon under 1:55."),
    ("benign_health", "Allergic to {allergen}; carries an EpiPen in the blue bag."),
    ("benign_health", "Takes {med} {dose} every morning with breakfast."),
    ("benign_health", "Physio said: 3 sets of 12 calf raises daily, ice the knee after runs."),
    ("benign_health", "Blood pressure readings this week: 128/82, 131/85, 124/79."),
    ("benign_health", "Migraine triggers: red wine, skipped meals, bright screens."),
    ("benign_health", "Next flu shot due in October; last tetanus booster in {year}."),
    ("benign_health", "Sleeping about 6.5 hours on average; the goal is 7.5."),
    ("benign_appointment", "Dentist with Dr. {last} on {date} at {time}."),
    ("benign_appointment", "Parent-teacher meeting Thursday at {time} in room {room}."),
    ("benign_appointment", "Car service on {date}; ask about the rattling noise from the back."),
    ("benign_appointment", "Haircut every 6 weeks, next one on {date}."),
    ("benign_appointment", "Vet appointment for the dog on {date} at {time}, bring the vaccination booklet."),
    ("benign_family", "{first}'s birthday is {day} {month}; she wants a {gift}."),
    ("benign_family", "Mom's shoe size is 38, dad prefers dark chocolate."),
    ("benign_family", "The kids' school pickup is at 15:15 on Tuesdays and 13:00 on Fridays."),
    ("benign_family", "My brother {first} is moving to {city} in {month}."),
    ("benign_family", "Our anniversary is on {day} {month}; book the place with the garden terrace."),
    ("benign_travel", "Flight {airline} {flightno} to {city} on {date}, seat {seatno}."),
    ("benign_travel", "Hotel in {city}: check-in after 3pm, breakfast included, near the old town."),
    ("benign_travel", "Pack plug adapters for the trip to {city}."),
    ("benign_travel", "Rental car pickup at the airport, terminal 2, on {date}."),
    ("benign_travel", "Want to visit the botanical garden and the food market in {city}."),
    ("benign_work", "Quarterly review moved to {date}; prepare slides on onboarding metrics."),
    ("benign_work", "Standup is at 9:45 CET; I present on Wednesdays."),
    ("benign_work", "{first} is my manager from next month; 1:1s on Thursdays."),
    ("benign_work", "Out of office from {date} for two weeks; {first} covers support."),
    ("benign_preference", "When suggesting recipes, assume a small kitchen: one oven, two burners, no microwave."),
    ("benign_preference", "Prefers {coffee} in the afternoon and herbal tea after dinner."),
    ("benign_health", "Stopped {med} on {date} after talking to Dr. {last}; watch for headaches."),
    ("benign_health", "Knee MRI results are fine, no tear; keep doing the {hobby} only twice a week."),
    ("benign_appointment", "Passport renewal appointment at the citizens' office on {date}, {time}; bring two photos."),
    ("benign_appointment", "Piano lesson for {first} moved to {time} on Wednesdays."),
    ("benign_family", "{first} is allergic to {allergen}, tell the birthday party hosts."),
    ("benign_family", "Grandma's phone is the big-button one; she prefers calls after 6pm."),
    ("benign_travel", "Train to {city} leaves 07:12 from platform 4; we have seats in coach 9."),
    ("benign_travel", "Visa not needed for {city} for stays under 90 days; passport must be valid 6 months."),
    ("benign_work", "Performance review self-assessment due {date}; mention the {proj} migration."),
    ("benign_work", "{first} prefers async updates in the channel over meetings."),
]
BENIGN_TECHNOTES = [
    "Rotate the {v} API key on Friday and update it in the secrets manager.",
    "Our password policy needs at least {n} characters and one symbol.",
    "Never commit .env files - the {v} token lives in Vault under secret/{proj}.",
    "The staging DB password expires every 90 days; ticket OPS-{num} tracks the reminder.",
    "Remember to revoke {first}'s GitHub access token when she leaves on {date}.",
    "SSH key for the build box is at ~/.ssh/id_ed25519 on my laptop, not stored here.",
    "2FA for the AWS root account uses the YubiKey in the office safe.",
    "Set up password manager sharing for the family vault this weekend.",
    "The {v} webhook signing secret changed after the incident; update the env var in prod.",
    "The wifi password at the office is written on the whiteboard in the kitchen, ask reception.",
    "Ask IT to reset my VPN password; the old one was locked after 5 attempts.",
    "Use OIDC instead of long-lived AWS keys in the CI pipeline.",
    "Access tokens should live 15 minutes and refresh tokens 7 days.",
    "The bank will mail a new PIN letter in 5-7 working days.",
    "Mum forgot her email password again; help her with the recovery flow on Sunday.",
    "Secrets scanning flagged the {proj} repo; the leaked {v} key was revoked within an hour.",
    "Switch the team from shared passwords to SSO by end of Q{q}.",
    "Where do we store the {v} credentials? Decision: AWS Secrets Manager, not the wiki.",
    "Don't paste tokens into chat; use the 1Password share link instead.",
    "The API key for {v} is scoped read-only; request a write key from {first} if needed.",
    "Password reset emails are going to spam for Outlook users - check SPF.",
    "Enable MFA on the {v} account before the audit on {date}.",
    "Bitwarden emergency access is set up for my sister.",
    "Generate a new deploy key for {proj} since the old one was tied to {first}'s account.",
    "The router still uses the default admin password - change it this weekend.",
    "Lockout policy: 10 failed attempts, 15 minute cooldown.",
    "Keycloak client secrets are rotated by the nightly job; nothing to do manually.",
    "PIN for the new office door will be sent by facilities next week.",
    "The recovery codes for my Google account are printed and in the fireproof box.",
    "Store the {v} key in the CI secret store and reference it as ${{{{ secrets.{var} }}}}.",
]
BENIGN_INTL = {
    "de": ["Ich mag keinen Koriander, bitte bei Rezeptvorschlägen weglassen.", "Zahnarzttermin bei Dr. {last} am {date} um {time} Uhr.",
           "Meine Schwester {first} hat am {day}. {month_l} Geburtstag, sie wünscht sich ein Buch über Vögel.",
           "Im Urlaub in {city} wollen wir mindestens einen Tag wandern gehen.", "Bin allergisch gegen Nüsse, nehme morgens {med}.",
           "API-Schlüssel für {v} am Freitag rotieren und im Tresor aktualisieren.", "Das WLAN-Passwort steht auf dem Aufkleber am Router, nicht hier speichern."],
    "fr": ["Je préfère les places côté fenêtre dans le train.", "Rendez-vous chez le kiné mardi à {time}, apporter l'ordonnance.",
           "L'anniversaire de ma mère est le {day} {month_l}, elle adore les pivoines.", "On part à {city} en juillet, penser à réserver le parking.",
           "je suis intolerant au lactose", "Penser à changer le mot de passe du wifi après le départ des invités."],
    "es": ["Prefiero que me hables de tú y en español.", "Cita con la dermatóloga el {date} a las {time}.",
           "Mi hijo {first} juega al fútbol los sábados a las 10.", "Viaje a {city}: hotel cerca de la estación, desayuno incluido.",
           "no me gusta el picante, recuerdalo para las recetas", "La política de contraseñas exige 12 caracteres como mínimo."],
    "it": ["Preferisco il caffè macchiato senza zucchero.", "Visita dal cardiologo il {date} alle {time}.",
           "Mia nonna compie 90 anni a {month_l}, organizzare il pranzo.", "Vacanze a {city} dal 3 al 10 agosto.",
           "Ricordami di cambiare la password della mail aziendale entro fine mese."],
    "pt": ["Gosto de café sem açúcar e pão de queijo no café da manhã.", "Consulta no dentista dia {date} às {time}.",
           "O aniversário da minha filha é em {month_l}; ela quer uma bicicleta.", "Viagem para {city}: levar adaptador de tomada.",
           "o banco vai mandar o novo cartao pelo correio, a senha chega separada"],
    "nl": ["Ik ben vegetariër, geen vlees in receptsuggesties.", "Afspraak bij de huisarts op {date} om {time}.",
           "Onze zoon {first} zwemt op woensdag om vier uur.", "Vergeet niet de API-sleutel van {v} te vernieuwen voor de demo."],
    "pl": ["Nie lubię kolendry, pomijaj ją w przepisach.", "Wizyta u okulisty {date} o {time}.",
           "Urodziny taty {day} {month_l}, kupić mu książkę o historii.", "trzeba zmienic haslo do banku, przypomnij mi w piatek"],
    "sv": ["Jag föredrar fönsterplats på tåget.", "Tandläkartid den {date} kl {time}.", "Mormor fyller 85 i {month_l}."],
    "tr": ["Sabah kahvemi şekersiz içiyorum.", "Diş hekimi randevusu {date} saat {time}.", "Annemin doğum günü {day} {month_l}.",
           "Wifi şifresini misafirler gidince değiştirmeyi unutma."],
    "ru": ["Я не ем острое, учитывай это в рецептах.", "Запись к стоматологу {date} в {time}.",
           "У дочки день рождения {day} {month_l}, хочет велосипед.", "Не забыть сменить пароль от почты в понедельник."],
    "ja": ["コーヒーはブラックが好きです。", "{date}の{time}に歯医者の予約あり。", "母の誕生日は{mnum}月{day}日。花を贈る予定。",
           "来週パスワードの有効期限が切れるので更新すること。"],
    "zh": ["我不吃香菜，推荐菜谱时请去掉。", "{date} {time} 看牙医。", "女儿的生日是{mnum}月{day}日，她想要一辆自行车。",
           "下周要更新服务器的API密钥，记得提醒我。"],
    "ko": ["저는 매운 음식을 잘 못 먹어요.", "{date} {time} 치과 예약.", "어머니 생신은 {mnum}월 {day}일이에요."],
    "ar": ["أفضل القهوة بدون سكر.", "موعد طبيب الأسنان يوم {date} الساعة {time}.", "تذكير: غيّر كلمة المرور كل ثلاثة أشهر."],
    "id": ["Saya tidak makan daging babi, tolong ingat untuk resep.", "Janji dokter gigi tanggal {date} jam {time}."],
    "vi": ["Tôi thích cà phê sữa đá ít đường.", "lich hen nha si ngay {date} luc {time}"],
    "cs": ["Nemám rád koriandr, vynechej ho v receptech.", "Zubař {date} v {time}."],
    "fi": ["Pidän ikkunapaikasta junassa.", "Hammaslääkäri {date} klo {time}."],
    "da": ["Jeg foretrækker vinduessæde i toget.", "Tandlæge {date} kl. {time}."],
    "hi": ["mujhe chai kam cheeni ke saath pasand hai", "डॉक्टर के साथ अपॉइंटमेंट {date} को {time} बजे"],
}


def bslots(lang="en") -> dict:
    med, dose = pick(MEDS)
    al, aname = pick(AIRLINES)
    mnum = rint(1, 12)
    spec = pick(TECH_VENDORS)
    return {"seat": pick(["aisle", "window"]), "coffee": pick(["flat white", "oat latte", "double espresso", "cortado"]),
            "city": pick(CITIES), "food": pick(FOODS), "food2": pick(FOODS), "hobby": pick(HOBBIES), "hobby2": pick(HOBBIES),
            "allergen": pick(ALLERGENS), "med": med, "dose": dose, "year": rint(2016, 2024), "last": pick(LAST),
            "date": date_str(), "time": time_str(), "room": f"{rint(1, 3)}{rint(0, 3)}{rint(1, 9)}", "first": pick(FIRST),
            "day": rint(1, 28), "month": MONTHS["en"][mnum - 1], "month_l": MONTHS.get(lang, MONTHS["en"])[mnum - 1],
            "mnum": mnum, "gift": pick(["telescope", "climbing shoes", "Lego set", "sketchbook", "ukulele"]),
            "airline": al, "flightno": rint(100, 2999), "seatno": f"{rint(1, 40)}{pick('ABCDEF')}",
            "v": spec, "n": pick([10, 12, 14, 16]), "proj": pick(PROJECTS), "num": rint(100, 9999), "q": rint(1, 4),
            "var": slugify(spec).upper().replace("-", "_") + "_API_KEY"}


def gen_benign_plain():
    out = []
    for kind, t in BENIGN_EN:
        out.append((kind, kind.replace("benign_", ""), t.format_map(bslots()), "en"))
    for t in BENIGN_TECHNOTES:
        v = t.format_map(bslots())
        if R.random() < 0.3:
            v = {"note": v, "tags": ["tech", pick(["security", "ops", "todo"])], "due": date_str()}
        out.append(("benign_technote_credentials_mentioned", "technote", v, "en"))
    for lang, temps in BENIGN_INTL.items():
        for t in temps:
            out.append((f"benign_memory_{lang}", "personal-" + lang, t.format_map(bslots(lang)), lang))
    # structured personal data
    structured = [
        ("benign_shopping_list", "list", lambda: ["oat milk", "eggs", pick(["basil", "coriander", "parsley"]), "dish soap", pick(["apples", "pears", "bananas"])]),
        ("benign_todo_list", "json", lambda: {"todo": [f"call {pick(FIRST)} about the {pick(['garden', 'invoice', 'party'])}", "renew library card", f"book {pick(['dentist', 'vet', 'barber'])}"], "done": ["tax return"]}),
        ("benign_expense_csv", "csv", lambda: "date,item,amount_eur\n" + "\n".join(f"{date_str()},{pick(['groceries', 'train', 'pharmacy', 'books', 'cinema'])},{rint(3, 120)}.{rint(0, 99):02d}" for _ in range(4)) + "\n"),
        ("benign_itinerary", "json", lambda: {"trip": pick(CITIES), "days": [{"day": 1, "plan": "old town walk"}, {"day": 2, "plan": "museum + market"}, {"day": 3, "plan": "day trip to the coast"}]}),
        ("benign_workout_log", "json", lambda: {"date": date_str(), "run_km": round(R.uniform(3, 15), 1), "pace": f"{rint(4, 6)}:{rint(0, 59):02d}/km", "notes": "felt good"}),
        ("benign_recipe_note", "prose", lambda: f"{pick(FOODS).capitalize()} recipe: double the garlic, half the salt, 25 minutes at 200°C."),
        ("benign_reading_list", "list", lambda: ["The Left Hand of Darkness", "Piranesi", "Sapiens", pick(["Dune", "Middlemarch", "Solaris"])]),
        ("benign_gift_ideas", "json", lambda: {"person": pick(FIRST), "ideas": ["scarf", "cookbook", "concert tickets"], "budget_eur": rint(20, 80)}),
        ("benign_plant_care", "yaml", lambda: "plants:\n  monstera: water weekly\n  cactus: water monthly\n  basil: daily in summer\n"),
        ("benign_meeting_notes", "prose", lambda: " ".join(R.sample(FILLER_EN, 4))),
        ("benign_meeting_notes_de", "prose-de", lambda: " ".join(R.sample(FILLER_DE, 3))),
        ("benign_meeting_notes_fr", "prose-fr", lambda: " ".join(R.sample(FILLER_FR, 3))),
        ("benign_config_no_secrets", "yaml", lambda: f"server:\n  port: {pick([8080, 3000])}\n  log_level: info\nfeatures:\n  dark_mode: true\n  beta_search: false\n"),
        ("benign_chat_message", "chat", lambda: {"from": pick(FIRST), "text": pick(["running 10 min late, order for me pls", "did you see the game last night?", "can you send me the photos from Sunday?", "the pizza place closes at 10"])}),
        ("benign_support_ticket", "ticket", lambda: {"ticket": f"SUP-{rint(1000, 9999)}", "subject": "Invoice shows wrong address", "body": "Hi, my invoice still shows my old street. Could you update it? Thanks!", "priority": "low"}),
        ("benign_log_line", "log", lambda: f"{ts()} INFO http: GET /api/v1/products?page={rint(1, 9)} 200 {rint(5, 300)}ms"),
        ("benign_password_reset_log", "log", lambda: f"{ts()} INFO auth: password reset email sent to user_id={rint(1000, 99999)}"),
        ("benign_login_success_log", "log", lambda: f"{ts()} INFO auth: user {pick(FIRST_ASCII).lower()} logged in via SSO (mfa=webauthn)"),
    ]
    for kind, src, fn in structured:
        lang = src.split("-")[1] if "-" in src else "en"
        for _ in range(2 if kind in ("benign_shopping_list", "benign_chat_message", "benign_log_line", "benign_recipe_note", "benign_workout_log", "benign_meeting_notes") else 1):
            out.append((kind, src, fn(), lang))
    return out


# --------------------------------------------------------------------------
# BENIGN hard: close look-alikes
# --------------------------------------------------------------------------
def _ctx(*opts):
    return pick(opts)


def bl_commit_sha():
    sha = rs(HEX, 40)
    return "commit-sha", "benign_commit_sha", pick([f"the regression started at commit {sha}", f"git revert {sha}",
                                                    {"commit": sha, "branch": pick(["main", "release/2.4", "develop"]), "author": pick(FIRST)},
                                                    f"deployed {pick(PROJECTS)} @ {sha} to prod on {date_str()}"])


def bl_short_sha():
    return "short-sha", "benign_short_sha", pick([f"fixed in {rs(HEX, 7)}, cherry-picked as {rs(HEX, 7)}",
                                                  f"build {rint(1000, 9999)} ({rs(HEX, 8)}) is green", f"bisect says {rs(HEX, 10)} is the first bad commit"])


def bl_uuid():
    u = uuid4()
    return "uuid", "benign_uuid", pick([f"request id {u} - the 502 happened here", {"order_id": u, "status": "shipped"},
                                        f"trace_id={u} span=checkout", f"Jira import job {u} finished", f"device id {u.upper()}"])


def bl_sha256():
    h = rs(HEX, 64)
    return "checksum", "benign_sha256_checksum", pick([f"sha256sum of ubuntu-24.04-desktop-amd64.iso: {h}", {"file": "backup-2024-11.tar.zst", "sha256": h},
                                                       f"expected checksum {h} (matches the release page)"])


def bl_md5():
    return "checksum", "benign_md5_checksum", pick([f"md5 of the photo export zip: {rs(HEX, 32)}", {"etag": '"' + rs(HEX, 32) + '"', "key": "reports/q3.pdf"}])


def bl_docker_digest():
    return "image-digest", "benign_docker_image_digest", pick([f"pinned image: postgres@sha256:{rs(HEX, 64)}", {"image": f"ghcr.io/{pick(LAST_ASCII).lower()}/{pick(PROJECTS)}", "digest": "sha256:" + rs(HEX, 64)},
                                                               f"container {rs(HEX, 12)} restarted 3 times"])


def bl_integrity():
    return "integrity-hash", "benign_npm_integrity_hash", pick([f"\"integrity\": \"sha512-{rs(B64, 86)}==\"", f"<script src=\"/app.js\" integrity=\"sha384-{rs(B64, 64)}\" crossorigin=\"anonymous\"></script>"])


def bl_ups():
    return "tracking-number", "benign_ups_tracking", pick([f"UPS tracking 1Z{rs(ANU, 6)}{rs(DG, 10)} - arrives Thursday", {"carrier": "UPS", "tracking": "1Z" + rs(ANU, 6) + rs(DG, 10)}])


def bl_fedex():
    return "tracking-number", "benign_fedex_tracking", f"FedEx shipment {rs(DG, 12)} is held at the depot, pick up with ID"


def bl_usps():
    t = "9400" + rs(DG, 18)
    return "tracking-number", "benign_usps_tracking", pick([f"USPS tracking {' '.join(chunks(t, 4))}", {"usps": t, "contents": "books"}])


def bl_dhl():
    return "tracking-number", "benign_dhl_royalmail_tracking", pick([f"DHL Sendungsnummer {rs(DG, 10)} - Paket kommt morgen", f"DHL eCommerce JJD{rs(DG, 18)}",
                                                          f"Royal Mail {rs(UP, 2)}{rs(DG, 9)}GB signed for"])


def bl_amazon_order():
    o = f"{rint(100, 999)}-{rs(DG, 7)}-{rs(DG, 7)}"
    return "order-number", "benign_amazon_order_number", pick([f"Amazon order {o}: return window closes {date_str()}", {"order": o, "item": "kettle", "refund": "pending"}])


def bl_shop_order():
    return "order-number", "benign_shop_order_number", pick([f"Zalando order {rs(DG, 11)} - two pairs of shoes", f"IKEA order #{rs(DG, 10)}, delivery slot Sat 8-12",
                                                            f"eBay order {rs(DG, 2)}-{rs(DG, 5)}-{rs(DG, 5)}", f"Bestellnummer {rint(2023, 2025)}-{rs(DG, 6)} bei Otto",
                                                            f"pedido n.º {rs(DG, 9)} em nome de {pick(FIRST)}"])


def bl_version():
    v = f"{rint(0, 12)}.{rint(0, 40)}.{rint(0, 30)}"
    return "version-string", "benign_version_string", pick([f"upgrade to v{v}-rc.{rint(1, 4)}+build.{rint(1000, 9999)}", f"Chrome {rint(110, 131)}.0.{rint(5000, 6999)}.{rint(10, 200)}",
                                                            f"kernel 6.{rint(1, 11)}.0-{rint(10, 60)}-generic", {"package": pick(["django", "react", "numpy", "rails"]), "version": v, "pinned": True},
                                                            f"firmware {v} ({rs(HEX, 8)})"])


def bl_ssh_pub():
    return "public-key", "benign_ssh_public_key", pick([f"my public key for the server's authorized_keys: ssh-ed25519 {ed25519_raw_pub()} {pick(FIRST_ASCII).lower()}@laptop",
                                                        {"authorized_keys": [f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(B64, 540)} deploy@ci"]},
                                                        f"known_hosts: github.com ssh-ed25519 {ed25519_raw_pub()}"])


def bl_pem_pub():
    return "public-key", "benign_pem_public_key", "public key for verifying webhooks (safe to share):\n" + pem("PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA", 392)


def bl_cert():
    return "certificate", "benign_x509_certificate", pick(["server certificate (public):\n" + pem("CERTIFICATE", "MIIDdzCCAl+gAwIBAgIE", 1200),
                                                           {"ca_bundle": pem("CERTIFICATE", "MIIFazCCA1OgAwIBAgIR", 1800)}])


def bl_pgp_pub():
    body = b64_body("mQINBG" + rs(B64, 2), 1200)
    return "public-key", "benign_pgp_public_key_block", ("my PGP public key, send encrypted mail to me:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"
                                                         + "\n".join(chunks(body, 64)) + "\n=" + rs(B64, 4) + "\n-----END PGP PUBLIC KEY BLOCK-----")


def bl_eth_addr():
    a = "0x" + rs(HEX, 40)
    return "wallet-address", "benign_eth_address", pick([f"send the refund to my ETH address {a}", {"network": "Ethereum", "receive_address": a, "label": "donations"},
                                                        f"ENS points {pick(FIRST_ASCII).lower()}.eth -> {a}"])


def bl_btc_addr():
    a = pick(["bc1q" + rs(BECH, 38), "1" + rs(B58, 33), "3" + rs(B58, 33)])
    return "wallet-address", "benign_btc_address", pick([f"Bitcoin donation address: {a}", {"btc_address": a, "note": "public, printed on the website"}])


def bl_placeholder():
    opts = [
        "STRIPE_SECRET_KEY=sk_test_XXXXXXXXXXXXXXXXXXXXXXXX", "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "Authorization: Bearer <your-token-here>", "aws_secret_access_key = YOUR_SECRET_ACCESS_KEY",
        "password: <insert-password>", "SLACK_BOT_TOKEN=xoxb-your-bot-token", "api_key: 'REPLACE_ME'",
        "HF_TOKEN=hf_********************************", "OPENAI_API_KEY=sk-...your-key-here...",
        "ANTHROPIC_API_KEY=<paste your key>", "DB_PASSWORD=${DB_PASSWORD}", "token: \"{{ .Values.apiToken }}\"",
        "SENDGRID_API_KEY=SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "export AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX", "client_secret = \"<client-secret>\"", "PIN: ____ (fill in at the counter)",
    ]
    v = pick(opts)
    return "placeholder", "benign_placeholder_token", pick([f".env.example for the workshop:\n{v}", {"readme_snippet": v, "note": "placeholder, real value in 1Password"}, v])


def bl_aws_docs():
    return "docs-example", "benign_aws_docs_example_key", pick(["AWS docs example credentials used in the tutorial: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                                                {"aws_access_key_id": "AKIAIOSFODNN7EXAMPLE", "aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "source": "AWS CLI docs sample"}])


def bl_secret_ref():
    var = pick(["NPM_TOKEN", "AWS_SECRET_ACCESS_KEY", "STRIPE_KEY", "DB_PASSWORD", "OPENAI_API_KEY"])
    return "secret-reference", "benign_secret_reference", pick([
        f"env:\n  {var}: ${{{{ secrets.{var} }}}}\n", f"password = os.environ[\"{var}\"]", f"aws secretsmanager get-secret-value --secret-id prod/{pick(PROJECTS)}/{var.lower()}",
        f"vault kv get -field=password secret/{pick(PROJECTS)}/db", {"valueFrom": {"secretKeyRef": {"name": f"{pick(PROJECTS)}-secrets", "key": var.lower()}}},
        f"op read \"op://Private/{pick(CONSUMER)}/password\""])


def bl_masked():
    return "masked", "benign_masked_secret", pick([
        f"Card ending in {rs(DG, 4)} (Visa), expires {expiry()}", "password: ********", "token: [REDACTED]",
        f"API key sk-...{rs(AN, 4)} shown in the dashboard (last 4 only)", f"PIN: [hidden], card **** **** **** {rs(DG, 4)}",
        {"api_key": "••••••••••••" + rs(HEX, 4), "created": date_str()}, f"IBAN DE** **** **** **** **{rs(DG, 2)} {rs(DG, 2)} (masked on statement)"])


def bl_phone():
    return "phone-number", "benign_phone_number", pick([
        f"Dr. {pick(LAST)}'s office: +49 30 {rs(DG, 7)}", f"plumber's number (415) 555-01{rs(DG, 2)}", f"Oma: +33 6 {' '.join(chunks(rs(DG, 8), 2))}",
        {"name": pick(FIRST), "mobile": f"+81 90-{rs(DG, 4)}-{rs(DG, 4)}"}, f"taxi in {pick(CITIES)}: +351 21 {rs(DG, 3)} {rs(DG, 4)}",
        f"school office +44 20 7946 0{rs(DG, 3)}", f"emergency contact: {pick(FIRST)}, +48 {rs(DG, 3)} {rs(DG, 3)} {rs(DG, 3)}"])


def bl_email():
    f, l = pick(FIRST_ASCII).lower(), pick(LAST_ASCII).lower()
    return "email-address", "benign_email_address", pick([f"my new work email is {f}.{l}@{pick(PROJECTS)}.com", {"contact": f"{f}@{pick(DOMAINS)}", "role": "landlord"},
                                                          f"send the invoice to billing+{rs(ANL, 4)}@{l}-consulting.de", f"email de la maîtresse : {f}.{l}@ac-lyon.fr"])


def bl_address():
    return "home-address", "benign_home_address", pick([
        f"Our new address: {pick(['Lindenstraße', 'Gartenweg', 'Bahnhofstraße'])} {rint(1, 120)}, {rint(10000, 99999)} {pick(['Berlin', 'Leipzig', 'Köln'])}",
        f"Calle de Alcalá {rint(1, 300)}, {rint(1, 8)}ºB, 280{rs(DG, 2)} Madrid", {"name": pick(FIRST), "address": f"{rint(1, 999)} Maple Ave, Apt {rint(1, 40)}, Portland, OR 972{rs(DG, 2)}"},
        f"rue des Lilas {rint(1, 80)}, 750{rs(DG, 2)} Paris - digicode on the intercom label"])


def bl_medical():
    return "medical-note", "benign_medical_record_note", pick([
        f"MRN {rs(DG, 9)} - Dr. {pick(LAST)}, cardiology. ECG normal, next echo in March.",
        {"patient_id": f"PX-{rs(DG, 4)}-{rs(DG, 4)}", "hba1c": f"{rint(50, 70) / 10}%", "next_visit": date_str()},
        f"Insurance member number {rs(UP, 1)}{rs(DG, 9)} for the physio referral; copay 10 EUR.",
        f"Lab results {date_str()}: LDL {rint(90, 180)} mg/dL, vitamin D {rint(15, 60)} ng/mL, ferritin {rint(20, 200)}.",
        f"Prescription #{rs(DG, 8)}: amoxicillin 500 mg three times daily for 7 days."])


def bl_price():
    return "price", "benign_price", pick([f"the sofa was €1,{rint(100, 999)}.00, delivery 3-5 weeks", f"flights came to ${rint(300, 1900)}.{rs(DG, 2)} for both of us",
                                          {"item": "bike", "price": rint(300, 2500), "currency": "EUR"}, f"rent goes up to {rint(800, 2400)} CHF from {pick(MONTHS['en'])}"])


def bl_datetime():
    return "datetime", "benign_datetime", pick([f"{date_str()}T{time_str()}:00+01:00 kickoff", f"epoch {epoch()} = when the backup ran",
                                                {"start": ts(), "end": ts(), "tz": "Europe/Berlin"}, f"deadline {date_str()} 23:59 CET"])


def bl_isbn():
    return "isbn", "benign_isbn", pick([f"ISBN 978-{rint(0, 1)}-{rs(DG, 3)}-{rs(DG, 5)}-{rs(DG, 1)} for the book club", {"isbn13": "978" + rs(DG, 10), "title": "Piranesi"}])


def bl_vin():
    return "vin", "benign_vin", f"VIN of the car for the insurance quote: {rs('ABCDEFGHJKLMNPRSTUVWXYZ0123456789', 17)}"


def bl_serial():
    return "serial-number", "benign_device_serial", pick([f"laptop serial C02{rs(ANU, 9)} (warranty until {date_str()})", {"device": "washing machine", "serial": rs(DG, 14), "model": "WM14N2"},
                                                         f"router S/N {rs(ANU, 12)}, MAC on the sticker"])


def bl_code_nonfin():
    return "nonfinancial-code", "benign_nonfinancial_code", pick([
        f"ICD-10 code on the sick note: {pick(['M54.5', 'J06.9', 'K21.0', 'R51'])}", f"container MSCU {rs(DG, 6)} {rs(DG, 1)} arrives in Hamburg",
        f"company VAT ID DE{rs(DG, 9)} for the invoice", f"LEI {rs(ANU, 18)}{rs(DG, 2)} of the fund", f"UK postcode {pick(['EC1A 1BB', 'SW1A 2AA', 'M1 1AE'])}",
        f"licence plate B-{rs(UP, 2)} {rint(100, 9999)}", f"SKU HD-{rint(1000, 9999)}-{pick(['BLK', 'WHT', 'RED'])}",
        f"UN/LOCODE {pick(['DEHAM', 'NLRTM', 'PTLIS'])}", f"GTIN 0{rs(DG, 13)} for the product listing"])


def bl_ssid():
    return "wifi-ssid", "benign_wifi_ssid_only", pick([
        f"The cafe wifi is '{pick(['Blue Bottle Guest', 'Cafe-Luna-Guest', 'Starbucks WiFi'])}' - no password, you accept terms in the browser.",
        f"Our network name is {ssid()}, the password is on the sticker under the router.",
        {"home_wifi_ssid": ssid(), "band": "5GHz", "note": "guest network disabled"},
        f"Conference wifi: SSID '{pick(['EventNet', 'Conf2025', 'eduroam'])}', login with your university account."])


def bl_stripe_obj():
    return "object-id", "benign_stripe_object_id", pick([
        f"refund issued on pi_{rs(AN, 24)}", {"customer": "cus_" + rs(AN, 14), "subscription": "sub_" + rs(AN, 24), "price": "price_1" + rs(AN, 23)},
        f"webhook event evt_{rs(AN, 24)} retried 3 times", f"invoice in_{rs(AN, 24)} marked paid", f"charge ch_{rs(AN, 24)} disputed"])


def bl_aws_resource():
    return "resource-id", "benign_aws_resource_id", pick([
        f"instance i-0{rs(HEX, 16)} in vpc-{rs(HEX, 17)} is the bastion", f"arn:aws:iam::{rs(DG, 12)}:role/{pick(PROJECTS)}-deployer",
        {"ami": "ami-0" + rs(HEX, 16), "sg": "sg-0" + rs(HEX, 16), "subnet": "subnet-0" + rs(HEX, 16)}, f"bucket s3://{pick(PROJECTS)}-artifacts-{rs(DG, 12)}"])


def bl_test_card():
    n = pick(["4242 4242 4242 4242", "4000 0566 5566 5556", "5555 5555 5555 4444", "3782 822463 10005", "4000 0000 0000 9995"])
    return "test-card", "benign_stripe_test_card", pick([f"Stripe test card for the checkout demo: {n}, any future expiry, any CVC",
                                                        {"test_card": n, "source": "Stripe docs", "purpose": "declines with insufficient_funds" if n.endswith("9995") else "successful payment"}])


def bl_mapbox_pk():
    return "public-token", "benign_mapbox_public_token", f"public Mapbox token for the map widget (URL-restricted, ships in the frontend): {_mapbox('pk')}"


def bl_posthog():
    return "public-token", "benign_posthog_project_key", pick([f"posthog.init('phc_{rs(AN, 43)}', {{ api_host: 'https://eu.posthog.com' }})",
                                                              {"POSTHOG_PROJECT_API_KEY": "phc_" + rs(AN, 43), "note": "public project key, used client-side"}])


def bl_recaptcha():
    return "public-token", "benign_recaptcha_site_key", f"reCAPTCHA site key (public, goes in the HTML): 6L{rs(B64U, 38)}"


def bl_doc_id():
    return "content-id", "benign_google_doc_or_video_id", pick([
        f"https://docs.google.com/document/d/1{rs(B64U, 43)}/edit - the wedding seating plan", f"watch later: https://youtu.be/{rs(B64U, 11)}",
        f"spotify:track:{rs(AN, 22)} is the song from the ad", f"Figma file https://www.figma.com/file/{rs(AN, 22)}/Onboarding"])


def bl_pod():
    return "infra-id", "benign_k8s_pod_container_id", pick([
        f"pod web-{rs(HEX, 10)}-{rs(ANL, 5)} is crashlooping", f"docker logs {rs(HEX, 12)}", {"container_id": rs(HEX, 64), "state": "exited(137)"}])


def bl_ulid():
    return "identifier", "benign_ulid_snowflake", pick([f"ULID {rs(CROCK, 26)} for the import batch", f"Discord user id {rint(10 ** 17, 10 ** 18 - 1)} (my alt account)",
                                                       {"tweet_id": str(rint(10 ** 18, 10 ** 19 - 1))}, f"KSUID {rs(AN, 27)}"])


def bl_mac_ip():
    mac = ":".join(rs(HEX, 2) for _ in range(6))
    return "network-id", "benign_mac_ip_address", pick([f"printer MAC {mac}, give it a static lease 192.168.1.{rint(20, 200)}",
                                                        f"IPv6 of the NAS: 2001:db8:{rs(HEX, 4)}:{rs(HEX, 4)}::{rs(HEX, 3)}", {"device": "tv", "mac": mac.upper()}])


def bl_booking_ref():
    return "booking-ref", "benign_flight_booking_ref", pick([f"booking reference {rs(ANU, 6)} for the Lisbon flights", {"hotel_confirmation": rs(DG, 10), "hotel": "Hotel Aurora"},
                                                             f"train ticket order {rs(DG, 12)} (Deutsche Bahn)", f"Reservierungsnummer {rs(ANU, 8)} für das Restaurant"])


def bl_data_uri():
    return "data-uri", "benign_data_uri_base64", pick([f"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA{rs(B64, 180)}=",
                                                       {"favicon": "data:image/svg+xml;base64," + b64e('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#' + rs(HEX, 6) + '"/></svg>')}])


def bl_b64_harmless():
    msg = pick(["Happy birthday Grandma! We love you.", "meet at the fountain at noon", "Hello from the kids!", "see you at the lake on Saturday",
                "shopping: milk, bread, eggs"])
    return "base64-harmless", "benign_base64_harmless_text", pick([f"base64 of the message the kids wrote: {b64e(msg)}", {"payload_b64": b64e(json.dumps({"event": "page_view", "path": "/pricing"}))}])


def bl_hex_harmless():
    msg = pick(["hello world", "PNG header check", "coffee time", "GET / HTTP/1.1"])
    return "hex-harmless", "benign_hex_dump_harmless", pick([f"hexdump of the greeting: {' '.join(chunks(msg.encode().hex(), 2))}", f"colour palette: #{rs(HEX, 6)}, #{rs(HEX, 6)}, #{rs(HEX, 6)}",
                                                            f"magic bytes 89 50 4e 47 0d 0a 1a 0a mean it's a PNG"])


def bl_word_list():
    words = R.sample(["apple", "bread", "butter", "cheese", "coffee", "banana", "lemon", "garlic", "tomato", "salmon", "sugar", "celery", "bacon", "cereal", "cream", "cherry", "mango", "pizza"], 12)
    return "word-list", "benign_word_list_not_seed", pick([f"grocery list: {', '.join(words)}", f"spelling words for {pick(FIRST)}'s test: {' '.join(words)}",
                                                           [f"{i + 1}. {w}" for i, w in enumerate(words)]])


def bl_imei():
    imei = luhn_complete("35" + rs(DG, 6), 15)
    return "device-id", "benign_imei", pick([f"IMEI of my old phone for the insurance claim: {imei}", {"phone": "Pixel 7", "imei": imei, "status": "reported stolen"}])


def bl_ssh_fp():
    return "fingerprint", "benign_ssh_fingerprint", pick([f"host key fingerprint SHA256:{rs(B64, 43)} - verify before accepting", f"ED25519 key fingerprint is SHA256:{rs(B64, 43)}."])


def bl_pgp_fp():
    return "fingerprint", "benign_pgp_fingerprint", f"PGP fingerprint: {' '.join(chunks(rs(HEXU, 40), 4))}"


def bl_wg_pub():
    return "public-key", "benign_wireguard_public_peer", f"[Peer]\n# {pick(FIRST)}'s phone\nPublicKey = {wg_key()}\nAllowedIPs = 10.8.0.{rint(2, 60)}/32\n"


def bl_age_pub():
    return "public-key", "benign_age_public_key", f"encrypt backups to my age recipient: age1{rs(BECH, 58)}"


def bl_env_nosecret():
    return "env-no-secrets", "benign_env_file_no_secrets", pick([
        f"NODE_ENV=production\nPORT={pick([3000, 8080])}\nLOG_LEVEL=info\nDATABASE_HOST=db.internal\nDATABASE_PORT=5432\nFEATURE_NEW_CHECKOUT=true\n",
        f"TZ=Europe/Berlin\nAPP_URL=https://{pick(PROJECTS)}.example.org\nCACHE_TTL=300\nMAX_UPLOAD_MB=25\n"])


def bl_pw_policy():
    return "policy-config", "benign_password_policy_config", pick([
        "password_policy:\n  min_length: 12\n  require_symbols: true\n  max_age_days: 90\n  history: 5\n",
        {"password_min_length": 14, "password_expires_in_days": 180, "token_ttl_seconds": 900, "pin_length": 6, "lockout_after": 10},
        "[auth]\nsession_timeout = 30m\npassword_hash = argon2id\nmfa_required = true\n"])


def bl_conn_placeholder():
    return "placeholder", "benign_placeholder_connection_string", pick([
        "DATABASE_URL=postgres://<user>:<password>@<host>:5432/<db>", "mongodb+srv://USERNAME:PASSWORD@cluster.example.mongodb.net/DBNAME",
        "redis://localhost:6379/0", "postgres://localhost/app_dev", "Server=localhost;Database=app;Trusted_Connection=True;"])


def bl_numeric_noncode():
    return "numeric", "benign_numeric_non_code", pick([
        f"Room {rint(100, 4999)} at the conference hotel", f"Bus {rint(10, 399)} stops right outside", f"Our new postcode is {rs(DG, 5)}",
        f"Gate B{rint(10, 60)} for the flight, boarding 45 min before", f"Seat {rint(1, 40)}C in coach {rint(1, 14)}",
        f"Locker number {rint(1, 400)} at the gym (padlock is my own)", f"Table {rint(1, 40)}, reservation under {pick(LAST)}",
        f"flat {rint(1, 9)}{pick('ABCD')}, {rint(1, 8)}rd floor, ring the bell twice"])


def bl_lfs():
    return "lfs-pointer", "benign_git_lfs_pointer", f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(HEX, 64)}\nsize {rint(10 ** 4, 10 ** 9)}\n"


def bl_nix():
    return "store-path", "benign_nix_store_path", f"/nix/store/{rs('0123456789abcdfghijklmnpqrsvwxyz', 32)}-{pick(['hello-2.12.1', 'python3-3.11.9', 'openssl-3.0.14'])}"


def bl_k8s_tmpl():
    return "secret-template", "benign_k8s_secret_template", ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\ntype: Opaque\nstringData:\n"
                                                             "  DB_PASSWORD: \"<set-in-sealed-secrets>\"\n  API_KEY: \"CHANGE_ME_IN_VAULT\"\n")


def bl_slack_ids():
    return "chat-id", "benign_slack_ids", pick([f"post alerts to channel C0{rs(ANU, 9)} and tag U0{rs(ANU, 9)}", {"team_id": "T0" + rs(ANU, 8), "channel": "C0" + rs(ANU, 9)}])


def bl_hash_url():
    return "asset-hash", "benign_hashed_asset_name", pick([f"cache bust: /static/app.{rs(HEX, 8)}.js and main.{rs(HEX, 20)}.css",
                                                           f"https://cdn.example.org/img/{rs(HEX, 32)}.webp"])


def bl_hex_color():
    return "colors", "benign_color_codes", {"brand": {"primary": "#" + rs(HEX, 6), "secondary": "#" + rs(HEX, 6), "text": "#1f2937"}}


def bl_otp_explain():
    return "auth-explained", "benign_otp_explanation", pick(["The bank texts a 6-digit code that expires in 5 minutes; never read it out to anyone calling.",
                                                            "Authenticator codes rotate every 30 seconds, so screenshots of them are useless.",
                                                            "Die TAN kommt per pushTAN-App, nicht per SMS."])


BENIGN_HARD_GENS = [bl_commit_sha, bl_short_sha, bl_uuid, bl_sha256, bl_md5, bl_docker_digest, bl_integrity, bl_ups, bl_fedex,
                    bl_usps, bl_dhl, bl_amazon_order, bl_shop_order, bl_version, bl_ssh_pub, bl_pem_pub, bl_cert, bl_pgp_pub,
                    bl_eth_addr, bl_btc_addr, bl_placeholder, bl_aws_docs, bl_secret_ref, bl_masked, bl_phone, bl_email,
                    bl_address, bl_medical, bl_price, bl_datetime, bl_isbn, bl_vin, bl_serial, bl_code_nonfin, bl_ssid,
                    bl_stripe_obj, bl_aws_resource, bl_test_card, bl_mapbox_pk, bl_posthog, bl_recaptcha, bl_doc_id, bl_pod,
                    bl_ulid, bl_mac_ip, bl_booking_ref, bl_data_uri, bl_b64_harmless, bl_hex_harmless, bl_word_list, bl_imei,
                    bl_ssh_fp, bl_pgp_fp, bl_wg_pub, bl_age_pub, bl_env_nosecret, bl_pw_policy, bl_conn_placeholder,
                    bl_numeric_noncode, bl_lfs, bl_nix, bl_k8s_tmpl, bl_slack_ids, bl_hash_url, bl_hex_color, bl_otp_explain]
BENIGN_HARD_TARGET = 336


def gen_benign_plain_extra():
    out = []
    for kind, t in BENIGN_EN:
        if "{" in t:
            out.append((kind, kind.replace("benign_", ""), t.format_map(bslots()), "en"))
    for t in BENIGN_TECHNOTES:
        if "{" in t:
            out.append(("benign_technote_credentials_mentioned", "technote", t.format_map(bslots()), "en"))
    return out


# --------------------------------------------------------------------------
# assembly
# --------------------------------------------------------------------------
def main() -> None:
    records: list[dict] = []
    seen: set[str] = set()          # membership tests only, never iterated
    counters: dict[str, int] = {}
    langs: dict[str, int] = {}

    def emit(label, variant, src, kind, value, lang="en", key=None, ns_extra=None) -> bool:
        sig = json.dumps([value, key, ns_extra], sort_keys=True, ensure_ascii=False)
        if sig in seen:
            return False
        seen.add(sig)
        prefix = f"h8-{'s' if label == 'secret' else 'b'}-{'p' if variant == 'plain' else 'h'}-{src}"
        counters[prefix] = counters.get(prefix, 0) + 1
        ns = ["memories", f"u{rint(0, 99999):05d}"] + (ns_extra or [])
        rec = {"id": f"{prefix}-{counters[prefix]:03d}", "label": label, "kind": kind, "variant": variant,
               "namespace": ns, "key": key if key is not None else f"mem_{rs(HEX, 8)}", "value": value}
        records.append(rec)
        langs[lang] = langs.get(lang, 0) + 1
        return True

    # ---- secrets, plain
    for gen in (gen_vendor_records, gen_keys, gen_sessions, gen_conn, gen_prose_secrets, gen_field_secrets,
                gen_cards, gen_recovery, gen_structured):
        for kind, src, value, lang in gen():
            emit("secret", "plain", src, kind, value, lang)
    # ---- secrets, hard
    for kind, tech, value, lang, key, ns in gen_hard_secrets():
        emit("secret", "hard", tech, kind, value, lang, key=key, ns_extra=ns)
    # ---- benign, plain
    for kind, src, value, lang in gen_benign_plain() + gen_benign_plain_extra():
        emit("benign", "plain", src, kind, value, lang)
    # ---- benign, hard (look-alikes), round-robin over generators
    n_hard_b, i, misses = 0, 0, 0
    while n_hard_b < BENIGN_HARD_TARGET:
        src, kind, value = BENIGN_HARD_GENS[i % len(BENIGN_HARD_GENS)]()
        i += 1
        lang = "de" if kind == "benign_otp_explanation" and isinstance(value, str) and value.startswith("Die ") else "en"
        if emit("benign", "hard", src, kind, value, lang):
            n_hard_b += 1
        else:
            misses += 1
            assert misses < 500

    # ---- sanity checks on the corpus itself
    ids = [r["id"] for r in records]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for r in records:
        if r["label"] == "secret" and r["variant"] == "plain" and r["kind"].startswith("payment_card_"):
            pass
        if r["label"] == "benign":
            blob = json.dumps(r["value"], ensure_ascii=False)
            for bad in ("sk_live_", "PRIVATE KEY", "ghp_" + "A", "xoxb-1", "AGE-SECRET"):
                assert bad not in blob, (r["id"], bad)

    R.shuffle(records)
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")

    # ---- stats
    table: dict[str, int] = {}
    kinds: dict[str, int] = {}
    techs: dict[str, int] = {}
    for r in records:
        k = f"{r['label']}/{r['variant']}"
        table[k] = table.get(k, 0) + 1
        kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
        if r["label"] == "secret" and r["variant"] == "hard":
            t = r["id"].split("-", 3)[3].rsplit("-", 1)[0]
            techs[t] = techs.get(t, 0) + 1
    print("records:", len(records))
    for k in sorted(table):
        print(f"  {k}: {table[k]}")
    print("distinct kinds:", len(kinds))
    print("distinct vendors (token specs rendered or used in hard records):", len(VENDORS_USED))
    print("vendor specs:", len(VENDOR_SPECS), "distinct vendor names in specs:", len(sorted({s.vendor for s in VENDOR_SPECS})))
    print("languages:", ", ".join(f"{k}={langs[k]}" for k in sorted(langs)))
    print("hard techniques:", ", ".join(f"{k}={techs[k]}" for k in sorted(techs)))


if __name__ == "__main__":
    main()
