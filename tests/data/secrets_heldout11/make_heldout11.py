#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""make_heldout11.py - deterministic generator for held-out secret corpus #11.

Standard library only.  All randomness comes from random.Random(1111_2026).
Writes heldout11.jsonl and README.md into the folder that holds this file.
Every credential-looking value is random; no real credential is included.
Documentation sample keys appear only in benign records that say they are examples.
"""
import base64
import codecs
import collections
import hashlib
import json
import os
import random
import re
import string
import struct
import sys
import urllib.parse
import zlib

SEED = 1111_2026
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSONL = os.path.join(HERE, "heldout11.jsonl")
OUT_README = os.path.join(HERE, "README.md")

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
ANL = LO + DG
ANU = UP + DG
HEX = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B64C = AN + "+/"
B64U = AN + "-_"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = UP + "234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


# ----------------------------------------------------------------- primitives
def rs(n, alpha=AN):
    return "".join(R.choice(alpha) for _ in range(n))


def hx(n):
    return rs(n, HEX)


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def pick(seq):
    return R.choice(seq)


def uuid4():
    h = hx(32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def digits(n, first_nonzero=False):
    s = rs(n, DG)
    if first_nonzero and s[0] == "0":
        s = R.choice("123456789") + s[1:]
    return s


def b58enc(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\0"))
    return "1" * pad + out


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58enc(payload + chk)


def wrap(s, n):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def pem(label, der, width=64):
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, wrap(b64(der), width), label)


def sshstr(b):
    return struct.pack(">I", len(b)) + b


def jwt(payload, alg="HS256", sig_bytes=32, kid=None):
    hdr = {"alg": alg, "typ": "JWT"}
    if kid:
        hdr["kid"] = kid
    h = b64u(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    return "%s.%s.%s" % (h, p, b64u(rbytes(sig_bytes)))


def epoch():
    return R.randint(1767225600, 1798761600)  # 2026-2027


def date_iso():
    return "2026-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28))


def luhn_complete(prefix, length):
    body = prefix + "".join(R.choice(DG) for _ in range(length - len(prefix) - 1))
    s = 0
    for i, d in enumerate(reversed(body)):
        n = int(d)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        s += n
    return body + str((10 - s % 10) % 10)


def luhn_ok(num):
    s = 0
    for i, d in enumerate(reversed(num)):
        n = int(d)
        if i % 2 == 1:
            n *= 2
            if n > 9:
                n -= 9
        s += n
    return s % 10 == 0


KNOWN_TEST_CARDS = {
    "4242424242424242", "4111111111111111", "4012888888881881", "4000056655665556",
    "5555555555554444", "5105105105105100", "2223003122003222", "5200828282828210",
    "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
    "3056930009020004", "36227206271667", "3566002020360505", "6200000000000005",
    "4000000000000002", "4000000000009995", "4000002500003155", "4000000000000077",
}

CARD_BRANDS = [
    ("Visa", lambda: "4", 16),
    ("Mastercard", lambda: str(R.randint(51, 55)), 16),
    ("Mastercard", lambda: str(R.randint(2221, 2720)), 16),
    ("American Express", lambda: R.choice(["34", "37"]), 15),
    ("Discover", lambda: R.choice(["6011", "65"]), 16),
    ("JCB", lambda: str(R.randint(3528, 3589)), 16),
    ("Diners Club", lambda: "36", 14),
    ("UnionPay", lambda: "62", 16),
    ("Maestro", lambda: R.choice(["6759", "5018", "6304"]), 16),
]


def card():
    """Random Luhn-valid card with a real brand prefix (never a published test number)."""
    while True:
        brand, pf, ln = pick(CARD_BRANDS)
        num = luhn_complete(pf(), ln)
        if num not in KNOWN_TEST_CARDS and len(set(num[len(pf()):])) > 3:
            break
    if ln == 15:
        fmt = "%s %s %s" % (num[:4], num[4:10], num[10:])
    elif ln == 14:
        fmt = "%s %s %s" % (num[:4], num[4:10], num[10:])
    else:
        fmt = " ".join(num[i:i + 4] for i in range(0, ln, 4))
    if R.random() < 0.3:
        fmt = num
    elif R.random() < 0.2:
        fmt = fmt.replace(" ", "-")
    cvv = digits(4 if ln == 15 else 3)
    exp = "%02d/%02d" % (R.randint(1, 12), R.randint(26, 31))
    return brand, num, fmt, exp, cvv


def pin(n=None):
    n = n or R.choice([4, 4, 4, 5, 6, 6])
    while True:
        p = digits(n)
        if len(set(p)) >= 3 and p not in ("1234", "123456", "4321", "12345", "654321"):
            return p


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
curtain curve cushion custom cute cycle dad damage damp dance danger daring dash daughter dawn day deal debate
debris decade december decide decline decorate decrease deer defense define defy degree delay deliver demand
demise denial dentist deny depart depend deposit depth deputy derive describe desert design desk despair destroy
detail detect develop device devote diagram dial diamond diary dice diesel diet differ digital dignity dilemma
dinner dinosaur direct dirt disagree discover disease dish dismiss disorder display distance divert divide divorce
dizzy doctor document dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama drastic
draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf dynamic
eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow
elder electric elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower
empty enable enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich enroll
ensure enter entire entry envelope episode equal equip era erase erode erosion error erupt escape essay essence
estate eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse execute
exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend extra eye
eyebrow fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat
fatal father fatigue fault favorite feature february federal fee feed feel female fence festival fetch fever few
fiber fiction field figure file film filter final find fine finger finish fire firm first fiscal fish fit fitness
fix flag flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam focus fog foil fold
follow food foot force forest forget fork fortune forum forward fossil foster found fox fragile frame frequent
fresh friend fringe frog front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy
gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre gentle
genuine gesture ghost giant gift giggle ginger giraffe girl give glad glance glare glass glide glimpse globe gloom
glory glove glow glue goat goddess gold good goose gorilla gospel gossip govern gown grab grace grain grant grape
grass gravity great green grid grief grit grocery group grow grunt guard guess guide guilt guitar gun gym habit
hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head health heart heavy
hedgehog height hello helmet help hen hero hidden high hill hint hip hire history hobby hockey hold hole holiday
hollow home honey hood hope horn horror horse hospital host hotel hour hover hub huge human humble humor hundred
hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal illness image imitate
immense immune impact impose improve impulse inch include income increase index indicate indoor industry infant
inflict inform inhale inherit initial inject injury inmate inner innocent input inquiry insane insect inside
inspire install intact interest into invest invite involve iron island isolate issue item ivory jacket jaguar jar
jazz jealous jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen
keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label
labor ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy
leader leaf learn leave lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level
liar liberty library license life lift light like limb limit link lion liquid list little live lizard load loan
lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch luxury
lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple
marble march margin marine market marriage mask mass master match material math matrix matter maximum maze meadow
mean measure meat mechanic medal media melody melt member memory mention menu mercy merge merit merry mesh
message metal method middle midnight milk million mimic mind minimum minor minute miracle mirror misery miss
mistake mix mixed mixture mobile model modify mom moment monitor monkey monster month moon moral more morning
mosquito mother motion motor mountain mouse move movie much muffin mule multiply muscle museum mushroom music
must mutual myself mystery myth naive name napkin narrow nasty nation nature near neck need negative neglect
neither nephew nerve nest net network neutral never news next nice night noble noise nominee noodle normal north
nose notable note nothing notice novel now nuclear number nurse nut oak obey object oblige obscure observe obtain
obvious occur ocean october odor off offer office often oil okay old olive olympic omit once one onion online
only open opera opinion oppose option orange orbit orchard order ordinary organ orient original orphan ostrich
other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace palm
panda panel panic panther paper parade parent park parrot party pass patch path patient patrol pattern pause pave
payment peace peanut pear peasant pelican pen penalty pencil people pepper perfect permit person pet phone photo
phrase physical piano picnic picture piece pig pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet
plastic plate play please pledge pluck plug plunge poem poet point polar pole police pond pony pool popular
portion position possible post potato pottery poverty powder power practice praise predict prefer prepare present
pretty prevent price pride primary print priority prison private prize problem process produce profit program
project promote proof property prosper protect proud provide public pudding pull pulp pulse pumpkin punch pupil
puppy purchase purity purpose purse push put puzzle pyramid quality quantum quarter question quick quit quiz quote
rabbit raccoon race rack radar radio rail rain raise rally ramp ranch random range rapid rare rate rather raven
raw razor ready real reason rebel rebuild recall receive recipe record recycle reduce reflect reform refuse
region regret regular reject relax release relief rely remain remember remind remove render renew rent reopen
repair repeat replace report require rescue resemble resist resource response result retire retreat return
reunion reveal review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple risk ritual
rival river road roast robot robust rocket romance roof rookie room rose rotate rough round route royal rubber rude
rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy
satoshi sauce sausage save say scale scan scare scatter scene scheme school science scissors scorpion scout scrap
screen script scrub sea search season seat second secret section security seed seek segment select sell seminar
senior sense sentence series service session settle setup seven shadow shaft shallow share shed shell sheriff
shield shift shine ship shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick
side siege sight sign silent silk silly silver similar simple since sing siren sister situate six size skate
sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim slogan slot slow slush small
smart smile smoke smooth snack snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution
solve someone song soon sorry sort soul sound soup source south space spare spatial spawn speak special speed
spell spend sphere spice spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring spy
square squeeze squirrel stable stadium staff stage stairs stamp stand start state stay steak steel stem step
stereo stick still sting stock stomach stone stool story stove strategy street strike strong struggle student
stuff stumble style subject submit subway success such sudden suffer sugar suggest suit summer sun sunny sunset
super supply supreme sure surface surge surprise surround survey suspect sustain swallow swamp swap swarm swear
sweet swift swim swing switch sword symbol symptom syrup system table tackle tag tail talent talk tank tape target
task taste tattoo taxi teach team tell ten tenant tennis tent term test text thank that theme then theory there
they thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip tired tissue
title toast tobacco today toddler toe together toilet token tomato tomorrow tone tongue tonight tool tooth top
topic topple torch tornado tortoise toss total tourist toward tower town toy track trade traffic tragic train
transfer trap trash travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble truck true
truly trumpet trust truth try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist
two type typical ugly umbrella unable unaware uncle uncover under undo unfair unfold unhappy uniform unique unit
universe unknown unlock until unusual unveil update upgrade uphold upon upper upset urban urge usage use used
useful useless usual utility vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle
velvet vendor venture venue verb verify version very vessel veteran viable vibrant vicious victory video view
village vintage violin virtual virus visa visit visual vital vivid vocal voice void volcano volume vote voyage
wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear
weasel weather web wedding weekend weird welcome west wet whale what wheat wheel when where whip whisper wide
width wife wild will win window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder wood
wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth zebra zero
zone zoo""".split()
assert len(set(w[:4] for w in BIP39)) == len(BIP39), "4-letter prefixes must be unique"


def seed_words(n=None):
    n = n or R.choice([12, 12, 12, 24, 18])
    return [R.choice(BIP39) for _ in range(n)]


PW_WORDS_EN = ["Sunflower", "harbor", "Mango", "tiger", "Falcon", "pepper", "Maple", "river", "Comet", "velvet",
               "Orchid", "lantern", "Pixel", "copper", "Walrus", "meadow", "Nebula", "biscuit", "Cobalt", "tundra",
               "Juniper", "saffron", "Quokka", "ember", "Marlin", "pebble", "Thistle", "anchor", "Bramble", "zephyr"]
PW_WORDS = {
    "en": PW_WORDS_EN,
    "de": ["Schmetterling", "Apfelbaum", "Sonnenblume", "Wanderweg", "Kuckucksuhr", "Brezel", "Zugspitze", "Leuchtturm"],
    "fr": ["Papillon", "croissant", "Mistral", "lavande", "Bretagne", "cerisier", "Chamonix", "moulin"],
    "es": ["Mariposa", "girasol", "Tortuga", "naranja", "Alhambra", "paella", "Cometa", "olivo"],
    "it": ["Farfalla", "girasole", "Gelato", "Vesuvio", "limone", "Gondola", "tramonto", "Pinocchio"],
    "pt": ["Borboleta", "saudade", "Cajueiro", "Sardinha", "amendoim", "Tucano", "goiaba", "Lisboa"],
    "nl": ["Tulpen", "Molenaar", "stroopwafel", "Fietsbel", "Zeeland", "klompen", "Hagelslag", "Dijkgraaf"],
    "pl": ["Motyl", "Pierogi", "Bursztyn", "Zubr", "Wisla", "Kasztan", "slonecznik", "Tatry"],
    "sv": ["Fjaril", "Kanelbulle", "Midsommar", "Lingon", "Alg", "Skargard", "Smultron", "Fika"],
    "tr": ["Kelebek", "Lale", "Simit", "Kapadokya", "Bogaz", "Cinar", "Lokum", "Yildiz"],
    "ru": ["Babochka", "Matryoshka", "Berezka", "Volga", "Sirin", "Kedr", "Zvezda", "Medved"],
    "ja": ["Sakura", "Fujiyama", "Tanuki", "Momiji", "Hotaru", "Onigiri", "Kitsune", "Daruma"],
    "zh": ["Xiongmao", "Longjing", "Chunjie", "Hudie", "Mudan", "Taishan", "Baozi", "Qilin"],
    "ar": ["Yasmin", "Sahara", "Nakhla", "Qamar", "Falafel", "Ghazal", "Bahr", "Najma"],
    "ko": ["Mugunghwa", "Hangang", "Kimchi", "Hodu", "Namsan", "Bibimbap", "Dalgona", "Sonamu"],
}
SYMS = "!#$%&*?@+-_.="


def password(lang="en"):
    words = PW_WORDS.get(lang, PW_WORDS_EN) + PW_WORDS_EN[:6]
    style = R.randint(0, 7)
    if style == 0:
        return pick(words) + pick(SYMS) + str(R.randint(1950, 2024))
    if style == 1:
        return "%s-%s-%d" % (pick(words).lower(), pick(words).capitalize(), R.randint(10, 99))
    if style == 2:
        while True:
            s = rs(R.randint(10, 16), AN + "!#$%&*?@")
            if any(c in DG for c in s) and any(c in UP for c in s):
                return s
    if style == 3:
        sep = pick([".", "-", "_", " ", "+"])
        return sep.join(pick(BIP39) for _ in range(R.randint(3, 5))) + sep + str(R.randint(1, 99))
    if style == 4:
        w = pick(words)
        leet = w.replace("a", "@").replace("o", "0").replace("e", "3").replace("i", "1").replace("s", "$")
        return leet + str(R.randint(1, 2024)) + pick("!?#")
    if style == 5:
        return pick(words) + str(R.randint(100, 9999)) + pick(words).lower() + pick(SYMS)
    if style == 6:
        return "%s%s%s%s" % (pick(words)[:5], R.randint(10, 99), pick(SYMS), rs(4, AN))
    return rs(3, UP) + pick(SYMS) + pick(words).lower() + digits(3) + pick(SYMS)


def base32_seed(n=32):
    return rs(n, B32)


def grouped(s, n=4, sep=" "):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def all_strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from all_strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from all_strings(v)
    elif obj is not None:
        yield str(obj)


# ------------------------------------------------------------ key material
def ec_pem():
    der = (bytes.fromhex("30770201010420") + rbytes(32)
           + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64))
    return pem("EC PRIVATE KEY", der)


def pkcs8_ec_pem():
    der = (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
           + rbytes(32) + bytes.fromhex("a144034200") + b"\x04" + rbytes(64))
    return pem("PRIVATE KEY", der)


def pkcs8_ed25519_pem():
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rbytes(32))


def rsa_pem():
    return pem("RSA PRIVATE KEY", bytes.fromhex("3082025c02010002818100") + rbytes(597))


def encrypted_pem():
    return pem("ENCRYPTED PRIVATE KEY", bytes.fromhex("3081ec305706092a864886f70d01050d304a") + rbytes(222))


def openssh_ed25519(comment):
    pub, priv = rbytes(32), rbytes(32)
    pubblob = sshstr(b"ssh-ed25519") + sshstr(pub)
    chk = rbytes(4)
    sec = chk + chk + sshstr(b"ssh-ed25519") + sshstr(pub) + sshstr(priv + pub) + sshstr(comment.encode())
    padv = 1
    while len(sec) % 8:
        sec += bytes([padv])
        padv += 1
    blob = (b"openssh-key-v1\x00" + sshstr(b"none") + sshstr(b"none") + sshstr(b"")
            + struct.pack(">I", 1) + sshstr(pubblob) + sshstr(sec))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % wrap(b64(blob), 70)


def ssh_public(comment):
    return "ssh-ed25519 %s %s" % (b64(sshstr(b"ssh-ed25519") + sshstr(rbytes(32))), comment)


def pgp_private():
    body = (b"\x94\x58\x04" + struct.pack(">I", epoch()) + bytes.fromhex("16092b06010401da470f01010740")
            + rbytes(32) + b"\x00\x01\x00" + rbytes(34))
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PRIVATE KEY BLOCK-----"
            % (wrap(b64(body), 64), rs(4, B64C)))


def putty_ppk(comment):
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: %s\nPublic-Lines: 2\n%s\n%s\n"
            "Private-Lines: 1\n%s\nPrivate-MAC: %s" % (comment, "AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(18, B64C),
                                                      rs(25, B64C), b64(sshstr(rbytes(32))), hx(64)))


def jwk_ec():
    return {"kty": "EC", "crv": "P-256", "kid": "k" + hx(8), "use": "sig",
            "x": b64u(rbytes(32)), "y": b64u(rbytes(32)), "d": b64u(rbytes(32))}


def jwk_okp():
    return {"kty": "OKP", "crv": "Ed25519", "kid": "sig-" + date_iso(), "x": b64u(rbytes(32)), "d": b64u(rbytes(32))}


def age_key():
    return "AGE-SECRET-KEY-1" + rs(58, BECH.upper())


def wif():
    return b58check(b"\x80" + rbytes(32) + b"\x01")


def xprv():
    return b58check(bytes.fromhex("0488ade4") + b"\x00" * 9 + rbytes(32) + b"\x00" + rbytes(32))


def session_jwt():
    return jwt({"sub": "user_" + hx(10), "sid": uuid4(), "scope": pick(["openid profile email offline_access",
                                                                          "read write admin", "session"]),
                "iat": epoch(), "exp": epoch() + 3600, "iss": "https://auth." + pick(["acme-corp.io", "tinyshop.app",
                                                                                      "northwind.dev"]) + "/"},
               alg=pick(["HS256", "ES256"]))


def k8s_sa_jwt():
    ns_ = pick(["default", "ci", "payments", "kube-system"])
    return jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": ns_,
                "kubernetes.io/serviceaccount/secret.name": "deployer-token-" + rs(5, ANL),
                "kubernetes.io/serviceaccount/service-account.name": "deployer",
                "sub": "system:serviceaccount:%s:deployer" % ns_}, alg="RS256", sig_bytes=128, kid=rs(43, B64U))


def supabase_jwt():
    return jwt({"iss": "supabase", "ref": rs(20, LO), "role": "service_role", "iat": epoch(), "exp": epoch() + 10 ** 8})


def s3_presigned():
    b = pick(["acme-invoices", "family-photos-2026", "prod-exports", "hr-docs-eu"])
    region = pick(["eu-west-1", "us-east-1", "ap-southeast-2", "eu-central-1"])
    return ("https://%s.s3.%s.amazonaws.com/%s/%s.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%s%%2F"
            "2026%02d%02d%%2F%s%%2Fs3%%2Faws4_request&X-Amz-Date=2026%02d%02dT101500Z&X-Amz-Expires=604800"
            "&X-Amz-SignedHeaders=host&X-Amz-Signature=%s"
            % (b, region, pick(["exports", "q1", "contracts"]), rs(10, ANL), rs(16, ANU), R.randint(1, 12),
               R.randint(1, 28), region, R.randint(1, 12), R.randint(1, 28), hx(64)))


def gcs_signed():
    return ("https://storage.googleapis.com/%s/%s.zip?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential="
            "uploader%%40%s.iam.gserviceaccount.com%%2F2026%02d%02d%%2Fauto%%2Fstorage%%2Fgoog4_request"
            "&X-Goog-Date=2026%02d%02dT080000Z&X-Goog-Expires=86400&X-Goog-SignedHeaders=host&X-Goog-Signature=%s"
            % (pick(["build-cache", "ml-datasets-x", "backups-acme"]), rs(8, ANL), pick(["proj-" + rs(6, ANL)]),
               R.randint(1, 12), R.randint(1, 28), R.randint(1, 12), R.randint(1, 28), hx(256)))


def azure_sas_url():
    sig = urllib.parse.quote(b64(rbytes(32)), safe="")
    return ("https://%s.blob.core.windows.net/%s/%s.xlsx?sp=r&st=2026-%02d-01T09:00:00Z&se=2026-%02d-28T17:00:00Z"
            "&spr=https&sv=2022-11-02&sr=b&sig=%s" % (rs(10, ANL), pick(["reports", "payroll", "shared"]),
                                                       rs(6, ANL), R.randint(1, 6), R.randint(7, 12), sig))


def cloudfront_signed():
    return ("https://%s.cloudfront.net/videos/%s.m3u8?Expires=%d&Signature=%s&Key-Pair-Id=K%s"
            % (rs(14, ANL), rs(8, ANL), epoch(), rs(170, AN + "-~_"), rs(13, ANU)))


def netloc_host(kind):
    return {"pg": pick(["db.internal", "pg-prod-1.cluster-c9x.eu-west-1.rds.amazonaws.com", "10.0.4.12"]),
            "my": pick(["mysql.internal", "db-main.lan", "127.0.0.1"]),
            }.get(kind, "localhost")


def db_pw():
    return pick([rs(R.randint(14, 24), AN), rs(R.randint(16, 28), AN + "-_~"), password()]).replace("@", "A").replace(
        "/", "x").replace(":", "y").replace("#", "h").replace("?", "q").replace(" ", "_").replace("%", "p")


def dbuser():
    return pick(["app", "admin", "svc_billing", "reporting", "postgres", "root", "etl_user", "webapp"])


# ------------------------------------------------------------ vendor formats
# (kind, vendor, env var, generator) -> generator returns str | list[(var, value)] | dict (jwk)
def P(prefix, n, alpha=AN, suffix=""):
    return lambda: prefix + rs(n, alpha) + suffix


V = []


def v(kind, vendor, var, gen):
    V.append((kind, vendor, var, gen))


# cloud
v("aws_access_key", "AWS", "AWS_SECRET_ACCESS_KEY",
  lambda: [("AWS_ACCESS_KEY_ID", "AKIA" + rs(16, B32)), ("AWS_SECRET_ACCESS_KEY", rs(40, AN + "/+"))])
