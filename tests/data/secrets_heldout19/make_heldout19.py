#!/usr/bin/env python3.11
"""make_heldout19.py -- generator for the FROZEN held-out corpus heldout19.jsonl.

Independent, synthetic evaluation corpus for a memory-store secret detector.
Every random choice (and the final shuffle) comes from ONE seeded
random.Random(19112026) instance.  Nothing depends on set/dict hash order.
Python 3.11 standard library only.

    python3.11 make_heldout19.py            # writes heldout19.jsonl next to this file
    python3.11 make_heldout19.py --stats    # same, and prints count tables

Vendor formats reproduce only the public *shape* of credentials (prefix,
length, alphabet, separators); every random part is drawn from the seeded
generator, so no value is a live credential.
"""
import base64
import binascii
import gzip
import hashlib
import json
import os
import string
import sys
import urllib.parse
import zlib
import random

SEED = 19112026
R = random.Random(SEED)

# --------------------------------------------------------------------------
# alphabets and primitive generators
# --------------------------------------------------------------------------
DIG = "0123456789"
LOW = "abcdefghijklmnopqrstuvwxyz"
UPP = LOW.upper()
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
ALPH = {
    "h": DIG + "abcdef",
    "H": DIG + "ABCDEF",
    "a": UPP + LOW + DIG,
    "l": LOW + DIG,
    "U": UPP + DIG,
    "d": DIG,
    "w": LOW,
    "W": UPP,
    "b": UPP + LOW + DIG + "+/",
    "B": UPP + LOW + DIG + "-_",
    "s": B58,
    "z": B32,
    "c": BECH,
    "C": BECH.upper(),
    "S": UPP + LOW + DIG + "_.~-",
}


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def chance(p):
    return R.random() < p


def uuid4():
    h = rs(ALPH["h"], 32)
    h = h[:12] + "4" + h[13:16] + pick("89ab") + h[17:]
    return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b64p(n):
    return b64(rbytes(n))


def wrap_lines(s, n):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def luhn_digit(partial):
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
    return luhn_digit(num[:-1]) == num[-1]


CARD_BRANDS = [
    ("Visa", ["4"], 16), ("Visa", ["4"], 16), ("Mastercard", ["51", "52", "53", "54", "55"], 16),
    ("Mastercard", ["2221", "2300", "2500", "2720"], 16), ("Amex", ["34", "37"], 15),
    ("Discover", ["6011", "65"], 16), ("JCB", ["3528", "3541", "3566", "3589"], 16),
    ("UnionPay", ["62"], 16), ("Diners Club", ["36", "38"], 14), ("Maestro", ["6759", "5018"], 16),
]
PUBLISHED_TEST_CARDS = [
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222",
    "5200828282828210", "378282246310005", "371449635398431", "6011111111111117",
    "6011000990139424", "3056930009020004", "36227206271667", "3566002020360505",
    "6200000000000005", "4111111111111111", "5105105105105100", "4012888888881881",
    "4000000000000002", "4000000000009995",
]


def card_number(brand=None):
    while True:
        b = brand or pick(CARD_BRANDS)
        name, prefixes, length = b
        p = pick(prefixes)
        body = p + rs(DIG, length - len(p) - 1)
        num = body + luhn_digit(body)
        if num not in PUBLISHED_TEST_CARDS:
            return name, num


def fmt_card(num, style=None):
    style = style if style is not None else R.randrange(4)
    if style == 0:
        return num
    if len(num) == 15:
        parts = [num[:4], num[4:10], num[10:]]
    elif len(num) == 14:
        parts = [num[:4], num[4:10], num[10:]]
    else:
        parts = [num[i:i + 4] for i in range(0, len(num), 4)]
    sep = [" ", "-", " ", "  "][style]
    return sep.join(parts)


def card_exp():
    m = R.randint(1, 12)
    y = R.randint(26, 31)
    return pick(["%02d/%02d" % (m, y), "%02d/20%02d" % (m, y), "%02d-%02d" % (m, y), "%d/%d" % (m, y)])


def card_cvv(num):
    return rs(DIG, 4 if len(num) == 15 else 3)


# --- word pools ------------------------------------------------------------
FIRST = ["anna", "ben", "carla", "dev", "elif", "farid", "greta", "hiro", "ines", "jonas", "kofi", "lena",
         "marco", "nadia", "omar", "priya", "quinn", "rosa", "sven", "tomas", "uma", "victor", "wen", "ximena",
         "yusuf", "zoe", "aiko", "bruno", "chidi", "dara", "emeka", "fatima", "goran", "hana", "ivan", "jade",
         "kenji", "liam", "maya", "nils", "olga", "pedro", "rahul", "sara", "tariq", "ugo", "vera", "will"]
LAST = ["nowak", "silva", "okafor", "schmidt", "tanaka", "haddad", "larsen", "kowalski", "rossi", "dubois",
        "mendes", "novak", "ivanova", "fischer", "khan", "park", "nguyen", "garcia", "jensen", "murphy",
        "kaya", "petrov", "moreau", "bianchi", "costa", "lindqvist", "horvat", "mwangi", "sato", "cohen"]
WORDS = ["sunflower", "marigold", "pumpkin", "harbor", "falcon", "copper", "maple", "lantern", "thunder",
         "biscuit", "pepper", "rocket", "willow", "cobalt", "saffron", "orbit", "pebble", "juniper", "tiger",
         "meadow", "anchor", "velvet", "cactus", "summit", "mango", "river", "comet", "walnut", "glacier",
         "banjo", "noodle", "zebra", "violet", "ember", "canyon", "otter", "pixel", "quartz", "raven", "tulip",
         "breeze", "dragon", "fig", "hazel", "island", "jasper", "kiwi", "lemon", "monkey", "nectar", "olive",
         "panda", "rhubarb", "sparrow", "tundra", "umber", "waffle", "yeti", "acorn", "badger", "cricket",
         "dolphin", "eclipse", "fjord", "gecko", "hopscotch", "igloo", "jigsaw", "koala", "lighthouse",
         "mosaic", "nutmeg", "oyster", "paprika", "quokka", "rainbow", "snowdrop", "teapot", "ukulele",
         "volcano", "whisker", "yogurt", "zeppelin", "bagel", "chestnut", "dynamo", "espresso", "flamingo"]
PETS = ["Biscuit", "Luna", "Max", "Bella", "Charlie", "Milo", "Nala", "Rocky", "Coco", "Oscar", "Pepper",
        "Simba", "Daisy", "Teddy", "Loki", "Ziggy", "Mochi", "Bruno", "Kira", "Olive"]
SYMS = "!@#$%&*?_-.+"
BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse
achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit
adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm
album alcohol alert alien all alley allow almost alone alpha already also alter always amateur amazing among
amount amused analyst anchor ancient anger angle angry animal ankle announce annual another answer antenna
antique anxiety any apart apology appear apple approve april arch arctic area arena argue arm armed armor
army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset assist assume
asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average
avocado avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball
bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty because become beef
before begin behave behind believe below belt bench benefit best betray better between beyond bicycle bid bike
bind biology bird birth bitter black blade blame blanket blast bleak bless blind blood blossom blouse blue blur
blush board boat body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket
brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother
brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus business
busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon
canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle
casual cat catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal
certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken
chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim
clap clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown
club clump cluster clutch coach coast coconut code coffee coil coin collect color column combine come comfort
comic common company concert conduct confirm congress connect consider control convince cook cool copper copy
coral core corn correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane
crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel
cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom
cute cycle dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide
decline decorate decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart
depend deposit depth deputy derive describe desert design desk despair destroy detail detect develop device
devote diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt
disagree discover disease dish dismiss disorder display distance divert divide divorce dizzy doctor document dog
doll dolphin domain donate donkey donor door dose double dove draft dragon drama drastic draw dream dress drift
drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf dynamic eager eagle early earn
earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow elder electric
elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower empty enable
enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich enroll ensure
enter entire entry envelope episode equal equip era erase erode erosion error erupt escape essay essence estate
eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse execute exercise
exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend extra eye eyebrow
fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion fat fatal
father fatigue fault favorite feature february federal fee feed feel female fence festival fetch fever few fiber
fiction field figure file film filter final find fine finger finish fire firm first fiscal fish fit fitness fix
flag flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam focus fog foil fold
follow food foot force forest forget fork fortune forum forward fossil foster found fox fragile frame frequent
fresh friend fringe frog front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy
gallery game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre
gentle genuine gesture ghost giant gift giggle ginger giraffe girl give glad glance glare glass glide glimpse
globe gloom glory glove glow glue goat goddess gold good goose gorilla gospel gossip govern gown grab grace
grain grant grape grass gravity great green grid grief grit grocery group grow grunt guard guess guide guilt
guitar gun gym habit hair half hammer hamster hand happy harbor hard harsh harvest hat have hawk hazard head
health heart heavy hedgehog height hello helmet help hen hero hidden high hill hint hip hire history hobby
hockey hold hole holiday hollow home honey hood hope horn horror horse hospital host hotel hour hover hub huge
human humble humor hundred hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill
illegal illness image imitate immense immune impact impose improve impulse inch include income increase index
indicate indoor industry infant inflict inform inhale inherit initial inject injury inmate inner innocent input
inquiry insane insect inside inspire install intact interest into invest invite involve iron island isolate
issue item ivory jacket jaguar jar jazz jealous jeans jelly jewel job join joke journey joy judge juice jump
jungle junior junk just kangaroo keen keep ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten
kiwi knee knife knock know lab label labor ladder lady lake lamp language laptop large later latin laugh laundry
lava law lawn lawsuit layer lazy leader leaf learn leave lecture left leg legal legend leisure lemon lend length
lens leopard lesson letter level liar liberty library license life lift light like limb limit link lion liquid
list little live lizard load loan lobster local lock logic lonely long loop lottery loud lounge love loyal lucky
luggage lumber lunar lunch luxury lyrics machine mad magic magnet maid mail main major make mammal man manage
mandate mango mansion manual maple marble march margin marine market marriage mask mass master match material
math matrix matter maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention
menu mercy merge merit merry mesh message metal method middle midnight milk million mimic mind minimum minor
minute miracle mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey monster
month moon moral more morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply
muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty nation nature near
neck need negative neglect neither nephew nerve nest net network neutral never news next nice night noble noise
nominee noodle normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey object
oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old olive olympic
omit once one onion online only open opera opinion oppose option orange orbit orchard order ordinary organ orient
original orphan ostrich other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact
paddle page pair palace palm panda panel panic panther paper parade parent park parrot party pass patch path
patient patrol pattern pause pave payment peace peanut pear peasant pelican pen penalty pencil people pepper
perfect permit person pet phone photo phrase physical piano picnic picture piece pig pigeon pill pilot pink
pioneer pipe pistol pitch pizza place planet plastic plate play please pledge pluck plug plunge poem poet point
polar pole police pond pony pool popular portion position possible post potato pottery poverty powder power
practice praise predict prefer prepare present pretty prevent price pride primary print priority prison private
prize problem process produce profit program project promote proof property prosper protect proud provide
public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid
quality quantum quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise
rally ramp ranch random range rapid rare rate rather raven raw razor ready real reason rebel rebuild recall
receive recipe record recycle reduce reflect reform refuse region regret regular reject relax release relief
rely remain remember remind remove render renew rent reopen repair repeat replace report require rescue resemble
resist resource response result retire retreat return reunion reveal review reward rhythm rib ribbon rice rich
ride ridge rifle right rigid ring riot ripple risk ritual rival river road roast robot robust rocket romance roof
rookie room rose rotate rough round route royal rubber rude rug rule run runway rural sad saddle sadness safe
sail salad salmon salon salt salute same sample sand satisfy satoshi sauce sausage save say scale scan scare
scatter scene scheme school science scissors scorpion scout scrap screen script scrub sea search season seat
second secret section security seed seek segment select sell seminar senior sense sentence series service
session settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship shiver shock
shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side siege sight sign silent silk
silly silver similar simple since sing siren sister situate six size skate sketch ski skill skin skirt skull
slab slam sleep slender slice slide slight slim slogan slot slow slush small smart smile smoke smooth snack
snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution solve someone song soon
sorry sort soul sound soup source south space spare spatial spawn speak special speed spell spend sphere spice
spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel
stable stadium staff stage stairs stamp stand start state stay steak steel stem step stereo stick still sting
stock stomach stone stool story stove strategy street strike strong struggle student stuff stumble style
subject submit subway success such sudden suffer sugar suggest suit summer sun sunny sunset super supply
supreme sure surface surge surprise surround survey suspect sustain swallow swamp swap swarm swear sweet swift
swim swing switch sword symbol symptom syrup system table tackle tag tail talent talk tank tape target task
taste tattoo taxi teach team tell ten tenant tennis tent term test text thank that theme then theory there they
thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip tired tissue
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
width wife wild will win window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder
wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth
zebra zero zone zoo""".split()


def mnemonic(n=12):
    return " ".join(pick(BIP39) for _ in range(n))


def person():
    return pick(FIRST), pick(LAST)


def email_addr(first=None, last=None):
    f, l = person()
    f = first or f
    l = last or l
    dom = pick(["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "gmx.de", "web.de",
                "hotmail.co.uk", "fastmail.com", "mail.ru", "orange.fr", "libero.it", "yandex.ru", "naver.com"])
    style = R.randrange(4)
    if style == 0:
        return "%s.%s@%s" % (f, l, dom)
    if style == 1:
        return "%s%s%d@%s" % (f, l[0], R.randint(1, 99), dom)
    if style == 2:
        return "%s_%s@%s" % (f[0], l, dom)
    return "%s.%s%d@%s" % (f, l, R.randint(70, 99), dom)


def username():
    f, l = person()
    return pick(["%s.%s" % (f, l), "%s%s" % (f[0], l), "%s_%d" % (f, R.randint(1, 999)), "%s%s%d" % (f, l[:3], R.randint(1, 99)), l + f[0]])


def personal_password():
    s = R.randrange(9)
    w = pick(WORDS)
    if s == 0:
        return w.capitalize() + pick(SYMS) + str(R.randint(1950, 2024))
    if s == 1:
        return pick(PETS) + pick(WORDS).capitalize() + str(R.randint(1, 99))
    if s == 2:
        return w + str(R.randint(1960, 2015))
    if s == 3:
        return rs(ALPH["a"] + "!#$%&*", R.randint(10, 16))
    if s == 4:
        return "-".join(pick(WORDS) for _ in range(3)) + str(R.randint(1, 9))
    if s == 5:
        t = "".join({"a": "@", "e": "3", "o": "0", "i": "1", "s": "$"}.get(c, c) for c in w)
        return t.capitalize() + str(R.randint(10, 99)) + pick("!?#")
    if s == 6:
        return pick(PETS).lower() + str(R.randint(1, 31)).zfill(2) + str(R.randint(1, 12)).zfill(2) + pick(SYMS)
    if s == 7:
        return w.upper()[:3] + pick(WORDS) + pick(SYMS) + str(R.randint(100, 999))
    return pick(WORDS).capitalize() + pick(WORDS).capitalize() + pick(SYMS) + str(R.randint(1, 9))


def strong_password(n=None):
    n = n or R.randint(16, 28)
    return rs(ALPH["a"] + "!#%^*-_=+.~", n)


def db_password():
    return pick([strong_password, personal_password, lambda: rs(ALPH["a"], R.randint(18, 32))])()


def passphrase():
    return pick([" ", "-", ".", "_"]).join(pick(BIP39) for _ in range(R.randint(4, 6)))


def wifi_password():
    s = R.randrange(5)
    if s == 0:
        return rs(ALPH["a"], R.randint(12, 20))
    if s == 1:
        return pick(WORDS) + pick(WORDS) + str(R.randint(10, 999))
    if s == 2:
        return rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4) + "-" + rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4) + "-" + rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4)
    if s == 3:
        return rs(DIG, 16) if chance(0.5) else rs(DIG, 20)
    return pick(PETS) + "sHouse" + str(R.randint(1, 99)) + pick(SYMS)


def pin(n=4):
    while True:
        p = rs(DIG, n)
        if len(set(p)) > 1 and p not in ("1234", "123456", "0000"):
            return p


def combo(n=3, hi=39):
    return "-".join("%02d" % R.randint(0, hi) for _ in range(n))


def otp(n=6):
    return rs(DIG, n)


def gift_code():
    s = R.randrange(4)
    A = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    if s == 0:
        return rs(A, 4) + "-" + rs(A, 6) + "-" + rs(A, 4)
    if s == 1:
        return "X" + rs(A, 15)
    if s == 2:
        return "-".join(rs(A, 4) for _ in range(4))
    return rs(A, 5) + "-" + rs(A, 5) + "-" + rs(A, 5)


def backup_codes(n=None):
    n = n or R.choice([5, 8, 10])
    s = R.randrange(3)
    if s == 0:
        return [rs(DIG, 4) + " " + rs(DIG, 4) for _ in range(n)]
    if s == 1:
        return [rs(LOW + DIG, 5) + "-" + rs(LOW + DIG, 5) for _ in range(n)]
    return [rs(DIG, 8) for _ in range(n)]


def totp_seed():
    s = rs(B32, pick([16, 26, 32]))
    if chance(0.5):
        return " ".join(s[i:i + 4] for i in range(0, len(s), 4)).lower()
    return s


def bitlocker_key():
    return "-".join(rs(DIG, 6) for _ in range(8))


def apple_recovery_key():
    return "-".join(rs("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 4) for _ in range(7))


def host():
    return pick(["db-prod-%d.internal" % R.randint(1, 9), "pg-%s.cluster-%s.eu-west-1.rds.amazonaws.com" % (rs(LOW, 6), rs(LOW + DIG, 12)),
                 "10.%d.%d.%d" % (R.randint(0, 255), R.randint(0, 255), R.randint(2, 254)), "mysql.%s.lan" % pick(WORDS),
                 "%s-db.%s.net" % (pick(WORDS), pick(WORDS)), "postgres.%s.svc.cluster.local" % pick(["payments", "core", "auth", "search"]),
                 "%s.c.%s.internal" % (pick(WORDS), pick(WORDS))])


def domain():
    return "%s%s.%s" % (pick(WORDS), pick(["", "-app", "hq", "labs", "-io"]), pick(["com", "io", "dev", "net", "co", "org", "app"]))


def dbname():
    return pick(["app", "prod", "billing", "orders", "analytics", "users", "crm", "inventory", "wiki", "shop", "metrics", "cms"]) + pick(["", "_prod", "_db", "_main", ""])


def dbuser():
    return pick(["app", "admin", "svc_", "readwrite", "etl_", "backend", "api", "postgres", "root", "deploy"]) + pick(["", "user", pick(WORDS)[:5], str(R.randint(1, 9))])


def ipaddr():
    return "%d.%d.%d.%d" % (R.randint(11, 223), R.randint(0, 255), R.randint(0, 255), R.randint(1, 254))


# --- structured token builders -------------------------------------------
def jwt(alg="HS256", claims=None, sig_len=43):
    header = {"alg": alg, "typ": "JWT"}
    if claims is None:
        now = R.randint(1700000000, 1760000000)
        claims = {"sub": str(R.randint(10000, 9999999)), "iat": now, "exp": now + R.choice([3600, 86400, 2592000, 31536000])}
        if chance(0.5):
            claims["scope"] = pick(["read write", "admin", "api:all", "user", "repo:write"])
        if chance(0.5):
            claims["iss"] = "https://%s" % domain()
    h = b64u(json.dumps(header, separators=(",", ":")).encode())
    p = b64u(json.dumps(claims, separators=(",", ":")).encode())
    return "%s.%s.%s" % (h, p, rs(ALPH["B"], sig_len))


def jwt_rs():
    return jwt("RS256", sig_len=342)


def jwt_supabase():
    ref = rs(LOW, 20)
    now = R.randint(1690000000, 1740000000)
    return jwt("HS256", {"iss": "supabase", "ref": ref, "role": "service_role", "iat": now, "exp": now + 315360000})


def jwt_k8s():
    ns = pick(["default", "ci", "monitoring", "payments", "kube-system"])
    sa = pick(["deployer", "gitlab-runner", "argocd-manager", "prometheus", "backup"])
    claims = {"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": ns,
              "kubernetes.io/serviceaccount/secret.name": "%s-token-%s" % (sa, rs(LOW + DIG, 5)),
              "kubernetes.io/serviceaccount/service-account.name": sa, "sub": "system:serviceaccount:%s:%s" % (ns, sa)}
    return jwt("RS256", claims, 342)


def jwt_ed():
    return jwt("EdDSA", {"a": "rw", "iat": R.randint(1700000000, 1750000000), "id": uuid4()}, 86)


def pem(label, der_prefix_hex, nbytes, linelen=64):
    body = bytes.fromhex(der_prefix_hex) + rbytes(nbytes)
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, wrap_lines(b64(body), linelen), label)


def pem_rsa():
    return pem("RSA PRIVATE KEY", "308204a40201000282010100", R.choice([1180, 1184, 1188]))


def pem_ec():
    body = bytes.fromhex("30770201010420") + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rbytes(64)
    return "-----BEGIN EC PRIVATE KEY-----\n%s\n-----END EC PRIVATE KEY-----" % wrap_lines(b64(body), 64)


def pem_pkcs8():
    return pem("PRIVATE KEY", "308204be020100300d06092a864886f70d0101010500048204a8", 1188)


def pem_p8():
    body = bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420") + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rbytes(64)
    return "-----BEGIN PRIVATE KEY-----\n%s\n-----END PRIVATE KEY-----" % wrap_lines(b64(body), 64)


def pem_dsa():
    return pem("DSA PRIVATE KEY", "308201bb02010002818100", 430)


def _sshstr(b):
    return len(b).to_bytes(4, "big") + b


def openssh_ed25519(comment=None):
    comment = comment or "%s@%s" % (pick(FIRST), pick(["laptop", "mbp", "build-01", "desktop", "pi"]))
    pub = rbytes(32)
    pubblob = _sshstr(b"ssh-ed25519") + _sshstr(pub)
    chk = rbytes(4)
    priv = chk + chk + _sshstr(b"ssh-ed25519") + _sshstr(pub) + _sshstr(rbytes(32) + pub) + _sshstr(comment.encode())
    pad = 1
    while len(priv) % 8:
        priv += bytes([pad])
        pad += 1
    blob = b"openssh-key-v1\x00" + _sshstr(b"none") + _sshstr(b"none") + _sshstr(b"") + (1).to_bytes(4, "big") + _sshstr(pubblob) + _sshstr(priv)
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % wrap_lines(b64(blob), 70)


def openssh_rsa():
    blob = b"openssh-key-v1\x00" + _sshstr(b"none") + _sshstr(b"none") + _sshstr(b"") + (1).to_bytes(4, "big") + _sshstr(_sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00" + rbytes(256))) + rbytes(1400)
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % wrap_lines(b64(blob), 70)


def pgp_private():
    body = b64(b"\x95\x03\x98\x04" + rbytes(R.choice([900, 1100, 1300])))
    crc = b64(rbytes(3))
    return "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PRIVATE KEY BLOCK-----" % (wrap_lines(body, 64), crc)


def putty_key(version=3):
    comment = "eddsa-key-%d%02d%02d" % (R.randint(2019, 2025), R.randint(1, 12), R.randint(1, 28))
    pub = b64(_sshstr(b"ssh-ed25519") + _sshstr(rbytes(32)))
    priv = b64(_sshstr(rbytes(32)))
    lines = ["PuTTY-User-Key-File-%d: ssh-ed25519" % version, "Encryption: none", "Comment: %s" % comment,
             "Public-Lines: 2"] + wrap_lines(pub, 64).split("\n") + ["Private-Lines: 1", priv,
                                                                      "Private-MAC: %s" % rs(ALPH["h"], 64 if version == 3 else 40)]
    return "\n".join(lines)


def cert_pem():
    return pem("CERTIFICATE", "308203", R.choice([820, 900, 1000]))


def wif():
    return pick(["5H", "5J", "5K", "K", "L"]) + rs(B58, 49 if chance(0.5) else 50)


def xprv():
    return "xprv9s21ZrQH143K" + rs(B58, 95)


def gcp_sa_json():
    proj = "%s-%s-%d" % (pick(WORDS), pick(WORDS), R.randint(100000, 999999))
    sa = pick(["ci-deployer", "terraform", "backup-writer", "bq-loader", "firebase-adminsdk-%s" % rs(LOW + DIG, 5)])
    d = {"type": "service_account", "project_id": proj, "private_key_id": rs(ALPH["h"], 40),
         "private_key": pem_pkcs8() + "\n", "client_email": "%s@%s.iam.gserviceaccount.com" % (sa, proj),
         "client_id": rs(DIG, 21), "auth_uri": "https://accounts.google.com/o/oauth2/auth",
         "token_uri": "https://oauth2.googleapis.com/token"}
    return json.dumps(d)


def discord_bot_token():
    uid = str(R.randint(700000000000000000, 1300000000000000000))
    return "%s.%s.%s" % (b64u(uid.encode()), rs(ALPH["B"], 6), rs(ALPH["B"], 38))


def mapbox_secret():
    user = pick(FIRST) + pick(LAST)
    return "sk.%s.%s" % (b64u(json.dumps({"u": user, "a": rs(LOW + DIG, 25)}, separators=(",", ":")).encode()), rs(ALPH["B"], 22))


def intercom_token():
    return b64(("tok:" + uuid4()).encode()).rstrip("=")


CISCO_XLAT = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"


def cisco7(pw):
    s = R.randint(0, 15)
    out = "%02d" % s
    for i, ch in enumerate(pw):
        out += "%02X" % (ord(ch) ^ ord(CISCO_XLAT[(s + i) % len(CISCO_XLAT)]))
    return out


def fingerprint_md5():
    return ":".join(rs(ALPH["h"], 2) for _ in range(16))


def solana_array():
    return "[" + ",".join(str(R.getrandbits(8)) for _ in range(64)) + "]"


def gmail_app_password():
    return " ".join(rs(LOW, 4) for _ in range(4))


def ovpn_static():
    lines = [rs(ALPH["h"], 32) for _ in range(16)]
    return "-----BEGIN OpenVPN Static key V1-----\n%s\n-----END OpenVPN Static key V1-----" % "\n".join(lines)


def jwk_private():
    return json.dumps({"kty": "EC", "crv": "P-256", "kid": rs(ALPH["B"], 12), "x": b64u(rbytes(32)), "y": b64u(rbytes(32)), "d": b64u(rbytes(32))})


def keytab_b64():
    return b64(b"\x05\x02" + rbytes(R.choice([60, 76, 92])))


def django_secret():
    return rs(LOW + DIG + "!@#$%^&*(-_=+)", 50)


def cert_and_key():
    return cert_pem() + "\n" + pem_rsa()


def wp_salt():
    return rs(ALPH["a"] + "!@#$%^&*()-_[]{}<>~`+=,.;:/?|", 64)


SPECIAL = {
    "uuid": uuid4, "UUID": lambda: uuid4().upper(), "pw": personal_password, "spw": strong_password,
    "dbpw": db_password, "user": username, "dbuser": dbuser, "email": email_addr, "host": host, "dbhost": host,
    "db": dbname, "dom": domain, "ip": ipaddr, "jwt": jwt, "jwtrs": jwt_rs, "jwtsr": jwt_supabase,
    "jwtk8s": jwt_k8s, "jwted": jwt_ed, "rsa": pem_rsa, "ec": pem_ec, "pk8": pem_pkcs8, "p8": pem_p8,
    "ossh": openssh_ed25519, "osshrsa": openssh_rsa, "dsa": pem_dsa, "pgp": pgp_private,
    "putty": lambda: putty_key(3), "putty2": lambda: putty_key(2), "certkey": cert_and_key,
    "mn12": lambda: mnemonic(12), "mn24": lambda: mnemonic(24), "wif": wif, "xprv": xprv, "gcpsa": gcp_sa_json,
    "discordbot": discord_bot_token, "mapbox": mapbox_secret, "intercom": intercom_token,
    "cisco7": lambda: cisco7(personal_password()), "fp": fingerprint_md5, "solarr": solana_array,
    "gapp": gmail_app_password, "ovpn": ovpn_static, "jwk": jwk_private, "keytab": keytab_b64,
    "djsecret": django_secret, "wpsalt": wp_salt, "region": lambda: pick(["us-east-1", "eu-west-1", "eu-central-1", "ap-southeast-2", "us-west-2"]),
    "word": lambda: pick(WORDS), "first": lambda: pick(FIRST), "pass3": passphrase,
}

_FMT = string.Formatter()


def expand(tmpl):
    """Expand {x:N} (alphabet x, length N), {b64p:N} and {special} fields."""
    out = []
    for lit, field, spec, conv in _FMT.parse(tmpl):
        out.append(lit)
        if field is None:
            continue
        if field in ALPH:
            out.append(rs(ALPH[field], int(spec)))
        elif field == "b64p":
            out.append(b64p(int(spec)))
        elif field == "pctb64":
            out.append(urllib.parse.quote(b64p(int(spec)), safe=""))
        elif field in SPECIAL:
            out.append(SPECIAL[field]())
        else:
            raise KeyError(field)
    return "".join(out)


# --------------------------------------------------------------------------
# label-independent wrappers (identical pools and rates for both labels)
# --------------------------------------------------------------------------
FILLERS = [
    "pick up dry cleaning thursday", "dentist moved to {t}", "buy oat milk + bananas", "call grandma sunday",
    "return the library books (3)", "water the basil", "Mia's recital is at {t}", "renew car tax before the 30th",
    "book the vet for Luna's jab", "ask Tom about the bbq date", "printer toner is running low", "bin day is tuesday",
    "order more coffee filters", "plumber coming {t}", "pay back Sam 20 for pizza", "check if passport photos are ready",
    "try that ramen place on 5th", "send slides to the team before {t}", "charge the camera batteries",
    "take out the recycling", "new running shoes size 43", "gym class moved to {t}", "get birthday card for Priya",
    "school trip form due friday", "stand-up moved to {t}", "defrost the chicken", "oil change at 58k miles",
    "look up flights for october", "ask landlord about the radiator", "cancel the magazine trial",
    "bring umbrella tomorrow", "laundry: darks first", "dog food: the salmon one", "clean the gutters this weekend",
    "finish chapter 7", "print boarding passes", "buy batteries AA x8", "call insurance re: windscreen",
    "meeting notes are in the shared drive", "pack chargers", "send thank-you note to the Parks",
    "replace the hallway bulb", "check tire pressure", "book haircut", "update the family calendar",
    "pharmacy closes at {t}", "get stamps", "mow the lawn", "pay the window cleaner", "sign permission slip",
    "vote on saturday", "pick strawberries at the farm", "swap winter tires", "practice piano 20 min",
    "grab parcel from neighbour", "reply to Jen's email", "yoga at {t}", "buy wrapping paper", "fix the squeaky door",
    "parents evening {t}", "donate old coats", "bake something for the bake sale", "move money to savings on payday",
    "descale the kettle", "sort out the garage shelves", "check the smoke alarm battery", "pick up prescription",
]
NOTE_FRAMES = [
    "note to self — ", "note to self: ", "remember: ", "saving this for later: ", "quick note: ", "for future me: ",
    "jotting this down: ", "pinned: ", "(from phone) ", "keep this: ", "putting this here so I don't lose it: ",
    "memo: ", "fyi ", "so I remember: ", "re: earlier — ", "copying this in: ", "don't forget: ", "todo/ref: ",
]
GREETINGS = ["hi, ", "Hey! ", "morning — ", "ok so ", "Hello, ", "hiya. ", "yo ", "evening: ", "hey there, "]
TRAILERS = [
    "— sent from my iPhone", "thx!", "(more later)", "#home", "ok done", "— J", "✓", "(synced from phone)",
    "#todo", "talk soon", "(edited)", "Sent from Outlook for Android", "🙏", "cheers", "xx", "– end –", "#ref",
    "(voice typed, sorry for typos)", "— saved by assistant", "see you",
]
DIGEST_HEADS = ["Things to remember:", "Today:", "Misc notes", "Catch-up list:", "Weekend stuff", "Notes from the call:",
                "Random bits:", "Stuff to sort:", "Brain dump", "To keep track of:"]
SOURCES = ["mobile", "web", "slack", "email-import", "voice", "chrome-ext", "agent", "desktop", "share-sheet", "api"]
TAGS = ["personal", "work", "home", "todo", "ref", "family", "misc", "admin", "travel", "later", "inbox", "dev",
        "important", "pinned", "2024", "archive"]
TITLES = ["Note", "Untitled", "misc", "from chat", "quick note", "saved", "memo", "for later", "ref", "scratch"]
NEUTRAL_NS = ["notes", "inbox", "personal", "work", "phone", "import", "archive", "drafts", "shared", "daily", "2024",
              "2025", "journal", "chat", "agent", "misc", "home", "projects", "desktop", "mail"]


def a_time():
    return pick(["%d:%02d" % (R.randint(7, 19), pick([0, 15, 30, 45])), "%d%s" % (R.randint(1, 11), pick(["am", "pm"])),
                 "%d.%02d" % (R.randint(8, 20), pick([0, 30])), "half %d" % R.randint(2, 11)])


def clock():
    return "%d:%02d" % (R.randint(7, 22), R.randint(0, 59))


def ascii_name(n):
    return n.lower().replace("á", "a").replace("é", "e")


def filler():
    return pick(FILLERS).replace("{t}", a_time())


def iso_ts():
    return "20%d-%02d-%02dT%02d:%02d:%02dZ" % (R.randint(23, 25), R.randint(1, 12), R.randint(1, 28), R.randint(0, 23),
                                             R.randint(0, 59), R.randint(0, 59))


def date_prefix():
    m, d = R.randint(1, 12), R.randint(1, 28)
    return pick(["20%d-%02d-%02d: " % (R.randint(23, 25), m, d), "%02d/%02d " % (d, m), "%s %d:%02d — " % (
        pick(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]), R.randint(7, 22), R.randint(0, 59)),
                 "[%d/%d] " % (m, d), "%d %s: " % (d, pick(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]))])


def frame_text(core):
    t = core
    multi = "\n" in core
    r = R.random()
    if r < 0.12:
        t = pick(NOTE_FRAMES).rstrip() + ("\n" if multi else " ") + t
    elif r < 0.22:
        t = (date_prefix().rstrip() + "\n" if multi else date_prefix()) + t
    elif r < 0.29:
        t = (pick(GREETINGS).rstrip() + "\n" if multi else pick(GREETINGS)) + t
    if chance(0.12):
        t = (filler() + "\n" + t) if chance(0.5) else (t + "\n" + filler())
    if chance(0.07):
        items = [filler(), t, filler()]
        if chance(0.5):
            items = [t, filler()]
        style = R.randrange(3)
        if style == 0:
            body = "\n".join("- " + x for x in items)
        elif style == 1:
            body = "\n".join("%d. %s" % (i + 1, x) for i, x in enumerate(items))
        else:
            body = "\n\n".join(items)
        t = pick(DIGEST_HEADS) + "\n" + body
    if chance(0.10):
        t = t + ("\n" if chance(0.7) else " ") + pick(TRAILERS)
    return t


def parse_kv(t):
    lines = [x for x in t.split("\n") if x.strip()]
    if not (2 <= len(lines) <= 10):
        return None
    out = []
    keys = []
    for ln in lines:
        for sep in (": ", " = ", "="):
            if sep in ln:
                k, v = ln.split(sep, 1)
                k = k.strip()
                if 0 < len(k) <= 30 and all(c.isalnum() or c in " _-./" for c in k) and v.strip():
                    if k in keys:
                        return None
                    keys.append(k)
                    out.append((k, v.strip()))
                    break
        else:
            return None
    return out


_SHAPE_DECKS = {}


def draw_shape(label):
    """Per-label shuffled deck (14 string / 4 object / 2 array) so both labels get the same shape mix."""
    deck = _SHAPE_DECKS.setdefault(label, [])
    if not deck:
        deck.extend(["string"] * 14 + ["object"] * 4 + ["array"] * 2)
        R.shuffle(deck)
    return deck.pop()


def shape_value(t, label):
    sh = draw_shape(label)
    if sh == "string":
        return t
    if sh == "object":
        kv = parse_kv(t)
        if kv and chance(0.45):
            return {k: v for k, v in kv}
        w = R.randrange(7)
        if w == 0:
            return {"text": t}
        if w == 1:
            return {"note": t, "source": pick(SOURCES)}
        if w == 2:
            return {"content": t, "created_at": iso_ts()}
        if w == 3:
            return {"memory": t, "tags": sorted(R.sample(TAGS, R.randint(1, 3)))}
        if w == 4:
            return {"title": pick(TITLES), "body": t}
        if w == 5:
            return {"role": "user", "content": t}
        return {"text": t, "pinned": chance(0.5), "updated": iso_ts()[:10]}
    lines = [x for x in t.split("\n") if x.strip()]
    if len(lines) >= 2 and chance(0.7):
        return lines
    s = R.randrange(4)
    if s == 0:
        return [filler(), t]
    if s == 1:
        return [t, filler()]
    if s == 2:
        return [filler(), t, filler()]
    return [{"from": pick(["me", "assistant", "user", pick(FIRST)]), "text": t}]


RECORDS = []
META = []
_SEEN = set()
_COUNTERS = {}


def mem_key():
    return "mem_" + rs(ALPH["h"], R.randint(8, 32))


def make_namespace():
    ns = ["memories", "u" + rs(DIG, R.randint(5, 9))]
    if chance(0.3):
        ns.append(pick(NEUTRAL_NS))
    return ns


def value_sig(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def add(label, variant, segment, kind, core, info=None, key=None, ns=None, frame=True):
    """Frame + shape the core text and store the record. Returns False on duplicate value."""
    if frame:
        value = shape_value(frame_text(core), label)
    else:
        value = core
    sig = value_sig(value)
    if sig in _SEEN:
        return False
    # also refuse a duplicate of the bare core (different wrapper, same content)
    csig = "core:" + (core if isinstance(core, str) else value_sig(core))
    if csig in _SEEN:
        return False
    _SEEN.add(sig)
    _SEEN.add(csig)
    ck = (label, variant, segment)
    n = _COUNTERS.get(ck, 0) + 1
    _COUNTERS[ck] = n
    rid = "h19-%s-%s-%s-%03d" % ("s" if label == "secret" else "b", "p" if variant == "plain" else "h", segment, n)
    rec = {"id": rid, "label": label, "kind": kind, "variant": variant,
           "namespace": ns if ns is not None else ["memories", "u" + rs(DIG, R.randint(5, 9))],
           "key": key if key is not None else mem_key(), "value": value}
    RECORDS.append(rec)
    m = dict(info or {})
    m["auto_ns"] = ns is None
    m["id"] = rid
    META.append(m)
    return True


def add_retry(label, variant, segment, kind_fn, tries=40):
    """kind_fn() -> (kind, core, info). Retries until the value is unique."""
    for _ in range(tries):
        kind, core, info = kind_fn()
        if add(label, variant, segment, kind, core, info):
            return True
    raise RuntimeError("could not make a unique record for %s/%s/%s" % (label, variant, segment))


# --------------------------------------------------------------------------
# vendor credential catalogue: category | vendor | format | VAR=template ;; VAR=template
# (public shapes only; random parts are filled from the seeded generator)
# --------------------------------------------------------------------------
CATALOGUE = r"""
cloud | AWS | IAM access key pair | AWS_ACCESS_KEY_ID=AKIA{U:16} ;; AWS_SECRET_ACCESS_KEY={b:40}
cloud | AWS | STS temporary credentials | AWS_ACCESS_KEY_ID=ASIA{U:16} ;; AWS_SECRET_ACCESS_KEY={b:40} ;; AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{b:320}
cloud | AWS | Bedrock API key | AWS_BEARER_TOKEN_BEDROCK=ABSK{b:128}
cloud | AWS | SES SMTP credentials | SES_SMTP_USERNAME=AKIA{U:16} ;; SES_SMTP_PASSWORD=B{b:43}
cloud | AWS | CodeCommit Git credentials | CODECOMMIT_GIT_USERNAME={first}-at-{d:12} ;; CODECOMMIT_GIT_PASSWORD={b:44}
cloud | AWS | Cognito app client secret | COGNITO_CLIENT_ID={l:26} ;; COGNITO_CLIENT_SECRET={l:52}
cloud | AWS | RDS master user password | RDS_MASTER_USERNAME={dbuser} ;; RDS_MASTER_PASSWORD={spw}
cloud | AWS | ECR docker login password | ECR_PASSWORD=eyJwYXlsb2FkIjoi{b:600}
cloud | Google Cloud | service account key JSON | GOOGLE_CREDENTIALS={gcpsa}
cloud | Google Cloud | API key | GOOGLE_API_KEY=AIza{B:35}
cloud | Google | OAuth client secret | GOOGLE_CLIENT_ID={d:12}-{l:32}.apps.googleusercontent.com ;; GOOGLE_CLIENT_SECRET=GOCSPX-{B:28}
cloud | Google | OAuth refresh token | GOOGLE_REFRESH_TOKEN=1//0{B:98}
cloud | Google | OAuth access token | GOOGLE_ACCESS_TOKEN=ya29.a0{B:150}
cloud | Google Cloud | Storage HMAC key | GCS_HMAC_ACCESS_ID=GOOG1E{U:55} ;; GCS_HMAC_SECRET={b:40}
cloud | Azure | storage account connection string | AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={w:12};AccountKey={b64p:64};EndpointSuffix=core.windows.net
cloud | Azure | Entra ID client secret | AZURE_TENANT_ID={uuid} ;; AZURE_CLIENT_ID={uuid} ;; AZURE_CLIENT_SECRET={a:3}{d:1}Q~{S:34}
cloud | Azure | Cosmos DB primary key | COSMOS_ENDPOINT=https://{w:10}.documents.azure.com:443/ ;; COSMOS_KEY={b64p:64}
cloud | Azure | Service Bus connection string | SERVICEBUS_CONNECTION=Endpoint=sb://{w:10}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64p:32}
cloud | Azure | Event Hubs connection string | EVENTHUB_CONNECTION_STRING=Endpoint=sb://{w:9}-ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b64p:32};EntityPath={w:8}
cloud | Azure | Blob SAS URL | AZURE_BLOB_SAS_URL=https://{w:10}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-12-31T23:59:59Z&st=2024-01-01T00:00:00Z&spr=https&sig={pctb64:32}
cloud | Azure DevOps | personal access token | AZURE_DEVOPS_EXT_PAT={l:52}
cloud | Azure | OpenAI resource key | AZURE_OPENAI_ENDPOINT=https://{w:8}-openai.openai.azure.com/ ;; AZURE_OPENAI_API_KEY={h:32}
cloud | Azure | Speech service key | AZURE_SPEECH_KEY={h:32} ;; AZURE_SPEECH_REGION=westeurope
cloud | Azure | Functions key in URL | AZURE_FUNCTION_URL=https://{w:10}.azurewebsites.net/api/{w:8}?code={B:54}==
cloud | Azure | App Configuration connection string | APPCONFIG_CONNECTION_STRING=Endpoint=https://{w:8}.azconfig.io;Id={B:4}-l0-s0:{B:20};Secret={b64p:32}
cloud | Azure | Cache for Redis connection | REDIS_CONNECTION={w:9}.redis.cache.windows.net:6380,password={b64p:32},ssl=True,abortConnect=False
cloud | Azure | Container Registry admin password | ACR_USERNAME={w:10} ;; ACR_PASSWORD={b:52}
cloud | Azure | Web app publish profile password | PUBLISH_USER=${w:10} ;; PUBLISH_PWD={a:60}
cloud | Alibaba Cloud | AccessKey pair | ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI{a:20} ;; ALIBABA_CLOUD_ACCESS_KEY_SECRET={a:30}
cloud | Tencent Cloud | SecretId and SecretKey | TENCENTCLOUD_SECRET_ID=AKID{a:32} ;; TENCENTCLOUD_SECRET_KEY={a:32}
cloud | Huawei Cloud | AK/SK pair | HUAWEICLOUD_SDK_AK={U:20} ;; HUAWEICLOUD_SDK_SK={a:40}
cloud | Baidu AI Cloud | AK/SK pair | BCE_ACCESS_KEY_ID={h:32} ;; BCE_SECRET_ACCESS_KEY={h:32}
cloud | Yandex Cloud | IAM API key | YC_API_KEY=AQVN{B:36}
cloud | Yandex Cloud | OAuth token | YC_TOKEN=y0_{B:55}
cloud | IBM Cloud | API key | IBMCLOUD_API_KEY={B:44}
cloud | Oracle Cloud | API signing key set | OCI_USER_OCID=ocid1.user.oc1..aaaaaaaa{w:52} ;; OCI_FINGERPRINT={fp} ;; OCI_TENANCY_OCID=ocid1.tenancy.oc1..aaaaaaaa{w:52} ;; OCI_PRIVATE_KEY={pk8}
cloud | Oracle Cloud | auth token | OCI_AUTH_TOKEN={a:8}){a:4}:{a:6}
cloud | DigitalOcean | personal access token | DIGITALOCEAN_TOKEN=dop_v1_{h:64}
cloud | DigitalOcean | OAuth token | DO_OAUTH_TOKEN=doo_v1_{h:64}
cloud | DigitalOcean | refresh token | DO_REFRESH_TOKEN=dor_v1_{h:64}
cloud | DigitalOcean | Spaces access keys | SPACES_KEY=DO00{U:16} ;; SPACES_SECRET={b:43}
cloud | Linode | API token | LINODE_TOKEN={h:64}
cloud | Vultr | API key | VULTR_API_KEY={U:36}
cloud | Hetzner | Cloud API token | HCLOUD_TOKEN={a:64}
cloud | Scaleway | API key | SCW_ACCESS_KEY=SCW{U:17} ;; SCW_SECRET_KEY={uuid}
cloud | OVHcloud | API application credentials | OVH_APPLICATION_KEY={a:16} ;; OVH_APPLICATION_SECRET={a:32} ;; OVH_CONSUMER_KEY={a:32}
cloud | Exoscale | API key | EXOSCALE_API_KEY=EXO{h:24} ;; EXOSCALE_API_SECRET={B:43}
cloud | UpCloud | API user | UPCLOUD_USERNAME={user} ;; UPCLOUD_PASSWORD={spw}
cloud | Backblaze | B2 application key | B2_APPLICATION_KEY_ID=005{h:22} ;; B2_APPLICATION_KEY=K005{b:27}
cloud | Wasabi | access keys | WASABI_ACCESS_KEY={U:20} ;; WASABI_SECRET_KEY={b:40}
cloud | Cloudflare | API token | CLOUDFLARE_API_TOKEN={B:40}
cloud | Cloudflare | Global API key | CLOUDFLARE_EMAIL={email} ;; CLOUDFLARE_API_KEY={h:37}
cloud | Cloudflare | Origin CA key | CF_ORIGIN_CA_KEY=v1.0-{h:24}-{h:146}
cloud | Cloudflare | R2 access keys | R2_ACCESS_KEY_ID={h:32} ;; R2_SECRET_ACCESS_KEY={h:64}
cloud | Cloudflare | Tunnel token | TUNNEL_TOKEN=eyJhIjoi{B:180}
cloud | Cloudflare | Access service token | CF_ACCESS_CLIENT_ID={h:32}.access ;; CF_ACCESS_CLIENT_SECRET={h:64}
cloud | Fastly | API token | FASTLY_API_TOKEN={B:32}
cloud | Akamai | EdgeGrid credentials | AKAMAI_HOST=akab-{l:16}-{l:16}.luna.akamaiapis.net ;; AKAMAI_CLIENT_SECRET={b64p:32} ;; AKAMAI_ACCESS_TOKEN=akab-{l:16}-{l:16} ;; AKAMAI_CLIENT_TOKEN=akab-{l:16}-{l:16}
cloud | Bunny.net | account API key | BUNNY_API_KEY={uuid}-{h:4}-{h:4}-{h:4}-{h:12}
cloud | Netlify | personal access token | NETLIFY_AUTH_TOKEN=nfp_{a:36}
cloud | Vercel | access token | VERCEL_TOKEN={a:24}
cloud | Heroku | API key | HEROKU_API_KEY=HRKU-AA{B:58}
cloud | Heroku | legacy API key | HEROKU_API_KEY={uuid}
cloud | Render | API key | RENDER_API_KEY=rnd_{a:32}
cloud | Fly.io | deploy token | FLY_API_TOKEN=FlyV1 fm2_{B:300}
cloud | Railway | project token | RAILWAY_TOKEN={uuid}
cloud | Koyeb | API token | KOYEB_TOKEN={l:64}
cloud | Deno Deploy | access token | DENO_DEPLOY_TOKEN=ddp_{a:36}
cloud | Northflank | API token | NF_API_TOKEN=nf-{B:64}
cloud | Platform.sh | API token | PLATFORMSH_CLI_TOKEN={B:43}
cloud | Pantheon | machine token | TERMINUS_MACHINE_TOKEN={B:43}
cloud | Cloudinary | API environment URL | CLOUDINARY_URL=cloudinary://{d:15}:{B:27}@{w:8}
cloud | Firebase | Cloud Messaging legacy server key | FCM_SERVER_KEY=AAAA{B:7}:APA91b{B:134}
cloud | Firebase | CLI CI token | FIREBASE_TOKEN=1//0{B:98}
cloud | Supabase | service_role key | SUPABASE_URL=https://{l:20}.supabase.co ;; SUPABASE_SERVICE_ROLE_KEY={jwtsr}
cloud | Supabase | management access token | SUPABASE_ACCESS_TOKEN=sbp_{h:40}
cloud | Supabase | secret API key | SUPABASE_SECRET_KEY=sb_secret_{B:31}
cloud | Appwrite | server API key | APPWRITE_API_KEY=standard_{h:256}
cloud | Nhost | admin secret | NHOST_ADMIN_SECRET={spw}
cloud | Hasura | GraphQL admin secret | HASURA_GRAPHQL_ADMIN_SECRET={a:32}
cloud | Convex | deploy key | CONVEX_DEPLOY_KEY=prod:{word}-{word}-{d:3}|{B:80}
cloud | Pulumi | access token | PULUMI_ACCESS_TOKEN=pul-{h:40}
cloud | Terraform Cloud | API token | TFE_TOKEN={a:14}.atlasv1.{a:67}
cloud | HashiCorp Vault | service token | VAULT_TOKEN=hvs.{B:90}
cloud | HashiCorp Vault | batch token | VAULT_TOKEN=hvb.{B:130}
cloud | HashiCorp Vault | AppRole credentials | VAULT_ROLE_ID={uuid} ;; VAULT_SECRET_ID={uuid}
cloud | HashiCorp Consul | ACL token | CONSUL_HTTP_TOKEN={uuid}
cloud | HashiCorp Nomad | ACL token | NOMAD_TOKEN={uuid}
cloud | Doppler | service token | DOPPLER_TOKEN=dp.st.prd.{a:40}
cloud | Doppler | personal token | DOPPLER_TOKEN=dp.pt.{a:43}
cloud | Doppler | CLI token | DOPPLER_CLI_TOKEN=dp.ct.{a:43}
cloud | Infisical | service token | INFISICAL_TOKEN=st.{uuid}.{h:32}.{h:32}
cloud | 1Password | service account token | OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{B:300}
cloud | 1Password | Connect server token | OP_CONNECT_TOKEN={jwt}
cloud | Bitwarden | Secrets Manager access token | BWS_ACCESS_TOKEN=0.{uuid}.{B:30}:{b64p:16}
cloud | Akeyless | access key | AKEYLESS_ACCESS_ID=p-{l:12} ;; AKEYLESS_ACCESS_KEY={b64p:32}
cloud | CyberArk Conjur | host API key | CONJUR_AUTHN_API_KEY={l:55}
cloud | Tailscale | auth key | TS_AUTHKEY=tskey-auth-{a:17}-{a:33}
cloud | Tailscale | API access token | TS_API_KEY=tskey-api-{a:17}-{a:33}
cloud | ngrok | agent authtoken | NGROK_AUTHTOKEN={d:1}{a:26}_{a:21}
cloud | ngrok | API key | NGROK_API_KEY={d:1}{a:26}_{a:21}
cloud | ZeroTier | API token | ZEROTIER_API_TOKEN={a:32}
cloud | Teleport | node join token | TELEPORT_JOIN_TOKEN={h:32}
cloud | Kubernetes | service account token | KUBE_TOKEN={jwtk8s}
cloud | Kubernetes | bootstrap token | KUBEADM_TOKEN={l:6}.{l:16}
cloud | Rancher | API bearer token | RANCHER_TOKEN=token-{l:5}:{l:54}
cloud | OpenShift | OAuth access token | OC_TOKEN=sha256~{B:43}
cloud | Portainer | access token | PORTAINER_API_KEY=ptr_{B:44}
cloud | Docker | Hub personal access token | DOCKERHUB_USERNAME={user} ;; DOCKERHUB_TOKEN=dckr_pat_{B:27}
cloud | Docker | Hub organization access token | DOCKER_ORG_TOKEN=dckr_oat_{B:32}
cloud | Quay.io | robot account token | QUAY_ROBOT_USER={word}+ci ;; QUAY_ROBOT_TOKEN={U:64}
cloud | Harbor | robot account secret | HARBOR_ROBOT_NAME=robot$ci-push ;; HARBOR_ROBOT_SECRET={a:32}
cloud | Proxmox VE | API token | PVE_API_TOKEN=PVEAPIToken=root@pam!{word}={uuid}
cloud | VMware vSphere | vCenter credentials | VSPHERE_USER=administrator@vsphere.local ;; VSPHERE_PASSWORD={spw}
cloud | TrueNAS | API key | TRUENAS_API_KEY={d:1}-{a:64}
cloud | Cloudflare Workers | KV namespace write token | CF_WORKERS_TOKEN={B:40}
ai | OpenAI | project API key | OPENAI_API_KEY=sk-proj-{B:156}
ai | OpenAI | legacy user API key | OPENAI_API_KEY=sk-{a:20}T3BlbkFJ{a:20}
ai | OpenAI | service account key | OPENAI_API_KEY=sk-svcacct-{B:156}
ai | OpenAI | admin key | OPENAI_ADMIN_KEY=sk-admin-{B:156}
ai | Anthropic | API key | ANTHROPIC_API_KEY=sk-ant-api03-{B:93}AA
ai | Anthropic | admin API key | ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{B:93}AA
ai | Anthropic | OAuth token | CLAUDE_CODE_OAUTH_TOKEN=sk-ant-oat01-{B:93}AA
ai | Google | Gemini API key | GEMINI_API_KEY=AIza{B:35}
ai | Cohere | API key | CO_API_KEY={a:40}
ai | Mistral AI | API key | MISTRAL_API_KEY={a:32}
ai | Groq | API key | GROQ_API_KEY=gsk_{a:52}
ai | Perplexity | API key | PERPLEXITY_API_KEY=pplx-{a:48}
ai | xAI | API key | XAI_API_KEY=xai-{a:80}
ai | DeepSeek | API key | DEEPSEEK_API_KEY=sk-{h:32}
ai | Together AI | API key | TOGETHER_API_KEY=tgp_v1_{B:43}
ai | Fireworks AI | API key | FIREWORKS_API_KEY=fw_{a:24}
ai | Replicate | API token | REPLICATE_API_TOKEN=r8_{a:37}
ai | Hugging Face | user access token | HF_TOKEN=hf_{a:34}
ai | Hugging Face | organization API token | HF_ORG_TOKEN=api_org_{a:34}
ai | OpenRouter | API key | OPENROUTER_API_KEY=sk-or-v1-{h:64}
ai | ElevenLabs | API key | ELEVENLABS_API_KEY=sk_{h:48}
ai | AssemblyAI | API key | ASSEMBLYAI_API_KEY={h:32}
ai | Deepgram | API key | DEEPGRAM_API_KEY={h:40}
ai | Pinecone | API key | PINECONE_API_KEY=pcsk_{a:5}_{a:64}
ai | Weaviate | cloud API key | WEAVIATE_API_KEY={a:40}
ai | Qdrant | cloud API key | QDRANT_API_KEY={B:43}
ai | LangSmith | personal API key | LANGSMITH_API_KEY=lsv2_pt_{h:32}_{h:10}
ai | LangSmith | service key | LANGSMITH_SERVICE_KEY=lsv2_sk_{h:32}_{h:10}
ai | Langfuse | project key pair | LANGFUSE_PUBLIC_KEY=pk-lf-{uuid} ;; LANGFUSE_SECRET_KEY=sk-lf-{uuid}
ai | Helicone | API key | HELICONE_API_KEY=sk-helicone-{l:7}-{l:7}-{l:7}-{l:7}
ai | Cerebras | API key | CEREBRAS_API_KEY=csk-{l:48}
ai | Stability AI | API key | STABILITY_API_KEY=sk-{a:48}
ai | Runway | API secret | RUNWAYML_API_SECRET=key_{h:128}
ai | Voyage AI | API key | VOYAGE_API_KEY=pa-{B:43}
ai | Jina AI | API key | JINA_API_KEY=jina_{h:32}{B:28}
ai | Tavily | API key | TAVILY_API_KEY=tvly-{a:32}
ai | Exa | API key | EXA_API_KEY={uuid}
ai | SerpApi | API key | SERPAPI_API_KEY={h:64}
ai | Brave Search | API key | BRAVE_SEARCH_API_KEY=BSA{a:28}
ai | Firecrawl | API key | FIRECRAWL_API_KEY=fc-{h:32}
ai | Browserbase | API key | BROWSERBASE_API_KEY=bb_live_{B:27}
ai | E2B | API key | E2B_API_KEY=e2b_{h:40}
ai | Modal | token pair | MODAL_TOKEN_ID=ak-{a:22} ;; MODAL_TOKEN_SECRET=as-{a:22}
ai | Weights & Biases | API key | WANDB_API_KEY={h:40}
ai | Comet ML | API key | COMET_API_KEY={a:25}
ai | Neptune.ai | API token | NEPTUNE_API_TOKEN=eyJhcGlfYWRkcmVzcyI6{B:150}
ai | Clarifai | personal access token | CLARIFAI_PAT={h:32}
ai | Roboflow | private API key | ROBOFLOW_API_KEY={a:20}
ai | LlamaCloud | API key | LLAMA_CLOUD_API_KEY=llx-{a:48}
ai | Nomic | API key | NOMIC_API_KEY=nk-{B:43}
ai | AI21 Labs | API key | AI21_API_KEY={a:32}
ai | Writer | API key | WRITER_API_KEY={a:32}
ai | Anyscale | endpoints key | ANYSCALE_API_KEY=esecret_{l:32}
ai | Baseten | API key | BASETEN_API_KEY={a:8}.{a:32}
ai | RunPod | API key | RUNPOD_API_KEY=rpa_{U:46}
ai | Lambda | cloud API key | LAMBDA_API_KEY=secret_{l:8}_{h:32}
ai | Vapi | private API key | VAPI_PRIVATE_KEY={uuid}
ai | Retell AI | API key | RETELL_API_KEY=key_{h:28}
ai | Cartesia | API key | CARTESIA_API_KEY=sk_car_{a:40}
ai | Speechmatics | API key | SPEECHMATICS_API_KEY={a:32}
ai | Rev.ai | access token | REVAI_ACCESS_TOKEN=02{B:70}
ai | Gladia | API key | GLADIA_API_KEY={uuid}
ai | Portkey | API key | PORTKEY_API_KEY={B:32}
ai | Braintrust | API key | BRAINTRUST_API_KEY=sk-{a:48}
ai | Humanloop | API key | HUMANLOOP_API_KEY=hl_sk_{h:48}
ai | OpenPipe | API key | OPENPIPE_API_KEY=opk_{h:42}
ai | Mem0 | API key | MEM0_API_KEY=m0-{a:40}
ai | Chroma Cloud | API key | CHROMA_API_KEY=ck-{a:43}
ai | Zilliz Cloud | API key | ZILLIZ_API_KEY={h:104}
ai | Unstructured | API key | UNSTRUCTURED_API_KEY={a:30}
ai | SambaNova | API key | SAMBANOVA_API_KEY={uuid}
ai | Leonardo.Ai | API key | LEONARDO_API_KEY={uuid}
ai | DeepL | API auth key | DEEPL_AUTH_KEY={uuid}:fx
ai | Azure AI Search | admin key | AZURE_SEARCH_ADMIN_KEY={a:52}
ai | Sourcegraph | access token | SRC_ACCESS_TOKEN=sgp_{h:40}
ai | Novita AI | API key | NOVITA_API_KEY=sk_{B:43}
ai | Hyperbolic | API key | HYPERBOLIC_API_KEY={jwt}
ai | Lepton AI | API token | LEPTON_API_TOKEN={a:32}
ai | PlayHT | secret key | PLAYHT_USER_ID={a:28} ;; PLAYHT_SECRET_KEY={h:32}
ai | Suno API proxy | cookie token | SUNO_COOKIE=__client={jwtrs}
ai | Moonshot AI | API key | MOONSHOT_API_KEY=sk-{a:48}
ai | Zhipu AI | API key | ZHIPUAI_API_KEY={h:32}.{a:16}
ai | Baichuan | API key | BAICHUAN_API_KEY=sk-{h:32}
pay | Stripe | live secret key | STRIPE_SECRET_KEY=sk_live_{a:99}
pay | Stripe | live restricted key | STRIPE_RESTRICTED_KEY=rk_live_{a:99}
pay | Stripe | webhook signing secret | STRIPE_WEBHOOK_SECRET=whsec_{a:32}
pay | Stripe | legacy live secret key | STRIPE_KEY=sk_live_{a:24}
pay | PayPal | REST client credentials | PAYPAL_CLIENT_ID=A{B:79} ;; PAYPAL_CLIENT_SECRET=E{B:79}
pay | PayPal | NVP/SOAP API signature | PAYPAL_API_USERNAME={w:8}_api1.{dom} ;; PAYPAL_API_PASSWORD={U:16} ;; PAYPAL_API_SIGNATURE=A{B:55}
pay | Braintree | production access token | BRAINTREE_ACCESS_TOKEN=access_token$production${l:16}${h:32}
pay | Braintree | API key set | BT_MERCHANT_ID={l:16} ;; BT_PUBLIC_KEY={l:16} ;; BT_PRIVATE_KEY={h:32}
pay | Square | production access token | SQUARE_ACCESS_TOKEN=EAAA{B:60}
pay | Square | OAuth application secret | SQUARE_APPLICATION_SECRET=sq0csp-{B:43}
pay | Adyen | API key | ADYEN_API_KEY=AQE{B:180}
pay | Adyen | HMAC key | ADYEN_HMAC_KEY={H:64}
pay | Checkout.com | secret key | CKO_SECRET_KEY=sk_{l:26}
pay | Razorpay | live key pair | RAZORPAY_KEY_ID=rzp_live_{a:14} ;; RAZORPAY_KEY_SECRET={a:24}
pay | Paystack | live secret key | PAYSTACK_SECRET_KEY=sk_live_{h:40}
pay | Flutterwave | live secret key | FLW_SECRET_KEY=FLWSECK-{h:32}-X
pay | Mollie | live API key | MOLLIE_API_KEY=live_{a:30}
pay | GoCardless | live access token | GOCARDLESS_ACCESS_TOKEN=live_{B:40}
pay | Paddle | live API key | PADDLE_API_KEY=pdl_live_apikey_{l:26}_{a:22}_{a:3}
pay | Lemon Squeezy | API key | LEMONSQUEEZY_API_KEY={jwtrs}
pay | Plaid | client credentials | PLAID_CLIENT_ID={h:24} ;; PLAID_SECRET={h:30}
pay | Plaid | production item access token | PLAID_ACCESS_TOKEN=access-production-{uuid}
pay | Wise | API token | WISE_API_TOKEN={uuid}
pay | Coinbase | CDP API key | COINBASE_API_KEY_NAME=organizations/{uuid}/apiKeys/{uuid} ;; COINBASE_API_PRIVATE_KEY={ec}
pay | Coinbase Commerce | API key | COINBASE_COMMERCE_API_KEY={uuid}
pay | Authorize.net | API login and transaction key | AUTHNET_API_LOGIN_ID={a:10} ;; AUTHNET_TRANSACTION_KEY={a:16}
pay | Mercado Pago | production access token | MP_ACCESS_TOKEN=APP_USR-{d:16}-{d:6}-{h:32}-{d:9}
pay | Midtrans | server key | MIDTRANS_SERVER_KEY=Mid-server-{B:24}
pay | Xendit | production secret key | XENDIT_SECRET_KEY=xnd_production_{a:60}
pay | YooKassa | live secret key | YOOKASSA_SHOP_ID={d:6} ;; YOOKASSA_SECRET_KEY=live_{B:43}
pay | Klarna | API credentials | KLARNA_USERNAME=K{d:6}_{h:12} ;; KLARNA_PASSWORD={a:16}
pay | Recurly | private API key | RECURLY_API_KEY={h:32}
pay | Chargebee | live API key | CHARGEBEE_API_KEY=live_{a:34}
pay | Zuora | OAuth client | ZUORA_CLIENT_ID={uuid} ;; ZUORA_CLIENT_SECRET={a:40}
pay | PayU | POS second key | PAYU_POS_ID={d:6} ;; PAYU_SECOND_KEY={h:32}
pay | iyzico | API key pair | IYZICO_API_KEY={a:32} ;; IYZICO_SECRET_KEY={a:32}
pay | PayFast | merchant credentials | PAYFAST_MERCHANT_ID={d:8} ;; PAYFAST_MERCHANT_KEY={l:13} ;; PAYFAST_PASSPHRASE={spw}
pay | Worldpay | live service key | WORLDPAY_SERVICE_KEY=L_S_{uuid}
pay | Amazon Pay | private key | AMAZON_PAY_PUBLIC_KEY_ID=LIVE-{U:24} ;; AMAZON_PAY_PRIVATE_KEY={pk8}
pay | Shopify | Admin API access token | SHOPIFY_ACCESS_TOKEN=shpat_{h:32}
pay | Shopify | custom app access token | SHOPIFY_CUSTOM_APP_TOKEN=shpca_{h:32}
pay | Shopify | private app password | SHOPIFY_PRIVATE_APP_PASSWORD=shppa_{h:32}
pay | Shopify | app shared secret | SHOPIFY_API_SECRET=shpss_{h:32}
pay | BigCommerce | API access token | BIGCOMMERCE_ACCESS_TOKEN={l:31}
pay | WooCommerce | REST API keys | WC_CONSUMER_KEY=ck_{h:40} ;; WC_CONSUMER_SECRET=cs_{h:40}
pay | Adobe Commerce | integration access token | MAGENTO_ACCESS_TOKEN={l:32}
pay | Ecwid | secret token | ECWID_SECRET_TOKEN=secret_{a:32}
pay | Gumroad | access token | GUMROAD_ACCESS_TOKEN={B:43}
pay | Shippo | live API token | SHIPPO_API_TOKEN=shippo_live_{h:40}
pay | EasyPost | production API key | EASYPOST_API_KEY=EZAK{h:54}
pay | Alipay | app private key | ALIPAY_APP_ID=2021{d:12} ;; ALIPAY_PRIVATE_KEY={pk8}
pay | WeChat Pay | API v3 key | WECHATPAY_MCHID=16{d:8} ;; WECHATPAY_APIV3_KEY={a:32}
pay | Paytm | merchant key | PAYTM_MID={a:20} ;; PAYTM_MERCHANT_KEY={a:16}
pay | Revolut Business | API refresh token | REVOLUT_REFRESH_TOKEN=oa_prod_{B:43}
pay | Starling Bank | personal access token | STARLING_TOKEN={a:64}
pay | TrueLayer | client secret | TRUELAYER_CLIENT_ID={word}-{h:6} ;; TRUELAYER_CLIENT_SECRET={uuid}
pay | Tink | client secret | TINK_CLIENT_ID={h:32} ;; TINK_CLIENT_SECRET={h:32}
pay | Dwolla | application secret | DWOLLA_KEY={a:50} ;; DWOLLA_SECRET={a:50}
pay | Rapyd | secret key | RAPYD_ACCESS_KEY=rak_{H:20} ;; RAPYD_SECRET_KEY=rsk_{h:100}
pay | 2Checkout | secret word and key | TCO_MERCHANT_CODE={d:9} ;; TCO_SECRET_KEY={a:20} ;; TCO_SECRET_WORD={spw}
pay | Zerodha Kite | API secret | KITE_API_KEY={l:16} ;; KITE_API_SECRET={l:32}
pay | Safaricom M-Pesa | Daraja consumer secret | MPESA_CONSUMER_KEY={a:48} ;; MPESA_CONSUMER_SECRET={a:64} ;; MPESA_PASSKEY={h:64}
pay | Yoco | live secret key | YOCO_SECRET_KEY=sk_live_{h:32}
pay | Lemonway | API password | LEMONWAY_LOGIN={word}-api ;; LEMONWAY_PASSWORD={spw}
pay | Stripe Connect | OAuth refresh token | STRIPE_CONNECT_REFRESH=rt_{a:99}
msg | Slack | bot token | SLACK_BOT_TOKEN=xoxb-{d:12}-{d:13}-{a:24}
msg | Slack | user token | SLACK_USER_TOKEN=xoxp-{d:12}-{d:12}-{d:13}-{h:32}
msg | Slack | app-level token | SLACK_APP_TOKEN=xapp-1-A{U:10}-{d:13}-{h:64}
msg | Slack | configuration refresh token | SLACK_CONFIG_REFRESH_TOKEN=xoxe-1-{B:140}
msg | Slack | signing secret | SLACK_SIGNING_SECRET={h:32}
msg | Slack | incoming webhook URL | SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{U:8}/B{U:10}/{a:24}
msg | Slack | workflow trigger URL | SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{U:8}/{d:13}/{h:32}
msg | Discord | bot token | DISCORD_BOT_TOKEN={discordbot}
msg | Discord | webhook URL | DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/{d:19}/{B:68}
msg | Telegram | bot token | TELEGRAM_BOT_TOKEN={d:10}:AA{B:33}
msg | Microsoft Teams | incoming webhook URL | TEAMS_WEBHOOK_URL=https://{w:8}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h:32}/{uuid}/V2{B:43}
msg | Google Chat | space webhook URL | GCHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA{B:7}/messages?key=AIza{B:35}&token={B:43}%3D
msg | Mattermost | incoming webhook URL | MATTERMOST_WEBHOOK=https://chat.{dom}/hooks/{l:26}
msg | Mattermost | personal access token | MATTERMOST_TOKEN={l:26}
msg | Rocket.Chat | integration webhook URL | ROCKETCHAT_HOOK=https://chat.{dom}/hooks/{a:17}/{a:48}
msg | Rocket.Chat | personal access token | ROCKETCHAT_USER_ID={a:17} ;; ROCKETCHAT_AUTH_TOKEN={B:43}
msg | Zulip | bot API key | ZULIP_EMAIL={word}-bot@{word}.zulipchat.com ;; ZULIP_API_KEY={a:32}
msg | Twilio | account SID and auth token | TWILIO_ACCOUNT_SID=AC{h:32} ;; TWILIO_AUTH_TOKEN={h:32}
msg | Twilio | API key and secret | TWILIO_API_KEY=SK{h:32} ;; TWILIO_API_SECRET={a:32}
msg | Vonage | API key and secret | VONAGE_API_KEY={h:8} ;; VONAGE_API_SECRET={a:16}
msg | Plivo | auth ID and token | PLIVO_AUTH_ID=MA{U:18} ;; PLIVO_AUTH_TOKEN={a:40}
msg | MessageBird | live access key | MESSAGEBIRD_ACCESS_KEY={a:25}
msg | Sinch | SMS API token | SINCH_SERVICE_PLAN_ID={h:32} ;; SINCH_API_TOKEN={h:32}
msg | Telnyx | API key | TELNYX_API_KEY=KEY{H:32}_{a:22}
msg | Bandwidth | API credentials | BANDWIDTH_USERNAME={user} ;; BANDWIDTH_PASSWORD={spw}
msg | ClickSend | API credentials | CLICKSEND_USERNAME={email} ;; CLICKSEND_API_KEY={UUID}
msg | Infobip | API key | INFOBIP_API_KEY={h:32}-{uuid}
msg | Africa's Talking | API key | AT_USERNAME={word} ;; AT_API_KEY=atsk_{h:64}
msg | Pusher | Channels app secret | PUSHER_APP_ID={d:7} ;; PUSHER_KEY={h:20} ;; PUSHER_SECRET={h:20}
msg | Ably | API key | ABLY_API_KEY={B:6}.{B:6}:{B:43}
msg | Stream | API secret | STREAM_API_KEY={l:12} ;; STREAM_API_SECRET={l:64}
msg | Sendbird | API token | SENDBIRD_APP_ID={UUID} ;; SENDBIRD_API_TOKEN={h:40}
msg | PubNub | secret key | PUBNUB_SECRET_KEY=sec-c-{B:48}
msg | OneSignal | REST API key | ONESIGNAL_REST_API_KEY=os_v2_app_{l:100}
msg | Expo | access token | EXPO_TOKEN={B:40}
msg | Pushover | application token | PUSHOVER_TOKEN=a{l:29} ;; PUSHOVER_USER=u{l:29}
msg | LINE | Messaging API channel credentials | LINE_CHANNEL_ACCESS_TOKEN={b:172}= ;; LINE_CHANNEL_SECRET={h:32}
msg | WhatsApp Cloud API | system user access token | WHATSAPP_TOKEN=EAA{a:200}
msg | Viber | bot auth token | VIBER_AUTH_TOKEN={h:16}-{h:16}-{h:16}
msg | Intercom | access token | INTERCOM_ACCESS_TOKEN={intercom}
msg | Crisp | plugin token | CRISP_IDENTIFIER={uuid} ;; CRISP_KEY={h:64}
msg | Zoom | Server-to-Server OAuth app | ZOOM_ACCOUNT_ID={B:22} ;; ZOOM_CLIENT_ID={B:22} ;; ZOOM_CLIENT_SECRET={a:32}
msg | Webex | bot access token | WEBEX_BOT_TOKEN={a:64}_{a:4}_{uuid}
msg | Agora | app certificate | AGORA_APP_ID={h:32} ;; AGORA_APP_CERTIFICATE={h:32}
msg | Daily | API key | DAILY_API_KEY={h:64}
msg | LiveKit | API key and secret | LIVEKIT_API_KEY=API{a:12} ;; LIVEKIT_API_SECRET={a:43}
msg | Twitch | chat OAuth token | TWITCH_OAUTH=oauth:{l:30}
msg | Twitch | client secret | TWITCH_CLIENT_ID={l:30} ;; TWITCH_CLIENT_SECRET={l:30}
msg | Matrix | Synapse access token | MATRIX_ACCESS_TOKEN=syt_{B:12}_{a:20}_{a:6}
msg | Feishu/Lark | bot webhook URL | LARK_WEBHOOK=https://open.feishu.cn/open-apis/bot/v2/hook/{uuid}
msg | DingTalk | robot webhook URL | DINGTALK_WEBHOOK=https://oapi.dingtalk.com/robot/send?access_token={h:64}
msg | WeCom | group robot webhook URL | WECOM_WEBHOOK=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uuid}
msg | Kakao | REST API key | KAKAO_REST_API_KEY={h:32}
msg | Naver | client secret | NAVER_CLIENT_ID={a:20} ;; NAVER_CLIENT_SECRET={a:10}
msg | VK | community access token | VK_TOKEN=vk1.a.{B:200}
msg | Gupshup | API key | GUPSHUP_API_KEY={l:32}
msg | Termii | API key | TERMII_API_KEY=TL{a:58}
msg | Textmagic | API key | TEXTMAGIC_USERNAME={user} ;; TEXTMAGIC_API_KEY={a:30}
email | SendGrid | API key | SENDGRID_API_KEY=SG.{B:22}.{B:43}
email | Mailgun | private API key | MAILGUN_API_KEY=key-{h:32}
email | Mailgun | domain sending key | MAILGUN_SENDING_KEY={h:32}-{h:8}-{h:8}
email | Mailgun | SMTP credentials | MAILGUN_SMTP_LOGIN=postmaster@mg.{dom} ;; MAILGUN_SMTP_PASSWORD={h:32}-{h:8}-{h:8}
email | Mailchimp | Marketing API key | MAILCHIMP_API_KEY={h:32}-us{d:2}
email | Mailchimp Transactional | API key | MANDRILL_API_KEY=md-{B:22}
email | Postmark | server token | POSTMARK_SERVER_TOKEN={uuid}
email | Postmark | account token | POSTMARK_ACCOUNT_TOKEN={uuid}
email | Brevo | API key | BREVO_API_KEY=xkeysib-{h:64}-{a:16}
email | Brevo | SMTP key | BREVO_SMTP_KEY=xsmtpsib-{h:64}-{a:16}
email | SparkPost | API key | SPARKPOST_API_KEY={h:40}
email | Mailjet | API key pair | MJ_APIKEY_PUBLIC={h:32} ;; MJ_APIKEY_PRIVATE={h:32}
email | Resend | API key | RESEND_API_KEY=re_{a:8}_{a:24}
email | Loops | API key | LOOPS_API_KEY={h:32}
email | Kit | API secret | CONVERTKIT_API_SECRET={B:43}
email | Klaviyo | private API key | KLAVIYO_PRIVATE_KEY=pk_{h:34}
email | Customer.io | App API key | CUSTOMERIO_APP_API_KEY={h:32}
email | Mailtrap | API token | MAILTRAP_API_TOKEN={h:32}
email | MailerLite | API token | MAILERLITE_API_KEY={jwtrs}
email | ActiveCampaign | API key | ACTIVECAMPAIGN_URL=https://{word}.api-us1.com ;; ACTIVECAMPAIGN_KEY={h:72}
email | Campaign Monitor | API key | CAMPAIGN_MONITOR_API_KEY={b:88}==
email | Gmail | app password | GMAIL_USER={email} ;; GMAIL_APP_PASSWORD={gapp}
email | Microsoft 365 | SMTP AUTH mailbox | SMTP_HOST=smtp.office365.com ;; SMTP_USER=noreply@{dom} ;; SMTP_PASS={spw}
email | Zoho Mail | app-specific password | ZOHO_SMTP_USER={email} ;; ZOHO_APP_PASSWORD={a:12}
email | Fastmail | app password | FASTMAIL_USER={email} ;; FASTMAIL_APP_PASSWORD={l:16}
email | Proton Mail Bridge | bridge password | PROTON_BRIDGE_USER={email} ;; PROTON_BRIDGE_PASS={B:22}
email | SMTP2GO | API key | SMTP2GO_API_KEY=api-{H:32}
email | Elastic Email | API key | ELASTICEMAIL_API_KEY={H:96}
email | Moosend | API key | MOOSEND_API_KEY={uuid}
email | Omnisend | API key | OMNISEND_API_KEY={h:24}-{a:50}
email | Drip | API token | DRIP_API_TOKEN={h:32}
email | beehiiv | API key | BEEHIIV_API_KEY={a:64}
email | Mailersend | API token | MAILERSEND_API_KEY=mlsn.{h:64}
email | Postal | server API key | POSTAL_KEY={a:24}
email | Generic SMTP relay | URL with password | SMTP_URL=smtp://{user}:{spw}@smtp.{dom}:587
email | IMAP mailbox | account credentials | IMAP_HOST=imap.{dom} ;; IMAP_USER={email} ;; IMAP_PASSWORD={pw}
vcs | GitHub | classic personal access token | GITHUB_TOKEN=ghp_{a:36}
vcs | GitHub | fine-grained personal access token | GH_TOKEN=github_pat_11{U:20}_{a:59}
vcs | GitHub | OAuth access token | GITHUB_OAUTH_TOKEN=gho_{a:36}
vcs | GitHub | user-to-server token | GITHUB_USER_TOKEN=ghu_{a:36}
vcs | GitHub | app installation token | GITHUB_INSTALLATION_TOKEN=ghs_{a:36}
vcs | GitHub | refresh token | GITHUB_REFRESH_TOKEN=ghr_{a:76}
vcs | GitHub | App private key | GITHUB_APP_ID={d:6} ;; GITHUB_APP_PRIVATE_KEY={rsa}
vcs | GitHub | OAuth app client secret | GITHUB_CLIENT_ID=Ov23li{a:14} ;; GITHUB_CLIENT_SECRET={h:40}
vcs | GitHub | webhook secret | GITHUB_WEBHOOK_SECRET={h:40}
vcs | GitLab | personal access token | GITLAB_TOKEN=glpat-{B:20}
vcs | GitLab | deploy token | GITLAB_DEPLOY_USER=gitlab+deploy-token-{d:7} ;; GITLAB_DEPLOY_TOKEN=gldt-{B:20}
vcs | GitLab | runner authentication token | RUNNER_TOKEN=glrt-{B:20}
vcs | GitLab | pipeline trigger token | GITLAB_TRIGGER_TOKEN=glptt-{h:40}
vcs | GitLab | CI build token | CI_JOB_TOKEN=glcbt-{h:2}_{B:20}
vcs | GitLab | feed token | GITLAB_FEED_TOKEN=glft-{B:20}
vcs | GitLab | incoming mail token | GITLAB_INCOMING_EMAIL_TOKEN=glimt-{l:25}
vcs | GitLab | agent for Kubernetes token | GITLAB_AGENT_TOKEN=glagent-{B:50}
vcs | GitLab | OAuth application secret | GITLAB_OAUTH_SECRET=gloas-{h:64}
vcs | GitLab | SCIM OAuth token | GITLAB_SCIM_TOKEN=glsoat-{B:20}
vcs | GitLab | legacy runner registration token | REGISTRATION_TOKEN=GR1348941{B:20}
vcs | Bitbucket | app password | BITBUCKET_USERNAME={user} ;; BITBUCKET_APP_PASSWORD=ATBB{a:32}{H:8}
vcs | Bitbucket | repository access token | BITBUCKET_REPO_TOKEN=ATCTT3xFfGN0{B:180}
vcs | Atlassian | API token | ATLASSIAN_EMAIL={email} ;; ATLASSIAN_API_TOKEN=ATATT3xFfGF0{B:180}={H:8}
vcs | Gitea | access token | GITEA_TOKEN={h:40}
vcs | Forgejo | application token | FORGEJO_TOKEN={h:40}
vcs | SourceHut | personal access token | SRHT_TOKEN={B:120}
vcs | Gerrit | HTTP password | GERRIT_USER={user} ;; GERRIT_HTTP_PASSWORD={B:42}
vcs | Perforce | ticket | P4USER={user} ;; P4PASSWD={H:32}
vcs | Azure Repos | Git credential | AZURE_REPOS_PAT={l:52}
ci | CircleCI | personal API token | CIRCLE_TOKEN=CCIPAT_{a:22}_{h:40}
ci | CircleCI | project API token | CIRCLECI_PROJECT_TOKEN=CCIPRJ_{a:22}_{h:40}
ci | Travis CI | API token | TRAVIS_API_TOKEN={B:22}
ci | Buildkite | API access token | BUILDKITE_API_TOKEN=bkua_{h:40}
ci | Buildkite | agent token | BUILDKITE_AGENT_TOKEN={h:50}
ci | Jenkins | user API token | JENKINS_USER={user} ;; JENKINS_API_TOKEN=11{h:32}
ci | TeamCity | access token | TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{B:36}.{B:48}
ci | Drone | personal token | DRONE_TOKEN={a:32}
ci | Woodpecker | agent secret | WOODPECKER_AGENT_SECRET={h:64}
ci | Codecov | upload token | CODECOV_TOKEN={uuid}
ci | Coveralls | repo token | COVERALLS_REPO_TOKEN={a:32}
ci | SonarQube | user token | SONAR_TOKEN=squ_{h:40}
ci | SonarQube | project analysis token | SONAR_PROJECT_TOKEN=sqp_{h:40}
ci | SonarQube | global analysis token | SONAR_GLOBAL_TOKEN=sqa_{h:40}
ci | SonarCloud | token | SONARCLOUD_TOKEN={h:40}
ci | Snyk | API token | SNYK_TOKEN={uuid}
ci | Semgrep | app token | SEMGREP_APP_TOKEN={h:64}
ci | Argo CD | auth token | ARGOCD_AUTH_TOKEN={jwt}
ci | Octopus Deploy | API key | OCTOPUS_API_KEY=API-{U:27}
ci | Harness | personal access token | HARNESS_PLATFORM_API_KEY=pat.{B:22}.{h:24}.{a:20}
ci | Spacelift | API key | SPACELIFT_API_KEY_ID={U:26} ;; SPACELIFT_API_KEY_SECRET={h:64}
ci | env0 | API key | ENV0_API_KEY={a:16} ;; ENV0_API_SECRET={a:32}
ci | Bitrise | personal access token | BITRISE_TOKEN={B:86}
ci | Codemagic | API token | CM_API_TOKEN={B:43}
ci | AppVeyor | API key | APPVEYOR_TOKEN=v2.{l:20}
ci | Semaphore | API token | SEMAPHORE_API_TOKEN={a:20}
ci | Depot | project token | DEPOT_TOKEN=depot_project_{h:64}
ci | Chromatic | project token | CHROMATIC_PROJECT_TOKEN=chpt_{h:14}
ci | Percy | project token | PERCY_TOKEN=web_{h:64}
ci | BrowserStack | access key | BROWSERSTACK_USERNAME={first}_{a:6} ;; BROWSERSTACK_ACCESS_KEY={a:20}
ci | Sauce Labs | access key | SAUCE_USERNAME={user} ;; SAUCE_ACCESS_KEY={uuid}
ci | LambdaTest | access key | LT_USERNAME={user} ;; LT_ACCESS_KEY={a:50}
ci | Cypress Cloud | record key | CYPRESS_RECORD_KEY={uuid}
ci | Netlify | build hook URL | NETLIFY_BUILD_HOOK=https://api.netlify.com/build_hooks/{h:24}
ci | Vercel | deploy hook URL | VERCEL_DEPLOY_HOOK=https://api.vercel.com/v1/integrations/deploy/prj_{a:28}/{a:10}
ci | Render | deploy hook URL | RENDER_DEPLOY_HOOK=https://api.render.com/deploy/srv-{l:20}?key={a:11}
ci | Cloudflare Pages | deploy hook URL | CF_PAGES_DEPLOY_HOOK=https://api.cloudflare.com/client/v4/pages/webhooks/deploy_hooks/{uuid}
ci | GitHub Actions | self-hosted runner registration token | RUNNER_REG_TOKEN=A{U:28}
ci | Azure Pipelines | agent PAT | AZP_TOKEN={l:52}
ci | Google Cloud Build | trigger webhook URL | CLOUDBUILD_WEBHOOK=https://cloudbuild.googleapis.com/v1/projects/{word}-{d:6}/triggers/{word}:webhook?key=AIza{B:35}&secret={B:32}
pkg | npm | granular access token | NPM_TOKEN=npm_{a:36}
pkg | npm | legacy auth token | NPM_AUTH_TOKEN={uuid}
pkg | PyPI | API token | PYPI_API_TOKEN=pypi-AgEIcHlwaS5vcmc{B:140}
pkg | TestPyPI | API token | TEST_PYPI_TOKEN=pypi-AgENdGVzdC5weXBpLm9yZw{B:140}
pkg | RubyGems | API key | GEM_HOST_API_KEY=rubygems_{h:48}
pkg | NuGet | API key | NUGET_API_KEY=oy2{l:43}
pkg | crates.io | API token | CARGO_REGISTRY_TOKEN=cio{a:32}
pkg | Packagist | API token | PACKAGIST_TOKEN={h:20}
pkg | Maven Central | portal user token | MAVEN_CENTRAL_USERNAME={a:8} ;; MAVEN_CENTRAL_PASSWORD={B:44}
pkg | JFrog Artifactory | API key | ARTIFACTORY_API_KEY=AKCp8{a:68}
pkg | JFrog | reference token | JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOjE3{b:48}
pkg | Sonatype Nexus | deployment user | NEXUS_USERNAME=deployment ;; NEXUS_PASSWORD={spw}
pkg | Cloudsmith | API key | CLOUDSMITH_API_KEY={h:40}
pkg | Gemfury | push token | GEMFURY_PUSH_TOKEN={a:20}
pkg | Anaconda | API token | ANACONDA_API_TOKEN={l:2}-{uuid}
pkg | Hex.pm | API key | HEX_API_KEY={h:32}
pkg | Chocolatey | API key | CHOCO_API_KEY={uuid}
pkg | Open VSX | access token | OVSX_PAT={uuid}
pkg | Chrome Web Store | publish credentials | CWS_CLIENT_ID={d:12}-{l:32}.apps.googleusercontent.com ;; CWS_CLIENT_SECRET=GOCSPX-{B:28} ;; CWS_REFRESH_TOKEN=1//0{B:98}
pkg | Apple | App Store Connect API key | ASC_KEY_ID={U:10} ;; ASC_ISSUER_ID={uuid} ;; ASC_PRIVATE_KEY={p8}
pkg | Apple | app-specific password | APPLE_ID={email} ;; APPLE_APP_SPECIFIC_PASSWORD={w:4}-{w:4}-{w:4}-{w:4}
pkg | Fastlane | match repo password | MATCH_PASSWORD={spw}
pkg | Android | upload keystore passwords | KEYSTORE_PASSWORD={spw} ;; KEY_ALIAS=upload ;; KEY_PASSWORD={spw}
pkg | Expo EAS | build secret | EAS_TOKEN={B:40}
pkg | Pub.dev | OAuth refresh token | PUB_REFRESH_TOKEN=1//0{B:98}
pkg | Terraform Registry | private registry token | TF_TOKEN_app_terraform_io={a:14}.atlasv1.{a:67}
pkg | Helm | chart repository password | HELM_REPO_USERNAME={user} ;; HELM_REPO_PASSWORD={spw}
pkg | Conan | remote password | CONAN_LOGIN_USERNAME={user} ;; CONAN_PASSWORD={spw}
pkg | vcpkg | binary cache SAS | VCPKG_BINARY_SOURCES=clear;x-azblob,https://{w:10}.blob.core.windows.net/cache,sv=2022-11-02&sp=rwl&sig={pctb64:32},readwrite
obs | Datadog | API and application key | DD_API_KEY={h:32} ;; DD_APP_KEY={h:40}
obs | New Relic | user API key | NEW_RELIC_API_KEY=NRAK-{U:27}
obs | New Relic | license key | NEW_RELIC_LICENSE_KEY={h:36}NRAL
obs | New Relic | Insights insert key | NEW_RELIC_INSERT_KEY=NRII-{B:32}
obs | Sentry | user auth token | SENTRY_AUTH_TOKEN=sntryu_{h:64}
obs | Sentry | organization auth token | SENTRY_ORG_TOKEN=sntrys_eyJ{B:120}_{B:43}
obs | Grafana | service account token | GRAFANA_SA_TOKEN=glsa_{a:32}_{h:8}
obs | Grafana Cloud | access policy token | GRAFANA_CLOUD_TOKEN=glc_{b:120}
obs | Grafana | legacy API key | GRAFANA_API_KEY=eyJrIjoi{B:70}
obs | Honeycomb | API key | HONEYCOMB_API_KEY={a:22}
obs | Honeycomb | ingest key | HONEYCOMB_INGEST_KEY=hcaik_{l:58}
obs | Dynatrace | API token | DT_API_TOKEN=dt0c01.{U:24}.{U:64}
obs | Splunk | HTTP Event Collector token | SPLUNK_HEC_TOKEN={uuid}
obs | Splunk Observability | access token | SPLUNK_ACCESS_TOKEN={B:22}
obs | Sumo Logic | access key | SUMO_ACCESS_ID=su{a:12} ;; SUMO_ACCESS_KEY={a:64}
obs | Logz.io | shipping token | LOGZIO_TOKEN={a:32}
obs | Loggly | customer token | LOGGLY_TOKEN={uuid}
obs | Papertrail | API token | PAPERTRAIL_API_TOKEN={a:20}
obs | Better Stack | source token | BETTERSTACK_SOURCE_TOKEN={a:24}
obs | Axiom | API token | AXIOM_TOKEN=xaat-{uuid}
obs | Elastic Cloud | API key | ELASTIC_API_KEY={b64p:40}
obs | Lightstep | access token | LIGHTSTEP_ACCESS_TOKEN={B:84}
obs | Rollbar | server access token | ROLLBAR_ACCESS_TOKEN={h:32}
obs | Airbrake | project key | AIRBRAKE_PROJECT_ID={d:6} ;; AIRBRAKE_PROJECT_KEY={h:32}
obs | PagerDuty | REST API key | PAGERDUTY_TOKEN=u+{B:18}
obs | PagerDuty | Events v2 integration key | PAGERDUTY_ROUTING_KEY={h:32}
obs | Opsgenie | API key | OPSGENIE_API_KEY={uuid}
obs | Atlassian Statuspage | API key | STATUSPAGE_API_KEY={uuid}
obs | Checkly | API key | CHECKLY_API_KEY=cu_{h:32}
obs | UptimeRobot | main API key | UPTIMEROBOT_API_KEY=u{d:7}-{h:24}
obs | Pingdom | API token | PINGDOM_API_TOKEN={B:64}
obs | Cronitor | API key | CRONITOR_API_KEY={h:32}
obs | Mezmo | ingestion key | MEZMO_INGESTION_KEY={h:32}
obs | Coralogix | send-your-data key | CORALOGIX_PRIVATE_KEY=cxtp_{a:30}
obs | Instana | agent key | INSTANA_AGENT_KEY={B:22}
obs | AppDynamics | controller access key | APPDYNAMICS_AGENT_ACCOUNT_ACCESS_KEY={l:12}
obs | PostHog | personal API key | POSTHOG_PERSONAL_API_KEY=phx_{a:43}
obs | Mixpanel | service account secret | MIXPANEL_SA_USERNAME={word}.{d:6}.mp-service-account ;; MIXPANEL_SA_SECRET={a:32}
obs | Amplitude | secret key | AMPLITUDE_API_KEY={h:32} ;; AMPLITUDE_SECRET_KEY={h:32}
obs | FullStory | API key | FULLSTORY_API_KEY=na1.{b:80}
obs | LaunchDarkly | server SDK key | LD_SDK_KEY=sdk-{uuid}
obs | LaunchDarkly | API access token | LD_API_TOKEN=api-{uuid}
obs | Split | server-side SDK key | SPLIT_SDK_KEY={l:36}
obs | Optimizely | personal access token | OPTIMIZELY_TOKEN=2:{B:43}
obs | Statsig | server secret key | STATSIG_SERVER_SECRET=secret-{a:43}
obs | Flagsmith | server-side environment key | FLAGSMITH_SERVER_KEY=ser.{a:22}
obs | Unleash | admin API token | UNLEASH_ADMIN_TOKEN=*:*.{h:64}
obs | Bugsnag | data access token | BUGSNAG_AUTH_TOKEN={h:40}
obs | Raygun | personal access token | RAYGUN_PAT={H:40}
obs | Highlight | API key | HIGHLIGHT_API_KEY={a:40}
obs | Kibana | encryption key | XPACK_SECURITY_ENCRYPTIONKEY={a:32}
obs | Prometheus | remote-write basic auth | REMOTE_WRITE_USER={d:6} ;; REMOTE_WRITE_PASSWORD=glc_{b:120}
db | PostgreSQL | connection URI | DATABASE_URL=postgres://{dbuser}:{dbpw}@{dbhost}:5432/{db}
db | PostgreSQL | libpq keyword DSN | PG_DSN=host={dbhost} port=5432 dbname={db} user={dbuser} password={dbpw} sslmode=require
db | MySQL | connection URI | MYSQL_URL=mysql://{dbuser}:{dbpw}@{dbhost}:3306/{db}
db | MariaDB | JDBC URL with password | JDBC_URL=jdbc:mariadb://{dbhost}:3306/{db}?user={dbuser}&password={dbpw}
db | Microsoft SQL Server | ADO.NET connection string | SQLSERVER_CONNECTION=Server=tcp:{w:8}.database.windows.net,1433;Initial Catalog={db};User ID={dbuser};Password={dbpw};Encrypt=True;
db | Oracle Database | JDBC thin URL | ORACLE_URL=jdbc:oracle:thin:{dbuser}/{dbpw}@//{dbhost}:1521/ORCLPDB1
db | MongoDB Atlas | SRV connection string | MONGODB_URI=mongodb+srv://{dbuser}:{dbpw}@cluster0.{l:5}.mongodb.net/{db}?retryWrites=true&w=majority
db | MongoDB | standard connection string | MONGO_URL=mongodb://{dbuser}:{dbpw}@{dbhost}:27017/{db}?authSource=admin
db | MongoDB Atlas | Admin API key pair | ATLAS_PUBLIC_KEY={w:8} ;; ATLAS_PRIVATE_KEY={uuid}
db | Redis | URL with password | REDIS_URL=redis://default:{dbpw}@{dbhost}:6379/0
db | Redis | TLS URL with password | REDIS_TLS_URL=rediss://:{dbpw}@{dbhost}:6380
db | Upstash | Redis REST token | UPSTASH_REDIS_REST_URL=https://{word}-{word}-{d:5}.upstash.io ;; UPSTASH_REDIS_REST_TOKEN=A{B:60}
db | Upstash | QStash token | QSTASH_TOKEN=eyJVc2VySUQiOi{B:100}
db | Redis Cloud | API secret key | REDISCLOUD_API_KEY={a:50} ;; REDISCLOUD_SECRET_KEY={a:50}
db | RabbitMQ | AMQP URL | AMQP_URL=amqps://{dbuser}:{dbpw}@{dbhost}:5671/{word}
db | CloudAMQP | instance URL | CLOUDAMQP_URL=amqps://{l:8}:{B:32}@{word}.rmq.cloudamqp.com/{l:8}
db | Apache Kafka | SASL JAAS config | KAFKA_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username="{U:16}" password="{b:64}";
db | Confluent Cloud | API key pair | CONFLUENT_CLOUD_API_KEY={U:16} ;; CONFLUENT_CLOUD_API_SECRET={b:64}
db | Elasticsearch | basic-auth URL | ELASTICSEARCH_URL=https://elastic:{dbpw}@{dbhost}:9200
db | OpenSearch | master user | OPENSEARCH_MASTER_USER=admin ;; OPENSEARCH_MASTER_PASSWORD={spw}
db | ClickHouse Cloud | connection URL | CLICKHOUSE_URL=clickhouse://default:{dbpw}@{l:10}.eu-west-1.aws.clickhouse.cloud:9440/default?secure=true
db | Snowflake | user password | SNOWFLAKE_ACCOUNT={U:7}-{U:7} ;; SNOWFLAKE_USER={dbuser} ;; SNOWFLAKE_PASSWORD={dbpw}
db | Snowflake | key-pair private key | SNOWFLAKE_USER={dbuser} ;; SNOWFLAKE_PRIVATE_KEY={pk8}
db | Databricks | personal access token | DATABRICKS_HOST=https://adb-{d:16}.{d:1}.azuredatabricks.net ;; DATABRICKS_TOKEN=dapi{h:32}
db | PlanetScale | service token | PLANETSCALE_SERVICE_TOKEN_ID={l:12} ;; PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{B:43}
db | PlanetScale | database password | DATABASE_URL=mysql://{l:20}:pscale_pw_{B:43}@aws.connect.psdb.cloud/{db}?sslaccept=strict
db | PlanetScale | OAuth token | PLANETSCALE_OAUTH=pscale_oauth_{B:43}
db | Neon | API key | NEON_API_KEY=napi_{l:64}
db | Neon | connection string | DATABASE_URL=postgresql://{dbuser}:npg_{a:12}@ep-{word}-{word}-{l:8}.us-east-2.aws.neon.tech/{db}?sslmode=require
db | Turso | database auth token | TURSO_DATABASE_URL=libsql://{word}-{word}.turso.io ;; TURSO_AUTH_TOKEN={jwted}
db | CockroachDB | serverless connection string | COCKROACH_URL=postgresql://{dbuser}:{dbpw}@{word}-{d:4}.{l:4}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full
db | Fauna | database secret | FAUNA_SECRET=fn{B:38}
db | Firebase | Realtime Database legacy secret | FIREBASE_DB_SECRET={a:40}
db | Airtable | personal access token | AIRTABLE_TOKEN=pat{a:14}.{h:64}
db | Xata | API key | XATA_API_KEY=xau_{a:36}
db | Aiven | authentication token | AIVEN_TOKEN={b:372}
db | InfluxDB | API token | INFLUX_TOKEN={B:86}==
db | Timescale | service connection | TIMESCALE_URL=postgres://tsdbadmin:{dbpw}@{l:10}.{l:10}.tsdb.cloud.timescale.com:3{d:4}/tsdb?sslmode=require
db | DataStax Astra | application token | ASTRA_DB_APPLICATION_TOKEN=AstraCS:{a:24}:{h:64}
db | Couchbase Capella | database credentials | CB_CONNSTR=couchbases://cb.{l:16}.cloud.couchbase.com ;; CB_USERNAME={dbuser} ;; CB_PASSWORD={dbpw}
db | Neo4j Aura | instance credentials | NEO4J_URI=neo4j+s://{h:8}.databases.neo4j.io ;; NEO4J_USERNAME=neo4j ;; NEO4J_PASSWORD={B:43}
db | MinIO | root credentials | MINIO_ROOT_USER={dbuser} ;; MINIO_ROOT_PASSWORD={dbpw}
db | Typesense | admin API key | TYPESENSE_API_KEY={a:32}
db | Meilisearch | master key | MEILI_MASTER_KEY={B:43}
db | Algolia | admin API key | ALGOLIA_APP_ID={U:10} ;; ALGOLIA_ADMIN_API_KEY={h:32}
db | Elastic App Search | private key | APP_SEARCH_PRIVATE_KEY=private-{l:24}
db | Prisma Accelerate | connection URL | DATABASE_URL=prisma://accelerate.prisma-data.net/?api_key={jwt}
db | Tinybird | admin token | TINYBIRD_TOKEN=p.eyJ1Ijog{B:100}.{B:43}
db | MotherDuck | access token | MOTHERDUCK_TOKEN={jwt}
db | Rockset | API key | ROCKSET_APIKEY={a:64}
db | SurrealDB | root credentials | SURREAL_USER=root ;; SURREAL_PASS={spw}
db | ArangoDB Oasis | root password | ARANGO_ROOT_PASSWORD={spw}
db | Cassandra | driver credentials | CASSANDRA_USERNAME={dbuser} ;; CASSANDRA_PASSWORD={dbpw}
db | Memcached Cloud | SASL credentials | MEMCACHEDCLOUD_SERVERS={dbhost}:11211 ;; MEMCACHEDCLOUD_USERNAME={l:10} ;; MEMCACHEDCLOUD_PASSWORD={a:32}
db | Supabase | Postgres pooler URL | DATABASE_URL=postgresql://postgres.{l:20}:{dbpw}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres
db | Cloud SQL | database user password | CLOUDSQL_USER={dbuser} ;; CLOUDSQL_PASSWORD={dbpw}
db | Amazon Redshift | JDBC with password | REDSHIFT_URL=jdbc:redshift://{word}.{l:12}.eu-west-1.redshift.amazonaws.com:5439/dev?user={dbuser}&password={dbpw}
db | Azure Cosmos DB | MongoDB API connection string | COSMOS_MONGO=mongodb://{w:10}:{b64p:64}@{w:10}.mongo.cosmos.azure.com:10255/?ssl=true&replicaSet=globaldb
id | Okta | API token | OKTA_ORG_URL=https://{word}.okta.com ;; OKTA_API_TOKEN=00{B:40}
id | Auth0 | application client secret | AUTH0_DOMAIN={word}.eu.auth0.com ;; AUTH0_CLIENT_ID={a:32} ;; AUTH0_CLIENT_SECRET={B:64}
id | Auth0 | Management API token | AUTH0_MGMT_TOKEN={jwtrs}
id | Clerk | secret key | CLERK_SECRET_KEY=sk_live_{a:50}
id | Stytch | project secret | STYTCH_PROJECT_ID=project-live-{uuid} ;; STYTCH_SECRET=secret-live-{B:36}
id | WorkOS | API key | WORKOS_API_KEY=sk_{a:70}
id | FusionAuth | API key | FUSIONAUTH_API_KEY={B:64}
id | Keycloak | confidential client secret | KEYCLOAK_CLIENT_ID={word}-backend ;; KEYCLOAK_CLIENT_SECRET={a:32}
id | Descope | management key | DESCOPE_MANAGEMENT_KEY=K{a:120}
id | Magic | secret key | MAGIC_SECRET_KEY=sk_live_{H:16}
id | Frontegg | vendor credentials | FRONTEGG_CLIENT_ID={uuid} ;; FRONTEGG_API_KEY={uuid}
id | Ping Identity | worker app secret | PINGONE_CLIENT_ID={uuid} ;; PINGONE_CLIENT_SECRET={B:64}
id | OneLogin | API credentials | ONELOGIN_CLIENT_ID={h:64} ;; ONELOGIN_CLIENT_SECRET={h:64}
id | JumpCloud | API key | JUMPCLOUD_API_KEY={h:40}
id | Duo | Admin API integration | DUO_IKEY=DI{U:18} ;; DUO_SKEY={a:40} ;; DUO_HOST=api-{h:8}.duosecurity.com
id | Kinde | M2M client secret | KINDE_CLIENT_ID={h:32} ;; KINDE_CLIENT_SECRET={a:48}
id | SuperTokens | core API key | SUPERTOKENS_API_KEY={a:30}
id | Auth.js | NEXTAUTH secret | NEXTAUTH_SECRET={b64p:32}
id | Better Auth | secret | BETTER_AUTH_SECRET={a:32}
id | Django | SECRET_KEY | DJANGO_SECRET_KEY={djsecret}
id | Ruby on Rails | master key | RAILS_MASTER_KEY={h:32}
id | Laravel | APP_KEY | APP_KEY=base64:{b64p:32}
id | Flask | SECRET_KEY | FLASK_SECRET_KEY={h:48}
id | Phoenix | SECRET_KEY_BASE | SECRET_KEY_BASE={B:64}
id | Express | session secret | SESSION_SECRET={a:32}
id | Generic JWT | HMAC signing secret | JWT_SECRET={b64p:48}
id | Symfony | APP_SECRET | APP_SECRET={h:32}
id | Ghost | Admin API key | GHOST_ADMIN_API_KEY={h:24}:{h:64}
id | Strapi | full-access API token | STRAPI_API_TOKEN={h:256}
id | WordPress | application password | WP_USER={user} ;; WP_APP_PASSWORD={a:4} {a:4} {a:4} {a:4} {a:4} {a:4}
id | WordPress | auth key and salt | AUTH_KEY={wpsalt} ;; SECURE_AUTH_KEY={wpsalt}
id | Directus | static admin token | DIRECTUS_TOKEN={B:32}
id | Sanity | API token | SANITY_API_TOKEN=sk{a:180}
id | Contentful | content management token | CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{B:43}
id | Storyblok | management token | STORYBLOK_OAUTH_TOKEN={a:22}-{d:6}-{a:20}
id | DatoCMS | full-access API token | DATOCMS_API_TOKEN={h:30}
id | Hygraph | permanent auth token | HYGRAPH_TOKEN={jwtrs}
id | Builder.io | private key | BUILDER_PRIVATE_KEY=bpk-{h:32}
id | LDAP | bind credentials | LDAP_BIND_DN=cn=svc-{word},ou=Service Accounts,dc={word},dc=com ;; LDAP_BIND_PASSWORD={dbpw}
id | Active Directory | service account password | AD_USER=CORP\svc_{word} ;; AD_PASSWORD={spw}
id | RADIUS | shared secret | RADIUS_SERVER={ip} ;; RADIUS_SECRET={spw}
id | SAML IdP | signing private key | SAML_IDP_PRIVATE_KEY={pk8}
id | Generic OIDC | confidential client secret | OIDC_CLIENT_ID={word}-portal ;; OIDC_CLIENT_SECRET={B:43}
id | Kerberos | service keytab (base64) | KRB5_KEYTAB_B64={keytab}
id | Yubico | OTP validation API key | YUBICO_CLIENT_ID={d:5} ;; YUBICO_SECRET_KEY={b64p:20}
id | Persona | API key | PERSONA_API_KEY=persona_production_{uuid}
id | Onfido | live API token | ONFIDO_API_TOKEN=api_live.{B:11}.{B:32}
id | Veriff | shared secret | VERIFF_API_KEY={uuid} ;; VERIFF_SHARED_SECRET={uuid}
id | Authentik | API token | AUTHENTIK_TOKEN={a:60}
id | Zitadel | service user key | ZITADEL_KEY_ID={d:18} ;; ZITADEL_PRIVATE_KEY={rsa}
crypto | Ethereum | account private key | ETH_PRIVATE_KEY=0x{h:64}
crypto | Hardhat | deployer private key | DEPLOYER_PRIVATE_KEY={h:64}
crypto | Bitcoin | WIF private key | BTC_WIF={wif}
crypto | Bitcoin | BIP32 extended private key | XPRV={xprv}
crypto | BIP39 wallet | 12-word mnemonic | MNEMONIC={mn12}
crypto | BIP39 wallet | 24-word mnemonic | WALLET_SEED_PHRASE={mn24}
crypto | Solana | keypair byte array | SOLANA_KEYPAIR={solarr}
crypto | Solana | base58 secret key | SOLANA_PRIVATE_KEY={s:88}
crypto | Monero | private spend key | XMR_SPEND_KEY={h:64}
crypto | Tron | private key | TRON_PRIVATE_KEY={h:64}
crypto | Nostr | nsec private key | NOSTR_NSEC=nsec1{c:58}
crypto | Lightning LND | admin macaroon (hex) | LND_MACAROON=0201036c6e6402f801030a10{h:260}
crypto | Binance | API key pair | BINANCE_API_KEY={a:64} ;; BINANCE_API_SECRET={a:64}
crypto | Kraken | API key pair | KRAKEN_API_KEY={b:56} ;; KRAKEN_PRIVATE_KEY={b:86}==
crypto | Coinbase Exchange | API key, secret and passphrase | CB_ACCESS_KEY={h:32} ;; CB_ACCESS_SECRET={b64p:64} ;; CB_ACCESS_PASSPHRASE={l:11}
crypto | Bybit | API key pair | BYBIT_API_KEY={a:18} ;; BYBIT_API_SECRET={a:36}
crypto | OKX | API key, secret and passphrase | OKX_API_KEY={uuid} ;; OKX_SECRET_KEY={H:32} ;; OKX_PASSPHRASE={spw}
crypto | KuCoin | API key, secret and passphrase | KUCOIN_API_KEY={h:24} ;; KUCOIN_API_SECRET={uuid} ;; KUCOIN_API_PASSPHRASE={spw}
crypto | Bitfinex | API key pair | BFX_API_KEY={a:43} ;; BFX_API_SECRET={a:43}
crypto | Gemini | API key and secret | GEMINI_API_KEY=account-{a:20} ;; GEMINI_API_SECRET={a:28}
crypto | Alchemy | API key | ALCHEMY_API_KEY={B:32}
crypto | Infura | project secret | INFURA_PROJECT_ID={h:32} ;; INFURA_PROJECT_SECRET={h:32}
crypto | Etherscan | API key | ETHERSCAN_API_KEY={U:34}
crypto | Moralis | API key | MORALIS_API_KEY={jwt}
crypto | QuickNode | endpoint URL with token | QUICKNODE_RPC=https://{word}-{word}-{word}.quiknode.pro/{h:40}/
crypto | Blockfrost | project ID | BLOCKFROST_PROJECT_ID=mainnet{a:32}
crypto | Helius | API key | HELIUS_API_KEY={uuid}
crypto | Fireblocks | API user and secret key | FIREBLOCKS_API_KEY={uuid} ;; FIREBLOCKS_SECRET_KEY={rsa}
crypto | Electrum | wallet seed | ELECTRUM_SEED={mn12}
crypto | age | secret key | AGE_SECRET_KEY=AGE-SECRET-KEY-1{C:58}
crypto | Cosmos | validator private key JSON | PRIV_VALIDATOR_KEY=type tendermint/PrivKeyEd25519 value {b64p:64}
crypto | Polkadot | account secret seed | SUBSTRATE_SEED=0x{h:64}
crypto | Ledger Live | ? | -
keys | RSA | PKCS#1 PEM private key | SSL_KEY={rsa}
keys | EC | SEC1 PEM private key | EC_PRIVATE_KEY={ec}
keys | PKCS#8 | PEM private key | PRIVATE_KEY={pk8}
keys | OpenSSH | ed25519 private key | SSH_PRIVATE_KEY={ossh}
keys | OpenSSH | RSA private key (new format) | DEPLOY_KEY={osshrsa}
keys | DSA | PEM private key | DSA_KEY={dsa}
keys | OpenPGP | private key block | GPG_PRIVATE_KEY={pgp}
keys | PuTTY | PPK v3 private key | PPK_KEY={putty}
keys | PuTTY | PPK v2 private key | PPK_LEGACY_KEY={putty2}
keys | TLS | certificate and key bundle | TLS_BUNDLE={certkey}
keys | WireGuard | interface private key | WG_PRIVATE_KEY={b64p:32}
keys | Apple | APNs auth key (.p8) | APNS_KEY_ID={U:10} ;; APNS_TEAM_ID={U:10} ;; APNS_AUTH_KEY={p8}
keys | JOSE | private JSON Web Key | JWT_PRIVATE_JWK={jwk}
keys | Tor | onion service private key | ONION_KEY=ED25519-V3:{b64p:64}
keys | OpenVPN | static TLS key | OPENVPN_TA_KEY={ovpn}
keys | Java | keystore and key password | JKS_STORE_PASSWORD={spw} ;; JKS_KEY_PASSWORD={spw}
keys | PKCS#12 | bundle password | P12_PASSWORD={spw}
net | Cisco IOS | plaintext enable password | CISCO_ENABLE=enable password {pw}
net | Cisco IOS | type 7 reversible password | CISCO_USER_LINE=username admin privilege 15 password 7 {cisco7}
net | MikroTik | RouterOS user password | ROUTEROS_USER=admin ;; ROUTEROS_PASSWORD={spw}
net | Ubiquiti UniFi | controller admin | UNIFI_USER=admin ;; UNIFI_PASS={spw}
net | IPsec | pre-shared key | IPSEC_PSK={spw}
net | SNMPv3 | auth and privacy passphrases | SNMP_USER=monitor ;; SNMP_AUTH_PASS={spw} ;; SNMP_PRIV_PASS={spw}
net | Dell iDRAC | root password | IDRAC_HOST={ip} ;; IDRAC_USER=root ;; IDRAC_PASSWORD={spw}
net | HPE iLO | Administrator password | ILO_USER=Administrator ;; ILO_PASSWORD={U:8}
net | VNC | server password | VNC_PASSWORD={a:8}
net | FTP | URL with password | FTP_URL=ftp://{user}:{pw}@ftp.{dom}/incoming
net | SFTP | account password | SFTP_HOST=sftp.{dom} ;; SFTP_USER={user} ;; SFTP_PASSWORD={spw}
net | SMB | share credentials | SMB_SHARE=//nas.local/{word} ;; SMB_USER={user} ;; SMB_PASS={pw}
net | HTTP proxy | URL with password | HTTPS_PROXY=http://{user}:{pw}@proxy.{dom}:3128
net | Pi-hole | API token | PIHOLE_API_TOKEN={h:64}
net | Synology DSM | admin password | SYNO_USER={user} ;; SYNO_PASS={pw}
net | VMware ESXi | root password | ESXI_ROOT_PASSWORD={spw}
net | Cisco Meraki | Dashboard API key | MERAKI_DASHBOARD_API_KEY={h:40}
net | Fortinet FortiGate | REST API token | FORTIGATE_TOKEN={a:30}
net | Palo Alto Networks | PAN-OS API key | PANOS_API_KEY=LUFRPT{b:80}==
net | Aruba Central | client secret | ARUBA_CLIENT_ID={a:32} ;; ARUBA_CLIENT_SECRET={a:32}
net | NetBird | setup key | NB_SETUP_KEY={UUID}
net | Headscale | pre-auth key | HEADSCALE_AUTHKEY={h:48}
net | OpenVPN | auth-user-pass credentials | OVPN_USER={user} ;; OVPN_PASS={pw}
net | Juniper | root authentication plain-text | JUNOS_ROOT=set system root-authentication plain-text-password-value {spw}
net | TeamViewer | unattended access password | TEAMVIEWER_ID={d:10} ;; TEAMVIEWER_PASSWORD={spw}
net | AnyDesk | unattended access password | ANYDESK_ID={d:9} ;; ANYDESK_PASSWORD={spw}
net | Cloudflare WARP | Zero Trust enrollment secret | WARP_CLIENT_SECRET={h:64}
net | Twingate | service account key | TWINGATE_SERVICE_KEY={b64p:96}
net | Home Assistant | long-lived access token | HASS_TOKEN={jwt}
hook | Zapier | catch hook URL | ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{d:7}/{l:6}/
hook | IFTTT | Maker webhook key | IFTTT_URL=https://maker.ifttt.com/trigger/{word}_{word}/with/key/{B:22}
hook | Make | scenario webhook URL | MAKE_WEBHOOK=https://hook.eu1.make.com/{l:32}
hook | n8n | production webhook URL | N8N_WEBHOOK=https://n8n.{dom}/webhook/{uuid}
hook | Pipedream | HTTP source endpoint | PIPEDREAM_URL=https://{l:15}.m.pipedream.net
hook | Home Assistant | webhook trigger URL | HA_WEBHOOK=https://{l:24}.ui.nabu.casa/api/webhook/{h:64}
hook | Jira Automation | incoming webhook URL | JIRA_AUTOMATION_HOOK=https://api-private.atlassian.com/automation/webhooks/jira/a/{uuid}/{uuid}
hook | Webex | incoming webhook URL | WEBEX_HOOK=https://webexapis.com/v1/webhooks/incoming/{B:120}
hook | Google Apps Script | web app URL | GAS_URL=https://script.google.com/macros/s/AKfycb{B:70}/exec
hook | Pabbly Connect | webhook URL | PABBLY_HOOK=https://connect.pabbly.com/workflow/sendwebhookdata/{B:60}
hook | Typeform | webhook secret | TYPEFORM_WEBHOOK_SECRET={B:43}
hook | Calendly | webhook signing key | CALENDLY_SIGNING_KEY={B:43}
hook | Svix | endpoint secret | SVIX_WEBHOOK_SECRET=whsec_{b64p:24}
hook | Shopify | webhook HMAC secret | SHOPIFY_WEBHOOK_SECRET={h:64}
hook | Zoom | webhook secret token | ZOOM_WEBHOOK_SECRET={B:22}
hook | Integromat legacy | webhook URL | INTEGROMAT_HOOK=https://hook.integromat.com/{l:32}
hook | Activepieces | webhook URL | AP_WEBHOOK=https://cloud.activepieces.com/api/v1/webhooks/{a:21}
hook | Tines | webhook secret path | TINES_WEBHOOK=https://{word}-{d:4}.tines.com/webhook/{h:32}/{h:32}
sess | Express | connect.sid cookie | COOKIE=connect.sid=s%3A{B:32}.{B:43}
sess | PHP | PHPSESSID cookie | COOKIE=PHPSESSID={l:26}
sess | Java EE | JSESSIONID cookie | COOKIE=JSESSIONID={H:32}
sess | ASP.NET Core | authentication cookie | COOKIE=.AspNetCore.Cookies=CfDJ8{B:400}
sess | Laravel | laravel_session cookie | COOKIE=laravel_session=eyJpdiI6{b:300}
sess | Django | sessionid cookie | COOKIE=sessionid={l:32}; csrftoken={a:32}
sess | Rails | signed session cookie | COOKIE=_{word}_session={b:200}--{h:40}
sess | GitHub | user_session cookie | COOKIE=user_session={B:48}; __Host-user_session_same_site={B:48}
sess | Slack | d cookie with xoxc token | SLACK_XOXC=xoxc-{d:12}-{d:12}-{d:13}-{h:64} ;; SLACK_D_COOKIE=xoxd-{pctb64:90}
sess | Google | __Secure-1PSID cookie | COOKIE=__Secure-1PSID=g.a000{B:140}
sess | Discord | user account token | DISCORD_USER_TOKEN={discordbot}
sess | Reddit | reddit_session cookie | COOKIE=reddit_session={jwtrs}
sess | Instagram | sessionid cookie | COOKIE=sessionid={d:11}%3A{a:14}%3A{d:2}%3A{B:60}
sess | Facebook | c_user and xs cookies | COOKIE=c_user={d:15}; xs={d:2}%3A{B:14}%3A2%3A{d:10}%3A-1%3A{d:4}
sess | LinkedIn | li_at cookie | COOKIE=li_at=AQEDA{B:140}
sess | X (Twitter) | auth_token cookie | COOKIE=auth_token={h:40}; ct0={h:160}
sess | TikTok | sessionid cookie | COOKIE=sessionid={h:32}
sess | Amazon | session-token cookie | COOKIE=session-token={b:300}
sess | Netflix | NetflixId cookie | COOKIE=NetflixId=v%3D3%26ct%3D{B:300}
sess | Spotify | sp_dc cookie | COOKIE=sp_dc={B:160}
sess | Roblox | .ROBLOSECURITY cookie | COOKIE=.ROBLOSECURITY=_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-steal-your-ROBUX-and-items.|_{H:600}
sess | Steam | steamLoginSecure cookie | COOKIE=steamLoginSecure={d:17}%7C%7C{jwt}
sess | Atlassian | cloud.session.token cookie | COOKIE=cloud.session.token={jwtrs}
sess | WordPress | logged-in cookie | COOKIE=wordpress_logged_in_{h:32}={user}%7C{d:10}%7C{a:43}%7C{h:64}
sess | Grafana | grafana_session cookie | COOKIE=grafana_session={h:32}
sess | Jupyter | server token URL | JUPYTER_URL=http://127.0.0.1:8888/lab?token={h:48}
sess | Firebase Auth | ID token | FIREBASE_ID_TOKEN={jwtrs}
sess | Generic API | bearer JWT | AUTH_HEADER=Authorization: Bearer {jwtrs}
sess | Keycloak | offline refresh token | KC_REFRESH_TOKEN={jwt}
sess | Canvas LMS | access token | CANVAS_API_TOKEN={d:4}~{a:64}
sess | Notion | token_v2 cookie | COOKIE=token_v2=v03%3A{B:300}
sess | ChatGPT | next-auth session cookie | COOKIE=__Secure-next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..{B:22}.{B:600}.{B:22}
sess | Claude.ai | sessionKey cookie | COOKIE=sessionKey=sk-ant-sid01-{B:93}AA
sess | Plex | X-Plex-Token | PLEX_TOKEN={B:20}
sess | Jellyfin | API key | JELLYFIN_API_KEY={h:32}
sess | Proxmox VE | PVEAuthCookie | COOKIE=PVEAuthCookie=PVE:root@pam:{H:8}::{b:340}
sess | Shopify | admin session cookie | COOKIE=_secure_admin_session_id={h:32}
sess | Salesforce | session ID | SF_SESSION_ID=00D{a:12}!{B:96}
sess | YouTube | SAPISID cookie | COOKIE=SAPISID={B:34}; __Secure-3PAPISID={B:34}
saas | Notion | internal integration secret | NOTION_TOKEN=ntn_{d:11}{a:35}
saas | Notion | legacy integration token | NOTION_API_KEY=secret_{a:43}
saas | Linear | API key | LINEAR_API_KEY=lin_api_{a:40}
saas | Linear | OAuth access token | LINEAR_OAUTH_TOKEN=lin_oauth_{h:64}
saas | Asana | personal access token | ASANA_PAT=2/{d:16}/{d:16}:{h:32}
saas | Trello | API key and token | TRELLO_API_KEY={h:32} ;; TRELLO_TOKEN=ATTA{h:64}{H:8}
saas | monday.com | API token | MONDAY_API_TOKEN={jwt}
saas | ClickUp | personal API token | CLICKUP_API_TOKEN=pk_{d:8}_{U:32}
saas | Todoist | API token | TODOIST_API_TOKEN={h:40}
saas | Smartsheet | access token | SMARTSHEET_ACCESS_TOKEN={a:37}
saas | Coda | API token | CODA_API_TOKEN={uuid}
saas | Figma | personal access token | FIGMA_TOKEN=figd_{B:40}
saas | Miro | access token | MIRO_ACCESS_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{B:27}
saas | Dropbox | short-lived access token | DROPBOX_ACCESS_TOKEN=sl.{B:135}
saas | Dropbox | long-lived access token | DROPBOX_TOKEN={a:11}AAAAAAAAAA{B:43}
saas | Box | developer token | BOX_DEVELOPER_TOKEN={a:32}
saas | Evernote | developer token | EVERNOTE_TOKEN=S=s1:U={h:5}:E={h:11}:C={h:11}:P=1cd:A=en-devtoken:V=2:H={h:32}
saas | Zendesk | API token | ZENDESK_EMAIL={email}/token ;; ZENDESK_API_TOKEN={a:40}
saas | Freshdesk | API key | FRESHDESK_API_KEY={a:20}
saas | Help Scout | app secret | HELPSCOUT_APP_ID={a:32} ;; HELPSCOUT_APP_SECRET={a:32}
saas | Front | API token | FRONT_API_TOKEN={jwtrs}
saas | HubSpot | private app token | HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}
saas | Salesforce | connected app consumer secret | SF_CONSUMER_KEY=3MVG9{B:80} ;; SF_CONSUMER_SECRET={H:64}
saas | Pipedrive | API token | PIPEDRIVE_API_TOKEN={h:40}
saas | Close | API key | CLOSE_API_KEY=api_{a:22}.{a:22}
saas | Copper | API key | COPPER_API_KEY={h:32} ;; COPPER_USER_EMAIL={email}
saas | Zoho CRM | refresh token | ZOHO_REFRESH_TOKEN=1000.{h:32}.{h:32}
saas | Calendly | personal access token | CALENDLY_TOKEN={jwt}
saas | Typeform | personal access token | TYPEFORM_TOKEN=tfp_{B:44}_{B:14}
saas | SurveyMonkey | access token | SURVEYMONKEY_TOKEN={B:100}
saas | Jotform | API key | JOTFORM_API_KEY={h:32}
saas | DocuSign | JWT grant app | DOCUSIGN_INTEGRATION_KEY={uuid} ;; DOCUSIGN_USER_ID={uuid} ;; DOCUSIGN_PRIVATE_KEY={rsa}
saas | Dropbox Sign | API key | HELLOSIGN_API_KEY={h:64}
saas | PandaDoc | API key | PANDADOC_API_KEY={h:40}
saas | Xero | OAuth client secret | XERO_CLIENT_ID={H:32} ;; XERO_CLIENT_SECRET={B:48}
saas | QuickBooks Online | OAuth client secret | QBO_CLIENT_ID=AB{a:48} ;; QBO_CLIENT_SECRET={a:40}
saas | Harvest | personal access token | HARVEST_ACCOUNT_ID={d:7} ;; HARVEST_TOKEN={d:7}.pt.{B:86}
saas | Toggl Track | API token | TOGGL_API_TOKEN={h:32}
saas | Clockify | API key | CLOCKIFY_API_KEY={B:48}
saas | BambooHR | API key | BAMBOOHR_API_KEY={h:40}
saas | Greenhouse | Harvest API key | GREENHOUSE_API_KEY={h:32}-{d:1}
saas | Personio | API credentials | PERSONIO_CLIENT_ID=papi-{uuid} ;; PERSONIO_CLIENT_SECRET=papi-{B:43}
saas | Vimeo | access token | VIMEO_ACCESS_TOKEN={h:32}
saas | Mux | access token pair | MUX_TOKEN_ID={uuid} ;; MUX_TOKEN_SECRET={b:75}
saas | Wistia | API token | WISTIA_API_TOKEN={h:64}
saas | Frame.io | developer token | FRAMEIO_TOKEN=fio-u-{B:64}
saas | Adobe Developer | OAuth client secret | ADOBE_CLIENT_ID={h:32} ;; ADOBE_CLIENT_SECRET=p8e-{B:32}
saas | Unsplash | secret key | UNSPLASH_ACCESS_KEY={B:43} ;; UNSPLASH_SECRET_KEY={B:43}
saas | Pexels | API key | PEXELS_API_KEY={a:56}
saas | Giphy | API key | GIPHY_API_KEY={a:32}
saas | Spotify | client credentials | SPOTIFY_CLIENT_ID={h:32} ;; SPOTIFY_CLIENT_SECRET={h:32}
saas | Last.fm | shared secret | LASTFM_API_KEY={h:32} ;; LASTFM_SHARED_SECRET={h:32}
saas | Discogs | personal token | DISCOGS_TOKEN={a:40}
saas | TMDB | API read access token | TMDB_READ_TOKEN={jwt}
saas | OpenWeatherMap | API key | OWM_API_KEY={h:32}
saas | WeatherAPI.com | API key | WEATHERAPI_KEY={h:31}
saas | Tomorrow.io | API key | TOMORROW_API_KEY={a:32}
saas | NewsAPI | API key | NEWSAPI_KEY={h:32}
saas | Alpha Vantage | API key | ALPHAVANTAGE_API_KEY={U:16}
saas | Polygon.io | API key | POLYGON_API_KEY={a:32}
saas | Finnhub | API token | FINNHUB_TOKEN={l:20}
saas | IEX Cloud | secret token | IEX_SECRET_TOKEN=sk_{h:32}
saas | Twelve Data | API key | TWELVEDATA_API_KEY={h:32}
saas | Tiingo | API token | TIINGO_API_TOKEN={h:40}
saas | Nasdaq Data Link | API key | NASDAQ_DATA_LINK_API_KEY={B:20}
saas | FRED | API key | FRED_API_KEY={h:32}
saas | Mapbox | secret access token | MAPBOX_SECRET_TOKEN={mapbox}
saas | HERE | API key | HERE_API_KEY={B:43}
saas | TomTom | API key | TOMTOM_API_KEY={a:32}
saas | Geoapify | API key | GEOAPIFY_KEY={h:32}
saas | OpenCage | API key | OPENCAGE_API_KEY={h:32}
saas | IPinfo | access token | IPINFO_TOKEN={h:14}
saas | ipstack | access key | IPSTACK_ACCESS_KEY={h:32}
saas | Hunter | API key | HUNTER_API_KEY={h:40}
saas | Clearbit | secret API key | CLEARBIT_KEY=sk_{h:32}
saas | Apollo.io | API key | APOLLO_API_KEY={B:22}
saas | X (Twitter) | consumer key and secret | TWITTER_API_KEY={a:25} ;; TWITTER_API_SECRET={a:50}
saas | X (Twitter) | app bearer token | TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{a:30}%3D{a:50}
saas | X (Twitter) | user access token pair | TWITTER_ACCESS_TOKEN={d:19}-{a:31} ;; TWITTER_ACCESS_SECRET={a:45}
saas | Meta | app secret | FB_APP_ID={d:16} ;; FB_APP_SECRET={h:32}
saas | Meta | page access token | FB_PAGE_TOKEN=EAA{a:180}
saas | Instagram | Basic Display token | IG_ACCESS_TOKEN=IGQVJ{B:180}
saas | LinkedIn | client secret | LINKEDIN_CLIENT_ID={l:14} ;; LINKEDIN_CLIENT_SECRET=WPL_AP1.{a:16}.{B:8}==
saas | Pinterest | access token | PINTEREST_TOKEN=pina_{U:96}
saas | Reddit | script app credentials | REDDIT_CLIENT_ID={B:22} ;; REDDIT_CLIENT_SECRET={B:30} ;; REDDIT_PASSWORD={pw}
saas | TikTok | client secret | TIKTOK_CLIENT_KEY={l:18} ;; TIKTOK_CLIENT_SECRET={a:32}
saas | Mastodon | access token | MASTODON_ACCESS_TOKEN={B:43}
saas | Bluesky | app password | BSKY_HANDLE={word}.bsky.social ;; BSKY_APP_PASSWORD={l:4}-{l:4}-{l:4}-{l:4}
saas | Medium | integration token | MEDIUM_TOKEN=2{h:64}
saas | DEV Community | API key | DEVTO_API_KEY={a:24}
saas | Discourse | API key | DISCOURSE_API_KEY={h:64} ;; DISCOURSE_API_USERNAME=system
saas | Disqus | secret key | DISQUS_SECRET_KEY={a:64}
saas | Patreon | creator access token | PATREON_CREATOR_TOKEN={B:43}
saas | Steam | Web API key | STEAM_API_KEY={H:32}
saas | Riot Games | API key | RIOT_API_KEY=RGAPI-{uuid}
saas | Bungie | API key | BUNGIE_API_KEY={h:32}
saas | itch.io | API key | ITCHIO_API_KEY={a:40}
saas | Etsy | API keystring and secret | ETSY_KEYSTRING={l:24} ;; ETSY_SHARED_SECRET={l:10}
saas | eBay | production keyset | EBAY_APP_ID={first}-{word}-PRD-{h:9}-{h:8} ;; EBAY_CERT_ID=PRD-{h:12}-{h:4}-{h:4}-{h:4}-{h:4}
saas | Amazon Selling Partner API | LWA client secret | SPAPI_CLIENT_ID=amzn1.application-oa2-client.{h:32} ;; SPAPI_CLIENT_SECRET=amzn1.oa2-cs.v1.{h:64}
saas | Amazon Selling Partner API | LWA refresh token | SPAPI_REFRESH_TOKEN=Atzr|{B:300}
saas | Walmart Marketplace | client secret | WALMART_CLIENT_ID={uuid} ;; WALMART_CLIENT_SECRET={B:86}
saas | Printful | private token | PRINTFUL_TOKEN={a:40}
saas | Duffel | live access token | DUFFEL_TOKEN=duffel_live_{B:43}
saas | Amadeus | API secret | AMADEUS_CLIENT_ID={a:32} ;; AMADEUS_CLIENT_SECRET={a:16}
saas | AviationStack | access key | AVIATIONSTACK_KEY={h:32}
saas | Particle | access token | PARTICLE_ACCESS_TOKEN={h:40}
saas | Blynk | device auth token | BLYNK_AUTH_TOKEN={B:32}
saas | ThingSpeak | write API key | THINGSPEAK_WRITE_KEY={U:16}
saas | The Things Network | API key | TTN_API_KEY=NNSXS.{U:39}.{U:52}
saas | Tuya | cloud access secret | TUYA_ACCESS_ID={l:20} ;; TUYA_ACCESS_SECRET={h:32}
saas | SmartThings | personal access token | SMARTTHINGS_TOKEN={uuid}
saas | Philips Hue | bridge application key | HUE_BRIDGE_IP=192.168.{d:1}.{d:2} ;; HUE_USERNAME={B:40}
saas | Adafruit IO | key | ADAFRUIT_IO_USERNAME={user} ;; ADAFRUIT_IO_KEY=aio_{a:28}
saas | Arduino Cloud | API client secret | ARDUINO_CLIENT_ID={a:32} ;; ARDUINO_CLIENT_SECRET={a:64}
saas | balena | API key | BALENA_API_KEY={a:32}
saas | Ubidots | token | UBIDOTS_TOKEN=BBFF-{a:30}
saas | Tesla | Fleet API refresh token | TESLA_REFRESH_TOKEN=EU_{h:64}
saas | Smartcar | client secret | SMARTCAR_CLIENT_ID={uuid} ;; SMARTCAR_CLIENT_SECRET={uuid}
saas | Octopus Energy | API key | OCTOPUS_API_KEY=sk_live_{a:24}
saas | Strava | client secret | STRAVA_CLIENT_ID={d:6} ;; STRAVA_CLIENT_SECRET={h:40}
saas | Fitbit | client secret | FITBIT_CLIENT_ID={U:6} ;; FITBIT_CLIENT_SECRET={h:32}
saas | Oura | personal access token | OURA_PAT={U:32}
saas | Withings | client secret | WITHINGS_CLIENT_ID={h:64} ;; WITHINGS_CLIENT_SECRET={h:64}
saas | Postman | API key | POSTMAN_API_KEY=PMAK-{h:24}-{h:34}
saas | ReadMe | API key | README_API_KEY=rdme_{h:64}
saas | Apify | API token | APIFY_TOKEN=apify_api_{a:36}
saas | ScrapingBee | API key | SCRAPINGBEE_API_KEY={U:80}
saas | ScraperAPI | API key | SCRAPERAPI_KEY={h:32}
saas | Bright Data | proxy zone credentials | BRD_PROXY=http://brd-customer-hl_{h:8}-zone-{word}:{l:12}@brd.superproxy.io:22225
saas | 2Captcha | API key | TWOCAPTCHA_KEY={h:32}
saas | Browserless | API token | BROWSERLESS_TOKEN={a:48}
saas | CodeSandbox | API token | CSB_API_KEY=csb_v1_{B:43}
saas | Imgur | client secret | IMGUR_CLIENT_ID={h:15} ;; IMGUR_CLIENT_SECRET={h:40}
saas | ImageKit | private key | IMAGEKIT_PRIVATE_KEY=private_{B:28}=
saas | Uploadcare | secret key | UPLOADCARE_PUBLIC_KEY={h:20} ;; UPLOADCARE_SECRET_KEY={h:20}
saas | Transloadit | auth secret | TRANSLOADIT_KEY={h:32} ;; TRANSLOADIT_SECRET={h:40}
saas | Lob | live API key | LOB_API_KEY=live_{h:35}
saas | Nylas | API key | NYLAS_API_KEY=nyk_v0_{a:60}
saas | Smarty | auth ID and token | SMARTY_AUTH_ID={uuid} ;; SMARTY_AUTH_TOKEN={a:20}
saas | VirusTotal | API key | VT_API_KEY={h:64}
saas | Shodan | API key | SHODAN_API_KEY={a:32}
saas | Censys | API secret | CENSYS_API_ID={uuid} ;; CENSYS_API_SECRET={a:32}
saas | GreyNoise | API key | GREYNOISE_API_KEY={a:64}
saas | AbuseIPDB | API key | ABUSEIPDB_KEY={h:80}
saas | Have I Been Pwned | API key | HIBP_API_KEY={h:32}
saas | urlscan.io | API key | URLSCAN_API_KEY={uuid}
saas | SecurityTrails | API key | SECURITYTRAILS_KEY={a:32}
saas | Cloudflare Turnstile | secret key | TURNSTILE_SECRET_KEY=0x4AAAAAAA{B:30}
saas | Google reCAPTCHA | secret key | RECAPTCHA_SECRET_KEY=6L{B:38}
saas | hCaptcha | account secret | HCAPTCHA_SECRET=0x{h:40}
saas | CrowdStrike Falcon | API client secret | FALCON_CLIENT_ID={h:32} ;; FALCON_CLIENT_SECRET={a:40}
saas | SentinelOne | API token | S1_API_TOKEN={a:80}
saas | Tenable.io | access and secret keys | TENABLE_ACCESS_KEY={h:64} ;; TENABLE_SECRET_KEY={h:64}
saas | Rapid7 InsightVM | API key | RAPID7_API_KEY={uuid}
saas | Wiz | service account secret | WIZ_CLIENT_ID={l:53} ;; WIZ_CLIENT_SECRET={a:64}
saas | Lacework | API secret | LW_ACCOUNT={word} ;; LW_API_KEY={U:4}_{h:48} ;; LW_API_SECRET=_{h:32}
saas | GitGuardian | API key | GITGUARDIAN_API_KEY={h:68}
saas | Socket | API key | SOCKET_SECURITY_API_KEY=sktsec_{a:64}
saas | Mend | user key | WS_USERKEY={h:64}
saas | Kakao Pay | secret key | KAKAOPAY_SECRET_KEY=DEV{h:34}
saas | Rakuten | application secret | RAKUTEN_APP_ID={d:19} ;; RAKUTEN_APP_SECRET={h:40}
saas | Box Sign | JWT app config private key | BOX_PRIVATE_KEY={pk8} ;; BOX_PASSPHRASE={h:32}
saas | Intuit Mailchimp Connect | ? | -
saas | Sendle | API key | SENDLE_ID={word} ;; SENDLE_API_KEY={a:24}
saas | Canva | Connect client secret | CANVA_CLIENT_ID=OC-{a:12} ;; CANVA_CLIENT_SECRET=cnvca{a:48}
saas | Zapier | NLA API key | ZAPIER_NLA_API_KEY=sk-ak-{a:32}
saas | Retool | access token | RETOOL_TOKEN=retool_{a:32}
saas | Gitpod | personal access token | GITPOD_TOKEN=gitpod_pat_{B:43}.{B:43}
saas | Replit | identity token | REPL_IDENTITY_KEY=k2.secret.{B:86}
"""


def load_catalogue():
    fmts = []
    for line in CATALOGUE.strip().split("\n"):
        line = line.strip()
        if not line:
            continue
        parts = [p.strip() for p in line.split(" | ", 3)]
        if len(parts) != 4 or parts[3] == "-":
            continue
        cat, vendor, fname, body = parts
        pairs = []
        for chunk in body.split(" ;; "):
            k, v = chunk.split("=", 1)
            pairs.append((k.strip(), v.strip()))
        fmts.append({"cat": cat, "vendor": vendor, "fmt": fname, "tmpl": pairs})
    return fmts


FORMATS = load_catalogue()


def instantiate(f):
    return [(k, expand(t)) for k, t in f["tmpl"]]


# --------------------------------------------------------------------------
# containers: the same renderers are used for secret and benign records
# --------------------------------------------------------------------------
ENVS = ["staging", "prod", "dev", "the demo box", "CI", "the new cluster", "local", "preprod", "eu", "qa"]
PEOPLE = ["Sam", "Priya", "Jonas", "Aiko", "Marta", "Dev", "Chidi", "Lena", "Tomás", "Wen", "Olu", "Greta"]


def slug(vendor):
    s = "".join(c.lower() if c.isalnum() else "_" for c in vendor)
    while "__" in s:
        s = s.replace("__", "_")
    return s.strip("_") or "svc"


def camel(k):
    parts = [p for p in k.lower().split("_") if p]
    return parts[0] + "".join(p.capitalize() for p in parts[1:]) if parts else k


def lit(v):
    return json.dumps(v, ensure_ascii=False)


def sq(v):
    return "'" + v.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


def esc_nl(v):
    return v.replace("\n", "\\n")


def yaml_scalar(v, indent):
    if "\n" in v:
        pad = " " * (indent + 2)
        return "|\n" + "\n".join(pad + ln for ln in v.split("\n"))
    if any(c in v for c in ":#{}[],&*?|<>=!%@`'\"") or v.strip() != v or v in ("true", "false", "yes", "no") or v[:1] in "-0123456789":
        return lit(v)
    return v


def toml_str(v):
    if "\n" in v:
        return '"""\n' + v + '"""'
    return lit(v)


def benign_pair(sl=None):
    up = (sl or "app").upper()
    t = R.randrange(34)
    if t == 0:
        return "LOG_LEVEL", pick(["info", "debug", "warn", "error", "INFO"])
    if t == 1:
        return "PORT", str(pick([3000, 8000, 8080, 8443, 5000, 9000, 4000, 8081]))
    if t == 2:
        return "NODE_ENV", pick(["production", "development", "staging"])
    if t == 3:
        return "TZ", pick(["Europe/Berlin", "UTC", "America/New_York", "Asia/Tokyo", "Europe/Lisbon", "Australia/Sydney"])
    if t == 4:
        return "AWS_REGION", SPECIAL["region"]()
    if t == 5:
        return "FEATURE_%s_ENABLED" % pick(["NEW_CHECKOUT", "DARK_MODE", "BETA_SEARCH", "SSO", "EXPORTS"]), pick(["true", "false", "1", "0"])
    if t == 6:
        return "MAX_RETRIES", str(R.randint(1, 8))
    if t == 7:
        return "CACHE_TTL_SECONDS", str(pick([60, 120, 300, 600, 3600, 86400]))
    if t == 8:
        return "APP_NAME", "%s-%s" % (pick(WORDS), pick(["api", "worker", "web", "svc", "gateway", "cron"]))
    if t == 9:
        return "DB_HOST", host()
    if t == 10:
        return "DB_PORT", pick(["5432", "3306", "27017", "6379", "1433"])
    if t == 11:
        return "DB_NAME", dbname()
    if t == 12:
        return "S3_BUCKET", "%s-%s-%s" % (pick(WORDS), pick(["uploads", "backups", "assets", "logs", "exports"]), pick(["prod", "dev", "eu", "2024"]))
    if t == 13:
        return "API_BASE_URL", "https://api.%s/v%d" % (domain(), R.randint(1, 3))
    if t == 14:
        return "SENTRY_ENVIRONMENT", pick(["production", "staging", "dev"])
    if t == 15:
        return "WEB_CONCURRENCY", str(R.randint(1, 16))
    if t == 16:
        return "REQUEST_TIMEOUT_MS", str(pick([5000, 10000, 15000, 30000, 2500]))
    if t == 17:
        return "DEFAULT_LOCALE", pick(["en_GB", "de_DE", "fr_FR", "pt_BR", "ja_JP", "es_MX"])
    if t == 18:
        return "CORS_ORIGINS", "https://%s,https://admin.%s" % (domain(), domain())
    if t == 19:
        return "REDIS_HOST", pick(["redis", "cache.internal", "127.0.0.1", "redis-master.default.svc"])
    if t == 20:
        return "SMTP_HOST", "smtp.%s" % domain()
    if t == 21:
        return "SMTP_PORT", pick(["587", "465", "25", "2525"])
    if t == 22:
        return "OTEL_EXPORTER_OTLP_ENDPOINT", "http://otel-collector:%d" % pick([4317, 4318])
    if t == 23:
        return "IMAGE_TAG", "v%d.%d.%d" % (R.randint(0, 4), R.randint(0, 20), R.randint(0, 30))
    if t == 24:
        return "BUILD_NUMBER", str(R.randint(100, 9999))
    if t == 25:
        return "%s_BASE_URL" % up, "https://api.%s" % domain()
    if t == 26:
        return "%s_TIMEOUT" % up, str(pick([10, 20, 30, 60]))
    if t == 27:
        return "%s_ENABLED" % up, pick(["true", "false"])
    if t == 28:
        return "%s_REGION" % up, pick(["eu", "us", "us-east-1", "eu-central", "ap-south-1"])
    if t == 29:
        return "%s_PROJECT" % up, "%s-%s" % (pick(WORDS), pick(["prod", "web", "mobile", "internal"]))
    if t == 30:
        return "%s_RETRY_LIMIT" % up, str(R.randint(2, 10))
    if t == 31:
        return "PAGE_SIZE", str(pick([20, 25, 50, 100]))
    if t == 32:
        return "HEALTHCHECK_PATH", pick(["/healthz", "/health", "/status", "/ping", "/ready"])
    return "%s_ACCOUNT_NAME" % up, pick(WORDS) + pick(["-team", "-prod", "", "hq"])


def is_url(v):
    return v.startswith("http://") or v.startswith("https://")


def r_env(P, m):
    out = []
    if chance(0.4):
        out.append("# %s" % pick(["%s" % m["vendor"], "%s (%s)" % (m["vendor"], pick(ENVS)), ".env." + pick(["local", "production", "staging"]), "added %s" % date_prefix().strip(" :—")]))
    for k, v in P:
        if "\n" in v:
            out.append('%s="%s"' % (k, esc_nl(v)))
        elif " " in v or chance(0.3):
            out.append('%s="%s"' % (k, v))
        else:
            out.append("%s=%s" % (k, v))
    return "\n".join(out)


def r_export(P, m):
    return "\n".join("export %s=%s" % (k, sq(v) if ("$" in v or "\n" in v or '"' in v) else '"%s"' % v) for k, v in P)


def r_yaml(P, m):
    s = m["slug"]
    lines = ["%s:" % s]
    for k, v in P:
        key = k.lower()
        pre = s + "_"
        if key.startswith(pre):
            key = key[len(pre):]
        lines.append("  %s: %s" % (key, yaml_scalar(v, 2)))
    return "\n".join(lines)


def r_json(P, m):
    d = {}
    for k, v in P:
        d[camel(k)] = v
    if chance(0.5):
        d = {m["slug"]: d}
    return json.dumps(d, indent=pick([2, 4]), ensure_ascii=False)


def r_toml(P, m):
    lines = ["[%s]" % m["slug"]]
    for k, v in P:
        lines.append("%s = %s" % (k.lower(), toml_str(v)))
    return "\n".join(lines)


def r_ini(P, m):
    lines = ["[%s]" % pick([m["slug"], m["vendor"], "default", "credentials", "settings"])]
    for k, v in P:
        lines.append("%s = %s" % (k.lower(), esc_nl(v)))
    return "\n".join(lines)


def r_properties(P, m):
    s = m["slug"].replace("_", "-")
    return "\n".join("%s.%s=%s" % (s, k.lower().replace("_", "."), esc_nl(v).replace(":", "\\:")) for k, v in P)


def r_dockerfile(P, m):
    base = pick(["python:3.12-slim", "node:20-alpine", "golang:1.22", "eclipse-temurin:21-jre", "ruby:3.3", "debian:bookworm-slim"])
    lines = ["FROM %s" % base, "WORKDIR /app"]
    for k, v in P:
        lines.append('ENV %s="%s"' % (k, esc_nl(v).replace('"', '\\"')))
    lines.append(pick(["COPY . .", "COPY requirements.txt .", "COPY package*.json ./"]))
    lines.append(pick(['CMD ["python", "main.py"]', 'CMD ["node", "server.js"]', 'ENTRYPOINT ["/app/run"]', 'CMD ["bundle", "exec", "puma"]']))
    return "\n".join(lines)


def r_compose(P, m):
    svc = pick(["app", "api", "worker", "web", m["slug"].replace("_", "-")])
    lines = ["services:", "  %s:" % svc, "    image: %s:%s" % (pick(["ghcr.io/acme/app", "myorg/api", "registry.local/worker"]), pick(["latest", "1.4", "main"])), "    environment:"]
    as_list = chance(0.5)
    for k, v in P:
        if as_list:
            lines.append("      - %s=%s" % (k, esc_nl(v)))
        else:
            lines.append("      %s: %s" % (k, lit(v)))
    return "\n".join(lines)


def r_k8s_secret(P, m):
    lines = ["apiVersion: v1", "kind: Secret", "metadata:", "  name: %s-%s" % (m["slug"].replace("_", "-"), pick(["creds", "config", "env", "settings"])),
             "  namespace: %s" % pick(["default", "prod", "apps", "payments"]), "type: Opaque", "stringData:"]
    for k, v in P:
        lines.append("  %s: %s" % (k, yaml_scalar(v, 2)))
    return "\n".join(lines)


def r_k8s_deploy(P, m):
    lines = ["      containers:", "        - name: %s" % m["slug"].replace("_", "-"), "          image: %s:%s" % (pick(["acme/api", "ghcr.io/team/worker"]), pick(["v2", "stable", "2024.5"])), "          env:"]
    for k, v in P:
        lines.append("            - name: %s" % k)
        lines.append("              value: %s" % lit(v))
    return "\n".join(lines)


def r_helm(P, m):
    lines = ["# values-%s.yaml" % pick(["prod", "staging", "dev"]), "replicaCount: %d" % R.randint(1, 4), "%s:" % camel(m["slug"])]
    for k, v in P:
        lines.append("  %s: %s" % (camel(k), yaml_scalar(v, 2)))
    return "\n".join(lines)


def r_terraform(P, m):
    lines = ['locals {']
    for k, v in P:
        lines.append('  %s = %s' % (k.lower(), lit(v) if "\n" not in v else "<<EOT\n%s\nEOT" % v))
    lines.append("}")
    if chance(0.5):
        lines.append("")
        lines.append('provider "%s" {' % m["slug"])
        lines.append("  # configured from locals")
        lines.append("}")
    return "\n".join(lines)


def r_tfvars(P, m):
    return "\n".join("%s = %s" % (k.lower(), lit(v)) for k, v in P)


def r_gha(P, m):
    lines = ["name: %s" % pick(["deploy", "ci", "release", "nightly"]), "on: [push]", "jobs:", "  build:", "    runs-on: ubuntu-latest", "    env:"]
    for k, v in P:
        lines.append("      %s: %s" % (k, lit(v)))
    lines += ["    steps:", "      - uses: actions/checkout@v4", "      - run: %s" % pick(["make deploy", "npm ci && npm test", "./scripts/release.sh", "pytest -q"])]
    return "\n".join(lines)


def r_gitlab(P, m):
    lines = ["variables:"]
    for k, v in P:
        lines.append("  %s: %s" % (k, lit(v)))
    lines += ["", "%s:" % pick(["deploy", "test", "build"]), "  stage: %s" % pick(["deploy", "test", "build"]), "  script:", "    - %s" % pick(["./deploy.sh", "make test", "docker build -t app ."])]
    return "\n".join(lines)


def r_circleci(P, m):
    lines = ["version: 2.1", "jobs:", "  build:", "    docker:", "      - image: cimg/%s" % pick(["node:20.11", "python:3.12", "go:1.22"]), "    environment:"]
    for k, v in P:
        lines.append("      %s: %s" % (k, lit(v)))
    lines += ["    steps:", "      - checkout"]
    return "\n".join(lines)


def r_history(P, m):
    n = R.randint(100, 1900)
    lines = []
    cmds = ["cd ~/src/%s" % pick(WORDS), "git pull", "ls -la", "vim .env", "docker ps", "kubectl get pods"]
    for i in range(R.randint(1, 2)):
        lines.append("%5d  %s" % (n, pick(cmds)))
        n += 1
    for k, v in P:
        lines.append("%5d  export %s=%s" % (n, k, sq(v) if chance(0.5) else v))
        n += 1
    lines.append("%5d  %s" % (n, pick(["./run.sh", "python manage.py runserver", "npm run dev", "terraform plan", "history | tail"])))
    return "\n".join(lines)


def _auth_header(k, v):
    kl = k.lower()
    if v.lower().startswith("authorization:"):
        return v
    if "cookie" in kl:
        return "Cookie: " + v
    if "user" in kl or kl.endswith("_id") or "email" in kl or "url" in kl or "host" in kl or "region" in kl:
        return "X-%s: %s" % ("-".join(p.capitalize() for p in kl.split("_")), v)
    return pick(["Authorization: Bearer %s", "Authorization: Token %s", "X-Api-Key: %s", "Authorization: Bearer %s"]) % v


def r_curl(P, m):
    urlpair = [v for k, v in P if is_url(v)]
    url = urlpair[0] if urlpair else "https://api.%s.com/v%d/%s" % (m["slug"].replace("_", ""), R.randint(1, 3), pick(["me", "items", "messages", "charges", "projects", "status", "search"]))
    parts = ["curl -s%s" % pick(["", "S", "X POST"]) if not urlpair else "curl -X POST"]
    for k, v in P:
        if v == url:
            continue
        if "://" in v and not is_url(v):
            continue
        if m.get("secret") and k in m.get("credkeys", ()):
            parts.append("-H %s" % sq(_auth_header(k, v)))
        else:
            parts.append("-H %s" % sq("X-%s: %s" % ("-".join(p.capitalize() for p in k.lower().split("_")), v)))
    if not m.get("secret") and chance(0.4):
        parts.append("-H %s" % sq("Authorization: Bearer ${%s_TOKEN}" % m["slug"].upper()))
    if urlpair:
        parts.append("-H 'Content-Type: application/json' -d '{\"text\":\"%s\"}'" % pick(["deploy done", "hello", "backup finished", "test"]))
    parts.append(lit(url) if chance(0.5) else url)
    dburls = [v for k, v in P if "://" in v and not is_url(v)]
    s = " \\\n  ".join(parts)
    if dburls:
        tool = {"postgres": "psql", "postgresql": "psql", "mysql": "mysql --uri", "mongodb+srv": "mongosh", "mongodb": "mongosh", "redis": "redis-cli -u", "rediss": "redis-cli --tls -u"}
        sch = dburls[0].split("://")[0]
        s = "%s %s" % (tool.get(sch, "curl"), lit(dburls[0]))
    return s


def r_http(P, m):
    urlpair = [v for k, v in P if is_url(v)]
    if urlpair:
        u = urllib.parse.urlsplit(urlpair[0])
        path = u.path + ("?" + u.query if u.query else "")
        hostn = u.netloc
    else:
        path = "/v%d/%s" % (R.randint(1, 3), pick(["users/me", "orders", "events", "files", "reports", "jobs"]))
        hostn = "api.%s.com" % m["slug"].replace("_", "")
    lines = ["%s %s HTTP/1.1" % (pick(["GET", "POST", "PUT"]), path), "Host: %s" % hostn]
    for k, v in P:
        if is_url(v) or "://" in v:
            continue
        if m.get("secret") and k in m.get("credkeys", ()):
            lines.append(_auth_header(k, v))
        else:
            lines.append("X-%s: %s" % ("-".join(p.capitalize() for p in k.lower().split("_")), v))
    if not m.get("secret") and chance(0.4):
        lines.append("Authorization: Bearer {{%s_token}}" % m["slug"])
    lines.append("Accept: application/json")
    lines.append("User-Agent: %s" % pick(["curl/8.5.0", "python-requests/2.31.0", "PostmanRuntime/7.36.0", "okhttp/4.12.0"]))
    return "\n".join(lines)


def r_python(P, m):
    s = R.randrange(3)
    if s == 0:
        return "import os\n\n" + "\n".join("os.environ.setdefault(%s, %s)" % (lit(k), lit(v)) for k, v in P)
    if s == 1:
        return "SETTINGS = {\n" + "\n".join("    %s: %s," % (lit(k.lower()), lit(v)) for k, v in P) + "\n}"
    args = ", ".join("%s=%s" % (k.lower().split("_", 1)[-1] if "_" in k else k.lower(), lit(v)) for k, v in P)
    return "from %s import Client\n\nclient = Client(%s)" % (m["slug"], args)


def r_js(P, m):
    if chance(0.5):
        body = ",\n".join("  %s: %s" % (camel(k), lit(v)) for k, v in P)
        return "const config = {\n%s\n};\n\nmodule.exports = config;" % body
    return "\n".join("process.env.%s ??= %s;" % (k, lit(v)) for k, v in P)


def r_ts(P, m):
    body = "\n".join("  %s: %s," % (camel(k), lit(v)) for k, v in P)
    return "export const %sConfig = {\n%s\n} as const;" % (camel(m["slug"]), body)


def r_go(P, m):
    if chance(0.5):
        return "const (\n" + "\n".join("\t%s = %s" % (camel(k)[0].upper() + camel(k)[1:], lit(v)) for k, v in P) + "\n)"
    return "func init() {\n" + "\n".join("\tos.Setenv(%s, %s)" % (lit(k), lit(v)) for k, v in P) + "\n}"


def r_java(P, m):
    cls = "".join(p.capitalize() for p in m["slug"].split("_")) + pick(["Config", "Settings", "Constants"])
    return "public final class %s {\n%s\n}" % (cls, "\n".join("    public static final String %s = %s;" % (k, lit(v)) for k, v in P))


def r_kotlin(P, m):
    return "object %sConfig {\n%s\n}" % ("".join(p.capitalize() for p in m["slug"].split("_")), "\n".join("    const val %s = %s" % (k, lit(v)) for k, v in P))


def r_rust(P, m):
    return "\n".join("pub const %s: &str = %s;" % (k, lit(v)) for k, v in P)


def r_ruby(P, m):
    if chance(0.5):
        return "%s.configure do |config|\n%s\nend" % ("".join(p.capitalize() for p in m["slug"].split("_")), "\n".join("  config.%s = %s" % (k.lower(), lit(v)) for k, v in P))
    return "\n".join('ENV[%s] ||= %s' % (lit(k), lit(v)) for k, v in P)


def r_php(P, m):
    if chance(0.5):
        return "<?php\n" + "\n".join("define(%s, %s);" % (sq(k), sq(v)) for k, v in P)
    return "<?php\nreturn [\n" + "\n".join("    %s => %s," % (sq(k.lower()), sq(v)) for k, v in P) + "\n];"


def r_csharp(P, m):
    return "internal static class %sSettings\n{\n%s\n}" % ("".join(p.capitalize() for p in m["slug"].split("_")), "\n".join("    public const string %s = %s;" % ("".join(p.capitalize() for p in k.lower().split("_")), lit(v)) for k, v in P))


def r_appsettings(P, m):
    sect = "".join(p.capitalize() for p in m["slug"].split("_"))
    d = {"Logging": {"LogLevel": {"Default": pick(["Information", "Warning"])}}, sect: {"".join(p.capitalize() for p in k.lower().split("_")): v for k, v in P}}
    return json.dumps(d, indent=2, ensure_ascii=False)


def r_swift(P, m):
    return "enum %s {\n%s\n}" % ("".join(p.capitalize() for p in m["slug"].split("_")) + "Keys", "\n".join("    static let %s = %s" % (camel(k), lit(v)) for k, v in P))


def r_notebook(P, m):
    src = ["import os\n"] + ["os.environ[%s] = %s\n" % (lit(k), lit(v)) for k, v in P]
    cell = {"cell_type": "code", "execution_count": R.randint(1, 40), "metadata": {}, "outputs": [], "source": src}
    return json.dumps(cell, indent=1, ensure_ascii=False)


def _kv_lines(P, sep=": "):
    return "\n".join("%s%s%s" % (k, sep, v) for k, v in P)


def _desc(m):
    if m.get("secret") and chance(0.7):
        return pick(["the %s %s" % (m["vendor"], m["fmt"]), "%s %s" % (m["vendor"], m["fmt"]), "the %s creds" % m["vendor"], "%s access" % m["vendor"]])
    return pick(["the %s settings" % m["vendor"], "%s config" % m["vendor"], "the %s bits" % m["vendor"], "the %s env" % m["vendor"], "%s setup" % m["vendor"]])


def r_chat(P, m):
    who = pick(PEOPLE)
    intro = pick(["@%s here's %s for %s:" % (who.lower(), _desc(m), pick(ENVS)), "%s: pasting %s so you can test" % (who, _desc(m)),
                  "ok %s, %s below 👇" % (who, _desc(m)), "[%s] %s → %s" % (clock(), who, _desc(m)),
                  "sharing %s (%s)" % (_desc(m), pick(ENVS))])
    body = _kv_lines(P, pick(["=", ": ", " "]))
    if chance(0.4):
        body = "```\n%s\n```" % body
    return intro + "\n" + body + pick(["", "\nlmk if it works", "\nthanks!", "\n🙏"])


def r_email(P, m):
    who = pick(PEOPLE)
    return "Subject: %s\nFrom: %s <%s>\nTo: %s\n\nHi %s,\n\n%s\n\n%s\n\n%s" % (
        pick(["%s for %s" % (m["vendor"], pick(ENVS)), "Re: integration", "handover", "Fwd: setup details", "access for the contractor"]),
        who, email_addr(ascii_name(who)), email_addr(), pick(PEOPLE), pick(["As discussed, here is %s:" % _desc(m), "Below is %s." % _desc(m), "Details for %s:" % _desc(m)]),
        _kv_lines(P), pick(["Best,\n" + who, "Thanks\n" + who, "Cheers,\n" + who[0]]))


def r_ticket(P, m):
    proj = pick(["OPS", "INFRA", "SUP", "DEV", "IT", "PLAT"])
    return "%s-%d: %s\nPriority: %s\nReporter: %s\n\nDescription:\n%s\n%s" % (
        proj, R.randint(100, 9999), pick(["Configure %s" % m["vendor"], "%s integration broken" % m["vendor"], "Set up %s for %s" % (m["vendor"], pick(ENVS)), "Migrate %s" % m["vendor"]]),
        pick(["P2", "P3", "Medium", "High"]), pick(PEOPLE), pick(["Values in use:", "Current config:", "Using the following:", "Env as deployed:"]), _kv_lines(P, pick([" = ", ": "])))


def r_note(P, m):
    head = pick(["%s" % m["vendor"], "%s stuff" % m["vendor"], "%s (%s)" % (m["vendor"], pick(ENVS)), "%s for the side project" % m["vendor"]])
    return head + "\n" + _kv_lines(P, pick([": ", " - ", " = "]))


def r_powershell(P, m):
    return "\n".join('$env:%s = %s' % (k, sq(v)) for k, v in P)


def r_makefile(P, m):
    return "\n".join("%s ?= %s" % (k, v) for k, v in P) + "\n\n%s:\n\t%s" % (pick(["deploy", "run", "release"]), pick(["./scripts/deploy.sh", "go run .", "docker compose up -d"]))


def r_ansible(P, m):
    lines = ["# group_vars/%s.yml" % pick(["all", "prod", "webservers", "db"])]
    for k, v in P:
        lines.append("%s: %s" % (k.lower(), yaml_scalar(v, 0)))
    return "\n".join(lines)


def r_systemd(P, m):
    lines = ["[Service]"]
    for k, v in P:
        lines.append('Environment="%s=%s"' % (k, esc_nl(v)))
    lines.append("ExecStart=/usr/local/bin/%s" % pick(["app", "worker", "exporter", "bot"]))
    return "\n".join(lines)


def r_launch(P, m):
    d = {"version": "0.2.0", "configurations": [{"name": "Debug", "type": pick(["node", "python", "go"]), "request": "launch", "env": {k: v for k, v in P}}]}
    return json.dumps(d, indent=2, ensure_ascii=False)


def r_webconfig(P, m):
    return "<appSettings>\n%s\n</appSettings>" % "\n".join('  <add key="%s" value="%s" />' % (k, esc_nl(v).replace("&", "&amp;").replace('"', "&quot;")) for k, v in P)


def r_jenkins(P, m):
    return "pipeline {\n  agent any\n  environment {\n%s\n  }\n  stages {\n    stage('Build') { steps { sh 'make' } }\n  }\n}" % "\n".join("    %s = %s" % (k, sq(v)) for k, v in P)


def r_runbook(P, m):
    return "## %s\n\n%s\n\n```bash\n%s\n```" % (pick(["Setup", "Local dev", "Deploying", "Runbook: %s" % m["vendor"]]), pick(["Set these before running:", "Env needed:", "Run with:"]), "\n".join("export %s=%s" % (k, sq(v)) for k, v in P))


def r_crontab(P, m):
    envs = " ".join("%s=%s" % (k, sq(v)) for k, v in P)
    return "%d %d * * * %s /usr/local/bin/%s >> /var/log/%s.log 2>&1" % (R.randint(0, 59), R.randint(0, 23), envs, pick(["backup.sh", "sync.py", "report"]), pick(["cron", "sync", "backup"]))


def r_sql(P, m):
    return "INSERT INTO integration_settings (provider, name, value) VALUES\n" + ",\n".join("  (%s, %s, %s)" % (sq(m["slug"]), sq(k.lower()), sq(v)) for k, v in P) + ";"


def r_springyaml(P, m):
    lines = ["spring:", "  application:", "    name: %s" % m["slug"].replace("_", "-"), "app:", "  %s:" % m["slug"].replace("_", "-")]
    for k, v in P:
        lines.append("    %s: %s" % (k.lower().replace("_", "-"), yaml_scalar(v, 4)))
    return "\n".join(lines)


def r_vscode_settings(P, m):
    return json.dumps({"%s.%s" % (m["slug"], camel(k)): v for k, v in P}, indent=4, ensure_ascii=False)


CONTAINERS = [
    ("dotenv", r_env, True), ("shell-export", r_export, True), ("yaml", r_yaml, True), ("json", r_json, True),
    ("toml", r_toml, True), ("ini", r_ini, True), ("properties", r_properties, True), ("dockerfile", r_dockerfile, True),
    ("docker-compose", r_compose, True), ("k8s-secret", r_k8s_secret, True), ("k8s-deployment", r_k8s_deploy, True),
    ("helm-values", r_helm, True), ("terraform", r_terraform, True), ("tfvars", r_tfvars, True),
    ("github-actions", r_gha, True), ("gitlab-ci", r_gitlab, True), ("circleci", r_circleci, True),
    ("shell-history", r_history, False), ("curl", r_curl, False), ("http-request", r_http, False),
    ("python", r_python, True), ("javascript", r_js, True), ("typescript", r_ts, True), ("go", r_go, True),
    ("java", r_java, True), ("kotlin", r_kotlin, True), ("rust", r_rust, True), ("ruby", r_ruby, True),
    ("php", r_php, True), ("csharp", r_csharp, True), ("appsettings-json", r_appsettings, True), ("swift", r_swift, True),
    ("notebook-cell", r_notebook, True), ("chat-message", r_chat, True), ("email", r_email, True),
    ("ticket", r_ticket, True), ("personal-note", r_note, True), ("powershell", r_powershell, True),
    ("makefile", r_makefile, False), ("ansible-vars", r_ansible, True), ("systemd-unit", r_systemd, True),
    ("vscode-launch", r_launch, True), ("web-config-xml", r_webconfig, True), ("jenkinsfile", r_jenkins, True),
    ("markdown-runbook", r_runbook, True), ("crontab", r_crontab, False), ("sql-insert", r_sql, True),
    ("spring-yaml", r_springyaml, True), ("vscode-settings", r_vscode_settings, True),
]


def merge_pairs(cred, extra):
    out = list(cred)
    for p in extra:
        out.insert(R.randint(0, len(out)), p)
    return out


def render_container(pairs, meta, name=None):
    multiline = any("\n" in v for k, v in pairs)
    cands = [c for c in CONTAINERS if (c[2] or not multiline)]
    if meta.get("cat") in ("keys", "crypto"):
        cands = [c for c in cands if c[0] not in ("curl", "http-request")]
    if name:
        cands = [c for c in CONTAINERS if c[0] == name]
    cname, fn, _ = pick(cands)
    return cname, fn(pairs, meta)


def vendor_meta(f, secret=True, credkeys=()):
    return {"vendor": f["vendor"], "fmt": f["fmt"], "slug": slug(f["vendor"]), "secret": secret, "credkeys": tuple(credkeys), "cat": f.get("cat") if secret else None}


# --------------------------------------------------------------------------
# personal secrets: slot filler shared by English and other-language templates
# --------------------------------------------------------------------------
SSIDS = ["FRITZ!Box 7590 KQ", "Vodafone-4F2A", "BT-H7XK2P", "NETGEAR42", "TP-Link_9C3E", "Livebox-71A0", "Casa_Rossi",
         "MOVISTAR_8F21", "Telstra4B1C", "SKY6E2A1", "Ziggo8841", "Bbox-5A9D21", "HUAWEI-B535-3F2C", "dlink-7741",
         "iPhone von Lena", "Galaxy A54 hotspot", "OfficeGuest", "Garden_Studio", "SFR_2B80", "Orange-Funbox"]
CITIES = ["Porto", "Leeds", "Gdańsk", "Kyoto", "Tucson", "Lyon", "Graz", "Cork", "Bergen", "Recife", "Mombasa", "Perth"]
MAIDEN = ["Kowalski", "Fernandes", "O'Brien", "Haddad", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrova", "Schulz"]


def door_code():
    p = pin(pick([4, 4, 5, 6]))
    return pick([p, p + "#", "*" + p, p + "✓", "#" + p + "#", " ".join(p)])


def fill(tmpl, memo=None):
    memo = {} if memo is None else memo

    def g(name):
        if name in memo:
            return memo[name]
        if name.startswith("pw"):
            v = personal_password()
        elif name == "spw":
            v = strong_password(R.randint(12, 20))
        elif name.startswith("pin"):
            v = pin(int("".join(c for c in name[3:] if c.isdigit()) or 4))
        elif name == "puk":
            v = rs(DIG, 8)
        elif name == "combo3":
            v = combo(3)
        elif name == "combo4":
            v = "".join(str(R.randint(0, 9)) for _ in range(4))
        elif name == "otp":
            v = otp(6)
        elif name == "otp8":
            v = otp(8)
        elif name == "codes":
            v = "\n".join(backup_codes())
        elif name == "codes_inline":
            v = ", ".join(backup_codes(R.choice([4, 5, 6])))
        elif name == "totp":
            v = totp_seed()
        elif name == "seed12":
            v = mnemonic(12)
        elif name == "seed24":
            v = mnemonic(24)
        elif name == "ethkey":
            v = "0x" + rs(ALPH["h"], 64)
        elif name == "card":
            b, num = card_number()
            memo["_num"] = num
            memo["brand"] = b
            v = fmt_card(num)
        elif name == "brand":
            g("card")
            v = memo["brand"]
        elif name == "cvv":
            if "_num" not in memo:
                g("card")
            v = card_cvv(memo["_num"])
        elif name == "exp":
            v = card_exp()
        elif name == "gift":
            v = gift_code()
        elif name == "wifi":
            v = wifi_password()
        elif name == "ssid":
            v = pick(SSIDS)
        elif name == "email":
            v = email_addr()
        elif name == "user":
            v = username()
        elif name == "pet":
            v = pick(PETS)
        elif name == "maiden":
            v = pick(MAIDEN)
        elif name == "city":
            v = pick(CITIES)
        elif name == "bitlocker":
            v = bitlocker_key()
        elif name == "applerk":
            v = apple_recovery_key()
        elif name == "door":
            v = door_code()
        elif name == "pass3":
            v = passphrase()
        elif name == "mtg":
            v = "%s %s %s" % (rs(DIG, 3), rs(DIG, 4), rs(DIG, 4))
        elif name == "mtgpw":
            v = pick([rs(DIG, 6), rs(ALPH["a"], 6), rs(ALPH["a"], 8)])
        elif name == "d2":
            v = str(R.randint(10, 99))
        elif name == "t":
            v = a_time()
        elif name == "name":
            v = pick(FIRST).capitalize()
        elif name == "pattern":
            v = "-".join(str(x) for x in R.sample([1, 2, 3, 4, 5, 6, 7, 8, 9], R.randint(4, 6)))
        elif name == "locker":
            v = str(R.randint(1, 400))
        elif name == "apppw":
            v = gmail_app_password()
        elif name == "id9":
            v = rs(DIG, 9)
        else:
            raise KeyError(name)
        memo[name] = v
        return v

    out = []
    for lit_, field, spec, conv in _FMT.parse(tmpl):
        out.append(lit_)
        if field is not None:
            out.append(g(field))
    return "".join(out)


EN_PERSONAL = [
    ("email-password", "gmail pw: {pw}"),
    ("email-password", "my yahoo login is {email} / {pw} (changed it in march)"),
    ("email-password", "Outlook (work) password — {pw}\nold one was different, don't mix them up"),
    ("email-password", "email: {email}\npasswrod: {pw}"),
    ("bank-login", "Chase online banking\nuser: {user}\npass: {pw}"),
    ("bank-login", "barclays login - membership no {id9}, passcode {pin5}, memorable word {pet}"),
    ("bank-login", "credit union website: username {user} pw {pw} — they make you change it every 90 days ugh"),
    ("bank-card-pin", "debit card PIN {pin4} (the visa, not the amex)"),
    ("bank-card-pin", "new card arrived, pin is {pin4}. shred the letter"),
    ("bank-card-pin", "Revolut card pin {pin4}  🔒"),
    ("phone-passcode", "new phone passcode: {pin6}"),
    ("phone-passcode", "dad's iphone code is {pin6} in case he forgets again (he will)"),
    ("phone-passcode", "work phone unlock {pin6}"),
    ("sim-pin-puk", "SIM PIN {pin4} / PUK {puk}  (from the card the sim came on)"),
    ("sim-pin-puk", "if the phone asks for the sim pin it's {pin4}. PUK: {puk}"),
    ("door-code", "building door code is {door} — press the key symbol first"),
    ("door-code", "front door keypad at the new flat: {door}"),
    ("door-code", "Code for the side entrance of the studio {door}, back door uses the fob"),
    ("gate-code", "gate code for mom's community: {door}"),
    ("gate-code", "Lakeview HOA gate → {door} (guests use the call box instead)"),
    ("alarm-code", "alarm disarm code {pin4} — if it beeps you have 30 sec"),
    ("alarm-code", "ADT code: {pin4}. verbal password if they call: {pet}"),
    ("alarm-code", "house alarm = {pin4}, panel is behind the coats"),
    ("safe-combo", "safe combo {combo3}"),
    ("safe-combo", "the little fire safe in the closet opens with {combo3} (turn right first)"),
    ("locker-combo", "gym locker #{locker} combo {combo3}"),
    ("locker-combo", "school locker combination for Ava: {combo3}"),
    ("keybox-code", "airbnb keybox code: {combo4}, box is left of the door"),
    ("keybox-code", "key safe for the holiday cottage {combo4} — put the key back after!!"),
    ("keybox-code", "lockbox at grandma's (for the carers): {combo4}"),
    ("garage-code", "garage keypad {pin4} then the up arrow"),
    ("garage-code", "garage door code changed to {pin4}"),
    ("bike-lock", "bike lock 4 digits {combo4}"),
    ("bike-lock", "kryptonite lock combo is {combo4} (red bike)"),
    ("otp-code", "verification code from the bank: {otp} (expires in 10 min)"),
    ("otp-code", "FW: Your Amazon OTP is {otp}. Do not share it with anyone."),
    ("otp-code", "Mum just forwarded: 'G-{otp} is your Google verification code.'"),
    ("otp-code", "the login code they texted me is {otp8} — entering it on the laptop now"),
    ("backup-codes", "google backup codes:\n{codes}"),
    ("backup-codes", "GitHub recovery codes (saved from the download):\n{codes}"),
    ("backup-codes", "2fa backup codes for discord: {codes_inline}"),
    ("recovery-key", "BitLocker recovery key for the work laptop: {bitlocker}"),
    ("recovery-key", "Apple ID recovery key → {applerk} (printed copy is in the blue folder)"),
    ("totp-seed", "2FA secret for coinbase (in case phone dies): {totp}"),
    ("totp-seed", "authenticator setup key for the VPN portal: {totp}"),
    ("seed-phrase", "metamask seed: {seed12}"),
    ("seed-phrase", "ledger 24 words\n{seed24}"),
    ("seed-phrase", "trust wallet recovery phrase — {seed12}. DO NOT LOSE"),
    ("wallet-private-key", "old eth wallet private key {ethkey}"),
    ("wallet-private-key", "exported the key from metamask: {ethkey}"),
    ("security-answers", "security questions for the bank:\nmother's maiden name = {maiden}\nfirst pet = {pet}\ncity you were born = {city}"),
    ("security-answers", "secret question on the insurance site: first car? answer: 'blue corsa'. other one: {pet}"),
    ("security-answers", "verizon security Q (childhood best friend) -> {name}{d2}"),
    ("full-card", "visa {card} exp {exp} cvv {cvv}"),
    ("full-card", "Card for the online order: {brand} {card}, {exp}, security code {cvv}"),
    ("full-card", "company card\nnumber: {card}\nexpiry: {exp}\ncvc: {cvv}\nname: J. Carter"),
    ("full-card", "dad's mastercard if the hotel asks again: {card} exp {exp} / {cvv}"),
    ("gift-card", "Amazon gift card claim code: {gift}"),
    ("gift-card", "steam card from Leo's birthday — code {gift} (not redeemed yet)"),
    ("gift-card", "Apple gift card {gift} $50"),
    ("wifi-password", "wifi: {ssid}, pw {wifi}"),
    ("wifi-password", "Guest wifi at the cabin\nnetwork: {ssid}\npassword: {wifi}"),
    ("wifi-password", "grandparents' wifi password is {wifi} (the sticker on the router is wrong)"),
    ("wifi-password", "📶 {ssid} / {wifi}"),
    ("router-admin", "router admin 192.168.0.1 admin / {pw}"),
    ("router-admin", "changed the router login: user admin, pass {spw}"),
    ("voicemail-pin", "voicemail pin {pin4}"),
    ("voicemail-pin", "to check messages from another phone dial in and enter {pin6}"),
    ("parcel-locker", "Amazon locker pickup code {otp} at the Co-op, ready until friday"),
    ("parcel-locker", "InPost code for the parcel: {otp}"),
    ("hotel-safe", "hotel room safe - I set it to {pin4}"),
    ("laptop-login", "work laptop login: {user} / {pw}"),
    ("laptop-login", "kids' desktop windows password {pw}"),
    ("streaming-login", "netflix: {email} pw {pw}"),
    ("streaming-login", "disney+ shared with my sister — {email} / {pw}"),
    ("streaming-login", "spotify family acct login {email} {pw}"),
    ("social-login", "insta login for the bakery page: {user} / {pw}"),
    ("social-login", "facebook pw for mum: {pw}"),
    ("school-portal", "kid's school portal (ParentVUE) user {user} pass {pw}"),
    ("school-portal", "uni student login {user} password {pw}"),
    ("tax-portal", "HMRC gateway ID {id9} + password {pw}"),
    ("tax-portal", "IRS online account: user {user}, pw {pw}"),
    ("insurance-portal", "car insurance website login {email} / {pw}"),
    ("utility-login", "electric company account {email} pass {pw}"),
    ("password-manager-master", "1password master password: {pass3}"),
    ("password-manager-master", "bitwarden master pw (in case I forget): {pass3}"),
    ("disk-encryption", "veracrypt volume passphrase: {pass3}"),
    ("disk-encryption", "passphrase for the encrypted backup drive = {spw}"),
    ("ssh-passphrase", "passphrase for id_ed25519 on the laptop: {pass3}"),
    ("vpn-login", "VPN for work: username {user} password {pw}"),
    ("meeting-passcode", "zoom w/ the lawyer: meeting id {mtg} passcode {mtgpw}"),
    ("meeting-passcode", "board call dial-in {mtg}, participant PIN {pin6}"),
    ("car-keypad", "Ford door keypad code {pin5}"),
    ("pattern-unlock", "tablet unlock pattern: {pattern} (dots numbered like a phone keypad)"),
    ("smart-lock-code", "August lock guest code for the cleaner: {pin6}"),
    ("smart-lock-code", "Nuki keypad code {pin6} (Tuesdays only for the dog walker)"),
    ("screen-time-passcode", "screen time passcode on Ava's ipad {pin4}"),
    ("telephone-banking", "telephone banking passcode {pin6}, they'll ask for 2nd and 5th digits"),
    ("app-pin", "banking app PIN {pin5}"),
    ("app-pin", "PayPal app pin {pin4}"),
    ("printer-badge-pin", "office printer release PIN {pin4}"),
    ("family-shared-login", "family amazon prime login {email} {pw} — please don't change it"),
    ("crypto-exchange-login", "binance: {email} / {pw}, 2fa is on my old phone"),
    ("bios-password", "BIOS/UEFI supervisor password on the dell: {spw}"),
    ("nas-login", "synology NAS admin: {user} / {pw}"),
    ("game-account", "xbox account {email} password {pw}"),
    ("game-account", "minecraft login for Leo {email} / {pw}"),
    ("garage-code", "[voice memo] okay so the code for the garage is {pin4} and then you press enter, enter not the up arrow"),
    ("wifi-password", "transcript: 'hey it's me, the wifi password is {wifi}, all one word, capitals where you see them'"),
    ("alarm-code", "Fwd from Dad: 'new alarm code is {pin4}. delete this after.'"),
    ("streaming-login", "> From: Sis\n> netflix pw is {pw} now, I changed it because of the ex"),
    ("account-password", "Name: Joanna Carter\nUsername: {user}\nPassword: {pw}\nSecurity answer: {pet}"),
    ("utility-login", "Account: energy supplier\nEmail: {email}\nPassword: {pw}\nAccount PIN: {pin4}"),
    ("door-code", "codes:\n• front door {door}\n• garage {pin4}\n• alarm {pin4b}"),
    ("wifi-password", "Passwords (home)\n- wifi: {wifi}\n- router: admin/{spw}\n- printer: n/a"),
    ("account-password", "pasword for the dentist patient portal {pw}  (their site is awful)"),
    ("shopping-login", "amzn pwd {pw} / acct {email}"),
    ("door-code", "🏠 door {door}   🚗 garage {pin4}"),
    ("email-password", "🔑 {pw} ← that's the new gmail one"),
]


def personal_english_record():
    kind, t = pick(EN_PERSONAL)
    return kind, fill(t), {"seg": "personal", "lang": "en", "pkind": kind}


# --------------------------------------------------------------------------
# other languages, written natively.  S = personal secrets (kind, template),
# B = ordinary benign notes, T = talk about credentials WITHOUT any value,
# D = digit words 0-9 (used for spoken-form evasions)
# --------------------------------------------------------------------------
LANGS = [
 ("es", "Spanish", [
   ("wifi-password", "Clave del wifi de casa: {wifi} (la red es {ssid})"),
   ("bank-card-pin", "PIN de la tarjeta del Santander: {pin4}. ¡No lo apuntes en otro sitio!"),
   ("door-code", "código del portal de la abuela → {door}"),
   ("email-password", "contraseña del correo de hotmail: {pw}"),
   ("full-card", "Tarjeta de mamá {card}, caduca {exp}, CVV {cvv}"),
   ("security-answers", "Pregunta de seguridad del banco: ¿nombre de tu primera mascota? {pet}"),
   ("alarm-code", "Alarma de la oficina: {pin4}. Si salta, llamar a la central")],
  ["Cita con el dentista el martes a las 10:30, llevar la tarjeta sanitaria",
   "Lista de la compra: tomates, pan, aceite de oliva, café y papel higiénico",
   "Acordarme de felicitar a Lucía el día 14, le gustan los girasoles"],
  ["Mañana tengo que ir al banco a cambiar el PIN de la tarjeta, me la bloquearon",
   "Le pedí a Jorge la contraseña del wifi pero todavía no me la ha mandado"],
  "cero uno dos tres cuatro cinco seis siete ocho nueve"),
 ("fr", "French", [
   ("wifi-password", "Code wifi de la Livebox : {wifi}"),
   ("door-code", "Digicode de l'immeuble de Claire : {door} puis porte de gauche"),
   ("bank-card-pin", "code de la carte bleue : {pin4}"),
   ("email-password", "mdp de ma boîte Orange : {pw}"),
   ("otp-code", "Transféré de maman : « Votre code de confirmation est {otp}. Ne le communiquez à personne. »"),
   ("seed-phrase", "phrase de récupération du portefeuille Ledger : {seed12}"),
   ("keybox-code", "Boîte à clés du gîte : {combo4} (remettre la clé après le ménage)")],
  ["RDV chez le kiné jeudi 17h, penser à l'ordonnance",
   "Courses : lait, œufs, farine, beurre demi-sel et une baguette",
   "Anniversaire de Hugo samedi, acheter un cadeau (lego ?)"],
  ["Il faut que je change mon mot de passe de la banque, ils m'ont envoyé un mail",
   "Je n'arrive plus à retrouver le code du portail, je demanderai au syndic"],
  "zéro un deux trois quatre cinq six sept huit neuf"),
 ("de", "German", [
   ("wifi-password", "WLAN-Passwort bei Oma: {wifi} (Netz: {ssid})"),
   ("bank-card-pin", "PIN der neuen Girocard: {pin4} – Brief danach vernichten!"),
   ("bank-login", "Onlinebanking Sparkasse\nAnmeldename: {user}\nPIN: {pin5}"),
   ("alarm-code", "Alarmanlage Laden: {pin4}, dann Taste AUS"),
   ("sim-pin-puk", "SIM-PIN {pin4}, PUK {puk}"),
   ("totp-seed", "TOTP-Schlüssel fürs Firmen-VPN (falls Handy kaputt): {totp}"),
   ("email-password", "GMX Passwort: {pw}")],
  ["Zahnarzttermin Dienstag 8:30, Bonusheft mitnehmen",
   "Einkauf: Brötchen, Quark, Äpfel, Spülmittel",
   "Paket für Frau Müller angenommen, steht im Flur"],
  ["Ich muss morgen unbedingt die PIN meiner Bankkarte ändern lassen",
   "Hab das WLAN-Passwort vergessen, frag mal Jonas ob er es noch weiß"],
  "null eins zwei drei vier fünf sechs sieben acht neun"),
 ("it", "Italian", [
   ("bank-card-pin", "PIN del bancomat: {pin5}"),
   ("gate-code", "codice del cancello di zia Paola: {door}"),
   ("wifi-password", "password wifi casa al mare: {wifi}"),
   ("email-password", "password della PEC: {pw}"),
   ("full-card", "carta di credito di papà {card} scad. {exp} CVV {cvv}"),
   ("otp-code", "codice OTP arrivato per SMS: {otp}"),
   ("safe-combo", "combinazione della cassaforte in camera: {combo3}")],
  ["Visita dal pediatra giovedì alle 16, portare il libretto delle vaccinazioni",
   "Comprare: pasta, passata di pomodoro, parmigiano, basilico",
   "Cena da Giulia sabato, portare il tiramisù"],
  ["Devo chiamare la banca per sbloccare il PIN, l'ho sbagliato tre volte",
   "Ricordami di chiedere a Marco la password del wifi dell'ufficio"],
  "zero uno due tre quattro cinque sei sette otto nove"),
 ("pt", "Portuguese", [
   ("wifi-password", "senha do wifi da casa da vó: {wifi}"),
   ("bank-card-pin", "senha do cartão do Nubank: {pin4}"),
   ("email-password", "senha do e-mail do trabalho: {pw}"),
   ("full-card", "cartão da mãe {card} validade {exp} código {cvv}"),
   ("door-code", "código da portaria: {door}"),
   ("gift-card", "vale-presente da Amazon: {gift}"),
   ("backup-codes", "códigos de backup do Google:\n{codes}")],
  ["Consulta no dermatologista quarta às 14h, levar os exames",
   "Comprar arroz, feijão, café e pão de queijo",
   "Aniversário da Bia dia 22, fazer o bolo de cenoura"],
  ["Preciso trocar a senha do banco amanhã, chegou um aviso no app",
   "Esqueci a senha do wi-fi de novo, vou resetar o roteador"],
  "zero um dois três quatro cinco seis sete oito nove"),
 ("nl", "Dutch", [
   ("wifi-password", "wifi-wachtwoord thuis: {wifi}"),
   ("bank-card-pin", "pincode van de nieuwe bankpas: {pin4}"),
   ("gov-id-login", "DigiD: gebruikersnaam {user}, wachtwoord {pw}"),
   ("door-code", "code van de voordeur bij het kantoor: {door}"),
   ("alarm-code", "alarmcode {pin4}, daarna op 'uit' drukken"),
   ("email-password", "wachtwoord van mijn Ziggo-mail: {pw}"),
   ("bike-lock", "cijferslot van de fiets: {combo4}")],
  ["Tandarts dinsdag om 9 uur, niet vergeten",
   "Boodschappen: hagelslag, kaas, brood, melk",
   "Oma's verjaardag zondag, taart bestellen bij de bakker"],
  ["Ik moet mijn pincode nog veranderen, de bank heeft een nieuwe pas gestuurd",
   "Vraag aan Sanne wat het wifi-wachtwoord van de bibliotheek is"],
  "nul een twee drie vier vijf zes zeven acht negen"),
 ("sv", "Swedish", [
   ("bank-card-pin", "PIN-kod till bankkortet: {pin4}"),
   ("wifi-password", "wifi-lösenord i stugan: {wifi}"),
   ("door-code", "portkod till lägenheten: {door}"),
   ("email-password", "lösenord till mejlen: {pw}"),
   ("sim-pin-puk", "PIN {pin4} och PUK {puk} för nya SIM-kortet"),
   ("locker-combo", "kod till skåpet på gymmet: {combo3}"),
   ("otp-code", "engångskod från banken: {otp}")],
  ["Tandläkaren tisdag kl 10, ta med frikort",
   "Handla: mjölk, knäckebröd, ost och kaffe",
   "Hämta paketet på ICA innan fredag"],
  ["Jag måste byta lösenord till banken, fick ett mejl om det",
   "Glöm inte att fråga Erik om portkoden, jag har tappat lappen"],
  "noll ett två tre fyra fem sex sju åtta nio"),
 ("nb", "Norwegian Bokmål", [
   ("bank-card-pin", "PIN-koden til bankkortet er {pin4}"),
   ("wifi-password", "passord til trådløst nett på hytta: {wifi}"),
   ("gate-code", "kode til porten hos mormor: {door}"),
   ("gov-id-login", "BankID-passord: {pw}"),
   ("alarm-code", "alarmkode hjemme: {pin4}"),
   ("email-password", "e-postpassord: {pw}"),
   ("safe-combo", "kombinasjonen til safen: {combo3}")],
  ["Legetime onsdag kl 13.15",
   "Kjøpe brunost, melk og brød",
   "Sykkelen må på service før sommeren"],
  ["Jeg må endre PIN-koden min, har glemt den igjen",
   "Spør Ingrid om wifi-passordet når hun kommer hjem"],
  "null en to tre fire fem seks sju åtte ni"),
 ("da", "Danish", [
   ("bank-card-pin", "pinkode til Dankortet: {pin4}"),
   ("wifi-password", "wifi kode i sommerhuset: {wifi}"),
   ("gov-id-login", "MitID bruger-id {user}, adgangskode {pw}"),
   ("door-code", "dørkode til opgangen: {door}"),
   ("email-password", "kode til mail: {pw}"),
   ("gift-card", "gavekort kode fra Matas: {gift}"),
   ("keybox-code", "nøgleboks ved døren: {combo4}")],
  ["Tandlæge torsdag kl. 9",
   "Indkøb: rugbrød, leverpostej, mælk, æbler",
   "Husk at betale børnehaven inden den 1."],
  ["Jeg skal have ny pinkode til mit kort, den gamle er spærret",
   "Har du adgangskoden til wifi'en på kontoret? Jeg har glemt den"],
  "nul en to tre fire fem seks syv otte ni"),
 ("fi", "Finnish", [
   ("bank-card-pin", "pankkikortin PIN-koodi: {pin4}"),
   ("wifi-password", "mökin wifin salasana: {wifi}"),
   ("door-code", "rappukäytävän ovikoodi: {door}"),
   ("email-password", "sähköpostin salasana: {pw}"),
   ("bank-login", "verkkopankki: käyttäjätunnus {id9}, salasana {pw}"),
   ("alarm-code", "hälytysjärjestelmän koodi {pin4}"),
   ("otp-code", "vahvistuskoodi tekstiviestillä: {otp}")],
  ["Hammaslääkäri tiistaina klo 10",
   "Kauppaan: maitoa, ruisleipää, kahvia",
   "Muista viedä pullot kauppaan"],
  ["Pitää vaihtaa pankin salasana huomenna",
   "Kysy Mikolta mikä wifin salasana on, en muista"],
  "nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän"),
 ("is", "Icelandic", [
   ("bank-card-pin", "PIN-númer á kortinu: {pin4}"),
   ("wifi-password", "lykilorð á þráðlausa netinu heima: {wifi}"),
   ("door-code", "hurðarkóði í stigaganginum: {door}"),
   ("email-password", "lykilorð að tölvupóstinum: {pw}"),
   ("alarm-code", "öryggiskerfi: {pin4}"),
   ("sim-pin-puk", "SIM PIN {pin4}, PUK {puk}"),
   ("gift-card", "gjafakort kóði: {gift}")],
  ["Tannlæknir á þriðjudaginn klukkan tíu",
   "Kaupa mjólk, skyr og brauð",
   "Afmæli ömmu á sunnudaginn"],
  ["Ég þarf að breyta lykilorðinu í heimabankanum",
   "Spurðu Jón um lykilorðið að netinu, ég man það ekki"],
  "núll einn tveir þrír fjórir fimm sex sjö átta níu"),
 ("pl", "Polish", [
   ("bank-card-pin", "PIN do karty z mBanku: {pin4}"),
   ("wifi-password", "hasło do wifi u rodziców: {wifi}"),
   ("door-code", "kod do domofonu: {door}"),
   ("email-password", "hasło do poczty na onecie: {pw}"),
   ("parcel-locker", "kod odbioru z paczkomatu: {otp}"),
   ("security-answers", "pytanie pomocnicze w banku: imię pierwszego psa — {pet}"),
   ("otp-code", "kod BLIK dla mamy: {otp} (ważny 2 minuty)")],
  ["Wizyta u lekarza rodzinnego w środę o 11",
   "Kupić chleb, masło, twaróg i ogórki",
   "Imieniny babci w sobotę, kupić kwiaty"],
  ["Muszę jutro zmienić PIN do karty, bo bank go zablokował",
   "Zapytaj Kasię o hasło do wifi w biurze"],
  "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć"),
 ("cs", "Czech", [
   ("bank-card-pin", "PIN ke kartě: {pin4}"),
   ("wifi-password", "heslo na wifi na chalupě: {wifi}"),
   ("door-code", "kód od vchodu: {door}"),
   ("email-password", "heslo k e-mailu na Seznamu: {pw}"),
   ("alarm-code", "kód alarmu v dílně: {pin4}"),
   ("otp-code", "ověřovací kód z SMS: {otp}"),
   ("safe-combo", "kombinace k trezoru: {combo3}")],
  ["Zubař v pondělí v 9:30",
   "Koupit rohlíky, máslo, šunku a mléko",
   "Vyzvednout boty z opravy"],
  ["Musím si zítra v bance nechat změnit PIN",
   "Zeptej se Petra na heslo k wifi, já ho nevím"],
  "nula jedna dva tři čtyři pět šest sedm osm devět"),
 ("sk", "Slovak", [
   ("bank-card-pin", "PIN ku karte: {pin4}"),
   ("wifi-password", "heslo na wifi u babky: {wifi}"),
   ("gate-code", "kód na bránu: {door}"),
   ("email-password", "heslo do mailu: {pw}"),
   ("full-card", "karta: {card}, platnosť {exp}, CVV {cvv}"),
   ("otp-code", "overovací kód z banky: {otp}"),
   ("locker-combo", "kód na skrinku v práci: {combo3}")],
  ["Zubár v utorok o desiatej",
   "Kúpiť chlieb, mlieko a bryndzu",
   "Zavolať mame v nedeľu"],
  ["Musím si zmeniť heslo do internet bankingu",
   "Spýtaj sa Mareka na heslo od wifi"],
  "nula jeden dva tri štyri päť šesť sedem osem deväť"),
 ("hu", "Hungarian", [
   ("bank-card-pin", "bankkártya PIN: {pin4}"),
   ("wifi-password", "wifi jelszó a nyaralóban: {wifi}"),
   ("gate-code", "kapukód: {door}"),
   ("email-password", "email jelszó: {pw}"),
   ("gov-id-login", "Ügyfélkapu: felhasználónév {user}, jelszó {pw}"),
   ("alarm-code", "riasztó kódja: {pin4}"),
   ("otp-code", "SMS-ben kapott kód: {otp}")],
  ["Fogorvos kedden 9-kor",
   "Venni: kenyér, tej, paprika, túró",
   "Nagymama születésnapja vasárnap"],
  ["Holnap meg kell változtatnom a bankkártyám PIN kódját",
   "Kérdezd meg Annát, mi a wifi jelszó, elfelejtettem"],
  "nulla egy kettő három négy öt hat hét nyolc kilenc"),
 ("ro", "Romanian", [
   ("bank-card-pin", "PIN card BT: {pin4}"),
   ("wifi-password", "parola de la wifi de la bunica: {wifi}"),
   ("door-code", "cod interfon bloc: {door}"),
   ("email-password", "parola de la mail: {pw}"),
   ("full-card", "cardul lui tata {card}, expiră {exp}, CVV {cvv}"),
   ("otp-code", "cod de confirmare primit prin SMS: {otp}"),
   ("gift-card", "cod card cadou eMAG: {gift}")],
  ["Programare la dentist marți la ora 10",
   "De cumpărat: pâine, lapte, brânză, roșii",
   "Ziua Ioanei pe 12, de luat flori"],
  ["Trebuie să schimb PIN-ul de la card, l-am uitat",
   "Întreabă-l pe Andrei care e parola de la wifi"],
  "zero unu doi trei patru cinci șase șapte opt nouă"),
 ("bg", "Bulgarian", [
   ("bank-card-pin", "ПИН на картата: {pin4}"),
   ("wifi-password", "парола за wifi-то вкъщи: {wifi}"),
   ("door-code", "код на входната врата: {door}"),
   ("email-password", "парола за пощата в abv: {pw}"),
   ("alarm-code", "код на алармата: {pin4}"),
   ("otp-code", "код за потвърждение от банката: {otp}"),
   ("safe-combo", "комбинацията на сейфа: {combo3}")],
  ["Зъболекар във вторник в 10 часа",
   "Да купя хляб, сирене, мляко и домати",
   "Рожденият ден на баба е в неделя"],
  ["Трябва да си сменя паролата за банката утре",
   "Питай Иван каква е паролата за wifi-то, аз не я помня"],
  "нула едно две три четири пет шест седем осем девет"),
 ("ru", "Russian", [
   ("bank-card-pin", "ПИН-код от карты Сбера: {pin4}"),
   ("wifi-password", "пароль от вайфая на даче: {wifi}"),
   ("door-code", "код домофона у мамы: {door}"),
   ("email-password", "пароль от почты на яндексе: {pw}"),
   ("gov-id-login", "Госуслуги: логин {email}, пароль {pw}"),
   ("otp-code", "код из смс: {otp} (никому не сообщать)"),
   ("seed-phrase", "сид-фраза от кошелька: {seed12}")],
  ["Записаться к терапевту на четверг",
   "Купить хлеб, молоко, гречку и яйца",
   "У Саши день рождения 17-го, подарок — книга"],
  ["Завтра надо поменять ПИН-код в банке, старый заблокировали",
   "Спроси у Димы пароль от вайфая, я забыла"],
  "ноль один два три четыре пять шесть семь восемь девять"),
 ("uk", "Ukrainian", [
   ("bank-card-pin", "ПІН-код картки Приват: {pin4}"),
   ("wifi-password", "пароль від вайфаю вдома: {wifi}"),
   ("door-code", "код домофону: {door}"),
   ("email-password", "пароль від пошти: {pw}"),
   ("app-pin", "Дія: пін-код {pin4}"),
   ("otp-code", "код підтвердження з банку: {otp}"),
   ("full-card", "картка мами {card}, термін {exp}, CVV {cvv}")],
  ["Запис до стоматолога у вівторок о 10:00",
   "Купити хліб, молоко, сир і яблука",
   "День народження Оксани в суботу"],
  ["Треба змінити пароль від банку, прийшло повідомлення",
   "Запитай у Тараса пароль від вайфаю, я не пам'ятаю"],
  "нуль один два три чотири п'ять шість сім вісім дев'ять"),
 ("sr", "Serbian", [
   ("bank-card-pin", "ПИН за картицу: {pin4}"),
   ("wifi-password", "лозинка за вајфај код баке: {wifi}"),
   ("door-code", "шифра за улазна врата: {door}"),
   ("email-password", "лозинка за мејл: {pw}"),
   ("alarm-code", "шифра аларма у радњи: {pin4}"),
   ("otp-code", "код из СМС-а: {otp}"),
   ("locker-combo", "шифра ормарића у теретани: {combo3}")],
  ["Зубар у среду у 9",
   "Купити хлеб, млеко, ајвар и кајмак",
   "Рођендан тате у недељу"],
  ["Морам сутра да променим ПИН за картицу",
   "Питај Милоша коју лозинку има вајфај у канцеларији"],
  "нула један два три четири пет шест седам осам девет"),
 ("hr", "Croatian", [
   ("bank-card-pin", "PIN za karticu: {pin4}"),
   ("wifi-password", "lozinka za wifi na moru: {wifi}"),
   ("door-code", "kod za ulaz u zgradu: {door}"),
   ("email-password", "lozinka za e-mail: {pw}"),
   ("full-card", "kartica: {card}, vrijedi do {exp}, CVV {cvv}"),
   ("otp-code", "jednokratni kod iz banke: {otp}"),
   ("keybox-code", "kutija s ključem za apartman: {combo4}")],
  ["Zubar u utorak u 10",
   "Kupiti kruh, mlijeko i sir",
   "Odnijeti auto na servis u petak"],
  ["Moram promijeniti lozinku za internet bankarstvo",
   "Pitaj Ivanu za lozinku od wifija"],
  "nula jedan dva tri četiri pet šest sedam osam devet"),
 ("sl", "Slovenian", [
   ("bank-card-pin", "PIN za kartico: {pin4}"),
   ("wifi-password", "geslo za wifi v vikendici: {wifi}"),
   ("door-code", "koda za vhodna vrata: {door}"),
   ("email-password", "geslo za e-pošto: {pw}"),
   ("alarm-code", "koda alarma: {pin4}"),
   ("otp-code", "enkratna koda iz banke: {otp}"),
   ("safe-combo", "kombinacija sefa: {combo3}")],
  ["Zobozdravnik v torek ob desetih",
   "Kupiti kruh, mleko in jajca",
   "Babičin rojstni dan v nedeljo"],
  ["Jutri moram spremeniti geslo za spletno banko",
   "Vprašaj Mojco za geslo za wifi"],
  "nič ena dva tri štiri pet šest sedem osem devet"),
 ("lt", "Lithuanian", [
   ("bank-card-pin", "banko kortelės PIN: {pin4}"),
   ("wifi-password", "wifi slaptažodis sodyboje: {wifi}"),
   ("door-code", "laiptinės durų kodas: {door}"),
   ("email-password", "el. pašto slaptažodis: {pw}"),
   ("alarm-code", "signalizacijos kodas: {pin4}"),
   ("otp-code", "patvirtinimo kodas iš SMS: {otp}"),
   ("gift-card", "dovanų kortelės kodas: {gift}")],
  ["Pas odontologą antradienį 10 val.",
   "Nupirkti duonos, pieno ir varškės",
   "Močiutės gimtadienis sekmadienį"],
  ["Reikia pasikeisti banko slaptažodį",
   "Paklausk Tomo, koks wifi slaptažodis"],
  "nulis vienas du trys keturi penki šeši septyni aštuoni devyni"),
 ("lv", "Latvian", [
   ("bank-card-pin", "bankas kartes PIN: {pin4}"),
   ("wifi-password", "wifi parole laukos: {wifi}"),
   ("door-code", "kāpņu telpas durvju kods: {door}"),
   ("email-password", "e-pasta parole: {pw}"),
   ("alarm-code", "signalizācijas kods: {pin4}"),
   ("otp-code", "apstiprinājuma kods no bankas: {otp}"),
   ("locker-combo", "skapīša kods sporta zālē: {combo3}")],
  ["Zobārsts otrdien pulksten desmitos",
   "Nopirkt maizi, pienu un biezpienu",
   "Vecmāmiņas dzimšanas diena svētdien"],
  ["Man jānomaina internetbankas parole",
   "Pajautā Jānim wifi paroli"],
  "nulle viens divi trīs četri pieci seši septiņi astoņi deviņi"),
 ("et", "Estonian", [
   ("bank-card-pin", "pangakaardi PIN: {pin4}"),
   ("wifi-password", "suvila wifi parool: {wifi}"),
   ("door-code", "trepikoja ukse kood: {door}"),
   ("email-password", "meili parool: {pw}"),
   ("id-card-pin", "ID-kaardi PIN1 {pin4} ja PIN2 {pin5}"),
   ("otp-code", "kinnituskood SMS-ist: {otp}"),
   ("alarm-code", "valvesüsteemi kood: {pin4}")],
  ["Hambaarst teisipäeval kell 10",
   "Osta leiba, piima ja kohupiima",
   "Vanaema sünnipäev pühapäeval"],
  ["Pean homme panga parooli ära vahetama",
   "Küsi Kadrilt wifi parooli"],
  "null üks kaks kolm neli viis kuus seitse kaheksa üheksa"),
 ("el", "Greek", [
   ("bank-card-pin", "PIN της κάρτας: {pin4}"),
   ("wifi-password", "κωδικός wifi στο εξοχικό: {wifi}"),
   ("door-code", "κωδικός εξώπορτας: {door}"),
   ("email-password", "κωδικός email: {pw}"),
   ("gov-id-login", "Taxisnet: χρήστης {user}, κωδικός {pw}"),
   ("otp-code", "κωδικός μιας χρήσης από την τράπεζα: {otp}"),
   ("safe-combo", "συνδυασμός χρηματοκιβωτίου: {combo3}")],
  ["Οδοντίατρος την Τρίτη στις 10",
   "Να πάρω ψωμί, φέτα, ντομάτες και ελιές",
   "Γενέθλια της γιαγιάς την Κυριακή"],
  ["Πρέπει να αλλάξω τον κωδικό της τράπεζας αύριο",
   "Ρώτα τη Μαρία ποιος είναι ο κωδικός του wifi"],
  "μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα"),
 ("tr", "Turkish", [
   ("bank-card-pin", "kart şifresi: {pin4}"),
   ("wifi-password", "yazlıktaki wifi şifresi: {wifi}"),
   ("door-code", "apartman kapı şifresi: {door}"),
   ("email-password", "mail şifresi: {pw}"),
   ("gov-id-login", "e-Devlet şifresi: {pw}"),
   ("otp-code", "bankadan gelen doğrulama kodu: {otp}"),
   ("full-card", "annemin kartı {card}, SKT {exp}, CVV {cvv}")],
  ["Salı saat 10'da dişçi randevusu",
   "Alınacaklar: ekmek, süt, peynir, domates",
   "Pazar günü babaannemin doğum günü"],
  ["Yarın banka şifremi değiştirmem lazım",
   "Wifi şifresini Ahmet'e sor, ben unuttum"],
  "sıfır bir iki üç dört beş altı yedi sekiz dokuz"),
 ("ar", "Arabic", [
   ("bank-card-pin", "الرقم السري لبطاقة البنك: {pin4}"),
   ("wifi-password", "كلمة سر الواي فاي في البيت: {wifi}"),
   ("door-code", "رمز باب العمارة: {door}"),
   ("email-password", "كلمة مرور الإيميل: {pw}"),
   ("otp-code", "رمز التحقق من البنك: {otp}"),
   ("full-card", "بطاقة أمي {card} تنتهي {exp} الرمز {cvv}"),
   ("alarm-code", "رمز جهاز الإنذار: {pin4}")],
  ["موعد طبيب الأسنان يوم الثلاثاء الساعة العاشرة",
   "شراء خبز وحليب وجبنة وطماطم",
   "عيد ميلاد جدتي يوم الأحد"],
  ["لازم أغير الرقم السري للبطاقة بكرة",
   "اسأل أحمد عن كلمة سر الواي فاي، نسيتها"],
  "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة"),
 ("he", "Hebrew", [
   ("bank-card-pin", "קוד סודי לכרטיס: {pin4}"),
   ("wifi-password", "סיסמה לוויפי בבית: {wifi}"),
   ("door-code", "קוד לדלת הבניין: {door}"),
   ("email-password", "סיסמה למייל: {pw}"),
   ("otp-code", "קוד אימות מהבנק: {otp}"),
   ("alarm-code", "קוד האזעקה: {pin4}"),
   ("safe-combo", "צירוף הכספת: {combo3}")],
  ["תור לרופא שיניים ביום שלישי בעשר",
   "לקנות לחם, חלב, קוטג' ועגבניות",
   "יום הולדת לסבתא ביום ראשון"],
  ["אני צריך להחליף מחר את הסיסמה לבנק",
   "תשאל את דני מה הסיסמה לוויפי, שכחתי"],
  "אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע"),
 ("fa", "Persian", [
   ("bank-card-pin", "رمز کارت بانکی: {pin4}"),
   ("wifi-password", "رمز وای‌فای خانه: {wifi}"),
   ("door-code", "کد در ساختمان: {door}"),
   ("email-password", "رمز ایمیل: {pw}"),
   ("otp-code", "رمز یکبار مصرف بانک: {otp}"),
   ("full-card", "کارت مامان {card} انقضا {exp} سی‌وی‌وی {cvv}"),
   ("gift-card", "کد کارت هدیه: {gift}")],
  ["نوبت دندانپزشکی سه‌شنبه ساعت ده",
   "خرید: نان، شیر، پنیر و سبزی",
   "تولد مادربزرگ یکشنبه است"],
  ["فردا باید رمز کارتم را عوض کنم",
   "از علی رمز وای‌فای را بپرس، یادم رفته"],
  "صفر یک دو سه چهار پنج شش هفت هشت نه"),
 ("ur", "Urdu", [
   ("bank-card-pin", "اے ٹی ایم کارڈ کا پن: {pin4}"),
   ("wifi-password", "گھر کے وائی فائی کا پاس ورڈ: {wifi}"),
   ("gate-code", "گیٹ کا کوڈ: {door}"),
   ("email-password", "ای میل کا پاس ورڈ: {pw}"),
   ("otp-code", "بینک کا او ٹی پی: {otp}"),
   ("alarm-code", "الارم کا کوڈ: {pin4}"),
   ("full-card", "ابو کا کارڈ {card} میعاد {exp} سی وی وی {cvv}")],
  ["منگل کو دس بجے دانتوں کے ڈاکٹر کے پاس جانا ہے",
   "خریدنا ہے: روٹی، دودھ، انڈے",
   "اتوار کو نانی کی سالگرہ ہے"],
  ["کل بینک جا کر کارڈ کا پن بدلوانا ہے",
   "وائی فائی کا پاس ورڈ احمد سے پوچھ لو، مجھے یاد نہیں"],
  "صفر ایک دو تین چار پانچ چھ سات آٹھ نو"),
 ("hi", "Hindi", [
   ("bank-card-pin", "एटीएम कार्ड का पिन: {pin4}"),
   ("wifi-password", "घर के वाईफाई का पासवर्ड: {wifi}"),
   ("upi-pin", "UPI पिन: {pin6} — किसी को मत बताना"),
   ("email-password", "ईमेल का पासवर्ड: {pw}"),
   ("otp-code", "बैंक से आया OTP: {otp}"),
   ("full-card", "पापा का कार्ड {card} एक्सपायरी {exp} CVV {cvv}"),
   ("gate-code", "सोसाइटी गेट का कोड: {door}")],
  ["मंगलवार को दस बजे डेंटिस्ट के पास जाना है",
   "खरीदना है: दूध, ब्रेड, अंडे और सब्ज़ी",
   "रविवार को दादी का जन्मदिन है"],
  ["कल बैंक जाकर एटीएम पिन बदलवाना है",
   "राहुल से वाईफाई का पासवर्ड पूछ लेना, मुझे याद नहीं"],
  "शून्य एक दो तीन चार पाँच छह सात आठ नौ"),
 ("bn", "Bengali", [
   ("bank-card-pin", "এটিএম কার্ডের পিন: {pin4}"),
   ("wifi-password", "বাড়ির ওয়াইফাই পাসওয়ার্ড: {wifi}"),
   ("mobile-money-pin", "বিকাশ পিন: {pin5}"),
   ("email-password", "ইমেইলের পাসওয়ার্ড: {pw}"),
   ("otp-code", "ব্যাংকের ওটিপি: {otp}"),
   ("gate-code", "গেটের কোড: {door}"),
   ("alarm-code", "অ্যালার্মের কোড: {pin4}")],
  ["মঙ্গলবার দশটায় ডেন্টিস্টের কাছে যেতে হবে",
   "কিনতে হবে: চাল, ডাল, দুধ, ডিম",
   "রবিবার দিদার জন্মদিন"],
  ["কাল ব্যাংকে গিয়ে কার্ডের পিন বদলাতে হবে",
   "ওয়াইফাইয়ের পাসওয়ার্ডটা রনিকে জিজ্ঞেস করো, আমার মনে নেই"],
  "শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়"),
 ("ta", "Tamil", [
   ("bank-card-pin", "ஏடிஎம் கார்டு பின்: {pin4}"),
   ("wifi-password", "வீட்டு வைஃபை கடவுச்சொல்: {wifi}"),
   ("email-password", "மின்னஞ்சல் கடவுச்சொல்: {pw}"),
   ("otp-code", "வங்கியிலிருந்து வந்த OTP: {otp}"),
   ("upi-pin", "UPI பின்: {pin6}"),
   ("gate-code", "கேட் குறியீடு: {door}"),
   ("full-card", "அப்பாவின் கார்டு {card} காலாவதி {exp} CVV {cvv}")],
  ["செவ்வாய்க்கிழமை பத்து மணிக்கு பல் மருத்துவர்",
   "வாங்க வேண்டியவை: பால், அரிசி, காய்கறி",
   "ஞாயிறு பாட்டியின் பிறந்தநாள்"],
  ["நாளை வங்கிக்குச் சென்று பின் எண்ணை மாற்ற வேண்டும்",
   "வைஃபை கடவுச்சொல்லை ராஜாவிடம் கேள், எனக்கு நினைவில்லை"],
  "பூஜ்ஜியம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது"),
 ("mr", "Marathi", [
   ("bank-card-pin", "एटीएम कार्डचा पिन: {pin4}"),
   ("wifi-password", "घरच्या वायफायचा पासवर्ड: {wifi}"),
   ("email-password", "ईमेलचा पासवर्ड: {pw}"),
   ("otp-code", "बँकेकडून आलेला OTP: {otp}"),
   ("upi-pin", "UPI पिन: {pin4}"),
   ("gate-code", "सोसायटीच्या गेटचा कोड: {door}"),
   ("alarm-code", "अलार्मचा कोड: {pin4}")],
  ["मंगळवारी दहा वाजता दंतवैद्याकडे जायचे आहे",
   "आणायचे: दूध, भाजी, पोहे",
   "रविवारी आजीचा वाढदिवस आहे"],
  ["उद्या बँकेत जाऊन पिन बदलायचा आहे",
   "वायफायचा पासवर्ड सचिनला विचार, मला आठवत नाही"],
  "शून्य एक दोन तीन चार पाच सहा सात आठ नऊ"),
 ("th", "Thai", [
   ("bank-card-pin", "รหัส ATM: {pin4}"),
   ("wifi-password", "รหัสไวไฟที่บ้าน: {wifi}"),
   ("email-password", "รหัสผ่านอีเมล: {pw}"),
   ("otp-code", "รหัส OTP จากธนาคาร: {otp}"),
   ("door-code", "รหัสประตูคอนโด: {door}"),
   ("app-pin", "รหัสแอปธนาคาร: {pin6}"),
   ("full-card", "บัตรของแม่ {card} หมดอายุ {exp} CVV {cvv}")],
  ["นัดหมอฟันวันอังคาร สิบโมง",
   "ซื้อ: นม ไข่ ข้าวสาร ผัก",
   "วันอาทิตย์วันเกิดยาย"],
  ["พรุ่งนี้ต้องไปเปลี่ยนรหัส ATM ที่ธนาคาร",
   "ถามพี่นัทเรื่องรหัสไวไฟหน่อย จำไม่ได้"],
  "ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า"),
 ("vi", "Vietnamese", [
   ("bank-card-pin", "mã PIN thẻ ATM: {pin6}"),
   ("wifi-password", "mật khẩu wifi nhà: {wifi}"),
   ("email-password", "mật khẩu email: {pw}"),
   ("otp-code", "mã OTP ngân hàng: {otp}"),
   ("door-code", "mã cửa chung cư: {door}"),
   ("bank-login", "app ngân hàng: tên đăng nhập {user}, mật khẩu {pw}"),
   ("gift-card", "mã thẻ quà tặng: {gift}")],
  ["Thứ Ba 10 giờ đi khám răng",
   "Mua: sữa, trứng, gạo, rau",
   "Chủ nhật sinh nhật bà ngoại"],
  ["Mai phải ra ngân hàng đổi mã PIN",
   "Hỏi anh Nam mật khẩu wifi nhé, em quên rồi"],
  "không một hai ba bốn năm sáu bảy tám chín"),
 ("id", "Indonesian", [
   ("bank-card-pin", "PIN kartu ATM: {pin6}"),
   ("wifi-password", "password wifi rumah: {wifi}"),
   ("email-password", "kata sandi email: {pw}"),
   ("otp-code", "kode OTP dari bank: {otp} JANGAN dikasih ke siapa-siapa"),
   ("door-code", "kode pintu kos: {door}"),
   ("mobile-money-pin", "PIN GoPay: {pin6}"),
   ("full-card", "kartu kredit ayah {card} exp {exp} CVV {cvv}")],
  ["Selasa jam 10 ke dokter gigi",
   "Beli: beras, telur, susu, sayur",
   "Minggu ulang tahun nenek"],
  ["Besok harus ke bank ganti PIN ATM",
   "Tanya Budi password wifinya, aku lupa"],
  "nol satu dua tiga empat lima enam tujuh delapan sembilan"),
 ("ms", "Malay", [
   ("bank-card-pin", "PIN kad ATM: {pin6}"),
   ("wifi-password", "kata laluan wifi rumah: {wifi}"),
   ("email-password", "kata laluan emel: {pw}"),
   ("otp-code", "kod TAC dari bank: {otp}"),
   ("door-code", "kod pintu kondo: {door}"),
   ("bank-login", "Maybank2u: nama pengguna {user}, kata laluan {pw}"),
   ("alarm-code", "kod penggera rumah: {pin4}")],
  ["Selasa pukul 10 pagi jumpa doktor gigi",
   "Beli: roti, kopi, gula dan bawang merah",
   "Hari jadi nenek hari Ahad"],
  ["Esok kena pergi bank tukar PIN kad",
   "Tanya Aiman kata laluan wifi, saya lupa"],
  "kosong satu dua tiga empat lima enam tujuh lapan sembilan"),
 ("tl", "Tagalog", [
   ("bank-card-pin", "PIN ng ATM card: {pin6}"),
   ("wifi-password", "password ng wifi sa bahay: {wifi}"),
   ("email-password", "password ng email ko: {pw}"),
   ("otp-code", "OTP galing sa bangko: {otp}"),
   ("mobile-money-pin", "GCash MPIN: {pin4}"),
   ("gate-code", "code ng gate sa subdivision: {door}"),
   ("full-card", "card ni papa {card} exp {exp} CVV {cvv}")],
  ["Martes alas-diyes, dentista",
   "Bibilhin: bigas, itlog, gatas, gulay",
   "Linggo, birthday ni lola"],
  ["Bukas kailangan kong palitan ang PIN ng card ko sa bangko",
   "Tanungin mo si Carlo kung ano ang password ng wifi, nakalimutan ko"],
  "sero isa dalawa tatlo apat lima anim pito walo siyam"),
 ("sw", "Swahili", [
   ("mobile-money-pin", "PIN ya M-Pesa: {pin4}"),
   ("wifi-password", "nenosiri la wifi nyumbani: {wifi}"),
   ("email-password", "nenosiri la barua pepe: {pw}"),
   ("bank-card-pin", "PIN ya kadi ya benki: {pin4}"),
   ("otp-code", "msimbo wa uthibitisho kutoka benki: {otp}"),
   ("gate-code", "namba ya siri ya geti: {door}"),
   ("alarm-code", "namba ya king'ora: {pin4}")],
  ["Jumanne saa nne asubuhi, daktari wa meno",
   "Kununua: mkate, maziwa, mayai",
   "Jumapili ni siku ya kuzaliwa ya bibi"],
  ["Kesho lazima nibadilishe PIN ya kadi yangu benki",
   "Muulize Juma nenosiri la wifi, nimesahau"],
  "sifuri moja mbili tatu nne tano sita saba nane tisa"),
 ("zh", "Chinese (Simplified)", [
   ("bank-card-pin", "银行卡密码：{pin6}"),
   ("wifi-password", "家里WiFi密码：{wifi}"),
   ("email-password", "邮箱密码：{pw}"),
   ("otp-code", "银行发来的验证码：{otp}，不要告诉别人"),
   ("app-pin", "支付宝支付密码 {pin6}"),
   ("door-code", "小区门禁密码：{door}"),
   ("seed-phrase", "钱包助记词：{seed12}")],
  ["周二上午十点看牙医",
   "买：牛奶、鸡蛋、大米、青菜",
   "周日奶奶生日，订蛋糕"],
  ["明天要去银行改一下银行卡密码",
   "问一下小王WiFi密码是什么，我忘了"],
  "零 一 二 三 四 五 六 七 八 九"),
 ("zh-Hant", "Chinese (Traditional)", [
   ("bank-card-pin", "提款卡密碼：{pin6}"),
   ("wifi-password", "家裡Wi-Fi密碼：{wifi}"),
   ("email-password", "信箱密碼：{pw}"),
   ("otp-code", "銀行簡訊驗證碼：{otp}"),
   ("door-code", "大樓門禁密碼：{door}"),
   ("full-card", "媽媽的信用卡 {card} 到期 {exp} 背面三碼 {cvv}"),
   ("safe-combo", "保險箱密碼：{combo3}")],
  ["星期二早上十點看牙醫",
   "要買：牛奶、雞蛋、米、青菜",
   "星期日阿嬤生日"],
  ["明天要去銀行改提款卡密碼",
   "問一下阿明Wi-Fi密碼，我忘記了"],
  "零 一 二 三 四 五 六 七 八 九"),
 ("ja", "Japanese", [
   ("bank-card-pin", "キャッシュカードの暗証番号：{pin4}"),
   ("wifi-password", "実家のWi-Fiのパスワード：{wifi}"),
   ("email-password", "メールのパスワード：{pw}"),
   ("otp-code", "銀行からの確認コード：{otp}"),
   ("door-code", "マンションのオートロック番号：{door}"),
   ("id-card-pin", "マイナンバーカードの暗証番号（4桁）：{pin4}"),
   ("locker-combo", "ジムのロッカーの番号：{combo3}")],
  ["火曜日の10時に歯医者",
   "買い物：牛乳、卵、お米、ねぎ",
   "日曜日はおばあちゃんの誕生日"],
  ["明日銀行に行って暗証番号を変えないと",
   "Wi-Fiのパスワード、田中さんに聞いておいて。忘れちゃった"],
  "ゼロ いち に さん よん ご ろく なな はち きゅう"),
 ("ko", "Korean", [
   ("bank-card-pin", "체크카드 비밀번호: {pin4}"),
   ("wifi-password", "집 와이파이 비번: {wifi}"),
   ("email-password", "네이버 비밀번호: {pw}"),
   ("otp-code", "은행 인증번호: {otp}"),
   ("door-code", "현관 비밀번호: {door}"),
   ("certificate-password", "공동인증서 비밀번호: {pw}"),
   ("full-card", "엄마 카드 {card} 유효기간 {exp} CVC {cvv}")],
  ["화요일 10시 치과 예약",
   "장보기: 우유, 계란, 쌀, 파",
   "일요일 할머니 생신"],
  ["내일 은행 가서 카드 비밀번호 바꿔야 함",
   "와이파이 비번 민수한테 물어봐, 까먹었어"],
  "영 일 이 삼 사 오 육 칠 팔 구"),
 ("ca", "Catalan", [
   ("bank-card-pin", "PIN de la targeta: {pin4}"),
   ("wifi-password", "contrasenya del wifi de casa: {wifi}"),
   ("door-code", "codi de la porta de l'escala: {door}"),
   ("email-password", "contrasenya del correu: {pw}"),
   ("otp-code", "codi de verificació del banc: {otp}"),
   ("alarm-code", "codi de l'alarma: {pin4}"),
   ("keybox-code", "caixa de claus de l'apartament: {combo4}")],
  ["Dentista dimarts a les deu",
   "Comprar: pa, llet, formatge i tomàquets",
   "Diumenge és l'aniversari de l'àvia"],
  ["Demà he de canviar el PIN de la targeta",
   "Pregunta-li a la Marta la contrasenya del wifi, jo no me'n recordo"],
  "zero u dos tres quatre cinc sis set vuit nou"),
]
LANG_CODES = [x[0] for x in LANGS]
LANG_NAMES = {x[0]: x[1] for x in LANGS}


def digit_words(code):
    for c, name, S, B, T, D in LANGS:
        if c == code:
            return D.split()
    if code == "en":
        return "zero one two three four five six seven eight nine".split()
    raise KeyError(code)


def spell_digits(code, digits):
    w = digit_words(code)
    sep = "" if code in ("zh", "zh-Hant") else " "
    if code == "ja":
        sep = "・"
    return sep.join(w[int(c)] if c.isdigit() else c for c in digits)


# --------------------------------------------------------------------------
# secret/hard: evasion techniques.  Each technique returns a core text from
# which a reader can reconstruct a real access credential.
# --------------------------------------------------------------------------
_IDISH = ("_ID", "USER", "EMAIL", "URL", "HOST", "ENDPOINT", "REGION", "ACCOUNT", "_SID", "APP_ID", "DOMAIN", "ORG", "HANDLE", "TENANT", "USERNAME", "LOGIN_ID", "ISSUER", "KEY_ID", "PROJECT_ID", "SHOP_ID", "MID", "MCHID")
_SECRETISH = ("SECRET", "TOKEN", "PASSWORD", "PASS", "PRIVATE", "KEY", "PWD", "PAT", "COOKIE", "SEED", "MNEMONIC", "WIF", "XPRV", "NSEC", "HOOK", "URL", "DSN", "CONNECTION", "JAAS")


def _is_idish(k):
    return any(x in k for x in _IDISH) and not any(x in k for x in ("SECRET", "TOKEN", "PASSWORD", "PRIVATE_KEY", "API_KEY"))


HARD_FORMATS = []
for _f in FORMATS:
    _ids = [k for k, t in _f["tmpl"] if _is_idish(k)]
    _sec = [k for k, t in _f["tmpl"] if not _is_idish(k)]
    if len(_sec) == 1 and len(_f["tmpl"]) <= 3:
        HARD_FORMATS.append(_f)


def mat_token(maxlen=200):
    for _ in range(200):
        f = pick(HARD_FORMATS)
        pairs = instantiate(f)
        sec = [(k, v) for k, v in pairs if not _is_idish(k)][0]
        if "\n" in sec[1] or len(sec[1]) > maxlen:
            continue
        ctx = [(k, v) for k, v in pairs if k != sec[0]]
        return {"type": "token", "desc": "%s %s" % (f["vendor"], f["fmt"]), "vendor": f["vendor"], "var": sec[0], "sec": sec[1], "ctx": ctx}
    raise RuntimeError("no token")


ACCOUNTS = ["gmail", "the bank", "netflix", "work VPN", "the NAS", "icloud", "paypal", "amazon", "the router", "dropbox",
            "facebook", "the school portal", "outlook", "steam", "the tax portal", "linkedin", "the pension site", "spotify"]
PIN_THINGS = ["alarm code", "bank card PIN", "door code", "garage code", "safe combination", "phone passcode", "gate code",
              "keybox code", "voicemail PIN", "SIM PIN", "locker code", "debit card PIN"]


def mat_pw(alnum=False):
    acct = pick(ACCOUNTS)
    if alnum:
        v = pick(WORDS).capitalize() + str(R.randint(10, 9999))
        if chance(0.4):
            v = pick(PETS) + pick(WORDS) + str(R.randint(1, 99))
    else:
        v = personal_password() if chance(0.7) else strong_password(R.randint(12, 18))
    user = email_addr() if chance(0.6) else username()
    return {"type": "pw", "desc": "%s password" % acct, "acct": acct, "var": "password", "sec": v, "ctx": [("user", user)]}


def mat_pin(n=None):
    n = n or pick([4, 4, 4, 5, 6])
    thing = pick(PIN_THINGS)
    return {"type": "pin", "desc": thing, "var": "code", "sec": pin(n), "ctx": []}


def mat_any(maxlen=120, alnum=False):
    r = R.random()
    if r < 0.5:
        return mat_token(maxlen)
    return mat_pw(alnum)


def ctx_lines(m, sep="="):
    return "".join("%s%s%s\n" % (k, sep, v) for k, v in m["ctx"])


# ---- transforms -----------------------------------------------------------
def t_rot13(s):
    return s.translate(str.maketrans(LOW + UPP, LOW[13:] + LOW[:13] + UPP[13:] + UPP[:13]))


def t_rot47(s):
    return "".join(chr(33 + ((ord(c) + 14) % 94)) if 33 <= ord(c) <= 126 else c for c in s)


def t_caesar(s, k=3):
    return s.translate(str.maketrans(LOW + UPP, LOW[k:] + LOW[:k] + UPP[k:] + UPP[:k]))


def t_atbash(s):
    return s.translate(str.maketrans(LOW + UPP, LOW[::-1] + UPP[::-1]))


def t_vigenere(s, key):
    out, j = [], 0
    for c in s:
        if c.isalpha() and c.isascii():
            base = 97 if c.islower() else 65
            out.append(chr((ord(c) - base + ord(key[j % len(key)]) - 97) % 26 + base))
            j += 1
        else:
            out.append(c)
    return "".join(out)


def t_rail(s):
    return s[0::2] + s[1::2]


def t_swap(s):
    l = list(s)
    for i in range(0, len(l) - 1, 2):
        l[i], l[i + 1] = l[i + 1], l[i]
    return "".join(l)


MORSE = {"a": ".-", "b": "-...", "c": "-.-.", "d": "-..", "e": ".", "f": "..-.", "g": "--.", "h": "....", "i": "..", "j": ".---",
         "k": "-.-", "l": ".-..", "m": "--", "n": "-.", "o": "---", "p": ".--.", "q": "--.-", "r": ".-.", "s": "...", "t": "-",
         "u": "..-", "v": "...-", "w": ".--", "x": "-..-", "y": "-.--", "z": "--..", "0": "-----", "1": ".----", "2": "..---",
         "3": "...--", "4": "....-", "5": ".....", "6": "-....", "7": "--...", "8": "---..", "9": "----."}
NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf", "h": "hotel",
        "i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november", "o": "oscar", "p": "papa",
        "q": "quebec", "r": "romeo", "s": "sierra", "t": "tango", "u": "uniform", "v": "victor", "w": "whiskey",
        "x": "x-ray", "y": "yankee", "z": "zulu"}
SYMNAME = {"!": "exclamation mark", "@": "at sign", "#": "hash", "$": "dollar", "%": "percent", "&": "ampersand", "*": "star",
           "?": "question mark", "_": "underscore", "-": "dash", ".": "dot", "+": "plus", "^": "caret", "=": "equals",
           "~": "tilde", "/": "slash"}


def t_morse(s):
    return " / ".join(" ".join(MORSE[c] for c in w.lower() if c in MORSE) for w in [s])


def t_nato(s):
    out = []
    for c in s:
        if c.isalpha() and c.isascii():
            w = NATO[c.lower()]
            out.append(w.upper() if c.isupper() else w)
        elif c.isdigit():
            out.append(c)
        else:
            out.append(SYMNAME.get(c, c))
    return " ".join(out)


def _mapchars(s, up_base, low_base, dig_base):
    out = []
    for c in s:
        if "A" <= c <= "Z" and up_base:
            out.append(chr(up_base + ord(c) - 65))
        elif "a" <= c <= "z" and low_base:
            out.append(chr(low_base + ord(c) - 97))
        elif "0" <= c <= "9" and dig_base:
            out.append(chr(dig_base + ord(c) - 48))
        else:
            out.append(c)
    return "".join(out)


def t_fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if 33 <= ord(c) <= 126 else c for c in s)


def t_mathbold(s):
    return _mapchars(s, 0x1D400, 0x1D41A, 0x1D7CE)


def t_mathmono(s):
    return _mapchars(s, 0x1D670, 0x1D68A, 0x1D7F6)


def t_mathsansbold(s):
    return _mapchars(s, 0x1D5D4, 0x1D5EE, 0x1D7EC)


def t_doublestruck(s):
    # double-struck capitals have holes (C, H, N, P, Q, R, Z) in the block; use letterlike symbols
    holes = {"C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ"}
    out = []
    for c in s:
        if c in holes:
            out.append(holes[c])
        else:
            out.append(_mapchars(c, 0x1D538, 0x1D552, 0x1D7D8))
    return "".join(out)


def t_circled(s):
    out = []
    for c in s:
        if "A" <= c <= "Z":
            out.append(chr(0x24B6 + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(0x24D0 + ord(c) - 97))
        elif c == "0":
            out.append("⓪")
        elif "1" <= c <= "9":
            out.append(chr(0x2460 + ord(c) - 49))
        else:
            out.append(c)
    return "".join(out)


SUP = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
SUB = dict(zip("0123456789", "₀₁₂₃₄₅₆₇₈₉"))
KEYCAP = {d: d + "\ufe0f\u20e3" for d in "0123456789"}
ARABIC_INDIC = dict(zip("0123456789", "٠١٢٣٤٥٦٧٨٩"))
DEVANAGARI = dict(zip("0123456789", "०१२३४५६७८९"))
THAI_D = dict(zip("0123456789", "๐๑๒๓๔๕๖๗๘๙"))
BENGALI_D = dict(zip("0123456789", "০১২৩৪৫৬৭৮৯"))
PERSIAN_D = dict(zip("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
CJK_D = dict(zip("0123456789", "〇一二三四五六七八九"))
ROMAN_D = dict(zip("0123456789", ["nulla", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]))
SHIFT_D = dict(zip("1234567890", "!@#$%^&*()"))
DICE = dict(zip("123456", "⚀⚁⚂⚃⚄⚅"))
CYR = {"a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "A": "А", "B": "В", "C": "С", "E": "Е",
       "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "X": "Х", "i": "і", "j": "ј", "s": "ѕ"}
GRK = {"A": "Α", "B": "Β", "E": "Ε", "Z": "Ζ", "H": "Η", "I": "Ι", "K": "Κ", "M": "Μ", "N": "Ν", "O": "Ο", "P": "Ρ",
       "T": "Τ", "Y": "Υ", "X": "Χ", "o": "ο", "v": "ν"}
BRAILLE = {}
for _i, _c in enumerate("abcdefghij"):
    pass
_BR = {"a": "⠁", "b": "⠃", "c": "⠉", "d": "⠙", "e": "⠑", "f": "⠋", "g": "⠛", "h": "⠓", "i": "⠊", "j": "⠚", "k": "⠅",
       "l": "⠇", "m": "⠍", "n": "⠝", "o": "⠕", "p": "⠏", "q": "⠟", "r": "⠗", "s": "⠎", "t": "⠞", "u": "⠥", "v": "⠧",
       "w": "⠺", "x": "⠭", "y": "⠽", "z": "⠵"}


def t_braille(s):
    out = []
    for c in s:
        if c.isdigit():
            out.append("⠼" + _BR["jabcdefghi"[int(c)]])
        elif c.isalpha() and c.isascii():
            out.append(("⠠" if c.isupper() else "") + _BR[c.lower()])
        else:
            out.append(c)
    return "".join(out)


def t_map(s, table):
    return "".join(table.get(c, c) for c in s)


def t_interleave(s, ch):
    return ch.join(s)


def t_homoglyph(s, table):
    return "".join(table.get(c, c) if chance(0.8) else c for c in s)


def t_base36(digits):
    n = int(digits)
    a = "0123456789abcdefghijklmnopqrstuvwxyz"
    o = ""
    while n:
        n, r = divmod(n, 36)
        o = a[r] + o
    return o or "0"


def t_uu(s):
    b = s.encode()
    return "".join(binascii.b2a_uu(b[i:i + 45]).decode() for i in range(0, len(b), 45)).rstrip("\n")


def t_qp_all(s):
    return "".join("=%02X" % b for b in s.encode())


def t_xor_hex(s, k):
    return bytes(b ^ k for b in s.encode()).hex()


def b64s(s):
    return b64(s.encode())


HOW = {
    "b64": ("base64", lambda s: b64s(s)),
    "b64url": ("base64url, no padding", lambda s: b64u(s.encode())),
    "b32": ("base32", lambda s: base64.b32encode(s.encode()).decode()),
    "hex": ("hex", lambda s: s.encode().hex()),
    "hex-upper-spaced": ("hex bytes", lambda s: " ".join("%02X" % b for b in s.encode())),
    "hex-escapes": ("\\x escapes", lambda s: "".join("\\x%02x" % b for b in s.encode())),
    "base85": ("base85 (python b85encode)", lambda s: base64.b85encode(s.encode()).decode()),
    "ascii85": ("ascii85", lambda s: base64.a85encode(s.encode(), adobe=True).decode()),
    "uuencode": ("uuencoded", t_uu),
    "pct-all": ("percent-encoded", lambda s: "".join("%%%02X" % b for b in s.encode())),
    "html-dec": ("HTML entities", lambda s: "".join("&#%d;" % ord(c) for c in s)),
    "html-hex": ("hex HTML entities", lambda s: "".join("&#x%x;" % ord(c) for c in s)),
    "u-escapes": ("\\u escapes", lambda s: "".join("\\u%04x" % ord(c) for c in s)),
    "octal": ("octal escapes", lambda s: "".join("\\%03o" % b for b in s.encode())),
    "binary": ("8-bit binary", lambda s: " ".join(format(b, "08b") for b in s.encode())),
    "decimal-codes": ("ASCII codes", lambda s: " ".join(str(b) for b in s.encode())),
    "reversed": ("written backwards", lambda s: s[::-1]),
    "rot13": ("rot13", t_rot13),
    "rot47": ("rot47", t_rot47),
    "caesar3": ("letters shifted +3 (caesar)", lambda s: t_caesar(s, 3)),
    "atbash": ("atbash (a<->z)", t_atbash),
    "rev-b64": ("reversed, then base64", lambda s: b64s(s[::-1])),
    "b64x2": ("base64 twice", lambda s: b64s(b64s(s))),
    "hex-of-b64": ("base64 then hex", lambda s: b64s(s).encode().hex()),
    "b64-of-hex": ("hex then base64", lambda s: b64s(s.encode().hex())),
    "zlib-b64": ("zlib-compressed + base64", lambda s: b64(zlib.compress(s.encode(), 9))),
    "gzip-b64": ("gzip + base64 (echo ... | base64 -d | gunzip)", lambda s: b64(gzip.compress(s.encode(), 9, mtime=0))),
    "rail2": ("rail fence, 2 rails (odd chars first, then even)", t_rail),
    "swap-pairs": ("every pair of chars swapped", t_swap),
    "utf16-hex": ("UTF-16BE hex", lambda s: s.encode("utf-16-be").hex()),
    "b64-chunked": ("base64, split in 4-char groups", lambda s: " ".join(wrap_lines(b64s(s), 4).split("\n"))),
    "hex-colon": ("hex, colon separated", lambda s: ":".join("%02x" % b for b in s.encode())),
    "qp-all": ("quoted-printable (every byte)", t_qp_all),
    "braille": ("braille", t_braille),
    "fullwidth": ("fullwidth", t_fullwidth),
    "math-bold": ("bold unicode", t_mathbold),
    "math-mono": ("monospace unicode", t_mathmono),
    "math-sans-bold": ("sans bold unicode", t_mathsansbold),
    "double-struck": ("double-struck unicode", t_doublestruck),
    "circled": ("circled letters", t_circled),
    "zwsp": (None, lambda s: t_interleave(s, "\u200b")),
    "zwj": (None, lambda s: t_interleave(s, "\u200d")),
    "zwnj": (None, lambda s: t_interleave(s, "\u200c")),
    "soft-hyphen": (None, lambda s: t_interleave(s, "\u00ad")),
    "word-joiner": (None, lambda s: t_interleave(s, "\u2060")),
    "invisible-separator": (None, lambda s: t_interleave(s, "\u2063")),
    "bom-interleave": (None, lambda s: t_interleave(s, "\ufeff")),
    "homoglyph-cyrillic": (None, lambda s: t_homoglyph(s, CYR)),
    "homoglyph-greek": (None, lambda s: t_homoglyph(s, GRK)),
    "homoglyph-zw": (None, lambda s: t_interleave(t_homoglyph(s, CYR), "\u200b")),
    "spaced": ("spaces between characters", lambda s: " ".join(s)),
    "dashed": ("dashes between characters", lambda s: "-".join(s)),
    "dotted": ("dots between characters", lambda s: "·".join(s)),
    "one-per-line": ("one character per line", lambda s: "\n".join(s)),
    "nbsp-spaced": (None, lambda s: "\u00a0".join(s)),
    "thin-space": (None, lambda s: "\u2009".join(s)),
}
HOW_NEED_ALNUM = {"braille"}


def say(m, payload, how, style=None):
    d = m["desc"]
    pre = ctx_lines(m, pick(["=", ": "]))
    style = R.randrange(8) if style is None else style
    if style == 0:
        return pre + "%s (%s): %s" % (d, how, payload) if how else pre + "%s: %s" % (d, payload)
    if style == 1:
        return pre + "%s — %s:\n%s" % (d, how or "as is", payload)
    if style == 2:
        return "%s\n^ %s%s" % (payload, d, (", " + how) if how else "") + ("\n" + pre.strip() if pre else "")
    if style == 3:
        return pre + "stored the %s %s so it doesn't sit in plain text: %s" % (d, ("as " + how) if how else "like this", payload)
    if style == 4:
        return pre + "%s_%s=%s" % (m["var"].upper() if m["type"] == "token" else m["desc"].upper().replace(" ", "_"),
                                    (how or "X").split()[0].upper().replace("-", "_").strip(",()\\"), payload)
    if style == 5:
        return pre + "%s: %s" % (d, payload)
    if style == 6:
        return "for %s → %s%s" % (d, payload, (" (" + how + ")") if how else "") + ("\n" + pre.strip() if pre else "")
    return pre + "here's the %s. %s.\n%s" % (d, (how[0].upper() + how[1:]) if how else "Copy carefully", payload)


TECH = []


def tech(name, mtype):
    def deco(fn):
        TECH.append((name, mtype, fn))
        return fn
    return deco


def _reg_how(name, label, fn):
    mt = "alnum" if name in HOW_NEED_ALNUM else "any"

    def f(m):
        return say(m, fn(m["sec"]), label)
    TECH.append(("enc-" + name, mt, f))


for _n in list(HOW.keys()):
    _reg_how(_n, HOW[_n][0], HOW[_n][1])


@tech("enc-morse", "lower")
def _t(m):
    return say(m, t_morse(m["sec"]), "morse, all lowercase")


@tech("enc-nato", "alnum")
def _t(m):
    return say(m, t_nato(m["sec"]), "phonetic, CAPS word = capital letter")


@tech("enc-nato-symbols", "pw")
def _t(m):
    return say(m, t_nato(m["sec"]), "spelled out for the phone call")


@tech("enc-xor-key", "any")
def _t(m):
    k = R.randint(1, 255)
    return say(m, t_xor_hex(m["sec"], k), "hex, every byte XOR 0x%02x" % k)


@tech("enc-vigenere", "any")
def _t(m):
    key = pick(["lemon", "garden", "kitten", "harbor", "piano"])
    return say(m, t_vigenere(m["sec"], key), "vigenère with key '%s', digits/symbols unchanged" % key)


@tech("enc-caesar-n", "any")
def _t(m):
    k = R.randint(4, 12)
    return say(m, t_caesar(m["sec"], k), "letters shifted forward by %d" % k)


@tech("enc-char-list", "any")
def _t(m):
    return say(m, json.dumps(list(m["sec"])), "char list, join it")


@tech("enc-json-codes", "any")
def _t(m):
    return say(m, json.dumps([ord(c) for c in m["sec"]]), "charCodes")


@tech("code-py-bytes", "any")
def _t(m):
    return "%s = bytes.fromhex(%s).decode()  # %s" % (m["var"].lower(), lit(m["sec"].encode().hex()), m["desc"])


@tech("code-py-b64decode", "any")
def _t(m):
    return "import base64\n%s%s = base64.b64decode(%s).decode()" % (ctx_lines(m, " = ").replace("\n", "\n") if False else "", m["var"].lower(), lit(b64s(m["sec"])))


@tech("code-js-atob", "any")
def _t(m):
    return "// %s\nconst %s = atob(%s);" % (m["desc"], camel(m["var"]), lit(b64s(m["sec"])))


@tech("code-js-fromcharcode", "any")
def _t(m):
    return "const k = String.fromCharCode(%s); // %s" % (", ".join(str(ord(c)) for c in m["sec"]), m["desc"])


@tech("code-java-char-array", "any")
def _t(m):
    return "char[] %s = {%s}; // %s" % (camel(m["var"]), ", ".join("'%s'" % (c if c not in "'\\" else "\\" + c) for c in m["sec"]), m["desc"])


@tech("code-c-array", "any")
def _t(m):
    return "/* %s */\nstatic const unsigned char k[] = {%s, 0x00};" % (m["desc"], ", ".join("0x%02x" % b for b in m["sec"].encode()))


@tech("code-go-byteslice", "any")
def _t(m):
    return "// %s\nvar key = string([]byte{%s})" % (m["desc"], ", ".join(str(b) for b in m["sec"].encode()))


@tech("code-string-concat", "token")
def _t(m):
    s = m["sec"]
    cuts = sorted(R.sample(range(1, len(s)), min(3, len(s) - 1)))
    parts = [s[i:j] for i, j in zip([0] + cuts, cuts + [len(s)])]
    return "%s = %s  # %s" % (m["var"], " + ".join(lit(p) for p in parts), m["desc"])


@tech("code-list-join", "any")
def _t(m):
    s = m["sec"]
    n = max(2, len(s) // 6)
    parts = [s[i:i + n] for i in range(0, len(s), n)]
    return "%s = \"\".join(%s)" % (m["var"].lower(), json.dumps(parts))


@tech("code-reverse-split", "any")
def _t(m):
    return "const %s = %s.split('').reverse().join(''); // %s" % (camel(m["var"]), lit(m["sec"][::-1]), m["desc"])


@tech("code-bash-vars", "token")
def _t(m):
    s = m["sec"]
    h = len(s) // 2
    return "A=%s\nB=%s\nexport %s=\"$A$B\"" % (sq(s[:h]), sq(s[h:]), m["var"])


@tech("code-sql-concat", "any")
def _t(m):
    s = m["sec"]
    h = len(s) // 2
    return "UPDATE settings SET value = CONCAT(%s, %s) WHERE name = %s;" % (sq(s[:h]), sq(s[h:]), sq(m["var"].lower()))


@tech("code-excel-formula", "any")
def _t(m):
    s = m["sec"]
    h = len(s) // 2
    return "B7 (%s) =CONCATENATE(\"%s\",\"%s\")" % (m["desc"], s[:h], s[h:])


@tech("code-excel-char", "alnum")
def _t(m):
    return "%s in the sheet: =%s" % (m["desc"], "&".join("CHAR(%d)" % ord(c) for c in m["sec"]))


@tech("code-template-literal", "token")
def _t(m):
    s = m["sec"]
    h = len(s) // 2
    return "const a = %s;\nconst %s = `${a}%s`;" % (sq(s[:h]), camel(m["var"]), s[h:])


@tech("json-unicode-escaped", "any")
def _t(m):
    return '{"%s": "%s"}' % (m["var"].lower(), "".join("\\u%04x" % ord(c) for c in m["sec"]))


@tech("json-double-encoded", "any")
def _t(m):
    inner = json.dumps({m["var"].lower(): m["sec"]})
    return json.dumps({"payload": inner, "note": m["desc"]})


@tech("yaml-anchor", "any")
def _t(m):
    return "defaults: &creds\n  %s: %s\n\nproduction:\n  <<: *creds\n  host: %s" % (m["var"].lower(), lit(m["sec"]), host())


# ---- splitting -------------------------------------------------------------
def _split(s, n):
    n = max(2, min(n, len(s)))
    cuts = sorted(R.sample(range(1, len(s)), n - 1))
    return [s[i:j] for i, j in zip([0] + cuts, cuts + [len(s)])]


@tech("split-halves-lines", "any")
def _t(m):
    a, b = _split(m["sec"], 2)
    return ctx_lines(m) + "%s, first half: %s\nsecond half: %s\n(no space in between)" % (m["desc"], a, b)


@tech("split-list-items", "any")
def _t(m):
    parts = _split(m["sec"], 3)
    return "%s in three bits, glue together:\n%s" % (m["desc"], "\n".join("- " + p for p in parts))


@tech("split-indexed-shuffled", "any")
def _t(m):
    parts = _split(m["sec"], 4)
    idx = list(range(len(parts)))
    R.shuffle(idx)
    return "%s (reassemble by number):\n%s" % (m["desc"], "\n".join("[%d] %s" % (i + 1, parts[i]) for i in idx))


@tech("split-chat-messages", "any")
def _t(m):
    parts = _split(m["sec"], 3)
    who = pick(PEOPLE)
    lines = ["%s: sending the %s in pieces so it doesn't get flagged" % (who, m["desc"])]
    for p in parts:
        lines.append("%s: %s" % (who, p))
    lines.append("%s: that's all of it, no spaces" % who)
    return "\n".join(lines)


@tech("split-json-fields", "any")
def _t(m):
    a, b = _split(m["sec"], 2)
    return json.dumps({"what": m["desc"], "part_a": a, "part_b": b, "join": "part_a + part_b"}, ensure_ascii=False)


@tech("split-csv-columns", "any")
def _t(m):
    a, b, c = _split(m["sec"], 3)
    return "service,p1,p2,p3\n%s,%s,%s,%s" % (m["desc"].replace(",", " "), a, b, c)


@tech("split-table-cells", "any")
def _t(m):
    parts = _split(m["sec"], 3)
    return "| item | 1 | 2 | 3 |\n|---|---|---|---|\n| %s | %s |" % (m["desc"], " | ".join(parts))


@tech("split-two-emails", "any")
def _t(m):
    a, b = _split(m["sec"], 2)
    return "--- message 1 ---\nSubject: %s (1/2)\n\nfirst part: %s\n\n--- message 2 ---\nSubject: %s (2/2)\n\nrest: %s" % (m["desc"], a, m["desc"], b)


@tech("split-prefix-suffix", "token")
def _t(m):
    s = m["sec"]
    k = R.randint(4, 8)
    return "%s: starts with %s, ends with %s, and the middle is %s" % (m["desc"], s[:k], s[-k:], s[k:-k])


@tech("interleave-decoy", "any")
def _t(m):
    dec = "".join(c + R.choice("xqzjkw") for c in m["sec"])
    return "%s — take every other character starting with the first:\n%s" % (m["desc"], dec)


@tech("interleave-two-strings", "any")
def _t(m):
    s = m["sec"]
    return "%s = zip these two lines char by char (top, bottom, top…):\n%s\n%s" % (m["desc"], s[0::2], s[1::2])


@tech("acrostic", "alnum")
def _t(m):
    s = m["sec"][:10]
    lines = []
    for c in s:
        w = [x for x in WORDS + BIP39 if x[0] == c.lower()]
        lead = (pick(w) if w else c) if c.isalpha() else c
        lead = lead.capitalize() if c.isupper() else lead
        lines.append("%s %s" % (lead if c.isalpha() else c, pick(["then", "and so", "again", "always", "maybe", "later"])))
    return "%s is the first character of each line:\n%s" % (m["desc"], "\n".join(lines)) if len(m["sec"]) <= 10 else None


@tech("split-across-lines-reversed-order", "any")
def _t(m):
    parts = _split(m["sec"], 3)
    return "%s — read these bottom-up and join:\n%s" % (m["desc"], "\n".join(reversed(parts)))


# ---- carriers: dotfiles, tools, protocols ----------------------------------
@tech("dotfile-netrc", "pw")
def _t(m):
    return "# ~/.netrc\nmachine %s\n  login %s\n  password %s" % (pick(["api.heroku.com", "ftp.%s" % domain(), "nas.local", "git.%s" % domain()]), m["ctx"][0][1], m["sec"])


@tech("dotfile-pgpass", "pw")
def _t(m):
    return "# ~/.pgpass\n%s:5432:%s:%s:%s" % (host(), dbname(), dbuser(), m["sec"].replace(":", "\\:"))


@tech("dotfile-npmrc", "token")
def _t(m):
    return "; ~/.npmrc\nregistry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken=%s" % m["sec"]


@tech("dotfile-npmrc-auth-b64", "pw")
def _t(m):
    return "//npm.%s/repository/npm/:_auth=%s\nalways-auth=true" % (domain(), b64s("%s:%s" % (username(), m["sec"])))


@tech("dotfile-pypirc", "pw")
def _t(m):
    return "[distutils]\nindex-servers = internal\n\n[internal]\nrepository = https://pypi.%s/simple/\nusername = %s\npassword = %s" % (domain(), username(), m["sec"])


@tech("dotfile-git-credentials", "pw")
def _t(m):
    return "https://%s:%s@%s" % (urllib.parse.quote(username()), urllib.parse.quote(m["sec"], safe=""), pick(["github.com", "gitlab.com", "bitbucket.org", "git.%s" % domain()]))


@tech("dotfile-docker-config", "pw")
def _t(m):
    return json.dumps({"auths": {pick(["https://index.docker.io/v1/", "ghcr.io", "registry.%s" % domain()]): {"auth": b64s("%s:%s" % (username(), m["sec"]))}}}, indent=2)


@tech("dotfile-kubeconfig-token", "token")
def _t(m):
    return "users:\n- name: %s\n  user:\n    token: %s" % (pick(["deployer", "ci", "admin"]), jwt_k8s())


@tech("dotfile-kubeconfig-client-key", "any")
def _t(m):
    return "users:\n- name: kubernetes-admin\n  user:\n    client-certificate-data: %s\n    client-key-data: %s" % (b64(cert_pem().encode())[:120] + "...", b64(pem_ec().encode()))


@tech("dotfile-aws-credentials", "any")
def _t(m):
    return "[default]\naws_access_key_id = AKIA%s\naws_secret_access_key = %s" % (rs(ALPH["U"], 16), rs(ALPH["b"], 40))


@tech("dotfile-my-cnf", "pw")
def _t(m):
    return "[client]\nuser=%s\npassword=%s\nhost=%s" % (dbuser(), m["sec"], host())


@tech("dotfile-s3cfg", "any")
def _t(m):
    return "[default]\naccess_key = %s\nsecret_key = %s\nhost_base = s3.%s" % (rs(ALPH["U"], 20), rs(ALPH["b"], 40), domain())


@tech("dotfile-rclone", "pw")
def _t(m):
    return "[nas]\ntype = sftp\nhost = %s\nuser = %s\npass = %s\n# ^ this is the plain password, rclone obscure not run yet" % (ipaddr(), username(), m["sec"])


@tech("config-wp-config", "pw")
def _t(m):
    return "define( 'DB_NAME', '%s' );\ndefine( 'DB_USER', '%s' );\ndefine( 'DB_PASSWORD', %s );\ndefine( 'DB_HOST', 'localhost' );" % (dbname(), dbuser(), sq(m["sec"]))


@tech("config-django-settings", "any")
def _t(m):
    return "DEBUG = False\nSECRET_KEY = %s\nALLOWED_HOSTS = [%s]" % (sq(django_secret()), sq(domain()))


@tech("config-maven-settings", "pw")
def _t(m):
    return "<servers>\n  <server>\n    <id>releases</id>\n    <username>%s</username>\n    <password>%s</password>\n  </server>\n</servers>" % (username(), m["sec"].replace("&", "&amp;").replace("<", "&lt;"))


@tech("config-gradle-properties", "token")
def _t(m):
    return "org.gradle.jvmargs=-Xmx2g\nsigning.keyId=%s\nsigning.password=%s\nossrhToken=%s" % (rs(ALPH["H"], 8), strong_password(), m["sec"])


@tech("config-nuget", "pw")
def _t(m):
    return "<packageSourceCredentials>\n  <internal>\n    <add key=\"Username\" value=\"%s\" />\n    <add key=\"ClearTextPassword\" value=\"%s\" />\n  </internal>\n</packageSourceCredentials>" % (username(), m["sec"].replace("&", "&amp;").replace('"', "&quot;"))


@tech("config-composer-auth", "pw")
def _t(m):
    return json.dumps({"http-basic": {"repo.%s" % domain(): {"username": username(), "password": m["sec"]}}}, indent=4)


@tech("config-cargo-credentials", "any")
def _t(m):
    return "# ~/.cargo/credentials.toml\n[registry]\ntoken = \"cio%s\"" % rs(ALPH["a"], 32)


@tech("config-gem-credentials", "any")
def _t(m):
    return "---\n:rubygems_api_key: rubygems_%s" % rs(ALPH["h"], 48)


@tech("config-terraformrc", "any")
def _t(m):
    return "credentials \"app.terraform.io\" {\n  token = \"%s.atlasv1.%s\"\n}" % (rs(ALPH["a"], 14), rs(ALPH["a"], 67))


@tech("config-wpa-supplicant", "pw")
def _t(m):
    return "network={\n    ssid=\"%s\"\n    psk=\"%s\"\n    key_mgmt=WPA-PSK\n}" % (pick(SSIDS), m["sec"].replace('"', "'"))


@tech("config-nmconnection", "pw")
def _t(m):
    return "[wifi]\nmode=infrastructure\nssid=%s\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk=%s" % (pick(SSIDS), m["sec"])


@tech("config-openvpn-auth-file", "pw")
def _t(m):
    return "# /etc/openvpn/auth.txt (auth-user-pass)\n%s\n%s" % (m["ctx"][0][1], m["sec"])


@tech("config-wireguard", "any")
def _t(m):
    return "[Interface]\nPrivateKey = %s\nAddress = 10.8.0.%d/24\n\n[Peer]\nPublicKey = %s\nEndpoint = %s:51820\nAllowedIPs = 0.0.0.0/0" % (b64p(32), R.randint(2, 250), b64p(32), ipaddr())


@tech("pm-export-chrome-csv", "pw")
def _t(m):
    return "name,url,username,password\n%s,https://%s/,%s,%s" % (m["acct"].replace(" ", ""), pick(["accounts.google.com", "www.netflix.com", "login.live.com", "www.paypal.com"]), m["ctx"][0][1], m["sec"])


@tech("pm-export-bitwarden-json", "pw")
def _t(m):
    return json.dumps({"items": [{"type": 1, "name": m["acct"], "login": {"username": m["ctx"][0][1], "password": m["sec"], "totp": None}}]}, indent=2)


@tech("pm-export-1password-csv", "pw")
def _t(m):
    return "Title,Website,Username,Password,Notes\n\"%s\",\"https://%s\",\"%s\",\"%s\",\"\"" % (m["acct"], domain(), m["ctx"][0][1], m["sec"].replace('"', '""'))


@tech("pm-export-lastpass-csv", "pw")
def _t(m):
    return "url,username,password,totp,extra,name,grouping,fav\nhttps://%s,%s,%s,,,%s,Personal,0" % (domain(), m["ctx"][0][1], m["sec"], m["acct"])


@tech("pm-export-keepass-xml", "pw")
def _t(m):
    return "<Entry>\n  <String><Key>Title</Key><Value>%s</Value></String>\n  <String><Key>UserName</Key><Value>%s</Value></String>\n  <String><Key>Password</Key><Value ProtectInMemory=\"True\">%s</Value></String>\n</Entry>" % (m["acct"], m["ctx"][0][1], m["sec"].replace("&", "&amp;").replace("<", "&lt;"))


@tech("uri-otpauth", "any")
def _t(m):
    return "otpauth://totp/%s:%s?secret=%s&issuer=%s&digits=6&period=30" % (pick(["GitHub", "AWS", "Coinbase", "Google", "Okta"]), urllib.parse.quote(email_addr()), rs(B32, 32), pick(["GitHub", "AWS", "Coinbase", "Google", "Okta"]))


@tech("uri-wifi-qr", "pw")
def _t(m):
    return "WIFI:T:WPA;S:%s;P:%s;;" % (pick(SSIDS), m["sec"].replace(";", "\\;"))


@tech("vcard-note", "pw")
def _t(m):
    return "BEGIN:VCARD\nVERSION:3.0\nFN:%s\nTEL:+44 7700 900%03d\nNOTE:%s login %s / %s\nEND:VCARD" % (pick(FIRST).capitalize() + " " + pick(LAST).capitalize(), R.randint(0, 999), m["acct"], m["ctx"][0][1], m["sec"])


@tech("ical-description", "pin")
def _t(m):
    return "BEGIN:VEVENT\nSUMMARY:Cleaner\nDTSTART:2025%02d%02dT090000\nDESCRIPTION:Key safe by the back door\\, %s is %s\nEND:VEVENT" % (R.randint(1, 12), R.randint(1, 28), m["desc"], m["sec"])


@tech("url-userinfo", "pw")
def _t(m):
    return "https://%s:%s@%s/%s" % (urllib.parse.quote(username()), urllib.parse.quote(m["sec"], safe=""), pick(["nas.local:5001", "router.lan", "files.%s" % domain()]), pick(["", "admin", "webdav/"]))


@tech("url-query-param", "token")
def _t(m):
    return "https://api.%s/v1/%s?%s=%s&page=2" % (domain(), pick(["export", "events", "items"]), pick(["api_key", "access_token", "token", "key"]), urllib.parse.quote(m["sec"], safe=""))


@tech("url-fragment-token", "any")
def _t(m):
    return "https://%s/callback#access_token=%s&token_type=Bearer&expires_in=3600" % (domain(), jwt())


@tech("url-magic-link", "any")
def _t(m):
    return "login link from the email (works once): https://app.%s/auth/magic?token=%s" % (domain(), rs(ALPH["B"], 43))


@tech("url-password-reset", "any")
def _t(m):
    return "reset link: https://%s/account/reset-password/%s/%s" % (domain(), rs(ALPH["l"], 6), rs(ALPH["B"], 40))


@tech("url-s3-presigned", "any")
def _t(m):
    return "https://%s.s3.amazonaws.com/exports/%s.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%s%%2F20250301%%2Fus-east-1%%2Fs3%%2Faws4_request&X-Amz-Date=20250301T101010Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=%s" % (pick(WORDS), uuid4(), rs(ALPH["U"], 16), rs(ALPH["h"], 64))


@tech("url-gcs-signed", "any")
def _t(m):
    return "https://storage.googleapis.com/%s/report.pdf?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=%s%%40%s.iam.gserviceaccount.com%%2F20250301%%2Fauto%%2Fstorage%%2Fgoog4_request&X-Goog-Date=20250301T000000Z&X-Goog-Expires=86400&X-Goog-SignedHeaders=host&X-Goog-Signature=%s" % (pick(WORDS), pick(["signer", "exporter"]), pick(WORDS), rs(ALPH["h"], 256))


@tech("sheet-csv-row", "pw")
def _t(m):
    return "account,login,password,notes\n%s,%s,%s,shared w/ family" % (m["acct"], m["ctx"][0][1], m["sec"])


@tech("sheet-tsv", "token")
def _t(m):
    return "service\tkey\towner\n%s\t%s\t%s" % (m["vendor"], m["sec"], pick(PEOPLE))


@tech("markdown-table", "any")
def _t(m):
    return "| what | value |\n|------|-------|\n| %s | `%s` |" % (m["desc"], m["sec"])


@tech("html-table", "any")
def _t(m):
    return "<table><tr><th>item</th><th>value</th></tr><tr><td>%s</td><td>%s</td></tr></table>" % (m["desc"], m["sec"].replace("&", "&amp;").replace("<", "&lt;"))


@tech("xml-element", "token")
def _t(m):
    return "<integration name=\"%s\">\n  <credential type=\"%s\">%s</credential>\n</integration>" % (slug(m["vendor"]), m["var"].lower(), m["sec"])


@tech("notebook-output", "token")
def _t(m):
    return json.dumps({"cell_type": "code", "source": ["!cat .env | grep %s" % m["var"]], "outputs": [{"output_type": "stream", "name": "stdout", "text": ["%s=%s\n" % (m["var"], m["sec"])]}]}, indent=1)


@tech("terraform-state", "pw")
def _t(m):
    st = {"version": 4, "terraform_version": "1.7.4", "resources": [{"mode": "managed", "type": "aws_db_instance", "name": "main", "instances": [{"attributes": {"username": dbuser(), "password": m["sec"], "engine": "postgres", "identifier": "%s-db" % pick(WORDS)}, "sensitive_attributes": [[{"type": "get_attr", "value": "password"}]]}]}]}
    return json.dumps(st, indent=2)


@tech("ansible-inventory", "pw")
def _t(m):
    return "[web]\n%s ansible_user=%s ansible_password=%s ansible_become_pass=%s" % (ipaddr(), username(), sq(m["sec"]), sq(m["sec"]))


@tech("jenkins-credentials-xml", "token")
def _t(m):
    return "<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n  <id>%s</id>\n  <secret>%s</secret>\n</org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>" % (slug(m["vendor"]), m["sec"])


@tech("har-auth-header", "token")
def _t(m):
    return json.dumps({"request": {"method": "GET", "url": "https://api.%s/v2/me" % domain(), "headers": [{"name": "Accept", "value": "application/json"}, {"name": "Authorization", "value": "Bearer " + m["sec"]}]}}, indent=2)


@tech("har-cookie", "any")
def _t(m):
    return json.dumps({"request": {"method": "GET", "url": "https://%s/dashboard" % domain(), "cookies": [{"name": "sessionid", "value": rs(ALPH["l"], 32), "httpOnly": True}]}}, indent=2)


@tech("smtp-auth-plain", "pw")
def _t(m):
    u = m["ctx"][0][1]
    return "S: 250-AUTH PLAIN LOGIN\nC: AUTH PLAIN %s\nS: 235 2.7.0 Authentication successful" % b64(("\0%s\0%s" % (u, m["sec"])).encode())


@tech("smtp-auth-login", "pw")
def _t(m):
    u = m["ctx"][0][1]
    return "C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: %s\nS: 334 UGFzc3dvcmQ6\nC: %s\nS: 235 Authentication succeeded" % (b64s(u), b64s(m["sec"]))


@tech("imap-login", "pw")
def _t(m):
    return "* OK IMAP4rev1 ready\na1 LOGIN %s \"%s\"\na1 OK LOGIN completed" % (m["ctx"][0][1], m["sec"].replace('"', '\\"'))


@tech("pop3-session", "pw")
def _t(m):
    return "+OK POP3 ready\nUSER %s\n+OK\nPASS %s\n+OK Logged in." % (m["ctx"][0][1], m["sec"])


@tech("ftp-session", "pw")
def _t(m):
    return "220 ProFTPD Server ready\nUSER %s\n331 Password required\nPASS %s\n230 User logged in" % (username(), m["sec"])


@tech("redis-cli-auth", "pw")
def _t(m):
    return "$ redis-cli -h %s\n%s:6379> AUTH %s\nOK\n%s:6379> KEYS session:*" % (host(), "redis", m["sec"], "redis")


@tech("psql-pgpassword", "pw")
def _t(m):
    return "$ PGPASSWORD=%s psql -h %s -U %s %s\npsql (16.2)\n%s=>" % (sq(m["sec"]), host(), dbuser(), dbname(), dbname())


@tech("mysql-cli-inline", "pw")
def _t(m):
    return "mysql -h %s -u %s -p%s %s < dump.sql" % (host(), dbuser(), sq(m["sec"]), dbname())


@tech("mongo-shell-uri", "pw")
def _t(m):
    return "mongosh \"mongodb://%s:%s@%s:27017/admin\"" % (dbuser(), urllib.parse.quote(m["sec"], safe=""), host())


@tech("sshpass", "pw")
def _t(m):
    return "sshpass -p %s ssh %s@%s 'sudo systemctl restart app'" % (sq(m["sec"]), username(), ipaddr())


@tech("http-basic-auth", "pw")
def _t(m):
    return "GET /admin HTTP/1.1\nHost: %s\nAuthorization: Basic %s" % (domain(), b64s("%s:%s" % (m["ctx"][0][1], m["sec"])))


@tech("http-proxy-authorization", "pw")
def _t(m):
    return "CONNECT api.%s:443 HTTP/1.1\nProxy-Authorization: Basic %s" % (domain(), b64s("%s:%s" % (username(), m["sec"])))


@tech("http-cookie-header", "any")
def _t(m):
    return "GET /account HTTP/2\nhost: www.%s\ncookie: _ga=GA1.1.%d.%d; session=%s; theme=dark" % (domain(), R.randint(10 ** 8, 10 ** 9), R.randint(10 ** 9, 2 * 10 ** 9), rs(ALPH["B"], 43))


@tech("log-set-cookie", "any")
def _t(m):
    return "%s DEBUG http.client < Set-Cookie: remember_token=%s|%s; Path=/; HttpOnly; Secure" % (iso_ts(), R.randint(1000, 99999), rs(ALPH["h"], 128))


@tech("log-line-token", "token")
def _t(m):
    return "%s INFO  [worker-%d] calling %s with headers={'Authorization': 'Bearer %s'}" % (iso_ts(), R.randint(1, 9), m["vendor"], m["sec"])


@tech("stack-trace-connstr", "pw")
def _t(m):
    return "sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server failed\n(Background on this error at: https://sqlalche.me/e/20/e3q8)\n  engine = create_engine(\"postgresql://%s:%s@%s/%s\")" % (dbuser(), urllib.parse.quote(m["sec"], safe=""), host(), dbname())


@tech("traceback-locals", "token")
def _t(m):
    return "Traceback (most recent call last):\n  File \"sync.py\", line 42, in push\n    resp.raise_for_status()\n  locals: api_key=%r, retries=3\nrequests.exceptions.HTTPError: 429 Client Error" % m["sec"]


@tech("git-diff-added", "token")
def _t(m):
    return "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -3,2 +3,3 @@\n LOG_LEVEL=info\n-%s=\n+%s=%s" % (m["var"], m["var"], m["sec"])


@tech("git-commit-message", "token")
def _t(m):
    return "commit %s\nAuthor: %s <%s>\n\n    temp: hardcode %s for demo (%s) — rotate after" % (rs(ALPH["h"], 40), pick(PEOPLE), email_addr(), m["desc"], m["sec"])


@tech("git-remote-v", "any")
def _t(m):
    t = "ghp_" + rs(ALPH["a"], 36)
    return "$ git remote -v\norigin  https://%s:%s@github.com/%s/%s.git (fetch)\norigin  https://%s:%s@github.com/%s/%s.git (push)" % ((username(), t, pick(WORDS), pick(WORDS)) * 2)


@tech("pip-index-url", "pw")
def _t(m):
    return "pip install --index-url https://%s:%s@pypi.%s/simple/ internal-utils==2.3.1" % (username(), urllib.parse.quote(m["sec"], safe=""), domain())


@tech("npm-config-set", "token")
def _t(m):
    return "npm config set //registry.npmjs.org/:_authToken %s" % m["sec"]


@tech("docker-login-cli", "pw")
def _t(m):
    return "docker login registry.%s -u %s -p %s" % (domain(), username(), sq(m["sec"]))


@tech("helm-repo-add", "pw")
def _t(m):
    return "helm repo add internal https://charts.%s --username %s --password %s" % (domain(), username(), sq(m["sec"]))


@tech("kubectl-from-literal", "token")
def _t(m):
    return "kubectl create secret generic %s --from-literal=%s=%s -n prod" % (slug(m["vendor"]).replace("_", "-"), m["var"].lower(), sq(m["sec"]))


@tech("k8s-secret-data-b64", "token")
def _t(m):
    return "apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\ndata:\n  %s: %s" % (slug(m["vendor"]).replace("_", "-"), m["var"], b64s(m["sec"]))


@tech("env-file-base64-blob", "token")
def _t(m):
    env = "LOG_LEVEL=info\n%s=%s\nPORT=8080\n" % (m["var"], m["sec"])
    return "ENV_FILE_B64 (decode into .env on the box):\n%s" % b64s(env)


@tech("aws-configure-transcript", "any")
def _t(m):
    return "$ aws configure\nAWS Access Key ID [None]: AKIA%s\nAWS Secret Access Key [None]: %s\nDefault region name [None]: %s\nDefault output format [None]: json" % (rs(ALPH["U"], 16), rs(ALPH["b"], 40), SPECIAL["region"]())


@tech("gh-auth-login", "any")
def _t(m):
    return "echo %s | gh auth login --with-token" % ("ghp_" + rs(ALPH["a"], 36))


@tech("postman-collection", "token")
def _t(m):
    return json.dumps({"info": {"name": m["vendor"] + " API"}, "auth": {"type": "bearer", "bearer": [{"key": "token", "value": m["sec"], "type": "string"}]}}, indent=2)


@tech("insomnia-export", "token")
def _t(m):
    return json.dumps({"_type": "environment", "name": "Prod", "data": {"base_url": "https://api.%s" % domain(), "api_token": m["sec"]}}, indent=2)


@tech("slack-export-json", "any")
def _t(m):
    s = m["sec"]
    return json.dumps([{"type": "message", "user": "U0" + rs(ALPH["U"], 8), "text": "here u go: %s" % s, "ts": "%d.%06d" % (R.randint(1700000000, 1750000000), R.randint(0, 999999))}], indent=1)


@tech("sql-insert-users", "pw")
def _t(m):
    return "INSERT INTO users (email, password, role) VALUES (%s, %s, 'admin');  -- plaintext, legacy table" % (sq(m["ctx"][0][1]), sq(m["sec"]))


@tech("nginx-proxy-header", "token")
def _t(m):
    return "location /api/ {\n    proxy_pass https://api.%s/;\n    proxy_set_header Authorization \"Bearer %s\";\n}" % (domain(), m["sec"])


@tech("haproxy-userlist", "pw")
def _t(m):
    return "userlist admins\n    user %s insecure-password %s" % (username(), m["sec"].replace(" ", ""))


@tech("jupyter-config", "any")
def _t(m):
    return "c.ServerApp.ip = '0.0.0.0'\nc.ServerApp.token = '%s'\nc.ServerApp.open_browser = False" % rs(ALPH["h"], 48)


@tech("grafana-ini", "pw")
def _t(m):
    return "[security]\nadmin_user = admin\nadmin_password = %s" % m["sec"]


@tech("prometheus-basic-auth", "pw")
def _t(m):
    return "scrape_configs:\n  - job_name: node\n    basic_auth:\n      username: %s\n      password: %s\n    static_configs:\n      - targets: ['%s:9100']" % (username(), lit(m["sec"]), ipaddr())


@tech("alertmanager-slack-url", "any")
def _t(m):
    return "receivers:\n- name: team\n  slack_configs:\n  - api_url: https://hooks.slack.com/services/T%s/B%s/%s\n    channel: '#alerts'" % (rs(ALPH["U"], 8), rs(ALPH["U"], 10), rs(ALPH["a"], 24))


@tech("logstash-output", "pw")
def _t(m):
    return "output {\n  elasticsearch {\n    hosts => [\"https://%s:9200\"]\n    user => \"elastic\"\n    password => \"%s\"\n  }\n}" % (host(), m["sec"].replace('"', "'"))


@tech("airflow-conn-uri", "pw")
def _t(m):
    return "export AIRFLOW_CONN_WAREHOUSE='postgres://%s:%s@%s:5432/%s'" % (dbuser(), urllib.parse.quote(m["sec"], safe=""), host(), dbname())


@tech("dbt-profiles", "pw")
def _t(m):
    return "analytics:\n  target: prod\n  outputs:\n    prod:\n      type: postgres\n      host: %s\n      user: %s\n      password: %s\n      dbname: %s\n      schema: marts" % (host(), dbuser(), lit(m["sec"]), dbname())


@tech("email-forward-chain", "pw")
def _t(m):
    return "---------- Forwarded message ---------\nFrom: IT Helpdesk <it@%s>\nSubject: your temporary password\n\n> Your account %s has been reset.\n> Temporary password: %s\n> You will be asked to change it at first login." % (domain(), m["ctx"][0][1], m["sec"])


@tech("sms-export-xml", "pin")
def _t(m):
    return "<sms protocol=\"0\" address=\"+4477009%05d\" date=\"%d\" type=\"1\" body=\"Mum: the %s is %s, don't lose it x\" />" % (R.randint(0, 99999), R.randint(1700000000000, 1750000000000), m["desc"], m["sec"])


@tech("whatsapp-export", "pin")
def _t(m):
    d = "%02d/%02d/2025" % (R.randint(1, 28), R.randint(1, 12))
    return "%s, 18:02 - %s: what's the %s again?\n%s, 18:05 - %s: %s\n%s, 18:05 - %s: thx" % (d, pick(PEOPLE), m["desc"], d, pick(PEOPLE), m["sec"], d, pick(PEOPLE))


@tech("irc-log", "pw")
def _t(m):
    return "[21:14] <%s> whoops\n[21:14] <%s> /msg NickServ IDENTIFY %s\n[21:15] <%s> ignore that" % ((pick(FIRST),) * 2 + (m["sec"],) + (pick(FIRST),))


@tech("voice-transcript-spelled", "alnum")
def _t(m):
    return "[transcribed voicemail] \"...so the %s is, uh, %s. Got that? Bye.\"" % (m["desc"], t_nato(m["sec"]))


@tech("qr-decoded-text", "any")
def _t(m):
    return "decoded QR from the sticker on the router:\nWIFI:S:%s;T:WPA;P:%s;H:false;;" % (pick(SSIDS), wifi_password())


@tech("form-urlencoded-body", "pw")
def _t(m):
    return "POST /login HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\nusername=%s&password=%s&remember=on" % (urllib.parse.quote(m["ctx"][0][1]), urllib.parse.quote(m["sec"], safe=""))


@tech("multipart-form", "pw")
def _t(m):
    bnd = "----WebKitFormBoundary" + rs(ALPH["a"], 16)
    return "--%s\nContent-Disposition: form-data; name=\"user\"\n\n%s\n--%s\nContent-Disposition: form-data; name=\"pass\"\n\n%s\n--%s--" % (bnd, m["ctx"][0][1], bnd, m["sec"], bnd)


@tech("graphql-variables", "pw")
def _t(m):
    return json.dumps({"query": "mutation Login($e: String!, $p: String!) { login(email: $e, password: $p) { token } }", "variables": {"e": m["ctx"][0][1], "p": m["sec"]}})


@tech("grpc-metadata-log", "token")
def _t(m):
    return "grpc: outgoing metadata: map[authorization:[Bearer %s] x-request-id:[%s]]" % (m["sec"], uuid4())


@tech("protobuf-text", "token")
def _t(m):
    return "credentials {\n  provider: \"%s\"\n  api_key: \"%s\"\n}" % (slug(m["vendor"]), m["sec"])


@tech("dockerfile-arg-default", "token")
def _t(m):
    return "FROM node:20\nARG %s=%s\nRUN npm ci" % (m["var"], m["sec"])


@tech("makefile-split-vars", "token")
def _t(m):
    a, b = _split(m["sec"], 2)
    return "KEY_A := %s\nKEY_B := %s\n%s := $(KEY_A)$(KEY_B)" % (a, b, m["var"])


@tech("ini-line-continuation", "token")
def _t(m):
    a, b = _split(m["sec"], 2)
    return "[api]\nkey = %s\\\n      %s" % (a, b)


@tech("toml-multiline", "token")
def _t(m):
    a, b = _split(m["sec"], 2)
    return "[%s]\n%s = \"\"\"\\\n%s\\\n%s\"\"\"" % (slug(m["vendor"]), m["var"].lower(), a, b)


@tech("yaml-folded", "token")
def _t(m):
    a, b = _split(m["sec"], 2)
    return "%s: >-\n  %s\\\n  %s\n# (folded; the backslash-newline is just my paste, remove it)" % (m["var"].lower(), a, b)


@tech("csv-quoted-multiline", "pw")
def _t(m):
    return "\"site\",\"notes\"\n\"%s\",\"login %s\npassword %s\"" % (m["acct"], m["ctx"][0][1], m["sec"].replace('"', '""'))


@tech("crontab-curl-token", "token")
def _t(m):
    return "*/15 * * * * curl -fsS -H \"Authorization: Bearer %s\" https://api.%s/ping > /dev/null" % (m["sec"], domain())


@tech("systemd-credential-inline", "pw")
def _t(m):
    return "[Service]\nExecStart=/usr/bin/backup --user %s --password %s" % (username(), sq(m["sec"]))


@tech("powershell-securestring", "pw")
def _t(m):
    return "$pw = ConvertTo-SecureString %s -AsPlainText -Force\n$cred = New-Object PSCredential('%s', $pw)" % (sq(m["sec"]), "CORP\\" + username())


@tech("pem-with-misleading-comment", "any")
def _t(m):
    return "# rsync backup target\n%s" % pem_ec()


@tech("age-identity-file", "any")
def _t(m):
    return "# created: 2025-0%d-1%dT10:00:00Z\n# public key: age1%s\nAGE-SECRET-KEY-1%s" % (R.randint(1, 9), R.randint(0, 9), rs(BECH, 58), rs(BECH.upper(), 58))


@tech("putty-session-reg", "pw")
def _t(m):
    return "[HKEY_CURRENT_USER\\Software\\SimonTatham\\PuTTY\\Sessions\\nas]\n\"HostName\"=\"%s\"\n\"UserName\"=\"%s\"\n; password kept here for the script: %s" % (ipaddr(), username(), m["sec"])


@tech("pdf-ocr-letter", "pin")
def _t(m):
    return "[scanned letter, OCR]\nYour new card PIN\n\nDear customer, your Personal Identification Number is:\n\n    %s\n\nPlease memorise it and destroy this letter." % " ".join(m["sec"])


@tech("spreadsheet-hidden-col", "pw")
def _t(m):
    return "A,B,C,D(hidden)\n%s,%s,2024-11-02,%s" % (m["acct"], m["ctx"][0][1], m["sec"])


@tech("markdown-spoiler", "pw")
def _t(m):
    return "%s login: %s\npassword: ||%s|| (discord spoiler so it's not on screen)" % (m["acct"], m["ctx"][0][1], m["sec"])


@tech("html-comment", "token")
def _t(m):
    return "<div id=\"app\"></div>\n<!-- TODO remove: %s=%s -->\n<script src=\"/main.js\"></script>" % (m["var"], m["sec"])


@tech("css-content", "pw")
def _t(m):
    return ".note::after { content: \"%s pw: %s\"; }" % (m["acct"], m["sec"].replace('"', '\\"'))


@tech("svg-text", "pin")
def _t(m):
    return "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"4\" y=\"14\">%s: %s</text></svg>" % (m["desc"], m["sec"])


@tech("latex-comment", "pw")
def _t(m):
    return "\\section{Setup}\n%% portal login %s / %s\nLog in to the portal and download the data." % (m["ctx"][0][1], m["sec"])


@tech("regex-escaped", "alnum")
def _t(m):
    return "pattern that matches only the %s: ^%s$" % (m["desc"], "".join("[%s]" % c for c in m["sec"]))


@tech("emoji-keycap-digits", "pin")
def _t(m):
    return "%s %s" % (m["desc"], t_map(m["sec"], KEYCAP))


for _name, _tbl, _lab in [("digits-arabic-indic", ARABIC_INDIC, "Arabic-Indic digits"), ("digits-devanagari", DEVANAGARI, "Devanagari digits"),
                          ("digits-thai", THAI_D, "Thai digits"), ("digits-bengali", BENGALI_D, "Bengali digits"),
                          ("digits-persian", PERSIAN_D, "Persian digits"), ("digits-cjk", CJK_D, "CJK numerals"),
                          ("digits-superscript", SUP, None), ("digits-subscript", SUB, None),
                          ("digits-shift-symbols", SHIFT_D, "typed with shift held (US keyboard)"),
                          ("digits-roman", ROMAN_D, "each digit as a roman numeral")]:
    def _mk(tbl, lab):
        def f(m):
            s = m["sec"]
            if tbl is ROMAN_D:
                return say(m, " ".join(tbl[c] for c in s), lab)
            return say(m, t_map(s, tbl), lab)
        return f
    TECH.append((_name, "pin", _mk(_tbl, _lab)))


@tech("digits-dice", "pin")
def _t(m):
    s = "".join(pick("123456") for _ in range(4))
    return "%s, as dice: %s" % (m["desc"], t_map(s, DICE))


@tech("digits-plus-one", "pin")
def _t(m):
    shown = "".join(str((int(c) + 1) % 10) for c in m["sec"])
    return "%s: %s (each digit is one too high, subtract 1 — 0 means 9)" % (m["desc"], shown)


@tech("digits-reversed-described", "pin")
def _t(m):
    return "%s is %s backwards" % (m["desc"], m["sec"][::-1])


@tech("arithmetic-sum", "pin")
def _t(m):
    n = int(m["sec"])
    a = R.randint(1, max(2, n - 1)) if n > 2 else 0
    return "%s = %d + %d (do the sum)" % (m["desc"], a, n - a) if len(str(n)) == len(m["sec"]) else None


@tech("arithmetic-product", "pin")
def _t(m):
    n = int(m["sec"])
    if len(str(n)) != len(m["sec"]):
        return None
    for d in (7, 3, 9, 11, 13, 4, 6, 2):
        if n % d == 0:
            return "%s: %d × %d" % (m["desc"], d, n // d)
    return "%s: %d × %d + %d" % (m["desc"], 7, n // 7, n % 7)


@tech("base36-number", "pin")
def _t(m):
    if m["sec"][0] == "0":
        return None
    return "%s in base36: %s" % (m["desc"], t_base36(m["sec"]))


@tech("hex-number", "pin")
def _t(m):
    if m["sec"][0] == "0":
        return None
    return "%s = 0x%X" % (m["desc"], int(m["sec"]))


@tech("binary-number", "pin")
def _t(m):
    if m["sec"][0] == "0":
        return None
    return "%s is %s in binary" % (m["desc"], bin(int(m["sec"]))[2:])


@tech("pin-as-time", "pin")
def _t(m):
    h, mi = R.randint(0, 23), R.randint(0, 59)
    return "%s: it's the time %02d:%02d without the colon" % (m["desc"], h, mi)


@tech("pin-as-date-ddmm", "pin")
def _t(m):
    d, mo = R.randint(1, 28), R.randint(1, 12)
    return "%s = our anniversary, %d %s, written ddmm" % (m["desc"], d, ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"][mo - 1])


EVENT_YEARS = [("the Berlin Wall came down", "1989"), ("Apollo 11 landed on the moon", "1969"), ("the Titanic sank", "1912"),
               ("the storming of the Bastille", "1789"), ("Columbus reached the Americas", "1492"), ("WW2 ended", "1945"),
               ("the Battle of Hastings", "1066"), ("the US Declaration of Independence", "1776"), ("Magna Carta was sealed", "1215"),
               ("the first iPhone came out", "2007"), ("Chernobyl", "1986"), ("euro notes and coins arrived", "2002"),
               ("the Great Fire of London", "1666"), ("Waterloo", "1815"), ("the Wright brothers first flew", "1903")]


@tech("riddle-historical-year", "none")
def _t(m):
    ev, yr = pick(EVENT_YEARS)
    thing = pick(PIN_THINGS)
    return pick(["%s: the year %s" % (thing, ev), "the %s is the year %s. easy to remember" % (thing, ev),
                 "if you forget the %s: what year did %s?" % (thing, ev)])


@tech("riddle-birthyear-reversed", "none")
def _t(m):
    y = R.randint(1950, 2005)
    who = pick(["Dad", "Mum", "Grandpa", "my", "Aunt Jo's"])
    return "%s born %d — the %s is %s birth year backwards" % (who if who != "my" else "I was", y, pick(PIN_THINGS), "my" if who == "my" else "the")


@tech("riddle-house-number-twice", "none")
def _t(m):
    n = R.randint(10, 99)
    return "we live at %d %s Road; the %s is the house number twice" % (n, pick(LAST).capitalize(), pick(["alarm code", "gate code", "garage code", "key safe code"]))


@tech("riddle-ages", "none")
def _t(m):
    a, b, c = R.randint(2, 15), R.randint(2, 15), R.randint(1, 14)
    return "safe combo = Mia's age, then Leo's, then the dog's (%d, %d, %d right now, it doesn't change until we reset it)" % (a, b, c)


@tech("riddle-phone-last4", "none")
def _t(m):
    num = "07700 9%05d" % R.randint(0, 99999)
    return "Nan's number is %s. her bank card PIN is the last four of it (she insisted, I know)" % num


@tech("riddle-keypad-word", "none")
def _t(m):
    word = pick(["CAKE", "HOME", "BEAR", "LUNA", "KIWI", "GOLF", "JAZZ", "MILO", "ROSE", "DUCK", "TACO", "WOLF"])
    return "%s: the word %s typed on a phone keypad" % (pick(PIN_THINGS), word)


@tech("riddle-pet-plus-year", "none")
def _t(m):
    p, y = pick(PETS), R.randint(2008, 2023)
    return "wifi password = the dog's name + the year we got him (%s, %d), no space, first letter capital" % (p, y)


@tech("riddle-street-and-zip", "none")
def _t(m):
    st = pick(WORDS).capitalize()
    z = R.randint(10000, 99999)
    return "router admin pass is our old street name then the old zip: %s Lane, %d" % (st, z)


@tech("riddle-word-list-positions", "none")
def _t(m):
    words = [pick(WORDS) for _ in range(6)]
    idx = R.sample(range(6), 3)
    return "words: %s\nthe NAS password is words %s joined with dashes, then !" % (", ".join(words), ", ".join(str(i + 1) for i in idx))


@tech("pattern-unlock-grid", "none")
def _t(m):
    seq = R.sample(range(1, 10), R.randint(5, 7))
    grid = [[" "] * 3 for _ in range(3)]
    for i, d in enumerate(seq):
        grid[(d - 1) // 3][(d - 1) % 3] = str(i + 1)
    return "tablet unlock pattern (numbers = order you swipe through the dots):\n" + "\n".join(" ".join(c if c != " " else "." for c in row) for row in grid)


@tech("spoken-en-double", "pin")
def _t(m):
    s, out, i = m["sec"], [], 0
    w = digit_words("en")
    while i < len(s):
        if i + 1 < len(s) and s[i] == s[i + 1]:
            out.append("double " + w[int(s[i])])
            i += 2
        else:
            out.append(w[int(s[i])])
            i += 1
    return "%s is %s" % (m["desc"], " ".join(out))


@tech("spoken-en-words-pw", "alnum")
def _t(m):
    w = digit_words("en")
    return "%s: %s (numbers written as words, letters as they are)" % (m["desc"], " ".join(w[int(c)] if c.isdigit() else c for c in m["sec"]))


def _spoken_lang(code):
    def f(m):
        for c, name, S, B, T, D in LANGS:
            if c != code:
                continue
            temps = [t for k, t in S if "{pin4}" in t or "{pin6}" in t or "{pin5}" in t or "{otp}" in t]
            t = pick(temps)
            for slot in ("{pin4}", "{pin5}", "{pin6}", "{otp}"):
                if slot in t:
                    n = int(slot[4]) if slot.startswith("{pin") else 6
                    digits = pin(n)
                    t = t.replace(slot, spell_digits(code, digits))
            return fill(t)
    return f


for _c in LANG_CODES:
    TECH.append(("spoken-digits-" + _c, "none", _spoken_lang(_c)))


@tech("card-spoken-groups", "none")
def _t(m):
    b, num = card_number()
    w = digit_words("en")
    groups = [num[i:i + 4] for i in range(0, len(num), 4)]
    return "reading the card out for you: %s. expiry %s. the three on the back: %s" % (
        ", ".join(" ".join(w[int(c)] for c in g) for g in groups), card_exp(), " ".join(w[int(c)] for c in card_cvv(num)))


@tech("card-split-messages", "none")
def _t(m):
    b, num = card_number()
    h = len(num) // 2
    return "me: first half %s\nme: second half %s\nme: exp %s cvv %s\nme: delete after booking pls" % (num[:h], num[h:], card_exp(), card_cvv(num))


@tech("card-digits-words-mixed", "none")
def _t(m):
    b, num = card_number()
    w = digit_words("en")
    return "card: %s-%s, exp %s, sec code %s" % (num[:8], " ".join(w[int(c)] for c in num[8:]), card_exp(), card_cvv(num))


@tech("seed-numbered-shuffled", "none")
def _t(m):
    words = mnemonic(12).split()
    idx = list(range(12))
    R.shuffle(idx)
    return "wallet words (numbered, put them in order):\n" + "\n".join("%d. %s" % (i + 1, words[i]) for i in idx)


@tech("seed-first-four-letters", "none")
def _t(m):
    words = mnemonic(12).split()
    return "seed, first 4 letters of each word (BIP39 words are unique by 4 letters): " + " ".join(w[:4] for w in words)


@tech("seed-in-sentence", "none")
def _t(m):
    words = mnemonic(12).split()
    return "recovery words hidden in caps: " + " ".join(("%s %s" % (pick(["the", "a", "my", "some"]), w.upper())) for w in words)


@tech("seed-grid-table", "none")
def _t(m):
    words = mnemonic(12).split()
    return "| | | | |\n|---|---|---|---|\n" + "\n".join("| " + " | ".join("%d %s" % (r * 4 + c + 1, words[r * 4 + c]) for c in range(4)) + " |" for r in range(3))


@tech("seed-b64", "none")
def _t(m):
    return "metamask phrase, base64 so it's not readable over my shoulder: %s" % b64s(mnemonic(12))


@tech("ethkey-split-lines", "none")
def _t(m):
    k = rs(ALPH["h"], 64)
    return "eth private key in 4 lines:\n" + "\n".join(k[i:i + 16] for i in range(0, 64, 16))


@tech("totp-seed-in-qr-uri-split", "none")
def _t(m):
    s = rs(B32, 32)
    return "authenticator secret (from the otpauth link): %s %s %s %s %s %s %s %s" % tuple(s[i:i + 4] for i in range(0, 32, 4))


@tech("pem-without-armor", "none")
def _t(m):
    body = pem_ec().split("\n")[1:-1]
    return "deploy key body (add the BEGIN/END EC PRIVATE KEY lines back):\n" + "\n".join(body)


@tech("pem-base64-wrapped", "none")
def _t(m):
    return "SSH_KEY_B64=%s" % b64(openssh_ed25519().encode())


@tech("pem-single-line-escaped", "none")
def _t(m):
    return "PRIVATE_KEY=\"%s\"" % pem_pkcs8().replace("\n", "\\n")


@tech("pem-in-json-escaped", "none")
def _t(m):
    return json.dumps({"type": "service_account", "private_key": pem_pkcs8() + "\n", "client_email": "svc@%s-%d.iam.gserviceaccount.com" % (pick(WORDS), R.randint(1000, 9999))})


@tech("jwt-split-dots", "none")
def _t(m):
    t = jwt_rs()
    a, b, c = t.split(".")
    return "session token for the admin panel (join with dots):\nheader %s\npayload %s\nsig %s" % (a, b, c)


@tech("cookie-jar-netscape", "none")
def _t(m):
    return "# Netscape HTTP Cookie File\n.%s\tTRUE\t/\tTRUE\t%d\tsessionid\t%s" % (domain(), R.randint(1760000000, 1790000000), rs(ALPH["l"], 32))


@tech("browser-devtools-copy", "none")
def _t(m):
    return "copied from devtools → Application → Local Storage:\nkey: auth.accessToken\nvalue: %s" % jwt_rs()


# --------------------------------------------------------------------------
# benign material (never contains a credential)
# --------------------------------------------------------------------------
CROCK = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
KIDS = ["Ava", "Leo", "Mia", "Noah", "Isla", "Theo", "Zara", "Ben", "Ruby", "Omar", "Lily", "Kai"]
FOODS = ["eggs", "spinach", "greek yogurt", "rice", "chickpeas", "apples", "coffee beans", "pasta", "lemons", "oat milk",
         "cheddar", "tortillas", "frozen peas", "bananas", "porridge oats", "tinned tomatoes", "butter", "peanut butter"]
BOOKS = ["Piranesi", "Klara and the Sun", "The Overstory", "Circe", "Project Hail Mary", "Pachinko", "Tomorrow, and Tomorrow, and Tomorrow",
         "The Remains of the Day", "Educated", "Lessons in Chemistry"]
SONGS = ["Wonderwall", "Blackbird", "Hallelujah", "Stand By Me", "Riptide", "Wish You Were Here", "Creep"]
STREETS = ["Maple Avenue", "Station Road", "Rue des Lilas", "Calle Mayor", "Hauptstraße", "Via Roma", "Elm Street", "Kings Road",
           "Rua Augusta", "Bergstraße", "Church Lane", "Oak Drive"]


def vin():
    vals = {**{str(i): i for i in range(10)}, "A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6, "G": 7, "H": 8, "J": 1, "K": 2,
            "L": 3, "M": 4, "N": 5, "P": 7, "R": 9, "S": 2, "T": 3, "U": 4, "V": 5, "W": 6, "X": 7, "Y": 8, "Z": 9}
    w = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
    al = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
    v = list(pick(["1HG", "WVW", "JTD", "WBA", "VF1", "ZFA", "SAL", "5YJ", "KMH", "YV1"]) + rs(al, 14))
    s = sum(vals[c] * w[i] for i, c in enumerate(v))
    c = s % 11
    v[8] = "X" if c == 10 else str(c)
    return "".join(v)


def imei():
    b = pick(["35", "86", "01", "49"]) + rs(DIG, 12)
    return b + luhn_digit(b)


def iccid():
    b = "89" + pick(["44", "49", "33", "01", "34", "39"]) + rs(DIG, 14)
    return b + luhn_digit(b)


def aba():
    while True:
        d = [R.randint(0, 9) for _ in range(8)]
        d[0] = R.choice([0, 1, 2, 3])
        for last in range(10):
            x = d + [last]
            if (3 * (x[0] + x[3] + x[6]) + 7 * (x[1] + x[4] + x[7]) + (x[2] + x[5] + x[8])) % 10 == 0:
                return "".join(map(str, x))


def ulid():
    return pick(["01H", "01J"]) + rs(CROCK, 23)


def phone():
    return pick(["+44 7700 900%03d" % R.randint(0, 999), "+1 (555) 01%02d-%04d" % (R.randint(0, 99), R.randint(0, 9999)),
                 "+49 151 %08d" % R.randint(0, 99999999), "06 %02d %02d %02d %02d" % tuple(R.randint(0, 99) for _ in range(4)),
                 "+34 6%02d %03d %03d" % (R.randint(0, 99), R.randint(0, 999), R.randint(0, 999)), "0%d %d %d" % (R.randint(400, 499), R.randint(100, 999), R.randint(100, 999))])


def address():
    return "%d %s, %s" % (R.randint(1, 240), pick(STREETS), pick(["Leeds LS6 2AB", "75011 Paris", "28013 Madrid", "10115 Berlin", "Portland, OR 97214", "00184 Roma", "Cork T12 X2Y3", "1012 AB Amsterdam"]))


def dob():
    return "%02d/%02d/%d" % (R.randint(1, 28), R.randint(1, 12), R.randint(1940, 2020))


def ssh_pub_ed():
    return "ssh-ed25519 %s %s@%s" % (b64(_sshstr(b"ssh-ed25519") + _sshstr(rbytes(32))), pick(FIRST), pick(["laptop", "mbp", "work", "desktop"]))


def ssh_pub_rsa():
    return "ssh-rsa %s %s@%s" % (b64(_sshstr(b"ssh-rsa") + _sshstr(b"\x01\x00\x01") + _sshstr(b"\x00" + rbytes(384))), pick(FIRST), pick(["build", "ci", "home"]))


def pub_pem():
    return pem("PUBLIC KEY", "30820122300d06092a864886f70d01010105000382010f003082010a0282010100", 270)


def pgp_public():
    body = b64(b"\x99\x01\x8d\x04" + rbytes(R.choice([400, 600])))
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PUBLIC KEY BLOCK-----" % (wrap_lines(body, 64), b64(rbytes(3)))


def pgp_message():
    body = b64(b"\x85\x01\x0c\x03" + rbytes(R.choice([200, 300, 400])))
    return "-----BEGIN PGP MESSAGE-----\n\n%s\n=%s\n-----END PGP MESSAGE-----" % (wrap_lines(body, 64), b64(rbytes(3)))


def csr_pem():
    return pem("CERTIFICATE REQUEST", "308202", 600)


def bcrypt_hash():
    return "$2b$%d$%s" % (pick([10, 12, 12, 14]), rs("./" + UPP + LOW + DIG, 53))


def argon2_hash():
    return "$argon2id$v=19$m=65536,t=3,p=4$%s$%s" % (b64(rbytes(16)).rstrip("="), b64(rbytes(32)).rstrip("="))


def sha512crypt():
    return "$6$%s$%s" % (rs("./" + UPP + LOW + DIG, 16), rs("./" + UPP + LOW + DIG, 86))


def md5crypt():
    return "$1$%s$%s" % (rs("./" + UPP + LOW + DIG, 8), rs("./" + UPP + LOW + DIG, 22))


def django_hash():
    return "pbkdf2_sha256$%d$%s$%s" % (pick([600000, 720000, 870000]), rs(ALPH["a"], 22), b64(rbytes(32)))


def sops_enc():
    return "ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]" % (b64(rbytes(R.randint(12, 40))), b64(rbytes(32)), b64(rbytes(16)))


def ansible_vault():
    h = rbytes(R.choice([120, 160, 200])).hex()
    return "$ANSIBLE_VAULT;1.1;AES256\n" + wrap_lines(h, 80)


def kms_blob():
    return "AQICAHh" + rs(ALPH["b"], R.choice([160, 200, 240])) + "=="


def b64s_plain(s):
    return b64(s.encode())


PLAIN_SENTENCES = ["remember to water the plants", "meet at the north entrance at noon", "the recital starts at six",
                   "happy birthday grandma", "dinner is at Luca's tonight", "bring the blue folder tomorrow",
                   "see you at the match", "the cat needs her flea drops", "pick strawberries on saturday",
                   "chapter three is the best part", "the train was late again", "order more printer paper"]


BS = {
    "t": a_time, "t2": a_time, "day": lambda: pick(DAYS), "month": lambda: pick(MONTHS),
    "date": lambda: "%d %s" % (R.randint(1, 28), pick(MONTHS)), "isodate": lambda: "20%d-%02d-%02d" % (R.randint(23, 25), R.randint(1, 12), R.randint(1, 28)),
    "name": lambda: pick(FIRST).capitalize(), "name2": lambda: pick(FIRST).capitalize(), "lname": lambda: pick(LAST).capitalize(),
    "fullname": lambda: "%s %s" % (pick(FIRST).capitalize(), pick(LAST).capitalize()), "kid": lambda: pick(KIDS),
    "n": lambda: str(R.randint(2, 12)), "n2": lambda: str(R.randint(2, 40)), "n3": lambda: str(R.randint(10, 99)), "n4": lambda: str(R.randint(1000, 9999)),
    "price": lambda: pick(["£", "€", "$"]) + "%d.%02d" % (R.randint(3, 400), R.randint(0, 99)),
    "price2": lambda: pick(["£", "€", "$"]) + "%d" % R.randint(20, 900), "price3": lambda: "%d" % R.randint(40, 300),
    "city": lambda: pick(CITIES + ["Lisbon", "Kraków", "Osaka", "Valencia", "Edinburgh", "Montréal", "Ljubljana"]),
    "food": lambda: pick(FOODS), "food2": lambda: pick(FOODS), "food3": lambda: pick(FOODS), "book": lambda: pick(BOOKS),
    "song": lambda: pick(SONGS), "km": lambda: "%.1f" % (R.randint(30, 210) / 10), "min": lambda: str(R.randint(18, 75)),
    "bp": lambda: "%d/%d" % (R.randint(112, 148), R.randint(70, 95)), "shoe": lambda: str(R.randint(26, 40)),
    "gift": lambda: pick(["fishing reel", "cardigan", "jigsaw", "radio", "bird feeder", "coffee grinder"]),
    "flight": lambda: pick(["BA", "LH", "IB", "KL", "AF", "EZY", "FR", "UA", "DL"]) + str(R.randint(100, 9999)),
    "q": lambda: str(R.randint(1, 4)), "mi": lambda: "%d,%03d" % (R.randint(20, 140), R.randint(0, 999)),
    "mi2": lambda: "%d,000" % R.randint(20, 150), "meter": lambda: str(R.randint(10000, 99999)), "dob": dob,
    "rel": lambda: pick(["mother", "father", "aunt", "neighbour", "partner"]), "phone": phone, "email": email_addr,
    "addr": address, "street": lambda: pick(STREETS), "pet": lambda: pick(PETS), "word": lambda: pick(WORDS),
    "passport_gb": lambda: rs(DIG, 9), "passport_de": lambda: "C" + rs("CFGHJKLMNPRTVWXYZ0123456789", 8),
    "passport_us": lambda: rs(DIG, 9), "passport_fr": lambda: rs(DIG, 2) + rs(UPP, 2) + rs(DIG, 5),
    "ssn": lambda: "%03d-%02d-%04d" % (R.randint(100, 665), R.randint(1, 99), R.randint(1, 9999)),
    "nino": lambda: rs("ABCEGHJKLMNOPRSTWXYZ", 2) + " %02d %02d %02d " % (R.randint(0, 99), R.randint(0, 99), R.randint(0, 99)) + pick("ABCD"),
    "dni": lambda: rs(DIG, 8) + pick("TRWAGMYFPDXBNJZSQVHLCKE"), "aadhaar_masked": lambda: "XXXX XXXX %04d" % R.randint(0, 9999),
    "nhs": lambda: "%03d %03d %04d" % (R.randint(400, 999), R.randint(0, 999), R.randint(0, 9999)),
    "steuerid": lambda: rs(DIG, 11), "codice_fiscale": lambda: rs(UPP, 6) + rs(DIG, 2) + rs(UPP, 1) + rs(DIG, 2) + rs(UPP, 1) + rs(DIG, 3) + rs(UPP, 1),
    "driver_uk": lambda: rs(UPP, 5) + rs(DIG, 6) + rs(UPP, 2) + rs(DIG, 1) + rs(UPP, 2),
    "order_amz": lambda: "%03d-%07d-%07d" % (R.randint(100, 999), R.randint(0, 9999999), R.randint(0, 9999999)),
    "order_shop": lambda: "#%d" % R.randint(1001, 99999), "ebay_order": lambda: "%02d-%05d-%05d" % (R.randint(10, 27), R.randint(0, 99999), R.randint(0, 99999)),
    "ups": lambda: "1Z" + rs(ALPH["U"], 6) + rs(DIG, 10), "fedex": lambda: rs(DIG, 12), "usps": lambda: "9400 1" + " ".join(rs(DIG, 4) for _ in range(4)) + " " + rs(DIG, 2),
    "dhl": lambda: "JJD" + rs(DIG, 18), "royalmail": lambda: rs(UPP, 2) + rs(DIG, 9) + "GB", "postnl": lambda: "3S" + rs(UPP, 4) + rs(DIG, 9),
    "laposte": lambda: rs(DIG, 1) + rs(UPP, 1) + rs(DIG, 11), "jppost": lambda: "-".join(rs(DIG, 4) for _ in range(3)),
    "policy": lambda: pick(["POL", "HHX", "MTR", "TRV"]) + "-" + rs(DIG, 8), "claim": lambda: "CLM-%d-%06d" % (R.randint(2023, 2025), R.randint(0, 999999)),
    "member": lambda: rs(DIG, 10), "invoice": lambda: "INV-%d-%05d" % (R.randint(2023, 2025), R.randint(0, 99999)),
    "imei": imei, "vin": vin, "iccid": iccid, "sortcode": lambda: "%02d-%02d-%02d" % (R.randint(1, 99), R.randint(0, 99), R.randint(0, 99)),
    "routing": aba, "bic": lambda: rs(UPP, 4) + pick(["GB", "DE", "FR", "ES", "IT", "NL", "US"]) + rs(UPP + DIG, 2) + pick(["", "XXX"]),
    "plate": lambda: pick([rs(UPP, 2) + rs(DIG, 2) + " " + rs(UPP, 3), "B-" + rs(UPP, 2) + " " + rs(DIG, 4), rs(DIG, 4) + " " + rs("BCDFGHJKLMNPRSTVWXYZ", 3)]),
    "mac": lambda: ":".join(rs(ALPH["h"], 2) for _ in range(6)), "ip": ipaddr, "lanip": lambda: "192.168.%d.%d" % (R.randint(0, 2), R.randint(2, 254)),
    "serial": lambda: rs(ALPH["U"], 12), "coords": lambda: "%.5f, %.5f" % (R.uniform(-60, 60), R.uniform(-150, 150)),
    "isbn": lambda: "978-" + rs(DIG, 1) + "-" + rs(DIG, 4) + "-" + rs(DIG, 4) + "-" + rs(DIG, 1),
    "ean": lambda: (lambda b: b + str((10 - sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(b)) % 10) % 10))(rs(DIG, 12)),
    "md5": lambda: rs(ALPH["h"], 32), "sha1": lambda: rs(ALPH["h"], 40), "sha256": lambda: rs(ALPH["h"], 64), "sha512": lambda: rs(ALPH["h"], 128),
    "gitsha": lambda: rs(ALPH["h"], 40), "shortsha": lambda: rs(ALPH["h"], 7), "crc32": lambda: rs(ALPH["h"], 8),
    "uuid": uuid4, "UUID": lambda: uuid4().upper(), "ulid": ulid, "ksuid": lambda: "2" + rs(ALPH["a"], 26), "objectid": lambda: rs(ALPH["h"], 24),
    "snowflake": lambda: str(R.randint(10 ** 17, 2 * 10 ** 18)), "awsacct": lambda: rs(DIG, 12),
    "ec2": lambda: "i-0" + rs(ALPH["h"], 16), "vpc": lambda: "vpc-0" + rs(ALPH["h"], 16), "sg": lambda: "sg-0" + rs(ALPH["h"], 16),
    "subnet": lambda: "subnet-0" + rs(ALPH["h"], 16), "ami": lambda: "ami-0" + rs(ALPH["h"], 16), "region": SPECIAL["region"],
    "gcpproj": lambda: "%s-%s-%d" % (pick(WORDS), pick(WORDS), R.randint(100000, 999999)), "sshpub": ssh_pub_ed, "sshrsapub": ssh_pub_rsa,
    "certpem": cert_pem, "pgppub": pgp_public, "pubpem": pub_pem, "csr": csr_pem,
    "btc": lambda: "bc1q" + rs(BECH, 38), "btclegacy": lambda: "1" + rs(B58, 33), "eth": lambda: "0x" + rs(ALPH["h"], 40),
    "xpub": lambda: "xpub661MyMwAqRbc" + rs(B58, 95), "npub": lambda: "npub1" + rs(BECH, 58), "agepub": lambda: "age1" + rs(BECH, 58),
    "wgpub": lambda: b64p(32), "sshfp": lambda: "SHA256:" + b64(rbytes(32)).rstrip("="), "gpgfp": lambda: " ".join(rs(ALPH["H"], 4) for _ in range(10)),
    "sol": lambda: rs(B58, 44), "bcrypt": bcrypt_hash, "argon2": argon2_hash, "sha512crypt": sha512crypt, "md5crypt": md5crypt,
    "djhash": django_hash, "sops": sops_enc, "avault": ansible_vault, "pgpmsg": pgp_message, "kms": kms_blob,
    "testcard": lambda: pick(PUBLISHED_TEST_CARDS), "last4": lambda: rs(DIG, 4), "plainb64": lambda: b64s_plain(pick(PLAIN_SENTENCES)),
    "plainhex": lambda: pick(PLAIN_SENTENCES).encode().hex(), "plainrot13": lambda: t_rot13(pick(PLAIN_SENTENCES)),
    "jwtanon": lambda: jwt("HS256", {"iss": "supabase", "ref": rs(LOW, 20), "role": "anon", "iat": 1700000000 + R.randint(0, 10 ** 7), "exp": 2000000000 + R.randint(0, 10 ** 7)}),
    "pkstripe": lambda: "pk_live_" + rs(ALPH["a"], 99), "mapboxpk": lambda: "pk." + b64u(json.dumps({"u": pick(FIRST) + pick(LAST), "a": rs(LOW + DIG, 25)}, separators=(",", ":")).encode()) + "." + rs(ALPH["B"], 22),
    "recaptcha_site": lambda: "6L" + rs(ALPH["B"], 38), "phc": lambda: "phc_" + rs(ALPH["a"], 43), "ga4": lambda: "G-" + rs(ALPH["U"], 10),
    "gtm": lambda: "GTM-" + rs(ALPH["U"], 7), "clerkpk": lambda: "pk_live_" + b64(("clerk.%s$" % domain()).encode()).rstrip("="),
    "rzpkeyid": lambda: "rzp_live_" + rs(ALPH["a"], 14), "turnstile_site": lambda: "0x4AAAAAAA" + rs(ALPH["B"], 14),
    "hcaptcha_site": uuid4, "sqappid": lambda: "sq0idp-" + rs(ALPH["B"], 22), "adyenclient": lambda: "live_" + rs(ALPH["U"], 32),
    "btokenize": lambda: "production_" + rs(LOW + DIG, 8) + "_" + rs(LOW + DIG, 16), "akiaid": lambda: "AKIA" + rs(ALPH["U"], 16),
    "twsid": lambda: "AC" + rs(ALPH["h"], 32), "gclientid": lambda: "%s-%s.apps.googleusercontent.com" % (rs(DIG, 12), rs(LOW + DIG, 32)),
    "cus": lambda: "cus_" + rs(ALPH["a"], 14), "pi": lambda: "pi_3" + rs(ALPH["a"], 23), "ch": lambda: "ch_3" + rs(ALPH["a"], 23),
    "evt": lambda: "evt_1" + rs(ALPH["a"], 23), "price_id": lambda: "price_1" + rs(ALPH["a"], 23), "acct": lambda: "acct_1" + rs(ALPH["a"], 15),
    "slackchan": lambda: "C0" + rs(ALPH["U"], 9), "slackuser": lambda: "U0" + rs(ALPH["U"], 9), "traceparent": lambda: "00-%s-%s-01" % (rs(ALPH["h"], 32), rs(ALPH["h"], 16)),
    "digest": lambda: "sha256:" + rs(ALPH["h"], 64), "integrity": lambda: "sha512-" + b64(rbytes(64)), "sri": lambda: "sha384-" + b64(rbytes(48)),
    "etag": lambda: '"%s"' % rs(ALPH["h"], 32), "semver": lambda: "%d.%d.%d" % (R.randint(0, 9), R.randint(0, 30), R.randint(0, 40)),
    "cfzone": lambda: rs(ALPH["h"], 32), "azsub": uuid4, "runid": lambda: str(R.randint(6000000000, 14000000000)),
    "reqid": lambda: "req_" + rs(ALPH["a"], 14), "hexcolor": lambda: "#" + rs(ALPH["h"], 6), "zip_us": lambda: "%05d" % R.randint(1000, 99999),
    "pc_uk": lambda: "%s%d %d%s" % (rs(UPP, 2), R.randint(1, 20), R.randint(1, 9), rs(UPP, 2)), "pin_in": lambda: "%d" % R.randint(110001, 855999),
    "err": lambda: "0x%08X" % R.randint(0x80000000, 0x8FFFFFFF), "icd": lambda: pick(["J06.9", "M54.5", "E11.9", "I10", "K21.9", "F41.1", "L20.9"]),
    "iata": lambda: pick(["LHR", "CDG", "MAD", "FRA", "JFK", "NRT", "LIS", "DUB", "AMS", "BCN", "SFO", "YUL"]),
    "seed_n": lambda: str(pick([0, 1, 7, 42, 123, 1234, 2024, 31337])), "tokens_n": lambda: str(pick([512, 1024, 2048, 4096, 8192, 32000, 128000])),
    "ma": lambda: "%d" % R.randint(2, 30), "mg": lambda: pick(["5", "10", "20", "40", "250", "500"]), "lab": lambda: "%.1f" % (R.randint(30, 120) / 10),
    "course": lambda: "%s%d" % (pick(["CS", "MATH", "HIST", "BIO", "ECON"]), R.randint(100, 499)), "room": lambda: str(R.randint(101, 940)),
    "seat": lambda: "%d%s" % (R.randint(1, 40), pick("ABCDEF")), "gateno": lambda: pick("ABCD") + str(R.randint(1, 60)),
    "sentence": lambda: pick(PLAIN_SENTENCES), "lanport": lambda: str(pick([22, 80, 443, 3000, 5432, 8080, 8443, 9090])),
}


def bfill(tmpl):
    if callable(tmpl):
        return tmpl()
    memo = {}
    out = []
    for lit_, field, spec, conv in _FMT.parse(tmpl):
        out.append(lit_)
        if field is not None:
            if field not in memo:
                memo[field] = BS[field]()
            out.append(memo[field])
    return "".join(out)


ORDINARY = [
    ("health", "physio exercises: 3x10 calf raises, 2x15 bridges, hold each hamstring stretch {n2} sec"),
    ("health", "Dr. {lname} said ibuprofen 400mg with food, max 3 a day, for {n} days"),
    ("health", "blood pressure this morning {bp} — a bit high, recheck {day}"),
    ("health", "flu jab booked {day} {t} at the pharmacy on {street}"),
    ("health", "allergy list for the school form: penicillin, peanuts (mild), plasters make {kid} itchy"),
    ("health", "slept badly, bed at {t}, woke twice, maybe {n} hours total"),
    ("health", "ran {km} km in {min} min, left knee ok, calf tight"),
    ("health", "dentist recall due in {month}, ask about the wisdom tooth"),
    ("health", "eye test results: right -1.25, left -1.50, new glasses ready in {n} days"),
    ("family", "{kid}'s shoe size is now {shoe}, feet grew again"),
    ("family", "pick {kid} up from football at {t}, then swimming till {t2}"),
    ("family", "mum's flight {flight} lands {t}, terminal {n}"),
    ("family", "Grandpa's birthday {date} — he'd like a {gift}"),
    ("family", "{kid} lost a tooth today!! tooth fairy rate is apparently {price2} now"),
    ("family", "babysitter {name} can do {day} evening, {price}/hr, home by 11"),
    ("family", "{kid}'s teacher is Ms {lname}, parents evening {day} at {t}"),
    ("travel", "hotel in {city}: check-in after 3pm, breakfast 7–10, {n} min walk from the station"),
    ("travel", "flight {flight} departs {t}, gate closes 20 min before, seat {seat}"),
    ("travel", "packing: adapters, sunscreen, kids' passports, swim stuff, {food} for the plane"),
    ("travel", "train to {city} leaves platform {n} at {t}, coach C"),
    ("travel", "car hire desk is in the multi-storey, level {n}; return with a full tank"),
    ("travel", "{city} ideas: old town walk, the market on {day}, that tapas place {name} mentioned"),
    ("work", "1:1 with {name} moved to {day} {t}"),
    ("work", "Q{q} planning doc: draft by {day}, review with the team after"),
    ("work", "retro notes: deploys too slow, flaky tests in checkout, on-call handover needs a template"),
    ("work", "expense report for the {city} trip: {price} total, receipts in the shared folder"),
    ("work", "standup: finished the CSV export, today pagination, blocked on design review"),
    ("work", "interview panel {day} {t}: candidate for the backend role, I'm doing system design"),
    ("work", "remember to update the on-call rota before {date}, {name} swaps with me"),
    ("shopping", "shopping list: {food}, {food2}, {food3}, milk"),
    ("shopping", "returns: the blue jacket (too small), refund should be {price}"),
    ("shopping", "vacuum A {price} vs vacuum B {price2} — B has the better filter"),
    ("shopping", "birthday present ideas for {name}: {book}, candles, a plant"),
    ("finance", "paid council tax {price}, next instalment {date}"),
    ("finance", "budget this month: groceries {price}, fuel {price2}, eating out {price3}"),
    ("finance", "rent goes up to {price2} from {month}, need to adjust the standing order"),
    ("finance", "savings goal {price2} by December, currently on track"),
    ("finance", "split the cabin: {price} each, {name} paid the deposit"),
    ("home", "boiler service {day} between 8 and 12"),
    ("home", "hallway paint: Farrow & Ball 'Skimming Stone', need {n} tins"),
    ("home", "meter reading {date}: electricity {meter} kWh"),
    ("home", "the fuse for the kitchen lights is #{n} in the box under the stairs"),
    ("home", "bins: green on {day}, black every other week"),
    ("home", "curtains for the bedroom: 168 x 229 cm, blackout lining"),
    ("hobbies", "guitar: practise the F barre chord, then the intro to {song}"),
    ("hobbies", "book club pick for {month}: '{book}'"),
    ("hobbies", "sourdough: feed the starter at {t}, bake tomorrow"),
    ("hobbies", "garden: sow carrots and lettuce in row {n}, tomatoes go out after the frost"),
    ("hobbies", "chess: practise the Italian opening, look up the Fried Liver line"),
    ("hobbies", "knitting pattern: cast on {n3} stitches, rib for 5 cm"),
    ("car", "car service done at {mi} miles, next due at {mi2}"),
    ("car", "tyre pressure front {n2} psi, rear {n2} psi (check when cold)"),
    ("car", "MOT due {date}, book the garage on {street}"),
    ("car", "windscreen chip — insurance covers repair, call them {day}"),
    ("calendar", "{day}: {t} dentist, {t2} pick up kids, 7pm book club"),
    ("calendar", "school holidays start {date}, camp runs the first two weeks"),
    ("calendar", "wedding on {date} in {city}, dress code smart casual"),
    ("recipe", "pancakes: 1 cup flour, 1 egg, 1 cup milk, pinch of salt, 1 tbsp sugar"),
    ("recipe", "chilli: onion, garlic, 500g mince, 2 tins tomatoes, kidney beans, cumin, simmer {n2} min"),
    ("recipe", "grandma's lemon cake — 200g butter, 200g sugar, 4 eggs, 200g self-raising flour, zest of 2 lemons, 180°C for {n2} min"),
    ("recipe", "overnight oats: 50g oats, 150ml milk, spoon of yogurt, {food} on top"),
    ("recipe", "dal: 1 cup red lentils, turmeric, cumin seeds, ginger, tomatoes, cook {n2} min, temper with ghee"),
    ("sql", "SELECT customer_id, SUM(total) FROM orders WHERE created_at >= '{isodate}' GROUP BY customer_id ORDER BY 2 DESC LIMIT {n2};"),
    ("sql", "CREATE INDEX CONCURRENTLY idx_orders_user_created ON orders (user_id, created_at);"),
    ("sql", "UPDATE tickets SET status = 'closed' WHERE updated_at < now() - interval '{n2} days';"),
    ("sql", "SELECT date_trunc('week', created_at) AS wk, count(*) FROM signups GROUP BY 1 ORDER BY 1;"),
    ("sql", "-- slow query from {day}\nEXPLAIN ANALYZE SELECT * FROM events WHERE account_id = {n4} AND type = 'login';"),
    ("form", "Name: {fullname}\nDate of birth: {dob}\nEmergency contact: {name2} ({rel})\nAllergies: none known"),
    ("form", "Registration\nChild: {kid}\nClass: {n}B\nDietary: vegetarian\nCollection: parent"),
    ("form", "Return form\nOrder: {order_shop}\nReason: wrong size\nRefund to: original payment method"),
    ("ticket", "SUP-{n4}: customer can't export invoices to PDF, Chrome, steps attached"),
    ("ticket", "Bug: dark mode toggle resets after reload (Safari only). Repro 3/3."),
    ("ticket", "INFRA-{n4}: disk on the build agent at 91%, clean docker images weekly"),
    ("ticket", "Feature request from {name}: allow CSV import of contacts with custom fields"),
    ("misc", "podcast recommendation from {name}: the one about the history of {word}s"),
    ("misc", "{name} recommended the {word} café on {street}"),
    ("misc", "film night: {book}-style mystery, {name} brings snacks"),
    ("misc", "charity run {date}, raised {price2} so far"),
    ("misc", "note from the vet: {pet} is 4.2 kg, healthy, next check in {month}"),
    ("misc", "neighbours at number {n3} are away {day}-{day}, feed their cat twice a day"),
    ("long", "Trip plan {city}\nFri: arrive {t}, check in, dinner near the harbour\nSat: walking tour 10am, market, museum (closed Mondays!)\nSun: brunch with {name}, train home {t2}"),
    ("long", "Notes from parents evening:\n- {kid} doing well in maths, needs to read more at home\n- PE kit forgotten 3 times\n- school trip to the science museum on {date}, £{n3} by Friday"),
    ("long", "Meeting notes {date}\nAttendees: {name}, {name2}, me\n1. Launch slips one week, QA found the export bug\n2. Hiring: two interviews next week\n3. Budget review moved to {day}\nActions: me — update the roadmap; {name} — talk to design"),
    ("long", "Recipe — shakshuka for 2\n1 onion, 1 red pepper, 2 garlic cloves, 1 tin tomatoes, 1 tsp cumin, 1 tsp paprika, 4 eggs, feta, parsley.\nSoften onion and pepper 10 min, add spices and tomatoes, simmer {n2} min, make wells, crack eggs, lid on 6–8 min."),
    ("long", "Car stuff\n- insurance renews {date}, quote from the comparison site {price2}\n- service at {mi} miles, brake pads next time\n- parking permit expires end of {month}"),
    ("long", "House viewing {day} {t}\n+ big garden, south facing, new boiler\n- small second bedroom, road noise, damp patch in the bathroom\nasking {price2}k, agent says flexible"),
    ("long", "Hi {name},\nThanks for having us last weekend! The kids haven't stopped talking about the treehouse. Let's do the return visit in {month} — we'll do the barbecue.\nLove, {name2}"),
    ("long", "Support call with the energy company {date}\n- meter was estimated for 3 months, submitted real reading {meter}\n- refund of {price} in 5–7 working days\n- reference number given: {n4}"),
    ("long", "Garden plan\nBed 1: tomatoes (6), basil between\nBed 2: courgettes (2), nasturtiums\nBed 3: carrots, beetroot, lettuce in succession\nWater every evening in July, feed tomatoes weekly from first flowers"),
    ("long", "Incident summary: checkout latency spike {date} {t}–{t2}. Root cause: a slow query after the index was dropped by a migration. Fix: restored the index, added a migration check. Follow-ups owned by {name}."),
]


def ordinary_record():

    cat, t = pick(ORDINARY)
    return "note-" + cat, bfill(t), {"seg": "ordinary", "lang": "en"}


def benign_config_record():
    f = pick(FORMATS)
    sl = slug(f["vendor"])
    pairs = [benign_pair(sl) for _ in range(R.randint(1, 5))]
    seen_k = []
    P = []
    for k, v in pairs:
        if k not in seen_k:
            seen_k.append(k)
            P.append((k, v))
    m = vendor_meta(f, secret=False)
    cname, core = render_container(P, m)
    return "config-snippet", core, {"seg": "config", "container": cname, "lang": "en"}


# --------------------------------------------------------------------------
# benign/hard: look-alike families (nothing here grants access)
# --------------------------------------------------------------------------
FAMILIES = [
    # personal data that is not a credential
    ("pd-phone", ["{name}'s new number: {phone}", "dentist reception {phone} (press 2 for appointments)", "plumber — {phone}, ask for {name}"]),
    ("pd-email", ["{name}'s work email is {email}", "send the photos to {email}", "new contact: {fullname} <{email}>"]),
    ("pd-address", ["new address for {name}: {addr}", "party at {addr}, ring the top bell", "deliver to {addr} (leave with neighbour)"]),
    ("pd-birthday", ["{name}'s birthday is {dob}", "DOB for the insurance form: {dob}", "{kid} born {dob}, 3.4 kg"]),
    ("pd-passport-gb", ["passport number {passport_gb}, expires {date} 2031", "{kid}'s passport no. {passport_gb} — renew before summer"]),
    ("pd-passport-de", ["Reisepass Nr. {passport_de}, gültig bis {date} 2030"]),
    ("pd-passport-us", ["US passport {passport_us}, issued {date} 2021"]),
    ("pd-passport-fr", ["passeport n° {passport_fr}, délivré le {date} 2022"]),
    ("pd-ssn", ["SSN for the W-4: {ssn}", "tax form needs my social: {ssn}"]),
    ("pd-nino", ["National Insurance number {nino} for the new job paperwork"]),
    ("pd-dni", ["DNI {dni} para la reserva del hotel"]),
    ("pd-nhs", ["NHS number {nhs} (for the GP registration)"]),
    ("pd-steuer-id", ["Steuer-ID {steuerid} für die Steuererklärung"]),
    ("pd-codice-fiscale", ["codice fiscale di mamma: {codice_fiscale}"]),
    ("pd-driver-licence", ["driving licence number {driver_uk}, photocard expires {date} 2029"]),
    ("pd-aadhaar-masked", ["Aadhaar (masked copy for KYC): {aadhaar_masked}"]),
    ("pd-order-amazon", ["amazon order {order_amz} — arriving {day}", "return label printed for order {order_amz}"]),
    ("pd-order-shop", ["order {order_shop} shipped, {n} items", "webshop order {order_shop} still processing"]),
    ("pd-order-ebay", ["ebay order {ebay_order}, seller says posted today"]),
    ("pd-tracking-ups", ["UPS tracking {ups}", "parcel {ups} out for delivery"]),
    ("pd-tracking-fedex", ["FedEx tracking number {fedex}, signature required"]),
    ("pd-tracking-usps", ["USPS tracking {usps}"]),
    ("pd-tracking-dhl", ["DHL Sendungsnummer {dhl}"]),
    ("pd-tracking-royalmail", ["Royal Mail tracked: {royalmail}"]),
    ("pd-tracking-postnl", ["PostNL track & trace {postnl}"]),
    ("pd-tracking-laposte", ["Colissimo suivi {laposte}"]),
    ("pd-tracking-jppost", ["ゆうパック問い合わせ番号 {jppost}"]),
    ("pd-policy-number", ["home insurance policy {policy}, renews {month}", "travel insurance policy no {policy}, emergency line {phone}"]),
    ("pd-claim-number", ["windscreen claim ref {claim}", "claim {claim} — assessor visiting {day}"]),
    ("pd-member-number", ["gym membership no. {member}", "library card number {member} (the number on the front)", "frequent flyer {member}, silver tier"]),
    ("pd-invoice-number", ["invoice {invoice} paid {date}", "chase {invoice}, 30 days overdue"]),
    ("pd-imei", ["IMEI of the old phone: {imei} (for the insurance claim)", "lost phone IMEI {imei}, reported to the carrier"]),
    ("pd-vin", ["car VIN {vin} — needed for the parts order", "VIN {vin}, reg {plate}"]),
    ("pd-iccid", ["SIM ICCID {iccid} (printed on the card, for the port-in form)"]),
    ("pd-bank-branch", ["bank branch: sort code {sortcode}, {street} branch, open till 4pm", "routing number {routing} (public, on the bank's website)", "BIC/SWIFT for transfers to the landlord's bank: {bic}"]),
    ("pd-license-plate", ["rental car plate {plate}, silver golf", "neighbour's visitor parked as {plate}"]),
    ("pd-mac-address", ["printer MAC {mac}, reserve .50 for it on the router", "smart plug MAC {mac}"]),
    ("pd-ip-address", ["home NAS is on {lanip}", "server public IP {ip}, port {lanport}"]),
    ("pd-serial-number", ["dishwasher serial {serial}, warranty till 2027", "laptop serial {serial} for the IT asset list"]),
    ("pd-coordinates", ["campsite coords {coords}", "parked at {coords}"]),
    ("pd-isbn", ["the book {name} recommended: ISBN {isbn}"]),
    ("pd-ean", ["barcode of the cat food that works: {ean}"]),
    ("pd-blood-type", ["blood type O neg, donor card in wallet", "{kid}: blood group A+, no allergies"]),
    ("med-prescription", ["prescription: amoxicillin {mg}mg 3x daily for 7 days", "repeat prescription: levothyroxine {ma}mcg, collect {day}"]),
    ("med-lab-values", ["bloods: Hb {lab} g/dL, ferritin {n3}, vitamin D {n3} nmol/L", "HbA1c {n3} mmol/mol, cholesterol {lab}"]),
    ("med-note", ["physio: lateral epicondylitis, avoid lifting, ice 15 min", "diagnosis code {icd} on the sick note"]),
    ("med-vaccine", ["tetanus booster {date} 2024, batch {serial}", "{kid}'s MMR second dose done {date}"]),
    ("pd-shoe-clothes", ["sizes: {kid} shoes {shoe}, jeans age 9-10, {name} M"]),
    ("pd-room-seat", ["hotel room {room}, breakfast on floor 1", "seat {seat}, gate {gateno}, boarding {t}"]),
    # hashes, ids, resource identifiers
    ("id-md5", ["md5 of the ISO: {md5}", "MD5 ({word}.zip) = {md5}"]),
    ("id-sha1", ["sha1sum {sha1}  backup.tar", "SHA1 fingerprint of the download: {sha1}"]),
    ("id-sha256", ["sha256 checksum for the installer: {sha256}", "{sha256}  {word}-{semver}.tar.gz"]),
    ("id-sha512", ["SHA512 of the firmware image: {sha512}"]),
    ("id-crc32", ["CRC32 of the rom: {crc32}"]),
    ("id-git-commit", ["bisect says the bug came in with {gitsha}", "deployed {gitsha} to prod at {t}", "revert commit {gitsha}"]),
    ("id-git-short", ["fixed in {shortsha}, released in v{semver}", "cherry-pick {shortsha} onto the release branch"]),
    ("id-uuid", ["request id {uuid} failed with 502", "order UUID {uuid}", "tenant {uuid} migrated"]),
    ("id-uuid-upper", ["device ID {UUID} (from Settings > About)"]),
    ("id-ulid", ["event {ulid} duplicated in the queue"]),
    ("id-ksuid", ["segment message id {ksuid}"]),
    ("id-objectid", ["mongo doc _id {objectid} has the broken address"]),
    ("id-snowflake", ["discord message id {snowflake} (for the mods)", "tweet id {snowflake}"]),
    ("id-aws-account", ["AWS account id {awsacct} (prod), {awsacct} is staging — for the console switcher"]),
    ("id-aws-arn-role", [lambda: "arn:aws:iam::%s:role/%s" % (rs(DIG, 12), pick(["deploy-role", "ReadOnlyAccess", "lambda-exec", "ci-oidc"]))]),
    ("id-aws-arn-s3", [lambda: "bucket arn: arn:aws:s3:::%s-%s-%s" % (pick(WORDS), pick(["logs", "assets", "backups"]), pick(["prod", "eu"]))]),
    ("id-aws-arn-lambda", [lambda: "arn:aws:lambda:%s:%s:function:%s-%s" % (SPECIAL["region"](), rs(DIG, 12), pick(WORDS), pick(["handler", "resize", "cron"]))]),
    ("id-aws-ec2", ["instance {ec2} in {region} is the bastion", "terminate {ec2} after the test"]),
    ("id-aws-vpc", ["prod VPC {vpc}, subnets {subnet} / {subnet}"]),
    ("id-aws-sg", ["open 443 on security group {sg}"]),
    ("id-aws-ami", ["base image {ami} (ubuntu 22.04, {region})"]),
    ("id-gcp-project", ["GCP project id: {gcpproj}", "billing export lives in {gcpproj}"]),
    ("id-gcp-sa-email", [lambda: "grant roles/storage.objectViewer to %s@%s.iam.gserviceaccount.com" % (pick(["ci-deployer", "reporting", "backup"]), BS["gcpproj"]())]),
    ("id-azure-subscription", ["Azure subscription id {azsub} (Pay-As-You-Go)", "tenant id {uuid} — the directory, not a secret"]),
    ("id-azure-resource", [lambda: "/subscriptions/%s/resourceGroups/rg-%s-prod/providers/Microsoft.Web/sites/%s-api" % (uuid4(), pick(WORDS), pick(WORDS))]),
    ("id-k8s-uid", ["pod uid {uuid} keeps restarting (OOMKilled)"]),
    ("id-cloudflare-zone", ["Cloudflare zone ID {cfzone} and account ID {cfzone} (IDs, from the overview page)"]),
    ("id-docker-digest", ["pin the image: nginx@{digest}", "image digest {digest}"]),
    ("id-npm-integrity", ['"integrity": "{integrity}"']),
    ("id-sri", ['<script src="/vendor.js" integrity="{sri}" crossorigin="anonymous"></script>']),
    ("id-etag", ["ETag: {etag}"]),
    ("id-traceparent", ["traceparent: {traceparent}"]),
    ("id-stripe-objects", ["refund {ch} for customer {cus}", "payment intent {pi} stuck in requires_action", "webhook {evt} retried 3x", "price id {price_id} for the pro plan", "connected account {acct} (the plumber's shop)"]),
    ("id-slack-ids", ["post the report in channel {slackchan}, ping {slackuser}"]),
    ("id-twilio-sid-alone", ["Twilio Account SID {twsid} (just the account identifier — token lives in Vault)"]),
    ("id-aws-key-id-alone", ["IAM user access key ID {akiaid} was deactivated; only the ID, secret was never stored here"]),
    ("id-google-client-id", ["OAuth client ID {gclientid} — public, goes in the frontend config"]),
    ("id-github-run", ["GitHub Actions run {runid} failed on the lint step"]),
    ("id-request-id", ["support asked for the request id: {reqid}"]),
    ("id-semver", ["upgrade postgres client to {semver}, breaking change in {semver}"]),
    ("id-hex-color", ["brand colours: primary {hexcolor}, accent {hexcolor}"]),
    # public keys and certificates
    ("pub-ssh-ed25519", ["my public key for the server:\n{sshpub}", "add this to authorized_keys: {sshpub}"]),
    ("pub-ssh-rsa", ["deploy PUBLIC key (read-only):\n{sshrsapub}"]),
    ("pub-pem", ["JWT verification public key:\n{pubpem}"]),
    ("pub-certificate", ["intermediate cert for the load balancer:\n{certpem}"]),
    ("pub-csr", ["CSR sent to the CA:\n{csr}"]),
    ("pub-pgp", ["my PGP public key, encrypt to this:\n{pgppub}"]),
    ("pub-gpg-fingerprint", ["GPG fingerprint to verify releases: {gpgfp}"]),
    ("pub-ssh-host-fingerprint", ["server host key fingerprint (check on first connect): ED25519 {sshfp}"]),
    ("pub-btc-address", ["donations: {btc}", "send the refund to my BTC address {btclegacy}"]),
    ("pub-eth-address", ["my ETH address (public, for receiving): {eth}"]),
    ("pub-xpub", ["watch-only wallet xpub: {xpub}"]),
    ("pub-sol-address", ["SOL wallet address for the payout: {sol}"]),
    ("pub-npub", ["follow me on nostr: {npub}"]),
    ("pub-age-recipient", ["age recipient (public) for the backups: {agepub}"]),
    ("pub-wireguard-peer", ["[Peer]\nPublicKey = {wgpub}\nEndpoint = {ip}:51820\nAllowedIPs = 10.8.0.0/24"]),
    ("pub-dkim-record", [lambda: "DKIM TXT: v=DKIM1; k=rsa; p=" + b64(rbytes(270))]),
    ("pub-spf-dmarc", ["SPF: v=spf1 include:_spf.google.com ~all\nDMARC: v=DMARC1; p=quarantine; rua=mailto:dmarc@{word}.com"]),
    # publishable / public-by-design keys, marked
    ("publishable-stripe", ["Stripe publishable key (pk_, safe for the frontend): {pkstripe}"]),
    ("publishable-mapbox", ["Mapbox public token for the map widget: {mapboxpk}"]),
    ("publishable-supabase-anon", ["Supabase anon (public) key — fine in the browser, RLS protects data: {jwtanon}"]),
    ("publishable-recaptcha-site", ["reCAPTCHA SITE key (public): {recaptcha_site}"]),
    ("publishable-turnstile-site", ["Turnstile site key, the public one: {turnstile_site}"]),
    ("publishable-hcaptcha-site", ["hCaptcha sitekey (public): {hcaptcha_site}"]),
    ("publishable-posthog", ["PostHog project API key (public, in the JS snippet): {phc}"]),
    ("publishable-analytics-ids", ["GA4 measurement ID {ga4}, GTM container {gtm}"]),
    ("publishable-clerk", ["Clerk publishable key: {clerkpk}"]),
    ("publishable-razorpay-keyid", ["Razorpay key_id for checkout.js (public part only): {rzpkeyid}"]),
    ("publishable-square-appid", ["Square application ID (public): {sqappid}"]),
    ("publishable-adyen-client", ["Adyen client key for Drop-in (client-side, public): {adyenclient}"]),
    ("publishable-braintree-tokenization", ["Braintree tokenization key (client-side): {btokenize}"]),
    # documented example values, marked
    ("example-aws-docs", ["AWS docs example — AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (from the CLI guide, not ours)"]),
    ("example-jwt-io", ["the sample token on jwt.io: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c (docs example)"]),
    ("example-slack-docs", ["Slack docs placeholder token: xoxb-not-a-real-token-this-will-not-work"]),
    ("example-twilio-docs", ["Twilio quickstart shows ACXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX and your_auth_token as placeholders"]),
    ("example-openai-docs", ["docs example: export OPENAI_API_KEY=\"your_api_key_here\""]),
    ("example-github-docs", ["GitHub docs example: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX (placeholder)"]),
    ("example-rfc-values", ["RFC 6238 test vector secret is the ASCII string 12345678901234567890 — test data from the spec, not an account"]),
    ("example-connection-string", ["README example: postgres://user:password@localhost:5432/mydb (placeholder values)"]),
    # published test cards
    ("testcard-visa", ["Stripe test card {testcard}, any future expiry, any CVC — test mode only"]),
    ("testcard-generic", ["QA: use test card number {testcard} in the sandbox checkout", "published test number {testcard} (sandbox)"]),
    ("testcard-3ds", ["3DS test card for the sandbox: 4000 0027 6000 3184, exp 12/34, CVC 123 (Stripe docs)"]),
    ("card-last4-only", ["paid with the visa ending {last4}", "card ending in {last4} expired, update the subscription"]),
    # masked / redacted
    ("masked-api-key", [lambda: "key in use: sk_live_" + "•" * 20 + rs(ALPH["a"], 4), lambda: "token: ghp_" + "*" * 32 + rs(ALPH["a"], 4) + " (masked in the UI)"]),
    ("masked-aws", [lambda: "AWS_SECRET_ACCESS_KEY=****************************" + rs(ALPH["a"], 4)]),
    ("masked-password", ["password: ********", "pw: [hidden]", "Password: •••••••••• (shown as dots in the app)"]),
    ("masked-redacted", ["Authorization: Bearer [REDACTED]", "api_key=<redacted> in the log line, good", "DATABASE_URL=postgres://app:***@db.internal:5432/app"]),
    ("masked-card", [lambda: "card **** **** **** %s, exp **/**" % rs(DIG, 4), lambda: "XXXX-XXXX-XXXX-%s" % rs(DIG, 4)]),
    ("masked-pin", ["PIN: ****", "door code ••••# (ask Sam)"]),
    ("masked-truncated-token", [lambda: "the token starts with xoxb-12… and I deleted the rest"]),
    # placeholders
    ("placeholder-angle", ["API_KEY=<YOUR_API_KEY>", "export STRIPE_SECRET_KEY=<paste here>"]),
    ("placeholder-text", ["password = \"your-password-here\"", "token: REPLACE_ME", "SECRET_KEY=changeme  # placeholder, real one injected at deploy"]),
    ("placeholder-x", ["api_key: xxxxxxxxxxxxxxxxxxxxxxxx", "OPENAI_API_KEY=sk-..."]),
    ("placeholder-todo", ["TODO: ask Priya for the Twilio token, don't commit it"]),
    ("default-changeme-marked", ["router manual says the factory default login is admin/admin — we changed it on install day", "Grafana ships with admin/admin and forces a change at first login (docs)"]),
    ("env-var-ref-python", ["api_key = os.environ[\"STRIPE_SECRET_KEY\"]", "token = os.getenv(\"GITHUB_TOKEN\")"]),
    ("env-var-ref-js", ["const key = process.env.OPENAI_API_KEY;", lambda: "headers: { Authorization: `Bearer ${process.env.API_TOKEN}` }"]),
    ("env-var-ref-shell", ["curl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/user", "psql \"$DATABASE_URL\" -c 'select 1'"]),
    ("env-var-ref-gha", [lambda: "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  AWS_ROLE: ${{ vars.AWS_ROLE_ARN }}"]),
    ("env-var-ref-compose", [lambda: "environment:\n  - DB_PASSWORD=${DB_PASSWORD:?missing}\n  - REDIS_URL=${REDIS_URL}"]),
    ("secret-ref-vault", ["password comes from vault: secret/data/prod/postgres#password", lambda: "{{ with secret \"kv/data/app\" }}{{ .Data.data.api_key }}{{ end }}"]),
    ("secret-ref-aws-sm", [lambda: "arn:aws:secretsmanager:%s:%s:secret:prod/db-credentials-%s" % (SPECIAL["region"](), rs(DIG, 12), rs(ALPH["a"], 6))]),
    ("secret-ref-gcp-sm", [lambda: "projects/%s/secrets/stripe-key/versions/latest" % rs(DIG, 12)]),
    ("secret-ref-1password", ["op://Private/Stripe/credential", "op run --env-file=.env.tpl -- npm start"]),
    ("secret-ref-azure-kv", [lambda: "@Microsoft.KeyVault(SecretUri=https://kv-%s.vault.azure.net/secrets/DbPassword/)" % pick(WORDS)]),
    ("secret-ref-k8s", ["env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db-creds\n      key: password"]),
    ("secret-ref-doppler", ["doppler run --project api --config prd -- ./server"]),
    ("secret-ref-terraform-var", [lambda: "variable \"db_password\" {\n  type      = string\n  sensitive = true\n}"]),
    # encrypted blobs without their key
    ("enc-sops", ["db_password: {sops}\nsops:\n  kms:\n  - arn: arn:aws:kms:eu-west-1:{awsacct}:key/{uuid}"]),
    ("enc-ansible-vault", ["vault.yml (encrypted, key is with ops):\n{avault}"]),
    ("enc-pgp-message", ["encrypted note (needs my private key + passphrase):\n{pgpmsg}"]),
    ("enc-kms-ciphertext", ["KMS CiphertextBlob (decrypt needs IAM access): {kms}"]),
    ("enc-age-file", [lambda: "-----BEGIN AGE ENCRYPTED FILE-----\n%s\n-----END AGE ENCRYPTED FILE-----" % wrap_lines(b64(rbytes(180)), 64)]),
    ("enc-sealed-secret", [lambda: "kind: SealedSecret\nspec:\n  encryptedData:\n    password: Ag" + rs(ALPH["b"], 300)]),
    ("enc-openssl-salted", [lambda: "openssl enc output: U2FsdGVkX1" + rs(ALPH["b"], 60) + "=="]),
    # password hashes
    ("hash-bcrypt", ["users.password_hash = {bcrypt}", "htpasswd line: admin:{bcrypt}"]),
    ("hash-argon2", ["stored hash: {argon2}"]),
    ("hash-sha512crypt", [lambda: "/etc/shadow: %s:%s:19700:0:99999:7:::" % (pick(FIRST), sha512crypt())]),
    ("hash-md5crypt", ["old router config hash {md5crypt}"]),
    ("hash-django", ["auth_user.password = {djhash}"]),
    ("hash-apr1", [lambda: "%s:$apr1$%s$%s" % (pick(FIRST), rs(ALPH["a"], 8), rs("./" + ALPH["a"], 22))]),
    ("hash-ldap-ssha", [lambda: "userPassword: {SSHA}" + b64(rbytes(24))]),
    ("hash-yescrypt", [lambda: "$y$j9T$%s$%s" % (rs("./" + ALPH["a"], 22), rs("./" + ALPH["a"], 43))]),
    ("hash-cisco-type8", [lambda: "enable secret 8 $8$%s$%s" % (rs(ALPH["a"], 14), rs("./" + ALPH["a"], 43))]),
    # innocuous encodings
    ("encoded-b64-plain", ["saw this in the logs, decodes to a normal sentence: {plainb64}", "base64 test string: {plainb64}"]),
    ("encoded-hex-plain", ["hex dump of the message: {plainhex}"]),
    ("encoded-rot13-joke", ["rot13 spoiler for the quiz answer: {plainrot13}"]),
    ("encoded-morse-word", ["learning morse: ... --- ... = SOS, .... . .-.. .-.. --- = HELLO"]),
    ("encoded-binary-word", ["{kid}'s coding club homework: 01101000 01101001 = 'hi'"]),
    ("encoded-url-query", ["search url: https://www.google.com/search?q=best+sourdough+starter%3F&hl=en"]),
    ("encoded-unicode-escape", ["JSON had caf\\u00e9 and na\\u00efve — just accents"]),
    ("encoded-punycode", ["the domain xn--bcher-kva.example is bücher.example"]),
    ("encoded-qr-url", ["QR on the menu decodes to https://menu.{word}cafe.com/table/{n}"]),
    # config look-alikes
    ("config-placeholder-env", [lambda: render_container([("STRIPE_SECRET_KEY", "${STRIPE_SECRET_KEY}"), ("LOG_LEVEL", "info")], vendor_meta({"vendor": "Stripe", "fmt": "config"}, secret=False))[1]]),
    ("config-empty-values", ["DATABASE_URL=\nREDIS_URL=\nSENTRY_DSN=\n# fill from the vault before running"]),
    ("config-public-values", [lambda: r_env([("NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY", BS["pkstripe"]()), ("NEXT_PUBLIC_GA_ID", BS["ga4"]()), ("NEXT_PUBLIC_API_URL", "https://api.%s" % domain())], {"vendor": "web", "slug": "web", "secret": False})]),
    ("config-ids-only", [lambda: r_yaml([("PROJECT_ID", BS["gcpproj"]()), ("REGION", BS["region"]()), ("BUCKET", "%s-assets" % pick(WORDS)), ("CLUSTER_ID", uuid4())], {"vendor": "gcp", "slug": "gcp", "secret": False})]),
    ("config-key-path-only", ["GOOGLE_APPLICATION_CREDENTIALS=/run/secrets/gcp-sa.json\nSSL_KEY_FILE=/etc/ssl/private/site.key"]),
    ("cli-password-stdin", ["cat ~/ghcr_token.txt | docker login ghcr.io -u octocat --password-stdin", "aws ecr get-login-password | docker login --username AWS --password-stdin {awsacct}.dkr.ecr.eu-west-1.amazonaws.com"]),
    ("cli-ssh-keygen", ["ssh-keygen -t ed25519 -C \"{email}\" -f ~/.ssh/id_work", "ssh-copy-id -i ~/.ssh/id_work.pub {name}@{lanip}"]),
    ("cli-password-prompt", ["$ mysql -u root -p\nEnter password:\nWelcome to the MySQL monitor."]),
    ("tool-gitignore", [".env\n.env.*\n*.pem\nsecrets/\n!.env.example"]),
    ("tool-gitleaks-config", [lambda: "[[rules]]\nid = \"generic-api-key\"\nregex = '''(?i)api[_-]?key\\s*[:=]\\s*['\"]?([a-z0-9]{32,})'''"]),
]


HOMONYMS = [
    ("homonym-dress-code", ["dress code for the wedding: black tie optional", "office dress code is relaxed on Fridays"]),
    ("homonym-zip-code", ["zip code for the delivery is {zip_us}", "their zip is {zip_us}, same as the old place"]),
    ("homonym-postcode", ["postcode for the sat nav: {pc_uk}"]),
    ("homonym-india-pin-code", ["PIN code for the Bengaluru office address: {pin_in}", "courier needs the PIN code {pin_in} (postal)"]),
    ("homonym-area-code", ["area code 0161 is Manchester", "the area code is 415, so it's SF"]),
    ("homonym-country-code", ["country code for Portugal is +351"]),
    ("homonym-error-code", ["windows update failed with error code {err}", "error code E24 on the washing machine = drain blocked"]),
    ("homonym-http-status", ["API returns code 429 when we hit the rate limit", "got a 503 code from the load balancer around {t}"]),
    ("homonym-promo-code-public", ["the bakery's public promo code on instagram is SPRING10 for 10% off", "newsletter discount code WELCOME15 (everyone gets it)"]),
    ("homonym-barcode", ["scan the barcode on the back, EAN {ean}"]),
    ("homonym-qr-menu", ["restaurant uses a QR code menu, no paper ones"]),
    ("homonym-morse-code", ["{kid} is learning morse code for scouts"]),
    ("homonym-source-code", ["source code for the plugin is on GitHub under MIT licence", "review the source code of the parser before upgrading"]),
    ("homonym-code-review", ["code review checklist: tests, naming, error handling, no TODOs"]),
    ("homonym-code-of-conduct", ["meetup code of conduct: be kind, no harassment, report to the organisers"]),
    ("homonym-building-code", ["building code says railings must be 1.1 m on balconies"]),
    ("homonym-tax-code", ["my tax code is 1257L this year", "tax code changed after the bonus, check the payslip"]),
    ("homonym-medical-codes", ["billing used CPT code 99213 and diagnosis {icd}"]),
    ("homonym-airport-code", ["airport codes: {iata} → {iata}, connecting in AMS"]),
    ("homonym-color-code", ["wire colour code: brown live, blue neutral, green/yellow earth"]),
    ("homonym-cheat-code", ["Konami code: up up down down left right left right B A start"]),
    ("homonym-course-code", ["course code {course}, lectures Tue/Thu"]),
    ("homonym-da-vinci-code", ["finished The Da Vinci Code, the ending was silly"]),
    ("homonym-bowling-pins", ["bowling night: knocked down 9 pins on the first frame", "{kid}'s score: 87, lots of pins left standing"]),
    ("homonym-rolling-pin", ["borrow Nan's rolling pin for the pastry"]),
    ("homonym-safety-pin", ["need safety pins for the race number"]),
    ("homonym-pin-badge", ["{kid} collects enamel pin badges, wants the Totoro one"]),
    ("homonym-pinned-post", ["pinned the meeting notes in #general"]),
    ("homonym-map-pin", ["dropped a pin at the car park so we find the car"]),
    ("homonym-gpio-pin", ["LED on GPIO pin 17, ground on pin 6", "the sensor's data pin goes to D2"]),
    ("homonym-pin-diode-hinge", ["the door hinge pin is loose, tap it back in", "replace the cotter pin on the trailer"]),
    ("homonym-garden-seeds", ["seeds to sow in {month}: tomato, basil, sweet peas", "saved 40 sunflower seeds from the big one"]),
    ("homonym-tournament-seed", ["we're seeded 3rd for the five-a-side tournament", "top seed lost in the second round"]),
    ("homonym-random-seed", ["set random seed = {seed_n} so the train/test split is reproducible", "np.random.seed({seed_n})  # for the notebook"]),
    ("homonym-seed-funding", ["they raised a $2M seed round led by a local fund"]),
    ("homonym-seed-recipe", ["sprinkle sesame seeds on the bagels before baking"]),
    ("homonym-key-lime-pie", ["dessert: key lime pie from the diner"]),
    ("homonym-piano-keys", ["two piano keys are sticking, call the tuner"]),
    ("homonym-music-key", ["the song is in the key of E minor, capo on 2"]),
    ("homonym-answer-key", ["answer key for the maths worksheet is at the back of the book"]),
    ("homonym-keycard", ["lost my office keycard, reception prints a new one for £10"]),
    ("homonym-keyring", ["bought a keyring with a bottle opener"]),
    ("homonym-florida-keys", ["road trip down to the Florida Keys in {month}"]),
    ("homonym-primary-key", ["users table: primary key id, unique key on email", "add a composite key (order_id, line_no)"]),
    ("homonym-keyboard-shortcut", ["shortcut: Ctrl+Shift+T reopens the closed tab"]),
    ("homonym-key-results", ["OKR key results: ship search v2, cut p95 latency by 30%"]),
    ("homonym-keynote", ["keynote at the conference starts {t}, room A"]),
    ("homonym-spare-key", ["spare house key is with the neighbours at number {n3}", "get another copy of the shed key cut"]),
    ("homonym-arcade-tokens", ["{kid} won 300 arcade tokens, swapped them for a yo-yo"]),
    ("homonym-subway-tokens", ["old NYC subway token in the drawer, keep as a souvenir"]),
    ("homonym-llm-tokens", ["model context is {tokens_n} tokens, the prompt was ~3k tokens", "billing: 1.2M input tokens this week"]),
    ("homonym-token-gesture", ["a small token of thanks for the neighbours — flowers"]),
    ("homonym-token-ring", ["grandad worked on token ring networks in the 80s"]),
    ("homonym-token-economy", ["classroom token economy: 10 tokens = extra playtime"]),
    ("homonym-token-contract", ["USDC contract address on Ethereum (public): 0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"]),
    ("homonym-mountain-pass", ["the mountain pass closes in winter, take the tunnel", "Stelvio Pass has 48 hairpins"]),
    ("homonym-boarding-pass", ["boarding pass is in the wallet app, seat {seat}"]),
    ("homonym-bus-ski-pass", ["monthly bus pass renews on the 1st", "ski pass for 6 days, collect at the kiosk"]),
    ("homonym-pass-rate", ["pass rate for the driving test centre is 47%", "{kid} passed the grade 3 piano exam!"]),
    ("homonym-hall-pass", ["teacher gave {kid} a hall pass for the nurse"]),
    ("homonym-passover", ["Passover seder at Ruth's, bring the wine"]),
    ("homonym-secret-santa", ["secret santa: £20 limit, draw names on the 1st", "I got {name} for secret santa, they like gardening"]),
    ("homonym-victorias-secret", ["return the Victoria's Secret order, wrong size"]),
    ("homonym-secret-recipe", ["Gran's secret ingredient in the stew is a spoon of marmite"]),
    ("homonym-secret-garden", ["reading The Secret Garden with {kid} at bedtime"]),
    ("homonym-trade-secret", ["legal training: trade secrets vs patents, slides in the drive"]),
    ("homonym-lock-of-hair", ["kept a lock of {kid}'s hair from the first haircut"]),
    ("homonym-locksmith", ["locksmith quoted {price2} to change the barrel"]),
    ("homonym-combination-pizza", ["order a combination pizza and garlic bread"]),
    ("homonym-combination-math", ["5 choose 3 = 10 combinations, check the homework"]),
    ("homonym-safe-harbor", ["safe harbor statement goes at the top of the earnings slides"]),
    ("homonym-locker-room", ["locker room at the pool is being refurbished"]),
    ("homonym-vault-gymnastics", ["{kid} nailed the vault at gymnastics, 13.2"]),
    ("homonym-access-road", ["the access road to the farm is flooded"]),
    ("homonym-login-page", ["design: new login page mockups from {name}, needs a dark mode variant"]),
    ("homonym-academic-credentials", ["her credentials: PhD in chemistry, 10 years at the lab"]),
    ("homonym-private-key-talk", ["explainer for the team: a private key signs, the public key verifies — never paste the private one in chat"]),
    ("homonym-master-bedroom", ["master bedroom needs new blinds"]),
    ("homonym-pin-number-jersey", ["jersey number 7, same as grandpa"]),
]

TALK_EN = [
    ("talk-reset-bank-pin", ["I need to reset my bank PIN tomorrow", "card PIN blocked after 3 tries, going to the branch"]),
    ("talk-change-wifi-password", ["change the wifi password after the party, too many people have it", "router: set a new wifi password this weekend"]),
    ("talk-forgot-password", ["forgot the council website password AGAIN, reset link sent", "locked out of the pension portal, they're posting a new activation letter"]),
    ("talk-2fa-setup", ["turn on 2FA for the email and the bank this weekend", "moved authenticator codes to the new phone, old phone wiped"]),
    ("talk-password-manager", ["moving everything into the password manager, then delete the notes app list", "ask Dad to install a password manager"]),
    ("talk-rotate-api-key", ["rotate the Stripe key on Monday and update the deploy pipeline", "reminder: the GitHub token expires in 7 days"]),
    ("talk-incident-leak", ["incident: a token was pasted in Slack, revoked within 10 min, postmortem {day}"]),
    ("talk-security-training", ["security training due: phishing module and password hygiene"]),
    ("talk-new-door-code-coming", ["landlord will text the new door code on {day}"]),
    ("talk-ask-for-password", ["ask {name} for the guest wifi password when we arrive", "need the login for the school portal, email the office"]),
    ("talk-password-policy", ["new policy: 14 characters minimum, no rotation unless compromised"]),
    ("talk-passkeys", ["switched the google account to a passkey, no more password typing"]),
    ("talk-recovery-codes-location", ["recovery codes are printed and in the fire safe, not on the computer"]),
    ("talk-seed-stored-offline", ["wallet seed is on the steel plate in the safe deposit box — never typed anywhere"]),
    ("talk-otp-not-arriving", ["the bank's SMS code never arrived, try the app approval instead"]),
    ("talk-card-blocked", ["card blocked for suspicious activity, new one arriving in 5 days"]),
    ("talk-pin-letter-arrived", ["PIN letter for the new card arrived, it's in the kitchen drawer unopened"]),
    ("talk-api-key-expired", ["the weather API key expired, the dashboard shows 401 — renew in their portal"]),
    ("talk-token-scopes", ["the CI token only needs read:packages, remove write"]),
    ("talk-account-compromised", ["someone logged into the old instagram from abroad — changed password and logged out all devices"]),
    ("talk-share-netflix", ["netflix says we need to set a 'household', sort out the account sharing"]),
    ("talk-master-password-hint", ["the master password hint is useless, I need a better method"]),
    ("talk-keys-lost", ["lost my keys at the park, check the lost property"]),
    ("talk-ssh-key-rotation", ["rotate the deploy SSH keys this quarter; generate new ones on the bastion, not laptops"]),
    ("talk-vault-unseal", ["vault needs 3 of 5 unseal keys after restart — holders are in the runbook"]),
]


def build_family_list():
    fams = []
    for name, temps in FAMILIES + HOMONYMS + TALK_EN:
        fams.append((name, "en", temps))
    for c, name, S, B, T, D in LANGS:
        fams.append(("talk-nocred-" + c, c, T))
    return fams


ALL_FAMILIES = build_family_list()


def _cfg_family(name, pairs_fn):
    def f():
        P = pairs_fn()
        extra = [benign_pair(None) for _ in range(R.randint(0, 2))]
        keys = [k for k, v in P]
        P = merge_pairs(P, [p for p in extra if p[0] not in keys])
        m = {"vendor": pick(["app", "billing", "web", "api", "worker", "infra"]), "fmt": "config", "slug": pick(["app", "billing", "web", "api", "worker", "infra"]), "secret": False, "credkeys": ()}
        return render_container(P, m)[1]
    return (name, [f])


CFG_FAMILIES = [
    _cfg_family("cfg-build-metadata", lambda: [("GIT_SHA", BS["gitsha"]()), ("BUILD_ID", uuid4()), ("IMAGE_DIGEST", BS["digest"]())]),
    _cfg_family("cfg-placeholders", lambda: [("API_KEY", pick(["<YOUR_API_KEY>", "REPLACE_ME", "your-api-key-here", "xxxxxxxxxxxxxxxx"])), ("API_SECRET", pick(["<YOUR_API_SECRET>", "TODO", "changeme-placeholder"]))]),
    _cfg_family("cfg-env-interpolation", lambda: [("DB_PASSWORD", "${DB_PASSWORD}"), ("STRIPE_SECRET_KEY", "${STRIPE_SECRET_KEY:?set me}"), ("REDIS_URL", "${REDIS_URL}")]),
    _cfg_family("cfg-secret-manager-refs", lambda: [("DB_PASSWORD_SECRET_ARN", "arn:aws:secretsmanager:%s:%s:secret:prod/db-%s" % (BS["region"](), rs(DIG, 12), rs(ALPH["a"], 6))), ("VAULT_PATH", "secret/data/%s/api" % pick(WORDS)), ("OP_REFERENCE", "op://Prod/%s/credential" % pick(["Stripe", "Twilio", "Postgres"]))]),
    _cfg_family("cfg-publishable-keys", lambda: R.sample([("STRIPE_PUBLISHABLE_KEY", BS["pkstripe"]()), ("RECAPTCHA_SITE_KEY", BS["recaptcha_site"]()), ("MAPBOX_PUBLIC_TOKEN", BS["mapboxpk"]()), ("POSTHOG_PUBLIC_KEY", BS["phc"]())], R.randint(1, 2))),
    _cfg_family("cfg-masked-values", lambda: [("STRIPE_SECRET_KEY", "sk_live_" + "*" * 24), ("DB_PASSWORD", "********"), ("SLACK_BOT_TOKEN", "xoxb-****-****-" + "*" * 12)]),
    _cfg_family("cfg-cloud-ids", lambda: [("AWS_ACCOUNT_ID", BS["awsacct"]()), ("VPC_ID", BS["vpc"]()), ("SUBNET_ID", BS["subnet"]()), ("SECURITY_GROUP_ID", BS["sg"]()), ("AMI_ID", BS["ami"]())]),
    _cfg_family("cfg-sops-encrypted", lambda: [(pick(["DB_PASSWORD", "API_TOKEN", "SMTP_PASSWORD"]), sops_enc())]),
    _cfg_family("cfg-password-hashes", lambda: [("ADMIN_PASSWORD_HASH", bcrypt_hash()), ("BASIC_AUTH_HTPASSWD", "admin:" + bcrypt_hash())]),
    _cfg_family("cfg-tls-certificate", lambda: [("TLS_CERT", cert_pem()), ("TLS_KEY_PATH", "/etc/ssl/private/server.key")]),
    _cfg_family("cfg-ssh-public-key", lambda: [("DEPLOY_PUBLIC_KEY", ssh_pub_ed()), ("KNOWN_HOSTS_FINGERPRINT", BS["sshfp"]())]),
    _cfg_family("cfg-jwt-public-key", lambda: [("JWT_PUBLIC_KEY", pub_pem()), ("JWKS_URL", "https://%s/.well-known/jwks.json" % domain())]),
    _cfg_family("cfg-docs-example-keys", lambda: [("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"), ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"), ("NOTE", "values copied from the AWS docs example")]),
    _cfg_family("cfg-empty-secrets", lambda: [("API_KEY", ""), ("WEBHOOK_SECRET", ""), ("SMTP_PASSWORD", "")]),
    _cfg_family("cfg-oauth-public-ids", lambda: [("GOOGLE_CLIENT_ID", BS["gclientid"]()), ("OAUTH_REDIRECT_URI", "https://%s/auth/callback" % domain()), ("OAUTH_SCOPES", "openid email profile")]),
    _cfg_family("cfg-tenant-ids", lambda: [("AZURE_TENANT_ID", uuid4()), ("AZURE_SUBSCRIPTION_ID", uuid4()), ("AZURE_RESOURCE_GROUP", "rg-%s-prod" % pick(WORDS))]),
    _cfg_family("cfg-pgp-public", lambda: [("RELEASE_SIGNING_PUBKEY", pgp_public()), ("RELEASE_KEY_FINGERPRINT", BS["gpgfp"]().replace(" ", ""))]),
    _cfg_family("cfg-checksums", lambda: [("INSTALLER_SHA256", BS["sha256"]()), ("INSTALLER_URL", "https://downloads.%s/%s-%s.tar.gz" % (domain(), pick(WORDS), BS["semver"]()))]),
    _cfg_family("cfg-wallet-addresses", lambda: [("PAYOUT_ETH_ADDRESS", BS["eth"]()), ("DONATION_BTC_ADDRESS", BS["btc"]())]),
    _cfg_family("cfg-test-mode", lambda: [("PAYMENTS_MODE", "test"), ("TEST_CARD_NUMBER", pick(PUBLISHED_TEST_CARDS)), ("TEST_CARD_NOTE", "published test number, sandbox only")]),
]
ALL_FAMILIES += [(n, "en", t) for n, t in CFG_FAMILIES]
CFG_FAMILY_NAMES = [n for n, t in CFG_FAMILIES]


CTX_SUBJECTS = ["quick one", "re: this weekend", "fwd: notes", "from my phone", "stuff", "following up", "re: re: plans", "note"]


def embed_ctx(core):
    """Neutral surrounding context, applied at the same rate to both labels' short cores."""
    s = R.randrange(5)
    who, who2 = pick(PEOPLE), pick(PEOPLE)
    if s == 0:
        return "Subject: %s\nFrom: %s <%s>\n\nHi %s,\n\n%s\n\n%s" % (pick(CTX_SUBJECTS), who, email_addr(ascii_name(who)), who2, core, pick(["Thanks!", "Cheers, " + who, "x", "Best,\n" + who]))
    if s == 1:
        return "Comment by %s (%s):\n%s" % (who, date_prefix().strip(" :—"), core)
    if s == 2:
        return "[%s] %s: %s\n[%s] %s: %s" % (clock(), who, pick(["can you save this?", "putting this here", "for the record", "ok"]), clock(), who2, core)
    if s == 3:
        return "## %s\n\n%s\n\n- [ ] %s" % (pick(["Notes", "Home", "Admin", "Misc", "To sort"]), core, filler())
    return "%s\n\n%s\n\n%s" % (filler(), core, filler())


# --------------------------------------------------------------------------
# key / namespace splits (secret) and their innocent counterparts (benign)
# --------------------------------------------------------------------------
import re as _re

_HEXTMPL = _re.compile(r"^([A-Za-z_\-]*)\{h:(\d+)\}$")
HEX_FORMATS = []
for _f in FORMATS:
    if len(_f["tmpl"]) == 1:
        _mm = _HEXTMPL.match(_f["tmpl"][0][1])
        if _mm and 32 <= int(_mm.group(2)) <= 64:
            HEX_FORMATS.append(_f)


def keysplit_secret(i):
    f = pick(HEX_FORMATS)
    var, t = f["tmpl"][0]
    mm = _HEXTMPL.match(t)
    prefix, n = mm.group(1), int(mm.group(2))
    h = rs(ALPH["h"], n)
    k = R.randint(12, min(32, n - 8))
    desc = "%s %s" % (f["vendor"], f["fmt"])
    if i % 2 == 0:
        keypart, rest = h[:k], h[k:]
        text = pick([
            "%s: %sthe first %d hex chars are this memory's own key (drop the 'mem_'), then %s" % (desc, ("prefix '%s', then " % prefix) if prefix else "", k, rest),
            "%s=%s<this note's key without mem_>%s" % (var, prefix, rest),
            "split the %s so it isn't in one place: start = the key this memory is saved under (minus mem_), end = %s%s" % (desc, rest, (" — and it begins with %s" % prefix) if prefix else ""),
        ])
    else:
        keypart, rest = h[-k:], h[:-k]
        text = pick([
            "%s: %s%s + the hex in this record's key (after mem_)" % (desc, prefix, rest),
            "%s is %s%s followed by the characters of this memory's key after 'mem_'" % (desc, prefix, rest),
        ])
    return "key-split", text, "mem_" + keypart, make_namespace_plain()


def make_namespace_plain():
    return ["memories", "u" + rs(DIG, R.randint(5, 9))]


def nssplit_secret(i):
    kind = i % 3
    if kind == 0:
        pw = personal_password()
        c = R.randint(4, len(pw) - 3)
        part, rest = pw[:c], pw[c:]
        ssid = pick(SSIDS)
        text = "wifi for %s: password = the last folder in this memory's namespace, immediately followed by %s" % (ssid, rest)
    elif kind == 1:
        p = pin(6)
        part, rest = p[:3], p[3:]
        text = "alarm code: first three digits are the third part of this note's namespace, last three are %s" % rest
    else:
        pw = strong_password(16)
        part, rest = pw[8:], pw[:8]
        text = "NAS admin password: %s + whatever the namespace's last element says (no space)" % rest
    ns = make_namespace_plain() + [part]
    return "namespace-split", text, mem_key(), ns


def keyref_benign(i):
    if i % 2 == 0:
        what = pick([("commit SHA", 40), ("sha256 of the backup archive", 64), ("file checksum (md5)", 32), ("build id", 32)])
        n = what[1]
        h = rs(ALPH["h"], n)
        k = R.randint(12, min(32, n - 8))
        if i % 4 == 0:
            keypart = h[:k]
            text = "%s: first %d chars are the same as this memory's key after mem_, the rest is %s" % (what[0], k, h[k:])
        else:
            keypart = h[-k:]
            text = "%s ends with the hex in this note's key (after 'mem_'); it starts %s" % (what[0], h[:-k])
        return "key-reference", text, "mem_" + keypart, make_namespace_plain()
    text = pick([
        "this note's key is just the id the app assigned — quote it to support if sync breaks (ticket #%d)" % R.randint(1000, 9999),
        "the 'mem_' key on this record is auto-generated and means nothing; search the %s logs for it if it fails to load" % pick(["sync", "import", "backup"]),
        "if the %s export looks wrong, compare this memory's key with the one in the CSV" % pick(["March", "weekly", "calendar", "contacts"]),
        "%s asked which note it was — I sent her this memory's key, it's only an identifier" % pick(PEOPLE),
    ])
    return "key-reference", text, mem_key(), make_namespace_plain()


def nsref_benign(i):
    kind = i % 3
    if kind == 0:
        part = pick(SSIDS).replace(" ", "_")
        text = "the %s wifi network name is the last folder in this note's namespace; ask %s for the password when we get there" % (pick(["cabin", "cottage", "studio", "boat", "office"]), pick(PEOPLE))
    elif kind == 1:
        part = rs(ALPH["h"], 8)
        text = "filed under the project code in the namespace (the last part) — that's just the %s board id for the %s team" % (pick(["Jira", "Linear", "Trello"]), pick(["mobile", "infra", "growth", "billing"]))
    else:
        part = str(R.randint(100, 999))
        text = "room number is the third element of this memory's namespace; breakfast %s–10 in %s" % (pick(["6:30", "7", "7:30"]), pick(CITIES))
    return "namespace-reference", text, mem_key(), make_namespace_plain() + [part]


# --------------------------------------------------------------------------
# generation
# --------------------------------------------------------------------------
N_VENDOR = 550
N_PERSONAL_EN = 156
N_HARD_EXTRA = 20
N_KEYSPLIT = 9
N_NSSPLIT = 5
N_ORDINARY = 215
N_CONFIG = 235
EMBED_P = 0.12
CFG_SHARE = 0.66
LONG_CFG = ("cfg-pgp-public", "cfg-jwt-public-key")
N_LOOKALIKE = 750


def ctxify(core):
    return embed_ctx(core) if chance(EMBED_P) else core


def material_for(mt):
    if mt == "token":
        return mat_token()
    if mt == "pw":
        return mat_pw()
    if mt == "alnum":
        return mat_pw(True) if chance(0.6) else mat_pin()
    if mt == "lower":
        m = mat_pw(True) if chance(0.6) else mat_pin()
        m["sec"] = m["sec"].lower()
        return m
    if mt == "pin":
        return mat_pin()
    if mt == "any":
        return mat_any()
    return {"type": "none", "desc": "", "sec": "", "ctx": [], "var": "x"}


def gen_vendor():
    chosen = R.sample(FORMATS, N_VENDOR)
    for f in chosen:
        def mk(f=f):
            pairs = instantiate(f)
            extra = [benign_pair(slug(f["vendor"])) for _ in range(R.choices([0, 1, 2], [40, 35, 25])[0])]
            keys = [k for k, v in pairs]
            extra = [p for p in extra if p[0] not in keys]
            allp = merge_pairs(pairs, extra)
            cname, core = render_container(allp, vendor_meta(f, True, keys))
            return "vendor-" + f["cat"], core, {"seg": "vendor", "container": cname, "vendor": f["vendor"], "fmt": f["fmt"], "cat": f["cat"], "lang": "en"}
        add_retry("secret", "plain", "vendor", mk)


def gen_personal():
    for _ in range(N_PERSONAL_EN):
        def mk():
            k, core, info = personal_english_record()
            return k, ctxify(core), info
        add_retry("secret", "plain", "personal", mk)
    for c, name, S, B, T, D in LANGS:
        for kind, t in S:
            def mk(c=c, kind=kind, t=t):
                return kind, ctxify(fill(t)), {"seg": "personal", "lang": c, "pkind": kind}
            add_retry("secret", "plain", "lang", mk)


def gen_hard():
    order = list(range(len(TECH)))
    R.shuffle(order)
    order += [R.randrange(len(TECH)) for _ in range(N_HARD_EXTRA)]
    for ti in order:
        name, mt, fn = TECH[ti]

        def mk(name=name, mt=mt, fn=fn):
            for _ in range(30):
                m = material_for(mt)
                out = fn(m)
                if out:
                    lang = name.split("spoken-digits-")[1] if name.startswith("spoken-digits-") else "en"
                    return name, ctxify(out), {"seg": "evasion", "tech": name, "lang": lang}
            raise RuntimeError(name)
        add_retry("secret", "hard", "evasion", mk)
    for i in range(N_KEYSPLIT):
        for _ in range(40):
            kind, text, key, ns = keysplit_secret(i)
            if add("secret", "hard", "keysplit", kind, text, {"seg": "keysplit", "tech": kind, "lang": "en"}, key=key, ns=ns):
                break
        else:
            raise RuntimeError("keysplit")
    for i in range(N_NSSPLIT):
        for _ in range(40):
            kind, text, key, ns = nssplit_secret(i)
            if add("secret", "hard", "keysplit", kind, text, {"seg": "keysplit", "tech": kind, "lang": "en"}, key=key, ns=ns):
                break
        else:
            raise RuntimeError("keysplit")


def gen_benign_plain():
    for _ in range(N_ORDINARY):
        def mk():
            k, core, info = ordinary_record()
            return k, ctxify(core), info
        add_retry("benign", "plain", "ordinary", mk)
    for _ in range(N_CONFIG):
        add_retry("benign", "plain", "config", benign_config_record)
    for c, name, S, B, T, D in LANGS:
        for t in B:
            def mk(c=c, t=t):
                return "note-" + c, ctxify(t), {"seg": "lang", "lang": c}
            add_retry("benign", "plain", "lang", mk)


def gen_benign_hard():
    order = list(range(len(ALL_FAMILIES)))
    R.shuffle(order)
    done = 0
    for fi in order:
        fam, lang, temps = ALL_FAMILIES[fi]

        def mk(fam=fam, lang=lang, temps=temps):
            core = bfill(pick(temps))
            if not fam.startswith("cfg-"):
                core = ctxify(core)
            return fam, core, {"seg": "lookalike", "family": fam, "lang": lang}
        add_retry("benign", "hard", "lookalike", mk)
        done += 1
    misses = 0
    cfg_idx = [i for i, f in enumerate(ALL_FAMILIES) if f[0].startswith("cfg-") and f[0] not in LONG_CFG]
    while done < N_LOOKALIKE:
        if chance(CFG_SHARE):
            fam, lang, temps = ALL_FAMILIES[pick(cfg_idx)]
        else:
            fam, lang, temps = ALL_FAMILIES[R.randrange(len(ALL_FAMILIES))]
        core = bfill(pick(temps))
        if not fam.startswith("cfg-"):
            core = ctxify(core)
        if add("benign", "hard", "lookalike", fam, core, {"seg": "lookalike", "family": fam, "lang": lang}):
            done += 1
        else:
            misses += 1
            if misses > 20000:
                raise RuntimeError("look-alike pool exhausted")
    n_key = N_KEYSPLIT
    n_ns = N_NSSPLIT
    for i in range(n_key):
        for _ in range(40):
            kind, text, key, ns = keyref_benign(i)
            if add("benign", "hard", "keyref", kind, text, {"seg": "keyref", "family": kind, "lang": "en"}, key=key, ns=ns):
                break
        else:
            raise RuntimeError("keyref")
    for i in range(n_ns):
        for _ in range(40):
            kind, text, key, ns = nsref_benign(i)
            if add("benign", "hard", "keyref", kind, text, {"seg": "keyref", "family": kind, "lang": "en"}, key=key, ns=ns):
                break
        else:
            raise RuntimeError("keyref")


def value_len(v):
    return len(v) if isinstance(v, str) else len(json.dumps(v, ensure_ascii=False))


def band(n):
    for lim, name in ((60, "<60"), (150, "60-149"), (400, "150-399"), (1000, "400-999")):
        if n < lim:
            return name
    return ">=1000"


def shape_of(v):
    return "string" if isinstance(v, str) else ("object" if isinstance(v, dict) else "array")


def table(title, rows, cols, get):
    print("\n" + title)
    w = max([len(str(r)) for r in rows] + [8])
    print("  " + " " * w + "".join("%10s" % c for c in cols))
    for r in rows:
        print("  " + str(r).ljust(w) + "".join("%10d" % get(r, c) for c in cols))


def print_stats(order):
    recs = [RECORDS[i] for i in order]
    metas = [META[i] for i in order]
    cnt = {}

    def inc(*k):
        cnt[k] = cnt.get(k, 0) + 1
    for r, m in zip(recs, metas):
        inc("lv", r["label"], r["variant"])
        inc("shape", r["label"], shape_of(r["value"]))
        inc("band", r["label"], band(value_len(r["value"])))
        inc("lang", m.get("lang", "en"), r["label"])
        if len(r["namespace"]) == 3:
            inc("ns3", r["label"])
    print("records: %d" % len(recs))
    table("label x variant", ["secret", "benign"], ["plain", "hard"], lambda r, c: cnt.get(("lv", r, c), 0))
    table("value shape per label", ["secret", "benign"], ["string", "object", "array"], lambda r, c: cnt.get(("shape", r, c), 0))
    table("length band per label (chars of the value; JSON text for objects/arrays)", ["secret", "benign"], ["<60", "60-149", "150-399", "400-999", ">=1000"], lambda r, c: cnt.get(("band", r, c), 0))
    table("namespace with third element", ["secret", "benign"], ["n"], lambda r, c: cnt.get(("ns3", r), 0))
    langs = ["en"] + LANG_CODES
    table("languages (records per label)", langs, ["secret", "benign"], lambda r, c: cnt.get(("lang", r, c), 0))
    fmts = sorted(set((m["vendor"], m["fmt"]) for m in metas if m.get("seg") == "vendor"))
    print("\nvendor records: %d (distinct formats %d, distinct vendors %d); catalogue: %d formats, %d vendors" % (
        sum(1 for m in metas if m.get("seg") == "vendor"), len(fmts), len(set(v for v, f in fmts)), len(FORMATS), len(set(f["vendor"] for f in FORMATS))))
    conts = sorted(set(m["container"] for m in metas if m.get("container")))
    print("containers used: %d (secret: %d, benign: %d)" % (len(conts), len(set(m["container"] for m in metas if m.get("seg") == "vendor")), len(set(m["container"] for m in metas if m.get("seg") == "config"))))
    pk = sorted(set(m["pkind"] for m in metas if m.get("pkind")))
    print("personal-secret kinds: %d" % len(pk))
    pl = {}
    for m in metas:
        if m.get("seg") in ("personal",):
            pl[m["lang"]] = pl.get(m["lang"], 0) + 1
    print("personal secrets: english %d, other languages %d in %d languages" % (pl.get("en", 0), sum(v for k, v in pl.items() if k != "en"), len([k for k in pl if k != "en"])))
    te = sorted(set(m["tech"] for m in metas if m.get("tech")))
    print("evasion techniques used: %d" % len(te))
    fa = sorted(set(m["family"] for m in metas if m.get("family")))
    print("look-alike families used: %d" % len(fa))


NS3_RATE = 0.30


def assign_third_namespace_elements():
    """Give exactly NS3_RATE of each label a neutral third namespace element."""
    for label in ("secret", "benign"):
        idx = [i for i, r in enumerate(RECORDS) if r["label"] == label]
        have = sum(1 for i in idx if len(RECORDS[i]["namespace"]) == 3)
        auto = [i for i in idx if META[i].get("auto_ns")]
        for i in R.sample(auto, round(NS3_RATE * len(idx)) - have):
            RECORDS[i]["namespace"].append(pick(NEUTRAL_NS))


def main():
    gen_vendor()
    gen_personal()
    gen_hard()
    gen_benign_plain()
    gen_benign_hard()
    assign_third_namespace_elements()
    order = list(range(len(RECORDS)))
    R.shuffle(order)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "heldout19.jsonl")
    with open(out, "w", encoding="utf-8", newline="\n") as fh:
        for i in order:
            fh.write(json.dumps(RECORDS[i], ensure_ascii=False) + "\n")
    if "--stats" in sys.argv:
        print_stats(order)
        with open(out, "rb") as fh:
            print("\nsha256 %s" % hashlib.sha256(fh.read()).hexdigest())


if __name__ == "__main__":
    main()
