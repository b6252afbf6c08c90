#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""make_heldout13.py - deterministic generator for held-out evaluation corpus #13
of a secret detector that guards an AI-agent long-term memory store.

* Python 3.11 standard library only.
* Exactly ONE random source: R = random.Random(1313_2026).  Every random
  choice (values, templates, order) is drawn from it, so two runs produce a
  byte-identical heldout13.jsonl and README.md.
* All secret values are synthetic: generated here with the alphabet, length
  and prefix of the format as remembered by the author.  Nothing was copied
  from any scanner, rule file, corpus or repository.

Usage:  python3 make_heldout13.py      (writes heldout13.jsonl and README.md
                                          next to this file)
"""
import base64
import codecs
import gzip
import hashlib
import json
import os
import quopri
import random
import string
import urllib.parse

R = random.Random(1313_2026)
SEED_TEXT = "1313_2026"

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSONL = os.path.join(HERE, "heldout13.jsonl")
OUT_README = os.path.join(HERE, "README.md")

# ---------------------------------------------------------------------------
# basic random helpers
# ---------------------------------------------------------------------------
UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
ANL = LO + DG
ANU = UP + DG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64A = AN + "+/"
B64U = AN + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = UP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def hx(n):
    return rs(HEXL, n)


def HX(n):
    return rs(HEXU, n)


def an(n):
    return rs(AN, n)


def anl(n):
    return rs(ANL, n)


def anu(n):
    return rs(ANU, n)


def dg(n):
    return R.choice("123456789") + rs(DG, n - 1)


def dz(n):
    return rs(DG, n)


def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64b(n):
    return base64.b64encode(rbytes(n)).decode()


def b64u(n):
    return base64.urlsafe_b64encode(rbytes(n)).decode().rstrip("=")


def uid():
    b = bytearray(rbytes(16))
    b[6] = (b[6] & 0x0F) | 0x40
    b[8] = (b[8] & 0x3F) | 0x80
    h = b.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b64j(o):
    return base64.urlsafe_b64encode(
        json.dumps(o, separators=(",", ":")).encode()).decode().rstrip("=")


def epoch():
    return R.randint(1_704_067_200, 1_782_000_000)


def jwt(payload, alg="HS256", siglen=32):
    return b64j({"alg": alg, "typ": "JWT"}) + "." + b64j(payload) + "." + b64u(siglen)


def fill(tpl, **kw):
    v = kw.pop("v", None)
    for k, val in kw.items():
        tpl = tpl.replace("{" + k + "}", str(val))
    if v is not None:
        tpl = tpl.replace("{v}", str(v))
    return tpl


def cap(s):
    return s[:1].upper() + s[1:]


def camel(name):
    parts = name.lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


# ---------------------------------------------------------------------------
# people, places, dates
# ---------------------------------------------------------------------------
FIRST = ["Anna", "Ben", "Chloe", "Daniel", "Emma", "Farid", "Grace", "Hiro", "Ines", "Jonas",
         "Kofi", "Lena", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tariq",
         "Uma", "Viktor", "Wen", "Ximena", "Yusuf", "Zoe", "Marta", "Luca", "Aiko", "Bogdan",
         "Camille", "Dmitri", "Elif", "Fatima", "Giulia", "Hannah", "Ivan", "Jana", "Karim",
         "Leila", "Mei", "Noah", "Olga", "Pedro", "Rahul", "Sofia", "Tomasz", "Yara", "Malik",
         "Ingrid", "Joao", "Kenji", "Amara", "Niamh", "Siddharth", "Bea", "Rory", "Paulo"]
LAST = ["Schmidt", "Okafor", "Dubois", "Garcia", "Rossi", "Nowak", "Larsen", "Tanaka", "Kim",
        "Nguyen", "Silva", "Jansen", "Petrov", "Cohen", "Haddad", "Singh", "Murphy", "Lindqvist",
        "Yilmaz", "Novak", "Papadopoulos", "Kowalski", "Moreau", "Fischer", "Costa", "Ivanova",
        "Svensson", "Mensah", "O'Brien", "Fernandes", "Becker", "Sato", "Chen", "Walker", "Ali"]
ORGS = ["acme-corp.net", "northwind.io", "bluefin-labs.com", "kestrel.app", "orbital-foods.de",
        "havenly.co.uk", "tidewater.dev", "quillpay.com", "brightlane.fr", "sundial-health.org",
        "mosaic-retail.es", "fjordline.no", "pinecrest.ai", "lumen-analytics.io",
        "greywolf.systems", "copperleaf.nl", "mirador.com.br", "sakura-dx.jp", "vantage-hq.com",
        "lakeside-clinic.ca"]
MAILP = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "gmx.de", "web.de",
         "orange.fr", "libero.it", "hotmail.com", "mail.ru", "yandex.ru", "naver.com", "qq.com",
         "seznam.cz", "wp.pl", "fastmail.com", "t-online.de"]
CITIES = ["Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "Lyon", "Krakow", "Bergen",
          "Valencia", "Melbourne", "Austin", "Seoul", "Izmir", "Porto", "Utrecht", "Bologna",
          "Gdansk", "Tallinn", "Cork", "Leeds", "Denver", "Hanoi", "Pune", "Recife"]


def person():
    return pick(FIRST), pick(LAST)


def fullname():
    f, l = person()
    return f"{f} {l}"


def email(org=False):
    f, l = person()
    f = f.lower().replace("'", "")
    l = l.lower().replace("'", "")
    dom = pick(ORGS) if org else pick(MAILP)
    style = R.randrange(5)
    if style == 0:
        u = f"{f}.{l}"
    elif style == 1:
        u = f"{f[0]}{l}"
    elif style == 2:
        u = f"{f}{R.randint(1, 99)}"
    elif style == 3:
        u = f"{f}_{l}{R.randint(70, 99)}"
    else:
        u = f"{l}.{f[0]}"
    return f"{u}@{dom}"


def date_iso():
    y = R.choice([2024, 2025, 2026])
    m = R.randint(1, 12)
    d = R.randint(1, 28)
    return f"{y}-{m:02d}-{d:02d}"


def ts_iso():
    return f"{date_iso()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}.{R.randint(0, 999):03d}Z"


def hhmm():
    return f"{R.randint(6, 23):02d}:{R.randint(0, 59):02d}"


def org():
    return pick(ORGS)


def host(prefixes=("api", "db", "prod", "internal", "svc")):
    return f"{pick(prefixes)}.{org()}"


# ---------------------------------------------------------------------------
# human passwords, PINs, cards, seeds
# ---------------------------------------------------------------------------
PW_WORDS = ["sunflower", "dragon", "maple", "tiger", "coffee", "rainbow", "falcon", "pumpkin",
            "olive", "bluebird", "marina", "kestrel", "cobalt", "juniper", "saffron", "walrus",
            "pepper", "lantern", "meadow", "thunder", "biscuit", "nebula", "harbor", "velvet",
            "cactus", "mango", "willow", "ginger", "orchid", "phoenix", "salsa", "tango", "zebra",
            "copper", "granite", "hazel", "lotus", "nimbus", "oyster", "quartz", "raven",
            "sierra", "tundra", "violet", "whisky", "paprika", "bramble", "comet", "fjord",
            "gecko", "hopscotch", "igloo", "jasmine", "koala", "lynx", "mistral", "noodle"]
SYM = "!?#$*%&@+="


def strong_pw(n=None):
    n = n or R.randint(12, 20)
    while True:
        p = rs(AN + SYM + "-_.", n)
        if (any(c in UP for c in p) and any(c in LO for c in p) and any(c in DG for c in p)
                and any(c in SYM + "-_." for c in p)):
            return p


def url_pw(n=None):
    n = n or R.randint(14, 28)
    return rs(AN + "-_.", n)


LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7"}


def human_pw():
    t = R.randrange(10)
    w = pick(PW_WORDS)
    w2 = pick(PW_WORDS)
    if t == 0:
        return cap(w) + str(R.randint(1961, 2024)) + pick(SYM)
    if t == 1:
        return cap(w) + cap(w2) + str(R.randint(1, 99))
    if t == 2:
        s = "".join(LEET.get(c, c) if chance(0.6) else c for c in w + w2)
        return cap(s) + pick(SYM) + str(R.randint(0, 9))
    if t == 3:
        return strong_pw()
    if t == 4:
        return "-".join(pick(PW_WORDS) for _ in range(R.randint(3, 4))) + str(R.randint(1, 9))
    if t == 5:
        return pick(FIRST).lower() + "_" + w + str(R.randint(10, 99))
    if t == 6:
        return cap(w) + "." + w2 + pick(SYM) + str(R.randint(1, 999))
    if t == 7:
        return strong_pw(R.randint(10, 12))
    if t == 8:
        return w + w2 + dz(4)
    return cap(w) + pick("@#") + pick(CITIES) + str(R.randint(1, 99))


def pin(n=4):
    while True:
        p = dz(n)
        if len(set(p)) > 1 and p not in ("1234", "123456", "0000", "1111", "4321", "2580"):
            return p


def door_code():
    t = R.randrange(5)
    if t == 0:
        return pin(4)
    if t == 1:
        return pin(R.choice([5, 6]))
    if t == 2:
        return "#" + pin(4)
    if t == 3:
        return pin(4) + "#"
    return pin(4) + "*"


def luhn_complete(body):
    s = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return body + str((10 - s % 10) % 10)


KNOWN_TEST_CARDS = {"4242424242424242", "4111111111111111", "5555555555554444", "378282246310005",
                    "4000056655665556", "5105105105105100", "6011111111111117", "3530111333300000",
                    "4012888888881881", "371449635398431", "5200828282828210", "4000002500003155",
                    "6011000990139424", "30569309025904", "38520000023237", "5454545454545454"}
BRANDS = [("Visa", ["4"], 16), ("Visa", ["4"], 16), ("Mastercard", ["51", "52", "53", "54", "55", "2221", "2306", "2477", "2620"], 16),
          ("Mastercard", ["51", "53", "55"], 16), ("Amex", ["34", "37"], 15),
          ("Discover", ["6011", "644", "649", "65"], 16), ("JCB", ["3528", "3541", "3566", "3589"], 16),
          ("Diners Club", ["36", "38"], 14), ("UnionPay", ["62"], 16), ("Maestro", ["6759", "5018"], 16)]


def card(brand=None):
    while True:
        b = pick(BRANDS) if brand is None else brand
        pre = pick(b[1])
        num = luhn_complete(pre + dz(b[2] - len(pre) - 1))
        if num not in KNOWN_TEST_CARDS and len(set(num[len(pre):])) > 3:
            cvv = dz(4) if b[0] == "Amex" else dz(3)
            exp = f"{R.randint(1, 12):02d}/{R.randint(26, 31)}"
            return b[0], num, exp, cvv


def card_fmt(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    if len(num) == 14:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account
accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict address
adjust admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport
aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always
amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce annual
another answer antenna antique anxiety any apart apology appear apple approve april arch arctic area arena
argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect
assault asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt
author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon
badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle
beach bean beauty because become beef before begin behave behind believe below belt bench benefit best
betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket
blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book
boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick
bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget
buffalo build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz
cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas
canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual cat
catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal
certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest
chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city
civil claim clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog
close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect color
column combine come comfort comic common company concert conduct confirm congress connect consider
control convince cook cool copper copy coral core corn correct cost cotton couch country couple course
cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew
cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal
cube culture cup cupboard curious current curtain curve cushion custom cute cycle dad damage damp dance
danger daring dash daughter dawn day deal debate debris decade december decide decline decorate decrease
deer defense define defy degree delay deliver demand demise denial dentist deny depart depend deposit
depth deputy derive describe desert design desk despair destroy detail detect develop device devote
diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt
disagree discover disease dish dismiss disorder display distance divert divide divorce dizzy doctor
document dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama drastic
draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf
dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg
eight either elbow elder electric elegant element elephant elevator elite else embark embody embrace
emerge emotion employ empower empty enable enact end endless endorse enemy energy enforce engage engine
enhance enjoy enlist enough enrich enroll ensure enter entire entry envelope episode equal equip era
erase erode erosion error erupt escape essay essence estate eternal ethics evidence evil evoke evolve
exact example excess exchange excite exclude excuse execute exercise exhaust exhibit exile exist exit
exotic expand expect expire explain expose express extend extra eye eyebrow fabric face faculty fade
faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal father fatigue fault
favorite feature february federal fee feed feel female fence festival fetch fever few fiber fiction
field figure file film filter final find fine finger finish fire firm first fiscal fish fit fitness fix
flag flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam focus fog
foil fold follow food foot force forest forget fork fortune forum forward fossil foster found fox
fragile frame frequent fresh friend fringe frog front frost frown frozen fruit fuel fun funny furnace
fury future gadget gain galaxy gallery game gap garage garbage garden garlic garment gas gasp gate
gather gauge gaze general genius genre gentle genuine gesture ghost giant gift giggle ginger giraffe
girl give glad glance glare glass glide glimpse globe gloom glory glove glow glue goat goddess gold good
goose gorilla gospel gossip govern gown grab grace grain grant grape grass gravity great green grid
grief grit grocery group grow grunt guard guess guide guilt guitar gun gym habit hair half hammer
hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy hedgehog
height hello helmet help hen hero hidden high hill hint hip hire history hobby hockey hold hole holiday
hollow home honey hood hope horn horror horse hospital host hotel hour hover hub huge human humble humor
hundred hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal
illness image imitate immense immune impact impose improve impulse inch include income increase index
indicate indoor industry infant inflict inform inhale inherit initial inject injury inmate inner
innocent input inquiry insane insect inside inspire install intact interest into invest invite involve
iron island isolate issue item ivory jacket jaguar jar jazz jealous jeans jelly jewel job join joke
journey joy judge juice jump jungle junior junk just kangaroo keen keep ketchup key kick kid kidney kind
kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor ladder lady lake lamp
language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader leaf learn leave
lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level liar liberty
library license life lift light like limb limit link lion liquid list little live lizard load loan
lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch
luxury lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion
manual maple marble march margin marine market marriage mask mass master match material math matrix
matter maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention menu
mercy merge merit merry mesh message metal method middle midnight milk million mimic mind minimum minor
minute miracle mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey
monster month moon moral more morning mosquito mother motion motor mountain mouse move movie much muffin
mule multiply muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty
nation nature near neck need negative neglect neither nephew nerve nest net network neutral never news
next nice night noble noise nominee noodle normal north nose notable note nothing notice novel now
nuclear number nurse nut oak obey object oblige obscure observe obtain obvious occur ocean october odor
off offer office often oil okay old olive olympic omit once one onion online only open opera opinion
oppose option orange orbit orchard order ordinary organ orient original orphan ostrich other outdoor
outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace palm panda
panel panic panther paper parade parent park parrot party pass patch path patient patrol pattern pause
pave payment peace peanut pear peasant pelican pen penalty pencil people pepper perfect permit person
pet phone photo phrase physical piano picnic picture piece pig pigeon pill pilot pink pioneer pipe
pistol pitch pizza place planet plastic plate play please pledge pluck plug plunge poem poet point polar
pole police pond pony pool popular portion position possible post potato pottery poverty powder power
practice praise predict prefer prepare present pretty prevent price pride primary print priority prison
private prize problem process produce profit program project promote proof property prosper protect
proud provide public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push
put puzzle pyramid quality quantum quarter question quick quit quiz quote rabbit raccoon race rack radar
radio rail rain raise rally ramp ranch random range rapid rare rate rather raven raw razor ready real
reason rebel rebuild recall receive recipe record recycle reduce reflect reform refuse region regret
regular reject relax release relief rely remain remember remind remove render renew rent reopen repair
repeat replace report require rescue resemble resist resource response result retire retreat return
reunion reveal review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple
risk ritual rival river road roast robot robust rocket romance roof rookie room rose rotate rough round
route royal rubber rude rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt
salute same sample sand satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme
school science scissors scorpion scout scrap screen script scrub sea search season seat second secret
section security seed seek segment select sell seminar senior sense sentence series service session
settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship shiver shock
shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side siege sight sign silent
silk silly silver similar simple since sing siren sister situate six size skate sketch ski skill skin
skirt skull slab slam sleep slender slice slide slight slim slogan slot slow slush small smart smile
smoke smooth snack snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution
solve someone song soon sorry sort soul sound soup source south space spare spatial spawn speak special
speed spell spend sphere spice spider spike spin spirit split spoil sponsor spoon sport spot spray
spread spring spy square squeeze squirrel stable stadium staff stage stairs stamp stand start state stay
steak steel stem step stereo stick still sting stock stomach stone stool story stove strategy street
strike strong struggle student stuff stumble style subject submit subway success such sudden suffer
sugar suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise surround
survey suspect sustain swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom
syrup system table tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell
ten tenant tennis tent term test text thank that theme then theory there they thing this thought three
thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip tired tissue title toast tobacco
today toddler toe together toilet token tomato tomorrow tone tongue tonight tool tooth top topic topple
torch tornado tortoise toss total tourist toward tower town toy track trade traffic tragic train
transfer trap trash travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble
truck true truly trumpet trust truth try tube tuition tumble tuna tunnel turkey turn turtle twelve
twenty twice twin twist two type typical ugly umbrella unable unaware uncle uncover under undo unfair
unfold unhappy uniform unique unit universe unknown unlock until unusual unveil update upgrade uphold
upon upper upset urban urge usage use used useful useless usual utility vacant vacuum vague valid valley
valve van vanish vapor various vast vault vehicle velvet vendor venture venue verb verify version very
vessel veteran viable vibrant vicious victory video view village vintage violin virtual virus visa visit
visual vital vivid vocal voice void volcano volume vote voyage wage wagon wait walk wall walnut want
warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel weather web wedding weekend
weird welcome west wet whale what wheat wheel when where whip whisper wide width wife wild will win
window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder wood wool word work
world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone
zoo""".split()


def seed_words(n=None):
    n = n or pick([12, 12, 12, 24, 18, 24])
    return [pick(BIP39) for _ in range(n)]


def seed_phrase(n=None):
    return " ".join(seed_words(n))


# ---------------------------------------------------------------------------
# key material builders (structurally realistic, random content)
# ---------------------------------------------------------------------------
def pem(label, der, width=64):
    b = base64.b64encode(der).decode()
    lines = [b[i:i + width] for i in range(0, len(b), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def ec_key_pem():
    der = (bytes.fromhex("30770201010420") + rbytes(32)
           + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64))
    return pem("EC PRIVATE KEY", der)


def pkcs8_ed25519_pem():
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rbytes(32))


def pkcs8_p256_pem():
    der = (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
           + rbytes(32) + bytes.fromhex("a144034200") + b"\x04" + rbytes(64))
    return pem("PRIVATE KEY", der)


def rsa_key_pem(bits=1024):
    if bits == 2048:
        der = bytes.fromhex("308204a40201000282010100") + b"\xc1" + rbytes(255) + bytes.fromhex("0203010001028201") + rbytes(1191 - 12 - 256 - 8)
    else:
        der = bytes.fromhex("3082025c02010002818100") + b"\xb7" + rbytes(127) + bytes.fromhex("02030100010281") + rbytes(608 - 11 - 128 - 7)
    return pem("RSA PRIVATE KEY", der)


def ssh_str(b):
    return len(b).to_bytes(4, "big") + b


def ssh_ed25519_pair(comment):
    pub = rbytes(32)
    priv = rbytes(32)
    pubblob = ssh_str(b"ssh-ed25519") + ssh_str(pub)
    chk = rbytes(4)
    sec = chk + chk + ssh_str(b"ssh-ed25519") + ssh_str(pub) + ssh_str(priv + pub) + ssh_str(comment.encode())
    pad = 1
    while len(sec) % 8:
        sec += bytes([pad])
        pad += 1
    body = (b"openssh-key-v1\x00" + ssh_str(b"none") + ssh_str(b"none") + ssh_str(b"")
            + (1).to_bytes(4, "big") + ssh_str(pubblob) + ssh_str(sec))
    return pem("OPENSSH PRIVATE KEY", body, 70), "ssh-ed25519 " + base64.b64encode(pubblob).decode() + " " + comment


def ssh_ed25519_pub(comment):
    return "ssh-ed25519 " + base64.b64encode(ssh_str(b"ssh-ed25519") + ssh_str(rbytes(32))).decode() + " " + comment


def ssh_rsa_pub(comment):
    blob = ssh_str(b"ssh-rsa") + ssh_str(b"\x01\x00\x01") + ssh_str(b"\x00\xc3" + rbytes(255))
    return "ssh-rsa " + base64.b64encode(blob).decode() + " " + comment


def crc24_armor(b):
    crc = 0xB704CE
    for byte in b:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return base64.b64encode((crc & 0xFFFFFF).to_bytes(3, "big")).decode()


def pgp_block(private=True):
    t = epoch().to_bytes(4, "big")
    if private:
        body = (b"\x94\x58\x04" + t + bytes.fromhex("16092b06010401da470f01010740") + rbytes(32)
                + b"\x00\x01\x00" + rbytes(33) + b"\xb4\x1c" + rbytes(28) + b"\x88\x90" + rbytes(110))
        label = "PGP PRIVATE KEY BLOCK"
    else:
        body = (b"\x98\x33\x04" + t + bytes.fromhex("16092b06010401da470f01010740") + rbytes(32)
                + b"\xb4\x1c" + rbytes(28) + b"\x88\x90" + rbytes(110))
        label = "PGP PUBLIC KEY BLOCK"
    b = base64.b64encode(body).decode()
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    return f"-----BEGIN {label}-----\n\n" + "\n".join(lines) + "\n=" + crc24_armor(body) + f"\n-----END {label}-----"


def x509_pem():
    n = R.randint(0x60, 0x90)
    der = (bytes.fromhex("308201") + bytes([n]) + bytes.fromhex("308201") + bytes([n - 0x5a])
           + bytes.fromhex("a0030201020214") + rbytes(300))
    return pem("CERTIFICATE", der)


def wg_key():
    k = bytearray(rbytes(32))
    k[0] &= 248
    k[31] = (k[31] & 127) | 64
    return base64.b64encode(bytes(k)).decode()


def bech(n):
    return rs(BECH, n)


# ---------------------------------------------------------------------------
# vendor / provider credential formats
#   V(kind, vendor, cat, pairs, host, auth, path)
#   cat : api | url | pem | blob | cookie
#   pairs: list of (NAME, generator-or-constant); rendered by the containers
#   auth : bearer | hdr:<Header> | basic | token | query:<param> | url | None
# ---------------------------------------------------------------------------
VENDORS = []


def V(kind, vendor, cat, pairs, host=None, auth=None, path="/"):
    VENDORS.append({"kind": kind, "vendor": vendor, "cat": cat, "pairs": pairs,
                    "host": host, "auth": auth, "path": path})


def P(prefix, alpha, n, suffix=""):
    return lambda: prefix + rs(alpha, n) + suffix


def L(fn):
    return fn


def gen_pairs(spec):
    out = []
    for name, g in spec["pairs"]:
        if "%s" in name:
            name = name.replace("%s", hx(32))
        out.append((name, g() if callable(g) else g))
    return out


def region():
    return pick(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2", "ap-northeast-1"])


def slugname():
    return pick(["acme", "northwind", "bluefin", "kestrel", "orbital", "havenly", "tidewater", "quill",
                 "brightlane", "sundial", "mosaic", "fjord", "pinecrest", "lumen", "greywolf", "copperleaf"])


def dbhost(kind):
    s = slugname()
    return {
        "pg": pick([f"pg-main.{org()}", f"{s}-prod.cluster-{anl(12)}.{region()}.rds.amazonaws.com",
                    f"{s}-db.postgres.database.azure.com", "10.0.3.17", f"db.{org()}"]),
        "my": pick([f"mysql-primary.{org()}", f"{s}.{anl(12)}.{region()}.rds.amazonaws.com", "172.16.8.21"]),
    }[kind]


def dbuser():
    return pick(["app", "appuser", "svc_api", "django", "postgres", "admin", "readonly", "etl",
                 "reporting", "webapp", "backend", "analytics", "billing_rw", "grafana"])


def dbname():
    return pick(["app", "prod", "orders", "analytics", "billing", "crm", "inventory", "wiki", "main"])


def aws_secret():
    return rs(AN + "/+", 40)


# ---- cloud --------------------------------------------------------------
V("aws-access-key", "AWS", "api", [("AWS_ACCESS_KEY_ID", P("AKIA", B32, 16)), ("AWS_SECRET_ACCESS_KEY", aws_secret), ("AWS_DEFAULT_REGION", region)])
V("aws-session-credentials", "AWS STS", "api", [("AWS_ACCESS_KEY_ID", P("ASIA", B32, 16)), ("AWS_SECRET_ACCESS_KEY", aws_secret), ("AWS_SESSION_TOKEN", lambda: "IQoJb3JpZ2luX2VjE" + rs(B64A, 180))])
V("aws-ses-smtp-credentials", "Amazon SES", "api", [("SMTP_USERNAME", P("AKIA", B32, 16)), ("SMTP_PASSWORD", lambda: "B" + rs(AN + "/+", 43))])
V("aws-cognito-client-secret", "Amazon Cognito", "api", [("COGNITO_CLIENT_ID", P("", ANL, 26)), ("COGNITO_CLIENT_SECRET", P("", ANL, 51))])
V("amazon-lwa-client-secret", "Login with Amazon", "api", [("LWA_CLIENT_ID", lambda: "amzn1.application-oa2-client." + hx(32)), ("LWA_CLIENT_SECRET", lambda: "amzn1.oa2-cs.v1." + hx(64))])
V("amazon-sp-api-refresh-token", "Amazon SP-API", "api", [("SP_API_REFRESH_TOKEN", lambda: "Atzr|IwEBI" + rs(B64U, 150))])
V("gcp-api-key", "Google Cloud", "api", [("GOOGLE_API_KEY", P("AIza", B64U, 35))], "maps.googleapis.com", "query:key", "/maps/api/geocode/json?address=Berlin")
V("google-gemini-api-key", "Gemini", "api", [("GEMINI_API_KEY", P("AIza", B64U, 35))], "generativelanguage.googleapis.com", "hdr:x-goog-api-key", "/v1beta/models/gemini-1.5-flash:generateContent")
V("google-maps-server-key", "Google Maps Platform", "api", [("MAPS_SERVER_KEY", P("AIza", B64U, 35))], "maps.googleapis.com", "query:key", "/maps/api/distancematrix/json")
V("gcp-oauth-client-secret", "Google OAuth", "api", [("GOOGLE_CLIENT_ID", lambda: dz(12) + "-" + anl(32) + ".apps.googleusercontent.com"), ("GOOGLE_CLIENT_SECRET", P("GOCSPX-", B64U, 28))])
V("google-oauth-refresh-token", "Google OAuth", "api", [("GOOGLE_REFRESH_TOKEN", lambda: "1//0" + rs(AN, 1) + rs(B64U, 98))])
V("google-oauth-access-token", "Google OAuth", "api", [("GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + rs(B64U, 150))], "www.googleapis.com", "bearer", "/drive/v3/files")
V("azure-storage-connection-string", "Azure Storage", "url", [("AZURE_STORAGE_CONNECTION_STRING", lambda: f"DefaultEndpointsProtocol=https;AccountName={slugname()}{anl(6)};AccountKey={b64b(64)};EndpointSuffix=core.windows.net")])
V("azure-storage-account-key", "Azure Storage", "api", [("AZURE_STORAGE_ACCOUNT", lambda: slugname() + "store" + dz(2)), ("AZURE_STORAGE_KEY", lambda: b64b(64))])
V("azure-sas-url", "Azure Blob SAS", "url", [("BACKUP_SAS_URL", lambda: f"https://{slugname()}{anl(5)}.blob.core.windows.net/backups?sp=racwdl&st={date_iso()}T08:00:00Z&se={date_iso()}T18:00:00Z&spr=https&sv=2022-11-02&sr=c&sig=" + urllib.parse.quote(b64b(32), safe=""))], None, "url")
V("azure-ad-client-secret", "Microsoft Entra ID", "api", [("AZURE_TENANT_ID", uid), ("AZURE_CLIENT_ID", uid), ("AZURE_CLIENT_SECRET", lambda: rs(AN, 3) + "8Q~" + rs(AN + "_.~-", 34))])
V("azure-devops-pat", "Azure DevOps", "api", [("AZURE_DEVOPS_PAT", P("", LO + "234567", 52))], "dev.azure.com", "basic", "/_apis/projects")
V("azure-function-key", "Azure Functions", "api", [("FUNCTION_KEY", lambda: rs(B64U, 54) + "==")], "fn-orders.azurewebsites.net", "hdr:x-functions-key", "/api/OrderHook")
V("azure-cosmosdb-connection", "Azure Cosmos DB", "url", [("COSMOS_CONNECTION", lambda: f"AccountEndpoint=https://{slugname()}-cosmos.documents.azure.com:443/;AccountKey={b64b(64)};")])
V("azure-service-bus-connection", "Azure Service Bus", "url", [("SERVICEBUS_CONNECTION", lambda: f"Endpoint=sb://{slugname()}-bus.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64b(32)}")])
V("azure-event-hubs-connection", "Azure Event Hubs", "url", [("EVENTHUB_CONNECTION", lambda: f"Endpoint=sb://{slugname()}-eh.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b64b(32)};EntityPath=telemetry")])
V("azure-iot-hub-connection", "Azure IoT Hub", "url", [("IOTHUB_CONNECTION", lambda: f"HostName={slugname()}-hub.azure-devices.net;SharedAccessKeyName=iothubowner;SharedAccessKey={b64b(32)}")])
V("azure-signalr-connection", "Azure SignalR", "url", [("Azure__SignalR__ConnectionString", lambda: f"Endpoint=https://{slugname()}-sr.service.signalr.net;AccessKey={b64b(32)};Version=1.0;")])
V("azure-app-configuration-connection", "Azure App Configuration", "url", [("APPCONFIG_CONNECTION", lambda: f"Endpoint=https://{slugname()}-cfg.azconfig.io;Id={rs(AN, 4)}-l0-s0:{rs(AN, 20)};Secret={b64b(32)}")])
V("azure-communication-connection", "Azure Communication Services", "url", [("ACS_CONNECTION_STRING", lambda: f"endpoint=https://{slugname()}-acs.communication.azure.com/;accesskey={b64b(64)}")])
V("azure-redis-connection", "Azure Cache for Redis", "url", [("REDIS_CONNECTION", lambda: f"{slugname()}-cache.redis.cache.windows.net:6380,password={b64b(32)},ssl=True,abortConnect=False")])
V("azure-openai-key", "Azure OpenAI", "api", [("AZURE_OPENAI_ENDPOINT", lambda: f"https://{slugname()}-aoai.openai.azure.com/"), ("AZURE_OPENAI_API_KEY", lambda: hx(32))], "acme-aoai.openai.azure.com", "hdr:api-key", "/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01")
V("azure-cognitive-services-key", "Azure AI Services", "api", [("AZURE_SPEECH_KEY", lambda: hx(32)), ("AZURE_SPEECH_REGION", "westeurope")], "westeurope.api.cognitive.microsoft.com", "hdr:Ocp-Apim-Subscription-Key", "/sts/v1.0/issueToken")
V("azure-search-admin-key", "Azure AI Search", "api", [("SEARCH_ADMIN_KEY", P("", AN, 52))], "acme-search.search.windows.net", "hdr:api-key", "/indexes?api-version=2023-11-01")
V("azure-container-registry-password", "Azure Container Registry", "api", [("ACR_USERNAME", lambda: slugname() + "registry"), ("ACR_PASSWORD", lambda: rs(AN + "+/", 48) + "+ACR" + rs(AN, 4))])
V("azure-apim-subscription-key", "Azure API Management", "api", [("APIM_SUBSCRIPTION_KEY", lambda: hx(32))], "acme-apim.azure-api.net", "hdr:Ocp-Apim-Subscription-Key", "/orders/v2/list")
V("digitalocean-pat", "DigitalOcean", "api", [("DIGITALOCEAN_TOKEN", P("dop_v1_", HEXL, 64))], "api.digitalocean.com", "bearer", "/v2/droplets")
V("digitalocean-oauth-token", "DigitalOcean", "api", [("DO_OAUTH_TOKEN", P("doo_v1_", HEXL, 64))], "api.digitalocean.com", "bearer", "/v2/account")
V("digitalocean-refresh-token", "DigitalOcean", "api", [("DO_REFRESH_TOKEN", P("dor_v1_", HEXL, 64))])
V("digitalocean-spaces-keys", "DigitalOcean Spaces", "api", [("SPACES_KEY", P("DO00", ANU, 16)), ("SPACES_SECRET", lambda: rs(AN + "/+", 43))])
V("linode-token", "Linode/Akamai", "api", [("LINODE_TOKEN", lambda: hx(64))], "api.linode.com", "bearer", "/v4/linode/instances")
V("vultr-api-key", "Vultr", "api", [("VULTR_API_KEY", P("", ANU, 36))], "api.vultr.com", "bearer", "/v2/instances")
V("hetzner-cloud-token", "Hetzner Cloud", "api", [("HCLOUD_TOKEN", P("", AN, 64))], "api.hetzner.cloud", "bearer", "/v1/servers")
V("hetzner-dns-token", "Hetzner DNS", "api", [("HETZNER_DNS_TOKEN", P("", AN, 32))], "dns.hetzner.com", "hdr:Auth-API-Token", "/api/v1/zones")
V("scaleway-secret-key", "Scaleway", "api", [("SCW_ACCESS_KEY", P("SCW", ANU, 17)), ("SCW_SECRET_KEY", uid)], "api.scaleway.com", "hdr:X-Auth-Token", "/instance/v1/zones/fr-par-1/servers")
V("ovh-api-credentials", "OVHcloud", "api", [("OVH_APPLICATION_KEY", P("", AN, 16)), ("OVH_APPLICATION_SECRET", P("", AN, 32)), ("OVH_CONSUMER_KEY", P("", AN, 32))])
V("ibm-cloud-api-key", "IBM Cloud", "api", [("IBMCLOUD_API_KEY", P("", B64U, 44))])
V("ibm-cos-hmac-keys", "IBM Cloud Object Storage", "api", [("COS_ACCESS_KEY_ID", lambda: hx(32)), ("COS_SECRET_ACCESS_KEY", lambda: hx(48))])
V("oracle-oci-auth-token", "Oracle Cloud", "api", [("OCI_USER", lambda: "oracleidentitycloudservice/" + email(True)), ("OCI_AUTH_TOKEN", P("", AN + "()<>;:.#{}", 20))])
V("alibaba-cloud-access-key", "Alibaba Cloud", "api", [("ALIBABA_CLOUD_ACCESS_KEY_ID", P("LTAI", AN, 20)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", P("", AN, 30))])
V("tencent-cloud-secret", "Tencent Cloud", "api", [("TENCENTCLOUD_SECRET_ID", P("AKID", AN, 32)), ("TENCENTCLOUD_SECRET_KEY", P("", AN, 32))])
V("huawei-cloud-ak-sk", "Huawei Cloud", "api", [("HUAWEICLOUD_SDK_AK", P("", ANU, 20)), ("HUAWEICLOUD_SDK_SK", P("", AN, 40))])
V("baidu-cloud-ak-sk", "Baidu AI Cloud", "api", [("BAIDU_AK", lambda: hx(32)), ("BAIDU_SK", lambda: hx(32))])
V("yandex-cloud-api-key", "Yandex Cloud", "api", [("YC_API_KEY", P("AQVN", B64U, 36))], "llm.api.cloud.yandex.net", "hdr:Authorization: Api-Key", "/foundationModels/v1/completion")
V("yandex-oauth-token", "Yandex", "api", [("YANDEX_OAUTH_TOKEN", P("y0_AgAAAA", B64U, 50))])
V("cloudflare-api-token", "Cloudflare", "api", [("CLOUDFLARE_API_TOKEN", P("", B64U, 40))], "api.cloudflare.com", "bearer", "/client/v4/user/tokens/verify")
V("cloudflare-global-api-key", "Cloudflare", "api", [("CF_API_EMAIL", lambda: email(True)), ("CF_API_KEY", lambda: hx(37))], "api.cloudflare.com", "hdr:X-Auth-Key", "/client/v4/zones")
V("cloudflare-origin-ca-key", "Cloudflare", "api", [("CF_ORIGIN_CA_KEY", lambda: "v1.0-" + hx(24) + "-" + hx(146))])
V("cloudflare-r2-keys", "Cloudflare R2", "api", [("R2_ACCESS_KEY_ID", lambda: hx(32)), ("R2_SECRET_ACCESS_KEY", lambda: hx(64)), ("R2_ENDPOINT", lambda: f"https://{hx(32)}.r2.cloudflarestorage.com")])
V("cloudflare-tunnel-token", "Cloudflare Tunnel", "api", [("TUNNEL_TOKEN", lambda: base64.b64encode(json.dumps({"a": hx(32), "t": uid(), "s": b64b(32)}, separators=(",", ":")).encode()).decode())])
V("fastly-api-token", "Fastly", "api", [("FASTLY_API_TOKEN", P("", B64U, 32))], "api.fastly.com", "hdr:Fastly-Key", "/service")
V("akamai-edgegrid", "Akamai", "api", [("client_secret", lambda: b64b(32)), ("host", lambda: f"akab-{anl(16)}-{anl(16)}.luna.akamaiapis.net"), ("access_token", lambda: f"akab-{anl(16)}-{anl(16)}"), ("client_token", lambda: f"akab-{anl(16)}-{anl(16)}")])
V("netlify-pat", "Netlify", "api", [("NETLIFY_AUTH_TOKEN", P("nfp_", AN, 36))], "api.netlify.com", "bearer", "/api/v1/sites")
V("vercel-token", "Vercel", "api", [("VERCEL_TOKEN", P("", AN, 24))], "api.vercel.com", "bearer", "/v9/projects")
V("heroku-api-key", "Heroku", "api", [("HEROKU_API_KEY", uid)], "api.heroku.com", "bearer", "/apps")
V("fly-io-token", "Fly.io", "api", [("FLY_API_TOKEN", lambda: "FlyV1 fm2_lJPECAAAAAAAA" + rs(B64A, 110))])
V("render-api-key", "Render", "api", [("RENDER_API_KEY", P("rnd_", AN, 32))], "api.render.com", "bearer", "/v1/services")
V("railway-token", "Railway", "api", [("RAILWAY_TOKEN", uid)], "backboard.railway.app", "bearer", "/graphql/v2")
V("supabase-service-role-key", "Supabase", "api", [("SUPABASE_URL", lambda: f"https://{anl(20)}.supabase.co"), ("SUPABASE_SERVICE_ROLE_KEY", lambda: jwt({"iss": "supabase", "ref": anl(20), "role": "service_role", "iat": epoch(), "exp": epoch() + 315360000}))])
V("supabase-access-token", "Supabase", "api", [("SUPABASE_ACCESS_TOKEN", P("sbp_", HEXL, 40))], "api.supabase.com", "bearer", "/v1/projects")
V("supabase-secret-key", "Supabase", "api", [("SUPABASE_SECRET_KEY", P("sb_secret_", B64U, 31))])
V("firebase-fcm-server-key", "Firebase Cloud Messaging", "api", [("FCM_SERVER_KEY", lambda: "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134))], "fcm.googleapis.com", "hdr:Authorization: key=", "/fcm/send")
V("firebase-database-secret", "Firebase RTDB", "api", [("FIREBASE_DB_SECRET", P("", AN, 40))])
V("backblaze-b2-key", "Backblaze B2", "api", [("B2_APPLICATION_KEY_ID", lambda: "005" + hx(22)), ("B2_APPLICATION_KEY", P("K005", AN + "+/", 27))])
V("wasabi-keys", "Wasabi", "api", [("WASABI_ACCESS_KEY", P("", ANU, 20)), ("WASABI_SECRET_KEY", P("", AN, 40))])
V("minio-root-credentials", "MinIO", "api", [("MINIO_ROOT_USER", lambda: pick(["minioadmin", "admin", "backup"])), ("MINIO_ROOT_PASSWORD", lambda: url_pw(24))])
V("cloudinary-url", "Cloudinary", "url", [("CLOUDINARY_URL", lambda: f"cloudinary://{dz(15)}:{rs(B64U, 27)}@{slugname()}-media")])
V("mongodb-atlas-api-key", "MongoDB Atlas", "api", [("ATLAS_PUBLIC_KEY", P("", LO, 8)), ("ATLAS_PRIVATE_KEY", uid)])
V("planetscale-password", "PlanetScale", "api", [("DATABASE_USERNAME", P("", ANL, 12)), ("DATABASE_PASSWORD", P("pscale_pw_", B64U, 43))])
V("planetscale-service-token", "PlanetScale", "api", [("PLANETSCALE_SERVICE_TOKEN_ID", P("", ANL, 12)), ("PLANETSCALE_SERVICE_TOKEN", P("pscale_tkn_", B64U, 43))])
V("neon-api-key", "Neon", "api", [("NEON_API_KEY", P("napi_", ANL, 60))], "console.neon.tech", "bearer", "/api/v2/projects")
V("upstash-redis-rest-token", "Upstash", "api", [("UPSTASH_REDIS_REST_URL", lambda: f"https://{pick(['eu1','us1','apn1'])}-{pick(['brave','calm','witty','proud'])}-{pick(['otter','lynx','heron'])}-{dz(5)}.upstash.io"), ("UPSTASH_REDIS_REST_TOKEN", lambda: "AX" + rs(B64A, 60) + "=")])
V("turso-auth-token", "Turso", "api", [("TURSO_DATABASE_URL", lambda: f"libsql://{dbname()}-{slugname()}.turso.io"), ("TURSO_AUTH_TOKEN", lambda: jwt({"a": "rw", "iat": epoch(), "id": uid()}, "EdDSA", 64))])
V("fauna-secret", "Fauna", "api", [("FAUNA_SECRET", P("fnA", B64U, 37))])
V("xata-api-key", "Xata", "api", [("XATA_API_KEY", P("xau_", AN, 32))])
V("convex-deploy-key", "Convex", "api", [("CONVEX_DEPLOY_KEY", lambda: f"prod:{pick(['happy','quiet','brave'])}-{pick(['otter','falcon','badger'])}-{dz(3)}|" + b64b(60))])
V("pinecone-api-key", "Pinecone", "api", [("PINECONE_API_KEY", lambda: "pcsk_" + an(5) + "_" + an(63))], "api.pinecone.io", "hdr:Api-Key", "/indexes")
V("qdrant-api-key", "Qdrant Cloud", "api", [("QDRANT_URL", lambda: f"https://{uid()}.eu-central-1-0.aws.cloud.qdrant.io:6333"), ("QDRANT_API_KEY", P("", B64U, 56))])
V("weaviate-api-key", "Weaviate Cloud", "api", [("WEAVIATE_API_KEY", P("", AN, 40))], "my-cluster.weaviate.network", "bearer", "/v1/schema")
V("elastic-cloud-api-key", "Elastic Cloud", "api", [("ELASTIC_API_KEY", lambda: base64.b64encode((rs(B64U, 20) + ":" + rs(B64U, 22)).encode()).decode())], "acme.es.europe-west3.gcp.cloud.es.io", "hdr:Authorization: ApiKey", "/_cluster/health")
V("algolia-admin-key", "Algolia", "api", [("ALGOLIA_APP_ID", P("", ANU, 10)), ("ALGOLIA_ADMIN_KEY", lambda: hx(32))], "APPID-dsn.algolia.net", "hdr:X-Algolia-API-Key", "/1/indexes")
V("meilisearch-master-key", "Meilisearch", "api", [("MEILI_MASTER_KEY", P("", B64U, 40))], "search.internal", "bearer", "/keys")
V("typesense-api-key", "Typesense", "api", [("TYPESENSE_API_KEY", P("", AN, 32))], "xyz.a1.typesense.net", "hdr:X-TYPESENSE-API-KEY", "/collections")
V("confluent-cloud-api-key", "Confluent Cloud", "api", [("CONFLUENT_API_KEY", P("", ANU, 16)), ("CONFLUENT_API_SECRET", lambda: rs(AN + "+/", 64))])
V("aiven-token", "Aiven", "api", [("AIVEN_TOKEN", lambda: rs(B64A, 372)[:160])])
V("databricks-token", "Databricks", "api", [("DATABRICKS_HOST", lambda: f"https://adb-{dz(16)}.{R.randint(1,19)}.azuredatabricks.net"), ("DATABRICKS_TOKEN", lambda: "dapi" + hx(32) + pick(["", "-2", "-3"]))], "adb-1234.5.azuredatabricks.net", "bearer", "/api/2.0/clusters/list")
V("databricks-oauth-secret", "Databricks", "api", [("DATABRICKS_CLIENT_ID", uid), ("DATABRICKS_CLIENT_SECRET", P("dose", HEXL, 32))])
V("dbt-cloud-token", "dbt Cloud", "api", [("DBT_CLOUD_API_TOKEN", P("dbtc_", B64U, 48))], "cloud.getdbt.com", "token", "/api/v2/accounts/")
V("fivetran-api-credentials", "Fivetran", "api", [("FIVETRAN_API_KEY", P("", AN, 16)), ("FIVETRAN_API_SECRET", P("", AN, 32))], "api.fivetran.com", "basic", "/v1/groups")
V("snowflake-password", "Snowflake", "api", [("SNOWFLAKE_ACCOUNT", lambda: f"{anl(7)}-{anl(7)}"), ("SNOWFLAKE_USER", lambda: pick(["LOADER", "DBT_PROD", "ANALYTICS_SVC"])), ("SNOWFLAKE_PASSWORD", strong_pw)])
V("snowflake-private-key", "Snowflake", "pem", [("SNOWFLAKE_PRIVATE_KEY", pkcs8_p256_pem)])

# ---- secrets managers, IaC, CI/CD, registries --------------------------
V("vault-service-token", "HashiCorp Vault", "api", [("VAULT_ADDR", lambda: f"https://vault.{org()}:8200"), ("VAULT_TOKEN", P("hvs.CAESI", B64U, 86))], "vault.internal:8200", "hdr:X-Vault-Token", "/v1/secret/data/app")
V("vault-batch-token", "HashiCorp Vault", "api", [("VAULT_TOKEN", P("hvb.AAAAAQ", B64U, 120))])
V("vault-legacy-token", "HashiCorp Vault", "api", [("VAULT_TOKEN", P("s.", AN, 24))])
V("vault-unseal-key", "HashiCorp Vault", "api", [("UNSEAL_KEY_1", lambda: b64b(33))])
V("terraform-cloud-token", "Terraform Cloud", "api", [("TFE_TOKEN", lambda: an(14) + ".atlasv1." + an(67))], "app.terraform.io", "bearer", "/api/v2/organizations")
V("pulumi-access-token", "Pulumi", "api", [("PULUMI_ACCESS_TOKEN", P("pul-", HEXL, 40))], "api.pulumi.com", "token", "/api/user")
V("doppler-service-token", "Doppler", "api", [("DOPPLER_TOKEN", P("dp.st.prd.", AN, 43))], "api.doppler.com", "bearer", "/v3/configs/config/secrets/download")
V("doppler-personal-token", "Doppler", "api", [("DOPPLER_TOKEN", P("dp.pt.", AN, 43))])
V("1password-service-account-token", "1Password", "api", [("OP_SERVICE_ACCOUNT_TOKEN", lambda: "ops_" + b64j({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u(16)}, "email": anl(13) + "@1passwordserviceaccounts.com", "srpX": hx(64), "muk": {"alg": "A256GCM", "ext": True, "k": b64u(32), "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + anu(6) + "-" + anu(11) + "-" + anu(5) + "-" + anu(5) + "-" + anu(5), "throttleSecret": {"seed": hx(64), "deviceUuid": anl(26)}, "deviceUuid": anl(26)})[:230])])
V("1password-connect-token", "1Password Connect", "api", [("OP_CONNECT_TOKEN", lambda: jwt({"1password.com/auuid": anu(26), "1password.com/token": b64u(24), "1password.com/fts": ["vaultaccess"], "aud": ["com.1password.connect"], "sub": anu(26), "iat": epoch(), "iss": "com.1password.b5"}, "ES256", 64))], "connect.internal:8080", "bearer", "/v1/vaults")
V("bitwarden-sm-access-token", "Bitwarden Secrets Manager", "api", [("BWS_ACCESS_TOKEN", lambda: f"0.{uid()}.{an(30)}:{b64b(16)}")])
V("infisical-service-token", "Infisical", "api", [("INFISICAL_TOKEN", lambda: f"st.{uid()}.{hx(32)}.{hx(32)}")])
V("ansible-vault-password", "Ansible Vault", "api", [("ANSIBLE_VAULT_PASSWORD", strong_pw)])
V("octopus-deploy-api-key", "Octopus Deploy", "api", [("OCTOPUS_API_KEY", P("API-", ANU, 26))], "octopus.internal", "hdr:X-Octopus-ApiKey", "/api/projects")
V("launchdarkly-sdk-key", "LaunchDarkly", "api", [("LAUNCHDARKLY_SDK_KEY", lambda: "sdk-" + uid())])
V("launchdarkly-api-token", "LaunchDarkly", "api", [("LD_API_TOKEN", lambda: "api-" + uid())], "app.launchdarkly.com", "hdr:Authorization", "/api/v2/flags/default")
V("statsig-server-secret", "Statsig", "api", [("STATSIG_SERVER_SECRET", P("secret-", AN, 43))])
V("flagsmith-server-key", "Flagsmith", "api", [("FLAGSMITH_SERVER_KEY", P("ser.", AN, 22))])
V("unleash-admin-token", "Unleash", "api", [("UNLEASH_ADMIN_TOKEN", lambda: "*:*." + hx(64))], "unleash.internal", "hdr:Authorization", "/api/admin/features")
V("postman-api-key", "Postman", "api", [("POSTMAN_API_KEY", lambda: f"PMAK-{hx(24)}-{hx(34)}")], "api.getpostman.com", "hdr:X-Api-Key", "/collections")
V("ngrok-authtoken", "ngrok", "api", [("NGROK_AUTHTOKEN", lambda: "2" + an(26) + "_" + an(21))])
V("ngrok-api-key", "ngrok", "api", [("NGROK_API_KEY", lambda: "2" + an(26) + "_" + an(21))], "api.ngrok.com", "bearer", "/tunnels")
V("tailscale-auth-key", "Tailscale", "api", [("TS_AUTHKEY", lambda: f"tskey-auth-k{an(11)}CNTRL-{an(32)}")])
V("tailscale-api-key", "Tailscale", "api", [("TAILSCALE_API_KEY", lambda: f"tskey-api-k{an(11)}CNTRL-{an(32)}")], "api.tailscale.com", "bearer", "/api/v2/tailnet/-/devices")
V("zerotier-api-token", "ZeroTier", "api", [("ZEROTIER_API_TOKEN", P("", AN, 32))], "api.zerotier.com", "token", "/api/v1/network")
V("jfrog-api-key", "JFrog Artifactory", "api", [("ARTIFACTORY_API_KEY", P("AKCp", AN, 69))], "acme.jfrog.io", "hdr:X-JFrog-Art-Api", "/artifactory/api/repositories")
V("jfrog-identity-token", "JFrog Artifactory", "api", [("JFROG_ACCESS_TOKEN", lambda: "cmVmdGtuOjAxOjE3" + rs(B64A, 48))], "acme.jfrog.io", "bearer", "/artifactory/api/system/ping")
V("docker-hub-pat", "Docker Hub", "api", [("DOCKERHUB_USERNAME", lambda: slugname() + "ci"), ("DOCKERHUB_TOKEN", P("dckr_pat_", B64U, 27))])
V("quay-robot-token", "Quay.io", "api", [("QUAY_USERNAME", lambda: slugname() + "+ci_pusher"), ("QUAY_PASSWORD", P("", ANU, 64))])
V("harbor-robot-secret", "Harbor", "api", [("HARBOR_USER", lambda: "robot$" + slugname() + "+ci"), ("HARBOR_SECRET", P("", AN, 32))])
V("gitlab-pat", "GitLab", "api", [("GITLAB_TOKEN", P("glpat-", B64U, 20))], "gitlab.com", "hdr:PRIVATE-TOKEN", "/api/v4/projects?membership=true")
V("gitlab-pipeline-trigger-token", "GitLab", "api", [("TRIGGER_TOKEN", P("glptt-", HEXL, 40))])
V("gitlab-runner-token", "GitLab", "api", [("RUNNER_TOKEN", P("glrt-", B64U, 20))])
V("gitlab-deploy-token", "GitLab", "api", [("DEPLOY_USER", lambda: "gitlab+deploy-token-" + dz(6)), ("DEPLOY_TOKEN", P("gldt-", B64U, 20))])
V("gitlab-feed-token", "GitLab", "api", [("GITLAB_FEED_TOKEN", P("glft-", B64U, 20))])
V("gitlab-oauth-app-secret", "GitLab", "api", [("GITLAB_APP_ID", lambda: hx(64)), ("GITLAB_APP_SECRET", P("gloas-", HEXL, 64))])
V("gitlab-incoming-mail-token", "GitLab", "api", [("INCOMING_EMAIL_TOKEN", P("glimt-", ANL, 25))])
V("gitlab-scim-token", "GitLab", "api", [("SCIM_TOKEN", P("glsoat-", B64U, 20))])
V("gitlab-feature-flag-token", "GitLab", "api", [("UNLEASH_INSTANCE_ID", P("glffct-", B64U, 20))])
V("gitlab-agent-token", "GitLab", "api", [("AGENT_TOKEN", P("glagent-", B64U, 50))])
V("github-pat-classic", "GitHub", "api", [("GITHUB_TOKEN", P("ghp_", AN, 36))], "api.github.com", "bearer", "/user/repos")
V("github-pat-fine-grained", "GitHub", "api", [("GH_TOKEN", lambda: "github_pat_11" + anu(20) + "_" + an(59))], "api.github.com", "bearer", "/repos/acme/infra/actions/runs")
V("github-oauth-token", "GitHub", "api", [("GITHUB_OAUTH_TOKEN", P("gho_", AN, 36))], "api.github.com", "token", "/user")
V("github-user-to-server-token", "GitHub App", "api", [("GH_USER_TOKEN", P("ghu_", AN, 36))], "api.github.com", "bearer", "/user/installations")
V("github-installation-token", "GitHub App", "api", [("GH_INSTALLATION_TOKEN", P("ghs_", AN, 36))], "api.github.com", "bearer", "/installation/repositories")
V("github-refresh-token", "GitHub App", "api", [("GH_REFRESH_TOKEN", P("ghr_", AN, 76))])
V("github-oauth-client-secret", "GitHub OAuth App", "api", [("GITHUB_CLIENT_ID", lambda: "Ov23li" + an(14)), ("GITHUB_CLIENT_SECRET", lambda: hx(40))])
V("github-app-private-key", "GitHub App", "pem", [("GITHUB_APP_PRIVATE_KEY", lambda: rsa_key_pem(2048))])
V("github-webhook-secret", "GitHub Webhooks", "api", [("GITHUB_WEBHOOK_SECRET", lambda: hx(40))])
V("bitbucket-app-password", "Bitbucket", "api", [("BITBUCKET_USERNAME", lambda: pick(FIRST).lower() + "-" + slugname()), ("BITBUCKET_APP_PASSWORD", lambda: "ATBB" + an(32) + HX(8))], "api.bitbucket.org", "basic", "/2.0/repositories/acme")
V("bitbucket-access-token", "Bitbucket", "api", [("BITBUCKET_ACCESS_TOKEN", lambda: "ATCTT3xFfGN0" + rs(B64U, 170) + "=" + HX(8))], "api.bitbucket.org", "bearer", "/2.0/user")
V("atlassian-api-token", "Atlassian", "api", [("JIRA_EMAIL", lambda: email(True)), ("JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + rs(B64U, 170) + "=" + HX(8))], "acme.atlassian.net", "basic", "/rest/api/3/myself")
V("circleci-pat", "CircleCI", "api", [("CIRCLECI_TOKEN", lambda: f"CCIPAT_{an(22)}_{hx(40)}")], "circleci.com", "hdr:Circle-Token", "/api/v2/me")
V("circleci-project-token", "CircleCI", "api", [("CIRCLE_PROJECT_TOKEN", lambda: hx(40))])
V("travis-ci-token", "Travis CI", "api", [("TRAVIS_TOKEN", P("", AN, 22))], "api.travis-ci.com", "hdr:Authorization: token", "/repos")
V("jenkins-api-token", "Jenkins", "api", [("JENKINS_USER", lambda: pick(["deploy", "ci-bot", "admin"])), ("JENKINS_API_TOKEN", lambda: "11" + hx(32))], "jenkins.internal", "basic", "/job/deploy/buildWithParameters")
V("buildkite-api-token", "Buildkite", "api", [("BUILDKITE_API_TOKEN", P("bkua_", HEXL, 40))], "api.buildkite.com", "bearer", "/v2/organizations")
V("buildkite-agent-token", "Buildkite", "api", [("BUILDKITE_AGENT_TOKEN", lambda: hx(50))])
V("drone-ci-token", "Drone CI", "api", [("DRONE_TOKEN", P("", AN, 32))], "drone.internal", "bearer", "/api/user/repos")
V("teamcity-token", "TeamCity", "api", [("TEAMCITY_TOKEN", lambda: "eyJ0eXAiOiAiVENWMiJ9." + rs(B64U, 36) + "." + rs(B64U, 48))], "teamcity.internal", "bearer", "/app/rest/builds")
V("argocd-auth-token", "Argo CD", "api", [("ARGOCD_AUTH_TOKEN", lambda: jwt({"iss": "argocd", "sub": "ci:apiKey", "nbf": epoch(), "iat": epoch(), "jti": uid()}))], "argocd.internal", "bearer", "/api/v1/applications")
V("harness-pat", "Harness", "api", [("HARNESS_API_KEY", lambda: f"pat.{rs(B64U, 22)}.{hx(24)}.{an(20)}")], "app.harness.io", "hdr:x-api-key", "/ng/api/user/currentUser")
V("codecov-token", "Codecov", "api", [("CODECOV_TOKEN", uid)])
V("snyk-token", "Snyk", "api", [("SNYK_TOKEN", uid)], "api.snyk.io", "token", "/rest/self?version=2024-06-10")
V("sonarqube-user-token", "SonarQube", "api", [("SONAR_TOKEN", P("squ_", HEXL, 40))], "sonar.internal", "basic1", "/api/projects/search")
V("sonarqube-project-token", "SonarQube", "api", [("SONAR_TOKEN", P("sqp_", HEXL, 40))])
V("sonarqube-global-token", "SonarQube", "api", [("SONAR_TOKEN", P("sqa_", HEXL, 40))])
V("semgrep-app-token", "Semgrep", "api", [("SEMGREP_APP_TOKEN", lambda: hx(64))])
V("npm-token", "npm", "api", [("NPM_TOKEN", P("npm_", AN, 36))], "registry.npmjs.org", "bearer", "/-/whoami")
V("npm-legacy-authtoken", "npm", "api", [("//registry.npmjs.org/:_authToken", uid)])
V("pypi-token", "PyPI", "api", [("TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(B64U, 150))])
V("rubygems-api-key", "RubyGems", "api", [("GEM_HOST_API_KEY", P("rubygems_", HEXL, 48))])
V("nuget-api-key", "NuGet", "api", [("NUGET_API_KEY", P("oy2", ANL, 43))])
V("crates-io-token", "crates.io", "api", [("CARGO_REGISTRY_TOKEN", P("cio", AN, 32))])
V("hex-pm-api-key", "Hex.pm", "api", [("HEX_API_KEY", lambda: hx(32))])
V("clojars-deploy-token", "Clojars", "api", [("CLOJARS_PASSWORD", P("CLOJARS_", HEXL, 60))])
V("cocoapods-trunk-token", "CocoaPods", "api", [("COCOAPODS_TRUNK_TOKEN", lambda: hx(32))])
V("expo-access-token", "Expo", "api", [("EXPO_TOKEN", P("", B64U, 40))])
V("fastlane-match-password", "fastlane match", "api", [("MATCH_PASSWORD", strong_pw)])
V("android-keystore-password", "Android signing", "api", [("KEYSTORE_PASSWORD", strong_pw), ("KEY_ALIAS", lambda: "upload"), ("KEY_PASSWORD", strong_pw)])
V("apple-app-store-connect-key", "App Store Connect API", "pem", [("ASC_KEY_ID", P("", ANU, 10)), ("ASC_ISSUER_ID", uid), ("ASC_PRIVATE_KEY", pkcs8_p256_pem)])
V("apple-apns-auth-key", "Apple Push Notifications", "pem", [("APNS_KEY_ID", P("", ANU, 10)), ("APNS_TEAM_ID", P("", ANU, 10)), ("APNS_AUTH_KEY", pkcs8_p256_pem)])
V("apple-sign-in-key", "Sign in with Apple", "pem", [("APPLE_KEY_ID", P("", ANU, 10)), ("APPLE_PRIVATE_KEY", pkcs8_p256_pem)])
V("cloudsmith-api-key", "Cloudsmith", "api", [("CLOUDSMITH_API_KEY", lambda: hx(40))])

# ---- observability ------------------------------------------------------
V("sentry-org-auth-token", "Sentry", "api", [("SENTRY_AUTH_TOKEN", lambda: "sntrys_" + b64j({"iat": epoch() + 0.5, "url": "https://sentry.io", "region_url": "https://de.sentry.io", "org": slugname()}) + "_" + rs(B64A, 43))])
V("sentry-user-auth-token", "Sentry", "api", [("SENTRY_AUTH_TOKEN", P("sntryu_", HEXL, 64))], "sentry.io", "bearer", "/api/0/projects/")
V("datadog-api-app-keys", "Datadog", "api", [("DD_API_KEY", lambda: hx(32)), ("DD_APP_KEY", lambda: hx(40)), ("DD_SITE", "datadoghq.eu")])
V("datadog-api-key", "Datadog", "api", [("DD_API_KEY", lambda: hx(32))], "api.datadoghq.com", "hdr:DD-API-KEY", "/api/v1/validate")
V("new-relic-user-key", "New Relic", "api", [("NEW_RELIC_API_KEY", P("NRAK-", ANU, 27))], "api.newrelic.com", "hdr:Api-Key", "/graphql")
V("new-relic-license-key", "New Relic", "api", [("NEW_RELIC_LICENSE_KEY", lambda: hx(36) + "NRAL")])
V("new-relic-insert-key", "New Relic", "api", [("NEW_RELIC_INSERT_KEY", P("NRII-", B64U, 32))])
V("grafana-cloud-token", "Grafana Cloud", "api", [("GRAFANA_CLOUD_TOKEN", lambda: "glc_" + b64j({"o": dz(6), "n": "stack-" + dz(6) + "-hm-write", "k": an(24), "m": {"r": "prod-eu-west-2"}}))])
V("grafana-service-account-token", "Grafana", "api", [("GRAFANA_SA_TOKEN", lambda: "glsa_" + an(32) + "_" + hx(8))], "grafana.internal", "bearer", "/api/dashboards/home")
V("honeycomb-api-key", "Honeycomb", "api", [("HONEYCOMB_API_KEY", P("", AN, 22))], "api.honeycomb.io", "hdr:X-Honeycomb-Team", "/1/auth")
V("honeycomb-ingest-key", "Honeycomb", "api", [("HONEYCOMB_INGEST_KEY", lambda: "hcaik_" + anl(58))])
V("splunk-hec-token", "Splunk", "api", [("SPLUNK_HEC_TOKEN", uid)], "splunk.internal:8088", "hdr:Authorization: Splunk", "/services/collector/event")
V("sumologic-access-key", "Sumo Logic", "api", [("SUMO_ACCESS_ID", P("su", AN, 12)), ("SUMO_ACCESS_KEY", P("", AN, 64))], "api.eu.sumologic.com", "basic", "/api/v1/collectors")
V("logzio-shipping-token", "Logz.io", "api", [("LOGZIO_TOKEN", P("", UP + LO, 32))])
V("loggly-customer-token", "Loggly", "api", [("LOGGLY_TOKEN", uid)])
V("papertrail-api-token", "Papertrail", "api", [("PAPERTRAIL_API_TOKEN", P("", AN, 20))], "papertrailapp.com", "hdr:X-Papertrail-Token", "/api/v1/events/search.json")
V("mezmo-ingestion-key", "Mezmo", "api", [("LOGDNA_INGESTION_KEY", lambda: hx(32))])
V("pagerduty-api-key", "PagerDuty", "api", [("PAGERDUTY_TOKEN", P("u+", B64U, 18))], "api.pagerduty.com", "hdr:Authorization: Token token=", "/incidents")
V("pagerduty-routing-key", "PagerDuty", "api", [("PD_ROUTING_KEY", lambda: hx(32))])
V("opsgenie-api-key", "Opsgenie", "api", [("OPSGENIE_API_KEY", uid)], "api.opsgenie.com", "hdr:Authorization: GenieKey", "/v2/alerts")
V("dynatrace-api-token", "Dynatrace", "api", [("DT_API_TOKEN", lambda: f"dt0c01.{anu(24)}.{anu(64)}")], "abc12345.live.dynatrace.com", "hdr:Authorization: Api-Token", "/api/v2/metrics")
V("rollbar-access-token", "Rollbar", "api", [("ROLLBAR_ACCESS_TOKEN", lambda: hx(32))], "api.rollbar.com", "hdr:X-Rollbar-Access-Token", "/api/1/items")
V("bugsnag-api-key", "Bugsnag", "api", [("BUGSNAG_API_KEY", lambda: hx(32))])
V("raygun-api-key", "Raygun", "api", [("RAYGUN_APIKEY", P("", AN, 22))])
V("betterstack-token", "Better Stack", "api", [("BETTERSTACK_API_TOKEN", P("", AN, 24))], "uptime.betterstack.com", "bearer", "/api/v2/monitors")
V("axiom-api-token", "Axiom", "api", [("AXIOM_TOKEN", lambda: "xaat-" + uid())], "api.axiom.co", "bearer", "/v1/datasets")
V("influxdb-token", "InfluxDB", "api", [("INFLUX_TOKEN", lambda: rs(B64U, 86) + "==")], "eu-central-1-1.aws.cloud2.influxdata.com", "hdr:Authorization: Token", "/api/v2/buckets")
V("checkly-api-key", "Checkly", "api", [("CHECKLY_API_KEY", P("cu_", HEXL, 32))])
V("cronitor-api-key", "Cronitor", "api", [("CRONITOR_API_KEY", lambda: hx(32))])
V("uptimerobot-api-key", "UptimeRobot", "api", [("UPTIMEROBOT_API_KEY", lambda: f"u{dz(7)}-{hx(24)}")])
V("elastic-apm-secret-token", "Elastic APM", "api", [("ELASTIC_APM_SECRET_TOKEN", P("", AN, 24))])

# ---- AI / LLM ------------------------------------------------------------
V("openai-project-key", "OpenAI", "api", [("OPENAI_API_KEY", lambda: "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))], "api.openai.com", "bearer", "/v1/chat/completions")
V("openai-legacy-key", "OpenAI", "api", [("OPENAI_API_KEY", lambda: "sk-" + an(20) + "T3BlbkFJ" + an(20))], "api.openai.com", "bearer", "/v1/models")
V("openai-service-account-key", "OpenAI", "api", [("OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))], "api.openai.com", "bearer", "/v1/embeddings")
V("openai-admin-key", "OpenAI", "api", [("OPENAI_ADMIN_KEY", lambda: "sk-admin-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))], "api.openai.com", "bearer", "/v1/organization/users")
V("anthropic-api-key", "Anthropic", "api", [("ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(B64U, 93) + "AA")], "api.anthropic.com", "hdr:x-api-key", "/v1/messages")
V("anthropic-admin-key", "Anthropic", "api", [("ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(B64U, 93) + "AA")], "api.anthropic.com", "hdr:x-api-key", "/v1/organizations/users")
V("cohere-api-key", "Cohere", "api", [("COHERE_API_KEY", P("", AN, 40))], "api.cohere.com", "bearer", "/v2/chat")
V("mistral-api-key", "Mistral AI", "api", [("MISTRAL_API_KEY", P("", AN, 32))], "api.mistral.ai", "bearer", "/v1/chat/completions")
V("groq-api-key", "Groq", "api", [("GROQ_API_KEY", P("gsk_", AN, 52))], "api.groq.com", "bearer", "/openai/v1/chat/completions")
V("huggingface-token", "Hugging Face", "api", [("HF_TOKEN", P("hf_", UP + LO, 34))], "huggingface.co", "bearer", "/api/whoami-v2")
V("huggingface-org-token", "Hugging Face", "api", [("HUGGINGFACEHUB_API_TOKEN", P("api_org_", UP + LO, 34))])
V("replicate-api-token", "Replicate", "api", [("REPLICATE_API_TOKEN", P("r8_", AN, 37))], "api.replicate.com", "bearer", "/v1/predictions")
V("perplexity-api-key", "Perplexity", "api", [("PERPLEXITY_API_KEY", P("pplx-", AN, 48))], "api.perplexity.ai", "bearer", "/chat/completions")
V("together-api-key", "Together AI", "api", [("TOGETHER_API_KEY", lambda: hx(64))], "api.together.xyz", "bearer", "/v1/chat/completions")
V("fireworks-api-key", "Fireworks AI", "api", [("FIREWORKS_API_KEY", P("fw_", AN, 24))], "api.fireworks.ai", "bearer", "/inference/v1/completions")
V("deepseek-api-key", "DeepSeek", "api", [("DEEPSEEK_API_KEY", P("sk-", HEXL, 32))], "api.deepseek.com", "bearer", "/chat/completions")
V("xai-api-key", "xAI", "api", [("XAI_API_KEY", P("xai-", AN, 80))], "api.x.ai", "bearer", "/v1/chat/completions")
V("openrouter-api-key", "OpenRouter", "api", [("OPENROUTER_API_KEY", P("sk-or-v1-", HEXL, 64))], "openrouter.ai", "bearer", "/api/v1/chat/completions")
V("elevenlabs-api-key", "ElevenLabs", "api", [("ELEVENLABS_API_KEY", P("sk_", HEXL, 48))], "api.elevenlabs.io", "hdr:xi-api-key", "/v1/voices")
V("assemblyai-api-key", "AssemblyAI", "api", [("ASSEMBLYAI_API_KEY", lambda: hx(32))], "api.assemblyai.com", "hdr:authorization", "/v2/transcript")
V("deepgram-api-key", "Deepgram", "api", [("DEEPGRAM_API_KEY", lambda: hx(40))], "api.deepgram.com", "hdr:Authorization: Token", "/v1/listen")
V("stability-api-key", "Stability AI", "api", [("STABILITY_API_KEY", P("sk-", AN, 48))], "api.stability.ai", "bearer", "/v2beta/stable-image/generate/core")
V("langsmith-api-key", "LangSmith", "api", [("LANGCHAIN_API_KEY", lambda: f"lsv2_pt_{hx(32)}_{hx(10)}"), ("LANGCHAIN_TRACING_V2", "true")])
V("langsmith-service-key", "LangSmith", "api", [("LANGSMITH_API_KEY", lambda: f"lsv2_sk_{hx(32)}_{hx(10)}")])
V("wandb-api-key", "Weights & Biases", "api", [("WANDB_API_KEY", lambda: hx(40))])
V("nvidia-api-key", "NVIDIA NIM", "api", [("NVIDIA_API_KEY", P("nvapi-", B64U, 64))], "integrate.api.nvidia.com", "bearer", "/v1/chat/completions")
V("voyage-api-key", "Voyage AI", "api", [("VOYAGE_API_KEY", P("pa-", B64U, 43))], "api.voyageai.com", "bearer", "/v1/embeddings")
V("jina-api-key", "Jina AI", "api", [("JINA_API_KEY", lambda: "jina_" + hx(32) + an(28))], "api.jina.ai", "bearer", "/v1/embeddings")
V("tavily-api-key", "Tavily", "api", [("TAVILY_API_KEY", P("tvly-", AN, 32))])
V("serpapi-key", "SerpApi", "api", [("SERPAPI_API_KEY", lambda: hx(64))], "serpapi.com", "query:api_key", "/search.json?engine=google&q=coffee")
V("firecrawl-api-key", "Firecrawl", "api", [("FIRECRAWL_API_KEY", P("fc-", HEXL, 32))], "api.firecrawl.dev", "bearer", "/v1/scrape")
V("e2b-api-key", "E2B", "api", [("E2B_API_KEY", P("e2b_", HEXL, 40))])
V("cerebras-api-key", "Cerebras", "api", [("CEREBRAS_API_KEY", P("csk-", ANL, 48))], "api.cerebras.ai", "bearer", "/v1/chat/completions")
V("langfuse-secret-key", "Langfuse", "api", [("LANGFUSE_PUBLIC_KEY", lambda: "pk-lf-" + uid()), ("LANGFUSE_SECRET_KEY", lambda: "sk-lf-" + uid()), ("LANGFUSE_HOST", "https://cloud.langfuse.com")])
V("helicone-api-key", "Helicone", "api", [("HELICONE_API_KEY", lambda: "sk-helicone-" + "-".join(anl(7) for _ in range(4)))])
V("anyscale-api-key", "Anyscale", "api", [("ANYSCALE_API_KEY", P("esecret_", ANL, 32))])
V("runpod-api-key", "RunPod", "api", [("RUNPOD_API_KEY", P("rpa_", ANU, 48))], "rest.runpod.io", "bearer", "/v1/pods")
V("modal-token", "Modal", "api", [("MODAL_TOKEN_ID", P("ak-", AN, 22)), ("MODAL_TOKEN_SECRET", P("as-", AN, 22))])
V("comet-api-key", "Comet ML", "api", [("COMET_API_KEY", P("", AN, 25))])
V("clarifai-pat", "Clarifai", "api", [("CLARIFAI_PAT", lambda: hx(32))], "api.clarifai.com", "hdr:Authorization: Key", "/v2/users/me")
V("ai21-api-key", "AI21 Labs", "api", [("AI21_API_KEY", P("", AN, 32))], "api.ai21.com", "bearer", "/studio/v1/chat/completions")
V("baseten-api-key", "Baseten", "api", [("BASETEN_API_KEY", lambda: an(8) + "." + an(32))], "model-abc123.api.baseten.co", "hdr:Authorization: Api-Key", "/production/predict")
V("moonshot-api-key", "Moonshot AI", "api", [("MOONSHOT_API_KEY", P("sk-", AN, 48))], "api.moonshot.cn", "bearer", "/v1/chat/completions")
V("zhipu-api-key", "Zhipu AI", "api", [("ZHIPUAI_API_KEY", lambda: hx(32) + "." + an(16))])
V("dashscope-api-key", "Alibaba DashScope", "api", [("DASHSCOPE_API_KEY", P("sk-", HEXL, 32))], "dashscope.aliyuncs.com", "bearer", "/compatible-mode/v1/chat/completions")
V("exa-api-key", "Exa", "api", [("EXA_API_KEY", uid)], "api.exa.ai", "hdr:x-api-key", "/search")
V("browserbase-api-key", "Browserbase", "api", [("BROWSERBASE_API_KEY", P("bb_live_", B64U, 27))])
V("unstructured-api-key", "Unstructured", "api", [("UNSTRUCTURED_API_KEY", P("", AN, 30))])
V("llamacloud-api-key", "LlamaCloud", "api", [("LLAMA_CLOUD_API_KEY", P("llx-", AN, 48))])
V("mem0-api-key", "Mem0", "api", [("MEM0_API_KEY", P("m0-", AN, 40))])
V("apify-api-token", "Apify", "api", [("APIFY_TOKEN", P("apify_api_", AN, 36))], "api.apify.com", "bearer", "/v2/acts")
V("scrapingbee-api-key", "ScrapingBee", "api", [("SCRAPINGBEE_API_KEY", P("", ANU, 80))], "app.scrapingbee.com", "query:api_key", "/api/v1/?url=https%3A%2F%2Fexample.org")
V("serper-api-key", "Serper", "api", [("SERPER_API_KEY", lambda: hx(40))], "google.serper.dev", "hdr:X-API-KEY", "/search")
V("brave-search-api-key", "Brave Search API", "api", [("BRAVE_API_KEY", P("BSA", AN, 28))], "api.search.brave.com", "hdr:X-Subscription-Token", "/res/v1/web/search?q=weather")
V("sambanova-api-key", "SambaNova", "api", [("SAMBANOVA_API_KEY", uid)], "api.sambanova.ai", "bearer", "/v1/chat/completions")

# ---- payments & finance --------------------------------------------------
V("stripe-secret-key", "Stripe", "api", [("STRIPE_SECRET_KEY", P("sk_live_51", AN, 97))], "api.stripe.com", "basic1", "/v1/charges")
V("stripe-restricted-key", "Stripe", "api", [("STRIPE_RESTRICTED_KEY", P("rk_live_51", AN, 97))], "api.stripe.com", "bearer", "/v1/balance")
V("stripe-webhook-secret", "Stripe", "api", [("STRIPE_WEBHOOK_SECRET", P("whsec_", AN, 32))])
V("paypal-client-secret", "PayPal", "api", [("PAYPAL_CLIENT_ID", P("A", B64U, 79)), ("PAYPAL_CLIENT_SECRET", P("E", B64U, 79))], "api-m.paypal.com", "basic", "/v1/oauth2/token")
V("paypal-access-token", "PayPal", "api", [("PAYPAL_ACCESS_TOKEN", P("A21AA", B64U, 92))], "api-m.paypal.com", "bearer", "/v2/checkout/orders")
V("braintree-access-token", "Braintree", "api", [("BRAINTREE_ACCESS_TOKEN", lambda: f"access_token$production${anl(16)}${hx(32)}")])
V("braintree-private-key", "Braintree", "api", [("BT_MERCHANT_ID", P("", ANL, 16)), ("BT_PUBLIC_KEY", P("", ANL, 16)), ("BT_PRIVATE_KEY", lambda: hx(32))])
V("square-access-token", "Square", "api", [("SQUARE_ACCESS_TOKEN", P("EAAA", B64U, 60))], "connect.squareup.com", "bearer", "/v2/locations")
V("square-oauth-secret", "Square", "api", [("SQUARE_APPLICATION_ID", P("sq0idp-", B64U, 22)), ("SQUARE_APPLICATION_SECRET", P("sq0csp-", B64U, 43))])
V("adyen-api-key", "Adyen", "api", [("ADYEN_API_KEY", lambda: "AQE" + rs(AN, 5) + "Mb" + rs(B64A, 110) + "=" + rs(B64U, 20))], "checkout-live.adyenpayments.com", "hdr:X-API-Key", "/checkout/v71/payments")
V("razorpay-keys", "Razorpay", "api", [("RAZORPAY_KEY_ID", P("rzp_live_", AN, 14)), ("RAZORPAY_KEY_SECRET", P("", AN, 24))], "api.razorpay.com", "basic", "/v1/payments")
V("paystack-secret-key", "Paystack", "api", [("PAYSTACK_SECRET_KEY", P("sk_live_", HEXL, 40))], "api.paystack.co", "bearer", "/transaction/verify/ref")
V("flutterwave-secret-key", "Flutterwave", "api", [("FLW_SECRET_KEY", lambda: "FLWSECK-" + hx(32) + "-X")], "api.flutterwave.com", "bearer", "/v3/transactions")
V("mollie-api-key", "Mollie", "api", [("MOLLIE_API_KEY", P("live_", AN, 30))], "api.mollie.com", "bearer", "/v2/payments")
V("checkout-com-secret-key", "Checkout.com", "api", [("CKO_SECRET_KEY", lambda: "sk_" + uid())], "api.checkout.com", "bearer", "/payments")
V("plaid-secret", "Plaid", "api", [("PLAID_CLIENT_ID", lambda: hx(24)), ("PLAID_SECRET", lambda: hx(30)), ("PLAID_ENV", "production")])
V("plaid-access-token", "Plaid", "api", [("PLAID_ACCESS_TOKEN", lambda: "access-production-" + uid())])
V("wise-api-token", "Wise", "api", [("WISE_API_TOKEN", uid)], "api.transferwise.com", "bearer", "/v1/profiles")
V("gocardless-access-token", "GoCardless", "api", [("GOCARDLESS_ACCESS_TOKEN", P("live_", B64U, 40))], "api.gocardless.com", "bearer", "/mandates")
V("mercadopago-access-token", "Mercado Pago", "api", [("MP_ACCESS_TOKEN", lambda: f"APP_USR-{dz(16)}-{dz(6)}-{hx(32)}-{dz(9)}")], "api.mercadopago.com", "bearer", "/v1/payments/search")
V("paddle-api-key", "Paddle", "api", [("PADDLE_API_KEY", lambda: f"pdl_live_apikey_{anl(26)}_{an(22)}_{an(3)}")], "api.paddle.com", "bearer", "/subscriptions")
V("lemonsqueezy-api-key", "Lemon Squeezy", "api", [("LEMONSQUEEZY_API_KEY", lambda: jwt({"aud": "94d59cef-dbb8-4ea5-b178-d2540fcd6919", "jti": hx(64), "iat": epoch(), "sub": dz(6), "scopes": []}, "RS256", 96))], "api.lemonsqueezy.com", "bearer", "/v1/orders")
V("recurly-api-key", "Recurly", "api", [("RECURLY_API_KEY", lambda: hx(32))])
V("chargebee-api-key", "Chargebee", "api", [("CHARGEBEE_API_KEY", P("live_", AN, 34))], "acme.chargebee.com", "basic1", "/api/v2/subscriptions")
V("authorize-net-credentials", "Authorize.net", "api", [("AUTHNET_API_LOGIN_ID", P("", AN, 10)), ("AUTHNET_TRANSACTION_KEY", P("", AN, 16))])
V("coinbase-cdp-api-key", "Coinbase Developer Platform", "pem", [("CDP_API_KEY_NAME", lambda: f"organizations/{uid()}/apiKeys/{uid()}"), ("CDP_API_KEY_PRIVATE_KEY", ec_key_pem)])
V("binance-api-keys", "Binance", "api", [("BINANCE_API_KEY", P("", AN, 64)), ("BINANCE_API_SECRET", P("", AN, 64))])
V("kraken-api-keys", "Kraken", "api", [("KRAKEN_API_KEY", lambda: rs(AN + "+/", 56)), ("KRAKEN_PRIVATE_KEY", lambda: b64b(64))])
V("bybit-api-keys", "Bybit", "api", [("BYBIT_API_KEY", P("", AN, 18)), ("BYBIT_API_SECRET", P("", AN, 36))])
V("okx-api-keys", "OKX", "api", [("OKX_API_KEY", uid), ("OKX_SECRET_KEY", lambda: HX(32)), ("OKX_PASSPHRASE", strong_pw)])
V("kucoin-api-keys", "KuCoin", "api", [("KUCOIN_KEY", lambda: hx(24)), ("KUCOIN_SECRET", uid), ("KUCOIN_PASSPHRASE", human_pw)])
V("alpaca-api-keys", "Alpaca", "api", [("APCA_API_KEY_ID", P("AK", ANU, 18)), ("APCA_API_SECRET_KEY", P("", AN, 40))])
V("shopify-admin-token", "Shopify", "api", [("SHOPIFY_ADMIN_ACCESS_TOKEN", P("shpat_", HEXL, 32))], "acme-store.myshopify.com", "hdr:X-Shopify-Access-Token", "/admin/api/2024-07/orders.json")
V("shopify-shared-secret", "Shopify", "api", [("SHOPIFY_API_SECRET", P("shpss_", HEXL, 32))])
V("shopify-custom-app-token", "Shopify", "api", [("SHOPIFY_TOKEN", P("shpca_", HEXL, 32))], "acme-store.myshopify.com", "hdr:X-Shopify-Access-Token", "/admin/api/2024-07/products.json")
V("shopify-private-app-password", "Shopify", "api", [("SHOPIFY_PASSWORD", P("shppa_", HEXL, 32))])
V("woocommerce-api-keys", "WooCommerce", "api", [("WC_CONSUMER_KEY", P("ck_", HEXL, 40)), ("WC_CONSUMER_SECRET", P("cs_", HEXL, 40))], "shop.acme-corp.net", "basic", "/wp-json/wc/v3/orders")
V("bigcommerce-access-token", "BigCommerce", "api", [("BC_ACCESS_TOKEN", P("", ANL, 31))], "api.bigcommerce.com", "hdr:X-Auth-Token", "/stores/abc123/v3/catalog/products")
V("sumup-api-key", "SumUp", "api", [("SUMUP_API_KEY", P("sup_sk_", AN, 32))])
V("iex-cloud-secret", "IEX Cloud", "api", [("IEX_TOKEN", P("sk_", HEXL, 32))])
V("polygon-io-api-key", "Polygon.io", "api", [("POLYGON_API_KEY", P("", AN, 32))], "api.polygon.io", "query:apiKey", "/v2/aggs/ticker/AAPL/prev")
V("alpha-vantage-api-key", "Alpha Vantage", "api", [("ALPHAVANTAGE_API_KEY", P("", ANU, 16))], "www.alphavantage.co", "query:apikey", "/query?function=TIME_SERIES_DAILY&symbol=IBM")
V("finnhub-api-key", "Finnhub", "api", [("FINNHUB_API_KEY", P("", ANL, 20))], "finnhub.io", "query:token", "/api/v1/quote?symbol=MSFT")
V("tradier-access-token", "Tradier", "api", [("TRADIER_ACCESS_TOKEN", P("", AN, 28))], "api.tradier.com", "bearer", "/v1/user/profile")
V("truelayer-client-secret", "TrueLayer", "api", [("TRUELAYER_CLIENT_ID", lambda: slugname() + "-" + anl(6)), ("TRUELAYER_CLIENT_SECRET", uid)])
V("xero-client-secret", "Xero", "api", [("XERO_CLIENT_ID", lambda: HX(32)), ("XERO_CLIENT_SECRET", P("", B64U, 48))])
V("quickbooks-client-secret", "QuickBooks Online", "api", [("QBO_CLIENT_ID", P("AB", AN, 48)), ("QBO_CLIENT_SECRET", P("", AN, 40))])

# ---- messaging, comms, social ------------------------------------------
V("slack-bot-token", "Slack", "api", [("SLACK_BOT_TOKEN", lambda: f"xoxb-{dz(12)}-{dz(13)}-{an(24)}")], "slack.com", "bearer", "/api/chat.postMessage")
V("slack-user-token", "Slack", "api", [("SLACK_USER_TOKEN", lambda: f"xoxp-{dz(12)}-{dz(12)}-{dz(13)}-{hx(32)}")], "slack.com", "bearer", "/api/conversations.history")
V("slack-app-token", "Slack", "api", [("SLACK_APP_TOKEN", lambda: f"xapp-1-A{anu(10)}-{dz(13)}-{hx(64)}")])
V("slack-refresh-token", "Slack", "api", [("SLACK_REFRESH_TOKEN", lambda: f"xoxe-1-{rs(B64U, 140)}")])
V("slack-webhook-url", "Slack", "url", [("SLACK_WEBHOOK_URL", lambda: f"https://hooks.slack.com/services/T{anu(10)}/B{anu(10)}/{an(24)}")], None, "url")
V("slack-signing-secret", "Slack", "api", [("SLACK_SIGNING_SECRET", lambda: hx(32))])
V("discord-bot-token", "Discord", "api", [("DISCORD_TOKEN", lambda: base64.b64encode(dg(19).encode()).decode().rstrip("=") + "." + rs(B64U, 6) + "." + rs(B64U, 38))], "discord.com", "hdr:Authorization: Bot", "/api/v10/users/@me")
V("discord-webhook-url", "Discord", "url", [("DISCORD_WEBHOOK", lambda: f"https://discord.com/api/webhooks/{dg(19)}/{rs(B64U, 68)}")], None, "url")
V("discord-client-secret", "Discord", "api", [("DISCORD_CLIENT_ID", lambda: dg(19)), ("DISCORD_CLIENT_SECRET", P("", B64U, 32))])
V("telegram-bot-token", "Telegram", "api", [("TELEGRAM_BOT_TOKEN", lambda: f"{dg(10)}:AA{rs(B64U, 33)}")])
V("twilio-auth-token", "Twilio", "api", [("TWILIO_ACCOUNT_SID", P("AC", HEXL, 32)), ("TWILIO_AUTH_TOKEN", lambda: hx(32))], "api.twilio.com", "basic", "/2010-04-01/Accounts.json")
V("twilio-api-key", "Twilio", "api", [("TWILIO_API_KEY", P("SK", HEXL, 32)), ("TWILIO_API_SECRET", P("", AN, 32))])
V("sendgrid-api-key", "SendGrid", "api", [("SENDGRID_API_KEY", lambda: f"SG.{rs(B64U, 22)}.{rs(B64U, 43)}")], "api.sendgrid.com", "bearer", "/v3/mail/send")
V("mailgun-api-key", "Mailgun", "api", [("MAILGUN_API_KEY", lambda: pick([f"key-{hx(32)}", f"{hx(32)}-{hx(8)}-{hx(8)}"])), ("MAILGUN_DOMAIN", lambda: "mg." + org())], "api.eu.mailgun.net", "basic-api", "/v3/mg.acme-corp.net/messages")
V("mailchimp-api-key", "Mailchimp", "api", [("MAILCHIMP_API_KEY", lambda: f"{hx(32)}-us{R.randint(1, 21)}")], "us6.api.mailchimp.com", "basic-any", "/3.0/lists")
V("mandrill-api-key", "Mailchimp Transactional", "api", [("MANDRILL_API_KEY", P("md-", B64U, 22))])
V("postmark-server-token", "Postmark", "api", [("POSTMARK_SERVER_TOKEN", uid)], "api.postmarkapp.com", "hdr:X-Postmark-Server-Token", "/email")
V("postmark-account-token", "Postmark", "api", [("POSTMARK_ACCOUNT_TOKEN", uid)], "api.postmarkapp.com", "hdr:X-Postmark-Account-Token", "/servers")
V("brevo-api-key", "Brevo", "api", [("BREVO_API_KEY", lambda: f"xkeysib-{hx(64)}-{an(16)}")], "api.brevo.com", "hdr:api-key", "/v3/smtp/email")
V("brevo-smtp-key", "Brevo", "api", [("SMTP_LOGIN", lambda: dz(6) + "001@smtp-brevo.com"), ("SMTP_KEY", lambda: f"xsmtpsib-{hx(64)}-{an(16)}")])
V("mailjet-api-keys", "Mailjet", "api", [("MJ_APIKEY_PUBLIC", lambda: hx(32)), ("MJ_APIKEY_PRIVATE", lambda: hx(32))], "api.mailjet.com", "basic", "/v3.1/send")
V("sparkpost-api-key", "SparkPost", "api", [("SPARKPOST_API_KEY", lambda: hx(40))], "api.sparkpost.com", "hdr:Authorization", "/api/v1/transmissions")
V("resend-api-key", "Resend", "api", [("RESEND_API_KEY", lambda: f"re_{an(8)}_{an(24)}")], "api.resend.com", "bearer", "/emails")
V("loops-api-key", "Loops", "api", [("LOOPS_API_KEY", lambda: hx(32))], "app.loops.so", "bearer", "/api/v1/contacts/create")
V("mailersend-api-token", "MailerSend", "api", [("MAILERSEND_API_KEY", P("mlsn.", HEXL, 64))], "api.mailersend.com", "bearer", "/v1/email")
V("convertkit-api-secret", "Kit (ConvertKit)", "api", [("CONVERTKIT_API_SECRET", P("", B64U, 43))])
V("customerio-app-api-key", "Customer.io", "api", [("CUSTOMERIO_APP_API_KEY", lambda: hx(32))], "api.customer.io", "bearer", "/v1/send/email")
V("klaviyo-private-key", "Klaviyo", "api", [("KLAVIYO_PRIVATE_API_KEY", P("pk_", HEXL, 34))], "a.klaviyo.com", "hdr:Authorization: Klaviyo-API-Key", "/api/profiles/")
V("onesignal-rest-api-key", "OneSignal", "api", [("ONESIGNAL_APP_ID", uid), ("ONESIGNAL_REST_API_KEY", P("os_v2_app_", ANL, 113))])
V("pusher-app-secret", "Pusher", "api", [("PUSHER_APP_ID", lambda: dz(7)), ("PUSHER_KEY", lambda: hx(20)), ("PUSHER_SECRET", lambda: hx(20)), ("PUSHER_CLUSTER", "eu")])
V("ably-api-key", "Ably", "api", [("ABLY_API_KEY", lambda: f"{an(6)}.{an(6)}:{rs(B64U, 43)}")])
V("vonage-api-credentials", "Vonage", "api", [("VONAGE_API_KEY", lambda: hx(8)), ("VONAGE_API_SECRET", P("", AN, 16))])
V("messagebird-api-key", "MessageBird (Bird)", "api", [("MESSAGEBIRD_API_KEY", P("", AN, 25))], "rest.messagebird.com", "hdr:Authorization: AccessKey", "/messages")
V("plivo-auth-credentials", "Plivo", "api", [("PLIVO_AUTH_ID", P("MA", ANU, 18)), ("PLIVO_AUTH_TOKEN", P("", AN, 40))])
V("telnyx-api-key", "Telnyx", "api", [("TELNYX_API_KEY", lambda: f"KEY{HX(32)}_{an(22)}")], "api.telnyx.com", "bearer", "/v2/messages")
V("intercom-access-token", "Intercom", "api", [("INTERCOM_ACCESS_TOKEN", lambda: base64.b64encode(f"tok:{uid()}:1:0".encode()).decode())], "api.intercom.io", "bearer", "/contacts")
V("zendesk-api-token", "Zendesk", "api", [("ZENDESK_EMAIL", lambda: email(True) + "/token"), ("ZENDESK_API_TOKEN", P("", AN, 40))], "acme.zendesk.com", "basic", "/api/v2/tickets.json")
V("freshdesk-api-key", "Freshdesk", "api", [("FRESHDESK_API_KEY", P("", AN, 20))], "acme.freshdesk.com", "basic-x", "/api/v2/tickets")
V("teams-incoming-webhook", "Microsoft Teams", "url", [("TEAMS_WEBHOOK_URL", lambda: f"https://{slugname()}.webhook.office.com/webhookb2/{uid()}@{uid()}/IncomingWebhook/{hx(32)}/{uid()}/V2{rs(B64U, 43)}")], None, "url")
V("google-chat-webhook", "Google Chat", "url", [("GCHAT_WEBHOOK", lambda: f"https://chat.googleapis.com/v1/spaces/AAAA{rs(B64U, 7)}/messages?key=AIza{rs(B64U, 35)}&token={urllib.parse.quote(rs(B64U, 43) + '%3D', safe='%')}")], None, "url")
V("mattermost-webhook", "Mattermost", "url", [("MATTERMOST_HOOK", lambda: f"https://chat.{org()}/hooks/{anl(26)}")], None, "url")
V("rocketchat-webhook", "Rocket.Chat", "url", [("ROCKETCHAT_HOOK", lambda: f"https://rocket.{org()}/hooks/{an(17)}/{an(48)}")], None, "url")
V("line-channel-access-token", "LINE Messaging API", "api", [("LINE_CHANNEL_ACCESS_TOKEN", lambda: rs(B64A, 171) + "="), ("LINE_CHANNEL_SECRET", lambda: hx(32))], "api.line.me", "bearer", "/v2/bot/message/push")
V("whatsapp-cloud-api-token", "WhatsApp Cloud API", "api", [("WHATSAPP_TOKEN", P("EAAG", AN, 180)), ("WHATSAPP_PHONE_NUMBER_ID", lambda: dz(15))], "graph.facebook.com", "bearer", "/v19.0/me/messages")
V("facebook-page-access-token", "Meta Graph API", "api", [("FB_PAGE_TOKEN", P("EAAB", AN, 170))], "graph.facebook.com", "query:access_token", "/v19.0/me/feed")
V("facebook-app-secret", "Meta for Developers", "api", [("FACEBOOK_APP_ID", lambda: dg(16)), ("FACEBOOK_APP_SECRET", lambda: hx(32))])
V("instagram-graph-token", "Instagram Graph API", "api", [("IG_ACCESS_TOKEN", P("IGQWR", B64U, 160))], "graph.instagram.com", "query:access_token", "/me/media?fields=id,caption")
V("twitter-bearer-token", "X (Twitter)", "api", [("TWITTER_BEARER_TOKEN", lambda: "AAAAAAAAAAAAAAAAAAAAA" + an(24) + "%3D" + an(50))], "api.twitter.com", "bearer", "/2/tweets/search/recent?query=rust")
V("twitter-api-keys", "X (Twitter)", "api", [("TWITTER_API_KEY", P("", AN, 25)), ("TWITTER_API_SECRET", P("", AN, 50)), ("TWITTER_ACCESS_TOKEN", lambda: dg(19) + "-" + an(40)), ("TWITTER_ACCESS_SECRET", P("", AN, 45))])
V("linkedin-client-secret", "LinkedIn", "api", [("LINKEDIN_CLIENT_ID", P("", ANL, 14)), ("LINKEDIN_CLIENT_SECRET", lambda: f"WPL_AP1.{an(16)}.{b64b(6)}")])
V("zoom-s2s-oauth", "Zoom", "api", [("ZOOM_ACCOUNT_ID", P("", B64U, 22)), ("ZOOM_CLIENT_ID", P("", AN, 22)), ("ZOOM_CLIENT_SECRET", P("", AN, 32))])
V("webex-bot-token", "Webex", "api", [("WEBEX_BOT_TOKEN", lambda: f"{an(64)}_PF84_{uid()}")], "webexapis.com", "bearer", "/v1/messages")
V("matrix-access-token", "Matrix", "api", [("MATRIX_ACCESS_TOKEN", lambda: "syt_" + base64.b64encode(pick(["alice", "notify-bot", "jonas", "ops"]).encode()).decode().rstrip("=") + "_" + an(20) + "_" + an(6))], "matrix.org", "bearer", "/_matrix/client/v3/sync")
V("mastodon-access-token", "Mastodon", "api", [("MASTODON_ACCESS_TOKEN", P("", B64U, 43))], "mastodon.social", "bearer", "/api/v1/statuses")
V("reddit-client-secret", "Reddit API", "api", [("REDDIT_CLIENT_ID", P("", B64U, 22)), ("REDDIT_CLIENT_SECRET", P("", B64U, 30))])
V("twitch-client-secret", "Twitch", "api", [("TWITCH_CLIENT_ID", P("", ANL, 30)), ("TWITCH_CLIENT_SECRET", P("", ANL, 30))])
V("twitch-oauth-token", "Twitch", "api", [("TWITCH_OAUTH", lambda: "oauth:" + anl(30))])
V("spotify-client-secret", "Spotify Web API", "api", [("SPOTIFY_CLIENT_ID", lambda: hx(32)), ("SPOTIFY_CLIENT_SECRET", lambda: hx(32))])
V("pinterest-access-token", "Pinterest", "api", [("PINTEREST_TOKEN", P("pina_", ANU, 96))], "api.pinterest.com", "bearer", "/v5/boards")
V("bluesky-app-password", "Bluesky", "api", [("BSKY_HANDLE", lambda: pick(FIRST).lower() + ".bsky.social"), ("BSKY_APP_PASSWORD", lambda: "-".join(anl(4) for _ in range(4)))])
V("dingtalk-robot-webhook", "DingTalk", "url", [("DINGTALK_WEBHOOK", lambda: f"https://oapi.dingtalk.com/robot/send?access_token={hx(64)}")], None, "url")
V("feishu-bot-webhook", "Feishu/Lark", "url", [("FEISHU_WEBHOOK", lambda: f"https://open.feishu.cn/open-apis/bot/v2/hook/{uid()}")], None, "url")
V("wecom-robot-webhook", "WeCom", "url", [("WECOM_WEBHOOK", lambda: f"https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uid()}")], None, "url")
V("wechat-appsecret", "WeChat Official Accounts", "api", [("WECHAT_APPID", lambda: "wx" + hx(16)), ("WECHAT_APPSECRET", lambda: hx(32))])
V("zapier-catch-hook", "Zapier", "url", [("ZAPIER_HOOK_URL", lambda: f"https://hooks.zapier.com/hooks/catch/{dg(8)}/{anl(7)}/")], None, "url")
V("ifttt-webhook-key", "IFTTT", "url", [("IFTTT_URL", lambda: f"https://maker.ifttt.com/trigger/{pick(['door_open', 'backup_done', 'plant_dry'])}/with/key/{rs(B64U, 22)}")], None, "url")
V("make-webhook", "Make.com", "url", [("MAKE_WEBHOOK", lambda: f"https://hook.{pick(['eu1', 'eu2', 'us1'])}.make.com/{anl(32)}")], None, "url")
V("pipedream-endpoint", "Pipedream", "url", [("PIPEDREAM_URL", lambda: f"https://eo{anl(15)}.m.pipedream.net")], None, "url")
V("n8n-webhook", "n8n", "url", [("N8N_WEBHOOK", lambda: f"https://n8n.{org()}/webhook/{uid()}")], None, "url")
V("home-assistant-webhook", "Home Assistant", "url", [("HA_WEBHOOK", lambda: f"https://{anl(8)}.ui.nabu.casa/api/webhook/{rs(B64U, 40)}")], None, "url")
V("power-automate-flow-url", "Power Automate", "url", [("FLOW_URL", lambda: f"https://prod-{R.randint(10, 99)}.westeurope.logic.azure.com:443/workflows/{hx(32)}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={rs(B64U, 43)}")], None, "url")
V("telegram-bot-api-url", "Telegram", "url", [("TG_NOTIFY_URL", lambda: f"https://api.telegram.org/bot{dg(10)}:AA{rs(B64U, 33)}/sendMessage?chat_id=-100{dz(10)}")], None, "url")

# ---- productivity, SaaS, commerce, maps, data ------------------------
V("notion-integration-token", "Notion", "api", [("NOTION_TOKEN", P("secret_", AN, 43))], "api.notion.com", "bearer", "/v1/databases/query")
V("notion-ntn-token", "Notion", "api", [("NOTION_API_KEY", lambda: "ntn_" + dz(11) + an(35))], "api.notion.com", "bearer", "/v1/search")
V("airtable-pat", "Airtable", "api", [("AIRTABLE_TOKEN", lambda: f"pat{an(14)}.{hx(64)}")], "api.airtable.com", "bearer", "/v0/appXYZ/Tasks")
V("asana-pat", "Asana", "api", [("ASANA_PAT", lambda: pick([f"1/{dz(16)}:{hx(32)}", f"2/{dz(16)}/{dz(16)}:{hx(32)}"]))], "app.asana.com", "bearer", "/api/1.0/users/me")
V("clickup-api-token", "ClickUp", "api", [("CLICKUP_TOKEN", lambda: f"pk_{dz(8)}_{anu(32)}")], "api.clickup.com", "hdr:Authorization", "/api/v2/team")
V("monday-api-token", "monday.com", "api", [("MONDAY_API_TOKEN", lambda: jwt({"tid": int(dz(9)), "aai": 11, "uid": int(dz(8)), "iad": date_iso() + "T10:12:01.000Z", "per": "me:write", "actid": int(dz(7)), "rgn": "euc1"}))], "api.monday.com", "hdr:Authorization", "/v2")
V("trello-api-token", "Trello", "api", [("TRELLO_KEY", lambda: hx(32)), ("TRELLO_TOKEN", lambda: "ATTA" + hx(64) + HX(8))])
V("linear-api-key", "Linear", "api", [("LINEAR_API_KEY", P("lin_api_", AN, 40))], "api.linear.app", "hdr:Authorization", "/graphql")
V("figma-pat", "Figma", "api", [("FIGMA_TOKEN", lambda: "figd_" + rs(B64U, 40))], "api.figma.com", "hdr:X-Figma-Token", "/v1/files/abc123")
V("contentful-management-token", "Contentful", "api", [("CONTENTFUL_MANAGEMENT_TOKEN", P("CFPAT-", B64U, 43))], "api.contentful.com", "bearer", "/spaces")
V("sanity-api-token", "Sanity", "api", [("SANITY_API_TOKEN", P("sk", AN, 180))])
V("hubspot-private-app-token", "HubSpot", "api", [("HUBSPOT_ACCESS_TOKEN", lambda: f"pat-{pick(['na1', 'eu1'])}-{uid()}")], "api.hubapi.com", "bearer", "/crm/v3/objects/contacts")
V("salesforce-access-token", "Salesforce", "api", [("SF_ACCESS_TOKEN", lambda: f"00D{an(12)}!AQ{rs(AN, 2)}AR{rs(AN + '._', 92)}")], "acme.my.salesforce.com", "bearer", "/services/data/v60.0/sobjects/Account")
V("salesforce-consumer-secret", "Salesforce", "api", [("SF_CONSUMER_KEY", lambda: "3MVG9" + rs(AN + "._", 80)), ("SF_CONSUMER_SECRET", lambda: HX(64))])
V("zoho-refresh-token", "Zoho", "api", [("ZOHO_CLIENT_ID", lambda: "1000." + anu(30)), ("ZOHO_CLIENT_SECRET", lambda: hx(42)), ("ZOHO_REFRESH_TOKEN", lambda: f"1000.{hx(32)}.{hx(32)}")])
V("pipedrive-api-token", "Pipedrive", "api", [("PIPEDRIVE_API_TOKEN", lambda: hx(40))], "api.pipedrive.com", "query:api_token", "/v1/deals")
V("close-api-key", "Close CRM", "api", [("CLOSE_API_KEY", lambda: f"api_{an(22)}.{an(22)}")], "api.close.com", "basic1", "/api/v1/lead/")
V("calendly-pat", "Calendly", "api", [("CALENDLY_TOKEN", lambda: jwt({"iss": "https://auth.calendly.com", "iat": epoch(), "jti": uid(), "user_uuid": uid()}, "ES512", 132))], "api.calendly.com", "bearer", "/users/me")
V("cal-com-api-key", "Cal.com", "api", [("CAL_API_KEY", P("cal_live_", HEXL, 32))], "api.cal.com", "bearer", "/v2/bookings")
V("docusign-integration-secret", "DocuSign", "api", [("DOCUSIGN_INTEGRATION_KEY", uid), ("DOCUSIGN_SECRET_KEY", uid), ("DOCUSIGN_ACCOUNT_ID", uid)])
V("dropbox-access-token", "Dropbox", "api", [("DROPBOX_TOKEN", P("sl.B", B64U, 136))], "api.dropboxapi.com", "bearer", "/2/files/list_folder")
V("dropbox-app-secret", "Dropbox", "api", [("DROPBOX_APP_KEY", P("", ANL, 15)), ("DROPBOX_APP_SECRET", P("", ANL, 15))])
V("box-client-secret", "Box", "api", [("BOX_CLIENT_ID", P("", ANL, 32)), ("BOX_CLIENT_SECRET", P("", AN, 32))])
V("todoist-api-token", "Todoist", "api", [("TODOIST_API_TOKEN", lambda: hx(40))], "api.todoist.com", "bearer", "/rest/v2/tasks")
V("toggl-api-token", "Toggl Track", "api", [("TOGGL_API_TOKEN", lambda: hx(32))], "api.track.toggl.com", "basic-togg", "/api/v9/me")
V("harvest-pat", "Harvest", "api", [("HARVEST_ACCOUNT_ID", lambda: dz(7)), ("HARVEST_TOKEN", lambda: f"{dz(7)}.pt.{rs(B64U, 86)}")])
V("typeform-token", "Typeform", "api", [("TYPEFORM_TOKEN", lambda: f"tfp_{an(44)}_{an(14)}")], "api.typeform.com", "bearer", "/forms")
V("jotform-api-key", "Jotform", "api", [("JOTFORM_API_KEY", lambda: hx(32))], "api.jotform.com", "query:apiKey", "/user/forms")
V("smartsheet-token", "Smartsheet", "api", [("SMARTSHEET_ACCESS_TOKEN", P("", AN, 37))], "api.smartsheet.com", "bearer", "/2.0/sheets")
V("coda-api-token", "Coda", "api", [("CODA_API_TOKEN", uid)], "coda.io", "bearer", "/apis/v1/docs")
V("mux-token", "Mux", "api", [("MUX_TOKEN_ID", uid), ("MUX_TOKEN_SECRET", P("", AN + "+/", 75))], "api.mux.com", "basic", "/video/v1/assets")
V("vimeo-access-token", "Vimeo", "api", [("VIMEO_ACCESS_TOKEN", lambda: hx(32))], "api.vimeo.com", "bearer", "/me/videos")
V("bunny-api-key", "bunny.net", "api", [("BUNNY_API_KEY", lambda: uid() + "-" + uid()[:18])], "api.bunny.net", "hdr:AccessKey", "/pullzone")
V("uploadcare-secret-key", "Uploadcare", "api", [("UPLOADCARE_PUBLIC_KEY", lambda: hx(20)), ("UPLOADCARE_SECRET_KEY", lambda: hx(20))])
V("imagekit-private-key", "ImageKit", "api", [("IMAGEKIT_PRIVATE_KEY", lambda: "private_" + b64b(20))])
V("mapbox-secret-token", "Mapbox", "api", [("MAPBOX_SECRET_TOKEN", lambda: "sk." + b64j({"u": pick(FIRST).lower() + "-maps", "a": rs(AN, 25)}) + "." + rs(B64U, 22))], "api.mapbox.com", "query:access_token", "/uploads/v1/acme/credentials")
V("here-api-key", "HERE", "api", [("HERE_API_KEY", P("", B64U, 43))], "geocode.search.hereapi.com", "query:apiKey", "/v1/geocode?q=Invalidenstr+117+Berlin")
V("tomtom-api-key", "TomTom", "api", [("TOMTOM_API_KEY", P("", AN, 32))], "api.tomtom.com", "query:key", "/routing/1/calculateRoute/52.5,13.4:52.4,13.0/json")
V("openweathermap-api-key", "OpenWeatherMap", "api", [("OWM_API_KEY", lambda: hx(32))], "api.openweathermap.org", "query:appid", "/data/2.5/weather?q=Lisbon")
V("weatherapi-key", "WeatherAPI.com", "api", [("WEATHERAPI_KEY", lambda: hx(31))], "api.weatherapi.com", "query:key", "/v1/forecast.json?q=Oslo&days=3")
V("ipinfo-token", "IPinfo", "api", [("IPINFO_TOKEN", lambda: hx(14))], "ipinfo.io", "query:token", "/8.8.8.8/json")
V("newsapi-key", "NewsAPI", "api", [("NEWSAPI_KEY", lambda: hx(32))], "newsapi.org", "query:apiKey", "/v2/top-headlines?country=de")
V("shippo-api-token", "Shippo", "api", [("SHIPPO_API_TOKEN", P("shippo_live_", HEXL, 40))], "api.goshippo.com", "hdr:Authorization: ShippoToken", "/shipments/")
V("easypost-api-key", "EasyPost", "api", [("EASYPOST_API_KEY", P("EZAK", HEXL, 54))], "api.easypost.com", "basic1", "/v2/shipments")
V("duffel-access-token", "Duffel", "api", [("DUFFEL_ACCESS_TOKEN", P("duffel_live_", B64U, 43))], "api.duffel.com", "bearer", "/air/offer_requests")
V("amadeus-api-credentials", "Amadeus for Developers", "api", [("AMADEUS_CLIENT_ID", P("", AN, 32)), ("AMADEUS_CLIENT_SECRET", P("", AN, 16))])
V("aftership-api-key", "AfterShip", "api", [("AFTERSHIP_API_KEY", P("asat_", HEXL, 32))], "api.aftership.com", "hdr:as-api-key", "/tracking/2024-04/trackings")
V("etherscan-api-key", "Etherscan", "api", [("ETHERSCAN_API_KEY", P("", ANU, 34))], "api.etherscan.io", "query:apikey", "/api?module=account&action=txlist&startblock=0&sort=asc")
V("infura-project-secret", "Infura", "api", [("INFURA_PROJECT_ID", lambda: hx(32)), ("INFURA_PROJECT_SECRET", lambda: hx(32))])
V("alchemy-api-key", "Alchemy", "url", [("ALCHEMY_RPC_URL", lambda: f"https://eth-mainnet.g.alchemy.com/v2/{rs(B64U, 32)}")])
V("quicknode-endpoint", "QuickNode", "url", [("QUICKNODE_RPC", lambda: f"https://{pick(['frosty', 'silent', 'wild'])}-{pick(['fabled', 'quaint', 'broken'])}-{pick(['dawn', 'leaf', 'pond'])}.quiknode.pro/{hx(40)}/")])
V("moralis-api-key", "Moralis", "api", [("MORALIS_API_KEY", lambda: jwt({"nonce": uid(), "orgId": dz(6), "userId": dz(6), "typeId": uid(), "type": "PROJECT", "iat": epoch(), "exp": 4879574400}))], "deep-index.moralis.io", "hdr:X-API-Key", "/api/v2.2/wallets/0x0/tokens")
V("covalent-api-key", "Covalent (GoldRush)", "api", [("COVALENT_API_KEY", P("cqt_", AN, 26))])
V("virustotal-api-key", "VirusTotal", "api", [("VT_API_KEY", lambda: hx(64))], "www.virustotal.com", "hdr:x-apikey", "/api/v3/files/44d88612fea8a8f36de82e1278abb02f")
V("shodan-api-key", "Shodan", "api", [("SHODAN_API_KEY", P("", AN, 32))], "api.shodan.io", "query:key", "/shodan/host/1.1.1.1")
V("censys-api-credentials", "Censys", "api", [("CENSYS_API_ID", uid), ("CENSYS_API_SECRET", P("", AN, 32))], "search.censys.io", "basic", "/api/v2/hosts/search?q=services.port%3A22")
V("abuseipdb-api-key", "AbuseIPDB", "api", [("ABUSEIPDB_KEY", lambda: hx(80))], "api.abuseipdb.com", "hdr:Key", "/api/v2/check?ipAddress=203.0.113.7")
V("hibp-api-key", "Have I Been Pwned", "api", [("HIBP_API_KEY", lambda: hx(32))], "haveibeenpwned.com", "hdr:hibp-api-key", "/api/v3/breachedaccount/someone%40example.org")
V("urlscan-api-key", "urlscan.io", "api", [("URLSCAN_API_KEY", uid)], "urlscan.io", "hdr:API-Key", "/api/v1/scan/")
V("tenable-api-keys", "Tenable.io", "api", [("TENABLE_ACCESS_KEY", lambda: hx(64)), ("TENABLE_SECRET_KEY", lambda: hx(64))])
V("crowdstrike-api-client", "CrowdStrike Falcon", "api", [("FALCON_CLIENT_ID", lambda: hx(32)), ("FALCON_CLIENT_SECRET", P("", AN, 40))])
V("okta-api-token", "Okta", "api", [("OKTA_ORG_URL", lambda: f"https://{slugname()}.okta.com"), ("OKTA_API_TOKEN", P("00", B64U, 40))], "acme.okta.com", "hdr:Authorization: SSWS", "/api/v1/users?limit=25")
V("auth0-client-secret", "Auth0", "api", [("AUTH0_DOMAIN", lambda: f"{slugname()}.eu.auth0.com"), ("AUTH0_CLIENT_ID", P("", AN, 32)), ("AUTH0_CLIENT_SECRET", P("", B64U, 64))])
V("auth0-management-token", "Auth0", "api", [("AUTH0_MGMT_TOKEN", lambda: jwt({"iss": f"https://{slugname()}.eu.auth0.com/", "sub": an(32) + "@clients", "aud": "https://acme.eu.auth0.com/api/v2/", "iat": epoch(), "exp": epoch() + 86400, "gty": "client-credentials"}, "RS256", 96))], "acme.eu.auth0.com", "bearer", "/api/v2/users")
V("onelogin-client-secret", "OneLogin", "api", [("ONELOGIN_CLIENT_ID", lambda: hx(64)), ("ONELOGIN_CLIENT_SECRET", lambda: hx(64))])
V("duo-admin-api-keys", "Duo Security", "api", [("DUO_IKEY", P("DI", ANU, 18)), ("DUO_SKEY", P("", AN, 40)), ("DUO_HOST", lambda: f"api-{hx(8)}.duosecurity.com")])
V("keycloak-client-secret", "Keycloak", "api", [("KEYCLOAK_CLIENT_ID", lambda: slugname() + "-backend"), ("KEYCLOAK_CLIENT_SECRET", P("", AN, 32))])
V("clerk-secret-key", "Clerk", "api", [("CLERK_SECRET_KEY", P("sk_live_", AN, 42))], "api.clerk.com", "bearer", "/v1/users")
V("stytch-secret", "Stytch", "api", [("STYTCH_PROJECT_ID", lambda: "project-live-" + uid()), ("STYTCH_SECRET", P("secret-live-", B64U, 36))])
V("recaptcha-secret-key", "Google reCAPTCHA", "api", [("RECAPTCHA_SECRET_KEY", P("6L", B64U, 38))], "www.google.com", "query:secret", "/recaptcha/api/siteverify?response=TOKEN")
V("hcaptcha-secret-key", "hCaptcha", "api", [("HCAPTCHA_SECRET", P("0x", HEXL, 40))])
V("turnstile-secret-key", "Cloudflare Turnstile", "api", [("TURNSTILE_SECRET_KEY", P("0x4AAAAAAA", B64U, 24))])
V("jumpcloud-api-key", "JumpCloud", "api", [("JUMPCLOUD_API_KEY", lambda: hx(40))], "console.jumpcloud.com", "hdr:x-api-key", "/api/systemusers")
V("ghost-admin-api-key", "Ghost", "api", [("GHOST_ADMIN_API_KEY", lambda: f"{hx(24)}:{hx(64)}")])
V("wordpress-application-password", "WordPress", "api", [("WP_USER", lambda: pick(["editor", "admin", "api-bot"])), ("WP_APP_PASSWORD", lambda: " ".join(an(4) for _ in range(6)))])
V("discourse-api-key", "Discourse", "api", [("DISCOURSE_API_KEY", lambda: hx(64)), ("DISCOURSE_API_USERNAME", "system")], "forum.acme-corp.net", "hdr:Api-Key", "/posts.json")
V("webflow-api-token", "Webflow", "api", [("WEBFLOW_TOKEN", lambda: hx(64))], "api.webflow.com", "bearer", "/v2/sites")
V("strapi-api-token", "Strapi", "api", [("STRAPI_API_TOKEN", lambda: hx(128))])
V("directus-static-token", "Directus", "api", [("DIRECTUS_TOKEN", P("", B64U, 32))], "cms.acme-corp.net", "bearer", "/items/articles")
V("mixpanel-api-secret", "Mixpanel", "api", [("MIXPANEL_API_SECRET", lambda: hx(32))])
V("mixpanel-service-account", "Mixpanel", "api", [("MP_SERVICE_ACCOUNT", lambda: pick(["etl", "export"]) + "." + dz(6) + ".mp-service-account"), ("MP_SERVICE_SECRET", P("", AN, 32))])
V("amplitude-secret-key", "Amplitude", "api", [("AMPLITUDE_API_KEY", lambda: hx(32)), ("AMPLITUDE_SECRET_KEY", lambda: hx(32))])
V("posthog-personal-api-key", "PostHog", "api", [("POSTHOG_PERSONAL_API_KEY", P("phx_", AN, 43))], "eu.posthog.com", "bearer", "/api/projects/")
V("fullstory-api-key", "FullStory", "api", [("FULLSTORY_API_KEY", lambda: "na1." + b64b(48))])

# ---- self-hosted, homelab, IoT ------------------------------------------
V("home-assistant-token", "Home Assistant", "api", [("HASS_TOKEN", lambda: jwt({"iss": hx(32), "iat": epoch(), "exp": epoch() + 315360000}))], "homeassistant.local:8123", "bearer", "/api/states")
V("plex-token", "Plex", "api", [("PLEX_TOKEN", P("", B64U, 20))], "plex.home.arpa:32400", "query:X-Plex-Token", "/library/sections")
V("jellyfin-api-key", "Jellyfin", "api", [("JELLYFIN_API_KEY", lambda: hx(32))], "jellyfin.lan:8096", "hdr:X-Emby-Token", "/Users")
V("sonarr-api-key", "Sonarr", "api", [("SONARR_API_KEY", lambda: hx(32))], "sonarr.lan:8989", "hdr:X-Api-Key", "/api/v3/series")
V("radarr-api-key", "Radarr", "api", [("RADARR_API_KEY", lambda: hx(32))], "radarr.lan:7878", "hdr:X-Api-Key", "/api/v3/movie")
V("octoprint-api-key", "OctoPrint", "api", [("OCTOPRINT_API_KEY", P("", B64U, 43))], "octopi.local", "hdr:X-Api-Key", "/api/job")
V("proxmox-api-token", "Proxmox VE", "api", [("PM_API_TOKEN", lambda: f"PVEAPIToken=root@pam!{pick(['terraform', 'ansible', 'backup'])}={uid()}")])
V("portainer-access-token", "Portainer", "api", [("PORTAINER_TOKEN", P("ptr_", B64U, 43))], "portainer.lan:9443", "hdr:X-API-Key", "/api/endpoints")
V("truenas-api-key", "TrueNAS", "api", [("TRUENAS_API_KEY", lambda: f"{R.randint(1, 9)}-{an(64)}")], "truenas.lan", "bearer", "/api/v2.0/pool")
V("gitea-access-token", "Gitea", "api", [("GITEA_TOKEN", lambda: hx(40))], "git.home.arpa", "token", "/api/v1/user/repos")
V("nextcloud-app-password", "Nextcloud", "api", [("NC_USER", lambda: pick(FIRST).lower()), ("NC_APP_PASSWORD", lambda: "-".join(an(5) for _ in range(5)))])
V("mqtt-broker-password", "MQTT broker", "api", [("MQTT_USER", lambda: pick(["zigbee2mqtt", "esphome", "homeassistant"])), ("MQTT_PASSWORD", url_pw)])
V("esphome-api-encryption-key", "ESPHome", "api", [("api_encryption_key", lambda: b64b(32))])
V("immich-api-key", "Immich", "api", [("IMMICH_API_KEY", P("", AN, 43))], "photos.home.arpa", "hdr:x-api-key", "/api/assets")
V("paperless-api-token", "Paperless-ngx", "api", [("PAPERLESS_TOKEN", lambda: hx(40))], "paperless.lan:8000", "token", "/api/documents/")
V("pihole-api-token", "Pi-hole", "api", [("PIHOLE_API_TOKEN", lambda: hx(64))], "pi.hole", "query:auth", "/admin/api.php?summaryRaw")
V("vaultwarden-admin-token", "Vaultwarden", "api", [("ADMIN_TOKEN", lambda: b64b(48))])
V("unifi-controller-password", "UniFi Network", "api", [("UNIFI_USER", "admin"), ("UNIFI_PASS", strong_pw)])
V("synology-dsm-password", "Synology DSM", "api", [("SYNO_USERNAME", lambda: pick(["backupuser", "admin2", "media"])), ("SYNO_PASSWORD", human_pw)])
V("snmp-community-string", "SNMP v2c", "api", [("SNMP_COMMUNITY", lambda: pick(["n0c-", "mon_", "ro-"]) + an(12))])
V("radius-shared-secret", "RADIUS", "api", [("RADIUS_SECRET", lambda: url_pw(20))])
V("ipsec-preshared-key", "IPsec VPN", "api", [("IPSEC_PSK", lambda: strong_pw(28))])

# ---- databases, brokers, connection strings ---------------------------
V("postgres-url", "PostgreSQL", "url", [("DATABASE_URL", lambda: f"postgresql://{dbuser()}:{url_pw()}@{dbhost('pg')}:5432/{dbname()}" + pick(["", "?sslmode=require", "?sslmode=verify-full"]))])
V("mysql-url", "MySQL", "url", [("DATABASE_URL", lambda: f"mysql://{dbuser()}:{url_pw()}@{dbhost('my')}:3306/{dbname()}")])
V("sqlalchemy-url", "SQLAlchemy", "url", [("SQLALCHEMY_DATABASE_URI", lambda: f"{pick(['mysql+pymysql', 'postgresql+psycopg2', 'mssql+pyodbc'])}://{dbuser()}:{url_pw()}@{host(('db', 'sql', 'warehouse'))}/{dbname()}")])
V("mongodb-srv-url", "MongoDB Atlas", "url", [("MONGODB_URI", lambda: f"mongodb+srv://{dbuser()}:{url_pw()}@cluster0.{anl(5)}.mongodb.net/{dbname()}?retryWrites=true&w=majority")])
V("mongodb-replica-url", "MongoDB", "url", [("MONGO_URL", lambda: f"mongodb://{dbuser()}:{url_pw()}@mongo-0.{org()}:27017,mongo-1.{org()}:27017/{dbname()}?replicaSet=rs0&authSource=admin")])
V("redis-url", "Redis", "url", [("REDIS_URL", lambda: pick([f"redis://default:{url_pw()}@{host(('redis', 'cache'))}:6379/0", f"rediss://:{url_pw()}@{host(('redis', 'cache'))}:6380"]))])
V("upstash-redis-url", "Upstash Redis", "url", [("REDIS_URL", lambda: f"rediss://default:{rs(AN, 34)}@{pick(['fine', 'sweet', 'noble'])}-{pick(['gecko', 'mole', 'wren'])}-{dz(5)}.upstash.io:6379")])
V("amqp-url", "RabbitMQ", "url", [("AMQP_URL", lambda: f"amqps://{pick(['worker', 'svc', 'celery'])}:{url_pw()}@{host(('mq', 'rabbit'))}/{pick(['prod', '%2F', 'jobs'])}")])
V("celery-broker-url", "Celery", "url", [("CELERY_BROKER_URL", lambda: f"amqp://celery:{url_pw()}@rabbitmq:5672//")])
V("mssql-connection-string", "SQL Server", "url", [("ConnectionStrings__Default", lambda: f"Server=tcp:{slugname()}-sql.database.windows.net,1433;Initial Catalog={dbname()};Persist Security Info=False;User ID={dbuser()};Password={strong_pw()};MultipleActiveResultSets=False;Encrypt=True;TrustServerCertificate=False;Connection Timeout=30;")])
V("oracle-connect-string", "Oracle Database", "url", [("ORACLE_CONN", lambda: f"{pick(['HR', 'APPS', 'SCOTT_RO', 'ETL'])}/{url_pw()}@//{host(('ora', 'db'))}:1521/ORCLPDB1")])
V("jdbc-postgres-url", "JDBC", "url", [("spring.datasource.url", lambda: f"jdbc:postgresql://{dbhost('pg')}:5432/{dbname()}?user={dbuser()}&password={url_pw()}&ssl=true")])
V("jdbc-mariadb-url", "JDBC", "url", [("JDBC_URL", lambda: f"jdbc:mariadb://{host(('maria', 'db'))}:3306/{dbname()}?user={dbuser()}&password={url_pw()}")])
V("clickhouse-url", "ClickHouse", "url", [("CLICKHOUSE_URL", lambda: f"clickhouse://default:{url_pw()}@{anl(10)}.eu-central-1.aws.clickhouse.cloud:9440/default?secure=true")])
V("elasticsearch-url", "Elasticsearch", "url", [("ELASTICSEARCH_URL", lambda: f"https://elastic:{url_pw()}@{host(('es', 'search', 'logs'))}:9200")])
V("couchdb-url", "CouchDB", "url", [("COUCHDB_URL", lambda: f"http://admin:{url_pw()}@couchdb.{org()}:5984")])
V("neo4j-credentials", "Neo4j AuraDB", "api", [("NEO4J_URI", lambda: f"neo4j+s://{hx(8)}.databases.neo4j.io"), ("NEO4J_USERNAME", "neo4j"), ("NEO4J_PASSWORD", P("", B64U, 43))])
V("cassandra-credentials", "Apache Cassandra", "api", [("CASSANDRA_CONTACT_POINTS", lambda: "10.0.4.11,10.0.4.12"), ("CASSANDRA_USERNAME", "app_rw"), ("CASSANDRA_PASSWORD", strong_pw)])
V("ldap-bind-password", "LDAP", "api", [("LDAP_URL", lambda: f"ldaps://ldap.{org()}:636"), ("LDAP_BIND_DN", lambda: f"cn=svc-{pick(['gitlab', 'jenkins', 'nextcloud'])},ou=services,dc={slugname()},dc=com"), ("LDAP_BIND_PASSWORD", strong_pw)])
V("smtp-url", "SMTP relay", "url", [("EMAIL_URL", lambda: f"smtp://{urllib.parse.quote(email(True))}:{url_pw()}@smtp.{pick(['office365.com', 'gmail.com', 'mailgun.org', 'sendgrid.net'])}:587")])
V("smtp-credentials", "SMTP", "api", [("SMTP_HOST", lambda: "smtp." + org()), ("SMTP_USER", lambda: email(True)), ("SMTP_PASSWORD", human_pw)])
V("ftp-url", "FTP", "url", [("FTP_URL", lambda: f"ftp://{pick(['upload', 'web', 'deploy'])}:{url_pw()}@ftp.{org()}/public_html")])
V("sftp-credentials", "SFTP", "api", [("SFTP_HOST", lambda: "sftp." + org()), ("SFTP_USER", lambda: pick(["partner_feed", "edi", "backup"])), ("SFTP_PASSWORD", strong_pw)])
V("kafka-sasl-jaas", "Apache Kafka", "url", [("sasl.jaas.config", lambda: f'org.apache.kafka.common.security.plain.PlainLoginModule required username="{anu(16)}" password="{rs(AN + "+/", 64)}";')])
V("nats-nkey-seed", "NATS", "api", [("NATS_NKEY_SEED", P("SUA", B32, 55))])
V("prisma-accelerate-url", "Prisma Accelerate", "url", [("DATABASE_URL", lambda: "prisma://accelerate.prisma-data.net/?api_key=" + jwt({"api_key": uid(), "tenant_id": hx(64), "internal_secret": uid()}))])
V("neon-connection-url", "Neon", "url", [("DATABASE_URL", lambda: f"postgresql://{dbuser()}:{pick(['npg_', ''])}{an(12)}@ep-{pick(['cool', 'rapid', 'misty'])}-{pick(['river', 'leaf', 'sun'])}-{anl(8)}.eu-central-1.aws.neon.tech/neondb?sslmode=require")])
V("supabase-db-url", "Supabase", "url", [("DATABASE_URL", lambda: f"postgresql://postgres.{anl(20)}:{url_pw()}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres")])
V("cockroach-url", "CockroachDB Cloud", "url", [("COCKROACH_URL", lambda: f"postgresql://{dbuser()}:{an(22)}@{pick(['free-tier', 'prod'])}.{anl(4)}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full")])
V("planetscale-url", "PlanetScale", "url", [("DATABASE_URL", lambda: f"mysql://{anl(12)}:pscale_pw_{rs(B64U, 43)}@aws.connect.psdb.cloud/{dbname()}?sslaccept=strict")])
V("aiven-postgres-url", "Aiven", "url", [("DATABASE_URL", lambda: f"postgres://avnadmin:AVNS_{an(19)}@pg-{anl(8)}-{slugname()}.aivencloud.com:{R.randint(10000, 29999)}/defaultdb?sslmode=require")])
V("turso-libsql-url", "Turso", "url", [("LIBSQL_URL", lambda: f"libsql://{dbname()}-{slugname()}.turso.io?authToken=" + jwt({"a": "rw", "iat": epoch(), "id": uid()}, "EdDSA", 64))])
V("mongodb-atlas-data-api-key", "MongoDB Atlas Data API", "api", [("ATLAS_DATA_API_KEY", P("", AN, 64))], "data.mongodb-api.com", "hdr:api-key", "/app/data-abcde/endpoint/data/v1/action/find")
V("influxdb-v1-url", "InfluxDB 1.x", "url", [("INFLUX_URL", lambda: f"https://telegraf:{url_pw()}@influx.{org()}:8086/telegraf")])
V("k3s-cluster-token", "k3s", "api", [("K3S_TOKEN", lambda: f"K10{hx(64)}::server:{hx(32)}")])
V("kubeadm-join-token", "Kubernetes", "api", [("KUBEADM_JOIN", lambda: f"kubeadm join 10.0.0.10:6443 --token {anl(6)}.{anl(16)} --discovery-token-ca-cert-hash sha256:{hx(64)}")])
V("docker-swarm-join-token", "Docker Swarm", "api", [("SWARM_JOIN_TOKEN", lambda: f"SWMTKN-1-{anl(50)}-{anl(25)}")])
V("consul-acl-token", "Consul", "api", [("CONSUL_HTTP_TOKEN", uid)], "consul.service.consul:8500", "hdr:X-Consul-Token", "/v1/kv/config?recurse")
V("nomad-acl-token", "Nomad", "api", [("NOMAD_TOKEN", uid)], "nomad.service.consul:4646", "hdr:X-Nomad-Token", "/v1/jobs")
V("consul-gossip-key", "Consul", "api", [("CONSUL_ENCRYPT", lambda: b64b(32))])
V("rancher-api-token", "Rancher", "api", [("RANCHER_TOKEN", lambda: f"token-{anl(5)}:{anl(54)}")], "rancher.internal", "bearer", "/v3/clusters")
V("k8s-encryption-key", "Kubernetes", "api", [("AESCBC_KEY", lambda: b64b(32))])
V("kubernetes-sa-token", "Kubernetes", "api", [("K8S_TOKEN", lambda: jwt({"aud": ["https://kubernetes.default.svc"], "exp": epoch(), "iat": epoch(), "iss": "https://kubernetes.default.svc", "kubernetes.io": {"namespace": "ci", "serviceaccount": {"name": "deployer", "uid": uid()}}, "sub": "system:serviceaccount:ci:deployer"}, "RS256", 128))], "k8s-api.internal:6443", "bearer", "/api/v1/namespaces/ci/pods")
V("openvpn-auth-credentials", "OpenVPN", "api", [("VPN_USERNAME", lambda: pick(FIRST).lower() + "." + pick(LAST).lower().replace("'", "")), ("VPN_PASSWORD", strong_pw)])

# ---- crypto wallets ------------------------------------------------------
V("bitcoin-wif-private-key", "Bitcoin", "api", [("BTC_WIF", lambda: pick(["K", "L"]) + rs(B58, 51))])
V("bitcoin-wif-uncompressed", "Bitcoin", "api", [("WALLET_IMPORT_KEY", lambda: "5" + pick("HJK") + rs(B58, 49))])
V("ethereum-private-key", "Ethereum", "api", [("PRIVATE_KEY", lambda: pick(["0x", ""]) + hx(64))])
V("bip32-xprv", "Bitcoin HD wallet", "api", [("XPRV", lambda: "xprv9s21ZrQH143K" + rs(B58, 95))])
V("hardhat-mnemonic", "Hardhat/Foundry", "api", [("MNEMONIC", seed_phrase)])
V("solana-private-key", "Solana", "api", [("SOLANA_PRIVATE_KEY", lambda: rs(B58, 88))])
V("tron-private-key", "TRON", "api", [("TRON_PRIVATE_KEY", lambda: hx(64))])
V("nostr-nsec", "Nostr", "api", [("NOSTR_NSEC", lambda: "nsec1" + bech(58))])
V("lightning-admin-macaroon", "LND", "api", [("LND_MACAROON_HEX", lambda: "0201036c6e6402f801030a10" + hx(150))])
V("lnbits-admin-key", "LNbits", "api", [("LNBITS_ADMIN_KEY", lambda: hx(32))], "legend.lnbits.com", "hdr:X-Api-Key", "/api/v1/payments")
V("electrum-wallet-password", "Electrum", "api", [("ELECTRUM_WALLET_PASSWORD", human_pw)])
def _otpauth():
    iss = pick(['GitHub', 'AWS', 'Okta', 'Proton', 'Binance', 'Dropbox', 'Discord'])
    return f"otpauth://totp/{iss}:{urllib.parse.quote(email())}?secret={rs(B32, 32)}&issuer={iss}"


V("totp-seed-uri", "TOTP authenticator", "url", [("OTPAUTH_URI", _otpauth)])
V("totp-shared-secret", "TOTP authenticator", "api", [("TOTP_SECRET", lambda: " ".join(rs(B32, 4).lower() for _ in range(8)))])

# ---- private keys ---------------------------------------------------------
V("ec-private-key", "TLS", "pem", [("TLS_KEY", ec_key_pem)])
V("pkcs8-ed25519-private-key", "PKCS#8", "pem", [("SIGNING_KEY", pkcs8_ed25519_pem)])
V("openssh-private-key", "OpenSSH", "pem", [("DEPLOY_SSH_KEY", lambda: ssh_ed25519_pair(pick(["deploy@ci", "root@build-01", "jonas@laptop", "github-actions"]))[0])])
V("rsa-private-key", "RSA", "pem", [("DKIM_PRIVATE_KEY", lambda: rsa_key_pem(1024))])
V("pgp-private-key-block", "OpenPGP", "pem", [("GPG_PRIVATE_KEY", lambda: pgp_block(True))])
V("age-secret-key", "age", "api", [("SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + bech(58).upper())])
V("wireguard-private-key", "WireGuard", "api", [("WG_PRIVATE_KEY", wg_key)])
V("putty-private-key", "PuTTY", "pem", [("PPK", lambda: "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-" + date_iso().replace("-", "") + "\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI" + b64b(24) + "\n" + b64b(6) + "\nPrivate-Lines: 1\nAAAAI" + b64b(33)[:43] + "\nPrivate-MAC: " + hx(64))])
V("tor-onion-service-key", "Tor", "api", [("HS_KEY", lambda: "ED25519-V3:" + b64b(64))])
V("minisign-secret-key", "minisign", "pem", [("MINISIGN_KEY", lambda: "untrusted comment: minisign encrypted secret key\nRWRTY0Iy" + b64b(150)[:200])])
V("cosign-private-key", "Sigstore cosign", "pem", [("COSIGN_PRIVATE_KEY", lambda: pem("ENCRYPTED SIGSTORE PRIVATE KEY", b'{"kdf":{"name":"scrypt","params":{"N":65536,"r":8,"p":1},"salt":"' + base64.b64encode(rbytes(32)) + b'"},"cipher":{"name":"nacl/secretbox","nonce":"' + base64.b64encode(rbytes(24)) + b'"},"ciphertext":"' + base64.b64encode(rbytes(72)) + b'"}')), ("COSIGN_PASSWORD", strong_pw)])
V("openvpn-static-key", "OpenVPN", "pem", [("TLS_AUTH_KEY", lambda: "-----BEGIN OpenVPN Static key V1-----\n" + "\n".join(hx(32) for _ in range(16)) + "\n-----END OpenVPN Static key V1-----")])

# ---- application signing / framework secrets -----------------------------
V("jwt-signing-secret", "JWT", "api", [("JWT_SECRET", lambda: pick([hx(64), b64b(48), strong_pw(32)]))])
V("django-secret-key", "Django", "api", [("DJANGO_SECRET_KEY", lambda: pick(["", "django-insecure-"]) + rs(LO + DG + "!@#$%^&*(-_=+)", 50))])
V("rails-master-key", "Ruby on Rails", "api", [("RAILS_MASTER_KEY", lambda: hx(32))])
V("rails-secret-key-base", "Ruby on Rails", "api", [("SECRET_KEY_BASE", lambda: hx(128))])
V("laravel-app-key", "Laravel", "api", [("APP_KEY", lambda: "base64:" + b64b(32))])
V("flask-secret-key", "Flask", "api", [("FLASK_SECRET_KEY", lambda: hx(64))])
V("nextauth-secret", "NextAuth.js", "api", [("NEXTAUTH_SECRET", lambda: b64b(32))])
V("phoenix-secret-key-base", "Phoenix", "api", [("SECRET_KEY_BASE", lambda: rs(B64A, 64))])
V("symfony-app-secret", "Symfony", "api", [("APP_SECRET", lambda: hx(32))])
V("express-session-secret", "Express", "api", [("SESSION_SECRET", lambda: url_pw(32))])
V("aes-encryption-key", "AES", "api", [("DATA_ENCRYPTION_KEY", lambda: b64b(32))])
V("hmac-signing-key", "HMAC", "api", [("WEBHOOK_SIGNING_KEY", lambda: hx(64))])
V("jasypt-encryptor-password", "Jasypt", "api", [("JASYPT_ENCRYPTOR_PASSWORD", strong_pw)])
V("grafana-admin-password", "Grafana", "api", [("GF_SECURITY_ADMIN_PASSWORD", strong_pw)])
V("keycloak-admin-password", "Keycloak", "api", [("KEYCLOAK_ADMIN", "admin"), ("KEYCLOAK_ADMIN_PASSWORD", strong_pw)])
V("postgres-superuser-password", "PostgreSQL (Docker)", "api", [("POSTGRES_USER", "postgres"), ("POSTGRES_PASSWORD", url_pw)])
V("mysql-root-password", "MySQL (Docker)", "api", [("MYSQL_ROOT_PASSWORD", strong_pw)])
V("rabbitmq-default-pass", "RabbitMQ (Docker)", "api", [("RABBITMQ_DEFAULT_USER", "admin"), ("RABBITMQ_DEFAULT_PASS", url_pw)])
V("wifi-psk-config", "wpa_supplicant", "api", [("WIFI_SSID", lambda: pick(["Lab-5G", "Office-IoT", "FRITZ!Box 7590 XY"])), ("WIFI_PSK", human_pw)])
V("airflow-fernet-key", "Apache Airflow", "api", [("AIRFLOW__CORE__FERNET_KEY", lambda: base64.urlsafe_b64encode(rbytes(32)).decode())])
V("n8n-encryption-key", "n8n", "api", [("N8N_ENCRYPTION_KEY", lambda: an(32))])
V("sentry-relay-secret", "Sentry self-hosted", "api", [("SENTRY_SECRET_KEY", lambda: rs(LO + DG + "!@#%^&*(-_=+)", 50))])
V("gitlab-root-password", "GitLab (Omnibus)", "api", [("GITLAB_ROOT_PASSWORD", strong_pw)])
V("drone-rpc-secret", "Drone CI", "api", [("DRONE_RPC_SECRET", lambda: hx(32))])
V("woodpecker-agent-secret", "Woodpecker CI", "api", [("WOODPECKER_AGENT_SECRET", lambda: hx(64))])
V("minio-kms-secret-key", "MinIO KMS", "api", [("MINIO_KMS_SECRET_KEY", lambda: "minio-kms:" + b64b(32))])
V("sops-age-recipient-key", "SOPS", "api", [("SOPS_AGE_KEY_FILE_CONTENT", lambda: "# created: " + date_iso() + "T10:00:00Z\n# public key: age1" + bech(58) + "\nAGE-SECRET-KEY-1" + bech(58).upper())])

# ---- session cookies & browser tokens -------------------------------------
V("express-session-cookie", "Express", "cookie", [("connect.sid", lambda: "s%3A" + rs(B64U, 32) + "." + urllib.parse.quote(b64b(32).rstrip("="), safe=""))], "app.acme-corp.net")
V("php-session-cookie", "PHP", "cookie", [("PHPSESSID", P("", ANL, 26))], "shop.acme-corp.net")
V("java-session-cookie", "Java Servlet", "cookie", [("JSESSIONID", lambda: HX(32) + pick(["", ".node0", ".worker1"]))], "intranet.acme-corp.net")
V("aspnet-session-cookie", "ASP.NET", "cookie", [("ASP.NET_SessionId", P("", LO + "012345", 24))], "portal.acme-corp.net")
V("aspnetcore-auth-cookie", "ASP.NET Core Identity", "cookie", [(".AspNetCore.Identity.Application", lambda: "CfDJ8" + rs(B64U, 180))], "admin.acme-corp.net")
V("django-session-cookie", "Django", "cookie", [("sessionid", P("", ANL, 32))], "cms.acme-corp.net")
V("rails-session-cookie", "Ruby on Rails", "cookie", [("_app_session", lambda: urllib.parse.quote(b64b(90)) + "--" + urllib.parse.quote(b64b(12)) + "--" + urllib.parse.quote(b64b(16)))], "app.acme-corp.net")
V("laravel-session-cookie", "Laravel", "cookie", [("laravel_session", lambda: urllib.parse.quote(base64.b64encode(json.dumps({"iv": b64b(16), "value": b64b(96), "mac": hx(64), "tag": ""}, separators=(",", ":")).encode()).decode()))], "shop.acme-corp.net")
V("nextauth-session-cookie", "NextAuth.js", "cookie", [("__Secure-next-auth.session-token", lambda: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + b64u(12) + "." + b64u(140) + "." + b64u(16))], "app.acme-corp.net")
V("wordpress-auth-cookie", "WordPress", "cookie", [("wordpress_logged_in_" + "%s", lambda: f"admin%7C{epoch()}%7C{an(43)}%7C{hx(64)}")], "blog.acme-corp.net")
V("github-user-session-cookie", "GitHub", "cookie", [("user_session", P("", B64U, 48))], "github.com")
V("linkedin-li-at-cookie", "LinkedIn", "cookie", [("li_at", lambda: "AQEDA" + rs(B64U, 150))], "www.linkedin.com")
V("instagram-session-cookie", "Instagram", "cookie", [("sessionid", lambda: f"{dz(11)}%3A{an(14)}%3A{R.randint(1, 28)}%3AAY{rs(B64U, 40)}")], "www.instagram.com")
V("facebook-session-cookies", "Facebook", "cookie", [("c_user", lambda: "1000" + dz(11)), ("xs", lambda: f"{R.randint(1, 48)}%3A{rs(B64U, 14)}%3A2%3A{epoch()}%3A-1%3A{dz(5)}")], "www.facebook.com")
V("reddit-session-cookie", "Reddit", "cookie", [("reddit_session", lambda: jwt({"sub": "t2_" + anl(8), "exp": epoch(), "iat": epoch(), "jti": rs(B64U, 22), "cid": "na", "lid": "t2_" + anl(8), "aid": "t2_" + anl(8), "lca": epoch() * 1000, "scp": "eJyKjgUEAAD__wEVALk", "flo": 2}, "RS256", 64))], "www.reddit.com")
V("amazon-session-cookies", "Amazon", "cookie", [("session-id", lambda: f"{dz(3)}-{dz(7)}-{dz(7)}"), ("at-main", lambda: "Atza|IwEBI" + rs(B64U, 120))], "www.amazon.de")
V("jupyter-server-token-url", "Jupyter", "url", [("JUPYTER_URL", lambda: f"http://127.0.0.1:8888/lab?token={hx(48)}")])
V("grafana-session-cookie", "Grafana", "cookie", [("grafana_session", lambda: hx(32))], "grafana.internal")
V("gitlab-session-cookie", "GitLab", "cookie", [("_gitlab_session", lambda: hx(32))], "gitlab.acme-corp.net")
V("discord-user-token", "Discord", "api", [("DISCORD_USER_TOKEN", lambda: "MT" + rs(B64U, 24) + "." + rs(B64U, 6) + "." + rs(B64U, 38))])
V("steam-login-secure-cookie", "Steam", "cookie", [("steamLoginSecure", lambda: "7656119" + dz(10) + "%7C%7C" + jwt({"iss": "r:" + HX(16), "sub": "7656119" + dz(10), "aud": ["web", "renew", "derive"], "exp": epoch(), "nbf": epoch(), "iat": epoch(), "jti": HX(16), "oat": epoch(), "rt_exp": epoch(), "per": 0, "ip_subject": "203.0.113.45", "ip_confirmer": "203.0.113.45"}, "EdDSA", 64))], "store.steampowered.com")

# ---- whole credential documents (object values) ---------------------------
def gcp_sa_json():
    proj = f"{slugname()}-{pick(['prod', 'data', 'ml', 'infra'])}-{dz(6)}"
    name = pick(["terraform", "bq-loader", "github-actions", "backup-writer"])
    return {"type": "service_account", "project_id": proj, "private_key_id": hx(40),
            "private_key": pkcs8_ed25519_pem().replace("PRIVATE KEY", "PRIVATE KEY") + "\n",
            "client_email": f"{name}@{proj}.iam.gserviceaccount.com", "client_id": dz(21),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token"}


def docker_config_json():
    u = pick(["ci-bot", "deploy", pick(FIRST).lower()])
    reg = pick(["https://index.docker.io/v1/", "ghcr.io", "registry.gitlab.com", f"{dz(12)}.dkr.ecr.eu-west-1.amazonaws.com"])
    return {"auths": {reg: {"auth": base64.b64encode(f"{u}:{pick([url_pw(24), 'dckr_pat_' + rs(B64U, 27), 'ghp_' + an(36)])}".encode()).decode()}}}


def solana_keypair_json():
    return [R.randint(0, 255) for _ in range(64)]


def eth_keystore_with_password():
    return {"wallet": "keystore/UTC--" + date_iso() + "T10-11-12.123Z--" + hx(40),
            "password": human_pw(),
            "crypto": {"cipher": "aes-128-ctr", "ciphertext": hx(64), "cipherparams": {"iv": hx(32)},
                       "kdf": "scrypt", "kdfparams": {"dklen": 32, "n": 262144, "p": 1, "r": 8, "salt": hx(64)}, "mac": hx(64)}}


def jwk_private():
    return {"kty": "EC", "crv": "P-256", "kid": hx(8), "use": "sig", "x": b64u(32), "y": b64u(32), "d": b64u(32)}


def aws_credentials_file():
    return {"path": "~/.aws/credentials", "profile": pick(["default", "prod", "billing-admin"]),
            "aws_access_key_id": "AKIA" + rs(B32, 16), "aws_secret_access_key": aws_secret()}


def kubeconfig_obj():
    return {"apiVersion": "v1", "kind": "Config", "current-context": "prod",
            "clusters": [{"name": "prod", "cluster": {"server": f"https://{anl(8)}.gr7.eu-west-1.eks.amazonaws.com"}}],
            "users": [{"name": "ci", "user": {"token": f"{anl(6)}.{anl(16)}"}}]}


def firebase_admin_json():
    d = gcp_sa_json()
    d["client_email"] = "firebase-adminsdk-" + anl(5) + "@" + d["project_id"] + ".iam.gserviceaccount.com"
    return d


V("gcp-service-account-json", "Google Cloud", "blob", [("credentials.json", gcp_sa_json)])
V("firebase-admin-sdk-json", "Firebase", "blob", [("serviceAccountKey.json", firebase_admin_json)])
V("solana-keypair-array", "Solana", "blob", [("id.json", solana_keypair_json)])
V("ethereum-keystore-with-password", "Ethereum", "blob", [("keystore", eth_keystore_with_password)])
V("jwk-private-key", "JOSE", "blob", [("jwk.json", jwk_private)])
V("aws-credentials-file", "AWS", "blob", [("credentials", aws_credentials_file)])
V("kubeconfig-bootstrap-token", "Kubernetes", "blob", [("kubeconfig", kubeconfig_obj)])


# ---------------------------------------------------------------------------
# containers for vendor credentials
# ---------------------------------------------------------------------------
NONSECRET_HINTS = ("REGION", "HOST", "_URL", "ENDPOINT", "USER", "EMAIL", "DOMAIN", "CLUSTER", "_ENV",
                   "TRACING", "ALIAS", "SITE", "ACCOUNT", "PHONE", "PROJECT_ID", "APP_ID", "CLIENT_ID",
                   "TENANT", "KEY_ID", "_ID", "SSID", "CONTACT", "BIND_DN", "LOGIN", "HANDLE", "PUBLIC",
                   "SERVICE_ACCOUNT", "ISSUER", "URI", "ACCOUNT_ID", "CONSUMER_KEY", "TEAM", "ADMIN\"")


def is_nonsecret(name, spec):
    u = name.upper()
    if spec["cat"] == "url":
        return False
    if u in ("KEYCLOAK_ADMIN", "POSTGRES_USER", "RABBITMQ_DEFAULT_USER", "UNIFI_USER", "KEY_ALIAS", "DISCOURSE_API_USERNAME"):
        return True
    if u in ("HOST",):
        return True
    return any(h in u for h in NONSECRET_HINTS) and "SECRET" not in u and "TOKEN" not in u and "PASSWORD" not in u and u not in ("TRIGGER_TOKEN",)


def primary(spec, pairs):
    for name, val in reversed(pairs):
        if not is_nonsecret(name, spec):
            return name, val
    return pairs[-1]


def ident(spec, pairs):
    for name, val in pairs:
        if is_nonsecret(name, spec):
            return val
    return None


FILL_ENV = ["NODE_ENV=production", "LOG_LEVEL=info", "PORT=8080", "APP_NAME=orders-api", "TZ=Europe/Berlin",
            "FEATURE_NEW_CHECKOUT=false", "WORKERS=4", "SENTRY_ENVIRONMENT=staging", "DEBUG=false",
            "CACHE_TTL=300", "HTTP_TIMEOUT_MS=5000", "ALLOWED_HOSTS=.acme-corp.net", "PYTHONUNBUFFERED=1",
            "RETRY_MAX=3", "APP_ENV=prod", "METRICS_PORT=9102", "RATE_LIMIT_RPM=600", "LOCALE=en_GB"]
ENV_COMMENTS = ["# prod - do not commit", "# copied from the old server", "# staging", "# TODO rotate after launch",
                "# added by {a} on {d}", "# shared account, ask {a} before changing", "# integration creds",
                "# --- third party ---", "# new key (old one revoked {d})", "# local dev overrides"]


def envc():
    return fill(pick(ENV_COMMENTS), a=pick(FIRST), d=date_iso())


def slug(vendor):
    s = "".join(c.lower() if c.isalnum() else "_" for c in vendor)
    while "__" in s:
        s = s.replace("__", "_")
    return s.strip("_")[:20]


def kv_lines(pairs, sep="=", quote=False, prefix=""):
    out = []
    for n, v in pairs:
        q = '"' if (quote or " " in v or "\n" in v) else ""
        out.append(f"{prefix}{n}{sep}{q}{v}{q}")
    return out


def short_key(name, vendor):
    k = name.lower()
    vs = slug(vendor).split("_")[0]
    if k.startswith(vs + "_") and len(k) > len(vs) + 3:
        k = k[len(vs) + 1:]
    return k.replace(".", "_").replace("/", "_").replace(":", "_").replace("~", "home").strip("_") or "key"


def yaml_scalar(v):
    if "\n" in v:
        return "|\n" + "\n".join("    " + ln for ln in v.split("\n"))
    if any(c in v for c in ":#{}[]&*!|>'%@`,") or v[:1] in "-?" or v.isdigit():
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return v


def auth_parts(spec, pairs):
    """Return (header_name, header_value) or ('query', param, value) or ('basic', user, pw)."""
    a = spec["auth"]
    _, sec = primary(spec, pairs)
    if a == "bearer":
        return ("hdr", "Authorization", "Bearer " + sec)
    if a == "token":
        return ("hdr", "Authorization", "token " + sec)
    if a.startswith("hdr:"):
        rest = a[4:]
        if ": " in rest:
            h, pre = rest.split(": ", 1)
            return ("hdr", h, pre + ("" if pre.endswith("=") else " ") + sec)
        return ("hdr", rest, sec)
    if a.startswith("query:"):
        return ("query", a[6:], sec)
    if a == "basic":
        return ("basic", ident(spec, pairs) or "api", sec)
    if a == "basic1":
        return ("basic", sec, "")
    if a == "basic-api":
        return ("basic", "api", sec)
    if a == "basic-any":
        return ("basic", "anystring", sec)
    if a == "basic-x":
        return ("basic", sec, "X")
    if a == "basic-togg":
        return ("basic", sec, "api_token")
    return None


def full_url(spec, ap=None):
    h = spec["host"]
    path = spec["path"]
    url = f"https://{h}{path}" if not h.endswith((".lan", ".local")) and "lan:" not in h and ".local:" not in h else f"http://{h}{path}"
    if ap and ap[0] == "query":
        url += ("&" if "?" in url else "?") + f"{ap[1]}={ap[2]}"
    return url


def c_curl(spec, pairs):
    if spec["auth"] == "url":
        _, u = pairs[0]
        body = pick(['{"text":"deploy finished :white_check_mark:"}', '{"content":"backup ok"}',
                     '{"msg":"disk 91% on nas"}', '{"value1":"front door"}', '{"text":"nightly ETL failed, see logs"}'])
        return pick([f"curl -X POST -H 'Content-Type: application/json' -d '{body}' {u}",
                     f"curl -s -d '{body}' -H \"Content-Type: application/json\" \"{u}\"",
                     f"# test the hook\ncurl --fail -X POST --data '{body}' {u}"])
    ap = auth_parts(spec, pairs)
    method = pick(["", "-X POST ", "-X GET "]) if "/send" not in spec["path"] else "-X POST "
    if ap[0] == "hdr":
        ex = pick(["", " -H 'Accept: application/json'", " -H \"Content-Type: application/json\"", " -H 'anthropic-version: 2023-06-01'" if "anthropic" in spec["kind"] else ""])
        cmd = f"curl -s {method}\"{full_url(spec)}\" -H \"{ap[1]}: {ap[2]}\"{ex}"
    elif ap[0] == "query":
        cmd = f"curl -s \"{full_url(spec, ap)}\""
    else:
        cmd = f"curl -s {method}-u '{ap[1]}:{ap[2]}' {full_url(spec)}"
    lead = pick(["", "$ ", "# works from the bastion:\n", "this one returns 200 for me:\n", f"# {spec['vendor']} smoke test\n"])
    tail = pick(["", " | jq .", " | jq '.data | length'", " -o out.json", " -w '%{http_code}\\n'"])
    return lead + cmd + tail


def c_http(spec, pairs):
    if spec["cat"] == "cookie":
        ck = "; ".join(f"{n}={v}" for n, v in pairs)
        return (f"{pick(['GET', 'POST'])} {pick(['/account', '/api/v1/me', '/dashboard', '/settings/profile', '/cart'])} HTTP/1.1\nHost: {spec['host']}\n"
                f"User-Agent: Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0\nAccept: text/html,application/json\nCookie: {pick(['_ga=GA1.2.' + dz(9) + '.' + dz(10) + '; ', 'lang=en; ', ''])}{ck}")
    ap = auth_parts(spec, pairs)
    url = urllib.parse.urlparse(full_url(spec, ap))
    lines = [f"{pick(['GET', 'POST'])} {url.path}{'?' + url.query if url.query else ''} HTTP/1.1", f"Host: {url.netloc}"]
    if ap[0] == "hdr":
        lines.append(f"{ap[1]}: {ap[2]}")
    elif ap[0] == "basic":
        lines.append("Authorization: Basic " + base64.b64encode(f"{ap[1]}:{ap[2]}".encode()).decode())
    lines += pick([["Content-Type: application/json", "Accept: */*"], ["User-Agent: python-requests/2.32.3", "Accept-Encoding: gzip, deflate"], ["User-Agent: PostmanRuntime/7.39.0", "Cache-Control: no-cache"]])
    return pick(["", "captured with mitmproxy:\n", "raw request from the failing job:\n"]) + "\n".join(lines)


def c_env(spec, pairs):
    lines = kv_lines(pairs, quote=chance(0.3), prefix="export " if chance(0.2) else "")
    if spec["cat"] == "pem":
        lines = []
        for n, v in pairs:
            if "\n" in v:
                lines.append(f'{n}="{v}"' if chance(0.5) else f'{n}="' + v.replace("\n", "\\n") + '"')
            else:
                lines.append(f"{n}={v}")
    fill_ = R.sample(FILL_ENV, R.randint(1, 4))
    body = fill_[:1] + [envc()] + lines + fill_[1:]
    return "\n".join(body)


def c_yaml(spec, pairs):
    sec = slug(spec["vendor"])
    inner = "\n".join(f"  {short_key(n, spec['vendor'])}: {yaml_scalar(v)}" for n, v in pairs)
    head = pick(["", "# config/production.yml\n", "# values copied from vault\n", ""])
    extra = pick(["\n  timeout: 30", "\n  enabled: true", "\n  retries: 3", ""])
    top = pick([f"{sec}:\n", f"integrations:\n  {sec}:\n"])
    if top.startswith("integrations"):
        inner = "\n".join("  " + ln for ln in inner.split("\n"))
        extra = extra.replace("\n  ", "\n    ")
    return head + top + inner + extra


def c_json(spec, pairs):
    d = {short_key(n, spec["vendor"]): v for n, v in pairs}
    shape = R.randrange(3)
    if shape == 0:
        return {slug(spec["vendor"]): d, "environment": pick(["production", "staging", "prod-eu"])}
    if shape == 1:
        out = {"service": spec["vendor"], "env": pick(["prod", "staging", "dev"])}
        out.update(d)
        return out
    return {"integrations": [{"name": spec["vendor"], "enabled": True, "config": d}], "updated": date_iso()}


def c_toml(spec, pairs):
    return f"[{slug(spec['vendor'])}]\n" + "\n".join(f'{short_key(n, spec["vendor"])} = "{v}"' for n, v in pairs) + pick(["", "\ntimeout_secs = 20", "\nenabled = true"])


def c_ini(spec, pairs):
    return pick(["", "; settings.ini\n"]) + f"[{slug(spec['vendor'])}]\n" + "\n".join(f"{short_key(n, spec['vendor'])} = {v}" for n, v in pairs)


def c_properties(spec, pairs):
    s = slug(spec["vendor"]).replace("_", "-")
    return pick(["# application-prod.properties\n", "", "server.port=8443\n"]) + "\n".join(
        f"{s}.{short_key(n, spec['vendor']).replace('_', '-')}={v}" for n, v in pairs)


def c_xml(spec, pairs):
    s = spec["vendor"].replace(" ", "")
    inner = "\n".join(f'    <add key="{s}:{camel(short_key(n, spec["vendor"]))}" value="{v}" />' for n, v in pairs)
    return f"<configuration>\n  <appSettings>\n{inner}\n  </appSettings>\n</configuration>"


def code_assign(lang, n, v):
    c = camel(n.replace(".", "_").replace("/", "_").replace(":", "_").replace("~", "home").strip("_"))
    u = c.upper() if lang != "python" else n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")
    if "\n" in v and lang in ("python",):
        return f'{u} = """{v}"""'
    if "\n" in v and lang in ("js", "ts"):
        return f"const {c} = `{v}`;"
    vv = v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("$", "\\$" if lang in ("kotlin", "php") else "$")
    return {
        "python": f'{u} = "{vv}"',
        "js": f'const {c} = "{vv}";',
        "ts": f'export const {c}: string = "{vv}";',
        "go": f'\t{c} = "{vv}"',
        "java": f'    private static final String {n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")} = "{vv}";',
        "csharp": f'    private const string {c[0].upper() + c[1:]} = "{vv}";',
        "ruby": f'{n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")} = "{vv}"',
        "php": f"${c} = '{vv}';",
        "rust": f'const {n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")}: &str = "{vv}";',
        "kotlin": f'    const val {n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")} = "{vv}"',
        "swift": f'    static let {c} = "{vv}"',
        "bash": f'export {n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")}="{vv}"',
        "powershell": f'$env:{n.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")} = "{vv}"',
    }[lang]


CODE_HEAD = {
    "python": ["import os\nimport requests\n", "# quick script, will move to env later\nimport httpx\n", "from dataclasses import dataclass\n", "# settings.py\n"],
    "js": ["// config.js\n", "import axios from 'axios';\n", "require('dotenv').config();\n"],
    "ts": ["// src/config/secrets.ts\n", "// TODO: read from env instead\n"],
    "go": ["package config\n\nconst (\n"],
    "java": ["package com.acme.integration;\n\npublic final class Credentials {\n"],
    "csharp": ["namespace Acme.Integrations;\n\npublic static class Secrets\n{\n"],
    "ruby": ["# config/initializers/third_party.rb\n", "require 'net/http'\n"],
    "php": ["<?php\n// config/services.php\n", "<?php\n"],
    "rust": ["// src/secrets.rs\n", ""],
    "kotlin": ["object ApiConfig {\n"],
    "swift": ["enum Secrets {\n"],
    "bash": ["#!/usr/bin/env bash\nset -euo pipefail\n", "#!/bin/sh\n"],
    "powershell": ["# deploy.ps1\n", ""],
}
CODE_TAIL = {
    "python": ["\nresp = requests.get(URL, headers=HEADERS, timeout=10)\n", "\nclient = Client(api_key={last})\n", "\n"],
    "js": ["\nmodule.exports = { {lastc} };", "\nexport default { {lastc} };", ""],
    "ts": ["", "\nexport const timeoutMs = 10_000;"],
    "go": [")\n"],
    "java": ["}\n"],
    "csharp": ["}\n"],
    "ruby": ["", "\nclient = ApiClient.new(token: {last})"],
    "php": ["", "\n$client = new \\GuzzleHttp\\Client(['timeout' => 5]);"],
    "rust": ["", "\nfn main() { println!(\"loaded\"); }"],
    "kotlin": ["}\n"],
    "swift": ["}\n"],
    "bash": ["\n./scripts/deploy.sh --env prod", "\npython manage.py runserver 0.0.0.0:8000", "\nterraform apply -auto-approve"],
    "powershell": ["\n.\\deploy.ps1 -Environment prod", ""],
}


def c_code(lang):
    def render(spec, pairs):
        body = "\n".join(code_assign(lang, n, v) for n, v in pairs)
        if lang == "go":
            body = body.replace("\t", "\t", 1)
        lastn = pairs[-1][0]
        last = lastn.upper().replace(".", "_").replace("/", "_").replace(":", "_").strip("_")
        lastc = camel(lastn.replace(".", "_").replace("/", "_").replace(":", "_").replace("~", "home").strip("_"))
        tail = fill(pick(CODE_TAIL[lang]), last=last, lastc=lastc)
        if lang == "python" and spec.get("host") and spec["auth"] and spec["auth"] != "url" and chance(0.7):
            ap = auth_parts(spec, pairs)
            sec_name = primary(spec, pairs)[0].upper().replace(".", "_").replace("/", "_").strip("_")
            if ap[0] == "hdr":
                pre = ap[2][:-len(primary(spec, pairs)[1])]
                tail = f'\nresp = requests.{pick(["get", "post"])}("{full_url(spec)}", headers={{"{ap[1]}": f"{pre}{{{sec_name}}}"}}, timeout=10)\nresp.raise_for_status()'
            elif ap[0] == "query":
                tail = f'\nr = requests.get("{full_url(spec)}", params={{"{ap[1]}": {sec_name}}})'
        if lang == "js" and spec.get("host") and spec["auth"] and spec["auth"] not in ("url",) and chance(0.5):
            ap = auth_parts(spec, pairs)
            if ap[0] == "hdr":
                tail = f'\nconst res = await fetch("{full_url(spec)}", {{ headers: {{ "{ap[1]}": "{ap[2]}" }} }});'
                body = "// quick test\n" if chance(0.5) else ""
        if tail and not tail.startswith("\n"):
            tail = "\n" + tail
        return pick(CODE_HEAD[lang]) + body + tail
    return render


def ppairs(pairs, style=None):
    style = style or R.randrange(4)
    if style == 0:
        return "\n".join(f"{n}={v}" for n, v in pairs)
    if style == 1:
        return "\n".join(f"- {n.lower().replace('_', ' ')}: {v}" for n, v in pairs)
    if style == 2:
        return " / ".join(f"{n}: {v}" for n, v in pairs)
    return "\n".join(f"{n} -> {v}" for n, v in pairs)


def c_log(spec, pairs):
    t = ts_iso()
    svc = pick(["orders-api", "worker", "billing", "notifier", "etl-runner", "gateway", "cron"])
    n, v = primary(spec, pairs)
    if spec["cat"] == "url":
        return pick([f"{t} INFO  [{svc}] connecting to {v}",
                     f"{t} level=debug service={svc} msg=\"loaded config\" {n}={v}",
                     f"[{t}] WARN {svc}: retry 3/5 posting to {v} (status=502)"])
    if spec["cat"] == "cookie":
        ck = "; ".join(f"{a}={b}" for a, b in pairs)
        return f"{t} DEBUG http.client send: b'GET /api/session HTTP/1.1\\r\\nHost: {spec['host']}\\r\\nCookie: {ck}\\r\\n'"
    style = R.randrange(4)
    if style == 0 and spec.get("host") and spec["auth"] not in (None, "url"):
        ap = auth_parts(spec, pairs)
        if ap[0] == "hdr":
            return f'{t} DEBUG [{svc}] outgoing request method=POST url={full_url(spec)} headers={{"{ap[1]}": "{ap[2]}", "Content-Type": "application/json"}}'
    if style == 1:
        return f"{t} INFO  {svc} | startup config: " + ", ".join(f"{a}={b}" for a, b in pairs) + " workers=4"
    if style == 2:
        return json.dumps({"ts": t, "level": "debug", "service": svc, "msg": "env loaded", "env": {a: b for a, b in pairs}}, ensure_ascii=False)
    return f"{t} ERROR [{svc}] auth failed using {n}={v}: 401 Unauthorized (will retry in 30s)"


def c_stack(spec, pairs):
    n, v = primary(spec, pairs)
    if chance(0.5):
        return (f"Traceback (most recent call last):\n  File \"/app/jobs/sync.py\", line {R.randint(20, 300)}, in run\n"
                f"    client = connect({n.lower().replace('.', '_')}={v!r})\n  File \"/app/lib/client.py\", line {R.randint(10, 90)}, in connect\n"
                f"    raise AuthError(\"rejected\")\nlib.client.AuthError: rejected")
    return (f"Exception in thread \"main\" java.lang.IllegalStateException: Failed to initialise {spec['vendor']} client with config {{"
            + ", ".join(f"{a}={b}" for a, b in pairs) + "}\n\tat com.acme.bootstrap.Clients.init(Clients.java:" + str(R.randint(40, 200)) + ")\n\tat com.acme.Main.main(Main.java:27)")


TICKET_TPL = [
    "{proj}-{num}: {vendor} integration returns 401 since {d}\nReporter: {a}\nPriority: High\n\nSteps to reproduce:\n1. set the creds below\n2. run the nightly sync\n\n{creds}\n\nExpected: 200. Actual: 401.",
    "Ticket #{num} - onboarding {b}\nPlease give {b} access to {vendor}. Credentials for the shared service account:\n{creds}\nClose the ticket once done.",
    "[{proj}-{num}] Migrate {vendor} to new account\nAssignee: {a}\nNotes: new credentials are\n{creds}\nOld ones stay valid until {d}.",
]
EMAIL_TPL = [
    "Subject: {vendor} credentials for staging\nFrom: {a} <{ea}>\nTo: {b} <{eb}>\n\nHi {b},\n\nas discussed, here are the {vendor} credentials:\n\n{creds}\n\nPlease don't forward this.\n\nBest,\n{a}",
    "From: {ea}\nSubject: Re: access for the contractor\n\n{b}, you can use these until we set up SSO:\n{creds}\n\nCheers",
    "Subject: handover notes\n\nHi all, I'm off from Monday. The {vendor} stuff lives on the jump host; in case it breaks, here are the creds:\n{creds}\n-- {a}",
]
CHAT_TPL = [
    "[{t1}] {a}: does anyone have the {vendor} creds for prod?\n[{t2}] {b}: {creds}\n[{t3}] {a}: thanks!",
    "{b}: pushing the {vendor} config now, here it is so you can test locally -> {creds}",
    "{a} ({t1}): ok new {vendor} key generated, old one revoked\n{creds}\n{a} ({t2}): update the CI secret pls",
    "#ops {t1} {b}: fyi the bot uses {creds} (don't paste in public channels lol)",
]
NOTE_TPL = [
    "{vendor} ({env})\n{creds}",
    "Work notes {d} - set up {vendor} for the side project.\n{creds}\nNext: wire it into the deploy pipeline.",
    "Remember: {vendor} account used by the home automation scripts\n{creds}",
    "TODO move to password manager!! {vendor}: {creds}",
    "Credentials for {vendor} (from {a}, {d}):\n{creds}",
]
FOREIGN_NOTE = {
    "de": ["Zugangsdaten {vendor} (Produktion), von {a} bekommen:\n{creds}", "Notiz {d}: {vendor} für das Projekt eingerichtet\n{creds}"],
    "fr": ["Identifiants {vendor} pour la prod, envoyés par {a} :\n{creds}", "Note du {d} – clé {vendor} du projet :\n{creds}"],
    "es": ["Credenciales de {vendor} (producción), me las pasó {a}:\n{creds}", "Apunte {d}: configurado {vendor}\n{creds}"],
    "pt": ["Credenciais do {vendor} em produção (passadas pelo {a}):\n{creds}"],
    "ja": ["{vendor} の本番用認証情報（{a}さんから）:\n{creds}", "メモ {d}: {vendor} を設定した\n{creds}"],
    "nl": ["Inloggegevens {vendor} productie (van {a}):\n{creds}"],
    "it": ["Credenziali {vendor} di produzione, me le ha mandate {a}:\n{creds}"],
    "pl": ["Dane dostępowe {vendor} (produkcja) od {a}:\n{creds}"],
}


def ctx():
    ts = sorted(hhmm() for _ in range(3))
    return dict(a=pick(FIRST), b=pick(FIRST), ea=email(True), eb=email(True), d=date_iso(), t1=ts[0], t2=ts[1],
                t3=ts[2], proj=pick(["OPS", "INFRA", "PLAT", "DATA", "SEC", "HELP"]), num=R.randint(100, 9999),
                env=pick(["prod", "staging", "dev", "sandbox account"]))


def c_ticket(spec, pairs):
    return fill(pick(TICKET_TPL), vendor=spec["vendor"], creds=ppairs(pairs), **ctx())


def c_email(spec, pairs):
    return fill(pick(EMAIL_TPL), vendor=spec["vendor"], creds=ppairs(pairs), **ctx())


def c_chat(spec, pairs):
    if spec["cat"] in ("pem",) or chance(0.25):
        c = ctx()
        msgs = [{"from": c["a"], "ts": c["t1"], "text": f"can you send me the {spec['vendor']} {pick(['key', 'creds', 'secret'])}?"},
                {"from": c["b"], "ts": c["t2"], "text": "```\n" + ppairs(pairs, 0) + "\n```"}]
        return msgs
    return fill(pick(CHAT_TPL), vendor=spec["vendor"], creds=ppairs(pairs, R.choice([0, 2, 3])), **ctx())


def c_note(spec, pairs):
    if chance(0.2):
        lang = pick(list(FOREIGN_NOTE))
        return fill(pick(FOREIGN_NOTE[lang]), vendor=spec["vendor"], creds=ppairs(pairs), **ctx()), lang
    return fill(pick(NOTE_TPL), vendor=spec["vendor"], creds=ppairs(pairs), **ctx())


def c_notebook(spec, pairs):
    src = [f"import {slug(spec['vendor']).split('_')[0]}\n"] + [f"{n.upper().replace('.', '_').replace('/', '_').strip('_')} = \"{v}\"\n" for n, v in pairs]
    return {"cell_type": "code", "execution_count": R.randint(1, 40), "metadata": {}, "source": src,
            "outputs": pick([[], [{"output_type": "stream", "name": "stdout", "text": ["ok\n"]}]])}


def c_docker(spec, pairs):
    base, run = pick([("python:3.12-slim", "RUN pip install -r requirements.txt\nCMD [\"python\", \"main.py\"]"),
                      ("node:20-alpine", "RUN npm ci\nCMD [\"node\", \"server.js\"]"),
                      ("eclipse-temurin:21-jre", "CMD [\"java\", \"-jar\", \"app.jar\"]"),
                      ("golang:1.22", "RUN go build -o /bin/app ./cmd/app\nCMD [\"/bin/app\"]"),
                      ("ruby:3.3", "RUN bundle install\nCMD [\"bundle\", \"exec\", \"puma\"]")])
    envs = "\n".join(f"ENV {n}={v}" if " " not in v else f'ENV {n}="{v}"' for n, v in pairs)
    return f"FROM {base}\nWORKDIR /app\n{envs}\nCOPY . .\n" + run


def c_gha(spec, pairs):
    envs = "\n".join(f"      {n}: {yaml_scalar(v)}" for n, v in pairs)
    return f"name: deploy\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n{envs}\n    steps:\n      - uses: actions/checkout@v4\n      - run: make deploy"


def c_gitlab(spec, pairs):
    envs = "\n".join(f"  {n}: {yaml_scalar(v)}" for n, v in pairs)
    return f"variables:\n{envs}\n\ndeploy:\n  stage: deploy\n  script:\n    - ./deploy.sh\n  only:\n    - main"


def c_k8s(spec, pairs):
    data = "\n".join(f"  {n.lower().replace('_', '-').replace('.', '-').replace('/', '').replace(':', '').replace('~', '').strip('-')}: {yaml_scalar(v).replace(chr(10) + '    ', chr(10) + '    ')}" for n, v in pairs)
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {slug(spec['vendor']).replace('_', '-')}-creds\n  namespace: {pick(['default', 'prod', 'payments', 'monitoring'])}\ntype: Opaque\nstringData:\n{data}"


def c_compose(spec, pairs):
    envs = "\n".join(f"      - {n}={v}" for n, v in pairs)
    return f"services:\n  {pick(['app', 'worker', 'api', 'bot'])}:\n    image: ghcr.io/{slugname()}/{pick(['api', 'worker', 'bot'])}:{pick(['latest', '1.4.2', 'main'])}\n    environment:\n{envs}\n    restart: unless-stopped"


def c_terraform(spec, pairs):
    s = slug(spec["vendor"])
    inner = "\n".join(
        (f'  {short_key(n, spec["vendor"])} = <<EOT\n{v}\nEOT' if "\n" in v else f'  {short_key(n, spec["vendor"])} = "{v}"') for n, v in pairs)
    return pick([f'provider "{s}" {{\n{inner}\n}}', f'# terraform.tfvars\n' + "\n".join((f'{short_key(n, spec["vendor"])} = "{v}"' if "\n" not in v else f'{short_key(n, spec["vendor"])} = <<EOT\n{v}\nEOT') for n, v in pairs)])


def c_history(spec, pairs):
    n0 = R.randint(200, 1900)
    lines = [f"{n0}  cd ~/projects/{slugname()}"]
    for i, (n, v) in enumerate(pairs):
        lines.append(f"{n0 + 1 + i}  export {n.upper().replace('.', '_').replace('/', '_').replace(':', '_').strip('_')}='{v}'")
    lines.append(f"{n0 + 1 + len(pairs)}  {pick(['./run.sh', 'make test', 'python sync.py', 'npm run dev', 'terraform plan'])}")
    return "\n".join(lines)


def c_tool(spec, pairs):
    if spec["cat"] == "blob":
        return None
    if R.random() < 0.5:
        return {"tool": "read_file", "path": pick(["/srv/app/.env", "~/project/.env.local", "/etc/app/config.env", "C:\\apps\\svc\\.env"]),
                "content": "\n".join(kv_lines(pairs)) + "\n" + pick(FILL_ENV)}
    return {"tool": "shell", "command": f"printenv | grep -i {slug(spec['vendor']).split('_')[0]}", "exit_code": 0,
            "stdout": "\n".join(kv_lines(pairs))}


def c_form(spec, pairs):
    return {"title": f"{spec['vendor']} - {pick(['production', 'team account', 'API access', 'service account'])}",
            "category": "API credential", "fields": [{"label": n, "value": v} for n, v in pairs],
            "tags": pick([["work"], ["infra", "shared"], ["client:" + slugname()]])}


def c_ansible(spec, pairs):
    return "# group_vars/all/vars.yml\n" + "\n".join(f"{slug(spec['vendor'])}_{short_key(n, spec['vendor'])}: {yaml_scalar(v)}" for n, v in pairs)


def c_systemd(spec, pairs):
    envs = "\n".join(f'Environment="{n}={v}"' for n, v in pairs)
    return f"[Unit]\nDescription={spec['vendor']} sync worker\nAfter=network-online.target\n\n[Service]\n{envs}\nExecStart=/usr/local/bin/sync-worker\nRestart=on-failure"


def c_helm(spec, pairs):
    sets = " ".join(f"--set secrets.{camel(short_key(n, spec['vendor']))}='{v}'" for n, v in pairs)
    return f"helm upgrade --install {pick(['api', 'worker', 'gateway'])} ./charts/app -n {pick(['prod', 'staging'])} {sets}"


def c_har(spec, pairs):
    return {"log": {"entries": [{"request": {"method": "GET", "url": f"https://{spec['host']}/",
                                             "cookies": [{"name": n, "value": v, "httpOnly": True} for n, v in pairs]},
                                 "response": {"status": 200}}]}}


def c_cookie_note(spec, pairs):
    ck = "; ".join(f"{n}={v}" for n, v in pairs)
    return pick([f"session cookie for {spec['host']} (so the scraper can log in): {ck}",
                 f"copied from devtools -> Application -> Cookies on {spec['host']}:\n{ck}",
                 f"if the bot gets logged out again just paste this into the cookie jar: {ck}"])


def c_cookie_py(spec, pairs):
    d = ", ".join(f'"{n}": "{v}"' for n, v in pairs)
    return f'import requests\n\ns = requests.Session()\ns.cookies.update({{{d}}})\nr = s.get("https://{spec["host"]}/{pick(["account", "api/orders", "feed"])}")'


def c_cookie_curl(spec, pairs):
    ck = "; ".join(f"{n}={v}" for n, v in pairs)
    return f"curl 'https://{spec['host']}/{pick(['api/me', 'account/orders', 'settings'])}' -H 'accept: application/json' -b '{ck}' --compressed"


def c_blob_note(spec, pairs):
    n, v = pairs[0]
    return f"{pick(['Saved', 'Here is', 'Pasting'])} {n} for {spec['vendor']}:\n" + json.dumps(v, ensure_ascii=False, indent=None)


def c_blob_json(spec, pairs):
    return pairs[0][1]


def c_blob_tool(spec, pairs):
    n, v = pairs[0]
    return {"tool": "read_file", "path": n if n.startswith("~") else f"./{n}", "content": json.dumps(v, ensure_ascii=False)}


API_CONTAINERS = {
    "env": c_env, "yaml": c_yaml, "json": c_json, "toml": c_toml, "ini": c_ini, "properties": c_properties,
    "xml": c_xml, "code-python": c_code("python"), "code-js": c_code("js"), "code-ts": c_code("ts"),
    "code-go": c_code("go"), "code-java": c_code("java"), "code-csharp": c_code("csharp"),
    "code-ruby": c_code("ruby"), "code-php": c_code("php"), "code-rust": c_code("rust"),
    "code-kotlin": c_code("kotlin"), "code-swift": c_code("swift"), "code-bash": c_code("bash"),
    "code-powershell": c_code("powershell"), "log": c_log, "stacktrace": c_stack, "ticket": c_ticket,
    "email": c_email, "chat": c_chat, "note": c_note, "notebook": c_notebook, "dockerfile": c_docker,
    "ci-github": c_gha, "ci-gitlab": c_gitlab, "k8s": c_k8s, "compose": c_compose, "terraform": c_terraform,
    "shell-history": c_history, "tool-output": c_tool, "form": c_form, "ansible": c_ansible,
    "systemd": c_systemd, "helm": c_helm,
}
URL_OK = ["env", "yaml", "json", "code-python", "code-js", "code-go", "code-java", "code-php", "code-ruby", "log",
          "stacktrace", "ticket", "email", "chat", "note", "k8s", "compose", "tool-output", "shell-history",
          "properties", "helm", "ci-github", "dockerfile", "notebook", "systemd"]
PEM_OK = ["note", "chat", "yaml", "json", "k8s", "env", "terraform", "ticket", "email", "form", "code-python", "code-js"]
COOKIE_C = {"http": c_http, "curl": c_cookie_curl, "log": c_log, "note": c_cookie_note, "code-python": c_cookie_py,
            "tool-output": c_har, "chat": c_cookie_note}
BLOB_C = {"json": c_blob_json, "tool-output": c_blob_tool, "note": c_blob_note}


def containers_for(spec):
    cat = spec["cat"]
    if cat == "api":
        opts = []
        for c in API_CONTAINERS:
            opts += [c] * (1 if c.startswith("code-") else (5 if c in ("json", "form", "tool-output", "notebook") else 3))
        if spec.get("host") and spec["auth"]:
            opts += ["curl"] * 8 + (["http"] * 8 if not spec["auth"].startswith("basic") else [])
        return opts
    if cat == "url":
        return URL_OK + (["curl", "curl"] if spec["auth"] == "url" else [])
    if cat == "pem":
        return PEM_OK
    if cat == "cookie":
        return list(COOKIE_C)
    return list(BLOB_C)


def render_vendor(spec, segment, pairs):
    cat = spec["cat"]
    if cat == "cookie":
        return COOKIE_C[segment](spec, pairs)
    if cat == "blob":
        return BLOB_C[segment](spec, pairs)
    if segment == "curl":
        return c_curl(spec, pairs)
    if segment == "http":
        return c_http(spec, pairs)
    return API_CONTAINERS[segment](spec, pairs)


# ---------------------------------------------------------------------------
# record store
# ---------------------------------------------------------------------------
RECORDS = []
META = []
_SEEN = set()
_COUNTERS = {}
USERS = ["u" + dg(R.randint(5, 9)) for _ in range(420)]


def vlen(value):
    if isinstance(value, str):
        return len(value)
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def add(label, variant, segment, kind, value, lang="en", key=None, ns_extra=None, group=None):
    sig = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if sig in _SEEN:
        return False
    _SEEN.add(sig)
    ck = (label, variant, segment)
    _COUNTERS[ck] = _COUNTERS.get(ck, 0) + 1
    rid = f"h13-{label[0]}-{variant[0]}-{segment}-{_COUNTERS[ck]:03d}"
    ns = ["memories", pick(USERS)]
    if ns_extra is not None:
        ns.append(ns_extra)
    rec = {"id": rid, "label": label, "kind": kind, "variant": variant, "namespace": ns,
           "key": key if key is not None else "mem_" + hx(R.randint(8, 32)), "value": value}
    RECORDS.append(rec)
    META.append({"lang": lang, "group": group or segment, "section": f"{label}/{variant}"})
    return True


# ---------------------------------------------------------------------------
# section 1: secret / plain / vendor credentials
# ---------------------------------------------------------------------------
def build_vendor(target=540):
    specs = list(VENDORS)
    R.shuffle(specs)
    must = [s for s in specs if s["cat"] != "api"]
    rest = [s for s in specs if s["cat"] == "api"]
    chosen = must + rest[:max(0, target - len(must))]
    R.shuffle(chosen)
    made = 0
    for spec in chosen:
        for _attempt in range(20):
            pairs = gen_pairs(spec)
            seg = pick(containers_for(spec))
            val = render_vendor(spec, seg, pairs)
            if val is None:
                continue
            lang = "en" if seg in ("ticket", "email", "chat", "note", "form") else "none"
            if isinstance(val, tuple):
                val, lang = val
            if not (30 <= vlen(val) <= 420) and spec["cat"] not in ("pem", "blob"):
                continue
            if add("secret", "plain", seg, spec["kind"], val, lang=lang, group=seg):
                made += 1
                break
    return made


# ---------------------------------------------------------------------------
# section 2: secret / plain / personal secrets
# ---------------------------------------------------------------------------
PETS = ["Biscuit", "Luna", "Max", "Pepper", "Simba", "Nala", "Rocky", "Mochi", "Bella", "Oscar", "Kiwi", "Tofu"]
SCHOOLS = ["St. Mary's Primary", "Lincoln Elementary", "Grundschule am Park", "Westfield Junior School", "Escola Básica n.º 2"]
BANKS = ["Chase", "Barclays", "ING", "Sparkasse", "Revolut", "N26", "Santander", "BNP Paribas", "Monzo", "Wells Fargo", "HSBC", "Nordea"]
SSIDS = ["FRITZ!Box 7530 QR", "Vodafone-4A21", "TP-Link_5G_88F0", "NETGEAR47", "Casa-Rossi", "HomeNet-2.4", "BT-7XKQ2P", "Livebox-9D3A", "skynet", "Pretty Fly for a WiFi"]
STREETS = ["Kastanienallee 12", "14 Elm Street", "Rua das Flores 88", "Via Roma 3", "22 Baker Road", "Calle Mayor 41", "ul. Długa 7", "Maple Court 5B"]
WHEN = ["this morning", "yesterday", "after the break-in", "on Sunday", "today", "last night", "when I moved in"]


def backup_codes():
    t = R.randrange(3)
    if t == 0:
        return [f"{dz(4)} {dz(4)}" for _ in range(R.choice([8, 10]))]
    if t == 1:
        return [f"{hx(5)}-{hx(5)}" for _ in range(R.choice([8, 10, 16]))]
    return [anu(4) + "-" + anu(4) for _ in range(R.choice([6, 8, 10]))]


def gift_code():
    t = R.randrange(5)
    if t == 0:
        return "Amazon", f"{anu(4)}-{anu(6)}-{anu(4)}"
    if t == 1:
        return "Google Play", rs(ANU, 20)
    if t == 2:
        return "Steam", f"{anu(5)}-{anu(5)}-{anu(5)}"
    if t == 3:
        return "Apple", "X" + rs(ANU, 15)
    return "PlayStation Store", f"{anu(4)}-{anu(4)}-{anu(4)}"


def sec_answer():
    q = R.randrange(5)
    if q == 0:
        return "mother's maiden name", pick(LAST)
    if q == 1:
        return "name of your first pet", pick(PETS)
    if q == 2:
        return "city where you were born", pick(CITIES)
    if q == 3:
        return "name of your first school", pick(SCHOOLS)
    return "favourite teacher's surname", pick(LAST)


def pval(kind):
    if kind in ("debit-card-pin", "credit-card-pin", "phone-unlock-pin", "sim-pin", "voicemail-pin", "tv-parental-pin",
                "screen-time-passcode", "upi-pin", "alarm-code", "safe-code", "locker-code", "intercom-code",
                "gate-code", "smart-lock-code", "hotel-safe-code"):
        return pin(R.choice([4, 4, 4, 6] if kind != "upi-pin" else [4, 6]))
    if kind in ("online-banking-pin", "telephone-banking-passcode", "e-id-pin"):
        return pin(R.choice([5, 6]))
    if kind in ("door-code", "garage-code", "keybox-code"):
        return door_code()
    if kind == "car-keypad-code":
        return pin(5)
    if kind in ("bike-lock-combination", "luggage-lock-combination"):
        return pin(R.choice([3, 4]) if kind == "bike-lock-combination" else 3)
    if kind == "puk":
        return dz(8)
    if kind == "parcel-locker-pickup-code":
        return pin(6)
    if kind == "one-time-code":
        return pick([dz(6), dz(6), f"{dz(3)}-{dz(3)}", "G-" + dz(6), dz(8)])
    if kind == "backup-codes":
        return backup_codes()
    if kind == "apple-recovery-key":
        return "-".join(anu(4) for _ in range(7))
    if kind == "bitlocker-recovery-key":
        return "-".join(dz(6) for _ in range(8))
    if kind == "1password-secret-key":
        return f"A3-{anu(6)}-{anu(6)}-{anu(5)}-{anu(5)}-{anu(5)}-{anu(5)}"
    if kind == "seed-phrase":
        return seed_phrase()
    if kind == "app-specific-password":
        return "-".join(rs(LO, 4) for _ in range(4))
    if kind == "password-manager-master-password":
        return pick(["-".join(pick(PW_WORDS) for _ in range(R.randint(4, 5))), " ".join(pick(BIP39) for _ in range(5)) + " " + dz(2), strong_pw(22)])
    if kind == "disk-encryption-passphrase":
        return pick([" ".join(pick(PW_WORDS) for _ in range(4)) + pick(SYM), strong_pw(24)])
    return human_pw()


PWD_KINDS = ["email-password", "wifi-password", "bank-login-password", "streaming-password", "social-password",
             "work-login-password", "router-admin-password", "apple-id-password", "password-manager-master-password",
             "disk-encryption-passphrase", "crypto-exchange-password", "health-portal-password", "tax-portal-password",
             "school-portal-password", "e-id-login", "app-specific-password"]

EN_NP = {
    "email-password": ["my Gmail password", "the password for {email}", "my Outlook password", "my Proton Mail password", "the password of my old Yahoo account"],
    "wifi-password": ["the home Wi-Fi password", "our wifi password", "the password for the {ssid} network", "the guest Wi-Fi password at the cabin", "the office wifi password"],
    "bank-login-password": ["my online banking password", "the password for my {bank} account", "my {bank} login password"],
    "streaming-password": ["the Netflix password", "our Disney+ password", "the Spotify family account password", "the HBO Max login password"],
    "social-password": ["my Instagram password", "my Facebook password", "the password for my TikTok", "my LinkedIn password"],
    "work-login-password": ["my work laptop password", "my VPN password for work", "my Citrix password", "the password for the company SSO"],
    "router-admin-password": ["the router admin password", "the FRITZ!Box admin password", "the admin password of the mesh router"],
    "apple-id-password": ["my Apple ID password", "the iCloud password", "dad's Apple ID password"],
    "password-manager-master-password": ["my Bitwarden master password", "the 1Password master password", "the KeePass database password"],
    "disk-encryption-passphrase": ["the FileVault password on the old MacBook", "the VeraCrypt passphrase for the backup drive", "the LUKS passphrase for the home server"],
    "crypto-exchange-password": ["my Coinbase password", "my Kraken login password", "the Binance account password"],
    "health-portal-password": ["the password for the patient portal at {clinic}", "my MyChart password", "the login for the pharmacy app"],
    "tax-portal-password": ["my HMRC gateway password", "the password for the tax office portal", "my IRS online account password"],
    "school-portal-password": ["Mia's school portal password", "the password for the kids' homework app", "Leo's Google Classroom password"],
    "e-id-login": ["my login.gov password", "my Government Gateway password", "the myGov password"],
    "app-specific-password": ["the app-specific password for Thunderbird", "the app password I made for the printer's scan-to-email"],
    "debit-card-pin": ["my debit card PIN", "the PIN for my {bank} card", "the PIN of the joint account card"],
    "credit-card-pin": ["the PIN of the Amex", "my credit card PIN", "the PIN for the travel credit card"],
    "phone-unlock-pin": ["my phone passcode", "the unlock code for my iPhone", "the passcode for the old Android tablet", "grandpa's phone PIN"],
    "sim-pin": ["the SIM PIN", "the PIN of my new eSIM", "the SIM card PIN for the travel phone"],
    "puk": ["the PUK for my SIM", "the PUK code from the SIM card holder"],
    "voicemail-pin": ["my voicemail PIN", "the voicemail passcode"],
    "tv-parental-pin": ["the parental-control PIN on the TV", "the Sky parental PIN", "the Netflix profile lock PIN"],
    "screen-time-passcode": ["the Screen Time passcode on Leo's iPad", "the Family Link parent PIN"],
    "upi-pin": ["my UPI PIN", "the UPI PIN for the HDFC account"],
    "online-banking-pin": ["the telebanking PIN", "my mobile banking passcode", "the banking app PIN"],
    "telephone-banking-passcode": ["the phone banking security number", "my telephone banking passcode"],
    "e-id-pin": ["the PIN for my ID card's online function", "the eID PIN"],
    "door-code": ["the door code for the building", "the front door keypad code", "the code for the entrance at {addr}", "the code for the back door of the studio"],
    "alarm-code": ["the alarm code", "the code to disarm the house alarm", "the office alarm code", "the alarm code at my parents' place"],
    "garage-code": ["the garage door code", "the code for the underground parking gate"],
    "safe-code": ["the safe combination", "the code of the safe in the wardrobe", "the combination for the gun safe"],
    "hotel-safe-code": ["the code I set on the hotel room safe"],
    "locker-code": ["my gym locker code", "the combination of my locker at work", "the locker code at the swimming pool"],
    "keybox-code": ["the key box code at the Airbnb", "the lockbox code for the spare key", "the keysafe code at grandma's"],
    "bike-lock-combination": ["the bike lock combination", "the code for the cable lock on the e-bike"],
    "luggage-lock-combination": ["the TSA lock combination on the blue suitcase", "the combination for the backpack lock"],
    "intercom-code": ["the intercom code for my mother's building"],
    "gate-code": ["the gate code at the allotment", "the community gate code"],
    "car-keypad-code": ["the keypad code on the Ford door", "the entry keypad code on the truck"],
    "smart-lock-code": ["the Nuki keypad code", "the code for the smart lock", "the guest code for the front door lock"],
    "parcel-locker-pickup-code": ["the pickup code for my parcel locker", "the InPost collection code", "the Amazon locker pickup code"],
    "one-time-code": ["the verification code", "the code they texted me", "the 2FA code from the bank", "the login code WhatsApp sent"],
    "apple-recovery-key": ["my Apple account recovery key", "the iCloud recovery key"],
    "bitlocker-recovery-key": ["the BitLocker recovery key for my work laptop", "the BitLocker key for the gaming PC"],
    "1password-secret-key": ["my 1Password Secret Key", "the 1Password account secret key"],
    "seed-phrase": ["the seed phrase for my Ledger", "my MetaMask secret recovery phrase", "the recovery words for the cold wallet", "the Trezor backup words"],
}
EN_GENERIC = [
    "Please remember {np}: {v}",
    "{NP} is {v}",
    "fyi {np} → {v}",
    "Can you keep this for me? {np} = {v}",
    "Save this somewhere safe: {np} {v}",
    "{NP} — new one is {v} (changed it {when})",
    "In case I forget again, {np} is {v}.",
    "Reminder for future me — {np}: {v}",
    "{NP}? It's {v}.",
    "ok so {np} is {v}, write that down pls",
    "Just set {np} to {v}",
    "note: {np} = {v}. don't share",
    "For the house sitter: {np} is {v}",
    "You asked earlier — {np} is {v}",
    "{NP} has been {v} since {when}",
    "Remember that {np} is {v}, I always mix it up with the old one",
]
EN_SPECIFIC = {
    "email-password": ["Gmail: {email} / {v}", "changed my email password today, it's now {v} — the old one was in that breach", "email login {email}, password {v}"],
    "wifi-password": ["Wi-Fi for guests: network \"{ssid}\", password {v}", "Babysitter info: wifi is {ssid}, pw {v}, emergency numbers are on the fridge", "WiFi {ssid} / key {v}"],
    "bank-login-password": ["{bank} online banking: customer number {n8}, password {v}", "bank login is user {user} and {v}"],
    "streaming-password": ["Netflix login for mum's TV: {email} / {v}", "Disney+ shared account: {email} pw {v}"],
    "work-login-password": ["work VPN: user {user}, password {v}, the token is on my phone", "new AD password after the forced reset: {v}"],
    "router-admin-password": ["router at 192.168.{o}.1 - admin / {v}", "mesh router admin login: admin, {v}"],
    "one-time-code": ["the login code for my bank is {v}, please type it in for me", "Your code is {v} — can you finish the checkout with it?", "verification code for {site}: {v} (valid 10 min)"],
    "payment-card": ["My {brand}: {num}, exp {exp}, CVV {cvv}", "card for online orders - {numf} valid thru {exp} security code {cvv}", "New {bank} card arrived: {numf}, expires {exp}, CVC {cvv}. Update Amazon with it.", "Use my card {numf} exp {exp} cvv {cvv} for the hotel booking"],
    "card-number": ["{brand} card number: {numf}", "save my card number {numf} for the flight booking", "the {bank} card is {numf}"],
    "gift-card-code": ["{store} gift card from grandma: {v}", "redeem later: {store} code {v}", "Birthday {store} card, code {v}, not used yet"],
    "security-question-answer": ["{bank} security question ({q}): {v}", "for the {site} account the answer to \"{q}\" is {v}", "security answer — {q}: {v}"],
    "seed-phrase": ["wallet backup (Ledger Nano): {v}", "MetaMask recovery phrase: {v}", "{v} — those are the seed words for the hardware wallet"],
    "backup-codes": ["Google backup codes: {v}", "GitHub recovery codes, keep safe: {v}", "2FA backup codes for {site}: {v}"],
    "apple-recovery-key": ["Apple recovery key: {v}", "Recovery key for my Apple account (printed copy is in the drawer): {v}"],
    "bitlocker-recovery-key": ["BitLocker recovery key (ID {bid}): {v}", "If the laptop asks for the BitLocker key after the BIOS update: {v}"],
    "1password-secret-key": ["1Password Secret Key: {v}", "emergency kit info: Secret Key {v}"],
    "e-id-pin": ["Personalausweis online PIN: {v}", "my eID PIN is {v}"],
    "door-code": ["Entry code at {addr}: {v}", "code for the building door: {v} then press the bell for flat {o}"],
    "keybox-code": ["Airbnb check-in: key box by the blue door, code {v}", "spare key is in the key safe left of the garage, code {v}"],
    "alarm-code": ["Alarm: enter {v} within 30 seconds of opening the door", "cleaner needs the alarm code: {v}"],
    "hotel-safe-code": ["hotel room {o}{o} safe code {v}", "set the room safe to {v}"],
    "parcel-locker-pickup-code": ["parcel locker at the station, pickup code {v}", "InPost: locker WAW12M, code {v}"],
}
EN_SEGMENTS = ["note"] * 7 + ["chat"] * 5 + ["form"] * 4 + ["email"] * 2 + ["transcript"] * 2 + ["list"] * 2 + ["sms"] * 2
ACK_EN = ["Got it, I'll remember that.", "Saved.", "Okay, noted.", "Noted — I'll keep it safe.", "Done, I've stored it."]


def en_slots():
    return dict(email=email(), ssid=pick(SSIDS), bank=pick(BANKS), clinic=pick(["Lakeside Clinic", "Dr. Patel's practice", "St. Luke's"]),
                addr=pick(STREETS), when=pick(WHEN), n8=dz(8), user=pick(FIRST).lower() + "." + pick(LAST).lower().replace("'", ""),
                o=R.randint(2, 9), site=pick(["Dropbox", "Steam", "PayPal", "eBay", "Booking.com", "Zalando"]), bid=HX(8))


def fmt_value(v):
    if isinstance(v, list):
        return ", ".join(v) if len(v) < 12 else " ".join(v)
    return v


def en_personal(kind):
    sl = en_slots()
    extra = {}
    if kind in ("payment-card", "card-number"):
        brand, num, exp, cvv = card()
        extra = dict(brand=brand, num=num, numf=card_fmt(num, pick([" ", " ", "-", ""])), exp=exp, cvv=cvv)
        v = extra["numf"]
    elif kind == "gift-card-code":
        store, v = gift_code()
        extra = dict(store=store)
    elif kind == "security-question-answer":
        q, v = sec_answer()
        extra = dict(q=q)
    else:
        v = pval(kind)
    seg = pick(EN_SEGMENTS)
    vv = fmt_value(v)
    np_ = fill(pick(EN_NP[kind]), **sl) if kind in EN_NP else None
    spec = EN_SPECIFIC.get(kind)
    if np_ is None or (spec and chance(0.5)):
        sentence = fill(pick(spec), v=vv, **sl, **extra)
    else:
        sentence = fill(pick(EN_GENERIC), np=np_, NP=cap(np_), v=vv, **sl)
    if seg == "note":
        val = sentence
        if chance(0.3):
            val = pick(["Note: ", "Remember: ", f"{date_iso()} — ", "pinned: ", ""]) + val
    elif seg == "chat":
        if chance(0.5):
            val = [{"role": "user", "content": sentence}, {"role": "assistant", "content": pick(ACK_EN)}]
        else:
            val = f"user: {sentence}\nassistant: {pick(ACK_EN)}"
    elif seg == "form":
        if kind in ("payment-card", "card-number"):
            val = {"type": "payment_card", "cardholder": fullname(), "number": extra["numf"], "expiry": extra["exp"]}
            if kind == "payment-card":
                val["cvc"] = extra["cvv"]
            val["label"] = pick(["personal", "work travel card", "joint account"])
        elif kind in PWD_KINDS:
            val = {"type": "login", "title": cap(np_ or kind.replace("-", " ")), "username": pick([sl["email"], sl["user"]]),
                   "password": vv, "updated": date_iso()}
        else:
            val = {"type": "secure_note", "title": cap(np_ or kind.replace("-", " ")), "value": v if isinstance(v, list) else vv,
                   "notes": pick(["", "do not share", "kids don't know this one", "changed " + sl["when"]])}
    elif seg == "email":
        who = pick(FIRST)
        val = (f"Subject: {pick(['house info', 'while we are away', 'stuff you asked for', 'keys & codes'])}\n\nHi {who},\n\n"
               f"{sentence}\n\n{pick(['Thanks again!', 'See you Sunday.', 'Call if anything is weird.'])}\n{pick(FIRST)}")
    elif seg == "transcript":
        val = f"[voice memo {date_iso()} {hhmm()}] okay, um, {sentence[0].lower() + sentence[1:]} ... and also {pick(['buy milk', 'call the dentist', 'book the train', 'water the plants'])}"
    elif seg == "list":
        others = pick([["Bins: Tuesday", "Plumber: 0161 496 0833"], ["Trash day: Thursday", "Vet: Dr. Moreau"], ["Heating: thermostat on 19°C", "Recycling: blue bin"]])
        items = others + [sentence]
        R.shuffle(items)
        val = items
    else:
        val = f"SMS to self {hhmm()}: {sentence}"
    return seg, val


# weights: English personal kinds
EN_KINDS = (list(EN_NP) + ["payment-card"] * 4 + ["card-number"] * 2 + ["gift-card-code"] * 2 + ["security-question-answer"] * 3
            + ["backup-codes"] * 2 + ["seed-phrase"] + ["wifi-password", "email-password", "door-code", "one-time-code", "alarm-code"])

# foreign-language personal secrets: noun phrases, templates, acknowledgements,
# form labels (service, user, password, code), card template
FL = {
    "de": {"np": {"wifi-password": "das WLAN-Passwort zu Hause", "debit-card-pin": "die PIN meiner Girokarte",
                  "phone-unlock-pin": "der Entsperrcode von meinem Handy", "door-code": "der Code für die Haustür",
                  "alarm-code": "der Code der Alarmanlage", "garage-code": "der Code vom Garagentor",
                  "email-password": "mein GMX-Passwort", "bank-login-password": "das Passwort fürs Online-Banking",
                  "safe-code": "die Kombination vom Tresor", "sim-pin": "die SIM-PIN", "puk": "die PUK von der neuen SIM-Karte",
                  "e-id-pin": "die PIN für die Online-Ausweisfunktion", "one-time-code": "der Bestätigungscode von der Sparkasse",
                  "keybox-code": "der Code vom Schlüsseltresor an der Ferienwohnung", "seed-phrase": "die Seed-Phrase meiner Wallet"},
           "tpl": ["Merk dir bitte: {np} lautet {v}.", "{NP}: {v}", "Notiz für mich – {np} ist {v}, nicht vergessen!",
                   "Falls ich's wieder vergesse, {np} ist {v}", "Neu seit heute: {np} = {v}", "Nur damit du's weißt, {np} ist jetzt {v}."],
           "ack": ["Alles klar, habe ich mir gemerkt.", "Ist notiert."], "form": ("Dienst", "Benutzername", "Passwort", "Code"),
           "card": ["Meine Kreditkarte: {num}, gültig bis {exp}, Prüfnummer {cvv}", "Visa fürs Hotel: {num} – Ablauf {exp} – CVC {cvv}"]},
    "fr": {"np": {"wifi-password": "le mot de passe du wifi de la maison", "debit-card-pin": "le code de ma carte bleue",
                  "phone-unlock-pin": "le code de déverrouillage de mon téléphone", "door-code": "le digicode de l'immeuble",
                  "alarm-code": "le code de l'alarme", "garage-code": "le code du portail du garage",
                  "email-password": "le mot de passe de ma boîte Orange", "bank-login-password": "le mot de passe de mon espace bancaire",
                  "safe-code": "la combinaison du coffre-fort", "sim-pin": "le code PIN de la carte SIM", "puk": "le code PUK",
                  "e-id-login": "le mot de passe impots.gouv", "one-time-code": "le code reçu par SMS",
                  "locker-code": "le code du casier à la salle de sport", "seed-phrase": "la phrase de récupération de mon wallet"},
           "tpl": ["Retiens bien : {np} est {v}.", "{NP} : {v}", "Note pour moi – {np}, c'est {v}", "Au cas où j'oublie encore, {np} = {v}",
                   "Nouveau depuis aujourd'hui : {np} → {v}", "Pour la baby-sitter : {np}, c'est {v}"],
           "ack": ["C'est noté.", "D'accord, je m'en souviendrai."], "form": ("Service", "Identifiant", "Mot de passe", "Code"),
           "card": ["Ma carte Visa : {num}, expire {exp}, cryptogramme {cvv}", "Carte pour les réservations : {num} exp. {exp} CVV {cvv}"]},
    "es": {"np": {"wifi-password": "la contraseña del wifi de casa", "debit-card-pin": "el PIN de mi tarjeta de débito",
                  "phone-unlock-pin": "el código de desbloqueo del móvil", "door-code": "el código del portal",
                  "alarm-code": "el código de la alarma", "garage-code": "el código del garaje", "email-password": "la contraseña de mi Gmail",
                  "bank-login-password": "la clave de la banca online", "safe-code": "la combinación de la caja fuerte",
                  "sim-pin": "el PIN de la SIM", "puk": "el PUK de la tarjeta SIM", "e-id-pin": "el PIN del DNIe",
                  "one-time-code": "el código de verificación que me llegó por SMS", "locker-code": "la combinación de la taquilla del gimnasio",
                  "seed-phrase": "la frase semilla de la billetera"},
           "tpl": ["Recuerda que {np} es {v}.", "{NP}: {v}", "Apunta: {np} → {v}", "Por si se me olvida otra vez, {np} es {v}",
                   "Nuevo desde hoy: {np} = {v}", "Para la chica que cuida a los niños: {np} es {v}"],
           "ack": ["Entendido, lo tengo guardado.", "Anotado."], "form": ("Servicio", "Usuario", "Contraseña", "Código"),
           "card": ["Mi tarjeta: {num}, caduca {exp}, CVV {cvv}", "Tarjeta para compras online: {num} venc. {exp} código {cvv}"]},
    "it": {"np": {"wifi-password": "la password del wifi di casa", "debit-card-pin": "il PIN del bancomat",
                  "phone-unlock-pin": "il codice di sblocco del telefono", "door-code": "il codice del portone",
                  "alarm-code": "il codice dell'allarme", "garage-code": "il codice del cancello del garage",
                  "email-password": "la password di Libero Mail", "bank-login-password": "la password dell'home banking",
                  "safe-code": "la combinazione della cassaforte", "sim-pin": "il PIN della SIM", "puk": "il PUK della SIM",
                  "e-id-login": "la password dello SPID", "one-time-code": "il codice OTP arrivato per SMS",
                  "locker-code": "il codice dell'armadietto in palestra"},
           "tpl": ["Ricordati che {np} è {v}.", "{NP}: {v}", "Nota per me – {np}: {v}", "Se me lo dimentico di nuovo, {np} è {v}",
                   "Aggiornato oggi → {np}: {v}"],
           "ack": ["Ok, me lo ricordo.", "Fatto, salvato."], "form": ("Servizio", "Nome utente", "Password", "Codice"),
           "card": ["La mia carta: {num}, scadenza {exp}, CVV {cvv}", "Carta per l'albergo {num} scad. {exp} codice {cvv}"]},
    "pt": {"np": {"wifi-password": "a senha do wi-fi de casa", "debit-card-pin": "a senha do cartão de débito",
                  "phone-unlock-pin": "o código de desbloqueio do celular", "door-code": "o código do portão do prédio",
                  "alarm-code": "o código do alarme", "garage-code": "o código da garagem", "email-password": "a senha do meu Gmail",
                  "bank-login-password": "a senha do internet banking", "safe-code": "a combinação do cofre", "sim-pin": "o PIN do chip",
                  "puk": "o PUK do chip", "e-id-login": "a senha do gov.br", "one-time-code": "o código que chegou por SMS",
                  "seed-phrase": "as palavras de recuperação da carteira"},
           "tpl": ["Lembra que {np} é {v}.", "{NP}: {v}", "Anota aí: {np} → {v}", "Se eu esquecer de novo, {np} é {v}",
                   "Atualizado hoje – {np}: {v}"],
           "ack": ["Anotado!", "Beleza, guardei."], "form": ("Serviço", "Usuário", "Senha", "Código"),
           "card": ["Meu cartão: {num}, validade {exp}, CVV {cvv}", "Cartão pra compras online {num} val. {exp} cód. {cvv}"]},
    "nl": {"np": {"wifi-password": "het wifi-wachtwoord thuis", "debit-card-pin": "de pincode van mijn bankpas",
                  "phone-unlock-pin": "de ontgrendelcode van mijn telefoon", "door-code": "de code van de voordeur beneden",
                  "alarm-code": "de alarmcode", "garage-code": "de code van de garagedeur", "email-password": "mijn Outlook-wachtwoord",
                  "bank-login-password": "het wachtwoord voor internetbankieren", "safe-code": "de code van de kluis",
                  "sim-pin": "de pincode van de simkaart", "puk": "de PUK-code", "e-id-login": "mijn DigiD-wachtwoord",
                  "one-time-code": "de sms-code van de bank", "locker-code": "de code van mijn kluisje bij de sportschool"},
           "tpl": ["Onthoud even: {np} is {v}.", "{NP}: {v}", "Notitie voor mezelf – {np} = {v}", "Voor als ik het weer vergeet: {np} is {v}",
                   "Nieuw sinds vandaag: {np} → {v}"],
           "ack": ["Genoteerd.", "Oké, opgeslagen."], "form": ("Dienst", "Gebruikersnaam", "Wachtwoord", "Code"),
           "card": ["Mijn creditcard: {num}, geldig tot {exp}, CVC {cvv}"]},
    "pl": {"np": {"wifi-password": "hasło do wifi w domu", "debit-card-pin": "PIN do karty debetowej",
                  "phone-unlock-pin": "kod odblokowania telefonu", "door-code": "kod do domofonu", "alarm-code": "kod do alarmu",
                  "garage-code": "kod do bramy garażowej", "email-password": "hasło do poczty WP",
                  "bank-login-password": "hasło do bankowości internetowej", "safe-code": "szyfr do sejfu", "sim-pin": "PIN do karty SIM",
                  "puk": "kod PUK", "e-id-login": "hasło do profilu zaufanego", "one-time-code": "kod SMS z banku",
                  "parcel-locker-pickup-code": "kod odbioru z paczkomatu"},
           "tpl": ["Zapamiętaj: {np} to {v}.", "{NP}: {v}", "Notatka dla mnie – {np}: {v}", "Gdybym znowu zapomniał, {np} to {v}",
                   "Nowe od dziś → {np}: {v}"],
           "ack": ["Zapisane.", "OK, zapamiętam."], "form": ("Serwis", "Login", "Hasło", "Kod"),
           "card": ["Moja karta: {num}, ważna do {exp}, CVV {cvv}"]},
    "sv": {"np": {"wifi-password": "wifi-lösenordet hemma", "debit-card-pin": "pinkoden till mitt bankkort",
                  "phone-unlock-pin": "koden till min telefon", "door-code": "portkoden", "alarm-code": "larmkoden",
                  "garage-code": "koden till garaget", "email-password": "lösenordet till min mejl",
                  "bank-login-password": "lösenordet till internetbanken", "safe-code": "koden till kassaskåpet",
                  "sim-pin": "PIN-koden till SIM-kortet", "puk": "PUK-koden", "e-id-pin": "säkerhetskoden till BankID",
                  "one-time-code": "engångskoden från banken", "locker-code": "koden till skåpet på gymmet"},
           "tpl": ["Kom ihåg: {np} är {v}.", "{NP}: {v}", "Anteckning – {np} = {v}", "Om jag glömmer igen: {np} är {v}", "Ny från idag → {np}: {v}"],
           "ack": ["Noterat.", "Okej, sparat."], "form": ("Tjänst", "Användarnamn", "Lösenord", "Kod"),
           "card": ["Mitt kort: {num}, giltigt till {exp}, CVC {cvv}"]},
    "da": {"np": {"wifi-password": "wifi-koden derhjemme", "debit-card-pin": "pinkoden til mit Dankort",
                  "phone-unlock-pin": "koden til min telefon", "door-code": "dørkoden til opgangen", "alarm-code": "alarmkoden",
                  "garage-code": "koden til garagen", "email-password": "adgangskoden til min mail",
                  "bank-login-password": "adgangskoden til netbanken", "sim-pin": "PIN-koden til SIM-kortet",
                  "e-id-login": "min MitID-adgangskode", "one-time-code": "engangskoden fra banken", "safe-code": "koden til pengeskabet"},
           "tpl": ["Husk: {np} er {v}.", "{NP}: {v}", "Note til mig selv – {np} = {v}", "Hvis jeg glemmer det igen: {np} er {v}"],
           "ack": ["Noteret.", "Fint, gemt."], "form": ("Tjeneste", "Brugernavn", "Adgangskode", "Kode"),
           "card": ["Mit kort: {num}, udløb {exp}, kontrolcifre {cvv}"]},
    "nb": {"np": {"wifi-password": "wifi-passordet hjemme", "debit-card-pin": "PIN-koden til bankkortet",
                  "phone-unlock-pin": "koden til mobilen", "door-code": "koden til porten", "alarm-code": "alarmkoden",
                  "garage-code": "koden til garasjeporten", "email-password": "passordet til e-posten min",
                  "bank-login-password": "passordet til nettbanken", "sim-pin": "PIN-koden til SIM-kortet",
                  "e-id-login": "BankID-passordet mitt", "one-time-code": "engangskoden fra banken", "safe-code": "koden til safen"},
           "tpl": ["Husk at {np} er {v}.", "{NP}: {v}", "Notat – {np} = {v}", "Hvis jeg glemmer det igjen: {np} er {v}"],
           "ack": ["Notert.", "Greit, lagret."], "form": ("Tjeneste", "Brukernavn", "Passord", "Kode"),
           "card": ["Kortet mitt: {num}, utløper {exp}, CVC {cvv}"]},
    "fi": {"np": {"wifi-password": "kodin wifi-salasana", "debit-card-pin": "pankkikortin PIN-koodi",
                  "phone-unlock-pin": "puhelimen lukituskoodi", "door-code": "rapun ovikoodi", "alarm-code": "hälytyskoodi",
                  "garage-code": "autotallin koodi", "email-password": "sähköpostin salasana", "bank-login-password": "verkkopankin salasana",
                  "sim-pin": "SIM-kortin PIN-koodi", "puk": "PUK-koodi", "one-time-code": "pankin kertakäyttökoodi", "safe-code": "kassakaapin koodi"},
           "tpl": ["Muista: {np} on {v}.", "{NP}: {v}", "Muistiinpano – {np} = {v}", "Jos unohdan taas, {np} on {v}"],
           "ack": ["Selvä, tallennettu.", "Muistan."], "form": ("Palvelu", "Käyttäjätunnus", "Salasana", "Koodi"),
           "card": ["Korttini: {num}, voimassa {exp}, CVV {cvv}"]},
    "cs": {"np": {"wifi-password": "heslo k wifi doma", "debit-card-pin": "PIN ke kartě", "phone-unlock-pin": "kód k odemčení telefonu",
                  "door-code": "kód od vchodových dveří", "alarm-code": "kód k alarmu", "garage-code": "kód od garáže",
                  "email-password": "heslo k Seznam e-mailu", "bank-login-password": "heslo do internetového bankovnictví",
                  "sim-pin": "PIN k SIM kartě", "puk": "PUK", "e-id-login": "heslo k bankovní identitě", "one-time-code": "ověřovací kód z SMS",
                  "safe-code": "kód od trezoru"},
           "tpl": ["Zapamatuj si: {np} je {v}.", "{NP}: {v}", "Poznámka – {np} = {v}", "Kdybych to zase zapomněl, {np} je {v}"],
           "ack": ["Uloženo.", "Dobře, pamatuju si to."], "form": ("Služba", "Uživatel", "Heslo", "Kód"),
           "card": ["Moje karta: {num}, platnost {exp}, CVV {cvv}"]},
    "tr": {"np": {"wifi-password": "evdeki wifi şifresi", "debit-card-pin": "banka kartımın şifresi",
                  "phone-unlock-pin": "telefonumun kilit şifresi", "door-code": "apartman kapısının şifresi", "alarm-code": "alarm şifresi",
                  "garage-code": "garaj kapısının şifresi", "email-password": "Gmail şifrem", "bank-login-password": "internet bankacılığı şifrem",
                  "sim-pin": "SIM kartın PIN kodu", "puk": "PUK kodu", "e-id-login": "e-Devlet şifrem",
                  "one-time-code": "bankadan gelen SMS kodu", "safe-code": "kasanın şifresi", "seed-phrase": "cüzdanın kurtarma kelimeleri"},
           "tpl": ["{NP}: {v}", "Not al: {np} → {v}", "Unutursam diye yazıyorum, {np} şu: {v}", "Bugünden itibaren {np} = {v}"],
           "ack": ["Tamam, kaydettim.", "Not aldım."], "form": ("Hizmet", "Kullanıcı adı", "Şifre", "Kod"),
           "card": ["Kartım: {num}, son kullanma {exp}, CVV {cvv}"]},
    "ru": {"np": {"wifi-password": "пароль от домашнего вайфая", "debit-card-pin": "пин-код от моей карты",
                  "phone-unlock-pin": "код разблокировки телефона", "door-code": "код от домофона", "alarm-code": "код сигнализации",
                  "garage-code": "код от гаража", "email-password": "пароль от почты Яндекс", "bank-login-password": "пароль от интернет-банка",
                  "sim-pin": "пин-код от сим-карты", "puk": "PUK-код", "e-id-login": "пароль от Госуслуг", "one-time-code": "код из СМС от банка",
                  "safe-code": "код от сейфа", "seed-phrase": "сид-фраза от кошелька"},
           "tpl": ["Запомни: {np} — {v}.", "{NP}: {v}", "Заметка для себя — {np}: {v}", "Если снова забуду: {np} — {v}",
                   "Новый с сегодняшнего дня → {np}: {v}"],
           "ack": ["Хорошо, запомнил.", "Сохранено."], "form": ("Сервис", "Логин", "Пароль", "Код"),
           "card": ["Моя карта: {num}, срок действия {exp}, CVV {cvv}", "Карта для оплаты: {num}, до {exp}, код {cvv}"]},
    "uk": {"np": {"wifi-password": "пароль від домашнього вайфаю", "debit-card-pin": "пін-код моєї картки",
                  "phone-unlock-pin": "код розблокування телефона", "door-code": "код від домофона", "alarm-code": "код сигналізації",
                  "email-password": "пароль від пошти", "bank-login-password": "пароль від Приват24", "sim-pin": "пін-код сім-картки",
                  "one-time-code": "код з СМС", "safe-code": "код від сейфа"},
           "tpl": ["Запам'ятай: {np} — {v}.", "{NP}: {v}", "Нотатка — {np}: {v}", "Якщо знову забуду: {np} — {v}"],
           "ack": ["Добре, збережено.", "Запам'ятав."], "form": ("Сервіс", "Логін", "Пароль", "Код"),
           "card": ["Моя картка: {num}, дійсна до {exp}, CVV {cvv}"]},
    "el": {"np": {"wifi-password": "ο κωδικός του wifi στο σπίτι", "debit-card-pin": "το PIN της κάρτας μου",
                  "phone-unlock-pin": "ο κωδικός ξεκλειδώματος του κινητού", "door-code": "ο κωδικός της εξώπορτας",
                  "alarm-code": "ο κωδικός του συναγερμού", "email-password": "ο κωδικός του email μου", "bank-login-password": "ο κωδικός του e-banking",
                  "sim-pin": "το PIN της κάρτας SIM", "e-id-login": "ο κωδικός του Taxisnet", "one-time-code": "ο κωδικός μιας χρήσης από την τράπεζα",
                  "safe-code": "ο συνδυασμός του χρηματοκιβωτίου"},
           "tpl": ["Θυμήσου: {np} είναι {v}.", "{NP}: {v}", "Σημείωση – {np} = {v}", "Αν το ξεχάσω πάλι: {np} είναι {v}"],
           "ack": ["Εντάξει, το κράτησα.", "Αποθηκεύτηκε."], "form": ("Υπηρεσία", "Όνομα χρήστη", "Κωδικός", "Κωδικός PIN"),
           "card": ["Η κάρτα μου: {num}, λήξη {exp}, CVV {cvv}"]},
    "ar": {"np": {"wifi-password": "كلمة سر الواي فاي في البيت", "debit-card-pin": "الرقم السري لبطاقتي البنكية",
                  "phone-unlock-pin": "رمز قفل الهاتف", "door-code": "رمز باب العمارة", "alarm-code": "رمز جهاز الإنذار",
                  "email-password": "كلمة مرور بريدي الإلكتروني", "bank-login-password": "كلمة مرور الخدمات المصرفية عبر الإنترنت",
                  "sim-pin": "رمز PIN لشريحة الهاتف", "one-time-code": "رمز التحقق الذي وصلني في رسالة", "safe-code": "رقم الخزنة",
                  "garage-code": "رمز باب الكراج"},
           "tpl": ["تذكّر: {np} هو {v}", "{NP}: {v}", "ملاحظة لنفسي – {np} = {v}", "في حال نسيت مرة أخرى: {np} هو {v}"],
           "ack": ["تمام، حفظته.", "تم الحفظ."], "form": ("الخدمة", "اسم المستخدم", "كلمة المرور", "الرمز"),
           "card": ["بطاقتي: {num}، تنتهي {exp}، رمز التحقق {cvv}"]},
    "he": {"np": {"wifi-password": "הסיסמה של הוויי-פיי בבית", "debit-card-pin": "הקוד הסודי של כרטיס האשראי",
                  "phone-unlock-pin": "קוד הנעילה של הטלפון", "door-code": "הקוד של דלת הבניין", "alarm-code": "הקוד של האזעקה",
                  "email-password": "הסיסמה למייל שלי", "bank-login-password": "הסיסמה לאתר הבנק", "sim-pin": "קוד ה-PIN של הסים",
                  "one-time-code": "הקוד שקיבלתי ב-SMS", "safe-code": "הקוד של הכספת", "garage-code": "הקוד של שער החניה"},
           "tpl": ["תזכור: {np} זה {v}", "{NP}: {v}", "פתק לעצמי – {np} = {v}", "אם אשכח שוב: {np} הוא {v}"],
           "ack": ["בסדר, שמרתי.", "נרשם."], "form": ("שירות", "שם משתמש", "סיסמה", "קוד"),
           "card": ["הכרטיס שלי: {num}, תוקף {exp}, CVV {cvv}"]},
    "hi": {"np": {"wifi-password": "घर के वाई-फाई का पासवर्ड", "debit-card-pin": "मेरे डेबिट कार्ड का पिन",
                  "phone-unlock-pin": "फ़ोन का अनलॉक पिन", "door-code": "बिल्डिंग के गेट का कोड", "email-password": "मेरे जीमेल का पासवर्ड",
                  "bank-login-password": "नेट बैंकिंग का पासवर्ड", "sim-pin": "सिम कार्ड का पिन", "one-time-code": "बैंक से आया OTP",
                  "safe-code": "तिजोरी का कोड", "upi-pin": "मेरा UPI पिन", "alarm-code": "अलार्म का कोड"},
           "tpl": ["याद रखना: {np} {v} है।", "{NP}: {v}", "नोट – {np} = {v}", "अगर फिर भूल जाऊँ तो: {np} {v} है"],
           "ack": ["ठीक है, सेव कर लिया।", "नोट कर लिया।"], "form": ("सेवा", "यूज़रनेम", "पासवर्ड", "कोड"),
           "card": ["मेरा कार्ड: {num}, एक्सपायरी {exp}, CVV {cvv}"]},
    "ja": {"np": {"wifi-password": "自宅のWi-Fiのパスワード", "debit-card-pin": "キャッシュカードの暗証番号",
                  "phone-unlock-pin": "スマホのロック解除パスコード", "door-code": "マンションのオートロックの番号",
                  "alarm-code": "警報装置の解除コード", "email-password": "Gmailのパスワード", "bank-login-password": "ネットバンキングのログインパスワード",
                  "sim-pin": "SIMカードのPINコード", "puk": "PINロック解除コード（PUK）", "e-id-pin": "マイナンバーカードの暗証番号",
                  "one-time-code": "SMSで届いた認証コード", "safe-code": "金庫の番号", "locker-code": "ジムのロッカーの暗証番号",
                  "seed-phrase": "ウォレットのシードフレーズ"},
           "tpl": ["覚えておいて：{np}は{v}です。", "{NP}：{v}", "メモ　{np} = {v}", "また忘れたとき用：{np}は{v}"],
           "ack": ["了解、覚えておきます。", "保存しました。"], "form": ("サービス", "ユーザー名", "パスワード", "暗証番号"),
           "card": ["クレジットカード：{num}　有効期限 {exp}　セキュリティコード {cvv}"]},
    "zh": {"np": {"wifi-password": "家里的WiFi密码", "debit-card-pin": "银行卡密码", "phone-unlock-pin": "手机锁屏密码",
                  "door-code": "单元门禁密码", "alarm-code": "报警器密码", "email-password": "QQ邮箱的密码", "bank-login-password": "网银登录密码",
                  "sim-pin": "SIM卡的PIN码", "puk": "PUK码", "one-time-code": "银行发来的短信验证码", "safe-code": "保险箱密码",
                  "garage-code": "车库门密码", "payment-pin": "支付宝支付密码", "seed-phrase": "钱包助记词"},
           "tpl": ["帮我记一下：{np}是{v}。", "{NP}：{v}", "备忘 – {np} = {v}", "万一我又忘了：{np}是{v}"],
           "ack": ["好的，已经记下了。", "已保存。"], "form": ("服务", "用户名", "密码", "号码"),
           "card": ["我的信用卡：{num}，有效期 {exp}，安全码 {cvv}"]},
    "ko": {"np": {"wifi-password": "집 와이파이 비밀번호", "debit-card-pin": "체크카드 비밀번호", "phone-unlock-pin": "휴대폰 잠금 비밀번호",
                  "door-code": "공동현관 비밀번호", "alarm-code": "경보기 해제 번호", "email-password": "네이버 메일 비밀번호",
                  "bank-login-password": "인터넷뱅킹 비밀번호", "sim-pin": "유심 PIN 번호", "one-time-code": "문자로 온 인증번호",
                  "safe-code": "금고 비밀번호", "e-id-login": "공동인증서 비밀번호", "locker-code": "헬스장 사물함 비밀번호"},
           "tpl": ["기억해 줘: {np}는 {v}야.", "{NP}: {v}", "메모 – {np} = {v}", "또 까먹을까 봐 적어 둠: {np} {v}"],
           "ack": ["네, 기억해 둘게요.", "저장했어요."], "form": ("서비스", "아이디", "비밀번호", "코드"),
           "card": ["내 카드: {num}, 유효기간 {exp}, CVC {cvv}"]},
    "vi": {"np": {"wifi-password": "mật khẩu wifi ở nhà", "debit-card-pin": "mã PIN thẻ ATM", "phone-unlock-pin": "mã mở khóa điện thoại",
                  "door-code": "mã cửa chung cư", "email-password": "mật khẩu Gmail của tôi", "bank-login-password": "mật khẩu ngân hàng điện tử",
                  "sim-pin": "mã PIN của SIM", "one-time-code": "mã OTP ngân hàng gửi qua SMS", "safe-code": "mã két sắt", "alarm-code": "mã báo động"},
           "tpl": ["Nhớ giúp mình: {np} là {v}.", "{NP}: {v}", "Ghi chú – {np} = {v}", "Lỡ mình quên nữa thì: {np} là {v}"],
           "ack": ["Được rồi, mình đã lưu.", "Đã ghi nhớ."], "form": ("Dịch vụ", "Tên đăng nhập", "Mật khẩu", "Mã"),
           "card": ["Thẻ của mình: {num}, hết hạn {exp}, CVV {cvv}"]},
    "id": {"np": {"wifi-password": "password wifi di rumah", "debit-card-pin": "PIN kartu ATM saya", "phone-unlock-pin": "kode kunci HP",
                  "door-code": "kode pintu apartemen", "email-password": "password Gmail saya", "bank-login-password": "password internet banking",
                  "sim-pin": "PIN kartu SIM", "one-time-code": "kode OTP dari bank", "safe-code": "kode brankas", "alarm-code": "kode alarm"},
           "tpl": ["Tolong ingat: {np} adalah {v}.", "{NP}: {v}", "Catatan – {np} = {v}", "Kalau aku lupa lagi: {np} itu {v}"],
           "ack": ["Oke, sudah disimpan.", "Siap, dicatat."], "form": ("Layanan", "Nama pengguna", "Kata sandi", "Kode"),
           "card": ["Kartu saya: {num}, berlaku sampai {exp}, CVV {cvv}"]},
    "th": {"np": {"wifi-password": "รหัสไวไฟที่บ้าน", "debit-card-pin": "รหัส ATM ของฉัน", "phone-unlock-pin": "รหัสปลดล็อกมือถือ",
                  "door-code": "รหัสประตูคอนโด", "email-password": "รหัสผ่าน Gmail", "bank-login-password": "รหัสผ่านแอปธนาคาร",
                  "sim-pin": "PIN ซิมการ์ด", "one-time-code": "รหัส OTP จากธนาคาร", "safe-code": "รหัสตู้เซฟ"},
           "tpl": ["ช่วยจำไว้หน่อย: {np} คือ {v}", "{NP}: {v}", "โน้ต – {np} = {v}", "กันลืม: {np} คือ {v}"],
           "ack": ["โอเค จำไว้แล้ว", "บันทึกแล้ว"], "form": ("บริการ", "ชื่อผู้ใช้", "รหัสผ่าน", "รหัส"),
           "card": ["บัตรของฉัน: {num} หมดอายุ {exp} CVV {cvv}"]},
    "ro": {"np": {"wifi-password": "parola de la wifi-ul de acasă", "debit-card-pin": "PIN-ul cardului",
                  "phone-unlock-pin": "codul de deblocare al telefonului", "door-code": "codul de la interfon", "alarm-code": "codul alarmei",
                  "email-password": "parola de la Gmail", "bank-login-password": "parola de la internet banking", "sim-pin": "PIN-ul cartelei SIM",
                  "one-time-code": "codul primit prin SMS", "safe-code": "cifrul seifului"},
           "tpl": ["Ține minte: {np} este {v}.", "{NP}: {v}", "Notă – {np} = {v}", "Dacă uit iar: {np} e {v}"],
           "ack": ["Am notat.", "Gata, salvat."], "form": ("Serviciu", "Utilizator", "Parolă", "Cod"),
           "card": ["Cardul meu: {num}, expiră {exp}, CVV {cvv}"]},
    "hu": {"np": {"wifi-password": "az otthoni wifi jelszava", "debit-card-pin": "a bankkártyám PIN-kódja",
                  "phone-unlock-pin": "a telefon feloldó kódja", "door-code": "a kapukód", "alarm-code": "a riasztó kódja",
                  "email-password": "a Gmail jelszavam", "bank-login-password": "a netbank jelszava", "sim-pin": "a SIM-kártya PIN-kódja",
                  "one-time-code": "a banktól kapott SMS-kód", "safe-code": "a széf kódja"},
           "tpl": ["Jegyezd meg: {np} {v}.", "{NP}: {v}", "Jegyzet – {np} = {v}", "Ha megint elfelejteném: {np} {v}"],
           "ack": ["Rendben, elmentettem.", "Megjegyeztem."], "form": ("Szolgáltatás", "Felhasználónév", "Jelszó", "Kód"),
           "card": ["A kártyám: {num}, lejárat {exp}, CVC {cvv}"]},
}


def foreign_personal(lang):
    d = FL[lang]
    kinds = list(d["np"]) + ["payment-card"]
    kind = pick(kinds)
    if kind == "payment-card":
        brand, num, exp, cvv = card()
        sentence = fill(pick(d["card"]), num=card_fmt(num, pick([" ", " ", "-"])), exp=exp, cvv=cvv)
        v = num
    else:
        v = pval("one-time-code" if kind == "one-time-code" else ("debit-card-pin" if kind == "payment-pin" else kind))
        np_ = d["np"][kind]
        sentence = fill(pick(d["tpl"]), np=np_, NP=cap(np_), v=v)
    r = R.random()
    if len(sentence) < 34 and r < 0.5:
        sentence = pick([date_iso() + " · ", "📌 ", "#memo ", date_iso() + ": ", "✔ "]) + sentence
    if r < 0.5:
        seg, val = f"prose-{lang}", sentence
    elif r < 0.8:
        seg = f"chat-{lang}"
        val = [{"role": "user", "content": sentence}, {"role": "assistant", "content": pick(d["ack"])}]
    else:
        seg = f"form-{lang}"
        svc, usr, pw, code = d["form"]
        if kind == "payment-card":
            val = {svc: brand, "#": card_fmt(num), "exp": exp, "CVV": cvv}
        elif kind in PWD_KINDS:
            val = {svc: d["np"][kind], usr: email(), pw: v}
        else:
            val = {svc: d["np"][kind], code: v, "updated": date_iso()}
    return seg, kind, val


def build_personal(n_en=175, n_foreign=275):
    made = 0
    tries = 0
    while made < n_en and tries < 5000:
        tries += 1
        kind = pick(EN_KINDS)
        seg, val = en_personal(kind)
        if vlen(val) < 25 or vlen(val) > 420:
            continue
        if add("secret", "plain", seg, kind, val, lang="en", group=seg):
            made += 1
    langs = list(FL)
    per = n_foreign // len(langs)
    extra = n_foreign - per * len(langs)
    for i, lang in enumerate(langs):
        want = per + (1 if i < extra else 0)
        got = 0
        tries = 0
        while got < want and tries < 500:
            tries += 1
            seg, kind, val = foreign_personal(lang)
            if vlen(val) < 20:
                continue
            if add("secret", "plain", seg, kind, val, lang=lang, group=seg.split("-")[0]):
                got += 1
        made += got
    return made


# ---------------------------------------------------------------------------
# section 3: secret / hard / evasion techniques
# ---------------------------------------------------------------------------
TECH = []


def tech(name, n=5):
    def deco(fn):
        TECH.append((name, fn, n))
        return fn
    return deco


SIMPLE_SPECS = [s for s in VENDORS if s["cat"] == "api" and len(s["pairs"]) == 1]
PIN_KINDS = ["debit-card-pin", "phone-unlock-pin", "sim-pin", "alarm-code", "safe-code", "locker-code", "gate-code",
             "smart-lock-code", "voicemail-pin", "tv-parental-pin", "garage-code", "door-code", "keybox-code", "credit-card-pin"]
PW_KINDS = ["email-password", "wifi-password", "bank-login-password", "streaming-password", "social-password",
            "work-login-password", "router-admin-password", "apple-id-password", "crypto-exchange-password"]


def base_tok(maxlen=90, minlen=16):
    while True:
        s = pick(SIMPLE_SPECS)
        n, v = gen_pairs(s)[0]
        if minlen <= len(v) <= maxlen and " " not in v and "\n" not in v:
            return s["kind"], s["vendor"], n, v


def label_for(kind):
    return fill(pick(EN_NP[kind]), **en_slots())


def base_pw():
    k = pick(PW_KINDS)
    return k, label_for(k), human_pw()


def base_pin(n=None, nozero=False):
    k = pick(PIN_KINDS)
    while True:
        p = pin(n or R.choice([4, 4, 6]))
        if not nozero or ("0" not in p and "1" not in p):
            return k, label_for(k), p


def base_secret():
    """token or password (kind, label, value)"""
    if chance(0.55):
        k, vendor, n, v = base_tok()
        if k.endswith(("api-key", "token", "pat")):
            return k, f"{vendor} {pick(['API key', 'token', 'key'])}", v
        return k, f"the {vendor} {k.replace('-', ' ').split(slug(vendor).split('_')[0] + ' ', 1)[-1]}", v
    return base_pw()


def hexs(s):
    return s.encode().hex()


ROT47 = lambda s: "".join(chr(33 + ((ord(c) + 14) % 94)) if 33 <= ord(c) <= 126 else c for c in s)
MORSE = {"0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....", "7": "--...",
         "8": "---..", "9": "----.", "a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.",
         "h": "....", "i": "..", "j": ".---", "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.",
         "q": "--.-", "r": ".-.", "s": "...", "t": "-", "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--.."}
NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf", "h": "hotel",
        "i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november", "o": "oscar", "p": "papa",
        "q": "quebec", "r": "romeo", "s": "sierra", "t": "tango", "u": "uniform", "v": "victor", "w": "whiskey",
        "x": "x-ray", "y": "yankee", "z": "zulu"}
DIGIT_WORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
    "nl": "nul een twee drie vier vijf zes zeven acht negen".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
}
SCRIPT_DIGITS = {"arabic-indic": "٠١٢٣٤٥٦٧٨٩", "persian": "۰۱۲۳۴۵۶۷۸۹", "devanagari": "०१२३४५६७८९",
                 "bengali": "০১২৩৪৫৬৭৮৯", "thai": "๐๑๒๓๔๕๖๗๘๙", "fullwidth": "０１２３４５６７８９",
                 "chinese": "〇一二三四五六七八九", "math-bold": "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗", "circled": "⓪①②③④⑤⑥⑦⑧⑨",
                 "superscript": "⁰¹²³⁴⁵⁶⁷⁸⁹"}


def tr_digits(s, table):
    return "".join(table[int(c)] if c.isdigit() else c for c in s)


def fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in s)


def math_alpha(s, up, lo, dig):
    out = []
    for c in s:
        if "A" <= c <= "Z":
            out.append(chr(up + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(lo + ord(c) - 97))
        elif c.isdigit():
            out.append(chr(dig + int(c)))
        else:
            out.append(c)
    return "".join(out)


def circled(s):
    out = []
    for c in s:
        if "A" <= c <= "Z":
            out.append(chr(0x24B6 + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(0x24D0 + ord(c) - 97))
        elif c == "0":
            out.append("⓪")
        elif c.isdigit():
            out.append(chr(0x2460 + int(c) - 1))
        else:
            out.append(c)
    return "".join(out)


HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "A": "А", "B": "В", "E": "Е", "K": "К",
        "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х", "i": "і", "s": "ѕ", "j": "ј"}


def homoglyph(s):
    out = "".join(HOMO.get(c, c) if chance(0.7) else c for c in s)
    if out == s:
        out = "".join(HOMO.get(c, c) for c in s)
    return out


def insert_every(s, ch, p=1.0):
    return ch.join(s) if p >= 1 else "".join(c + (ch if chance(p) else "") for c in s)


KEYPAD = {"2": "abc", "3": "def", "4": "ghi", "5": "jkl", "6": "mno", "7": "pqrs", "8": "tuv", "9": "wxyz"}


def say(kind_label, v, style=None):
    return fill(pick(["{L}: {v}", "{L} is {v}", "remember {l} → {v}", "{L} = {v}", "saving {l}: {v}"]), L=cap(kind_label), l=kind_label, v=v)


# ---- encodings ------------------------------------------------------------
@tech("base64")
def _():
    k, lab, v = base_secret()
    e = base64.b64encode(v.encode()).decode()
    return k, pick([f"{cap(lab)} (base64 so it doesn't get flagged): {e}", f"b64 of {lab}: {e}",
                    f"stored it encoded, decode with base64 -d → {e}", f"{lab} = atob('{e}')"])


@tech("base64-credential-pair")
def _():
    user = pick([email(), pick(FIRST).lower(), "admin", "deploy"])
    pw = human_pw()
    e = base64.b64encode(f"{user}:{pw}".encode()).decode()
    return "account-password", pick([f"login for the NAS, base64(user:pass) = {e}", f"the router creds, base64 encoded: {e}",
                                     f"Basic auth blob for the staging site: {e} (it's just user:password in base64)"])


@tech("hex")
def _():
    k, lab, v = base_secret()
    return k, pick([f"{cap(lab)} in hex: {hexs(v)}", f"hex-encoded {lab} → {hexs(v)}", f"xxd -r -p <<< {hexs(v)}   # that's the {lab}"])


@tech("base32")
def _():
    k, lab, v = base_secret()
    e = base64.b32encode(v.encode()).decode().rstrip("=")
    return k, pick([f"{cap(lab)} (base32, no padding): {e}", f"base32 version of {lab}: {e}"])


@tech("rot13")
def _():
    k, lab, v = base_pw() if chance(0.6) else base_secret()
    return k, pick([f"{cap(lab)} (rot13): {codecs.encode(v, 'rot13')}", f"rot13 so nobody reads it over my shoulder — {lab}: {codecs.encode(v, 'rot13')}"])


@tech("url-encoded")
def _():
    k, lab, v = base_secret()
    e = "".join(f"%{b:02X}" for b in v.encode())
    return k, pick([f"{cap(lab)} (url-encoded): {e}", f"pasting the percent-encoded {lab} from the redirect: {e}"])


@tech("decimal-char-codes")
def _():
    k, lab, v = base_pw() if chance(0.5) else base_secret()
    return k, f"{cap(lab)} as ascii codes: " + pick([" ", ",", ", "]).join(str(ord(c)) for c in v)


@tech("binary-bytes")
def _():
    k, lab, v = base_pin() if chance(0.5) else base_pw()
    return k, f"{cap(lab)} in binary (ascii): " + " ".join(f"{ord(c):08b}" for c in v)


@tech("octal-escapes")
def _():
    k, lab, v = base_secret()
    e = "".join("\\%03o" % ord(c) for c in v)
    return k, f"printf '{e}'   # {lab}"


@tech("unicode-escapes")
def _():
    k, lab, v = base_secret()
    return k, pick([f'"{lab}": "' + "".join(f"\\u{ord(c):04x}" for c in v) + '"', f"{cap(lab)} (escaped): " + "".join(f"\\u{ord(c):04X}" for c in v)])


@tech("html-entities")
def _():
    k, lab, v = base_secret()
    e = "".join(f"&#{ord(c)};" if chance(0.5) else f"&#x{ord(c):x};" for c in v)
    return k, f"<p>{cap(lab)}: <code>{e}</code></p>"


@tech("morse-code")
def _():
    if chance(0.6):
        k, lab, v = base_pin()
    else:
        k, lab = "wifi-password", label_for("wifi-password")
        v = pick(PW_WORDS) + pick(PW_WORDS) + dz(2)
    return k, f"{cap(lab)} in morse, for fun: " + " / ".join(MORSE[c] for c in v.lower() if c in MORSE)


@tech("nato-phonetic")
def _():
    k, lab, v = base_pw()
    parts = []
    for c in v:
        if c.isalpha():
            parts.append(("capital " if c.isupper() else "") + NATO[c.lower()])
        elif c.isdigit():
            parts.append(DIGIT_WORDS["en"][int(c)])
        else:
            parts.append({"!": "exclamation mark", "?": "question mark", "#": "hash", "$": "dollar", "*": "star", "%": "percent",
                          "&": "ampersand", "@": "at", "+": "plus", "=": "equals", "-": "dash", "_": "underscore", ".": "dot"}.get(c, c))
    return k, f"spelling {lab} for grandma over the phone: " + ", ".join(parts)


@tech("caesar-shift")
def _():
    k, lab, v = base_pw()
    n = pick([1, 3, 5])

    def sh(c):
        if c.islower():
            return chr((ord(c) - 97 + n) % 26 + 97)
        if c.isupper():
            return chr((ord(c) - 65 + n) % 26 + 65)
        if c.isdigit():
            return str((int(c) + n) % 10)
        return c
    return k, f"{cap(lab)}, every letter and digit shifted +{n}: {''.join(sh(c) for c in v)}"


@tech("double-base64")
def _():
    k, lab, v = base_secret()
    e = base64.b64encode(base64.b64encode(v.encode())).decode()
    return k, f"{cap(lab)} (base64 twice): {e}"


@tech("gzip-base64")
def _():
    k, lab, v = base_secret()
    e = base64.b64encode(gzip.compress(f"{lab}={v}\n".encode(), mtime=0)).decode()
    return k, f"echo '{e}' | base64 -d | gunzip"


@tech("quoted-printable")
def _():
    user = email()
    pw = human_pw() + pick(["=", "==", "=x"]) if chance(0.5) else human_pw()
    body = f"Your temporary login: {user}\npassword={pw}\nPlease change it after first sign-in."
    return "account-password", "Content-Transfer-Encoding: quoted-printable\n\n" + quopri.encodestring(body.encode()).decode()


@tech("ascii85")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)} (ascii85): <~{base64.a85encode(v.encode()).decode()}~>"


@tech("base64-json-blob")
def _():
    d = {"user": pick([email(), pick(FIRST).lower()]), "password": human_pw(), "host": pick(["nas.local", "192.168.1.20", "vpn." + org()])}
    return "account-password", f"creds blob (base64 json): {base64.b64encode(json.dumps(d).encode()).decode()}"


@tech("python-bytes-hex")
def _():
    k, lab, v = base_secret()
    return k, f"{camel(lab.replace(' ', '_'))} = b'" + "".join(f"\\x{b:02x}" for b in v.encode()) + "'.decode()"


@tech("js-hex-escapes")
def _():
    k, lab, v = base_secret()
    e = "".join("\\x%02x" % ord(c) for c in v)
    return k, f"const k = \"{e}\"; // {lab}"


@tech("yaml-binary-tag")
def _():
    k, vendor, n, v = base_tok()
    return k, f"{slug(vendor)}:\n  {n.lower()}: !!binary |\n    {base64.b64encode(v.encode()).decode()}"


# ---- separators -------------------------------------------------------------
@tech("spaced-chars")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {' '.join(v)}"


@tech("dash-separated-chars")
def _():
    k, lab, v = base_pw() if chance(0.5) else base_pin(6)
    return k, f"{cap(lab)} -> {'-'.join(v)} (ignore the dashes)"


@tech("vertical-chars")
def _():
    k, lab, v = base_pw() if chance(0.6) else base_pin()
    return k, f"{cap(lab)}:\n" + "\n".join(v)


@tech("chunked-groups")
def _():
    k, vendor, n, v = base_tok(minlen=24)
    g = pick([4, 5, 6, 8])
    return k, f"{vendor} {n} in chunks of {g}: " + " ".join(v[i:i + g] for i in range(0, len(v), g))


@tech("spelled-punctuation")
def _():
    k, vendor, n, v = base_tok()
    words = {"_": " underscore ", "-": " dash ", ".": " dot ", "/": " slash ", "+": " plus ", ":": " colon ", "~": " tilde "}
    sp = "".join(words.get(c, c) for c in v)
    if sp == v:
        sp = " ".join(v[i:i + 8] for i in range(0, len(v), 8))
    return k, f"read out over the call, the {vendor} key is: {sp.strip()}"


@tech("line-continuation")
def _():
    k, vendor, n, v = base_tok(minlen=30)
    c = len(v) // 2
    return k, f'export {n}="{v[:c]}"\\\n"{v[c:]}"' if chance(0.5) else f"{n}={v[:c]}\\\n{v[c:]}"


@tech("noise-char-interleave")
def _():
    k, lab, v = base_pw()
    ch = pick(["#", "~", "|"])
    return k, f"{cap(lab)} (drop every {ch}): {insert_every(v, ch)}"


@tech("nbsp-thin-separators")
def _():
    k, lab, v = base_secret()
    sep = pick(["\u00a0", "\u2009", "\u202f", "\u2007"])
    return k, f"{cap(lab)}: {sep.join(v)}"


# ---- built in code ------------------------------------------------------------
def splits(v, n=None):
    n = n or R.randint(3, 5)
    cuts = sorted(R.sample(range(1, len(v)), min(n - 1, len(v) - 1)))
    out, prev = [], 0
    for c in cuts + [len(v)]:
        out.append(v[prev:c])
        prev = c
    return out


@tech("string-concat")
def _():
    k, vendor, n, v = base_tok()
    ps = splits(v)
    return k, pick([f"{n} = " + " + ".join(f'"{p}"' for p in ps), f"const {camel(n)} = " + " + ".join(f"'{p}'" for p in ps) + ";"])


@tech("js-array-join")
def _():
    k, vendor, n, v = base_tok()
    return k, f"const {camel(n)} = [{', '.join(repr(p) for p in splits(v))}].join('');"


@tech("fromcharcode")
def _():
    k, lab, v = base_secret()
    return k, f"// {lab}\nconst s = String.fromCharCode({', '.join(str(ord(c)) for c in v)});"


@tech("python-chr-list")
def _():
    k, lab, v = base_secret()
    return k, f"# {lab}\npw = ''.join(map(chr, [{', '.join(str(ord(c)) for c in v)}]))"


@tech("go-byte-slice")
def _():
    k, vendor, n, v = base_tok(maxlen=48)
    return k, f"var {camel(n)} = string([]byte{{{', '.join(f'0x{b:02x}' for b in v.encode())}}})"


@tech("spreadsheet-concat")
def _():
    k, lab, v = base_secret()
    ps = splits(v, 3)
    return k, f"cell D7 (hidden column) in the budget sheet: =CONCATENATE(\"{ps[0]}\";\"{ps[1]}\";\"{ps[2]}\")  ← {lab}"


# ---- digits in words and other scripts ---------------------------------------
def _digit_words(lang, lines):
    def f():
        kind, tpl = pick(lines)
        v = pin(R.choice([4, 4, 6]))
        w = " ".join(DIGIT_WORDS[lang][int(c)] for c in v)
        return kind, fill(tpl, w=w), lang
    return f


for _lang, _lines in [
    ("en", [("alarm-code", "the alarm code is {w}, you have thirty seconds after opening the door"),
            ("debit-card-pin", "{w} — that's the PIN for the debit card, don't write it on the card"),
            ("door-code", "remember the front door code: {w} and then press enter")]),
    ("de", [("garage-code", "Der Code für das Garagentor ist {w} (danach die Raute drücken)"),
            ("debit-card-pin", "PIN der EC-Karte, ausgeschrieben: {w}"),
            ("alarm-code", "Alarmanlage ausschalten mit {w}, dann grüne Taste")]),
    ("fr", [("door-code", "Le digicode de l'immeuble, c'est {w}, puis la porte de gauche"),
            ("debit-card-pin", "code de la carte bleue en toutes lettres : {w}"),
            ("safe-code", "la combinaison du coffre dans le placard : {w}")]),
    ("es", [("door-code", "El código del portal es {w}, luego el ascensor al tercero"),
            ("debit-card-pin", "PIN de la tarjeta del banco, por si acaso: {w}"),
            ("alarm-code", "la alarma de casa se desactiva con {w}")]),
    ("ru", [("door-code", "Код от домофона у мамы: {w}, потом кнопка вызова"),
            ("debit-card-pin", "пин-код от зарплатной карты: {w}"),
            ("safe-code", "сейф в шкафу открывается кодом {w}")]),
    ("ja", [("debit-card-pin", "キャッシュカードの暗証番号は {w} です（忘れないように）"),
            ("locker-code", "ジムのロッカーの番号：{w}、いつもの列の一番上"),
            ("door-code", "マンションのオートロックは {w} で開きます")]),
]:
    tech("digits-words-" + _lang)(_digit_words(_lang, _lines))


CTX_TAIL = [" (changed it last week)", " — copied from the letter the bank sent", " (don't tell the kids)",
            " — same as the old one but the last digit changed", " (set it up on Sunday)", " — new since the move",
            " (from the welcome pack)", " — write it in the paper notebook too"]


def _script_digits(name):
    def f():
        k, lab, v = base_pin(R.choice([4, 6]))
        t = tr_digits(v, SCRIPT_DIGITS[name])
        return k, pick([f"{cap(lab)}: {t}", f"{t} ← {lab}", f"remember {lab} = {t}"]) + pick(CTX_TAIL)
    return f


for _n in ["arabic-indic", "persian", "devanagari", "thai", "fullwidth", "chinese", "math-bold", "circled"]:
    tech(f"digits-{_n}")(_script_digits(_n))


@tech("keycap-emoji-digits")
def _():
    k, lab, v = base_pin()
    return k, f"{cap(lab)} " + "".join(c + "\ufe0f\u20e3" for c in v) + pick(CTX_TAIL)


@tech("phone-keypad-letters")
def _():
    k, lab, v = base_pin(4, nozero=True)
    word = "".join(pick(KEYPAD[c]) for c in v).upper()
    return k, pick([f"{cap(lab)} spells {word} on the phone keypad", f"{lab}: type {word} on the keypad letters (2=ABC ...)"])


@tech("mixed-script-digits")
def _():
    k, lab, v = base_pin(6)
    tabs = [SCRIPT_DIGITS["arabic-indic"], DG, SCRIPT_DIGITS["fullwidth"], SCRIPT_DIGITS["devanagari"]]
    return k, f"{cap(lab)}: " + "".join(pick(tabs)[int(c)] for c in v)


@tech("digit-by-digit")
def _():
    k, lab, v = base_pin(4)
    ords = ["first", "second", "third", "fourth"]
    parts = [f"{ords[i]} digit {v[i]}" if i < 3 else f"last one {v[i]}" for i in range(4)]
    return k, f"{cap(lab)} — " + ", ".join(parts)


@tech("spoken-fillers")
def _():
    k, lab, v = base_pin(R.choice([4, 6]))
    words = [DIGIT_WORDS["en"][int(c)] for c in v]
    out = []
    for i, w in enumerate(words):
        out.append(w)
        if chance(0.35):
            out.append(pick(["uh,", "um,", "wait,", "yeah,"]))
    return k, f"[voice note transcript] so {lab} is... {' '.join(out)}. yeah. that's it."


@tech("card-digits-spelled")
def _():
    brand, num, exp, cvv = card()
    w = " ".join(DIGIT_WORDS["en"][int(c)] for c in num)
    return "payment-card", f"{brand} card, reading it out: {w}. expiry {exp}, cvv {' '.join(DIGIT_WORDS['en'][int(c)] for c in cvv)}"


@tech("card-vertical-groups")
def _():
    brand, num, exp, cvv = card()
    return "payment-card", f"{brand} ({fullname()})\n" + "\n".join(card_fmt(num).split(" ")) + f"\n{exp}\n{cvv}"


@tech("card-fullwidth")
def _():
    brand, num, exp, cvv = card()
    return "payment-card", f"{brand}：{fullwidth(card_fmt(num))}　有効期限 {fullwidth(exp)}　CVV {fullwidth(cvv)}", "ja"


# ---- unicode tricks ------------------------------------------------------------
@tech("homoglyph-cyrillic")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {homoglyph(v)}"


@tech("fullwidth-letters")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}：{fullwidth(v)}"


@tech("math-bold-letters")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {math_alpha(v, 0x1D400, 0x1D41A, 0x1D7CE)}"


@tech("math-monospace-letters")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {math_alpha(v, 0x1D670, 0x1D68A, 0x1D7F6)}"


@tech("zero-width-space")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {insert_every(v, chr(0x200B), 0.5)}"


@tech("zero-width-joiner")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {insert_every(v, pick([chr(0x200D), chr(0x200C)]), 0.4)}"


@tech("soft-hyphen")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: {insert_every(v, chr(0x00AD), 0.3)}"


@tech("bidi-override")
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)}: \u202e{v[::-1]}\u202c"


@tech("circled-letters")
def _():
    k, lab, v = base_pw()
    return k, f"{cap(lab)}: {circled(v)}"


# ---- reversal ---------------------------------------------------------------
@tech("reversed-string")
def _():
    k, lab, v = base_secret()
    return k, pick([f"{cap(lab)} (written backwards): {v[::-1]}", f"read it right-to-left: {v[::-1]} — {lab}", f"{lab}, reversed: {v[::-1]}"])


@tech("reversed-seed-order")
def _():
    w = seed_words(12)
    return "seed-phrase", f"wallet words, LAST to FIRST (so 12 down to 1): {' '.join(reversed(w))}"


@tech("reversed-pin")
def _():
    k, lab, v = base_pin(R.choice([4, 6]))
    return k, pick([f"{cap(lab)} backwards is {v[::-1]}", f"{v[::-1]} — reverse it, that's {lab}"])


# ---- splitting across fields, items, messages, key / namespace ---------------
@tech("split-json-fields")
def _():
    k, lab, v = base_secret()
    ps = splits(v, pick([2, 3]))
    d = {"label": lab, "note": "concatenate the parts"}
    for i, p in enumerate(ps, 1):
        d[f"part{i}"] = p
    return k, d


@tech("split-list-items")
def _():
    k, lab, v = base_secret()
    return k, [f"{lab} (3 pieces, in order):"] + splits(v, 3)


@tech("split-conversation")
def _():
    k, lab, v = base_secret()
    ps = splits(v, 2)
    a = pick(FIRST)
    return k, [{"from": a, "text": f"{lab} part 1: {ps[0]}"}, {"from": a, "text": "sending the rest separately just in case"},
               {"from": a, "text": f"part 2: {ps[1]}"}]


@tech("secret-in-key-hex")
def _():
    if chance(0.5):
        k, lab, v = base_pin(R.choice([4, 6]))
    else:
        k, lab = "wifi-password", label_for("wifi-password")
        v = pick(PW_WORDS) + dz(4)
    return {"kind": k, "value": pick([f"{cap(lab)} — stored encoded in this memory's key (hex)", f"{cap(lab)}: see key, it's the hex after mem_",
                                      f"kept {lab} out of the text on purpose; decode the key"]), "key": "mem_" + hexs(v)}


@tech("secret-in-namespace")
def _():
    k, lab, v = base_pw() if chance(0.5) else base_pin()
    return {"kind": k, "value": f"{cap(lab)} is filed in the third namespace element so it doesn't show up in the note text",
            "ns": v}


@tech("split-key-and-value")
def _():
    k, lab, v = base_pw()
    c = len(v) // 2
    return {"kind": k, "value": f"{cap(lab)}: first half is hex in the key, second half is {v[c:]}", "key": "mem_" + hexs(v[:c])}


@tech("note-and-tags-split")
def _():
    k, lab, v = base_secret()
    c = len(v) // 2
    return k, {"note": f"{lab}: {v[:c]}…", "tags": ["creds", f"…{v[c:]}"], "pinned": True}


@tech("seed-numbered-object")
def _():
    w = seed_words(pick([12, 24]))
    return "seed-phrase", {"wallet": pick(["Ledger", "Trezor", "BlueWallet", "Sparrow"]), "words": {str(i + 1): x for i, x in enumerate(w)}}


@tech("seed-positions-shuffled")
def _():
    w = seed_words(12)
    idx = list(range(12))
    R.shuffle(idx)
    return "seed-phrase", "recovery words with positions (shuffled on purpose): " + " ".join(f"{w[i]}({i + 1})" for i in idx)


@tech("seed-two-messages")
def _():
    w = seed_words(12)
    return "seed-phrase", [{"role": "user", "content": "first half of my wallet words: " + " ".join(w[:6])},
                           {"role": "assistant", "content": "Got it."},
                           {"role": "user", "content": "and the rest: " + " ".join(w[6:])}]


@tech("seed-first-four-letters")
def _():
    w = seed_words(pick([12, 24]))
    return "seed-phrase", "steel backup plate (first 4 letters of each word): " + " ".join(x[:4].upper() for x in w)


@tech("seed-bip39-indices")
def _():
    n = pick([12, 24])
    return "seed-phrase", f"seed as BIP39 word numbers ({n} words): " + " ".join(f"{R.randint(1, 2048):04d}" for _ in range(n))


@tech("card-split-fields")
def _():
    brand, num, exp, cvv = card()
    return "payment-card", {"card_a": num[:8], "card_b": num[8:], "mm_yy": exp, "code": cvv, "brand": brand}


@tech("interleaved-even-odd", 4)
def _():
    k, lab, v = base_secret()
    return k, f"{cap(lab)} split into odd/even positions → odd: {v[0::2]} | even: {v[1::2]}"


@tech("mask-complement")
def _():
    brand, num, exp, cvv = card()
    return "payment-card", [{"role": "user", "content": f"my {brand} ends in {num[-4:]}, masked it's **** **** **** {num[-4:]}"},
                            {"role": "user", "content": f"the rest of it is {num[:-4]} — exp {exp}, cvv {cvv}"}]


# ---- code & config idioms --------------------------------------------------
@tech("shell-default-expansion")
def _():
    k, vendor, n, v = base_tok()
    return k, pick([f'curl -H "Authorization: Bearer ${{{n}:-{v}}}" https://api.{org()}/v1/me',
                    f'TOKEN="${{{n}:-{v}}}"\n./sync.sh "$TOKEN"'])


@tech("python-getenv-default")
def _():
    k, vendor, n, v = base_tok()
    return k, pick([f'{n.lower()} = os.environ.get("{n}", "{v}")', f'API_KEY = os.getenv("{n}") or "{v}"  # fallback for local runs'])


@tech("dockerfile-arg-default")
def _():
    k, vendor, n, v = base_tok()
    return k, f"FROM node:20-alpine\nARG {n}={v}\nENV {n}=${{{n}}}\nRUN npm ci"


@tech("sql-insert")
def _():
    k, vendor, n, v = base_tok()
    return k, f"INSERT INTO integrations (provider, api_key, created_at) VALUES ('{slug(vendor)}', '{v}', '{date_iso()}');"


@tech("git-remote-token")
def _():
    tok = pick(["ghp_" + an(36), "glpat-" + rs(B64U, 20), "github_pat_11" + anu(20) + "_" + an(59)])
    kind = "github-pat-classic" if tok.startswith("ghp_") else ("gitlab-pat" if tok.startswith("glpat") else "github-pat-fine-grained")
    hostn = "gitlab.com" if kind == "gitlab-pat" else "github.com"
    return kind, f"git remote set-url origin https://{pick(['oauth2', 'x-access-token', pick(FIRST).lower()])}:{tok}@{hostn}/{slugname()}/{pick(['infra', 'website', 'api'])}.git"


@tech("pip-index-url", 4)
def _():
    tok = pick(["AKCp" + an(69), uid(), an(40)])
    return "package-registry-token", f"pip install --extra-index-url https://{pick(['ci', 'deploy'])}:{tok}@pkgs.{org()}/simple/ internal-lib==2.3.1"


@tech("netrc")
def _():
    return "account-password", f"# ~/.netrc\nmachine {pick(['api.heroku.com', 'ftp.' + org(), 'git.' + org(), 'urs.earthdata.nasa.gov'])}\n  login {pick([email(), pick(FIRST).lower()])}\n  password {human_pw()}"


@tech("pgpass")
def _():
    return "database-password", f"{dbhost('pg')}:5432:{dbname()}:{dbuser()}:{url_pw()}"


@tech("kubectl-from-literal")
def _():
    k, vendor, n, v = base_tok()
    return k, f"kubectl -n {pick(['prod', 'apps'])} create secret generic {slug(vendor).replace('_', '-')} --from-literal={n.lower()}={v}"


@tech("docker-login-p")
def _():
    pw = pick(["dckr_pat_" + rs(B64U, 27), url_pw(20)])
    return "registry-password", f"docker login -u {pick(['ci', 'deploy', pick(FIRST).lower()])} -p {pw} {pick(['docker.io', 'registry.' + org()])}"


@tech("mysql-p-inline")
def _():
    return "database-password", f"{R.randint(100, 999)}  mysql -h {dbhost('my')} -u {dbuser()} -p'{strong_pw(16)}' {dbname()} < dump.sql"


@tech("powershell-securestring")
def _():
    return "account-password", f"$pw = ConvertTo-SecureString \"{strong_pw(14)}\" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential (\"{pick(['CORP', 'ACME'])}\\svc_backup\", $pw)"


@tech("net-use", 4)
def _():
    return "account-password", f"net use Z: \\\\{pick(['fileserver', 'nas01', 'srv-share'])}\\{pick(['finance', 'public', 'scans'])} /user:{pick(['CORP', 'WORKGROUP'])}\\{pick(FIRST).lower()} {human_pw()} /persistent:yes"


@tech("ansible-inventory", 4)
def _():
    return "ssh-password", f"[web]\n10.0.2.{R.randint(2, 200)} ansible_user={pick(['deploy', 'ubuntu'])} ansible_password={strong_pw(14)} ansible_become_pass={strong_pw(14)}"


@tech("code-comment-todo")
def _():
    k, vendor, n, v = base_tok()
    return k, pick([f"client = Client(api_key=os.environ[\"{n}\"])  # TODO remove: old value was {v}, still works",
                    f"// FIXME: hardcoded for the demo -> {v}\nconst client = createClient(process.env.{n});"])


@tech("commented-out-env")
def _():
    k, vendor, n, v = base_tok()
    return k, f"{n}=${{VAULT_{n}}}\n# {n}={v}   <- old key, not revoked yet\nLOG_LEVEL=info"


@tech("k8s-base64-data")
def _():
    user = pick(["app", "postgres", "admin"])
    pw = url_pw(20)
    return "database-password", (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ntype: Opaque\ndata:\n"
                                 f"  username: {base64.b64encode(user.encode()).decode()}\n  password: {base64.b64encode(pw.encode()).decode()}")


@tech("basic-auth-header")
def _():
    user = pick([email(), "admin", "api"])
    return "account-password", f"Authorization: Basic {base64.b64encode((user + ':' + human_pw()).encode()).decode()}"


@tech("npmrc-auth", 4)
def _():
    return "package-registry-token", f"registry=https://npm.{org()}/\n_auth={base64.b64encode((pick(['ci', 'deploy']) + ':' + url_pw(24)).encode()).decode()}\nalways-auth=true"


@tech("url-userinfo")
def _():
    return "account-password", pick([f"router admin: http://admin:{human_pw()}@192.168.{R.randint(0, 2)}.1/",
                                     f"camera stream rtsp://{pick(['admin', 'viewer'])}:{url_pw(12)}@192.168.1.{R.randint(20, 90)}:554/stream1",
                                     f"webdav: https://{pick(FIRST).lower()}:{url_pw(16)}@cloud.{org()}/remote.php/dav"])


@tech("wifi-qr-string")
def _():
    return "wifi-password", f"WIFI:T:WPA;S:{pick(SSIDS)};P:{human_pw()};H:false;;"


@tech("vcard-note", 4)
def _():
    f, l = person()
    return "alarm-code", f"BEGIN:VCARD\nVERSION:3.0\nFN:{f} {l}\nTEL;TYPE=CELL:+44 7700 9{dz(5)}\nNOTE:spare key neighbour - alarm {pin(4)}\nEND:VCARD"


@tech("ical-event", 4)
def _():
    return "keybox-code", f"BEGIN:VEVENT\nSUMMARY:Check-in {pick(CITIES)} apartment\nDTSTART:{date_iso().replace('-', '')}T150000\nDESCRIPTION:Key box next to the door\\, code {door_code()}\nEND:VEVENT"


@tech("reg-winlogon", 4)
def _():
    return "computer-login-password", (f"Windows Registry Editor Version 5.00\n\n[HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon]\n"
                                       f"\"AutoAdminLogon\"=\"1\"\n\"DefaultUserName\"=\"{pick(['kiosk', 'frontdesk', 'pos01'])}\"\n\"DefaultPassword\"=\"{human_pw()}\"")


@tech("form-urlencoded-body")
def _():
    return "account-password", f"POST /login HTTP/1.1\nHost: {pick(['portal', 'my', 'secure'])}.{org()}\nContent-Type: application/x-www-form-urlencoded\n\nusername={urllib.parse.quote(email())}&password={urllib.parse.quote(human_pw())}&remember=1"


@tech("graphql-variables", 4)
def _():
    return "account-password", {"query": "mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }",
                                "variables": {"email": email(), "password": human_pw()}}


@tech("git-commit-message")
def _():
    k, vendor, n, v = base_tok()
    return k, f"commit {hx(40)}\nAuthor: {fullname()} <{email(True)}>\n\n    hotfix: switch {vendor} to new key {v}\n\n    will move to vault later"


@tech("postman-environment", 4)
def _():
    k, vendor, n, v = base_tok()
    return k, {"name": f"{vendor} prod", "values": [{"key": "baseUrl", "value": f"https://api.{org()}", "enabled": True},
                                                   {"key": camel(n), "value": v, "type": "secret", "enabled": True}]}


@tech("tfstate-sensitive", 4)
def _():
    return "database-password", {"version": 4, "resources": [{"type": "aws_db_instance", "name": "main", "instances": [
        {"attributes": {"identifier": f"{slugname()}-prod", "username": dbuser(), "password": url_pw(24), "port": 5432}, "sensitive_attributes": [[{"type": "get_attr", "value": "password"}]]}]}]}


@tech("json-in-json-string")
def _():
    k, lab, v = base_secret()
    inner = json.dumps({"label": lab, "secret": v})
    return k, {"event": "memory.import", "payload": inner}


@tech("deep-nested-tool-output")
def _():
    k, lab, v = base_secret()
    return k, {"tool": "vault_export", "result": {"ok": True, "data": {"items": [{"meta": {"title": lab, "fields": [{"t": "concealed", "v": v}]}}]}}}


@tech("array-of-arrays")
def _():
    k, lab, v = base_pw()
    return k, [["what", "user", "secret"], [lab, pick([email(), "-"]), v], ["bins", "-", "Tuesdays"]]


# ---- markup ----------------------------------------------------------------
@tech("markdown-table")
def _():
    rows = []
    k, lab, v = base_pw() if chance(0.5) else base_secret()
    rows.append((lab, v))
    rows.append(("bin day", "Tuesday"))
    R.shuffle(rows)
    return k, "| item | value |\n|---|---|\n" + "\n".join(f"| {a} | `{b}` |" for a, b in rows)


@tech("html-hidden-input")
def _():
    k, vendor, n, v = base_tok()
    return k, f'<form action="/export" method="post">\n  <input type="hidden" name="{n.lower()}" value="{v}">\n  <button>Export</button>\n</form>'


@tech("csv-row")
def _():
    return "account-password", f"name,url,username,password\n{pick(['Netflix', 'Amazon', 'Gmail', 'Steam', 'eBay'])},https://{pick(['netflix.com', 'amazon.de', 'accounts.google.com', 'store.steampowered.com', 'ebay.co.uk'])},{email()},{human_pw()}"


@tech("diff-removed-line")
def _():
    k, vendor, n, v = base_tok()
    return k, f"--- a/config/settings.py\n+++ b/config/settings.py\n@@ -12,3 +12,3 @@\n-{n} = \"{v}\"\n+{n} = os.environ[\"{n}\"]\n DEBUG = False"


@tech("quoted-email-reply")
def _():
    k, lab, v = base_secret()
    a = pick(FIRST)
    return k, f"Thanks, that worked!\n\nOn {date_iso()}, {a} wrote:\n> Hi, here you go:\n> {lab}: {v}\n> Let me know if it doesn't work."


@tech("markdown-link-target")
def _():
    spec = pick([s for s in VENDORS if s["cat"] == "url" and s["auth"] == "url"])
    u = gen_pairs(spec)[0][1]
    return spec["kind"], f"Alerts go to [the {spec['vendor']} channel]({u}) — see runbook."


@tech("html-comment")
def _():
    k, vendor, n, v = base_tok()
    return k, f"<div id=\"map\"></div>\n<!-- {n}: {v} (remove before going live) -->\n<script src=\"/js/app.js\"></script>"


@tech("spoiler-tags")
def _():
    k, lab, v = base_pw() if chance(0.5) else base_pin()
    return k, pick([f"{cap(lab)}: ||{v}||", f"{cap(lab)} [spoiler]{v}[/spoiler]", f"{cap(lab)}: >!{v}!<"])


@tech("strikethrough-old-new")
def _():
    k, lab, v = base_pw()
    return k, f"{cap(lab)}: ~~{human_pw()}~~ → {v} (new since {pick(WHEN)})"


# ---- conversational structure -----------------------------------------------
@tech("qa-answer-only")
def _():
    k = pick(["wifi-password", "door-code", "alarm-code", "garage-code", "streaming-password"])
    lab = label_for(k)
    v = human_pw() if "password" in k else door_code()
    a, b = pick(FIRST), pick(["me", "Mum", "Dad", pick(FIRST)])
    return k, [{"from": a, "text": f"what's {lab} again?"}, {"from": b, "text": v}, {"from": a, "text": "ty"}]


@tech("assistant-asks-user-answers")
def _():
    k, lab, v = base_pin() if chance(0.5) else base_pw()
    return k, [{"role": "user", "content": f"can you save {lab} for me"}, {"role": "assistant", "content": "Sure — what is it?"},
               {"role": "user", "content": v}]


@tech("label-after-value")
def _():
    k, lab, v = base_secret() if chance(0.5) else base_pin()
    return k, pick([f"{v} — that's {lab}", f"{v}\n^ {lab}, don't lose it", f"\"{v}\" is {lab}, fyi"])


@tech("label-in-later-message")
def _():
    k = pick(["apple-recovery-key", "bitlocker-recovery-key", "1password-secret-key", "one-time-code"])
    v = pval(k)
    lab = label_for(k)
    return k, [{"role": "user", "content": f"remember this string for me: {v}"}, {"role": "assistant", "content": "Saved. What is it?"},
               {"role": "user", "content": f"oh, that's {lab}"}]


@tech("composed-from-parts")
def _():
    pet = pick(PETS)
    yr = str(R.randint(2005, 2023))
    sym = pick(SYM)
    k = pick(["email-password", "streaming-password", "bank-login-password"])
    return k, f"{cap(label_for(k))} = dog's name + year we got her + symbol, i.e. {pet}{yr}{sym}"


@tech("correction-followup")
def _():
    k, lab, v = base_pin()
    wrong = v[:-1] + str((int(v[-1]) + 1) % 10)
    return k, [{"role": "user", "content": f"{lab} is {wrong}"}, {"role": "user", "content": f"sorry typo — it's {v}"}]


@tech("fake-redaction")
def _():
    k, lab, v = base_secret()
    return k, pick([f"{cap(lab)}: [REDACTED] {v}", f"(redacted for safety) {lab} → {v}", f"{cap(lab)}: ******** (just kidding: {v})"])


@tech("bare-value")
def _():
    while True:
        k, vendor, n, v = base_tok(minlen=40, maxlen=200)
        head = v[:14]
        if any(c in head for c in "_-.") and not set(v) <= set(HEXL + "-") and v[:3].isalpha():
            break
    return k, pick([v, f"{v}\n", f"ok here: {v} thanks"])


@tech("hint-field-value")
def _():
    k, lab, v = base_pw()
    return k, {"site": pick(["netflix.com", "amazon.com", "instagram.com", "bank.example-cu.org"]), "username": email(),
               "password": "", "password_hint": f"it's {v}"}


@tech("otpauth-in-prose", 4)
def _():
    return "totp-shared-secret", f"couldn't scan the QR, so I typed the setup key instead: {' '.join(rs(B32, 4).lower() for _ in range(8))} (for {pick(['GitHub', 'Binance', 'Bitwarden', 'my work SSO'])})"


# ---------------------------------------------------------------------------
def build_hard(per_technique=4):
    made = 0
    for name, fn, _n in TECH:
        n = per_technique
        got = 0
        tries = 0
        while got < n and tries < 60:
            tries += 1
            r = fn()
            key = ns = None
            lang = "en"
            if isinstance(r, dict):
                kind, val, key, ns = r["kind"], r["value"], r.get("key"), r.get("ns")
            elif len(r) == 3:
                kind, val, lang = r
            else:
                kind, val = r
            if vlen(val) > 420 or vlen(val) < 20:
                continue
            if add("secret", "hard", name, kind, val, lang=lang, key=key, ns_extra=ns, group=name):
                got += 1
        made += got
    return made


# ---------------------------------------------------------------------------
# shared generators for benign material (identifiers that are NOT secrets)
# ---------------------------------------------------------------------------
def iban(cc=None):
    cc = cc or pick(["DE", "NL", "GB", "ES", "FR", "BE"])
    if cc == "DE":
        bban = dz(8) + dz(10)
    elif cc == "NL":
        bban = pick(["ABNA", "INGB", "RABO", "TRIO"]) + dz(10)
    elif cc == "GB":
        bban = pick(["NWBK", "BARC", "MIDL", "LOYD"]) + dz(6) + dz(8)
    elif cc == "ES":
        bban = dz(20)
    elif cc == "BE":
        bban = dz(12)
    else:
        bban = dz(10) + dz(11) + dz(2)
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    chk = 98 - int(num) % 97
    s = f"{cc}{chk:02d}{bban}"
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def imei():
    return luhn_complete(pick(["35", "86", "01", "99"]) + dz(12))


def mac():
    return ":".join(hx(2) for _ in range(6)).upper() if chance(0.5) else "-".join(hx(2) for _ in range(6))


def serial():
    return pick([f"C02{anu(9)}", f"SN{dz(10)}", f"{anu(4)}-{dz(6)}", f"5CD{dz(3)}{anu(4)}", f"R58{anu(8)}"])


def ups():
    return "1Z" + anu(6) + pick(["03", "01", "02"]) + dz(8)


def dhl():
    return pick(["00340434" + dz(12), "JJD" + dz(18), dz(10)])


def usps():
    return "9400" + dz(18)


def pnr():
    return rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 6)


def flight():
    return pick(["LH", "BA", "AF", "KL", "IB", "TP", "SK", "AY", "LX", "OS", "UA", "DL", "NH", "TK", "EK"]) + str(R.randint(10, 2999))


def isbn13():
    body = pick(["978", "979"]) + dz(9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(body))
    return f"{body[:3]}-{body[3]}-{body[4:7]}-{body[7:12]}-{(10 - s % 10) % 10}"


def vin():
    return rs("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17)


def amz_order():
    return f"{R.randint(110, 119)}-{dz(7)}-{dz(7)}"


def phone_intl(cc):
    return {
        "de": f"+49 30 {dz(8)}", "fr": f"+33 6 {dz(2)} {dz(2)} {dz(2)} {dz(2)}", "es": f"+34 6{dz(2)} {dz(3)} {dz(3)}",
        "it": f"+39 3{dz(2)} {dz(7)}", "pt": f"+351 9{dz(2)} {dz(3)} {dz(3)}", "nl": f"+31 6 {dz(8)}",
        "pl": f"+48 {dz(3)} {dz(3)} {dz(3)}", "sv": f"+46 70 {dz(3)} {dz(2)} {dz(2)}", "da": f"+45 {dz(2)} {dz(2)} {dz(2)} {dz(2)}",
        "nb": f"+47 9{dz(2)} {dz(2)} {dz(3)}", "fi": f"+358 40 {dz(7)}", "cs": f"+420 {dz(3)} {dz(3)} {dz(3)}",
        "tr": f"+90 5{dz(2)} {dz(3)} {dz(2)} {dz(2)}", "ru": f"+7 9{dz(2)} {dz(3)}-{dz(2)}-{dz(2)}", "uk": f"+380 {dz(2)} {dz(3)} {dz(4)}",
        "el": f"+30 69{dz(8)}", "ar": f"+971 5{dz(1)} {dz(3)} {dz(4)}", "he": f"+972 5{dz(1)}-{dz(3)}-{dz(4)}",
        "hi": f"+91 9{dz(4)} {dz(5)}", "ja": f"090-{dz(4)}-{dz(4)}", "zh": f"+86 13{dz(1)} {dz(4)} {dz(4)}",
        "ko": f"010-{dz(4)}-{dz(4)}", "vi": f"+84 9{dz(1)} {dz(3)} {dz(4)}", "id": f"+62 81{dz(1)}-{dz(4)}-{dz(4)}",
        "th": f"+66 8{dz(1)} {dz(3)} {dz(4)}", "ro": f"+40 7{dz(2)} {dz(3)} {dz(3)}", "hu": f"+36 30 {dz(3)} {dz(4)}",
        "en": pick([f"+44 7700 900{dz(3)}", f"(555) 555-01{dz(2)}", f"+1 415 555 01{dz(2)}", f"+61 4 {dz(4)} {dz(4)}"]),
    }[cc]


def bfill(tpl, lang="en"):
    """fill a benign template; repeated numeric slots get independent values"""
    for k, n in (("n4", 4), ("n3", 3), ("n2", 2), ("n1", 1)):
        while "{" + k + "}" in tpl:
            tpl = tpl.replace("{" + k + "}", dz(n) if n > 1 else str(R.randint(1, 9)), 1)
    return fill(tpl, **bslots(lang))


def bslots(lang="en"):
    f, l = person()
    others = [x for x in FIRST if x != f]
    n2, n3 = R.sample(others, 2)
    return dict(name=f, name2=n2, name3=n3, last=l, date=date_iso(), time=f"{R.randint(8, 18):02d}:{pick(['00', '15', '30', '45'])}", city=pick(CITIES),
                n1=R.randint(1, 9), n2=R.randint(10, 99), n3=R.randint(100, 999), n4=R.randint(1000, 9999),
                phone=phone_intl(lang), email=email(), street=pick(STREETS), pnr=pnr(), flight=flight(), ups=ups(),
                dhl=dhl(), usps=usps(), amz=amz_order(), imei=imei(), mac=mac(), serial=serial(), isbn=isbn13(),
                policy=f"{pick(['HR', 'KFZ', 'POL', 'HH', 'LV'])}-{dz(8)}", member=f"{pick(['M', 'GY', 'FF'])}{dz(8)}",
                age=R.randint(3, 80), zip=dz(5), bp=f"{R.randint(105, 145)}/{R.randint(65, 95)}", pulse=R.randint(52, 92),
                kg=round(R.uniform(55, 95), 1), km=round(R.uniform(3, 21), 1), price=round(R.uniform(5, 900), 2),
                weekday=pick(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]), ticket=dz(13), conf=dz(9),
                order=f"#{dz(6)}", ffn=dz(9), year=R.randint(1950, 2020), pet=pick(PETS))


# ---------------------------------------------------------------------------
# section 4: benign / plain
# ---------------------------------------------------------------------------
BP_EN = {
    "preference": [
        "I prefer window seats on flights and always order the vegetarian meal.",
        "Likes: oat milk flat white, no sugar. Hates: cilantro and anything with raisins.",
        "Please answer me in British English and keep replies short unless I ask for detail.",
        "I'm left-handed — remember that when recommending desks, scissors or computer mice.",
        "Don't schedule anything on {weekday} afternoons, that's when I pick up {name} from school.",
        "My favourite cuisine is Sichuan, spice level: as hot as they'll make it.",
        "I'd rather take the train than fly for anything under 5 hours.",
        "Preferred name is {name}, pronouns she/her.",
        "When I ask for recipes, assume a small oven and no stand mixer.",
        "Room temperature preference: 19°C at night, 21°C during the day.",
    ],
    "health": [
        "Blood pressure this morning {bp}, pulse {pulse}. Doctor wants a log for two weeks.",
        "Started vitamin D 1000 IU daily on {date}, take it with breakfast.",
        "Physio appointment {date} at {time} with {name} {last}, bring the MRI report.",
        "Allergic to penicillin — mention it at every doctor's visit.",
        "Weight today {kg} kg. Goal is to get below 80 by summer.",
        "Running log: {km} km this morning, felt good, knee didn't hurt.",
        "Dentist check-up booked for {date} {time}, Dr. {last}.",
        "Migraine again after screen-heavy day; try the 20-20-20 rule.",
        "Flu shot done on {date} at the pharmacy on {street}.",
        "Sleep was 6h10 last night, aim for 7h30 — phone out of the bedroom.",
    ],
    "family": [
        "{name}'s birthday is on {date}; turning {age}. Wants a LEGO set and a trip to the zoo.",
        "My sister {name} lives in {city}; her kids are {name2} and {name3}.",
        "Anniversary dinner: booked Luigi's for {date}, table for two at 19:30.",
        "Mum's new phone number is {phone}.",
        "{name} starts kindergarten on {date}, drop-off at 8:15.",
        "Grandpa's hearing aid appointment is {date} at {time}, I'm driving him.",
        "Our dog {pet} needs the booster vaccine before {date}.",
        "Family reunion in {city} over Easter, {name} is organising the BBQ.",
    ],
    "work": [
        "Weekly 1:1 with {name} on {weekday}s at 10:00; prepare roadmap slides.",
        "Q3 goal: cut onboarding time from 14 to 7 days.",
        "Office moved to the 3rd floor, my desk is {n3}.",
        "Project Falcon deadline moved to {date}. Tell the design team.",
        "Expense report for the {city} trip still missing the hotel receipt ({price} EUR).",
        "Standup moved to 09:45 starting next week.",
        "Performance review self-assessment due {date}.",
        "{name} {last} is the new contact at the client, email {email}.",
    ],
    "travel": [
        "Flight {flight} on {date}, departs {time}, booking reference {pnr}.",
        "Hotel in {city}: check-in from 15:00, confirmation number {conf}.",
        "Train to {city} on {date}, coach {n1}, seat {n2}. Ticket number {ticket}.",
        "Passport renewal: current one expires in 2031, start 6 months before.",
        "Car rental pickup at {city} airport, reservation {pnr}, compact class.",
        "Frequent flyer number with the airline: {ffn} (for the mileage credit).",
        "Visa on arrival costs 35 USD cash, bring exact change.",
        "Packing list reminder: adapter type G, sunscreen, hiking boots.",
    ],
    "shopping": [
        "Amazon order {amz}: new running shoes, arriving Thursday.",
        "UPS tracking for the sofa delivery: {ups}",
        "Return window for the jacket closes {date}, keep the receipt.",
        "DHL parcel {dhl} is at the pickup point on {street}.",
        "USPS tracking {usps} — the package from grandma.",
        "Bought a new washing machine, model WM-{n4}, delivery on {date}.",
        "Price watch: the camera dropped to {price} EUR, buy if it goes under 500.",
        "Order {order} from the bike shop: new chain and brake pads.",
    ],
    "hobby": [
        "Guitar practice: learning 'Blackbird', currently stuck at bar {n2}.",
        "Sourdough: 75% hydration worked best, bake at 240°C for 20 min lid on, 25 off.",
        "Chess rating on lichess: {n4} blitz. Study the Caro-Kann next.",
        "Reading next: ISBN {isbn}, recommended by {name}.",
        "Pottery class on {weekday}s 18:30–20:30 at the community centre.",
        "Bird count this morning: 2 robins, 5 sparrows, 1 great spotted woodpecker.",
        "Climbing: sent my first 6b+ today at the {city} gym!",
        "Garden: plant tomatoes after the last frost, around mid-May.",
    ],
    "device": [
        "Laptop serial number {serial}, warranty until {date}.",
        "Phone IMEI {imei} (needed for the insurance claim).",
        "Printer MAC address {mac}, set a static DHCP lease at .40.",
        "The TV model is 55-inch, serial {serial}, bought on {date}.",
        "Router firmware updated to 7.57 on {date}.",
    ],
    "admin": [
        "Home insurance policy number {policy}, renews on {date}.",
        "Gym membership number {member}, valid until December.",
        "My new address: {street}, {zip} {city}.",
        "Car registration renewal due {date}.",
        "Council tax reference for the flat: {n4}{n3}.",
        "Electricity meter reading {date}: {n4}{n2} kWh.",
        "Contract with the internet provider ends {date}, compare offers in advance.",
    ],
}
PETS_B = ["Biscuit", "Luna", "Max", "Pepper", "Simba", "Nala", "Rocky", "Mochi"]


def bp_en_object(kind):
    s = bslots("en")
    if kind == "contact":
        return {"type": "contact", "name": f"{s['name']} {s['last']}", "phone": s["phone"], "email": s["email"],
                "address": f"{s['street']}, {s['city']}", "birthday": s["date"][5:], "notes": pick(["neighbour", "plumber", "Mia's football coach", "accountant"])}
    if kind == "calendar":
        return {"event": pick(["Dentist", "Parent-teacher meeting", "Yoga", "Car service", "Team offsite"]), "start": f"{s['date']}T{s['time']}",
                "location": pick([s["street"], s["city"], "Zoom"]), "reminder_minutes": pick([15, 30, 60])}
    if kind == "order":
        return {"merchant": pick(["Zalando", "IKEA", "Amazon", "Decathlon", "MediaMarkt"]), "order_number": pick([s["amz"], s["order"], dz(10)]),
                "items": [pick(["desk lamp", "yoga mat", "HDMI cable", "kids' rain boots", "coffee grinder"])],
                "tracking": pick([s["ups"], s["dhl"], s["usps"]]), "status": pick(["shipped", "out for delivery", "delivered"])}
    if kind == "shopping-list":
        items = R.sample(["eggs", "oat milk", "spinach", "lentils", "coffee beans", "dish soap", "bananas", "rice", "tomatoes",
                          "bread", "yoghurt", "cheddar", "olive oil", "toothpaste", "batteries AA"], R.randint(5, 9))
        return items
    if kind == "tool-weather":
        return {"tool": "weather.get_forecast", "location": s["city"], "days": [{"date": s["date"], "high_c": R.randint(8, 31),
                "low_c": R.randint(-2, 18), "rain_mm": round(R.uniform(0, 12), 1)}]}
    if kind == "device-inventory":
        return [{"device": "laptop", "serial": s["serial"]}, {"device": "phone", "imei": s["imei"]}, {"device": "printer", "mac": s["mac"]}]
    if kind == "health-log":
        return [{"date": date_iso(), "bp": f"{R.randint(110, 140)}/{R.randint(70, 90)}", "pulse": R.randint(55, 85)} for _ in range(R.randint(3, 5))]
    if kind == "trip":
        import datetime
        d0 = datetime.date.fromisoformat(s["date"])
        return {"trip": s["city"], "flight": s["flight"], "pnr": s["pnr"], "hotel_confirmation": s["conf"],
                "dates": [s["date"], (d0 + datetime.timedelta(days=R.randint(2, 14))).isoformat()], "travellers": [s["name"], s["name2"]]}
    return None


CODE_SNIPPETS = [
    ("code-python", "def slugify(text: str) -> str:\n    import re\n    text = text.lower().strip()\n    return re.sub(r'[^a-z0-9]+', '-', text).strip('-')"),
    ("code-python", "import pandas as pd\n\ndf = pd.read_csv('expenses_2025.csv', parse_dates=['date'])\nmonthly = df.groupby(df.date.dt.to_period('M'))['amount'].sum()\nprint(monthly.tail(6))"),
    ("code-js", "export function debounce(fn, ms = 250) {\n  let t;\n  return (...args) => {\n    clearTimeout(t);\n    t = setTimeout(() => fn(...args), ms);\n  };\n}"),
    ("code-sql", "SELECT customer_id, COUNT(*) AS orders, SUM(total) AS revenue\nFROM orders\nWHERE created_at >= DATE '2025-01-01'\nGROUP BY customer_id\nORDER BY revenue DESC\nLIMIT 20;"),
    ("code-go", "func retry(n int, f func() error) (err error) {\n\tfor i := 0; i < n; i++ {\n\t\tif err = f(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Duration(i+1) * time.Second)\n\t}\n\treturn err\n}"),
    ("code-bash", "#!/usr/bin/env bash\n# resize all photos for the blog\nfor f in *.jpg; do\n  convert \"$f\" -resize 1600x1600\\> \"web/${f%.jpg}.webp\"\ndone"),
    ("config-nginx", "server {\n    listen 80;\n    server_name photos.home.arpa;\n    location / {\n        proxy_pass http://127.0.0.1:2283;\n        client_max_body_size 500M;\n    }\n}"),
    ("config-yaml", "server:\n  port: 8080\n  read_timeout: 15s\nlogging:\n  level: info\n  format: json\nfeatures:\n  dark_mode: true\n  beta_search: false"),
    ("config-compose", "services:\n  web:\n    image: nginx:1.27-alpine\n    ports:\n      - \"8080:80\"\n    volumes:\n      - ./site:/usr/share/nginx/html:ro\n    restart: unless-stopped"),
    ("config-editorconfig", "root = true\n\n[*]\nindent_style = space\nindent_size = 4\nend_of_line = lf\ncharset = utf-8\ntrim_trailing_whitespace = true"),
    ("code-rust", "fn median(v: &mut Vec<f64>) -> Option<f64> {\n    if v.is_empty() { return None; }\n    v.sort_by(|a, b| a.partial_cmp(b).unwrap());\n    let m = v.len() / 2;\n    Some(if v.len() % 2 == 0 { (v[m - 1] + v[m]) / 2.0 } else { v[m] })\n}"),
    ("config-gitignore", "node_modules/\ndist/\n.env\n.env.*\n!.env.example\n*.log\n.DS_Store\ncoverage/"),
    ("code-python", "from datetime import date\n\ndef age(born: date, today: date | None = None) -> int:\n    today = today or date.today()\n    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))"),
    ("config-toml", "[tool.ruff]\nline-length = 100\ntarget-version = \"py311\"\n\n[tool.pytest.ini_options]\naddopts = \"-q --maxfail=1\"\ntestpaths = [\"tests\"]"),
    ("code-js", "const fmt = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });\nconsole.log(fmt.format(1234.5)); // 1.234,50 €"),
    ("config-crontab", "# m h dom mon dow command\n30 2 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1\n0 7 * * 1 /home/pi/scripts/weekly-report.py"),
    ("log", "2025-04-02T07:14:03Z INFO  scheduler  job=nightly-backup status=ok duration=312s files=18421 bytes=9.4GB"),
    ("log", "Apr 11 06:25:01 raspberrypi CRON[2211]: (root) CMD (test -x /usr/sbin/anacron || run-parts --report /etc/cron.daily)"),
    ("config-ssh", "Host homelab\n    HostName 192.168.1.10\n    User pi\n    IdentityFile ~/.ssh/id_ed25519\n    ServerAliveInterval 60"),
    ("code-css", ":root {\n  --brand: #2f6fed;\n  --radius: 10px;\n}\n.card { border-radius: var(--radius); box-shadow: 0 2px 8px rgb(0 0 0 / 0.08); }"),
]

BP_FL = {
    "de": ["Ich bin Vegetarierin, Fisch esse ich aber ab und zu.", "Zahnarzttermin am {date} um {time} Uhr bei Dr. {last}.",
           "{name} hat am {date} Geburtstag – Geschenkidee: ein Kochkurs.", "DHL-Sendungsnummer: {dhl}, Zustellung voraussichtlich morgen.",
           "Bitte keine Meetings vor 10 Uhr vorschlagen, nachmittags passt besser.", "Laufziel: Halbmarathon unter 2 Stunden, aktuell {n2} km pro Woche.",
           "Allergie gegen Penicillin – bei jedem Arzt angeben.", "Hausratversicherung, Versicherungsnummer {policy}.",
           "Zug nach {city} am {date}, Abfahrt {time}, Wagen {n1}, Platz {n2}.", "Erinnere mich am Freitag an die Gelbe Tonne.",
           "Telefonnummer vom Hausmeister: {phone}", "Lieblingsbuch: „Der Vorleser“. Als Nächstes „Tschick“.",
           "Neue Adresse von {name}: {street}, {zip} {city}."],
    "fr": ["Je suis intolérante au lactose, pas de fromage frais.", "Rendez-vous chez le kiné le {date} à {time}.",
           "L'anniversaire de {name} est le {date}, il aura {age} ans.", "Numéro de suivi Colissimo : 6A{n4}{n4}{n3}",
           "Je préfère le train à l'avion pour les trajets de moins de 5 heures.", "Vol {flight} le {date}, référence de réservation {pnr}.",
           "Le numéro de la nounou : {phone}", "Cours de poterie le mardi à 18h30.", "Mon contrat d'assurance habitation : {policy}.",
           "Penser à arroser les tomates tous les deux jours pendant les vacances.", "Tension ce matin : {bp}, pouls {pulse}.",
           "Réunion d'équipe déplacée à 9h45 à partir de lundi."],
    "es": ["Prefiero asiento de pasillo en los vuelos largos.", "Cita con la dermatóloga el {date} a las {time}.",
           "El cumpleaños de {name} es el {date}; quiere una bici nueva.", "Número de pedido de Amazon: {amz}",
           "Soy alérgico a los frutos secos, tenlo en cuenta con las recetas.", "Tren a {city} el {date}, coche {n1}, plaza {n2}.",
           "El teléfono del fontanero es {phone}.", "Objetivo del mes: correr tres veces por semana, {km} km cada vez.",
           "Nuestra póliza del seguro del coche: {policy}.", "Clase de guitarra los jueves a las 19:00.",
           "La reunión con {name} {last} es el {date} por Teams.", "Mi talla de zapatillas es 43, de ropa M."],
    "it": ["Preferisco il caffè senza zucchero e il latte di avena.", "Visita dal cardiologo il {date} alle {time}.",
           "Il compleanno di {name} è il {date}, compie {age} anni.", "Numero di tracciamento BRT: {n4}{n4}{n4}",
           "Volo {flight} il {date}, codice prenotazione {pnr}.", "Il numero dell'idraulico: {phone}",
           "Sono allergica alle graminacee, maggio è il mese peggiore.", "Corso di ceramica il mercoledì sera.",
           "Polizza assicurazione casa: {policy}.", "Riunione di condominio il {date} alle 21.", "Peso oggi {kg} kg."],
    "pt": ["Prefiro janela nos voos e refeição vegetariana.", "Consulta no dentista dia {date} às {time}.",
           "O aniversário da {name} é dia {date}, ela faz {age} anos.", "Código de rastreio dos Correios: NL{n4}{n4}{n1}BR",
           "Voo {flight} em {date}, localizador {pnr}.", "Telefone da escola: {phone}", "Pressão hoje de manhã: {bp}.",
           "Aula de natação das crianças às terças e quintas.", "Número da apólice do seguro do carro: {policy}.",
           "Lembrar de pagar o condomínio até o dia 10.", "Meu número de sócio do clube: {member}."],
    "nl": ["Ik eet geen vlees, vis is prima.", "Afspraak bij de huisarts op {date} om {time}.",
           "{name} is jarig op {date}, ze wordt {age}.", "PostNL track & trace: 3S{n4}{n4}{n3}",
           "Trein naar {city} op {date}, vertrek {time}.", "Telefoonnummer van de oppas: {phone}",
           "Sportschool lidmaatschapsnummer {member}.", "Vergeet niet: groene bak op donderdag aan de straat.",
           "Fietsenmaker belt als de nieuwe band binnen is.", "Hardlopen: {km} km gelopen vanochtend."],
    "pl": ["Nie jem glutenu – celiakia.", "Wizyta u okulisty {date} o {time}.", "Urodziny {name} są {date}, kupić prezent.",
           "Numer przesyłki InPost: {n4}{n4}{n4}{n4}{n4}{n4}", "Lot {flight} {date}, numer rezerwacji {pnr}.",
           "Telefon do hydraulika: {phone}", "Numer polisy OC: {policy}.", "Trening na siłowni: poniedziałek, środa, piątek.",
           "Ciśnienie rano {bp}, puls {pulse}.", "Zebranie w szkole {date} o 17:30."],
    "sv": ["Jag föredrar fönsterplats och vegetarisk mat på flyget.", "Tandläkartid {date} kl. {time}.",
           "{name} fyller {age} den {date}.", "PostNord spårningsnummer: {n4}{n4}{n4}{n3}SE", "Tåg till {city} {date}, vagn {n1}, plats {n2}.",
           "Telefonnummer till förskolan: {phone}", "Hemförsäkring, försäkringsnummer {policy}.", "Löpning: {km} km i morse.",
           "Kör sopor på tisdagar.", "Möte med {name} {last} på {date}."],
    "da": ["Jeg drikker ikke kaffe efter kl. 14.", "Lægetid den {date} kl. {time}.", "{name} har fødselsdag den {date}.",
           "GLS pakkenummer: {n4}{n4}{n4}{n2}", "Fly {flight} den {date}, booking {pnr}.", "Telefon til tømreren: {phone}",
           "Forsikringsnummer på bilen: {policy}.", "Svømning med børnene om lørdagen kl. 10.", "Vægt i dag {kg} kg."],
    "nb": ["Jeg er vegetarianer, men spiser egg og melk.", "Time hos fastlegen {date} kl. {time}.", "{name} har bursdag {date}.",
           "Sporingsnummer fra Posten: {n4}{n4}{n4}{n4}", "Fly {flight} {date}, referanse {pnr}.", "Telefon til rørleggeren: {phone}",
           "Forsikringsnummer innbo: {policy}.", "Skitur i {city} i vinterferien.", "Blodtrykk i dag {bp}."],
    "fi": ["En syö sianlihaa.", "Hammaslääkäri {date} klo {time}.", "{name} täyttää {age} vuotta {date}.",
           "Postin seurantatunnus: JJFI{n4}{n4}{n4}", "Lento {flight} {date}, varaustunnus {pnr}.", "Putkimiehen numero: {phone}",
           "Kotivakuutuksen numero {policy}.", "Sauna lauantaina kuudelta.", "Juoksulenkki {km} km aamulla."],
    "cs": ["Nejím maso, ryby ano.", "Zubař {date} v {time}.", "{name} má narozeniny {date}.", "Číslo zásilky Zásilkovna: Z {n4}{n4}{n2}",
           "Let {flight} {date}, rezervace {pnr}.", "Telefon na instalatéra: {phone}", "Číslo pojistky: {policy}.",
           "Trénink fotbalu v úterý a ve čtvrtek.", "Tlak ráno {bp}, tep {pulse}."],
    "tr": ["Et yemiyorum, balık yiyorum.", "Diş hekimi randevusu {date} saat {time}.", "{name}'in doğum günü {date}.",
           "Kargo takip numarası: {n4}{n4}{n4}", "{date} tarihli {flight} uçuşu, rezervasyon kodu {pnr}.", "Tesisatçının numarası: {phone}",
           "Kasko poliçe numarası: {policy}.", "Salı akşamları yoga dersi var.", "Bugün tansiyon {bp}."],
    "ru": ["Я не ем свинину и стараюсь меньше сахара.", "Запись к стоматологу {date} в {time}.", "У {name} день рождения {date}.",
           "Трек-номер посылки: RA{n4}{n4}{n1}RU", "Рейс {flight} {date}, код бронирования {pnr}.", "Телефон сантехника: {phone}",
           "Номер полиса ОСАГО: {policy}.", "Бассейн по средам в 19:00.", "Давление утром {bp}, пульс {pulse}.",
           "Новый адрес {name}: {street}, {city}."],
    "uk": ["Я не п'ю каву після обіду.", "Прийом у лікаря {date} о {time}.", "У {name} день народження {date}.",
           "Номер накладної Нової пошти: 20{n4}{n4}{n4}{n1}", "Рейс {flight} {date}, бронювання {pnr}.", "Телефон майстра: {phone}",
           "Номер страхового полісу: {policy}.", "Тренування у вівторок і четвер."],
    "el": ["Προτιμώ θέση στο παράθυρο στις πτήσεις.", "Ραντεβού στον οδοντίατρο στις {date}, ώρα {time}.",
           "Τα γενέθλια του {name} είναι στις {date}.", "Αριθμός αποστολής ACS: {n4}{n4}{n2}", "Πτήση {flight} στις {date}, κωδικός κράτησης {pnr}.",
           "Τηλέφωνο του υδραυλικού: {phone}", "Αριθμός ασφαλιστηρίου: {policy}.", "Μάθημα κιθάρας κάθε Πέμπτη."],
    "ar": ["أفضّل المقعد بجانب النافذة في الرحلات الطويلة.", "موعد طبيب الأسنان يوم {date} الساعة {time}.",
           "عيد ميلاد {name} في {date}.", "رقم تتبع الشحنة: {ups}", "رحلة {flight} بتاريخ {date}، رقم الحجز {pnr}.",
           "رقم هاتف السبّاك: {phone}", "رقم بوليصة تأمين السيارة: {policy}.", "لا أشرب القهوة بعد الساعة الرابعة عصرًا."],
    "he": ["אני לא אוכל בשר, דגים כן.", "תור לרופא שיניים ב-{date} בשעה {time}.", "יום ההולדת של {name} ב-{date}.",
           "מספר מעקב משלוח: {ups}", "טיסה {flight} בתאריך {date}, קוד הזמנה {pnr}.", "הטלפון של האינסטלטור: {phone}",
           "מספר פוליסת ביטוח הדירה: {policy}.", "חוג שחייה לילדים בימי שלישי."],
    "hi": ["मैं शाकाहारी हूँ, अंडा भी नहीं खाता।", "डेंटिस्ट के साथ अपॉइंटमेंट {date} को {time} बजे।", "{name} का जन्मदिन {date} को है।",
           "कूरियर ट्रैकिंग नंबर: {n4}{n4}{n4}", "फ़्लाइट {flight}, तारीख {date}, PNR {pnr}", "प्लंबर का नंबर: {phone}",
           "कार बीमा पॉलिसी नंबर: {policy}", "सुबह का ब्लड प्रेशर {bp}।", "हर रविवार सुबह योगा क्लास।"],
    "ja": ["飛行機は窓側の席が好きです。", "歯医者の予約：{date} {time}", "{name}さんの誕生日は{date}。プレゼントは花束。",
           "ヤマト運輸の伝票番号：{n4}-{n4}-{n4}", "{date}の便 {flight}、予約番号 {pnr}", "管理会社の電話番号：{phone}",
           "火災保険の証券番号：{policy}", "毎週水曜日はヨガ教室。", "今朝の血圧 {bp}、脈拍 {pulse}。", "燃えるゴミは月曜と木曜。"],
    "zh": ["我不吃香菜，也不太能吃辣。", "{date} {time} 牙医预约。", "{name}的生日是{date}。", "顺丰快递单号：SF{n4}{n4}{n4}{n1}",
           "{date}的航班 {flight}，订座记录 {pnr}", "物业电话：{phone}", "车险保单号：{policy}", "每周六上午带孩子去游泳。",
           "今天早上血压 {bp}，心率 {pulse}。"],
    "ko": ["비행기는 창가 자리가 좋아요.", "치과 예약 {date} {time}.", "{name} 생일은 {date}.", "택배 운송장 번호: {n4}{n4}{n4}",
           "{date} {flight}편, 예약번호 {pnr}.", "관리사무소 전화번호: {phone}", "자동차 보험 증권번호: {policy}", "매주 화요일 저녁 필라테스.",
           "오늘 아침 혈압 {bp}."],
    "vi": ["Tôi ăn chay vào ngày rằm và mùng một.", "Lịch khám răng ngày {date} lúc {time}.", "Sinh nhật {name} vào {date}.",
           "Mã vận đơn: {n4}{n4}{n4}", "Chuyến bay {flight} ngày {date}, mã đặt chỗ {pnr}.", "Số điện thoại thợ sửa ống nước: {phone}",
           "Số hợp đồng bảo hiểm: {policy}.", "Học tiếng Anh tối thứ Ba và thứ Năm."],
    "id": ["Saya tidak makan daging sapi.", "Janji dokter gigi tanggal {date} jam {time}.", "Ulang tahun {name} tanggal {date}.",
           "Nomor resi JNE: {n4}{n4}{n4}{n4}", "Penerbangan {flight} tanggal {date}, kode booking {pnr}.", "Nomor tukang ledeng: {phone}",
           "Nomor polis asuransi mobil: {policy}.", "Les renang anak-anak setiap Sabtu pagi."],
    "th": ["ฉันไม่ทานเนื้อวัว", "นัดหมอฟันวันที่ {date} เวลา {time}", "วันเกิดของ{name}คือวันที่ {date}",
           "เลขพัสดุ Kerry: {n4}{n4}{n4}", "เที่ยวบิน {flight} วันที่ {date} รหัสการจอง {pnr}", "เบอร์ช่างประปา: {phone}",
           "เลขกรมธรรม์ประกันรถ: {policy}"],
    "ro": ["Nu mănânc carne de porc.", "Programare la dentist pe {date} la ora {time}.", "Ziua lui {name} este pe {date}.",
           "Număr AWB Fan Courier: {n4}{n4}{n4}", "Zborul {flight} pe {date}, cod rezervare {pnr}.", "Telefonul instalatorului: {phone}",
           "Numărul poliței RCA: {policy}.", "Antrenament de înot marți și joi."],
    "hu": ["Nem eszem húst, a halat igen.", "Fogorvos {date}, {time}.", "{name} születésnapja {date}.", "Csomagkövetési szám: {n4}{n4}{n4}",
           "{flight} járat {date}, foglalási kód {pnr}.", "A vízvezeték-szerelő száma: {phone}", "Lakásbiztosítás kötvényszáma: {policy}.",
           "Kedden és csütörtökön úszás."],
}
BP_FL_ACK = {"de": "Notiert.", "fr": "C'est noté.", "es": "Anotado.", "it": "Fatto.", "pt": "Anotado!", "nl": "Genoteerd.",
             "pl": "Zapisane.", "sv": "Noterat.", "da": "Noteret.", "nb": "Notert.", "fi": "Tallennettu.", "cs": "Uloženo.",
             "tr": "Kaydettim.", "ru": "Запомнил.", "uk": "Збережено.", "el": "Το σημείωσα.", "ar": "تم الحفظ.", "he": "נשמר.",
             "hi": "सेव कर लिया।", "ja": "覚えました。", "zh": "记住了。", "ko": "저장했어요.", "vi": "Đã lưu.", "id": "Sudah dicatat.",
             "th": "บันทึกแล้ว", "ro": "Am notat.", "hu": "Elmentettem."}


def build_benign_plain(n_en=200, n_foreign=330):
    made = 0
    tries = 0
    en_sources = ["note"] * 6 + ["chat"] * 3 + ["email"] + ["object"] * 6 + ["code"] * 3 + ["sms"]
    while made < n_en and tries < 6000:
        tries += 1
        src = pick(en_sources)
        if src == "object":
            kind = pick(["contact", "calendar", "order", "shopping-list", "tool-weather", "device-inventory", "health-log", "trip"])
            val = bp_en_object(kind)
            seg = {"contact": "contact", "calendar": "calendar", "order": "form", "shopping-list": "list", "tool-weather": "tool-output",
                   "device-inventory": "form", "health-log": "list", "trip": "form"}[kind]
        elif src == "code":
            seg, val = pick(CODE_SNIPPETS)
            kind = "code-snippet" if seg.startswith("code") else ("log-line" if seg == "log" else "config-snippet")
            if chance(0.5):
                val = pick(["saving this snippet: ", "useful later:\n", "# from today's session\n", ""]) + val
        else:
            kind = pick(list(BP_EN))
            sent = bfill(pick(BP_EN[kind]), "en")
            if src == "note":
                seg, val = "note", pick(["", "", "Note: ", f"{date_iso()} — ", "remember: "]) + sent
            elif src == "chat":
                seg = "chat"
                val = [{"role": "user", "content": sent}, {"role": "assistant", "content": pick(ACK_EN)}] if chance(0.6) else f"user: {sent}\nassistant: {pick(ACK_EN)}"
            elif src == "email":
                seg = "email"
                val = f"Subject: {pick(['quick note', 'for the calendar', 'fyi', 'reminder'])}\n\nHi,\n{sent}\n\nThanks,\n{pick(FIRST)}"
            else:
                seg, val = "sms", f"SMS to self {hhmm()}: {sent}"
        if vlen(val) < 30 or vlen(val) > 420:
            continue
        if add("benign", "plain", seg, kind, val, lang="en" if seg not in ("code-python", "code-js", "code-go", "code-rust", "code-sql", "code-bash", "code-css") and not seg.startswith("config") and seg != "log" else "none", group=seg):
            made += 1
    langs = list(BP_FL)
    per = n_foreign // len(langs)
    extra = n_foreign - per * len(langs)
    for i, lang in enumerate(langs):
        want = per + (1 if i < extra else 0)
        got = 0
        tries = 0
        while got < want and tries < 400:
            tries += 1
            sent = bfill(pick(BP_FL[lang]), lang)
            r = R.random()
            if r < 0.55:
                seg = f"note-{lang}"
                val = sent if len(sent) >= 40 else pick([date_iso() + " · ", date_iso() + ": ", f"[{date_iso()}] ", f"{date_iso()} {hhmm()} — "]) + sent
            elif r < 0.85:
                seg = f"chat-{lang}"
                val = [{"role": "user", "content": sent}, {"role": "assistant", "content": BP_FL_ACK[lang]}]
            else:
                seg = f"form-{lang}"
                val = {"lang": lang, "text": sent, "tags": [pick(["personal", "family", "travel", "health", "home"])], "created": date_iso()}
            if add("benign", "plain", seg, "personal-note", val, lang=lang, group=seg.split("-")[0]):
                got += 1
        made += got
    return made


# ---------------------------------------------------------------------------
# section 5: benign / hard look-alikes
# ---------------------------------------------------------------------------
FAM = []


def fam(name):
    def deco(fn):
        FAM.append((name, fn))
        return fn
    return deco


def svc():
    return pick(["Netflix", "Gmail", "the bank app", "Amazon", "Instagram", "the router", "Steam", "PayPal", "my work laptop", "iCloud"])


@fam("password-talk-no-value")
def _():
    return pick([f"Remind me to change my {svc()} password this weekend.", f"I need a stronger password for {svc()}, the current one is too short.",
                 f"Ask {pick(FIRST)} whether the {svc()} password is shared with the kids' profile.",
                 f"Todo: move the {svc()} password into the password manager and delete the sticky note.",
                 ("Ich muss unbedingt mein Passwort für " + svc() + " ändern, das alte ist seit Jahren dasselbe.", "de"),
                 ("Penser à changer le mot de passe de " + svc() + " avant les vacances.", "fr"),
                 (f"{svc()}のパスワードを今週末に変更するのを忘れないで。", "ja")])


@fam("password-changed-no-value")
def _():
    return pick([f"Changed the {svc()} password today after the security alert. New one is saved in Bitwarden.",
                 f"I reset my {svc()} password on {date_iso()}; everyone else will need to log in again.",
                 f"Wi-Fi password was changed by the landlord — the new one is on the card in the hallway drawer.",
                 f"Updated the alarm code after the cleaner left; {pick(FIRST)} has the new one.",
                 ("Le code de la porte a changé, la gardienne va nous envoyer le nouveau par SMS.", "fr"),
                 ("He cambiado la contraseña del banco, la nueva está en el gestor de contraseñas.", "es")])


@fam("password-forgotten")
def _():
    return pick([f"I forgot my {svc()} password again, had to use 'forgot password' twice this month.",
                 f"Can't remember the PIN of the old SIM card — the PUK is on the plastic card somewhere in the box.",
                 f"{pick(FIRST)} forgot the garage code and waited outside for an hour, need to show them the app.",
                 "Locked out of the tax portal after three wrong attempts, unlock letter arrives by post in 5 days.",
                 ("Hab das Passwort vom alten Laptop vergessen – muss es mit dem Recovery-Stick zurücksetzen.", "de")])


@fam("code-lost-no-value")
def _():
    return pick(["Lost the paper with the safe combination; the locksmith is coming on Thursday.",
                 "The luggage lock code got reset somehow, TSA had to cut it open.",
                 f"Gym locker combination forgotten, front desk will cut the padlock for {R.randint(5, 15)} EUR.",
                 "Misplaced the recovery sheet for the hardware wallet — need to check the fire safe at mum's.",
                 "The bike lock code is gone from my head; bringing bolt cutters tomorrow."])


@fam("password-policy")
def _():
    n = pick([12, 14, 16])
    return pick([f"Company password policy: minimum {n} characters, rotate every 90 days, no reuse of the last 5.",
                 f"The new bank app requires a 6-digit PIN and no sequences like 123456.",
                 f"IT says passphrases of 4+ words are fine as long as they're over {n} characters.",
                 f"Router admin password must be 8–63 characters for WPA2; WPA3 recommended.",
                 {"policy": "passwords", "min_length": n, "require_symbols": chance(0.5), "max_age_days": pick([90, 180, 365]), "lockout_after": 5}])


@fam("placeholder-angle")
def _():
    return pick(["export OPENAI_API_KEY=<YOUR_API_KEY>\npython app.py", "curl -H \"Authorization: Bearer <ACCESS_TOKEN>\" https://api.example.com/v1/me",
                 "DATABASE_URL=postgres://<user>:<password>@<host>:5432/<db>", "stripe:\n  secret_key: <insert-secret-key-here>\n  webhook_secret: <whsec_...>",
                 "aws configure set aws_secret_access_key <SECRET_ACCESS_KEY>", "git clone https://<username>:<token>@github.com/org/repo.git",
                 "Wi-Fi: network HomeNet, password <ask Dad>"])


@fam("placeholder-env-ref")
def _():
    return pick(["API_KEY=${API_KEY}\nDB_PASSWORD=${DB_PASSWORD}", "password: \"{{ vault_db_password }}\"", "token: ${{ secrets.NPM_TOKEN }}",
                 "const key = process.env.STRIPE_SECRET_KEY;", "SLACK_WEBHOOK_URL=$(op read op://Ops/slack/webhook)",
                 "spring.datasource.password=${DB_PASS:}", "api_key = os.environ[\"SENDGRID_API_KEY\"]"])


@fam("placeholder-xxx")
def _():
    return pick(["STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
                 "password: xxxxxxxx  # fill in locally", "AWS_SECRET_ACCESS_KEY=XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
                 "Card: XXXX XXXX XXXX XXXX, expiry MM/YY", "OPENAI_API_KEY=sk-...your key here...", "token = \"0000000000000000000000000000000000000000\"  # dummy"])


@fam("masked-stars")
def _():
    return pick([f"Paid with card **** **** **** {dz(4)}", "password: ********", f"API key: sk-••••••••••••{an(4)}",
                 f"Your PIN ●●●● has been updated.", f"Account: ••••{dz(4)}, Balance: {round(R.uniform(10, 9000), 2)} EUR",
                 f"token=****************{hx(4)} (masked in logs)", "Wi-Fi password: ••••••••••  [show]"])


@fam("redacted-marker")
def _():
    return pick(["Authorization: Bearer [REDACTED]", "db_password: <redacted>", "{\"api_key\": \"***removed***\", \"region\": \"eu-west-1\"}",
                 f"2025-0{R.randint(1, 9)}-1{R.randint(0, 9)} WARN auth failed for user=ops token=[FILTERED]",
                 "The door code is [removed by moderator] — please DM the host.", "SECRET_KEY=<hidden>", "password=█████████"])


@fam("truncated-partial")
def _():
    return pick([f"The Stripe key that leaked starts with sk_live_51… and ends with …{an(4)}; it was rolled yesterday.",
                 f"Which token is this? only see the last 4 chars in the UI: …{an(4)}",
                 f"GitHub shows the PAT as ghp_…{an(4)}, created {date_iso()}.", f"card ending {dz(4)}, not the one ending {dz(4)}",
                 f"OpenAI dashboard lists key 'laptop' as sk-…{an(4)}, last used {date_iso()}.",
                 f"IBAN ends in …{dz(4)} — that's the savings account."])


@fam("docs-example-aws")
def _():
    return pick(["From the AWS docs (example values, not real): AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                 "The docs use AKIAIOSFODNN7EXAMPLE as the sample access key id — copy the format, not the value.",
                 "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n# ^ example from the AWS CLI guide",
                 "Tutorial snippet (placeholder credentials from the official docs): key id AKIAIOSFODNN7EXAMPLE",
                 "Note for the workshop slides: use the documented example keys (…EXAMPLE / …EXAMPLEKEY), never real ones.",
                 "aws_secret_access_key example from the documentation: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"])


@fam("docs-example-jwt")
def _():
    t = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    return pick([f"The classic example token from jwt.io (John Doe, secret 'your-256-bit-secret'): {t}",
                 f"Example JWT for the slides, straight from the jwt.io debugger: {t}",
                 f"test fixture — jwt.io sample token, not a real credential:\n{t}",
                 f"In the training I decoded the jwt.io demo token {t} to show header/payload/signature.",
                 f"// example from jwt.io docs\nconst demo = '{t}';", f"jwt.io sample (sub 1234567890, name John Doe): {t}"])


@fam("docs-example-values")
def _():
    return pick(["Stripe docs example key: sk_test_4eC39HqLyjWDarjtT1zdp7dc (it's the public sample key from their API reference)",
                 "From the Twilio quickstart (placeholder): TWILIO_ACCOUNT_SID=ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
                 "README example: SLACK_BOT_TOKEN=xoxb-your-token-here",
                 "Example from the docs: postgres://user:password@localhost:5432/mydb — replace user/password with your own.",
                 "Sample .env from the tutorial: SECRET_KEY=changeme, DEBUG=true",
                 "Sample config in the README: api_key: \"YOUR-API-KEY\", endpoint: \"https://api.example.com\"",
                 "The library's test suite uses the literal string 'test-token-123' as a fake token."])


@fam("documented-test-cards")
def _():
    return pick(["Stripe test card: 4242 4242 4242 4242, any future expiry, any CVC — only works in test mode.",
                 "For the sandbox checkout use the test Visa 4111 1111 1111 1111 (documented test number).",
                 "QA notes: declined-card test number 4000 0000 0000 0002, insufficient funds 4000 0000 0000 9995.",
                 "Mastercard test number from the payment provider docs: 5555 5555 5555 4444.",
                 "Adyen/Stripe test Amex: 3782 822463 10005 — sandbox only.",
                 "Test cards list for the staging shop: 4242424242424242 (success), 4000000000000002 (decline)."])


@fam("ssh-public-key")
def _():
    k = ssh_ed25519_pub(f"{pick(FIRST).lower()}@{pick(['laptop', 'desktop', 'work-mbp', 'pixel'])}") if chance(0.7) else ssh_rsa_pub(f"{pick(FIRST).lower()}@{pick(['old-pc', 'nas'])}")
    return pick([f"My public key for the server's authorized_keys:\n{k}", f"add to ~/.ssh/authorized_keys on the pi:\n{k}", f"{k}", f"GitHub → Settings → SSH keys, paste this public key: {k}"])


@fam("pgp-public-key")
def _():
    return f"My PGP public key (share freely):\n{pgp_block(False)}"


@fam("x509-certificate")
def _():
    return pick(["Public cert of the internal CA (safe to distribute):\n", "Server certificate (public part only):\n", ""]) + x509_pem()


@fam("ssh-host-fingerprint")
def _():
    fp = base64.b64encode(rbytes(32)).decode().rstrip("=")
    return pick([f"The host key fingerprint for the NAS is SHA256:{fp} (ED25519) — verify on first connect.",
                 f"ECDSA key fingerprint is SHA256:{fp}.\nAre you sure you want to continue connecting (yes/no/[fingerprint])?",
                 f"server fingerprints: ED25519 SHA256:{fp}"])


@fam("pgp-fingerprint")
def _():
    fp = HX(40)
    return pick([f"My OpenPGP fingerprint: {' '.join(fp[i:i + 4] for i in range(0, 40, 4))}", f"Sign commits with key {fp[-16:]} (full fingerprint {fp})",
                 f"gpg --recv-keys {fp}"])


@fam("file-checksums")
def _():
    f = pick(["ubuntu-24.04-desktop-amd64.iso", "backup-2025-03.tar.zst", "firmware_v2.1.8.bin", "photos_export.zip"])
    return pick([f"{hx(64)}  {f}", f"SHA256 ({f}) = {hx(64)}", f"md5 of the upload: {hx(32)}, matches the vendor page",
                 f"checksums verified:\n{hx(64)}  {f}\n{hx(64)}  SHA256SUMS.gpg"])


@fam("git-shas")
def _():
    return pick([f"Deployed commit {hx(40)} to prod at {hhmm()}.", f"bisect says the bug came in with {hx(7)}", f"git revert {hx(12)} -- broke the build",
                 f"release v{R.randint(1, 5)}.{R.randint(0, 20)}.{R.randint(0, 9)} = {hx(40)}"])


@fam("docker-digests")
def _():
    return pick([f"Pin the image: ghcr.io/{slugname()}/api@sha256:{hx(64)}", f"postgres:16.3 digest sha256:{hx(64)}",
                 f"build id {hx(12)} produced image sha256:{hx(64)}"])


@fam("uuids")
def _():
    return pick([f"Support ticket reference {uid()} — they said 3–5 business days.", f"request_id={uid()} status={pick([500, 502, 504])} path={pick(['/checkout', '/cart', '/api/orders'])}",
                 f"The Notion page id for the trip planning doc is {hx(32)}.", f"Calendar event UID {uid()}@google.com moved to Friday.",
                 {"order_id": uid(), "status": "refunded", "amount": round(R.uniform(5, 300), 2)}])


@fam("trace-ids")
def _():
    return pick([f"traceparent: 00-{hx(32)}-{hx(16)}-01", f"Jaeger trace {hx(32)} shows 2.3s in the payments span",
                 f"x-amzn-trace-id: Root=1-{hx(8)}-{hx(24)}", f"span_id={hx(16)} trace_id={hx(32)} level=error msg=\"timeout calling inventory\""])


@fam("stripe-publishable-key")
def _():
    k = "pk_live_51" + an(97)
    return pick([f"Frontend config (publishable key is meant to be public): STRIPE_PUBLISHABLE_KEY={k}",
                 f"<script>const stripe = Stripe('{k}');</script>", f"NEXT_PUBLIC_STRIPE_KEY={k}  # publishable, safe in the browser bundle"])


@fam("mapbox-public-token")
def _():
    t = "pk." + b64j({"u": pick(FIRST).lower() + "maps", "a": rs(AN, 25)}) + "." + rs(B64U, 22)
    return pick([f"mapboxgl.accessToken = '{t}'; // public token, URL-restricted", f"Public Mapbox token for the website map (scoped to our domain): {t}",
                 f"VITE_MAPBOX_PUBLIC_TOKEN={t}  # default public token, fine in the client"])


@fam("firebase-web-config")
def _():
    proj = f"{slugname()}-{anl(5)}"
    return {"note": "Firebase web app config — these identify the project and are public by design",
            "firebaseConfig": {"apiKey": "AIza" + rs(B64U, 35), "authDomain": f"{proj}.firebaseapp.com", "projectId": proj,
                               "storageBucket": f"{proj}.appspot.com", "messagingSenderId": dz(12), "appId": f"1:{dz(12)}:web:{hx(22)}"}}


@fam("recaptcha-site-key")
def _():
    k = "6L" + rs(B64U, 38)
    return pick([f'<div class="g-recaptcha" data-sitekey="{k}"></div>', f"reCAPTCHA site key (public, goes in the HTML): {k}",
                 f"grecaptcha.execute('{k}', {{action: 'submit'}}) // site key from the admin console"])


@fam("algolia-search-only-key")
def _():
    return pick([f"const searchClient = algoliasearch('{anu(10)}', '{hx(32)}'); // search-only API key, safe for frontend",
                 f"Algolia app id {anu(10)}, search-only key {hx(32)} (the admin key stays on the server)",
                 f"docsearch({{ appId: '{anu(10)}', apiKey: '{hx(32)}', indexName: 'docs' }}) // public search key"])


@fam("posthog-project-key")
def _():
    k = "phc_" + an(43)
    return pick([f"posthog.init('{k}', {{ api_host: 'https://eu.i.posthog.com' }}) // project API key, public",
                 f"NEXT_PUBLIC_POSTHOG_KEY={k}  # project key, ships to the browser",
                 f"PostHog project API key for the landing page snippet (write-only, public): {k}"])


@fam("analytics-ids")
def _():
    return pick([f"Google Analytics measurement ID: G-{anu(10)}", f"GTM container GTM-{anu(7)} is installed on all pages",
                 f"Meta pixel id {dz(15)} on the checkout page", f"Plausible domain: {org()}; Matomo site id {R.randint(1, 30)}"])


@fam("supabase-anon-key")
def _():
    t = jwt({"iss": "supabase", "ref": anl(20), "role": "anon", "iat": epoch(), "exp": epoch() + 315360000})
    return pick([f"Supabase anon (public) key for the web client — access is controlled by RLS: {t}",
                 f"NEXT_PUBLIC_SUPABASE_ANON_KEY={t}", f"const supabase = createClient('https://{anl(20)}.supabase.co', '{t}') // anon key, public by design"])


@fam("bitcoin-address")
def _():
    a = pick(["bc1q" + bech(38), "bc1p" + bech(58), "3" + rs(B58, 33), "1" + rs(B58, 33)])
    return pick([f"Donations welcome: {a}", f"Send the BTC for the bike to this address: {a}", f"My receiving address (public): {a}"])


@fam("ethereum-address")
def _():
    a = "0x" + rs(HEXL + "ABCDEF", 40)
    return pick([f"ETH/USDC on Base to {a}, please double-check the network.", f"My public wallet address: {a}", f"ENS {pick(FIRST).lower()}.eth → {a}"])


@fam("iban-for-payment")
def _():
    return pick([f"Rent goes to {fullname()}, IBAN {iban()}, reference 'flat 3B'.", f"To pay me back for the concert tickets: {iban()} (BIC not needed in SEPA).",
                 f"Invoice: please transfer {round(R.uniform(50, 2000), 2)} EUR to IBAN {iban()}.",
                 (f"Für das Geschenk bitte an {iban('DE')} überweisen, Verwendungszweck: Geburtstag.", "de"),
                 (f"Cuenta para pagarme la cena: {iban('ES')}", "es")])


@fam("card-last-four")
def _():
    return pick([f"Use the Visa ending in {dz(4)} for subscriptions.", f"The refund went to the card ending {dz(4)}.",
                 f"Amex (last four {dz(4)}) has the travel insurance.", (f"Die Karte mit den Endziffern {dz(4)} ist gesperrt.", "de")])


@fam("card-expiry-only")
def _():
    return pick([f"My debit card expires {R.randint(1, 12):02d}/{R.randint(26, 30)}, new one should arrive a month before.",
                 f"Netflix failed because the card expired {R.randint(1, 12):02d}/25.", f"Reminder: credit card expiry {R.randint(1, 12):02d}/{R.randint(26, 30)}, update Spotify.",
                 f"The company card is valid thru {R.randint(1, 12):02d}/{R.randint(26, 30)}; finance will send a replacement.", (f"Meine Kreditkarte läuft {R.randint(1, 12):02d}/{R.randint(26, 30)} ab.", "de")])


@fam("tracking-numbers")
def _():
    return pick([f"UPS {ups()}", f"DHL Express waybill {dz(10)}", f"USPS {usps()}", f"Royal Mail {anu(2)}{dz(9)}GB",
                 f"PostNL 3S{anu(4)}{dz(9)}"]) + pick([" — out for delivery", " (customs hold)", ", delivered to neighbour", ""])


@fam("isbn")
def _():
    return pick([f"Book club pick: ISBN {isbn13()}", f"Order for the library: {isbn13()}, {isbn13()}", f"Textbook for the course: ISBN {isbn13()} (3rd edition)",
                 f"Lent '{pick(['Dune', 'Middlemarch', 'The Overstory', 'Pachinko'])}' (ISBN {isbn13()}) to {pick(FIRST)}", f"Audiobook edition ISBN {isbn13()} is cheaper on the publisher site"])


@fam("vin")
def _():
    return pick([f"Car VIN {vin()} for the insurance quote ({pick(['Allianz', 'HUK', 'Admiral', 'AXA'])}).", f"VIN: {vin()} — recall check says nothing open.", f"Used car listing, VIN {vin()}, {R.randint(30, 180)}k km", f"Tyre shop needs the VIN ({vin()}) to order the right sensors."])


@fam("device-identifiers")
def _():
    return pick([f"Old phone IMEI {imei()} reported stolen to the carrier.", f"Smart plug MAC {mac()} → give it a static IP", f"Laptop serial {serial()} for the warranty claim",
                 {"device": "router", "model": pick(["AX3000", "7590", "RT-AX58U"]), "serial": serial(), "mac": mac(), "firmware": f"7.{R.randint(10, 60)}"}])


@fam("object-keys-file-ids")
def _():
    return pick([f"s3://{slugname()}-media/uploads/{date_iso().replace('-', '/')}/{hx(32)}.jpg", f"Google Drive file id {rs(B64U, 33)} is the budget sheet",
                 f"YouTube playlist id PL{rs(B64U, 32)}", f"blob key {uid()}/{hx(16)}.pdf in the invoices bucket"])


@fam("asset-hashes")
def _():
    return pick([f"<script src=\"/static/js/main.{hx(8)}.js\"></script>", f"build output: dist/assets/index-{rs(AN + '_-', 8)}.css  12.4 kB",
                 f"webpack chunk {hx(20)} is 400kB, split it", f"cache-busting name: logo.{hx(10)}.svg"])


@fam("video-ids")
def _():
    return pick([f"Watch later: https://www.youtube.com/watch?v={rs(B64U, 11)}", f"Vimeo {dz(9)} — the wedding video", f"TikTok recipe https://www.tiktok.com/@chef/video/{dz(19)}",
                 f"Kids' song for the car: youtu.be/{rs(B64U, 11)}", f"Conference talk recording: https://www.youtube.com/watch?v={rs(B64U, 11)}&t={R.randint(60, 2400)}s"])


@fam("booking-references")
def _():
    return pick([f"Booking reference {pnr()} — {flight()} on {date_iso()}", f"Hotel confirmation {dz(10)}, PIN for changes sent by email",
                 f"Eurostar booking {pnr()}, coach {R.randint(1, 18)} seat {R.randint(10, 80)}", f"Ferry booking no. {dz(8)}, car + 2 adults"])


@fam("order-numbers")
def _():
    return pick([f"Amazon order {amz_order()}", f"IKEA order {dz(9)} — delivery window 8–12", f"eBay order {dz(2)}-{dz(5)}-{dz(5)}",
                 f"AliExpress order {dz(16)} still not shipped"]) + pick(["", " (gift)", " — return requested", ", invoice downloaded"])


@fam("health-numbers")
def _():
    return pick([f"Fasting glucose {R.randint(80, 110)} mg/dL, HbA1c {round(R.uniform(4.8, 6.4), 1)}%", f"BP log: {R.randint(110, 140)}/{R.randint(70, 90)}, {R.randint(110, 140)}/{R.randint(70, 90)}, {R.randint(110, 140)}/{R.randint(70, 90)}",
                 f"Cholesterol LDL {R.randint(80, 180)}, HDL {R.randint(35, 80)}, total {R.randint(150, 260)}", f"Resting HR {R.randint(48, 80)}, VO2max {R.randint(35, 55)}, sleep score {R.randint(60, 95)}",
                 f"Insulin: {R.randint(4, 12)} units before dinner, {R.randint(10, 24)} units basal at 22:00"])


@fam("finance-numbers")
def _():
    return pick([f"Savings account balance {R.randint(1000, 50000)}.{dz(2)} EUR, goal 20,000 by December.", f"Bought {R.randint(2, 40)} shares of VWCE at {round(R.uniform(90, 130), 2)}",
                 f"Mortgage: {R.randint(150, 450)}k at {round(R.uniform(2.5, 5), 2)}%, {R.randint(15, 30)} years, monthly {R.randint(700, 2400)}",
                 f"Tax refund {R.randint(200, 3000)} EUR expected in {pick(['May', 'June', 'July'])}"])


@fam("sports-scores")
def _():
    return pick([f"Match result: {R.randint(0, 5)}-{R.randint(0, 5)}, {pick(FIRST)} scored twice", f"Parkrun PB {R.randint(18, 32)}:{R.randint(0, 59):02d}, position {R.randint(10, 400)}",
                 f"Tennis 6-{R.randint(0, 4)} 4-6 7-{R.randint(5, 6)}", f"Bowling: {R.randint(120, 250)}, {R.randint(120, 250)}, {R.randint(120, 250)}"])


@fam("word-list-not-seed")
def _():
    w = R.sample(["apple", "river", "window", "garden", "purple", "bridge", "candle", "pocket", "rabbit", "ticket", "winter", "orange",
                  "pencil", "silver", "travel", "basket", "island", "jacket", "kitchen", "lemon", "museum", "planet", "rocket", "tunnel"], 12)
    return pick([f"Mia's spelling words this week: {', '.join(w)}", f"English vocabulary for Friday's quiz: {' / '.join(w)}",
                 f"Pictionary word list for the party: {' '.join(w)}", f"Memory game words (kids): {', '.join(w)}"])


@fam("phone-numbers")
def _():
    return pick([f"Plumber: {phone_intl('en')}", f"Emergency contact: {fullname()}, {phone_intl(pick(['de', 'fr', 'es', 'en']))}",
                 f"Pediatrician's office {phone_intl('en')}, open 8–12", (f"Handwerker Herr {pick(LAST)}: {phone_intl('de')}", "de")])


@fam("postal-addresses")
def _():
    return pick([f"Ship the parcel to {fullname()}, {pick(STREETS)}, {dz(5)} {pick(CITIES)}", f"New office address: {pick(STREETS)}, 3rd floor, {pick(CITIES)}",
                 {"name": fullname(), "street": pick(STREETS), "postcode": dz(5), "city": pick(CITIES), "country": pick(["DE", "PT", "ES", "NL"])}])


@fam("locker-number-location")
def _():
    return pick([f"My gym locker is number {R.randint(1, 300)} (padlock, key on my keyring).", f"Bike is in rack {R.randint(1, 40)}, level {R.randint(-2, 2)} of the station garage.",
                 f"Parked on level P{R.randint(1, 6)}, row {pick('ABCDEFG')}, spot {R.randint(1, 120)}.", f"Storage unit {R.randint(100, 999)} at the self-storage on {pick(STREETS)}."])


@fam("pin-other-meanings")
def _():
    return pick([f"Dropped a pin at the trailhead parking: {round(R.uniform(45, 48), 5)}, {round(R.uniform(6, 12), 5)}",
                 "Pinned the message with the party address in the family group.", f"Bowling night: knocked {R.randint(6, 10)} pins on the first ball almost every frame.",
                 "Need replacement hinge pins for the kitchen cabinet.", "PIN diode vs. Schottky — look up for the radio project.", "Pinned tabs: calendar, email, todo."])


@fam("token-other-meanings")
def _():
    return pick([f"Set max_tokens to {pick([256, 1024, 4096])} for the summariser, context is {pick([8, 32, 128])}k tokens.",
                 f"Kids earned {R.randint(3, 12)} reward tokens this week for chores.", "Bought subway tokens for the trip, 10 rides.",
                 f"Arcade: {R.randint(20, 100)} tokens left on the card.", "Tokenizer splits 'unbelievable' into 3 tokens."])


@fam("key-other-meanings")
def _():
    return pick(["Spare house key is with the neighbour at number 12.", f"Song is in {pick(['D minor', 'G major', 'E flat', 'A minor'])}, capo on {R.randint(1, 5)}.",
                 "Key takeaways from the workshop: ship smaller, measure more.", "Keyboard shortcut: Ctrl+Shift+T reopens the closed tab.",
                 "Car key battery is CR2032.", "Foreign key orders.customer_id → customers.id needs an index."])


@fam("secret-other-meanings")
def _():
    return pick([f"Secret Santa: I drew {pick(FIRST)}, budget 25 EUR.", "Grandma's secret ingredient in the stew is a spoon of smoked paprika.",
                 "Surprise party for Mum is a secret — don't mention it in the family chat!", "Reading 'The Secret History' for book club.",
                 "The secret to crispy roast potatoes: parboil, shake, hot fat."])


@fam("code-other-meanings")
def _():
    return pick(["Dress code for the wedding: black tie optional.", f"Promo code SUMMER{R.randint(10, 30)} from the newsletter gives 15% off (public code).",
                 f"ZIP code {dz(5)}, country code +{R.randint(30, 49)}.", f"Diagnosis code on the sick note: J06.9", f"Airport codes: {pick(['LIS', 'OPO', 'BER', 'MUC', 'KIX', 'YYZ'])} → {pick(['AMS', 'CDG', 'LHR', 'MAD', 'FCO'])}",
                 f"HS code for the customs form: {dz(4)}.{dz(2)}", "Code review at 3pm for the payments PR."])


@fam("error-codes")
def _():
    return pick([f"Dishwasher shows error E{R.randint(10, 30)} — clean the filter.", f"HTTP {pick([403, 404, 429, 502, 503])} from the API since 09:12",
                 f"Exit code {R.randint(1, 137)} in the nightly job", f"Boiler fault code F.{R.randint(20, 80)}, call the engineer", f"Windows stop code 0x{HX(8)}"])


@fam("color-codes")
def _():
    return pick([f"Brand colours: #{hx(6)} (primary), #{hx(6)} (accent)", f"Paint for the bedroom: RAL {R.randint(1000, 9000)}",
                 f"Hex for the logo background #{HX(6)}, text rgb({R.randint(0, 255)}, {R.randint(0, 255)}, {R.randint(0, 255)})",
                 f"Dark mode palette: bg #{hx(6)}, surface #{hx(6)}, text #{hx(6)}", f"Pantone {R.randint(100, 7999)} C for the wedding invitations"])


@fam("version-numbers")
def _():
    return pick([f"Upgraded to Python 3.{R.randint(9, 13)}.{R.randint(0, 9)} and Node {R.randint(18, 22)}.{R.randint(0, 12)}.{R.randint(0, 9)}",
                 f"Firmware {R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 99)}-build{dz(4)} fixes the Wi-Fi drops", f"iOS {R.randint(16, 18)}.{R.randint(0, 6)}.{R.randint(0, 3)} on the family iPads",
                 f"Home Assistant 2025.{R.randint(1, 12)}.{R.randint(0, 4)} broke the Zigbee integration, rolled back", f"Pinned terraform to ~> 1.{R.randint(5, 9)} and the AWS provider to 5.{R.randint(10, 80)}.0"])


@fam("coordinates")
def _():
    return pick([f"Campsite coordinates {round(R.uniform(40, 60), 6)}, {round(R.uniform(-5, 25), 6)}", f"Geocache at N {R.randint(40, 59)}° {round(R.uniform(0, 59), 3)} E {R.randint(1, 20)}° {round(R.uniform(0, 59), 3)}",
                 f"what3words ///{pick(PW_WORDS)}.{pick(PW_WORDS)}.{pick(PW_WORDS)} for the picnic spot",
                 f"Meeting point for the hike: {round(R.uniform(45, 48), 4)}° N, {round(R.uniform(7, 13), 4)}° E, car park by the chapel"])


@fam("license-plates")
def _():
    return pick([f"Our car plate: {pick(['B', 'M', 'HH', 'K'])}-{anu(2)} {R.randint(100, 9999)}", f"Visitor parking permit for plate {anu(2)}{dz(2)} {anu(3)}",
                 f"Rental car plate {anu(3)}-{dz(3)}, silver Skoda", f"The van that blocked the driveway had plate {anu(2)} {dz(2)} {anu(3)}, reported to the landlord."])


@fam("password-generator-settings")
def _():
    return pick([f"Password generator settings I like: {R.randint(16, 32)} chars, symbols on, avoid ambiguous characters.",
                 f"Use diceware with {R.randint(5, 7)} words for master passwords.", {"generator": "bitwarden", "length": R.randint(14, 40), "uppercase": True, "numbers": True, "special": chance(0.5)}])


@fam("2fa-setup-talk")
def _():
    return pick([f"Enabled 2FA on {svc()} with the authenticator app; backup codes are printed and in the fire safe.",
                 "Moved all TOTP entries from Google Authenticator to Aegis, exported an encrypted backup to the NAS.",
                 f"Registered a second YubiKey for {pick(['GitHub', 'Google', 'Microsoft'])} so I don't get locked out.",
                 "Switched the bank from SMS codes to the app-based approval."])


@fam("otp-talk-no-code")
def _():
    return pick(["The SMS code never arrived, support says try again after 10 minutes.", "Verification codes expire after 5 minutes, so do it at the laptop.",
                 "Bank sends a 6-digit code for every transfer over 500 EUR.", "Didn't get the login code for Steam — check the spam folder.",
                 f"Requested a new verification code {R.randint(2, 5)} times today, the carrier seems to be delaying SMS.",
                 f"{pick(FIRST)} keeps getting 2FA codes she didn't request — told her to change the password and not share any code.",
                 ("El código de verificación llega al móvil viejo, tengo que actualizar el número en el banco.", "es"),
                 ("Der Bestätigungscode kam erst nach 20 Minuten an, da war er schon abgelaufen.", "de")])


@fam("env-example-empty")
def _():
    return pick(["# .env.example\nDATABASE_URL=\nREDIS_URL=\nSTRIPE_SECRET_KEY=\nSENTRY_DSN=\nLOG_LEVEL=info",
                 "OPENAI_API_KEY=\nANTHROPIC_API_KEY=\n# copy to .env and fill in", "SMTP_HOST=smtp.example.com\nSMTP_USER=\nSMTP_PASSWORD=\nSMTP_PORT=587",
                 "Required env vars: GITHUB_TOKEN, SLACK_WEBHOOK_URL, AWS_REGION (see README for how to get them).",
                 "AWS_ACCESS_KEY_ID=\nAWS_SECRET_ACCESS_KEY=\nAWS_DEFAULT_REGION=eu-central-1",
                 "# fill these in locally, never commit\nMAILGUN_API_KEY=\nMAILGUN_DOMAIN=mg.example.org",
                 {"required_env": ["DATABASE_URL", "JWT_SECRET", "S3_BUCKET"], "optional_env": ["SENTRY_DSN"], "values": "set per environment in the CI settings"}])


@fam("secret-references")
def _():
    return pick(["env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password",
                 "password: vault:secret/data/prod/db#password", "- run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}",
                 f"arn:aws:secretsmanager:eu-west-1:{dz(12)}:secret:prod/api-key-{an(6)}", "api_key: !secret weather_api_key",
                 "DB_PASSWORD_FILE=/run/secrets/db_password", "op://Private/Netflix/password"])


@fam("aws-resource-ids")
def _():
    acct = dz(12)
    return pick([f"arn:aws:iam::{acct}:role/ci-deploy", f"EC2 instance i-{hx(17)} in subnet subnet-{hx(17)}, sg-{hx(17)}",
                 f"AWS account id {acct} (prod), {dz(12)} (staging)", f"s3 bucket arn:aws:s3:::{slugname()}-logs-{acct}", f"Lambda arn:aws:lambda:eu-west-1:{acct}:function:thumbnailer"])


@fam("oauth-client-id-only")
def _():
    return pick([f"Google OAuth client ID (public, used in the login button): {dz(12)}-{anl(32)}.apps.googleusercontent.com",
                 f"GitHub OAuth app client id: Ov23li{an(14)} — the secret is in the vault, not here", f"Azure app registration client id {uid()}, tenant {uid()}"])


@fam("wireguard-public-key")
def _():
    return f"[Peer]\nPublicKey = {wg_key()}\nAllowedIPs = 10.8.0.{R.randint(2, 250)}/32\nEndpoint = vpn.{org()}:51820"


@fam("age-public-key")
def _():
    return pick([f"Encrypt backups to my age public key: age1{bech(58)}", f"# sops .sops.yaml\ncreation_rules:\n  - age: age1{bech(58)}"])


@fam("nostr-npub")
def _():
    return pick([f"Follow me on nostr: npub1{bech(58)}", f"My nostr public key is npub1{bech(58)}"])


@fam("jwks-public")
def _():
    return {"keys": [{"kty": "RSA", "kid": hx(16), "use": "sig", "alg": "RS256", "e": "AQAB", "n": b64u(128)}]}


@fam("decoded-jwt-claims")
def _():
    return pick([{"decoded_payload": {"sub": uid(), "email": email(), "iat": epoch(), "exp": epoch(), "roles": ["viewer"]}, "note": "claims only, from jwt.io decoder"},
                 f"JWT header says alg=RS256, kid={hx(8)}; payload has exp {epoch()} — token already expired, not storing it."])


@fam("password-hash")
def _():
    return pick([f"The user table stores argon2 hashes like $argon2id$v=19$m=65536,t=3,p=4${b64b(16).rstrip('=')}${b64b(32).rstrip('=')}",
                 f"bcrypt cost 12 example hash: $2b$12${rs(AN + './', 53)}", f"Migrating from sha1 to bcrypt; old column looks like {hx(40)}",
                 f"Django user row after the upgrade: pbkdf2_sha256$600000${an(22)}${b64b(32)} — only hashes in the DB, good.",
                 f"The shadow entry uses SHA-512 crypt ($6$…): $6${rs(AN + './', 16)}${rs(AN + './', 86)}"])


@fam("bad-password-examples")
def _():
    return pick(["Security training: never use passwords like 123456, qwerty or password1 — they're at the top of every breach list.",
                 "Most common PINs are 1234, 0000 and 1111; the awareness poster says pick something random.",
                 "Don't use your pet's name plus birth year as a password, that's guessable from Instagram.",
                 "Phishing quiz answer: 'Summer2024!' style passwords get cracked in minutes — length beats complexity.",
                 "The 'top 10 worst passwords' list in the newsletter: 123456, admin, 12345678, 123456789, password, qwerty123…",
                 "Tip from the bank: a PIN that matches your birthday (DDMM) is the first thing thieves try."])


@fam("tx-hashes")
def _():
    return pick([f"Payment sent, tx hash 0x{hx(64)}", f"BTC txid {hx(64)} has 3 confirmations", f"Solana signature {rs(B58, 87)} finalized"])


@fam("sri-integrity")
def _():
    return pick([f'<link rel="stylesheet" href="https://cdn.example.net/lib.min.css" integrity="sha384-{b64b(48)}" crossorigin="anonymous">',
                 f'"integrity": "sha512-{b64b(64)}"'])


@fam("lfs-pointer")
def _():
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{hx(64)}\nsize {R.randint(10000, 90000000)}"


@fam("base64-innocent")
def _():
    txt = pick(["hello world", "Happy birthday Grandma!", "meeting moved to 3pm", "see you at the lake", "buy more coffee"])
    return pick([f"base64 of the greeting for the puzzle: {base64.b64encode(txt.encode()).decode()}",
                 "1x1 transparent pixel: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
                 f"decoded the header for the kids' treasure hunt: {base64.b64encode(txt.encode()).decode()} → '{txt}'"])


@fam("hex-innocent")
def _():
    return pick([f"hexdump of the file header: 89 50 4e 47 0d 0a 1a 0a — it's just a PNG", f"MAC OUI {hx(6).upper()} belongs to the printer vendor",
                 f"sensor reading raw bytes {hx(16)} → 21.4°C, 48% RH"])


@fam("rot13-spoiler")
def _():
    return pick([f"Spoiler (rot13): {codecs.encode('the butler did it', 'rot13')}", f"Joke answer in rot13: {codecs.encode('because it was two tired', 'rot13')}",
                 f"Puzzle hint, rot13: {codecs.encode('look under the third step', 'rot13')}",
                 f"Geocache hint (rot13 as usual): {codecs.encode('magnetic, behind the sign', 'rot13')}",
                 f"Riddle answer for the kids, rot13: {codecs.encode('a piano has keys but cannot open locks', 'rot13')}",
                 f"Book club spoiler in rot13: {codecs.encode('she was the narrator all along', 'rot13')}"])


@fam("open-wifi-no-password")
def _():
    return pick([f"Café wifi '{pick(['BeanThere', 'Brew-Guest', 'CoffeeLab'])}' is open, no password, just accept the terms.",
                 "Hotel Wi-Fi login uses room number and surname, nothing to remember.", "The guest network has no password — it's isolated from our devices.",
                 f"Library Wi-Fi '{pick(['Library-Public', 'CityNet-Free'])}' has no password but times out after 2 hours.",
                 "Train Wi-Fi is open; portal asks only for an email address.", ("Das Gäste-WLAN im Büro ist offen, kein Passwort nötig.", "de")])


@fam("password-location-only")
def _():
    return pick(["The Wi-Fi password is on the sticker under the router.", "Safe code is in the sealed envelope at the notary.",
                 "Alarm code: ask the neighbour, she has it in her phone.", "The bank PIN letter is in the blue folder, top shelf.",
                 ("Das WLAN-Passwort steht auf der Rückseite der FritzBox.", "de"),
                 "The garage remote code is programmed in the car; the manual is in the glovebox.", "Spare PIN mailer for the new card is in the filing cabinet, unopened."])


@fam("password-manager-usage")
def _():
    return pick(["All family passwords are in the shared 1Password vault 'Home' now; emergency kit is in the safe.",
                 "Switched from LastPass to Bitwarden, deleted the old export file.", f"{pick(FIRST)} has emergency access to my vault after a 7-day wait.",
                 "KeePass database syncs via Nextcloud; key file on the YubiKey."])


@fam("security-question-no-answer")
def _():
    return pick(["The bank's security question is 'first pet' — I used a random answer stored in the password manager.",
                 "Set up security questions for the phone account, answers are gibberish on purpose.", "They asked my mother's maiden name on the phone; I refused and went to the branch.",
                 f"{svc()} wants three security questions now; I'll generate the answers in Bitwarden later.",
                 "Security questions feel pointless — anyone can find my first school on Facebook.",
                 ("La banque m'a demandé de choisir une question secrète, j'ai mis une réponse aléatoire notée dans le coffre-fort numérique.", "fr")])


@fam("key-rotation-log")
def _():
    return pick([f"Rotated the SendGrid key after {pick(FIRST)} left the team; nothing to update locally, CI reads it from the vault.",
                 f"Rotated the Stripe secret key on {date_iso()}; old key revoked, new one only in the vault.",
                 f"kid={date_iso()[:7]}-01 is now the active signing key; previous kid retired.", f"Renewed the TLS cert for {org()}, valid until {date_iso()}.",
                 f"Revoked all GitHub PATs older than 90 days ({R.randint(3, 12)} tokens)."])


@fam("vat-company-ids")
def _():
    return pick([f"Our VAT number: DE{dz(9)} (for invoices)", f"Company registration no. HRB {dz(6)} B", f"EORI GB{dz(12)} for the shipment", f"DUNS {dz(9)}"])


@fam("part-numbers")
def _():
    return pick([f"Fridge water filter part no. {anu(3)}-{dz(5)}-{anu(2)}", f"Replacement vacuum bag type {anu(2)}{dz(3)}", f"Bike chain KMC X{R.randint(9, 12)}, {R.randint(110, 126)} links",
                 f"Printer toner {anu(2)}{dz(3)}{anu(1)}, yield 3000 pages"])


@fam("lottery-numbers")
def _():
    nums = sorted(R.sample(range(1, 50), 6))
    return pick([f"Our lottery numbers every week: {' '.join(map(str, nums))}", f"Saturday draw: {', '.join(map(str, nums))}, bonus {R.randint(1, 10)} — no win again",
                 f"Office pool ticket: {'-'.join(map(str, nums))}, {pick(FIRST)} holds the slip", f"Grandpa always plays the birthdays: {', '.join(map(str, nums))}"])


@fam("chess-notation")
def _():
    return pick(["Opening I keep losing to: 1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6", f"Puzzle: white to move, Qh7+ Kf8 Qh8# (rated {R.randint(1200, 2200)})",
                 "Try the London next time: 1.d4 d5 2.Bf4 Nf6 3.e3 e6 4.Nf3 c5 5.c3", f"Lost on time in a won endgame again, move {R.randint(35, 70)}: Rxe6?? instead of Kf2",
                 f"FEN to analyse later: r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - {R.randint(2, 4)} 3"])


@fam("room-and-seat-numbers")
def _():
    return pick([f"Conference room {R.randint(1, 9)}.{dz(2)} on the {R.randint(2, 8)}th floor", f"Seat {R.randint(1, 40)}{pick('ABCDEF')} on the flight, aisle",
                 f"Hospital room {R.randint(100, 699)}, bed B", f"Theatre: row {pick('ABCDEFGHJK')}, seats {R.randint(1, 20)}–{R.randint(21, 30)}"])


@fam("api-key-talk-no-value")
def _():
    return pick([f"Generated a new {pick(['OpenAI', 'Mapbox', 'weather', 'Notion'])} API key for the side project and put it straight into the .env, not here.",
                 "Need to request an API key from the council's open data portal — free tier is 1000 calls/day.",
                 f"The {pick(['Stripe', 'SendGrid', 'Twilio'])} key in staging expires next month, ask {pick(FIRST)} to rotate it.",
                 "Remember: API keys go in the secrets manager, never in the repo or the wiki.",
                 f"Deleted the unused {pick(['GitHub', 'GitLab', 'Hugging Face'])} tokens, only the CI one is left.",
                 ("Tengo que pedir una clave de API nueva para el proyecto, la vieja la revocaron.", "es")])


@fam("session-talk")
def _():
    return pick(["Logged out of all devices on Netflix after noticing an unknown TV.", "Chrome keeps losing the session cookie for the intranet, IT says clear site data.",
                 f"Session timeout on the bank site is {pick([5, 10, 15])} minutes, annoying when filling the tax form.",
                 "Cookie banner on the news site keeps coming back — probably blocking third-party cookies.",
                 "Signed out of Google on the shared family laptop.", "Revoked the 'Sign in with Apple' access for an old game."])


@fam("sealed-secret-ciphertext")
def _():
    return (f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {pick(['db-creds', 'api-keys', 'smtp'])}\n  namespace: prod\nspec:\n"
            f"  encryptedData:\n    password: AgB{rs(B64A, 150)}==\n# safe to commit: only the cluster controller can decrypt")


@fam("sops-encrypted-values")
def _():
    return (f"# secrets.enc.yaml (sops, encrypted at rest)\ndb_password: ENC[AES256_GCM,data:{b64b(18)},iv:{b64b(32)},tag:{b64b(16)},type:str]\n"
            f"sops:\n  age:\n    - recipient: age1{bech(58)}")


@fam("ansible-vault-ciphertext")
def _():
    body = hx(160)
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(body[i:i + 80] for i in range(0, len(body), 80)) + "\n# encrypted with the team vault password (not stored here)"


def build_benign_hard(per_family=6):
    made = 0
    for name, fn in FAM:
        got = 0
        tries = 0
        while got < per_family and tries < 80:
            tries += 1
            r = fn()
            lang = "en"
            if isinstance(r, tuple):
                r, lang = r
            if vlen(r) > 900 or vlen(r) < 20:
                continue
            if add("benign", "hard", name, name, r, lang=lang, group=name):
                got += 1
        made += got
    return made


# ---------------------------------------------------------------------------
# assembly, output and README
# ---------------------------------------------------------------------------
LANG_NAMES = {"en": "English", "de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
              "nl": "Dutch", "pl": "Polish", "sv": "Swedish", "da": "Danish", "nb": "Norwegian Bokmål", "fi": "Finnish",
              "cs": "Czech", "tr": "Turkish", "ru": "Russian", "uk": "Ukrainian", "el": "Greek", "ar": "Arabic", "he": "Hebrew",
              "hi": "Hindi", "ja": "Japanese", "zh": "Chinese", "ko": "Korean", "vi": "Vietnamese", "id": "Indonesian",
              "th": "Thai", "ro": "Romanian", "hu": "Hungarian", "none": "no natural language (pure code/config/data)"}


def shape(v):
    return "string" if isinstance(v, str) else ("object" if isinstance(v, dict) else "array")


def bucket(n):
    for lo, hi, name in ((0, 39, "< 40"), (40, 99, "40-99"), (100, 199, "100-199"), (200, 400, "200-400"),
                         (401, 1000, "401-1000"), (1001, 10 ** 9, "> 1000")):
        if lo <= n <= hi:
            return name


def table(title, rows, head=("", "count")):
    out = [f"### {title}", "", f"| {head[0]} | {head[1]} |", "|---|---:|"]
    out += [f"| {a} | {b} |" for a, b in rows]
    return "\n".join(out) + "\n"


def counter(items):
    d = {}
    for x in items:
        d[x] = d.get(x, 0) + 1
    return d


def sorted_counts(d):
    return sorted(d.items(), key=lambda kv: (-kv[1], kv[0]))


def compact_list(d):
    return ", ".join(f"`{k}` ({v})" for k, v in sorted(d.items()))


def seg_of(r):
    return r["id"][8:].rsplit("-", 1)[0]


def write_readme(sha, n_lines):
    recs = RECORDS
    lv = counter(f"{r['label']} / {r['variant']}" for r in recs)
    shapes = counter(f"{r['label']} / {shape(r['value'])}" for r in recs)
    shapes_all = counter(shape(r["value"]) for r in recs)
    order_b = ["< 40", "40-99", "100-199", "200-400", "401-1000", "> 1000"]
    lens = counter(bucket(vlen(r["value"])) for r in recs)
    langs = counter(m["lang"] for m in META)
    langs_sec = counter(m["lang"] for r, m in zip(recs, META) if r["label"] == "secret")
    langs_ben = counter(m["lang"] for r, m in zip(recs, META) if r["label"] == "benign")
    vendor_ids = [r for r, m in zip(recs, META) if r["label"] == "secret" and r["variant"] == "plain" and r["kind"] in VENDOR_KINDS]
    personal = [r for r in recs if r["label"] == "secret" and r["variant"] == "plain" and r["kind"] not in VENDOR_KINDS]
    vendor_kinds = counter(r["kind"] for r in vendor_ids)
    vendor_cont = counter(seg_of(r) for r in vendor_ids)
    pers_kinds = counter(r["kind"] for r in personal)
    pers_seg = counter(seg_of(r) for r in personal)
    hard = counter(seg_of(r) for r in recs if r["label"] == "secret" and r["variant"] == "hard")
    hard_kinds = counter(r["kind"] for r in recs if r["label"] == "secret" and r["variant"] == "hard")
    bplain = counter(seg_of(r) for r in recs if r["label"] == "benign" and r["variant"] == "plain")
    bplain_k = counter(r["kind"] for r in recs if r["label"] == "benign" and r["variant"] == "plain")
    bhard = counter(seg_of(r) for r in recs if r["label"] == "benign" and r["variant"] == "hard")
    key_tech = ["secret-in-key-hex", "split-key-and-value"]
    ns3 = sorted({seg_of(r) for r in recs if len(r["namespace"]) > 2})
    assert ns3 == ["secret-in-namespace"]
    assert all(seg_of(r) in key_tech for r in recs if not (r["key"].startswith("mem_") and 12 <= len(r["key"]) <= 36))
    n_sec = sum(1 for r in recs if r["label"] == "secret")
    n_ben = len(recs) - n_sec

    parts = []
    parts.append(f"""# Held-out secret-detector corpus #13 (`heldout13.jsonl`)

**Status: FROZEN — evaluation only.** This corpus is used only to *measure* the secret detector that guards the
agent long-term memory store; it must never be used to tune, train, or pick thresholds for it. The file
`heldout13.jsonl` is never edited: if a record turns out to be wrong, the correction goes into a separate
`ERRATA.md` next to this README (record id, problem, corrected label), and scoring applies the errata on top.

| item | value |
|---|---|
| file | `heldout13.jsonl` ({n_lines} lines, UTF-8, one JSON object per line, `ensure_ascii=False`) |
| sha256 | `{sha}` |
| generator | `make_heldout13.py` (Python 3.11 standard library only) |
| seed | one RNG instance, `random.Random({SEED_TEXT})`; every choice and the final shuffle come from it |
| records | {len(recs)} total: {n_sec} secret, {n_ben} benign |

Regenerate with `python3 make_heldout13.py`; two runs give byte-identical output (checked with `sha256sum`).
The generator also rewrites this README from the data, so the tables below always match the file.

## Independence statement

This corpus was written from scratch by a helper session that was told to stay independent of the detector
and of everything else in the project. What it did:

* It worked only inside `tests/data/secrets_heldout13/`. It did not read, list or open any other file under
  `/work/main` (no detector code, no docs, no rules, no other test data or corpora, no git history), and
  nothing under `/work/shared` or `/work/.library`.
* It did not run git, did not import or run any project code, did not install packages, did not run any
  secret scanner (detect-secrets, gitleaks, betterleaks, kingfisher, trufflehog or any other), and did not
  use web, code or documentation search.
* The only commands it ran were `python3` (this generator and ad-hoc checks of its output) and basic shell
  utilities (mkdir, ls, cat, grep, sed, cut, wc, head, rm, sha256sum) on files inside this folder. Temporary
  check scripts written into this folder during development were deleted before freezing. (One throw-away
  check script was mistakenly written to `/tmp` early on; it only executed this generator and was deleted
  right away. Nothing outside this folder was read.)
* Every credential format, config layout, code idiom and natural-language phrasing comes from the author's
  general knowledge of how these formats look and how people write notes and chats. Formats are reproduced
  "as remembered" (prefix, alphabet, length); a few may differ in detail from the real vendor format, which is
  intended — the corpus measures behaviour on realistic-looking material, not on a copied rule set.
* It did not try to guess how the detector works and contains no detection logic; it only writes what real
  memories look like.

## Record format

```json
{{"id": "h13-{{s|b}}-{{p|h}}-{{segment}}-{{nnn}}", "label": "secret"|"benign", "kind": "<short kind>", "variant": "plain"|"hard",
 "namespace": ["memories", "u<digits>"], "key": "mem_<hex>", "value": <string | object | array>}}
```

* `s`/`b` = secret/benign, `p`/`h` = plain/hard. `segment`: for secret/plain the container or source (`env`,
  `yaml`, `json`, `code-<lang>`, `curl`, `http`, `log`, `ticket`, `email`, `chat`, `note`, `prose-<lang>`,
  `chat-<lang>`, `form-<lang>`, ...); for secret/hard the evasion technique; for benign/plain the source; for
  benign/hard the look-alike family. `nnn` is a running number per (label, variant, segment); ids are unique.
* `kind` is a short description of what the secret is (e.g. `github-pat-classic`, `door-code`) or, for benign
  records, the topic or look-alike family.
* `key` is normally `mem_` + 8..32 random hex characters. **Exceptions (deliberate):** the evasion techniques
  {", ".join(f"`{t}`" for t in key_tech) or "(none)"} put the secret (hex-encoded) or half of it into `key`
  (there `key` is `mem_` + the hex of the secret material, so it can be shorter or longer than usual), and
  {", ".join(f"`{t}`" for t in ns3) or "(none)"} adds a third `namespace` element that carries the secret in clear.
  A detector that looks only at `value` is expected to miss these; that is part of what they measure.
* Values are mostly 40..400 characters (strings, or compact JSON of objects/arrays). Longer values occur only
  where the format needs them (PEM/PGP/OpenSSH private keys, certificates and public key blocks). About a
  quarter of the records are objects or arrays (nested configs, form-like records, chat transcripts as lists of
  turns, tool outputs).
* Records are in a shuffled order. Synthetic user ids are reused across records, like a real store.

## Labelling policy

* **secret** — anything that grants access if copied: API keys and tokens, OAuth client secrets, webhook URLs
  with secret paths or tokens, connection strings with passwords, private keys (PEM, OpenSSH, PGP, age,
  WireGuard, wallet keys), signing and encryption secrets, session cookies, JWT bearer tokens, account
  passwords, PINs and PUKs, door/alarm/garage/safe/locker/keybox codes, one-time codes, recovery codes and
  recovery keys, seed phrases, security-question answers, full payment-card numbers (with or without expiry
  and CVV), gift-card claim codes — **also when encoded, split, spelled out, reordered or otherwise
  disguised**, and also when only recoverable by combining parts of the same record (including its `key` and
  `namespace`).
* **benign** — personal data that is not an access credential (phone numbers, e-mail and postal addresses,
  birthdays, order/tracking/booking/ticket numbers, policy and membership numbers, device serials, IMEI, MAC
  addresses, VINs, ISBNs); talk about passwords and codes without the value; placeholders and masked or
  redacted values; documented example/test values explicitly marked as examples (e.g. the AWS documentation
  keys, the jwt.io sample token, published test card numbers); public keys, certificates, fingerprints,
  hashes, checksums, UUIDs, git SHAs, image digests, trace ids; publishable keys that are public by design
  (Stripe publishable keys, Mapbox public tokens, reCAPTCHA site keys, Algolia search-only keys, Firebase web
  config, Supabase anon keys, analytics ids); receive-only crypto addresses; an IBAN given so others can pay
  you; card last-four digits or expiry alone; values that are encrypted for safe storage by design (SOPS,
  Sealed Secrets, Ansible Vault ciphertext) without their decryption key.
* All secret values are synthetic and drawn from the seeded RNG with the remembered alphabet, length and
  prefix of their format. Payment-card numbers are Luhn-valid with real brand prefixes and are checked against
  a list of well-known published test numbers, which only appear in benign records that say they are test
  numbers. Seed phrases use words from the BIP-39 English list but carry no valid checksum.

## Counts
""")
    parts.append(table("By label and variant", sorted(lv.items()), ("label / variant", "records")))
    parts.append(table("By value shape", sorted(shapes_all.items()), ("shape", "records")))
    parts.append(table("By label and value shape", sorted(shapes.items()), ("label / shape", "records")))
    parts.append(table("By value length (characters of the string, or of compact JSON)", [(b, lens.get(b, 0)) for b in order_b], ("length", "records")))
    parts.append(table("By language of the natural-language text (all records)",
                       [(f"{LANG_NAMES.get(k, k)} (`{k}`)", v) for k, v in sorted_counts(langs)], ("language", "records")))
    parts.append(f"Secrets by language: {compact_list(langs_sec)}.\n\nBenign by language: {compact_list(langs_ben)}.\n")
    parts.append(f"### secret / plain — vendor and provider credentials ({len(vendor_ids)} records, {len(vendor_kinds)} distinct formats)\n\n"
                 f"Containers: {compact_list(vendor_cont)}.\n\nFormats (kind → records): {compact_list(vendor_kinds)}.\n")
    parts.append(f"### secret / plain — personal secrets ({len(personal)} records, {len(pers_kinds)} kinds)\n\n"
                 f"Sources/segments: {compact_list(pers_seg)}.\n\nKinds: {compact_list(pers_kinds)}.\n")
    parts.append(f"### secret / hard — evasion techniques ({sum(hard.values())} records, {len(hard)} techniques)\n\n"
                 f"Techniques: {compact_list(hard)}.\n\nUnderlying secret kinds: {compact_list(hard_kinds)}.\n")
    parts.append(f"### benign / plain — ordinary memories ({sum(bplain.values())} records)\n\n"
                 f"Sources: {compact_list(bplain)}.\n\nTopics: {compact_list(bplain_k)}.\n")
    parts.append(f"### benign / hard — look-alike families ({sum(bhard.values())} records, {len(bhard)} families)\n\n"
                 f"Families: {compact_list(bhard)}.\n")
    parts.append("""## Scoring notes

* Positive class = `secret`. Report recall per `variant` and per segment (container / technique), and the
  false-positive rate on `benign/plain` and `benign/hard` separately, per family.
* Records whose secret sits in `key` or in a third `namespace` element only make sense for a detector that is
  given the whole memory record; report them separately if the detector sees `value` only.
""")
    with open(OUT_README, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\n".join(parts))


VENDOR_KINDS = {s["kind"] for s in VENDORS}


def main():
    n1 = build_vendor(540)
    n2 = build_personal(175, 275)
    n3 = build_hard(4)
    n4 = build_benign_plain(200, 330)
    n5 = build_benign_hard(6)
    pairs = list(zip(RECORDS, META))
    R.shuffle(pairs)
    RECORDS[:] = [p[0] for p in pairs]
    META[:] = [p[1] for p in pairs]
    ids = [r["id"] for r in RECORDS]
    assert len(ids) == len(set(ids))
    lines = [json.dumps(r, ensure_ascii=False) for r in RECORDS]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT_JSONL, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    write_readme(sha, len(lines))
    print(f"vendor={n1} personal={n2} hard={n3} benign_plain={n4} benign_hard={n5} total={len(RECORDS)}")
    print(f"sha256={sha}")


if __name__ == "__main__":
    main()