v("aws_session_credentials", "AWS STS", "AWS_SESSION_TOKEN",
  lambda: [("AWS_ACCESS_KEY_ID", "ASIA" + rs(16, B32)), ("AWS_SECRET_ACCESS_KEY", rs(40, AN + "/+")),
           ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2VjE" + rs(160, B64C))])
v("aws_ses_smtp_password", "Amazon SES", "SES_SMTP_PASSWORD",
  lambda: [("SES_SMTP_USER", "AKIA" + rs(16, B32)), ("SES_SMTP_PASSWORD", "B" + rs(43, B64C))])
v("aws_cognito_client_secret", "Amazon Cognito", "COGNITO_CLIENT_SECRET",
  lambda: [("COGNITO_CLIENT_ID", rs(26, ANL)), ("COGNITO_CLIENT_SECRET", rs(51, ANL))])
v("gcp_api_key", "Google Cloud", "GOOGLE_API_KEY", P("AIza", 35, AN + "-_"))
v("gcp_oauth_client_secret", "Google OAuth", "GOOGLE_CLIENT_SECRET",
  lambda: [("GOOGLE_CLIENT_ID", digits(12, True) + "-" + rs(32, ANL) + ".apps.googleusercontent.com"),
           ("GOOGLE_CLIENT_SECRET", "GOCSPX-" + rs(28, AN + "-_"))])
v("google_oauth_refresh_token", "Google OAuth", "GOOGLE_REFRESH_TOKEN", lambda: "1//0" + rs(1, AN) + rs(99, AN + "-_"))
v("google_oauth_access_token", "Google OAuth", "GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + rs(150, AN + "-_"))
v("azure_storage_connection_string", "Azure Storage", "AZURE_STORAGE_CONNECTION_STRING",
  lambda: "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net"
  % (rs(12, ANL), b64(rbytes(64))))
v("azure_ad_client_secret", "Microsoft Entra ID", "AZURE_CLIENT_SECRET",
  lambda: [("AZURE_TENANT_ID", uuid4()), ("AZURE_CLIENT_ID", uuid4()),
           ("AZURE_CLIENT_SECRET", rs(3, AN) + "8Q~" + rs(34, AN + "~._-"))])
v("azure_devops_pat", "Azure DevOps", "AZURE_DEVOPS_PAT", P("", 52, "abcdefghijklmnopqrstuvwxyz234567"))
v("azure_cosmos_key", "Azure Cosmos DB", "COSMOS_CONNECTION",
  lambda: "AccountEndpoint=https://%s.documents.azure.com:443/;AccountKey=%s;" % (rs(10, ANL), b64(rbytes(64))))
v("azure_service_bus_key", "Azure Service Bus", "SERVICEBUS_CONNECTION",
  lambda: "Endpoint=sb://%s.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%s"
  % (rs(9, ANL), b64(rbytes(32))))
v("azure_openai_key", "Azure OpenAI", "AZURE_OPENAI_API_KEY", lambda: hx(32))
v("azure_function_key_url", "Azure Functions", "AZURE_FUNCTION_URL",
  lambda: "https://%s.azurewebsites.net/api/%s?code=%s==" % (rs(10, ANL), pick(["ingest", "resize", "notify"]),
                                                             rs(54, B64U)))
v("azure_sas_url", "Azure Blob Storage", "AZURE_BLOB_SAS_URL", azure_sas_url)
v("alibaba_access_key", "Alibaba Cloud", "ALIBABA_CLOUD_ACCESS_KEY_SECRET",
  lambda: [("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI" + rs(20, AN)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", rs(30, AN))])
v("tencent_cloud_secret", "Tencent Cloud", "TENCENTCLOUD_SECRET_KEY",
  lambda: [("TENCENTCLOUD_SECRET_ID", "AKID" + rs(32, AN)), ("TENCENTCLOUD_SECRET_KEY", rs(32, AN))])
v("ibm_cloud_api_key", "IBM Cloud", "IBMCLOUD_API_KEY", P("", 44, AN + "-_"))
v("oracle_oci_auth_token", "Oracle Cloud", "OCI_AUTH_TOKEN", P("", 20, AN + "()<>;:.{}[]"))
v("digitalocean_pat", "DigitalOcean", "DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + hx(64))
v("digitalocean_oauth", "DigitalOcean", "DO_OAUTH_TOKEN", lambda: "doo_v1_" + hx(64))
v("digitalocean_refresh", "DigitalOcean", "DO_REFRESH_TOKEN", lambda: "dor_v1_" + hx(64))
v("digitalocean_spaces_key", "DigitalOcean Spaces", "SPACES_SECRET",
  lambda: [("SPACES_KEY", "DO00" + rs(16, ANU)), ("SPACES_SECRET", rs(43, B64C))])
v("linode_token", "Linode", "LINODE_TOKEN", lambda: hx(64))
v("vultr_api_key", "Vultr", "VULTR_API_KEY", P("", 36, ANU))
v("hetzner_token", "Hetzner Cloud", "HCLOUD_TOKEN", P("", 64, AN))
v("scaleway_secret_key", "Scaleway", "SCW_SECRET_KEY",
  lambda: [("SCW_ACCESS_KEY", "SCW" + rs(17, ANU)), ("SCW_SECRET_KEY", uuid4())])
v("ovh_credentials", "OVHcloud", "OVH_APPLICATION_SECRET",
  lambda: [("OVH_APPLICATION_KEY", rs(16, AN)), ("OVH_APPLICATION_SECRET", rs(32, AN)),
           ("OVH_CONSUMER_KEY", rs(32, AN))])
v("cloudflare_api_token", "Cloudflare", "CLOUDFLARE_API_TOKEN", P("", 40, AN + "-_"))
v("cloudflare_global_key", "Cloudflare", "CF_API_KEY",
  lambda: [("CF_API_EMAIL", pick(["ops", "admin", "web"]) + "@" + pick(["acme-corp.io", "lumen.shop"])),
           ("CF_API_KEY", hx(37))])
v("cloudflare_origin_ca_key", "Cloudflare", "CF_ORIGIN_CA_KEY", lambda: "v1.0-" + hx(24) + "-" + hx(146))
v("cloudflare_r2_keys", "Cloudflare R2", "R2_SECRET_ACCESS_KEY",
  lambda: [("R2_ACCESS_KEY_ID", hx(32)), ("R2_SECRET_ACCESS_KEY", hx(64))])
v("cloudflare_tunnel_token", "Cloudflare Tunnel", "TUNNEL_TOKEN",
  lambda: b64(json.dumps({"a": hx(32), "t": uuid4(), "s": b64(rbytes(32))}, separators=(",", ":")).encode()))
v("heroku_api_key", "Heroku", "HEROKU_API_KEY", lambda: "HRKU-AA" + rs(58, AN + "-_"))
v("vercel_token", "Vercel", "VERCEL_TOKEN", P("", 24, AN))
v("netlify_pat", "Netlify", "NETLIFY_AUTH_TOKEN", P("nfp_", 36, AN))
v("flyio_token", "Fly.io", "FLY_API_TOKEN", lambda: "FlyV1 fm2_" + rs(180, B64C))
v("render_api_key", "Render", "RENDER_API_KEY", P("rnd_", 32, AN))
v("railway_token", "Railway", "RAILWAY_TOKEN", uuid4)
v("supabase_service_role", "Supabase", "SUPABASE_SERVICE_ROLE_KEY", supabase_jwt)
v("supabase_pat", "Supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + hx(40))
v("planetscale_password", "PlanetScale", "PLANETSCALE_DB_PASSWORD", P("pscale_pw_", 43, AN + "-_"))
v("planetscale_token", "PlanetScale", "PLANETSCALE_SERVICE_TOKEN", P("pscale_tkn_", 43, AN + "-_"))
v("neon_api_key", "Neon", "NEON_API_KEY", P("napi_", 64, ANL))
v("firebase_fcm_server_key", "Firebase Cloud Messaging", "FCM_SERVER_KEY",
  lambda: "AAAA" + rs(7, AN) + ":APA91b" + rs(134, AN + "-_"))
v("upstash_redis_token", "Upstash", "UPSTASH_REDIS_REST_TOKEN", lambda: "AX" + rs(4, AN) + "AAIjcDE" + rs(60, AN))
v("mongodb_atlas_api_key", "MongoDB Atlas", "MONGODB_ATLAS_PRIVATE_KEY",
  lambda: [("MONGODB_ATLAS_PUBLIC_KEY", rs(8, ANL)), ("MONGODB_ATLAS_PRIVATE_KEY", uuid4())])
v("databricks_token", "Databricks", "DATABRICKS_TOKEN", lambda: "dapi" + hx(32))
v("confluent_cloud_key", "Confluent Cloud", "CONFLUENT_CLOUD_API_SECRET",
  lambda: [("CONFLUENT_CLOUD_API_KEY", rs(16, ANU)), ("CONFLUENT_CLOUD_API_SECRET", rs(64, B64C))])
v("aiven_token", "Aiven", "AIVEN_TOKEN", P("", 372 // 4, B64C))
v("influxdb_token", "InfluxDB", "INFLUX_TOKEN", lambda: rs(86, AN + "-_") + "==")
v("elastic_cloud_api_key", "Elastic Cloud", "ELASTIC_API_KEY",
  lambda: b64(("%s:%s" % (rs(20, AN + "-_"), rs(22, AN + "-_"))).encode()))
v("algolia_admin_key", "Algolia", "ALGOLIA_ADMIN_API_KEY",
  lambda: [("ALGOLIA_APP_ID", rs(10, ANU)), ("ALGOLIA_ADMIN_API_KEY", hx(32))])
v("meilisearch_master_key", "Meilisearch", "MEILI_MASTER_KEY", P("", 43, B64U))
v("typesense_api_key", "Typesense", "TYPESENSE_API_KEY", P("", 32, AN))
v("pinecone_api_key", "Pinecone", "PINECONE_API_KEY", lambda: "pcsk_" + rs(6, AN) + "_" + rs(63, AN))
v("weaviate_api_key", "Weaviate", "WEAVIATE_API_KEY", P("", 40, AN))
v("qdrant_api_key", "Qdrant Cloud", "QDRANT_API_KEY", lambda: rs(30, AN + "-_") + "_" + rs(26, AN))
v("clickhouse_cloud_key", "ClickHouse Cloud", "CLICKHOUSE_KEY_SECRET",
  lambda: [("CLICKHOUSE_KEY_ID", rs(20, AN)), ("CLICKHOUSE_KEY_SECRET", "4b1d" + rs(38, AN))])
v("snowflake_password", "Snowflake", "SNOWFLAKE_PASSWORD",
  lambda: [("SNOWFLAKE_ACCOUNT", rs(7, ANU) + "-" + rs(7, ANU)), ("SNOWFLAKE_USER", "LOADER_SVC"),
           ("SNOWFLAKE_PASSWORD", db_pw())])
# code hosting, ci, registries
v("github_pat_classic", "GitHub", "GITHUB_TOKEN", P("ghp_", 36))
v("github_fine_grained_pat", "GitHub", "GH_PAT", lambda: "github_pat_11" + rs(20, ANU) + "_" + rs(59, AN))
v("github_oauth_token", "GitHub", "GITHUB_OAUTH_TOKEN", P("gho_", 36))
v("github_user_to_server", "GitHub Apps", "GH_USER_TOKEN", P("ghu_", 36))
v("github_server_to_server", "GitHub Apps", "GH_INSTALLATION_TOKEN", P("ghs_", 36))
v("github_refresh_token", "GitHub Apps", "GH_REFRESH_TOKEN", P("ghr_", 76))
v("gitlab_pat", "GitLab", "GITLAB_TOKEN", lambda: "glpat-" + rs(20, AN + "-_"))
v("gitlab_runner_token", "GitLab", "RUNNER_TOKEN", lambda: "glrt-" + rs(20, AN + "-_"))
v("gitlab_trigger_token", "GitLab", "GITLAB_TRIGGER_TOKEN", lambda: "glptt-" + hx(40))
v("gitlab_deploy_token", "GitLab", "GITLAB_DEPLOY_TOKEN", lambda: "gldt-" + rs(20, AN + "-_"))
v("gitlab_feed_token", "GitLab", "GITLAB_FEED_TOKEN", lambda: "glft-" + rs(20, AN + "-_"))
v("gitlab_oauth_secret", "GitLab", "GITLAB_APP_SECRET", lambda: "gloas-" + hx(64))
v("gitlab_incoming_mail_token", "GitLab", "GITLAB_INCOMING_EMAIL_TOKEN", lambda: "glimt-" + rs(25, ANL))
v("gitlab_agent_token", "GitLab", "GITLAB_AGENT_TOKEN", lambda: "glagent-" + rs(50, AN + "-_"))
v("bitbucket_app_password", "Bitbucket", "BITBUCKET_APP_PASSWORD", P("ATBB", 32, AN))
v("atlassian_api_token", "Atlassian", "JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + rs(170, AN + "-_") + "=" + hx(8).upper())
v("jira_dc_pat", "Jira Data Center", "JIRA_PAT", lambda: "N" + rs(43, B64C))
v("circleci_pat", "CircleCI", "CIRCLECI_TOKEN", lambda: "CCIPAT_" + rs(22, AN) + "_" + hx(40))
v("travis_token", "Travis CI", "TRAVIS_TOKEN", P("", 22, AN))
v("buildkite_token", "Buildkite", "BUILDKITE_API_TOKEN", lambda: "bkua_" + hx(40))
v("jenkins_api_token", "Jenkins", "JENKINS_API_TOKEN", lambda: "11" + hx(32))
v("drone_token", "Drone CI", "DRONE_TOKEN", P("", 32, AN))
v("teamcity_token", "TeamCity", "TEAMCITY_TOKEN", lambda: "eyJ0eXAiOiAiVENWMiJ9." + rs(36, B64U) + "." + rs(48, B64U))
v("terraform_cloud_token", "Terraform Cloud", "TFE_TOKEN", lambda: rs(14, AN) + ".atlasv1." + rs(67, AN))
v("vault_service_token", "HashiCorp Vault", "VAULT_TOKEN", lambda: "hvs." + rs(90, AN + "-_"))
v("vault_batch_token", "HashiCorp Vault", "VAULT_BATCH_TOKEN", lambda: "hvb." + rs(138, AN + "-_"))
v("doppler_service_token", "Doppler", "DOPPLER_TOKEN", lambda: "dp.st." + pick(["prd", "dev", "stg"]) + "." + rs(40, AN))
v("infisical_token", "Infisical", "INFISICAL_TOKEN", lambda: "st." + uuid4() + "." + hx(32) + "." + hx(32))
v("pulumi_token", "Pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + hx(40))
v("onepassword_service_account", "1Password", "OP_SERVICE_ACCOUNT_TOKEN",
  lambda: "ops_" + b64u(json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096",
                                                                                        "alg": "PBES2g-HS256", "iterations": 650000, "salt": b64u(rbytes(16))},
                                    "email": rs(12, ANL) + "@1passwordserviceaccounts.com",
                                    "srpX": hx(64), "muk": {"alg": "A256GCM", "k": b64u(rbytes(32)), "kty": "oct"},
                                    "secretKey": "A3-" + rs(6, ANU) + "-" + rs(11, ANU)}).encode()))
v("npm_token", "npm", "NPM_TOKEN", P("npm_", 36))
v("pypi_token", "PyPI", "PYPI_API_TOKEN", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(160, AN + "-_"))
v("rubygems_key", "RubyGems", "GEM_HOST_API_KEY", lambda: "rubygems_" + hx(48))
v("nuget_api_key", "NuGet", "NUGET_API_KEY", P("oy2", 43, ANL))
v("dockerhub_pat", "Docker Hub", "DOCKERHUB_TOKEN", P("dckr_pat_", 27, AN + "-_"))
v("crates_io_token", "crates.io", "CARGO_REGISTRY_TOKEN", P("cio", 32, AN))
v("jfrog_api_key", "JFrog Artifactory", "ARTIFACTORY_API_KEY", P("AKCp8", 68, AN))
v("jfrog_identity_token", "JFrog Platform", "JFROG_ACCESS_TOKEN", lambda: "cmVmdGtuOjAxOjE3" + rs(48, AN))
v("sonarcloud_token", "SonarCloud", "SONAR_TOKEN", lambda: "squ_" + hx(40))
v("sonarqube_project_token", "SonarQube", "SONARQUBE_PROJECT_TOKEN", lambda: "sqp_" + hx(40))
v("snyk_token", "Snyk", "SNYK_TOKEN", uuid4)
v("codecov_token", "Codecov", "CODECOV_TOKEN", uuid4)
v("sentry_user_token", "Sentry", "SENTRY_AUTH_TOKEN", lambda: "sntryu_" + hx(64))
v("sentry_org_token", "Sentry", "SENTRY_ORG_TOKEN",
  lambda: "sntrys_" + b64u(json.dumps({"iat": epoch(), "url": "https://sentry.io", "region_url": "https://de.sentry.io",
                                       "org": pick(["acme", "lumen", "tinyshop"])}).encode()) + "_" + rs(43, B64U))
v("sentry_legacy_dsn", "Sentry (legacy DSN with secret)", "SENTRY_DSN",
  lambda: "https://%s:%s@o%s.ingest.sentry.io/%s" % (hx(32), hx(32), digits(6, True), digits(7, True)))
v("postman_api_key", "Postman", "POSTMAN_API_KEY", lambda: "PMAK-" + hx(24) + "-" + hx(34))
v("ngrok_authtoken", "ngrok", "NGROK_AUTHTOKEN", lambda: "2" + rs(26, AN) + "_" + rs(21, AN))
v("ngrok_api_key", "ngrok", "NGROK_API_KEY", lambda: "2" + rs(26, AN) + "_" + rs(33, AN))
v("tailscale_auth_key", "Tailscale", "TS_AUTHKEY", lambda: "tskey-auth-k" + rs(16, AN) + "CNTRL-" + rs(33, AN))
v("tailscale_api_key", "Tailscale", "TAILSCALE_API_KEY", lambda: "tskey-api-k" + rs(16, AN) + "CNTRL-" + rs(33, AN))
v("hcp_client_secret", "HashiCorp Cloud Platform", "HCP_CLIENT_SECRET",
  lambda: [("HCP_CLIENT_ID", rs(32, AN)), ("HCP_CLIENT_SECRET", rs(64, AN + "-_"))])
v("sourcegraph_token", "Sourcegraph", "SRC_ACCESS_TOKEN", lambda: "sgp_" + hx(16) + "_" + hx(40))
v("browserstack_key", "BrowserStack", "BROWSERSTACK_ACCESS_KEY",
  lambda: [("BROWSERSTACK_USERNAME", rs(8, ANL) + "_" + rs(6, AN)), ("BROWSERSTACK_ACCESS_KEY", rs(20, AN))])
v("saucelabs_key", "Sauce Labs", "SAUCE_ACCESS_KEY", lambda: [("SAUCE_USERNAME", "oauth-" + rs(8, ANL) + "-" + hx(5)),
                                                               ("SAUCE_ACCESS_KEY", uuid4())])
v("expo_token", "Expo", "EXPO_TOKEN", P("", 40, AN + "_"))
v("readme_api_key", "ReadMe", "README_API_KEY", P("rdme_", 70, ANL))
v("cypress_record_key", "Cypress Cloud", "CYPRESS_RECORD_KEY", uuid4)
v("percy_token", "Percy", "PERCY_TOKEN", lambda: "web_" + hx(64))
v("lokalise_token", "Lokalise", "LOKALISE_API_TOKEN", lambda: hx(40))
v("crowdin_token", "Crowdin", "CROWDIN_PERSONAL_TOKEN", lambda: hx(80))
# productivity / saas
v("linear_api_key", "Linear", "LINEAR_API_KEY", P("lin_api_", 40))
v("figma_pat", "Figma", "FIGMA_TOKEN", lambda: "figd_" + rs(40, AN + "-_"))
v("notion_integration_secret", "Notion", "NOTION_TOKEN", P("secret_", 43))
v("notion_ntn_token", "Notion", "NOTION_API_KEY", lambda: "ntn_" + digits(11) + rs(35, AN))
v("airtable_pat", "Airtable", "AIRTABLE_TOKEN", lambda: "pat" + rs(14, AN) + "." + hx(64))
v("asana_pat", "Asana", "ASANA_PAT", lambda: "2/%s/%s:%s" % (digits(16, True), digits(16, True), hx(32)))
v("clickup_token", "ClickUp", "CLICKUP_API_TOKEN", lambda: "pk_%s_%s" % (digits(8, True), rs(32, ANU)))
v("monday_token", "monday.com", "MONDAY_API_TOKEN",
  lambda: jwt({"tid": R.randint(10 ** 8, 10 ** 9), "aai": R.randint(10, 99), "uid": R.randint(10 ** 7, 10 ** 8),
               "iad": date_iso() + "T10:00:00.000Z", "per": "me:write", "actid": R.randint(10 ** 6, 10 ** 7),
               "rgn": "euc1"}))
v("trello_credentials", "Trello", "TRELLO_TOKEN",
  lambda: [("TRELLO_KEY", hx(32)), ("TRELLO_TOKEN", "ATTA" + hx(64) + hx(8).upper())])
v("todoist_token", "Todoist", "TODOIST_API_TOKEN", lambda: hx(40))
v("hubspot_private_app", "HubSpot", "HUBSPOT_ACCESS_TOKEN", lambda: "pat-" + pick(["na1", "eu1"]) + "-" + uuid4())
v("salesforce_session", "Salesforce", "SF_ACCESS_TOKEN",
  lambda: "00D" + rs(12, AN) + "!AQ" + rs(1, AN) + "AQ" + rs(94, AN + "._"))
v("salesforce_refresh_token", "Salesforce", "SF_REFRESH_TOKEN", lambda: "5Aep861" + rs(80, AN + "._"))
v("zendesk_token", "Zendesk", "ZENDESK_API_TOKEN", P("", 40, AN))
v("intercom_token", "Intercom", "INTERCOM_ACCESS_TOKEN",
  lambda: "dG9rOj" + b64((uuid4() + ":" + uuid4()).encode())[6:].rstrip("=") + "=")
v("freshdesk_key", "Freshdesk", "FRESHDESK_API_KEY", P("", 20, AN))
v("typeform_token", "Typeform", "TYPEFORM_TOKEN", lambda: "tfp_" + rs(44, AN) + "_" + rs(14, AN))
v("calendly_pat", "Calendly", "CALENDLY_TOKEN",
  lambda: jwt({"iss": "https://auth.calendly.com", "iat": epoch(), "jti": uuid4(), "user_uuid": uuid4()}, alg="HS256"))
v("zoom_client_secret", "Zoom", "ZOOM_CLIENT_SECRET",
  lambda: [("ZOOM_ACCOUNT_ID", rs(22, AN)), ("ZOOM_CLIENT_ID", rs(22, AN)), ("ZOOM_CLIENT_SECRET", rs(32, AN))])
v("docusign_secret", "DocuSign", "DOCUSIGN_SECRET_KEY",
  lambda: [("DOCUSIGN_INTEGRATION_KEY", uuid4()), ("DOCUSIGN_SECRET_KEY", uuid4())])
v("box_developer_token", "Box", "BOX_DEVELOPER_TOKEN", P("", 32, AN))
v("dropbox_short_lived", "Dropbox", "DROPBOX_ACCESS_TOKEN", lambda: "sl.B" + rs(140, AN + "-_"))
v("dropbox_app_secret", "Dropbox", "DROPBOX_APP_SECRET",
  lambda: [("DROPBOX_APP_KEY", rs(15, ANL)), ("DROPBOX_APP_SECRET", rs(15, ANL))])
v("contentful_pat", "Contentful", "CONTENTFUL_MANAGEMENT_TOKEN", P("CFPAT-", 43, AN + "-_"))
v("sanity_token", "Sanity", "SANITY_API_TOKEN", P("sk", 80, AN))
v("storyblok_token", "Storyblok", "STORYBLOK_OAUTH_TOKEN", lambda: rs(22, AN) + "tt-" + digits(6) + "-" + rs(20, AN))
v("frameio_token", "Frame.io", "FRAMEIO_TOKEN", lambda: "fio-u-" + rs(64, AN + "-_"))
v("retool_token", "Retool", "RETOOL_API_TOKEN", P("retool_", 30, AN))
v("prefect_api_key", "Prefect Cloud", "PREFECT_API_KEY", P("pnu_", 36, AN))
v("dbt_cloud_token", "dbt Cloud", "DBT_CLOUD_API_TOKEN", P("dbtc_", 56, AN + "-_"))
v("fivetran_secret", "Fivetran", "FIVETRAN_API_SECRET",
  lambda: [("FIVETRAN_API_KEY", rs(16, AN)), ("FIVETRAN_API_SECRET", rs(32, AN))])
v("deepl_key", "DeepL", "DEEPL_AUTH_KEY", lambda: uuid4() + ":fx")
v("recaptcha_secret", "Google reCAPTCHA", "RECAPTCHA_SECRET_KEY", lambda: "6L" + rs(38, AN + "-_"))
v("hcaptcha_secret", "hCaptcha", "HCAPTCHA_SECRET", lambda: "0x" + hx(40))
v("turnstile_secret", "Cloudflare Turnstile", "TURNSTILE_SECRET_KEY", lambda: "0x4AAAAAAA" + rs(22, AN + "-_"))
v("auth0_client_secret", "Auth0", "AUTH0_CLIENT_SECRET",
  lambda: [("AUTH0_DOMAIN", rs(8, ANL) + ".eu.auth0.com"), ("AUTH0_CLIENT_ID", rs(32, AN)),
           ("AUTH0_CLIENT_SECRET", rs(64, AN + "-_"))])
v("okta_api_token", "Okta", "OKTA_API_TOKEN", lambda: "00" + rs(40, AN + "-_"))
v("clerk_secret_key", "Clerk", "CLERK_SECRET_KEY", lambda: "sk_live_" + rs(40, AN))
v("mapbox_secret_token", "Mapbox", "MAPBOX_SECRET_TOKEN",
  lambda: "sk.eyJ1Ijoi" + b64u(json.dumps({"a": rs(25, ANL)}).encode()) + "." + rs(22, AN + "-_"))
v("cloudinary_url", "Cloudinary", "CLOUDINARY_URL",
  lambda: "cloudinary://%s:%s@%s" % (digits(15, True), rs(27, AN + "-_"), rs(9, ANL)))
v("mux_token", "Mux", "MUX_TOKEN_SECRET", lambda: [("MUX_TOKEN_ID", uuid4()), ("MUX_TOKEN_SECRET", rs(75, B64C))])
v("openweather_key", "OpenWeather", "OPENWEATHER_API_KEY", lambda: hx(32))
v("here_api_key", "HERE", "HERE_API_KEY", P("", 43, AN + "-_"))
v("yelp_api_key", "Yelp Fusion", "YELP_API_KEY", P("", 128, AN + "-_"))
v("shippo_token", "Shippo", "SHIPPO_API_TOKEN", lambda: "shippo_live_" + hx(40))
v("easypost_key", "EasyPost", "EASYPOST_API_KEY", P("EZAK", 54, AN))
v("lob_key", "Lob", "LOB_API_KEY", lambda: "live_" + hx(35))
# messaging / email / comms
v("slack_bot_token", "Slack", "SLACK_BOT_TOKEN",
  lambda: "xoxb-%s-%s-%s" % (digits(11, True), digits(13, True), rs(24, AN)))
v("slack_user_token", "Slack", "SLACK_USER_TOKEN",
  lambda: "xoxp-%s-%s-%s-%s" % (digits(11, True), digits(11, True), digits(13, True), hx(32)))
v("slack_app_token", "Slack", "SLACK_APP_TOKEN",
  lambda: "xapp-1-A0%s-%s-%s" % (rs(9, ANU), digits(13, True), hx(64)))
v("slack_config_token", "Slack", "SLACK_CONFIG_TOKEN", lambda: "xoxe.xoxp-1-" + rs(150, AN))
v("slack_webhook", "Slack", "SLACK_WEBHOOK_URL",
  lambda: "https://hooks.slack.com/services/T0%s/B0%s/%s" % (rs(8, ANU), rs(8, ANU), rs(24, AN)))
v("discord_bot_token", "Discord", "DISCORD_TOKEN",
  lambda: b64(digits(18, True).encode()).rstrip("=") + "." + rs(6, AN + "-_") + "." + rs(38, AN + "-_"))
v("discord_webhook", "Discord", "DISCORD_WEBHOOK_URL",
  lambda: "https://discord.com/api/webhooks/%s/%s" % (digits(19, True), rs(68, AN + "-_")))
v("telegram_bot_token", "Telegram", "TELEGRAM_BOT_TOKEN", lambda: digits(10, True) + ":AA" + rs(33, AN + "-_"))
v("teams_webhook", "Microsoft Teams", "TEAMS_WEBHOOK_URL",
  lambda: "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s"
  % (pick(["contoso", "acmecorp", "lumenhq"]), uuid4(), uuid4(), hx(32), uuid4()))
v("google_chat_webhook", "Google Chat", "GCHAT_WEBHOOK",
  lambda: "https://chat.googleapis.com/v1/spaces/AAAA%s/messages?key=AIzaSy%s&token=%s%%3D"
  % (rs(7, AN), rs(33, AN + "-_"), rs(43, AN + "-_")))
v("mattermost_webhook", "Mattermost", "MATTERMOST_HOOK",
  lambda: "https://chat.%s/hooks/%s" % (pick(["acme-corp.io", "tinyshop.app"]), rs(26, ANL)))
v("zapier_webhook", "Zapier", "ZAPIER_HOOK_URL",
  lambda: "https://hooks.zapier.com/hooks/catch/%s/%s/" % (digits(7, True), rs(7, ANL)))
v("ifttt_webhook_key", "IFTTT", "IFTTT_KEY",
  lambda: "https://maker.ifttt.com/trigger/%s/with/key/%s" % (pick(["door_open", "leak_alert"]), rs(22, AN + "-_")))
v("make_webhook", "Make", "MAKE_WEBHOOK", lambda: "https://hook.eu1.make.com/" + rs(32, ANL))
v("github_webhook_secret", "GitHub Webhooks", "GITHUB_WEBHOOK_SECRET", lambda: hx(40))
v("stripe_webhook_secret", "Stripe", "STRIPE_WEBHOOK_SECRET", P("whsec_", 32))
v("pusher_secret", "Pusher", "PUSHER_APP_SECRET",
  lambda: [("PUSHER_APP_ID", digits(7, True)), ("PUSHER_APP_KEY", hx(20)), ("PUSHER_APP_SECRET", hx(20))])
v("ably_key", "Ably", "ABLY_API_KEY", lambda: "%s.%s:%s" % (rs(6, AN), rs(6, AN), rs(43, AN + "-_")))
v("stream_secret", "Stream", "STREAM_API_SECRET",
  lambda: [("STREAM_API_KEY", rs(12, ANL)), ("STREAM_API_SECRET", rs(64, ANL))])
v("onesignal_key", "OneSignal", "ONESIGNAL_REST_API_KEY", lambda: "os_v2_app_" + rs(100, "abcdefghijklmnopqrstuvwxyz234567"))
v("line_channel_token", "LINE Messaging", "LINE_CHANNEL_ACCESS_TOKEN", lambda: rs(171, B64C) + "=")
v("whatsapp_cloud_token", "WhatsApp Cloud API", "WHATSAPP_TOKEN", P("EAAG", 190, AN))
v("facebook_access_token", "Meta Graph API", "FB_ACCESS_TOKEN", P("EAAB", 180, AN))
v("instagram_token", "Instagram Graph", "IG_ACCESS_TOKEN", P("IGQV", 180, AN + "-_"))
v("twitter_bearer", "X / Twitter API", "TWITTER_BEARER_TOKEN", lambda: "AAAAAAAAAAAAAAAAAAAAA" + rs(91, AN + "%"))
v("twitter_api_secret", "X / Twitter API", "TWITTER_API_SECRET",
  lambda: [("TWITTER_API_KEY", rs(25, AN)), ("TWITTER_API_SECRET", rs(50, AN))])
v("linkedin_client_secret", "LinkedIn", "LINKEDIN_CLIENT_SECRET",
  lambda: [("LINKEDIN_CLIENT_ID", rs(14, ANL)), ("LINKEDIN_CLIENT_SECRET", "WPL_AP1." + rs(16, AN) + "." + rs(8, AN) + "==")])
v("spotify_client_secret", "Spotify", "SPOTIFY_CLIENT_SECRET",
  lambda: [("SPOTIFY_CLIENT_ID", hx(32)), ("SPOTIFY_CLIENT_SECRET", hx(32))])
v("twitch_client_secret", "Twitch", "TWITCH_CLIENT_SECRET",
  lambda: [("TWITCH_CLIENT_ID", rs(30, ANL)), ("TWITCH_CLIENT_SECRET", rs(30, ANL))])
v("twitch_oauth", "Twitch", "TWITCH_OAUTH", lambda: "oauth:" + rs(30, ANL))
v("reddit_client_secret", "Reddit", "REDDIT_CLIENT_SECRET",
  lambda: [("REDDIT_CLIENT_ID", rs(22, AN + "-_")), ("REDDIT_CLIENT_SECRET", rs(30, AN + "-_"))])
v("pinterest_token", "Pinterest", "PINTEREST_ACCESS_TOKEN", lambda: "pina_" + rs(88, ANU))
v("mailchimp_key", "Mailchimp", "MAILCHIMP_API_KEY", lambda: hx(32) + "-us" + str(R.randint(1, 21)))
v("mandrill_key", "Mailchimp Transactional", "MANDRILL_API_KEY", P("md-", 22, AN + "-_"))
v("sendgrid_key", "SendGrid", "SENDGRID_API_KEY", lambda: "SG." + rs(22, AN + "-_") + "." + rs(43, AN + "-_"))
v("mailgun_key", "Mailgun", "MAILGUN_API_KEY", lambda: hx(32) + "-" + hx(8) + "-" + hx(8))
v("mailgun_signing_key", "Mailgun", "MAILGUN_WEBHOOK_SIGNING_KEY", lambda: "key-" + hx(32))
v("postmark_token", "Postmark", "POSTMARK_SERVER_TOKEN", uuid4)
v("sparkpost_key", "SparkPost", "SPARKPOST_API_KEY", lambda: hx(40))
v("brevo_key", "Brevo", "BREVO_API_KEY", lambda: "xkeysib-" + hx(64) + "-" + rs(16, AN))
v("resend_key", "Resend", "RESEND_API_KEY", lambda: "re_" + rs(8, AN) + "_" + rs(24, AN))
v("mailersend_token", "MailerSend", "MAILERSEND_API_TOKEN", lambda: "mlsn." + hx(64))
v("mailjet_keys", "Mailjet", "MJ_APIKEY_PRIVATE", lambda: [("MJ_APIKEY_PUBLIC", hx(32)), ("MJ_APIKEY_PRIVATE", hx(32))])
v("twilio_auth_token", "Twilio", "TWILIO_AUTH_TOKEN",
  lambda: [("TWILIO_ACCOUNT_SID", "AC" + hx(32)), ("TWILIO_AUTH_TOKEN", hx(32))])
v("twilio_api_key", "Twilio", "TWILIO_API_SECRET",
  lambda: [("TWILIO_API_KEY", "SK" + hx(32)), ("TWILIO_API_SECRET", rs(32, AN))])
v("vonage_secret", "Vonage", "VONAGE_API_SECRET", lambda: [("VONAGE_API_KEY", hx(8)), ("VONAGE_API_SECRET", rs(16, AN))])
v("plivo_token", "Plivo", "PLIVO_AUTH_TOKEN", lambda: [("PLIVO_AUTH_ID", "MA" + rs(18, ANU)), ("PLIVO_AUTH_TOKEN", rs(40, AN))])
v("messagebird_key", "MessageBird", "MESSAGEBIRD_ACCESS_KEY", P("", 25, AN))
v("sinch_secret", "Sinch", "SINCH_KEY_SECRET", lambda: [("SINCH_KEY_ID", uuid4()), ("SINCH_KEY_SECRET", rs(26, AN + "~."))])
v("telnyx_key", "Telnyx", "TELNYX_API_KEY", lambda: "KEY" + rs(32, HEXU) + "_" + rs(22, AN))
# payments / commerce / crypto exchanges
v("stripe_secret_key", "Stripe", "STRIPE_SECRET_KEY", lambda: "sk_live_51" + rs(97, AN))
v("stripe_restricted_key", "Stripe", "STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + rs(97, AN))
v("stripe_test_secret_key", "Stripe (test mode)", "STRIPE_TEST_SECRET_KEY", lambda: "sk_test_51" + rs(97, AN))
v("paypal_client_secret", "PayPal", "PAYPAL_CLIENT_SECRET",
  lambda: [("PAYPAL_CLIENT_ID", "A" + rs(79, AN + "-_")), ("PAYPAL_CLIENT_SECRET", "E" + rs(79, AN + "-_"))])
v("braintree_access_token", "Braintree", "BRAINTREE_ACCESS_TOKEN",
  lambda: "access_token$production$%s$%s" % (rs(16, ANL), hx(32)))
v("braintree_private_key", "Braintree", "BRAINTREE_PRIVATE_KEY",
  lambda: [("BRAINTREE_MERCHANT_ID", rs(16, ANL)), ("BRAINTREE_PUBLIC_KEY", rs(16, ANL)), ("BRAINTREE_PRIVATE_KEY", hx(32))])
v("square_access_token", "Square", "SQUARE_ACCESS_TOKEN", P("EAAA", 60, AN + "-_"))
v("square_oauth_secret", "Square", "SQUARE_APP_SECRET", P("sq0csp-", 43, AN + "-_"))
v("adyen_api_key", "Adyen", "ADYEN_API_KEY", lambda: "AQE" + rs(5, AN) + "=-" + rs(60, B64C) + "=-" + rs(40, AN))
v("checkout_secret_key", "Checkout.com", "CKO_SECRET_KEY", lambda: "sk_" + rs(26, ANL))
v("mollie_key", "Mollie", "MOLLIE_API_KEY", P("live_", 30, AN))
v("paystack_key", "Paystack", "PAYSTACK_SECRET_KEY", lambda: "sk_live_" + hx(40))
v("flutterwave_key", "Flutterwave", "FLW_SECRET_KEY", lambda: "FLWSECK-" + hx(32) + "-X")
v("razorpay_secret", "Razorpay", "RAZORPAY_KEY_SECRET",
  lambda: [("RAZORPAY_KEY_ID", "rzp_live_" + rs(14, AN)), ("RAZORPAY_KEY_SECRET", rs(24, AN))])
v("gocardless_token", "GoCardless", "GOCARDLESS_ACCESS_TOKEN", P("live_", 40, AN + "-_"))
v("plaid_secret", "Plaid", "PLAID_SECRET", lambda: [("PLAID_CLIENT_ID", hx(24)), ("PLAID_SECRET", hx(30))])
v("wise_token", "Wise", "WISE_API_TOKEN", uuid4)
v("coinbase_api_secret", "Coinbase", "COINBASE_API_SECRET",
  lambda: [("COINBASE_API_KEY", rs(16, AN)), ("COINBASE_API_SECRET", rs(32, AN))])
v("coinbase_commerce_key", "Coinbase Commerce", "COINBASE_COMMERCE_API_KEY", uuid4)
v("binance_secret", "Binance", "BINANCE_API_SECRET",
  lambda: [("BINANCE_API_KEY", rs(64, AN)), ("BINANCE_API_SECRET", rs(64, AN))])
v("kraken_private_key", "Kraken", "KRAKEN_PRIVATE_KEY",
  lambda: [("KRAKEN_API_KEY", rs(56, B64C)), ("KRAKEN_PRIVATE_KEY", b64(rbytes(64)))])
v("bitfinex_secret", "Bitfinex", "BFX_API_SECRET", lambda: [("BFX_API_KEY", rs(43, AN)), ("BFX_API_SECRET", rs(43, AN))])
v("lemonsqueezy_key", "Lemon Squeezy", "LEMONSQUEEZY_API_KEY",
  lambda: jwt({"aud": "1", "jti": hx(64), "iat": epoch(), "sub": digits(6), "scopes": []}, alg="RS256", sig_bytes=96))
v("paddle_key", "Paddle", "PADDLE_API_KEY",
  lambda: "pdl_live_apikey_%s_%s_%s" % (rs(26, ANL), rs(22, AN), rs(3, AN)))
v("chargebee_key", "Chargebee", "CHARGEBEE_API_KEY", P("live_", 34, AN))
v("recurly_key", "Recurly", "RECURLY_API_KEY", lambda: hx(32))
v("authorizenet_key", "Authorize.net", "AUTHNET_TRANSACTION_KEY",
  lambda: [("AUTHNET_API_LOGIN_ID", rs(10, AN)), ("AUTHNET_TRANSACTION_KEY", rs(16, AN))])
v("shopify_admin_token", "Shopify", "SHOPIFY_ADMIN_TOKEN", lambda: "shpat_" + hx(32))
v("shopify_custom_app_token", "Shopify", "SHOPIFY_CUSTOM_APP_TOKEN", lambda: "shpca_" + hx(32))
v("shopify_private_app_password", "Shopify", "SHOPIFY_PASSWORD", lambda: "shppa_" + hx(32))
v("shopify_shared_secret", "Shopify", "SHOPIFY_API_SECRET", lambda: "shpss_" + hx(32))
v("etherscan_key", "Etherscan", "ETHERSCAN_API_KEY", P("", 34, ANU))
v("infura_secret", "Infura", "INFURA_API_KEY_SECRET", lambda: [("INFURA_API_KEY", hx(32)), ("INFURA_API_KEY_SECRET", hx(32))])
v("alchemy_key", "Alchemy", "ALCHEMY_API_KEY", P("", 32, AN + "-_"))
v("moralis_key", "Moralis", "MORALIS_API_KEY",
  lambda: jwt({"nonce": uuid4(), "orgId": digits(6), "userId": digits(6), "typeId": uuid4(), "type": "PROJECT",
               "iat": epoch()}))
# ai / ml
v("openai_legacy_key", "OpenAI", "OPENAI_API_KEY", lambda: "sk-" + rs(20, AN) + "T3BlbkFJ" + rs(20, AN))
v("openai_project_key", "OpenAI", "OPENAI_API_KEY", lambda: "sk-proj-" + rs(74, AN + "-_") + "T3BlbkFJ" + rs(74, AN + "-_"))
v("openai_admin_key", "OpenAI", "OPENAI_ADMIN_KEY", lambda: "sk-admin-" + rs(74, AN + "-_") + "T3BlbkFJ" + rs(74, AN + "-_"))
v("openai_service_account_key", "OpenAI", "OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(74, AN + "-_") + "T3BlbkFJ" + rs(74, AN + "-_"))
v("anthropic_api_key", "Anthropic", "ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(93, AN + "-_") + "AA")
v("anthropic_admin_key", "Anthropic", "ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(93, AN + "-_") + "AA")
v("huggingface_token", "Hugging Face", "HF_TOKEN", P("hf_", 34, AN))
v("huggingface_org_token", "Hugging Face", "HF_ORG_TOKEN", P("api_org_", 34, AN))
v("cohere_key", "Cohere", "COHERE_API_KEY", P("", 40, AN))
v("replicate_token", "Replicate", "REPLICATE_API_TOKEN", P("r8_", 37, AN))
v("groq_key", "Groq", "GROQ_API_KEY", P("gsk_", 52, AN))
v("mistral_key", "Mistral AI", "MISTRAL_API_KEY", P("", 32, AN))
v("perplexity_key", "Perplexity", "PERPLEXITY_API_KEY", P("pplx-", 48, AN))
v("deepseek_key", "DeepSeek", "DEEPSEEK_API_KEY", lambda: "sk-" + hx(32))
v("xai_key", "xAI", "XAI_API_KEY", P("xai-", 80, AN))
v("openrouter_key", "OpenRouter", "OPENROUTER_API_KEY", lambda: "sk-or-v1-" + hx(64))
v("together_key", "Together AI", "TOGETHER_API_KEY", lambda: "tgp_v1_" + rs(43, AN + "-_"))
v("fireworks_key", "Fireworks AI", "FIREWORKS_API_KEY", P("fw_", 24, AN))
v("langsmith_key", "LangSmith", "LANGSMITH_API_KEY", lambda: "lsv2_pt_" + hx(32) + "_" + hx(10))
v("langfuse_secret", "Langfuse", "LANGFUSE_SECRET_KEY",
  lambda: [("LANGFUSE_PUBLIC_KEY", "pk-lf-" + uuid4()), ("LANGFUSE_SECRET_KEY", "sk-lf-" + uuid4())])
v("wandb_key", "Weights & Biases", "WANDB_API_KEY", lambda: hx(40))
v("elevenlabs_key", "ElevenLabs", "ELEVENLABS_API_KEY", lambda: "sk_" + hx(48))
v("assemblyai_key", "AssemblyAI", "ASSEMBLYAI_API_KEY", lambda: hx(32))
v("deepgram_key", "Deepgram", "DEEPGRAM_API_KEY", lambda: hx(40))
v("stability_key", "Stability AI", "STABILITY_API_KEY", P("sk-", 48, AN))
v("voyage_key", "Voyage AI", "VOYAGE_API_KEY", P("pa-", 43, AN + "-_"))
v("runpod_key", "RunPod", "RUNPOD_API_KEY", P("rpa_", 40, ANU))
v("modal_token", "Modal", "MODAL_TOKEN_SECRET",
  lambda: [("MODAL_TOKEN_ID", "ak-" + rs(22, AN)), ("MODAL_TOKEN_SECRET", "as-" + rs(22, AN))])
v("comet_key", "Comet ML", "COMET_API_KEY", P("", 25, AN))
v("gemini_key", "Google AI Studio (Gemini)", "GEMINI_API_KEY", P("AIzaSy", 33, AN + "-_"))
# observability / analytics / feature flags
v("datadog_keys", "Datadog", "DD_APP_KEY", lambda: [("DD_API_KEY", hx(32)), ("DD_APP_KEY", hx(40))])
v("newrelic_user_key", "New Relic", "NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(27, ANU))
v("newrelic_license_key", "New Relic", "NEW_RELIC_LICENSE_KEY", lambda: hx(36) + "NRAL")
v("newrelic_insights_key", "New Relic", "NEW_RELIC_INSIGHTS_INSERT_KEY", lambda: "NRII-" + rs(32, AN + "-_"))
v("honeycomb_key", "Honeycomb", "HONEYCOMB_API_KEY", lambda: "hcaik_01" + rs(56, ANL))
v("grafana_cloud_token", "Grafana Cloud", "GRAFANA_CLOUD_TOKEN",
  lambda: "glc_" + b64(json.dumps({"o": digits(6), "n": "stack-" + digits(6) + "-hm-write", "k": rs(24, AN),
                                   "m": {"r": "prod-eu-west-2"}}, separators=(",", ":")).encode()).rstrip("="))
v("grafana_service_account", "Grafana", "GRAFANA_SA_TOKEN", lambda: "glsa_" + rs(32, AN) + "_" + hx(8))
v("splunk_hec_token", "Splunk HEC", "SPLUNK_HEC_TOKEN", lambda: uuid4().upper())
v("pagerduty_api_token", "PagerDuty", "PAGERDUTY_TOKEN", lambda: "u+" + rs(18, AN + "-_"))
v("pagerduty_routing_key", "PagerDuty", "PAGERDUTY_ROUTING_KEY", lambda: "R0" + rs(30, ANU))
v("opsgenie_key", "Opsgenie", "OPSGENIE_API_KEY", uuid4)
v("dynatrace_token", "Dynatrace", "DT_API_TOKEN", lambda: "dt0c01." + rs(24, ANU) + "." + rs(64, ANU))
v("logzio_token", "Logz.io", "LOGZIO_TOKEN", P("", 32, UP + LO))
v("sumologic_key", "Sumo Logic", "SUMO_ACCESS_KEY", lambda: [("SUMO_ACCESS_ID", "su" + rs(12, AN)), ("SUMO_ACCESS_KEY", rs(64, AN))])
v("rollbar_token", "Rollbar", "ROLLBAR_ACCESS_TOKEN", lambda: hx(32))
v("bugsnag_key", "Bugsnag", "BUGSNAG_AUTH_TOKEN", lambda: uuid4())
v("axiom_token", "Axiom", "AXIOM_TOKEN", lambda: "xaat-" + uuid4())
v("betterstack_token", "Better Stack", "BETTERSTACK_SOURCE_TOKEN", P("", 24, AN))
v("launchdarkly_sdk_key", "LaunchDarkly", "LD_SDK_KEY", lambda: "sdk-" + uuid4())
v("launchdarkly_api_key", "LaunchDarkly", "LD_API_KEY", lambda: "api-" + uuid4())
v("posthog_personal_key", "PostHog", "POSTHOG_PERSONAL_API_KEY", P("phx_", 43, AN))
v("mixpanel_secret", "Mixpanel", "MIXPANEL_API_SECRET", lambda: hx(32))
v("amplitude_secret", "Amplitude", "AMPLITUDE_SECRET_KEY", lambda: [("AMPLITUDE_API_KEY", hx(32)), ("AMPLITUDE_SECRET_KEY", hx(32))])
v("statsig_secret", "Statsig", "STATSIG_SERVER_SECRET", P("secret-", 43, AN))
# databases & connection strings
v("postgres_url", "PostgreSQL", "DATABASE_URL",
  lambda: "postgresql://%s:%s@%s:5432/%s" % (dbuser(), db_pw(), netloc_host("pg"), pick(["app", "billing", "crm"])))
v("mysql_url", "MySQL", "MYSQL_URL",
  lambda: "mysql://%s:%s@%s:3306/%s" % (dbuser(), db_pw(), netloc_host("my"), pick(["shop", "wordpress", "erp"])))
v("mongodb_srv_url", "MongoDB", "MONGODB_URI",
  lambda: "mongodb+srv://%s:%s@cluster0.%s.mongodb.net/%s?retryWrites=true&w=majority"
  % (dbuser(), db_pw(), rs(5, ANL), pick(["prod", "events"])))
v("redis_url", "Redis", "REDIS_URL",
  lambda: "redis://default:%s@%s:6379/0" % (db_pw(), pick(["redis.internal", "cache-01.lan", "10.0.3.7"])))
v("rediss_url", "Redis (TLS)", "REDIS_TLS_URL",
  lambda: "rediss://default:%s@%s.upstash.io:6379" % (rs(32, AN), pick(["eu1-brave-owl", "us1-calm-fox"]) + "-" + digits(5)))
v("amqp_url", "RabbitMQ", "AMQP_URL",
  lambda: "amqps://%s:%s@%s.rmq.cloudamqp.com/%s" % (rs(8, ANL), rs(32, AN + "-_"), pick(["rattlesnake", "goose"]), rs(8, ANL)))
v("mssql_conn", "SQL Server", "SQLSERVER_CONNECTION",
  lambda: "Server=tcp:%s.database.windows.net,1433;Initial Catalog=%s;User ID=%s;Password=%s;Encrypt=True;"
  % (rs(8, ANL), pick(["Sales", "HR"]), dbuser(), db_pw()))
v("oracle_jdbc", "Oracle DB", "ORACLE_JDBC_URL",
  lambda: "jdbc:oracle:thin:%s/%s@//%s:1521/ORCLPDB1" % (dbuser(), db_pw(), pick(["ora-prod.lan", "10.20.0.5"])))
v("cockroach_url", "CockroachDB", "COCKROACH_URL",
  lambda: "postgresql://%s:%s@%s.%s.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full"
  % (dbuser(), rs(22, AN + "-_"), pick(["free-tier", "prod-cluster"]) + "-" + digits(4), pick(["aws-eu-west-1", "gcp-us-east1"])))
v("clickhouse_url", "ClickHouse", "CLICKHOUSE_URL",
  lambda: "clickhouse://default:%s@%s.clickhouse.cloud:9440/default?secure=true" % (db_pw(), rs(10, ANL)))
v("elasticsearch_url", "Elasticsearch", "ELASTICSEARCH_URL",
  lambda: "https://elastic:%s@%s.es.eu-central-1.aws.cloud.es.io:9243" % (rs(24, AN), hx(32)))
v("kafka_sasl_jaas", "Apache Kafka", "KAFKA_SASL_JAAS_CONFIG",
  lambda: 'org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" password="%s";'
  % (rs(16, ANU), rs(64, B64C)))
v("neo4j_url", "Neo4j", "NEO4J_PASSWORD",
  lambda: [("NEO4J_URI", "neo4j+s://%s.databases.neo4j.io" % hx(8)), ("NEO4J_USERNAME", "neo4j"),
           ("NEO4J_PASSWORD", rs(43, AN + "-_"))])
v("ftp_url", "FTP", "FTP_URL", lambda: "ftp://%s:%s@ftp.%s/upload" % (dbuser(), db_pw(), pick(["printshop.de", "acme-corp.io"])))
v("sftp_credentials", "SFTP", "SFTP_PASSWORD",
  lambda: [("SFTP_HOST", "sftp." + pick(["bank-partner.com", "payroll-eu.net"])), ("SFTP_USER", rs(8, ANL)),
           ("SFTP_PASSWORD", db_pw())])
v("smtp_password", "SMTP relay", "SMTP_PASSWORD",
  lambda: [("SMTP_HOST", pick(["smtp.office365.com", "smtp.gmail.com", "mail.acme-corp.io"])), ("SMTP_PORT", "587"),
           ("SMTP_USER", pick(["noreply", "alerts", "billing"]) + "@acme-corp.io"), ("SMTP_PASSWORD", db_pw())])
v("ldap_bind_password", "LDAP", "LDAP_BIND_PASSWORD",
  lambda: [("LDAP_URL", "ldaps://ldap.corp.internal:636"), ("LDAP_BIND_DN", "cn=svc-wiki,ou=services,dc=corp,dc=internal"),
           ("LDAP_BIND_PASSWORD", db_pw())])
v("pgpass_line", "PostgreSQL .pgpass", "PGPASSFILE_LINE",
  lambda: "%s:5432:*:%s:%s" % (pick(["db.internal", "pg.lan", "warehouse.corp"]), dbuser(), db_pw()))
v("netrc_entry", ".netrc", "NETRC",
  lambda: "machine %s login %s password %s" % (pick(["api.heroku.com", "git.corp.internal", "ftp.printshop.de"]),
                                                pick(["deploy", "me@acme-corp.io"]), db_pw()))
v("docker_config_auth", "Docker registry", "DOCKER_AUTH_CONFIG",
  lambda: json.dumps({"auths": {pick(["registry.gitlab.com", "ghcr.io", "index.docker.io/v1/"]):
                                {"auth": b64(("%s:%s" % (rs(8, ANL), db_pw())).encode())}}}))
v("basic_auth_header", "HTTP Basic auth", "AUTH_HEADER",
  lambda: "Basic " + b64(("%s:%s" % (pick(["admin", "api", "jenkins", "grafana"]), db_pw())).encode()))
v("kubeconfig_token", "Kubernetes", "KUBE_TOKEN", k8s_sa_jwt)
# framework secrets
v("django_secret_key", "Django", "DJANGO_SECRET_KEY", lambda: "django-insecure-" + rs(50, LO + DG + "!@#$%^&*(-_=+)"))
v("rails_secret_key_base", "Ruby on Rails", "SECRET_KEY_BASE", lambda: hx(128))
v("laravel_app_key", "Laravel", "APP_KEY", lambda: "base64:" + b64(rbytes(32)))
v("flask_secret_key", "Flask", "FLASK_SECRET_KEY", lambda: hx(48))
v("nextauth_secret", "NextAuth.js", "NEXTAUTH_SECRET", lambda: b64(rbytes(32)))
v("jwt_signing_secret", "JWT HS256", "JWT_SECRET", lambda: rs(64, AN + "!#$%&*"))
v("session_cookie", "Express session", "COOKIE",
  lambda: "connect.sid=s%3A" + rs(32, AN + "-_") + "." + rs(43, AN + "%"))
v("session_jwt", "Web session (JWT)", "SESSION_TOKEN", session_jwt)
v("wireguard_private_key", "WireGuard", "WG_PRIVATE_KEY", lambda: b64(rbytes(32)))
v("wpa_psk", "wpa_supplicant", "WPA_PSK", lambda: hx(64))
v("age_secret_key", "age encryption", "AGE_SECRET_KEY", age_key)
# private keys and signed urls
v("openssh_private_key", "OpenSSH", "SSH_PRIVATE_KEY", lambda: openssh_ed25519(pick(["deploy@ci", "me@laptop", "backup@nas"])))
v("ec_private_key_pem", "EC private key (PEM)", "TLS_KEY", ec_pem)
v("pkcs8_private_key_pem", "PKCS#8 private key", "SIGNING_KEY", pkcs8_ed25519_pem)
v("apple_p8_key", "Apple App Store Connect", "APPSTORE_P8_KEY", pkcs8_ec_pem)
v("rsa_private_key_pem", "RSA private key (PEM)", "RSA_PRIVATE_KEY", rsa_pem)
v("pgp_private_key", "OpenPGP", "GPG_PRIVATE_KEY", pgp_private)
v("putty_private_key", "PuTTY", "PPK_FILE", lambda: putty_ppk(pick(["rsa-key-2026", "eddsa-key-20260110"])))
v("encrypted_pem_with_passphrase", "Encrypted PEM + passphrase", "TLS_KEY_PASSPHRASE",
  lambda: [("TLS_KEY", encrypted_pem()), ("TLS_KEY_PASSPHRASE", password())])
v("jwk_ec_private", "JWK (EC private)", "JWT_PRIVATE_JWK", jwk_ec)
v("jwk_okp_private", "JWK (Ed25519 private)", "SIGNING_JWK", jwk_okp)
v("gcp_service_account_json", "Google Cloud service account", "GOOGLE_APPLICATION_CREDENTIALS_JSON",
  lambda: {"type": "service_account", "project_id": "proj-" + rs(6, ANL), "private_key_id": hx(40),
           "private_key": pkcs8_ec_pem() + "\n", "client_email": "uploader@proj-%s.iam.gserviceaccount.com" % rs(6, ANL),
           "client_id": digits(21, True), "token_uri": "https://oauth2.googleapis.com/token"})
v("s3_presigned_url", "Amazon S3 presigned URL", "DOWNLOAD_URL", s3_presigned)
v("gcs_signed_url", "Google Cloud Storage signed URL", "SIGNED_URL", gcs_signed)
v("cloudfront_signed_url", "CloudFront signed URL", "STREAM_URL", cloudfront_signed)
v("microsoft_refresh_token", "Microsoft identity platform", "MS_REFRESH_TOKEN", lambda: "M.C5" + rs(2, ANU) + "_BAY." + rs(200, AN + "!*$-_"))
v("oauth_refresh_json", "OAuth token response", "TOKEN_JSON",
  lambda: {"access_token": rs(40, AN + "-_"), "token_type": "Bearer", "expires_in": 3600,
           "refresh_token": "rt_" + rs(64, AN + "-_"), "scope": "offline_access files.read"})
# crypto wallets
v("ethereum_private_key", "Ethereum wallet", "ETH_PRIVATE_KEY", lambda: "0x" + hx(64))
v("bitcoin_wif", "Bitcoin wallet (WIF)", "BTC_WIF", wif)
v("bip32_xprv", "HD wallet extended private key", "XPRV", xprv)
v("solana_keypair_b58", "Solana wallet", "SOLANA_PRIVATE_KEY", lambda: b58enc(rbytes(64)))
v("solana_keypair_json", "Solana CLI keypair", "SOLANA_KEYPAIR", lambda: json.dumps([R.randint(0, 255) for _ in range(64)]))


# ------------------------------------------------------------ names, places
FIRST = ["Priya", "Jonas", "Amara", "Luca", "Mei", "Tomasz", "Sofia", "Kenji", "Fatima", "Oliver", "Ines", "Mateo",
         "Hannah", "Yusuf", "Elif", "Noah", "Aiko", "Lars", "Chiara", "Diego", "Zanele", "Ravi", "Marta", "Sven",
         "Leila", "Bruno", "Olga", "Tariq", "Camille", "Jae-won", "Aisha", "Pieter", "Ana", "Dmitri", "Freya"]
LAST = ["Kowalski", "Nakamura", "Okafor", "Rossi", "Schmidt", "Haddad", "Lindqvist", "Moreau", "Yilmaz", "Silva",
        "Chen", "Fernandes", "van Dijk", "Petrova", "Kim", "Novak", "Gallagher", "Ibrahim", "Dubois", "Sato"]
ORGS = ["acme-corp.io", "lumen.shop", "tinyshop.app", "northwind.dev", "orchard-labs.com", "bluefin.tech"]


def person():
    return pick(FIRST) + " " + pick(LAST)


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def camel(var):
    parts = var.lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def pascal(var):
    return "".join(p.capitalize() for p in var.lower().split("_"))


def vtype(val):
    if isinstance(val, dict):
        return "obj"
    if "\n" in val:
        return "multiline"
    if val.startswith("http://") or val.startswith("https://"):
        return "url"
    if re.match(r"^[a-z][a-z0-9+.-]*://", val) or val.startswith(("Server=", "jdbc:", "Default", "Account", "Endpoint",
                                                                   "org.apache", "machine ", "{")) or "password" in val[:80]:
        return "dsn"
    return "token"


ENV_FILLER = ["NODE_ENV=production", "PORT=8080", "LOG_LEVEL=info", "APP_NAME=orchard", "TZ=Europe/Berlin",
              "FEATURE_FLAGS=beta_checkout,new_nav", "REGION=eu-west-1", "WORKERS=4", "CACHE_TTL=300", "DEBUG=false",
              "PUBLIC_URL=https://app.example.org", "MAX_UPLOAD_MB=25", "LOCALE=en_GB", "RETRY_LIMIT=5"]
SERVICES_CTX = ["billing worker", "staging deploy", "nightly export", "support bot", "mobile backend", "data pipeline",
                "marketing site", "invoice mailer", "search indexer", "home automation", "side project", "CI runner"]


def indent(s, n):
    return "\n".join((" " * n + line) if line else line for line in s.split("\n"))


def q(val):
    return '"%s"' % val.replace('"', '\\"') if '"' in val else '"%s"' % val


def r_env(c):
    lines = R.sample(ENV_FILLER, R.randint(1, 3))
    for var, val in c["parts"]:
        if "\n" in val or " " in val:
            lines.insert(R.randint(0, len(lines)), '%s="%s"' % (var, val))
        else:
            lines.insert(R.randint(0, len(lines)), "%s=%s" % (var, pick([val, '"%s"' % val, "'%s'" % val])))
    head = pick(["", "# %s\n" % c["vendor"], "# .env.%s\n" % pick(["production", "local", "staging"]),
                 "# copied from the old server, %s\n" % c["ctx"]])
    return head + "\n".join(lines)


def r_yaml(c):
    out = ["%s:" % slug(c["vendor"]).replace("-", "_"), "  enabled: true"]
    for var, val in c["parts"]:
        k = var.lower()
        if "\n" in val:
            out.append("  %s: |\n%s" % (k, indent(val, 4)))
        else:
            out.append("  %s: %s" % (k, pick([val, '"%s"' % val])))
    out.append("  timeout_seconds: %d" % R.choice([10, 15, 30, 60]))
    pre = pick(["", "# config/%s.yml\n" % pick(["production", "secrets", "services"]), "---\n"])
    return pre + "\n".join(out)


def r_json(c):
    if c.get("obj") is not None:
        return {"service": c["vendor"], "environment": pick(["prod", "staging", "dev"]), "credentials": c["obj"],
                "updated_at": date_iso()}
    cred = {var.lower(): val for var, val in c["parts"]}
    return pick([
        lambda: {"service": c["vendor"], "environment": pick(["prod", "staging", "dev"]), "credentials": cred,
                 "owner": pick(FIRST).lower() + "@" + pick(ORGS)},
        lambda: {"integrations": [{"name": slug(c["vendor"]), "enabled": True, "config": cred}], "version": 2},
        lambda: {camel(var): val for var, val in c["parts"]} | {"retries": 3, "endpoint": "https://" + c["host"]},
    ])()


def r_toml(c):
    out = ["[%s]" % slug(c["vendor"]).replace("-", "_")]
    for var, val in c["parts"]:
        out.append('%s = %s' % (var.lower(), ('"""\n%s"""' % val) if "\n" in val else '"%s"' % val.replace('"', '\\"')))
    out.append("timeout = %d" % R.choice([5, 10, 30]))
    return pick(["", "# settings.toml\n"]) + "\n".join(out)


def r_ini(c):
    out = ["[%s]" % slug(c["vendor"])]
    for var, val in c["parts"]:
        out.append("%s = %s" % (var.lower(), val))
    out.append("region = %s" % pick(["eu", "us", "ap"]))
    return "\n".join(out)


def r_properties(c):
    base = slug(c["vendor"]).replace("-", ".")
    out = ["# %s" % pick(["application.properties", "gradle.properties", "app.conf"])]
    out += ["%s.%s=%s" % (base, var.lower().replace("_", "."), val) for var, val in c["parts"]]
    return "\n".join(out)


def r_xml(c):
    rows = "\n".join('    <add key="%s" value="%s" />' % (var, val.replace("&", "&amp;").replace('"', "&quot;"))
                     for var, val in c["parts"])
    return "<configuration>\n  <appSettings>\n%s\n  </appSettings>\n</configuration>" % rows


def r_shell(c):
    ex = "\n".join("export %s=%s" % (var, pick(["'%s'" % val, '"%s"' % val])) for var, val in c["parts"])
    cmd = pick(["./deploy.sh --env prod", "npm run sync", "python manage.py import_orders", "make release",
                "docker compose up -d", "terraform apply"])
    return pick(["#!/usr/bin/env bash\nset -euo pipefail\n", "", "# run before the cron job\n"]) + ex + "\n" + cmd


def r_curl(c):
    parts = c["parts"]
    val = parts[-1][1]
    if val.startswith("http"):
        return "curl -sS -X POST -H 'Content-Type: application/json' -d '{\"text\":\"%s\"}' %s" % (
            pick(["deploy finished", "backup ok", "door opened"]), val)
    if len(parts) >= 2:
        return "curl -s -u %s:%s https://%s/v1/%s" % (parts[0][1], val, c["host"], pick(["accounts", "messages", "usage"]))
    hdr = pick(["Authorization: Bearer %s", "Authorization: Token %s", "X-API-Key: %s", "Api-Key: %s",
                "Authorization: token %s"])
    return "curl -sS https://%s/v%d/%s \\\n  -H '%s' \\\n  -H 'Accept: application/json'" % (
        c["host"], R.randint(1, 3), pick(["me", "projects", "events?limit=50", "models"]), hdr % val)


def r_powershell(c):
    return "\n".join('$env:%s = "%s"' % (var, val) for var, val in c["parts"]) + "\n" + pick(
        [".\\Sync-Invoices.ps1", "Start-Process .\\agent.exe", "Invoke-RestMethod -Uri https://%s/health" % c["host"]])


def r_py(c):
    mod = slug(c["vendor"]).split("-")[0]
    if c.get("obj") is not None:
        return "%s = %s\nclient = %s.Client.from_dict(%s)" % (
            c["var"].lower(), json.dumps(c["obj"], indent=4), mod, c["var"].lower())
    if any("\n" in val for _, val in c["parts"]):
        return "\n".join('%s = """%s"""' % (var, val) for var, val in c["parts"])
    args = ",\n".join("    %s=%s" % (var.lower(), q(val)) for var, val in c["parts"])
    return pick(["import %s\n\n" % mod, "from %s import Client\n\n" % mod, ""]) + \
        "client = %s(\n%s,\n    timeout=%d,\n)" % (pick(["Client", mod + ".Client", mod.capitalize() + "API"]), args,
                                                 R.choice([10, 30]))


def r_js(c):
    if any("\n" in val for _, val in c["parts"]):
        return "\n".join("const %s = `%s`;" % (camel(var), val) for var, val in c["parts"])
    body = ", ".join("%s: '%s'" % (camel(var), val) for var, val in c["parts"])
    return pick(["const client = new %sClient({ %s });" % (pascal(slug(c["vendor"]).replace("-", "_")), body),
                 "export const config = {\n  %s,\n  region: 'eu',\n};" % body.replace(", ", ",\n  "),
                 "module.exports = { %s };" % body])


def r_ts(c):
    return "\n".join("export const %s: string = '%s';" % (var, val) for var, val in c["parts"]) + \
        "\n// TODO move to secrets manager"


def r_go(c):
    fields = "\n".join("\t%s: %s," % (pascal(var), '"%s"' % val) for var, val in c["parts"])
    return "cfg := %s.Config{\n%s\n}\nclient := %s.New(cfg)" % (slug(c["vendor"]).split("-")[0], fields,
                                                                 slug(c["vendor"]).split("-")[0])


def r_java(c):
    return "\n".join('    private static final String %s = "%s";' % (var, val) for var, val in c["parts"])


def r_rb(c):
    body = "\n".join('  config.%s = "%s"' % (var.lower(), val) for var, val in c["parts"])
    return "%s.configure do |config|\n%s\nend" % (pascal(slug(c["vendor"]).replace("-", "_")), body)


def r_php(c):
    return "<?php\n" + "\n".join("define('%s', '%s');" % (var, val) for var, val in c["parts"])


def r_cs(c):
    return "\n".join('const string %s = "%s";' % (pascal(var), val) for var, val in c["parts"]) + \
        "\nvar client = new %sClient(%s);" % (pascal(slug(c["vendor"]).replace("-", "_")), pascal(c["parts"][-1][0]))


def r_rs(c):
    return "\n".join('const %s: &str = "%s";' % (var, val) for var, val in c["parts"])


def r_http(c):
    val = c["parts"][-1][1]
    if val.startswith("http"):
        u = urllib.parse.urlsplit(val)
        return "POST %s%s HTTP/1.1\nHost: %s\nContent-Type: application/json\n\n{\"text\": \"%s\"}" % (
            u.path, ("?" + u.query) if u.query else "", u.netloc, pick(["build passed", "alarm test"]))
    if len(c["parts"]) >= 2:
        auth = "Basic " + b64(("%s:%s" % (c["parts"][0][1], val)).encode())
        return "GET /v1/%s HTTP/1.1\nHost: %s\nAuthorization: %s\nX-Secret: %s\nAccept: */*" % (
            pick(["balance", "accounts"]), c["host"], auth, val)
    return "%s /v%d/%s HTTP/1.1\nHost: %s\nAuthorization: Bearer %s\nUser-Agent: %s/%d.%d\nAccept: application/json" % (
        pick(["GET", "POST"]), R.randint(1, 3), pick(["users/me", "charges", "chat/completions", "events"]),
        c["host"], val, pick(["python-requests", "okhttp", "curl"]), R.randint(2, 8), R.randint(0, 30))


def r_log(c):
    ts = "%sT%02d:%02d:%02d.%03dZ" % (date_iso(), R.randint(0, 23), R.randint(0, 59), R.randint(0, 59), R.randint(0, 999))
    val = c["parts"][-1][1]
    if c.get("obj") is not None:
        return "%s INFO loaded credentials file: %s" % (ts, json.dumps(c["obj"]))
    return pick([
        "%s DEBUG %s.client request headers={'Authorization': 'Bearer %s', 'Accept': 'application/json'}" % (ts, slug(c["vendor"]), val),
        "%s WARN config: using %s=%s from environment (fallback)" % (ts, c["parts"][-1][0], val),
        "[%s] ERROR %s call failed status=401 key=%s retry=3" % (ts, slug(c["vendor"]), val),
        "%s level=debug msg=\"init client\" provider=%s secret=%s" % (ts, slug(c["vendor"]), val),
    ])


def r_sql(c):
    val = c["parts"][-1][1].replace("'", "''")
    return pick([
        "INSERT INTO integration_credentials (provider, environment, secret, created_at)\nVALUES ('%s', 'prod', '%s', NOW());" % (slug(c["vendor"]), val),
        "UPDATE app_settings SET value = '%s' WHERE name = '%s';" % (val, c["parts"][-1][0].lower()),
        "-- restore after migration\nINSERT INTO api_keys(owner_id, label, token) VALUES (%d, '%s', '%s');" % (R.randint(1, 900), pick(SERVICES_CTX), val),
    ])


def r_csv(c):
    head = "provider,environment," + ",".join(var.lower() for var, _ in c["parts"]) + ",owner"
    row = "%s,%s,%s,%s" % (slug(c["vendor"]), pick(["prod", "staging"]), ",".join(val for _, val in c["parts"]), pick(FIRST).lower())
    other = "%s,%s,%s,%s" % ("internal-wiki", "prod", ",".join("(see vault)" for _ in c["parts"]), pick(FIRST).lower())
    rows = [row, other]
    R.shuffle(rows)
    return head + "\n" + "\n".join(rows)


def fmt_parts(c, sep="\n"):
    if c.get("obj") is not None:
        return json.dumps(c["obj"], indent=2)
    return sep.join("%s=%s" % (var, val) for var, val in c["parts"])


def r_ticket(c):
    tid = "%s-%d" % (pick(["OPS", "INC", "SUP", "DEV", "PLAT"]), R.randint(100, 9999))
    return pick([
        "[%s] %s integration returns 401 since this morning.\nRepro: run the %s with\n%s\nExpected: 200. Assignee: %s" % (
            tid, c["vendor"], pick(SERVICES_CTX), fmt_parts(c), person()),
        "%s: please rotate after the incident. Current value that was in the repo:\n%s\n(leaked in commit history)" % (tid, fmt_parts(c)),
        "Ticket %s - customer asked us to use their %s credentials for the import:\n%s" % (tid, c["vendor"], fmt_parts(c)),
    ])


def r_email(c):
    a, b = pick(FIRST), pick(FIRST)
    return "Subject: %s\n\nHi %s,\n\n%s\n\n%s\n\n%s\n%s" % (
        pick(["%s credentials" % c["vendor"], "access for the %s" % pick(SERVICES_CTX), "new key", "as discussed"]), a,
        pick(["here are the %s details for the %s:" % (c["vendor"], pick(SERVICES_CTX)),
              "as promised, this is what you need to get %s working:" % c["vendor"],
              "the old key expired, use this one from now on:"]),
        fmt_parts(c), pick(["Please don't forward this.", "Delete after reading.", "Thanks!", "Let me know if it works."]),
        pick(["Cheers,", "Best,", "--"]) + "\n" + b)


def r_chat(c):
    a, b = pick(FIRST), pick(FIRST)
    body = fmt_parts(c, sep="  ")
    return [
        "%s: %s" % (a, pick(["can you send me the %s key for %s?" % (c["vendor"], pick(SERVICES_CTX)),
                             "what's the %s token again? the %s is failing" % (c["vendor"], pick(SERVICES_CTX)),
                             "need the %s creds pls" % c["vendor"]])),
        "%s: %s" % (b, pick(["here: ", "sure -> ", "", "use this one: "]) + body),
        "%s: %s" % (a, pick(["thx!", "works, thanks", "got it 👍", "perfect"])),
    ]


NOTE_FRAMES = {
    "en": ["Remember the %(v)s credentials for the %(ctx)s: %(p)s", "Note to self - %(v)s (%(ctx)s): %(p)s",
           "Keep this for later, it's the %(v)s access for the %(ctx)s:\n%(p)s", "%(v)s key so I stop asking Slack: %(p)s"],
    "de": ["Bitte merken: %(v)s-Zugangsdaten für %(ctx)s: %(p)s", "Der API-Schlüssel von %(v)s lautet: %(p)s"],
    "fr": ["À retenir : la clé %(v)s pour le projet (%(ctx)s) est %(p)s", "Identifiants %(v)s : %(p)s"],
    "es": ["Guarda esto: la clave de %(v)s para %(ctx)s es %(p)s", "Credenciales de %(v)s: %(p)s"],
    "pt": ["Lembrar: chave do %(v)s usada no %(ctx)s -> %(p)s"],
    "it": ["Ricorda la chiave %(v)s per %(ctx)s: %(p)s"],
    "nl": ["Onthoud de %(v)s-sleutel voor %(ctx)s: %(p)s"],
    "ja": ["%(v)s のAPIキー（%(ctx)s用）: %(p)s"],
    "zh": ["记住 %(v)s 的密钥（用于 %(ctx)s）：%(p)s"],
    "ru": ["Запомни ключ %(v)s для %(ctx)s: %(p)s"],
}


def r_note(c):
    lang = pick(["en"] * 6 + list(NOTE_FRAMES))
    p = fmt_parts(c, sep=pick([" / ", "  ", "\n"]))
    return pick(NOTE_FRAMES[lang]) % {"v": c["vendor"], "ctx": c["ctx"], "p": p}


def r_compose(c):
    env = "\n".join("      - %s=%s" % (var, val) for var, val in c["parts"])
    return "services:\n  %s:\n    image: %s:%s\n    environment:\n%s" % (
        pick(["api", "worker", "web"]), pick(["ghcr.io/acme/api", "node", "python"]), pick(["latest", "3.12-slim", "20"]), env)


def r_k8s(c):
    if c.get("obj") is not None:
        data = "  %s: |\n%s" % (c["var"].lower() + ".json", indent(json.dumps(c["obj"], indent=2), 4))
    else:
        data = "\n".join(("  %s: |\n%s" % (var, indent(val, 4))) if "\n" in val else '  %s: "%s"' % (var, val)
                         for var, val in c["parts"])
    return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s-credentials\ntype: Opaque\nstringData:\n%s" % (
        slug(c["vendor"])[:20], data)


def r_tf(c):
    if any("\n" in val for _, val in c["parts"]):
        return "\n".join('%s = <<EOT\n%s\nEOT' % (var.lower(), val) for var, val in c["parts"])
    return pick([
        "# terraform.tfvars\n" + "\n".join('%s = "%s"' % (var.lower(), val) for var, val in c["parts"]),
        'provider "%s" {\n%s\n}' % (slug(c["vendor"]).split("-")[0],
                                    "\n".join('  %s = "%s"' % (var.lower(), val) for var, val in c["parts"])),
    ])


def r_gha(c):
    env = "\n".join(("      %s: |\n%s" % (var, indent(val, 8))) if "\n" in val else "      %s: %s" % (var, val)
                    for var, val in c["parts"])
    return "name: deploy\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n%s\n    steps:\n      - uses: actions/checkout@v4" % env


def r_dockerfile(c):
    return "FROM %s\n%s\nCOPY . /app\nCMD [\"%s\"]" % (
        pick(["node:20-alpine", "python:3.12-slim", "golang:1.22"]),
        "\n".join("ENV %s=%s" % (var, val) for var, val in c["parts"]), pick(["npm", "python", "./server"]))


def r_systemd(c):
    return "[Service]\nExecStart=/usr/local/bin/%s\n%s\nRestart=always" % (
        pick(["exporter", "sync-agent", "bot"]), "\n".join('Environment="%s=%s"' % (var, val) for var, val in c["parts"]))


def r_markdown(c):
    return "## Local setup\n\n1. Clone the repo\n2. Create `.env` with:\n\n```\n%s\n```\n3. Run `make dev`" % fmt_parts(c)


def r_npmrc(c):
    return "registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=%s\nalways-auth=true" % c["parts"][-1][1]


RENDER = {"env": r_env, "yaml": r_yaml, "json": r_json, "toml": r_toml, "ini": r_ini, "properties": r_properties,
          "xml": r_xml, "shell": r_shell, "curl": r_curl, "powershell": r_powershell, "code-py": r_py, "code-js": r_js,
          "code-ts": r_ts, "code-go": r_go, "code-java": r_java, "code-rb": r_rb, "code-php": r_php, "code-cs": r_cs,
          "code-rs": r_rs, "http": r_http, "log": r_log, "sql": r_sql, "csv": r_csv, "ticket": r_ticket,
          "email": r_email, "chat": r_chat, "note": r_note, "docker-compose": r_compose, "k8s": r_k8s,
          "terraform": r_tf, "gha": r_gha, "dockerfile": r_dockerfile, "systemd": r_systemd, "markdown": r_markdown,
          "npmrc": r_npmrc}
ALLOWED = {
    "token": [k for k in RENDER if k != "npmrc"],
    "url": [k for k in RENDER if k not in ("npmrc",)],
    "dsn": [k for k in RENDER if k not in ("npmrc", "curl", "http")],
    "multiline": ["env", "yaml", "json", "toml", "code-py", "code-js", "email", "ticket", "chat", "note", "k8s",
                  "terraform", "markdown", "gha"],
    "obj": ["json", "note", "email", "chat", "code-py", "ticket", "k8s", "log"],
}


# ------------------------------------------------------------ record machinery
RECORDS = []
SEEN_VAL = set()
SEEN_KEY = set()
CORE_SEEN = set()
SEGCOUNT = collections.Counter()
STATS = collections.defaultdict(collections.Counter)


def new_ns():
    return ["memories", "u%d" % R.randint(10 ** 5, 10 ** 10)]


def new_key():
    while True:
        k = "mem_" + hx(pick([12, 16, 16, 20, 24, 32]))
        if k not in SEEN_KEY:
            return k


class NeedleMissing(Exception):
    pass


def add(label, variant, segment, kind, value, needles=(), key=None, namespace=None, lang=None, core=None):
    assert label in ("secret", "benign") and variant in ("plain", "hard")
    assert re.match(r"^[a-z0-9-]+$", segment), segment
    canon = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if canon in SEEN_VAL:
        return False
    core = core if core is not None else (value if isinstance(value, str) else None)
    if core is not None and core in CORE_SEEN:
        return False
    key = key or new_key()
    if key in SEEN_KEY:
        return False
    assert re.match(r"^mem_[0-9a-f]+$", key)
    namespace = namespace or new_ns()
    assert namespace[0] == "memories" and re.match(r"^u[0-9]+$", namespace[1])
    hay = "\x00".join(list(all_strings(value)) + [key] + list(namespace))
    if label == "secret":
        if not needles:
            raise AssertionError("secret without needle: %s %s" % (kind, segment))
        for n in needles:
            if not n or n not in hay:
                raise NeedleMissing("%s/%s: %r" % (kind, segment, n[:40] if n else n))
    SEEN_VAL.add(canon)
    SEEN_KEY.add(key)
    if core is not None:
        CORE_SEEN.add(core)
    SEGCOUNT[(label, variant, segment)] += 1
    rid = "h11-%s-%s-%s-%03d" % (label[0], variant[0], segment, SEGCOUNT[(label, variant, segment)])
    RECORDS.append({"id": rid, "label": label, "kind": kind, "variant": variant, "namespace": namespace,
                    "key": key, "value": value})
    STATS["%s_%s_kind" % (label, variant)][kind] += 1
    STATS["%s_%s_segment" % (label, variant)][segment] += 1
    if lang:
        STATS["%s_lang" % label][lang] += 1
    STATS["shape"]["object/array" if isinstance(value, (dict, list)) else "string"] += 1
    return True


def emit(fn, tries=80):
    last = None
    for _ in range(tries):
        r = fn()
        try:
            if add(**r):
                return r
        except NeedleMissing as e:
            last = e
            continue
    raise RuntimeError("could not emit unique record: %s" % last)


# ------------------------------------------------------------ secrets / plain / vendor formats
def secret_needle(kind, parts, var, obj):
    if obj is not None:
        if "d" in obj:
            return obj["d"]
        if "private_key" in obj:
            return obj["private_key"].split("\n")[2]
        return obj["refresh_token"]
    chosen = [val for vv, val in parts if vv == var] or [parts[-1][1]]
    val = chosen[0]
    if "\n" in val:
        lines = val.split("\n")
        return lines[len(lines) // 2]
    return val


def vendor_ctx(spec):
    kind, vendor, var, gen = spec
    g = gen()
    obj = None
    if isinstance(g, dict):
        obj = g
        parts = [(var, json.dumps(g))]
    elif isinstance(g, list):
        parts = g
    else:
        parts = [(var, g)]
    t = "obj" if obj is not None else max((vtype(val) for _, val in parts),
                                          key=["token", "url", "dsn", "multiline"].index)
    if t == "token" and any(val.startswith(("Basic ", "[")) or re.match(r"^[\w.-]+:\d+:", val) for _, val in parts):
        t = "dsn"
    return {"kind": kind, "vendor": vendor, "var": var, "parts": parts, "obj": obj, "type": t,
            "host": "api.%s.com" % slug(vendor).split("-")[0], "ctx": pick(SERVICES_CTX)}


def gen_vendor_plain():
    pools = {}
    order = list(V)
    for spec in order:
        def mk(spec=spec):
            c = vendor_ctx(spec)
            t = c["type"]
            if t not in pools or not pools[t]:
                pools[t] = list(ALLOWED[t])
                R.shuffle(pools[t])
            cont = pools[t].pop()
            if c["kind"] == "npm_token" and R.random() < 0.5:
                cont = "npmrc"
            if cont == "xml" and any(ch in val for _, val in c["parts"] for ch in "&\"<"):
                cont = "env"
            value = RENDER[cont](c)
            return dict(label="secret", variant="plain", segment=cont, kind=c["kind"], value=value,
                        needles=[secret_needle(c["kind"], c["parts"], c["var"], c["obj"])])
        emit(mk)


# ------------------------------------------------------------ personal secrets: language data
SVCS = ["Amazon", "eBay", "Netflix", "Instagram", "Facebook", "LinkedIn", "PayPal", "Steam", "Zalando", "Booking.com",
        "Airbnb", "Uber", "Etsy", "Duolingo", "Strava", "Reddit", "Discord", "Spotify", "Vinted", "AliExpress"]
MAILS = ["Gmail", "Outlook", "Yahoo", "GMX", "Proton", "iCloud", "web.de", "Orange", "Yandex", "Naver", "QQ"]
OTP_SVCS = ["Google", "GitHub", "Microsoft", "Coinbase", "PayPal", "Dropbox", "Instagram", "WhatsApp", "Revolut",
            "Binance", "Steam", "Discord", "Apple ID", "N26"]
WALLETS = ["MetaMask", "Ledger", "Trezor", "Exodus", "Trust Wallet", "Phantom", "Electrum", "Rabby"]
SSIDS = ["FRITZ!Box 7590 XQ", "Vodafone-2F8A", "TP-Link_5G_34C1", "Casa_Lopez", "HomeNet-5G", "Livebox-6A2E",
         "Bbox-39F1C2", "Sky-Home-77", "Telia-8B2C", "MyHome_2.4G", "Dom_Kowalskich", "Ziggo9921", "iPhone de Ana",
         "NETGEAR42", "Kaffeeklatsch", "Wohnung_3OG", "CabinByTheLake", "SuperBox-51D0", "KT_GiGA_5G_2C"]
ANSWERS = ["Biscuit", "Mr. Whiskers", "Kowalczyk", "Valparaiso", "Ms Hendricks", "Rue des Lilas", "Bolt", "Pippin",
           "Gdansk1979", "Tante Erna", "Hagrid", "Lucky Luke", "Saint-Malo", "Fernwood", "Mimi", "Oakridge Elementary"]


def answer_val():
    a = pick(ANSWERS)
    return pick([a, a + str(R.randint(1, 99)), a.replace(" ", "") + pick(SYMS) + str(R.randint(10, 99)),
                 a.lower().replace(" ", "_") + str(R.randint(1950, 2010))])


PIN_KINDS = ["bank_pin", "phone_pin", "sim_pin", "voicemail_pin", "alarm_code", "door_code", "safe_combination",
             "locker_combination", "garage_code", "bike_lock_code"]
PIN_KINDS_EN_EXTRA = ["sim_puk", "tv_parental_pin", "lockbox_code", "screen_time_passcode", "car_keypad_code"]
PW_KINDS = ["account_password", "email_password", "laptop_password", "router_admin_password", "streaming_password",
            "pm_master_password", "vpn_password"]
PW_KINDS_EN_EXTRA = ["tax_portal_password", "health_portal_password", "school_portal_password", "apple_id_password"]


def pin_val(kind):
    if kind == "sim_puk":
        return digits(8)
    if kind == "safe_combination":
        return pick(["%02d-%02d-%02d" % (R.randint(0, 59), R.randint(0, 59), R.randint(0, 59)), pin(6)])
    if kind == "locker_combination":
        return pick(["%d-%d-%d" % (R.randint(0, 39), R.randint(0, 39), R.randint(0, 39)), pin(3), pin(4)])
    if kind == "door_code":
        p = pin(R.choice([4, 5, 6]))
        return pick([p, p + "#", "*" + p, "A" + p, p + "B"])
    if kind in ("bike_lock_code", "tv_parental_pin", "lockbox_code", "screen_time_passcode", "bank_pin"):
        return pin(4) if kind != "bank_pin" or R.random() < 0.8 else pin(6)
    if kind == "car_keypad_code":
        return rs(5, "13579")
    return pin()


def pm_master():
    return pick([" ".join(pick(BIP39) for _ in range(R.randint(4, 6))),
                 "-".join(pick(BIP39).capitalize() for _ in range(4)) + str(R.randint(1, 99)),
                 password() + password()[:4]])


def pw_val(kind, lang):
    if kind == "pm_master_password":
        return pm_master()
    return password(lang)


def recovery_codes():
    style = R.randint(0, 3)
    n = R.choice([6, 8, 10])
    if style == 0:
        c = ["%s-%s" % (hx(5), hx(5)) for _ in range(n)]
    elif style == 1:
        c = [digits(4) + " " + digits(4) for _ in range(n)]
    elif style == 2:
        c = [rs(4, ANU) + "-" + rs(4, ANU) for _ in range(n)]
    else:
        c = [digits(8) for _ in range(n)]
    return pick([", ", " ", " / ", "\n"]).join(c)


def otp_val():
    d = digits(6)
    return pick([d, d, "G-" + d, d[:3] + "-" + d[3:], d[:3] + " " + d[3:], digits(8)])


def bank_user():
    return pick([digits(R.choice([8, 10]), True), pick(FIRST).lower() + str(R.randint(1960, 2005)),
                 pick(LAST).lower().replace(" ", "") + "." + pick(FIRST).lower()[:1], "DE" + digits(9)])


def totp_val():
    s = base32_seed(32).lower()
    return pick([grouped(s, 4), s.upper()])


def bitlocker_val():
    return "-".join(digits(6) for _ in range(8))


PL = {}
PL["en"] = dict(
    pin_things={
        "bank_pin": ["PIN for my debit card", "ATM PIN for the {bank} card", "bank card PIN", "card PIN at {bank}"],
        "phone_pin": ["phone unlock PIN", "passcode for my iPhone", "screen lock PIN on my Pixel", "unlock code for my phone"],
        "sim_pin": ["SIM PIN", "PIN for the new SIM card", "SIM card PIN for the travel phone"],
        "sim_puk": ["PUK code for my SIM", "SIM PUK (in case I lock it again)"],
        "voicemail_pin": ["voicemail PIN", "PIN to check my voicemail", "mailbox PIN on the landline"],
        "alarm_code": ["house alarm code", "code to disarm the alarm", "security system code at the shop"],
        "door_code": ["door code for the building", "entry code for the front gate", "keypad code at grandma's building",
                      "code for the back door of the office"],
        "safe_combination": ["hotel safe code", "combination for the safe in the closet", "code of the home safe"],
        "locker_combination": ["gym locker combination", "locker code at the pool", "combination for my school locker"],
        "garage_code": ["garage door code", "keypad code for the garage", "code to the underground parking"],
        "bike_lock_code": ["bike lock combination", "code for the bike lock", "combination on the cable lock"],
        "tv_parental_pin": ["parental control PIN on the TV", "Netflix profile lock PIN", "PIN for the kids' TV lock"],
        "lockbox_code": ["key box code at the rental", "code for the lockbox with the spare key", "Airbnb key safe code"],
        "screen_time_passcode": ["Screen Time passcode", "passcode for the kids' iPad restrictions"],
        "car_keypad_code": ["door keypad code on the Ford", "car entry keypad code"],
    },
    pw_things={
        "account_password": ["password for my {svc} account", "{svc} login password", "{svc} password",
                             "password I use on {svc}"],
        "email_password": ["password for my {mail} email", "{mail} email password", "password of the family {mail} account"],
        "laptop_password": ["login password on my work laptop", "MacBook password", "Windows login on the family PC"],
        "router_admin_password": ["router admin password", "password for the Fritz!Box admin page", "admin login for the home router"],
        "streaming_password": ["Netflix password we share with my parents", "Disney+ password", "Spotify family password"],
        "pm_master_password": ["master password for 1Password", "Bitwarden master password", "KeePass database master password"],
        "vpn_password": ["VPN password for work", "company VPN login password"],
        "tax_portal_password": ["password for the tax portal", "HMRC gateway password", "IRS online account password"],
        "health_portal_password": ["patient portal password", "password for the health insurance app"],
        "school_portal_password": ["password for the kids' school portal", "Google Classroom password for Leo"],
        "apple_id_password": ["Apple ID password", "iCloud password"],
    },
    pin_frames=["My {thing} is {val}.", "{Thing}: {val}", "Please remember the {thing} for me: {val}.",
                "Note to self: {thing} = {val}", "If I forget again, the {thing} is {val}.",
                "The {thing} is {val}; only the two of us know it.", "{val} is the {thing}. Keep it private.",
                "I set the {thing} to {val} after the old one got out.", "Remember for me: {thing} {val}",
                "Just so you have it, {thing} -> {val}", "My {thing} is still {val}, same as always.",
                "Can you store this? {thing}: {val}", "Changed the {thing} today, new one is {val}.",
                "For when I'm standing at the keypad again: {thing} {val}"],
    pw_frames=["The {thing} is {val}", "My {thing}: {val}", "I just reset the {thing}, the new one is {val}.",
               "{Thing} -> {val}", "Can you keep my {thing}? It's {val}.",
               "New {thing} after the reset: {val}. The old one doesn't work anymore.",
               "FYI the {thing} is now {val}, I changed it after the breach email.",
               "Don't forget: {val} is my {thing}.", "In case something happens to me, the {thing} is {val}.",
               "Saving this here so I stop writing it on sticky notes: {thing} = {val}",
               "remember {thing} pls: {val}", "IT changed the {thing}; it's {val} until the next rotation.",
               "Login stuff - {thing} is {val} (username is my email)",
               "{val} <- that's the {thing}, with the capitals exactly like that."],
    wifi_frames=["Home Wi-Fi is {ssid}, password {val}", "Wifi password at the cabin: {val} (network {ssid})",
                 "Guests keep asking - the WLAN key for {ssid} is {val}", "The office wifi {ssid} uses {val} as the passphrase.",
                 "wifi: {ssid} / {val}", "If the babysitter asks, the wifi is {ssid} and the password is {val}."],
    card_frames=["My {brand} card: {num}, expires {exp}, CVV {cvv}.",
                 "Card for online shopping - {num} exp {exp} security code {cvv}",
                 "Use my {brand} {num} ({exp}, {cvv}) for the hotel booking.",
                 "Company credit card: number {num}, valid thru {exp}, CVC {cvv}. Name on card {name}.",
                 "Save my card please: {num}, {exp}, {cvv}, {name}",
                 "{brand} debit {num}, expiry {exp}, CVV {cvv}, PIN {pin}"],
    bank_frames=["Online banking at {bank}: user ID {user}, password {pw}.", "For {bank} the login is {user} / {pw}",
                 "{bank} app - customer number {user}, passcode {pw}", "My {bank} netbanking credentials are {user} and {pw}"],
    otp_frames=["The verification code {svc} just sent me is {val}, enter it for me.", "{svc} login code: {val} (valid 10 min)",
                "Use {val} - that's the one-time code from {svc}.", "2FA code for {svc} right now is {val}"],
    codes_frames=["Backup codes for my {svc} 2FA: {codes}. Each works once.", "{svc} recovery codes:\n{codes}",
                  "Keep these {svc} backup codes safe: {codes}"],
    seed_frames=["Seed phrase for my {wallet} wallet: {words}", "Recovery phrase for {wallet}: {words}. Never share.",
                 "The words for the hardware wallet ({wallet}) are: {words}"],
    answer_frames=["For {bank}, the security question '{q}' - I answered {val}.",
                   "The answer I gave {bank} for '{q}' is {val}; they ask it on every phone call.",
                   "Security answer at {bank} ({q}): {val}"],
    totp_frames=["Authenticator setup key for {svc}: {val} (in case I lose my phone)",
                 "{svc} 2FA secret from the QR code: {val}"],
    bitlocker_frames=["BitLocker recovery key for my work laptop: {val}", "If the laptop asks for the recovery key again it's {val}"],
    questions=["first pet's name", "mother's maiden name", "city where my parents met", "favourite teacher", "first car"],
    chat_q=["{who}, what's the {thing} again?", "can you remind me the {thing}?", "sorry, {thing}??",
            "what was the {thing}, I'm standing outside", "need the {thing} real quick"],
    chat_a=["{val}", "it's {val}", "{val} - don't share it", "{val} (I changed it last week)", "same as before: {val}"],
    chat_end=["thanks!", "got it", "thx ❤️", "ok in"],
    tails=["", "", " Thanks!", " I always forget it.", " Don't tell the kids.", " (changed it in March)",
           " Please keep it safe.", " Ask me before sharing it with anyone."],
    banks=["Chase", "Barclays", "HSBC", "Monzo", "Wells Fargo", "Lloyds", "Revolut", "TD Bank"],
)
PL["de"] = dict(
    pin_things={"bank_pin": ["PIN meiner EC-Karte", "Geheimzahl für die {bank}-Karte", "Karten-PIN"],
                "phone_pin": ["Entsperr-PIN vom Handy", "Handy-PIN"], "sim_pin": ["SIM-PIN", "PIN der neuen SIM-Karte"],
                "voicemail_pin": ["Mailbox-PIN", "PIN für die Sprachbox"], "alarm_code": ["Code der Alarmanlage", "Alarmanlagen-Code im Laden"],
                "door_code": ["Türcode vom Haus", "Code für die Haustür", "Zahlencode am Hoftor"],
                "safe_combination": ["Tresor-Kombination", "Code vom Hotelsafe"],
                "locker_combination": ["Spind-Code im Fitnessstudio", "Schließfachcode im Schwimmbad"],
                "garage_code": ["Garagentor-Code", "Code für die Tiefgarage"], "bike_lock_code": ["Zahlenschloss vom Fahrrad", "Fahrradschloss-Code"]},
    pw_things={"account_password": ["Passwort für mein {svc}-Konto", "{svc}-Passwort"],
               "email_password": ["Passwort für mein {mail}-Postfach", "E-Mail-Passwort ({mail})"],
               "laptop_password": ["Anmeldepasswort vom Laptop", "Passwort für den Familien-PC"],
               "router_admin_password": ["Passwort für die Fritzbox-Oberfläche", "Router-Admin-Passwort"],
               "streaming_password": ["Netflix-Passwort, das wir mit meinen Eltern teilen", "Passwort für Disney+"],
               "pm_master_password": ["Masterpasswort für Bitwarden", "Hauptpasswort von KeePass"],
               "vpn_password": ["VPN-Passwort für die Arbeit"]},
    pin_frames=["Bitte merken: {thing} ist {val}.", "{Thing}: {val} (nicht weitersagen!)", "Notiz an mich: {thing} = {val}",
                "Falls ich es wieder vergesse – {thing} lautet {val}.", "Habe gestern {thing} geändert, neu ist {val}."],
    pw_frames=["{Thing}: {val}", "Bitte speichern, {thing} lautet {val}.", "Hab {thing} zurückgesetzt, neu: {val}",
               "Nur für dich: {thing} ist {val}, Groß-/Kleinschreibung beachten."],
    wifi_frames=["WLAN-Passwort zu Hause ({ssid}): {val}", "Für Gäste: das WLAN heißt {ssid}, Schlüssel {val}."],
    card_frames=["Meine {brand}: {num}, gültig bis {exp}, Prüfziffer {cvv}.",
                 "Kreditkarte für Online-Einkäufe – Nummer {num}, Ablauf {exp}, CVC {cvv}"],
    bank_frames=["Onlinebanking {bank}: Anmeldename {user}, Passwort {pw}", "Zugang {bank}: Legitimations-ID {user} und PIN {pw}"],
    otp_frames=["Der Bestätigungscode von {svc} ist {val}, bitte eingeben.", "TAN für die Überweisung bei {svc}: {val}"],
    codes_frames=["Backup-Codes für {svc}: {codes}"], seed_frames=["Wiederherstellungsphrase meiner {wallet}-Wallet: {words}"],
    answer_frames=["Sicherheitsfrage bei {bank} („{q}“): Antwort {val}"],
    questions=["Name des ersten Haustiers", "Geburtsort der Mutter", "Lieblingslehrer"],
    chat_q=["Wie war nochmal {thing}?", "Kannst du mir {thing} schicken?"], chat_a=["{val}", "ist {val}", "{val} – aber nicht weitergeben"],
    chat_end=["danke!", "super, danke 🙏"], tails=["", " Danke!", " Vergesse ich sonst immer."],
    banks=["Sparkasse", "ING", "Commerzbank", "DKB", "Volksbank"])
PL["fr"] = dict(
    pin_things={"bank_pin": ["le code de ma carte bancaire", "le code PIN de la carte {bank}"],
                "phone_pin": ["le code de déverrouillage du téléphone", "le code PIN du portable"],
                "sim_pin": ["le code PIN de la carte SIM"], "voicemail_pin": ["le code de la messagerie vocale"],
                "alarm_code": ["le code de l'alarme de la maison", "le code pour désactiver l'alarme"],
                "door_code": ["le digicode de l'immeuble", "le code de la porte d'entrée"],
                "safe_combination": ["la combinaison du coffre-fort"], "locker_combination": ["le code du casier à la salle de sport"],
                "garage_code": ["le code du portail du garage"], "bike_lock_code": ["le code du cadenas du vélo"]},
    pw_things={"account_password": ["le mot de passe de mon compte {svc}"], "email_password": ["le mot de passe de ma boîte {mail}"],
               "laptop_password": ["le mot de passe de session de l'ordinateur portable"],
               "router_admin_password": ["le mot de passe admin de la Livebox"],
               "streaming_password": ["le mot de passe Netflix partagé avec mes parents"],
               "pm_master_password": ["le mot de passe maître de Bitwarden"], "vpn_password": ["le mot de passe du VPN du bureau"]},
    pin_frames=["Retiens bien : {thing}, c'est {val}.", "{Thing} : {val}", "Note pour moi : {thing} = {val}",
                "Si j'oublie encore, {thing} c'est {val}.", "J'ai changé {thing} hier, maintenant c'est {val}."],
    pw_frames=["Garde-moi {thing} : {val}", "{Thing} est {val}, avec les majuscules exactement comme ça.",
               "Je viens de réinitialiser {thing}, le nouveau est {val}.", "Au cas où il m'arrive quelque chose, {thing} est {val}."],
    wifi_frames=["Le mot de passe du wifi de la maison ({ssid}) est {val}", "Pour les invités : réseau {ssid}, clé {val}"],
    card_frames=["Ma {brand} : {num}, expire {exp}, cryptogramme {cvv}.", "Carte pour les achats en ligne — numéro {num}, date d'expiration {exp}, code {cvv}"],
    bank_frames=["Banque en ligne {bank} : identifiant {user}, mot de passe {pw}", "Pour {bank}, l'identifiant est {user} et le code {pw}"],
    otp_frames=["Le code de vérification de {svc} est {val}, tu peux le saisir ?", "Code SMS {svc} : {val} (valable 5 minutes)"],
    codes_frames=["Codes de secours {svc} : {codes}"], seed_frames=["Phrase de récupération de mon portefeuille {wallet} : {words}"],
    answer_frames=["Question secrète chez {bank} (« {q} ») : réponse {val}"],
    questions=["nom de mon premier animal", "ville natale de ma mère"],
    chat_q=["C'était quoi {thing} déjà ?", "Tu peux m'envoyer {thing} ?"], chat_a=["{val}", "c'est {val}"],
    chat_end=["merci !", "top 👍"], tails=["", " Merci !", " Je l'oublie tout le temps."],
    banks=["BNP Paribas", "Crédit Agricole", "Société Générale", "Boursorama", "La Banque Postale"])
PL["es"] = dict(
    pin_things={"bank_pin": ["el PIN de mi tarjeta de débito", "el número secreto de la tarjeta de {bank}"],
                "phone_pin": ["el PIN para desbloquear el móvil"], "sim_pin": ["el PIN de la tarjeta SIM"],
                "voicemail_pin": ["el PIN del buzón de voz"], "alarm_code": ["el código de la alarma de casa"],
                "door_code": ["el código del portal", "el código de la puerta del edificio"],
                "safe_combination": ["la combinación de la caja fuerte"], "locker_combination": ["el código de la taquilla del gimnasio"],
                "garage_code": ["el código de la puerta del garaje"], "bike_lock_code": ["la combinación del candado de la bici"]},
    pw_things={"account_password": ["la contraseña de mi cuenta de {svc}"], "email_password": ["la contraseña del correo de {mail}"],
               "laptop_password": ["la contraseña del portátil"], "router_admin_password": ["la contraseña de administrador del router"],
               "streaming_password": ["la contraseña de Netflix que compartimos con mis padres"],
               "pm_master_password": ["la contraseña maestra de Bitwarden"], "vpn_password": ["la clave del VPN del trabajo"]},
    pin_frames=["Recuerda: {thing} es {val}.", "Apunta {thing}: {val}", "Si se me olvida otra vez, {thing} es {val}.",
                "Cambié {thing} ayer, ahora es {val}.", "Nota para mí: {thing} -> {val}"],
    pw_frames=["Guárdame {thing}: {val}", "{Thing} es {val}, con mayúsculas tal cual.", "Acabo de cambiar {thing}; la nueva es {val}.",
               "Por si me pasa algo, {thing} es {val}."],
    wifi_frames=["La contraseña del wifi de casa ({ssid}) es {val}", "Wifi para las visitas: red {ssid}, clave {val}"],
    card_frames=["Mi {brand}: {num}, caduca {exp}, CVV {cvv}.", "Tarjeta para compras online — número {num}, vencimiento {exp}, código de seguridad {cvv}"],
    bank_frames=["Banca online de {bank}: usuario {user}, contraseña {pw}", "Para entrar en {bank}: usuario {user} y clave {pw}"],
    otp_frames=["El código de verificación de {svc} es {val}, mételo tú.", "Código SMS de {svc}: {val} (caduca en 5 minutos)"],
    codes_frames=["Códigos de respaldo de {svc}: {codes}"], seed_frames=["Frase semilla de mi cartera {wallet}: {words}"],
    answer_frames=["Pregunta de seguridad de {bank} («{q}»): respuesta {val}"],
    questions=["nombre de mi primera mascota", "ciudad natal de mi madre", "mi profesor favorito"],
    chat_q=["¿Cuál era {thing}?", "¿Me pasas {thing}?"], chat_a=["{val}", "es {val}", "{val}, no se lo digas a nadie"],
    chat_end=["¡gracias!", "perfecto 👍"], tails=["", " ¡Gracias!", " Siempre se me olvida."],
    banks=["BBVA", "Santander", "CaixaBank", "ING", "Sabadell"])
PL["it"] = dict(
    pin_things={"bank_pin": ["il PIN del bancomat", "il PIN della carta {bank}"], "phone_pin": ["il codice di sblocco del telefono"],
                "sim_pin": ["il PIN della SIM"], "voicemail_pin": ["il PIN della segreteria"], "alarm_code": ["il codice dell'allarme di casa"],
                "door_code": ["il codice del portone", "il codice del cancello"], "safe_combination": ["la combinazione della cassaforte"],
                "locker_combination": ["il codice dell'armadietto in palestra"], "garage_code": ["il codice del garage"],
                "bike_lock_code": ["la combinazione del lucchetto della bici"]},
    pw_things={"account_password": ["la password del mio account {svc}"], "email_password": ["la password della mail {mail}"],
               "laptop_password": ["la password del portatile"], "router_admin_password": ["la password di amministrazione del modem"],
               "streaming_password": ["la password di Netflix condivisa con i miei"], "pm_master_password": ["la master password di Bitwarden"],
               "vpn_password": ["la password della VPN aziendale"]},
    pin_frames=["Ricordati: {thing} è {val}.", "Segna {thing}: {val}", "Se me lo scordo di nuovo, {thing} è {val}.",
                "Ho cambiato {thing} ieri, adesso è {val}.", "Promemoria: {thing} -> {val}"],
    pw_frames=["Salvami {thing}: {val}", "{Thing} è {val}, con le maiuscole esatte.", "Ho appena cambiato {thing}, la nuova è {val}.",
               "Nel caso mi succeda qualcosa, {thing} è {val}."],
    wifi_frames=["La password del wifi di casa ({ssid}) è {val}", "Wifi ospiti: rete {ssid}, chiave {val}"],
    card_frames=["La mia {brand}: {num}, scadenza {exp}, CVV {cvv}.", "Carta per gli acquisti online: numero {num}, scade {exp}, codice {cvv}"],
    bank_frames=["Home banking {bank}: codice utente {user}, password {pw}"],
    otp_frames=["Il codice di verifica di {svc} è {val}, inseriscilo tu."], codes_frames=["Codici di backup di {svc}: {codes}"],
    seed_frames=["Frase di recupero del wallet {wallet}: {words}"], answer_frames=["Domanda di sicurezza di {bank} («{q}»): risposta {val}"],
    questions=["nome del primo animale", "città natale di mia madre"], chat_q=["Qual era {thing}?", "Mi mandi {thing}?"],
    chat_a=["{val}", "è {val}"], chat_end=["grazie!", "perfetto"], tails=["", " Grazie!", " Me lo dimentico sempre."],
    banks=["Intesa Sanpaolo", "UniCredit", "Fineco", "BPER"])
PL["pt"] = dict(
    pin_things={"bank_pin": ["o PIN do meu cartão multibanco", "a senha do cartão do {bank}"],
                "phone_pin": ["o código de desbloqueio do telemóvel", "a senha do celular"], "sim_pin": ["o PIN do cartão SIM"],
                "voicemail_pin": ["o PIN da caixa de correio de voz"], "alarm_code": ["o código do alarme de casa"],
                "door_code": ["o código da porta do prédio"], "safe_combination": ["a combinação do cofre"],
                "locker_combination": ["o código do cacifo no ginásio"], "garage_code": ["o código do portão da garagem"],
                "bike_lock_code": ["o código do cadeado da bicicleta"]},
    pw_things={"account_password": ["a senha da minha conta {svc}"], "email_password": ["a palavra-passe do email {mail}"],
               "laptop_password": ["a senha do portátil"], "router_admin_password": ["a senha de administrador do router"],
               "streaming_password": ["a senha da Netflix partilhada com os meus pais"], "pm_master_password": ["a senha mestra do Bitwarden"],
               "vpn_password": ["a senha da VPN do trabalho"]},
    pin_frames=["Lembra: {thing} é {val}.", "Anota {thing}: {val}", "Se eu esquecer de novo, {thing} é {val}.", "Mudei {thing} ontem, agora é {val}."],
    pw_frames=["Guarda {thing}: {val}", "{Thing} é {val}, com maiúsculas assim mesmo.", "Acabei de trocar {thing}, a nova é {val}."],
    wifi_frames=["A senha do wifi de casa ({ssid}) é {val}", "Wi-Fi das visitas: rede {ssid}, senha {val}"],
    card_frames=["O meu {brand}: {num}, validade {exp}, CVV {cvv}.", "Cartão para compras online — número {num}, expira {exp}, código {cvv}"],
    bank_frames=["Homebanking {bank}: utilizador {user}, senha {pw}"], otp_frames=["O código de verificação do {svc} é {val}, mete tu."],
    codes_frames=["Códigos de backup do {svc}: {codes}"], seed_frames=["Frase de recuperação da carteira {wallet}: {words}"],
    answer_frames=["Pergunta de segurança do {bank} («{q}»): resposta {val}"],
    questions=["nome do primeiro animal de estimação", "cidade natal da minha mãe"], chat_q=["Qual era {thing}?", "Manda-me {thing}?"],
    chat_a=["{val}", "é {val}"], chat_end=["obrigado!", "valeu 👍"], tails=["", " Obrigado!", " Esqueço sempre."],
    banks=["Millennium BCP", "Caixa Geral", "Nubank", "Itaú", "Santander Totta"])
PL["nl"] = dict(
    pin_things={"bank_pin": ["pincode van mijn bankpas"], "phone_pin": ["ontgrendelcode van mijn telefoon"],
                "sim_pin": ["pincode van de simkaart"], "voicemail_pin": ["pincode van de voicemail"], "alarm_code": ["code van het alarm thuis"],
                "door_code": ["deurcode van het gebouw"], "safe_combination": ["combinatie van de kluis"],
                "locker_combination": ["code van het kluisje in de sportschool"], "garage_code": ["code van de garagedeur"],
                "bike_lock_code": ["cijfercode van het fietsslot"]},
    pw_things={"account_password": ["wachtwoord van mijn {svc}-account"], "email_password": ["wachtwoord van mijn {mail}-mail"],
               "laptop_password": ["inlogwachtwoord van de laptop"], "router_admin_password": ["beheerderswachtwoord van de router"],
               "streaming_password": ["Netflix-wachtwoord dat we delen met mijn ouders"], "pm_master_password": ["hoofdwachtwoord van Bitwarden"],
               "vpn_password": ["VPN-wachtwoord van het werk"]},
    pin_frames=["Onthoud even: de {thing} is {val}.", "{Thing}: {val}", "Als ik het weer vergeet, de {thing} is {val}.",
                "Gisteren de {thing} veranderd, nieuw is {val}."],
    pw_frames=["Bewaar dit: {thing} is {val}", "Het {thing} is nu {val}, hoofdletters precies zo.", "Net het {thing} gereset, nieuw: {val}"],
    wifi_frames=["Wifi-wachtwoord thuis ({ssid}): {val}", "Voor gasten: netwerk {ssid}, wachtwoord {val}"],
    card_frames=["Mijn {brand}: {num}, geldig tot {exp}, CVC {cvv}."], bank_frames=["Internetbankieren {bank}: gebruikersnaam {user}, wachtwoord {pw}"],
    otp_frames=["De verificatiecode van {svc} is {val}, vul jij hem in?"], codes_frames=["Back-upcodes voor {svc}: {codes}"],
    seed_frames=["Herstelzin van mijn {wallet}-wallet: {words}"], answer_frames=["Beveiligingsvraag bij {bank} ('{q}'): antwoord {val}"],
    questions=["naam van mijn eerste huisdier", "geboorteplaats van mijn moeder"], chat_q=["Wat was {thing} ook alweer?", "Kun je {thing} sturen?"],
    chat_a=["{val}", "is {val}"], chat_end=["dank je!", "top 👍"], tails=["", " Dankjewel!", " Vergeet ik altijd."],
    banks=["ING", "Rabobank", "ABN AMRO", "bunq"])
PL["pl"] = dict(
    pin_things={"bank_pin": ["PIN do karty debetowej", "PIN do karty w {bank}"], "phone_pin": ["PIN do odblokowania telefonu"],
                "sim_pin": ["PIN do karty SIM"], "voicemail_pin": ["PIN do poczty głosowej"], "alarm_code": ["kod do alarmu w domu"],
                "door_code": ["kod do domofonu", "kod do bramy"], "safe_combination": ["szyfr do sejfu"],
                "locker_combination": ["kod do szafki na siłowni"], "garage_code": ["kod do bramy garażowej"], "bike_lock_code": ["szyfr do zapięcia roweru"]},
    pw_things={"account_password": ["hasło do konta {svc}"], "email_password": ["hasło do poczty {mail}"], "laptop_password": ["hasło do laptopa"],
               "router_admin_password": ["hasło administratora routera"], "streaming_password": ["hasło do Netflixa, które dzielimy z rodzicami"],
               "pm_master_password": ["hasło główne do Bitwardena"], "vpn_password": ["hasło do firmowego VPN"]},
    pin_frames=["Zapamiętaj: {thing} to {val}.", "{Thing}: {val}", "Jakbym znowu zapomniał, {thing} to {val}.", "Zmieniłem wczoraj {thing}, teraz jest {val}."],
    pw_frames=["Zapisz mi {thing}: {val}", "{Thing} to {val}, wielkość liter ma znaczenie.", "Właśnie zmieniłam {thing}, nowe to {val}."],
    wifi_frames=["Hasło do Wi-Fi w domu ({ssid}): {val}", "Dla gości: sieć {ssid}, hasło {val}"],
    card_frames=["Moja {brand}: {num}, ważna do {exp}, CVV {cvv}."], bank_frames=["Bankowość internetowa {bank}: login {user}, hasło {pw}"],
    otp_frames=["Kod weryfikacyjny z {svc} to {val}, wpisz go."], codes_frames=["Kody zapasowe do {svc}: {codes}"],
    seed_frames=["Fraza odzyskiwania portfela {wallet}: {words}"], answer_frames=["Pytanie bezpieczeństwa w {bank} („{q}”): odpowiedź {val}"],
    questions=["imię pierwszego zwierzaka", "nazwisko panieńskie matki"], chat_q=["Przypomnisz mi {thing}?", "Podeślesz {thing}?"],
    chat_a=["{val}", "to {val}"], chat_end=["dzięki!", "super 👍"], tails=["", " Dzięki!", " Zawsze zapominam."],
    banks=["PKO BP", "mBank", "Pekao", "ING Bank Śląski"])
PL["sv"] = dict(
    pin_things={"bank_pin": ["pinkoden till bankkortet"], "phone_pin": ["koden för att låsa upp mobilen"], "sim_pin": ["pinkoden till SIM-kortet"],
                "voicemail_pin": ["koden till röstbrevlådan"], "alarm_code": ["larmkoden hemma"], "door_code": ["portkoden"],
                "safe_combination": ["kombinationen till kassaskåpet"], "locker_combination": ["koden till skåpet på gymmet"],
                "garage_code": ["koden till garageporten"], "bike_lock_code": ["koden till cykellåset"]},
    pw_things={"account_password": ["lösenordet till mitt {svc}-konto"], "email_password": ["lösenordet till min {mail}-mejl"],
               "laptop_password": ["inloggningslösenordet på laptopen"], "router_admin_password": ["adminlösenordet till routern"],
               "streaming_password": ["Netflix-lösenordet vi delar med mina föräldrar"], "pm_master_password": ["huvudlösenordet till Bitwarden"],
               "vpn_password": ["VPN-lösenordet till jobbet"]},
    pin_frames=["Kom ihåg: {thing} är {val}.", "{Thing}: {val}", "Om jag glömmer igen så är {thing} {val}.", "Bytte {thing} igår, nu är det {val}."],
    pw_frames=["Spara {thing} åt mig: {val}", "{Thing} är {val}, exakt med stora bokstäver.", "Har precis bytt {thing}, det nya är {val}."],
    wifi_frames=["Wifi-lösenordet hemma ({ssid}): {val}", "För gäster: nätverket {ssid}, lösenord {val}"],
    card_frames=["Mitt {brand}: {num}, giltigt till {exp}, CVC {cvv}."], bank_frames=["Internetbanken hos {bank}: användare {user}, lösenord {pw}"],
    otp_frames=["Verifieringskoden från {svc} är {val}, skriv in den."], codes_frames=["Reservkoder för {svc}: {codes}"],
    seed_frames=["Återställningsfras för min {wallet}-plånbok: {words}"], answer_frames=["Säkerhetsfrågan hos {bank} (\"{q}\"): svaret är {val}"],
    questions=["mitt första husdjurs namn", "mammas födelseort"], chat_q=["Vad var {thing} nu igen?", "Kan du skicka {thing}?"],
    chat_a=["{val}", "det är {val}"], chat_end=["tack!", "toppen 👍"], tails=["", " Tack!", " Glömmer det alltid."],
    banks=["Swedbank", "Handelsbanken", "SEB", "Nordea"])
PL["tr"] = dict(
    pin_things={"bank_pin": ["banka kartımın şifresi", "{bank} kartının PIN'i"], "phone_pin": ["telefonun kilit şifresi"],
                "sim_pin": ["SIM kart PIN kodu"], "voicemail_pin": ["sesli mesaj şifresi"], "alarm_code": ["evin alarm kodu"],
                "door_code": ["apartman kapı kodu"], "safe_combination": ["kasanın şifresi"], "locker_combination": ["spor salonundaki dolabın şifresi"],
                "garage_code": ["garaj kapısının kodu"], "bike_lock_code": ["bisiklet kilidinin şifresi"]},
    pw_things={"account_password": ["{svc} hesabımın şifresi"], "email_password": ["{mail} e-posta şifrem"],
               "laptop_password": ["dizüstü bilgisayarın giriş şifresi"], "router_admin_password": ["modem yönetici şifresi"],
               "streaming_password": ["annemlerle paylaştığımız Netflix şifresi"], "pm_master_password": ["Bitwarden ana şifresi"],
               "vpn_password": ["iş VPN şifresi"]},
    pin_frames=["Unutma: {thing} {val}.", "{Thing}: {val}", "Yine unutursam diye, {thing} {val}.", "Dün değiştirdim; {thing} artık {val}."],
    pw_frames=["Bunu sakla: {thing} {val}", "{Thing} {val}, büyük harfler aynen böyle.", "Az önce sıfırladım, yeni {thing}: {val}"],
    wifi_frames=["Evdeki wifi şifresi ({ssid}): {val}", "Misafirler için: ağ {ssid}, şifre {val}"],
    card_frames=["{brand} kartım: {num}, son kullanma {exp}, CVV {cvv}."], bank_frames=["{bank} internet bankacılığı: müşteri no {user}, şifre {pw}"],
    otp_frames=["{svc} doğrulama kodu {val}, sen gir."], codes_frames=["{svc} yedek kodları: {codes}"],
    seed_frames=["{wallet} cüzdanımın kurtarma kelimeleri: {words}"], answer_frames=["{bank} güvenlik sorusu (\"{q}\"): cevap {val}"],
    questions=["ilk evcil hayvanımın adı", "annemin doğduğu şehir"], chat_q=["{thing} neydi?", "{thing} atar mısın?"],
    chat_a=["{val}", "{val} tabii"], chat_end=["sağ ol!", "süper 👍"], tails=["", " Teşekkürler!", " Hep unutuyorum."],
    banks=["Garanti BBVA", "İş Bankası", "Akbank", "Yapı Kredi"])
PL["ru"] = dict(
    pin_things={"bank_pin": ["ПИН-код банковской карты", "пин от карты {bank}"], "phone_pin": ["код разблокировки телефона"],
                "sim_pin": ["PIN-код SIM-карты"], "voicemail_pin": ["код голосовой почты"], "alarm_code": ["код сигнализации на даче"],
                "door_code": ["код домофона", "код от подъезда"], "safe_combination": ["код от сейфа"], "locker_combination": ["код шкафчика в спортзале"],
                "garage_code": ["код от гаража"], "bike_lock_code": ["код велосипедного замка"]},
    pw_things={"account_password": ["пароль от аккаунта {svc}"], "email_password": ["пароль от почты {mail}"], "laptop_password": ["пароль от ноутбука"],
               "router_admin_password": ["пароль администратора роутера"], "streaming_password": ["пароль от Netflix, который мы делим с родителями"],
               "pm_master_password": ["мастер-пароль Bitwarden"], "vpn_password": ["пароль от рабочего VPN"]},
    pin_frames=["Запомни: {thing} — {val}.", "{Thing}: {val}", "Если опять забуду: {thing} {val}.", "Вчера поменял {thing}, теперь {val}."],
    pw_frames=["Сохрани {thing}: {val}", "{Thing} — {val}, заглавные буквы именно так.", "Только что сбросил {thing}, новый: {val}"],
    wifi_frames=["Пароль от домашнего вайфая ({ssid}): {val}", "Для гостей: сеть {ssid}, пароль {val}"],
    card_frames=["Моя карта {brand}: {num}, срок {exp}, CVV {cvv}."], bank_frames=["Интернет-банк {bank}: логин {user}, пароль {pw}"],
    otp_frames=["Код подтверждения от {svc}: {val}, введи его."], codes_frames=["Резервные коды {svc}: {codes}"],
    seed_frames=["Сид-фраза кошелька {wallet}: {words}"], answer_frames=["Контрольный вопрос в {bank} («{q}»): ответ {val}"],
    questions=["кличка первого питомца", "девичья фамилия матери"], chat_q=["Какой {thing}?", "Скинь {thing}, пожалуйста"],
    chat_a=["{val}", "{val}, никому не говори"], chat_end=["спасибо!", "👍"], tails=["", " Спасибо!", " Вечно забываю."],
    banks=["Сбербанк", "Т-Банк", "ВТБ", "Альфа-Банк"])
PL["ja"] = dict(
    pin_things={"bank_pin": ["キャッシュカードの暗証番号"], "phone_pin": ["スマホのロック解除パスコード"], "sim_pin": ["SIMカードのPINコード"],
                "voicemail_pin": ["留守電の暗証番号"], "alarm_code": ["ホームセキュリティの解除コード"], "door_code": ["マンションのオートロックの番号"],
                "safe_combination": ["金庫の番号"], "locker_combination": ["ジムのロッカーの番号"], "garage_code": ["ガレージのシャッターの暗証番号"],
                "bike_lock_code": ["自転車のダイヤルロックの番号"]},
    pw_things={"account_password": ["{svc}アカウントのパスワード"], "email_password": ["{mail}のメールのパスワード"],
               "laptop_password": ["ノートPCのログインパスワード"], "router_admin_password": ["ルーターの管理者パスワード"],
               "streaming_password": ["両親と共有しているNetflixのパスワード"], "pm_master_password": ["Bitwardenのマスターパスワード"],
               "vpn_password": ["会社のVPNのパスワード"]},
    pin_frames=["覚えておいて：{thing}は{val}です。", "{thing}：{val}", "また忘れたとき用に、{thing}は{val}。", "昨日{thing}を変えた。新しいのは{val}。"],
    pw_frames=["{thing}を保存しておいて：{val}", "{thing}は{val}（大文字小文字そのまま）", "{thing}をリセットしたので新しいのは{val}です。"],
    wifi_frames=["家のWi-Fi（{ssid}）のパスワードは{val}", "来客用：ネットワーク{ssid}、パスワード{val}"],
    card_frames=["{brand}カード：{num}、有効期限{exp}、セキュリティコード{cvv}。"], bank_frames=["{bank}のネットバンキング：ID {user}、パスワード {pw}"],
    otp_frames=["{svc}から届いた確認コードは{val}、入力しておいて。"], codes_frames=["{svc}のバックアップコード：{codes}"],
    seed_frames=["{wallet}ウォレットの復元フレーズ：{words}"], answer_frames=["{bank}の秘密の質問（「{q}」）の答えは{val}"],
    questions=["初めて飼ったペットの名前", "母の出身地"], chat_q=["{thing}って何だっけ？", "{thing}教えて"],
    chat_a=["{val}", "{val}だよ"], chat_end=["ありがとう！", "助かる🙏"], tails=["", " ありがとう！", " いつも忘れる。"],
    banks=["三菱UFJ銀行", "ゆうちょ銀行", "楽天銀行", "みずほ銀行"])
PL["zh"] = dict(
    pin_things={"bank_pin": ["银行卡密码"], "phone_pin": ["手机锁屏密码"], "sim_pin": ["SIM卡的PIN码"], "voicemail_pin": ["语音信箱密码"],
                "alarm_code": ["家里报警器的密码"], "door_code": ["小区门禁密码", "楼下大门的密码"], "safe_combination": ["保险箱密码"],
                "locker_combination": ["健身房储物柜密码"], "garage_code": ["车库门密码"], "bike_lock_code": ["自行车密码锁的号码"]},
    pw_things={"account_password": ["我的{svc}账号密码"], "email_password": ["{mail}邮箱密码"], "laptop_password": ["笔记本电脑开机密码"],
               "router_admin_password": ["路由器管理员密码"], "streaming_password": ["和爸妈共用的Netflix密码"],
               "pm_master_password": ["Bitwarden主密码"], "vpn_password": ["公司VPN密码"]},
    pin_frames=["记住：{thing}是{val}。", "{thing}：{val}", "万一我又忘了，{thing}是{val}。", "昨天改了{thing}，现在是{val}。"],
    pw_frames=["帮我记一下{thing}：{val}", "{thing}是{val}，注意大小写。", "刚重置了{thing}，新的是{val}。"],
    wifi_frames=["家里WiFi（{ssid}）密码是{val}", "给客人用的：网络{ssid}，密码{val}"],
    card_frames=["我的{brand}卡：{num}，有效期{exp}，安全码{cvv}。"], bank_frames=["{bank}网银：用户名{user}，登录密码{pw}"],
    otp_frames=["{svc}发来的验证码是{val}，帮我填一下。"], codes_frames=["{svc}的备用验证码：{codes}"],
    seed_frames=["{wallet}钱包助记词：{words}"], answer_frames=["{bank}的安全问题（“{q}”）答案是{val}"],
    questions=["第一只宠物的名字", "母亲的出生地"], chat_q=["{thing}是多少来着？", "把{thing}发我一下"],
    chat_a=["{val}", "是{val}"], chat_end=["谢谢！", "好的👌"], tails=["", " 谢谢！", " 老是忘。"],
    banks=["招商银行", "工商银行", "建设银行", "中国银行"])
PL["ar"] = dict(
    pin_things={"bank_pin": ["الرقم السري لبطاقة البنك"], "phone_pin": ["رمز فتح قفل الهاتف"], "sim_pin": ["رمز PIN لشريحة الجوال"],
                "voicemail_pin": ["رمز البريد الصوتي"], "alarm_code": ["رمز إنذار البيت"], "door_code": ["رمز باب العمارة"],
                "safe_combination": ["رقم الخزنة"], "locker_combination": ["رمز خزانة النادي الرياضي"], "garage_code": ["رمز باب المرآب"],
                "bike_lock_code": ["رقم قفل الدراجة"]},
    pw_things={"account_password": ["كلمة مرور حسابي على {svc}"], "email_password": ["كلمة مرور بريد {mail}"],
               "laptop_password": ["كلمة مرور الحاسوب المحمول"], "router_admin_password": ["كلمة مرور مدير الراوتر"],
               "streaming_password": ["كلمة مرور نتفليكس المشتركة مع أهلي"], "pm_master_password": ["كلمة المرور الرئيسية لـ Bitwarden"],
               "vpn_password": ["كلمة مرور VPN العمل"]},
    pin_frames=["تذكّر: {thing} هو {val}.", "{thing}: {val}", "إذا نسيت مرة أخرى، {thing} هو {val}.", "غيّرت {thing} أمس، الجديد {val}."],
    pw_frames=["احفظ لي {thing}: {val}", "{thing} هي {val} بالأحرف الكبيرة كما هي.", "أعدت تعيين {thing}، الجديدة {val}."],
    wifi_frames=["كلمة سر الواي فاي في البيت ({ssid}): {val}", "للضيوف: الشبكة {ssid}، كلمة السر {val}"],
    card_frames=["بطاقتي {brand}: {num}، تنتهي {exp}، رمز الأمان {cvv}."],
    bank_frames=["الخدمات المصرفية عبر الإنترنت في {bank}: اسم المستخدم {user}، كلمة المرور {pw}"],
    otp_frames=["رمز التحقق من {svc} هو {val}، أدخله أنت."], codes_frames=["رموز الاحتياط لـ {svc}: {codes}"],
    seed_frames=["عبارة الاسترداد لمحفظة {wallet}: {words}"], answer_frames=["سؤال الأمان في {bank} («{q}»): الجواب {val}"],
    questions=["اسم أول حيوان أليف", "مدينة ميلاد أمي"], chat_q=["شو كان {thing}؟", "ابعث لي {thing} لو سمحت"],
    chat_a=["{val}", "هو {val}"], chat_end=["شكراً!", "تمام 👍"], tails=["", " شكراً!", " دائماً أنساه."],
    banks=["بنك الراجحي", "البنك الأهلي", "بنك مصر", "بنك الإمارات دبي الوطني"])
PL["ko"] = dict(
    pin_things={"bank_pin": ["체크카드 비밀번호"], "phone_pin": ["휴대폰 잠금 비밀번호"], "sim_pin": ["유심 PIN 번호"],
                "voicemail_pin": ["음성사서함 비밀번호"], "alarm_code": ["집 보안 경보 해제 번호"], "door_code": ["아파트 공동현관 비밀번호", "현관 도어락 비밀번호"],
                "safe_combination": ["금고 비밀번호"], "locker_combination": ["헬스장 사물함 번호"], "garage_code": ["차고 문 비밀번호"],
                "bike_lock_code": ["자전거 자물쇠 번호"]},
    pw_things={"account_password": ["{svc} 계정 비밀번호"], "email_password": ["{mail} 메일 비밀번호"], "laptop_password": ["노트북 로그인 비밀번호"],
               "router_admin_password": ["공유기 관리자 비밀번호"], "streaming_password": ["부모님이랑 같이 쓰는 넷플릭스 비밀번호"],
               "pm_master_password": ["Bitwarden 마스터 비밀번호"], "vpn_password": ["회사 VPN 비밀번호"]},
    pin_frames=["기억해 줘: {thing}는 {val}이야.", "{thing}: {val}", "또 잊어버릴까 봐, {thing} {val}.", "어제 {thing} 바꿨어, 이제 {val}."],
    pw_frames=["{thing} 저장해 줘: {val}", "{thing}는 {val}, 대소문자 그대로.", "{thing} 재설정했어, 새 거는 {val}."],
    wifi_frames=["집 와이파이({ssid}) 비밀번호는 {val}", "손님용: 네트워크 {ssid}, 비밀번호 {val}"],
    card_frames=["내 {brand} 카드: {num}, 유효기간 {exp}, CVC {cvv}."], bank_frames=["{bank} 인터넷뱅킹: 아이디 {user}, 비밀번호 {pw}"],
    otp_frames=["{svc}에서 온 인증번호는 {val}, 입력해 줘."], codes_frames=["{svc} 백업 코드: {codes}"],
    seed_frames=["{wallet} 지갑 복구 구문: {words}"], answer_frames=["{bank} 보안 질문(\"{q}\") 답: {val}"],
    questions=["첫 반려동물 이름", "어머니 고향"], chat_q=["{thing} 뭐였지?", "{thing} 좀 보내 줘"],
    chat_a=["{val}", "{val}이야"], chat_end=["고마워!", "👍"], tails=["", " 고마워!", " 맨날 까먹어."],
    banks=["국민은행", "신한은행", "카카오뱅크", "우리은행"])
LANGS = list(PL)


# ------------------------------------------------------------ personal secrets: generation
def cap(s):
    return s[:1].upper() + s[1:]


def thing_for(lang, kind):
    d = PL[lang]
    t = pick(d["pin_things"].get(kind) or d["pw_things"][kind])
    return t.format(svc=pick(SVCS), mail=pick(MAILS), bank=pick(d["banks"]))


def wifi_val(lang):
    return pick([password(lang), rs(R.randint(12, 20), AN), " ".join(digits(4) for _ in range(5)),
                 "-".join(rs(4, ANL) for _ in range(3)), pick(BIP39) + pick(BIP39).capitalize() + digits(4)])


def pad(text, d):
    n = 0
    while len(text) < 40 and n < 3:
        t = pick([x for x in d["tails"] if x])
        if t not in text:
            text += t
        n += 1
    return text


def personal_secret(lang, cat, kind=None):
    d = PL[lang]
    tail = pick(d["tails"])
    if cat == "pin":
        kind = kind or pick(PIN_KINDS + (PIN_KINDS_EN_EXTRA if lang == "en" else []))
        val = pin_val(kind)
        thing = thing_for(lang, kind)
        text = pick(d["pin_frames"]).format(thing=thing, Thing=cap(thing), val=val) + tail
        needles = [val]
    elif cat == "pw":
        kind = kind or pick(PW_KINDS + (PW_KINDS_EN_EXTRA if lang == "en" else []))
        val = pw_val(kind, lang)
        thing = thing_for(lang, kind)
        text = pick(d["pw_frames"]).format(thing=thing, Thing=cap(thing), val=val) + tail
        needles = [val]
    elif cat == "wifi":
        kind = "wifi_password"
        val = wifi_val(lang)
        text = pick(d["wifi_frames"]).format(ssid=pick(SSIDS), val=val) + tail
        needles = [val]
    elif cat == "card":
        kind = "card_full"
        brand, num, fmt, exp, cvv = card()
        text = pick(d["card_frames"]).format(brand=brand, num=fmt, exp=exp, cvv=cvv, name=person(), pin=pin(4)) + tail
        needles = [fmt, cvv]
    elif cat == "bank":
        kind = "bank_login"
        pw = password(lang) if R.random() < 0.7 else pin(R.choice([5, 6, 8]))
        text = pick(d["bank_frames"]).format(bank=pick(d["banks"]), user=bank_user(), pw=pw) + tail
        needles = [pw]
    elif cat == "otp":
        kind = "otp_code"
        val = otp_val()
        text = pick(d["otp_frames"]).format(svc=pick(OTP_SVCS), val=val) + tail
        needles = [val]
    elif cat == "codes":
        kind = "recovery_codes"
        codes = recovery_codes()
        text = pick(d["codes_frames"]).format(svc=pick(OTP_SVCS), codes=codes) + tail
        needles = [codes]
    elif cat == "seed":
        kind = "seed_phrase"
        words = " ".join(seed_words())
        text = pick(d["seed_frames"]).format(wallet=pick(WALLETS), words=words) + tail
        needles = [words]
    elif cat == "answer":
        kind = "security_answer"
        val = answer_val()
        text = pick(d["answer_frames"]).format(bank=pick(d["banks"]), q=pick(d["questions"]), val=val) + tail
        needles = [val]
    elif cat == "totp":
        kind = "totp_secret"
        val = totp_val()
        text = pick(d["totp_frames"]).format(svc=pick(OTP_SVCS), val=val) + tail
        needles = [val]
    elif cat == "bitlocker":
        kind = "bitlocker_recovery_key"
        val = bitlocker_val()
        text = pick(d["bitlocker_frames"]).format(val=val) + tail
        needles = [val]
    else:
        raise ValueError(cat)
    text = pad(text, d)
    return dict(label="secret", variant="plain", segment="prose-" + lang, kind=kind, value=text, needles=needles, lang=lang)


def personal_chat(lang):
    d = PL[lang]
    cat = pick(["pin", "pin", "pw"])
    if cat == "pin":
        kind = pick(PIN_KINDS + (PIN_KINDS_EN_EXTRA if lang == "en" else []))
        val = pin_val(kind)
    else:
        kind = pick(PW_KINDS + (PW_KINDS_EN_EXTRA if lang == "en" else []))
        val = pw_val(kind, lang)
    thing = thing_for(lang, kind)
    a, b = R.sample(FIRST, 2)
    msgs = [(a, pick(d["chat_q"]).format(thing=thing, who=b)), (b, pick(d["chat_a"]).format(val=val))]
    if R.random() < 0.6:
        msgs.append((a, pick(d["chat_end"])))
    if R.random() < 0.5:
        value = ["%s: %s" % m for m in msgs]
    else:
        value = [{"from": m[0], "text": m[1]} for m in msgs]
    return dict(label="secret", variant="plain", segment="chat-" + lang, kind=kind, value=value, needles=[val], lang=lang)


def personal_form():
    t = R.randint(0, 7)
    if t == 0:
        brand, num, fmt, exp, cvv = card()
        v_ = {"form": "checkout", "cardholder": person(), "card_number": fmt, "expiry": exp, "cvc": cvv,
              "save_for_later": True, "billing_postcode": digits(5)}
        return "card_full", v_, [fmt, cvv]
    if t == 1:
        ssid, pw = pick(SSIDS), wifi_val("en")
        v_ = {"type": "wifi_share", "qr_payload": "WIFI:T:WPA;S:%s;P:%s;;" % (ssid, pw), "label": pick(["guest room", "living room", "cabin"])}
        return "wifi_password", v_, [pw]
    if t == 2:
        pw = password()
        v_ = {"title": pick(SVCS), "username": pick(FIRST).lower() + "@" + pick(["gmail.com", "outlook.com", "proton.me"]),
              "password": pw, "url": "https://www.%s.com/login" % slug(pick(SVCS)), "notes": pick(["", "shared with family", "old account"])}
        return "account_password", v_, [pw]
    if t == 3:
        pw, ans = password(), answer_val()
        v_ = {"bank": pick(PL["en"]["banks"]), "login_id": bank_user(), "password": pw,
              "security_question": pick(PL["en"]["questions"]), "security_answer": ans}
        return "bank_login", v_, [pw]
    if t == 4:
        p, pw = pin(6), password()
        v_ = {"device": pick(["iPhone 15", "Pixel 8", "Galaxy S24", "iPad Air"]), "passcode": p,
              "account_email": pick(FIRST).lower() + "@icloud.com", "account_password": pw}
        return "phone_pin", v_, [p, pw]
    if t == 5:
        dc, ac, wp = pin_val("door_code"), pin_val("alarm_code"), wifi_val("en")
        v_ = {"for": "house sitter", "address": "%d %s" % (R.randint(1, 200), pick(["Elm Street", "Rue Oberkampf", "Kastanienallee"])),
              "door_code": dc, "alarm_code": ac, "wifi": {"ssid": pick(SSIDS), "password": wp},
              "plants": "water on Mon/Thu", "cat_food": "half a can at 7pm"}
        return "alarm_code", v_, [ac, wp]
    if t == 6:
        words = seed_words(24 if R.random() < 0.5 else 12)
        p = pin(R.choice([4, 6, 8]))
        v_ = {"wallet": pick(["Ledger Nano X", "Trezor Safe 3", "Coldcard"]), "device_pin": p,
              "recovery_words": words}
        return "seed_phrase", v_, [p] + words[:3]
    brand, num, fmt, exp, cvv = card()
    p = pin(4)
    v_ = {"wallet_card": brand, "number": fmt, "valid_thru": exp, "cvv": cvv, "atm_pin": p, "bank": pick(PL["en"]["banks"])}
    return "debit_card_with_pin", v_, [fmt, p]


def gen_personal_plain():
    # English: cover every kind
    en_pin = PIN_KINDS + PIN_KINDS_EN_EXTRA
    en_pw = PW_KINDS + PW_KINDS_EN_EXTRA
    for i in range(24):
        emit(lambda i=i: personal_secret("en", "pin", en_pin[i % len(en_pin)]))
    for i in range(22):
        emit(lambda i=i: personal_secret("en", "pw", en_pw[i % len(en_pw)]))
    for cat, n in [("wifi", 6), ("card", 6), ("bank", 4), ("otp", 4), ("codes", 3), ("seed", 3), ("answer", 3),
                   ("totp", 3), ("bitlocker", 2)]:
        for _ in range(n):
            emit(lambda cat=cat: personal_secret("en", cat))
    for _ in range(16):
        emit(lambda: personal_chat("en"))
    for lang in LANGS[1:]:
        kinds = list(PIN_KINDS)
        R.shuffle(kinds)
        for k in kinds[:5]:
            emit(lambda k=k, lang=lang: personal_secret(lang, "pin", k))
        pws = list(PW_KINDS)
        R.shuffle(pws)
        for k in pws[:4]:
            emit(lambda k=k, lang=lang: personal_secret(lang, "pw", k))
        for cat in ["wifi", "card", "bank", "otp", "codes", "seed", "answer"]:
            emit(lambda cat=cat, lang=lang: personal_secret(lang, cat))
        for _ in range(3):
            emit(lambda lang=lang: personal_chat(lang))
    for _ in range(50):
        def mk():
            kind, val_, needles = personal_form()
            return dict(label="secret", variant="plain", segment="form", kind=kind, value=val_, needles=needles)
        emit(mk)


# ------------------------------------------------------------ secrets / hard (evasions)
def src_token(maxlen=110, minlen=16):
    while True:
        c = vendor_ctx(pick(V))
        if c["obj"] is not None:
            continue
        val = secret_needle(c["kind"], c["parts"], c["var"], c["obj"])
        if "\n" in val or " " in val or not (minlen <= len(val) <= maxlen):
            continue
        noun = "connection string" if c["type"] in ("dsn", "url") else pick(["key", "token", "API key", "secret", "credential"])
        return c["kind"], "%s %s" % (c["vendor"], noun), val, c


def src_pw():
    kind = pick(PW_KINDS + PW_KINDS_EN_EXTRA)
    return kind, thing_for("en", kind), pw_val(kind, "en").replace("\n", " ")


def src_pin():
    kind = pick(PIN_KINDS + PIN_KINDS_EN_EXTRA)
    return kind, thing_for("en", kind), (digits(8) if kind == "sim_puk" else pin(R.choice([4, 4, 5, 6, 6])))


def src_tok_or_pw(p_tok=0.5, maxlen=110):
    if R.random() < p_tok:
        k, d, v_, _ = src_token(maxlen)
        return k, d, v_
    return src_pw()


NUMW = {
    "en": "zero one two three four five six seven eight nine",
    "de": "null eins zwei drei vier fünf sechs sieben acht neun",
    "fr": "zéro un deux trois quatre cinq six sept huit neuf",
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve",
    "it": "zero uno due tre quattro cinque sei sette otto nove",
    "pt": "zero um dois três quatro cinco seis sete oito nove",
    "nl": "nul een twee drie vier vijf zes zeven acht negen",
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć",
    "sv": "noll ett två tre fyra fem sex sju åtta nio",
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz",
    "ru": "ноль один два три четыре пять шесть семь восемь девять",
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう",
    "zh": "零 一 二 三 四 五 六 七 八 九",
    "ko": "공 일 이 삼 사 오 육 칠 팔 구",
    "ar": "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة",
}
NUMW = {k: v_.split() for k, v_ in NUMW.items()}
NATO = dict(zip(LO, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa "
                    "quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split()))
MORSE = {"0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....", "6": "-....",
         "7": "--...", "8": "---..", "9": "----."}
HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ", "j": "ј",
        "A": "А", "B": "В", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х"}
ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def spell(digs, lang="en", sep=" "):
    return sep.join(NUMW[lang][int(ch)] for ch in digs)


def caesar(s, k=3):
    out = []
    for ch in s:
        if ch in LO:
            out.append(LO[(LO.index(ch) + k) % 26])
        elif ch in UP:
            out.append(UP[(UP.index(ch) + k) % 26])
        elif ch in DG:
            out.append(DG[(DG.index(ch) + k) % 10])
        else:
            out.append(ch)
    return "".join(out)


def split_n(s, n):
    cuts = sorted(R.sample(range(3, len(s) - 2), n - 1))
    out, prev = [], 0
    for c_ in cuts + [len(s)]:
        out.append(s[prev:c_])
        prev = c_
    return out


def H(kind, value, needles, **kw):
    d = dict(kind=kind, value=value, needles=needles)
    d.update(kw)
    return d


def t_spaced():
    k, d, val = src_tok_or_pw()
    enc = " ".join(val)
    return H(k, pick(["%s (typed with spaces so autocorrect leaves it alone): %s", "%s: %s",
                      "remove the spaces - %s = %s", "Saving the %s like this: %s"]) % (d, enc), [enc])


def t_dot_interleave():
    k, d, val = src_tok_or_pw()
    sep = pick([".", "·", "|", "/", "~", "*"])
    enc = sep.join(val)
    return H(k, pick(["%s, written with a '%s' between every character: %s" % (d, sep, enc), "%s -> %s" % (d, enc)]), [enc])


def t_dash_groups():
    k, d, val = src_tok_or_pw(0.7)
    n = R.choice([3, 4, 5, 6])
    enc = pick([" - ", " ", "  ", " | "]).join(val[i:i + n] for i in range(0, len(val), n))
    return H(k, pick(["%s in chunks so I can read it over the phone: %s", "%s = %s", "for %s use %s (no gaps)"]) % (d, enc), [enc])


def t_split_fields():
    k, d, val = src_tok_or_pw(0.6)
    parts = split_n(val, R.choice([2, 3]))
    obj = {"label": d, "note": pick(["join the parts in order", "concatenate a+b(+c)", "glue together, no spaces"])}
    pre = pick(["part_", "p", "seg_", "chunk_"])
    for i, p in enumerate(parts):
        obj[pre + "abc"[i]] = p
    return H(k, obj, parts)


def t_split_list():
    k, d, val = src_tok_or_pw(0.6)
    parts = split_n(val, R.choice([2, 3, 4]))
    lst = [pick(["%s, in pieces:" % d, "%s (read top to bottom)" % d, d])] + parts
    return H(k, lst, parts)


def t_split_chat():
    k, d, val = src_tok_or_pw(0.6)
    parts = split_n(val, R.choice([2, 3]))
    a, b = R.sample(FIRST, 2)
    msgs = ["%s: %s?" % (a, pick(["send me the %s" % d, "what's the %s" % d, "%s pls" % d]))]
    msgs.append("%s: sending it in bits, our IT scans messages" % b)
    msgs += ["%s: %s" % (b, p) for p in parts]
    msgs.append("%s: %s" % (a, pick(["got all pieces", "ok joined it", "👍"])))
    return H(k, msgs, parts)


def t_split_prose():
    k, d, val = src_tok_or_pw(0.5)
    p1, p2 = split_n(val, 2)
    return H(k, pick(["The %s starts with %s and the rest of it is %s.",
                      "First part of the %s: %s ... and the second part I'll just put here: %s",
                      "For the %s, take %s and stick %s right after it."]) % (d, p1, p2), [p1, p2])


def t_base64():
    k, d, val = src_tok_or_pw(0.5)
    src = pick([val, val, "%s:%s" % (pick(FIRST).lower(), val), json.dumps({"secret": val})])
    enc = b64(src.encode())
    return H(k, pick(["%s (base64): %s", "config blob for the %s: %s", "stored encoded so it doesn't show in screenshots - %s: %s",
                      "b64 of the %s -> %s"]) % (d, enc), [enc])


def t_base64_double():
    k, d, val = src_tok_or_pw(0.5)
    enc = b64(b64(val.encode()).encode())
    return H(k, pick(["%s, base64 twice: %s" % (d, enc), "decode 2x -> %s (%s)" % (enc, d)]), [enc])


def t_base32():
    k, d, val = src_tok_or_pw(0.5)
    enc = base64.b32encode(val.encode()).decode()
    return H(k, pick(["%s in base32: %s", "%s // b32: %s"]) % (d, enc), [enc])


def t_hex():
    k, d, val = src_tok_or_pw(0.5)
    enc = val.encode().hex()
    if R.random() < 0.3:
        enc = enc.upper()
    return H(k, pick(["%s as hex: %s", "hex(%s) = %s", "%s encoded: 0x%s"]) % (d, enc), [enc])


def t_urlenc():
    k, d, val = src_tok_or_pw(0.5)
    enc = "".join("%%%02X" % b for b in val.encode())
    return H(k, pick(["%s (url-encoded): %s", "from the redirect log, %s=%s"]) % (d, enc), [enc])


def t_rot13():
    k, d, val = src_tok_or_pw(0.5)
    enc = codecs.encode(val, "rot13")
    if enc == val:
        enc = codecs.encode(val + "", "rot13")
    return H(k, pick(["%s, rot13'd: %s" % (d, enc), "rot13 -> %s (that's the %s)" % (enc, d)]), [enc])


def t_reversed():
    k, d, val = src_tok_or_pw(0.4)
    enc = val[::-1]
    return H(k, pick(["%s written backwards: %s", "read it right-to-left: %s = %s", "%s (reversed) %s"]) % (d, enc), [enc])


def t_caesar():
    k, d, val = src_tok_or_pw(0.4)
    sh = R.choice([1, 2, 3, 5])
    enc = caesar(val, sh)
    return H(k, "%s, every letter and digit shifted +%d (shift back to use): %s" % (d, sh, enc), [enc])


def t_zlib_b64():
    k, d, val = src_tok_or_pw(0.4)
    blob = json.dumps({"user": pick(FIRST).lower(), "secret": val, "note": d})
    enc = b64(zlib.compress(blob.encode(), 9))
    return H(k, pick(["creds blob (zlib+base64): %s", "backup: %s", "export.z.b64 = %s"]) % enc, [enc])


def t_char_codes():
    k, d, val = src_tok_or_pw(0.5)
    enc = ",".join(str(ord(ch)) for ch in val)
    return H(k, pick(["const k = String.fromCharCode(%s); // %s" % (enc, d), "%s as ASCII codes: [%s]" % (d, enc)]), [enc])


def t_char_array():
    k, d, val = src_tok_or_pw(0.5, maxlen=60)
    return H(k, [d + ":"] + list(val), ["\x00".join(val)])


def t_json_uescape():
    k, d, val = src_tok_or_pw(0.5, maxlen=70)
    enc = "".join("\\u%04x" % ord(ch) for ch in val)
    return H(k, '{"name": "%s", "value": "%s"}' % (d, enc), [enc])


def t_html_entities():
    k, d, val = src_tok_or_pw(0.5, maxlen=70)
    enc = "".join("&#%d;" % ord(ch) if R.random() < 0.8 else "&#x%x;" % ord(ch) for ch in val)
    return H(k, "<p>%s: <span>%s</span></p>" % (d, enc), [enc])


def homoglyph(s):
    out = "".join(HOMO.get(ch, ch) if R.random() < 0.7 else ch for ch in s)
    if out == s:
        out = "".join(HOMO.get(ch, ch) for ch in s)
    return out


def t_homoglyph_token():
    while True:
        k, d, val = src_tok_or_pw(0.7)
        if any(ch in HOMO for ch in val):
            break
    enc = homoglyph(val)
    return H(k, pick(["%s: %s" % (d, enc), "here you go -> %s (%s)" % (enc, d)]), [enc])


def t_homoglyph_cue():
    if R.random() < 0.7:
        k, d, val = src_pw()
    else:
        k, d, val = src_pin()
    return H(k, pick(["%s: %s", "my %s is %s", "%s -> %s"]) % (homoglyph(d), val), [val])


def t_zero_width():
    k, d, val = src_tok_or_pw(0.6)
    out = []
    for ch in val:
        out.append(ch)
        if R.random() < 0.45:
            out.append(pick(ZW))
    enc = "".join(out)
    if enc == val:
        enc = val[:3] + "\u200b" + val[3:]
    return H(k, "%s: %s" % (d, enc), [enc])


def t_fullwidth():
    k, d, val = src_tok_or_pw(0.6)
    enc = "".join(chr(ord(ch) + 0xFEE0) if 0x21 <= ord(ch) <= 0x7E else ch for ch in val)
    return H(k, pick(["%s：%s", "%s -> %s"]) % (d, enc), [enc])


def t_spelled_en():
    if R.random() < 0.7:
        k, d, p = src_pin()
        enc = spell(p, "en", pick([" ", "-", ", "]))
        return H(k, pick(["My %s is %s.", "%s: %s", "Remember the %s - %s"]) % (d, enc), [enc])
    brand, num, fmt, exp, cvv = card()
    enc = spell(num, "en")
    return H("card_full", "%s card number %s, expires %s, code %s" % (brand, enc, exp, spell(cvv)), [enc])


SPELL_LANGS = ["de", "fr", "es", "it", "pt", "nl", "pl", "sv", "tr", "ru", "ja", "zh", "ko", "ar"]


def t_spelled_multi():
    lang = pick(SPELL_LANGS)
    kind = pick(PIN_KINDS)
    p = pin(R.choice([4, 4, 6]))
    thing = thing_for(lang, kind)
    sep = "、" if lang in ("ja", "zh") else " "
    enc = spell(p, lang, sep)
    d = PL[lang]
    text = pad(pick(d["pin_frames"]).format(thing=thing, Thing=cap(thing), val=enc), d)
    return H(kind, text, [enc], lang=lang)


def t_mixed_digit_words():
    k, d, p = src_pin()
    while True:
        toks = [ch if R.random() < 0.5 else NUMW["en"][int(ch)] for ch in p]
        if any(t in DG for t in toks) and any(t not in DG for t in toks):
            break
    enc = pick(["-", " ", "/"]).join(toks)
    return H(k, "%s is %s" % (d, enc), [enc])


def t_nato():
    k = pick(["account_password", "door_code", "wifi_password", "router_admin_password"])
    val = rs(R.randint(6, 10), AN) if k != "door_code" else rs(1, UP) + pin(4)
    words = []
    for ch in val:
        if ch in DG:
            words.append(NUMW["en"][int(ch)])
        elif ch in UP:
            words.append("capital " + NATO[ch.lower()].capitalize())
        else:
            words.append(NATO[ch])
    enc = " ".join(words)
    return H(k, "%s, spelled out for the phone call: %s" % (thing_for("en", k) if k != "wifi_password" else "wifi password", enc), [enc])


def t_morse():
    k, d, p = src_pin()
    enc = " / ".join(MORSE[ch] for ch in p)
    return H(k, "%s in morse (my nephew's idea): %s" % (d, enc), [enc])


def t_keycap():
    k, d, p = src_pin()
    enc = "".join(ch + "\ufe0f\u20e3" for ch in p)
    return H(k, pick(["%s %s 🔐", "%s => %s"]) % (d, enc), [enc])


def t_emoji_sep():
    if R.random() < 0.5:
        brand, num, fmt, exp, cvv = card()
        e = pick(["💳", "✨", "🔹", "🍀"])
        enc = (" %s " % e).join(num[i:i + 4] for i in range(0, len(num), 4))
        return H("card_full", "%s %s exp %s cvv %s" % (brand, enc, exp, cvv), [enc, cvv])
    k, d, p = src_pin()
    e = pick(["🔸", "⭐", "🌸", "➖"])
    enc = e.join(p)
    return H(k, "%s: %s" % (d, enc), [enc])


def t_in_key():
    k, d, val = src_tok_or_pw(0.6, maxlen=60)
    key = "mem_" + val.encode().hex()
    return H(k, pick(["%s - stored under this entry's key, as usual." % d,
                      "Backup of the %s (encoded in the key field)." % d,
                      "see key for the %s, rotated %s" % (d, date_iso())]), [val.encode().hex()], key=key)


def t_in_namespace():
    brand, num, fmt, exp, cvv = card()
    ns_ = ["memories", "u" + num]
    return H("card_full", pick(["My %s card - the number is the same as this profile id. Expiry %s, security code %s." % (brand, exp, cvv),
                                "%s for online orders: use the account number of this namespace, exp %s, cvc %s" % (brand, exp, cvv)]),
             [num, cvv], namespace=ns_)


def t_deep_nested():
    k, d, val = src_tok_or_pw(0.6)
    leaf = {pick(["v", "val", "x", "data"]): val}
    keys = ["cfg", "env", "prod", "svc", "a", "b", "node", "inner", "opts", "x1", "layer", "z"]
    depth = R.randint(6, 9)
    for lvl in range(depth):
        leaf = {keys[(lvl * 7 + R.randint(0, 11)) % len(keys)] + str(lvl): leaf}
    leaf["meta"] = {"owner": pick(FIRST).lower(), "desc": d}
    return H(k, leaf, [val])


def t_md_table():
    rows = []
    needles = []
    kind = None
    for _ in range(R.randint(2, 4)):
        kk, d, val = src_pw()
        kind = kind or kk
        rows.append("| %s | %s | %s |" % (pick(SVCS), pick(FIRST).lower() + "@mail.com", val))
        needles.append(val)
    return H(kind, "| Site | Login | Pass |\n|---|---|---|\n" + "\n".join(rows), needles)


def t_code_fence():
    k, d, val, c = src_token()
    return H(k, pick(["pasting from the terminal so I have it later:\n```\n%s\n```", "```text\n%s\n```\n(from the old laptop)",
                      "~~~\n%s\n~~~"]) % val, [val])


def t_line_wrapped():
    k, d, val, c = src_token(200, 40)
    n = R.choice([16, 20, 24, 30])
    chunks = [val[i:i + n] for i in range(0, len(val), n)]
    pre = pick(["", "> ", ">> "])
    return H(k, "%s%s:\n" % (pre, d) + "\n".join(pre + ch for ch in chunks), chunks)


def t_yaml_folded():
    k, d, val, c = src_token(200, 40)
    n = R.choice([18, 24, 32])
    chunks = [val[i:i + n] for i in range(0, len(val), n)]
    return H(k, "%s:\n  %s: >-\n%s\n  region: eu" % (slug(c["vendor"]), pick(["key", "value", "k"]),
                                                   "\n".join("    " + ch for ch in chunks)), chunks)


def t_vertical():
    k, d, val = src_tok_or_pw(0.4, maxlen=40)
    enc = "\n".join(val)
    return H(k, "%s (vertical, read down):\n%s" % (d, enc), [enc])


def cue_target(pw_cues, pin_cues):
    """service/device + cue word + value, with the kind matching the context."""
    if R.random() < 0.6:
        return "account_password", pick(SVCS), pick(pw_cues), password()
    kind, ctx = pick([("bank_pin", "bank card"), ("alarm_code", "alarm"), ("door_code", "front door"),
                      ("locker_combination", "gym locker"), ("phone_pin", "phone"), ("garage_code", "garage")])
    return kind, ctx, pick(pin_cues), pin_val(kind)


def t_misspelled():
    k, ctx, cue, val = cue_target(["pasword", "passwrod", "pssword", "passowrd", "paswd", "pasword:", "secrte", "pasccode"],
                                  ["pin nmber", "acess code", "combinaton", "pincdoe", "kode"])
    return H(k, pick(["%s %s %s", "%s - %s is %s", "the %s %s = %s"]) % (ctx, cue, val), [val])


def t_leet():
    k, ctx, cue, val = cue_target(["p4ssw0rd", "p@ssw0rd", "s3cr3t", "l0g1n", "p4$$"], ["P1N", "c0d3", "p1n c0d3"])
    return H(k, pick(["%s %s: %s", "my %s %s -> %s"]) % (ctx, cue, val), [val])


def t_abbrev():
    k, ctx, cue, val = cue_target(["pw", "pwd", "pw:", "pass", "creds", "acct pw", "pwd=", "p/w"], ["PIN#", "pc", "cd", "#"])
    return H(k, pick(["%s %s %s", "%s / %s %s"]) % (ctx, cue, val), [val])


TRANSLIT = ["parol'", "mima", "pasuwādo", "bimilbeonho", "kalimat al-sirr", "paasvard", "kodikos", "ramz-e oboor",
            "rahat phan", "sandi"]


def t_translit():
    k, val = "account_password", password()
    cue = pick(TRANSLIT)
    return H(k, pick(["%s %s: %s", "%s (%s) %s"]) % (pick(SVCS), cue, val), [val])


def t_hint():
    base = pick([password(), wifi_val("en")])
    suf = pick(["7", "!", "2026", "#", "x"])
    return H(pick(["wifi_password", "account_password", "bank_login"]), pick([
        "The bank password is the same as the wifi one but with %s at the end. Wifi one is %s." % (suf, base),
        "Same as my email password (%s), just add %s for the new account." % (base, suf),
        "It's the old Netflix password %s - I only appended %s when they forced a change." % (base, suf)]), [base])


def t_no_cue():
    k, d, val, c = src_token()
    return H(k, pick(["%s for friday", "👉 %s", "%s\n(don't lose this)", "the thing from earlier: %s", "%s ✅"]) % val, [val])


def t_glued():
    k, d, val, c = src_token()
    return H(k, pick(["okUse%sAndNotTheOldOne", "pleaseremember%sthankyou", "fromtheportal%s2026"]) % val, [val])


def t_code_concat():
    k, d, val, c = src_token(110, 24)
    parts = split_n(val, R.choice([2, 3, 4]))
    if R.random() < 0.5:
        code = "KEY = (\n" + "\n".join('    "%s"' % p for p in parts) + "\n)  # %s" % d
    else:
        code = "const k = " + " + ".join("'%s'" % p for p in parts) + "; // %s" % d
    return H(k, code, parts)


def t_html_comment():
    k, d, val, c = src_token()
    return H(k, "<footer><p>© 2026 %s</p>\n<!-- TODO remove: %s=%s -->\n</footer>" % (pick(["Lumen", "Acme", "Orchard"]), c["var"], val), [val])


def t_token_in_url():
    k, d, val, c = src_token()
    q_ = urllib.parse.quote(val, safe="")
    return H(k, "bookmark: https://dashboard.%s/share?view=weekly&%s=%s" % (pick(ORGS), pick(["access_token", "key", "t", "auth"]), q_), [q_])


def t_in_path():
    k = pick(["account_password", "laptop_password", "pm_master_password"])
    val = rs(R.randint(10, 14), AN + "-_!")
    return H(k, "saved the export as /Users/%s/Desktop/%s_pw_%s.txt so I can find it" % (pick(FIRST).lower(), slug(pick(SVCS)), val), [val])


def t_csv_no_header():
    rows, needles, kind = [], [], "account_password"
    for _ in range(R.randint(2, 4)):
        pw = password()
        rows.append("%s,%s,%s" % (slug(pick(SVCS)), pick(FIRST).lower() + "@mail.com", pw))
        needles.append(pw)
    return H(kind, "\n".join(rows), needles)


def t_seed_shuffled():
    words = seed_words(12)
    idx = list(range(len(words)))
    R.shuffle(idx)
    items = ["%d. %s" % (i + 1, words[i]) for i in idx]
    return H("seed_phrase", "wallet words (numbered, not in order): " + "  ".join(items), items)


def t_seed_4letter():
    words = seed_words()
    enc = " ".join(w[:4] for w in words)
    return H("seed_phrase", pick(["%s recovery, first 4 letters of each word: %s", "%s seed abbrev: %s"]) % (pick(WALLETS), enc), [enc])


def t_qp():
    k, d, val, c = src_token(200, 40)
    v2 = val.replace("=", "=3D")
    n = R.choice([20, 30, 40])
    chunks = [v2[i:i + n] for i in range(0, len(v2), n)]
    body = "=\n".join(chunks)
    return H(k, "Content-Transfer-Encoding: quoted-printable\n\nHi, the %s is:\n%s\nthanks" % (d, body), chunks)


def t_percent_userinfo():
    pw = pick(BIP39).capitalize() + pick(["@", "#", "/", ":", "%", "?"]) + digits(3) + pick(["!", "&", "@"]) + pick(BIP39)
    enc = urllib.parse.quote(pw, safe="")
    url = "postgresql://%s:%s@%s:5432/%s" % (dbuser(), enc, pick(["db.internal", "10.0.0.12"]), pick(["app", "crm"]))
    return H("postgres_url", pick(["DATABASE_URL=%s", "conn string for the reporting box: %s"]) % url, [enc])


def t_basic_auth():
    user, pw = pick(["admin", "jenkins", "ops", pick(FIRST).lower()]), db_pw()
    enc = b64(("%s:%s" % (user, pw)).encode())
    return H("basic_auth_header", pick([
        "127.0.0.1 - - [12/Mar/2026:10:01:22 +0000] \"GET /admin HTTP/1.1\" 200 512 \"-\" \"curl/8.5\" auth=\"Basic %s\"",
        "GET /api/status HTTP/1.1\nHost: nas.local\nAuthorization: Basic %s"]) % enc, [enc])


def t_k8s_b64():
    k, d, val = src_tok_or_pw(0.6)
    enc = b64(val.encode())
    return H(k, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\ntype: Opaque\ndata:\n  %s: %s" % (
        pick(["app-secrets", "api-credentials", "mailer"]), pick(["token", "password", "api_key"]), enc), [enc])


TECHNIQUES = [
    ("spaced-chars", t_spaced), ("dot-interleave", t_dot_interleave), ("dash-groups", t_dash_groups),
    ("split-fields", t_split_fields), ("split-list", t_split_list), ("split-chat-turns", t_split_chat),
    ("split-prose", t_split_prose), ("base64", t_base64), ("base64-double", t_base64_double), ("base32", t_base32),
    ("hex", t_hex), ("url-encoded", t_urlenc), ("rot13", t_rot13), ("reversed", t_reversed),
    ("caesar-shift", t_caesar), ("zlib-base64", t_zlib_b64), ("char-codes", t_char_codes), ("char-array", t_char_array),
    ("json-unicode-escape", t_json_uescape), ("html-entities", t_html_entities), ("homoglyph-token", t_homoglyph_token),
    ("homoglyph-cue", t_homoglyph_cue), ("zero-width", t_zero_width), ("fullwidth", t_fullwidth),
    ("spelled-digits-en", t_spelled_en), ("spelled-digits-multi", t_spelled_multi),
    ("mixed-digit-words", t_mixed_digit_words), ("nato-phonetic", t_nato), ("morse", t_morse),
    ("keycap-emoji", t_keycap), ("emoji-separators", t_emoji_sep), ("secret-in-key", t_in_key),
    ("secret-in-namespace", t_in_namespace), ("deep-nested-json", t_deep_nested), ("markdown-table", t_md_table),
    ("code-fence-no-cue", t_code_fence), ("line-wrapped", t_line_wrapped), ("yaml-folded", t_yaml_folded),
    ("vertical-text", t_vertical), ("misspelled-cue", t_misspelled), ("leet-cue", t_leet), ("abbrev-cue", t_abbrev),
    ("translit-cue", t_translit), ("hint-with-value", t_hint), ("no-cue-bare", t_no_cue), ("glued-text", t_glued),
    ("code-concat", t_code_concat), ("html-comment", t_html_comment), ("token-in-url", t_token_in_url),
    ("in-file-path", t_in_path), ("csv-no-header", t_csv_no_header), ("seed-shuffled-numbered", t_seed_shuffled),
    ("seed-4letter", t_seed_4letter), ("qp-soft-breaks", t_qp), ("percent-in-userinfo", t_percent_userinfo),
    ("basic-auth-header", t_basic_auth), ("k8s-data-base64", t_k8s_b64),
]


def as_chat(text):
    """Wrap a memory text into a short chat/transcript array (same content, different shape)."""
    a = pick(FIRST)
    intro = pick(["saving this for later", "fyi", "note to self", "remember this pls", "from my notes"])
    if R.random() < 0.5:
        return [{"from": a, "text": intro}, {"from": a, "text": text}]
    return ["%s: %s" % (a, intro), "%s: %s" % (a, text)]


def gen_hard_secrets(per=7):
    for name, fn in TECHNIQUES:
        n = per + (7 if name == "spelled-digits-multi" else 0)
        for _ in range(n):
            def mk(fn=fn, name=name):
                h = fn()
                h.update(label="secret", variant="hard", segment=name)
                if isinstance(h["value"], str) and R.random() < 0.06:
                    h["core"] = h["value"]
                    h["value"] = as_chat(h["value"])
                return h
            emit(mk)


# ------------------------------------------------------------ benign / plain: ordinary memories
CC = {"en": "+44 7%s %s", "de": "+49 15%s %s", "fr": "+33 6 %s %s", "es": "+34 6%s %s", "it": "+39 3%s %s",
      "pt": "+351 91%s %s", "nl": "+31 6 %s %s", "pl": "+48 5%s %s", "sv": "+46 70 %s %s", "tr": "+90 53%s %s",
      "ru": "+7 9%s %s", "ja": "+81 90-%s-%s", "zh": "+86 13%s %s", "ar": "+971 50 %s %s", "ko": "+82 10-%s-%s"}


def phone(lang):
    return CC[lang] % (digits(3), digits(4))


def bdate(lang):
    d, m = R.randint(1, 28), R.randint(1, 12)
    if lang in ("ja", "zh"):
        return "%d月%d日" % (m, d)
    if lang == "ko":
        return "%d월 %d일" % (m, d)
    if lang == "en":
        return "%s %d" % (pick(["January", "February", "March", "April", "May", "June", "July", "August", "September",
                                "October", "November", "December"]), d)
    if lang in ("de", "pl", "ru", "tr"):
        return "%d.%d." % (d, m)
    return "%d/%d" % (d, m) if lang in ("sv", "nl") else "%02d/%02d" % (d, m)


def btime():
    return "%d:%02d" % (R.randint(7, 20), R.choice([0, 15, 30, 45]))


BL = {}
BL["en"] = dict(
    days=["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    foods=["Thai green curry", "sushi", "mushroom risotto", "falafel wraps", "lasagne", "pho", "tacos al pastor"],
    cities=["Leeds", "Boston", "Dublin", "Melbourne", "Toronto", "Edinburgh", "Cape Town"],
    frames=["I prefer window seats on flights and I'm vegetarian, so please pick veggie meals when booking.",
            "My usual coffee order is an oat flat white, extra hot, no sugar.",
            "{name} is allergic to peanuts and shellfish - keep that in mind when suggesting restaurants.",
            "Dentist appointment on {day} at {time} with Dr. {last}; bring the insurance card.",
            "{name}'s new mobile number is {phone}; she moved to {city} last month.",
            "My sister {name}'s birthday is on {date}; she loves pottery and dark chocolate.",
            "Weekly standup moved to {day}s at {time}; {name2} runs it now.",
            "Flying to {city} on {date}, staying near the old town, check-in after 3pm.",
            "Kids' swimming lessons are on {day} at {time} at the {city} leisure centre.",
            "I don't like coriander, and I'm trying to avoid caffeine after 2pm.",
            "My shoe size is EU {n}, T-shirt size M, and I like merino wool socks.",
            "Our cat Miso needs her thyroid pill twice a day; the vet is Dr. {last} in {city}.",
            "I'm learning Portuguese on weekdays, 20 minutes after dinner, aiming for B1 by December.",
            "{name} (my manager) prefers short updates by email on Fridays rather than chat messages.",
            "Training for a half marathon in {city} in October; long runs on Sundays, 18 km max.",
            "Please suggest recipes without pork - my partner doesn't eat it - and keep them under 30 minutes.",
            "Book club meets at {name}'s place the first Thursday of each month; next book is 'The Remains of the Day'.",
            "Favourite dinner when I'm tired: {food}. I could eat it every week.",
            "Car service booked for {date}; the garage wants the car by 8am and it takes about 3 hours.",
            "{name2} and {name} are coming for dinner on {day}; {name2} is gluten-free.",
            "My GP is Dr. {last}; the practice number is {phone} and they open at 8:30.",
            "I get motion sick on boats, so avoid ferry routes when planning trips.",
            "We're thinking about moving to {city} next year, somewhere with a garden and a short commute.",
            "Remind me to call Grandma on {day} evenings around {time}, she's lonely since the move."])
BL["de"] = dict(days=["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
                foods=["Käsespätzle", "Linsensuppe", "Flammkuchen", "Rouladen"], cities=["Leipzig", "Köln", "Freiburg", "Hamburg"],
                frames=["Ich trinke meinen Kaffee schwarz und morgens am liebsten Filterkaffee.",
                        "Zahnarzttermin am {day} um {time} Uhr bei Dr. {last}.",
                        "{name} hat eine neue Handynummer: {phone}.", "Der Geburtstag meiner Schwester {name} ist am {date}.",
                        "Ich bin laktoseintolerant, bitte bei Rezepten darauf achten.",
                        "Am {day} um {time} ist Elternabend in der Schule von {name}.",
                        "Wir fliegen am {date} nach {city} und bleiben eine Woche.",
                        "Mein Lieblingsessen ist {food}, am liebsten wie bei Oma.",
                        "Ich gehe dienstags und donnerstags schwimmen, meistens gegen {time} Uhr.",
                        "{name2} arbeitet jetzt in {city} und kommt nur am Wochenende heim.",
                        "Blutdruck heute beim Hausarzt: 125/80, alles in Ordnung.",
                        "Die Teamrunde ist ab jetzt jeden {day} um {time} Uhr, online."])
BL["fr"] = dict(days=["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
                foods=["la blanquette de veau", "les crêpes", "le couscous", "la ratatouille"], cities=["Lyon", "Nantes", "Bordeaux", "Lille"],
                frames=["Je préfère le thé vert le matin et jamais de café après 16 h.",
                        "Rendez-vous chez le dentiste {day} à {time} avec le Dr {last}.",
                        "Le nouveau numéro de {name} est le {phone}.", "L'anniversaire de ma sœur {name} est le {date}.",
                        "Je suis allergique aux fruits à coque, à retenir pour les restaurants.",
                        "Réunion parents-profs pour {name} {day} à {time}.", "On part à {city} le {date} pour une semaine.",
                        "Mon plat préféré, c'est {food}, comme chez ma grand-mère.",
                        "Je fais du yoga le {day} soir vers {time}.", "{name2} a déménagé à {city} pour son nouveau travail.",
                        "Prise de sang prévue le {date} à jeun, au laboratoire près de la mairie.",
                        "Le point d'équipe a lieu chaque {day} à {time}, en visio."])
BL["es"] = dict(days=["lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
                foods=["la tortilla de patatas", "el gazpacho", "la paella de verduras", "las lentejas"], cities=["Sevilla", "Valencia", "Bilbao", "Zaragoza"],
                frames=["Prefiero el café con leche de avena y sin azúcar.", "Cita con el dentista el {day} a las {time} con la Dra. {last}.",
                        "El nuevo número de {name} es {phone}.", "El cumpleaños de mi hermana {name} es el {date}.",
                        "Soy celíaca, así que nada de gluten en las recetas, por favor.", "Reunión del cole de {name} el {day} a las {time}.",
                        "Nos vamos a {city} el {date}, una semana en casa de mis tíos.", "Mi comida favorita es {food}.",
                        "Voy a pilates los {day} a las {time}.", "{name2} ahora vive en {city} y trabaja en un hospital.",
                        "Tengo que tomar el antibiótico cada 8 horas durante 7 días.", "La reunión de equipo pasa a los {day} a las {time}."])
BL["it"] = dict(days=["lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato"],
                foods=["le lasagne", "la pasta alla norma", "il risotto ai funghi", "la parmigiana"], cities=["Bologna", "Torino", "Napoli", "Verona"],
                frames=["Preferisco il caffè macchiato la mattina e niente caffè dopo le 17.", "Appuntamento dal dentista {day} alle {time} con il dott. {last}.",
                        "Il nuovo numero di {name} è {phone}.", "Il compleanno di mia sorella {name} è il {date}.",
                        "Sono intollerante al lattosio, ricordalo per le ricette.", "Colloquio con le maestre di {name} {day} alle {time}.",
                        "Partiamo per {city} il {date}.", "Il mio piatto preferito sono {food}.",
                        "Vado in piscina il {day} verso le {time}.", "{name2} si è trasferito a {city} per lavoro.",
                        "Esami del sangue il {date}, a digiuno.", "La riunione di reparto è ogni {day} alle {time}."])
BL["pt"] = dict(days=["segunda", "terça", "quarta", "quinta", "sexta", "sábado"],
                foods=["bacalhau à brás", "feijoada", "caldo verde", "moqueca"], cities=["Porto", "Coimbra", "Recife", "Braga"],
                frames=["Prefiro café sem açúcar e com pouco leite.", "Consulta no dentista na {day} às {time} com a Dra. {last}.",
                        "O número novo da {name} é {phone}.", "O aniversário da minha irmã {name} é a {date}.",
                        "Sou alérgico a camarão, lembra disso nos restaurantes.", "Reunião de pais da escola da {name} na {day} às {time}.",
                        "Vamos para {city} no dia {date}.", "A minha comida preferida é {food}.",
                        "Faço caminhada na {day} às {time}.", "O {name2} mudou-se para {city} por causa do trabalho.",
                        "Tomar o comprimido da tiroide em jejum, meia hora antes do pequeno-almoço.", "A reunião da equipa passou para {day} às {time}."])
BL["nl"] = dict(days=["maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag"],
                foods=["stamppot", "erwtensoep", "poffertjes", "bitterballen"], cities=["Utrecht", "Groningen", "Eindhoven", "Leiden"],
                frames=["Ik drink mijn koffie zwart en thee zonder suiker.", "Tandarts op {day} om {time} bij dr. {last}.",
                        "Het nieuwe nummer van {name} is {phone}.", "Mijn zus {name} is jarig op {date}.",
                        "Ik ben allergisch voor noten, onthoud dat bij restaurants.", "Ouderavond voor {name} op {day} om {time}.",
                        "We gaan op {date} naar {city}.", "Mijn lievelingseten is {food}.", "Ik ga op {day} om {time} hardlopen.",
                        "{name2} woont nu in {city}.", "Bloeddruk bij de huisarts was 130/85.", "Teamoverleg is voortaan op {day} om {time}."])
BL["pl"] = dict(days=["poniedziałek", "wtorek", "środa", "czwartek", "piątek", "sobota"],
                foods=["pierogi ruskie", "żurek", "bigos", "gołąbki"], cities=["Kraków", "Wrocław", "Gdańsk", "Poznań"],
                frames=["Wolę herbatę z cytryną niż kawę.", "Wizyta u dentysty w {day} o {time}, dr {last}.",
                        "Nowy numer {name}: {phone}.", "Urodziny siostry {name} są {date}.",
                        "Jestem uczulony na orzechy, pamiętaj przy restauracjach.", "Zebranie w szkole {name} w {day} o {time}.",
                        "Lecimy do {city} {date}.", "Moje ulubione danie to {food}.", "Basen w {day} o {time}.",
                        "{name2} przeprowadził się do {city}.", "Wyniki krwi: hemoglobina w normie.", "Spotkanie zespołu w każdy {day} o {time}."])
BL["sv"] = dict(days=["måndag", "tisdag", "onsdag", "torsdag", "fredag", "lördag"],
                foods=["köttbullar", "ärtsoppa", "laxpudding", "kanelbullar"], cities=["Göteborg", "Uppsala", "Malmö", "Umeå"],
                frames=["Jag dricker kaffe med havremjölk, ingen socker.", "Tandläkartid på {day} kl {time} hos dr {last}.",
                        "{name}s nya nummer är {phone}.", "Min syster {name} fyller år den {date}.",
                        "Jag är glutenintolerant, tänk på det vid recept.", "Utvecklingssamtal för {name} på {day} kl {time}.",
                        "Vi åker till {city} den {date}.", "Min favoriträtt är {food}.", "Jag springer på {day} kl {time}.",
                        "{name2} har flyttat till {city}.", "Blodtrycket var 120/80 på vårdcentralen.", "Teammötet är varje {day} kl {time}."])
BL["tr"] = dict(days=["pazartesi", "salı", "çarşamba", "perşembe", "cuma", "cumartesi"],
                foods=["mercimek çorbası", "karnıyarık", "mantı", "menemen"], cities=["İzmir", "Ankara", "Bursa", "Antalya"],
                frames=["Çayı şekersiz içiyorum, kahveyi sütlü.", "Diş randevusu {day} saat {time}, Dr. {last}.",
                        "{name}'in yeni numarası {phone}.", "Kız kardeşim {name}'in doğum günü {date}.",
                        "Fıstık alerjim var, restoran önerirken dikkat et.", "{name}'in okulunda veli toplantısı {day} saat {time}.",
                        "{date} tarihinde uçuyoruz, gideceğimiz şehir: {city}.", "En sevdiğim yemek {food}.", "{day} akşamları {time}'da yüzmeye gidiyorum.",
                        "{name2} artık şu şehirde oturuyor: {city}.", "Tansiyonum bugün 12/8 çıktı.", "Ekip toplantısı her {day} saat {time}."])
BL["ru"] = dict(days=["понедельник", "вторник", "среду", "четверг", "пятницу", "субботу"],
                foods=["борщ", "пельмени", "сырники", "плов"], cities=["Казань", "Новосибирск", "Екатеринбург", "Самара"],
                frames=["Я пью кофе без сахара, с овсяным молоком.", "Запись к стоматологу в {day} в {time}, доктор {last}.",
                        "Новый номер {name}: {phone}.", "День рождения сестры {name} — {date}.",
                        "У меня аллергия на орехи, учитывай это в ресторанах.", "Родительское собрание у {name} в {day} в {time}.",
                        "{date} летим, пункт назначения — {city}.", "Моё любимое блюдо — {food}.", "Хожу в бассейн в {day} в {time}.",
                        "{name2} переехал, теперь живёт в городе {city}.", "Давление сегодня 120 на 80.", "Планёрка теперь каждую {day} в {time}."])
BL["ja"] = dict(days=["月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日"],
                foods=["カレーライス", "親子丼", "味噌ラーメン", "天ぷら"], cities=["大阪", "福岡", "札幌", "京都"],
                frames=["コーヒーはブラック、紅茶は砂糖なしが好きです。", "{day}の{time}に歯医者、{last}先生。",
                        "{name}さんの新しい電話番号は{phone}です。", "妹の{name}の誕生日は{date}。",
                        "ナッツアレルギーがあるので、お店を選ぶときは気をつけて。", "{name}の保護者面談は{day}の{time}から。",
                        "{date}に{city}へ行く予定、一週間くらい。", "好きな食べ物は{food}。", "{day}の{time}からジムに行く。",
                        "{name2}さんは{city}に引っ越した。", "健康診断の結果、コレステロールが少し高め。", "チームの定例は毎週{day}の{time}。"])
BL["zh"] = dict(days=["周一", "周二", "周三", "周四", "周五", "周六"],
                foods=["番茄炒蛋", "红烧肉", "饺子", "麻婆豆腐"], cities=["成都", "杭州", "西安", "深圳"],
                frames=["我喝咖啡不加糖，喜欢燕麦奶。", "{day}{time}看牙医，{last}医生。", "{name}的新手机号是{phone}。",
                        "我妹妹{name}的生日是{date}。", "我对花生过敏，推荐餐厅时注意一下。", "{name}的家长会在{day}{time}。",
                        "{date}去{city}，待一个星期。", "我最喜欢吃{food}。", "{day}{time}去游泳。", "{name2}搬到{city}去了。",
                        "今天量血压是120/80。", "团队例会改到每{day}{time}。"])
BL["ar"] = dict(days=["الاثنين", "الثلاثاء", "الأربعاء", "الخميس", "الجمعة", "السبت"],
                foods=["المنسف", "الكبسة", "الفلافل", "الملوخية"], cities=["عمّان", "دبي", "القاهرة", "الدار البيضاء"],
                frames=["أفضّل القهوة بدون سكر مع قليل من الحليب.", "موعد طبيب الأسنان يوم {day} الساعة {time} مع د. {last}.",
                        "رقم {name} الجديد هو {phone}.", "عيد ميلاد أختي {name} في {date}.", "عندي حساسية من المكسرات، انتبه عند اقتراح المطاعم.",
                        "اجتماع أولياء الأمور في مدرسة {name} يوم {day} الساعة {time}.", "سنسافر إلى {city} في {date}.",
                        "أكلتي المفضلة هي {food}.", "أذهب إلى النادي يوم {day} الساعة {time}.", "{name2} انتقل إلى {city}.",
                        "ضغط الدم اليوم 120 على 80.", "اجتماع الفريق كل {day} الساعة {time}."])
BL["ko"] = dict(days=["월요일", "화요일", "수요일", "목요일", "금요일", "토요일"],
                foods=["김치찌개", "비빔밥", "떡볶이", "불고기"], cities=["부산", "대구", "제주", "인천"],
                frames=["커피는 설탕 없이 아메리카노로 마셔요.", "{day} {time}에 치과 예약, {last} 선생님.", "{name} 새 전화번호는 {phone}.",
                        "여동생 {name} 생일은 {date}.", "견과류 알레르기가 있어서 식당 고를 때 조심해 줘.", "{name} 학교 학부모 상담은 {day} {time}.",
                        "{date}에 {city}에 가요, 일주일 동안.", "제일 좋아하는 음식은 {food}.", "{day} {time}에 헬스장 가요.",
                        "{name2}는 {city}로 이사했어.", "오늘 혈압 120/80 나왔어.", "팀 회의는 매주 {day} {time}."])
BENIGN_CHAT = {
    "en": [["can you remind me when the parents' evening is?", "{day} at {time}, in the school hall"],
           ["what did {name} want for her birthday?", "a pottery class voucher, she mentioned it twice"],
           ["which platform is the train to {city}?", "platform 4, leaves {time}"]],
    "de": [["Wann kommt {name} morgen an?", "Um {time} am Hauptbahnhof, Gleis 7"], ["Was essen wir am {day}?", "{food}, hab schon eingekauft"]],
    "fr": [["Tu te souviens de l'heure du rendez-vous ?", "{day} à {time}, chez le Dr {last}"], ["On mange quoi ce soir ?", "{food}, c'est prêt à 20 h"]],
    "es": [["¿A qué hora llega {name}?", "A las {time}, terminal 2"], ["¿Qué cenamos el {day}?", "{food}"]],
    "it": [["A che ora è la partita di {name}?", "{day} alle {time}, campo comunale"], ["Cosa cuciniamo stasera?", "{food}"]],
    "pt": [["A que horas é a consulta?", "Na {day} às {time}"], ["O que jantamos?", "{food}, já comprei tudo"]],
    "nl": [["Hoe laat komt {name}?", "Om {time}, met de trein"], ["Wat eten we {day}?", "{food}"]],
    "pl": [["O której jest zebranie?", "W {day} o {time}"], ["Co na obiad?", "{food}"]],
    "sv": [["När kommer {name}?", "Kl {time} på {day}"], ["Vad äter vi ikväll?", "{food}"]],
    "tr": [["{name} saat kaçta geliyor?", "{time}'da, otogarda"], ["Akşam ne yiyoruz?", "{food}"]],
    "ru": [["Во сколько приезжает {name}?", "В {time}, на вокзал"], ["Что на ужин?", "{food}"]],
    "ja": [["{name}は何時に着く？", "{time}に駅に着くって"], ["今日の夕飯なに？", "{food}"]],
    "zh": [["{name}几点到？", "{time}到火车站"], ["今晚吃什么？", "{food}"]],
    "ar": [["متى يصل {name}؟", "الساعة {time} في المحطة"], ["ماذا نطبخ الليلة؟", "{food}"]],
    "ko": [["{name} 몇 시에 도착해?", "{time}에 역에 도착한대"], ["오늘 저녁 뭐 먹어?", "{food}"]],
}


def benign_slots(lang):
    b = BL[lang]
    return dict(name=pick(FIRST), name2=pick(FIRST), last=pick(LAST), day=pick(b["days"]), time=btime(),
                date=bdate(lang), food=pick(b["foods"]), city=pick(b["cities"]), phone=phone(lang), n=R.randint(36, 46))


def benign_prose(lang):
    text = pick(BL[lang]["frames"]).format(**benign_slots(lang))
    if len(text) < 40 and R.random() < 0.7:
        text = text + " " + pick(BL[lang]["frames"]).format(**benign_slots(lang))
    return dict(label="benign", variant="plain", segment="prose-" + lang, kind="everyday_note", value=text, lang=lang)


def benign_chat(lang):
    q_, a_ = pick(BENIGN_CHAT[lang])
    s = benign_slots(lang)
    x, y = R.sample(FIRST, 2)
    if R.random() < 0.5:
        value = ["%s: %s" % (x, q_.format(**s)), "%s: %s" % (y, a_.format(**s))]
    else:
        value = [{"from": x, "text": q_.format(**s)}, {"from": y, "text": a_.format(**s)}]
    return dict(label="benign", variant="plain", segment="chat-" + lang, kind="chat_snippet", value=value, lang=lang)


def benign_structured():
    t = R.randint(0, 6)
    lang = pick(LANGS)
    if t == 0:
        n = person()
        return "contact-card", "contact", {"name": n, "phone": phone(lang), "email": n.split()[0].lower() + "@" + pick(["gmail.com", "web.de", "outlook.com"]),
                                           "birthday": bdate("en"), "relation": pick(["cousin", "neighbour", "colleague", "kid's teacher", "plumber"]),
                                           "notes": pick(["prefers WhatsApp", "call after 6pm", "speaks German and Turkish", "has our spare key"])}
    if t == 1:
        return "calendar", "appointment", {"title": pick(["Physio", "Dentist", "Parent-teacher meeting", "Haircut", "Car MOT", "Vet: Miso vaccines"]),
                                           "date": date_iso(), "time": btime(), "location": pick(BL[lang]["cities"]),
                                           "reminder_minutes": pick([15, 30, 60, 1440])}
    if t == 2:
        return "form", "preferences", {"form": "newsletter_signup", "name": person(), "language": lang,
                                       "topics": R.sample(["gardening", "recipes", "cycling", "travel deals", "local events"], 2),
                                       "frequency": pick(["weekly", "monthly"])}
    if t == 3:
        c1, c2 = R.sample(BL[lang]["cities"], 2)
        return "itinerary", "travel", {"trip": "%s -> %s" % (c1, c2), "depart": date_iso() + " " + btime(),
                                       "seat_preference": pick(["window", "aisle"]), "hotel": pick(["Hotel Lindenhof", "Casa Azul", "Ryokan Sakura"]),
                                       "notes": pick(["late check-in", "breakfast included", "need a cot for the baby"])}
    if t == 4:
        return "med-schedule", "health", [{"med": m, "dose": d_, "when": w} for m, d_, w in
                                          R.sample([("Levothyroxine", "50 mcg", "07:00 before breakfast"), ("Vitamin D", "1000 IU", "with lunch"),
                                                    ("Ibuprofen", "400 mg", "only if needed"), ("Metformin", "500 mg", "with dinner"),
                                                    ("Cetirizine", "10 mg", "evening, in pollen season")], 3)]
    if t == 5:
        return "shopping-list", "shopping", [pick(["oat milk", "eggs", "rye bread", "tomatoes", "basil"]) for _ in range(3)] + \
            ["birthday card for " + pick(FIRST), "batteries AA x%d" % R.randint(4, 12)]
    return "profile", "preferences", {"diet": pick(["vegetarian", "pescatarian", "no restrictions", "halal"]),
                                      "allergies": R.sample(["peanuts", "shellfish", "penicillin", "pollen", "none"], 1),
                                      "coffee": pick(["black", "oat latte", "espresso"]), "home_city": pick(BL[lang]["cities"]),
                                      "languages": R.sample(LANGS, 2)}


def gen_benign_plain():
    for lang in LANGS:
        n = 44 if lang == "en" else 17
        for _ in range(n):
            emit(lambda lang=lang: benign_prose(lang))
        for _ in range(5 if lang == "en" else 4):
            emit(lambda lang=lang: benign_chat(lang))
    for _ in range(140):
        def mk():
            seg, kind, val_ = benign_structured()
            return dict(label="benign", variant="plain", segment=seg, kind=kind, value=val_)
        emit(mk)


# ------------------------------------------------------------ benign / hard look-alikes
def isbn13():
    body = "978" + digits(9)
    s = sum(int(c_) * (1 if i % 2 == 0 else 3) for i, c_ in enumerate(body))
    return body + str((10 - s % 10) % 10)


def ean13():
    body = pick(["400", "401", "500", "590", "800", "871", "300"]) + digits(9)
    s = sum(int(c_) * (1 if i % 2 == 0 else 3) for i, c_ in enumerate(body))
    return body + str((10 - s % 10) % 10)


def png_1x1():
    def chunk(t, data):
        return struct.pack(">I", len(data)) + t + data + struct.pack(">I", zlib.crc32(t + data) & 0xffffffff)
    raw = b"\x00" + bytes([R.randint(0, 255), R.randint(0, 255), R.randint(0, 255)])
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    return b64(png)


def sha(n=64):
    return hx(n)


MSGS = ["fix flaky checkout test", "bump deps", "add dark mode toggle", "revert cache change", "handle empty cart",
        "speed up image resize", "translate settings page"]


def f_git():
    s40 = sha(40)
    return pick(["Deployed commit %s to production on %s; rollback target is %s." % (s40, date_iso(), sha(7)),
                 "Bisect says the regression came in with %s ('%s')." % (s40[:pick([7, 8, 12])], pick(MSGS)),
                 "Remember to cherry-pick %s onto release/%d.%d before Friday." % (s40, R.randint(1, 9), R.randint(0, 20)),
                 {"repo": "%s/%s" % (pick(["acme", "lumen", "me"]), pick(["web", "api", "dotfiles"])), "branch": "main",
                  "head": s40, "ci": pick(["passed", "failed: lint"]), "note": "last known good build"}])


def f_checksum():
    f_ = pick(["ubuntu-24.04.1-desktop-amd64.iso", "Fedora-Workstation-40.iso", "backup-2026-03.tar.zst", "firmware_v2.1.bin",
               "raspios-bookworm-arm64.img.xz"])
    return pick(["SHA-256 of %s should be %s; verify before flashing." % (f_, sha(64)),
                 "md5 of the wedding photos archive: %s (to check the copy on the NAS)" % sha(32),
                 "sha1sum %s -> %s" % (f_, sha(40)), "Checksum from the download page for %s: sha256:%s" % (f_, sha(64))])


def f_digest():
    img = pick(["nginx", "postgres", "redis", "python", "ghcr.io/acme/api", "grafana/grafana"])
    return pick(["Pin the image to %s@sha256:%s instead of :latest." % (img, sha(64)),
                 "The prod deployment is running %s@sha256:%s (built %s)." % (img, sha(64), date_iso())])


def f_integrity():
    pk = pick(["left-pad", "react", "lodash", "zod", "express"])
    return pick(['"%s": {"version": "%d.%d.%d", "resolved": "https://registry.npmjs.org/%s/-/%s.tgz", "integrity": "sha512-%s"}'
                 % (pk, R.randint(1, 18), R.randint(0, 20), R.randint(0, 9), pk, pk, b64(rbytes(64))),
                 "requests==2.31.0 --hash=sha256:%s" % sha(64)])


def f_uuid():
    return pick(["Support case request id %s; the agent said to quote it when calling back." % uuid4(),
                 "trace_id=%s span=%s status=OK" % (uuid4(), hx(16)), "The Google Doc for the trip planning (shared only with the four of us by invite) has id %s." % rs(44, AN + "-_"),
                 {"event": "order_shipped", "event_id": uuid4(), "customer_ref": uuid4(), "ts": date_iso()}])


def f_order():
    return pick(["Amazon order %s-%s-%s: the blender, arriving %s." % (digits(3), digits(7), digits(7), date_iso()),
                 "Order #%s from the garden centre - 3 bags of compost, pay on pickup." % digits(8),
                 "Zalando Bestellnummer %s, Rücksendung bis %s." % (digits(11), date_iso()),
                 "IKEA order %s, delivery slot %s 8-12." % (digits(10), date_iso())])


def f_tracking():
    return pick(["UPS tracking 1Z%s%s%s for the camera lens." % (rs(6, ANU), digits(2), digits(8)),
                 "DHL Sendungsnummer %s - Paket liegt in der Packstation." % digits(10),
                 "USPS tracking %s, expected %s." % ("94" + digits(20), date_iso()),
                 "Royal Mail %s%s%sGB, signed for." % (rs(2, UP), digits(9), ""),
                 "La Poste suivi %s%s%s" % (rs(2, UP), digits(9), "FR") + ", colis pour maman."])


def f_booking():
    pnr = rs(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    return pick(["Booking ref %s for flight %s %d on %s, seat %d%s." % (pnr, pick(["LH", "BA", "AF", "KL", "IB", "TK"]), R.randint(100, 9999),
                                                                          date_iso(), R.randint(1, 40), pick("ACDF")),
                 "Hotel confirmation number %s (Hotel Lindenhof, 2 nights, breakfast included)." % digits(10),
                 "Train booking %s: %s -> %s, coach %d, seats %d-%d." % (pnr, pick(["Paris", "Lyon", "Basel"]), pick(["Milano", "Zürich"]),
                                                                         R.randint(1, 14), R.randint(10, 60), R.randint(61, 90))])


def f_invoice():
    return pick(["Invoice INV-2026-%06d from the plumber, due %s, amount 312.40 EUR." % (R.randint(1, 999999), date_iso()),
                 "Rechnung Nr. RE-%s vom Stromanbieter, Abschlag 86 EUR." % digits(8),
                 {"invoice_no": "F-%s" % digits(7), "vendor": "Imprimerie Martin", "total": "%d.%02d" % (R.randint(10, 900), R.randint(0, 99)),
                  "currency": "EUR", "due": date_iso()}])


def f_isbn():
    i = isbn13()
    return pick(["Book for the club: ISBN %s-%s-%s-%s-%s, paperback edition." % (i[:3], i[3], i[4:8], i[8:12], i[12]),
                 "Library reservation for ISBN %s, pick up within 7 days." % i, "ISBN %s is the translated edition, not the original." % i])


def f_iban_format():
    return pick(["German IBANs are DE, then 2 check digits, the 8-digit bank code and a 10-digit account number - 22 characters in total.",
                 "An IBAN check uses mod 97: move the first four characters to the end, convert letters to numbers (A=10 ... Z=35), the remainder must be 1.",
                 "The standard documentation example IBAN is DE89 3704 0044 0532 0130 00 - it's the sample from the spec, not anybody's account.",
                 "Format note for the form: FR IBANs have 27 characters (FRkk BBBB BGGG GGCC CCCC CCCC CKK), the form rejects spaces.",
                 "UK sort codes are 6 digits (xx-xx-xx) and account numbers 8 digits; the IBAN adds GBkk and a 4-letter bank code.",
                 "Spanish IBANs: ES + 2 check digits + 20 digits (bank, branch, 2 control digits, account). Total length 24.",
                 "IBAN length by country: NL 18, BE 16, CH 21, AT 20, IT 27, PL 28. The field in our app is max 34 chars."])


DOC_EXAMPLES = [
    ("AWS access key ID", "AKIAIOSFODNN7EXAMPLE"), ("AWS secret access key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("Stripe test key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"),
    ("JWT", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    ("Slack bot token", "xoxb-not-a-real-token-this-will-not-work"),
    ("Azurite storage account key", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="),
    ("BIP39 test mnemonic", "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"),
    ("Twilio Account SID", "ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX"), ("card number", "4242 4242 4242 4242"),
]


def f_doc_example():
    name, ex = pick(DOC_EXAMPLES)
    return pick(["The docs use %s as the example %s - it's not a real credential, just the tutorial placeholder." % (ex, name),
                 "Example from the official documentation (%s): %s. Don't confuse it with ours; ours lives in the vault." % (name, ex),
                 "Note for the workshop slides: show the sample %s '%s' from the docs, never a real one." % (name, ex),
                 "Why does the linter flag '%s'? It's the well-known documentation example %s, safe to ignore in README.md." % (ex, name)])


def f_placeholder():
    v_ = pick(["<YOUR_API_KEY>", "YOUR_TOKEN_HERE", "xxxxxxxxxxxxxxxxxxxxxxxx", "sk_live_XXXXXXXXXXXXXXXXXXXXXXXX", "****",
               "changeme", "REPLACE_ME", "<password>", "your-password-here", "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "TODO", "dummy"])
    return pick(["In the template config, api_key is set to %s - that's a placeholder, the real value is injected at deploy time." % v_,
                 "The README says to put %s in .env and replace it with your own key. I haven't created one yet." % v_,
                 "password: %s  <- placeholder in docker-compose.example.yml, the real compose file doesn't exist in git" % v_,
                 "Form field hint text reads '%s'; users type their own credential there." % v_])


def f_redacted():
    return pick(["The error log showed token=sk_live_****%s (redacted), so nothing leaked." % rs(4, AN),
                 "Support replied with my password as [REDACTED] - good, they don't see it.",
                 "Screenshot for the bug report: Authorization: Bearer ******** (masked by the browser devtools export).",
                 "ghp_%s%s - that's how GitHub shows the token in the list after creation, only the last 4 chars." % ("*" * 32, rs(4, AN)),
                 "password=•••••••• in the config dump; the tool masks secrets automatically.",
                 "API key: %s…%s (truncated on the dashboard; full key only shown once)" % (pick(["sk-proj-", "pk_", "AKIA"]), rs(4, AN))])


def f_secret_ref():
    return pick(["The Stripe key is in Vault at secret/data/prod/payments/stripe, field 'secret_key'. Ask %s for access." % pick(FIRST),
                 "DB password comes from op://Engineering/Postgres prod/password via the 1Password CLI.",
                 "Use arn:aws:secretsmanager:eu-west-1:%s:secret:prod/db-credentials-%s for the RDS password." % (digits(12), rs(6, AN)),
                 "In the workflow, reference ${{ secrets.NPM_TOKEN }} - never paste the token into the YAML.",
                 "Wifi password is on the sticker under the router, not written anywhere else.",
                 "Bank login is saved in the iCloud Keychain under 'Sparkasse'; I don't keep it anywhere else.",
                 "GCP key file lives at ~/.config/gcloud/application_default_credentials.json on the build box; do not copy it.",
                 "Kubernetes secret 'api-credentials' in namespace payments holds the token; mount it, don't print it."])


def f_public_key():
    c = pick(["me@laptop", "deploy@ci", "anna@desktop"])
    return pick(["Add my public key to the server's authorized_keys: %s" % ssh_public(c),
                 "My age public key for sending me encrypted files: age1%s" % rs(58, BECH),
                 pem("PUBLIC KEY", bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + rbytes(64)) +
                 "\n(public key for verifying the release signatures)"])


def f_fingerprint():
    return pick(["Server host key fingerprint: SHA256:%s - compare it when connecting the first time." % rs(43, B64C),
                 "My GPG fingerprint: %s" % " ".join(hx(4).upper() for _ in range(10)),
                 "Certificate SHA-1 fingerprint %s, expires %s." % (":".join(hx(2).upper() for _ in range(20)), date_iso()),
                 "Signal safety number with %s verified in person." % pick(FIRST)])


PW_TALK = {
    "en": ["I changed my PIN yesterday after the card got swallowed by the ATM.", "Remind me to update my bank password next week - it expires on the 30th.",
           "I forgot my Netflix password again, so I used the reset link.", "My phone asks for the passcode after every restart, that's normal.",
           "The bank said they'll never ask for my PIN on the phone.", "Set up 2FA on my email today with the authenticator app.",
           "I need a new password manager - which one do you recommend?", "The building changed the door code, the caretaker will text us the new one.",
           "Never store the alarm code in my notes, I'd rather memorise it.", "My seed phrase is written on steel plates in the safe deposit box, not digital."],
    "de": ["Ich habe gestern meine PIN geändert.", "Erinnere mich daran, das Passwort vom Onlinebanking nächste Woche zu ändern.",
           "Den Türcode bekommen wir morgen vom Hausmeister."],
    "fr": ["J'ai changé le code de ma carte hier.", "Rappelle-moi de changer mon mot de passe Netflix le mois prochain.",
           "Le digicode a changé, la gardienne va nous donner le nouveau."],
    "es": ["Ayer cambié el PIN de la tarjeta.", "Recuérdame actualizar la contraseña del banco la semana que viene.",
           "He olvidado la contraseña del wifi, miraré la pegatina del router."],
    "it": ["Ho cambiato il PIN del bancomat ieri.", "Ricordami di aggiornare la password della banca."],
    "pt": ["Mudei a senha do cartão ontem.", "Lembra-me de trocar a palavra-passe do email."],
    "nl": ["Ik heb gisteren mijn pincode veranderd.", "Herinner me eraan mijn wachtwoord te wijzigen."],
    "pl": ["Wczoraj zmieniłem PIN do karty.", "Przypomnij mi o zmianie hasła do banku."],
    "sv": ["Jag bytte pinkod igår.", "Påminn mig om att byta lösenord till banken."],
    "tr": ["Dün kart şifremi değiştirdim.", "Banka şifremi güncellemeyi hatırlat."],
    "ru": ["Вчера поменял ПИН-код карты.", "Напомни сменить пароль от банка на следующей неделе."],
    "ja": ["昨日キャッシュカードの暗証番号を変えた。", "来週、銀行のパスワードを変更するのを思い出させて。"],
    "zh": ["我昨天改了银行卡密码。", "提醒我下周修改网银密码。"],
    "ko": ["어제 카드 비밀번호 바꿨어.", "다음 주에 은행 비밀번호 바꾸라고 알려 줘."],
    "ar": ["غيّرت الرقم السري للبطاقة أمس.", "ذكّرني بتغيير كلمة مرور البنك الأسبوع القادم."],
}


def f_pw_talk():
    lang = pick(list(PW_TALK) + ["en"] * 4)
    s = pick(PW_TALK[lang])
    if len(s) < 40:
        s += " " + pick([x for x in PW_TALK[lang] if x != s])
    return s, lang


def f_phone():
    lang = pick(LANGS)
    return pick(["Dentist's number: %s (reception closes at 5)." % phone(lang), "%s's new number is %s, old one is disconnected." % (pick(FIRST), phone(lang)),
                 "Emergency numbers for the trip: 112 general, pharmacy on call %s." % phone(lang),
                 {"name": person(), "mobile": phone(lang), "work": phone(lang), "label": "plumber"}]), lang


def f_address():
    return pick(["Aunt %s lives at Calle Mayor %d, %dº %s, 28013 Madrid - ring 'Ferrer'." % (pick(FIRST), R.randint(1, 90), R.randint(1, 8), pick("ABCD")),
                 "New office: Kastanienallee %d, 10119 Berlin, Hinterhaus, %d. OG, Raum %d." % (R.randint(1, 120), R.randint(1, 5), R.randint(100, 599)),
                 "Flat %d%s, %d Kingsley Road, Leeds LS6 %d%s - parcel lockers are at the back." % (R.randint(1, 9), pick("ABC"), R.randint(1, 200), R.randint(1, 9), rs(2, "ABDEFGHJLNPQRSTUWXYZ")),
                 "Grandpa's care home: %d Rue des Lilas, 69003 Lyon, chambre %d, 2e étage." % (R.randint(1, 80), R.randint(100, 299)),
                 "Send the invitation to %d Elm Street, Apt %d, Springfield, IL 627%02d." % (R.randint(10, 9999), R.randint(1, 40), R.randint(0, 99))])


def f_version():
    return pick(["Upgraded to PostgreSQL 16.%d, Node 20.%d.%d and Django 5.0.%d last night." % (R.randint(0, 4), R.randint(0, 18), R.randint(0, 9), R.randint(0, 9)),
                 "Build 4.%d.%d-rc.%d+sha.%s passed QA; release notes due %s." % (R.randint(0, 9), R.randint(0, 20), R.randint(1, 5), hx(7), date_iso()),
                 "My phone is on iOS 17.%d.%d and the watch on watchOS 10.%d." % (R.randint(0, 6), R.randint(0, 2), R.randint(0, 5)),
                 "Firmware for the router: 7.%d (build %d); don't auto-update before the holidays." % (R.randint(10, 60), R.randint(100000, 999999))])


def f_coords():
    la, lo = R.uniform(-60, 70), R.uniform(-170, 170)
    return pick(["Trailhead parking at %.4f, %.4f - the gravel lot next to the chapel." % (la, lo),
                 "geo:%.5f,%.5f is where we found the good mushrooms last autumn." % (la, lo),
                 "Campsite %d is at %.4f° N, %.4f° E, bring cash for the ranger." % (R.randint(1, 80), abs(la), abs(lo))])


def f_measure():
    return pick(["Living room is %.2f m x %.2f m, ceiling %.2f m - for the rug and curtain order." % (R.uniform(3, 7), R.uniform(3, 6), R.uniform(2.3, 3.2)),
                 "Sofa dimensions 214 x 96 x 83 cm; the door frame is 80 cm wide, so it fits diagonally.",
                 "Bread recipe: 500 g flour, 350 ml water, 10 g salt, 7 g yeast, bake at 230 °C for %d min." % R.randint(30, 45),
                 "Bike frame size %d cm, saddle height %.1f cm, tyre pressure %.1f bar." % (R.randint(48, 60), R.uniform(68, 80), R.uniform(3.5, 6.5))])


def f_lab():
    return pick(["Blood test %s: HbA1c %.1f%%, LDL %d mg/dL, TSH %.1f mIU/L, ferritin %d ng/mL." % (date_iso(), R.uniform(4.8, 6.4), R.randint(70, 180), R.uniform(0.5, 4.5), R.randint(20, 300)),
                 "Vitamin D came back at %d nmol/L; doctor said to keep the 1000 IU supplement." % R.randint(30, 120),
                 {"test": "lipid panel", "date": date_iso(), "total_chol": R.randint(150, 260), "hdl": R.randint(35, 90), "triglycerides": R.randint(60, 250)}])


def f_dosage():
    return pick(["Amoxicillin 500 mg three times a day for %d days, with food." % R.choice([5, 7, 10]),
                 "Kids' paracetamol: %.1f ml of the 120 mg/5 ml syrup every 6 hours, max 4 doses." % R.uniform(5, 10),
                 "Levothyroxine %d mcg every morning, 30 minutes before breakfast." % R.choice([25, 50, 75, 100]),
                 "Ibuprofen 400 mg max three times daily, not on an empty stomach."])


def f_score():
    return pick(["Won the tennis final %d-%d 3-6 7-5! Next round on %s." % (R.randint(6, 7), R.randint(0, 5), date_iso()),
                 "Volleyball tonight: 25-%d, 21-25, 25-%d, 15-%d." % (R.randint(10, 23), R.randint(10, 23), R.randint(5, 13)),
                 "Leo's team lost 2-3 but he scored in the %dth minute." % R.randint(10, 89),
                 "Bowling scores: 187, 203, 164 - best series this season."])


def f_flight():
    return pick(["%s %d departs %s from gate %s%d, boarding 40 min before." % (pick(["LH", "BA", "AF", "KL", "IB", "TK", "EK", "QF"]), R.randint(100, 9999), btime(), pick("ABCDE"), R.randint(1, 60)),
                 "Return flight %s%d lands at %s, terminal %d - pick me up at arrivals." % (pick(["U2", "FR", "W6", "VY"]), R.randint(1000, 9999), btime(), R.randint(1, 5))])


def f_room():
    return pick(["Hotel room %d, conference room %s-%d for the workshop." % (R.randint(101, 1899), pick(["3B", "4A", "2C"]), R.randint(100, 399)),
                 "Mum is in ward %d, bed %d; visiting hours 14:00-19:00." % (R.randint(1, 30), R.randint(1, 40)),
                 "Gym locker #%d - I bring my own padlock." % R.randint(1, 300), "Lecture moved to room H%d, building %d." % (R.randint(100, 499), R.randint(1, 12))])


def f_datetime():
    return pick(["Meeting %sT%s:00+02:00, recurring weekly; epoch %d in the calendar export." % (date_iso(), "%02d:%02d" % (R.randint(8, 18), R.choice([0, 30])), epoch()),
                 "Cron for the backup: 15 3 * * 1-5 (weekdays 03:15 UTC).", "Timestamp from the camera: %d000 ms -> %s." % (epoch(), date_iso())])


def f_product():
    return pick(["EAN %s - the exact shampoo my son isn't allergic to." % ean13(),
                 "Printer cartridge model %s-%dXL, black, compatible with the %d series." % (pick(["HP", "CLI", "TN"]), R.randint(100, 999), R.randint(2000, 9000)),
                 "Replacement filter part no. %s-%s for the dishwasher." % (rs(3, UP), digits(6)),
                 "Headphones model WH-1000XM%d, serial on the box starts with %s." % (R.randint(3, 5), rs(2, UP))])


def f_chem():
    return pick(["Chem homework: C6H12O6 + 6 O2 -> 6 CO2 + 6 H2O (cellular respiration).",
                 "Descaler is citric acid C6H8O7; don't mix with NaOCl (bleach).", "KMnO4 is the purple one, CuSO4·5H2O the blue crystals.",
                 "Pool test: free chlorine %.1f ppm, pH %.1f, CYA %d ppm." % (R.uniform(0.5, 3), R.uniform(6.8, 7.8), R.randint(20, 60))])


def f_b64_harmless():
    txt = pick(["Happy birthday, Oma! Love from all of us.", "See you at the lake on Saturday", "grocery list: eggs, milk, bread",
                "The quick brown fox jumps over the lazy dog", "Thanks for the lovely dinner!"])
    return pick(["Tiny placeholder image for the newsletter: data:image/png;base64,%s" % png_1x1(),
                 "My nephew sent me '%s' and said decode it - it just says: %s" % (b64(txt.encode()), txt),
                 "base64 test string from the tutorial: %s (decodes to '%s')" % (b64(txt.encode()), txt)])


def f_clean_log():
    ts = "%sT%02d:%02d:%02dZ" % (date_iso(), R.randint(0, 23), R.randint(0, 59), R.randint(0, 59))
    return pick(["%s INFO request completed method=GET path=/health status=200 duration_ms=%d" % (ts, R.randint(1, 90)),
                 "%s WARN disk usage at %d%% on /var, rotating logs" % (ts, R.randint(80, 95)),
                 "%s ERROR payment webhook retry %d/5 for order %s: upstream timeout" % (ts, R.randint(1, 5), digits(8)),
                 "[%s] user_id=%d logged in from 10.0.%d.%d (mfa=true)" % (ts, R.randint(1000, 99999), R.randint(0, 255), R.randint(1, 254))])


def f_crypto_addr():
    return pick(["Donations address (public, fine to share): bc1q%s" % rs(38, BECH),
                 "Send the refund to my ETH address 0x%s - that's the public receiving address." % hx(40),
                 "My Lightning address is %s@walletofsatoshi.com, public." % pick(FIRST).lower()])


def f_cloud_ids():
    return pick(["The staging VM is i-0%s in vpc-%s, security group sg-0%s." % (hx(16), hx(8), hx(16)),
                 "Bucket arn:aws:s3:::acme-%s-logs, account %s, region eu-west-1." % (rs(6, ANL), digits(12)),
                 "Azure subscription %s, resource group rg-%s-prod." % (uuid4(), pick(["web", "data"])),
                 "GCP project id %s-%s, number %s." % (pick(["orchard", "lumen"]), digits(6), digits(12))])


def f_k8s_names():
    return pick(["Pod web-%s-%s keeps crashlooping, OOMKilled at 512Mi." % (hx(9), rs(5, ANL)),
                 "ReplicaSet api-%s scaled to 4; job backup-%s completed." % (hx(10), digits(8))])


def f_asset_hash():
    return pick(["Cached bundle main.%s.js is stale; the new build is main.%s.js." % (hx(8), hx(8)),
                 "styles.%s.css didn't invalidate on the CDN, purge it." % hx(20), "chunk-vendors.%s.js is 1.2 MB - too big." % hx(8)])


def f_regex():
    return pick(["PEM private keys start with '-----BEGIN ... PRIVATE KEY-----'; the scanner keys on that header line.",
                 "Google API keys are AIza followed by 35 chars of [0-9A-Za-z_-]; that's the pattern for the pre-commit hook.",
                 "JWTs are three base64url segments separated by dots, the first usually starts with eyJ.",
                 "OpenAI keys contain the marker T3BlbkFJ ('OpenAI' in base64) - handy for regex, per the blog post.",
                 "Secret-scanning rule for GitHub tokens: ghp_[A-Za-z0-9]{36}; for Slack: xox[baprs]-[0-9A-Za-z-]+.",
                 "AWS key IDs match (AKIA|ASIA)[A-Z2-7]{16}; the secret is 40 base64 chars. Just the regex, for the talk.",
                 "Stripe live keys look like sk_live_ followed by alphanumerics; restricted ones start with rk_live_.",
                 "Card numbers: ^4[0-9]{12}(?:[0-9]{3})?$ for Visa; always validate with the Luhn check."])


TEST_CARDS = [("4242 4242 4242 4242", "Stripe success"), ("4000 0000 0000 0002", "Stripe generic decline"),
              ("5555 5555 5555 4444", "Mastercard test"), ("4111 1111 1111 1111", "Visa test"), ("3782 822463 10005", "Amex test"),
              ("4000 0000 0000 9995", "insufficient funds test"), ("6011 1111 1111 1117", "Discover test")]


def f_test_card():
    n, what = pick(TEST_CARDS)
    return pick(["For the sandbox checkout use %s (%s), any future expiry and any CVC - it's a public test number." % (n, what),
                 "QA note: test card %s triggers '%s' in test mode only; never works in live mode." % (n, what)])


def f_masked():
    return pick(["Paid with the Visa ending in %s; refund will go back to that card." % digits(4),
                 "Card on file: **** **** **** %s, exp %02d/%d." % (digits(4), R.randint(1, 12), R.randint(26, 30)),
                 "Statement shows Mastercard xxxx-%s charged twice for the gym." % digits(4)])


def f_otp_talk():
    return pick(["%s sends a 6-digit code by SMS each login; the app version uses push approval instead." % pick(OTP_SVCS),
                 "I printed the 2FA backup codes and put them in the fireproof box - not storing them here.",
                 "If the code from %s doesn't arrive, the support page says to wait 60 seconds and request again." % pick(OTP_SVCS),
                 "Switched from SMS codes to a hardware key for the email account today.",
                 "The bank's SMS code expires after 5 minutes, so wait until I'm at the laptop before requesting it.",
                 "Never read verification codes to anyone who calls - the bank will never ask for them.",
                 "My authenticator app is on the old phone; move it to the new one before wiping the old.",
                 "Apple sends the 2FA code to the iPad too, not only the phone."])


def f_vocab():
    ws = R.sample(BIP39, R.randint(7, 10))
    return pick(["Spelling words for %s's test on Friday: %s." % (pick(FIRST), ", ".join(ws)),
                 "English vocabulary for the evening class, unit %d: %s" % (R.randint(1, 20), "; ".join(ws))])


def f_open_wifi():
    return pick(["Airport wifi '%s-Free' gives 60 minutes free, no password; just accept the terms." % pick(["MUC", "CDG", "AMS", "LIS"]),
                 "The train wifi (%s) is open; log in on the portal page with nothing." % pick(["WIFIonICE", "SNCF_WIFI_INOUI", "Trenitalia"]),
                 "Neighbour's guest network '%s' has no password, they said we can use it during the outage." % pick(SSIDS),
                 "Our router's WPS button pairs the printer - no need to type the wifi password.",
                 "Cafe wifi '%s_Guest' is open, no password - the captive portal just asks for an email." % pick(["Lumen", "Bohnen", "Kaffa"]),
                 "Hotel wifi: connect to 'Lindenhof-Guest' and log in with your room number and surname.",
                 "The library network eduroam uses my university login; nothing to store here."])


def f_env_template():
    keys = R.sample(["STRIPE_SECRET_KEY", "DATABASE_URL", "OPENAI_API_KEY", "SENTRY_DSN", "REDIS_URL", "SMTP_PASSWORD", "JWT_SECRET"], 4)
    return "# .env.example - copy to .env and fill in\n" + "\n".join("%s=" % k for k in keys) + "\nPORT=3000"


def f_conn_nopw():
    return pick(["Server=tcp:%s.database.windows.net;Database=sales;Authentication=Active Directory Managed Identity;" % rs(8, ANL),
                 "jdbc:postgresql://%s:5432/analytics?user=readonly&sslmode=verify-full (cert auth)" % pick(["pg.lan", "10.0.7.3"]),
                 "mysql://root@127.0.0.1:3306/test - throwaway Docker DB for unit tests, no password set.",
                 "DATABASE_URL=postgresql://app@db.internal:5432/app?sslmode=require (IAM auth, no password in the URL)",
                 "mongodb://localhost:27017/dev - local only, no auth.", "redis://localhost:6379/0 for the dev container.",
                 "postgres://reporting:${PGPASSWORD}@warehouse.corp:5432/bi - password comes from the environment."])


def f_env_lookup():
    return pick(["$token = $env:AZURE_DEVOPS_PAT  # provided by the pipeline variable group",
                 "let key = std::env::var(\"ANTHROPIC_API_KEY\").expect(\"ANTHROPIC_API_KEY must be set\");",
                 "String secret = System.getenv(\"PAYPAL_CLIENT_SECRET\"); // injected by the container platform",
                 "export AWS_PROFILE=%s  # credentials come from SSO, nothing stored locally" % pick(["dev", "sandbox", "billing-ro"]),
                 "ENV['SENDGRID_API_KEY'] is read in config/initializers/mail.rb; the value is in the Rails credentials file.",
                 'api_key = os.environ["OPENAI_API_KEY"]  # set in the shell profile, never hard-coded',
                 "const token = process.env.GITHUB_TOKEN ?? ''; if (!token) throw new Error('missing GITHUB_TOKEN');",
                 'key := os.Getenv("STRIPE_SECRET_KEY")\nif key == "" {\n\tlog.Fatal("STRIPE_SECRET_KEY not set")\n}',
                 "password = keyring.get_password('nas', 'admin')  # read from the OS keychain"])


def vin():
    return rs(17, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789")


def f_serial():
    return pick(["Car VIN %s - needed for the insurance quote." % vin(), "Laptop serial number C02%s, warranty until %s." % (rs(9, ANU), date_iso()),
                 "Dishwasher model SMS4HVI33E, serial FD%s, for the repair call." % digits(10), "Number plate of the rental: %s-%s %d" % (rs(2, UP), rs(2, UP), R.randint(100, 9999))])


def f_network():
    return pick(["Printer is at 192.168.%d.%d, NAS at 192.168.%d.%d." % (R.randint(0, 2), R.randint(2, 254), R.randint(0, 2), R.randint(2, 254)),
                 "MAC of the kid's tablet for the parental filter: %s" % ":".join(hx(2) for _ in range(6)),
                 "Office subnet 10.%d.0.0/16, VPN hands out 10.8.%d.0/24, IPv6 prefix 2001:db8:%s::/48." % (R.randint(1, 250), R.randint(0, 9), hx(4))])


def f_academic():
    return pick(["Paper to cite: doi:10.%d/%s" % (R.randint(1000, 9999), rs(8, ANL)), "arXiv:%d%02d.%05d (v2) has the corrected proof." % (R.randint(20, 26), R.randint(1, 12), R.randint(0, 99999)),
                 "PMID %s - the study on vitamin D and sleep." % digits(8), "My ORCID is 0000-000%d-%s-%s." % (R.randint(1, 3), digits(4), digits(4))])


def f_hex_color():
    return pick(["Brand palette: primary #%s, accent #%s, background #%s." % (hx(6), hx(6), hx(6)),
                 "Paint for the hallway: RAL 7035 light grey, accent wall #%s." % hx(6)])


def f_lucky():
    nums = sorted(R.sample(range(1, 50), 6))
    return pick(["Lottery numbers I always play: %s, bonus %d." % (" ".join(map(str, nums)), R.randint(1, 10)),
                 "Grandpa's favourite numbers for the Saturday draw: %s." % ", ".join(map(str, nums))])


def f_media():
    return pick(["Song for the wedding: https://open.spotify.com/track/%s" % rs(22, AN), "Tutorial video: https://youtu.be/%s?t=%d" % (rs(11, AN + "-_"), R.randint(10, 900)),
                 "Playlist id PL%s has all the workout songs." % rs(32, AN + "-_")])


def f_ticket():
    return pick(["Bug is tracked in JIRA-%d, duplicate of WEB-%d." % (R.randint(100, 9999), R.randint(100, 9999)), "GitHub issue #%d has the workaround." % R.randint(100, 40000),
                 "Zendesk ticket #%d about the double charge, escalated." % R.randint(100000, 9999999)])


def f_policy():
    return pick(["Company rule: passwords are never sent by email; IT resets them only in person or via the self-service portal.",
                 "The password manager generates %d-character passwords by default; I bumped it to %d." % (R.randint(12, 16), R.randint(20, 32)),
                 "Our school portal forces a password change every %d days, which is why everyone forgets theirs." % pick([60, 90, 180]),
                 "NIST guidance: length over complexity, no forced periodic rotation, check against breached lists.",
                 "New password policy at work: at least 14 characters, one digit, one symbol, no reuse of the last 5, rotation every 90 days.",
                 "The bank app PIN must be 6 digits and not a birthday; they lock it after 3 wrong tries.",
                 "Wifi passphrases should be 12+ characters; WPA3 if the router supports it."])


def f_rot13_spoiler():
    ans = pick(["The butler did it", "Rosebud was the sled", "Bruce Willis was dead all along", "It was a dream",
                "The answer to riddle %d is a shadow" % R.randint(1, 30), "Snape kills Dumbledore", "The treasure is under the oak",
                "Crossword %d across: ELEPHANT" % R.randint(1, 40)])
    return pick(["Puzzle answer (rot13 so you don't see it by accident): %s", "Spoiler in rot13 for the book club: %s",
                 "Geocache hint (rot13, as on the listing): %s"]) % codecs.encode(ans, "rot13")


def f_hex_harmless():
    txt = pick(["Happy birthday Mia", "see you at 8", "I love pancakes", "Hello world", "Open the blue box",
                "Go to room %d" % R.randint(1, 20), "Look behind the clock", "Well done team %s" % pick(FIRST)])
    return pick(["Escape room clue was hex: %s (it spelled '%s')", "Kid's secret-agent game message in hex: %s = '%s'"]) % (txt.encode().hex(), txt)


def f_spelled_numbers():
    return pick(["Grandma is ninety-one and still walks three kilometres every morning.",
                 "The recipe serves six; double it for the twelve guests on %s." % pick(BL["en"]["days"]),
                 "Our flat is on the fifth floor, the second door on the left.",
                 "Leo scored twenty-three points and had seven rebounds on %s." % pick(BL["en"]["days"]),
                 "Mein Sohn ist acht und meine Tochter fünf; beide gehen in die Grundschule.",
                 "Le train part à dix-huit heures trente, quai numéro quatre.",
                 "My daughter turns seven on Tuesday and wants a cake with four layers.",
                 "Meet at half past nine by platform three; the train has twelve coaches.",
                 "Call me back at four fifteen, I'm in meetings until four.",
                 "We need two hundred fifty grams of butter and three eggs for the recipe."])


def f_nato_spelling():
    nm = pick(LAST).replace(" ", "").lower()
    return "Surname for the booking, spelled: %s" % "-".join(NATO[ch].capitalize() for ch in nm if ch in NATO)


def f_zw_emoji():
    return pick(["%s's new profile name: %s 👩\u200d🍳 (she started a cooking blog)" % (pick(FIRST), pick(FIRST)),
                 "Reaction emoji for the chat: 🧑\u200d🤝\u200d🧑 for meetups, 🐻\u200d❄️ for the winter trip.",
                 "Hindi word from the lesson: क्\u200dष (the joiner keeps the half form), teacher %s." % pick(FIRST),
                 "Status emoji ❤️\u200d🔥 on %s's birthday post." % pick(FIRST),
                 "Family group chat name: The Nowaks 👨\u200d👩\u200d👧\u200d👦 + grandma 👵", "Pride picnic on Saturday 🏳️\u200d🌈 at the park",
                 "Persian phrase from class: می\u200cخواهم (I want) - the half-space is a ZWNJ.", "Team emoji: 🧑\u200d💻 for devs, 👩\u200d🔬 for the lab."])


def f_nested_clean():
    leaf = {"timeout_ms": R.randint(100, 5000), "retries": R.randint(1, 5)}
    for i in range(R.randint(5, 8)):
        leaf = {pick(["cfg", "svc", "http", "client", "opts", "layer"]) + str(i): leaf}
    leaf["meta"] = {"owner": pick(FIRST).lower(), "desc": "network tuning"}
    return leaf


def f_md_table_clean():
    rows = "\n".join("| %s | %s | %s |" % (pick(BL["en"]["days"]), btime(), pick(["swim", "piano", "football", "tutoring"])) for _ in range(3))
    return "| Day | Time | Activity |\n|---|---|---|\n" + rows


def f_loyalty():
    return pick(["Miles & More number %s - add it when booking." % " ".join(digits(4) for _ in range(4)),
                 "Library card number %s, due date for the books is %s." % (digits(10), date_iso()),
                 "Supermarket loyalty card %s; points expire in June." % digits(13)])


def f_social_id():
    return pick(["The post with the recipe: https://x.com/%s/status/%s" % (pick(FIRST).lower(), digits(19, True)),
                 "Discord message link: https://discord.com/channels/%s/%s/%s" % (digits(18, True), digits(18, True), digits(19, True))])


def f_math():
    return pick(["Tau is 6.283185307179586476925286766559, twice pi - for Leo's maths project.",
                 "ln(2) = 0.693147180559945309417232121458, the half-life formula uses it.",
                 "Euler-Mascheroni constant 0.5772156649015328606065120900824 (memorised %d digits so far)." % R.randint(10, 30),
                 "Avogadro 6.02214076e23 per mol, Planck 6.62607015e-34 J s - exam cheat sheet.",
                 "Speed of light 299792458 m/s exactly; g = 9.80665 m/s^2 standard gravity.",
                 "Pi to 30 digits for the poster: 3.141592653589793238462643383279", "e = 2.718281828459045235360287471352...",
                 "sqrt(2) = 1.41421356237309504880168872420969807856967", "Golden ratio 1.6180339887498948482045868343656"])


def f_vat():
    return pick(["Company VAT ID DE%s, commercial register HRB %d (public info on the invoice)." % (digits(9), R.randint(10000, 299999)),
                 "Supplier's SIRET %s, TVA FR%s." % (digits(14), digits(11)), "DUNS %s for the supplier portal." % digits(9)])


def f_short_codes():
    return pick(["Bus %d to the airport, then tram %d; postcode %s." % (R.randint(100, 999), R.randint(1, 20), digits(5)),
                 "Extension %s reaches the front desk; room %d%s for the parent meeting." % (digits(4), R.randint(1, 4), pick("ABC")),
                 "Our area code is %s and the postal code is %s." % (digits(3), digits(5)), "Shoe size %d, jeans %d/%d." % (R.randint(36, 46), R.randint(28, 36), R.randint(30, 34))])


FAMILIES = [
    ("git-commit-sha", f_git), ("file-checksum", f_checksum), ("container-digest", f_digest), ("package-integrity", f_integrity),
    ("uuid-identifier", f_uuid), ("order-number", f_order), ("tracking-number", f_tracking), ("booking-reference", f_booking),
    ("invoice-number", f_invoice), ("isbn", f_isbn), ("iban-format", f_iban_format), ("doc-example-key", f_doc_example),
    ("placeholder", f_placeholder), ("redacted", f_redacted), ("secret-reference", f_secret_ref), ("public-key", f_public_key),
    ("key-fingerprint", f_fingerprint), ("password-talk", f_pw_talk), ("phone-number", f_phone), ("postal-address", f_address),
    ("version-number", f_version), ("coordinates", f_coords), ("measurements", f_measure), ("lab-values", f_lab),
    ("dosage", f_dosage), ("sports-score", f_score), ("flight-number", f_flight), ("room-number", f_room),
    ("date-time", f_datetime), ("product-code", f_product), ("chemical-formula", f_chem), ("base64-harmless", f_b64_harmless),
    ("clean-log-line", f_clean_log), ("crypto-public-address", f_crypto_addr), ("cloud-resource-id", f_cloud_ids),
    ("k8s-generated-name", f_k8s_names), ("build-asset-hash", f_asset_hash), ("detector-regex", f_regex),
    ("test-card-number", f_test_card), ("masked-card", f_masked), ("otp-talk", f_otp_talk), ("vocab-wordlist", f_vocab),
    ("open-wifi", f_open_wifi), ("env-template-empty", f_env_template), ("conn-string-no-password", f_conn_nopw),
    ("code-env-lookup", f_env_lookup), ("serial-vin", f_serial), ("network-address", f_network), ("academic-id", f_academic),
    ("hex-color", f_hex_color), ("lucky-numbers", f_lucky), ("media-id", f_media), ("ticket-id", f_ticket),
    ("password-policy", f_policy), ("rot13-spoiler", f_rot13_spoiler), ("hex-harmless", f_hex_harmless),
    ("spelled-numbers", f_spelled_numbers), ("nato-spelling", f_nato_spelling), ("zero-width-emoji", f_zw_emoji),
    ("nested-config-clean", f_nested_clean), ("markdown-table-clean", f_md_table_clean), ("loyalty-number", f_loyalty),
    ("social-post-id", f_social_id), ("math-constant", f_math), ("vat-company-id", f_vat), ("short-numeric-codes", f_short_codes),
]


def gen_benign_hard(per=7):
    for name, fn in FAMILIES:
        n = per + (8 if name == "password-talk" else 0)
        for _ in range(n):
            def mk(fn=fn, name=name):
                r = fn()
                lang = None
                if isinstance(r, tuple):
                    r, lang = r
                core = None
                if isinstance(r, str) and R.random() < 0.06:
                    core, r = r, as_chat(r)
                return dict(label="benign", variant="hard", segment=name, kind=name.replace("-", "_"), value=r, lang=lang,
                            core=core)
            emit(mk)


# ------------------------------------------------------------ output
INDEPENDENCE = """\
This corpus was written from general knowledge only, by a helper session working under strict independence rules.

What was read and run:
- the task brief (a prose description of the required composition and record format);
- `mkdir -p` of this folder and `ls -la` / `wc` / `grep` / `sed` / `cmp` / `sha256sum` on this folder's own files only;
- this generator, run with the Python 3.11 standard library (`python3 make_heldout11.py`), plus ad-hoc
  `python3`/`sha256sum`/`cmp` checks of its own output (JSON validity, uniqueness, determinism, counts, a manual
  read of randomly sampled records); for the determinism checks, temporary copies/hash lists were written to
  /tmp and /dev/shm (outside the repository), compared and deleted.

What was NOT done:
- nothing else under /work/main was listed, read, grepped or opened (no other tests/data folders, no detector
  code, no benchmark, no docs), and nothing under /work/shared;
- no git command was run;
- no secret scanner (detect-secrets, gitleaks, betterleaks, kingfisher, trufflehog, ...) was imported or run,
  and no project code was imported or run;
- no web search and no code/document search tools were used; no packages were installed.

All token formats, prose templates and look-alike families were written from memory. Every credential-like value
is produced by `random.Random(1111_2026)`; none is a real credential. Card numbers are random, Luhn-valid, with real
brand prefixes, and published test numbers are excluded from secret records. Famous documentation sample values
(e.g. the AWS `...EXAMPLE` keys, the jwt.io token, Stripe's documented test key, the BIP39 test mnemonic, public test
card numbers) appear only in benign records that say they are examples/test values.
"""


def table(counter, head):
    rows = ["| %s | count |" % head, "|---|---|"]
    for k, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])):
        rows.append("| %s | %d |" % (k, n))
    return "\n".join(rows)


def readme(sha, n_lines):
    lab = collections.Counter((r["label"], r["variant"]) for r in RECORDS)
    sec_kinds = collections.Counter(r["kind"] for r in RECORDS if r["label"] == "secret")
    sec_kinds_plain = collections.Counter(r["kind"] for r in RECORDS if r["label"] == "secret" and r["variant"] == "plain")
    personal = set(PIN_KINDS + PIN_KINDS_EN_EXTRA + PW_KINDS + PW_KINDS_EN_EXTRA +
                   ["wifi_password", "card_full", "bank_login", "otp_code", "recovery_codes", "seed_phrase",
                    "security_answer", "totp_secret", "bitlocker_recovery_key", "debit_card_with_pin"])
    vendor_kinds = set(k for k, *_ in V)
    n_personal_plain = sum(n for k, n in sec_kinds_plain.items() if k in personal)
    n_vendor_plain = sum(n for k, n in sec_kinds_plain.items() if k in vendor_kinds)
    personal_kinds_used = sorted(k for k in sec_kinds_plain if k in personal)
    lengths = [len(r["value"]) if isinstance(r["value"], str) else len(json.dumps(r["value"], ensure_ascii=False)) for r in RECORDS]
    in_range = sum(1 for x in lengths if 40 <= x <= 400)
    shape = STATS["shape"]
    personal_lang = collections.Counter()
    for r in RECORDS:
        if r["label"] == "secret" and r["variant"] == "plain" and re.match(r"^(prose|chat)-[a-z]{2}-[0-9]+$", r["id"].split("-", 3)[3]):
            personal_lang[r["id"].split("-")[4]] += 1
    benign_lang = collections.Counter()
    for r in RECORDS:
        if r["label"] == "benign" and r["variant"] == "plain" and re.match(r"^(prose|chat)-[a-z]{2}-[0-9]+$", r["id"].split("-", 3)[3]):
            benign_lang[r["id"].split("-")[4]] += 1
    out = []
    out.append("# Held-out secret corpus 11 (`secrets_heldout11`)\n")
    out.append("**Status: FROZEN.** Evaluation only - never tune a detector, its thresholds, allow-lists or prompts on these "
               "records. Do not edit `heldout11.jsonl`; errata (mislabels, typos) go in a separate `ERRATA.md` "
               "next to this file, and the original file stays as is.\n")
    out.append("## Files\n\n- `make_heldout11.py` - the generator (Python 3.11 standard library only).\n"
               "- `heldout11.jsonl` - the corpus, one JSON object per line (%d lines).\n"
               "- `README.md` - this file (also written by the generator).\n" % n_lines)
    out.append("## Fingerprint\n\n- sha256 of `heldout11.jsonl`: `%s`\n- generator seed: `random.Random(1111_2026)` "
               "(all randomness comes from this one instance)\n- running `python3 make_heldout11.py` twice produces "
               "byte-identical `heldout11.jsonl` and `README.md`.\n" % sha)
    out.append("## Independence statement\n\n" + INDEPENDENCE)
    out.append("## Record format\n\n```json\n{\"id\": \"h11-{s|b}-{p|h}-{segment}-{nnn}\", \"label\": \"secret\"|\"benign\", "
               "\"kind\": \"<short kind name>\", \"variant\": \"plain\"|\"hard\", \"namespace\": [\"memories\", \"u<digits>\"], "
               "\"key\": \"mem_<hex>\", \"value\": <string | object | array>}\n```\n\n"
               "- `s`/`b` = secret/benign, `p`/`h` = plain/hard.\n"
               "- segment: secret/plain = container or source (env, yaml, json, code-py, http, log, ticket, email, chat, note, "
               "form, prose-<lang>, chat-<lang>, ...); secret/hard = evasion technique; benign/plain = source "
               "(prose-<lang>, chat-<lang>, contact-card, calendar, ...); benign/hard = look-alike family.\n"
               "- Every `secret` record contains the secret value (possibly encoded/split/obfuscated) somewhere in "
               "`value`, `key` or `namespace`; the generator asserts this for each record. Technique `secret-in-key` "
               "stores the hex-encoded secret in `key` (`mem_<hex of secret>`); technique `secret-in-namespace` stores a "
               "card number as the digits of the namespace user id.\n"
               "- `benign` records hold no secret. Personal data (phone numbers, addresses, birthdays, health data) "
               "is not a secret for this corpus.\n"
               "- ids, keys and values (canonical JSON) are unique.\n")
    out.append("## Counts\n\n| label | variant | records |\n|---|---|---|\n" + "\n".join(
        "| %s | %s | %d |" % (l_, v_, lab[(l_, v_)]) for l_ in ("secret", "benign") for v_ in ("plain", "hard")) +
        "\n| **total** | | **%d** |\n" % len(RECORDS))
    out.append("- secret/plain vendor-format records: %d covering %d distinct vendor formats\n"
               "- secret/plain personal-secret records: %d covering %d personal kinds\n"
               "- secret/hard: %d records, %d evasion techniques\n"
               "- benign/hard: %d records, %d look-alike families\n"
               "- languages: personal secrets (prose+chat) %d languages; benign prose+chat %d languages\n"
               "- value shape: %d strings, %d objects/arrays (%.1f%%)\n"
               "- value length (string length, or compact JSON length for objects): %d of %d in 40..400 chars (%.1f%%)\n"
               % (n_vendor_plain, len(set(k for k in sec_kinds_plain if k in vendor_kinds)), n_personal_plain,
                  len(personal_kinds_used), lab[("secret", "hard")], len(STATS["secret_hard_segment"]),
                  lab[("benign", "hard")], len(STATS["benign_hard_segment"]), len(personal_lang), len(benign_lang),
                  shape["string"], shape["object/array"], 100.0 * shape["object/array"] / len(RECORDS),
                  in_range, len(lengths), 100.0 * in_range / len(lengths)))
    out.append("## Composition\n")
    out.append("### Secret kinds (plain + hard)\n\n" + table(sec_kinds, "kind") + "\n")
    out.append("### Secret/plain containers and sources\n\n" + table(STATS["secret_plain_segment"], "segment") + "\n")
    out.append("### Secret/hard evasion techniques\n\n" + table(STATS["secret_hard_segment"], "technique") + "\n")
    out.append("### Benign/plain sources\n\n" + table(STATS["benign_plain_segment"], "source") + "\n")
    out.append("### Benign/hard look-alike families\n\n" + table(STATS["benign_hard_segment"], "family") + "\n")
    out.append("### Languages\n\nPersonal secrets (secret/plain prose-* and chat-*):\n\n" + table(personal_lang, "language") +
               "\n\nBenign everyday memories (benign/plain prose-* and chat-*):\n\n" + table(benign_lang, "language") +
               "\n\nAll records with a recorded language (secret: personal prose/chat + spelled-digit evasions; "
               "benign: prose/chat + multilingual look-alikes):\n\n" + table(STATS["secret_lang"] + STATS["benign_lang"], "language") + "\n")
    return "\n".join(out)


def main():
    gen_vendor_plain()
    gen_personal_plain()
    gen_hard_secrets()
    gen_benign_plain()
    gen_benign_hard()
    R.shuffle(RECORDS)
    ids = [r["id"] for r in RECORDS]
    keys = [r["key"] for r in RECORDS]
    vals = [json.dumps(r["value"], ensure_ascii=False, sort_keys=True) for r in RECORDS]
    assert len(set(ids)) == len(ids) and len(set(keys)) == len(keys) and len(set(vals)) == len(vals)
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS).encode("utf-8")
    with open(OUT_JSONL, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    with open(OUT_README, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(readme(sha, len(RECORDS)))
    lab = collections.Counter((r["label"], r["variant"]) for r in RECORDS)
    print("records:", len(RECORDS), dict(lab))
    print("sha256:", sha)


if __name__ == "__main__":
    main()
