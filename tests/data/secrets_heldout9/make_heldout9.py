#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""make_heldout9.py - generator for the FROZEN held-out secret-detector corpus #9.

Python 3.11 standard library only.  Every random choice comes from
random.Random(909_2026); the script never calls hash(), never reads the clock
and never iterates over a set, so the output is byte-identical for any
PYTHONHASHSEED.  It writes heldout9.jsonl next to this file.

All credential-shaped values below are synthetic (random characters in the
shape of real formats).  None of them is a real credential.
"""
import base64
import codecs
import hashlib
import json
import os
import random
import re
import string
import unicodedata
import urllib.parse
import zlib

R = random.Random(909_2026)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
HX = "0123456789abcdef"
HXU = "0123456789ABCDEF"
B64C = AN + "+/"
B64U = AN + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B62 = DG + UP + LO
B32 = UP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
SLOT = "\u0000SLOT\u0000"


# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------
def rs(n, a=AN):
    return "".join(R.choice(a) for _ in range(n))


def ch(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def uid():
    h = rs(32, HX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{ch('89ab')}{h[17:20]}-{h[20:32]}"


def b64s(s):
    return base64.b64encode(s.encode("utf-8")).decode()


def b64b(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b58(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def b58check(p):
    return b58(p + hashlib.sha256(hashlib.sha256(p).digest()).digest()[:4])


def base62(n, w):
    s = ""
    while n:
        n, r = divmod(n, 62)
        s = B62[r] + s
    return s.rjust(w, "0")


def ck_token(prefix, n=36):
    """GitHub/npm style token: random body + base62(crc32(body)) checksum."""
    body = rs(n - 6)
    return prefix + body + base62(zlib.crc32(body.encode()), 6)


def wrap(s, w=64):
    return "\n".join(s[i:i + w] for i in range(0, len(s), w))


def iso_ts():
    return (f"20{R.randint(23, 26)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"
            f"T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}Z")


def log_ts():
    return (f"20{R.randint(23, 26)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d} "
            f"{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d},{R.randint(0, 999):03d}")


def strip_acc(t):
    return "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))


def typo(t):
    """swap two adjacent letters in one word outside {placeholders}."""
    parts = re.split(r"(\{[a-z0-9_]+\})", t)
    cand = []
    for i, p in enumerate(parts):
        if p.startswith("{") and p.endswith("}"):
            continue
        for m in re.finditer(r"[^\W\d_]{5,}", p):
            cand.append((i, m.start(), m.end()))
    if not cand:
        return t
    i, s, e = ch(cand)
    w = parts[i][s:e]
    j = R.randrange(len(w) - 1)
    w2 = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    parts[i] = parts[i][:s] + w2 + parts[i][e:]
    return "".join(parts)


def luhn_check_digit(payload):
    s = 0
    for i, d in enumerate(reversed(payload)):
        n = int(d)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        s += n
    return str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_check_digit(num[:-1]) == num[-1]


WELL_KNOWN_TEST_CARDS = [
    "4111111111111111", "4242424242424242", "4012888888881881", "4000056655665556",
    "5555555555554444", "5105105105105100", "5200828282828210", "378282246310005",
    "371449635398431", "6011111111111117", "6011000990139424", "3530111333300000",
    "3566002020360505", "30569309025904", "38520000023237", "4000000000000002",
    "4000000000009995", "2223003122003222", "6200000000000005", "4444333322221111",
]


def card_number(kind=None):
    kind = kind or ch(["visa", "visa", "visa", "mc", "mc", "amex", "disc", "jcb", "unionpay", "maestro"])
    while True:
        if kind == "visa":
            pre, n = "4" + rs(5, DG), 16
        elif kind == "mc":
            pre, n = (ch(["51", "52", "53", "54", "55"]) + rs(4, DG)) if chance(0.7) else str(R.randint(2221, 2720)) + rs(2, DG), 16
        elif kind == "amex":
            pre, n = ch(["34", "37"]) + rs(4, DG), 15
        elif kind == "disc":
            pre, n = ch(["6011", "65" + rs(2, DG)]) + rs(2, DG), 16
        elif kind == "jcb":
            pre, n = str(R.randint(3528, 3589)) + rs(2, DG), 16
        elif kind == "unionpay":
            pre, n = "62" + rs(4, DG), ch([16, 19])
        else:
            pre, n = ch(["5018", "5020", "6759", "6304"]) + rs(2, DG), ch([16, 18, 19])
        body = pre + rs(n - len(pre) - 1, DG)
        num = body + luhn_check_digit(body)
        if num not in WELL_KNOWN_TEST_CARDS and len(set(num)) > 3:
            return kind, num


def fmt_card(num, style=None):
    style = style if style is not None else R.randrange(4)
    if style == 0:
        return num
    if len(num) == 15:
        g = [num[:4], num[4:10], num[10:]]
    else:
        g = [num[i:i + 4] for i in range(0, len(num), 4)]
    return (" " if style in (1, 3) else "-").join(g)


def expiry():
    return f"{R.randint(1, 12):02d}/{R.randint(26, 31)}"


def cvv(n=3):
    return rs(n, DG)


def pin4():
    while True:
        p = rs(4, DG)
        if p not in ("1234", "0000", "1111", "4321"):
            return p


def door_code():
    return ch([rs(4, DG), rs(5, DG), rs(4, DG) + "#", "*" + rs(4, DG), ch("ABCD") + rs(4, DG),
               rs(6, DG), rs(4, DG) + "B", rs(3, DG) + "#" + rs(2, DG)])


def safe_code():
    return ch([rs(4, DG), rs(6, DG), rs(5, DG),
               f"{R.randint(0, 39)}-{R.randint(0, 39)}-{R.randint(0, 39)}", rs(4, DG) + "#"])


def otp_code():
    return ch([rs(6, DG), rs(6, DG), rs(6, DG), rs(4, DG), rs(8, DG), "G-" + rs(6, DG),
               rs(3, DG) + "-" + rs(3, DG), rs(3, DG) + " " + rs(3, DG)])


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
bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call
calm camera camp can canal cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo
carpet carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave
ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat
cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar
cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic
clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect
color column combine come comfort comic common company concert conduct confirm congress connect consider control
convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote
crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop
cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current
curtain curve cushion custom cute cycle""".split()

PW_WORDS = ["Sonnenblume", "Kaffeetasse", "bluebird", "Marseille", "Tigrou", "gatito", "cavallo", "sunshine",
            "Drachen", "pingwin", "Kartoffel", "Lisboa", "tulpen", "Istanbul", "sakura", "hanabi", "panda",
            "haneul", "yasmin", "merdeka", "Bacalhau", "Fenerbahce", "Barcelona", "Juventus", "Feyenoord",
            "Legia", "Hammarby", "Zenit", "Liverpool", "oliver", "bella", "luna", "charlie", "coco", "minou",
            "Milou", "Schatzi", "Frodo", "Gandalf", "Pikachu", "tomate", "mango", "Pelikan", "Kolibri",
            "Vesuvio", "Matterhorn", "Cappuccino", "Tartiflette", "Bratwurst", "Paella", "kimchi", "rendang",
            "Moskva", "Krakow", "Bosphorus", "Amsterdam", "Smultron", "Lagom", "Saudade", "Feijoada"]
PASS_WORDS = ["river", "copper", "lantern", "maple", "orbit", "velvet", "harbor", "thistle", "comet", "pepper",
              "granite", "meadow", "falcon", "walnut", "glacier", "saffron", "pebble", "tundra", "ember", "willow",
              "kettle", "marble", "citrus", "canyon", "biscuit", "puzzle", "quartz", "ripple", "sequoia", "tango"]
ADJ = ["blue", "happy", "silent", "lucky", "crazy", "golden", "rusty", "brave", "little", "purple", "frozen", "wild"]
NOUN = ["horse", "tiger", "rocket", "garden", "pirate", "monkey", "dragon", "castle", "banana", "koala", "wizard"]
LEET = {"a": "@", "o": "0", "e": "3", "s": "$", "i": "1"}


def human_pw():
    st = R.randrange(8)
    w = ch(PW_WORDS)
    if st == 0:
        return w[0].upper() + w[1:] + str(R.randint(1961, 2016)) + ch("!?#$*.")
    if st == 1:
        return w.lower() + ch("!@#_.") + rs(R.randint(2, 4), DG)
    if st == 2:
        while True:
            p = rs(R.randint(12, 18), AN + "!@#$%^&*-_=+?")
            if any(c in DG for c in p) and any(c in LO for c in p):
                return p
    if st == 3:
        return ch("-._").join(ch(PASS_WORDS) for _ in range(R.randint(3, 4))) + str(R.randint(1, 99))
    if st == 4:
        return "".join(LEET.get(c, c) for c in w.lower()).capitalize() + rs(2, DG) + ch("!$")
    if st == 5:
        return ch(ADJ).capitalize() + ch(NOUN).capitalize() + rs(2, DG) + ch("!?#")
    if st == 6:
        return w + rs(4, DG)
    return rs(4, LO) + rs(2, DG) + rs(3, UP) + ch("!%&") + rs(2, LO)


EMAIL_LOCAL = ["anna.k", "mbauer", "lucia.fdz", "kenta.s", "wang.fang88", "minjun.lee", "ahmed.h", "priya.r",
               "budi.s", "linh.nguyen", "j.dupont", "giulia.b", "sanne.v", "ola.nowak", "elsa.l", "elif.y",
               "d.ivanov", "tom.reed", "grace.o", "jonas.w", "camille.m", "mateo.g", "ana.souza", "zeynep.k"]
EMAIL_DOM = ["gmail.com", "outlook.com", "web.de", "yahoo.co.jp", "qq.com", "naver.com", "mail.ru", "free.fr",
             "libero.it", "uol.com.br", "yandex.ru", "hotmail.com", "icloud.com", "proton.me", "gmx.net",
             "orange.fr", "wp.pl", "telia.com", "ziggo.nl", "rediffmail.com"]
DOMAINS = ["acme-corp.io", "northwind.dev", "kleinbau.de", "lumen-apps.fr", "tienda-sol.es", "fjordtech.no",
           "sakura-labs.jp", "mintleaf.co", "bluepeak.ai", "hexaflow.com", "orbitpay.app", "tidal-data.net",
           "greenhouse-crm.io", "koala-shop.com.au", "brightside.health"]
USERS = ["deploy", "ci-bot", "anna.k", "mbauer", "svc_backup", "jdoe", "admin", "app_user", "reporting",
         "etl_runner", "grafana", "release-bot", "ops", "pkowalski", "svc-integration"]


def email():
    return ch(EMAIL_LOCAL) + (str(R.randint(1, 99)) if chance(0.3) else "") + "@" + ch(EMAIL_DOM)


def work_email():
    return ch(EMAIL_LOCAL).replace(".", "") + "@" + ch(DOMAINS)


def host():
    return ch(["db", "api", "pg-main", "mysql-01", "mongo", "cache", "analytics", "prod-db", "replica"]) + "." + \
        ch(["internal", "prod", "eu-west-1", "svc"]) + "." + ch(DOMAINS)


def project_name():
    return ch(["atlas", "hermes", "orion", "pegasus", "nimbus", "quill", "kestrel", "juniper", "tandem", "vega",
               "marlin", "beacon", "sprout", "lattice"])


DIGIT_WORDS = {
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
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
    "zh": "零 一 二 三 四 五 六 七 八 九".split(),
    "ko": "공 일 이 삼 사 오 육 칠 팔 구".split(),
    "ar": "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة".split(),
    "hi": "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split(),
    "id": "nol satu dua tiga empat lima enam tujuh delapan sembilan".split(),
    "vi": "không một hai ba bốn năm sáu bảy tám chín".split(),
}

CONT = {"en": "rest of it:", "de": "der Rest:", "fr": "la suite :", "es": "el resto:", "it": "il resto:",
        "pt": "o resto:", "nl": "de rest:", "pl": "reszta:", "sv": "resten:", "tr": "devamı:",
        "ru": "продолжение:", "ja": "続き：", "zh": "后半部分：", "ko": "나머지:", "ar": "الباقي:",
        "hi": "baaki:", "id": "sisanya:", "vi": "phần còn lại:"}
FIRST = {"en": "first part", "de": "erster Teil", "fr": "première partie", "es": "primera parte",
         "it": "prima parte", "pt": "primeira parte", "nl": "eerste deel", "pl": "pierwsza część",
         "sv": "första delen", "tr": "ilk kısım", "ru": "первая часть", "ja": "前半", "zh": "前半部分",
         "ko": "앞부분", "ar": "الجزء الأول", "hi": "pehla hissa", "id": "bagian pertama", "vi": "phần đầu"}
LATIN_LANGS = ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "tr", "id", "vi"]
COMMA_LANGS = ["de", "fr", "es", "it", "pt", "nl", "pl", "sv", "tr", "ru", "id", "vi"]


# --------------------------------------------------------------------------
# language packs: fillers + secret templates (s_*) + benign templates (b_*)
# --------------------------------------------------------------------------
MONTHS = {
    "en": "January February March April May June July August September October November December".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
    "nl": "januari februari maart april mei juni juli augustus september oktober november december".split(),
    "sv": "januari februari mars april maj juni juli augusti september oktober november december".split(),
    "tr": "Ocak Şubat Mart Nisan Mayıs Haziran Temmuz Ağustos Eylül Ekim Kasım Aralık".split(),
    "id": "Januari Februari Maret April Mei Juni Juli Agustus September Oktober November Desember".split(),
}


def fmt_date(lang):
    d, m = R.randint(1, 28), R.randint(1, 12)
    if lang == "en":
        return ch([f"{MONTHS['en'][m - 1]} {d}", f"{d} {MONTHS['en'][m - 1][:3]}", f"{m}/{d}"])
    if lang == "de":
        return f"{d}.{m}."
    if lang == "es":
        return f"{d} de {MONTHS['es'][m - 1]}"
    if lang in ("fr", "it", "nl", "sv", "tr", "id"):
        return f"{d} {MONTHS[lang][m - 1]}"
    if lang == "pt":
        return f"{d:02d}/{m:02d}"
    if lang == "pl":
        return f"{d}.{m:02d}"
    if lang == "ru":
        return f"{d:02d}.{m:02d}"
    if lang in ("ja", "zh"):
        return f"{m}月{d}日"
    if lang == "ko":
        return f"{m}월 {d}일"
    return f"{d}/{m}"


def fmt_time(lang):
    h, mm = R.randint(7, 19), ch(["00", "15", "30", "45", "10", "40", "20"])
    if lang == "en" and chance(0.6):
        return f"{(h - 1) % 12 + 1}:{mm}{'am' if h < 12 else 'pm'}"
    if lang in ("ja", "zh", "ko") and chance(0.4):
        return {"ja": f"{h}時{mm}分", "zh": f"{h}点{mm}分", "ko": f"{h}시 {mm}분"}[lang]
    return f"{h}:{mm}"


MEDS = ["ibuprofen 400 mg", "metformin 500 mg", "amoxicillin 500 mg", "levothyroxine 50 µg",
        "atorvastatin 20 mg", "lisinopril 10 mg", "omeprazole 20 mg", "sertraline 50 mg", "vitamin D 1000 IU",
        "ramipril 5 mg", "bisoprolol 2.5 mg", "apixaban 5 mg", "prednisolone 5 mg", "cetirizine 10 mg",
        "iron 65 mg", "folic acid 400 µg", "amlodipine 5 mg", "melatonin 2 mg"]

