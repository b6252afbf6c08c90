#!/usr/bin/env python3
"""Generator for the frozen held-out secret-detector corpus "heldout22".

Usage:
    python3 make_heldout22.py          # writes heldout22.jsonl next to this file
    python3 make_heldout22.py --stats  # prints counts per segment / kind (no write)

Standard library only.  Every random choice comes from one random.Random
instance seeded with SEED, nothing iterates over a set, and the output path is
resolved relative to this file, so the output is byte-identical regardless of
PYTHONHASHSEED, the working directory or the clock.

All credential-shaped values are synthetic: bodies are drawn from the seeded
RNG.  The only published example values used (AWS documentation example key
pair, the jwt.io sample token, the Slack documentation webhook placeholder) are
in benign records that say they are documentation examples.
"""

import argparse
import base64
import binascii
import hashlib
import json
import os
import re
import string
import sys
import urllib.parse
from collections import Counter
import random

SEED = 2207222
R = random.Random(SEED)

OUT_NAME = "heldout22.jsonl"

TARGETS = {
    ("secret", "vendor"): 189,
    ("secret", "personal"): 165,
    ("secret", "evasion"): 118,
    ("benign", "lookalike"): 259,
    ("benign", "ordinary"): 211,
}

# ---------------------------------------------------------------------------
# low level random helpers
# ---------------------------------------------------------------------------
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
B62 = DIG + UP + LO
ALNUM_LO = LO + DIG
ALNUM_UP = UP + DIG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = UP + LO + DIG + "+/"
B64U = UP + LO + DIG + "-_"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
SYM = "!@#$%&*?+=-_."


def rs(alphabet, n):
    return "".join(R.choice(alphabet) for _ in range(n))


def hexs(n):
    return rs(HEXL, n)


def b62(n):
    return rs(B62, n)


def digits(n, lead_nonzero=True):
    s = rs(DIG, n)
    if lead_nonzero and n > 1 and s[0] == "0":
        s = R.choice("123456789") + s[1:]
    return s


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64blob(nbytes):
    return base64.b64encode(rbytes(nbytes)).decode()


