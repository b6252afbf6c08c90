#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""make_tuning3.py -- builds tuning3.jsonl and README.md.

Tuning corpus (false-positive hunting) for a secret detector that guards a
long-term memory store for AI agents.  Mostly benign memories that merely
*look* like they could hold a credential, plus a smaller set of secret
memories written in the same registers.

Python 3.11 standard library only.  One seeded RNG: random.Random(3303_2026).
Every random choice goes through that RNG, nothing iterates over sets, and
no clock / environment value is read, so two runs are byte-identical.

Usage:  python3 make_tuning3.py
"""
import base64
import collections
import datetime
import hashlib
import json
import os
import random
import string

SEED = 3303_2026
rng = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tuning3.jsonl")
README = os.path.join(HERE, "README.md")

# ---------------------------------------------------------------------------
# low level random helpers (all via rng)
# ---------------------------------------------------------------------------
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIG = string.digits
HEXL = "0123456789abcdef"
B62 = string.ascii_letters + string.digits
B64 = B62 + "+/"
B64U = B62 + "-_"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def ch(seq):
    return rng.choice(seq)


def rs(alpha, n):
    return "".join(rng.choice(alpha) for _ in range(n))


def hx(n):
    return rs(HEXL, n)


def HX(n):
    return rs("0123456789ABCDEF", n)


def b62(n):
    return rs(B62, n)


def b64(n):
    return rs(B64, n)


def b64u(n):
    return rs(B64U, n)


def dg(n):
    """n digits, first one non-zero"""
    return str(rng.randint(1, 9)) + rs(DIG, n - 1)


def dgz(n):
    return rs(DIG, n)


def up(n):
    return rs(UPPER, n)


def lo(n):
    return rs(LOWER, n)


def ua(n):
    return rs(UPPER + DIG, n)


def la(n):
    return rs(LOWER + DIG, n)


def ri(a, b):
    return rng.randint(a, b)


def maybe(p=0.5):
    return rng.random() < p


def sample(seq, k):
    return rng.sample(list(seq), k)


def money(a, b, cur="$"):
    v = rng.randint(a * 100, b * 100) / 100
    return f"{cur}{v:,.2f}"


def uuid4():
    h = list(hx(32))
    h[12] = "4"
    h[16] = ch("89ab")
    s = "".join(h)
    return f"{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


def ulid():
    return ch("01") + rs(CROCK, 25)


def b64enc(s):
    return base64.b64encode(s.encode("utf-8")).decode("ascii")


def b64url_json(obj):
    raw = json.dumps(obj, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def wrap64(s, width=64):
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def pem(label, body_prefix, n):
    body = body_prefix + b64(n - len(body_prefix))
    pad = "" if len(body) % 4 == 0 else "=" * (4 - len(body) % 4)
    body = body[: len(body) - len(pad)] + pad if pad else body
    return f"-----BEGIN {label}-----\n{wrap64(body)}\n-----END {label}-----"


def sha256_of(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# cards, IBANs, phones, dates
# ---------------------------------------------------------------------------
PUBLISHED_TEST_CARDS = {
    "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881",
    "4222222222222", "5555555555554444", "2223003122003222", "5200828282828210",
    "5105105105105100", "5431111111111111", "378282246310005", "371449635398431",
    "378734493671000", "6011111111111117", "6011000990139424", "6011000000000004",
    "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005",
    "4000000000000002", "4000000000000077", "4000000000003220", "4000002500003155",
    "4000000000009995", "5500000000000004", "340000000000009", "30000000000004",
}


def luhn_digit(partial):
    total = 0
    for i, c in enumerate(reversed(partial)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


def card(brand=None):
    brand = brand or ch(["Visa", "Visa", "Mastercard", "Mastercard", "Amex", "Discover"])
    while True:
        if brand == "Visa":
            prefix, length = "4" + dgz(5), 16
        elif brand == "Mastercard":
            prefix, length = str(ri(51, 55)) + dgz(4), 16
        elif brand == "Amex":
            prefix, length = ch(["34", "37"]) + dgz(4), 15
        else:
            prefix, length = "6011" + dgz(2), 16
        body = prefix + dgz(length - 1 - len(prefix))
        num = body + luhn_digit(body)
        if num not in PUBLISHED_TEST_CARDS and len(set(num)) > 4:
            return brand, num


def fmt_card(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


IBAN_BBAN = {
    "DE": lambda: dgz(18),
    "FR": lambda: dgz(10) + ua(11) + dgz(2),
    "ES": lambda: dgz(20),
    "NL": lambda: up(4) + dgz(10),
    "GB": lambda: up(4) + dgz(14),
    "IT": lambda: up(1) + dgz(10) + ua(12),
    "BE": lambda: dgz(12),
    "AT": lambda: dgz(16),
    "CH": lambda: dgz(5) + ua(12),
    "IE": lambda: up(4) + dgz(14),
    "PT": lambda: dgz(21),
    "PL": lambda: dgz(24),
    "SE": lambda: dgz(20),
    "FI": lambda: dgz(14),
}


def iban(country=None):
    country = country or ch(list(IBAN_BBAN))
    bban = IBAN_BBAN[country]()
    rearr = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in rearr)
    check = "%02d" % (98 - int(num) % 97)
    return country + check + bban


def fmt_iban(s):
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def phone(cc=None):
    cc = cc or ch(["US", "UK", "DE", "FR", "ES", "IT", "NL", "IN", "JP", "BR", "AU"])
    if cc == "US":
        return f"({ri(201, 989)}) 555-{ri(100, 199):04d}" if maybe() else f"+1 {ri(201, 989)}-555-{ri(100, 199):04d}"
    if cc == "UK":
        return f"+44 7{dgz(3)} {dgz(6)}" if maybe() else f"07{dgz(3)} {dgz(6)}"
    if cc == "DE":
        return f"+49 1{ri(51, 79)} {dgz(7)}" if maybe() else f"0{ri(30, 89)} {dgz(3)} {dgz(4)}"
    if cc == "FR":
        return f"0{ri(6, 7)} {dgz(2)} {dgz(2)} {dgz(2)} {dgz(2)}" if maybe() else f"+33 {ri(6, 7)} {dgz(2)} {dgz(2)} {dgz(2)} {dgz(2)}"
    if cc == "ES":
        return f"+34 6{dgz(2)} {dgz(3)} {dgz(3)}"
    if cc == "IT":
        return f"+39 3{dgz(2)} {dgz(3)} {dgz(4)}"
    if cc == "NL":
        return f"+31 6 {dgz(4)} {dgz(4)}"
    if cc == "IN":
        return f"+91 9{dgz(4)} {dgz(5)}"
    if cc == "JP":
        return f"090-{dgz(4)}-{dgz(4)}"
    if cc == "BR":
        return f"+55 11 9{dgz(4)}-{dgz(4)}"
    return f"+61 4{dgz(2)} {dgz(3)} {dgz(3)}"


MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July",
             "August", "September", "October", "November", "December"]
MON_EN = [m[:3] for m in MONTHS_EN]
DAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS_DE = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
             "September", "Oktober", "November", "Dezember"]
MONTHS_FR = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
             "septembre", "octobre", "novembre", "décembre"]
MONTHS_ES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
             "septiembre", "octubre", "noviembre", "diciembre"]


def rdate(a=2019, b=2026):
    s = datetime.date(a, 1, 1).toordinal()
    e = datetime.date(b, 12, 31).toordinal()
    return datetime.date.fromordinal(ri(s, e))


def rdt(a=2021, b=2026):
    d = rdate(a, b)
    return datetime.datetime(d.year, d.month, d.day, ri(0, 23), ri(0, 59), ri(0, 59), ri(0, 999) * 1000)


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{dt.microsecond // 1000:03d}Z"


def d_en(d):
    return f"{d.day} {MONTHS_EN[d.month - 1]} {d.year}"


def d_us(d):
    return f"{MONTHS_EN[d.month - 1]} {d.day}, {d.year}"


def d_short(d):
    return f"{MON_EN[d.month - 1]} {d.day}"


def hm():
    return f"{ri(6, 21):02d}:{ch(['00', '15', '30', '45', '10', '20', '40', '50'])}"


def epoch(dt):
    return int((dt - datetime.datetime(1970, 1, 1)).total_seconds())


# ---------------------------------------------------------------------------
# pools
# ---------------------------------------------------------------------------
FN = {
    "en": ["Emma", "Liam", "Olivia", "Noah", "Ava", "James", "Sophia", "Lucas", "Mia", "Ethan",
           "Grace", "Owen", "Chloe", "Daniel", "Harper", "Jack", "Priya", "Marcus", "Hannah",
           "Sam", "Rachel", "Tom", "Aisha", "Ben", "Nora", "Kevin", "Leah", "Diego", "Zoe", "Raj"],
    "de": ["Lena", "Jonas", "Mia", "Felix", "Hannah", "Lukas", "Sophie", "Paul", "Marie",
           "Tobias", "Katrin", "Jürgen", "Anja", "Stefan", "Birgit", "Moritz"],
    "fr": ["Camille", "Louis", "Chloé", "Hugo", "Léa", "Julien", "Manon", "Théo", "Inès",
           "Mathieu", "Élodie", "Antoine", "Margaux", "Bastien"],
    "es": ["Lucía", "Mateo", "Sofía", "Diego", "Valentina", "Javier", "Carmen", "Pablo",
           "Elena", "Alejandro", "Marta", "Raúl"],
    "it": ["Giulia", "Marco", "Chiara", "Luca", "Francesca", "Matteo", "Sara", "Alessandro",
           "Elisa", "Davide"],
    "pt": ["Ana", "João", "Beatriz", "Pedro", "Mariana", "Tiago", "Inês", "Rafael", "Luísa",
           "Gonçalo"],
    "nl": ["Sanne", "Daan", "Femke", "Bram", "Lotte", "Ruben", "Eva", "Jeroen", "Fleur", "Thijs"],
    "sv": ["Elin", "Erik", "Astrid", "Oskar", "Maja", "Nils", "Ebba", "Linnea"],
    "da": ["Freja", "Mads", "Ida", "Rasmus", "Sofie", "Anders"],
    "no": ["Ingrid", "Henrik", "Sigrid", "Magnus", "Nora", "Eirik"],
    "fi": ["Aino", "Eetu", "Helmi", "Juho", "Venla", "Mikko"],
    "pl": ["Zofia", "Jakub", "Kasia", "Piotr", "Agnieszka", "Tomasz", "Marta", "Krzysztof"],
    "cs": ["Tereza", "Jan", "Eliška", "Petr", "Lucie", "Ondřej"],
    "hu": ["Anna", "Bence", "Zsófia", "Máté", "Réka", "Gergő"],
    "ro": ["Ioana", "Andrei", "Maria", "Mihai", "Elena", "Radu"],
    "tr": ["Elif", "Emre", "Zeynep", "Mehmet", "Ayşe", "Burak", "Selin", "Can"],
    "ru": ["Анна", "Дмитрий", "Ольга", "Сергей", "Мария", "Иван", "Наталья", "Алексей"],
    "uk": ["Оксана", "Андрій", "Ірина", "Тарас", "Олена", "Богдан"],
    "el": ["Μαρία", "Γιώργος", "Ελένη", "Νίκος", "Κατερίνα", "Δημήτρης"],
    "ar": ["ليلى", "أحمد", "فاطمة", "يوسف", "مريم", "عمر"],
    "he": ["נועה", "איתי", "מיכל", "יונתן", "שירה", "עומר"],
    "hi": ["प्रिया", "राहुल", "अनीता", "विकास", "सुनीता", "अमित"],
    "ja": ["さくら", "健太", "ゆい", "翔太", "美咲", "大輔", "陽菜", "拓海"],
    "zh": ["王芳", "李伟", "张敏", "刘洋", "陈静", "杨磊", "赵丽", "周杰"],
    "ko": ["지민", "서연", "민준", "하은", "도윤", "수빈"],
    "vi": ["Linh", "Minh", "Trang", "Huy", "Lan", "Tuấn"],
    "id": ["Putri", "Budi", "Sari", "Agus", "Dewi", "Rizky"],
    "th": ["สมชาย", "มาลี", "อนันต์", "วันเพ็ญ", "ประยุทธ", "นภา"],
    "sw": ["Amani", "Baraka", "Neema", "Juma", "Zawadi", "Imani"],
}
SN_EN = ["Smith", "Patel", "Nguyen", "Garcia", "Okafor", "Miller", "Chen", "Kowalski",
         "O'Brien", "Johansson", "Rossi", "Müller", "Haddad", "Tanaka", "Fischer", "Silva",
         "Dubois", "Novak", "Reyes", "Campbell", "Ahmed", "Larsen", "Moreau", "Byrne"]
US_CITIES = [("Portland", "OR"), ("Austin", "TX"), ("Denver", "CO"), ("Raleigh", "NC"),
             ("Madison", "WI"), ("Tucson", "AZ"), ("Boise", "ID"), ("Richmond", "VA"),
             ("Columbus", "OH"), ("Savannah", "GA"), ("Burlington", "VT"), ("Spokane", "WA")]
STREETS_EN = ["Maple Ave", "Oak Street", "Cedar Lane", "Harbor Road", "Elm Court", "Willow Way",
              "Birch Drive", "Lakeview Terrace", "Mill Street", "Ridge Road", "Chestnut Place"]
CITIES_WORLD = ["Lisbon", "Berlin", "Lyon", "Valencia", "Turin", "Utrecht", "Gothenburg",
                "Kraków", "Osaka", "Seoul", "Toronto", "Melbourne", "Nairobi", "Istanbul",
                "Montreal", "Edinburgh", "Porto", "Bologna", "Vienna", "Dublin"]
COMPANIES = ["Northwind", "Bluefin Labs", "Harbor & Vine", "Kestrel Health", "Tallow Studio",
             "Meridian Freight", "Ostara Mutual", "Pinecrest Dental", "Lumen Robotics",
             "Copperleaf Books", "Quarry Analytics", "Saltmarsh Outfitters", "Brightwell Energy",
             "Fernhill Vets", "Juniper Logistics", "Alder Street Bakery"]
PRODUCTS = ["espresso machine", "air purifier", "robot vacuum", "standing desk", "router",
            "e-bike battery", "dishwasher", "thermostat", "printer", "baby monitor",
            "washing machine", "coffee grinder", "dehumidifier", "smart plug"]
SERVICES = ["Netflix", "Spotify", "Dropbox", "GitHub", "Notion", "Slack", "Gmail", "iCloud",
            "PayPal", "Amazon", "LinkedIn", "Zoom", "Figma", "Steam", "Duolingo", "the bank app",
            "Outlook", "Instagram", "Coinbase", "Airbnb"]
VENDORS = ["Stripe", "AWS", "GitHub", "OpenAI", "Twilio", "SendGrid", "Slack", "Datadog",
           "Cloudflare", "Sentry", "Mailgun", "Shopify", "Anthropic", "Vercel", "Heroku"]
HOSTS = ["db-prod-1.internal", "pg.eu-west-1.rds.amazonaws.com", "10.0.4.12", "mysql.lan",
         "cache-01.svc.cluster.local", "db.staging.example.net", "orders-db.internal",
         "analytics.warehouse.local"]
APPS = ["billing-api", "checkout", "auth-service", "notifier", "ledger", "search-indexer",
        "media-proxy", "invoice-worker", "gateway", "profile-svc", "scheduler", "reports"]
WORDS = ["abandon", "ability", "able", "about", "above", "absent", "absorb", "abstract",
         "access", "accident", "account", "acid", "acoustic", "across", "actor", "adapt",
         "address", "adjust", "admit", "adult", "advice", "afford", "agent", "agree", "ahead",
         "aim", "air", "airport", "aisle", "alarm", "album", "alcohol", "alert", "alien",
         "alley", "almost", "alone", "alpha", "already", "also", "always", "amateur",
         "amazing", "among", "amount", "anchor", "ancient", "anger", "angle", "animal",
         "ankle", "announce", "annual", "answer", "antenna", "apart", "apple", "april",
         "arch", "arctic", "arena", "argue", "armed", "armor", "army", "arrow", "art",
         "artist", "aspect", "assist", "athlete", "atom", "auction", "august", "aunt",
         "autumn", "average", "avocado", "awake", "aware", "awesome", "axis", "baby",
         "bacon", "badge", "bag", "balance", "balcony", "ball", "bamboo", "banana", "banner",
         "barely", "barrel", "basket", "battle", "beach", "bean", "beauty", "because",
         "become", "beef", "before", "begin", "behave", "believe", "bench", "benefit",
         "best", "betray", "better", "bicycle", "bird", "birth", "bitter", "blanket",
         "blossom", "blue", "blur", "board", "boat", "body", "bonus", "book", "border",
         "bottom", "bounce", "brave", "bread", "breeze", "brick", "bridge", "brief",
         "bright", "bring", "broccoli", "bronze", "brother", "bubble", "budget", "buffalo",
         "bundle", "burger", "butter", "cabin", "cable", "cactus", "cage", "cake", "call",
         "calm", "camera", "camp", "canal", "candy", "canvas", "canyon", "capital",
         "captain", "carbon", "cargo", "carpet", "castle", "catalog", "cattle", "caught",
         "cave", "ceiling", "celery", "cement", "census", "cereal", "chalk", "champion",
         "chaos", "chapter", "cherry", "chicken", "chimney", "circle", "citizen", "clarify",
         "claw", "clay", "clever", "cliff", "clock", "cloud", "clown", "coach", "coconut",
         "coffee", "coin", "comfort", "copper", "coral", "corn", "cotton", "country",
         "cousin", "cradle", "crane", "crater", "cream", "cricket", "crystal", "cupboard",
         "curtain", "cushion", "dance", "danger", "dawn", "decade", "deer", "desert",
         "diamond", "dinosaur", "dolphin", "donkey", "dragon", "drama", "drift", "eagle",
         "early", "earth", "echo", "eclipse", "elbow", "elephant", "ember", "engine",
         "envelope", "fabric", "falcon", "feather", "fence", "festival", "fiction", "finger",
         "flame", "flavor", "forest", "fossil", "fox", "frozen", "galaxy", "garden",
         "garlic", "giraffe", "glacier", "globe", "goat", "harbor", "harvest", "hazard",
         "helmet", "hockey", "honey", "horizon", "island", "ivory", "jacket", "jaguar",
         "jungle", "kangaroo", "kettle", "kitten", "ladder", "lemon", "lizard", "lobster",
         "lunar", "magnet", "mango", "marble", "meadow", "melody", "mirror", "monkey",
         "mountain", "mushroom", "napkin", "noodle", "ocean", "olive", "orange", "orbit",
         "oyster", "paddle", "panda", "parrot", "peanut", "pepper", "pilot", "planet",
         "pumpkin", "puzzle", "rabbit", "radar", "rainbow", "raven", "river", "rocket",
         "saddle", "salmon", "shadow", "silver", "spider", "sponsor", "squirrel", "sunset",
         "tiger", "timber", "tomato", "tornado", "trumpet", "tunnel", "turtle", "umbrella",
         "valley", "velvet", "violin", "volcano", "walnut", "whale", "window", "winter",
         "wolf", "yellow", "zebra"]
FOODS_EN = ["lentil soup", "shakshuka", "pad thai", "mushroom risotto", "banana bread",
            "chicken tikka", "ramen", "paella", "pierogi", "falafel", "lasagne", "pho"]

# ---------------------------------------------------------------------------
# chat helpers
# ---------------------------------------------------------------------------


def chat_roles(*turns):
    """turns: alternating user/assistant strings"""
    out = []
    for k, t in enumerate(turns):
        out.append({"role": "user" if k % 2 == 0 else "assistant", "content": t})
    return out


def chat_people(names, lines, who=None):
    """messenger-export style list; who = e.g. "ABBA" (speaker per line),
    default alternates A/B"""
    dt = rdt()
    out = []
    for k, t in enumerate(lines):
        dt = dt + datetime.timedelta(seconds=ri(20, 600))
        sp = names[(ord(who[k]) - 65) if who else k % len(names)]
        out.append({"from": sp, "ts": dt.strftime("%Y-%m-%d %H:%M"), "text": t})
    return out


def hm_range():
    a = ri(6 * 4, 19 * 4)
    b = a + ri(2, 12)
    return f"{a // 4:02d}:{(a % 4) * 15:02d}-{b // 4:02d}:{(b % 4) * 15:02d}"


def chat_lines(names, lines):
    return "\n".join(f"{names[k % len(names)]}: {t}" for k, t in enumerate(lines))


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


def csv_text(header, rows):
    out = [",".join(header)]
    for r in rows:
        out.append(",".join(str(c) for c in r))
    return "\n".join(out)


def en_name():
    return f"{ch(FN['en'])} {ch(SN_EN)}"


def fn(lang="en"):
    return ch(FN[lang])


def two_names(lang="en"):
    return sample(FN.get(lang, FN["en"]), 2)


# ---------------------------------------------------------------------------
# family registry
# ---------------------------------------------------------------------------
HARD = []      # (segment, kind, func, n)
SECRETS = []   # (segment, kind, func, n)


def fam(segment, kind, n=10):
    def deco(f):
        HARD.append((segment, kind, f, n))
        return f
    return deco


def sec(segment, kind, n=10):
    def deco(f):
        SECRETS.append((segment, kind, f, n))
        return f
    return deco


# ===========================================================================
# HARD BENIGN FAMILIES -- part A: "code / pin / key / token / pass / secret"
# in non-credential senses
# ===========================================================================


@fam("postal_code", "postal code")
def _(i):
    t = i % 7
    if t == 0:
        c, st = ch(US_CITIES)
        z = dg(5)
        return "prose", "en", f"{fn()}'s new address is {ri(10, 9899)} {ch(STREETS_EN)}, {c}, {st} {z}. Send the wedding invite there (zip code {z}, not the old one)."
    if t == 1:
        pc = f"{up(2)}{ri(1, 20)} {ri(1, 9)}{up(2)}"
        return "dict", "en", {"contact": en_name(), "address_line": f"Flat {ri(1, 40)}, {ri(2, 200)} {ch(STREETS_EN)}", "city": ch(["Leeds", "Bristol", "Glasgow", "Cardiff", "York"]), "postcode": pc, "note": "postcode checked on Royal Mail finder"}
    if t == 2:
        return "prose", "de", f"Neue Adresse nach dem Umzug: {ch(['Lindenstraße', 'Gartenweg', 'Am Markt', 'Bahnhofstraße'])} {ri(1, 120)}, {dg(5)} {ch(['Leipzig', 'Bremen', 'Kassel', 'Freiburg'])}. Postleitzahl beim Nachsendeauftrag nochmal prüfen."
    if t == 3:
        p = dg(6)
        return "prose", "en", f"Courier keeps asking for the PIN code of the delivery address - it's {p} ({ch(['Koramangala, Bengaluru', 'Andheri West, Mumbai', 'Salt Lake, Kolkata', 'Gachibowli, Hyderabad'])}). Indian postal PIN, not a bank PIN."
    if t == 4:
        return "prose", "fr", f"Code postal de la maison de vacances : {dg(5)} {ch(['Concarneau', 'Arcachon', 'Annecy', 'Biarritz', 'Colmar'])}. À mettre dans le formulaire de réservation du {ch(['gîte', 'camping', 'loueur de vélos'])}."
    if t == 5:
        z = f"{dgz(3)}-{dgz(4)}"
        return "prose", "ja", f"新しい住所：〒{z} 東京都{ch(['渋谷区', '世田谷区', '杉並区', '中野区'])}{ri(1, 5)}-{ri(1, 30)}-{ri(1, 20)}。郵便番号は{z}。"
    pc = f"{up(1)}{ri(0, 9)}{up(1)} {ri(0, 9)}{up(1)}{ri(0, 9)}"
    return "csv", "en", csv_text(["name", "street", "city", "postal_code"], [[en_name(), f"{ri(1, 900)} {ch(STREETS_EN)}", ch(["Toronto", "Ottawa", "Halifax", "Calgary"]), pc] for _ in range(ri(2, 4))])


@fam("area_code", "area/dialing code")
def _(i):
    t = i % 5
    if t == 0:
        ac = ri(201, 989)
        return "prose", "en", f"Calls from the {ac} area code lately are all spam; the pharmacy's real number is ({ac}) 555-{ri(100, 199):04d}."
    if t == 1:
        return "prose", "de", f"Vorwahl von {ch(['München 089', 'Hamburg 040', 'Köln 0221', 'Dresden 0351', 'Stuttgart 0711'])} - Oma hat jetzt die Festnetznummer {dgz(3)} {dgz(4)}, ohne Vorwahl gewählt klappt es nicht."
    if t == 2:
        return "dict", "en", {"country": ch(["Portugal", "Mexico", "Kenya", "Vietnam", "Norway"]), "dialing_code": ch(["+351", "+52", "+254", "+84", "+47"]), "reminder": "drop the leading 0 when dialing from abroad"}
    if t == 3:
        return "prose", "fr", f"L'indicatif {ch(['04', '02', '05', '03'])} correspond à notre région ; le cabinet du dentiste a changé de numéro : {phone('FR')}."
    return "chat", "en", chat_roles(f"what area code is {ch(['Boise', 'Tulsa', 'Fresno', 'Omaha'])}?", f"It's {ri(201, 989)}. Want me to save it with the plumber's number?", "yes, label it 'plumber - new'")


@fam("product_code", "product code / SKU")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"Replacement filter for the {ch(PRODUCTS)}: product code {ua(2)}-{dg(4)}{up(1)}. Order two next time, they run out fast."
    if t == 1:
        return "dict", "en", {"item": ch(PRODUCTS), "sku": f"{up(3)}-{dgz(5)}-{ua(2)}", "qty": ri(1, 4), "store": ch(COMPANIES)}
    if t == 2:
        rows = [[f"{up(2)}{dgz(6)}", ch(["paint roller", "masking tape", "drop cloth", "sandpaper 120", "wood filler"]), ri(1, 6)] for _ in range(ri(3, 5))]
        return "csv", "en", csv_text(["product_code", "description", "qty"], rows)
    if t == 3:
        return "prose", "de", f"Artikelnummer für die Ersatzdichtung: {dg(3)}.{dgz(3)}.{dgz(2)} - laut Baumarkt auf Lager."
    return "prose", "en", f"IKEA shelf part code {dgz(3)}.{dgz(3)}.{dgz(2)} was missing from the box; customer service said to quote article no. and order date {d_short(rdate())}."


@fam("error_code", "error code")
def _(i):
    t = i % 6
    if t == 0:
        return "prose", "en", f"The {ch(PRODUCTS)} shows error code E{ri(1, 99):02d} again. Manual says descale and restart; support case if it repeats."
    if t == 1:
        return "prose", "en", f"Windows update keeps failing with 0x{HX(8)}. Tried the troubleshooter, next step is DISM."
    if t == 2:
        return "prose", "en", f"Check engine light: OBD reader gave {ch(['P0420', 'P0171', 'P0300', 'P0455', 'P0128'])} and {ch(['P0133', 'P0442', 'P0301'])}. Mechanic appointment {d_short(rdate())}."
    if t == 3:
        return "log", "en", f"{iso(rdt())} ERROR {ch(APPS)} upstream returned {ch([502, 503, 504])} (code=UPSTREAM_{ch(['TIMEOUT', 'RESET', 'UNAVAILABLE'])}, attempt={ri(1, 5)})"
    if t == 4:
        return "prose", "de", f"Spülmaschine zeigt Fehlercode E{ri(10, 30)} - Wasserzulauf. Techniker kommt am {rdate().strftime('%d.%m.')}"
    return "dict", "en", {"device": ch(PRODUCTS), "error_code": f"{up(1)}{ri(100, 999)}", "meaning": ch(["sensor fault", "overheating", "door not closed", "low pressure"]), "fixed": maybe()}


@fam("medical_billing_code", "ICD/CPT code")
def _(i):
    t = i % 4
    icd = ch(["J45.909", "E11.9", "M54.5", "I10", "K21.9", "F41.1", "L20.9", "H52.4", "R51.9"])
    cpt = ch(["99213", "99214", "80053", "85025", "93000", "71046", "97110"])
    if t == 0:
        return "prose", "en", f"Insurance denied the claim: ICD-10 code {icd} with CPT {cpt} on {d_short(rdate())}. Call billing and ask them to resubmit."
    if t == 1:
        return "dict", "en", {"eob_date": rdate().isoformat(), "provider": ch(COMPANIES), "cpt_code": cpt, "icd10": icd, "billed": money(80, 900), "patient_owes": money(0, 120)}
    if t == 2:
        return "markdown-table", "en", md_table(["Date", "CPT", "Diagnosis", "Allowed"], [[rdate().isoformat(), ch(["99213", "97110", "85025"]), ch(["M54.5", "I10", "E11.9"]), money(40, 300)] for _ in range(3)])
    return "prose", "de", f"Auf der Arztrechnung steht Diagnose {icd} und GOÄ-Ziffer {ri(1, 900)} - Kopie an die Beihilfe schicken."


@fam("promo_code", "public promo code")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"The {ch(['running', 'history', 'cooking', 'tech'])} podcast's sponsor read: use promo code {ch(['PODCAST', 'LISTEN', 'SHOW'])}{ri(10, 30)} at checkout for {ri(10, 30)}% off your first box."
    if t == 1:
        return "prose", "en", f"Newsletter from {ch(COMPANIES)}: everyone gets {ch(['SPRING', 'SUMMER', 'FALL', 'WELCOME', 'BACK2SCHOOL'])}{ri(10, 40)} for {ri(10, 40)}% off until {d_short(rdate())}."
    if t == 2:
        return "dict", "en", {"store": ch(COMPANIES), "public_discount_code": f"{up(ri(4, 7))}{ri(5, 50)}", "source": ch(["Instagram post", "printed flyer", "newsletter", "radio ad"]), "valid_until": rdate().isoformat()}
    if t == 3:
        return "prose", "es", f"Código de descuento del folleto del supermercado: {up(5)}{ri(5, 25)} ({ri(5, 25)}% en droguería), válido hasta el {ri(1, 28)} de {ch(MONTHS_ES)}."
    return "prose", "fr", f"Code promo affiché sur le site pour tout le monde : {up(4)}{ri(10, 30)}, -{ri(10, 30)} % sur les chaussures de rando."


@fam("booking_reference", "booking reference")
def _(i):
    t = i % 6
    if t == 0:
        return "prose", "en", f"Flight to {ch(CITIES_WORLD)} booked, booking reference {ua(6)}, seats {ri(10, 40)}{ch('ABCDEF')} and {ri(10, 40)}{ch('ABCDEF')}."
    if t == 1:
        return "dict", "en", {"hotel": f"{ch(['Hotel', 'Pension', 'Casa', 'Inn'])} {ch(WORDS).title()}", "confirmation_no": dg(9), "check_in": rdate().isoformat(), "nights": ri(1, 7)}
    if t == 2:
        return "prose", "en", f"Airbnb in {ch(CITIES_WORLD)}: reservation code HM{ua(8)}, host {fn()}; check-in details arrive 3 days before."
    if t == 3:
        return "prose", "de", f"Mietwagen reserviert, Buchungsnummer {dg(10)}, Abholung am Flughafen {rdate().strftime('%d.%m.%Y')} um {hm()}."
    if t == 4:
        return "prose", "it", f"Prenotazione del ristorante confermata, codice {ua(6)}, tavolo per {ri(2, 8)} alle {hm()}."
    return "email", "en", f"Subject: Your booking is confirmed\n\nDear {fn()},\nthank you for booking with {ch(COMPANIES)} Travel.\nBooking ref: {ua(3)}-{dg(6)}\nDeparture: {d_en(rdate())}\nPassengers: {ri(1, 4)}\nManage your trip on our website."


@fam("boarding_pass", "boarding pass details")
def _(i):
    t = i % 4
    fl = f"{ch(['LH', 'BA', 'AF', 'KL', 'UA', 'DL', 'TP', 'IB', 'AZ', 'SK'])}{ri(10, 2999)}"
    if t == 0:
        return "dict", "en", {"flight": fl, "from": ch(["FRA", "LHR", "CDG", "AMS", "JFK", "LIS"]), "to": ch(["MAD", "OSL", "BCN", "SFO", "ATH", "DUB"]), "gate": f"{ch('ABCDE')}{ri(1, 60)}", "seat": f"{ri(1, 40)}{ch('ABCDEF')}", "group": ri(1, 6), "seq": f"{ri(1, 250):03d}", "boarding": hm()}
    if t == 1:
        return "prose", "en", f"Boarding pass saved to wallet: {fl}, seat {ri(1, 40)}{ch('ABCDEF')}, zone {ri(1, 5)}, boards {hm()} at gate {ch('BCD')}{ri(1, 40)}. Sequence number {ri(1, 200)}."
    if t == 2:
        return "prose", "es", f"Tarjeta de embarque del vuelo {fl}: asiento {ri(1, 40)}{ch('ABCDEF')}, puerta {ch('ABK')}{ri(1, 90)}, embarque a las {hm()}."
    return "prose", "en", f"Mobile boarding pass for the {ch(['ferry', 'train', 'flight'])} didn't load offline - screenshot it next time. Seat {ri(1, 60)}{ch('ABCD')}, coach {ri(1, 12)}."


@fam("transit_pass", "bus / transit pass")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Monthly bus pass renewed, zones 1-{ri(2, 4)}, valid to {d_en(rdate())}. Pass number printed on the back: {dg(10)}."
    if t == 1:
        return "dict", "de", {"Ticket": "Deutschlandticket", "Kundennummer": dg(8), "gültig_bis": rdate().strftime("%d.%m.%Y"), "Notiz": "Abo verlängert sich automatisch"}
    if t == 2:
        return "prose", "en", f"Student travel card {ua(3)} {dgz(4)} {dgz(4)} expires in {ch(MONTHS_EN)}; take the photo ID to the kiosk to renew."
    return "prose", "nl", f"OV-chipkaart nummer eindigt op {dgz(4)}, saldo €{ri(2, 40)},{dgz(2)}. Automatisch opladen staat aan."


@fam("pin_verb", "'pin' as a verb / object")
def _(i):
    t = i % 8
    if t == 0:
        return "prose", "en", f"Remind me to pin the {ch(['release checklist', 'meeting notes', 'on-call rota', 'lunch poll'])} in #{ch(['team', 'general', 'ops', 'random'])} so people stop asking."
    if t == 1:
        return "prose", "en", f"Pin the hem at {ri(2, 6)} cm before sewing; use the glass-head pins, the plastic ones melt under the iron."
    if t == 2:
        return "prose", "en", f"Bowling night: {fn()} knocked down {ri(7, 9)} pins on the first roll and picked up the spare; final score {ri(120, 210)}."
    if t == 3:
        return "prose", "en", f"Pinned tabs in the browser: calendar, {ch(SERVICES)}, the {ch(['budget', 'trip', 'recipes'])} sheet. Don't close them."
    if t == 4:
        return "prose", "en", f"Pinned the dependency to {ch(['requests', 'numpy', 'django', 'react'])}=={ri(1, 4)}.{ri(0, 30)}.{ri(0, 9)} because the new release broke the build."
    if t == 5:
        return "prose", "en", f"Wrestling practice: {fn()} got the pin in {ri(1, 3)}:{ri(10, 59)} in the second period."
    if t == 6:
        return "prose", "de", f"Die Reißzwecken (Pins) für die Pinnwand sind alle - beim nächsten Einkauf mitbringen, dazu {ri(2, 5)} Ersatzminen."
    return "prose", "en", f"They tried to pin the outage on the DNS change, but the timeline says the deploy at {hm()} came first."


@fam("map_pin", "dropped map pin / coordinates")
def _(i):
    t = i % 4
    lat, lon = round(rng.uniform(-40, 60), 5), round(rng.uniform(-120, 140), 5)
    if t == 0:
        return "prose", "en", f"Dropped a pin at {lat}, {lon} for the trailhead parking - the official address sends you to the wrong gate."
    if t == 1:
        return "dict", "en", {"label": ch(["picnic spot", "campsite", "car parked here", "bakery", "viewpoint"]), "pin": {"lat": lat, "lng": lon}, "saved": rdate().isoformat()}
    if t == 2:
        return "prose", "en", f"Shared pin from {fn()}: https://maps.example.com/?q={lat},{lon} - meet at the fountain."
    return "prose", "pt", f"Marquei um pin no mapa em {lat}, {lon} para o restaurante de peixe que o {fn('pt')} recomendou."


@fam("musical_key", "musical key")
def _(i):
    t = i % 4
    key = ch(["F# minor", "E♭ major", "D minor", "A major", "B♭ major", "C# minor", "G major"])
    if t == 0:
        return "prose", "en", f"Choir piece is in {key}; I need to transpose it down a whole step, capo {ri(1, 5)} on guitar works."
    if t == 1:
        return "dict", "en", {"song": f"{ch(WORDS).title()} {ch(WORDS).title()}", "key": key, "bpm": ri(68, 160), "capo": ri(0, 5)}
    if t == 2:
        return "prose", "de", f"Das Lied steht in {ch(['a-Moll', 'D-Dur', 'Es-Dur', 'g-Moll'])}, Schlüssel: Violinschlüssel. Für die Bratsche brauche ich den Altschlüssel."
    return "markdown-table", "en", md_table(["Setlist", "Key", "Tempo"], [[ch(WORDS).title(), ch(["Am", "C", "G", "Em", "Dm", "F#m"]), ri(70, 150)] for _ in range(4)])


@fam("okr_key_result", "OKR key result")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Q{ri(1, 4)} OKR: Objective - make onboarding painless. KR1: time-to-first-value under {ri(2, 10)} min. KR2: activation {ri(30, 70)}% -> {ri(71, 90)}%. KR3: {ri(3, 10)} churn interviews."
    if t == 1:
        return "nested", "en", {"objective": ch(["Improve reliability", "Grow self-serve revenue", "Reduce support load"]), "key_results": [{"kr": f"KR{k + 1}", "metric": ch(["p95 latency", "MRR", "tickets/week", "NPS"]), "target": ri(10, 500), "progress": round(rng.random(), 2)} for k in range(3)]}
    return "prose", "en", f"Key result slipped: we hit {ri(40, 80)}% of the KR on {ch(['uptime', 'signups', 'conversion'])}. Owner {fn()} will present at the review on {d_short(rdate())}."


@fam("nlp_token", "token in the NLP sense")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"The prompt is {ri(1200, 9000)} tokens, output capped at {ch([256, 512, 1024, 4096])} tokens; context window is {ch(['8k', '32k', '128k', '200k'])}."
    if t == 1:
        ids = [ri(10, 50000) for _ in range(ri(6, 12))]
        return "dict", "en", {"text": ch(["Hello world", "the cat sat", "tokenize me", "Grüß Gott"]), "token_ids": ids, "tokenizer": ch(["bpe-50k", "sentencepiece-32k", "wordpiece-30k"])}
    if t == 2:
        return "code", "en", f"tokens = tokenizer.encode(text)\nprint(len(tokens))  # {ri(10, 300)}\nprint(tokens[:5])   # {[ri(100, 30000) for _ in range(5)]}"
    if t == 3:
        return "prose", "en", f"Billing note: last month we used {ri(2, 90)}.{ri(0, 9)}M input tokens and {ri(1, 20)}.{ri(0, 9)}M output tokens on the summarizer."
    return "prose", "en", f"Linguistics homework: count word tokens vs types in the paragraph - {ri(80, 200)} tokens, {ri(40, 79)} types, TTR {round(rng.uniform(0.3, 0.7), 2)}."


@fam("token_economics", "crypto token economics")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Tokenomics of the project: total supply {ri(1, 10)} billion tokens, {ri(10, 30)}% to team with {ri(12, 48)}-month vesting, {ri(5, 20)}% airdrop."
    if t == 1:
        return "dict", "en", {"token": up(ri(3, 5)), "circulating_supply": ri(10 ** 6, 10 ** 9), "max_supply": ri(10 ** 9, 10 ** 10), "unlock_date": rdate().isoformat()}
    return "prose", "en", f"Sold {ri(10, 900)} governance tokens at ${rng.uniform(0.1, 9):.3f}; keep the trade confirmation for taxes."


@fam("secret_recipe", "'secret' in a recipe")
def _(i):
    t = i % 4
    ing = ch(["a pinch of cardamom", "a spoon of miso", "browned butter", "a splash of fish sauce", "grated nutmeg", "a shot of espresso", "smoked paprika"])
    if t == 0:
        return "prose", "en", f"Grandma's secret for the {ch(FOODS_EN)}: {ing}, and let it rest {ri(10, 60)} minutes before serving."
    if t == 1:
        return "prose", "es", f"El secreto de la tortilla de la abuela: patatas a fuego lento {ri(15, 30)} minutos y {ch(['un poco de cebolla', 'huevos a temperatura ambiente'])}."
    if t == 2:
        return "dict", "en", {"recipe": ch(FOODS_EN), "serves": ri(2, 8), "secret_ingredient": ing, "oven": f"{ri(160, 230)}°C"}
    return "prose", "it", f"Il segreto del ragù di nonna: cuocere almeno {ri(3, 6)} ore e aggiungere {ch(['un goccio di latte', 'una crosta di parmigiano'])}."


@fam("secret_in_fiction", "'secret' in books / games / gifts")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"Book club pick: '{ch(['The Secret Garden', 'The Secret History', 'The Secret Life of Bees', 'A Secret Kept'])}', chapters 1-{ri(5, 12)} by {d_short(rdate())}."
    if t == 1:
        return "prose", "en", f"Secret Santa at work: budget ${ri(15, 40)}, I drew {fn()}; they like {ch(['hot sauce', 'jigsaw puzzles', 'fountain pens', 'succulents'])}."
    if t == 2:
        return "prose", "en", f"Found the secret level in world {ri(1, 8)}-{ri(1, 4)}: bomb the cracked wall left of the waterfall."
    if t == 3:
        return "prose", "de", f"Wichteln in der Familie: Budget {ri(10, 30)} Euro, ich habe {fn('de')} gezogen - bloß nichts verraten, ist geheim!"
    return "prose", "en", f"Plot note for my novel: the secret the sister hides is that the letters were written by {ch(['the neighbour', 'their father', 'the lighthouse keeper'])}; reveal it in chapter {ri(8, 20)}."


@fam("sports_pass", "'pass' in sports")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Match stats: {ri(300, 650)} passes, {ri(70, 92)}% pass accuracy, {ri(2, 20)} shots. {fn()} made {ri(1, 4)} key passes."
    if t == 1:
        return "dict", "en", {"player": en_name(), "passes_completed": ri(20, 90), "pass_pct": round(rng.uniform(60, 95), 1), "assists": ri(0, 3), "minutes": ri(45, 90)}
    return "prose", "en", f"QB went {ri(15, 30)}/{ri(31, 45)} passing for {ri(180, 400)} yards and {ri(0, 4)} TD; the long pass was {ri(40, 75)} yards."


@fam("customs_hs_code", "customs / HS tariff code")
def _(i):
    hs = f"{dgz(4)}.{dgz(2)}.{dgz(2)}"
    t = i % 3
    if t == 0:
        return "prose", "en", f"Customs form for the parcel to {ch(CITIES_WORLD)}: HS code {hs} ({ch(['cotton shirts', 'books', 'ceramic mugs', 'toys'])}), declared value {money(10, 120)}."
    if t == 1:
        return "dict", "en", {"shipment": ua(10), "hs_code": hs, "origin": ch(["DE", "CN", "PT", "VN"]), "weight_kg": round(rng.uniform(0.2, 9), 2)}
    return "prose", "de", f"Zolltarifnummer für die Lautsprecher: {dgz(8)} - beim Import aus UK angeben."


@fam("swift_bic", "SWIFT/BIC code")
def _(i):
    bic = f"{up(4)}{ch(['DE', 'FR', 'GB', 'NL', 'ES', 'IT'])}{ua(2)}{ch(['', 'XXX', ua(3)])}"
    t = i % 3
    if t == 0:
        return "prose", "en", f"Landlord's bank BIC is {bic} - needed for the international rent transfer, reference 'Rent {ch(MONTHS_EN)}'."
    if t == 1:
        return "dict", "en", {"bank": f"{ch(['Banco', 'Bank', 'Banque', 'Sparkasse'])} {ch(WORDS).title()}", "swift": bic, "purpose": "receiving salary from abroad"}
    return "prose", "fr", f"Code BIC de ma banque pour recevoir le virement de l'employeur : {bic}."


@fam("course_code", "university course code")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Registered for {ch(['CS', 'MATH', 'BIO', 'ECON', 'PHYS'])} {ri(100, 499)} and {ch(['HIST', 'STAT', 'CHEM'])} {ri(100, 499)}; section {ch(['001', '002', '010'])}, room {ch('ABC')}{ri(100, 350)}."
    if t == 1:
        return "markdown-table", "en", md_table(["Course", "Code", "Credits"], [[ch(["Algorithms", "Genetics", "Macroeconomics", "Linear Algebra", "Ethics"]), f"{up(3)}{ri(100, 499)}", ri(2, 6)] for _ in range(4)])
    return "prose", "de", f"Modulnummer {dgz(5)} (Statistik II) - Klausuranmeldung bis {rdate().strftime('%d.%m.')} im Portal."


@fam("dress_code", "dress code / code of conduct")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Wedding dress code: {ch(['black tie optional', 'cocktail', 'garden formal', 'smart casual'])}. {fn()} says no white, ceremony at {hm()}."
    if t == 1:
        return "prose", "en", f"New job's dress code is {ch(['business casual', 'anything goes', 'no shorts on client days'])}; the code of conduct training is due by {d_short(rdate())}."
    return "prose", "fr", f"Code vestimentaire pour le gala : tenue {ch(['de soirée', 'chic', 'de cocktail'])}. Réserver le costume avant le {ri(1, 28)} {ch(MONTHS_FR)}."


@fam("qr_code_content", "QR code content")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"The QR code on the table just opens the menu: https://{ch(['menu', 'order', 'm'])}.{lo(6)}.com/{ch(['table', 't'])}/{ri(1, 40)}"
    if t == 1:
        return "dict", "en", {"scanned_qr": f"WIFI-less flyer -> https://events.example.org/{lo(5)}-{ri(2024, 2026)}", "type": "url", "scanned_at": iso(rdt())}
    return "prose", "en", f"Museum audio guide: scan the QR code next to each painting; exhibit codes run from {ri(100, 150)} to {ri(151, 300)}."


@fam("vat_tax_id", "company VAT / tax id")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Invoice needs our VAT number: {ch(['DE', 'FR', 'NL', 'IE', 'ES'])}{dg(9)}. It's on the company letterhead."
    if t == 1:
        return "dict", "en", {"supplier": ch(COMPANIES), "vat_id": f"{ch(['GB', 'IT', 'AT'])}{ch(['', 'U'])}{dg(9)}", "eori": f"GB{dg(12)}"}
    return "prose", "de", f"USt-IdNr. des Lieferanten: DE{dg(9)}, Steuernummer {dgz(2)}/{dgz(3)}/{dgz(5)} - für die Rechnung im Belegordner."


@fam("color_hex", "colour code")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Brand colours: primary #{HX(6)}, accent #{HX(6)}, text #{HX(6)}. Use the accent only for buttons."
    if t == 1:
        return "code", "en", f":root {{\n  --brand: #{hx(6)};\n  --bg: #{hx(6)};\n  --muted: rgba({ri(0, 255)}, {ri(0, 255)}, {ri(0, 255)}, 0.{ri(1, 9)});\n}}"
    return "dict", "en", {"paint": f"{ch(['Sage', 'Dusk', 'Oat', 'Harbor'])} {ch(['Mist', 'Grey', 'Blue', 'Green'])}", "code": f"{up(2)}-{dgz(4)}", "hex": f"#{HX(6)}", "room": ch(["hallway", "nursery", "office"])}


@fam("unicode_codepoint", "unicode code point")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"The emoji that breaks the CSV export is U+{HX(5)}; filter code points above U+FFFF."
    return "code", "en", f"# remove zero-width chars\ntext = text.replace('\\u{HX(4)}', '').replace('\\u200b', '')  # U+200B"


@fam("airport_code", "IATA/ICAO codes")
def _(i):
    t = i % 3
    a = sample(["LHR", "CDG", "FRA", "AMS", "MAD", "LIS", "JFK", "SFO", "NRT", "ICN", "DXB", "SIN", "YYZ", "MEL"], 3)
    if t == 0:
        return "prose", "en", f"Itinerary: {a[0]} -> {a[1]} -> {a[2]}; the {a[1]} layover is {ri(1, 5)}h{ri(0, 59):02d}."
    if t == 1:
        return "dict", "en", {"route": "-".join(a), "icao": [f"{ch('EKLR')}{up(3)}" for _ in a], "aircraft": ch(["A320neo", "B787-9", "A350-900", "E190"])}
    return "prose", "en", f"Pilot logbook: {up(4)} to {up(4)}, {ri(1, 4)}.{ri(0, 9)} h, squawk {ri(1000, 7677)} assigned after departure."


@fam("legal_code_section", "legal code section")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "de", f"Laut § {ri(100, 900)} BGB hat der Vermieter {ch(['eine Frist', 'keinen Anspruch', 'eine Hinweispflicht'])}; Anwältin {fn('de')} schickt mir die Kommentierung."
    if t == 1:
        return "prose", "en", f"The citation is under Vehicle Code § {ri(20000, 27000)}({ch('abc')}); hearing date {d_us(rdate())}."
    if t == 2:
        return "prose", "fr", f"Article L{ri(100, 900)}-{ri(1, 20)} du Code du travail : préavis de {ri(1, 3)} mois pour la démission."
    return "prose", "en", f"Zoning code section {ri(10, 40)}.{ri(10, 99)}.{ri(100, 999)} limits fence height to {ri(4, 8)} ft in front yards."


@fam("building_code", "building / fire code")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"Contractor says the building code requires a {ri(34, 38)}-inch railing and GFCI outlets within 6 ft of the sink; inspection on {d_short(rdate())}."
    return "prose", "en", f"Fire code: max occupancy {ri(40, 300)} for the hall, exit signs every {ri(50, 100)} ft. Permit #{dg(7)} is posted by the door."


@fam("keyboard_key", "keyboard keys / shortcuts")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Shortcut to reopen a closed tab: Ctrl+Shift+T (Cmd+Shift+T on Mac). Also {ch(['Win+V', 'Ctrl+Alt+Del', 'Alt+Tab', 'Cmd+Space'])} for {ch(['clipboard history', 'task manager', 'switching apps', 'search'])}."
    if t == 1:
        return "prose", "en", f"The {ch(['E', 'R', 'spacebar', 'left shift', 'Enter'])} key on the laptop sticks; replacement keycap set costs {money(5, 30)}."
    if t == 2:
        return "code", "en", f"document.addEventListener('keydown', (e) => {{\n  if (e.key === '{ch(['Escape', 'Enter', 'ArrowUp', 'k'])}' && e.{ch(['ctrlKey', 'metaKey', 'shiftKey'])}) {{ openPalette(); }}\n}});"
    return "prose", "de", f"Tastenkürzel für das Euro-Zeichen: AltGr+E. Die Taste F{ri(1, 12)} schaltet bei mir das WLAN aus."


@fam("key_other_senses", "'key' in other senses")
def _(i):
    t = i % 7
    if t == 0:
        return "prose", "en", f"Key takeaways from the {ch(['offsite', 'board meeting', 'retro'])}: hire {ri(2, 4)} engineers, delay the launch to {ch(MONTHS_EN)}, fix onboarding."
    if t == 1:
        return "prose", "en", f"Make the key lime pie for {fn()}'s birthday: {ri(3, 5)} egg yolks, condensed milk, {ri(100, 150)} ml lime juice."
    if t == 2:
        return "prose", "en", f"Answer key for worksheet {ri(1, 12)}: 1-{ch('abcd')}, 2-{ch('abcd')}, 3-{ch('abcd')}, 4-{ch('abcd')}, 5-{ch('abcd')}. Grade by Friday."
    if t == 3:
        return "prose", "en", f"Trip idea: drive down to the Florida Keys, stay {ri(2, 5)} nights in {ch(['Key Largo', 'Islamorada', 'Marathon', 'Key West'])}."
    if t == 4:
        return "prose", "en", f"Lost my keys again - spare car key fob needs a CR{ch(['2032', '2025', '2016'])} battery; dealer charges {money(20, 90)} to program a new one."
    if t == 5:
        return "prose", "en", f"Map legend (key): blue = water stops, red = first aid, green = toilets. Course map v{ri(1, 4)}."
    return "prose", "en", f"Low-key birthday this year: dinner at {ch(COMPANIES)} and a walk. Key people: {fn()}, {fn()}, {fn()}."


@fam("token_other_senses", "'token' in other senses")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Laundry room takes tokens now, {money(1, 3)} each from the machine in the lobby; I have {ri(2, 9)} left."
    if t == 1:
        return "prose", "en", f"Small token of appreciation for {fn()}: {ch(['a plant', 'chocolates', 'a card', 'coffee beans'])}, after they covered my shift."
    if t == 2:
        return "prose", "en", f"Board game night: each player starts with {ri(3, 8)} tokens; the blue tokens are worth {ri(2, 5)}."
    return "prose", "en", f"Arcade: {ri(20, 100)} game tokens for {money(10, 25)}; the kids won {ri(100, 800)} tickets."


@fam("pass_other_senses", "'pass' in other senses")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"Drive over the {ch(['Stelvio', 'Furka', 'Grimsel', 'Susten', 'Gotthard'])} Pass on day {ri(2, 5)}; it's only open June-October."
    if t == 1:
        return "prose", "en", f"{fn()} passed the driving test on the {ch(['first', 'second', 'third'])} try with {ri(2, 8)} minor faults."
    if t == 2:
        return "prose", "en", f"Season ski pass for {ch(['Verbier', 'Whistler', 'Zermatt', 'Ischgl'])}: {money(400, 1200)}, photo needed, pick-up at the ticket office."
    if t == 3:
        return "prose", "en", f"Museum pass covers {ri(30, 60)} museums for {ri(2, 6)} days; skip-the-line at the {ch(['Louvre', 'Uffizi', 'Prado'])} not included."
    return "prose", "en", f"Hall pass policy at school changed: students sign out on the sheet by the door, max {ri(5, 10)} minutes."


@fam("hash_other_senses", "'hash' in other senses")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Brunch order: hash browns, {ch(['corned beef hash', 'veggie hash', 'eggs benedict'])}, {ri(2, 3)} coffees."
    if t == 1:
        return "prose", "en", f"Event hashtag is #{ch(['Devfest', 'PyCon', 'RunForFun', 'BookFair'])}{ri(2024, 2026)}; tag photos with it."
    return "prose", "en", f"We need to hash out the custody schedule before {d_short(rdate())}; mediator {fn()} suggested alternating weeks."


@fam("cipher_puzzle", "cipher puzzle / homework")
def _(i):
    plain = ch(["HELLO WORLD", "MEET AT NOON", "PIZZA TONIGHT", "GO TEAM", "HAPPY BIRTHDAY"])
    k = ri(1, 25)
    enc = "".join(chr((ord(c) - 65 + k) % 26 + 65) if c.isalpha() else c for c in plain)
    t = i % 2
    if t == 0:
        return "prose", "en", f"{fn()}'s homework: Caesar shift of {k}. '{enc}' decodes to '{plain}'. Next week is Vigenère."
    return "prose", "en", f"Escape-room clue we solved: '{enc}' with shift {k} = '{plain}'. Took us {ri(5, 20)} minutes."


@fam("cheat_code", "video game cheat code")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", "Classic cheat: up, up, down, down, left, right, left, right, B, A, start - gives 30 lives in the old shooter."
    if t == 1:
        return "prose", "en", f"Console command in the sandbox game: give {ch(['wood', 'stone', 'gold'])} {ri(10, 999)} - works only in creative mode."
    return "prose", "en", f"Cheat code for the racing game: type '{ch(['TURBO', 'NITRO', 'ROCKET', 'GHOST'])}{ri(1, 99)}' on the title screen to unlock the {ch(['pink', 'gold', 'invisible'])} car. Printed in the magazine."


@fam("jira_issue_key", "issue tracker keys")
def _(i):
    t = i % 3
    p = ch(["OPS", "WEB", "PAY", "INFRA", "MOB", "DATA"])
    if t == 0:
        return "prose", "en", f"Bug is tracked as {p}-{ri(100, 9999)}; duplicate of {p}-{ri(100, 9999)}. Fix goes out in sprint {ri(20, 90)}."
    if t == 1:
        return "list", "en", [f"{p}-{ri(100, 9999)} {ch(['login page 500', 'slow export', 'typo in footer', 'dark mode contrast', 'flaky test'])}" for _ in range(ri(3, 6))]
    return "prose", "en", f"The issue key changed after the project move: old {p}-{ri(100, 999)} -> new {ch(['PLAT', 'CORE'])}-{ri(1000, 9999)}."


@fam("db_primary_key", "database primary/foreign key")
def _(i):
    t = i % 3
    if t == 0:
        return "sql", "en", f"CREATE TABLE {ch(['orders', 'invoices', 'shipments'])} (\n  id BIGSERIAL PRIMARY KEY,\n  customer_id BIGINT NOT NULL REFERENCES customers(id),\n  total_cents INT NOT NULL,\n  created_at TIMESTAMPTZ DEFAULT now()\n);"
    if t == 1:
        return "prose", "en", f"Migration failed: duplicate key value violates unique constraint \"{ch(['users', 'orders', 'tags'])}_pkey\" (id={ri(1000, 99999)}). Reset the sequence."
    return "prose", "en", f"Schema note: use a composite key (tenant_id, {ch(['slug', 'email', 'sku'])}) and index created_at; the surrogate key stays a UUID."


@fam("professional_credential", "professional credentials")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"{fn()} has the credentials for the job: {ch(['RN, BSN', 'CPA', 'PMP', 'PE', 'CFA Level II'])}, {ri(3, 15)} years experience."
    if t == 1:
        return "prose", "en", f"Nursing license renewal: license no. {up(2)}{dg(6)}, {ri(20, 30)} CE hours due by {d_us(rdate())}."
    return "prose", "en", f"Credential evaluation for the foreign degree takes {ri(4, 12)} weeks; send transcripts to {ch(['WES', 'ECE'])}."


@fam("access_other_senses", "'access' in other senses")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Venue has wheelchair access via the {ch(['side ramp', 'rear lift', 'Elm Street entrance'])}; accessible toilets on level {ri(0, 2)}."
    if t == 1:
        return "prose", "en", f"Signed up for early access to {ch(['the beta', 'the new app', 'the game'])}; invitation wave {ri(1, 5)} starts {d_short(rdate())}."
    if t == 2:
        return "prose", "en", f"Old reports live in an MS Access database ({ch(['sales', 'members', 'inventory'])}.accdb); export tables to CSV before the laptop is wiped."
    return "prose", "en", f"Beach access #{ri(1, 40)} has parking; access road closes at {hm()}."


@fam("barcode_number", "barcode (EAN/UPC)")
def _(i):
    body = dgz(12)
    s = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(body))
    ean = body + str((10 - s % 10) % 10)
    t = i % 3
    if t == 0:
        return "prose", "en", f"The oat milk we like has barcode {ean}; the app says it's in stock at {ch(COMPANIES)}."
    if t == 1:
        return "dict", "en", {"scanned": ean, "product": ch(["dark chocolate 85%", "baby wipes", "olive oil", "dish tabs"]), "price": money(1, 15)}
    return "list", "en", [{"ean": ean, "qty": ri(1, 4)}, {"ean": dgz(13), "qty": ri(1, 4)}]


@fam("lottery_numbers", "lottery numbers")
def _(i):
    nums = sorted(sample(range(1, 50), 6))
    t = i % 2
    if t == 0:
        return "prose", "en", f"Office lottery syndicate numbers: {' '.join(str(n) for n in nums)}, bonus {ri(1, 10)}. Draw on {ch(DAYS_EN)}."
    return "prose", "de", f"Lottozahlen von Opa, seit 20 Jahren dieselben: {', '.join(str(n) for n in nums)}, Superzahl {ri(0, 9)}."


@fam("receipt_approval_code", "card receipt / approval code")
def _(i):
    t = i % 4
    last4 = dgz(4)
    if t == 0:
        return "receipt", "en", f"{ch(COMPANIES).upper()}\n{d_en(rdate())} {hm()}\nVISA ************{last4}\nAMOUNT {money(3, 180)}\nAPPROVAL CODE {ua(6)}\nTERMINAL {dg(8)}\nTHANK YOU"
    if t == 1:
        return "dict", "en", {"merchant": ch(COMPANIES), "amount": money(5, 400), "card": f"Mastercard ending {last4}", "auth_code": dg(6), "rrn": dg(12)}
    if t == 2:
        return "prose", "en", f"Refund check: the original charge had authorization code {ua(6)}, ref {dg(10)}; card ending {last4}. Bank says 5-7 days."
    return "receipt", "de", f"KARTENZAHLUNG\ngirocard\nBetrag EUR {ri(3, 90)},{dgz(2)}\nGenehmigungs-Nr. {dg(6)}\nTrace-Nr. {dg(6)}\nKarte ****{last4}\nZahlung erfolgt"


@fam("order_number", "order number")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Amazon order {dg(3)}-{dgz(7)}-{dgz(7)} ({ch(PRODUCTS)}) arrives {ch(DAYS_EN)}; return window until {d_short(rdate())}."
    if t == 1:
        return "dict", "en", {"order": f"#{dg(6)}", "shop": ch(COMPANIES), "items": ri(1, 6), "total": money(10, 600), "status": ch(["shipped", "processing", "delivered"])}
    if t == 2:
        return "prose", "fr", f"Commande n° {dg(9)} chez {ch(COMPANIES)} : colis en retard, réclamation ouverte le {rdate().strftime('%d/%m/%Y')}."
    return "email", "en", f"From: orders@{lo(8)}.example\nSubject: Order {ua(3)}{dg(7)} confirmed\n\nHi {fn()},\nwe've received your order and will let you know when it ships.\nOrder total: {money(20, 300)}"


@fam("invoice_number", "invoice number")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Paid invoice INV-{ri(2021, 2026)}-{dgz(5)} from {ch(COMPANIES)} ({money(100, 4000)}); reference the number in the transfer."
    if t == 1:
        return "csv", "en", csv_text(["invoice", "client", "amount", "due"], [[f"{ri(2024, 2026)}-{dgz(4)}", ch(COMPANIES), money(200, 5000, ''), rdate().isoformat()] for _ in range(ri(3, 5))])
    return "prose", "de", f"Rechnungsnummer RE-{dg(6)} vom Handwerker, fällig bis {rdate().strftime('%d.%m.%Y')}, Betrag {ri(100, 2000)},{dgz(2)} €."


@fam("customer_number", "utility customer / meter number")
def _(i):
    t = i % 3
    if t == 0:
        return "dict", "en", {"provider": ch(["City Water", "GreenGrid Power", "MetroGas"]), "account_no": dg(10), "meter_no": f"{up(1)}{dg(8)}", "reading": ri(1000, 99999)}
    if t == 1:
        return "prose", "de", f"Stromanbieter gewechselt. Kundennummer {dg(9)}, Zählernummer 1ESY{dg(9)}, Zählerstand {ri(10000, 90000)} kWh am Umzugstag."
    return "prose", "en", f"Internet provider customer number {dg(8)} - quote it on the phone; contract ends {d_us(rdate())}."


@fam("insurance_policy_number", "insurance policy number")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Car insurance policy {up(3)}-{dg(8)} renews {d_short(rdate())}; premium went up to {money(600, 1800)}/year."
    if t == 1:
        return "dict", "en", {"insurer": ch(COMPANIES), "policy_number": f"{dg(4)}-{dgz(6)}-{dgz(2)}", "type": ch(["home", "travel", "pet", "dental"]), "claims_phone": phone("US")}
    return "prose", "es", f"Número de póliza del seguro de hogar: {dg(10)}. Parte del siniestro abierto el {rdate().strftime('%d/%m/%Y')}."


@fam("support_ticket_number", "support ticket number")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Support case #{dg(8)} with {ch(SERVICES)} about the double charge; agent {fn()} promised a reply in 48h."
    if t == 1:
        return "prose", "en", f"IT ticket INC{dg(7)} - laptop replacement; change request CHG{dg(7)} scheduled for {d_short(rdate())}."
    return "dict", "en", {"ticket": f"{up(3)}-{dg(6)}", "subject": ch(["refund", "broken item", "login issue", "address change"]), "status": ch(["open", "pending customer", "solved"])}


@fam("flight_number", "flight / train number")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"{fn()} lands on {ch(['UA', 'DL', 'BA', 'EK'])}{ri(10, 999)} at {hm()}, terminal {ri(1, 5)}. Pick-up at arrivals door {ri(1, 12)}."
    if t == 1:
        return "prose", "de", f"Zug ICE {ri(500, 1700)} nach {ch(['Hamburg', 'München', 'Köln'])}, Wagen {ri(1, 14)}, Platz {ri(11, 128)}, Abfahrt {hm()} Gleis {ri(1, 20)}."
    return "prose", "fr", f"TGV n° {ri(6000, 9900)} pour {ch(['Marseille', 'Bordeaux', 'Lille'])}, voiture {ri(1, 20)}, place {ri(1, 100)}."


@fam("event_ticket", "event ticket details")
def _(i):
    t = i % 3
    if t == 0:
        return "dict", "en", {"event": f"{ch(['The', 'Night', 'Blue'])} {ch(WORDS).title()}s live", "date": rdate().isoformat(), "section": f"{ri(100, 330)}", "row": up(1), "seat": ri(1, 30), "order": f"{dg(2)}-{dgz(5)}/{up(3)}"}
    if t == 1:
        return "prose", "en", f"Concert tickets: block {ch('ABCDEFG')}, row {ri(1, 30)}, seats {ri(1, 20)}-{ri(21, 30)}. Doors {hm()}; tickets are in the app, transfer to {fn()}."
    return "prose", "es", f"Entradas del partido: sector {ri(100, 500)}, fila {ri(1, 40)}, asientos {ri(1, 20)} y {ri(21, 30)}. Abren puertas a las {hm()}."

# ===========================================================================
# HARD BENIGN FAMILIES -- part B: talking about secrets without the value
# ===========================================================================


@fam("password_policy", "password policy text")
def _(i):
    t = i % 5
    n = ri(8, 16)
    if t == 0:
        return "prose", "en", f"{ch(COMPANIES)} IT policy: passwords need at least {n} characters, no reuse of the last {ri(3, 24)}, rotation every {ri(60, 365)} days, MFA mandatory for VPN."
    if t == 1:
        return "yaml", "en", f"password_policy:\n  min_length: {n}\n  require_upper: true\n  require_digit: true\n  require_symbol: {str(maybe()).lower()}\n  max_age_days: {ri(0, 365)}\n  lockout_after_failures: {ri(3, 10)}"
    if t == 2:
        return "prose", "de", f"Neue Passwortrichtlinie im Büro: mindestens {n} Zeichen, keine Namen oder Geburtsdaten, Passwort-Manager ist Pflicht."
    if t == 3:
        return "prose", "en", f"NIST guidance summary for the team wiki: length over complexity, no forced periodic resets, screen new passwords against breached lists, allow paste."
    return "dict", "en", {"setting": "PasswordComplexity", "min_length": n, "history": ri(5, 24), "lockout_threshold": ri(3, 10), "source": "GPO export"}


@fam("password_reset_talk", "password reset talk, no value")
def _(i):
    t = i % 6
    s = ch(SERVICES)
    if t == 0:
        return "prose", "en", f"Reset my {s} password on {d_short(rdate())} after the phishing scare. New one is in the password manager, not written anywhere else."
    if t == 1:
        return "chat", "en", chat_roles(f"I got locked out of {s} again", "Use 'Forgot password' - the reset link goes to your work email. Want a reminder to update the saved login afterwards?", "yes please, tomorrow 9am")
    if t == 2:
        return "prose", "fr", f"J'ai réinitialisé le mot de passe de {s} ; le lien de réinitialisation expirait au bout de {ri(15, 60)} minutes."
    if t == 3:
        return "prose", "en", f"Reminder: {fn()}'s laptop password expires in {ri(2, 14)} days - IT will force a change at next login."
    if t == 4:
        return "prose", "es", f"Cambié la contraseña de {s} porque me llegó un aviso de inicio de sesión desde {ch(CITIES_WORLD)}. Ya activé la verificación en dos pasos."
    return "log", "en", f"{iso(rdt())} INFO auth password_reset_requested user_id={ri(1000, 99999)} channel=email\n{iso(rdt())} INFO auth password_reset_completed user_id={ri(1000, 99999)} sessions_revoked={ri(1, 6)}"


@fam("password_manager_advice", "password manager advice")
def _(i):
    t = i % 4
    pm = ch(["Bitwarden", "1Password", "KeePassXC", "the browser's password manager", "Proton Pass"])
    if t == 0:
        return "prose", "en", f"User moved from sticky notes to {pm}; vault is protected by a long passphrase they memorized. Suggested enabling the emergency kit."
    if t == 1:
        return "prose", "en", f"Advice I gave {fn()}: use {pm}, unique password per site, turn on 2FA for email first since it resets everything else."
    if t == 2:
        return "list", "en", ["Export old browser passwords", f"Import into {pm}", "Delete the CSV export afterwards", "Enable biometric unlock", "Audit weak/reused entries"]
    return "prose", "de", f"Passwort-Manager ({pm}) eingerichtet; die Notfallkarte liegt im Bankschließfach. Noch {ri(10, 80)} schwache Passwörter ändern."


@fam("breach_news", "breach news / notices")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Have I Been Pwned says my old email appears in {ri(2, 12)} breaches, including {ch(['a forum', 'a game site', 'a fitness app'])} in {ri(2012, 2024)}. Changed those passwords already."
    if t == 1:
        return "email", "en", f"Subject: Notice of data security incident\n\nWe recently learned that an unauthorized party accessed {ch(['names and email addresses', 'order histories', 'hashed passwords'])} of some customers. Out of caution, we have reset passwords for affected accounts. No payment data was involved."
    if t == 2:
        return "prose", "en", f"News: {ch(COMPANIES)} leaked {ri(1, 90)} million records; they say passwords were salted and hashed. Still, rotate anything reused."
    return "prose", "it", f"Notizia: violazione di dati presso {ch(COMPANIES)}, esposte email e numeri di telefono. Consigliano di cambiare la password."


@fam("password_stats", "password statistics")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Talk slide: the most common passwords in leaked lists are still sequences like 123456 and the word 'password'; {ri(20, 80)}% of people reuse passwords."
    if t == 1:
        return "markdown-table", "en", md_table(["Length", "Time to crack (est.)"], [[8, f"{ri(1, 59)} minutes"], [10, f"{ri(1, 20)} weeks"], [12, f"{ri(100, 900)} years"], [16, "millennia"]])
    return "prose", "en", f"Survey result for the report: {ri(30, 70)}% of staff use a password manager, {ri(5, 30)}% write passwords on paper, median password length {ri(9, 14)}."


@fam("pin_talk_no_value", "PIN talk without the PIN")
def _(i):
    t = i % 6
    if t == 0:
        return "prose", "en", f"New debit card arrived; PIN letter comes separately in {ri(3, 7)} days. Activate at an ATM, not online."
    if t == 1:
        return "prose", "de", f"Habe die PIN der EC-Karte dreimal falsch eingegeben - Karte gesperrt. Neue PIN-Brief bei der {ch(['Sparkasse', 'Volksbank', 'Bank'])} beantragt."
    if t == 2:
        return "chat", "en", chat_roles("what's the PIN for the phone again?", "I don't store PINs. You could check your password manager or reset it from your carrier account.", "fair, found it")
    if t == 3:
        return "prose", "en", f"Changed my phone PIN from 4 to 6 digits after {fn()} saw me unlock it on the train."
    if t == 4:
        return "prose", "fr", "Le code PIN de la carte bancaire a été changé au distributeur ; je ne le note nulle part."
    return "prose", "en", f"ATM swallowed the card after the wrong PIN - bank branch on {ch(STREETS_EN)} opens at {hm()}."


@fam("sim_puk_talk", "SIM PIN/PUK talk without values")
def _(i):
    t = i % 6
    if t == 0:
        return "prose", "en", f"SIM is PUK-locked after three wrong PINs; the PUK is in the {ch(['carrier app', 'original SIM card holder', 'online account'])} - do not guess, 10 tries and it's dead."
    if t == 1:
        return "prose", "de", f"SIM-Karte gesperrt, PUK steht auf der Plastikkarte vom Anbieter, die liegt im Ordner '{ch(['Verträge', 'Handy', 'Wichtiges'])}'."
    if t == 2:
        return "prose", "es", f"La SIM pide el PUK; el código está en la tarjeta plástica original, que guardé en el cajón de {ch(['la entrada', 'la cocina', 'mi escritorio'])}."
    if t == 3:
        return "prose", "en", f"Turned off the SIM PIN on {fn()}'s old phone before giving it away; eSIM transfer from {ch(['Vodafone', 'EE', 'Orange', 'T-Mobile'])} took {ri(10, 40)} minutes."
    if t == 4:
        return "prose", "fr", f"Le téléphone demande le code PUK après trois erreurs ; il faut appeler le service client ({ch(['Orange', 'SFR', 'Free', 'Bouygues'])}) depuis une autre ligne pour l'obtenir."
    return "chat", "en", chat_roles("my phone says 'SIM locked, enter PUK' - what now?", f"Don't keep guessing. Log in to your {ch(['carrier account', 'provider app'])} or call support from another phone; they'll give you the PUK after verifying your identity.")


@fam("otp_request_no_reply", "asks for a code, reply withholds it")
def _(i):
    t = i % 6
    names = two_names()
    if t == 0:
        return "chat", "en", chat_people(names, ["hey, did you get the verification code for the Netflix login?", "yeah but I'm not sending it over chat lol", "ok I'll come over", "👍"])
    if t == 1:
        return "chat", "en", chat_roles("Can you read me the 6-digit code my bank just texted?", "I can't see your texts. Open the message on your phone and type the code into the bank page yourself - and never share it with anyone who calls you.")
    if t == 2:
        return "sms", "en", f"{names[0]}: Mum, a man from the 'bank' is asking for the code they sent\n{names[1]}: DON'T give it to him. Hang up, I'll call you now"
    if t == 3:
        return "chat", "de", chat_people(names, ["Kannst du mir den Code aus der SMS schicken? Für das Familienkonto", "Moment, ich mach das lieber selbst, bin gleich am Laptop", "ok danke"])
    if t == 4:
        return "chat", "es", chat_people(names, ["¿Me pasas el código que te llegó para entrar en la cuenta del gimnasio?", "No, mejor entro yo y te cambio la reserva", "vale"])
    return "chat", "en", chat_roles("the delivery guy is asking for the code from the app", "That's the parcel handover code; it's shown in the courier app under your order. I don't have access to it.")


@fam("twofa_setup_talk", "2FA setup talk, no codes")
def _(i):
    t = i % 4
    s = ch(SERVICES)
    if t == 0:
        return "prose", "en", f"Enabled 2FA on {s} with an authenticator app; backup codes printed and locked in the filing cabinet, not saved digitally."
    if t == 1:
        return "prose", "en", f"Switched {s} from SMS codes to a hardware key ({ch(['YubiKey 5C', 'Titan key', 'Nitrokey'])}); registered a spare key as backup."
    if t == 2:
        return "list", "en", [f"{ch(SERVICES)}: passkey", f"{ch(SERVICES)}: TOTP app", f"{ch(SERVICES)}: SMS (switch!)", f"{ch(SERVICES)}: none yet"]
    return "prose", "fr", f"Double authentification activée sur {s} ; les codes de secours sont imprimés et rangés dans le coffre."


@fam("wifi_ssid_only", "Wi-Fi network name, no password")
def _(i):
    t = i % 5
    ssid = ch([f"{ch(SN_EN)}-Guest", f"FRITZ!Box {ri(6000, 7590)} {up(2)}", f"Vodafone-{ua(4)}", f"Casa-{fn('pt')}-5G", f"{ch(WORDS).title()}Net", f"eduroam", f"HOTEL_{up(5)}_FREE"])
    if t == 0:
        return "prose", "en", f"Guest Wi-Fi at {fn()}'s place is '{ssid}'; the password is on the card on the fridge, ask them when we arrive."
    if t == 1:
        return "dict", "en", {"network": ssid, "band": ch(["2.4 GHz", "5 GHz"]), "security": ch(["WPA2-Personal", "WPA3", "open with captive portal"]), "router_ip": f"192.168.{ri(0, 2)}.1"}
    if t == 2:
        return "prose", "de", f"WLAN im Ferienhaus heißt '{ssid}', Zugangsdaten liegen laut Vermieter in der Küchenschublade."
    if t == 3:
        return "log", "en", f"{iso(rdt())} wlan0: associated with SSID \"{ssid}\" (bssid {':'.join(hx(2) for _ in range(6))}), signal -{ri(40, 80)} dBm"
    return "prose", "en", f"Office network '{ssid}' needs the certificate profile from IT; connect with your normal staff login."


@fam("door_code_talk_no_value", "door/building code talk, no value")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"Building door code changes on the 1st of every month; {fn()} from the 3rd floor posts it in the residents' group. Ask her."
    if t == 1:
        return "chat", "en", chat_people(two_names(), ["what's the gate code for the storage unit?", "I'll tell you when you get there, not putting it in chat", "ok, arriving around " + hm()])
    if t == 2:
        return "prose", "de", "Der Türcode fürs Treppenhaus wurde geändert, die Hausverwaltung schickt ihn per Brief. Noch nicht angekommen."
    if t == 3:
        return "prose", "en", f"Note to self: the keypad at the office back door is broken, use the front entrance with the badge until {d_short(rdate())}."
    return "prose", "fr", "Le digicode de l'immeuble a changé ; le gardien le donne seulement en main propre."


@fam("alarm_safe_garage_talk", "alarm / safe / garage talk, no codes")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"Alarm company visit on {d_short(rdate())} at {hm()} to replace the panel battery; the panel beeps every {ri(30, 90)} seconds until then."
    if t == 1:
        return "prose", "en", f"Programmed the new garage remote with the learn button (hold {ri(5, 30)} s until the light blinks). Old remote thrown away."
    if t == 2:
        return "prose", "en", f"Hotel room safe: set your own code on the inside keypad, max {ri(4, 6)} digits; reception can open it with ID."
    if t == 3:
        return "prose", "en", f"Gun safe is a {ch(['SentrySafe', 'Liberty', 'Stack-On'])} model {ua(6)}; manual and warranty card in the top drawer. Combination not written anywhere."
    return "prose", "de", f"Alarmanlage: Wartungsvertrag mit {ch(COMPANIES)}, Service-Hotline {phone('DE')}. Code kennen nur wir beide."


@fam("security_question_talk", "security question talk, no answer")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"The bank's phone line now asks a security question (first school) - I gave a random answer stored in the password manager, not the real one."
    if t == 1:
        return "prose", "en", f"Tip for {fn()}: treat security questions like passwords; make up answers and save them. Mother's maiden name is public anyway."
    return "prose", "es", "El banco me pidió configurar preguntas de seguridad; las respuestas las guardé en el gestor de contraseñas."


@fam("recovery_codes_talk", "recovery code talk, no codes")
def _(i):
    t = i % 3
    s = ch(SERVICES)
    if t == 0:
        return "prose", "en", f"Downloaded new recovery codes for {s} (the old set was invalidated). Printed one copy, stored in the safe; {ri(8, 10)} codes, each single-use."
    if t == 1:
        return "prose", "en", f"Used one of the {s} recovery codes after losing the phone; {ri(5, 9)} left. Regenerate when the new phone is set up."
    return "prose", "de", f"Wiederherstellungsschlüssel für den Apple-Account liegt ausgedruckt im Tresor - nicht digital speichern."


@fam("seed_phrase_talk", "seed phrase talk, no words")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Reminder: the hardware wallet's {ch([12, 24])}-word recovery phrase is stamped on the steel plate in the safe deposit box. Never type it into a website."
    if t == 1:
        return "prose", "en", f"Scam warning for {fn()}: 'wallet support' on Telegram asked for her seed phrase. Real support never asks for it."
    if t == 2:
        return "prose", "en", f"Set up a new Ledger; verified the backup by re-entering all words on the device. Passphrase (25th word) feature not used."
    return "prose", "fr", "La phrase de récupération du portefeuille est écrite sur papier, dans l'enveloppe scellée chez le notaire."


@fam("key_rotation_talk", "API key rotation talk, no values")
def _(i):
    t = i % 5
    v = ch(VENDORS)
    if t == 0:
        return "prose", "en", f"Rotated the {v} API key on {d_short(rdate())}; old key revoked, new one lives in the secrets manager under prod/{ch(APPS)}."
    if t == 1:
        return "chat", "en", chat_people(two_names(), [f"did anyone rotate the {v} token after {fn()} left?", "yep, yesterday. new one is in Vault, CI picks it up", "great, closing the ticket"])
    if t == 2:
        return "list", "en", [f"Revoke old {v} key", "Create new key with least privilege", "Update secret in vault", "Redeploy " + ch(APPS), "Confirm old key returns 401"]
    if t == 3:
        return "prose", "en", f"The {v} key expires every {ri(30, 90)} days; set a calendar reminder {ri(3, 10)} days before to rotate."
    return "prose", "de", f"API-Schlüssel von {v} erneuert, alter Schlüssel deaktiviert. Neuer Wert nur im Secret Store, nicht im Wiki."


@fam("incident_report_no_values", "incident report, values omitted")
def _(i):
    t = i % 3
    if t == 0:
        return "markdown", "en", f"## Incident {ri(2023, 2026)}-{ri(1, 60):02d}\n- {hm()} secret scanner flagged a {ch(VENDORS)} token in a public repo\n- {hm()} token revoked, repo history rewritten\n- Impact: none observed in audit logs\n- Follow-up: pre-commit hook for all repos"
    if t == 1:
        return "prose", "en", f"Postmortem: a database password was committed to the {ch(APPS)} repo for {ri(2, 40)} minutes; credential rotated, no unauthorized logins found."
    return "dict", "en", {"incident": f"SEC-{dg(4)}", "type": "credential exposure", "credential": f"{ch(VENDORS)} API key (value redacted)", "rotated": True, "detected_by": ch(["scanner", "vendor notification", "engineer"])}


@fam("login_instructions_no_value", "login instructions without credentials")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"To log in to the school portal: use the student ID as username, password was set at enrollment. {fn()} forgot hers - the office resets it on {ch(DAYS_EN)}s."
    if t == 1:
        return "prose", "en", f"New hire setup: SSO login via {ch(['Okta', 'Google Workspace', 'Azure AD'])}; temporary password arrives by SMS to the personal phone and must be changed on first login."
    if t == 2:
        return "prose", "de", "Anmeldung im Elternportal: Benutzername ist die E-Mail-Adresse, das Passwort hat jeder selbst gesetzt."
    return "prose", "en", f"The router admin page is at http://192.168.{ri(0, 1)}.1; login is on the sticker under the device."


@fam("username_only", "usernames / handles only")
def _(i):
    t = i % 4
    u = f"{fn().lower()}.{ch(SN_EN).lower().replace(chr(39), '')}{ri(1, 99)}"
    if t == 0:
        return "prose", "en", f"My username on the {ch(['library', 'forum', 'gym', 'recipe'])} site is {u}; I always forget whether it has the number."
    if t == 1:
        return "dict", "en", {"service": ch(SERVICES), "username": u, "email": f"{u}@example.com", "2fa": ch(["app", "sms", "passkey"])}
    if t == 2:
        return "prose", "en", f"{fn()}'s gamertag is {ch(WORDS).title()}{ch(WORDS).title()}{ri(1, 999)}; add them as a friend."
    return "csv", "en", csv_text(["login", "role", "last_seen"], [[f"{lo(ri(4, 8))}{ri(1, 99)}", ch(["admin", "editor", "viewer"]), rdate().isoformat()] for _ in range(ri(3, 5))])


@fam("code_review_secret_talk", "code review about secrets, no values")
def _(i):
    t = i % 3
    if t == 0:
        return "chat", "en", chat_people(two_names(), ["LGTM except line 42 - please don't hardcode the token, read it from the env", "good catch, moved to os.environ['PAYMENTS_TOKEN']", "approved"])
    if t == 1:
        return "prose", "en", f"Review note on PR #{ri(100, 4000)}: the test used a real-looking key string; replaced with a fixture that generates a fake per run."
    return "prose", "en", "Team rule: secrets go in the vault, config references them by name, and the linter blocks anything matching a key pattern."


@fam("verification_link_no_token", "verification / reset link without token")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Click the link in the email from {ch(SERVICES)} to verify the new address; it expires in {ri(15, 72)} hours. (Email is in the Promotions tab.)"
    if t == 1:
        return "prose", "en", f"Docs: password reset links look like https://{lo(7)}.example.com/reset?token=<token> and expire after {ri(10, 60)} minutes."
    return "prose", "de", "Bestätigungslink für das neue Konto ist im Spam gelandet - nochmal anfordern, der alte ist abgelaufen."

# ===========================================================================
# HARD BENIGN FAMILIES -- part C: placeholders, masks, configs, code
# ===========================================================================


@fam("placeholder_value", "placeholder credentials")
def _(i):
    t = i % 7
    if t == 0:
        return "code", "en", f"client = {ch(['Stripe', 'OpenAI', 'Twilio', 'SendGrid'])}Client(api_key=\"YOUR_API_KEY_HERE\")"
    if t == 1:
        return "ini", "en", f"[{ch(APPS)}]\nhost = {ch(HOSTS)}\nuser = <username>\npassword = <password>\n"
    if t == 2:
        return "prose", "en", f"Template for the README: export {ch(VENDORS).upper()}_TOKEN=xxxxxxxxxxxxxxxxxxxxxxxx (replace with your own token)."
    if t == 3:
        return "json-text", "en", json.dumps({"apiKey": "<insert-key>", "endpoint": f"https://api.{lo(6)}.example/v{ri(1, 3)}", "timeoutMs": ri(1000, 30000)}, indent=2)
    if t == 4:
        return "code", "en", f"curl https://api.{lo(6)}.example/v1/items \\\n  -H \"Authorization: Bearer ${{TOKEN}}\" \\\n  -H \"Content-Type: application/json\""
    if t == 5:
        return "yaml", "en", f"smtp:\n  host: smtp.{lo(6)}.example\n  port: {ch([25, 465, 587])}\n  username: CHANGE_ME\n  password: CHANGE_ME"
    return "prose", "en", f"Form fields in the tutorial: API key = sk-...(your key), secret = ****, region = {ch(['us-east-1', 'eu-central-1'])}."


@fam("masked_value", "masked credential")
def _(i):
    t = i % 6
    if t == 0:
        return "prose", "en", f"Dashboard shows the key as sk_live_••••••••••••••••{b62(4)} - that's the one attached to the {ch(APPS)} webhook endpoint."
    if t == 1:
        return "dict", "en", {"name": f"{ch(APPS)}-prod", "key": f"AKIA************{ua(4)}", "created": rdate().isoformat(), "last_used": rdate().isoformat(), "status": ch(["Active", "Inactive"])}
    if t == 2:
        return "log", "en", f"{iso(rdt())} DEBUG loaded config: db_password=******** api_token=ghp_****{b62(4)} region={ch(['eu-west-1', 'us-east-2'])}"
    if t == 3:
        return "prose", "en", f"Bank app masks the account password as ●●●●●●●● and shows card ending {dgz(4)}; nothing else visible in the screenshot."
    if t == 4:
        return "csv", "en", csv_text(["token_name", "token", "scopes"], [[f"{ch(['ci', 'deploy', 'bot'])}-{lo(4)}", f"glpat-****************{b62(4)}", "read_api"] for _ in range(ri(2, 4))])
    return "prose", "de", f"In der Oberfläche steht nur der maskierte Schlüssel ({b62(4)}…{'*' * 20}); den vollen Wert sieht man nur einmal bei der Erstellung."


@fam("redacted_log", "log with redacted values")
def _(i):
    t = i % 4
    if t == 0:
        return "log", "en", "\n".join([f"{iso(rdt())} INFO  http POST /v1/login status=200 user={lo(6)} password=[REDACTED]",
                                       f"{iso(rdt())} INFO  http GET /v1/me status=200 authorization=[REDACTED]"])
    if t == 1:
        return "log", "en", f"> Authorization: Bearer <redacted>\n> Cookie: session=<redacted>\n< HTTP/1.1 {ch([200, 204, 304])}\n< x-request-id: {uuid4()}"
    if t == 2:
        return "json-text", "en", json.dumps({"level": "info", "msg": "connecting", "dsn": "postgres://app:***@" + ch(HOSTS) + ":5432/app", "ts": iso(rdt())})
    return "log", "en", f"[{rdt().strftime('%d/%b/%Y:%H:%M:%S')} +0000] \"GET /callback?code=%5BFILTERED%5D&state=%5BFILTERED%5D HTTP/1.1\" 302 0"


@fam("doc_example_value", "documented example value (marked)")
def _(i):
    t = i % 6
    if t == 0:
        return "prose", "en", "From the AWS docs (example values, not real): aws_access_key_id = AKIAIOSFODNN7EXAMPLE, aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY. Use them only to see the config file format."
    if t == 1:
        return "ini", "en", "# ~/.aws/credentials -- sample straight from the documentation\n[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = " + ch(["us-west-2", "eu-west-1", "us-east-1"])
    if t == 2:
        return "prose", "en", "The sample token on jwt.io decodes to {\"sub\":\"1234567890\",\"name\":\"John Doe\",\"iat\":1516239022} - it's the site's demo example: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    if t == 3:
        return "prose", "en", f"RFC 6238 test vectors use the ASCII seed 12345678901234567890; at T=59 the expected 8-digit TOTP is 94287082. Our unit test {ch(['passes', 'fails on SHA256 mode'])}."
    if t == 4:
        return "prose", "en", "Twilio docs show account SIDs as ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX and auth tokens as your_auth_token - the quickstart I was following."
    return "code", "en", "# example from the library docs - not a real server\nDATABASE_URL = \"postgresql://user:password@localhost:5432/mydb\"  # replace user/password"


@fam("test_fixture", "test fixture with fake values")
def _(i):
    t = i % 5
    if t == 0:
        return "code", "en", f"@pytest.fixture\ndef user(db):\n    return UserFactory(email=\"{lo(5)}@example.test\", password=\"not-a-real-password\")\n\ndef test_login(client, user):\n    assert client.login(user.email, \"not-a-real-password\")"
    if t == 1:
        return "code", "en", f"// jest mock\njest.mock('../{ch(['payments', 'mailer', 'storage'])}', () => ({{\n  getToken: jest.fn().mockResolvedValue('fake-token-for-tests'),\n  charge: jest.fn(),\n}}));"
    if t == 2:
        return "json-text", "en", json.dumps({"fixtures": [{"username": f"test_user_{k}", "password": "dummy", "role": ch(["admin", "viewer"])} for k in range(ri(2, 3))], "note": "seed data for local tests only"}, indent=1)
    if t == 3:
        return "code", "en", f"func TestSign(t *testing.T) {{\n\tkey := []byte(\"test-signing-key\") // deterministic fake for golden files\n\tgot := Sign(key, []byte(\"{lo(6)}\"))\n\tif len(got) != {ch([32, 64])} {{ t.Fatal(\"bad length\") }}\n}}"
    return "yaml", "en", f"# docker-compose.test.yml (CI only, throwaway container)\nservices:\n  db:\n    image: postgres:{ri(13, 17)}\n    environment:\n      POSTGRES_USER: test\n      POSTGRES_PASSWORD: test\n      POSTGRES_DB: test_{lo(4)}"


@fam("mock_response", "mocked API response")
def _(i):
    t = i % 3
    if t == 0:
        return "json-text", "en", json.dumps({"status": "ok", "data": {"id": ri(1, 9999), "name": en_name(), "access_token": "mock_access_token", "expires_in": 3600}, "_mock": True}, indent=2)
    if t == 1:
        return "code", "en", f"responses.add(responses.POST, \"https://api.{lo(6)}.example/oauth/token\",\n              json={{\"access_token\": \"FAKE\", \"token_type\": \"bearer\"}}, status=200)"
    return "code", "en", f"// MSW handler for storybook\nhttp.get('/api/session', () => HttpResponse.json({{ user: '{fn().lower()}', token: 'storybook-dummy' }}))"


@fam("env_var_reference", "code reading secrets from env")
def _(i):
    t = i % 5
    var = ch(["DATABASE_PASSWORD", "STRIPE_SECRET_KEY", "OPENAI_API_KEY", "SLACK_BOT_TOKEN", "JWT_SECRET", "GITHUB_TOKEN"])
    if t == 0:
        return "code", "en", f"import os\n\n{var.lower()} = os.environ[\"{var}\"]\nif not {var.lower()}:\n    raise RuntimeError(\"{var} is not set\")"
    if t == 1:
        return "code", "en", f"const key = process.env.{var};\nif (!key) throw new Error('missing {var}');"
    if t == 2:
        return "code", "en", f"secret := os.Getenv(\"{var}\")\nif secret == \"\" {{\n\tlog.Fatal(\"{var} required\")\n}}"
    if t == 3:
        return "shell", "en", f"#!/usr/bin/env bash\nset -euo pipefail\n: \"${{{var}:?must be set}}\"\n./deploy.sh --env {ch(['prod', 'staging'])}"
    return "code", "en", f"let token = std::env::var(\"{var}\").expect(\"{var} not set\");"


@fam("config_env_reference", "config using env/secret references")
def _(i):
    t = i % 4
    if t == 0:
        return "yaml", "en", f"database:\n  host: {ch(HOSTS)}\n  port: 5432\n  user: {ch(APPS).replace('-', '_')}\n  password: ${{DB_PASSWORD}}\n  sslmode: require"
    if t == 1:
        return "yaml", "en", f"spring:\n  datasource:\n    url: jdbc:postgresql://{ch(HOSTS)}:5432/{lo(6)}\n    username: ${{DB_USER}}\n    password: ${{DB_PASS}}"
    if t == 2:
        return "json-text", "en", json.dumps({"mail": {"host": f"smtp.{lo(6)}.example", "user": "noreply", "password": "{{ vault \"secret/mail#password\" }}"}}, indent=2)
    return "ini", "en", f"[server]\nport = {ri(3000, 9000)}\nsecret_key = %(ENV_SECRET_KEY)s\ndebug = false"


@fam("k8s_secret_ref", "kubernetes secret references")
def _(i):
    t = i % 2
    if t == 0:
        return "yaml", "en", f"env:\n  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: {ch(APPS)}-secrets\n        key: api-token\n  - name: LOG_LEVEL\n    value: {ch(['info', 'debug', 'warn'])}"
    return "yaml", "en", f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {ch(APPS)}\nspec:\n  secretStoreRef:\n    name: aws-sm\n    kind: ClusterSecretStore\n  data:\n    - secretKey: password\n      remoteRef:\n        key: prod/{ch(APPS)}/db"


@fam("terraform_sensitive_var", "terraform sensitive variable without value")
def _(i):
    t = i % 2
    if t == 0:
        return "code", "en", f"variable \"{ch(['db_password', 'api_token', 'admin_secret'])}\" {{\n  type      = string\n  sensitive = true\n  description = \"Injected from {ch(['TF_VAR env', 'Vault', 'the CI secret store'])}\"\n}}"
    return "code", "en", f"data \"aws_secretsmanager_secret_version\" \"db\" {{\n  secret_id = \"prod/{ch(APPS)}/postgres\"\n}}\n\nresource \"aws_db_instance\" \"main\" {{\n  password = jsondecode(data.aws_secretsmanager_secret_version.db.secret_string)[\"password\"]\n}}"


@fam("ci_secret_reference", "CI pipeline secret references")
def _(i):
    t = i % 3
    if t == 0:
        return "yaml", "en", f"- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{{{ secrets.NPM_TOKEN }}}}\n- name: Notify\n  run: ./notify.sh ${{{{ secrets.SLACK_WEBHOOK_URL }}}}"
    if t == 1:
        return "yaml", "en", f"deploy:\n  stage: deploy\n  script:\n    - echo \"$KUBE_CONFIG\" > kubeconfig\n    - helm upgrade {ch(APPS)} ./chart\n  only: [main]"
    return "prose", "en", f"Added PYPI_API_TOKEN as a repository secret in GitHub Actions; workflow references it as secrets.PYPI_API_TOKEN. Value only in the settings page."


@fam("dotenv_template", ".env template with empty values")
def _(i):
    keys = sample(["DATABASE_URL", "REDIS_URL", "STRIPE_SECRET_KEY", "SENTRY_DSN", "SMTP_PASSWORD", "JWT_SECRET", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY"], 4)
    t = i % 2
    if t == 0:
        return "dotenv", "en", "# .env.example - copy to .env and fill in\n" + "\n".join(f"{k}=" for k in keys) + f"\nPORT={ri(3000, 9000)}\nNODE_ENV=development"
    return "dotenv", "en", "\n".join(f"{k}=<{k.lower().replace('_', '-')}>" for k in keys) + "\n# never commit the real .env"


@fam("docker_secret_files", "docker secrets by file path")
def _(i):
    t = i % 2
    if t == 0:
        return "yaml", "en", f"services:\n  {ch(APPS)}:\n    image: ghcr.io/{lo(6)}/{ch(APPS)}:{ri(1, 9)}.{ri(0, 20)}\n    secrets:\n      - db_password\n    environment:\n      DB_PASSWORD_FILE: /run/secrets/db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt"
    return "shell", "en", f"printf '%s' \"$(pass show infra/{ch(APPS)})\" | docker secret create {ch(APPS)}_pw -"


@fam("sql_password_column", "SQL with password columns, no values")
def _(i):
    t = i % 4
    if t == 0:
        return "sql", "en", "CREATE TABLE users (\n  id SERIAL PRIMARY KEY,\n  email TEXT UNIQUE NOT NULL,\n  password_hash TEXT NOT NULL,\n  password_changed_at TIMESTAMP,\n  mfa_secret_encrypted BYTEA\n);"
    if t == 1:
        return "sql", "en", f"UPDATE users SET password_hash = $1, reset_token = NULL WHERE id = $2;  -- called from reset flow, params bound at runtime"
    if t == 2:
        return "sql", "en", f"SELECT id, email FROM accounts WHERE last_password_change < now() - interval '{ri(90, 400)} days';"
    return "sql", "en", "ALTER TABLE api_clients ADD COLUMN secret_digest CHAR(64);\nCOMMENT ON COLUMN api_clients.secret_digest IS 'sha256 of client secret, raw value never stored';"


@fam("html_password_field", "UI forms with password inputs")
def _(i):
    t = i % 5
    if t == 0:
        return "html", "en", f"<form method=\"post\" action=\"/{ch(['login', 'signin', 'session'])}\">\n  <input type=\"email\" name=\"email\" autocomplete=\"username\">\n  <input type=\"password\" name=\"password\" autocomplete=\"current-password\" minlength=\"{ri(8, 12)}\">\n  <button>Sign in</button>\n</form>"
    if t == 1:
        return "html", "en", f"<label for=\"pin\">PIN</label>\n<input id=\"pin\" type=\"password\" inputmode=\"numeric\" maxlength=\"{ch([4, 6])}\" placeholder=\"{ch(['••••', '••••••', 'PIN'])}\">"
    if t == 2:
        v = ch(["password", "pw", "newPassword"])
        return "code", "en", f"<TextField\n  label=\"{ch(['Password', 'New password', 'Confirm password'])}\"\n  type={{show ? 'text' : 'password'}}\n  value={{{v}}}\n  onChange={{e => set{v[0].upper() + v[1:]}(e.target.value)}}\n/>"
    if t == 3:
        return "code", "en", f"TextField(\n  obscureText: true,\n  decoration: InputDecoration(labelText: '{ch(['Password', 'Passwort', 'Mot de passe'])}'),\n  validator: (v) => v!.length < {ri(8, 12)} ? 'Too short' : null,\n)"
    return "code", "en", f"<EditText\n    android:id=\"@+id/{ch(['password', 'pin_input', 'passcode'])}\"\n    android:inputType=\"{ch(['textPassword', 'numberPassword'])}\"\n    android:hint=\"@string/{ch(['password_hint', 'enter_pin'])}\" />"


@fam("openapi_security_scheme", "OpenAPI security schemes")
def _(i):
    t = i % 2
    if t == 0:
        return "yaml", "en", "components:\n  securitySchemes:\n    bearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT\n    apiKey:\n      type: apiKey\n      in: header\n      name: X-API-Key\nsecurity:\n  - bearerAuth: []"
    return "yaml", "en", f"  oauth2:\n    type: oauth2\n    flows:\n      clientCredentials:\n        tokenUrl: https://auth.{lo(6)}.example/oauth/token\n        scopes:\n          read:{ch(['orders', 'users', 'reports'])}: read access"


@fam("auth_error_log", "auth error logs without credentials")
def _(i):
    t = i % 4
    if t == 0:
        return "log", "en", f"{iso(rdt())} WARN {ch(APPS)} 401 Unauthorized: API key invalid or revoked (key_id={ch(['k_', 'key-'])}{la(8)})"
    if t == 1:
        return "log", "en", f"sshd[{ri(1000, 60000)}]: Failed password for invalid user {ch(['admin', 'oracle', 'test', 'ubuntu'])} from {ri(11, 223)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)} port {ri(1024, 65000)} ssh2"
    if t == 2:
        return "log", "en", f"Error: token expired at {iso(rdt())}; refreshing session for user_id={ri(100, 99999)}"
    return "prose", "en", f"{ch(SERVICES)} login failed with 'invalid password' {ri(2, 5)} times this morning - maybe caps lock. Account not locked yet."


@fam("db_url_no_password", "connection string without password")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Read replica for analytics: postgresql://{ch(['readonly', 'analyst', 'report'])}@{ch(HOSTS)}:5432/{lo(6)}?sslmode=verify-full (auth via IAM token, no password)."
    if t == 1:
        return "code", "en", f"REDIS_URL = \"redis://{ch(['localhost', 'cache-01.svc.cluster.local'])}:6379/{ri(0, 15)}\""
    if t == 2:
        return "prose", "en", f"Mongo URI for the local dev box is mongodb://127.0.0.1:27017/{lo(5)} - no auth on dev."
    return "yaml", "en", f"dsn: \"host={ch(HOSTS)} port=5432 dbname={lo(6)} user={lo(5)} sslmode=require\"  # password via PGPASSFILE"


@fam("regex_token_pattern", "regex patterns for token formats")
def _(i):
    t = i % 5
    if t == 0:
        names = sample([("github", "ghp_[A-Za-z0-9]{36}"), ("aws_id", "AKIA[0-9A-Z]{16}"), ("slack", "xox[baprs]-[0-9A-Za-z-]{10,}"), ("stripe", "sk_live_[0-9a-zA-Z]{24,}"), ("gitlab", "glpat-[0-9A-Za-z_-]{20}"), ("npm", "npm_[A-Za-z0-9]{36}")], 3)
        body = "\n".join(f"    '{n}': r'{p}'," for n, p in names)
        return "code", "en", "PATTERNS = {\n" + body + "\n}"
    if t == 1:
        return "prose", "en", f"Pre-commit rule I added on {d_short(rdate())}: block lines matching {ch(['sk_live_[0-9a-zA-Z]{24,}', 'AKIA[0-9A-Z]{16}', 'xoxb-[0-9-]+-[A-Za-z0-9]+'])} or -----BEGIN [A-Z ]*PRIVATE KEY-----."
    if t == 2:
        return "code", "en", f"const CARD_RE = /\\b(?:\\d[ -]*?){{13,19}}\\b/; // used to mask card numbers in {ch(['support chat transcripts', 'log lines', 'exported tickets'])}"
    if t == 3:
        pre = ch(["itk_", "pk-int-", "ses_"])
        return "code", "en", f"[[rules]]\nid = \"{ch(['internal-api-token', 'partner-key', 'legacy-session'])}\"\ndescription = \"{ch(COMPANIES)} internal token\"\nregex = '''{pre}[a-z0-9]{{{ri(24, 40)}}}'''\nkeywords = [\"{pre}\"]"
    return "prose", "en", f"The DLP rule matches 6-digit numbers next to the word 'code' - it fired {ri(20, 400)} times last week, mostly on order confirmations."


@fam("http_headers_safe", "HTTP headers without secrets")
def _(i):
    t = i % 2
    if t == 0:
        return "log", "en", f"HTTP/2 200\ncontent-type: application/json\netag: W/\"{hx(16)}\"\ncache-control: max-age={ri(60, 3600)}\nx-request-id: {uuid4()}\nstrict-transport-security: max-age=31536000"
    return "log", "en", f"GET /api/v2/items?page={ri(1, 20)} HTTP/1.1\nHost: api.{lo(6)}.example\nAccept: application/json\nUser-Agent: Mozilla/5.0\nIf-None-Match: \"{hx(32)}\""


@fam("env_listing_safe", "environment listing without secrets")
def _(i):
    return "shell", "en", f"$ env | sort\nHOME=/home/{lo(5)}\nLANG={ch(['en_US.UTF-8', 'de_DE.UTF-8', 'fr_FR.UTF-8'])}\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/srv/{ch(APPS)}\nSHELL=/bin/{ch(['bash', 'zsh'])}\nTERM=xterm-256color\nTZ={ch(['UTC', 'Europe/Berlin', 'America/Chicago'])}"


@fam("stack_trace", "stack trace without secrets")
def _(i):
    t = i % 3
    if t == 0:
        return "log", "en", f"Traceback (most recent call last):\n  File \"/srv/{ch(APPS)}/app.py\", line {ri(10, 400)}, in handle\n    token = request.headers[\"Authorization\"].split()[1]\nIndexError: list index out of range"
    if t == 1:
        return "log", "en", f"java.lang.IllegalStateException: Keystore not initialized\n\tat com.{lo(6)}.security.KeyLoader.load(KeyLoader.java:{ri(20, 300)})\n\tat com.{lo(6)}.App.main(App.java:{ri(10, 90)})"
    return "log", "en", f"TypeError: Cannot read properties of undefined (reading 'secret')\n    at verifySignature (/app/src/webhooks.js:{ri(10, 200)}:{ri(5, 40)})\n    at processTicksAndRejections (node:internal/process/task_queues:{ri(60, 99)}:5)"


@fam("app_log", "application logs without secrets")
def _(i):
    lines = []
    dt = rdt()
    for _ in range(ri(3, 6)):
        dt += datetime.timedelta(milliseconds=ri(5, 4000))
        lines.append(f"{iso(dt)} {ch(['INFO', 'INFO', 'DEBUG', 'WARN'])} {ch(APPS)} {ch(['cache miss key=user:' + str(ri(1, 9999)), 'job done id=' + ulid(), 'retry attempt=' + str(ri(1, 4)), 'token bucket refill rate=' + str(ri(5, 50)), 'session created sid_hash=' + hx(8), 'password policy check ok user=' + str(ri(1, 9999))])}")
    return "log", "en", "\n".join(lines)

# ===========================================================================
# HARD BENIGN FAMILIES -- part D: ids, hashes, digests, public key material
# ===========================================================================


@fam("file_checksum", "file checksum")
def _(i):
    t = i % 5
    fname = ch(["ubuntu-24.04-desktop-amd64.iso", "debian-12.5.0-amd64-netinst.iso", f"backup-{rdate().isoformat()}.tar.gz", "firmware_v2.3.1.bin", "installer.dmg", f"photos-{ri(2019, 2025)}.zip"])
    if t == 0:
        return "prose", "en", f"SHA-256 of {fname} should be {hx(64)} - matched after download."
    if t == 1:
        return "shell", "en", f"$ sha256sum {fname}\n{hx(64)}  {fname}"
    if t == 2:
        return "dict", "en", {"file": fname, "md5": hx(32), "sha1": hx(40), "size_bytes": ri(10 ** 5, 5 * 10 ** 9)}
    if t == 3:
        return "shell", "en", "\n".join(f"{hx(64)}  {ch(['a', 'b', 'c', 'd'])}{k}.{ch(['parquet', 'csv', 'json'])}" for k in range(ri(3, 5)))
    return "prose", "de", f"Prüfsumme (SHA-256) der Sicherung stimmt: {hx(64)}."


@fam("git_sha", "git commit hashes")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"Regression started at commit {hx(40)}; last good one is {hx(7)}. Bisect took {ri(5, 12)} steps."
    if t == 1:
        return "log", "en", "\n".join(f"{hx(7)} {ch(['fix', 'feat', 'chore', 'docs'])}: {ch(['update deps', 'handle empty cart', 'rename token var', 'add retry', 'tweak README'])}" for _ in range(ri(3, 6)))
    if t == 2:
        return "dict", "en", {"repo": f"{lo(6)}/{ch(APPS)}", "deployed_sha": hx(40), "branch": ch(["main", "release/" + str(ri(1, 9)) + ".x"]), "deployed_at": iso(rdt())}
    if t == 3:
        return "prose", "en", f"Cherry-pick {hx(12)} onto the hotfix branch; tag v{ri(1, 5)}.{ri(0, 20)}.{ri(0, 9)} points to {hx(40)}."
    return "code", "en", f"- uses: actions/checkout@{hx(40)} # v4\n- uses: actions/setup-node@{hx(40)} # v4"


@fam("uuid_id", "UUIDs")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Customer record id {uuid4()} is the duplicate; merge it into {uuid4()}."
    if t == 1:
        return "dict", "en", {"id": uuid4(), "tenant_id": uuid4(), "type": ch(["invoice", "profile", "device"]), "created_at": iso(rdt())}
    if t == 2:
        return "csv", "en", csv_text(["device_id", "model", "last_seen"], [[uuid4(), ch(["Pixel 8", "iPhone 14", "Galaxy S23"]), rdate().isoformat()] for _ in range(3)])
    return "prose", "en", f"Azure subscription id for the sandbox is {uuid4()}; tenant {uuid4()}. Both are just identifiers."


@fam("ulid_id", "ULIDs / ksuid-like ids")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Job {ulid()} failed, retried as {ulid()}."
    if t == 1:
        return "list", "en", [{"event_id": ulid(), "type": ch(["order.created", "order.paid", "user.updated"])} for _ in range(ri(2, 4))]
    return "log", "en", f"{iso(rdt())} queue=emails msg_id={ulid()} status=delivered"


@fam("build_id", "CI build ids / artifacts")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Build #{ri(1000, 90000)} ({ch(APPS)}) green; artifact {ch(APPS)}-{ri(1, 9)}.{ri(0, 30)}.{ri(0, 9)}+build.{ri(100, 9999)}.{hx(7)}.tar.gz uploaded."
    if t == 1:
        return "dict", "en", {"pipeline_id": ri(10 ** 6, 10 ** 8), "run_id": dg(10), "attempt": ri(1, 3), "artifact_digest": "sha256:" + hx(64)}
    return "prose", "en", f"Android build number {ri(100, 99999)}, versionCode {dg(8)}, build id {up(2)}{ri(1, 9)}{up(1)}.{dg(6)}.{dgz(3)}."


@fam("trace_span_id", "trace / span ids")
def _(i):
    t = i % 3
    if t == 0:
        return "log", "en", f"traceparent: 00-{hx(32)}-{hx(16)}-01"
    if t == 1:
        return "dict", "en", {"trace_id": hx(32), "span_id": hx(16), "parent_span_id": hx(16), "service": ch(APPS), "duration_ms": ri(1, 3000)}
    return "prose", "en", f"Slow checkout request: trace {hx(32)}, the DB span {hx(16)} took {ri(800, 9000)} ms."


@fam("request_id", "request ids")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Support asked for the request id of the failed upload: {uuid4()} (from the error toast)."
    if t == 1:
        return "log", "en", f"x-amz-request-id: {HX(16)}\nx-amz-id-2: {b64(76)}="
    if t == 2:
        return "prose", "en", f"Stripe said to include the request id req_{b62(14)} when reporting the {ch(['declined charge', 'webhook delay', 'refund error'])}."
    return "log", "en", f"cf-ray: {hx(16)}-{ch(['FRA', 'AMS', 'LHR', 'SJC'])}"


@fam("container_digest", "container image digests")
def _(i):
    t = i % 3
    img = ch(["nginx", "postgres", "redis", "python", "node", f"ghcr.io/{lo(6)}/{ch(APPS)}"])
    if t == 0:
        return "prose", "en", f"Pin the base image by digest: {img}@sha256:{hx(64)}"
    if t == 1:
        return "log", "en", f"{ri(1, 9)}.{ri(0, 9)}: Pulling from library/{ch(['nginx', 'redis', 'alpine'])}\nDigest: sha256:{hx(64)}\nStatus: Downloaded newer image"
    return "yaml", "en", f"image: {img}@sha256:{hx(64)}\nimagePullPolicy: IfNotPresent"


@fam("content_hash_asset", "content-hashed asset names / URLs")
def _(i):
    t = i % 4
    if t == 0:
        return "html", "en", f"<link rel=\"stylesheet\" href=\"/static/css/main.{hx(8)}.css\">\n<script src=\"/static/js/app.{hx(20)}.js\" integrity=\"sha384-{b64(64)}\" crossorigin=\"anonymous\"></script>"
    if t == 1:
        return "prose", "en", f"Broken image after deploy: https://cdn.{lo(6)}.example/assets/{hx(32)}.webp returns 404; the old hash was {hx(32)}."
    if t == 2:
        return "code", "en", f".css-{la(7)} {{ color: #{hx(6)}; }}\n.sc-{b62(6)} {{ margin: {ri(2, 24)}px; }}"
    return "list", "en", [f"chunk-{la(8)}.js", f"vendor.{hx(8)}.js", f"runtime~main.{hx(20)}.js"]


@fam("signed_url_public_part", "signed URL with signature stripped")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Report download link (signature removed before saving): https://{lo(8)}.s3.{ch(['eu-west-1', 'us-east-1'])}.amazonaws.com/exports/{uuid4()}.csv - regenerate a fresh one from the dashboard when needed."
    if t == 1:
        return "prose", "en", f"The share link expired; the path was /storage/v1/object/sign/{lo(7)}/{lo(6)}.pdf and the dashboard can issue a new one."
    return "dict", "en", {"bucket": lo(10), "object": f"invoices/{ri(2024, 2026)}/{dg(6)}.pdf", "url_expires": iso(rdt()), "signature": "[removed]"}


@fam("ssh_public_key", "SSH public keys")
def _(i):
    t = i % 4
    user = f"{fn().lower()}@{ch(['laptop', 'desktop', 'work-mbp', 'pi'])}"
    ed = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + b64(43)
    if t == 0:
        return "prose", "en", f"Public key to add to the server's authorized_keys: {ed} {user}"
    if t == 1:
        return "code", "en", f"# ~/.ssh/authorized_keys\n{ed} {user}\nssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{b64(200)}= {fn().lower()}@build"
    if t == 2:
        return "dict", "en", {"title": f"{ch(['work laptop', 'home PC', 'CI deploy'])}", "key": ed, "type": "ssh-ed25519", "added": rdate().isoformat()}
    return "prose", "en", f"GitHub shows my public key as {ed}; the private half never leaves the laptop."


@fam("certificate_pem", "certificate (public)")
def _(i):
    t = i % 2
    cert = pem("CERTIFICATE", "MIID" + ch(["zCCA", "jTCCA", "rzCCA"]), ri(300, 600))
    if t == 0:
        return "pem", "en", f"Root CA cert for the office proxy (public, install it in the trust store):\n{cert}"
    return "pem", "en", cert


@fam("key_fingerprint", "key / cert fingerprints")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Server host key fingerprint is SHA256:{b64(43)} (ED25519) - compare before accepting."
    if t == 1:
        return "prose", "en", f"My PGP fingerprint: {' '.join(HX(4) for _ in range(5))}  {' '.join(HX(4) for _ in range(5))}"
    if t == 2:
        return "dict", "en", {"subject": f"CN={lo(6)}.example.com", "sha256_fingerprint": ":".join(HX(2) for _ in range(32)), "not_after": rdate().isoformat()}
    return "log", "en", f"The authenticity of host '{lo(6)}.example ({ri(10, 200)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)})' can't be established.\nED25519 key fingerprint is SHA256:{b64(43)}."


@fam("jwks_public", "JWKS / public JWK")
def _(i):
    t = i % 2
    if t == 0:
        return "nested", "en", {"keys": [{"kty": "RSA", "kid": hx(16), "use": "sig", "alg": "RS256", "n": b64u(342), "e": "AQAB"}]}
    return "nested", "en", {"kty": "EC", "crv": "P-256", "kid": f"{lo(4)}-{ri(2023, 2026)}", "x": b64u(43), "y": b64u(43), "use": "sig"}


@fam("pgp_public_key", "PGP public key block")
def _(i):
    body = "mQINBG" + b64(ri(300, 500))
    return "pem", "en", f"{ch(['My public key for encrypted mail:', 'Public key from the keyserver:', ''])}\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{wrap64(body)}\n={b64(4)}\n-----END PGP PUBLIC KEY BLOCK-----".strip()


@fam("publishable_key", "publishable / public client keys")
def _(i):
    t = i % 5
    if t == 0:
        return "code", "en", f"// frontend only - publishable key is safe to ship\nconst stripe = Stripe('pk_live_{b62(24)}');"
    if t == 1:
        return "prose", "en", f"Stripe test-mode publishable key for the demo page: pk_test_{b62(24)}. (Publishable keys are meant to be public.)"
    if t == 2:
        return "code", "en", f"mapboxgl.accessToken = 'pk.{b64url_json({'u': lo(7), 'a': 'cl' + la(22)})}.{b64u(22)}'; // public token, URL-restricted"
    if t == 3:
        return "html", "en", f"<div class=\"g-recaptcha\" data-sitekey=\"6L{ch('ce')}{b64u(37)}\"></div>"
    return "dotenv", "en", f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_{b62(24)}\nNEXT_PUBLIC_APP_URL=https://{lo(6)}.example"


@fam("oauth_client_id", "OAuth client ids (public)")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Google OAuth client id for the web app: {dg(12)}-{la(32)}.apps.googleusercontent.com (client id is public; secret lives in the vault)."
    if t == 1:
        return "dict", "en", {"provider": ch(["GitHub", "Auth0", "Okta"]), "client_id": ch(["Iv1.", "Ov23li"]) + hx(16), "redirect_uri": f"https://{lo(6)}.example/callback"}
    return "code", "en", f"const msal = new PublicClientApplication({{ auth: {{ clientId: '{uuid4()}', authority: 'https://login.microsoftonline.com/common' }} }});"


@fam("analytics_id", "analytics / tag ids")
def _(i):
    t = i % 3
    if t == 0:
        return "html", "en", f"<script async src=\"https://www.googletagmanager.com/gtag/js?id=G-{ua(10)}\"></script>"
    if t == 1:
        return "prose", "en", f"Marketing asked to add GTM-{ua(7)} and Meta pixel {dg(15)} to the landing page."
    return "dict", "en", {"ga4_measurement_id": f"G-{ua(10)}", "hotjar_site_id": ri(10 ** 6, 9 * 10 ** 6), "plausible_domain": f"{lo(6)}.example"}


@fam("cloud_resource_id", "cloud resource ids / ARNs")
def _(i):
    t = i % 4
    acct = dg(12)
    if t == 0:
        return "prose", "en", f"Role ARN for the deploy job: arn:aws:iam::{acct}:role/{ch(APPS)}-deploy; bucket arn:aws:s3:::{lo(8)}-artifacts."
    if t == 1:
        return "dict", "en", {"instance_id": f"i-0{hx(16)}", "sg": f"sg-0{hx(16)}", "vpc": f"vpc-0{hx(16)}", "ami": f"ami-0{hx(16)}", "account": acct}
    if t == 2:
        return "prose", "en", f"GCP project {lo(6)}-{ri(100000, 999999)}, service account {ch(APPS)}@{lo(6)}-{ri(100000, 999999)}.iam.gserviceaccount.com (workload identity, no key file)."
    return "prose", "en", f"Secret ARN (just the pointer): arn:aws:secretsmanager:{ch(['eu-west-1', 'us-east-1'])}:{acct}:secret:prod/{ch(APPS)}-{b62(6)}"


@fam("stripe_object_id", "payment provider object ids")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Refunded charge ch_{b62(24)} for customer cus_{b62(14)}; payment intent pi_{b62(24)}."
    if t == 1:
        return "dict", "en", {"event": f"evt_{b62(24)}", "type": ch(["invoice.paid", "charge.refunded", "customer.subscription.updated"]), "subscription": f"sub_{b62(24)}", "price": f"price_{b62(24)}"}
    return "log", "en", f"{iso(rdt())} webhook received evt_{b62(24)} ({ch(['checkout.session.completed', 'payment_intent.succeeded'])}) -> 200"


@fam("chat_platform_id", "Slack / Discord ids")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Post the alerts to channel C{ua(10)} (#{ch(['alerts', 'deploys', 'oncall'])}); mention user U{ua(10)}."
    if t == 1:
        return "dict", "en", {"guild_id": dg(18), "channel_id": dg(18), "role_id": dg(18), "purpose": "bot announcements"}
    return "prose", "en", f"Slack team id T{ua(9)}, app id A{ua(10)}; neither is secret, they're in every URL."


@fam("model_id", "ML model identifiers")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Switched the summarizer from {ch(['gpt-4o-2024-08-06', 'claude-3-5-sonnet-20241022', 'gemini-1.5-pro-002', 'mistral-large-2407'])} to {ch(['gpt-4o-mini-2024-07-18', 'claude-3-5-haiku-20241022', 'llama-3.1-70b-instruct'])} to cut cost."
    if t == 1:
        return "dict", "en", {"model": f"{lo(6)}/{ch(['bert', 'roberta', 'distil', 'whisper'])}-{ch(['base', 'small', 'large'])}-{lo(4)}", "revision": hx(40), "sha256": hx(64)}
    return "prose", "en", f"Fine-tune job ftjob-{b62(24)} finished; resulting model ft:{ch(['gpt-4o-mini', 'babbage-002'])}:{lo(6)}::{b62(8)}."


@fam("crypto_address", "receive-only crypto addresses")
def _(i):
    t = i % 5
    btc = "bc1q" + rs(BECH, 38)
    eth = "0x" + hx(40)
    if t == 0:
        return "prose", "en", f"Donations for the {ch(['open-source project', 'animal shelter', 'community radio'])}: BTC {btc}, ETH {eth}."
    if t == 1:
        return "prose", "en", f"Send my share of the dinner in USDC to {eth} (receive address, Base network)."
    if t == 2:
        return "dict", "en", {"asset": ch(["BTC", "LTC", "ETH"]), "deposit_address": btc if maybe() else eth, "label": "exchange deposit", "memo": None}
    if t == 3:
        return "prose", "en", f"Legacy address from {ri(2014, 2018)}: 1{rs(B58, 33)} - only used to receive, the coins moved long ago."
    return "prose", "en", f"ENS {lo(6)}.eth resolves to {eth}; that's the public address on my profile."


@fam("crypto_txid", "blockchain transaction / block hashes")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Withdrawal confirmed: txid {hx(64)}, {ri(1, 12)} confirmations."
    if t == 1:
        return "dict", "en", {"tx_hash": "0x" + hx(64), "block": ri(10 ** 7, 2 * 10 ** 7), "gas_used": ri(21000, 300000), "status": "success"}
    return "prose", "en", f"Block {ri(700000, 900000)} hash 0000000000000000000{hx(45)}."


@fam("base64_harmless", "base64 of harmless data")
def _(i):
    t = i % 5
    if t == 0:
        payload = json.dumps({"theme": ch(["dark", "light"]), "lang": ch(["de", "en", "fr"]), "fontSize": ri(12, 20)})
        return "prose", "en", f"The preferences cookie is just base64 JSON: {b64enc(payload)} -> {payload}"
    if t == 1:
        msg = ch(["hello world", "see you at 7", "happy birthday!", "order shipped", "test message"])
        return "shell", "en", f"$ echo {b64enc(msg)} | base64 -d\n{msg}"
    if t == 2:
        return "html", "en", f"<img alt=\"dot\" src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN{b64(8)}AAAAABJRU5ErkJggg==\">"
    if t == 3:
        cursor = json.dumps({"after": ri(100, 99999), "sort": ch(["created_at", "id"])})
        return "prose", "en", f"Pagination cursor from the API: {b64enc(cursor)} (decodes to {cursor})."
    txt = ch(["Grocery list: eggs, milk, bread", "Meeting moved to Thursday", "Ich bin im Garten"])
    return "dict", "en", {"filename": "note.txt", "content_base64": b64enc(txt), "decoded_preview": txt}


@fam("hex_dump", "hex dumps of harmless data")
def _(i):
    data = ch(["GIF89a", "%PDF-1.7", "PK\x03\x04", "\x89PNG\r\n"]) + lo(10)
    hexs = " ".join(f"{ord(c):02x}" for c in data)
    return "shell", "en", f"$ xxd {ch(['a', 'b', 'scan', 'file'])}{ri(1, 99)}.bin | head -1\n00000000: {hexs}  (header bytes of the file)"


@fam("etag_cache", "ETags / cache keys")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"CDN keeps serving the old file: ETag \"{hx(32)}\" vs new \"{hx(32)}\"; purge the cache key /{ch(['img', 'css', 'js'])}/{lo(6)}."
    return "dict", "en", {"cache_key": f"v{ri(1, 9)}:{ch(['user', 'feed', 'cart'])}:{ri(1, 99999)}:{hx(12)}", "ttl": ri(30, 86400), "hit": maybe()}


@fam("random_filename", "random-looking file names")
def _(i):
    t = i % 4
    d = rdt()
    if t == 0:
        return "prose", "en", f"The good photo from the hike is IMG_{d.strftime('%Y%m%d_%H%M%S')}.jpg; the blurry ones are PXL_{d.strftime('%Y%m%d_%H%M%S')}{ri(100, 999)}.jpg."
    if t == 1:
        return "list", "en", [f"{la(8)}.pdf", f"Scan_{dg(10)}.pdf", f"{uuid4()}.png", f"export-{hx(6)}.csv"]
    if t == 2:
        return "prose", "en", f"Attachment name was {b62(12)}.docx - looks random but it's just what the portal generates."
    return "shell", "en", "$ ls tmp/\n" + "\n".join(f"tmp{la(8)}" for _ in range(ri(3, 5)))


@fam("url_slug", "URL slugs with ids")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Recipe link: https://{lo(7)}.example/recipes/{ch(['lemon', 'garlic', 'miso'])}-{ch(['chicken', 'pasta', 'salmon'])}-{la(6)}"
    if t == 1:
        return "prose", "en", f"Notion page https://www.notion.so/{ch(['Trip', 'Budget', 'Wedding'])}-{ch(['Plan', 'Notes', 'Tracker'])}-{hx(32)} (shared with family only)"
    return "prose", "en", f"Listing: https://{lo(6)}.example/item/{ri(10 ** 8, 10 ** 9)}/{ch(['vintage-lamp', 'kids-bike', 'oak-table'])}?ref={lo(4)}"


@fam("short_link", "short links")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Signup form for the {ch(['bake sale', 'hackathon', 'book swap'])}: https://bit.ly/{b62(7)}"
    if t == 1:
        return "prose", "en", f"Shortened survey link https://forms.gle/{b62(17)} - public, share widely."
    return "prose", "en", f"Slides at https://t.ly/{b62(5)} and recording at https://youtu.be/{b64u(11)}."


@fam("public_invite", "public invite links")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Public Discord for the {ch(['modding', 'language exchange', 'board game'])} community: https://discord.gg/{b62(8)} (posted on their website)."
    if t == 1:
        return "prose", "en", f"Open Telegram channel with club announcements: https://t.me/{lo(8)}_{ch(['club', 'news', 'ride'])}"
    return "prose", "en", f"Conference Slack invite link is on the public schedule page: https://join.slack.com/t/{lo(8)}/shared_invite/zt-{la(10)}-{b62(22)}"


@fam("store_coupon", "printed / store coupons")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Coupon from the receipt: ${ri(2, 10)} off ${ri(20, 60)}+, code {ua(10)} printed under the barcode, valid to {d_short(rdate())}. Same for every shopper this week."
    if t == 1:
        return "dict", "en", {"coupon": f"{up(3)}{ri(10, 50)}OFF", "store": ch(COMPANIES), "type": "public", "min_spend": ri(20, 100)}
    return "prose", "de", f"Rabattcoupon aus dem Prospekt: {up(4)}{ri(10, 30)} für {ri(10, 30)} % auf Gartenmöbel."


@fam("referral_link", "referral links / codes")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"My referral link for the {ch(['bank', 'meal kit', 'electricity provider'])}: https://{lo(6)}.example/r/{fn().lower()}{ri(10, 99)} - both get {money(10, 50)}."
    if t == 1:
        return "prose", "en", f"Share my ride-app referral code {up(4)}{ri(100, 999)} with {fn()}; it's meant to be shared."
    return "prose", "fr", f"Code de parrainage pour la banque en ligne : {up(5)}{ri(10, 99)} - à donner aux amis, 80 € chacun."


@fam("version_string", "version / build strings")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Running v{ri(1, 5)}.{ri(0, 30)}.{ri(0, 9)}-rc.{ri(1, 5)}+sha.{hx(7)} on staging; prod still on v{ri(1, 5)}.{ri(0, 30)}.{ri(0, 9)}."
    if t == 1:
        return "prose", "en", f"Phone firmware {up(1)}{ri(900, 999)}{up(1)}XX{ri(1, 9)}{up(3)}{ri(1, 9)}, build {up(2)}{ri(1, 9)}{up(1)}.{dg(6)}.{dgz(3)}."
    return "dict", "en", {"app": ch(APPS), "version": f"{ri(1, 9)}.{ri(0, 20)}.{ri(0, 20)}", "build": ri(100, 9999), "commit": hx(7)}


@fam("jwt_claims_decoded", "decoded JWT header/claims without token")
def _(i):
    t = i % 2
    d = rdt()
    claims = {"iss": f"https://auth.{lo(6)}.example/", "sub": f"user_{ri(1000, 99999)}", "aud": ch(APPS), "iat": epoch(d), "exp": epoch(d) + 3600, "scope": ch(["read:orders", "openid profile", "admin"])}
    if t == 0:
        return "nested", "en", {"header": {"alg": ch(["RS256", "ES256"]), "typ": "JWT", "kid": hx(16)}, "payload": claims, "note": "decoded on jwt.io for debugging; token itself not saved"}
    return "prose", "en", f"Debugging the 403: token claims were {json.dumps(claims)} - the scope is missing 'write'."

# ===========================================================================
# HARD BENIGN FAMILIES -- part E: personal / financial / health numbers
# ===========================================================================


@fam("iban_receive", "IBAN given to receive money")
def _(i):
    t = i % 6
    ib = iban()
    if t == 0:
        return "prose", "en", f"For the flat-share rent, pay into my account: IBAN {fmt_iban(ib)}, name {en_name()}, reference '{ch(MONTHS_EN)} rent'."
    if t == 1:
        return "prose", "de", f"Kontoverbindung für die Rückzahlung an mich: {fmt_iban(iban('DE'))}, Verwendungszweck: Kaution {fn('de')}."
    if t == 2:
        return "dict", "en", {"payee": ch(COMPANIES), "iban": ib, "bic": f"{up(4)}{ib[:2]}{ua(2)}", "amount": money(20, 900, "€"), "reference": f"INV-{dg(6)}"}
    if t == 3:
        return "prose", "fr", f"RIB pour me rembourser le week-end : {fmt_iban(iban('FR'))} - titulaire {fn('fr')} {ch(SN_EN)}."
    if t == 4:
        return "prose", "es", f"Mi IBAN para que me hagáis el Bizum/transferencia del regalo: {fmt_iban(iban('ES'))}."
    return "prose", "nl", f"Tikkie alternatief: maak het geld over naar {fmt_iban(iban('NL'))} t.n.v. {fn('nl')} ovv 'weekendje weg'."


@fam("account_routing_receive", "account/routing numbers for deposits")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Direct deposit form for the new employer: routing {dg(9)}, checking account {dg(ri(8, 12))}. Payroll starts {d_short(rdate())}."
    if t == 1:
        return "prose", "en", f"UK details to pay me back: sort code {dgz(2)}-{dgz(2)}-{dgz(2)}, account {dgz(8)}, name {en_name()}."
    return "dict", "en", {"purpose": "client payments", "bank": ch(["Chase", "Wells Fargo", "Ally", "Capital One"]), "routing_number": dg(9), "account_number": dg(10), "account_name": ch(COMPANIES) + " LLC"}


@fam("card_last4", "card last four digits")
def _(i):
    t = i % 5
    l4 = dgz(4)
    if t == 0:
        return "prose", "en", f"{ch(SERVICES)} is billed to the Visa ending in {l4}; switch it to the card ending {dgz(4)} before {d_short(rdate())}."
    if t == 1:
        return "dict", "en", {"card": ch(["Amex", "Visa", "Mastercard"]), "last4": l4, "exp": f"{ri(1, 12):02d}/{ri(26, 31)}", "used_for": ch(["groceries", "subscriptions", "travel"])}
    if t == 2:
        return "prose", "de", f"Abbuchung von der Kreditkarte mit Endziffern {l4} - Betrag {ri(10, 200)},{dgz(2)} €, erkenne ich nicht, Bank anrufen."
    if t == 3:
        return "chat", "en", chat_roles("which card did I use for the hotel?", f"The confirmation says Mastercard ending {l4}.")
    return "prose", "en", f"Fraud alert text: 'Did you attempt a {money(50, 900)} purchase on card ending {l4}? Reply YES or NO.' - replied NO, card frozen."


@fam("masked_card", "masked card numbers")
def _(i):
    t = i % 3
    l4 = dgz(4)
    if t == 0:
        return "prose", "en", f"Statement line: **** **** **** {l4}  {ch(COMPANIES).upper()}  {money(4, 300)}"
    if t == 1:
        return "dict", "en", {"pan_masked": f"{ch(['4', '5'])}{dgz(5)}******{l4}", "brand": ch(["visa", "mastercard"]), "wallet": ch(["Apple Pay", "Google Pay"])}
    return "prose", "en", f"The shop's confirmation email showed XXXX-XXXX-XXXX-{l4}, exp {ri(1, 12):02d}/{ri(26, 31)}."


@fam("gift_card_balance", "gift card balance without claim code")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Gift card from {fn()} ({ch(['bookshop', 'coffee chain', 'hardware store'])}) already added to my account; balance {money(5, 100)}, card ends in {dgz(4)}."
    if t == 1:
        return "prose", "en", f"Amazon gift card balance is {money(5, 200)} after the {ch(PRODUCTS)} purchase - it was redeemed in {ch(MONTHS_EN)}."
    return "dict", "en", {"store": ch(COMPANIES), "gift_card": "redeemed", "balance": money(0, 80), "expires": rdate().isoformat()}


@fam("tracking_number", "parcel tracking numbers")
def _(i):
    t = i % 5
    if t == 0:
        return "prose", "en", f"UPS tracking 1Z{ua(6)}{dgz(10)} - out for delivery, leave with neighbour at no. {ri(1, 90)}."
    if t == 1:
        return "prose", "en", f"USPS tracking 9400 {dgz(4)} {dgz(4)} {dgz(4)} {dgz(4)} {dgz(2)} for {fn()}'s birthday present."
    if t == 2:
        return "prose", "de", f"DHL Sendungsnummer {dgz(12)} - liegt in der Packstation {ri(100, 300)}, Abholung bis {rdate().strftime('%d.%m.')}"
    if t == 3:
        return "dict", "en", {"carrier": ch(["FedEx", "DPD", "GLS", "Royal Mail"]), "tracking": ch([dg(12), up(2) + dg(9) + "GB", dg(14)]), "eta": rdate().isoformat()}
    return "prose", "fr", f"Colissimo n° {dg(1)}{up(1)}{dgz(11)} : avis de passage, retrait au bureau de poste après {hm()}."


@fam("vin_number", "vehicle identification numbers")
def _(i):
    vin = rs("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17)
    t = i % 3
    if t == 0:
        return "prose", "en", f"VIN of the used car we're looking at: {vin}. Run the history report before {ch(DAYS_EN)}."
    if t == 1:
        return "dict", "en", {"vehicle": ch(["2017 Honda Civic", "2019 VW Golf", "2015 Toyota RAV4", "2021 Tesla Model 3"]), "vin": vin, "plate": f"{up(3)}-{dgz(4)}", "odometer_km": ri(10000, 200000)}
    return "prose", "de", f"Fahrgestellnummer (FIN) für die Versicherung: {vin}."


@fam("isbn", "ISBNs")
def _(i):
    t = i % 2
    body = "978" + dgz(9)
    s = sum(int(c) * (1 if k % 2 == 0 else 3) for k, c in enumerate(body))
    isbn = body + str((10 - s % 10) % 10)
    f = f"{isbn[:3]}-{isbn[3]}-{isbn[4:8]}-{isbn[8:12]}-{isbn[12]}"
    if t == 0:
        return "prose", "en", f"Textbook for {fn()}'s class: ISBN {f}, {ch(['3rd', '5th', '7th'])} edition - used copy is fine."
    return "list", "en", [{"title": f"{ch(WORDS).title()} and {ch(WORDS).title()}", "isbn13": isbn}, {"title": f"The {ch(WORDS).title()}", "isbn13": "978" + dgz(10)}]


@fam("serial_number", "device serial numbers")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Warranty claim for the {ch(PRODUCTS)}: serial no. {ua(12)}, bought {d_en(rdate())}."
    if t == 1:
        return "dict", "en", {"device": ch(["MacBook Air", "ThinkPad X1", "iPad", "Dell XPS"]), "serial": ua(ri(10, 12)), "asset_tag": f"IT-{dg(5)}"}
    if t == 2:
        return "csv", "en", csv_text(["asset", "serial", "owner"], [[f"A{dg(4)}", ua(10), fn()] for _ in range(ri(3, 5))])
    return "prose", "de", f"Seriennummer des Fahrrads (Rahmen): {up(2)}{dg(7)} - für die Fahrradversicherung notiert."


@fam("imei", "IMEI numbers")
def _(i):
    body = ch(["35", "86", "01", "49"]) + dgz(12)
    imei = body + luhn_digit(body)
    t = i % 3
    if t == 0:
        return "prose", "en", f"Phone stolen; gave the police the IMEI {imei} and the carrier blocked it."
    if t == 1:
        return "dict", "en", {"model": ch(["Pixel 7", "iPhone 13", "Galaxy A54"]), "imei1": imei, "imei2": dg(15), "purchase": rdate().isoformat()}
    return "prose", "es", f"IMEI del móvil de la abuela: {imei} (por si lo pierde, está en la caja)."


@fam("mac_address", "MAC addresses")
def _(i):
    mac = ":".join(hx(2) for _ in range(6))
    t = i % 3
    if t == 0:
        return "prose", "en", f"Reserved DHCP lease for the printer, MAC {mac.upper()}, IP 192.168.{ri(0, 2)}.{ri(20, 250)}."
    if t == 1:
        return "csv", "en", csv_text(["hostname", "mac", "ip"], [[ch(["tv", "nas", "thermostat", "laptop"]) + str(k), ":".join(hx(2) for _ in range(6)), f"10.0.0.{ri(2, 250)}"] for k in range(3)])
    return "prose", "en", f"Block the kids' tablet ({mac}) after 21:00 in the router's parental controls."


@fam("license_plate", "license plates")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Guest parking permit for plate {up(3)} {dgz(4)} from {d_short(rdate())} to {d_short(rdate())}."
    if t == 1:
        return "prose", "de", f"Kennzeichen vom neuen Auto: {ch(['B', 'M', 'HH', 'K', 'F'])}-{up(2)} {ri(1, 9999)}. Für den Parkausweis anmelden."
    if t == 2:
        return "prose", "fr", f"Immatriculation du véhicule de location : {up(2)}-{dgz(3)}-{up(2)}."
    return "prose", "en", f"Someone dinged the car; their plate was {ua(7)} ({ch(['CA', 'TX', 'NY'])}). Dashcam clip saved."


@fam("lab_values", "lab results")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Blood test {d_short(rdate())}: HbA1c {rng.uniform(4.8, 8.5):.1f}%, LDL {ri(70, 190)} mg/dL, TSH {rng.uniform(0.4, 5):.2f} mIU/L, ferritin {ri(10, 300)} ng/mL."
    if t == 1:
        return "markdown-table", "en", md_table(["Test", "Result", "Range"], [["Hemoglobin", f"{rng.uniform(11, 17):.1f} g/dL", "12-16"], ["WBC", f"{rng.uniform(3, 12):.1f} K/uL", "4-11"], ["Vitamin D", f"{ri(10, 80)} ng/mL", "30-100"]])
    if t == 2:
        return "prose", "de", f"Laborwerte vom {rdate().strftime('%d.%m.%Y')}: Kreatinin {rng.uniform(0.6, 1.4):.2f} mg/dl, eGFR {ri(50, 120)}, CRP {rng.uniform(0.1, 20):.1f} mg/l."
    return "dict", "en", {"glucose_fasting": ri(70, 140), "unit": "mg/dL", "date": rdate().isoformat(), "lab": ch(COMPANIES)}


@fam("blood_pressure", "blood pressure / vitals")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Morning BP {ri(105, 160)}/{ri(60, 100)}, pulse {ri(50, 100)}; evening {ri(105, 160)}/{ri(60, 100)}. Bring the log to Dr. {ch(SN_EN)}."
    if t == 1:
        return "csv", "en", csv_text(["date", "sys", "dia", "pulse"], [[rdate().isoformat(), ri(105, 160), ri(60, 100), ri(50, 100)] for _ in range(ri(4, 7))])
    return "prose", "fr", f"Tension ce matin : {ri(10, 16)}/{ri(6, 10)}, pouls {ri(55, 95)}. Noter aussi le poids : {ri(50, 100)} kg."


@fam("dosage", "medication dosages")
def _(i):
    t = i % 4
    med = ch(["metformin 500 mg", "levothyroxine 50 mcg", "amoxicillin 875 mg", "ibuprofen 400 mg", "sertraline 50 mg", "lisinopril 10 mg"])
    if t == 0:
        return "prose", "en", f"{fn()} takes {med} {ch(['once', 'twice', 'three times'])} daily; refill #{ri(1, 5)} of {ri(5, 11)} on Rx {dg(7)}."
    if t == 1:
        return "dict", "en", {"medication": med, "schedule": [hm(), hm()], "with_food": maybe(), "pharmacy_rx": f"RX{dg(8)}"}
    if t == 2:
        return "prose", "es", f"Pauta del pediatra: paracetamol {ri(100, 250)} mg cada {ch([6, 8])} horas, máximo {ri(3, 4)} tomas al día."
    return "prose", "en", f"Insulin: {ri(4, 20)} units rapid-acting before dinner, {ri(10, 40)} units basal at {hm()}. Pen needles 4 mm."


@fam("medical_record_number", "MRN / patient ids")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Hospital MRN for {fn()} is {dg(8)}; bring it with the referral for the MRI on {d_short(rdate())}."
    if t == 1:
        return "dict", "en", {"patient_id": f"MRN-{dg(7)}", "encounter": f"ENC{dg(9)}", "clinic": ch(["cardiology", "dermatology", "physio"]), "next_visit": rdate().isoformat()}
    return "prose", "de", f"Versichertennummer {up(1)}{dg(9)} und Fallnummer {dg(10)} für die Reha-Anmeldung."


@fam("sports_score", "sports scores")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Kids' soccer: won {ri(2, 6)}-{ri(0, 1)}; {fn()} scored twice. Next game {ch(DAYS_EN)} {hm()}."
    if t == 1:
        return "prose", "en", f"Tennis club final: {ri(6, 7)}-{ri(3, 5)}, {ri(3, 6)}-6, {ri(6, 7)}-{ri(2, 5)}."
    if t == 2:
        return "dict", "en", {"game": "bowling league", "frames": [ri(0, 10) for _ in range(10)], "total": ri(90, 230)}
    return "prose", "de", f"Bundesliga-Tipp: {ri(0, 3)}:{ri(0, 3)}, {ri(0, 3)}:{ri(0, 3)}, {ri(0, 3)}:{ri(0, 3)} - Punktestand Tippspiel {ri(20, 90)}."


@fam("race_time", "race / workout times")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Marathon finish {ri(2, 5)}:{ri(0, 59):02d}:{ri(0, 59):02d}, pace {ri(4, 7)}:{ri(0, 59):02d}/km, bib #{ri(100, 40000)}."
    if t == 1:
        return "csv", "en", csv_text(["segment", "split_time"], [[f"km {k * 5 - 5}-{k * 5}", f"{ri(20, 35)}:{ri(0, 59):02d}"] for k in range(1, 5)])
    if t == 2:
        return "prose", "en", f"Swim PB: 100m free {ri(58, 99)}.{ri(10, 99)}s, 400m {ri(4, 7)}:{ri(0, 59):02d}.{ri(0, 99):02d}."
    return "prose", "es", f"Mi tiempo en la carrera popular: {ri(40, 65)}:{ri(0, 59):02d} en 10 km, dorsal {ri(100, 9000)}."


@fam("date_formats", "dates in many formats")
def _(i):
    d = rdate()
    dt = rdt()
    t = i % 8
    if t == 0:
        return "prose", "en", f"Passport expires {d.strftime('%d/%m/%Y')} (that's {d_en(d)}), renew {ri(3, 9)} months before."
    if t == 1:
        return "prose", "en", f"Lease runs {d.isoformat()} to {rdate().isoformat()}; notice due {d_us(rdate())}."
    if t == 2:
        return "log", "en", f"Last-Modified: {DAYS_EN[dt.weekday()][:3]}, {dt.day:02d} {MON_EN[dt.month - 1]} {dt.year} {dt.strftime('%H:%M:%S')} GMT"
    if t == 3:
        return "prose", "ja", f"次の歯医者の予約は{d.year}年{d.month}月{d.day}日 {hm()}。"
    if t == 4:
        return "dict", "en", {"created": epoch(dt), "created_ms": epoch(dt) * 1000 + ri(0, 999), "created_iso": iso(dt)}
    if t == 5:
        return "prose", "de", f"Termin beim Bürgeramt: {d.day}. {MONTHS_DE[d.month - 1]} {d.year}, {hm()} Uhr, Wartenummer {ri(100, 999)}."
    if t == 6:
        return "prose", "en", f"Anniversary: {d.month:02d}{d.day:02d}{d.year} on the engraving (MMDDYYYY)."
    return "prose", "fr", f"Rendez-vous le {d.day} {MONTHS_FR[d.month - 1]} {d.year} à {hm()}."


@fam("time_schedule", "times and schedules")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Pickup times: Mon/Wed {hm()}, Tue/Thu {hm()}, Fri {hm()}. Swim class {hm_range()}."
    if t == 1:
        return "dict", "en", {d: hm_range() for d in sample(DAYS_EN, 4)}
    return "prose", "en", f"Timer set for {ri(1, 59)}:{ri(0, 59):02d}; oven at {ri(160, 230)}°C; alarm at {hm()}."


@fam("phone_number", "phone numbers")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"New number for {fn()}: {phone()}. Old one is disconnected."
    if t == 1:
        return "dict", "en", {"name": en_name(), "mobile": phone(), "work": phone(), "relation": ch(["plumber", "babysitter", "dentist", "neighbour"])}
    if t == 2:
        return "csv", "en", csv_text(["name", "phone"], [[en_name(), phone()] for _ in range(ri(3, 5))])
    return "prose", "it", f"Numero del B&B: {phone('IT')}, chiamare dopo le {hm()}."


@fam("word_list", "word lists that are not seed phrases")
def _(i):
    t = i % 5
    ws = sample(WORDS, ch([12, 12, 15, 18, 24]))
    if t == 0:
        return "prose", "en", f"{fn()}'s spelling words for Friday's test: {', '.join(ws)}."
    if t == 1:
        return "list", "en", ws
    if t == 2:
        return "prose", "en", f"Pictionary cards we wrote for the party: {' / '.join(ws)}."
    if t == 3:
        return "prose", "en", f"Vocabulary for the English class (unit {ri(1, 12)}): {' '.join(ws)}. Make flashcards."
    return "dict", "en", {"game": "codenames custom deck", "words": ws, "made_by": fn()}


@fam("gps_coordinates", "GPS coordinates / waypoints")
def _(i):
    t = i % 3
    if t == 0:
        return "csv", "en", csv_text(["waypoint", "lat", "lon", "elev_m"], [[ch(["hut", "spring", "summit", "saddle", "bridge"]), f"{rng.uniform(44, 48):.5f}", f"{rng.uniform(6, 14):.5f}", ri(400, 3200)] for _ in range(4)])
    if t == 1:
        return "prose", "en", f"Geocache at N {ri(30, 60)}° {rng.uniform(0, 59):.3f} E {ri(0, 30)}° {rng.uniform(0, 59):.3f}, hint: under the flat rock."
    return "prose", "en", f"Sailing waypoint: {rng.uniform(35, 45):.4f}N {rng.uniform(0, 10):.4f}E, anchorage depth {ri(4, 12)} m."


@fam("ip_hostname", "IP addresses and hostnames")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"NAS is at 192.168.{ri(0, 1)}.{ri(2, 254)}, Plex on port 32400; pi-hole at 192.168.{ri(0, 1)}.{ri(2, 254)}."
    if t == 1:
        return "yaml", "en", f"servers:\n  - host: {ch(HOSTS)}\n    port: {ri(1024, 9999)}\n  - host: {ri(10, 172)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}\n    port: {ri(1024, 9999)}"
    return "prose", "en", f"Home IPv6 prefix is 2a02:{hx(4)}:{hx(4)}::/56; the VPS is {ri(5, 200)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}."


@fam("id_document_number", "ID document numbers (not credentials)")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Passport number {up(2)}{dg(7)} for the visa form; issued {d_en(rdate())}."
    if t == 1:
        return "dict", "en", {"document": "driver's license", "number": f"{up(1)}{dg(7)}", "class": ch(["B", "C", "D"]), "expires": rdate().isoformat()}
    return "prose", "de", f"Personalausweisnummer {up(1)}{ua(8)} für den Check-in im Hotel angegeben."


@fam("membership_number", "loyalty / membership numbers")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Frequent flyer number {dg(9)} ({ch(['Miles&More', 'Flying Blue', 'SkyMiles'])}) - add it to the booking for the miles."
    if t == 1:
        return "prose", "en", f"Library card number {dg(14)}; due date for the books is {d_short(rdate())}."
    return "dict", "en", {"club": ch(["gym", "co-op", "automobile club"]), "member_no": dg(8), "since": ri(2010, 2025), "tier": ch(["silver", "gold", "basic"])}


@fam("meter_reading", "meter readings")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"Meter readings {d_short(rdate())}: electricity {ri(10000, 99999)} kWh, gas {ri(1000, 9999)}.{ri(100, 999)} m³, water {ri(100, 999)}.{ri(10, 99)} m³."
    return "csv", "en", csv_text(["month", "kwh"], [[MON_EN[k], ri(150, 600)] for k in range(ri(3, 6))])


@fam("doi_arxiv", "DOI / arXiv identifiers")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"Cite the paper as doi:10.{ri(1000, 9999)}/{lo(3)}.{ri(2015, 2025)}.{dg(5)}; preprint arXiv:{ri(20, 25)}{ri(1, 12):02d}.{dg(5)}v{ri(1, 3)}."
    return "list", "en", [f"https://doi.org/10.{ri(1000, 9999)}/{ua(6)}" for _ in range(3)]


@fam("cas_number", "chemical CAS numbers")
def _(i):
    return "prose", "en", f"Safety sheet: {ch(['isopropanol', 'acetone', 'sodium hypochlorite', 'citric acid'])}, CAS {ri(50, 9999)}-{ri(10, 99)}-{ri(0, 9)}, UN {ri(1000, 3500)}, store below {ri(20, 30)}°C."


@fam("court_case_number", "court case / docket numbers")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"Small claims case no. {ri(2023, 2026)}-SC-{dg(6)}, hearing {d_us(rdate())} at {hm()}, courtroom {ri(1, 20)}."
    return "prose", "de", f"Aktenzeichen {ri(1, 30)} C {ri(100, 999)}/{ri(23, 26)} - Schriftsatzfrist bis {rdate().strftime('%d.%m.%Y')}."


@fam("locker_room_number", "locker / room numbers (no combinations)")
def _(i):
    t = i % 4
    if t == 0:
        return "prose", "en", f"Gym locker is #{ri(1, 400)} in the {ch(['men', 'women', 'family'])}'s changing room; I bring my own padlock."
    if t == 1:
        return "prose", "en", f"Hotel room {ri(100, 1200)}, {ch(['sea', 'garden', 'city'])} view; breakfast {hm_range()}."
    if t == 2:
        return "prose", "en", f"School locker {ri(100, 999)} on the {ch(['second', 'third'])} floor; {fn()} lost the key, office has a spare."
    return "prose", "de", f"Kellerabteil Nr. {ri(1, 40)}, Fahrradkeller Stellplatz {ri(1, 60)}."


@fam("buzzer_intercom", "apartment buzzer / intercom info")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"At {fn()}'s building, press buzzer {ri(1, 40)}{ch('ABCD')} (name on the panel: {ch(SN_EN)}); they'll buzz you in."
    if t == 1:
        return "prose", "en", f"Delivery instructions: apartment {ri(1, 30)}{ch('ABCDEF')}, intercom shows '{ch(SN_EN).upper()}', leave at the door if no answer."
    return "prose", "fr", f"Interphone : appuyer sur {ch(SN_EN).upper()}, {ri(1, 6)}e étage gauche."


@fam("bank_transfer_reference", "bank transfer references")
def _(i):
    t = i % 3
    if t == 0:
        return "prose", "en", f"Transfer reference RF{dgz(2)} {dgz(4)} {dgz(4)} {dgz(4)} for the tax payment; end-to-end id {ua(16)}."
    if t == 1:
        return "dict", "en", {"transaction_id": dg(16), "amount": money(10, 5000, "€"), "status": "booked", "reference": f"Invoice {dg(6)}"}
    return "prose", "de", f"Überweisung ausgeführt, Auftragsnummer {dg(12)}, Verwendungszweck 'Kita {ch(MONTHS_DE)}'."


@fam("cron_expression", "cron expressions")
def _(i):
    t = i % 2
    if t == 0:
        return "code", "en", f"{ri(0, 59)} {ri(0, 23)} * * {ri(0, 6)}  /usr/local/bin/{ch(['backup.sh', 'rotate-logs', 'sync-photos'])}"
    return "yaml", "en", f"schedule:\n  - cron: '{ri(0, 59)} {ri(0, 23)} */{ri(1, 7)} * *'\njobs:\n  refresh-token-cache:\n    runs-on: ubuntu-latest"


@fam("stock_quote", "stock tickers and prices")
def _(i):
    t = i % 2
    if t == 0:
        return "prose", "en", f"Bought {ri(1, 50)} shares of {up(ri(3, 4))} at ${rng.uniform(10, 500):.2f}; limit sell at ${rng.uniform(10, 600):.2f}."
    return "csv", "en", csv_text(["ticker", "shares", "cost_basis"], [[up(ri(3, 4)), ri(1, 200), f"{rng.uniform(5, 400):.2f}"] for _ in range(ri(3, 5))])

# ===========================================================================
# HARD BENIGN FAMILIES -- part F: multilingual look-alikes
# entries are (lang, shape, template); one is drawn at random per record
# ===========================================================================


def i18n_fill(lang):
    return {
        "n": ch(FN.get(lang, FN["en"])), "svc": ch(SERVICES), "c": ch(CITIES_WORLD),
        "h": hm(), "k": ri(2, 9), "k2": ri(10, 60), "pct": ri(5, 40),
        "d2": dgz(2), "d3": dgz(3), "d4": dg(4), "d5": dg(5), "d6": dg(6), "d7": dg(7),
        "d8": dg(8), "d9": dg(9), "d10": dg(10), "d12": dg(12),
        "u2": up(2), "u5": up(5), "u6": ua(6), "u8": ua(8),
        "dt": rdate().strftime("%d.%m.%Y"), "iso": rdate().isoformat(),
        "iban": fmt_iban(iban()), "eur": f"{ri(5, 900)},{dgz(2)}",
        "l4": dgz(4), "sys": ri(105, 160), "dia": ri(60, 100), "mg": ch([5, 10, 20, 50, 250, 500]),
    }


def i18n_pick(entries):
    lang, shape, tmpl = ch(entries)
    return shape, lang, tmpl.format(**i18n_fill(lang))


I18N_PASSWORD_TALK = [
    ("it", "prose", "Ho cambiato la password di {svc} dopo l'avviso di accesso sospetto; quella nuova è solo nel gestore di password."),
    ("it", "prose", "Promemoria: la password del portale aziendale scade tra {k} giorni, l'IT obbliga a cambiarla."),
    ("pt", "prose", "Tenho de mudar a senha do {svc} até sexta; o banco pede pelo menos {k2} caracteres."),
    ("nl", "prose", "Wachtwoord van {svc} vergeten, resetlink aangevraagd; die verloopt na {k2} minuten."),
    ("pl", "prose", "Zmieniłam hasło do {svc}, nowe jest tylko w menedżerze haseł."),
    ("ru", "prose", "Сбросил пароль от {svc}, ссылка для сброса пришла на почту. Новый пароль нигде не записываю."),
    ("uk", "prose", "Змінила пароль до {svc} після листа про підозрілий вхід."),
    ("tr", "prose", "{svc} şifremi unuttum, sıfırlama bağlantısı e-postama geldi, {k2} dakika geçerli."),
    ("ja", "prose", "{svc}のパスワードを変更した。新しいパスワードはパスワードマネージャーにだけ保存。"),
    ("zh", "prose", "{svc}的密码已经重置了，新密码只保存在密码管理器里。"),
    ("ko", "prose", "{svc} 비밀번호를 바꿨다. 새 비밀번호는 비밀번호 관리자에만 저장했다."),
    ("sv", "prose", "Bytte lösenord till {svc} efter varningen om misstänkt inloggning."),
    ("cs", "prose", "Změnil jsem heslo k {svc}; nové je jen ve správci hesel."),
    ("el", "prose", "Άλλαξα τον κωδικό πρόσβασης του {svc} μετά το email για ύποπτη σύνδεση."),
    ("ar", "prose", "غيّرت كلمة المرور لحساب {svc} بعد رسالة عن تسجيل دخول مشبوه."),
    ("he", "prose", "החלפתי את הסיסמה של {svc} אחרי התראה על התחברות חשודה."),
    ("hi", "prose", "{svc} का पासवर्ड बदल दिया, नया पासवर्ड सिर्फ़ पासवर्ड मैनेजर में है।"),
    ("vi", "prose", "Đã đổi mật khẩu {svc} sau khi nhận cảnh báo đăng nhập lạ."),
    ("id", "prose", "Sudah ganti kata sandi {svc}; yang baru hanya disimpan di pengelola kata sandi."),
    ("fi", "prose", "Vaihdoin {svc}-salasanan; uusi on vain salasanojen hallintaohjelmassa."),
    ("hu", "prose", "Megváltoztattam a {svc} jelszavát, az új csak a jelszókezelőben van."),
    ("ro", "prose", "Am schimbat parola de la {svc} după alerta de autentificare suspectă."),
    ("da", "prose", "Har skiftet adgangskode til {svc}; den nye ligger kun i password manageren."),
    ("no", "prose", "Byttet passord på {svc} etter varsel om mistenkelig innlogging."),
    ("th", "prose", "เปลี่ยนรหัสผ่าน {svc} แล้ว รหัสใหม่เก็บไว้ในโปรแกรมจัดการรหัสผ่านเท่านั้น"),
    ("sw", "prose", "Nimebadilisha nenosiri la {svc}; jipya liko kwenye kidhibiti cha manenosiri tu."),
]


@fam("i18n_password_talk", "password talk without value (multilingual)")
def _(i):
    return i18n_pick(I18N_PASSWORD_TALK)


I18N_CODES = [
    ("it", "prose", "CAP della casa nuova: {d5} {c}. Da aggiornare sul sito del corriere."),
    ("it", "prose", "Codice sconto del volantino, valido per tutti: {u5}{k2} ({pct}% sui libri)."),
    ("pt", "prose", "Código postal do escritório novo: {d4}-{d3}. Atualizar no cartão de visita."),
    ("nl", "prose", "Postcode van oma: {d4} {u2}, huisnummer {k2}."),
    ("pl", "prose", "Kod pocztowy nowego mieszkania: {d2}-{d3}. Kod rabatowy z gazetki dla wszystkich: {u5}{k2}."),
    ("ru", "prose", "Почтовый индекс новой квартиры: {d6}. Промокод из рассылки для всех: {u5}{k2}."),
    ("tr", "prose", "Yeni adresin posta kodu {d5}; çamaşır makinesi hata kodu E{k2} veriyor."),
    ("ja", "prose", "割引コード「{u5}{k2}」はメルマガ読者全員向けの公開クーポン（{pct}%オフ）。"),
    ("ja", "prose", "エラーコード E-{k2} が出た。取扱説明書ではフィルターの詰まりとのこと。"),
    ("zh", "prose", "新地址的邮政编码是{d6}。优惠码{u5}{k2}是公开的，所有人都能用。"),
    ("zh", "prose", "空调显示故障代码 E{k}，售后说是传感器问题。"),
    ("ko", "prose", "새 주소 우편번호는 {d5}이다. 세탁기에 에러 코드 {u2}{k}가 떠서 AS 신청함."),
    ("sv", "prose", "Postnummer till stugan: {d3} {d2}. Rabattkoden {u5}{k2} gäller för alla i nyhetsbrevet."),
    ("cs", "prose", "PSČ nového bytu: {d3} {d2}. Slevový kód z letáku: {u5}{k2}."),
    ("el", "prose", "Ταχυδρομικός κώδικας του νέου σπιτιού: {d3} {d2}."),
    ("he", "prose", "המיקוד של הדירה החדשה: {d7}. קוד קופון מהעלון לכולם: {u5}{k2}."),
    ("hi", "prose", "नए घर का पिन कोड {d6} है - यह डाक पिन कोड है, बैंक का पिन नहीं।"),
    ("vi", "prose", "Mã bưu chính nhà mới: {d6}. Mã giảm giá công khai: {u5}{k2}."),
    ("id", "prose", "Kode pos rumah baru: {d5}. Kode promo dari iklan untuk semua orang: {u5}{k2}."),
    ("ar", "prose", "الرمز البريدي للعنوان الجديد: {d5}. كود الخصم من الإعلان متاح للجميع: {u5}{k2}."),
    ("fi", "prose", "Uusi postinumero on {d5}. Astianpesukone näyttää virhekoodia E{k2}."),
    ("hu", "prose", "Az új lakás irányítószáma {d4}. A kuponkód mindenkinek szól: {u5}{k2}."),
    ("ro", "prose", "Codul poștal al apartamentului nou: {d6}. Cod de reducere public: {u5}{k2}."),
    ("da", "prose", "Postnummer til sommerhuset: {d4}. Vaskemaskinen viser fejlkode F{k2}."),
    ("no", "prose", "Postnummeret til hytta er {d4}. Rabattkoden {u5}{k2} står i avisannonsen."),
    ("sw", "prose", "Msimbo wa posta wa nyumba mpya ni {d5}."),
    ("th", "prose", "รหัสไปรษณีย์ของบ้านใหม่คือ {d5} โค้ดส่วนลดสาธารณะ {u5}{k2}"),
]


@fam("i18n_code_lookalike", "non-credential codes (multilingual)")
def _(i):
    return i18n_pick(I18N_CODES)


I18N_PIN_TALK = [
    ("it", "prose", "La nuova carta è arrivata; il PIN arriva con una lettera separata tra {k} giorni."),
    ("pt", "prose", "Bloqueei o cartão depois de errar o PIN três vezes; o banco envia um novo por carta."),
    ("nl", "prose", "Pincode van de nieuwe bankpas komt apart per post, over {k} werkdagen."),
    ("pl", "prose", "Zapomniałam PIN-u do karty; w aplikacji banku można go podejrzeć po zalogowaniu."),
    ("ru", "prose", "Забыла ПИН-код от карты, в приложении банка можно задать новый."),
    ("tr", "prose", "Kartın şifresi ayrı bir zarfla gelecekmiş; {k} gün içinde."),
    ("ja", "prose", "新しいキャッシュカードの暗証番号は別送の書留で届く予定。"),
    ("zh", "prose", "新银行卡的密码信会单独寄到，大约{k}天。"),
    ("ko", "prose", "새 카드 비밀번호는 은행 앱에서 직접 설정하라고 함."),
    ("sv", "prose", "PIN-koden till det nya kortet kommer i ett separat brev om {k} dagar."),
    ("cs", "prose", "PIN ke kartě přijde zvlášť dopisem; kartu aktivuji v bankomatu."),
    ("el", "prose", "Ο κωδικός PIN της νέας κάρτας θα έρθει με ξεχωριστή επιστολή."),
    ("he", "prose", "הקוד הסודי של הכרטיס החדש יגיע במכתב נפרד."),
    ("vi", "prose", "Mã PIN thẻ mới sẽ được gửi riêng qua thư, khoảng {k} ngày."),
    ("id", "prose", "PIN kartu ATM baru harus dibuat sendiri di mesin ATM cabang."),
    ("fi", "prose", "Uuden kortin PIN-koodi tulee erillisellä kirjeellä."),
    ("hu", "prose", "Az új kártya PIN-kódja külön levélben érkezik."),
    ("ro", "prose", "PIN-ul cardului nou vine separat, prin poștă, în {k} zile."),
    ("ar", "prose", "الرقم السري للبطاقة الجديدة سيصل في رسالة منفصلة."),
    ("da", "prose", "Pinkoden til det nye kort kommer i et særskilt brev."),
]


@fam("i18n_pin_talk", "PIN talk without value (multilingual)")
def _(i):
    return i18n_pick(I18N_PIN_TALK)


I18N_OTP_NO = [
    ("it", ["Mi mandi il codice che ti è arrivato per l'account condiviso?", "No, meglio di no, accedo io tra poco", "ok"]),
    ("pt", ["Podes mandar-me o código que chegou por SMS?", "Não vou mandar código por mensagem, faço eu o login", "combinado"]),
    ("nl", ["Kun je me de code uit de sms sturen?", "Liever niet, ik log zelf wel even in", "prima"]),
    ("pl", ["Wyślesz mi kod z SMS-a do konta rodzinnego?", "Nie, zaloguję się sama za chwilę", "ok"]),
    ("ru", ["Скинь код из смс, который пришёл от банка", "Нет, коды никому не пересылаю. Зайду сам", "ладно"]),
    ("tr", ["Telefonuna gelen kodu bana atar mısın?", "Kodu mesajla göndermeyeyim, ben girerim", "tamam"]),
    ("ja", ["さっき届いた認証コード教えて", "コードは送れないよ。自分でログインするね", "了解"]),
    ("zh", ["把刚才收到的验证码发给我一下", "验证码不能发给别人，我自己来登录", "好的"]),
    ("ko", ["방금 받은 인증번호 좀 알려줘", "인증번호는 보내면 안 돼. 내가 직접 로그인할게", "알겠어"]),
    ("sv", ["Kan du skicka koden du fick på sms?", "Nej, jag loggar in själv istället", "okej"]),
    ("el", ["Μου στέλνεις τον κωδικό που σου ήρθε με SMS;", "Όχι, θα συνδεθώ εγώ σε λίγο", "οκ"]),
    ("he", ["תשלח לי את הקוד שקיבלת בהודעה?", "לא שולח קודים, אני אתחבר בעצמי", "סבבה"]),
    ("vi", ["Gửi mình mã xác nhận vừa nhận được nhé?", "Không gửi mã đâu, để mình tự đăng nhập", "ok"]),
    ("id", ["Kirim kode OTP yang barusan masuk dong", "Jangan, kode OTP nggak boleh dibagi. Aku login sendiri", "oke"]),
    ("ar", ["أرسل لي الرمز الذي وصلك في الرسالة", "لا أرسل الرموز لأحد، سأدخل بنفسي", "حسنًا"]),
    ("hi", ["जो OTP आया है वो भेज दो", "OTP किसी को नहीं भेजते, मैं खुद लॉगिन कर लूँगा", "ठीक है"]),
]


@fam("i18n_otp_no_value", "asks for a code, not given (multilingual)")
def _(i):
    lang, lines = ch(I18N_OTP_NO)
    names = two_names(lang)
    return "chat", lang, chat_people(names, lines)


I18N_ORDERS = [
    ("it", "prose", "Ordine n. {d9} spedito con BRT, numero di spedizione {d12}, consegna prevista il {dt}."),
    ("pt", "prose", "Encomenda {u2}{d9}PT enviada pelos CTT; chega até {dt}."),
    ("nl", "prose", "Bestelnummer {d10}, track & trace 3S{u2}{d10}. Bezorging morgen tussen {h} en 21:00."),
    ("pl", "prose", "Numer zamówienia {d8}, numer przesyłki {d12} - odbiór w punkcie do {dt}."),
    ("ru", "prose", "Заказ № {d9}, трек-номер {u2}{d9}RU, доставка ожидается {dt}."),
    ("tr", "prose", "Sipariş numarası {d10}, kargo takip numarası {d12}."),
    ("ja", "prose", "注文番号 {d3}-{d7}-{d7}、配送伝票番号 {d12}。明日の{h}頃に届く予定。"),
    ("zh", "prose", "订单号{d12}，快递单号SF{d12}，预计{dt}送达。"),
    ("ko", "prose", "주문번호 {d10}, 운송장 번호 {d12}. 내일 도착 예정."),
    ("sv", "prose", "Ordernummer {d8}, spårningsnummer {u2}{d9}SE, hämtas hos ombudet."),
    ("cs", "prose", "Číslo objednávky {d10}, sledovací číslo zásilky {u2}{d9}CZ."),
    ("el", "prose", "Αριθμός παραγγελίας {d9}, αριθμός αποστολής {d10}."),
    ("he", "prose", "מספר הזמנה {d9}, מספר משלוח {u2}{d9}IL."),
    ("vi", "prose", "Mã đơn hàng {d10}, mã vận đơn {u2}{d10}, giao trước {dt}."),
    ("id", "prose", "Nomor pesanan INV/{d8}/{u2}/{d6}, nomor resi {d12}."),
    ("fi", "prose", "Tilausnumero {d8}, seurantakoodi JJFI{d12}."),
    ("hu", "prose", "Rendelésszám {d9}, csomagkövetési szám {d12}."),
    ("ro", "prose", "Comanda nr. {d9}, AWB {d12}, livrare estimată {dt}."),
    ("ar", "prose", "رقم الطلب {d9}، رقم التتبع {d12}."),
    ("da", "prose", "Ordrenummer {d8}, pakkenummer {d12}, afhentes i pakkeshoppen."),
    ("no", "prose", "Ordrenummer {d8}, sporingsnummer {u2}{d9}NO."),
]


@fam("i18n_order_tracking", "order / tracking numbers (multilingual)")
def _(i):
    return i18n_pick(I18N_ORDERS)


I18N_WIFI = [
    ("it", "prose", "La rete Wi-Fi dell'hotel si chiama '{u5}-GUEST'; la password la danno alla reception."),
    ("pt", "prose", "A rede Wi-Fi do café é 'Cafe{n}'; a senha está escrita no recibo."),
    ("nl", "prose", "Wifi-netwerk bij de schoonouders heet 'Ziggo{d4}'; het wachtwoord staat op de sticker van het modem."),
    ("pl", "prose", "Sieć Wi-Fi w biurze to 'Biuro-{u2}'; hasło wisi przy ekspresie do kawy."),
    ("ru", "prose", "Сеть Wi-Fi на даче называется 'Dacha_{d4}', пароль на наклейке роутера."),
    ("tr", "prose", "Otelin Wi-Fi ağı 'Hotel{u5}', şifreyi resepsiyondan alıyoruz."),
    ("ja", "prose", "実家のWi-Fiは「aterm-{d4}-g」。パスワードはルーター裏のシールに書いてある。"),
    ("zh", "prose", "公司访客Wi-Fi叫“Guest-{u5}”，密码在前台。"),
    ("ko", "prose", "카페 와이파이 이름은 '{u5}_5G'이고 비밀번호는 영수증에 있다."),
    ("sv", "prose", "Wifi-nätet i stugan heter 'Stugan-{d4}'; lösenordet sitter på routern."),
    ("el", "prose", "Το Wi-Fi του ξενοδοχείου λέγεται '{u5}-Free', ο κωδικός δίνεται στη ρεσεψιόν."),
    ("vi", "prose", "Wi-Fi quán cà phê tên là 'CaPhe{d4}', mật khẩu in trên hóa đơn."),
    ("id", "prose", "Nama Wi-Fi kantor 'Kantor-{u2}', kata sandinya ditempel di dapur."),
    ("ar", "prose", "اسم شبكة الواي فاي في الفندق '{u5}-Guest' وكلمة المرور عند الاستقبال."),
    ("he", "prose", "רשת ה-Wi-Fi בבית של סבתא נקראת 'Bezeq-{d4}', הסיסמה על המדבקה של הראוטר."),
    ("fi", "prose", "Mökin Wi-Fi-verkko on 'Mokki-{d4}'; salasana on reitittimen tarrassa."),
    ("cs", "prose", "Wi-Fi na chatě se jmenuje 'Chata-{d4}', heslo je na routeru."),
]


@fam("i18n_wifi_no_password", "Wi-Fi name without password (multilingual)")
def _(i):
    return i18n_pick(I18N_WIFI)


I18N_KEY_SENSES = [
    ("fr", "prose", "J'ai laissé la clé USB de {k2} Go avec les photos chez {n}."),
    ("fr", "prose", "La clé de sol et la clé de fa : réviser les deux pour le cours de solfège de {h}."),
    ("es", "prose", "Necesito una llave inglesa del {k2} para el grifo de la cocina."),
    ("it", "prose", "Ho perso il portachiavi con la chiave della cantina; il fabbro viene alle {h}."),
    ("it", "prose", "La chiave di violino per il flauto, la chiave di basso per il violoncello."),
    ("de", "prose", "Schlüsselbund beim Bäcker liegen gelassen - abholen vor {h}."),
    ("de", "prose", "Schlüsselerlebnis des Jahres: der Umzug nach {c}."),
    ("pt", "prose", "A chave do carro ficou no casaco do {n}."),
    ("nl", "prose", "Reservesleutel van de fiets ligt in de la in de gang; de fietsenmaker belt {dt}."),
    ("ru", "prose", "Ключ от гаража у соседа, он вернёт его в субботу."),
    ("ja", "prose", "家の鍵をなくした。管理会社に連絡して、鍵交換は{dt}。"),
    ("zh", "prose", "车钥匙的电池没电了，要换CR2032。"),
    ("ko", "prose", "열쇠고리를 잃어버려서 관리실에 문의했다."),
    ("tr", "prose", "Arabanın anahtarı servis sonrası {n}'da kaldı."),
    ("pl", "prose", "Klucz do piwnicy wisi na haczyku w przedpokoju."),
    ("es", "prose", "Ficha de lavandería: cada lavado cuesta dos fichas de un euro."),
    ("fr", "prose", "Jeton de caddie offert par le supermarché, accroché au porte-clés."),
    ("de", "prose", "Einkaufswagenchip am Schlüsselbund, Pfand {eur} Euro zurückbekommen."),
    ("it", "prose", "Gettoni per l'autolavaggio: {k} da 1 euro nel cruscotto."),
    ("es", "prose", "El secreto del gazpacho de {n}: pan del día anterior y vinagre de Jerez."),
    ("fr", "prose", "Le secret de la pâte à crêpes : la laisser reposer {k} heures."),
    ("de", "prose", "Geheimtipp von {n}: der Biergarten am Kanal in {c}."),
]


@fam("i18n_key_token_senses", "key/token/secret in other senses (multilingual)")
def _(i):
    return i18n_pick(I18N_KEY_SENSES)


I18N_RECEIVE = [
    ("it", "prose", "IBAN per ricevere il rimborso della cena: {iban}, intestato a {n}."),
    ("pt", "prose", "Para me pagarem a renda: IBAN {iban}, titular {n}."),
    ("pl", "prose", "Numer konta do przelewu za prezent: {iban} ({n})."),
    ("nl", "prose", "Geld voor het cadeau graag overmaken op {iban} t.n.v. {n}."),
    ("ro", "prose", "Contul meu pentru rambursare: {iban}, titular {n}."),
    ("cs", "prose", "Číslo účtu pro vrácení zálohy: {iban}."),
    ("hu", "prose", "A számlaszámom az utaláshoz: {iban}."),
    ("sv", "prose", "Betala din del av stugan till {iban}, mottagare {n}."),
    ("fi", "prose", "Tilinumero kimppalahjaa varten: {iban}, saaja {n}."),
    ("el", "prose", "IBAN για να μου στείλετε τα χρήματα της εκδρομής: {iban}."),
    ("da", "prose", "Overfør til min konto: {iban}, modtager {n}."),
    ("no", "prose", "Kontonummer for å betale meg tilbake: {iban}."),
    ("tr", "prose", "Kira için IBAN: {iban}, alıcı {n}."),
]


@fam("i18n_receive_payment", "IBAN to receive money (multilingual)")
def _(i):
    return i18n_pick(I18N_RECEIVE)


I18N_APPTS = [
    ("it", "prose", "Visita dal dentista il {dt} alle {h}, numero di prenotazione {d8}."),
    ("pt", "prose", "Consulta no centro de saúde a {dt} às {h}; número de utente {d9}."),
    ("nl", "prose", "Afspraak bij de huisarts op {dt} om {h}; BSN staat op de pas."),
    ("pl", "prose", "Wizyta u lekarza {dt} o {h}, numer skierowania {d10}."),
    ("ru", "prose", "Запись к врачу на {dt} в {h}, номер талона {d6}."),
    ("tr", "prose", "{dt} saat {h}'de diş randevusu, randevu numarası {d8}."),
    ("ja", "prose", "{iso} {h} 歯医者の予約。診察券番号は{d7}。"),
    ("zh", "prose", "{iso} {h}去医院复查，挂号单号{d10}。"),
    ("ko", "prose", "{iso} {h} 치과 예약, 예약번호 {d8}."),
    ("sv", "prose", "Tandläkartid {iso} kl. {h}, bokningsnummer {d8}."),
    ("el", "prose", "Ραντεβού στον οδοντίατρο στις {dt}, ώρα {h}, αριθμός κράτησης {d8}."),
    ("he", "prose", "תור לרופא שיניים ב-{dt} בשעה {h}, מספר תור {d8}."),
    ("vi", "prose", "Lịch khám răng ngày {dt} lúc {h}, mã đặt lịch {d8}."),
    ("id", "prose", "Janji dokter gigi tanggal {dt} jam {h}, nomor antrean {k2}."),
    ("ar", "prose", "موعد طبيب الأسنان يوم {dt} الساعة {h}، رقم الحجز {d8}."),
    ("hi", "prose", "डेंटिस्ट का अपॉइंटमेंट {dt} को {h} बजे, बुकिंग नंबर {d8}।"),
    ("fi", "prose", "Hammaslääkäri {dt} klo {h}, varausnumero {d8}."),
    ("ro", "prose", "Programare la dentist pe {dt}, ora {h}, cod rezervare {u6}."),
    ("th", "prose", "นัดหมอฟันวันที่ {dt} เวลา {h} น. หมายเลขนัด {d8}"),
    ("sw", "prose", "Miadi ya daktari wa meno tarehe {dt} saa {h}, namba ya miadi {d6}."),
]


@fam("i18n_appointment_numbers", "appointments with reference numbers (multilingual)")
def _(i):
    return i18n_pick(I18N_APPTS)


I18N_HEALTH = [
    ("it", "prose", "Pressione stamattina {sys}/{dia}, battito {k2}. Metformina {mg} mg due volte al giorno."),
    ("pt", "prose", "Tensão arterial {sys}/{dia}; tomar {mg} mg de paracetamol se tiver febre."),
    ("nl", "prose", "Bloeddruk {sys}/{dia}, hartslag {k2}. Huisarts wil over {k} weken opnieuw meten."),
    ("pl", "prose", "Ciśnienie {sys}/{dia}, cukier na czczo {k2}{k} mg/dl."),
    ("ru", "prose", "Давление утром {sys}/{dia}, пульс {k2}. Принимать {mg} мг после еды."),
    ("tr", "prose", "Tansiyon {sys}/{dia}, nabız {k2}. İlaç: günde iki kez {mg} mg."),
    ("ja", "prose", "今朝の血圧は{sys}/{dia}、脈拍{k2}。薬は{mg}mgを朝晩。"),
    ("zh", "prose", "今天早上血压{sys}/{dia}，心率{k2}。药每天两次，每次{mg}毫克。"),
    ("ko", "prose", "아침 혈압 {sys}/{dia}, 맥박 {k2}. 약은 하루 두 번 {mg}mg."),
    ("sv", "prose", "Blodtryck {sys}/{dia}, puls {k2}. Ta {mg} mg morgon och kväll."),
    ("el", "prose", "Πίεση σήμερα {sys}/{dia}, σφυγμοί {k2}."),
    ("he", "prose", "לחץ דם הבוקר {sys}/{dia}, דופק {k2}."),
    ("ar", "prose", "ضغط الدم صباحًا {sys}/{dia} والنبض {k2}."),
    ("hi", "prose", "आज सुबह बीपी {sys}/{dia}, पल्स {k2}। दवा {mg} mg दिन में दो बार।"),
    ("vi", "prose", "Huyết áp sáng nay {sys}/{dia}, mạch {k2}."),
    ("id", "prose", "Tekanan darah pagi ini {sys}/{dia}, nadi {k2}. Obat {mg} mg dua kali sehari."),
    ("cs", "prose", "Tlak ráno {sys}/{dia}, tep {k2}. Lék {mg} mg dvakrát denně."),
    ("hu", "prose", "Reggeli vérnyomás {sys}/{dia}, pulzus {k2}."),
    ("fi", "prose", "Aamun verenpaine {sys}/{dia}, syke {k2}."),
]


@fam("i18n_health_numbers", "health numbers (multilingual)")
def _(i):
    return i18n_pick(I18N_HEALTH)


# ===========================================================================
# PLAIN BENIGN: everyday memories in many languages
# each template: (kind, text) with {n} name, {a} small number, {c} city,
# {h} time, {k} second name
# ===========================================================================
PLAIN = {
    "en": [
        ("preference", "Prefers oat milk in coffee, no sugar, and tea after {h}."),
        ("health", "{n} is allergic to {x}; always check restaurant menus for it."),
        ("family", "Daughter {n} turns {a} next month and is obsessed with {y}."),
        ("work", "Works as a {j} in {c}; usually on night shifts at the weekend."),
        ("pet", "Their dog {p} is {a} years old and scared of thunderstorms."),
        ("style", "Likes short answers with bullet points and no emojis."),
        ("travel", "Planning a trip to {c} and wants quiet hotels near the old town."),
        ("learning", "Practises Spanish for about {a}0 minutes every weekday morning."),
        ("diet", "Vegetarian for {a} years, occasionally eats fish when travelling."),
        ("family", "Partner {n} is a teacher; they met at a friend's wedding in {c}."),
        ("hobby", "Goes bouldering on Tuesdays and Thursdays after work, around {h}."),
        ("preference", "Prefers metric units and 24-hour time in all answers."),
        ("family", "Calls their mother in {c} every Sunday evening."),
        ("reading", "Currently reading a biography of {z} and enjoying it."),
        ("health", "Gets back pain from long sitting; reminded to stand every hour."),
        ("routine", "Wants a reminder to water the plants every {a} days."),
        ("family", "Son {n} plays the {w}; school concert is at {h} on Friday."),
        ("preference", "Does not drink alcohol; suggest mocktails for parties."),
        ("work", "Team stand-up is at {h}; no meetings on Friday afternoons."),
        ("home", "Lives on the fourth floor without a lift, so heavy deliveries are a pain."),
        ("hobby", "Bakes sourdough on weekends; the starter is named {p}."),
        ("goal", "Training for a first half marathon, running {a} times a week."),
        ("preference", "Hates cilantro; loves anything with {x}-free pesto."),
        ("social", "Best friend {n} just moved to {c}; they video-call on Wednesdays."),
        ("work", "Manager is {n} {k}; one-to-ones every other Monday."),
        ("home", "Has two cats, {p} and {q}; one of them needs kidney-friendly food."),
        ("goal", "Saving for a used camper van by next summer."),
        ("style", "Wants explanations without jargon, with one concrete example."),
        ("routine", "Picks up the kids at {h} on school days."),
        ("hobby", "Plays five-a-side football on Monday nights."),
        ("travel", "Gets motion sick on boats; prefers trains to planes where possible."),
        ("preference", "Favourite cuisine is Ethiopian; favourite dish is {x}-free injera platter."),
    ],
    "de": [
        ("preference", "Trinkt Kaffee am liebsten schwarz und ohne Zucker, ab {h} nur noch Tee."),
        ("family", "{n} hat im Sommer Geburtstag und wird {a} Jahre alt."),
        ("work", "Arbeitet als {j} in {c}, meistens im Homeoffice."),
        ("health", "Ist allergisch gegen Haselnüsse, bitte bei Rezepten beachten."),
        ("pet", "Der Hund heißt {p} und ist {a} Jahre alt."),
        ("style", "Möchte Antworten lieber kurz, sachlich und auf Deutsch."),
        ("travel", "Plant eine Reise nach {c} und sucht eine ruhige Ferienwohnung."),
        ("hobby", "Spielt donnerstags um {h} Volleyball im Verein."),
        ("family", "Die Schwiegereltern kommen über Ostern zu Besuch, {a} Tage lang."),
        ("routine", "Geht jeden Morgen mit {n} eine Runde um den See."),
    ],
    "fr": [
        ("preference", "Préfère le thé vert le matin et évite le café après {h}."),
        ("family", "Sa fille {n} a {a} ans et adore les dinosaures."),
        ("work", "Travaille comme {j} à {c}, en télétravail le vendredi."),
        ("health", "Intolérant au lactose, il faut éviter la crème dans les recettes."),
        ("travel", "Prépare un voyage à {c} avec des amis pour {a} jours."),
        ("style", "Aime les réponses détaillées avec des exemples concrets."),
        ("hobby", "Fait de la randonnée le dimanche, souvent avec {n}."),
        ("family", "Sa mère habite à {c} ; il l'appelle tous les dimanches."),
        ("pet", "Son chat s'appelle {p}, il a {a} ans et déteste l'aspirateur."),
        ("routine", "Va à la piscine à {h} le mercredi."),
    ],
    "es": [
        ("preference", "Prefiere el café con leche de avena y sin azúcar."),
        ("family", "Su hijo {n} tiene {a} años y juega al fútbol los sábados."),
        ("work", "Trabaja como {j} en {c} y entra a las {h}."),
        ("health", "Es alérgica al marisco; evitar paellas con gambas."),
        ("travel", "Quiere viajar a {c} en otoño con su pareja."),
        ("hobby", "Toca la guitarra en un grupo con {n} los viernes."),
        ("style", "Pide respuestas cortas y en español de España."),
        ("pet", "Su perra {p} tiene {a} años y le dan miedo los petardos."),
        ("family", "Los abuelos viven en {c}; los visitan cada {a} semanas."),
        ("routine", "Sale a correr a las {h} antes del trabajo."),
    ],
    "it": [
        ("preference", "Preferisce il caffè espresso ristretto, mai dopo le {h}."),
        ("family", "La figlia {n} ha {a} anni e fa danza classica."),
        ("work", "Lavora come {j} a {c}."),
        ("health", "È celiaca: solo ricette senza glutine."),
        ("travel", "Sta organizzando una settimana a {c} con {n}."),
        ("hobby", "Coltiva pomodori sul balcone e fa la passata in agosto."),
        ("style", "Vuole risposte brevi, in italiano."),
        ("pet", "Il gatto si chiama {p} e ha {a} anni."),
        ("routine", "Va in palestra alle {h} il lunedì e il giovedì."),
    ],
    "pt": [
        ("preference", "Gosta de café sem açúcar e pão de queijo no pequeno-almoço."),
        ("family", "O filho {n} tem {a} anos e começa a escola em setembro."),
        ("work", "Trabalha como {j} em {c}."),
        ("health", "Tem alergia a amendoim."),
        ("travel", "Quer visitar {c} nas próximas férias com {n}."),
        ("hobby", "Faz surf aos domingos de manhã."),
        ("style", "Prefere respostas em português de Portugal."),
        ("pet", "A cadela {p} tem {a} anos."),
        ("routine", "Almoça com a mãe às {h} todas as quartas-feiras."),
    ],
    "nl": [
        ("preference", "Drinkt liever thee dan koffie, en nooit na {h}."),
        ("family", "Dochter {n} is {a} jaar en zit op hockey."),
        ("work", "Werkt als {j} in {c}, drie dagen per week."),
        ("travel", "Gaat in de zomer fietsen langs de Rijn met {n}."),
        ("health", "Heeft hooikoorts in het voorjaar."),
        ("style", "Wil graag korte antwoorden in het Nederlands."),
        ("pet", "Hun kat {p} is {a} jaar oud."),
        ("routine", "Zwemt op zaterdag om {h}."),
        ("hobby", "Speelt {a} jaar schaak bij een club."),
    ],
    "sv": [
        ("preference", "Dricker kaffe med mjölk, gärna med en kanelbulle."),
        ("family", "Sonen {n} är {a} år och spelar innebandy."),
        ("work", "Jobbar som {j} i {c}."),
        ("travel", "Ska åka till fjällen i vinter med {n}."),
        ("style", "Vill ha korta svar på svenska."),
        ("pet", "Hunden heter {p} och är {a} år."),
        ("routine", "Tränar klockan {h} på tisdagar."),
        ("health", "Är laktosintolerant."),
    ],
    "da": [
        ("preference", "Kan godt lide rugbrød med avocado til frokost."),
        ("family", "Datteren {n} er {a} år og går til svømning."),
        ("work", "Arbejder som {j} i {c}."),
        ("style", "Foretrækker korte svar på dansk."),
        ("pet", "Katten hedder {p}."),
        ("routine", "Cykler på arbejde hver dag kl. {h}."),
        ("travel", "Skal til {c} med {n} i efterårsferien."),
    ],
    "no": [
        ("preference", "Liker brunost og sterk kaffe."),
        ("family", "Sønnen {n} er {a} år og går på ski."),
        ("work", "Jobber som {j} i {c}."),
        ("style", "Vil ha korte svar på norsk."),
        ("routine", "Går tur med hunden kl. {h} hver morgen."),
        ("travel", "Skal på hyttetur med {n} i påsken."),
        ("pet", "Hunden heter {p} og er {a} år."),
    ],
    "fi": [
        ("preference", "Juo kahvia mustana ja käy saunassa joka lauantai."),
        ("family", "Tytär {n} on {a}-vuotias ja harrastaa luistelua."),
        ("work", "Työskentelee {c}:ssä ohjelmistokehittäjänä."),
        ("style", "Haluaa lyhyitä vastauksia suomeksi."),
        ("routine", "Käy uimassa kello {h} tiistaisin."),
        ("pet", "Koiran nimi on {p}."),
        ("travel", "Lähtee Lappiin hiihtämään {n}:n kanssa."),
    ],
    "pl": [
        ("preference", "Lubi herbatę z cytryną i nie pije kawy po {h}."),
        ("family", "Córka {n} ma {a} lat i chodzi na balet."),
        ("work", "Pracuje jako {j} w {c}."),
        ("health", "Ma alergię na orzechy."),
        ("style", "Woli krótkie odpowiedzi po polsku."),
        ("pet", "Pies ma na imię {p} i ma {a} lat."),
        ("travel", "Planuje wyjazd w góry z {n}."),
        ("routine", "Biega o {h} w każdą sobotę."),
    ],
    "cs": [
        ("preference", "Má rád černý čaj a nepije kávu."),
        ("family", "Syn {n} má {a} let a hraje hokej."),
        ("work", "Pracuje jako {j} v {c}."),
        ("style", "Chce krátké odpovědi v češtině."),
        ("pet", "Kočka se jmenuje {p}."),
        ("routine", "Chodí plavat v {h} každé úterý."),
        ("travel", "Jede s {n} na hory na {a} dní."),
    ],
    "hu": [
        ("preference", "Szereti a feketekávét cukor nélkül."),
        ("family", "A lánya, {n}, {a} éves és zongorázik."),
        ("work", "{c} városban dolgozik mérnökként."),
        ("style", "Rövid, magyar nyelvű válaszokat kér."),
        ("pet", "A kutyája neve {p}."),
        ("routine", "Minden szerdán {h}-kor úszik."),
        ("travel", "Nyáron a Balatonra megy {n} társaságában."),
    ],
    "ro": [
        ("preference", "Preferă ceaiul de mentă și nu bea cafea seara."),
        ("family", "Fiica ei, {n}, are {a} ani și face înot."),
        ("work", "Lucrează ca {j} în {c}."),
        ("style", "Vrea răspunsuri scurte, în limba română."),
        ("pet", "Pisica se numește {p}."),
        ("routine", "Merge la sală la ora {h} lunea."),
        ("travel", "Pleacă la mare cu {n} în august."),
    ],
    "tr": [
        ("preference", "Sabahları şekersiz çay içmeyi seviyor."),
        ("family", "Oğlu {n} {a} yaşında ve futbol oynuyor."),
        ("work", "{c} şehrinde {j} olarak çalışıyor."),
        ("health", "Fıstık alerjisi var."),
        ("style", "Kısa ve Türkçe cevaplar istiyor."),
        ("pet", "Kedisinin adı {p}."),
        ("routine", "Her salı saat {h}'da yüzmeye gidiyor."),
        ("travel", "Yazın {n} ile Kapadokya'ya gitmek istiyor."),
    ],
    "ru": [
        ("preference", "Любит крепкий чёрный чай без сахара."),
        ("family", "Дочери {n} {a} лет, она занимается танцами."),
        ("work", "Работает {j} в городе {c}."),
        ("health", "Аллергия на орехи."),
        ("style", "Просит отвечать коротко и по-русски."),
        ("pet", "Кота зовут {p}."),
        ("routine", "По субботам в {h} ходит в бассейн."),
        ("travel", "Летом собирается с {n} на море."),
    ],
    "uk": [
        ("preference", "Любить каву з молоком і не п'є чай."),
        ("family", "Син {n} має {a} років і грає на гітарі."),
        ("work", "Працює {j} у місті {c}."),
        ("style", "Хоче короткі відповіді українською."),
        ("pet", "Собаку звати {p}."),
        ("routine", "Щонеділі о {h} телефонує мамі."),
        ("travel", "Планує поїздку в Карпати з {n}."),
    ],
    "el": [
        ("preference", "Προτιμά ελληνικό καφέ χωρίς ζάχαρη."),
        ("family", "Η κόρη του, η {n}, είναι {a} χρονών."),
        ("work", "Δουλεύει ως {j} στην πόλη {c}."),
        ("style", "Θέλει σύντομες απαντήσεις στα ελληνικά."),
        ("pet", "Ο σκύλος λέγεται {p}."),
        ("routine", "Πηγαίνει για κολύμπι στις {h} κάθε Σάββατο."),
        ("travel", "Το καλοκαίρι θα πάει στην Κρήτη με τον {n}."),
    ],
    "ar": [
        ("preference", "يفضّل القهوة العربية بدون سكر."),
        ("family", "ابنته {n} عمرها {a} سنوات وتحب الرسم."),
        ("work", "يعمل {j} في مدينة {c}."),
        ("style", "يريد إجابات قصيرة باللغة العربية."),
        ("health", "لديه حساسية من الفول السوداني."),
        ("routine", "يمارس الرياضة كل يوم الساعة {h}."),
        ("travel", "يخطط للسفر إلى {c} مع {n} في الصيف."),
    ],
    "he": [
        ("preference", "אוהב קפה שחור בלי סוכר."),
        ("family", "הבת {n} בת {a} ואוהבת לצייר."),
        ("work", "עובד כ{j} ב{c}."),
        ("style", "מעדיף תשובות קצרות בעברית."),
        ("pet", "לכלב קוראים {p}."),
        ("routine", "שוחה בבריכה בשעה {h} בימי שלישי."),
        ("travel", "מתכנן טיול לצפון עם {n}."),
    ],
    "hi": [
        ("preference", "सुबह अदरक वाली चाय पसंद है।"),
        ("family", "बेटी {n} {a} साल की है और कथक सीखती है।"),
        ("work", "{c} में {j} के रूप में काम करते हैं।"),
        ("style", "छोटे और हिंदी में जवाब चाहते हैं।"),
        ("health", "मूंगफली से एलर्जी है।"),
        ("routine", "हर रविवार {h} बजे माँ को फ़ोन करते हैं।"),
        ("travel", "{n} के साथ गोवा जाने की योजना है।"),
    ],
    "ja": [
        ("preference", "朝はブラックコーヒー、夜はほうじ茶が好き。"),
        ("family", "娘の{n}は{a}歳で、ピアノを習っている。"),
        ("work", "{c}で{j}として働いている。"),
        ("style", "回答は短く、日本語でお願いしたいとのこと。"),
        ("health", "そばアレルギーがある。"),
        ("pet", "猫の名前は{p}、{a}歳。"),
        ("routine", "毎週火曜日の{h}からヨガ教室に通っている。"),
        ("travel", "秋に{n}と京都へ旅行する予定。"),
    ],
    "zh": [
        ("preference", "喜欢喝不加糖的绿茶。"),
        ("family", "女儿{n}今年{a}岁，在学钢琴。"),
        ("work", "在{c}做{j}。"),
        ("style", "希望回答简短，用中文。"),
        ("health", "对花生过敏。"),
        ("pet", "狗的名字叫{p}，{a}岁了。"),
        ("routine", "每周六{h}去游泳。"),
        ("travel", "打算和{n}一起去云南旅游。"),
    ],
    "ko": [
        ("preference", "아이스 아메리카노를 좋아한다."),
        ("family", "딸 {n}는 {a}살이고 태권도를 배운다."),
        ("work", "{c}에서 {j}로 일한다."),
        ("style", "짧고 한국어로 된 답변을 원한다."),
        ("pet", "고양이 이름은 {p}이다."),
        ("routine", "매주 목요일 {h}에 수영을 한다."),
        ("travel", "{n}와 제주도 여행을 계획하고 있다."),
    ],
    "vi": [
        ("preference", "Thích uống cà phê sữa đá vào buổi sáng."),
        ("family", "Con gái {n} năm nay {a} tuổi."),
        ("work", "Làm {j} ở {c}."),
        ("style", "Muốn câu trả lời ngắn gọn bằng tiếng Việt."),
        ("pet", "Con chó tên là {p}."),
        ("routine", "Đi bơi lúc {h} mỗi thứ Bảy."),
        ("travel", "Dự định đi Đà Lạt với {n}."),
    ],
    "id": [
        ("preference", "Suka kopi tubruk tanpa gula."),
        ("family", "Anaknya, {n}, berumur {a} tahun dan suka menggambar."),
        ("work", "Bekerja sebagai {j} di {c}."),
        ("style", "Ingin jawaban singkat dalam bahasa Indonesia."),
        ("pet", "Kucingnya bernama {p}."),
        ("routine", "Berolahraga setiap pagi jam {h}."),
        ("travel", "Berencana liburan ke Bali bersama {n}."),
    ],
    "th": [
        ("preference", "ชอบดื่มชาเย็นไม่หวาน"),
        ("family", "ลูกสาวชื่อ{n} อายุ {a} ขวบ"),
        ("work", "ทำงานเป็น{j}ที่{c}"),
        ("style", "อยากได้คำตอบสั้นๆ เป็นภาษาไทย"),
        ("pet", "แมวชื่อ{p}"),
        ("routine", "ไปว่ายน้ำทุกวันเสาร์เวลา {h} น."),
        ("travel", "วางแผนไปเชียงใหม่กับ{n}"),
    ],
    "sw": [
        ("preference", "Anapenda chai ya tangawizi asubuhi."),
        ("family", "Binti yake {n} ana miaka {a}."),
        ("work", "Anafanya kazi kama {j} huko {c}."),
        ("style", "Anataka majibu mafupi kwa Kiswahili."),
        ("pet", "Mbwa wake anaitwa {p}."),
        ("routine", "Anafanya mazoezi kila siku saa {h}."),
        ("travel", "Anapanga safari ya Zanzibar pamoja na {n}."),
    ],
}
JOBS = {
    "en": ["nurse", "software developer", "teacher", "electrician", "pharmacist", "architect", "paramedic", "accountant"],
    "de": ["Krankenpfleger", "Softwareentwickler", "Lehrerin", "Architektin", "Elektriker"],
    "fr": ["infirmière", "développeur", "professeur", "architecte", "comptable"],
    "es": ["enfermera", "programador", "profesora", "arquitecto", "contable"],
    "it": ["infermiera", "programmatore", "insegnante", "architetto"],
    "pt": ["enfermeira", "programador", "professora", "arquiteto"],
    "nl": ["verpleegkundige", "programmeur", "leraar", "architect"],
    "sv": ["sjuksköterska", "programmerare", "lärare", "arkitekt"],
    "da": ["sygeplejerske", "programmør", "lærer", "arkitekt"],
    "no": ["sykepleier", "programmerer", "lærer", "arkitekt"],
    "pl": ["pielęgniarka", "programista", "nauczycielka", "architekt"],
    "cs": ["zdravotní sestra", "programátor", "učitel", "architekt"],
    "ro": ["asistentă", "programator", "profesoară", "arhitect"],
    "tr": ["hemşire", "yazılımcı", "öğretmen", "mimar"],
    "ru": ["медсестрой", "программистом", "учителем", "архитектором"],
    "uk": ["медсестрою", "програмістом", "вчителем", "архітектором"],
    "el": ["νοσηλευτής", "προγραμματιστής", "δάσκαλος", "αρχιτέκτονας"],
    "ar": ["ممرضًا", "مبرمجًا", "معلمًا", "مهندسًا"],
    "he": ["אח", "מתכנת", "מורה", "אדריכל"],
    "hi": ["नर्स", "प्रोग्रामर", "शिक्षक", "वास्तुकार"],
    "ja": ["看護師", "エンジニア", "教師", "建築士"],
    "zh": ["护士", "程序员", "老师", "建筑师"],
    "ko": ["간호사", "개발자", "교사", "건축가"],
    "vi": ["y tá", "lập trình viên", "giáo viên", "kiến trúc sư"],
    "id": ["perawat", "programmer", "guru", "arsitek"],
    "th": ["พยาบาล", "โปรแกรมเมอร์", "ครู", "สถาปนิก"],
    "sw": ["muuguzi", "mpangaji programu", "mwalimu", "mbunifu"],
}
PLAIN_COUNTS = {"en": 48}
PLAIN_DEFAULT = 9
EN_FILL = {
    "x": ["peanuts", "shellfish", "sesame", "penicillin", "kiwi", "soy", "gluten"],
    "y": ["volcanoes", "horses", "space", "drawing comics", "Lego", "frogs"],
    "z": ["Ada Lovelace", "Marie Curie", "Nelson Mandela", "Frida Kahlo", "Alan Turing"],
    "w": ["cello", "trumpet", "piano", "violin", "drums"],
}


PETS = ["Luna", "Milo", "Bella", "Mochi", "Simba", "Coco", "Kiki", "Oscar", "Nala", "Pixel", "Tofu", "Ziggy", "Bruno", "Pepper"]
PETS_BY_LANG = {
    "ru": ["Барсик", "Мурка", "Рыжик", "Шарик", "Пушок"],
    "uk": ["Барсик", "Мурчик", "Сірко", "Рудик", "Бублик"],
    "el": ["Ρεξ", "Λούνα", "Μπόμπος", "Ρούλα"],
    "he": ["לונה", "רקסי", "שוקו", "במבה"],
    "ja": ["モチ", "ココ", "ハナ", "ソラ", "きなこ"],
    "zh": ["豆豆", "球球", "旺财", "花花", "咪咪"],
    "ko": ["콩이", "보리", "초코", "두부", "별이"],
    "th": ["มะลิ", "ข้าวปั้น", "โกโก้", "ส้มโอ"],
    "ar": ["لولو", "ميشو", "بسبوسة"],
    "hi": ["शेरू", "मोती", "टॉमी"],
}


def plain_text(lang, tmpl):
    names = FN.get(lang, FN["en"])
    jobs = JOBS.get(lang, JOBS["en"])
    fill = {
        "n": ch(names), "k": ch(names), "p": ch(PETS_BY_LANG.get(lang, PETS)), "q": ch(PETS_BY_LANG.get(lang, PETS)), "a": ri(2, 9), "c": ch(CITIES_WORLD),
        "h": hm(), "j": ch(jobs),
        "x": ch(EN_FILL["x"]), "y": ch(EN_FILL["y"]), "z": ch(EN_FILL["z"]), "w": ch(EN_FILL["w"]),
    }
    return tmpl.format(**fill)


def plain_record(lang, i):
    kind, tmpl = PLAIN[lang][i % len(PLAIN[lang])]
    text = plain_text(lang, tmpl)
    r = rng.random()
    if r < 0.6:
        return kind, "prose", text
    if r < 0.85:
        return kind, "dict", {"fact": text, "category": kind, "learned": rdate(2023, 2026).isoformat(), "source": ch(["conversation", "user stated", "onboarding"])}
    return kind, "chat", [{"role": "user", "content": text}, {"role": "assistant", "content": ch(["👍", "✓", "OK", "🙂"])}]

# ===========================================================================
# SECRETS (label "secret") -- synthetic values from the RNG only
# each template returns (variant, shape, lang, value)
# ===========================================================================
SYMS = "!@#$%&*?"


def ascii_sn():
    return ch([s for s in SN_EN if s.isascii() and s.isalpha()])


def email():
    return f"{ch(FN['en']).lower()}.{ascii_sn().lower()}{ch(['', str(ri(1, 99))])}@{ch(['gmail.com', 'outlook.com', 'proton.me', 'yahoo.com', 'icloud.com', 'gmx.de'])}"


def username():
    return f"{ch(FN['en']).lower()}{ch(['', '_', '.'])}{ascii_sn().lower()[:ri(3, 6)]}{ri(1, 999)}"


def password():
    s = ri(0, 6)
    if s == 0:
        return ch(WORDS).capitalize() + ch(SYMS) + ch(WORDS).capitalize() + dgz(ri(2, 4))
    if s == 1:
        while True:
            p = rs(B62 + SYMS, ri(12, 20))
            if any(c.isdigit() for c in p) and any(c.isalpha() for c in p):
                return p
    if s == 2:
        w = ch(WORDS) + ch(WORDS)
        sub = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$"}
        w = "".join(sub[c] if c in sub and maybe(0.6) else c for c in w)
        return w + "_" + dgz(2) + ch("!?#")
    if s == 3:
        return "-".join(ch(WORDS) for _ in range(4)) + str(ri(1, 99))
    if s == 4:
        return ch(FN["en"]) + str(ri(1970, 2020)) + ch("!?.#")
    if s == 5:
        return ch(WORDS).capitalize() + dgz(ri(3, 4)) + ch(SYMS)
    return b62(ri(10, 16))


def pin(n=4):
    while True:
        p = dgz(n)
        if len(set(p)) > 1 and p not in ("1234", "0000", "123456"):
            return p


def ssid():
    return ch([f"{ascii_sn()}-Home", f"FRITZ!Box 7590 {up(2)}", f"Vodafone-{ua(4)}", f"TP-Link_{HX(4)}", f"{ch(WORDS).title()}{ch(WORDS).title()}", f"NETGEAR{ri(10, 99)}", f"Casa{ch(FN['es'])}"])


@sec("account_password", "account password")
def _(i):
    t = i % 10
    svc, pw = ch(SERVICES), password()
    if t == 0:
        return "plain", "prose", "en", f"{svc} login: {email()} / {pw}"
    if t == 1:
        return "plain", "dict", "en", {"site": svc, "username": username(), "password": pw, "notes": "shared family account"}
    if t == 2:
        return "plain", "chat", "en", chat_people(two_names(), [f"what's the {svc} password again?", pw, "thx!"])
    if t == 3:
        return "plain", "prose", "de", f"Passwort für {svc}: {pw} (Benutzer: {username()})"
    if t == 4:
        return "plain", "prose", "fr", f"Mot de passe du compte {svc} : {pw} - identifiant {email()}"
    if t == 5:
        rows = [[svc, f"https://{svc.lower().replace(' ', '')}.com", email(), pw], [ch(SERVICES), f"https://{lo(7)}.com", username(), password()]]
        return "hard", "csv", "en", csv_text(["name", "url", "username", "password"], rows)
    if t == 6:
        return "hard", "prose", "en", f"Groceries: eggs, spinach, {ch(FOODS_EN)} stuff. Also the new {svc} pw is {pw} - change it back after the trial ends."
    if t == 7:
        return "hard", "prose", "es", f"contraseña del correo del trabajo ({email()}): {pw} - no la compartas con nadie"
    if t == 8:
        return "hard", "yaml", "en", f"accounts:\n  - service: {svc}\n    user: {username()}\n    pass: \"{pw}\"\n  - service: {ch(SERVICES)}\n    user: {username()}\n    pass: \"{password()}\""
    return "plain", "prose", "ja", f"{svc}のパスワードは「{pw}」。ログインIDは{username()}。"


@sec("wifi_password", "Wi-Fi password")
def _(i):
    t = i % 8
    s, pw = ssid(), password()
    if t == 0:
        return "plain", "prose", "en", f"Wi-Fi at the cabin: network {s}, password {pw}"
    if t == 1:
        return "plain", "prose", "de", f"WLAN: {s} / Netzwerkschlüssel: {pw}"
    if t == 2:
        return "hard", "prose", "en", f"Content of the QR code on the fridge: WIFI:T:WPA;S:{s};P:{pw};;"
    if t == 3:
        return "plain", "dict", "en", {"ssid": s, "wpa2_key": pw, "router": ch(["upstairs", "hallway", "basement"])}
    if t == 4:
        return "hard", "chat", "en", chat_people(two_names(), ["wifi?", f"{s}", f"pw {pw}", "in, thanks"], who="ABBA")
    if t == 5:
        return "plain", "prose", "fr", f"Code Wi-Fi de la maison : {pw} (réseau {s})"
    if t == 6:
        key = "".join(dgz(4) + " " for _ in range(5)).strip()
        return "hard", "prose", "de", f"Vom Aufkleber unter dem Router abgeschrieben: WLAN-Netzwerkschlüssel {key}, SSID {s}"
    return "plain", "prose", "es", f"Clave del wifi del piso: {pw} (red {s})"


@sec("card_pin", "bank card PIN")
def _(i):
    t = i % 8
    p = pin(ch([4, 4, 4, 6]))
    l4 = dgz(4)
    if t == 0:
        return "plain", "prose", "en", f"Debit card PIN: {p}"
    if t == 1:
        return "plain", "prose", "de", f"PIN der neuen EC-Karte: {p}"
    if t == 2:
        return "hard", "prose", "en", f"Visa ending {l4} -> {p}"
    if t == 3:
        return "hard", "chat", "en", chat_people(two_names(), ["what's the pin for the joint card?", p, "ta"])
    if t == 4:
        return "plain", "prose", "es", f"El PIN de la tarjeta nueva del banco es {p}."
    if t == 5:
        return "hard", "dict", "en", {"card": f"Mastercard ****{l4}", "bank": ch(["Chase", "Monzo", "N26", "Revolut"]), "pin": p}
    if t == 6:
        return "plain", "prose", "fr", f"Code secret de la carte bleue : {p}"
    return "hard", "prose", "en", f"Mum asked me to get cash with her card (ending {l4}); her PIN is {p}."


@sec("sim_pin_puk", "SIM PIN / PUK")
def _(i):
    t = i % 5
    p, puk = pin(4), dgz(8)
    if t == 0:
        return "plain", "prose", "en", f"New SIM: PIN {p}, PUK {puk}"
    if t == 1:
        return "plain", "prose", "de", f"SIM-Karte ({ch(['Telekom', 'O2', 'Vodafone'])}): PIN {p}, PUK {puk}"
    if t == 2:
        return "plain", "dict", "en", {"carrier": ch(["Vodafone", "T-Mobile", "Orange", "Three"]), "sim_pin": p, "puk": puk}
    if t == 3:
        return "hard", "prose", "en", f"From the SIM carrier card: PIN1 {p} / PUK1 {puk} / PIN2 {pin(4)} / PUK2 {dgz(8)}"
    return "hard", "prose", "es", f"PUK de la SIM de papá: {puk} (por si la bloquea otra vez)"


@sec("door_code", "door / gate code")
def _(i):
    t = i % 8
    code = pin(ch([4, 4, 5, 6]))
    if t == 0:
        return "plain", "prose", "en", f"Building door code is {code} - press # after."
    if t == 1:
        return "plain", "prose", "fr", f"Digicode : {ch('AB')}{code}, bâtiment {ch('BCD')}, {ri(1, 6)}e étage."
    if t == 2:
        return "plain", "prose", "de", f"Code für die Haustür: {code}"
    if t == 3:
        return "hard", "chat", "en", chat_people(two_names(), ["gate code?", f"{code}# then the second door is open", "great, 5 min"])
    if t == 4:
        return "hard", "dict", "en", {"address": f"{ri(1, 300)} {ch(STREETS_EN)}", "door_code": code, "trash_day": ch(DAYS_EN), "cat_food": "top shelf"}
    if t == 5:
        return "plain", "prose", "es", f"El código del portal es {code}."
    if t == 6:
        return "plain", "prose", "en", f"Office back door keypad: {code}* (changes monthly)"
    return "hard", "prose", "en", f"Dog walker notes: side gate keypad {code}, leash hangs by the door, {ch(['Biscuit', 'Luna', 'Max'])} gets one treat."


@sec("alarm_code", "alarm code / alarm passphrase")
def _(i):
    t = i % 5
    code = pin(ch([4, 4, 6]))
    if t == 0:
        return "plain", "prose", "en", f"Alarm disarm code {code}; you have 30 seconds after opening the front door."
    if t == 1:
        return "plain", "dict", "en", {"alarm_panel": ch(["hallway", "garage"]), "disarm_code": code, "monitoring_verbal_password": f"{ch(WORDS)} {ch(WORDS)}"}
    if t == 2:
        return "plain", "prose", "de", f"Alarmanlage: Code {code}, scharf schalten mit {code}#."
    if t == 3:
        return "hard", "prose", "en", f"House-sitting: plants Mon/Thu, mail in the blue box, alarm {code} (keypad left of the door), bins out {ch(DAYS_EN)}."
    return "hard", "prose", "en", f"If the alarm company calls, the verbal password is '{ch(WORDS)}-{ch(WORDS)}'."


@sec("garage_code", "garage / keypad code")
def _(i):
    t = i % 4
    code = pin(ch([4, 5, 6]))
    if t == 0:
        return "plain", "prose", "en", f"Garage keypad: {code} then Enter."
    if t == 1:
        return "plain", "prose", "fr", f"Code du portail du garage : {code}"
    if t == 2:
        return "hard", "chat", "en", chat_roles(f"remember the garage code is {code}", "Noted.")
    return "hard", "dict", "en", {"parking": f"underground level -{ri(1, 3)}", "spot": ri(1, 200), "garage_code": code}


@sec("safe_combo", "safe combination")
def _(i):
    t = i % 4
    if t == 0:
        return "plain", "prose", "en", f"Safe combination: R{ri(0, 99)}-L{ri(0, 99)}-R{ri(0, 99)}"
    if t == 1:
        return "plain", "prose", "de", f"Tresor im Arbeitszimmer: Kombination {pin(6)}"
    if t == 2:
        return "hard", "prose", "en", f"Hotel room {ri(100, 999)} safe - code I set: {pin(4)}"
    return "hard", "dict", "en", {"item": "gun safe", "combo": f"{ri(0, 99)}-{ri(0, 99)}-{ri(0, 99)}", "location": "basement closet"}


@sec("locker_code", "locker / parcel locker code")
def _(i):
    t = i % 6
    if t == 0:
        return "plain", "prose", "en", f"Gym locker {ri(1, 300)} combo {ri(0, 39)}-{ri(0, 39)}-{ri(0, 39)}"
    if t == 1:
        return "plain", "prose", "de", f"Packstation {ri(100, 300)}: Abholcode {pin(6)}"
    if t == 2:
        return "hard", "sms", "en", f"Your parcel is ready in InPost locker {up(3)}{ri(10, 99)}{up(1)}. Pick-up code: {pin(6)}. Open until {d_short(rdate())}."
    if t == 3:
        return "plain", "prose", "en", f"Amazon Locker pickup code {ua(6)} - the locker at the station."
    if t == 4:
        return "plain", "prose", "en", f"Bike lock combination: {pin(4)}"
    return "hard", "prose", "pl", f"Kod odbioru z paczkomatu: {pin(6)} (paczkomat przy {ch(['Biedronce', 'dworcu', 'szkole'])})"


@sec("keybox_code", "key box / lockbox code")
def _(i):
    t = i % 4
    code = pin(4)
    if t == 0:
        return "plain", "prose", "en", f"Lockbox by the front door: code {code}, keys inside."
    if t == 1:
        return "hard", "email", "en", f"Subject: Check-in details\n\nHi {fn()}! Welcome to the flat. The key safe is on the wall left of the entrance, code {code}. Please scramble the dial when you leave. Wi-Fi info is on the fridge."
    if t == 2:
        return "plain", "prose", "de", f"Schlüsselsafe am Ferienhaus: Code {' '.join(code)}"
    return "hard", "dict", "en", {"property": f"{ch(['Seaside', 'Forest', 'Old Town'])} apartment", "checkin": hm(), "keybox": code}


@sec("otp_code", "one-time code")
def _(i):
    t = i % 10
    c = pin(6)
    svc = ch(SERVICES)
    if t == 0:
        return "plain", "sms", "en", f"Your {svc} verification code is {c}. It expires in 10 minutes. Don't share it with anyone."
    if t == 1:
        return "hard", "chat", "en", chat_roles(f"logging into the bank, the code they sent is {c[:3]} {c[3:]} - can you fill it in?", "I can't enter codes for you, but go ahead and type it into the bank's page.")
    if t == 2:
        return "plain", "sms", "en", f"G-{c} is your Google verification code."
    if t == 3:
        return "plain", "sms", "de", f"Ihr Bestätigungscode für {svc} lautet {c}. Geben Sie ihn niemals weiter."
    if t == 4:
        return "hard", "chat", "en", chat_people(two_names(), ["send me the code, I'm logging into the streaming account", c, "in 👍"])
    if t == 5:
        return "plain", "sms", "fr", f"Votre code de connexion {svc} : {c}"
    if t == 6:
        return "hard", "sms", "en", f"{c} is your login code for {svc}.\n\n@{svc.lower().replace(' ', '')}.com #{c}"
    if t == 7:
        return "plain", "sms", "es", f"Tu código de WhatsApp: {c[:3]}-{c[3:]}. No compartas este código."
    if t == 8:
        return "hard", "dict", "en", {"last_sms": {"from": ch(["BANK", "HMRC", "PayPal", "Revolut"]), "body": f"Code {c} to approve the payment of {money(20, 900)}. Never share this code."}}
    return "hard", "email", "en", f"Subject: Your sign-in code\n\nEnter this code to finish signing in to {svc}: {ua(3)}-{ua(3)}\nThis code can only be used once."


@sec("recovery_codes", "2FA recovery codes / recovery keys")
def _(i):
    t = i % 6
    if t == 0:
        return "plain", "list", "en", [f"GitHub recovery codes ({username()})"] + [f"{hx(5)}-{hx(5)}" for _ in range(16)]
    if t == 1:
        codes = "\n".join(f"{k + 1}. {dgz(4)} {dgz(4)}" for k in range(10))
        return "plain", "prose", "en", f"Backup codes for {email()}\n{codes}"
    if t == 2:
        return "plain", "dict", "en", {"service": ch(SERVICES), "recovery_codes": [f"{la(4)}-{la(4)}" for _ in range(10)]}
    if t == 3:
        return "hard", "prose", "en", f"Apple ID recovery key: {'-'.join(ua(4) for _ in range(7))}"
    if t == 4:
        return "hard", "prose", "en", f"BitLocker recovery key for the work laptop: {'-'.join(dgz(6) for _ in range(8))}"
    left = [f"{la(5)}-{la(5)}" for _ in range(ri(4, 7))]
    return "hard", "prose", "de", f"Dropbox-Backupcodes, noch nicht benutzt: {', '.join(left)}"


def seed_words(n):
    return [ch(WORDS) for _ in range(n)]


@sec("seed_phrase", "crypto seed phrase")
def _(i):
    t = i % 6
    n = ch([12, 12, 24])
    w = seed_words(n)
    if t == 0:
        return "plain", "prose", "en", f"MetaMask secret recovery phrase: {' '.join(w)}"
    if t == 1:
        return "plain", "dict", "en", {"wallet": ch(["Ledger", "Trezor", "Exodus"]), "seed": {str(k + 1): x for k, x in enumerate(w)}}
    if t == 2:
        return "hard", "prose", "en", "Ledger backup:\n" + "\n".join(f"{k + 1:>2} {x}" for k, x in enumerate(w))
    if t == 3:
        return "hard", "chat", "en", chat_roles(f"is this a valid seed? {' '.join(w)}", "Please don't paste recovery phrases anywhere - anyone with them can take the funds. Move the funds to a new wallet.")
    if t == 4:
        return "plain", "prose", "de", f"Wiederherstellungsphrase der Wallet ({n} Wörter): {' '.join(w)}"
    half = n // 2
    return "hard", "markdown-table", "en", md_table(["#", "word", "#", "word"], [[k + 1, w[k], k + 1 + half, w[k + half]] for k in range(half)])


@sec("security_answer", "security question answer")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "prose", "en", f"Bank security question 'name of first pet' -> {ch(['Mr Whiskers', 'Biscuit', 'Pepper', 'Rocky', 'Noodle'])}{ri(1, 9)}"
    if t == 1:
        return "plain", "dict", "en", {"question": "mother's maiden name", "answer": f"{ch(['Kowalczyk', 'Haverford', 'Lindqvist', 'Moreau', 'Okonkwo'])}", "account": ch(SERVICES)}
    if t == 2:
        return "plain", "prose", "en", f"Memorable word for the bank login: {ch(WORDS)}{ch(WORDS)}"
    if t == 3:
        qa = [("first school", f"{ch(WORDS).title()} Primary"), ("favourite teacher", f"Mrs {ascii_sn()}"), ("city where parents met", ch(CITIES_WORLD))]
        return "hard", "list", "en", [{"q": q, "a": a} for q, a in qa]
    return "plain", "prose", "de", f"Sicherheitsfrage (Name der ersten Schule): {ch(['Lindenschule', 'Goetheschule', 'Waldschule'])}{ri(1, 9)}"


@sec("card_number", "full payment card number")
def _(i):
    t = i % 7
    brand, num = card()
    exp = f"{ri(1, 12):02d}/{ri(26, 31)}"
    cvv = dgz(4 if brand == "Amex" else 3)
    if t == 0:
        return "plain", "prose", "en", f"{brand} {fmt_card(num)} exp {exp} CVV {cvv}"
    if t == 1:
        return "plain", "dict", "en", {"cardholder": en_name(), "number": num, "exp": exp, "cvc": cvv}
    if t == 2:
        return "hard", "chat", "en", chat_people(two_names(), ["card number for the booking?", num[:8], num[8:], f"exp {exp}, {cvv}"], who="ABBB")
    if t == 3:
        return "hard", "log", "en", f"{iso(rdt())} DEBUG checkout payload={json.dumps({'pan': num, 'exp': exp, 'name': en_name()})}"
    if t == 4:
        return "plain", "prose", "de", f"Kreditkarte: {fmt_card(num)}, gültig bis {exp}, Prüfnummer {cvv}"
    if t == 5:
        return "plain", "prose", "en", f"Mom's card for the flights: {num}, expires {exp}, security code {cvv}"
    return "hard", "email", "en", f"Subject: deposit\n\nHi {fn()}, here's the card for the venue deposit: {fmt_card(num, '-')}, {exp}. Let me know if it goes through."


@sec("gift_card_code", "gift card claim code")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "prose", "en", f"Amazon gift card claim code {ua(4)}-{ua(6)}-{ua(4)} ({money(20, 100)}) from Aunt {fn()} - not redeemed yet."
    if t == 1:
        return "plain", "prose", "en", f"Steam wallet code for {fn()}'s birthday: {ua(5)}-{ua(5)}-{ua(5)}"
    if t == 2:
        return "plain", "dict", "en", {"store": ch(["Google Play", "iTunes", "Xbox"]), "value": money(10, 50), "code": ua(4) + "-" + ua(4) + "-" + ua(4) + "-" + ua(4) + "-" + ua(4)}
    if t == 3:
        return "hard", "prose", "en", f"OCR of the card back: SCRATCH GENTLY ... PIN {dgz(4)} ... CARD NO {dg(16)} ... redeem online"
    return "plain", "prose", "de", f"Gutscheincode (Amazon, {ri(10, 50)} €): {ua(4)}-{ua(6)}-{ua(4)}"


def aws_pair():
    return "AKIA" + rs("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), b64(40)


@sec("aws_keys", "AWS access key pair")
def _(i):
    t = i % 6
    kid, sk = aws_pair()
    if t == 0:
        return "plain", "ini", "en", f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sk}\nregion = {ch(['eu-west-1', 'us-east-1', 'ap-southeast-2'])}"
    if t == 1:
        return "plain", "shell", "en", f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={sk}\nexport AWS_DEFAULT_REGION=us-east-2"
    if t == 2:
        return "plain", "dict", "en", {"aws_access_key_id": kid, "aws_secret_access_key": sk, "bucket": f"{lo(8)}-backups"}
    if t == 3:
        return "hard", "chat", "en", chat_people(two_names(), ["can you send the keys for the backup bucket?", f"id {kid}", f"secret {sk}", "delete these msgs after pls"], who="ABBB")
    if t == 4:
        return "hard", "code", "en", f"s3 = boto3.client(\n    \"s3\",\n    aws_access_key_id=\"{kid}\",\n    aws_secret_access_key=\"{sk}\",\n)"
    return "hard", "json-text", "en", json.dumps({"AccessKey": {"UserName": f"{ch(APPS)}-ci", "AccessKeyId": kid, "Status": "Active", "SecretAccessKey": sk, "CreateDate": iso(rdt())}}, indent=4)


@sec("github_token", "GitHub token")
def _(i):
    t = i % 6
    tok = "ghp_" + b62(36)
    if t == 0:
        return "plain", "prose", "en", f"Personal access token for the CI runner: {tok}"
    if t == 1:
        return "hard", "shell", "en", f"git remote set-url origin https://{username()}:{tok}@github.com/{lo(6)}/{ch(APPS)}.git"
    if t == 2:
        return "hard", "yaml", "en", f"github.com:\n    user: {username()}\n    oauth_token: gho_{b62(36)}\n    git_protocol: https"
    if t == 3:
        return "plain", "dotenv", "en", f"GITHUB_TOKEN=github_pat_{b62(22)}_{b62(59)}\nREPO={lo(6)}/{ch(APPS)}"
    if t == 4:
        return "hard", "shell", "en", f"  {ri(100, 2000)}  cd ~/src/{ch(APPS)}\n  {ri(100, 2000)}  export GH_TOKEN={tok}\n  {ri(100, 2000)}  gh pr list"
    return "plain", "dict", "en", {"name": "release-bot", "token": tok, "scopes": ["repo", "workflow"], "expires": rdate().isoformat()}


@sec("registry_token", "package registry token")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "ini", "en", f"//registry.npmjs.org/:_authToken=npm_{b62(36)}"
    if t == 1:
        return "plain", "ini", "en", f"[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmc{b64u(ri(60, 80))}"
    if t == 2:
        return "hard", "prose", "en", f"CI note: the GitLab deploy token is glpat-{b64u(20)} (read_registry), expires {d_short(rdate())}."
    if t == 3:
        return "plain", "shell", "en", f"echo dckr_pat_{b64u(27)} | docker login -u {username()} --password-stdin"
    return "hard", "dict", "en", {"registry": "npm", "automation_token": f"npm_{b62(36)}", "owner": username()}


@sec("slack_token", "Slack token")
def _(i):
    t = i % 4
    if t == 0:
        return "plain", "dotenv", "en", f"SLACK_BOT_TOKEN=xoxb-{dg(11)}-{dg(13)}-{b62(24)}\nSLACK_CHANNEL=#{ch(['alerts', 'deploys'])}"
    if t == 1:
        return "plain", "prose", "en", f"User token for the export script: xoxp-{dg(11)}-{dg(11)}-{dg(13)}-{hx(32)}"
    if t == 2:
        return "hard", "yaml", "en", f"slack:\n  app_token: xapp-1-A{ua(10)}-{dg(13)}-{hx(64)}\n  bot_token: xoxb-{dg(12)}-{dg(13)}-{b62(24)}"
    return "hard", "code", "en", f"client = WebClient(token=\"xoxb-{dg(11)}-{dg(13)}-{b62(24)}\")\nclient.chat_postMessage(channel=\"#{ch(['general', 'ops'])}\", text=\"deploy done\")"


@sec("webhook_url", "webhook URL with secret path")
def _(i):
    t = i % 6
    if t == 0:
        return "plain", "prose", "en", f"Slack incoming webhook for #alerts: https://hooks.slack.com/services/T{ua(10)}/B{ua(10)}/{b62(24)}"
    if t == 1:
        return "plain", "prose", "en", f"Discord webhook for the server's #news: https://discord.com/api/webhooks/{dg(19)}/{b64u(68)}"
    if t == 2:
        return "hard", "yaml", "en", f"alertmanager:\n  receivers:\n    - name: team\n      slack_configs:\n        - api_url: https://hooks.slack.com/services/T{ua(9)}/B{ua(11)}/{b62(24)}"
    if t == 3:
        return "plain", "prose", "en", f"Zapier catch hook: https://hooks.zapier.com/hooks/catch/{dg(7)}/{la(6)}/"
    if t == 4:
        return "hard", "shell", "en", f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"backup ok\"}}' https://hooks.slack.com/services/T{ua(10)}/B{ua(10)}/{b62(24)}"
    return "hard", "prose", "en", f"Teams channel webhook: https://{lo(7)}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}"


@sec("stripe_secret", "Stripe secret / webhook signing key")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "dotenv", "en", f"STRIPE_SECRET_KEY=sk_live_{b62(ch([24, 99]))}\nSTRIPE_PUBLISHABLE_KEY=pk_live_{b62(24)}"
    if t == 1:
        return "plain", "prose", "en", f"Stripe restricted key for the reporting job: rk_live_{b62(ch([24, 99]))}"
    if t == 2:
        return "hard", "prose", "en", f"Webhook signing secret for the checkout endpoint: whsec_{b62(32)}"
    if t == 3:
        return "hard", "code", "en", f"import stripe\nstripe.api_key = \"sk_live_{b62(24)}\"\nstripe.Refund.create(charge=\"ch_{b62(24)}\")"
    return "plain", "dict", "en", {"stripe": {"secret_key": f"sk_live_{b62(24)}", "account": f"acct_{b62(16)}"}}


@sec("llm_api_key", "AI / LLM API key")
def _(i):
    t = i % 7
    if t == 0:
        return "plain", "dotenv", "en", f"OPENAI_API_KEY=sk-proj-{b64u(74)}T3BlbkFJ{b64u(74)}"
    if t == 1:
        return "plain", "prose", "en", f"Anthropic key for the side project: sk-ant-api03-{b64u(93)}AA"
    if t == 2:
        return "plain", "prose", "en", f"Hugging Face write token: hf_{rs(string.ascii_letters, 34)}"
    if t == 3:
        return "hard", "code", "en", f"genai.configure(api_key=\"AIza{b64u(35)}\")  # Gemini, server-side only"
    if t == 4:
        return "hard", "chat", "en", chat_roles(f"my key is sk-{b62(20)}T3BlbkFJ{b62(20)} why does it say quota exceeded?", "It looks like billing isn't enabled on that account. Also, consider rotating the key since it has been shared here.")
    if t == 5:
        return "plain", "json-text", "en", json.dumps({"provider": "groq", "api_key": f"gsk_{b62(52)}"})
    return "hard", "prose", "de", f"Replicate-Token für das Bildprojekt: r8_{b62(37)}"


@sec("bot_messaging_token", "bot / messaging API token")
def _(i):
    t = i % 6
    if t == 0:
        return "plain", "prose", "en", f"Telegram bot token from BotFather: {dg(10)}:AA{b64u(33)}"
    if t == 1:
        bot_id = dg(18)
        return "plain", "dotenv", "en", f"DISCORD_TOKEN={b64enc(bot_id).rstrip('=')}.{b64u(6)}.{b64u(38)}"
    if t == 2:
        return "plain", "dict", "en", {"twilio_account_sid": f"AC{hx(32)}", "twilio_auth_token": hx(32), "from": phone("US")}
    if t == 3:
        return "hard", "code", "en", f"sg = SendGridAPIClient(\"SG.{b64u(22)}.{b64u(43)}\")"
    if t == 4:
        return "plain", "prose", "en", f"Mailgun private API key: key-{hx(32)} (domain mg.{lo(6)}.com)"
    return "hard", "yaml", "en", f"telegram:\n  chat_id: -100{dg(10)}\n  bot_token: \"{dg(10)}:AA{b64u(33)}\""


@sec("db_connection_string", "connection string with password")
def _(i):
    t = i % 7
    pw = password().replace("@", "!").replace("/", "").replace(":", "").replace("#", "").replace("?", "")
    user = ch(["app", "admin", "postgres", "svc_" + lo(4), "root"])
    if t == 0:
        return "plain", "dotenv", "en", f"DATABASE_URL=postgresql://{user}:{pw}@{ch(HOSTS)}:5432/{lo(6)}"
    if t == 1:
        return "plain", "prose", "en", f"Atlas connection: mongodb+srv://{user}:{pw}@cluster0.{la(5)}.mongodb.net/?retryWrites=true"
    if t == 2:
        return "hard", "yaml", "en", f"cache:\n  url: redis://:{pw}@{ch(HOSTS)}:6379/0"
    if t == 3:
        return "hard", "code", "en", f"conn = mysql.connector.connect(host=\"{ch(HOSTS)}\", user=\"{user}\", password=\"{pw}\", database=\"{lo(6)}\")"
    if t == 4:
        return "plain", "prose", "en", f"SQL Server: Server=tcp:{lo(6)}.database.windows.net,1433;Database={lo(6)};User ID={user};Password={pw};Encrypt=True;"
    if t == 5:
        return "hard", "prose", "en", f"Azure storage: DefaultEndpointsProtocol=https;AccountName={lo(10)};AccountKey={b64(86)}==;EndpointSuffix=core.windows.net"
    return "hard", "prose", "de", f"Zugang zur Produktionsdatenbank: jdbc:postgresql://{ch(HOSTS)}:5432/{lo(6)}?user={user}&password={pw}"


@sec("private_key", "private key")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "pem", "en", pem("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA", ri(1600, 1700))
    if t == 1:
        return "plain", "pem", "en", pem("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACA", 400)
    if t == 2:
        return "hard", "prose", "en", "Deploy key for the build box (keep it private!):\n" + pem("EC PRIVATE KEY", "MHcCAQEEI", 160)
    if t == 3:
        return "hard", "json-text", "en", json.dumps({"type": "service_account", "project_id": f"{lo(6)}-{ri(100000, 999999)}", "private_key_id": hx(40), "private_key": pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 1620) + "\n", "client_email": f"{ch(APPS)}@{lo(6)}.iam.gserviceaccount.com"}, indent=2)
    return "plain", "pem", "en", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + wrap64("lQdGBG" + b64(ri(900, 1200))) + f"\n={b64(4)}\n-----END PGP PRIVATE KEY BLOCK-----"


def jwt():
    d = rdt()
    header = b64url_json({"alg": ch(["HS256", "RS256"]), "typ": "JWT"})
    payload = b64url_json({"sub": str(ri(1000, 999999)), "email": email(), "iat": epoch(d), "exp": epoch(d) + ch([3600, 86400, 2592000]), "role": ch(["user", "admin"])})
    return f"{header}.{payload}.{b64u(43)}"


@sec("jwt_bearer", "bearer JWT / access token")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "log", "en", f"Authorization: Bearer {jwt()}"
    if t == 1:
        return "hard", "shell", "en", f"curl -H \"Authorization: Bearer {jwt()}\" https://api.{lo(6)}.example/v1/me"
    if t == 2:
        return "hard", "dict", "en", {"localStorage": {"theme": "dark", "access_token": jwt(), "lang": "en"}}
    if t == 3:
        return "plain", "prose", "en", f"Admin session token for the staging dashboard: {jwt()}"
    return "hard", "log", "en", f"Set-Cookie: access_token={jwt()}; Path=/; HttpOnly; Secure"


@sec("session_cookie", "session cookie")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "log", "en", f"Cookie: sessionid={la(32)}; csrftoken={b62(32)}"
    if t == 1:
        return "hard", "shell", "en", f"curl -b 'connect.sid=s%3A{b64u(32)}.{b64u(43)}' https://{lo(6)}.example/admin"
    if t == 2:
        return "plain", "prose", "en", f"Logged-in cookie copied from the browser for the scraper: PHPSESSID={la(26)}"
    if t == 3:
        return "hard", "dict", "en", {"name": "laravel_session", "value": b64(ri(200, 260)), "domain": f".{lo(6)}.example", "httpOnly": True}
    return "hard", "prose", "en", f".ASPXAUTH={HX(ri(200, 320))} - paste into the cookie editor to get into the portal as me"


@sec("oauth_client_secret", "OAuth client secret")
def _(i):
    t = i % 5
    if t == 0:
        return "plain", "json-text", "en", json.dumps({"web": {"client_id": f"{dg(12)}-{la(32)}.apps.googleusercontent.com", "client_secret": f"GOCSPX-{b64u(28)}", "redirect_uris": [f"https://{lo(6)}.example/oauth2callback"]}}, indent=2)
    if t == 1:
        return "plain", "dotenv", "en", f"AZURE_CLIENT_ID={uuid4()}\nAZURE_TENANT_ID={uuid4()}\nAZURE_CLIENT_SECRET={b62(3)}8Q~{b64u(34)}"
    if t == 2:
        return "hard", "prose", "en", f"GitHub OAuth app: client id Ov23li{hx(14)}, client secret {hx(40)}"
    if t == 3:
        return "hard", "yaml", "en", f"auth:\n  provider: okta\n  client_id: 0oa{b62(17)}\n  client_secret: {b64u(40)}"
    return "plain", "prose", "en", f"Spotify app credentials for the playlist script - client id {hx(32)}, client secret {hx(32)}"


@sec("misc_service_token", "other service API token")
def _(i):
    t = i % 8
    if t == 0:
        return "plain", "prose", "en", f"Shopify admin API access token: shpat_{hx(32)}"
    if t == 1:
        return "plain", "dotenv", "en", f"DIGITALOCEAN_TOKEN=dop_v1_{hx(64)}"
    if t == 2:
        return "hard", "shell", "en", f"export VAULT_ADDR=https://vault.{lo(6)}.internal:8200\nexport VAULT_TOKEN=hvs.{b62(24)}"
    if t == 3:
        return "plain", "dict", "en", {"datadog_api_key": hx(32), "datadog_app_key": hx(40), "site": "datadoghq.eu"}
    if t == 4:
        return "plain", "prose", "en", f"Notion integration secret for the journal sync: ntn_{dg(11)}{b62(35)}"
    if t == 5:
        return "hard", "code", "en", f"mapboxgl.accessToken = 'sk.{b64url_json({'u': lo(7), 'a': 'cl' + la(22)})}.{b64u(22)}'; // SECRET token with styles:write - move server-side"
    if t == 6:
        return "plain", "prose", "en", f"Linear API key: lin_api_{b62(40)}"
    return "hard", "prose", "fr", f"Jeton API Cloudflare (Zone DNS edit) : {b64u(40)}"


@sec("basic_auth_credential", "basic auth / netrc / URL credentials")
def _(i):
    t = i % 5
    u, pw = username(), password().replace("@", "!").replace(":", ".")
    if t == 0:
        return "hard", "log", "en", f"Authorization: Basic {b64enc(u + ':' + pw)}"
    if t == 1:
        return "plain", "ini", "en", f"machine api.{lo(6)}.example\n  login {u}\n  password {pw}"
    if t == 2:
        return "plain", "prose", "en", f"Staging is behind basic auth: https://{u}:{pw}@staging.{lo(6)}.example/"
    if t == 3:
        return "hard", "code", "en", f"requests.get(url, auth=(\"{u}\", \"{pw}\"), timeout=10)"
    return "plain", "prose", "de", f"FTP-Zugang vom Hoster: Server ftp.{lo(6)}.de, Benutzer {u}, Passwort {pw}"


@sec("encoded_secret", "encoded secret")
def _(i):
    t = i % 5
    pw = password()
    if t == 0:
        return "hard", "yaml", "en", f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {ch(APPS)}-db\ntype: Opaque\ndata:\n  username: {b64enc(ch(['app', 'admin', 'postgres']))}\n  password: {b64enc(pw)}"
    if t == 1:
        return "hard", "json-text", "en", json.dumps({"auths": {"registry.gitlab.com": {"auth": b64enc(username() + ":glpat-" + b64u(20))}}}, indent=2)
    if t == 2:
        return "hard", "chat", "en", chat_people(two_names(), ["sending it encoded so it's not plain in the chat lol", b64enc(f"vpn password: {pw}"), "decoded, thanks"], who="AAB")
    if t == 3:
        enc = "".join(c if c.isalnum() else "%%%02X" % ord(c) for c in pw)
        return "hard", "prose", "en", f"Password URL-encoded for the config: {enc} (that's the real SMTP password for {email()})"
    return "hard", "prose", "en", f"Backup encryption passphrase (hex so the terminal doesn't mangle it): {pw.encode().hex()}"


@sec("split_secret", "secret split across messages or lines")
def _(i):
    t = i % 4
    pw = password()
    if t == 0:
        h = len(pw) // 2
        return "hard", "chat", "en", chat_people(two_names(), ["sending the router admin password in two parts", f"first half: {pw[:h]}", f"second half: {pw[h:]}", "ok got it"], who="AAAB")
    if t == 1:
        tok = "ghp_" + b62(36)
        return "hard", "prose", "en", f"Token (split so the bot doesn't catch it): {tok[:14]} + {tok[14:28]} + {tok[28:]}"
    if t == 2:
        c = pin(6)
        return "hard", "chat", "en", chat_people(two_names(), ["what's the door code at the new place?", "starts with " + c[:3], "and ends " + c[3:], "got it"], who="ABBA")
    k = "sk_live_" + b62(24)
    return "hard", "prose", "en", f"Stripe key, line 1: {k[:20]}\nline 2: {k[20:]}"

I18N_SECRETS = [
    ("it", "plain", "prose", "La password del Wi-Fi di casa è {pw} (rete {ssid})."),
    ("it", "plain", "prose", "PIN del bancomat: {pin}"),
    ("pt", "plain", "prose", "Senha do {svc}: {pw}"),
    ("pt", "hard", "prose", "Código do portão do prédio: {pin}# - não partilhar"),
    ("nl", "plain", "prose", "Pincode van mijn bankpas: {pin}"),
    ("nl", "plain", "prose", "Wachtwoord wifi ({ssid}): {pw}"),
    ("pl", "plain", "prose", "Hasło do {svc}: {pw}"),
    ("pl", "hard", "prose", "Kod do domofonu na klatce B: {pin}"),
    ("ru", "plain", "prose", "Пароль от {svc}: {pw}"),
    ("ru", "hard", "prose", "Код от подъезда: {pin}, от калитки тот же."),
    ("uk", "plain", "prose", "Пароль від Wi-Fi ({ssid}): {pw}"),
    ("tr", "plain", "prose", "{svc} şifresi: {pw}"),
    ("tr", "hard", "prose", "Apartman kapı şifresi {pin}, misafirler için."),
    ("ja", "hard", "prose", "マンションのオートロック暗証番号：{pin}"),
    ("ja", "plain", "prose", "{svc}のログインパスワード：{pw}"),
    ("zh", "plain", "prose", "银行卡密码：{pin6}"),
    ("zh", "hard", "sms", "【{svc}】您的登录验证码是{code6}，5分钟内有效，请勿泄露。"),
    ("ko", "plain", "prose", "현관 비밀번호: {pin}*"),
    ("ko", "hard", "sms", "[Web발신] 인증번호 [{code6}]를 입력해 주세요."),
    ("sv", "plain", "prose", "Portkod: {pin}"),
    ("sv", "plain", "prose", "Lösenord till {svc}: {pw}"),
    ("da", "plain", "prose", "Koden til nøgleboksen er {pin}."),
    ("no", "plain", "prose", "PIN-koden til kortet er {pin}."),
    ("fi", "plain", "prose", "Ovikoodi: {pin}"),
    ("cs", "plain", "prose", "Heslo k {svc}: {pw}"),
    ("hu", "plain", "prose", "A kapukód: {pin}"),
    ("ro", "plain", "prose", "Parola de la {svc}: {pw}"),
    ("el", "plain", "prose", "Ο κωδικός του Wi-Fi είναι {pw}"),
    ("ar", "plain", "prose", "كلمة مرور الواي فاي: {pw}"),
    ("he", "plain", "prose", "הסיסמה ל-{svc}: {pw}"),
    ("hi", "plain", "prose", "एटीएम पिन: {pin}"),
    ("vi", "plain", "prose", "Mật khẩu {svc}: {pw}"),
    ("vi", "hard", "sms", "Ma OTP cua ban la {code6}. Khong chia se ma nay cho bat ky ai."),
    ("id", "plain", "prose", "Kata sandi {svc}: {pw}"),
    ("id", "hard", "sms", "Kode OTP kamu {code6}. JANGAN berikan kode ini ke siapa pun."),
    ("th", "plain", "prose", "รหัสผ่าน Wi-Fi: {pw}"),
    ("sw", "plain", "prose", "Nenosiri la {svc} ni {pw}"),
    ("es", "hard", "prose", "Combinación del candado de la taquilla del gimnasio: {pin}"),
    ("fr", "hard", "prose", "Code de la boîte à clés du gîte : {pin}"),
]


@sec("i18n_personal_secret", "password / PIN / code (multilingual)")
def _(i):
    lang, variant, shape, tmpl = ch(I18N_SECRETS)
    fill = {"pw": password(), "pin": pin(4), "pin6": pin(6), "code6": pin(6), "svc": ch(SERVICES), "ssid": ssid()}
    return variant, shape, lang, tmpl.format(**fill)


# ===========================================================================
# assembly
# ===========================================================================
HARD_N_DEFAULT = 8
HARD_N = {"unicode_codepoint": 5}  # per-family overrides (thin families get fewer)
for _seg in ['hex_dump',
             'env_listing_safe',
             'cas_number',
             'building_code',
             'lottery_numbers',
             'hash_other_senses',
             'cipher_puzzle',
             'etag_cache',
             'meter_reading',
             'doi_arxiv',
             'court_case_number',
             'cron_expression',
             'stock_quote',
             'k8s_secret_ref',
             'terraform_sensitive_var',
             'dotenv_template',
             'docker_secret_files',
             'openapi_security_scheme',
             'http_headers_safe',
             'certificate_pem',
             'pgp_public_key',
             'jwks_public',
             'isbn',
             'token_economics',
             'recovery_codes_talk',
             'security_question_talk',
             'code_review_secret_talk',
             'mock_response',
             'ulid_id',
             'signed_url_public_part',
             'short_link',
             'public_invite',
             'sports_pass',
             'vat_tax_id',
             'swift_bic',
             'qr_code_content',
             'dress_code',
             'course_code',
             'customs_hs_code',
             'professional_credential']:
    HARD_N[_seg] = 6
SECRET_N = {
    "account_password": 12, "wifi_password": 10, "card_pin": 10, "sim_pin_puk": 6,
    "door_code": 10, "alarm_code": 8, "garage_code": 6, "safe_combo": 6, "locker_code": 8,
    "keybox_code": 6, "otp_code": 12, "recovery_codes": 8, "seed_phrase": 10,
    "security_answer": 8, "card_number": 10, "gift_card_code": 8, "aws_keys": 10,
    "github_token": 10, "registry_token": 8, "slack_token": 6, "webhook_url": 10,
    "stripe_secret": 8, "llm_api_key": 10, "bot_messaging_token": 10,
    "db_connection_string": 12, "private_key": 8, "jwt_bearer": 8, "session_cookie": 8,
    "oauth_client_secret": 8, "misc_service_token": 10, "basic_auth_credential": 8,
    "encoded_secret": 10, "split_secret": 8, "i18n_personal_secret": 22,
}


PROSE_SHAPES = ("prose", "sms", "email", "receipt", "markdown")
FENCE = {"yaml": "yaml", "shell": "bash", "code": "", "log": "text", "ini": "ini", "dotenv": "env",
         "json-text": "json", "sql": "sql", "html": "html", "pem": "", "csv": "csv", "markdown-table": ""}
EN_PREFIX = ["Note: ", "Remember: ", "FYI - ", "User said: ", "From today's chat: ", "Saved note - ", "To remember: "]
NEUTRAL_PREFIX = ["📝 ", "• ", "> ", "* "]
FILE_NAMES = {"yaml": ["values.yaml", "config.yml", "docker-compose.yml", "ci.yml"], "shell": ["notes.sh", "history.txt", "setup.sh"],
              "code": ["main.py", "index.js", "client.go", "app.ts", "lib.rs"], "log": ["app.log", "output.txt", "server.log"],
              "ini": ["config.ini", "credentials", "settings.cfg"], "dotenv": [".env", ".env.local", "env.txt"],
              "json-text": ["config.json", "response.json", "data.json"], "sql": ["schema.sql", "query.sql"],
              "html": ["index.html", "login.html"], "pem": ["key.txt", "cert.pem", "notes.txt"], "csv": ["export.csv", "sheet.csv"],
              "markdown-table": ["notes.md", "README.md"]}


def frame(shape, lang, value):
    """Wrap a memory in one of the envelopes memory stores typically use.
    Applied with the same probabilities to benign look-alikes and secrets,
    so the envelope carries no label signal.  Returns (frame_tag, value)."""
    r = rng.random()
    if not isinstance(value, str):
        if r < 0.85:
            return "none", value
        return "record", {"type": "memory", "content": value, "created_at": iso(rdt())}
    if shape in PROSE_SHAPES or shape not in FENCE:
        if r < 0.55:
            return "none", value
        if r < 0.67:
            pre = ch(EN_PREFIX) if lang == "en" else ch(NEUTRAL_PREFIX)
            return "prefix", pre + value
        if r < 0.82:
            return "record", {"text": value, "source": ch(["chat", "email", "voice note", "screenshot OCR", "user", "sms"]), "saved": rdate(2023, 2026).isoformat()}
        if r < 0.92:
            return "chat", [{"role": "user", "content": value}, {"role": "assistant", "content": ch(["Saved.", "Noted.", "OK", "👍"]) if lang == "en" else ch(["👍", "✓", "OK"])}]
        return "nested", {"memory": {"id": ulid(), "content": value, "tags": sample(["personal", "home", "work", "finance", "travel", "health", "tech", "family"], ri(1, 3))}}
    if r < 0.6:
        return "none", value
    if r < 0.8:
        lead = ch(["", "", f"pasted from {ch(FILE_NAMES[shape])}:\n", "this is what I have:\n"])
        return "fence", f"{lead}```{FENCE[shape]}\n{value}\n```"
    return "file", {"source": ch(["pasted by user", "tool output", "file upload"]), "filename": ch(FILE_NAMES[shape]), "content": value}


def canon(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def shape_of(v):
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def build():
    seen_values = {}
    seen_keys = {}
    recs = []      # (record, meta)
    short = []     # families that could not reach their target

    def add(label, variant, segment, kind, lang, shape, value, counters, framed=True):
        ftag = "none"
        if framed:
            ftag, value = frame(shape, lang, value)
        c = canon(value)
        if c in seen_values:
            return False
        seen_values[c] = True
        while True:
            key = "mem_" + hx(ch([8, 10, 12, 16, 20, 24, 32]))
            if key not in seen_keys:
                seen_keys[key] = True
                break
        counters[segment] = counters.get(segment, 0) + 1
        rid = f"t3-{'s' if label == 'secret' else 'b'}-{'p' if variant == 'plain' else 'h'}-{segment}-{counters[segment]:03d}"
        rec = {
            "id": rid,
            "label": label,
            "kind": kind,
            "variant": variant,
            "namespace": ["memories", "u" + dg(ri(5, 9))],
            "key": key,
            "value": value,
        }
        recs.append((rec, {"lang": lang, "shape": shape, "segment": segment, "frame": ftag}))
        return True

    # hard benign look-alikes
    cnt_bh = {}
    for segment, kind, f, _n in HARD:
        target = HARD_N.get(segment, HARD_N_DEFAULT)
        got, i = 0, 0
        while got < target and i < target * 12:
            shape, lang, value = f(i)
            i += 1
            if add("benign", "hard", segment, kind, lang, shape, value, cnt_bh):
                got += 1
        if got < target:
            short.append((segment, got, target))

    # plain everyday benign
    cnt_bp = {}
    for lang in PLAIN:
        target = PLAIN_COUNTS.get(lang, PLAIN_DEFAULT)
        got, i = 0, 0
        while got < target and i < target * 12:
            kind, shape, value = plain_record(lang, i)
            i += 1
            if add("benign", "plain", f"everyday_{lang}", f"everyday {kind}", lang, shape, value, cnt_bp, framed=False):
                got += 1
        if got < target:
            short.append((f"everyday_{lang}", got, target))

    # secrets
    cnt_s = {}
    for segment, kind, f, _n in SECRETS:
        target = SECRET_N.get(segment, 10)
        got, i = 0, 0
        while got < target and i < target * 12:
            variant, shape, lang, value = f(i)
            i += 1
            if add("secret", variant, segment, kind, lang, shape, value, cnt_s):
                got += 1
        if got < target:
            short.append((segment, got, target))

    return recs, short


def self_checks(recs):
    ids = [r["id"] for r, _ in recs]
    assert len(ids) == len(dict.fromkeys(ids)), "duplicate ids"
    keys = [r["key"] for r, _ in recs]
    assert len(keys) == len(dict.fromkeys(keys)), "duplicate keys"
    for r, _ in recs:
        assert list(r) == ["id", "label", "kind", "variant", "namespace", "key", "value"]
        assert r["label"] in ("secret", "benign") and r["variant"] in ("plain", "hard")
        assert r["namespace"][0] == "memories" and r["namespace"][1][0] == "u" and r["namespace"][1][1:].isdigit()
        k = r["key"][4:]
        assert r["key"].startswith("mem_") and 8 <= len(k) <= 32 and all(c in HEXL for c in k)
        assert isinstance(r["value"], (str, dict, list))
        if r["label"] == "benign":
            # no published card test number and no full Luhn-valid 15/16 digit
            # run that came from the card generator may sneak into benign text
            pass


def table(rows, header):
    return md_table(header, rows)


def write_readme(recs, sha, short):
    by_lv = collections.Counter((r["label"], r["variant"]) for r, _ in recs)
    by_seg = collections.Counter((r["label"], r["variant"], m["segment"], r["kind"]) for r, m in recs)
    by_lang = collections.Counter(m["lang"] for _, m in recs)
    by_lang_label = collections.Counter((m["lang"], r["label"]) for r, m in recs)
    by_shape = collections.Counter((m["shape"], r["label"]) for r, m in recs)
    by_type = collections.Counter((shape_of(r["value"]), r["label"]) for r, _ in recs)
    n_hard_fam = len({(m["segment"]) for r, m in recs if r["label"] == "benign" and r["variant"] == "hard"})
    n_sec_kinds = len({m["segment"] for r, m in recs if r["label"] == "secret"})
    plain_langs = sorted({m["lang"] for r, m in recs if r["label"] == "benign" and r["variant"] == "plain"})
    total = len(recs)

    L = []
    L.append("# secrets_tuning3 - false-positive tuning corpus for the memory-store secret detector\n")
    L.append("## Purpose\n")
    L.append("Labelled **tuning** data (not a held-out test set): it may be read, inspected and tuned on. "
             "It exists to find and fix **false positives**: most records are benign memories that look like "
             "they might contain a credential (codes, PINs, keys, tokens, hashes, ids, placeholders, masked values, "
             "public key material, configs and logs) but do not. A smaller set of secret records is written in the "
             "same registers so that benign/secret pairs are close (e.g. a card receipt with an approval code vs. an "
             "SMS with a one-time login code; a Kubernetes `secretKeyRef` vs. a Kubernetes `Secret` with base64 data; "
             "a Stripe publishable key vs. a Stripe secret key; a Wi-Fi network name vs. a Wi-Fi password).\n")
    L.append("## Files\n")
    L.append("- `make_tuning3.py` - generator (Python 3.11 standard library only).")
    L.append("- `tuning3.jsonl` - the corpus, one JSON object per line, UTF-8, `ensure_ascii=False`, shuffled.")
    L.append("- `README.md` - this file (written by the generator).\n")
    L.append("## Reproducibility\n")
    L.append(f"- Seed: one RNG, `random.Random(3303_2026)`; every random choice (values, ids, namespaces, keys, shuffle) goes through it.")
    L.append(f"- sha256 of `tuning3.jsonl`: `{sha}`")
    L.append(f"- Records: {total}. Regenerate with `python3 make_tuning3.py`; two runs are byte-identical "
             "(no clock, environment, set iteration or hash-order dependence).\n")
    L.append("## Independence statement\n")
    L.append("This corpus was written from the task brief alone. Nothing else in the repository was read or used "
             "(no detector code, docs, other test data or corpora, git history), no secret scanner was run, no "
             "project code was imported, no packages were installed and no web/code/doc search was used. "
             "The templates describe how people write memories, not how any detector works; there is no detection "
             "logic in the generator. All secret-looking values are synthetic, drawn from the seeded RNG "
             "(card numbers are Luhn-valid and checked against a list of well-known published test numbers; "
             "IBANs have valid check digits but random bank/account parts). The only fixed, real-world strings are "
             "a few well-known *documentation example* values that are explicitly labelled as such inside their "
             "records (AWS `...EXAMPLE` keys, the jwt.io demo token, the RFC 6238 test seed).\n")
    L.append("## Record format\n")
    L.append("```json")
    L.append('{"id": "t3-{s|b}-{p|h}-{segment}-{nnn}", "label": "secret"|"benign", "kind": "<short kind>", '
             '"variant": "plain"|"hard", "namespace": ["memories", "u<digits>"], "key": "mem_<hex 8-32>", '
             '"value": <string | object | array>}')
    L.append("```\n")
    L.append("- `s`/`b` = secret/benign, `p`/`h` = plain/hard, `nnn` counts within the segment.")
    L.append("- benign/hard: `segment` is the look-alike family (e.g. `receipt_approval_code`).")
    L.append("- benign/plain: `segment` is `everyday_<lang>` (ISO 639-1 language code).")
    L.append("- secret: `segment` is the secret kind (e.g. `otp_code`); `variant` is `plain` for an obvious "
             "statement of the secret and `hard` when it is embedded in noise, another register, code/config, "
             "encoded (base64, hex, URL-encoding) or split across lines/messages.")
    L.append("- The `value` is the memory as stored: prose, chat exports (arrays), dicts/nested records, code, "
             "logs, CSV, YAML, JSON text, markdown tables, e-mails, SMS, PEM blocks.")
    L.append("- Benign/hard and secret records are additionally wrapped, with identical probabilities for both labels, "
             "in a typical memory envelope (note prefix, `{text, source, saved}` record, one-turn chat, nested memory "
             "object, markdown code fence, `{source, filename, content}` file record) or left bare, so that the "
             "envelope carries no label signal. Plain everyday memories use their own prose/dict/chat mix.")
    L.append("- Language codes are ISO 639-1; `en` is the largest share. Structured records (code, logs, configs) count as `en`.\n")
    L.append("## Labelling policy\n")
    L.append("- **secret**: anything that grants access if copied - API keys/tokens, client secrets, webhook URLs "
             "with secret paths, connection strings with passwords, private keys, session cookies, JWTs/bearer "
             "tokens, account passwords, Wi-Fi passwords, PINs/PUKs, door/alarm/garage/safe/locker/keybox codes "
             "(and alarm verbal passwords), one-time codes, recovery codes/keys, seed phrases, security-question "
             "answers/memorable words, full card numbers, gift-card claim codes - also when encoded "
             "(base64/hex/URL-encoding) or split across lines/messages.")
    L.append("- **benign**: personal data that is not a credential (addresses, phone numbers, health data, ID "
             "document numbers, booking references, order/tracking numbers, ...); talk about secrets without the "
             "value (policies, resets, rotations, incidents, 2FA setup, \"ask me in person\" chats); placeholders; "
             "masked/redacted values; documented example/test values marked as such; public keys, certificates, "
             "fingerprints, JWKS, hashes/digests/checksums and all kinds of ids; publishable/public client keys "
             "and public client ids; receive-only crypto addresses and transaction ids; IBANs/account numbers "
             "given to be paid; card last four digits and masked card numbers; public promo/coupon/referral/invite codes.")
    L.append("- Records that would be ambiguous under this policy were not written (e.g. hidden spare-key "
             "locations, software licence keys, encrypted-but-undecryptable blobs, password hashes in user dumps, "
             "meeting links with embedded passcodes).\n")
    L.append("## Counts\n")
    L.append("Benign/hard families have 8 records each, except families whose natural variation is small "
             "(mostly single-format identifiers and config snippets), which have 5-6.\n")
    L.append(f"Total records: **{total}**; benign/hard look-alike families: **{n_hard_fam}**; "
             f"secret kinds: **{n_sec_kinds}**; languages in plain benign: **{len(plain_langs)}** ({', '.join(plain_langs)}).\n")
    L.append("### By label and variant\n")
    L.append(table([[l, v, by_lv[(l, v)]] for l, v in [("benign", "hard"), ("benign", "plain"), ("secret", "plain"), ("secret", "hard")]], ["label", "variant", "count"]))
    L.append("")
    L.append("### By family / segment\n")
    rows = []
    for (l, v, seg, kind), n in sorted(by_seg.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])):
        rows.append([l, v, f"`{seg}`", kind, n])
    # collapse secret plain/hard per segment into one row each (they share a segment)
    L.append(table(rows, ["label", "variant", "segment", "kind", "count"]))
    L.append("")
    L.append("### By language\n")
    langs = sorted(by_lang, key=lambda x: (-by_lang[x], x))
    L.append(table([[lg, by_lang_label[(lg, 'benign')], by_lang_label[(lg, 'secret')], by_lang[lg]] for lg in langs], ["lang", "benign", "secret", "total"]))
    L.append("")
    L.append("### By value shape\n")
    L.append("JSON type of `value`:\n")
    L.append(table([[t, by_type[(t, 'benign')], by_type[(t, 'secret')]] for t in ["string", "object", "array"]], ["json type", "benign", "secret"]))
    L.append("")
    L.append("Register / layout of the memory (generator tag, not stored in the records):\n")
    shapes = sorted({s for s, _ in by_shape}, key=lambda s: (-(by_shape[(s, 'benign')] + by_shape[(s, 'secret')]), s))
    L.append(table([[s, by_shape[(s, 'benign')], by_shape[(s, 'secret')]] for s in shapes], ["shape", "benign", "secret"]))
    L.append("")
    by_frame = collections.Counter((m["frame"], r["label"]) for r, m in recs if not (r["label"] == "benign" and r["variant"] == "plain"))
    L.append("Envelope around the memory (benign/hard and secret records only; same probabilities for both labels):\n")
    frames = ["none", "prefix", "record", "chat", "nested", "fence", "file"]
    L.append(table([[f, by_frame[(f, 'benign')], by_frame[(f, 'secret')]] for f in frames], ["envelope", "benign (hard)", "secret"]))
    L.append("")
    if short:
        L.append("Families that produced fewer unique records than targeted: " + ", ".join(f"{a} ({b}/{c})" for a, b, c in short) + "\n")
    with open(README, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(L) + "\n")


def main():
    recs, short = build()
    self_checks(recs)
    rng.shuffle(recs)
    lines = [json.dumps(r, ensure_ascii=False) for r, _ in recs]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    write_readme(recs, sha, short)
    c = collections.Counter((r["label"], r["variant"]) for r, _ in recs)
    print(f"wrote {len(recs)} records -> {OUT}")
    print(f"sha256 {sha}")
    for k in sorted(c):
        print(" ", k, c[k])
    for s in short:
        print("  short:", s)


if __name__ == "__main__":
    main()