LP = {}
LP["en"] = dict(
    names=["Emma", "Jack", "Olivia", "Noah", "Priya", "Tom", "Grace", "Liam"],
    cities=["Leeds", "Boston", "Dublin", "Austin", "Manchester", "Toronto", "Edinburgh", "Portland"],
    svcs=["Netflix", "Gmail", "Chase app", "Steam", "Spotify", "iCloud", "Amazon", "PlayStation", "school portal",
          "Instagram", "council tax portal", "NHS app", "eBay", "Xbox", "Hulu"],
    banks=["Chase", "Barclays", "Monzo", "Wells Fargo", "HSBC", "Revolut"],
    ssids=["BT-HUB-7A2F", "NETGEAR42", "SKY2F9A1", "Xfinity-Home-88", "TP-Link_5G_88", "VM4821337", "TheBurrow"],
    answers=["Biscuit", "Whiskers", "Fluffy", "Rover", "Pickles", "Mr Nibbles"],
    males=["Jack", "Noah", "Tom", "Liam", "Sam"],
    doctors=["Dr. Patel", "Dr. Nguyen", "Dr. O'Brien", "Dr. Adams"],
    street=lambda: f"{R.randint(2, 240)} {ch(['Elm Road', 'Church Lane', 'Maple Ave', 'Victoria St', 'Oak Drive'])}",
    postcode=lambda: ch([f"{ch(['LS', 'M', 'SW', 'EH', 'BS'])}{R.randint(1, 19)} {R.randint(1, 9)}{rs(2, 'ABDEFGHJLNPQRSTUWXYZ')}",
                         rs(5, DG)]),
    phone=lambda: ch([f"+1 ({R.randint(201, 989)}) 555-0{R.randint(100, 199)}", f"07700 900{R.randint(100, 999)}"]),
    s_pw=["my {svc} password is {pw}", "{svc} login -> {email} / {pw}",
          "Changed the {svc} password today, new one: {pw} (old one showed up in a breach)",
          "pw for {svc} = {pw} dont forget the symbol at the end",
          "Dad's {svc} account: username {user}, password {pw}. He keeps forgetting it."],
    s_wifi=["wifi at my parents: {ssid} / {pw}", "Guest Wi-Fi is \"{ssid}\", the password is {pw}",
            "Airbnb wifi pasword {pw} (network {ssid})"],
    s_pin=["my debit card PIN is {pin}", "PIN for the {bank} card: {pin}", "phone unlock pin {pin}, sim pin {pin2}"],
    s_door=["Keypad code for the front door: {code}", "building door code is {code} - ring flat 4 if it fails",
            "code for the bike shed padlock: {code}"],
    s_alarm=["alarm code {code}, you have 30 seconds after opening the door",
             "house alarm: disarm {code}, duress code {code2} (only if forced)"],
    s_safe=["hotel room safe combo: {code}", "lockbox by the back gate, code {code}, key for the cleaner is inside"],
    s_otp=["{svc} sent me the verification code {otp}", "Your {svc} login code is {otp}. Do not share it."],
    s_secq=["security question for the bank (first pet): {ans}",
            "mother's maiden name answer I used on {svc}: {surname}"],
    s_tok=["saving the {svc} key for the side project: {val}", "new {svc} token (generated today, full access): {val}",
           "@{name} here's the {svc} API key you asked for {val}"],
    b_appt=["Dentist appointment on {date} at {time} with {doctor}", "Car MOT on {date}, drop it off before {time}",
            "Parent-teacher evening {date}, {time}, room 12"],
    b_med=["Takes {med} every morning with food", "Started {med} twice a day for 7 days - finish the whole pack",
           "Mum's meds: {med} at breakfast, {med2} at night"],
    b_pref=["Prefers aisle seats and vegetarian meals on long flights", "Likes an oat milk flat white, extra hot",
            "Allergic to penicillin and shellfish", "Hates cilantro; loves anything with lime",
            "Favourite colour is teal, wears size M tops and 9.5 shoes"],
    b_family=["{name}'s birthday is {date} - she wants a climbing harness", "Brother {bro} moved to {city} with his partner",
              "{name} starts nursery in September, drop-off at {time}"],
    b_travel=["Trip to {city} on {date}: hotel near the station, rent a car for the coast",
              "Wants to visit {city} in spring, budget around 1,500"],
    b_pwtalk=["Remind me to change my email password this weekend",
              "My bank PIN got reset at the branch, the new one comes by post",
              "Set up a password manager for mum - she writes passwords on sticky notes",
              "The wifi password is on the sticker under the router",
              "Need to ask the landlord for the new door code, it changed on Monday",
              "Turned on 2FA for Instagram with the authenticator app",
              "The OTP never arrived, asked the bank to resend it",
              "Don't save card details in the browser anymore",
              "Forgot the alarm code again - the company will reset it on Thursday",
              "Kids keep asking for the Netflix password; told them to ask me each time"],
    b_contact=["Plumber (Dave): {phone}", "{name}'s new email is {email}", "Vet clinic number {phone}, open until 7pm"],
    b_lab=["Blood test {date}: HbA1c {a1c}%, LDL {ldl} mmol/L, HDL {hdl}, TSH {tsh} mIU/L",
           "BP this morning {bp}, pulse {pulse}, weight {weight} kg",
           "INR {inr} on {date}, warfarin stays at 5 mg", "Fasting glucose {glucose_mg} mg/dL, ferritin {ferritin} ng/mL"],
    b_addr=["Grandma's new address: {street}, {city} {postcode}", "Send the parcel to {street}, {postcode} {city}"],
)
LP["de"] = dict(
    names=["Lena", "Jonas", "Mia", "Felix", "Hannah", "Lukas"],
    cities=["München", "Köln", "Leipzig", "Hamburg", "Freiburg", "Graz", "Zürich"],
    svcs=["Sparkasse-App", "GMX", "Netflix", "DB Navigator", "Amazon", "PayPal", "ELSTER", "Telekom-Kundencenter"],
    banks=["Sparkasse", "Volksbank", "Commerzbank", "DKB", "ING"],
    ssids=["FRITZ!Box 7590 KQ", "o2-WLAN42", "Vodafone-3F2A", "WLAN-Mueller", "MagentaWLAN-8XJ2"],
    answers=["Hasso", "Bello", "Mieze", "Struppi"],
    males=["Jonas", "Felix", "Lukas", "Paul"],
    doctors=["Dr. Yilmaz", "Dr. Becker", "Dr. Hoffmann"],
    street=lambda: f"{ch(['Lindenstraße', 'Hauptstr.', 'Am Anger', 'Goethestraße'])} {R.randint(1, 120)}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"+49 1{ch(['51', '52', '57', '60', '70', '76'])} {rs(7, DG)}",
    s_pw=["Mein {svc}-Passwort ist {pw}", "Passwort fürs {svc}: {pw} (großes Anfangsbuchstabe nicht vergessen)",
          "Pasword {svc} -> {pw}"],
    s_wifi=["WLAN bei Oma: {ssid}, Kennwort {pw}", "WLAN-Schlüssel fürs Gästenetz {ssid}: {pw}"],
    s_pin=["PIN von der EC-Karte ({bank}): {pin}", "Handy-PIN {pin}, die SIM-PIN ist {pin2}"],
    s_door=["Türcode fürs Haus: {code}", "Code für den Fahrradkeller {code}"],
    s_alarm=["Alarmanlage: Code {code} eingeben, dann OFF drücken"],
    s_safe=["Tresor im Hotelzimmer, Kombination {code}", "Schlüsselbox am Ferienhaus, Code {code}"],
    s_otp=["Bestätigungscode von {svc}: {otp}", "TAN für die Überweisung: {otp}"],
    s_secq=["Sicherheitsfrage (Name des ersten Haustiers) -> Antwort: {ans}"],
    s_tok=["Hier der {svc}-API-Key fürs Projekt: {val}", "Neuer {svc} Token, bitte nicht weitergeben: {val}"],
    b_appt=["Zahnarzttermin am {date} um {time} Uhr bei {doctor}", "Elternabend {date}, {time} Uhr, Raum 12"],
    b_med=["Nimmt morgens {med} zum Frühstück", "{med} 3x täglich für 7 Tage, Packung aufbrauchen"],
    b_pref=["Mag keinen Koriander, trinkt Kaffee mit Hafermilch", "Sitzt im Zug lieber am Fenster, Ruhebereich"],
    b_family=["{name} hat am {date} Geburtstag – wünscht sich ein Fahrrad", "Bruder {bro} ist nach {city} gezogen"],
    b_travel=["Urlaub in {city} ab {date}, Ferienwohnung am See", "Im Herbst nach {city}, Bahn statt Flug"],
    b_pwtalk=["Muss am Wochenende mein E-Mail-Passwort ändern",
              "Neue PIN für die Karte kommt per Post, die alte Karte ist gesperrt",
              "Das WLAN-Passwort steht auf dem Aufkleber unter dem Router"],
    b_contact=["Handwerker Herr Kaya: {phone}", "Neue E-Mail von {name}: {email}"],
    b_lab=["Blutwerte vom {date}: HbA1c {a1c} %, LDL {ldl_mg} mg/dl, TSH {tsh} mU/l", "Blutdruck heute {bp}, Puls {pulse}"],
    b_addr=["Neue Adresse von Oma: {street}, {postcode} {city}"],
)
LP["fr"] = dict(
    names=["Camille", "Louis", "Chloé", "Hugo", "Manon"],
    cities=["Lyon", "Nantes", "Bordeaux", "Lille", "Montréal", "Bruxelles"],
    svcs=["Ameli", "Free", "Doctolib", "Leboncoin", "Netflix", "la banque en ligne", "impots.gouv", "SNCF Connect"],
    banks=["Crédit Agricole", "BNP", "Société Générale", "La Banque Postale"],
    ssids=["Livebox-7B21", "Freebox-3A9F2C", "SFR_8E40", "Bbox-4C2D11"],
    answers=["Pompon", "Moustache", "Filou", "Caramel"],
    males=["Louis", "Hugo", "Théo"],
    doctors=["Dr Martin", "Dr Lefèvre", "Dr Benali"],
    street=lambda: f"{R.randint(1, 90)} {ch(['rue des Lilas', 'avenue Jean Jaurès', 'boulevard Victor Hugo', 'impasse du Moulin'])}",
    postcode=lambda: rs(5, DG),
    phone=lambda: "0" + ch("67") + " " + " ".join(rs(2, DG) for _ in range(4)),
    s_pw=["mon mot de passe {svc} c'est {pw}", "mdp {svc} : {pw}",
          "mot de pass pour {svc} = {pw} (ne pas oublier le point d'exclamation)"],
    s_wifi=["Code wifi chez mamie ({ssid}) : {pw}", "clé wifi de la box {ssid} : {pw}"],
    s_pin=["le code de ma carte bleue est {pin}", "code carte bleu {bank} {pin}"],
    s_door=["digicode de l'immeuble : {code}", "code du portail {code}, puis 2e étage gauche"],
    s_alarm=["code de l'alarme : {code}"],
    s_safe=["code du coffre-fort de la chambre : {code}", "boîte à clés du gîte : {code}"],
    s_otp=["code de verification {svc} : {otp}", "le code reçu par SMS pour {svc} est {otp}"],
    s_secq=["question secrète (nom de mon premier animal) : {ans}"],
    s_tok=["clé API {svc} pour le projet : {val}", "voilà le token {svc} dont tu as besoin {val}"],
    b_appt=["RDV chez le dentiste le {date} à {time} avec {doctor}", "Réunion parents-profs le {date} à {time}"],
    b_med=["Prend {med} tous les matins", "{med} matin et soir pendant 10 jours"],
    b_pref=["N'aime pas la coriandre, préfère le thé vert sans sucre", "Préfère les places côté couloir dans le TGV"],
    b_family=["Anniversaire de {name} le {date}, lui offrir un livre", "Mon frère {bro} habite maintenant à {city}"],
    b_travel=["Vacances à {city} à partir du {date}, location près de la plage", "Week-end à {city} en train"],
    b_pwtalk=["Penser à changer le mot de passe de la box ce week-end",
              "Ma nouvelle carte arrive, le code sera envoyé séparément par courrier",
              "J'ai oublié mon mot de passe Ameli, il faut cliquer sur « mot de passe oublié »"],
    b_contact=["Plombier (M. Garnier) : {phone}", "Nouvel e-mail de {name} : {email}"],
    b_lab=["Prise de sang du {date} : glycémie {glucose_g} g/L, LDL {ldl_g} g/L, ferritine {ferritin} µg/L",
           "Tension ce matin {bp}, pouls {pulse}"],
    b_addr=["Nouvelle adresse de mamie : {street}, {postcode} {city}"],
)
LP["es"] = dict(
    names=["Lucía", "Mateo", "Sofía", "Hugo", "Valeria"],
    cities=["Sevilla", "Valencia", "Bilbao", "Ciudad de México", "Buenos Aires", "Bogotá"],
    svcs=["BBVA", "Santander", "Mercado Libre", "Netflix", "Gmail", "la app del banco", "Movistar", "Bizum"],
    banks=["BBVA", "Santander", "CaixaBank", "Bankinter"],
    ssids=["MOVISTAR_4A2C", "MiFibra-7C31", "vodafoneD5E8", "Casa_Garcia"],
    answers=["Canela", "Toby", "Lola", "Pelusa"],
    males=["Mateo", "Hugo", "Pablo"],
    doctors=["Dra. López", "Dr. Martínez"],
    street=lambda: f"{ch(['Calle Mayor', 'Av. de la Constitución', 'Calle del Sol'])} {R.randint(1, 150)}, {R.randint(1, 8)}º{ch('ABCD')}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"+34 6{rs(2, DG)} {rs(3, DG)} {rs(3, DG)}",
    s_pw=["mi contraseña de {svc} es {pw}", "contrasena {svc}: {pw}", "la clave de {svc} la cambié a {pw}"],
    s_wifi=["la clave del wifi de casa ({ssid}) es {pw}", "wifi del piso: red {ssid}, contraseña {pw}"],
    s_pin=["el PIN de la tarjeta {bank} es {pin}", "pin del movil {pin}"],
    s_door=["código del portal: {code}", "el codigo de la puerta del garaje es {code}"],
    s_alarm=["código de la alarma {code}, tienes 30 segundos"],
    s_safe=["combinación de la caja fuerte: {code}", "caja de llaves del apartamento: {code}"],
    s_otp=["código de verificación de {svc}: {otp}", "me llegó el código {otp} de {svc}"],
    s_secq=["respuesta a la pregunta de seguridad (nombre de mi primera mascota): {ans}"],
    s_tok=["te paso la API key de {svc}: {val}", "token de {svc} para el proyecto: {val}"],
    b_appt=["Cita con el dentista el {date} a las {time} con {doctor}", "Reunión de padres el {date} a las {time}"],
    b_med=["Toma {med} cada mañana con el desayuno", "{med} cada 8 horas durante 5 días"],
    b_pref=["No le gusta el cilantro, prefiere café con leche de avena", "Prefiere asiento de ventanilla en el avión"],
    b_family=["El cumpleaños de {name} es el {date}", "Mi hermano {bro} se mudó a {city}"],
    b_travel=["Viaje a {city} el {date}, hotel cerca del centro", "Quiere conocer {city} en primavera"],
    b_pwtalk=["Recuérdame cambiar la contraseña del correo este finde",
              "El banco me va a mandar el PIN nuevo por correo",
              "No guardes contraseñas en notas, usa el gestor"],
    b_contact=["Fontanero (Paco): {phone}", "Correo nuevo de {name}: {email}"],
    b_lab=["Análisis del {date}: glucosa {glucose_mg} mg/dL, colesterol LDL {ldl_mg} mg/dL, hemoglobina {hb} g/dL",
           "Tensión esta mañana {bp}"],
    b_addr=["Dirección nueva de la abuela: {street}, {postcode} {city}"],
)
LP["it"] = dict(
    names=["Giulia", "Marco", "Chiara", "Luca", "Sofia"],
    cities=["Bologna", "Torino", "Napoli", "Firenze", "Palermo", "Verona"],
    svcs=["Poste", "Intesa Sanpaolo", "SPID", "Netflix", "Gmail", "Fineco", "Trenitalia", "Amazon"],
    banks=["Intesa", "UniCredit", "BPER", "Fineco"],
    ssids=["TIM-28471903", "FASTWEB-A1B2C3", "Vodafone-A48593012", "WindTre-5G-3F"],
    answers=["Birba", "Fufi", "Briciola", "Pallino"],
    males=["Marco", "Luca", "Matteo"],
    doctors=["dott.ssa Ricci", "dott. Romano"],
    street=lambda: f"{ch(['Via Roma', 'Corso Italia', 'Via Garibaldi', 'Piazza Dante'])} {R.randint(1, 99)}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"+39 3{rs(2, DG)} {rs(3, DG)} {rs(4, DG)}",
    s_pw=["la password di {svc} è {pw}", "pass {svc} = {pw}", "nuova pasword per {svc}: {pw}"],
    s_wifi=["password del wifi ({ssid}): {pw}"],
    s_pin=["il PIN del bancomat è {pin}", "PIN carta {bank}: {pin}"],
    s_door=["codice del portone: {code}", "codice cancello {code}"],
    s_alarm=["codice allarme: {code}"],
    s_safe=["combinazione cassaforte {code}", "cassetta delle chiavi dell'appartamento: {code}"],
    s_otp=["codice OTP di {svc}: {otp}", "codice di verifica {svc} {otp}"],
    s_secq=["domanda di sicurezza, nome del primo animale: {ans}"],
    s_tok=["ecco la chiave API di {svc}: {val}"],
    b_appt=["Appuntamento dal dentista il {date} alle {time} con {doctor}", "Colloquio con le maestre il {date} alle {time}"],
    b_med=["Prende {med} ogni mattina", "{med} due volte al giorno per una settimana"],
    b_pref=["Non sopporta il coriandolo, caffè macchiato senza zucchero", "Preferisce il posto corridoio in treno"],
    b_family=["Il compleanno di {name} è il {date}", "Mio fratello {bro} si è trasferito a {city}"],
    b_travel=["Vacanza a {city} dal {date}, appartamento vicino al mare"],
    b_pwtalk=["Ricordami di cambiare la password della mail nel weekend", "Il nuovo PIN del bancomat arriva per posta",
              "La password del wifi è sull'etichetta del modem"],
    b_contact=["Idraulico (Franco): {phone}", "Nuova email di {name}: {email}"],
    b_lab=["Esami del sangue del {date}: glicemia {glucose_mg} mg/dL, colesterolo LDL {ldl_mg} mg/dL, creatinina {creat} mg/dL"],
    b_addr=["Nuovo indirizzo della nonna: {street}, {postcode} {city}"],
)
LP["pt"] = dict(
    names=["Ana", "João", "Beatriz", "Pedro", "Larissa"],
    cities=["São Paulo", "Lisboa", "Porto", "Recife", "Curitiba", "Belo Horizonte"],
    svcs=["Nubank", "Itaú", "gov.br", "Netflix", "Gmail", "iFood", "Mercado Pago", "Bradesco"],
    banks=["Nubank", "Itaú", "Bradesco", "Caixa", "Millennium"],
    ssids=["VIVO-8A2F", "NET_2G4A1B2C", "CLARO_5G7D3E", "MEO-4B2C1A"],
    answers=["Pipoca", "Thor", "Mel", "Paçoca"],
    males=["João", "Pedro", "Rafael"],
    doctors=["Dra. Souza", "Dr. Almeida"],
    street=lambda: f"{ch(['Rua das Flores', 'Av. Paulista', 'Rua Augusta', 'Travessa do Carmo'])}, {R.randint(10, 2000)}",
    postcode=lambda: f"{rs(5, DG)}-{rs(3, DG)}",
    phone=lambda: f"(11) 9{rs(4, DG)}-{rs(4, DG)}",
    s_pw=["minha senha do {svc} é {pw}", "senha {svc}: {pw}", "a senha nova do {svc} ficou {pw}"],
    s_wifi=["senha do wifi ({ssid}): {pw}"],
    s_pin=["senha do cartão {bank} (4 dígitos): {pin}", "senha de 6 digitos do app: {pin6}"],
    s_door=["código do portão: {code}", "senha da fechadura eletrônica {code}"],
    s_alarm=["código do alarme {code}"],
    s_safe=["segredo do cofre: {code}"],
    s_otp=["código de verificação do {svc}: {otp}"],
    s_secq=["pergunta secreta - nome do primeiro animal: {ans}"],
    s_tok=["chave da API do {svc}: {val}", "token do {svc} que o Rafa pediu: {val}"],
    b_appt=["Consulta no dentista dia {date} às {time} com {doctor}", "Reunião da escola dia {date} às {time}"],
    b_med=["Toma {med} todo dia de manhã", "{med} de 8 em 8 horas por 7 dias"],
    b_pref=["Não gosta de coentro, prefere café sem açúcar", "Prefere janela no avião"],
    b_family=["Aniversário de {name} é dia {date}", "Meu irmão {bro} mudou para {city}"],
    b_travel=["Viagem para {city} dia {date}, pousada perto da praia"],
    b_pwtalk=["Lembrar de trocar a senha do e-mail no fim de semana",
              "O banco vai mandar a senha nova do cartão pelo correio",
              "A senha do wifi está na etiqueta do roteador"],
    b_contact=["Encanador (Seu Zé): {phone}", "E-mail novo de {name}: {email}"],
    b_lab=["Exames de {date}: glicose {glucose_mg} mg/dL, colesterol LDL {ldl_mg} mg/dL, vitamina D {vitd} ng/mL"],
    b_addr=["Endereço novo da vó: {street}, CEP {postcode}, {city}"],
)
LP["nl"] = dict(
    names=["Sanne", "Daan", "Emma", "Bram", "Fleur"],
    cities=["Utrecht", "Groningen", "Gent", "Eindhoven", "Haarlem"],
    svcs=["DigiD", "ING", "Rabobank", "bol.com", "Netflix", "Ziggo", "Gmail"],
    banks=["ING", "Rabobank", "ABN AMRO", "ASN"],
    ssids=["Ziggo8842391", "KPN-3F2A1B", "H369A8C21D4", "Thuis_deJong"],
    answers=["Snuffie", "Bobbie", "Pluisje", "Max"],
    males=["Daan", "Bram", "Sem"],
    doctors=["dokter Visser", "tandarts De Vries"],
    street=lambda: f"{ch(['Kerkstraat', 'Dorpsweg', 'Molenlaan', 'Prinsengracht'])} {R.randint(1, 300)}",
    postcode=lambda: f"{R.randint(1000, 9999)} {rs(2, UP)}",
    phone=lambda: f"06-{rs(8, DG)}",
    s_pw=["mijn wachtwoord voor {svc} is {pw}", "ww {svc}: {pw}"],
    s_wifi=["wifi-wachtwoord thuis ({ssid}): {pw}"],
    s_pin=["pincode bankpas {bank}: {pin}"],
    s_door=["deurcode van het gebouw: {code}", "code fietsenstalling {code}"],
    s_alarm=["alarmcode: {code}"],
    s_safe=["code van de kluis: {code}", "sleutelkastje vakantiehuis: {code}"],
    s_otp=["verificatiecode {svc}: {otp}"],
    s_secq=["beveiligingsvraag (naam eerste huisdier): {ans}"],
    s_tok=["hier is de {svc} API-sleutel: {val}"],
    b_appt=["Tandarts op {date} om {time} bij {doctor}", "Oudergesprek {date} om {time}"],
    b_med=["Neemt elke ochtend {med}", "{med} drie keer per dag, kuur afmaken"],
    b_pref=["Houdt niet van koriander, drinkt koffie met havermelk"],
    b_family=["{name} is jarig op {date}", "Broer {bro} woont nu in {city}"],
    b_travel=["Vakantie in {city} vanaf {date}, huisje bij het meer"],
    b_pwtalk=["Wachtwoord van de mail moet dit weekend veranderd worden",
              "Nieuwe pincode komt per post, oude pas is geblokkeerd"],
    b_contact=["Loodgieter (Kees): {phone}", "Nieuw mailadres van {name}: {email}"],
    b_lab=["Bloeduitslag {date}: HbA1c {a1c_mmol} mmol/mol, LDL {ldl} mmol/L, Hb {hb_mmol} mmol/L"],
    b_addr=["Nieuw adres van oma: {street}, {postcode} {city}"],
)
LP["pl"] = dict(
    names=["Zuzia", "Kuba", "Ola", "Bartek"],
    cities=["Kraków", "Wrocław", "Gdańsk", "Poznań", "Łódź"],
    svcs=["mBank", "PKO", "Allegro", "Netflix", "Gmail", "ePUAP", "Orange"],
    banks=["PKO BP", "mBank", "Pekao", "ING"],
    ssids=["UPC1234567", "Orange_Swiatlowod_4F2A", "PLAY_LTE_9D3C", "Dom_Nowakow"],
    answers=["Burek", "Reksio", "Mruczek", "Azor"],
    males=["Kuba", "Bartek", "Tomek"],
    doctors=["dr Nowak", "dr Wiśniewska"],
    street=lambda: f"ul. {ch(['Długa', 'Kwiatowa', 'Mickiewicza', 'Polna'])} {R.randint(1, 80)}/{R.randint(1, 40)}",
    postcode=lambda: f"{rs(2, DG)}-{rs(3, DG)}",
    phone=lambda: f"+48 {ch('5678')}{rs(2, DG)} {rs(3, DG)} {rs(3, DG)}",
    s_pw=["moje hasło do {svc} to {pw}", "haslo {svc}: {pw}"],
    s_wifi=["hasło do wifi ({ssid}): {pw}"],
    s_pin=["PIN do karty {bank}: {pin}"],
    s_door=["kod do domofonu: {code}", "kod do klatki {code}"],
    s_alarm=["kod alarmu: {code}"],
    s_safe=["szyfr do sejfu: {code}"],
    s_otp=["kod weryfikacyjny {svc}: {otp}", "kod BLIK {otp6}"],
    s_secq=["pytanie bezpieczeństwa - imię pierwszego zwierzaka: {ans}"],
    s_tok=["klucz API do {svc}: {val}"],
    b_appt=["Dentysta {date} o {time}, {doctor}", "Wywiadówka {date} o {time}"],
    b_med=["Bierze {med} codziennie rano", "{med} 2 razy dziennie przez 7 dni"],
    b_pref=["Nie lubi kolendry, pije herbatę bez cukru"],
    b_family=["{name} ma urodziny {date}", "Brat {bro} mieszka teraz w mieście {city}"],
    b_travel=["Wyjazd do miasta {city} {date}, nocleg blisko dworca"],
    b_pwtalk=["Muszę zmienić hasło do poczty w weekend", "Nowy PIN do karty przyjdzie pocztą"],
    b_contact=["Hydraulik (pan Marek): {phone}", "Nowy mail {name}: {email}"],
    b_lab=["Wyniki z {date}: glukoza {glucose_mg} mg/dl, LDL {ldl_mg} mg/dl, TSH {tsh} mIU/l"],
    b_addr=["Nowy adres babci: {street}, {postcode} {city}"],
)
LP["sv"] = dict(
    names=["Elsa", "Oskar", "Maja", "Hugo"],
    cities=["Göteborg", "Malmö", "Uppsala", "Umeå"],
    svcs=["BankID", "Swedbank", "Handelsbanken", "Netflix", "Gmail", "Blocket", "Klarna"],
    banks=["Swedbank", "Handelsbanken", "SEB", "Nordea"],
    ssids=["Telia-4F2A1B", "Tele2_5G_88", "COMHEM_3D2A1C", "Hemma_Lindqvist"],
    answers=["Sixten", "Musse", "Kurre", "Ludde"],
    males=["Oskar", "Hugo", "Erik"],
    doctors=["doktor Berg", "tandläkare Holm"],
    street=lambda: f"{ch(['Storgatan', 'Kungsgatan', 'Björkvägen'])} {R.randint(1, 90)}",
    postcode=lambda: f"{rs(3, DG)} {rs(2, DG)}",
    phone=lambda: f"070-{rs(3, DG)} {rs(2, DG)} {rs(2, DG)}",
    s_pw=["mitt lösenord till {svc} är {pw}", "losenord {svc}: {pw}"],
    s_wifi=["wifi-lösenordet ({ssid}): {pw}"],
    s_pin=["pinkoden till kortet är {pin}"],
    s_door=["portkod: {code}"],
    s_alarm=["larmkoden är {code}"],
    s_safe=["kassaskåpets kod: {code}", "nyckelboxen vid stugan: {code}"],
    s_otp=["engångskod från {svc}: {otp}"],
    s_secq=["säkerhetsfråga, första husdjurets namn: {ans}"],
    s_tok=["här är API-nyckeln till {svc}: {val}"],
    b_appt=["Tandläkartid {date} kl. {time} hos {doctor}", "Utvecklingssamtal {date} kl {time}"],
    b_med=["Tar {med} varje morgon"],
    b_pref=["Gillar inte koriander, dricker kaffe med havremjölk"],
    b_family=["{name} fyller år {date}", "Brorsan {bro} har flyttat till {city}"],
    b_travel=["Semester i {city} från {date}, stuga vid sjön"],
    b_pwtalk=["Måste byta lösenord på mejlen i helgen", "Ny pinkod kommer med posten"],
    b_contact=["Rörmokare (Janne): {phone}", "Ny mejl till {name}: {email}"],
    b_lab=["Provsvar {date}: HbA1c {a1c_mmol} mmol/mol, LDL {ldl} mmol/L, Hb {hb_gl} g/L"],
    b_addr=["Mormors nya adress: {street}, {postcode} {city}"],
)
LP["tr"] = dict(
    names=["Elif", "Emre", "Zeynep", "Mehmet"],
    cities=["İzmir", "Ankara", "Bursa", "Antalya", "Eskişehir"],
    svcs=["e-Devlet", "Garanti BBVA", "Trendyol", "Netflix", "Gmail", "Getir", "Akbank"],
    banks=["Ziraat", "Garanti", "İş Bankası", "Akbank"],
    ssids=["TurkTelekom_T8C3A", "SUPERONLINE_WiFi_4821", "TTNET_ZyXEL_9F2A", "Ev_Yilmaz"],
    answers=["Boncuk", "Karabaş", "Pamuk", "Tarçın"],
    males=["Emre", "Mehmet", "Can"],
    doctors=["Dr. Demir", "Dr. Kaya"],
    street=lambda: f"{ch(['Atatürk Cad.', 'Cumhuriyet Mah.', 'İnönü Sok.'])} No:{R.randint(1, 120)} D:{R.randint(1, 20)}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"0 5{rs(2, DG)} {rs(3, DG)} {rs(2, DG)} {rs(2, DG)}",
    s_pw=["{svc} şifrem {pw}", "{svc} sifresi: {pw}"],
    s_wifi=["evin wifi şifresi ({ssid}): {pw}"],
    s_pin=["{bank} kartın şifresi {pin}"],
    s_door=["apartman kapı kodu: {code}"],
    s_alarm=["alarm kodu: {code}"],
    s_safe=["kasa şifresi: {code}"],
    s_otp=["{svc} doğrulama kodu: {otp}", "{svc} tek kullanımlık şifre {otp}"],
    s_secq=["güvenlik sorusu cevabı (ilk evcil hayvan): {ans}"],
    s_tok=["{svc} API anahtarı: {val}"],
    b_appt=["{date} saat {time} dişçi randevusu, {doctor}", "Veli toplantısı {date} saat {time}"],
    b_med=["Her sabah {med} alıyor", "{med} günde 2 kez, 7 gün"],
    b_pref=["Kişniş sevmiyor, çayı şekersiz içiyor"],
    b_family=["{name} doğum günü {date}", "Kardeşim {name} artık {city} şehrinde yaşıyor"],
    b_travel=["{date} tarihinde {city} tatili, denize yakın otel"],
    b_pwtalk=["Hafta sonu e-posta şifremi değiştirmem lazım", "Yeni kart şifresi SMS ile gelecekmiş",
              "Wifi şifresi modemin altındaki etikette yazıyor"],
    b_contact=["Tesisatçı (Hasan usta): {phone}", "{name} yeni e-posta: {email}"],
    b_lab=["{date} tahlil: açlık şekeri {glucose_mg} mg/dL, LDL {ldl_mg} mg/dL, B12 {b12} pg/mL"],
    b_addr=["Anneannemin yeni adresi: {street}, {postcode} {city}"],
)
LP["ru"] = dict(
    names=["Маша", "Дима", "Аня", "Саша"],
    cities=["Казань", "Новосибирск", "Екатеринбург", "Санкт-Петербург"],
    svcs=["Госуслуги", "Сбербанк Онлайн", "Т-Банк", "ВКонтакте", "Яндекс", "Gmail", "Ozon"],
    banks=["Сбер", "Т-Банк", "Альфа", "ВТБ"],
    ssids=["MGTS_GPON_4821", "Keenetic-3F2A", "Beeline_2G_7A1C", "TP-Link_Petrovy"],
    answers=["Мурка", "Шарик", "Барсик", "Дружок"],
    males=["Дима", "Саша", "Миша"],
    doctors=["врач Смирнова", "стоматолог Петров"],
    street=lambda: f"ул. {ch(['Ленина', 'Садовая', 'Пушкина', 'Мира'])}, д. {R.randint(1, 90)}, кв. {R.randint(1, 200)}",
    postcode=lambda: rs(6, DG),
    phone=lambda: f"+7 9{rs(2, DG)} {rs(3, DG)}-{rs(2, DG)}-{rs(2, DG)}",
    s_pw=["мой пароль от {svc}: {pw}", "пароль {svc} — {pw}", "пороль от {svc} {pw}"],
    s_wifi=["пароль от вайфая ({ssid}): {pw}"],
    s_pin=["пин-код карты {bank}: {pin}"],
    s_door=["код домофона: {code}", "код от подъезда {code}"],
    s_alarm=["код сигнализации {code}"],
    s_safe=["код от сейфа: {code}"],
    s_otp=["код подтверждения {svc}: {otp}", "код из смс от {svc} — {otp}"],
    s_secq=["контрольный вопрос, кличка первого питомца: {ans}"],
    s_tok=["ключ API {svc}: {val}", "токен {svc} для бота: {val}"],
    b_appt=["Запись к стоматологу {date} в {time}, {doctor}", "Родительское собрание {date} в {time}"],
    b_med=["Принимает {med} каждое утро", "{med} 2 раза в день, 7 дней"],
    b_pref=["Не любит кинзу, пьёт чай без сахара"],
    b_family=["День рождения: {name}, {date}", "Брат {bro} теперь живёт в городе {city}"],
    b_travel=["Отпуск: {city}, с {date}, гостиница у вокзала"],
    b_pwtalk=["Надо поменять пароль от почты на выходных", "Новый пин-код придёт в смс при получении карты",
              "Пароль от вайфая написан на наклейке под роутером"],
    b_contact=["Сантехник (Виктор): {phone}", "Новая почта {name}: {email}"],
    b_lab=["Анализы от {date}: глюкоза {glucose_mmol} ммоль/л, холестерин {chol} ммоль/л, гемоглобин {hb_gl} г/л"],
    b_addr=["Новый адрес бабушки: {postcode}, г. {city}, {street}"],
    meds=["метформин 500 мг", "эналаприл 10 мг", "аторвастатин 20 мг", "L-тироксин 50 мкг"],
)
LP["ja"] = dict(
    names=["さくら", "健太", "美咲", "翔太"],
    cities=["大阪", "札幌", "福岡", "京都", "名古屋"],
    svcs=["楽天", "ゆうちょ", "LINE", "Amazon", "Netflix", "Gmail", "マイナポータル", "PayPay"],
    banks=["ゆうちょ", "三菱UFJ", "楽天銀行", "みずほ"],
    ssids=["aterm-3f2a1b-g", "Buffalo-G-1A2B", "elecom2g-4c1d2e", "au-home-8842"],
    answers=["ポチ", "タマ", "モモ", "チョコ"],
    males=["健太", "翔太", "大輔"],
    doctors=["田中先生", "山本歯科"],
    street=lambda: f"{ch(['渋谷区神南', '中央区銀座', '北区梅田'])}{R.randint(1, 5)}-{R.randint(1, 30)}-{R.randint(1, 20)}",
    postcode=lambda: f"〒{rs(3, DG)}-{rs(4, DG)}",
    phone=lambda: f"090-{rs(4, DG)}-{rs(4, DG)}",
    s_pw=["{svc}のパスワードは{pw}です", "{svc} パスワード：{pw}", "{svc}のパスワ一ド忘れないように {pw}"],
    s_wifi=["実家のWi-Fi（{ssid}）のパスワード：{pw}"],
    s_pin=["キャッシュカードの暗証番号は{pin}", "{bank}の暗証番号 {pin}"],
    s_door=["マンションのオートロック番号：{code}"],
    s_alarm=["警報装置の解除コード {code}"],
    s_safe=["金庫の番号：{code}", "キーボックスの暗証番号 {code}"],
    s_otp=["{svc}の確認コード：{otp}", "{svc} ワンタイムパスワード {otp}"],
    s_secq=["秘密の質問（初めてのペットの名前）の答え：{ans}"],
    s_tok=["{svc}のAPIキー：{val}", "{svc} トークン（本番用）{val}"],
    b_appt=["{date} {time} 歯医者（{doctor}）", "{date}の{time}から保護者面談"],
    b_med=["毎朝{med}を服用", "{med}を1日2回、7日間"],
    b_pref=["パクチーが苦手、コーヒーはブラック"],
    b_family=["{name}の誕生日は{date}", "弟の{bro}は{city}に引っ越した"],
    b_travel=["{date}から{city}旅行、駅近くのホテル"],
    b_pwtalk=["週末にメールのパスワードを変更すること", "新しいカードの暗証番号は郵送で届く予定",
              "Wi-Fiのパスワードはルーターの裏に書いてある"],
    b_contact=["水道屋さん：{phone}", "{name}の新しいメール：{email}"],
    b_lab=["{date}の血液検査：HbA1c {a1c}%、LDL {ldl_mg} mg/dL、血圧 {bp}"],
    b_addr=["祖母の新住所：{postcode} {city}{street}"],
    meds=["ロキソニン 60mg", "メトホルミン 500mg", "アムロジピン 5mg", "ムコダイン 500mg"],
)
LP["zh"] = dict(
    names=["小明", "丽丽", "王芳", "张伟"],
    cities=["成都", "杭州", "深圳", "西安", "南京"],
    svcs=["支付宝", "微信", "淘宝", "工商银行", "12306", "京东", "网易邮箱"],
    banks=["工商", "建设", "招商", "农业"],
    ssids=["ChinaNet-3F2A", "TP-LINK_8842", "CMCC-5G-A1B2", "Wang_Home"],
    answers=["旺财", "小白", "豆豆", "咪咪"],
    males=["小明", "张伟", "李强"],
    doctors=["李医生", "王大夫"],
    street=lambda: f"{ch(['朝阳区建国路', '武侯区人民南路', '西湖区文三路'])}{R.randint(1, 300)}号",
    postcode=lambda: rs(6, DG),
    phone=lambda: f"13{rs(1, DG)} {rs(4, DG)} {rs(4, DG)}",
    s_pw=["我的{svc}密码是{pw}", "{svc}密码：{pw}", "{svc} 登陆密码 {pw}"],
    s_wifi=["家里WiFi（{ssid}）密码：{pw}"],
    s_pin=["{bank}银行卡密码{pin6}", "支付密码 {pin6}"],
    s_door=["小区门禁密码：{code}", "家门密码锁 {code}"],
    s_alarm=["报警器解除密码 {code}"],
    s_safe=["保险柜密码：{code}"],
    s_otp=["{svc}验证码：{otp}，5分钟内有效", "{svc} 动态码 {otp}"],
    s_secq=["密保问题（第一只宠物的名字）答案：{ans}"],
    s_tok=["{svc}的API密钥：{val}", "{svc} token 给你：{val}"],
    b_appt=["{date}{time}看牙医（{doctor}）", "{date}{time}开家长会"],
    b_med=["每天早上吃{med}", "{med}，一天两次，连吃七天"],
    b_pref=["不吃香菜，喝咖啡不加糖"],
    b_family=["{name}的生日是{date}", "弟弟{bro}搬到{city}了"],
    b_travel=["{date}去{city}旅游，住火车站附近"],
    b_pwtalk=["周末记得改一下邮箱密码", "新卡的密码要去柜台设置", "WiFi密码写在路由器背面"],
    b_contact=["修水管师傅：{phone}", "{name}的新邮箱：{email}"],
    b_lab=["{date}体检：空腹血糖{glucose_mmol} mmol/L，低密度脂蛋白{ldl} mmol/L，血压{bp}"],
    b_addr=["奶奶新地址：{city}{street}，邮编{postcode}"],
    meds=["二甲双胍 500mg", "阿莫西林 0.5g", "氨氯地平 5mg", "布洛芬 300mg"],
)
LP["ko"] = dict(
    names=["지민", "민준", "서연", "하준"],
    cities=["부산", "대구", "인천", "광주", "제주"],
    svcs=["카카오뱅크", "네이버", "토스", "쿠팡", "국민은행", "넷플릭스", "Gmail"],
    banks=["국민", "신한", "우리", "카카오뱅크"],
    ssids=["iptime_4821", "KT_GiGA_2G_3F2A", "SK_WiFiGIGA8A1C", "U+Net7D3E"],
    answers=["초코", "뽀삐", "콩이", "보리"],
    males=["민준", "하준", "도윤"],
    doctors=["김 원장님", "이 치과"],
    street=lambda: f"{ch(['강남구 테헤란로', '해운대구 우동', '마포구 양화로'])} {R.randint(1, 300)}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"010-{rs(4, DG)}-{rs(4, DG)}",
    s_pw=["{svc} 비밀번호는 {pw}", "{svc} 비번: {pw}"],
    s_wifi=["집 와이파이({ssid}) 비밀번호: {pw}"],
    s_pin=["{bank} 체크카드 비밀번호 {pin}", "간편결제 비밀번호 {pin6}"],
    s_door=["현관 도어락 비밀번호: {code}", "공동현관 비번 {code}"],
    s_alarm=["경보 해제 코드 {code}"],
    s_safe=["금고 비밀번호: {code}"],
    s_otp=["{svc} 인증번호: {otp}", "[{svc}] 인증번호 [{otp6}]를 입력해주세요"],
    s_secq=["보안 질문(첫 애완동물 이름) 답: {ans}"],
    s_tok=["{svc} API 키: {val}"],
    b_appt=["{date} {time} 치과 예약 ({doctor})", "{date} {time} 학부모 상담"],
    b_med=["매일 아침 {med} 복용", "{med} 하루 두 번, 7일간"],
    b_pref=["고수 싫어함, 아메리카노 좋아함"],
    b_family=["{name} 생일은 {date}", "동생 {name}이 {city}로 이사함"],
    b_travel=["{date} {city} 여행, 역 근처 호텔"],
    b_pwtalk=["주말에 이메일 비밀번호 바꾸기", "새 카드 비밀번호는 은행 가서 등록해야 함"],
    b_contact=["배관공 아저씨: {phone}", "{name} 새 이메일: {email}"],
    b_lab=["{date} 건강검진: 공복혈당 {glucose_mg} mg/dL, LDL {ldl_mg} mg/dL, 혈압 {bp}"],
    b_addr=["할머니 새 주소: {city} {street} (우편번호 {postcode})"],
    meds=["타이레놀 500mg", "메트포르민 500mg", "아모잘탄 5/50mg"],
)
LP["ar"] = dict(
    names=["ليلى", "أحمد", "مريم", "يوسف"],
    cities=["دبي", "الرياض", "عمّان", "القاهرة", "الدار البيضاء"],
    svcs=["الراجحي", "أبشر", "نتفليكس", "Gmail", "stc pay", "طلبات"],
    banks=["الراجحي", "الأهلي", "بنك مصر"],
    ssids=["STC_WiFi_4821", "Etisalat-3F2A", "du-Home-8A1C", "WE_9D3C2B"],
    answers=["لولو", "بسبس", "سمسم", "فلفل"],
    males=["أحمد", "يوسف", "عمر"],
    doctors=["د. خالد", "د. سارة"],
    street=lambda: f"شارع {ch(['الملك فهد', 'الجامعة', 'النيل'])} {R.randint(1, 200)}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"+971 5{rs(1, DG)} {rs(3, DG)} {rs(4, DG)}",
    s_pw=["كلمة المرور لحساب {svc} هي {pw}", "كلمة السر {svc}: {pw}", "الباسورد حق {svc} {pw}"],
    s_wifi=["كلمة سر الواي فاي ({ssid}): {pw}"],
    s_pin=["الرقم السري لبطاقة {bank}: {pin}"],
    s_door=["رمز باب العمارة: {code}"],
    s_alarm=["رمز الإنذار {code}"],
    s_safe=["رقم الخزنة: {code}"],
    s_otp=["رمز التحقق من {svc}: {otp}"],
    s_secq=["إجابة سؤال الأمان (اسم أول حيوان أليف): {ans}"],
    s_tok=["مفتاح API الخاص بـ {svc}: {val}"],
    b_appt=["موعد طبيب الأسنان يوم {date} الساعة {time} مع {doctor}", "اجتماع أولياء الأمور {date} الساعة {time}"],
    b_med=["يأخذ {med} كل صباح"],
    b_pref=["لا يحب الكزبرة، يشرب القهوة بدون سكر"],
    b_family=["عيد ميلاد {name} في {date}", "أخي {bro} انتقل إلى {city}"],
    b_travel=["سفر إلى {city} يوم {date}، فندق قريب من الشاطئ"],
    b_pwtalk=["لازم أغير كلمة سر الإيميل نهاية الأسبوع", "الرقم السري الجديد للبطاقة يوصل برسالة"],
    b_contact=["السبّاك أبو محمد: {phone}", "إيميل {name} الجديد: {email}"],
    b_lab=["تحليل {date}: السكر التراكمي {a1c}%، الكوليسترول الضار {ldl_mg} mg/dL، الضغط {bp}"],
    b_addr=["عنوان جدتي الجديد: {street}، {city} {postcode}"],
)
LP["hi"] = dict(
    names=["आरव", "प्रिया", "रोहन", "अनन्या"],
    cities=["पुणे", "जयपुर", "बेंगलुरु", "लखनऊ", "कोच्चि"],
    svcs=["SBI YONO", "Paytm", "PhonePe", "IRCTC", "Gmail", "Flipkart", "Netflix"],
    banks=["SBI", "HDFC", "ICICI", "Axis"],
    ssids=["Airtel_Sharma_5G", "JioFiber-4821", "ACT_3F2A", "Excitel_8A1C"],
    answers=["मोती", "टॉमी", "शेरू", "बिट्टू"],
    males=["आरव", "रोहन", "विकास"],
    doctors=["डॉ. मेहता", "डॉ. अय्यर"],
    street=lambda: f"{R.randint(1, 400)}, {ch(['एमजी रोड', 'सेक्टर 21', 'गांधी नगर'])}",
    postcode=lambda: ch("1234567") + rs(5, DG),
    phone=lambda: f"+91 9{rs(4, DG)} {rs(5, DG)}",
    s_pw=["मेरा {svc} का पासवर्ड {pw} है", "{svc} ka password {pw} hai, yaad rakhna", "{svc} पासवर्ड: {pw}"],
    s_wifi=["घर के वाईफाई ({ssid}) का पासवर्ड: {pw}", "wifi ka pass {pw} hai ({ssid})"],
    s_pin=["एटीएम पिन {pin} है", "PhonePe UPI PIN {pin}"],
    s_door=["फ्लैट के दरवाज़े का कोड: {code}"],
    s_alarm=["alarm ka code {code} hai"],
    s_safe=["तिजोरी का कोड: {code}"],
    s_otp=["{svc} का OTP: {otp}", "OTP {otp} hai, kisi ko mat batana"],
    s_secq=["सुरक्षा प्रश्न (पहले पालतू का नाम) का जवाब: {ans}"],
    s_tok=["{svc} की API key: {val}"],
    b_appt=["{date} को {time} बजे डेंटिस्ट ({doctor})", "PTM {date} ko {time} baje"],
    b_med=["रोज़ सुबह {med} लेते हैं", "{med} din mein do baar, 5 din"],
    b_pref=["धनिया पसंद नहीं, चाय कम चीनी वाली"],
    b_family=["{name} का जन्मदिन {date} को है", "भाई {bro} {city} शिफ्ट हो गया"],
    b_travel=["{date} को {city} की ट्रिप, स्टेशन के पास होटल"],
    b_pwtalk=["इस हफ्ते ईमेल का पासवर्ड बदलना है", "bank se naya ATM PIN post se aayega",
              "OTP kabhi kisi ko share mat karna"],
    b_contact=["प्लंबर (राजू): {phone}", "{name} का नया ईमेल: {email}"],
    b_lab=["{date} की रिपोर्ट: HbA1c {a1c}%, फास्टिंग शुगर {glucose_mg} mg/dL, BP {bp}"],
    b_addr=["दादी का नया पता: {street}, {city} – पिन कोड {postcode}"],
)
LP["id"] = dict(
    names=["Putri", "Budi", "Sari", "Rizky"],
    cities=["Bandung", "Surabaya", "Yogyakarta", "Medan", "Denpasar"],
    svcs=["BCA mobile", "GoPay", "Tokopedia", "Shopee", "OVO", "Gmail", "Netflix"],
    banks=["BCA", "Mandiri", "BRI", "BNI"],
    ssids=["IndiHome-4821", "MyRepublic_3F2A", "Biznet-8A1C", "Rumah_Santoso"],
    answers=["Mochi", "Belang", "Oyen", "Kitty"],
    males=["Budi", "Rizky", "Andi"],
    doctors=["dr. Hendra", "drg. Lestari"],
    street=lambda: f"Jl. {ch(['Merdeka', 'Sudirman', 'Diponegoro', 'Melati'])} No. {R.randint(1, 200)}",
    postcode=lambda: rs(5, DG),
    phone=lambda: f"0812-{rs(4, DG)}-{rs(4, DG)}",
    s_pw=["password {svc} aku {pw}", "kata sandi {svc}: {pw}", "pasword {svc} {pw} jgn lupa"],
    s_wifi=["sandi wifi rumah ({ssid}): {pw}"],
    s_pin=["PIN ATM {bank}: {pin}", "PIN {svc} {pin6}"],
    s_door=["kode pintu apartemen: {code}"],
    s_alarm=["kode alarm {code}"],
    s_safe=["kode brankas: {code}"],
    s_otp=["kode OTP {svc}: {otp}, jangan kasih ke siapa pun"],
    s_secq=["jawaban pertanyaan keamanan (nama hewan peliharaan pertama): {ans}"],
    s_tok=["API key {svc} buat proyek: {val}"],
    b_appt=["Jadwal dokter gigi {date} jam {time} dengan {doctor}", "Rapat wali murid {date} jam {time}"],
    b_med=["Minum {med} setiap pagi", "{med} 3x sehari selama 5 hari"],
    b_pref=["Tidak suka ketumbar, kopi tanpa gula"],
    b_family=["Ulang tahun {name} tanggal {date}", "Adik {name} pindah ke {city}"],
    b_travel=["Liburan ke {city} tanggal {date}, hotel dekat pantai"],
    b_pwtalk=["Minggu ini harus ganti password email", "Jangan pernah kasih OTP ke siapa pun"],
    b_contact=["Tukang ledeng (Pak Joko): {phone}", "Email baru {name}: {email}"],
    b_lab=["Hasil lab {date}: gula darah puasa {glucose_mg} mg/dL, kolesterol LDL {ldl_mg} mg/dL, asam urat {uric} mg/dL"],
    b_addr=["Alamat baru nenek: {street}, {city} {postcode}"],
)
LP["vi"] = dict(
    names=["Linh", "Minh", "Hà", "Tuấn"],
    cities=["Hà Nội", "Đà Nẵng", "Huế", "Cần Thơ", "Hải Phòng"],
    svcs=["Vietcombank", "MoMo", "Zalo", "Shopee", "Gmail", "Netflix", "Techcombank"],
    banks=["Vietcombank", "Techcombank", "BIDV", "MB"],
    ssids=["VNPT_4821", "FPT Telecom-3F2A", "Viettel_8A1C", "Nha_Tuan"],
    answers=["Mực", "Vàng", "Lu", "Bông"],
    males=["Minh", "Tuấn", "Huy"],
    doctors=["bác sĩ Lan", "nha sĩ Hùng"],
    street=lambda: f"{R.randint(1, 300)} {ch(['Nguyễn Huệ', 'Lê Lợi', 'Trần Hưng Đạo'])}",
    postcode=lambda: rs(6, DG),
    phone=lambda: f"09{rs(2, DG)} {rs(3, DG)} {rs(3, DG)}",
    s_pw=["mật khẩu {svc} của tôi là {pw}", "mat khau {svc}: {pw}"],
    s_wifi=["mật khẩu wifi nhà ({ssid}): {pw}", "pass wifi {ssid} la {pw}"],
    s_pin=["mã PIN thẻ ATM {bank}: {pin}"],
    s_door=["mã cửa chung cư: {code}"],
    s_alarm=["mã báo động: {code}"],
    s_safe=["mã két sắt: {code}"],
    s_otp=["mã xác thực {svc}: {otp}", "ma OTP {svc} la {otp}"],
    s_secq=["câu hỏi bảo mật (tên thú cưng đầu tiên): {ans}"],
    s_tok=["API key của {svc}: {val}"],
    b_appt=["Lịch khám răng {date} lúc {time} với {doctor}", "Họp phụ huynh {date} lúc {time}"],
    b_med=["Uống {med} mỗi sáng"],
    b_pref=["Không ăn rau mùi, cà phê sữa ít đường"],
    b_family=["Sinh nhật {name} ngày {date}", "Em trai {bro} chuyển vào {city} rồi"],
    b_travel=["Đi {city} ngày {date}, khách sạn gần biển"],
    b_pwtalk=["Cuối tuần nhớ đổi mật khẩu email", "Không bao giờ đưa mã OTP cho người khác"],
    b_contact=["Thợ sửa ống nước (anh Hải): {phone}", "Email mới của {name}: {email}"],
    b_lab=["Xét nghiệm {date}: đường huyết {glucose_mmol} mmol/L, LDL {ldl} mmol/L, huyết áp {bp}"],
    b_addr=["Địa chỉ mới của bà: {street}, {city}, mã bưu chính {postcode}"],
)
LANGS = list(LP.keys())


