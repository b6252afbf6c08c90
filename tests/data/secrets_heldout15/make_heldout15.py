#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Deterministic generator for the held-out evaluation corpus "heldout15".

Run:  python3 make_heldout15.py
Writes heldout15.jsonl and README.md next to this file.
Standard library only.  Every random choice (including the final shuffle)
comes from ONE random.Random(15152027) instance, so two runs are
byte-identical.
"""
import base64
import binascii
import codecs
import collections
import gzip
import hashlib
import json
import os
import quopri
import random
import string
import struct
import sys
import zlib

SEED = 15152027
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))

LOW = string.ascii_lowercase
UPP = string.ascii_uppercase
DIG = string.digits
ALNUM = LOW + UPP + DIG
LOWNUM = LOW + DIG
UPNUM = UPP + DIG
HEXL = "0123456789abcdef"
B64C = ALNUM + "+/"
B64U = ALNUM + "-_"
B58C = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32C = UPP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
SYM = "!@#$%^&*-_+=?."


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def al(n): return rs(ALNUM, n)
def lo(n): return rs(LOWNUM, n)
def up(n): return rs(UPNUM, n)
def hx(n): return rs(HEXL, n)
def HX(n): return rs(HEXL, n).upper()
def dg(n): return rs(DIG, n)
def dg1(n): return R.choice("123456789") + rs(DIG, n - 1)
def b64s(n): return rs(B64C, n)
def b64u(n): return rs(B64U, n)
def b58(n): return rs(B58C, n)
def letters(n): return rs(LOW + UPP, n)
def pick(seq): return R.choice(seq)
def chance(p): return R.random() < p
def ri(a, b): return R.randint(a, b)


def sample(seq, k):
    return R.sample(list(seq), k)


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64bytes(n):
    return base64.b64encode(rbytes(n)).decode()


def b64ubytes(n):
    return base64.urlsafe_b64encode(rbytes(n)).decode().rstrip("=")


def b64url_json(obj):
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).decode().rstrip("=")


def uuid4():
    h = hx(32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b58encode(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n > 0:
        n, r = divmod(n, 58)
        out = B58C[r] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58encode(payload + chk)


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def rdate(y0=2019, y1=2026):
    return f"{ri(y0, y1)}-{ri(1, 12):02d}-{ri(1, 28):02d}"


def rtime():
    return f"{ri(0, 23):02d}:{ri(0, 59):02d}:{ri(0, 59):02d}"


def rts():
    return f"{rdate(2023, 2026)}T{rtime()}.{dg(3)}Z"


def mem_key():
    return "mem_" + hx(ri(8, 32))


def user_ns():
    return ["memories", "u" + dg1(ri(3, 9))]


# ---------------------------------------------------------------- Luhn / cards
def luhn_digit(partial):
    s = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


PUBLISHED_TEST_CARDS = {
    "4242424242424242", "4111111111111111", "5555555555554444", "378282246310005",
    "371449635398431", "6011111111111117", "6011000990139424", "4000056655665556",
    "5105105105105100", "4012888888881881", "30569309025904", "38520000023237",
    "3530111333300000", "3566002020360505", "2223003122003222", "5200828282828210",
    "4000000000000002", "4000002500003155", "6200000000000005", "4000000000009995",
    "4000000000000077", "4000000000003220", "36227206271667", "6555900000604105",
    "4988438843884305", "5454545454545454", "4917610000000000", "4035501000000008",
}

BRANDS = [
    ("Visa", ["4"], 16), ("Visa", ["4"], 16), ("Mastercard", ["51", "52", "53", "54", "55"], 16),
    ("Mastercard", [str(x) for x in range(2221, 2721, 37)], 16), ("Amex", ["34", "37"], 15),
    ("Discover", ["6011", "65"], 16), ("JCB", [str(x) for x in range(3528, 3590, 7)], 16),
    ("Diners Club", ["36", "38"], 14), ("UnionPay", ["62"], 16), ("Maestro", ["6759", "5018"], 16),
    ("Mir", ["2200", "2201", "2202", "2204"], 16),
]


def card_number(brand=None):
    while True:
        b = brand or pick(BRANDS)
        name, prefixes, length = b
        p = pick(prefixes)
        partial = p + dg(length - len(p) - 1)
        num = partial + luhn_digit(partial)
        if num not in PUBLISHED_TEST_CARDS and len(set(num)) > 3:
            return name, num


def card_fmt(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    if len(num) == 14:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


def card_exp():
    return f"{ri(1, 12):02d}/{ri(26, 31)}"


def cvv(brand):
    return dg(4) if brand == "Amex" else dg(3)


# ---------------------------------------------------------------- word lists
BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve
acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice
aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all alley
allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle
angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple approve april
arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask
aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author
auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance
balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become
beef before begin behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike bind
biology bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board
boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave
bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget
buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable
cactus cage cake call calm camera camp canal cancel candy cannon canoe canvas canyon capable capital captain car carbon
card cargo carpet carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution cave
ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge chase chat cheap
check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle
citizen city civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close
cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come
comfort comic common company concert conduct confirm congress connect consider control convince cook cool copper copy
coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash
crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise
crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle dad
damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline decorate
decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart depend deposit depth
deputy derive describe desert design desk despair destroy detail detect develop device devote diagram dial diamond diary
dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree discover disease dish dismiss
disorder display distance divert divide divorce dizzy doctor document dog doll dolphin domain donate donkey donor door
dose double dove draft dragon drama drastic draw dream dress drift drill drink drip drive drop drum dry duck dumb dune
during dust dutch duty dwarf dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate
effort egg eight either elbow elder electric elegant element elephant elevator elite else embark embody embrace emerge
emotion employ empower empty enable enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist
enough enrich enroll ensure enter entire entry envelope episode equal equip era erase erode erosion error erupt escape
essay essence estate eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse
execute exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend extra eye
eyebrow fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal
father fatigue fault favorite feature february federal fee feed feel female fence festival fetch fever few fiber fiction
field figure file film filter final find fine finger finish fire firm first fiscal fish fit fitness fix flag flame flash
flat flavor flee flight flip float flock floor flower fluid flush fly foam focus fog foil fold follow food foot force
forest forget fork fortune forum forward fossil foster found fox fragile frame frequent fresh friend fringe frog front
frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy gallery game gap garage garbage garden
garlic garment gas gasp gate gather gauge gaze general genius genre gentle genuine gesture ghost giant gift giggle ginger
giraffe girl give glad glance glare glass glide glimpse globe gloom glory glove glow glue goat goddess gold good goose
gorilla gospel gossip govern gown grab grace grain grant grape grass gravity great green grid grief grit grocery group
grow grunt guard guess guide guilt guitar gun gym habit hair half hammer hamster hand happy harbor hard harsh harvest hat
have hawk hazard head health heart heavy hedgehog height hello helmet help hen hero hidden high hill hint hip hire
history hobby hockey hold hole holiday hollow home honey hood hope horn horror horse hospital host hotel hour hover hub
huge human humble humor hundred hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill
illegal illness image imitate immense immune impact impose improve impulse inch include income increase index indicate
indoor industry infant inflict inform inhale inherit initial inject injury inmate inner innocent input inquiry insane
insect inside inspire install intact interest into invest invite involve iron island isolate issue item ivory jacket
jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen
keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor
ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader leaf learn
leave lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level liar liberty library
license life lift light like limb limit link lion liquid list little live lizard load loan lobster local lock logic
lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch luxury lyrics machine mad magic magnet
maid mail main major make mammal man manage mandate mango mansion manual maple marble march margin marine market marriage
mask mass master match material math matrix matter maximum maze meadow mean measure meat mechanic medal media melody melt
member memory mention menu mercy merge merit merry mesh message metal method middle midnight milk million mimic mind
minimum minor minute miracle mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey
monster month moon moral more morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply
muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty nation nature near neck need
negative neglect neither nephew nerve nest net network neutral never news next nice night noble noise nominee noodle
normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey object oblige obscure observe
obtain obvious occur ocean october odor off offer office often oil okay old olive olympic omit once one onion online only
open opera opinion oppose option orange orbit orchard order ordinary organ orient original orphan ostrich other outdoor
outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace palm panda panel panic
panther paper parade parent park parrot party pass patch path patient patrol pattern pause pave payment peace peanut pear
peasant pelican pen penalty pencil people pepper perfect permit person pet phone photo phrase physical piano picnic
picture piece pig pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please pledge
pluck plug plunge poem poet point polar pole police pond pony pool popular portion position possible post potato pottery
poverty powder power practice praise predict prefer prepare present pretty prevent price pride primary print priority
prison private prize problem process produce profit program project promote proof property prosper protect proud
provide public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid
quality quantum quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally ramp
ranch random range rapid rare rate rather raven raw razor ready real reason rebel rebuild recall receive recipe record
recycle reduce reflect reform refuse region regret regular reject relax release relief rely remain remember remind remove
render renew rent reopen repair repeat replace report require rescue resemble resist resource response result retire
retreat return reunion reveal review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple
risk ritual rival river road roast robot robust rocket romance roof rookie room rose rotate rough round route royal
rubber rude rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt salute same sample sand
satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme school science scissors scorpion scout scrap
screen script scrub sea search season seat second secret section security seed seek segment select sell seminar senior
sense sentence series service session settle setup seven shadow shaft shallow share shed shell sheriff shield shift
shine ship shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side siege sight sign
silent silk silly silver similar simple since sing siren sister situate six size skate sketch ski skill skin skirt skull
slab slam sleep slender slice slide slight slim slogan slot slow slush small smart smile smoke smooth snack snake snap
sniff snow soap soccer social sock soda soft solar soldier solid solution solve someone song soon sorry sort soul sound
soup source south space spare spatial spawn speak special speed spell spend sphere spice spider spike spin spirit split
spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel stable stadium staff stage stairs stamp
stand start state stay steak steel stem step stereo stick still sting stock stomach stone stool story stove strategy
street strike strong struggle student stuff stumble style subject submit subway success such sudden suffer sugar suggest
suit summer sun sunny sunset super supply supreme sure surface surge surprise surround survey suspect sustain swallow
swamp swap swarm swear sweet swift swim swing switch sword symbol symptom syrup system table tackle tag tail talent talk
tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent term test text thank that theme then
theory there they thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip tired
tissue title toast tobacco today toddler toe together toilet token tomato tomorrow tone tongue tonight tool tooth top
topic topple torch tornado tortoise toss total tourist toward tower town toy track trade traffic tragic train transfer
trap trash travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet trust
truth try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist two type typical ugly
umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock until
unusual unveil update upgrade uphold upon upper upset urban urge usage use used useful useless usual utility vacant
vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet venue verb verify version very vessel
veteran viable vibrant vicious victory video view village vintage violin virtual virus visa visit visual vital vivid
vocal voice void volcano volume vote voyage wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste
water wave way wealth weapon wear weasel weather web wedding weekend weird welcome west wet whale what wheat wheel when
where whip whisper wide width wife wild will win window wine wing wink winner winter wire wisdom wise wish witness wolf
woman wonder wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth
zebra zero zone zoo""".split()


def seed_phrase(n=None):
    n = n or pick([12, 12, 12, 24, 24, 18, 15])
    return sample(BIP39, n)


FIRST = ["Anna", "Ben", "Chloé", "Dmitri", "Elif", "Farah", "Giulia", "Hiro", "Ines", "Jonas", "Kavya", "Lena",
         "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomasz", "Uma", "Valentina", "Wei",
         "Ximena", "Yusuf", "Zara", "Aiko", "Bjørn", "Carmen", "Daniel", "Emma", "Felix", "Grace", "Hannah",
         "Ivan", "Julia", "Kofi", "Liam", "Maya", "Noah", "Olga", "Pablo", "Rahul", "Sofia", "Thabo", "Ulla",
         "Viktor", "Wanjiru", "Yara", "Zoltan", "Minh", "Ayşe", "Mehmet", "Sanna", "Pedro", "Lucía", "Jana"]
SURN = ["Müller", "Dubois", "García", "Rossi", "Kowalski", "Novák", "Jansen", "Lindqvist", "Nguyen", "Tanaka",
        "Kim", "Okafor", "Silva", "Petrov", "Yılmaz", "Cohen", "Haddad", "Sharma", "Papadopoulos", "Horvat",
        "Virtanen", "Nielsen", "Smith", "O'Brien", "Schmidt", "Moreau", "Fernández", "Bianchi", "Ivanova", "Sato"]
CITIES = ["Lisbon", "Leipzig", "Lyon", "Valencia", "Bologna", "Porto", "Utrecht", "Gothenburg", "Bergen", "Aarhus",
          "Tampere", "Kraków", "Brno", "Szeged", "Cluj", "Izmir", "Kazan", "Lviv", "Thessaloniki", "Amman", "Haifa",
          "Pune", "Osaka", "Chengdu", "Busan", "Da Nang", "Bandung", "Chiang Mai", "Mombasa", "Cebu", "Split",
          "Girona", "Austin", "Leeds", "Cork", "Montreal", "Perth", "Wellington", "Nairobi", "Recife"]
PETS = ["Biscuit", "Luna", "Mochi", "Rex", "Pepper", "Simba", "Nala", "Toffee", "Bruno", "Kiki", "Oreo", "Felix",
        "Coco", "Milo", "Bella", "Zeus", "Pixel", "Nugget", "Schnuffel", "Pumpkin"]
COMPANIES = ["acme", "northwind", "bluefin", "orbitly", "kestrel", "tallow", "quillon", "parcelo", "verdant",
             "lumen", "hexacore", "tinyfox", "brightpath", "corvid", "mapleleaf", "saltmarsh", "ironbark"]
TLDS = ["io", "com", "dev", "app", "net", "co", "eu", "cloud"]


def domain():
    return pick(COMPANIES) + pick(["", "-labs", "hq", "-app", "-internal", "data"]) + "." + pick(TLDS)


def hostname():
    return pick(["db", "pg", "api", "prod-db", "replica", "cache", "mq", "mysql", "mongo", "redis", "analytics"]) + \
        pick(["", "-01", "-02", "-eu", "-us-east", "-primary"]) + "." + domain()


def person():
    return pick(FIRST) + " " + pick(SURN)


def username():
    f = pick(FIRST).lower().replace("é", "e").replace("ø", "o").replace("ş", "s").replace("í", "i")
    return pick([f, f + dg(2), f + "." + pick(SURN).lower().replace("'", "").replace("ü", "u").replace("á", "a").replace("ı", "i").replace("é", "e"),
                 f[0] + pick(SURN).lower().replace("'", "").replace("ü", "u").replace("ı", "i").replace("á", "a").replace("é", "e"),
                 pick(["admin", "svc", "deploy", "app", "etl", "readonly"]) + pick(["", "_user", "-bot", dg(1)])])


def email_addr():
    return username().replace(" ", "") + "@" + pick(["gmail.com", "outlook.com", "proton.me", "yahoo.com", "gmx.de",
                                                    "icloud.com", "web.de", "fastmail.com", domain()])


PW_WORDS = ["Sunflower", "tiger", "Banana", "Kaffee", "soleil", "Mariposa", "dragon", "Maple", "Summer", "winter",
            "Bluebird", "pizza", "Rocket", "Falcon", "Gatito", "Hamster", "orange", "Kiwi", "Nebula", "Pancake",
            "koala", "Marathon", "Garden", "Lighthouse", "mango", "Schokolade", "Pingu", "Cobalt", "Tulipan", "Sakura",
            "Anchor", "Lobster", "velvet", "Zebra", "Cactus", "Waffle", "Noodle", "Thunder", "Biscuit", "Paprika"]


def password(style=None):
    style = style or pick(["word", "word", "random", "random", "phrase", "leet", "mixed", "long"])
    if style == "word":
        w = pick(PW_WORDS)
        return pick([w + dg(ri(2, 4)) + pick(SYM), pick(SYM) + w + dg(ri(2, 4)), w.capitalize() + pick(["", "_", "."]) + pick(PETS) + dg(ri(1, 3)),
                     w + str(ri(1960, 2015)) + pick(SYM)])
    if style == "random":
        n = ri(10, 20)
        return rs(ALNUM + "!@#$%&*?", n)
    if style == "phrase":
        ws = sample(BIP39, ri(3, 5))
        sep = pick(["-", ".", "_", " ", ""])
        ws = [w.capitalize() if chance(0.5) else w for w in ws]
        return sep.join(ws) + pick(["", dg(1), dg(2), "!"])
    if style == "leet":
        w = pick(PW_WORDS) + pick(PW_WORDS).lower()
        w = w.replace("a", "4").replace("e", "3").replace("o", "0").replace("i", "1")
        return w + pick(SYM) + dg(ri(1, 3))
    if style == "long":
        return rs(ALNUM, ri(20, 32))
    return letters(ri(3, 5)) + dg(ri(2, 4)) + pick(SYM) + letters(ri(3, 5)) + dg(1)


def pin(n=None):
    n = n or pick([4, 4, 4, 4, 5, 6, 6])
    while True:
        p = dg(n)
        if len(set(p)) > 1 and p not in ("1234", "123456", "0000"):
            return p


NUMW = {"en": "zero one two three four five six seven eight nine".split(),
        "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
        "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
        "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
        "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
        "nl": "nul een twee drie vier vijf zes zeven acht negen".split(),
        "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
        "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
        "sv": "noll ett två tre fyra fem sex sju åtta nio".split(),
        "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz".split(),
        "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
        "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
        "fi": "nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän".split(),
        "id": "nol satu dua tiga empat lima enam tujuh delapan sembilan".split(),
        "sw": "sifuri moja mbili tatu nne tano sita saba nane tisa".split()}


def spell_digits(s, lang="en", sep=" "):
    w = NUMW[lang]
    return sep.join(w[int(c)] if c.isdigit() else c for c in s)


NATO = dict(zip(LOW, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa "
                      "quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split()))
MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..",
         "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-", "r": ".-.",
         "s": "...", "t": "-", "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..",
         "0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....",
         "7": "--...", "8": "---..", "9": "----.", "_": "..--.-", "-": "-....-", ".": ".-.-.-", "!": "-.-.--",
         "@": ".--.-.", "/": "-..-.", "+": ".-.-.", "=": "-...-", "?": "..--..", "&": ".-...", "$": "...-..-"}


def months():
    return ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December"]

# ================================================================ key material
def der_len(n):
    if n < 128:
        return bytes([n])
    if n < 256:
        return bytes([0x81, n])
    return bytes([0x82, n >> 8, n & 255])


def pem(label, der):
    return f"-----BEGIN {label}-----\n" + wrap(base64.b64encode(der).decode(), 64) + f"\n-----END {label}-----"


def rsa_der(bits=1024):
    # PKCS#1 skeleton with random payload of plausible size
    mod = 129 if bits == 1024 else 257
    body = b"\x02\x01\x00" + b"\x02" + der_len(mod) + b"\x00" + rbytes(mod - 1) + b"\x02\x03\x01\x00\x01"
    for ln in ([128, 64, 64, 64, 64, 64] if bits == 1024 else [256]):
        body += b"\x02" + der_len(ln + 1) + b"\x00" + rbytes(ln)
    return b"\x30" + der_len(len(body)) + body


def pem_rsa():
    return pem("RSA PRIVATE KEY", rsa_der())


def pem_ec():
    body = bytes.fromhex("020101") + b"\x04\x20" + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64)
    return pem("EC PRIVATE KEY", b"\x30" + der_len(len(body)) + body)


def pem_pkcs8():
    if chance(0.5):
        der = bytes.fromhex("302e020100300506032b657004220420") + rbytes(32)
    else:
        inner = rsa_der()
        body = bytes.fromhex("020100300d06092a864886f70d0101010500") + b"\x04" + der_len(len(inner)) + inner
        der = b"\x30" + der_len(len(body)) + body
    return pem("PRIVATE KEY", der)


def pem_pkcs8_enc():
    body = bytes.fromhex("3081e6305106092a864886f70d01050d3044302306092a864886f70d01050c3016") + rbytes(180)
    return pem("ENCRYPTED PRIVATE KEY", body)


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def openssh_key(comment=None):
    comment = comment or (username() + "@" + pick(["laptop", "macbook", "build-01", "workstation", "pi"]))
    pub = rbytes(32)
    pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
    chk = rbytes(4)
    priv = chk + chk + sshstr(b"ssh-ed25519") + sshstr(pub) + sshstr(rbytes(32) + pub) + sshstr(comment.encode())
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = b"openssh-key-v1\0" + sshstr(b"none") + sshstr(b"none") + sshstr(b"") + struct.pack(">I", 1) + sshstr(pubblob) + sshstr(priv)
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(base64.b64encode(blob).decode(), 70) + "\n-----END OPENSSH PRIVATE KEY-----"


def pgp_private():
    body = base64.b64encode(b"\x95\x03\xc6\x04" + rbytes(ri(420, 620))).decode()
    return "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + wrap(body, 64) + "\n=" + b64s(4) + "\n-----END PGP PRIVATE KEY BLOCK-----"


def putty_ppk():
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: " + username() + "@putty\nPublic-Lines: 2\n" +
            wrap("AAAAC3NzaC1lZDI1NTE5AAAAI" + b64s(43), 64) + "\nPrivate-Lines: 1\n" + "AAAAI" + b64s(39) + "=\nPrivate-MAC: " + hx(64))


def age_key():
    return "AGE-SECRET-KEY-1" + rs(BECH, 58).upper()


def wg_key():
    b = bytearray(rbytes(32))
    b[0] &= 248
    b[31] = (b[31] & 127) | 64
    return base64.b64encode(bytes(b)).decode()


def btc_wif():
    return b58check(b"\x80" + rbytes(32) + b"\x01")


def xprv():
    return b58check(bytes.fromhex("0488ade4") + b"\x00" + b"\x00" * 8 + rbytes(32) + b"\x00" + rbytes(32))


def jwt(claims=None, alg="HS256", sig_len=43):
    hdr = {"alg": alg, "typ": "JWT"}
    now = ri(1700000000, 1780000000)
    c = claims or {"sub": pick([uuid4(), "user_" + dg(6), str(ri(1000, 99999))]),
                   "name": person(), "email": email_addr(), "iat": now, "exp": now + pick([3600, 86400, 604800, 31536000]),
                   "iss": "https://" + pick(["auth.", "login.", "id.", "sso."]) + domain(),
                   "scope": pick(["read write", "admin", "openid profile email", "orders:write payments:read"])}
    if chance(0.4):
        c["role"] = pick(["admin", "authenticated", "service", "owner"])
    return b64url_json(hdr) + "." + b64url_json(c) + "." + b64u(sig_len if alg.startswith("HS") else 342)


def supabase_service_jwt():
    now = ri(1690000000, 1760000000)
    return jwt({"iss": "supabase", "ref": rs(LOW, 20), "role": "service_role", "iat": now, "exp": now + 315360000})


def slug(s):
    return "".join(c for c in s.lower() if c.isalnum())


# ================================================================ vendor formats
# each entry: kind, human label, api domain, category, list of (VAR, generator)
FORMATS = []


def V(kind, label, dom, cat, *pairs):
    FORMATS.append(dict(kind=kind, label=label, domain=dom, cat=cat, pairs=pairs))


def conn(kind, label, cat, var, fn):
    V(kind, label, None, cat, (var, fn))


# ---- cloud
V("aws-access-key", "AWS", "sts.amazonaws.com", "cloud", ("AWS_ACCESS_KEY_ID", lambda: "AKIA" + rs(UPP + "234567", 16)), ("AWS_SECRET_ACCESS_KEY", lambda: b64s(40)))
V("aws-session-credentials", "AWS STS", "sts.amazonaws.com", "cloud", ("AWS_ACCESS_KEY_ID", lambda: "ASIA" + rs(UPP + "234567", 16)), ("AWS_SECRET_ACCESS_KEY", lambda: b64s(40)), ("AWS_SESSION_TOKEN", lambda: "IQoJb3JpZ2luX2VjE" + b64s(ri(180, 260))))
V("aws-secret-access-key", "AWS", "s3.amazonaws.com", "cloud", ("aws_secret_access_key", lambda: b64s(40)))
V("gcp-api-key", "Google Cloud", "maps.googleapis.com", "cloud", ("GOOGLE_API_KEY", lambda: "AIza" + b64u(35)))
V("gcp-oauth-client-secret", "Google OAuth", "oauth2.googleapis.com", "cloud", ("GOOGLE_CLIENT_ID", lambda: dg1(12) + "-" + lo(32) + ".apps.googleusercontent.com"), ("GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + b64u(28)))
V("google-refresh-token", "Google OAuth", "oauth2.googleapis.com", "cloud", ("GOOGLE_REFRESH_TOKEN", lambda: "1//0" + b64u(ri(95, 105))))
V("google-access-token", "Google OAuth", "www.googleapis.com", "cloud", ("GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + b64u(ri(150, 200))))
V("azure-storage-connection-string", "Azure Storage", None, "cloud", ("AZURE_STORAGE_CONNECTION_STRING", lambda: f"DefaultEndpointsProtocol=https;AccountName={pick(COMPANIES)}{lo(6)};AccountKey={b64bytes(64)};EndpointSuffix=core.windows.net"))
V("azure-sas-token", "Azure Blob SAS", None, "cloud", ("AZURE_SAS_URL", lambda: f"https://{pick(COMPANIES)}store.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlacupx&se=2026-{ri(1,12):02d}-{ri(1,28):02d}T18:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig=" + b64bytes(32).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')))
V("azure-ad-client-secret", "Azure AD app", "login.microsoftonline.com", "cloud", ("AZURE_TENANT_ID", uuid4), ("AZURE_CLIENT_ID", uuid4), ("AZURE_CLIENT_SECRET", lambda: rs(ALNUM, 3) + "8Q~" + rs(ALNUM + "~._-", 34)))
V("azure-devops-pat", "Azure DevOps", "dev.azure.com", "ci", ("AZURE_DEVOPS_PAT", lambda: rs(LOW + "234567", 52)))
V("azure-cosmosdb-key", "Cosmos DB", None, "db", ("COSMOS_CONNECTION", lambda: f"AccountEndpoint=https://{pick(COMPANIES)}-cosmos.documents.azure.com:443/;AccountKey={b64bytes(64)};"))
V("azure-servicebus-connection", "Azure Service Bus", None, "cloud", ("SERVICEBUS_CONNECTION_STRING", lambda: f"Endpoint=sb://{pick(COMPANIES)}-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64bytes(32)}"))
V("azure-openai-key", "Azure OpenAI", "openai.azure.com", "ai", ("AZURE_OPENAI_API_KEY", lambda: hx(32)), ("AZURE_OPENAI_ENDPOINT", lambda: f"https://{pick(COMPANIES)}-oai.openai.azure.com/"))
V("alibaba-access-key", "Alibaba Cloud", "ecs.aliyuncs.com", "cloud", ("ALIBABA_CLOUD_ACCESS_KEY_ID", lambda: "LTAI5t" + al(18)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", lambda: al(30)))
V("tencent-cloud-secret", "Tencent Cloud", "cvm.tencentcloudapi.com", "cloud", ("TENCENTCLOUD_SECRET_ID", lambda: "AKID" + al(32)), ("TENCENTCLOUD_SECRET_KEY", lambda: al(32)))
V("ibm-cloud-api-key", "IBM Cloud", "iam.cloud.ibm.com", "cloud", ("IBMCLOUD_API_KEY", lambda: b64u(44)))
V("oracle-oci-api-key", "Oracle OCI", None, "cloud", ("OCI_FINGERPRINT", lambda: ":".join(hx(2) for _ in range(16))), ("OCI_PRIVATE_KEY", pem_pkcs8))
V("digitalocean-pat", "DigitalOcean", "api.digitalocean.com", "cloud", ("DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + hx(64)))
V("digitalocean-oauth-token", "DigitalOcean OAuth", "api.digitalocean.com", "cloud", ("DO_OAUTH_TOKEN", lambda: "doo_v1_" + hx(64)))
V("digitalocean-spaces-key", "DigitalOcean Spaces", None, "cloud", ("SPACES_KEY", lambda: "DO00" + rs(UPP + "0123456789", 16)), ("SPACES_SECRET", lambda: b64s(43)))
V("linode-token", "Linode", "api.linode.com", "cloud", ("LINODE_TOKEN", lambda: hx(64)))
V("vultr-api-key", "Vultr", "api.vultr.com", "cloud", ("VULTR_API_KEY", lambda: rs(UPP + "0123456789", 36)))
V("hetzner-cloud-token", "Hetzner Cloud", "api.hetzner.cloud", "cloud", ("HCLOUD_TOKEN", lambda: al(64)))
V("scaleway-secret-key", "Scaleway", "api.scaleway.com", "cloud", ("SCW_ACCESS_KEY", lambda: "SCW" + rs(UPP + "0123456789", 17)), ("SCW_SECRET_KEY", uuid4))
V("ovh-application-secret", "OVHcloud", "eu.api.ovh.com", "cloud", ("OVH_APPLICATION_KEY", lambda: al(16)), ("OVH_APPLICATION_SECRET", lambda: al(32)), ("OVH_CONSUMER_KEY", lambda: al(32)))
V("cloudflare-api-token", "Cloudflare", "api.cloudflare.com", "cloud", ("CLOUDFLARE_API_TOKEN", lambda: b64u(40)))
V("cloudflare-global-api-key", "Cloudflare", "api.cloudflare.com", "cloud", ("CF_API_EMAIL", email_addr), ("CF_API_KEY", lambda: hx(37)))
V("cloudflare-origin-ca-key", "Cloudflare Origin CA", "api.cloudflare.com", "cloud", ("CF_ORIGIN_CA_KEY", lambda: "v1.0-" + hx(24) + "-" + hx(146)))
V("cloudflare-r2-credentials", "Cloudflare R2", None, "cloud", ("R2_ACCESS_KEY_ID", lambda: hx(32)), ("R2_SECRET_ACCESS_KEY", lambda: hx(64)))
V("fastly-api-token", "Fastly", "api.fastly.com", "cloud", ("FASTLY_API_TOKEN", lambda: b64u(32)))
V("akamai-edgegrid", "Akamai EdgeGrid", None, "cloud", ("client_secret", lambda: b64bytes(32)), ("host", lambda: "akab-" + lo(16) + "-" + lo(16) + ".luna.akamaiapis.net"), ("access_token", lambda: "akab-" + lo(16) + "-" + lo(16)), ("client_token", lambda: "akab-" + lo(16) + "-" + lo(16)))
V("heroku-api-key", "Heroku", "api.heroku.com", "cloud", ("HEROKU_API_KEY", lambda: "HRKU-AA" + b64u(58)))
V("netlify-pat", "Netlify", "api.netlify.com", "cloud", ("NETLIFY_AUTH_TOKEN", lambda: "nfp_" + al(36)))
V("vercel-token", "Vercel", "api.vercel.com", "cloud", ("VERCEL_TOKEN", lambda: al(24)))
V("render-api-key", "Render", "api.render.com", "cloud", ("RENDER_API_KEY", lambda: "rnd_" + al(32)))
V("flyio-token", "Fly.io", "api.fly.io", "cloud", ("FLY_API_TOKEN", lambda: "FlyV1 fm2_" + b64s(ri(200, 260))))
V("railway-token", "Railway", "backboard.railway.app", "cloud", ("RAILWAY_TOKEN", uuid4))
V("supabase-service-role-key", "Supabase", None, "db", ("SUPABASE_URL", lambda: "https://" + rs(LOW, 20) + ".supabase.co"), ("SUPABASE_SERVICE_ROLE_KEY", supabase_service_jwt))
V("supabase-pat", "Supabase", "api.supabase.com", "db", ("SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + hx(40)))
V("firebase-fcm-server-key", "Firebase Cloud Messaging", "fcm.googleapis.com", "messaging", ("FCM_SERVER_KEY", lambda: "AAAA" + b64u(7) + ":APA91b" + b64u(134)))
V("planetscale-password", "PlanetScale", None, "db", ("DATABASE_USERNAME", lambda: lo(12)), ("DATABASE_PASSWORD", lambda: "pscale_pw_" + b64u(43)))
V("planetscale-service-token", "PlanetScale", "api.planetscale.com", "db", ("PLANETSCALE_SERVICE_TOKEN_ID", lambda: lo(12)), ("PLANETSCALE_SERVICE_TOKEN", lambda: "pscale_tkn_" + b64u(43)))
V("neon-api-key", "Neon", "console.neon.tech", "db", ("NEON_API_KEY", lambda: "napi_" + lo(64)))
V("mongodb-atlas-api-key", "MongoDB Atlas", "cloud.mongodb.com", "db", ("MONGODB_ATLAS_PUBLIC_KEY", lambda: rs(LOW, 8)), ("MONGODB_ATLAS_PRIVATE_KEY", uuid4))
V("upstash-redis-token", "Upstash Redis", None, "db", ("UPSTASH_REDIS_REST_URL", lambda: "https://" + pick(["eu1", "us1", "apn1"]) + "-" + pick(BIP39) + "-" + dg(5) + ".upstash.io"), ("UPSTASH_REDIS_REST_TOKEN", lambda: "A" + b64u(ri(80, 100)) + "="))
V("turso-auth-token", "Turso", None, "db", ("TURSO_AUTH_TOKEN", lambda: jwt({"a": "rw", "iat": ri(1700000000, 1760000000), "id": uuid4()}, alg="EdDSA")[:-342] + b64u(86)))
# ---- code hosting / CI
V("github-pat-classic", "GitHub", "api.github.com", "ci", ("GITHUB_TOKEN", lambda: "ghp_" + al(36)))
V("github-fine-grained-pat", "GitHub", "api.github.com", "ci", ("GH_TOKEN", lambda: "github_pat_11" + up(20) + "_" + al(59)))
V("github-oauth-token", "GitHub OAuth", "api.github.com", "ci", ("GITHUB_OAUTH_TOKEN", lambda: "gho_" + al(36)))
V("github-app-installation-token", "GitHub App", "api.github.com", "ci", ("GITHUB_INSTALLATION_TOKEN", lambda: "ghs_" + al(36)))
V("github-refresh-token", "GitHub App", "github.com", "ci", ("GITHUB_REFRESH_TOKEN", lambda: "ghr_" + al(76)))
V("github-user-to-server-token", "GitHub App", "api.github.com", "ci", ("GITHUB_USER_TOKEN", lambda: "ghu_" + al(36)))
V("github-app-private-key", "GitHub App", None, "ci", ("GITHUB_APP_ID", lambda: dg1(6)), ("GITHUB_APP_PRIVATE_KEY", pem_rsa))
V("gitlab-pat", "GitLab", "gitlab.com", "ci", ("GITLAB_TOKEN", lambda: "glpat-" + b64u(20)))
V("gitlab-pipeline-trigger-token", "GitLab", "gitlab.com", "ci", ("CI_TRIGGER_TOKEN", lambda: "glptt-" + hx(40)))
V("gitlab-runner-token", "GitLab Runner", "gitlab.com", "ci", ("RUNNER_TOKEN", lambda: "glrt-" + b64u(20)))
V("gitlab-deploy-token", "GitLab", "gitlab.com", "ci", ("DEPLOY_USER", lambda: "gitlab+deploy-token-" + dg1(6)), ("DEPLOY_TOKEN", lambda: "gldt-" + b64u(20)))
V("gitlab-feed-token", "GitLab", "gitlab.com", "ci", ("GITLAB_FEED_TOKEN", lambda: "glft-" + b64u(20)))
V("gitlab-agent-token", "GitLab agent", "kas.gitlab.com", "ci", ("AGENT_TOKEN", lambda: "glagent-" + b64u(50)))
V("gitlab-oauth-app-secret", "GitLab", "gitlab.com", "ci", ("GITLAB_APP_SECRET", lambda: "gloas-" + hx(64)))
V("bitbucket-app-password", "Bitbucket", "api.bitbucket.org", "ci", ("BITBUCKET_USERNAME", username), ("BITBUCKET_APP_PASSWORD", lambda: "ATBB" + al(28) + HX(8)))
V("bitbucket-access-token", "Bitbucket", "api.bitbucket.org", "ci", ("BITBUCKET_ACCESS_TOKEN", lambda: "ATCTT3xFfGN0" + b64u(ri(170, 190)) + "=" + HX(8)))
V("circleci-pat", "CircleCI", "circleci.com", "ci", ("CIRCLE_TOKEN", lambda: "CCIPAT_" + al(22) + "_" + hx(40)))
V("travis-ci-token", "Travis CI", "api.travis-ci.com", "ci", ("TRAVIS_TOKEN", lambda: b64u(22)))
V("buildkite-agent-token", "Buildkite", "agent.buildkite.com", "ci", ("BUILDKITE_AGENT_TOKEN", lambda: hx(50)))
V("buildkite-api-token", "Buildkite", "api.buildkite.com", "ci", ("BUILDKITE_API_TOKEN", lambda: "bkua_" + hx(40)))
V("jenkins-api-token", "Jenkins", None, "ci", ("JENKINS_USER", username), ("JENKINS_API_TOKEN", lambda: "11" + hx(32)))
V("drone-ci-token", "Drone CI", None, "ci", ("DRONE_TOKEN", lambda: al(32)))
V("octopus-deploy-api-key", "Octopus Deploy", None, "ci", ("OCTOPUS_API_KEY", lambda: "API-" + rs(UPP + "0123456789", 26)))
V("argocd-auth-token", "Argo CD", None, "ci", ("ARGOCD_AUTH_TOKEN", lambda: jwt({"iss": "argocd", "sub": "ci:apiKey", "nbf": ri(1700000000, 1750000000), "iat": ri(1700000000, 1750000000), "jti": uuid4()})))
V("sonarqube-token", "SonarQube", None, "ci", ("SONAR_TOKEN", lambda: pick(["squ_", "sqp_", "sqa_"]) + hx(40)))
V("snyk-token", "Snyk", "api.snyk.io", "ci", ("SNYK_TOKEN", uuid4))
V("codecov-token", "Codecov", "codecov.io", "ci", ("CODECOV_TOKEN", uuid4))
V("coveralls-repo-token", "Coveralls", "coveralls.io", "ci", ("COVERALLS_REPO_TOKEN", lambda: al(33)))
V("doppler-service-token", "Doppler", "api.doppler.com", "ci", ("DOPPLER_TOKEN", lambda: "dp.st." + pick(["prd", "stg", "dev"]) + "." + al(43)))
V("doppler-personal-token", "Doppler", "api.doppler.com", "ci", ("DOPPLER_PERSONAL_TOKEN", lambda: "dp.pt." + al(43)))
V("vault-service-token", "HashiCorp Vault", None, "ci", ("VAULT_ADDR", lambda: "https://vault." + domain() + ":8200"), ("VAULT_TOKEN", lambda: "hvs." + b64u(ri(90, 96))))
V("vault-batch-token", "HashiCorp Vault", None, "ci", ("VAULT_TOKEN", lambda: "hvb." + b64u(ri(130, 150))))
V("terraform-cloud-token", "Terraform Cloud", "app.terraform.io", "ci", ("TFE_TOKEN", lambda: al(14) + ".atlasv1." + b64u(67)))
V("pulumi-access-token", "Pulumi", "api.pulumi.com", "ci", ("PULUMI_ACCESS_TOKEN", lambda: "pul-" + hx(40)))
V("consul-acl-token", "Consul", None, "ci", ("CONSUL_HTTP_TOKEN", uuid4), ("CONSUL_HTTP_ADDR", lambda: "consul." + domain() + ":8501"))
V("nomad-token", "Nomad", None, "ci", ("NOMAD_TOKEN", uuid4), ("NOMAD_ADDR", lambda: "https://nomad." + domain() + ":4646"))
V("ngrok-authtoken", "ngrok", "api.ngrok.com", "ci", ("NGROK_AUTHTOKEN", lambda: "2" + al(26) + "_" + al(21)))
V("expo-access-token", "Expo", "api.expo.dev", "ci", ("EXPO_TOKEN", lambda: b64u(40)))
V("docker-hub-pat", "Docker Hub", "hub.docker.com", "registry", ("DOCKERHUB_USERNAME", username), ("DOCKERHUB_TOKEN", lambda: "dckr_pat_" + b64u(27)))
V("quay-robot-token", "Quay.io", "quay.io", "registry", ("QUAY_ROBOT", lambda: pick(COMPANIES) + "+ci_pusher"), ("QUAY_TOKEN", lambda: rs(UPNUM, 64)))
V("jfrog-api-key", "JFrog Artifactory", None, "registry", ("ARTIFACTORY_API_KEY", lambda: "AKCp" + al(69)))
V("jfrog-identity-token", "JFrog", None, "registry", ("JFROG_ACCESS_TOKEN", lambda: "cmVmdGtuOjAxOjE3" + b64u(48)))
V("npm-access-token", "npm", "registry.npmjs.org", "registry", ("NPM_TOKEN", lambda: "npm_" + al(36)))
V("pypi-api-token", "PyPI", "upload.pypi.org", "registry", ("TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + b64u(ri(130, 160))))
V("testpypi-api-token", "TestPyPI", "test.pypi.org", "registry", ("TEST_PYPI_TOKEN", lambda: "pypi-AgENdGVzdC5weXBpLm9yZw" + b64u(ri(120, 150))))
V("rubygems-api-key", "RubyGems", "rubygems.org", "registry", ("GEM_HOST_API_KEY", lambda: "rubygems_" + hx(48)))
V("nuget-api-key", "NuGet", "api.nuget.org", "registry", ("NUGET_API_KEY", lambda: "oy2" + rs(LOW + "0123456789", 43)))
V("crates-io-token", "crates.io", "crates.io", "registry", ("CARGO_REGISTRY_TOKEN", lambda: "cio" + al(32)))
V("hex-pm-api-key", "Hex.pm", "hex.pm", "registry", ("HEX_API_KEY", lambda: hx(32)))
V("clojars-deploy-token", "Clojars", "clojars.org", "registry", ("CLOJARS_PASSWORD", lambda: "CLOJARS_" + hx(60)))
V("gradle-plugin-portal-key", "Gradle Plugin Portal", "plugins.gradle.org", "registry", ("GRADLE_PUBLISH_KEY", lambda: al(32)), ("GRADLE_PUBLISH_SECRET", lambda: al(32)))
V("ossrh-credentials", "Sonatype OSSRH", "s01.oss.sonatype.org", "registry", ("OSSRH_USERNAME", lambda: al(8)), ("OSSRH_PASSWORD", lambda: b64u(44)))
V("docker-config-auth", "Docker registry", None, "registry", ("DOCKER_AUTH_CONFIG", lambda: json.dumps({"auths": {pick(["ghcr.io", "registry.gitlab.com", "index.docker.io/v1/", f"{dg1(12)}.dkr.ecr.eu-west-1.amazonaws.com"]): {"auth": base64.b64encode((username() + ":" + password("random")).encode()).decode()}}})))
V("packagecloud-token", "packagecloud", "packagecloud.io", "registry", ("PACKAGECLOUD_TOKEN", lambda: hx(48)))
V("cloudsmith-api-key", "Cloudsmith", "api.cloudsmith.io", "registry", ("CLOUDSMITH_API_KEY", lambda: hx(40)))
# ---- payments
V("stripe-live-secret-key", "Stripe", "api.stripe.com", "payments", ("STRIPE_SECRET_KEY", lambda: "sk_live_51" + al(97)))
V("stripe-restricted-key", "Stripe", "api.stripe.com", "payments", ("STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + al(97)))
V("stripe-webhook-secret", "Stripe webhooks", None, "payments", ("STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + al(32)))
V("stripe-test-secret-key", "Stripe (test mode)", "api.stripe.com", "payments", ("STRIPE_SECRET_KEY", lambda: "sk_test_51" + al(97)))
V("braintree-access-token", "Braintree/PayPal", None, "payments", ("BRAINTREE_ACCESS_TOKEN", lambda: "access_token$production$" + lo(16) + "$" + hx(32)))
V("braintree-private-key", "Braintree", None, "payments", ("BT_MERCHANT_ID", lambda: lo(16)), ("BT_PUBLIC_KEY", lambda: lo(16)), ("BT_PRIVATE_KEY", lambda: hx(32)))
V("paypal-client-secret", "PayPal REST", "api-m.paypal.com", "payments", ("PAYPAL_CLIENT_ID", lambda: "A" + b64u(79)), ("PAYPAL_CLIENT_SECRET", lambda: "E" + b64u(79)))
V("square-access-token", "Square", "connect.squareup.com", "payments", ("SQUARE_ACCESS_TOKEN", lambda: "EAAA" + b64u(60)))
V("square-oauth-secret", "Square", "connect.squareup.com", "payments", ("SQUARE_APP_SECRET", lambda: "sq0csp-" + b64u(43)))
V("adyen-api-key", "Adyen", "checkout-live.adyen.com", "payments", ("ADYEN_API_KEY", lambda: "AQE" + b64u(ri(150, 180)) + "-" + b64u(43) + "=-" + b64u(12)))
V("razorpay-key-secret", "Razorpay", "api.razorpay.com", "payments", ("RAZORPAY_KEY_ID", lambda: "rzp_live_" + al(14)), ("RAZORPAY_KEY_SECRET", lambda: al(24)))
V("paystack-secret-key", "Paystack", "api.paystack.co", "payments", ("PAYSTACK_SECRET_KEY", lambda: "sk_live_" + hx(40)))
V("flutterwave-secret-key", "Flutterwave", "api.flutterwave.com", "payments", ("FLW_SECRET_KEY", lambda: "FLWSECK-" + hx(32) + "-X"))
V("mollie-api-key", "Mollie", "api.mollie.com", "payments", ("MOLLIE_API_KEY", lambda: "live_" + al(30)))
V("checkout-com-secret-key", "Checkout.com", "api.checkout.com", "payments", ("CKO_SECRET_KEY", lambda: "sk_" + lo(8) + "-" + lo(4) + "-" + lo(4) + "-" + lo(4) + "-" + lo(12)))
V("shopify-admin-token", "Shopify", None, "saas", ("SHOPIFY_STORE", lambda: pick(COMPANIES) + "-shop.myshopify.com"), ("SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + hx(32)))
V("shopify-custom-app-token", "Shopify", None, "saas", ("SHOPIFY_TOKEN", lambda: "shpca_" + hx(32)))
V("shopify-private-app-password", "Shopify", None, "saas", ("SHOPIFY_PASSWORD", lambda: "shppa_" + hx(32)))
V("shopify-shared-secret", "Shopify", None, "saas", ("SHOPIFY_API_SECRET", lambda: "shpss_" + hx(32)))
V("coinbase-commerce-key", "Coinbase Commerce", "api.commerce.coinbase.com", "payments", ("COINBASE_COMMERCE_API_KEY", uuid4))
V("plaid-secret", "Plaid", "production.plaid.com", "payments", ("PLAID_CLIENT_ID", lambda: hx(24)), ("PLAID_SECRET", lambda: hx(30)))
V("wise-api-token", "Wise", "api.transferwise.com", "payments", ("WISE_API_TOKEN", uuid4))
V("gocardless-access-token", "GoCardless", "api.gocardless.com", "payments", ("GOCARDLESS_ACCESS_TOKEN", lambda: "live_" + b64u(40)))
V("authorize-net-transaction-key", "Authorize.Net", "api.authorize.net", "payments", ("AUTHNET_LOGIN_ID", lambda: al(9)), ("AUTHNET_TRANSACTION_KEY", lambda: al(16)))
V("mercadopago-access-token", "Mercado Pago", "api.mercadopago.com", "payments", ("MP_ACCESS_TOKEN", lambda: "APP_USR-" + dg1(16) + "-" + dg(6) + "-" + hx(32) + "-" + dg1(9)))
V("lemonsqueezy-api-key", "Lemon Squeezy", "api.lemonsqueezy.com", "payments", ("LEMONSQUEEZY_API_KEY", lambda: jwt({"aud": "94d59cef-dbb8-4ea5-b178-d2540fcd6919", "jti": hx(40), "iat": ri(1700000000, 1760000000), "sub": dg1(6), "scopes": []}, alg="RS256")))
V("klarna-api-credentials", "Klarna", "api.klarna.com", "payments", ("KLARNA_USERNAME", lambda: "K" + dg(6) + "_" + hx(12)), ("KLARNA_PASSWORD", lambda: al(16)))
V("sumup-api-key", "SumUp", "api.sumup.com", "payments", ("SUMUP_API_KEY", lambda: "sup_sk_" + al(32)))
# ---- messaging
V("slack-bot-token", "Slack", "slack.com", "messaging", ("SLACK_BOT_TOKEN", lambda: "xoxb-" + dg1(11) + "-" + dg1(13) + "-" + al(24)))
V("slack-user-token", "Slack", "slack.com", "messaging", ("SLACK_USER_TOKEN", lambda: "xoxp-" + dg1(11) + "-" + dg1(11) + "-" + dg1(13) + "-" + hx(32)))
V("slack-app-token", "Slack", "slack.com", "messaging", ("SLACK_APP_TOKEN", lambda: "xapp-1-A" + up(10) + "-" + dg1(13) + "-" + hx(64)))
V("slack-config-token", "Slack", "slack.com", "messaging", ("SLACK_CONFIG_TOKEN", lambda: "xoxe.xoxp-1-" + b64u(140)))
V("slack-incoming-webhook", "Slack webhook", None, "webhook", ("SLACK_WEBHOOK_URL", lambda: f"https://hooks.slack.com/services/T{up(8)}/B{up(10)}/{al(24)}"))
V("slack-workflow-webhook", "Slack workflow", None, "webhook", ("SLACK_WORKFLOW_URL", lambda: f"https://hooks.slack.com/triggers/T{up(8)}/{dg1(13)}/{hx(32)}"))
V("discord-bot-token", "Discord", "discord.com", "messaging", ("DISCORD_TOKEN", lambda: base64.b64encode(str(ri(10**17, 10**18)).encode()).decode().rstrip("=") + "." + b64u(6) + "." + b64u(38)))
V("discord-webhook", "Discord webhook", None, "webhook", ("DISCORD_WEBHOOK", lambda: f"https://discord.com/api/webhooks/{ri(10**17, 10**18)}/{b64u(68)}"))
V("telegram-bot-token", "Telegram", "api.telegram.org", "messaging", ("TELEGRAM_BOT_TOKEN", lambda: f"{ri(10**9, 8 * 10**9)}:AA{b64u(33)}"))
V("twilio-auth-token", "Twilio", "api.twilio.com", "messaging", ("TWILIO_ACCOUNT_SID", lambda: "AC" + hx(32)), ("TWILIO_AUTH_TOKEN", lambda: hx(32)))
V("twilio-api-key", "Twilio", "api.twilio.com", "messaging", ("TWILIO_API_KEY", lambda: "SK" + hx(32)), ("TWILIO_API_SECRET", lambda: al(32)))
V("sendgrid-api-key", "SendGrid", "api.sendgrid.com", "messaging", ("SENDGRID_API_KEY", lambda: "SG." + b64u(22) + "." + b64u(43)))
V("mailgun-api-key", "Mailgun", "api.mailgun.net", "messaging", ("MAILGUN_API_KEY", lambda: "key-" + hx(32)))
V("mailgun-private-key-new", "Mailgun", "api.eu.mailgun.net", "messaging", ("MAILGUN_API_KEY", lambda: hx(32) + "-" + hx(8) + "-" + hx(8)))
V("mailchimp-api-key", "Mailchimp", None, "messaging", ("MAILCHIMP_API_KEY", lambda: hx(32) + "-us" + str(ri(1, 21))))
V("mandrill-api-key", "Mandrill", "mandrillapp.com", "messaging", ("MANDRILL_API_KEY", lambda: b64u(22)))
V("postmark-server-token", "Postmark", "api.postmarkapp.com", "messaging", ("POSTMARK_SERVER_TOKEN", uuid4))
V("mailjet-api-credentials", "Mailjet", "api.mailjet.com", "messaging", ("MJ_APIKEY_PUBLIC", lambda: hx(32)), ("MJ_APIKEY_PRIVATE", lambda: hx(32)))
V("brevo-api-key", "Brevo", "api.brevo.com", "messaging", ("BREVO_API_KEY", lambda: "xkeysib-" + hx(64) + "-" + al(16)))
V("vonage-api-secret", "Vonage", "rest.nexmo.com", "messaging", ("VONAGE_API_KEY", lambda: hx(8)), ("VONAGE_API_SECRET", lambda: al(16)))
V("messagebird-access-key", "MessageBird", "rest.messagebird.com", "messaging", ("MESSAGEBIRD_ACCESS_KEY", lambda: al(25)))
V("teams-incoming-webhook", "Microsoft Teams webhook", None, "webhook", ("TEAMS_WEBHOOK_URL", lambda: f"https://{pick(COMPANIES)}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}/V2{b64u(40)}"))
V("mattermost-webhook", "Mattermost webhook", None, "webhook", ("MATTERMOST_HOOK", lambda: f"https://chat.{domain()}/hooks/{rs(LOW + '0123456789', 26)}"))
V("rocketchat-webhook", "Rocket.Chat webhook", None, "webhook", ("ROCKETCHAT_HOOK", lambda: f"https://rocket.{domain()}/hooks/{al(17)}/{al(48)}"))
V("googlechat-webhook", "Google Chat webhook", None, "webhook", ("GCHAT_WEBHOOK", lambda: f"https://chat.googleapis.com/v1/spaces/{al(11)}/messages?key=AIza{b64u(35)}&token={b64u(43)}%3D"))
V("pushover-app-token", "Pushover", "api.pushover.net", "messaging", ("PUSHOVER_TOKEN", lambda: rs(LOW + "0123456789", 30)), ("PUSHOVER_USER", lambda: rs(LOW + "0123456789", 30)))
V("pusher-app-secret", "Pusher", None, "messaging", ("PUSHER_APP_ID", lambda: dg1(7)), ("PUSHER_KEY", lambda: hx(20)), ("PUSHER_SECRET", lambda: hx(20)))
V("line-channel-access-token", "LINE Messaging API", "api.line.me", "messaging", ("LINE_CHANNEL_ACCESS_TOKEN", lambda: b64s(171) + "="), ("LINE_CHANNEL_SECRET", lambda: hx(32)))
V("whatsapp-cloud-token", "WhatsApp Cloud API", "graph.facebook.com", "messaging", ("WHATSAPP_TOKEN", lambda: "EAAG" + al(ri(180, 210))))
V("facebook-page-token", "Facebook Graph", "graph.facebook.com", "saas", ("FB_PAGE_ACCESS_TOKEN", lambda: "EAAB" + al(ri(160, 200))))
V("zulip-api-key", "Zulip", None, "messaging", ("ZULIP_EMAIL", lambda: "bot-bot@" + domain()), ("ZULIP_API_KEY", lambda: al(32)))
V("intercom-access-token", "Intercom", "api.intercom.io", "saas", ("INTERCOM_TOKEN", lambda: "dG9rOj" + b64s(54) + "="))
V("sparkpost-api-key", "SparkPost", "api.sparkpost.com", "messaging", ("SPARKPOST_API_KEY", lambda: hx(40)))
V("resend-api-key", "Resend", "api.resend.com", "messaging", ("RESEND_API_KEY", lambda: "re_" + al(8) + "_" + al(24)))
V("aws-ses-smtp-password", "Amazon SES SMTP", "email-smtp.eu-west-1.amazonaws.com", "messaging", ("SMTP_USERNAME", lambda: "AKIA" + rs(UPP + "234567", 16)), ("SMTP_PASSWORD", lambda: "BF" + b64s(42)))
V("onesignal-rest-key", "OneSignal", "onesignal.com", "messaging", ("ONESIGNAL_APP_ID", uuid4), ("ONESIGNAL_REST_API_KEY", lambda: "os_v2_app_" + rs(LOW + "234567", 113)))
V("ably-api-key", "Ably", "rest.ably.io", "messaging", ("ABLY_API_KEY", lambda: b64u(6) + "." + b64u(6) + ":" + b64u(43)))
V("stream-chat-secret", "Stream Chat", "chat.stream-io-api.com", "messaging", ("STREAM_API_KEY", lambda: lo(12)), ("STREAM_API_SECRET", lambda: lo(64)))
# ---- observability
V("datadog-api-key", "Datadog", "api.datadoghq.eu", "observability", ("DD_API_KEY", lambda: hx(32)))
V("datadog-app-key", "Datadog", "api.datadoghq.com", "observability", ("DD_API_KEY", lambda: hx(32)), ("DD_APP_KEY", lambda: hx(40)))
V("newrelic-license-key", "New Relic", "collector.newrelic.com", "observability", ("NEW_RELIC_LICENSE_KEY", lambda: hx(36) + "NRAL"))
V("newrelic-user-key", "New Relic", "api.newrelic.com", "observability", ("NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(UPNUM, 27)))
V("newrelic-insert-key", "New Relic", "insights-collector.newrelic.com", "observability", ("NEW_RELIC_INSERT_KEY", lambda: "NRII-" + b64u(32)))
V("sentry-org-auth-token", "Sentry", "sentry.io", "observability", ("SENTRY_AUTH_TOKEN", lambda: "sntrys_" + b64url_json({"iat": ri(1700000000, 1760000000) + 0.5, "url": "https://sentry.io", "region_url": "https://us.sentry.io", "org": pick(COMPANIES)}) + "_" + b64u(43)))
V("sentry-user-auth-token", "Sentry", "sentry.io", "observability", ("SENTRY_AUTH_TOKEN", lambda: "sntryu_" + hx(64)))
V("honeycomb-api-key", "Honeycomb", "api.honeycomb.io", "observability", ("HONEYCOMB_API_KEY", lambda: "hcaik_" + rs(LOW + "0123456789", 58)))
V("grafana-cloud-token", "Grafana Cloud", "grafana.net", "observability", ("GRAFANA_CLOUD_TOKEN", lambda: "glc_" + b64s(ri(110, 140)) + "=="))
V("grafana-service-account-token", "Grafana", None, "observability", ("GRAFANA_TOKEN", lambda: "glsa_" + al(32) + "_" + hx(8)))
V("splunk-hec-token", "Splunk HEC", None, "observability", ("SPLUNK_HEC_URL", lambda: "https://splunk." + domain() + ":8088/services/collector"), ("SPLUNK_HEC_TOKEN", uuid4))
V("dynatrace-api-token", "Dynatrace", None, "observability", ("DT_API_TOKEN", lambda: "dt0c01." + rs(UPNUM, 24) + "." + rs(UPNUM, 64)))
V("mezmo-ingestion-key", "Mezmo/LogDNA", "logs.logdna.com", "observability", ("LOGDNA_INGESTION_KEY", lambda: hx(32)))
V("pagerduty-api-key", "PagerDuty", "api.pagerduty.com", "observability", ("PAGERDUTY_TOKEN", lambda: "u+" + b64u(18)))
V("pagerduty-routing-key", "PagerDuty Events", "events.pagerduty.com", "observability", ("PD_ROUTING_KEY", lambda: hx(32)))
V("opsgenie-api-key", "Opsgenie", "api.opsgenie.com", "observability", ("OPSGENIE_API_KEY", uuid4))
V("bugsnag-api-key", "Bugsnag", "notify.bugsnag.com", "observability", ("BUGSNAG_AUTH_TOKEN", lambda: hx(32)))
V("rollbar-access-token", "Rollbar", "api.rollbar.com", "observability", ("ROLLBAR_ACCESS_TOKEN", lambda: hx(32)))
V("elastic-cloud-api-key", "Elastic Cloud", None, "observability", ("ELASTIC_API_KEY", lambda: base64.b64encode((al(20) + ":" + b64u(22)).encode()).decode()))
V("loggly-token", "Loggly", "logs-01.loggly.com", "observability", ("LOGGLY_TOKEN", uuid4))
V("sumologic-access-key", "Sumo Logic", "api.sumologic.com", "observability", ("SUMO_ACCESS_ID", lambda: "su" + al(12)), ("SUMO_ACCESS_KEY", lambda: al(64)))
V("logzio-shipping-token", "Logz.io", "listener.logz.io", "observability", ("LOGZIO_TOKEN", lambda: letters(32)))
V("axiom-api-token", "Axiom", "api.axiom.co", "observability", ("AXIOM_TOKEN", lambda: "xaat-" + uuid4()))
V("better-stack-token", "Better Stack", "in.logs.betterstack.com", "observability", ("BETTERSTACK_SOURCE_TOKEN", lambda: al(24)))
V("checkly-api-key", "Checkly", "api.checklyhq.com", "observability", ("CHECKLY_API_KEY", lambda: "cu_" + hx(32)))
# ---- AI / ML
V("openai-project-key", "OpenAI", "api.openai.com", "ai", ("OPENAI_API_KEY", lambda: "sk-proj-" + b64u(ri(150, 160)) + "T3BlbkFJ" + b64u(ri(60, 70))))
V("openai-legacy-key", "OpenAI", "api.openai.com", "ai", ("OPENAI_API_KEY", lambda: "sk-" + al(20) + "T3BlbkFJ" + al(20)))
V("openai-admin-key", "OpenAI", "api.openai.com", "ai", ("OPENAI_ADMIN_KEY", lambda: "sk-admin-" + b64u(ri(150, 160))))
V("openai-service-account-key", "OpenAI", "api.openai.com", "ai", ("OPENAI_API_KEY", lambda: "sk-svcacct-" + b64u(ri(150, 160))))
V("anthropic-api-key", "Anthropic", "api.anthropic.com", "ai", ("ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + b64u(93) + "AA"))
V("anthropic-admin-key", "Anthropic", "api.anthropic.com", "ai", ("ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + b64u(93) + "AA"))
V("huggingface-token", "Hugging Face", "huggingface.co", "ai", ("HF_TOKEN", lambda: "hf_" + letters(34)))
V("replicate-api-token", "Replicate", "api.replicate.com", "ai", ("REPLICATE_API_TOKEN", lambda: "r8_" + al(37)))
V("cohere-api-key", "Cohere", "api.cohere.com", "ai", ("CO_API_KEY", lambda: al(40)))
V("mistral-api-key", "Mistral AI", "api.mistral.ai", "ai", ("MISTRAL_API_KEY", lambda: al(32)))
V("groq-api-key", "Groq", "api.groq.com", "ai", ("GROQ_API_KEY", lambda: "gsk_" + al(52)))
V("together-api-key", "Together AI", "api.together.xyz", "ai", ("TOGETHER_API_KEY", lambda: "tgp_v1_" + b64u(43)))
V("perplexity-api-key", "Perplexity", "api.perplexity.ai", "ai", ("PERPLEXITY_API_KEY", lambda: "pplx-" + al(48)))
V("deepseek-api-key", "DeepSeek", "api.deepseek.com", "ai", ("DEEPSEEK_API_KEY", lambda: "sk-" + hx(32)))
V("xai-api-key", "xAI", "api.x.ai", "ai", ("XAI_API_KEY", lambda: "xai-" + al(80)))
V("fireworks-api-key", "Fireworks AI", "api.fireworks.ai", "ai", ("FIREWORKS_API_KEY", lambda: "fw_" + al(24)))
V("elevenlabs-api-key", "ElevenLabs", "api.elevenlabs.io", "ai", ("ELEVENLABS_API_KEY", lambda: "sk_" + hx(48)))
V("stability-api-key", "Stability AI", "api.stability.ai", "ai", ("STABILITY_API_KEY", lambda: "sk-" + al(48)))
V("assemblyai-api-key", "AssemblyAI", "api.assemblyai.com", "ai", ("ASSEMBLYAI_API_KEY", lambda: hx(32)))
V("deepgram-api-key", "Deepgram", "api.deepgram.com", "ai", ("DEEPGRAM_API_KEY", lambda: hx(40)))
V("pinecone-api-key", "Pinecone", "api.pinecone.io", "ai", ("PINECONE_API_KEY", lambda: "pcsk_" + al(5) + "_" + al(62)))
V("wandb-api-key", "Weights & Biases", "api.wandb.ai", "ai", ("WANDB_API_KEY", lambda: hx(40)))
V("langsmith-api-key", "LangSmith", "api.smith.langchain.com", "ai", ("LANGSMITH_API_KEY", lambda: "lsv2_pt_" + hx(32) + "_" + hx(10)))
V("openrouter-api-key", "OpenRouter", "openrouter.ai", "ai", ("OPENROUTER_API_KEY", lambda: "sk-or-v1-" + hx(64)))
V("voyage-api-key", "Voyage AI", "api.voyageai.com", "ai", ("VOYAGE_API_KEY", lambda: "pa-" + b64u(43)))
V("clarifai-pat", "Clarifai", "api.clarifai.com", "ai", ("CLARIFAI_PAT", lambda: hx(32)))
V("runpod-api-key", "RunPod", "api.runpod.io", "ai", ("RUNPOD_API_KEY", lambda: "rpa_" + rs(UPNUM, 40)))
V("modal-token", "Modal", "api.modal.com", "ai", ("MODAL_TOKEN_ID", lambda: "ak-" + al(22)), ("MODAL_TOKEN_SECRET", lambda: "as-" + al(22)))
V("gemini-api-key", "Gemini API", "generativelanguage.googleapis.com", "ai", ("GEMINI_API_KEY", lambda: "AIzaSy" + b64u(33)))
V("cerebras-api-key", "Cerebras", "api.cerebras.ai", "ai", ("CEREBRAS_API_KEY", lambda: "csk-" + lo(48)))
V("roboflow-api-key", "Roboflow", "api.roboflow.com", "ai", ("ROBOFLOW_API_KEY", lambda: al(20)))
# ---- databases / connection strings (with passwords)
conn("postgres-url", "PostgreSQL", "db", "DATABASE_URL", lambda: f"postgres{pick(['', 'ql'])}://{username()}:{password(pick(['random', 'long', 'word']))}@{hostname()}:5432/{pick(['app', 'prod', 'orders', 'analytics', 'main'])}{pick(['', '?sslmode=require'])}")
conn("mysql-url", "MySQL", "db", "MYSQL_URL", lambda: f"mysql://{username()}:{password('random')}@{hostname()}:3306/{pick(['shop', 'wordpress', 'crm'])}")
conn("mongodb-srv-url", "MongoDB", "db", "MONGODB_URI", lambda: f"mongodb+srv://{username()}:{password(pick(['random', 'long']))}@cluster0.{lo(5)}.mongodb.net/{pick(['test', 'prod', 'app'])}?retryWrites=true&w=majority")
conn("redis-url", "Redis", "db", "REDIS_URL", lambda: f"redis{pick(['', 's'])}://default:{al(32)}@{hostname()}:{pick(['6379', '6380', '25061'])}")
conn("amqp-url", "RabbitMQ", "db", "AMQP_URL", lambda: f"amqps://{username()}:{b64u(24)}@{pick(['rabbit', 'mq', 'broker'])}.{domain()}/{pick(['vhost', '%2F', 'prod'])}")
conn("mssql-connection-string", "SQL Server", "db", "ConnectionStrings__Default", lambda: f"Server=tcp:{pick(COMPANIES)}-sql.database.windows.net,1433;Initial Catalog={pick(['Orders', 'Billing', 'Core'])};User ID={username()};Password={password('random')};Encrypt=True;")
conn("jdbc-oracle-url", "Oracle JDBC", "db", "JDBC_URL", lambda: f"jdbc:oracle:thin:{username()}/{password('word')}@{hostname()}:1521/ORCLPDB1")
conn("jdbc-postgres-url", "Postgres JDBC", "db", "SPRING_DATASOURCE_URL", lambda: f"jdbc:postgresql://{hostname()}:5432/app?user={username()}&password={password('random')}")
V("snowflake-credentials", "Snowflake", None, "db", ("SNOWFLAKE_ACCOUNT", lambda: lo(7).upper() + "-" + lo(7).upper()), ("SNOWFLAKE_USER", username), ("SNOWFLAKE_PASSWORD", lambda: password("random")))
conn("clickhouse-url", "ClickHouse", "db", "CLICKHOUSE_URL", lambda: f"https://default:{al(20)}@{lo(10)}.eu-central-1.aws.clickhouse.cloud:8443")
conn("elasticsearch-url", "Elasticsearch", "db", "ELASTICSEARCH_URL", lambda: f"https://elastic:{al(24)}@{pick(COMPANIES)}.es.eu-west-1.aws.found.io:9243")
conn("neo4j-url", "Neo4j", "db", "NEO4J_URI", lambda: f"neo4j+s://neo4j:{b64u(43)}@{hx(8)}.databases.neo4j.io")
conn("couchdb-url", "CouchDB", "db", "COUCHDB_URL", lambda: f"http://admin:{password('random')}@{hostname()}:5984")
V("influxdb-token", "InfluxDB", None, "db", ("INFLUX_URL", lambda: "https://eu-central-1-1.aws.cloud2.influxdata.com"), ("INFLUX_TOKEN", lambda: b64u(86) + "=="))
V("firebase-database-secret", "Firebase RTDB legacy secret", None, "db", ("FIREBASE_DB_SECRET", lambda: al(40)))
V("ldap-bind-credentials", "LDAP", None, "db", ("LDAP_BIND_DN", lambda: f"cn={pick(['svc-ldap', 'binduser', 'readonly'])},ou=services,dc={pick(COMPANIES)},dc=local"), ("LDAP_BIND_PASSWORD", lambda: password("random")))
conn("smtp-url", "SMTP", "messaging", "EMAIL_URL", lambda: f"smtp+tls://{username()}%40{domain()}:{password('random')}@smtp.{domain()}:587")
conn("ftp-url", "FTP", "db", "FTP_URL", lambda: f"ftp://{username()}:{password('word')}@ftp.{domain()}/uploads")
conn("sftp-password", "SFTP", "db", "SFTP_CONN", lambda: f"sftp://{username()}:{password('random')}@files.{domain()}:22/incoming")
V("kafka-sasl-jaas", "Kafka SASL", None, "db", ("KAFKA_SASL_JAAS_CONFIG", lambda: f'org.apache.kafka.common.security.plain.PlainLoginModule required username="{rs(UPNUM, 16)}" password="{b64s(64)}";'))
V("confluent-cloud-api-key", "Confluent Cloud", None, "db", ("CONFLUENT_API_KEY", lambda: rs(UPNUM, 16)), ("CONFLUENT_API_SECRET", lambda: b64s(64)))
V("aiven-api-token", "Aiven", "api.aiven.io", "db", ("AIVEN_TOKEN", lambda: b64s(ri(300, 360))))
V("databricks-pat", "Databricks", None, "db", ("DATABRICKS_HOST", lambda: f"https://adb-{dg1(16)}.{ri(1, 19)}.azuredatabricks.net"), ("DATABRICKS_TOKEN", lambda: "dapi" + hx(32)))
V("prefect-api-key", "Prefect Cloud", "api.prefect.cloud", "db", ("PREFECT_API_KEY", lambda: "pnu_" + al(36)))
V("dbt-cloud-token", "dbt Cloud", "cloud.getdbt.com", "db", ("DBT_CLOUD_API_TOKEN", lambda: "dbtc_" + b64u(50)))
conn("cassandra-credentials", "Cassandra/Astra", "db", "ASTRA_DB_APPLICATION_TOKEN", lambda: "AstraCS:" + letters(24) + ":" + hx(64))
conn("memcached-sasl", "Memcached SASL", "db", "MEMCACHIER_CONN", lambda: f"{up(6)}:{hx(32)}@mc{ri(1, 5)}.dev.eu.ec2.memcachier.com:11211")
# ---- SaaS
V("atlassian-api-token", "Atlassian/Jira", None, "saas", ("JIRA_EMAIL", email_addr), ("JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + b64u(ri(170, 185)) + "=" + HX(8)))
V("notion-integration-secret", "Notion", "api.notion.com", "saas", ("NOTION_TOKEN", lambda: pick(["secret_", "ntn_"]) + al(43)))
V("airtable-pat", "Airtable", "api.airtable.com", "saas", ("AIRTABLE_PAT", lambda: "pat" + al(14) + "." + hx(64)))
V("asana-pat", "Asana", "app.asana.com", "saas", ("ASANA_TOKEN", lambda: "2/" + dg1(16) + "/" + dg1(16) + ":" + hx(32)))
V("linear-api-key", "Linear", "api.linear.app", "saas", ("LINEAR_API_KEY", lambda: "lin_api_" + al(40)))
V("figma-pat", "Figma", "api.figma.com", "saas", ("FIGMA_TOKEN", lambda: "figd_" + b64u(40)))
V("zendesk-api-token", "Zendesk", None, "saas", ("ZENDESK_SUBDOMAIN", lambda: pick(COMPANIES)), ("ZENDESK_EMAIL", email_addr), ("ZENDESK_API_TOKEN", lambda: al(40)))
V("hubspot-private-app-token", "HubSpot", "api.hubapi.com", "saas", ("HUBSPOT_ACCESS_TOKEN", lambda: "pat-" + pick(["na1", "eu1"]) + "-" + uuid4()))
V("salesforce-access-token", "Salesforce", None, "saas", ("SF_INSTANCE_URL", lambda: f"https://{pick(COMPANIES)}.my.salesforce.com"), ("SF_ACCESS_TOKEN", lambda: "00D" + al(12) + "!" + b64u(96).replace("-", ".")))
V("dropbox-access-token", "Dropbox", "api.dropboxapi.com", "saas", ("DROPBOX_ACCESS_TOKEN", lambda: "sl.B" + b64u(ri(130, 140))))
V("box-developer-token", "Box", "api.box.com", "saas", ("BOX_DEVELOPER_TOKEN", lambda: al(32)))
V("monday-api-token", "monday.com", "api.monday.com", "saas", ("MONDAY_API_TOKEN", lambda: jwt({"tid": ri(10**8, 10**9), "aai": ri(10, 99), "uid": ri(10**7, 10**8), "iad": rts(), "per": "me:write", "actid": ri(10**6, 10**7), "rgn": "euc1"})))
V("clickup-api-token", "ClickUp", "api.clickup.com", "saas", ("CLICKUP_TOKEN", lambda: "pk_" + dg1(8) + "_" + rs(UPNUM, 32)))
V("trello-api-credentials", "Trello", "api.trello.com", "saas", ("TRELLO_KEY", lambda: hx(32)), ("TRELLO_TOKEN", lambda: "ATTA" + hx(64) + HX(8)))
V("typeform-pat", "Typeform", "api.typeform.com", "saas", ("TYPEFORM_TOKEN", lambda: "tfp_" + b64u(44) + "_" + b64u(14)))
V("calendly-pat", "Calendly", "api.calendly.com", "saas", ("CALENDLY_TOKEN", lambda: jwt({"iss": "https://auth.calendly.com", "iat": ri(1700000000, 1760000000), "jti": uuid4(), "user_uuid": uuid4()}, alg="HS512", sig_len=86)))
V("zoom-sdk-secret", "Zoom", "api.zoom.us", "saas", ("ZOOM_ACCOUNT_ID", lambda: b64u(22)), ("ZOOM_CLIENT_ID", lambda: b64u(22)), ("ZOOM_CLIENT_SECRET", lambda: al(32)))
V("okta-api-token", "Okta", None, "saas", ("OKTA_ORG_URL", lambda: f"https://{pick(COMPANIES)}.okta.com"), ("OKTA_API_TOKEN", lambda: "00" + b64u(40)))
V("auth0-client-secret", "Auth0", None, "saas", ("AUTH0_DOMAIN", lambda: f"{pick(COMPANIES)}.eu.auth0.com"), ("AUTH0_CLIENT_ID", lambda: al(32)), ("AUTH0_CLIENT_SECRET", lambda: b64u(64)))
V("contentful-management-token", "Contentful", "api.contentful.com", "saas", ("CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + b64u(43)))
V("algolia-admin-key", "Algolia", None, "saas", ("ALGOLIA_APP_ID", lambda: rs(UPNUM, 10)), ("ALGOLIA_ADMIN_API_KEY", lambda: hx(32)))
V("mapbox-secret-token", "Mapbox", "api.mapbox.com", "saas", ("MAPBOX_SECRET_TOKEN", lambda: "sk.eyJ1Ijoi" + b64u(ri(40, 60)) + "." + b64u(22)))
V("twitch-client-secret", "Twitch", "id.twitch.tv", "saas", ("TWITCH_CLIENT_ID", lambda: lo(30)), ("TWITCH_CLIENT_SECRET", lambda: lo(30)))
V("twitter-bearer-token", "X/Twitter API", "api.twitter.com", "saas", ("TWITTER_BEARER_TOKEN", lambda: "AAAAAAAAAAAAAAAAAAAAA" + al(25) + "%3D" + al(50)))
V("twitter-consumer-secret", "X/Twitter API", "api.twitter.com", "saas", ("TWITTER_API_KEY", lambda: al(25)), ("TWITTER_API_SECRET", lambda: al(50)), ("TWITTER_ACCESS_TOKEN", lambda: dg1(19) + "-" + al(30)), ("TWITTER_ACCESS_SECRET", lambda: al(45)))
V("facebook-app-secret", "Meta for Developers", "graph.facebook.com", "saas", ("FACEBOOK_APP_ID", lambda: dg1(15)), ("FACEBOOK_APP_SECRET", lambda: hx(32)))
V("linkedin-client-secret", "LinkedIn", "www.linkedin.com", "saas", ("LINKEDIN_CLIENT_ID", lambda: lo(14)), ("LINKEDIN_CLIENT_SECRET", lambda: "WPL_AP1." + al(16) + "." + b64s(8) + "=="))
V("spotify-client-secret", "Spotify", "accounts.spotify.com", "saas", ("SPOTIFY_CLIENT_ID", lambda: hx(32)), ("SPOTIFY_CLIENT_SECRET", lambda: hx(32)))
V("dropbox-app-secret", "Dropbox", "api.dropboxapi.com", "saas", ("DROPBOX_APP_KEY", lambda: lo(15)), ("DROPBOX_APP_SECRET", lambda: lo(15)))
V("shippo-api-token", "Shippo", "api.goshippo.com", "saas", ("SHIPPO_API_TOKEN", lambda: "shippo_live_" + hx(40)))
V("easypost-api-key", "EasyPost", "api.easypost.com", "saas", ("EASYPOST_API_KEY", lambda: "EZAK" + hx(54)))
V("mixpanel-service-account", "Mixpanel", "mixpanel.com", "saas", ("MIXPANEL_SA_USERNAME", lambda: pick(COMPANIES) + "-export." + lo(6) + ".mp-service-account"), ("MIXPANEL_SA_SECRET", lambda: al(32)))
V("amplitude-secret-key", "Amplitude", "amplitude.com", "saas", ("AMPLITUDE_API_KEY", lambda: hx(32)), ("AMPLITUDE_SECRET_KEY", lambda: hx(32)))
V("launchdarkly-sdk-key", "LaunchDarkly", "sdk.launchdarkly.com", "saas", ("LAUNCHDARKLY_SDK_KEY", lambda: "sdk-" + uuid4()))
V("launchdarkly-api-token", "LaunchDarkly", "app.launchdarkly.com", "saas", ("LD_API_TOKEN", lambda: "api-" + uuid4()))
V("postman-api-key", "Postman", "api.getpostman.com", "saas", ("POSTMAN_API_KEY", lambda: "PMAK-" + hx(24) + "-" + hx(34)))
V("1password-service-account-token", "1Password", None, "saas", ("OP_SERVICE_ACCOUNT_TOKEN", lambda: "ops_eyJzaWduSW5BZGRyZXNzIjoi" + b64u(ri(600, 700))))
V("1password-connect-token", "1Password Connect", None, "saas", ("OP_CONNECT_TOKEN", lambda: jwt({"1password.com/auuid": up(26), "1password.com/token": b64u(32), "1password.com/fts": ["vaultaccess"], "aud": ["com.1password.connect"], "sub": up(26), "iat": ri(1700000000, 1760000000), "iss": "com.1password.b5"}, alg="ES256", sig_len=86)))
V("bitwarden-api-key", "Bitwarden", "identity.bitwarden.com", "saas", ("BW_CLIENTID", lambda: "user." + uuid4()), ("BW_CLIENTSECRET", lambda: al(30)))
V("bitwarden-secrets-access-token", "Bitwarden Secrets Manager", None, "saas", ("BWS_ACCESS_TOKEN", lambda: "0." + uuid4() + "." + al(30) + ":" + b64s(22) + "=="))
V("frameio-token", "Frame.io", "api.frame.io", "saas", ("FRAMEIO_TOKEN", lambda: "fio-u-" + b64u(64)))
V("zapier-catch-hook", "Zapier webhook", None, "webhook", ("ZAPIER_HOOK", lambda: f"https://hooks.zapier.com/hooks/catch/{dg1(7)}/{lo(7)}/"))
V("ifttt-webhook-key", "IFTTT Maker", None, "webhook", ("IFTTT_URL", lambda: f"https://maker.ifttt.com/trigger/{pick(['door_open', 'backup_done', 'alert'])}/with/key/{b64u(22)}"))
V("make-webhook", "Make.com webhook", None, "webhook", ("MAKE_WEBHOOK", lambda: f"https://hook.{pick(['eu1', 'eu2', 'us1'])}.make.com/{lo(32)}"))
V("n8n-webhook", "n8n webhook", None, "webhook", ("N8N_WEBHOOK", lambda: f"https://n8n.{domain()}/webhook/{uuid4()}"))
V("github-webhook-secret", "GitHub webhook", None, "webhook", ("GITHUB_WEBHOOK_SECRET", lambda: hx(40)))
V("generic-webhook-signing-secret", "webhook signing", None, "webhook", ("WEBHOOK_SIGNING_SECRET", lambda: "whsec_" + b64s(32)))
V("homeassistant-token", "Home Assistant", None, "saas", ("HASS_URL", lambda: "http://homeassistant.local:8123"), ("HASS_TOKEN", lambda: jwt({"iss": hx(32), "iat": ri(1700000000, 1760000000), "exp": 2020000000})))
V("here-api-key", "HERE", "geocode.search.hereapi.com", "saas", ("HERE_API_KEY", lambda: b64u(43)))
V("openweather-api-key", "OpenWeatherMap", "api.openweathermap.org", "saas", ("OWM_API_KEY", lambda: hx(32)))
V("newsapi-key", "NewsAPI", "newsapi.org", "saas", ("NEWSAPI_KEY", lambda: hx(32)))
V("alphavantage-key", "Alpha Vantage", "www.alphavantage.co", "saas", ("ALPHAVANTAGE_API_KEY", lambda: rs(UPNUM, 16)))
V("polygon-io-key", "Polygon.io", "api.polygon.io", "saas", ("POLYGON_API_KEY", lambda: al(32)))
V("tomtom-api-key", "TomTom", "api.tomtom.com", "saas", ("TOMTOM_API_KEY", lambda: al(32)))
V("ipinfo-token", "ipinfo", "ipinfo.io", "saas", ("IPINFO_TOKEN", lambda: hx(14)))
V("webflow-api-token", "Webflow", "api.webflow.com", "saas", ("WEBFLOW_TOKEN", lambda: hx(64)))
V("wordpress-application-password", "WordPress", None, "saas", ("WP_USER", username), ("WP_APP_PASSWORD", lambda: " ".join(al(4) for _ in range(6))))
V("ghost-admin-api-key", "Ghost", None, "saas", ("GHOST_ADMIN_API_KEY", lambda: hx(24) + ":" + hx(64)))
V("strapi-api-token", "Strapi", None, "saas", ("STRAPI_API_TOKEN", lambda: hx(256)))
V("sanity-api-token", "Sanity", "api.sanity.io", "saas", ("SANITY_API_TOKEN", lambda: "sk" + al(180)))
V("pipedrive-api-token", "Pipedrive", "api.pipedrive.com", "saas", ("PIPEDRIVE_API_TOKEN", lambda: hx(40)))
V("freshdesk-api-key", "Freshdesk", None, "saas", ("FRESHDESK_API_KEY", lambda: al(20)))
V("docusign-integration-key", "DocuSign", "account.docusign.com", "saas", ("DOCUSIGN_INTEGRATION_KEY", uuid4), ("DOCUSIGN_SECRET_KEY", uuid4), ("DOCUSIGN_ACCOUNT_ID", uuid4))
V("smartsheet-token", "Smartsheet", "api.smartsheet.com", "saas", ("SMARTSHEET_ACCESS_TOKEN", lambda: al(37)))
V("netlify-build-hook", "Netlify build hook", None, "webhook", ("NETLIFY_BUILD_HOOK", lambda: f"https://api.netlify.com/build_hooks/{hx(24)}"))
V("vercel-deploy-hook", "Vercel deploy hook", None, "webhook", ("VERCEL_DEPLOY_HOOK", lambda: f"https://api.vercel.com/v1/integrations/deploy/prj_{al(28)}/{al(10)}"))
V("gitlab-webhook-token", "GitLab webhook", None, "webhook", ("GITLAB_WEBHOOK_TOKEN", lambda: al(32)))
V("uptimerobot-api-key", "UptimeRobot", "api.uptimerobot.com", "observability", ("UPTIMEROBOT_API_KEY", lambda: "u" + dg1(7) + "-" + hx(24)))
V("cloudinary-url", "Cloudinary", None, "saas", ("CLOUDINARY_URL", lambda: f"cloudinary://{dg1(15)}:{b64u(27)}@{pick(COMPANIES)}"))
V("imgur-client-secret", "Imgur", "api.imgur.com", "saas", ("IMGUR_CLIENT_ID", lambda: hx(15)), ("IMGUR_CLIENT_SECRET", lambda: hx(40)))
V("recaptcha-secret-key", "reCAPTCHA (server secret)", "www.google.com/recaptcha", "saas", ("RECAPTCHA_SECRET_KEY", lambda: "6L" + b64u(6) + "AAAAA" + b64u(27)))
V("hcaptcha-secret", "hCaptcha", "api.hcaptcha.com", "saas", ("HCAPTCHA_SECRET", lambda: "0x" + hx(40)))
V("mapbox-download-token", "Mapbox SDK download", "api.mapbox.com", "saas", ("MAPBOX_DOWNLOADS_TOKEN", lambda: "sk.eyJ1Ijoi" + b64u(50) + "." + b64u(22)))
V("yandex-api-key", "Yandex Cloud", "iam.api.cloud.yandex.net", "cloud", ("YC_API_KEY", lambda: "AQVN" + b64u(36)))
V("telnyx-api-key", "Telnyx", "api.telnyx.com", "messaging", ("TELNYX_API_KEY", lambda: "KEY" + HX(32) + "_" + al(22)))
V("plivo-auth-token", "Plivo", "api.plivo.com", "messaging", ("PLIVO_AUTH_ID", lambda: "MA" + rs(UPNUM, 18)), ("PLIVO_AUTH_TOKEN", lambda: al(40)))
V("sinch-api-token", "Sinch", "sms.api.sinch.com", "messaging", ("SINCH_SERVICE_PLAN_ID", lambda: hx(32)), ("SINCH_API_TOKEN", lambda: hx(32)))
# ---- crypto exchanges / web3
V("binance-api-secret", "Binance", "api.binance.com", "crypto", ("BINANCE_API_KEY", lambda: al(64)), ("BINANCE_API_SECRET", lambda: al(64)))
V("coinbase-cdp-api-key", "Coinbase CDP", "api.coinbase.com", "crypto", ("COINBASE_API_KEY_NAME", lambda: f"organizations/{uuid4()}/apiKeys/{uuid4()}"), ("COINBASE_API_PRIVATE_KEY", pem_ec))
V("kraken-api-secret", "Kraken", "api.kraken.com", "crypto", ("KRAKEN_API_KEY", lambda: b64s(56)), ("KRAKEN_PRIVATE_KEY", lambda: b64bytes(64)))
V("bybit-api-secret", "Bybit", "api.bybit.com", "crypto", ("BYBIT_API_KEY", lambda: al(18)), ("BYBIT_API_SECRET", lambda: al(36)))
V("okx-api-credentials", "OKX", "www.okx.com", "crypto", ("OKX_API_KEY", uuid4), ("OKX_SECRET_KEY", lambda: HX(32)), ("OKX_PASSPHRASE", lambda: password("word")))
V("kucoin-api-credentials", "KuCoin", "api.kucoin.com", "crypto", ("KUCOIN_KEY", lambda: hx(24)), ("KUCOIN_SECRET", uuid4), ("KUCOIN_PASSPHRASE", lambda: password("random")))
V("bitfinex-api-secret", "Bitfinex", "api.bitfinex.com", "crypto", ("BFX_API_KEY", lambda: al(43)), ("BFX_API_SECRET", lambda: al(43)))
V("gemini-exchange-secret", "Gemini exchange", "api.gemini.com", "crypto", ("GEMINI_API_KEY", lambda: "account-" + al(20)), ("GEMINI_API_SECRET", lambda: b58(28)))
V("bitstamp-api-secret", "Bitstamp", "www.bitstamp.net", "crypto", ("BITSTAMP_KEY", lambda: al(32)), ("BITSTAMP_SECRET", lambda: al(32)))
V("infura-api-secret", "Infura", "mainnet.infura.io", "crypto", ("INFURA_API_KEY", lambda: hx(32)), ("INFURA_API_KEY_SECRET", lambda: hx(32)))
V("alchemy-api-key", "Alchemy", "eth-mainnet.g.alchemy.com", "crypto", ("ALCHEMY_RPC_URL", lambda: "https://eth-mainnet.g.alchemy.com/v2/" + b64u(32)))
V("etherscan-api-key", "Etherscan", "api.etherscan.io", "crypto", ("ETHERSCAN_API_KEY", lambda: rs(UPNUM, 34)))
V("moralis-api-key", "Moralis", "deep-index.moralis.io", "crypto", ("MORALIS_API_KEY", lambda: jwt({"nonce": uuid4(), "orgId": dg1(6), "userId": dg1(6), "typeId": uuid4(), "type": "PROJECT", "iat": ri(1700000000, 1760000000), "exp": 4870000000})))
V("quicknode-endpoint", "QuickNode", None, "crypto", ("QUICKNODE_URL", lambda: f"https://{pick(BIP39)}-{pick(BIP39)}-{pick(BIP39)}.quiknode.pro/{hx(40)}/"))
# ---- private keys, wallets, tokens
V("pem-rsa-private-key", "RSA private key", None, "keys", ("PRIVATE_KEY", pem_rsa))
V("pem-ec-private-key", "EC private key", None, "keys", ("EC_PRIVATE_KEY", pem_ec))
V("pem-pkcs8-private-key", "PKCS#8 private key", None, "keys", ("TLS_KEY", pem_pkcs8))
V("pem-encrypted-private-key", "encrypted private key + passphrase", None, "keys", ("KEY_PASSPHRASE", lambda: password("phrase")), ("ENCRYPTED_KEY", pem_pkcs8_enc))
V("openssh-private-key", "OpenSSH private key", None, "keys", ("SSH_PRIVATE_KEY", openssh_key))
V("pgp-private-key", "PGP private key", None, "keys", ("GPG_PRIVATE_KEY", pgp_private))
V("putty-private-key", "PuTTY private key", None, "keys", ("PPK", putty_ppk))
V("age-secret-key", "age", None, "keys", ("SOPS_AGE_KEY", age_key))
V("wireguard-private-key", "WireGuard", None, "keys", ("WG_PRIVATE_KEY", wg_key), ("WG_ENDPOINT", lambda: f"vpn.{domain()}:51820"))
V("ethereum-private-key", "Ethereum wallet", None, "crypto", ("ETH_PRIVATE_KEY", lambda: "0x" + hx(64)))
V("bitcoin-wif-private-key", "Bitcoin wallet", None, "crypto", ("BTC_WIF", btc_wif))
V("bip32-xprv", "HD wallet", None, "crypto", ("XPRV", xprv))
V("solana-keypair", "Solana keypair", None, "crypto", ("SOLANA_KEYPAIR", lambda: json.dumps([R.getrandbits(8) for _ in range(64)], separators=(",", ":"))))
V("tron-private-key", "TRON wallet", None, "crypto", ("TRON_PRIVATE_KEY", lambda: hx(64)))
V("jwt-bearer-token", "JWT bearer", None, "tokens", ("AUTH_BEARER", jwt))
V("jwt-signing-secret", "JWT HS256 secret", None, "tokens", ("JWT_SECRET", lambda: b64s(ri(44, 64))))
V("session-cookie", "web session cookie", None, "tokens", ("Cookie", lambda: pick([f"sessionid={lo(32)}", f"connect.sid=s%3A{b64u(32)}.{b64u(43)}", f"_gh_sess={b64s(ri(180, 240))}", f"laravel_session=eyJpdiI6{b64s(140)}", f"PHPSESSID={lo(26)}", f"JSESSIONID={HX(32)}", f"__Secure-next-auth.session-token={jwt()}"])))
V("rails-secret-key-base", "Rails", None, "tokens", ("SECRET_KEY_BASE", lambda: hx(128)))
V("rails-master-key", "Rails credentials", None, "tokens", ("RAILS_MASTER_KEY", lambda: hx(32)))
V("django-secret-key", "Django", None, "tokens", ("DJANGO_SECRET_KEY", lambda: "django-insecure-" + rs(LOW + DIG + "!@#$%^&*(-_=+)", 50) if chance(0.3) else rs(LOW + DIG + "!@#$%^&*(-_=+)", 50)))
V("flask-secret-key", "Flask", None, "tokens", ("FLASK_SECRET_KEY", lambda: hx(64)))
V("nextauth-secret", "NextAuth", None, "tokens", ("NEXTAUTH_SECRET", lambda: b64bytes(32)))
V("laravel-app-key", "Laravel", None, "tokens", ("APP_KEY", lambda: "base64:" + b64bytes(32)))
V("basic-auth-header", "HTTP Basic auth", None, "tokens", ("Authorization", lambda: "Basic " + base64.b64encode((username() + ":" + password()).encode()).decode()))
V("kubeconfig-token", "Kubernetes", None, "tokens", ("KUBE_TOKEN", lambda: jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": pick(["default", "ci", "prod"]), "kubernetes.io/serviceaccount/secret.name": "deployer-token-" + lo(5), "kubernetes.io/serviceaccount/service-account.name": "deployer", "sub": "system:serviceaccount:ci:deployer"}, alg="RS256")))
V("kubeconfig-client-key", "Kubernetes", None, "tokens", ("client-key-data", lambda: base64.b64encode(pem_ec().encode()).decode()))
V("netrc-credentials", ".netrc", None, "tokens", ("netrc", lambda: f"machine {pick(['api.heroku.com', 'github.com', 'git.' + domain(), 'urs.earthdata.nasa.gov'])} login {email_addr()} password {pick([al(36), password()])}"))
V("pgpass-line", ".pgpass", None, "db", ("pgpass", lambda: f"{hostname()}:5432:*:{username()}:{password('random')}"))
V("git-credentials-url", "git credential store", None, "tokens", ("git-credentials", lambda: f"https://{username()}:{pick(['ghp_' + al(36), 'glpat-' + b64u(20), password('random')])}@{pick(['github.com', 'gitlab.com', 'git.' + domain()])}"))
V("npmrc-auth-token", ".npmrc", None, "registry", ("npmrc", lambda: f"//{pick(['registry.npmjs.org', 'npm.pkg.github.com', 'gitlab.com/api/v4/packages/npm'])}/:_authToken={pick(['npm_' + al(36), 'ghp_' + al(36), 'glpat-' + b64u(20)])}"))
V("pip-index-url-credentials", "private PyPI index", None, "registry", ("PIP_EXTRA_INDEX_URL", lambda: f"https://{username()}:{al(24)}@pypi.{domain()}/simple/"))
V("sshpass-command", "sshpass", None, "tokens", ("cmd", lambda: f"sshpass -p '{password()}' ssh {pick(['root', 'ubuntu', 'admin', 'pi'])}@{ri(10, 192)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}"))
V("totp-seed-uri", "TOTP seed", None, "tokens", ("otpauth", lambda: f"otpauth://totp/{pick(['GitHub', 'AWS', 'Google', 'Binance', 'Okta', domain()])}:{email_addr()}?secret={rs(B32C, 32)}&issuer={pick(['GitHub', 'Amazon', 'Google', 'Binance'])}"))
V("totp-base32-secret", "TOTP seed", None, "tokens", ("TOTP_SECRET", lambda: " ".join(rs(B32C.lower(), 4) for _ in range(8))))
V("github-recovery-codes", "GitHub recovery codes", None, "tokens", ("codes", lambda: "\n".join(lo(5) + "-" + lo(5) for _ in range(ri(8, 16)))))
V("apple-app-specific-password", "Apple ID app-specific password", None, "tokens", ("APPLE_APP_PASSWORD", lambda: "-".join(rs(LOW, 4) for _ in range(4))))
V("google-app-password", "Google app password", None, "tokens", ("GMAIL_APP_PASSWORD", lambda: " ".join(rs(LOW, 4) for _ in range(4))))
V("apns-auth-key", "Apple APNs .p8 key", None, "keys", ("APNS_KEY_ID", lambda: rs(UPNUM, 10)), ("APNS_TEAM_ID", lambda: rs(UPNUM, 10)), ("APNS_AUTH_KEY", pem_pkcs8))
V("oauth-client-secret-generic", "OAuth client", None, "tokens", ("OAUTH_CLIENT_ID", lambda: lo(20)), ("OAUTH_CLIENT_SECRET", lambda: b64u(48)))
V("gcp-service-account-json", "GCP service account", None, "cloud", ("GOOGLE_APPLICATION_CREDENTIALS_JSON", lambda: json.dumps({"type": "service_account", "project_id": pick(COMPANIES) + "-" + dg(6), "private_key_id": hx(40), "private_key": pem_pkcs8().replace("-----BEGIN PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----").strip() + "\n", "client_email": f"{pick(['ci', 'etl', 'backup'])}@{pick(COMPANIES)}-{dg(6)}.iam.gserviceaccount.com", "client_id": dg1(21), "token_uri": "https://oauth2.googleapis.com/token"})))
V("firebase-admin-sdk-key", "Firebase Admin SDK", None, "cloud", ("FIREBASE_PRIVATE_KEY_ID", lambda: hx(40)), ("FIREBASE_CLIENT_EMAIL", lambda: f"firebase-adminsdk-{lo(5)}@{pick(COMPANIES)}-app.iam.gserviceaccount.com"), ("FIREBASE_PRIVATE_KEY", pem_pkcs8))
V("ansible-vault-password", "Ansible Vault password", None, "tokens", ("ANSIBLE_VAULT_PASSWORD", lambda: password(pick(["phrase", "long"]))))
V("sops-pgp-key", "SOPS age/PGP", None, "keys", ("SOPS_AGE_KEY_FILE_CONTENT", lambda: f"# created: {rdate()}T{rtime()}Z\n# public key: age1{rs(BECH, 58)}\n{age_key()}"))
V("encryption-master-key", "app encryption key", None, "tokens", ("ENCRYPTION_KEY", lambda: pick([hx(64), b64bytes(32)])))
V("cookie-signing-secret", "cookie signing", None, "tokens", ("COOKIE_SECRET", lambda: al(ri(32, 48))))
V("saml-idp-private-key", "SAML signing key", None, "keys", ("SAML_SIGNING_KEY", pem_rsa))
V("tls-server-key", "TLS server key", None, "keys", ("ssl_certificate_key", pem_ec))
V("minio-root-credentials", "MinIO", None, "cloud", ("MINIO_ROOT_USER", lambda: pick(["minioadmin", "admin", "root"]) + dg(2)), ("MINIO_ROOT_PASSWORD", lambda: al(24)))
V("grafana-admin-password", "Grafana admin", None, "observability", ("GF_SECURITY_ADMIN_PASSWORD", lambda: password("random")))
V("portainer-api-key", "Portainer", None, "cloud", ("PORTAINER_API_KEY", lambda: "ptr_" + b64s(43) + "="))
V("proxmox-api-token", "Proxmox", None, "cloud", ("PM_API_TOKEN_ID", lambda: "terraform@pve!" + pick(["tf", "ci"])), ("PM_API_TOKEN_SECRET", uuid4))
V("tailscale-auth-key", "Tailscale", "login.tailscale.com", "cloud", ("TS_AUTHKEY", lambda: "tskey-auth-" + al(12) + "CNTRL-" + al(33)))
V("tailscale-api-key", "Tailscale", "api.tailscale.com", "cloud", ("TAILSCALE_API_KEY", lambda: "tskey-api-" + al(12) + "CNTRL-" + al(33)))
V("zerotier-api-token", "ZeroTier", "api.zerotier.com", "cloud", ("ZEROTIER_TOKEN", lambda: al(32)))
V("openvpn-credentials", "OpenVPN auth-user-pass", None, "cloud", ("auth.txt", lambda: username() + "\n" + password("random")))
V("unifi-controller-login", "UniFi controller", None, "saas", ("UNIFI_USER", username), ("UNIFI_PASSWORD", lambda: password()))
V("synology-admin-login", "Synology DSM", None, "saas", ("DSM_URL", lambda: f"https://nas.{domain()}:5001"), ("DSM_USER", username), ("DSM_PASS", lambda: password()))
V("mqtt-broker-credentials", "MQTT broker", None, "saas", ("MQTT_URL", lambda: f"mqtts://{username()}:{password('random')}@mqtt.{domain()}:8883"))
V("router-admin-password", "router admin", None, "saas", ("router", lambda: f"admin / {password('random')} @ http://192.168.{ri(0, 2)}.1"))
V("esp-home-api-key", "ESPHome API encryption key", None, "saas", ("api_encryption_key", lambda: b64bytes(32)))
V("shopware-integration-secret", "Shopware", None, "saas", ("SW_ACCESS_KEY_ID", lambda: "SWIA" + up(22)), ("SW_SECRET_ACCESS_KEY", lambda: al(54)))
V("magento-integration-token", "Magento/Adobe Commerce", None, "saas", ("MAGENTO_ACCESS_TOKEN", lambda: lo(32)))
V("woocommerce-consumer-secret", "WooCommerce", None, "saas", ("WC_CONSUMER_KEY", lambda: "ck_" + hx(40)), ("WC_CONSUMER_SECRET", lambda: "cs_" + hx(40)))
V("bigcommerce-access-token", "BigCommerce", "api.bigcommerce.com", "saas", ("BC_ACCESS_TOKEN", lambda: lo(31)))
V("square-sandbox-token", "Square sandbox", "connect.squareupsandbox.com", "payments", ("SQUARE_SANDBOX_TOKEN", lambda: "EAAAE" + b64u(59)))
V("gitea-token", "Gitea", None, "ci", ("GITEA_TOKEN", lambda: hx(40)))
V("sourcegraph-token", "Sourcegraph", "sourcegraph.com", "ci", ("SRC_ACCESS_TOKEN", lambda: "sgp_" + hx(16) + "_" + hx(40)))
V("harness-pat", "Harness", "app.harness.io", "ci", ("HARNESS_API_KEY", lambda: "pat." + b64u(22) + "." + hx(24) + "." + al(20)))
V("launchable-token", "CI analytics token", None, "ci", ("LAUNCHABLE_TOKEN", lambda: "v1:" + pick(COMPANIES) + "/ci:" + lo(40)))
V("deno-deploy-token", "Deno Deploy", "dash.deno.com", "cloud", ("DENO_DEPLOY_TOKEN", lambda: "ddp_" + al(36)))
V("bun-npm-token", "Bunfig registry token", None, "registry", ("BUN_AUTH_TOKEN", lambda: "npm_" + al(36)))
V("jetbrains-space-token", "JetBrains Space", None, "ci", ("SPACE_TOKEN", lambda: jwt({"sub": uuid4(), "aud": "circlet-web-ui", "orgDomain": pick(COMPANIES), "iat": ri(1700000000, 1760000000)}, alg="RS512")))
V("contentstack-management-token", "Contentstack", None, "saas", ("CS_MANAGEMENT_TOKEN", lambda: "cs" + hx(32)))
V("storyblok-token", "Storyblok management", None, "saas", ("STORYBLOK_OAUTH_TOKEN", lambda: b64u(44) + "-" + dg1(6) + "-" + b64u(20)))
V("mux-token-secret", "Mux", "api.mux.com", "saas", ("MUX_TOKEN_ID", uuid4), ("MUX_TOKEN_SECRET", lambda: b64s(75)))
V("vimeo-access-token", "Vimeo", "api.vimeo.com", "saas", ("VIMEO_ACCESS_TOKEN", lambda: hx(32)))
V("youtube-oauth-refresh", "YouTube Data API OAuth", "oauth2.googleapis.com", "saas", ("YT_REFRESH_TOKEN", lambda: "1//09" + b64u(98)))
V("strava-refresh-token", "Strava", "www.strava.com", "saas", ("STRAVA_REFRESH_TOKEN", lambda: hx(40)))
V("fitbit-oauth-token", "Fitbit", "api.fitbit.com", "saas", ("FITBIT_ACCESS_TOKEN", lambda: jwt({"aud": up(6), "sub": up(6), "iss": "Fitbit", "typ": "access_token", "scopes": "rhr rsle rwei rpro", "exp": ri(1750000000, 1800000000), "iat": ri(1700000000, 1750000000)})))
V("todoist-api-token", "Todoist", "api.todoist.com", "saas", ("TODOIST_TOKEN", lambda: hx(40)))
V("readwise-token", "Readwise", "readwise.io", "saas", ("READWISE_TOKEN", lambda: al(50)))
V("pocketbase-admin", "PocketBase admin", None, "db", ("PB_ADMIN_EMAIL", email_addr), ("PB_ADMIN_PASSWORD", lambda: password("random")))
V("directus-static-token", "Directus", None, "saas", ("DIRECTUS_TOKEN", lambda: b64u(32)))
V("keycloak-client-secret", "Keycloak", None, "saas", ("KEYCLOAK_CLIENT_ID", lambda: pick(["backend", "gateway", "admin-cli"])), ("KEYCLOAK_CLIENT_SECRET", lambda: al(32)))
V("clerk-secret-key", "Clerk", "api.clerk.com", "saas", ("CLERK_SECRET_KEY", lambda: "sk_live_" + al(46)))
V("stytch-secret", "Stytch", "api.stytch.com", "saas", ("STYTCH_PROJECT_ID", lambda: "project-live-" + uuid4()), ("STYTCH_SECRET", lambda: "secret-live-" + b64u(36) + "="))
V("workos-api-key", "WorkOS", "api.workos.com", "saas", ("WORKOS_API_KEY", lambda: "sk_" + al(58)))
V("magic-link-secret", "Magic", "api.magic.link", "saas", ("MAGIC_SECRET_KEY", lambda: "sk_live_" + HX(16)))
V("convex-deploy-key", "Convex", None, "db", ("CONVEX_DEPLOY_KEY", lambda: "prod:" + pick(BIP39) + "-" + pick(BIP39) + "-" + dg(3) + "|" + b64u(80)))
V("xata-api-key", "Xata", None, "db", ("XATA_API_KEY", lambda: "xau_" + al(32)))
V("fauna-secret", "Fauna", "db.fauna.com", "db", ("FAUNA_SECRET", lambda: "fnA" + b64u(37)))
V("hasura-admin-secret", "Hasura", None, "db", ("HASURA_GRAPHQL_ADMIN_SECRET", lambda: al(ri(32, 64))))
V("appwrite-api-key", "Appwrite", None, "db", ("APPWRITE_API_KEY", lambda: "standard_" + hx(256)))
V("sentry-dsn-with-secret", "Sentry legacy DSN (secret)", None, "observability", ("SENTRY_DSN", lambda: f"https://{hx(32)}:{hx(32)}@o{dg1(6)}.ingest.sentry.io/{dg1(7)}"))

# ================================================================ containers for vendor credentials
RAW_VARS = {"Cookie", "Authorization", "netrc", "pgpass", "git-credentials", "npmrc", "cmd", "otpauth", "codes",
            "router", "auth.txt", "PPK", "client-key-data", "api_encryption_key", "ssl_certificate_key", "host",
            "client_secret", "access_token", "client_token"}
EXTRA_ENV = [("NODE_ENV", "production"), ("PORT", "8080"), ("LOG_LEVEL", "info"), ("REGION", "eu-west-1"),
             ("DEBUG", "false"), ("APP_NAME", "billing-worker"), ("TZ", "Europe/Berlin"), ("WORKERS", "4"),
             ("FEATURE_FLAGS", "search,beta-ui"), ("CACHE_TTL", "300"), ("SENTRY_ENVIRONMENT", "prod"),
             ("HTTP_TIMEOUT", "30"), ("PUBLIC_URL", "https://app.example.org"), ("RETRIES", "3")]


def multiline(v):
    return "\n" in v


def lower_var(v):
    return v.lower().replace("-", "_").replace(".", "_")


def camel(v):
    parts = lower_var(v).split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def main_pair(pairs):
    # the most "secret" looking pair: prefer names with SECRET/TOKEN/KEY/PASSWORD, else longest
    for p in reversed(pairs):
        n = p[0].upper()
        if any(w in n for w in ("SECRET", "TOKEN", "PASSWORD", "PASS", "PRIVATE", "AUTH", "KEY", "URL", "URI", "DSN", "CONN", "HOOK")):
            return p
    return max(pairs, key=lambda p: len(p[1]))


def extras(n):
    return sample(EXTRA_ENV, n)


def r_env(f, pairs):
    lines = []
    if chance(0.5):
        lines.append(pick(["# " + f["label"], f"# {f['label']} ({pick(['prod', 'live', 'production', 'staging'])})", "## secrets – do not commit",
                           f"# rotated {rdate(2024, 2026)}", "# copied from the old server"]))
    ex = extras(ri(0, 3))
    items = [(k, v) for k, v in ex[: len(ex) // 2]] + list(pairs) + [(k, v) for k, v in ex[len(ex) // 2:]]
    exp = chance(0.25)
    q = pick(["", "", '"', "'"])
    for k, v in items:
        if multiline(v):
            v = '"' + v.replace("\n", "\\n") + '"'
            lines.append(("export " if exp else "") + f"{k}={v}")
        else:
            lines.append(("export " if exp else "") + f"{k}={q}{v}{q}")
    return "\n".join(lines)


def r_yaml(f, pairs):
    top = pick([slug(f["label"]) or "service", "secrets", "credentials", "integrations", "config"])
    out = [f"{top}:"]
    if chance(0.3):
        out = [pick(["# values for prod", "---", "# helm values override"]), f"{top}:"]
    if chance(0.4):
        out.append(f"  enabled: true")
    for k, v in pairs:
        key = lower_var(k)
        if multiline(v):
            out.append(f"  {key}: |")
            out.extend("    " + ln for ln in v.split("\n"))
        else:
            out.append(f"  {key}: {json.dumps(v, ensure_ascii=False) if chance(0.4) else v}")
    if chance(0.4):
        out.append(f"  timeout: {ri(5, 60)}s")
    return "\n".join(out)


def r_json(f, pairs):
    style = pick(["flat", "nested", "camel", "list"])
    if style == "flat":
        d = {lower_var(k): v for k, v in pairs}
        if chance(0.5):
            d = {"service": f["label"], **d}
        return d
    if style == "camel":
        return {camel(k): v for k, v in pairs} | ({"env": pick(["prod", "live", "staging"])} if chance(0.5) else {})
    if style == "list":
        return {"integration": f["label"], "fields": [{"name": k, "value": v} for k, v in pairs], "updated": rdate(2024, 2026)}
    return {"integrations": {slug(f["label"]) or "svc": {lower_var(k): v for k, v in pairs}}, "version": ri(1, 4)}


def r_toml(f, pairs):
    sec = pick([slug(f["label"]) or "service", "secrets", "auth", "providers." + (slug(f["label"]) or "x")])
    out = [f"[{sec}]"]
    for k, v in pairs:
        if multiline(v):
            out.append(f'{lower_var(k)} = """\n{v}\n"""')
        else:
            out.append(f'{lower_var(k)} = "{v}"')
    if chance(0.5):
        out.insert(0, pick(['title = "deploy config"', "# config.toml", '[server]\nport = 8080\n']))
    return "\n".join(out)


def r_ini(f, pairs):
    out = [f"[{pick([f['label'], slug(f['label']), 'credentials', 'default', 'prod'])}]"]
    for k, v in pairs:
        out.append(f"{lower_var(k)} {pick(['=', ' = ', '='])} {v.replace(chr(10), chr(10) + '    ')}".replace("  =  ", " = "))
    return "\n".join(out)


def r_properties(f, pairs):
    pre = pick(["app", "spring", "integration", "com." + pick(COMPANIES)])
    out = [f"# {f['label']}"] if chance(0.5) else []
    for k, v in pairs:
        out.append(f"{pre}.{(slug(f['label']) or 'svc')}.{lower_var(k).replace('_', '-')}={v.replace(chr(10), chr(92) + 'n')}")
    return "\n".join(out)


def r_xml(f, pairs):
    out = ["<appSettings>"]
    for k, v in pairs:
        out.append(f'  <add key="{k}" value="{v.replace(chr(10), "&#10;")}" />')
    out.append("</appSettings>")
    return "\n".join(out)


def esc(v, q='"'):
    return v.replace("\\", "\\\\").replace(q, "\\" + q).replace("\n", "\\n")


def r_code(lang, f, pairs):
    k, v = main_pair(pairs)
    others = [p for p in pairs if p != (k, v)]
    if lang == "python":
        lines = ["import os", ""] if chance(0.4) else []
        for ok, ov in others:
            lines.append(f'{ok} = "{esc(ov)}"')
        lines.append(pick([f'{k} = "{esc(v)}"  # TODO move to vault', f'os.environ["{k}"] = "{esc(v)}"',
                           f'client = {(slug(f["label"]) or "api").capitalize()}Client(api_key="{esc(v)}")',
                           f'headers = {{"Authorization": "Bearer {esc(v)}"}}', f'{lower_var(k)} = os.getenv("{k}", "{esc(v)}")']))
        return "\n".join(lines)
    if lang == "js":
        lines = [f"const {camel(ok)} = '{esc(ov, chr(39))}';" for ok, ov in others]
        lines.append(pick([f"const {camel(k)} = '{esc(v, chr(39))}';", f"process.env.{k} ??= \"{esc(v)}\";",
                           f"export const config = {{ {camel(k)}: `{esc(v, '`')}` }};",
                           f"fetch(url, {{ headers: {{ Authorization: `Bearer {esc(v, '`')}` }} }})"]))
        return "\n".join(lines)
    if lang == "go":
        lines = ["const ("] + [f'\t{camel(ok).capitalize()} = "{esc(ov)}"' for ok, ov in others] + [f'\t{camel(k).capitalize()} = "{esc(v)}"', ")"]
        return "\n".join(lines) if chance(0.5) else f'req.Header.Set("Authorization", "Bearer {esc(v)}")'
    if lang == "ruby":
        return "\n".join([f"ENV['{ok}'] ||= '{esc(ov, chr(39))}'" for ok, ov in others] + [f"{lower_var(k)} = '{esc(v, chr(39))}'"])
    if lang == "java":
        return "\n".join([f'private static final String {ok.upper().replace("-", "_").replace(".", "_")} = "{esc(ov)}";' for ok, ov in others] +
                         [f'private static final String {k.upper().replace("-", "_").replace(".", "_")} = "{esc(v)}";'])
    if lang == "csharp":
        return "\n".join([f'var {camel(ok)} = "{esc(ov)}";' for ok, ov in others] + [f'builder.Configuration["{k}"] = "{esc(v)}";'])
    if lang == "php":
        return "<?php\n" + "\n".join([f"define('{ok.upper()}', '{esc(ov, chr(39))}');" for ok, ov in others] + [f"define('{k.upper()}', '{esc(v, chr(39))}');"])
    if lang == "rust":
        return "\n".join([f'const {k.upper().replace("-", "_").replace(".", "_")}: &str = "{esc(v)}";'] + [f'let {lower_var(ok)} = "{esc(ov)}";' for ok, ov in others])
    if lang == "kotlin":
        return "\n".join([f'val {camel(ok)} = "{esc(ov)}"' for ok, ov in others] + [f'val {camel(k)} = "{esc(v)}"'])
    if lang == "swift":
        return "\n".join([f'let {camel(ok)} = "{esc(ov)}"' for ok, ov in others] + [f'let {camel(k)} = "{esc(v)}"'])
    if lang == "bash":
        return "\n".join(["#!/usr/bin/env bash", "set -euo pipefail"] + [f"export {ok}='{ov}'" for ok, ov in others] + [f"export {k}='{v}'", pick(["./deploy.sh", "python3 sync.py", "make release", "npm run publish"])])
    if lang == "powershell":
        return "\n".join([f"$env:{ok} = '{ov}'" for ok, ov in others] + [f"$env:{k} = '{v}'"])
    raise ValueError(lang)


def api_url(f):
    d = f.get("domain") or ("api." + domain())
    return "https://" + d + pick(["/v1/", "/v2/", "/api/", "/"]) + pick(["me", "users", "projects", "status", "messages", "charges", "items"])


def auth_header(k, v, pairs):
    if len(pairs) >= 2 and chance(0.3):
        a, b = pairs[0][1], pairs[-1][1]
        return "-u '" + a + ":" + b + "'"
    hn = pick(["Authorization: Bearer ", "Authorization: Bearer ", "X-API-Key: ", "Authorization: Token ", "X-Auth-Token: "])
    return f"-H '{hn}{v}'"


def r_curl(f, pairs):
    k, v = main_pair(pairs)
    if multiline(v):
        return r_note(f, pairs)
    cmd = f"curl -s {auth_header(k, v, pairs)} {api_url(f)}"
    if chance(0.4):
        cmd = f"curl -X POST {api_url(f)} \\\n  {auth_header(k, v, pairs)} \\\n  -H 'Content-Type: application/json' \\\n  -d '{{\"limit\": {ri(1, 100)}}}'"
    pre = pick(["", "", "works:\n", "$ ", "test call that finally worked -> ", "# smoke test\n"])
    return pre + cmd


def r_http(f, pairs):
    k, v = main_pair(pairs)
    if multiline(v):
        return r_yaml(f, pairs)
    d = f.get("domain") or ("api." + domain())
    path = pick(["/v1/me", "/api/items?page=2", "/v2/messages", "/graphql", "/v1/charges"])
    hv = pick([f"Authorization: Bearer {v}", f"X-Api-Key: {v}", f"Authorization: Token token={v}"])
    if k == "Cookie":
        hv = f"Cookie: {v}"
    if k == "Authorization":
        hv = f"Authorization: {v}"
    return f"{pick(['GET', 'POST', 'GET'])} {path} HTTP/1.1\nHost: {d}\n{hv}\nAccept: application/json\nUser-Agent: {pick(['python-requests/2.32.3', 'curl/8.5.0', 'okhttp/4.12.0'])}"


def r_log(f, pairs):
    k, v = main_pair(pairs)
    lvl = pick(["DEBUG", "INFO", "WARN", "ERROR"])
    ts = rts()
    v1 = v.replace("\n", "\\n")
    return pick([
        f"{ts} {lvl} [config] loaded {k}={v1} from environment",
        f"{ts} {lvl} request failed: 401 for {api_url(f)} (token={v1})",
        f"[{ts}] {lvl.lower()}: retrying with credentials {{'{lower_var(k)}': '{v1}'}}",
        f"{ts} pod/{pick(['worker', 'api', 'cron'])}-{lo(10)}-{lo(5)} {lvl} env dump: {' '.join(p[0] + '=' + p[1].replace(chr(10), chr(92) + 'n') for p in pairs)}",
        f"{lvl} {ts} {f['label']} client initialised with key {v1} (attempt {ri(1, 3)})",
    ])


def prose_pairs(pairs):
    if len(pairs) == 1:
        return pairs[0][1]
    return "\n".join(f"{k}: {v}" for k, v in pairs)


NOTE_LEADS = [
    "{label} creds for the {proj} project:\n{body}",
    "Saving this here so I stop asking: {label}\n{body}",
    "new {label} key after the rotation on {date}:\n{body}",
    "{body}\n^ {label}, {env}",
    "reminder - the {label} thing for {proj} uses\n{body}",
    "{label} ({env}) -> {body}",
    "Got the {label} credentials from {who} today.\n{body}\nexpires never apparently",
    "TODO put in 1password!! {label}:\n{body}",
    "{proj}: {label} access\n{body}",
    "{label} {env} — {body}",
]
CHAT_LEADS = [
    ("can you send me the {label} key for {proj}?", "here: {body}"),
    ("what's the {env} {label} token again", "{body}"),
    ("deploy is failing, missing {label} creds", "use these\n{body}"),
    ("do we have {label} access for {proj}?", "yep -> {body} (don't paste it in #general lol)"),
    ("pls share the {label} secret, mine expired", "{body}"),
]


def ctx_fill(s, f, body):
    return s.format(label=f["label"], body=body, proj=pick(["billing", "website", "mobile app", "data pipeline", "side project", "home lab", "onboarding bot", "shop", "newsletter"]),
                    env=pick(["prod", "live", "staging", "production", "main account"]), date=rdate(2024, 2026), who=pick(FIRST))


def r_note(f, pairs):
    return ctx_fill(pick(NOTE_LEADS), f, prose_pairs(pairs))


def r_chat(f, pairs):
    q, a = pick(CHAT_LEADS)
    a1, a2 = pick(FIRST), pick(FIRST)
    q = ctx_fill(q, f, "")
    a = ctx_fill(a, f, prose_pairs(pairs))
    if chance(0.5):
        return [{"from": a1, "text": q}, {"from": a2, "text": a}]
    t1 = ri(0, 23 * 60 - 30)
    t2 = t1 + ri(0, 25)
    return f"[{t1 // 60:02d}:{t1 % 60:02d}] {a1}: {q}\n[{t2 // 60:02d}:{t2 % 60:02d}] {a2}: {a}"


def r_ticket(f, pairs):
    tid = pick(["SUP", "OPS", "INC", "HELP", "IT"]) + "-" + dg1(ri(3, 5))
    body = prose_pairs(pairs)
    return pick([
        f"{tid}: {f['label']} integration broken\nCustomer pasted their credentials so we can reproduce:\n{body}\nPriority: {pick(['P2', 'P3', 'high', 'normal'])}",
        f"Ticket {tid} – {pick(['cannot connect', 'auth error 403', 'webhook not firing'])} ({f['label']})\nConfig attached by reporter:\n{body}",
        f"#{tid[-4:]} reopened. Reporter says this is the current value:\n{body}\nPlease test against {f.get('domain') or 'their endpoint'}.",
    ])


def r_email(f, pairs):
    n1, n2 = pick(FIRST), pick(FIRST)
    body = prose_pairs(pairs)
    return pick([
        f"Subject: {f['label']} access\n\nHi {n1},\n\nas discussed, here are the {f['label']} credentials for the {pick(['staging', 'prod', 'migration'])} setup:\n\n{body}\n\nBest,\n{n2}",
        f"From: {email_addr()}\nTo: {email_addr()}\nSubject: Re: keys\n\n{body}\n\nsent from my phone",
        f"Hello {n1}, please find the {f['label']} details below. Let me know if anything fails.\n{body}\n— {n2}",
    ])


def r_compose(f, pairs):
    svc = pick(["app", "worker", "api", "backend", "bot"])
    lines = ["services:", f"  {svc}:", f"    image: {pick(COMPANIES)}/{svc}:{ri(1, 9)}.{ri(0, 20)}", "    environment:"]
    for k, v in pairs:
        lines.append(f"      - {k}={v.replace(chr(10), chr(92) + 'n')}" if chance(0.5) else f"      {k}: \"{esc(v)}\"")
    return "\n".join(lines)


def r_k8s(f, pairs):
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {slug(f['label']) or 'app'}-credentials", "type: Opaque", "stringData:"]
    for k, v in pairs:
        if multiline(v):
            lines.append(f"  {lower_var(k)}: |")
            lines.extend("    " + x for x in v.split("\n"))
        else:
            lines.append(f"  {lower_var(k)}: \"{v}\"")
    return "\n".join(lines)


def r_k8s_data(f, pairs):
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {slug(f['label']) or 'app'}-secret", "  namespace: " + pick(["default", "prod", "ci"]), "data:"]
    for k, v in pairs:
        lines.append(f"  {k}: {base64.b64encode(v.encode()).decode()}")
    return "\n".join(lines)


def r_gha(f, pairs):
    lines = ["name: deploy", "on: [push]", "jobs:", "  release:", "    runs-on: ubuntu-latest", "    env:"]
    for k, v in pairs:
        lines.append(f"      {k}: {json.dumps(v)}")
    lines += ["    steps:", "      - uses: actions/checkout@v4", f"      - run: {pick(['make deploy', 'npm publish', './release.sh'])}"]
    return "\n".join(lines)


def r_terraform(f, pairs):
    k, v = main_pair(pairs)
    prov = slug(f["label"]) or "custom"
    lines = [f'provider "{prov}" {{']
    for ok, ov in pairs:
        lines.append(f'  {lower_var(ok)} = "{esc(ov)}"')
    lines.append("}")
    return "\n".join(lines)


def r_markdown(f, pairs):
    rows = "\n".join(f"| `{k}` | `{v.replace(chr(10), ' ')}` |" for k, v in pairs)
    return f"## {f['label']} setup\n\n| variable | value |\n|---|---|\n{rows}\n\nAsk {pick(FIRST)} before rotating."


def r_sql(f, pairs):
    k, v = main_pair(pairs)
    return f"INSERT INTO integration_credentials (provider, name, value, created_at) VALUES ('{slug(f['label'])}', '{k}', '{v.replace(chr(39), chr(39) * 2)}', '{rdate(2024, 2026)}');"


def r_jupyter(f, pairs):
    k, v = main_pair(pairs)
    return {"cell_type": "code", "execution_count": ri(1, 40), "source": [f"import os\n", f"os.environ['{k}'] = '{esc(v, chr(39))}'\n", f"client = init_client()\n"], "outputs": []}


def r_history(f, pairs):
    k, v = main_pair(pairs)
    n = ri(100, 2000)
    return "\n".join([f"  {n}  cd ~/src/{pick(COMPANIES)}", f"  {n + 1}  export {k}={v.replace(chr(10), chr(92) + 'n')}", f"  {n + 2}  {pick(['make test', 'git push', 'npm start', 'docker compose up -d'])}"])


def r_dockerfile(f, pairs):
    return "\n".join([f"FROM {pick(['python:3.12-slim', 'node:20-alpine', 'golang:1.22'])}", "WORKDIR /app"] +
                     [f"ENV {k}={json.dumps(v) if multiline(v) else v}" for k, v in pairs] + ["COPY . .", "CMD " + pick(['["python", "main.py"]', '["node", "server.js"]', '["./app"]'])])


# non-English short notes/chats for vendor credentials
VENDOR_L10N = {
    "de": ["{label}-Zugang für {p}:\n{body}", "Neuer {label} Key nach dem Wechsel:\n{body}\nbitte nicht ins Repo!", "Hier die Zugangsdaten ({label}):\n{body}"],
    "fr": ["Accès {label} pour {p} :\n{body}", "Nouvelle clé {label} (à ne pas partager) :\n{body}", "voilà les identifiants {label}\n{body}"],
    "es": ["Credenciales de {label} para {p}:\n{body}", "te paso la clave de {label}:\n{body}", "Clave nueva de {label}, la anterior ya no sirve:\n{body}"],
    "pt": ["Credenciais do {label} ({p}):\n{body}", "segue a chave do {label}:\n{body}"],
    "nl": ["{label} sleutel voor {p}:\n{body}", "Nieuwe inloggegevens {label}:\n{body}"],
    "it": ["Credenziali {label} per {p}:\n{body}", "ecco la chiave {label}:\n{body}"],
    "ja": ["{label}のAPIキー（{p}用）:\n{body}", "{label}の認証情報です。共有しないでください。\n{body}"],
    "pl": ["Dane dostępowe {label} do {p}:\n{body}", "nowy klucz {label}:\n{body}"],
    "zh": ["{label} 的密钥（{p}）：\n{body}", "新的 {label} token，别外传：\n{body}"],
    "ko": ["{label} 키 ({p}용):\n{body}", "{label} 토큰 새로 발급받음\n{body}"],
    "tr": ["{label} erişim bilgileri ({p}):\n{body}", "yeni {label} anahtarı:\n{body}"],
    "ru": ["Доступ к {label} для {p}:\n{body}", "новый ключ {label}, никому не показывай:\n{body}"],
}
L10N_PROJ = {"de": "den Shop", "fr": "la boutique", "es": "la tienda", "pt": "a loja", "nl": "de webshop", "it": "il negozio",
             "ja": "ショップ", "pl": "sklepu", "zh": "商城", "ko": "쇼핑몰", "tr": "mağaza", "ru": "магазина"}

CONTAINERS = [
    ("env", 14), ("yaml", 7), ("json", 12), ("toml", 3), ("ini", 3), ("properties", 2), ("xml", 1),
    ("code-python", 6), ("code-js", 5), ("code-go", 2), ("code-ruby", 1), ("code-java", 2), ("code-csharp", 1),
    ("code-php", 1), ("code-rust", 1), ("code-kotlin", 1), ("code-swift", 1), ("code-bash", 3), ("code-powershell", 1),
    ("curl", 5), ("http", 3), ("log", 4), ("ticket", 3), ("email", 4), ("chat", 7), ("note", 8),
    ("docker-compose", 2), ("k8s-secret", 2), ("k8s-secret-b64", 1), ("github-actions", 2), ("terraform", 1),
    ("markdown", 2), ("sql", 1), ("jupyter", 1), ("shell-history", 2), ("dockerfile", 1), ("chat-l10n", 4), ("note-l10n", 3),
]
RAW_OK = {"note", "chat", "ticket", "email", "log", "json", "yaml", "chat-l10n", "note-l10n", "http", "markdown"}


def weighted(items):
    tot = sum(w for _, w in items)
    x = R.uniform(0, tot)
    for it, w in items:
        x -= w
        if x <= 0:
            return it
    return items[-1][0]


def render_vendor(f):
    pairs = [(k, fn()) for k, fn in f["pairs"]]
    raw = any(k in RAW_VARS for k, _ in pairs)
    ml = any(multiline(v) for _, v in pairs)
    while True:
        c = weighted(CONTAINERS)
        if raw and c not in RAW_OK:
            continue
        if ml and c in ("curl", "http", "properties", "xml", "sql", "code-go", "shell-history", "log", "dockerfile") and chance(0.8):
            continue
        break
    lang = "-"
    if c == "env":
        v = r_env(f, pairs)
    elif c == "yaml":
        v = r_yaml(f, pairs)
    elif c == "json":
        v = r_json(f, pairs)
    elif c == "toml":
        v = r_toml(f, pairs)
    elif c == "ini":
        v = r_ini(f, pairs)
    elif c == "properties":
        v = r_properties(f, pairs)
    elif c == "xml":
        v = r_xml(f, pairs)
    elif c.startswith("code-"):
        v = r_code(c[5:], f, pairs)
    elif c == "curl":
        v = r_curl(f, pairs)
    elif c == "http":
        v = r_http(f, pairs)
    elif c == "log":
        v = r_log(f, pairs)
    elif c == "ticket":
        v, lang = r_ticket(f, pairs), "en"
    elif c == "email":
        v, lang = r_email(f, pairs), "en"
    elif c == "chat":
        v, lang = r_chat(f, pairs), "en"
    elif c == "note":
        v, lang = r_note(f, pairs), "en"
    elif c == "docker-compose":
        v = r_compose(f, pairs)
    elif c == "k8s-secret":
        v = r_k8s(f, pairs)
    elif c == "k8s-secret-b64":
        v = r_k8s_data(f, pairs)
    elif c == "github-actions":
        v = r_gha(f, pairs)
    elif c == "terraform":
        v = r_terraform(f, pairs)
    elif c == "markdown":
        v, lang = r_markdown(f, pairs), "en"
    elif c == "sql":
        v = r_sql(f, pairs)
    elif c == "jupyter":
        v = r_jupyter(f, pairs)
    elif c == "shell-history":
        v = r_history(f, pairs)
    elif c == "dockerfile":
        v = r_dockerfile(f, pairs)
    else:  # l10n
        lang = pick(list(VENDOR_L10N))
        t = pick(VENDOR_L10N[lang])
        v = t.format(label=f["label"], p=L10N_PROJ[lang], body=prose_pairs(pairs))
        if c == "chat-l10n":
            if chance(0.5):
                v = [{"from": pick(FIRST), "text": v}]
            c = "chat-" + lang
        else:
            c = "note-" + lang
    return v, c, lang

# ================================================================ multilingual personal secrets
PKINDS = ["password", "pin", "puk", "door", "alarm", "garage", "safe", "locker", "keybox", "wifi", "otp", "backup",
          "seed", "answer", "card", "gift", "bank"]
PKIND_NAME = {"password": "account-password", "pin": "card-pin", "puk": "sim-puk", "door": "door-code",
              "alarm": "alarm-code", "garage": "garage-code", "safe": "safe-combination", "locker": "locker-code",
              "keybox": "key-box-code", "wifi": "wifi-password", "otp": "one-time-code", "backup": "backup-codes",
              "seed": "seed-phrase", "answer": "security-answer", "card": "payment-card", "gift": "gift-card-code",
              "bank": "bank-login"}

L = {}


def lang(code, nouns, t, q, a, c, f, fill, ordn, nv):
    L[code] = dict(n=dict(zip(PKINDS, nouns.split("|"))), t=t, q=q, a=a, c=c, f=f, fill=fill, ord=ordn, nv=nv)


lang("en", "password|PIN|PUK|door code|alarm code|garage code|safe combination|locker code|key box code|wifi password|verification code|backup codes|recovery phrase|security answer|card number|gift card code|online banking login",
     ["{N} ({c}): {v}", "Don't forget - {N} for {c} is {v}", "{c}: {N} changed, now {v}", "Writing it down so I stop asking: {N} = {v}. Keep private!"],
     ["what was the {N} for {c} again?", "can you text me the {N} ({c})?"], ["{v}", "{v} - delete this after", "it's {v}"],
     ["grandma's", "the office", "the cabin", "the storage unit", "the gym", "the credit union", "dad's place"],
     ("For", "Note", "exp", "CVV"), ["Long day.", "Dentist tomorrow at 9.", "Picked up a parcel for the neighbour."],
     ["{p}'s birthday is on {d} - get the bird book.", "Physio appointment {d} with Dr. {p}.", "{p} can't eat nuts; likes spicy food."],
     ["Changed the {N} for {c} - the new one is in the password manager, not here.", "{p} asked for the {N} ({c}); told them I'd say it in person."])
lang("de", "Passwort|PIN|PUK|Türcode|Alarmanlagen-Code|Garagentor-Code|Tresor-Kombination|Spindcode|Schlüsselbox-Code|WLAN-Passwort|Bestätigungscode|Backup-Codes|Wiederherstellungsphrase|Antwort Sicherheitsfrage|Kartennummer|Gutscheincode|Online-Banking-Zugang",
     ["{N} {c}: {v}", "Nicht vergessen – {N} ({c}) ist {v}", "{c}: {N} geändert, jetzt {v}", "Zur Sicherheit notiert: {N} = {v}. Nicht weitergeben!"],
     ["Wie war nochmal {N} ({c})?", "Kannst du mir {N} für {c} schicken?"], ["{v}", "{v} – lösch die Nachricht danach 😉", "ist {v}"],
     ["Oma", "Büro", "Ferienwohnung", "Keller", "Fitnessstudio", "Sparkasse", "Papas Haus"],
     ("Wofür", "Notiz", "gültig bis", "Prüfnummer"), ["Heute endlich den Umzug erledigt.", "Morgen Termin beim Zahnarzt um 9.", "Paket für die Nachbarin angenommen."],
     ["{p} hat am {d} Geburtstag – Geschenk: Buch über Vögel.", "Termin Physiotherapie am {d} bei {p}.", "{p} verträgt keine Nüsse, mag es scharf."],
     ["{N} ({c}) geändert – das neue steht im Passwortmanager, nicht hier.", "{p} wollte {N} ({c}) wissen, sag ich lieber persönlich."])
lang("fr", "mot de passe|code PIN|code PUK|digicode|code de l'alarme|code du garage|combinaison du coffre|code du casier|code de la boîte à clés|mot de passe wifi|code de vérification|codes de secours|phrase de récupération|réponse à la question secrète|numéro de carte|code carte cadeau|identifiants banque en ligne",
     ["{N} ({c}) : {v}", "Ne pas oublier : {N} {c} = {v}", "Pour {c}, {N} c'est {v}", "{c} — {N} : {v} (ne le dis à personne)"],
     ["C'est quoi déjà, {N} pour {c} ?", "Tu peux m'envoyer {N} ({c}) ?"], ["{v}", "c'est {v} 😉", "{v}, efface le message après"],
     ["chez mamie", "le bureau", "l'appart de vacances", "la cave", "la salle de sport", "la banque", "chez papa"],
     ("Pour", "Remarque", "expire", "cryptogramme"), ["Journée chargée aujourd'hui.", "Dentiste demain à 9h.", "Colis récupéré pour la voisine."],
     ["Anniversaire de {p} le {d} – offrir le livre sur les oiseaux.", "Kiné le {d} avec {p}.", "{p} est allergique aux noix, aime épicé."],
     ["J'ai changé {N} ({c}) – le nouveau est dans le gestionnaire, pas ici.", "{p} m'a demandé {N} ({c}), je lui dirai de vive voix."])
lang("es", "contraseña|PIN|PUK|código del portal|código de la alarma|código del garaje|combinación de la caja fuerte|código de la taquilla|código del cajetín de llaves|contraseña del wifi|código de verificación|códigos de respaldo|frase de recuperación|respuesta de seguridad|número de tarjeta|código de la tarjeta regalo|acceso a la banca online",
     ["{N} ({c}): {v}", "Que no se me olvide: {N} de {c} = {v}", "{c} → {N}: {v}", "Apunto aquí {N} ({c}): {v}. ¡No compartir!"],
     ["¿Cuál era {N} de {c}?", "¿Me pasas {N} ({c})?"], ["{v}", "es {v}, bórralo luego", "{v} 👍"],
     ["casa de la abuela", "la oficina", "el apartamento de la playa", "el trastero", "el gimnasio", "el banco", "papá"],
     ("Para", "Nota", "caduca", "CVV"), ["Hoy por fin terminamos la mudanza.", "Mañana dentista a las 9.", "Recogí un paquete para la vecina."],
     ["El cumple de {p} es el {d}, regalarle el libro de pájaros.", "Fisio el {d} con {p}.", "{p} no puede comer frutos secos."],
     ["Cambié {N} ({c}); la nueva está en el gestor, no aquí.", "{p} me pidió {N} ({c}), se lo digo en persona."])
lang("it", "password|PIN|PUK|codice del portone|codice dell'allarme|codice del garage|combinazione della cassaforte|codice dell'armadietto|codice della keybox|password del wifi|codice di verifica|codici di backup|frase di recupero|risposta di sicurezza|numero della carta|codice buono regalo|accesso home banking",
     ["{N} ({c}): {v}", "Da ricordare: {N} {c} = {v}", "{c} – {N}: {v} (non dirlo a nessuno)", "Segno qui {N} per {c}: {v}"],
     ["Qual era {N} di {c}?", "Mi mandi {N} ({c})?"], ["{v}", "è {v}, poi cancella", "{v} 👍"],
     ["casa della nonna", "ufficio", "casa al mare", "cantina", "palestra", "banca", "papà"],
     ("Per", "Nota", "scadenza", "CVV"), ["Oggi finalmente finito il trasloco.", "Domani dentista alle 9.", "Ritirato un pacco per la vicina."],
     ["Compleanno di {p} il {d}: regalare il libro sugli uccelli.", "Fisioterapia il {d} da {p}.", "{p} è allergico alle noci."],
     ["Ho cambiato {N} ({c}), quella nuova è nel password manager.", "{p} mi ha chiesto {N} ({c}), glielo dico a voce."])
lang("pt", "senha|PIN|PUK|código do portão|código do alarme|código da garagem|combinação do cofre|código do armário|código do cofre de chaves|senha do wifi|código de verificação|códigos de backup|frase de recuperação|resposta de segurança|número do cartão|código do vale-presente|acesso ao internet banking",
     ["{N} ({c}): {v}", "Não esquecer: {N} de {c} = {v}", "{c} → {N}: {v}", "Anotando {N} ({c}): {v}. Não compartilhar!"],
     ["Qual era {N} de {c} mesmo?", "Me manda {N} ({c})?"], ["{v}", "é {v}, apaga depois", "{v} 👍"],
     ["casa da vó", "escritório", "casa de praia", "depósito", "academia", "banco", "pai"],
     ("Para", "Obs", "validade", "CVV"), ["Hoje finalmente terminamos a mudança.", "Amanhã dentista às 9h.", "Peguei uma encomenda para a vizinha."],
     ["Aniversário de {p} em {d} – comprar o livro de pássaros.", "Fisioterapia dia {d} com {p}.", "{p} não pode comer castanhas."],
     ["Troquei {N} ({c}); a nova está no gerenciador de senhas.", "{p} pediu {N} ({c}), vou falar pessoalmente."])
lang("nl", "wachtwoord|pincode|PUK-code|deurcode|alarmcode|garagecode|kluiscode|lockercode|sleutelkastje-code|wifi-wachtwoord|verificatiecode|back-upcodes|herstelzin|antwoord beveiligingsvraag|kaartnummer|cadeaukaartcode|inlog internetbankieren",
     ["{N} {c}: {v}", "Niet vergeten: {N} ({c}) is {v}", "{c} – {N}: {v}, niet doorsturen!", "Even opgeschreven, {N} voor {c}: {v}"],
     ["Wat was {N} van {c} ook alweer?", "Kun je me {N} ({c}) sturen?"], ["{v}", "is {v}, verwijder dit bericht daarna", "{v} 👍"],
     ["oma", "kantoor", "vakantiehuis", "berging", "sportschool", "bank", "pa"],
     ("Voor", "Notitie", "geldig tot", "CVC"), ["Vandaag eindelijk de verhuizing afgerond.", "Morgen om 9 uur naar de tandarts.", "Pakketje voor de buren aangenomen."],
     ["{p} is jarig op {d} – vogelboek kopen.", "Fysio op {d} bij {p}.", "{p} mag geen noten."],
     ["{N} ({c}) gewijzigd, de nieuwe staat in de wachtwoordmanager.", "{p} vroeg naar {N} ({c}), vertel ik persoonlijk."])
lang("sv", "lösenord|pinkod|PUK-kod|portkod|larmkod|garagekod|kassaskåpskod|skåpkod|nyckelboxkod|wifi-lösenord|verifieringskod|reservkoder|återställningsfras|svar på säkerhetsfråga|kortnummer|presentkortskod|inloggning internetbanken",
     ["{N} {c}: {v}", "Glöm inte: {N} ({c}) = {v}", "{c} – {N} är {v}", "Sparar här, {N} till {c}: {v}"],
     ["Vad var {N} till {c} nu igen?", "Kan du skicka {N} ({c})?"], ["{v}", "det är {v}, radera sen", "{v} 👍"],
     ["mormor", "jobbet", "sommarstugan", "förrådet", "gymmet", "banken", "pappa"],
     ("Till", "Anteckning", "giltigt t.o.m.", "CVC"), ["Idag blev flytten äntligen klar.", "Tandläkaren imorgon kl 9.", "Tog emot ett paket åt grannen."],
     ["{p} fyller år {d} – köp fågelboken.", "Sjukgymnast {d} hos {p}.", "{p} tål inte nötter."],
     ["Bytte {N} ({c}), det nya ligger i lösenordshanteraren.", "{p} frågade efter {N} ({c}), säger det personligen."])
lang("nb", "passord|PIN-kode|PUK-kode|dørkode|alarmkode|garasjekode|safekode|skapkode|nøkkelbokskode|wifi-passord|bekreftelseskode|reservekoder|gjenopprettingsfrase|svar på sikkerhetsspørsmål|kortnummer|gavekortkode|innlogging nettbank",
     ["{N} {c}: {v}", "Husk: {N} ({c}) er {v}", "{c} – {N}: {v}", "Skriver det ned her, {N} til {c}: {v}"],
     ["Hva var {N} til {c} igjen?", "Kan du sende meg {N} ({c})?"], ["{v}", "det er {v}, slett meldingen etterpå", "{v} 👍"],
     ["mormor", "kontoret", "hytta", "boden", "treningssenteret", "banken", "pappa"],
     ("Gjelder", "Notat", "utløper", "CVC"), ["I dag ble flyttingen endelig ferdig.", "Tannlege i morgen kl. 9.", "Tok imot en pakke for naboen."],
     ["{p} har bursdag {d} – kjøp fugleboka.", "Fysio {d} hos {p}.", "{p} tåler ikke nøtter."],
     ["Endret {N} ({c}), det nye ligger i passordbehandleren.", "{p} spurte om {N} ({c}), sier det ansikt til ansikt."])
lang("da", "adgangskode|pinkode|PUK-kode|dørkode|alarmkode|garagekode|pengeskabskode|skabskode|nøgleboks-kode|wifi-kode|bekræftelseskode|backupkoder|gendannelsessætning|svar på sikkerhedsspørgsmål|kortnummer|gavekortskode|netbank-login",
     ["{N} {c}: {v}", "Husk: {N} ({c}) er {v}", "{c} – {N}: {v}", "Noterer lige {N} til {c}: {v}"],
     ["Hvad var {N} til {c} nu igen?", "Kan du sende {N} ({c})?"], ["{v}", "det er {v}, slet beskeden bagefter", "{v} 👍"],
     ["farmor", "kontoret", "sommerhuset", "kælderen", "fitness", "banken", "far"],
     ("Til", "Note", "udløb", "CVC"), ["I dag blev flytningen endelig færdig.", "Tandlæge i morgen kl. 9.", "Tog imod en pakke til naboen."],
     ["{p} har fødselsdag {d} – køb fuglebogen.", "Fys {d} hos {p}.", "{p} kan ikke tåle nødder."],
     ["Skiftede {N} ({c}), den nye ligger i password-manageren.", "{p} spurgte efter {N} ({c}), siger det personligt."])
lang("fi", "salasana|PIN-koodi|PUK-koodi|ovikoodi|hälytyskoodi|autotallin koodi|kassakaapin koodi|kaapin koodi|avainlaatikon koodi|wifi-salasana|vahvistuskoodi|varakoodit|palautuslause|turvakysymyksen vastaus|kortin numero|lahjakortin koodi|verkkopankin tunnukset",
     ["{N} ({c}): {v}", "Muista: {N} ({c}) on {v}", "{c} – {N}: {v}", "Kirjaan ylös: {N}, {c}: {v}"],
     ["Mikä olikaan {N} ({c})?", "Voitko lähettää {N} ({c})?"], ["{v}", "se on {v}, poista viesti sitten", "{v} 👍"],
     ["mummola", "toimisto", "mökki", "varasto", "kuntosali", "pankki", "isä"],
     ("Kohde", "Muistiinpano", "voimassa", "CVV"), ["Tänään muutto vihdoin valmis.", "Huomenna hammaslääkäri klo 9.", "Otin vastaan paketin naapurille."],
     ["{p}:n syntymäpäivä {d} – osta lintukirja.", "Fysioterapia {d}, {p}.", "{p} ei voi syödä pähkinöitä."],
     ["Vaihdoin {N} ({c}), uusi on salasanojen hallinnassa.", "{p} kysyi {N} ({c}), kerron kasvotusten."])
lang("pl", "hasło|PIN|PUK|kod do domofonu|kod alarmu|kod do garażu|szyfr do sejfu|kod do szafki|kod do skrytki na klucze|hasło do wifi|kod weryfikacyjny|kody zapasowe|fraza odzyskiwania|odpowiedź na pytanie bezpieczeństwa|numer karty|kod karty podarunkowej|logowanie do banku",
     ["{N} ({c}): {v}", "Nie zapomnieć: {N} – {c} = {v}", "{c} → {N}: {v}", "Zapisuję tu {N} ({c}): {v}. Nikomu nie podawać!"],
     ["Przypomnisz mi: {N} ({c})?", "Możesz mi wysłać {N} ({c})?"], ["{v}", "to {v}, usuń potem wiadomość", "{v} 👍"],
     ["u babci", "biuro", "domek letniskowy", "piwnica", "siłownia", "bank", "tata"],
     ("Dotyczy", "Notatka", "ważna do", "CVV"), ["Dzisiaj w końcu skończyliśmy przeprowadzkę.", "Jutro dentysta o 9.", "Odebrałem paczkę dla sąsiadki."],
     ["Urodziny {p} {d} – kupić książkę o ptakach.", "Rehabilitacja {d} u {p}.", "{p} nie może jeść orzechów."],
     ["Zmieniłem {N} ({c}), nowe jest w menedżerze haseł.", "{p} pytał o {N} ({c}), powiem osobiście."])
lang("cs", "heslo|PIN|PUK|kód od dveří|kód alarmu|kód od garáže|kód od trezoru|kód od skříňky|kód od schránky na klíče|heslo k wifi|ověřovací kód|záložní kódy|obnovovací fráze|odpověď na bezpečnostní otázku|číslo karty|kód dárkové karty|přihlášení do bankovnictví",
     ["{N} ({c}): {v}", "Nezapomenout: {N} – {c} = {v}", "{c} → {N}: {v}", "Poznamenávám si {N} ({c}): {v}. Nikomu neříkat!"],
     ["Připomeneš mi {N} ({c})?", "Pošleš mi {N} ({c})?"], ["{v}", "je to {v}, pak to smaž", "{v} 👍"],
     ["u babičky", "kancelář", "chata", "sklep", "posilovna", "banka", "táta"],
     ("Pro", "Poznámka", "platnost", "CVV"), ["Dnes jsme konečně dokončili stěhování.", "Zítra zubař v 9.", "Převzal jsem balík pro sousedku."],
     ["{p} má narozeniny {d} – koupit knihu o ptácích.", "Rehabilitace {d} u {p}.", "{p} nesmí ořechy."],
     ["Změnil jsem {N} ({c}), nové je ve správci hesel.", "{p} chtěl {N} ({c}), řeknu mu to osobně."])
lang("hu", "jelszó|PIN-kód|PUK-kód|kapukód|riasztókód|garázskód|széf kombináció|szekrénykód|kulcsdoboz kód|wifi jelszó|ellenőrző kód|tartalék kódok|helyreállítási kifejezés|biztonsági kérdés válasza|kártyaszám|ajándékkártya kód|netbank belépés",
     ["{N} ({c}): {v}", "Ne felejtsem: {N} – {c} = {v}", "{c} → {N}: {v}", "Ide írom: {N} ({c}): {v}. Senkinek!"],
     ["Elküldenéd ezt: {N} ({c})?", "Emlékszel? {N} ({c})"], ["{v}", "{v}, utána töröld", "{v} 👍"],
     ["nagyi", "iroda", "nyaraló", "pince", "edzőterem", "bank", "apa"],
     ("Mihez", "Megjegyzés", "lejárat", "CVC"), ["Ma végre befejeztük a költözést.", "Holnap fogorvos 9-kor.", "Átvettem egy csomagot a szomszédnak."],
     ["{p} születésnapja {d} – madaras könyvet venni.", "Gyógytorna {d}, {p}.", "{p} nem ehet diót."],
     ["Megváltoztattam: {N} ({c}), az új a jelszókezelőben van.", "{p} kérdezte: {N} ({c}) – személyesen mondom meg."])
lang("ro", "parolă|PIN|PUK|cod interfon|cod alarmă|cod garaj|combinația seifului|cod dulăpior|cod cutie chei|parolă wifi|cod de verificare|coduri de rezervă|fraza de recuperare|răspuns la întrebarea de securitate|numărul cardului|cod card cadou|date internet banking",
     ["{N} ({c}): {v}", "De ținut minte: {N} – {c} = {v}", "{c} → {N}: {v}", "Notez aici {N} ({c}): {v}. Nu spune nimănui!"],
     ["Îmi mai zici o dată: {N} ({c})?", "Poți să-mi trimiți {N} ({c})?"], ["{v}", "e {v}, șterge mesajul după", "{v} 👍"],
     ["la bunica", "birou", "casa de vacanță", "boxa", "sala de sport", "banca", "tata"],
     ("Pentru", "Notă", "expiră", "CVV"), ["Azi am terminat în sfârșit mutarea.", "Mâine dentist la 9.", "Am primit un colet pentru vecină."],
     ["Ziua lui {p} e pe {d} – cartea cu păsări.", "Kinetoterapie pe {d} la {p}.", "{p} nu are voie nuci."],
     ["Am schimbat {N} ({c}), cea nouă e în managerul de parole.", "{p} a cerut {N} ({c}), îi spun personal."])
lang("tr", "şifre|PIN|PUK|kapı şifresi|alarm şifresi|garaj şifresi|kasa şifresi|dolap şifresi|anahtar kutusu şifresi|wifi şifresi|doğrulama kodu|yedek kodlar|kurtarma ifadesi|güvenlik sorusu cevabı|kart numarası|hediye kartı kodu|internet bankacılığı girişi",
     ["{N} ({c}): {v}", "Unutma: {c} {N} = {v}", "{c} → {N}: {v}", "Buraya not alıyorum, {c} {N}: {v}. Kimseyle paylaşma!"],
     ["{c} {N} neydi?", "{N} ({c}) atar mısın?"], ["{v}", "{v}, sonra mesajı sil", "{v} 👍"],
     ["babaannem", "ofis", "yazlık", "depo", "spor salonu", "banka", "babam"],
     ("Nerede", "Not", "son kullanma", "CVV"), ["Bugün nihayet taşınma bitti.", "Yarın saat 9'da dişçi.", "Komşu için kargo teslim aldım."],
     ["{p} doğum günü {d} – kuş kitabını al.", "Fizik tedavi {d}, {p}.", "{p} fındık yiyemiyor."],
     ["{N} ({c}) değiştirdim, yenisi şifre yöneticisinde.", "{p} {N} ({c}) sordu, yüz yüze söyleyeceğim."])
lang("ru", "пароль|ПИН-код|PUK-код|код домофона|код сигнализации|код от гаража|код сейфа|код шкафчика|код от ключницы|пароль от вайфая|код подтверждения|резервные коды|фраза восстановления|ответ на контрольный вопрос|номер карты|код подарочной карты|вход в онлайн-банк",
     ["{N} ({c}): {v}", "Не забыть: {N} — {c} = {v}", "{c} → {N}: {v}", "Записываю сюда {N} ({c}): {v}. Никому не говорить!"],
     ["Напомни, {N} ({c})?", "Скинь {N} ({c}), пожалуйста"], ["{v}", "{v}, потом удали сообщение", "{v} 👍"],
     ["у бабушки", "офис", "дача", "кладовка", "спортзал", "банк", "папа"],
     ("Для", "Заметка", "срок действия", "CVV"), ["Сегодня наконец закончили переезд.", "Завтра в 9 к стоматологу.", "Забрал посылку для соседки."],
     ["День рождения {p} — {d}, подарить книгу про птиц.", "Физиотерапия {d} у {p}.", "{p} нельзя орехи."],
     ["Сменил {N} ({c}), новый в менеджере паролей.", "{p} спрашивал {N} ({c}), скажу лично."])
lang("uk", "пароль|ПІН-код|PUK-код|код домофона|код сигналізації|код від гаража|код сейфа|код шафки|код від ключниці|пароль від wifi|код підтвердження|резервні коди|фраза відновлення|відповідь на секретне питання|номер картки|код подарункової картки|вхід в інтернет-банк",
     ["{N} ({c}): {v}", "Не забути: {N} — {c} = {v}", "{c} → {N}: {v}", "Записую сюди {N} ({c}): {v}. Нікому не казати!"],
     ["Нагадай, {N} ({c})?", "Скинь {N} ({c}), будь ласка"], ["{v}", "{v}, потім видали повідомлення", "{v} 👍"],
     ["у бабусі", "офіс", "дача", "комора", "спортзал", "банк", "тато"],
     ("Для", "Нотатка", "дійсна до", "CVV"), ["Сьогодні нарешті закінчили переїзд.", "Завтра о 9 до стоматолога.", "Забрав посилку для сусідки."],
     ["День народження {p} — {d}, подарувати книжку про птахів.", "Фізіотерапія {d} у {p}.", "{p} не можна горіхи."],
     ["Змінив {N} ({c}), новий у менеджері паролів.", "{p} питав {N} ({c}), скажу особисто."])
lang("el", "κωδικός|PIN|PUK|κωδικός πόρτας|κωδικός συναγερμού|κωδικός γκαράζ|συνδυασμός χρηματοκιβωτίου|κωδικός ντουλαπιού|κωδικός κλειδοθήκης|κωδικός wifi|κωδικός επαλήθευσης|εφεδρικοί κωδικοί|φράση ανάκτησης|απάντηση ερώτησης ασφαλείας|αριθμός κάρτας|κωδικός δωροκάρτας|στοιχεία e-banking",
     ["{N} ({c}): {v}", "Να μην ξεχάσω: {N} – {c} = {v}", "{c} → {N}: {v}", "Το σημειώνω εδώ, {N} ({c}): {v}. Σε κανέναν!"],
     ["Μου θυμίζεις {N} ({c});", "Μου στέλνεις {N} ({c});"], ["{v}", "{v}, σβήσ' το μετά", "{v} 👍"],
     ["γιαγιά", "γραφείο", "εξοχικό", "αποθήκη", "γυμναστήριο", "τράπεζα", "μπαμπάς"],
     ("Για", "Σημείωση", "λήξη", "CVV"), ["Σήμερα επιτέλους τελειώσαμε τη μετακόμιση.", "Αύριο οδοντίατρος στις 9.", "Παρέλαβα ένα δέμα για τη γειτόνισσα."],
     ["Γενέθλια {p} στις {d} – το βιβλίο με τα πουλιά.", "Φυσικοθεραπεία {d} με {p}.", "{p} δεν τρώει ξηρούς καρπούς."],
     ["Άλλαξα {N} ({c}), ο νέος είναι στον διαχειριστή κωδικών.", "{p} ζήτησε {N} ({c}), θα του το πω από κοντά."])
lang("ar", "كلمة المرور|الرقم السري|رمز PUK|رمز الباب|رمز الإنذار|رمز الكراج|رمز الخزنة|رمز الخزانة|رمز صندوق المفاتيح|كلمة سر الواي فاي|رمز التحقق|الرموز الاحتياطية|عبارة الاسترداد|جواب سؤال الأمان|رقم البطاقة|رمز بطاقة الهدية|دخول البنك الإلكتروني",
     ["{N} ({c}): {v}", "لا تنسَ: {N} - {c} = {v}", "{c} ← {N}: {v}", "أكتبها هنا، {N} ({c}): {v}. لا تشاركها مع أحد!"],
     ["ذكّرني، ما هو {N} ({c})؟", "ممكن ترسل لي {N} ({c})؟"], ["{v}", "{v}، احذف الرسالة بعدين", "{v} 👍"],
     ["بيت جدتي", "المكتب", "الشاليه", "المخزن", "النادي الرياضي", "البنك", "بابا"],
     ("لـ", "ملاحظة", "تاريخ الانتهاء", "CVV"), ["اليوم أخيراً انتهينا من الانتقال.", "غداً موعد طبيب الأسنان الساعة 9.", "استلمت طرداً للجارة."],
     ["عيد ميلاد {p} في {d} - اشترِ كتاب الطيور.", "موعد العلاج الطبيعي {d} عند {p}.", "{p} عنده حساسية من المكسرات."],
     ["غيّرت {N} ({c})، الجديدة في مدير كلمات المرور.", "{p} سأل عن {N} ({c})، سأخبره شخصياً."])
lang("he", "סיסמה|קוד סודי|קוד PUK|קוד לדלת|קוד אזעקה|קוד לחניה|קוד הכספת|קוד הלוקר|קוד תיבת המפתחות|סיסמת וויפי|קוד אימות|קודי גיבוי|משפט שחזור|תשובה לשאלת אבטחה|מספר כרטיס|קוד כרטיס מתנה|כניסה לבנק",
     ["{N} ({c}): {v}", "לא לשכוח: {N} - {c} = {v}", "{c} ← {N}: {v}", "רושם פה, {N} ({c}): {v}. לא לשתף!"],
     ["מה היה {N} ({c})?", "תשלח לי {N} ({c})?"], ["{v}", "{v}, תמחק אחר כך", "{v} 👍"],
     ["אצל סבתא", "משרד", "צימר", "מחסן", "חדר כושר", "בנק", "אבא"],
     ("עבור", "הערה", "תוקף", "CVV"), ["היום סוף סוף סיימנו את המעבר.", "מחר רופא שיניים ב-9.", "קיבלתי חבילה בשביל השכנה."],
     ["יום ההולדת של {p} ב-{d} - לקנות את ספר הציפורים.", "פיזיותרפיה ב-{d} אצל {p}.", "ל{p} אסור אגוזים."],
     ["שיניתי {N} ({c}), החדשה במנהל הסיסמאות.", "{p} ביקש {N} ({c}), אגיד לו פנים אל פנים."])
lang("hi", "पासवर्ड|पिन|PUK|दरवाज़े का कोड|अलार्म कोड|गैरेज कोड|तिजोरी का कोड|लॉकर कोड|चाबी बॉक्स का कोड|वाईफाई पासवर्ड|ओटीपी|बैकअप कोड|रिकवरी फ्रेज़|सुरक्षा प्रश्न का उत्तर|कार्ड नंबर|गिफ्ट कार्ड कोड|नेट बैंकिंग लॉगिन",
     ["{N} ({c}): {v}", "याद रखना: {c} का {N} = {v}", "{c} → {N}: {v}", "यहाँ लिख रहा हूँ, {N} ({c}): {v}. किसी को मत बताना!"],
     ["{c} का {N} क्या था?", "{N} ({c}) भेज दो ना"], ["{v}", "{v}, बाद में मैसेज डिलीट कर देना", "{v} 👍"],
     ["नानी का घर", "ऑफिस", "फार्महाउस", "स्टोर रूम", "जिम", "बैंक", "पापा"],
     ("किसके लिए", "नोट", "वैधता", "CVV"), ["आज आखिरकार शिफ्टिंग पूरी हो गई।", "कल सुबह 9 बजे डेंटिस्ट।", "पड़ोसन का पार्सल ले लिया।"],
     ["{p} का जन्मदिन {d} को है - पक्षियों वाली किताब लेनी है।", "फिज़ियो {d} को {p} के यहाँ।", "{p} को मेवे से एलर्जी है।"],
     ["{N} ({c}) बदल दिया, नया पासवर्ड मैनेजर में है।", "{p} ने {N} ({c}) पूछा, मिलकर बताऊँगा।"])
lang("ja", "パスワード|暗証番号|PUKコード|オートロックの番号|警報装置の暗証番号|ガレージの暗証番号|金庫の番号|ロッカーの番号|キーボックスの番号|Wi-Fiのパスワード|認証コード|バックアップコード|リカバリーフレーズ|秘密の質問の答え|カード番号|ギフトカードのコード|ネットバンキングのログイン",
     ["{N}（{c}）：{v}", "忘れないように：{c}の{N}は{v}", "{c} → {N}：{v}", "メモ：{c}の{N} {v} 誰にも教えないこと"],
     ["{c}の{N}って何だっけ？", "{N}（{c}）送ってくれる？"], ["{v}", "{v} だよ。見たら消してね", "{v} 👍"],
     ["実家", "会社", "別荘", "倉庫", "ジム", "銀行", "父"],
     ("対象", "メモ", "有効期限", "セキュリティコード"), ["今日やっと引っ越しが終わった。", "明日9時に歯医者。", "お隣さんの荷物を受け取った。"],
     ["{p}の誕生日は{d}、鳥の本をプレゼント。", "{d} リハビリ（{p}先生）。", "{p}はナッツアレルギー。"],
     ["{c}の{N}を変更した。新しいのはパスワード管理アプリに入れてある。", "{p}に{N}（{c}）を聞かれた。直接伝える。"])
lang("zh", "密码|PIN码|PUK码|门禁密码|报警器密码|车库密码|保险箱密码|储物柜密码|钥匙盒密码|WiFi密码|验证码|备用码|助记词|密保答案|卡号|礼品卡兑换码|网银登录",
     ["{N}（{c}）：{v}", "别忘了：{c}的{N}是{v}", "{c} → {N}：{v}", "记一下，{c}{N}：{v}，不要告诉别人！"],
     ["{c}的{N}是多少来着？", "把{N}（{c}）发我一下"], ["{v}", "{v}，看完删掉", "{v} 👍"],
     ["奶奶家", "公司", "度假屋", "储藏室", "健身房", "银行", "爸爸"],
     ("用途", "备注", "有效期", "安全码"), ["今天终于搬完家了。", "明天九点看牙医。", "帮邻居收了个快递。"],
     ["{p}的生日是{d}，送那本鸟类图鉴。", "{d} 理疗，{p}医生。", "{p}对坚果过敏。"],
     ["{c}的{N}改了，新的在密码管理器里。", "{p}问{N}（{c}），当面告诉他。"])
lang("ko", "비밀번호|PIN 번호|PUK 코드|현관 비밀번호|경보기 비밀번호|차고 비밀번호|금고 비밀번호|사물함 비밀번호|키박스 비밀번호|와이파이 비밀번호|인증번호|백업 코드|복구 문구|보안 질문 답|카드 번호|기프트카드 코드|인터넷뱅킹 로그인",
     ["{N} ({c}): {v}", "잊지 말기: {c} {N} = {v}", "{c} → {N}: {v}", "여기 적어둠, {c} {N}: {v} 아무한테도 말하지 마!"],
     ["{c} {N} 뭐였지?", "{N} ({c}) 보내줄래?"], ["{v}", "{v} 보고 나서 지워", "{v} 👍"],
     ["할머니 댁", "회사", "별장", "창고", "헬스장", "은행", "아빠"],
     ("용도", "메모", "유효기간", "CVC"), ["오늘 드디어 이사 끝.", "내일 9시 치과.", "옆집 택배 대신 받음."],
     ["{p} 생일 {d} - 새 도감 선물.", "{d} 물리치료 ({p} 선생님).", "{p} 견과류 알레르기."],
     ["{c} {N} 바꿨음, 새 건 비밀번호 관리자에 있음.", "{p}가 {N} ({c}) 물어봄, 직접 말해줄 것."])
lang("vi", "mật khẩu|mã PIN|mã PUK|mã cửa|mã báo động|mã cửa gara|mã két sắt|mã tủ đồ|mã hộp chìa khóa|mật khẩu wifi|mã xác minh|mã dự phòng|cụm từ khôi phục|câu trả lời bảo mật|số thẻ|mã thẻ quà tặng|đăng nhập ngân hàng",
     ["{N} ({c}): {v}", "Đừng quên: {N} {c} = {v}", "{c} → {N}: {v}", "Ghi lại đây, {N} ({c}): {v}. Không chia sẻ!"],
     ["{N} {c} là gì nhỉ?", "Gửi mình {N} ({c}) với"], ["{v}", "{v}, xem xong xoá nhé", "{v} 👍"],
     ["nhà bà", "văn phòng", "nhà nghỉ", "kho", "phòng gym", "ngân hàng", "bố"],
     ("Dùng cho", "Ghi chú", "hết hạn", "CVV"), ["Hôm nay cuối cùng cũng chuyển nhà xong.", "Mai 9 giờ đi nha sĩ.", "Nhận hộ bưu kiện cho hàng xóm."],
     ["Sinh nhật {p} ngày {d} – mua cuốn sách về chim.", "Vật lý trị liệu {d} với {p}.", "{p} dị ứng các loại hạt."],
     ["Đã đổi {N} ({c}), cái mới nằm trong trình quản lý mật khẩu.", "{p} hỏi {N} ({c}), sẽ nói trực tiếp."])
lang("id", "kata sandi|PIN|PUK|kode pintu|kode alarm|kode garasi|kombinasi brankas|kode loker|kode kotak kunci|password wifi|kode verifikasi|kode cadangan|frasa pemulihan|jawaban pertanyaan keamanan|nomor kartu|kode kartu hadiah|login internet banking",
     ["{N} ({c}): {v}", "Jangan lupa: {N} {c} = {v}", "{c} → {N}: {v}", "Catat di sini, {N} ({c}): {v}. Jangan dibagi!"],
     ["{N} {c} apa ya?", "Kirimin {N} ({c}) dong"], ["{v}", "{v}, habis itu hapus ya", "{v} 👍"],
     ["rumah nenek", "kantor", "villa", "gudang", "gym", "bank", "ayah"],
     ("Untuk", "Catatan", "berlaku s/d", "CVV"), ["Hari ini akhirnya selesai pindahan.", "Besok jam 9 ke dokter gigi.", "Terima paket buat tetangga."],
     ["Ulang tahun {p} tanggal {d} – beli buku burung.", "Fisioterapi {d} dengan {p}.", "{p} alergi kacang."],
     ["{N} ({c}) sudah diganti, yang baru ada di password manager.", "{p} nanya {N} ({c}), nanti kukasih tahu langsung."])
lang("th", "รหัสผ่าน|รหัส PIN|รหัส PUK|รหัสประตู|รหัสสัญญาณกันขโมย|รหัสโรงรถ|รหัสตู้เซฟ|รหัสล็อกเกอร์|รหัสกล่องกุญแจ|รหัสไวไฟ|รหัส OTP|รหัสสำรอง|วลีกู้คืน|คำตอบคำถามความปลอดภัย|เลขบัตร|รหัสบัตรของขวัญ|ล็อกอินธนาคารออนไลน์",
     ["{N} ({c}): {v}", "อย่าลืม: {N}{c} = {v}", "{c} → {N}: {v}", "จดไว้ตรงนี้ {N} ({c}): {v} ห้ามบอกใคร!"],
     ["{N}{c}คืออะไรนะ", "ส่ง{N} ({c}) มาหน่อย"], ["{v}", "{v} อ่านแล้วลบด้วยนะ", "{v} 👍"],
     ["บ้านยาย", "ออฟฟิศ", "บ้านพักตากอากาศ", "โกดัง", "ฟิตเนส", "ธนาคาร", "พ่อ"],
     ("สำหรับ", "หมายเหตุ", "หมดอายุ", "CVV"), ["วันนี้ย้ายบ้านเสร็จสักที", "พรุ่งนี้ไปหาหมอฟัน 9 โมง", "รับพัสดุแทนเพื่อนบ้าน"],
     ["วันเกิด{p} {d} ซื้อหนังสือนกให้", "กายภาพบำบัด {d} กับ{p}", "{p}แพ้ถั่ว"],
     ["เปลี่ยน{N} ({c}) แล้ว อันใหม่อยู่ในแอปจัดการรหัสผ่าน", "{p}ถาม{N} ({c}) เดี๋ยวบอกต่อหน้า"])
lang("sw", "nenosiri|PIN|PUK|namba ya mlango|namba ya kengele|namba ya gereji|namba ya sefu|namba ya kabati|namba ya kisanduku cha funguo|nenosiri la wifi|namba ya uthibitisho|namba za akiba|maneno ya kurejesha|jibu la swali la usalama|namba ya kadi|namba ya kadi ya zawadi|kuingia benki mtandaoni",
     ["{N} ({c}): {v}", "Usisahau: {N} {c} = {v}", "{c} → {N}: {v}", "Naandika hapa, {N} ({c}): {v}. Usimwambie mtu!"],
     ["{N} ya {c} ilikuwa ipi?", "Nitumie {N} ({c}) tafadhali"], ["{v}", "{v}, futa ujumbe baadaye", "{v} 👍"],
     ["kwa bibi", "ofisini", "nyumba ya likizo", "stoo", "gym", "benki", "baba"],
     ("Kwa", "Maelezo", "mwisho", "CVV"), ["Leo hatimaye tumemaliza kuhama.", "Kesho daktari wa meno saa tatu.", "Nimepokea kifurushi cha jirani."],
     ["Siku ya kuzaliwa ya {p} ni {d} – nunua kitabu cha ndege.", "Mazoezi ya tiba {d} kwa {p}.", "{p} hali karanga."],
     ["Nimebadilisha {N} ({c}), mpya iko kwenye kidhibiti cha manenosiri.", "{p} aliuliza {N} ({c}), nitamwambia ana kwa ana."])
lang("tl", "password|PIN|PUK|code ng pinto|code ng alarm|code ng garahe|kombinasyon ng safe|code ng locker|code ng lagayan ng susi|password ng wifi|verification code|backup codes|recovery phrase|sagot sa security question|numero ng card|code ng gift card|login sa online banking",
     ["{N} ({c}): {v}", "Wag kalimutan: {N} sa {c} = {v}", "{c} → {N}: {v}", "Isusulat ko dito, {N} ({c}): {v}. Wag ipagsabi!"],
     ["Ano nga ulit yung {N} sa {c}?", "Pa-send naman ng {N} ({c})"], ["{v}", "{v}, burahin mo after", "{v} 👍"],
     ["bahay ni lola", "opisina", "beach house", "bodega", "gym", "bangko", "papa"],
     ("Para sa", "Tala", "expiry", "CVV"), ["Sa wakas tapos na ang paglipat namin.", "Bukas dentista ng alas-9.", "Kinuha ko yung parcel ng kapitbahay."],
     ["Birthday ni {p} sa {d} – bilhin yung libro ng ibon.", "Physical therapy {d} kay {p}.", "Bawal kay {p} ang mani."],
     ["Pinalitan ko na yung {N} ({c}), nasa password manager yung bago.", "Tinanong ni {p} yung {N} ({c}), sasabihin ko na lang ng personal."])
lang("hr", "lozinka|PIN|PUK|šifra za ulaz|šifra alarma|šifra garaže|šifra sefa|šifra ormarića|šifra kutije za ključeve|lozinka za wifi|verifikacijski kod|rezervni kodovi|fraza za oporavak|odgovor na sigurnosno pitanje|broj kartice|kod poklon kartice|prijava u internet bankarstvo",
     ["{N} ({c}): {v}", "Ne zaboraviti: {N} – {c} = {v}", "{c} → {N}: {v}", "Zapisujem ovdje {N} ({c}): {v}. Nikome ne govoriti!"],
     ["Podsjeti me, {N} ({c})?", "Možeš mi poslati {N} ({c})?"], ["{v}", "{v}, poslije obriši poruku", "{v} 👍"],
     ["kod bake", "ured", "vikendica", "spremište", "teretana", "banka", "tata"],
     ("Za", "Bilješka", "vrijedi do", "CVV"), ["Danas smo napokon završili selidbu.", "Sutra zubar u 9.", "Preuzeo sam paket za susjedu."],
     ["{p} ima rođendan {d} – kupiti knjigu o pticama.", "Fizioterapija {d} kod {p}.", "{p} ne smije orašaste plodove."],
     ["Promijenio sam {N} ({c}), nova je u upravitelju lozinki.", "{p} je pitao {N} ({c}), reći ću osobno."])
lang("ca", "contrasenya|PIN|PUK|codi de la porta|codi de l'alarma|codi del garatge|combinació de la caixa forta|codi de la taquilla|codi de la caixa de claus|contrasenya del wifi|codi de verificació|codis de seguretat|frase de recuperació|resposta de seguretat|número de targeta|codi de la targeta regal|accés a la banca en línia",
     ["{N} ({c}): {v}", "No oblidar: {N} de {c} = {v}", "{c} → {N}: {v}", "Ho apunto aquí, {N} ({c}): {v}. No compartir!"],
     ["Quin era {N} de {c}?", "Em passes {N} ({c})?"], ["{v}", "és {v}, esborra-ho després", "{v} 👍"],
     ["casa de l'àvia", "l'oficina", "la casa de la platja", "el traster", "el gimnàs", "el banc", "el pare"],
     ("Per a", "Nota", "caduca", "CVV"), ["Avui per fi hem acabat la mudança.", "Demà dentista a les 9.", "He recollit un paquet per a la veïna."],
     ["L'aniversari de {p} és el {d}: el llibre d'ocells.", "Fisio el {d} amb {p}.", "{p} no pot menjar fruits secs."],
     ["He canviat {N} ({c}), la nova és al gestor de contrasenyes.", "{p} m'ha demanat {N} ({c}), l'hi diré en persona."])

LANG_CODES = list(L.keys())

GIFT_STORES = ["Amazon", "Apple", "Google Play", "Steam", "Zalando", "IKEA", "Sephora", "Netflix", "PlayStation", "Xbox", "Spotify", "Nintendo eShop"]


def gift_code(store=None):
    store = store or pick(GIFT_STORES)
    if store == "Amazon":
        return store, f"{up(4)}-{up(6)}-{up(4)}"
    if store == "Steam":
        return store, f"{up(5)}-{up(5)}-{up(5)}"
    if store in ("Apple", "Netflix"):
        return store, "X" + up(15)
    if store == "Google Play":
        return store, up(20)
    if store in ("PlayStation",):
        return store, f"{up(4)}-{up(4)}-{up(4)}"
    if store in ("Xbox", "Nintendo eShop"):
        return store, f"{up(5)}-{up(5)}-{up(5)}-{up(5)}-{up(5)}"[: 29 if store == "Xbox" else 19]
    return store, dg(16) + (" PIN " + dg(4) if chance(0.6) else "")


def backup_codes():
    st = pick(["dash", "digits", "hex"])
    n = ri(6, 10)
    if st == "dash":
        return [f"{lo(4)}-{lo(4)}" for _ in range(n)]
    if st == "digits":
        return [dg(8) for _ in range(n)]
    return [hx(5) + "-" + hx(5) for _ in range(n)]


ANSWERS = ["Kowalski", "Biscuit", "Rosenheim", "St. Mary's", "blue Corolla", "Mrs. Okafor", "Thessaloniki", "Pumpkin",
           "Lindqvist", "Schnuffel", "Ramirez", "Oak Street", "Fiat Panda", "Hadley", "Mochi", "Kraków", "Tanaka",
           "Golden Retriever", "Uncle Dimitri", "Mr. Haddad"]
SEC_Q = ["mother's maiden name", "first pet", "city where parents met", "first school", "first car",
         "favourite teacher", "childhood best friend", "street you grew up on"]


def pvalue(kind, lng="en"):
    """returns (value_string, extra_dict) for a personal secret kind"""
    lab = L[lng]["f"]
    if kind in ("password", "wifi"):
        return password(), {}
    if kind == "pin":
        return pin(pick([4, 4, 4, 6])), {}
    if kind == "puk":
        return dg(8), {}
    if kind in ("door", "garage", "keybox"):
        p = pin(pick([4, 4, 5, 6]))
        return pick([p, p, p + "#", "*" + p, p + pick(["A", "B", "✓"])]), {}
    if kind == "alarm":
        return pin(pick([4, 4, 6])), {}
    if kind == "safe":
        return pick([f"{ri(0, 99):02d}-{ri(0, 99):02d}-{ri(0, 99):02d}", pin(pick([4, 6, 8])), f"R{ri(1, 60)} L{ri(1, 60)} R{ri(1, 60)}"]), {}
    if kind == "locker":
        return pick([pin(4), f"{ri(0, 39)}-{ri(0, 39)}-{ri(0, 39)}", pin(3)]), {}
    if kind == "otp":
        return dg(6), {}
    if kind == "backup":
        return " ".join(backup_codes()), {}
    if kind == "seed":
        return " ".join(seed_phrase()), {}
    if kind == "answer":
        return pick(ANSWERS), {}
    if kind == "card":
        brand, num = card_number()
        s = card_fmt(num, pick([" ", " ", "-", ""]))
        r = R.random()
        if r < 0.35:
            s += f" {lab[2]} {card_exp()} {lab[3]} {cvv(brand)}"
        elif r < 0.6:
            s += f" {lab[2]} {card_exp()}"
        return s, {"brand": brand}
    if kind == "gift":
        store, code = gift_code()
        return f"{store} {code}", {}
    if kind == "bank":
        return f"ID {pick([dg1(8), username(), dg1(10)])} / {L[lng]['n']['password']} {password()}", {}
    raise ValueError(kind)

EXTRA_ORD = {
    "en": ["Groceries: milk, bread, {n} eggs, tomatoes.", "Weekend: hike with {p}, meet at the station at {h}.", "Meeting with {p} on {d} moved to next week."],
    "de": ["Einkaufen: Milch, Brot, {n} Eier, Tomaten.", "Wochenende: mit {p} wandern, Treffpunkt Bahnhof um {h}.", "Meeting mit {p} am {d} auf nächste Woche verschoben."],
    "fr": ["Courses : lait, pain, {n} œufs, tomates.", "Week-end : rando avec {p}, rendez-vous à la gare à {h}.", "Réunion avec {p} du {d} reportée à la semaine prochaine."],
    "es": ["Compra: leche, pan, {n} huevos, tomates.", "Finde: ruta con {p}, quedamos en la estación a las {h}.", "La reunión con {p} del {d} pasa a la semana que viene."],
    "it": ["Spesa: latte, pane, {n} uova, pomodori.", "Weekend: escursione con {p}, ritrovo in stazione alle {h}.", "Riunione con {p} del {d} spostata alla prossima settimana."],
    "pt": ["Compras: leite, pão, {n} ovos, tomates.", "Fim de semana: trilha com {p}, encontro na estação às {h}.", "Reunião com {p} do dia {d} adiada para a semana que vem."],
    "nl": ["Boodschappen: melk, brood, {n} eieren, tomaten.", "Weekend: wandelen met {p}, verzamelen bij het station om {h}.", "Overleg met {p} van {d} verschoven naar volgende week."],
    "sv": ["Handla: mjölk, bröd, {n} ägg, tomater.", "Helgen: vandring med {p}, ses vid stationen kl {h}.", "Mötet med {p} den {d} flyttat till nästa vecka."],
    "nb": ["Handle: melk, brød, {n} egg, tomater.", "Helgen: tur med {p}, møtes på stasjonen kl. {h}.", "Møtet med {p} {d} er flyttet til neste uke."],
    "da": ["Indkøb: mælk, brød, {n} æg, tomater.", "Weekend: vandretur med {p}, mødes på stationen kl. {h}.", "Mødet med {p} d. {d} er rykket til næste uge."],
    "fi": ["Kauppalista: maitoa, leipää, {n} munaa, tomaatteja.", "Viikonloppuna retki ({p} mukana), tapaaminen asemalla klo {h}.", "Palaveri ({p}, {d}) siirtyi ensi viikolle."],
    "pl": ["Zakupy: mleko, chleb, {n} jajek, pomidory.", "Weekend: wycieczka ({p} też jedzie), zbiórka na dworcu o {h}.", "Spotkanie ({p}, {d}) przełożone na przyszły tydzień."],
    "cs": ["Nákup: mléko, chleba, {n} vajec, rajčata.", "Víkend: túra ({p} jde taky), sraz na nádraží v {h}.", "Schůzka ({p}, {d}) přesunuta na příští týden."],
    "hu": ["Bevásárlás: tej, kenyér, {n} tojás, paradicsom.", "Hétvége: kirándulás, találkozó az állomáson {h}-kor ({p} is jön).", "A megbeszélés ({p}, {d}) jövő hétre tolódott."],
    "ro": ["Cumpărături: lapte, pâine, {n} ouă, roșii.", "Weekend: drumeție cu {p}, ne vedem la gară la {h}.", "Ședința cu {p} din {d} s-a mutat săptămâna viitoare."],
    "tr": ["Alışveriş: süt, ekmek, {n} yumurta, domates.", "Hafta sonu yürüyüş ({p} de geliyor), saat {h}'de istasyonda buluşma.", "Toplantı ({p}, {d}) gelecek haftaya ertelendi."],
    "ru": ["Купить: молоко, хлеб, яйца ({n} шт.), помидоры.", "Выходные: поход ({p} тоже идёт), встречаемся на вокзале в {h}.", "Встречу ({p}, {d}) перенесли на следующую неделю."],
    "uk": ["Купити: молоко, хліб, яйця ({n} шт.), помідори.", "Вихідні: похід ({p} теж іде), зустріч на вокзалі о {h}.", "Зустріч ({p}, {d}) перенесли на наступний тиждень."],
    "el": ["Ψώνια: γάλα, ψωμί, αυγά ({n}), ντομάτες.", "Σαββατοκύριακο: πεζοπορία ({p} έρχεται), συνάντηση στον σταθμό στις {h}.", "Η συνάντηση ({p}, {d}) μετατέθηκε για την επόμενη εβδομάδα."],
    "ar": ["مشتريات: حليب، خبز، بيض ({n})، طماطم.", "نهاية الأسبوع: نزهة ({p} سيأتي)، اللقاء في المحطة الساعة {h}.", "تم تأجيل الاجتماع ({p}، {d}) إلى الأسبوع القادم."],
    "he": ["קניות: חלב, לחם, ביצים ({n}), עגבניות.", "סוף שבוע: טיול ({p} מצטרף), נפגשים בתחנה ב-{h}.", "הפגישה ({p}, {d}) נדחתה לשבוע הבא."],
    "hi": ["खरीदारी: दूध, ब्रेड, अंडे ({n}), टमाटर।", "वीकेंड: ट्रेक ({p} भी आ रहा है), स्टेशन पर {h} बजे मिलना है।", "मीटिंग ({p}, {d}) अगले हफ्ते खिसक गई।"],
    "ja": ["買い物：牛乳、パン、卵{n}個、トマト。", "週末は{p}とハイキング、{h}に駅集合。", "{d}の{p}との打ち合わせは来週に延期。"],
    "zh": ["购物：牛奶、面包、{n}个鸡蛋、西红柿。", "周末和{p}去爬山，{h}车站集合。", "和{p}在{d}的会议改到下周了。"],
    "ko": ["장보기: 우유, 빵, 계란 {n}개, 토마토.", "주말 등산 ({p}도 옴), {h}에 역에서 만나기.", "회의 ({p}, {d}) 다음 주로 연기."],
    "vi": ["Đi chợ: sữa, bánh mì, {n} quả trứng, cà chua.", "Cuối tuần đi leo núi với {p}, hẹn ở ga lúc {h}.", "Cuộc họp với {p} ngày {d} dời sang tuần sau."],
    "id": ["Belanja: susu, roti, {n} telur, tomat.", "Akhir pekan hiking bareng {p}, kumpul di stasiun jam {h}.", "Rapat dengan {p} tanggal {d} diundur ke minggu depan."],
    "th": ["ซื้อของ: นม ขนมปัง ไข่ {n} ฟอง มะเขือเทศ", "เสาร์อาทิตย์ไปเดินป่ากับ{p} นัดเจอที่สถานี {h}", "ประชุมกับ{p}วันที่ {d} เลื่อนไปสัปดาห์หน้า"],
    "sw": ["Manunuzi: maziwa, mkate, mayai {n}, nyanya.", "Wikendi: matembezi na {p}, tukutane stesheni saa {h}.", "Mkutano na {p} tarehe {d} umesogezwa wiki ijayo."],
    "tl": ["Bibilhin: gatas, tinapay, {n} itlog, kamatis.", "Weekend: hiking kasama si {p}, kita tayo sa istasyon ng {h}.", "Yung meeting kay {p} sa {d} nalipat sa susunod na linggo."],
    "hr": ["Kupiti: mlijeko, kruh, {n} jaja, rajčice.", "Vikend: planinarenje ({p} ide s nama), nalazimo se na kolodvoru u {h}.", "Sastanak ({p}, {d}) pomaknut na sljedeći tjedan."],
    "ca": ["Compra: llet, pa, {n} ous, tomàquets.", "Cap de setmana: excursió amb {p}, quedem a l'estació a les {h}.", "La reunió amb {p} del {d} passa a la setmana que ve."],
}

# ================================================================ personal secrets: English, richer
SERVICES = ["Netflix", "Gmail", "Amazon", "PayPal", "Instagram", "Facebook", "Spotify", "Disney+", "iCloud", "Steam",
            "eBay", "LinkedIn", "Dropbox", "Uber", "Booking.com", "the school portal", "the pharmacy app", "the NAS",
            "the work laptop", "Outlook", "Revolut", "Coinbase", "the HOA website", "the kids' Nintendo account", "Xbox"]
BANKS = ["Chase", "Barclays", "Sparkasse", "ING", "BNP Paribas", "Santander", "Monzo", "N26", "HSBC", "Nordea",
         "Credit Agricole", "Rabobank", "PKO BP", "Wells Fargo", "the credit union", "Raiffeisen", "CommBank"]
CARRIERS = ["Vodafone", "T-Mobile", "Orange", "O2", "Verizon", "Telia", "Airtel", "Three", "Movistar", "Swisscom"]
SSIDS = ["FRITZ!Box 7590 XY", "Vodafone-4C2A", "Casa_Rossi", "TP-Link_8F21", "NETGEAR57", "Skynet_5G", "Guest-Net",
         "BT-7HQ2X", "Livebox-19A0", "The LAN Before Time", "Pretty Fly for a WiFi", "Cabin_WLAN"]
WALLETS = ["Ledger", "Trezor", "MetaMask", "Exodus", "Trust Wallet", "Electrum", "Phantom", "BlueWallet"]


def en_fill(s, kind, v, extra):
    return s.format(v=v, svc=pick(SERVICES), user=pick([email_addr(), username()]), date=rdate(2023, 2026),
                    bank=pick(BANKS), carrier=pick(CARRIERS), ssid=pick(SSIDS), store=extra.get("store", pick(GIFT_STORES)),
                    wallet=pick(WALLETS), q=pick(SEC_Q), num=ri(1, 240), brand=extra.get("brand", "Visa"), p=pick(FIRST),
                    exp=card_exp(), cvv=cvv(extra.get("brand", "Visa")), city=pick(CITIES))


EN_T = {
    "password": ["my {svc} password is {v}", "{svc} login: {user} / {v}", "Changed the {svc} pw to {v} on {date}",
                 "pw for {svc} (family account, {p} uses it too): {v}", "{svc}\nuser: {user}\npass: {v}",
                 "if I forget again: {svc} -> {v}", "{p}'s {svc} password (she asked me to keep it): {v}"],
    "pin": ["Debit card PIN ({bank}): {v}", "new PIN for the {bank} card is {v}", "mum's bank card pin {v} - she asked me to keep it",
            "{bank} app PIN {v}", "the PIN for the joint account card = {v}"],
    "puk": ["SIM PUK ({carrier}): {v}", "PUK code for dad's phone {v} in case it locks again", "{carrier} PUK1 {v} / PIN {v2}"],
    "door": ["front door keypad {v}", "building entry code {v}", "Airbnb in {city} door code: {v} (valid till Sunday)",
             "office side entrance code is {v}, changes every quarter", "{p}'s flat: buzzer 12, code {v}"],
    "alarm": ["alarm code {v}, disarm within 30s", "house alarm: {v} then OFF", "alarm panel code for the cleaner: {v}",
              "shop alarm - set/unset with {v}"],
    "garage": ["garage opener code {v}", "garage keypad is {v} then enter", "underground parking gate code {v}"],
    "safe": ["hotel safe combo {v}", "gun safe combination {v}", "home safe: {v}", "office safe (bottom drawer key is in it) {v}"],
    "locker": ["gym locker {num} combo {v}", "locker at school {v}", "bike lock combo {v}", "station locker {num}: code {v}"],
    "keybox": ["key lockbox by the back door: {v}", "key safe for the carers - code {v}", "holiday flat key box {v}, it's left of the door"],
    "wifi": ["wifi {ssid} password {v}", "guest wifi: {ssid} / {v}", "{ssid}\n{v}", "wifi at grandma's is {v}"],
    "otp": ["verification code from {svc}: {v}", "2FA code {v} - need it for the transfer", "{svc} login code {v}, valid 10 min"],
    "backup": ["{svc} backup codes:\n{v}", "2fa recovery codes {svc}: {v}", "backup codes for {user}: {v}"],
    "seed": ["wallet recovery phrase ({wallet}): {v}", "seed words: {v}", "{wallet} 12 words {v}", "crypto backup - {v} - DO NOT LOSE"],
    "answer": ["security question for {bank}: {q} -> {v}", "{svc} security answer ({q}): {v}", "answer to '{q}' on {svc} is {v}"],
    "card": ["{brand} {v}", "card for online shopping {v}", "Dad's credit card number {v}", "company card: {v}", "{p}'s card {v} (for the booking)"],
    "gift": ["{v} gift card - unused!", "gift card claim code: {v}", "birthday gift card from {p}: {v}"],
    "bank": ["online banking {bank}: {v}", "{bank} login {v}", "{bank}\n{v}"],
}
SMS_T = {
    "otp": ["Your {svc} verification code is {v}. Do not share it with anyone.", "{v} is your {svc} code. It expires in 10 minutes.",
            "G-{v} is your Google verification code.", "<#> {v} is your login code for {svc}. Don't share."],
    "pin": ["{bank}: The PIN for your new card ending {l4} is {v}. Please memorise and delete this message.",
            "Your temporary card PIN is {v}."],
    "puk": ["{carrier}: your PUK code is {v}. Enter it to unblock your SIM."],
    "door": ["Hi! Your check-in code for the apartment is {v}. Enjoy your stay!", "Parcel locker {num}: pickup code {v}"],
    "gift": ["You received a gift card! Code: {v}"],
    "password": ["Your temporary password is {v}. Please change it after first login."],
    "locker": ["Your locker {num} code: {v}. Valid until 22:00."],
    "keybox": ["Key box at the entrance, code {v}. See you tomorrow!"],
}
VOICE_FRAMES = ["okay so um {body}", "{body} ... yeah that's it", "hey it's me, {body}, call me back", "uh {body}, got that?",
                "voice memo: {body}", "right so {body} and don't write it on the fridge again"]


def say_code(v):
    if all(c.isdigit() for c in v):
        return pick([spell_digits(v), " ".join(v), v, spell_digits(v).replace(" ", ", ")])
    return v


def voice_password(pw):
    out = []
    names = {"!": "exclamation mark", "@": "at sign", "#": "hash", "$": "dollar", "%": "percent", "&": "and sign",
             "*": "star", "-": "dash", "_": "underscore", "+": "plus", "=": "equals", "?": "question mark", ".": "dot",
             "^": "caret", " ": "space"}
    for ch in pw:
        if ch.isupper():
            out.append("capital " + ch)
        elif ch.isdigit():
            out.append(NUMW["en"][int(ch)])
        elif ch in names:
            out.append(names[ch])
        else:
            out.append(ch)
    return " ".join(out)


VOICE_BODY = {
    "door": "the door code is {s}", "alarm": "the alarm code is {s} then press off", "garage": "garage is {s} then the little lock button",
    "pin": "the card PIN is {s}", "safe": "the safe opens with {s}", "keybox": "key box code {s}", "locker": "locker code is {s}",
    "otp": "the code they sent is {s}", "puk": "the PUK is {s}", "wifi": "wifi password is {s}", "password": "the {svc} password is {s}",
}


def personal_en(kind):
    seg = pick(["note", "note", "chat", "form", "sms", "voice-transcript", "email"])
    if seg == "sms" and kind not in SMS_T:
        seg = "note"
    if seg == "voice-transcript" and kind not in VOICE_BODY:
        seg = "chat"
    v, extra = pvalue(kind, "en")
    if kind == "gift":
        extra["store"] = v.split(" ")[0]
    if seg == "sms":
        s = pick(SMS_T[kind]).format(v=v, svc=pick(SERVICES), bank=pick(BANKS), carrier=pick(CARRIERS), num=ri(1, 80), l4=dg(4))
        if chance(0.4):
            s = {"sender": pick(["+44" + dg(10), pick(BANKS), pick(SERVICES), "INFO", dg(5)]), "received": f"{rdate(2024, 2026)} {rtime()[:5]}", "text": s}
        return s, seg
    if seg == "voice-transcript":
        s = say_code(v) if kind not in ("wifi", "password") else voice_password(v)
        body = VOICE_BODY[kind].format(s=s, svc=pick(SERVICES))
        return pick(VOICE_FRAMES).format(body=body), seg
    if seg == "form":
        n = L["en"]["n"][kind]
        if kind == "bank":
            return {"institution": pick(BANKS), "customer_id": dg1(8), "password": password(), "notes": pick(["joint account", "business", "", "mum's"])}, seg
        if kind == "card":
            brand, num = card_number()
            d = {"cardholder": person().upper(), "number": card_fmt(num), "expiry": card_exp()}
            if chance(0.6):
                d["cvc"] = cvv(brand)
            return d, seg
        if kind == "password":
            return {"site": pick(SERVICES), "username": pick([email_addr(), username()]), "password": v, "updated": rdate(2023, 2026)}, seg
        d = {"what": n, "where": pick(L["en"]["c"] + [pick(CITIES) + " flat", "rental car", "boat"]), "value": v}
        if chance(0.5):
            d["note"] = pick(["don't share", "changed last month", "ask " + pick(FIRST) + " if it fails", ""])
        return d, seg
    t = pick(EN_T[kind])
    s = en_fill(t.replace("{v2}", pin(4)), kind, v, extra)
    if seg == "chat":
        q = pick(["what's the {n} again?", "sorry, need the {n} one more time", "{n}??", "can u send me the {n}"]).format(n=L["en"]["n"][kind])
        a, b = pick(FIRST), pick(FIRST)
        if chance(0.5):
            return [{"from": a, "text": q}, {"from": b, "text": s}], seg
        return f"{a}: {q}\n{b}: {s}", seg
    if seg == "email":
        return f"Hi {pick(FIRST)},\n\n{pick(['as promised', 'for the weekend', 'before I forget', 'for your trip'])}: {s}\n\n{pick(['Cheers', 'Love', 'Best', 'x'])}\n{pick(FIRST)}", seg
    if chance(0.3):
        s = pick(L["en"]["fill"]) + " " + s
    return s, seg


def personal_l10n(lng, kind):
    D = L[lng]
    n = D["n"][kind]
    v, extra = pvalue(kind, lng)
    seg = pick(["note", "note", "chat", "form", "prose"])
    c = pick(D["c"])
    if seg == "form":
        f = D["f"]
        if kind == "card":
            brand, num = card_number()
            d = {n: card_fmt(num), f[2]: card_exp()}
            if chance(0.6):
                d[f[3]] = cvv(brand)
            if chance(0.5):
                d[f[1]] = c
            return d, "form-" + lng
        d = {f[0]: c, n: v}
        if chance(0.5):
            d[f[1]] = pick(D["fill"])
        return d, "form-" + lng
    if seg == "chat":
        q = pick(D["q"]).format(N=n, c=c)
        a = pick(D["a"]).format(v=v)
        p1, p2 = pick(FIRST), pick(FIRST)
        if chance(0.5):
            return [{"from": p1, "text": q}, {"from": p2, "text": a}], "chat-" + lng
        return f"{p1}: {q}\n{p2}: {a}", "chat-" + lng
    s = pick(D["t"]).format(N=n, v=v, c=c)
    if seg == "prose":
        fl = sample(D["fill"], 2)
        o = pick(D["ord"]).format(p=pick(FIRST), d=rdate(2025, 2026)[5:])
        parts = [fl[0], s, o] if chance(0.5) else [o, fl[0], s, fl[1]]
        sep = "" if lng in ("ja", "zh", "th") else " "
        return sep.join(parts), "prose-" + lng
    return s, "note-" + lng

# ================================================================ secret / hard: evasion techniques
TECH = []


def T(name, n=3):
    def deco(fn):
        TECH.append((name, n, fn))
        return fn
    return deco


def _token_ok(f):
    pairs = [(k, fn()) for k, fn in f["pairs"]]
    k, v = main_pair(pairs)
    return (not multiline(v)) and 16 <= len(v) <= 90 and " " not in v and k not in RAW_VARS


TOKEN_FORMATS = [f for f in FORMATS if _token_ok(f)]


def src_token(maxlen=90):
    for _ in range(50):
        f = pick(TOKEN_FORMATS)
        pairs = [(k, fn()) for k, fn in f["pairs"]]
        k, v = main_pair(pairs)
        if len(v) <= maxlen and not multiline(v) and " " not in v:
            return dict(kind=f["kind"], label=f["label"], var=k, v=v, what=f"{f['label']} {pick(['key', 'token', 'secret', 'credential'])}")
    return dict(kind="github-pat-classic", label="GitHub", var="GITHUB_TOKEN", v="ghp_" + al(36), what="GitHub token")


def src_pw(style=None):
    svc = pick(SERVICES)
    pw = password(style)
    return dict(kind="account-password", label=svc.replace("the ", ""), var="password", v=pw, what=f"{svc.replace('the ', '')} password")


def src_wifi():
    return dict(kind="wifi-password", label="wifi", var="wifi", v=password(pick(["word", "phrase", "random"])), what=f"wifi password ({pick(SSIDS)})")


PIN_KINDS = [("door-code", "door code"), ("alarm-code", "alarm code"), ("garage-code", "garage code"), ("card-pin", "card PIN"),
             ("safe-combination", "safe code"), ("locker-code", "locker code"), ("key-box-code", "key box code"), ("phone-unlock-pin", "phone unlock PIN")]


def src_pin(n=None):
    k, w = pick(PIN_KINDS)
    return dict(kind=k, label=w, var="code", v=pin(n or pick([4, 4, 4, 6])), what=w)


def src_str(alnum_only=False, maxlen=60):
    r = R.random()
    if r < 0.55:
        s = src_token(maxlen)
    elif r < 0.85:
        s = src_pw(pick(["word", "random", "mixed", "leet"]))
    else:
        s = src_wifi()
    if alnum_only:
        s["v"] = "".join(ch for ch in s["v"] if ch.isalnum()) or al(12)
    return s


def src_lower():
    r = R.random()
    if r < 0.3:
        return dict(kind="apple-app-specific-password", label="Apple", var="pw", v="-".join(rs(LOW, 4) for _ in range(4)), what="Apple app-specific password")
    if r < 0.55:
        return dict(kind="google-app-password", label="Gmail", var="pw", v="".join(rs(LOW, 4) for _ in range(4)), what="Gmail app password")
    if r < 0.8:
        return dict(kind="datadog-api-key", label="Datadog", var="DD_API_KEY", v=hx(32), what="Datadog API key")
    return dict(kind="linode-token", label="Linode", var="LINODE_TOKEN", v=hx(64)[:48], what="Linode token (first 48 chars are all it needs? no - full)")


def src_hex32():
    r = R.random()
    kinds = [("datadog-api-key", "Datadog API key"), ("mailgun-api-key", "Mailgun key"), ("openweather-api-key", "OpenWeather key"),
             ("rails-master-key", "Rails master.key"), ("pagerduty-routing-key", "PagerDuty routing key"), ("vimeo-access-token", "Vimeo token"),
             ("assemblyai-api-key", "AssemblyAI key"), ("spotify-client-secret", "Spotify client secret")]
    k, w = pick(kinds)
    return dict(kind=k, label=w, var="key", v=hx(32), what=w)


def src_card():
    brand, num = card_number()
    return dict(kind="payment-card", label=brand, var="card", v=num, what=f"{brand} card", exp=card_exp(), cvv=cvv(brand), brand=brand)


def src_seed(n=None):
    w = seed_phrase(n)
    return dict(kind="seed-phrase", label="wallet", var="seed", v=" ".join(w), words=w, what=f"{pick(WALLETS)} recovery phrase")


def res(value, s, lang="en", key=None, ns3=None):
    return dict(value=value, kind=s["kind"], lang=lang, key=key, ns3=ns3)


def say(s, *alts):
    return pick(alts).format(w=s["what"], label=s["label"])


# ---------------- encodings
@T("base64")
def t_b64():
    s = src_str()
    e = base64.b64encode(s["v"].encode()).decode()
    return res(pick([f"{s['what']} (base64 so it doesn't show in plain): {e}", f"stored as b64 -> {e}  # {s['what']}",
                     {"name": s["what"], "encoding": "base64", "data": e}]), s)


@T("base64url-nopad")
def t_b64u():
    s = src_str()
    e = base64.urlsafe_b64encode(s["v"].encode()).decode().rstrip("=")
    return res(f"{say(s, '{w}', 'the {label} thing')} – urlsafe b64, no padding: {e}", s)


@T("base32")
def t_b32():
    s = src_str()
    e = base64.b32encode(s["v"].encode()).decode()
    return res(pick([f"base32({s['what']}) = {e}", f"{s['what']}, base32'd: {e.rstrip('=')}"]), s)


@T("base85")
def t_b85():
    s = src_str()
    e = base64.b85encode(s["v"].encode()).decode()
    return res(f"{s['what']} in base85 (python b85decode): {e}", s)


@T("ascii85")
def t_a85():
    s = src_str()
    e = base64.a85encode(s["v"].encode(), adobe=True).decode()
    return res(f"Ascii85 of the {s['what']}: {e}", s)


@T("hex")
def t_hex():
    s = src_str()
    e = s["v"].encode().hex()
    return res(pick([f"{s['what']} hex: {e}", f"0x{e} <- {s['what']} as hex bytes", {"label": s["what"], "hex": e}]), s)


@T("hex-spaced")
def t_hexsp():
    s = src_str()
    e = " ".join(f"{b:02X}" for b in s["v"].encode())
    return res(f"{s['what']}:\n{e}", s)


@T("hex-escaped")
def t_hexesc():
    s = src_str()
    e = "".join(f"\\x{b:02x}" for b in s["v"].encode())
    return res(f'echo -e "{e}"  # prints the {s["what"]}', s)


@T("percent-encoding")
def t_pct():
    s = src_str()
    e = "".join(f"%{b:02X}" for b in s["v"].encode())
    return res(f"{s['what']} url-encoded: {e}", s)


@T("double-url-encoding")
def t_pct2():
    s = src_str()
    e = "".join(f"%25{b:02X}" for b in s["v"].encode())
    return res(f"decode twice -> {s['what']}: {e}", s)


@T("rot13")
def t_rot13():
    s = src_str()
    return res(pick([f"{s['what']} (rot13): {codecs.encode(s['v'], 'rot13')}", f"rot13'd so nobody reads it over my shoulder: {codecs.encode(s['v'], 'rot13')} ({s['what']})"]), s)


def rot47(x):
    return "".join(chr(33 + ((ord(c) + 14) % 94)) if 33 <= ord(c) <= 126 else c for c in x)


@T("rot47")
def t_rot47():
    s = src_str()
    return res(f"{s['what']} rot47: {rot47(s['v'])}", s)


def caesar(x, k):
    out = []
    for c in x:
        if c.islower():
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        elif c.isupper():
            out.append(chr((ord(c) - 65 + k) % 26 + 65))
        elif c.isdigit():
            out.append(str((int(c) + k) % 10))
        else:
            out.append(c)
    return "".join(out)


@T("caesar-shift")
def t_caesar():
    s = src_str()
    k = ri(2, 9)
    return res(f"{s['what']} shifted +{k} (letters and digits, wrap around) – shift back {k}: {caesar(s['v'], k)}", s)


def atbash(x):
    return "".join(chr(219 - ord(c)) if c.islower() else chr(155 - ord(c)) if c.isupper() else c for c in x)


@T("atbash")
def t_atbash():
    s = src_str()
    return res(f"atbash cipher (a<->z) of my {s['what']}: {atbash(s['v'])}", s)


@T("reversed")
def t_rev():
    s = src_str()
    return res(pick([f"{s['what']} backwards: {s['v'][::-1]}", f"{s['v'][::-1]}  (read right to left) – {s['what']}"]), s)


@T("reverse-then-base64")
def t_revb64():
    s = src_str()
    e = base64.b64encode(s["v"][::-1].encode()).decode()
    return res(f"{s['what']}: base64 -d | rev  ->  {e}", s)


@T("base64-of-hex")
def t_b64hex():
    s = src_str()
    e = base64.b64encode(s["v"].encode().hex().encode()).decode()
    return res(f"{s['what']} = unhex(b64decode('{e}'))", s)


@T("double-base64")
def t_b64b64():
    s = src_str()
    e = base64.b64encode(base64.b64encode(s["v"].encode())).decode()
    return res(f"b64 twice: {e}  // {s['what']}", s)


@T("gzip-base64")
def t_gzip():
    s = src_str()
    e = base64.b64encode(gzip.compress(s["v"].encode(), mtime=0)).decode()
    return res(f"{s['what']} | gzip | base64:\n{e}", s)


@T("zlib-base64")
def t_zlib():
    s = src_str()
    e = base64.b64encode(zlib.compress(s["v"].encode(), 9)).decode()
    return res({"what": s["what"], "codec": "zlib+base64", "blob": e}, s)


@T("decimal-char-codes")
def t_dec():
    s = src_str()
    return res(f"{s['what']} as ASCII codes: {' '.join(str(ord(c)) for c in s['v'])}", s)


@T("octal-char-codes")
def t_oct():
    s = src_str()
    return res(f"printf '{''.join(chr(92) + format(ord(c), '03o') for c in s['v'])}'   # {s['what']}", s)


@T("binary-octets")
def t_bin():
    s = src_str(maxlen=40)
    return res(f"{s['what']} in binary:\n{' '.join(format(ord(c), '08b') for c in s['v'])}", s)


@T("unicode-escapes")
def t_uesc():
    s = src_str()
    e = "".join("\\u%04x" % ord(c) for c in s["v"])
    return res(f'"{e}"  <- JSON-escaped {s["what"]}', s)


@T("html-hex-entities")
def t_hent():
    s = src_str()
    return res(f"<p>{s['label']}: {''.join(f'&#x{ord(c):x};' for c in s['v'])}</p>", s)


@T("html-decimal-entities")
def t_hdec():
    s = src_str()
    return res(f"{s['what']}: {''.join(f'&#{ord(c)};' for c in s['v'])}", s)


@T("morse-code")
def t_morse():
    s = src_pw(pick(["word", "phrase"])) if chance(0.6) else src_pin()
    v = s["v"].lower()
    s["v"] = "".join(c for c in s["v"] if c.lower() in MORSE)
    code = " / ".join(MORSE[c] for c in v if c in MORSE)
    return res(f"{s['what']} in morse (all lowercase): {code}", s)


@T("nato-phonetic")
def t_nato():
    s = src_str()
    out = []
    for c in s["v"]:
        if c.isalpha():
            out.append(("UPPER " if c.isupper() else "") + NATO[c.lower()])
        elif c.isdigit():
            out.append(NUMW["en"][int(c)])
        else:
            out.append(repr(c))
    return res(f"{s['what']}: {' '.join(out)}", s)


@T("spelled-digits")
def t_spell():
    s = src_pin()
    return res(pick([f"the {s['what']} is {spell_digits(s['v'])}", f"{s['what']}: {spell_digits(s['v'], sep='-')}"]), s)


@T("spelled-digits-other-language")
def t_spell2():
    s = src_pin()
    lg = pick([x for x in NUMW if x != "en"])
    return res(f"{s['what']} -> {spell_digits(s['v'], lg)}", s, lang=lg if chance(0.5) else "en")


@T("mixed-language-digit-words")
def t_mixdig():
    s = src_pin(pick([4, 6]))
    langs = list(NUMW)
    words = [NUMW[pick(langs)][int(c)] for c in s["v"]]
    return res(f"{s['what']}: {' '.join(words)}", s)


ROMAN = ["nulla", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]


@T("roman-numeral-digits")
def t_roman():
    s = src_pin()
    return res(f"{s['what']} (one numeral per digit): {'-'.join(ROMAN[int(c)] for c in s['v'])}", s)


@T("number-in-words")
def t_numwords():
    s = src_pin(4)
    ones = NUMW["en"]
    teens = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    n = int(s["v"])
    if s["v"][0] == "0":
        s["v"] = str(ri(1000, 9999))
        n = int(s["v"])
    th, rest = divmod(n, 1000)
    h, r2 = divmod(rest, 100)
    parts = [ones[th] + " thousand"] if th else []
    if h:
        parts.append(ones[h] + " hundred")
    if r2:
        if r2 < 10:
            parts.append(ones[r2])
        elif r2 < 20:
            parts.append(teens[r2 - 10])
        else:
            parts.append(tens[r2 // 10] + ("-" + ones[r2 % 10] if r2 % 10 else ""))
    return res(f"the {s['what']} is the number {' '.join(parts)}", s)


@T("xor-with-stated-key")
def t_xor():
    s = src_str()
    k = ri(1, 255)
    e = bytes(b ^ k for b in s["v"].encode()).hex()
    return res(pick([f"{s['what']} XOR 0x{k:02x} (each byte): {e}", {"cipher": "xor", "key": k, "hex": e, "note": s["what"]}]), s)


@T("quoted-printable-all")
def t_qp():
    s = src_str()
    return res(f"Content-Transfer-Encoding: quoted-printable\n\n{s['what']}=3A {''.join(f'={b:02X}' for b in s['v'].encode())}", s)


@T("uuencode")
def t_uu():
    s = src_str(maxlen=44)
    e = binascii.b2a_uu(s["v"].encode()).decode().rstrip("\n")
    return res(f"begin 644 {slug(s['label']) or 'secret'}.txt\n{e}\n`\nend", s)


@T("utf16-hex")
def t_u16():
    s = src_str()
    return res(f"{s['what']} (UTF-16LE hex): {s['v'].encode('utf-16-le').hex()}", s)


@T("char-code-offset")
def t_off():
    s = src_str(alnum_only=True)
    k = pick([1, 2, -1])
    e = "".join(chr(ord(c) + k) for c in s["v"])
    return res(f"every character of the {s['what']} moved {'+' if k > 0 else ''}{k} in ASCII, undo it: {e}", s)


def vigenere(x, key):
    out, j = [], 0
    for c in x:
        if c.isalpha():
            k = ord(key[j % len(key)]) - 97
            base = 97 if c.islower() else 65
            out.append(chr((ord(c) - base + k) % 26 + base))
            j += 1
        else:
            out.append(c)
    return "".join(out)


@T("vigenere")
def t_vig():
    s = src_str()
    key = pick(["lemon", "garden", "kiwi", "oslo", "piano", "tango"])
    return res(f"{s['what']} vigenère, key '{key}', letters only: {vigenere(s['v'], key)}", s)


BRAILLE = dict(zip("abcdefghijklmnopqrstuvwxyz", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵"))


def to_braille(x):
    out = []
    for c in x:
        if c.isdigit():
            out.append("⠼" + BRAILLE["jabcdefghi"[int(c)]])
        elif c.isupper():
            out.append("⠠" + BRAILLE[c.lower()])
        elif c in BRAILLE:
            out.append(BRAILLE[c])
        else:
            out.append(c)
    return "".join(out)


@T("braille")
def t_braille():
    s = src_str(alnum_only=True) if chance(0.6) else src_pin()
    return res(f"{s['what']} ⠿ {to_braille(s['v'])}", s)


def fullwidth(x):
    return "".join(chr(ord(c) + 0xFEE0) if 33 <= ord(c) <= 126 else c for c in x)


@T("fullwidth-characters")
def t_fw():
    s = src_str()
    return res(pick([f"{s['what']}: {fullwidth(s['v'])}", f"{fullwidth(s['v'])}"]) if chance(0.7) else f"{s['label']} {fullwidth(s['v'])}", s)


def math_alpha(x, up0, lo0, dg0=None):
    out = []
    for c in x:
        if "A" <= c <= "Z":
            out.append(chr(up0 + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(lo0 + ord(c) - 97))
        elif dg0 and c.isdigit():
            out.append(chr(dg0 + int(c)))
        else:
            out.append(c)
    return "".join(out)


@T("math-bold-unicode")
def t_mbold():
    s = src_str()
    return res(f"{s['what']} → {math_alpha(s['v'], 0x1D400, 0x1D41A, 0x1D7CE)}", s)


@T("math-monospace-unicode")
def t_mmono():
    s = src_str()
    return res(f"`{math_alpha(s['v'], 0x1D670, 0x1D68A, 0x1D7F6)}` ({s['what']})", s)


CYR = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "A": "А", "B": "В", "E": "Е", "K": "К",
       "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х", "i": "і", "s": "ѕ", "j": "ј"}
GRK = {"A": "Α", "B": "Β", "E": "Ε", "H": "Η", "I": "Ι", "K": "Κ", "M": "Μ", "N": "Ν", "O": "Ο", "P": "Ρ", "T": "Τ",
       "X": "Χ", "Y": "Υ", "Z": "Ζ", "o": "ο", "v": "ν"}


@T("cyrillic-homoglyphs", 4)
def t_cyr():
    s = src_str()
    e = "".join(CYR.get(c, c) if chance(0.8) else c for c in s["v"])
    return res(pick([f"{s['label']}: {e}", f"{s['what']} {e}", f"{s['var']}={e}"]), s)


@T("greek-homoglyphs")
def t_grk():
    s = src_str()
    e = "".join(GRK.get(c, c) for c in s["v"])
    return res(f"{s['what']}: {e}", s)


def insert_every(x, ins, p=1.0):
    return ins.join(x) if p >= 1 else "".join(c + (ins if chance(p) else "") for c in x)


@T("zero-width-spaces", 4)
def t_zwsp():
    s = src_str()
    return res(f"{s['what']}: {insert_every(s['v'], chr(0x200B))}", s)


@T("soft-hyphens")
def t_shy():
    s = src_str()
    return res(f"{s['what']} = {insert_every(s['v'], chr(0xAD), 0.6)}", s)


@T("word-joiners")
def t_wj():
    s = src_str()
    return res(f"{s['var']}: {insert_every(s['v'], chr(0x2060))}", s)


@T("combining-grapheme-joiner")
def t_cgj():
    s = src_str()
    return res(f"{s['what']} {insert_every(s['v'], chr(0x034F), 0.7)}", s)


@T("rtl-override")
def t_rlo():
    s = src_str()
    return res(f"{s['what']}: \u202e{s['v'][::-1]}\u202c", s)


@T("unicode-tag-smuggling")
def t_tags():
    s = src_str()
    hidden = "".join(chr(0xE0000 + ord(c)) for c in s["v"])
    return res(pick(["remember to water the plants", "nice weather today", "todo: call the dentist"]) + " " + hidden + f"  (the invisible part is the {s['what']})", s)


@T("zero-width-binary-stego")
def t_zwbin():
    s = src_str(maxlen=24)
    bits = "".join(format(ord(c), "08b") for c in s["v"])
    hid = "".join("\u200b" if b == "0" else "\u200c" for b in bits)
    return res(f"shopping: milk, eggs{hid}, bread — ZWSP=0 ZWNJ=1, 8 bits per char = {s['what']}", s)


@T("nbsp-thin-space-grouping")
def t_nbsp():
    s = src_str()
    v = s["v"]
    seps = ["\u00a0", "\u2009", "\u202f"]
    e = "".join(v[i:i + 4] + pick(seps) for i in range(0, len(v), 4)).rstrip("".join(seps))
    return res(f"{s['what']} (remove the spaces): {e}", s)


@T("line-separator-split")
def t_lsep():
    s = src_str()
    v = s["v"]
    m = len(v) // 2
    return res(f"{s['what']}: {v[:m]}\u2028{v[m:]}", s)


# ---------------- splitting / structure
def chunks(x, n):
    k = max(1, -(-len(x) // n))
    return [x[i:i + k] for i in range(0, len(x), k)]


@T("split-object-fields", 4)
def t_splitobj():
    s = src_str()
    parts = chunks(s["v"], ri(2, 4))
    names = pick([["part1", "part2", "part3", "part4"], ["a", "b", "c", "d"], ["first", "second", "third", "fourth"], ["x1", "x2", "x3", "x4"]])
    d = {"about": f"{s['what']} split up, join in order"}
    for i, p in enumerate(parts):
        d[names[i]] = p
    return res(d, s)


@T("split-array-items", 4)
def t_splitarr():
    s = src_str()
    parts = chunks(s["v"], ri(2, 5))
    return res([f"{s['what']} (concat these):"] + parts, s)


@T("split-lines-in-note")
def t_splitlines():
    s = src_str()
    parts = chunks(s["v"], 3)
    return res(f"pieces of the {s['what']}, top to bottom:\n" + "\n".join(parts) + "\n(no spaces)", s)


@T("split-across-chat-messages", 4)
def t_splitchat():
    s = src_str()
    parts = chunks(s["v"], ri(2, 4))
    a, b = pick(FIRST), pick(FIRST)
    msgs = [{"from": a, "text": f"sending the {s['what']} in pieces so it doesn't get flagged"}]
    for p in parts:
        msgs.append({"from": a, "text": p})
    msgs.append({"from": b, "text": "got it, glued together 👍"})
    return res(msgs, s)


@T("split-key-hex-half", 4)
def t_keyhalf():
    s = src_str(maxlen=40)
    v = s["v"]
    m = len(v) // 2
    key = "mem_" + v[m:].encode().hex()
    return res(f"{s['what']}: {v[:m]}… (second half is the memory key, hex)", s, key=key)


@T("key-hex-full", 4)
def t_keyfull():
    s = src_str(maxlen=30) if chance(0.6) else src_pin()
    key = "mem_" + s["v"].encode().hex()
    return res(pick([f"{s['what']} is stored in this entry's key (hex-decode it)", f"{s['label']}: see key ;)"]), s, key=key)


@T("namespace-half", 4)
def t_nshalf():
    s = src_str(maxlen=40)
    v = s["v"]
    m = len(v) // 2
    return res(f"{s['what']} = <folder name> + {v[m:]}", s, ns3=v[:m])


@T("namespace-full", 3)
def t_nsfull():
    s = src_str(maxlen=40) if chance(0.5) else src_pin()
    return res(pick([f"the {s['what']} is the name of the folder this is saved in", f"{s['what']} → check the namespace"]), s, ns3=s["v"])


@T("every-second-char-filler")
def t_interleave():
    s = src_str()
    e = "".join(c + pick(LOW + DIG) for c in s["v"])
    return res(f"{s['what']} — read only the 1st, 3rd, 5th… characters: {e}", s)


@T("interleaved-two-strings")
def t_inter2():
    s = src_str()
    v = s["v"]
    return res({"note": f"{s['what']}: zip A and B (A[0]B[0]A[1]B[1]…)", "A": v[0::2], "B": v[1::2]}, s)


@T("reordered-indexed-chunks", 4)
def t_reord():
    s = src_str()
    parts = chunks(s["v"], ri(3, 5))
    idx = list(range(len(parts)))
    R.shuffle(idx)
    return res({"hint": f"{s['what']}, order by key", **{str(i + 1): parts[i] for i in idx}}, s)


@T("shuffled-array-with-positions")
def t_shufarr():
    s = src_str()
    parts = chunks(s["v"], ri(3, 5))
    items = [f"{i + 1}:{p}" for i, p in enumerate(parts)]
    R.shuffle(items)
    return res(items + [f"sort by number -> {s['what']}"], s)


@T("chunks-reverse-order")
def t_chrev():
    s = src_str()
    parts = chunks(s["v"], ri(3, 4))
    return res(f"{s['what']} chunks in reverse order: {' | '.join(parts[::-1])}", s)


@T("swapped-halves")
def t_swap():
    s = src_str()
    v = s["v"]
    m = len(v) // 2
    return res(f"{s['what']} with the halves swapped: {v[m:]}{v[:m]}  (split at {len(v) - m})", s)


@T("doubled-characters")
def t_double():
    s = src_str()
    return res(f"{''.join(c * 2 for c in s['v'])}  ← {s['what']}, every char typed twice", s)


@T("noise-character-insertion")
def t_noise():
    s = src_str(alnum_only=True)
    nz = pick(["~", "#", "^", "§", "¦"])
    e = "".join(c + (nz if chance(0.5) else "") for c in s["v"])
    return res(f"{s['what']} (ignore every {nz}): {e}", s)


@T("acrostic-lines")
def t_acro():
    s = src_pw("word") if chance(0.5) else src_pin()
    v = "".join(c for c in s["v"] if c.isalnum())[:12]
    s["v"] = v
    words = {c: [w for w in BIP39 if w[0] == c] for c in LOW}
    lines = []
    for c in v:
        if c.isdigit():
            lines.append(f"{c} {pick(['eggs', 'apples', 'tins of beans', 'rolls of tape', 'lemons'])}")
        else:
            w = pick(words.get(c.lower(), ["x"]) or ["x" + c])
            w = (c.upper() if c.isupper() else c.lower()) + w[1:]
            lines.append(w + " " + pick(["please", "(big)", "x2", "for Sunday", ""]).strip())
    return res("grocery list (first char of each line = " + s["what"] + ", case matters):\n" + "\n".join(lines), s)


@T("initial-letters-sentence")
def t_initials():
    s = src_pw("word")
    v = "".join(c for c in s["v"] if c.isalpha())[:10]
    s["v"] = v
    ws = []
    for c in v:
        cand = [w for w in BIP39 if w[0] == c.lower()] or [c.lower() + "x"]
        w = pick(cand)
        ws.append(w.capitalize() if c.isupper() else w)
    return res(f"{' '.join(ws)} — initials, keep case = {s['what']}", s)


@T("hidden-capitals-in-text")
def t_caps():
    s = dict(kind="account-password", label="email", var="pw", v=rs(UPP, ri(6, 9)), what=f"{pick(SERVICES)} password (all caps)")
    filler = "the weather was fine and we walked along the river after lunch then took the tram back home quite late".split()
    out, i = [], 0
    for w in filler:
        if i < len(s["v"]) and chance(0.6):
            pos = ri(0, len(w) - 1)
            w = w[:pos] + s["v"][i] + w[pos + 1:]
            i += 1
        out.append(w)
    while i < len(s["v"]):
        out.append(s["v"][i] + "x")
        i += 1
    return res(" ".join(out) + f". (capitals = {s['what']})", s)


# ---------------- code that builds the value
@T("python-join-list", 4)
def t_pyjoin():
    s = src_str()
    parts = chunks(s["v"], ri(3, 5))
    return res(f"# {s['what']}\n{lower_var(s['var'])} = ''.join([{', '.join(repr(p) for p in parts)}])", s)


@T("python-slice-reverse")
def t_pyrev():
    s = src_str()
    return res(f"key = {s['v'][::-1]!r}[::-1]  # {s['what']}", s)


@T("python-chr-list")
def t_pychr():
    s = src_str()
    return res(f"token = ''.join(map(chr, {[ord(c) for c in s['v']]}))  # {s['label']}", s)


@T("python-bytes-fromhex")
def t_pyhex():
    s = src_str()
    return res(f"SECRET = bytes.fromhex('{s['v'].encode().hex()}').decode()  # {s['what']}", s)


@T("js-fromcharcode")
def t_jschr():
    s = src_str()
    return res(f"const k = String.fromCharCode({', '.join(str(ord(c)) for c in s['v'])}); // {s['what']}", s)


@T("js-array-reverse-join")
def t_jsrev():
    s = src_str()
    return res(f"const t = {json.dumps(list(s['v'][::-1]))}.reverse().join(''); // {s['label']}", s)


@T("js-atob")
def t_atob():
    s = src_str()
    return res(f"headers: {{ Authorization: 'Bearer ' + atob('{base64.b64encode(s['v'].encode()).decode()}') }} // {s['label']}", s)


@T("bash-printf-hex")
def t_printf():
    s = src_str()
    return res(f"export {s['var'].upper()}=$(printf '{''.join(f'{chr(92)}x{b:02x}' for b in s['v'].encode())}')", s)


@T("shell-string-concatenation")
def t_shcat():
    s = src_str()
    parts = chunks(s["v"], 3)
    return res(f"{s['var'].upper()}=\"{parts[0]}\"'{parts[1]}'\"{''.join(parts[2:])}\"  # {s['label']}", s)


@T("env-var-interpolation")
def t_interp():
    s = src_str()
    parts = chunks(s["v"], 3)
    names = pick([["A", "B", "C"], ["P1", "P2", "P3"], ["X", "Y", "Z"]])
    lines = [f"{n}={p}" for n, p in zip(names, parts)]
    return res("\n".join(lines) + f"\n{s['var'].upper()}=${{{names[0]}}}${{{names[1]}}}${{{names[2]}}}", s)


@T("powershell-frombase64")
def t_ps():
    s = src_str()
    return res(f"$tok = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{base64.b64encode(s['v'].encode()).decode()}'))  # {s['label']}", s)


@T("c-char-array")
def t_carr():
    s = src_str()
    return res(f"static const char k[] = {{{', '.join(repr(c) if c != chr(39) else chr(39) + chr(92) + chr(39) + chr(39) for c in s['v'])}, 0}}; /* {s['what']} */", s)


@T("go-byte-slice")
def t_gobytes():
    s = src_str()
    return res(f"var key = string([]byte{{{', '.join(f'0x{b:02x}' for b in s['v'].encode())}}}) // {s['label']}", s)


@T("java-char-array")
def t_java():
    s = src_str()
    return res(f"String pw = new String(new char[]{{{', '.join(repr(c) for c in s['v'] if c != chr(39))}}}); // {s['what']}", s)


@T("sql-concat")
def t_sql():
    s = src_str()
    parts = chunks(s["v"], 3)
    return res(f"UPDATE settings SET value = CONCAT({', '.join(repr(p) for p in parts)}) WHERE name = '{lower_var(s['var'])}';", s)


@T("spreadsheet-char-formula")
def t_excel():
    s = src_str(maxlen=24)
    return res(f"=CONCATENATE({', '.join(f'CHAR({ord(c)})' for c in s['v'])})   ← cell B2 is the {s['what']}", s)


@T("regex-escaped-every-char")
def t_reesc():
    s = src_str(alnum_only=True)
    return res(f"{s['what']} /{''.join(chr(92) + c for c in s['v'])}/", s)


@T("bignum-decimal")
def t_bignum():
    s = src_str(maxlen=40)
    n = int.from_bytes(s["v"].encode(), "big")
    return res(f"{s['what']} = int.to_bytes({n}, {len(s['v'])}, 'big')", s)


@T("rust-concat-macro")
def t_rust():
    s = src_str()
    parts = chunks(s["v"], 3)
    return res(f"const KEY: &str = concat!({', '.join(json.dumps(p) for p in parts)}); // {s['label']}", s)


# ---------------- math / riddles / common knowledge
EVENTS = [("the year the Berlin Wall fell", "1989"), ("the year of the first Moon landing", "1969"), ("the year the Titanic sank", "1912"),
          ("the year WW2 ended", "1945"), ("the year Columbus reached America", "1492"), ("the year of the French Revolution", "1789"),
          ("the year the first iPhone came out", "2007"), ("the year Germany reunified", "1990"), ("the year the Euro coins were introduced", "2002"),
          ("the year of the Battle of Hastings", "1066"), ("the year Chernobyl happened", "1986"), ("the year the Magna Carta was sealed", "1215")]
PI = "14159265358979323846264338327950288419716939937510"


@T("pin-arithmetic", 4)
def t_arith():
    s = src_pin(4)
    n = int(s["v"])
    if s["v"][0] == "0":
        n = ri(1000, 9999)
        s["v"] = str(n)
    a = ri(2, 9)
    q, r = divmod(n, a)
    return res(pick([f"{s['what']} = {a} × {q} + {r}", f"{s['what']}: {n + 1234} minus 1234", f"{s['what']} is {q} times {a}, plus {r}"]), s)


@T("pin-historic-year")
def t_year():
    s = src_pin(4)
    ev, y = pick(EVENTS)
    s["v"] = y
    return res(pick([f"{s['what']} = {ev}", f"the {s['what']} is easy, it's {ev}"]), s)


@T("pin-two-historic-years")
def t_year2():
    s = src_pin(4)
    (e1, y1), (e2, y2) = sample(EVENTS, 2)
    s["v"] = y1[2:] + y2[2:]
    return res(f"{s['what']}: last two digits of {e1}, then last two of {e2}", s)


@T("pin-pi-digits")
def t_pi():
    s = src_pin(4)
    st = ri(1, 30)
    s["v"] = PI[st - 1:st + 3]
    return res(f"{s['what']} = decimals {st} to {st + 3} of pi", s)


KEYPAD = {c: d for d, letters_ in {"2": "abc", "3": "def", "4": "ghi", "5": "jkl", "6": "mno", "7": "pqrs", "8": "tuv", "9": "wxyz"}.items() for c in letters_}


@T("phone-keypad-word")
def t_keypad():
    s = src_pin(4)
    w = pick(["bear", "cake", "lion", "moon", "frog", "home", "door", "gate", "rose", "wolf", "park", "jazz", "beach", "hello"])
    s["v"] = "".join(KEYPAD[c] for c in w)
    return res(f"{s['what']} spells {w.upper()} on a phone keypad", s)


@T("pin-from-birthday-in-record")
def t_bday():
    s = src_pin(4)
    d, m, y = ri(1, 28), ri(1, 12), ri(1940, 1995)
    who = pick(["Mum", "Dad", "Grandpa", "Aunt Rosa", "Oma"])
    rule = pick(["DDMM", "MMDD", "YYYY"])
    s["v"] = f"{d:02d}{m:02d}" if rule == "DDMM" else f"{m:02d}{d:02d}" if rule == "MMDD" else str(y)
    return res({"contact": who, "birthday": f"{y}-{m:02d}-{d:02d}", "note": f"{s['what']} = {who}'s birthday as {rule}"}, s)


@T("pin-clock-time")
def t_clock():
    s = src_pin(4)
    h, m = ri(1, 11), pick([15, 30, 45, 5, 10, 20, 25, 40, 50, 55])
    am = chance(0.5)
    hh = h if am else h + 12
    if hh == 24:
        hh = 12
    s["v"] = f"{hh:02d}{m:02d}"
    phr = {15: f"quarter past {h}", 30: f"half past {h}", 45: f"quarter to {h % 12 + 1}"}.get(m, f"{m} past {h}")
    if m == 45:
        s["v"] = f"{hh:02d}45"
    return res(f"{s['what']} is the time in 24h format: {phr} in the {'morning' if am else 'afternoon/evening'}", s)


@T("pin-digit-counts")
def t_counts():
    s = src_pin(4)
    s["v"] = "".join(str(ri(1, 9)) for _ in range(4))
    items = ["apples", "pears", "plums", "lemons", "onions", "eggs"]
    its = sample(items, 4)
    return res(f"order (quantities in this order are the {s['what']}): " + ", ".join(f"{c} {i}" for c, i in zip(s["v"], its)), s)


@T("pin-hidden-in-coordinates")
def t_coord():
    s = src_pin(4)
    lat = f"{ri(35, 60)}.{dg(2)}{s['v']}"
    return res(f"cabin location {lat}, {ri(-9, 30)}.{dg(6)} – {s['what']} is the last four digits of the latitude", s)


@T("pin-old-code-plus-one")
def t_plus1():
    s = src_pin(4)
    old = "".join(str((int(c) - 1) % 10) for c in s["v"])
    return res(f"new {s['what']} = old one ({old}) with every digit +1 (9 wraps to 0)", s)


@T("pin-reverse-of-stated")
def t_revpin():
    s = src_pin(4)
    return res(f"{s['what']}: NOT {s['v'][::-1]} – it's that backwards", s)


@T("pin-as-appointment-time")
def t_appt():
    s = src_pin(4)
    hh, mm = ri(7, 19), ri(0, 59)
    s["v"] = f"{hh:02d}{mm:02d}"
    return res(f"dentist {rdate(2025, 2026)} at {hh:02d}:{mm:02d}  ← the {s['what']} is this time without the colon", s)


@T("pin-as-price")
def t_price():
    s = src_pin(4)
    return res(f"paid {s['v'][:2]},{s['v'][2:]} € for the lock – also its {s['what']} (drop the comma)", s)


@T("pin-room-floor-seat")
def t_room():
    s = src_pin(4)
    v = s["v"]
    return res(f"room {v[0]}, floor {v[1]}, row {v[2]}, seat {v[3]} → in that order = {s['what']}", s)


@T("digits-caesar-plus-three")
def t_dig3():
    s = src_pin(pick([4, 6]))
    e = "".join(str((int(c) + 3) % 10) for c in s["v"])
    return res(f"{s['what']} stored +3 per digit: {e}", s)


@T("pin-ascii-hex")
def t_pinhex():
    s = src_pin()
    return res(f"{s['what']} 0x{s['v'].encode().hex()}", s)


@T("pin-sum-clues")
def t_sumclue():
    s = src_pin(4)
    d = [int(c) for c in s["v"]]
    return res(f"{s['what']} riddle: digits d1..d4; d1={d[0]}, d2=d1{'+' if d[1] >= d[0] else '-'}{abs(d[1] - d[0])}, d3={d[2]}, d4 = d3{'+' if d[3] >= d[2] else '-'}{abs(d[3] - d[2])}", s)


@T("letter-positions-a1z26")
def t_a1z26():
    s = src_pw("word")
    s["v"] = "".join(c for c in s["v"] if c.isalpha()).lower()[:10]
    return res(f"{s['what']} (all lowercase): {'-'.join(str(ord(c) - 96) for c in s['v'])}", s)


QW = "`1234567890-=qwertyuiop[]asdfghjkl;'zxcvbnm,./"


@T("keyboard-shift-right")
def t_kb():
    s = src_pw("word")
    s["v"] = "".join(c for c in s["v"].lower() if c in QW[:-1])
    e = "".join(QW[QW.index(c) + 1] for c in s["v"])
    return res(f"typed {s['what']} with my hand one key to the right on QWERTY: {e}", s)


# ---------------- digits & letters in symbol sets
KEYCAP = "\ufe0f\u20e3"


@T("emoji-keycap-digits")
def t_keycap():
    s = src_pin()
    return res(f"{s['what']} {''.join(c + KEYCAP for c in s['v'])}", s)


@T("emoji-substitution-table")
def t_emojitab():
    s = src_pin(pick([4, 6]))
    em = sample(["🍎", "🍌", "🍇", "🍓", "🍒", "🍑", "🥝", "🍍", "🥥", "🍋"], 10)
    table = {str(i): em[i] for i in range(10)}
    return res({"legend": " ".join(f"{em[i]}={i}" for i in range(10)), "code": "".join(table[c] for c in s["v"]), "what": s["what"]}, s)


SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
CIRC = str.maketrans("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "⓪①②③④⑤⑥⑦⑧⑨ⓐⓑⓒⓓⓔⓕⓖⓗⓘⓙⓚⓛⓜⓝⓞⓟⓠⓡⓢⓣⓤⓥⓦⓧⓨⓩⒶⒷⒸⒹⒺⒻⒼⒽⒾⒿⓀⓁⓂⓃⓄⓅⓆⓇⓈⓉⓊⓋⓌⓍⓎⓏ")


@T("superscript-digits")
def t_sup():
    s = src_pin()
    return res(f"{s['what']}{s['v'].translate(SUP)}", s)


@T("subscript-digits")
def t_sub():
    s = src_pin()
    return res(f"H{s['v'].translate(SUB)}O lol – that's the {s['what']}", s)


@T("circled-characters")
def t_circ():
    s = src_str(alnum_only=True) if chance(0.5) else src_pin()
    return res(f"{s['what']}: {s['v'].translate(CIRC)}", s)


@T("regional-indicator-letters")
def t_flags():
    s = dict(kind="wifi-password", label="wifi", var="wifi", v=rs(UPP, ri(8, 12)), what="guest wifi password (caps)")
    e = "\u200b".join(chr(0x1F1E6 + ord(c) - 65) for c in s["v"])
    return res(f"{s['what']} {e}", s)


@T("parenthesized-letters")
def t_paren():
    s = dict(kind="account-password", label="pw", var="pw", v=rs(LOW, ri(8, 12)), what=f"{pick(SERVICES)} password (lowercase)")
    return res(f"{s['what']}: {''.join(chr(0x249C + ord(c) - 97) for c in s['v'])}", s)


@T("squared-letters")
def t_sq():
    s = dict(kind="account-password", label="pw", var="pw", v=rs(UPP, ri(8, 12)), what=f"{pick(SERVICES)} password (caps)")
    return res(f"{''.join(chr(0x1F130 + ord(c) - 65) for c in s['v'])} = {s['what']}", s)


SMALLCAPS = dict(zip("abcdefghijklmnopqrstuvwxyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘǫʀsᴛᴜᴠᴡxʏᴢ"))
UPSIDE = dict(zip("abcdefghijklmnopqrstuvwxyz0123456789-", "ɐqɔpǝɟƃɥᴉɾʞlɯuodbɹsʇnʌʍxʎz0ƖᄅƐㄣϛ9ㄥ86-"))


@T("small-caps-letters")
def t_smallcaps():
    s = src_lower()
    return res(f"{s['what']}: {''.join(SMALLCAPS.get(c, c) for c in s['v'])}", s)


@T("upside-down-text")
def t_upside():
    s = src_lower()
    return res(f"{s['what']} (flip your phone): {''.join(UPSIDE.get(c, c) for c in s['v'][::-1])}", s)


@T("morse-emoji")
def t_memoji():
    s = src_pin()
    return res(f"{s['what']}: " + " ".join(MORSE[c].replace(".", "🔴").replace("-", "➖") for c in s["v"]), s)


# ---------------- seed phrases
@T("seed-first-four-letters", 4)
def t_seed4():
    s = src_seed(12)
    return res(f"backup (first 4 letters are enough for BIP39): {' '.join(w[:4] for w in s['words'])}", s)


@T("seed-shuffled-numbered", 4)
def t_seedshuf():
    s = src_seed()
    items = [f"{i + 1}. {w}" for i, w in enumerate(s["words"])]
    R.shuffle(items)
    return res(items if chance(0.5) else "words (sort by number): " + ", ".join(items), s)


@T("seed-split-messages")
def t_seedmsg():
    s = src_seed(12)
    ws = s["words"]
    a = pick(FIRST)
    return res([{"from": a, "text": "part 1: " + " ".join(ws[:4])}, {"from": a, "text": "part 2: " + " ".join(ws[4:8])},
                {"from": a, "text": "part 3: " + " ".join(ws[8:])}, {"from": a, "text": f"that's the {s['what']}, delete after"}], s)


@T("seed-disguised-as-list")
def t_seedlist():
    s = src_seed(12)
    return res(f"packing list (order matters!! wallet):\n" + "\n".join(f"- {w}" for w in s["words"]), s)


@T("seed-rot13-words")
def t_seedrot():
    s = src_seed()
    return res(f"{s['what']} rot13: {codecs.encode(s['v'], 'rot13')}", s)


@T("seed-words-reversed")
def t_seedrev():
    s = src_seed(12)
    return res(f"{s['what']}, last word first: {' '.join(s['words'][::-1])}", s)


@T("seed-every-word-spelled-backwards")
def t_seedbk():
    s = src_seed(12)
    return res(f"each word backwards: {' '.join(w[::-1] for w in s['words'])} ({s['what']})", s)


@T("seed-in-object-columns")
def t_seedcols():
    s = src_seed(12)
    ws = s["words"]
    return res({"col_a": ws[0::3], "col_b": ws[1::3], "col_c": ws[2::3], "read": f"row by row, a-b-c → {s['what']}"}, s)


@T("seed-hidden-in-story")
def t_seedstory():
    s = src_seed(12)
    ws = s["words"]
    return res("Story for the kids: " + " ".join(f"*{w}*" + pick([" then", " and", ", so", " with", " near"]) for w in ws) + f" the end. (starred words = {s['what']})", s)


@T("seed-number-words-indexed")
def t_seedidx():
    s = src_seed(12)
    return res({f"w{i:02d}": w for i, w in enumerate(s["words"], 1)} | {"t": s["what"]}, s)


# ---------------- cards
@T("card-groups-out-of-order")
def t_cardgrp():
    s = src_card()
    g = [s["v"][i:i + 4] for i in range(0, len(s["v"]), 4)]
    order = list(range(len(g)))
    R.shuffle(order)
    return res({"note": f"{s['what']} groups", **{f"group{i + 1}": g[i] for i in order}, "exp": s["exp"]}, s)


@T("card-split-fields")
def t_cardsplit():
    s = src_card()
    v = s["v"]
    return res({"a": v[:4], "b": v[4:8], "c": v[8:12], "d": v[12:], "e": s["exp"], "f": s["cvv"], "what": f"{s['label']} a-d, exp e, cvv f"}, s)


@T("card-in-words")
def t_cardwords():
    s = src_card()
    return res(f"{s['label']} card: {spell_digits(s['v'])}, expires {s['exp']}", s)


@T("card-reversed")
def t_cardrev():
    s = src_card()
    return res(f"{s['what']} backwards (reverse it): {s['v'][::-1]}  exp {s['exp']} cvc {s['cvv']}", s)


@T("card-plus-offset")
def t_cardoff():
    s = src_card()
    k = ri(11, 999)
    return res(f"{s['what']} = {int(s['v']) - k} + {k}  (exp {s['exp']})", s)


@T("card-hex-number")
def t_cardhex():
    s = src_card()
    return res(f"{s['what']} as a hex integer: 0x{int(s['v']):X} (exp {s['exp']})", s)


@T("card-split-across-messages")
def t_cardmsg():
    s = src_card()
    v = s["v"]
    a = pick(FIRST)
    return res([{"from": a, "text": v[:8]}, {"from": a, "text": "and " + v[8:]}, {"from": a, "text": f"{s['exp']} / {s['cvv']} – my {s['label']} for the booking"}], s)


# ---------------- hex-shaped disguises
@T("hex-as-color-palette")
def t_colors():
    s = src_hex32()
    v = s["v"]
    cols = [v[i:i + 6] for i in range(0, 30, 6)] + [v[30:]]
    return res(f"palette for the {s['what']} ;) #{' #'.join(cols)}", s)


@T("hex-as-ipv6")
def t_ipv6():
    s = src_hex32()
    v = s["v"]
    return res(f"{':'.join(v[i:i + 4] for i in range(0, 32, 4))}  <- not an IP, it's the {s['what']} (drop colons)", s)


@T("hex-as-uuid")
def t_uuidfmt():
    s = src_hex32()
    v = s["v"]
    return res(f"correlation id {v[:8]}-{v[8:12]}-{v[12:16]}-{v[16:20]}-{v[20:]} (actually the {s['what']}, remove dashes)", s)


@T("hex-as-mac-pairs")
def t_macpairs():
    s = src_hex32()
    v = s["v"]
    macs = [":".join(v[i + j:i + j + 2] for j in range(0, 12, 2)) for i in range(0, 24, 12)] + [":".join(v[24 + j:26 + j] for j in range(0, 8, 2))]
    return res({"devices": macs, "note": f"concat without colons = {s['what']}"}, s)


@T("hex-dump-xxd")
def t_xxd():
    s = src_str(maxlen=48)
    b = s["v"].encode()
    lines = []
    for off in range(0, len(b), 16):
        ch = b[off:off + 16]
        hx_ = " ".join(ch[i:i + 2].hex() for i in range(0, len(ch), 2))
        lines.append(f"{off:08x}: {hx_:<40} {''.join(chr(x) if 32 <= x < 127 else '.' for x in ch)}")
    return res(f"xxd {slug(s['label']) or 'key'}.txt\n" + "\n".join(lines), s)


@T("version-number-chunks")
def t_versions():
    s = src_pin(6) if chance(0.4) else dict(kind="sim-puk", label="PUK", var="puk", v=dg(8), what="SIM PUK")
    v = s["v"]
    return res(f"versions to remember: v{v[:2]}.{v[2:4]}.{v[4:6]}{'.' + v[6:] if len(v) > 6 else ''} (that's also the {s['what']} without dots)", s)


# ---------------- markup / containers
@T("markdown-table-cells")
def t_mdtab():
    s = src_str()
    parts = chunks(s["v"], 3)
    return res(f"| piece | value |\n|---|---|\n" + "\n".join(f"| {i + 1} | {p} |" for i, p in enumerate(parts)) + f"\n\n({s['what']})", s)


@T("html-hidden-span")
def t_hspan():
    s = src_str()
    return res(f"<div>Meeting notes for Tuesday<span style=\"display:none\">{s['var']}={s['v']}</span></div>", s)


@T("html-comment")
def t_hcom():
    s = src_str()
    return res(f"<p>Recipe: banana bread</p>\n<!-- {s['what']}: {s['v']} -->", s)


@T("xml-cdata")
def t_cdata():
    s = src_str()
    return res(f"<config><item name=\"{lower_var(s['var'])}\"><![CDATA[{s['v']}]]></item></config>", s)


@T("csv-columns-concat")
def t_csv():
    s = src_str()
    p = chunks(s["v"], 3)
    return res(f"c1;c2;c3;comment\n{p[0]};{p[1]};{''.join(p[2:])};join c1..c3 = {s['what']}", s)


@T("code-comment-hidden")
def t_ccom():
    s = src_str()
    return res(f"def total(items):\n    # {s['v']}\n    return sum(i.price for i in items)", s)


@T("python-docstring")
def t_doc():
    s = src_str()
    return res(f'def sync():\n    """Sync orders.\n\n    creds: {s["v"]}\n    """\n    ...', s)


@T("url-query-param-disguise")
def t_urlq():
    s = src_str(alnum_only=False)
    return res(f"https://{domain()}/landing?utm_source=newsletter&ref={s['v']}&lang=en   (ref= is the {s['label']} key)", s)


@T("url-userinfo")
def t_urlui():
    s = src_pw("random")
    return res(f"https://{username()}:{s['v']}@nas.{domain()}:5001/", s)


@T("markdown-image-alt")
def t_mdalt():
    s = src_str()
    return res(f"![{s['v']}](https://i.imgur.com/{al(7)}.png) <- alt text is the {s['label']} thing", s)


@T("markdown-link-title")
def t_mdlink():
    s = src_str()
    return res(f'[dashboard](https://{domain()}/dash "{s["v"]}")', s)


@T("latex-texttt")
def t_latex():
    s = src_str(alnum_only=True)
    return res(f"\\newcommand{{\\k}}{{\\texttt{{{s['v']}}}}} % {s['what']}", s)


@T("ini-continuation-lines")
def t_inicont():
    s = src_str()
    p = chunks(s["v"], 3)
    return res(f"[auth]\ntoken = {p[0]}\\\n        {p[1]}\\\n        {''.join(p[2:])}", s)


@T("yaml-multi-document-split")
def t_yamldocs():
    s = src_str()
    p = chunks(s["v"], 2)
    return res(f"---\npart: 1\nvalue: \"{p[0]}\"\n---\npart: 2\nvalue: \"{''.join(p[1:])}\"\n# {s['what']} = doc1.value + doc2.value", s)


@T("stringified-json-in-json")
def t_strjson():
    s = src_str()
    inner = json.dumps({lower_var(s["var"]): s["v"]})
    return res({"type": "settings_blob", "payload": inner}, s)


@T("data-uri-base64")
def t_datauri():
    s = src_str()
    return res(f"data:text/plain;base64,{base64.b64encode(s['v'].encode()).decode()}", s)


@T("fake-stack-trace")
def t_trace():
    s = src_str()
    return res(f"Traceback (most recent call last):\n  File \"app.py\", line {ri(10, 300)}, in connect\n    raise AuthError(key)\nAuthError: invalid scope for key '{s['v']}' ({s['label']})", s)


@T("git-diff-removed-line")
def t_diff():
    s = src_str()
    return res(f"--- a/.env\n+++ b/.env\n@@ -1,3 +1,3 @@\n-{s['var'].upper()}={s['v']}\n+{s['var'].upper()}=${{{s['var'].upper()}}}\n LOG_LEVEL=info", s)


@T("email-signature-footer")
def t_sig():
    s = src_str()
    return res(f"Thanks for the update, see you Thursday.\n\n--\n{person()}\nTeam Lead\nref: {s['v']}", s)


@T("vcard-note-field")
def t_vcard():
    s = src_str()
    return res(f"BEGIN:VCARD\nVERSION:3.0\nFN:{person()}\nTEL:+49{dg(10)}\nNOTE:{s['what']} {s['v']}\nEND:VCARD", s)


@T("ical-description")
def t_ical():
    s = src_pin() if chance(0.5) else src_str()
    return res(f"BEGIN:VEVENT\nSUMMARY:Cleaner\nDTSTART:{rdate(2025, 2026).replace('-', '')}T090000\nDESCRIPTION:{s['what']} {s['v']}\nEND:VEVENT", s)


@T("wifi-qr-payload")
def t_wifiqr():
    s = src_wifi()
    return res(f"WIFI:T:WPA;S:{pick(SSIDS)};P:{s['v']};;", s)


@T("secret-as-json-property-name")
def t_jsonkey():
    s = src_str()
    return res({s["v"]: pick(["prod", "main", "ok", True]), "_": s["what"]}, s)


@T("deep-nested-json")
def t_deep():
    s = src_str()
    return res({"a": {"b": {"c": {"d": {"e": {"value": s["v"], "hint": s["label"]}}}}}}, s)


@T("json-char-code-array")
def t_codearr():
    s = src_str(maxlen=40)
    return res([s["what"]] + [ord(c) for c in s["v"]], s)


@T("json-char-array")
def t_chararr():
    s = src_str(maxlen=40)
    return res(list(s["v"]) + [f"<- {s['what']}"], s)


@T("object-index-char-map")
def t_charmap():
    s = src_str(maxlen=32)
    items = list(enumerate(s["v"]))
    R.shuffle(items)
    return res({"k": s["what"], "m": {str(i): c for i, c in items}}, s)


@T("base64-chunks-in-array")
def t_b64arr():
    s = src_str()
    e = base64.b64encode(s["v"].encode()).decode()
    return res(chunks(e, ri(3, 5)) + [f"join+b64decode → {s['what']}"], s)


@T("base64-line-broken")
def t_b64lb():
    s = src_str()
    e = base64.b64encode(s["v"].encode()).decode()
    return res(f"{s['what']} (b64):\n" + "\n".join(e[i:i + 4] for i in range(0, len(e), 4)), s)


@T("json-unicode-escaped-in-prose")
def t_jsonesc():
    s = src_str()
    e = "".join("\\u%04x" % ord(c) for c in s["v"])
    return res(f"paste this into the JS console: \"{e}\" – it's the {s['label']} key", s)


@T("punycode")
def t_puny():
    s = src_pw("word")
    e = s["v"].encode("punycode").decode()
    return res(f"{s['what']} punycoded (python .decode('punycode')): {e}", s)


@T("rot13-plus-reverse")
def t_rotrev():
    s = src_str()
    return res(f"{s['what']}: rev + rot13 → {codecs.encode(s['v'][::-1], 'rot13')}", s)


# ---------------- labelling tricks
@T("false-example-label")
def t_fakeex():
    s = src_token()
    return res(pick([f"EXAMPLE ONLY (not a real key): {s['v']}\n...jk it's the prod one, don't rotate it",
                     f"# sample value, safe to share\n{s['var']}={s['v']}\n# (it's actually our live {s['label']} key lol)",
                     f"dummy {s['label']} token for docs: {s['v']} — well, it works against prod too"]), s)


@T("mislabeled-as-order-number")
def t_order():
    s = src_token()
    return res(pick([f"order number: {s['v']} (wink – it's the {s['label']} key)", {"tracking_no": s["v"], "carrier": "DHL", "note": f"not really tracking, {s['what']}"}]), s)


@T("mislabeled-as-serial-number")
def t_serial():
    s = src_str()
    return res(f"Router serial no. {s['v']} — ok that's the {s['what']}, serial is on the sticker", s)


@T("prefix-stripped")
def t_prefix():
    s = src_token()
    v = s["v"]
    cut = v.find("_") + 1 if "_" in v[:12] else (v.find("-") + 1 if "-" in v[:12] else 4)
    return res(f"{s['label']}: prepend '{v[:cut]}' to {v[cut:]}", s)


@T("prefix-spelled-out")
def t_prefspell():
    s = src_token()
    v = s["v"]
    cut = v.find("_") + 1 if "_" in v[:12] else 4
    pre = " ".join({"_": "underscore", "-": "dash", ".": "dot"}.get(c, c) for c in v[:cut])
    return res(f"{s['what']}: {pre} then {v[cut:]}", s)


@T("char-by-char-dashes")
def t_dashes():
    s = src_str()
    return res(f"{s['what']}: {'-'.join(s['v'])}", s)


@T("vertical-one-char-per-line")
def t_vert():
    s = src_str(maxlen=30)
    return res(s["what"] + ":\n" + "\n".join(s["v"]), s)


@T("nickname-alias-table")
def t_alias():
    s = src_str()
    nick = pick(["blue fox", "the usual", "Plan B", "grandma's recipe", "the good one", "Project Kiwi"])
    return res({"aliases": {nick: s["v"], "lunch spot": "Café Rosa"}, "note": f"when I say '{nick}' I mean the {s['what']}"}, s)


@T("password-hint-gives-it-away")
def t_hint():
    s = src_pw()
    return res(pick([f"{s['label']} password hint: it's literally {s['v']}", f"hint for {s['label']}: '{s['v']}' (not a hint lol)"]), s)


@T("password-from-components-in-record")
def t_components():
    pet = pick(PETS)
    num = str(ri(1, 199))
    sym = pick(["!", "#", "?", "*"])
    s = dict(kind="account-password", label=pick(SERVICES), var="pw", v=pet + num + sym, what="")
    return res({"dog": pet, "house_number": num, "rule": f"{s['label']} password = dog's name + house number + {sym}"}, s)


@T("case-instructions")
def t_case():
    base = "".join(sample(BIP39, 2))
    i = ri(1, len(base) - 1)
    v = base[:i] + base[i].upper() + base[i + 1:] + dg(2)
    s = dict(kind="account-password", label=pick(SERVICES), var="pw", v=v, what="")
    return res(f"{s['label']} pw: {base}{v[-2:]} but letter #{i + 1} is uppercase", s)


@T("leetspeak-instructions")
def t_leet():
    w = pick(PW_WORDS).lower()
    y = str(ri(2015, 2026))
    v = w.replace("a", "4").replace("e", "3").replace("o", "0") + y + "!"
    s = dict(kind="account-password", label=pick(SERVICES), var="pw", v=v, what="")
    return res(f"{s['label']}: '{w}', leet it (a→4 e→3 o→0), add {y} and a !", s)


@T("translated-words-password")
def t_transl():
    pairs = [("rouge", "red"), ("maison", "house"), ("chat", "cat"), ("lune", "moon"), ("Hund", "dog"), ("Baum", "tree"),
             ("perro", "dog"), ("verde", "green"), ("fiore", "flower"), ("sol", "sun"), ("mare", "sea")]
    (a, ea), (b, eb) = sample(pairs, 2)
    n = str(ri(10, 99))
    v = ea.capitalize() + eb.capitalize() + n
    s = dict(kind="wifi-password", label="wifi", var="wifi", v=v, what="")
    return res(f"wifi pw = English translation of '{a} {b}', each word capitalised, no space, then {n}", s)


@T("two-halves-two-languages")
def t_2lang():
    s = src_str()
    v = s["v"]
    m = len(v) // 2
    return res(f"Erste Hälfte vom {s['label']}-Schlüssel: {v[:m]}. La seconde moitié : {v[m:]}.", s, lang="de")


@T("translated-context-note")
def t_transctx():
    s = src_pin() if chance(0.5) else src_pw()
    lg = pick(["ja", "ko", "zh", "ru", "ar", "el"])
    n = L[lg]["n"]["password" if s["kind"] == "account-password" else "door"]
    return res(f"{n} = {fullwidth(s['v']) if lg in ('ja', 'zh') else s['v'][::-1]} ({'全角' if lg in ('ja', 'zh') else 'reversed'})", s, lang=lg)


@T("riddle-in-other-language")
def t_riddle_l():
    s = src_pin(4)
    ev, y = pick(EVENTS[:6])
    s["v"] = y
    de = {"1989": "das Jahr, in dem die Mauer fiel", "1969": "das Jahr der Mondlandung", "1912": "das Jahr, in dem die Titanic sank",
          "1945": "das Jahr, in dem der Zweite Weltkrieg endete", "1492": "das Jahr, in dem Kolumbus Amerika erreichte", "1789": "das Jahr der Französischen Revolution"}[y]
    return res(f"Code für die Garage: {de}", s, lang="de")


@T("secret-in-other-script-digits")
def t_script():
    s = src_pin()
    sys_ = pick([("٠١٢٣٤٥٦٧٨٩", "ar"), ("०१२३४५६७८९", "hi"), ("๐๑๒๓๔๕๖๗๘๙", "th"), ("০১২৩৪৫৬৭৮৯", "bn")])
    e = s["v"].translate(str.maketrans("0123456789", sys_[0]))
    return res(f"{s['what']}: {e}", s, lang=sys_[1] if sys_[1] != "bn" else "en")


@T("chinese-numeral-digits")
def t_zhnum():
    s = src_pin()
    e = s["v"].translate(str.maketrans("0123456789", "〇一二三四五六七八九"))
    return res(f"门禁密码：{e}", s, lang="zh")


@T("japanese-goroawase")
def t_goro():
    s = src_pin(4)
    # classic goroawase readings for single digits
    gor = {"0": "れ", "1": "い", "2": "に", "3": "さ", "4": "よ", "5": "ご", "6": "ろ", "7": "な", "8": "や", "9": "く"}
    e = "".join(gor[c] for c in s["v"])
    return res(f"暗証番号は語呂合わせで「{e}」（い=1 に=2 さ=3 よ=4 ご=5 ろ=6 な=7 や=8 く=9 れ=0）", s, lang="ja")


@T("split-between-value-and-tags")
def t_tags2():
    s = src_str()
    v = s["v"]
    m = len(v) // 2
    return res({"text": f"{s['what']}: {v[:m]}", "tags": ["work", v[m:], "keep"]}, s)


@T("split-between-title-and-body")
def t_titlebody():
    s = src_str()
    v = s["v"]
    m = len(v) // 3
    return res({"title": f"{s['label']} {v[:m]}", "body": f"rest: {v[m:]}", "pinned": True}, s)


@T("secret-in-filename")
def t_fname():
    s = src_str(alnum_only=True, maxlen=40)
    return res(f"saved the {s['label']} creds as the file name: ~/Downloads/{s['v']}.txt (the name IS the key)", s)


@T("anagram-with-sort-key")
def t_anagram():
    s = src_str(maxlen=24)
    idx = list(range(len(s["v"])))
    R.shuffle(idx)
    scr = "".join(s["v"][i] for i in idx)
    return res({"scrambled": scr, "positions": idx, "how": f"char k of scrambled goes to position positions[k] → {s['what']}"}, s)


@T("sms-style-abbreviated")
def t_smsabbr():
    s = src_pin() if chance(0.5) else src_wifi()
    return res(f"k so {s['what'].split('(')[0].strip()} = {' '.join(s['v'])} (no spaces ofc) ttyl", s)


@T("two-factor-seed-as-qr-text")
def t_otpqr():
    sec = rs(B32C, 32)
    s = dict(kind="totp-seed", label="2FA", var="secret", v=sec, what="authenticator seed")
    return res(f"couldn't scan the QR, typed it: {' '.join(sec[i:i + 4].lower() for i in range(0, 32, 4))} ({pick(['AWS root', 'GitHub', 'Binance', 'Google'])} 2FA)", s)


@T("private-key-body-without-headers")
def t_pemnoh():
    der = bytes.fromhex("302e020100300506032b657004220420") + rbytes(32)
    v = base64.b64encode(der).decode()
    s = dict(kind="pem-pkcs8-private-key", label="ed25519", var="key", v=v, what="")
    return res(f"ed25519 private key, PKCS8 body only (add the BEGIN/END PRIVATE KEY lines): {v}", s)


@T("private-key-split-array")
def t_pemsplit():
    p = openssh_key()
    lines = p.split("\n")
    m = len(lines) // 2
    s = dict(kind="openssh-private-key", label="ssh", var="key", v=p, what="")
    return res([{"part": 2, "lines": lines[m:]}, {"part": 1, "lines": lines[:m]}, {"note": "deploy key, reassemble part1+part2"}], s)


@T("wireguard-key-reversed")
def t_wgrev():
    k = wg_key()
    s = dict(kind="wireguard-private-key", label="wg", var="PrivateKey", v=k, what="")
    return res(f"[Interface]\n# PrivateKey reversed so git-secrets doesn't catch it\n#{k[::-1]}\nAddress = 10.{ri(0, 9)}.0.{ri(2, 50)}/32", s)


@T("eth-key-split-words")
def t_ethsplit():
    k = hx(64)
    s = dict(kind="ethereum-private-key", label="eth", var="pk", v="0x" + k, what="")
    return res({"note": "hot wallet pk, 8 blocks", "blocks": [k[i:i + 8] for i in range(0, 64, 8)]}, s)


@T("jwt-parts-separated")
def t_jwtparts():
    j = jwt()
    h, p, sg = j.split(".")
    s = dict(kind="jwt-bearer-token", label="session", var="jwt", v=j, what="")
    return res({"header": h, "payload": p, "signature": sg, "use": "join with dots, send as Bearer"}, s)


@T("connection-string-assembled")
def t_connparts():
    u, pw, h = username(), password("random"), hostname()
    s = dict(kind="postgres-url", label="postgres", var="url", v=f"postgres://{u}:{pw}@{h}/app", what="")
    return res({"host": h, "user": u, "pw_reversed": pw[::-1], "db": "app", "port": 5432}, s)


@T("dictation-with-phonetic-hints")
def t_dict():
    s = src_pw(pick(["random", "mixed"]))
    out = []
    for c in s["v"]:
        if c.isalpha():
            out.append(f"{c.upper() if c.isupper() else c} as in {NATO[c.lower()].capitalize()}" + (" (capital)" if c.isupper() else " (small)"))
        elif c.isdigit():
            out.append(f"number {NUMW['en'][int(c)]}")
        else:
            out.append(f"symbol {c}")
    return res(f"{s['what']}, dictated: " + ", ".join(out), s)


@T("otp-code-split-with-context")
def t_otpsplit():
    code = dg(6)
    s = dict(kind="one-time-code", label="bank", var="otp", v=code, what="")
    return res([{"from": pick(BANKS), "text": f"Your code starts with {code[:3]}"}, {"from": "me", "text": f"and ends {code[3:]} – approve the {ri(200, 4000)} € transfer pls"}], s)


@T("gift-card-code-spaced-lower")
def t_gift():
    store, code = gift_code(pick(["Amazon", "Steam", "Apple", "Google Play"]))
    s = dict(kind="gift-card-code", label=store, var="gift", v=code, what="")
    e = " ".join(code.replace("-", "").lower()[i:i + 3] for i in range(0, len(code.replace("-", "")), 3))
    return res(f"{store} voucher (uppercase it, remove spaces): {e}", s)


@T("backup-codes-obfuscated")
def t_bcodes():
    codes = [dg(8) for _ in range(ri(6, 10))]
    s = dict(kind="backup-codes", label="2fa", var="codes", v=" ".join(codes), what="")
    return res([f"{pick(SERVICES)} backup codes, each reversed:"] + [c[::-1] for c in codes], s)


@T("security-answer-encoded")
def t_secans():
    a = pick(ANSWERS)
    s = dict(kind="security-answer", label="bank", var="answer", v=a, what="")
    return res(f"{pick(BANKS)} – {pick(SEC_Q)}: {base64.b64encode(a.encode()).decode()} (b64)", s)


@T("puk-as-math")
def t_puk():
    p = dg1(8)
    s = dict(kind="sim-puk", label="PUK", var="puk", v=p, what="")
    a = ri(2, 9)
    q, r = divmod(int(p), a)
    return res(f"{pick(CARRIERS)} PUK = {q} × {a} + {r}", s)


@T("bank-login-split-objects")
def t_banksplit():
    u, pw = dg1(8), password()
    s = dict(kind="bank-login", label="bank", var="login", v=f"{u}/{pw}", what="")
    return res([{"type": "contact", "name": pick(BANKS), "id": u}, {"type": "recipe", "title": "secret sauce", "ingredients": pw}, {"type": "note", "text": "bank = contact id + recipe ingredients"}], s)

# ================================================================ benign / plain: ordinary memories
BP = []


def P(seg, n=1, lang="en"):
    def deco(fn):
        BP.append((seg, n, lang, fn))
        return fn
    return deco


MEDS = ["Metformin 500 mg", "Ramipril 5 mg", "Levothyroxine 75 µg", "Ibuprofen 400 mg", "Vitamin D 1000 IU", "Atorvastatin 20 mg",
        "Sertraline 50 mg", "Omeprazole 20 mg", "Salbutamol inhaler", "Cetirizine 10 mg", "Iron 65 mg", "Magnesium 300 mg"]
FOODS = ["ramen", "pad thai", "lasagne", "falafel wrap", "sushi", "pierogi", "dal makhani", "paella", "pho", "tacos al pastor", "shakshuka", "bibimbap"]
BOOKS = ["Project Hail Mary", "The Overstory", "Piranesi", "Educated", "The Three-Body Problem", "Klara and the Sun", "Sapiens", "The Midnight Library", "Braiding Sweetgrass", "Dune"]
SHOPS = ["Lidl", "Aldi", "Tesco", "Rewe", "Carrefour", "Albert Heijn", "Mercadona", "Coop", "Whole Foods", "the market"]


def d():
    return rdate(2024, 2026)


def hm():
    return f"{ri(7, 20):02d}:{pick(['00', '15', '30', '45'])}"


@P("health-log", 14)
def bp_health():
    r = R.random()
    who = pick(["Mum", "Dad", "me", "Grandpa", pick(FIRST)])
    if r < 0.2:
        return f"{'My' if who == 'me' else who + chr(39) + 's'} blood pressure {ri(110, 150)}/{ri(65, 95)}, pulse {ri(55, 95)} ({pick(['morning', 'after walk', 'evening'])}). Dr. {pick(SURN)} wants readings {pick(['twice a week', 'daily for 2 weeks', 'before each appointment'])}."
    if r < 0.4:
        return {"medication": pick(MEDS), "times": sorted(sample(["07:30", "08:00", "12:30", "18:00", "20:00", "22:00"], ri(1, 3))), "with_food": chance(0.6), "for": who, "until": d()}
    if r < 0.55:
        return f"Allergies ({'mine' if who == 'me' else who}): {', '.join(sample(['penicillin', 'peanuts', 'shellfish', 'latex', 'pollen', 'cats', 'ibuprofen', 'kiwi'], ri(1, 3)))}. Carries an antihistamine."
    if r < 0.7:
        return f"Vaccinations: {pick(['tetanus booster', 'flu shot', 'COVID booster', 'hep A', 'TBE (FSME) 2nd dose'])} on {d()}, next due {ri(2026, 2034)}."
    if r < 0.85:
        return f"Slept {ri(5, 8)}h{ri(0, 59):02d}, woke up {ri(0, 3)}x. {pick(['No caffeine after 2pm helps.', 'Magnesium seems to help.', 'Neighbours were loud again.', 'Tried the breathing exercise.'])}"
    return f"Gym {d()}: {pick(['deadlift', 'squat', 'bench', 'overhead press'])} {ri(3, 5)}x{ri(3, 8)} @ {ri(40, 140)} kg, {pick(['felt easy', 'last rep slow', 'new PR!', 'back a bit tight'])}. Run {ri(3, 12)}.{ri(0, 9)} km in {ri(18, 70)} min."


@P("family", 12)
def bp_family():
    r = R.random()
    kid = pick(["Leo", "Mia", "Noah", "Ava", "Yuki", "Amara", "Jonas", "Sofia"])
    if r < 0.25:
        return f"{kid}: shoe size {ri(24, 38)}, jacket {pick(['110', '122', '134', '146', 'S', 'M'])}. Swimming on {pick(['Tuesdays', 'Thursdays', 'Saturdays'])} {hm()}."
    if r < 0.45:
        return f"{pick(FIRST)} and {pick(FIRST)}'s anniversary is on {d()[5:]} - they like {pick(FOODS)}; book a table."
    if r < 0.6:
        return {"child": kid, "school": pick(["Riverside Primary", "Grundschule am Park", "École Jules Ferry", "St. Anne's"]), "class": f"{ri(1, 6)}{pick('ABC')}", "teacher": f"{pick(['Mrs.', 'Mr.', 'Ms.'])} {pick(SURN)}", "pickup": hm()}
    if r < 0.8:
        return f"Family call every {pick(['Sunday', 'other Saturday', 'first Friday of the month'])} at {hm()} with {pick(FIRST)} in {pick(CITIES)}."
    return f"{kid} lost a tooth today 🦷 - tooth fairy owes {ri(1, 5)} {pick(['€', '$', '£'])}."


@P("work-note", 14)
def bp_work():
    r = R.random()
    if r < 0.2:
        return f"1:1 with {pick(FIRST)} ({d()}): {', '.join(sample(['promotion timeline', 'on-call load', 'conference budget', 'hiring plan', 'Q3 roadmap', 'mentoring', 'parental leave cover'], 3))}."
    if r < 0.4:
        return f"Standup: finished {pick(['the migration script', 'PR review backlog', 'invoice export', 'search relevance tuning'])}; today {pick(['pairing with ' + pick(FIRST), 'writing tests', 'the design doc', 'incident review'])}; blocked on {pick(['legal sign-off', 'design', 'nothing', 'the vendor'])}."
    if r < 0.55:
        return {"meeting": pick(["sprint planning", "retro", "quarterly review", "design crit"]), "date": d(), "attendees": sample(FIRST, ri(3, 5)), "decisions": pick(["ship v2 behind flag", "postpone launch one week", "drop IE support", "hire one more SRE"])}
    if r < 0.7:
        return f"Team offsite {pick(CITIES)} {d()} - {ri(12, 40)} people, budget ≈ {ri(8, 40)}k, {pick(FIRST)} organises hotel."
    if r < 0.85:
        return f"OKR {pick(['Q1', 'Q2', 'Q3', 'Q4'])}: reduce p95 latency from {ri(300, 900)} ms to {ri(100, 299)} ms; raise NPS to {ri(30, 60)}."
    return f"Ticket {pick(['PROJ', 'WEB', 'DATA', 'OPS'])}-{ri(100, 9999)} is waiting on review from {pick(FIRST)}; deadline {d()}."


@P("travel", 12)
def bp_travel():
    r = R.random()
    c = pick(CITIES)
    if r < 0.25:
        y, m, dd = ri(2024, 2026), ri(1, 12), ri(1, 20)
        return f"Trip to {c} {y}-{m:02d}-{dd:02d}–{m:02d}-{dd + ri(2, 8):02d}: hotel check-in after {pick(['14:00', '15:00', '16:00'])}, breakfast included, {ri(8, 25)} min walk from the station."
    if r < 0.45:
        return {"trip": c, "packing": sample(["passport", "adapter", "sunscreen", "rain jacket", "charger", "swimsuit", "meds", "book", "headphones", "snacks"], ri(4, 7)), "depart": d()}
    if r < 0.6:
        return f"Prefer aisle seat, vegetarian meal on long-haul, {pick(['no red-eyes', 'morning flights only', 'max one layover'])}."
    if r < 0.8:
        return f"{c}: try {pick(FOODS)} at the place near the {pick(['harbour', 'old town', 'university', 'cathedral'])}; {pick(['closed Mondays', 'cash only', 'book ahead', 'go before noon'])}."
    return f"Visa for {pick(['Vietnam', 'India', 'Turkey', 'Kenya', 'Australia'])}: e-visa, apply ≥ {ri(3, 14)} days ahead, fee ≈ {ri(20, 90)} USD."


@P("preferences", 12)
def bp_prefs():
    r = R.random()
    if r < 0.25:
        return f"Coffee order: {pick(['oat flat white', 'double espresso', 'cortado', 'iced americano, no sugar', 'chai latte with soy'])}. {pick(FIRST)} takes {pick(['tea, milk first', 'decaf', 'black coffee'])}."
    if r < 0.45:
        return f"Favourite restaurants: {', '.join(sample(['Luigi’s', 'Pho 88', 'The Green Fork', 'Sakura Ramen', 'Taco Loco', 'Dishoom', 'Café Rosa'], 3))}. Avoid {pick(['the steakhouse', 'anything with coriander', 'places without veggie options'])}."
    if r < 0.6:
        return {"music": sample(["jazz", "lo-fi", "90s hip hop", "classical", "indie folk", "techno", "fado", "k-pop"], 3), "podcasts": sample(["99% Invisible", "Radiolab", "Hard Fork", "The Rest Is History"], 2)}
    if r < 0.8:
        return f"Doesn't like: {pick(['mushrooms', 'olives', 'coriander', 'horror films', 'loud restaurants', 'early meetings'])}. Likes: {pick(['board games', 'hiking', 'crosswords', 'pottery', 'cycling'])}."
    return f"Reading list: {', '.join(sample(BOOKS, 3))}."


@P("shopping-list", 12)
def bp_shop():
    r = R.random()
    items = ["milk", "eggs", "bread", "tomatoes", "spinach", "rice", "oat milk", "yoghurt", "coffee beans", "bananas", "cheddar", "tofu", "olive oil", "toilet paper", "dish soap", "lentils", "onions", "garlic"]
    if r < 0.4:
        return f"{pick(SHOPS)}: " + ", ".join(sample(items, ri(4, 9)))
    if r < 0.6:
        return sample(items, ri(3, 7))
    if r < 0.8:
        return f"Return the {pick(['jacket', 'shoes', 'blender', 'headphones'])} to {pick(['Zalando', 'Amazon', 'IKEA', 'H&M'])} by {d()} - receipt in the drawer, {ri(15, 180)} €."
    return f"Gift ideas for {pick(FIRST)}: {', '.join(sample(['cookbook', 'plant', 'concert tickets', 'scarf', 'puzzle', 'spa voucher', 'LEGO set'], 3))} (budget {ri(20, 100)})."


@P("finance", 10)
def bp_fin():
    r = R.random()
    if r < 0.3:
        return f"Budget {pick(months())}: rent {ri(600, 2200)}, groceries {ri(200, 600)}, transport {ri(40, 160)}, savings {ri(100, 800)}."
    if r < 0.55:
        return {"bill": pick(["electricity", "internet", "water", "council tax", "phone"]), "amount": round(R.uniform(20, 180), 2), "due": d(), "paid": chance(0.5)}
    if r < 0.75:
        return f"Split dinner with {pick(FIRST)} and {pick(FIRST)}: {ri(60, 240)} total, I paid, they owe me {ri(20, 80)} each."
    return f"Tax return: deadline {d()}, need {pick(['the P60', 'Lohnsteuerbescheinigung', 'donation receipts', 'home office costs'])} first."


@P("home", 12)
def bp_home():
    r = R.random()
    if r < 0.25:
        return f"Boiler service due {pick(months())}; last one {d()} by {pick(SURN)} Heating, cost {ri(80, 200)}."
    if r < 0.45:
        pl = pick([("monstera", "weekly"), ("cactus", "monthly"), ("basil", "every 2 days"), ("fern", "mist daily"), ("orchid", "ice cube on Sundays")])
        return {"plant": pl[0], "watering": pl[1], "room": pick(["living room", "kitchen", "balcony"])}
    if r < 0.65:
        return f"Bins: {pick(['recycling', 'paper', 'organic', 'general waste'])} on {pick(['Monday', 'Wednesday', 'Friday'])}, {pick(['glass', 'garden waste'])} every other {pick(['Tuesday', 'Thursday'])}."
    if r < 0.8:
        return f"Spare key is with {pick(['the neighbour at no. ', 'Aunt '])}{pick([str(ri(1, 40)), pick(FIRST)])}. Plumber: {pick(SURN)} Sanitär, {pick(['+49', '+44', '+33'])} {dg(3)} {dg(7)}."
    return f"Measurements: living room {ri(3, 6)}.{ri(0, 9)} × {ri(3, 7)}.{ri(0, 9)} m, window {ri(90, 200)} cm wide for the curtains."


@P("pets", 6)
def bp_pets():
    pet = pick(PETS)
    return pick([f"{pet}'s vet check-up {d()} at {hm()}, bring the vaccination booklet. Food: {pick(['Royal Canin', 'Purina Pro Plan', 'Hill’s'])} {ri(2, 12)} kg bag.",
                 f"{pet} weighs {ri(3, 35)}.{ri(0, 9)} kg now; flea treatment every {pick(['4', '8', '12'])} weeks.",
                 {"pet": pet, "species": pick(["dog", "cat", "rabbit"]), "chip_registered": True, "walker": pick(FIRST), "walks": ["07:00", "18:30"]}])


@P("car", 6)
def bp_car():
    return pick([f"Oil change at {ri(30, 150)},000 km, next at +15k. Tyre pressure {pick(['2.3', '2.4', '2.5'])} bar front.",
                 f"Car insurance renewal {d()}; current premium {ri(300, 1200)} / year. MOT/TÜV due {pick(months())}.",
                 f"Winter tyres stored at {pick(['the garage', 'Vergölst', 'Kwik Fit', 'dad’s'])}, swap in {pick(['October', 'November'])}."])


@P("recipe", 8)
def bp_recipe():
    return pick([f"{pick(FIRST)}'s {pick(['banana bread', 'lentil soup', 'curry', 'pancakes'])}: {ri(200, 500)} g flour, {ri(1, 4)} eggs, {ri(50, 250)} ml milk, bake {ri(25, 60)} min at {pick([170, 180, 200])}°C.",
                 {"recipe": pick(["shakshuka", "dal", "risotto", "guacamole"]), "serves": ri(2, 6), "ingredients": sample(["onion", "garlic", "tomatoes", "cumin", "rice", "stock", "lime", "avocado", "eggs", "lentils"], 5), "time_min": ri(15, 60)},
                 f"Sourdough: feed starter 1:1:1 the night before, {ri(70, 80)}% hydration, bulk {ri(4, 6)}h."])


@P("learning", 6)
def bp_learn():
    return pick([f"Spanish class {pick(['Mon', 'Wed'])} {hm()}; homework: subjunctive exercises p. {ri(20, 120)}.",
                 f"Exam {pick(['statistics', 'organic chemistry', 'contract law', 'linear algebra'])} on {d()}, room {pick('ABC')}{ri(100, 399)}.",
                 f"Course '{pick(['Intro to ML', 'Watercolour basics', 'Rust for beginners'])}' – {ri(5, 40)}% done, finish by {d()}."])


@P("calendar", 10)
def bp_cal():
    return pick([f"{d()} {hm()} {pick(['dentist', 'haircut', 'parent-teacher meeting', 'car service', 'yoga', 'coffee with ' + pick(FIRST)])}",
                 {"event": pick(["Book club", "Team lunch", "Physio", "Piano lesson"]), "when": f"{d()}T{hm()}", "where": pick(CITIES), "reminder_min": pick([10, 30, 60])},
                 f"Every {pick(['Tuesday', 'Thursday'])} {hm()}–{hm()}: {pick(['choir', 'football', 'language exchange', 'climbing'])}."])


@P("email", 10)
def bp_email():
    return pick([f"Subject: {pick(['Re: Saturday', 'Invoice question', 'Holiday plans', 'Moving boxes'])}\n\nHi {pick(FIRST)},\n\n{pick(['thanks for yesterday!', 'the invoice is attached.', 'we can do the 14th instead.', 'I can lend you the drill.'])} {pick(['Talk soon.', 'Let me know.', 'See you then.'])}\n\n{pick(FIRST)}",
                 f"From: {email_addr()}\nTo: {email_addr()}\nSubject: {pick(['Lunch?', 'Slides', 'Flight times'])}\n\n{pick(['Friday works for me.', 'Updated the deck, see page 4.', 'Landing at 18:40, terminal 2.'])}"])


@P("chat", 14)
def bp_chat():
    a, b = pick(FIRST), pick(FIRST)
    conv = pick([("running 10 min late", "no worries, I'll grab a table"), ("did you feed the cat?", "yes, twice 😅"),
                 ("what time is the match?", "kick-off 20:45"), ("can you pick up milk", "sure, oat or normal?"),
                 ("are we still on for Sunday?", "yes! bring the board game"), ("how was the interview?", "went well I think, 2nd round next week"),
                 ("which platform?", "7, train leaves 14:52"), ("send me the recipe pls", "it's in the family group chat"),
                 ("meeting moved to 3", "ok thx"), ("happy birthday!!! 🎉", "thank youuu")])
    if chance(0.5):
        return [{"from": a, "text": conv[0]}, {"from": b, "text": conv[1]}]
    return f"{a}: {conv[0]}\n{b}: {conv[1]}"


@P("sms", 6)
def bp_sms():
    return pick([f"Your parcel from {pick(['Zalando', 'Amazon', 'IKEA'])} will arrive {pick(['today', 'tomorrow'])} between {hm()} and {hm()}.",
                 f"Reminder: appointment with Dr. {pick(SURN)} on {d()} at {hm()}. Reply C to cancel.",
                 f"{pick(['Lidl', 'Tesco', 'Rewe'])}: you saved {ri(1, 20)}.{ri(0, 99):02d} on your last shop!",
                 f"Your table for {ri(2, 8)} at {pick(['Luigi’s', 'Sakura'])} is confirmed for {hm()}."])


@P("voice-transcript", 6)
def bp_voice():
    return pick(["okay so remind me to call the plumber tomorrow morning about the kitchen sink",
                 f"uh note to self the kids have a half day on {pick(['Friday', 'Wednesday'])} so pick them up at twelve",
                 f"add {pick(['olive oil', 'bin bags', 'coffee'])} to the shopping list and um the birthday card for {pick(FIRST)}",
                 f"voice memo idea for the talk start with the story about the {pick(['train', 'lost suitcase', 'first bug'])} then the numbers"])


@P("journal", 8)
def bp_journal():
    return pick([f"{d()}: {pick(['Long walk by the river.', 'Finally finished the puzzle.', 'Rainy, stayed in and read.', 'Tried a new climbing route, fell twice.'])} {pick(['Grateful for ' + pick(FIRST) + '.', 'Mood 7/10.', 'Need more sleep.', ''])}",
                 f"Dream last night: {pick(['flying over ' + pick(CITIES), 'exam I did not study for', 'teeth falling out', 'talking cat'])}."])


@P("code-python", 12)
def bp_py():
    return pick([
        "def slugify(s: str) -> str:\n    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')",
        f"for i, row in enumerate(rows):\n    if row['qty'] > {ri(5, 100)}:\n        print(i, row['sku'])",
        "import os\napi_key = os.environ['WEATHER_API_KEY']  # set in CI secrets, never hardcode\nresp = requests.get(URL, params={'q': city, 'appid': api_key})",
        f"@app.get('/health')\ndef health():\n    return {{'status': 'ok', 'version': '{ri(1, 4)}.{ri(0, 20)}.{ri(0, 9)}'}}",
        "with open('data.csv') as f:\n    reader = csv.DictReader(f)\n    totals = Counter(r['category'] for r in reader)",
        "password = getpass.getpass('DB password: ')\nconn = psycopg.connect(host=HOST, user=USER, password=password)",
        f"df = pd.read_parquet('events.parquet')\ndf.groupby('day')['users'].nunique().plot()",
        "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a",
    ])


@P("code-js", 8)
def bp_js():
    return pick([
        "const debounce = (fn, ms) => { let t; return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); }; };",
        "const token = process.env.GITHUB_TOKEN; // provided by the Actions runner\nif (!token) throw new Error('missing GITHUB_TOKEN');",
        f"export default {{ port: {pick([3000, 5173, 8080])}, proxy: {{ '/api': 'http://localhost:{pick([4000, 8000])}' }} }};",
        "app.use(express.json());\napp.post('/orders', validate(orderSchema), createOrder);",
        "const sum = arr => arr.reduce((a, b) => a + b, 0);",
    ])


@P("code-sql", 6)
def bp_sql():
    return pick([
        f"SELECT customer_id, SUM(total) AS revenue FROM orders WHERE created_at >= '{d()}' GROUP BY 1 ORDER BY 2 DESC LIMIT 20;",
        "CREATE INDEX CONCURRENTLY idx_orders_created ON orders (created_at);",
        "UPDATE users SET last_login = now() WHERE id = $1;",
        "ALTER TABLE invoices ADD COLUMN currency char(3) NOT NULL DEFAULT 'EUR';",
    ])


@P("code-bash", 6)
def bp_bash():
    return pick([
        "for f in *.jpg; do convert \"$f\" -resize 50% \"small_$f\"; done",
        f"rsync -avz --delete ./site/ deploy@{hostname()}:/var/www/site/",
        "docker compose logs -f --tail=100 api",
        "git log --oneline --since='2 weeks ago' | wc -l",
        "find . -name '*.log' -mtime +30 -delete",
    ])


@P("config-yaml", 10)
def bp_yaml():
    return pick([
        f"server:\n  port: {pick([8080, 3000, 9000])}\n  host: 0.0.0.0\nlogging:\n  level: {pick(['info', 'debug', 'warn'])}\n  format: json",
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password",
        f"version: 2\nupdates:\n  - package-ecosystem: pip\n    directory: /\n    schedule:\n      interval: {pick(['weekly', 'daily', 'monthly'])}",
        "name: ci\non: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: make test",
        f"replicaCount: {ri(1, 5)}\nimage:\n  repository: ghcr.io/{pick(COMPANIES)}/api\n  tag: \"{ri(1, 3)}.{ri(0, 30)}.{ri(0, 9)}\"\nresources:\n  limits:\n    memory: {pick(['256Mi', '512Mi', '1Gi'])}",
    ])


@P("config-other", 8)
def bp_conf():
    return pick([
        "[core]\n\teditor = nvim\n\tautocrlf = input\n[pull]\n\trebase = true",
        '{\n  "compilerOptions": { "target": "ES2022", "strict": true, "moduleResolution": "bundler" }\n}',
        f"server {{\n    listen 80;\n    server_name {domain()};\n    return 301 https://$host$request_uri;\n}}",
        "[tool.ruff]\nline-length = 100\nselect = [\"E\", \"F\", \"I\"]",
        "# .editorconfig\nroot = true\n[*]\nindent_style = space\nindent_size = 2",
        {"theme": "dark", "fontSize": ri(12, 18), "autosave": True, "extensions": ["eslint", "prettier", "gitlens"]},
    ])


@P("log", 12)
def bp_log():
    ip = f"{ri(10, 220)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}"
    return pick([
        f'{ip} - - [{ri(1, 28):02d}/{pick(["Jan", "Mar", "Jun", "Oct"])}/2025:{rtime()} +0000] "GET /{pick(["", "about", "api/v1/items", "static/app.js"])} HTTP/1.1" {pick([200, 200, 304, 404])} {ri(200, 50000)} "-" "Mozilla/5.0"',
        f"{rts()} INFO  worker-{ri(1, 8)} processed {ri(10, 5000)} jobs in {ri(1, 900)} ms",
        f"{rts()} WARN  db pool exhausted, waiting ({ri(1, 20)}/{ri(20, 50)})",
        f"{rts()} ERROR payment webhook returned 502, retry {ri(1, 5)}/5",
        f"[{rtime()}] Build #{ri(100, 9999)} succeeded in {ri(1, 20)}m {ri(0, 59)}s",
        f"{pick(months())[:3]} {ri(1, 28)} {rtime()} host systemd[1]: Started {pick(['nginx', 'backup', 'postgresql'])}.service.",
    ])


@P("form", 8)
def bp_form():
    return pick([
        {"name": person(), "email": email_addr(), "phone": f"+{pick(['44', '49', '33', '34', '1'])} {dg(3)} {dg(7)}", "newsletter": chance(0.5)},
        {"emergency_contact": person(), "relation": pick(["sister", "partner", "father", "friend"]), "phone": f"+{pick(['31', '46', '39'])} {dg(2)} {dg(7)}"},
        {"dietary": pick(["vegetarian", "vegan", "none", "halal", "gluten-free"]), "t_shirt": pick(["S", "M", "L", "XL"]), "arrival": d()},
        {"address": f"{ri(1, 200)} {pick(['High Street', 'Hauptstraße', 'Rue de la Paix', 'Calle Mayor'])}", "city": pick(CITIES), "postcode": dg(5)},
    ])


@P("hobby", 8)
def bp_hobby():
    return pick([f"Climbing grades: sent a {pick(['6a', '6b+', '7a', 'V4', 'V5'])} today at {pick(['the bouldering gym', 'Frankenjura', 'Fontainebleau'])}.",
                 f"Garden: planted {', '.join(sample(['tomatoes', 'beans', 'zucchini', 'lettuce', 'basil', 'peppers'], 3))}; harvest ~{pick(months())}.",
                 f"Guitar practice: {pick(['barre chords', 'fingerpicking pattern', 'scales in A minor'])} {ri(10, 45)} min/day.",
                 f"Chess rating {ri(900, 2000)} on lichess, aim for {ri(1000, 2100)} by summer.",
                 f"Marathon plan week {ri(1, 16)}: long run {ri(12, 32)} km, easy pace {ri(5, 6)}:{ri(0, 59):02d}/km."])


@P("l10n-note", 150, lang=None)
def bp_l10n():
    lng = pick([x for x in LANG_CODES if x != "en"])
    D = L[lng]
    p = pick(FIRST)
    fmt = dict(p=p, d=rdate(2025, 2026)[5:], n=ri(2, 12), h=f"{ri(7, 19)}:{pick(['00', '15', '30', '45'])}")
    sep = "" if lng in ("ja", "zh", "th") else " "
    pool = D["ord"] + EXTRA_ORD[lng]
    r = R.random()
    if r < 0.45:
        return pick(pool).format(**fmt), "note-" + lng, lng
    if r < 0.6:
        return sep.join([pick(D["fill"]), pick(pool).format(**fmt)]), "prose-" + lng, lng
    if r < 0.85:
        if chance(0.5):
            return [{"from": p, "text": pick(pool).format(**fmt)}, {"from": pick(FIRST), "text": pick(["👍", "ok", "🙏", "✔️", "😂", "❤️"])}], "chat-" + lng, lng
        return f"{p}: {pick(pool).format(**fmt)}\n{pick(FIRST)}: {pick(D['fill'])}", "chat-" + lng, lng
    return {D["f"][1]: pick(pool).format(**fmt), "date": rdate(2025, 2026)}, "form-" + lng, lng

# ================================================================ benign / hard: look-alike families
BH = []
CALLIDX = [0]


def B(name, n=5, subs=None):
    """register a family (or, with subs, one family per option; n records per family)"""
    def deco(fn):
        BH.append((name, n, fn, subs))
        return fn
    return deco


def po(options):
    return options[CALLIDX[0] % len(options)]


def bres(value, lang="en"):
    return dict(value=value, lang=lang)


# ---- checksum helpers
def iban(cc=None):
    cc = cc or pick(["DE", "NL", "GB", "ES", "FR", "IT", "BE", "AT"])
    if cc == "DE":
        bban = dg(8) + dg(10)
    elif cc == "NL":
        bban = pick(["ABNA", "INGB", "RABO", "TRIO"]) + dg(10)
    elif cc == "GB":
        bban = pick(["NWBK", "BARC", "MIDL", "LOYD"]) + dg(6) + dg(8)
    elif cc == "ES":
        bban = dg(20)
    elif cc == "FR":
        bban = dg(10) + dg(11) + dg(2)
    elif cc == "IT":
        bban = R.choice(UPP) + dg(10) + dg(12)
    elif cc == "BE":
        bban = dg(12)
    else:
        bban = dg(16)
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    ck = 98 - int(num) % 97
    s = f"{cc}{ck:02d}{bban}"
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


VIN_MAP = {**{str(i): i for i in range(10)}, **dict(zip("ABCDEFGH", range(1, 9))), **dict(zip("JKLMN", range(1, 6))), "P": 7, "R": 9,
           **dict(zip("STUVWXYZ", range(2, 10)))}
VIN_W = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]


def vin():
    al_ = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    v = list(pick(["WVW", "WBA", "1HG", "JTD", "VF1", "ZFA", "YV1", "5YJ"]) + rs(al_, 5) + "0" + rs(al_, 8))
    s = sum(VIN_MAP[c] * w for c, w in zip(v, VIN_W))
    v[8] = "X" if s % 11 == 10 else str(s % 11)
    return "".join(v)


def isbn13():
    b = pick(["978", "979"]) + dg(9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(b))
    return b + str((10 - s % 10) % 10)


def isbn10():
    b = dg(9)
    s = sum(int(c) * (10 - i) for i, c in enumerate(b))
    ck = (11 - s % 11) % 11
    return b + ("X" if ck == 10 else str(ck))


def ean13(prefix=""):
    b = prefix + dg(12 - len(prefix))
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(b))
    return b + str((10 - s % 10) % 10)


def upca():
    b = dg(11)
    s = sum(int(c) * (3 if i % 2 == 0 else 1) for i, c in enumerate(b))
    return b + str((10 - s % 10) % 10)


def imei():
    b = pick(["35", "86", "01", "49"]) + dg(12)
    return b + luhn_digit(b)


def mac():
    return ":".join(hx(2) for _ in range(6)).upper() if chance(0.5) else "-".join(hx(2) for _ in range(6))


def bech32_polymod(values):
    gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
    chk = 1
    for v in values:
        b = chk >> 25
        chk = (chk & 0x1ffffff) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((b >> i) & 1) else 0
    return chk


def bech32_addr(hrp="bc", prog_len=20):
    prog = rbytes(prog_len)
    acc, bits, data = 0, 0, []
    for b in prog:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            data.append((acc >> bits) & 31)
    if bits:
        data.append((acc << (5 - bits)) & 31)
    data = [0] + data
    hrpx = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = bech32_polymod(hrpx + data + [0] * 6) ^ 1
    chk = [(pm >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH[x] for x in data + chk)


def btc_legacy():
    return b58check(b"\x00" + rbytes(20))


def ssh_pub_ed():
    return "ssh-ed25519 " + base64.b64encode(sshstr(b"ssh-ed25519") + sshstr(rbytes(32))).decode() + " " + username() + "@" + pick(["laptop", "mbp", "desktop", "ci"])


def ssh_pub_rsa():
    return "ssh-rsa " + base64.b64encode(sshstr(b"ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00" + rbytes(256))).decode()[:372] + " " + username() + "@" + pick(["work", "home", "nas"])


def pem_pub():
    return pem("PUBLIC KEY", bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + rbytes(64))


def cert_pem():
    return pem("CERTIFICATE", bytes.fromhex("3082") + rbytes(2) + bytes.fromhex("308203") + rbytes(ri(420, 560)))


def pgp_pub():
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + wrap(base64.b64encode(b"\x99\x01\x0d\x04" + rbytes(ri(260, 380))).decode(), 64) + "\n=" + b64s(4) + "\n-----END PGP PUBLIC KEY BLOCK-----"


def fp_colon(n=32):
    return ":".join(HX(2) for _ in range(n))


def sha256h():
    return hx(64)


def gitsha():
    return hx(40)


# ---- families
@B("order-number")
def f_order():
    o = f"{ri(100, 999)}-{dg(7)}-{dg(7)}"
    return bres(pick([f"Amazon order {o} – {pick(['headphones', 'kettle', 'book', 'USB-C hub'])}, arriving {rdate(2025, 2026)}",
                      {"shop": pick(["Zalando", "Etsy", "Otto", "Bol.com"]), "order_no": pick([o, dg1(10), up(3) + "-" + dg(8)]), "status": pick(["shipped", "processing", "delivered"])},
                      f"Order #{dg1(6)} confirmed. Keep this number for returns."]))


@B("parcel-tracking-number", 6)
def f_tracking():
    r = R.random()
    if r < 0.25:
        t = "1Z" + up(6) + dg(10)
    elif r < 0.5:
        t = "9400" + dg(18)
    elif r < 0.75:
        t = "JJD" + dg(18)
    else:
        t = dg(12)
    c = pick(["UPS", "USPS", "DHL", "FedEx", "DPD", "Hermes", "PostNL"])
    return bres(pick([f"{c} tracking: {t}", f"parcel for {pick(FIRST)} – {c} {t}, should arrive {pick(['Monday', 'Thursday', 'tomorrow'])}",
                      {"carrier": c, "tracking": t, "eta": rdate(2025, 2026)}]))


@B("booking-reference")
def f_pnr():
    pnr = rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 6)
    return bres(pick([f"Flight booking ref {pnr} ({pick(['Lufthansa', 'KLM', 'Ryanair', 'easyJet', 'TAP', 'Turkish'])}), {pick(CITIES)} → {pick(CITIES)} {rdate(2025, 2026)}",
                      f"PNR: {pnr}, e-ticket {dg(3)}-{dg(10)}", {"airline": pick(["LH", "KL", "FR", "U2"]), "record_locator": pnr, "seat": f"{ri(1, 40)}{pick('ABCDEF')}"}]))


@B("hotel-confirmation")
def f_hotel():
    return bres(pick([f"Booking.com confirmation {dg1(10)}, PIN code for changes is in the app. Hotel {pick(['Ibis', 'Motel One', 'NH', 'Premier Inn'])} {pick(CITIES)}.",
                      f"Hotel confirmation no. {up(2)}{dg(8)} – check-in {rdate(2025, 2026)}, {ri(1, 7)} nights"]))


@B("support-ticket-id")
def f_ticket():
    return bres(pick([f"Case with {pick(['Apple', 'Vodafone', 'IKEA', 'Samsung'])} support: {pick(['#', 'ticket ', 'case '])}{dg1(8)}, they'll call back in 48h",
                      f"Ticket {pick(['INC', 'REQ', 'CS'])}{dg1(7)} opened about the broken router", {"ticket": f"SR-{dg1(6)}", "status": "waiting for customer"}]))


@B("insurance-policy-number")
def f_policy():
    return bres(pick([f"Home insurance policy {up(3)}-{dg(8)} ({pick(['Allianz', 'AXA', 'Aviva', 'Generali'])}), renewal {rdate(2025, 2026)}",
                      {"insurer": pick(["HUK", "Zurich", "Allianz"]), "policy_no": f"{dg(3)}/{dg(6)}-{pick('ABC')}", "deductible": ri(100, 1000)}]))


@B("membership-number")
def f_member():
    return bres(pick([f"Gym membership no. {dg1(8)} – valid till {rdate(2025, 2027)}", f"Miles & More number {dg(15)}",
                      f"{pick(['ADAC', 'AAA', 'RAC'])} member {dg(9)}, breakdown line on the card", {"club": "library", "member_since": rdate(2015, 2024), "member_no": up(2) + dg(6)}]))


@B("case-reference-number", 4)
def f_case():
    return bres(pick([f"Immigration case number {up(3)}{dg(10)}, check status online weekly", f"Court file ref. {ri(1, 30)} C {ri(100, 999)}/{ri(20, 25)}",
                      f"Police report reference {dg(4)}/{dg(6)} for the stolen bike"]))


@B("device-serial-number")
def f_serial():
    return bres(pick([f"MacBook serial {up(12)}", f"Dishwasher S/N {dg(3)}{up(2)}{dg(6)}, model SMV{ri(2, 6)}{up(3)}{dg(2)}E",
                      {"device": pick(["iPad", "Kindle", "router", "e-bike battery"]), "serial": up(ri(10, 14)), "warranty_until": rdate(2025, 2028)}]))


@B("imei")
def f_imei():
    return bres(pick([f"Phone IMEI {imei()} (for the insurance claim)", f"IMEI1: {imei()} IMEI2: {imei()}", {"phone": pick(["Pixel 8", "iPhone 15", "Galaxy S24"]), "imei": imei()}]))


@B("mac-address")
def f_mac():
    return bres(pick([f"Printer MAC {mac()} – reserve 192.168.1.{ri(20, 200)} in DHCP", f"allowlist: TV {mac()}, console {mac()}", {"hostname": pick(["raspberrypi", "nas", "printer"]), "mac": mac()}]))


@B("vin")
def f_vin():
    return bres(pick([f"Car VIN {vin()} (needed for the parts order)", {"vehicle": pick(["Golf VII", "Model 3", "Corolla", "Clio"]), "vin": vin(), "plate": f"{up(2)}-{up(2)} {dg(3)}"}]))


@B("isbn")
def f_isbn():
    return bres(pick([f"Book for the course: ISBN {isbn13()}", f"ISBN-10 {isbn10()} – second-hand copy is fine", f"Reading list: {pick(BOOKS)} (ISBN {isbn13()})"]))


@B("doi-orcid-issn", 3, ['doi', 'orcid-id', 'issn', 'arxiv-id', 'pubmed-id'])
def f_doi():
    return bres(po([f"cite doi:10.{ri(1000, 9999)}/{pick(['j.', 's', 'nature'])}{dg(5)}.{ri(2010, 2025)}.{dg(3)}", f"my ORCID {dg(4)}-{dg(4)}-{dg(4)}-{dg(3)}{pick(DIG + 'X')}",
                      f"journal ISSN {dg(4)}-{dg(3)}{pick(DIG + 'X')}", f"arXiv:{ri(18, 25)}{ri(1, 12):02d}.{dg(5)}v{ri(1, 3)}", f"PMID {dg1(8)}"]))


@B("barcode-ean-upc")
def f_ean():
    return bres(pick([f"Oat milk barcode {ean13('40')} – the brand {pick(FIRST)} likes", f"UPC {upca()} for the replacement filter", {"item": pick(["coffee", "detergent", "cat food"]), "ean": ean13()}]))


@B("file-hash-sha256", 6)
def f_sha():
    fn = pick(["ubuntu-24.04-desktop-amd64.iso", "backup-2025-03.tar.gz", "firmware_v2.1.bin", "installer.dmg", "dataset.zip"])
    return bres(pick([f"{sha256h()}  {fn}", f"sha256 of {fn} matches the website: {sha256h()}", {"file": fn, "sha256": sha256h(), "verified": True}]))


@B("checksums", 3, ['md5-checksum', 'sha1-checksum', 'crc32-adler32'])
def f_md5():
    return bres(po([f"MD5 ({pick(['photo.jpg', 'report.pdf', 'song.flac'])}) = {hx(32)}", f"sha1sum: {hx(40)}  thesis_final_v3.pdf", f"crc32 {hx(8)} / adler32 {hx(8)} for the download"]))


@B("sha512-digest", 3)
def f_sha512():
    return bres(f"SHA512 (release.tar.xz) = {hx(128)}")


@B("uuid", 3, ['uuid-device-id', 'uuid-request-id', 'uuid-object-id', 'hex-page-id'])
def f_uuid():
    return bres(po([f"device id {uuid4()}", f"request {uuid4()} failed with 404, retry later", {"id": uuid4(), "type": pick(["invoice", "note", "event"]), "created": rts()},
                      f"the Notion page id is {hx(32)} (for the embed)"]))


@B("git-commit-sha", 6)
def f_git():
    return bres(pick([f"regression started at {gitsha()[:pick([7, 10, 40])]} – bisect from v{ri(1, 3)}.{ri(0, 9)}", f"commit {gitsha()}\nAuthor: {person()}\nDate: {rdate(2024, 2026)}\n\n    fix off-by-one in pagination",
                      f"cherry-pick {gitsha()[:12]} onto release branch", f"{gitsha()[:7]} {pick(['feat: dark mode', 'fix: null check', 'chore: bump deps'])}"]))


@B("container-image-digest", 6)
def f_digest():
    img = pick(["nginx", "postgres", "python", "node", "redis", f"ghcr.io/{pick(COMPANIES)}/api"])
    return bres(pick([f"image: {img}@sha256:{sha256h()}", f"pinned {img} to digest sha256:{sha256h()} after the CVE", {"image": img, "digest": "sha256:" + sha256h(), "tag": f"{ri(1, 16)}.{ri(0, 9)}"}]))


@B("trace-ids", 3, ['w3c-traceparent', 'log-trace-span-ids', 'amzn-request-id-header', 'aws-request-id', 'x-request-id'])
def f_trace():
    return bres(po([f"traceparent: 00-{hx(32)}-{hx(16)}-01", f"{rts()} ERROR checkout failed trace_id={hx(32)} span_id={hx(16)}",
                      f"x-amzn-RequestId: {uuid4()}", f"AWS request id {up(16)} for the S3 error", f"X-Request-ID: {lo(26)}"]))


@B("ssh-public-key", 6)
def f_sshpub():
    return bres(pick([f"add to authorized_keys on the pi:\n{ssh_pub_ed()}", ssh_pub_ed(), f"{ssh_pub_rsa()}", {"user": username(), "public_key": ssh_pub_ed()}]))


@B("pem-public-key", 4)
def f_pempub():
    return bres(pick([f"webhook signature verification public key:\n{pem_pub()}", pem_pub()]))


@B("x509-certificate", 4)
def f_cert():
    return bres(pick([f"CA cert for the corporate proxy (public):\n{cert_pem()}", cert_pem()]))


@B("pgp-public-key", 4)
def f_pgppub():
    return bres(pick([f"my public key, encrypt to this:\n{pgp_pub()}", pgp_pub()]))


@B("fingerprints", 3, ['ssh-host-key-fingerprint', 'pgp-fingerprint', 'tls-cert-fingerprint', 'gpg-key-id', 'ssh-md5-fingerprint'])
def f_fprint():
    return bres(po([f"server host key fingerprint SHA256:{b64s(43)} (ED25519) – verify on first connect",
                      f"PGP fingerprint {' '.join(HX(4) for _ in range(10))}", f"TLS cert SHA-256 fingerprint {fp_colon(32)}",
                      f"gpg key id 0x{HX(16)} (signing key in .gitconfig: signingkey = {HX(16)})", f"MD5:{':'.join(hx(2) for _ in range(16))} is the old host key fingerprint"]))


@B("ssh-known-hosts-line", 3)
def f_known():
    return bres(f"{hostname()},{ri(10, 200)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)} {ssh_pub_ed().rsplit(' ', 1)[0]}")


@B("stripe-publishable-key")
def f_pk():
    k = "pk_live_51" + al(97)
    return bres(pick([f"Stripe publishable key for the checkout page (public, goes in the frontend): {k}", f"NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY={k}", {"stripe": {"publishableKey": k}}]))


@B("public-site-keys", 2, ['recaptcha-site-key', 'mapbox-public-token', 'paypal-client-id', 'algolia-search-only-key', 'hcaptcha-sitekey', 'stripe-publishable-in-html'])
def f_sitekey():
    return bres(po([f"reCAPTCHA site key (public): 6L{b64u(6)}AAAAA{b64u(27)}", f"Mapbox public token for the map widget: pk.eyJ1Ijoi{b64u(30)}.{b64u(22)}",
                      f"PayPal client-id for the JS SDK script tag (public): A{b64u(79)}", f"Algolia search-only API key (safe for browser): {hx(32)}, app id {up(10)}",
                      f"hCaptcha sitekey {uuid4()}", f"<script src=\"https://js.stripe.com/v3/\"></script> data-key=\"pk_live_{al(24)}\""]))


@B("oauth-client-ids", 3, ['google-oauth-client-id', 'github-oauth-client-id', 'azure-app-client-id'])
def f_clientid():
    return bres(po([f"Google OAuth client ID (not secret): {dg1(12)}-{lo(32)}.apps.googleusercontent.com", f"GitHub OAuth App client id Iv1.{hx(16)} – the secret is in the vault",
                      f"Azure app (client) id {uuid4()}, tenant {uuid4()}"]))


@B("documented-examples", 2, ['aws-docs-example-keypair', 'aws-docs-example-key-id', 'jwt-io-example-token', 'stripe-docs-sample-key', 'twilio-docs-placeholder-sid', 'github-docs-token-format'])
def f_docex():
    return bres(po(["AWS docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY – that's the placeholder pair from the docs, not ours",
                      "the example key from the AWS CLI guide is AKIAIOSFODNN7EXAMPLE, use your own",
                      "jwt.io sample token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c (the documented example, secret 'your-256-bit-secret')",
                      "Stripe docs use sk_test_4eC39HqLyjWDarjtT1zdp7dc as the sample test key in code examples",
                      "Twilio's docs show ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX as the account SID placeholder",
                      "GitHub docs example token format: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"]))


@B("published-test-card-numbers", 6)
def f_testcard():
    c = pick([("4242 4242 4242 4242", "Stripe"), ("5555 5555 5555 4444", "Stripe"), ("4111 1111 1111 1111", "Braintree/Adyen"),
              ("3782 822463 10005", "Stripe Amex"), ("6011 1111 1111 1117", "Stripe Discover"), ("4000 0566 5566 5556", "Stripe debit")])
    return bres(pick([f"{c[1]} test card {c[0]}, any future expiry, any CVC – sandbox only", f"QA checklist: pay with test number {c[0]} ({c[1]} test mode) and check the receipt",
                      {"env": "sandbox", "test_card": c[0], "source": f"{c[1]} testing docs", "expected": pick(["success", "3DS challenge", "declined"])}]))


@B("masked-card-number", 6)
def f_masked():
    l4 = dg(4)
    return bres(pick([f"Visa •••• •••• •••• {l4} charged {ri(5, 300)}.{dg(2)} on {rdate(2025, 2026)}", f"card ending in {l4} expires soon, update Netflix",
                      f"**** **** **** {l4}", {"payment_method": f"Mastercard ****{l4}", "amount": ri(10, 500)}, f"XXXX-XXXX-XXXX-{l4} (the work card)"]))


@B("card-partials", 2, ['card-last-four', 'card-expiry-alone', 'card-last-four-with-expiry', 'card-expiry-reminder'])
def f_l4():
    return bres(po([f"Which card did I use? The one ending {dg(4)}.", f"my debit card expires {card_exp()} – order a new one", f"Amex last four {dg(4)}, exp {card_exp()}",
                      "card expiry 09/27 – set a reminder"]))


@B("redacted-secrets", 6)
def f_redacted():
    return bres(pick([f"STRIPE_SECRET_KEY=sk_live_****************************{al(4)}", "OPENAI_API_KEY=sk-...REDACTED...", f"token: ghp_************************************ (revoked, shown masked)",
                      f"{rts()} INFO auth ok user={username()} token=[REDACTED]", f"password: ********", f"Authorization: Bearer <redacted>", f"AWS_SECRET_ACCESS_KEY=****{b64s(4)}"]))


@B("placeholders", 6)
def f_placeholder():
    return bres(pick(["OPENAI_API_KEY=<your-openai-key>\nDATABASE_URL=postgres://user:password@localhost:5432/dbname",
                      "api_key: YOUR_API_KEY_HERE", "export GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # replace with your token",
                      {"apiKey": "REPLACE_ME", "secret": "${SECRET}", "endpoint": "https://api.example.com"}, "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXX/YYY/ZZZ",
                      "password = \"changeme-in-production\"  # placeholder, real value comes from vault", "mongodb://<username>:<password>@cluster0.example.mongodb.net"]))


@B("env-var-names-only", 6)
def f_envnames():
    names = sample(["STRIPE_SECRET_KEY", "DATABASE_URL", "OPENAI_API_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "SENTRY_DSN", "JWT_SECRET", "SMTP_PASSWORD", "REDIS_URL", "GITHUB_TOKEN"], ri(3, 5))
    return bres(pick(["Required env vars: " + ", ".join(names), "\n".join(n + "=" for n in names), {"required": names, "optional": ["LOG_LEVEL", "PORT"]},
                      f"remember to set {names[0]} in the Vercel dashboard, not in the repo"]))


@B("talk-about-passwords-without-value", 8)
def f_talkpw():
    return bres(pick([f"Changed my {pick(SERVICES)} password today, it's in Bitwarden now.", f"{pick(FIRST)} forgot the wifi password again - it's on the sticker under the router.",
                      "Note: never reuse the bank password anywhere else.", f"The {pick(['alarm', 'garage', 'door'])} code was changed by the landlord; ask him in person.",
                      f"Set up a new PIN for the {pick(BANKS)} card (didn't write it down, memorised).", "Password manager master password: remembered, NOT stored anywhere. Hint lives in my head.",
                      f"Reset the {pick(SERVICES)} password via email link; 2FA via app.", "I use a passphrase of 5 random words for important accounts."]))


@B("talk-about-codes-multilingual", 64)
def f_talkml():
    lng = LANG_CODES[CALLIDX[0] % len(LANG_CODES)]
    D = L[lng]
    kind = pick(["password", "pin", "door", "alarm", "garage", "wifi", "safe", "keybox", "puk", "bank", "seed"])
    return bres(pick(D["nv"]).format(N=D["n"][kind], c=pick(D["c"]), p=pick(FIRST)), lang=lng)


@B("password-policy", 5)
def f_policy_pw():
    return bres(pick([f"Password rules at work: min {ri(12, 16)} chars, 1 digit, 1 symbol, rotate every {ri(60, 180)} days, no reuse of last {ri(5, 24)}.",
                      {"min_length": ri(8, 16), "require_symbol": True, "require_digit": True, "max_age_days": ri(90, 365), "lockout_after": ri(3, 10)},
                      "NIST says: long passphrases > complexity rules; check against breached lists; no forced periodic resets."]))


@B("pin-statistics", 4)
def f_pinstats():
    return bres(pick(["Fun fact: 1234 is the most common 4-digit PIN (~11% of all), followed by 1111 and 0000.", "Study: about 27% of PINs could be guessed with the 20 most popular ones.",
                      "Most common 6-digit PINs: 123456, 111111, 000000 – never use those.", "There are 10,000 possible 4-digit PINs and 1,000,000 six-digit ones."]))


@B("crypto-receive-address", 3, ["btc-bech32-receive-address", "btc-legacy-receive-address", "eth-receive-address", "sol-receive-address"])
def f_recv():
    a, n = po([(bech32_addr(), "BTC"), (btc_legacy(), "BTC"), ("0x" + hx(40), pick(["ETH", "USDC (ERC-20)"])), (b58(44), "SOL")])
    return bres(pick([f"Send {n} donations to {a} (public receive address)", f"my {n} deposit address: {a}", {"currency": n, "receive_address": a, "label": "tips"},
                      f"Payout address for the mining pool: {a}"]))


@B("iban-for-receiving", 8)
def f_iban():
    ib = iban()
    return bres(pick([f"Rent goes to IBAN {ib} ({person()}), reference 'Miete {pick(months())}'", f"Please transfer the deposit to {ib}, BIC {up(4)}{pick(['DE', 'NL', 'GB', 'ES'])}{up(2)}",
                      {"payee": person(), "iban": ib, "purpose": pick(["football club fee", "wedding gift pool", "shared flat costs"])}, f"my IBAN for the Splitwise payback: {ib}"]))


@B("bank-details", 3, ['uk-sort-code-account', 'aba-routing-number', 'swift-bic'])
def f_sortcode():
    return bres(po([f"Pay the builder: sort code {dg(2)}-{dg(2)}-{dg(2)}, account {dg(8)}, ref INV{dg(4)}", f"ACH routing number {dg(9)} (public bank routing no.) – account details on the invoice",
                      f"SWIFT/BIC {up(4)}{pick(['GB', 'FR', 'IT'])}{up(2)}XXX for the international transfer"]))


@B("sops-encrypted-file", 5)
def f_sops():
    enc = lambda: f"ENC[AES256_GCM,data:{b64s(ri(16, 40))},iv:{b64s(43)}=,tag:{b64s(22)}==,type:str]"
    return bres(f"db:\n    password: {enc()}\napi:\n    key: {enc()}\nsops:\n    age:\n        - recipient: age1{rs(BECH, 58)}\n          enc: |\n            -----BEGIN AGE ENCRYPTED FILE-----\n            {b64s(64)}\n            -----END AGE ENCRYPTED FILE-----\n    lastmodified: \"{rdate(2024, 2026)}T{rtime()}Z\"\n    version: 3.{ri(7, 9)}.{ri(0, 4)}")


@B("sealed-secret", 4)
def f_sealed():
    return bres(f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {pick(['db', 'api', 'smtp'])}-credentials\nspec:\n  encryptedData:\n    password: AgB{b64s(ri(300, 380))}==")


@B("ansible-vault-ciphertext", 4)
def f_vault():
    lines = "\n".join(hx(80) for _ in range(ri(4, 8)))
    return bres(f"db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  " + lines.replace("\n", "\n  "))


@B("product-codes", 3, ['ikea-article-number', 'model-number', 'sku-code', 'paint-colour-code', 'oem-part-number'])
def f_sku():
    return bres(po([f"IKEA article no. {dg(3)}.{dg(3)}.{dg(2)} – the shelf we liked", f"Replacement filter model {up(2)}{dg(4)}-{up(3)}{dg(2)}", f"SKU {up(3)}-{dg(5)}-{up(2)} out of stock",
                      f"Paint colour: {pick(['Farrow & Ball', 'Dulux', 'Alpina'])} No. {ri(1, 300)} ({up(2)}{dg(3)}-{dg(2)})", {"part": pick(["brake pads", "wiper blades", "bulb H7"]), "oem": f"{dg(1)}K{dg(1)} {dg(3)} {dg(3)} {up(1)}"}]))


@B("math-notes", 6)
def f_math():
    return bres(pick(["e^(iπ) + 1 = 0", f"{ri(1000, 9999)} × {ri(100, 999)} = ?", "det([[2,1],[7,4]]) = 1", f"prime factors of {ri(1000, 99999)}",
                      "∫₀^∞ e^(-x²) dx = √π / 2", f"sum 1..n = n(n+1)/2 → n=100 gives 5050", f"compound interest: {ri(1000, 20000)} × 1.0{ri(2, 7)}^{ri(5, 30)}",
                      f"{dg1(20)} mod 97 = {ri(0, 96)}"]))


@B("chemistry-formulas", 4)
def f_chem():
    return bres(pick(["caffeine C8H10N4O2", "aspirin C9H8O4, 180.16 g/mol", "2H2 + O2 → 2H2O", "ethanol CH3CH2OH / C2H5OH", "CAS 58-08-2 (caffeine)",
                      "SMILES for caffeine: CN1C=NC2=C1C(=O)N(C(=O)N2C)C", "InChIKey RYYVLZVUVIJVGH-UHFFFAOYSA-N"]))


@B("base64-of-harmless-text", 6)
def f_b64harm():
    t = pick(["Hello, world!", "happy birthday grandma", "meet at the café at 7", "the quick brown fox jumps over the lazy dog", "shopping: milk, eggs, bread", "{\"theme\":\"dark\",\"lang\":\"en\"}"])
    e = base64.b64encode(t.encode()).decode()
    return bres(pick([f"{e} (base64 of '{t}')", f"decoded this for fun: {e} → {t}", {"encoded": e, "decoded": t}, f"data:text/plain;base64,{e}"]))


@B("phone-numbers", 5)
def f_phone():
    return bres(pick([f"{pick(FIRST)}'s new number: +{pick(['44 7', '49 15', '33 6', '34 6', '1 415'])}{dg(2)} {dg(3)} {dg(4)}", {"contact": person(), "mobile": f"+{pick(['31', '46', '81'])} {dg(2)} {dg(4)} {dg(4)}"},
                      f"Doctor's office: 0{dg(3)} {dg(6)}, open 8–12"]))


@B("email-addresses", 4)
def f_email():
    return bres(pick([f"{pick(FIRST)}'s work email {email_addr()}", f"cc {email_addr()} and {email_addr()} on the invoice", {"newsletter_signup": email_addr()}]))


@B("postal-addresses", 5)
def f_addr():
    return bres(pick([f"Grandma's address: {ri(1, 120)} {pick(['Rosenweg', 'Elm Street', 'Rue Victor Hugo', 'Via Roma'])}, {dg(5)} {pick(CITIES)}",
                      {"name": person(), "street": f"{pick(['Kastanienallee', 'Baker Street', 'Calle Luna'])} {ri(1, 99)}", "city": pick(CITIES), "zip": dg(5)}]))


@B("birthdays-and-dates", 5)
def f_bday():
    return bres(pick([f"{pick(FIRST)} born {ri(1, 28)} {pick(months())} {ri(1950, 2020)}", f"Anniversary {rdate(2000, 2020)}", {"person": pick(FIRST), "birthday": rdate(1950, 2020)},
                      f"Mum's birthday {ri(1, 28):02d}.{ri(1, 12):02d}. – she likes orchids"]))


@B("personal-ids", 2, ['passport-number', 'driving-licence-number', 'health-insurance-member-id', 'student-id', 'employee-number', 'tax-id', 'nhs-number'])
def f_ids():
    return bres(po([f"Passport no. {up(2)}{dg(7)}, expires {rdate(2027, 2034)} – renew 6 months before", f"Driving licence number {up(5)}{dg(6)}{up(2)}{dg(1)}{up(2)}",
                      f"Health insurance member ID {up(1)}{dg(9)}", f"Student ID {dg1(8)}", f"Employee number {dg1(6)}", f"Tax ID (Steuer-ID) {dg1(11)} – needed for the new employer",
                      f"NHS number {dg(3)} {dg(3)} {dg(4)}"]))


@B("vehicle-license-plates", 4)
def f_plate():
    return bres(pick([f"Rental car plate {up(2)}-{up(2)} {dg(4)}", f"parked the car (plate {dg(3)}-{up(3)}) on level {ri(-3, 5)}, row {up(1)}", f"Neighbour's van: {up(2)}{dg(2)} {up(3)}"]))


@B("flight-details", 5)
def f_flight():
    return bres(pick([f"{pick(['LH', 'BA', 'AF', 'KL', 'TK', 'QR'])}{ri(10, 9999)} dep {hm()} gate {up(1)}{ri(1, 60)} seat {ri(1, 45)}{pick('ABCDEF')}",
                      {"flight": f"{pick(['U2', 'FR', 'W6'])}{ri(100, 9999)}", "terminal": ri(1, 5), "boarding": hm()}]))


@B("wifi-network-names", 4)
def f_ssid():
    return bres(pick([f"Home wifi is called '{pick(SSIDS)}', 5 GHz band for the TV", f"Hotel wifi: network {pick(SSIDS)}, password at reception",
                      f"Cabin has two networks: {pick(SSIDS)} and {pick(SSIDS)}; the second is faster"]))


@B("network-addresses", 3, ['lan-ip-and-port', 'public-ip-endpoint', 'hostnames-urls', 'ipv6-address', 'dns-server-ip'])
def f_ip():
    return bres(po([f"NAS at 192.168.{ri(0, 2)}.{ri(2, 250)}, SSH on port {pick([22, 2222, 22022])}", f"VPN server {ri(80, 200)}.{ri(0, 255)}.{ri(0, 255)}.{ri(1, 254)}:51820",
                      f"staging: https://staging.{domain()}, prod: https://{domain()}", f"IPv6 {hx(4)}:{hx(4)}::{hx(4)}:{hx(4)}", f"Pi-hole DNS 10.0.0.{ri(2, 250)}"]))


@B("versions", 3, ['semver', 'build-number', 'os-build', 'firmware-version'])
def f_ver():
    return bres(po([f"upgraded to v{ri(1, 20)}.{ri(0, 30)}.{ri(0, 20)}", f"build {ri(2020, 2026)}.{ri(1, 12):02d}.{ri(1, 28):02d}+{hx(7)}", f"iOS {ri(16, 18)}.{ri(0, 6)}.{ri(0, 2)} (build {ri(20, 22)}{up(1)}{ri(100, 999)})",
                      f"Firmware {up(2)}{dg(3)}.{dg(2)}.{dg(3)} installed on the router"]))


@B("cve-ids", 3)
def f_cve():
    return bres(f"patch for CVE-{ri(2019, 2025)}-{ri(1000, 49999)} (CVSS {ri(4, 9)}.{ri(0, 9)}) deployed {rdate(2025, 2026)}")


@B("kubernetes-pod-names", 4)
def f_pods():
    return bres("\n".join(f"{pick(['api', 'worker', 'web', 'cron'])}-{lo(9)}-{lo(5)}   1/1   Running   {ri(0, 3)}   {ri(1, 48)}h" for _ in range(ri(2, 4))))


@B("cloud-ids", 2, ['s3-bucket-arn', 'iam-role-arn', 'aws-account-id', 'ec2-resource-ids', 'ami-id', 'gcp-project-id', 'azure-subscription-id', 's3-uri', 'secrets-manager-arn'])
def f_cloudids():
    return bres(po([f"arn:aws:s3:::{pick(COMPANIES)}-backups-{lo(6)}", f"arn:aws:iam::{dg1(12)}:role/{pick(['deploy', 'readonly', 'lambda-exec'])}", f"AWS account id {dg1(12)} (prod)",
                      f"instance i-0{hx(16)} in sg-0{hx(16)}, vpc-0{hx(16)}", f"ami-0{hx(16)} (Ubuntu 24.04)", f"GCP project {pick(COMPANIES)}-prod-{dg(6)}",
                      f"Azure subscription {uuid4()}", f"s3://{pick(COMPANIES)}-logs/{rdate(2025, 2026)}/", f"arn:aws:secretsmanager:eu-west-1:{dg1(12)}:secret:prod/db-{al(6)}"]))


@B("analytics-ids", 3, ['ga4-measurement-id', 'gtm-container-id', 'meta-pixel-id', 'hotjar-site-id', 'universal-analytics-id'])
def f_ga():
    return bres(po([f"GA4 measurement id G-{up(10)}", f"GTM-{up(7)}", f"Meta pixel id {dg1(15)}", f"Hotjar site id {dg1(7)}", f"UA-{dg1(8)}-{ri(1, 9)} (old analytics)"]))


@B("platform-ids", 3, ['slack-channel-user-ids', 'discord-snowflake', 'telegram-chat-id', 'tweet-id', 'zoom-meeting-id-no-passcode'])
def f_slackid():
    return bres(po([f"Slack channel #incidents is C{up(10)}, my user id U{up(10)}", f"Discord user id {ri(10**17, 10**18)}", f"Telegram chat id -100{dg1(10)}",
                      f"tweet {ri(10**18, 2 * 10**18)}", f"Zoom meeting ID {dg(3)} {dg(4)} {dg(4)} (passcode will be sent separately)"]))


@B("media-ids", 3, ['youtube-video-id', 'spotify-track-uri', 'youtube-playlist-id', 'vimeo-id', 'short-url'])
def f_media():
    return bres(po([f"YouTube video: https://youtu.be/{b64u(11)}", f"spotify:track:{al(22)}", f"playlist id PL{b64u(32)}", f"Vimeo {dg1(9)}", f"Short link: https://bit.ly/{al(7)}"]))


@B("hex-color-codes", 4)
def f_color():
    return bres(pick([f"Brand colours: #{hx(6)} primary, #{hx(6)} accent, #{hx(6)} text", {"primary": "#" + hx(6), "secondary": "#" + hx(6), "font": "Inter"}, f"paint it rgb({ri(0, 255)},{ri(0, 255)},{ri(0, 255)}) / #{HX(6)}"]))


@B("build-hashes", 2, ['vite-asset-hash', 'webpack-chunk-hash', 'css-bundle-hash', 'npm-integrity', 'sri-hash', 'css-in-js-classes', 'etag', 'weak-etag'])
def f_build():
    return bres(po([f"dist/assets/index-{b64u(8)}.js   {ri(50, 400)} kB", f"main.{hx(20)}.chunk.js", f'<link rel="stylesheet" href="/static/app.{hx(8)}.css">',
                      f'"integrity": "sha512-{b64s(86)}=="', f'<script src="https://cdn.jsdelivr.net/npm/chart.js" integrity="sha384-{b64s(64)}" crossorigin="anonymous"></script>',
                      f'.css-{lo(6)} {{ display: flex }} .sc-{al(6)} {{ color: #{hx(6)} }}', f'ETag: "{hx(32)}"', f'ETag: W/"{hx(8)}-{b64u(27)}"']))


@B("games", 2, ['lottery-numbers', 'wordle-result', 'sudoku-row', 'chess-fen', 'bingo-card', 'chess-pgn'])
def f_games():
    return bres(po([f"Lotto numbers this week: {' '.join(str(x) for x in sorted(sample(range(1, 50), 6)))} + {ri(0, 9)}", "Wordle 1,234 4/6\n⬛🟨⬛⬛⬛\n⬛⬛🟩🟨⬛\n🟩🟩🟩⬛🟩\n🟩🟩🟩🟩🟩",
                      "sudoku row: 5 3 _ _ 7 _ _ _ _", "FEN: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                      f"Bingo card B{ri(1, 15)} I{ri(16, 30)} N{ri(31, 45)} G{ri(46, 60)} O{ri(61, 75)}", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 — Ruy Lopez"]))


@B("geo", 3, ['gps-coordinates', 'geohash', 'what3words', 'plus-code', 'gps-coordinates-json'])
def f_geo():
    return bres(po([f"Parking spot {ri(35, 60)}.{dg(6)}, {ri(-10, 30)}.{dg(6)}", f"geohash u{lo(8)}", f"///{pick(BIP39)}.{pick(BIP39)}.{pick(BIP39)} is the what3words for the picnic spot",
                      f"Plus code {rs('23456789CFGHJMPQRVWX', 4)}{rs('23456789CFGHJMPQRVWX', 4)}+{rs('23456789CFGHJMPQRVWX', 2)} {pick(CITIES)}", {"lat": round(R.uniform(-60, 60), 6), "lon": round(R.uniform(-170, 170), 6), "name": "campsite"}]))


@B("word-lists", 3, ['spelling-word-list', 'vocab-list', 'item-list-object', 'xkcd-passphrase-example'])
def f_words():
    lists = [["apples", "spinach", "yoghurt", "tortillas", "chickpeas", "lemons", "basil", "oats", "honey", "cheddar", "tomatoes", "rice"],
             ["necessary", "rhythm", "conscience", "separate", "definitely", "embarrass", "occurrence", "receive", "calendar", "tomorrow", "believe", "weird"],
             ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
             ["der Apfel", "die Birne", "das Haus", "der Baum", "die Katze", "der Hund", "das Buch", "die Schule"],
             ["tent", "sleeping bags", "stove", "headlamps", "rope", "first aid kit", "water filter", "sunscreen", "maps", "matches", "bug spray", "snacks"]]
    ws = pick(lists)
    return bres(po([f"Spelling words for {pick(['Leo', 'Mia'])} this week: {', '.join(ws)}", f"Vocab list: {', '.join(ws)}", {"list": pick(["camping", "groceries", "vocab"]), "items": ws},
                      "correct horse battery staple – the xkcd example of a passphrase, obviously don't use it"]))


@B("password-hashes", 3, ['bcrypt-hash', 'argon2-hash', 'pbkdf2-hash', 'htpasswd-bcrypt-line'])
def f_hash():
    return bres(po([f"test fixture user row: password_hash = '$2b$12${b64s(53).replace('+', '.')}'", f"stored hash format: $argon2id$v=19$m=65536,t=3,p=4${b64s(22)}${b64s(43)}",
                      f"Django hash format: pbkdf2_sha256$870000${al(22)}${b64s(43)}=", f"htpasswd line (bcrypt): {username()}:$2y$10${b64s(53).replace('+', '.')}"]))


@B("secret-references", 2, ['1password-reference', 'gha-secrets-expression', 'env-interpolation', 'vault-cli-command', 'ansible-env-lookup', 'aws-secretsmanager-cli', 'k8s-secretkeyref', 'gcloud-secrets-cli', 'keyring-lookup', 'runtime-injected-empty-env'])
def f_refs():
    return bres(po([f"op://{pick(['Private', 'Dev', 'Infra'])}/{pick(['Stripe', 'Postgres', 'AWS'])}/{pick(['credential', 'password', 'secret key'])}",
                      "password: ${{ secrets.DB_PASSWORD }}", "DATABASE_URL=${DATABASE_URL}", "vault kv get -field=password secret/data/prod/db",
                      "token: {{ lookup('env', 'API_TOKEN') }}", "aws secretsmanager get-secret-value --secret-id prod/api-key --query SecretString",
                      "valueFrom:\n  secretKeyRef:\n    name: stripe\n    key: secret-key", "gcloud secrets versions access latest --secret=db-password",
                      "key = keyring.get_password('myapp', 'api')", "ENV API_KEY=\"\"  # injected at runtime"]))


@B("password-generator-settings", 3)
def f_gen():
    return bres(pick(["Bitwarden generator: length 24, A-Z a-z 0-9 !@#, avoid ambiguous", {"length": ri(16, 32), "words": ri(4, 7), "separator": "-", "capitalize": True}, "diceware: 6 words, roll 5 dice per word"]))


@B("security-talk", 2, ['security-questions-no-answers', '2fa-setup-talk', 'recovery-code-count', 'forgot-pin-talk', 'phishing-pin-reminder', 'passkeys-talk', 'hardware-key-talk', 'safe-code-location-talk'])
def f_sectalk():
    return bres(po(["Security questions for the bank: first pet, mother's maiden name, first school (answers NOT here).", "2FA: switched from SMS to an authenticator app for Google and GitHub.",
                      "I still have 7 of 10 recovery codes left for GitHub – printed, in the safe.", "Forgot my PIN at the ATM today, card got blocked; new PIN letter in 5 days.",
                      "The bank will never ask for your PIN by phone – remind Grandma.", f"Turned on passkeys for {pick(SERVICES)}.", "Need to set up a YubiKey as backup second factor.",
                      "The safe code is written in the family emergency folder at the notary."]))


@B("hexdumps", 3, ['png-hexdump', 'pdf-magic-bytes', 'tiny-png-data-uri', 'zip-header-mention'])
def f_hexdump():
    return bres(po(["00000000: 8950 4e47 0d0a 1a0a 0000 000d 4948 4452  .PNG........IHDR", "magic bytes: 25 50 44 46 2D (%PDF-)",
                      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
                      "PK\\x03\\x04 is the zip header"]))


@B("conference-dial-in", 3)
def f_dial():
    return bres(pick([f"Dial-in +{pick(['44 20', '49 30', '1 646'])} {dg(4)} {dg(4)}, meeting ID {dg(3)} {dg(3)} {dg(3)}#", f"Teams meeting, conference ID {dg(3)} {dg(3)} {dg(3)}#, link in the invite"]))


@B("business-ids", 3, ['vat-id', 'company-number', 'duns-number', 'handelsregister-number', 'us-ein'])
def f_biz():
    return bres(po([f"VAT ID {pick(['DE', 'FR', 'NL'])}{dg(9)}", f"Company no. {dg(8)} (Companies House)", f"DUNS {dg(9)}", f"Handelsregister HRB {dg(6)} B", f"EIN {dg(2)}-{dg(7)}"]))


@B("chain-ids", 2, ['btc-txid', 'eth-tx-hash', 'block-hash', 'ens-name', 'onion-address', 'magnet-link'])
def f_txid():
    return bres(po([f"BTC tx {hx(64)} – 3 confirmations", f"ETH tx hash 0x{hx(64)}", f"block hash 0000000000000000000{hx(45)}", f"vitalik.eth / {pick(FIRST).lower()}.eth",
                      f"Onion service: {rs('abcdefghijklmnopqrstuvwxyz234567', 56)}.onion (public address of the newsletter)", f"magnet:?xt=urn:btih:{hx(40)}&dn=ubuntu-24.04.iso"]))


@B("ml", 3, ['ml-hyperparameters', 'checkpoint-hash', 'hf-model-id', 'ml-config-object'])
def f_ml():
    return bres(po([f"run {lo(8)}: lr={pick(['3e-4', '1e-3', '5e-5'])}, batch={pick([32, 64, 256])}, seed={ri(0, 9999)}, val_acc=0.{ri(70, 99)}", f"checkpoint sha256:{hx(64)[:16]}… step {ri(1000, 90000)}",
                      f"model: {pick(['meta-llama', 'mistralai', 'google', 'microsoft'])}/{pick(['Llama-3.1-8B', 'Mistral-7B-v0.3', 'gemma-2-9b', 'phi-3-mini'])}", {"seed": 42, "epochs": ri(3, 50), "wandb_run": lo(8)}]))


@B("container-tags-and-charts", 3)
def f_tags():
    return bres(pick([f"bumped chart to {pick(COMPANIES)}-api-{ri(0, 3)}.{ri(0, 20)}.{ri(0, 9)}", f"docker pull ghcr.io/{pick(COMPANIES)}/worker:{hx(7)}", f"tag v{ri(1, 4)}.{ri(0, 9)}.{ri(0, 9)}-rc{ri(1, 4)}"]))


@B("cron-regex", 2, ['cron-expression', 'cron-job-line', 'email-regex', 'password-strength-regex'])
def f_cron():
    return bres(po(["backup cron: 0 3 * * 1-5", "*/15 * * * * /usr/local/bin/healthcheck", r"email regex: ^[\w.+-]+@[\w-]+\.[\w.]+$", r"^(?=.*\d)(?=.*[A-Z]).{12,}$ – password strength check regex"]))


@B("loyalty-gift-balance", 4)
def f_loyal():
    return bres(pick([f"Gift card balance {ri(5, 100)}.{dg(2)} € left (card is in the wallet, code not here)", f"Payback points: {ri(200, 9000)}", f"Starbucks stars {ri(10, 400)}, free drink at 150",
                      f"Store credit note #{dg1(6)}, value {ri(5, 80)} €"]))


@B("receipts-and-invoices", 5)
def f_receipt():
    return bres(pick([f"Invoice INV-{ri(2023, 2026)}-{dg(4)} paid {rdate(2025, 2026)}, {ri(50, 4000)}.{dg(2)} EUR", f"Receipt no. {dg(4)} {dg(4)} {dg(4)} – warranty 2 years",
                      {"invoice": f"RE{dg(8)}", "amount": round(R.uniform(10, 999), 2), "iban_payee": iban()}, f"Transaction reference {up(3)}{dg(12)} for the refund"]))


@B("utility-and-customer-numbers", 5)
def f_util():
    return bres(pick([f"Electricity customer no. {dg1(9)}, meter {dg(8)}, reading {ri(10000, 99999)} kWh on {rdate(2025, 2026)}", f"Internet contract number {up(2)}{dg(9)}",
                      f"Water meter {up(1)}{dg(7)} – reading {ri(100, 999)} m³", f"Council tax account {dg(8)}, band {pick('ABCDE')}"]))


@B("transport-tickets", 4)
def f_train():
    return bres(pick([f"Train ticket order {dg(12)}, coach {ri(1, 14)}, seat {ri(1, 120)}", f"Eurostar booking {up(6)}, departure {hm()}", f"Concert: block {up(1)}, row {ri(1, 40)}, seat {ri(1, 30)}, order {dg1(9)}",
                      f"Car rental confirmation {up(2)}{dg(8)} – pickup desk at arrivals"]))


@B("obviously-fake-test-fixtures", 5)
def f_fakes():
    return bres(pick(["assert mask('4111111111111111') == '************1111'  # Visa test number", "token = 'fake-token-for-unit-tests'", "API_KEY = 'test'  # dummy for pytest, mocked client",
                      "mock_secret = 'not-a-real-secret-000000'", "xoxb-not-a-real-token (used in the Slack SDK README)", "sk_test_XXXXXXXXXXXXXXXXXXXXXXXX in the tutorial screenshot"]))


@B("prescription-and-medical-ids", 4)
def f_rx():
    return bres(pick([f"Prescription Rx #{dg1(7)} – refill at {pick(['Boots', 'CVS', 'Apotheke am Markt'])}", f"Lab order {up(2)}{dg(6)}, results in 3 days", f"Patient no. {dg1(8)} at the clinic",
                      f"Blood type {pick(['A+', 'O-', 'B+', 'AB+'])}, donor card {dg(10)}"]))


@B("public-keys-in-configs", 2, ['wireguard-peer-public-key', 'age-recipient', 'minisign-public-key', 'sops-age-recipient', 'nostr-npub', 'signal-safety-number'])
def f_pubcfg():
    return bres(po([f"[Peer]\nPublicKey = {wg_key()}\nAllowedIPs = 10.0.0.{ri(2, 200)}/32\nEndpoint = vpn.{domain()}:51820",
                      f"age recipient (public): age1{rs(BECH, 58)}", f"minisign public key: RW{b64s(54)}", f"sops creation_rules: age: age1{rs(BECH, 58)}",
                      f"Nostr npub1{rs(BECH, 58)}", f"Signal safety number: {' '.join(dg(5) for _ in range(12))}"]))


@B("empty-or-null-credentials", 4)
def f_empty():
    return bres(pick(['{"username": "admin", "password": ""}', {"db_user": "app", "db_password": None, "note": "filled in by the deploy pipeline"},
                      "MYSQL_PASSWORD=\nMYSQL_ROOT_PASSWORD=", "password: null  # TODO"]))


@B("random-looking-filenames", 4)
def f_files():
    return bres(pick([f"IMG_{rdate(2023, 2026).replace('-', '')}_{dg(6)}.jpg", f"Scan_{dg(4)}-{dg(2)}-{dg(2)}_{hx(8)}.pdf", f"export-{uuid4()}.csv", f"Screenshot {rdate(2024, 2026)} at {rtime().replace(':', '.')}.png",
                      f"~/Downloads/{al(12)}.zip – the photo archive from the wedding"]))


@B("social-handles-hashtags", 3)
def f_handles():
    return bres(pick([f"@{username()} on Mastodon ({pick(['mastodon.social', 'hachyderm.io'])})", f"#{pick(['sourdough', 'marathontraining', 'bookclub'])}{ri(2024, 2026)}", f"IG: @{username()}_{lo(3)}"]))


@B("encrypted-blobs", 3, ['pgp-encrypted-message', 'age-encrypted-file'])
def f_encnote():
    return bres(po([f"-----BEGIN PGP MESSAGE-----\n\n{wrap(b64s(ri(200, 320)), 64)}\n={b64s(4)}\n-----END PGP MESSAGE-----", f"-----BEGIN AGE ENCRYPTED FILE-----\n{wrap(b64s(180), 64)}\n-----END AGE ENCRYPTED FILE-----"]))


@B("seed-phrase-talk-without-words", 4)
def f_seedtalk():
    return bres(pick(["Wrote the 24-word recovery phrase on the steel plate; it's in the safe deposit box, not digital.", "Ledger set up, recovery sheet stored offline. Never type it into a website.",
                      "Reminder: a 12-word seed has 128 bits of entropy; 24 words = 256 bits.", "BIP39 wordlist has 2048 words; first 4 letters identify each word."]))


@B("otp-sms-already-used-talk", 3)
def f_otptalk():
    return bres(pick(["Got the 2FA SMS but it expired before I typed it – requested a new one.", "Bank app sends a 6-digit code for each transfer now.", "Your code was used successfully. If this wasn't you, contact support."]))


@B("door-access-talk-no-code", 4)
def f_doortalk():
    return bres(pick([f"Cleaner comes {pick(['Tuesday', 'Friday'])} – she has her own fob, no code needed.", "Key box installed next to the door; code sent to guests automatically by the app.",
                      "Building door code changes on the 1st of each month – check the notice board.", "Garage opener battery is dead, use the manual key."]))


@B("multilingual-ordinary-ids", 24)
def f_mlids():
    lng = ["de", "fr", "es", "it", "nl", "pl", "pt", "sv", "tr", "ja", "zh", "ru"][CALLIDX[0] % 12]
    t = {"de": f"Sendungsnummer DHL {dg(12)}, kommt morgen.", "fr": f"Numéro de suivi Colissimo {up(2)}{dg(9)}FR, livraison demain.",
         "es": f"Número de pedido {dg1(9)}, llega el jueves.", "it": f"Codice fiscale di {pick(FIRST)}: {up(6)}{dg(2)}{up(1)}{dg(2)}{up(1)}{dg(3)}{up(1)}",
         "nl": f"Klantnummer energie {dg1(8)}, meterstand {ri(1000, 9999)}.", "pl": f"Numer zamówienia {dg1(10)}, paczkomat przy sklepie.",
         "pt": f"Código de rastreio {up(2)}{dg(9)}BR.", "sv": f"Ordernummer {dg1(8)}, hämtas på ICA.", "tr": f"Kargo takip numarası {dg(12)}.",
         "ja": f"注文番号 {dg(3)}-{dg(7)}-{dg(7)}、明日到着予定。", "zh": f"快递单号 SF{dg(12)}，明天到。", "ru": f"Трек-номер посылки {up(2)}{dg(9)}RU."}[lng]
    return bres(t, lang=lng)


@B("iso-standards-and-codes", 3)
def f_iso():
    return bres(pick(["ISO 8601: 2025-03-14T15:09:26Z", "ISO 3166: DE, FR, JP; ISO 4217: EUR, JPY", "HS code 8471.30 for laptops (customs)", "ICD-10 J45.909 (asthma) on the sick note"]))

# ================================================================ assembly
import re as _re

RECORDS = []   # (record_dict, lang)
SEQ = collections.Counter()
MAXLEN = 1500


def seg_clean(s):
    return _re.sub(r"[^a-z0-9-]+", "-", s.lower()).strip("-")


def vlen(v):
    return len(v) if isinstance(v, str) else len(json.dumps(v, ensure_ascii=False))


def guess_lang(v, lang):
    if lang != "en":
        return lang
    txt = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    words = [t for t in _re.split(r"[\s,;:()\[\]{}\"'=/|]+", txt) if _re.fullmatch(r"[A-Za-z]{3,}", t)]
    return "en" if len(words) >= 3 else "-"


def add(label, variant, segment, kind, value, lang, key=None, ns3=None):
    segment = seg_clean(segment)
    lv = ("s" if label == "secret" else "b") + "-" + ("p" if variant == "plain" else "h")
    SEQ[(lv, segment)] += 1
    rid = f"h15-{lv}-{segment}-{SEQ[(lv, segment)]:03d}"
    ns = user_ns()
    if ns3 is not None:
        ns = ns + [ns3]
    value = make_unique(value)
    rec = {"id": rid, "label": label, "kind": kind, "variant": variant, "namespace": ns,
           "key": key if key is not None else mem_key(), "value": value}
    RECORDS.append((rec, lang))


SEEN = set()


def vkey(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def gen_retry(fn, get=lambda o: o[0] if isinstance(o, tuple) else o["value"], tries=25):
    """call fn until the value is short enough and not a duplicate of an earlier record"""
    for _ in range(tries):
        out = fn()
        v = get(out)
        if vlen(v) <= MAXLEN and vkey(v) not in SEEN:
            break
    return out


def make_unique(v):
    k = 0
    while vkey(v) in SEEN and k < 50:
        k += 1
        if isinstance(v, str):
            v = pick(["Note to self ({d}): {v}", "{v} (saved {d})", "[{d}] {v}", "{v}\n— from {p}", "Re: {p}\n{v}"]).format(v=v, d=rdate(2023, 2026), p=pick(FIRST))
        elif isinstance(v, dict):
            v = dict(v)
            v["saved"] = rts()
        else:
            v = list(v) + [rdate(2023, 2026)]
    SEEN.add(vkey(v))
    return v


# ---------------------------------------------------------------- secret / plain: vendor credentials
def gen_vendor():
    order = list(range(len(FORMATS)))
    R.shuffle(order)
    extra = [R.randrange(len(FORMATS)) for _ in range(520 - len(order))]
    for i in order + extra:
        f = FORMATS[i]
        v, seg, lang = gen_retry(lambda: render_vendor(f))
        add("secret", "plain", seg, f["kind"], v, lang)


# ---------------------------------------------------------------- secret / plain: personal secrets
def gen_personal():
    for i in range(90):
        kind = PKINDS[i % len(PKINDS)]
        v, seg = personal_en(kind)
        add("secret", "plain", seg, PKIND_NAME[kind], v, "en")
    others = [x for x in LANG_CODES if x != "en"]
    for li, lng in enumerate(others):
        kinds = [PKINDS[(li * 5 + j) % len(PKINDS)] for j in range(11)]
        for kind in kinds:
            v, seg = personal_l10n(lng, kind)
            add("secret", "plain", seg, PKIND_NAME[kind], v, lng)


# ---------------------------------------------------------------- secret / hard
KEY_TECH = {"split-key-hex-half", "key-hex-full", "namespace-half", "namespace-full"}


def gen_hard():
    jobs = []
    for name, n, fn in TECH:
        cnt = n if name in KEY_TECH else (3 if n >= 4 else 2)
        jobs += [(name, fn)] * cnt
    pool = [(name, fn) for name, n, fn in TECH if name not in KEY_TECH]
    jobs += [pick(pool) for _ in range(8)]
    for name, fn in jobs:
        r = gen_retry(fn)
        add("secret", "hard", name, r["kind"], r["value"], r["lang"], key=r["key"], ns3=r["ns3"])


# ---------------------------------------------------------------- benign / plain
NEUTRAL_SEGS = ("code-", "config-", "log")


def gen_benign_plain(total=510):
    tot_w = sum(n for _, n, _, _ in BP)
    for _ in range(total):
        for _attempt in range(15):
            x = R.uniform(0, tot_w)
            for seg, n, lang, fn in BP:
                x -= n
                if x <= 0:
                    break
            out = gen_retry(fn, get=lambda o: o[0] if isinstance(o, tuple) else o, tries=5)
            if vkey(out[0] if isinstance(out, tuple) else out) not in SEEN:
                break
        if isinstance(out, tuple):
            v, seg2, lng = out
        else:
            v, seg2, lng = out, seg, (lang or "en")
            if seg.startswith(NEUTRAL_SEGS):
                lng = "-"
        kind = "ordinary-" + (seg2.split("-")[0] if seg2.startswith(("note-", "chat-", "form-")) else seg)
        add("benign", "plain", seg2, kind, v, lng)


# ---------------------------------------------------------------- benign / hard
def gen_benign_hard():
    for name, n, fn, subs in BH:
        k = len(subs) if subs else 1
        for i in range(n * k):
            CALLIDX[0] = i
            r = gen_retry(fn)
            fam = subs[i % k] if subs else name
            add("benign", "hard", fam, fam, r["value"], r["lang"])


# ---------------------------------------------------------------- shape mixing
CTX_WRAPS = ["Note to self ({date}): {v}", "{v}\n— saved from a chat with {p}", "From {p}'s message, {date}: {v}", "Keeping this here for later: {v}",
             "{v} (added {date})", "Re: {topic}\n{v}", "copied from my old phone notes → {v}", "{p} asked me to save this: {v}",
             "[{date} {time}] {v}", "reminder for {date}: {v}", "{v} — via {app}", "{topic}: {v}", "{v}\n\n(from the {topic} folder)",
             "forwarded by {p}: {v}", "saved {date}, {topic} — {v}"]
TOPICS = ["house stuff", "trip", "work", "family", "admin", "car", "kids", "health", "moving", "IT", "misc", "finances"]
APPS = ["Apple Notes", "Google Keep", "WhatsApp", "Signal", "Obsidian", "Telegram", "email"]


def ctx_wrap(v, lang):
    """length-conditioned, label-independent context wrapper"""
    if not isinstance(v, str) or lang not in ("en", "-"):
        return v
    n = len(v)
    p = 0.55 if n < 40 else 0.2 if n < 80 else 0.0
    if not chance(p):
        return v
    return pick(CTX_WRAPS).format(v=v, date=rdate(2024, 2026), p=pick(FIRST), topic=pick(TOPICS), time=rtime()[:5], app=pick(APPS))


SHAPE_P = {"secret": (0.06, 0.02), "benign": (0.12, 0.065)}
COMPOSE_P = {("secret", "plain"): 0.10, ("secret", "hard"): 0.12, ("benign", "plain"): 0.22, ("benign", "hard"): 0.40}
ORD_FNS = [bp_health, bp_family, bp_work, bp_travel, bp_prefs, bp_home, bp_pets, bp_car, bp_fin, bp_learn, bp_journal, bp_hobby]


NO_COMPOSE = ("voice", "sms", "ticket", "code", "config", "log", "email", "http", "curl", "env", "yaml", "json", "toml", "ini", "xml", "sql",
              "docker", "k8s", "github-actions", "terraform", "jupyter", "shell", "properties", "markdown", "dockerfile")


def ordinary_line():
    for _ in range(20):
        x = pick(ORD_FNS)()
        if isinstance(x, str) and len(x) < 200:
            return x
    return "Dentist tomorrow at 9."


def compose(rec, lang):
    """memories often bundle several facts: glue an unrelated ordinary English line to some string values (both labels)"""
    v = rec["value"]
    seg = rec["id"].split("-", 3)[3]
    if not isinstance(v, str) or lang != "en" or len(v) > 600 or seg.startswith(NO_COMPOSE):
        return v
    if not chance(COMPOSE_P[(rec["label"], rec["variant"])]):
        return v
    o = ordinary_line()
    if chance(0.4):
        o = o + pick([" ", "\n"]) + ordinary_line()
    sep = pick(["\n", "\n\n", " | ", " — also: ", "\nAlso: "])
    return v + sep + o if chance(0.5) else o + sep + v


def wrap_shapes():
    out = []
    for rec, lang in RECORDS:
        rec["value"] = compose(rec, lang)
        rec["value"] = ctx_wrap(rec["value"], lang)
        v = rec["value"]
        po_, pa_ = SHAPE_P[rec["label"]]
        if isinstance(v, str):
            x = R.random()
            if x < po_:
                rec["value"] = pick([
                    {"text": v, "source": pick(["chat", "note", "import", "voice", "email", "clipboard"]), "created_at": rts()},
                    {"content": v, "tags": sample(["personal", "work", "home", "todo", "travel", "family", "tech"], ri(1, 3))},
                    {"memory": v, "pinned": chance(0.3)},
                    {"note": v, "updated": rdate(2024, 2026)},
                ])
            elif x < po_ + pa_:
                lines = [ln for ln in v.split("\n") if ln.strip()]
                if 2 <= len(lines) <= 40:
                    rec["value"] = lines
                else:
                    rec["value"] = [pick(["saved from chat", "note", "imported", rdate(2024, 2026)]), v]
        out.append((rec, lang))
    return out


def main():
    gen_vendor()
    gen_personal()
    gen_hard()
    gen_benign_plain()
    gen_benign_hard()
    recs = wrap_shapes()
    recs = [(r, guess_lang(r["value"], l)) for r, l in recs]
    R.shuffle(recs)
    lines = [json.dumps(r, ensure_ascii=False) for r, _ in recs]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(os.path.join(HERE, "heldout15.jsonl"), "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    readme = build_readme(recs, sha)
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write(readme)
    print(f"wrote {len(recs)} records, sha256 {sha}")

# ================================================================ README
LANG_NAMES = {"-": "language-neutral (code, config, logs, raw data)", "en": "English", "de": "German", "fr": "French", "es": "Spanish",
              "it": "Italian", "pt": "Portuguese", "nl": "Dutch", "sv": "Swedish", "nb": "Norwegian Bokmål", "da": "Danish",
              "fi": "Finnish", "pl": "Polish", "cs": "Czech", "hu": "Hungarian", "ro": "Romanian", "tr": "Turkish", "ru": "Russian",
              "uk": "Ukrainian", "el": "Greek", "ar": "Arabic", "he": "Hebrew", "hi": "Hindi", "ja": "Japanese", "zh": "Chinese",
              "ko": "Korean", "vi": "Vietnamese", "id": "Indonesian", "th": "Thai", "sw": "Swahili", "tl": "Tagalog",
              "hr": "Croatian", "ca": "Catalan"}


def shape(v):
    return "string" if isinstance(v, str) else "object" if isinstance(v, dict) else "array"


def bucket(n):
    if n < 40:
        return "<40"
    if n < 100:
        return "40-99"
    if n < 200:
        return "100-199"
    if n <= 400:
        return "200-400"
    if n <= 1000:
        return "401-1000"
    return ">1000"


BUCKETS = ["<40", "40-99", "100-199", "200-400", "401-1000", ">1000"]


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(x) for x in r) + " |")
    return "\n".join(out)


def build_readme(recs, sha):
    rs_ = [r for r, _ in recs]
    langs = [l for _, l in recs]
    n = len(rs_)
    seg = lambda r: r["id"].split("-", 3)[3].rsplit("-", 1)[0]
    lv = collections.Counter((r["label"], r["variant"]) for r in rs_)
    lab = collections.Counter(r["label"] for r in rs_)
    shp = collections.Counter((r["label"], shape(r["value"])) for r in rs_)
    bk = collections.Counter((r["label"], bucket(vlen(r["value"]))) for r in rs_)
    lg = collections.Counter((r["label"], l) for r, l in recs)
    sp_kinds = collections.Counter(r["kind"] for r in rs_ if r["label"] == "secret" and r["variant"] == "plain")
    sh_kinds = collections.Counter(r["kind"] for r in rs_ if r["label"] == "secret" and r["variant"] == "hard")
    all_secret_kinds = collections.Counter(r["kind"] for r in rs_ if r["label"] == "secret")
    techs = collections.Counter(seg(r) for r in rs_ if r["label"] == "secret" and r["variant"] == "hard")
    fams = collections.Counter(seg(r) for r in rs_ if r["label"] == "benign" and r["variant"] == "hard")
    sp_segs = collections.Counter(seg(r) for r in rs_ if r["label"] == "secret" and r["variant"] == "plain")
    bp_segs = collections.Counter(seg(r) for r in rs_ if r["label"] == "benign" and r["variant"] == "plain")
    odd_key = sum(1 for r in rs_ if r["variant"] == "hard" and r["label"] == "secret" and seg(r) in ("split-key-hex-half", "key-hex-full"))
    odd_ns = sum(1 for r in rs_ if len(r["namespace"]) != 2)
    personal_langs = sorted({l for r, l in recs if r["label"] == "secret" and r["variant"] == "plain" and l not in ("-",)})

    def lbl_rows(counter, keys):
        return [(k, counter[("secret", k)], counter[("benign", k)], counter[("secret", k)] + counter[("benign", k)]) for k in keys]

    def ctr_table(c, head):
        rows = sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))
        return table([head, "count"], rows)

    L_ = []
    L_.append("# heldout15 — held-out evaluation corpus for the memory-store secret detector\n")
    L_.append("**Status: FROZEN.** This corpus is for evaluation only. Never edit `heldout15.jsonl` (not even to fix a label); "
              "record any erratum in `ERRATA.md` (id, problem, proposed label) and keep scoring against the frozen file. "
              "Do not train, tune thresholds, or write rules against these records.\n")
    L_.append("| item | value |\n|---|---|\n"
              f"| file | `heldout15.jsonl` ({n} records, UTF-8, one JSON object per line, `ensure_ascii=False`, shuffled) |\n"
              f"| sha256 | `{sha}` |\n"
              f"| generator | `make_heldout15.py` (Python 3.11 standard library only) |\n"
              f"| seed | `random.Random({SEED})` — one instance for every choice and the final shuffle |\n"
              "| reproducibility | two consecutive runs produce byte-identical `heldout15.jsonl` and `README.md` |\n")
    L_.append("## Record format\n")
    L_.append("```json\n{\"id\": \"h15-{s|b}-{p|h}-{segment}-{nnn}\", \"label\": \"secret\"|\"benign\", \"kind\": \"<short kind>\", "
              "\"variant\": \"plain\"|\"hard\", \"namespace\": [\"memories\", \"u<digits>\"], \"key\": \"mem_<hex>\", \"value\": <string|object|array>}\n```\n")
    L_.append("- `s`/`b` = secret/benign, `p`/`h` = plain/hard; `nnn` is a running number per (label, variant, segment).\n"
              "- `segment`: secret/plain = container or source (env, yaml, json, code-<lang>, curl, http, log, ticket, email, chat, note, sms, "
              "voice-transcript, note-<lang>, chat-<lang>, form-<lang>, prose-<lang>, …); secret/hard = the evasion technique; "
              "benign/plain = the source; benign/hard = the look-alike family.\n"
              "- `kind`: for secrets the credential type (vendor format or personal secret type); for benign/hard the family; for benign/plain `ordinary-<source>`.\n"
              "- `key` is normally `mem_` + 8–32 random hex chars and `namespace` is `[\"memories\", \"u<digits>\"]`. "
              f"Deliberate exceptions exist only in secret/hard ({odd_key} records whose `key` is `mem_` + the hex encoding of the secret or of half of it — "
              "short secrets give keys that look like ordinary 8–32-hex keys, long ones exceed 32 hex chars — and "
              f"{odd_ns} records with the secret or half of it in clear as a third namespace element). "
              "Those records are only recoverable by reading key/namespace together with the value.\n")
    L_.append("## Labelling policy\n")
    L_.append("- **secret** = anything that grants access if copied: API keys, tokens, passwords, PINs, PUKs, door/alarm/garage/safe/locker/key-box codes, "
              "one-time codes, backup/recovery codes, seed phrases, security-question answers, full card numbers (with or without expiry/CVV), gift-card claim codes, "
              "wifi passwords, bank logins, private keys of every kind, session cookies, bearer JWTs, webhook URLs with secret paths, connection strings with passwords. "
              "A record is still **secret** when the value is encoded, split, spelled out, reordered, hidden in markup/code, described as a riddle that can be solved with "
              "common knowledge, or otherwise disguised — and when it is recoverable only by combining parts of the same record, including `key` and `namespace`.\n"
              "- **benign** = personal data that is not an access credential (phone numbers, e-mail and postal addresses, birthdays, passport/ID/member/order/tracking/"
              "policy/case numbers, serials, IMEI, MAC, VIN, ISBN …) and every look-alike family listed below: hashes, checksums, UUIDs, git SHAs, image digests, trace ids, "
              "public keys, certificates, fingerprints, publishable keys that are public by design, documented example/test values explicitly marked as examples, "
              "published test card numbers stated as test numbers, masked/redacted values, placeholders, env-var names without values, talk about passwords and codes "
              "without the value, password policies, receive-only crypto addresses, an IBAN given so others can pay, card last four or expiry alone, values encrypted for "
              "storage by design (SOPS, Sealed Secrets, Ansible Vault, PGP/age messages) without their key, statistics about PINs, product codes, math, chemistry, "
              "base64 of harmless text, etc.\n"
              "- All secret values are synthetic, drawn from the seeded RNG with realistic alphabets, lengths and prefixes (DER/OpenSSH/PGP skeletons are structurally "
              "plausible, WIF/xprv use real base58check, bech32 receive addresses carry real checksums). Card numbers are Luhn-valid with real brand prefixes and are never "
              "a well-known published test number; published test numbers appear only in benign records that say they are test numbers. Seed phrases use BIP-39-style "
              "English words written from memory. Riddle-style PINs (historic years, digits of pi, phone-keypad words) derive from common knowledge by design.\n"
              "- Shape and context wrappers are label-independent in form: a short English/neutral string may get a context line (\"Note to self (date): …\") with a probability that depends only on its length; string values are then wrapped into objects (`{\"text\": …}`, `{\"content\": …, \"tags\": …}`) or arrays (line lists) with label-specific probabilities chosen so that the object/array shares of the two labels end up close. Independently, some English prose values of both labels are bundled with one or two unrelated ordinary lines (health, family, travel …), as real memories often are (probability 10–12% for secrets, 22% benign/plain, 40% benign/hard; never for code, config, logs, SMS, voice transcripts or tickets).\n")
    L_.append("## Counts\n")
    L_.append("### By label and variant\n")
    L_.append(table(["label", "plain", "hard", "total"], [(l, lv[(l, "plain")], lv[(l, "hard")], lab[l]) for l in ("secret", "benign")] +
                    [("total", lv[("secret", "plain")] + lv[("benign", "plain")], lv[("secret", "hard")] + lv[("benign", "hard")], n)]) + "\n")
    pers = set(PKIND_NAME.values())
    n_pers = sum(1 for r in rs_ if r["label"] == "secret" and r["variant"] == "plain" and r["kind"] in pers)
    n_vend = lv[("secret", "plain")] - n_pers
    n_fmt = len({r["kind"] for r in rs_ if r["label"] == "secret" and r["variant"] == "plain" and r["kind"] not in pers})
    L_.append(table(["secret/plain part", "records", "distinct kinds"], [("vendor / provider credentials", n_vend, n_fmt), ("personal secrets (32 languages incl. English)", n_pers, len({r["kind"] for r in rs_ if r["label"] == "secret" and r["variant"] == "plain" and r["kind"] in pers}))]) + "\n")
    L_.append("### By value shape\n")
    L_.append(table(["shape", "secret", "benign", "total"], lbl_rows(shp, ["string", "object", "array"])) + "\n")
    L_.append("### By length (characters; strings as-is, objects/arrays as compact JSON with `ensure_ascii=False`)\n")
    L_.append(table(["length", "secret", "benign", "total"], lbl_rows(bk, BUCKETS)) + "\n")
    L_.append("### By language\n")
    L_.append("Language of the surrounding text (`-` = language-neutral: code, configs, logs, raw data; English-default records with fewer than three "
              "alphabetic words are counted as `-`).\n")
    lang_keys = sorted({l for l in langs}, key=lambda x: (x != "-", x != "en", x))
    L_.append(table(["lang", "name", "secret", "benign", "total"], [(k, LANG_NAMES.get(k, k), lg[("secret", k)], lg[("benign", k)], lg[("secret", k)] + lg[("benign", k)]) for k in lang_keys]) + "\n")
    L_.append(f"Natural languages present: {len([k for k in lang_keys if k != '-'])} (secret records: {len([k for k in personal_langs])}).\n")
    L_.append("### Secret/plain by container / source segment\n")
    L_.append(ctr_table(sp_segs, "segment") + "\n")
    L_.append("### Benign/plain by source segment\n")
    L_.append(ctr_table(bp_segs, "segment") + "\n")
    L_.append(f"### Secret kinds ({len(all_secret_kinds)} distinct overall; {len(sp_kinds)} in secret/plain, {len(sh_kinds)} in secret/hard)\n")
    rows = sorted(((k, sp_kinds[k], sh_kinds[k], all_secret_kinds[k]) for k in all_secret_kinds), key=lambda x: (-x[3], x[0]))
    L_.append(table(["kind", "plain", "hard", "total"], rows) + "\n")
    L_.append(f"### Evasion techniques — secret/hard ({len(techs)} distinct)\n")
    L_.append(ctr_table(techs, "technique") + "\n")
    L_.append(f"### Look-alike families — benign/hard ({len(fams)} distinct)\n")
    L_.append(ctr_table(fams, "family") + "\n")
    L_.append("## Notes for scoring\n")
    L_.append("- Report precision/recall separately for plain and hard, and for personal (multilingual) vs vendor secrets; a detector that only fires on vendor "
              "prefixes will look fine on secret/plain vendor records and fail on the rest.\n"
              "- Records are independent; `id` encodes label/variant/segment, so never feed `id`, `label`, `kind` or `variant` to the detector — only "
              "`namespace`, `key` and `value`.\n")
    return "\n".join(L_)


if __name__ == "__main__":
    main()
