#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""
make_train20a.py -- deterministic generator for the *train20a* TRAINING corpus
of a secret detector (does a "memory" contain an access credential?).

Written by an independent author.  Every value is synthetic: only the public
SHAPE of credential formats is imitated, and every random part comes from one
generator, random.Random(20112061), which also drives every choice and the
final shuffle.  No set/dict-hash ordering is relied upon.

    python3 make_train20a.py            # (re)writes train20a.jsonl next to this file
    python3 make_train20a.py --stats    # same, then prints counts and the sha256

Python 3.11 standard library only; no network access.
"""
import argparse
import base64
import codecs
import gzip
import hashlib
import json
import os
import re
import string
import sys
import urllib.parse
import random

SEED = 20112061
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_PATH = os.path.join(HERE, "train20a.jsonl")

# ---------------------------------------------------------------------------
# basic random helpers
# ---------------------------------------------------------------------------
LOW, UPP, DIG = string.ascii_lowercase, string.ascii_uppercase, string.digits
ALPH = {
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "a": LOW + DIG,
    "A": UPP + DIG,
    "m": UPP + LOW + DIG,
    "l": LOW,
    "L": UPP,
    "d": DIG,
    "n": "123456789",
    "u": UPP + LOW + DIG + "-_",
    "b": UPP + LOW + DIG + "+/",
    "z": UPP + "234567",
    "v": LOW + "234567",
    "s": "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
    "q": "qpzry9x8gf2tvdw0s3jn54khce6mua7l",
    "Q": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    "c": "0123456789ABCDEFGHJKMNPQRSTVWXYZ",  # crockford (ULID)
    "p": "./" + UPP + LOW + DIG,              # crypt(3) alphabet
}


def rs(code, n):
    al = ALPH[code]
    return "".join(R.choice(al) for _ in range(n))


def rb(n):
    return R.randbytes(n)


def b64(b):
    if isinstance(b, str):
        b = b.encode("utf-8")
    return base64.b64encode(b).decode()


def b64u(b):
    if isinstance(b, str):
        b = b.encode("utf-8")
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def sample(seq, k):
    return R.sample(list(seq), k)


def uuid4():
    h = list(rs("h", 32))
    h[12] = "4"
    h[16] = pick("89ab")
    s = "".join(h)
    return f"{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


def ulid():
    return pick("01") + rs("c", 25)


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def sha256_hex(s):
    return hashlib.sha256(s.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# word pools (all neutral; shared by both labels)
# ---------------------------------------------------------------------------
FIRST = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
         "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter",
         "yusuf", "zoe", "amara", "bruno", "chen", "dmitri", "elena", "farah", "goran", "hana",
         "ines", "jonas", "kenji", "leila", "mateo", "nadia", "oskar", "priya", "quentin", "rosa",
         "sven", "tomas", "uma", "vera", "wei", "ximena", "yara", "zane", "aiko", "bilal", "camille"]
LAST = ["nakamura", "okafor", "schmidt", "rossi", "kowalski", "haddad", "larsen", "silva", "novak",
        "dubois", "ivanova", "mensah", "park", "tanaka", "moreau", "fischer", "costa", "andersen",
        "petrov", "oconnor", "alvarez", "bauer", "lindqvist", "mwangi", "quispe", "yilmaz"]
COMP = ["northwind", "bluepeak", "acmetrail", "riverbyte", "lumenly", "quartzline", "tidewater",
        "ironbark", "cobaltworks", "pinecrest", "hexafield", "brightforge", "coralgate", "emberlake",
        "fjordsoft", "granitebay", "halcyonhq", "juniperio", "kestrelco", "larchmont", "meridianx",
        "nimbusgrid", "orchardly", "polluxdata", "redwoodops", "saltmarsh", "tundralabs", "umbrahq",
        "vantagept", "waveletai", "zincstack", "opaltree", "mossbridge", "copperfox", "driftwood"]
DOM_SUFFIX = ["", "", "", "-labs", "-hq", "-systems", "-cloud", "-app"]
TLDS = ["com", "io", "dev", "net", "co", "app", "cloud", "tech", "eu", "org", "de", "co.uk"]
PROJ = ["atlas", "beacon", "cinder", "delta", "ember", "falcon", "gizmo", "harbor", "iris",
        "jetstream", "keystone", "lighthouse", "mosaic", "nova", "orbit", "prism", "quill", "relay",
        "sparrow", "tango", "unity", "vortex", "willow", "zephyr", "payments-api", "checkout",
        "billing", "search", "ingest", "notifier", "webapp", "mobile-backend", "data-pipeline",
        "auth-service", "ledger", "scheduler", "reports", "gateway", "catalog", "onboarding"]
TEAMS = ["platform", "sre", "data", "payments", "growth", "infra", "mobile", "web", "security",
         "devex", "ml", "support-tools", "finance-eng", "core"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1",
           "ap-northeast-1", "sa-east-1", "ca-central-1", "eu-north-1", "ap-south-1"]
ENVS = ["prod", "production", "staging", "stage", "dev", "qa", "sandbox-eu", "preprod", "uat"]
NS3 = ["work", "notes", "projects", "infra", "snippets", "home", "archive", "2024", "inbox",
       "team-platform", "personal", "devops", "scratch", "2025", "homelab", "clients", "reference"]
SVC = ["api", "worker", "web", "scheduler", "ingest", "billing", "search", "notifier", "gateway",
       "backend", "cron", "consumer", "exporter", "sync"]
IMAGES = ["python:3.12-slim", "node:20-alpine", "golang:1.22", "eclipse-temurin:21-jre",
          "ruby:3.3-slim", "php:8.3-fpm", "mcr.microsoft.com/dotnet/aspnet:8.0", "debian:bookworm-slim",
          "rust:1.78-slim", "alpine:3.20"]
# BIP39-style English words (used for passphrases and mnemonics)
WORDS = """abandon ability able about above absent absorb abstract absurd access accident account
accuse achieve acid acoustic acquire across action actor actual adapt address adjust admit adult
advance advice aerobic affair afford afraid again agent agree ahead aim air airport aisle alarm
album alcohol alert alien alley allow almost alone alpha already also alter always amateur amazing
among amount amused analyst anchor ancient anger angle angry animal ankle announce annual answer
antenna antique anxiety apart apology appear apple approve april arch arctic area arena argue arm
armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault
asset assist assume asthma athlete atom attack attend attitude attract auction audit august aunt
author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor
bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic
basket battle beach bean beauty because become beef before begin behave behind believe below belt
bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter
black blade blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat
body boil bomb bone bonus book boost border boring borrow boss bottom bounce box boy bracket brain
brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom
brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger
burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera
camp canal cancel candy cannon canoe canvas canyon capable capital captain carbon card cargo carpet
carry cart case cash casino castle casual catalog catch category cattle caught cause caution cave
ceiling celery cement census century cereal certain chair chalk champion change chaos chapter charge
chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic
chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean
clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump
cluster clutch coach coast coconut code coffee coil coin collect color column combine comfort comic
common company concert conduct confirm congress connect consider control convince cook cool copper
copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack
cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic
crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup
cupboard curious current curtain curve cushion custom cute cycle dad damage damp dance danger daring
dash daughter dawn day deal debate debris decade december decide decline decorate decrease deer
defense define defy degree delay deliver demand demise denial dentist deny depart depend deposit
depth deputy derive describe desert design desk despair destroy detail detect develop device devote
diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct
dirt disagree discover disease dish dismiss disorder display distance divert divide divorce dizzy
doctor document dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama
drastic draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch
duty dwarf dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit
educate effort egg eight either elbow elder electric elegant element elephant elevator elite else
embark embody embrace emerge emotion employ empower empty enable enact end endless endorse enemy
energy enforce engage engine enhance enjoy enlist enough enrich enroll ensure enter entire entry
envelope episode equal equip era erase erode erosion error erupt escape essay essence estate eternal
ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse execute
exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend
extra eye eyebrow fabric face faculty fade faint faith fall false fame family famous fan fancy
fantasy farm fashion fat fatal father fatigue fault favorite feature february federal fee feed feel
female fence festival fetch fever few fiber fiction field figure file film filter final find fine
finger finish fire firm first fiscal fish fit fitness fix flag flame flash flat flavor flee flight
flip float flock floor flower fluid flush fly foam focus fog foil fold follow food foot force forest
forget fork fortune forum forward fossil foster found fox fragile frame frequent fresh friend fringe
frog front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy gallery
game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre
gentle genuine gesture ghost giant gift giggle ginger giraffe girl give glad glance glare glass
glide glimpse globe gloom glory glove glow glue goat goddess gold good goose gorilla gospel gossip
govern gown grab grace grain grant grape grass gravity great green grid grief grit grocery group
grow grunt guard guess guide guilt guitar gun gym habit hair half hammer hamster hand happy harbor
hard harsh harvest hat have hawk hazard head health heart heavy hedgehog height hello helmet help
hen hero hidden high hill hint hip hire history hobby hockey hold hole holiday hollow home honey
hood hope horn horror horse hospital host hotel hour hover hub huge human humble humor hundred
hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal illness
image imitate immense immune impact impose improve impulse inch include income increase index
indicate indoor industry infant inflict inform inhale inherit initial inject injury inmate inner
innocent input inquiry insane insect inside inspire install intact interest into invest invite
involve iron island isolate issue item ivory jacket jaguar jar jazz jealous jeans jelly jewel job
join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep ketchup key kick
kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor
ladder lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer
lazy leader leaf learn leave lecture left leg legal legend leisure lemon lend length lens leopard
lesson letter level liar liberty library license life lift light like limb limit link lion liquid
list little live lizard load loan lobster local lock logic lonely long loop lottery loud lounge love
loyal lucky luggage lumber lunar lunch luxury lyrics machine mad magic magnet maid mail main major
make mammal man manage mandate mango mansion manual maple marble march margin marine market
marriage mask mass master match material math matrix matter maximum maze meadow mean measure meat
mechanic medal media melody melt member memory mention menu mercy merge merit merry mesh message
metal method middle midnight milk million mimic mind minimum minor minute miracle mirror misery
miss mistake mix mixed mixture mobile model modify mom moment monitor monkey monster month moon
moral more morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply
muscle museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty nation
nature near neck need negative neglect neither nephew nerve nest net network neutral never news
next nice night noble noise nominee noodle normal north nose notable note nothing notice novel now
nuclear number nurse nut oak obey object oblige obscure observe obtain obvious occur ocean october
odor off offer office often oil okay old olive olympic omit once one onion online only open opera
opinion oppose option orange orbit orchard order ordinary organ orient original orphan ostrich
other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact paddle page
pair palace palm panda panel panic panther paper parade parent park parrot party pass patch path
patient patrol pattern pause pave payment peace peanut pear peasant pelican pen penalty pencil
people pepper perfect permit person pet phone photo phrase physical piano picnic picture piece pig
pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please pledge
pluck plug plunge poem poet point polar pole police pond pony pool popular portion position possible
post potato pottery poverty powder power practice praise predict prefer prepare present pretty
prevent price pride primary print priority prison private prize problem process produce profit
program project promote proof property prosper protect proud provide public pudding pull pulp pulse
pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid quality quantum
quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally
ramp ranch random range rapid rare rate rather raven raw razor ready real reason rebel rebuild recall
receive recipe record recycle reduce reflect reform refuse region regret regular reject relax
release relief rely remain remember remind remove render renew rent reopen repair repeat replace
report require rescue resemble resist resource response result retire retreat return reunion reveal
review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple risk ritual
rival river road roast robot robust rocket romance roof rookie room rose rotate rough round route
royal rubber rude rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt
salute same sample sand satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme
school science scissors scorpion scout scrap screen script scrub sea search season seat second
secret section security seed seek segment select sell seminar senior sense sentence series service
session settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship
shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side siege
sight sign silent silk silly silver similar simple since sing siren sister situate six size skate
sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim slogan slot slow
slush small smart smile smoke smooth snack snake snap sniff snow soap soccer social sock soda soft
solar soldier solid solution solve someone song soon sorry sort soul sound soup source south space
spare spatial spawn speak special speed spell spend sphere spice spider spike spin spirit split
spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel stable stadium staff
stage stairs stamp stand start state stay steak steel stem step stereo stick still sting stock
stomach stone stool story stove strategy street strike strong struggle student stuff stumble style
subject submit subway success such sudden suffer sugar suggest suit summer sun sunny sunset super
supply supreme sure surface surge surprise surround survey suspect sustain swallow swamp swap swarm
swear sweet swift swim swing switch sword symbol symptom syrup system table tackle tag tail talent
talk tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent term test text
thank that theme then theory there they thing this thought three thrive throw thumb thunder ticket
tide tiger tilt timber time tiny tip tired tissue title toast tobacco today toddler toe together
toilet token tomato tomorrow tone tongue tonight tool tooth top topic topple torch tornado tortoise
toss total tourist toward tower town toy track trade traffic tragic train transfer trap trash
travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble truck true truly
trumpet trust truth try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin
twist two type typical ugly umbrella unable unaware uncle uncover under undo unfair unfold unhappy
uniform unique unit universe unknown unlock until unusual unveil update upgrade uphold upon upper
upset urban urge usage use used useful useless usual utility vacant vacuum vague valid valley valve
van vanish vapor various vast vault vehicle velvet vendor venture venue verb verify version very
vessel veteran viable vibrant vicious victory video view village vintage violin virtual virus visa
visit visual vital vivid vocal voice void volcano volume vote voyage wage wagon wait walk wall
walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel weather
web wedding weekend weird welcome west wet whale what wheat wheel when where whip whisper wide width
wife wild will win window wine wing wink winner winter wire wisdom wise wish witness wolf woman
wonder wood wool word work world worry worth wrap wreck wrestle wrist write wrong yard year yellow
you young youth zebra zero zone zoo""".split()


def person():
    return f"{pick(FIRST).title()} {pick(LAST).title()}"


def domain():
    return f"{pick(COMP)}{pick(DOM_SUFFIX)}.{pick(TLDS)}"


def user():
    r = R.random()
    if r < 0.3:
        return pick(FIRST)
    if r < 0.5:
        return f"{pick(FIRST)}.{pick(LAST)}"
    if r < 0.7:
        return f"{pick(['svc', 'app', 'ci', 'deploy', 'etl', 'bot', 'sync'])}_{pick(PROJ).replace('-', '_')}"
    if r < 0.85:
        return f"{pick(FIRST)[0]}{pick(LAST)}"
    return f"{pick(['admin', 'root', 'ops', 'backup', 'readonly', 'reporter', 'integration'])}"


def email():
    return f"{pick(FIRST)}{pick(['.', '', '_'])}{pick(LAST)}@{domain()}"


def date():
    return f"{R.randint(2022, 2025)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def ts():
    return f"{date()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}Z"


def hhmm():
    return f"{R.randint(7, 22):02d}:{R.randint(0, 59):02d}"


def ticket():
    return f"{pick(['OPS', 'INFRA', 'SEC', 'PLAT', 'DATA', 'PAY', 'SRE', 'DEV', 'CORE', 'WEB'])}-{R.randint(100, 9999)}"


def priv_ip():
    r = R.random()
    if r < 0.5:
        return f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(2, 254)}"
    if r < 0.8:
        return f"192.168.{R.randint(0, 20)}.{R.randint(2, 254)}"
    return f"172.{R.randint(16, 31)}.{R.randint(0, 255)}.{R.randint(2, 254)}"


def doc_ip():
    return f"{pick(['192.0.2', '198.51.100', '203.0.113'])}.{R.randint(2, 254)}"


def host(kind="db"):
    d = domain()
    r = R.random()
    if kind == "db":
        if r < 0.25:
            return f"{pick(['db', 'pg', 'mysql', 'sql', 'data'])}-{pick(ENVS)}-{R.randint(1, 9)}.internal.{d}"
        if r < 0.45:
            return f"{pick(PROJ)}-{pick(ENVS)}.{rs('a', 12)}.{pick(REGIONS)}.rds.amazonaws.com"
        if r < 0.6:
            return priv_ip()
        if r < 0.75:
            return f"{pick(['db', 'primary', 'replica', 'pgbouncer'])}.{pick(ENVS)}.svc.cluster.local"
        return f"{pick(['db', 'postgres', 'mariadb', 'mongo', 'redis'])}{R.randint(1, 4)}.{d}"
    if kind == "mq":
        return f"{pick(['mq', 'rabbit', 'amqp', 'broker'])}-{R.randint(1, 3)}.{pick(ENVS)}.{d}"
    return f"{pick(['app', 'api', 'svc', 'node'])}{R.randint(1, 40)}.{d}"


def hostname():
    return f"{pick(['web', 'db', 'build', 'bastion', 'nas', 'pi', 'ci', 'edge', 'vpn', 'mon'])}-{pick(['01', '02', '03', 'a', 'b', 'eu1', 'us2', 'lab'])}"


def dbname():
    return pick(["app", "app_prod", "orders", "billing", "analytics", "users", "inventory", "core",
                 "events", "reporting", "payments", "crm", "warehouse", "metrics", "auth"])


def mnemonic(n=12):
    return " ".join(pick(WORDS) for _ in range(n))


# ---------------------------------------------------------------------------
# passwords (synthetic)
# ---------------------------------------------------------------------------
PW_SYMS = "!@#$%^&*-_+=?.~"
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


def pw_random(lo=12, hi=24):
    n = R.randint(lo, hi)
    al = ALPH["m"] + PW_SYMS
    while True:
        s = "".join(R.choice(al) for _ in range(n))
        if (any(c.isdigit() for c in s) and any(c in PW_SYMS for c in s)
                and any(c.isupper() for c in s) and any(c.islower() for c in s)):
            return s


def pw_human():
    w, w2 = pick(WORDS), pick(WORDS)
    st = R.randint(0, 5)
    if st == 0:
        return w.title() + pick("!@#$%&*_-") + str(R.randint(10, 9999))
    if st == 1:
        return w.title() + w2.title() + str(R.randint(1, 99)) + pick("!?#$")
    if st == 2:
        return f"{w}{R.randint(100, 999)}{w2.title()}{pick('!@#$%&*')}"
    if st == 3:
        lw = "".join(LEET.get(ch, ch) if chance(0.6) else ch for ch in w + w2)
        return lw[0].upper() + lw[1:] + pick("!@#$") + str(R.randint(1, 99))
    if st == 4:
        return f"{pick(FIRST).title()}{pick(['@', '#', '_', '!'])}{R.randint(1970, 2025)}{pick(['', '!', '$'])}"
    return f"{w2.title()}{pick(['-', '.', '_'])}{w}{pick(['-', '.', '_'])}{R.randint(1, 999)}"


def pw_phrase(k=None, sep=None):
    k = k or R.randint(4, 6)
    sep = pick(["-", ".", "_", ""]) if sep is None else sep
    ws = [pick(WORDS) for _ in range(k)]
    if sep == "":
        ws = [w.title() for w in ws]
    s = sep.join(ws)
    if chance(0.4):
        s += (sep if sep.strip() else "") + str(R.randint(1, 99))
    return s


def gen_pw(allow_space=False):
    r = R.random()
    if r < 0.45:
        return pw_random()
    if r < 0.78:
        return pw_human()
    return pw_phrase(sep=pick(["-", ".", "_", ""] + ([" "] if allow_space else [])))


def gen_pwu():
    n = R.randint(16, 30)
    while True:
        s = "".join(R.choice(ALPH["m"] + "-_.~") for _ in range(n))
        if any(c.isdigit() for c in s) and any(c.isupper() for c in s):
            return s


# ---------------------------------------------------------------------------
# payment cards (Luhn-valid, real brand prefixes, never the published test numbers)
# ---------------------------------------------------------------------------
PUBLISHED_TEST_CARDS = [
    "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222",
    "5200828282828210", "5105105105105100", "378282246310005", "371449635398431",
    "6011111111111117", "6011000990139424", "3056930009020004", "36227206271667",
    "3566002020360505", "6200000000000005", "4111111111111111", "4012888888881881",
    "5431111111111111", "4000000000000002", "4000000000009995", "4000002500003155",
]


def luhn_complete(payload):
    s = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        s += d
    return payload + str((10 - s % 10) % 10)


def luhn_ok(num):
    return luhn_complete(num[:-1]) == num


def card_number():
    brand = pick(["visa", "visa", "mastercard", "mastercard", "amex", "discover", "jcb"])
    while True:
        if brand == "visa":
            pre, ln = "4", 16
        elif brand == "mastercard":
            pre, ln = (str(R.randint(51, 55)), 16) if chance(0.7) else (str(R.randint(2221, 2720)), 16)
        elif brand == "amex":
            pre, ln = pick(["34", "37"]), 15
        elif brand == "discover":
            pre, ln = pick(["6011", "65"]), 16
        else:
            pre, ln = str(R.randint(3528, 3589)), 16
        num = luhn_complete(pre + rs("d", ln - len(pre) - 1))
        if num not in PUBLISHED_TEST_CARDS:
            return brand, num


def fmt_card(num):
    if len(num) == 15:
        return f"{num[:4]} {num[4:10]} {num[10:]}"
    return " ".join(num[i:i + 4] for i in range(0, 16, 4))


def card_expiry():
    return f"{R.randint(1, 12):02d}/{R.randint(26, 31)}"


# ---------------------------------------------------------------------------
# structured builders: JWTs, PEM armour, SSH blobs, service-account JSON ...
# ---------------------------------------------------------------------------
def jdump(o):
    return json.dumps(o, separators=(",", ":"), ensure_ascii=False)


def jwt(kind="hs"):
    now = R.randint(1_700_000_000, 1_766_000_000)
    alg = {"hs": "HS256", "rs": "RS256", "eddsa": "EdDSA", "es": "ES256"}.get(kind, pick(["RS256", "RS256", "HS256", "ES256"]))
    hdr = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and chance(0.7):
        hdr["kid"] = rs("u", pick([16, 22, 27, 43]))
    d = domain()
    p = {}
    if kind == "supabase-service":
        p = {"iss": "supabase", "ref": rs("l", 20), "role": "service_role", "iat": now, "exp": now + 315360000}
        hdr = {"alg": "HS256", "typ": "JWT"}
        alg = "HS256"
    elif kind == "supabase-anon":
        p = {"iss": "supabase", "ref": rs("l", 20), "role": "anon", "iat": now, "exp": now + 315360000}
        hdr = {"alg": "HS256", "typ": "JWT"}
        alg = "HS256"
    elif kind == "supabase-user":
        p = {"aud": "authenticated", "exp": now + 3600, "iat": now, "sub": uuid4(), "email": email(), "role": "authenticated", "session_id": uuid4()}
        hdr = {"alg": "HS256", "kid": rs("m", 16), "typ": "JWT"}
        alg = "HS256"
    elif kind == "k8s":
        ns = pick(["default", "ci", "monitoring", "argocd", "kube-system", pick(PROJ)])
        sa = pick(["deployer", "ci-runner", "prometheus", "default", "argocd-manager", "external-dns"])
        p = {"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": ns,
             "kubernetes.io/serviceaccount/secret.name": f"{sa}-token-{rs('a', 5)}",
             "kubernetes.io/serviceaccount/service-account.name": sa,
             "kubernetes.io/serviceaccount/service-account.uid": uuid4(),
             "sub": f"system:serviceaccount:{ns}:{sa}"}
        hdr = {"alg": "RS256", "kid": rs("u", 43)}
        alg = "RS256"
    elif kind == "azure":
        tid = uuid4()
        p = {"aud": "https://management.azure.com", "iss": f"https://sts.windows.net/{tid}/", "iat": now, "nbf": now,
             "exp": now + 4499, "appid": uuid4(), "oid": uuid4(), "tid": tid, "ver": "1.0"}
        hdr = {"typ": "JWT", "alg": "RS256", "x5t": rs("u", 27), "kid": rs("u", 27)}
        alg = "RS256"
    elif kind == "cognito":
        pool = f"{pick(REGIONS)}_{rs('m', 9)}"
        p = {"sub": uuid4(), "iss": f"https://cognito-idp.{pool.split('_')[0]}.amazonaws.com/{pool}", "client_id": rs("a", 26),
             "token_use": "access", "scope": "aws.cognito.signin.user.admin", "auth_time": now, "exp": now + 3600, "iat": now,
             "jti": uuid4(), "username": uuid4()}
    elif kind == "keycloak":
        p = {"exp": now + 300, "iat": now, "jti": uuid4(), "iss": f"https://sso.{d}/realms/{pick(PROJ)}", "aud": "account",
             "sub": uuid4(), "typ": "Bearer", "azp": f"{pick(PROJ)}-web", "scope": "openid email profile",
             "preferred_username": user()}
    elif kind == "auth0":
        p = {"iss": f"https://{pick(PROJ)}.eu.auth0.com/", "sub": f"auth0|{rs('h', 24)}", "aud": [f"https://api.{d}", f"https://{pick(PROJ)}.eu.auth0.com/userinfo"],
             "iat": now, "exp": now + 86400, "scope": "openid profile read:orders", "azp": rs("m", 32)}
    elif kind == "firebase":
        proj = f"{pick(PROJ)}-{rs('a', 5)}"
        p = {"iss": f"https://securetoken.google.com/{proj}", "aud": proj, "auth_time": now, "user_id": rs("m", 28),
             "sub": rs("m", 28), "iat": now, "exp": now + 3600, "email": email(), "email_verified": True}
    elif kind == "google":
        p = {"iss": "https://accounts.google.com", "azp": f"{rs('n', 1)}{rs('d', 11)}-{rs('a', 32)}.apps.googleusercontent.com",
             "aud": f"{rs('n', 1)}{rs('d', 11)}-{rs('a', 32)}.apps.googleusercontent.com", "sub": rs("n", 1) + rs("d", 20),
             "email": email(), "email_verified": True, "iat": now, "exp": now + 3600}
    elif kind == "hasura":
        p = {"sub": uuid4(), "iat": now, "exp": now + 3600, "https://hasura.io/jwt/claims": {"x-hasura-default-role": "user", "x-hasura-allowed-roles": ["user", "editor"], "x-hasura-user-id": uuid4()}}
    elif kind == "hass":
        p = {"iss": rs("h", 32), "iat": now, "exp": now + 315360000}
        hdr = {"alg": "HS256", "typ": "JWT"}
        alg = "HS256"
    elif kind == "registry":
        p = {"iss": f"registry.{d}", "sub": user(), "aud": f"registry.{d}", "exp": now + 300, "nbf": now, "iat": now, "jti": rs("m", 20),
             "access": [{"type": "repository", "name": f"{pick(PROJ)}/{pick(SVC)}", "actions": ["pull", "push"]}]}
    else:
        r = R.random()
        if r < 0.4:
            p = {"sub": str(R.randint(1000, 9999999)), "iat": now, "exp": now + pick([900, 3600, 86400, 2592000]), "scope": pick(["read write", "admin", "api", "orders:read orders:write"])}
        elif r < 0.7:
            p = {"iss": f"https://auth.{d}", "sub": uuid4(), "aud": pick(SVC), "iat": now, "exp": now + 3600, "jti": uuid4()}
        else:
            p = {"user_id": R.randint(1, 99999), "org": pick(PROJ), "role": pick(["admin", "member", "service", "ci"]), "iat": now}
    siglen = {"HS256": 32, "RS256": 256, "ES256": 64, "EdDSA": 64}[alg]
    return f"{b64u(jdump(hdr))}.{b64u(jdump(p))}.{b64u(rb(siglen))}"


def crc24(data):
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def sshstr(b):
    if isinstance(b, str):
        b = b.encode()
    return len(b).to_bytes(4, "big") + b


def ssh_pub_blob(kind="ed25519"):
    if kind == "ed25519":
        return sshstr("ssh-ed25519") + sshstr(rb(32))
    if kind == "ecdsa":
        return sshstr("ecdsa-sha2-nistp256") + sshstr("nistp256") + sshstr(b"\x04" + rb(64))
    n = R.choice([256, 384, 512])
    return sshstr("ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00" + bytes([R.randint(0x80, 0xff)]) + rb(n - 1))


def ssh_public_key(kind=None, comment=None):
    kind = kind or pick(["ed25519", "ed25519", "rsa", "ecdsa"])
    name = {"ed25519": "ssh-ed25519", "rsa": "ssh-rsa", "ecdsa": "ecdsa-sha2-nistp256"}[kind]
    comment = comment if comment is not None else f"{pick(FIRST)}@{hostname()}"
    return f"{name} {b64(ssh_pub_blob(kind))}" + (f" {comment}" if comment else "")


def openssh_private():
    pub = rb(32)
    blob = sshstr("ssh-ed25519") + sshstr(pub)
    check = rb(4)
    sec = check + check + blob + sshstr(rb(32) + pub) + sshstr(f"{pick(FIRST)}@{hostname()}")
    pad = (8 - len(sec) % 8) % 8
    sec += bytes(range(1, pad + 1))
    data = (b"openssh-key-v1\x00" + sshstr("none") + sshstr("none") + sshstr(b"")
            + (1).to_bytes(4, "big") + sshstr(blob) + sshstr(sec))
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(b64(data), 70) + "\n-----END OPENSSH PRIVATE KEY-----"


def pgp_block(private=True):
    if private:
        data = bytes.fromhex("950586") + bytes([4]) + rb(R.randint(700, 1300))
        label = "PGP PRIVATE KEY BLOCK"
    else:
        data = bytes.fromhex("99020d") + bytes([4]) + rb(R.randint(500, 900))
        label = "PGP PUBLIC KEY BLOCK"
    crc = crc24(data)
    return f"-----BEGIN {label}-----\n\n{wrap(b64(data))}\n={b64(crc.to_bytes(3, 'big'))}\n-----END {label}-----"


def putty_key():
    blob = sshstr("ssh-ed25519") + sshstr(rb(32))
    publ = wrap(b64(blob), 64)
    privl = b64(sshstr(rb(32)))
    return (f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-{date().replace('-', '')}\n"
            f"Public-Lines: {publ.count(chr(10)) + 1}\n{publ}\nPrivate-Lines: 1\n{privl}\nPrivate-MAC: {rs('h', 64)}")


def ovpn_static():
    lines = "\n".join(rs("h", 32) for _ in range(16))
    return ("#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n"
            f"{lines}\n-----END OpenVPN Static key V1-----")


def der_private(kind):
    if kind == "rsa":
        if chance(0.6):
            return "RSA PRIVATE KEY", bytes.fromhex("308204a40201000282010100") + rb(1180)
        return "RSA PRIVATE KEY", bytes.fromhex("3082025d02010002818100") + rb(597)
    if kind == "pkcs8":
        if chance(0.35):
            return "PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rb(32)
        return "PRIVATE KEY", bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + rb(1170)
    if kind == "pkcs8rsa":
        return "PRIVATE KEY", bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + rb(1170)
    if kind == "ec":
        return "EC PRIVATE KEY", (bytes.fromhex("30770201010420") + rb(32)
                                  + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rb(64))
    if kind == "ec8":
        return "PRIVATE KEY", (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420")
                               + rb(32) + bytes.fromhex("a14403420004") + rb(64))
    if kind == "dsa":
        return "DSA PRIVATE KEY", bytes.fromhex("308201bb02010002818100") + rb(430)
    raise ValueError(kind)


def pem(kind):
    if kind == "openssh":
        return openssh_private()
    if kind == "pgp":
        return pgp_block(True)
    if kind == "putty":
        return putty_key()
    if kind == "ovpn":
        return ovpn_static()
    if kind == "any":
        kind = pick(["rsa", "pkcs8", "ec", "openssh", "openssh", "pkcs8"])
        return pem(kind)
    label, der = der_private(kind)
    return f"-----BEGIN {label}-----\n{wrap(b64(der))}\n-----END {label}-----"


def pem_public(kind=None):
    kind = kind or pick(["rsa", "ec", "ed25519"])
    if kind == "rsa":
        der = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + rb(256) + bytes.fromhex("0203010001")
    elif kind == "ec":
        der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + rb(64)
    else:
        der = bytes.fromhex("302a300506032b6570032100") + rb(32)
    return f"-----BEGIN PUBLIC KEY-----\n{wrap(b64(der))}\n-----END PUBLIC KEY-----"


def pem_cert(label="CERTIFICATE"):
    n = R.randint(600, 1100)
    der = bytes.fromhex("308203") + bytes([R.randint(0x20, 0xff)]) + bytes.fromhex("308202") + rb(n)
    return f"-----BEGIN {label}-----\n{wrap(b64(der))}\n-----END {label}-----"


def gcp_sa_json(indent=2):
    proj = f"{pick(PROJ)}-{rs('d', 6)}"
    name = pick(["ci-deployer", "terraform", "bq-loader", "gcs-backup", "firebase-adminsdk-" + rs("a", 5), "play-publisher", "looker-export", "sheets-sync"])
    sa = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": rs("h", 40),
        "private_key": pem("pkcs8rsa") + "\n",
        "client_email": f"{name}@{proj}.iam.gserviceaccount.com",
        "client_id": rs("n", 1) + rs("d", 20),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
        "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{name}%40{proj}.iam.gserviceaccount.com",
        "universe_domain": "googleapis.com",
    }
    return json.dumps(sa, indent=indent)


def jwk_private():
    if chance(0.5):
        return jdump({"kty": "EC", "crv": "P-256", "kid": rs("u", 16), "use": "sig",
                      "x": b64u(rb(32)), "y": b64u(rb(32)), "d": b64u(rb(32))})
    return jdump({"kty": "OKP", "crv": "Ed25519", "kid": rs("u", 16), "d": b64u(rb(32)), "x": b64u(rb(32))})


def jwk_public():
    r = R.random()
    if r < 0.4:
        return {"kty": "RSA", "kid": rs("u", 27), "use": "sig", "alg": "RS256", "n": b64u(rb(256)), "e": "AQAB"}
    if r < 0.7:
        return {"kty": "EC", "crv": "P-256", "kid": rs("u", 16), "use": "sig", "x": b64u(rb(32)), "y": b64u(rb(32))}
    return {"kty": "OKP", "crv": "Ed25519", "kid": rs("u", 16), "x": b64u(rb(32))}


def discord_token():
    snow = str(R.randint(700000000000000000, 1299999999999999999))
    return f"{b64u(snow)}.{rs('u', 6)}.{rs('u', 38)}"


def mapbox_token(prefix="sk"):
    return f"{prefix}.{b64u(jdump({'u': pick(FIRST) + rs('a', 3), 'a': rs('a', 25)}))}.{rs('u', 22)}"


DJ_ALPH = LOW + DIG + "!@#$%^&*(-_=+)"


def django_key():
    return "".join(R.choice(DJ_ALPH) for _ in range(50))


TOKEN_RE = re.compile(r"\{([A-Za-z]+)(?::([A-Za-z0-9_\-]+))?\}")


def expand(t):
    def rep(m):
        name, arg = m.group(1), m.group(2)
        if name in ALPH and arg and arg.isdigit():
            return rs(name, int(arg))
        if name == "B":
            return b64(rb(int(arg)))
        if name == "U":
            return b64u(rb(int(arg)))
        if name == "X":
            return b64(rb(int(arg))).rstrip("=")
        if name == "uuid":
            return uuid4()
        if name == "UUID":
            return uuid4().upper()
        if name == "jwt":
            return jwt(arg or "hs")
        if name == "pem":
            return pem(arg)
        if name == "b64pem":
            return b64(pem(arg) + "\n")
        if name == "pw":
            return gen_pw()
        if name == "pwu":
            return gen_pwu()
        if name == "user":
            return user()
        if name == "email":
            return email()
        if name == "host":
            return host(arg or "db")
        if name == "db":
            return dbname()
        if name == "mn":
            return mnemonic(int(arg or 12))
        if name == "djkey":
            return django_key()
        if name == "basic":
            return b64(f"{user()}:ghp_{rs('m', 36)}")
        if name == "gcpsa":
            return gcp_sa_json(pick([2, None]))
        if name == "jwk":
            return jwk_private()
        if name == "discord":
            return discord_token()
        if name == "mapbox":
            return mapbox_token(arg or "sk")
        if name == "hexcolon":
            return ":".join(rs("h", 2) for _ in range(16))
        if name == "domain":
            return domain()
        if name == "proj":
            return pick(PROJ)
        if name == "priv":
            return priv_ip()
        raise ValueError(f"unknown template token {m.group(0)}")
    return TOKEN_RE.sub(rep, t)


# ---------------------------------------------------------------------------
# hand-written vendor catalogue: slug|Display name|category|api host|pairs
#   pairs are "VAR=template" joined by " ;; "; a leading "+" marks a pair that is
#   an identifier / location only (never a credential on its own).
# ---------------------------------------------------------------------------
CATALOGUE = r"""
aws|AWS IAM user|cloud|sts.amazonaws.com|+AWS_ACCESS_KEY_ID=AKIA{A:16} ;; AWS_SECRET_ACCESS_KEY={b:40}
aws-sts|AWS STS session|cloud|sts.amazonaws.com|+AWS_ACCESS_KEY_ID=ASIA{A:16} ;; AWS_SECRET_ACCESS_KEY={b:40} ;; AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{b:300}
gcp-apikey|Google Cloud API key|cloud|translation.googleapis.com|GOOGLE_CLOUD_API_KEY=AIza{u:35}
gcp-sa|Google Cloud service account|privatekey|oauth2.googleapis.com|GOOGLE_APPLICATION_CREDENTIALS_JSON={gcpsa}
azure-storage|Azure Storage account|storage|{l:10}.blob.core.windows.net|AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={l:10}{d:3};AccountKey={B:64};EndpointSuffix=core.windows.net
azure-storage-key|Azure Storage key|storage|{l:10}.blob.core.windows.net|+AZURE_STORAGE_ACCOUNT={l:10}{d:2} ;; AZURE_STORAGE_KEY={B:64}
azure-ad|Azure AD app registration|identity|login.microsoftonline.com|+AZURE_TENANT_ID={uuid} ;; +AZURE_CLIENT_ID={uuid} ;; AZURE_CLIENT_SECRET={m:3}{d:1}Q~{u:34}
azure-sas|Azure Blob SAS URL|storage||AZURE_BLOB_SAS_URL=https://{l:9}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-01-31T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig={m:43}%3D
azure-cosmos|Azure Cosmos DB|database||COSMOS_CONNECTION_STRING=AccountEndpoint=https://{l:9}.documents.azure.com:443/;AccountKey={B:64};
azure-servicebus|Azure Service Bus|messaging||SERVICEBUS_CONNECTION=Endpoint=sb://{l:9}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={B:32}
azure-eventhubs|Azure Event Hubs|messaging||EVENTHUB_CONNECTION_STRING=Endpoint=sb://{l:8}-ns.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={B:32};EntityPath=telemetry
azure-appconfig|Azure App Configuration|cloud||APPCONFIG_CONNECTION_STRING=Endpoint=https://{l:8}.azconfig.io;Id={m:4}-l0-s0:{m:20};Secret={B:32}
azure-signalr|Azure SignalR|messaging||AZURE_SIGNALR_CONNECTION=Endpoint=https://{l:8}.service.signalr.net;AccessKey={B:32};Version=1.0;
azure-communication|Azure Communication Services|messaging||ACS_CONNECTION_STRING=endpoint=https://{l:8}.communication.azure.com/;accesskey={B:64}
azure-cognitive|Azure AI services|ai|{l:8}.cognitiveservices.azure.com|AZURE_AI_KEY={h:32}
azure-maps|Azure Maps|maps|atlas.microsoft.com|AZURE_MAPS_SUBSCRIPTION_KEY={u:43}
azure-devops|Azure DevOps PAT|vcs|dev.azure.com|AZURE_DEVOPS_PAT={v:52}
azure-function-key|Azure Functions key|webhook||FUNC_TRIGGER_URL=https://{l:8}-func.azurewebsites.net/api/{l:8}?code={u:54}==
azure-openai|Azure OpenAI|ai|{l:8}.openai.azure.com|+AZURE_OPENAI_ENDPOINT=https://{l:8}.openai.azure.com/ ;; AZURE_OPENAI_API_KEY={h:32}
digitalocean|DigitalOcean|cloud|api.digitalocean.com|DIGITALOCEAN_TOKEN=dop_v1_{h:64}
digitalocean-oauth|DigitalOcean OAuth|cloud|api.digitalocean.com|DO_OAUTH_TOKEN=doo_v1_{h:64}
digitalocean-spaces|DigitalOcean Spaces|storage|fra1.digitaloceanspaces.com|+SPACES_KEY=DO00{A:16} ;; SPACES_SECRET={b:43}
linode|Akamai Linode|cloud|api.linode.com|LINODE_TOKEN={h:64}
vultr|Vultr|cloud|api.vultr.com|VULTR_API_KEY={A:36}
hetzner|Hetzner Cloud|cloud|api.hetzner.cloud|HCLOUD_TOKEN={m:64}
scaleway|Scaleway|cloud|api.scaleway.com|+SCW_ACCESS_KEY=SCW{A:17} ;; SCW_SECRET_KEY={uuid}
ovh|OVHcloud|cloud|eu.api.ovh.com|+OVH_APPLICATION_KEY={m:16} ;; OVH_APPLICATION_SECRET={m:32} ;; OVH_CONSUMER_KEY={m:32}
alibaba|Alibaba Cloud|cloud|ecs.aliyuncs.com|+ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI5t{m:18} ;; ALIBABA_CLOUD_ACCESS_KEY_SECRET={m:30}
tencent|Tencent Cloud|cloud|cvm.tencentcloudapi.com|+TENCENTCLOUD_SECRET_ID=AKID{m:32} ;; TENCENTCLOUD_SECRET_KEY={m:32}
huawei|Huawei Cloud|cloud|ecs.myhuaweicloud.com|+HUAWEICLOUD_SDK_AK={A:20} ;; HUAWEICLOUD_SDK_SK={m:40}
ibm|IBM Cloud|cloud|iam.cloud.ibm.com|IBMCLOUD_API_KEY={u:44}
oracle-oci|Oracle Cloud|cloud|identity.eu-frankfurt-1.oraclecloud.com|+OCI_USER_OCID=ocid1.user.oc1..aaaaaaaa{a:52} ;; +OCI_FINGERPRINT={hexcolon} ;; OCI_AUTH_TOKEN={m:20}
cloudflare|Cloudflare API token|cdn|api.cloudflare.com|CLOUDFLARE_API_TOKEN={u:40}
cloudflare-global|Cloudflare global API key|cdn|api.cloudflare.com|+CLOUDFLARE_EMAIL={email} ;; CLOUDFLARE_API_KEY={h:37}
cloudflare-origin-ca|Cloudflare Origin CA key|cdn|api.cloudflare.com|CF_ORIGIN_CA_KEY=v1.0-{h:24}-{h:146}
cloudflare-r2|Cloudflare R2|storage|{h:32}.r2.cloudflarestorage.com|+R2_ACCESS_KEY_ID={h:32} ;; R2_SECRET_ACCESS_KEY={h:64}
cloudflare-tunnel|Cloudflare Tunnel|network||TUNNEL_TOKEN=eyJhIjoi{U:150}
fastly|Fastly|cdn|api.fastly.com|FASTLY_API_TOKEN={u:32}
akamai|Akamai EdgeGrid|cdn|akab-{a:16}-{a:16}.luna.akamaiapis.net|+host=akab-{a:16}-{a:16}.luna.akamaiapis.net ;; client_token=akab-{a:16}-{a:16} ;; client_secret={B:32} ;; access_token=akab-{a:16}-{a:16}
bunny|Bunny.net|cdn|api.bunny.net|BUNNY_API_KEY={uuid}-{h:4}-{h:4}-{h:4}-{h:12}
keycdn|KeyCDN|cdn|api.keycdn.com|KEYCDN_API_KEY={m:32}
stackpath|StackPath|cdn|gateway.stackpath.com|+STACKPATH_CLIENT_ID={h:32} ;; STACKPATH_CLIENT_SECRET={h:64}
gcore|Gcore|cdn|api.gcore.com|GCORE_API_TOKEN={d:5}${h:128}
imperva|Imperva|security|my.imperva.com|+IMPERVA_API_ID={d:5} ;; IMPERVA_API_KEY={uuid}
netlify|Netlify|cloud|api.netlify.com|NETLIFY_AUTH_TOKEN=nfp_{m:36}
vercel|Vercel|cloud|api.vercel.com|VERCEL_TOKEN={m:24}
vercel-blob|Vercel Blob|storage|blob.vercel-storage.com|BLOB_READ_WRITE_TOKEN=vercel_blob_rw_{m:16}_{m:30}
heroku|Heroku|cloud|api.heroku.com|HEROKU_API_KEY={uuid}
heroku-new|Heroku (HRKU token)|cloud|api.heroku.com|HEROKU_API_KEY=HRKU-AA{u:58}
render|Render|cloud|api.render.com|RENDER_API_KEY=rnd_{m:32}
flyio|Fly.io|cloud|api.machines.dev|FLY_API_TOKEN=FlyV1 fm2_{U:180}
railway|Railway|cloud|backboard.railway.app|RAILWAY_TOKEN={uuid}
koyeb|Koyeb|cloud|app.koyeb.com|KOYEB_TOKEN={a:64}
northflank|Northflank|cloud|api.northflank.com|NORTHFLANK_API_TOKEN=nf-{U:90}
deno|Deno Deploy|cloud|api.deno.com|DENO_DEPLOY_TOKEN=ddp_{m:36}
upcloud|UpCloud|cloud|api.upcloud.com|+UPCLOUD_USERNAME={user} ;; UPCLOUD_PASSWORD={pw}
exoscale|Exoscale|cloud|api-ch-gva-2.exoscale.com|+EXOSCALE_API_KEY=EXO{h:24} ;; EXOSCALE_API_SECRET={u:43}
civo|Civo|cloud|api.civo.com|CIVO_TOKEN={m:50}
equinix|Equinix Metal|cloud|api.equinix.com|METAL_AUTH_TOKEN={m:32}
openstack|OpenStack Keystone|cloud|keystone.{l:6}.internal:5000|+OS_AUTH_URL=https://keystone.{l:6}.internal:5000/v3 ;; +OS_USERNAME={user} ;; OS_PASSWORD={pw}
rackspace|Rackspace|cloud|identity.api.rackspacecloud.com|+RAX_USERNAME={user} ;; RAX_API_KEY={h:32}
ionos|IONOS Cloud|cloud|api.ionos.com|IONOS_TOKEN={jwt:rs}
contabo|Contabo|cloud|api.contabo.com|+CNTB_CLIENT_ID=INT-{d:8} ;; CNTB_CLIENT_SECRET={m:32}
yandex|Yandex Cloud OAuth|cloud|iam.api.cloud.yandex.net|YC_TOKEN=y0_{u:54}
yandex-static|Yandex Cloud static key|cloud|storage.yandexcloud.net|+YC_ACCESS_KEY_ID=YCAJ{m:21} ;; YC_SECRET_ACCESS_KEY=YC{u:38}
backblaze|Backblaze B2|storage|api.backblazeb2.com|+B2_APPLICATION_KEY_ID=005{h:22} ;; B2_APPLICATION_KEY=K005{m:27}
wasabi|Wasabi|storage|s3.wasabisys.com|+WASABI_ACCESS_KEY={A:20} ;; WASABI_SECRET_KEY={m:40}
minio|MinIO|storage|minio.{l:6}.internal:9000|+MINIO_ROOT_USER={user} ;; MINIO_ROOT_PASSWORD={pw}
storj|Storj|storage|gateway.storjshare.io|STORJ_ACCESS_GRANT=1{s:220}
filebase|Filebase|storage|s3.filebase.com|+FILEBASE_KEY={A:20} ;; FILEBASE_SECRET={m:40}
pinata|Pinata|storage|api.pinata.cloud|PINATA_JWT={jwt:hs}
uploadthing|UploadThing|storage|api.uploadthing.com|UPLOADTHING_SECRET=sk_live_{h:64}
box|Box|saas|api.box.com|+BOX_CLIENT_ID={a:32} ;; BOX_CLIENT_SECRET={m:32}
box-dev|Box developer token|saas|api.box.com|BOX_DEVELOPER_TOKEN={m:32}
dropbox|Dropbox|saas|api.dropboxapi.com|DROPBOX_ACCESS_TOKEN=sl.{u:138}
dropbox-app|Dropbox app secret|saas|api.dropboxapi.com|+DROPBOX_APP_KEY={a:15} ;; DROPBOX_APP_SECRET={a:15}
google-oauth|Google OAuth client|identity|oauth2.googleapis.com|+GOOGLE_CLIENT_ID={n:1}{d:11}-{a:32}.apps.googleusercontent.com ;; GOOGLE_CLIENT_SECRET=GOCSPX-{u:28}
google-refresh|Google OAuth refresh token|identity|oauth2.googleapis.com|GOOGLE_REFRESH_TOKEN=1//0{u:99}
google-access|Google OAuth access token|identity|www.googleapis.com|GOOGLE_ACCESS_TOKEN=ya29.a0{u:170}
pulumi|Pulumi|infra|api.pulumi.com|PULUMI_ACCESS_TOKEN=pul-{h:40}
tfc|Terraform Cloud|infra|app.terraform.io|TFE_TOKEN={m:14}.atlasv1.{m:67}
hcp|HashiCorp Cloud Platform|infra|api.cloud.hashicorp.com|+HCP_CLIENT_ID={m:32} ;; HCP_CLIENT_SECRET={u:64}
doppler|Doppler service token|security|api.doppler.com|DOPPLER_TOKEN=dp.st.prd.{m:43}
doppler-pt|Doppler personal token|security|api.doppler.com|DOPPLER_TOKEN=dp.pt.{m:43}
vault|HashiCorp Vault|security|vault.{l:6}.internal:8200|VAULT_TOKEN=hvs.{m:24}
vault-batch|HashiCorp Vault batch token|security|vault.{l:6}.internal:8200|VAULT_TOKEN=hvb.AAAAAQ{u:110}
vault-approle|HashiCorp Vault AppRole|security|vault.{l:6}.internal:8200|+VAULT_ROLE_ID={uuid} ;; VAULT_SECRET_ID={uuid}
infisical|Infisical|security|app.infisical.com|INFISICAL_TOKEN=st.{uuid}.{h:32}.{h:32}
onepassword-sa|1Password service account|security|my.1password.com|OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{U:300}
onepassword-connect|1Password Connect|security|op-connect.{l:6}.internal:8080|OP_CONNECT_TOKEN={jwt:es}
bitwarden-sm|Bitwarden Secrets Manager|security|api.bitwarden.com|BWS_ACCESS_TOKEN=0.{uuid}.{m:30}:{B:16}
akeyless|Akeyless|security|api.akeyless.io|+AKEYLESS_ACCESS_ID=p-{a:12} ;; AKEYLESS_ACCESS_KEY={B:32}
conjur|CyberArk Conjur|security|conjur.{l:6}.internal|CONJUR_AUTHN_API_KEY={a:52}
openai|OpenAI project key|ai|api.openai.com|OPENAI_API_KEY=sk-proj-{u:74}T3BlbkFJ{u:74}
openai-legacy|OpenAI user key (legacy)|ai|api.openai.com|OPENAI_API_KEY=sk-{m:20}T3BlbkFJ{m:20}
openai-svcacct|OpenAI service account key|ai|api.openai.com|OPENAI_API_KEY=sk-svcacct-{u:74}T3BlbkFJ{u:74}
openai-admin|OpenAI admin key|ai|api.openai.com|OPENAI_ADMIN_KEY=sk-admin-{u:74}T3BlbkFJ{u:74}
anthropic|Anthropic|ai|api.anthropic.com|ANTHROPIC_API_KEY=sk-ant-api03-{u:93}AA
anthropic-admin|Anthropic admin key|ai|api.anthropic.com|ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{u:93}AA
cohere|Cohere|ai|api.cohere.com|COHERE_API_KEY={m:40}
huggingface|Hugging Face|ai|huggingface.co|HF_TOKEN=hf_{m:34}
replicate|Replicate|ai|api.replicate.com|REPLICATE_API_TOKEN=r8_{m:37}
mistral|Mistral AI|ai|api.mistral.ai|MISTRAL_API_KEY={m:32}
groq|Groq|ai|api.groq.com|GROQ_API_KEY=gsk_{m:52}
perplexity|Perplexity|ai|api.perplexity.ai|PERPLEXITY_API_KEY=pplx-{m:48}
together|Together AI|ai|api.together.xyz|TOGETHER_API_KEY={h:64}
fireworks|Fireworks AI|ai|api.fireworks.ai|FIREWORKS_API_KEY=fw_{m:24}
deepseek|DeepSeek|ai|api.deepseek.com|DEEPSEEK_API_KEY=sk-{h:32}
xai|xAI|ai|api.x.ai|XAI_API_KEY=xai-{m:80}
gemini|Google Gemini API|ai|generativelanguage.googleapis.com|GEMINI_API_KEY=AIza{u:35}
stability|Stability AI|ai|api.stability.ai|STABILITY_API_KEY=sk-{m:48}
elevenlabs|ElevenLabs|ai|api.elevenlabs.io|ELEVENLABS_API_KEY=sk_{h:48}
assemblyai|AssemblyAI|ai|api.assemblyai.com|ASSEMBLYAI_API_KEY={h:32}
deepgram|Deepgram|ai|api.deepgram.com|DEEPGRAM_API_KEY={h:40}
pinecone|Pinecone|ai|api.pinecone.io|PINECONE_API_KEY=pcsk_{m:6}_{m:63}
weaviate|Weaviate Cloud|ai|{a:20}.c0.europe-west3.gcp.weaviate.cloud|+WEAVIATE_URL=https://{a:20}.c0.europe-west3.gcp.weaviate.cloud ;; WEAVIATE_API_KEY={m:40}
qdrant|Qdrant Cloud|database|{uuid}.eu-central-1-0.aws.cloud.qdrant.io:6333|+QDRANT_URL=https://{uuid}.eu-central-1-0.aws.cloud.qdrant.io:6333 ;; QDRANT_API_KEY={u:54}
langsmith|LangSmith|ai|api.smith.langchain.com|LANGCHAIN_API_KEY=lsv2_pt_{h:32}_{h:10}
wandb|Weights & Biases|ai|api.wandb.ai|WANDB_API_KEY={h:40}
voyage|Voyage AI|ai|api.voyageai.com|VOYAGE_API_KEY=pa-{u:43}
openrouter|OpenRouter|ai|openrouter.ai|OPENROUTER_API_KEY=sk-or-v1-{h:64}
jina|Jina AI|ai|api.jina.ai|JINA_API_KEY=jina_{m:60}
tavily|Tavily|ai|api.tavily.com|TAVILY_API_KEY=tvly-{m:32}
cerebras|Cerebras|ai|api.cerebras.ai|CEREBRAS_API_KEY=csk-{a:48}
ai21|AI21 Labs|ai|api.ai21.com|AI21_API_KEY={m:32}
clarifai|Clarifai|ai|api.clarifai.com|CLARIFAI_PAT={h:32}
modal|Modal|ai|api.modal.com|+MODAL_TOKEN_ID=ak-{m:22} ;; MODAL_TOKEN_SECRET=as-{m:22}
llamacloud|LlamaCloud|ai|api.cloud.llamaindex.ai|LLAMA_CLOUD_API_KEY=llx-{m:48}
langfuse|Langfuse|ai|cloud.langfuse.com|+LANGFUSE_PUBLIC_KEY=pk-lf-{uuid} ;; LANGFUSE_SECRET_KEY=sk-lf-{uuid}
helicone|Helicone|ai|oai.helicone.ai|HELICONE_API_KEY=sk-helicone-{a:7}-{a:7}-{a:7}-{a:7}
portkey|Portkey|ai|api.portkey.ai|PORTKEY_API_KEY={m:32}
runpod|RunPod|ai|api.runpod.io|RUNPOD_API_KEY=rpa_{A:48}
baseten|Baseten|ai|api.baseten.co|BASETEN_API_KEY={m:8}.{m:32}
anyscale|Anyscale|ai|api.endpoints.anyscale.com|ANYSCALE_API_KEY=esecret_{a:26}
nvidia|NVIDIA API catalog|ai|integrate.api.nvidia.com|NVIDIA_API_KEY=nvapi-{u:64}
roboflow|Roboflow|ai|api.roboflow.com|ROBOFLOW_API_KEY={m:20}
unstructured|Unstructured|ai|api.unstructuredapp.io|UNSTRUCTURED_API_KEY={m:30}
firecrawl|Firecrawl|ai|api.firecrawl.dev|FIRECRAWL_API_KEY=fc-{h:32}
browserbase|Browserbase|ai|api.browserbase.com|BROWSERBASE_API_KEY=bb_live_{u:27}
e2b|E2B|ai|api.e2b.dev|E2B_API_KEY=e2b_{h:40}
braintrust|Braintrust|ai|api.braintrust.dev|BRAINTRUST_API_KEY=sk-{m:48}
writer|Writer|ai|api.writer.com|WRITER_API_KEY={m:32}
sambanova|SambaNova Cloud|ai|api.sambanova.ai|SAMBANOVA_API_KEY={uuid}
leonardo|Leonardo.Ai|ai|cloud.leonardo.ai|LEONARDO_API_KEY={uuid}
runway|Runway API|ai|api.dev.runwayml.com|RUNWAYML_API_SECRET=key_{h:128}
gladia|Gladia|ai|api.gladia.io|GLADIA_API_KEY={uuid}
speechmatics|Speechmatics|ai|asr.api.speechmatics.com|SPEECHMATICS_API_KEY={m:32}
revai|Rev.ai|ai|api.rev.ai|REVAI_ACCESS_TOKEN=02{m:70}
deepl|DeepL|ai|api.deepl.com|DEEPL_AUTH_KEY={uuid}
exa|Exa|search|api.exa.ai|EXA_API_KEY={uuid}
stripe|Stripe|payments|api.stripe.com|STRIPE_SECRET_KEY=sk_live_51{m:97}
stripe-legacy|Stripe (legacy secret key)|payments|api.stripe.com|STRIPE_API_KEY=sk_live_{m:24}
stripe-restricted|Stripe restricted key|payments|api.stripe.com|STRIPE_RESTRICTED_KEY=rk_live_51{m:97}
stripe-webhook|Stripe webhook signing secret|webhook|api.stripe.com|STRIPE_WEBHOOK_SECRET=whsec_{m:32}
square|Square|payments|connect.squareup.com|SQUARE_ACCESS_TOKEN=EAAA{u:60}
square-oauth|Square OAuth app|payments|connect.squareup.com|+SQUARE_APPLICATION_ID=sq0idp-{u:22} ;; SQUARE_APPLICATION_SECRET=sq0csp-{u:43}
paypal|PayPal REST|payments|api-m.paypal.com|+PAYPAL_CLIENT_ID=A{u:79} ;; PAYPAL_CLIENT_SECRET=E{u:79}
braintree|Braintree|payments|api.braintreegateway.com|+BRAINTREE_MERCHANT_ID={a:16} ;; +BRAINTREE_PUBLIC_KEY={a:16} ;; BRAINTREE_PRIVATE_KEY={h:32}
braintree-token|Braintree access token|payments|api.braintreegateway.com|BRAINTREE_ACCESS_TOKEN=access_token$production${a:16}${h:32}
adyen|Adyen|payments|checkout-live.adyenpayments.com|ADYEN_API_KEY=AQE{b:150}
razorpay|Razorpay|payments|api.razorpay.com|+RAZORPAY_KEY_ID=rzp_live_{m:14} ;; RAZORPAY_KEY_SECRET={m:24}
paystack|Paystack|payments|api.paystack.co|PAYSTACK_SECRET_KEY=sk_live_{h:40}
flutterwave|Flutterwave|payments|api.flutterwave.com|FLW_SECRET_KEY=FLWSECK-{h:32}-X
mollie|Mollie|payments|api.mollie.com|MOLLIE_API_KEY=live_{m:30}
checkout|Checkout.com|payments|api.checkout.com|CKO_SECRET_KEY=sk_{a:26}
plaid|Plaid|finance|production.plaid.com|+PLAID_CLIENT_ID={h:24} ;; PLAID_SECRET={h:30}
plaid-access|Plaid item access token|finance|production.plaid.com|PLAID_ACCESS_TOKEN=access-production-{uuid}
gocardless|GoCardless|payments|api.gocardless.com|GOCARDLESS_ACCESS_TOKEN=live_{u:40}
shopify|Shopify Admin API|commerce|{l:8}.myshopify.com|SHOPIFY_ACCESS_TOKEN=shpat_{h:32}
shopify-app|Shopify app credentials|commerce|{l:8}.myshopify.com|+SHOPIFY_API_KEY={h:32} ;; SHOPIFY_API_SECRET=shpss_{h:32}
shopify-custom|Shopify custom app|commerce|{l:8}.myshopify.com|SHOPIFY_CUSTOM_APP_TOKEN=shpca_{h:32}
shopify-private|Shopify private app|commerce|{l:8}.myshopify.com|SHOPIFY_PRIVATE_APP_PASSWORD=shppa_{h:32}
paddle|Paddle Billing|payments|api.paddle.com|PADDLE_API_KEY=pdl_live_apikey_{a:26}_{m:24}_{m:3}
lemonsqueezy|Lemon Squeezy|payments|api.lemonsqueezy.com|LEMONSQUEEZY_API_KEY={jwt:rs}
recurly|Recurly|payments|v3.recurly.com|RECURLY_API_KEY={h:32}
chargebee|Chargebee|payments|{l:8}.chargebee.com|CHARGEBEE_API_KEY=live_{m:34}
wise|Wise|finance|api.transferwise.com|WISE_API_TOKEN={uuid}
authorize-net|Authorize.Net|payments|api.authorize.net|+AUTHNET_API_LOGIN_ID={m:10} ;; AUTHNET_TRANSACTION_KEY={m:16}
mercadopago|Mercado Pago|payments|api.mercadopago.com|MP_ACCESS_TOKEN=APP_USR-{d:16}-{d:6}-{h:32}-{d:9}
xendit|Xendit|payments|api.xendit.co|XENDIT_SECRET_KEY=xnd_production_{u:60}
midtrans|Midtrans|payments|api.midtrans.com|MIDTRANS_SERVER_KEY=Mid-server-{u:24}
dwolla|Dwolla|payments|api.dwolla.com|+DWOLLA_KEY={m:50} ;; DWOLLA_SECRET={m:50}
marqeta|Marqeta|payments|{l:6}.marqeta.com|+MARQETA_APPLICATION_TOKEN={uuid} ;; MARQETA_ADMIN_ACCESS_TOKEN={uuid}
modern-treasury|Modern Treasury|finance|app.moderntreasury.com|+MT_ORGANIZATION_ID={uuid} ;; MT_API_KEY=live-{m:56}
increase|Increase|finance|api.increase.com|INCREASE_API_KEY=secret_key_{a:40}
lithic|Lithic|finance|api.lithic.com|LITHIC_API_KEY={uuid}
rapyd|Rapyd|payments|api.rapyd.net|+RAPYD_ACCESS_KEY=rak_{H:20} ;; RAPYD_SECRET_KEY=rsk_{h:104}
twocheckout|2Checkout (Verifone)|payments|api.2checkout.com|+TCO_MERCHANT_CODE={d:9} ;; TCO_SECRET_KEY={m:20}
klarna|Klarna|payments|api.klarna.com|+KLARNA_USERNAME=K{d:6}_{h:12} ;; KLARNA_PASSWORD={m:16}
afterpay|Afterpay|payments|global-api.afterpay.com|+AFTERPAY_MERCHANT_ID={d:6} ;; AFTERPAY_SECRET_KEY={h:128}
worldpay|Worldpay|payments|api.worldpay.com|WORLDPAY_SERVICE_KEY=L_S_{uuid}
payu|PayU|payments|secure.payu.in|+PAYU_MERCHANT_KEY={m:6} ;; PAYU_MERCHANT_SALT={m:32}
cashfree|Cashfree|payments|api.cashfree.com|+CASHFREE_APP_ID={d:10}{h:20} ;; CASHFREE_SECRET_KEY=cfsk_ma_prod_{h:32}_{h:8}
coinbase-commerce|Coinbase Commerce|crypto|api.commerce.coinbase.com|COINBASE_COMMERCE_API_KEY={uuid}
btcpay|BTCPay Server|crypto|btcpay.{l:6}.org|BTCPAY_API_KEY={h:40}
revolut|Revolut Business|finance|b2b.revolut.com|REVOLUT_ACCESS_TOKEN=oa_prod_{u:43}
affirm|Affirm|payments|api.affirm.com|+AFFIRM_PUBLIC_API_KEY={A:16} ;; AFFIRM_PRIVATE_API_KEY={m:32}
nmi|NMI|payments|secure.nmi.com|NMI_SECURITY_KEY={m:32}
sumup|SumUp|payments|api.sumup.com|SUMUP_API_KEY=sup_sk_{m:32}
yookassa|YooKassa|payments|api.yookassa.ru|+YOOKASSA_SHOP_ID={d:6} ;; YOOKASSA_SECRET_KEY=live_{u:43}
alipay|Alipay Open Platform|payments|openapi.alipay.com|+ALIPAY_APP_ID=2021{d:12} ;; ALIPAY_PRIVATE_KEY=MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ{b:400}
wechatpay|WeChat Pay|payments|api.mch.weixin.qq.com|+WECHATPAY_MCH_ID={d:10} ;; WECHATPAY_API_V3_KEY={m:32}
payfast|PayFast|payments|api.payfast.co.za|+PAYFAST_MERCHANT_ID={d:8} ;; PAYFAST_MERCHANT_KEY={a:13} ;; PAYFAST_PASSPHRASE={pw}
iyzico|iyzico|payments|api.iyzipay.com|+IYZICO_API_KEY={m:32} ;; IYZICO_SECRET_KEY={m:32}
easypost|EasyPost|commerce|api.easypost.com|EASYPOST_API_KEY=EZAK{h:54}
shippo|Shippo|commerce|api.goshippo.com|SHIPPO_API_TOKEN=shippo_live_{h:40}
shipstation|ShipStation|commerce|ssapi.shipstation.com|+SHIPSTATION_API_KEY={h:32} ;; SHIPSTATION_API_SECRET={h:32}
shipengine|ShipEngine|commerce|api.shipengine.com|SHIPENGINE_API_KEY={u:43}
bigcommerce|BigCommerce|commerce|api.bigcommerce.com|+BIGCOMMERCE_STORE_HASH={a:10} ;; BIGCOMMERCE_ACCESS_TOKEN={a:31}
woocommerce|WooCommerce REST|commerce|shop.{domain}|+WC_CONSUMER_KEY=ck_{h:40} ;; WC_CONSUMER_SECRET=cs_{h:40}
magento|Adobe Commerce (Magento)|commerce|shop.{domain}|MAGENTO_ACCESS_TOKEN={a:32}
commercetools|commercetools|commerce|api.europe-west1.gcp.commercetools.com|+CTP_CLIENT_ID={u:24} ;; CTP_CLIENT_SECRET={u:32}
ecwid|Ecwid|commerce|app.ecwid.com|ECWID_SECRET_TOKEN=secret_{m:32}
gumroad|Gumroad|commerce|api.gumroad.com|GUMROAD_ACCESS_TOKEN={u:43}
printful|Printful|commerce|api.printful.com|PRINTFUL_API_TOKEN={m:40}
etsy|Etsy Open API|commerce|openapi.etsy.com|+ETSY_API_KEY={a:24} ;; ETSY_SHARED_SECRET={a:10}
amazon-sp|Amazon Selling Partner API|commerce|sellingpartnerapi-eu.amazon.com|+SP_API_CLIENT_ID=amzn1.application-oa2-client.{h:32} ;; SP_API_REFRESH_TOKEN=Atzr|{u:300}
ebay|eBay|commerce|api.ebay.com|+EBAY_APP_ID={m:8}-{m:8}-PRD-{h:9}-{h:8} ;; EBAY_CERT_ID=PRD-{h:12}-{h:4}-{h:4}-{h:4}-{h:4}
squarespace|Squarespace Commerce|commerce|api.squarespace.com|SQUARESPACE_API_KEY={uuid}
slack-bot|Slack bot token|messaging|slack.com|SLACK_BOT_TOKEN=xoxb-{n:1}{d:10}-{n:1}{d:12}-{m:24}
slack-user|Slack user token|messaging|slack.com|SLACK_USER_TOKEN=xoxp-{n:1}{d:10}-{n:1}{d:11}-{n:1}{d:12}-{h:32}
slack-app|Slack app-level token|messaging|slack.com|SLACK_APP_TOKEN=xapp-1-A{A:10}-{d:13}-{h:64}
slack-signing|Slack signing secret|messaging|slack.com|SLACK_SIGNING_SECRET={h:32}
slack-config|Slack config token|messaging|slack.com|SLACK_CONFIG_TOKEN=xoxe.xoxp-1-{m:150}
slack-webhook|Slack incoming webhook|webhook|hooks.slack.com|SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{A:8}/B{A:10}/{m:24}
slack-workflow|Slack workflow trigger|webhook|hooks.slack.com|SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{A:8}/{d:13}/{h:32}
discord-bot|Discord bot|messaging|discord.com|DISCORD_BOT_TOKEN={discord}
discord-webhook|Discord webhook|webhook|discord.com|DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/{n:1}{d:18}/{u:68}
telegram|Telegram bot|messaging|api.telegram.org|TELEGRAM_BOT_TOKEN={n:1}{d:9}:AA{u:33}
twilio|Twilio|messaging|api.twilio.com|+TWILIO_ACCOUNT_SID=AC{h:32} ;; TWILIO_AUTH_TOKEN={h:32}
twilio-apikey|Twilio API key|messaging|api.twilio.com|+TWILIO_API_KEY_SID=SK{h:32} ;; TWILIO_API_KEY_SECRET={m:32}
vonage|Vonage (Nexmo)|messaging|rest.nexmo.com|+VONAGE_API_KEY={h:8} ;; VONAGE_API_SECRET={m:16}
messagebird|MessageBird (Bird)|messaging|rest.messagebird.com|MESSAGEBIRD_ACCESS_KEY={m:25}
sinch|Sinch SMS|messaging|us.sms.api.sinch.com|+SINCH_SERVICE_PLAN_ID={h:32} ;; SINCH_API_TOKEN={h:32}
plivo|Plivo|messaging|api.plivo.com|+PLIVO_AUTH_ID=MA{A:18} ;; PLIVO_AUTH_TOKEN={m:40}
pusher|Pusher Channels|messaging|api-eu.pusher.com|+PUSHER_APP_ID={d:7} ;; +PUSHER_KEY={h:20} ;; PUSHER_SECRET={h:20}
ably|Ably|messaging|rest.ably.io|ABLY_API_KEY={m:6}.{m:6}:{u:43}
stream|Stream Chat|messaging|chat.stream-io-api.com|+STREAM_API_KEY={a:12} ;; STREAM_API_SECRET={a:64}
sendbird|Sendbird|messaging|api-{UUID}.sendbird.com|+SENDBIRD_APP_ID={UUID} ;; SENDBIRD_API_TOKEN={h:40}
intercom|Intercom|saas|api.intercom.io|INTERCOM_ACCESS_TOKEN=dG9rOj{b:58}
line|LINE Messaging API|messaging|api.line.me|LINE_CHANNEL_SECRET={h:32} ;; LINE_CHANNEL_ACCESS_TOKEN={b:171}=
whatsapp|WhatsApp Cloud API|messaging|graph.facebook.com|+WHATSAPP_PHONE_NUMBER_ID={d:15} ;; WHATSAPP_TOKEN=EAA{m:200}
facebook|Meta Graph page token|social|graph.facebook.com|FB_PAGE_ACCESS_TOKEN=EAA{m:180}
facebook-app|Meta app secret|social|graph.facebook.com|+FB_APP_ID={n:1}{d:15} ;; FB_APP_SECRET={h:32}
instagram|Instagram Graph|social|graph.instagram.com|IG_ACCESS_TOKEN=IGQV{u:180}
mattermost|Mattermost bot|messaging|chat.{domain}|MATTERMOST_TOKEN={a:26}
mattermost-webhook|Mattermost incoming webhook|webhook|chat.{domain}|MATTERMOST_WEBHOOK_URL=https://chat.{l:7}.io/hooks/{a:26}
rocketchat|Rocket.Chat|messaging|chat.{domain}|+ROCKETCHAT_USER_ID={m:17} ;; ROCKETCHAT_AUTH_TOKEN={u:43}
rocketchat-webhook|Rocket.Chat webhook|webhook|chat.{domain}|ROCKETCHAT_HOOK_URL=https://rocket.{l:7}.org/hooks/{m:24}/{m:48}
teams-webhook|Microsoft Teams webhook|webhook|outlook.office.com|TEAMS_WEBHOOK_URL=https://{l:8}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h:32}/{uuid}
teams-workflow|Teams workflow (Power Automate)|webhook|logic.azure.com|TEAMS_FLOW_URL=https://prod-{d:2}.westeurope.logic.azure.com:443/workflows/{h:32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={u:43}
zulip|Zulip|messaging|{l:6}.zulipchat.com|+ZULIP_EMAIL={l:6}-bot@{l:6}.zulipchat.com ;; ZULIP_API_KEY={m:32}
pushover|Pushover|messaging|api.pushover.net|+PUSHOVER_USER_KEY=u{a:29} ;; PUSHOVER_API_TOKEN=a{a:29}
pagerduty|PagerDuty REST|observability|api.pagerduty.com|PAGERDUTY_API_TOKEN=u+{u:18}
pagerduty-events|PagerDuty Events v2|observability|events.pagerduty.com|PAGERDUTY_ROUTING_KEY={h:32}
opsgenie|Opsgenie|observability|api.opsgenie.com|OPSGENIE_API_KEY={uuid}
telnyx|Telnyx|messaging|api.telnyx.com|TELNYX_API_KEY=KEY0{H:31}_{u:22}
bandwidth|Bandwidth|messaging|messaging.bandwidth.com|+BANDWIDTH_USERNAME={user} ;; BANDWIDTH_PASSWORD={pw}
infobip|Infobip|messaging|{a:6}.api.infobip.com|INFOBIP_API_KEY={h:32}-{uuid}
clicksend|ClickSend|messaging|rest.clicksend.com|+CLICKSEND_USERNAME={user} ;; CLICKSEND_API_KEY={H:8}-{H:4}-{H:4}-{H:4}-{H:12}
textmagic|TextMagic|messaging|rest.textmagic.com|+TEXTMAGIC_USERNAME={user} ;; TEXTMAGIC_API_KEY={m:30}
clickatell|Clickatell|messaging|platform.clickatell.com|CLICKATELL_API_KEY={u:22}==
gupshup|Gupshup|messaging|api.gupshup.io|GUPSHUP_API_KEY={a:32}
africastalking|Africa's Talking|messaging|api.africastalking.com|+AT_USERNAME={l:8} ;; AT_API_KEY=atsk_{h:64}
webex|Webex bot|messaging|webexapis.com|WEBEX_ACCESS_TOKEN={m:64}_{A:4}_{uuid}
ringcentral|RingCentral|messaging|platform.ringcentral.com|+RC_CLIENT_ID={u:22} ;; RC_CLIENT_SECRET={u:43} ;; RC_JWT={jwt:rs}
twitch|Twitch|social|api.twitch.tv|+TWITCH_CLIENT_ID={a:30} ;; TWITCH_CLIENT_SECRET={a:30}
twitter|X (Twitter) app bearer|social|api.twitter.com|TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{m:20}%3D{m:50}
twitter-oauth1|X (Twitter) OAuth 1.0a|social|api.twitter.com|+TWITTER_API_KEY={m:25} ;; TWITTER_API_SECRET={m:50} ;; TWITTER_ACCESS_TOKEN={n:1}{d:18}-{m:30} ;; TWITTER_ACCESS_SECRET={m:45}
reddit|Reddit|social|oauth.reddit.com|+REDDIT_CLIENT_ID={u:22} ;; REDDIT_CLIENT_SECRET={u:30}
linkedin|LinkedIn|social|api.linkedin.com|+LINKEDIN_CLIENT_ID={a:14} ;; LINKEDIN_CLIENT_SECRET=WPL_AP1.{m:16}.{m:8}==
tiktok|TikTok for Developers|social|open.tiktokapis.com|+TIKTOK_CLIENT_KEY=aw{a:14} ;; TIKTOK_CLIENT_SECRET={m:32}
youtube|YouTube Data API (server)|social|www.googleapis.com|YOUTUBE_API_KEY=AIza{u:35}
pinterest|Pinterest|social|api.pinterest.com|PINTEREST_ACCESS_TOKEN=pina_{A:100}
mastodon|Mastodon|social|mastodon.social|MASTODON_ACCESS_TOKEN={u:43}
bluesky|Bluesky app password|social|bsky.social|+BLUESKY_HANDLE={l:8}.bsky.social ;; BLUESKY_APP_PASSWORD={l:4}-{l:4}-{l:4}-{l:4}
spotify|Spotify Web API|media|accounts.spotify.com|+SPOTIFY_CLIENT_ID={h:32} ;; SPOTIFY_CLIENT_SECRET={h:32}
vimeo|Vimeo|media|api.vimeo.com|VIMEO_ACCESS_TOKEN={h:32}
mux|Mux|media|api.mux.com|+MUX_TOKEN_ID={uuid} ;; MUX_TOKEN_SECRET={b:75}
cloudinary|Cloudinary|media|api.cloudinary.com|CLOUDINARY_URL=cloudinary://{d:15}:{u:27}@{l:9}
imgix|imgix|media|api.imgix.com|IMGIX_API_KEY=ak_{h:64}
uploadcare|Uploadcare|media|api.uploadcare.com|+UPLOADCARE_PUBLIC_KEY={h:20} ;; UPLOADCARE_SECRET_KEY={h:20}
filestack|Filestack|media|www.filestackapi.com|FILESTACK_APP_SECRET={A:26}
unsplash|Unsplash|media|api.unsplash.com|+UNSPLASH_ACCESS_KEY={u:43} ;; UNSPLASH_SECRET_KEY={u:43}
pexels|Pexels|media|api.pexels.com|PEXELS_API_KEY={m:56}
giphy|GIPHY (server)|media|api.giphy.com|GIPHY_API_KEY={m:32}
lastfm|Last.fm|media|ws.audioscrobbler.com|+LASTFM_API_KEY={h:32} ;; LASTFM_SHARED_SECRET={h:32}
genius|Genius|media|api.genius.com|GENIUS_ACCESS_TOKEN={u:64}
discogs|Discogs|media|api.discogs.com|DISCOGS_TOKEN={m:40}
wistia|Wistia|media|api.wistia.com|WISTIA_API_TOKEN={h:64}
frameio|Frame.io|media|api.frame.io|FRAMEIO_TOKEN=fio-u-{u:64}
adobe|Adobe Developer Console|media|ims-na1.adobelogin.com|+ADOBE_CLIENT_ID={h:32} ;; ADOBE_CLIENT_SECRET=p8e-{u:32}
canva|Canva Connect|saas|api.canva.com|+CANVA_CLIENT_ID=OC-{u:12} ;; CANVA_CLIENT_SECRET=cnvca{u:40}
apivideo|api.video|media|ws.api.video|APIVIDEO_API_KEY={m:43}
livekit|LiveKit|media|{l:8}.livekit.cloud|+LIVEKIT_API_KEY=API{m:12} ;; LIVEKIT_API_SECRET={m:43}
agora|Agora|media|api.agora.io|+AGORA_APP_ID={h:32} ;; AGORA_APP_CERTIFICATE={h:32}
daily|Daily|media|api.daily.co|DAILY_API_KEY={h:64}
zoom|Zoom Server-to-Server OAuth|saas|api.zoom.us|+ZOOM_ACCOUNT_ID={u:22} ;; +ZOOM_CLIENT_ID={u:22} ;; ZOOM_CLIENT_SECRET={m:32}
steam|Steam Web API|media|api.steampowered.com|STEAM_API_KEY={H:32}
riot|Riot Games API|media|europe.api.riotgames.com|RIOT_API_KEY=RGAPI-{uuid}
sendgrid|SendGrid|email|api.sendgrid.com|SENDGRID_API_KEY=SG.{u:22}.{u:43}
mailgun|Mailgun (legacy key)|email|api.mailgun.net|MAILGUN_API_KEY=key-{h:32}
mailgun-v2|Mailgun|email|api.eu.mailgun.net|+MAILGUN_DOMAIN=mg.{domain} ;; MAILGUN_API_KEY={h:32}-{h:8}-{h:8}
mailchimp|Mailchimp Marketing|email|us{n:1}.api.mailchimp.com|MAILCHIMP_API_KEY={h:32}-us{n:1}{d:1}
mandrill|Mailchimp Transactional|email|mandrillapp.com|MANDRILL_API_KEY=md-{u:22}
postmark|Postmark|email|api.postmarkapp.com|POSTMARK_SERVER_TOKEN={uuid}
sparkpost|SparkPost|email|api.sparkpost.com|SPARKPOST_API_KEY={h:40}
brevo|Brevo|email|api.brevo.com|BREVO_API_KEY=xkeysib-{h:64}-{m:16}
brevo-smtp|Brevo SMTP relay|email|smtp-relay.brevo.com|+SMTP_USER={email} ;; SMTP_KEY=xsmtpsib-{h:64}-{m:16}
mailjet|Mailjet|email|api.mailjet.com|+MJ_APIKEY_PUBLIC={h:32} ;; MJ_APIKEY_PRIVATE={h:32}
resend|Resend|email|api.resend.com|RESEND_API_KEY=re_{m:8}_{m:24}
loops|Loops|email|app.loops.so|LOOPS_API_KEY={h:32}
convertkit|Kit (ConvertKit)|email|api.convertkit.com|CONVERTKIT_API_SECRET={u:43}
ses-smtp|Amazon SES SMTP|email|email-smtp.eu-west-1.amazonaws.com|+SES_SMTP_USERNAME=AKIA{A:16} ;; SES_SMTP_PASSWORD=BA{b:42}
customerio|Customer.io Track API|email|track.customer.io|+CUSTOMERIO_SITE_ID={h:20} ;; CUSTOMERIO_API_KEY={h:20}
customerio-app|Customer.io App API|email|api.customer.io|CUSTOMERIO_APP_API_KEY={h:32}
mailerlite|MailerLite|email|connect.mailerlite.com|MAILERLITE_API_KEY={jwt:rs}
klaviyo|Klaviyo private key|email|a.klaviyo.com|KLAVIYO_PRIVATE_KEY=pk_{h:34}
campaignmonitor|Campaign Monitor|email|api.createsend.com|CM_API_KEY={B:64}
elasticemail|Elastic Email|email|api.elasticemail.com|ELASTICEMAIL_API_KEY={H:96}
smtp2go|SMTP2GO|email|api.smtp2go.com|SMTP2GO_API_KEY=api-{H:32}
mailtrap|Mailtrap|email|send.api.mailtrap.io|MAILTRAP_API_TOKEN={h:32}
zeptomail|ZeptoMail|email|api.zeptomail.eu|ZEPTOMAIL_TOKEN=Zoho-enczapikey {B:120}
mailersend|MailerSend|email|api.mailersend.com|MAILERSEND_API_KEY=mlsn.{h:64}
sendpulse|SendPulse|email|api.sendpulse.com|+SENDPULSE_ID={h:32} ;; SENDPULSE_SECRET={h:32}
activecampaign|ActiveCampaign|email|{l:8}.api-us1.com|+AC_API_URL=https://{l:8}.api-us1.com ;; AC_API_KEY={h:72}
drip|Drip|email|api.getdrip.com|DRIP_API_TOKEN={h:32}
beehiiv|beehiiv|email|api.beehiiv.com|BEEHIIV_API_KEY={m:64}
postal|Postal (self-hosted)|email|postal.{domain}|POSTAL_SERVER_KEY={m:24}
gmail-app|Gmail app password|email|smtp.gmail.com|+SMTP_USERNAME={email} ;; SMTP_APP_PASSWORD={l:4} {l:4} {l:4} {l:4}
office365-smtp|Microsoft 365 SMTP AUTH|email|smtp.office365.com|+SMTP_USER={email} ;; SMTP_PASSWORD={pw}
zoho-mail|Zoho Mail SMTP|email|smtp.zoho.eu|+ZOHO_SMTP_USER={email} ;; ZOHO_SMTP_PASSWORD={m:12}
fastmail|Fastmail API|email|api.fastmail.com|FASTMAIL_API_TOKEN=fmu1-{h:8}-{h:32}-0-{h:32}
emailoctopus|EmailOctopus|email|emailoctopus.com|EMAILOCTOPUS_API_KEY={uuid}
hunter|Hunter.io|email|api.hunter.io|HUNTER_API_KEY={h:40}
zerobounce|ZeroBounce|email|api.zerobounce.net|ZEROBOUNCE_API_KEY={h:32}
github-classic|GitHub PAT (classic)|vcs|api.github.com|GITHUB_TOKEN=ghp_{m:36}
github-fine|GitHub fine-grained PAT|vcs|api.github.com|GITHUB_TOKEN=github_pat_11{A:20}_{m:59}
github-oauth|GitHub OAuth token|vcs|api.github.com|GH_OAUTH_TOKEN=gho_{m:36}
github-user|GitHub App user token|vcs|api.github.com|GH_USER_TOKEN=ghu_{m:36}
github-install|GitHub App installation token|vcs|api.github.com|GH_INSTALLATION_TOKEN=ghs_{m:36}
github-refresh|GitHub refresh token|vcs|github.com|GH_REFRESH_TOKEN=ghr_{m:76}
github-oauth-app|GitHub OAuth app|vcs|github.com|+GITHUB_CLIENT_ID=Ov23li{m:14} ;; GITHUB_CLIENT_SECRET={h:40}
github-webhook|GitHub webhook secret|webhook|github.com|GITHUB_WEBHOOK_SECRET={h:40}
github-app|GitHub App private key|privatekey|api.github.com|+GITHUB_APP_ID={d:6} ;; GITHUB_APP_PRIVATE_KEY={pem:rsa}
ghcr|GitHub Container Registry|registry|ghcr.io|+GHCR_USERNAME={l:8} ;; CR_PAT=ghp_{m:36}
gitlab|GitLab PAT|vcs|gitlab.com|GITLAB_TOKEN=glpat-{u:20}
gitlab-deploy|GitLab deploy token|vcs|gitlab.com|+GITLAB_DEPLOY_USER=gitlab+deploy-token-{d:7} ;; GITLAB_DEPLOY_TOKEN=gldt-{u:20}
gitlab-runner|GitLab runner auth token|cicd|gitlab.com|RUNNER_TOKEN=glrt-{u:20}
gitlab-trigger|GitLab pipeline trigger token|cicd|gitlab.com|CI_TRIGGER_TOKEN=glptt-{h:40}
gitlab-oauth|GitLab OAuth app secret|vcs|gitlab.com|+GITLAB_APP_ID={h:64} ;; GITLAB_APP_SECRET=gloas-{h:64}
gitlab-feed|GitLab feed token|vcs|gitlab.com|GITLAB_FEED_TOKEN=glft-{u:20}
gitlab-scim|GitLab SCIM token|vcs|gitlab.com|GITLAB_SCIM_TOKEN=glsoat-{u:20}
gitlab-agent|GitLab agent token|cicd|kas.gitlab.com|GITLAB_AGENT_TOKEN=glagent-{u:50}
gitlab-webhook|GitLab webhook token|webhook|gitlab.com|GITLAB_WEBHOOK_TOKEN={h:32}
bitbucket-app|Bitbucket app password|vcs|api.bitbucket.org|+BITBUCKET_USERNAME={user} ;; BITBUCKET_APP_PASSWORD=ATBB{m:32}{H:8}
bitbucket-access|Bitbucket access token|vcs|api.bitbucket.org|BITBUCKET_ACCESS_TOKEN=ATCTT3xFfGN0{u:180}
atlassian|Atlassian API token|saas|{l:8}.atlassian.net|+JIRA_EMAIL={email} ;; JIRA_API_TOKEN=ATATT3xFfGF0{u:180}={H:8}
gitea|Gitea|vcs|git.{domain}|GITEA_TOKEN={h:40}
codeberg|Codeberg (Forgejo)|vcs|codeberg.org|CODEBERG_TOKEN={h:40}
sourcehut|sourcehut|vcs|meta.sr.ht|SRHT_TOKEN={b:116}
gerrit|Gerrit HTTP password|vcs|review.{domain}|+GERRIT_USER={user} ;; GERRIT_HTTP_PASSWORD={b:42}
codecommit|AWS CodeCommit HTTPS|vcs|git-codecommit.eu-west-1.amazonaws.com|+CODECOMMIT_USERNAME={l:6}-at-{d:12} ;; CODECOMMIT_PASSWORD={b:44}
perforce|Perforce Helix Core|vcs|ssl:perforce.{domain}:1666|+P4USER={user} ;; P4PASSWD={pw}
sourcegraph|Sourcegraph|devtools|sourcegraph.com|SRC_ACCESS_TOKEN=sgp_{h:16}_{h:40}
circleci|CircleCI personal token|cicd|circleci.com|CIRCLE_TOKEN=CCIPAT_{m:22}_{h:40}
circleci-project|CircleCI project token|cicd|circleci.com|CIRCLECI_PROJECT_TOKEN=CCIPRJ_{m:22}_{h:40}
travis|Travis CI|cicd|api.travis-ci.com|TRAVIS_API_TOKEN={u:22}
buildkite|Buildkite API|cicd|api.buildkite.com|BUILDKITE_API_TOKEN=bkua_{h:40}
buildkite-agent|Buildkite agent|cicd|agent.buildkite.com|BUILDKITE_AGENT_TOKEN={h:50}
drone|Drone CI|cicd|drone.{domain}|DRONE_TOKEN={m:32}
jenkins|Jenkins API token|cicd|jenkins.{domain}|+JENKINS_USER={user} ;; JENKINS_API_TOKEN=11{h:32}
teamcity|TeamCity|cicd|teamcity.{domain}|TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{u:36}.{u:48}
codecov|Codecov upload token|cicd|codecov.io|CODECOV_TOKEN={uuid}
sonarcloud|SonarCloud|cicd|sonarcloud.io|SONAR_TOKEN={h:40}
sonarqube-user|SonarQube user token|cicd|sonar.{domain}|SONAR_TOKEN=squ_{h:40}
sonarqube-project|SonarQube project token|cicd|sonar.{domain}|SONAR_TOKEN=sqp_{h:40}
sonarqube-global|SonarQube analysis token|cicd|sonar.{domain}|SONAR_TOKEN=sqa_{h:40}
snyk|Snyk|security|api.snyk.io|SNYK_TOKEN={uuid}
octopus|Octopus Deploy|cicd|octopus.{domain}|OCTOPUS_API_KEY=API-{A:26}
harness|Harness|cicd|app.harness.io|HARNESS_API_KEY=pat.{u:22}.{h:24}.{m:20}
argocd|Argo CD|cicd|argocd.{domain}|ARGOCD_AUTH_TOKEN={jwt:hs}
spacelift|Spacelift|infra|{l:8}.app.spacelift.io|+SPACELIFT_API_KEY_ID={A:26} ;; SPACELIFT_API_KEY_SECRET={h:64}
appveyor|AppVeyor|cicd|ci.appveyor.com|APPVEYOR_API_TOKEN=v2.{a:20}
semaphore|Semaphore|cicd|{l:8}.semaphoreci.com|SEMAPHORE_API_TOKEN={m:20}
codemagic|Codemagic|cicd|api.codemagic.io|CM_API_TOKEN={u:43}
bitrise|Bitrise|cicd|api.bitrise.io|BITRISE_TOKEN={u:86}
expo|Expo / EAS|cicd|api.expo.dev|EXPO_TOKEN={u:40}
fastlane-match|fastlane match|cicd|github.com|MATCH_PASSWORD={pw} ;; MATCH_GIT_BASIC_AUTHORIZATION={basic}
app-store-connect|App Store Connect API|cicd|api.appstoreconnect.apple.com|+ASC_KEY_ID={A:10} ;; +ASC_ISSUER_ID={uuid} ;; ASC_PRIVATE_KEY={pem:ec8}
google-play|Google Play publisher|cicd|androidpublisher.googleapis.com|PLAY_SERVICE_ACCOUNT_JSON={gcpsa}
android-keystore|Android release keystore|cicd||+KEY_ALIAS=upload ;; KEYSTORE_PASSWORD={pw} ;; KEY_PASSWORD={pw}
cypress|Cypress Cloud|cicd|cloud.cypress.io|+CYPRESS_PROJECT_ID={a:6} ;; CYPRESS_RECORD_KEY={uuid}
percy|Percy|cicd|percy.io|PERCY_TOKEN=web_{h:64}
browserstack|BrowserStack|cicd|hub-cloud.browserstack.com|+BROWSERSTACK_USERNAME={l:6}_{m:6} ;; BROWSERSTACK_ACCESS_KEY={m:20}
saucelabs|Sauce Labs|cicd|ondemand.eu-central-1.saucelabs.com|+SAUCE_USERNAME={user} ;; SAUCE_ACCESS_KEY={uuid}
lambdatest|LambdaTest|cicd|hub.lambdatest.com|+LT_USERNAME={user} ;; LT_ACCESS_KEY={m:50}
chromatic|Chromatic|cicd|www.chromatic.com|CHROMATIC_PROJECT_TOKEN=chpt_{h:15}
netlify-build-hook|Netlify build hook|webhook|api.netlify.com|NETLIFY_BUILD_HOOK=https://api.netlify.com/build_hooks/{h:24}
vercel-deploy-hook|Vercel deploy hook|webhook|api.vercel.com|VERCEL_DEPLOY_HOOK=https://api.vercel.com/v1/integrations/deploy/prj_{m:28}/{m:10}
depot|Depot|cicd|api.depot.dev|DEPOT_TOKEN=depot_org_{h:64}
nx-cloud|Nx Cloud|cicd|cloud.nx.app|NX_CLOUD_ACCESS_TOKEN={B:64}
turborepo|Turborepo remote cache|cicd|api.vercel.com|TURBO_TOKEN={m:24}
develocity|Develocity (Gradle Enterprise)|cicd|ge.{domain}|DEVELOCITY_ACCESS_KEY=ge.{l:6}.com={a:52}
codacy|Codacy|cicd|api.codacy.com|CODACY_PROJECT_TOKEN={h:32}
coveralls|Coveralls|cicd|coveralls.io|COVERALLS_REPO_TOKEN={m:32}
deepsource|DeepSource|cicd|app.deepsource.com|DEEPSOURCE_DSN=https://{h:32}@app.deepsource.com
woodpecker|Woodpecker CI|cicd|ci.{domain}|WOODPECKER_AGENT_SECRET={h:64}
concourse|Concourse|cicd|ci.{domain}|CONCOURSE_ADD_LOCAL_USER={user}:{pw}
gocd|GoCD|cicd|gocd.{domain}|GOCD_ACCESS_TOKEN={h:32}
bamboo|Bamboo Data Center|cicd|bamboo.{domain}|BAMBOO_PAT={m:44}
codefresh|Codefresh|cicd|g.codefresh.io|CF_API_KEY={h:24}.{h:32}
buddy|Buddy.Works|cicd|api.buddy.works|BUDDY_TOKEN={m:64}
npm|npm|registry|registry.npmjs.org|NPM_TOKEN=npm_{m:36}
pypi|PyPI|registry|upload.pypi.org|PYPI_API_TOKEN=pypi-AgEIcHlwaS5vcmc{u:160}
rubygems|RubyGems|registry|rubygems.org|GEM_HOST_API_KEY=rubygems_{h:48}
nuget|NuGet|registry|api.nuget.org|NUGET_API_KEY=oy2{v:43}
dockerhub|Docker Hub PAT|registry|hub.docker.com|+DOCKERHUB_USERNAME={user} ;; DOCKERHUB_TOKEN=dckr_pat_{u:27}
dockerhub-oat|Docker Hub org access token|registry|hub.docker.com|DOCKER_ORG_TOKEN=dckr_oat_{u:32}
crates|crates.io|registry|crates.io|CARGO_REGISTRY_TOKEN=cio{m:32}
packagist|Private Packagist|registry|repo.packagist.com|PACKAGIST_TOKEN=packagist_{l:3}_{h:68}
artifactory|JFrog Artifactory API key|registry|{l:7}.jfrog.io|ARTIFACTORY_API_KEY=AKCp{m:69}
artifactory-ref|JFrog reference token|registry|{l:7}.jfrog.io|JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOjE3{m:48}
quay|Quay.io robot account|registry|quay.io|+QUAY_ROBOT_USER={l:8}+ci ;; QUAY_ROBOT_TOKEN={A:64}
cloudsmith|Cloudsmith|registry|api.cloudsmith.io|CLOUDSMITH_API_KEY={h:40}
hexpm|Hex.pm|registry|hex.pm|HEX_API_KEY={h:32}
pubdev|pub.dev publisher|registry|pub.dev|PUB_TOKEN={m:44}
clojars|Clojars|registry|clojars.org|CLOJARS_TOKEN=CLOJARS_{h:60}
sonatype|Sonatype Central Portal|registry|central.sonatype.com|+OSSRH_USERNAME={m:8} ;; OSSRH_PASSWORD={m:44}
gradle-portal|Gradle Plugin Portal|registry|plugins.gradle.org|+GRADLE_PUBLISH_KEY={m:32} ;; GRADLE_PUBLISH_SECRET={m:32}
harbor|Harbor robot account|registry|harbor.{domain}|+HARBOR_USERNAME=robot${l:8}+ci ;; HARBOR_PASSWORD={m:32}
acr|Azure Container Registry|registry|{l:8}.azurecr.io|+ACR_USERNAME={l:8} ;; ACR_PASSWORD={m:42}+ACR{m:6}
chocolatey|Chocolatey|registry|push.chocolatey.org|CHOCO_API_KEY={uuid}
anaconda|Anaconda.org|registry|api.anaconda.org|ANACONDA_API_TOKEN={l:2}-{uuid}
vsce|VS Code Marketplace|registry|marketplace.visualstudio.com|VSCE_PAT={v:52}
ovsx|Open VSX|registry|open-vsx.org|OVSX_PAT={uuid}
jetbrains-marketplace|JetBrains Marketplace|registry|plugins.jetbrains.com|JETBRAINS_MARKETPLACE_TOKEN=perm:{B:60}
gemfury|Gemfury|registry|push.fury.io|GEMFURY_TOKEN={m:20}
cocoapods|CocoaPods trunk|registry|trunk.cocoapods.org|COCOAPODS_TRUNK_TOKEN={h:32}
cachix|Cachix|registry|app.cachix.org|CACHIX_AUTH_TOKEN={jwt:hs}
nexus|Sonatype Nexus|registry|nexus.{domain}|+NEXUS_USER={user} ;; NEXUS_PASSWORD={pw}
datadog|Datadog|observability|api.datadoghq.eu|DD_API_KEY={h:32} ;; DD_APP_KEY={h:40}
newrelic|New Relic user key|observability|api.newrelic.com|NEW_RELIC_API_KEY=NRAK-{A:27}
newrelic-license|New Relic license key|observability|collector.newrelic.com|NEW_RELIC_LICENSE_KEY={h:36}NRAL
newrelic-insights|New Relic insert key|observability|insights-collector.newrelic.com|NEW_RELIC_INSERT_KEY=NRII-{u:32}
sentry|Sentry org auth token|observability|sentry.io|SENTRY_AUTH_TOKEN=sntrys_eyJ{U:100}_{u:43}
sentry-user|Sentry user auth token|observability|sentry.io|SENTRY_AUTH_TOKEN=sntryu_{h:64}
honeycomb|Honeycomb ingest key|observability|api.honeycomb.io|HONEYCOMB_API_KEY=hcaik_01{a:56}
honeycomb-classic|Honeycomb configuration key|observability|api.honeycomb.io|HONEYCOMB_API_KEY={m:22}
grafana-cloud|Grafana Cloud access policy token|observability|grafana.net|GRAFANA_CLOUD_TOKEN=glc_eyJ{U:120}
grafana-sa|Grafana service account token|observability|grafana.{domain}|GRAFANA_TOKEN=glsa_{m:32}_{h:8}
grafana-legacy|Grafana API key (legacy)|observability|grafana.{domain}|GRAFANA_API_KEY=eyJrIjoi{U:80}
splunk-hec|Splunk HEC|observability|splunk.{domain}:8088|SPLUNK_HEC_TOKEN={uuid}
elastic-apikey|Elasticsearch API key|observability|es.{domain}:9200|ES_API_KEY={B:44}
elastic-cloud|Elastic Cloud API key|observability|api.elastic-cloud.com|EC_API_KEY=essu_{U:100}
elastic-apm|Elastic APM secret token|observability|apm.{domain}|ELASTIC_APM_SECRET_TOKEN={m:24}
logzio|Logz.io|observability|listener.logz.io|LOGZIO_TOKEN={m:32}
loggly|Loggly|observability|logs-01.loggly.com|LOGGLY_TOKEN={uuid}
papertrail|Papertrail|observability|papertrailapp.com|PAPERTRAIL_API_TOKEN={m:20}
sumologic|Sumo Logic|observability|api.sumologic.com|+SUMO_ACCESS_ID=su{m:12} ;; SUMO_ACCESS_KEY={m:64}
dynatrace|Dynatrace|observability|{a:8}.live.dynatrace.com|DT_API_TOKEN=dt0c01.{A:24}.{A:64}
rollbar|Rollbar server token|observability|api.rollbar.com|ROLLBAR_ACCESS_TOKEN={h:32}
lightstep|Lightstep (ServiceNow Cloud Observability)|observability|ingest.lightstep.com|LIGHTSTEP_ACCESS_TOKEN={m:84}
axiom|Axiom|observability|api.axiom.co|AXIOM_TOKEN=xaat-{uuid}
betterstack|Better Stack Logs|observability|in.logs.betterstack.com|LOGTAIL_SOURCE_TOKEN={m:24}
coralogix|Coralogix|observability|ingress.eu2.coralogix.com|CORALOGIX_PRIVATE_KEY=cxtp_{m:30}
mezmo|Mezmo|observability|logs.mezmo.com|MEZMO_INGESTION_KEY={h:32}
instana|Instana|observability|{l:6}.instana.io|INSTANA_AGENT_KEY={u:22}
appsignal|AppSignal|observability|push.appsignal.com|APPSIGNAL_PUSH_API_KEY={uuid}
raygun|Raygun|observability|api.raygun.com|RAYGUN_PAT={m:40}
airbrake|Airbrake|observability|api.airbrake.io|+AIRBRAKE_PROJECT_ID={d:6} ;; AIRBRAKE_PROJECT_KEY={h:32}
scout|Scout APM|observability|scoutapm.com|SCOUT_KEY={m:20}
checkly|Checkly|observability|api.checklyhq.com|+CHECKLY_ACCOUNT_ID={uuid} ;; CHECKLY_API_KEY=cu_{h:32}
uptimerobot|UptimeRobot|observability|api.uptimerobot.com|UPTIMEROBOT_API_KEY=u{d:7}-{h:24}
statuspage|Atlassian Statuspage|observability|api.statuspage.io|STATUSPAGE_API_KEY={uuid}
pingdom|Pingdom|observability|api.pingdom.com|PINGDOM_API_TOKEN={u:72}
cronitor|Cronitor|observability|cronitor.io|CRONITOR_API_KEY={h:32}
healthchecks|Healthchecks.io API|observability|healthchecks.io|HEALTHCHECKS_API_KEY={u:32}
victorops|Splunk On-Call|observability|api.victorops.com|+VICTOROPS_API_ID={h:8} ;; VICTOROPS_API_KEY={h:32}
incidentio|incident.io|observability|api.incident.io|INCIDENT_IO_API_KEY=inc_{h:64}
rootly|Rootly|observability|api.rootly.com|ROOTLY_API_TOKEN=rootly_{h:64}
firehydrant|FireHydrant|observability|api.firehydrant.io|FIREHYDRANT_API_KEY=fhb-{h:32}
posthog|PostHog personal API key|analytics|us.posthog.com|POSTHOG_PERSONAL_API_KEY=phx_{m:43}
mixpanel|Mixpanel service account|analytics|mixpanel.com|+MIXPANEL_SA_USERNAME={l:8}.{h:6}.mp-service-account ;; MIXPANEL_SA_SECRET={m:32}
amplitude|Amplitude|analytics|amplitude.com|+AMPLITUDE_API_KEY={h:32} ;; AMPLITUDE_SECRET_KEY={h:32}
segment|Segment management token|analytics|api.segmentapis.com|SEGMENT_MANAGEMENT_TOKEN=sgp_{m:64}
heap|Heap server-side|analytics|heapanalytics.com|HEAP_API_KEY={h:32}
logrocket|LogRocket|analytics|api.logrocket.com|LOGROCKET_API_KEY={l:6}:{l:8}:{m:20}
fullstory|FullStory|analytics|api.fullstory.com|FULLSTORY_API_KEY=na1.{B:60}
launchdarkly-api|LaunchDarkly API token|flags|app.launchdarkly.com|LD_API_TOKEN=api-{uuid}
launchdarkly-sdk|LaunchDarkly server SDK key|flags|sdk.launchdarkly.com|LD_SDK_KEY=sdk-{uuid}
split|Split.io server key|flags|sdk.split.io|SPLIT_API_KEY={a:36}
statsig|Statsig server secret|flags|api.statsig.com|STATSIG_SERVER_SECRET=secret-{m:43}
flagsmith|Flagsmith server-side key|flags|edge.api.flagsmith.com|FLAGSMITH_SERVER_KEY=ser.{m:22}
configcat|ConfigCat management API|flags|api.configcat.com|+CONFIGCAT_API_USER={m:24} ;; CONFIGCAT_API_PASS={m:43}
growthbook|GrowthBook secret key|flags|api.growthbook.io|GROWTHBOOK_SECRET_KEY=secret_{a:14}_{m:24}
unleash|Unleash admin token|flags|unleash.{domain}|UNLEASH_API_TOKEN=*:production.{h:56}
optimizely|Optimizely PAT|flags|api.optimizely.com|OPTIMIZELY_PAT=2:{u:60}
devcycle|DevCycle server SDK key|flags|bucketing-api.devcycle.com|DEVCYCLE_SERVER_SDK_KEY=dvc_server_{uuid}_hash
postgres|PostgreSQL|database|{host:db}|DATABASE_URL=postgres://{user}:{pwu}@{host:db}:5432/{db}
postgres-kv|PostgreSQL (libpq keyword DSN)|database|{host:db}|PG_DSN=host={host:db} port=5432 dbname={db} user={user} password={pwu} sslmode=require
mysql|MySQL|database|{host:db}|DATABASE_URL=mysql://{user}:{pwu}@{host:db}:3306/{db}
mariadb|MariaDB|database|{host:db}|MARIADB_URL=mariadb://{user}:{pwu}@{host:db}:3306/{db}
mongodb-atlas|MongoDB Atlas|database|cluster0.{a:5}.mongodb.net|MONGODB_URI=mongodb+srv://{user}:{pwu}@cluster0.{a:5}.mongodb.net/{db}?retryWrites=true&w=majority
mongodb|MongoDB|database|{host:db}|MONGO_URL=mongodb://{user}:{pwu}@{host:db}:27017/{db}?authSource=admin
redis|Redis|database|{host:db}|REDIS_URL=redis://default:{pwu}@{host:db}:6379/0
redis-tls|Redis over TLS|database|{host:db}|REDIS_URL=rediss://:{pwu}@{host:db}:6380
mssql|SQL Server|database|{host:db}|SQLSERVER_CONNECTION=Server=tcp:{host:db},1433;Database={db};User Id={user};Password={pwu};Encrypt=True;
azure-sql|Azure SQL Database|database|{l:8}.database.windows.net|ConnectionStrings__Default=Server=tcp:{l:8}.database.windows.net,1433;Initial Catalog={db};User ID={user};Password={pwu};Encrypt=True;
oracle|Oracle Database|database|{host:db}|ORACLE_DSN={user}/{pwu}@{host:db}:1521/ORCLPDB1
jdbc-pg|JDBC PostgreSQL URL|database|{host:db}|JDBC_DATABASE_URL=jdbc:postgresql://{host:db}:5432/{db}?user={user}&password={pwu}&sslmode=require
jdbc-mysql|JDBC MySQL URL|database|{host:db}|JDBC_URL=jdbc:mysql://{host:db}:3306/{db}?user={user}&password={pwu}&useSSL=true
cockroach|CockroachDB Cloud|database|{l:6}-{d:4}.{l:4}.cockroachlabs.cloud|COCKROACH_URL=postgresql://{user}:{pwu}@{l:6}-{d:4}.{l:4}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full
planetscale|PlanetScale password|database|aws.connect.psdb.cloud|+DATABASE_USERNAME={a:12} ;; DATABASE_PASSWORD=pscale_pw_{u:43} ;; +DATABASE_HOST=aws.connect.psdb.cloud
planetscale-token|PlanetScale service token|database|api.planetscale.com|+PLANETSCALE_SERVICE_TOKEN_ID={a:12} ;; PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{u:43}
neon|Neon Postgres|database|ep-{l:5}-{l:5}-{a:8}.us-east-2.aws.neon.tech|DATABASE_URL=postgresql://{user}:npg_{m:12}@ep-{l:5}-{l:5}-{a:8}.us-east-2.aws.neon.tech/{db}?sslmode=require
neon-api|Neon API|database|console.neon.tech|NEON_API_KEY=napi_{a:64}
snowflake|Snowflake|database|{a:7}-{a:7}.snowflakecomputing.com|+SNOWFLAKE_ACCOUNT={a:7}-{a:7} ;; +SNOWFLAKE_USER={user} ;; SNOWFLAKE_PASSWORD={pw}
snowflake-keypair|Snowflake key-pair auth|privatekey|{a:7}-{a:7}.snowflakecomputing.com|+SNOWFLAKE_USER={user} ;; SNOWFLAKE_PRIVATE_KEY={pem:pkcs8}
databricks|Databricks|data|dbc-{h:8}-{h:4}.cloud.databricks.com|+DATABRICKS_HOST=https://dbc-{h:8}-{h:4}.cloud.databricks.com ;; DATABRICKS_TOKEN=dapi{h:32}
clickhouse|ClickHouse Cloud|database|{a:10}.eu-west-1.aws.clickhouse.cloud:8443|CLICKHOUSE_URL=https://{user}:{pwu}@{a:10}.eu-west-1.aws.clickhouse.cloud:8443
cassandra|Apache Cassandra|database|{host:db}|+CASSANDRA_USERNAME={user} ;; CASSANDRA_PASSWORD={pw}
astra|DataStax Astra DB|database|{uuid}-us-east1.apps.astra.datastax.com|ASTRA_DB_APPLICATION_TOKEN=AstraCS:{m:24}:{h:64}
elasticsearch|Elasticsearch basic auth|database|{host:db}:9200|ELASTICSEARCH_URL=https://elastic:{pwu}@{host:db}:9200
opensearch|Amazon OpenSearch|database|search-{l:8}-{a:26}.eu-west-1.es.amazonaws.com|OPENSEARCH_URL=https://admin:{pwu}@search-{l:8}-{a:26}.eu-west-1.es.amazonaws.com
influxdb|InfluxDB|database|influx.{domain}:8086|INFLUX_TOKEN={b:86}==
fauna|Fauna|database|db.fauna.com|FAUNA_SECRET=fn{u:38}
upstash-redis|Upstash Redis REST|database|{l:6}-{l:6}-{d:5}.upstash.io|+UPSTASH_REDIS_REST_URL=https://{l:6}-{l:6}-{d:5}.upstash.io ;; UPSTASH_REDIS_REST_TOKEN=A{u:60}=
upstash-qstash|Upstash QStash|messaging|qstash.upstash.io|QSTASH_TOKEN=eyJVc2VySUQiOi{U:80}= ;; QSTASH_CURRENT_SIGNING_KEY=sig_{m:28}
turso|Turso|database|{l:6}-{l:6}.turso.io|+TURSO_DATABASE_URL=libsql://{l:6}-{l:6}.turso.io ;; TURSO_AUTH_TOKEN={jwt:eddsa}
xata|Xata|database|{l:6}.eu-central-1.xata.sh|XATA_API_KEY=xau_{m:36}
motherduck|MotherDuck|database|api.motherduck.com|MOTHERDUCK_TOKEN={jwt:hs}
neo4j|Neo4j Aura|database|{h:8}.databases.neo4j.io|+NEO4J_URI=neo4j+s://{h:8}.databases.neo4j.io ;; +NEO4J_USERNAME=neo4j ;; NEO4J_PASSWORD={u:43}
couchdb|CouchDB|database|{host:db}:5984|COUCHDB_URL=http://admin:{pwu}@{host:db}:5984
rabbitmq|RabbitMQ|messaging|{host:mq}|AMQP_URL=amqps://{user}:{pwu}@{host:mq}:5671/{l:5}
cloudamqp|CloudAMQP|messaging|{l:5}.rmq.cloudamqp.com|CLOUDAMQP_URL=amqps://{a:8}:{u:32}@{l:5}.rmq.cloudamqp.com/{a:8}
confluent|Confluent Cloud Kafka|messaging|pkc-{a:5}.eu-west-1.aws.confluent.cloud:9092|+KAFKA_API_KEY={A:16} ;; KAFKA_API_SECRET={b:64}
kafka-scram|Kafka SASL/SCRAM|messaging|{host:mq}:9096|KAFKA_SASL_JAAS_CONFIG=org.apache.kafka.common.security.scram.ScramLoginModule required username="{user}" password="{pwu}";
aiven|Aiven for PostgreSQL|database|pg-{a:8}-{l:6}.aivencloud.com|AIVEN_PG_URI=postgres://avnadmin:AVNS_{m:19}@pg-{a:8}-{l:6}.aivencloud.com:1{d:4}/defaultdb?sslmode=require
timescale|Timescale Cloud|database|{a:10}.{a:10}.tsdb.cloud.timescale.com|TIMESCALE_SERVICE_URL=postgres://tsdbadmin:{pwu}@{a:10}.{a:10}.tsdb.cloud.timescale.com:3{d:4}/tsdb?sslmode=require
singlestore|SingleStore|database|svc-{uuid}-dml.aws-virginia-5.svc.singlestore.com|SINGLESTORE_URL=singlestore://admin:{pwu}@svc-{uuid}-dml.aws-virginia-5.svc.singlestore.com:3306/{db}
memcachier|MemCachier|database|mc{d:1}.dev.eu.ec2.memcachier.com:11211|+MEMCACHIER_SERVERS=mc{d:1}.dev.eu.ec2.memcachier.com:11211 ;; +MEMCACHIER_USERNAME={H:6} ;; MEMCACHIER_PASSWORD={H:32}
redis-cloud|Redis Cloud|database|redis-{d:5}.c{d:3}.eu-west-1-2.ec2.redns.redis-cloud.com|REDIS_URL=redis://default:{m:32}@redis-{d:5}.c{d:3}.eu-west-1-2.ec2.redns.redis-cloud.com:{d:5}
firebase-db-secret|Firebase Realtime DB legacy secret|database|{l:8}-default-rtdb.firebaseio.com|FIREBASE_DATABASE_SECRET={m:40}
firebase-fcm|Firebase Cloud Messaging legacy server key|messaging|fcm.googleapis.com|FCM_SERVER_KEY=AAAA{u:7}:APA91b{u:134}
firebase-admin|Firebase Admin SDK|privatekey|firebase.googleapis.com|FIREBASE_SERVICE_ACCOUNT={gcpsa}
arangodb|ArangoDB|database|arango.{domain}:8529|+ARANGO_USERNAME=root ;; ARANGO_ROOT_PASSWORD={pw}
atlas-admin|MongoDB Atlas Admin API|database|cloud.mongodb.com|+ATLAS_PUBLIC_KEY={l:8} ;; ATLAS_PRIVATE_KEY={uuid}
supabase|Supabase service role|database|{l:20}.supabase.co|+SUPABASE_URL=https://{l:20}.supabase.co ;; SUPABASE_SERVICE_ROLE_KEY={jwt:supabase-service}
supabase-mgmt|Supabase management token|database|api.supabase.com|SUPABASE_ACCESS_TOKEN=sbp_{h:40}
supabase-db|Supabase Postgres pooler|database|aws-0-eu-central-1.pooler.supabase.com|SUPABASE_DB_URL=postgresql://postgres.{l:20}:{pwu}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres
prisma-accelerate|Prisma Accelerate|database|accelerate.prisma-data.net|DATABASE_URL=prisma://accelerate.prisma-data.net/?api_key={jwt:hs}
hasura|Hasura admin secret|database|{l:8}.hasura.app|HASURA_GRAPHQL_ADMIN_SECRET={m:64}
convex|Convex deploy key|database|{l:6}-{l:6}-{d:3}.convex.cloud|CONVEX_DEPLOY_KEY=prod:{l:6}-{l:6}-{d:3}|{u:80}
redshift|Amazon Redshift|database|{l:8}.{a:12}.eu-west-1.redshift.amazonaws.com|REDSHIFT_URL=redshift://{user}:{pwu}@{l:8}.{a:12}.eu-west-1.redshift.amazonaws.com:5439/{db}
db2|IBM Db2|database|{host:db}|DB2_DSN=DATABASE={db};HOSTNAME={host:db};PORT=50000;PROTOCOL=TCPIP;UID={user};PWD={pwu};
ldap|LDAP bind account|identity|ldap.{domain}|+LDAP_BIND_DN=cn={l:8},ou=services,dc={l:6},dc=com ;; LDAP_BIND_PASSWORD={pw}
okta|Okta API token|identity|{l:8}.okta.com|OKTA_API_TOKEN=00{u:40}
auth0|Auth0 application|identity|{l:8}.eu.auth0.com|+AUTH0_DOMAIN={l:8}.eu.auth0.com ;; +AUTH0_CLIENT_ID={m:32} ;; AUTH0_CLIENT_SECRET={u:64}
auth0-mgmt|Auth0 Management API token|identity|{l:8}.eu.auth0.com|AUTH0_MGMT_TOKEN={jwt:auth0}
keycloak|Keycloak confidential client|identity|sso.{domain}|+KEYCLOAK_CLIENT_ID={l:8}-backend ;; KEYCLOAK_CLIENT_SECRET={m:32}
onelogin|OneLogin|identity|api.us.onelogin.com|+ONELOGIN_CLIENT_ID={h:64} ;; ONELOGIN_CLIENT_SECRET={h:64}
pingone|PingOne|identity|auth.pingone.eu|+PINGONE_CLIENT_ID={uuid} ;; PINGONE_CLIENT_SECRET={u:64}
duo|Duo Security|identity|api-{h:8}.duosecurity.com|+DUO_IKEY=DI{A:18} ;; DUO_SKEY={m:40}
clerk|Clerk secret key|identity|api.clerk.com|CLERK_SECRET_KEY=sk_live_{m:42}
stytch|Stytch|identity|api.stytch.com|+STYTCH_PROJECT_ID=project-live-{uuid} ;; STYTCH_SECRET=secret-live-{u:36}=
workos|WorkOS|identity|api.workos.com|WORKOS_API_KEY=sk_{m:40}
magic|Magic secret key|identity|api.magic.link|MAGIC_SECRET_KEY=sk_live_{H:16}
fusionauth|FusionAuth|identity|auth.{domain}|FUSIONAUTH_API_KEY={u:64}
descope|Descope management key|identity|api.descope.com|DESCOPE_MANAGEMENT_KEY=K{A:30}:{U:60}
jumpcloud|JumpCloud|identity|console.jumpcloud.com|JC_API_KEY={h:40}
cognito|Amazon Cognito app client|identity|cognito-idp.eu-west-1.amazonaws.com|+COGNITO_CLIENT_ID={a:26} ;; COGNITO_CLIENT_SECRET={a:51}
frontegg|Frontegg|identity|api.frontegg.com|+FRONTEGG_CLIENT_ID={uuid} ;; FRONTEGG_API_KEY={uuid}
supertokens|SuperTokens core|identity|auth.{domain}|SUPERTOKENS_API_KEY={m:40}
kinde|Kinde|identity|{l:8}.kinde.com|+KINDE_CLIENT_ID={h:32} ;; KINDE_CLIENT_SECRET={m:48}
zitadel|ZITADEL|identity|{l:8}.zitadel.cloud|ZITADEL_PAT={u:70}
authentik|authentik|identity|auth.{domain}|AUTHENTIK_TOKEN={m:60}
ory|Ory Network|identity|{l:8}.projects.oryapis.com|ORY_API_KEY=ory_pat_{m:32}
nextauth|NextAuth.js secret|identity||NEXTAUTH_SECRET={B:32}
django-secret|Django SECRET_KEY|identity||DJANGO_SECRET_KEY={djkey}
rails-master|Rails master key|identity||RAILS_MASTER_KEY={h:32}
laravel|Laravel APP_KEY|identity||APP_KEY=base64:{B:32}
flask|Flask SECRET_KEY|identity||FLASK_SECRET_KEY={h:64}
jwt-secret|JWT HMAC signing secret|identity||JWT_SECRET={m:48}
session-secret|express-session secret|identity||SESSION_SECRET={u:40}
phoenix|Phoenix SECRET_KEY_BASE|identity||SECRET_KEY_BASE={b:64}
symfony|Symfony APP_SECRET|identity||APP_SECRET={h:32}
persona|Persona (KYC)|identity|withpersona.com|PERSONA_API_KEY=persona_production_{uuid}
onfido|Onfido|identity|api.eu.onfido.com|ONFIDO_API_TOKEN=api_live.{u:11}.{u:32}
veriff|Veriff|identity|stationapi.veriff.com|+VERIFF_API_KEY={uuid} ;; VERIFF_SHARED_SECRET={uuid}
sumsub|Sumsub|identity|api.sumsub.com|SUMSUB_APP_TOKEN=prd:{m:24}.{m:32} ;; SUMSUB_SECRET_KEY={m:32}
ghost-admin|Ghost Admin API|saas|{l:8}.ghost.io|GHOST_ADMIN_API_KEY={h:24}:{h:64}
wordpress-app|WordPress application password|saas|blog.{domain}|+WP_USER={user} ;; WP_APP_PASSWORD={m:4} {m:4} {m:4} {m:4} {m:4} {m:4}
tailscale|Tailscale auth key|network|login.tailscale.com|TS_AUTHKEY=tskey-auth-k{m:10}CNTRL-{m:33}
tailscale-api|Tailscale API key|network|api.tailscale.com|TS_API_KEY=tskey-api-k{m:10}CNTRL-{m:33}
tailscale-oauth|Tailscale OAuth client|network|api.tailscale.com|+TS_OAUTH_CLIENT_ID=k{m:10}CNTRL ;; TS_OAUTH_SECRET=tskey-client-k{m:10}CNTRL-{m:33}
zerotier|ZeroTier Central|network|api.zerotier.com|ZEROTIER_CENTRAL_TOKEN={m:32}
ngrok|ngrok agent authtoken|network|connect.ngrok-agent.com|NGROK_AUTHTOKEN={n:1}{m:26}_{m:21}
ngrok-api|ngrok API key|network|api.ngrok.com|NGROK_API_KEY={n:1}{m:26}_{m:20}
twingate|Twingate|network|{l:8}.twingate.com|TWINGATE_API_TOKEN={u:64}
cloudflare-access|Cloudflare Access service token|network|{l:8}.cloudflareaccess.com|+CF_ACCESS_CLIENT_ID={h:32}.access ;; CF_ACCESS_CLIENT_SECRET={h:64}
teleport|Teleport join token|network|teleport.{domain}:443|TELEPORT_JOIN_TOKEN={h:32}
nomad|Nomad ACL token|infra|nomad.{domain}:4646|+NOMAD_ADDR=https://nomad.{l:6}.internal:4646 ;; NOMAD_TOKEN={uuid}
consul|Consul ACL token|infra|consul.{domain}:8501|CONSUL_HTTP_TOKEN={uuid}
rancher|Rancher API key|infra|rancher.{domain}|RANCHER_TOKEN=token-{a:5}:{a:54}
portainer|Portainer|infra|portainer.{domain}:9443|PORTAINER_API_KEY=ptr_{b:43}=
k8s-sa|Kubernetes service account token|infra|k8s.{domain}:6443|KUBE_TOKEN={jwt:k8s}
kubeconfig|kubeconfig client key|infra|k8s.{domain}:6443|KUBE_CLIENT_KEY_DATA={b64pem:ec}
docker-swarm|Docker Swarm join token|infra|{host:app}:2377|SWARM_JOIN_TOKEN=SWMTKN-1-{v:50}-{a:25}
k3s|k3s node token|infra|{host:app}:6443|K3S_TOKEN=K10{h:64}::server:{h:32}
kubeadm|kubeadm bootstrap token|infra|{host:app}:6443|KUBEADM_TOKEN={a:6}.{a:16}
proxmox|Proxmox VE API token|infra|pve.{domain}:8006|+PVE_TOKEN_ID={l:6}@pam!{l:6} ;; PVE_TOKEN_SECRET={uuid}
vsphere|VMware vCenter|infra|vcenter.{domain}|+VSPHERE_USER=administrator@vsphere.local ;; VSPHERE_PASSWORD={pw}
truenas|TrueNAS API key|infra|nas.{domain}|TRUENAS_API_KEY={n:1}-{m:64}
ansible-vault-pass|Ansible Vault password|infra||ANSIBLE_VAULT_PASSWORD={pw}
salt|Salt API|infra|salt.{domain}:8000|+SALTAPI_USER={user} ;; SALTAPI_PASSWORD={pw}
rundeck|Rundeck|infra|rundeck.{domain}|RD_TOKEN={m:32}
awx|Ansible AWX|infra|awx.{domain}|TOWER_OAUTH_TOKEN={m:30}
chef|Chef Infra client key|privatekey|chef.{domain}|+CHEF_NODE_NAME={l:8}-{d:2} ;; CHEF_CLIENT_KEY={pem:rsa}
unifi|UniFi Network controller|network|unifi.{domain}:8443|+UNIFI_USERNAME={user} ;; UNIFI_PASSWORD={pw}
meraki|Cisco Meraki Dashboard|network|api.meraki.com|MERAKI_DASHBOARD_API_KEY={h:40}
fortigate|FortiGate REST API|network|fw.{domain}|FORTIGATE_API_TOKEN={m:30}
panos|Palo Alto PAN-OS|network|fw.{domain}|PANOS_API_KEY=LUFRPT{B:90}
bigip|F5 BIG-IP|network|lb.{domain}|+BIGIP_USER=admin ;; BIGIP_PASSWORD={pw}
aruba|Aruba Central|network|apigw-eucentral3.central.arubanetworks.com|+ARUBA_CLIENT_ID={m:32} ;; ARUBA_CLIENT_SECRET={m:32}
routeros|MikroTik RouterOS API|network|{priv}|+ROUTEROS_USER={user} ;; ROUTEROS_PASSWORD={pw}
pfsense|pfSense REST API|network|fw.{domain}|+PFSENSE_CLIENT_ID={h:32} ;; PFSENSE_CLIENT_TOKEN={h:40}
opnsense|OPNsense API|network|fw.{domain}|+OPNSENSE_KEY={b:80} ;; OPNSENSE_SECRET={b:80}
wireguard|WireGuard interface|network||WG_PRIVATE_KEY={B:32}
ipsec|strongSwan IPsec PSK|network||IPSEC_PSK={pw}
snmpv3|SNMPv3 credentials|network||+SNMP_USER={l:8} ;; SNMP_AUTH_PASS={pw} ;; SNMP_PRIV_PASS={pw}
radius|RADIUS shared secret|network||RADIUS_SECRET={m:24}
zscaler|Zscaler Internet Access|network|zsapi.zscaler.net|+ZIA_USERNAME={email} ;; ZIA_PASSWORD={pw} ;; ZIA_API_KEY={m:12}
netbox|NetBox|network|netbox.{domain}|NETBOX_TOKEN={h:40}
nautobot|Nautobot|network|nautobot.{domain}|NAUTOBOT_TOKEN={h:40}
infoblox|Infoblox NIOS|network|gm.{domain}|+INFOBLOX_USERNAME={user} ;; INFOBLOX_PASSWORD={pw}
ns1|NS1|network|api.nsone.net|NS1_APIKEY={m:20}
dnsimple|DNSimple|network|api.dnsimple.com|DNSIMPLE_TOKEN=dnsimple_a_{m:32}
namecheap|Namecheap API|network|api.namecheap.com|+NAMECHEAP_API_USER={user} ;; NAMECHEAP_API_KEY={h:32}
godaddy|GoDaddy API|network|api.godaddy.com|+GODADDY_API_KEY={m:34}_{m:22} ;; GODADDY_API_SECRET={m:22}
gandi|Gandi LiveDNS|network|api.gandi.net|GANDI_PAT={h:40}
porkbun|Porkbun|network|api.porkbun.com|+PORKBUN_API_KEY=pk1_{h:64} ;; PORKBUN_SECRET_API_KEY=sk1_{h:64}
desec|deSEC|network|desec.io|DESEC_TOKEN={m:28}
duckdns|Duck DNS|network|www.duckdns.org|+DUCKDNS_DOMAIN={l:8} ;; DUCKDNS_TOKEN={uuid}
noip|No-IP dynamic DNS|network|dynupdate.no-ip.com|+NOIP_USERNAME={email} ;; NOIP_PASSWORD={pw}
he-ddns|Hurricane Electric DDNS|network|dyn.dns.he.net|HE_DDNS_KEY={m:16}
acme-eab|ACME external account binding|network|acme.zerossl.com|+EAB_KID={u:22} ;; EAB_HMAC_KEY={u:86}
zerossl|ZeroSSL API|network|api.zerossl.com|ZEROSSL_API_KEY={h:32}
openvpn|OpenVPN tls-auth static key|network||OVPN_TLS_AUTH_KEY={pem:ovpn}
binance|Binance|crypto|api.binance.com|+BINANCE_API_KEY={m:64} ;; BINANCE_API_SECRET={m:64}
coinbase-cdp|Coinbase Developer Platform|crypto|api.coinbase.com|+COINBASE_API_KEY_NAME=organizations/{uuid}/apiKeys/{uuid} ;; COINBASE_API_PRIVATE_KEY={pem:ec}
kraken|Kraken|crypto|api.kraken.com|+KRAKEN_API_KEY={b:56} ;; KRAKEN_PRIVATE_KEY={b:86}==
bitfinex|Bitfinex|crypto|api.bitfinex.com|+BFX_API_KEY={m:43} ;; BFX_API_SECRET={m:43}
bybit|Bybit|crypto|api.bybit.com|+BYBIT_API_KEY={m:18} ;; BYBIT_API_SECRET={m:36}
okx|OKX|crypto|www.okx.com|+OKX_API_KEY={uuid} ;; OKX_SECRET_KEY={H:32} ;; OKX_PASSPHRASE={pw}
kucoin|KuCoin|crypto|api.kucoin.com|+KUCOIN_API_KEY={h:24} ;; KUCOIN_API_SECRET={uuid} ;; KUCOIN_API_PASSPHRASE={pw}
gemini-exchange|Gemini exchange|crypto|api.gemini.com|+GEMINI_API_KEY=account-{m:20} ;; GEMINI_API_SECRET={m:28}
htx|HTX (Huobi)|crypto|api.huobi.pro|+HTX_ACCESS_KEY={h:8}-{h:8}-{h:8}-{h:5} ;; HTX_SECRET_KEY={h:8}-{h:8}-{h:8}-{h:5}
gateio|Gate.io|crypto|api.gateio.ws|+GATE_API_KEY={h:32} ;; GATE_API_SECRET={h:64}
bitstamp|Bitstamp|crypto|www.bitstamp.net|+BITSTAMP_API_KEY={m:32} ;; BITSTAMP_API_SECRET={m:32}
cryptocom|Crypto.com Exchange|crypto|api.crypto.com|+CDC_API_KEY={m:22} ;; CDC_API_SECRET={m:22}
bitget|Bitget|crypto|api.bitget.com|+BITGET_API_KEY=bg_{h:32} ;; BITGET_SECRET_KEY={h:64} ;; BITGET_PASSPHRASE={pw}
mexc|MEXC|crypto|api.mexc.com|+MEXC_API_KEY=mx0v{m:16} ;; MEXC_SECRET_KEY={h:32}
deribit|Deribit|crypto|www.deribit.com|+DERIBIT_CLIENT_ID={m:8} ;; DERIBIT_CLIENT_SECRET={u:43}
bitmex|BitMEX|crypto|www.bitmex.com|+BITMEX_API_KEY={u:24} ;; BITMEX_API_SECRET={u:48}
infura|Infura|crypto|mainnet.infura.io|+INFURA_API_KEY={h:32} ;; INFURA_API_KEY_SECRET={h:32}
alchemy|Alchemy RPC|crypto|eth-mainnet.g.alchemy.com|ALCHEMY_RPC_URL=https://eth-mainnet.g.alchemy.com/v2/{u:32}
etherscan|Etherscan|crypto|api.etherscan.io|ETHERSCAN_API_KEY={A:34}
moralis|Moralis|crypto|deep-index.moralis.io|MORALIS_API_KEY={jwt:hs}
quicknode|QuickNode endpoint|crypto|quiknode.pro|QUICKNODE_URL=https://{l:6}-{l:6}-{l:6}.quiknode.pro/{h:40}/
eth-privkey|Ethereum deployer key|crypto||DEPLOYER_PRIVATE_KEY=0x{h:64}
wallet-mnemonic|HD wallet recovery phrase|crypto||MNEMONIC={mn:12}
wallet-mnemonic24|HD wallet 24-word seed|crypto||WALLET_SEED_PHRASE={mn:24}
solana-keypair|Solana keypair|crypto||SOLANA_PRIVATE_KEY={s:88}
btc-wif|Bitcoin WIF key|crypto||BTC_WIF=K{s:51}
nostr|Nostr secret key|crypto||NOSTR_NSEC=nsec1{q:58}
bitcoind-rpc|bitcoind RPC|crypto|{priv}:8332|+BITCOIN_RPC_USER={user} ;; BITCOIN_RPC_PASSWORD={m:44}
blockcypher|BlockCypher|crypto|api.blockcypher.com|BLOCKCYPHER_TOKEN={h:32}
coinmarketcap|CoinMarketCap Pro|crypto|pro-api.coinmarketcap.com|CMC_PRO_API_KEY={uuid}
coingecko|CoinGecko Pro|crypto|pro-api.coingecko.com|COINGECKO_API_KEY=CG-{m:24}
fireblocks|Fireblocks|crypto|api.fireblocks.io|+FIREBLOCKS_API_KEY={uuid} ;; FIREBLOCKS_SECRET_KEY={pem:rsa}
circle|Circle|crypto|api.circle.com|CIRCLE_API_KEY=LIVE_API_KEY:{h:32}:{h:32}
ssh-rsa-key|RSA private key (PEM)|privatekey||SSH_PRIVATE_KEY={pem:rsa}
pkcs8-key|PKCS#8 private key|privatekey||TLS_PRIVATE_KEY={pem:pkcs8}
ec-key|EC private key|privatekey||EC_PRIVATE_KEY={pem:ec}
openssh-key|OpenSSH private key|privatekey||DEPLOY_KEY={pem:openssh}
dsa-key|DSA private key|privatekey||LEGACY_DSA_KEY={pem:dsa}
pgp-key|PGP private key|privatekey||GPG_PRIVATE_KEY={pem:pgp}
putty-key|PuTTY private key|privatekey||PPK_FILE={pem:putty}
jwk-key|JWK private signing key|privatekey||JWT_PRIVATE_JWK={jwk}
age-key|age identity|privatekey||SOPS_AGE_KEY=AGE-SECRET-KEY-1{Q:58}
acme-account|ACME account key|privatekey|acme-v02.api.letsencrypt.org|ACME_ACCOUNT_KEY={pem:ec}
apns|Apple APNs auth key|privatekey|api.push.apple.com|+APNS_KEY_ID={A:10} ;; +APNS_TEAM_ID={A:10} ;; APNS_AUTH_KEY={pem:ec8}
saml-sp|SAML SP signing key|privatekey||SAML_SP_PRIVATE_KEY={pem:pkcs8}
dkim|DKIM signing key|privatekey||DKIM_PRIVATE_KEY={pem:rsa}
aws-iot|AWS IoT Core device|iot|{a:14}-ats.iot.eu-west-1.amazonaws.com|+AWS_IOT_ENDPOINT={a:14}-ats.iot.eu-west-1.amazonaws.com ;; AWS_IOT_PRIVATE_KEY={pem:rsa}
django-session|Django session cookie|session|app.{domain}|sessionid={a:32}
rails-session|Rails session cookie|session|app.{domain}|_app_session={B:120}--{h:40}
php-session|PHP session cookie|session|portal.{domain}|PHPSESSID={a:26}
express-session|Express session cookie|session|app.{domain}|connect.sid=s%3A{u:32}.{u:43}
laravel-session|Laravel session cookie|session|app.{domain}|laravel_session=eyJpdiI6Ik{m:180}
aspnet-session|ASP.NET session cookie|session|intranet.{domain}|ASP.NET_SessionId={a:24}
aspnet-auth|ASP.NET Core auth cookie|session|admin.{domain}|.AspNetCore.Cookies=CfDJ8{u:300}
nextauth-session|NextAuth session cookie|session|app.{domain}|__Secure-next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..{u:16}.{u:200}.{u:22}
flask-session|Flask session cookie|session|app.{domain}|session=eyJ{U:60}.{U:6}.{U:27}
jsessionid|Java servlet session|session|erp.{domain}|JSESSIONID={H:32}
github-session|GitHub web session cookie|session|github.com|user_session={u:48}
gitlab-session|GitLab session cookie|session|gitlab.{domain}|_gitlab_session={h:32}
slack-cookie|Slack d cookie|session|app.slack.com|d=xoxd-{u:150}
twitter-session|X auth_token cookie|session|x.com|auth_token={h:40}
reddit-session|Reddit session cookie|session|www.reddit.com|reddit_session={jwt:rs}
instagram-session|Instagram session cookie|session|www.instagram.com|sessionid={d:11}%3A{m:14}%3A{d:2}%3A{u:60}
wordpress-auth|WordPress logged-in cookie|session|blog.{domain}|wordpress_logged_in_{h:32}={l:6}%7C{d:10}%7C{m:43}%7C{h:64}
jupyter-token|Jupyter server token|session|{priv}:8888|JUPYTER_TOKEN={h:48}
grafana-session|Grafana session cookie|session|grafana.{domain}|grafana_session={h:32}
keycloak-identity|Keycloak identity cookie|session|sso.{domain}|KEYCLOAK_IDENTITY={jwt:keycloak}
salesforce-sid|Salesforce session id|session|{l:8}.my.salesforce.com|sid=00D{A:12}!{u:96}
okta-sid|Okta session cookie|session|{l:8}.okta.com|sid={u:26}
azure-jwt|Microsoft identity access token|jwt|management.azure.com|AZURE_ACCESS_TOKEN={jwt:azure}
cognito-jwt|Cognito access token|jwt|api.{domain}|COGNITO_ACCESS_TOKEN={jwt:cognito}
keycloak-jwt|Keycloak access token|jwt|api.{domain}|KC_ACCESS_TOKEN={jwt:keycloak}
auth0-jwt|Auth0 access token|jwt|api.{domain}|AUTH0_ACCESS_TOKEN={jwt:auth0}
firebase-jwt|Firebase ID token|jwt|api.{domain}|FIREBASE_ID_TOKEN={jwt:firebase}
google-idtoken|Google ID token|jwt|api.{domain}|GOOGLE_ID_TOKEN={jwt:google}
internal-jwt|Internal API bearer token|jwt|api.{domain}|INTERNAL_API_TOKEN={jwt:any}
hasura-jwt|Hasura user JWT|jwt|{l:8}.hasura.app|HASURA_USER_JWT={jwt:hasura}
supabase-user|Supabase user session JWT|jwt|{l:20}.supabase.co|SB_ACCESS_TOKEN={jwt:supabase-user}
registry-jwt|Container registry bearer token|jwt|registry.{domain}|REGISTRY_BEARER={jwt:registry}
mapbox-secret|Mapbox secret token|maps|api.mapbox.com|MAPBOX_SECRET_TOKEN={mapbox:sk}
here|HERE Location Services|maps|geocode.search.hereapi.com|HERE_API_KEY={u:43}
tomtom|TomTom|maps|api.tomtom.com|TOMTOM_API_KEY={m:32}
google-maps-server|Google Maps Platform (server key)|maps|maps.googleapis.com|GOOGLE_MAPS_SERVER_KEY=AIza{u:35}
opencage|OpenCage Geocoding|maps|api.opencagedata.com|OPENCAGE_API_KEY={h:32}
geoapify|Geoapify|maps|api.geoapify.com|GEOAPIFY_KEY={h:32}
what3words|what3words|maps|api.what3words.com|W3W_API_KEY={A:8}
ipinfo|IPinfo|maps|ipinfo.io|IPINFO_TOKEN={h:14}
maxmind|MaxMind GeoIP|maps|updates.maxmind.com|+MAXMIND_ACCOUNT_ID={d:6} ;; MAXMIND_LICENSE_KEY={m:6}_{m:29}_mmk
openweathermap|OpenWeather|maps|api.openweathermap.org|OWM_API_KEY={h:32}
tomorrowio|Tomorrow.io|maps|api.tomorrow.io|TOMORROW_API_KEY={m:32}
weatherapi|WeatherAPI.com|maps|api.weatherapi.com|WEATHERAPI_KEY={h:31}
foursquare|Foursquare Places|maps|api.foursquare.com|FSQ_API_KEY=fsq3{b:44}
yelp|Yelp Fusion|maps|api.yelp.com|YELP_API_KEY={u:128}
nasa|NASA Open APIs|search|api.nasa.gov|NASA_API_KEY={m:40}
newsapi|NewsAPI|search|newsapi.org|NEWSAPI_KEY={h:32}
bing-search|Bing Web Search|search|api.bing.microsoft.com|BING_SEARCH_KEY={h:32}
brave-search|Brave Search API|search|api.search.brave.com|BRAVE_API_KEY=BSA{m:27}
serper|Serper.dev|search|google.serper.dev|SERPER_API_KEY={h:40}
serpapi|SerpApi|search|serpapi.com|SERPAPI_API_KEY={h:64}
scraperapi|ScraperAPI|search|api.scraperapi.com|SCRAPERAPI_KEY={h:32}
zenrows|ZenRows|search|api.zenrows.com|ZENROWS_API_KEY={h:40}
apify|Apify|search|api.apify.com|APIFY_TOKEN=apify_api_{m:36}
brightdata|Bright Data proxy|search|brd.superproxy.io|BRIGHTDATA_PROXY=http://brd-customer-hl_{h:8}-zone-{l:8}:{a:12}@brd.superproxy.io:33335
oxylabs|Oxylabs|search|realtime.oxylabs.io|+OXYLABS_USERNAME={user} ;; OXYLABS_PASSWORD={pw}
algolia-admin|Algolia admin key|search|{A:10}-dsn.algolia.net|+ALGOLIA_APP_ID={A:10} ;; ALGOLIA_ADMIN_KEY={h:32}
meilisearch|Meilisearch master key|search|search.{domain}|MEILI_MASTER_KEY={u:32}
typesense|Typesense admin key|search|{a:10}-1.a1.typesense.net|TYPESENSE_API_KEY={m:32}
coveo|Coveo|search|platform.cloud.coveo.com|COVEO_API_KEY=xx{uuid}
rapidapi|RapidAPI|devtools|rapidapi.com|X_RAPIDAPI_KEY={h:10}msh{h:15}p1{h:6}jsn{h:12}
notion|Notion integration|saas|api.notion.com|NOTION_TOKEN=ntn_{d:11}{m:35}
notion-legacy|Notion integration (legacy)|saas|api.notion.com|NOTION_API_KEY=secret_{m:43}
airtable|Airtable PAT|saas|api.airtable.com|AIRTABLE_PAT=pat{m:14}.{h:64}
asana|Asana PAT|saas|app.asana.com|ASANA_PAT=2/{d:16}/{d:16}:{h:32}
trello|Trello|saas|api.trello.com|+TRELLO_API_KEY={h:32} ;; TRELLO_TOKEN=ATTA{h:64}{H:8}
linear|Linear|saas|api.linear.app|LINEAR_API_KEY=lin_api_{m:40}
clickup|ClickUp|saas|api.clickup.com|CLICKUP_API_TOKEN=pk_{d:8}_{A:32}
monday|monday.com|saas|api.monday.com|MONDAY_API_TOKEN={jwt:hs}
figma|Figma|saas|api.figma.com|FIGMA_TOKEN=figd_{u:40}
miro|Miro|saas|api.miro.com|MIRO_ACCESS_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{u:27}
hubspot|HubSpot private app|saas|api.hubapi.com|HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}
salesforce|Salesforce|saas|login.salesforce.com|+SF_USERNAME={email} ;; SF_PASSWORD={pw} ;; SF_SECURITY_TOKEN={m:25}
zendesk|Zendesk|saas|{l:8}.zendesk.com|+ZENDESK_EMAIL={email} ;; ZENDESK_API_TOKEN={m:40}
freshdesk|Freshdesk|saas|{l:8}.freshdesk.com|FRESHDESK_API_KEY={m:20}
typeform|Typeform|saas|api.typeform.com|TYPEFORM_TOKEN=tfp_{u:44}_{u:14}
calendly|Calendly|saas|api.calendly.com|CALENDLY_PAT={jwt:hs}
docusign|DocuSign|saas|account.docusign.com|+DOCUSIGN_INTEGRATION_KEY={uuid} ;; DOCUSIGN_SECRET_KEY={uuid}
contentful|Contentful management token|saas|api.contentful.com|CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{u:43}
sanity|Sanity write token|saas|api.sanity.io|+SANITY_PROJECT_ID={a:8} ;; SANITY_API_TOKEN=sk{m:180}
storyblok|Storyblok management token|saas|mapi.storyblok.com|STORYBLOK_MANAGEMENT_TOKEN={m:24}-{d:6}-{m:20}
prismic|Prismic write token|saas|migration.prismic.io|PRISMIC_WRITE_TOKEN={m:32}
strapi|Strapi API token|saas|cms.{domain}|STRAPI_API_TOKEN={h:128}
contentstack|Contentstack management token|saas|eu-api.contentstack.com|CONTENTSTACK_MANAGEMENT_TOKEN=cs{h:32}
datocms|DatoCMS|saas|site-api.datocms.com|DATOCMS_API_TOKEN={h:30}
webflow|Webflow|saas|api.webflow.com|WEBFLOW_API_TOKEN={h:64}
wix|Wix API key|saas|www.wixapis.com|WIX_API_KEY=IST.eyJ{U:300}
postman|Postman API key|devtools|api.getpostman.com|POSTMAN_API_KEY=PMAK-{h:24}-{h:34}
readme|ReadMe|devtools|dash.readme.com|README_API_KEY=rdme_{a:70}
retool|Retool|devtools|{l:8}.retool.com|RETOOL_API_TOKEN=retool_{a:40}
metabase|Metabase API key|data|metabase.{domain}|METABASE_API_KEY=mb_{B:32}
dbt-cloud|dbt Cloud|data|cloud.getdbt.com|DBT_CLOUD_API_TOKEN=dbtc_{u:55}
fivetran|Fivetran|data|api.fivetran.com|+FIVETRAN_API_KEY={m:16} ;; FIVETRAN_API_SECRET={m:32}
airbyte|Airbyte Cloud|data|api.airbyte.com|+AIRBYTE_CLIENT_ID={uuid} ;; AIRBYTE_CLIENT_SECRET={m:32}
census|Census|data|app.getcensus.com|CENSUS_SECRET_TOKEN=secret-token:{m:32}
hightouch|Hightouch|data|api.hightouch.com|HIGHTOUCH_API_KEY={uuid}
looker|Looker API3|data|{l:8}.cloud.looker.com|+LOOKERSDK_BASE_URL=https://{l:8}.cloud.looker.com ;; +LOOKERSDK_CLIENT_ID={m:20} ;; LOOKERSDK_CLIENT_SECRET={m:24}
tableau|Tableau PAT|data|{l:8}.online.tableau.com|+TABLEAU_PAT_NAME={l:8}-ci ;; TABLEAU_PAT_SECRET={B:16}:{m:32}
mode|Mode Analytics|data|app.mode.com|+MODE_TOKEN={h:12} ;; MODE_SECRET={h:48}
hex|Hex|data|app.hex.tech|HEX_API_TOKEN=hxtp_{h:64}
prefect|Prefect Cloud|data|api.prefect.cloud|PREFECT_API_KEY=pnu_{m:36}
dagster|Dagster+|data|{l:8}.dagster.cloud|DAGSTER_CLOUD_API_TOKEN=user:{h:32}
astronomer|Astronomer|data|api.astronomer.io|ASTRO_API_TOKEN={jwt:rs}
temporal|Temporal Cloud|data|{l:8}.tmprl.cloud:7233|TEMPORAL_API_KEY={jwt:rs}
inngest|Inngest|devtools|api.inngest.com|INNGEST_SIGNING_KEY=signkey-prod-{h:64} ;; INNGEST_EVENT_KEY={u:86}
trigger|Trigger.dev|devtools|api.trigger.dev|TRIGGER_SECRET_KEY=tr_prod_{m:20}
n8n|n8n API key|devtools|n8n.{domain}|N8N_API_KEY={jwt:hs}
make-webhook|Make scenario webhook|webhook|hook.eu1.make.com|MAKE_WEBHOOK_URL=https://hook.eu1.make.com/{a:32}
zapier-hook|Zapier catch hook|webhook|hooks.zapier.com|ZAPIER_HOOK_URL=https://hooks.zapier.com/hooks/catch/{d:7}/{a:6}/
ifttt|IFTTT Webhooks|webhook|maker.ifttt.com|IFTTT_WEBHOOK_URL=https://maker.ifttt.com/trigger/{l:8}/with/key/{u:22}
google-chat-webhook|Google Chat webhook|webhook|chat.googleapis.com|GCHAT_WEBHOOK_URL=https://chat.googleapis.com/v1/spaces/AAAA{u:7}/messages?key=AIzaSy{u:33}&token={u:43}%3D
dingtalk|DingTalk robot webhook|webhook|oapi.dingtalk.com|DINGTALK_WEBHOOK=https://oapi.dingtalk.com/robot/send?access_token={h:64}
feishu|Feishu / Lark bot webhook|webhook|open.feishu.cn|FEISHU_WEBHOOK=https://open.feishu.cn/open-apis/bot/v2/hook/{uuid}
wecom|WeCom group bot webhook|webhook|qyapi.weixin.qq.com|WECOM_WEBHOOK=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uuid}
pipedream|Pipedream HTTP source|webhook|m.pipedream.net|PIPEDREAM_URL=https://eo{a:15}.m.pipedream.net
shopify-webhook|Shopify webhook secret|webhook|{l:8}.myshopify.com|SHOPIFY_WEBHOOK_SECRET={h:64}
svix|Svix|webhook|api.eu.svix.com|SVIX_API_KEY=sk_{u:32}.eu ;; SVIX_WEBHOOK_SECRET=whsec_{B:24}
hookdeck|Hookdeck|webhook|api.hookdeck.com|HOOKDECK_API_KEY={m:50}
jira-automation|Jira automation incoming webhook|webhook|api-private.atlassian.com|JIRA_AUTOMATION_URL=https://api-private.atlassian.com/automation/webhooks/jira/a/{uuid}/{uuid}
mailgun-webhook|Mailgun webhook signing key|webhook|api.mailgun.net|MAILGUN_WEBHOOK_SIGNING_KEY={h:32}
paddle-webhook|Paddle notification secret|webhook|api.paddle.com|PADDLE_WEBHOOK_SECRET=pdl_ntfset_{a:26}_{m:32}
clerk-webhook|Clerk webhook signing secret|webhook|api.clerk.com|CLERK_WEBHOOK_SECRET=whsec_{B:24}
gusto|Gusto|hr|api.gusto.com|+GUSTO_CLIENT_ID={u:43} ;; GUSTO_CLIENT_SECRET={u:43}
rippling|Rippling|hr|api.rippling.com|RIPPLING_API_TOKEN={m:64}
bamboohr|BambooHR|hr|api.bamboohr.com|+BAMBOOHR_SUBDOMAIN={l:8} ;; BAMBOOHR_API_KEY={h:40}
greenhouse|Greenhouse Harvest|hr|harvest.greenhouse.io|GREENHOUSE_API_KEY={h:32}
lever|Lever|hr|api.lever.co|LEVER_API_KEY={m:32}
personio|Personio|hr|api.personio.de|+PERSONIO_CLIENT_ID=papi-{uuid} ;; PERSONIO_CLIENT_SECRET=papi-{m:40}
deel|Deel|hr|api.letsdeel.com|DEEL_API_TOKEN={m:48}
workday|Workday integration user|hr|wd5-services1.myworkday.com|+WORKDAY_ISU_USER=ISU_{L:8} ;; WORKDAY_ISU_PASSWORD={pw}
xero|Xero|finance|api.xero.com|+XERO_CLIENT_ID={H:32} ;; XERO_CLIENT_SECRET={u:48}
quickbooks|QuickBooks Online|finance|quickbooks.api.intuit.com|+QBO_CLIENT_ID=AB{m:48} ;; QBO_CLIENT_SECRET={m:40}
freshbooks|FreshBooks|finance|api.freshbooks.com|+FRESHBOOKS_CLIENT_ID={h:64} ;; FRESHBOOKS_CLIENT_SECRET={h:64}
brex|Brex|finance|platform.brexapis.com|BREX_API_TOKEN=bxt_{m:40}
ramp|Ramp|finance|api.ramp.com|+RAMP_CLIENT_ID=ramp_id_{m:40} ;; RAMP_CLIENT_SECRET=ramp_sec_{m:48}
mercury|Mercury banking API|finance|api.mercury.com|MERCURY_API_TOKEN=secret-token:mercury_production_{a:12}_{m:32}
avalara|Avalara AvaTax|finance|rest.avatax.com|+AVALARA_ACCOUNT_ID={d:10} ;; AVALARA_LICENSE_KEY={H:16}
taxjar|TaxJar|finance|api.taxjar.com|TAXJAR_API_KEY={h:32}
openexchangerates|Open Exchange Rates|finance|openexchangerates.org|OXR_APP_ID={h:32}
alphavantage|Alpha Vantage|finance|www.alphavantage.co|ALPHAVANTAGE_API_KEY={A:16}
polygon|Polygon.io|finance|api.polygon.io|POLYGON_API_KEY={m:32}
finnhub|Finnhub|finance|finnhub.io|FINNHUB_TOKEN={a:20}
iex|IEX Cloud|finance|cloud.iexapis.com|IEX_TOKEN=sk_{h:32}
alpaca|Alpaca Trading|finance|api.alpaca.markets|+APCA_API_KEY_ID=AK{A:18} ;; APCA_API_SECRET_KEY={m:40}
nylas|Nylas|saas|api.us.nylas.com|NYLAS_API_KEY=nyk_v0_{m:50}
pandadoc|PandaDoc|saas|api.pandadoc.com|PANDADOC_API_KEY={h:40}
dropbox-sign|Dropbox Sign|saas|api.hellosign.com|HELLOSIGN_API_KEY={h:64}
smartsheet|Smartsheet|saas|api.smartsheet.com|SMARTSHEET_ACCESS_TOKEN={m:37}
coda|Coda|saas|coda.io|CODA_API_TOKEN={uuid}
todoist|Todoist|saas|api.todoist.com|TODOIST_API_TOKEN={h:40}
harvest|Harvest|saas|api.harvestapp.com|+HARVEST_ACCOUNT_ID={d:7} ;; HARVEST_ACCESS_TOKEN={d:7}.pt.{u:86}
toggl|Toggl Track|saas|api.track.toggl.com|TOGGL_API_TOKEN={h:32}
pipedrive|Pipedrive|saas|api.pipedrive.com|PIPEDRIVE_API_TOKEN={h:40}
close|Close CRM|saas|api.close.com|CLOSE_API_KEY=api_{m:22}.{m:22}
attio|Attio|saas|api.attio.com|ATTIO_API_KEY={h:64}
zoho-crm|Zoho CRM|saas|www.zohoapis.eu|+ZOHO_CLIENT_ID=1000.{A:30} ;; ZOHO_CLIENT_SECRET={h:42} ;; ZOHO_REFRESH_TOKEN=1000.{h:32}.{h:32}
servicenow|ServiceNow|saas|{l:8}.service-now.com|+SN_USERNAME={user} ;; SN_PASSWORD={pw}
freshservice|Freshservice|saas|{l:8}.freshservice.com|FRESHSERVICE_API_KEY={m:20}
helpscout|Help Scout|saas|api.helpscout.net|+HELPSCOUT_APP_ID={m:32} ;; HELPSCOUT_APP_SECRET={m:32}
front|Front|saas|api2.frontapp.com|FRONT_API_TOKEN={jwt:hs}
aircall|Aircall|saas|api.aircall.io|+AIRCALL_API_ID={h:32} ;; AIRCALL_API_TOKEN={h:32}
surveymonkey|SurveyMonkey|saas|api.surveymonkey.com|SURVEYMONKEY_ACCESS_TOKEN={m:40}
jotform|Jotform|saas|api.jotform.com|JOTFORM_API_KEY={h:32}
gitbook|GitBook|saas|api.gitbook.com|GITBOOK_TOKEN=gb_api_{m:40}
crowdin|Crowdin|devtools|api.crowdin.com|CROWDIN_PERSONAL_TOKEN={h:80}
lokalise|Lokalise|devtools|api.lokalise.com|LOKALISE_API_TOKEN={h:40}
phrase|Phrase Strings|devtools|api.phrase.com|PHRASE_ACCESS_TOKEN={h:64}
transifex|Transifex|devtools|rest.api.transifex.com|TX_TOKEN=1/{h:40}
browserless|Browserless|devtools|production-sfo.browserless.io|BROWSERLESS_TOKEN={uuid}
apollo-studio|Apollo GraphOS|devtools|api.apollographql.com|APOLLO_KEY=service:{l:8}-graph:{u:22}
codesandbox|CodeSandbox|devtools|api.codesandbox.io|CSB_API_TOKEN=csb_v1_{u:43}
gitpod|Gitpod|devtools|api.gitpod.io|GITPOD_TOKEN=gitpod_pat_{u:40}.{u:40}
mend|Mend (WhiteSource)|security|saas.whitesourcesoftware.com|+WS_APIKEY={uuid} ;; WS_USERKEY={h:64}
veracode|Veracode|security|api.veracode.com|+VERACODE_API_KEY_ID={h:32} ;; VERACODE_API_KEY_SECRET={h:128}
checkmarx|Checkmarx One|security|eu.ast.checkmarx.net|CX_APIKEY={jwt:rs}
semgrep|Semgrep AppSec Platform|security|semgrep.dev|SEMGREP_APP_TOKEN={h:64}
socket|Socket.dev|security|api.socket.dev|SOCKET_SECURITY_API_KEY=sktsec_{m:40}_api
tenable|Tenable Vulnerability Management|security|cloud.tenable.com|+TENABLE_ACCESS_KEY={h:64} ;; TENABLE_SECRET_KEY={h:64}
qualys|Qualys|security|qualysapi.qg2.apps.qualys.eu|+QUALYS_USERNAME={l:5}{d:2}{l:2} ;; QUALYS_PASSWORD={pw}
crowdstrike|CrowdStrike Falcon|security|api.eu-1.crowdstrike.com|+FALCON_CLIENT_ID={h:32} ;; FALCON_CLIENT_SECRET={m:40}
sentinelone|SentinelOne|security|{l:8}.sentinelone.net|S1_API_TOKEN={m:80}
wiz|Wiz|security|api.eu1.app.wiz.io|+WIZ_CLIENT_ID={a:52} ;; WIZ_CLIENT_SECRET={m:64}
lacework|Lacework|security|{l:8}.lacework.net|+LW_API_KEY={L:8}_{H:30} ;; LW_API_SECRET=_{h:32}
shodan|Shodan|security|api.shodan.io|SHODAN_API_KEY={m:32}
virustotal|VirusTotal|security|www.virustotal.com|VT_API_KEY={h:64}
abuseipdb|AbuseIPDB|security|api.abuseipdb.com|ABUSEIPDB_KEY={h:80}
hibp|Have I Been Pwned|security|haveibeenpwned.com|HIBP_API_KEY={h:32}
urlscan|urlscan.io|security|urlscan.io|URLSCAN_API_KEY={uuid}
censys|Censys Search|security|search.censys.io|+CENSYS_API_ID={uuid} ;; CENSYS_API_SECRET={m:32}
recaptcha-secret|reCAPTCHA secret key|security|www.google.com|RECAPTCHA_SECRET_KEY=6L{u:38}
hcaptcha-secret|hCaptcha secret|security|api.hcaptcha.com|HCAPTCHA_SECRET=0x{h:40}
turnstile-secret|Cloudflare Turnstile secret key|security|challenges.cloudflare.com|TURNSTILE_SECRET_KEY=0x4AAAAAAA{u:25}
sift|Sift|security|api.sift.com|SIFT_API_KEY={h:16}
azure-iothub|Azure IoT Hub device|iot|{l:8}-hub.azure-devices.net|IOTHUB_DEVICE_CONNECTION_STRING=HostName={l:8}-hub.azure-devices.net;DeviceId={l:6}-{d:3};SharedAccessKey={B:32}
azure-iothub-owner|Azure IoT Hub owner policy|iot|{l:8}-hub.azure-devices.net|IOTHUB_CONNECTION_STRING=HostName={l:8}-hub.azure-devices.net;SharedAccessKeyName=iothubowner;SharedAccessKey={B:32}
particle|Particle|iot|api.particle.io|PARTICLE_ACCESS_TOKEN={h:40}
blynk|Blynk|iot|blynk.cloud|+BLYNK_TEMPLATE_ID=TMPL{m:8} ;; BLYNK_AUTH_TOKEN={u:32}
thingspeak|ThingSpeak write key|iot|api.thingspeak.com|+THINGSPEAK_CHANNEL_ID={d:7} ;; THINGSPEAK_WRITE_API_KEY={A:16}
adafruit-io|Adafruit IO|iot|io.adafruit.com|+AIO_USERNAME={user} ;; AIO_KEY=aio_{m:28}
losant|Losant|iot|api.losant.com|+LOSANT_ACCESS_KEY={uuid} ;; LOSANT_ACCESS_SECRET={h:64}
ubidots|Ubidots|iot|industrial.api.ubidots.com|UBIDOTS_TOKEN=BBUS-{m:30}
home-assistant|Home Assistant long-lived token|iot|homeassistant.local:8123|HASS_TOKEN={jwt:hass}
smartthings|SmartThings PAT|iot|api.smartthings.com|SMARTTHINGS_TOKEN={uuid}
tuya|Tuya IoT platform|iot|openapi.tuyaeu.com|+TUYA_ACCESS_ID={a:20} ;; TUYA_ACCESS_SECRET={h:32}
hue|Philips Hue bridge app key|iot|{priv}|+HUE_BRIDGE_IP={priv} ;; HUE_APP_KEY={m:40}
shelly|Shelly Cloud|iot|shelly-49-eu.shelly.cloud|SHELLY_AUTH_KEY={u:90}
thingsboard|ThingsBoard device token|iot|thingsboard.{domain}|TB_ACCESS_TOKEN={m:20}
arduino-cloud|Arduino Cloud API|iot|api2.arduino.cc|+ARDUINO_CLIENT_ID={m:32} ;; ARDUINO_CLIENT_SECRET={m:64}
balena|balenaCloud|iot|api.balena-cloud.com|BALENA_API_KEY={m:32}
golioth|Golioth device PSK|iot|coap.golioth.io|+GOLIOTH_PSK_ID={l:8}@{l:8} ;; GOLIOTH_PSK={h:32}
ttn|The Things Stack API key|iot|eu1.cloud.thethings.network|TTN_API_KEY=NNSXS.{A:39}.{A:52}
lorawan|LoRaWAN OTAA keys|iot||+LORA_DEV_EUI={H:16} ;; +LORA_JOIN_EUI={H:16} ;; LORA_APP_KEY={H:32}
hivemq|HiveMQ Cloud broker|iot|{h:32}.s1.eu.hivemq.cloud:8883|+MQTT_BROKER={h:32}.s1.eu.hivemq.cloud:8883 ;; +MQTT_USERNAME={user} ;; MQTT_PASSWORD={pw}
emqx|EMQX Cloud API|iot|{l:6}.ala.eu-central-1.emqxsl.com|+EMQX_APP_ID={a:16} ;; EMQX_APP_SECRET={m:32}
samsara|Samsara|iot|api.samsara.com|SAMSARA_API_TOKEN=samsara_api_{m:30}
notehub|Blues Notehub|iot|api.notefile.net|NOTEHUB_TOKEN={m:32}
google-sdm|Google Device Access|iot|smartdevicemanagement.googleapis.com|SDM_CLIENT_SECRET=GOCSPX-{u:28} ;; SDM_REFRESH_TOKEN=1//0{u:99}
ecobee|ecobee|iot|api.ecobee.com|ECOBEE_API_KEY={m:32}
tesla|Tesla Fleet API|iot|fleet-api.prd.eu.vn.cloud.tesla.com|TESLA_REFRESH_TOKEN={jwt:rs}
sigfox|Sigfox backend API|iot|api.sigfox.com|+SIGFOX_API_LOGIN={h:24} ;; SIGFOX_API_PASSWORD={h:32}
octoprint|OctoPrint|iot|octopi.local|OCTOPRINT_API_KEY={H:32}
netatmo|Netatmo|iot|api.netatmo.com|+NETATMO_CLIENT_ID={h:24} ;; NETATMO_CLIENT_SECRET={m:30}
"""


def _parse_catalogue():
    vendors = []
    seen = []
    for line in CATALOGUE.strip().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        slug, disp, cat, hst, pairs = line.split("|", 4)
        plist = []
        for p in pairs.split(" ;; "):
            k, t = p.split("=", 1)
            pub = k.startswith("+")
            k = k.lstrip("+").strip()
            if pub:
                assert "{pw" not in t, line
            plist.append((k, t.strip(), pub))
        assert any(not pb for _, _, pb in plist), slug
        assert slug not in seen, slug
        seen.append(slug)
        vendors.append({"slug": slug, "disp": disp, "cat": cat, "host": hst, "pairs": plist})
    return vendors


VENDORS = _parse_catalogue()


# ---------------------------------------------------------------------------
# references (benign stand-ins for a credential value)
# ---------------------------------------------------------------------------
def envname(k):
    return re.sub(r"[^A-Za-z0-9_]", "_", k).upper().strip("_") or "VALUE"


def snake(k):
    return re.sub(r"[^a-z0-9]+", "_", k.lower()).strip("_") or "value"


def camel(k):
    parts = snake(k).split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def pascal(k):
    return "".join(p.title() for p in snake(k).split("_"))


def short_key(k, slug):
    s = snake(k)
    for pre in [snake(slug) + "_", snake(slug).split("_")[0] + "_"]:
        if s.startswith(pre) and len(s) > len(pre) + 2:
            return s[len(pre):]
    return s


class Ref:
    """A benign pointer to where a credential lives (never the credential)."""

    def __init__(self, var, store, slug):
        self.var, self.store, self.slug = var, store, slug
        sk = snake(var)
        p = pick(PROJ)
        self.env = envname(var)
        if store == "env":
            self.cfg = pick(["${%s}", "$%s", "${%s:?missing}", "${%s}", "${%s}"]) % self.env
            self.desc = f"the {self.env} environment variable"
        elif store == "vault":
            self.path = f"secret/{pick(['data/', ''])}{p}/{pick(ENVS)}/{slug}"
            self.field = sk
            self.cfg = f"vault:{self.path}#{sk}"
            self.desc = f"Vault at {self.path} (field {sk})"
        elif store == "aws":
            self.name = f"{p}/{pick(ENVS)}/{slug}"
            self.cfg = f"arn:aws:secretsmanager:{pick(REGIONS)}:{rs('n', 1)}{rs('d', 11)}:secret:{self.name}-{rs('m', 6)}"
            self.desc = f"AWS Secrets Manager ({self.name})"
        elif store == "gcp":
            self.name = f"{slug}-{sk.replace('_', '-')}"
            self.cfg = f"projects/{p}-{rs('d', 6)}/secrets/{self.name}/versions/latest"
            self.desc = f"GCP Secret Manager secret {self.name}"
        elif store == "azure":
            self.kv = f"kv-{p}-{pick(ENVS)}"[:24]
            self.name = f"{slug}-{sk.replace('_', '-')}"
            self.cfg = f"@Microsoft.KeyVault(SecretUri=https://{self.kv}.vault.azure.net/secrets/{self.name}/)"
            self.desc = f"Key Vault {self.kv} (secret {self.name})"
        elif store == "op":
            self.cfg = f"op://{pick(['Engineering', 'Infra', 'Shared', 'Private', 'CI', 'Platform'])}/{slug}/{pick(['credential', 'password', 'api key', 'token', sk])}"
            self.desc = f"1Password ({self.cfg})"
        elif store == "file":
            self.cfg = f"/run/secrets/{sk}"
            self.desc = f"the mounted file {self.cfg}"
        elif store == "sops":
            self.cfg = f"ENC[AES256_GCM,data:{b64(rb(R.randint(18, 60)))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]"
            self.desc = "the SOPS-encrypted secrets file"
        else:
            raise ValueError(store)


def isref(v):
    return isinstance(v, Ref)


STORE_WEIGHTS = ["env"] * 9 + ["vault", "vault", "aws", "aws", "gcp", "azure", "op", "op", "file", "file"]

# neutral, non-secret configuration lines (used by BOTH labels as filler)
NONSECRET_ENV = [
    ("NODE_ENV", lambda: pick(["production", "development", "test"])),
    ("LOG_LEVEL", lambda: pick(["info", "debug", "warn", "error"])),
    ("PORT", lambda: str(pick([3000, 8000, 8080, 8443, 5000, 9000]))),
    ("AWS_REGION", lambda: pick(REGIONS)),
    ("TZ", lambda: pick(["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"])),
    ("MAX_RETRIES", lambda: str(R.randint(1, 8))),
    ("REQUEST_TIMEOUT_MS", lambda: str(pick([2000, 5000, 10000, 30000]))),
    ("FEATURE_NEW_CHECKOUT", lambda: pick(["true", "false"])),
    ("WORKERS", lambda: str(R.randint(1, 16))),
    ("CACHE_TTL_SECONDS", lambda: str(pick([60, 300, 900, 3600]))),
    ("APP_ENV", lambda: pick(ENVS)),
    ("SENTRY_ENVIRONMENT", lambda: pick(ENVS)),
    ("PUBLIC_BASE_URL", lambda: f"https://{pick(['app', 'www', 'portal'])}.{domain()}"),
    ("DB_POOL_SIZE", lambda: str(R.randint(2, 40))),
    ("OTEL_SERVICE_NAME", lambda: f"{pick(PROJ)}-{pick(SVC)}"),
    ("GOMAXPROCS", lambda: str(R.randint(1, 8))),
    ("PYTHONUNBUFFERED", lambda: "1"),
    ("RAILS_LOG_TO_STDOUT", lambda: "enabled"),
    ("JAVA_OPTS", lambda: f"-Xms{pick([256, 512])}m -Xmx{pick([1024, 2048])}m"),
    ("HTTP_PROXY", lambda: f"http://proxy.{domain()}:3128"),
]


def extra_env(pmax=2):
    if not chance(0.35):
        return [], []
    items = sample(NONSECRET_ENV, R.randint(1, pmax + 1))
    lines = [(k, f()) for k, f in items]
    cut = R.randint(0, len(lines))
    return lines[:cut], lines[cut:]


COMMENTS = ["prod", "staging", "eu region", "shared with the {proj} team", "added {date} by {name}",
            "see {ticket}", "{vendor} integration", "used by the {svc} worker", "do not reorder",
            "keep in sync with {proj}", "{env} only", "migrated from the old box", "owner: {team}",
            "last touched {date}", "from the {vendor} dashboard"]


def neutral_comment(vendor):
    c = pick(COMMENTS)
    return c.format(proj=pick(PROJ), date=date(), name=pick(FIRST), ticket=ticket(), vendor=vendor,
                    svc=pick(SVC), env=pick(ENVS), team=pick(TEAMS))


class Ctx:
    def __init__(self, pairs, vendor, slug, host_, cat, comment=None):
        self.pairs = pairs          # list of (key, value(str|Ref), is_public)
        self.vendor, self.slug, self.host, self.cat = vendor, slug, host_, cat
        self.comment = comment
        self.skey = snake(slug)

    def main(self):
        sec = [(k, v) for k, v, pub in self.pairs if not pub]
        return sec[-1] if sec else (self.pairs[-1][0], self.pairs[-1][1])

    def pubs(self):
        return [(k, v) for k, v, pub in self.pairs if pub]


def vtype(v):
    if isref(v):
        return "ref"
    if "\n" in v:
        return "multi"
    if v.startswith(("http://", "https://")):
        return "url"
    if re.match(r"^[a-z][a-z0-9+.\-]*://", v) or re.search(r"(?i)(password|accountkey|sharedaccesskey|accesskey|secret)=", v):
        return "conn"
    if v.startswith("{") or v.startswith("-----") or len(v) > 400:
        return "multi"
    return "token"


# --- quoting helpers --------------------------------------------------------
SAFE_BARE = re.compile(r"^[A-Za-z0-9_./:@+=,~%-]+$")


def env_val(v):
    if isref(v):
        return v.cfg
    if v == "":
        return ""
    if "\n" in v:
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if SAFE_BARE.match(v) and chance(0.7):
        return v
    if "'" not in v:
        return "'" + v + "'"
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'


def sh_q(v):
    if "'" not in v and (chance(0.6) or re.search(r"[$`\"\\!]", v)):
        return "'" + v + "'"
    if not re.search(r"[$`\"\\!]", v):
        return '"' + v + '"'
    return "'" + v.replace("'", "'\\''") + "'"


def dq(v):
    return json.dumps(v, ensure_ascii=False)


def sq_php(v):
    return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"


def yaml_val(v, indent):
    if isref(v):
        return dq(v.cfg)
    if v == "":
        return pick(['""', "''"])
    if "\n" in v:
        pad = " " * (indent + 2)
        return "|\n" + "\n".join(pad + ln if ln else "" for ln in v.split("\n"))
    if (SAFE_BARE.match(v) and not v[0] in "-@:%,&*!|>'\"{[#?~" and not v.lower() in ("true", "false", "null", "yes", "no", "on", "off")
            and not re.fullmatch(r"[0-9.e+-]+", v) and chance(0.5)):
        return v
    return dq(v)


def toml_val(v):
    if isref(v):
        return dq(v.cfg)
    if "\n" in v:
        return '"""\n' + v + '"""'
    return dq(v)


def sql_q(v):
    return "'" + v.replace("'", "''") + "'"


def xml_esc(v):
    return v.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")


# --- reference renderers per language ----------------------------------------
def sh_ref(v):
    s = v.store
    if s == "vault":
        return f'"$(vault kv get -field={v.field} {v.path})"'
    if s == "aws":
        return f'"$(aws secretsmanager get-secret-value --secret-id {v.name} --query SecretString --output text)"'
    if s == "gcp":
        return f'"$(gcloud secrets versions access latest --secret={v.name})"'
    if s == "azure":
        return f'"$(az keyvault secret show --vault-name {v.kv} --name {v.name} --query value -o tsv)"'
    if s == "op":
        return f"\"$(op read '{v.cfg}')\""
    if s == "file":
        return f'"$(cat {v.cfg})"'
    if s == "sops":
        return f'"$(sops -d --extract \'["{snake(v.var)}"]\' secrets.enc.yaml)"'
    return f'"${{{pick(["CI_", "SECRET_", "VAULT_", ""])}{v.env}}}"' if chance(0.5) else f'"$(pass show {v.slug}/{snake(v.var)})"'


def code_ref(v, lang):
    e = v.env
    return {
        "py": pick([f'os.environ["{e}"]', f'os.getenv("{e}")', f'os.environ.get("{e}", "")']),
        "js": pick([f"process.env.{e}", f"process.env.{e}!", f'process.env["{e}"] ?? ""']),
        "go": f'os.Getenv("{e}")',
        "java": f'System.getenv("{e}")',
        "kt": f'System.getenv("{e}")',
        "rb": pick([f'ENV.fetch("{e}")', f'ENV["{e}"]', f"Rails.application.credentials.dig(:{snake(v.slug)}, :{snake(v.var)})"]),
        "php": pick([f"env('{e}')", f"getenv('{e}')", f"$_ENV['{e}']"]),
        "cs": pick([f'Environment.GetEnvironmentVariable("{e}")', f'builder.Configuration["{pascal(v.slug)}:{pascal(v.var)}"]']),
        "rs": pick([f'std::env::var("{e}")?', f'env::var("{e}").expect("{e} not set")']),
        "swift": f'ProcessInfo.processInfo.environment["{e}"] ?? ""',
        "ps": pick([f"$env:{e}", f"(Get-Secret -Name {e} -AsPlainText)"]),
    }[lang]


def code_val(v, lang):
    if isref(v):
        return code_ref(v, lang)
    if lang == "go" and "\n" in v and "`" not in v:
        return "`" + v + "`"
    if lang == "php":
        return sq_php(v)
    if lang == "rb" and chance(0.3) and "'" not in v and "\\" not in v and "\n" not in v:
        return "'" + v + "'"
    return dq(v)


def prose_val(v):
    if isref(v):
        return pick([f"in {v.desc}", f"stored in {v.desc}", f"-> {v.desc}", f"(see {v.desc})"])
    if "\n" in v:
        return "\n```\n" + v + "\n```"
    return pick([f"`{v}`", v, f'"{v}"'])


# ---------------------------------------------------------------------------
# containers (shared by secret and benign records)
# ---------------------------------------------------------------------------
API_PATHS = ["/v1/me", "/v2/account", "/api/v1/status", "/v1/models", "/v3/users/me", "/v1/projects?limit=10",
             "/api/v2/items?page=1", "/v1/health/auth", "/v1/messages", "/api/v4/user", "/v1/events",
             "/v1/customers?limit=3", "/api/v1/search?q=test", "/v2/orders/recent", "/v1/reports/daily"]
UAS = ["curl/8.5.0", "python-requests/2.32.3", "axios/1.7.2", "Go-http-client/2.0", "okhttp/4.12.0",
       "PostmanRuntime/7.39.0", "node-fetch/3.3.2"]
HDR_STYLES = ["Authorization: Bearer {v}", "Authorization: Bearer {v}", "Authorization: Token {v}",
              "X-API-Key: {v}", "api-key: {v}", "X-Auth-Token: {v}", "Authorization: {v}"]


def c_dotenv(c):
    out = []
    if c.comment:
        out.append("# " + c.comment)
    elif chance(0.3):
        out.append(f"# {c.vendor}")
    pre, post = extra_env()
    out += [f"{k}={v}" for k, v in pre]
    for k, v, _ in c.pairs:
        out.append(f"{envname(k)}={env_val(v)}")
    out += [f"{k}={v}" for k, v in post]
    return "\n".join(out)


SHELL_TAILS = ["./bin/server --port 8080", "python -m app.worker", "npm run start", "exec gunicorn app:app",
               "make deploy", "terraform plan", "node dist/index.js", "./scripts/smoke-test.sh", "docker compose up -d"]


def c_shell(c):
    out = ["#!/usr/bin/env bash", "set -euo pipefail"] if chance(0.35) else []
    if c.comment:
        out.append("# " + c.comment)
    pre, post = extra_env()
    out += [f"export {k}={sh_q(v)}" for k, v in pre]
    for k, v, _ in c.pairs:
        out.append(f"export {envname(k)}={sh_ref(v) if isref(v) else sh_q(v)}")
    out += [f"export {k}={sh_q(v)}" for k, v in post]
    if chance(0.4):
        out.append(pick(SHELL_TAILS))
    return "\n".join(out)


def c_yaml(c):
    out = []
    if c.comment:
        out.append("# " + c.comment)
    top = pick(["integrations", "services", "providers", "clients", c.skey, "config", "external"])
    if top == c.skey:
        out.append(f"{c.skey}:")
        ind = 2
    else:
        out.append(f"{top}:")
        out.append(f"  {c.skey}:")
        ind = 4
    if chance(0.35):
        out.append(" " * ind + "enabled: true")
    for k, v, _ in c.pairs:
        out.append(" " * ind + f"{short_key(k, c.slug)}: {yaml_val(v, ind)}")
    if chance(0.3):
        out.append(" " * ind + f"timeout_seconds: {R.randint(5, 60)}")
    return "\n".join(out)


def c_json(c):
    inner = {}
    if chance(0.3):
        inner["enabled"] = True
    for k, v, _ in c.pairs:
        inner[camel(short_key(k, c.slug))] = v.cfg if isref(v) else v
    obj = {c.skey: inner} if chance(0.6) else {pick(["integrations", "credentials", "providers", "settings"]): {c.skey: inner}}
    if chance(0.25):
        return obj
    return json.dumps(obj, indent=pick([2, 4, None]), ensure_ascii=False)


def c_toml(c):
    out = []
    if c.comment:
        out.append("# " + c.comment)
    out.append(f"[{pick(['', 'integrations.', 'services.'])}{c.skey}]")
    for k, v, _ in c.pairs:
        out.append(f"{short_key(k, c.slug)} = {toml_val(v)}")
    return "\n".join(out)


def c_ini(c):
    out = []
    if c.comment:
        out.append("; " + c.comment)
    out.append(f"[{c.skey}]")
    for k, v, _ in c.pairs:
        val = v.cfg if isref(v) else v
        out.append(f"{short_key(k, c.slug)} {pick(['=', '=', ':'])} {val}")
    return "\n".join(out)


def c_properties(c):
    out = []
    if c.comment:
        out.append("# " + c.comment)
    pre = pick(["app", "integration", "spring.cloud", c.skey.replace("_", "."), "client"])
    for k, v, _ in c.pairs:
        key = f"{pre}.{c.skey.replace('_', '-')}.{short_key(k, c.slug).replace('_', '-')}"
        if isref(v):
            val = "${" + v.env + "}" if v.store == "env" else v.cfg
        else:
            val = v.replace("\\", "\\\\").replace("\n", "\\n")
        out.append(f"{key}={val}")
    return "\n".join(out)


def c_dockerfile(c):
    out = [f"FROM {pick(IMAGES)}", "WORKDIR /app"]
    if c.comment:
        out.append("# " + c.comment)
    mounts = []
    for k, v, pub in c.pairs:
        e = envname(k)
        if isref(v):
            if v.store == "env" or pub:
                out.append(f"ARG {e}")
                if chance(0.5):
                    out.append(f"ENV {e}=${{{e}}}")
            else:
                mounts.append(snake(k))
        else:
            kw = pick(["ENV", "ENV", "ARG"])
            dv = dq(v) if (" " in v or '"' in v) else v
            out.append(f"{kw} {e}={dv}")
    out.append("COPY . .")
    if mounts:
        out.append(f"RUN --mount=type=secret,id={mounts[0]} ./scripts/fetch-assets.sh")
    out.append(pick(['CMD ["python", "-m", "app"]', 'CMD ["node", "server.js"]', 'ENTRYPOINT ["/app/bin/server"]', 'CMD ["./run.sh"]']))
    return "\n".join(out)


def c_compose(c):
    svc = pick(SVC)
    out = ["services:", f"  {svc}:", f"    image: {pick(['ghcr.io', 'registry.gitlab.com', 'docker.io'])}/{pick(COMP)}/{pick(PROJ)}:{pick(['latest', '1.4.2', 'main', '2024.06'])}"]
    if c.comment:
        out.insert(0, "# " + c.comment)
    out.append("    environment:")
    secrets = []
    listform = chance(0.4)
    for k, v, _ in c.pairs:
        e = envname(k)
        if isref(v):
            if v.store == "file":
                out.append(f"      {'- ' if listform else ''}{e}_FILE{'=' if listform else ': '}/run/secrets/{snake(k)}")
                secrets.append(snake(k))
                continue
            val = f"${{{e}}}"
        else:
            if "\n" in v:
                val = v.replace("\n", "\\n")
            else:
                val = v
        if listform:
            out.append(f"      - {e}={val}")
        else:
            out.append(f"      {e}: {yaml_val(val, 6) if not isref(v) else dq(val)}")
    if secrets:
        out.append("    secrets:")
        out += [f"      - {s}" for s in secrets]
        out.append("secrets:")
        for s in secrets:
            out += [f"  {s}:", f"    file: ./secrets/{s}.txt"]
    return "\n".join(out)


def c_k8s(c):
    name = f"{c.slug}-{pick(['credentials', 'secret', 'config', 'creds'])}"
    ns = pick(["default", "prod", "staging", pick(PROJ), "payments", "platform"])
    if all(isref(v) or pub for _, v, pub in c.pairs) and any(isref(v) for _, v, _ in c.pairs):
        if chance(0.5):
            out = ["apiVersion: apps/v1", "kind: Deployment", f"metadata:\n  name: {pick(PROJ)}-{pick(SVC)}\n  namespace: {ns}", "spec:",
                   "  template:", "    spec:", "      containers:", f"        - name: {pick(SVC)}", f"          image: {pick(IMAGES)}", "          env:"]
            for k, v, pub in c.pairs:
                if isref(v):
                    out += [f"            - name: {envname(k)}", "              valueFrom:", "                secretKeyRef:",
                            f"                  name: {name}", f"                  key: {snake(k)}"]
                else:
                    out += [f"            - name: {envname(k)}", f"              value: {dq(v)}"]
            return "\n".join(out)
        out = ["apiVersion: external-secrets.io/v1beta1", "kind: ExternalSecret", f"metadata:\n  name: {name}\n  namespace: {ns}",
               "spec:", "  refreshInterval: 1h", "  secretStoreRef:", f"    name: {pick(['vault-backend', 'aws-secrets-manager', 'gcp-sm', 'azure-kv'])}",
               "    kind: ClusterSecretStore", "  target:", f"    name: {name}", "  data:"]
        for k, v, pub in c.pairs:
            if isref(v):
                out += [f"    - secretKey: {snake(k)}", "      remoteRef:", f"        key: {pick(PROJ)}/{c.slug}", f"        property: {snake(k)}"]
        return "\n".join(out)
    if chance(0.65):
        out = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {name}", f"  namespace: {ns}", "type: Opaque", "stringData:"]
        for k, v, _ in c.pairs:
            out.append(f"  {snake(k) if chance(0.5) else envname(k)}: {yaml_val(v, 2)}")
        return "\n".join(out)
    out = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", f"  name: {pick(PROJ)}-{pick(SVC)}", "spec:", "  template:", "    spec:",
           "      containers:", f"        - name: {pick(SVC)}", f"          image: {pick(IMAGES)}", "          env:"]
    for k, v, _ in c.pairs:
        out += [f"            - name: {envname(k)}", f"              value: {yaml_val(v, 14)}"]
    return "\n".join(out)


def c_helm(c):
    top = camel(c.skey)
    out = []
    if c.comment:
        out.append("# " + c.comment)
    out += [f"{top}:", "  enabled: true"]
    refs = [k for k, v, _ in c.pairs if isref(v)]
    for k, v, _ in c.pairs:
        if isref(v):
            continue
        out.append(f"  {camel(short_key(k, c.slug))}: {yaml_val(v, 2)}")
    if refs:
        out.append(f"  existingSecret: {c.slug}-credentials")
        out.append("  existingSecretKeys:")
        for k in refs:
            out.append(f"    {camel(short_key(k, c.slug))}: {snake(k)}")
    return "\n".join(out)


def tf_str(v):
    if "\n" in v:
        return "<<-EOT\n" + v + "\nEOT"
    return dq(v)


def c_terraform(c):
    out = []
    if c.comment:
        out.append("# " + c.comment)
    style = R.random()
    if all(isref(v) or pub for _, v, pub in c.pairs):
        if chance(0.5):
            out.append(f'data "aws_secretsmanager_secret_version" "{c.skey}" {{\n  secret_id = "{pick(PROJ)}/{c.slug}"\n}}\n')
            src = lambda k: f'jsondecode(data.aws_secretsmanager_secret_version.{c.skey}.secret_string)["{snake(k)}"]'
        else:
            src = lambda k: f"var.{c.skey}_{short_key(k, c.slug)}"
        out.append(f'provider "{c.skey.split("_")[0]}" {{')
        for k, v, _ in c.pairs:
            out.append(f"  {short_key(k, c.slug)} = {src(k) if isref(v) else dq(v)}")
        out.append("}")
        return "\n".join(out)
    if style < 0.4:
        out.append(f'provider "{c.skey.split("_")[0]}" {{')
        for k, v, _ in c.pairs:
            out.append(f"  {short_key(k, c.slug)} = {tf_str(v) if not isref(v) else 'var.' + snake(k)}")
        out.append("}")
    elif style < 0.75:
        for k, v, pub in c.pairs:
            if isref(v):
                continue
            out.append(f'variable "{snake(k)}" {{\n  type      = string\n  default   = {tf_str(v)}\n  sensitive = {"false" if pub else "true"}\n}}')
    else:
        out.append(f"# {pick(['terraform.tfvars', 'prod.auto.tfvars', 'env/' + pick(ENVS) + '.tfvars'])}")
        for k, v, _ in c.pairs:
            if not isref(v):
                out.append(f"{snake(k)} = {tf_str(v)}")
    return "\n".join(out)


def c_gha(c):
    out = [f"name: {pick(['deploy', 'ci', 'release', 'nightly', 'integration-tests'])}", "on:", f"  {pick(['push', 'workflow_dispatch', 'schedule'])}:" + ("" if chance(0.5) else "\n    branches: [main]"),
           "jobs:", f"  {pick(['deploy', 'build', 'test', 'publish'])}:", "    runs-on: ubuntu-latest", "    env:"]
    for k, v, _ in c.pairs:
        e = envname(k)
        out.append(f"      {e}: {'${{ secrets.' + e + ' }}' if isref(v) else yaml_val(v, 6)}")
    out += ["    steps:", "      - uses: actions/checkout@v4", f"      - run: {pick(['./scripts/deploy.sh', 'make test', 'npm ci && npm test', 'python -m pytest -q', 'terraform apply -auto-approve'])}"]
    return "\n".join(out)


def c_gitlab(c):
    out = []
    lits = [(k, v) for k, v, _ in c.pairs if not isref(v)]
    refs = [k for k, v, _ in c.pairs if isref(v)]
    if lits:
        out.append("variables:")
        for k, v in lits:
            out.append(f"  {envname(k)}: {yaml_val(v, 2)}")
        out.append("")
    job = pick(["deploy", "integration", "publish", "smoke"])
    out += [f"{job}:", f"  stage: {pick(['deploy', 'test', 'release'])}", f"  image: {pick(IMAGES)}", "  script:"]
    for k in refs:
        out.append(f"    - test -n \"${envname(k)}\"  # masked CI/CD variable")
    out.append(f"    - {pick(['./deploy.sh', 'make release', 'python scripts/sync.py', 'npm run e2e'])}")
    return "\n".join(out)


def c_curl(c):
    k, v = c.main()
    t = vtype(v)
    e = envname(k)
    val = f"${e}" if isref(v) else v
    host_ = c.host or f"api.{c.slug.split('-')[0]}.com"
    if t == "url" or (isref(v) and "URL" in e or isref(v) and "HOOK" in e):
        body = pick(['{"text":"deploy finished"}', '{"content":"nightly backup ok"}', '{"event":"build","status":"green"}'])
        return f"curl -sS -X POST -H 'Content-Type: application/json' \\\n  -d '{body}' \\\n  \"{val}\""
    if t == "conn":
        if v.startswith(("postgres", "postgresql")):
            return f"psql \"{val}\" -c 'select now();'"
        if v.startswith("mongodb"):
            return f"mongosh \"{val}\" --eval 'db.runCommand({{ping: 1}})'"
        if v.startswith(("redis", "rediss")):
            return f"redis-cli -u \"{val}\" PING"
        if v.startswith(("mysql", "mariadb")):
            return f"mysqlsh --uri \"{val}\" --sql -e 'select 1'"
        return f"# connectivity check\n{pick(['dbcheck', 'conncheck', './bin/ping-db'])} --dsn \"{val}\""
    pubs = [(pk, pv) for pk, pv in c.pubs() if not isref(pv) and vtype(pv) == "token"]
    path = pick(API_PATHS)
    if pubs and chance(0.6):
        u = pubs[0][1]
        return f"curl -s -u \"{u}:{val}\" https://{host_}{path}"
    if isref(v):
        hdr = pick(HDR_STYLES).format(v="$" + e)
        return f"curl -s -H \"{hdr}\" https://{host_}{path}"
    hdr = pick(HDR_STYLES).format(v=val)
    extra = pick(["", " -H 'Accept: application/json'", " --compressed", " -H 'Content-Type: application/json'"])
    return f"curl -s{pick(['', 'S', 'f'])} \"https://{host_}{path}\" \\\n  -H \"{hdr}\"{extra}"


def c_http(c):
    k, v = c.main()
    host_ = c.host or f"api.{c.slug.split('-')[0]}.com"
    method = pick(["GET", "GET", "POST"])
    if isref(v):
        hdr = pick(HDR_STYLES).format(v="{{" + camel(k) + "}}")
    else:
        hdr = pick(HDR_STYLES).format(v=v)
    out = [f"{method} {pick(API_PATHS)} HTTP/1.1", f"Host: {host_}", hdr, "Accept: application/json", f"User-Agent: {pick(UAS)}"]
    if method == "POST":
        out += ["Content-Type: application/json", "", json.dumps({"limit": R.randint(1, 50), "dry_run": True})]
    return "\n".join(out)


def c_python(c):
    st = R.random()
    out = []
    if c.comment:
        out.append("# " + c.comment)
    if any(isref(v) for _, v, _ in c.pairs) or chance(0.3):
        out.append("import os")
    if st < 0.35:
        out += [f"{envname(k)} = {code_val(v, 'py')}" for k, v, _ in c.pairs]
    elif st < 0.65:
        cls = pascal(c.slug.split("-")[0]) + pick(["Client", "", "API", "Session"])
        args = ",\n".join(f"    {short_key(k, c.slug)}={code_val(v, 'py')}" for k, v, _ in c.pairs)
        out.append(f"client = {c.skey.split('_')[0]}.{cls}(\n{args},\n)")
    elif st < 0.85:
        out.append(f"{pick(['SETTINGS', 'CONFIG', 'settings'])} = {{")
        out += [f"    \"{short_key(k, c.slug)}\": {code_val(v, 'py')}," for k, v, _ in c.pairs]
        out.append("}")
    else:
        for k, v, _ in c.pairs:
            if isref(v):
                out.append(f"{snake(k)} = {code_ref(v, 'py')}")
            else:
                out.append(f"os.environ[\"{envname(k)}\"] = {dq(v)}")
    return "\n".join(out)


def c_js(c):
    st = R.random()
    out = []
    if c.comment:
        out.append("// " + c.comment)
    if st < 0.3:
        out += [f"const {camel(k)} = {code_val(v, 'js')};" for k, v, _ in c.pairs]
    elif st < 0.6:
        cls = pascal(c.slug.split("-")[0])
        out.append(f"import {cls} from '{c.slug.split('-')[0]}';")
        out.append("")
        out.append(f"const client = new {cls}({{")
        out += [f"  {camel(short_key(k, c.slug))}: {code_val(v, 'js')}," for k, v, _ in c.pairs]
        out.append("});")
    elif st < 0.8:
        out.append("module.exports = {")
        out.append(f"  {camel(c.skey)}: {{")
        out += [f"    {camel(short_key(k, c.slug))}: {code_val(v, 'js')}," for k, v, _ in c.pairs]
        out.append("  },")
        out.append("};")
    else:
        out.append(f"export const {camel(c.skey)}Config: {pascal(c.skey)}Config = {{")
        out += [f"  {camel(short_key(k, c.slug))}: {code_val(v, 'js')}," for k, v, _ in c.pairs]
        out.append("};")
    return "\n".join(out)


def c_go(c):
    out = ["package config", ""]
    if any(isref(v) for _, v, _ in c.pairs):
        out += ['import "os"', ""]
    if c.comment:
        out.append("// " + c.comment)
    if chance(0.5) and not any(isref(v) for _, v, _ in c.pairs):
        out.append("const (")
        out += [f"\t{pascal(short_key(k, c.slug))} = {code_val(v, 'go')}" for k, v, _ in c.pairs]
        out.append(")")
    else:
        out.append(f"var {pascal(c.skey)} = {pascal(c.skey)}Config{{")
        out += [f"\t{pascal(short_key(k, c.slug))}: {code_val(v, 'go')}," for k, v, _ in c.pairs]
        out.append("}")
    return "\n".join(out)


def c_java(c):
    cls = pascal(c.skey) + pick(["Config", "Settings", "Credentials", "Constants"])
    out = [f"package com.{pick(COMP)}.{pick(['config', 'integration', 'infra'])};", "", f"public final class {cls} {{"]
    if c.comment:
        out.append(f"    // {c.comment}")
    for k, v, _ in c.pairs:
        out.append(f"    public static final String {envname(short_key(k, c.slug))} = {code_val(v, 'java')};")
    out.append("}")
    return "\n".join(out)


def c_kotlin(c):
    out = [f"object {pascal(c.skey)}Config {{"]
    for k, v, _ in c.pairs:
        if isref(v):
            out.append(f"    val {camel(short_key(k, c.slug))}: String = {code_ref(v, 'kt')} ?: \"\"")
        else:
            out.append(f"    const val {envname(short_key(k, c.slug))} = {code_val(v, 'kt')}")
    out.append("}")
    return "\n".join(out)


def c_ruby(c):
    out = []
    if c.comment:
        out.append("# " + c.comment)
    if chance(0.5):
        out.append(f"{pascal(c.slug.split('-')[0])}.configure do |config|")
        out += [f"  config.{short_key(k, c.slug)} = {code_val(v, 'rb')}" for k, v, _ in c.pairs]
        out.append("end")
    else:
        for k, v, _ in c.pairs:
            if isref(v):
                out.append(f"{envname(k)} = {code_ref(v, 'rb')}")
            else:
                out.append(f"ENV[\"{envname(k)}\"] ||= {code_val(v, 'rb')}")
    return "\n".join(out)


def c_php(c):
    out = ["<?php", ""]
    if chance(0.5):
        out.append("return [")
        out.append(f"    '{c.skey}' => [")
        out += [f"        '{short_key(k, c.slug)}' => {code_val(v, 'php')}," for k, v, _ in c.pairs]
        out.append("    ],")
        out.append("];")
    else:
        for k, v, _ in c.pairs:
            out.append(f"define('{envname(k)}', {code_val(v, 'php')});")
    return "\n".join(out)


def c_csharp(c):
    if chance(0.45):
        inner = {pascal(short_key(k, c.slug)): (v.cfg if isref(v) else v) for k, v, _ in c.pairs}
        obj = {"Logging": {"LogLevel": {"Default": "Information"}}, pascal(c.skey): inner}
        return "// appsettings." + pick(["Production", "Staging", "Development"]) + ".json\n" + json.dumps(obj, indent=2, ensure_ascii=False)
    out = [f"namespace {pascal(pick(COMP))}.{pick(['Integrations', 'Infrastructure', 'Config'])};", "", f"public static class {pascal(c.skey)}Options", "{"]
    for k, v, _ in c.pairs:
        kw = "static readonly" if isref(v) else "const"
        out.append(f"    public {kw} string {pascal(short_key(k, c.slug))} = {code_val(v, 'cs')};")
    out.append("}")
    return "\n".join(out)


def c_rust(c):
    out = []
    if c.comment:
        out.append("// " + c.comment)
    for k, v, _ in c.pairs:
        if isref(v):
            out.append(f"let {snake(short_key(k, c.slug))} = {code_ref(v, 'rs')};")
        else:
            out.append(f"const {envname(short_key(k, c.slug))}: &str = {code_val(v, 'rs')};")
    return "\n".join(out)


def c_swift(c):
    out = ["import Foundation", "", f"enum {pascal(c.skey)}Config {{"]
    for k, v, _ in c.pairs:
        out.append(f"    static let {camel(short_key(k, c.slug))} = {code_ref(v, 'swift') if isref(v) else dq(v)}")
    out.append("}")
    return "\n".join(out)


def c_notebook(c):
    src = []
    if any(isref(v) for _, v, _ in c.pairs):
        src.append("import os")
    for k, v, _ in c.pairs:
        src.append(f"{envname(k)} = {code_val(v, 'py')}")
    src.append(pick([f"client = {c.skey.split('_')[0]}.Client()", "resp = session.get(BASE_URL + '/status')", "df = load_table('events')", "print('ok')"]))
    n = R.randint(1, 40)
    if chance(0.45):
        return {"cell_type": "code", "execution_count": n, "metadata": {}, "outputs": [],
                "source": [s + "\n" for s in src[:-1]] + [src[-1]]}
    return f"In [{n}]:\n" + "\n".join(src)


def c_log(c):
    k, v = c.main()
    e = envname(k)
    t = ts()
    svc = pick(SVC)
    if isref(v):
        opts = [f"{t} INFO  [{svc}] loaded {e} from {v.desc} (len={R.randint(20, 90)})",
                f"{t} DEBUG [{svc}] config: {e}=<redacted>",
                f"{t} INFO  [{svc}] outbound request to https://{c.host or 'api.example.com'}{pick(API_PATHS)} Authorization: Bearer ****"]
        return pick(opts)
    opts = [f"{t} DEBUG [{svc}] config loaded: {e}={v}",
            f"{t} DEBUG urllib3.connectionpool: headers={{'Authorization': 'Bearer {v}', 'Accept': 'application/json'}}",
            json.dumps({"ts": t, "level": "debug", "svc": svc, "msg": "client init", snake(k): v}),
            f"[{t}] {svc}.1 | env {e}={v}",
            f"{t} WARN  [{svc}] retrying request (attempt {R.randint(2, 5)}) with {e}={v}"]
    return pick(opts)


def c_sql(c):
    tbl = pick(["integration_settings", "app_config", "provider_credentials", "settings", "tenant_integrations"])
    out = []
    for k, v, pub in c.pairs:
        if isref(v):
            out.append(f"INSERT INTO {tbl} (provider, name, secret_ref) VALUES ('{c.slug}', '{envname(k)}', {sql_q(v.cfg)});")
        else:
            out.append(f"INSERT INTO {tbl} (provider, name, value) VALUES ('{c.slug}', '{envname(k)}', {sql_q(v)});")
    if chance(0.3):
        out.insert(0, f"-- {pick(['seed data', 'migration ' + str(R.randint(100, 999)), 'restore after reset'])}")
    return "\n".join(out)


def c_runbook(c):
    out = [f"## {c.vendor} — {pick(['setup', 'rotation drill', 'local dev', 'staging access', 'integration'])}", ""]
    n = 1
    out.append(f"{n}. Open the {pick(PROJ)} repo and check out `{pick(['main', 'develop', 'release/' + str(R.randint(1, 9)) + '.x'])}`.")
    for k, v, _ in c.pairs:
        n += 1
        out.append(f"{n}. Set `{envname(k)}` {'to ' if not isref(v) else ''}{prose_val(v)}")
    n += 1
    out.append(f"{n}. {pick(['Restart the worker', 'Run the smoke test', 'Redeploy with `make deploy`', 'Verify with the health endpoint'])}.")
    return "\n".join(out)


def c_ticket(c):
    tk = ticket()
    out = [f"{tk}: {c.vendor} {pick(['integration returns 401 in staging', 'calls timing out', 'webhook not firing', 'sync job failing', 'migrate to new account'])}",
           "", f"Reporter: {person()}", f"Env: {pick(ENVS)}", "", "Current config:"]
    for k, v, _ in c.pairs:
        out.append(f"  {envname(k)}: {prose_val(v)}" if isref(v) else f"  {envname(k)}={v}" if "\n" not in v else f"  {envname(k)}:{prose_val(v)}")
    out += ["", pick(["Please take a look.", "Repro: run the nightly job manually.", "Blocking the release.", "Low priority."])]
    return "\n".join(out)


def c_chat(c):
    a, b = pick(FIRST), pick(FIRST)
    out = [f"[{hhmm()}] {a}: {pick(['what are the', 'can you send me the', 'where do I find the', 'need the'])} {c.vendor} settings for {pick(ENVS)}?"]
    parts = []
    for k, v, _ in c.pairs:
        if isref(v):
            parts.append(f"{envname(k)} is {prose_val(v)}")
        else:
            parts.append(f"{envname(k)}={v}" if "\n" not in v else f"{envname(k)}:{prose_val(v)}")
    out.append(f"[{hhmm()}] {b}: " + ("\n".join(parts) if len(parts) > 1 else parts[0]))
    if chance(0.5):
        out.append(f"[{hhmm()}] {a}: {pick(['thanks!', 'ty', 'got it', 'perfect, thx'])}")
    return "\n".join(out)


def c_powershell(c):
    out = []
    for k, v, _ in c.pairs:
        e = envname(k)
        if isref(v):
            out.append(f"$env:{e} = {code_ref(v, 'ps')}")
        elif chance(0.7):
            out.append(f"$env:{e} = {dq(v)}")
        else:
            out.append(f"[Environment]::SetEnvironmentVariable({dq(e)}, {dq(v)}, 'User')")
    if chance(0.4):
        out.append(pick([".\\deploy.ps1 -Environment Production", "dotnet run --project src/Api", "Start-Service MyAppWorker"]))
    return "\n".join(out)


def c_systemd(c):
    out = ["[Unit]", f"Description={pick(PROJ)} {pick(SVC)}", "After=network-online.target", "", "[Service]",
           f"ExecStart=/opt/{pick(PROJ)}/bin/{pick(SVC)}", f"User={pick(['app', 'svc', 'www-data', 'deploy'])}"]
    for k, v, _ in c.pairs:
        e = envname(k)
        if isref(v):
            if v.store == "file":
                out.append(f"LoadCredential={snake(k)}:/etc/credstore/{snake(k)}")
            else:
                out.append(f"EnvironmentFile=-/etc/{pick(PROJ)}/{snake(k)}.env")
        else:
            out.append(f'Environment="{e}={v}"')
    out += ["Restart=on-failure", "", "[Install]", "WantedBy=multi-user.target"]
    return "\n".join(out)


def c_ansible(c):
    out = ["---"]
    if c.comment:
        out.append("# " + c.comment)
    for k, v, _ in c.pairs:
        var = f"{c.skey}_{short_key(k, c.slug)}"
        if isref(v):
            val = pick([f"\"{{{{ lookup('env', '{envname(k)}') }}}}\"", f"\"{{{{ vault_{var} }}}}\"",
                        f"\"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/{c.slug}:{snake(k)}') }}}}\""])
            out.append(f"{var}: {val}")
        else:
            out.append(f"{var}: {yaml_val(v, 0)}")
    return "\n".join(out)


def c_xml(c):
    if chance(0.5):
        out = ["<configuration>", "  <appSettings>"]
        for k, v, _ in c.pairs:
            val = ("${env." + envname(k) + "}") if isref(v) and v.store == "env" else (v.cfg if isref(v) else v)
            out.append(f'    <add key="{pascal(c.skey)}:{pascal(short_key(k, c.slug))}" value="{xml_esc(val)}" />')
        out += ["  </appSettings>", "</configuration>"]
        return "\n".join(out)
    out = ["<settings>", "  <servers>", "    <server>", f"      <id>{c.slug}</id>"]
    for k, v, _ in c.pairs:
        val = ("${env." + envname(k) + "}") if isref(v) else v
        out.append(f"      <{camel(short_key(k, c.slug))}>{xml_esc(val)}</{camel(short_key(k, c.slug))}>")
    out += ["    </server>", "  </servers>", "</settings>"]
    return "\n".join(out)


def c_docker_run(c):
    parts = ["docker run -d --name " + pick(PROJ)]
    for k, v, _ in c.pairs:
        e = envname(k)
        if isref(v):
            parts.append(f"-e {e}")
        else:
            parts.append(f"-e {e}={sh_q(v)}")
    parts.append(f"{pick(['ghcr.io', 'docker.io'])}/{pick(COMP)}/{pick(PROJ)}:{pick(['latest', '1.2.0', 'main'])}")
    return " \\\n  ".join(parts)


def c_kubectl(c):
    name = f"{c.slug}-credentials"
    parts = [f"kubectl create secret generic {name} -n {pick(['default', 'prod', 'staging', pick(PROJ)])}"]
    for k, v, _ in c.pairs:
        if isref(v):
            parts.append(f"--from-file={snake(k)}=./secrets/{snake(k)}.txt")
        else:
            parts.append(f"--from-literal={snake(k)}={sh_q(v)}")
    return " \\\n  ".join(parts)


def c_paas_cli(c):
    tool = pick(["heroku", "fly", "gh", "railway", "doppler"])
    out = []
    for k, v, _ in c.pairs:
        e = envname(k)
        if isref(v):
            out.append({"heroku": f"heroku config:unset {e}_OLD -a {pick(PROJ)}",
                        "fly": f"fly secrets import -a {pick(PROJ)} < secrets.env",
                        "gh": f"gh secret set {e} < ./secrets/{snake(k)}.txt",
                        "railway": f"railway variables --set {e}=${{{{shared.{e}}}}}",
                        "doppler": f"doppler secrets get {e} --plain > /dev/null && echo present"}[tool])
        else:
            out.append({"heroku": f"heroku config:set {e}={sh_q(v)} -a {pick(PROJ)}",
                        "fly": f"fly secrets set {e}={sh_q(v)} -a {pick(PROJ)}",
                        "gh": f"gh secret set {e} --body {sh_q(v)}",
                        "railway": f"railway variables --set {e}={sh_q(v)}",
                        "doppler": f"doppler secrets set {e}={sh_q(v)} --project {pick(PROJ)} --config {pick(['prd', 'stg', 'dev'])}"}[tool])
    return "\n".join(out)


def c_csv(c):
    out = ["service,variable,value,updated"]
    for k, v, _ in c.pairs:
        val = ("ref:" + v.cfg) if isref(v) else v
        if "," in val or '"' in val or "\n" in val:
            val = '"' + val.replace('"', '""') + '"'
        out.append(f"{c.slug},{envname(k)},{val},{date()}")
    return "\n".join(out)


def c_mdtable(c):
    out = [f"### {c.vendor}", "", "| Variable | Value | Notes |", "|---|---|---|"]
    for k, v, pub in c.pairs:
        val = f"see {v.desc}" if isref(v) else f"`{v}`"
        out.append(f"| `{envname(k)}` | {val} | {pick(['', pick(ENVS), 'required', 'optional', 'server-side only'])} |")
    return "\n".join(out)


def c_nginx(c):
    k, v = c.main()
    host_ = c.host or f"api.{c.slug.split('-')[0]}.com"
    if isref(v):
        line = f"    include /etc/nginx/secrets/{c.slug}.conf;  # sets $upstream_auth"
        hdr = '    proxy_set_header Authorization $upstream_auth;'
    else:
        line = None
        hdr = f'    proxy_set_header {pick(["Authorization", "X-API-Key"])} "{pick(["Bearer ", ""])}{v}";'
    out = [f"location /{pick(['upstream', 'proxy', 'ext', c.skey])}/ {{"]
    if line:
        out.append(line)
    out += [hdr, f"    proxy_pass https://{host_}/;", "    proxy_ssl_server_name on;", "}"]
    return "\n".join(out)


# name -> (fn, allowed main-value types, weight)
ALL_T = ("token", "url", "conn", "multi", "ref")
CONTAINERS = [
    ("dotenv", c_dotenv, ALL_T, 10),
    ("shell", c_shell, ALL_T, 6),
    ("yaml", c_yaml, ALL_T, 6),
    ("json", c_json, ALL_T, 5),
    ("toml", c_toml, ALL_T, 3),
    ("ini", c_ini, ("token", "url", "conn", "ref"), 3),
    ("properties", c_properties, ALL_T, 3),
    ("dockerfile", c_dockerfile, ("token", "url", "conn", "ref"), 3),
    ("compose", c_compose, ALL_T, 4),
    ("kubernetes", c_k8s, ALL_T, 5),
    ("helm", c_helm, ALL_T, 3),
    ("terraform", c_terraform, ALL_T, 4),
    ("github-actions", c_gha, ALL_T, 3),
    ("gitlab-ci", c_gitlab, ALL_T, 3),
    ("curl", c_curl, ("token", "url", "conn", "ref"), 6),
    ("http", c_http, ("token", "ref"), 3),
    ("python", c_python, ALL_T, 6),
    ("javascript", c_js, ALL_T, 5),
    ("go", c_go, ALL_T, 3),
    ("java", c_java, ALL_T, 2),
    ("kotlin", c_kotlin, ALL_T, 1),
    ("ruby", c_ruby, ALL_T, 2),
    ("php", c_php, ALL_T, 2),
    ("csharp", c_csharp, ALL_T, 2),
    ("rust", c_rust, ALL_T, 1),
    ("swift", c_swift, ALL_T, 1),
    ("notebook", c_notebook, ALL_T, 2),
    ("log", c_log, ("token", "url", "conn", "ref"), 4),
    ("sql", c_sql, ("token", "url", "conn", "ref"), 2),
    ("runbook", c_runbook, ALL_T, 3),
    ("ticket", c_ticket, ALL_T, 3),
    ("chat", c_chat, ALL_T, 4),
    ("powershell", c_powershell, ("token", "url", "conn", "ref"), 2),
    ("systemd", c_systemd, ("token", "url", "conn", "ref"), 2),
    ("ansible", c_ansible, ALL_T, 2),
    ("xml", c_xml, ("token", "url", "conn", "ref"), 2),
    ("docker-run", c_docker_run, ("token", "url", "conn", "ref"), 2),
    ("kubectl", c_kubectl, ("token", "url", "conn", "ref"), 2),
    ("paas-cli", c_paas_cli, ("token", "url", "conn", "ref"), 2),
    ("csv", c_csv, ("token", "url", "conn", "ref"), 1),
    ("markdown-table", c_mdtable, ("token", "url", "conn", "ref"), 1),
    ("nginx", c_nginx, ("token", "ref"), 1),
]


def choose_container(main_type):
    opts = [(n, f, w) for n, f, ts_, w in CONTAINERS if main_type in ts_]
    tot = sum(w for _, _, w in opts)
    x = R.random() * tot
    for n, f, w in opts:
        x -= w
        if x <= 0:
            return n, f
    return opts[-1][0], opts[-1][1]


def render_container(ctx):
    k, v = ctx.main()
    t = vtype(v)
    if any(vtype(pv) == "multi" for _, pv, _ in ctx.pairs):
        t = "multi" if not isref(v) else t
    name, fn = choose_container(t)
    return name, fn(ctx)


# --- cookie containers (session category, both labels) -----------------------
def cookie_render(name, value, host_, other=None):
    other = other or []
    jar = "; ".join([f"{n}={v}" for n, v in other] + [f"{name}={value}"])
    st = R.randint(0, 7)
    if st == 0:
        return "cookie", f"curl -s -b '{jar}' https://{host_}{pick(['/', '/dashboard', '/api/me', '/settings'])}"
    if st == 1:
        return "cookie", f"GET {pick(['/', '/account', '/api/v1/me'])} HTTP/1.1\nHost: {host_}\nCookie: {jar}\nUser-Agent: Mozilla/5.0"
    if st == 2:
        exp = R.randint(1_760_000_000, 1_800_000_000)
        lines = ["# Netscape HTTP Cookie File"] + [f".{host_}\tTRUE\t/\tTRUE\t{exp}\t{n}\t{v}" for n, v in other + [(name, value)]]
        return "cookie", "\n".join(lines)
    if st == 3:
        return "cookie", f"document.cookie = \"{name}={value}; path=/; secure\";"
    if st == 4:
        d = {n: v for n, v in other}
        d[name] = value
        return "cookie", f"cookies = {json.dumps(d, ensure_ascii=False)}\nr = requests.get(\"https://{host_}/\", cookies=cookies)"
    if st == 5:
        return "cookie", {"log": {"entries": [{"request": {"method": "GET", "url": f"https://{host_}/", "cookies": [{"name": n, "value": v} for n, v in other + [(name, value)]]}}]}}
    if st == 6:
        return "cookie", f"[{hhmm()}] {pick(FIRST)}: copied from devtools → Application → Cookies on {host_}:\n{name} = {value}"
    return "cookie", f"set-cookie: {name}={value}; Path=/; {pick(['HttpOnly; Secure', 'Secure; SameSite=Lax', 'HttpOnly; SameSite=Strict'])}"


# ---------------------------------------------------------------------------
# record helpers
# ---------------------------------------------------------------------------
RECORDS = []
_SEEN_VALUES = {}


def canon(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def add(label, variant, kind, value, topic, fmt="text"):
    """Register a record; returns False (and drops it) if the value is a duplicate."""
    assert label in ("secret", "benign") and variant in ("plain", "hard")
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", kind), kind
    c = canon(value)
    if c in _SEEN_VALUES:
        return False
    _SEEN_VALUES[c] = True
    RECORDS.append({"label": label, "variant": variant, "kind": kind, "value": value, "topic": topic, "fmt": fmt})
    return True


NEUTRAL_TOPICS = PROJ + ["infra", "ops", "dev setup", "misc", "homelab", "work", "ci", "backend", "migration", "onboarding",
                         "staging", "prod", "old laptop", "team wiki", "handover", "weekend project", "client project"]


def neutral_topic():
    return pick(NEUTRAL_TOPICS)


def produce(n, fn):
    """Call fn until it has added n records (fn returns True when it added one)."""
    made = 0
    guard = 0
    while made < n:
        guard += 1
        assert guard < n * 50, fn
        if fn():
            made += 1


NONAUTH_COOKIES = [
    lambda: ("_ga", f"GA1.2.{R.randint(100000000, 999999999)}.{R.randint(1600000000, 1760000000)}"),
    lambda: ("_gid", f"GA1.2.{R.randint(100000000, 999999999)}.{R.randint(1700000000, 1760000000)}"),
    lambda: ("theme", pick(["dark", "light", "system"])),
    lambda: ("lang", pick(["en-US", "de-DE", "fr-FR", "ja-JP", "pt-BR"])),
    lambda: ("cookieconsent_status", pick(["dismiss", "allow", "deny"])),
    lambda: ("tz", pick(["Europe%2FBerlin", "America%2FChicago", "Asia%2FTokyo", "UTC"])),
    lambda: ("sidebar_collapsed", pick(["true", "false"])),
    lambda: ("_fbp", f"fb.1.{R.randint(1700000000000, 1760000000000)}.{R.randint(100000000, 999999999)}"),
    lambda: ("ab_bucket", pick(["A", "B", "control", "variant-2"])),
    lambda: ("recently_viewed", ",".join(str(R.randint(1000, 99999)) for _ in range(R.randint(1, 4)))),
]


def nonauth_cookies(k=None):
    k = R.randint(0, 3) if k is None else k
    return [pick(NONAUTH_COOKIES)() for _ in range(k)]


# ---------------------------------------------------------------------------
# SECRET 1: vendor / provider credentials in many containers
# ---------------------------------------------------------------------------
def vendor_pairs(v):
    pairs = []
    for k, t, pub in v["pairs"]:
        if pub and chance(0.2):
            continue
        pairs.append((k, expand(t), pub))
    return pairs


def vendor_secret_record(v):
    pairs = vendor_pairs(v)
    host_ = expand(v["host"]) if v["host"] else ""
    cmt = neutral_comment(v["disp"]) if chance(0.25) else None
    if v["cat"] == "session" and not pairs[-1][0].startswith("JUPYTER"):
        k, val, _ = pairs[-1]
        fmt, body = cookie_render(k, val, host_, nonauth_cookies())
    else:
        fmt, body = render_container(Ctx(pairs, v["disp"], v["slug"], host_, v["cat"], cmt))
    # by construction: at least one credential value must survive rendering verbatim
    text = body if isinstance(body, str) else canon(body)
    probes = [max(re.findall(r"[A-Za-z0-9]+", val) or [""], key=len)[:16] for _, val, pub in pairs if not pub]
    assert any(len(p) < 5 or p in text for p in probes), (v["slug"], fmt)
    return add("secret", "plain", "vendor-" + v["cat"], body, v["disp"], fmt)


POPULAR = ["aws", "stripe", "github-classic", "github-fine", "openai", "anthropic", "slack-bot", "slack-webhook",
           "postgres", "mysql", "mongodb-atlas", "redis", "sendgrid", "twilio", "gcp-sa", "azure-ad", "gitlab",
           "npm", "dockerhub", "datadog", "huggingface", "discord-bot", "telegram", "ssh-rsa-key", "openssh-key",
           "pkcs8-key", "mailgun-v2", "shopify", "digitalocean", "cloudflare", "vault", "okta", "auth0",
           "internal-jwt", "django-session", "binance", "eth-privkey", "tailscale", "sentry", "pypi"]


def gen_vendor_secrets(extra):
    vs = list(VENDORS)
    R.shuffle(vs)
    for v in vs:
        produce(1, lambda v=v: vendor_secret_record(v))
    by_slug = {v["slug"]: v for v in VENDORS}
    pool = [by_slug[s] for s in POPULAR]
    produce(extra, lambda: vendor_secret_record(pick(pool)))


# ---------------------------------------------------------------------------
# SECRET 2: passwords and passphrases (config lines, CLI, connection strings,
# dotfiles, device configs, prose) + a few personal secrets
# ---------------------------------------------------------------------------
XLAT7 = "dsfd;kfoA,.iyewrkldJKDHSUBsgvca69834ncxv9873254k;fg87"


def cisco7(pw):
    seed = R.randint(0, 15)
    return f"{seed:02d}" + "".join(f"{ord(ch) ^ ord(XLAT7[(seed + i) % len(XLAT7)]):02X}" for i, ch in enumerate(pw))


def P(space=False):
    return gen_pw(allow_space=space)


def pw_cfg():
    p, u, h, d = P(), user(), host("db"), dbname()
    return pick([
        ("ini", f"[database]\nhost = {h}\nport = 5432\nname = {d}\nuser = {u}\npassword = {p}"),
        ("yaml", f"database:\n  host: {h}\n  port: 3306\n  username: {u}\n  password: {dq(p)}\n  database: {d}"),
        ("properties", f"spring.datasource.url=jdbc:postgresql://{h}:5432/{d}\nspring.datasource.username={u}\nspring.datasource.password={p}"),
        ("dotenv", f"DB_HOST={h}\nDB_USER={u}\nDB_PASSWORD={env_val(p)}\nDB_NAME={d}"),
        ("compose", f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: {u}\n      POSTGRES_PASSWORD: {dq(p)}\n      POSTGRES_DB: {d}"),
        ("compose", f"services:\n  mysql:\n    image: mysql:8.4\n    environment:\n      - MYSQL_ROOT_PASSWORD={p}\n      - MYSQL_DATABASE={d}"),
        ("redis-conf", f"bind 0.0.0.0\nport 6379\nrequirepass {p}\nmaxmemory 512mb"),
        ("redis-conf", f"replicaof {priv_ip()} 6379\nmasterauth {p}"),
        ("keepalived", f"vrrp_instance VI_1 {{\n    state MASTER\n    interface eth0\n    virtual_router_id {R.randint(10, 99)}\n    authentication {{\n        auth_type PASS\n        auth_pass {p[:8]}\n    }}\n}}"),
        ("bitcoin-conf", f"server=1\nrpcuser={u}\nrpcpassword={p}\nrpcallowip=127.0.0.1"),
        ("pgbouncer", f"; userlist.txt\n\"{u}\" \"{p}\""),
        ("xml", f"<server>\n  <id>{pick(['nexus-releases', 'internal-repo', 'artifactory'])}</id>\n  <username>{u}</username>\n  <password>{xml_esc(p)}</password>\n</server>"),
        ("django", f"DATABASES = {{\n    'default': {{\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': '{d}',\n        'USER': '{u}',\n        'PASSWORD': {dq(p)},\n        'HOST': '{h}',\n    }}\n}}"),
        ("php", f"$db_config = [\n    'host' => '{h}',\n    'user' => '{u}',\n    'pass' => {sq_php(p)},\n    'name' => '{d}',\n];"),
        ("wp-config", f"define( 'DB_NAME', '{d}' );\ndefine( 'DB_USER', '{u}' );\ndefine( 'DB_PASSWORD', {sq_php(p)} );\ndefine( 'DB_HOST', '{h}' );"),
        ("hibernate", f"<property name=\"hibernate.connection.username\">{u}</property>\n<property name=\"hibernate.connection.password\">{xml_esc(p)}</property>"),
        ("appsettings", json.dumps({"ConnectionStrings": {"Default": f"Host={h};Database={d};Username={u};Password={p}"}}, indent=2)),
        ("grafana-ini", f"[security]\nadmin_user = admin\nadmin_password = {p}"),
        ("jenkins-casc", f"jenkins:\n  securityRealm:\n    local:\n      users:\n        - id: {u}\n          password: {dq(p)}"),
        ("rabbitmq-conf", f"default_user = {u}\ndefault_pass = {p}\nlisteners.tcp.default = 5672"),
        ("mosquitto", f"connection bridge-{pick(PROJ)}\naddress {host('mq')}:8883\nremote_username {u}\nremote_password {p}"),
        ("gradle", f"systemProp.http.proxyUser={u}\nsystemProp.http.proxyPassword={p}\nsigning.password={P()}"),
        ("ansible-inventory", f"[db]\n{h} ansible_user={u} ansible_password={p} ansible_become_pass={P()}"),
        ("terraform", f"resource \"aws_db_instance\" \"main\" {{\n  engine   = \"postgres\"\n  username = \"{u}\"\n  password = {dq(p)}\n}}"),
    ])


def pw_cli():
    p, u, h, d = P(), user(), host("db"), dbname()
    hp = gen_pwu()
    return pick([
        f"sshpass -p {sh_q(p)} ssh {u}@{priv_ip()}",
        f"mysql -h {h} -u {u} -p{sh_q(p)} {d}",
        f"mysqldump -u root --password={sh_q(p)} {d} > {d}-{date()}.sql",
        f"PGPASSWORD={sh_q(p)} psql -h {h} -U {u} -d {d}",
        f"psql \"postgresql://{u}:{hp}@{h}:5432/{d}?sslmode=require\"",
        f"mongosh \"mongodb://{u}:{hp}@{h}:27017/{d}?authSource=admin\"",
        f"redis-cli -h {h} -p 6379 -a {sh_q(p)} --no-auth-warning INFO",
        f"curl -u {u}:{sh_q(p)} https://{host('app')}/api/v1/status",
        f"wget --user={u} --password={sh_q(p)} https://files.{domain()}/exports/{date()}.tar.gz",
        f"docker login {pick(['registry.', 'harbor.', 'nexus.'])}{domain()} -u {u} -p {sh_q(p)}",
        f"htpasswd -b -c /etc/nginx/.htpasswd {u} {sh_q(p)}",
        f"keytool -genkeypair -alias upload -keyalg RSA -keystore release.jks -storepass {sh_q(p)} -keypass {sh_q(p)}",
        f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{sh_q(p)}",
        f"smbclient //{hostname()}/share -U {u}%{sh_q(p)}",
        f"net use Z: \\\\{hostname()}\\backups /user:CORP\\{u} {p}",
        f"xfreerdp /v:{priv_ip()} /u:{u} /p:{sh_q(p)} /cert:ignore",
        f"lftp -u {u},{sh_q(p)} sftp://{host('app')}",
        f"git clone https://{u}:{hp}@git.{domain()}/{pick(TEAMS)}/{pick(PROJ)}.git",
        f"ldapsearch -x -H ldaps://ldap.{domain()} -D \"cn={u},dc={pick(COMP)},dc=com\" -w {sh_q(p)} -b \"dc={pick(COMP)},dc=com\"",
        f"sqlcmd -S {h} -U sa -P {sh_q(p)} -Q \"SELECT @@VERSION\"",
        f"sqlplus {u}/{hp}@{h}:1521/ORCLPDB1",
        f"rabbitmqctl add_user {u} {sh_q(p)}",
        f"ansible-playbook site.yml -e \"ansible_become_pass={p}\"",
        f"vault login -method=userpass username={u} password={sh_q(p)}",
        f"az login -u {email()} -p {sh_q(p)}",
        f"echo {sh_q(p)} | sudo -S apt-get -y upgrade",
        f"zip -P {sh_q(p)} exports.zip *.csv",
        f"7z a -p{sh_q(p)} -mhe=on backup-{date()}.7z ./data",
        f"gpg --batch --yes --passphrase {sh_q(pw_phrase())} -c secrets.tar",
        f"ssh-keygen -t ed25519 -N {sh_q(pw_phrase())} -f ~/.ssh/id_{pick(PROJ).replace('-', '_')}",
        f"mount -t cifs //{hostname()}/media /mnt/media -o username={u},password={p},uid=1000",
        f"kubectl create secret generic db-pass --from-literal=password={sh_q(p)}",
        f"helm upgrade --install pg bitnami/postgresql --set auth.postgresPassword={sh_q(p)}",
        f"terraform apply -var 'db_password={p}'",
        f"aws rds create-db-instance --db-instance-identifier {pick(PROJ)} --engine postgres --master-username {u} --master-user-password {sh_q(p)}",
        f"gcloud sql users set-password root --host=% --instance={pick(PROJ)} --password={sh_q(p)}",
        f"az sql server create -n {pick(PROJ)}-sql -g rg-{pick(PROJ)} -u {u} -p {sh_q(p)}",
        f"influx -username {u} -password {sh_q(p)} -execute 'SHOW DATABASES'",
        f"java -jar jenkins-cli.jar -s https://jenkins.{domain()}/ -auth {u}:{p} who-am-i",
        f"pg_dump \"host={h} user={u} password={hp} dbname={d}\" > dump.sql",
    ])


def pw_dotfile():
    p, u, h = P(), user(), host("app")
    hp = gen_pwu()
    return pick([
        ("netrc", f"machine {h}\n  login {u}\n  password {p}"),
        ("netrc", f"machine api.{domain()} login {u} password {p}\nmachine files.{domain()} login {user()} password {P()}"),
        ("pgpass", f"{host('db')}:5432:{dbname()}:{u}:{p}"),
        ("my-cnf", f"[client]\nuser={u}\npassword={p}\nhost={host('db')}"),
        ("git-credentials", f"https://{u}:{hp}@git.{domain()}"),
        ("pypirc", f"[distutils]\nindex-servers = internal\n\n[internal]\nrepository = https://pypi.{domain()}/\nusername = {u}\npassword = {p}"),
        ("pip-conf", f"[global]\nindex-url = https://{u}:{hp}@nexus.{domain()}/repository/pypi/simple"),
        ("npmrc", f"registry=https://npm.{domain()}/\n//npm.{domain()}/:_auth={b64(u + ':' + p)}\nalways-auth=true"),
        ("npmrc", f"//npm.{domain()}/:username={u}\n//npm.{domain()}/:_password={b64(p)}"),
        ("muttrc", f"set smtp_url = \"smtps://{u}@smtp.{domain()}:465/\"\nset smtp_pass = \"{p}\"\nset imap_pass = \"{p}\""),
        ("msmtprc", f"account default\nhost smtp.{domain()}\nport 587\nauth on\nuser {email()}\npassword {p}\ntls on"),
        ("fetchmailrc", f"poll imap.{domain()} protocol IMAP user \"{u}\" password \"{p}\" ssl"),
        ("offlineimaprc", f"[Repository Remote]\ntype = IMAP\nremotehost = imap.{domain()}\nremoteuser = {email()}\nremotepass = {p}"),
        ("smb-credentials", f"username={u}\npassword={p}\ndomain=CORP"),
        ("fstab", f"//{hostname()}/share  /mnt/share  cifs  username={u},password={p},uid=1000,gid=1000  0  0"),
        ("openvpn-auth", f"# /etc/openvpn/auth.txt\n{u}\n{p}"),
        ("wpa-supplicant", f"network={{\n    ssid=\"{pick(COMP).title()}-{pick(['Guest', 'Office', 'Staff', '5G'])}\"\n    psk=\"{P(True)}\"\n    key_mgmt=WPA-PSK\n}}"),
        ("hostapd", f"interface=wlan0\nssid={pick(COMP)}-iot\nwpa=2\nwpa_passphrase={p}\nwpa_key_mgmt=WPA-PSK"),
        ("networkmanager", f"[wifi]\nssid={pick(COMP).title()}Home\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk={P(True)}"),
        ("s3cfg", f"[default]\nhost_base = s3.{domain()}\nuse_https = True\naccess_key = {user()}\nsecret_key = {p}"),
        ("rclone", f"[nas]\ntype = webdav\nurl = https://{hostname()}.local/dav\nvendor = other\nuser = {u}\npass_plain = {p}"),
        ("docker-config", json.dumps({"auths": {f"registry.{domain()}": {"username": u, "password": p}}}, indent=2)),
        ("gitconfig", f"[http \"https://git.{domain()}\"]\n    extraHeader = Authorization: Basic {b64(u + ':' + p)}"),
        ("ssh-config", f"Host {hostname()}\n    HostName {priv_ip()}\n    User {u}\n    # password: {p}"),
        ("composer-auth", json.dumps({"http-basic": {f"repo.{domain()}": {"username": u, "password": p}}}, indent=4)),
        ("gradle-properties", f"artifactoryUser={u}\nartifactoryPassword={p}"),
        ("cargo-credentials", f"[registries.internal]\ntoken = \"{p}\""),
    ])


def pw_network():
    p = gen_pw()
    p2 = pw_random(10, 16)
    comm = pick(["", "noc-", "mon-"]) + rs("m", R.randint(10, 16))
    u = pick(["admin", "netops", "ops", "backup", user()])
    return pick([
        f"hostname {hostname()}\n!\nenable secret 0 {p}\nusername {u} privilege 15 password 0 {p2}",
        f"username {u} privilege 15 secret 0 {p}",
        f"snmp-server community {comm} RW\nsnmp-server location {pick(['Rack 4', 'DC-FRA1', 'Closet B2'])}",
        f"line vty 0 4\n password 7 {cisco7(p2)}\n login\n transport input ssh",
        f"enable password 7 {cisco7(p2)}",
        f"tacacs-server host {priv_ip()} key 0 {p}",
        f"radius-server host {priv_ip()} auth-port 1812 acct-port 1813 key {p}",
        f"crypto isakmp key {p} address {doc_ip()}",
        f"interface GigabitEthernet0/1\n ip ospf message-digest-key 1 md5 {p2}",
        f"router bgp 65{R.randint(100, 999)}\n neighbor {doc_ip()} remote-as 65{R.randint(100, 999)}\n neighbor {doc_ip()} password {p}",
        f"set protocols bgp group upstream authentication-key \"{p}\"",
        f"set snmp community {comm} authorization read-write",
        f"/user add name={u} password={p} group=full",
        f"config system admin\n    edit \"{u}\"\n        set accprofile \"super_admin\"\n        set password {p}\n    next\nend",
        f"set system login user {u} authentication plaintext-password {p}",
        f"mgmt-user {u} root {p}",
        f"password manager user-name {u} plaintext {p}",
        f"conn site-to-site\n    left=%defaultroute\n    right={doc_ip()}\n    authby=secret\n# ipsec.secrets\n%any {doc_ip()} : PSK \"{p}\"",
        f"[Interface]\nAddress = 10.8.0.{R.randint(2, 250)}/24\nPrivateKey = {b64(rb(32))}\n\n[Peer]\nPublicKey = {b64(rb(32))}\nPresharedKey = {b64(rb(32))}\nEndpoint = {doc_ip()}:51820\nAllowedIPs = 0.0.0.0/0",
        f"ppp_secret: \"{u}\" * \"{p}\" *",
        f"# chap-secrets\n{u}  *  {p}  *",
    ])


PLACES = ["office", "warehouse", "studio", "cabin", "lab", "co-working space", "parents' place", "beach house", "garage"]


def pw_prose():
    p = P(True)
    u = user()
    return pick([
        f"The wifi password at the {pick(PLACES)} is {p}",
        f"root password for {hostname()}: {p}",
        f"My {pick(['Jira', 'NAS', 'Proxmox', 'Grafana', 'router', 'pfSense', 'Synology', 'Jenkins', 'vCenter'])} login is {u} / {p}",
        f"admin panel creds: {u} / {p}",
        f"NAS admin pw changed to {p} on {date()}",
        f"Router admin at http://192.168.{R.randint(0, 2)}.1 -> user admin, pass {p}",
        f"BIOS supervisor password on the {pick(['ThinkPad', 'Dell', 'HP EliteBook', 'build box'])} is {p}",
        f"LUKS passphrase for the {pick(['backup disk', 'laptop', 'external SSD'])}: {pw_phrase(R.randint(5, 7), pick([' ', '-']))}",
        f"GPG key passphrase (the {pick(['work', 'signing', 'release'])} key): {pw_phrase(R.randint(4, 6), ' ')}",
        f"Keystore password for the Android release build: {p}",
        f"The zip with the {pick(['exports', 'invoices', 'payroll files', 'DB dump'])} is protected with {p}",
        f"vpn login {u} pw {p}",
        f"{pick(FIRST).title()} set the shared {pick(['staging', 'demo', 'training'])} account password to {p}",
        f"For the {pick(['conference', 'hotel', 'client site'])} wifi: network {pick(COMP).title()}-Guest, passphrase {p}",
        f"Password for the {pick(['Plex', 'Nextcloud', 'Home Assistant', 'UniFi'])} admin user is {p} (changed after the upgrade)",
        f"Database superuser: postgres / {p}",
        f"old password was {P()}, new one is {p}",
        f"KeePass master password: {pw_phrase(R.randint(5, 6), pick([' ', '-', '.']))}",
        f"Bitwarden master password hint is useless, actual password: {pw_phrase(5, pick(['-', ' ']))}",
        f"Password for the ESXi host {hostname()} is {p}",
    ])


def pw_personal():
    r = R.random()
    if r < 0.18:
        return "gate-code", pick([f"Gate code for the building: {R.randint(1000, 9999)}#", f"Community gate keypad: *{R.randint(1000, 99999)}",
                                  f"Side gate code is {R.randint(100000, 999999)} (changes in {pick(['June', 'January', 'spring'])})"])
    if r < 0.34:
        return "alarm-code", pick([f"Alarm disarm code: {R.randint(1000, 9999)}", f"House alarm code {R.randint(1000, 99999)}, duress code {R.randint(1000, 9999)}",
                                   f"Office alarm: enter {R.randint(1000, 9999)} then OFF within 30s"])
    if r < 0.48:
        return "door-code", pick([f"Front door keypad code {R.randint(1000, 999999)}", f"Lockbox code for the rental: {R.randint(1000, 9999)}",
                                  f"Server room door PIN: {R.randint(10000, 999999)}"])
    if r < 0.58:
        return "safe-combination", f"Safe combination: {R.randint(1, 99):02d}-{R.randint(1, 99):02d}-{R.randint(1, 99):02d}"
    if r < 0.7:
        return "sim-pin", pick([f"SIM PIN {R.randint(1000, 9999)}, PUK {R.randint(10000000, 99999999)}",
                                f"New phone SIM: PIN {R.randint(1000, 9999)} / PUK {R.randint(10000000, 99999999)}"])
    if r < 0.8:
        return "card-pin", f"PIN for the {pick(['debit card', 'company card', 'fuel card', 'Visa'])} ending {R.randint(1000, 9999)}: {R.randint(1000, 9999)}"
    brand, num = card_number()
    return "payment-card", pick([
        f"{pick(['Company', 'Team', 'Corporate'])} {brand.title()} for {pick(['AWS billing', 'SaaS subscriptions', 'ads', 'travel'])}: {fmt_card(num)} exp {card_expiry()} CVV {R.randint(100, 9999 if brand == 'amex' else 999)}",
        f"card {num} {card_expiry()} cvc {R.randint(100, 999)} — {person()}",
        f"Billing card on file: {fmt_card(num)}, expiry {card_expiry()}, security code {R.randint(100, 999)}",
    ])


def gen_passwords(n_cfg, n_cli, n_dot, n_net, n_prose, n_personal):
    def a_cfg():
        fmt, t = pw_cfg()
        return add("secret", "plain", "password-config", t, neutral_topic(), fmt)
    produce(n_cfg, a_cfg)
    produce(n_cli, lambda: add("secret", "plain", "password-cli", pw_cli(), neutral_topic(), "shell"))

    def a_dot():
        fmt, t = pw_dotfile()
        return add("secret", "plain", "password-dotfile", t, neutral_topic(), fmt)
    produce(n_dot, a_dot)
    produce(n_net, lambda: add("secret", "plain", "network-device-password", pw_network(), neutral_topic(), "device-config"))
    produce(n_prose, lambda: add("secret", "plain", "password-prose", pw_prose(), neutral_topic(), "text"))

    def a_pers():
        k, t = pw_personal()
        return add("secret", "plain", k, t, neutral_topic(), "text")
    produce(n_personal, a_pers)


def private_key_block():
    kind = pick(["rsa", "pkcs8", "ec", "openssh", "openssh", "dsa", "pgp", "putty", "ovpn", "ec8"])
    k = pem(kind)
    who = f"{pick(FIRST)}@{hostname()}"
    st = R.randint(0, 5)
    if st == 0:
        return "pem", k
    if st == 1:
        return "text", f"{pick(['deploy key for', 'CI key for', 'backup key for', 'key pair for'])} {pick(PROJ)}:\n{k}"
    if st == 2:
        return "shell", f"$ cat ~/.ssh/id_{pick(['ed25519', 'rsa', 'ecdsa', 'deploy'])}\n{k}"
    if st == 3:
        return "yaml", f"ssh_private_key: |\n" + "\n".join("  " + ln for ln in k.split("\n"))
    if st == 4:
        return "text", f"{pick(['tls.key', 'server.key', 'client.key', 'signing.key'])} ({who}, {date()}):\n{k}"
    return "json", json.dumps({"name": f"{pick(PROJ)}-{pick(['deploy', 'signing', 'sftp'])}", "private_key": k})


def gen_private_key_blocks(n):
    def one():
        fmt, body = private_key_block()
        return add("secret", "plain", "private-key-block", body, neutral_topic(), fmt)
    produce(n, one)


# ---------------------------------------------------------------------------
# SECRET 3: hard evasions
# ---------------------------------------------------------------------------
def sample_token(maxlen=160, minlen=16):
    while True:
        v = pick(VENDORS)
        if v["cat"] in ("session",):
            continue
        sec = [(k, t) for k, t, pub in v["pairs"] if not pub]
        k, t = pick(sec)
        if any(x in t for x in ("{pem", "{gcpsa", "{jwk", "{b64pem", "{mn")):
            continue
        val = expand(t)
        if minlen <= len(val) <= maxlen and " " not in val and "\n" not in val:
            return v, k, val


def sample_userpass():
    u = pick([user(), email()])
    p = gen_pw() if chance(0.6) else sample_token(80)[2]
    return u, p


HOMO = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445", "y": "\u0443",
        "i": "\u0456", "j": "\u0458", "s": "\u0455", "A": "\u0410", "B": "\u0412", "E": "\u0415", "H": "\u041d",
        "K": "\u041a", "M": "\u041c", "O": "\u041e", "P": "\u0420", "C": "\u0421", "T": "\u0422", "X": "\u0425"}
ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def homoglyph(s, rate=0.5):
    idx = [i for i, ch in enumerate(s) if ch in HOMO]
    if not idx:
        return None
    chosen = [i for i in idx if chance(rate)] or [pick(idx)]
    return "".join(HOMO[ch] if i in chosen else ch for i, ch in enumerate(s))


def zero_width(s):
    out = []
    for i, ch in enumerate(s):
        out.append(ch)
        if i < len(s) - 1 and chance(0.18):
            out.append(pick(ZW))
    if not any(z in "".join(out) for z in ZW):
        mid = len(out) // 2
        out.insert(mid, pick(ZW))
    return "".join(out)


def fullwidth(s):
    return "".join(chr(ord(ch) + 0xFEE0) if 0x21 <= ord(ch) <= 0x7E else ch for ch in s)


def chunks(s, k):
    n = len(s)
    cuts = sorted(sample(range(1, n), k - 1))
    parts, last = [], 0
    for c in cuts + [n]:
        parts.append(s[last:c])
        last = c
    return parts


def rot13(s):
    return codecs.encode(s, "rot13")


def pct_all(s):
    return "".join(f"%{b:02X}" for b in s.encode())


def label_of(v, k):
    return pick([v["disp"], f"{v['disp']} ({envname(k)})", envname(k), f"{v['disp']} {pick(ENVS)}"])


def t_base64():
    v, k, val = sample_token()
    st = R.randint(0, 5)
    if st == 0:
        return "dotenv", f"{envname(k)}_B64={b64(val)}"
    if st == 1:
        return "yaml", f"{v['slug']}:\n  {short_key(k, v['slug'])}_b64: {b64(val)}\n  encoding: base64"
    if st == 2:
        return "dotenv", f"# decode with: echo $ENV_BLOB | base64 -d > .env\nENV_BLOB={b64(envname(k) + '=' + val + chr(10))}"
    if st == 3:
        return "yaml", f"config_b64: {b64(json.dumps({short_key(k, v['slug']): val, 'region': pick(REGIONS)}))}"
    if st == 4:
        return "text", f"{label_of(v, k)} (base64): {b64(val)}"
    return "python", f"import base64\n{envname(k)} = base64.b64decode({dq(b64(val))}).decode()"


def t_hex():
    v, k, val = sample_token()
    hx = val.encode().hex()
    st = R.randint(0, 4)
    if st == 0:
        return "python", f"{envname(k)} = bytes.fromhex({dq(hx)}).decode()"
    if st == 1:
        return "text", f"{label_of(v, k)} hex: {hx}"
    if st == 2:
        return "c", f"static const char {snake(k)}[] = \"" + "".join(f"\\x{b:02x}" for b in val.encode()) + "\";"
    if st == 3:
        return "shell", f"export {envname(k)}=$(echo {hx} | xxd -r -p)"
    return "text", f"{envname(k)} = 0x{hx.upper()}"


def t_layered():
    v, k, val = sample_token()
    st = R.randint(0, 7)
    if st == 0:
        enc, hint = b64(b64(val)), "base64 twice"
    elif st == 1:
        enc, hint = b64(val.encode().hex()), "base64(hex)"
    elif st == 2:
        enc, hint = b64(val).encode().hex(), "hex(base64)"
    elif st == 3:
        enc, hint = b64(gzip.compress(val.encode(), mtime=0)), "gzip+base64"
    elif st == 4:
        enc, hint = b64(rot13(val)), "rot13 then base64"
    elif st == 5:
        enc, hint = urllib.parse.quote(b64(val), safe=""), "urlencoded base64"
    elif st == 6:
        enc, hint = b64(val[::-1]), "reversed then base64"
    else:
        enc, hint = base64.b32encode(b64(val).encode()).decode(), "base32(base64)"
    if chance(0.5):
        return "text", f"{label_of(v, k)}: {enc}\n({hint})"
    return pick(["dotenv", "yaml"]), (f"{envname(k)}_ENC={enc}\n{envname(k)}_ENC_SCHEME={hint.replace(' ', '_')}" if chance(0.5)
                                      else f"{snake(k)}:\n  value: {enc}\n  encoding: {dq(hint)}")


def t_urlenc():
    v, k, val = sample_token()
    enc = pct_all(val)
    return pick([("text", f"{label_of(v, k)}: {enc}"), ("url", f"https://{v['host'] or 'api.example.org'}/oauth/token?grant_type=client_credentials&client_secret={enc}"),
                 ("dotenv", f"{envname(k)}_URLENCODED={enc}")])


def t_unicode_escape():
    v, k, val = sample_token()
    esc = "".join(f"\\u{ord(ch):04x}" for ch in val)
    return pick([("javascript", f"const {camel(k)} = \"{esc}\";"), ("json", f"{{\"{camel(k)}\": \"{esc}\"}}"),
                 ("java", f"String {camel(k)} = \"{esc}\";")])


def t_char_codes():
    v, k, val = sample_token()
    codes = ", ".join(str(ord(ch)) for ch in val)
    return pick([("javascript", f"const {camel(k)} = String.fromCharCode({codes});"),
                 ("python", f"{envname(k)} = ''.join(map(chr, [{codes}]))"),
                 ("python", f"{envname(k)} = bytes([{codes}]).decode()"),
                 ("csharp", f"var {camel(k)} = System.Text.Encoding.ASCII.GetString(new byte[] {{ {codes} }});"),
                 ("go", f"var {camel(k)} = string([]byte{{{codes}}})")])


def t_split_fields():
    v, k, val = sample_token()
    n = R.randint(2, 4)
    parts = chunks(val, n)
    st = R.randint(0, 2)
    if st == 0:
        d = {"service": v["disp"]}
        for i, p in enumerate(parts, 1):
            d[f"part{i}"] = p
        d["note"] = pick(["concatenate in order", "join parts", "parts 1..n"])
        return "json", d
    if st == 1:
        return "json", {"name": envname(k), "prefix": parts[0], "rest": "".join(parts[1:])}
    d = {"a": parts[0], "b": parts[1]}
    if len(parts) > 2:
        d["c"] = "".join(parts[2:])
    return "json", {"label": label_of(v, k), "chunks": d}


def t_split_list():
    v, k, val = sample_token()
    parts = chunks(val, R.randint(2, 5))
    if chance(0.5):
        return "json", [f"{label_of(v, k)} (join the pieces):"] + parts
    return "json", parts + [f"-> {envname(k)}"]


def t_split_lines():
    v, k, val = sample_token()
    w = R.randint(6, 14)
    lines = [val[i:i + w] for i in range(0, len(val), w)]
    st = R.randint(0, 2)
    if st == 0:
        return "text", f"{label_of(v, k)} (remove the line breaks):\n" + "\n".join(lines)
    if st == 1:
        return "shell", f"export {envname(k)}=\"" + "\\\n".join(lines) + "\""
    return "yaml", f"{snake(k)}: >-\n" + "\n".join("  " + ln for ln in lines) + "\n# folded, no spaces"


def t_code_concat():
    v, k, val = sample_token()
    parts = chunks(val, R.randint(2, 4))
    st = R.randint(0, 5)
    if st == 0:
        return "python", f"{envname(k)} = " + " + ".join(dq(p) for p in parts)
    if st == 1:
        return "python", f"{envname(k)} = (\n" + "\n".join("    " + dq(p) for p in parts) + "\n)"
    if st == 2:
        names = [f"p{i}" for i in range(len(parts))]
        return "javascript", "\n".join(f"const {n} = {dq(p)};" for n, p in zip(names, parts)) + f"\nconst {camel(k)} = `" + "".join("${" + n + "}" for n in names) + "`;"
    if st == 3:
        return "go", f"{camel(k)} := strings.Join([]string{{" + ", ".join(dq(p) for p in parts) + "}, \"\")"
    if st == 4:
        return "java", f"String {camel(k)} = new StringBuilder()" + "".join(f".append({dq(p)})" for p in parts) + ".toString();"
    return "shell", f"{envname(k)}=" + "".join(f"'{p}'" if "'" not in p else dq(p) for p in parts)


def t_reversed():
    v, k, val = sample_token()
    r = val[::-1]
    return pick([("python", f"{envname(k)} = {dq(r)}[::-1]"), ("text", f"{label_of(v, k)}, stored backwards: {r}"),
                 ("javascript", f"const {camel(k)} = {dq(r)}.split('').reverse().join('');"),
                 ("shell", f"export {envname(k)}=$(echo {sh_q(r)} | rev)")])


def t_spaced():
    v, k, val = sample_token()
    st = R.randint(0, 3)
    if st == 0:
        s = " ".join(val)
    elif st == 1:
        s = " ".join(val[i:i + 4] for i in range(0, len(val), 4))
    elif st == 2:
        s = "-".join(val[i:i + 5] for i in range(0, len(val), 5))
    else:
        s = " . ".join(val[i:i + 8] for i in range(0, len(val), 8))
    return "text", f"{label_of(v, k)}: {s}" + pick(["", "\n(remove the separators)", "  <- no spaces in the real value"])


def t_homoglyph():
    while True:
        v, k, val = sample_token()
        h = homoglyph(val)
        if h:
            break
    return pick([("dotenv", f"{envname(k)}={h}"), ("text", f"{label_of(v, k)}: {h}"), ("yaml", f"{snake(k)}: {h}")])


def t_zero_width():
    v, k, val = sample_token()
    z = zero_width(val)
    return pick([("dotenv", f"{envname(k)}={z}"), ("text", f"{label_of(v, k)} -> {z}"), ("python", f"{envname(k)} = {json.dumps(z, ensure_ascii=False)}")])


def t_fullwidth():
    v, k, val = sample_token()
    return pick([("text", f"{label_of(v, k)}：{fullwidth(val)}"), ("text", f"{fullwidth(envname(k))}＝{fullwidth(val)}")])


def t_url_userinfo():
    st = R.randint(0, 7)
    if st == 0:
        tok = "ghs_" + rs("m", 36) if chance(0.5) else "ghp_" + rs("m", 36)
        return "shell", f"git remote set-url origin https://x-access-token:{tok}@github.com/{pick(COMP)}/{pick(PROJ)}.git"
    if st == 1:
        return "shell", f"git clone https://oauth2:glpat-{rs('u', 20)}@gitlab.com/{pick(COMP)}/{pick(PROJ)}.git"
    if st == 2:
        u, p = sample_userpass()
        return "pip-conf", f"[global]\nextra-index-url = https://{urllib.parse.quote(u, safe='')}:{urllib.parse.quote(p, safe='')}@pypi.{domain()}/simple/"
    if st == 3:
        return "text", f"https://{'ghp_' + rs('m', 36)}@github.com/{pick(COMP)}/{pick(PROJ)}.git"
    if st == 4:
        u, p = sample_userpass()
        return "text", f"ftp://{urllib.parse.quote(u, safe='')}:{urllib.parse.quote(p, safe='')}@ftp.{domain()}/incoming/"
    if st == 5:
        u, p = sample_userpass()
        return "yaml", f"proxy:\n  url: http://{urllib.parse.quote(u, safe='')}:{urllib.parse.quote(p, safe='')}@proxy.{domain()}:3128"
    if st == 6:
        return "go", f"// go env\nGOPRIVATE=git.{domain()}\nGOPROXY=https://{user()}:{rs('m', 32)}@goproxy.{domain()}"
    return "text", f"webdav: https://{user()}:{urllib.parse.quote(gen_pw(), safe='')}@cloud.{domain()}/remote.php/dav/files/"


def t_url_query():
    v, k, val = sample_token()
    host_ = expand(v["host"]) if v["host"] else f"api.{domain()}"
    q = pick(["api_key", "apikey", "key", "token", "access_token", "auth", "secret"])
    url = f"https://{host_}{pick(API_PATHS).split('?')[0]}?{q}={urllib.parse.quote(val, safe='')}&{pick(['format=json', 'limit=20', 'page=2', 'lang=en'])}"
    return pick([("log", f"{ts()} INFO GET {url} 200 {R.randint(20, 900)}ms"), ("html", f"<img src=\"{url}\" alt=\"status\">"),
                 ("text", url), ("javascript", f"fetch(\"{url}\").then(r => r.json())"),
                 ("url", f"wss://{host_}/stream?{q}={urllib.parse.quote(val, safe='')}")])


def t_url_fragment():
    tok = pick([jwt("any"), "gho_" + rs("m", 36), "ya29.a0" + rs("u", 120), "EAA" + rs("m", 150), rs("u", 43)])
    url = f"https://{pick(['app', 'dashboard', 'admin'])}.{domain()}/{pick(['callback', 'auth/callback', 'oauth2/redirect', ''])}#access_token={tok}&token_type=Bearer&expires_in={pick([3600, 7200, 86400])}&state={rs('u', 16)}"
    return pick([("url", url), ("text", f"redirected to {url}"), ("log", f"{ts()} nav {url}")])


def t_pm_export():
    st = R.randint(0, 6)
    items = []
    for _ in range(R.randint(1, 3)):
        v, k, val = sample_token(100)
        items.append((v["disp"], f"https://{expand(v['host']) if v['host'] else domain()}", pick([email(), user()]), pick([val, gen_pw()])))
    if st == 0:
        d = {"encrypted": False, "folders": [], "items": []}
        for name, url, u, p in items:
            d["items"].append({"id": uuid4(), "type": 1, "name": name, "notes": None, "favorite": False,
                               "login": {"uris": [{"match": None, "uri": url}], "username": u, "password": p, "totp": None}})
        if chance(0.3):
            brand, num = card_number()
            d["items"].append({"id": uuid4(), "type": 3, "name": f"{brand.title()} card", "card": {"cardholderName": person(), "brand": brand.title(),
                               "number": num, "expMonth": str(R.randint(1, 12)), "expYear": str(R.randint(2026, 2031)), "code": str(R.randint(100, 999))}})
        return "bitwarden-json", d
    if st == 1:
        return "1password-csv", "Title,Website,Username,Password,OTPAuth,Notes\n" + "\n".join(f"{n},{url},{u},{p},," for n, url, u, p in items)
    if st == 2:
        return "lastpass-csv", "url,username,password,totp,extra,name,grouping,fav\n" + "\n".join(f"{url},{u},{p},,,{n},{pick(['Work', 'Infra', 'Shared'])},0" for n, url, u, p in items)
    if st == 3:
        ents = "\n".join(f"    <Entry>\n      <String><Key>Title</Key><Value>{xml_esc(n)}</Value></String>\n      <String><Key>UserName</Key><Value>{xml_esc(u)}</Value></String>\n"
                         f"      <String><Key>Password</Key><Value ProtectInMemory=\"True\">{xml_esc(p)}</Value></String>\n      <String><Key>URL</Key><Value>{url}</Value></String>\n    </Entry>"
                         for n, url, u, p in items)
        return "keepass-xml", f"<KeePassFile>\n  <Root>\n   <Group>\n    <Name>{pick(['Infra', 'Work', 'Root'])}</Name>\n{ents}\n   </Group>\n  </Root>\n</KeePassFile>"
    if st == 4:
        return "chrome-csv", "name,url,username,password,note\n" + "\n".join(f"{url.split('//')[1]},{url}/login,{u},{p}," for n, url, u, p in items)
    if st == 5:
        return "firefox-csv", '"url","username","password","httpRealm","formActionOrigin","guid","timeCreated","timeLastUsed","timePasswordChanged"\n' + "\n".join(
            f'"{url}","{u}","{p}",,"{url}","{{{uuid4()}}}","{R.randint(1600000000000, 1760000000000)}","{R.randint(1700000000000, 1760000000000)}","{R.randint(1700000000000, 1760000000000)}"' for n, url, u, p in items)
    n, url, u, p = items[0]
    return "dashlane-csv", f"username,username2,username3,title,password,note,url,category,otpSecret\n{u},,,{n},{p},,{url},{pick(['Business', 'Utilities'])},"


def t_cli_transcript():
    st = R.randint(0, 9)
    if st == 0:
        return "shell", (f"$ aws configure --profile {pick(PROJ)}\nAWS Access Key ID [None]: AKIA{rs('A', 16)}\nAWS Secret Access Key [None]: {rs('b', 40)}\n"
                         f"Default region name [None]: {pick(REGIONS)}\nDefault output format [None]: json")
    if st == 1:
        return "shell", f"$ gh auth token\ngho_{rs('m', 36)}"
    if st == 2:
        return "shell", f"$ heroku auth:token\n ›   Warning: token will expire {date()}\n{uuid4()}"
    if st == 3:
        v, k, val = sample_token()
        return "shell", f"$ kubectl get secret {v['slug']}-credentials -o jsonpath='{{.data.{snake(k)}}}' | base64 -d\n{val}"
    if st == 4:
        v, k, val = sample_token()
        return "shell", (f"$ vault kv get secret/{pick(PROJ)}/{v['slug']}\n====== Data ======\nKey{' ' * 10}Value\n---{' ' * 10}-----\n{snake(k):<13}{val}")
    if st == 5:
        v, k, val = sample_token()
        return "shell", f"$ printenv | grep -i {pick(['key', 'token', 'secret'])}\n{envname(k)}={val}\nNODE_ENV=production"
    if st == 6:
        return "shell", f"$ terraform output -raw db_password\n{gen_pw()}"
    if st == 7:
        return "shell", f"$ gcloud auth print-access-token\nya29.a0{rs('u', 170)}"
    if st == 8:
        return "shell", (f"$ az account get-access-token\n{{\n  \"accessToken\": \"{jwt('azure')}\",\n  \"expiresOn\": \"{date()} 17:{R.randint(10, 59)}:00.000000\",\n"
                         f"  \"subscription\": \"{uuid4()}\",\n  \"tenant\": \"{uuid4()}\",\n  \"tokenType\": \"Bearer\"\n}}")
    tok = f"npm_{rs('m', 36)}"
    return "shell", f"$ npm token create --read-only\n┌────────────────┬──────────────────────────────────────────┐\n│ token          │ {tok} │\n│ readonly       │ true                                     │\n└────────────────┴──────────────────────────────────────────┘"


def t_smtp():
    u = email()
    p = gen_pw()
    st = R.randint(0, 4)
    d = domain()
    if st == 0:
        return "smtp", (f"S: 220 smtp.{d} ESMTP\nC: EHLO {hostname()}\nS: 250-smtp.{d}\nS: 250-AUTH PLAIN LOGIN\nC: AUTH PLAIN {b64(chr(0) + u + chr(0) + p)}\n"
                        "S: 235 2.7.0 Authentication successful")
    if st == 1:
        return "smtp", (f"C: AUTH LOGIN\nS: 334 VXNlcm5hbWU6\nC: {b64(u)}\nS: 334 UGFzc3dvcmQ6\nC: {b64(p)}\nS: 235 Authentication succeeded")
    if st == 2:
        return "imap", f"* OK IMAP4rev1 ready\na1 LOGIN {u} {p}\na1 OK LOGIN completed\na2 SELECT INBOX"
    if st == 3:
        return "pop3", f"+OK POP3 server ready\nUSER {u}\n+OK\nPASS {p}\n+OK Logged in."
    return "ftp", f"220 ProFTPD Server\nUSER {user()}\n331 Password required\nPASS {p}\n230 User logged in"


def t_db_session():
    u, p = user(), gen_pw()
    st = R.randint(0, 6)
    if st == 0:
        return "mysql", f"mysql> CREATE USER '{u}'@'%' IDENTIFIED BY {sql_q(p)};\nQuery OK, 0 rows affected (0.02 sec)\n\nmysql> GRANT SELECT ON {dbname()}.* TO '{u}'@'%';"
    if st == 1:
        return "psql", f"{dbname()}=# ALTER ROLE {u} WITH LOGIN PASSWORD {sql_q(p)};\nALTER ROLE"
    if st == 2:
        return "mongosh", f"admin> db.createUser({{ user: \"{u}\", pwd: \"{p}\", roles: [{{ role: \"readWrite\", db: \"{dbname()}\" }}] }})\n{{ ok: 1 }}"
    if st == 3:
        return "redis", f"127.0.0.1:6379> AUTH {p}\nOK\n127.0.0.1:6379> KEYS session:*"
    if st == 4:
        v, k, val = sample_token()
        return "psql", (f"{dbname()}=# select provider, api_key from integrations limit 2;\n provider | api_key\n----------+{'-' * (len(val) + 2)}\n"
                        f" {v['slug'][:8]:<8} | {val}\n(1 row)")
    if st == 5:
        return "sqlserver", f"1> CREATE LOGIN [{u}] WITH PASSWORD = {sql_q(p)};\n2> GO"
    return "oracle", f"SQL> ALTER USER {u.upper()} IDENTIFIED BY \"{p}\";\n\nUser altered."


def t_stack_trace():
    u, hp = user(), gen_pwu()
    h, d = host("db"), dbname()
    st = R.randint(0, 4)
    if st == 0:
        return "traceback", (f"Traceback (most recent call last):\n  File \"/app/worker.py\", line {R.randint(10, 300)}, in <module>\n    engine.connect()\n"
                             f"sqlalchemy.exc.OperationalError: (psycopg2.OperationalError) connection to server at \"{h}\" failed\n"
                             f"[SQL: None] (engine url: postgresql://{u}:{hp}@{h}:5432/{d})")
    if st == 1:
        return "java-stacktrace", (f"java.sql.SQLException: Access denied for url jdbc:mysql://{h}:3306/{d}?user={u}&password={hp}\n"
                                   f"\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:129)\n\tat com.zaxxer.hikari.pool.HikariPool.createPoolEntry(HikariPool.java:477)")
    if st == 2:
        v, k, val = sample_token()
        return "node-error", (f"AxiosError: Request failed with status code 429\n    at settle (/app/node_modules/axios/lib/core/settle.js:19:12)\n"
                              f"  config: {{\n    url: 'https://{expand(v['host']) if v['host'] else 'api.example.net'}/v1/items',\n    headers: {{ Authorization: 'Bearer {val}', 'User-Agent': 'axios/1.7.2' }}\n  }}")
    if st == 3:
        return "go-panic", f"panic: dial tcp {priv_ip()}:5432: connect: connection refused\n\ngoroutine 1 [running]:\nmain.mustDB({{0xc000012345, \"postgres://{u}:{hp}@{h}/{d}\"}})\n\t/src/cmd/api/main.go:{R.randint(20, 200)} +0x1a5"
    v, k, val = sample_token()
    return "ruby-error", f"Faraday::UnauthorizedError (the server responded with status 401)\nrequest headers: {{\"X-Api-Key\"=>\"{val}\", \"Accept\"=>\"application/json\"}}\n  app/services/{v['slug'].replace('-', '_')}_sync.rb:{R.randint(5, 90)}:in `call'"


def t_diff():
    v, k, val = sample_token()
    e = envname(k)
    st = R.randint(0, 2)
    f = pick([".env.production", "config/settings.py", "deploy/values.yaml", "src/config.ts", "docker-compose.yml"])
    if st == 0:
        return "diff", f"diff --git a/{f} b/{f}\n--- a/{f}\n+++ b/{f}\n@@ -{R.randint(1, 40)},3 +{R.randint(1, 40)},3 @@\n-{e}=${{{e}}}\n+{e}={val}\n LOG_LEVEL=info"
    if st == 1:
        return "diff", f"--- a/{f}\n+++ b/{f}\n@@ -7,4 +7,4 @@\n-{e}={val}\n+{e}=${{{e}}}  # moved to vault"
    return "diff", f"commit {rs('h', 40)}\nAuthor: {person()} <{email()}>\n\n    wip\n\n+    {camel(k)}: \"{val}\","


def t_http_basic():
    u, p = sample_userpass()
    tok = b64(f"{u}:{p}")
    st = R.randint(0, 3)
    if st == 0:
        return "http", f"GET /api/v2/reports HTTP/1.1\nHost: {host('app')}\nAuthorization: Basic {tok}"
    if st == 1:
        return "shell", f"curl -H 'Authorization: Basic {tok}' https://{host('app')}/metrics"
    if st == 2:
        return "nginx", f"location /upstream/ {{\n    proxy_set_header Authorization \"Basic {tok}\";\n    proxy_pass https://{host('app')};\n}}"
    return "log", f"{ts()} DEBUG outgoing headers: Authorization=Basic {tok}"


def t_docker_auth():
    u, p = user(), pick([gen_pw(), "dckr_pat_" + rs("u", 27), "ghp_" + rs("m", 36)])
    reg = pick(["https://index.docker.io/v1/", "ghcr.io", f"registry.{domain()}", f"{rs('d', 12)}.dkr.ecr.eu-west-1.amazonaws.com"])
    d = {"auths": {reg: {"auth": b64(f"{u}:{p}")}}}
    if chance(0.5):
        return "docker-config", d
    return "docker-config", "# ~/.docker/config.json\n" + json.dumps(d, indent=2)


def t_k8s_data():
    v, k, val = sample_token()
    st = R.randint(0, 1)
    if st == 0:
        return "kubernetes", f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {v['slug']}\ntype: Opaque\ndata:\n  {snake(k)}: {b64(val)}"
    u, p = user(), gen_pw()
    dc = json.dumps({"auths": {f"registry.{domain()}": {"username": u, "password": p, "auth": b64(f'{u}:{p}')}}})
    return "kubernetes", f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: {b64(dc)}"


def t_log_leak():
    v, k, val = sample_token()
    st = R.randint(0, 3)
    t = ts()
    if st == 0:
        return "log", f"{t} DEBUG env dump: PATH=/usr/local/bin:/usr/bin HOME=/app {envname(k)}={val} PORT=8080"
    if st == 1:
        return "log", json.dumps({"time": t, "level": "DEBUG", "msg": "outgoing request", "headers": {"authorization": f"Bearer {val}", "content-type": "application/json"}})
    if st == 2:
        return "log", f"{t} [{pick(SVC)}] WARNING: falling back to hardcoded {snake(k)}='{val}'"
    return "log", f"##[debug]Evaluating: secrets.{envname(k)}\n##[debug]Result: '{val}'"


def t_totp():
    secret = base64.b32encode(rb(20)).decode().rstrip("=")
    issuer = pick(["GitHub", "AWS", "Google", "Okta", "GitLab", "Cloudflare", "Stripe", pick(COMP).title()])
    st = R.randint(0, 3)
    if st == 0:
        return "url", f"otpauth://totp/{issuer}:{email()}?secret={secret}&issuer={issuer}&digits=6&period=30"
    if st == 1:
        return "text", f"{issuer} 2FA setup key: {' '.join(secret[i:i + 4] for i in range(0, len(secret), 4)).lower()}"
    if st == 2:
        return "json", {"issuer": issuer, "account": email(), "totp_secret": secret, "algorithm": "SHA1", "digits": 6}
    return "text", f"MFA seed for the shared {issuer} root account: {secret}"


def t_recovery():
    issuer = pick(["GitHub", "Google", "AWS root", "Okta", "GitLab", "1Password", "Discord", "Slack"])
    st = R.randint(0, 2)
    if st == 0:
        codes = [f"{rs('h', 5)}-{rs('h', 5)}" for _ in range(R.randint(6, 10))]
    elif st == 1:
        codes = [f"{R.randint(1000, 9999)} {R.randint(1000, 9999)}" for _ in range(R.randint(6, 10))]
    else:
        codes = [rs("A", 10) for _ in range(R.randint(5, 8))]
    if chance(0.4):
        return "json", [f"{issuer} recovery codes ({date()})"] + codes
    return "text", f"{issuer} recovery codes:\n" + "\n".join(codes)


def t_spelled():
    p = pw_random(8, 12)
    names = {"!": "exclamation mark", "@": "at sign", "#": "hash", "$": "dollar", "%": "percent", "^": "caret", "&": "ampersand",
             "*": "asterisk", "-": "dash", "_": "underscore", "+": "plus", "=": "equals", "?": "question mark", ".": "dot", "~": "tilde"}
    words = []
    for ch in p:
        if ch.isdigit():
            words.append(f"digit {ch}")
        elif ch.isalpha():
            words.append(f"{'capital' if ch.isupper() else 'lowercase'} {ch.lower()}")
        else:
            words.append(names[ch])
    return "text", f"{pick(['Password for the', 'Login for the', 'The PIN-less password for the'])} {pick(['kiosk', 'conference room PC', 'lab admin account', 'shared mailbox'])}, spelled out: " + ", ".join(words)


def t_base32():
    v, k, val = sample_token()
    enc = base64.b32encode(val.encode()).decode()
    return pick([("text", f"{label_of(v, k)} (base32): {enc}"), ("dotenv", f"{envname(k)}_B32={enc}")])


def t_html_entities():
    v, k, val = sample_token()
    ent = "".join(f"&#{ord(ch)};" if chance(0.5) else f"&#x{ord(ch):x};" for ch in val)
    return "html", f"<input type=\"hidden\" name=\"{snake(k)}\" value=\"{ent}\">"


def t_nested_json():
    v, k, val = sample_token()
    inner = json.dumps({camel(k): val, "region": pick(REGIONS)})
    if chance(0.5):
        return "json", {"name": v["slug"], "config": inner}
    return "json", json.dumps({"settings": json.dumps({"provider": v["slug"], "raw": inner})})


def t_rot13():
    v, k, val = sample_token()
    return pick([("text", f"{label_of(v, k)} (rot13): {rot13(val)}"), ("python", f"import codecs\n{envname(k)} = codecs.decode({dq(rot13(val))}, 'rot13')")])


def t_commented():
    v, k, val = sample_token()
    e = envname(k)
    return pick([("python", f"{e} = os.environ[\"{e}\"]\n# {e} = \"{val}\"  # old, keep for local testing"),
                 ("javascript", f"const {camel(k)} = process.env.{e};\n// fallback: '{val}'"),
                 ("html", f"<!-- {e}: {val} -->\n<div id=\"app\"></div>"),
                 ("yaml", f"{snake(k)}: ${{{e}}}\n# {snake(k)}: {val}"),
                 ("sql", f"-- temp key for the import job: {val}\nSELECT count(*) FROM imports;")])


def t_cred_table():
    rows = []
    for _ in range(R.randint(2, 4)):
        u, p = sample_userpass()
        rows.append((pick([hostname(), pick(PROJ), host('app')]), u, p))
    if chance(0.5):
        return "markdown-table", "| system | user | password |\n|---|---|---|\n" + "\n".join(f"| {s} | {u} | {p} |" for s, u, p in rows)
    return "csv", "system,user,password\n" + "\n".join(f"{s},{u},{p}" for s, u, p in rows)


def t_form_body():
    st = R.randint(0, 2)
    if st == 0:
        body = urllib.parse.urlencode({"grant_type": "client_credentials", "client_id": uuid4(), "client_secret": rs("u", 40), "scope": "api.read"})
    elif st == 1:
        body = urllib.parse.urlencode({"username": email(), "password": gen_pw(), "remember": "1"})
    else:
        body = urllib.parse.urlencode({"grant_type": "refresh_token", "refresh_token": rs("u", 64), "client_id": rs("m", 24)})
    return pick([("http", f"POST /oauth/token HTTP/1.1\nHost: auth.{domain()}\nContent-Type: application/x-www-form-urlencoded\n\n{body}"),
                 ("shell", f"curl -X POST https://auth.{domain()}/oauth/token -d '{body}'"), ("log", f"{ts()} DEBUG request body: {body}")])


def t_xor():
    v, k, val = sample_token()
    key = rb(R.randint(4, 8))
    blob = bytes(b ^ key[i % len(key)] for i, b in enumerate(val.encode()))
    return "python", (f"_K = bytes.fromhex({dq(key.hex())})\n_B = bytes.fromhex({dq(blob.hex())})\n"
                      f"{envname(k)} = bytes(b ^ _K[i % len(_K)] for i, b in enumerate(_B)).decode()")


EVASIONS = [
    ("base64-encoded", t_base64), ("hex-encoded", t_hex), ("layered-encoding", t_layered), ("url-encoded", t_urlenc),
    ("unicode-escaped", t_unicode_escape), ("char-codes", t_char_codes), ("split-fields", t_split_fields),
    ("split-list", t_split_list), ("split-lines", t_split_lines), ("code-concat", t_code_concat), ("reversed", t_reversed),
    ("spaced-out", t_spaced), ("homoglyph", t_homoglyph), ("zero-width", t_zero_width), ("fullwidth", t_fullwidth),
    ("url-userinfo", t_url_userinfo), ("url-query", t_url_query), ("url-fragment", t_url_fragment),
    ("password-manager-export", t_pm_export), ("cli-transcript", t_cli_transcript), ("smtp-transcript", t_smtp),
    ("db-session", t_db_session), ("stack-trace", t_stack_trace), ("diff", t_diff), ("http-basic", t_http_basic),
    ("docker-config-auth", t_docker_auth), ("k8s-secret-data", t_k8s_data), ("log-leak", t_log_leak),
    ("totp-seed", t_totp), ("recovery-codes", t_recovery), ("spelled-out", t_spelled), ("base32-encoded", t_base32),
    ("html-entities", t_html_entities), ("nested-json-string", t_nested_json), ("rot13", t_rot13),
    ("commented-out", t_commented), ("credential-table", t_cred_table), ("form-body", t_form_body), ("xor-obfuscated", t_xor),
]


def gen_evasions(total):
    per = total // len(EVASIONS)
    rem = total - per * len(EVASIONS)
    for i, (kind, fn) in enumerate(EVASIONS):
        n = per + (1 if i < rem else 0)

        def one(kind=kind, fn=fn):
            fmt, body = fn()
            return add("secret", "hard", kind, body, neutral_topic(), fmt)
        produce(n, one)


# ---------------------------------------------------------------------------
# BENIGN 1: the same vendor configs/code with the credential replaced by a
# reference, a placeholder, an empty value -- or only non-secret settings.
# ---------------------------------------------------------------------------
NON_SESSION = [v for v in VENDORS if v["cat"] != "session"]


def placeholder_for(t, k):
    e = envname(k)
    m = re.match(r"^([a-z][a-z0-9+.\-]*)://", t)
    if m:
        scheme = m.group(1)
        return pick([f"{scheme}://USER:PASSWORD@HOST:PORT/DBNAME", f"{scheme}://<user>:<password>@<host>/<db>",
                     f"{scheme}://${{DB_USER}}:${{DB_PASSWORD}}@${{DB_HOST}}/app", f"{scheme}://username:<your-password>@localhost/app"])
    prefix = t.split("{")[0] if "{" in t else ""
    opts = [f"<{e.lower().replace('_', '-')}>", f"<YOUR_{e}>", f"YOUR_{e}_HERE", "REPLACE_ME", "TODO", "xxxxxxxxxxxxxxxx",
            f"<insert {e.lower().replace('_', ' ')}>", "your-key-goes-here", f"{{{{ {snake(k)} }}}}", "%" + e + "%", "<set-in-ci>"]
    if prefix and len(prefix) >= 3 and "=" not in prefix and ";" not in prefix:
        opts += [prefix + "x" * R.randint(8, 32), prefix + "X" * R.randint(8, 24), prefix + "...", prefix + "<your-key>", prefix + "XXXXXXXXXXXX"]
        opts += [prefix + "x" * R.randint(8, 32)]
    return pick(opts)


def benign_vendor_record(kind):
    v = pick(NON_SESSION)
    pairs = []
    for k, t, pub in v["pairs"]:
        if pub:
            if chance(0.15):
                continue
            pairs.append((k, expand(t), True))
            continue
        if kind == "config-env-ref":
            val = Ref(k, "env", v["slug"])
        elif kind == "config-secret-manager-ref":
            val = Ref(k, pick([s for s in STORE_WEIGHTS if s != "env"]), v["slug"])
        elif kind == "config-placeholder":
            val = placeholder_for(t, k)
        else:
            val = ""
        pairs.append((k, val, False))
    host_ = expand(v["host"]) if v["host"] else ""
    cmt = neutral_comment(v["disp"]) if chance(0.25) else None
    fmt, body = render_container(Ctx(pairs, v["disp"], v["slug"], host_, v["cat"], cmt))
    return add("benign", "plain", kind, body, v["disp"], fmt)


NONSECRET_EXTRA = [
    ("REGION", lambda: pick(REGIONS)), ("BUCKET", lambda: f"{pick(COMP)}-{pick(PROJ)}-{pick(['assets', 'backups', 'exports', 'logs'])}"),
    ("QUEUE_URL", lambda: f"https://sqs.{pick(REGIONS)}.amazonaws.com/{rs('n', 1)}{rs('d', 11)}/{pick(PROJ)}-jobs"),
    ("DATABASE_HOST", lambda: host("db")), ("DATABASE_NAME", dbname), ("DATABASE_USER", user), ("DATABASE_PORT", lambda: pick(["5432", "3306", "27017"])),
    ("SMTP_HOST", lambda: f"smtp.{domain()}"), ("SMTP_PORT", lambda: pick(["587", "465", "25"])), ("SMTP_FROM", email),
    ("API_BASE_URL", lambda: f"https://api.{domain()}/v{R.randint(1, 3)}"), ("CALLBACK_URL", lambda: f"https://app.{domain()}/auth/callback"),
    ("RATE_LIMIT_PER_MIN", lambda: str(pick([60, 120, 600, 1000]))), ("RETRY_BACKOFF", lambda: pick(["exponential", "linear", "none"])),
    ("S3_PREFIX", lambda: f"{pick(PROJ)}/{pick(['raw', 'processed', 'tmp'])}/"), ("KAFKA_TOPIC", lambda: f"{pick(PROJ)}.{pick(['events', 'orders', 'audit'])}.v{R.randint(1, 3)}"),
    ("OIDC_ISSUER", lambda: f"https://sso.{domain()}/realms/{pick(PROJ)}"), ("SENTRY_RELEASE", lambda: f"{pick(PROJ)}@{R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)}"),
    ("IMAGE_TAG", lambda: pick([f"v{R.randint(1, 4)}.{R.randint(0, 20)}.{R.randint(0, 9)}", rs('h', 7)])), ("REPLICAS", lambda: str(R.randint(1, 12))),
]


def benign_nonsecret_record():
    v = pick(NON_SESSION)
    pairs = [(k, f(), True) for k, f in sample(NONSECRET_ENV + NONSECRET_EXTRA, R.randint(2, 6))]
    pubs = [(k, expand(t), True) for k, t, pub in v["pairs"] if pub]
    if pubs and chance(0.6):
        pairs = pubs + pairs
    host_ = expand(v["host"]) if v["host"] else ""
    ctx = Ctx(pairs, v["disp"], v["slug"], host_, v["cat"], neutral_comment(v["disp"]) if chance(0.25) else None)
    fmt, body = render_container(ctx)
    return add("benign", "plain", "config-nonsecret", body, v["disp"], fmt)


# ---------------------------------------------------------------------------
# BENIGN 2: publishable-by-design keys, test-mode values, documented examples
# ---------------------------------------------------------------------------
def clerk_pk():
    return "pk_live_" + b64(f"clerk.{domain()}$").rstrip("=")


PUBLISHABLE = [
    ("Stripe publishable key", "stripe", [("NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY", "pk_live_51{m:97}")]),
    ("Stripe publishable key", "stripe", [("STRIPE_PUBLISHABLE_KEY", "pk_live_{m:24}")]),
    ("Mapbox public token", "mapbox", [("VITE_MAPBOX_TOKEN", "{mapbox:pk}")]),
    ("Algolia search-only key", "algolia", [("NEXT_PUBLIC_ALGOLIA_APP_ID", "{A:10}"), ("NEXT_PUBLIC_ALGOLIA_SEARCH_KEY", "{h:32}")]),
    ("Firebase web config", "firebase", [("apiKey", "AIza{u:35}"), ("authDomain", "{proj}-{a:5}.firebaseapp.com"), ("projectId", "{proj}-{a:5}"),
                                         ("messagingSenderId", "{n:1}{d:11}"), ("appId", "1:{n:1}{d:11}:web:{h:22}")]),
    ("Supabase anon key", "supabase", [("NEXT_PUBLIC_SUPABASE_URL", "https://{l:20}.supabase.co"), ("NEXT_PUBLIC_SUPABASE_ANON_KEY", "{jwt:supabase-anon}")]),
    ("PostHog project API key", "posthog", [("NEXT_PUBLIC_POSTHOG_KEY", "phc_{m:43}"), ("NEXT_PUBLIC_POSTHOG_HOST", "https://eu.i.posthog.com")]),
    ("Sentry DSN", "sentry", [("SENTRY_DSN", "https://{h:32}@o{d:6}.ingest.sentry.io/{d:7}")]),
    ("Segment browser write key", "segment", [("NEXT_PUBLIC_SEGMENT_WRITE_KEY", "{m:32}")]),
    ("reCAPTCHA site key", "recaptcha", [("RECAPTCHA_SITE_KEY", "6L{u:38}")]),
    ("hCaptcha sitekey", "hcaptcha", [("HCAPTCHA_SITEKEY", "{uuid}")]),
    ("Turnstile site key", "turnstile", [("TURNSTILE_SITE_KEY", "0x4AAAAAAA{u:14}")]),
    ("Clerk publishable key", "clerk", [("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", clerk_pk)]),
    ("Razorpay key id", "razorpay", [("RAZORPAY_KEY_ID", "rzp_live_{m:14}")]),
    ("Paddle client-side token", "paddle", [("NEXT_PUBLIC_PADDLE_CLIENT_TOKEN", "live_{h:27}")]),
    ("Braintree tokenization key", "braintree", [("BRAINTREE_TOKENIZATION_KEY", "production_{a:8}_{a:16}")]),
    ("Adyen client key", "adyen", [("ADYEN_CLIENT_KEY", "live_{A:32}")]),
    ("LaunchDarkly client-side ID", "launchdarkly", [("LD_CLIENT_SIDE_ID", "{h:24}")]),
    ("Statsig client SDK key", "statsig", [("STATSIG_CLIENT_KEY", "client-{m:43}")]),
    ("GrowthBook client key", "growthbook", [("GROWTHBOOK_CLIENT_KEY", "sdk-{m:16}")]),
    ("Flagsmith client environment key", "flagsmith", [("FLAGSMITH_ENVIRONMENT_KEY", "{m:22}")]),
    ("Mixpanel project token", "mixpanel", [("MIXPANEL_TOKEN", "{h:32}")]),
    ("Amplitude browser API key", "amplitude", [("AMPLITUDE_API_KEY", "{h:32}")]),
    ("Intercom app id", "intercom", [("INTERCOM_APP_ID", "{a:8}")]),
    ("Pusher app key", "pusher", [("PUSHER_APP_KEY", "{h:20}"), ("PUSHER_CLUSTER", "eu")]),
    ("Stream API key", "stream", [("STREAM_API_KEY", "{a:12}")]),
    ("Contentful delivery token", "contentful", [("CONTENTFUL_SPACE_ID", "{a:12}"), ("CONTENTFUL_DELIVERY_TOKEN", "{u:43}")]),
    ("Square application id", "square", [("SQUARE_APPLICATION_ID", "sq0idp-{u:22}"), ("SQUARE_LOCATION_ID", "L{A:12}")]),
    ("PayPal JS SDK client id", "paypal", [("PAYPAL_CLIENT_ID", "A{u:79}")]),
    ("Datadog RUM client token", "datadog", [("DD_RUM_CLIENT_TOKEN", "pub{h:32}"), ("DD_RUM_APPLICATION_ID", "{uuid}")]),
    ("New Relic browser key", "newrelic", [("NEW_RELIC_BROWSER_KEY", "NRJS-{h:19}")]),
    ("Google OAuth client id", "google", [("GOOGLE_CLIENT_ID", "{n:1}{d:11}-{a:32}.apps.googleusercontent.com")]),
    ("Auth0 SPA client", "auth0", [("AUTH0_DOMAIN", "{l:8}.eu.auth0.com"), ("AUTH0_CLIENT_ID", "{m:32}")]),
    ("Cognito app client", "cognito", [("COGNITO_USER_POOL_ID", "eu-west-1_{m:9}"), ("COGNITO_CLIENT_ID", "{a:26}")]),
    ("Umami website id", "umami", [("UMAMI_WEBSITE_ID", "{uuid}")]),
    ("Cloudinary unsigned upload", "cloudinary", [("CLOUDINARY_CLOUD_NAME", "{l:9}"), ("CLOUDINARY_UPLOAD_PRESET", "unsigned_{l:6}")]),
    ("OneSignal app id", "onesignal", [("ONESIGNAL_APP_ID", "{uuid}")]),
    ("Web Push VAPID public key", "webpush", [("VAPID_PUBLIC_KEY", "B{u:86}")]),
    ("Langfuse public key", "langfuse", [("LANGFUSE_PUBLIC_KEY", "pk-lf-{uuid}")]),
    ("Okta SPA client id", "okta", [("OKTA_ISSUER", "https://{l:8}.okta.com/oauth2/default"), ("OKTA_CLIENT_ID", "0oa{m:17}")]),
]
PUB_NOTES = ["publishable key - safe to expose client-side", "public by design (shipped in the browser bundle)",
             "site key, not a secret", "client-side id, fine to commit", "publishable; the secret half is server-side only",
             "public key per vendor docs", "NEXT_PUBLIC_* values end up in the JS bundle anyway"]


def tpl(t):
    return t() if callable(t) else expand(t)


def publishable_record():
    disp, slug, tpls = pick(PUBLISHABLE)
    pairs = [(k, tpl(t), True) for k, t in tpls]
    ctx = Ctx(pairs, disp, slug, "", "publishable", pick(PUB_NOTES))
    name, fn = choose_container("token")
    body = fn(ctx)
    if isinstance(body, str) and ctx.comment not in body and chance(0.7):
        body = f"{pick(['#', '//', '--'])} {ctx.comment}\n{body}" if chance(0.5) else f"{body}\n({ctx.comment})"
    return add("benign", "hard", "publishable-key", body, disp, name)


TESTMODE = [
    ("Stripe test mode", "stripe", [("STRIPE_SECRET_KEY", "sk_test_51{m:97}")]),
    ("Stripe test mode", "stripe", [("STRIPE_SECRET_KEY", "sk_test_{m:24}"), ("STRIPE_PUBLISHABLE_KEY", "pk_test_{m:24}")]),
    ("Stripe test restricted key", "stripe", [("STRIPE_RESTRICTED_KEY", "rk_test_51{m:97}")]),
    ("Paystack test", "paystack", [("PAYSTACK_SECRET_KEY", "sk_test_{h:40}")]),
    ("Flutterwave test", "flutterwave", [("FLW_SECRET_KEY", "FLWSECK_TEST-{h:32}-X")]),
    ("Mollie test", "mollie", [("MOLLIE_API_KEY", "test_{m:30}")]),
    ("Checkout.com sandbox", "checkout", [("CKO_SECRET_KEY", "sk_sbox_{a:26}")]),
    ("Clerk development instance", "clerk", [("CLERK_SECRET_KEY", "sk_test_{m:42}")]),
    ("Stytch test project", "stytch", [("STYTCH_PROJECT_ID", "project-test-{uuid}"), ("STYTCH_SECRET", "secret-test-{u:36}=")]),
    ("Paddle sandbox", "paddle", [("PADDLE_API_KEY", "pdl_sdbx_apikey_{a:26}_{m:24}_{m:3}")]),
    ("Shippo test", "shippo", [("SHIPPO_API_TOKEN", "shippo_test_{h:40}")]),
    ("EasyPost test", "easypost", [("EASYPOST_API_KEY", "EZTK{h:54}")]),
    ("Worldpay test service key", "worldpay", [("WORLDPAY_SERVICE_KEY", "T_S_{uuid}")]),
    ("Mercado Pago test", "mercadopago", [("MP_ACCESS_TOKEN", "TEST-{d:16}-{d:6}-{h:32}-{d:9}")]),
    ("Xendit development", "xendit", [("XENDIT_SECRET_KEY", "xnd_development_{u:60}")]),
    ("Plaid sandbox item", "plaid", [("PLAID_ENV", "sandbox"), ("PLAID_ACCESS_TOKEN", "access-sandbox-{uuid}")]),
    ("Braintree sandbox", "braintree", [("BRAINTREE_ACCESS_TOKEN", "access_token$sandbox${a:16}${h:32}")]),
    ("Magic test key", "magic", [("MAGIC_SECRET_KEY", "sk_test_{H:16}")]),
    ("Razorpay test mode", "razorpay", [("RAZORPAY_KEY_ID", "rzp_test_{m:14}"), ("RAZORPAY_KEY_SECRET", "{m:24}")]),
    ("Midtrans sandbox", "midtrans", [("MIDTRANS_SERVER_KEY", "SB-Mid-server-{u:24}")]),
    ("GoCardless sandbox", "gocardless", [("GOCARDLESS_ENVIRONMENT", "sandbox"), ("GOCARDLESS_ACCESS_TOKEN", "sandbox_{u:40}")]),
    ("Lemon Squeezy test mode", "lemonsqueezy", [("LEMONSQUEEZY_TEST_MODE", "true"), ("LEMONSQUEEZY_STORE_ID", "{d:5}")]),
    ("Clerk test publishable", "clerk", [("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", "pk_test_{B:30}")]),
]
TEST_NOTES = ["test mode only", "sandbox credentials - no real money moves", "test keys from the vendor sandbox",
              "dev/test environment", "test-mode key; live keys are in the vault", "sandbox account for CI"]


def testmode_record():
    disp, slug, tpls = pick(TESTMODE)
    pairs = [(k, tpl(t), False) for k, t in tpls]
    ctx = Ctx(pairs, disp, slug, "", "testmode", pick(TEST_NOTES))
    name, fn = choose_container("token")
    body = fn(ctx)
    if isinstance(body, str) and ctx.comment not in body and chance(0.6):
        body = f"# {ctx.comment}\n{body}"
    return add("benign", "hard", "test-mode-key", body, disp, name)


def test_card_record():
    num = pick(PUBLISHED_TEST_CARDS)
    shown = fmt_card(num) if chance(0.5) else num
    t = pick([
        f"Stripe test card for checkout QA: {shown}, any future expiry, any CVC (test number, not a real card)",
        f"Use the published test number {shown} in sandbox; exp {card_expiry()} cvc {R.randint(100, 999)} — test mode only",
        f"QA checklist {ticket()}:\n- test card {shown} (documented test number)\n- expect 3DS challenge: no\n- env: {pick(['staging', 'sandbox', 'dev'])}",
        f"cypress fixture: {{\"card\": \"{num}\", \"exp\": \"{card_expiry()}\", \"cvc\": \"{R.randint(100, 999)}\"}}  // gateway test number",
        f"Declines in sandbox: use {shown} (the test card from the docs) for the happy path on {date()}",
    ])
    return add("benign", "hard", "test-card-number", t, neutral_topic(), "text")


DOCUMENTED = [
    ("AWS documentation example keys", lambda: f"aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    ("AWS documentation example key id", lambda: "AKIAIOSFODNN7EXAMPLE"),
    ("jwt.io example token", lambda: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    ("RFC 7519 example JWT", lambda: "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
    ("Azurite development storage key", lambda: "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;"),
    ("MongoDB manual connection string example", lambda: "mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin"),
    ("Stripe API reference sample test key", lambda: "sk_test_4eC39HqLyjWDarjtT1zdp7dc"),
    ("Slack API docs sample token", lambda: "xoxb-not-a-real-token-this-will-not-work"),
    ("RFC 6749 client credentials example", lambda: "client_id=s6BhdRkqt3&client_secret=7Fjfp0ZBr1KtDRbnfVdmIw"),
    ("RFC 6749 access token example", lambda: "Authorization: Bearer 2YotnFZFEjr1zCsicMWpAA"),
    ("RFC 7617 Basic auth example", lambda: "Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
    ("RFC 6238 TOTP test-vector seed", lambda: "12345678901234567890 (base32 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ)"),
]


def documented_record():
    title, f = pick(DOCUMENTED)
    ex = f()
    ctx_line = pick([
        f"From the docs ({title}) — copy/paste example, not a real credential:",
        f"{title}; this is the published sample value used in tutorials:",
        f"Note for the {pick(PROJ)} README: keep the documented example value ({title}) in the snippet, never a real one.",
        f"Our secret scanner allowlist includes this well-known example ({title}):",
        f"Saw this in a test fixture on {date()} — it's the {title}, safe:",
    ])
    t = f"{ctx_line}\n{ex}" if chance(0.6) else f"{ctx_line}\n```\n{ex}\n```\n(see {ticket()})"
    return add("benign", "hard", "documented-example", t, neutral_topic(), "text")


# ---------------------------------------------------------------------------
# BENIGN 3: masked values, placeholders in prose, references, talk
# ---------------------------------------------------------------------------
def mask_of(val):
    pre = ""
    m = re.match(r"^([A-Za-z]{2,12}[_\-.]([a-z]{2,8}[_\-])?)", val)
    if m and len(m.group(1)) < len(val) - 6:
        pre = m.group(1)
    last = val[-4:]
    return pick([
        f"{pre}{'*' * R.randint(6, 24)}{last}", f"{pre}{'•' * R.randint(6, 16)}", f"{pre}…{last}", "[REDACTED]", "<redacted>",
        "********", f"{pre}***redacted***", f"{val[:4]}...{last}" if len(val) > 24 else "****", "(hidden)", f"sha256:{sha256_hex(val)[:12]}…",
    ])


def masked_record():
    v = pick(NON_SESSION)
    pairs = []
    for k, t, pub in v["pairs"]:
        val = expand(t)
        if pub:
            pairs.append((k, val, True))
        else:
            if "\n" in val or "PRIVATE KEY" in val:
                pairs.append((k, pick(["[REDACTED PRIVATE KEY]", "-----BEGIN PRIVATE KEY----- … (redacted)", "<redacted multi-line value>"]), False))
            else:
                pairs.append((k, mask_of(val), False))
    st = R.random()
    if st < 0.55:
        fmt, body = render_container(Ctx(pairs, v["disp"], v["slug"], "", v["cat"], pick(["masked", "values masked by the CI log", "output of `env` (masked)", None, None])))
    else:
        k, mv = [(k, v_) for k, v_, pub in pairs if not pub][-1]
        fmt, body = "text", pick([f"{v['disp']} dashboard shows the key as {mv}",
                                  f"CI log: {envname(k)}={mv}",
                                  f"Rotated {v['disp']} key; old one ended in {mv[-4:] if len(mv) > 4 else mv}, new one is in {pick(['Vault', '1Password', 'the secrets manager'])}",
                                  f"{ts()} INFO using {envname(k)}={mv}"])
    return add("benign", "hard", "masked-value", body, v["disp"], fmt)


STORES_TALK = ["1Password (Engineering vault)", "Vault at secret/{proj}/{env}", "AWS Secrets Manager", "the team Bitwarden",
               "GitHub Actions secrets", "Doppler ({proj}/{env})", "GCP Secret Manager", "Azure Key Vault kv-{proj}", "the sealed-secrets repo"]


def store_talk():
    return pick(STORES_TALK).format(proj=pick(PROJ), env=pick(ENVS))


def cred_talk_record():
    v = pick(NON_SESSION)
    d = v["disp"]
    t = pick([
        f"Rotated the {d} credentials after {pick(FIRST).title()} left; new ones are in {store_talk()} under \"{v['slug']}-{pick(ENVS)}\".",
        f"Reminder: {d} tokens expire every {pick([30, 60, 90, 180])} days — calendar reminder set for {date()}.",
        f"Never paste the {d} key into Slack again; share a {pick(['1Password', 'Bitwarden Send', 'Vault wrapped'])} link instead.",
        f"The {d} key for {pick(ENVS)} lives in {store_talk()}. Ask {pick(TEAMS)} for read access.",
        f"Revoked the {d} token that showed up in the {pick(PROJ)} repo history ({ticket()}); nothing else to do.",
        f"Deploy bot now uses OIDC federation for {d} — no long-lived keys in CI anymore.",
        f"Who owns the {d} account? Billing email is {email()}; credentials are not in the wiki on purpose.",
        f"Checklist for onboarding {pick(FIRST).title()}: request {d} access via {ticket()}, enable MFA, do not create personal API keys.",
        f"{d} integration broke because the secret was rotated but the pod wasn't restarted. Fix: `kubectl rollout restart deploy/{pick(PROJ)}`.",
        f"Set up secret scanning on the {pick(PROJ)} repo so {d} keys get blocked at push time.",
        f"Q: where do I get a {d} API key for local dev? A: create your own in the {d} sandbox, never reuse the prod one.",
        f"Audit {date()}: {R.randint(2, 14)} {d} keys found, {R.randint(1, 5)} unused -> deleted. Remaining ones tagged with owner.",
        f"The {envname(pick(v['pairs'])[0])} variable must be set before running the worker; the value is in {store_talk()}.",
        f"{d}: switched from a shared admin password to per-user SSO accounts on {date()}.",
        f"Incident {ticket()}: a {d} credential was logged in plaintext by the debug middleware; key rotated, logs purged.",
    ])
    return add("benign", "plain", "cred-talk", t, d, "text")


# ---------------------------------------------------------------------------
# BENIGN 4: ordinary technical notes
# ---------------------------------------------------------------------------
def v_(): return f"{R.randint(1, 5)}.{R.randint(0, 30)}.{R.randint(0, 12)}"


NOTES = {
    "deploy": [
        lambda: f"Deploys to {pick(ENVS)} go out at {hhmm()} UTC; freeze from {date()} to {date()}. Rollback: `helm rollback {pick(PROJ)} {R.randint(2, 40)}`.",
        lambda: f"Blue/green switch for {pick(PROJ)}: flip the target group weight from 0 to 100 after the smoke test passes (takes ~{R.randint(2, 9)} min).",
        lambda: f"Release {v_()} of {pick(PROJ)} shipped {date()}; canary at {pick([5, 10, 25])}% for 30 minutes, then full rollout.",
    ],
    "dns": [
        lambda: f"TTL on app.{domain()} lowered to 60s before the migration; raise it back to 3600 after {date()}.",
        lambda: f"CNAME {pick(['status', 'docs', 'help'])}.{domain()} -> {pick(['hosted.statuspage.io', 'cname.vercel-dns.com', 'proxy-ssl.webflow.com'])}. Verify with `dig +short`.",
        lambda: f"MX records for {domain()}: 10 mx1, 20 mx2; SPF includes {pick(['_spf.google.com', 'spf.protection.outlook.com', 'mailgun.org'])}.",
    ],
    "kubernetes": [
        lambda: f"Cluster {pick(PROJ)}-{pick(ENVS)} runs k8s 1.{R.randint(26, 31)}; node pool {pick(['m6i.xlarge', 'e2-standard-4', 'Standard_D4s_v5'])} x{R.randint(3, 12)}.",
        lambda: f"If pods are stuck in CrashLoopBackOff after the upgrade, check `kubectl describe pod` for OOMKilled; limit is {pick([256, 512, 1024])}Mi.",
        lambda: f"HPA for {pick(SVC)}: min {R.randint(2, 4)}, max {R.randint(6, 30)}, target CPU {pick([60, 70, 80])}%.",
    ],
    "postgres": [
        lambda: f"{pick(PROJ)} db is Postgres {R.randint(13, 17)} on port 5432; max_connections={pick([100, 200, 400])}, pgbouncer in transaction mode.",
        lambda: f"VACUUM ANALYZE on {pick(['orders', 'events', 'sessions', 'audit_log'])} takes ~{R.randint(3, 50)} min; schedule it after {hhmm()}.",
        lambda: f"Slow query: SELECT ... FROM {pick(['orders', 'line_items', 'events'])} WHERE created_at > now() - interval '7 days' — add index on (tenant_id, created_at).",
    ],
    "backups": [
        lambda: f"Nightly backup of {dbname()} runs at {hhmm()}; retention {pick([7, 14, 30, 35])} days; last restore test {date()} took {R.randint(4, 90)} min.",
        lambda: f"restic snapshots for {hostname()} go to s3://{pick(COMP)}-backups/{hostname()}; prune policy keep-daily 7 keep-weekly 4.",
    ],
    "oncall": [
        lambda: f"On-call handover {date()}: {R.randint(0, 6)} pages, {R.randint(0, 3)} incidents. {pick(PROJ)} alert for queue depth is noisy — raise threshold to {R.randint(500, 5000)}.",
        lambda: f"Escalation: primary {pick(FIRST)}, secondary {pick(FIRST)}, then {pick(TEAMS)} lead. Quiet hours {hhmm()}–{hhmm()}.",
    ],
    "ci": [
        lambda: f"CI cache key for {pick(PROJ)} includes the lockfile hash; bust it by bumping CACHE_VERSION to {R.randint(2, 9)}.",
        lambda: f"Flaky test {pick(['test_checkout_flow', 'test_webhook_retry', 'TestSyncJob', 'spec/billing_spec.rb:42'])} — quarantined in {ticket()}.",
        lambda: f"Build times: p50 {R.randint(3, 12)} min, p95 {R.randint(12, 40)} min. Moving the docker build to a larger runner.",
    ],
    "networking": [
        lambda: f"VPC {pick(PROJ)}: 10.{R.randint(0, 255)}.0.0/16, private subnets /20 per AZ, NAT gateway per AZ.",
        lambda: f"Firewall rule: allow tcp/{pick([443, 5432, 6379, 9092])} from 10.{R.randint(0, 255)}.0.0/16 to the {pick(SVC)} nodes; everything else denied.",
        lambda: f"MTU issue on the VPN fixed by clamping MSS to {pick([1360, 1380, 1400])}.",
    ],
    "monitoring": [
        lambda: f"SLO for {pick(PROJ)} API: {pick(['99.9', '99.5', '99.95'])}% over 28 days; error budget burn alert at {pick([2, 6, 14])}x.",
        lambda: f"Grafana dashboard '{pick(PROJ)} overview' uid {rs('a', 9)}; panels for p99 latency and 5xx rate.",
        lambda: f"Alert: disk usage > {pick([80, 85, 90])}% on {hostname()} for 10m -> page {pick(TEAMS)}.",
    ],
    "migration": [
        lambda: f"Migration plan for {pick(PROJ)}: dual-write from {date()}, backfill, then cut reads over. Rollback = flag `use_new_store=false`.",
        lambda: f"Moving {dbname()} from MySQL {pick(['5.7', '8.0'])} to Postgres {R.randint(15, 17)} using pgloader; expect ~{R.randint(1, 6)}h downtime window.",
    ],
    "terraform": [
        lambda: f"terraform state for {pick(PROJ)} in s3://{pick(COMP)}-tfstate/{pick(PROJ)}/{pick(ENVS)}.tfstate with DynamoDB lock table tf-locks.",
        lambda: f"Run `terraform plan -target=module.{pick(['vpc', 'eks', 'rds', 'cdn'])}` first; provider pinned to ~> {R.randint(4, 6)}.{R.randint(0, 80)}.",
    ],
    "docker": [
        lambda: f"Base image bumped to {pick(IMAGES)}; image size went from {R.randint(300, 900)}MB to {R.randint(80, 300)}MB after multi-stage build.",
        lambda: f"docker system prune on {hostname()} freed {R.randint(5, 120)}GB; add a weekly cron.",
    ],
    "git": [
        lambda: f"Branch protection on {pick(PROJ)}: 2 approvals, linear history, signed commits required since {date()}.",
        lambda: f"To undo the bad merge: `git revert -m 1 {rs('h', 7)}` and open a PR against main.",
    ],
    "python": [
        lambda: f"Pinned pydantic<{R.randint(2, 3)} in {pick(PROJ)} until the settings refactor lands ({ticket()}).",
        lambda: f"uv lock takes {R.randint(2, 20)}s vs pip-compile {R.randint(40, 200)}s on {pick(PROJ)}; switching the CI job.",
    ],
    "frontend": [
        lambda: f"Bundle size for {pick(PROJ)} web: {R.randint(150, 900)}KB gz; lazy-load the charts module to get under budget.",
        lambda: f"Feature flag `new_nav` at {pick([5, 25, 50, 100])}% for logged-in users; remove after {date()}.",
    ],
    "email": [
        lambda: f"DMARC for {domain()} moved to p=quarantine on {date()}; aggregate reports go to dmarc@{domain()}.",
        lambda: f"Bounce rate on the {pick(['weekly digest', 'receipt', 'password-reset'])} emails is {R.randint(1, 9)}.{R.randint(0, 9)}%; suppress hard bounces after one attempt.",
    ],
    "ssh": [
        lambda: f"Host {hostname()}\n    HostName {priv_ip()}\n    User {pick(['ubuntu', 'ec2-user', 'deploy', 'admin'])}\n    IdentityFile ~/.ssh/id_ed25519\n    ProxyJump bastion-{pick(['eu', 'us'])}",
        lambda: f"SSH to prod goes through the bastion only; keys are issued by the SSH CA with {pick([8, 12, 24])}h validity.",
    ],
    "api-usage": [
        lambda: f"{pick(VENDORS)['disp']} rate limit: {pick([60, 100, 600, 1000])} req/min per key; we batch to stay under {pick([50, 80])}%.",
        lambda: f"Webhook retries from {pick(VENDORS)['disp']} back off up to {pick([3, 24, 72])}h; our endpoint must be idempotent (use the event id).",
    ],
    "cost": [
        lambda: f"{pick(['AWS', 'GCP', 'Azure'])} bill for {pick(['March', 'April', 'May', 'October'])}: ${R.randint(2, 90)},{R.randint(100, 999)}; {pick(['NAT gateway', 'egress', 'idle RDS', 'EBS snapshots'])} is the biggest surprise.",
        lambda: f"Savings plan covers {R.randint(50, 90)}% of compute; renew before {date()}.",
    ],
    "security": [
        lambda: f"Pen test scheduled {date()}; scope: {pick(PROJ)} API and admin UI. Findings go to {ticket()}.",
        lambda: f"Enable MFA enforcement for the {pick(TEAMS)} group; hardware keys for admins by {date()}.",
        lambda: f"CSP header for {pick(PROJ)}: default-src 'self'; script-src 'self' 'nonce-…'; report-uri /csp-report.",
    ],
}


def note_record():
    topic = pick(list(NOTES.keys()))
    t = pick(NOTES[topic])()
    return add("benign", "plain", f"note-{topic}", t, neutral_topic(), "text")


# ---------------------------------------------------------------------------
# BENIGN 5: look-alike identifiers, public keys, hashes, encrypted blobs ...
# ---------------------------------------------------------------------------
def f_git_sha():
    sha = rs("h", 40)
    return pick([("text", f"fixed in commit {sha}"), ("shell", f"git checkout {sha}\ngit log -1 --format=%an {sha[:7]}"),
                 ("text", f"Deployed {pick(PROJ)} at {sha[:12]} ({date()})"),
                 ("log", f"commit {sha}\nMerge: {rs('h', 7)} {rs('h', 7)}\nAuthor: {person()} <{email()}>\nDate:   {date()}\n\n    {pick(['fix flaky test', 'bump deps', 'add retry to sync job', 'refactor config loader'])}"),
                 ("yaml", f"- uses: actions/checkout@{sha}  # v4.{R.randint(0, 2)}.{R.randint(0, 9)}")])


def f_sha256():
    fn = pick(["app.tar.gz", "terraform_1.9.5_linux_amd64.zip", "backup.sql.gz", f"{pick(PROJ)}-{v_()}.whl", "node-v20.15.0-linux-x64.tar.xz", "install.sh"])
    h = rs("h", 64)
    return pick([("text", f"{h}  {fn}"), ("text", f"sha256sum {fn}\n{h}  {fn}"), ("text", f"SHA-256 of {fn}: {h}"),
                 ("text", f"md5 {rs('h', 32)}  sha1 {rs('h', 40)}  {fn}"), ("json", {"file": fn, "sha256": h, "size": R.randint(1000, 99999999)})])


def f_docker_digest():
    d = rs("h", 64)
    img = f"{pick(['ghcr.io', 'docker.io/library', 'public.ecr.aws', 'quay.io'])}/{pick(PROJ)}"
    return pick([("text", f"{img}@sha256:{d}"), ("yaml", f"image: {img}@sha256:{d}"), ("text", f"Digest: sha256:{d}\nStatus: Downloaded newer image for {img}:latest"),
                 ("dockerfile", f"FROM {pick(IMAGES).split(':')[0]}@sha256:{d}")])


def f_sri():
    pkg = pick(["lodash", "react", "express", "left-pad", "zod", "axios", "date-fns", "chalk"])
    st = R.randint(0, 2)
    if st == 0:
        return "json", f"\"node_modules/{pkg}\": {{\n  \"version\": \"{v_()}\",\n  \"resolved\": \"https://registry.npmjs.org/{pkg}/-/{pkg}-{v_()}.tgz\",\n  \"integrity\": \"sha512-{b64(rb(64))}\"\n}}"
    if st == 1:
        return "html", f"<script src=\"https://cdn.jsdelivr.net/npm/{pkg}@{v_()}/dist/{pkg}.min.js\" integrity=\"sha384-{b64(rb(48))}\" crossorigin=\"anonymous\"></script>"
    return "yaml", f"{pkg}@^{v_()}:\n  version: {v_()}\n  resolution: \"{pkg}@npm:{v_()}\"\n  checksum: {rs('h', 128)}"


def f_go_sum():
    mod = pick(["github.com/spf13/cobra", "golang.org/x/net", "github.com/stretchr/testify", "go.uber.org/zap", "github.com/google/uuid"])
    v = f"v{v_()}"
    return "go-sum", f"{mod} {v} h1:{b64(rb(32))}\n{mod} {v}/go.mod h1:{b64(rb(32))}"


def f_ids():
    st = R.randint(0, 5)
    if st == 0:
        return "text", f"order {uuid4()} stuck in PENDING since {date()}"
    if st == 1:
        return "json", {"id": ulid(), "type": pick(["invoice", "job", "export"]), "status": pick(["done", "queued", "failed"])}
    if st == 2:
        return "text", f"Job id: {uuid4()} (retry of {uuid4()})"
    if st == 3:
        return "text", f"ksuid {rs('m', 27)} — nanoid {rs('u', 21)} — cuid c{rs('a', 24)}"
    if st == 4:
        return "sql", f"SELECT * FROM jobs WHERE id = '{uuid4()}';"
    return "text", f"terraform state lineage {uuid4()}, serial {R.randint(1, 900)}"


def acct():
    return rs("n", 1) + rs("d", 11)


def f_arn():
    r, a = pick(REGIONS), acct()
    return pick([("text", f"arn:aws:iam::{a}:role/{pick(PROJ)}-{pick(['deployer', 'ci', 'lambda-exec', 'readonly'])}"),
                 ("text", f"arn:aws:s3:::{pick(COMP)}-{pick(PROJ)}-{pick(['assets', 'logs'])}"),
                 ("text", f"arn:aws:lambda:{r}:{a}:function:{pick(PROJ)}-{pick(SVC)}"),
                 ("text", f"arn:aws:kms:{r}:{a}:key/{uuid4()}"),
                 ("json", {"RoleArn": f"arn:aws:iam::{a}:role/{pick(PROJ)}-ci", "RoleSessionName": f"gha-{R.randint(1000, 99999)}", "DurationSeconds": 3600}),
                 ("text", f"arn:aws:secretsmanager:{r}:{a}:secret:{pick(PROJ)}/{pick(ENVS)}/db-{rs('m', 6)}  <- the secret's ARN, not the secret"),
                 ("text", f"arn:aws:sns:{r}:{a}:{pick(PROJ)}-alerts")])


def f_aws_res():
    return pick([("text", f"instance i-0{rs('h', 16)} in subnet subnet-0{rs('h', 16)}, sg sg-0{rs('h', 16)}"),
                 ("text", f"vpc-0{rs('h', 16)} / igw-0{rs('h', 16)} / rtb-0{rs('h', 16)}"),
                 ("text", f"AMI ami-0{rs('h', 16)} ({pick(['al2023', 'ubuntu 24.04', 'bottlerocket'])}) for {pick(REGIONS)}"),
                 ("text", f"CloudFront distribution E{rs('A', 13)}, hosted zone Z{rs('A', 20)}"),
                 ("text", f"vol-0{rs('h', 16)} snapshot snap-0{rs('h', 16)}"),
                 ("text", f"x-amz-request-id: {rs('A', 16)}\nx-amz-id-2: {b64(rb(57))}")])


def f_aws_keyid():
    kid = "AKIA" + rs("A", 16)
    return pick([("text", f"The CI IAM user's access key ID is {kid}; the secret key itself is in {store_talk()}."),
                 ("text", f"CloudTrail: AccessKeyId {kid} used from {doc_ip()} on {date()} — confirm it's the backup job."),
                 ("json", {"UserName": f"{pick(PROJ)}-ci", "AccessKeyId": kid, "Status": pick(["Active", "Inactive"]), "CreateDate": ts()}),
                 ("text", f"Deactivate key {kid} after {date()} (rotation {ticket()})"),
                 ("ini", f"[{pick(PROJ)}]\naws_access_key_id = {kid}\n# secret comes from credential_process\ncredential_process = /usr/local/bin/aws-vault exec {pick(PROJ)} --json")])


def f_twilio_sid():
    sid = "AC" + rs("h", 32)
    return pick([("text", f"Twilio Account SID: {sid} (auth token is in {store_talk()})"),
                 ("text", f"Message SM{rs('h', 32)} from account {sid} delivered"),
                 ("yaml", f"twilio:\n  account_sid: {sid}\n  messaging_service_sid: MG{rs('h', 32)}\n  from_number: \"+1555{R.randint(1000000, 9999999)}\""),
                 ("text", f"Call CA{rs('h', 32)} on {sid}, recording RE{rs('h', 32)}")])


def f_client_id():
    return pick([("text", f"Google OAuth client ID: {rs('n', 1)}{rs('d', 11)}-{rs('a', 32)}.apps.googleusercontent.com"),
                 ("text", f"GitHub App client ID Iv1.{rs('h', 16)}, app id {R.randint(100000, 999999)}, installation {R.randint(10000000, 99999999)}"),
                 ("text", f"Okta client_id 0oa{rs('m', 17)} (public SPA client, PKCE, no secret)"),
                 ("text", f"Slack app {pick(['A0', 'A1'])}{rs('A', 9)} client id {R.randint(1000000000, 9999999999)}.{R.randint(1000000000000, 9999999999999)}"),
                 ("json", {"client_id": rs("m", 32), "redirect_uris": [f"https://app.{domain()}/callback"], "grant_types": ["authorization_code"], "token_endpoint_auth_method": "none"}),
                 ("text", f"Discord application id {R.randint(700000000000000000, 1299999999999999999)}"),
                 ("text", f"GitHub OAuth app client id Ov23li{rs('m', 14)}")])


def f_azure_ids():
    return pick([("text", f"tenant {uuid4()}\nsubscription {uuid4()}\nclient (app) id {uuid4()}"),
                 ("text", f"/subscriptions/{uuid4()}/resourceGroups/rg-{pick(PROJ)}-{pick(ENVS)}/providers/Microsoft.Web/sites/{pick(PROJ)}-app"),
                 ("json", {"tenantId": uuid4(), "subscriptionId": uuid4(), "objectId": uuid4(), "displayName": f"sp-{pick(PROJ)}-ci"}),
                 ("text", f"az login --tenant {uuid4()} && az account set -s {uuid4()}")])


def f_gcp_ids():
    proj = f"{pick(PROJ)}-{rs('d', 6)}"
    return pick([("text", f"project {proj} (number {acct()})"), ("text", f"service account {pick(['ci', 'tf', 'gke-nodes'])}@{proj}.iam.gserviceaccount.com, unique id {rs('n', 1)}{rs('d', 20)}"),
                 ("text", f"operation operation-{R.randint(10 ** 12, 10 ** 13)}-{rs('h', 12)}-{rs('h', 8)}-{rs('h', 8)} done"),
                 ("text", f"gs://{proj}-artifacts/builds/{uuid4()}/log.txt")])


def f_request_id():
    return pick([("log", f"{ts()} 502 GET /api/orders request_id={uuid4()} upstream=10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}"),
                 ("http", f"HTTP/2 500\nx-request-id: {uuid4()}\ncf-ray: {rs('h', 16)}-{pick(['FRA', 'AMS', 'IAD', 'NRT', 'SIN'])}\ndate: {date()}"),
                 ("text", f"Support asked for the request id: req_{rs('m', 14)}"),
                 ("text", f"Lambda RequestId: {uuid4()} Duration: {R.randint(10, 900)}.{R.randint(10, 99)} ms")])


def f_trace_id():
    return pick([("http", f"traceparent: 00-{rs('h', 32)}-{rs('h', 16)}-01"), ("text", f"trace {rs('h', 32)} span {rs('h', 16)} took {R.randint(100, 9000)}ms"),
                 ("json", {"trace_id": rs("h", 32), "span_id": rs("h", 16), "service": pick(SVC), "duration_ms": R.randint(1, 5000)}),
                 ("text", f"X-Amzn-Trace-Id: Root=1-{rs('h', 8)}-{rs('h', 24)}")])


def f_build():
    return pick([("text", f"build #{R.randint(100, 99999)} of {pick(PROJ)} passed in {R.randint(2, 40)}m"), ("text", f"{pick(PROJ)} {v_()}+build.{R.randint(100, 9999)}.{rs('h', 7)}"),
                 ("text", f"GitHub run {R.randint(10 ** 9, 10 ** 10)} attempt {R.randint(1, 3)}"), ("json", {"version": v_(), "commit": rs("h", 40), "build": R.randint(1, 99999), "built_at": ts()})])


def f_stripe_ids():
    return pick([("text", f"customer cus_{rs('m', 14)} has subscription sub_1{rs('m', 23)} on price price_1{rs('m', 23)}"),
                 ("text", f"PaymentIntent pi_3{rs('m', 23)} failed: card_declined (charge ch_3{rs('m', 23)})"),
                 ("json", {"id": f"evt_1{rs('m', 23)}", "type": "invoice.paid", "data": {"object": {"id": f"in_1{rs('m', 23)}", "customer": f"cus_{rs('m', 14)}"}}}),
                 ("text", f"Connected account acct_1{rs('m', 15)}, payout po_1{rs('m', 23)}")])


def f_slack_ids():
    return pick([("text", f"post to channel C{rs('A', 10)} as user U{rs('A', 10)} in team T{rs('A', 8)}"),
                 ("text", f"message ts {R.randint(1700000000, 1760000000)}.{rs('d', 6)} in thread {R.randint(1700000000, 1760000000)}.{rs('d', 6)}"),
                 ("url", f"https://{pick(COMP)}.slack.com/archives/C{rs('A', 10)}/p{R.randint(1700000000, 1760000000)}{rs('d', 6)}")])


def f_doc_ids():
    return pick([("url", f"https://docs.google.com/document/d/{rs('u', 44)}/edit"), ("url", f"https://docs.google.com/spreadsheets/d/{rs('u', 44)}/edit#gid={R.randint(0, 2000000000)}"),
                 ("url", f"https://www.youtube.com/watch?v={rs('u', 11)}"), ("url", f"https://www.figma.com/design/{rs('m', 22)}/{pick(PROJ)}-screens"),
                 ("url", f"https://www.notion.so/{pick(COMP)}/{pick(PROJ).title()}-Roadmap-{rs('h', 32)}"), ("text", f"Airtable base app{rs('m', 14)} table tbl{rs('m', 14)} view viw{rs('m', 14)}")])


def f_container_ids():
    return pick([("text", f"CONTAINER ID   IMAGE\n{rs('h', 12)}   {pick(IMAGES)}\n{rs('h', 12)}   {pick(IMAGES)}"), ("text", f"container {rs('h', 64)} exited with 137"),
                 ("yaml", f"metadata:\n  name: {pick(PROJ)}-{rs('a', 10)}-{rs('a', 5)}\n  uid: {uuid4()}\n  resourceVersion: \"{R.randint(100000, 99999999)}\"")])


def f_fingerprint():
    return pick([("text", f"ED25519 key fingerprint is SHA256:{b64(rb(32)).rstrip('=')}."),
                 ("text", f"GPG key {' '.join(rs('H', 4) for _ in range(10))}"), ("text", f"SHA256 Fingerprint={':'.join(rs('H', 2) for _ in range(32))}"),
                 ("text", f"The authenticity of host '{hostname()} ({priv_ip()})' can't be established.\nECDSA key fingerprint is SHA256:{b64(rb(32)).rstrip('=')}.")])


def f_ipfs():
    return pick([("text", f"ipfs://bafybei{rs('v', 52)}"), ("text", f"pinned Qm{rs('s', 44)}")])


def f_eth_addr():
    a = "0x" + rs("h", 40)
    return pick([("text", f"Send testnet ETH to {a}"), ("text", f"contract deployed at {a} (block {R.randint(10 ** 6, 2 * 10 ** 7)})"),
                 ("json", {"to": a, "from": "0x" + rs("h", 40), "value": hex(R.randint(10 ** 12, 10 ** 18))})])


def f_eth_tx():
    h = "0x" + rs("h", 64)
    return pick([("text", f"tx hash {h}"), ("url", f"https://etherscan.io/tx/{h}"), ("text", f"block hash {h}, parent {'0x' + rs('h', 64)}"),
                 ("text", f"event topic0 {h} (Transfer)")])


def f_btc():
    return pick([("text", f"donations: bc1q{rs('q', 38)}"), ("text", f"txid {rs('h', 64)} confirmed"),
                 ("text", f"watch-only xpub6{rs('s', 106)}"), ("text", f"Lightning node id 02{rs('h', 64)}"),
                 ("text", f"Nostr public key npub1{rs('q', 58)}")])


def f_cachebust():
    return pick([("html", f"<script src=\"/static/js/main.{rs('h', 8)}.js\"></script>\n<link rel=\"stylesheet\" href=\"/static/css/app.{rs('h', 20)}.css\">"),
                 ("http", f"ETag: \"{rs('h', 32)}\"\nCache-Control: public, max-age=31536000"), ("text", f"assets/index-{rs('u', 8)}.js  {R.randint(50, 900)}.{R.randint(10, 99)} kB"),
                 ("text", f"S3 ETag \"{rs('h', 32)}-{R.randint(2, 40)}\" (multipart)")])


def f_nonce():
    return pick([("html", f"<script nonce=\"{b64(rb(16))}\">window.__APP__ = {{}};</script>"),
                 ("http", f"Idempotency-Key: {uuid4()}"), ("http", f"Content-Security-Policy: script-src 'self' 'nonce-{b64(rb(16))}'"),
                 ("text", f"WebSocket handshake Sec-WebSocket-Key: {b64(rb(16))}")])


def f_lfs():
    return "text", f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs('h', 64)}\nsize {R.randint(1000, 900000000)}"


IDENT_FAMILIES = [("git-sha", f_git_sha), ("sha256-digest", f_sha256), ("docker-digest", f_docker_digest), ("sri-integrity", f_sri),
                  ("go-sum", f_go_sum), ("uuid-ulid", f_ids), ("aws-arn", f_arn), ("aws-resource-id", f_aws_res),
                  ("aws-access-key-id-alone", f_aws_keyid), ("twilio-sid-alone", f_twilio_sid), ("oauth-client-id", f_client_id),
                  ("azure-tenant-id", f_azure_ids), ("gcp-resource-id", f_gcp_ids), ("request-id", f_request_id), ("trace-id", f_trace_id),
                  ("build-number", f_build), ("stripe-object-id", f_stripe_ids), ("slack-object-id", f_slack_ids), ("doc-id", f_doc_ids),
                  ("container-id", f_container_ids), ("fingerprint", f_fingerprint), ("ipfs-cid", f_ipfs), ("eth-address", f_eth_addr),
                  ("eth-tx-hash", f_eth_tx), ("crypto-public-id", f_btc), ("cache-bust-hash", f_cachebust), ("nonce-or-idempotency-key", f_nonce),
                  ("git-lfs-pointer", f_lfs)]


# --- public keys and certificates -------------------------------------------
def k_ssh_pub():
    st = R.randint(0, 3)
    if st == 0:
        return "authorized-keys", "\n".join(ssh_public_key() for _ in range(R.randint(1, 3)))
    if st == 1:
        return "text", f"Add my key to the bastion please:\n{ssh_public_key()}"
    if st == 2:
        return "known-hosts", "\n".join(f"{hostname()},{priv_ip()} {ssh_public_key(comment='')}" for _ in range(R.randint(1, 3)))
    return "yaml", f"users:\n  - name: {pick(FIRST)}\n    ssh_authorized_keys:\n      - {ssh_public_key()}"


def k_pem_pub():
    return pick([("pem", pem_public()), ("text", f"Public key for verifying webhook signatures:\n{pem_public()}"),
                 ("yaml", "jwt:\n  public_key: |\n" + "\n".join("    " + ln for ln in pem_public().split("\n")))])


def k_cert():
    st = R.randint(0, 2)
    if st == 0:
        return "pem", pem_cert()
    if st == 1:
        return "pem", pem_cert() + "\n" + pem_cert()
    return "pem", pem_cert("CERTIFICATE REQUEST")


def k_pgp_pub():
    return "pgp", pgp_block(False)


def k_jwks():
    d = {"keys": [jwk_public() for _ in range(R.randint(1, 3))]}
    return ("json", d) if chance(0.4) else ("json", json.dumps(d, indent=2))


def k_age():
    return pick([("text", f"age recipient: age1{rs('q', 58)}"), ("yaml", f"creation_rules:\n  - path_regex: secrets/.*\\.yaml$\n    age: age1{rs('q', 58)},age1{rs('q', 58)}")])


def k_wg_peer():
    return "wireguard", f"[Peer]\n# {pick(FIRST)}-laptop\nPublicKey = {b64(rb(32))}\nAllowedIPs = 10.8.0.{R.randint(2, 250)}/32\nEndpoint = {doc_ip()}:51820\nPersistentKeepalive = 25"


def k_dkim():
    body = b64(bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + rb(256) + bytes.fromhex("0203010001"))
    return "dns", f"{pick(['s1', 'google', 'k1', 'selector1', 'mail'])}._domainkey.{domain()}. 3600 IN TXT \"v=DKIM1; k=rsa; p={body}\""


def k_minisign():
    return "text", f"untrusted comment: minisign public key {rs('H', 16)}\nRWQ{b64(rb(39)).rstrip('=')}"


PUBKEY_FAMILIES = [("ssh-public-key", k_ssh_pub), ("pem-public-key", k_pem_pub), ("x509-certificate", k_cert), ("pgp-public-key", k_pgp_pub),
                   ("jwks", k_jwks), ("age-recipient", k_age), ("wireguard-peer", k_wg_peer), ("dkim-record", k_dkim), ("minisign-public-key", k_minisign)]


# --- password hashes / encrypted blobs / innocuous encodings ------------------
def h_pwhash():
    u = user()
    st = R.randint(0, 11)
    if st == 0:
        return "text", f"$2b$12${rs('p', 53)}"
    if st == 1:
        return "shadow", f"{u}:$6${rs('p', 16)}${rs('p', 86)}:{R.randint(19000, 20100)}:0:99999:7:::"
    if st == 2:
        return "text", f"$argon2id$v=19$m=65536,t=3,p=4${b64(rb(16)).rstrip('=')}${b64(rb(32)).rstrip('=')}"
    if st == 3:
        return "text", f"pbkdf2_sha256$870000${rs('m', 22)}${b64(rb(32))}"
    if st == 4:
        return "htpasswd", f"{u}:$apr1${rs('p', 8)}${rs('p', 22)}"
    if st == 5:
        return "sql", f"{dbname()}=# select rolname, rolpassword from pg_authid where rolname = '{u}';\n rolname | rolpassword\n---------+------------\n {u} | SCRAM-SHA-256$4096:{b64(rb(16))}${b64(rb(32))}:{b64(rb(32))}"
    if st == 6:
        return "mysql", f"mysql> CREATE USER '{u}'@'%' IDENTIFIED WITH mysql_native_password AS '*{rs('H', 40)}';"
    if st == 7:
        return "ldif", f"dn: uid={u},ou=people,dc={pick(COMP)},dc=com\nuserPassword: {{SSHA}}{b64(rb(24))}"
    if st == 8:
        return "device-config", f"username {u} privilege 15 secret 9 $9${rs('p', 14)}${rs('p', 43)}"
    if st == 9:
        return "text", f"scrypt:32768:8:1${rs('m', 16)}${rs('h', 128)}"
    if st == 10:
        return "device-config", f"enable secret 5 $1${rs('p', 4)}${rs('p', 22)}"
    return "text", f"$y$j9T${rs('p', 22)}${rs('p', 43)}"


def e_blob():
    st = R.randint(0, 9)
    if st == 0:
        lines = [rs("h", 80) for _ in range(R.randint(3, 8))]
        return "ansible-vault", "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(lines)
    if st == 1:
        enc = lambda n: f"ENC[AES256_GCM,data:{b64(rb(n))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]"
        return "sops", f"db_password: {enc(18)}\napi_key: {enc(30)}\nsops:\n    kms:\n        - arn: arn:aws:kms:{pick(REGIONS)}:{acct()}:key/{uuid4()}\n          enc: {b64(rb(120))}\n    lastmodified: \"{ts()}\"\n    version: 3.8.1"
    if st == 2:
        return "kubernetes", f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {pick(PROJ)}\nspec:\n  encryptedData:\n    password: Ag{b64(rb(380))}"
    if st == 3:
        return "age", f"-----BEGIN AGE ENCRYPTED FILE-----\n{wrap(b64(b'age-encryption.org/v1' + rb(R.randint(150, 400))))}\n-----END AGE ENCRYPTED FILE-----"
    if st == 4:
        data = bytes.fromhex("8501") + rb(R.randint(200, 500))
        return "pgp", f"-----BEGIN PGP MESSAGE-----\n\n{wrap(b64(data))}\n={b64(crc24(data).to_bytes(3, 'big'))}\n-----END PGP MESSAGE-----"
    if st == 5:
        return "json", {"CiphertextBlob": "AQICAH" + b64(rb(150)), "KeyId": f"arn:aws:kms:{pick(REGIONS)}:{acct()}:key/{uuid4()}", "EncryptionAlgorithm": "SYMMETRIC_DEFAULT"}
    if st == 6:
        return "properties", f"spring.datasource.password=ENC({b64(rb(32))})\njasypt.encryptor.algorithm=PBEWITHHMACSHA512ANDAES_256"
    if st == 7:
        return "text", f"config/credentials.yml.enc:\n{b64(rb(200))}--{b64(rb(12))}--{b64(rb(16))}"
    if st == 8:
        return "json", {"id": pick(PROJ), "password": {"encrypted_data": b64(rb(48)), "iv": b64(rb(12)), "auth_tag": b64(rb(16)), "version": 3, "cipher": "aes-256-gcm"}}
    return "dotenv", f"#/---[DOTENV_PUBLIC_KEY]---/\nDOTENV_PUBLIC_KEY=\"02{rs('h', 64)}\"\nAPI_KEY=\"encrypted:{b64(rb(100))}\"\nDB_URL=\"encrypted:{b64(rb(120))}\""


NEUTRAL_TEXTS = [
    lambda: f"meeting moved to {date()} {hhmm()}, room {pick(['Orion', 'Atlas', '4B', 'Lisbon'])}",
    lambda: json.dumps({"theme": pick(["dark", "light"]), "pageSize": R.randint(10, 100), "locale": pick(["en-US", "de-DE"]), "beta": chance(0.5)}),
    lambda: f"{pick(PROJ)} build {R.randint(100, 9999)} ok on {date()}",
    lambda: f"user={pick(FIRST)}&page={R.randint(1, 9)}&sort={pick(['asc', 'desc'])}",
    lambda: f"Hello {pick(FIRST).title()}, your report for {date()} is ready.",
    lambda: f"{{\"event\":\"signup\",\"plan\":\"{pick(['free', 'pro', 'team'])}\",\"ts\":\"{ts()}\"}}",
    lambda: f"lat={R.uniform(-60, 60):.5f},lon={R.uniform(-170, 170):.5f}",
    lambda: f"{pick(WORDS)} {pick(WORDS)} {pick(WORDS)} {pick(WORDS)} — grocery list for {date()}",
]


def n_b64():
    t = pick(NEUTRAL_TEXTS)()
    return pick([("text", f"payload (base64): {b64(t)}"), ("json", {"data": b64(t), "encoding": "base64"}), ("yaml", f"state: {b64(t)}"),
                 ("log", f"{ts()} DEBUG cursor={b64(t)}")])


def n_hex():
    t = pick(NEUTRAL_TEXTS)()
    return pick([("text", f"hexdump of the message: {t.encode().hex()}"), ("python", f"bytes.fromhex({dq(t.encode().hex())}).decode()")])


def n_urlenc():
    t = pick(NEUTRAL_TEXTS)()
    return pick([("url", f"https://{domain()}/search?q={urllib.parse.quote(t, safe='')}"), ("text", pct_all(t))])


def n_gzip():
    t = "\n".join(f"{ts()} INFO {pick(SVC)} {pick(['started', 'ok', 'tick', 'flushed', 'listening'])}" for _ in range(R.randint(3, 8)))
    return pick([("text", f"compressed log excerpt (gzip+base64): {b64(gzip.compress(t.encode(), mtime=0))}"), ("json", {"logs_gz_b64": b64(gzip.compress(t.encode(), mtime=0))})])


def n_datauri():
    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452") + rb(R.randint(40, 160))
    return pick([("html", f"<img alt=\"logo\" src=\"data:image/png;base64,{b64(png)}\">"), ("css", f".icon {{ background: url(data:image/png;base64,{b64(png)}); }}")])


ENCODING_FAMILIES = [("innocuous-base64", n_b64), ("innocuous-hex", n_hex), ("innocuous-url-encoded", n_urlenc), ("compressed-blob", n_gzip), ("data-uri", n_datauri)]


# --- benign look-alikes of the evasion containers -----------------------------
def l_fields():
    return "json", pick([{"bucket": f"{pick(COMP)}-{pick(PROJ)}", "prefix": f"exports/{date()}/", "region": pick(REGIONS)},
                         {"part1": f"Chapter {R.randint(1, 9)}", "part2": pick(WORDS), "part3": pick(WORDS)},
                         {"host": host("db"), "port": 5432, "database": dbname(), "user": user(), "sslmode": "require"},
                         {"first": rs("h", 8), "second": rs("h", 8), "note": "commit range for the changelog"}])


def l_list():
    return "json", pick([[f"i-0{rs('h', 16)}" for _ in range(R.randint(2, 5))], [uuid4() for _ in range(R.randint(2, 4))],
                         ["step 1: drain node", "step 2: cordon", f"step 3: upgrade to 1.{R.randint(27, 31)}", "step 4: uncordon"],
                         [rs("h", 7) for _ in range(R.randint(3, 6))]])


def l_wrapped():
    s = b64(pick(NEUTRAL_TEXTS)() * 3)
    return "text", "attachment body (base64, wrapped):\n" + wrap(s, 40)


def l_concat():
    return pick([("python", f"url = BASE_URL + \"/v1/\" + resource + \"?page=\" + str(page)"),
                 ("javascript", f"const url = `${{apiBase}}/orgs/${{orgId}}/members?limit=${{limit}}`;"),
                 ("go", f"path := strings.Join([]string{{\"{pick(PROJ)}\", \"releases\", version}}, \"/\")"),
                 ("java", f"String key = new StringBuilder(\"cache:\").append(tenantId).append(\":\").append(\"{pick(['orders', 'users'])}\").toString();")])


def l_spaced():
    return pick([("text", f"tracking number 1Z {rs('A', 3)} {rs('A', 3)} {rs('d', 2)} {rs('d', 4)} {rs('d', 4)}"),
                 ("text", f"serial: {rs('A', 4)}-{rs('A', 4)}-{rs('A', 4)}"), ("text", f"call +49 {R.randint(100, 999)} {R.randint(1000000, 9999999)}"),
                 ("text", f"room booking ref {rs('A', 3)} {rs('d', 3)}"), ("text", f"MAC {':'.join(rs('h', 2) for _ in range(6))}")])


CYR_WORDS = ["привет", "сервер", "база данных", "резервная копия", "обновление", "пользователь", "настройки", "журнал"]
GREEK = ["καλημέρα", "διακομιστής", "αντίγραφο ασφαλείας", "ρυθμίσεις"]


def l_cyr():
    return "text", pick([f"{pick(CYR_WORDS)}: {pick(CYR_WORDS)} {date()}", f"заметка: {pick(CYR_WORDS)} на {hostname()} готово",
                         f"{pick(GREEK)} — {pick(GREEK)} ({date()})", f"Πρόσθεσε το {hostname()} στο {pick(GREEK)}"])


def l_zw():
    t = pick(NOTES[pick(list(NOTES.keys()))])()
    return "text", zero_width(t) if chance(0.5) else t.replace(" ", "\u00a0", R.randint(1, 4))


def l_fullwidth():
    return "text", pick([f"会議は{fullwidth(str(R.randint(1, 12)))}月{fullwidth(str(R.randint(1, 28)))}日です。部屋は{fullwidth(pick(['A', 'B', 'C']) + str(R.randint(1, 9)))}",
                         f"サーバー{fullwidth(hostname())}の再起動完了", f"注文番号：{fullwidth(str(R.randint(100000, 999999)))}"])


def l_url_params():
    return pick([("url", f"https://{domain()}/pricing?utm_source={pick(['newsletter', 'twitter', 'google'])}&utm_medium={pick(['email', 'cpc'])}&utm_campaign={pick(PROJ)}"),
                 ("url", f"ssh://git@git.{domain()}:2222/{pick(TEAMS)}/{pick(PROJ)}.git"), ("url", f"https://{user()}@bitbucket.org/{pick(COMP)}/{pick(PROJ)}.git"),
                 ("url", f"postgres://{user()}@{host('db')}:5432/{dbname()}?sslmode=verify-full"),
                 ("url", f"https://{domain()}/reset?step=2&lang=en&ref={rs('a', 6)}"), ("url", f"https://maps.example.com/?ll={R.uniform(-50, 50):.4f},{R.uniform(-120, 120):.4f}&z=14")])


def l_url_frag():
    return "url", pick([f"https://docs.{domain()}/guide/install#{pick(['prerequisites', 'step-3', 'troubleshooting'])}",
                        f"https://app.{domain()}/#/projects/{R.randint(1, 999)}/settings", f"https://github.com/{pick(COMP)}/{pick(PROJ)}/blob/main/README.md#L{R.randint(1, 200)}-L{R.randint(201, 400)}"])


def l_pm_redacted():
    items = [{"id": uuid4(), "type": 1, "name": pick(VENDORS)["disp"], "login": {"uris": [{"uri": f"https://{domain()}"}], "username": email(), "password": None, "totp": None}}
             for _ in range(R.randint(1, 3))]
    st = R.randint(0, 2)
    if st == 0:
        return "bitwarden-json", {"encrypted": False, "folders": [{"id": uuid4(), "name": pick(["Work", "Infra"])}], "items": items, "note": "passwords stripped before sharing"}
    if st == 1:
        return "1password-csv", "Title,Website,Username,Password\n" + "\n".join(f"{i['name']},{i['login']['uris'][0]['uri']},{i['login']['username']},********" for i in items)
    return "bitwarden-json", {"encrypted": True, "passwordProtected": True, "salt": b64(rb(16)), "kdfType": 0, "kdfIterations": 600000,
                              "encKeyValidation_DO_NOT_EDIT": "2." + b64(rb(16)) + "|" + b64(rb(48)) + "|" + b64(rb(32)), "data": "2." + b64(rb(16)) + "|" + b64(rb(300)) + "|" + b64(rb(32))}


def l_cli():
    return "shell", pick([f"$ aws configure list\n      Name                    Value             Type    Location\n   profile                {pick(PROJ)}           manual    --profile\naccess_key     ****************{rs('A', 4)} shared-credentials-file\nsecret_key     ****************{rs('m', 4)} shared-credentials-file\n    region                {pick(REGIONS)}      config-file    ~/.aws/config",
                          f"$ gh auth status\ngithub.com\n  ✓ Logged in to github.com account {pick(FIRST)} (keyring)\n  - Token: gho_************************************\n  - Token scopes: 'gist', 'read:org', 'repo'",
                          f"$ psql -h {host('db')} -U {user()} {dbname()}\nPassword for user: \npsql (16.3)\nSSL connection (protocol: TLSv1.3)\n{dbname()}=>",
                          f"$ docker login ghcr.io -u {pick(FIRST)} --password-stdin < ~/.ghcr_token\nLogin Succeeded",
                          f"$ kubectl get secrets -n {pick(PROJ)}\nNAME{' ' * 20}TYPE{' ' * 30}DATA   AGE\n{pick(PROJ)}-db{' ' * 14}Opaque{' ' * 28}2      {R.randint(2, 90)}d",
                          f"$ vault kv get secret/{pick(PROJ)}\nError reading secret/{pick(PROJ)}: permission denied"])


def l_smtp():
    d = domain()
    return "smtp", f"S: 220 mx.{d} ESMTP\nC: EHLO {hostname()}\nS: 250-mx.{d}\nS: 250-STARTTLS\nS: 250 SIZE 35882577\nC: STARTTLS\nS: 220 2.0.0 Ready to start TLS"


def l_db():
    u = user()
    return pick([("psql", f"{dbname()}=# \\du\n List of roles\n Role name | Attributes\n-----------+------------\n {u} | \n postgres  | Superuser"),
                 ("mysql", f"mysql> SHOW GRANTS FOR '{u}'@'%';\nGRANT SELECT, INSERT ON `{dbname()}`.* TO `{u}`@`%`"),
                 ("redis", f"127.0.0.1:6379> INFO keyspace\n# Keyspace\ndb0:keys={R.randint(100, 99999)},expires={R.randint(0, 500)},avg_ttl={R.randint(0, 99999)}")])


def l_trace():
    return pick([("traceback", f"Traceback (most recent call last):\n  File \"/app/db.py\", line {R.randint(10, 300)}, in connect\nsqlalchemy.exc.OperationalError: (psycopg2.OperationalError) password authentication failed for user \"{user()}\"\n(engine url: postgresql://{user()}:***@{host('db')}:5432/{dbname()})"),
                 ("java-stacktrace", f"org.postgresql.util.PSQLException: FATAL: password authentication failed for user \"{user()}\"\n\tat org.postgresql.core.v3.ConnectionFactoryImpl.doAuthentication(ConnectionFactoryImpl.java:{R.randint(600, 800)})"),
                 ("node-error", "Error: getaddrinfo ENOTFOUND api.internal\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26)\n  config: { headers: { Authorization: '[REDACTED]' } }")])


def l_diff():
    f = pick(["config/settings.py", ".env.example", "deploy/values.yaml", "src/config.ts"])
    e = envname(pick(VENDORS)["pairs"][-1][0])
    return "diff", pick([f"--- a/{f}\n+++ b/{f}\n@@ -3,3 +3,3 @@\n-TIMEOUT=30\n+TIMEOUT=60\n {e}=${{{e}}}",
                         f"--- a/{f}\n+++ b/{f}\n@@ -1,2 +1,2 @@\n-{e}=${{{e}_OLD}}\n+{e}=${{{e}}}",
                         f"--- a/{f}\n+++ b/{f}\n@@ -10,1 +10,2 @@\n+{e}=<your-key-here>\n+LOG_LEVEL=debug"])


def l_dockercfg():
    return "docker-config", pick([{"credsStore": "desktop"}, {"credHelpers": {f"{acct()}.dkr.ecr.{pick(REGIONS)}.amazonaws.com": "ecr-login", "gcr.io": "gcloud"}},
                                  {"auths": {"ghcr.io": {}}, "credsStore": "osxkeychain"}])


def l_configmap():
    return "kubernetes", f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {pick(PROJ)}-config\ndata:\n  LOG_LEVEL: info\n  FEATURE_FLAGS: {b64(json.dumps({'beta': True, 'newNav': False}))}\n  ca.crt: |\n" + "\n".join("    " + ln for ln in pem_cert().split("\n"))


def l_log_redacted():
    return "log", pick([f"{ts()} DEBUG headers={{'Authorization': 'Bearer [FILTERED]', 'Accept': '*/*'}}",
                        f"{ts()} INFO  config loaded: DATABASE_URL=postgres://{user()}:****@{host('db')}/{dbname()}",
                        json.dumps({"ts": ts(), "level": "info", "msg": "token refreshed", "token": "<redacted>", "expires_in": 3600})])


def l_charcodes():
    t = pick(["hello", "OK", "ready", pick(FIRST)])
    return pick([("javascript", f"String.fromCharCode({', '.join(str(ord(c)) for c in t)}) // '{t}'"), ("python", f"''.join(map(chr, {[ord(c) for c in t]}))  # {t}")])


def l_entities():
    return "html", pick([f"<p>&copy; {R.randint(2020, 2025)} {pick(COMP).title()} &mdash; all rights reserved</p>", f"<span>&#9731; &#x2603; snow day on {date()}</span>"])


def l_nested():
    return "json", {"name": pick(PROJ), "config": json.dumps({"retries": R.randint(1, 5), "region": pick(REGIONS), "endpoint": f"https://api.{domain()}"})}


def l_rot13():
    t = pick([f"the butler did it", f"the answer is {R.randint(10, 99)}", f"spoiler: {pick(FIRST)} wins", "meet at the old bridge"])
    return "text", f"puzzle hint (rot13): {rot13(t)}"


def l_commented():
    e = envname(pick(VENDORS)["pairs"][-1][0])
    return pick([("python", f"{e} = os.environ[\"{e}\"]\n# {e} = \"<paste-key-here>\"  # for local testing only"), ("yaml", f"# api_key: <set via env>\napi_key: ${{{e}}}"),
                 ("javascript", f"// TODO: read {e} from the secrets manager instead of process.env\nconst key = process.env.{e};")])


def l_acct_table():
    rows = "\n".join(f"| {pick([hostname(), pick(PROJ)])} | {user()} | in {pick(['1Password', 'Vault', 'Bitwarden'])} | {pick(TEAMS)} |" for _ in range(R.randint(2, 4)))
    return "markdown-table", f"| system | user | password | owner |\n|---|---|---|---|\n{rows}"


def l_form():
    return pick([("http", f"POST /search HTTP/1.1\nHost: {domain()}\nContent-Type: application/x-www-form-urlencoded\n\n{urllib.parse.urlencode({'q': pick(WORDS), 'page': R.randint(1, 5), 'sort': 'relevance'})}"),
                 ("text", urllib.parse.urlencode({"name": person(), "email": email(), "message": "please call me back"}))])


def l_reversed():
    t = pick(["racecar", "level", f"{pick(WORDS)} {pick(WORDS)}"])
    return "text", f"reverse of '{t}' is '{t[::-1]}'"


def l_cookie():
    host_ = f"{pick(['www', 'shop', 'app'])}.{domain()}"
    name, val = pick(NONAUTH_COOKIES)()
    fmt, body = cookie_render(name, val, host_, nonauth_cookies(R.randint(0, 2)))
    return fmt, body


def l_unicode_esc():
    t = pick(["Größe", "café", "naïve", "Ωmega", "日本", "Straße", "señal"]) + f" {R.randint(1, 999)}"
    esc = "".join("\\u%04x" % ord(c) for c in t)
    return "json", '{"label": "' + esc + '"}'


LOOKALIKE_FAMILIES = [("plain-fields-object", l_fields), ("id-list", l_list), ("wrapped-base64-text", l_wrapped), ("code-concat-url", l_concat),
                      ("spaced-identifier", l_spaced), ("cyrillic-greek-text", l_cyr), ("invisible-chars-text", l_zw), ("fullwidth-text", l_fullwidth),
                      ("url-nonsecret-params", l_url_params), ("url-fragment-route", l_url_frag), ("password-manager-redacted", l_pm_redacted),
                      ("cli-transcript-benign", l_cli), ("smtp-transcript-benign", l_smtp), ("db-session-benign", l_db), ("stack-trace-redacted", l_trace),
                      ("config-diff", l_diff), ("docker-credhelper", l_dockercfg), ("k8s-configmap", l_configmap), ("log-redacted", l_log_redacted),
                      ("char-codes-text", l_charcodes), ("html-entities-text", l_entities), ("nested-json-config", l_nested), ("rot13-text", l_rot13),
                      ("commented-placeholder", l_commented), ("account-table-no-passwords", l_acct_table), ("form-body-benign", l_form),
                      ("reversed-text", l_reversed), ("cookie-nonauth", l_cookie), ("unicode-escaped-text", l_unicode_esc)]


def gen_families(families, per, topic_prefix=""):
    for kind, fn in families:
        def one(kind=kind, fn=fn):
            fmt, body = fn()
            return add("benign", "hard", kind, body, neutral_topic(), fmt)
        produce(per.get(kind, per["*"]) if isinstance(per, dict) else per, one)


# ---------------------------------------------------------------------------
# framing and shaping -- applied with the SAME probabilities to both labels
# ---------------------------------------------------------------------------
WHERE = ["Slack #infra", "Confluence", "the team wiki", "an email from {name}", "the runbook", "Notion", "a PR review", "my terminal", "the ops channel", "a Jira comment"]
PREFIXES = ["Saved from the {proj} repo:", "for later:", "Copied from {where} on {date}:", "remember this for {proj}", "{proj} / {env}",
            "From {name}:", "pinned:", "note to self —", "context: {ticket}", "keep this handy", "{env} setup", "as discussed with {name}:"]
FILLERS = ["owner: {team}", "env: {env}", "ticket: {ticket}", "reviewed: {date}", "region: {region}", "source: {where}", "tags: {tags}", "status: {status}"]


def fill(t):
    return t.format(proj=pick(PROJ), where=pick(WHERE).format(name=pick(FIRST)), date=date(), env=pick(ENVS), name=pick(FIRST).title(),
                    ticket=ticket(), team=pick(TEAMS), region=pick(REGIONS), tags=", ".join(sample(NS3, 2)), status=pick(["active", "done", "wip", "archived"]))


def digest_line(body):
    h = sha256_hex(body if isinstance(body, str) else canon(body))
    return pick([f"sha256: {h}", f"checksum sha256={h}", f"(digest {h[:16]})", f"content-sha256 {h}"])


def frame(rec):
    v = rec["value"]
    p_pre, p_fill, p_dig = chance(0.28), chance(0.12), chance(0.06)
    if isinstance(v, str):
        if p_pre:
            v = fill(pick(PREFIXES)) + pick(["\n", " ", "\n\n"]) + v
        if p_fill:
            v = v + "\n" + "\n".join(fill(pick(FILLERS)) for _ in range(R.randint(1, 2)))
        if p_dig:
            v = v + "\n" + digest_line(v)
    elif isinstance(v, dict):
        v = dict(v)
        if p_pre:
            v["_context"] = fill(pick(PREFIXES))
        if p_fill:
            v["_meta"] = {"owner": pick(TEAMS), "env": pick(ENVS), "reviewed": date()}
        if p_dig:
            v["_sha256"] = sha256_hex(canon(v))
    else:
        v = list(v)
        if p_pre:
            v.insert(0, fill(pick(PREFIXES)))
        if p_fill:
            v.append(fill(pick(FILLERS)))
        if p_dig:
            v.append(digest_line(v))
    rec["value"] = v


COARSE_FMTS = [n for n, _, _, _ in CONTAINERS] + ["text", "log", "html", "sql"]


def coarse_fmt(f):
    return f if f in COARSE_FMTS else pick(["text", "text", "config", "snippet"])


TITLE_SUFFIX = ["config", "setup", "notes", "snippet", "for later", "reference", "details", "settings", "memo", "scratch"]


def title_of(rec):
    return f"{rec['topic']} {pick(TITLE_SUFFIX)}"


def to_obj(rec):
    t = rec["value"]
    st = R.randint(0, 5)
    if st == 0:
        return {"note": t}
    if st == 1:
        return {"title": title_of(rec), "content": t}
    if st == 2:
        return {"type": "snippet", "format": coarse_fmt(rec["fmt"]), "body": t, "saved_at": ts()}
    if st == 3:
        return {"text": t, "tags": sample(NS3, R.randint(1, 3))}
    if st == 4:
        return {"source": fill(pick(WHERE)), "text": t, "pinned": chance(0.3)}
    lines = t.split("\n")
    if len(lines) > 1:
        return {"title": title_of(rec), "lines": lines}
    return {"memory": t, "created": date()}


def to_arr(rec):
    t = rec["value"]
    lines = [ln for ln in t.split("\n") if ln.strip()]
    if len(lines) > 1 and chance(0.6):
        return lines
    st = R.randint(0, 2)
    if st == 0:
        return [title_of(rec), t]
    if st == 1:
        return [t, f"saved {date()}"]
    return [t]


def shape_label(label):
    recs = [r for r in RECORDS if r["label"] == label]
    n = len(recs)
    t_obj, t_arr = round(0.20 * n), round(0.10 * n)
    n_obj = sum(1 for r in recs if isinstance(r["value"], dict))
    n_arr = sum(1 for r in recs if isinstance(r["value"], list))
    assert n_obj <= t_obj and n_arr <= t_arr, (label, n_obj, t_obj, n_arr, t_arr)
    texts = [r for r in recs if isinstance(r["value"], str)]
    R.shuffle(texts)
    k_obj, k_arr = t_obj - n_obj, t_arr - n_arr
    for r in texts[:k_obj]:
        r["value"] = to_obj(r)
    for r in texts[k_obj:k_obj + k_arr]:
        r["value"] = to_arr(r)


def shape_of(v):
    return "string" if isinstance(v, str) else "object" if isinstance(v, dict) else "array"


# ---------------------------------------------------------------------------
# assembly
# ---------------------------------------------------------------------------
def build():
    # ---- secrets ----
    gen_vendor_secrets(extra=31)
    gen_passwords(n_cfg=72, n_cli=84, n_dot=60, n_net=40, n_prose=54, n_personal=42)
    gen_private_key_blocks(44)
    gen_evasions(total=429)
    # ---- benign, plain ----
    produce(205, lambda: benign_vendor_record("config-env-ref"))
    produce(115, lambda: benign_vendor_record("config-secret-manager-ref"))
    produce(80, lambda: benign_vendor_record("config-placeholder"))
    produce(70, lambda: benign_vendor_record("config-empty"))
    produce(90, benign_nonsecret_record)
    produce(110, cred_talk_record)
    produce(225, note_record)
    # ---- benign, hard ----
    produce(72, publishable_record)
    produce(60, testmode_record)
    produce(16, test_card_record)
    produce(30, documented_record)
    produce(50, masked_record)
    gen_families(IDENT_FAMILIES, 10)
    gen_families(PUBKEY_FAMILIES, 10)
    gen_families([("password-hash", h_pwhash), ("encrypted-blob", e_blob)], 45)
    gen_families(ENCODING_FAMILIES, 10)
    gen_families(LOOKALIKE_FAMILIES, {"*": 6, "cookie-nonauth": 16})

    # ---- wrapping (label-neutral) ----
    for r in RECORDS:
        frame(r)
    for label in ("secret", "benign"):
        shape_label(label)

    # ---- ids, namespaces, keys ----
    counters = {}
    out = []
    keys_seen = {}
    for r in RECORDS:
        ck = (r["label"], r["variant"], r["kind"])
        counters[ck] = counters.get(ck, 0) + 1
        rid = f"t20a-{r['label'][0]}-{r['variant'][0]}-{r['kind']}-{counters[ck]:03d}"
        ns = ["memories", f"u{R.randint(10000, 999999999)}"]
        if chance(0.30):
            ns.append(pick(NS3))
        while True:
            key = "mem_" + rs("h", R.randint(8, 32))
            if key not in keys_seen:
                keys_seen[key] = True
                break
        out.append({"id": rid, "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": ns, "key": key, "value": r["value"],
                    "_fmt": r["fmt"]})
    vals = {}
    for o in out:
        c = canon(o["value"])
        assert c not in vals, o["id"]
        vals[c] = True
    R.shuffle(out)
    return out


def write(out):
    lines = []
    for o in out:
        obj = {k: o[k] for k in ("id", "label", "kind", "variant", "namespace", "key", "value")}
        lines.append(json.dumps(obj, ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT_PATH, "wb") as fh:
        fh.write(data)
    return hashlib.sha256(data).hexdigest()


def stats(out, digest):
    from collections import Counter
    print(f"file: {OUT_PATH}")
    print(f"sha256: {digest}")
    print(f"records: {len(out)}")
    lab = Counter(o["label"] for o in out)
    print("by label:", dict(sorted(lab.items())))
    lv = Counter((o["label"], o["variant"]) for o in out)
    print("by label/variant:", {f"{a}/{b}": c for (a, b), c in sorted(lv.items())})
    sh = Counter((o["label"], shape_of(o["value"])) for o in out)
    print("by label/shape:", {f"{a}/{b}": c for (a, b), c in sorted(sh.items())})
    ns3 = Counter((o["label"], len(o["namespace"]) == 3) for o in out)
    print("namespace with 3rd element:", {f"{a}/{b}": c for (a, b), c in sorted(ns3.items())})
    print("by kind:")
    for (l, v, k), c in sorted(Counter((o["label"], o["variant"], o["kind"]) for o in out).items()):
        print(f"  {l:6} {v:5} {k:32} {c}")
    print("secret vendor records by container:")
    for f, c in sorted(Counter(o["_fmt"] for o in out if o["kind"].startswith("vendor-")).items(), key=lambda x: -x[1]):
        print(f"  {f:18} {c}")
    print(f"distinct vendors in catalogue: {len(VENDORS)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stats", action="store_true", help="print counts and the sha256 after writing")
    args = ap.parse_args()
    out = build()
    digest = write(out)
    if args.stats:
        stats(out, digest)
    else:
        print(f"wrote {len(out)} records to {OUT_PATH} (sha256 {digest})")


if __name__ == "__main__":
    main()