def _num(lo, hi, nd):
    return f"{R.uniform(lo, hi):.{nd}f}"


LABF = {
    "a1c": lambda: _num(5.1, 8.4, 1), "a1c_mmol": lambda: str(R.randint(32, 68)),
    "ldl": lambda: _num(1.8, 4.6, 1), "ldl_mg": lambda: str(R.randint(70, 180)), "ldl_g": lambda: _num(0.7, 1.8, 2),
    "hdl": lambda: _num(0.9, 2.1, 1), "tsh": lambda: _num(0.5, 4.5, 1), "glucose_mg": lambda: str(R.randint(78, 140)),
    "glucose_g": lambda: _num(0.78, 1.4, 2), "glucose_mmol": lambda: _num(4.2, 7.8, 1), "hb": lambda: _num(11.5, 16.5, 1),
    "hb_mmol": lambda: _num(7.2, 10.2, 1), "hb_gl": lambda: str(R.randint(115, 165)), "creat": lambda: _num(0.6, 1.3, 2),
    "ferritin": lambda: str(R.randint(15, 300)), "vitd": lambda: str(R.randint(12, 60)), "b12": lambda: str(R.randint(180, 900)),
    "chol": lambda: _num(3.8, 6.9, 1), "uric": lambda: _num(3.1, 8.2, 1), "inr": lambda: _num(1.8, 3.4, 1),
    "weight": lambda: _num(52, 112, 1), "pulse": lambda: str(R.randint(54, 96)),
    "bp": lambda: f"{R.randint(105, 160)}/{R.randint(62, 98)}",
}


def gen_field(k, lang):
    P = LP[lang]
    E = LP["en"]
    if k == "pw" or k == "pw2":
        return human_pw()
    if k == "user":
        return ch(USERS + EMAIL_LOCAL)
    if k == "email":
        return email()
    if k in ("pin", "pin2"):
        return pin4()
    if k in ("pin6", "otp6"):
        return rs(6, DG)
    if k in ("code", "code2"):
        return door_code() if "safe" not in k else safe_code()
    if k == "otp":
        return otp_code()
    if k in ("ssid", "answers"):
        return ch(P.get("ssids", E["ssids"]))
    if k == "ans":
        return ch(P.get("answers", E["answers"]))
    if k == "svc":
        return ch(P["svcs"])
    if k == "bank":
        return ch(P.get("banks", P["svcs"]))
    if k == "name":
        return ch(P["names"])
    if k == "bro":
        return ch(P["males"])
    if k == "doctor":
        return ch(P.get("doctors", E["doctors"]))
    if k == "city":
        return ch(P["cities"])
    if k == "date":
        return fmt_date(lang)
    if k == "time":
        return fmt_time(lang)
    if k in ("med", "med2"):
        return ch(P.get("meds", MEDS))
    if k == "phone":
        return P["phone"]()
    if k == "street":
        return P["street"]()
    if k == "postcode":
        return P["postcode"]()
    if k in LABF:
        v = LABF[k]()
        return v.replace(".", ",") if lang in COMMA_LANGS and "/" not in v else v
    if k == "flight":
        return ch(["LH", "AF", "IB", "KL", "BA", "TK", "SU", "JL", "CA", "KE", "EK", "AI", "GA", "VN", "LO", "SK"]) + str(R.randint(100, 9999))
    if k == "gate":
        return ch("ABCDEFG") + str(R.randint(1, 60))
    if k == "seat":
        return f"{R.randint(1, 45)}{ch('ABCDEF')}"
    if k.startswith("p") and k[1:].isdigit():
        return str(R.randint(10 ** (int(k[1:]) - 1), 10 ** int(k[1:]) - 1))
    if k == "n3":
        return str(R.randint(1, 999))
    if k == "car":
        return str(R.randint(1, 16))
    if k == "surname":
        return ch(["Patel", "Nguyen", "Schmidt", "Rossi", "García", "Kowalski", "Yilmaz", "Tanaka"])
    raise KeyError(k)


class Fill(dict):
    def __init__(self, lang, **kw):
        super().__init__(**kw)
        self.lang = lang

    def __missing__(self, k):
        v = gen_field(k, self.lang)
        self[k] = v
        return v


def fill(t, lang, **kw):
    return t.format_map(Fill(lang, **kw))


def noisy(t, lang, p_strip=0.22, p_typo=0.12):
    """optional missing diacritics / a typo on the template text (never on the values)."""
    if lang in LATIN_LANGS and lang != "en" and chance(p_strip):
        t = strip_acc(t)
    if lang in LATIN_LANGS + ["ru"] and chance(p_typo):
        t = typo(t)
    return t


SHARED_TAGS = [["personal"], ["home"], ["notes"], ["misc"], ["family"], ["work"], ["todo"], ["inbox"]]


def wrap_note(text, lang):
    """same wrapper distribution for both labels, so the shape leaks nothing."""
    r = R.random()
    if r < 0.55:
        return text
    if r < 0.70:
        return {"text": text, "lang": lang, "source": ch(["chat", "voice_note", "quick_note", "email_import"])}
    if r < 0.85:
        return [{"role": "user", "content": text}]
    return {"memory": text, "tags": ch(SHARED_TAGS), "created_at": iso_ts()}


# --------------------------------------------------------------------------
# crypto material
# --------------------------------------------------------------------------
def jwt(payload=None, alg="HS256", kid=False):
    hdr = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = rs(16, HX)
    if payload is None:
        iat = R.randrange(1_700_000_000, 1_770_000_000)
        payload = {"sub": ch([uid(), str(R.randrange(10 ** 5, 10 ** 7)), "user_" + rs(10, LO + DG)]),
                   "iat": iat, "exp": iat + ch([900, 3600, 86400, 2592000])}
        if chance(0.5):
            payload["email"] = email()
        if chance(0.5):
            payload["role"] = ch(["admin", "user", "service", "editor"])
        if chance(0.4):
            payload["iss"] = "https://auth." + ch(DOMAINS)
    siglen = 32 if alg.startswith("HS") else 64 if alg in ("EdDSA", "ES256") else 256
    return ".".join([b64u(json.dumps(hdr, separators=(",", ":")).encode()),
                     b64u(json.dumps(payload, separators=(",", ":")).encode()), b64u(rbytes(siglen))])


def pem_rsa():
    der = bytes.fromhex("308204a40201000282010100") + rbytes(1180)
    return "-----BEGIN RSA PRIVATE KEY-----\n" + wrap(b64b(der)) + "\n-----END RSA PRIVATE KEY-----"


def pem_pkcs8():
    der = bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8") + rbytes(1192)
    return "-----BEGIN PRIVATE KEY-----\n" + wrap(b64b(der)) + "\n-----END PRIVATE KEY-----"


def pem_ec():
    der = (bytes.fromhex("30770201010420") + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a144034200")
           + b"\x04" + rbytes(64))
    return "-----BEGIN EC PRIVATE KEY-----\n" + wrap(b64b(der)) + "\n-----END EC PRIVATE KEY-----"


def pem_p8():
    der = (bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420") + rbytes(32)
           + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64))
    return "-----BEGIN PRIVATE KEY-----\n" + wrap(b64b(der)) + "\n-----END PRIVATE KEY-----"


def pem_encrypted():
    der = bytes.fromhex("308205") + rbytes(1300)
    return "-----BEGIN ENCRYPTED PRIVATE KEY-----\n" + wrap(b64b(der)) + "\n-----END ENCRYPTED PRIVATE KEY-----"


def _sstr(b):
    return len(b).to_bytes(4, "big") + b


def ssh_comment():
    return ch(USERS).replace(".", "") + "@" + ch(["laptop", "macbook-pro", "build-01", "bastion", "thinkpad", "desktop"])


def openssh_ed25519():
    pub, priv, chk = rbytes(32), rbytes(32), rbytes(4)
    comment = ssh_comment().encode()
    pubblob = _sstr(b"ssh-ed25519") + _sstr(pub)
    sec = chk + chk + _sstr(b"ssh-ed25519") + _sstr(pub) + _sstr(priv + pub) + _sstr(comment)
    pad = 1
    while len(sec) % 8:
        sec += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\0" + _sstr(b"none") + _sstr(b"none") + _sstr(b"") + (1).to_bytes(4, "big")
            + _sstr(pubblob) + _sstr(sec))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(b64b(blob), 70) + "\n-----END OPENSSH PRIVATE KEY-----"


def ssh_ed25519_pub():
    return "ssh-ed25519 " + b64b(_sstr(b"ssh-ed25519") + _sstr(rbytes(32))) + " " + ssh_comment()


def ssh_rsa_pub():
    n = b"\x00" + bytes([R.randrange(128, 256)]) + rbytes(255)
    return "ssh-rsa " + b64b(_sstr(b"ssh-rsa") + _sstr(b"\x01\x00\x01") + _sstr(n)) + " " + ssh_comment()


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_block(kind="PRIVATE"):
    ln = R.randint(900, 1300) if kind == "PRIVATE" else R.randint(260, 420)
    tag = b"\x95" if kind == "PRIVATE" else b"\x99"
    body = tag + ln.to_bytes(2, "big") + b"\x04" + rbytes(ln - 1)
    return (f"-----BEGIN PGP {kind} KEY BLOCK-----\n\n" + wrap(b64b(body)) + "\n="
            + b64b(crc24(body).to_bytes(3, "big")) + f"\n-----END PGP {kind} KEY BLOCK-----")


def putty_ppk():
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: " + ssh_comment()
            + "\nPublic-Lines: 2\n" + wrap(b64b(_sstr(b"ssh-ed25519") + _sstr(rbytes(32))), 64)
            + "\nPrivate-Lines: 1\n" + b64b(_sstr(rbytes(32))) + "\nPrivate-MAC: " + rs(64, HX))


def pem_cert():
    der = bytes.fromhex("3082") + bytes([R.randrange(3, 6)]) + rbytes(R.randint(700, 1100))
    return "-----BEGIN CERTIFICATE-----\n" + wrap(b64b(der)) + "\n-----END CERTIFICATE-----"


def pem_spki():
    der = (bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + rbytes(256)
           + bytes.fromhex("0203010001"))
    return "-----BEGIN PUBLIC KEY-----\n" + wrap(b64b(der)) + "\n-----END PUBLIC KEY-----"


def eth_priv():
    return ("0x" if chance(0.6) else "") + rs(64, HX)


def seed_phrase(n=None):
    return " ".join(ch(BIP39) for _ in range(n or ch([12, 12, 24, 18])))


def btc_wif():
    return b58check(b"\x80" + rbytes(32) + (b"\x01" if chance(0.7) else b""))


def xprv():
    return b58check(bytes.fromhex("0488ade4") + b"\x00" * 9 + rbytes(32) + b"\x00" + rbytes(32))


def btc_addr():
    return b58check(ch([b"\x00", b"\x05"]) + rbytes(20))


def eth_addr():
    return "0x" + rs(40, HX)


def age_secret():
    return "AGE-SECRET-KEY-1" + rs(58, BECH.upper())


def age_public():
    return "age1" + rs(58, BECH)


# --------------------------------------------------------------------------
# vendor credential table: (slug, vendor, kind, category, pair-factory, http)
# http = (host, path, header-format) used by the HTTP/curl renderer
# --------------------------------------------------------------------------
def _acct():
    return rs(R.randint(8, 14), LO + DG)


def heroku_key():
    return uid() if chance(0.5) else "HRKU-AA" + rs(58, B64U)


def vault_token():
    return "hvs." + (rs(24, AN) if chance(0.4) else "CAESI" + rs(86, B64U))


def notion_key():
    return "ntn_" + rs(11, DG) + rs(35, AN) if chance(0.6) else "secret_" + rs(43, AN)


def grafana_cloud():
    blob = json.dumps({"o": str(R.randint(100000, 999999)), "n": "stack-" + rs(6, DG) + "-hm-read-" + project_name(),
                       "k": rs(24, AN), "m": {"r": ch(["prod-eu-west-2", "prod-us-east-0", "prod-ap-southeast-1"])}},
                      separators=(",", ":"))
    return "glc_" + b64s(blob)


def sentry_org():
    blob = json.dumps({"iat": R.randint(1_700_000_000, 1_760_000_000), "url": "https://sentry.io",
                       "region_url": "https://us.sentry.io", "org": project_name()}, separators=(",", ":"))
    return "sntrys_" + b64u(blob.encode()) + "_" + rs(43, AN + "+/")


def discord_bot():
    return b64u(str(R.randint(10 ** 17, 10 ** 18 * 2)).encode()) + "." + rs(6, B64U) + "." + rs(38, B64U)


def mapbox_sk():
    return "sk." + b64u(json.dumps({"u": project_name() + rs(2, DG), "a": rs(25, LO + DG)}, separators=(",", ":")).encode()) + "." + rs(22, B64U)


def _jwt_supabase():
    iat = R.randint(1_690_000_000, 1_750_000_000)
    return jwt({"iss": "supabase", "ref": rs(20, LO), "role": "service_role", "iat": iat, "exp": iat + 315_360_000})


def _jwt_monday():
    return jwt({"tid": R.randint(10 ** 8, 10 ** 9), "aai": R.randint(10, 99), "uid": R.randint(10 ** 7, 10 ** 8),
                "iad": iso_ts().replace("Z", ".000Z"), "per": "me:write", "actid": R.randint(10 ** 6, 10 ** 7), "rgn": "use1"})


def _jwt_calendly():
    return jwt({"iss": "https://auth.calendly.com", "iat": R.randint(1_700_000_000, 1_760_000_000), "jti": uid(),
                "user_uuid": uid()}, alg="HS512")


def _jwt_turso():
    return jwt({"a": "rw", "iat": R.randint(1_700_000_000, 1_760_000_000), "id": uid()}, alg="EdDSA")