def b64u_nopad(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def uuid4():
    h = hexs(32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def rdate(y0=2023, y1=2025):
    return "%04d-%02d-%02d" % (R.randint(y0, y1), R.randint(1, 12), R.randint(1, 28))


def rtime():
    return "%02d:%02d" % (R.randint(6, 22), pick([0, 15, 30, 45]))


def luhn_ok(num):
    s = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return s % 10 == 0


def luhn_complete(prefix, length):
    body = prefix + rs(DIG, length - len(prefix) - 1)
    for c in DIG:
        if luhn_ok(body + c):
            return body + c
    raise AssertionError


CARD_BRANDS = [
    ("Visa", "4", 16), ("Visa", "4", 16), ("Mastercard", "51", 16), ("Mastercard", "53", 16),
    ("Mastercard", "2221", 16), ("Mastercard", "55", 16), ("Amex", "34", 15), ("Amex", "37", 15),
    ("Discover", "6011", 16), ("JCB", "3528", 16), ("UnionPay", "62", 16), ("RuPay", "6521", 16),
    ("Maestro", "6759", 16), ("Elo", "6362", 16), ("Mir", "2200", 16),
]


def card():
    brand, pre, ln = pick(CARD_BRANDS)
    num = luhn_complete(pre, ln)
    exp = "%02d/%02d" % (R.randint(1, 12), R.randint(26, 31))
    cvv = digits(4 if brand == "Amex" else 3, lead_nonzero=False)
    return brand, num, exp, cvv


def group4(num):
    if len(num) == 15:
        return "%s %s %s" % (num[:4], num[4:10], num[10:])
    return " ".join(num[i:i + 4] for i in range(0, len(num), 4))


def non_luhn_digits(n):
    while True:
        s = digits(n)
        if not luhn_ok(s):
            return s


# ---------------------------------------------------------------------------
# words, names, passwords
# ---------------------------------------------------------------------------
WORDS = ("apple river tiger maple sunset coffee rocket garden silver purple ocean falcon winter "
         "summer pepper mango cookie banana lemon cherry dragon panda koala meadow harbor "
         "thunder pirate wizard castle forest candle butter pickle noodle violet marble "
         "copper velvet comet galaxy orbit rainbow bridge island jungle canyon glacier "
         "lantern compass anchor feather pebble willow cedar birch tulip daisy lotus "
         "mustang bison otter beaver walrus penguin puffin raven sparrow hawk phoenix "
         "biscuit muffin waffle pancake toffee caramel nutmeg saffron ginger basil").split()

BIP39ISH = ("abandon ability able about above absent absorb abstract absurd abuse access accident "
            "account accuse achieve acid acoustic acquire across act action actor actress actual "
            "adapt add addict address adjust admit adult advance advice aerobic affair afford "
            "afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert "
            "alien all alley allow almost alone alpha already also alter always amateur amazing "
            "among amount amused analyst anchor ancient anger angle angry animal ankle announce "
            "annual another answer antenna antique anxiety any apart apology appear apple "
            "approve april arch arctic area arena argue arm armed armor army around arrange "
            "arrest arrive arrow art artefact artist artwork ask aspect assault asset assist "
            "assume asthma athlete atom attack attend attitude attract auction audit august "
            "aunt author auto autumn average avocado avoid awake aware away awesome awful "
            "awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana "
            "banner bar barely bargain barrel base basic basket battle beach bean beauty "
            "because become beef before begin behave behind believe below belt bench benefit "
            "best betray better between beyond bicycle bid bike bind biology bird birth bitter "
            "black blade blame blanket blast bleak bless blind blood blossom blouse blue blur "
            "blush board boat body boil bomb bone bonus book boost border boring borrow boss "
            "bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge "
            "brief bright bring brisk broccoli broken bronze broom brother brown brush bubble "
            "buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus "
            "business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm "
            "camera camp canal cancel candy cannon canoe canvas canyon capable capital captain "
            "car carbon card cargo carpet carry cart case cash casino castle casual cat catalog "
            "catch category cattle caught cause caution cave ceiling celery cement census "
            "century cereal certain chair chalk champion change chaos chapter charge chase chat "
            "cheap check cheese chef cherry chest chicken chief child chimney choice choose "
            "chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap "
            "clarify claw clay clean clerk clever click client cliff climb clinic clip clock "
            "clog close cloth cloud clown club clump cluster clutch coach coast coconut code "
            "coffee coil coin collect color column combine come comfort comic common company "
            "concert conduct confirm congress connect consider control convince cook cool "
            "copper copy coral core corn correct cost cotton couch country couple course "
            "cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream "
            "credit creek crew cricket crime crisp critic crop cross crouch crowd crucial "
            "cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious "
            "current curtain curve cushion custom cute cycle").split()

FIRST_NAMES = ["Anna", "Ben", "Chloe", "Dev", "Elif", "Farah", "Gabriel", "Hana", "Ivan", "Jana",
               "Kofi", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sanjay",
               "Tomasz", "Uma", "Vikram", "Wen", "Ximena", "Yuki", "Zara", "Aiko", "Bilal",
               "Carmen", "Dmitri", "Esra", "Femi", "Giulia", "Hamza", "Ines", "Jonas", "Kavya",
               "Luca", "Mei", "Nikos", "Olga", "Pedro", "Rahul", "Sofia", "Tariq", "Valentina",
               "Wanjiru", "Yara", "Zeynep", "Arjun", "Maya", "Noah", "Leila", "Kenji", "Amara"]
LAST_NAMES = ["Schmidt", "Okafor", "Nguyen", "Kowalski", "Rossi", "Haddad", "Sato", "Kim",
              "Petrov", "Garcia", "Silva", "Dubois", "Yilmaz", "Sharma", "Chen", "Cohen",
              "Papadopoulos", "Mwangi", "Hosseini", "Rahman", "Lindqvist", "Moreau", "Novak"]

SERVICES = ["Netflix", "Gmail", "Instagram", "Facebook", "Amazon", "PayPal", "Spotify", "Steam",
            "PlayStation Network", "Xbox", "Disney+", "iCloud", "Outlook", "LinkedIn", "Uber",
            "Airbnb", "Booking.com", "Zoom", "Dropbox", "eBay", "Etsy", "Duolingo", "Hulu",
            "HBO Max", "Twitch", "Discord", "Reddit", "TikTok", "Pinterest", "Adobe", "Canva",
            "Nintendo", "Epic Games", "Revolut", "Wise", "Coinbase", "Binance", "the school portal",
            "the tax portal", "the electricity account", "the council website", "the gym app",
            "the pharmacy app", "the library", "the work VPN", "the HR portal", "Jira", "the router admin page"]

DOMAINS = ["example.com", "example.org", "example.net", "mail.example.com", "corp.example"]
COMPANY = ["acme", "globex", "initech", "umbrella", "hooli", "vandelay", "stark", "wayne",
           "tyrell", "cyberdyne", "soylent", "wonka", "oscorp", "pied-piper", "dunder"]
SSID_FMT = ["Vodafone-{H4}", "FRITZ!Box 7590 {U2}", "TP-Link_{H4}", "NETGEAR{D2}", "Livebox-{H4}",
            "HomeNet_5G", "MOVISTAR_{H4}", "BT-{U6}", "Sky{U5}", "Telekom-{D6}", "TIM-{D8}",
            "Jio_{D4}", "Airtel_{L5}", "ASUS_{D2}_5G", "Ziggo{D7}", "SFR_{H4}", "Orange-{H4}",
            "Casa {N}", "{N}'s iPhone", "Guest-{N}", "Office-WLAN", "LabNet", "dlink-{H4}",
            "Xiaomi_{H4}", "HUAWEI-{H4}", "Tenda_{H6}", "Totolink_{D4}", "Beach House", "Cabin 5G"]


def ssid():
    f = pick(SSID_FMT)
    return (f.replace("{H4}", rs(HEXU, 4)).replace("{H6}", rs(HEXU, 6)).replace("{U2}", rs(UP, 2))
            .replace("{U5}", rs(UP, 5)).replace("{U6}", rs(UP, 6)).replace("{D2}", digits(2))
            .replace("{D4}", digits(4)).replace("{D6}", digits(6)).replace("{D7}", digits(7))
            .replace("{D8}", digits(8)).replace("{L5}", rs(LO, 5)).replace("{N}", pick(FIRST_NAMES)))


def human_pw():
    w = pick(WORDS)
    k = R.randint(0, 9)
    if k == 0:
        return w.capitalize() + str(R.randint(1970, 2019)) + pick("!#$@*?")
    if k == 1:
        return w + pick(WORDS).capitalize() + digits(2, False)
    if k == 2:
        return w.capitalize() + "_" + pick(WORDS) + digits(3, False)
    if k == 3:
        t = str.maketrans({"a": "@", "o": "0", "e": "3", "i": "1", "s": "$"})
        return (w + pick(WORDS)).translate(t).capitalize() + digits(2, False)
    if k == 4:
        return "-".join(pick(WORDS) for _ in range(4))
    if k == 5:
        return rs(B62 + "!#%&*", R.randint(14, 20))
    if k == 6:
        return pick(FIRST_NAMES) + digits(4, False) + pick("!.#")
    if k == 7:
        return w.upper()[:3] + digits(3, False) + pick(WORDS) + pick("!?$")
    if k == 8:
        return "%s%s%s" % (pick(WORDS).capitalize(), pick(SYM), digits(R.randint(2, 5), False))
    return "%s.%s.%s" % (pick(WORDS), pick(WORDS), digits(2, False))


def strong_pw(n=None):
    n = n or R.randint(14, 24)
    while True:
        s = rs(B62 + "!#$%&*+-=?@^_", n)
        if any(c in DIG for c in s) and any(c in "!#$%&*+-=?@^_" for c in s):
            return s


def wifi_pw():
    k = R.randint(0, 5)
    if k == 0:
        return rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", R.choice([10, 12, 16]))
    if k == 1:
        return digits(R.choice([8, 10, 12]))
    if k == 2:
        return pick(WORDS) + pick(WORDS) + digits(4, False)
    if k == 3:
        return rs(ALNUM_LO, 12)
    if k == 4:
        return human_pw()
    return "%s-%s-%s" % (rs(LO, 4), rs(LO, 4), rs(LO, 4))


def pin(n=None):
    n = n or pick([4, 4, 4, 6, 5])
    return digits(n, lead_nonzero=False)


def door_code():
    k = R.randint(0, 4)
    c = digits(R.choice([4, 4, 5, 6]), False)
    if k == 0:
        return c + "#"
    if k == 1:
        return "*" + c
    if k == 2:
        return "-".join(c)
    return c


def combo():
    return "-".join("%02d" % R.randint(0, 39) for _ in range(3))


def email_addr(name=None):
    name = name or pick(FIRST_NAMES)
    return "%s.%s@%s" % (name.lower(), pick(LAST_NAMES).lower(), pick(DOMAINS))


def person():
    return "%s %s" % (pick(FIRST_NAMES), pick(LAST_NAMES))


def host():
    return "%s.%s" % (pick(["db", "api", "prod-db-1", "pg-main", "mysql01", "cache", "mq", "analytics",
                            "replica-2", "core", "billing-db", "reports"]),
                      pick(["internal." + pick(COMPANY) + ".io", pick(COMPANY) + ".local",
                            "eu-west-1.rds.amazonaws.com", pick(COMPANY) + ".net", "svc.cluster.local"]))


def jwt(payload, alg="HS256", sig_len=43):
    h = b64u_nopad(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64u_nopad(json.dumps(payload, separators=(",", ":")).encode())
    return "%s.%s.%s" % (h, p, rs(B64U, sig_len))


def wrap64(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


PEM_STARTS = {
    "RSA PRIVATE KEY": "MIIEpAIBAAKCAQEA",
    "PRIVATE KEY": "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ",
    "EC PRIVATE KEY": "MHcCAQEEI",
    "OPENSSH PRIVATE KEY": "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
    "ENCRYPTED PRIVATE KEY": "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI",
    "PUBLIC KEY": "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA",
    "CERTIFICATE": "MIIDdzCCAl+gAwIBAgIU",
    "CERTIFICATE REQUEST": "MIICijCCAXICAQAwRTELMAkGA1UEBhMC",
}
PEM_LEN = {"RSA PRIVATE KEY": 1588, "PRIVATE KEY": 1624, "EC PRIVATE KEY": 160,
           "OPENSSH PRIVATE KEY": 396, "ENCRYPTED PRIVATE KEY": 1700, "PUBLIC KEY": 392,
           "CERTIFICATE": 1100, "CERTIFICATE REQUEST": 900}


def pem(label, short=False):
    start = PEM_STARTS[label]
    n = PEM_LEN[label]
    if short and n > 600:
        n = 600
    body = start + rs(B64, n - len(start) - 2)
    body = body + ("==" if label != "EC PRIVATE KEY" else "g=")
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, wrap64(body), label)


def pem_oneline(label):
    return pem(label).replace("\n", "\\n")


# ---------------------------------------------------------------------------
# VENDOR credentials: >120 providers / formats with realistic public shapes
# ---------------------------------------------------------------------------
PROVIDERS = []


def prov(slug, name, cat, host_, fields, auth="bearer", ctx=None):
    PROVIDERS.append(dict(slug=slug, name=name, cat=cat, host=host_, fields=fields, auth=auth, ctx=ctx))


def _aws():
    return [("AWS_ACCESS_KEY_ID", "AKIA" + rs(ALNUM_UP, 16)), ("AWS_SECRET_ACCESS_KEY", rs(B62 + "/+", 40))]


def _aws_sts():
    return [("AWS_ACCESS_KEY_ID", "ASIA" + rs(ALNUM_UP, 16)), ("AWS_SECRET_ACCESS_KEY", rs(B62 + "/+", 40)),
            ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2VjE" + rs(B64, 300))]


def _pg_url():
    u = pick(["app", "svc_orders", "postgres", "analytics", "django", "api_rw"])
    return "postgres://%s:%s@%s:5432/%s" % (u, rs(B62, R.randint(16, 28)), host(), pick(["app", "orders", "prod", "main"]))


def _mysql_url():
    return "mysql://%s:%s@%s:3306/%s" % (pick(["root", "wp_user", "shop", "laravel"]), human_pw().replace("@", "%40").replace("#", "%23"),
                                        host(), pick(["wordpress", "shop", "crm"]))


def _mongo_url():
    return "mongodb+srv://%s:%s@cluster0.%s.mongodb.net/%s?retryWrites=true&w=majority" % (
        pick(["admin", "appUser", "reporting"]), rs(B62, 16), rs(ALNUM_LO, 5), pick(["test", "prod", "events"]))


def _redis_url():
    if chance(0.5):
        return "rediss://default:%s@%s-%s-%s.upstash.io:6379" % (rs(B62, 32), pick(WORDS), pick(WORDS), digits(5))
    return "redis://:%s@%s:6379/0" % (rs(B62, 24), host())


def _amqp():
    return "amqps://%s:%s@%s.rmq.cloudamqp.com/%s" % (rs(LO, 8), rs(B64U, 32), pick(["rattlesnake", "kangaroo", "possum"]), rs(LO, 8))


def _crdb():
    return "postgresql://%s:%s@%s-%s.%s.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full" % (
        pick(["maxroach", "app"]), rs(B62 + "-_", 22), pick(WORDS), digits(4), pick(["g8z", "j77", "xw3"]))


def _neon():
    return "postgresql://%s:npg_%s@ep-%s-%s-%s.eu-central-1.aws.neon.tech/neondb?sslmode=require" % (
        pick(["neondb_owner", "app"]), rs(B62, 12), pick(WORDS), pick(WORDS), rs(ALNUM_LO, 8))


def _mssql():
    return "Server=tcp:%s.database.windows.net,1433;Initial Catalog=%s;User ID=%s;Password=%s;Encrypt=True;" % (
        pick(COMPANY) + "-sql", pick(["Sales", "Inventory"]), pick(["sqladmin", "appuser"]), strong_pw())


def _azure_storage():
    return "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (
        pick(COMPANY).replace("-", "") + rs(ALNUM_LO, 4), b64blob(64))


def _azure_sas():
    return "https://%s.blob.core.windows.net/%s?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-0%d-01T00:00:00Z&st=2024-01-01T00:00:00Z&spr=https&sig=%s" % (
        pick(COMPANY).replace("-", ""), pick(["backups", "uploads", "exports"]), R.randint(1, 9),
        urllib.parse.quote(b64blob(32), safe=""))


def _slack_hook():
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(ALNUM_UP, 8), rs(ALNUM_UP, 10), b62(24))


def _discord_hook():
    return "https://discord.com/api/webhooks/%s/%s" % (digits(19), rs(B64U, 68))


def _teams_hook():
    return "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s" % (
        pick(COMPANY).replace("-", ""), uuid4(), uuid4(), hexs(32), uuid4())


def _gchat_hook():
    return "https://chat.googleapis.com/v1/spaces/AAAA%s/messages?key=AIza%s&token=%s" % (
        rs(B64U, 7), rs(B64U, 35), urllib.parse.quote(rs(B64U, 43) + "=", safe=""))


def _zapier_hook():
    return "https://hooks.zapier.com/hooks/catch/%s/%s/" % (digits(8), rs(ALNUM_LO, 7))


def _ifttt():
    return "https://maker.ifttt.com/trigger/%s/with/key/%s" % (pick(["door_open", "leak_alert", "backup_done"]), rs(B64U, 22))


def _mattermost():
    return "https://chat.%s.io/hooks/%s" % (pick(COMPANY), rs(ALNUM_LO, 26))


def _telegram():
    return digits(10) + ":AA" + rs(B64U, 33)


def _discord_bot():
    uid = digits(18)
    return b64u_nopad(uid.encode()) + "." + rs(B64U, 6) + "." + rs(B64U, 38)


def _cloudinary():
    return "cloudinary://%s:%s@%s" % (digits(15), rs(B64U, 27), pick(COMPANY) + "-media")


def _gcp_sa():
    proj = "%s-%s-%s" % (pick(COMPANY), pick(WORDS), digits(6))
    return {"type": "service_account", "project_id": proj, "private_key_id": hexs(40),
            "private_key": pem("PRIVATE KEY") + "\n",
            "client_email": "%s@%s.iam.gserviceaccount.com" % (pick(["deployer", "ci-runner", "bq-export"]), proj),
            "client_id": digits(21), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token"}


def _fcm_legacy():
    return "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134)


def _twitter_bearer():
    return "AAAAAAAAAAAAAAAAAAAAA" + rs(B62, 25) + "%3D" + rs(B62, 50)


def _sf_session():
    return "00D" + rs(B62, 12) + "!" + rs(B62 + "._", 96)


prov("aws", "AWS", "cloud", "sts.amazonaws.com", _aws, auth=None)
prov("aws_sts", "AWS (temporary STS)", "cloud", "sts.amazonaws.com", _aws_sts, auth=None)
prov("gcp_api_key", "Google Cloud API key", "cloud", "maps.googleapis.com",
     lambda: [("GOOGLE_API_KEY", "AIza" + rs(B64U, 35))], auth="query:key")
prov("gcp_service_account", "GCP service account", "cloud", None, lambda: [("GOOGLE_APPLICATION_CREDENTIALS_JSON", _gcp_sa())],
     auth=None, ctx=["sa_json"])
prov("google_oauth", "Google OAuth client", "cloud", "oauth2.googleapis.com",
     lambda: [("GOOGLE_CLIENT_ID", digits(12) + "-" + rs(ALNUM_LO, 32) + ".apps.googleusercontent.com"),
              ("GOOGLE_CLIENT_SECRET", "GOCSPX-" + rs(B64U, 28))], auth=None)
prov("azure_storage", "Azure Storage", "cloud", None, lambda: [("AZURE_STORAGE_CONNECTION_STRING", _azure_storage())], auth=None)
prov("azure_sas", "Azure Blob SAS URL", "cloud", None, lambda: [("BACKUP_SAS_URL", _azure_sas())], auth="url")
prov("azure_ad", "Azure AD app", "cloud", "login.microsoftonline.com",
     lambda: [("AZURE_TENANT_ID", uuid4()), ("AZURE_CLIENT_ID", uuid4()),
              ("AZURE_CLIENT_SECRET", rs(B62, 3) + digits(1) + "Q~" + rs(B62 + "~._-", 34))], auth=None)
prov("azure_devops", "Azure DevOps PAT", "ci", "dev.azure.com", lambda: [("AZDO_PAT", rs(ALNUM_LO, 52))], auth="basic_blank")
prov("digitalocean", "DigitalOcean", "cloud", "api.digitalocean.com", lambda: [("DIGITALOCEAN_TOKEN", "dop_v1_" + hexs(64))])
prov("linode", "Linode", "cloud", "api.linode.com", lambda: [("LINODE_TOKEN", hexs(64))])
prov("hetzner", "Hetzner Cloud", "cloud", "api.hetzner.cloud", lambda: [("HCLOUD_TOKEN", b62(64))])
prov("vultr", "Vultr", "cloud", "api.vultr.com", lambda: [("VULTR_API_KEY", rs(ALNUM_UP, 36))])
prov("scaleway", "Scaleway", "cloud", "api.scaleway.com",
     lambda: [("SCW_ACCESS_KEY", "SCW" + rs(ALNUM_UP, 17)), ("SCW_SECRET_KEY", uuid4())], auth="hdr:X-Auth-Token")
prov("oci", "Oracle Cloud", "cloud", None,
     lambda: [("OCI_USER", "ocid1.user.oc1.." + rs(ALNUM_LO, 60)), ("OCI_FINGERPRINT", ":".join(hexs(2) for _ in range(16))),
              ("OCI_PRIVATE_KEY", pem("PRIVATE KEY"))], auth=None, ctx=["pem_file", "prose_pem", "json_escaped"])
prov("alibaba", "Alibaba Cloud", "cloud", None,
     lambda: [("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI" + b62(20)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", b62(30))], auth=None)
prov("ibm_cloud", "IBM Cloud", "cloud", "iam.cloud.ibm.com", lambda: [("IBMCLOUD_API_KEY", rs(B64U, 44))], auth=None)
prov("cloudflare_token", "Cloudflare API token", "cloud", "api.cloudflare.com", lambda: [("CLOUDFLARE_API_TOKEN", rs(B64U, 40))])
prov("cloudflare_global", "Cloudflare global key", "cloud", "api.cloudflare.com",
     lambda: [("CF_API_EMAIL", email_addr()), ("CF_API_KEY", hexs(37))], auth="hdr:X-Auth-Key")
prov("cloudflare_r2", "Cloudflare R2", "cloud", None,
     lambda: [("R2_ACCESS_KEY_ID", hexs(32)), ("R2_SECRET_ACCESS_KEY", hexs(64))], auth=None)
prov("fastly", "Fastly", "cloud", "api.fastly.com", lambda: [("FASTLY_API_TOKEN", rs(B64U, 32))], auth="hdr:Fastly-Key")
prov("backblaze", "Backblaze B2", "cloud", None,
     lambda: [("B2_APPLICATION_KEY_ID", "005" + hexs(22)), ("B2_APPLICATION_KEY", "K005" + rs(B62 + "/+", 27))], auth=None)
prov("wasabi", "Wasabi S3", "cloud", None,
     lambda: [("WASABI_ACCESS_KEY", rs(ALNUM_UP, 20)), ("WASABI_SECRET_KEY", b62(40))], auth=None)
prov("minio", "MinIO", "cloud", None, lambda: [("MINIO_ROOT_USER", "minioadmin-" + rs(LO, 4)), ("MINIO_ROOT_PASSWORD", strong_pw(24))], auth=None)
prov("vercel", "Vercel", "cloud", "api.vercel.com", lambda: [("VERCEL_TOKEN", b62(24))])
prov("vercel_blob", "Vercel Blob", "cloud", None, lambda: [("BLOB_READ_WRITE_TOKEN", "vercel_blob_rw_" + b62(16) + "_" + b62(30))], auth=None)
prov("netlify", "Netlify", "cloud", "api.netlify.com", lambda: [("NETLIFY_AUTH_TOKEN", "nfp_" + b62(36))])
prov("heroku", "Heroku", "cloud", "api.heroku.com", lambda: [("HEROKU_API_KEY", "HRKU-AA" + rs(B64U, 58))])
prov("render", "Render", "cloud", "api.render.com", lambda: [("RENDER_API_KEY", "rnd_" + b62(32))])
prov("flyio", "Fly.io", "cloud", "api.machines.dev", lambda: [("FLY_API_TOKEN", "FlyV1 fm2_" + rs(B64, 180))])
prov("railway", "Railway", "cloud", "backboard.railway.app", lambda: [("RAILWAY_TOKEN", uuid4())])
prov("terraform_cloud", "Terraform Cloud", "iac", "app.terraform.io", lambda: [("TFE_TOKEN", b62(14) + ".atlasv1." + b62(67))])
prov("vault", "HashiCorp Vault", "iac", "vault.internal", lambda: [("VAULT_TOKEN", "hvs." + rs(B64U, 90))], auth="hdr:X-Vault-Token")
prov("doppler", "Doppler", "iac", "api.doppler.com", lambda: [("DOPPLER_TOKEN", "dp.st.prd." + b62(40))])
prov("onepassword_sa", "1Password service account", "iac", None,
     lambda: [("OP_SERVICE_ACCOUNT_TOKEN", "ops_eyJzaWduSW5BZGRyZXNzIjoi" + rs(B64U, 260))], auth=None)
prov("pulumi", "Pulumi", "iac", "api.pulumi.com", lambda: [("PULUMI_ACCESS_TOKEN", "pul-" + hexs(40))], auth="token")
prov("tailscale", "Tailscale", "network", "api.tailscale.com", lambda: [("TS_AUTHKEY", "tskey-auth-k" + b62(16) + "-" + b62(32))])
prov("ngrok", "ngrok", "network", None, lambda: [("NGROK_AUTHTOKEN", digits(1) + b62(26) + "_" + b62(21))], auth=None)
prov("openai", "OpenAI", "ai", "api.openai.com", lambda: [("OPENAI_API_KEY", "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))])
prov("openai_legacy", "OpenAI (legacy key)", "ai", "api.openai.com", lambda: [("OPENAI_API_KEY", "sk-" + b62(20) + "T3BlbkFJ" + b62(20))])
prov("anthropic", "Anthropic", "ai", "api.anthropic.com", lambda: [("ANTHROPIC_API_KEY", "sk-ant-api03-" + rs(B64U, 93) + "AA")], auth="hdr:x-api-key")
prov("gemini", "Google Gemini", "ai", "generativelanguage.googleapis.com", lambda: [("GEMINI_API_KEY", "AIza" + rs(B64U, 35))], auth="hdr:x-goog-api-key")
prov("huggingface", "Hugging Face", "ai", "huggingface.co", lambda: [("HF_TOKEN", "hf_" + rs(UP + LO, 34))])
prov("cohere", "Cohere", "ai", "api.cohere.com", lambda: [("CO_API_KEY", b62(40))])
prov("mistral", "Mistral AI", "ai", "api.mistral.ai", lambda: [("MISTRAL_API_KEY", b62(32))])
prov("groq", "Groq", "ai", "api.groq.com", lambda: [("GROQ_API_KEY", "gsk_" + b62(52))])
prov("replicate", "Replicate", "ai", "api.replicate.com", lambda: [("REPLICATE_API_TOKEN", "r8_" + b62(37))])
prov("perplexity", "Perplexity", "ai", "api.perplexity.ai", lambda: [("PPLX_API_KEY", "pplx-" + b62(48))])
prov("together", "Together AI", "ai", "api.together.xyz", lambda: [("TOGETHER_API_KEY", hexs(64))])
prov("deepseek", "DeepSeek", "ai", "api.deepseek.com", lambda: [("DEEPSEEK_API_KEY", "sk-" + hexs(32))])
prov("xai", "xAI", "ai", "api.x.ai", lambda: [("XAI_API_KEY", "xai-" + b62(80))])
prov("openrouter", "OpenRouter", "ai", "openrouter.ai", lambda: [("OPENROUTER_API_KEY", "sk-or-v1-" + hexs(64))])
prov("fireworks", "Fireworks AI", "ai", "api.fireworks.ai", lambda: [("FIREWORKS_API_KEY", "fw_" + b62(24))])
prov("elevenlabs", "ElevenLabs", "ai", "api.elevenlabs.io", lambda: [("ELEVENLABS_API_KEY", "sk_" + hexs(48))], auth="hdr:xi-api-key")
prov("pinecone", "Pinecone", "ai", "api.pinecone.io", lambda: [("PINECONE_API_KEY", "pcsk_" + b62(5) + "_" + b62(63))], auth="hdr:Api-Key")
prov("voyage", "Voyage AI", "ai", "api.voyageai.com", lambda: [("VOYAGE_API_KEY", "pa-" + rs(B64U, 43))])
prov("langsmith", "LangSmith", "ai", "api.smith.langchain.com", lambda: [("LANGSMITH_API_KEY", "lsv2_pt_" + hexs(32) + "_" + hexs(10))], auth="hdr:x-api-key")
prov("azure_openai", "Azure OpenAI", "ai", "contoso.openai.azure.com", lambda: [("AZURE_OPENAI_API_KEY", hexs(32))], auth="hdr:api-key")
prov("stability", "Stability AI", "ai", "api.stability.ai", lambda: [("STABILITY_API_KEY", "sk-" + b62(48))])
prov("assemblyai", "AssemblyAI", "ai", "api.assemblyai.com", lambda: [("ASSEMBLYAI_API_KEY", hexs(32))], auth="hdr:authorization")
prov("deepgram", "Deepgram", "ai", "api.deepgram.com", lambda: [("DEEPGRAM_API_KEY", hexs(40))], auth="token")
prov("stripe", "Stripe", "payments", "api.stripe.com", lambda: [("STRIPE_SECRET_KEY", "sk_live_51" + b62(97))], auth="basic_user")
prov("stripe_restricted", "Stripe restricted key", "payments", "api.stripe.com", lambda: [("STRIPE_RESTRICTED_KEY", "rk_live_51" + b62(97))], auth="basic_user")
prov("stripe_webhook", "Stripe webhook signing secret", "payments", None, lambda: [("STRIPE_WEBHOOK_SECRET", "whsec_" + b62(32))], auth=None)
prov("braintree", "Braintree / PayPal", "payments", None,
     lambda: [("BRAINTREE_ACCESS_TOKEN", "access_token$production$" + rs(ALNUM_LO, 16) + "$" + hexs(32))], auth=None)
prov("paypal", "PayPal REST", "payments", "api-m.paypal.com",
     lambda: [("PAYPAL_CLIENT_ID", "A" + rs(B64U, 79)), ("PAYPAL_CLIENT_SECRET", "E" + rs(B64U, 79))], auth="basic")
prov("square", "Square", "payments", "connect.squareup.com", lambda: [("SQUARE_ACCESS_TOKEN", "EAAA" + rs(B64U, 60))])
prov("adyen", "Adyen", "payments", "checkout-live.adyen.com", lambda: [("ADYEN_API_KEY", "AQE" + rs(B64, 180) + "==")], auth="hdr:X-API-Key")
prov("razorpay", "Razorpay", "payments", "api.razorpay.com",
     lambda: [("RAZORPAY_KEY_ID", "rzp_live_" + b62(14)), ("RAZORPAY_KEY_SECRET", b62(24))], auth="basic")
prov("paystack", "Paystack", "payments", "api.paystack.co", lambda: [("PAYSTACK_SECRET_KEY", "sk_live_" + hexs(40))])
prov("flutterwave", "Flutterwave", "payments", "api.flutterwave.com", lambda: [("FLW_SECRET_KEY", "FLWSECK-" + hexs(32) + "-X")])
prov("mollie", "Mollie", "payments", "api.mollie.com", lambda: [("MOLLIE_API_KEY", "live_" + b62(30))])
prov("plaid", "Plaid", "payments", None, lambda: [("PLAID_CLIENT_ID", hexs(24)), ("PLAID_SECRET", hexs(30))], auth=None)
prov("mercadopago", "Mercado Pago", "payments", "api.mercadopago.com",
     lambda: [("MP_ACCESS_TOKEN", "APP_USR-%s-%s-%s-%s" % (digits(16), digits(6), hexs(32), digits(9)))])
prov("coinbase", "Coinbase Advanced", "crypto", None,
     lambda: [("COINBASE_API_KEY_NAME", "organizations/%s/apiKeys/%s" % (uuid4(), uuid4())),
              ("COINBASE_API_PRIVATE_KEY", pem("EC PRIVATE KEY"))], auth=None, ctx=["pem_file", "prose_pem", "json_escaped"])
prov("binance", "Binance", "crypto", None, lambda: [("BINANCE_API_KEY", b62(64)), ("BINANCE_API_SECRET", b62(64))], auth=None)
prov("kraken", "Kraken", "crypto", None, lambda: [("KRAKEN_API_KEY", rs(B64, 56)), ("KRAKEN_PRIVATE_KEY", rs(B64, 86) + "==")], auth=None)
prov("infura", "Infura", "crypto", "mainnet.infura.io", lambda: [("INFURA_PROJECT_ID", hexs(32)), ("INFURA_PROJECT_SECRET", hexs(32))], auth="basic")
prov("alchemy", "Alchemy", "crypto", None, lambda: [("ALCHEMY_URL", "https://eth-mainnet.g.alchemy.com/v2/" + rs(B64U, 32))], auth="url")
prov("etherscan", "Etherscan", "crypto", "api.etherscan.io", lambda: [("ETHERSCAN_API_KEY", rs(ALNUM_UP, 34))], auth="query:apikey")
prov("eth_wallet", "Ethereum deployer wallet", "crypto", None, lambda: [("DEPLOYER_PRIVATE_KEY", "0x" + hexs(64))], auth=None)
prov("shopify", "Shopify Admin API", "commerce", "shop.myshopify.com", lambda: [("SHOPIFY_ACCESS_TOKEN", "shpat_" + hexs(32))], auth="hdr:X-Shopify-Access-Token")
prov("shopify_secret", "Shopify app secret", "commerce", None,
     lambda: [("SHOPIFY_API_KEY", hexs(32)), ("SHOPIFY_API_SECRET", "shpss_" + hexs(32))], auth=None)
prov("woocommerce", "WooCommerce", "commerce", "shop.example.com",
     lambda: [("WC_CONSUMER_KEY", "ck_" + hexs(40)), ("WC_CONSUMER_SECRET", "cs_" + hexs(40))], auth="basic")
prov("github_pat", "GitHub", "scm", "api.github.com", lambda: [("GITHUB_TOKEN", "ghp_" + b62(36))], auth="token")
prov("github_fine", "GitHub fine-grained PAT", "scm", "api.github.com", lambda: [("GH_TOKEN", "github_pat_11" + rs(ALNUM_UP, 20) + "_" + b62(59))])
prov("github_oauth", "GitHub OAuth app token", "scm", "api.github.com", lambda: [("GITHUB_OAUTH_TOKEN", "gho_" + b62(36))], auth="token")
prov("github_app", "GitHub App", "scm", None,
     lambda: [("GITHUB_APP_ID", digits(6)), ("GITHUB_APP_PRIVATE_KEY", pem("RSA PRIVATE KEY"))], auth=None,
     ctx=["pem_file", "prose_pem", "json_escaped"])
prov("gitlab", "GitLab", "scm", "gitlab.com", lambda: [("GITLAB_TOKEN", "glpat-" + rs(B64U, 20))], auth="hdr:PRIVATE-TOKEN")
prov("gitlab_runner", "GitLab runner", "ci", None, lambda: [("RUNNER_TOKEN", "glrt-" + rs(B64U, 20))], auth=None)
prov("gitlab_trigger", "GitLab pipeline trigger", "ci", "gitlab.com", lambda: [("TRIGGER_TOKEN", "glptt-" + hexs(40))], auth="form:token")
prov("bitbucket", "Bitbucket", "scm", "api.bitbucket.org",
     lambda: [("BITBUCKET_USERNAME", pick(FIRST_NAMES).lower() + digits(2)), ("BITBUCKET_APP_PASSWORD", "ATBB" + b62(32) + hexs(8).upper())], auth="basic")
prov("atlassian", "Atlassian (Jira/Confluence)", "productivity", "yourteam.atlassian.net",
     lambda: [("JIRA_EMAIL", email_addr()), ("JIRA_API_TOKEN", "ATATT3xFfGF0" + rs(B64U, 170) + "=" + hexs(8).upper())], auth="basic")
prov("gitea", "Gitea", "scm", "git.internal", lambda: [("GITEA_TOKEN", hexs(40))], auth="token")
prov("npm", "npm", "registry", "registry.npmjs.org", lambda: [("NPM_TOKEN", "npm_" + b62(36))])
prov("pypi", "PyPI", "registry", "upload.pypi.org", lambda: [("TWINE_PASSWORD", "pypi-AgEIcHlwaS5vcmc" + rs(B64U, 150))], auth=None)
prov("dockerhub", "Docker Hub", "registry", None, lambda: [("DOCKERHUB_USERNAME", pick(COMPANY) + "bot"), ("DOCKERHUB_TOKEN", "dckr_pat_" + rs(B64U, 27))], auth=None)
prov("rubygems", "RubyGems", "registry", "rubygems.org", lambda: [("GEM_HOST_API_KEY", "rubygems_" + hexs(48))], auth="hdr:Authorization-raw")
prov("nuget", "NuGet", "registry", None, lambda: [("NUGET_API_KEY", "oy2" + rs(ALNUM_LO, 43))], auth=None)
prov("cratesio", "crates.io", "registry", None, lambda: [("CARGO_REGISTRY_TOKEN", "cio" + b62(32))], auth=None)
prov("jfrog", "JFrog Artifactory", "registry", "acme.jfrog.io", lambda: [("ARTIFACTORY_API_KEY", "AKCp" + b62(69))], auth="hdr:X-JFrog-Art-Api")
prov("quay", "Quay.io robot", "registry", None, lambda: [("QUAY_ROBOT", pick(COMPANY) + "+ci"), ("QUAY_ROBOT_TOKEN", rs(ALNUM_UP, 64))], auth=None)
prov("harbor", "Harbor robot account", "registry", None, lambda: [("HARBOR_USER", "robot$" + pick(["ci", "deployer"])), ("HARBOR_SECRET", b62(32))], auth=None)
prov("sonatype", "Maven Central (Sonatype)", "registry", None,
     lambda: [("OSSRH_USERNAME", rs(B62, 8)), ("OSSRH_PASSWORD", rs(B64U, 44))], auth=None)
prov("circleci", "CircleCI", "ci", "circleci.com", lambda: [("CIRCLE_TOKEN", "CCIPAT_" + b62(22) + "_" + hexs(40))], auth="hdr:Circle-Token")
prov("travis", "Travis CI", "ci", "api.travis-ci.com", lambda: [("TRAVIS_TOKEN", rs(B64U, 22))], auth="token")
prov("buildkite", "Buildkite", "ci", "api.buildkite.com", lambda: [("BUILDKITE_API_TOKEN", "bkua_" + hexs(40))])
prov("jenkins", "Jenkins", "ci", "jenkins.internal", lambda: [("JENKINS_USER", "deploy"), ("JENKINS_API_TOKEN", "11" + hexs(32))], auth="basic")
prov("sonarcloud", "SonarCloud", "ci", "sonarcloud.io", lambda: [("SONAR_TOKEN", "sqp_" + hexs(40))], auth="basic_user")
prov("snyk", "Snyk", "ci", "api.snyk.io", lambda: [("SNYK_TOKEN", uuid4())], auth="token")
prov("codecov", "Codecov", "ci", None, lambda: [("CODECOV_TOKEN", uuid4())], auth=None)
prov("expo", "Expo", "ci", None, lambda: [("EXPO_TOKEN", rs(B64U, 40))], auth=None)
prov("slack_bot", "Slack bot", "messaging", "slack.com", lambda: [("SLACK_BOT_TOKEN", "xoxb-%s-%s-%s" % (digits(12), digits(13), b62(24)))])
prov("slack_user", "Slack user token", "messaging", "slack.com", lambda: [("SLACK_USER_TOKEN", "xoxp-%s-%s-%s-%s" % (digits(12), digits(12), digits(13), hexs(32)))])
prov("slack_app", "Slack app-level token", "messaging", None, lambda: [("SLACK_APP_TOKEN", "xapp-1-A%s-%s-%s" % (rs(ALNUM_UP, 10), digits(13), hexs(64)))], auth=None)
prov("slack_webhook", "Slack incoming webhook", "messaging", None, lambda: [("SLACK_WEBHOOK_URL", _slack_hook())], auth="url")
prov("discord_bot", "Discord bot", "messaging", "discord.com", lambda: [("DISCORD_BOT_TOKEN", _discord_bot())], auth="hdr:Authorization-bot")
prov("discord_webhook", "Discord webhook", "messaging", None, lambda: [("DISCORD_WEBHOOK", _discord_hook())], auth="url")
prov("teams_webhook", "Microsoft Teams webhook", "messaging", None, lambda: [("TEAMS_WEBHOOK_URL", _teams_hook())], auth="url")
prov("gchat_webhook", "Google Chat webhook", "messaging", None, lambda: [("GCHAT_WEBHOOK", _gchat_hook())], auth="url")
prov("mattermost", "Mattermost incoming webhook", "messaging", None, lambda: [("MM_WEBHOOK", _mattermost())], auth="url")
prov("telegram", "Telegram bot", "messaging", None, lambda: [("TELEGRAM_BOT_TOKEN", _telegram())], auth="tgpath")
prov("twilio", "Twilio", "sms", "api.twilio.com", lambda: [("TWILIO_ACCOUNT_SID", "AC" + hexs(32)), ("TWILIO_AUTH_TOKEN", hexs(32))], auth="basic")
prov("twilio_apikey", "Twilio API key", "sms", "api.twilio.com", lambda: [("TWILIO_API_KEY", "SK" + hexs(32)), ("TWILIO_API_SECRET", b62(32))], auth="basic")
prov("vonage", "Vonage (Nexmo)", "sms", "rest.nexmo.com", lambda: [("VONAGE_API_KEY", hexs(8)), ("VONAGE_API_SECRET", b62(16))], auth="basic")
prov("messagebird", "MessageBird", "sms", "rest.messagebird.com", lambda: [("MESSAGEBIRD_ACCESS_KEY", b62(25))], auth="hdr:Authorization-AccessKey")
prov("plivo", "Plivo", "sms", "api.plivo.com", lambda: [("PLIVO_AUTH_ID", "MA" + rs(ALNUM_UP, 18)), ("PLIVO_AUTH_TOKEN", b62(40))], auth="basic")
prov("africastalking", "Africa's Talking", "sms", "api.africastalking.com", lambda: [("AT_USERNAME", "sandbox-" + rs(LO, 4)), ("AT_API_KEY", "atsk_" + hexs(64))], auth="hdr:apiKey")
prov("sendgrid", "SendGrid", "email", "api.sendgrid.com", lambda: [("SENDGRID_API_KEY", "SG." + rs(B64U, 22) + "." + rs(B64U, 43))])
prov("mailgun", "Mailgun", "email", "api.mailgun.net", lambda: [("MAILGUN_API_KEY", hexs(32) + "-" + hexs(8) + "-" + hexs(8))], auth="basic_api")
prov("mailchimp", "Mailchimp", "email", "us14.api.mailchimp.com", lambda: [("MAILCHIMP_API_KEY", hexs(32) + "-us" + str(R.randint(1, 21)))], auth="basic_any")
prov("postmark", "Postmark", "email", "api.postmarkapp.com", lambda: [("POSTMARK_SERVER_TOKEN", uuid4())], auth="hdr:X-Postmark-Server-Token")
prov("brevo", "Brevo (Sendinblue)", "email", "api.brevo.com", lambda: [("BREVO_API_KEY", "xkeysib-" + hexs(64) + "-" + b62(16))], auth="hdr:api-key")
prov("resend", "Resend", "email", "api.resend.com", lambda: [("RESEND_API_KEY", "re_" + b62(8) + "_" + b62(24))])
prov("mailjet", "Mailjet", "email", "api.mailjet.com", lambda: [("MJ_APIKEY_PUBLIC", hexs(32)), ("MJ_APIKEY_PRIVATE", hexs(32))], auth="basic")
prov("ses_smtp", "Amazon SES SMTP", "email", None,
     lambda: [("SMTP_HOST", "email-smtp.eu-west-1.amazonaws.com"), ("SMTP_USER", "AKIA" + rs(ALNUM_UP, 16)), ("SMTP_PASS", "BG" + rs(B62 + "/+", 42))], auth=None)
prov("smtp_generic", "SMTP relay", "email", None,
     lambda: [("SMTP_HOST", "smtp." + pick(COMPANY) + ".com"), ("SMTP_USER", "noreply@" + pick(COMPANY) + ".com"), ("SMTP_PASSWORD", human_pw())], auth=None)
prov("pusher", "Pusher", "messaging", None, lambda: [("PUSHER_APP_ID", digits(7)), ("PUSHER_KEY", hexs(20)), ("PUSHER_SECRET", hexs(20))], auth=None)
prov("ably", "Ably", "messaging", "rest.ably.io", lambda: [("ABLY_API_KEY", "%s.%s:%s" % (rs(B64U, 6), rs(B64U, 6), rs(B64U, 43)))], auth="basic_whole")
prov("datadog", "Datadog", "observability", "api.datadoghq.com", lambda: [("DD_API_KEY", hexs(32)), ("DD_APP_KEY", hexs(40))], auth="hdr:DD-API-KEY")
prov("newrelic", "New Relic", "observability", "api.newrelic.com", lambda: [("NEW_RELIC_API_KEY", "NRAK-" + rs(ALNUM_UP, 27))], auth="hdr:Api-Key")
prov("newrelic_license", "New Relic license key", "observability", None, lambda: [("NEW_RELIC_LICENSE_KEY", hexs(36) + "NRAL")], auth=None)
prov("sentry_auth", "Sentry auth token", "observability", "sentry.io", lambda: [("SENTRY_AUTH_TOKEN", "sntryu_" + hexs(64))])
prov("grafana_cloud", "Grafana Cloud", "observability", "grafana.net", lambda: [("GRAFANA_CLOUD_TOKEN", "glc_" + rs(B64, 120) + "=")])
prov("grafana_sa", "Grafana service account", "observability", "grafana.internal", lambda: [("GRAFANA_TOKEN", "glsa_" + b62(32) + "_" + hexs(8))])
prov("honeycomb", "Honeycomb", "observability", "api.honeycomb.io", lambda: [("HONEYCOMB_API_KEY", "hcaik_" + rs(ALNUM_LO, 58))], auth="hdr:X-Honeycomb-Team")
prov("pagerduty", "PagerDuty", "observability", "api.pagerduty.com", lambda: [("PAGERDUTY_TOKEN", "u+" + rs(B64U, 18))], auth="hdr:Authorization-tokeneq")
prov("opsgenie", "Opsgenie", "observability", "api.opsgenie.com", lambda: [("OPSGENIE_API_KEY", uuid4())], auth="hdr:Authorization-GenieKey")
prov("splunk_hec", "Splunk HEC", "observability", "splunk.internal:8088", lambda: [("SPLUNK_HEC_TOKEN", uuid4().upper())], auth="hdr:Authorization-Splunk")
prov("elastic", "Elastic Cloud", "observability", "my-deploy.es.eu-west-1.aws.found.io", lambda: [("ELASTIC_API_KEY", base64.b64encode((b62(20) + ":" + rs(B64U, 22)).encode()).decode())], auth="hdr:Authorization-ApiKey")
prov("dynatrace", "Dynatrace", "observability", "abc12345.live.dynatrace.com", lambda: [("DT_API_TOKEN", "dt0c01." + rs(ALNUM_UP, 24) + "." + rs(ALNUM_UP, 64))], auth="hdr:Authorization-ApiToken")
prov("rollbar", "Rollbar", "observability", "api.rollbar.com", lambda: [("ROLLBAR_ACCESS_TOKEN", hexs(32))], auth="hdr:X-Rollbar-Access-Token")
prov("sumologic", "Sumo Logic", "observability", "api.sumologic.com", lambda: [("SUMO_ACCESS_ID", "su" + b62(12)), ("SUMO_ACCESS_KEY", b62(64))], auth="basic")
prov("logtail", "Better Stack", "observability", "in.logs.betterstack.com", lambda: [("LOGTAIL_SOURCE_TOKEN", b62(24))])
prov("launchdarkly", "LaunchDarkly server SDK", "observability", None, lambda: [("LD_SDK_KEY", "sdk-" + uuid4())], auth=None)
prov("algolia_admin", "Algolia admin", "search", "APPID-dsn.algolia.net", lambda: [("ALGOLIA_APP_ID", rs(ALNUM_UP, 10)), ("ALGOLIA_ADMIN_KEY", hexs(32))], auth="hdr:X-Algolia-API-Key")
prov("mapbox_secret", "Mapbox secret token", "maps", "api.mapbox.com",
     lambda: [("MAPBOX_SECRET_TOKEN", "sk.eyJ1Ijoi" + rs(B64U, 40) + "In0." + rs(B64U, 22))], auth="query:access_token")
prov("firebase_fcm", "Firebase Cloud Messaging server key", "mobile", "fcm.googleapis.com", lambda: [("FCM_SERVER_KEY", _fcm_legacy())], auth="hdr:Authorization-key")
prov("supabase_service", "Supabase service role", "database", "xyzcompany.supabase.co",
     lambda: [("SUPABASE_SERVICE_ROLE_KEY", jwt({"iss": "supabase", "ref": rs(LO, 20), "role": "service_role", "iat": R.randint(1690000000, 1720000000), "exp": 2040000000}))], auth="hdr:apikey")
prov("supabase_pat", "Supabase access token", "database", "api.supabase.com", lambda: [("SUPABASE_ACCESS_TOKEN", "sbp_" + hexs(40))])
prov("postgres", "PostgreSQL", "database", None, lambda: [("DATABASE_URL", _pg_url())], auth=None)
prov("mysql", "MySQL", "database", None, lambda: [("DATABASE_URL", _mysql_url())], auth=None)
prov("mongodb", "MongoDB Atlas", "database", None, lambda: [("MONGODB_URI", _mongo_url())], auth=None)
prov("redis", "Redis", "database", None, lambda: [("REDIS_URL", _redis_url())], auth=None)
prov("rabbitmq", "RabbitMQ (CloudAMQP)", "database", None, lambda: [("CLOUDAMQP_URL", _amqp())], auth=None)
prov("cockroach", "CockroachDB", "database", None, lambda: [("COCKROACH_URL", _crdb())], auth=None)
prov("neon", "Neon Postgres", "database", None, lambda: [("DATABASE_URL", _neon())], auth=None)
prov("mssql", "Azure SQL", "database", None, lambda: [("ConnectionStrings__Default", _mssql())], auth=None)
prov("planetscale", "PlanetScale", "database", None,
     lambda: [("DATABASE_HOST", "aws.connect.psdb.cloud"), ("DATABASE_USERNAME", rs(ALNUM_LO, 12)), ("DATABASE_PASSWORD", "pscale_pw_" + rs(B64U, 43))], auth=None)
prov("snowflake", "Snowflake", "database", None,
     lambda: [("SNOWFLAKE_ACCOUNT", rs(UP, 7) + "-" + rs(UP, 7)), ("SNOWFLAKE_USER", "ETL_SVC"), ("SNOWFLAKE_PASSWORD", strong_pw())], auth=None)
prov("databricks", "Databricks", "database", "adb-1234567890123456.7.azuredatabricks.net", lambda: [("DATABRICKS_TOKEN", "dapi" + hexs(32))])
prov("confluent", "Confluent Cloud Kafka", "database", None,
     lambda: [("KAFKA_API_KEY", rs(ALNUM_UP, 16)), ("KAFKA_API_SECRET", rs(B62 + "+/", 64))], auth=None)
prov("upstash_rest", "Upstash Redis REST", "database", "eu1-x.upstash.io", lambda: [("UPSTASH_REDIS_REST_TOKEN", "AX" + rs(B64, 62) + "=")])
prov("turso", "Turso", "database", None,
     lambda: [("TURSO_AUTH_TOKEN", jwt({"a": "rw", "iat": R.randint(1700000000, 1720000000), "id": uuid4()}, alg="EdDSA", sig_len=86))], auth=None)
prov("clickhouse", "ClickHouse Cloud", "database", None,
     lambda: [("CLICKHOUSE_HOST", rs(ALNUM_LO, 10) + ".eu-central-1.aws.clickhouse.cloud"), ("CLICKHOUSE_USER", "default"), ("CLICKHOUSE_PASSWORD", rs(B62 + "~_.", 16))], auth=None)
prov("airtable", "Airtable", "productivity", "api.airtable.com", lambda: [("AIRTABLE_TOKEN", "pat" + b62(14) + "." + hexs(64))])
prov("notion", "Notion", "productivity", "api.notion.com", lambda: [("NOTION_TOKEN", "ntn_" + b62(46))])
prov("notion_old", "Notion (legacy integration)", "productivity", "api.notion.com", lambda: [("NOTION_API_KEY", "secret_" + b62(43))])
prov("asana", "Asana", "productivity", "app.asana.com", lambda: [("ASANA_PAT", "2/%s/%s:%s" % (digits(16), digits(16), hexs(32)))])
prov("linear", "Linear", "productivity", "api.linear.app", lambda: [("LINEAR_API_KEY", "lin_api_" + b62(40))], auth="hdr:Authorization-raw")
prov("clickup", "ClickUp", "productivity", "api.clickup.com", lambda: [("CLICKUP_TOKEN", "pk_%s_%s" % (digits(8), rs(ALNUM_UP, 32)))], auth="hdr:Authorization-raw")
prov("trello", "Trello", "productivity", "api.trello.com", lambda: [("TRELLO_KEY", hexs(32)), ("TRELLO_TOKEN", "ATTA" + hexs(64) + hexs(8).upper())], auth="query2:key,token")
prov("monday", "monday.com", "productivity", "api.monday.com",
     lambda: [("MONDAY_API_TOKEN", jwt({"tid": R.randint(10 ** 8, 10 ** 9), "aai": 11, "uid": R.randint(10 ** 7, 10 ** 8), "iad": rdate() + "T10:00:00.000Z", "per": "me:write", "actid": R.randint(10 ** 6, 10 ** 7), "rgn": "euc1"}))], auth="hdr:Authorization-raw")
prov("figma", "Figma", "productivity", "api.figma.com", lambda: [("FIGMA_TOKEN", "figd_" + rs(B64U, 40))], auth="hdr:X-Figma-Token")
prov("contentful", "Contentful", "cms", "api.contentful.com", lambda: [("CONTENTFUL_MANAGEMENT_TOKEN", "CFPAT-" + rs(B64U, 43))])
prov("sanity", "Sanity", "cms", "api.sanity.io", lambda: [("SANITY_API_TOKEN", "sk" + b62(180))])
prov("storyblok", "Storyblok", "cms", None, lambda: [("STORYBLOK_MANAGEMENT_TOKEN", b62(24) + "-" + digits(6) + "-" + rs(B64U, 20))], auth=None)
prov("cloudinary", "Cloudinary", "media", None, lambda: [("CLOUDINARY_URL", _cloudinary())], auth=None)
prov("hubspot", "HubSpot", "crm", "api.hubapi.com", lambda: [("HUBSPOT_ACCESS_TOKEN", "pat-eu1-" + uuid4())])
prov("salesforce", "Salesforce", "crm", "login.salesforce.com",
     lambda: [("SF_CONSUMER_KEY", "3MVG9" + rs(B62 + "._", 80)), ("SF_CONSUMER_SECRET", rs(HEXU, 64))], auth=None)
prov("salesforce_session", "Salesforce session", "crm", "acme.my.salesforce.com", lambda: [("SF_ACCESS_TOKEN", _sf_session())])
prov("zendesk", "Zendesk", "crm", "acme.zendesk.com", lambda: [("ZENDESK_EMAIL", email_addr()), ("ZENDESK_API_TOKEN", b62(40))], auth="basic_zd")
prov("intercom", "Intercom", "crm", "api.intercom.io", lambda: [("INTERCOM_ACCESS_TOKEN", "dG9rOj" + rs(B64, 54) + "=")])
prov("freshdesk", "Freshdesk", "crm", "acme.freshdesk.com", lambda: [("FRESHDESK_API_KEY", b62(20))], auth="basic_x")
prov("pipedrive", "Pipedrive", "crm", "api.pipedrive.com", lambda: [("PIPEDRIVE_API_TOKEN", hexs(40))], auth="query:api_token")
prov("mixpanel", "Mixpanel service account", "analytics", "mixpanel.com",
     lambda: [("MIXPANEL_SA_USER", pick(["etl", "export"]) + "." + digits(4) + ".mp-service-account"), ("MIXPANEL_SA_SECRET", b62(32))], auth="basic")
prov("amplitude", "Amplitude", "analytics", "amplitude.com", lambda: [("AMPLITUDE_API_KEY", hexs(32)), ("AMPLITUDE_SECRET_KEY", hexs(32))], auth="basic")
prov("posthog_personal", "PostHog personal API key", "analytics", "eu.posthog.com", lambda: [("POSTHOG_PERSONAL_API_KEY", "phx_" + b62(43))])
prov("segment_token", "Segment Public API token", "analytics", "api.segmentapis.com", lambda: [("SEGMENT_API_TOKEN", "sgp_" + b62(64))])
prov("okta", "Okta", "identity", "acme.okta.com", lambda: [("OKTA_API_TOKEN", "00" + rs(B64U, 40))], auth="hdr:Authorization-SSWS")
prov("auth0", "Auth0", "identity", "acme.eu.auth0.com", lambda: [("AUTH0_CLIENT_ID", b62(32)), ("AUTH0_CLIENT_SECRET", rs(B64U, 64))], auth=None)
prov("clerk", "Clerk", "identity", "api.clerk.com", lambda: [("CLERK_SECRET_KEY", "sk_live_" + b62(50))])
prov("stytch", "Stytch", "identity", "api.stytch.com", lambda: [("STYTCH_PROJECT_ID", "project-live-" + uuid4()), ("STYTCH_SECRET", "secret-live-" + rs(B64U, 36) + "=")], auth="basic")
prov("twitter", "X / Twitter API", "social", "api.twitter.com", lambda: [("TWITTER_BEARER_TOKEN", _twitter_bearer())])
prov("twitter_oauth1", "X / Twitter OAuth 1.0a", "social", None,
     lambda: [("TWITTER_CONSUMER_KEY", b62(25)), ("TWITTER_CONSUMER_SECRET", b62(50)), ("TWITTER_ACCESS_TOKEN", digits(19) + "-" + b62(30)), ("TWITTER_ACCESS_SECRET", b62(45))], auth=None)
prov("meta", "Meta Graph API", "social", "graph.facebook.com", lambda: [("FB_PAGE_ACCESS_TOKEN", "EAA" + b62(190))], auth="query:access_token")
prov("meta_app", "Meta app secret", "social", None, lambda: [("FACEBOOK_APP_ID", digits(15)), ("FACEBOOK_APP_SECRET", hexs(32))], auth=None)
prov("twitch", "Twitch", "social", "id.twitch.tv", lambda: [("TWITCH_CLIENT_ID", rs(ALNUM_LO, 30)), ("TWITCH_CLIENT_SECRET", rs(ALNUM_LO, 30))], auth=None)
prov("spotify_api", "Spotify Web API", "social", "accounts.spotify.com", lambda: [("SPOTIFY_CLIENT_ID", hexs(32)), ("SPOTIFY_CLIENT_SECRET", hexs(32))], auth="basic")
prov("reddit_api", "Reddit API", "social", "www.reddit.com", lambda: [("REDDIT_CLIENT_ID", rs(B64U, 22)), ("REDDIT_CLIENT_SECRET", rs(B64U, 30))], auth="basic")
prov("youtube", "YouTube Data API", "social", "www.googleapis.com", lambda: [("YOUTUBE_API_KEY", "AIza" + rs(B64U, 35))], auth="query:key")
prov("dropbox", "Dropbox", "storage", "api.dropboxapi.com", lambda: [("DROPBOX_ACCESS_TOKEN", "sl.B" + rs(B64U, 135))])
prov("box", "Box", "storage", "api.box.com", lambda: [("BOX_DEVELOPER_TOKEN", b62(32))])
prov("zoom_s2s", "Zoom Server-to-Server OAuth", "productivity", "zoom.us",
     lambda: [("ZOOM_ACCOUNT_ID", rs(B64U, 22)), ("ZOOM_CLIENT_ID", rs(B64U, 22)), ("ZOOM_CLIENT_SECRET", b62(32))], auth="basic")
prov("calendly", "Calendly", "productivity", "api.calendly.com",
     lambda: [("CALENDLY_PAT", jwt({"iss": "https://auth.calendly.com", "iat": R.randint(1700000000, 1720000000), "jti": uuid4(), "user_uuid": uuid4()}, alg="HS512", sig_len=86))])
prov("typeform", "Typeform", "productivity", "api.typeform.com", lambda: [("TYPEFORM_TOKEN", "tfp_" + rs(B64U, 44) + "_" + rs(B64U, 14))])
prov("shippo", "Shippo", "logistics", "api.goshippo.com", lambda: [("SHIPPO_API_TOKEN", "shippo_live_" + hexs(40))], auth="hdr:Authorization-ShippoToken")
prov("easypost", "EasyPost", "logistics", "api.easypost.com", lambda: [("EASYPOST_API_KEY", "EZAK" + hexs(54))], auth="basic_user")
prov("lob", "Lob", "logistics", "api.lob.com", lambda: [("LOB_API_KEY", "live_" + hexs(35))], auth="basic_user")
prov("openweather", "OpenWeatherMap", "data", "api.openweathermap.org", lambda: [("OWM_API_KEY", hexs(32))], auth="query:appid")
prov("particle", "Particle IoT", "iot", "api.particle.io", lambda: [("PARTICLE_ACCESS_TOKEN", hexs(40))])
prov("blynk", "Blynk", "iot", "blynk.cloud", lambda: [("BLYNK_AUTH_TOKEN", rs(B64U, 32))], auth="query:token")
prov("thingspeak", "ThingSpeak", "iot", "api.thingspeak.com", lambda: [("THINGSPEAK_WRITE_KEY", rs(ALNUM_UP, 16))], auth="query:api_key")
prov("adafruit_io", "Adafruit IO", "iot", "io.adafruit.com", lambda: [("ADAFRUIT_IO_USERNAME", pick(FIRST_NAMES).lower()), ("ADAFRUIT_IO_KEY", "aio_" + b62(28))], auth="hdr:X-AIO-Key")
prov("home_assistant", "Home Assistant", "iot", "homeassistant.local:8123",
     lambda: [("HASS_TOKEN", jwt({"iss": hexs(32), "iat": R.randint(1690000000, 1720000000), "exp": 2030000000}))])
prov("tuya", "Tuya IoT", "iot", None, lambda: [("TUYA_ACCESS_ID", rs(ALNUM_LO, 20)), ("TUYA_ACCESS_SECRET", hexs(32))], auth=None)
prov("aws_iot_cert", "AWS IoT device certificate key", "iot", None,
     lambda: [("DEVICE_PRIVATE_KEY", pem("RSA PRIVATE KEY"))], auth=None, ctx=["pem_file", "prose_pem", "json_escaped"])
prov("ssh_key", "SSH deploy key", "infra", None, lambda: [("DEPLOY_KEY", pem("OPENSSH PRIVATE KEY"))], auth=None, ctx=["pem_file", "prose_pem", "json_escaped", "gha_secret_paste"])
prov("tls_key", "TLS private key", "infra", None, lambda: [("TLS_KEY", pem("EC PRIVATE KEY"))], auth=None, ctx=["pem_file", "k8s_tls", "prose_pem"])
prov("age_key", "age identity", "infra", None,
     lambda: [("SOPS_AGE_KEY", "AGE-SECRET-KEY-1" + rs(BECH32.upper(), 58))], auth=None)
prov("wireguard", "WireGuard peer config", "network", None, lambda: [("WG_PRIVATE_KEY", b64blob(32))], auth=None, ctx=["wg_conf"])
prov("django", "Django SECRET_KEY", "framework", None, lambda: [("DJANGO_SECRET_KEY", rs(LO + DIG + "!@#$%^&*(-_=+)", 50))], auth=None)
prov("rails", "Rails master key", "framework", None, lambda: [("RAILS_MASTER_KEY", hexs(32))], auth=None)
prov("laravel", "Laravel APP_KEY", "framework", None, lambda: [("APP_KEY", "base64:" + b64blob(32))], auth=None)
prov("nextauth", "NextAuth secret", "framework", None, lambda: [("NEXTAUTH_SECRET", b64blob(32))], auth=None)
prov("jwt_secret", "JWT signing secret", "framework", None, lambda: [("JWT_SECRET", rs(B64U, 48))], auth=None)
prov("k8s_sa_token", "Kubernetes service account token", "infra", "k8s.internal:6443",
     lambda: [("KUBE_TOKEN", jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "kubernetes.io/serviceaccount/service-account.name": "deployer", "sub": "system:serviceaccount:ci:deployer"}, alg="RS256", sig_len=342))])
prov("argocd", "Argo CD", "ci", "argocd.internal", lambda: [("ARGOCD_AUTH_TOKEN", jwt({"iss": "argocd", "sub": "ci:apiKey", "jti": uuid4()}))])
prov("portainer", "Portainer", "infra", "portainer.local:9443", lambda: [("PORTAINER_API_KEY", "ptr_" + rs(B64, 43) + "=")], auth="hdr:X-API-Key")
prov("proxmox", "Proxmox API token", "infra", "pve.local:8006",
     lambda: [("PVE_TOKEN", "root@pam!terraform=" + uuid4())], auth="hdr:Authorization-PVE")
prov("unifi", "UniFi controller", "network", None, lambda: [("UNIFI_USER", "admin"), ("UNIFI_PASSWORD", human_pw())], auth=None)


# ---------------------------------------------------------------------------
# VENDOR context renderers
# ---------------------------------------------------------------------------
API_PATHS = ["/v1/me", "/v2/account", "/api/v1/status", "/v1/projects", "/v3/users/self", "/v1/models",
             "/api/2/search", "/v1/messages", "/v1/events", "/api/v4/projects", "/v1/items?limit=5"]
NOISE_ENV = ["NODE_ENV=production", "LOG_LEVEL=info", "PORT=8080", "APP_NAME=" + "orders-api", "TZ=UTC",
             "FEATURE_NEW_CHECKOUT=true", "REGION=eu-west-1", "DEBUG=false", "WORKERS=4", "SENTRY_ENVIRONMENT=staging"]


def camel(env):
    parts = env.lower().split("_")
    return parts[0] + "".join(x.capitalize() for x in parts[1:])


def snake(env):
    return env.lower()


def needs_quote(v):
    return not re.fullmatch(r"[A-Za-z0-9_./:+\-=@~]+", v)


def q(v):
    return json.dumps(v, ensure_ascii=False)


def envline(k, v):
    return "%s=%s" % (k, q(v) if needs_quote(v) else v)


def _main(fields):
    return fields[-1][1]


def r_env(p, f):
    lines = []
    if chance(0.6):
        lines.append("# " + p["name"])
    noise = R.sample(NOISE_ENV, R.randint(0, 3))
    lines += noise[:1]
    lines += [envline(k, v) for k, v in f]
    lines += noise[1:]
    return "\n".join(lines)


def r_export(p, f):
    pre = pick(["", "# added to ~/.zshrc\n", "# ~/.bashrc\n", "# run before deploying\n"])
    return pre + "\n".join('export %s="%s"' % (k, v) for k, v in f)


def r_yaml(p, f):
    top = pick(["integrations", "services", "providers", "secrets", "config"])
    name = p["slug"]
    lines = ["%s:" % top, "  %s:" % name]
    if chance(0.5):
        lines.append("    enabled: true")
    lines += ["    %s: %s" % (snake(k), q(v)) for k, v in f]
    if chance(0.4):
        lines.append("    timeout_seconds: %d" % pick([5, 10, 30]))
    return "\n".join(lines)


def r_json_native(p, f):
    inner = {camel(k): v for k, v in f}
    if chance(0.5):
        return {p["slug"]: inner, "environment": pick(["production", "staging", "prod-eu"])}
    d = {"service": p["name"]}
    d.update(inner)
    return d


def r_json_text(p, f):
    obj = {p["slug"]: {camel(k): v for k, v in f}}
    fn = pick(["appsettings.Production.json", "config/prod.json", "secrets.json", ".vscode/settings.json", "local.settings.json"])
    return "%s:\n%s" % (fn, json.dumps(obj, indent=2, ensure_ascii=False))


def r_toml(p, f):
    return "[%s]\n%s" % (p["slug"], "\n".join("%s = %s" % (snake(k), q(v)) for k, v in f))


def r_ini(p, f):
    return "; %s\n[%s]\n%s" % (pick(["settings.ini", "config.cfg", "app.conf", ".pypirc-style creds"]), p["slug"],
                               "\n".join("%s = %s" % (snake(k), v) for k, v in f))


def r_xml(p, f):
    lines = ["<appSettings>"]
    lines += ['  <add key="%s" value="%s" />' % (camel(k)[0].upper() + camel(k)[1:], v.replace("&", "&amp;").replace('"', "&quot;")) for k, v in f]
    lines.append("</appSettings>")
    return "\n".join(lines)


def r_compose(p, f):
    svc = pick(["api", "worker", "web", "scheduler", "bot"])
    lines = ["services:", "  %s:" % svc, "    image: ghcr.io/%s/%s:%s" % (pick(COMPANY), svc, pick(["latest", "1.4.2", "main"])),
             "    environment:"]
    lines += ["      - %s=%s" % (k, v) for k, v in f]
    return "\n".join(lines)


def r_k8s(p, f):
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", "  name: %s-credentials" % p["slug"].replace("_", "-"),
             "  namespace: %s" % pick(["default", "prod", "payments", "ci"]), "type: Opaque", "stringData:"]
    lines += ["  %s: %s" % (k, q(v)) for k, v in f]
    return "\n".join(lines)


def r_docker_run(p, f):
    return "docker run -d --name %s %s %s/%s:latest" % (
        pick(["app", "worker", "sync"]), " ".join("-e %s=%s" % (k, q(v) if needs_quote(v) else v) for k, v in f),
        pick(COMPANY), pick(["app", "etl", "bot"]))


def r_gha(p, f):
    lines = ["name: deploy", "on: [push]", "jobs:", "  deploy:", "    runs-on: ubuntu-latest", "    env:"]
    lines += ["      %s: %s" % (k, q(v)) for k, v in f]
    lines += ["    steps:", "      - uses: actions/checkout@v4", "      - run: ./scripts/deploy.sh"]
    return "\n".join(lines)


def _curl_cmd(p, f):
    main = _main(f)
    first = f[0][1]
    a = p["auth"]
    url = "https://%s%s" % (p["host"] or "api.example.com", pick(API_PATHS))
    if a == "url":
        return "curl -X POST -H 'Content-Type: application/json' -d '{\"text\":\"%s\"}' '%s'" % (
            pick(["deploy finished", "backup ok", "build failed on main", "hello from cron"]), main)
    if a == "tgpath":
        return "curl -s 'https://api.telegram.org/bot%s/sendMessage?chat_id=%s&text=ping'" % (main, digits(9))
    if a.startswith("query:"):
        sep = "&" if "?" in url else "?"
        return "curl '%s%s%s=%s'" % (url, sep, a.split(":")[1], main)
    if a.startswith("query2:"):
        k1, k2 = a.split(":")[1].split(",")
        return "curl 'https://%s/1/members/me/boards?%s=%s&%s=%s'" % (p["host"], k1, first, k2, main)
    if a.startswith("form:"):
        return "curl -X POST -F token=%s -F ref=main https://%s/api/v4/projects/%s/trigger/pipeline" % (main, p["host"], digits(8))
    hdr = {
        "bearer": "Authorization: Bearer %s", "token": "Authorization: token %s",
        "hdr:Authorization-raw": "Authorization: %s", "hdr:Authorization-bot": "Authorization: Bot %s",
        "hdr:Authorization-AccessKey": "Authorization: AccessKey %s", "hdr:Authorization-tokeneq": "Authorization: Token token=%s",
        "hdr:Authorization-GenieKey": "Authorization: GenieKey %s", "hdr:Authorization-Splunk": "Authorization: Splunk %s",
        "hdr:Authorization-ApiKey": "Authorization: ApiKey %s", "hdr:Authorization-ApiToken": "Authorization: Api-Token %s",
        "hdr:Authorization-key": "Authorization: key=%s", "hdr:Authorization-SSWS": "Authorization: SSWS %s",
        "hdr:Authorization-ShippoToken": "Authorization: ShippoToken %s", "hdr:Authorization-PVE": "Authorization: PVEAPIToken=%s",
    }.get(a)
    if hdr:
        return "curl -sS -H '%s' %s" % (hdr % main, url)
    if a.startswith("hdr:"):
        return "curl -sS -H '%s: %s' %s" % (a[4:], main, url)
    user = {"basic": "%s:%s" % (first, main), "basic_user": "%s:" % main, "basic_blank": ":%s" % main,
            "basic_api": "api:%s" % main, "basic_any": "anystring:%s" % main, "basic_whole": main,
            "basic_zd": "%s/token:%s" % (first, main), "basic_x": "%s:X" % main}[a]
    return "curl -u '%s' %s" % (user, url)


def r_curl(p, f):
    pre = pick(["", "$ ", "# works, tested %s\n" % rdate(), "repro:\n"])
    return pre + _curl_cmd(p, f)


def r_python(p, f):
    lines = []
    if chance(0.5):
        lines.append("import os")
        lines += ['os.environ["%s"] = %s' % (k, q(v)) for k, v in f]
    else:
        lines.append("# %s client" % p["name"])
        lines += ["%s = %s" % (k, q(v)) for k, v in f]
        lines.append("client = %sClient(%s)" % (re.sub(r"[^A-Za-z]", "", p["name"].split()[0]),
                                                ", ".join("%s=%s" % (snake(k).split("_", 1)[-1], k) for k, _ in f)))
    return "\n".join(lines)


def r_js(p, f):
    if chance(0.5):
        return "\n".join("const %s = '%s';" % (camel(k), v) for k, v in f) + "\n// TODO move to env before launch"
    return "const config = {\n%s\n};\nmodule.exports = config;" % ",\n".join("  %s: '%s'" % (camel(k), v) for k, v in f)


def r_go(p, f):
    return "const (\n%s\n)" % "\n".join("\t%s = %s" % (camel(k), q(v)) for k, v in f)


def r_ruby(p, f):
    return "\n".join("ENV['%s'] ||= '%s'" % (k, v) for k, v in f)


def r_java(p, f):
    return "\n".join("private static final String %s = %s;" % (k, q(v)) for k, v in f)


def r_php(p, f):
    return "<?php\n" + "\n".join("define('%s', '%s');" % (k, v) for k, v in f)


def r_csharp(p, f):
    return "\n".join('var %s = %s;' % (camel(k), q(v)) for k, v in f)


def r_rust(p, f):
    return "\n".join('const %s: &str = %s;' % (k, q(v)) for k, v in f)


def r_kotlin(p, f):
    return "\n".join('val %s = %s' % (camel(k), q(v)) for k, v in f)


def r_powershell(p, f):
    return "\n".join('$env:%s = "%s"' % (k, v.replace("$", "`$")) for k, v in f)


def r_terraform(p, f):
    body = "\n".join('  %s = %s' % (snake(k), q(v)) for k, v in f)
    return 'provider "%s" {\n%s\n}' % (p["slug"].split("_")[0], body)


def r_tfvars(p, f):
    return "# terraform.tfvars\n" + "\n".join('%s = %s' % (snake(k), q(v)) for k, v in f)


def r_cli(p, f):
    k = R.randint(0, 5)
    if k == 0:
        return "kubectl create secret generic %s %s" % (p["slug"].replace("_", "-"), " ".join("--from-literal=%s=%s" % (a, q(b) if needs_quote(b) else b) for a, b in f))
    if k == 1:
        return "\n".join("gh secret set %s --body %s" % (a, q(b)) for a, b in f)
    if k == 2:
        return "fly secrets set " + " ".join("%s=%s" % (a, q(b) if needs_quote(b) else b) for a, b in f)
    if k == 3:
        return "heroku config:set " + " ".join("%s=%s" % (a, q(b) if needs_quote(b) else b) for a, b in f) + " -a " + pick(COMPANY) + "-prod"
    if k == 4:
        return "\n".join("doppler secrets set %s=%s" % (a, q(b) if needs_quote(b) else b) for a, b in f)
    return "\n".join('dotnet user-secrets set "%s" "%s"' % (a.replace("_", ":", 1), b) for a, b in f)


def r_helm(p, f):
    return "helm upgrade --install %s ./chart %s" % (pick(["api", "web"]), " ".join("--set %s.%s=%s" % (p["slug"], camel(a), b) for a, b in f))


def r_systemd(p, f):
    return "[Service]\nExecStart=/usr/local/bin/%s\n%s" % (pick(["worker", "syncd", "bot"]), "\n".join('Environment="%s=%s"' % (a, b) for a, b in f))


def r_notebook(p, f):
    return "\n".join("%%env %s=%s" % (a, b) for a, b in f) + "\n# cell 2\n" + pick(["df = load()", "resp = client.list()", "run_eval()"])


def _credtext(f):
    if len(f) == 1:
        return f[0][1]
    return "\n".join("%s: %s" % (k, v) for k, v in f)


CHAT_TPL = [
    ("en", "@{n} here's the {p} key for staging: {c}"),
    ("en", "can you add this to the CI secrets? {c}"),
    ("en", "new {p} token since the old one expired -> {c}"),
    ("en", "{n}: pasting the {p} creds so you can test tonight\n{c}\n(delete after)"),
    ("en", "DM from {n}: prod {p} credentials below, don't forward\n{c}"),
    ("de", "Hier der {p}-Token für Staging: {c}"),
    ("de", "{n}, kannst du die {p}-Zugangsdaten ins Vault legen?\n{c}"),
    ("es", "Te paso la clave de {p} para producción: {c}"),
    ("pt", "Segue a chave da API do {p}: {c}"),
    ("fr", "Voici les identifiants {p} pour la préprod :\n{c}"),
    ("ja", "{p}のAPIキーです。取り扱い注意：{c}"),
    ("zh", "{p} 的密钥发你了，别外传：{c}"),
    ("ru", "Вот ключ {p} для прода: {c}"),
    ("ko", "{p} API 키 공유드립니다: {c}"),
    ("it", "Ecco il token {p} per il deploy: {c}"),
    ("tr", "{p} anahtarı burada, test ortamı için: {c}"),
    ("nl", "Hier is de {p} sleutel voor de acceptatieomgeving: {c}"),
]


def r_chat(p, f):
    lang, t = pick(CHAT_TPL)
    c = _credtext(f)
    if len(f) == 1 and chance(0.4):
        c = "%s=%s" % f[0]
    return t.format(n=pick(FIRST_NAMES), p=p["name"], c=c)


def r_ticket(p, f):
    proj = pick(["OPS", "INFRA", "SUP", "DEV", "SEC", "PLAT", "HELP"])
    return "%s-%d: %s\n\n%s\n%s\n\nReporter: %s" % (
        proj, R.randint(100, 9999),
        pick(["%s integration returns 401 in prod", "Migrate %s credentials to new account", "%s calls not going through",
              "Onboard contractor to %s", "%s sync job failing since Friday"]) % p["name"],
        pick(["Steps to reproduce, using the current prod values:", "Config currently deployed:", "Credentials the vendor sent us:",
              "Values from the old server (please rotate after migration):"]),
        "\n".join("%s=%s" % kv for kv in f), person())


def r_email(p, f):
    n1, n2 = pick(FIRST_NAMES), pick(FIRST_NAMES)
    return "From: %s <%s>\nSubject: %s\n\nHi %s,\n\n%s\n\n%s\n\n%s\n%s" % (
        n1, email_addr(n1), pick(["%s access", "Re: %s credentials", "Fwd: your %s API credentials", "%s for the pilot"]) % p["name"],
        n2, pick(["As discussed on the call, here are the credentials:", "Please find the production credentials below.",
                  "Your account has been provisioned. Credentials:", "Sending these over for the migration weekend:"]),
        "\n".join("%s: %s" % kv for kv in f),
        pick(["Thanks,", "Best regards,", "Cheers,", "Kind regards,"]), n1)


PROSE_TPL = [
    "Remember the {p} API key for my side project: {c}",
    "{p} creds (personal account): {c}",
    "Note to self - {p} {k} is {c}",
    "Save this for later: my {p} key {c}",
    "the {p} credential we use for the nightly job is {c}",
    "Keep for the hackathon: {p} -> {c}",
    "{p} key (work laptop, do not share): {c}",
]


def r_prose(p, f):
    c = _credtext(f) if len(f) == 1 else "; ".join("%s %s" % (k.lower().replace("_", " "), v) for k, v in f)
    return pick(PROSE_TPL).format(p=p["name"], k=pick(["token", "secret", "key", "credential"]), c=c)


def r_markdown(p, f):
    return "## Local setup\n\n1. Copy the values below into `.env`\n2. Run `make dev`\n\n```\n%s\n```" % "\n".join("%s=%s" % kv for kv in f)


# special contexts
def r_pem_file(p, f):
    k, v = f[-1]
    other = "".join("%s=%s\n" % kv for kv in f[:-1])
    return "%s%s:\n%s" % (other, pick(["~/.ssh/deploy_key", "keys/%s.pem" % p["slug"], "private.pem", "%s file contents" % k]), v)


def r_prose_pem(p, f):
    k, v = f[-1]
    other = "".join(" (%s %s)" % kv for kv in f[:-1])
    return "%s%s - %s:\n%s" % (p["name"], other, pick(["keep it safe", "private key, don't commit", "key for the deploy box",
                                                        "the key file", "copy of the key"]), v)


def r_json_escaped(p, f):
    return json.dumps({camel(k): v for k, v in f}, ensure_ascii=False)


def r_k8s_tls(p, f):
    v = f[-1][1]
    return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ingress-tls\ntype: kubernetes.io/tls\nstringData:\n  tls.crt: |\n    -----BEGIN CERTIFICATE-----\n    MIIB...(public cert omitted)\n    -----END CERTIFICATE-----\n  tls.key: |\n%s" % "\n".join("    " + line for line in v.split("\n"))


def r_gha_secret_paste(p, f):
    return "Add this as the DEPLOY_KEY repo secret (Settings > Secrets > Actions):\n" + f[-1][1]


def r_wg_conf(p, f):
    return "[Interface]\nPrivateKey = %s\nAddress = 10.%d.0.%d/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = %s\nEndpoint = vpn.%s.net:51820\nAllowedIPs = 0.0.0.0/0" % (
        f[-1][1], R.randint(0, 200), R.randint(2, 250), b64blob(32), pick(COMPANY))


def r_sa_json(p, f):
    sa = f[0][1]
    k = R.randint(0, 2)
    if k == 0:
        return sa
    if k == 1:
        return "service-account.json for %s:\n%s" % (sa["project_id"], json.dumps(sa, indent=2))
    return {"text": "GCP key file the contractor sent", "attachment": sa}


GENERIC_RENDERERS = [
    ("env", r_env, 3), ("export", r_export, 2), ("yaml", r_yaml, 2), ("json", r_json_native, 2), ("json_text", r_json_text, 1),
    ("toml", r_toml, 1), ("ini", r_ini, 1), ("xml", r_xml, 1), ("compose", r_compose, 1), ("k8s", r_k8s, 1),
    ("docker_run", r_docker_run, 1), ("gha", r_gha, 1), ("curl", r_curl, 3), ("python", r_python, 2), ("js", r_js, 2),
    ("go", r_go, 1), ("ruby", r_ruby, 1), ("java", r_java, 1), ("php", r_php, 1), ("csharp", r_csharp, 1),
    ("rust", r_rust, 1), ("kotlin", r_kotlin, 1), ("powershell", r_powershell, 1), ("terraform", r_terraform, 1),
    ("tfvars", r_tfvars, 1), ("cli", r_cli, 2), ("helm", r_helm, 1), ("systemd", r_systemd, 1), ("notebook", r_notebook, 1),
    ("chat", r_chat, 4), ("ticket", r_ticket, 2), ("email", r_email, 2), ("prose", r_prose, 3), ("markdown", r_markdown, 1),
]
SPECIAL_RENDERERS = {"pem_file": r_pem_file, "prose_pem": r_prose_pem, "json_escaped": r_json_escaped,
                     "k8s_tls": r_k8s_tls, "gha_secret_paste": r_gha_secret_paste, "wg_conf": r_wg_conf, "sa_json": r_sa_json}


def render_vendor(p):
    f = p["fields"]()
    if p["ctx"]:
        name = pick(p["ctx"])
        return name, SPECIAL_RENDERERS[name](p, f)
    pool = [(n, fn, w) for n, fn, w in GENERIC_RENDERERS if not (n == "curl" and p["auth"] is None)]
    total = sum(w for _, _, w in pool)
    x = R.uniform(0, total)
    for n, fn, w in pool:
        x -= w
        if x <= 0:
            return n, fn(p, f)
    n, fn, _ = pool[-1]
    return n, fn(p, f)


POPULAR = ["aws", "openai", "anthropic", "github_pat", "stripe", "slack_bot", "slack_webhook", "postgres", "mongodb",
           "gcp_api_key", "sendgrid", "twilio", "telegram", "discord_webhook", "huggingface", "npm", "gitlab",
           "supabase_service", "redis", "mysql", "ssh_key", "azure_storage"]


def gen_vendor(n):
    by_slug = {p["slug"]: p for p in PROVIDERS}
    order = [by_slug[s] for s in POPULAR] + [by_slug[s] for s in POPULAR]
    rest = [p for p in PROVIDERS if p["slug"] not in POPULAR]
    R.shuffle(rest)
    order += rest[: n - len(order)]
    out = []
    for p in order:
        ctx, v = render_vendor(p)
        out.append(dict(kind=p["slug"], value=v, regen=(lambda p=p: render_vendor(p)[1])))
    return out


# ---------------------------------------------------------------------------
# PERSONAL secrets: English + 22 other languages
# ---------------------------------------------------------------------------
PETS = ["Biscuit", "Luna", "Max", "Simba", "Coco", "Pepper", "Rocky", "Milo", "Nala", "Oscar", "Bella", "Tofu"]
CITIES = ["Porto", "Gdansk", "Mombasa", "Izmir", "Pune", "Kobe", "Tabriz", "Thessaloniki", "Haifa", "Cuenca", "Leeds", "Chiang Mai"]
SCHOOLS = ["St. Mary's Primary", "Riverside Elementary", "Oakwood High", "Lincoln Middle School", "Hillcrest"]
MAIDEN = ["Kowalczyk", "Fernandes", "O'Brien", "Lindgren", "Moretti", "Achterberg", "Castellanos", "Brennan", "Varga"]

LANG_DATA = {
    "es": dict(svc=["Gmail", "Netflix", "Mercado Libre", "BBVA", "Movistar"], ans=["García", "Toby", "Salamanca"]),
    "fr": dict(svc=["Doctolib", "Ameli", "Netflix", "Boursorama", "Leboncoin"], ans=["Lefèvre", "Filou", "Nantes"]),
    "de": dict(svc=["GMX", "Sparkasse", "Amazon", "ELSTER", "Netflix"], ans=["Schneider", "Bello", "Kassel"]),
    "it": dict(svc=["SPID", "Poste", "Netflix", "Intesa", "Trenitalia"], ans=["Bianchi", "Fido", "Bari"]),
    "pt": dict(svc=["Nubank", "gov.br", "Instagram", "Netflix", "iFood"], ans=["Souza", "Pipoca", "Recife"]),
    "pl": dict(svc=["Allegro", "mBank", "ePUAP", "Netflix", "Onet"], ans=["Nowak", "Burek", "Radom"]),
    "tr": dict(svc=["e-Devlet", "Trendyol", "Garanti", "Instagram", "Netflix"], ans=["Demir", "Pamuk", "Bursa"]),
    "id": dict(svc=["Tokopedia", "BCA mobile", "Gojek", "Shopee", "Netflix"], ans=["Santoso", "Mochi", "Bandung"]),
    "vi": dict(svc=["Zalo", "Shopee", "Vietcombank", "Facebook", "Netflix"], ans=["Trần", "Mực", "Huế"]),
    "sw": dict(svc=["M-Pesa", "Gmail", "Facebook", "NHIF", "Netflix"], ans=["Achieng", "Simba", "Kisumu"]),
    "ru": dict(svc=["Госуслуги", "ВКонтакте", "Яндекс", "Сбербанк Онлайн", "Ozon"], ans=["Смирнова", "Барсик", "Тверь"]),
    "el": dict(svc=["Taxisnet", "Gmail", "Netflix", "Skroutz", "e-banking"], ans=["Παπαδοπούλου", "Μπόμπος", "Βόλος"]),
    "he": dict(svc=["ג'ימייל", "אפליקציית הבנק", "נטפליקס", "קופת חולים", "אמזון"], ans=["כהן", "שוקו", "חיפה"]),
    "ar": dict(svc=["جيميل", "البنك", "نتفليكس", "أبشر", "فيسبوك"], ans=["الحسيني", "لولو", "الإسكندرية"]),
    "fa": dict(svc=["دیجی‌کالا", "جیمیل", "اینستاگرام", "بانک ملت", "اسنپ"], ans=["رضایی", "پیشی", "شیراز"]),
    "hi": dict(svc=["Paytm", "SBI YONO", "Gmail", "IRCTC", "Flipkart"], ans=["शर्मा", "मोती", "इंदौर"]),
    "bn": dict(svc=["বিকাশ", "Gmail", "ফেসবুক", "নগদ", "Daraz"], ans=["চৌধুরী", "মিনি", "খুলনা"]),
    "ta": dict(svc=["Gmail", "IRCTC", "Indian Bank", "Swiggy", "Netflix"], ans=["முருகன்", "ராஜா", "மதுரை"]),
    "zh": dict(svc=["微信", "支付宝", "淘宝", "QQ", "12306"], ans=["王", "旺财", "成都"]),
    "ja": dict(svc=["楽天", "Amazon", "マイナポータル", "LINE", "ゆうちょ"], ans=["佐藤", "ポチ", "札幌"]),
    "ko": dict(svc=["네이버", "카카오톡", "쿠팡", "토스", "국민은행"], ans=["박", "초코", "대구"]),
    "th": dict(svc=["LINE", "SCB Easy", "Shopee", "Lazada", "Netflix"], ans=["สมบัติ", "ข้าวตัง", "เชียงใหม่"]),
}

LANG_TPL = {
    "es": [("wifi_password", "La contraseña del wifi de casa es {wpw} (red: {ssid})"),
           ("password", "Recuérdame: mi contraseña de {svc} es {pw}"),
           ("card_pin", "PIN de la tarjeta del banco: {pin4}. No se lo digas a nadie."),
           ("door_code", "El código del portal es {code}"),
           ("alarm_code", "Código de la alarma de la oficina: {pin4}, tienes 30 segundos al entrar")],
    "fr": [("wifi_password", "Le mot de passe du wifi chez mamie : {wpw} (réseau {ssid})"),
           ("password", "Rappel : mon mot de passe {svc} c'est {pw}"),
           ("card_pin", "Code PIN de ma carte bleue : {pin4}"),
           ("door_code", "Digicode de l'immeuble : {code}, puis porte B au 3e"),
           ("bike_lock_code", "Code du cadenas du vélo : {lock4}")],
    "de": [("wifi_password", "WLAN-Passwort im Ferienhaus: {wpw} (Netz: {ssid})"),
           ("password", "Mein Passwort für {svc} lautet {pw}"),
           ("card_pin", "Die PIN meiner Girocard ist {pin4}"),
           ("garage_code", "Türcode für die Tiefgarage: {code}"),
           ("alarm_code", "Alarmanlage Oma: Code {pin4}, danach Taste 'Aus' drücken")],
    "it": [("wifi_password", "La password del wifi è {wpw}, rete {ssid}"),
           ("password", "Ricordami che la password di {svc} è {pw}"),
           ("card_pin", "PIN del bancomat: {pin5}"),
           ("gate_code", "Codice del cancello del residence: {code}"),
           ("safe_code", "Combinazione della cassaforte in hotel: {pin4}")],
    "pt": [("wifi_password", "A senha do wi-fi da casa da praia é {wpw} (rede {ssid})"),
           ("password", "Minha senha do {svc}: {pw}"),
           ("card_pin", "Senha do cartão (4 dígitos): {pin4}"),
           ("garage_code", "Código do portão da garagem: {code}"),
           ("security_answer", "Resposta da pergunta de segurança (nome do primeiro animal): {ansp}")],
    "pl": [("wifi_password", "Hasło do wifi u rodziców: {wpw} (sieć {ssid})"),
           ("password", "Moje hasło do {svc} to {pw}"),
           ("card_pin", "PIN do karty: {pin4}"),
           ("door_code", "Kod do domofonu: {code}"),
           ("safe_code", "Kod do sejfu w pokoju hotelowym: {pin6}")],
    "tr": [("wifi_password", "Evdeki wifi şifresi: {wpw} (ağ adı {ssid})"),
           ("password", "{svc} şifrem {pw}, unutma"),
           ("card_pin", "Kredi kartı şifresi: {pin4}"),
           ("door_code", "Apartman kapı kodu {code}"),
           ("otp", "Bankadan gelen tek kullanımlık şifre: {otp}")],
    "id": [("wifi_password", "Password wifi kantor: {wpw} (SSID {ssid})"),
           ("password", "Kata sandi {svc} saya: {pw}"),
           ("card_pin", "PIN ATM saya {pin6}"),
           ("door_code", "Kode pintu kos: {code}"),
           ("otp", "Kode OTP dari bank: {otp}, jangan kasih ke siapa-siapa")],
    "vi": [("wifi_password", "Mật khẩu wifi nhà mình: {wpw} (mạng {ssid})"),
           ("password", "Mật khẩu {svc} của tôi là {pw}"),
           ("card_pin", "Mã PIN thẻ ATM: {pin6}"),
           ("door_code", "Mã cửa chung cư: {code}"),
           ("safe_code", "Mã mở két sắt ở văn phòng: {pin6}")],
    "sw": [("wifi_password", "Nenosiri la wifi ya nyumbani ni {wpw} (mtandao {ssid})"),
           ("password", "Nenosiri langu la {svc} ni {pw}"),
           ("mobile_money_pin", "PIN ya M-Pesa: {pin4}, usimwambie mtu"),
           ("card_pin", "Namba ya siri ya kadi ya benki: {pin4}"),
           ("gate_code", "Msimbo wa lango la estate: {code}")],
    "ru": [("wifi_password", "Пароль от вайфая на даче: {wpw} (сеть {ssid})"),
           ("password", "Мой пароль от {svc}: {pw}"),
           ("card_pin", "ПИН-код карты: {pin4}"),
           ("door_code", "Код домофона: {code}"),
           ("security_answer", "Кодовое слово для банка: {ans}")],
    "el": [("wifi_password", "Ο κωδικός του wifi στο σπίτι είναι {wpw} (δίκτυο {ssid})"),
           ("password", "Ο κωδικός μου για το {svc}: {pw}"),
           ("card_pin", "PIN κάρτας: {pin4}"),
           ("door_code", "Κωδικός εξώπορτας πολυκατοικίας: {code}"),
           ("alarm_code", "Κωδικός συναγερμού στο μαγαζί: {pin4}")],
    "he": [("wifi_password", "הסיסמה של הוויפי בבית: {wpw} (רשת {ssid})"),
           ("password", "הסיסמה שלי ל{svc} היא {pw}"),
           ("card_pin", "קוד סודי של הכרטיס: {pin4}"),
           ("door_code", "הקוד של הדלת בכניסה לבניין: {code}"),
           ("alarm_code", "קוד האזעקה: {pin4}")],
    "ar": [("wifi_password", "كلمة سر الواي فاي في البيت: {wpw} (الشبكة {ssid})"),
           ("password", "كلمة المرور الخاصة بي لـ {svc} هي {pw}"),
           ("card_pin", "الرقم السري لبطاقة البنك: {pin4}"),
           ("door_code", "رمز باب العمارة: {code}"),
           ("otp", "رمز التحقق: {otp} لا تشاركه مع أحد")],
    "fa": [("wifi_password", "رمز وای‌فای خونه: {wpw} (شبکه {ssid})"),
           ("password", "رمز عبور {svc} من: {pw}"),
           ("card_pin", "رمز دوم کارت بانکی: {pin8}"),
           ("door_code", "کد در پارکینگ: {code}"),
           ("card_pin", "رمز کارت عابر بانک: {pin4}")],
    "hi": [("wifi_password", "घर के वाईफाई का पासवर्ड: {wpw} (नेटवर्क {ssid})"),
           ("password", "मेरा {svc} पासवर्ड {pw} है"),
           ("card_pin", "एटीएम पिन: {pin4}"),
           ("upi_pin", "UPI पिन {pin6} है, किसी को मत बताना"),
           ("locker_code", "लॉकर का कोड: {pin4}")],
    "bn": [("wifi_password", "বাসার ওয়াইফাই পাসওয়ার্ড: {wpw} (নেটওয়ার্ক {ssid})"),
           ("password", "আমার {svc} পাসওয়ার্ড হলো {pw}"),
           ("card_pin", "এটিএম কার্ডের পিন: {pin4}"),
           ("mobile_money_pin", "বিকাশ পিন: {pin5}"),
           ("gate_code", "গেটের কোড: {code}")],
    "ta": [("wifi_password", "வீட்டு வைஃபை கடவுச்சொல்: {wpw} (நெட்வொர்க் {ssid})"),
           ("password", "என் {svc} கடவுச்சொல் {pw}"),
           ("card_pin", "ஏடிஎம் பின்: {pin4}"),
           ("locker_code", "லாக்கர் குறியீடு: {pin4}")],
    "zh": [("wifi_password", "家里WiFi密码：{wpw}（网络名 {ssid}）"),
           ("password", "我的{svc}密码是{pw}"),
           ("card_pin", "银行卡密码：{pin6}"),
           ("door_code", "门禁密码 {code}"),
           ("payment_pin", "支付密码：{pin6}，别告诉别人")],
    "ja": [("wifi_password", "実家のWi-Fiのパスワード：{wpw}（SSID: {ssid}）"),
           ("password", "{svc}のパスワードは{pw}"),
           ("card_pin", "キャッシュカードの暗証番号：{pin4}"),
           ("door_code", "マンションのオートロックの暗証番号は{code}"),
           ("security_answer", "秘密の質問（母親の旧姓）の答え：{ansm}")],
    "ko": [("wifi_password", "집 와이파이 비밀번호: {wpw} (네트워크 {ssid})"),
           ("password", "내 {svc} 비밀번호는 {pw}"),
           ("card_pin", "카드 비밀번호 4자리: {pin4}"),
           ("door_code", "공동현관 비밀번호 {code}"),
           ("door_code", "도어락 비번 {pin6}*")],
    "th": [("wifi_password", "รหัสไวไฟที่บ้าน: {wpw} (เครือข่าย {ssid})"),
           ("password", "รหัสผ่าน {svc} ของฉันคือ {pw}"),
           ("card_pin", "รหัส ATM: {pin6}"),
           ("door_code", "รหัสประตูคอนโด: {code}")],
}


def _spaced(n):
    return " ".join(digits(n, False))


def asp():
    return "-".join(rs(LO, 4) for _ in range(4))


def b32secret(n=32):
    return rs(B32, n)


def amazon_gc():
    return "%s-%s-%s" % (rs(ALNUM_UP, 4), rs(ALNUM_UP, 6), rs(ALNUM_UP, 5))


def steam_gc():
    return "-".join(rs(ALNUM_UP, 5) for _ in range(3))


def zoom_id():
    return "%s %s %s" % (digits(3), digits(4), digits(4))


SLOT = {
    "pw": human_pw, "spw": strong_pw, "wpw": wifi_pw, "ssid": ssid, "pin4": lambda: pin(4), "pin5": lambda: pin(5),
    "pin6": lambda: pin(6), "pin8": lambda: pin(8), "code": door_code, "combo": combo, "otp": lambda: pin(6),
    "lock4": lambda: pin(4), "spaced4": lambda: _spaced(4), "email": email_addr, "name": lambda: pick(FIRST_NAMES),
    "pet": lambda: pick(PETS), "city": lambda: pick(CITIES), "school": lambda: pick(SCHOOLS), "maiden": lambda: pick(MAIDEN),
    "word": lambda: pick(WORDS), "asp": asp, "b32": b32secret, "agc": amazon_gc, "sgc": steam_gc, "zid": zoom_id,
    "zpc": lambda: pick([digits(6), b62(6), rs(ALNUM_UP, 6)]), "uname": lambda: pick(FIRST_NAMES).lower()[0] + pick(LAST_NAMES).lower(),
    "svcx": lambda: pick(SERVICES), "puk": lambda: digits(8, False), "tmp": lambda: rs(ALNUM_UP, 4) + "-" + rs(ALNUM_UP, 4) + "!" + digits(2),
    "pp": lambda: " ".join(pick(WORDS) for _ in range(R.randint(4, 6))),
}


def fill(t, lang=None):
    def rep(m):
        k = m.group(1)
        if k == "svc":
            return pick(LANG_DATA[lang]["svc"]) if lang else pick(SERVICES)
        if k == "ans":
            return pick(LANG_DATA[lang]["ans"]) if lang else pick(MAIDEN)
        if k == "ansm":
            return LANG_DATA[lang]["ans"][0]
        if k == "ansp":
            return LANG_DATA[lang]["ans"][1]
        return SLOT[k]()
    return re.sub(r"\{([a-z0-9]+)\}", rep, t)


def _cardline():
    brand, num, exp, cvv = card()
    k = R.randint(0, 6)
    if k == 0:
        return "%s %s exp %s CVV %s" % (brand, group4(num), exp, cvv)
    if k == 1:
        return "Card for online orders:\nnumber %s\nexpiry %s\nsecurity code %s\nname on card %s" % (num, exp, cvv, person().upper())
    if k == 2:
        return "card number %s" % group4(num)
    if k == 3:
        return "company %s for travel bookings: %s, valid thru %s, cvc %s" % (brand, num, exp, cvv)
    if k == 4:
        return "%s - %s - %s" % (group4(num), exp, cvv)
    if k == 5:
        return {"card": brand, "number": group4(num), "exp": exp, "cvv": cvv}
    return "Dad's %s: %s (exp %s)" % (brand, num, exp)


def _backup_codes():
    k = R.randint(0, 2)
    if k == 0:
        codes = ["%s %s" % (digits(4, False), digits(4, False)) for _ in range(10)]
        return "Google backup codes (print these):\n" + "\n".join(codes)
    if k == 1:
        codes = ["%s-%s" % (hexs(5), hexs(5)) for _ in range(R.choice([8, 16]))]
        return ["GitHub recovery codes"] + codes
    codes = ["%s" % rs(ALNUM_LO, 10) for _ in range(8)]
    return "%s 2FA recovery codes: %s" % (pick(["Discord", "Dropbox", "Proton", "Bitwarden", "Coinbase"]), ", ".join(codes))


def _seed():
    n = pick([12, 12, 24])
    ws = [pick(BIP39ISH) for _ in range(n)]
    k = R.randint(0, 2)
    if k == 0:
        return "%s seed phrase: %s" % (pick(["MetaMask", "Trust Wallet", "Phantom", "Exodus"]), " ".join(ws))
    if k == 1:
        return "Ledger recovery phrase (keep offline!!)\n" + "\n".join("%d. %s" % (i + 1, w) for i, w in enumerate(ws))
    return {"wallet": pick(["Electrum", "BlueWallet", "Sparrow"]), "words": ws}


EN_TPL = [
    ("password", "remember my {svcx} password is {pw}"),
    ("password", "{svcx} login: {email} / {pw}"),
    ("password", "Mum's {svcx} account: username {email}, password {pw}. She keeps forgetting it."),
    ("password", "New {svcx} password after the reset: {pw}"),
    ("password", "shared family {svcx}: {email} pw {pw}"),
    ("password", "Work laptop login - user {uname}, password {spw} (expires in 90 days)"),
    ("router_password", "router admin: http://192.168.1.1 user admin pass {pw}"),
    ("temp_password", "Fwd: Your temporary password\n\nYour temporary password for {svcx} is {tmp}. You will be asked to change it at first login."),
    ("password", "BIOS password on the old ThinkPad: {pw}"),
    ("app_password", "Apple app-specific password for Thunderbird: {asp}"),
    ("passphrase", "encrypted backup drive (VeraCrypt) passphrase: {pp}"),
    ("passcode", "{name}'s iPad Screen Time passcode is {pin4}"),
    ("password", "The zip with the tax docs from the accountant is protected, password: {pw}"),
    ("password", "Bitwarden master password: {pp}"),
    ("password", "[09:14] {name}: what's the Disney+ login again?\n[09:15] me: {email} / {pw}"),
    ("wifi_password", "wifi at grandma's: SSID {ssid} / pass {wpw}"),
    ("wifi_password", "Guest wifi: {ssid}, password: {wpw}"),
    ("wifi_password", "Airbnb in Lisbon - network {ssid}, password {wpw}, checkout 11am"),
    ("wifi_password", "office wifi pw {wpw}"),
    ("wifi_password", "network={\n    ssid=\"{ssid}\"\n    psk=\"{wpw}\"\n}"),
    ("wifi_password", "nmcli dev wifi connect '{ssid}' password '{wpw}'"),
    ("wifi_password", "[18:02] {name}: wifi?\n[18:02] me: {ssid}, pw is {wpw}"),
    ("card_pin", "My debit card PIN is {pin4}"),
    ("sim_pin", "SIM PIN {pin4}, PUK {puk}"),
    ("voicemail_pin", "Voicemail PIN: {pin4}"),
    ("card_pin", "PIN for the new credit card: {pin4} (changed it at the ATM)"),
    ("phone_passcode", "Phone unlock code {pin6}"),
    ("parental_pin", "Kids' Switch parental control PIN {pin4}"),
    ("bank_passcode", "Telephone banking passcode: {pin6}"),
    ("garage_code", "Garage door keypad: {code}, press enter after"),
    ("alarm_code", "Alarm code {pin4} - disarm within 45 seconds or it calls the monitoring company"),
    ("keybox_code", "Lockbox at the Airbnb: {pin4}"),
    ("bike_lock_code", "bike lock combo {spaced4}"),
    ("locker_code", "Gym locker combination {combo}"),
    ("safe_code", "Safe in the hotel room: {pin4}"),
    ("keybox_code", "Key safe by mum's back door: {pin4}"),
    ("gate_code", "front gate code for the community: {code}"),
    ("door_code", "Building entry code {code}; apartment buzzer 12"),
    ("otp", "The OTP the bank just texted: {otp}"),
    ("otp", "Verification code for {svcx}: {otp} (expires in 10 minutes)"),
    ("totp_seed", "2FA secret for {svcx} (in case I lose my phone): {b32}"),
    ("totp_seed", "otpauth://totp/{email}?secret={b32}&issuer={iss}"),
    ("recovery_code", "Microsoft account recovery code: {rc25}"),
    ("security_answer", "Security question for the bank - mother's maiden name: {maiden}"),
    ("security_answer", "first pet's name (for {svcx} security question): {pet}"),
    ("security_answer", "Security answers for the {svcx} account:\nQ: city where you were born? A: {city}\nQ: first school? A: {school}"),
    ("memorable_word", "Telephone banking memorable word: {word}"),
    ("memorable_word", "Verbal password for the phone company account: '{word}{pin4}'"),
    ("gift_card", "Amazon gift card code from the office raffle: {agc}"),
    ("gift_card", "Steam wallet code: {sgc} - birthday present for {name}"),
    ("gift_card", "Google Play gift code {gp20}, not redeemed yet"),
    ("meeting_passcode", "Zoom for the parents' evening: ID {zid}, passcode {zpc}"),
    ("meeting_passcode", "Teams meeting ID: {tid}  Passcode: {tpc}"),
    ("meeting_passcode", "Webex meeting number {wid}, password {wpc}"),
    ("wallet_key", "old Ethereum wallet private key: 0x{h64}"),
]
SLOT.update({
    "rc25": lambda: "-".join(rs(ALNUM_UP, 5) for _ in range(5)),
    "gp20": lambda: rs(ALNUM_UP, 20),
    "tid": lambda: "%s %s %s %s" % (digits(3), digits(3), digits(3), digits(3)),
    "tpc": lambda: b62(6),
    "wid": lambda: "%s %s %s" % (digits(4), digits(3), digits(4)),
    "wpc": lambda: b62(3) + rs(ALNUM_UP, 3) + digits(3),
    "h64": lambda: hexs(64),
    "iss": lambda: pick(["GitHub", "Coinbase", "Dropbox", "Proton", "Binance", "Okta", "Discord", "Kraken"]),
})


def gen_personal(n):
    out = []
    langs = list(LANG_TPL.keys())
    for lang in langs:
        for kind, t in LANG_TPL[lang]:
            out.append(dict(kind="%s.%s" % (kind, lang), value=fill(t, lang), regen=(lambda t=t, lang=lang: fill(t, lang))))
    specials = [("card_details", _cardline), ("card_details", _cardline), ("card_details", _cardline), ("card_details", _cardline),
                ("card_details", _cardline), ("card_details", _cardline), ("recovery_code", _backup_codes),
                ("recovery_code", _backup_codes), ("recovery_code", _backup_codes), ("seed_phrase", _seed), ("seed_phrase", _seed),
                ("seed_phrase", _seed)]
    for kind, fn in specials:
        out.append(dict(kind=kind + ".en", value=fn(), regen=fn))
    en = list(EN_TPL)
    i = 0
    while len(out) < n:
        kind, t = en[i % len(en)] if i < len(en) else pick(en)
        i += 1
        out.append(dict(kind=kind + ".en", value=fill(t), regen=(lambda t=t: fill(t))))
    return out


# ---------------------------------------------------------------------------
# EVASION: disguised secrets (each technique still lets a reader reconstruct)
# ---------------------------------------------------------------------------
def tok():
    k = R.randint(0, 13)
    return [
        ("GitHub token", "ghp_" + b62(36)), ("Stripe live key", "sk_live_51" + b62(58)),
        ("Slack bot token", "xoxb-%s-%s-%s" % (digits(12), digits(13), b62(24))), ("GitLab token", "glpat-" + rs(B64U, 20)),
        ("npm token", "npm_" + b62(36)), ("SendGrid key", "SG." + rs(B64U, 22) + "." + rs(B64U, 43)),
        ("Hugging Face token", "hf_" + rs(UP + LO, 34)), ("OpenAI key", "sk-proj-" + rs(B64U, 48)),
        ("Anthropic key", "sk-ant-api03-" + rs(B64U, 93) + "AA"), ("Groq key", "gsk_" + b62(52)),
        ("DigitalOcean token", "dop_v1_" + hexs(64)), ("Shopify token", "shpat_" + hexs(32)),
        ("Twilio auth token", hexs(32)), ("Telegram bot token", _telegram()),
    ][k]


def short_tok():
    k = R.randint(0, 5)
    return [("GitLab token", "glpat-" + rs(B64U, 20)), ("npm token", "npm_" + b62(36)), ("GitHub token", "ghp_" + b62(36)),
            ("Hugging Face token", "hf_" + rs(UP + LO, 34)), ("Mailgun key", "key-" + hexs(32)),
            ("Resend key", "re_" + b62(8) + "_" + b62(24))][k]


def pwd():
    return ("%s password" % pick(SERVICES), human_pw())


def short_pwd():
    while True:
        p = human_pw()
        if 8 <= len(p) <= 18 and " " not in p:
            return ("%s password" % pick(SERVICES), p)


def any_secret():
    k = R.randint(0, 3)
    if k == 0:
        return tok()
    if k == 1:
        return pwd()
    if k == 2:
        return ("wifi password (%s)" % ssid(), wifi_pw())
    return short_tok()


EVASIONS = []


def ev(slug):
    def deco(fn):
        EVASIONS.append((slug, fn))
        return fn
    return deco


def chunks(s, n):
    k = max(1, -(-len(s) // n))
    return [s[i:i + k] for i in range(0, len(s), k)]


def b64s(s):
    return base64.b64encode(s.encode()).decode()


@ev("base64_password")
def _():
    lab, p = pwd()
    return pick(["%s (b64 so it's not in plain text): %s", "%s, base64: %s", "encoded %s -> %s"]) % (lab, b64s(p))


@ev("base64_env_line")
def _():
    lab, t = tok()
    env = re.sub(r"[^A-Z]+", "_", lab.upper()).strip("_")
    return "decode and paste into .env on the box: %s" % b64s("%s=%s" % (env, t))


@ev("base64url_nopad")
def _():
    lab, t = tok()
    return "%s (urlsafe b64, no padding): %s" % (lab, b64u_nopad(t.encode()))


@ev("hex_encoded")
def _():
    lab, t = any_secret()
    return pick(["%s in hex: %s", "%s -> hex %s", "hex of the %s: %s"]) % (lab, t.encode().hex())


@ev("hex_byte_list")
def _():
    lab, t = short_pwd()
    return "%s = [%s]" % (lab.replace(" ", "_").lower(), ", ".join("0x%02x" % b for b in t.encode()))


@ev("decimal_charcodes")
def _():
    lab, t = short_pwd()
    return "%s as ASCII codes: %s" % (lab, " ".join(str(b) for b in t.encode()))


@ev("percent_encoded_uri_password")
def _():
    p = strong_pw(16)
    enc = "".join("%%%02X" % b for b in p.encode())
    return "DATABASE_URL=postgresql://%s:%s@%s:5432/%s" % (pick(["app", "ledger", "metabase"]), enc, host(), pick(["prod", "ledger"]))


@ev("double_base64")
def _():
    lab, t = any_secret()
    return "%s (base64 twice): %s" % (lab, b64s(b64s(t)))


@ev("base64_of_hex")
def _():
    lab, t = any_secret()
    return "blob for the %s - it's hex, then base64: %s" % (lab, b64s(t.encode().hex()))


@ev("hex_of_base64")
def _():
    lab, t = tok()
    return "%s: base64 -> hex -> %s" % (lab, b64s(t).encode().hex())


@ev("rot13")
def _():
    lab, p = pwd()
    import codecs
    return pick(["%s (rot13): %s", "rot13'd %s: %s"]) % (lab, codecs.encode(p, "rot13"))


def caesar(s, n):
    out = []
    for c in s:
        if c in LO:
            out.append(LO[(LO.index(c) + n) % 26])
        elif c in UP:
            out.append(UP[(UP.index(c) + n) % 26])
        else:
            out.append(c)
    return "".join(out)


@ev("caesar_shift")
def _():
    lab, p = pwd()
    n = R.randint(2, 9)
    return "%s, letters shifted forward by %d (shift back to use): %s" % (lab, n, caesar(p, n))


@ev("xor_with_given_key")
def _():
    lab, t = any_secret()
    key = pick(["k3y", "hunter", "salt42", "x"])
    data = bytes(b ^ ord(key[i % len(key)]) for i, b in enumerate(t.encode()))
    return "%s XOR '%s' (hex): %s" % (lab, key, data.hex())


def vigenere(s, key):
    out, j = [], 0
    for c in s:
        if c in LO or c in UP:
            a = LO if c in LO else UP
            out.append(a[(a.index(c) + LO.index(key[j % len(key)])) % 26])
            j += 1
        else:
            out.append(c)
    return "".join(out)


@ev("vigenere_with_key")
def _():
    lab, p = pwd()
    key = pick(["lemon", "garden", "kiwi", "otter"])
    return "%s, Vigenere with key '%s' (letters only, digits/symbols as is): %s" % (lab, key, vigenere(p, key))


@ev("atbash")
def _():
    lab, p = pwd()
    tr = str.maketrans(LO + UP, LO[::-1] + UP[::-1])
    return "%s in atbash (a<->z, b<->y...): %s" % (lab, p.translate(tr))


@ev("reversed")
def _():
    lab, t = any_secret()
    return pick(["%s, read it backwards: %s", "%s (reversed): %s", "%s - reverse this: %s"]) % (lab, t[::-1])


@ev("rtl_override_reversed")
def _():
    lab, t = any_secret()
    return "%s: \u202e%s\u202c" % (lab, t[::-1])


@ev("split_json_fields")
def _():
    lab, t = tok()
    a, b = t[: len(t) // 2], t[len(t) // 2:]
    return {"part1": a, "part2": b, "note": "%s = part1 + part2" % lab}


@ev("split_list_items")
def _():
    lab, t = any_secret()
    return ["%s, in pieces:" % lab] + chunks(t, R.randint(3, 5))


@ev("split_nested_object")
def _():
    lab, t = tok()
    a, b, c = chunks(t, 3)[:3] if len(chunks(t, 3)) == 3 else (t[:5], t[5:10], t[10:])
    return {"cfg": {"x": a}, "meta": {"y": {"z": b}}, "tail": c, "hint": "%s is cfg.x + meta.y.z + tail" % lab}


@ev("interleaved_strings")
def _():
    lab, t = any_secret()
    return "%s interleaved - take one char from A then one from B:\nA=%s\nB=%s" % (lab, t[0::2], t[1::2])


@ev("filler_every_other_char")
def _():
    lab, p = short_pwd()
    s = "".join(c + pick("#%~^") for c in p)
    return "%s, drop every 2nd character: %s" % (lab, s)


@ev("zero_width_inserted")
def _():
    lab, t = any_secret()
    return "%s: %s" % (lab, "\u200b".join(t))


@ev("soft_hyphen_inserted")
def _():
    lab, t = tok()
    return "%s %s" % (lab, "\u00ad".join(chunks(t, 6)))


@ev("unicode_tag_smuggling")
def _():
    lab, t = any_secret()
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "%s: %s" % (lab, t))
    return pick(["Note to self: ask about the invoice.", "grocery run tomorrow", "call the plumber"]) + " " + hidden


HOMO = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445", "y": "\u0443",
        "A": "\u0410", "B": "\u0412", "E": "\u0415", "K": "\u041a", "M": "\u041c", "H": "\u041d", "O": "\u041e",
        "P": "\u0420", "C": "\u0421", "T": "\u0422", "X": "\u0425"}


def homoglyph(s, rate=0.7):
    return "".join(HOMO[c] if c in HOMO and chance(rate) else c for c in s)


@ev("homoglyph_cyrillic_in_secret")
def _():
    lab, t = tok()
    t2 = homoglyph(t, 0.9)
    if t2 == t:
        t2 = t.replace(t[0], HOMO.get(t[0], t[0]), 1)
    return "%s: %s" % (lab, t2)


@ev("fullwidth_chars")
def _():
    lab, t = any_secret()
    return "%s：%s" % (lab, "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in t))


def mbold(c):
    if c in UP:
        return chr(0x1D400 + UP.index(c))
    if c in LO:
        return chr(0x1D41A + LO.index(c))
    if c in DIG:
        return chr(0x1D7CE + DIG.index(c))
    return c


@ev("math_bold_chars")
def _():
    lab, t = any_secret()
    return "%s %s" % (lab, "".join(mbold(c) for c in t))


@ev("spaced_chars")
def _():
    lab, t = any_secret()
    return "%s: %s" % (lab, " ".join(t))


@ev("middle_dot_separators")
def _():
    lab, p = short_pwd()
    return "%s = %s" % (lab, "\u00b7".join(p))


@ev("one_char_per_line")
def _():
    lab, p = short_pwd()
    return "%s (top to bottom):\n%s" % (lab, "\n".join(p))


NUMW = {
    "en": "zero one two three four five six seven eight nine".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "hi": "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split(),
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz".split(),
}
PIN_PHRASE = {
    "en": "card PIN, spelled out: %s", "es": "el PIN de la tarjeta, en letras: %s", "de": "Die PIN, ausgeschrieben: %s",
    "fr": "code de la carte, en toutes lettres : %s", "it": "PIN del bancomat a parole: %s", "ru": "ПИН-код словами: %s",
    "hi": "एटीएम पिन शब्दों में: %s", "tr": "kart şifresi yazıyla: %s",
}


@ev("spoken_digits_en")
def _():
    p = pin(pick([4, 6]))
    return pick(["alarm code is %s", "the door code: %s, then hash", "PIN - %s"]) % " ".join(NUMW["en"][int(d)] for d in p)


@ev("spoken_digits_other_language")
def _():
    lang = pick(["es", "de", "fr", "it", "ru", "hi", "tr"])
    p = pin(4)
    return PIN_PHRASE[lang] % " ".join(NUMW[lang][int(d)] for d in p)


NATO = dict(zip(LO, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec "
                    "romeo sierra tango uniform victor whiskey xray yankee zulu".split()))


@ev("nato_phonetic")
def _():
    p = rs(B62, R.randint(8, 10))
    parts = []
    for c in p:
        if c in DIG:
            parts.append(NUMW["en"][int(c)])
        elif c in UP:
            parts.append("capital " + NATO[c.lower()])
        else:
            parts.append(NATO[c])
    return "%s password as read out over the phone: %s" % (pick(SERVICES), ", ".join(parts))


@ev("keycap_emoji_digits")
def _():
    p = pin(4)
    return "%s %s" % (pick(["garage 🚗", "alarm 🚨", "safe 🔐", "bike lock 🚲"]), "".join(d + "\ufe0f\u20e3" for d in p))


SUP = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"


@ev("superscript_digits")
def _():
    p = pin(pick([4, 6]))
    return "keybox code %s" % "".join(SUP[int(d)] for d in p)


CIRC = "\u24ea\u2460\u2461\u2462\u2463\u2464\u2465\u2466\u2467\u2468"


@ev("circled_digits")
def _():
    p = pin(4)
    return "locker %s" % "".join(CIRC[int(d)] for d in p)


NUMERALS = {"ar": "٠١٢٣٤٥٦٧٨٩", "fa": "۰۱۲۳۴۵۶۷۸۹", "hi": "०१२३४५६७८९", "bn": "০১২৩৪৫৬৭৮৯", "th": "๐๑๒๓๔๕๖๗๘๙"}
NUMERAL_PHRASE = {"ar": "الرقم السري: %s", "fa": "رمز کارت: %s", "hi": "पिन: %s", "bn": "পিন নম্বর: %s", "th": "รหัสผ่านบัตร: %s"}


@ev("native_script_numerals")
def _():
    lang = pick(list(NUMERALS))
    p = pin(pick([4, 6]))
    return NUMERAL_PHRASE[lang] % "".join(NUMERALS[lang][int(d)] for d in p)


@ev("chinese_numerals")
def _():
    p = pin(6)
    return pick(["银行卡密码：%s", "门禁密码是%s", "支付密码 %s"]) % "".join("零一二三四五六七八九"[int(d)] for d in p)


def roman(n):
    vals = [(40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    if n == 0:
        return "0"
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


@ev("roman_numeral_combo")
def _():
    nums = [R.randint(1, 39) for _ in range(3)]
    return "padlock on the storage unit: %s" % "-".join(roman(x) for x in nums)


@ev("arithmetic_pin")
def _():
    a = R.randint(1000, 4999)
    b = R.randint(1000, 4999)
    return "%s = %d + %d" % (pick(["PIN", "door code", "safe code", "alarm"]), a, b)


@ev("digit_shift_pin")
def _():
    p = pin(4)
    shown = "".join(str((int(d) + 1) % 10) for d in p)
    return "card PIN written with every digit +1 (so subtract one from each, 0 means 9): %s" % shown


@ev("digit_pad_pin")
def _():
    p = pin(4)
    pad = pin(4)
    shown = "".join(str((int(a) + int(b)) % 10) for a, b in zip(p, pad))
    return "alarm: %s (subtract %s digit by digit, no carry)" % (shown, pad)


@ev("described_construction")
def _():
    pet, year = pick(PETS), R.randint(2005, 2022)
    sym = pick(["!", "#", "?", "*"])
    return "my %s password is our dog's name %s, then the year we got her (%d), then %s" % (
        pick(SERVICES), pet, year, {"!": "an exclamation mark", "#": "a hash", "?": "a question mark", "*": "an asterisk"}[sym])


@ev("pin_in_namespace_uid")
def _():
    p = pin(4)
    uid = "u" + digits(R.randint(2, 5)) + p
    return dict(value=pick(["card PIN = the last 4 digits of my user id here", "bank PIN: same as the last four digits of this account's user number"]),
                ns=["memories", uid])


@ev("secret_prefix_in_record_key")
def _():
    full = hexs(32)
    lab = pick(["Datadog API key", "Rollbar token", "Azure OpenAI key", "OpenWeather key"])
    return dict(value="%s: first 16 chars are this memory's id (after mem_), the rest is %s" % (lab, full[16:]),
                key="mem_" + full[:16])


@ev("python_join")
def _():
    lab, t = tok()
    return 'API_KEY = "".join([%s])  # %s' % (", ".join(q(c) for c in chunks(t, 5)), lab)


@ev("js_fromcharcode")
def _():
    lab, t = short_tok()
    return "const k = String.fromCharCode(%s); // %s" % (",".join(str(ord(c)) for c in t), lab)


@ev("bash_concat")
def _():
    lab, t = tok()
    a, b = t[: len(t) // 3], t[len(t) // 3:]
    return 'A="%s"\nB="%s"\nexport TOKEN="${A}${B}"  # %s' % (a, b, lab)


@ev("python_bytes_fromhex")
def _():
    lab, t = any_secret()
    return 'secret = bytes.fromhex("%s").decode()  # %s' % (t.encode().hex(), lab)


@ev("python_bytes_literal")
def _():
    lab, p = short_pwd()
    return "PW = b'%s'.decode()" % "".join("\\x%02x" % b for b in p.encode())


@ev("unicode_escapes")
def _():
    lab, t = any_secret()
    return '{"%s": "%s"}' % (pick(["k", "v", "cfg"]), "".join("\\u%04x" % ord(c) for c in t))


@ev("html_entities")
def _():
    lab, t = any_secret()
    return "<span data-x=\"%s\"></span> <!-- %s -->" % ("".join("&#%d;" % ord(c) for c in t), lab)


@ev("base32")
def _():
    lab, t = any_secret()
    return "%s (base32): %s" % (lab, base64.b32encode(t.encode()).decode())


@ev("ascii85")
def _():
    lab, t = any_secret()
    return "%s a85: <~%s~>" % (lab, base64.a85encode(t.encode()).decode())


@ev("uuencode")
def _():
    lab, t = short_tok()
    return "begin 644 key.txt\n%send\n# %s" % (binascii.b2a_uu(t.encode()).decode() + "`\n", lab)


@ev("quoted_printable_all")
def _():
    lab, p = pwd()
    return "Content-Transfer-Encoding: quoted-printable\n\nYour %s is: %s" % (lab, "".join("=%02X" % b for b in p.encode()))


MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..", "j": ".---",
         "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-", "r": ".-.", "s": "...", "t": "-",
         "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..", "0": "-----", "1": ".----", "2": "..---",
         "3": "...--", "4": "....-", "5": ".....", "6": "-....", "7": "--...", "8": "---..", "9": "----."}


@ev("morse_code")
def _():
    if chance(0.5):
        s = pin(4)
        lab = pick(["gate code", "safe", "bike lock"])
    else:
        s = pick(WORDS) + digits(3, False)
        lab = "wifi password (%s)" % ssid()
    return "%s in morse: %s" % (lab, " / ".join(MORSE[c] for c in s))


@ev("binary_bits")
def _():
    lab, p = short_pwd()
    return "%s: %s" % (lab, " ".join("{:08b}".format(b) for b in p.encode()))


@ev("octal_escapes")
def _():
    lab, p = short_pwd()
    return "printf '%s'  # prints the %s" % ("".join("\\%03o" % b for b in p.encode()), lab)


@ev("unsigned_jwt_with_password")
def _():
    u, p = pick(FIRST_NAMES).lower(), human_pw()
    h = b64u_nopad(b'{"alg":"none","typ":"JWT"}')
    pl = b64u_nopad(json.dumps({"user": u, "password": p, "svc": pick(SERVICES)}).encode())
    return "session blob from the old app: %s.%s." % (h, pl)


@ev("basic_auth_header")
def _():
    u = pick(["admin", "deploy", "jenkins", pick(FIRST_NAMES).lower()])
    p = human_pw()
    return "Authorization: Basic %s\nHost: %s" % (b64s("%s:%s" % (u, p)), pick(["ci.internal", "grafana.local", "nexus.corp.example"]))


@ev("docker_config_auth")
def _():
    u = pick(COMPANY) + "-ci"
    t = pick(["glpat-" + rs(B64U, 20), "dckr_pat_" + rs(B64U, 27), "ghp_" + b62(36)])
    reg = pick(["registry.gitlab.com", "https://index.docker.io/v1/", "ghcr.io"])
    return {"auths": {reg: {"auth": b64s("%s:%s" % (u, t))}}}


@ev("k8s_secret_data_base64")
def _():
    p = strong_pw()
    return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  username: %s\n  password: %s" % (b64s("app"), b64s(p))


@ev("base64_of_pem")
def _():
    return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: git-ssh\ndata:\n  id_ed25519: %s" % b64s(pem("OPENSSH PRIVATE KEY") + "\n")


@ev("pem_body_without_armour")
def _():
    body = pem("EC PRIVATE KEY").split("\n")[1:-1]
    return "signing key material (EC, base64 DER, no header lines):\n" + "\n".join(body)


@ev("pem_lines_as_array")
def _():
    return pem("OPENSSH PRIVATE KEY").split("\n")


@ev("data_uri_base64")
def _():
    lab, t = any_secret()
    return '<a href="data:text/plain;base64,%s">%s</a>' % (b64s(t), pick(["notes.txt", "readme", "creds"]))


@ev("wifi_qr_payload")
def _():
    return "WIFI:T:WPA;S:%s;P:%s;;" % (ssid(), wifi_pw())


@ev("otpauth_percent_encoded")
def _():
    sec = b32secret(32)
    iss = pick(["Coinbase", "Dropbox", "GitHub", "Binance", "Proton", "Kraken", "Discord", "Okta"])
    return "otpauth://totp/%s?secret=%s&issuer=%s" % (urllib.parse.quote(iss + ":" + email_addr()),
                                                      "".join("%%%02X" % ord(c) for c in sec), iss)


@ev("token_in_git_remote")
def _():
    t = pick(["ghs_" + b62(36), "glpat-" + rs(B64U, 20), "ghp_" + b62(36)])
    return "git remote set-url origin https://x-access-token:%s@github.com/%s/%s.git" % (t, pick(COMPANY), pick(["api", "infra", "site"]))


@ev("token_in_debug_log")
def _():
    lab, t = tok()
    return "%sT10:%02d:%02dZ DEBUG urllib3.connectionpool send: b'GET /v1/me HTTP/1.1\\r\\nHost: api.example.com\\r\\nAuthorization: Bearer %s\\r\\nUser-Agent: python-requests/2.31.0\\r\\n\\r\\n'" % (
        rdate(), R.randint(0, 59), R.randint(0, 59), t)


@ev("token_among_utm_params")
def _():
    t = "ya29.a0" + rs(B64U, 120)
    return "https://app.%s.com/export?utm_source=newsletter&utm_medium=email&access_token=%s&utm_campaign=spring_%s&ref=%s" % (
        pick(COMPANY), t, digits(2), rs(ALNUM_LO, 6))


@ev("oauth_fragment_token")
def _():
    t = "ya29.a0" + rs(B64U, 140)
    return "redirected to http://localhost:3000/callback#access_token=%s&token_type=Bearer&expires_in=3599&scope=email" % t


@ev("secret_in_code_comment")
def _():
    p = strong_pw()
    return "def connect():\n    # TODO remove before commit - prod pw is %s\n    return psycopg.connect(os.environ['DSN'])" % p


@ev("secret_in_html_comment")
def _():
    lab, t = tok()
    return '<div id="map"></div>\n<!-- %s for the admin widget: %s -->\n<script src="/app.js"></script>' % (lab, t)


@ev("secret_as_object_key")
def _():
    lab, t = tok()
    return {t: lab, "added": rdate()}


@ev("python_char_list")
def _():
    lab, t = short_tok()
    return "k = %s  # join it" % repr(list(t))


@ev("numbered_positions_shuffled")
def _():
    lab, p = short_pwd()
    pairs = list(enumerate(p, 1))
    R.shuffle(pairs)
    return "%s, by position: %s" % (lab, ", ".join("%d=%s" % (i, c) for i, c in pairs))


@ev("chunks_reverse_order")
def _():
    lab, t = tok()
    cs = chunks(t, 4)
    return "%s chunks, last one first: %s" % (lab, " | ".join(reversed(cs)))


@ev("decoy_list_with_pointer")
def _():
    real = "sk_live_51" + b62(58)
    decoys = ["sk_live_51" + b62(58) for _ in range(3)]
    idx = R.randint(0, 3)
    lst = decoys[:idx] + [real] + decoys[idx:]
    return ["Stripe keys - only #%d is still active, the others are revoked:" % (idx + 1)] + lst


@ev("markdown_table_split")
def _():
    lab, t = tok()
    cs = chunks(t, 3)
    rows = "\n".join("| %d | %s |" % (i + 1, c) for i, c in enumerate(cs))
    return "%s\n\n| seg | value |\n|---|---|\n%s" % (lab, rows)


@ev("csv_columns_split")
def _():
    u, p = pick(FIRST_NAMES).lower(), human_pw()
    a, b = p[: len(p) // 2], p[len(p) // 2:]
    return "system,user,pw_a,pw_b\n%s,%s,%s,%s" % (pick(["vpn", "nas", "payroll"]), u, a, b)


@ev("chat_split_messages")
def _():
    lab, t = tok()
    a, b = t[: len(t) // 2], t[len(t) // 2:]
    n = pick(FIRST_NAMES)
    return "[11:02] %s: sending the %s in two msgs\n[11:02] %s: %s\n[11:03] %s: %s" % (n, lab, n, a, n, b)


@ev("prefix_and_body_separated")
def _():
    pre, body = pick([("sk_live_", b62(99)), ("ghp_", b62(36)), ("xoxb-", "%s-%s-%s" % (digits(12), digits(13), b62(24))), ("glpat-", rs(B64U, 20))])
    return "It's the usual %s prefix, and after that: %s" % (pre, body)


@ev("hard_wrapped_token")
def _():
    lab, t = tok()
    return "Hi, here is the %s you asked for, it wrapped in my mail client:\n%s\nthanks" % (lab, "\n".join(t[i:i + 16] for i in range(0, len(t), 16)))


@ev("json_string_inside_json")
def _():
    lab, t = tok()
    inner = json.dumps({"apiKey": t, "region": "eu"})
    return {"settings": inner, "label": lab}


@ev("base64_json_blob")
def _():
    return "state=%s" % b64s(json.dumps({"user": email_addr(), "password": human_pw(), "remember": True}))


@ev("homoglyph_keyword")
def _():
    kw = homoglyph("password", 1.0)
    return "%s for %s: %s" % (kw, pick(SERVICES), human_pw())


@ev("nbsp_split_secret")
def _():
    lab, t = tok()
    i = len(t) // 2
    return "%s %s\u00a0%s" % (lab, t[:i], t[i:])


@ev("card_split_fields")
def _():
    brand, num, exp, cvv = card()
    return {"first8": num[:8], "rest": num[8:], "exp": exp, "cvc": cvv, "brand": brand}


@ev("card_number_words")
def _():
    brand, num, exp, cvv = card()
    return "%s card: %s, expires %s" % (brand, " ".join(NUMW["en"][int(d)] for d in num), exp)


@ev("sql_insert_password")
def _():
    return "INSERT INTO service_accounts (name, password, created_at) VALUES ('%s', '%s', '%s');" % (
        pick(["reporting", "backup", "etl"]), strong_pw(), rdate())


def acrostic_pw():
    initials = {}
    for w in WORDS + BIP39ISH:
        initials.setdefault(w[0], []).append(w)
    letters = [c for c in LO if c in initials]
    return "".join(pick(letters) for _ in range(R.randint(5, 7))) + digits(2, False), initials


@ev("acrostic")
def _():
    p, initials = acrostic_pw()
    lines = []
    for c in p:
        if c in DIG:
            lines.append("%s %s" % (c, pick(["eggs", "tomatoes", "lemons", "bagels"])))
        else:
            lines.append(pick(initials[c]))
    return "wifi password = first letter of each line\n" + "\n".join(lines)


@ev("hex_colon_separated")
def _():
    lab, t = any_secret()
    return "%s %s" % (lab, ":".join("%02x" % b for b in t.encode()))


@ev("form_body_percent_encoded")
def _():
    p = strong_pw()
    return "POST /login HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nusername=%s&password=%s&remember=1" % (
        urllib.parse.quote(email_addr()), urllib.parse.quote(p, safe=""))


@ev("env_var_indirection")
def _():
    p = strong_pw(20)
    return "PART_A=%s\nPART_B=%s\nDB_PASSWORD=${PART_A}${PART_B}" % (p[:10], p[10:])


@ev("tr_rot13_pipeline")
def _():
    import codecs
    lab, t = tok()
    return "echo '%s' | tr 'A-Za-z' 'N-ZA-Mn-za-m'  # %s" % (codecs.encode(t, "rot13"), lab)


@ev("printf_hex_escapes")
def _():
    lab, t = short_tok()
    return "export TOKEN=$(printf '%s')" % "".join("\\x%02x" % b for b in t.encode())


@ev("powershell_frombase64")
def _():
    p = strong_pw()
    return '$pw = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String("%s"))\nConnect-Server -User svc_backup -Password $pw' % b64s(p)


@ev("split_value_across_array_and_object")
def _():
    lab, t = tok()
    a, b = t[: len(t) // 2], t[len(t) // 2:]
    return [{"label": lab, "head": a}, "tail follows", {"tail": b}]


@ev("layered_b64_rot13")
def _():
    import codecs
    lab, p = pwd()
    return "%s: rot13 first, then base64 -> %s" % (lab, b64s(codecs.encode(p, "rot13")))


@ev("reversed_base64")
def _():
    lab, t = tok()
    return "%s - base64, and the string is reversed: %s" % (lab, b64s(t)[::-1])


@ev("seed_words_shuffled_numbered")
def _():
    ws = [pick(BIP39ISH) for _ in range(12)]
    pairs = list(enumerate(ws, 1))
    R.shuffle(pairs)
    return "%s recovery words (numbered, shuffled on purpose): " % pick(["wallet", "MetaMask", "Ledger"]) + " ".join("%s:%d" % (w, i) for i, w in pairs)


def gen_evasion(n):
    out = []
    for slug, fn in EVASIONS:
        out.append((slug, fn))
    extra = n - len(out)
    assert extra >= 0, (n, len(out))
    pool = [e for e in EVASIONS if e[0] not in ("pin_in_namespace_uid", "secret_prefix_in_record_key")]
    for _ in range(extra):
        out.append(pick(pool))
    recs = []
    for slug, fn in out:
        v = fn()
        r = dict(kind=slug, regen=fn)
        if isinstance(v, dict) and "value" in v and ("ns" in v or "key" in v):
            r.update(v)
        else:
            r["value"] = v
        recs.append(r)
    return recs


# ---------------------------------------------------------------------------
# LOOKALIKE benign families: resemble secrets, contain no usable credential
# ---------------------------------------------------------------------------
LOOKALIKES = []


def lk(slug):
    def deco(fn):
        LOOKALIKES.append((slug, fn))
        return fn
    return deco


AWS_DOC_AKID = "AKIAIOSFODNN7EXAMPLE"
AWS_DOC_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
JWT_IO_SAMPLE = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
                 "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
SLACK_DOC_HOOK = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
VENDORS_SHORT = ["Stripe", "GitHub", "OpenAI", "AWS", "Twilio", "SendGrid", "Slack", "Datadog", "Cloudflare", "Shopify",
                 "HubSpot", "Anthropic", "Mailgun", "GitLab", "npm", "Vercel", "Heroku", "Okta", "Sentry", "Notion"]


def host_user():
    return "%s@%s" % (pick(FIRST_NAMES).lower(), pick(["laptop", "macbook-pro", "thinkpad", "devbox", "ci-runner", "pixelbook"]))


@lk("ssh_ed25519_public_key")
def _():
    k = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(B64, 43) + " " + host_user()
    return pick(["my public key for the server's authorized_keys: %s", "pubkey to add to the repo deploy keys (public half): %s", "%s"]) % k


@lk("ssh_rsa_public_key")
def _():
    return "id_rsa.pub (public, fine to share):\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ" + rs(B64, 520) + " " + host_user()


@lk("authorized_keys_with_options")
def _():
    return 'from="10.0.0.0/8",no-port-forwarding,no-pty ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s backup@%s' % (rs(B64, 43), pick(COMPANY))


@lk("pgp_public_key_block")
def _():
    body = "mQINBG" + rs(B64, 300)
    return "My PGP public key, feel free to encrypt to it:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PUBLIC KEY BLOCK-----" % (wrap64(body), rs(B64, 4))


@lk("x509_certificate")
def _():
    return "%s (public cert):\n%s" % (pick(["server.crt", "ca.pem", "fullchain.pem", "intermediate CA"]), pem("CERTIFICATE", short=True))


@lk("pem_public_key")
def _():
    return "Webhook signature verification public key from the vendor portal:\n" + pem("PUBLIC KEY")


@lk("certificate_signing_request")
def _():
    return "CSR for the new wildcard cert, sent to the CA:\n" + pem("CERTIFICATE REQUEST", short=True)


@lk("age_recipient_public")
def _():
    return "age recipient (public key) for encrypting backups to me: age1" + rs(BECH32, 58)


@lk("wireguard_config_no_private_key")
def _():
    return ("[Interface]\nAddress = 10.8.0.%d/24\nPostUp = wg set %%i private-key /etc/wireguard/private.key\n\n[Peer]\n"
            "PublicKey = %s\nEndpoint = vpn.%s.net:51820\nAllowedIPs = 10.8.0.0/24") % (R.randint(2, 250), b64blob(32), pick(COMPANY))


@lk("ssh_host_key_fingerprint")
def _():
    return "The authenticity of host '%s' can't be established.\nED25519 key fingerprint is SHA256:%s." % (
        pick(["git.internal", "bastion." + pick(COMPANY) + ".net", "192.168.1.20"]), rs(B64, 43))


@lk("known_hosts_entry")
def _():
    return "known_hosts line for the build server: build.%s.internal ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s" % (pick(COMPANY), rs(B64, 43))


@lk("gpg_fingerprint")
def _():
    fp = rs(HEXU, 40)
    return "My GPG key fingerprint: %s (verify before importing)" % " ".join(fp[i:i + 4] for i in range(0, 40, 4))


@lk("cert_pin_sha256")
def _():
    return 'pin-sha256="%s"; max-age=5184000' % (rs(B64, 43) + "=")


@lk("eth_address")
def _():
    return pick(["send the USDC to my address 0x%s", "donations: 0x%s (ETH/Base)", "my public wallet address is 0x%s"]) % hexs(40)


@lk("btc_address")
def _():
    return "BTC receive address (public): bc1q" + rs(BECH32, 38)


@lk("btc_xpub_watch_only")
def _():
    return "xpub for the watch-only wallet in Sparrow (can't spend with it): xpub6" + rs(B58, 106)


@lk("nostr_npub")
def _():
    return "follow me on nostr: npub1" + rs(BECH32, 58)


@lk("minisign_public_key")
def _():
    return "Release signing public key (minisign):\nuntrusted comment: minisign public key %s\nRWQ%s" % (rs(HEXU, 16), rs(B64, 53))


@lk("dkim_dns_record")
def _():
    return "selector1._domainkey.%s.com TXT \"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ%sIDAQAB\"" % (pick(COMPANY), rs(B64, 160))


@lk("site_verification_txt")
def _():
    return "DNS TXT for domain verification: google-site-verification=%s" % rs(B64U, 43)


@lk("jwks_public_keys")
def _():
    return {"keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": hexs(16), "n": rs(B64U, 342), "e": "AQAB"}]}


@lk("saml_metadata_certificate")
def _():
    return '<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>MIIC%s</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>' % rs(B64, 300)


@lk("pgp_signature_block")
def _():
    return "Signed release notes:\n-----BEGIN PGP SIGNATURE-----\n\niQIzBAABCgAdFiEE%s\n=%s\n-----END PGP SIGNATURE-----" % (wrap64(rs(B64, 200)), rs(B64, 4))


@lk("ssh_ca_public_line")
def _():
    return "@cert-authority *.%s.internal ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s ca@%s" % (pick(COMPANY), rs(B64, 43), pick(COMPANY))


@lk("stripe_publishable_key")
def _():
    k = pick(["pk_live_51", "pk_test_51"]) + b62(97)
    return pick(["Stripe publishable key (public, goes in the checkout page): %s", "STRIPE_PUBLISHABLE_KEY=%s  # safe to expose to the browser"]) % k


@lk("mapbox_public_token")
def _():
    return "Mapbox public token (pk, URL-restricted, used in the web map): pk.eyJ1Ijoi%sIn0.%s" % (rs(B64U, 40), rs(B64U, 22))


@lk("firebase_web_config")
def _():
    pid = "%s-%s" % (pick(COMPANY), digits(5))
    return {"comment": "Firebase web config - public by design, access is enforced by security rules",
            "apiKey": "AIza" + rs(B64U, 35), "authDomain": pid + ".firebaseapp.com", "projectId": pid,
            "appId": "1:%s:web:%s" % (digits(12), hexs(22))}


@lk("algolia_search_only_key")
def _():
    return "Algolia app id %s, search-only API key %s (public, it's in the InstantSearch widget)" % (rs(ALNUM_UP, 10), hexs(32))


@lk("supabase_anon_key")
def _():
    t = jwt({"iss": "supabase", "ref": rs(LO, 20), "role": "anon", "iat": R.randint(1690000000, 1720000000), "exp": 2040000000})
    return "NEXT_PUBLIC_SUPABASE_ANON_KEY=%s  # anon key, public; RLS protects the tables" % t


@lk("posthog_project_key")
def _():
    return "posthog.init('phc_%s', {api_host: 'https://eu.i.posthog.com'})  // project key is public" % b62(43)


@lk("sentry_public_dsn")
def _():
    return "Sentry DSN for the browser bundle (public by design): https://%s@o%s.ingest.sentry.io/%s" % (hexs(32), digits(6), digits(7))


@lk("analytics_measurement_ids")
def _():
    return pick(["GA4 measurement ID: G-%s" % rs(ALNUM_UP, 10), "GTM container GTM-%s on all pages" % rs(ALNUM_UP, 7),
                 "Meta Pixel ID %s added to the landing page" % non_luhn_digits(15)])


@lk("captcha_site_key")
def _():
    return pick(["reCAPTCHA site key (public): 6L%s" % rs(B64U, 38), "hCaptcha sitekey (public, in the form HTML) %s" % uuid4(),
                 "Turnstile site key 0x4AAAAAAA%s - the secret key is only on the server" % rs(B64U, 14)])


@lk("razorpay_key_id_public")
def _():
    return "Razorpay key_id for checkout.js: rzp_live_%s (public; key_secret stays on the backend)" % b62(14)


@lk("clerk_publishable_key")
def _():
    return "NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_%s  # publishable key, fine to ship to the browser" % b64s("clerk.%s.com$" % pick(COMPANY)).rstrip("=")


@lk("oauth_client_id_only")
def _():
    return "Google OAuth client ID for the web app: %s-%s.apps.googleusercontent.com (client ID is public; secret not needed for PKCE)" % (
        digits(12), rs(ALNUM_LO, 32))


@lk("auth0_spa_config")
def _():
    return {"domain": "%s.eu.auth0.com" % pick(COMPANY), "clientId": b62(32), "audience": "https://api.%s.com" % pick(COMPANY),
            "note": "SPA config, no client secret"}


@lk("azure_tenant_and_client_ids")
def _():
    return "Azure AD app registration: tenant %s, application (client) id %s. Uses managed identity, no secret." % (uuid4(), uuid4())


@lk("aws_account_and_role_arn")
def _():
    acct = digits(12)
    return "Deploy role: arn:aws:iam::%s:role/%s (account %s, assumed via OIDC)" % (acct, pick(["gh-actions-deploy", "ReadOnly", "TerraformApply"]), acct)


@lk("push_app_ids_public")
def _():
    return pick(["OneSignal App ID %s" % uuid4(), "LaunchDarkly client-side ID %s (safe in the frontend)" % hexs(24),
                 "Expo project id %s" % uuid4()])


@lk("paypal_sdk_client_id")
def _():
    return '<!-- PayPal JS SDK: the client-id is public by design, the secret stays on the server -->\n<script src="https://www.paypal.com/sdk/js?client-id=A%s&currency=EUR"></script>' % rs(B64U, 79)


@lk("browser_maps_key_restricted")
def _():
    return "Google Maps JS key for the store locator - browser key, HTTP-referrer restricted to *.%s.com, it is public in the page source anyway: AIza%s" % (
        pick(COMPANY), rs(B64U, 35))


@lk("aws_docs_example_keys")
def _():
    return pick(["AWS docs example credentials (not real): aws_access_key_id = %s, aws_secret_access_key = %s",
                 "From the AWS CLI user guide, example only:\n[default]\naws_access_key_id = %s\naws_secret_access_key = %s"]) % (AWS_DOC_AKID, AWS_DOC_SECRET)


@lk("jwt_io_sample_token")
def _():
    return pick(["sample token from jwt.io to test the decoder: %s", "jwt.io example JWT (HS256, secret 'your-256-bit-secret'), for the unit test fixture: %s"]) % JWT_IO_SAMPLE


@lk("slack_docs_example_webhook")
def _():
    return "Slack docs example webhook URL format: %s (replace with your own)" % SLACK_DOC_HOOK


@lk("env_template_placeholders")
def _():
    keys = R.sample(["STRIPE_SECRET_KEY", "OPENAI_API_KEY", "DATABASE_URL", "SENDGRID_API_KEY", "JWT_SECRET", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"], 3)
    vals = ["<YOUR_API_KEY>", "your-secret-here", "", "REPLACE_ME", "<paste here>", "xxxxxxxx"]
    return ".env.example\n" + "\n".join("%s=%s" % (k, pick(vals)) for k in keys)


@lk("placeholder_shaped_keys")
def _():
    return pick(["README: set STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx before running",
                 "export OPENAI_API_KEY=sk-...your-key-here...", "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX (placeholder)",
                 "Slack token goes here: xoxb-your-token", "AWS_SECRET_ACCESS_KEY=<your secret access key>",
                 "api_key: 00000000-0000-0000-0000-000000000000  # dummy for tests"])


@lk("docs_connection_string_placeholders")
def _():
    return pick(["postgres://USER:PASSWORD@HOST:5432/DBNAME", "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/",
                 "Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;",
                 "redis://:<password>@localhost:6379/0", "amqp://<user>:<pass>@<host>:5672/<vhost>"]) + \
        pick(["", "  <- format from the docs", " (template)"])


@lk("template_variable_references")
def _():
    return pick(["password: ${DB_PASSWORD}", "token: {{ .Values.github.token }}", "apiKey: '{{ secrets.OPENAI_API_KEY }}'",
                 "set API_KEY=%API_KEY%", "Authorization: Bearer $(API_TOKEN)", "SECRET_KEY = env('DJANGO_SECRET_KEY')",
                 "password = \"{{ vault_db_password }}\"", "client_secret: !env_var AUTH0_CLIENT_SECRET"])


@lk("k8s_secret_key_ref")
def _():
    return ("env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: %s-db\n        key: password\n"
            "  - name: STRIPE_KEY\n    valueFrom:\n      secretKeyRef:\n        name: stripe\n        key: secret") % pick(COMPANY)


@lk("gha_secrets_reference")
def _():
    return "- run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n    SLACK_WEBHOOK_URL: ${{ secrets.SLACK_WEBHOOK_URL }}"


@lk("code_reads_secret_from_env")
def _():
    return pick(['api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
                 "const stripe = require('stripe')(process.env.STRIPE_SECRET_KEY);",
                 'token := os.Getenv("GITHUB_TOKEN")\nif token == "" { log.Fatal("GITHUB_TOKEN not set") }',
                 "password = keyring.get_password('backup-script', 'nas')"])


@lk("code_generates_random_secret")
def _():
    return pick(["generate the session key with: python -c 'import secrets; print(secrets.token_urlsafe(32))'",
                 "openssl rand -hex 32 > /etc/app/jwt.key  # run once on the server",
                 "SECRET_KEY = get_random_secret_key()  # at deploy time, never committed",
                 "head -c 32 /dev/urandom | base64  # for NEXTAUTH_SECRET"])


@lk("vault_cli_reference")
def _():
    return "to get the db password: vault kv get -field=password secret/%s/%s" % (pick(["prod", "staging"]), pick(["postgres", "billing-db", "mysql"]))


@lk("onepassword_reference")
def _():
    return "op read \"op://%s/%s/credential\"  # secret reference, resolved at runtime" % (pick(["Private", "DevOps", "Shared"]), pick(VENDORS_SHORT))


@lk("cloud_secret_manager_ids")
def _():
    return pick(["arn:aws:secretsmanager:eu-west-1:%s:secret:prod/db-%s" % (digits(12), rs(B62, 6)),
                 "projects/%s-%s/secrets/db-password/versions/latest" % (pick(COMPANY), digits(4)),
                 "@Microsoft.KeyVault(SecretUri=https://kv-%s.vault.azure.net/secrets/DbPassword/)" % pick(COMPANY)])


@lk("sops_encrypted_values")
def _():
    return ("db:\n    password: ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]\nsops:\n    age:\n        - recipient: age1%s") % (
        rs(B64, 24), rs(B64, 43) + "=", rs(B64, 22) + "==", rs(BECH32, 58))


@lk("ansible_vault_ciphertext")
def _():
    lines = [hexs(80) for _ in range(5)]
    return "vault_db_password: !vault |\n          $ANSIBLE_VAULT;1.1;AES256\n" + "\n".join("          " + x for x in lines)


@lk("sealed_secret_ciphertext")
def _():
    return "kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgB%s" % rs(B64, 400)


@lk("age_encrypted_file")
def _():
    return "-----BEGIN AGE ENCRYPTED FILE-----\n%s\n-----END AGE ENCRYPTED FILE-----\n(key is on the YubiKey)" % wrap64("YWdlLWVuY3J5cHRpb24ub3JnL3YxCi0+IFgyNTUxOSB" + rs(B64, 200))


@lk("pgp_encrypted_message")
def _():
    return "-----BEGIN PGP MESSAGE-----\n\nhQIMA%s\n=%s\n-----END PGP MESSAGE-----" % (wrap64(rs(B64, 300)), rs(B64, 4))


@lk("kms_ciphertext_blob")
def _():
    return "CiphertextBlob (decrypt with the KMS key, needs IAM): AQICAHh" + rs(B64, 180) + "=="


@lk("jasypt_encrypted_property")
def _():
    return "spring.datasource.password=ENC(%s)\n# decrypted at startup with JASYPT_ENCRYPTOR_PASSWORD from the environment" % rs(B64, 44)


BCRYPT_ALPHA = "./" + UP + LO + DIG


@lk("bcrypt_hash")
def _():
    return pick(["users.password_hash = $2b$12$%s", "bcrypt hash stored in the db (not the password): $2a$10$%s"]) % rs(BCRYPT_ALPHA, 53)


@lk("argon2_hash")
def _():
    return "$argon2id$v=19$m=65536,t=3,p=4$%s$%s" % (rs(B64, 22), rs(B64, 43))


@lk("shadow_sha512_line")
def _():
    return "%s:$6$%s$%s:19%03d:0:99999:7:::" % (pick(["root", "deploy", "anna"]), rs(BCRYPT_ALPHA, 16), rs(BCRYPT_ALPHA, 86), R.randint(100, 999))


@lk("django_pbkdf2_hash")
def _():
    return "pbkdf2_sha256$600000$%s$%s=" % (rs(B62, 22), rs(B64, 43))


@lk("htpasswd_hash_line")
def _():
    return "%s:$apr1$%s$%s" % (pick(["admin", "grafana", "kibana"]), rs(BCRYPT_ALPHA, 8), rs(BCRYPT_ALPHA, 22))


@lk("file_checksums")
def _():
    return pick(["sha256sum: %s  ubuntu-24.04-live-server-amd64.iso" % hexs(64), "MD5 (backup.tar.gz) = %s" % hexs(32),
                 "SHA1 of the firmware: %s" % hexs(40), "checksums.txt\n%s  app-linux-amd64\n%s  app-darwin-arm64" % (hexs(64), hexs(64))])


@lk("sri_integrity_hash")
def _():
    return '<script src="https://cdn.jsdelivr.net/npm/%s" integrity="sha384-%s" crossorigin="anonymous"></script>' % (
        pick(["bootstrap@5.3.3/dist/js/bootstrap.min.js", "alpinejs@3.14.1/dist/cdn.min.js"]), rs(B64, 64))


@lk("container_image_digest")
def _():
    return "pinned image: ghcr.io/%s/api@sha256:%s" % (pick(COMPANY), hexs(64))


@lk("npm_lock_integrity")
def _():
    return {"name": pick(["lodash", "react", "zod", "axios"]), "version": "%d.%d.%d" % (R.randint(1, 18), R.randint(0, 20), R.randint(0, 9)),
            "resolved": "https://registry.npmjs.org/pkg/-/pkg.tgz", "integrity": "sha512-" + rs(B64, 86) + "=="}


@lk("git_commit_sha")
def _():
    return pick(["fixed in commit %s, deployed Tuesday", "bisect says the regression came in with %s", "HEAD is at %s"]) % hexs(40)


@lk("git_log_oneline")
def _():
    msgs = ["fix flaky test", "bump deps", "add retry to webhook handler", "rotate logging config", "remove unused token helper", "docs: typo"]
    return "\n".join("%s %s" % (hexs(7), m) for m in R.sample(msgs, 4))


@lk("ipfs_cid")
def _():
    return "pinned the photos to IPFS: ipfs://bafybei%s" % rs("abcdefghijklmnopqrstuvwxyz234567", 52)


@lk("magnet_infohash")
def _():
    return "magnet:?xt=urn:btih:%s&dn=debian-12.5.0-amd64-netinst.iso" % hexs(40)


@lk("blockchain_tx_hashes")
def _():
    return pick(["BTC withdrawal txid %s (3 confirmations)" % hexs(64),
                 "Etherscan tx hash 0x%s - the refund went through" % hexs(64)])


@lk("request_and_trace_ids")
def _():
    return pick(["support asked for the request id: %s" % uuid4(), "traceparent: 00-%s-%s-01" % (hexs(32), hexs(16)),
                 "X-Request-Id: %s  X-Amzn-Trace-Id: Root=1-%s-%s" % (uuid4(), hexs(8), hexs(24)),
                 "Azure subscription id %s (Pay-As-You-Go)" % uuid4()])


@lk("order_numbers")
def _():
    return pick(["Amazon order %s-%s-%s, arriving Thursday" % (digits(3), digits(7), digits(7)),
                 "IKEA order no. %s - delivery window 8-12" % digits(10), "Zalando Bestellnummer %s" % non_luhn_digits(15),
                 "order #%s from the bakery, pick up Saturday" % digits(5)])


@lk("tracking_numbers")
def _():
    return pick(["UPS tracking 1Z%s" % rs(ALNUM_UP, 16), "USPS tracking %s" % ("9400" + digits(18, False)),
                 "DHL Sendungsnummer %s" % digits(10), "FedEx %s, out for delivery" % digits(12), "Royal Mail %s%sGB" % (rs(UP, 2), digits(9))])


@lk("travel_booking_refs")
def _():
    return pick(["PNR %s - LH 0%d FRA→JFK %s" % (rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 6), R.randint(400, 499), rtime()),
                 "hotel confirmation number %s (booking.com)" % digits(10), "Eurostar booking ref %s, coach 12" % rs(UP, 6),
                 "car rental confirmation %s-%s" % (rs(UP, 2), digits(8)), "e-ticket %s-%s" % (digits(3), digits(10))])


@lk("invoice_and_case_numbers")
def _():
    return pick(["INV-%d-%05d paid on %s" % (R.randint(2023, 2025), R.randint(1, 99999), rdate()), "support case #%s still open" % digits(8),
                 "claim number CLM-%s for the dented bumper" % digits(9), "ticket REQ%s - laptop replacement" % digits(7)])


def iban_de():
    bban = digits(8) + digits(10, False)
    chk = 98 - int(bban + "131400") % 97
    s = "DE%02d%s" % (chk, bban)
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


@lk("iban_for_payment")
def _():
    return pick(["Rent goes to %s, IBAN %s, BIC %s" % (person(), iban_de(), pick(["COBADEFFXXX", "DEUTDEDBBER", "GENODEM1GLS"])),
                 "Pay the plumber's invoice to IBAN %s (ref: INV %s)" % (iban_de(), digits(4))])


@lk("tax_and_vat_ids")
def _():
    return pick(["supplier VAT ID: DE%s" % digits(9), "our EIN for the W-9: %s-%s" % (digits(2), digits(7)),
                 "company registration no. HRB %s" % digits(6)])


@lk("postal_codes")
def _():
    return pick(["new address postcode %s %s" % (rs(UP, 2) + str(R.randint(1, 9)), str(R.randint(1, 9)) + rs(UP, 2)),
                 "PLZ %s Berlin" % digits(5), "ZIP 9%s" % digits(4), "CEP %s-%s" % (digits(5), digits(3)), "〒%s-%s" % (digits(3), digits(4))])


@lk("india_pin_code_postal")
def _():
    return pick(["PIN code %s (Bengaluru office)" % ("560" + digits(3, False)), "पिन कोड %s, दिल्ली" % ("110" + digits(3, False)),
                 "delivery address PIN code: %s" % ("400" + digits(3, False))])


@lk("business_phone_numbers")
def _():
    return pick(["dentist: +44 20 7946 0%s" % digits(3, False), "pizza place +1 555-01%s" % digits(2, False),
                 "Stadtwerke Hotline 030 23125 %s" % digits(3, False), "vet clinic +61 2 5550 %s" % digits(4, False)])


@lk("product_codes")
def _():
    return pick(["SKU %s-%s-%s" % (digits(4), pick(["BLK", "WHT", "NVY"]), pick(["S", "M", "L"])), "ASIN B0%s" % rs(ALNUM_UP, 8),
                 "model WH-1000XM5, part no. %s" % rs(ALNUM_UP, 10), "filter cartridge ref %s-%s" % (rs(UP, 3), digits(4))])


def ean13():
    while True:
        d = digits(12)
        s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(d))
        e = d + str((10 - s % 10) % 10)
        if not luhn_ok(e):
            return e


@lk("barcode_and_isbn")
def _():
    return pick(["EAN %s (the oat milk brand we like)" % ean13(), "ISBN 978-%d-%s-%s-%d" % (R.randint(0, 1), digits(3), digits(5), R.randint(0, 9)),
                 "book club pick ISBN 978-0-%s-%s-%d" % (digits(2), digits(6), R.randint(0, 9))])


@lk("device_serial_numbers")
def _():
    return pick(["dishwasher S/N %s for the warranty claim" % rs(ALNUM_UP, 12), "laptop serial %s" % rs(ALNUM_UP, 10),
                 "VIN %s" % rs("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17), "router serial number %s, model %s" % (rs(ALNUM_UP, 14), pick(["AX3000", "RT-AX58U"]))])


@lk("version_strings")
def _():
    return pick(["upgraded to v%d.%d.%d" % (R.randint(1, 9), R.randint(0, 30), R.randint(0, 15)), "Python 3.%d.%d on the server" % (R.randint(8, 13), R.randint(0, 12)),
                 "release %d.%d.0+sha.%s" % (R.randint(1, 5), R.randint(0, 9), hexs(7)), "iOS 17.%d (build 21F%d)" % (R.randint(0, 6), R.randint(10, 99)),
                 "image tag %d.%02d.%02d-%s" % (R.randint(2023, 2025), R.randint(1, 12), R.randint(1, 28), hexs(7))])


@lk("statement_secret_rotated")
def _():
    v = pick(VENDORS_SHORT)
    return pick(["Rotated the %s key on %s; new one is in 1Password under '%s prod'." % (v, rdate(), v),
                 "%s token rotated after the offboarding, old one revoked. Value lives in Vault (secret/%s)." % (v, v.lower()),
                 "Reminder: %s API key expires %s - rotate it and update the CI secret." % (v, rdate())])


@lk("statement_moved_to_vault")
def _():
    return pick(["DB password moved to AWS Secrets Manager (prod/db), removed from .env and the repo history.",
                 "All CI tokens now come from GitHub Actions secrets; nothing hardcoded anymore.",
                 "The wifi and alarm codes for the holiday flat are in the shared Bitwarden vault, not here.",
                 "Moved my passwords from the Notes app into the password manager, deleted the note."])


@lk("statement_leak_revoked")
def _():
    v = pick(VENDORS_SHORT)
    return "GitHub secret scanning flagged a token for %s in the public repo; revoked within 10 min, incident %s closed." % (v, "SEC-" + digits(3))


@lk("password_policy")
def _():
    return pick(["Password policy: min 12 characters, at least one uppercase, one digit and one symbol; no reuse of the last 5.",
                 "Our SSO requires passphrases of 16+ characters and rotates never unless compromised (NIST 800-63B).",
                 "PINs must be 6 digits, no repeated or sequential digits (no 111111 or 123456).",
                 "bank says online password must be 8-20 chars and can't contain the username"])


@lk("password_validation_regex")
def _():
    return pick([r"PASSWORD_REGEX = r'^(?=.*[A-Z])(?=.*\d)(?=.*[^\w\s]).{12,}$'", r"const strong = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{10,64}$/;"])


@lk("secret_scanner_rules")
def _():
    return pick(['[[rules]]\nid = "github-pat"\nregex = \'\'\'ghp_[0-9a-zA-Z]{36}\'\'\'\nkeywords = ["ghp_"]',
                 "- id: stripe-secret\n  pattern: 'sk_live_[0-9a-zA-Z]{24,99}'\n  severity: critical",
                 "AWS key regex: (A3T[A-Z0-9]|AKIA|ASIA)[A-Z0-9]{16}"])


@lk("masked_key_in_dashboard")
def _():
    return pick(["OpenAI dashboard: key 'laptop' sk-...%s created %s, last used today" % (b62(4), rdate()),
                 "Stripe shows the restricted key as rk_live_...%s" % b62(4),
                 "GitHub token 'ci-release' (ghp_****%s) expires in 7 days" % b62(4)])


@lk("masked_card_number")
def _():
    return pick(["Visa ending %s, exp %02d/%02d" % (digits(4, False), R.randint(1, 12), R.randint(26, 30)),
                 "card **** **** **** %s was charged twice" % digits(4, False), "Amex xxxx-xxxxxx-x%s" % digits(4, False)])


@lk("redacted_values")
def _():
    return pick(["password: ********", "token=[REDACTED] user=ci-bot", "Authorization: Bearer ***", "DB_PASSWORD=<redacted>",
                 "api_key: '•••••••••••••'"])


@lk("secret_metadata_only")
def _():
    return pick(["the Mailgun key is 32 hex characters plus two 8-char groups; ours was created in March",
                 "the new API key starts with 'sk-' and is about 160 characters; it's in the team vault",
                 "wifi password is 12 characters, mix of letters and numbers (ask Anna for it)"])


@lk("base64_benign_content")
def _():
    text = pick(["shopping: eggs, flour, milk", "Happy birthday Omar!", "hello world", "{\"theme\":\"dark\",\"lang\":\"en\"}",
                 "meeting moved to 3pm", "The quick brown fox jumps over the lazy dog"])
    return pick(["b64 test payload for the API: %s", "base64 of the sample body: %s", "decoded this from the email header, it was just %s"]) % b64s(text)


@lk("hex_benign_content")
def _():
    text = pick(["Hello", "OK", "ping", "GET /", "JFIF"])
    return pick(["magic bytes %s at offset 0", "the packet payload was %s (just 'ping')", "hex dump shows %s"]) % text.encode().hex()


@lk("rot13_spoiler")
def _():
    import codecs
    return "spoiler (rot13): " + codecs.encode(pick(["Snape kills Dumbledore", "the butler did it", "they were dead all along", "the answer to the riddle is a candle"]), "rot13")


@lk("morse_and_binary_decor")
def _():
    return pick(["bracelet engraving in morse: .-.. --- ...- . / -.-- --- ..-", "t-shirt says 01001000 01101001 (\"Hi\")",
                 "tattoo idea: ... --- ... in tiny dots"])


@lk("spoken_numbers_not_codes")
def _():
    return pick(["flight leaves at seven forty-five, gate twenty-two", "the tram is number nine, three stops",
                 "hotel room three-oh-four", "the office extension is four-four-one-seven, ask for billing"])


@lk("four_digit_non_codes")
def _():
    return pick(["gate B%d" % R.randint(10, 60), "room %d" % R.randint(1000, 1999), "office extension %s" % digits(4),
                 "we moved here in %d" % R.randint(1990, 2020), "bus %d to the airport" % R.randint(100, 999), "seat %d%s" % (R.randint(1, 40), pick("ABCDEF"))])


@lk("meeting_id_without_passcode")
def _():
    return pick(["Zoom webinar ID %s (public registration link, no passcode)" % zoom_id(),
                 "Google Meet for standup: meet.google.com/%s-%s-%s" % (rs(LO, 3), rs(LO, 4), rs(LO, 3)),
                 "Teams town hall is a live event - join from the calendar invite, no code needed"])


@lk("open_wifi_network")
def _():
    return pick(["WIFI:T:nopass;S:%s;;" % pick(["CafeGuest", "Library-Free", "Airport_Free_WiFi"]),
                 "hotel wifi is open, just accept the terms on the captive portal", "train wifi: network 'WIFIonICE', no password"])


@lk("wifi_password_location_only")
def _():
    return pick(["wifi password is on the sticker under the router", "the guest wifi password is printed on the fridge magnet",
                 "ask reception for the wifi code, it changes daily", "the wifi password is on the back of the modem (%s)" % ssid()])


@lk("ssid_only")
def _():
    return pick(["our new network name is %s" % ssid(), "the printer only sees the 2.4 GHz network (%s)" % ssid(), "renamed the wifi to %s" % ssid()])


@lk("otp_without_value")
def _():
    return pick(["the OTP expired before I could type it, requested another one", "bank sends the verification code to the old number - update it",
                 "never read the SMS code out to anyone who calls - that's the scam"])


@lk("twofa_setup_without_seed")
def _():
    return pick(["Set up 2FA on GitHub with the YubiKey; backup codes printed and in the safe deposit box",
                 "moved all TOTP accounts from Google Authenticator to Aegis, export is encrypted on the NAS",
                 "seed phrase for the hardware wallet is on the steel plate in the drawer, not written anywhere else"])


@lk("gift_card_without_code")
def _():
    return pick(["gift card balance: €%d.%02d left (code already redeemed)" % (R.randint(3, 80), R.randint(0, 99)),
                 "Amazon voucher from the team was applied to my account, balance $%d" % R.randint(10, 100),
                 "bought a Steam gift card for %s's birthday, will give it in person" % pick(FIRST_NAMES)])


@lk("promo_and_referral_codes")
def _():
    return pick(["discount code %s%d for %d%% off at the bike shop" % (pick(["SUMMER", "WELCOME", "SPRING", "BLACKFRIDAY"]), R.randint(10, 30), R.randint(10, 30)),
                 "referral code %s%s gives both of us a free month" % (pick(FIRST_NAMES).upper(), digits(3)),
                 "coupon FREESHIP on orders over $50"])


@lk("gaming_ids_public")
def _():
    return pick(["Switch friend code SW-%s-%s-%s" % (digits(4), digits(4), digits(4)), "my PSN ID is %s" % (pick(WORDS).capitalize() + pick(["Fox", "Wolf", "_92", "X"])),
                 "Steam friend code %s" % digits(9), "Discord user id %s" % digits(18)])


@lk("network_addresses")
def _():
    return pick(["NAS at 192.168.1.%d, MAC %s" % (R.randint(2, 250), ":".join(hexs(2) for _ in range(6))),
                 "Grafana at grafana.internal:3000, Prometheus on :9090", "VPN subnet 10.8.0.0/24, DNS 10.8.0.1",
                 "IPv6 prefix 2001:db8:%s::/48" % hexs(4)])


@lk("stripe_object_ids")
def _():
    return pick(["refund for customer cus_%s, charge ch_%s" % (b62(14), b62(24)), "PaymentIntent pi_%s failed with card_declined" % b62(24),
                 "price_%s is the yearly plan" % b62(24), "webhook endpoint we_%s receives invoice.paid" % b62(24)])


@lk("cloud_resource_ids")
def _():
    return pick(["instance i-0%s in subnet-%s, sg-%s" % (hexs(16), hexs(17), hexs(17)), "ami-0%s is the hardened image" % hexs(16),
                 "GCP project %s-%s-%s" % (pick(COMPANY), pick(WORDS), digits(6)), "KMS key arn:aws:kms:eu-west-1:%s:key/%s" % (digits(12), uuid4())])


@lk("chat_platform_ids")
def _():
    return pick(["Slack channel C%s, my user id U%s" % (rs(ALNUM_UP, 10), rs(ALNUM_UP, 10)),
                 "permalink https://%s.slack.com/archives/C%s/p%s" % (pick(COMPANY), rs(ALNUM_UP, 10), digits(16)),
                 "Twilio number SID PN%s (identifier, not a secret)" % hexs(32)])


@lk("git_remote_without_credentials")
def _():
    return pick(["git@github.com:%s/%s.git" % (pick(COMPANY), pick(["api", "web", "infra"])), "https://gitlab.com/%s/%s.git (uses SSH key auth)" % (pick(COMPANY), pick(["site", "ops"]))])


@lk("ssh_config_identityfile")
def _():
    return "Host %s\n  HostName %s\n  User deploy\n  IdentityFile ~/.ssh/id_ed25519\n  IdentitiesOnly yes" % (pick(["prod", "bastion", "pi"]), host())


@lk("registry_config_env_token")
def _():
    return pick(["//registry.npmjs.org/:_authToken=${NPM_TOKEN}", "[global]\nindex-url = https://pypi.org/simple\ntimeout = 60",
                 "<server>\n  <id>ossrh</id>\n  <username>${env.MAVEN_USERNAME}</username>\n  <password>${env.MAVEN_PASSWORD}</password>\n</server>"])


@lk("compose_env_file_reference")
def _():
    return "services:\n  api:\n    image: %s/api:latest\n    env_file:\n      - .env.production\n    secrets:\n      - db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt" % pick(COMPANY)


@lk("kubeconfig_exec_plugin")
def _():
    return ("users:\n- name: eks-prod\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n"
            "      args: [eks, get-token, --cluster-name, prod]")


@lk("terraform_sensitive_variable")
def _():
    return 'variable "db_password" {\n  type      = string\n  sensitive = true\n  description = "Set via TF_VAR_db_password in CI"\n}'


@lk("csp_nonce_header")
def _():
    return "Content-Security-Policy: script-src 'self' 'nonce-%s'; object-src 'none'" % b64blob(16)


@lk("http_cache_headers")
def _():
    return pick(['ETag: W/"%s"' % hexs(32), "Content-MD5: %s" % b64blob(16), "cache key %s for /api/products" % hexs(40),
                 "built assets: main.%s.js, vendor.%s.css" % (hexs(8), hexs(8))])


@lk("random_seeds_and_numbers")
def _():
    return pick(["random_state=%d for the train/test split" % R.randint(0, 9999), "lotto picks: %s" % " ".join(str(x) for x in sorted(R.sample(range(1, 50), 6))),
                 "Minecraft seed %s" % digits(R.randint(9, 12)), "sudoku #%d from the app, rated hard" % R.randint(100, 9999)])


@lk("spelling_list_like_seed_phrase")
def _():
    ws = R.sample(BIP39ISH, 12)
    return pick(["%s's spelling test words this week: %s", "Scrabble practice list for %s: %s", "vocab flashcards for %s: %s"]) % (pick(FIRST_NAMES), ", ".join(ws))


@lk("personal_ids_not_credentials")
def _():
    return pick(["passport no. %s%s, expires %s (for the visa form)" % (rs(UP, 2), digits(7), rdate(2027, 2033)),
                 "health insurance member ID %s%s" % (rs(UP, 3), digits(9)), "frequent flyer number %s" % non_luhn_digits(9),
                 "library card %s" % non_luhn_digits(14)])


@lk("locker_or_box_number_only")
def _():
    return pick(["my gym locker is number %d (I use my own padlock with a key)" % R.randint(1, 300), "buzz 'Schmidt' at the intercom, apartment 4B",
                 "parking spot %d on level -2" % R.randint(1, 200), "storage unit %s%d, key is on my keyring" % (pick("ABCD"), R.randint(1, 99))])


@lk("error_and_status_codes")
def _():
    return pick(["Windows update fails with error 0x80070005", "API returns HTTP 401 when the token header is missing",
                 "washing machine shows E%d - filter blocked" % R.randint(10, 30), "car shows code P0%d" % R.randint(100, 999)])


@lk("keyboard_and_music_keys")
def _():
    return pick(["Ctrl+Shift+K deletes the line in VS Code", "capo 2, song is in the key of D minor", "the key change is after the bridge",
                 "macOS: Cmd+Option+Esc to force quit"])


@lk("non_credential_tokens")
def _():
    return pick(["model has a 200k token context window", "design tokens: --color-primary: #%s; --radius: 8px" % hexs(6),
                 "arcade tokens left: %d" % R.randint(1, 20), "tokenizer splits 'unbelievable' into 3 tokens"])


@lk("secret_santa_and_surprises")
def _():
    return pick(["Secret Santa: I got %s, budget £20" % pick(FIRST_NAMES), "surprise party for %s is a secret - don't mention it at dinner" % pick(FIRST_NAMES),
                 "the secret ingredient in Nonna's sauce is a pinch of cinnamon"])


@lk("api_docs_placeholder_header")
def _():
    return pick(['curl -H "Authorization: Bearer $TOKEN" https://api.%s.com/v1/me' % pick(COMPANY),
                 "All requests need the header `X-API-Key: <your key>`; keys are created in Settings > API.",
                 "Authenticate with HTTP Basic: username = your email, password = an API token (never your login password)."])


@lk("jwt_decoded_claims_only")
def _():
    return {"decoded_header": {"alg": "RS256", "kid": hexs(8)},
            "decoded_payload": {"sub": uuid4(), "iss": "https://login.%s.com" % pick(COMPANY), "exp": R.randint(1700000000, 1800000000), "scope": "read:orders"},
            "note": "why does the token expire so fast? (token itself not saved)"}


@lk("hibp_hash_prefix")
def _():
    return "HIBP range query uses only the first 5 hex chars of the SHA-1, e.g. GET /range/%s" % rs(HEXU, 5)


@lk("crypto_algorithm_notes")
def _():
    return pick(["we use AES-256-GCM with a 96-bit random nonce per message; keys live in KMS",
                 "TLS policy: TLS_AES_256_GCM_SHA384 and TLS_CHACHA20_POLY1305_SHA256 only", "JA3 of the bot traffic: %s" % hexs(32),
                 "Ed25519 signatures are 64 bytes, public keys 32 bytes"])


@lk("sudoers_and_sshd_config")
def _():
    return pick(["%deploy ALL=(ALL) NOPASSWD: /usr/bin/systemctl restart app", "sshd_config: PasswordAuthentication no\nPermitRootLogin prohibit-password",
                 "pg_hba.conf: host all all 10.0.0.0/8 scram-sha-256"])


@lk("doi_cve_arxiv_ids")
def _():
    return pick(["CVE-%d-%d patched in the base image" % (R.randint(2021, 2025), R.randint(1000, 49999)), "paper DOI 10.%d/%s.%d" % (R.randint(1000, 9999), rs(LO, 6), R.randint(100, 9999)),
                 "arXiv:%d%02d.%05d" % (R.randint(19, 25), R.randint(1, 12), R.randint(1, 20000))])


@lk("media_and_doc_ids")
def _():
    return pick(["https://www.youtube.com/watch?v=%s" % rs(B64U, 11), "https://open.spotify.com/track/%s" % b62(22),
                 "https://docs.google.com/document/d/%s/edit (shared with the team already)" % rs(B64U, 44),
                 "Figma file https://www.figma.com/file/%s/Onboarding" % b62(22)])


@lk("data_uri_image")
def _():
    return '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAA%s" alt="logo">' % rs(B64, 120)


@lk("color_and_css_hex")
def _():
    return "brand palette: #%s, #%s, #%s, accent #%s" % (hexs(6), hexs(6), hexs(6), hexs(6))


@lk("cron_and_regex")
def _():
    return pick(["backup cron: 0 3 * * 1-5 /usr/local/bin/backup.sh", r"email regex: ^[\w.+-]+@[\w-]+\.[\w.]+$", "*/15 * * * * curl -fsS https://hc-ping.com/$HC_UUID"])


@lk("license_and_legal_ids")
def _():
    return pick(["SPDX-License-Identifier: Apache-2.0", "trademark reg. no. %s" % digits(8), "LEI %s" % rs(ALNUM_UP, 20)])


@lk("encoded_benign_url")
def _():
    return "https://www.google.com/maps/search/?api=1&query=%s" % urllib.parse.quote(pick(["Café de Flore, Paris", "Sagrada Família", "Shibuya Crossing"]))


@lk("uuid_device_ids")
def _():
    return pick(["AirTag on the suitcase: serial %s" % rs(ALNUM_UP, 12), "Home Assistant device id %s" % hexs(32),
                 "Tile tracker id %s" % uuid4(), "Zigbee IEEE 0x%s" % hexs(16)])


@lk("changelog_security_notes")
def _():
    return pick(["CHANGELOG: removed hardcoded credentials from scripts/; all secrets now read from env",
                 "v2.3.1 - fix: tokens no longer logged at DEBUG level", "security: bumped bcrypt cost factor from 10 to 12"])


@lk("keyring_and_keychain_calls")
def _():
    return pick(["security find-generic-password -s 'wifi-home' -w  # prints it from Keychain when needed",
                 "secret-tool lookup service smtp user anna", "git config --global credential.helper osxkeychain"])


@lk("password_manager_csv_header")
def _():
    return "Bitwarden export columns: folder,favorite,type,name,notes,fields,login_uri,login_username,login_password,login_totp"


@lk("signed_url_expired_notice")
def _():
    return "the S3 link they sent expired (X-Amz-Expires=3600), asked for a new one"


@lk("homoglyph_benign_text")
def _():
    return homoglyph(pick(["coffee at 3", "pay the electricity bill", "book the vet for Max"]), 0.8) + " (pasted from a Cyrillic keyboard)"


@lk("zero_width_benign_text")
def _():
    return "\u200b".join(pick(["dinner", "laundry", "groceries"])) + " - weird spacing from copy-paste"


@lk("fullwidth_benign_text")
def _():
    t = pick(["Order #4417 shipped", "Meeting Room B", "Gate 22"])
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in t)


@lk("split_benign_fields")
def _():
    return {"part1": pick(["Pick up ", "Call ", "Email "]), "part2": pick(["the dry cleaning", "the landlord", "the school"]), "note": "part1 + part2 = reminder"}


@lk("reversed_benign_text")
def _():
    return "read backwards: " + pick(["tea at five", "happy anniversary", "walk the dog"])[::-1]


@lk("charcode_benign")
def _():
    t = pick(["hi mum", "ok", "thanks"])
    return "String.fromCharCode(%s)  // easter egg in the footer" % ",".join(str(ord(c)) for c in t)


@lk("caesar_benign_puzzle")
def _():
    t = pick(["meet at the old oak tree", "treasure is under the slide", "happy birthday"])
    return "kids' treasure hunt clue (shift 3): " + caesar(t, 3)


@lk("arithmetic_not_code")
def _():
    a, b = R.randint(20, 90), R.randint(20, 90)
    return "split the bill: %d + %d = %d, so %.2f each" % (a, b, a + b, (a + b) / 2)


@lk("otpauth_docs_format")
def _():
    return "otpauth URI format (docs): otpauth://totp/ISSUER:ACCOUNT?secret=BASE32SECRET&issuer=ISSUER"


@lk("card_docs_test_description")
def _():
    return "checkout QA: use the provider's documented test card numbers from their testing page; never real cards in staging"


I18N_NO_VALUE = [
    ("de", "Habe gestern die PIN meiner Bankkarte geändert."), ("es", "La contraseña del wifi está en la nevera."),
    ("fr", "Le code de la porte a changé, demander au gardien."), ("it", "Ho spostato tutte le password nel gestore di password."),
    ("pt", "O código do portão foi trocado, o síndico manda o novo amanhã."), ("pl", "Zmieniłam hasło do banku w poniedziałek."),
    ("tr", "Wifi şifresi modemin arkasında yazıyor."), ("id", "Kode OTP sudah kedaluwarsa, minta kirim ulang."),
    ("vi", "Mật khẩu wifi dán ở sau cục phát."), ("sw", "Nimebadilisha PIN ya M-Pesa jana."),
    ("ru", "Пароль от почты лежит в менеджере паролей."), ("el", "Άλλαξα τον κωδικό του συναγερμού, θα σου τον πω από κοντά."),
    ("he", "החלפתי את הסיסמה לבנק אתמול."), ("ar", "كلمة سر الواي فاي مكتوبة على الراوتر."),
    ("fa", "رمز کارت را عوض کردم، یادم باشد به کسی نگویم."), ("hi", "बैंक का पिन कल बदल दिया।"),
    ("bn", "ওয়াইফাই পাসওয়ার্ড রাউটারের পেছনে লেখা আছে।"), ("ta", "ஏடிஎம் பின் மாற்றிவிட்டேன்."),
    ("zh", "验证码过期了，重新发一个。"), ("ja", "パスワードはパスワードマネージャーに移した。"),
    ("ko", "현관 비밀번호 바뀌었대, 관리실에 물어보기."), ("th", "รหัสไวไฟอยู่หลังเราเตอร์"),
]


@lk("i18n_no_value_statement")
def _():
    return pick(I18N_NO_VALUE)[1]


I18N_IDS = [
    "Numéro de commande : %s" % "{d9}", "Buchungsnummer %s" % "{u6}", "Número de seguimiento: %s" % "{d12}",
    "訂單編號：%s" % "{d12}", "注文番号：%s-%s" % ("{d3}", "{d7}"), "주문번호 %s" % "{d14}", "Номер заказа %s" % "{d10}",
    "رقم الطلب: %s" % "{d9}", "ऑर्डर नंबर: %s" % "{d11}", "Sipariş numarası: %s" % "{d10}", "Kode booking: %s" % "{u6}",
]


@lk("i18n_order_numbers")
def _():
    t = pick(I18N_IDS)
    return re.sub(r"\{(d|u)(\d+)\}", lambda m: (non_luhn_digits(int(m.group(2))) if m.group(1) == "d" else rs(ALNUM_UP, int(m.group(2)))), t)


def gen_lookalike(n):
    out = []
    for s, f in LOOKALIKES:
        if s == "i18n_no_value_statement":
            out += [(s, (lambda t=t: t)) for _, t in I18N_NO_VALUE]
        elif s == "i18n_order_numbers":
            out += [(s, (lambda t=t: re.sub(r"\{(d|u)(\d+)\}", lambda m: (non_luhn_digits(int(m.group(2))) if m.group(1) == "d"
                                                                      else rs(ALNUM_UP, int(m.group(2)))), t))) for t in I18N_IDS]
        else:
            out.append((s, f))
    rnd = [(s, f) for s, f in LOOKALIKES if not s.startswith("i18n_")]
    while len(out) < n:
        out.append(pick(rnd))
    return [dict(kind=s, value=f(), regen=f) for s, f in out[:n]]


# ---------------------------------------------------------------------------
# ORDINARY benign memories
# ---------------------------------------------------------------------------
FOODS = ["pad thai", "mushroom risotto", "shakshuka", "chicken tikka", "ramen", "falafel wraps", "lasagna", "pho", "tacos al pastor",
         "dal makhani", "bibimbap", "moussaka", "jollof rice", "pierogi", "paella", "katsu curry"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
DRUGS = [("levothyroxine", "50 mcg"), ("metformin", "500 mg"), ("vitamin D", "1000 IU"), ("ibuprofen", "400 mg"), ("cetirizine", "10 mg"),
         ("amoxicillin", "500 mg"), ("omeprazole", "20 mg"), ("iron", "65 mg")]
BOOKS = ["Piranesi", "The Overstory", "Project Hail Mary", "Klara and the Sun", "Tomorrow, and Tomorrow, and Tomorrow", "The Name of the Rose",
         "Pachinko", "Educated", "The Left Hand of Darkness", "Station Eleven"]
SHOWS = ["Severance", "The Bear", "Dark", "Shōgun", "Slow Horses", "Arcane", "Money Heist", "Squid Game", "Fleabag", "Only Murders in the Building"]
PLANTS = ["monstera", "fiddle leaf fig", "basil", "orchid", "snake plant", "tomato seedlings", "peace lily"]

ORD_TPL = [
    ("preference", "I prefer {food} over pizza on Fridays"), ("preference", "{name} takes her coffee black, no sugar"),
    ("preference", "likes window seats, hates red-eye flights"), ("preference", "prefers replies in bullet points, short"),
    ("preference", "favourite color is {color}; avoid yellow for the nursery"), ("preference", "{name} is vegetarian but eats fish"),
    ("preference", "wants the standup notes in German when possible"), ("preference", "sleeps better with the window open, 18°C"),
    ("health", "allergic to penicillin - tell every new doctor"), ("health", "take {drug} {dose} every morning before breakfast"),
    ("health", "dentist appointment {day} at {time} with Dr. {last}"), ("health", "blood pressure this morning 122/79, pulse 64"),
    ("health", "{name} has a mild peanut allergy, EpiPen in the red bag"), ("health", "physio exercises: 3x10 bridges, 3x12 clamshells"),
    ("health", "flu shot done on {date}, next one in October"), ("health", "eye test result: -1.75 left, -2.00 right"),
    ("health", "the GP said to cut back on caffeine after 2pm"), ("health", "asthma inhaler refill due around {date}"),
    ("travel", "flight to {city} on {date}, departs {time}, window seat 23A"), ("travel", "hotel in {city} is near the old town, check-in after 3pm"),
    ("travel", "need an adapter type G for the UK trip"), ("travel", "visa appointment at the consulate {day} {time}, bring 2 photos"),
    ("travel", "train from {city} to {city2} takes about 2h40"), ("travel", "rent a car in {city}? compare prices first"),
    ("travel", "packing list: charger, passport, sunscreen, swimsuit, meds"), ("travel", "{name} lands at {time}, terminal 2, pick her up"),
    ("work", "1:1 with {name} every {day} at {time}"), ("work", "Q3 goal: cut p95 latency of the search API below 200 ms"),
    ("work", "{name} is the new engineering manager starting {date}"), ("work", "standup moved to {time} from next week"),
    ("work", "the design review for onboarding is on {day}; bring the Figma link"), ("work", "expense report for the {city} trip due Friday"),
    ("work", "prefer Postgres over MySQL for the new service - team agreed"), ("work", "on-call rotation: I'm primary the week of {date}"),
    ("work", "the client wants the invoice in EUR, net 30"), ("work", "deploy freeze from Dec 20 to Jan 3"),
    ("work", "use conventional commits in the {proj} repo"), ("work", "the staging cluster gets rebuilt every Sunday night"),
    ("recipe", "Grandma's {food}: double the garlic, half the salt"), ("recipe", "banana bread: 3 ripe bananas, 250 g flour, 180°C for 55 min"),
    ("recipe", "pizza dough: 500 g flour, 325 ml water, 10 g salt, 3 g yeast, 24h cold proof"), ("recipe", "cold brew ratio 1:8, steep 16 hours"),
    ("recipe", "the {food} recipe from the cooking class used smoked paprika"), ("recipe", "rice: 1 cup rice to 1.25 cups water, 12 min, rest 10"),
    ("recipe", "hummus: soak chickpeas overnight, add ice water while blending"), ("recipe", "kimchi needs 3 days at room temperature before the fridge"),
    ("schedule", "{name}'s swimming lessons {day}s at {time}"), ("schedule", "bins go out {day} night, recycling every other week"),
    ("schedule", "piano recital on {date} at {time}"), ("schedule", "parent-teacher meeting {day} {time}, room 12"),
    ("schedule", "gym: legs on {day}, upper body on {day2}"), ("schedule", "book club meets the first {day} of the month"),
    ("schedule", "car service due on {date}"), ("schedule", "water the {plant} every {day}"),
    ("family", "{name}'s birthday is on {date2}; she wants a {gift}"), ("family", "{name} and {name2} are coming for dinner {day}"),
    ("family", "Mum's shoe size is 38, she likes {color} scarves"), ("family", "{name} started kindergarten on {date}"),
    ("family", "anniversary dinner at the Italian place on {date2}"), ("family", "{name}'s teacher is Ms. {last}"),
    ("pets", "{pet} needs the flea treatment monthly, next on {date}"), ("pets", "vet said {pet} should lose 1 kg"),
    ("pets", "{pet} eats 2 scoops in the morning, 1 at night"), ("pets", "dog sitter {name} charges 25 a day"),
    ("home", "the boiler service is booked for {day} morning"), ("home", "paint for the hallway: {color}, eggshell finish"),
    ("home", "the dishwasher needs the rinse aid refilled"), ("home", "landlord {name} prefers WhatsApp over email"),
    ("home", "smoke alarm batteries replaced {date}"), ("home", "the leak under the sink is fixed, plumber came {day}"),
    ("shopping", "buy: oat milk, eggs, spinach, rice, lemons"), ("shopping", "need new running shoes, size 43, neutral"),
    ("shopping", "compare prices for a {item} before Black Friday"), ("shopping", "return the blue jacket by {date}"),
    ("learning", "Spanish: practise the subjunctive, 15 min a day"), ("learning", "finish chapter 4 of the stats course by {day}"),
    ("learning", "guitar: learn the F barre chord properly"), ("learning", "Japanese N4 exam is on {date}"),
    ("media", "started reading {book}"), ("media", "finish watching {show} season 2"), ("media", "{name} recommended {book}"),
    ("media", "podcast about sleep science was great, episode 142"), ("fitness", "ran 5k in 27:40 today, new PB"),
    ("fitness", "goal: 10,000 steps a day this month"), ("fitness", "yoga class {day}s {time} at the community centre"),
    ("car", "tyre pressure 2.4 bar front, 2.2 rear"), ("car", "the car's next MOT is due {date}"), ("car", "parking at the station costs 6 a day"),
    ("gifts", "gift idea for {name}: {gift}"), ("gifts", "{name} already has {book}, don't buy it again"),
    ("finance", "monthly budget: groceries 450, transport 120, eating out 150"), ("finance", "electricity bill went up to 94 a month"),
    ("finance", "salary is paid on the 25th"), ("finance", "remember to file the tax return before {date}"),
    ("finance", "split the holiday rental with {name}: 340 each"), ("finance", "switched to the cheaper phone plan, 12/month"),
    ("misc", "the library closes at 6 on Saturdays"), ("misc", "{name}'s new address is on Elm Street, number 14"),
    ("misc", "{name}'s email is {email}"), ("misc", "{name}'s mobile number is +44 7700 900{n3}"),
    ("misc", "favourite bakery is on the corner of 5th and Main"), ("misc", "the farmer's market is on {day}s until noon"),
]

PASSING = [
    "changed my bank PIN yesterday", "the wifi password is on the fridge", "need to reset my Netflix password, locked out again",
    "remind me to turn on 2FA for the email account", "the alarm company is coming to change the code on {day}",
    "{name} forgot the door code again, I'll text it to her later", "password manager subscription renews on {date}",
    "IT says passwords expire every 90 days now", "got a phishing email asking for my PayPal password - reported it",
    "the new garage opener has a keypad, need to set a code", "keys for the rental are in the lockbox, host will send the code on the day",
    "ask {name} for the guest wifi password when we arrive", "the API key for the side project expired, generate a new one next week",
    "never share OTP codes over the phone - bank reminder", "update the recovery email on my Google account",
    "bought a new bike lock, the combination one", "the safe in the hotel room didn't work, called reception",
    "need to find the PUK code for the old SIM (it's on the card holder)", "locked my card in the app after losing my wallet, new one ordered",
    "{name} set up Face ID so no more typing the passcode", "rotate the SSH keys on the home server this weekend",
    "the gym changed the locker system to app-based", "the school portal wants a stronger password now",
    "the token for the weather station expired, renew it in the dashboard", "my work laptop asks for the BitLocker recovery key after the update - call IT",
]

I18N_ORD = [
    ("es", "Cumpleaños de Lucía el 14 de mayo, quiere un libro de cocina."), ("es", "Cita con el dentista el martes a las 10:30."),
    ("fr", "Acheter du pain, du fromage et des tomates pour ce soir."), ("fr", "Réunion parents-professeurs jeudi à 18h."),
    ("de", "Müll rausbringen am Dienstagabend, Papier jede zweite Woche."), ("de", "Katrin kommt am Samstag zum Abendessen, sie ist Vegetarierin."),
    ("it", "Ricetta della nonna: ragù, cuocere almeno tre ore."), ("it", "Prenotare il tagliando della macchina a settembre."),
    ("pt", "Consulta no pediatra na quarta às 10h."), ("pt", "Comprar ração para o {pet} e areia para o gato."),
    ("pl", "Wizyta u lekarza w piątek o 9:30."), ("pl", "Urodziny mamy w sobotę, kupić kwiaty."),
    ("tr", "Cuma akşamı Ayşe ile yemek, saat 8'de."), ("tr", "Annemin ilacı her sabah kahvaltıdan önce."),
    ("id", "Jadwal arisan keluarga hari Minggu jam 4 sore."), ("id", "Beli beras, telur, dan minyak goreng."),
    ("vi", "Thứ bảy đưa con đi học bơi lúc 8 giờ."), ("vi", "Nhớ gọi điện cho bà nội vào Chủ nhật."),
    ("sw", "Mkutano wa wazazi shuleni Alhamisi saa nane."), ("sw", "Nunua unga, sukari na maziwa."),
    ("ru", "Записаться к стоматологу на следующей неделе."), ("ru", "День рождения Лены — 12 апреля, подарить книгу."),
    ("el", "Το Σάββατο τραπέζι στους γονείς στις 2."), ("el", "Να πάρω ψωμί και φέτα για την πίτα."),
    ("he", "לקבוע תור לרופא שיניים ביום ראשון."), ("he", "יום הולדת לאמא ביום שישי, להזמין עוגה."),
    ("ar", "موعد الطبيب يوم الأحد الساعة العاشرة."), ("ar", "شراء خبز وحليب وبيض."),
    ("fa", "جمعه شام خانه‌ی مادربزرگ هستیم."), ("fa", "قرص ویتامین دی هفته‌ای یک بار."),
    ("hi", "रविवार को दादी से मिलने जाना है।"), ("hi", "बच्चों की स्कूल फीस 10 तारीख तक जमा करनी है।"),
    ("bn", "শুক্রবার সন্ধ্যায় মামার বাসায় দাওয়াত।"), ("bn", "বাজার: চাল, ডাল, পেঁয়াজ, আলু।"),
    ("ta", "வெள்ளிக்கிழமை கோவிலுக்கு செல்ல வேண்டும்."), ("ta", "அம்மாவின் மருந்து காலை உணவுக்குப் பிறகு."),
    ("zh", "周六下午带孩子去游泳课。"), ("zh", "记得给奶奶打电话，她生日快到了。"),
    ("ja", "金曜日の夜は田中さんと食事、7時に駅前で。"), ("ja", "歯医者の予約は来週の火曜日。"),
    ("ko", "토요일에 부모님 댁에서 저녁 식사."), ("ko", "우유, 계란, 김치 사기."),
    ("th", "วันอาทิตย์ไปเยี่ยมคุณยายที่เชียงใหม่"), ("th", "ซื้อข้าวสาร ไข่ และน้ำปลา"),
]

GIFTS = ["cookbook", "pottery class voucher", "wireless headphones", "hiking backpack", "board game", "silk scarf", "e-reader", "plant"]
COLORS = ["sage green", "navy", "terracotta", "mustard", "lavender", "charcoal", "teal", "dusty pink"]
ITEMS = ["robot vacuum", "standing desk", "espresso machine", "air purifier", "winter coat", "tent"]
PROJ = ["billing", "mobile-app", "search", "infra", "data-pipeline"]


def ofill(t):
    rep = {
        "name": lambda: pick(FIRST_NAMES), "name2": lambda: pick(FIRST_NAMES), "time": rtime, "day": lambda: pick(DAYS),
        "day2": lambda: pick(DAYS), "date": rdate, "date2": lambda: "%d %s" % (R.randint(1, 28), pick(["March", "May", "July", "October", "December"])),
        "food": lambda: pick(FOODS), "city": lambda: pick(CITIES), "city2": lambda: pick(CITIES), "drug": None, "dose": None,
        "last": lambda: pick(LAST_NAMES), "color": lambda: pick(COLORS), "pet": lambda: pick(PETS), "plant": lambda: pick(PLANTS),
        "gift": lambda: pick(GIFTS), "item": lambda: pick(ITEMS), "book": lambda: pick(BOOKS), "show": lambda: pick(SHOWS),
        "proj": lambda: pick(PROJ), "email": email_addr, "n3": lambda: digits(3, False),
    }
    drug, dose = pick(DRUGS)

    def r(m):
        k = m.group(1)
        if k == "drug":
            return drug
        if k == "dose":
            return dose
        return rep[k]()
    return re.sub(r"\{([a-z0-9]+)\}", r, t)


def _shopping_list():
    items = R.sample(["milk", "eggs", "bread", "apples", "coffee", "rice", "yogurt", "spinach", "onions", "tomatoes", "cheese",
                      "olive oil", "pasta", "bananas", "chicken", "tofu", "lentils", "dish soap"], R.randint(4, 7))
    return items


def _todo_obj():
    return {"title": pick(["Weekend", "Before the trip", "House", "This week"]),
            "items": R.sample(["call the insurer", "renew passport", "book vet", "fix bike tyre", "clean gutters", "pay council tax",
                               "send thank-you cards", "back up photos", "return library books"], 3)}


def _b_email():
    n1, n2 = pick(FIRST_NAMES), pick(FIRST_NAMES)
    subj, body = pick([
        ("Re: Thursday offsite", "Lunch is booked for 12:30 at the place by the river. Please bring your laptop chargers, the room has few sockets."),
        ("Invoice %s" % digits(5), "Attached is the invoice for March. Payment terms are 30 days; let me know if the PO number needs to change."),
        ("Fwd: your order has shipped", "Your parcel is on its way and should arrive in 2-3 working days. You can track it in the app."),
        ("School trip consent", "The Year 4 trip to the science museum is on %s. Please return the consent slip by Friday." % rdate()),
        ("Kickoff notes", "Decisions: weekly sync on Tuesdays, staging demo every second Friday, design owner is %s." % pick(FIRST_NAMES)),
        ("Flat viewing", "The viewing is confirmed for Saturday at 11. The agent will meet you at the front door."),
    ])
    return "From: %s <%s>\nSubject: %s\n\nHi %s,\n\n%s\n\n%s\n%s" % (n1, email_addr(n1), subj, n2, body, pick(["Thanks,", "Best,", "Cheers,"]), n1)


def _b_ticket():
    proj = pick(["OPS", "INFRA", "SUP", "DEV", "PLAT", "HELP"])
    title, body = pick([
        ("Checkout page slow on mobile", "p95 went from 1.2s to 3.4s after the last release. Suspect the new image carousel."),
        ("Nightly export job fails with OOM", "Container limit is 512Mi; the export now loads the whole table. Proposal: stream in batches of 10k."),
        ("Onboard new hire to the data team", "Needs access to the analytics workspace and the #data channel. Laptop arrives Monday."),
        ("Renew TLS certificate for the status page", "Expires in 14 days. cert-manager did not pick it up because of the DNS change."),
        ("Broken link in the help centre", "The 'reset your password' article links to a 404; should point to the new account settings page."),
        ("Upgrade Postgres 14 to 16", "Plan: test restore on staging, then pg_upgrade during the Sunday window."),
    ])
    return "%s-%d: %s\n\n%s\n\nReporter: %s" % (proj, R.randint(100, 9999), title, body, person())


def _b_chat():
    a = pick(FIRST_NAMES)
    lines = pick([
        ["are we still on for dinner?", "yes! 7:30 at the Thai place", "great, I'll book for 4"],
        ["did you feed the cat?", "yes, and changed the water", "thanks!!"],
        ["what time is the school pickup today?", "3:15, early finish", "ok I'll go"],
        ["can you review my PR before lunch?", "sure, send the link", "it's the one about retry backoff"],
        ["what's the wifi called here?", "it's the one ending in 5G", "found it, thanks"],
    ])
    who = [a, "me", a]
    h, m = R.randint(7, 21), R.randint(0, 50)
    return "\n".join("[%02d:%02d] %s: %s" % (h, m + i * R.randint(0, 3), w, l) for i, (w, l) in enumerate(zip(who, lines)))


def _b_env():
    lines = R.sample(NOISE_ENV + ["CACHE_TTL=300", "MAX_UPLOAD_MB=25", "ALLOWED_HOSTS=app.example.com", "DEFAULT_LOCALE=en-GB",
                                  "S3_BUCKET=%s-assets" % pick(COMPANY), "API_BASE_URL=https://api.%s.com" % pick(COMPANY)], R.randint(4, 7))
    return "\n".join(lines)


def _b_yaml():
    return "server:\n  port: %d\n  read_timeout: %ds\nlogging:\n  level: %s\nfeatures:\n  new_checkout: %s\n  dark_mode: %s" % (
        pick([8080, 3000, 8000]), pick([5, 10, 30]), pick(["info", "debug", "warn"]), pick(["true", "false"]), pick(["true", "false"]))


def _b_code():
    return pick([
        "def median(xs):\n    xs = sorted(xs)\n    n = len(xs)\n    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2",
        "const debounce = (fn, ms = 300) => {\n  let t;\n  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };\n};",
        "SELECT customer_id, COUNT(*) AS orders\nFROM orders\nWHERE created_at >= now() - interval '30 days'\nGROUP BY 1 ORDER BY 2 DESC LIMIT 20;",
        "for f in *.heic; do sips -s format jpeg \"$f\" --out \"${f%.heic}.jpg\"; done",
        "git rebase -i HEAD~%d  # squash the fixups before merging" % R.randint(2, 6),
        "func retry(n int, f func() error) (err error) {\n\tfor i := 0; i < n; i++ {\n\t\tif err = f(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn err\n}",
    ])


def _b_curl():
    return pick(["curl -s 'https://api.open-meteo.com/v1/forecast?latitude=%.2f&longitude=%.2f&hourly=temperature_2m'" % (R.uniform(35, 60), R.uniform(-10, 30)),
                 "curl -sI https://www.%s.com | grep -i cache-control" % pick(COMPANY),
                 "curl -X POST -H 'Content-Type: application/json' -d '{\"query\":\"tents\"}' http://localhost:%d/search" % pick([3000, 8080])])


def _b_compose():
    return "services:\n  db:\n    image: postgres:16\n    volumes:\n      - pgdata:/var/lib/postgresql/data\n  web:\n    image: ghcr.io/%s/web:%s\n    ports:\n      - \"8080:8080\"\n    environment:\n      - LOG_LEVEL=info\n      - TZ=Europe/Berlin\nvolumes:\n  pgdata: {}" % (
        pick(COMPANY), pick(["latest", "1.8.0", "main"]))


def _b_sms():
    return pick(["Fwd: Your appointment with Dr. %s is confirmed for %s at %s. Reply C to cancel." % (pick(LAST_NAMES), rdate(), rtime()),
                 "Fwd: Your parcel will be delivered today between %s and %s." % (rtime(), rtime()),
                 "Fwd: Table for %d at %d:%s pm confirmed. See you soon!" % (R.randint(2, 8), R.randint(6, 9), pick(["00", "30"]))])


ARTIFACTS = [("work_email", _b_email, 5), ("ticket", _b_ticket, 5), ("chat_log", _b_chat, 5), ("env_config", _b_env, 3),
             ("yaml_config", _b_yaml, 3), ("code_snippet", _b_code, 5), ("curl_command", _b_curl, 3), ("compose_file", _b_compose, 2),
             ("forwarded_sms", _b_sms, 3)]


def gen_ordinary(n):
    out = []
    for kind, fn, cnt in ARTIFACTS:
        for _ in range(cnt):
            out.append(dict(kind=kind, value=fn(), regen=fn))
    for lang, t in I18N_ORD:
        out.append(dict(kind="i18n_note.%s" % lang, value=ofill(t), regen=(lambda t=t: ofill(t))))
    for t in PASSING:
        out.append(dict(kind="passing_mention", value=ofill(t), regen=(lambda t=t: ofill(t))))
    for _ in range(5):
        out.append(dict(kind="shopping", value=_shopping_list(), regen=_shopping_list))
    for _ in range(4):
        out.append(dict(kind="todo", value=_todo_obj(), regen=_todo_obj))
    tpl = list(ORD_TPL)
    R.shuffle(tpl)
    i = 0
    while len(out) < n:
        kind, t = tpl[i % len(tpl)]
        i += 1
        out.append(dict(kind=kind, value=ofill(t), regen=(lambda t=t: ofill(t))))
    return out


# ---------------------------------------------------------------------------
# assembly: dedup, container forms, namespaces, keys, ids, shuffle
# ---------------------------------------------------------------------------
SEGMENTS = [
    ("secret", "vendor", gen_vendor, "plain"),
    ("secret", "personal", gen_personal, "plain"),
    ("secret", "evasion", gen_evasion, "hard"),
    ("benign", "lookalike", gen_lookalike, "hard"),
    ("benign", "ordinary", gen_ordinary, "plain"),
]
FOLDERS = ["notes", "travel", "work", "home", "misc", "inbox", "projects", "journal", "family", "archive", "imported", "personal"]
SOURCES = ["chat", "email", "voice_note", "manual", "import", "browser_extension", "slack", "sms", "clipboard"]
TITLES = ["Note", "Saved from chat", "Reminder", "Quick note", "From email", "Untitled", "Remember this", "Imported note", "Keep"]
TAGS = ["personal", "work", "home", "todo", "imported", "chat", "family", "misc", "later"]
KEY_RE = re.compile(r"^mem_[0-9a-f]{8,32}$")
CARD_RUN_RE = re.compile(r"(?<![\d])(?:\d[ -]?){12,18}\d(?![\d])")


def canon(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def all_strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from all_strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from all_strings(x)


def has_luhn_run(v):
    for s in all_strings(v):
        for m in CARD_RUN_RE.finditer(s):
            d = re.sub(r"\D", "", m.group(0))
            if 13 <= len(d) <= 19 and luhn_ok(d):
                return True
    return False


def norm(seg, v):
    if seg == "evasion" and isinstance(v, dict) and "value" in v and set(v) <= {"value", "ns", "key"}:
        return v["value"], v.get("ns"), v.get("key")
    return v, None, None


def wrap_obj(t):
    k = R.randint(0, 5)
    if k == 0:
        return {"text": t, "source": pick(SOURCES)}
    if k == 1:
        return {"title": pick(TITLES), "body": t}
    if k == 2:
        return {"content": t, "created_at": "%sT%s:00Z" % (rdate(), rtime()), "tags": R.sample(TAGS, R.randint(1, 2))}
    if k == 3:
        return {"memory": t, "confidence": round(R.uniform(0.6, 0.99), 2)}
    if k == 4:
        return {"note": t, "pinned": chance(0.3)}
    return {"type": "fact", "text": t, "source": pick(SOURCES)}


def wrap_arr(t):
    lines = [x for x in t.split("\n") if x.strip()]
    if len(lines) >= 2 and chance(0.75):
        return lines
    k = R.randint(0, 2)
    if k == 0:
        return [rdate(), t]
    if k == 1:
        return [t, "#" + pick(TAGS)]
    return ["from " + pick(SOURCES), t]


def build():
    seen = set()
    records = []
    for label, seg, gen, variant in SEGMENTS:
        items = gen(TARGETS[(label, seg)])
        pool = [(it["kind"], it["regen"]) for it in items]
        seg_recs = []
        for it in items:
            kind, fn = it["kind"], it["regen"]
            raw = it.get("value")
            v, ns, key = raw, it.get("ns"), it.get("key")
            tries = 0
            while canon(v) in seen or (label == "benign" and has_luhn_run(v)):
                tries += 1
                if tries > 40:
                    kind, fn = pick(pool)
                v, ns, key = norm(seg, fn())
            seen.add(canon(v))
            seg_recs.append(dict(label=label, seg=seg, kind=kind, variant=variant, value=v, ns=ns, key=key))
        for i, r in enumerate(seg_recs, 1):
            r["id"] = "h22-%s-%s-%s-%03d" % (label[0], variant[0], seg, i)
        records += seg_recs

    # container forms: same quotas for both labels (70 % string, 20 % object, 10 % array)
    for label in ("secret", "benign"):
        recs = [r for r in records if r["label"] == label]
        n = len(recs)
        n_obj, n_arr = round(0.2 * n), round(0.1 * n)
        native_obj = sum(isinstance(r["value"], dict) for r in recs)
        native_arr = sum(isinstance(r["value"], list) for r in recs)
        assert native_obj <= n_obj and native_arr <= n_arr, (label, native_obj, native_arr)
        strs = [r for r in recs if isinstance(r["value"], str)]
        chosen = R.sample(strs, (n_obj - native_obj) + (n_arr - native_arr))
        for r in chosen[: n_obj - native_obj]:
            r["value"] = wrap_obj(r["value"])
        for r in chosen[n_obj - native_obj:]:
            r["value"] = wrap_arr(r["value"])

    users = ["u" + digits(R.randint(4, 9)) for _ in range(48)]
    used_keys = set(r["key"] for r in records if r["key"])
    out = []
    for r in records:
        ns = r["ns"] or ["memories", pick(users)]
        if r["ns"] is None and chance(0.3):
            ns = ns + [pick(FOLDERS)]
        key = r["key"]
        while key is None or (key in used_keys and key != r["key"]):
            key = "mem_" + hexs(R.randint(8, 32))
        used_keys.add(key)
        out.append({"id": r["id"], "label": r["label"], "kind": r["kind"], "variant": r["variant"],
                    "namespace": ns, "key": key, "value": r["value"]})
    R.shuffle(out)
    validate(out)
    return out


def validate(out):
    vals = [canon(r["value"]) for r in out]
    assert len(vals) == len(set(vals)), "duplicate values"
    assert len(set(r["key"] for r in out)) == len(out), "duplicate keys"
    assert len(set(r["id"] for r in out)) == len(out), "duplicate ids"
    for r in out:
        assert list(r) == ["id", "label", "kind", "variant", "namespace", "key", "value"]
        assert r["label"] in ("secret", "benign")
        assert KEY_RE.match(r["key"]), r["key"]
        ns = r["namespace"]
        assert ns[0] == "memories" and re.fullmatch(r"u\d+", ns[1]) and len(ns) in (2, 3), ns
        assert isinstance(r["value"], (str, dict, list))
        seg = r["id"].split("-")[3]
        exp_var = "hard" if seg in ("evasion", "lookalike") else "plain"
        assert r["variant"] == exp_var and r["id"].split("-")[2] == exp_var[0]
        if r["label"] == "benign":
            assert not has_luhn_run(r["value"]), r["id"]
    for label in ("secret", "benign"):
        recs = [r for r in out if r["label"] == label]
        assert len(recs) >= 450
        n = len(recs)
        assert sum(isinstance(r["value"], dict) for r in recs) == round(0.2 * n)
        assert sum(isinstance(r["value"], list) for r in recs) == round(0.1 * n)
    kinds = lambda seg: set(r["kind"] for r in out if r["id"].split("-")[3] == seg)
    assert len(kinds("vendor")) >= 120, len(kinds("vendor"))
    assert len(kinds("evasion")) >= 60, len(kinds("evasion"))
    assert len(kinds("lookalike")) >= 150, len(kinds("lookalike"))
    langs = set(k.rsplit(".", 1)[-1] for k in kinds("personal"))
    assert len(langs - {"en"}) >= 20, langs


def stats(out):
    seg_of = lambda r: r["id"].split("-")[3]
    print("records: %d" % len(out))
    for label in ("secret", "benign"):
        recs = [r for r in out if r["label"] == label]
        forms = Counter("string" if isinstance(r["value"], str) else "object" if isinstance(r["value"], dict) else "array" for r in recs)
        print("%-7s %4d  forms: %s" % (label, len(recs), ", ".join("%s=%d" % (k, forms[k]) for k in ("string", "object", "array"))))
    print("namespace with folder: %d" % sum(len(r["namespace"]) == 3 for r in out))
    for label, seg, _, _ in SEGMENTS:
        recs = [r for r in out if r["label"] == label and seg_of(r) == seg]
        kc = Counter(r["kind"] for r in recs)
        print("\n[%s/%s] %d records, %d distinct kinds" % (label, seg, len(recs), len(kc)))
        if seg == "personal":
            lc = Counter(k.rsplit(".", 1)[-1] for k in (r["kind"] for r in recs))
            print("  languages (%d): %s" % (len(lc), ", ".join("%s=%d" % (k, lc[k]) for k in sorted(lc))))
        for k in sorted(kc):
            print("  %-44s %3d" % (k, kc[k]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stats", action="store_true", help="print counts per segment/kind instead of writing the file")
    args = ap.parse_args()
    out = build()
    if args.stats:
        try:
            stats(out)
        except BrokenPipeError:
            sys.stderr.close()
        return
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), OUT_NAME)
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out).encode("utf-8")
    with open(path, "wb") as fh:
        fh.write(data)
    print("wrote %s (%d records, sha256 %s)" % (path, len(out), hashlib.sha256(data).hexdigest()))


if __name__ == "__main__":
    main()
