#!/usr/bin/env python3
"""make_heldout7.py -- generator for the FROZEN held-out secret-detection corpus #7.

* Python 3.11 standard library only.
* Fully deterministic: every random choice comes from ONE random.Random(707_2026)
  instance (R below).  No hash(), no clock, no set-iteration order, no os.urandom.
* Running `python make_heldout7.py` (re)writes heldout7.jsonl next to this file.
* Every credential-looking value in this file or its output is a synthetic random
  string produced here; none of them is a real, live credential.

The corpus is FROZEN: do not edit or regenerate it to make a detector pass, and never
tune on it.  Errata go to a separate file (see README.md).
"""
import base64
import codecs
import json
import random
import re
import string
import sys
import urllib.parse
from pathlib import Path

SEED = 707_2026
R = random.Random(SEED)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
ANL = LO + DG
ANU = UP + DG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64 = AN + "+/"
B64U = AN + "-_"
B32 = UP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
SYM = "!#$%&*?@+=-_"


def rs(alpha, n):
    return "".join(alpha[R.randrange(len(alpha))] for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def chance(p):
    return R.random() < p


def digits(n):
    return "".join(str(R.randrange(10)) for _ in range(n))


def b64s(s):
    return base64.b64encode(s.encode("utf-8")).decode("ascii")


def b64u_nopad(b):
    return base64.urlsafe_b64encode(b).decode("ascii").rstrip("=")


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def uuid4():
    h = rs(HEXL, 32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


_FIELD = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def fill(tpl, ctx):
    """Replace {lowercase_name} placeholders present in ctx; leave every other brace alone."""
    return _FIELD.sub(lambda m: str(ctx[m.group(1)]) if m.group(1) in ctx else m.group(0), tpl)


# --------------------------------------------------------------------------- records
RECORDS = []
_SEEN = set()          # membership tests only (never iterated)
_COUNTERS = {}
_IDS = []


def user_id():
    return "u%05d" % R.randrange(100000)


def mem_key():
    r = R.random()
    if r < 0.74:
        return "mem_" + rs(HEXL, 8)
    if r < 0.84:
        return "note-" + rs(HEXL, 12)
    if r < 0.93:
        return "m%06d" % R.randrange(10 ** 6)
    return uuid4()


def namespace():
    r = R.random()
    uid = user_id()
    if r < 0.80:
        return ["memories", uid]
    if r < 0.89:
        return ["memories", uid, pick(["notes", "profile", "chat", "household", "work", "travel"])]
    if r < 0.95:
        return ["agent_memory", uid]
    return ["memories", "team-" + rs(LO, 5), uid]


def wrap(text):
    r = R.random()
    if r < 0.80:
        return {"text": text}
    if r < 0.88:
        return {"text": text, "source": pick(["chat", "voice_note", "email_import", "manual", "assistant"])}
    if r < 0.95:
        return {"text": text, "tags": pick([["personal"], ["home"], ["todo"], ["finance"], ["travel"],
                                            ["work", "notes"], ["family"], ["health"]])}
    return {"content": text}


def is_dup(value):
    return json.dumps(value, ensure_ascii=False, sort_keys=True) in _SEEN


def add(label, variant, tech, kind, value, ns=None, key=None):
    assert label in ("secret", "benign") and variant in ("plain", "hard")
    assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", tech), tech
    prefix = "h7-%s-%s-%s" % ("s" if label == "secret" else "b", "h" if variant == "hard" else "p", tech)
    n = _COUNTERS.get(prefix, 0) + 1
    _COUNTERS[prefix] = n
    rid = "%s-%03d" % (prefix, n)
    _SEEN.add(json.dumps(value, ensure_ascii=False, sort_keys=True))
    if isinstance(value, str):
        value = wrap(value)
    rec = {
        "id": rid,
        "label": label,
        "kind": kind,
        "variant": variant,
        "namespace": ns if ns is not None else namespace(),
        "key": key if key is not None else mem_key(),
        "value": value,
    }
    RECORDS.append(rec)
    _IDS.append(rid)
    return rec


# --------------------------------------------------------------------------- pools
FIRST = ["Anna", "Jonas", "Lukas", "Mia", "Sofia", "Mateo", "Chloé", "Hugo", "Giulia", "Marco", "João",
         "Beatriz", "Sanne", "Daan", "Kasia", "Piotr", "Elin", "Oskar", "Elif", "Emre", "Putri", "Budi",
         "Olga", "Dmitri", "Yuki", "Haruto", "Wei", "Mei", "Ji-woo", "Min-jun", "Tomáš", "Lucie", "Linh",
         "Minh", "Priya", "Arjun", "Omar", "Layla", "Liam", "Emma", "Noah", "Olivia", "Ethan", "Grace",
         "Fatima", "Kwame", "Aisha", "Rafael", "Ingrid", "Sean", "Niamh", "Carlos", "Lena", "Tariq"]
LAST = ["Keller", "Schmidt", "Dubois", "Moreau", "García", "López", "Rossi", "Bianchi", "Silva", "Costa",
        "de Vries", "Jansen", "Kowalski", "Nowak", "Lindqvist", "Yılmaz", "Demir", "Santoso", "Ivanova",
        "Tanaka", "Sato", "Chen", "Wang", "Kim", "Park", "Novák", "Nguyen", "Sharma", "Patel", "Haddad",
        "Okafor", "O'Brien", "Murphy", "Fischer", "Weber", "Andersson", "Mensah", "Kowalczyk", "Brown",
        "Taylor", "Martin", "Hoffmann"]
MAIL_DOM = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "gmx.de", "web.de", "proton.me",
            "hotmail.fr", "libero.it", "wp.pl", "seznam.cz", "yandex.ru", "naver.com", "qq.com"]
SITES = ["Gmail", "Outlook", "iCloud", "Netflix", "Spotify", "Amazon", "PayPal", "Facebook", "Instagram",
         "Steam", "PlayStation", "Xbox", "Disney+", "LinkedIn", "Dropbox", "eBay", "Zalando", "Booking.com",
         "Airbnb", "Uber", "Revolut", "N26", "Nintendo", "Discord", "Reddit", "TikTok", "Coinbase",
         "the school portal", "the work VPN", "the NAS", "the pension portal", "the electricity account",
         "the health insurance portal", "the tax portal", "Wise", "Etsy", "Vinted", "Deliveroo", "HBO Max",
         "the library account", "Yahoo Mail", "ProtonMail", "Twitch", "Duolingo", "the gym app"]
BRAND_SITES = [x for x in SITES if not x.startswith("the ")]
BANKS = ["Chase", "Barclays", "Sparkasse", "ING", "BNP Paribas", "Santander", "Intesa Sanpaolo", "Nubank",
         "Rabobank", "PKO BP", "Swedbank", "Garanti", "BCA", "Tinkoff", "MUFG", "ICBC", "KB Kookmin",
         "Česká spořitelna", "Vietcombank", "HDFC", "Monzo", "Wells Fargo", "Caixa", "Commerzbank",
         "Lloyds", "Crédit Agricole", "BBVA", "UniCredit", "ABN AMRO", "Nordea", "Revolut", "Bank of America"]
CITIES = ["Leipzig", "Lyon", "Valencia", "Bologna", "Porto", "Utrecht", "Gdańsk", "Malmö", "Izmir",
          "Surabaya", "Kazan", "Sapporo", "Chengdu", "Busan", "Brno", "Da Nang", "Pune", "Cork", "Accra",
          "Toledo", "Dayton", "Graz", "Bergen", "Tampere", "Cluj"]
PETS = ["Biscuit", "Luna", "Max", "Mittens", "Pepper", "Rocky", "Nala", "Simba", "Bello", "Minou", "Kira",
        "Toby", "Coco", "Fluffy", "Bruno", "Mochi", "Shadow", "Daisy", "Oscar", "Pixel", "Ziggy", "Kiwi"]
SCHOOLS = ["St. Mary's", "Lincoln Elementary", "Grundschule am Park", "École Jules Ferry", "Colegio San José",
           "Scuola Dante", "Sunnyvale Primary", "Westfield Middle"]
CARS = ["Golf", "Corolla", "Fiesta", "Civic", "Clio", "Panda", "Astra", "Polo", "Beetle", "Escort", "Micra"]
STREETS = ["Maple Street", "Lindenstraße", "rue des Lilas", "Calle Mayor", "Via Roma", "Kerkstraat",
           "ul. Długa", "Storgatan", "Atatürk Cd.", "Jl. Merdeka", "Oak Lane", "Baker Road", "Hill View"]
SSIDS = ["FRITZ!Box 7590 XY", "Vodafone-4A2C", "TP-Link_5G_8F21", "Casa_Rossi", "NETGEAR42", "Livebox-7A3E",
         "Ziggo8823141", "BTHub6-K7QX", "SKY3F9A2", "HUAWEI-B535-4C2D", "MOVISTAR_9B21",
         "Pretty Fly for a WiFi", "the_cabin", "Orange-5G-21A4", "Telstra7F2A", "Keller-Gast", "DIGI_4f7a21",
         "HomeNet", "Lakehouse", "iPhone von Lena", "Dom_Nowak", "Villa-Sol-Guest"]
PROJECTS = ["billing", "recipe-app", "side project", "thesis", "homelab", "shop", "newsletter", "data-pipeline",
            "mobile app", "analytics", "chatbot", "portfolio site"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]

BIP39 = ("abandon ability able about above absent absorb abstract absurd abuse access accident account "
         "accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict "
         "address adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead "
         "aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha already "
         "also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry "
         "animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple "
         "approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow "
         "art artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend "
         "attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware "
         "away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana "
         "banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef "
         "before begin behave behind believe below belt bench benefit best betray better between beyond "
         "bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind "
         "blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring "
         "borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief "
         "bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo "
         "build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz "
         "cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe "
         "canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino "
         "castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement "
         "dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december "
         "decide decline decorate decrease deer defense define defy degree delay deliver demand demise denial "
         "dentist deny depart depend deposit depth deputy derive describe desert design desk despair destroy "
         "eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg "
         "eight either elbow elder electric elegant element elephant elevator elite else embark embody "
         "fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion "
         "gadget gain galaxy gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge "
         "habit hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health "
         "ice icon idea identify idle ignore ill illegal illness image imitate immense immune impact impose "
         "jacket jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle "
         "kangaroo keen keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee "
         "lab label labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn "
         "machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual "
         "naive name napkin narrow nasty nation nature near neck need negative neglect neither nephew nerve "
         "oak obey object oblige obscure observe obtain obvious occur ocean october odor off offer office "
         "pact paddle page pair palace palm panda panel panic panther paper parade parent park parrot party "
         "quality quantum quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail "
         "sad saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy satoshi sauce "
         "table tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten "
         "ugly umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit "
         "vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet vendor "
         "wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way wealth "
         "yard year yellow you young youth zebra zero zone zoo").split()

PW_WORDS = {
    "en": ["sunflower", "dragon", "monkey", "pancake", "river", "falcon", "butterfly", "summer", "winter",
           "coffee", "pumpkin", "tiger", "rainbow", "thunder", "shadow", "cookie", "pirate", "marble", "velvet",
           "harbor", "maple", "lemon", "orbit", "pepper", "garden", "silver", "rocket", "panda", "ocean",
           "bluebird", "kitten", "mango", "jupiter", "castle", "cactus", "biscuit", "nugget", "pretzel", "zebra"],
    "de": ["sonnenblume", "schmetterling", "hamburg", "kuchen", "sommerwind", "eichhoernchen", "bergsee",
           "apfelbaum", "kartoffel", "drache", "schatzi", "mausi", "fussball", "lebkuchen", "schalke"],
    "fr": ["soleil", "chaton", "papillon", "fromage", "marseille", "loulou", "doudou", "framboise", "nuage",
           "chouchou", "baguette", "printemps", "bisounours"],
    "es": ["mariposa", "tequila", "corazon", "gatito", "sevilla", "princesa", "amorcito", "estrella",
           "chocolate", "girasol", "barcelona", "tortuga"],
    "it": ["farfalla", "gattino", "girasole", "amore", "napoli", "tesoro", "stellina", "limoncello", "juventus",
           "topolino"],
    "pt": ["saudade", "flamengo", "borboleta", "cachorro", "lisboa", "estrela", "morango", "pipoca", "benfica"],
    "nl": ["tulpje", "fietsen", "konijn", "stroopwafel", "zonnetje", "eekhoorn", "ajax", "dropje", "kaaskop"],
    "pl": ["kotek", "slonce", "misiaczek", "krakow", "biedronka", "pierogi", "zabka", "kochanie", "legia"],
    "sv": ["solros", "kanelbulle", "fika", "hallon", "sommar", "stjarna", "ekorre", "midsommar"],
    "tr": ["galatasaray", "kelebek", "istanbul", "sevgilim", "papatya", "kedicik", "fenerbahce", "baklava"],
    "id": ["kucing", "rahasia", "sayangku", "bandung", "mawar", "rendang", "bintang", "kopiluwak"],
    "ru": ["solnyshko", "zvezda", "kotenok", "moskva", "spartak", "lyubov", "medved", "rybka"],
    "ja": ["sakura", "tanuki", "yukidaruma", "neko", "fujisan", "onigiri", "hanabi", "tsubasa"],
    "zh": ["woaini", "xiaomao", "baobei", "taiyang", "shanghai", "longlong", "tiantian", "xingxing"],
    "ko": ["saranghae", "haneul", "gangaji", "byeol", "seoul", "dubu", "kimchi", "bomnal"],
    "cs": ["kocicka", "praha", "slunicko", "medvidek", "sparta", "hvezda", "pejsek"],
    "vi": ["yeuem", "hanoi", "hoahong", "saigon", "mattroi", "meocon", "bongbong"],
    "hi": ["jaanu", "mumbai", "pyaar", "chhotu", "sitara", "titli", "sonu"],
}


def leet(w):
    table = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7", "A": "@", "E": "3", "S": "5"}
    return "".join(table[c] if c in table and chance(0.7) else c for c in w)


def password(lang="en"):
    words = PW_WORDS.get(lang, PW_WORDS["en"])
    w = pick(words)
    s = R.randrange(10)
    if s == 0:
        return w.capitalize() + str(R.randrange(1960, 2025)) + pick("!#$*?.")
    if s == 1:
        return pick(words) + pick(words).capitalize() + str(R.randrange(10, 100))
    if s == 2:
        return leet(w.capitalize()) + pick(["!", "#1", "$$", "99", "_7", "@24", "!!"])
    if s == 3:
        core = rs(AN, R.randrange(9, 15))
        return core[:3] + pick(SYM) + core[3:7] + str(R.randrange(10)) + core[7:] + pick(SYM)
    if s == 4:
        sep = pick(["-", ".", "_", "-", ""])
        ws = [pick(BIP39) for _ in range(R.randrange(3, 5))]
        if sep == "":
            ws = [x.capitalize() for x in ws]
        return sep.join(ws) + (str(R.randrange(10, 99)) if chance(0.5) else "")
    if s == 5:
        return pick(FIRST).split("-")[0].replace("é", "e").replace("ã", "a").replace("á", "a") + pick("*.#_") + \
            "%02d%02d" % (R.randrange(1, 29), R.randrange(1, 13))
    if s == 6:
        return w + str(R.randrange(1950, 2024))
    if s == 7:
        return w.upper()[:4] + pick(SYM) + w[4:] + digits(3)
    if s == 8:
        return pick(words).capitalize() + pick("&%+=") + pick(words) + str(R.randrange(1, 10))
    return rs(AN, 4) + "-" + rs(AN, 4) + "-" + rs(AN, 4)


def passphrase():
    n = R.randrange(4, 7)
    sep = pick([" ", "-", " ", ".", "_"])
    return sep.join(pick(BIP39) for _ in range(n))


def pin(n=None):
    n = n or pick([4, 4, 4, 4, 6, 5])
    while True:
        p = digits(n)
        if len(set(p)) > 1 and p not in ("1234", "123456", "4321"):
            return p


def door_code():
    c = digits(pick([4, 4, 5, 6]))
    r = R.random()
    if r < 0.15:
        return c + "#"
    if r < 0.25:
        return "*" + c
    if r < 0.32:
        return pick("ABCDK") + c
    if r < 0.38:
        return c + pick("AB")
    return c


def combo3():
    return "-".join("%02d" % R.randrange(0, 60) for _ in range(3))


def otp():
    return digits(pick([6, 6, 6, 8, 5]))


def wifi_pw():
    r = R.random()
    if r < 0.3:
        return rs(AN, R.randrange(10, 17))
    if r < 0.5:
        return password(pick(list(PW_WORDS)))
    if r < 0.65:
        return " ".join(digits(4) for _ in range(5))          # FRITZ!Box style WPA key
    if r < 0.8:
        return pick(BIP39) + "-" + pick(BIP39) + "-" + digits(2)
    return rs(LO, 4) + digits(4) + rs(UP, 2)


def luhn(prefix, length):
    ds = [int(c) for c in prefix]
    while len(ds) < length - 1:
        ds.append(R.randrange(10))
    total = 0
    for i, d in enumerate(reversed(ds)):
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return "".join(map(str, ds)) + str((10 - total % 10) % 10)


def card():
    """returns (brand, number_digits, grouped, exp, cvv)"""
    b = R.randrange(6)
    if b in (0, 1):
        brand, num = "Visa", luhn("4" + digits(5), 16)
    elif b == 2:
        brand, num = "Mastercard", luhn(str(R.randrange(51, 56)) + digits(4), 16)
    elif b == 3:
        brand, num = "Amex", luhn(pick(["34", "37"]) + digits(4), 15)
    elif b == 4:
        brand, num = "Discover", luhn("6011" + digits(2), 16)
    else:
        brand, num = "Mastercard", luhn(str(R.randrange(2221, 2721)) + digits(2), 16)
    if len(num) == 15:
        grouped = f"{num[:4]} {num[4:10]} {num[10:]}"
        cvv = digits(4)
    else:
        grouped = " ".join(num[i:i + 4] for i in range(0, 16, 4))
        cvv = digits(3)
    exp = "%02d/%02d" % (R.randrange(1, 13), R.randrange(26, 32))
    return brand, num, grouped, exp, cvv


def seed_phrase(n=None):
    n = n or pick([12, 12, 24, 12, 18])
    return " ".join(pick(BIP39) for _ in range(n))


def backup_codes():
    s = R.randrange(4)
    k = R.randrange(6, 11)
    if s == 0:
        return [rs(HEXL, 5) + "-" + rs(HEXL, 5) for _ in range(k)]
    if s == 1:
        return [digits(4) + " " + digits(4) for _ in range(k)]
    if s == 2:
        return [rs(ANU, 4) + "-" + rs(ANU, 4) for _ in range(k)]
    return [digits(8) for _ in range(k)]


def totp_secret():
    return rs(B32, pick([16, 32, 26]))


def email(first=None, last=None):
    f = (first or pick(FIRST)).lower().replace("é", "e").replace("ã", "a").replace("á", "a").replace("-", "")
    l = (last or pick(LAST)).lower().replace(" ", "").replace("'", "").replace("í", "i").replace("ı", "i") \
        .replace("á", "a").replace("ń", "n").replace("ö", "o").replace("ü", "u").replace("ç", "c")
    l = l.encode("ascii", "ignore").decode()
    return pick([f"{f}.{l}", f"{f}{l[:1]}{R.randrange(10, 99)}", f"{f[:1]}{l}", f"{f}_{l}{R.randrange(1, 9)}"]) + \
        "@" + pick(MAIL_DOM)


def username():
    f = pick(FIRST).lower().encode("ascii", "ignore").decode().replace("-", "")
    return pick([f + digits(2), f + "_" + rs(LO, 3), f[:3] + pick(LAST).lower().encode("ascii", "ignore").decode()
                 .replace(" ", "").replace("'", "")[:5], "admin", f + str(R.randrange(1970, 2010))])


def ctx_personal(lang="en"):
    """a bag of fields every personal frame may use (generated in a fixed order)."""
    c = {}
    c["pw"] = password(lang)
    c["pw2"] = password(lang)
    c["pp"] = passphrase()
    c["site"] = pick(SITES) if lang == "en" else pick(BRAND_SITES)
    c["bank"] = pick(BANKS)
    c["user"] = username()
    c["email"] = email()
    c["name"] = pick(FIRST)
    c["pin"] = pin()
    c["pin2"] = pin(4)
    c["pin6"] = pin(6)
    c["puk"] = digits(8)
    c["code"] = door_code()
    c["code2"] = pin(4)
    c["code3"] = digits(3)
    c["combo"] = combo3()
    c["ssid"] = pick(SSIDS)
    c["wpw"] = wifi_pw()
    c["otp"] = otp()
    brand, num, grouped, exp, cvv = card()
    c["brand"], c["card"], c["cardg"], c["exp"], c["cvv"] = brand, num, grouped, exp, cvv
    c["holder"] = pick(FIRST) + " " + pick(LAST)
    c["maiden"] = pick(LAST)
    c["pet"] = pick(PETS)
    c["city"] = pick(CITIES)
    c["school"] = pick(SCHOOLS)
    c["car"] = pick(CARS)
    c["street"] = pick(STREETS) + " " + str(R.randrange(1, 140))
    c["month"] = pick(MONTHS)
    c["seed"] = seed_phrase()
    codes = backup_codes()
    c["codes"] = ", ".join(codes)
    c["codes_nl"] = "\n".join(codes)
    c["totp"] = totp_secret()
    c["applekey"] = "-".join(rs(ANU, 4) for _ in range(7))
    c["bitlocker"] = "-".join(digits(6) for _ in range(8))
    c["wallet"] = pick(["Ledger", "MetaMask", "Trezor", "Exodus", "Trust Wallet", "Electrum", "Phantom"])
    c["day"] = pick(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"])
    return c


# =========================================================================== provider tokens
# (kind, vendor, human label, env var name, generator, needs_context)
PROVIDERS = []


def P(kind, vendor, label, env, gen, ctxonly=False):
    PROVIDERS.append((kind, vendor, label, env, gen, ctxonly))


def _jwt(alg="HS256", payload=None):
    header = {"alg": alg, "typ": "JWT"}
    if payload is None:
        now = R.randrange(1_700_000_000, 1_760_000_000)
        payload = {"sub": pick([uuid4(), str(R.randrange(10 ** 5, 10 ** 8)), username()]),
                   "iat": now, "exp": now + pick([3600, 86400, 604800, 31536000])}
        if chance(0.5):
            payload["role"] = pick(["admin", "service_role", "user", "editor", "authenticated"])
        if chance(0.4):
            payload["iss"] = pick(["https://auth.example-corp.io", "supabase", "home-assistant", "api",
                                   "https://login.partner-portal.net"])
    seg = lambda o: b64u_nopad(json.dumps(o, separators=(",", ":")).encode())
    siglen = {"HS256": 43, "HS512": 86, "RS256": 342, "ES256": 86}[alg]
    return seg(header) + "." + seg(payload) + "." + rs(B64U, siglen)


P("github_pat", "github", "GitHub", "GITHUB_TOKEN", lambda: "ghp_" + rs(AN, 36))
P("github_oauth", "github", "GitHub OAuth", "GH_OAUTH_TOKEN", lambda: "gho_" + rs(AN, 36))
P("github_user_to_server", "github", "GitHub App user", "GH_APP_USER_TOKEN", lambda: "ghu_" + rs(AN, 36))
P("github_app_installation", "github", "GitHub App installation", "GH_INSTALL_TOKEN", lambda: "ghs_" + rs(AN, 36))
P("github_refresh", "github", "GitHub refresh", "GH_REFRESH_TOKEN", lambda: "ghr_" + rs(AN, 76))
P("github_fine_grained_pat", "github", "GitHub fine-grained", "GITHUB_PAT",
  lambda: "github_pat_11" + rs(ANU, 20) + "_" + rs(AN, 59))
P("gitlab_pat", "gitlab", "GitLab", "GITLAB_TOKEN", lambda: "glpat-" + rs(B64U, 20))
P("gitlab_runner_token", "gitlab", "GitLab runner", "CI_RUNNER_TOKEN", lambda: "glrt-" + rs(B64U, 20))
P("gitlab_deploy_token", "gitlab", "GitLab deploy", "GITLAB_DEPLOY_TOKEN", lambda: "gldt-" + rs(B64U, 20))
P("gitlab_trigger_token", "gitlab", "GitLab pipeline trigger", "TRIGGER_TOKEN", lambda: "glptt-" + rs(HEXL, 40))
P("slack_bot_token", "slack", "Slack bot", "SLACK_BOT_TOKEN",
  lambda: "xoxb-" + digits(11) + "-" + digits(13) + "-" + rs(AN, 24))
P("slack_user_token", "slack", "Slack user", "SLACK_USER_TOKEN",
  lambda: "xoxp-" + digits(11) + "-" + digits(11) + "-" + digits(13) + "-" + rs(HEXL, 32))
P("slack_app_token", "slack", "Slack app-level", "SLACK_APP_TOKEN",
  lambda: "xapp-1-A" + rs(ANU, 10) + "-" + digits(13) + "-" + rs(HEXL, 64))
P("slack_webhook", "slack", "Slack webhook", "SLACK_WEBHOOK_URL",
  lambda: "https://hooks.slack.com/services/T" + rs(ANU, 8) + "/B" + rs(ANU, 10) + "/" + rs(AN, 24))
P("stripe_secret", "stripe", "Stripe", "STRIPE_SECRET_KEY",
  lambda: "sk_live_" + (("51" + rs(AN, 97)) if chance(0.5) else rs(AN, 24)))
P("stripe_restricted", "stripe", "Stripe restricted", "STRIPE_RESTRICTED_KEY",
  lambda: "rk_live_51" + rs(AN, 97))
P("stripe_webhook_secret", "stripe", "Stripe webhook signing", "STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + rs(AN, 32))
P("openai_project_key", "openai", "OpenAI", "OPENAI_API_KEY",
  lambda: "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))
P("openai_legacy_key", "openai", "OpenAI", "OPENAI_API_KEY", lambda: "sk-" + rs(AN, 20) + "T3BlbkFJ" + rs(AN, 20))
P("openai_service_account_key", "openai", "OpenAI service account", "OPENAI_API_KEY",
  lambda: "sk-svcacct-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))
P("anthropic_api_key", "anthropic", "Anthropic", "ANTHROPIC_API_KEY",
  lambda: "sk-ant-api03-" + rs(B64U, 93) + "AA")
P("anthropic_admin_key", "anthropic", "Anthropic admin", "ANTHROPIC_ADMIN_KEY",
  lambda: "sk-ant-admin01-" + rs(B64U, 93) + "AA")
P("google_api_key", "google", "Google Maps", "GOOGLE_API_KEY", lambda: "AIza" + rs(B64U, 35))
P("google_oauth_client_secret", "google", "Google OAuth client", "GOOGLE_CLIENT_SECRET",
  lambda: "GOCSPX-" + rs(B64U, 28))
P("google_oauth_access_token", "google", "Google access", "GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + rs(B64U, 160))
P("google_refresh_token", "google", "Google refresh", "GOOGLE_REFRESH_TOKEN", lambda: "1//0" + rs(B64U, 99))
P("azure_client_secret", "azure", "Azure AD app", "AZURE_CLIENT_SECRET",
  lambda: rs(AN, 3) + "8Q~" + rs(AN + "-_.~", 34))
P("azure_sas_token", "azure", "Azure Storage SAS", "AZURE_SAS_TOKEN",
  lambda: "sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2027-%02d-%02dT18:00:00Z&st=2025-01-01T00:00:00Z"
          "&spr=https&sig=" % (R.randrange(1, 13), R.randrange(1, 28)) + urllib.parse.quote(
      base64.b64encode(rbytes(32)).decode(), safe=""))
P("azure_devops_pat", "azure_devops", "Azure DevOps", "AZURE_DEVOPS_EXT_PAT", lambda: rs(LO + "234567", 52), True)
P("twilio_api_key", "twilio", "Twilio API key", "TWILIO_API_SECRET", lambda: "SK" + rs(HEXL, 32))
P("sendgrid_api_key", "sendgrid", "SendGrid", "SENDGRID_API_KEY",
  lambda: "SG." + rs(B64U, 22) + "." + rs(B64U, 43))
P("mailgun_api_key", "mailgun", "Mailgun", "MAILGUN_API_KEY", lambda: "key-" + rs(HEXL, 32))
P("mailchimp_api_key", "mailchimp", "Mailchimp", "MAILCHIMP_API_KEY",
  lambda: rs(HEXL, 32) + "-us" + str(R.randrange(1, 22)))
P("npm_token", "npm", "npm", "NPM_TOKEN", lambda: "npm_" + rs(AN, 36))
P("pypi_token", "pypi", "PyPI", "TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(B64U, 150))
P("dockerhub_pat", "docker", "Docker Hub", "DOCKERHUB_TOKEN", lambda: "dckr_pat_" + rs(B64U, 27))
P("heroku_api_key", "heroku", "Heroku", "HEROKU_API_KEY", lambda: "HRKU-AA" + rs(B64U, 58))
P("digitalocean_pat", "digitalocean", "DigitalOcean", "DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + rs(HEXL, 64))
P("digitalocean_oauth", "digitalocean", "DigitalOcean OAuth", "DO_OAUTH_TOKEN", lambda: "doo_v1_" + rs(HEXL, 64))
P("digitalocean_refresh", "digitalocean", "DigitalOcean refresh", "DO_REFRESH_TOKEN",
  lambda: "dor_v1_" + rs(HEXL, 64))
P("shopify_access_token", "shopify", "Shopify Admin API", "SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + rs(HEXL, 32))
P("shopify_custom_app_token", "shopify", "Shopify custom app", "SHOPIFY_APP_TOKEN", lambda: "shpca_" + rs(HEXL, 32))
P("shopify_private_app_token", "shopify", "Shopify private app", "SHOPIFY_PASSWORD", lambda: "shppa_" + rs(HEXL, 32))
P("shopify_shared_secret", "shopify", "Shopify shared secret", "SHOPIFY_API_SECRET", lambda: "shpss_" + rs(HEXL, 32))
P("atlassian_api_token", "atlassian", "Jira", "JIRA_API_TOKEN",
  lambda: "ATATT3xFfGF0" + rs(B64U, 170) + "=" + rs(HEXU, 8))
P("bitbucket_app_password", "bitbucket", "Bitbucket", "BITBUCKET_APP_PASSWORD",
  lambda: "ATBB" + rs(AN, 32) + rs(HEXU, 8))
P("linear_api_key", "linear", "Linear", "LINEAR_API_KEY", lambda: "lin_api_" + rs(AN, 40))
P("notion_token", "notion", "Notion", "NOTION_TOKEN", lambda: "ntn_" + digits(11) + rs(AN, 35))
P("notion_integration_secret", "notion", "Notion integration", "NOTION_API_KEY", lambda: "secret_" + rs(AN, 43))
P("figma_pat", "figma", "Figma", "FIGMA_TOKEN", lambda: "figd_" + rs(B64U, 40))
P("huggingface_token", "huggingface", "Hugging Face", "HF_TOKEN", lambda: "hf_" + rs(UP + LO, 34))
P("databricks_token", "databricks", "Databricks", "DATABRICKS_TOKEN", lambda: "dapi" + rs(HEXL, 32))
P("doppler_token", "doppler", "Doppler", "DOPPLER_TOKEN",
  lambda: pick(["dp.pt.", "dp.st.prd."]) + rs(AN, 43))
P("pulumi_token", "pulumi", "Pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + rs(HEXL, 40))
P("terraform_cloud_token", "hashicorp", "Terraform Cloud", "TF_TOKEN_app_terraform_io",
  lambda: rs(AN, 14) + ".atlasv1." + rs(AN, 67))
P("vault_service_token", "hashicorp", "Vault", "VAULT_TOKEN", lambda: "hvs." + rs(B64U, 90))
P("vault_batch_token", "hashicorp", "Vault batch", "VAULT_TOKEN", lambda: "hvb." + rs(B64U, 138))
P("newrelic_user_key", "newrelic", "New Relic", "NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(ANU, 27))
P("newrelic_insert_key", "newrelic", "New Relic insert", "NEW_RELIC_INSERT_KEY", lambda: "NRII-" + rs(B64U, 32))
P("datadog_api_key", "datadog", "Datadog", "DD_API_KEY", lambda: rs(HEXL, 32), True)
P("datadog_app_key", "datadog", "Datadog application", "DD_APP_KEY", lambda: rs(HEXL, 40), True)
P("sentry_org_token", "sentry", "Sentry", "SENTRY_AUTH_TOKEN",
  lambda: "sntrys_eyJpYXQiOjE3" + rs(B64U, 120) + "_" + rs(B64U, 43))
P("sentry_user_token", "sentry", "Sentry user", "SENTRY_AUTH_TOKEN", lambda: "sntryu_" + rs(HEXL, 64))
P("grafana_service_account_token", "grafana", "Grafana", "GRAFANA_TOKEN",
  lambda: "glsa_" + rs(AN, 32) + "_" + rs(HEXL, 8))
P("grafana_cloud_token", "grafana", "Grafana Cloud", "GRAFANA_CLOUD_TOKEN",
  lambda: "glc_eyJvIjoi" + rs(B64U, 110) + "In19")
P("postman_api_key", "postman", "Postman", "POSTMAN_API_KEY",
  lambda: "PMAK-" + rs(HEXL, 24) + "-" + rs(HEXL, 34))
P("square_access_token", "square", "Square", "SQUARE_ACCESS_TOKEN", lambda: "EAAA" + rs(B64U, 60))
P("square_oauth_secret", "square", "Square OAuth", "SQUARE_APP_SECRET", lambda: "sq0csp-" + rs(B64U, 43))
P("braintree_access_token", "braintree", "Braintree", "BRAINTREE_ACCESS_TOKEN",
  lambda: "access_token$production$" + rs(ANL, 16) + "$" + rs(HEXL, 32))
P("facebook_access_token", "meta", "Facebook Graph", "FB_ACCESS_TOKEN", lambda: pick(["EAAB", "EAAG"]) + rs(AN, 180))
P("twitter_bearer_token", "twitter", "X/Twitter", "TWITTER_BEARER_TOKEN",
  lambda: "AAAAAAAAAAAAAAAAAAAAA" + rs(AN, 25) + "%3D" + rs(AN, 50))
P("discord_bot_token", "discord", "Discord bot", "DISCORD_TOKEN",
  lambda: pick("MN") + rs(AN, 25) + "." + rs(B64U, 6) + "." + rs(B64U, 38))
P("discord_webhook", "discord", "Discord webhook", "DISCORD_WEBHOOK",
  lambda: "https://discord.com/api/webhooks/" + str(R.randrange(10 ** 17, 10 ** 19)) + "/" + rs(B64U, 68))
P("telegram_bot_token", "telegram", "Telegram bot", "TELEGRAM_BOT_TOKEN",
  lambda: str(R.randrange(10 ** 9, 8 * 10 ** 9)) + ":AA" + rs(B64U, 33))
P("dropbox_token", "dropbox", "Dropbox", "DROPBOX_ACCESS_TOKEN", lambda: "sl.u." + rs(B64U, 136))
P("asana_pat", "asana", "Asana", "ASANA_TOKEN",
  lambda: "2/" + digits(16) + "/" + digits(16) + ":" + rs(HEXL, 32))
P("airtable_pat", "airtable", "Airtable", "AIRTABLE_API_KEY", lambda: "pat" + rs(AN, 14) + "." + rs(HEXL, 64))
P("cloudflare_api_token", "cloudflare", "Cloudflare", "CLOUDFLARE_API_TOKEN", lambda: rs(B64U, 40), True)
P("cloudflare_global_key", "cloudflare", "Cloudflare global", "CF_API_KEY", lambda: rs(HEXL, 37), True)
P("netlify_token", "netlify", "Netlify", "NETLIFY_AUTH_TOKEN", lambda: "nfp_" + rs(AN, 36))
P("supabase_access_token", "supabase", "Supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + rs(HEXL, 40))
P("supabase_secret_key", "supabase", "Supabase secret", "SUPABASE_SECRET_KEY", lambda: "sb_secret_" + rs(B64U, 31))
P("planetscale_token", "planetscale", "PlanetScale", "PLANETSCALE_SERVICE_TOKEN",
  lambda: "pscale_tkn_" + rs(B64U, 43))
P("planetscale_password", "planetscale", "PlanetScale DB", "DATABASE_PASSWORD", lambda: "pscale_pw_" + rs(B64U, 43))
P("render_api_key", "render", "Render", "RENDER_API_KEY", lambda: "rnd_" + rs(AN, 32))
P("flyio_token", "flyio", "Fly.io", "FLY_API_TOKEN", lambda: "FlyV1 fm2_" + rs(B64, 180))
P("okta_api_token", "okta", "Okta", "OKTA_API_TOKEN", lambda: "00" + rs(B64U, 40))
P("mapbox_secret_token", "mapbox", "Mapbox secret", "MAPBOX_SECRET_TOKEN",
  lambda: "sk." + b64u_nopad(json.dumps({"u": username(), "a": "ck" + rs(ANL, 23)},
                                        separators=(",", ":")).encode()) + "." + rs(B64U, 22))
P("age_secret_key", "age", "age", "SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + rs(BECH.upper(), 58))
P("onepassword_service_token", "1password", "1Password service account", "OP_SERVICE_ACCOUNT_TOKEN",
  lambda: "ops_eyJzaWduSW5BZGRyZXNzIjoi" + rs(B64U, 300))
P("onepassword_secret_key", "1password", "1Password Secret Key", "OP_SECRET_KEY",
  lambda: "A3-" + rs(ANU, 6) + "-" + rs(ANU, 6) + "-" + rs(ANU, 5) + "-" + rs(ANU, 5) + "-" + rs(ANU, 5)
          + "-" + rs(ANU, 5))
P("jfrog_api_key", "jfrog", "Artifactory", "ARTIFACTORY_API_KEY", lambda: "AKCp" + rs(AN, 69))
P("jfrog_identity_token", "jfrog", "JFrog identity", "JFROG_ACCESS_TOKEN", lambda: "cmVmdGtuOjAxOjE3" + rs(AN, 48))
P("sonarqube_token", "sonarsource", "SonarQube", "SONAR_TOKEN", lambda: "sqp_" + rs(HEXL, 40))
P("sonarcloud_user_token", "sonarsource", "SonarCloud", "SONAR_TOKEN", lambda: "squ_" + rs(HEXL, 40))
P("circleci_pat", "circleci", "CircleCI", "CIRCLECI_TOKEN", lambda: "CCIPAT_" + rs(AN, 22) + "_" + rs(HEXL, 40))
P("buildkite_token", "buildkite", "Buildkite", "BUILDKITE_API_TOKEN", lambda: "bkua_" + rs(HEXL, 40))
P("rubygems_api_key", "rubygems", "RubyGems", "GEM_HOST_API_KEY", lambda: "rubygems_" + rs(HEXL, 48))
P("nuget_api_key", "nuget", "NuGet", "NUGET_API_KEY", lambda: "oy2" + rs(ANL, 43))
P("clojars_token", "clojars", "Clojars", "CLOJARS_PASSWORD", lambda: "CLOJARS_" + rs(HEXL, 60))
P("crates_io_token", "crates.io", "crates.io", "CARGO_REGISTRY_TOKEN", lambda: "cio" + rs(AN, 32))
P("contentful_pat", "contentful", "Contentful", "CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + rs(B64U, 43))
P("dynatrace_token", "dynatrace", "Dynatrace", "DT_API_TOKEN",
  lambda: "dt0c01." + rs(ANU, 24) + "." + rs(ANU, 64))
P("launchdarkly_api_key", "launchdarkly", "LaunchDarkly", "LD_API_KEY", lambda: "api-" + uuid4())
P("launchdarkly_sdk_key", "launchdarkly", "LaunchDarkly SDK", "LD_SDK_KEY", lambda: "sdk-" + uuid4())
P("hubspot_pat", "hubspot", "HubSpot", "HUBSPOT_ACCESS_TOKEN", lambda: "pat-" + pick(["na1", "eu1"]) + "-" + uuid4())
P("typeform_pat", "typeform", "Typeform", "TYPEFORM_TOKEN", lambda: "tfp_" + rs(B64U, 44) + "_" + rs(B64U, 14))
P("frameio_token", "frameio", "Frame.io", "FRAMEIO_TOKEN", lambda: "fio-u-" + rs(B64U, 64))
P("readme_api_key", "readme", "ReadMe", "README_API_KEY", lambda: "rdme_" + rs(ANL, 70))
P("prefect_api_key", "prefect", "Prefect", "PREFECT_API_KEY", lambda: "pnu_" + rs(AN, 36))
P("scalingo_token", "scalingo", "Scalingo", "SCALINGO_API_TOKEN", lambda: "tk-us-" + rs(B64U, 48))
P("shippo_live_token", "shippo", "Shippo", "SHIPPO_API_KEY", lambda: "shippo_live_" + rs(HEXL, 40))
P("easypost_api_key", "easypost", "EasyPost", "EASYPOST_API_KEY", lambda: "EZAK" + rs(AN, 54))
P("duffel_live_token", "duffel", "Duffel", "DUFFEL_ACCESS_TOKEN", lambda: "duffel_live_" + rs(B64U, 43))
P("flutterwave_secret_key", "flutterwave", "Flutterwave", "FLW_SECRET_KEY",
  lambda: "FLWSECK-" + rs(HEXL, 32) + "-X")
P("paystack_secret_key", "paystack", "Paystack", "PAYSTACK_SECRET_KEY", lambda: "sk_live_" + rs(HEXL, 40))
P("yandex_api_key", "yandex", "Yandex Cloud", "YC_API_KEY", lambda: "AQVN" + rs(B64U, 36))
P("yandex_oauth_token", "yandex", "Yandex OAuth", "YANDEX_OAUTH_TOKEN", lambda: "y0_AgAAAA" + rs(B64U, 50))
P("yandex_iam_token", "yandex", "Yandex IAM", "YC_IAM_TOKEN", lambda: "t1.9euelZq" + rs(B64U, 150))
P("openrouter_api_key", "openrouter", "OpenRouter", "OPENROUTER_API_KEY", lambda: "sk-or-v1-" + rs(HEXL, 64))
P("groq_api_key", "groq", "Groq", "GROQ_API_KEY", lambda: "gsk_" + rs(AN, 52))
P("replicate_token", "replicate", "Replicate", "REPLICATE_API_TOKEN", lambda: "r8_" + rs(AN, 37))
P("perplexity_api_key", "perplexity", "Perplexity", "PPLX_API_KEY", lambda: "pplx-" + rs(AN, 48))
P("xai_api_key", "xai", "xAI", "XAI_API_KEY", lambda: "xai-" + rs(AN, 80))
P("fireworks_api_key", "fireworks", "Fireworks", "FIREWORKS_API_KEY", lambda: "fw_" + rs(AN, 24))
P("langsmith_api_key", "langchain", "LangSmith", "LANGSMITH_API_KEY",
  lambda: pick(["lsv2_pt_", "lsv2_sk_"]) + rs(HEXL, 32) + "_" + rs(HEXL, 10))
P("pinecone_api_key", "pinecone", "Pinecone", "PINECONE_API_KEY", lambda: "pcsk_" + rs(AN, 5) + "_" + rs(AN, 63))
P("elevenlabs_api_key", "elevenlabs", "ElevenLabs", "ELEVENLABS_API_KEY", lambda: "sk_" + rs(HEXL, 48))
P("deepseek_api_key", "deepseek", "DeepSeek", "DEEPSEEK_API_KEY", lambda: "sk-" + rs(HEXL, 32))
P("fcm_server_key", "firebase", "Firebase Cloud Messaging server", "FCM_SERVER_KEY",
  lambda: "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134))
P("pagerduty_api_key", "pagerduty", "PagerDuty", "PAGERDUTY_TOKEN", lambda: "u+" + rs(B64U, 18))
P("teams_webhook", "microsoft", "Teams incoming webhook", "TEAMS_WEBHOOK_URL",
  lambda: "https://" + pick(["contoso", "acmecorp", "nordwind", "globex"]) + ".webhook.office.com/webhookb2/" +
          uuid4() + "@" + uuid4() + "/IncomingWebhook/" + rs(HEXL, 32) + "/" + uuid4())
P("tailscale_auth_key", "tailscale", "Tailscale auth", "TS_AUTHKEY",
  lambda: "tskey-auth-k" + rs(AN, 11) + "CNTRL-" + rs(AN, 33))
P("tailscale_api_key", "tailscale", "Tailscale API", "TAILSCALE_API_KEY",
  lambda: "tskey-api-k" + rs(AN, 11) + "CNTRL-" + rs(AN, 33))
P("cloudinary_url", "cloudinary", "Cloudinary", "CLOUDINARY_URL",
  lambda: "cloudinary://" + digits(15) + ":" + rs(B64U, 27) + "@" + pick(["dxk2pq", "myshop", "photo-cdn", "hq7a"]))
P("salesforce_session_token", "salesforce", "Salesforce session", "SF_ACCESS_TOKEN",
  lambda: "00D" + rs(AN, 12) + "!AQ" + rs(AN, 2) + "AQ" + rs(AN + "._", 96))
P("adafruit_io_key", "adafruit", "Adafruit IO", "ADAFRUIT_IO_KEY", lambda: "aio_" + rs(AN, 28))
P("infracost_api_key", "infracost", "Infracost", "INFRACOST_API_KEY", lambda: "ico-" + rs(AN, 32))
P("harness_pat", "harness", "Harness", "HARNESS_API_KEY",
  lambda: "pat." + rs(B64U, 22) + "." + rs(HEXL, 24) + "." + rs(AN, 20))
P("sourcegraph_token", "sourcegraph", "Sourcegraph", "SRC_ACCESS_TOKEN",
  lambda: "sgp_" + rs(HEXL, 16) + "_" + rs(HEXL, 40))
P("brevo_api_key", "brevo", "Brevo (Sendinblue)", "BREVO_API_KEY",
  lambda: "xkeysib-" + rs(HEXL, 64) + "-" + rs(AN, 16))
P("mailersend_token", "mailersend", "MailerSend", "MAILERSEND_API_KEY", lambda: "mlsn." + rs(HEXL, 64))
P("resend_api_key", "resend", "Resend", "RESEND_API_KEY", lambda: "re_" + rs(AN, 8) + "_" + rs(AN, 24))
P("plaid_access_token", "plaid", "Plaid", "PLAID_ACCESS_TOKEN", lambda: "access-production-" + uuid4())
P("mollie_live_key", "mollie", "Mollie", "MOLLIE_API_KEY", lambda: "live_" + rs(AN, 30))
P("gocardless_live_token", "gocardless", "GoCardless", "GOCARDLESS_ACCESS_TOKEN", lambda: "live_" + rs(B64U, 40))
P("clerk_secret_key", "clerk", "Clerk", "CLERK_SECRET_KEY", lambda: "sk_live_" + rs(AN, 40))
P("stytch_secret", "stytch", "Stytch", "STYTCH_SECRET", lambda: "secret-live-" + rs(B64U, 36))
P("twitch_oauth_token", "twitch", "Twitch chat", "TWITCH_OAUTH", lambda: "oauth:" + rs(ANL, 30))
P("ngrok_authtoken", "ngrok", "ngrok", "NGROK_AUTHTOKEN", lambda: "2" + rs(AN, 26) + "_" + rs(AN, 21))
P("defined_networking_key", "defined", "Defined Networking", "DN_API_KEY",
  lambda: "dnkey-" + rs(ANU, 26) + "-" + rs(ANU, 52))
P("intercom_token", "intercom", "Intercom", "INTERCOM_ACCESS_TOKEN", lambda: "dG9rOj" + rs(B64, 54) + "=")
P("snyk_token", "snyk", "Snyk", "SNYK_TOKEN", lambda: uuid4(), True)
P("auth0_client_secret", "auth0", "Auth0 client", "AUTH0_CLIENT_SECRET", lambda: rs(B64U, 64), True)
P("vercel_token", "vercel", "Vercel", "VERCEL_TOKEN", lambda: rs(AN, 24), True)
P("railway_token", "railway", "Railway", "RAILWAY_TOKEN", lambda: uuid4(), True)
P("expo_token", "expo", "Expo", "EXPO_TOKEN", lambda: rs(B64U, 40), True)
P("wandb_api_key", "wandb", "Weights & Biases", "WANDB_API_KEY", lambda: rs(HEXL, 40), True)
P("cohere_api_key", "cohere", "Cohere", "COHERE_API_KEY", lambda: rs(AN, 40), True)
P("mistral_api_key", "mistral", "Mistral", "MISTRAL_API_KEY", lambda: rs(AN, 32), True)
P("together_api_key", "together", "Together AI", "TOGETHER_API_KEY", lambda: rs(HEXL, 64), True)
P("deepgram_api_key", "deepgram", "Deepgram", "DEEPGRAM_API_KEY", lambda: rs(HEXL, 40), True)
P("assemblyai_api_key", "assemblyai", "AssemblyAI", "ASSEMBLYAI_API_KEY", lambda: rs(HEXL, 32), True)
P("etherscan_api_key", "etherscan", "Etherscan", "ETHERSCAN_API_KEY", lambda: rs(ANU, 34), True)
P("alchemy_rpc_url", "alchemy", "Alchemy RPC", "ALCHEMY_URL",
  lambda: "https://eth-mainnet.g.alchemy.com/v2/" + rs(B64U, 32))
P("openweather_api_key", "openweather", "OpenWeatherMap", "OWM_API_KEY", lambda: rs(HEXL, 32), True)
P("todoist_token", "todoist", "Todoist", "TODOIST_API_TOKEN", lambda: rs(HEXL, 40), True)
P("clickup_token", "clickup", "ClickUp", "CLICKUP_API_TOKEN", lambda: "pk_" + digits(8) + "_" + rs(ANU, 32))
P("neon_api_key", "neon", "Neon", "NEON_API_KEY", lambda: "napi_" + rs(ANL, 64))
P("backblaze_app_key", "backblaze", "Backblaze B2", "B2_APPLICATION_KEY", lambda: "K005" + rs(B64U, 27))
P("linode_token", "akamai", "Linode", "LINODE_TOKEN", lambda: rs(HEXL, 64), True)
P("vultr_api_key", "vultr", "Vultr", "VULTR_API_KEY", lambda: rs(ANU, 36), True)
P("hetzner_token", "hetzner", "Hetzner Cloud", "HCLOUD_TOKEN", lambda: rs(AN, 64), True)
P("scaleway_secret_key", "scaleway", "Scaleway", "SCW_SECRET_KEY", lambda: uuid4(), True)
P("honeycomb_api_key", "honeycomb", "Honeycomb", "HONEYCOMB_API_KEY", lambda: "hcaik_01" + rs(ANL, 56))
P("rollbar_token", "rollbar", "Rollbar", "ROLLBAR_ACCESS_TOKEN", lambda: rs(HEXL, 32), True)
P("azure_openai_key", "azure", "Azure OpenAI", "AZURE_OPENAI_API_KEY", lambda: rs(HEXL, 32), True)
P("matrix_access_token", "matrix", "Matrix", "MATRIX_ACCESS_TOKEN",
  lambda: "syt_" + b64u_nopad(username().encode()) + "_" + rs(AN, 20) + "_" + rs(AN, 6))
P("pushover_token", "pushover", "Pushover", "PUSHOVER_TOKEN", lambda: "a" + rs(ANL, 29), True)
P("ifttt_webhook_url", "ifttt", "IFTTT webhook", "IFTTT_URL",
  lambda: "https://maker.ifttt.com/trigger/" + pick(["door_open", "notify", "log_sleep"]) + "/with/key/"
          + rs(B64U, 22))
P("home_assistant_token", "home_assistant", "Home Assistant long-lived", "HASS_TOKEN", lambda: _jwt("HS256"))
P("bitcoin_wif_private_key", "bitcoin", "Bitcoin wallet private", "BTC_WIF", lambda: pick("KL") + rs(B58, 51))
P("ethereum_private_key", "ethereum", "Ethereum wallet private", "ETH_PRIVATE_KEY",
  lambda: "0x" + rs(HEXL, 64), True)
P("hashicorp_consul_token", "hashicorp", "Consul ACL", "CONSUL_HTTP_TOKEN", lambda: uuid4(), True)
P("zoom_client_secret", "zoom", "Zoom OAuth", "ZOOM_CLIENT_SECRET", lambda: rs(AN, 32), True)
P("trello_token", "trello", "Trello", "TRELLO_TOKEN", lambda: "ATTA" + rs(HEXL, 64) + rs(HEXU, 8))

# pair formats: (kind, vendor, label, id-name, secret-name, id-gen, secret-gen)
PAIRS = [
    ("aws_access_key", "aws", "AWS", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
     lambda: pick(["AKIA", "AKIA", "ASIA"]) + rs(B32, 16), lambda: rs(B64, 40)),
    ("alibaba_access_key", "alibaba", "Alibaba Cloud", "ALIBABA_CLOUD_ACCESS_KEY_ID",
     "ALIBABA_CLOUD_ACCESS_KEY_SECRET", lambda: "LTAI5t" + rs(AN, 18), lambda: rs(AN, 30)),
    ("tencent_secret_key", "tencent", "Tencent Cloud", "TENCENTCLOUD_SECRET_ID", "TENCENTCLOUD_SECRET_KEY",
     lambda: "AKID" + rs(AN, 32), lambda: rs(AN, 32)),
    ("twilio_auth_token", "twilio", "Twilio", "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN",
     lambda: "AC" + rs(HEXL, 32), lambda: rs(HEXL, 32)),
    ("vonage_api_secret", "vonage", "Vonage", "VONAGE_API_KEY", "VONAGE_API_SECRET",
     lambda: rs(HEXL, 8), lambda: rs(AN, 16)),
    ("spotify_client_secret", "spotify", "Spotify", "SPOTIFY_CLIENT_ID", "SPOTIFY_CLIENT_SECRET",
     lambda: rs(HEXL, 32), lambda: rs(HEXL, 32)),
    ("razorpay_key_secret", "razorpay", "Razorpay", "RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET",
     lambda: "rzp_live_" + rs(AN, 14), lambda: rs(AN, 24)),
    ("plivo_auth_token", "plivo", "Plivo", "PLIVO_AUTH_ID", "PLIVO_AUTH_TOKEN",
     lambda: "MA" + rs(ANU, 18), lambda: rs(AN, 40)),
    ("algolia_admin_key", "algolia", "Algolia", "ALGOLIA_APP_ID", "ALGOLIA_ADMIN_API_KEY",
     lambda: rs(ANU, 10), lambda: rs(HEXL, 32)),
    ("binance_api_secret", "binance", "Binance", "BINANCE_API_KEY", "BINANCE_API_SECRET",
     lambda: rs(AN, 64), lambda: rs(AN, 64)),
    ("coinbase_api_secret", "coinbase", "Coinbase Exchange", "CB_ACCESS_KEY", "CB_ACCESS_SECRET",
     lambda: rs(HEXL, 32), lambda: base64.b64encode(rbytes(64)).decode()),
    ("oracle_oci_api_key", "oracle", "OCI", "OCI_FINGERPRINT", "OCI_AUTH_TOKEN",
     lambda: ":".join(rs(HEXL, 2) for _ in range(16)), lambda: rs(AN + "+:;<>()[]{}.#", 20)),
]

PROV_PLAIN_TPL = [
    "{label} API key: {tok}",
    "my {label} token is {tok}",
    "{env}={tok}",
    'export {env}="{tok}"',
    "Remember the {label} key for the {proj} project: {tok}",
    "User's {label} API token is {tok}.",
    "Saved the {label} credentials for prod -> {tok}",
    "here's the {label} token you asked me to keep: {tok}",
    "new {label} key (rotated on {date}): {tok}",
    "{label} token for CI is {tok} - expires in 90 days",
    "pls store this: {label} = {tok}",
    "The {proj} service talks to {label} with the key {tok}",
    "{envl}: {tok}",
    "[{sect}]\napi_key = {tok}\nregion = {region}",
    'client = Client(api_key="{tok}")  # {label}',
    "const {env} = '{tok}';",
    "set {env}={tok}",
    '$env:{env} = "{tok}"',
    "Mein {label}-Token: {tok}",
    "Clé API {label} pour le projet {proj} : {tok}",
    "Token de {label} para o projeto {proj}: {tok}",
    "La chiave {label} del progetto è {tok}",
    "{label} のAPIキー: {tok}",
    "{label} 的密钥是 {tok}，别外传",
    "Mi token de {label}: {tok}",
    "Mój token {label}: {tok}",
    "Note: {label} access token {tok} (owner {user})",
    "Remember this for me - it's my {label} key: {tok}",
    "{label} -> {tok}",
    "ok the {label} secret is {tok}, put it in the deploy notes",
]
PROV_BEARER_TPL = [
    "Authorization: Bearer {tok}",
    "curl -s https://api.example-svc.com/v1/me -H 'Authorization: Bearer {tok}'",
    "Use header `Authorization: Bearer {tok}` when calling the {label} API",
]


def prov_ctx(label, env, tok):
    return {"label": label, "env": env, "envl": env.lower(), "tok": tok, "proj": pick(PROJECTS),
            "date": "%d-%02d-%02d" % (R.randrange(2023, 2026), R.randrange(1, 13), R.randrange(1, 29)),
            "sect": label.lower().split()[0].replace("/", "_").replace(".", "_"),
            "region": pick(["eu-west-1", "us-east-1", "ap-southeast-2", "eu-central"]), "user": username()}


def provider_plain_value(kind, label, env, tok):
    """returns (technique tag, value)"""
    c = prov_ctx(label, env, tok)
    r = R.random()
    if r < 0.12:
        return "provider-config", ({"service": label, "api_key": tok} if chance(0.5) else
                                   {"provider": label, "credentials": {"token": tok, "created": c["date"]}})
    if r < 0.20:
        return "provider-env", {"env": {env: tok, "NODE_ENV": "production", "LOG_LEVEL": pick(["info", "debug"])}}
    if r < 0.28 and ":" not in tok and " " not in tok:
        return "provider-bearer", fill(pick(PROV_BEARER_TPL), c)
    i = R.randrange(len(PROV_PLAIN_TPL))
    tpl = PROV_PLAIN_TPL[i]
    if tpl.startswith(("{env}", "export", "{envl}", "set ", "$env")):
        tag = "provider-env"
    elif tpl.startswith(("[", "client", "const")):
        tag = "provider-code"
    elif i >= PROV_PLAIN_TPL.index("Mein {label}-Token: {tok}") and i <= PROV_PLAIN_TPL.index("Mój token {label}: {tok}"):
        tag = "provider-ml"
    else:
        tag = "provider-inline"
    return tag, fill(tpl, c)


def gen_provider_plain():
    for (kind, vendor, label, env, gen, ctxonly) in PROVIDERS:
        n = 2 if chance(0.45) else 1
        for _ in range(n):
            tok = gen()
            tag, value = provider_plain_value(kind, label, env, tok)
            add("secret", "plain", tag, kind, value)
    for (kind, vendor, label, idn, secn, gid, gsec) in PAIRS:
        for _ in range(2):
            i, s = gid(), gsec()
            r = R.randrange(6)
            if r == 0:
                v = f"{idn}={i}\n{secn}={s}"
            elif r == 1:
                v = {idn: i, secn: s}
            elif r == 2:
                v = f"{label} keys for the {pick(PROJECTS)} account - id {i} / secret {s}"
            elif r == 3 and kind == "aws_access_key":
                v = f"[default]\naws_access_key_id = {i}\naws_secret_access_key = {s}\nregion = eu-central-1"
            elif r == 4:
                v = f"Remember my {label} API credentials: key {i}, secret {s}"
            else:
                v = f"{label}:\n  id: {i}\n  secret: {s}"
            add("secret", "plain", "provider-pair", kind, v)


# =========================================================================== evasion helpers
ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
HOMO = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445",
        "y": "\u0443", "i": "\u0456", "s": "\u0455", "A": "\u0410", "B": "\u0412", "E": "\u0415",
        "K": "\u041a", "M": "\u041c", "H": "\u041d", "O": "\u041e", "P": "\u0420", "C": "\u0421",
        "T": "\u0422", "X": "\u0425", "0": "\u041e", "1": "\u04c0", "3": "\u0417"}
NUMW = {
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "nl": "nul een twee drie vier vijf zes zeven acht negen".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
    "sv": "noll ett två tre fyra fem sex sju åtta nio".split(),
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz".split(),
    "id": "nol satu dua tiga empat lima enam tujuh delapan sembilan".split(),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
}
NATO = {"a": "alpha", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf",
        "h": "hotel", "i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november",
        "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo", "s": "sierra", "t": "tango", "u": "uniform",
        "v": "victor", "w": "whiskey", "x": "x-ray", "y": "yankee", "z": "zulu"}


def ev_spaced(s, sep=" "):
    return sep.join(s)


def ev_chunk(s, n=4, sep=" "):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def ev_zw(s):
    out = []
    for i, ch in enumerate(s):
        out.append(ch)
        if i < len(s) - 1 and (i % 2 == 1 or chance(0.35)):
            out.append(pick(ZW))
    return "".join(out)


def ev_homoglyph(s):
    idx = [i for i, ch in enumerate(s) if ch in HOMO and not ch.isdigit()]
    if not idx:
        idx = [i for i, ch in enumerate(s) if ch in HOMO]
    if not idx:
        return None
    chars = list(s)
    chosen = [i for i in idx if chance(0.55)] or [pick(idx)]
    for i in chosen:
        chars[i] = HOMO[chars[i]]
    return "".join(chars)


def ev_rot13(s):
    return codecs.encode(s, "rot13")


def ev_rev(s):
    return s[::-1]


def ev_hex(s):
    return s.encode("utf-8").hex()


def ev_b64(s):
    return b64s(s)


def ev_urlenc(s):
    return "".join("%%%02X" % b for b in s.encode("utf-8"))


def ev_uesc(s):
    return "".join("\\u%04x" % ord(c) for c in s)


def ev_fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in s)


def ev_keycap(s):
    return "".join(c + "\ufe0f\u20e3" if c.isdigit() else c for c in s)


def ev_words(s, lang="en", sep=" "):
    w = NUMW[lang]
    return sep.join(w[int(c)] if c.isdigit() else c for c in s)


def ev_mixed_words(s, lang="en"):
    w = NUMW[lang]
    return "-".join((w[int(c)] if (c.isdigit() and i % 2 == 0) else c) for i, c in enumerate(s))


def ev_nato(s):
    out = []
    for c in s:
        if c.lower() in NATO:
            out.append(NATO[c.lower()].upper() if c.isupper() else NATO[c.lower()])
        elif c.isdigit():
            out.append(NUMW["en"][int(c)])
        else:
            out.append({"-": "dash", "!": "exclamation mark", "#": "hash", "_": "underscore", ".": "dot",
                        "@": "at", "$": "dollar", "*": "star", "?": "question mark", " ": "space"}.get(c, c))
    return " ".join(out)


def ev_split(s, k):
    """split s into k non-empty roughly even parts"""
    k = max(2, min(k, len(s)))
    cuts = sorted(R.sample(range(1, len(s)), k - 1))
    parts, prev = [], 0
    for c in cuts + [len(s)]:
        parts.append(s[prev:c])
        prev = c
    return parts


def ev_linewrap(s, n=None):
    n = n or R.randrange(12, 25)
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


# --------------------------------------------------------------------------- provider hard
def provider_hard(kind, label, env, tok):
    """returns (technique, value, ns, key)"""
    t = R.randrange(26)
    ns, key = None, None
    c = prov_ctx(label, env, tok)
    if t == 0:
        return "spaced", f"{label} key, spaced so it doesn't get picked up: {ev_spaced(tok)}", ns, key
    if t == 1:
        return "chunked", f"{label} token (type it in groups): {ev_chunk(tok, pick([4, 5, 6, 8]), pick([' ', '-', ' | ']))}", ns, key
    if t == 2:
        parts = ev_split(tok, 2)
        return "split-fields", {"service": label, "key_part_a": parts[0], "key_part_b": parts[1],
                                "note": "join a+b without spaces"}, ns, key
    if t == 3:
        parts = ev_split(tok, R.randrange(3, 5))
        return "split-list", {"items": [f"{label} credential in pieces"] + parts}, ns, key
    if t == 4:
        return "b64", pick([f"{label} key (base64 so it's not plain text): {ev_b64(tok)}",
                            f"{env}_B64={ev_b64(tok)}",
                            f"echo {ev_b64(tok)} | base64 -d  # {label} token"]), ns, key
    if t == 5:
        return "hex", f"{label} token hex-encoded: {ev_hex(tok)}", ns, key
    if t == 6:
        return "reversed", pick([f"{label} key written backwards: {ev_rev(tok)}",
                                 f"reverse this to get the {label} token -> {ev_rev(tok)}"]), ns, key
    if t == 7:
        return "rot13", f"rot13({label} key) = {ev_rot13(tok)}", ns, key
    if t == 8:
        return "zero-width", pick([f"{label} token: {ev_zw(tok)}", f"{env}={ev_zw(tok)}"]), ns, key
    if t == 9:
        h = ev_homoglyph(tok)
        if h:
            return "homoglyph", pick([f"{label} key {h}", f"my {label} token is {h}"]), ns, key
        return "zero-width", f"{label} token: {ev_zw(tok)}", ns, key
    if t == 10:
        return "line-wrapped", f"{label} key (wrapped):\n{ev_linewrap(tok)}", ns, key
    if t == 11:
        return "url-encoded", f"{label} token url-encoded: {ev_urlenc(tok)}", ns, key
    if t == 12:
        return "unicode-escape", f'"{env}": "{ev_uesc(tok)}"', ns, key
    if t == 13:
        parts = ev_split(tok, R.randrange(2, 5))
        joined = " + ".join(f'"{p}"' for p in parts)
        return "code-concat", pick([f"{env.lower()} = {joined}  # {label}",
                                    f"const token = [{', '.join(repr(p) for p in parts)}].join('');"]), ns, key
    if t == 14:
        return "secret-in-key", {"text": f"{label} credential for the {c['proj']} project (see key)"}, ns, \
            pick([tok, f"{kind}:{tok}", f"cache/{label.lower().split()[0]}/{tok}"])
    if t == 15:
        return "secret-in-namespace", {"text": f"notes about {label} rate limits and billing"}, \
            ["memories", user_id(), tok], key
    if t == 16:
        repo = pick(["acme/infra", "me/dotfiles", "team/api", "lab/scripts"])
        host = {"github": "github.com", "gitlab": "gitlab.com", "bitbucket": "bitbucket.org"}.get(
            kind.split("_")[0], "git.example-corp.net")
        return "git-remote", f"git remote set-url origin https://{pick(['x-access-token', 'oauth2', username()])}:{tok}@{host}/{repo}.git", ns, key
    if t == 17:
        return "curl", pick([f"curl -sS -H \"Authorization: Bearer {tok}\" https://api.{label.lower().split()[0].replace('/', '').replace('.', '')}.com/v1/status",
                             f"curl -u {pick(['api', username(), 'x'])}:{tok} https://api.example-svc.io/v2/items",
                             f"curl 'https://api.example-svc.io/v1/search?q=test&api_key={tok}'"]), ns, key
    if t == 18:
        return "docker-compose", (f"services:\n  worker:\n    image: {c['proj'].replace(' ', '-')}:latest\n"
                                  f"    environment:\n      - {env}={tok}\n      - LOG_LEVEL=info\n"), ns, key
    if t == 19:
        return "k8s-secret", (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {label.lower().split()[0].replace('/', '-').replace('.', '-')}-creds\n"
                              f"type: Opaque\ndata:\n  {env.lower()}: {ev_b64(tok)}\n"), ns, key
    if t == 20:
        return "ci-config", (f"name: deploy\non: [push]\njobs:\n  release:\n    runs-on: ubuntu-latest\n    env:\n"
                             f"      {env}: {tok}\n    steps:\n      - uses: actions/checkout@v4\n      - run: make release\n"), ns, key
    if t == 21:
        return "http-capture", {"method": "POST", "url": "https://api.example-svc.io/v1/jobs",
                                "headers": {"Content-Type": "application/json",
                                            pick(["Authorization", "X-Api-Key", "X-Auth-Token"]):
                                                (("Bearer " + tok) if chance(0.5) else tok)},
                                "body": {"name": "nightly", "retries": 3}}, ns, key
    if t == 22:
        return "markdown-table", (f"| service | env var | value |\n|---|---|---|\n| {label} | `{env}` | `{tok}` |\n"
                                  f"| Postgres | `DB_HOST` | `db.internal` |"), ns, key
    if t == 23:
        return "code-comment", pick([f"# TODO move to the vault before merging: {tok}\ndef connect():\n    return Client(os.environ['{env}'])",
                                     f"// {label} key for local testing: {tok}\nexport const client = init();",
                                     f"/* temp {label} creds: {tok} */"]), ns, key
    if t == 24:
        return "sql", f"INSERT INTO integrations (provider, api_key, enabled) VALUES ('{label}', '{tok}', true);", ns, key
    return "json-string", {"payload": json.dumps({"provider": label, "config": {"key": tok}})}, ns, key


def gen_provider_hard(n):
    allp = PROVIDERS
    for i in range(n):
        kind, vendor, label, env, gen, ctxonly = allp[(i * 7 + R.randrange(len(allp))) % len(allp)]
        tok = gen()
        tech, value, ns, key = provider_hard(kind, label, env, tok)
        add("secret", "hard", tech, kind, value, ns=ns, key=key)
    for i in range(len(PAIRS)):
        kind, vendor, label, idn, secn, gid, gsec = PAIRS[i]
        a, s = gid(), gsec()
        r = R.randrange(4)
        if r == 0:
            v = {"id": a, "secret_part1": s[:len(s) // 2], "secret_part2": s[len(s) // 2:], "vendor": label}
            tech = "split-fields"
        elif r == 1:
            v = f"{label} creds, secret reversed: {a} / {ev_rev(s)}"
            tech = "reversed"
        elif r == 2:
            v = f"| key | value |\n|---|---|\n| {idn} | {a} |\n| {secn} | {s} |"
            tech = "markdown-table"
        else:
            v = f"{idn.lower()}={a}\n{secn.lower()}={ev_b64(s)}  # base64"
            tech = "b64"
        add("secret", "hard", tech, kind, v)


# =========================================================================== structured secrets
def _pem(label, prefix, total, width=64):
    body = prefix + rs(B64, total - len(prefix))
    if total % 4 == 2:
        body = body[:-2] + "=="
    lines = [body[i:i + width] for i in range(0, len(body), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def private_key():
    t = R.randrange(7)
    if t == 0:
        return "rsa", _pem("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA", 1592)
    if t == 1:
        return "pkcs8", _pem("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 1624)
    if t == 2:
        return "ec", _pem("EC PRIVATE KEY", "MHcCAQEEI", 164)
    if t == 3:
        return "openssh", _pem("OPENSSH PRIVATE KEY",
                               "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACA",
                               400, 70)
    if t == 4:
        return "pkcs8-ed25519", _pem("PRIVATE KEY", "MC4CAQAwBQYDK2VwBCIEI", 64)
    if t == 5:
        body = "lQdGBGX" + rs(B64, 1200)
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        return "pgp", ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(lines) + "\n=" + rs(B64, 4) +
                       "\n-----END PGP PRIVATE KEY BLOCK-----")
    return "encrypted-pkcs8", _pem("ENCRYPTED PRIVATE KEY", "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI", 1736)


def conn_string():
    user = pick(["app", "admin", "postgres", "root", "svc_orders", username(), "readonly", "etl"])
    pw = pick([password(), rs(AN, 20), rs(AN + "!*-_", 16), passphrase().replace(" ", "-")])
    pwq = urllib.parse.quote(pw, safe="")
    host = pick(["db.internal", "10.0.3.17", "prod-db.c9akxyz.eu-west-1.rds.amazonaws.com", "localhost",
                 "mysql.hosting-provider.net", "cluster0.ab12c.mongodb.net", "redis-14532.c1.eu.cloud.redislabs.com",
                 "pg.lan", "192.168.1.20", "sql-prod.database.windows.net"])
    db = pick(["orders", "app", "shop", "analytics", "wiki", "crm", "nextcloud"])
    t = R.randrange(12)
    if t == 0:
        return f"postgresql://{user}:{pwq}@{host}:5432/{db}"
    if t == 1:
        return f"mysql://{user}:{pwq}@{host}:3306/{db}"
    if t == 2:
        return f"mongodb+srv://{user}:{pwq}@{host}/{db}?retryWrites=true&w=majority"
    if t == 3:
        return f"redis://:{pwq}@{host}:6379/0"
    if t == 4:
        return f"amqp://{user}:{pwq}@{host}:5672/%2F"
    if t == 5:
        return f"Server=tcp:{host},1433;Initial Catalog={db};User ID={user};Password={pw};Encrypt=True;"
    if t == 6:
        return f"jdbc:postgresql://{host}:5432/{db}?user={user}&password={pwq}&ssl=true"
    if t == 7:
        return f"ftp://{user}:{pwq}@ftp.{pick(['mysite.org', 'backup-host.net'])}/uploads"
    if t == 8:
        return f"smtp://{email()}:{pwq}@smtp.{pick(['gmail.com', 'mailbox.org', 'office365.com'])}:587"
    if t == 9:
        return f"mysql+pymysql://{user}:{pwq}@{host}/{db}?charset=utf8mb4"
    if t == 10:
        return f"{user}/{pw}@{host}:1521/ORCLPDB1"
    return f"https://elastic:{pwq}@{host}:9200"


def gen_structured_plain():
    # private keys
    for _ in range(24):
        typ, pem = private_key()
        r = R.randrange(6)
        if r == 0:
            v = pem
        elif r == 1:
            v = f"my deploy key for the {pick(PROJECTS)} server:\n{pem}"
        elif r == 2:
            v = {"filename": pick(["id_rsa", "id_ed25519", "server.key", "tls.key", "signing.pem"]), "content": pem}
        elif r == 3:
            v = f"Keep this safe - it's the SSH key for {pick(['the NAS', 'the VPS', 'grandpa’s Raspberry Pi', 'prod bastion'])}\n{pem}"
        elif r == 4:
            v = {"text": "key backup", "attachments": [{"name": "key.pem", "data": pem}]}
        else:
            v = pem + ("\npassphrase: " + password() if typ == "encrypted-pkcs8" else "")
        add("secret", "plain", "private-key", "private_key", v)
    # GCP service account
    for _ in range(5):
        proj = pick(["acme-prod", "recipes-4821", "thesis-ml", "homelab-377012"])
        sa = {"type": "service_account", "project_id": proj, "private_key_id": rs(HEXL, 40),
              "private_key": _pem("PRIVATE KEY", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ", 1624) + "\n",
              "client_email": f"{pick(['deployer', 'ci-runner', 'backup'])}@{proj}.iam.gserviceaccount.com",
              "client_id": digits(21), "token_uri": "https://oauth2.googleapis.com/token"}
        v = sa if chance(0.5) else {"text": "GCP service account key:\n" + json.dumps(sa, indent=2)}
        add("secret", "plain", "cloud-creds", "gcp_service_account", v)
    # WireGuard private key
    for _ in range(4):
        pk = base64.b64encode(rbytes(32)).decode()
        pub = base64.b64encode(rbytes(32)).decode()
        v = (f"[Interface]\nPrivateKey = {pk}\nAddress = 10.8.0.{R.randrange(2, 250)}/24\nDNS = 1.1.1.1\n\n[Peer]\n"
             f"PublicKey = {pub}\nEndpoint = vpn.{pick(['myhome.net', 'example-vpn.org'])}:51820\nAllowedIPs = 0.0.0.0/0")
        add("secret", "plain", "private-key", "wireguard_private_key", v)
    # JWTs
    for _ in range(12):
        tok = _jwt(pick(["HS256", "RS256", "ES256", "HS512"]))
        v = pick([f"session token for the admin panel: {tok}", f"Authorization: Bearer {tok}",
                  {"access_token": tok, "token_type": "Bearer", "expires_in": 3600},
                  f"Cookie: session={tok}; Path=/; HttpOnly", f"my API JWT (valid one year) {tok}",
                  f"SUPABASE_SERVICE_ROLE_KEY={tok}"])
        add("secret", "plain", "jwt", "jwt", v)
    # connection strings
    for _ in range(26):
        cs = conn_string()
        v = pick([cs, f"DATABASE_URL={cs}", f"prod db: {cs}", {"database": {"url": cs, "pool": 10}},
                  f"Remember the connection string for the {pick(PROJECTS)} database: {cs}",
                  f"spring.datasource.url={cs}", f"Die Verbindung zur DB: {cs}"])
        add("secret", "plain", "connection-string", "connection_string", v)
    # basic auth / credentials in URLs
    for _ in range(12):
        u, p = username(), password()
        r = R.randrange(5)
        if r == 0:
            v = f"Authorization: Basic {b64s(u + ':' + p)}"
        elif r == 1:
            v = f"the staging site is behind basic auth: https://{u}:{urllib.parse.quote(p, safe='')}@staging.{pick(['myshop.io', 'client-site.de'])}/"
        elif r == 2:
            v = {"url": "https://nas.local:5001", "auth": {"type": "basic", "username": u, "password": p}}
        elif r == 3:
            v = f"machine api.{pick(['heroku.com', 'internal.corp', 'github.com'])}\n  login {u}\n  password {p}"
        else:
            v = f"https://{u}:{urllib.parse.quote(p, safe='')}@{pick(['github.com/acme/private.git', 'gitlab.com/me/notes.git'])}"
        add("secret", "plain", "basic-auth", "basic_auth", v)
    # package-manager / tool credential files
    for _ in range(10):
        r = R.randrange(5)
        if r == 0:
            v, k = f"//registry.npmjs.org/:_authToken=npm_{rs(AN, 36)}\nalways-auth=true", "npm_token"
        elif r == 1:
            v, k = f"[pypi]\n  username = __token__\n  password = pypi-AgEIcHlwaS5vcmc{rs(B64U, 150)}", "pypi_token"
        elif r == 2:
            v, k = json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": b64s(username() + ":" + password())}}},
                              indent=2), "docker_registry_auth"
        elif r == 3:
            v, k = f"https://{username()}:ghp_{rs(AN, 36)}@github.com", "github_pat"
        else:
            v, k = f"~/.pgpass:\n{pick(['db.internal', 'localhost', '10.0.0.5'])}:5432:*:{username()}:{password()}", "connection_string"
        add("secret", "plain", "tool-config", k, v)
    # kubeconfig with token
    for _ in range(4):
        v = ("apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://k8s." +
             pick(["lab.local", "prod.acme.io"]) + ":6443\n  name: prod\nusers:\n- name: admin\n  user:\n    token: " +
             _jwt("RS256") + "\n")
        add("secret", "plain", "cloud-creds", "kubernetes_token", v)
    # azure service principal
    for _ in range(4):
        v = {"appId": uuid4(), "displayName": pick(["terraform-sp", "ci-deployer"]),
             "password": rs(AN, 3) + "8Q~" + rs(AN + "-_.~", 34), "tenant": uuid4()}
        add("secret", "plain", "cloud-creds", "azure_client_secret", v)
    # session cookies
    for _ in range(6):
        v = pick([f"Cookie: sessionid={rs(ANL, 32)}; csrftoken={rs(AN, 32)}",
                  f"copied my {pick(SITES)} session cookie so the script can log in: connect.sid=s%3A{rs(B64U, 32)}.{rs(B64U, 43)}",
                  {"cookies": [{"name": "__Secure-next-auth.session-token", "value": rs(B64U, 120), "domain": ".example-app.com"}]},
                  f"laravel_session={rs(B64, 200)}%3D%3D"])
        add("secret", "plain", "session-cookie", "session_cookie", v)
    # password manager exports
    for _ in range(14):
        add("secret", "plain", "pw-export", "password", pw_export())
    # TOTP seeds
    for _ in range(8):
        s = totp_secret()
        acct = email()
        issuer = pick(["GitHub", "Google", "Binance", "Dropbox", "AWS", "Kraken", "Proton"])
        v = pick([f"otpauth://totp/{issuer}:{urllib.parse.quote(acct)}?secret={s}&issuer={issuer}",
                  f"2FA setup key for {issuer}: {ev_chunk(s.lower(), 4)}",
                  f"{issuer} authenticator secret (in case I lose my phone): {s}"])
        add("secret", "plain", "totp-seed", "totp_seed", v)


def pw_export():
    rows = []
    for _ in range(R.randrange(2, 5)):
        site = pick(["netflix.com", "accounts.google.com", "amazon.de", "paypal.com", "steamcommunity.com",
                     "login.live.com", "bank.example-online.com", "github.com", "reddit.com", "spotify.com"])
        rows.append((site, pick([email(), username()]), password()))
    t = R.randrange(4)
    if t == 0:
        return "name,url,username,password\n" + "\n".join(f"{s.split('.')[0]},https://{s}/,{u},{p}" for s, u, p in rows)
    if t == 1:
        return {"encrypted": False, "folders": [], "items": [
            {"type": 1, "name": s, "login": {"uris": [{"uri": "https://" + s}], "username": u, "password": p,
                                               "totp": None}} for s, u, p in rows]}
    if t == 2:
        return "<KeePassFile><Root><Group><Name>Root</Name>" + "".join(
            f"<Entry><String><Key>Title</Key><Value>{s}</Value></String><String><Key>UserName</Key><Value>{u}</Value>"
            f"</String><String><Key>Password</Key><Value ProtectInMemory=\"True\">{p}</Value></String></Entry>"
            for s, u, p in rows) + "</Group></Root></KeePassFile>"
    return {"export": "1password", "vault": "Personal",
            "items": [{"title": s, "fields": [{"designation": "username", "value": u},
                                              {"designation": "password", "value": p}]} for s, u, p in rows]}


def gen_structured_hard():
    for _ in range(6):
        typ, pem = private_key()
        r = R.randrange(4)
        if r == 0:
            v, tech = f"tls.key: {ev_b64(pem)}", "b64"
        elif r == 1:
            v, tech = {"key_lines": pem.split("\n")}, "split-list"
        elif r == 2:
            body = "".join(pem.split("\n")[1:-1])
            v, tech = f"just the body of my server key (headers stripped): {body}", "stripped-pem"
        else:
            v, tech = {"text": pem.replace("\n", "\\n")}, "escaped-newlines"
        add("secret", "hard", tech, "private_key", v)
    for _ in range(6):
        tok = _jwt(pick(["HS256", "RS256"]))
        h, p, s = tok.split(".")
        r = R.randrange(3)
        if r == 0:
            v, tech = {"jwt_header": h, "jwt_payload": p, "jwt_signature": s}, "split-fields"
        elif r == 1:
            v, tech = f"token (spaces added): {ev_spaced(tok[:60])}{tok[60:]}", "spaced"
        else:
            v, tech = f"auth cookie reversed {ev_rev(tok)}", "reversed"
        add("secret", "hard", tech, "jwt", v)
    for _ in range(10):
        u, p = pick(["root", "admin", "deploy", username()]), password()
        host = pick(["db.internal", "10.0.4.12", "backup.lan", "203.0.113.40", "nas.local"])
        r = R.randrange(10)
        if r == 0:
            v = f"mysql -h {host} -u {u} -p'{p}' orders < dump.sql"
        elif r == 1:
            v = f"sshpass -p '{p}' ssh {u}@{host} 'df -h'"
        elif r == 2:
            v = f"echo '{p}' | docker login registry.{pick(['gitlab.com', 'acme.io'])} -u {u} --password-stdin"
        elif r == 3:
            v = f"PGPASSWORD='{p}' psql -h {host} -U {u} -d app -c 'select 1'"
        elif r == 4:
            v = f"smbclient //{host}/share -U {u}%{p}"
        elif r == 5:
            v = f"redis-cli -h {host} -a '{p}' info"
        elif r == 6:
            v = f"zip -P '{p}' taxes_2024.zip *.pdf   # password for the archive"
        elif r == 7:
            v = f"net use Z: \\\\{host}\\backup /user:{u} {p}"
        elif r == 8:
            v = f"docker login -u {u} -p {p} registry.{pick(['acme.io', 'example-corp.net'])}"
        else:
            v = f"curl -u {u}:{p} https://{host}/api/backup/start"
        add("secret", "hard", "shell", pick(["password"]), v)
    for _ in range(8):
        u, p = username(), password()
        r = R.randrange(4)
        if r == 0:
            v = f"CREATE USER '{u}'@'%' IDENTIFIED BY '{p}';\nGRANT ALL ON shop.* TO '{u}'@'%';"
        elif r == 1:
            v = f"ALTER USER postgres WITH PASSWORD '{p}';"
        elif r == 2:
            v = f"[database]\nhost = 127.0.0.1\nuser = {u}\npassword = {p}\nname = wiki"
        else:
            v = f"db:\n  user: {u}\n  pass: \"{p}\"\n  host: localhost"
        add("secret", "hard", ["sql", "sql", "ini", "yaml"][r], "password", v)
    for _ in range(6):
        cs = conn_string()
        r = R.randrange(3)
        if r == 0:
            v, tech = f"DB url b64: {ev_b64(cs)}", "b64"
        elif r == 1:
            v, tech = {"parts": ev_split(cs, 3)}, "split-list"
        else:
            v, tech = f"conn string with zero-width chars: {ev_zw(cs)}", "zero-width"
        add("secret", "hard", tech, "connection_string", v)


# =========================================================================== personal secrets
EN_FRAMES = [
    # passwords / passphrases
    ("password", "My {site} password is {pw}"),
    ("password", "{site} login: {email} / {pw}"),
    ("password", "Remember: the password for {site} is {pw} (changed it in {month})"),
    ("password", "User's {site} password: {pw}"),
    ("password", "note to self - {site} pw = {pw}"),
    ("password", "new password for {site} -> {pw}  don't forget this time!!"),
    ("password", "The user asked me to remember their {site} credentials: username {user}, password {pw}."),
    ("password", "hey can you save this for me? {site} account, pass is {pw}"),
    ("password", "{name}'s {site} password is {pw}, they asked me to keep it in case they forget"),
    ("password", "For Mum's {site}: email {email}, password {pw}. She always forgets it."),
    ("password", "Changed my {site} password today. New one: {pw}"),
    ("password", "pw for {site}: {pw}"),
    ("password", "{site}\nuser: {user}\npass: {pw}"),
    ("password", "The work laptop login is {user} with password {pw}"),
    ("password", "Router admin page (192.168.178.1) password is {pw}"),
    ("password", "If I get locked out, the {site} password is {pw} - the old one was {pw2}"),
    ("password", "User mentioned their email password is {pw} and wants a reminder if they ask."),
    ("password", "shared {site} account → {email} : {pw}"),
    ("password", "Kids' {site} account password: {pw} (for the tablet)"),
    ("password", "Master password for my password manager: {pp}"),
    ("password", "Laptop disk encryption passphrase: {pp}"),
    ("password", "{site} — {user} — {pw}"),
    ("password", "Remind me: {site} creds are {user} and {pw}"),
    ("password", "I keep forgetting it so here it is: {pw} is my {site} password"),
    ("password", "Password for the shared family {site}: {pw}. Don't give it to the kids."),
    ("password", "ok so the login for the school portal is {user} and the password is {pw}"),
    ("password", "Online banking at {bank}: login ID {user}, password {pw}"),
    ("password", "Dad's computer: user {name}, password {pw} (he had it on a sticky note, moving it here)"),
    ("password", "VPN password for work is {pw}; the username is my employee number"),
    ("password", "The password to open the encrypted tax PDF is {pw}"),
    ("password", "VeraCrypt volume password: {pp}"),
    ("password", "The zip with the passport scans is protected with {pw}"),
    ("password", "- {site}: {pw}\n- {site2}: {pw2}"),
    ("password", "Remember that my Apple ID password is now {pw}"),
    ("password", "Assistant note: user's {bank} online banking password = {pw}"),
    ("password", "Fact: {name} uses {pw} as the password for nearly everything"),
    ("password", "the login for the baby monitor app is {email}, pw {pw}"),
    ("password", "Password hint won't help, so just saving it: {pw} ({site})"),
    # PINs
    ("pin", "My {bank} card PIN is {pin}"),
    ("pin", "debit card pin {pin}"),
    ("pin", "SIM PIN: {pin2}, PUK: {puk}"),
    ("pin", "User's bank PIN is {pin}."),
    ("pin", "Phone unlock code: {pin6}"),
    ("pin", "The PIN for the {bank} credit card is {pin2} - not the same as the debit one ({pin})"),
    ("pin", "Voicemail PIN {pin}"),
    ("pin", "Card: {bank} {brand}, PIN {pin}"),
    ("pin", "Dad's ATM pin is {pin2}, he asked me to withdraw cash for him on {day}"),
    ("pin", "Remember my pin for {bank}: {pin}"),
    ("pin", "Telephone banking passcode: {pin6}"),
    ("pin", "Office printer release PIN is {pin2}"),
    ("pin", "iPad Screen Time passcode (so the kids can't change it): {pin2}"),
    ("pin", "The code to unlock Grandma's phone is {pin6}"),
    # door / gate / garage
    ("door_code", "The front door code is {code}"),
    ("door_code", "Gate code for {street}: {code}"),
    ("door_code", "Garage keypad: {code}"),
    ("door_code", "Building entry code {code} (press the key symbol first)"),
    ("door_code", "For the house-sitter: front door keypad {code}, then lift the handle"),
    ("door_code", "Airbnb check-in: door code {code}, valid until {day}"),
    ("door_code", "Code to the bike shed is {code}"),
    ("door_code", "Office back door code: {code}"),
    ("door_code", "Grandma's building code changed to {code}"),
    ("door_code", "Community pool gate code: {code}"),
    ("door_code", "User stated: 'my garage code is {code}'"),
    # alarm / lockbox / combination
    ("alarm_code", "Alarm code: {code2} - you have 30 seconds after opening the door"),
    ("alarm_code", "To disarm the alarm type {code2} then OFF"),
    ("alarm_code", "Alarm panel code is {code2}; the duress code is {pin2}"),
    ("lockbox_code", "Key is in the lockbox by the garage, code {code3}"),
    ("lockbox_code", "Keysafe combo {code2} (spin the dials, then push down)"),
    ("lock_combination", "Safe combination: {combo}"),
    ("lock_combination", "Gym locker padlock {code3}"),
    ("lock_combination", "Bike lock combo is {code2}"),
    ("lock_combination", "Suitcase lock is set to {code3}"),
    # wifi
    ("wifi_password", "Wifi: {ssid} / {wpw}"),
    ("wifi_password", "The wifi password at home is {wpw}"),
    ("wifi_password", "Guest network {ssid}, password {wpw}"),
    ("wifi_password", "WLAN for the cabin: network {ssid}, key {wpw}"),
    ("wifi_password", "our wifi pw: {wpw} (network name {ssid})"),
    ("wifi_password", "If guests ask: wifi is {ssid}, password {wpw}"),
    ("wifi_password", "WIFI:T:WPA;S:{ssid};P:{wpw};;"),
    ("wifi_password", "The router sticker says the WPA key is {wpw}"),
    ("wifi_password", "Office wifi changed, new password is {wpw}"),
    # one-time codes
    ("otp", "Verification code from {bank}: {otp}"),
    ("otp", "The 2FA code is {otp}, type it in now please"),
    ("otp", "{site} sent me {otp} as the login code"),
    ("otp", "G-{otp} is your Google verification code"),
    ("otp", "one-time passcode {otp} for the transfer to {name}"),
    ("otp", "OTP {otp}"),
    # security answers
    ("security_answer", "Security question for {bank}: mother's maiden name -> {maiden}"),
    ("security_answer", "First pet's name (for security questions): {pet}"),
    ("security_answer", "For the {site} recovery questions I used: city of birth = {city}, first school = {school}"),
    ("security_answer", "User's answer to 'name of your first car' is '{car}'"),
    ("security_answer", "Secret answer for the phone company: {pet}{code3}"),
    ("security_answer", "Telephone banking memorable word: {memword}"),
    # recovery codes / phrases
    ("recovery_code", "{site} backup codes: {codes}"),
    ("recovery_code", "Recovery codes for my {site} 2FA:\n{codes_nl}"),
    ("recovery_code", "Recovery key for the Apple ID: {applekey}"),
    ("recovery_code", "BitLocker recovery key for the work laptop: {bitlocker}"),
    ("recovery_phrase", "Seed phrase for my wallet: {seed}"),
    ("recovery_phrase", "{wallet} recovery phrase: {seed}"),
    ("recovery_phrase", "wrote down the wallet words, backing up here: {seed}"),
    ("recovery_phrase", "{wallet} seed:\n{seed_numbered}"),
    # payment cards
    ("payment_card", "Card: {card} exp {exp} cvv {cvv}"),
    ("payment_card", "my {brand} {cardg} {exp} {cvv}"),
    ("payment_card", "Use this card for the booking: {holder}, {cardg}, expires {exp}, security code {cvv}"),
    ("payment_card", "User's credit card number is {card}, CVC {cvv}"),
    ("payment_card", "{bank} card {cardg} - valid thru {exp} - CVV {cvv}"),
    ("payment_card", "Company card for travel expenses: {cardg}, exp {exp}, code on the back {cvv}"),
    ("totp_seed", "TOTP secret for {site}: {totp}"),
]

ML_FRAMES = {
    "de": [
        ("password", "Mein {site}-Passwort ist {pw}"),
        ("password", "Passwort für {site}: {pw} (Benutzer {user})"),
        ("password", "Passwort vom Router is {pw}"),
        ("password", "Der Nutzer hat sein Online-Banking-Passwort genannt: {pw}"),
        ("pin", "Notiz an mich: PIN der {bank}-Karte = {pin}"),
        ("pin", "Die Geheimzahl meiner EC-Karte lautet {pin}"),
        ("pin", "Handy-PIN {pin2}, PUK {puk}"),
        ("door_code", "Türcode fürs Haus: {code}, danach kräftig drücken"),
        ("wifi_password", "WLAN: {ssid}, Kennwort {wpw}"),
        ("wifi_password", "Unser WLAN-Schlüssel ist {wpw}"),
        ("otp", "Bestätigungscode von der {bank}: {otp}"),
        ("payment_card", "Kreditkarte {cardg}, gültig bis {exp}, Prüfnummer {cvv}"),
        ("security_answer", "Sicherheitsfrage Geburtsname der Mutter: {maiden}"),
        ("alarm_code", "Alarmanlage ausschalten mit {code2}"),
        ("lockbox_code", "Schlüsselsafe am Gartentor, Code {code2}"),
    ],
    "fr": [
        ("password", "Mon mot de passe {site} c'est {pw}"),
        ("password", "mdp {site} : {pw}"),
        ("password", "mot de pass du compte ameli: {pw}"),
        ("door_code", "Code de la porte d'entrée : {code}"),
        ("door_code", "Le digicode de l'immeuble est {code}"),
        ("wifi_password", "Code wifi : {wpw} (réseau {ssid})"),
        ("pin", "Code PIN de ma carte {bank} : {pin}"),
        ("pin", "code secret de la CB: {pin}"),
        ("otp", "Code de confirmation reçu par SMS : {otp}"),
        ("payment_card", "Carte bancaire {cardg} exp {exp} cryptogramme {cvv}"),
        ("security_answer", "Réponse à la question secrète (nom de mon premier animal) : {pet}"),
        ("alarm_code", "L'utilisateur m'a confié le code de son alarme : {code2}"),
        ("lockbox_code", "Boîte à clés devant la maison, combinaison {code2}"),
    ],
    "es": [
        ("password", "Mi contraseña de {site} es {pw}"),
        ("password", "El usuario guardó su clave de la banca en línea: {pw}"),
        ("wifi_password", "contrasena del wifi: {wpw}"),
        ("wifi_password", "Red {ssid} clave {wpw}"),
        ("pin", "El PIN de la tarjeta del {bank} es {pin}"),
        ("door_code", "Código del portal: {code}"),
        ("otp", "Código de verificación: {otp}, no lo compartas"),
        ("payment_card", "Tarjeta {cardg} vence {exp} CVV {cvv}"),
        ("security_answer", "Respuesta de seguridad - ciudad donde nací: {city}"),
        ("alarm_code", "Clave de la alarma {code2}, hay 30 segundos para marcarla"),
        ("lock_combination", "la clave del candado de la bici es {code2}"),
        ("password", "oye guardame esto: usuario {user} contraseña {pw}"),
    ],
    "it": [
        ("password", "La password di {site} è {pw}"),
        ("password", "pass {site}: {pw}"),
        ("password", "la pasword della mail è {pw}"),
        ("pin", "PIN del bancomat: {pin}"),
        ("door_code", "Codice del cancello: {code}"),
        ("wifi_password", "Password del wifi di casa: {wpw}"),
        ("otp", "Codice OTP: {otp}"),
        ("payment_card", "Carta {cardg} scadenza {exp} CVV {cvv}"),
        ("security_answer", "Domanda di sicurezza: cognome da nubile della mamma → {maiden}"),
        ("alarm_code", "Codice antifurto: {code2}"),
    ],
    "pt": [
        ("password", "Minha senha do {site} é {pw}"),
        ("wifi_password", "senha do wifi: {wpw}"),
        ("pin", "Senha do cartão {bank}: {pin}"),
        ("door_code", "Código do portão: {code}"),
        ("otp", "Código de verificação {otp}"),
        ("payment_card", "Cartão {cardg} validade {exp} CVV {cvv}"),
        ("security_answer", "Resposta secreta: nome do primeiro animal = {pet}"),
        ("alarm_code", "A senha do alarme é {code2}"),
        ("password", "senha do gov.br: {pw}"),
    ],
    "nl": [
        ("password", "Mijn {site} wachtwoord is {pw}"),
        ("wifi_password", "Wifi thuis: {ssid} / {wpw}"),
        ("pin", "Pincode van mijn {bank} pas: {pin}"),
        ("door_code", "Deurcode van de flat: {code}"),
        ("lockbox_code", "Sleutelkluisje bij de achterdeur, code {code2}"),
        ("otp", "Verificatiecode {otp}"),
        ("payment_card", "Creditcard {cardg}, geldig tot {exp}, CVC {cvv}"),
        ("password", "wachtwoord voor DigiD is {pw}"),
    ],
    "pl": [
        ("password", "Moje hasło do {site} to {pw}"),
        ("wifi_password", "haslo do wifi: {wpw}"),
        ("pin", "PIN do karty {bank}: {pin}"),
        ("door_code", "Kod do domofonu: {code}"),
        ("door_code", "Kod do bramy garażowej {code}"),
        ("otp", "Kod weryfikacyjny: {otp}"),
        ("payment_card", "Karta {cardg} ważna do {exp} CVV {cvv}"),
        ("security_answer", "Odpowiedź na pytanie bezpieczeństwa (nazwisko panieńskie matki): {maiden}"),
    ],
    "sv": [
        ("password", "Mitt lösenord till {site} är {pw}"),
        ("wifi_password", "Wifi-lösenordet hemma: {wpw}"),
        ("door_code", "Portkoden är {code}"),
        ("pin", "PIN-kod till {bank}-kortet: {pin}"),
        ("otp", "Engångskod: {otp}"),
        ("password", "losenord till mejlen: {pw}"),
    ],
    "tr": [
        ("password", "{site} şifrem {pw}"),
        ("wifi_password", "Wifi şifresi: {wpw}"),
        ("pin", "Kart şifresi (PIN): {pin}"),
        ("door_code", "Apartman kapı kodu {code}"),
        ("otp", "Doğrulama kodu: {otp}"),
        ("payment_card", "Kredi kartı {cardg} son kullanma {exp} CVV {cvv}"),
        ("password", "sifrem {pw} unutma"),
    ],
    "id": [
        ("password", "Password {site} saya {pw}"),
        ("wifi_password", "kata sandi wifi rumah: {wpw}"),
        ("pin", "PIN ATM {bank}: {pin}"),
        ("door_code", "Kode pintu kos: {code}"),
        ("otp", "Kode OTP dari {bank}: {otp}, jangan dikasih ke siapa2"),
        ("payment_card", "Kartu kredit {cardg} exp {exp} cvv {cvv}"),
    ],
    "ru": [
        ("password", "Мой пароль от {site}: {pw}"),
        ("wifi_password", "Пароль от вайфая: {wpw}"),
        ("pin", "ПИН-код карты {bank}: {pin}"),
        ("door_code", "Код домофона {code}"),
        ("otp", "Код подтверждения: {otp}"),
        ("payment_card", "Карта {cardg}, срок {exp}, CVV {cvv}"),
        ("password", "parol ot pochty {pw}"),
    ],
    "ja": [
        ("password", "{site}のパスワードは{pw}です"),
        ("wifi_password", "Wi-Fiのパスワード：{wpw}"),
        ("pin", "キャッシュカードの暗証番号は{pin}"),
        ("door_code", "玄関のオートロック番号：{code}"),
        ("otp", "認証コード {otp}"),
        ("payment_card", "クレジットカード {cardg} 有効期限{exp} セキュリティコード{cvv}"),
    ],
    "zh": [
        ("password", "我的{site}密码是{pw}"),
        ("wifi_password", "家里WiFi密码：{wpw}"),
        ("pin", "银行卡密码{pin}，别告诉别人"),
        ("door_code", "门禁密码：{code}"),
        ("otp", "验证码：{otp}"),
        ("payment_card", "信用卡 {cardg} 有效期 {exp} 安全码 {cvv}"),
    ],
    "ko": [
        ("password", "{site} 비밀번호는 {pw}"),
        ("wifi_password", "와이파이 비번: {wpw}"),
        ("pin", "카드 비밀번호 {pin2}"),
        ("door_code", "현관 비밀번호 {code}"),
        ("otp", "인증번호 [{otp}]"),
    ],
    "cs": [
        ("password", "Heslo do {site}: {pw}"),
        ("wifi_password", "heslo na wifi je {wpw}"),
        ("pin", "PIN ke kartě {pin}"),
        ("door_code", "Kód od vchodu: {code}"),
        ("otp", "Ověřovací kód {otp}"),
    ],
    "vi": [
        ("password", "mat khau {site} cua minh la {pw}"),
        ("wifi_password", "pass wifi nha: {wpw}"),
        ("pin", "ma PIN the ATM {bank}: {pin}"),
        ("otp", "ma OTP: {otp}"),
        ("door_code", "ma cua chung cu {code}"),
    ],
    "hi": [
        ("password", "mera {site} ka password {pw} hai"),
        ("wifi_password", "ghar ka wifi password {wpw} hai"),
        ("pin", "ATM pin {pin} hai, kisi ko mat batana"),
        ("otp", "OTP {otp} aaya hai, jaldi daalo"),
        ("password", "मेरा {site} पासवर्ड {pw} है"),
    ],
}


def pctx(lang="en"):
    c = ctx_personal(lang)
    c["site2"] = pick(SITES)
    c["memword"] = pick([pick(CITIES), pick(PETS), pick(BIP39).capitalize(), pick(CARS)])
    words = c["seed"].split()
    c["seed_numbered"] = "\n".join(f"{i + 1}. {w}" for i, w in enumerate(words))
    return c


FILL_EN = [
    "The plants in the living room need water every three days, the cactus only once a week.",
    "Please take the recycling out on Tuesday evening; the bins go to the curb by the lamp post.",
    "The cat gets half a pouch in the morning and dry food in the evening, she will pretend she wasn't fed.",
    "The heating is on a timer, don't touch the thermostat unless it drops below 17 degrees.",
    "Our neighbour Rita at number 12 has a spare key too and is happy to help.",
    "If the power trips, the fuse box is in the hallway cupboard behind the coats.",
    "We're back on Sunday around 8pm, flight gets in at 6.",
    "Help yourself to anything in the fridge, the pasta sauce needs using up.",
    "The dishwasher is a bit temperamental - press start twice.",
    "Parking is free on the street after 6pm but not in front of the garage.",
    "Mail can go on the kitchen table, no need to forward anything.",
    "The vet's number is on the fridge in case anything happens with the dog.",
    "Trip planning: we land at 10:40, pick up the rental car, and drive two hours to the coast.",
    "Remember to book the restaurant for Saturday and buy sunscreen.",
    "Meeting notes: the Q3 roadmap slipped by two weeks, design review moved to Thursday.",
    "Groceries: oat milk, eggs, spinach, rice, coffee beans, dish soap.",
]
FILL_ML = {
    "de": ["Die Pflanzen im Wohnzimmer brauchen alle drei Tage Wasser.", "Der Müll wird am Dienstag abgeholt.",
           "Die Katze bekommt morgens einen halben Beutel Nassfutter.", "Wir sind am Sonntag gegen 20 Uhr zurück.",
           "Der Sicherungskasten ist im Flurschrank hinter den Jacken.", "Im Kühlschrank ist noch Lasagne, bitte essen.",
           "Die Heizung läuft über eine Zeitschaltuhr, bitte nicht verstellen.",
           "Frau Becker von nebenan hat auch einen Ersatzschlüssel.", "Die Post einfach auf den Küchentisch legen.",
           "Die Spülmaschine muss man zweimal starten, sie spinnt ein bisschen.",
           "Parken ist ab 18 Uhr auf der Straße kostenlos."],
    "fr": ["Les plantes du salon doivent être arrosées tous les trois jours.", "Les poubelles sortent le mardi soir.",
           "Le chat mange un demi-sachet le matin.", "Nous rentrons dimanche vers 20h.",
           "Le compteur électrique est dans le placard de l'entrée.", "Servez-vous dans le frigo, il reste des lasagnes.",
           "Le chauffage est programmé, merci de ne pas toucher au thermostat.",
           "Madame Petit au numéro 12 a aussi un double des clés.", "Le courrier peut rester sur la table de la cuisine.",
           "Le lave-vaisselle est capricieux, il faut appuyer deux fois.", "Le stationnement est gratuit après 19h."],
    "es": ["Las plantas del salón necesitan agua cada tres días.", "La basura se saca el martes por la noche.",
           "El gato come medio sobre por la mañana.", "Volvemos el domingo sobre las ocho.",
           "El cuadro eléctrico está en el armario del pasillo.", "Hay lasaña en la nevera, cómetela.",
           "La calefacción tiene temporizador, no toques el termostato.",
           "La vecina del segundo también tiene una copia de la llave.", "Deja el correo en la mesa de la cocina.",
           "El lavavajillas es un poco caprichoso, hay que darle dos veces.", "Se puede aparcar gratis después de las 8."],
    "it": ["Le piante in salotto vanno annaffiate ogni tre giorni.", "La spazzatura si porta fuori il martedì sera.",
           "Il gatto mangia mezza bustina la mattina.", "Torniamo domenica verso le otto.",
           "Il riscaldamento è programmato, non toccare il termostato.", "La posta lasciala sul tavolo della cucina.",
           "La signora del terzo piano ha una copia delle chiavi.", "In frigo c'è ancora della lasagna, mangiala pure.",
           "La lavastoviglie va avviata due volte.", "Il contatore è nell'armadio dell'ingresso."],
    "nl": ["De planten in de woonkamer hebben elke drie dagen water nodig.", "De vuilnis gaat dinsdagavond buiten.",
           "De kat krijgt 's ochtends een half zakje.", "We zijn zondag rond acht uur terug.",
           "De verwarming staat op een timer, niet aan de thermostaat zitten.", "De post mag op de keukentafel.",
           "De buurvrouw op nummer 12 heeft ook een reservesleutel.", "In de koelkast staat nog lasagne.",
           "De vaatwasser moet je twee keer aanzetten.", "De meterkast zit in de gang achter de jassen."],
}


def gen_personal_plain():
    # English: every frame at least once, most twice
    for kind, tpl in EN_FRAMES:
        for _ in range(2 if chance(0.62) else 1):
            c = pctx("en")
            v = fill(tpl, c)
            if not is_dup(v):
                add("secret", "plain", "personal-en", kind, v)
    for lang, frames in ML_FRAMES.items():
        for kind, tpl in frames:
            for _ in range(2 if chance(0.3) else 1):
                c = pctx(lang)
                v = fill(tpl, c)
                if not is_dup(v):
                    add("secret", "plain", "personal-" + lang, kind, v)


def gen_personal_long(n):
    langs = ["en", "en", "en", "de", "fr", "es", "it", "nl"]
    for _ in range(n):
        lang = pick(langs)
        if lang == "en":
            kind, tpl = pick(EN_FRAMES[:100])
            filler = FILL_EN
        else:
            kind, tpl = pick(ML_FRAMES[lang])
            filler = FILL_ML[lang]
        c = pctx(lang)
        secret_sentence = fill(tpl, c).replace("\n", " ")
        chosen = R.sample(filler, min(len(filler), R.randrange(7, 11)))
        cut = len(chosen) // 2 + R.randrange(-1, 2)
        text = " ".join(chosen[:cut]) + " " + secret_sentence.rstrip(".") + ". " + " ".join(chosen[cut:])
        add("secret", "hard", "buried-long", kind, text)


# ---- cue based items for evasions
CUES = {
    "pin": ["my {bank} card PIN", "bank card PIN", "debit PIN", "SIM card PIN", "phone unlock code",
            "PIN for Dad's card", "credit card PIN", "voicemail PIN"],
    "door_code": ["front door code", "gate code", "garage door code", "building entry code",
                  "side door keypad code", "Airbnb door code", "code for the back gate"],
    "alarm_code": ["alarm code", "code to disarm the alarm", "security system code"],
    "lockbox_code": ["key box code", "lockbox code"],
    "lock_combination": ["safe combination", "bike lock combination", "locker combo"],
    "password": ["{site} password", "email password", "router admin password", "laptop password",
                 "Mum's {site} password", "{bank} online banking password", "work VPN password"],
    "wifi_password": ["wifi password", "home wifi password", "guest wifi key", "wifi pass for {ssid}"],
    "otp": ["login code", "2FA code", "verification code from {bank}"],
    "security_answer": ["answer to the security question (mother's maiden name)",
                        "first pet's name for the bank security question", "memorable word for phone banking"],
}
ML_CUES = {
    "de": {"pin": "PIN meiner Karte", "door_code": "Türcode", "alarm_code": "Alarmcode"},
    "fr": {"pin": "code de ma carte bleue", "door_code": "code de la porte", "alarm_code": "code de l'alarme"},
    "es": {"pin": "PIN de la tarjeta", "door_code": "código del portal", "alarm_code": "clave de la alarma"},
    "it": {"pin": "PIN del bancomat", "door_code": "codice del cancello", "alarm_code": "codice dell'allarme"},
    "pt": {"pin": "senha do cartão", "door_code": "código do portão", "alarm_code": "senha do alarme"},
    "nl": {"pin": "pincode", "door_code": "deurcode", "alarm_code": "alarmcode"},
    "pl": {"pin": "PIN do karty", "door_code": "kod do domofonu", "alarm_code": "kod alarmu"},
    "sv": {"pin": "PIN-koden", "door_code": "portkoden", "alarm_code": "larmkoden"},
    "tr": {"pin": "kart şifresi", "door_code": "kapı kodu", "alarm_code": "alarm kodu"},
    "id": {"pin": "PIN ATM", "door_code": "kode pintu", "alarm_code": "kode alarm"},
    "ru": {"pin": "ПИН-код карты", "door_code": "код домофона", "alarm_code": "код сигнализации"},
    "ja": {"pin": "暗証番号", "door_code": "玄関の暗証番号", "alarm_code": "警報の解除コード"},
}
ML_IS = {"de": "ist", "fr": "est", "es": "es", "it": "è", "pt": "é", "nl": "is", "pl": "to", "sv": "är",
         "tr": ":", "id": "adalah", "ru": "—", "ja": "は"}


def cue_item(kind=None, numeric=None):
    """returns (kind, cue, secret)"""
    if kind is None:
        pool = ["pin", "pin", "door_code", "door_code", "alarm_code", "lockbox_code", "lock_combination", "otp"] \
            if numeric else ["password", "password", "password", "wifi_password", "security_answer", "pin",
                             "door_code", "otp", "alarm_code", "password", "wifi_password"]
        kind = pick(pool)
    c = pctx("en")
    c["site"] = pick(BRAND_SITES)
    cue = fill(pick(CUES[kind]), c)
    if kind in ("pin", "alarm_code", "lockbox_code"):
        s = pin() if kind == "pin" else pin(4)
    elif kind == "door_code":
        s = digits(pick([4, 4, 5, 6]))
    elif kind == "lock_combination":
        s = digits(pick([3, 4, 4]))
    elif kind == "otp":
        s = otp()
    elif kind == "password":
        s = password()
        while " " in s:
            s = password()
    elif kind == "wifi_password":
        s = pick([rs(AN, R.randrange(10, 15)), password(), pick(BIP39) + pick(BIP39).capitalize() + digits(2)])
        while " " in s:
            s = rs(AN, 12)
    else:
        s = pick([pick(LAST), pick(PETS), pick(CITIES), pick(BIP39).capitalize() + digits(2)])
    return kind, cue, s


def cap(s):
    return s[:1].upper() + s[1:]


def personal_hard_one(t):
    """one evasion record; returns (tech, kind, value, ns, key)"""
    ns, key = None, None
    if t == "spaced":
        kind, cue, s = cue_item()
        return t, kind, pick([f"{cap(cue)}: {ev_spaced(s)}", f"{cap(cue)} is {ev_spaced(s)}",
                              f"writing it with spaces so I can read it: {cue} = {ev_spaced(s)}"]), ns, key
    if t == "separators":
        kind, cue, s = cue_item()
        sep = pick([".", "-", "/", "·", "_", " - ", "|"])
        return t, kind, pick([f"{cap(cue)} {ev_spaced(s, sep)}", f"remember {cue}: {ev_spaced(s, sep)}"]), ns, key
    if t == "words":
        lang = pick(["en", "en", "en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "tr", "id", "ru", "ja"])
        kind, cue, s = cue_item(numeric=True)
        if lang != "en" and kind in ML_CUES.get(lang, {}):
            cue = ML_CUES[lang][kind]
            return t, kind, f"{cap(cue)} {ML_IS[lang]} {ev_words(s, lang)}", ns, key
        if lang != "en":
            kind = "pin"
            return t, kind, f"{cap(ML_CUES[lang]['pin'])} {ML_IS[lang]} {ev_words(s, lang, pick([' ', '-', ', ']))}", ns, key
        return t, kind, pick([f"The {cue} is {ev_words(s)}", f"{cue}: {ev_words(s, 'en', '-')}",
                              f"{cap(cue)} - {ev_words(s, 'en', ', ')}.",
                              f"so the {cue} is {ev_words(s).upper()}"]), ns, key
    if t == "mixed-words":
        kind, cue, s = cue_item(numeric=True)
        return t, kind, f"{cap(cue)}: {ev_mixed_words(s)}", ns, key
    if t == "keycap":
        kind, cue, s = cue_item(numeric=True)
        return t, kind, pick([f"{cap(cue)} {ev_keycap(s)}", f"🔐 {cue} → {ev_keycap(s)}"]), ns, key
    if t == "fullwidth":
        kind, cue, s = cue_item()
        return t, kind, f"{cap(cue)}：{ev_fullwidth(s)}", ns, key
    if t == "nato":
        kind, cue, s = cue_item(kind=pick(["password", "wifi_password", "door_code"]))
        if kind == "password":
            s = rs(LO, 3) + digits(3) + pick(UP)
        return t, kind, f"Reading out the {cue} over the phone: {ev_nato(s)}", ns, key
    if t == "split-fields":
        kind, cue, s = cue_item(numeric=chance(0.6))
        a, b = ev_split(s, 2)
        base = kind.replace("_code", "").replace("_password", "").replace("lock_combination", "combo")
        if chance(0.5):
            return t, kind, {f"{base}_part1": a, f"{base}_part2": b, "label": cue}, ns, key
        return t, kind, {"label": cue, "first": a, "second": b, "note": "put them together"}, ns, key
    if t == "digit-list":
        kind, cue, s = cue_item(numeric=True)
        return t, kind, pick([{"note": cue, "digits": [int(d) for d in s]},
                              {"what": cue, "sequence": list(s)},
                              [cue] + [int(d) for d in s]]), ns, key
    if t == "split-list":
        kind, cue, s = cue_item()
        parts = ev_split(s, R.randrange(2, 4))
        return t, kind, {"items": [cue] + [f"part {i + 1}: {p}" for i, p in enumerate(parts)]}, ns, key
    if t == "chat-split":
        kind, cue, s = cue_item()
        parts = ev_split(s, R.randrange(2, 4))
        msgs = [{"role": "user", "content": f"ok saving the {cue}, sending it in pieces"}] + \
               [{"role": "user", "content": p} for p in parts] + [{"role": "assistant", "content": "Got it."}]
        return t, kind, {"messages": msgs}, ns, key
    if t == "reversed":
        kind, cue, s = cue_item()
        return t, kind, pick([f"{cap(cue)} (backwards): {ev_rev(s)}",
                              f"read it right-to-left: {ev_rev(s)} <- {cue}",
                              f"{cue} reversed so nobody reads it over my shoulder: {ev_rev(s)}"]), ns, key
    if t == "b64":
        kind, cue, s = cue_item()
        return t, kind, pick([f"{cap(cue)} in base64: {ev_b64(s)}", f"{cue} (b64) {ev_b64(s)}",
                              f"echo {ev_b64(s)} | base64 --decode   # {cue}"]), ns, key
    if t == "hex":
        kind, cue, s = cue_item()
        return t, kind, f"{cap(cue)} as hex: {ev_hex(s)}", ns, key
    if t == "rot13":
        kind, cue, s = cue_item(kind=pick(["password", "wifi_password", "security_answer"]))
        return t, kind, pick([f"rot13 of my {cue}: {ev_rot13(s)}", f"{cap(cue)} (rot13'd) {ev_rot13(s)}"]), ns, key
    if t == "homoglyph":
        kind, cue, s = cue_item(kind=pick(["password", "password", "wifi_password", "security_answer"]))
        h = ev_homoglyph(s)
        cue_h = ev_homoglyph(cue) or cue
        if h is None:
            h = s
        return t, kind, pick([f"{cap(cue_h)}: {h}", f"my {cue_h} is {h}"]), ns, key
    if t == "zero-width":
        kind, cue, s = cue_item()
        cue_z = ev_zw(cue) if chance(0.5) else cue
        return t, kind, f"{cap(cue_z)}: {ev_zw(s)}", ns, key
    if t == "leet-cue":
        kind, cue, s = cue_item(kind=pick(["password", "password", "pin", "wifi_password"]))
        word = pick(["p4ssw0rd", "pa$$word", "passw*rd", "p@ss", "pw", "pwd", "passwd", "P@55", "pw0rd", "l0gin"]) \
            if kind != "pin" else pick(["p1n", "P.I.N.", "piN", "p!n"])
        thing = {"pin": pick(["bank card", "debit", "sim"]), "wifi_password": pick(["wifi", "wlan", "home wifi"])}.get(
            kind, pick([pick(BRAND_SITES), "email", "bank", "laptop"]))
        return t, kind, pick([f"{thing} {word}: {s}", f"{word} 4 {thing} = {s}", f"{thing} -> {word} {s}"]), ns, key
    if t == "secret-in-key":
        kind, cue, s = cue_item()
        slug = re.sub(r"[^a-z0-9]+", "_", cue.lower()).strip("_")[:24]
        return t, kind, {"text": pick([f"saved the {cue} (see key)", "reminder", f"{cue}"])}, ns, \
            pick([f"{slug}_{s}", f"{slug}:{s}", f"{s}"])
    if t == "secret-in-namespace":
        kind, cue, s = cue_item()
        slug = re.sub(r"[^a-z0-9]+", "-", cue.lower()).strip("-")[:24]
        return t, kind, {"text": f"stuff about the {cue.split()[-1]}"}, ["memories", user_id(), f"{slug}-{s}"], key
    if t == "markdown-table":
        rows = []
        kinds = []
        for _ in range(R.randrange(2, 4)):
            kind, cue, s = cue_item()
            rows.append(f"| {cue} | {s} |")
            kinds.append(kind)
        return t, kinds[0], "| what | value |\n|---|---|\n" + "\n".join(rows), ns, key
    if t == "csv":
        kind, cue, s = cue_item(kind=pick(["password", "pin", "wifi_password"]))
        return t, kind, pick([f"label,value\n{cue},{s}\nfavourite colour,green",
                              f"account;user;secret\n{cue};{username()};{s}"]), ns, key
    if t == "yaml":
        kind, cue, s = cue_item()
        k = re.sub(r"[^a-z0-9]+", "_", cue.lower()).strip("_")
        return t, kind, f"home:\n  {k}: \"{s}\"\n  trash_day: tuesday\n  plants: water every 3 days", ns, key
    if t == "ini":
        kind, cue, s = cue_item()
        k = re.sub(r"[^a-z0-9]+", "_", cue.lower()).strip("_")
        return t, kind, f"[house]\n{k} = {s}\nheating = timer\n", ns, key
    if t == "json-string":
        kind, cue, s = cue_item()
        return t, kind, {"payload": json.dumps({"note": cue, "value": s}, ensure_ascii=False)}, ns, key
    if t == "sql":
        kind, cue, s = cue_item(kind="password")
        u = email()
        return t, kind, pick([f"INSERT INTO accounts (email, password) VALUES ('{u}', '{s}');",
                              f"UPDATE users SET password = '{s}' WHERE email = '{u}';"]), ns, key
    if t == "shell":
        kind, cue, s = cue_item(kind=pick(["password", "wifi_password"]))
        if kind == "wifi_password":
            ss = pick(SSIDS)
            return t, kind, pick([f"nmcli dev wifi connect '{ss}' password '{s}'",
                                  f"wpa_passphrase \"{ss}\" \"{s}\" >> /etc/wpa_supplicant.conf"]), ns, key
        u = username()
        return t, kind, pick([f"mysql -u {u} -p{s} -h 127.0.0.1 shop", f"sshpass -p {s} ssh {u}@192.168.1.{R.randrange(2, 250)}",
                              f"curl -u {u}:{s} http://192.168.1.1/cgi-bin/status",
                              f"git clone https://{u}:{s}@git.home.lan/notes.git",
                              f"7z a -p{s} backup.7z ~/Documents"]), ns, key
    if t == "code-comment":
        kind, cue, s = cue_item()
        return t, kind, pick([f"def unlock():\n    # {cue} = {s}\n    pass",
                              f"// reminder: {cue} is {s}\nconsole.log('ok');",
                              f"<!-- {cue}: {s} -->\n<p>Welcome home!</p>"]), ns, key
    if t == "card-evasion":
        brand, num, grouped, exp, cvv = card()
        r = R.randrange(6)
        if r == 0:
            return "split-fields", "payment_card", {"cc_a": num[:8], "cc_b": num[8:], "mm_yy": exp, "sec": cvv}, ns, key
        if r == 1:
            return "words", "payment_card", f"card {ev_words(num)} exp {exp} cvv {ev_words(cvv)}", ns, key
        if r == 2:
            return "separators", "payment_card", f"{brand}: {ev_spaced(num, '.')} / {exp} / {cvv}", ns, key
        if r == 3:
            return "reversed", "payment_card", f"cc backwards {ev_rev(num)} exp {exp} cvc {cvv}", ns, key
        if r == 4:
            return "chat-split", "payment_card", {"messages": [
                {"role": "user", "content": "card for the hotel, first half " + num[:8]},
                {"role": "user", "content": "second half " + num[8:]},
                {"role": "user", "content": f"exp {exp} and the 3 digits on the back {cvv}"}]}, ns, key
        return "b64", "payment_card", f"card (b64): {ev_b64(num + ' ' + exp + ' ' + cvv)}", ns, key
    if t == "seed-evasion":
        words = seed_phrase().split()
        r = R.randrange(4)
        if r == 0:
            half = len(words) // 2
            return "split-fields", "recovery_phrase", {"wallet": pick(["Ledger", "MetaMask"]),
                                                       "words_1": " ".join(words[:half]),
                                                       "words_2": " ".join(words[half:])}, ns, key
        if r == 1:
            return "split-list", "recovery_phrase", {"items": words}, ns, key
        if r == 2:
            return "b64", "recovery_phrase", f"wallet backup: {ev_b64(' '.join(words))}", ns, key
        return "separators", "recovery_phrase", "seed: " + "/".join(words), ns, key
    raise ValueError(t)


PERSONAL_HARD_TECHS = ["spaced", "separators", "words", "words", "words", "mixed-words", "keycap", "fullwidth",
                       "nato", "split-fields", "split-fields", "digit-list", "split-list", "chat-split", "reversed",
                       "b64", "hex", "rot13", "homoglyph", "homoglyph", "zero-width", "zero-width", "leet-cue",
                       "secret-in-key", "secret-in-key", "secret-in-namespace", "markdown-table", "csv", "yaml",
                       "ini", "json-string", "sql", "shell", "code-comment", "card-evasion", "card-evasion",
                       "seed-evasion"]


def gen_personal_hard(n):
    # every technique at least twice, the rest random
    order = PERSONAL_HARD_TECHS * 2
    while len(order) < n:
        order.append(pick(PERSONAL_HARD_TECHS))
    for t in order[:n]:
        tech, kind, value, ns, key = personal_hard_one(t)
        add("secret", "hard", tech, kind, value, ns=ns, key=key)


# =========================================================================== benign look-alikes
DOCTORS = ["Dr. Weber", "Dr. Moreau", "Dr. Okafor", "Dr. Tanaka", "Dr. Lindqvist", "Dr. Haddad", "Dr. Rossi",
           "Dr. Patel", "Dr. Nowak", "Dr. Kim"]
MEDS = [("Metformin", ["500 mg twice daily", "850 mg with breakfast", "1000 mg at night"]),
        ("Levothyroxine", ["50 mcg every morning on an empty stomach", "75 mcg before breakfast", "100 µg daily"]),
        ("Atorvastatin", ["20 mg at night", "40 mg once daily"]),
        ("Lisinopril", ["10 mg each morning", "5 mg daily"]),
        ("Sertraline", ["50 mg daily", "100 mg with food"]),
        ("Ibuprofen", ["400 mg max 3x a day", "200 mg as needed"]),
        ("Insulin glargine", ["18 units at 22:00", "24 units before bed"]),
        ("Vitamin D", ["1000 IU daily", "20 000 IU once a week"]),
        ("Amoxicillin", ["500 mg three times a day for 7 days"]),
        ("Ramipril", ["2.5 mg morning"]), ("Omeprazole", ["20 mg before breakfast"]),
        ("Methotrexate", ["15 mg every Monday (weekly, NOT daily)"]), ("Warfarin", ["3 mg, target INR 2.0-3.0"])]
SHOPS = ["Amazon", "IKEA", "Zalando", "MediaMarkt", "Decathlon", "Etsy", "eBay", "Bol.com", "Allegro",
         "Fnac", "El Corte Inglés", "Target", "Best Buy", "Otto", "Coolblue"]
AIRL = ["LH", "BA", "AF", "KL", "IB", "AZ", "TP", "SK", "TK", "GA", "SU", "NH", "CA", "KE", "LX", "EW", "FR", "U2"]


def phone_number():
    return pick(["+49 30 " + digits(7), "+44 20 7946 " + digits(4), "+33 1 " + " ".join(digits(2) for _ in range(4)),
                 "+34 91 " + digits(3) + " " + digits(2) + " " + digits(2), "+39 02 " + digits(8),
                 "+31 20 " + digits(3) + " " + digits(4), "+48 22 " + digits(3) + " " + digits(2) + " " + digits(2),
                 "(555) 01" + digits(1) + "-" + digits(4), "+1 415-555-01" + digits(2), "+81 3-" + digits(4) + "-" + digits(4),
                 "+90 212 " + digits(3) + " " + digits(2) + " " + digits(2), "+62 21 " + digits(8),
                 "030 " + digits(8), "06-" + digits(8), "+46 8 " + digits(3) + " " + digits(3) + " " + digits(2)])


def date_str():
    y, m, d = R.randrange(2024, 2027), R.randrange(1, 13), R.randrange(1, 29)
    return pick([f"{y}-{m:02d}-{d:02d}", f"{d:02d}.{m:02d}.{y}", f"{m}/{d}/{y}", f"{d} {MONTHS[m - 1]} {y}"])


def time_str():
    return "%02d:%02d" % (R.randrange(7, 21), pick([0, 15, 30, 45, 10, 40]))


def isbn13():
    core = "978" + digits(9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(core))
    full = core + str((10 - s % 10) % 10)
    return pick([full, f"{full[:3]}-{full[3]}-{full[4:8]}-{full[8:12]}-{full[12]}"])


def vin():
    alpha = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    return pick(["WVW", "WBA", "VF1", "ZFA", "JTD", "1HG", "5YJ", "TMB", "SAL"]) + rs(alpha, 14)


def imei():
    return luhn(digits(8), 15)


def b(source, kind, value, variant="hard"):
    add("benign", variant, source, kind, value)


def g_order():
    n = R.randrange(8)
    if n == 0:
        return "order_number", f"Amazon order {digits(3)}-{digits(7)}-{digits(7)} should arrive {pick(['Tuesday', 'Thursday', 'next week'])}"
    if n == 1:
        return "order_number", f"Order #{R.randrange(1000, 99999)} from {pick(SHOPS)} - return window ends {date_str()}"
    if n == 2:
        return "order_number", f"eBay order {digits(2)}-{digits(5)}-{digits(5)}: vintage lamp, paid, seller ships Monday"
    if n == 3:
        return "order_number", f"Zalando Bestellnummer 10{digits(8)} - Schuhe zurückschicken bis Freitag"
    if n == 4:
        return "order_number", f"IKEA order number {digits(10)}, delivery slot {pick(['Sat 8-12', 'Mon 13-17'])}"
    if n == 5:
        return "order_number", f"Numéro de commande : FR{digits(9)} (livraison en point relais)"
    if n == 6:
        return "order_number", {"shop": pick(SHOPS), "order_id": f"{rs(ANU, 3)}-{digits(6)}", "status": "shipped",
                                "total": f"{R.randrange(10, 400)}.{digits(2)} EUR"}
    return "order_number", f"Pedido nº {digits(8)} en {pick(SHOPS)}, llega el {pick(['lunes', 'jueves'])}"


def g_tracking():
    n = R.randrange(7)
    if n == 0:
        return "tracking_number", f"UPS tracking 1Z{rs(ANU, 6)}{digits(2)}{digits(8)}"
    if n == 1:
        return "tracking_number", f"USPS tracking: 9400 1{digits(3)} {digits(4)} {digits(4)} {digits(4)} {digits(2)}"
    if n == 2:
        return "tracking_number", f"FedEx {digits(12)} - signature required"
    if n == 3:
        return "tracking_number", f"DHL Sendungsnummer {digits(10)}, Abholung in der Packstation"
    if n == 4:
        return "tracking_number", f"Royal Mail tracked: {rs(UP, 2)}{digits(9)}GB"
    if n == 5:
        return "tracking_number", f"PostNL track & trace 3S{rs(ANU, 4)}{digits(7)}"
    return "tracking_number", {"carrier": pick(["DPD", "GLS", "Hermes", "InPost"]), "tracking": digits(14),
                               "expected": date_str()}


def g_flight():
    n = R.randrange(6)
    al = pick(AIRL)
    if n == 0:
        return "booking_reference", f"Flight {al}{R.randrange(100, 9999)} to {pick(CITIES)} departs {time_str()}, booking ref {rs('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 6)}"
    if n == 1:
        return "booking_reference", f"E-ticket number {digits(3)}-{digits(10)}, seat {R.randrange(1, 40)}{pick('ABCDEF')}"
    if n == 2:
        return "booking_reference", f"Train to {pick(CITIES)}: coach {R.randrange(1, 14)}, seat {R.randrange(11, 98)}, order {rs(ANU, 6)}"
    if n == 3:
        return "booking_reference", {"trip": pick(CITIES), "pnr": rs(UP, 6), "flight": f"{al} {R.randrange(100, 999)}",
                                     "gate": f"{pick('ABCDE')}{R.randrange(1, 60)}", "boarding": time_str()}
    if n == 4:
        return "booking_reference", f"Rental car confirmation {rs(ANU, 10)} - pick up at terminal 2"
    return "booking_reference", f"Buchungsnummer Ferienwohnung: {digits(9)}, Check-in ab 16 Uhr"


def g_hotel():
    return "confirmation_number", pick([
        f"Hotel confirmation #{digits(R.randrange(8, 11))}, check-in after 15:00",
        f"Booking.com reservation {digits(10)} for {R.randrange(2, 6)} nights in {pick(CITIES)}",
        f"Restaurant reservation under {pick(LAST)}, ref {rs(ANU, 7)}, {time_str()}",
        f"Concert tickets order {digits(9)} - section {pick('ABCDEFG')}, row {R.randrange(1, 30)}",
        f"Numéro de réservation hôtel : {digits(8)}"])


def g_phone():
    return "phone_number", pick([
        f"{pick(DOCTORS)}'s office: {phone_number()}",
        f"Plumber who fixed the boiler: {pick(FIRST)} {phone_number()}",
        f"Emergency contact is my sister {pick(FIRST)} - {phone_number()}",
        f"Vet (night service) {phone_number()}",
        f"New number for Mum: {phone_number()}",
        f"Kita Telefon {phone_number()}, Notfall Durchwahl -{digits(2)}",
        f"Taxi in {pick(CITIES)}: {phone_number()}",
        f"Landlord {pick(FIRST)} {pick(LAST)}: {phone_number()} (text first, don't call)"])


def g_address():
    return "address", pick([
        f"New address: {pick(STREETS)} {R.randrange(1, 200)}, {digits(5)} {pick(CITIES)}",
        f"Ship the gift to {pick(FIRST)} at {R.randrange(1, 300)} {pick(STREETS)}, {pick(['SW1A 1AA', 'EC2A 4BX', 'M1 2AB'])}",
        f"Grandma's address: {pick(STREETS)} {R.randrange(1, 99)}/{R.randrange(1, 20)}, {digits(2)}-{digits(3)} {pick(['Kraków', 'Gdańsk'])}",
        f"Office moved to floor {R.randrange(2, 30)}, {R.randrange(100, 999)} {pick(['Market St', 'Main St'])}, CA {digits(5)}",
        f"PO Box {digits(4)}, {pick(CITIES)} {digits(4)}"])


def g_datetime():
    return pick([
        ("appointment", f"Dentist on {date_str()} at {time_str()}"),
        ("date", f"Our anniversary is {date_str()}"),
        ("date", f"Kids' birthdays: {pick(FIRST)} {date_str()}, {pick(FIRST)} {date_str()}"),
        ("date", f"Car inspection due {date_str()}"),
        ("date", f"Passport expires {date_str()}, renew 6 months before"),
        ("appointment", f"Parent-teacher meeting {date_str()} {time_str()}, room {R.randrange(100, 400)}"),
        ("appointment", f"Physio every {pick(['Monday', 'Wednesday'])} {time_str()}-{time_str()}")])


def g_price():
    return "price", pick([
        f"The sofa was €{R.randrange(400, 2500)},{digits(2)}, delivery {R.randrange(20, 90)}.90",
        f"Rent is {R.randrange(800, 2400)} per month, due on the {pick(['1st', '3rd', '5th'])}",
        f"Electricity bill: {R.randrange(40, 200)}.{digits(2)} EUR for {digits(4)} kWh",
        f"Paid ${R.randrange(10, 300)}.{digits(2)} for the concert, split 4 ways",
        f"Budget for the trip: {R.randrange(1000, 5000)} total, {R.randrange(50, 200)}/day food",
        f"Mortgage rate fixed at {R.randrange(2, 5)}.{digits(2)}% until {R.randrange(2028, 2036)}"])


def g_dose():
    m, doses = pick(MEDS)
    return "medication_dose", pick([
        f"{m} {pick(doses)}",
        f"User takes {m} {pick(doses)}; prescribed by {pick(DOCTORS)}",
        f"Remind me: {m} {pick(doses)}, refill on {date_str()}",
        "Mum's meds: %s %s and %s %s" % ((m, pick(doses)) + (lambda p: (p[0], pick(p[1])))(pick(MEDS))),
        f"Medikament: {m}, Dosis {pick(doses)}"])


def g_lab():
    return "lab_value", pick([
        f"Blood test {date_str()}: HbA1c {R.randrange(50, 75) / 10}%, LDL {R.randrange(80, 190)} mg/dL, TSH {R.randrange(50, 450) / 100}",
        f"BP this morning {R.randrange(105, 150)}/{R.randrange(65, 95)}, pulse {R.randrange(52, 95)}",
        f"INR {R.randrange(15, 35) / 10} on {date_str()}, keep warfarin dose",
        f"Fasting glucose {R.randrange(80, 140)} mg/dL, ferritin {R.randrange(20, 300)} ng/mL",
        f"Vitamin D {R.randrange(10, 60)} ng/ml - doctor says to supplement",
        f"Eye prescription: R -{R.randrange(50, 400) / 100:.2f} cyl -0.50 axis {R.randrange(10, 180)}, L -{R.randrange(50, 400) / 100:.2f}"])


def g_room():
    return pick([
        ("room_number", f"Room {R.randrange(100, 4999)} at the {pick(['Marriott', 'Ibis', 'Hilton', 'NH'])}"),
        ("gate_number", f"Gate {pick('ABCDEFG')}{R.randrange(1, 70)}, boarding {time_str()}"),
        ("platform_number", f"Platform {R.randrange(1, 22)}, coach {R.randrange(1, 14)}"),
        ("locker_number", f"Gym locker number {R.randrange(1, 500)} (bring my own padlock)"),
        ("parking_spot", f"Parking spot P{R.randrange(1, 6)}-{R.randrange(1, 400)}"),
        ("table_number", f"Our table is {R.randrange(1, 40)} at the wedding"),
        ("room_number", f"Apartment {R.randrange(1, 30)}{pick('ABCD')}, ring the bell marked {pick(LAST)}"),
        ("room_number", f"Hospital ward {R.randrange(1, 12)}, bed {R.randrange(1, 40)}"),
        ("seat_number", f"Seat {R.randrange(1, 60)}{pick('ABCDEFGHJK')} on the flight, aisle"),
        ("seat_number", f"Exam hall {R.randrange(1, 9)}, desk {R.randrange(1, 300)}"),
        ("room_number", f"Office desk {R.randrange(1, 9)}.{R.randrange(100, 400)} in building {pick('ABCD')}")])


def g_isbn():
    return "isbn", pick([f"Book club pick: ISBN {isbn13()}", f"Order this for {pick(FIRST)}: {isbn13()}",
                         f"Textbook ISBN {isbn13()} (3rd edition)"])


def g_commit():
    h = rs(HEXL, 40)
    return "commit_hash", pick([f"The regression came in with commit {h}", f"deployed {h[:7]} to staging, rollback target {rs(HEXL, 7)}",
                                f"git checkout {h[:12]} to reproduce the bug",
                                {"repo": "acme/api", "sha": h, "branch": "main", "ci": "passed"},
                                f"Merge commit {h} fixed the timezone issue"])


def g_uuid():
    return "uuid", pick([f"Support ticket id {uuid4()}", f"Request ID {uuid4()} shows up in the error logs",
                         f"Device id of the old phone: {uuid4().upper()}", {"trace_id": rs(HEXL, 32), "span_id": rs(HEXL, 16)},
                         f"Calendar event uid {uuid4()}@calendar", f"Correlation-Id: {uuid4()}"])


def g_pubkey():
    n = R.randrange(8)
    if n == 0:
        return "public_key", f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} {username()}@laptop"
    if n == 1:
        return "public_key", f"Add my public key to authorized_keys: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(B64, 510)} me@desktop"
    if n == 2:
        body = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + rs(B64, 348) + "IDAQAB"
        return "public_key", "-----BEGIN PUBLIC KEY-----\n" + "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) + "\n-----END PUBLIC KEY-----"
    if n == 3:
        body = "mQINBGX" + rs(B64, 700)
        return "public_key", ("My PGP public key, feel free to share:\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" +
                              "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) + "\n=" + rs(B64, 4) +
                              "\n-----END PGP PUBLIC KEY BLOCK-----")
    if n == 4:
        return "public_key", f"age recipient (public) for the backups: age1{rs(BECH, 58)}"
    if n == 5:
        return "public_key", (f"[Peer]\nPublicKey = {base64.b64encode(rbytes(32)).decode()}\nEndpoint = {pick(['vpn.myhome.net', '203.0.113.7'])}:51820\n"
                              f"AllowedIPs = 10.8.0.0/24\nPersistentKeepalive = 25")
    if n == 6:
        body = "MIID" + rs(B64, 1100)
        return "certificate", ("-----BEGIN CERTIFICATE-----\n" + "\n".join(body[i:i + 64] for i in range(0, len(body), 64)) +
                               "\n-----END CERTIFICATE-----")
    return "key_fingerprint", f"GPG fingerprint {' '.join(rs(HEXU, 4) for _ in range(10))}"


def g_crypto_addr():
    return pick([
        ("crypto_address", f"My BTC address for donations: bc1q{rs(BECH, 38)}"),
        ("crypto_address", f"Send the USDC to 0x{rs(HEXL + 'ABCDEF', 40)} (ERC-20, my public wallet address)"),
        ("crypto_address", f"Legacy bitcoin address 1{rs(B58, 33)}"),
        ("transaction_hash", f"Transaction hash 0x{rs(HEXL, 64)} - the payment went through"),
        ("crypto_address", f"ENS name {pick(FIRST).lower().split('-')[0].encode('ascii', 'ignore').decode()}.eth resolves to 0x{rs(HEXL, 40)}"),
        ("crypto_address", f"Solana wallet (public): {rs(B58, 44)}")])


def g_publishable():
    return "publishable_key", pick([
        f"Stripe publishable key for the checkout page (safe to expose in the frontend): pk_live_{rs(AN, 24)}",
        f"Mapbox public token used in the web map: pk.{b64u_nopad(json.dumps({'u': username(), 'a': 'cl' + rs(ANL, 23)}, separators=(',', ':')).encode())}.{rs(B64U, 22)}",
        f"reCAPTCHA site key (public): 6L{rs(B64U, 38)}",
        f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_{rs(AN, 24)}",
        f"Clerk publishable key pk_live_{b64s('clerk.' + pick(['myshop.io', 'example.app']) + '$')}"])


def g_masked():
    return "masked_credential", pick([
        f"Paid with Visa ending {digits(4)}",
        f"card •••• {digits(4)} expires {R.randrange(1, 13):02d}/{R.randrange(26, 31)}",
        f"The Stripe key in the logs was sk_live_…{rs(AN, 4)} (redacted)",
        f"token: ghp_{'*' * 32}{rs(AN, 4)}",
        "password: ********",
        f"DB_PASSWORD=[REDACTED] (rotated {date_str()})",
        f"Mastercard **** **** **** {digits(4)}",
        f"api_key: \"sk-proj-****************************{rs(AN, 4)}\"",
        f"AWS key AKIA************{rs(B32, 4)} was deactivated",
        "PIN: ****",
        f"IBAN ending {digits(4)} for the refund",
        f"Authorization: Bearer <redacted>"])


def g_placeholder():
    return "placeholder_token", pick([
        "In the README: export OPENAI_API_KEY=sk-...your-key-here",
        "AWS docs example credentials: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (from the official docs, not real)",
        "Replace <YOUR_TOKEN> with your personal access token before running the script",
        "SLACK_BOT_TOKEN=xoxb-your-bot-token-here",
        "password: <your password here>",
        "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # placeholder in .env.example",
        "DATABASE_URL=postgres://<user>:<password>@<host>:5432/<db>",
        "api_key = \"YOUR_API_KEY\"",
        "Template: Authorization: Bearer {{access_token}}",
        "STRIPE_SECRET_KEY=sk_live_REPLACE_ME",
        "In the tutorial they use the dummy key 'abc123' as an example",
        "export ANTHROPIC_API_KEY=\"<paste key here>\"",
        "The example config ships with `secret: CHANGE_ME` and refuses to start until you change it"])


def g_envref():
    return "env_reference", pick([
        "password: ${DB_PASSWORD}",
        "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
        "stripe.api_key = os.environ[\"STRIPE_SECRET_KEY\"]",
        "const token = process.env.SLACK_BOT_TOKEN;",
        "db_password: \"{{ vault_db_password }}\"",
        "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db-credentials\n      key: password",
        "PGPASSWORD=$(cat /run/secrets/db_password) psql -h db -U app",
        "set API_KEY=%API_KEY%",
        "environment:\n  POSTGRES_PASSWORD_FILE: /run/secrets/postgres_password",
        "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
        "curl -H \"Authorization: Bearer $TOKEN\" https://api.github.com/user",
        "OPENAI_API_KEY=\nSTRIPE_SECRET_KEY=\nDATABASE_URL=   # fill these in locally, never commit"])


def g_secretref():
    return "secret_reference", pick([
        f"op://Personal/{pick(SITES)}/password",
        "vault kv get -field=password secret/prod/postgres",
        f"arn:aws:secretsmanager:eu-west-1:{digits(12)}:secret:prod/db-{rs(AN, 6)}",
        f"projects/{pick(['acme-prod', 'homelab'])}/secrets/db-pass/versions/latest",
        "ssm:/prod/api/stripe_key",
        f"The router password is in Bitwarden under 'Home router'",
        f"Netflix login is saved in the family 1Password vault",
        "The wifi password is printed on the card in the kitchen drawer",
        "Key for the safe deposit box is with the notary, ask for file 2231"])


PW_TALK = {
    "en": ["I changed my wifi password yesterday", "Need to reset my {site} password, the reset email never arrived",
           "Bank says my new PIN letter arrives next week", "Remind me to turn on 2FA for {site}",
           "Work requires passwords with 14+ characters and a symbol now",
           "Switching from LastPass to Bitwarden this weekend", "Don't reuse the same password for the bank!",
           "My card PIN got blocked after three wrong tries, have to call {bank}",
           "I'll tell you the door code in person, not over text", "The door code is on the note on the fridge",
           "The landlord will text us the gate code on Friday", "The lockbox code is in the Airbnb app",
           "Ask Rita next door for the alarm code", "The garage code needs changing - the old installer still knows it",
           "Alarm company comes Tuesday to reset the codes", "I forgot my Steam password again, used the reset link",
           "The bank will never ask for your OTP over the phone", "SMS codes from {bank} expire after 5 minutes",
           "Set up a passkey for {site} instead of a password", "Wrote the recovery codes on paper, they're in the safe",
           "The seed phrase for the old wallet is on a steel plate in the bank deposit box",
           "My password manager generates 24-character passwords", "Password hint: our first holiday together",
           "Security question they asked: name of first school", "New PIN pad installed on the front door today",
           "Guest wifi has its own password now, separate from ours", "Kids keep guessing the iPad passcode",
           "Don't forget: the wifi password changes when the new router arrives",
           "User does not want the assistant to store any passwords", "I got a phishing email asking for my bank PIN"],
    "de": ["Ich habe gestern mein WLAN-Passwort geändert", "Die neue PIN kommt per Post in ein paar Tagen",
           "Der Türcode steht auf dem Zettel am Kühlschrank", "Passwort vergessen, Reset-Link angefordert",
           "Die Bank fragt nie nach der TAN am Telefon"],
    "fr": ["J'ai changé le mot de passe du wifi hier", "Le code de la porte est sur le post-it du frigo",
           "La banque m'envoie un nouveau code PIN par courrier", "Ne jamais donner son code SMS au téléphone"],
    "es": ["Cambié la contraseña del wifi ayer", "El código del portal lo tiene la vecina",
           "El banco me manda el PIN nuevo por correo", "Olvidé la contraseña de Netflix otra vez"],
    "it": ["Ho cambiato la password del wifi ieri", "Il codice del cancello è sul biglietto in cucina",
           "La banca mi manda il nuovo PIN per posta"],
    "pt": ["Mudei a senha do wifi ontem", "O código do portão está no bilhete na geladeira"],
    "nl": ["Gisteren het wifi-wachtwoord veranderd", "De deurcode staat op het briefje op de koelkast"],
    "pl": ["Wczoraj zmieniłem hasło do wifi", "Kod do domofonu ma sąsiadka"],
    "ja": ["昨日Wi-Fiのパスワードを変更した", "暗証番号は銀行から郵送で届く予定"],
    "zh": ["昨天改了WiFi密码", "门禁密码在冰箱上的便签上"],
    "tr": ["Dün wifi şifresini değiştirdim", "Kapı kodu buzdolabındaki notta yazıyor"],
    "ru": ["Вчера поменял пароль от вайфая", "Код домофона у соседки"],
}


def g_talk():
    lang = pick(["en"] * 6 + list(PW_TALK))
    c = {"site": pick(SITES), "bank": pick(BANKS)}
    kind = "password_talk"
    return kind, fill(pick(PW_TALK[lang]), c)


def g_checksum():
    return "checksum", pick([
        f"SHA-256 of ubuntu-24.04-desktop-amd64.iso: {rs(HEXL, 64)}",
        f"md5sum backup.tar.gz -> {rs(HEXL, 32)}",
        f"image: ghcr.io/acme/api@sha256:{rs(HEXL, 64)}",
        f"\"integrity\": \"sha512-{base64.b64encode(rbytes(64)).decode()}\"",
        f"<script src=\"app.js\" integrity=\"sha384-{base64.b64encode(rbytes(48)).decode()}\" crossorigin=\"anonymous\"></script>",
        f"IPFS CID of the photo album: Qm{rs(B58, 44)}",
        f"Host key fingerprint for the NAS: SHA256:{rs(B64, 43)}",
        f"sha1 of the firmware file {rs(HEXL, 40)}"])


def g_net():
    return pick([
        ("ip_address", f"NAS is at 192.168.{R.randrange(0, 3)}.{R.randrange(2, 250)}, web UI on port {pick([5000, 5001, 8080, 8443])}"),
        ("mac_address", f"MAC of the printer: {':'.join(rs(HEXU, 2) for _ in range(6))}"),
        ("ip_address", f"Server IPv6 2001:db8:{rs(HEXL, 4)}::{rs(HEXL, 3)}"),
        ("ip_address", f"Pi-hole on 10.0.0.{R.randrange(2, 250)}, DNS upstream 9.9.9.9"),
        ("ip_address", f"Reserve 192.168.1.{R.randrange(20, 250)} for the TV in DHCP")])


def g_color():
    return "hex_color", pick([f"Brand colours: #{rs(HEXU, 6)}, #{rs(HEXU, 6)} and #{rs(HEXL, 6)}",
                              f"Living room paint RAL {R.randrange(1000, 9999)}, accent wall #{rs(HEXL, 6)}",
                              f"Theme: primary #{rs(HEXL, 6)}, background #{rs(HEXL, 6)}"])


def g_version():
    return "version_number", pick([
        f"iOS {R.randrange(15, 19)}.{R.randrange(0, 7)}.{R.randrange(0, 3)} broke bluetooth on my car",
        f"Running Python 3.{R.randrange(9, 14)}.{R.randrange(0, 12)}, Django {R.randrange(3, 6)}.{R.randrange(0, 3)}.{R.randrange(0, 9)}",
        f"FRITZ!OS {R.randrange(7, 9)}.{R.randrange(10, 60)} on the router", f"macOS build {R.randrange(21, 25)}{pick('ABCDEFG')}{R.randrange(100, 999)}",
        f"Firmware v{R.randrange(1, 5)}.{R.randrange(0, 20)}.{R.randrange(0, 200)}-{rs(HEXL, 7)}"])


def g_vehicle():
    return pick([
        ("vin", f"Car VIN {vin()} (for the insurance form)"), ("license_plate", f"Our plate is B-{rs(UP, 2)} {R.randrange(1, 9999)}"),
        ("license_plate", f"Rental car plate {rs(UP, 2)}{digits(2)} {rs(UP, 3)}"), ("vin", f"Fahrgestellnummer: {vin()}"),
        ("license_plate", f"Motorbike reg {rs(UP, 2)}-{digits(3)}-{rs(UP, 2)}")])


def g_serial():
    return pick([
        ("serial_number", f"Laptop serial {rs(ANU, 12)} for the warranty claim"),
        ("imei", f"Phone IMEI {imei()} (in case it gets stolen)"),
        ("serial_number", f"Dishwasher model SMV{digits(2)}{rs(ANU, 3)}, serial FD{digits(4)} {digits(6)}"),
        ("serial_number", f"Headphones model WH-1000XM{R.randrange(3, 6)}, S/N {digits(7)}"),
        ("serial_number", f"Boiler serial number {digits(2)}-{digits(6)}-{digits(4)}")])


def g_geo():
    return "coordinates", pick([f"Campsite coordinates {R.randrange(-60, 70)}.{digits(5)}, {R.randrange(-170, 170)}.{digits(5)}",
                                f"Parked the car at {R.randrange(30, 60)}.{digits(6)} N, {R.randrange(1, 30)}.{digits(6)} E",
                                f"Geocache GC{rs(ANU, 5)} at N {R.randrange(30, 60)}° {R.randrange(0, 60)}.{digits(3)} E {R.randrange(0, 30)}° {R.randrange(0, 60)}.{digits(3)}"])


def g_membership():
    return "membership_number", pick([
        f"Miles & More number {digits(4)} {digits(4)} {digits(4)} {digits(3)}",
        f"Library card number {digits(14)}", f"Costco membership {digits(12)}",
        f"Frequent flyer: {pick(AIRL)} {digits(9)}", f"Gym member ID {rs(ANU, 8)}",
        f"Health insurance member number {rs(UP, 1)}{digits(9)}"])


def g_reference():
    return "reference_number", pick([
        f"Invoice INV-{R.randrange(2023, 2027)}-{digits(5)} paid on {date_str()}",
        f"Customer service case #{rs(UP, 2)}-{digits(4)}-{digits(4)}",
        f"Insurance policy number {pick(['AXA', 'HUK', 'ALZ', 'MAP', 'ZUR'])}-{digits(2)}-{digits(7)}",
        f"Ticket {pick(['JIRA', 'OPS', 'HR'])}-{R.randrange(100, 9999)} is about the VPN issue",
        f"Customer number with the electricity company: {digits(9)}",
        f"Court case file {digits(3)} C {digits(4)}/{R.randrange(20, 26)}",
        f"Kundennummer {digits(8)}, Vertragsnummer {digits(10)}"])


def g_connurl():
    return "connection_url", pick([
        "postgres://app@localhost:5432/orders (peer auth, no password)",
        "redis://localhost:6379/0", f"mongodb://db.internal:27017/{pick(['app', 'test'])}",
        f"https://github.com/{pick(['acme', 'me'])}/{pick(['infra', 'dotfiles', 'notes'])}.git",
        f"git@github.com:{username()}/{pick(['dotfiles', 'blog'])}.git",
        "jdbc:mysql://localhost:3306/shop?useSSL=true", "amqp://rabbitmq:5672/",
        "sqlite:///./data/app.db", "http://192.168.1.1/admin (the router UI)"])


def g_cli():
    return "cli_command", pick([
        "mysql -u root -p   # prompts for the password", "ssh -i ~/.ssh/id_ed25519 deploy@203.0.113.10",
        "docker login -u myuser --password-stdin < ~/.docker_token", "gh auth login --web", "aws configure sso",
        "psql -h db.internal -U app -W orders", "openssl genrsa -out server.key 4096",
        "ssh-keygen -t ed25519 -C \"me@laptop\"", "kubectl create secret generic db --from-file=./password.txt",
        "git config --global credential.helper osxkeychain", "pass insert email/work",
        "gpg --full-generate-key", "sudo passwd newuser", "htpasswd -c /etc/nginx/.htpasswd admin"])


def g_b64text():
    phrase = pick(["hello world", "meeting at noon", "grocery list", "happy birthday", "ok"])
    return "base64_text", pick([
        f"base64 of '{phrase}' is {b64s(phrase)}",
        f"Profile picture: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{rs(B64, 180)}",
        f"Content-Type: image/jpeg; name=\"IMG_{digits(4)}.jpg\"\nContent-Transfer-Encoding: base64\n\n/9j/4AAQSkZJRgABAQ{rs(B64, 120)}",
        f"favicon inlined as data:image/svg+xml;base64,PHN2ZyB4bWxucz0i{rs(B64, 80)}"])


def g_media():
    return "media_id", pick([
        f"Song for the wedding: https://youtu.be/{rs(B64U, 11)}", f"Workout playlist spotify:playlist:{rs(AN, 22)}",
        f"Recipe video https://www.youtube.com/watch?v={rs(B64U, 11)}&t=95s",
        f"Instagram post with the cake: instagram.com/p/{rs(B64U, 11)}/",
        f"Podcast episode id {digits(10)}", f"Vimeo {digits(9)}"])


def g_meeting():
    return "meeting_id", pick([
        f"Zoom meeting ID {digits(3)} {digits(4)} {digits(4)} (passcode comes in the invite email)",
        f"Teams meeting ID {digits(3)} {digits(3)} {digits(3)} {digits(3)}",
        f"Google Meet link meet.google.com/{rs(LO, 3)}-{rs(LO, 4)}-{rs(LO, 3)} for the team sync",
        f"Conference call dial-in {phone_number()}, meeting number {digits(9)}"])


def g_promo():
    return "promo_code", pick([
        f"Promo code {pick(['SUMMER', 'WELCOME', 'SPRING', 'BLACKFRIDAY'])}{pick([10, 15, 20, 25])} from their public newsletter gives a discount",
        f"Use code FREESHIP at checkout (posted on their homepage)",
        f"Coupon {pick(['STUDENT', 'NEWYEAR'])}{R.randrange(2024, 2027)} works until Sunday - everyone can use it"])


def g_numbers():
    return "everyday_number", pick([
        f"Final score {R.randrange(0, 6)}-{R.randrange(0, 6)}, {pick(FIRST)} scored twice",
        f"Ran 10k in {R.randrange(42, 65)}:{R.randrange(0, 60):02d}",
        f"Lucky numbers: {' '.join(str(R.randrange(1, 50)) for _ in range(6))}",
        f"Recipe: {R.randrange(150, 500)} g flour, {R.randrange(1, 4)} eggs, bake at {pick([160, 175, 180, 200])}°C for {R.randrange(20, 60)} minutes",
        f"Weight this morning {R.randrange(55, 110)}.{R.randrange(0, 10)} kg",
        f"Jersey number {R.randrange(1, 99)} for {pick(FIRST)}'s football team",
        f"Marathon bib number {R.randrange(1000, 30000)}", "Pi to ten digits: 3.1415926535",
        f"Chess rating {R.randrange(900, 2200)} after the tournament",
        f"Steps yesterday: {R.randrange(3000, 25000)}", f"Odometer at {R.randrange(10000, 250000)} km at last service",
        f"Sourdough hydration {R.randrange(65, 85)}%, {R.randrange(2, 6)} folds every {R.randrange(20, 45)} min",
        f"The answer to the crossword 14 down was {pick(['OBOE', 'ERIE', 'ALOE'])}"])


def g_wifi_name():
    return "wifi_network_name", pick([
        f"Home network is called {pick(SSIDS)}", "The café wifi 'BeanThere_Guest' is open, no password",
        f"Hotel wifi: {pick(['Marriott_GUEST', 'IbisFree', 'NH-Hotels'])} - just accept the terms on the login page",
        f"Switch the printer to the {pick(SSIDS)} network, it's on the 2.4 GHz band",
        f"The mesh nodes are named {pick(SSIDS)}-1 and -2"])


def g_family():
    return "personal_fact", pick([
        f"Our dog's name is {pick(PETS)}", f"Grandma was born in {pick(CITIES)} in {R.randrange(1930, 1955)}",
        f"{pick(FIRST)} (my son) is in class {R.randrange(1, 9)}{pick('abc')}, teacher Ms. {pick(LAST)}",
        f"Partner's name is {pick(FIRST)}, birthday {date_str()}", f"Cat {pick(PETS)} is {R.randrange(1, 17)} years old",
        f"We got married in {pick(CITIES)} in {R.randrange(1990, 2024)}", f"Neighbour at number {R.randrange(1, 60)} is {pick(FIRST)} {pick(LAST)}"])


def g_contact():
    f, l = pick(FIRST), pick(LAST)
    slug = re.sub(r"[^a-z]", "", pick(LAST).lower()) or "praxis"
    return "contact_info", pick([
        f"{pick(DOCTORS)} (GP): {phone_number()}, praxis-{slug}@example-med.de",
        f"Physio {f} {l}, {email(f, l)}, {phone_number()}",
        f"Contact at the school office: {email()}", f"Accountant: {f} {l} <{email(f, l)}>",
        f"Dentist {pick(DOCTORS)} - {phone_number()} - {pick(STREETS)} {R.randrange(1, 99)}"])


def g_config():
    return "config_snippet", pick([
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: app\n      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}\n      POSTGRES_DB: app",
        "[database]\nhost = localhost\nport = 5432\nuser = app\npassword_file = /etc/app/db.pass",
        "auth:\n  provider: oidc\n  client_id: web-frontend\n  client_secret_ref: vault://kv/oidc/web\n  scopes: [openid, email]",
        "spring.datasource.username=app\nspring.datasource.password=${DB_PASS}",
        "{\n  \"apiBaseUrl\": \"https://api.example-svc.io\",\n  \"timeoutMs\": 5000,\n  \"retries\": 3\n}",
        "# .env.example\nSTRIPE_SECRET_KEY=\nSENDGRID_API_KEY=\nSESSION_SECRET=",
        "ssh config:\nHost nas\n  HostName 192.168.1.20\n  User admin\n  IdentityFile ~/.ssh/id_ed25519",
        "aws:\n  region: eu-central-1\n  profile: default\n  role_arn: arn:aws:iam::%s:role/ReadOnly" % digits(12)])


def g_cloud_ids():
    return "resource_id", pick([
        f"AWS account {digits(12)} is the prod account", f"EC2 instance i-0{rs(HEXL, 16)} keeps restarting",
        f"arn:aws:iam::{digits(12)}:role/deploy-role", f"Azure subscription id {uuid4()}",
        f"GCP project number {digits(12)}", f"S3 bucket acme-backups-{rs(ANL, 6)} in eu-west-1",
        f"vpc-{rs(HEXL, 17)} / subnet-{rs(HEXL, 17)}"])


def g_health():
    return "health_fact", pick([
        "Allergic to penicillin and shellfish", f"Blood type {pick(['A+', 'O-', 'B+', 'AB+', 'O+'])}",
        f"Physio exercises: 3 sets of {R.randrange(8, 16)} reps, twice a day",
        f"Next vaccination booster due {date_str()}", f"Mum's GP appointment {date_str()} {time_str()}, bring the pill box",
        "Lactose intolerant - oat milk only", f"Sleep target: in bed by {time_str()}",
        f"{pick(FIRST)} has a nut allergy, EpiPen in the blue bag"])


def g_long_itinerary():
    parts = [
        f"Day 1: land in {pick(CITIES)} at {time_str()}, flight {pick(AIRL)}{R.randrange(100, 9999)}, booking ref {rs(UP, 6)}.",
        f"Hotel confirmation {digits(9)}, room {R.randrange(100, 999)}, breakfast 7-10.",
        f"Day 2: museum tickets order {digits(8)}, entry slot {time_str()}.",
        f"Train {R.randrange(100, 999)} on {date_str()}, coach {R.randrange(1, 12)}, seats {R.randrange(11, 99)}/{R.randrange(11, 99)}.",
        f"Dinner reservation for {R.randrange(2, 7)} at {R.randrange(18, 22)}:{pick(['00', '15', '30', '45'])} under {pick(LAST)}.",
        f"Emergency: hotel reception {phone_number()}, travel insurance policy {pick(['AXA', 'ALZ', 'ZUR'])}-{digits(8)}.",
        f"Budget so far {R.randrange(400, 2000)} EUR, card ending {digits(4)} used for deposits.",
        f"Pharmacy: {pick(MEDS)[0]} packed, enough for {R.randrange(7, 21)} days.",
        f"Rental car {rs(ANU, 8)}, plate {rs(UP, 2)}-{digits(3)}-{rs(UP, 2)}, return with full tank.",
        "Door code and wifi details will be sent by the host on the morning of arrival."]
    R.shuffle(parts)
    text = " ".join(parts)
    return "itinerary", text


PLAIN_FACTS = {
    "en": ["User prefers window seats on long flights", "Likes oat milk in coffee, no sugar",
           "Favourite band is Radiohead", "Vegetarian, but eats fish occasionally", "Works night shifts as a nurse",
           "Wants reminders in the morning, not at night", "Is learning Spanish on weekends",
           "Prefers short answers without bullet points", "Daughter starts school in September",
           "Is training for a half marathon in spring", "Hates cilantro", "Supports Liverpool FC",
           "Moving to a new flat next month", "Partner is called {name}", "Plays the cello in a community orchestra",
           "Wants to save for a trip to Japan", "Usually cooks on Sundays for the whole week",
           "Likes mystery novels, especially Agatha Christie", "Is afraid of flying", "Prefers metric units",
           "Walks the dog before work", "Does not drink alcohol", "Writes a newsletter about gardening",
           "Allergic to cats (but has a dog)", "Has a standing desk and back pain", "Uses Linux at home, Mac at work",
           "Prefers to be addressed informally", "Birthday party planned at the lake",
           "Is colour-blind (red/green)", "Likes the Oxford comma"],
    "de": ["Mag keinen Koriander", "Fährt jeden Tag mit dem Rad zur Arbeit", "Die Tochter heißt {name}",
           "Lernt gerade Italienisch", "Bevorzugt kurze Antworten", "Ist Vegetarierin"],
    "fr": ["Préfère le thé au café", "Fait du yoga le mardi soir", "Son fils s'appelle {name}",
           "Adore les romans policiers", "N'aime pas les réunions le lundi matin"],
    "es": ["Prefiere el asiento de ventanilla", "Le encanta el flamenco", "Su hermana se llama {name}",
           "Es alérgica al polen", "Trabaja desde casa los viernes"],
    "it": ["Preferisce il caffè senza zucchero", "Gioca a calcetto il giovedì", "Sua moglie si chiama {name}"],
    "pt": ["Gosta de surfar no fim de semana", "Prefere respostas curtas", "Está aprendendo alemão"],
    "nl": ["Fietst elke dag naar het werk", "Houdt niet van koriander", "Haar zoon heet {name}"],
    "pl": ["Lubi góry bardziej niż morze", "Pracuje zdalnie", "Uczy się grać na gitarze"],
    "sv": ["Gillar att baka kanelbullar", "Springer varje morgon"],
    "tr": ["Kahveyi şekersiz içer", "Hafta sonları yüzmeye gider"],
    "id": ["Suka makanan pedas", "Bekerja dari rumah setiap Jumat"],
    "ru": ["Любит походы в горы", "Предпочитает короткие ответы"],
    "ja": ["コーヒーより紅茶が好き", "週末はよく山登りをする"],
    "zh": ["喜欢喝绿茶", "周末经常去爬山"],
    "ko": ["매운 음식을 좋아함", "주말마다 등산을 감"],
    "cs": ["Má rád hory", "Pracuje z domova"],
    "vi": ["thich uong ca phe sua da", "cuoi tuan hay di boi"],
}


FACT_TPL = ["Favourite food is {food}", "Likes {hobby} on weekends", "Grew up in {city}", "Is learning {language}",
            "Plays {sport} on {day}s", "Prefers {drink} in the morning", "Doesn't like {food}",
            "Wants to visit {city} next year", "Best friend is {name}", "Listens to {music} while working",
            "Reads before bed, currently '{book}'", "Goes to {sport} class with {name}",
            "Cooks {food} every {day}", "Brother {name} lives in {city}", "Took up {hobby} during the winter",
            "Would like book suggestions similar to '{book}'", "{name} is allergic to {allergen}",
            "Dislikes {music}, prefers {music2}", "Volunteers at the {place} on {day}s",
            "Prefers {drink} over {drink2}"]
FACT_POOLS = {
    "food": ["lasagne", "ramen", "pho", "paella", "pierogi", "falafel", "risotto", "tacos", "curry", "dumplings",
             "shakshuka", "moussaka", "bibimbap", "goulash"],
    "hobby": ["bouldering", "birdwatching", "pottery", "chess", "sailing", "baking bread", "knitting", "cycling",
              "photography", "woodworking", "gardening", "salsa dancing"],
    "language": ["Spanish", "Japanese", "German", "Portuguese", "Korean", "Italian", "Dutch", "Arabic", "Polish"],
    "sport": ["tennis", "yoga", "football", "swimming", "badminton", "volleyball", "pilates", "judo", "padel"],
    "drink": ["green tea", "black coffee", "oat latte", "matcha", "mint tea", "hot chocolate", "espresso"],
    "music": ["jazz", "lo-fi beats", "classical piano", "80s synth-pop", "bossa nova", "metal", "folk", "techno"],
    "book": ["The Hobbit", "Project Hail Mary", "Pachinko", "The Secret History", "Educated", "Circe",
             "The Name of the Wind", "Klara and the Sun", "Dune", "Anxious People"],
    "allergen": ["peanuts", "bees", "latex", "pollen", "shellfish", "sesame"],
    "place": ["food bank", "animal shelter", "library", "community garden", "repair café"],
}


def g_plain_fact():
    if chance(0.45):
        lang = pick(["en"] * 8 + list(PLAIN_FACTS))
        return "personal_fact", fill(pick(PLAIN_FACTS[lang]), {"name": pick(FIRST)})
    c = {k: pick(v) for k, v in FACT_POOLS.items()}
    c["music2"] = pick(FACT_POOLS["music"])
    c["drink2"] = pick(FACT_POOLS["drink"])
    c["name"], c["city"], c["day"] = pick(FIRST), pick(CITIES), pick(["Monday", "Tuesday", "Wednesday", "Thursday",
                                                                      "Friday", "Saturday", "Sunday"])
    return "personal_fact", fill(pick(FACT_TPL), c)


def g_plain_schedule():
    return pick([
        ("appointment", f"Book club meets every second {pick(['Tuesday', 'Thursday'])}"),
        ("reminder", f"Call {pick(FIRST)} back about the weekend plans"), ("reminder", "Pick up dry cleaning on Friday"),
        ("appointment", f"{pick(FIRST)}'s piano lesson moved to Wednesdays"),
        ("reminder", "Renew the car insurance next month"), ("reminder", "Buy a birthday present for Grandma"),
        ("reminder", "Water the tomatoes in the evening when it's hot"),
        ("appointment", f"Team offsite in {pick(CITIES)} in {pick(MONTHS)}"),
        ("reminder", "Return library books before the holidays"),
        ("reminder", "Cancel the gym membership at the end of the quarter"),
        ("reminder", "Schedule the boiler service in autumn"), ("reminder", f"Send {pick(FIRST)} the photos from the trip"),
        ("reminder", "Try the new ramen place near the station"),
        ("reminder", f"Ask {pick(FIRST)} for the lasagne recipe"),
        ("appointment", f"Haircut with {pick(FIRST)} every {pick(['four', 'six'])} weeks"),
        ("reminder", f"Bring the {pick(['blue', 'red'])} folder to the {pick(['bank', 'school', 'notary'])} meeting"),
        ("reminder", f"Order more {pick(['printer ink', 'dog food', 'coffee filters', 'contact lenses'])}"),
        ("appointment", f"Swimming lessons for {pick(FIRST)} start in {pick(MONTHS)}")])


BENIGN_PLAN = [
    # (source tag, variant, count, generator)
    ("order", "hard", 26, g_order), ("tracking", "hard", 22, g_tracking), ("travel", "hard", 24, g_flight),
    ("reservation", "hard", 14, g_hotel), ("phone", "hard", 20, g_phone), ("address", "hard", 12, g_address),
    ("datetime", "hard", 16, g_datetime), ("price", "hard", 14, g_price), ("dose", "hard", 22, g_dose),
    ("lab", "hard", 16, g_lab), ("room", "hard", 22, g_room), ("isbn", "hard", 8, g_isbn),
    ("commit", "hard", 14, g_commit), ("uuid", "hard", 14, g_uuid), ("pubkey", "hard", 22, g_pubkey),
    ("crypto-address", "hard", 14, g_crypto_addr), ("publishable", "hard", 12, g_publishable),
    ("masked", "hard", 24, g_masked), ("placeholder", "hard", 20, g_placeholder), ("envref", "hard", 18, g_envref),
    ("secretref", "hard", 14, g_secretref), ("talk", "hard", 46, g_talk), ("checksum", "hard", 16, g_checksum),
    ("net", "hard", 10, g_net), ("color", "hard", 6, g_color), ("version", "hard", 8, g_version),
    ("vehicle", "hard", 10, g_vehicle), ("serial", "hard", 12, g_serial), ("geo", "hard", 6, g_geo),
    ("membership", "hard", 10, g_membership), ("reference", "hard", 18, g_reference),
    ("connurl", "hard", 12, g_connurl), ("cli", "hard", 14, g_cli), ("b64text", "hard", 8, g_b64text),
    ("media", "hard", 8, g_media), ("meeting", "hard", 8, g_meeting), ("promo", "hard", 6, g_promo),
    ("numbers", "hard", 22, g_numbers), ("wifi-name", "hard", 8, g_wifi_name), ("config", "hard", 12, g_config),
    ("cloud-id", "hard", 10, g_cloud_ids), ("itinerary", "hard", 8, g_long_itinerary),
    ("family", "plain", 26, g_family), ("contact", "plain", 22, g_contact), ("health", "plain", 24, g_health),
    ("fact", "plain", 110, g_plain_fact), ("schedule", "plain", 40, g_plain_schedule),
]


def gen_benign():
    for source, variant, count, fn in BENIGN_PLAN:
        for _ in range(count):
            for _try in range(40):
                kind, value = fn()
                if not is_dup(value):
                    break
            else:
                continue
            add("benign", variant, source, kind, value)


def g_ml_lookalike():
    return pick([
        ("room_number", f"Mein Hotelzimmer ist {R.randrange(100, 999)}, Frühstück bis 10 Uhr"),
        ("booking_reference", f"Le vol AF {R.randrange(1000, 9999)} part de la porte {pick('FKL')}{R.randrange(20, 60)} à {time_str()}"),
        ("order_number", f"Mi número de pedido es {digits(9)}, llega el martes"),
        ("phone_number", f"Il numero del pediatra è {phone_number()}"),
        ("tracking_number", f"Código de rastreio dos Correios: {rs(UP, 2)}{digits(9)}BR"),
        ("medication_dose", f"Oma neemt {pick(MEDS)[0]} {R.randrange(1, 3)}x per dag, {R.randrange(5, 500)} mg"),
        ("reference_number", f"Numer sprawy w urzędzie: {rs(UP, 2)}.{digits(4)}.{digits(3)}.{R.randrange(2023, 2026)}"),
        ("seat_number", f"座席は{R.randrange(1, 16)}号車{R.randrange(1, 20)}番{pick('ABCDE')}席"),
        ("address", f"新地址：{pick(['上海市', '北京市', '成都市'])}{pick(['徐汇区', '朝阳区', '武侯区'])}{R.randrange(1, 300)}号{R.randrange(1, 30)}0{R.randrange(1, 9)}室"),
        ("price", f"Kira {R.randrange(8000, 30000)} TL, her ayın {R.randrange(1, 28)}'inde ödenecek"),
        ("appointment", f"Janji dokter gigi tanggal {date_str()} jam {time_str()}"),
        ("lab_value", f"Анализ крови: гемоглобин {R.randrange(110, 170)} г/л, ферритин {R.randrange(15, 300)}"),
        ("postal_code", f"Postnummer {digits(3)} {digits(2)} {pick(['Malmö', 'Uppsala'])}"),
        ("phone_number", f"so dien thoai bac si: 0{digits(2)} {digits(3)} {digits(4)}"),
        ("order_number", f"택배 송장번호 {digits(12)}"),
        ("room_number", f"Pokój {R.randrange(100, 500)}, piętro {R.randrange(1, 9)}"),
        ("date", f"Výročí svatby {R.randrange(1, 28)}. {R.randrange(1, 12)}. {R.randrange(1995, 2023)}"),
        ("membership_number", f"Numéro de carte de fidélité {digits(13)}"),
    ])


BENIGN_PLAN.append(("multilingual", "hard", 30, g_ml_lookalike))


def main():
    gen_provider_plain()
    gen_structured_plain()
    gen_personal_plain()
    gen_provider_hard(124)
    gen_structured_hard()
    gen_personal_long(36)
    gen_personal_hard(236)
    gen_benign()
    R.shuffle(RECORDS)

    ids = [r["id"] for r in RECORDS]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for r in RECORDS:
        assert list(r) == ["id", "label", "kind", "variant", "namespace", "key", "value"]
        assert isinstance(r["namespace"], list) and all(isinstance(x, str) for x in r["namespace"])
        assert isinstance(r["key"], str)

    out = Path(__file__).resolve().parent / "heldout7.jsonl"
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        for r in RECORDS:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")

    table = {}
    for r in RECORDS:
        k = (r["label"], r["variant"])
        table[k] = table.get(k, 0) + 1
    kinds = sorted({r["kind"] for r in RECORDS})
    print(f"wrote {out.name}: {len(RECORDS)} records")
    for lab in ("secret", "benign"):
        print(f"  {lab:7s} plain={table.get((lab, 'plain'), 0):4d} hard={table.get((lab, 'hard'), 0):4d}")
    print(f"  distinct kinds: {len(kinds)}")


if __name__ == "__main__":
    main()