V = [
    # ---- cloud / infrastructure
    ("aws", "AWS", "aws_access_key_pair", "cloud", lambda: [("AWS_ACCESS_KEY_ID", "AKIA" + rs(16, B32)), ("AWS_SECRET_ACCESS_KEY", rs(40, B64C))], None),
    ("aws_sts", "AWS", "aws_session_credentials", "cloud", lambda: [("AWS_ACCESS_KEY_ID", "ASIA" + rs(16, B32)), ("AWS_SECRET_ACCESS_KEY", rs(40, B64C)), ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2VjE" + rs(R.randint(300, 380), B64C) + "=")], None),
    ("gcp_maps", "Google Cloud", "google_api_key", "cloud", lambda: [("GOOGLE_MAPS_API_KEY", "AIza" + rs(35, B64U))], ("maps.googleapis.com", "/maps/api/geocode/json?address=Berlin&key={t}", None)),
    ("gcp_oauth", "Google Cloud", "google_oauth_client_secret", "auth", lambda: [("GOOGLE_CLIENT_ID", f"{rs(12, DG)}-{rs(32, LO + DG)}.apps.googleusercontent.com"), ("GOOGLE_CLIENT_SECRET", "GOCSPX-" + rs(28, B64U))], None),
    ("google_refresh", "Google Cloud", "google_oauth_refresh_token", "auth", lambda: [("GOOGLE_REFRESH_TOKEN", "1//0" + rs(1, UP) + rs(98, B64U))], None),
    ("google_access", "Google Cloud", "google_oauth_access_token", "auth", lambda: [("GOOGLE_ACCESS_TOKEN", "ya29.a0" + rs(160, B64U))], ("www.googleapis.com", "/drive/v3/files", "Authorization: Bearer {t}")),
    ("azure_storage", "Microsoft Azure", "azure_storage_connection_string", "cloud", lambda: [("AZURE_STORAGE_CONNECTION_STRING", f"DefaultEndpointsProtocol=https;AccountName={_acct()};AccountKey={b64b(rbytes(64))};EndpointSuffix=core.windows.net")], None),
    ("azure_ad", "Microsoft Azure", "azure_client_secret", "cloud", lambda: [("AZURE_TENANT_ID", uid()), ("AZURE_CLIENT_ID", uid()), ("AZURE_CLIENT_SECRET", rs(3, AN) + str(R.randint(1, 9)) + "Q~" + rs(34, AN + "-_.~"))], None),
    ("azure_sas", "Microsoft Azure", "azure_sas_url", "cloud", lambda: [("AZURE_BLOB_SAS_URL", f"https://{_acct()}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-12-31T23:59:59Z&st=2025-01-01T00:00:00Z&spr=https&sig={urllib.parse.quote(b64b(rbytes(32)), safe='')}")], None),
    ("alibaba", "Alibaba Cloud", "alibaba_access_key", "cloud", lambda: [("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI5t" + rs(18, AN)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", rs(30, AN))], None),
    ("tencent", "Tencent Cloud", "tencent_secret_pair", "cloud", lambda: [("TENCENTCLOUD_SECRET_ID", "AKID" + rs(32, AN)), ("TENCENTCLOUD_SECRET_KEY", rs(32, AN))], None),
    ("ibm", "IBM Cloud", "ibm_cloud_api_key", "cloud", lambda: [("IBMCLOUD_API_KEY", rs(44, B64U))], None),
    ("oci", "Oracle Cloud", "oci_auth_token", "cloud", lambda: [("OCI_USER_OCID", "ocid1.user.oc1..aaaaaaaa" + rs(52, LO + DG)), ("OCI_AUTH_TOKEN", rs(20, AN + "()<>;:.{}[]#+-_"))], None),
    ("digitalocean", "DigitalOcean", "digitalocean_pat", "cloud", lambda: [("DIGITALOCEAN_ACCESS_TOKEN", "dop_v1_" + rs(64, HX))], ("api.digitalocean.com", "/v2/droplets", "Authorization: Bearer {t}")),
    ("linode", "Akamai Linode", "linode_token", "cloud", lambda: [("LINODE_TOKEN", rs(64, HX))], ("api.linode.com", "/v4/linode/instances", "Authorization: Bearer {t}")),
    ("vultr", "Vultr", "vultr_api_key", "cloud", lambda: [("VULTR_API_KEY", rs(36, UP + DG))], ("api.vultr.com", "/v2/instances", "Authorization: Bearer {t}")),
    ("hetzner", "Hetzner", "hetzner_cloud_token", "cloud", lambda: [("HCLOUD_TOKEN", rs(64, AN))], ("api.hetzner.cloud", "/v1/servers", "Authorization: Bearer {t}")),
    ("scaleway", "Scaleway", "scaleway_key_pair", "cloud", lambda: [("SCW_ACCESS_KEY", "SCW" + rs(17, UP + DG)), ("SCW_SECRET_KEY", uid())], None),
    ("ovh", "OVHcloud", "ovh_app_credentials", "cloud", lambda: [("OVH_APPLICATION_KEY", rs(16, AN)), ("OVH_APPLICATION_SECRET", rs(32, AN)), ("OVH_CONSUMER_KEY", rs(32, AN))], None),
    ("backblaze", "Backblaze", "backblaze_b2_key", "cloud", lambda: [("B2_APPLICATION_KEY_ID", "005" + rs(22, HX)), ("B2_APPLICATION_KEY", "K005" + rs(27, B64C))], None),
    ("cloudflare", "Cloudflare", "cloudflare_api_token", "cloud", lambda: [("CLOUDFLARE_API_TOKEN", rs(40, B64U))], ("api.cloudflare.com", "/client/v4/user/tokens/verify", "Authorization: Bearer {t}")),
    ("cloudflare_global", "Cloudflare", "cloudflare_global_api_key", "cloud", lambda: [("CF_API_EMAIL", work_email()), ("CF_API_KEY", rs(37, HX))], None),
    ("cloudflare_r2", "Cloudflare", "cloudflare_r2_keys", "cloud", lambda: [("R2_ACCESS_KEY_ID", rs(32, HX)), ("R2_SECRET_ACCESS_KEY", rs(64, HX))], None),
    ("fastly", "Fastly", "fastly_api_token", "cloud", lambda: [("FASTLY_API_TOKEN", rs(32, B64U))], ("api.fastly.com", "/service", "Fastly-Key: {t}")),
    ("akamai", "Akamai", "akamai_edgegrid", "cloud", lambda: [("client_secret", b64b(rbytes(32))), ("host", "akab-" + rs(16, LO + DG) + "-" + rs(16, LO + DG) + ".luna.akamaiapis.net"), ("access_token", "akab-" + rs(16, LO + DG) + "-" + rs(16, LO + DG)), ("client_token", "akab-" + rs(16, LO + DG) + "-" + rs(16, LO + DG))], None),
    ("heroku", "Heroku", "heroku_api_key", "cloud", lambda: [("HEROKU_API_KEY", heroku_key())], ("api.heroku.com", "/apps", "Authorization: Bearer {t}")),
    ("vercel", "Vercel", "vercel_token", "cloud", lambda: [("VERCEL_TOKEN", rs(24, AN))], ("api.vercel.com", "/v9/projects", "Authorization: Bearer {t}")),
    ("netlify", "Netlify", "netlify_token", "cloud", lambda: [("NETLIFY_AUTH_TOKEN", "nfp_" + rs(36, AN))], ("api.netlify.com", "/api/v1/sites", "Authorization: Bearer {t}")),
    ("flyio", "Fly.io", "flyio_token", "cloud", lambda: [("FLY_API_TOKEN", "FlyV1 fm2_" + rs(180, B64C) + "=")], None),
    ("render", "Render", "render_api_key", "cloud", lambda: [("RENDER_API_KEY", "rnd_" + rs(32, AN))], ("api.render.com", "/v1/services", "Authorization: Bearer {t}")),
    ("railway", "Railway", "railway_token", "cloud", lambda: [("RAILWAY_TOKEN", uid())], None),
    ("supabase", "Supabase", "supabase_service_role_jwt", "database", lambda: [("SUPABASE_URL", f"https://{rs(20, LO)}.supabase.co"), ("SUPABASE_SERVICE_ROLE_KEY", _jwt_supabase())], None),
    ("supabase_pat", "Supabase", "supabase_access_token", "database", lambda: [("SUPABASE_ACCESS_TOKEN", "sbp_" + rs(40, HX))], None),
    ("fcm", "Firebase", "fcm_legacy_server_key", "messaging", lambda: [("FCM_SERVER_KEY", "AAAA" + rs(7, B64U) + ":APA91b" + rs(134, B64U))], ("fcm.googleapis.com", "/fcm/send", "Authorization: key={t}")),
    ("planetscale", "PlanetScale", "planetscale_password", "database", lambda: [("PLANETSCALE_USERNAME", rs(12, LO + DG)), ("PLANETSCALE_PASSWORD", "pscale_pw_" + rs(43, B64U))], None),
    ("neon", "Neon", "neon_api_key", "database", lambda: [("NEON_API_KEY", "napi_" + rs(64, LO + DG))], ("console.neon.tech", "/api/v2/projects", "Authorization: Bearer {t}")),
    ("atlas_api", "MongoDB", "mongodb_atlas_api_key", "database", lambda: [("ATLAS_PUBLIC_KEY", rs(8, LO)), ("ATLAS_PRIVATE_KEY", uid())], None),
    ("upstash", "Upstash", "upstash_redis_token", "database", lambda: [("UPSTASH_REDIS_REST_URL", f"https://{ch(PASS_WORDS)}-{R.randint(10000, 99999)}.upstash.io"), ("UPSTASH_REDIS_REST_TOKEN", "A" + rs(3, AN) + "AAIjcDE" + rs(56, AN))], None),
    ("turso", "Turso", "turso_auth_token", "database", lambda: [("TURSO_DATABASE_URL", f"libsql://{project_name()}-{ch(USERS).replace('.', '')}.turso.io"), ("TURSO_AUTH_TOKEN", _jwt_turso())], None),
    ("databricks", "Databricks", "databricks_pat", "database", lambda: [("DATABRICKS_HOST", f"https://adb-{rs(16, DG)}.{R.randint(1, 19)}.azuredatabricks.net"), ("DATABRICKS_TOKEN", "dapi" + rs(32, HX))], None),
    ("snowflake", "Snowflake", "snowflake_password", "database", lambda: [("SNOWFLAKE_ACCOUNT", f"{rs(7, UP)}-{rs(7, UP)}"), ("SNOWFLAKE_USER", ch(USERS).upper()), ("SNOWFLAKE_PASSWORD", human_pw())], None),
    ("confluent", "Confluent", "confluent_api_key_pair", "database", lambda: [("CONFLUENT_API_KEY", rs(16, UP + DG)), ("CONFLUENT_API_SECRET", rs(64, B64C))], None),
    ("elastic", "Elastic", "elastic_api_key", "observability", lambda: [("ELASTIC_API_KEY", b64s(rs(20, AN) + ":" + rs(22, B64U)))], ("my-deployment.es.eu-central-1.aws.cloud.es.io", "/_cat/indices", "Authorization: ApiKey {t}")),
    ("algolia", "Algolia", "algolia_admin_key", "database", lambda: [("ALGOLIA_APP_ID", rs(10, UP + DG)), ("ALGOLIA_ADMIN_API_KEY", rs(32, HX))], None),
    ("pinecone", "Pinecone", "pinecone_api_key", "ai", lambda: [("PINECONE_API_KEY", "pcsk_" + rs(6, AN) + "_" + rs(63, AN))], ("api.pinecone.io", "/indexes", "Api-Key: {t}")),
    ("fauna", "Fauna", "fauna_secret", "database", lambda: [("FAUNA_SECRET", "fnA" + rs(37, B64U))], None),
    ("clickhouse", "ClickHouse", "clickhouse_cloud_key", "database", lambda: [("CLICKHOUSE_KEY_ID", rs(20, AN)), ("CLICKHOUSE_KEY_SECRET", "4b1d" + rs(38, AN))], None),
    ("cockroach", "Cockroach Labs", "cockroach_cloud_api_key", "database", lambda: [("COCKROACH_API_KEY", "CCDB1_" + rs(22, AN) + "_" + rs(40, AN))], None),
    # ---- CI/CD, dev tooling, registries
    ("github_pat", "GitHub", "github_classic_pat", "cicd", lambda: [("GITHUB_TOKEN", ck_token("ghp_"))], ("api.github.com", "/user/repos", "Authorization: token {t}")),
    ("github_fg", "GitHub", "github_fine_grained_pat", "cicd", lambda: [("GH_TOKEN", "github_pat_" + rs(22, AN) + "_" + rs(59, AN))], ("api.github.com", "/repos/{o}/{r}/actions/runs", "Authorization: Bearer {t}")),
    ("github_oauth", "GitHub", "github_oauth_token", "cicd", lambda: [("GITHUB_OAUTH_TOKEN", ck_token("gho_"))], None),
    ("github_app", "GitHub", "github_app_installation_token", "cicd", lambda: [("GITHUB_APP_TOKEN", ck_token("ghs_"))], None),
    ("github_refresh", "GitHub", "github_refresh_token", "cicd", lambda: [("GITHUB_REFRESH_TOKEN", "ghr_" + rs(76, AN))], None),
    ("github_app_secret", "GitHub", "github_app_client_secret", "cicd", lambda: [("GITHUB_CLIENT_ID", "Iv1." + rs(16, HX)), ("GITHUB_CLIENT_SECRET", rs(40, HX))], None),
    ("gitlab_pat", "GitLab", "gitlab_pat", "cicd", lambda: [("GITLAB_TOKEN", "glpat-" + rs(20, B64U))], ("gitlab.com", "/api/v4/projects?owned=true", "PRIVATE-TOKEN: {t}")),
    ("gitlab_runner", "GitLab", "gitlab_runner_token", "cicd", lambda: [("CI_RUNNER_TOKEN", "glrt-" + rs(20, B64U))], None),
    ("gitlab_deploy", "GitLab", "gitlab_deploy_token", "cicd", lambda: [("DEPLOY_TOKEN_USER", "gitlab+deploy-token-" + rs(6, DG)), ("DEPLOY_TOKEN", "gldt-" + rs(20, B64U))], None),
    ("bitbucket", "Atlassian Bitbucket", "bitbucket_app_password", "cicd", lambda: [("BITBUCKET_USERNAME", ch(USERS)), ("BITBUCKET_APP_PASSWORD", "ATBB" + rs(28, AN) + rs(8, HXU))], None),
    ("azure_devops", "Azure DevOps", "azure_devops_pat", "cicd", lambda: [("AZURE_DEVOPS_EXT_PAT", rs(52, LO + "234567"))], None),
    ("circleci", "CircleCI", "circleci_token", "cicd", lambda: [("CIRCLECI_TOKEN", "CCIPAT_" + rs(22, AN) + "_" + rs(40, HX))], ("circleci.com", "/api/v2/me", "Circle-Token: {t}")),
    ("travis", "Travis CI", "travis_api_token", "cicd", lambda: [("TRAVIS_API_TOKEN", rs(22, B64U))], ("api.travis-ci.com", "/repos", "Authorization: token {t}")),
    ("buildkite", "Buildkite", "buildkite_api_token", "cicd", lambda: [("BUILDKITE_API_TOKEN", "bkua_" + rs(40, HX))], ("api.buildkite.com", "/v2/builds", "Authorization: Bearer {t}")),
    ("jenkins", "Jenkins", "jenkins_api_token", "cicd", lambda: [("JENKINS_USER", ch(USERS)), ("JENKINS_API_TOKEN", "11" + rs(32, HX))], None),
    ("drone", "Drone CI", "drone_token", "cicd", lambda: [("DRONE_SERVER", "https://drone." + ch(DOMAINS)), ("DRONE_TOKEN", rs(32, AN))], None),
    ("teamcity", "JetBrains TeamCity", "teamcity_token", "cicd", lambda: [("TEAMCITY_TOKEN", "eyJ0eXAiOiAiVENWMiJ9." + rs(36, B64U) + "." + rs(48, B64U))], None),
    ("sonarqube", "SonarSource", "sonarqube_token", "cicd", lambda: [("SONAR_TOKEN", ch(["squ_", "sqp_", "sqa_"]) + rs(40, HX))], None),
    ("snyk", "Snyk", "snyk_token", "cicd", lambda: [("SNYK_TOKEN", uid())], None),
    ("codecov", "Codecov", "codecov_upload_token", "cicd", lambda: [("CODECOV_TOKEN", uid())], None),
    ("sentry_user", "Sentry", "sentry_user_auth_token", "observability", lambda: [("SENTRY_AUTH_TOKEN", "sntryu_" + rs(64, HX))], ("sentry.io", "/api/0/projects/", "Authorization: Bearer {t}")),
    ("sentry_org", "Sentry", "sentry_org_auth_token", "observability", lambda: [("SENTRY_AUTH_TOKEN", sentry_org())], None),
    ("postman", "Postman", "postman_api_key", "cicd", lambda: [("POSTMAN_API_KEY", "PMAK-" + rs(24, HX) + "-" + rs(34, HX))], ("api.getpostman.com", "/collections", "X-Api-Key: {t}")),
    ("dockerhub", "Docker", "dockerhub_pat", "registry", lambda: [("DOCKERHUB_USERNAME", ch(USERS)), ("DOCKERHUB_TOKEN", "dckr_pat_" + rs(27, B64U))], None),
    ("npm", "npm", "npm_access_token", "registry", lambda: [("NPM_TOKEN", ck_token("npm_"))], None),
    ("pypi", "PyPI", "pypi_api_token", "registry", lambda: [("TWINE_PASSWORD", "pypi-AgEIcHlwaS5vcmc" + rs(150, B64U))], None),
    ("rubygems", "RubyGems", "rubygems_api_key", "registry", lambda: [("GEM_HOST_API_KEY", "rubygems_" + rs(48, HX))], None),
    ("nuget", "NuGet", "nuget_api_key", "registry", lambda: [("NUGET_API_KEY", "oy2" + rs(43, LO + DG))], None),
    ("crates", "crates.io", "crates_io_token", "registry", lambda: [("CARGO_REGISTRY_TOKEN", "cio" + rs(32, AN))], None),
    ("jfrog", "JFrog", "artifactory_api_key", "registry", lambda: [("ARTIFACTORY_USER", ch(USERS)), ("ARTIFACTORY_API_KEY", "AKCp8" + rs(68, AN))], None),
    ("packagecloud", "Packagecloud", "packagecloud_token", "registry", lambda: [("PACKAGECLOUD_TOKEN", rs(48, HX))], None),
    ("tfc", "HashiCorp", "terraform_cloud_token", "cicd", lambda: [("TFE_TOKEN", rs(14, AN) + ".atlasv1." + rs(67, B64U))], ("app.terraform.io", "/api/v2/organizations", "Authorization: Bearer {t}")),
    ("vault", "HashiCorp", "vault_token", "cicd", lambda: [("VAULT_ADDR", "https://vault." + ch(DOMAINS) + ":8200"), ("VAULT_TOKEN", vault_token())], None),
    ("pulumi", "Pulumi", "pulumi_access_token", "cicd", lambda: [("PULUMI_ACCESS_TOKEN", "pul-" + rs(40, HX))], None),
    ("doppler", "Doppler", "doppler_service_token", "cicd", lambda: [("DOPPLER_TOKEN", "dp.st.prd." + rs(43, AN))], None),
    ("onepassword", "1Password", "onepassword_service_account_token", "auth", lambda: [("OP_SERVICE_ACCOUNT_TOKEN", "ops_eyJzaWduSW5BZGRyZXNzIjoi" + rs(300, B64C))], None),
    ("infisical", "Infisical", "infisical_service_token", "cicd", lambda: [("INFISICAL_TOKEN", "st." + uid() + "." + rs(32, HX) + "." + rs(32, HX))], None),
    ("expo", "Expo", "expo_access_token", "cicd", lambda: [("EXPO_TOKEN", rs(40, B64U))], None),
    ("ngrok", "ngrok", "ngrok_authtoken", "cicd", lambda: [("NGROK_AUTHTOKEN", "2" + rs(26, AN) + "_" + rs(21, AN))], None),
    ("tailscale", "Tailscale", "tailscale_auth_key", "cicd", lambda: [("TS_AUTHKEY", "tskey-auth-" + rs(12, AN) + "CNTRL-" + rs(33, AN))], None),
    ("launchdarkly", "LaunchDarkly", "launchdarkly_sdk_key", "cicd", lambda: [("LAUNCHDARKLY_SDK_KEY", "sdk-" + uid())], None),
    ("statsig", "Statsig", "statsig_server_secret", "cicd", lambda: [("STATSIG_SERVER_SECRET", "secret-" + rs(43, AN))], None),
    ("figma", "Figma", "figma_pat", "saas", lambda: [("FIGMA_TOKEN", "figd_" + rs(40, B64U))], ("api.figma.com", "/v1/me", "X-Figma-Token: {t}")),
    ("linear", "Linear", "linear_api_key", "saas", lambda: [("LINEAR_API_KEY", "lin_api_" + rs(40, AN))], ("api.linear.app", "/graphql", "Authorization: {t}")),
    ("notion", "Notion", "notion_integration_token", "saas", lambda: [("NOTION_TOKEN", notion_key())], ("api.notion.com", "/v1/search", "Authorization: Bearer {t}")),
    ("airtable", "Airtable", "airtable_pat", "saas", lambda: [("AIRTABLE_TOKEN", "pat" + rs(14, AN) + "." + rs(64, HX))], ("api.airtable.com", "/v0/meta/bases", "Authorization: Bearer {t}")),
    ("atlassian", "Atlassian", "atlassian_api_token", "saas", lambda: [("JIRA_EMAIL", work_email()), ("JIRA_API_TOKEN", "ATATT3xFfGF0" + rs(170, B64U) + "=" + rs(8, HXU))], None),
    ("asana", "Asana", "asana_pat", "saas", lambda: [("ASANA_PAT", "2/" + rs(16, DG) + "/" + rs(16, DG) + ":" + rs(32, HX))], ("app.asana.com", "/api/1.0/users/me", "Authorization: Bearer {t}")),
    ("trello", "Trello", "trello_key_and_token", "saas", lambda: [("TRELLO_API_KEY", rs(32, HX)), ("TRELLO_TOKEN", "ATTA" + rs(64, HX) + rs(8, HXU))], None),
    ("clickup", "ClickUp", "clickup_api_token", "saas", lambda: [("CLICKUP_API_TOKEN", "pk_" + rs(8, DG) + "_" + rs(32, UP + DG))], ("api.clickup.com", "/api/v2/team", "Authorization: {t}")),
    ("monday", "monday.com", "monday_api_token", "saas", lambda: [("MONDAY_API_TOKEN", _jwt_monday())], None),
    ("contentful", "Contentful", "contentful_management_token", "saas", lambda: [("CONTENTFUL_MANAGEMENT_TOKEN", "CFPAT-" + rs(43, B64U))], None),
    ("sanity", "Sanity", "sanity_api_token", "saas", lambda: [("SANITY_API_TOKEN", "sk" + rs(180, AN))], None),
    ("typeform", "Typeform", "typeform_pat", "saas", lambda: [("TYPEFORM_TOKEN", "tfp_" + rs(44, AN) + "_" + rs(14, AN))], None),
    ("calendly", "Calendly", "calendly_pat", "saas", lambda: [("CALENDLY_PAT", _jwt_calendly())], None),
    ("zoom", "Zoom", "zoom_s2s_oauth_credentials", "saas", lambda: [("ZOOM_ACCOUNT_ID", rs(22, B64U)), ("ZOOM_CLIENT_ID", rs(22, AN)), ("ZOOM_CLIENT_SECRET", rs(32, AN))], None),
    ("dropbox", "Dropbox", "dropbox_access_token", "saas", lambda: [("DROPBOX_ACCESS_TOKEN", "sl." + rs(135, B64U))], ("api.dropboxapi.com", "/2/files/list_folder", "Authorization: Bearer {t}")),
    ("box", "Box", "box_developer_token", "saas", lambda: [("BOX_DEVELOPER_TOKEN", rs(32, AN))], ("api.box.com", "/2.0/folders/0", "Authorization: Bearer {t}")),
    # ---- observability
    ("datadog", "Datadog", "datadog_api_and_app_key", "observability", lambda: [("DD_API_KEY", rs(32, HX)), ("DD_APP_KEY", rs(40, HX))], None),
    ("newrelic_user", "New Relic", "newrelic_user_api_key", "observability", lambda: [("NEW_RELIC_API_KEY", "NRAK-" + rs(27, UP + DG))], ("api.newrelic.com", "/graphql", "API-Key: {t}")),
    ("newrelic_license", "New Relic", "newrelic_license_key", "observability", lambda: [("NEW_RELIC_LICENSE_KEY", rs(36, HX) + "NRAL")], None),
    ("grafana_sa", "Grafana Labs", "grafana_service_account_token", "observability", lambda: [("GRAFANA_TOKEN", "glsa_" + rs(32, AN) + "_" + rs(8, HX))], ("grafana." + "internal.example", "/api/dashboards/home", "Authorization: Bearer {t}")),
    ("grafana_cloud", "Grafana Labs", "grafana_cloud_access_policy_token", "observability", lambda: [("GRAFANA_CLOUD_TOKEN", grafana_cloud())], None),
    ("dynatrace", "Dynatrace", "dynatrace_api_token", "observability", lambda: [("DT_API_TOKEN", "dt0c01." + rs(24, UP + DG) + "." + rs(64, UP + DG))], ("abc12345.live.dynatrace.com", "/api/v2/entities", "Authorization: Api-Token {t}")),
    ("honeycomb", "Honeycomb", "honeycomb_api_key", "observability", lambda: [("HONEYCOMB_API_KEY", "hcaik_" + rs(58, LO + DG) if chance(0.5) else rs(22, AN))], ("api.honeycomb.io", "/1/auth", "X-Honeycomb-Team: {t}")),
    ("splunk", "Splunk", "splunk_hec_token", "observability", lambda: [("SPLUNK_HEC_TOKEN", uid().upper())], ("splunk.internal.example:8088", "/services/collector/event", "Authorization: Splunk {t}")),
    ("pagerduty", "PagerDuty", "pagerduty_api_token", "observability", lambda: [("PAGERDUTY_API_TOKEN", ch(["u+", "y_"]) + rs(18, B64U))], ("api.pagerduty.com", "/incidents", "Authorization: Token token={t}")),
    ("opsgenie", "Atlassian Opsgenie", "opsgenie_api_key", "observability", lambda: [("OPSGENIE_API_KEY", uid())], ("api.opsgenie.com", "/v2/alerts", "Authorization: GenieKey {t}")),
    ("rollbar", "Rollbar", "rollbar_access_token", "observability", lambda: [("ROLLBAR_ACCESS_TOKEN", rs(32, HX))], ("api.rollbar.com", "/api/1/items", "X-Rollbar-Access-Token: {t}")),
    ("bugsnag", "Bugsnag", "bugsnag_api_key", "observability", lambda: [("BUGSNAG_API_KEY", rs(32, HX))], None),
    ("logzio", "Logz.io", "logzio_shipping_token", "observability", lambda: [("LOGZIO_TOKEN", rs(32, LO + UP))], None),
    ("sumologic", "Sumo Logic", "sumologic_access_key", "observability", lambda: [("SUMO_ACCESS_ID", "su" + rs(12, AN)), ("SUMO_ACCESS_KEY", rs(64, AN))], None),
    ("posthog", "PostHog", "posthog_personal_api_key", "observability", lambda: [("POSTHOG_PERSONAL_API_KEY", "phx_" + rs(43, AN))], ("eu.posthog.com", "/api/projects/", "Authorization: Bearer {t}")),
    ("mixpanel", "Mixpanel", "mixpanel_service_account", "observability", lambda: [("MIXPANEL_SA_USER", f"{project_name()}.{rs(6, DG)}.mp-service-account"), ("MIXPANEL_SA_SECRET", rs(32, AN))], None),
    ("amplitude", "Amplitude", "amplitude_api_and_secret_key", "observability", lambda: [("AMPLITUDE_API_KEY", rs(32, HX)), ("AMPLITUDE_SECRET_KEY", rs(32, HX))], None),
    ("segment", "Twilio Segment", "segment_public_api_token", "observability", lambda: [("SEGMENT_PUBLIC_API_TOKEN", "sgp_" + rs(64, AN))], ("api.segmentapis.com", "/workspaces", "Authorization: Bearer {t}")),
    # ---- AI / LLM
    ("openai", "OpenAI", "openai_project_key", "ai", lambda: [("OPENAI_API_KEY", "sk-proj-" + rs(74, B64U) + "T3BlbkFJ" + rs(74, B64U))], ("api.openai.com", "/v1/chat/completions", "Authorization: Bearer {t}")),
    ("openai_legacy", "OpenAI", "openai_legacy_key", "ai", lambda: [("OPENAI_API_KEY", "sk-" + rs(20, AN) + "T3BlbkFJ" + rs(20, AN))], ("api.openai.com", "/v1/models", "Authorization: Bearer {t}")),
    ("openai_admin", "OpenAI", "openai_admin_key", "ai", lambda: [("OPENAI_ADMIN_KEY", "sk-admin-" + rs(58, B64U) + "T3BlbkFJ" + rs(58, B64U))], None),
    ("anthropic", "Anthropic", "anthropic_api_key", "ai", lambda: [("ANTHROPIC_API_KEY", "sk-ant-api03-" + rs(93, B64U) + "AA")], ("api.anthropic.com", "/v1/messages", "x-api-key: {t}")),
    ("huggingface", "Hugging Face", "huggingface_token", "ai", lambda: [("HF_TOKEN", "hf_" + rs(34, AN))], ("huggingface.co", "/api/whoami-v2", "Authorization: Bearer {t}")),
    ("cohere", "Cohere", "cohere_api_key", "ai", lambda: [("COHERE_API_KEY", rs(40, AN))], ("api.cohere.com", "/v2/chat", "Authorization: Bearer {t}")),
    ("mistral", "Mistral AI", "mistral_api_key", "ai", lambda: [("MISTRAL_API_KEY", rs(32, AN))], ("api.mistral.ai", "/v1/chat/completions", "Authorization: Bearer {t}")),
    ("groq", "Groq", "groq_api_key", "ai", lambda: [("GROQ_API_KEY", "gsk_" + rs(52, AN))], ("api.groq.com", "/openai/v1/models", "Authorization: Bearer {t}")),
    ("replicate", "Replicate", "replicate_api_token", "ai", lambda: [("REPLICATE_API_TOKEN", "r8_" + rs(37, AN))], ("api.replicate.com", "/v1/predictions", "Authorization: Bearer {t}")),
    ("perplexity", "Perplexity", "perplexity_api_key", "ai", lambda: [("PERPLEXITY_API_KEY", "pplx-" + rs(48, AN))], ("api.perplexity.ai", "/chat/completions", "Authorization: Bearer {t}")),
    ("together", "Together AI", "together_api_key", "ai", lambda: [("TOGETHER_API_KEY", rs(64, HX))], ("api.together.xyz", "/v1/models", "Authorization: Bearer {t}")),
    ("fireworks", "Fireworks AI", "fireworks_api_key", "ai", lambda: [("FIREWORKS_API_KEY", "fw_" + rs(24, AN))], None),
    ("deepseek", "DeepSeek", "deepseek_api_key", "ai", lambda: [("DEEPSEEK_API_KEY", "sk-" + rs(32, HX))], ("api.deepseek.com", "/chat/completions", "Authorization: Bearer {t}")),
    ("xai", "xAI", "xai_api_key", "ai", lambda: [("XAI_API_KEY", "xai-" + rs(80, AN))], ("api.x.ai", "/v1/chat/completions", "Authorization: Bearer {t}")),
    ("openrouter", "OpenRouter", "openrouter_api_key", "ai", lambda: [("OPENROUTER_API_KEY", "sk-or-v1-" + rs(64, HX))], ("openrouter.ai", "/api/v1/chat/completions", "Authorization: Bearer {t}")),
    ("elevenlabs", "ElevenLabs", "elevenlabs_api_key", "ai", lambda: [("ELEVENLABS_API_KEY", "sk_" + rs(48, HX))], ("api.elevenlabs.io", "/v1/voices", "xi-api-key: {t}")),
    ("assemblyai", "AssemblyAI", "assemblyai_api_key", "ai", lambda: [("ASSEMBLYAI_API_KEY", rs(32, HX))], ("api.assemblyai.com", "/v2/transcript", "authorization: {t}")),
    ("deepgram", "Deepgram", "deepgram_api_key", "ai", lambda: [("DEEPGRAM_API_KEY", rs(40, HX))], ("api.deepgram.com", "/v1/listen", "Authorization: Token {t}")),
    ("wandb", "Weights & Biases", "wandb_api_key", "ai", lambda: [("WANDB_API_KEY", rs(40, HX))], None),
    ("langsmith", "LangChain", "langsmith_api_key", "ai", lambda: [("LANGSMITH_API_KEY", "lsv2_pt_" + rs(32, HX) + "_" + rs(10, HX))], None),
    ("stability", "Stability AI", "stability_api_key", "ai", lambda: [("STABILITY_API_KEY", "sk-" + rs(48, AN))], ("api.stability.ai", "/v2beta/stable-image/generate/core", "Authorization: Bearer {t}")),
    ("azure_openai", "Microsoft Azure", "azure_openai_key", "ai", lambda: [("AZURE_OPENAI_ENDPOINT", f"https://{project_name()}-{rs(4, LO)}.openai.azure.com/"), ("AZURE_OPENAI_API_KEY", rs(32, HX))], None),
    ("gemini", "Google Cloud", "gemini_api_key", "ai", lambda: [("GEMINI_API_KEY", "AIza" + rs(35, B64U))], ("generativelanguage.googleapis.com", "/v1beta/models", "x-goog-api-key: {t}")),
    ("voyage", "Voyage AI", "voyage_api_key", "ai", lambda: [("VOYAGE_API_KEY", "pa-" + rs(43, B64U))], None),
    ("jina", "Jina AI", "jina_api_key", "ai", lambda: [("JINA_API_KEY", "jina_" + rs(32, HX) + rs(28, AN))], None),
    ("runpod", "RunPod", "runpod_api_key", "ai", lambda: [("RUNPOD_API_KEY", "rpa_" + rs(40, UP + DG))], None),
    ("modal", "Modal", "modal_token_pair", "ai", lambda: [("MODAL_TOKEN_ID", "ak-" + rs(22, AN)), ("MODAL_TOKEN_SECRET", "as-" + rs(22, AN))], None),
    # ---- payments / commerce / crypto exchanges
    ("stripe", "Stripe", "stripe_live_secret_key", "payments", lambda: [("STRIPE_SECRET_KEY", "sk_live_51" + rs(96, AN))], ("api.stripe.com", "/v1/charges", "Authorization: Bearer {t}")),
    ("stripe_rk", "Stripe", "stripe_restricted_key", "payments", lambda: [("STRIPE_RESTRICTED_KEY", "rk_live_51" + rs(96, AN))], None),
    ("stripe_whsec", "Stripe", "stripe_webhook_secret", "payments", lambda: [("STRIPE_WEBHOOK_SECRET", "whsec_" + rs(32, AN))], None),
    ("stripe_test", "Stripe", "stripe_test_secret_key", "payments", lambda: [("STRIPE_SECRET_KEY", "sk_test_51" + rs(96, AN))], None),
    ("braintree", "PayPal Braintree", "braintree_access_token", "payments", lambda: [("BRAINTREE_ACCESS_TOKEN", "access_token$production$" + rs(16, LO + DG) + "$" + rs(32, HX))], None),
    ("paypal", "PayPal", "paypal_rest_credentials", "payments", lambda: [("PAYPAL_CLIENT_ID", "A" + rs(79, B64U)), ("PAYPAL_CLIENT_SECRET", "E" + rs(79, B64U))], None),
    ("square", "Square", "square_access_token", "payments", lambda: [("SQUARE_ACCESS_TOKEN", "EAAA" + rs(60, B64U))], ("connect.squareup.com", "/v2/locations", "Authorization: Bearer {t}")),
    ("square_oauth", "Square", "square_application_secret", "payments", lambda: [("SQUARE_APPLICATION_ID", "sq0idp-" + rs(22, B64U)), ("SQUARE_APPLICATION_SECRET", "sq0csp-" + rs(43, B64U))], None),
    ("adyen", "Adyen", "adyen_api_key", "payments", lambda: [("ADYEN_API_KEY", "AQE" + rs(150, AN + "+/=-")), ("ADYEN_MERCHANT_ACCOUNT", project_name().capitalize() + "ECOM")], None),
    ("razorpay", "Razorpay", "razorpay_key_pair", "payments", lambda: [("RAZORPAY_KEY_ID", "rzp_live_" + rs(14, AN)), ("RAZORPAY_KEY_SECRET", rs(24, AN))], None),
    ("paystack", "Paystack", "paystack_secret_key", "payments", lambda: [("PAYSTACK_SECRET_KEY", "sk_live_" + rs(40, HX))], ("api.paystack.co", "/transaction", "Authorization: Bearer {t}")),
    ("flutterwave", "Flutterwave", "flutterwave_secret_key", "payments", lambda: [("FLW_SECRET_KEY", "FLWSECK-" + rs(32, HX) + "-X")], None),
    ("mollie", "Mollie", "mollie_live_api_key", "payments", lambda: [("MOLLIE_API_KEY", "live_" + rs(30, AN))], ("api.mollie.com", "/v2/payments", "Authorization: Bearer {t}")),
    ("plaid", "Plaid", "plaid_client_secret", "payments", lambda: [("PLAID_CLIENT_ID", rs(24, HX)), ("PLAID_SECRET", rs(30, HX)), ("PLAID_ENV", "production")], None),
    ("plaid_access", "Plaid", "plaid_access_token", "payments", lambda: [("PLAID_ACCESS_TOKEN", "access-production-" + uid())], None),
    ("wise", "Wise", "wise_api_token", "payments", lambda: [("WISE_API_TOKEN", uid())], ("api.transferwise.com", "/v1/profiles", "Authorization: Bearer {t}")),
    ("checkout", "Checkout.com", "checkout_secret_key", "payments", lambda: [("CKO_SECRET_KEY", "sk_" + rs(26, LO + "234567"))], None),
    ("gocardless", "GoCardless", "gocardless_access_token", "payments", lambda: [("GOCARDLESS_ACCESS_TOKEN", "live_" + rs(40, B64U))], None),
    ("paddle", "Paddle", "paddle_api_key", "payments", lambda: [("PADDLE_API_KEY", "pdl_live_apikey_" + rs(26, LO + DG) + "_" + rs(22, AN) + "_" + rs(3, AN))], None),
    ("coinbase", "Coinbase", "coinbase_api_key_pair", "crypto", lambda: [("COINBASE_API_KEY", rs(16, AN)), ("COINBASE_API_SECRET", rs(32, AN))], None),
    ("binance", "Binance", "binance_api_key_pair", "crypto", lambda: [("BINANCE_API_KEY", rs(64, AN)), ("BINANCE_SECRET_KEY", rs(64, AN))], None),
    ("kraken", "Kraken", "kraken_api_key_pair", "crypto", lambda: [("KRAKEN_API_KEY", rs(56, B64C)), ("KRAKEN_PRIVATE_KEY", b64b(rbytes(64)))], None),
    ("etherscan", "Etherscan", "etherscan_api_key", "crypto", lambda: [("ETHERSCAN_API_KEY", rs(34, UP + DG))], None),
    ("infura", "Infura", "infura_project_secret", "crypto", lambda: [("INFURA_PROJECT_ID", rs(32, HX)), ("INFURA_API_KEY_SECRET", rs(32, HX))], None),
    ("alchemy", "Alchemy", "alchemy_api_key", "crypto", lambda: [("ALCHEMY_API_KEY", rs(32, B64U))], None),
    ("shopify", "Shopify", "shopify_admin_token", "commerce", lambda: [("SHOPIFY_ACCESS_TOKEN", "shpat_" + rs(32, HX))], ("{shop}.myshopify.com", "/admin/api/2024-07/orders.json", "X-Shopify-Access-Token: {t}")),
    ("shopify_secret", "Shopify", "shopify_app_shared_secret", "commerce", lambda: [("SHOPIFY_API_KEY", rs(32, HX)), ("SHOPIFY_API_SECRET", "shpss_" + rs(32, HX))], None),
    ("woocommerce", "WooCommerce", "woocommerce_consumer_pair", "commerce", lambda: [("WC_CONSUMER_KEY", "ck_" + rs(40, HX)), ("WC_CONSUMER_SECRET", "cs_" + rs(40, HX))], None),
    ("lob", "Lob", "lob_live_api_key", "commerce", lambda: [("LOB_API_KEY", "live_" + rs(35, HX))], None),
    ("easypost", "EasyPost", "easypost_api_key", "commerce", lambda: [("EASYPOST_API_KEY", "EZAK" + rs(54, HX))], None),
    ("shippo", "Shippo", "shippo_live_token", "commerce", lambda: [("SHIPPO_API_TOKEN", "shippo_live_" + rs(40, HX))], ("api.goshippo.com", "/shipments/", "Authorization: ShippoToken {t}")),
    # ---- messaging / email / SMS / CRM / support
    ("slack_bot", "Slack", "slack_bot_token", "messaging", lambda: [("SLACK_BOT_TOKEN", f"xoxb-{rs(12, DG)}-{rs(13, DG)}-{rs(24, AN)}")], ("slack.com", "/api/chat.postMessage", "Authorization: Bearer {t}")),
    ("slack_user", "Slack", "slack_user_token", "messaging", lambda: [("SLACK_USER_TOKEN", f"xoxp-{rs(12, DG)}-{rs(12, DG)}-{rs(13, DG)}-{rs(32, HX)}")], None),
    ("slack_app", "Slack", "slack_app_level_token", "messaging", lambda: [("SLACK_APP_TOKEN", f"xapp-1-A{rs(10, UP + DG)}-{rs(13, DG)}-{rs(64, HX)}")], None),
    ("slack_webhook", "Slack", "slack_incoming_webhook", "messaging", lambda: [("SLACK_WEBHOOK_URL", f"https://hooks.slack.com/services/T{rs(8, UP + DG)}/B{rs(10, UP + DG)}/{rs(24, AN)}")], None),
    ("discord_bot", "Discord", "discord_bot_token", "messaging", lambda: [("DISCORD_BOT_TOKEN", discord_bot())], ("discord.com", "/api/v10/users/@me", "Authorization: Bot {t}")),
    ("discord_webhook", "Discord", "discord_webhook_url", "messaging", lambda: [("DISCORD_WEBHOOK_URL", f"https://discord.com/api/webhooks/{rs(19, DG)}/{rs(68, B64U)}")], None),
    ("telegram", "Telegram", "telegram_bot_token", "messaging", lambda: [("TELEGRAM_BOT_TOKEN", f"{R.randint(1000000000, 7999999999)}:AA{rs(33, B64U)}")], None),
    ("teams_webhook", "Microsoft Teams", "teams_incoming_webhook", "messaging", lambda: [("TEAMS_WEBHOOK_URL", f"https://{project_name()}.webhook.office.com/webhookb2/{uid()}@{uid()}/IncomingWebhook/{rs(32, HX)}/{uid()}/V2{rs(40, B64U)}")], None),
    ("twilio", "Twilio", "twilio_account_sid_auth_token", "messaging", lambda: [("TWILIO_ACCOUNT_SID", "AC" + rs(32, HX)), ("TWILIO_AUTH_TOKEN", rs(32, HX))], None),
    ("twilio_apikey", "Twilio", "twilio_api_key_secret", "messaging", lambda: [("TWILIO_API_KEY", "SK" + rs(32, HX)), ("TWILIO_API_SECRET", rs(32, AN))], None),
    ("sendgrid", "SendGrid", "sendgrid_api_key", "email", lambda: [("SENDGRID_API_KEY", "SG." + rs(22, B64U) + "." + rs(43, B64U))], ("api.sendgrid.com", "/v3/mail/send", "Authorization: Bearer {t}")),
    ("mailgun", "Mailgun", "mailgun_api_key", "email", lambda: [("MAILGUN_API_KEY", "key-" + rs(32, HX) if chance(0.5) else rs(32, HX) + "-" + rs(8, HX) + "-" + rs(8, HX))], None),
    ("mailchimp", "Mailchimp", "mailchimp_api_key", "email", lambda: [("MAILCHIMP_API_KEY", rs(32, HX) + "-us" + str(R.randint(1, 21)))], None),
    ("mandrill", "Mailchimp", "mandrill_api_key", "email", lambda: [("MANDRILL_API_KEY", "md-" + rs(22, B64U))], None),
    ("postmark", "Postmark", "postmark_server_token", "email", lambda: [("POSTMARK_SERVER_TOKEN", uid())], ("api.postmarkapp.com", "/email", "X-Postmark-Server-Token: {t}")),
    ("brevo", "Brevo", "brevo_api_key", "email", lambda: [("BREVO_API_KEY", "xkeysib-" + rs(64, HX) + "-" + rs(16, AN))], ("api.brevo.com", "/v3/smtp/email", "api-key: {t}")),
    ("resend", "Resend", "resend_api_key", "email", lambda: [("RESEND_API_KEY", "re_" + rs(8, AN) + "_" + rs(24, AN))], ("api.resend.com", "/emails", "Authorization: Bearer {t}")),
    ("mailjet", "Mailjet", "mailjet_key_pair", "email", lambda: [("MJ_APIKEY_PUBLIC", rs(32, HX)), ("MJ_APIKEY_PRIVATE", rs(32, HX))], None),
    ("sparkpost", "SparkPost", "sparkpost_api_key", "email", lambda: [("SPARKPOST_API_KEY", rs(40, HX))], ("api.sparkpost.com", "/api/v1/transmissions", "Authorization: {t}")),
    ("vonage", "Vonage", "vonage_api_key_secret", "sms", lambda: [("VONAGE_API_KEY", rs(8, HX)), ("VONAGE_API_SECRET", rs(16, AN))], None),
    ("messagebird", "MessageBird", "messagebird_access_key", "sms", lambda: [("MESSAGEBIRD_ACCESS_KEY", rs(25, AN))], ("rest.messagebird.com", "/messages", "Authorization: AccessKey {t}")),
    ("plivo", "Plivo", "plivo_auth_pair", "sms", lambda: [("PLIVO_AUTH_ID", "MA" + rs(18, UP + DG)), ("PLIVO_AUTH_TOKEN", rs(40, AN))], None),
    ("sinch", "Sinch", "sinch_service_plan_token", "sms", lambda: [("SINCH_SERVICE_PLAN_ID", rs(32, HX)), ("SINCH_API_TOKEN", rs(32, HX))], None),
    ("pusher", "Pusher", "pusher_app_secret", "messaging", lambda: [("PUSHER_APP_ID", rs(7, DG)), ("PUSHER_KEY", rs(20, HX)), ("PUSHER_SECRET", rs(20, HX))], None),
    ("ably", "Ably", "ably_api_key", "messaging", lambda: [("ABLY_API_KEY", f"{rs(6, AN)}.{rs(6, AN)}:{rs(43, B64U)}")], None),
    ("intercom", "Intercom", "intercom_access_token", "crm", lambda: [("INTERCOM_ACCESS_TOKEN", "dG9rOj" + rs(54, AN) + "=")], ("api.intercom.io", "/contacts", "Authorization: Bearer {t}")),
    ("zendesk", "Zendesk", "zendesk_api_token", "crm", lambda: [("ZENDESK_SUBDOMAIN", project_name()), ("ZENDESK_EMAIL", work_email()), ("ZENDESK_API_TOKEN", rs(40, AN))], None),
    ("freshdesk", "Freshworks", "freshdesk_api_key", "crm", lambda: [("FRESHDESK_DOMAIN", project_name() + ".freshdesk.com"), ("FRESHDESK_API_KEY", rs(20, AN))], None),
    ("hubspot", "HubSpot", "hubspot_private_app_token", "crm", lambda: [("HUBSPOT_ACCESS_TOKEN", "pat-" + ch(["na1", "eu1"]) + "-" + uid())], ("api.hubapi.com", "/crm/v3/objects/contacts", "Authorization: Bearer {t}")),
    ("salesforce", "Salesforce", "salesforce_access_token", "crm", lambda: [("SF_INSTANCE_URL", f"https://{project_name()}.my.salesforce.com"), ("SF_ACCESS_TOKEN", "00D" + rs(12, AN) + "!AR" + rs(1, AN) + "AQ" + rs(90, AN + "._"))], None),
    ("pipedrive", "Pipedrive", "pipedrive_api_token", "crm", lambda: [("PIPEDRIVE_API_TOKEN", rs(40, HX))], None),
    ("zoho", "Zoho", "zoho_refresh_token", "crm", lambda: [("ZOHO_CLIENT_ID", "1000." + rs(30, UP + DG)), ("ZOHO_REFRESH_TOKEN", "1000." + rs(32, HX) + "." + rs(32, HX))], None),
    ("mapbox", "Mapbox", "mapbox_secret_token", "saas", lambda: [("MAPBOX_SECRET_TOKEN", mapbox_sk())], None),
    ("twitter", "X (Twitter)", "twitter_bearer_token", "social", lambda: [("TWITTER_BEARER_TOKEN", "AAAAAAAAAAAAAAAAAAAAA" + rs(20, AN) + "%3D" + rs(50, AN))], ("api.twitter.com", "/2/tweets/search/recent?query=from:nasa", "Authorization: Bearer {t}")),
    ("twitter_oauth1", "X (Twitter)", "twitter_oauth1_credentials", "social", lambda: [("TWITTER_API_KEY", rs(25, AN)), ("TWITTER_API_SECRET", rs(50, AN)), ("TWITTER_ACCESS_TOKEN", f"{rs(19, DG)}-{rs(30, AN)}"), ("TWITTER_ACCESS_SECRET", rs(45, AN))], None),
    ("facebook", "Meta", "facebook_page_access_token", "social", lambda: [("FB_PAGE_ACCESS_TOKEN", "EAAG" + rs(180, AN))], None),
    ("linkedin", "LinkedIn", "linkedin_client_secret", "social", lambda: [("LINKEDIN_CLIENT_ID", rs(14, LO + DG)), ("LINKEDIN_CLIENT_SECRET", "WPL_AP1." + rs(16, AN) + "." + rs(8, AN) + "==")], None),
    # ---- identity / auth providers
    ("okta", "Okta", "okta_api_token", "auth", lambda: [("OKTA_ORG_URL", f"https://{project_name()}.okta.com"), ("OKTA_API_TOKEN", "00" + rs(40, B64U))], None),
    ("auth0", "Auth0", "auth0_client_secret", "auth", lambda: [("AUTH0_DOMAIN", f"{project_name()}.eu.auth0.com"), ("AUTH0_CLIENT_ID", rs(32, AN)), ("AUTH0_CLIENT_SECRET", rs(64, B64U))], None),
    ("clerk", "Clerk", "clerk_secret_key", "auth", lambda: [("CLERK_SECRET_KEY", "sk_live_" + rs(40, AN))], None),
    ("stytch", "Stytch", "stytch_secret", "auth", lambda: [("STYTCH_PROJECT_ID", "project-live-" + uid()), ("STYTCH_SECRET", "secret-live-" + rs(36, B64U) + "=")], None),
    ("workos", "WorkOS", "workos_api_key", "auth", lambda: [("WORKOS_API_KEY", "sk_" + rs(68, AN))], None),
    ("keycloak", "Keycloak", "keycloak_client_secret", "auth", lambda: [("KEYCLOAK_CLIENT_ID", ch(["backend-api", "admin-cli-bot", "reporting-svc"])), ("KEYCLOAK_CLIENT_SECRET", rs(32, AN))], None),
    ("bitwarden", "Bitwarden", "bitwarden_api_client_secret", "auth", lambda: [("BW_CLIENTID", "user." + uid()), ("BW_CLIENTSECRET", rs(30, AN))], None),
    ("mux", "Mux", "mux_token_pair", "saas", lambda: [("MUX_TOKEN_ID", uid()), ("MUX_TOKEN_SECRET", rs(75, B64C))], None),
    ("cloudinary", "Cloudinary", "cloudinary_url", "saas", lambda: [("CLOUDINARY_URL", f"cloudinary://{rs(15, DG)}:{rs(27, B64U)}@{project_name()}")], None),
]
VENDOR_BY_SLUG = {v[0]: v for v in V}


# --------------------------------------------------------------------------
# record store
# --------------------------------------------------------------------------
RECS = []
CNT = {}
KEYS_USED = {}


def new_key():
    while True:
        k = "mem_" + rs(8, HX)
        if k not in KEYS_USED:
            KEYS_USED[k] = 1
            return k


def new_user():
    return "u%05d" % R.randrange(100000)


SEEN_VALUES = {}
DUPS = []


def add(label, variant, tag, kind, value, key=None, ns=None, allow_dup=False):
    sig = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if sig in SEEN_VALUES and not allow_dup and label == "benign":
        return False
    if sig in SEEN_VALUES:
        DUPS.append(kind)
    SEEN_VALUES[sig] = 1
    lv = ("s" if label == "secret" else "b", "p" if variant == "plain" else "h")
    CNT[lv] = CNT.get(lv, 0) + 1
    rid = f"h9-{lv[0]}-{lv[1]}-{tag}-{CNT[lv]:03d}"
    if key is None:
        key = new_key()
    else:
        KEYS_USED[key] = 1
    if ns is None:
        ns = ["memories", new_user()]
    RECS.append({"id": rid, "label": label, "kind": kind, "variant": variant, "namespace": ns, "key": key,
                 "value": value})
    return True


# --------------------------------------------------------------------------
# container renderers for vendor credentials (list of (VAR, value))
# --------------------------------------------------------------------------
ENV_NOISE = ["NODE_ENV=production", "PORT=8080", "LOG_LEVEL=info", "TZ=Europe/Berlin", "DEBUG=false",
             "APP_URL=https://app.example.org", "WORKERS=4", "REGION=eu-west-1", "FEATURE_NEW_CHECKOUT=1"]


def camel(var):
    p = var.lower().split("_")
    return p[0] + "".join(x.capitalize() for x in p[1:])


def q(v):
    return '"' + v + '"' if chance(0.5) else v


def r_env(pairs, disp, slug):
    lines = [f"{k}={q(v)}" for k, v in pairs]
    if chance(0.6):
        lines = [f"# {disp}"] + lines
    noise = [x for x in ENV_NOISE if chance(0.3)]
    pos = R.randint(0, len(noise))
    return "\n".join(noise[:pos] + lines + noise[pos:])


def r_shell(pairs, disp, slug):
    head = ch(["# added to ~/.zshrc", "# ~/.bashrc", "#!/usr/bin/env bash\nset -euo pipefail", "# deploy.sh", ""])
    body = "\n".join(f"export {k}='{v}'" if chance(0.5) else f'export {k}="{v}"' for k, v in pairs)
    tail = ch(["", "\n./run.sh --env prod", f"\npython sync_{slug}.py", "\nnpm run deploy"])
    return (head + "\n" if head else "") + body + tail


def r_yaml(pairs, disp, slug):
    st = R.randrange(4)
    if st == 0:
        return f"{slug}:\n" + "\n".join(f"  {k.lower()}: {q(v)}" for k, v in pairs)
    if st == 1:
        return ("services:\n  app:\n    image: ghcr.io/" + project_name() + "/api:" + f"{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}"
                + "\n    environment:\n" + "\n".join(f"      - {k}={v}" for k, v in pairs))
    if st == 2:
        return ("apiVersion: v1\nkind: Secret\nmetadata:\n  name: " + slug.replace("_", "-") + "-credentials\n  namespace: "
                + ch(["prod", "default", "payments", "platform"]) + "\ntype: Opaque\nstringData:\n"
                + "\n".join(f"  {k}: {q(v)}" for k, v in pairs))
    return ("name: deploy\non: [push]\njobs:\n  release:\n    runs-on: ubuntu-latest\n    env:\n"
            + "\n".join(f"      {k}: {v}" for k, v in pairs) + "\n    steps:\n      - uses: actions/checkout@v4")


def r_json(pairs, disp, slug):
    st = R.randrange(4)
    if st == 0:
        return {"service": disp, "credentials": {k.lower(): v for k, v in pairs}}
    if st == 1:
        return {k: v for k, v in pairs}
    if st == 2:
        return {"integrations": [{"name": slug, "enabled": True, "config": {camel(k): v for k, v in pairs}}]}
    return {"Logging": {"LogLevel": {"Default": "Information"}},
            disp.replace(" ", ""): {camel(k)[0].upper() + camel(k)[1:]: v for k, v in pairs}}


def r_ini(pairs, disp, slug):
    if chance(0.5):
        return f"[{slug}]\n" + "\n".join(f"{k.lower()} = {v}" for k, v in pairs)
    return f"[{slug}]\n" + "\n".join(f'{k.lower()} = "{v}"' for k, v in pairs) + "\ntimeout = 30"


def r_code(pairs, disp, slug):
    lang = R.randrange(8)
    if lang == 0:
        return "import os\n\n" + "\n".join(f'{k} = "{v}"' for k, v in pairs) + f"\n\nclient = {disp.replace(' ', '').replace('.', '')}Client(" + ", ".join(f"{k.lower()}={k}" for k, _ in pairs) + ")"
    if lang == 1:
        return "\n".join(f"const {camel(k)} = '{v}';" for k, v in pairs) + "\nmodule.exports = { " + ", ".join(camel(k) for k, _ in pairs) + " };"
    if lang == 2:
        return "package config\n\nconst (\n" + "\n".join(f'\t{camel(k)[0].upper() + camel(k)[1:]} = "{v}"' for k, v in pairs) + "\n)"
    if lang == 3:
        return "public final class Secrets {\n" + "\n".join(f'    public static final String {k} = "{v}";' for k, v in pairs) + "\n}"
    if lang == 4:
        return "\n".join(f'var {camel(k)} = "{v}";' for k, v in pairs) + "\n// TODO move to user-secrets"
    if lang == 5:
        return "\n".join(f"{k.lower()} = '{v}'" for k, v in pairs) + "\nputs 'configured'"
    if lang == 6:
        return "<?php\n" + "\n".join(f"define('{k}', '{v}');" for k, v in pairs)
    return "\n".join(f'const {k}: &str = "{v}";' for k, v in pairs)


def r_http(pairs, disp, slug, http):
    hostn, path, hdr = http
    tok = pairs[-1][1]
    o, r = project_name(), ch(["api", "web", "infra", "mobile"])
    hostn = hostn.replace("{shop}", project_name())
    path = path.replace("{o}", o).replace("{r}", r)
    if hdr is None:
        url = f"https://{hostn}{path.replace('{t}', tok)}"
        return ch([f"curl -s '{url}'", f"GET {url} -> 200 OK ({R.randint(40, 900)} ms)"])
    h = hdr.replace("{t}", tok)
    st = R.randrange(3)
    if st == 0:
        return f"curl -sS https://{hostn}{path} \\\n  -H '{h}' \\\n  -H 'Content-Type: application/json'"
    if st == 1:
        return f"{ch(['GET', 'POST'])} {path} HTTP/1.1\nHost: {hostn}\n{h}\nAccept: application/json\nUser-Agent: {slug}-sync/1.{R.randint(0, 9)}"
    return {"method": ch(["GET", "POST"]), "url": f"https://{hostn}{path}",
            "headers": {h.split(": ", 1)[0]: h.split(": ", 1)[1], "Accept": "application/json"}}


def r_log(pairs, disp, slug):
    k, v = pairs[-1]
    st = R.randrange(3)
    if st == 0:
        return f"{log_ts()} DEBUG [{slug}.client] initialising with {k}={v}"
    if st == 1:
        return (f"{log_ts()} INFO  boot: loaded {len(pairs)} settings\n{log_ts()} DEBUG env dump: "
                + json.dumps({kk: vv for kk, vv in pairs}) + f"\n{log_ts()} INFO  listening on :8080")
    return f'level=debug ts={iso_ts()} caller={slug}/auth.go:{R.randint(20, 300)} msg="using credentials" {k.lower()}={v}'


def prose_val(pairs):
    if len(pairs) == 1:
        return pairs[0][1]
    return ", ".join(f"{k}: {v}" for k, v in pairs)


def r_prose(pairs, disp, slug):
    lang = ch(LANGS)
    t = noisy(ch(LP[lang]["s_tok"]), lang)
    return wrap_note(fill(t, lang, svc=disp, val=prose_val(pairs)), lang)


def r_csv(pairs, disp, slug):
    if len(pairs) == 1:
        return ("name,provider,key,created_by,created_at\n" + f"{project_name()}-prod,{disp},{pairs[0][1]},{ch(USERS)},{iso_ts()[:10]}")
    return ",".join(k.lower() for k, _ in pairs) + ",environment\n" + ",".join(v for _, v in pairs) + ",production"


def r_chat(pairs, disp, slug):
    lang = ch(["en", "en", "de", "fr", "es", "pt", "ja"])
    ask = {"en": f"can you remember my {disp} creds for the migration next week?",
           "de": f"kannst du dir meine {disp}-Zugangsdaten für nächste Woche merken?",
           "fr": f"tu peux retenir mes identifiants {disp} pour la migration ?",
           "es": f"¿puedes guardar mis credenciales de {disp} para la semana que viene?",
           "pt": f"pode guardar minhas credenciais do {disp} pra semana que vem?",
           "ja": f"来週の移行用に{disp}の認証情報を覚えておいて"}[lang]
    return [{"role": "user", "content": ask}, {"role": "assistant", "content": "Sure, go ahead."},
            {"role": "user", "content": "\n".join(f"{k}={v}" for k, v in pairs)}]


def r_ticket(pairs, disp, slug):
    return {"ticket_id": f"SUP-{R.randint(10000, 99999)}", "status": ch(["open", "pending", "solved"]),
            "subject": f"{disp} integration returns 401 since this morning",
            "body": (f"Hi team, our {disp} sync started failing. Config we use:\n"
                     + "\n".join(f"{k}={v}" for k, v in pairs) + "\nCan you check? Thanks, " + ch(LP['en']['names']))}


def r_email(pairs, disp, slug):
    return (f"From: {work_email()}\nTo: {work_email()}\nSubject: {disp} credentials for staging\n\n"
            f"Hi {ch(LP['en']['names'])},\n\nhere are the credentials you asked for:\n\n"
            + "\n".join(f"  {k}: {v}" for k, v in pairs) + "\n\nPlease put them in the vault and delete this mail.\n\nCheers")


def r_toml(pairs, disp, slug):
    return f"[{slug}]\n" + "\n".join(f'{k.lower()} = "{v}"' for k, v in pairs)


def r_tfvars(pairs, disp, slug):
    return "\n".join(f'{k.lower()} = "{v}"' for k, v in pairs) + f'\nregion = "{ch(["eu-west-1", "us-east-1", "ap-southeast-2"])}"'


def r_props(pairs, disp, slug):
    return "\n".join(f"app.{slug.replace('_', '-')}.{k.lower().replace('_', '-')}={v}" for k, v in pairs)


def r_special(slug, pairs):
    """format native to a specific tool; None if there is none."""
    d = dict(pairs)
    if slug == "aws":
        return "special-awscreds", ("[default]\naws_access_key_id = " + d["AWS_ACCESS_KEY_ID"] + "\naws_secret_access_key = "
                                    + d["AWS_SECRET_ACCESS_KEY"] + "\nregion = " + ch(["eu-central-1", "us-east-1"]))
    if slug == "npm":
        return "special-npmrc", "//registry.npmjs.org/:_authToken=" + d["NPM_TOKEN"] + "\nalways-auth=true"
    if slug == "pypi":
        return "special-pypirc", "[distutils]\nindex-servers = pypi\n\n[pypi]\n  username = __token__\n  password = " + d["TWINE_PASSWORD"]
    if slug == "github_pat":
        return "special-git-remote", f"git remote set-url origin https://x-access-token:{d['GITHUB_TOKEN']}@github.com/{project_name()}/{project_name()}.git"
    if slug == "gitlab_pat":
        return "special-git-remote", f"git clone https://oauth2:{d['GITLAB_TOKEN']}@gitlab.com/{project_name()}/backend.git"
    if slug == "heroku":
        return "special-netrc", f"machine api.heroku.com\n  login {work_email()}\n  password {d['HEROKU_API_KEY']}\nmachine git.heroku.com\n  login {work_email()}\n  password {d['HEROKU_API_KEY']}"
    if slug == "dockerhub":
        return "special-docker-login", f"echo '{d['DOCKERHUB_TOKEN']}' | docker login -u {d['DOCKERHUB_USERNAME']} --password-stdin"
    if slug == "akamai":
        return "special-edgerc", "[default]\n" + "\n".join(f"{k} = {v}" for k, v in pairs)
    if slug == "rubygems":
        return "special-gem-credentials", "---\n:rubygems_api_key: " + d["GEM_HOST_API_KEY"]
    if slug == "crates":
        return "special-cargo-credentials", '[registry]\ntoken = "' + d["CARGO_REGISTRY_TOKEN"] + '"'
    if slug == "nuget":
        return "special-dotnet-cli", f"dotnet nuget push bin/Release/*.nupkg --api-key {d['NUGET_API_KEY']} --source https://api.nuget.org/v3/index.json"
    if slug == "vault":
        return "special-vault-cli", f"export VAULT_ADDR={d['VAULT_ADDR']}\nvault login {d['VAULT_TOKEN']}"
    if slug == "ngrok":
        return "special-ngrok-yml", 'version: "2"\nauthtoken: ' + d["NGROK_AUTHTOKEN"] + "\ntunnels:\n  web:\n    proto: http\n    addr: 3000"
    if slug == "tfc":
        return "special-terraformrc", 'credentials "app.terraform.io" {\n  token = "' + d["TFE_TOKEN"] + '"\n}'
    return None


RENDERERS = [("env", r_env), ("shell", r_shell), ("yaml", r_yaml), ("json", r_json), ("ini", r_ini),
             ("code", r_code), ("log", r_log), ("prose", r_prose), ("csv", r_csv), ("chat", r_chat),
             ("ticket", r_ticket), ("email", r_email), ("toml", r_toml), ("tfvars", r_tfvars), ("props", r_props)]


def vendor_plain(v):
    slug, vendor, kind, cat, fn, http = v
    pairs = fn()
    disp = vendor if slug.split("_")[0] in vendor.lower().replace(" ", "") else vendor
    sp = r_special(slug, pairs)
    roll = R.random()
    if sp and roll < 0.45:
        tag, val = sp
        tag = tag.replace("special-", "")
    elif http and roll < 0.62:
        tag, val = "http", r_http(pairs, disp, slug, http)
    else:
        tag, f = ch(RENDERERS)
        val = f(pairs, disp, slug)
    add("secret", "plain", tag, kind, val)


# --------------------------------------------------------------------------
# plain secrets: keys / wallets
# --------------------------------------------------------------------------
def keys_plain():
    items = []
    for _ in range(3):
        items.append(("rsa_private_key_pem", "pem", pem_rsa))
    for _ in range(3):
        items.append(("pkcs8_private_key_pem", "pem", pem_pkcs8))
    for _ in range(2):
        items.append(("ec_private_key_pem", "pem", pem_ec))
    for _ in range(3):
        items.append(("openssh_private_key", "pem", openssh_ed25519))
    for _ in range(2):
        items.append(("pgp_private_key_block", "pem", lambda: pgp_block("PRIVATE")))
    items.append(("putty_private_key", "ppk", putty_ppk))
    for kind, tag, fn in items:
        key = fn()
        st = R.randrange(4)
        if st == 0:
            val = key
        elif st == 1:
            val = {"filename": ch(["id_ed25519", "deploy_key", "server.key", "private.pem", "signing.asc", "prod.ppk"]),
                   "content": key}
        elif st == 2:
            val = ch(["backup of the deploy key, keep safe:\n", "my old laptop key in case I need it:\n",
                      "Schlüssel für den Build-Server:\n", "clé privée du serveur de prod :\n",
                      "サーバーの秘密鍵（バックアップ）\n"]) + key
        else:
            val = "cat > ~/.ssh/" + ch(["id_ed25519", "deploy", "bastion"]) + " <<'EOF'\n" + key + "\nEOF\nchmod 600 ~/.ssh/*"
        add("secret", "plain", tag, kind, val)
    pw = human_pw()
    add("secret", "plain", "pem", "encrypted_private_key_with_passphrase",
        pem_encrypted() + f"\n\npassphrase: {pw}")
    for _ in range(2):
        sa = {"type": "service_account", "project_id": f"{project_name()}-prod-{R.randint(100000, 999999)}",
              "private_key_id": rs(40, HX), "private_key": pem_pkcs8().replace("\n", "\n") + "\n",
              "client_email": f"{ch(['ci-deployer', 'bq-reader', 'firebase-adminsdk-' + rs(5, LO)])}@{project_name()}-prod.iam.gserviceaccount.com",
              "client_id": rs(21, DG), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
              "token_uri": "https://oauth2.googleapis.com/token"}
        add("secret", "plain", "json", "gcp_service_account_key", sa)
    add("secret", "plain", "pem", "apple_app_store_connect_p8",
        f"AuthKey_{rs(10, UP + DG)}.p8 (Issuer ID {uid()})\n" + pem_p8())
    add("secret", "plain", "prose", "ethereum_private_key", f"MetaMask account 2 private key: {eth_priv()}")
    add("secret", "plain", "env", "ethereum_private_key", f"DEPLOYER_PRIVATE_KEY={eth_priv()}\nRPC_URL=https://mainnet.infura.io/v3/{rs(32, HX)}")
    add("secret", "plain", "prose", "bip39_seed_phrase", f"ledger recovery phrase (24 words): {seed_phrase(24)}")
    add("secret", "plain", "prose", "bip39_seed_phrase", f"frase semilla de la billetera: {seed_phrase(12)}")
    add("secret", "plain", "json", "bip39_seed_phrase", {"wallet": "Trust Wallet", "mnemonic": seed_phrase(12), "created": iso_ts()[:10]})
    add("secret", "plain", "prose", "bitcoin_wif_private_key", f"paper wallet WIF {btc_wif()} (address on the other side)")
    add("secret", "plain", "prose", "bip32_extended_private_key", f"xprv for the watch-only setup, DON'T share: {xprv()}")
    add("secret", "plain", "ini", "age_secret_key", f"# created: {iso_ts()}\n# public key: {age_public()}\n{age_secret()}")
    add("secret", "plain", "json", "solana_keypair", {"file": "id.json", "keypair": [R.randrange(256) for _ in range(64)]})
    add("secret", "plain", "ini", "wireguard_private_key",
        f"[Interface]\nPrivateKey = {b64b(rbytes(32))}\nAddress = 10.8.0.{R.randint(2, 250)}/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {b64b(rbytes(32))}\nEndpoint = vpn.{ch(DOMAINS)}:51820\nAllowedIPs = 0.0.0.0/0")
    add("secret", "plain", "yaml", "kubeconfig_client_key",
        "apiVersion: v1\nkind: Config\nusers:\n- name: admin\n  user:\n    client-certificate-data: " + b64b(rbytes(90))
        + "\n    client-key-data: " + b64s(pem_ec()))
    add("secret", "plain", "yaml", "kubeconfig_bearer_token",
        "users:\n- name: ci\n  user:\n    token: " + jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci",
                                                        "kubernetes.io/serviceaccount/service-account.name": "deployer", "sub": "system:serviceaccount:ci:deployer"}, alg="RS256", kid=True))
    add("secret", "plain", "prose", "totp_seed_uri",
        f"otpauth://totp/{ch(['GitHub', 'AWS', 'Google', 'Proton'])}:{ch(EMAIL_LOCAL)}?secret={rs(32, B32)}&issuer={ch(['GitHub', 'Amazon', 'Google', 'Proton'])}")


# --------------------------------------------------------------------------
# plain secrets: JWT, cookies, connection strings, basic auth
# --------------------------------------------------------------------------
def jwt_cookie_conn_basic_plain():
    # JWTs
    for i in range(8):
        tok = jwt(alg=ch(["HS256", "RS256", "ES256"]), kid=chance(0.5))
        st = i % 4
        if st == 0:
            add("secret", "plain", "http", "jwt_bearer_token", f"GET /api/v2/me HTTP/1.1\nHost: api.{ch(DOMAINS)}\nAuthorization: Bearer {tok}")
        elif st == 1:
            add("secret", "plain", "json", "oauth_token_response", {"access_token": tok, "token_type": "Bearer", "expires_in": 3600,
                                                                    "refresh_token": rs(48, B64U), "scope": "openid profile email"})
        elif st == 2:
            add("secret", "plain", "log", "jwt_in_log", f"{log_ts()} WARN auth middleware rejected request; raw header was 'Bearer {tok}'")
        else:
            add("secret", "plain", "json", "jwt_localstorage_dump", {"localStorage": {"theme": "dark", "auth_token": tok, "lang": "en"}})
    # cookies
    ck = [
        ("django_session_cookie", lambda: f"Cookie: sessionid={rs(32, LO + DG)}; csrftoken={rs(32, AN)}"),
        ("express_session_cookie", lambda: f"Set-Cookie: connect.sid=s%3A{rs(32, B64U)}.{rs(43, B64C)}; Path=/; HttpOnly; Secure"),
        ("php_session_cookie", lambda: f"PHPSESSID={rs(26, LO + DG)}"),
        ("java_session_cookie", lambda: f"Cookie: JSESSIONID={rs(32, HXU)}; Path=/portal"),
        ("rails_session_cookie", lambda: f"_{project_name()}_session={rs(220, AN + '%')}--{rs(40, HX)}"),
        ("aspnet_auth_cookie", lambda: f".AspNetCore.Cookies=CfDJ8{rs(300, B64U)}"),
        ("nextauth_session_cookie", lambda: f"__Secure-next-auth.session-token={rs(40, B64U)}..{rs(300, B64U)}.{rs(22, B64U)}"),
        ("netscape_cookie_export", lambda: f"# Netscape HTTP Cookie File\n.{ch(DOMAINS)}\tTRUE\t/\tTRUE\t{R.randint(1_760_000_000, 1_800_000_000)}\tsession\t{rs(64, HX)}"),
    ]
    for kind, fn in ck:
        v = fn()
        if chance(0.4):
            v = ch(["copied from devtools so I can debug the login loop: ", "cookie for the scraper: ",
                    "session cookie (still valid until Friday) "]) + v
        add("secret", "plain", "cookie", kind, v)
    # connection strings
    conns = [
        ("postgres_url", lambda pw, u: f"postgresql://{u}:{urllib.parse.quote(pw, safe='')}@{host()}:5432/{ch(['app', 'orders', 'analytics'])}"),
        ("mysql_url", lambda pw, u: f"mysql://{u}:{urllib.parse.quote(pw, safe='')}@{host()}:3306/shop"),
        ("mongodb_srv_url", lambda pw, u: f"mongodb+srv://{u}:{urllib.parse.quote(pw, safe='')}@cluster0.{rs(5, LO + DG)}.mongodb.net/{ch(['prod', 'app'])}?retryWrites=true&w=majority"),
        ("redis_url", lambda pw, u: f"redis://default:{rs(32, AN)}@redis-{rs(5, DG)}.c{R.randint(1, 300)}.eu-west-1-2.ec2.redns.redis-cloud.com:{R.randint(10000, 19999)}"),
        ("rediss_url", lambda pw, u: f"rediss://:{urllib.parse.quote(pw, safe='')}@cache.{ch(DOMAINS)}:6380/0"),
        ("amqp_url", lambda pw, u: f"amqps://{u}:{rs(32, B64U)}@{ch(['rattlesnake', 'goose', 'kangaroo'])}.rmq.cloudamqp.com/{u}"),
        ("mssql_connection_string", lambda pw, u: f"Server=tcp:{project_name()}.database.windows.net,1433;Initial Catalog=Sales;User ID={u};Password={pw};Encrypt=True;TrustServerCertificate=False;"),
        ("jdbc_url_with_password", lambda pw, u: f"jdbc:postgresql://{host()}:5432/billing?user={u}&password={urllib.parse.quote(pw, safe='')}&ssl=true"),
        ("oracle_connect_string", lambda pw, u: f"sqlplus {u}/{pw}@//{host()}:1521/ORCLPDB1"),
        ("ftp_url", lambda pw, u: f"ftp://{u}:{urllib.parse.quote(pw, safe='')}@ftp.{ch(DOMAINS)}/exports/"),
        ("smtp_url", lambda pw, u: f"SMTP_URL=smtp://{u}%40{ch(DOMAINS)}:{urllib.parse.quote(pw, safe='')}@smtp.{ch(DOMAINS)}:587"),
        ("ldap_bind_credentials", lambda pw, u: f"ldap:\n  url: ldaps://ldap.{ch(DOMAINS)}:636\n  bindDN: cn={u},ou=services,dc=corp,dc=local\n  bindPassword: {pw}"),
        ("kafka_sasl_jaas", lambda pw, u: f'sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="{rs(16, UP + DG)}" password="{rs(64, B64C)}";'),
        ("elasticsearch_url", lambda pw, u: f"ES_URL=https://elastic:{rs(24, AN)}@{project_name()}.es.us-central1.gcp.cloud.es.io:9243"),
        ("clickhouse_url", lambda pw, u: f"clickhouse://default:{urllib.parse.quote(pw, safe='')}@{rs(10, LO + DG)}.eu-central-1.aws.clickhouse.cloud:9440/default?secure=true"),
        ("neon_postgres_url", lambda pw, u: f"DATABASE_URL=postgresql://neondb_owner:npg_{rs(12, AN)}@ep-{ch(PASS_WORDS)}-{ch(PASS_WORDS)}-{rs(8, LO + DG)}.eu-central-1.aws.neon.tech/neondb?sslmode=require"),
        ("django_databases_setting", lambda pw, u: "DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': 'app',\n        'USER': '" + u + "',\n        'PASSWORD': '" + pw + "',\n        'HOST': '" + host() + "',\n    }\n}"),
        ("spring_datasource_password", lambda pw, u: f"spring.datasource.url=jdbc:mysql://{host()}:3306/crm\nspring.datasource.username={u}\nspring.datasource.password={pw}"),
        ("docker_run_db_password", lambda pw, u: f"docker run -d --name pg -e POSTGRES_USER={u} -e POSTGRES_PASSWORD='{pw}' -p 5432:5432 postgres:16"),
        ("mysql_cli_password", lambda pw, u: f"mysql -h {host()} -u {u} -p'{pw}' -e 'show databases;'"),
        ("psycopg_connect_call", lambda pw, u: f"conn = psycopg2.connect(host='{host()}', dbname='metrics', user='{u}', password='{pw}')"),
        ("sqlcmd_password", lambda pw, u: f"sqlcmd -S {project_name()}-sql.database.windows.net -U sa -P '{pw}' -Q \"SELECT @@VERSION\""),
    ]
    for kind, fn in conns:
        v = fn(human_pw(), ch(USERS).replace(".", "_"))
        if chance(0.25):
            v = {"note": ch(["prod db", "read replica for reports", "legacy system, do not delete", "staging"]), "dsn": v}
        add("secret", "plain", "conn", kind, v)
    # basic auth
    bas = [
        ("http_basic_auth_header", lambda u, p: f"GET /metrics HTTP/1.1\nHost: grafana.{ch(DOMAINS)}\nAuthorization: Basic {b64s(u + ':' + p)}"),
        ("curl_user_password", lambda u, p: f"curl -u {u}:{p} https://jenkins.{ch(DOMAINS)}/job/nightly/build -X POST"),
        ("url_embedded_credentials", lambda u, p: f"https://{u}:{urllib.parse.quote(p, safe='')}@registry.{ch(DOMAINS)}/v2/_catalog"),
        ("netrc_credentials", lambda u, p: f"machine ftp.{ch(DOMAINS)}\n  login {u}\n  password {p}"),
        ("docker_config_auth", lambda u, p: {"auths": {f"registry.{ch(DOMAINS)}": {"auth": b64s(u + ':' + p)}}}),
        ("python_requests_auth", lambda u, p: f"resp = requests.get(url, auth=('{u}', '{p}'), timeout=10)"),
        ("wget_credentials", lambda u, p: f"wget --user={u} --password='{p}' https://files.{ch(DOMAINS)}/backup.tar.gz"),
        ("proxy_url_credentials", lambda u, p: f"export HTTPS_PROXY=http://{u}:{urllib.parse.quote(p, safe='')}@proxy.corp.local:3128"),
    ]
    for kind, fn in bas:
        add("secret", "plain", "basic-auth", kind, fn(ch(USERS), human_pw()))


# --------------------------------------------------------------------------
# plain secrets: multilingual personal passwords / PINs / codes
# --------------------------------------------------------------------------
CAT_KIND = {"s_pw": "account_password", "s_wifi": "wifi_password", "s_pin": "pin_code", "s_door": "door_entry_code",
            "s_alarm": "alarm_code", "s_safe": "safe_or_lockbox_code", "s_otp": "one_time_code",
            "s_secq": "security_question_answer"}


def prose_plain():
    for lang in LANGS:
        for cat in ["s_pw", "s_wifi", "s_pin", "s_door", "s_alarm", "s_safe", "s_otp", "s_secq"]:
            t = noisy(ch(LP[lang][cat]), lang)
            add("secret", "plain", f"prose-{lang}", CAT_KIND[cat], wrap_note(fill(t, lang), lang))
    extras = [
        ("garage_door_code", lambda: f"garage door keypad: {rs(4, DG)} then the up arrow"),
        ("sim_puk_code", lambda: f"SIM card PUK {rs(8, DG)} (from the plastic card the SIM came on), PIN {pin4()}"),
        ("voicemail_pin", lambda: f"voicemail PIN is {rs(R.randint(4, 6), DG)} - dial 121 from the mobile"),
        ("parcel_locker_code", lambda: f"Amazon locker pickup code {rs(6, DG)}, locker at the petrol station"),
        ("recovery_codes", lambda: "GitHub recovery codes:\n" + "\n".join(f"{rs(5, HX)}-{rs(5, HX)}" for _ in range(10))),
        ("recovery_codes", lambda: "Google backup codes: " + ", ".join(f"{rs(4, DG)} {rs(4, DG)}" for _ in range(8))),
        ("bike_lock_combination", lambda: f"bike lock combo {rs(4, DG)} (the blue Abus one)"),
        ("router_admin_password", lambda: f"router admin page 192.168.1.1 -> user admin, pass {human_pw()}"),
        ("laptop_login_password", lambda: f"work laptop BitLocker PIN {rs(6, DG)}, Windows password {human_pw()}"),
        ("password_hint_with_password", lambda: f"if I forget: the {ch(['Steam', 'Epic', 'Discord'])} pw is {human_pw()}"),
        ("storage_unit_gate_code", lambda: f"storage unit #{R.randint(100, 499)}, gate code {rs(4, DG)}#, padlock key in the drawer"),
        ("phone_passcode", lambda: f"grandma's iPad passcode {rs(6, DG)}"),
    ]
    for kind, fn in extras:
        add("secret", "plain", "prose-en", kind, wrap_note(fn(), "en"))


# --------------------------------------------------------------------------
# plain secrets: payment cards
# --------------------------------------------------------------------------
CARD_T = {
    "en": ["Visa {num} exp {exp} CVV {cvv}", "my amex is {num}, exp {exp}, CID {cvv4}",
           "card number to remember: {num}", "Mum's Mastercard {num} expires {exp}, code on back {cvv}"],
    "de": ["Kreditkarte: {num}, gültig bis {exp}, Prüfnummer {cvv}"],
    "fr": ["numéro de carte {num} expire {exp} cryptogramme {cvv}"],
    "es": ["tarjeta {num} caduca {exp} CVV {cvv}"],
    "it": ["carta {num} scadenza {exp} cvv {cvv}"],
    "pt": ["número do cartão {num} validade {exp} código de segurança {cvv}"],
    "ru": ["номер карты {num}, срок {exp}, CVC {cvv}"],
    "ja": ["カード番号 {num} 有効期限 {exp} セキュリティコード {cvv}"],
    "zh": ["信用卡号 {num}，有效期 {exp}，CVV {cvv}"],
    "tr": ["kart numarası {num} son kullanma {exp} cvv {cvv}"],
    "pl": ["numer karty {num}, ważna do {exp}, CVC {cvv}"],
    "nl": ["creditcard {num} geldig tot {exp} cvc {cvv}"],
    "ko": ["카드번호 {num} 유효기간 {exp} CVC {cvv}"],
    "id": ["nomor kartu kredit {num} exp {exp} cvv {cvv}"],
}


def cards_plain():
    langs = list(CARD_T.keys())
    for i in range(24):
        kind_c, num = card_number()
        st = i % 6
        if st in (0, 1, 2):
            lang = langs[i % len(langs)]
            t = ch(CARD_T[lang])
            if kind_c == "amex" and "{cvv}" in t:
                t = t.replace("{cvv}", "{cvv4}")
            val = wrap_note(t.format(num=fmt_card(num), exp=expiry(), cvv=cvv(), cvv4=cvv(4)), lang)
            add("secret", "plain", f"prose-{lang}", "payment_card_number", val)
        elif st == 3:
            add("secret", "plain", "json", "payment_card_record",
                {"cardholder": ch(["A. KOWALSKA", "J SMITH", "M. ROSSI", "TANAKA KENTA", "L. MÜLLER"]),
                 "card_number": fmt_card(num, ch([0, 1])), "expiry": expiry(), "cvc": cvv(4 if kind_c == "amex" else 3)})
        elif st == 4:
            add("secret", "plain", "csv", "payment_card_csv_export",
                "name,number,exp_month,exp_year\n" + f"{ch(['Personal', 'Business', 'Travel'])},{num},{R.randint(1, 12)},{R.randint(2026, 2031)}")
        else:
            add("secret", "plain", "log", "payment_card_in_log",
                f"{log_ts()} DEBUG POST /charge body=amount=4999&currency=eur&card[number]={num}&card[exp_month]={R.randint(1, 12)}&card[exp_year]={R.randint(2026, 2031)}&card[cvc]={cvv()}")


# --------------------------------------------------------------------------
# plain secrets: structured records whose field names carry the meaning
# --------------------------------------------------------------------------
def structured_plain():
    S = []
    S.append(("login_record", lambda: {"site": ch(["netflix.com", "amazon.de", "steamcommunity.com", "etsy.com"]), "username": email(), "password": human_pw()}))
    S.append(("wifi_record", lambda: {"type": "wifi", "ssid": ch(LP["en"]["ssids"] + LP["de"]["ssids"]), "security": "WPA2", "psk": human_pw()}))
    S.append(("wifi_qr_payload", lambda: f"WIFI:T:WPA;S:{ch(LP['fr']['ssids'])};P:{human_pw()};;"))
    S.append(("door_code_record", lambda: {"location": ch(["back entrance", "Hinterhof", "portal B", "gym side door"]), "code": door_code()}))
    S.append(("bank_pin_record", lambda: {"bank": ch(LP["en"]["banks"] + LP["de"]["banks"]), "card_last4": rs(4, DG), "pin": pin4()}))
    S.append(("chrome_password_csv", lambda: "name,url,username,password\n" + "\n".join(
        f"{d},https://{d}/login,{email()},{human_pw()}" for d in ["accounts.google.com", "www.ebay.com", "id.atlassian.com"])))
    S.append(("bitwarden_export_item", lambda: {"type": 1, "name": ch(["Proton Mail", "Coinbase", "Dropbox"]), "login": {"username": email(), "password": human_pw(),
                                                                                                                     "totp": f"otpauth://totp/x?secret={rs(32, B32)}"}}))
    S.append(("keepass_xml_entry", lambda: f"<Entry><String><Key>Title</Key><Value>VPN</Value></String><String><Key>UserName</Key><Value>{ch(USERS)}</Value></String><String><Key>Password</Key><Value ProtectInMemory=\"True\">{human_pw()}</Value></String></Entry>"))
    S.append(("alarm_panel_record", lambda: {"alarm": {"panel": ch(["Ajax", "Bosch", "Verisure"]), "user_code": rs(4, DG), "duress_code": rs(4, DG)}}))
    S.append(("locker_combination_record", lambda: {"locker": {"number": R.randint(100, 1999), "combination": f"{R.randint(0, 39)}-{R.randint(0, 39)}-{R.randint(0, 39)}"}}))
    S.append(("router_admin_record", lambda: {"router": ch(["FRITZ!Box 7590", "Livebox 6", "TP-Link Archer AX55"]), "admin_url": "http://192.168.178.1", "admin_password": human_pw()}))
    S.append(("sim_pin_puk_record", lambda: {"sim": {"carrier": ch(["Vodafone", "Orange", "Movistar", "Telia"]), "pin": pin4(), "puk": rs(8, DG)}}))
    S.append(("backup_codes_record", lambda: {"service": ch(["Microsoft", "Discord", "Dropbox"]), "backup_codes": [rs(8, LO + DG) for _ in range(8)]}))
    S.append(("security_questions_record", lambda: {"security_questions": [{"q": "First pet?", "a": ch(LP["en"]["answers"])},
                                                                            {"q": "City where your parents met?", "a": ch(LP["fr"]["cities"])}]}))
    S.append(("home_info_yaml", lambda: f"house:\n  alarm_code: \"{rs(4, DG)}\"\n  wifi:\n    ssid: {ch(LP['nl']['ssids'])}\n    password: {human_pw()}\n  bins: tuesday"))
    S.append(("ansible_become_password", lambda: f"ansible_user: {ch(USERS)}\nansible_become_password: {human_pw()}\nansible_host: 10.0.{R.randint(0, 9)}.{R.randint(2, 250)}"))
    S.append(("sql_plaintext_password_insert", lambda: f"INSERT INTO users (email, password, role) VALUES ('{work_email()}', '{human_pw()}', 'admin');"))
    S.append(("sql_alter_user_password", lambda: f"ALTER USER {ch(USERS).replace('.', '_')} WITH PASSWORD '{human_pw()}';"))
    S.append(("html_form_prefilled_password", lambda: f'<input type="email" name="email" value="{email()}">\n<input type="password" name="password" value="{human_pw()}">'))
    S.append(("json_api_login_body", lambda: {"request": {"method": "POST", "path": "/api/login", "body": {"username": ch(USERS), "password": human_pw(), "remember": True}}}))
    S.append(("form_urlencoded_login", lambda: f"POST /login\nContent-Type: application/x-www-form-urlencoded\n\nusername={ch(USERS)}&password={urllib.parse.quote_plus(human_pw())}&remember=1"))
    S.append(("vpn_credentials_record", lambda: {"vpn": {"server": f"vpn.{ch(DOMAINS)}", "username": ch(USERS), "password": human_pw(), "psk": rs(20, AN)}}))
    S.append(("gift_card_code_and_pin", lambda: {"gift_card": {"brand": ch(["Steam", "Amazon", "Apple"]), "code": "-".join(rs(5, UP + DG) for _ in range(3)), "pin": rs(4, DG)}}))
    S.append(("mqtt_broker_credentials", lambda: f"mqtt:\n  broker: mqtt.{ch(DOMAINS)}\n  port: 8883\n  username: homeassistant\n  password: {human_pw()}"))
    for kind, fn in S:
        v = fn()
        tag = "record"
        add("secret", "plain", tag, kind, v)


# --------------------------------------------------------------------------
# hard (evasive) secrets
# --------------------------------------------------------------------------
SECRET_PH = ["{pw}", "{pin}", "{pin2}", "{pin6}", "{otp6}", "{code}", "{code2}", "{otp}", "{ans}", "{val}"]
NON_SECRET_VAR = re.compile(r"(_ID|URL|USER|USERNAME|EMAIL|ENV|HOST|DOMAIN|ACCOUNT|SUBDOMAIN|ENDPOINT|SERVER|ADDR|MERCHANT_ACCOUNT|OCID|^host)$")
CARD_WORD = {"en": "card number", "de": "Kartennummer", "fr": "numéro de carte", "es": "número de tarjeta",
             "it": "numero carta", "pt": "número do cartão", "nl": "kaartnummer", "pl": "numer karty",
             "sv": "kortnummer", "tr": "kart numarası", "ru": "номер карты", "ja": "カード番号", "zh": "卡号",
             "ko": "카드번호", "ar": "رقم البطاقة", "hi": "कार्ड नंबर", "id": "nomor kartu", "vi": "số thẻ"}
_VQ = []


def next_vendor():
    if not _VQ:
        lst = list(V)
        R.shuffle(lst)
        _VQ.extend(lst)
    return _VQ.pop()


def single_secret_tpls(lst):
    out = [t for t in lst if sum(t.count(p) for p in SECRET_PH) == 1]
    return out or lst[:1]


def put(ctx, s):
    return ctx.replace(SLOT, s)


def atom(t):
    lang = ch(LANGS)
    a = {"type": t, "lang": lang}
    if t == "vendor":
        slug, vendor, kind, cat, fn, http = next_vendor()
        pairs = fn()
        idx = len(pairs) - 1
        for i in range(len(pairs) - 1, -1, -1):
            if not NON_SECRET_VAR.search(pairs[i][0]):
                idx = i
                break
        var, sec = pairs[idx]
        others = [p for i, p in enumerate(pairs) if i != idx]
        if chance(0.5):
            a["lang"] = "en"
            ctx = "\n".join(f"{k}={v}" for k, v in others + [(var, SLOT)])
        else:
            t2 = ch(LP[lang]["s_tok"])
            ctx = fill(t2, lang, svc=vendor, val=f"{var}={SLOT}")
            if others:
                ctx += " (" + ", ".join(f"{k}={v}" for k, v in others) + ")"
        a.update(kind=kind, secret=sec, ctx=ctx, label=var)
        return a
    if t in ("password", "wifi", "pin", "door", "safe", "otp", "secq", "alarm"):
        cat = {"password": "s_pw", "wifi": "s_wifi", "pin": "s_pin", "door": "s_door", "safe": "s_safe",
               "otp": "s_otp", "secq": "s_secq", "alarm": "s_alarm"}[t]
        tpl = noisy(ch(single_secret_tpls(LP[lang][cat])), lang)
        ph = [p for p in SECRET_PH if p in tpl][0][1:-1]
        gen = {"pw": human_pw, "pin": pin4, "pin2": pin4, "pin6": lambda: rs(6, DG), "otp6": lambda: rs(6, DG),
               "code": door_code if t != "safe" else safe_code, "code2": door_code, "otp": otp_code,
               "ans": lambda: gen_field("ans", lang)}[ph]
        sec = gen()
        ctx = fill(tpl, lang, **{ph: SLOT})
        a.update(kind=CAT_KIND[cat], secret=sec, ctx=ctx, label=t)
        return a
    if t == "card":
        _, num = card_number()
        sec = fmt_card(num, ch([0, 1]))
        ctx = f"{CARD_WORD[lang]}: {SLOT}" + (f" {expiry()}" if chance(0.5) else "")
        a.update(kind="payment_card_number", secret=sec, ctx=ctx, label="card")
        return a
    if t == "conn":
        pw, u = human_pw(), ch(USERS).replace(".", "_")
        tpl = ch([f"postgresql://{u}:{SLOT}@{host()}:5432/app", f"mysql://{u}:{SLOT}@{host()}:3306/shop",
                  f"mongodb+srv://{u}:{SLOT}@cluster0.{rs(5, LO + DG)}.mongodb.net/prod",
                  f"Server={host()};Database=crm;User Id={u};Password={SLOT};",
                  f"DB_HOST={host()}\nDB_USER={u}\nDB_PASSWORD={SLOT}"])
        a.update(kind="database_password", secret=pw, ctx=tpl, label="db_password", lang="en")
        return a
    if t == "jwt":
        a.update(kind="jwt_bearer_token", secret=jwt(alg=ch(["HS256", "RS256"])), ctx=f"Authorization: Bearer {SLOT}", label="jwt", lang="en")
        return a
    if t == "pem":
        f = ch([pem_rsa, pem_ec, openssh_ed25519, pem_pkcs8])
        a.update(kind="private_key_pem", secret=f(), ctx=SLOT, label="private_key", lang="en")
        return a
    if t == "seed":
        a.update(kind="bip39_seed_phrase", secret=seed_phrase(ch([12, 24])),
                 ctx=ch(["wallet recovery phrase: ", "seed: ", "Wiederherstellungsphrase: ", "フレーズ: ", "助记词："]) + SLOT,
                 label="seed", lang="en")
        return a
    if t == "eth":
        a.update(kind="ethereum_private_key", secret=eth_priv(), ctx=ch(["PRIVATE_KEY=", "hot wallet key: ", "clé privée du wallet : "]) + SLOT,
                 label="private_key", lang="en")
        return a
    raise ValueError(t)


HG = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ", "j": "ј",
      "A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "X": "Х"}
NATO = {c: w for c, w in zip(LO, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november "
                                 "oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split())}
SYMN = {"!": "exclamation mark", "@": "at sign", "#": "hash", "$": "dollar", "%": "percent", "^": "caret",
        "&": "ampersand", "*": "star", "-": "dash", "_": "underscore", "=": "equals", "+": "plus", "?": "question mark",
        ".": "dot", "/": "slash", ":": "colon", "~": "tilde", " ": "space"}


def split_points(s, n):
    L = len(s)
    pts = sorted(R.sample(range(1, L), n - 1)) if L > n else list(range(1, n))
    out, prev = [], 0
    for p in pts + [L]:
        out.append(s[prev:p])
        prev = p
    return [x for x in out if x]


def filler_text(lang, target):
    P = LP[lang]
    cats = ["b_appt", "b_med", "b_pref", "b_family", "b_travel", "b_contact"]
    out = []
    en_notes = MEETING_LINES
    while sum(len(x) + 1 for x in out) < target:
        if chance(0.25):
            out.append(ch(en_notes))
        else:
            out.append(fill(ch(P[ch(cats)]), lang))
    return out


MEETING_LINES = [
    "Standup: Priya finishing the export job, Tom blocked on the design review.",
    "Reminder that the office is closed on the bank holiday.",
    "Sprint goal: ship the onboarding flow and fix the flaky payment tests.",
    "Lunch order: two veggie wraps, one chicken salad, sparkling water.",
    "Need to renew the car insurance before the end of the month.",
    "Groceries: oats, bananas, spinach, feta, dish soap, batteries (AA).",
    "Ideas for the garden: raised bed by the fence, move the rosemary to the sunny corner.",
    "Call with the landlord went fine, the boiler will be serviced next week.",
    "Book recommendations from Sam: The Left Hand of Darkness, Piranesi.",
    "Retro notes: deploys were smoother, still too many late reviews.",
    "Kids' swimming lessons move to Saturday mornings from next term.",
    "Budget: keep eating out under 200 this month.",
    "Podcast to check: the episode about sleep and caffeine timing.",
    "The printer on floor 3 is out of toner again.",
]


def technique_value(tech, a):
    """returns (value, key, namespace)"""
    s, ctx, lang = a["secret"], a["ctx"], a["lang"]
    key = ns = None
    if tech == "base64":
        st = R.randrange(4)
        if st == 0:
            v = put(ctx, b64s(s)) + ch(["", " (base64)", " [b64]", ""])
        elif st == 1:
            v = {"note": put(ctx, "<blob>"), "blob": b64s(s), "encoding": "base64"}
        elif st == 2:
            v = {"payload": b64s(put(ctx, s)), "content_type": "text/plain"}
        else:
            v = put(ctx, base64.urlsafe_b64encode(s.encode()).decode().rstrip("="))
    elif tech == "hex":
        st = R.randrange(4)
        hx = s.encode().hex()
        if st == 0:
            v = put(ctx, hx)
        elif st == 1:
            v = put(ctx, " ".join(f"{b:02x}" for b in s.encode()))
        elif st == 2:
            v = put(ctx, "".join(f"\\x{b:02x}" for b in s.encode()))
        else:
            v = {"hex": put(ctx, s).encode().hex()}
    elif tech == "urlenc":
        full = "".join(f"%{b:02X}" for b in s.encode())
        part = urllib.parse.quote(s, safe="")
        st = R.randrange(3)
        if st == 0 or part == s:
            v = put(ctx, full)
        elif st == 1:
            v = f"https://{ch(DOMAINS)}/callback?state={rs(12, AN)}&{ch(['secret', 'token', 'pw', 'key'])}={full}&lang={lang}"
            v = put(ctx, "(see link)") + "\n" + v
        else:
            v = put(ctx, part)
    elif tech == "split-fields":
        n = ch([2, 2, 3])
        parts = split_points(s, n)
        names = ch([("part1", "part2", "part3"), ("first_half", "second_half", "third"), ("a", "b", "c"),
                    ("head", "middle", "tail"), ("p1", "p2", "p3"), ("begin", "mid", "end")])
        v = {"note": put(ctx, "[split]")}
        for nm, pt in zip(names, parts):
            v[nm] = pt
        if chance(0.3):
            v = {"record": v, "saved": iso_ts()}
    elif tech == "split-list":
        if a["type"] == "pem":
            v = s.split("\n")
        elif a["type"] == "seed":
            v = [put(ctx, "").strip()] + s.split(" ")
        else:
            parts = split_points(s, ch([2, 3, 4]))
            v = ([put(ctx, "⬇")] if chance(0.6) else []) + parts
    elif tech == "split-chat":
        parts = split_points(s, 2)
        v = [{"role": "user", "content": put(ctx, parts[0] + " …") + f" ({FIRST[lang]})"},
             {"role": "assistant", "content": ch(["ok", "got it", "👍", "go on", "noted"])},
             {"role": "user", "content": f"{CONT[lang]} {parts[1]}"}]
    elif tech in ("spaced", "dotted", "dashed"):
        sep = {"spaced": " ", "dotted": ".", "dashed": "-"}[tech]
        v = put(ctx, sep.join(s))
    elif tech == "reversed":
        v = put(ctx, s[::-1]) + ch(["", "", " (backwards)", " ↩"])
    elif tech == "homoglyph":
        out, changed = [], 0
        for c in s:
            if c in HG and chance(0.6):
                out.append(HG[c])
                changed += 1
            else:
                out.append(c)
        if not changed:
            for i, c in enumerate(out):
                if c in HG:
                    out[i] = HG[c]
                    break
        v = put(ctx, "".join(out))
    elif tech == "spelled-digits":
        words = DIGIT_WORDS[lang]
        sep = "" if lang in ("zh", "ja") and chance(0.5) else " "
        v = put(ctx, sep.join(words[int(c)] if c.isdigit() else c for c in s if c != " "))
    elif tech == "buried":
        lines = filler_text(lang, R.randint(1400, 3600))
        pos = R.randint(len(lines) // 3, 2 * len(lines) // 3)
        lines.insert(pos, put(ctx, s))
        v = "\n".join(lines) if chance(0.5) else ". ".join(x.rstrip(".") for x in lines)
        if chance(0.3):
            v = {"transcript": v, "duration_min": R.randint(12, 70)}
    elif tech in ("secret-in-key", "secret-in-namespace"):
        prefix = {"vendor": a["label"].lower() + "=", "password": "password_", "wifi": "wifi_psk_", "pin": "pin_",
                  "door": "door_code_", "otp": "otp_", "eth": "pk_", "alarm": "alarm_", "safe": "safe_"}.get(a["type"], "")
        if chance(0.6):
            # the value keeps the context sentence; the key / namespace element holds the bare or prefixed secret
            hints = ["[in key]", "(see key)", "→ key", "[stored separately]"] if tech == "secret-in-key" else \
                ["[in folder name]", "(see namespace)", "→ folder", "[stored separately]"]
            v = wrap_note(put(ctx, ch(hints)), lang)
            token = prefix + s if chance(0.6) else s
        else:
            # generic value: the key / namespace element itself must say what the secret is
            v = {"updated": iso_ts(), "ttl_days": ch([30, 90, 365])}
            token = prefix + s
        if tech == "secret-in-key":
            key = token
        else:
            ns = ch([["memories", new_user(), token], ["memories", token], ["memories", new_user(), "vault", token]])
    elif tech == "zero-width":
        zs = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
        out = []
        for i, c in enumerate(s):
            out.append(c)
            if i < len(s) - 1 and (chance(0.5) or i == 0):
                out.append(ch(zs))
        v = put(ctx, "".join(out))
    elif tech == "fullwidth":
        v = put(ctx, "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s))
    elif tech == "rot13":
        v = put(ctx, codecs.encode(s, "rot_13")) + ch(["", " (rot13)", " [rot13]"])
    elif tech == "phonetic":
        words = []
        for c in s:
            if c.lower() in NATO:
                words.append(NATO[c.lower()].upper() if c.isupper() else NATO[c.lower()])
            elif c.isdigit():
                words.append(DIGIT_WORDS["en"][int(c)])
            else:
                words.append(SYMN.get(c, c))
        v = put(ctx, ch([" ", " - ", ", "]).join(words))
        if chance(0.4) and any(c.isalpha() for c in s):
            v += " (capitals = upper case)"
    elif tech == "char-codes":
        codes = [ord(c) for c in s]
        v = {"note": put(ctx, "[char codes]"), "codes": codes} if chance(0.5) else put(ctx, " ".join(map(str, codes)))
    elif tech == "unicode-escape":
        v = put(ctx, "".join(f"\\u{ord(c):04x}" for c in s))
    else:
        raise ValueError(tech)
    return v, key, ns


TECH_TYPES = {
    "base64": ["vendor", "vendor", "password", "wifi", "card", "conn", "pem", "seed", "pin", "secq"],
    "hex": ["vendor", "vendor", "password", "wifi", "card", "eth", "pin", "conn"],
    "urlenc": ["vendor", "password", "password", "wifi", "conn", "secq"],
    "split-fields": ["vendor", "vendor", "password", "wifi", "card", "pem", "seed", "jwt", "conn", "eth"],
    "split-list": ["vendor", "vendor", "pem", "seed", "card", "password", "jwt"],
    "split-chat": ["vendor", "password", "wifi", "card", "seed", "eth"],
    "spaced": ["vendor", "password", "wifi", "card", "pin", "door", "otp", "secq"],
    "dotted": ["vendor", "password", "wifi", "pin", "door", "card"],
    "dashed": ["vendor", "password", "wifi", "pin", "card", "door", "safe"],
    "reversed": ["vendor", "vendor", "password", "wifi", "card", "conn", "jwt", "seed", "eth"],
    "homoglyph": ["vendor", "vendor", "password", "password", "wifi", "conn"],
    "spelled-digits": ["pin", "pin", "door", "otp", "card", "safe", "alarm"],
    "buried": ["vendor", "vendor", "password", "wifi", "pin", "door", "card", "conn", "pem", "seed", "otp", "secq", "jwt"],
    "secret-in-key": ["vendor", "vendor", "password", "wifi", "pin", "door", "otp", "eth"],
    "secret-in-namespace": ["vendor", "vendor", "password", "wifi", "pin", "door", "eth"],
    "zero-width": ["vendor", "vendor", "password", "wifi", "card", "eth", "jwt"],
    "fullwidth": ["vendor", "password", "wifi", "pin", "card", "door"],
    "rot13": ["vendor", "vendor", "password", "wifi", "secq"],
    "phonetic": ["password", "password", "wifi", "pin", "vendor"],
    "char-codes": ["password", "wifi", "vendor", "pin", "door"],
    "unicode-escape": ["password", "vendor", "wifi", "card"],
}


def atom_ok(tech, a):
    s = a["secret"]
    if tech in ("phonetic", "char-codes", "spaced", "dotted", "dashed", "fullwidth", "unicode-escape") and len(s) > 70:
        return False
    if tech in ("secret-in-key", "secret-in-namespace") and (len(s) > 110 or " " in s):
        return False
    if tech == "spelled-digits" and not any(c.isdigit() for c in s):
        return False
    if tech == "homoglyph" and not any(c in HG for c in s):
        return False
    if tech == "rot13" and not any(c.isalpha() and c.isascii() for c in s):
        return False
    if tech == "spelled-digits" and sum(c.isdigit() for c in s) < len(s.replace(" ", "")) - 2:
        return False
    return True


def hard_secrets(per_tech):
    for tech in TECH_TYPES:
        for _ in range(per_tech):
            while True:
                a = atom(ch(TECH_TYPES[tech]))
                if atom_ok(tech, a):
                    break
            v, key, ns = technique_value(tech, a)
            add("secret", "hard", tech, a["kind"], v, key=key, ns=ns)


# --------------------------------------------------------------------------
# benign, plain
# --------------------------------------------------------------------------
B_KIND = {"b_appt": "appointment", "b_med": "medication_note", "b_pref": "preference", "b_family": "family_note",
          "b_travel": "travel_plan", "b_pwtalk": "talk_about_credentials", "b_contact": "contact_to_remember",
          "b_lab": "lab_values_note", "b_addr": "postal_address"}

TECH_NOTES = [
    "Rotate the Stripe secret key before the PCI audit; it lives in Vault under kv/payments/stripe.",
    "The GitHub token for the release bot expires on {date}; regenerate it with only the repo scope.",
    "Use `aws sso login --profile prod` instead of long-lived access keys on laptops.",
    ".env is gitignored - copy .env.example and fill in your own keys locally.",
    "Ask {name} for access to the 'Platform' vault in 1Password; don't share creds over Slack.",
    "Postmortem: an API key was pasted into a public channel on {date}; revoked within 20 minutes, no misuse found.",
    "Password policy for the admin panel: min 14 characters, no reuse of the last 5, MFA mandatory.",
    "The RDS master password is rotated automatically by Secrets Manager every 30 days.",
    "Set OPENAI_API_KEY in your shell profile, never hard-code it in the notebook.",
    "Webhook signature verification uses the signing secret from the dashboard (Developers > Webhooks).",
    "Access tokens expire after 15 minutes, refresh tokens after 30 days; clock skew tolerance is 60 s.",
    "SSH: generate an ed25519 key and add the public half to the bastion's authorized_keys.",
    "TODO: move the Twilio credentials out of settings.py into environment variables.",
    "Redis in staging still has no password - fix before go-live.",
    "The deploy key is read-only; if CI needs to push tags we need a separate token.",
    "`git secrets --scan` runs as a pre-commit hook now, so commits with keys get blocked.",
    "Revoked all personal access tokens older than 90 days as part of the quarterly cleanup.",
    "Service accounts authenticate with workload identity, so there are no JSON key files anymore.",
    "Kubernetes secrets are sealed with kubeseal before they are committed.",
    "For local dev the database runs without auth inside docker; prod uses IAM auth.",
    "Jenkins credentials are referenced by ID (e.g. 'nexus-deploy'), never echoed in logs.",
    "Onboarding checklist: enable 2FA on GitHub, register the YubiKey, request the VPN certificate.",
    "If a Sentry token leaks, revoke it under Settings > Auth Tokens and redeploy.",
    "Customer asked if we store card numbers: no, Stripe tokenizes them and we only keep the last 4 digits.",
    "Support macro: never ask customers for their password or one-time codes.",
    "Our JWT signing key is RS256; the public JWKS is served at /.well-known/jwks.json.",
    "Terraform state can contain secrets, so the bucket is encrypted and only the CI role can read it.",
    "The API returns 401 when the key is missing and 403 when the scope is wrong.",
    "Use `op read op://vault/item/field` in scripts instead of copying secrets to files.",
    "Password reset emails expire after one hour; the link is single use.",
    "Moved the Slack bot to Socket Mode, the app-level token is stored in the secrets manager.",
    "Helm chart reads DB credentials from an existing Secret named db-credentials.",
    "API-Schlüssel nie ins Repo committen – die kommen in den Vault.",
    "Das Datenbank-Passwort wird monatlich automatisch rotiert, nicht manuell ändern.",
    "Ne jamais mettre de clé API dans le code, utiliser les variables d'environnement.",
    "Las credenciales de producción están en el gestor de secretos, pedir acceso a {name}.",
    "APIキーはリポジトリにコミットしないこと。環境変数で管理する。",
    "Токены доступа храним в Vault, в чат их не кидаем.",
    "生产环境的密钥放在KMS里，不要写在代码中。",
    "O token do GitHub expira dia {date}, gerar outro só com escopo de leitura.",
    "API 키는 코드에 넣지 말고 환경 변수로 관리할 것.",
    "La chiave SSH pubblica va caricata sul server, quella privata resta sul portatile.",
    "Wachtwoorden delen we alleen via de wachtwoordmanager, nooit via mail.",
    "Hasła do środowiska testowego są w menedżerze haseł zespołu.",
]
MISC_NOTES = [
    "Training for the half marathon: long run on Sundays, 18 km this week.",
    "Book club is reading 'The Overstory' this month, meeting at Jo's place.",
    "Prefers meetings after 10am; keeps Tuesday mornings for deep work.",
    "Sourdough: 500 g flour, 375 g water, 100 g starter, 10 g salt, bulk 5 hours.",
    "Garden: plant tomatoes after the last frost, around mid-May.",
    "Kid's school pickup is 3:15 on Wednesdays, the side gate.",
    "Wants to learn Portuguese before the Lisbon trip - try 15 minutes a day.",
    "Team lunch every other Friday at the Thai place on King St.",
    "Likes jazz piano, especially Bill Evans; hates loud restaurants.",
    "Allergic to cats, fine with dogs.",
    "Has a standing desk at home, uses a split keyboard.",
    "Favourite hike: the ridge loop, about 14 km with 700 m of climbing.",
    "Saving for a new bike, budget around 900.",
    "Wants reminders for the recycling: blue bin every second Thursday.",
    "Watching: season 2 of the detective show, stopped at episode 5.",
    "Mag Wandern im Schwarzwald, bevorzugt Ferienwohnungen statt Hotels.",
    "Aime les romans policiers scandinaves, lit le soir avant de dormir.",
    "Le gusta correr temprano, antes de las 7.",
    "週末はよく図書館で勉強している。",
    "喜欢周末去爬山，夏天去海边。",
    "주말마다 자전거를 타고 한강에 간다.",
    "Любит готовить, по воскресеньям печёт пироги.",
    "Gosta de futebol, torce para o Grêmio.",
    "Suka masak rendang untuk acara keluarga.",
]


def benign_plain():
    for lang in LANGS:
        cats = ["b_appt", "b_med", "b_pref", "b_family", "b_travel"]
        picks = cats + [ch(cats), ch(cats), ch(cats)]
        for cat in picks:
            for _ in range(30):
                t = noisy(ch(LP[lang][cat]), lang)
                if add("benign", "plain", f"personal-{lang}", B_KIND[cat], wrap_note(fill(t, lang), lang)):
                    break
    for t in TECH_NOTES:
        v = fill(t, "en")
        if chance(0.3):
            v = {"title": ch(["ops note", "runbook", "security", "todo", "onboarding"]), "body": v}
        add("benign", "plain", "tech-note", "tech_note_credential_mention", v, allow_dup=True)
    for t in MISC_NOTES:
        add("benign", "plain", "misc", "misc_personal_note", wrap_note(t, "en"), allow_dup=True)
    # a few multi-turn chats
    for _ in range(6):
        lang = ch(LANGS)
        P = LP[lang]
        msgs = [{"role": "user", "content": fill(ch(P["b_appt"]), lang)},
                {"role": "assistant", "content": "Noted."},
                {"role": "user", "content": fill(ch(P["b_pref"] + P["b_family"]), lang)}]
        add("benign", "plain", "chat", "chat_transcript_personal", msgs)


# --------------------------------------------------------------------------
# benign, hard look-alikes
# --------------------------------------------------------------------------
def isbn13():
    b = "978" + rs(9, DG)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(b))
    return b + str((10 - s % 10) % 10)


def imei():
    b = "35" + rs(12, DG)
    return b + luhn_check_digit(b)


def not_luhn(n):
    while True:
        cand = rs(n, DG)
        if not luhn_ok(cand) and cand[0] != "0":
            return cand


def s10(country):
    return rs(2, UP) + rs(9, DG) + country


def track_num(lang):
    return {
        "en": lambda: ch([("UPS", "1Z" + rs(6, UP + DG) + "03" + rs(8, DG)), ("USPS", " ".join(rs(4, DG) for _ in range(5)) + " " + rs(2, DG)),
                          ("Royal Mail", s10("GB"))]),
        "de": lambda: ch([("DHL", "00340434" + rs(12, DG)), ("Hermes", rs(14, DG))]),
        "fr": lambda: ch([("Colissimo", "6A" + rs(11, DG)), ("Chronopost", rs(2, UP) + rs(9, DG) + "FR")]),
        "es": lambda: ("Correos", "PQ" + rs(4, UP + DG) + rs(16, DG) + "J"),
        "it": lambda: ("Poste Italiane", s10("IT")),
        "pt": lambda: ("Correios", s10("BR")),
        "nl": lambda: ("PostNL", "3S" + rs(4, UP) + rs(9, DG)),
        "pl": lambda: ("InPost", rs(24, DG)),
        "sv": lambda: ("PostNord", s10("SE")),
        "tr": lambda: ("Yurtiçi", rs(12, DG)),
        "ru": lambda: ("Почта России", rs(14, DG)),
        "ja": lambda: ("ヤマト運輸", f"{rs(4, DG)}-{rs(4, DG)}-{rs(4, DG)}"),
        "zh": lambda: ("顺丰", "SF" + rs(13, DG)),
        "ko": lambda: ("CJ대한통운", rs(12, DG)),
        "ar": lambda: ("Aramex", rs(11, DG)),
        "hi": lambda: ("India Post", s10("IN")),
        "id": lambda: ("J&T", "JP" + rs(10, DG)),
        "vi": lambda: ("GHN", "GHN" + rs(8, UP + DG)),
    }[lang]()


TRACK_T = {"en": "{carrier} tracking number {num} - parcel for {name}", "de": "Sendungsnummer {carrier}: {num}",
           "fr": "numéro de suivi {carrier} : {num}", "es": "número de seguimiento {carrier}: {num}",
           "it": "codice di tracciamento {carrier}: {num}", "pt": "código de rastreio {carrier}: {num}",
           "nl": "track & trace {carrier}: {num}", "pl": "numer przesyłki {carrier}: {num}",
           "sv": "kollinummer {carrier}: {num}", "tr": "{carrier} kargo takip no: {num}",
           "ru": "трек-номер {carrier}: {num}", "ja": "{carrier}の追跡番号：{num}", "zh": "{carrier}快递单号：{num}",
           "ko": "{carrier} 운송장 번호: {num}", "ar": "رقم تتبع الشحنة {carrier}: {num}", "hi": "{carrier} tracking no. {num}",
           "id": "resi {carrier}: {num}", "vi": "mã vận đơn {carrier}: {num}"}

PRICE_T = {
    "en": ["Rent goes up to £{p4} from {date}", "Quote from the roofer: ${p4}.00 incl. materials, valid 30 days",
           "Flight {flight} departs {time}, gate {gate}, seat {seat}"],
    "de": ["Miete ab {date}: {p4},00 €", "Flug {flight} um {time}, Gate {gate}, Sitz {seat}"],
    "fr": ["Le devis du plombier : {p3},50 €", "Vol {flight} à {time}, porte {gate}, siège {seat}"],
    "es": ["La cuota del gimnasio sube a {p2},90 € al mes", "Vuelo {flight} a las {time}, puerta {gate}"],
    "ja": ["家賃は{p5}円、管理費込み", "{date} {time}発 のぞみ{n3}号 {car}号車 {seat}"],
    "zh": ["房租每月{p4}元，押一付三", "{date} {time} 高铁G{n3}，{car}车{seat}"],
    "ko": ["월세 {p2}만원, 관리비 별도", "{date} {time} KTX {n3}편 {car}호차 {seat}"],
    "ru": ["Аренда {p5} ₽ в месяц", "Рейс {flight} в {time}, выход {gate}"],
    "pt": ["Aluguel R$ {p4},00 a partir de {date}"], "it": ["Affitto {p3} € al mese, spese escluse"],
    "tr": ["Kira {p5} TL, aidat dahil"], "id": ["Sewa kos Rp{p7} per bulan"], "hi": ["किराया ₹{p5} महीना"],
    "vi": ["Tiền nhà {p7} đồng/tháng"], "ar": ["الإيجار {p4} درهم شهرياً"], "pl": ["Czynsz {p4} zł od {date}"],
    "nl": ["Huur {p4} euro per maand"], "sv": ["Hyran blir {p4} kr i månaden"],
}


def mask(tok, keep_pre, keep_post=4, sym="*"):
    return tok[:keep_pre] + sym * max(4, len(tok) - keep_pre - keep_post) + tok[-keep_post:]


def lb_commit():
    sha = rs(40, HX)
    repo = project_name()
    return "commit-sha", "commit_sha", ch([
        f"Deployed {repo} to prod at commit {sha} on {fmt_date('en')}",
        f"bisect says the regression starts at {sha[:7]} (the refactor of the cache layer)",
        f"CI log: HEAD is now at {sha[:7]} Merge pull request #{R.randint(100, 9999)} from {repo}/fix-timeouts",
        {"repo": f"{repo}/{ch(['api', 'web'])}", "head_sha": sha, "status": "success", "run_id": R.randint(10 ** 9, 10 ** 10)},
        f"git cherry-pick {sha} onto release/{R.randint(1, 5)}.{R.randint(0, 20)}",
    ])


def lb_checksum():
    return "checksum", "file_checksum", ch([
        f"SHA256 (ubuntu-24.04.1-desktop-amd64.iso) = {rs(64, HX)}",
        f"md5 of the scanned contract: {rs(32, HX)} - matches what the notary sent",
        f"\"integrity\": \"sha512-{b64b(rbytes(64))}\"",
        f"image pinned to python:3.12-slim@sha256:{rs(64, HX)}",
        f"ETag: \"{rs(32, HX)}\"",
        f"sha1 {rs(40, HX)}  backup-{fmt_date('de')}.tar.zst",
    ])


def lb_uuid():
    return "uuid", "uuid_identifier", ch([
        f"support said to quote request id {uid()} if the refund doesn't show up",
        f"trace_id={rs(32, HX)} span_id={rs(16, HX)} duration=182ms status=OK",
        f"Azure subscription {uid()} / resource group rg-{project_name()}-prod",
        {"order_uuid": uid(), "items": R.randint(1, 6), "status": "shipped"},
        f"correlation-id: {uid()}",
    ])


def lb_tracking():
    lang = ch(LANGS)
    carrier, num = track_num(lang)
    return "tracking-number", "parcel_tracking_number", wrap_note(fill(TRACK_T[lang], lang, carrier=carrier, num=num), lang)


def lb_order():
    return "order-number", "order_number", ch([
        f"Amazon order {rs(3, DG)}-{rs(7, DG)}-{rs(7, DG)}: return label printed, drop at the post office by Friday",
        f"AliExpress order no. {not_luhn(16)} still not shipped after 12 days",
        f"Bestellnummer {rs(10, DG)} – Rücksendung bis {fmt_date('de')}",
        f"numéro de commande {rs(2, UP)}{rs(8, DG)} (Fnac), retrait en magasin",
        f"eBay order {rs(2, DG)}-{rs(5, DG)}-{rs(5, DG)}",
        f"pedido nº {rs(9, DG)} de Mercado Libre llega el {fmt_date('es')}",
        f"Trendyol sipariş no: {rs(10, DG)}",
        f"注文番号 {rs(3, DG)}-{rs(7, DG)}-{rs(7, DG)}（楽天）",
        f"Shopee order {rs(6, DG)}{rs(8, UP + DG)}",
    ])


def lb_booking():
    pnr = rs(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    return "booking-ref", "booking_reference", ch([
        f"Booking reference {pnr}, {ch(['Lufthansa', 'KLM', 'Ryanair', 'Iberia'])} to {ch(LP['en']['cities'])}, e-ticket {rs(3, DG)}-{rs(10, DG)}",
        f"Airbnb reservation {ch(['HM', 'HMA'])}{rs(8, UP + DG)}, check-in after 15:00",
        f"DB Auftragsnummer {rs(12, UP + DG)} – ICE {R.randint(500, 1999)}, Wagen {R.randint(1, 14)}, Platz {R.randint(11, 118)}",
        f"Hotel confirmation #{rs(10, DG)}, breakfast included",
        f"réservation SNCF {pnr}, voiture {R.randint(1, 20)} place {R.randint(1, 120)}",
        f"localizador {pnr} - Renfe AVE {fmt_time('es')}",
        f"予約番号 {rs(6, DG)}（じゃらん）",
        f"Car rental confirmation {rs(2, UP)}{rs(9, DG)}, pick-up at terminal 2",
    ])


def lb_version():
    return "version", "version_string", ch([
        f"upgraded node to v{R.randint(18, 22)}.{R.randint(0, 20)}.{R.randint(0, 9)} and npm to {R.randint(9, 10)}.{R.randint(0, 9)}.{R.randint(0, 9)}",
        f"django=={R.randint(3, 5)}.{R.randint(0, 2)}.{R.randint(0, 20)}\npsycopg[binary]=={R.randint(3, 3)}.{R.randint(1, 2)}.{R.randint(0, 20)}\nredis=={R.randint(4, 5)}.{R.randint(0, 9)}.{R.randint(0, 9)}",
        f"phone firmware {ch(['UP1A', 'TP1A', 'AP2A'])}.{rs(6, DG)}.{rs(3, DG)}, security patch {fmt_date('en')}",
        f"v{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}-rc.{R.randint(1, 5)}+build.{R.randint(1000, 9999)}",
        f"kernel 6.{R.randint(1, 11)}.0-{R.randint(10, 60)}-generic; git describe: v2.{R.randint(0, 9)}.{R.randint(0, 9)}-{R.randint(1, 40)}-g{rs(7, HX)}",
        f"Firmware FRITZ!OS {R.randint(7, 8)}.{R.randint(10, 60)} installiert",
    ])


def lb_pubkey():
    return "public-key", "public_key_material", ch([
        f"my public key for the server: {ssh_ed25519_pub()}",
        f"add this to authorized_keys please:\n{ssh_rsa_pub()}",
        pgp_block("PUBLIC"),
        f"age recipient (public): {age_public()}",
        "[Peer]\nPublicKey = " + b64b(rbytes(32)) + f"\nEndpoint = vpn.{ch(DOMAINS)}:51820\nAllowedIPs = 10.8.0.0/24",
        f"server host key fingerprint SHA256:{b64b(rbytes(32)).rstrip('=')} (ED25519) - verified by phone",
        "GPG fingerprint " + " ".join(rs(4, HXU) for _ in range(10)),
        pem_spki(),
        "TLS cert for the staging ingress:\n" + pem_cert(),
    ])


def lb_crypto_addr():
    return "crypto-address", "public_crypto_address", ch([
        f"send the BTC refund to {btc_addr()}",
        f"my ETH address for the payout: {eth_addr()}",
        f"tx hash 0x{rs(64, HX)} - confirmed on Etherscan after 3 blocks",
        f"donation address (public, on the website): {btc_addr()}",
        f"ENS name {ch(PASS_WORDS)}.eth resolves to {eth_addr()}",
        f"Solana address for the airdrop: {b58(rbytes(32))}",
    ])


def lb_fake_example():
    v = ch([
        "From the AWS docs, the example credentials are AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY - only for tutorial screenshots.",
        "The jwt.io sample token eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c decodes to John Doe - handy for the workshop slide.",
        ".env.example\nOPENAI_API_KEY=sk-your-key-here\nSTRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx\nDATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
        "README shows `export GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX` as a placeholder.",
        "Docs snippet: SLACK_BOT_TOKEN=xoxb-your-bot-token-here",
        "QA test cards for checkout: 4242 4242 4242 4242 (success), 4000 0000 0000 9995 (insufficient funds), any future expiry, any CVC.",
        "Payment sandbox accepts the documented test card 4111 1111 1111 1111, exp 12/34, cvv 123.",
        "Paste your key between the markers:\n-----BEGIN OPENSSH PRIVATE KEY-----\n...\n-----END OPENSSH PRIVATE KEY-----",
        "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.example.com/v1/me",
        "config.sample.yaml:\n  password: <set-me>\n  api_key: <YOUR_API_KEY>",
        "RFC 7617 example: Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ== (Aladdin / open sesame).",
        "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/?retryWrites=true",
        "Stripe docs sample key sk_test_4eC39HqLyjWDarjtT1zdp7dc (the public one in every code sample).",
        f"{ch(['GITLAB_TOKEN', 'NPM_TOKEN', 'HF_TOKEN'])}=<paste-your-token>",
        "api_key = \"YOUR_API_KEY_HERE\"  # replace before running",
        "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX\nAWS_SECRET_ACCESS_KEY=<redacted-example>",
        "Twilio docs use ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX as the placeholder account SID.",
    ])
    if chance(0.5):
        slug, vendor, kind, cat, fn, http = next_vendor()
        var, tok = fn()[-1]
        m = re.match(r"^([A-Za-z]{2,8}[_-](?:[a-z0-9]{2,5}[_-])?)", tok)
        pre = m.group(1) if m else ""
        ph = pre + ch(["X", "x", "0", "*"]) * max(8, len(tok) - len(pre))
        v = ch([f"{var}={ph}  # placeholder, see {vendor} docs",
                f"{var}=<your-{slug.replace('_', '-')}-key>",
                f"# {vendor}\n{var}=\"{pre}...\"  # fill in locally",
                {"example_config": {var.lower(): f"YOUR_{var}"}, "docs": f"https://docs.{ch(DOMAINS)}/{slug}"},
                f"README: set {var} to the value shown once in the {vendor} dashboard (looks like {pre}{'x' * 6}...)"])
    return "fake-example", "documented_fake_or_placeholder", v


def lb_redacted():
    v = next_vendor()
    pairs = v[4]()
    k, tok = pairs[-1]
    m = ch([mask(tok, min(8, len(tok) // 4)), tok[:6] + "…" + tok[-4:], "[REDACTED]", "********", "<hidden>"])
    return "redacted", "redacted_credential", ch([
        f"{log_ts()} INFO calling {v[1]} with {k}={m}",
        f"{k}={m}  # masked in the UI",
        {"service": v[1], "key_hint": m, "rotated_at": iso_ts()},
        f"Card: **** **** **** {rs(4, DG)}, exp {expiry()}",
        f"password=[REDACTED] user={ch(USERS)} login_ok=true",
        f"Authorization: Bearer ****{rs(4, AN)}",
    ])


def lb_envref():
    slug, vendor, kind, cat, fn, http = next_vendor()
    var = fn()[-1][0]
    env = ch(["prod", "staging", "dev"])
    return "env-reference", "secret_reference_not_value", ch([
        f"env:\n  {var}: ${{{{ secrets.{var} }}}}",
        f"{var.lower()} = os.environ[\"{var}\"]",
        f"const {camel(var)} = process.env.{var};",
        f"{var.lower()}: \"{{{{ vault_{var.lower()} }}}}\"",
        f"env:\n  - name: {var}\n    valueFrom:\n      secretKeyRef:\n        name: {slug.replace('_', '-')}-credentials\n        key: {var.lower()}",
        f"op://{ch(['Engineering', 'Platform', 'Private'])}/{vendor}/credential",
        f"arn:aws:secretsmanager:eu-west-1:{rs(12, DG)}:secret:{env}/{slug}-{rs(6, AN)}",
        f"vault kv get -field={var.lower()} secret/{env}/{slug}",
        f"aws ssm get-parameter --name /{env}/{slug}/{var.lower()} --with-decryption",
        f"{var}=${{{var}}}",
        f"{var}=\n# ^ ask {ch(LP['en']['names'])} for the {env} value",
        f"password_file: /run/secrets/{slug}_{env}",
        f"token = keyring.get_password('{slug}', '{ch(USERS)}')",
    ])


def lb_lang_tpl(cat, tag, kind):
    def f():
        lang = ch(LANGS)
        t = noisy(ch(LP[lang][cat]), lang)
        return tag, kind, wrap_note(fill(t, lang), lang)
    return f


def lb_price():
    lang = ch(LANGS)
    return "price-schedule", "prices_dates_times", wrap_note(fill(ch(PRICE_T[lang]), lang), lang)


def lb_card_like():
    return "card-lookalike", "card_number_lookalike", ch([
        f"card ending in {rs(4, DG)} was charged twice for the gym, call them Monday",
        f"IMEI {imei()} for the insurance claim (phone stolen on {fmt_date('en')})",
        f"ISBN {isbn13()} - the book {ch(LP['en']['names'])} recommended",
        f"loyalty points: {R.randint(100, 9000)}, next reward at 10,000",
        f"barcode on the parcel: {rs(13, DG)}",
        f"Bestellung {not_luhn(16)} (keine Kartennummer, steht so auf der Rechnung)",
        f"Visa ****{rs(4, DG)} expires {expiry()} - order a replacement",
        f"order reference {' '.join(not_luhn(16)[i:i + 4] for i in range(0, 16, 4))}",
        f"numéro adhérent mutuelle {rs(9, DG)} (pas le mot de passe, juste l'identifiant client)",
    ])


def lb_publishable():
    return "publishable-key", "public_client_key", ch([
        f"Stripe publishable key for the checkout page: pk_live_51{rs(96, AN)}",
        f"Stripe test publishable key pk_test_51{rs(96, AN)} (client side only)",
        f"mapboxgl.accessToken = 'pk.{b64u(json.dumps({'u': project_name(), 'a': rs(25, LO + DG)}, separators=(',', ':')).encode())}.{rs(22, B64U)}'; // public style token",
        f"posthog.init('phc_{rs(43, AN)}', {{ api_host: 'https://eu.i.posthog.com' }})",
        f"Google Analytics measurement ID G-{rs(10, UP + DG)}",
        f"reCAPTCHA site key (public): 6L{rs(38, B64U)}",
        f"Google OAuth client ID {rs(12, DG)}-{rs(32, LO + DG)}.apps.googleusercontent.com (public, goes in the HTML)",
        f"Sentry browser DSN is public by design: https://{rs(32, HX)}@o{R.randint(100000, 999999)}.ingest.sentry.io/{R.randint(1000000, 9999999)}",
    ])


def lb_cloud_ids():
    return "cloud-id", "cloud_resource_identifier", ch([
        f"AWS account id {rs(12, DG)}, role arn:aws:iam::{rs(12, DG)}:role/ci-deployer",
        f"EC2 instance i-0{rs(16, HX)} in subnet-0{rs(16, HX)}",
        f"GCP project {project_name()}-prod-{R.randint(100000, 999999)}",
        f"Cloudflare zone id {rs(32, HX)} for {ch(DOMAINS)}",
        f"pod {project_name()}-api-{rs(9, LO + DG)}-{rs(5, LO + DG)} restarted 3 times",
        f"container {rs(64, HX)} exited with code 137",
        f"Stripe customer cus_{rs(14, AN)} / payment intent pi_{rs(24, AN)}",
        f"Twilio message SID SM{rs(32, HX)} delivered",
        f"Slack channel C0{rs(9, UP + DG)}, user U0{rs(9, UP + DG)}",
        f"Discord server id {rs(19, DG)}",
        f"S3 bucket {project_name()}-backups-{rs(6, LO + DG)}, KMS key alias/{project_name()}-prod",
        f"Azure tenant (directory) id {uid()}",
    ])


def lb_b64_benign():
    doc = {"theme": ch(["dark", "light"]), "font_size": R.randint(12, 18), "language": ch(LANGS)}
    return "b64-benign", "base64_benign_content", ch([
        f"exported settings (base64): {b64s(json.dumps(doc))}",
        "tiny transparent pixel: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "Content-Transfer-Encoding: base64\n\n" + b64s(ch(["Hi Mum, see you on Sunday for lunch! Love, J",
                                                       "Meeting moved to 3pm, room Fjord.", "Bitte Milch und Brot mitbringen."])),
        {"configmap": {"motd.txt": b64s("Welcome to the build server. Be nice.")}},
        f"favicon hash (base64 of md5): {b64b(rbytes(16))}",
    ])


def lb_hex_benign():
    return "hex-benign", "hex_benign_value", ch([
        f"printer MAC {':'.join(rs(2, HXU) for _ in range(6))} - reserve 192.168.1.{R.randint(20, 200)} for it",
        f"brand colours: #{rs(6, HX)}, #{rs(6, HX)}, #{rs(6, HX)}",
        f"segfault at 0x7ff{rs(9, HX)} in libfoo.so+0x{rs(5, HX)}",
        f"Wi-Fi BSSID {':'.join(rs(2, HX) for _ in range(6))} (the 5 GHz one)",
        "PNG header bytes: 89 50 4e 47 0d 0a 1a 0a",
        f"device EUI {'-'.join(rs(2, HXU) for _ in range(8))}",
    ])


def lb_serial():
    return "serial-number", "device_serial_or_model", ch([
        f"fridge model RF23{rs(4, UP + DG)}, serial 0B7X4{rs(9, UP + DG)} - warranty until 2027",
        f"VIN {rs(17, 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789')} (needed for the insurance form)",
        f"laptop service tag {rs(7, UP + DG)}",
        f"boiler serial {rs(4, DG)}-{rs(6, DG)}-{rs(2, UP)}",
        f"hearing aid serial no. {rs(10, DG)}, left ear",
    ])


def lb_meeting():
    return "meeting-id", "meeting_or_room_number", ch([
        f"Zoom meeting ID {rs(3, DG)} {rs(4, DG)} {rs(4, DG)} - passcode is in the calendar invite",
        f"Teams conference ID {rs(3, DG)} {rs(3, DG)} {rs(3, DG)}#",
        f"dial-in +44 20 {rs(4, DG)} {rs(4, DG)}, room {R.randint(1, 6)}.{R.randint(1, 30)}",
        f"gym locker {R.randint(100, 999)} (I bring my own padlock)",
        f"Raum {R.randint(1, 4)}.{R.randint(10, 60)}, Gebäude B",
    ])


def lb_logs():
    return "benign-log", "benign_log_lines", "\n".join([
        f"{log_ts()} INFO GET /api/v1/orders/{R.randint(1000, 99999)} 200 {R.randint(5, 900)}ms req_id={uid()}",
        f"{log_ts()} INFO user_id={R.randint(100, 99999)} login ok mfa=totp ip=10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}",
        f"{log_ts()} WARN password reset requested for user_id={R.randint(100, 99999)} (email sent)",
        f"{log_ts()} INFO cache hit ratio 0.{R.randint(70, 99)} keys={R.randint(1000, 90000)}",
    ])


def lb_ipfs():
    return "content-id", "content_identifier", ch([
        f"IPFS CID Qm{b58(rbytes(32))[:44]} (the photo album)",
        f"pinned bafybei{rs(52, 'abcdefghijklmnopqrstuvwxyz234567')}",
        f"magnet:?xt=urn:btih:{rs(40, HX)}&dn=ubuntu-24.04-desktop-amd64.iso",
    ])


def lb_numbers():
    return "number-lookalike", "numbers_not_secrets", ch([
        f"promo code SUMMER{R.randint(10, 40)} gives {R.randint(10, 40)}% off until Sunday (public, on their Instagram)",
        f"referral link code {rs(6, UP)} - share it with friends",
        f"bus {R.randint(1, 300)} to the station, then line U{R.randint(1, 9)}",
        f"bake at {ch([180, 200, 220])}°C for {R.randint(20, 45)} minutes",
        f"shoe size {R.randint(36, 46)}, ring size {R.randint(48, 62)}",
        f"apartment {R.randint(1, 30)}{ch('ABCD')}, floor {R.randint(1, 12)}, buzzer says 'Nowak'",
        f"lucky numbers for the lottery: {', '.join(str(x) for x in sorted(R.sample(range(1, 50), 6)))}",
        f"score last night: {R.randint(0, 5)}-{R.randint(0, 5)}, next match {fmt_date('en')}",
    ])


def lb_id_in_key():
    tag = "id-in-key"
    v = {"note": ch(["trip details saved", "status: confirmed", "notes about the order", "pinned by user"]), "saved": iso_ts()}
    if chance(0.5):
        key = ch([f"trip_{rs(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}", f"order_{rs(3, DG)}-{rs(7, DG)}-{rs(7, DG)}",
                  f"commit_{rs(40, HX)}", f"ticket_SUP-{R.randint(1000, 99999)}"])
        return tag, "identifier_in_key", v, key, None
    ns = ["memories", new_user(), ch([f"project-{uid()}", f"thread-{rs(24, HX)}", f"repo-{project_name()}-{rs(7, HX)}"])]
    return tag, "identifier_in_namespace", v, None, ns


HARD_BENIGN = [
    (lb_commit, 12), (lb_checksum, 12), (lb_uuid, 10), (lb_tracking, 16), (lb_order, 10), (lb_booking, 12),
    (lb_version, 10), (lb_pubkey, 14), (lb_crypto_addr, 10), (lb_fake_example, 18), (lb_redacted, 12),
    (lb_envref, 14), (lb_lang_tpl("b_pwtalk", "pw-talk", "talk_about_credentials"), 38),
    (lb_lang_tpl("b_contact", "contact", "contact_to_remember"), 18),
    (lb_lang_tpl("b_lab", "lab-values", "lab_values_note"), 20),
    (lb_lang_tpl("b_addr", "postal-address", "postal_address"), 18),
    (lb_lang_tpl("b_med", "medication-dose", "medication_dose_note"), 8),
    (lb_price, 14), (lb_card_like, 12), (lb_publishable, 10), (lb_cloud_ids, 14), (lb_b64_benign, 8),
    (lb_hex_benign, 8), (lb_serial, 6), (lb_meeting, 6), (lb_logs, 6), (lb_ipfs, 4), (lb_numbers, 8),
    (lb_id_in_key, 6),
]


def hard_benign():
    for fn, n in HARD_BENIGN:
        for _ in range(n):
            for attempt in range(40):
                r = fn()
                if len(r) == 3:
                    tag, kind, v = r
                    ok = add("benign", "hard", tag, kind, v)
                else:
                    tag, kind, v, key, ns = r
                    ok = add("benign", "hard", tag, kind, v, key=key, ns=ns, allow_dup=True)
                if ok:
                    break
            else:
                raise RuntimeError("could not produce a distinct value for " + fn.__name__)


# --------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------
def main():
    for v in V:
        vendor_plain(v)
    keys_plain()
    jwt_cookie_conn_basic_plain()
    prose_plain()
    cards_plain()
    structured_plain()
    hard_secrets(16)
    benign_plain()
    hard_benign()
    order = list(range(len(RECS)))
    R.shuffle(order)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "heldout9.jsonl")
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        for i in order:
            fh.write(json.dumps(RECS[i], ensure_ascii=False) + "\n")
    print(f"wrote {len(RECS)} records to {out} (duplicate values: {len(DUPS)})")


if __name__ == "__main__":
    main()
