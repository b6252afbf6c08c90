#!/usr/bin/env python3.11
"""Generator for the held-out secret-detector evaluation corpus ``heldout18``.

Usage:
    python3.11 make_heldout18.py          # writes heldout18.jsonl next to this file
    python3.11 make_heldout18.py --stats  # same, then prints the count tables

Python 3.11 standard library only.  Every random choice and the final shuffle
come from ONE ``random.Random(18112026)`` instance, so the output is byte for
byte reproducible (independent of the working directory and PYTHONHASHSEED:
no set/dict-hash ordering is ever used to drive a choice).

All credential values are synthetic: only the public SHAPE of each format
(prefix, length, alphabet) is copied; every random part comes from the
seeded generator.  No value is a real, working credential.
"""
import base64
import binascii
import codecs
import gzip
import json
import os
import random
import re
import string
import struct
import sys
import zlib

SEED = 18112026
R = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout18.jsonl")

# ---------------------------------------------------------------------------
# basic random helpers
# ---------------------------------------------------------------------------
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
ALPH = {
    "h": "0123456789abcdef",
    "H": "0123456789ABCDEF",
    "d": string.digits,
    "n": "123456789",
    "l": string.ascii_lowercase,
    "u": string.ascii_uppercase,
    "a": string.ascii_lowercase + string.digits,
    "A": string.ascii_uppercase + string.digits,
    "m": string.ascii_letters + string.digits,
    "L": string.ascii_letters,
    "b": string.ascii_letters + string.digits + "+/",
    "w": string.ascii_letters + string.digits + "-_",
    "z": B58,
    "c": BECH,
    "C": BECH.upper(),
    "r": "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
    "v": "abcdefghijklmnopqrstuvwxyz234567",
    "p": string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)",
    "q": string.ascii_letters + string.digits + "!#%&()*+,-.:;<=>?@[]^_{|}~",
}


def rs(alpha, n):
    a = ALPH.get(alpha, alpha)
    return "".join(R.choice(a) for _ in range(n))


def rb(n):
    return bytes(R.randrange(256) for _ in range(n))


def pick(seq):
    return seq[R.randrange(len(seq))]


def chance(p):
    return R.random() < p


def uuid4():
    h = list(rs("h", 32))
    h[12] = "4"
    h[16] = pick("89ab")
    h = "".join(h)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def wrap(s, n=64):
    return "\n".join(s[i:i + n] for i in range(0, len(s), n))


def luhn_digit(body):
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    return luhn_digit(num[:-1]) == num[-1]


PUBLISHED_TEST_CARDS = [
    "4242424242424242", "4111111111111111", "4000056655665556", "5555555555554444",
    "2223003122003222", "5200828282828210", "5105105105105100", "378282246310005",
    "371449635398431", "6011111111111117", "6011000990139424", "3056930009020004",
    "36227206271667", "3566002020360505", "6200000000000005", "4012888888881881",
    "4000000000000002", "4000000000009995", "5454545454545454", "4917610000000000",
    "4444333322221111", "5425233430109903", "2222400070000005", "374245455400126",
]

CARD_BRANDS = [
    ("Visa", ["4"], 16), ("Mastercard", ["51", "52", "53", "54", "55", "2221", "2345", "2600", "2720"], 16),
    ("Amex", ["34", "37"], 15), ("Discover", ["6011", "644", "65"], 16),
    ("JCB", ["3528", "3541", "3566", "3589"], 16), ("UnionPay", ["62"], 16),
    ("Diners Club", ["36", "38"], 14), ("Maestro", ["6759", "5018"], 16),
]


def card_number(brand=None):
    while True:
        b = brand or pick(CARD_BRANDS)
        pre = pick(b[1])
        body = pre + rs("d", b[2] - len(pre) - 1)
        num = body + luhn_digit(body)
        if num in PUBLISHED_TEST_CARDS:
            continue
        if re.search(r"(\d)\1{5}", num):
            continue
        return b[0], num


def fmt_card(num):
    if len(num) == 15:
        return f"{num[:4]} {num[4:10]} {num[10:]}"
    if len(num) == 14:
        return f"{num[:4]} {num[4:10]} {num[10:]}"
    style = R.randrange(3)
    if style == 0:
        return " ".join(num[i:i + 4] for i in range(0, len(num), 4))
    if style == 1:
        return "-".join(num[i:i + 4] for i in range(0, len(num), 4))
    return num


def card_exp():
    return f"{R.randint(1, 12):02d}/{R.randint(26, 31)}"


def card_cvv(num):
    return rs("d", 4 if len(num) == 15 else 3)


def imei():
    body = pick(["35", "86", "01", "49", "99"]) + rs("d", 12)
    return body + luhn_digit(body)


def iccid():
    body = "89" + pick(["1", "44", "49", "33", "61", "91"]) + rs("d", 18 - 2)
    body = body[:18]
    return body + luhn_digit(body)


VIN_MAP = {**{str(i): i for i in range(10)},
           "A": 1, "B": 2, "C": 3, "D": 4, "E": 5, "F": 6, "G": 7, "H": 8,
           "J": 1, "K": 2, "L": 3, "M": 4, "N": 5, "P": 7, "R": 9,
           "S": 2, "T": 3, "U": 4, "V": 5, "W": 6, "X": 7, "Y": 8, "Z": 9}
VIN_W = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]
VIN_CH = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def vin():
    wmi = pick(["1HG", "WVW", "JHM", "1FA", "WBA", "VF1", "ZFA", "KMH", "5YJ", "SAL", "TMB", "YV1"])
    v = list(wmi + rs(VIN_CH, 5) + "0" + rs(VIN_CH, 1) + rs(VIN_CH, 1) + rs("d", 6))
    s = sum(VIN_MAP[c] * w for c, w in zip(v, VIN_W))
    v[8] = "X" if s % 11 == 10 else str(s % 11)
    return "".join(v)


# ---------------------------------------------------------------------------
# word pools
# ---------------------------------------------------------------------------
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

BIP39 += """dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline
decorate decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart
depend deposit depth deputy derive describe desert design desk despair destroy detail detect develop device
devote diagram dial diamond diary dice diesel diet differ digital dignity dilemma dinner dinosaur direct dirt
disagree discover disease dish dismiss disorder display distance divert divide divorce dizzy doctor document
dog doll dolphin domain donate donkey donor door dose double dove draft dragon drama drastic draw dream dress
drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf dynamic eager eagle
early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow elder
electric elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower
empty enable enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich
enroll ensure enter entire entry envelope episode equal equip era erase erode erosion error erupt escape essay
essence estate eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse
execute exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose express extend
extra eye eyebrow fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm
fashion fat fatal father fatigue fault favorite feature february federal fee feed feel female fence festival
fetch fever few fiber fiction field figure file film filter final find fine finger finish fire firm first
fiscal fish fit fitness fix flag flame flash flat flavor flee flight flip float flock floor flower fluid flush
fly foam focus fog foil fold follow food foot force forest forget fork fortune forum forward fossil foster
found fox fragile frame frequent fresh friend fringe frog front frost frown frozen fruit fuel fun funny
furnace fury future gadget gain galaxy gallery game gap garage garbage garden garlic garment gas gasp gate
gather gauge gaze general genius genre gentle genuine gesture ghost giant gift giggle ginger giraffe girl give
glad glance glare glass glide glimpse globe gloom glory glove glow glue goat goddess gold good goose gorilla
gospel gossip govern gown grab grace grain grant grape grass gravity great green grid grief grit grocery group
grow grunt guard guess guide guilt guitar gun gym habit hair half hammer hamster hand happy harbor hard harsh
harvest hat have hawk hazard head health heart heavy hedgehog height hello helmet help hen hero hidden high
hill hint hip hire history hobby hockey hold hole holiday hollow home honey hood hope horn horror horse
hospital host hotel hour hover hub huge human humble humor hundred hungry hunt hurdle hurry hurt husband
hybrid ice icon idea identify idle ignore ill illegal illness image imitate immense immune impact impose
improve impulse inch include income increase index indicate indoor industry infant inflict inform inhale
inherit initial inject injury inmate inner innocent input inquiry insane insect inside inspire install intact
interest into invest invite involve iron island isolate issue item ivory jacket jaguar jar jazz jealous jeans
jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep ketchup key
kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor ladder
lady lake lamp language laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader leaf
learn leave lecture left leg legal legend leisure lemon lend length lens leopard lesson letter level liar
liberty library license life lift light like limb limit link lion liquid list little live lizard load loan
lobster local lock logic lonely long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch
luxury lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango mansion
manual maple marble march margin marine market marriage mask mass master match material math matrix matter
maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention menu mercy merge
merit merry mesh message metal method middle midnight milk million mimic mind minimum minor minute miracle
mirror misery miss mistake mix mixed mixture mobile model modify mom moment monitor monkey monster month moon
moral more morning mosquito mother motion motor mountain mouse move movie much muffin mule multiply muscle
museum mushroom music must mutual myself mystery myth naive name napkin narrow nasty nation nature near neck
need negative neglect neither nephew nerve nest net network neutral never news next nice night noble noise
nominee noodle normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey
object oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old
olive olympic omit once one onion online only open opera opinion oppose option orange orbit orchard order
ordinary organ orient original orphan ostrich other outdoor outer output outside oval oven over own owner
oxygen oyster ozone pact paddle page pair palace palm panda panel panic panther paper parade parent park
parrot party pass patch path patient patrol pattern pause pave payment peace peanut pear peasant pelican pen
penalty pencil people pepper perfect permit person pet phone photo phrase physical piano picnic picture piece
pig pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please pledge pluck
plug plunge poem poet point polar pole police pond pony pool popular portion position possible post potato
pottery poverty powder power practice praise predict prefer prepare present pretty prevent price pride primary
print priority prison private prize problem process produce profit program project promote proof property
prosper protect proud provide public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose
purse push put puzzle pyramid quality quantum quarter question quick quit quiz quote rabbit raccoon race rack
radar radio rail rain raise rally ramp ranch random range rapid rare rate rather raven raw razor ready real
reason rebel rebuild recall receive recipe record recycle reduce reflect reform refuse region regret regular
reject relax release relief rely remain remember remind remove render renew rent reopen repair repeat replace
report require rescue resemble resist resource response result retire retreat return reunion reveal review
reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple risk ritual rival river road
roast robot robust rocket romance roof rookie room rose rotate rough round route royal rubber rude rug rule
run runway rural sad saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy satoshi
sauce sausage save say scale scan scare scatter scene scheme school science scissors scorpion scout scrap
screen script scrub sea search season seat second secret section security seed seek segment select sell
seminar senior sense sentence series service session settle setup seven shadow shaft shallow share shed shell
sheriff shield shift shine ship shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy
sibling sick side siege sight sign silent silk silly silver similar simple since sing siren sister situate six
size skate sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim slogan slot slow
slush small smart smile smoke smooth snack snake snap sniff snow soap soccer social sock soda soft solar
soldier solid solution solve someone song soon sorry sort soul sound soup source south space spare spatial
spawn speak special speed spell spend sphere spice spider spike spin spirit split spoil sponsor spoon sport
spot spray spread spring spy square squeeze squirrel stable stadium staff stage stairs stamp stand start state
stay steak steel stem step stereo stick still sting stock stomach stone stool story stove strategy street
strike strong struggle student stuff stumble style subject submit subway success such sudden suffer sugar
suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise surround survey suspect
sustain swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom syrup system table
tackle tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent
term test text thank that theme then theory there they thing this thought three thrive throw thumb thunder
ticket tide tiger tilt timber time tiny tip tired tissue title toast tobacco today toddler toe together toilet
token tomato tomorrow tone tongue tonight tool tooth top topic topple torch tornado tortoise toss total
tourist toward tower town toy track trade traffic tragic train transfer trap trash travel tray treat tree
trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet trust truth try tube tuition
tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist two type typical ugly umbrella unable
unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock until
unusual unveil update upgrade uphold upon upper upset urban urge usage use used useful useless usual utility
vacant vacuum vague valid valley valve van vanish vapor various vast vault vehicle velvet vendor venture venue
verb verify version very vessel veteran viable vibrant vicious victory video view village vintage violin
virtual virus visa visit visual vital vivid vocal voice void volcano volume vote voyage wage wagon wait walk
wall walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel weather web
wedding weekend weird welcome west wet whale what wheat wheel when where whip whisper wide width wife wild
will win window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder wood wool word
work world worry worth wrap wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone
zoo""".split()

PW_WORDS = """sunflower tiger marble falcon pepper river mango rocket violet harbor copper meadow thunder lemon
biscuit winter pirate dragon nimbus cobalt walnut cactus saturn olive maple breeze panther velvet canyon ember
polar sparrow juniper orbit puffin glacier cinder tulip quartz bison lantern otter summit cedar hazel kettle
pickle noodle waffle mocha pretzel banjo comet koala lobster nacho pebble raven salsa taco yoyo zebra willow""".split()

FIRST = ["Anna", "Ben", "Carla", "Dev", "Elif", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kemi", "Luca",
         "Maya", "Nico", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wen", "Ximena",
         "Yusuf", "Zoe", "Leah", "Marco", "Aisha", "Tomas", "Ingrid", "Kofi", "Mei", "Diego", "Sofia", "Raj"]
LAST = ["Berg", "Okafor", "Nakamura", "Silva", "Kowalski", "Haddad", "Novak", "Lindqvist", "Moreau", "Patel",
        "Schmidt", "Rossi", "Kim", "Nguyen", "Garcia", "Cohen", "Dubois", "Fischer", "Mensah", "Ivanova"]
CITIES = ["Lisbon", "Leeds", "Austin", "Kyoto", "Porto", "Nairobi", "Oslo", "Denver", "Seville", "Ghent",
          "Krakow", "Tucson", "Hobart", "Bergen", "Valencia", "Lyon", "Graz", "Cork", "Busan", "Cusco"]
STREETS = ["Maple St", "Oak Avenue", "Harbour Rd", "Linden Way", "Mill Lane", "Station Road", "Elm Court",
           "Birch Close", "Kingfisher Dr", "Willow Grove", "Church Street", "Park Terrace"]
BANKS = ["Chase", "Barclays", "ING", "Santander", "Monzo", "Revolut", "BBVA", "Rabobank", "Wells Fargo",
         "N26", "Nationwide", "credit union", "HSBC", "Capital One", "Sparkasse"]
STORES = ["Target", "Lidl", "IKEA", "Costco", "Aldi", "Tesco", "the farmers market", "Decathlon", "Rewe",
          "the hardware store", "Trader Joe's", "Boots"]
PETS = ["Biscuit", "Mochi", "Pepper", "Rex", "Luna", "Noodle", "Ziggy", "Chester", "Pippin", "Tofu",
        "Bruno", "Clementine", "Waffles", "Juniper", "Otis", "Pickles"]
NETS = ["NETGEAR42", "Vodafone-7C21", "TP-Link_5G_3A9F", "BT-HUB-8K2Q", "FRITZ!Box 7590 QX", "Livebox-91A0",
        "SKY3F2A1", "HomeNet", "Casa_Silva", "The LAN Before Time", "Pretty Fly for a WiFi", "eduroam-guest"]
DOMAINS = ["gmail.com", "outlook.com", "proton.me", "yahoo.com", "icloud.com", "gmx.de", "web.de", "hotmail.fr",
           "fastmail.com", "mail.ru", "naver.com", "qq.com"]
APPS = ["billing-api", "orders-svc", "checkout", "notify-worker", "reporting", "auth-gateway", "inventory",
        "search-indexer", "media-proxy", "payroll-sync", "crm-bridge", "metrics-agent", "webshop", "ledger"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def name():
    return pick(FIRST)


def fullname():
    return f"{pick(FIRST)} {pick(LAST)}"


def email_addr():
    n = pick(FIRST).lower()
    return f"{n}{pick(['', '.', '_'])}{pick(LAST).lower()}{pick(['', str(R.randint(1, 99))])}@{pick(DOMAINS)}"


def username():
    return pick([pick(FIRST).lower() + str(R.randint(1, 999)), pick(FIRST).lower() + "." + pick(LAST).lower(),
                 pick(FIRST)[0].lower() + pick(LAST).lower(), pick(PW_WORDS) + "_" + pick(PW_WORDS)])


def date_iso():
    return f"20{R.randint(24, 26)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def date_human():
    return pick([f"{R.randint(1, 28)} {pick(MONTHS)}", f"{pick(MONTHS)} {R.randint(1, 28)}",
                 f"{R.randint(1, 28):02d}.{R.randint(1, 12):02d}.", f"{R.randint(1, 12)}/{R.randint(1, 28)}"])


def time_h():
    return pick([f"{R.randint(7, 20)}:{pick(['00', '15', '30', '45'])}",
                 f"{R.randint(1, 12)}{pick(['am', 'pm', ':30pm', ':15am'])}"])


def money():
    return pick(["$", "€", "£", ""]) + f"{R.randint(3, 900)}.{R.randint(0, 99):02d}"


def hostname():
    return pick([f"db-{rs('a', 6)}.internal", f"{pick(APPS)}.{pick(['prod', 'stg', 'eu1', 'us2'])}.example.net",
                 f"{rs('l', 8)}.rds.amazonaws.com", f"10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}",
                 f"pg-{rs('a', 5)}.{pick(['aivencloud.com', 'db.ondigitalocean.com', 'postgres.database.azure.com'])}"])


def human_password():
    s = R.randrange(8)
    if s == 0:
        return pick(PW_WORDS).capitalize() + str(R.randint(10, 2029)) + pick("!?#$*.")
    if s == 1:
        return f"{pick(PW_WORDS)}{pick('-_.')}{pick(PW_WORDS)}{pick('-_.')}{R.randint(10, 99)}"
    if s == 2:
        return rs("q", R.randint(12, 18))
    if s == 3:
        w = pick(PW_WORDS)
        tr = str.maketrans({"a": "4", "e": "3", "i": "1", "o": "0", "s": "$"})
        return w.capitalize().translate(tr) + pick(PW_WORDS).capitalize() + pick("!#%&")
    if s == 4:
        return " ".join(pick(PW_WORDS) for _ in range(4))
    if s == 5:
        return rs("m", R.randint(10, 14))
    if s == 6:
        return pick(PETS) + pick(["", "_", "."]) + str(R.randint(1970, 2020)) + pick(["!", "", "?!", "#"])
    return pick(PW_WORDS).upper()[:3] + rs("d", 3) + pick(PW_WORDS) + pick("@!")


def pct(s):
    return "".join(c if c.isalnum() or c in "-._~" else "%%%02X" % ord(c) for c in s)


# ---------------------------------------------------------------------------
# structured synthetic key material (shape only, random bytes)
# ---------------------------------------------------------------------------
def _der_len(n):
    if n < 128:
        return bytes([n])
    if n < 256:
        return bytes([0x81, n])
    return bytes([0x82, n >> 8, n & 255])


def pem(label, der, width=64):
    return f"-----BEGIN {label}-----\n{wrap(b64(der), width)}\n-----END {label}-----"


def ec_pem():
    der = (bytes.fromhex("30770201010420") + rb(32) + bytes.fromhex("a00a06082a8648ce3d030107a14403420004") + rb(64))
    return pem("EC PRIVATE KEY", der)


def pkcs8_ec():
    der = (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + rb(32)
           + bytes.fromhex("a144034200") + b"\x04" + rb(64))
    return pem("PRIVATE KEY", der)


def rsa1024():
    def integer(n, lead=True):
        body = (b"\x00" if lead else b"") + bytes([R.randint(0x80, 0xff)]) + rb(n - 1)
        return b"\x02" + _der_len(len(body)) + body
    body = (b"\x02\x01\x00" + integer(128) + b"\x02\x03\x01\x00\x01" + integer(128, False)
            + integer(64) + integer(64) + integer(64, False) + integer(64, False) + integer(64))
    der = b"\x30" + _der_len(len(body)) + body
    return pem("RSA PRIVATE KEY", der)


def _ssh_s(x):
    return struct.pack(">I", len(x)) + x


def openssh_ed25519(comment=None):
    comment = (comment or f"{pick(FIRST).lower()}@{pick(['laptop', 'mbp', 'ci-runner', 'build01', 'nas'])}").encode()
    pk, sk = rb(32), rb(32)
    pub = _ssh_s(b"ssh-ed25519") + _ssh_s(pk)
    chk = rb(4)
    priv = chk + chk + _ssh_s(b"ssh-ed25519") + _ssh_s(pk) + _ssh_s(sk + pk) + _ssh_s(comment)
    i = 1
    while len(priv) % 8:
        priv += bytes([i])
        i += 1
    blob = b"openssh-key-v1\x00" + _ssh_s(b"none") + _ssh_s(b"none") + _ssh_s(b"") + struct.pack(">I", 1) + _ssh_s(pub) + _ssh_s(priv)
    return pem("OPENSSH PRIVATE KEY", blob, 70)


def pgp_private():
    body = b"\x95\x01\xd8\x04" + rb(R.randint(300, 380))
    crc = b64(rb(3))
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + wrap(b64(body), 64) + "\n=" + crc
            + "\n-----END PGP PRIVATE KEY BLOCK-----")


def putty_ppk():
    pub = b64(_ssh_s(b"ssh-ed25519") + _ssh_s(rb(32)))
    priv = b64(_ssh_s(rb(32)))
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-2025" + rs("d", 4)
            + f"\nPublic-Lines: 2\n{wrap(pub, 64)}\nPrivate-Lines: 1\n{priv}\nPrivate-MAC: {rs('h', 64)}")


def minisign_secret():
    return "untrusted comment: minisign encrypted secret key\nRWRTY0Iy" + b64(rb(150))[:196]


def jwk_private():
    return json.dumps({"kty": "EC", "crv": "P-256", "x": b64u(rb(32)), "y": b64u(rb(32)), "d": b64u(rb(32)),
                       "kid": rs("a", 8)}, separators=(",", ":"))


def jwt(payload=None, alg="HS256", sig_bytes=32):
    hdr = {"alg": alg, "typ": "JWT"}
    if payload is None:
        now = R.randint(1735000000, 1790000000)
        payload = pick([
            {"sub": rs("d", 8), "iat": now, "exp": now + 86400 * R.randint(30, 3650)},
            {"user_id": R.randint(1000, 999999), "scope": pick(["read write", "admin", "api"]), "iat": now},
            {"iss": pick(["auth", "api", "console"]), "aud": pick(["web", "cli"]), "jti": rs("a", 16), "iat": now},
            {"tid": rs("d", 6), "uid": rs("d", 8), "rgn": pick(["euc1", "use1", "apse1"]), "iat": now},
        ])
    return (b64u(json.dumps(hdr, separators=(",", ":")).encode()) + "."
            + b64u(json.dumps(payload, separators=(",", ":")).encode()) + "." + b64u(rb(sig_bytes)))


def jwt_supabase():
    now = R.randint(1700000000, 1760000000)
    return jwt({"iss": "supabase", "ref": rs("l", 20), "role": "service_role", "iat": now, "exp": now + 315360000})


def discord_token():
    uid = str(R.randint(10 ** 17, 10 ** 19 - 1)).encode()
    return b64u(uid) + "." + rs("w", 6) + "." + rs("w", 38)


def intercom_token():
    return b64(f"tok:{uuid4().replace('-', '_')}:1:0".encode())


def btc_wif():
    return pick(["5" + pick("HJK") + rs("z", 49), pick("KL") + rs("z", 51)])


def sol_json():
    return "[" + ",".join(str(R.randrange(256)) for _ in range(64)) + "]"


def wp_salt():
    return rs(string.ascii_letters + string.digits + "!@#$%^&*()-_[]{}<>~+=,.;:/?|", 64).replace("'", "x")


def gcp_sa_json():
    proj = f"{pick(['acme', 'orbit', 'nimbus', 'atlas', 'quill'])}-{pick(['prod', 'data', 'ml', 'web'])}-{rs('d', 6)}"
    acct = pick(["deployer", "ci-bot", "etl", "backend"])
    return json.dumps({
        "type": "service_account", "project_id": proj, "private_key_id": rs("h", 40),
        "private_key": pkcs8_ec() + "\n",
        "client_email": f"{acct}@{proj}.iam.gserviceaccount.com", "client_id": rs("d", 21),
        "token_uri": "https://oauth2.googleapis.com/token"}, indent=2)


def wg_key():
    return b64(rb(32))


def seed_phrase(n=12):
    return " ".join(pick(BIP39) for _ in range(n))


SPECIAL = {
    "uuid": lambda a, b: uuid4(),
    "UUID": lambda a, b: uuid4().upper(),
    "B64": lambda a, b: b64(rb(a)),
    "W64": lambda a, b: b64u(rb(a)),
    "W64pad": lambda a, b: base64.urlsafe_b64encode(rb(a)).decode(),
    "pw": lambda a, b: human_password(),
    "pwurl": lambda a, b: pct(human_password()),
    "pwsafe": lambda a, b: pick(PW_WORDS).capitalize() + rs("m", 8) + str(R.randint(10, 99)),
    "user": lambda a, b: pick(["app", "admin", "svc_" + pick(APPS).split("-")[0], "etl", "readonly", "deploy",
                               pick(FIRST).lower(), "postgres", "root", "api_user"]),
    "host": lambda a, b: hostname(),
    "db": lambda a, b: pick(["app", "orders", "prod", "analytics", "crm", "main", "billing", "shop"]),
    "email": lambda a, b: email_addr(),
    "jwt": lambda a, b: jwt(),
    "jwt_rs": lambda a, b: jwt(alg="RS256", sig_bytes=256),
    "jwt_es": lambda a, b: jwt(alg="EdDSA", sig_bytes=64),
    "jwt_supabase": lambda a, b: jwt_supabase(),
    "ec_pem": lambda a, b: ec_pem(),
    "pkcs8ec": lambda a, b: pkcs8_ec(),
    "rsa1024": lambda a, b: rsa1024(),
    "openssh": lambda a, b: openssh_ed25519(),
    "pgp_priv": lambda a, b: pgp_private(),
    "ppk": lambda a, b: putty_ppk(),
    "minisign": lambda a, b: minisign_secret(),
    "jwk": lambda a, b: jwk_private(),
    "discord": lambda a, b: discord_token(),
    "intercom": lambda a, b: intercom_token(),
    "wif": lambda a, b: btc_wif(),
    "sol_json": lambda a, b: sol_json(),
    "wpsalt": lambda a, b: wp_salt(),
    "gcpsa": lambda a, b: gcp_sa_json(),
    "wg": lambda a, b: wg_key(),
    "seed12": lambda a, b: seed_phrase(12),
    "lw": lambda a, b: pick(PW_WORDS),
}

TOK = re.compile(r"\{([A-Za-z0-9_]+)(?::(\d+)(?:-(\d+))?)?\}")


def T(tmpl):
    def rep(m):
        nm, a, b = m.group(1), m.group(2), m.group(3)
        a = int(a) if a else 0
        b = int(b) if b else None
        if nm in SPECIAL:
            return SPECIAL[nm](a, b)
        if len(nm) == 1 and nm in ALPH:
            n = R.randint(a, b) if b else a
            return rs(nm, n)
        raise KeyError(nm)
    return TOK.sub(rep, tmpl)


# ---------------------------------------------------------------------------
# vendor credential formats: (vendor, category, kind, [(VAR, template), ...])
# the LAST pair of each entry is the most sensitive part
# ---------------------------------------------------------------------------
FORMATS = []


def F(vendor, cat, kind, *pairs):
    ps = []
    for p in pairs:
        k, v = p.split("=", 1)
        ps.append((k, v))
    FORMATS.append({"vendor": vendor, "cat": cat, "kind": kind, "pairs": ps})


# cloud / infrastructure
F("AWS", "cloud", "aws-access-key", "AWS_ACCESS_KEY_ID=AKIA{A:16}", "AWS_SECRET_ACCESS_KEY={b:40}")
F("AWS", "cloud", "aws-session-credentials", "AWS_ACCESS_KEY_ID=ASIA{A:16}", "AWS_SECRET_ACCESS_KEY={b:40}",
  "AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{b:160}")
F("AWS", "ai", "aws-bedrock-api-key", "AWS_BEARER_TOKEN_BEDROCK=ABSKQmVkcm9ja0FQSUtleS{b:100}")
F("Google Cloud", "cloud", "gcp-api-key", "GOOGLE_API_KEY=AIza{w:35}")
F("Google Cloud", "cloud", "gcp-oauth-client-secret", "GOOGLE_CLIENT_ID={d:12}-{a:32}.apps.googleusercontent.com",
  "GOOGLE_CLIENT_SECRET=GOCSPX-{w:28}")
F("Google Cloud", "cloud", "gcp-service-account-json", "GOOGLE_CREDENTIALS_JSON={gcpsa}")
F("Google", "identity", "google-oauth-refresh-token", "GOOGLE_REFRESH_TOKEN=1//0{w:2}{w:96}")
F("Google", "identity", "google-oauth-access-token", "GOOGLE_ACCESS_TOKEN=ya29.a0{w:150}")
F("Microsoft Azure", "cloud", "azure-storage-account-key", "AZURE_STORAGE_KEY={B64:64}")
F("Microsoft Azure", "cloud", "azure-storage-connection-string",
  "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={a:12};AccountKey={B64:64};EndpointSuffix=core.windows.net")
F("Microsoft Azure", "cloud", "azure-ad-client-secret", "AZURE_TENANT_ID={uuid}", "AZURE_CLIENT_ID={uuid}",
  "AZURE_CLIENT_SECRET={w:3}8Q~{w:34}")
F("Microsoft Azure", "cloud", "azure-sas-url",
  "AZURE_BLOB_SAS_URL=https://{a:12}.blob.core.windows.net/{l:8}?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2027-01-31T23:59:59Z&spr=https&sig={m:43}%3D")
F("Azure DevOps", "cicd", "azure-devops-pat", "AZURE_DEVOPS_PAT={a:52}")
F("Azure DevOps", "cicd", "azure-devops-pat-v2", "AZURE_DEVOPS_EXT_PAT={m:52}AZDO{m:28}")
F("Azure Cosmos DB", "database", "cosmosdb-connection-string",
  "COSMOS_CONNECTION_STRING=AccountEndpoint=https://{a:10}.documents.azure.com:443/;AccountKey={B64:64};")
F("Azure Service Bus", "messaging", "azure-servicebus-connection-string",
  "SERVICEBUS_CONNECTION=Endpoint=sb://{a:10}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={B64:32}")
F("Azure OpenAI", "ai", "azure-openai-key", "AZURE_OPENAI_ENDPOINT=https://{a:10}.openai.azure.com/", "AZURE_OPENAI_API_KEY={h:32}")
F("Azure Functions", "cloud", "azure-function-key", "AZURE_FUNCTION_KEY={w:54}==")
F("Alibaba Cloud", "cloud", "alibaba-access-key", "ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI{m:20}", "ALIBABA_CLOUD_ACCESS_KEY_SECRET={m:30}")
F("Tencent Cloud", "cloud", "tencent-cloud-secret", "TENCENTCLOUD_SECRET_ID=AKID{m:32}", "TENCENTCLOUD_SECRET_KEY={m:32}")
F("Huawei Cloud", "cloud", "huawei-access-key", "HUAWEICLOUD_SDK_AK={A:20}", "HUAWEICLOUD_SDK_SK={m:40}")
F("Baidu AI Cloud", "cloud", "baidu-aksk", "BAIDU_API_KEY={m:24}", "BAIDU_SECRET_KEY={m:32}")
F("IBM Cloud", "cloud", "ibm-cloud-api-key", "IBMCLOUD_API_KEY={w:44}")
F("Oracle Cloud", "cloud", "oci-auth-token", "OCI_USER=oracleidentitycloudservice/{email}", "OCI_AUTH_TOKEN={q:20}")
F("DigitalOcean", "cloud", "digitalocean-pat", "DIGITALOCEAN_TOKEN=dop_v1_{h:64}")
F("DigitalOcean", "cloud", "digitalocean-oauth-token", "DO_OAUTH_TOKEN=doo_v1_{h:64}")
F("DigitalOcean", "cloud", "digitalocean-refresh-token", "DO_REFRESH_TOKEN=dor_v1_{h:64}")
F("DigitalOcean Spaces", "cloud", "do-spaces-key", "SPACES_KEY=DO00{A:16}", "SPACES_SECRET={b:43}")
F("Linode", "cloud", "linode-token", "LINODE_TOKEN={h:64}")
F("Vultr", "cloud", "vultr-api-key", "VULTR_API_KEY={A:36}")
F("Hetzner Cloud", "cloud", "hetzner-token", "HCLOUD_TOKEN={m:64}")
F("Scaleway", "cloud", "scaleway-key", "SCW_ACCESS_KEY=SCW{A:17}", "SCW_SECRET_KEY={uuid}")
F("OVHcloud", "cloud", "ovh-api-keys", "OVH_APPLICATION_KEY={m:16}", "OVH_APPLICATION_SECRET={m:32}", "OVH_CONSUMER_KEY={m:32}")
F("Exoscale", "cloud", "exoscale-key", "EXOSCALE_API_KEY=EXO{h:24}", "EXOSCALE_API_SECRET={w:43}")
F("UpCloud", "cloud", "upcloud-token", "UPCLOUD_TOKEN=ucat_{A:26}")
F("Civo", "cloud", "civo-key", "CIVO_TOKEN={m:50}")
F("Backblaze B2", "cloud", "backblaze-app-key", "B2_APPLICATION_KEY_ID=005{h:22}", "B2_APPLICATION_KEY=K005{m:27}")
F("Wasabi", "cloud", "wasabi-keys", "WASABI_ACCESS_KEY={A:20}", "WASABI_SECRET_KEY={m:40}")
F("Cloudflare R2", "cloud", "r2-keys", "R2_ACCESS_KEY_ID={h:32}", "R2_SECRET_ACCESS_KEY={h:64}")
F("Cloudflare", "cdn", "cloudflare-api-token", "CLOUDFLARE_API_TOKEN={w:40}")
F("Cloudflare", "cdn", "cloudflare-global-api-key", "CLOUDFLARE_EMAIL={email}", "CLOUDFLARE_API_KEY={h:37}")
F("Cloudflare", "cdn", "cloudflare-origin-ca-key", "CF_ORIGIN_CA_KEY=v1.0-{h:24}-{h:146}")
F("Cloudflare", "networking", "cloudflared-tunnel-token", "TUNNEL_TOKEN=eyJhIjoi{w:150}")
F("Fastly", "cdn", "fastly-api-token", "FASTLY_API_TOKEN={w:32}")
F("Akamai", "cdn", "akamai-edgegrid", "host=akab-{a:16}-{a:16}.luna.akamaiapis.net", "access_token=akab-{a:16}-{a:16}",
  "client_token=akab-{a:16}-{a:16}", "client_secret={B64:32}")
F("Bunny.net", "cdn", "bunny-api-key", "BUNNY_API_KEY={uuid}{h:4}-{h:4}-{h:4}-{h:4}-{h:12}")
F("KeyCDN", "cdn", "keycdn-api-key", "KEYCDN_API_KEY={m:32}")
F("StackPath", "cdn", "stackpath-client", "STACKPATH_CLIENT_ID={h:32}", "STACKPATH_CLIENT_SECRET={h:64}")
F("Gcore", "cdn", "gcore-api-token", "GCORE_API_TOKEN={d:5}${h:128}")
F("Imperva", "cdn", "imperva-api-key", "IMPERVA_API_ID={d:5}", "IMPERVA_API_KEY={uuid}")
F("Heroku", "cloud", "heroku-api-key", "HEROKU_API_KEY=HRKU-AA{w:58}")
F("Heroku", "cloud", "heroku-api-key-legacy", "HEROKU_API_KEY={uuid}")
F("Netlify", "cloud", "netlify-pat", "NETLIFY_AUTH_TOKEN=nfp_{m:36}")
F("Vercel", "cloud", "vercel-token", "VERCEL_TOKEN={m:24}")
F("Fly.io", "cloud", "flyio-token", "FLY_API_TOKEN=FlyV1 fm2_{w:100}==,fm2_{w:60}=")
F("Render", "cloud", "render-api-key", "RENDER_API_KEY=rnd_{m:32}")
F("Railway", "cloud", "railway-token", "RAILWAY_TOKEN={uuid}")
F("Koyeb", "cloud", "koyeb-token", "KOYEB_TOKEN={m:64}")
F("Supabase", "database", "supabase-pat", "SUPABASE_ACCESS_TOKEN=sbp_{h:40}")
F("Supabase", "database", "supabase-secret-key", "SUPABASE_SECRET_KEY=sb_secret_{w:32}")
F("Supabase", "database", "supabase-service-role-jwt", "SUPABASE_URL=https://{l:20}.supabase.co",
  "SUPABASE_SERVICE_ROLE_KEY={jwt_supabase}")
F("Firebase", "messaging", "fcm-server-key", "FCM_SERVER_KEY=AAAA{w:7}:APA91b{w:134}")
F("Doppler", "secrets", "doppler-personal-token", "DOPPLER_TOKEN=dp.pt.{m:43}")
F("Doppler", "secrets", "doppler-service-token", "DOPPLER_TOKEN=dp.st.prd.{m:40}")
F("Doppler", "secrets", "doppler-service-account-token", "DOPPLER_TOKEN=dp.sa.{m:43}")
F("Doppler", "secrets", "doppler-cli-token", "DOPPLER_TOKEN=dp.ct.{m:43}")
F("Pulumi", "cicd", "pulumi-token", "PULUMI_ACCESS_TOKEN=pul-{h:40}")
F("Terraform Cloud", "cicd", "tfc-token", "TF_TOKEN_app_terraform_io={m:14}.atlasv1.{w:67}")
F("HashiCorp Vault", "secrets", "vault-service-token", "VAULT_TOKEN=hvs.{w:24}")
F("HashiCorp Vault", "secrets", "vault-batch-token", "VAULT_TOKEN=hvb.AAAAAQ{w:90}")
F("HashiCorp Vault", "secrets", "vault-legacy-token", "VAULT_TOKEN=s.{m:24}")
F("HCP", "cloud", "hcp-service-principal", "HCP_CLIENT_ID={m:32}", "HCP_CLIENT_SECRET={m:64}")
F("Infisical", "secrets", "infisical-service-token", "INFISICAL_TOKEN=st.{uuid}.{h:32}.{h:32}")
F("1Password", "secrets", "1password-service-account-token", "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{w:180}")
F("1Password", "secrets", "1password-secret-key", "OP_SECRET_KEY=A3-{A:6}-{A:6}-{A:5}-{A:5}-{A:5}-{A:5}")
F("Bitwarden", "secrets", "bitwarden-access-token", "BWS_ACCESS_TOKEN=0.{uuid}.{m:30}:{m:22}==")
F("Akeyless", "secrets", "akeyless-access-key", "AKEYLESS_ACCESS_ID=p-{a:12}", "AKEYLESS_ACCESS_KEY={B64:32}")
F("CyberArk Conjur", "secrets", "conjur-api-key", "CONJUR_AUTHN_LOGIN=host/{l:6}", "CONJUR_AUTHN_API_KEY={a:55}")
F("Tailscale", "networking", "tailscale-auth-key", "TS_AUTHKEY=tskey-auth-{m:11}CNTRL-{m:33}")
F("Tailscale", "networking", "tailscale-api-key", "TS_API_KEY=tskey-api-{m:11}CNTRL-{m:33}")
F("Tailscale", "networking", "tailscale-oauth-secret", "TS_OAUTH_CLIENT_SECRET=tskey-client-{m:11}CNTRL-{m:33}")
F("ngrok", "networking", "ngrok-authtoken", "NGROK_AUTHTOKEN={m:27}_{m:22}")
F("ZeroTier", "networking", "zerotier-api-token", "ZEROTIER_API_TOKEN={m:32}")
F("Twingate", "networking", "twingate-api-key", "TWINGATE_API_KEY={w:80}")
F("WireGuard", "privatekey", "wireguard-private-key", "WG_PRIVATE_KEY={wg}")
F("Kubernetes", "cloud", "k8s-service-account-token", "K8S_TOKEN={jwt_es}")
F("HashiCorp Nomad", "cloud", "nomad-token", "NOMAD_TOKEN={uuid}")
F("HashiCorp Consul", "cloud", "consul-token", "CONSUL_HTTP_TOKEN={uuid}")
F("MinIO", "cloud", "minio-root-credentials", "MINIO_ROOT_USER={m:20}", "MINIO_ROOT_PASSWORD={m:40}")

# payments / fintech
F("Stripe", "payments", "stripe-secret-key", "STRIPE_SECRET_KEY=sk_live_51{m:97}")
F("Stripe", "payments", "stripe-restricted-key", "STRIPE_RESTRICTED_KEY=rk_live_51{m:97}")
F("Stripe", "payments", "stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET=whsec_{m:32}")
F("Stripe", "payments", "stripe-secret-key-legacy", "STRIPE_API_KEY=sk_live_{m:24}")
F("PayPal", "payments", "paypal-client-secret", "PAYPAL_CLIENT_ID=A{w:79}", "PAYPAL_CLIENT_SECRET=E{w:79}")
F("Braintree", "payments", "braintree-access-token", "BRAINTREE_ACCESS_TOKEN=access_token$production${a:16}${h:32}")
F("Braintree", "payments", "braintree-private-key", "BT_MERCHANT_ID={a:16}", "BT_PUBLIC_KEY={a:16}", "BT_PRIVATE_KEY={h:32}")
F("Square", "payments", "square-access-token", "SQUARE_ACCESS_TOKEN=EAAA{w:60}")
F("Square", "payments", "square-oauth-secret", "SQUARE_APPLICATION_SECRET=sq0csp-{w:43}")
F("Adyen", "payments", "adyen-api-key", "ADYEN_API_KEY=AQE{w:4}mfx{b:100}")
F("Adyen", "payments", "adyen-hmac-key", "ADYEN_HMAC_KEY={H:64}")
F("Razorpay", "payments", "razorpay-keys", "RAZORPAY_KEY_ID=rzp_live_{m:14}", "RAZORPAY_KEY_SECRET={m:24}")
F("Paystack", "payments", "paystack-secret-key", "PAYSTACK_SECRET_KEY=sk_live_{h:40}")
F("Flutterwave", "payments", "flutterwave-secret-key", "FLW_SECRET_KEY=FLWSECK-{h:32}-X")
F("Mollie", "payments", "mollie-live-key", "MOLLIE_API_KEY=live_{m:30}")
F("Mollie", "payments", "mollie-org-access-token", "MOLLIE_ACCESS_TOKEN=access_{m:40}")
F("Checkout.com", "payments", "checkout-secret-key", "CKO_SECRET_KEY=sk_{a:26}")
F("GoCardless", "payments", "gocardless-live-token", "GOCARDLESS_ACCESS_TOKEN=live_{w:40}")
F("Plaid", "finance", "plaid-secret", "PLAID_CLIENT_ID={h:24}", "PLAID_SECRET={h:30}")
F("Plaid", "finance", "plaid-access-token", "PLAID_ACCESS_TOKEN=access-production-{uuid}")
F("Wise", "payments", "wise-api-token", "WISE_API_TOKEN={uuid}")
F("Coinbase Commerce", "payments", "coinbase-commerce-key", "COINBASE_COMMERCE_API_KEY={uuid}")
F("Shopify", "ecommerce", "shopify-admin-token", "SHOPIFY_ACCESS_TOKEN=shpat_{h:32}")
F("Shopify", "ecommerce", "shopify-shared-secret", "SHOPIFY_API_SECRET=shpss_{h:32}")
F("Shopify", "ecommerce", "shopify-custom-app-token", "SHOPIFY_TOKEN=shpca_{h:32}")
F("Shopify", "ecommerce", "shopify-private-app-password", "SHOPIFY_PASSWORD=shppa_{h:32}")
F("Paddle", "payments", "paddle-api-key", "PADDLE_API_KEY=pdl_live_apikey_01{a:24}_{m:27}")
F("Lemon Squeezy", "payments", "lemonsqueezy-api-key", "LEMONSQUEEZY_API_KEY={jwt_rs}")
F("Xendit", "payments", "xendit-secret-key", "XENDIT_SECRET_KEY=xnd_production_{m:60}")
F("Midtrans", "payments", "midtrans-server-key", "MIDTRANS_SERVER_KEY=Mid-server-{w:24}")
F("Mercado Pago", "payments", "mercadopago-access-token", "MP_ACCESS_TOKEN=APP_USR-{d:16}-{d:6}-{h:32}-{d:9}")
F("Recurly", "payments", "recurly-api-key", "RECURLY_API_KEY={h:32}")
F("Chargebee", "payments", "chargebee-api-key", "CHARGEBEE_SITE={l:8}", "CHARGEBEE_API_KEY=live_{m:34}")
F("Authorize.net", "payments", "authorizenet-transaction-key", "AUTHNET_LOGIN_ID={m:10}", "AUTHNET_TRANSACTION_KEY={m:16}")
F("Klarna", "payments", "klarna-api-credentials", "KLARNA_USERNAME=K{d:6}_{h:12}", "KLARNA_PASSWORD={m:16}")
F("Cashfree", "payments", "cashfree-secret-key", "CASHFREE_APP_ID={d:8}{h:24}", "CASHFREE_SECRET_KEY=cfsk_ma_prod_{h:32}_{h:8}")
F("Paytm", "payments", "paytm-merchant-key", "PAYTM_MID={m:20}", "PAYTM_MERCHANT_KEY={q:16}")
F("PhonePe", "payments", "phonepe-salt-key", "PHONEPE_MERCHANT_ID={A:15}", "PHONEPE_SALT_KEY={uuid}")
F("Instamojo", "payments", "instamojo-auth-token", "INSTAMOJO_API_KEY={h:32}", "INSTAMOJO_AUTH_TOKEN={h:32}")
F("M-Pesa Daraja", "payments", "mpesa-daraja-credentials", "MPESA_CONSUMER_KEY={m:48}", "MPESA_CONSUMER_SECRET={m:64}",
  "MPESA_PASSKEY={h:64}")
F("PayU", "payments", "payu-merchant-salt", "PAYU_MERCHANT_KEY={m:6}", "PAYU_MERCHANT_SALT={m:32}")
F("PagBank", "payments", "pagseguro-token", "PAGSEGURO_TOKEN={uuid}{h:64}")
F("iyzico", "payments", "iyzico-secret-key", "IYZICO_API_KEY={m:32}", "IYZICO_SECRET_KEY={m:32}")
F("Worldpay", "payments", "worldpay-service-key", "WORLDPAY_SERVICE_KEY=L_S_{uuid}")
F("Dwolla", "payments", "dwolla-secret", "DWOLLA_KEY={m:50}", "DWOLLA_SECRET={m:50}")
F("Revolut Business", "payments", "revolut-business-token", "REVOLUT_ACCESS_TOKEN=oa_prod_{w:43}")
F("RevenueCat", "payments", "revenuecat-secret-key", "REVENUECAT_SECRET_KEY=sk_{m:32}")
F("Adapty", "payments", "adapty-secret-key", "ADAPTY_SECRET_KEY=secret_live_{m:8}.{m:32}")
F("Alpaca", "finance", "alpaca-live-keys", "APCA_API_KEY_ID=AK{A:18}", "APCA_API_SECRET_KEY={m:40}")
F("Polygon.io", "finance", "polygon-api-key", "POLYGON_API_KEY={w:32}")
F("Alpha Vantage", "finance", "alphavantage-key", "ALPHAVANTAGE_API_KEY={A:16}")
F("IEX Cloud", "finance", "iex-secret-token", "IEX_SECRET_TOKEN=sk_{h:32}")
F("Finnhub", "finance", "finnhub-key", "FINNHUB_API_KEY={a:20}")
F("Nasdaq Data Link", "finance", "nasdaq-data-link-key", "NASDAQ_DATA_LINK_API_KEY={w:20}")
F("Tiingo", "finance", "tiingo-key", "TIINGO_API_KEY={h:40}")
F("QuickBooks", "finance", "quickbooks-client-secret", "QBO_CLIENT_ID=AB{m:48}", "QBO_CLIENT_SECRET={m:40}")
F("Xero", "finance", "xero-client-secret", "XERO_CLIENT_ID={H:32}", "XERO_CLIENT_SECRET={w:48}")
F("FreshBooks", "finance", "freshbooks-client-secret", "FRESHBOOKS_CLIENT_ID={h:64}", "FRESHBOOKS_CLIENT_SECRET={h:64}")
F("Brex", "finance", "brex-user-token", "BREX_TOKEN=bxt_{m:40}")
F("Ramp", "finance", "ramp-client-secret", "RAMP_CLIENT_ID=ramp_id_{m:40}", "RAMP_CLIENT_SECRET=ramp_sec_{m:48}")
F("Mercury", "finance", "mercury-api-token", "MERCURY_API_TOKEN=secret-token:mercury_production_{a:8}_{m:40}")
F("Teller", "finance", "teller-access-token", "TELLER_ACCESS_TOKEN=token_{a:26}")
F("Open Exchange Rates", "finance", "oxr-app-id", "OXR_APP_ID={h:32}")

# CI/CD, source hosting, dev tooling
F("GitHub", "cicd", "github-pat-classic", "GITHUB_TOKEN=ghp_{m:36}")
F("GitHub", "cicd", "github-oauth-token", "GH_OAUTH_TOKEN=gho_{m:36}")
F("GitHub", "cicd", "github-user-to-server-token", "GH_USER_TOKEN=ghu_{m:36}")
F("GitHub", "cicd", "github-app-installation-token", "GH_APP_TOKEN=ghs_{m:36}")
F("GitHub", "cicd", "github-refresh-token", "GH_REFRESH_TOKEN=ghr_{m:76}")
F("GitHub", "cicd", "github-fine-grained-pat", "GITHUB_PAT=github_pat_11{A:20}_{m:59}")
F("GitHub", "cicd", "github-app-private-key", "GITHUB_APP_ID={d:6}", "GITHUB_APP_PRIVATE_KEY={rsa1024}")
F("GitHub", "cicd", "github-oauth-client-secret", "GITHUB_CLIENT_ID=Ov23li{m:14}", "GITHUB_CLIENT_SECRET={h:40}")
F("GitLab", "cicd", "gitlab-pat", "GITLAB_TOKEN=glpat-{w:20}")
F("GitLab", "cicd", "gitlab-deploy-token", "GITLAB_DEPLOY_USER=gitlab+deploy-token-{d:6}", "GITLAB_DEPLOY_TOKEN=gldt-{w:20}")
F("GitLab", "cicd", "gitlab-runner-token", "CI_RUNNER_TOKEN=glrt-{w:20}")
F("GitLab", "cicd", "gitlab-runner-registration-token", "REGISTRATION_TOKEN=GR1348941{w:20}")
F("GitLab", "cicd", "gitlab-pipeline-trigger-token", "TRIGGER_TOKEN=glptt-{h:40}")
F("GitLab", "cicd", "gitlab-feed-token", "FEED_TOKEN=glft-{w:20}")
F("GitLab", "cicd", "gitlab-oauth-app-secret", "GITLAB_APP_SECRET=gloas-{h:64}")
F("GitLab", "cicd", "gitlab-incoming-mail-token", "INCOMING_EMAIL_TOKEN=glimt-{a:25}")
F("GitLab", "cicd", "gitlab-scim-token", "SCIM_TOKEN=glsoat-{w:20}")
F("GitLab", "cicd", "gitlab-agent-token", "AGENT_TOKEN=glagent-{w:50}")
F("GitLab", "cicd", "gitlab-ff-client-token", "UNLEASH_INSTANCE_TOKEN=glffct-{w:20}")
F("Bitbucket", "cicd", "bitbucket-app-password", "BITBUCKET_USERNAME={user}", "BITBUCKET_APP_PASSWORD=ATBB{m:32}{H:8}")
F("Atlassian", "productivity", "atlassian-api-token", "JIRA_EMAIL={email}", "ATLASSIAN_API_TOKEN=ATATT3xFfGF0{w:170}={H:8}")
F("Bitbucket", "cicd", "bitbucket-repo-access-token", "BITBUCKET_ACCESS_TOKEN=ATCTT3xFfGN0{w:170}={H:8}")
F("CircleCI", "cicd", "circleci-pat", "CIRCLECI_TOKEN=CCIPAT_{m:22}_{h:40}")
F("CircleCI", "cicd", "circleci-project-token", "CIRCLE_PROJECT_TOKEN=CCIPRJ_{m:22}_{h:40}")
F("Travis CI", "cicd", "travis-token", "TRAVIS_TOKEN={m:22}")
F("Buildkite", "cicd", "buildkite-api-token", "BUILDKITE_API_TOKEN=bkua_{h:40}")
F("Buildkite", "cicd", "buildkite-agent-token", "BUILDKITE_AGENT_TOKEN=bkat_{m:50}")
F("Drone CI", "cicd", "drone-token", "DRONE_SERVER=https://drone.{l:6}.io", "DRONE_TOKEN={m:32}")
F("Jenkins", "cicd", "jenkins-api-token", "JENKINS_USER={user}", "JENKINS_API_TOKEN=11{h:32}")
F("TeamCity", "cicd", "teamcity-token", "TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{w:36}.{w:48}")
F("Codecov", "cicd", "codecov-token", "CODECOV_TOKEN={uuid}")
F("SonarCloud", "cicd", "sonar-user-token", "SONAR_TOKEN=squ_{h:40}")
F("SonarQube", "cicd", "sonar-project-token", "SONAR_TOKEN=sqp_{h:40}")
F("SonarQube", "cicd", "sonar-global-token", "SONAR_TOKEN=sqa_{h:40}")
F("Snyk", "security", "snyk-token", "SNYK_TOKEN={uuid}")
F("Octopus Deploy", "cicd", "octopus-api-key", "OCTOPUS_API_KEY=API-{A:26}")
F("Harness", "cicd", "harness-pat", "HARNESS_API_KEY=pat.{w:22}.{h:24}.{m:20}")
F("Harness", "cicd", "harness-sat", "HARNESS_SAT=sat.{w:22}.{h:24}.{m:20}")
F("Bitrise", "cicd", "bitrise-pat", "BITRISE_TOKEN={w:86}")
F("Codemagic", "cicd", "codemagic-token", "CM_API_TOKEN={w:43}")
F("AppVeyor", "cicd", "appveyor-token", "APPVEYOR_TOKEN=v2.{a:20}")
F("Semaphore", "cicd", "semaphore-token", "SEMAPHORE_API_TOKEN={m:20}")
F("Spacelift", "cicd", "spacelift-api-key", "SPACELIFT_API_KEY_ID={A:26}", "SPACELIFT_API_KEY_SECRET={h:64}")
F("Argo CD", "cicd", "argocd-token", "ARGOCD_AUTH_TOKEN={jwt}")
F("Depot", "cicd", "depot-project-token", "DEPOT_TOKEN=depot_project_{h:64}")
F("Sourcegraph", "devtools", "sourcegraph-token", "SRC_ACCESS_TOKEN=sgp_{h:16}_{h:40}")
F("Postman", "devtools", "postman-api-key", "POSTMAN_API_KEY=PMAK-{h:24}-{h:34}")
F("Gitea", "cicd", "gitea-token", "GITEA_TOKEN={h:40}")
F("Gitee", "cicd", "gitee-token", "GITEE_TOKEN={h:32}")
F("Chromatic", "devtools", "chromatic-project-token", "CHROMATIC_PROJECT_TOKEN=chpt_{h:14}")
F("Percy", "devtools", "percy-token", "PERCY_TOKEN=web_{h:64}")
F("BrowserStack", "devtools", "browserstack-access-key", "BROWSERSTACK_USERNAME={l:8}_{A:6}", "BROWSERSTACK_ACCESS_KEY={m:20}")
F("Sauce Labs", "devtools", "saucelabs-access-key", "SAUCE_USERNAME=oauth-{l:6}-{h:5}", "SAUCE_ACCESS_KEY={uuid}")
F("LambdaTest", "devtools", "lambdatest-access-key", "LT_USERNAME={l:8}", "LT_ACCESS_KEY=LT_{m:47}")
F("Cypress Cloud", "devtools", "cypress-record-key", "CYPRESS_RECORD_KEY={uuid}")
F("Coveralls", "devtools", "coveralls-repo-token", "COVERALLS_REPO_TOKEN={m:32}")
F("DeepSource", "devtools", "deepsource-dsn", "DEEPSOURCE_DSN=https://{h:32}@app.deepsource.com")
F("Codacy", "devtools", "codacy-project-token", "CODACY_PROJECT_TOKEN={h:32}")
F("Expo", "devtools", "expo-token", "EXPO_TOKEN={m:40}")
F("App Store Connect", "devtools", "asc-api-key", "ASC_KEY_ID={A:10}", "ASC_ISSUER_ID={uuid}", "ASC_KEY_P8={pkcs8ec}")
F("Apple Push Notification service", "messaging", "apns-auth-key", "APNS_KEY_ID={A:10}", "APNS_TEAM_ID={A:10}",
  "APNS_AUTH_KEY={pkcs8ec}")
F("Home Assistant", "devtools", "home-assistant-token", "HA_TOKEN={jwt}")
F("Portainer", "devtools", "portainer-token", "PORTAINER_TOKEN=ptr_{w:43}")

# package registries
F("npm", "registry", "npm-token", "NPM_TOKEN=npm_{m:36}")
F("PyPI", "registry", "pypi-token", "PYPI_TOKEN=pypi-AgEIcHlwaS5vcmc{w:150}")
F("RubyGems", "registry", "rubygems-api-key", "GEM_HOST_API_KEY=rubygems_{h:48}")
F("NuGet", "registry", "nuget-api-key", "NUGET_API_KEY=oy2{a:43}")
F("Docker Hub", "registry", "dockerhub-pat", "DOCKERHUB_USERNAME={user}", "DOCKERHUB_TOKEN=dckr_pat_{w:27}")
F("Docker Hub", "registry", "dockerhub-org-token", "DOCKER_ORG_TOKEN=dckr_oat_{w:32}")
F("crates.io", "registry", "cratesio-token", "CARGO_REGISTRY_TOKEN=cio{m:32}")
F("JFrog Artifactory", "registry", "artifactory-api-key", "ARTIFACTORY_API_KEY=AKCp{m:69}")
F("JFrog", "registry", "jfrog-reference-token", "JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOjE3{m:48}")
F("Clojars", "registry", "clojars-token", "CLOJARS_USERNAME={user}", "CLOJARS_PASSWORD=CLOJARS_{h:60}")
F("Hex.pm", "registry", "hex-api-key", "HEX_API_KEY={h:32}")
F("Packagist", "registry", "packagist-api-token", "PACKAGIST_API_TOKEN={h:20}")
F("Quay.io", "registry", "quay-robot-token", "QUAY_USERNAME={l:6}+ci", "QUAY_ROBOT_TOKEN={A:64}")
F("Harbor", "registry", "harbor-robot-secret", "HARBOR_USERNAME=robot${l:6}+ci", "HARBOR_PASSWORD={m:32}")
F("Cloudsmith", "registry", "cloudsmith-api-key", "CLOUDSMITH_API_KEY={h:40}")
F("Gemfury", "registry", "gemfury-token", "FURY_TOKEN={m:20}")
F("Anaconda", "registry", "anaconda-token", "ANACONDA_TOKEN={l:2}-{uuid}")
F("Azure Container Registry", "registry", "acr-password", "ACR_USERNAME={a:10}", "ACR_PASSWORD={m:42}+ACR{m:6}")
F("Develocity", "registry", "develocity-access-key", "DEVELOCITY_ACCESS_KEY=ge.{l:8}.com={a:52}")
F("Sonatype Central", "registry", "sonatype-user-token", "SONATYPE_USERNAME={w:8}", "SONATYPE_PASSWORD={w:44}")
F("Open VSX", "registry", "ovsx-pat", "OVSX_PAT={uuid}")
F("JetBrains Marketplace", "registry", "jetbrains-marketplace-token", "PUBLISH_TOKEN=perm:{B64:6}.{B64:4}.{m:30}")
F("Sidekiq Enterprise", "registry", "sidekiq-gem-credentials", "BUNDLE_ENTERPRISE__CONTRIBSYS__COM={h:8}:{h:8}")

# observability
F("Datadog", "observability", "datadog-api-key", "DD_API_KEY={h:32}")
F("Datadog", "observability", "datadog-app-key", "DD_SITE=datadoghq.eu", "DD_APP_KEY={h:40}")
F("New Relic", "observability", "newrelic-user-key", "NEW_RELIC_API_KEY=NRAK-{A:27}")
F("New Relic", "observability", "newrelic-insert-key", "NEW_RELIC_INSERT_KEY=NRII-{w:32}")
F("New Relic", "observability", "newrelic-license-key", "NEW_RELIC_LICENSE_KEY={h:36}NRAL")
F("Sentry", "observability", "sentry-org-token", "SENTRY_AUTH_TOKEN=sntrys_eyJ{w:120}_{w:43}")
F("Sentry", "observability", "sentry-user-token", "SENTRY_AUTH_TOKEN=sntryu_{h:64}")
F("Grafana Cloud", "observability", "grafana-cloud-token", "GRAFANA_CLOUD_TOKEN=glc_eyJ{w:140}")
F("Grafana", "observability", "grafana-service-account-token", "GRAFANA_SA_TOKEN=glsa_{m:32}_{h:8}")
F("Grafana", "observability", "grafana-api-key-legacy", "GRAFANA_API_KEY=eyJrIjoi{w:70}")
F("Grafana", "observability", "grafana-admin-password", "GF_SECURITY_ADMIN_USER=admin", "GF_SECURITY_ADMIN_PASSWORD={pwsafe}")
F("Honeycomb", "observability", "honeycomb-ingest-key", "HONEYCOMB_API_KEY=hcaik_{a:58}")
F("Honeycomb", "observability", "honeycomb-config-key", "HONEYCOMB_WRITEKEY={m:22}")
F("Splunk", "observability", "splunk-hec-token", "SPLUNK_HEC_URL=https://http-inputs-{l:8}.splunkcloud.com", "SPLUNK_HEC_TOKEN={UUID}")
F("Splunk Observability", "observability", "splunk-o11y-token", "SPLUNK_ACCESS_TOKEN={w:22}")
F("Sumo Logic", "observability", "sumologic-access-key", "SUMO_ACCESS_ID=su{m:12}", "SUMO_ACCESS_KEY={m:64}")
F("Logz.io", "observability", "logzio-token", "LOGZIO_TOKEN={m:32}")
F("Loggly", "observability", "loggly-token", "LOGGLY_TOKEN={uuid}")
F("Dynatrace", "observability", "dynatrace-token", "DT_API_TOKEN=dt0c01.{A:24}.{A:64}")
F("Rollbar", "observability", "rollbar-token", "ROLLBAR_ACCESS_TOKEN={h:32}")
F("Bugsnag", "observability", "bugsnag-auth-token", "BUGSNAG_AUTH_TOKEN={uuid}")
F("PagerDuty", "observability", "pagerduty-api-key", "PAGERDUTY_TOKEN=u+{w:18}")
F("PagerDuty", "observability", "pagerduty-integration-key", "PD_ROUTING_KEY={h:32}")
F("Opsgenie", "observability", "opsgenie-key", "OPSGENIE_API_KEY={uuid}")
F("Elastic Cloud", "observability", "elastic-api-key", "ELASTIC_API_KEY={B64:40}")
F("Better Stack", "observability", "betterstack-source-token", "BETTERSTACK_SOURCE_TOKEN={m:24}")
F("Axiom", "observability", "axiom-api-token", "AXIOM_TOKEN=xaat-{uuid}")
F("Axiom", "observability", "axiom-personal-token", "AXIOM_TOKEN=xapt-{uuid}")
F("Checkly", "observability", "checkly-api-key", "CHECKLY_ACCOUNT_ID={uuid}", "CHECKLY_API_KEY=cu_{h:32}")
F("Coralogix", "observability", "coralogix-private-key", "CORALOGIX_PRIVATE_KEY=cxtp_{m:30}")
F("Mezmo", "observability", "mezmo-ingestion-key", "MEZMO_INGESTION_KEY={h:32}")
F("Raygun", "observability", "raygun-pat", "RAYGUN_PAT={m:40}")
F("Instana", "observability", "instana-api-token", "INSTANA_API_TOKEN={w:22}")
F("Lightstep", "observability", "lightstep-access-token", "LS_ACCESS_TOKEN={B64:63}")
F("UptimeRobot", "observability", "uptimerobot-key", "UPTIMEROBOT_API_KEY=u{d:7}-{h:24}")
F("StatusCake", "observability", "statuscake-key", "STATUSCAKE_API_TOKEN={m:20}")
F("Cronitor", "observability", "cronitor-key", "CRONITOR_API_KEY={h:32}")
F("Healthchecks.io", "observability", "healthchecks-api-key", "HC_API_KEY={w:32}")
F("Papertrail", "observability", "papertrail-token", "PAPERTRAIL_API_TOKEN={m:20}")
F("SigNoz", "observability", "signoz-ingestion-key", "SIGNOZ_INGESTION_KEY={uuid}")

# messaging / chat / webhooks
F("Slack", "messaging", "slack-bot-token", "SLACK_BOT_TOKEN=xoxb-{d:11}-{d:13}-{m:24}")
F("Slack", "messaging", "slack-user-token", "SLACK_USER_TOKEN=xoxp-{d:11}-{d:11}-{d:13}-{h:32}")
F("Slack", "messaging", "slack-app-token", "SLACK_APP_TOKEN=xapp-1-A{A:10}-{d:13}-{h:64}")
F("Slack", "messaging", "slack-config-token", "SLACK_CONFIG_TOKEN=xoxe.xoxp-1-{w:140}")
F("Slack", "messaging", "slack-config-refresh-token", "SLACK_CONFIG_REFRESH_TOKEN=xoxe-1-{w:140}")
F("Slack", "webhook", "slack-webhook-url", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{A:8}/B{A:10}/{m:24}")
F("Slack", "webhook", "slack-workflow-webhook-url", "SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{A:8}/{d:13}/{h:32}")
F("Slack", "session", "slack-d-cookie", "SLACK_D_COOKIE=d=xoxd-{w:100}%3D")
F("Discord", "messaging", "discord-bot-token", "DISCORD_TOKEN={discord}")
F("Discord", "webhook", "discord-webhook-url", "DISCORD_WEBHOOK=https://discord.com/api/webhooks/{d:19}/{w:68}")
F("Telegram", "messaging", "telegram-bot-token", "TELEGRAM_BOT_TOKEN={d:10}:AA{w:33}")
F("Twilio", "messaging", "twilio-auth-token", "TWILIO_ACCOUNT_SID=AC{h:32}", "TWILIO_AUTH_TOKEN={h:32}")
F("Twilio", "messaging", "twilio-api-key", "TWILIO_API_KEY=SK{h:32}", "TWILIO_API_SECRET={m:32}")
F("Microsoft Teams", "webhook", "teams-webhook-url",
  "TEAMS_WEBHOOK_URL=https://{l:8}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h:32}/{uuid}/V2{w:44}")
F("Power Automate", "webhook", "power-automate-http-trigger",
  "FLOW_URL=https://prod-{d:2}.westeurope.logic.azure.com:443/workflows/{h:32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={w:43}")
F("Mattermost", "messaging", "mattermost-token", "MM_ACCESS_TOKEN={a:26}")
F("Mattermost", "webhook", "mattermost-webhook-url", "MATTERMOST_HOOK=https://chat.{l:6}.com/hooks/{a:26}")
F("Rocket.Chat", "messaging", "rocketchat-token", "ROCKETCHAT_USER_ID={m:17}", "ROCKETCHAT_TOKEN={w:43}")
F("Rocket.Chat", "webhook", "rocketchat-webhook-url", "ROCKETCHAT_HOOK=https://chat.{l:6}.org/hooks/{m:17}/{m:48}")
F("Vonage", "messaging", "vonage-api-secret", "VONAGE_API_KEY={h:8}", "VONAGE_API_SECRET={m:16}")
F("Bird (MessageBird)", "messaging", "messagebird-key", "MESSAGEBIRD_API_KEY={m:25}")
F("Plivo", "messaging", "plivo-auth-token", "PLIVO_AUTH_ID=MA{A:18}", "PLIVO_AUTH_TOKEN={m:40}")
F("Sinch", "messaging", "sinch-key-secret", "SINCH_KEY_ID={uuid}", "SINCH_KEY_SECRET={w:26}")
F("Telnyx", "messaging", "telnyx-api-key", "TELNYX_API_KEY=KEY{H:32}_{m:22}")
F("Pusher", "messaging", "pusher-secret", "PUSHER_APP_ID={d:7}", "PUSHER_KEY={h:20}", "PUSHER_SECRET={h:20}")
F("Ably", "messaging", "ably-api-key", "ABLY_API_KEY={w:6}.{w:6}:{w:43}")
F("Stream", "messaging", "getstream-secret", "STREAM_API_KEY={a:12}", "STREAM_API_SECRET={a:64}")
F("Sendbird", "messaging", "sendbird-api-token", "SENDBIRD_APP_ID={UUID}", "SENDBIRD_API_TOKEN={h:40}")
F("Intercom", "crm", "intercom-access-token", "INTERCOM_ACCESS_TOKEN={intercom}")
F("Zendesk", "crm", "zendesk-api-token", "ZENDESK_EMAIL={email}/token", "ZENDESK_API_TOKEN={m:40}")
F("LINE", "messaging", "line-channel-access-token", "LINE_CHANNEL_ACCESS_TOKEN={b:171}=")
F("LINE", "messaging", "line-channel-secret", "LINE_CHANNEL_ID={d:10}", "LINE_CHANNEL_SECRET={h:32}")
F("Meta", "social", "facebook-access-token", "FB_ACCESS_TOKEN=EAAG{m:150}")
F("Meta", "social", "facebook-app-secret", "FACEBOOK_APP_ID={d:15}", "FACEBOOK_APP_SECRET={h:32}")
F("WhatsApp Cloud API", "messaging", "whatsapp-system-user-token", "WHATSAPP_PHONE_ID={d:15}", "WHATSAPP_TOKEN=EAAJ{m:160}")
F("Instagram", "social", "instagram-access-token", "IG_ACCESS_TOKEN=IGQVJ{w:150}")
F("Zoom", "messaging", "zoom-s2s-oauth", "ZOOM_ACCOUNT_ID={w:22}", "ZOOM_CLIENT_ID={w:22}", "ZOOM_CLIENT_SECRET={m:32}")
F("Webex", "messaging", "webex-access-token", "WEBEX_ACCESS_TOKEN={m:64}_{A:4}_{uuid}")
F("Gitter", "messaging", "gitter-token", "GITTER_TOKEN={h:40}")
F("Viber", "messaging", "viber-auth-token", "VIBER_AUTH_TOKEN={h:16}-{h:16}-{h:16}")
F("Kakao", "messaging", "kakao-rest-api-key", "KAKAO_REST_API_KEY={h:32}")
F("WeChat", "messaging", "wechat-appsecret", "WECHAT_APPID=wx{h:16}", "WECHAT_APPSECRET={h:32}")
F("Feishu / Lark", "messaging", "lark-app-secret", "LARK_APP_ID=cli_{h:16}", "LARK_APP_SECRET={m:32}")
F("Feishu / Lark", "webhook", "lark-bot-webhook", "LARK_WEBHOOK=https://open.feishu.cn/open-apis/bot/v2/hook/{uuid}")
F("DingTalk", "webhook", "dingtalk-robot-webhook", "DINGTALK_WEBHOOK=https://oapi.dingtalk.com/robot/send?access_token={h:64}")
F("WeCom", "webhook", "wecom-robot-webhook", "WECOM_WEBHOOK=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={uuid}")
F("Google Chat", "webhook", "google-chat-webhook",
  "GCHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA{w:7}/messages?key=AIza{w:35}&token={w:43}%3D")
F("Zapier", "webhook", "zapier-catch-hook", "ZAPIER_HOOK=https://hooks.zapier.com/hooks/catch/{d:7}/{a:6}/")
F("IFTTT", "webhook", "ifttt-maker-key", "IFTTT_URL=https://maker.ifttt.com/trigger/{l:8}/with/key/{w:22}")
F("Make", "webhook", "make-webhook-url", "MAKE_WEBHOOK=https://hook.eu2.make.com/{a:32}")
F("Pipedream", "webhook", "pipedream-endpoint", "PIPEDREAM_URL=https://eo{h:14}.m.pipedream.net")
F("n8n", "webhook", "n8n-webhook-url", "N8N_WEBHOOK=https://{l:6}.app.n8n.cloud/webhook/{uuid}")
F("Webex", "webhook", "webex-incoming-webhook", "WEBEX_WEBHOOK=https://webexapis.com/v1/webhooks/incoming/{w:120}")
F("Pushover", "messaging", "pushover-token", "PUSHOVER_USER=u{a:29}", "PUSHOVER_TOKEN=a{a:29}")
F("Pushbullet", "messaging", "pushbullet-token", "PUSHBULLET_TOKEN=o.{m:32}")
F("ntfy", "messaging", "ntfy-access-token", "NTFY_TOKEN=tk_{a:29}")
F("Gotify", "messaging", "gotify-app-token", "GOTIFY_TOKEN=A{m:14}")
F("OneSignal", "messaging", "onesignal-rest-key", "ONESIGNAL_APP_ID={uuid}", "ONESIGNAL_REST_API_KEY=os_v2_app_{v:113}")
F("OneSignal", "messaging", "onesignal-rest-key-legacy", "ONESIGNAL_API_KEY={b:48}")
F("Africa's Talking", "messaging", "africastalking-key", "AT_USERNAME={l:8}", "AT_API_KEY=atsk_{h:64}")
F("Termii", "messaging", "termii-key", "TERMII_API_KEY=TL{m:58}")
F("Infobip", "messaging", "infobip-key", "INFOBIP_API_KEY={h:32}-{uuid}")
F("Courier", "messaging", "courier-auth-token", "COURIER_AUTH_TOKEN=pk_prod_{A:28}")
F("Knock", "messaging", "knock-secret-key", "KNOCK_API_KEY=sk_{w:40}")
F("Novu", "messaging", "novu-api-key", "NOVU_API_KEY={h:32}")

# e-mail
F("SendGrid", "email", "sendgrid-api-key", "SENDGRID_API_KEY=SG.{w:22}.{w:43}")
F("Mailgun", "email", "mailgun-api-key", "MAILGUN_DOMAIN=mg.{l:8}.com", "MAILGUN_API_KEY=key-{h:32}")
F("Mailgun", "email", "mailgun-private-key-v2", "MAILGUN_API_KEY={h:32}-{h:8}-{h:8}")
F("Mailchimp", "email", "mailchimp-api-key", "MAILCHIMP_API_KEY={h:32}-us{n:1}{d:1}")
F("Mandrill", "email", "mandrill-key", "MANDRILL_API_KEY=md-{w:22}")
F("Postmark", "email", "postmark-server-token", "POSTMARK_SERVER_TOKEN={uuid}")
F("SparkPost", "email", "sparkpost-key", "SPARKPOST_API_KEY={h:40}")
F("Mailjet", "email", "mailjet-keys", "MJ_APIKEY_PUBLIC={h:32}", "MJ_APIKEY_PRIVATE={h:32}")
F("Brevo", "email", "brevo-api-key", "BREVO_API_KEY=xkeysib-{h:64}-{m:16}")
F("Brevo", "email", "brevo-smtp-key", "BREVO_SMTP_USER={email}", "BREVO_SMTP_KEY=xsmtpsib-{h:64}-{m:16}")
F("Resend", "email", "resend-api-key", "RESEND_API_KEY=re_{m:8}_{m:24}")
F("Loops", "email", "loops-api-key", "LOOPS_API_KEY={h:32}")
F("Amazon SES", "email", "ses-smtp-credentials", "SMTP_USERNAME=AKIA{A:16}", "SMTP_PASSWORD=B{b:43}")
F("Customer.io", "email", "customerio-track-key", "CIO_SITE_ID={h:20}", "CIO_API_KEY={h:20}")
F("Customer.io", "email", "customerio-app-key", "CIO_APP_API_KEY={h:32}")
F("Mailtrap", "email", "mailtrap-token", "MAILTRAP_API_TOKEN={h:32}")
F("MailerSend", "email", "mailersend-token", "MAILERSEND_API_KEY=mlsn.{h:64}")
F("SMTP2GO", "email", "smtp2go-key", "SMTP2GO_API_KEY=api-{H:32}")
F("Elastic Email", "email", "elasticemail-key", "ELASTICEMAIL_API_KEY={H:96}")
F("Kit (ConvertKit)", "email", "convertkit-api-secret", "CONVERTKIT_API_SECRET={w:43}")
F("Klaviyo", "email", "klaviyo-private-key", "KLAVIYO_PRIVATE_KEY=pk_{h:34}")
F("Iterable", "email", "iterable-key", "ITERABLE_API_KEY={h:32}")
F("Braze", "email", "braze-rest-key", "BRAZE_REST_ENDPOINT=https://rest.fra-02.braze.eu", "BRAZE_REST_API_KEY={uuid}")
F("Campaign Monitor", "email", "campaignmonitor-key", "CM_API_KEY={B64:48}")
F("ActiveCampaign", "email", "activecampaign-key", "AC_API_URL=https://{l:8}.api-us1.com", "AC_API_KEY={h:72}")
F("Postal", "email", "postal-server-key", "POSTAL_API_KEY={m:24}")
F("Gmail", "email", "gmail-app-password", "SMTP_USER={email}", "SMTP_PASS={l:4} {l:4} {l:4} {l:4}")
F("Outlook.com", "email", "outlook-app-password", "SMTP_USER={email}", "SMTP_PASSWORD={l:16}")
F("Fastmail", "email", "fastmail-app-password", "FASTMAIL_USER={email}", "FASTMAIL_APP_PASSWORD={a:16}")
F("Proton Mail Bridge", "email", "proton-bridge-password", "BRIDGE_USER={email}", "BRIDGE_PASSWORD={w:22}")

# AI / ML
F("OpenAI", "ai", "openai-project-key", "OPENAI_API_KEY=sk-proj-{w:156}")
F("OpenAI", "ai", "openai-legacy-key", "OPENAI_API_KEY=sk-{m:20}T3BlbkFJ{m:20}")
F("OpenAI", "ai", "openai-service-account-key", "OPENAI_API_KEY=sk-svcacct-{w:150}")
F("OpenAI", "ai", "openai-admin-key", "OPENAI_ADMIN_KEY=sk-admin-{w:140}")
F("Anthropic", "ai", "anthropic-api-key", "ANTHROPIC_API_KEY=sk-ant-api03-{w:93}AA")
F("Anthropic", "ai", "anthropic-admin-key", "ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{w:93}AA")
F("Hugging Face", "ai", "huggingface-token", "HF_TOKEN=hf_{L:34}")
F("Hugging Face", "ai", "huggingface-org-token", "HF_ORG_TOKEN=api_org_{L:34}")
F("Cohere", "ai", "cohere-key", "COHERE_API_KEY={m:40}")
F("Replicate", "ai", "replicate-token", "REPLICATE_API_TOKEN=r8_{m:37}")
F("Groq", "ai", "groq-key", "GROQ_API_KEY=gsk_{m:52}")
F("Mistral AI", "ai", "mistral-key", "MISTRAL_API_KEY={m:32}")
F("Perplexity", "ai", "perplexity-key", "PERPLEXITY_API_KEY=pplx-{m:48}")
F("Together AI", "ai", "together-key", "TOGETHER_API_KEY=tgp_v1_{w:43}")
F("Together AI", "ai", "together-key-legacy", "TOGETHER_API_KEY={h:64}")
F("Google AI Studio", "ai", "gemini-api-key", "GEMINI_API_KEY=AIzaSy{w:33}")
F("DeepSeek", "ai", "deepseek-key", "DEEPSEEK_API_KEY=sk-{h:32}")
F("xAI", "ai", "xai-key", "XAI_API_KEY=xai-{m:80}")
F("OpenRouter", "ai", "openrouter-key", "OPENROUTER_API_KEY=sk-or-v1-{h:64}")
F("Fireworks AI", "ai", "fireworks-key", "FIREWORKS_API_KEY=fw_{m:24}")
F("ElevenLabs", "ai", "elevenlabs-key", "ELEVENLABS_API_KEY=sk_{h:48}")
F("AssemblyAI", "ai", "assemblyai-key", "ASSEMBLYAI_API_KEY={h:32}")
F("Deepgram", "ai", "deepgram-key", "DEEPGRAM_API_KEY={h:40}")
F("Pinecone", "ai", "pinecone-key", "PINECONE_API_KEY=pcsk_{m:5}_{m:62}")
F("Weights & Biases", "ai", "wandb-key", "WANDB_API_KEY={h:40}")
F("LangSmith", "ai", "langsmith-pat", "LANGSMITH_API_KEY=lsv2_pt_{h:32}_{h:10}")
F("LangSmith", "ai", "langsmith-service-key", "LANGCHAIN_API_KEY=lsv2_sk_{h:32}_{h:10}")
F("Stability AI", "ai", "stability-key", "STABILITY_API_KEY=sk-{m:48}")
F("Cerebras", "ai", "cerebras-key", "CEREBRAS_API_KEY=csk-{a:48}")
F("Voyage AI", "ai", "voyage-key", "VOYAGE_API_KEY=pa-{w:43}")
F("Jina AI", "ai", "jina-key", "JINA_API_KEY=jina_{h:32}{m:28}")
F("Tavily", "ai", "tavily-key", "TAVILY_API_KEY=tvly-{m:32}")
F("Exa", "ai", "exa-key", "EXA_API_KEY={uuid}")
F("Anyscale", "ai", "anyscale-key", "ANYSCALE_API_KEY=esecret_{a:26}")
F("Roboflow", "ai", "roboflow-key", "ROBOFLOW_API_KEY={m:20}")
F("Clarifai", "ai", "clarifai-pat", "CLARIFAI_PAT={h:32}")
F("NVIDIA NGC", "ai", "nvidia-api-key", "NVIDIA_API_KEY=nvapi-{w:64}")
F("Modal", "ai", "modal-token", "MODAL_TOKEN_ID=ak-{m:22}", "MODAL_TOKEN_SECRET=as-{m:22}")
F("Lambda Cloud", "ai", "lambda-cloud-key", "LAMBDA_API_KEY=secret_{a:8}_{h:32}.{m:32}")
F("Helicone", "ai", "helicone-key", "HELICONE_API_KEY=sk-helicone-{a:7}-{a:7}-{a:7}-{a:7}")
F("Portkey", "ai", "portkey-key", "PORTKEY_API_KEY={w:32}")
F("Langfuse", "ai", "langfuse-secret-key", "LANGFUSE_PUBLIC_KEY=pk-lf-{uuid}", "LANGFUSE_SECRET_KEY=sk-lf-{uuid}")
F("Runway", "ai", "runway-api-secret", "RUNWAYML_API_SECRET=key_{h:128}")
F("Leonardo.Ai", "ai", "leonardo-key", "LEONARDO_API_KEY={uuid}")
F("AI21 Labs", "ai", "ai21-key", "AI21_API_KEY={m:32}")
F("Baseten", "ai", "baseten-key", "BASETEN_API_KEY={m:8}.{m:32}")
F("Comet ML", "ai", "comet-key", "COMET_API_KEY={m:25}")
F("neptune.ai", "ai", "neptune-api-token",
  "NEPTUNE_API_TOKEN=eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkiLCJhcGlfdXJsIjoiaHR0cHM6Ly9hcHAubmVwdHVuZS5haSIsImFwaV9rZXkiOiI{w:60}In0=")
F("Kaggle", "ai", "kaggle-key", "KAGGLE_USERNAME={l:8}", "KAGGLE_KEY={h:32}")
F("DeepL", "ai", "deepl-auth-key", "DEEPL_AUTH_KEY={uuid}:fx")
F("Qdrant Cloud", "database", "qdrant-key", "QDRANT_URL=https://{uuid}.eu-central-1-0.aws.cloud.qdrant.io", "QDRANT_API_KEY={w:40}")
F("Weaviate Cloud", "database", "weaviate-key", "WEAVIATE_API_KEY={m:40}")
F("Chroma Cloud", "database", "chroma-key", "CHROMA_API_KEY=ck-{m:43}")
F("Zilliz Cloud", "database", "zilliz-key", "ZILLIZ_API_KEY={h:104}")

# databases / connection strings
F("PostgreSQL", "database", "postgres-url", "DATABASE_URL=postgres://{user}:{pwurl}@{host}:5432/{db}")
F("PostgreSQL", "database", "postgres-keyword-dsn", "PG_DSN=host={host} port=5432 dbname={db} user={user} password={pwsafe} sslmode=require")
F("MySQL", "database", "mysql-url", "MYSQL_URL=mysql://{user}:{pwurl}@{host}:3306/{db}")
F("MariaDB", "database", "mariadb-jdbc-url", "JDBC_URL=jdbc:mariadb://{host}:3306/{db}?user={user}&password={pwurl}")
F("MongoDB Atlas", "database", "mongodb-srv-url",
  "MONGODB_URI=mongodb+srv://{user}:{pwurl}@cluster0.{a:5}.mongodb.net/{db}?retryWrites=true&w=majority")
F("MongoDB Atlas", "database", "mongodb-atlas-api-key", "ATLAS_PUBLIC_KEY={l:8}", "ATLAS_PRIVATE_KEY={uuid}")
F("Redis", "database", "redis-url", "REDIS_URL=redis://default:{m:32}@{host}:6379")
F("Redis Cloud", "database", "rediss-url",
  "REDIS_URL=rediss://default:{m:32}@redis-{d:5}.c{d:3}.us-east-1-2.ec2.redns.redis-cloud.com:{d:5}")
F("RabbitMQ", "messaging", "amqp-url", "AMQP_URL=amqps://{user}:{pwurl}@{host}/{l:6}")
F("CloudAMQP", "messaging", "cloudamqp-url", "CLOUDAMQP_URL=amqps://{l:8}:{w:32}@{l:5}.rmq.cloudamqp.com/{l:8}")
F("Azure SQL", "database", "mssql-connection-string",
  "ConnectionStrings__Default=Server=tcp:{a:10}.database.windows.net,1433;Initial Catalog={db};User ID={user};Password={pwsafe};Encrypt=True;")
F("Oracle Database", "database", "oracle-easy-connect", "ORACLE_CONN={user}/{pwsafe}@{host}:1521/ORCLPDB1")
F("Snowflake", "database", "snowflake-password", "SNOWFLAKE_ACCOUNT={A:7}-{A:7}", "SNOWFLAKE_USER={user}", "SNOWFLAKE_PASSWORD={pwsafe}")
F("PlanetScale", "database", "planetscale-password", "PLANETSCALE_USERNAME={a:12}", "PLANETSCALE_PASSWORD=pscale_pw_{w:43}")
F("PlanetScale", "database", "planetscale-service-token", "PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{w:43}")
F("PlanetScale", "database", "planetscale-oauth-token", "PLANETSCALE_OAUTH=pscale_oauth_{w:43}")
F("Neon", "database", "neon-api-key", "NEON_API_KEY=napi_{a:64}")
F("Neon", "database", "neon-connection-url",
  "DATABASE_URL=postgresql://{user}:npg_{m:12}@ep-{l:6}-{l:6}-{a:8}.eu-central-1.aws.neon.tech/neondb?sslmode=require")
F("CockroachDB", "database", "cockroach-url",
  "DATABASE_URL=postgresql://{user}:{m:22}@{l:6}-{d:4}.{a:4}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full")
F("Upstash", "database", "upstash-redis-rest-token", "UPSTASH_REDIS_REST_URL=https://{l:6}-{l:6}-{d:5}.upstash.io",
  "UPSTASH_REDIS_REST_TOKEN=A{w:60}=")
F("Upstash", "messaging", "qstash-token", "QSTASH_TOKEN=eyJVc2VySUQiOi{w:80}=")
F("Upstash", "messaging", "qstash-signing-key", "QSTASH_CURRENT_SIGNING_KEY=sig_{m:28}")
F("Turso", "database", "turso-auth-token", "TURSO_DATABASE_URL=libsql://{l:6}-{l:8}.turso.io", "TURSO_AUTH_TOKEN={jwt_es}")
F("Fauna", "database", "fauna-secret", "FAUNA_SECRET=fnA{w:37}")
F("Firebase", "database", "firebase-db-secret", "FIREBASE_DATABASE_SECRET={m:40}")
F("Elastic Cloud", "database", "elasticsearch-url", "ELASTICSEARCH_URL=https://elastic:{m:24}@{a:32}.us-central1.gcp.cloud.es.io:443")
F("Neo4j AuraDB", "database", "neo4j-credentials", "NEO4J_URI=neo4j+s://{h:8}.databases.neo4j.io", "NEO4J_USERNAME=neo4j",
  "NEO4J_PASSWORD={w:43}")
F("ClickHouse Cloud", "database", "clickhouse-url", "CLICKHOUSE_URL=https://default:{w:14}@{a:10}.europe-west4.gcp.clickhouse.cloud:8443")
F("InfluxDB", "database", "influxdb-token", "INFLUX_TOKEN={w:86}==")
F("DataStax Astra", "database", "astra-token", "ASTRA_DB_APPLICATION_TOKEN=AstraCS:{L:24}:{h:64}")
F("Xata", "database", "xata-key", "XATA_API_KEY=xau_{m:32}")
F("Convex", "database", "convex-deploy-key", "CONVEX_DEPLOY_KEY=prod:{l:6}-{l:6}-{d:3}|{w:80}==")
F("Databricks", "data", "databricks-token", "DATABRICKS_HOST=https://adb-{d:16}.{d:1}.azuredatabricks.net", "DATABRICKS_TOKEN=dapi{h:32}")
F("Airtable", "productivity", "airtable-pat", "AIRTABLE_TOKEN=pat{m:14}.{h:64}")
F("Notion", "productivity", "notion-integration-secret", "NOTION_TOKEN=secret_{m:43}")
F("Notion", "productivity", "notion-api-token", "NOTION_API_KEY=ntn_{d:11}{m:35}")
F("Couchbase Capella", "database", "couchbase-credentials", "COUCHBASE_CONN=couchbases://cb.{a:16}.cloud.couchbase.com",
  "COUCHBASE_USER={user}", "COUCHBASE_PASSWORD={pwsafe}")
F("Prisma", "database", "prisma-accelerate-url", "DATABASE_URL=prisma://accelerate.prisma-data.net/?api_key={jwt}")
F("Aiven", "database", "aiven-token", "AIVEN_TOKEN={B64:90}")
F("Timescale", "database", "timescale-url",
  "TIMESCALE_URL=postgres://tsdbadmin:{m:16}@{a:10}.{a:10}.tsdb.cloud.timescale.com:3{d:4}/tsdb?sslmode=require")
F("Confluent Cloud", "data", "confluent-api-key", "CONFLUENT_API_KEY={A:16}", "CONFLUENT_API_SECRET={b:64}")
F("Fivetran", "data", "fivetran-key", "FIVETRAN_API_KEY={m:16}", "FIVETRAN_API_SECRET={m:32}")
F("dbt Cloud", "data", "dbt-cloud-service-token", "DBT_CLOUD_API_TOKEN=dbtc_{w:40}")
F("dbt Cloud", "data", "dbt-cloud-user-token", "DBT_CLOUD_USER_TOKEN=dbtu_{w:40}")
F("Prefect", "data", "prefect-key", "PREFECT_API_KEY=pnu_{m:36}")
F("Airbyte", "data", "airbyte-client-secret", "AIRBYTE_CLIENT_ID={uuid}", "AIRBYTE_CLIENT_SECRET={m:32}")
F("Apache Airflow", "data", "airflow-fernet-key", "AIRFLOW__CORE__FERNET_KEY={W64pad:32}")
F("Apache Superset", "data", "superset-secret-key", "SUPERSET_SECRET_KEY={B64:42}")
F("Metabase", "data", "metabase-encryption-key", "MB_ENCRYPTION_SECRET_KEY={B64:32}")

# analytics
F("Mixpanel", "analytics", "mixpanel-service-account", "MIXPANEL_SA_USERNAME={l:6}.{a:8}.mp-service-account", "MIXPANEL_SA_SECRET={m:32}")
F("Mixpanel", "analytics", "mixpanel-api-secret", "MIXPANEL_API_SECRET={h:32}")
F("Amplitude", "analytics", "amplitude-secret-key", "AMPLITUDE_API_KEY={h:32}", "AMPLITUDE_SECRET_KEY={h:32}")
F("PostHog", "analytics", "posthog-personal-key", "POSTHOG_PERSONAL_API_KEY=phx_{m:43}")
F("Plausible", "analytics", "plausible-key", "PLAUSIBLE_API_KEY={w:64}")
F("Fathom", "analytics", "fathom-key", "FATHOM_API_KEY={d:1}|{m:40}")
F("Google Analytics", "analytics", "ga4-measurement-protocol-secret", "GA_MEASUREMENT_ID=G-{A:10}", "GA_API_SECRET={w:22}")
F("Matomo", "analytics", "matomo-token-auth", "MATOMO_TOKEN_AUTH={h:32}")
F("RudderStack", "analytics", "rudderstack-access-token", "RUDDERSTACK_ACCESS_TOKEN={w:27}")
F("Branch", "analytics", "branch-secret", "BRANCH_KEY=key_live_{m:32}", "BRANCH_SECRET=secret_live_{m:32}")
F("AppsFlyer", "analytics", "appsflyer-api-token", "APPSFLYER_API_TOKEN={jwt}")
F("Adjust", "analytics", "adjust-api-token", "ADJUST_API_TOKEN={m:20}")

# CRM / productivity
F("Salesforce", "crm", "salesforce-access-token", "SF_INSTANCE_URL=https://{l:8}.my.salesforce.com", "SF_ACCESS_TOKEN=00D{m:12}!AQ{w:94}")
F("Salesforce", "crm", "salesforce-consumer-secret", "SF_CONSUMER_KEY=3MVG9{w:80}", "SF_CONSUMER_SECRET={H:64}")
F("HubSpot", "crm", "hubspot-private-app-token", "HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}")
F("HubSpot", "crm", "hubspot-private-app-token-eu", "HUBSPOT_ACCESS_TOKEN=pat-eu1-{uuid}")
F("Pipedrive", "crm", "pipedrive-token", "PIPEDRIVE_API_TOKEN={h:40}")
F("Zoho", "crm", "zoho-refresh-token", "ZOHO_CLIENT_ID=1000.{A:30}", "ZOHO_REFRESH_TOKEN=1000.{h:32}.{h:32}")
F("Freshdesk", "crm", "freshdesk-key", "FRESHDESK_DOMAIN={l:8}.freshdesk.com", "FRESHDESK_API_KEY={m:20}")
F("Close", "crm", "close-key", "CLOSE_API_KEY=api_{m:22}.{m:22}")
F("Copper", "crm", "copper-key", "COPPER_API_KEY={h:32}")
F("Attio", "crm", "attio-key", "ATTIO_API_KEY={h:64}")
F("Apollo.io", "crm", "apollo-key", "APOLLO_API_KEY={w:22}")
F("Help Scout", "crm", "helpscout-app-secret", "HELPSCOUT_APP_ID={m:32}", "HELPSCOUT_APP_SECRET={m:32}")
F("Front", "crm", "front-api-token", "FRONT_API_TOKEN={jwt}")
F("monday.com", "productivity", "monday-token", "MONDAY_API_TOKEN={jwt}")
F("Asana", "productivity", "asana-pat", "ASANA_PAT=2/{d:16}/{d:16}:{h:32}")
F("Asana", "productivity", "asana-pat-legacy", "ASANA_PAT=1/{d:16}:{h:32}")
F("ClickUp", "productivity", "clickup-token", "CLICKUP_API_TOKEN=pk_{d:8}_{A:32}")
F("Linear", "productivity", "linear-api-key", "LINEAR_API_KEY=lin_api_{m:40}")
F("Linear", "productivity", "linear-oauth-token", "LINEAR_OAUTH_TOKEN=lin_oauth_{h:64}")
F("Trello", "productivity", "trello-token", "TRELLO_API_KEY={h:32}", "TRELLO_TOKEN=ATTA{h:64}{H:8}")
F("Todoist", "productivity", "todoist-token", "TODOIST_API_TOKEN={h:40}")
F("Shortcut", "productivity", "shortcut-token", "SHORTCUT_API_TOKEN={uuid}")
F("Typeform", "productivity", "typeform-token", "TYPEFORM_TOKEN=tfp_{w:44}_{w:14}")
F("Calendly", "productivity", "calendly-pat", "CALENDLY_TOKEN={jwt}")
F("Cal.com", "productivity", "calcom-key", "CAL_API_KEY=cal_live_{h:32}")
F("DocuSign", "productivity", "docusign-secret-key", "DOCUSIGN_INTEGRATION_KEY={uuid}", "DOCUSIGN_SECRET_KEY={uuid}")
F("Dropbox", "productivity", "dropbox-token", "DROPBOX_ACCESS_TOKEN=sl.{w:135}")
F("Dropbox", "productivity", "dropbox-app-secret", "DROPBOX_APP_KEY={a:15}", "DROPBOX_APP_SECRET={a:15}")
F("Box", "productivity", "box-client-secret", "BOX_CLIENT_ID={a:32}", "BOX_CLIENT_SECRET={m:32}")
F("Figma", "productivity", "figma-pat", "FIGMA_TOKEN=figd_{w:40}")
F("Miro", "productivity", "miro-token", "MIRO_ACCESS_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{w:27}")
F("Adobe", "productivity", "adobe-client-secret", "ADOBE_CLIENT_ID={h:32}", "ADOBE_CLIENT_SECRET=p8e-{m:32}")
F("Smartsheet", "productivity", "smartsheet-token", "SMARTSHEET_ACCESS_TOKEN={m:37}")
F("Coda", "productivity", "coda-token", "CODA_API_TOKEN={uuid}")
F("Harvest", "productivity", "harvest-token", "HARVEST_ACCOUNT_ID={d:7}", "HARVEST_TOKEN={d:7}.pt.{w:86}")
F("Toggl Track", "productivity", "toggl-token", "TOGGL_API_TOKEN={h:32}")
F("Clockify", "productivity", "clockify-key", "CLOCKIFY_API_KEY={m:48}")
F("Readwise", "productivity", "readwise-token", "READWISE_TOKEN={m:50}")
F("Pocket", "productivity", "pocket-access-token", "POCKET_CONSUMER_KEY={d:5}-{h:24}", "POCKET_ACCESS_TOKEN={uuid}")
F("Nextcloud", "productivity", "nextcloud-app-password", "NEXTCLOUD_USER={user}", "NEXTCLOUD_APP_PASSWORD={m:5}-{m:5}-{m:5}-{m:5}-{m:5}")

# CMS / website builders
F("Contentful", "cms", "contentful-cma-token", "CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{w:43}")
F("Contentful", "cms", "contentful-preview-token", "CONTENTFUL_SPACE_ID={a:12}", "CONTENTFUL_PREVIEW_TOKEN={w:43}")
F("Sanity", "cms", "sanity-token", "SANITY_PROJECT_ID={a:8}", "SANITY_API_TOKEN=sk{m:180}")
F("Storyblok", "cms", "storyblok-mgmt-token", "STORYBLOK_OAUTH_TOKEN={m:22}-{d:6}-{m:20}")
F("Strapi", "cms", "strapi-api-token", "STRAPI_API_TOKEN={h:256}")
F("Ghost", "cms", "ghost-admin-key", "GHOST_ADMIN_API_KEY={h:24}:{h:64}")
F("WordPress", "cms", "wp-application-password", "WP_USER={user}", "WP_APP_PASSWORD={m:4} {m:4} {m:4} {m:4} {m:4} {m:4}")
F("Contentstack", "cms", "contentstack-management-token", "CONTENTSTACK_MANAGEMENT_TOKEN=cs{h:32}")
F("DatoCMS", "cms", "datocms-token", "DATOCMS_API_TOKEN={h:30}")
F("Hygraph", "cms", "hygraph-token", "HYGRAPH_TOKEN={jwt}")
F("Prismic", "cms", "prismic-token", "PRISMIC_ACCESS_TOKEN=MC5{w:60}.{w:50}")
F("Webflow", "cms", "webflow-token", "WEBFLOW_API_TOKEN={h:64}")
F("Builder.io", "cms", "builder-private-key", "BUILDER_PRIVATE_KEY=bpk-{h:32}")
F("Directus", "cms", "directus-static-token", "DIRECTUS_TOKEN={w:32}")
F("Payload CMS", "framework", "payload-secret", "PAYLOAD_SECRET={h:24}")
F("Drupal", "framework", "drupal-hash-salt", "DRUPAL_HASH_SALT={w:74}")
F("Squarespace", "ecommerce", "squarespace-key", "SQUARESPACE_API_KEY={uuid}")
F("Wix", "ecommerce", "wix-api-key", "WIX_API_KEY=IST.eyJ{w:200}")

# e-commerce / shipping
F("Ecwid", "ecommerce", "ecwid-secret-token", "ECWID_STORE_ID={d:8}", "ECWID_SECRET_TOKEN=secret_{m:32}")
F("WooCommerce", "ecommerce", "woocommerce-keys", "WC_CONSUMER_KEY=ck_{h:40}", "WC_CONSUMER_SECRET=cs_{h:40}")
F("BigCommerce", "ecommerce", "bigcommerce-token", "BIGCOMMERCE_STORE_HASH={a:10}", "BIGCOMMERCE_ACCESS_TOKEN={a:31}")
F("Adobe Commerce", "ecommerce", "magento-access-token", "MAGENTO_ACCESS_TOKEN={a:32}")
F("Etsy", "ecommerce", "etsy-keystring", "ETSY_KEYSTRING={a:24}", "ETSY_SHARED_SECRET={a:10}")
F("eBay", "ecommerce", "ebay-cert-id", "EBAY_APP_ID={L:6}{l:4}-{L:6}-PRD-{h:9}-{h:8}", "EBAY_CERT_ID=PRD-{h:12}-{h:4}-{h:4}-{h:4}-{h:4}")
F("Amazon Selling Partner", "ecommerce", "amazon-sp-refresh-token", "SP_API_REFRESH_TOKEN=Atzr|{w:150}")
F("Login with Amazon", "ecommerce", "lwa-client-secret", "LWA_CLIENT_ID=amzn1.application-oa2-client.{h:32}",
  "LWA_CLIENT_SECRET=amzn1.oa2-cs.v1.{h:64}")
F("Printful", "ecommerce", "printful-token", "PRINTFUL_TOKEN={m:40}")
F("commercetools", "ecommerce", "commercetools-client", "CTP_PROJECT_KEY={l:8}", "CTP_CLIENT_ID={w:24}", "CTP_CLIENT_SECRET={w:32}")
F("Saleor", "ecommerce", "saleor-app-token", "SALEOR_APP_TOKEN={m:30}")
F("Gumroad", "ecommerce", "gumroad-token", "GUMROAD_ACCESS_TOKEN={w:43}")
F("Shippo", "shipping", "shippo-live-token", "SHIPPO_API_TOKEN=shippo_live_{h:40}")
F("EasyPost", "shipping", "easypost-key", "EASYPOST_API_KEY=EZAK{h:54}")
F("ShipEngine", "shipping", "shipengine-key", "SHIPENGINE_API_KEY={w:43}")
F("AfterShip", "shipping", "aftership-key", "AFTERSHIP_API_KEY=asat_{h:32}")
F("Lob", "shipping", "lob-live-key", "LOB_API_KEY=live_{h:35}")
F("ShipStation", "shipping", "shipstation-keys", "SHIPSTATION_API_KEY={h:32}", "SHIPSTATION_API_SECRET={h:32}")
F("Sendcloud", "shipping", "sendcloud-keys", "SENDCLOUD_PUBLIC_KEY={uuid}", "SENDCLOUD_SECRET_KEY={h:32}")

# exchanges / wallets / web3
F("Binance", "crypto", "binance-api-keys", "BINANCE_API_KEY={m:64}", "BINANCE_API_SECRET={m:64}")
F("Coinbase", "crypto", "coinbase-cdp-key", "COINBASE_KEY_NAME=organizations/{uuid}/apiKeys/{uuid}", "COINBASE_PRIVATE_KEY={ec_pem}")
F("Kraken", "crypto", "kraken-keys", "KRAKEN_API_KEY={b:56}", "KRAKEN_PRIVATE_KEY={B64:64}")
F("Bitfinex", "crypto", "bitfinex-keys", "BFX_API_KEY={m:43}", "BFX_API_SECRET={m:43}")
F("KuCoin", "crypto", "kucoin-keys", "KUCOIN_API_KEY={h:24}", "KUCOIN_API_SECRET={uuid}", "KUCOIN_API_PASSPHRASE={pwsafe}")
F("OKX", "crypto", "okx-keys", "OKX_API_KEY={uuid}", "OKX_SECRET_KEY={H:32}", "OKX_PASSPHRASE={pwsafe}")
F("Bybit", "crypto", "bybit-keys", "BYBIT_API_KEY={m:18}", "BYBIT_API_SECRET={m:36}")
F("Gemini", "crypto", "gemini-exchange-keys", "GEMINI_API_KEY=account-{m:20}", "GEMINI_API_SECRET={z:28}")
F("Bitstamp", "crypto", "bitstamp-keys", "BITSTAMP_KEY={m:32}", "BITSTAMP_SECRET={m:32}")
F("Gate.io", "crypto", "gateio-keys", "GATE_KEY={h:32}", "GATE_SECRET={h:64}")
F("Crypto.com", "crypto", "cryptocom-keys", "CDC_API_KEY={m:24}", "CDC_SECRET_KEY={m:24}")
F("Bitget", "crypto", "bitget-keys", "BITGET_API_KEY=bg_{h:32}", "BITGET_SECRET={h:64}", "BITGET_PASSPHRASE={pwsafe}")
F("Infura", "crypto", "infura-key-secret", "INFURA_PROJECT_ID={h:32}", "INFURA_API_KEY_SECRET={h:32}")
F("Alchemy", "crypto", "alchemy-key", "ALCHEMY_API_KEY={w:32}")
F("Alchemy", "crypto", "alchemy-rpc-url", "ETH_RPC_URL=https://eth-mainnet.g.alchemy.com/v2/{w:32}")
F("Etherscan", "crypto", "etherscan-key", "ETHERSCAN_API_KEY={A:34}")
F("Moralis", "crypto", "moralis-key", "MORALIS_API_KEY={m:64}")
F("QuickNode", "crypto", "quicknode-url", "QUICKNODE_URL=https://{l:5}-{l:5}-{l:5}.quiknode.pro/{h:40}/")
F("Helius", "crypto", "helius-rpc-url", "HELIUS_RPC=https://mainnet.helius-rpc.com/?api-key={uuid}")
F("Ethereum", "crypto", "eth-private-key", "DEPLOYER_PRIVATE_KEY=0x{h:64}")
F("Bitcoin", "crypto", "btc-wif-private-key", "BTC_WIF={wif}")
F("Bitcoin", "crypto", "bip32-xprv", "XPRV=xprv9s21ZrQH143K{z:95}")
F("Solana", "crypto", "solana-keypair-json", "SOLANA_KEYPAIR={sol_json}")
F("Solana", "crypto", "solana-private-key-b58", "SOLANA_PRIVATE_KEY={z:88}")
F("Nostr", "privatekey", "nostr-nsec", "NOSTR_NSEC=nsec1{c:58}")
F("Fireblocks", "crypto", "fireblocks-api-secret", "FIREBLOCKS_API_KEY={uuid}", "FIREBLOCKS_SECRET={pkcs8ec}")
F("CoinMarketCap", "crypto", "coinmarketcap-key", "CMC_PRO_API_KEY={uuid}")
F("CoinGecko", "crypto", "coingecko-pro-key", "COINGECKO_API_KEY=CG-{m:24}")
F("thirdweb", "crypto", "thirdweb-secret-key", "THIRDWEB_SECRET_KEY={w:86}")
F("Blockfrost", "crypto", "blockfrost-project-id", "BLOCKFROST_PROJECT_ID=mainnet{m:32}")
F("BIP39 wallet", "crypto", "wallet-seed-phrase-env", "WALLET_MNEMONIC={seed12}")

# feature flags
F("LaunchDarkly", "featureflags", "launchdarkly-sdk-key", "LAUNCHDARKLY_SDK_KEY=sdk-{uuid}")
F("LaunchDarkly", "featureflags", "launchdarkly-api-token", "LD_API_TOKEN=api-{uuid}")
F("Split", "featureflags", "split-sdk-key", "SPLIT_API_KEY={a:36}")
F("Flagsmith", "featureflags", "flagsmith-server-key", "FLAGSMITH_SERVER_KEY=ser.{m:22}")
F("ConfigCat", "featureflags", "configcat-sdk-key", "CONFIGCAT_SDK_KEY=configcat-sdk-1/{w:22}/{w:22}")
F("Unleash", "featureflags", "unleash-backend-token", "UNLEASH_API_TOKEN=default:production.{h:64}")
F("Statsig", "featureflags", "statsig-server-secret", "STATSIG_SERVER_SECRET=secret-{m:43}")
F("GrowthBook", "featureflags", "growthbook-secret", "GROWTHBOOK_API_KEY=secret_admin_{m:40}")
F("DevCycle", "featureflags", "devcycle-server-key", "DEVCYCLE_SERVER_SDK_KEY=dvc_server_{uuid}_{h:7}")
F("Optimizely", "featureflags", "optimizely-token", "OPTIMIZELY_TOKEN=2:{w:43}")
F("Eppo", "featureflags", "eppo-key", "EPPO_API_KEY={w:40}")

# identity / social / auth
F("Okta", "identity", "okta-api-token", "OKTA_ORG_URL=https://{l:8}.okta.com", "OKTA_API_TOKEN=00{w:40}")
F("Auth0", "identity", "auth0-client-secret", "AUTH0_DOMAIN={l:8}.eu.auth0.com", "AUTH0_CLIENT_ID={m:32}", "AUTH0_CLIENT_SECRET={w:64}")
F("Clerk", "identity", "clerk-secret-key", "CLERK_SECRET_KEY=sk_live_{m:40}")
F("Stytch", "identity", "stytch-secret", "STYTCH_PROJECT_ID=project-live-{uuid}", "STYTCH_SECRET=secret-live-{w:36}")
F("WorkOS", "identity", "workos-key", "WORKOS_API_KEY=sk_{m:64}")
F("Keycloak", "identity", "keycloak-client-secret", "KEYCLOAK_CLIENT_ID={l:8}-backend", "KEYCLOAK_CLIENT_SECRET={m:32}")
F("OneLogin", "identity", "onelogin-secret", "ONELOGIN_CLIENT_ID={h:64}", "ONELOGIN_CLIENT_SECRET={h:64}")
F("Duo Security", "identity", "duo-skey", "DUO_IKEY=DI{A:18}", "DUO_SKEY={m:40}")
F("Magic", "identity", "magic-secret-key", "MAGIC_SECRET_KEY=sk_live_{H:16}")
F("JumpCloud", "identity", "jumpcloud-key", "JUMPCLOUD_API_KEY=jca_{m:36}")
F("Descope", "identity", "descope-management-key", "DESCOPE_PROJECT_ID=P{m:27}", "DESCOPE_MANAGEMENT_KEY=K2{A:25}{w:60}")
F("Ory", "identity", "ory-pat", "ORY_API_KEY=ory_pat_{m:32}")
F("FusionAuth", "identity", "fusionauth-key", "FUSIONAUTH_API_KEY={w:64}")
F("Kinde", "identity", "kinde-secret", "KINDE_CLIENT_SECRET={m:48}")
F("SuperTokens", "identity", "supertokens-key", "SUPERTOKENS_API_KEY={m:40}")
F("Frontegg", "identity", "frontegg-api-key", "FRONTEGG_CLIENT_ID={uuid}", "FRONTEGG_API_KEY={uuid}")
F("Sign in with Apple", "identity", "apple-signin-key", "APPLE_TEAM_ID={A:10}", "APPLE_KEY_ID={A:10}", "APPLE_PRIVATE_KEY={pkcs8ec}")
F("X (Twitter)", "social", "twitter-bearer-token", "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{m:30}%2B{m:14}%3D{m:50}")
F("X (Twitter)", "social", "twitter-consumer-secret", "TWITTER_API_KEY={m:25}", "TWITTER_API_SECRET={m:50}")
F("X (Twitter)", "social", "twitter-access-token", "TWITTER_ACCESS_TOKEN={d:19}-{m:30}", "TWITTER_ACCESS_SECRET={m:45}")
F("LinkedIn", "social", "linkedin-client-secret", "LINKEDIN_CLIENT_ID={a:14}", "LINKEDIN_CLIENT_SECRET=WPL_AP1.{m:16}.{w:8}==")
F("Spotify", "media", "spotify-client-secret", "SPOTIFY_CLIENT_ID={h:32}", "SPOTIFY_CLIENT_SECRET={h:32}")
F("Twitch", "media", "twitch-oauth-token", "TWITCH_OAUTH=oauth:{a:30}")
F("Twitch", "media", "twitch-client-secret", "TWITCH_CLIENT_ID={a:30}", "TWITCH_CLIENT_SECRET={a:30}")
F("Reddit", "social", "reddit-client-secret", "REDDIT_CLIENT_ID={w:22}", "REDDIT_CLIENT_SECRET={w:30}")
F("Pinterest", "social", "pinterest-token", "PINTEREST_ACCESS_TOKEN=pina_{A:100}")
F("TikTok", "social", "tiktok-client-secret", "TIKTOK_CLIENT_KEY=aw{a:14}", "TIKTOK_CLIENT_SECRET={m:32}")
F("Mastodon", "social", "mastodon-token", "MASTODON_BASE_URL=https://{l:7}.social", "MASTODON_ACCESS_TOKEN={w:43}")
F("Bluesky", "social", "bluesky-app-password", "BSKY_HANDLE={l:8}.bsky.social", "BSKY_APP_PASSWORD={a:4}-{a:4}-{a:4}-{a:4}")
F("Yandex", "cloud", "yandex-oauth-token", "YANDEX_OAUTH=y0_{w:56}")
F("Yandex Cloud", "cloud", "yandex-cloud-api-key", "YC_API_KEY=AQVN{w:36}")
F("Yandex Cloud", "cloud", "yandex-iam-token", "YC_IAM_TOKEN=t1.{w:120}")
F("VK", "social", "vk-access-token", "VK_TOKEN=vk1.a.{w:180}")
F("Naver", "social", "naver-client-secret", "NAVER_CLIENT_ID={m:20}", "NAVER_CLIENT_SECRET={m:10}")

# maps / data / security APIs
F("Mapbox", "maps", "mapbox-secret-token", "MAPBOX_SECRET_TOKEN=sk.eyJ1Ijoi{w:30}In0.{w:22}")
F("HERE", "maps", "here-api-key", "HERE_API_KEY={w:43}")
F("TomTom", "maps", "tomtom-key", "TOMTOM_API_KEY={m:32}")
F("OpenWeather", "data", "openweather-key", "OWM_API_KEY={h:32}")
F("WeatherAPI.com", "data", "weatherapi-key", "WEATHERAPI_KEY={h:31}")
F("IPinfo", "data", "ipinfo-token", "IPINFO_TOKEN={h:14}")
F("MaxMind", "data", "maxmind-license-key", "MAXMIND_ACCOUNT_ID={d:6}", "MAXMIND_LICENSE_KEY={m:6}_{m:29}_mmk")
F("Shodan", "security", "shodan-key", "SHODAN_API_KEY={m:32}")
F("VirusTotal", "security", "virustotal-key", "VT_API_KEY={h:64}")
F("Censys", "security", "censys-api-secret", "CENSYS_API_ID={uuid}", "CENSYS_API_SECRET={m:32}")
F("AbuseIPDB", "security", "abuseipdb-key", "ABUSEIPDB_KEY={h:80}")
F("Have I Been Pwned", "security", "hibp-key", "HIBP_API_KEY={h:32}")
F("SecurityTrails", "security", "securitytrails-key", "SECURITYTRAILS_KEY={m:32}")
F("urlscan.io", "security", "urlscan-key", "URLSCAN_API_KEY={uuid}")
F("GitGuardian", "security", "gitguardian-key", "GITGUARDIAN_API_KEY={m:64}")
F("Hunter", "data", "hunter-key", "HUNTER_API_KEY={h:40}")
F("Clearbit", "data", "clearbit-key", "CLEARBIT_KEY=sk_{h:32}")
F("People Data Labs", "data", "pdl-key", "PDL_API_KEY={h:64}")
F("SerpApi", "data", "serpapi-key", "SERPAPI_KEY={h:64}")
F("ScrapingBee", "data", "scrapingbee-key", "SCRAPINGBEE_API_KEY={A:80}")
F("Bright Data", "data", "brightdata-proxy-url", "PROXY_URL=http://brd-customer-hl_{h:8}-zone-{l:6}:{a:12}@brd.superproxy.io:33335")
F("Apify", "data", "apify-token", "APIFY_TOKEN=apify_api_{m:36}")
F("Firecrawl", "data", "firecrawl-key", "FIRECRAWL_API_KEY=fc-{h:32}")
F("Browserless", "data", "browserless-token", "BROWSERLESS_TOKEN={m:40}")
F("Algolia", "data", "algolia-admin-key", "ALGOLIA_APP_ID={A:10}", "ALGOLIA_ADMIN_KEY={h:32}")
F("Typesense", "data", "typesense-admin-key", "TYPESENSE_HOST={a:10}-1.a1.typesense.net", "TYPESENSE_API_KEY={m:32}")
F("Meilisearch", "data", "meilisearch-master-key", "MEILI_MASTER_KEY={w:44}")

# media
F("Cloudinary", "media", "cloudinary-url", "CLOUDINARY_URL=cloudinary://{d:15}:{w:27}@{l:8}")
F("Uploadcare", "media", "uploadcare-secret", "UPLOADCARE_PUBLIC_KEY={h:20}", "UPLOADCARE_SECRET_KEY={h:20}")
F("Mux", "media", "mux-token-secret", "MUX_TOKEN_ID={uuid}", "MUX_TOKEN_SECRET={b:75}")
F("Vimeo", "media", "vimeo-token", "VIMEO_ACCESS_TOKEN={h:32}")
F("Frame.io", "media", "frameio-token", "FRAMEIO_TOKEN=fio-u-{w:64}")
F("Agora", "media", "agora-app-certificate", "AGORA_APP_ID={h:32}", "AGORA_APP_CERTIFICATE={h:32}")
F("LiveKit", "media", "livekit-secret", "LIVEKIT_API_KEY=API{m:12}", "LIVEKIT_API_SECRET={m:43}")
F("Daily", "media", "daily-key", "DAILY_API_KEY={h:64}")
F("ImageKit", "media", "imagekit-private-key", "IMAGEKIT_PRIVATE_KEY=private_{w:28}=")
F("imgix", "media", "imgix-api-key", "IMGIX_API_KEY=ak_{h:64}")
F("Transloadit", "media", "transloadit-secret", "TRANSLOADIT_KEY={h:32}", "TRANSLOADIT_SECRET={h:40}")
F("Unsplash", "media", "unsplash-secret", "UNSPLASH_ACCESS_KEY={w:43}", "UNSPLASH_SECRET_KEY={w:43}")
F("GIPHY", "media", "giphy-key", "GIPHY_API_KEY={m:32}")
F("TMDB", "media", "tmdb-read-token", "TMDB_READ_ACCESS_TOKEN={jwt}")
F("Last.fm", "media", "lastfm-shared-secret", "LASTFM_API_KEY={h:32}", "LASTFM_SHARED_SECRET={h:32}")
F("Plex", "media", "plex-token", "PLEX_TOKEN={w:20}")
F("Jellyfin", "media", "jellyfin-api-key", "JELLYFIN_API_KEY={h:32}")

# HR
F("BambooHR", "hr", "bamboohr-key", "BAMBOOHR_SUBDOMAIN={l:8}", "BAMBOOHR_API_KEY={h:40}")
F("Gusto", "hr", "gusto-client-secret", "GUSTO_CLIENT_SECRET={w:43}")
F("Deel", "hr", "deel-token", "DEEL_API_TOKEN={w:64}")
F("Personio", "hr", "personio-client-secret", "PERSONIO_CLIENT_ID=papi-{uuid}", "PERSONIO_CLIENT_SECRET=papi-{m:48}")
F("Greenhouse", "hr", "greenhouse-harvest-key", "GREENHOUSE_API_KEY={h:32}")
F("Lever", "hr", "lever-key", "LEVER_API_KEY={w:48}")
F("Workable", "hr", "workable-token", "WORKABLE_TOKEN={h:64}")
F("Rippling", "hr", "rippling-token", "RIPPLING_API_TOKEN={m:64}")
F("HiBob", "hr", "hibob-service-user", "HIBOB_SERVICE_USER_ID=SERVICE-{d:5}", "HIBOB_TOKEN={m:40}")

# framework / app secrets
F("Django", "framework", "django-secret-key", "SECRET_KEY={p:50}")
F("Ruby on Rails", "framework", "rails-secret-key-base", "SECRET_KEY_BASE={h:128}")
F("Ruby on Rails", "framework", "rails-master-key", "RAILS_MASTER_KEY={h:32}")
F("Laravel", "framework", "laravel-app-key", "APP_KEY=base64:{B64:32}")
F("Flask", "framework", "flask-secret-key", "FLASK_SECRET_KEY={h:64}")
F("Symfony", "framework", "symfony-app-secret", "APP_SECRET={h:32}")
F("Auth.js", "framework", "nextauth-secret", "NEXTAUTH_SECRET={B64:32}")
F("Phoenix", "framework", "phoenix-secret-key-base", "SECRET_KEY_BASE={b:64}")
F("Express", "framework", "express-session-secret", "SESSION_SECRET={m:48}")
F("JWT", "framework", "jwt-signing-secret", "JWT_SECRET={B64:48}")
F("ASP.NET", "framework", "aspnet-machine-key", "validationKey={H:128}", "decryptionKey={H:64}")
F("Jasypt", "framework", "jasypt-encryptor-password", "JASYPT_ENCRYPTOR_PASSWORD={pwsafe}")
F("WordPress", "framework", "wordpress-auth-salts", "AUTH_KEY={wpsalt}", "SECURE_AUTH_KEY={wpsalt}")
F("Better Auth", "framework", "better-auth-secret", "BETTER_AUTH_SECRET={m:32}")
F("Strapi", "framework", "strapi-app-keys", "APP_KEYS={B64:16},{B64:16},{B64:16},{B64:16}")
F("Strapi", "framework", "strapi-admin-jwt-secret", "ADMIN_JWT_SECRET={B64:16}")
F("Odoo", "framework", "odoo-admin-passwd", "ODOO_ADMIN_PASSWD={pwsafe}")
F("Nuxt", "framework", "nuxt-session-password", "NUXT_SESSION_PASSWORD={m:32}")
F("n8n", "framework", "n8n-encryption-key", "N8N_ENCRYPTION_KEY={m:32}")

# private keys (standalone)
F("RSA", "privatekey", "rsa-private-key-pem", "PRIVATE_KEY={rsa1024}")
F("ECDSA", "privatekey", "ec-private-key-pem", "EC_PRIVATE_KEY={ec_pem}")
F("PKCS#8", "privatekey", "pkcs8-private-key", "TLS_KEY={pkcs8ec}")
F("OpenSSH", "privatekey", "openssh-private-key", "SSH_PRIVATE_KEY={openssh}")
F("OpenPGP", "privatekey", "pgp-private-key-block", "GPG_PRIVATE_KEY={pgp_priv}")
F("PuTTY", "privatekey", "putty-ppk", "PPK_KEY={ppk}")
F("age", "privatekey", "age-secret-key", "SOPS_AGE_KEY=AGE-SECRET-KEY-1{C:58}")
F("minisign", "privatekey", "minisign-secret-key", "MINISIGN_SECRET_KEY={minisign}")
F("JOSE", "privatekey", "jwk-private-key", "JWK_PRIVATE={jwk}")

# session cookies
F("Ruby on Rails", "session", "rails-session-cookie", "SESSION_COOKIE=_{l:6}_session={b:120}--{h:40}")
F("PHP", "session", "php-session-id", "SESSION_COOKIE=PHPSESSID={a:26}")
F("Java Servlet", "session", "jsessionid-cookie", "SESSION_COOKIE=JSESSIONID={H:32}")
F("Express", "session", "connect-sid-cookie", "SESSION_COOKIE=connect.sid=s%3A{w:32}.{b:43}")
F("ASP.NET", "session", "aspnet-session-cookie", "SESSION_COOKIE=ASP.NET_SessionId={a:24}")
F("ASP.NET Core", "session", "aspnetcore-auth-cookie", "SESSION_COOKIE=.AspNetCore.Cookies=CfDJ8{w:200}")
F("GitHub", "session", "github-user-session-cookie", "SESSION_COOKIE=user_session={w:48}")
F("Google", "session", "google-psid-cookie", "SESSION_COOKIE=__Secure-1PSID=g.a000{w:140}")
F("Laravel", "session", "laravel-session-cookie", "SESSION_COOKIE=laravel_session=eyJpdiI6{w:180}%3D%3D")
F("Django", "session", "django-sessionid-cookie", "SESSION_COOKIE=sessionid={a:32}")
F("Flask", "session", "flask-session-cookie", "SESSION_COOKIE=session=eyJ{w:40}.{w:6}.{w:27}")
F("WordPress", "session", "wordpress-logged-in-cookie",
  "SESSION_COOKIE=wordpress_logged_in_{h:32}={l:6}%7C{d:10}%7C{m:43}%7C{h:64}")
F("Reddit", "session", "reddit-session-cookie", "SESSION_COOKIE=reddit_session={jwt}")
F("Discord", "session", "discord-user-token", "DISCORD_USER_TOKEN={discord}")
F("Instagram", "session", "instagram-sessionid-cookie", "SESSION_COOKIE=sessionid={d:11}%3A{m:14}%3A{d:2}%3A{w:60}")
F("Amazon", "session", "amazon-session-token-cookie", "SESSION_COOKIE=session-token={b:160}")
F("Atlassian", "session", "atlassian-cloud-session-cookie", "SESSION_COOKIE=cloud.session.token={jwt}")
F("Spotify", "session", "spotify-sp-dc-cookie", "SESSION_COOKIE=sp_dc=AQ{w:150}")
F("TikTok", "session", "tiktok-sessionid-cookie", "SESSION_COOKIE=sessionid={h:32}")
F("LinkedIn", "session", "linkedin-li-at-cookie", "SESSION_COOKIE=li_at=AQEDA{w:150}")
F("X (Twitter)", "session", "twitter-auth-token-cookie", "SESSION_COOKIE=auth_token={h:40}")
F("Steam", "session", "steam-login-secure-cookie", "SESSION_COOKIE=steamLoginSecure={d:17}%7C%7C{jwt}")
F("Netflix", "session", "netflix-id-cookie", "SESSION_COOKIE=NetflixId=v%3D3%26ct%3D{w:200}")
F("Roblox", "session", "roblosecurity-cookie",
  "SESSION_COOKIE=.ROBLOSECURITY=_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-steal-your-ROBUX-and-items.|_{H:240}")


# ---------------------------------------------------------------------------
# containers: the same renderers serve secret and benign records
# ---------------------------------------------------------------------------
def _split_name(n):
    parts = [p for p in re.split(r"[\s_.\-/#&()'+:,!]+|(?<=[a-z])(?=[A-Z])", n) if p]
    return [p.lower() for p in parts] or [n.lower()]


def snake(n):
    return "_".join(_split_name(n))


def camel(n):
    p = _split_name(n)
    return p[0] + "".join(x.capitalize() for x in p[1:])


def pascal(n):
    return "".join(x.capitalize() for x in _split_name(n))


def kebab(n):
    return "-".join(_split_name(n))


def slug(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "svc"


def desc(n):
    return " ".join(_split_name(n))


def lit(v):
    return json.dumps(v, ensure_ascii=False)


def env_quote(v):
    if "\n" in v:
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if re.search(r"[\s#'\"$`;&|]", v):
        if "'" not in v:
            return "'" + v + "'"
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'
    return v


def yq(v, ind):
    if "\n" in v:
        pad = " " * ind
        return "|\n" + "\n".join(pad + ln for ln in v.split("\n"))
    if (re.search(r"^[\s\-?:,\[\]{}#&*!|>'\"%@`]|: | #|\s$", v) or re.fullmatch(r"[\d.eE+\-]+|true|false|yes|no|null|on|off", v, re.I)):
        return lit(v)
    return v


def xesc(v):
    return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def is_url(v):
    return bool(re.match(r"^[a-z][a-z0-9+.\-]*://", v))


def is_http(v):
    return v.startswith("http://") or v.startswith("https://")


INNOC = [
    ("PORT", lambda: str(pick([3000, 8080, 8000, 5000, 4000, 9090, 8443]))),
    ("LOG_LEVEL", lambda: pick(["info", "debug", "warn", "error"])),
    ("NODE_ENV", lambda: pick(["production", "staging", "development"])),
    ("AWS_REGION", lambda: pick(["eu-west-1", "us-east-1", "ap-southeast-2", "eu-central-1", "us-west-2"])),
    ("TIMEOUT_MS", lambda: str(R.randint(2, 60) * 500)),
    ("MAX_RETRIES", lambda: str(R.randint(1, 8))),
    ("API_BASE_URL", lambda: f"https://api.{rs('l', 6)}.com/v{R.randint(1, 3)}"),
    ("CACHE_TTL_SECONDS", lambda: str(pick([60, 300, 600, 3600, 86400]))),
    ("APP_NAME", lambda: pick(APPS)),
    ("FEATURE_NEW_CHECKOUT", lambda: pick(["true", "false"])),
    ("WORKERS", lambda: str(R.randint(1, 16))),
    ("DB_HOST", lambda: hostname()),
    ("DB_PORT", lambda: pick(["5432", "3306", "27017", "6379"])),
    ("DB_NAME", lambda: pick(["app", "orders", "analytics", "crm", "main"])),
    ("DB_USER", lambda: pick(["app", "readonly", "etl", "svc_orders"])),
    ("S3_BUCKET", lambda: f"{pick(APPS)}-{pick(['assets', 'uploads', 'exports', 'backups'])}-{rs('d', 4)}"),
    ("QUEUE_NAME", lambda: pick(["emails", "webhooks", "thumbnails", "invoices", "default"])),
    ("TZ", lambda: pick(["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "Africa/Lagos"])),
    ("DEFAULT_LOCALE", lambda: pick(["en-GB", "de-DE", "pt-BR", "ja-JP", "fr-FR"])),
    ("SENTRY_ENVIRONMENT", lambda: pick(["prod", "staging", "preview"])),
    ("BUILD_SHA", lambda: rs("h", 40)),
    ("DEPLOY_ID", lambda: uuid4()),
    ("RELEASE", lambda: f"v{R.randint(0, 9)}.{R.randint(0, 30)}.{R.randint(0, 20)}"),
    ("SMTP_HOST", lambda: pick(["smtp.sendgrid.net", "smtp.mailgun.org", "email-smtp.eu-west-1.amazonaws.com", "smtp.office365.com"])),
    ("SMTP_PORT", lambda: pick(["587", "465", "2525"])),
    ("CORS_ORIGINS", lambda: f"https://{rs('l', 5)}.example.com,https://admin.{rs('l', 5)}.example.com"),
    ("BATCH_SIZE", lambda: str(pick([50, 100, 250, 500, 1000]))),
    ("RATE_LIMIT_PER_MIN", lambda: str(pick([60, 120, 600, 1000]))),
    ("OTEL_EXPORTER_OTLP_ENDPOINT", lambda: f"http://otel-collector.{pick(['monitoring', 'obs'])}.svc:4318"),
    ("GCP_PROJECT", lambda: f"{pick(['acme', 'orbit', 'atlas'])}-{pick(['prod', 'dev'])}-{rs('d', 6)}"),
    ("AWS_ACCOUNT_ID", lambda: rs("d", 12)),
    ("CLUSTER_NAME", lambda: f"{pick(['prod', 'stg'])}-{pick(['eu', 'us', 'ap'])}-{R.randint(1, 4)}"),
    ("UPLOAD_DIR", lambda: pick(["/var/app/uploads", "/data/media", "./tmp/uploads"])),
    ("MAX_UPLOAD_MB", lambda: str(pick([5, 10, 25, 100]))),
    ("REDIS_HOST", lambda: f"redis.{pick(['internal', 'cache.svc', 'local'])}"),
    ("ENABLE_METRICS", lambda: pick(["true", "false", "1"])),
    ("HEALTHCHECK_PATH", lambda: pick(["/healthz", "/ready", "/status"])),
    ("PUBLIC_URL", lambda: f"https://{rs('l', 6)}.example.org"),
    ("SUPPORT_EMAIL", lambda: f"support@{rs('l', 6)}.example.com"),
    ("PAGE_SIZE", lambda: str(pick([20, 25, 50]))),
    ("CURRENCY", lambda: pick(["EUR", "USD", "GBP", "JPY", "BRL"])),
]


def innoc_pairs(n):
    idx = list(range(len(INNOC)))
    R.shuffle(idx)
    return [(INNOC[i][0], INNOC[i][1]()) for i in idx[:n]]


def api_host(ctx):
    return f"api.{slug(ctx['vendor']).replace('-', '')}.{pick(['com', 'io', 'dev'])}"


def r_env(pairs, ctx):
    lines = []
    if chance(0.5):
        lines.append(pick([f"# {ctx['vendor']}", f"# --- {ctx['vendor']} ---", f"# {ctx['vendor']} ({pick(['prod', 'staging', 'local'])})"]))
    for k, v in pairs:
        lines.append(f"{pick(['', '', '', 'export '])}{k}={env_quote(v)}")
    return "\n".join(lines)


def r_yaml(pairs, ctx):
    svc = slug(ctx["vendor"]).replace("-", "_")
    st = R.randrange(3)
    if st == 0:
        out = [f"{svc}:"] + [f"  {snake(k)}: {yq(v, 4)}" for k, v in pairs]
    elif st == 1:
        out = ["env:"] + [f"  {k}: {yq(v, 4)}" for k, v in pairs]
    else:
        out = ["integrations:", f"  {svc}:", "    enabled: true"] + [f"    {snake(k)}: {yq(v, 6)}" for k, v in pairs]
    return "\n".join(out)


def r_toml(pairs, ctx):
    out = [f"[{slug(ctx['vendor']).replace('-', '_')}]"]
    for k, v in pairs:
        out.append(f"{snake(k)} = " + ('"""\n' + v + '"""' if "\n" in v else lit(v)))
    return "\n".join(out)


def r_ini(pairs, ctx):
    out = [f"[{slug(ctx['vendor'])}]"]
    for k, v in pairs:
        out.append(f"{snake(k)} = " + v.replace("\n", "\n    "))
    return "\n".join(out)


def r_json(pairs, ctx):
    inner = {camel(k): v for k, v in pairs}
    if chance(0.4):
        inner = {"enabled": True, **inner}
    return {slug(ctx["vendor"]).replace("-", "_"): inner}


def r_properties(pairs, ctx):
    svc = slug(ctx["vendor"])
    out = [f"# {ctx['vendor']}"] if chance(0.4) else []
    for k, v in pairs:
        out.append(f"{pick(['app.', '', 'integration.'])}{svc}.{kebab(k)}={v.replace(chr(10), chr(92) + 'n')}")
    return "\n".join(out)


def r_python(pairs, ctx):
    st = R.randrange(4)
    if st == 0:
        return "\n".join(f"{k.upper() if k.isupper() else snake(k).upper()} = {lit(v)}" for k, v in pairs)
    if st == 1:
        return "import os\n\n" + "\n".join(f"os.environ.setdefault({lit(k)}, {lit(v)})" for k, v in pairs)
    if st == 2:
        args = ", ".join(f"{snake(k)}={lit(v)}" for k, v in pairs)
        return f"client = {pascal(slug(ctx['vendor']))}Client({args})"
    return "SETTINGS = {\n" + "".join(f"    {lit(snake(k))}: {lit(v)},\n" for k, v in pairs) + "}"


def r_js(pairs, ctx):
    st = R.randrange(3)
    if st == 0:
        return "\n".join(f"const {camel(k)} = {lit(v)};" for k, v in pairs)
    if st == 1:
        return "module.exports = {\n" + "".join(f"  {camel(k)}: {lit(v)},\n" for k, v in pairs) + "};"
    return "\n".join(f"process.env.{k} ??= {lit(v)};" for k, v in pairs)


def r_ts(pairs, ctx):
    return (f"export const {camel(slug(ctx['vendor']))}Config = {{\n"
            + "".join(f"  {camel(k)}: {lit(v)},\n" for k, v in pairs) + "} as const;")


def r_go(pairs, ctx):
    if chance(0.5):
        return "const (\n" + "".join(f"\t{camel(k)} = {lit(v)}\n" for k, v in pairs) + ")"
    return "\n".join(f"os.Setenv({lit(k)}, {lit(v)})" for k, v in pairs)


def r_java(pairs, ctx):
    if chance(0.6):
        return "\n".join(f"private static final String {snake(k).upper()} = {lit(v)};" for k, v in pairs)
    return "\n".join(f"System.setProperty({lit(slug(ctx['vendor']) + '.' + camel(k))}, {lit(v)});" for k, v in pairs)


def r_ruby(pairs, ctx):
    if chance(0.5):
        return "\n".join(f"ENV[{lit(k)}] ||= {lit(v)}" for k, v in pairs)
    mod = pascal(slug(ctx["vendor"]))
    return f"{mod}.configure do |config|\n" + "".join(f"  config.{snake(k)} = {lit(v)}\n" for k, v in pairs) + "end"


def r_php(pairs, ctx):
    def q(v):
        return "'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if chance(0.5):
        return "<?php\n" + "\n".join(f"define('{snake(k).upper()}', {q(v)});" for k, v in pairs)
    return "<?php\nreturn [\n" + "".join(f"    '{snake(k)}' => {q(v)},\n" for k, v in pairs) + "];"


def r_csharp(pairs, ctx):
    if chance(0.5):
        return "\n".join(f"const string {pascal(k)} = {lit(v)};" for k, v in pairs)
    return "\n".join(f"options.{pascal(k)} = {lit(v)};" for k, v in pairs)


def r_rust(pairs, ctx):
    return "\n".join(f"const {snake(k).upper()}: &str = {lit(v)};" for k, v in pairs)


def r_kotlin(pairs, ctx):
    return "\n".join(f"const val {snake(k).upper()} = {lit(v)}" for k, v in pairs)


def r_swift(pairs, ctx):
    return "\n".join(f"let {camel(k)} = {lit(v)}" for k, v in pairs)


SHELL_NOISE = ["ls -la", "cd ~/src/{app}", "git pull --rebase", "make test", "docker ps", "kubectl get pods -n {app}",
               "npm run build", "history | tail", "vim .env", "clear", "cat README.md", "python -m pytest -q",
               "git status", "terraform plan", "htop", "du -sh *"]


def r_shell(pairs, ctx):
    n = R.randint(100, 1900)
    app = pick(APPS)
    lines = []
    for _ in range(R.randint(0, 2)):
        lines.append(pick(SHELL_NOISE).format(app=app))
    for k, v in pairs:
        lines.append(f"export {k}={env_quote(v)}")
    for _ in range(R.randint(1, 2)):
        lines.append(pick(SHELL_NOISE).format(app=app))
    if chance(0.5):
        return "\n".join(f" {n + i:4d}  {ln}" for i, ln in enumerate(lines))
    return "\n".join("$ " + ln for ln in lines)


def _auth_header(pairs, ctx):
    k, v = pairs[-1]
    if k == "SESSION_COOKIE":
        return "Cookie", v
    if len(pairs) >= 2 and not any(is_url(pv) for _, pv in pairs):
        raw = f"{pairs[0][1]}:{v}"
        return "Authorization", "Basic " + b64(raw.encode())
    return pick([("Authorization", "Bearer " + v), ("Authorization", "Bearer " + v), ("X-API-Key", v),
                 ("Authorization", "Token " + v), (f"X-{pascal(slug(ctx['vendor']))}-Key", v)])


def r_curl(pairs, ctx):
    k, v = pairs[-1]
    if ctx.get("benign"):
        q = "&".join(f"{snake(a)}={pct(b)}" for a, b in pairs[:3])
        return f"curl -s '{api_host_url(ctx)}?{q}' -H 'Accept: application/json'"
    if is_http(v):
        return (f"curl -X POST -H 'Content-Type: application/json' -d '{{\"text\":\"{pick(['deploy done', 'build failed', 'hello'])}\"}}' '{v}'")
    if len(pairs) >= 2 and k != "SESSION_COOKIE" and chance(0.5):
        return f"curl -u '{pairs[0][1]}:{v}' {api_host_url(ctx)}"
    h, hv = _auth_header(pairs, ctx)
    return f"curl -sS {api_host_url(ctx)} \\\n  -H '{h}: {hv}' \\\n  -H 'Accept: application/json'"


def api_host_url(ctx):
    return f"https://{api_host(ctx)}/{pick(['v1', 'v2', 'api/v1', 'v3'])}/{pick(['me', 'projects', 'status', 'items?limit=10', 'accounts'])}"


def r_http(pairs, ctx):
    host = api_host(ctx)
    path = "/" + pick(["v1/me", "v2/orders?limit=20", "api/v1/projects", "v1/events", "v3/accounts/self"])
    lines = [f"{pick(['GET', 'GET', 'POST'])} {path} HTTP/1.1", f"Host: {host}"]
    if ctx.get("benign"):
        for k, v in pairs:
            lines.append(f"X-{pascal(k)}: {v}")
    else:
        h, hv = _auth_header(pairs, ctx)
        lines.append(f"{h}: {hv}")
    lines += ["Accept: application/json", f"User-Agent: {pick(['curl/8.5.0', 'python-requests/2.32.3', 'okhttp/4.12.0', 'PostmanRuntime/7.39.0'])}"]
    return "\n".join(lines)


def r_docker(pairs, ctx):
    svc = slug(ctx["vendor"])
    envs = " ".join(f"-e {k}={env_quote(v)}" for k, v in pairs)
    return f"docker run -d --name {svc}-{pick(['worker', 'api', 'sync'])} {envs} {pick(['ghcr.io', 'registry.example.com', 'docker.io'])}/{svc}/{pick(['app', 'worker', 'agent'])}:{R.randint(1, 9)}.{R.randint(0, 20)}"


def r_compose(pairs, ctx):
    svc = slug(ctx["vendor"])
    out = ["services:", f"  {svc}:", f"    image: {svc}/{pick(['app', 'worker'])}:latest", "    environment:"]
    if chance(0.5):
        out += [f"      {k}: {yq(v, 8)}" for k, v in pairs]
    else:
        out += [f"      - {k}={v}" for k, v in pairs if "\n" not in v] or [f"      {k}: {yq(v, 8)}" for k, v in pairs]
    return "\n".join(out)


def r_k8s(pairs, ctx):
    svc = slug(ctx["vendor"])
    kind = "ConfigMap" if ctx.get("benign") else "Secret"
    out = ["apiVersion: v1", f"kind: {kind}", "metadata:", f"  name: {svc}-{pick(['config', 'credentials', 'env'])}",
           f"  namespace: {pick(APPS)}"]
    out += (["data:"] if kind == "ConfigMap" else ["type: Opaque", "stringData:"])
    out += [f"  {k}: {yq(v, 4)}" for k, v in pairs]
    return "\n".join(out)


def r_terraform(pairs, ctx):
    svc = slug(ctx["vendor"]).replace("-", "_")
    def tv(v):
        return f"<<EOT\n{v}\nEOT" if "\n" in v else lit(v)
    if chance(0.5):
        return "\n".join(f"{snake(k) if snake(k).startswith(svc) else svc + '_' + snake(k)} = {tv(v)}" for k, v in pairs)
    return f'provider "{svc}" {{\n' + "".join(f"  {snake(k)} = {tv(v)}\n" for k, v in pairs) + "}"


def r_ci(pairs, ctx):
    if chance(0.5):
        out = ["jobs:", "  deploy:", "    runs-on: ubuntu-latest", "    env:"]
        out += [f"      {k}: {yq(v, 8)}" for k, v in pairs]
        out += ["    steps:", "      - uses: actions/checkout@v4", f"      - run: ./scripts/{pick(['deploy', 'release', 'sync'])}.sh"]
    else:
        out = ["variables:"] + [f"  {k}: {yq(v, 4)}" for k, v in pairs]
        out += ["", f"{pick(['deploy', 'publish', 'integration'])}:", "  stage: deploy", f"  script:\n    - make {pick(['deploy', 'release'])}"]
    return "\n".join(out)


CHAT_OPEN = ["hey", "yo", "hi!", "ok so", "fyi", "quick one:", "morning,", "sorry for the delay -", ""]
NOTE_FRAMES = [
    "Saving this for later: {x}", "note to self — {x}", "{x}\n(copied from the dashboard)", "from this morning: {x}",
    "{x} — for the {app} migration", "remember: {x}", "pasting here so I don't lose it: {x}", "{x}  <- this one",
    "re {app}: {x}", "{x}\n\nsee thread with {name}", "{date}: {x}", "jotting down {x}", "{x} (from {name})",
    "for the handover doc: {x}", "what {name} sent me: {x}",
]


def fill_frame(frame, x):
    return frame.format(x=x, app=pick(APPS), name=name(), date=date_human())


def pairs_text(pairs, sep=None):
    if len(pairs) == 1:
        return pairs[0][1]
    sep = sep or pick(["\n", ", ", " / ", "\n"])
    return sep.join(f"{desc(k)}: {v}" for k, v in pairs)


def r_chat(pairs, ctx):
    body = pairs_text(pairs, "\n") if len(pairs) > 1 else pairs[0][1]
    mk = desc(ctx.get("main", pairs[-1][0]))
    lead = pick([f"here's the {ctx['vendor']} {mk}", f"{ctx['vendor']} {mk} for {pick(['prod', 'staging', 'the demo'])}",
                 f"use this for {ctx['vendor']}", f"new {ctx['vendor']} settings"])
    sep = "\n" if "\n" in body else pick([": ", " → ", " - "])
    msg = f"{pick(CHAT_OPEN)} {lead}{sep}{body}".strip()
    if chance(0.35):
        return [f"{name()}: {pick(['can you send me the ' + ctx['vendor'] + ' config?', 'what do I put in the env?', 'need the ' + ctx['vendor'] + ' stuff'])}",
                f"{name()}: {msg}", f"{name()}: {pick(['thx!', 'got it 👍', 'works', 'ty'])}"]
    return msg


def r_notes(pairs, ctx):
    x = f"{ctx['vendor']} {desc(pairs[-1][0])}: {pairs[-1][1]}" if len(pairs) == 1 else f"{ctx['vendor']}\n{pairs_text(pairs, chr(10))}"
    return fill_frame(pick(NOTE_FRAMES), x)


def r_email(pairs, ctx):
    subj = pick([f"{ctx['vendor']} access", f"Re: {ctx['vendor']} setup", f"Fwd: {ctx['vendor']} integration details",
                 f"{ctx['vendor']} config for {pick(APPS)}"])
    return (f"Subject: {subj}\n\nHi {name()},\n\n{pick(['as discussed, here are the details:', 'below is what you need for the integration:', 'please find the settings below.'])}\n\n"
            f"{pairs_text(pairs, chr(10)) if len(pairs) > 1 else desc(pairs[0][0]) + ': ' + pairs[0][1]}\n\n{pick(['Best', 'Cheers', 'Thanks', 'Regards'])},\n{name()}")


def r_ticket(pairs, ctx):
    proj = pick(["OPS", "INFRA", "PLAT", "SUP", "DEV", "SEC"])
    title = pick([f"{ctx['vendor']} integration returns 401", f"Set up {ctx['vendor']} for {pick(APPS)}",
                  f"{ctx['vendor']} sync failing since {date_human()}", f"Migrate {ctx['vendor']} config"])
    return (f"[{proj}-{R.randint(100, 9999)}] {title}\n\n{pick(['Config currently deployed:', 'Values used in staging:', 'Env on the box:'])}\n"
            f"{chr(10).join(f'{k}={v}' for k, v in pairs)}\n\n{pick(['Assignee: ', 'Reporter: '])}{name()}")


def r_powershell(pairs, ctx):
    return "\n".join(f"$env:{k} = {lit(v)}" for k, v in pairs)


def r_ansible(pairs, ctx):
    svc = slug(ctx["vendor"]).replace("-", "_")
    return "---\n" + "\n".join(f"{svc}_{snake(k)}: {yq(v, 2) if chr(10) in v else lit(v)}" for k, v in pairs)


def r_helm(pairs, ctx):
    svc = camel(slug(ctx["vendor"]))
    out = [f"{svc}:", "  enabled: true", "  config:"] + [f"    {camel(k)}: {yq(v, 6)}" for k, v in pairs]
    return "\n".join(out)


def r_xml(pairs, ctx):
    return ("<appSettings>\n" + "".join(f'  <add key="{pascal(slug(ctx["vendor"]))}:{pascal(k)}" value="{xesc(v)}" />\n' for k, v in pairs)
            + "</appSettings>")


def r_systemd(pairs, ctx):
    svc = slug(ctx["vendor"])
    return (f"[Service]\nUser={pick(['app', 'www-data', 'svc'])}\n" + "".join(f'Environment="{k}={v}"\n' for k, v in pairs)
            + f"ExecStart=/usr/local/bin/{svc}-{pick(['agent', 'worker', 'sync'])}\nRestart=always")


def r_makefile(pairs, ctx):
    return ("".join(f"export {k} ?= {v}\n" for k, v in pairs) + f"\n{pick(['deploy', 'run', 'sync'])}:\n\t./bin/{slug(ctx['vendor'])} --env prod")


def r_jupyter(pairs, ctx):
    src = ["import os\n"] + [f"os.environ[{lit(k)}] = {lit(v)}\n" for k, v in pairs]
    return {"cell_type": "code", "execution_count": R.randint(1, 40), "metadata": {}, "source": src, "outputs": []}


def r_appsettings(pairs, ctx):
    return {pascal(slug(ctx["vendor"])): {pascal(k): v for k, v in pairs},
            "Logging": {"LogLevel": {"Default": pick(["Information", "Warning"])}}}


def r_dockerfile(pairs, ctx):
    return (f"FROM {pick(['node:20-alpine', 'python:3.12-slim', 'golang:1.22', 'eclipse-temurin:21-jre'])}\nWORKDIR /app\n"
            + "".join(f"ENV {k}={env_quote(v)}\n" for k, v in pairs) + "COPY . .\n" + f"CMD [{lit(pick(['npm', 'python', './server']))}, {lit(pick(['start', 'main.py', '--port=8080']))}]")


def r_launch(pairs, ctx):
    return {"version": "0.2.0", "configurations": [{"type": pick(["node", "debugpy", "go"]), "request": "launch",
                                                     "name": f"Run {slug(ctx['vendor'])}", "env": {k: v for k, v in pairs}}]}


CONTAINERS = {
    "env-file": r_env, "yaml": r_yaml, "toml": r_toml, "ini": r_ini, "json-config": r_json, "properties": r_properties,
    "python": r_python, "javascript": r_js, "typescript": r_ts, "go": r_go, "java": r_java, "ruby": r_ruby, "php": r_php,
    "csharp": r_csharp, "rust": r_rust, "kotlin": r_kotlin, "swift": r_swift, "shell-history": r_shell, "curl": r_curl,
    "docker": r_docker, "docker-compose": r_compose, "kubernetes": r_k8s, "terraform": r_terraform, "ci-yaml": r_ci,
    "http-request": r_http, "chat": r_chat, "notes": r_notes, "email": r_email, "ticket": r_ticket,
    "powershell": r_powershell, "ansible": r_ansible, "helm-values": r_helm, "xml-config": r_xml, "systemd": r_systemd,
    "makefile": r_makefile, "jupyter": r_jupyter, "appsettings-json": r_appsettings, "dockerfile": r_dockerfile,
    "launch-json": r_launch,
}
NO_MULTILINE = {"curl", "http-request", "docker", "properties", "shell-history", "makefile", "systemd", "dockerfile",
                "xml-config", "ini"}
HTTP_ONLY = {"curl", "http-request"}


def compatible(container, pairs):
    vals = [v for _, v in pairs]
    if container in NO_MULTILINE and any("\n" in v for v in vals):
        return False
    if container in HTTP_ONLY and any(is_url(v) and not is_http(v) for v in vals):
        return False
    if container in HTTP_ONLY and any(is_http(v) for v in vals[:-1]):
        return False
    return True


# ---------------------------------------------------------------------------
# personal secrets
# ---------------------------------------------------------------------------
SQA_POOL = (["Kowalczyk", "Fernsby", "Abernathy", "Okonkwo", "Ravensworth", "Delacroix", "Moncrieff", "Tiberius",
             "Hollowell", "Quisenberry", "Marchetti", "Van der Berg", "Whitcombe", "Castellanos"])


def sqa_answer():
    return pick([pick(SQA_POOL) + pick(["", "", str(R.randint(1, 9))]), pick(PETS) + pick(["", " the cat", " (dog)"]),
                 f"{R.randint(2, 300)} {pick(STREETS)}", pick(["Mrs. ", "Mr. ", ""]) + pick(SQA_POOL),
                 pick(["1994 Honda Civic", "red Fiat Panda", "Ford Escort", "VW Polo", "Toyota Corolla"]) + " " + rs("d", 2),
                 pick(CITIES) + pick(["", " General", " Hospital"]), pick(PW_WORDS) + pick(SQA_POOL).lower()])


def gift_code():
    return pick([f"{rs('A', 4)}-{rs('A', 6)}-{rs('A', 4)}", "X" + rs("A", 15), f"{rs('A', 5)}-{rs('A', 5)}-{rs('A', 5)}",
                 " ".join(rs("A", 4) for _ in range(4)), rs("A", 16)])


def backup_codes():
    if chance(0.5):
        return "\n".join(f"{rs('d', 4)} {rs('d', 4)}" for _ in range(R.randint(6, 10)))
    return "\n".join(rs("a", 8) if chance(0.5) else f"{rs('a', 5)}-{rs('a', 5)}" for _ in range(R.randint(6, 10)))


def recovery_key():
    if chance(0.5):
        return "-".join(rs("A", 4) for _ in range(7))
    return "-".join(f"{R.randint(0, 65535) * 11:06d}" for _ in range(8))


def safe_combo():
    return pick([f"{R.randint(0, 39):02d}-{R.randint(0, 39):02d}-{R.randint(0, 39):02d}", rs("d", 6), rs("d", 4),
                 f"R{R.randint(1, 99)} L{R.randint(1, 99)} R{R.randint(1, 99)}"])


PV = {
    "bank-card-pin": lambda: rs("d", 4), "phone-unlock-pin": lambda: rs("d", pick([4, 6])),
    "sim-pin": lambda: rs("d", 4), "sim-puk": lambda: rs("d", 8),
    "door-code": lambda: pick([rs("d", 4), rs("d", 5), rs("d", 4) + "#", "*" + rs("d", 4), rs("d", 6)]),
    "gate-code": lambda: pick(["#" + rs("d", 4), rs("d", 4) + "#", rs("d", 4), rs("d", 3) + "*"]),
    "alarm-code": lambda: rs("d", 4), "garage-code": lambda: rs("d", pick([4, 5, 6])),
    "safe-combination": safe_combo, "locker-code": lambda: rs("d", pick([3, 4])),
    "bike-lock-code": lambda: rs("d", pick([3, 4, 5])), "keybox-code": lambda: rs("d", 4),
    "voicemail-pin": lambda: rs("d", pick([4, 5, 6])), "tax-ip-pin": lambda: rs("d", 6),
    "otp-code": lambda: pick([rs("d", 6), rs("d", 6), "G-" + rs("d", 6), rs("d", 8), rs("d", 3) + "-" + rs("d", 3)]),
    "wifi-password": lambda: pick([human_password(), rs("m", 10), rs("a", 12), rs("A", 8) + rs("d", 4)]),
    "email-password": human_password, "bank-login-password": human_password, "streaming-password": human_password,
    "laptop-password": human_password, "work-vpn-password": human_password, "school-portal-password": human_password,
    "game-account-password": human_password, "router-admin-password": lambda: pick([human_password(), rs("m", 8)]),
    "password-manager-master": lambda: pick(["-", " ", ".", "_"]).join(pick(PW_WORDS) for _ in range(R.randint(4, 6))),
    "disk-encryption-passphrase": lambda: " ".join(pick(PW_WORDS + BIP39) for _ in range(R.randint(5, 7))),
    "backup-codes": backup_codes, "recovery-key": recovery_key, "seed-phrase": lambda: seed_phrase(pick([12, 12, 24])),
    "security-answer": sqa_answer, "gift-card-code": gift_code, "hardware-wallet-pin": lambda: rs("d", pick([6, 8])),
    "parking-code": lambda: rs("d", 4) + pick(["", "#"]), "intercom-code": lambda: rs("d", 4),
    "lockbox-code": lambda: rs("d", 4), "payment-card": lambda: fmt_card(card_number()[1]),
}


def pctx():
    brand, num = card_number()
    return {"name": name(), "name2": name(), "fullname": fullname(), "bank": pick(BANKS), "net": pick(NETS),
            "email": email_addr(), "user": username(), "date": date_human(), "city": pick(CITIES),
            "street": f"{R.randint(1, 120)} {pick(STREETS)}", "pet": pick(PETS), "exp": card_exp(), "cvv": card_cvv(num),
            "card": fmt_card(num), "brand": brand, "store": pick(["Amazon", "Apple", "Steam", "Google Play", "IKEA", "Target"]),
            "money": pick(["$25", "$50", "€30", "£20", "$100"]), "n": R.randint(2, 48), "o": pick([0, 1, 178, 8]),
            "wifi": PV["wifi-password"](), "pin": rs("d", 4), "t": time_h()}


def form_bank(c, v):
    return {"form": "Online banking registration", "bank": c["bank"], "username": c["user"], "password": v,
            "confirm_password": v, "email": c["email"], "newsletter": False}


def form_sqa(c, v):
    return {"form": pick(["Account recovery setup", "Security questions", "Verify your identity"]),
            "question_1": pick(["What was the name of your first pet?", "What is your mother's maiden name?",
                                "What was the name of your primary school teacher?", "What was your first car?"]),
            "answer_1": v, "question_2": "In what city were you born?", "answer_2": c["city"]}


def form_card(c, v):
    return {"form": pick(["checkout", "hotel booking", "subscription signup"]), "cardholder": c["fullname"],
            "card_number": v, "expiry": c["exp"], "cvc": c["cvv"], "billing_zip": rs("d", 5)}


def form_wifi(c, v):
    return {"form": "Guest info sheet", "host": c["name"], "wifi_network": c["net"], "wifi_password": v,
            "checkout_time": "11:00", "parking": "street, free after 6pm"}


EN_PERSONAL = [
    ("bank-card-pin", "notes", "debit card pin {v} (the {bank} one)"),
    ("bank-card-pin", "notes", "PIN for new {bank} card = {v} dont forget!!"),
    ("bank-card-pin", "chat", "{name}: the pin for my card is {v}, can u take out 200 for me pls"),
    ("bank-card-pin", "voice-memo", "Voice memo, {date}. Um, okay, note for later — the PIN for the {bank} debit card is {v}. Yeah. {v}."),
    ("bank-card-pin", "list", "- milk\n- batteries\n- card pin {v}\n- call {name}"),
    ("bank-card-pin", "journal", "{date}\nnew card arrived, set the pin to {v}. cut up the old one"),
    ("phone-unlock-pin", "notes", "new phone passcode {v}"),
    ("phone-unlock-pin", "chat", "if my phone dies and u need it the passcode is {v} 📱"),
    ("sim-puk", "notes", "SIM PIN {pin} / PUK {v} (from the plastic card, threw it away)"),
    ("sim-pin", "notes", "sim pin changed to {v}"),
    ("door-code", "chat", "door code is {v} btw, 3rd floor"),
    ("door-code", "notes", "Airbnb {city} – door code {v}, check-in 3pm, wifi {net} pw {wifi}"),
    ("door-code", "email", "Subject: Your stay at {street}\n\nHi {name},\n\nlooking forward to having you! The front door keypad code is {v}. Mailbox key is on the hook.\n\nBest, {name2}"),
    ("door-code", "sms-forward", "Fwd from {name}: building door code changed, new one is {v}"),
    ("door-code", "list", "TODO\n[x] book flights\n[ ] door code for the flat: {v}\n[ ] pack charger"),
    ("gate-code", "sms-forward", "Fwd: gate code for the farm is {v} then pull the chain 🐄"),
    ("gate-code", "notes", "gate {v}  (community pool)"),
    ("alarm-code", "notes", "alarm: {v} (disarm within 30s!!) 🚨"),
    ("alarm-code", "voice-memo", "Transcript: ok so the alarm at mum's house, code is {v}, press off first then the code"),
    ("alarm-code", "chat", "{name}: can you feed the cat sat? alarm code {v}, spare key under the blue pot"),
    ("garage-code", "notes", "garage keypad {v}"),
    ("garage-code", "chat", "garage code {v} if you get there before me, bikes are on the left"),
    ("safe-combination", "notes", "hotel safe - set it to {v}"),
    ("safe-combination", "notes", "document safe combo {v} (passports + deeds inside)"),
    ("locker-code", "notes", "gym locker combo {v} 💪"),
    ("bike-lock-code", "chat", "bike lock is {v} if you want to borrow it"),
    ("keybox-code", "notes", "key safe at grandma's: {v}"),
    ("keybox-code", "email", "Subject: Self check-in instructions\n\nThe key is in the lockbox left of the door, code {v}. Please scramble the dial after use.\n\n{name}"),
    ("voicemail-pin", "notes", "voicemail pin {v}"),
    ("tax-ip-pin", "notes", "IRS IP PIN for this year's return: {v}"),
    ("otp-code", "sms-forward", "[{bank}] {v} is your one-time passcode. It expires in 10 minutes. Don't share it with anyone."),
    ("otp-code", "chat", "it's {v} — the code from the bank text, type it quick before it expires"),
    ("otp-code", "sms-forward", "Fwd from Dad: \"Your verification code is {v}\" — is this the one you needed?"),
    ("wifi-password", "notes", "wifi: {net} / pw: {v}"),
    ("wifi-password", "chat", "wifi pass is {v} (network {net})"),
    ("wifi-password", "notes", "guest wifi {net} — {v} 📶"),
    ("wifi-password", "list", "Cabin info:\n• wifi {net}\n• password {v}\n• trash day thursday"),
    ("wifi-password", "sms-forward", "Fwd from landlord: Wifi name {net}, password {v}"),
    ("wifi-password", "form", form_wifi),
    ("email-password", "notes", "gmail pw {v}"),
    ("email-password", "notes", "{email} pasword: {v}"),
    ("email-password", "voice-memo", "Voice note: remember the new password for the work email is {v}, exactly like that"),
    ("bank-login-password", "notes", "{bank} online banking — user {user} pass {v}"),
    ("bank-login-password", "form", form_bank),
    ("streaming-password", "chat", "netflix login is {email} / {v} dont change it pls 😅"),
    ("streaming-password", "notes", "disney+ acct {email} pw {v}"),
    ("laptop-password", "notes", "work laptop login pw: {v} (changed {date})"),
    ("router-admin-password", "notes", "router admin 192.168.{o}.1  admin / {v}"),
    ("password-manager-master", "notes", "1pw master password — {v} — DO NOT LOSE"),
    ("password-manager-master", "notes", "bitwarden master pw: {v}"),
    ("work-vpn-password", "notes", "vpn: {user} / {v}"),
    ("school-portal-password", "chat", "the school portal login for Emma is {user} / {v}"),
    ("disk-encryption-passphrase", "notes", "veracrypt passphrase for the backup drive: {v}"),
    ("backup-codes", "notes", "google backup codes:\n{v}"),
    ("backup-codes", "notes", "2FA recovery codes for github (saved {date})\n{v}"),
    ("recovery-key", "notes", "Apple recovery key {v} (printed copy in the drawer)"),
    ("recovery-key", "notes", "BitLocker recovery key for the Dell: {v}"),
    ("seed-phrase", "notes", "ledger seed: {v}"),
    ("seed-phrase", "notes", "metamask recovery phrase 🦊 {v}"),
    ("security-answer", "notes", "security q - first pet: {v}"),
    ("security-answer", "notes", "bank security question (mother's maiden name) → {v}"),
    ("security-answer", "form", form_sqa),
    ("payment-card", "notes", "card {v} exp {exp} cvv {cvv}"),
    ("payment-card", "chat", "use my card for the tickets: {v}, {exp}, {cvv} — name on card {fullname}"),
    ("payment-card", "form", form_card),
    ("payment-card", "voice-memo", "Voice memo: card number {v}, expiry {exp}, security code {cvv}, for the hotel booking"),
    ("gift-card-code", "email", "Subject: You've received a gift card!\n\n{name} sent you a {store} gift card worth {money}.\nClaim code: {v}\n\nEnjoy!"),
    ("gift-card-code", "notes", "amazon gift card from aunt {name}: {v} (not redeemed yet)"),
    ("hardware-wallet-pin", "notes", "trezor pin {v}"),
    ("game-account-password", "chat", "my steam is {user} pw {v} lol dont get me banned"),
    ("parking-code", "notes", "parking garage exit code {v}"),
    ("intercom-code", "chat", "buzz {n} then code {v}"),
    ("lockbox-code", "sms-forward", "Fwd from realtor: lockbox on the side door, code {v}"),
]

# multilingual templates: 7 secret (pin, door, wifi, mail, otp, card, alarm), 3 ordinary, 3 credential-talk
LANG_SEC_KINDS = [("bank-card-pin", "notes"), ("door-code", "chat"), ("wifi-password", "notes"),
                  ("email-password", "notes"), ("otp-code", "sms-forward"), ("payment-card", "notes"),
                  ("alarm-code", "voice-memo")]
LANG_BEN_SRC = ["notes", "list", "chat"]
LANGS = {
 "es": ("Spanish", ["PIN de la tarjeta del banco: {v}", "El código del portal es {v}, por si llegas antes que yo",
  "Contraseña del wifi de casa: {v}", "contraseña de mi correo {email} → {v}",
  "SMS reenviado: Tu código de verificación es {v}. No lo compartas con nadie.",
  "Tarjeta de mamá: {card}, caduca {exp}, CVV {cvv}", "Código de la alarma de la oficina: {v} (desactivar antes de 30 s)",
  "Cita con el dentista el {date} a las {t}.", "Comprar leche, pan y {n} huevos.",
  "Llamar a la abuela el domingo, su cumpleaños es la semana que viene.",
  "Ayer cambié el PIN de la tarjeta del banco.", "La contraseña del wifi está en la parte de atrás del router.",
  "Tengo que restablecer la contraseña del correo la semana que viene, se me olvidó."]),
 "fr": ("French", ["Code PIN carte bancaire : {v}", "Le digicode de l'immeuble c'est {v}, au cas où tu arrives avant moi",
  "Mot de passe du wifi de la maison : {v}", "mdp de ma boîte mail {email} : {v}",
  "SMS transféré : Votre code de vérification est {v}. Ne le communiquez à personne.",
  "Carte de maman : {card}, expire {exp}, cryptogramme {cvv}", "Code de l'alarme du bureau : {v} (à désactiver en 30 s)",
  "Rendez-vous chez le dentiste le {date} à {t}.", "Acheter du lait, du pain et {n} œufs.",
  "Appeler mamie dimanche, son anniversaire est la semaine prochaine.",
  "J'ai changé le code PIN de ma carte bancaire hier.", "Le mot de passe du wifi est au dos de la box.",
  "Je dois réinitialiser le mot de passe de ma messagerie la semaine prochaine, je l'ai oublié."]),
 "de": ("German", ["PIN der Bankkarte: {v}", "Der Türcode für die Haustür ist {v}, falls du vor mir da bist",
  "WLAN-Passwort zu Hause: {v}", "Passwort für mein Mailkonto {email}: {v}",
  "Weitergeleitete SMS: Ihr Bestätigungscode lautet {v}. Geben Sie ihn niemandem weiter.",
  "Karte von Mama: {card}, gültig bis {exp}, Prüfnummer {cvv}", "Alarmanlage Büro, Code: {v} (innerhalb 30 Sek. eingeben)",
  "Zahnarzttermin am {date} um {t}.", "Milch, Brot und {n} Eier kaufen.",
  "Oma am Sonntag anrufen, nächste Woche hat sie Geburtstag.",
  "Ich habe gestern die PIN meiner Bankkarte geändert.", "Das WLAN-Passwort steht auf der Rückseite vom Router.",
  "Muss nächste Woche mein E-Mail-Passwort zurücksetzen, hab es vergessen."]),
 "it": ("Italian", ["PIN del bancomat: {v}", "Il codice del portone è {v}, se arrivi prima di me",
  "Password del wifi di casa: {v}", "password della mia mail {email}: {v}",
  "SMS inoltrato: Il tuo codice di verifica è {v}. Non condividerlo con nessuno.",
  "Carta della mamma: {card}, scadenza {exp}, CVV {cvv}", "Codice dell'allarme dell'ufficio: {v} (disattivare entro 30 secondi)",
  "Appuntamento dal dentista il {date} alle {t}.", "Comprare latte, pane e {n} uova.",
  "Chiamare la nonna domenica, il suo compleanno è la settimana prossima.",
  "Ieri ho cambiato il PIN del bancomat.", "La password del wifi è scritta dietro il router.",
  "La settimana prossima devo reimpostare la password della mail, l'ho dimenticata."]),
 "pt": ("Portuguese", ["Senha do cartão do banco: {v}", "O código do portão do prédio é {v}, caso chegue antes de mim",
  "Senha do wifi de casa: {v}", "senha do meu e-mail {email}: {v}",
  "SMS encaminhado: O seu código de verificação é {v}. Não o partilhe com ninguém.",
  "Cartão da mãe: {card}, validade {exp}, CVV {cvv}", "Código do alarme do escritório: {v} (desligar em 30 segundos)",
  "Consulta no dentista dia {date} às {t}.", "Comprar leite, pão e {n} ovos.",
  "Ligar para a avó no domingo, o aniversário dela é na semana que vem.",
  "Ontem mudei a senha do cartão do banco.", "A senha do wifi está atrás do roteador.",
  "Preciso redefinir a senha do e-mail semana que vem, esqueci."]),
 "nl": ("Dutch", ["Pincode bankpas: {v}", "De deurcode van de voordeur is {v}, voor als je eerder bent",
  "Wifi-wachtwoord thuis: {v}", "wachtwoord van mijn mail {email}: {v}",
  "Doorgestuurde sms: Je verificatiecode is {v}. Deel deze met niemand.",
  "Creditcard van mama: {card}, geldig tot {exp}, CVC {cvv}", "Alarmcode kantoor: {v} (binnen 30 sec uitschakelen)",
  "Tandartsafspraak op {date} om {t}.", "Melk, brood en {n} eieren kopen.",
  "Oma zondag bellen, volgende week is ze jarig.",
  "Gisteren heb ik de pincode van mijn bankpas veranderd.", "Het wifi-wachtwoord staat op de achterkant van de router.",
  "Volgende week moet ik mijn mailwachtwoord resetten, ik ben het vergeten."]),
 "pl": ("Polish", ["PIN do karty bankowej: {v}", "Kod do domofonu to {v}, jakbyś był przede mną",
  "Hasło do wifi w domu: {v}", "hasło do mojej poczty {email}: {v}",
  "Przekazany SMS: Twój kod weryfikacyjny to {v}. Nie udostępniaj go nikomu.",
  "Karta mamy: {card}, ważna do {exp}, CVV {cvv}", "Kod do alarmu w biurze: {v} (wyłączyć w 30 sekund)",
  "Wizyta u dentysty {date} o {t}.", "Kupić mleko, chleb i {n} jajek.",
  "Zadzwonić do babci w niedzielę, w przyszłym tygodniu ma urodziny.",
  "Wczoraj zmieniłem PIN do karty bankowej.", "Hasło do wifi jest na spodzie routera.",
  "W przyszłym tygodniu muszę zresetować hasło do poczty, zapomniałem go."]),
 "hu": ("Hungarian", ["Bankkártya PIN-kód: {v}", "A kapukód {v}, ha előbb érsz oda",
  "Otthoni wifi jelszó: {v}", "az e-mail fiókom ({email}) jelszava: {v}",
  "Továbbított SMS: Az ellenőrző kódod: {v}. Ne oszd meg senkivel.",
  "Anya kártyája: {card}, lejárat {exp}, CVC {cvv}", "Az irodai riasztó kódja: {v} (30 mp-en belül kikapcsolni)",
  "Fogorvos: {date}, {t}.", "Venni tejet, kenyeret és {n} tojást.",
  "Vasárnap felhívni a nagymamát, jövő héten lesz a születésnapja.",
  "Tegnap megváltoztattam a bankkártyám PIN-kódját.", "A wifi jelszó a router hátoldalán van.",
  "Jövő héten újra kell állítanom az e-mail jelszavam, elfelejtettem."]),
 "uk": ("Ukrainian", ["PIN-код банківської картки: {v}", "Код від під'їзду {v}, якщо прийдеш раніше за мене",
  "Пароль від домашнього wifi: {v}", "пароль від моєї пошти {email}: {v}",
  "Переслане SMS: Ваш код підтвердження {v}. Нікому його не повідомляйте.",
  "Картка мами: {card}, діє до {exp}, CVV {cvv}", "Код сигналізації в офісі: {v} (вимкнути протягом 30 секунд)",
  "Запис до стоматолога {date} о {t}.", "Купити молоко, хліб і {n} яєць.",
  "Подзвонити бабусі в неділю, наступного тижня в неї день народження.",
  "Учора змінив PIN-код банківської картки.", "Пароль від wifi написаний на задній панелі роутера.",
  "Наступного тижня треба скинути пароль від пошти, я його забув."]),
 "el": ("Greek", ["PIN τραπεζικής κάρτας: {v}", "Ο κωδικός της εξώπορτας είναι {v}, αν φτάσεις πριν από μένα",
  "Κωδικός wifi σπιτιού: {v}", "κωδικός του email μου {email}: {v}",
  "Προωθημένο SMS: Ο κωδικός επαλήθευσής σας είναι {v}. Μην τον κοινοποιήσετε σε κανέναν.",
  "Κάρτα της μαμάς: {card}, λήξη {exp}, CVV {cvv}", "Κωδικός συναγερμού γραφείου: {v} (απενεργοποίηση σε 30 δευτ.)",
  "Ραντεβού με τον οδοντίατρο στις {date}, ώρα {t}.", "Να πάρω γάλα, ψωμί και {n} αυγά.",
  "Να πάρω τηλέφωνο τη γιαγιά την Κυριακή, έχει γενέθλια την άλλη εβδομάδα.",
  "Χθες άλλαξα το PIN της τραπεζικής μου κάρτας.", "Ο κωδικός του wifi είναι γραμμένος πίσω από το ρούτερ.",
  "Πρέπει να επαναφέρω τον κωδικό του email την επόμενη εβδομάδα, τον ξέχασα."]),
 "he": ("Hebrew", ["קוד סודי לכרטיס האשראי: {v}", "הקוד של דלת הכניסה לבניין הוא {v}, אם תגיע לפניי",
  "סיסמת הוויפי בבית: {v}", "הסיסמה של המייל שלי {email}: {v}",
  "הודעה שהועברה: קוד האימות שלך הוא {v}. אין למסור אותו לאף אחד.",
  "הכרטיס של אמא: {card}, תוקף {exp}, CVV {cvv}", "קוד האזעקה במשרד: {v} (לנטרל תוך 30 שניות)",
  "תור לרופא שיניים ב-{date} בשעה {t}.", "לקנות חלב, לחם ו-{n} ביצים.",
  "להתקשר לסבתא ביום ראשון, יש לה יום הולדת בשבוע הבא.",
  "אתמול החלפתי את הקוד הסודי של כרטיס האשראי.", "סיסמת הוויפי כתובה על הגב של הראוטר.",
  "אני צריך לאפס את סיסמת המייל בשבוע הבא, שכחתי אותה."]),
 "ar": ("Arabic", ["الرقم السري لبطاقة البنك: {v}", "رمز باب العمارة هو {v}، إذا وصلت قبلي",
  "كلمة سر الواي فاي في البيت: {v}", "كلمة مرور بريدي {email}: {v}",
  "رسالة محولة: رمز التحقق الخاص بك هو {v}. لا تشاركه مع أي شخص.",
  "بطاقة أمي: {card}، تنتهي {exp}، الرمز {cvv}", "رمز إنذار المكتب: {v} (يجب إيقافه خلال 30 ثانية)",
  "موعد طبيب الأسنان يوم {date} الساعة {t}.", "شراء حليب وخبز و{n} بيضات.",
  "الاتصال بجدتي يوم الأحد، عيد ميلادها الأسبوع القادم.",
  "غيرت الرقم السري لبطاقة البنك أمس.", "كلمة سر الواي فاي مكتوبة خلف الراوتر.",
  "يجب أن أعيد تعيين كلمة مرور البريد الأسبوع القادم، لقد نسيتها."]),
 "tr": ("Turkish", ["Banka kartı şifresi: {v}", "Apartman kapısının şifresi {v}, benden önce gelirsen diye",
  "Evdeki wifi şifresi: {v}", "e-posta şifrem ({email}): {v}",
  "İletilen SMS: Doğrulama kodunuz {v}. Kimseyle paylaşmayın.",
  "Annemin kartı: {card}, son kullanma {exp}, CVV {cvv}", "Ofis alarm kodu: {v} (30 saniye içinde kapat)",
  "Dişçi randevusu: {date}, saat {t}.", "Süt, ekmek ve {n} yumurta al.",
  "Pazar günü babaanneyi ara, gelecek hafta doğum günü.",
  "Dün banka kartımın şifresini değiştirdim.", "Wifi şifresi modemin arkasında yazıyor.",
  "Gelecek hafta e-posta şifremi sıfırlamam lazım, unuttum."]),
 "ru": ("Russian", ["ПИН-код банковской карты: {v}", "Код от подъезда {v}, если придёшь раньше меня",
  "Пароль от домашнего wifi: {v}", "пароль от моей почты {email}: {v}",
  "Пересланное SMS: Ваш код подтверждения {v}. Никому его не сообщайте.",
  "Карта мамы: {card}, срок {exp}, CVV {cvv}", "Код сигнализации в офисе: {v} (отключить за 30 секунд)",
  "Запись к стоматологу {date} в {t}.", "Купить молоко, хлеб и {n} яиц.",
  "Позвонить бабушке в воскресенье, на следующей неделе у неё день рождения.",
  "Вчера поменял ПИН-код банковской карты.", "Пароль от wifi написан на обратной стороне роутера.",
  "На следующей неделе надо сбросить пароль от почты, я его забыл."]),
 "hi": ("Hindi", ["बैंक कार्ड का पिन: {v}", "बिल्डिंग के गेट का कोड {v} है, अगर तुम मुझसे पहले पहुँचो",
  "घर के वाईफाई का पासवर्ड: {v}", "मेरे ईमेल {email} का पासवर्ड: {v}",
  "फॉरवर्ड किया गया SMS: आपका सत्यापन कोड {v} है। इसे किसी के साथ साझा न करें।",
  "मम्मी का कार्ड: {card}, समाप्ति {exp}, CVV {cvv}", "ऑफिस के अलार्म का कोड: {v} (30 सेकंड में बंद करना है)",
  "{date} को {t} बजे दाँत के डॉक्टर के पास जाना है।", "दूध, ब्रेड और {n} अंडे खरीदने हैं।",
  "रविवार को दादी को फोन करना, अगले हफ्ते उनका जन्मदिन है।",
  "मैंने कल अपने बैंक कार्ड का पिन बदल दिया।", "वाईफाई का पासवर्ड राउटर के पीछे लिखा है।",
  "अगले हफ्ते ईमेल का पासवर्ड रीसेट करना है, मैं भूल गया।"]),
 "bn": ("Bengali", ["ব্যাংক কার্ডের পিন: {v}", "বিল্ডিংয়ের গেটের কোড {v}, যদি আমার আগে পৌঁছাও",
  "বাসার ওয়াইফাই পাসওয়ার্ড: {v}", "আমার ইমেইল {email} এর পাসওয়ার্ড: {v}",
  "ফরওয়ার্ড করা SMS: আপনার যাচাইকরণ কোড {v}। কারও সাথে শেয়ার করবেন না।",
  "মায়ের কার্ড: {card}, মেয়াদ {exp}, CVV {cvv}", "অফিসের অ্যালার্ম কোড: {v} (৩০ সেকেন্ডের মধ্যে বন্ধ করতে হবে)",
  "{date} তারিখে {t}-এ দাঁতের ডাক্তারের কাছে যেতে হবে।", "দুধ, পাউরুটি আর {n}টা ডিম কিনতে হবে।",
  "রবিবার দাদিকে ফোন করতে হবে, আগামী সপ্তাহে ওনার জন্মদিন।",
  "গতকাল ব্যাংক কার্ডের পিন পরিবর্তন করেছি।", "ওয়াইফাই পাসওয়ার্ড রাউটারের পিছনে লেখা আছে।",
  "আগামী সপ্তাহে ইমেইলের পাসওয়ার্ড রিসেট করতে হবে, ভুলে গেছি।"]),
 "ja": ("Japanese", ["銀行カードの暗証番号：{v}", "マンションのオートロックの番号は{v}だよ、先に着いたら使って",
  "家のWi-Fiのパスワード：{v}", "メール（{email}）のパスワード：{v}",
  "転送SMS：認証コードは{v}です。他人に教えないでください。",
  "母のカード：{card} 有効期限{exp} セキュリティコード{cvv}", "事務所の警報解除コード：{v}（30秒以内に入力）",
  "{date}の{t}に歯医者の予約。", "牛乳とパンと卵{n}個を買う。",
  "日曜日におばあちゃんに電話する。来週が誕生日。",
  "昨日、銀行カードの暗証番号を変更した。", "Wi-Fiのパスワードはルーターの裏に書いてある。",
  "来週メールのパスワードをリセットしないと。忘れてしまった。"]),
 "ko": ("Korean", ["은행 카드 비밀번호: {v}", "공동현관 비밀번호는 {v}이야, 나보다 먼저 도착하면 눌러",
  "집 와이파이 비밀번호: {v}", "내 이메일 {email} 비밀번호: {v}",
  "전달된 문자: 인증번호는 [{v}]입니다. 타인에게 절대 알려주지 마세요.",
  "엄마 카드: {card}, 유효기간 {exp}, CVC {cvv}", "사무실 경보 해제 코드: {v} (30초 안에 입력)",
  "{date} {t}에 치과 예약.", "우유, 빵, 계란 {n}개 사기.",
  "일요일에 할머니께 전화하기, 다음 주가 생신이다.",
  "어제 은행 카드 비밀번호를 바꿨다.", "와이파이 비밀번호는 공유기 뒷면에 적혀 있다.",
  "다음 주에 이메일 비밀번호를 재설정해야 한다, 잊어버렸다."]),
 "zh": ("Chinese", ["银行卡密码：{v}", "小区门禁密码是{v}，你先到的话自己开",
  "家里的Wi-Fi密码：{v}", "我的邮箱 {email} 密码：{v}",
  "转发短信：您的验证码为{v}，请勿告诉他人。",
  "妈妈的卡：{card}，有效期{exp}，安全码{cvv}", "办公室报警器密码：{v}（30秒内输入）",
  "{date} {t} 看牙医。", "买牛奶、面包和{n}个鸡蛋。",
  "周日给奶奶打电话，下周是她的生日。",
  "昨天我改了银行卡密码。", "Wi-Fi密码写在路由器背面。",
  "下周得重置邮箱密码，我忘了。"]),
 "vi": ("Vietnamese", ["Mã PIN thẻ ngân hàng: {v}", "Mã cửa chung cư là {v}, nếu em đến trước anh",
  "Mật khẩu wifi ở nhà: {v}", "mật khẩu email {email} của tôi: {v}",
  "Tin nhắn chuyển tiếp: Mã xác thực của bạn là {v}. Không chia sẻ mã này với bất kỳ ai.",
  "Thẻ của mẹ: {card}, hết hạn {exp}, CVV {cvv}", "Mã báo động văn phòng: {v} (tắt trong vòng 30 giây)",
  "Hẹn nha sĩ ngày {date} lúc {t}.", "Mua sữa, bánh mì và {n} quả trứng.",
  "Chủ nhật gọi cho bà, tuần sau là sinh nhật bà.",
  "Hôm qua tôi đã đổi mã PIN thẻ ngân hàng.", "Mật khẩu wifi được ghi ở mặt sau của router.",
  "Tuần sau phải đặt lại mật khẩu email, tôi quên mất rồi."]),
 "id": ("Indonesian", ["PIN kartu ATM: {v}", "Kode pintu gedung {v}, kalau kamu sampai duluan",
  "Password wifi rumah: {v}", "password email saya {email}: {v}",
  "SMS diteruskan: Kode verifikasi Anda adalah {v}. JANGAN berikan kode ini kepada siapa pun.",
  "Kartu ibu: {card}, berlaku s/d {exp}, CVV {cvv}", "Kode alarm kantor: {v} (matikan dalam 30 detik)",
  "Janji dokter gigi tanggal {date} jam {t}.", "Beli susu, roti, dan {n} butir telur.",
  "Telepon nenek hari Minggu, minggu depan ulang tahunnya.",
  "Kemarin saya ganti PIN kartu ATM.", "Password wifi ada di belakang router.",
  "Minggu depan harus reset password email, saya lupa."]),
 "th": ("Thai", ["รหัส PIN บัตรเอทีเอ็ม: {v}", "รหัสประตูตึกคือ {v} ถ้าไปถึงก่อนเราก็กดได้เลย",
  "รหัสไวไฟที่บ้าน: {v}", "รหัสผ่านอีเมล {email} ของฉัน: {v}",
  "SMS ที่ส่งต่อมา: รหัส OTP ของคุณคือ {v} ห้ามบอกรหัสนี้แก่ผู้อื่น",
  "บัตรของแม่: {card} หมดอายุ {exp} CVV {cvv}", "รหัสสัญญาณกันขโมยที่ออฟฟิศ: {v} (ต้องปิดภายใน 30 วินาที)",
  "นัดหมอฟันวันที่ {date} เวลา {t}", "ซื้อนม ขนมปัง และไข่ {n} ฟอง",
  "วันอาทิตย์โทรหายาย สัปดาห์หน้าเป็นวันเกิดยาย",
  "เมื่อวานเปลี่ยนรหัส PIN บัตรเอทีเอ็มแล้ว", "รหัสไวไฟเขียนอยู่ด้านหลังเราเตอร์",
  "สัปดาห์หน้าต้องรีเซ็ตรหัสผ่านอีเมล ลืมไปแล้ว"]),
 "tl": ("Tagalog", ["PIN ng ATM card: {v}", "Ang code ng gate ng building ay {v}, kung mauuna ka sa akin",
  "Password ng wifi sa bahay: {v}", "password ng email ko {email}: {v}",
  "Ipinasang SMS: Ang iyong verification code ay {v}. Huwag itong ibahagi kahit kanino.",
  "Card ni Nanay: {card}, expiry {exp}, CVV {cvv}", "Alarm code sa opisina: {v} (i-off sa loob ng 30 segundo)",
  "Appointment sa dentista sa {date} ng {t}.", "Bumili ng gatas, tinapay at {n} itlog.",
  "Tawagan si Lola sa Linggo, birthday niya sa susunod na linggo.",
  "Pinalitan ko kahapon ang PIN ng ATM card ko.", "Nakasulat sa likod ng router ang password ng wifi.",
  "Kailangan kong i-reset ang password ng email ko sa susunod na linggo, nakalimutan ko."]),
 "sw": ("Swahili", ["PIN ya kadi ya benki: {v}", "Namba ya siri ya geti la jengo ni {v}, ukifika kabla yangu",
  "Nenosiri la wifi ya nyumbani: {v}", "nenosiri la barua pepe yangu {email}: {v}",
  "SMS iliyotumwa: Nambari yako ya uthibitisho ni {v}. Usimpe mtu yeyote.",
  "Kadi ya mama: {card}, inaisha {exp}, CVV {cvv}", "Namba ya kengele ya ofisi: {v} (izime ndani ya sekunde 30)",
  "Miadi ya daktari wa meno tarehe {date} saa {t}.", "Kununua maziwa, mkate na mayai {n}.",
  "Kumpigia bibi simu Jumapili, wiki ijayo ni siku yake ya kuzaliwa.",
  "Jana nilibadilisha PIN ya kadi yangu ya benki.", "Nenosiri la wifi limeandikwa nyuma ya ruta.",
  "Wiki ijayo lazima nibadilishe nenosiri la barua pepe, nimelisahau."]),
 "ha": ("Hausa", ["Lambar sirri ta katin banki: {v}", "Lambar kofar gida ita ce {v}, idan ka iso kafin ni",
  "Kalmar sirri ta wifi na gida: {v}", "kalmar sirri ta imel dina {email}: {v}",
  "Sakon SMS da aka tura: Lambar tabbatarwa ita ce {v}. Kada ka ba kowa.",
  "Katin mama: {card}, karewa {exp}, CVV {cvv}", "Lambar ƙararrawa ta ofis: {v} (a kashe cikin daƙiƙa 30)",
  "Ganin likitan haƙori ranar {date} karfe {t}.", "A sayi madara, burodi da ƙwai {n}.",
  "A kira kaka ranar Lahadi, mako mai zuwa ranar haihuwarta ce.",
  "Jiya na canza lambar sirri ta katin banki na.", "Kalmar sirri ta wifi tana bayan na'urar router.",
  "Mako mai zuwa dole in sake saita kalmar sirri ta imel, na manta ta."]),
 "yo": ("Yoruba", ["PIN káàdì báǹkì: {v}", "Kóòdù ẹnu ọ̀nà ilé náà ni {v}, tí o bá dé ṣáájú mi",
  "Ọ̀rọ̀ aṣínà wifi ilé: {v}", "ọ̀rọ̀ aṣínà ímeèlì mi {email}: {v}",
  "SMS tí a firánṣẹ́: Kóòdù ìjẹ́rìísí rẹ ni {v}. Má ṣe fi hàn ẹnikẹ́ni.",
  "Káàdì màmá: {card}, ó parí {exp}, CVV {cvv}", "Kóòdù alárámù ọ́fíìsì: {v} (pa á láàárín ìṣẹ́jú-àáyá 30)",
  "Ìpàdé pẹ̀lú dókítà eyín ní {date} ní aago {t}.", "Ra wàrà, búrẹ́dì àti ẹyin {n}.",
  "Pe ìyá àgbà ní ọjọ́ Àìkú, ọjọ́ ìbí rẹ̀ ni ọ̀sẹ̀ tó ń bọ̀.",
  "Mo yí PIN káàdì báǹkì mi padà lánàá.", "Ọ̀rọ̀ aṣínà wifi wà lẹ́yìn router.",
  "Mo gbọ́dọ̀ tún ọ̀rọ̀ aṣínà ímeèlì mi ṣe ní ọ̀sẹ̀ tó ń bọ̀, mo ti gbàgbé rẹ̀."]),
 "am": ("Amharic", ["የባንክ ካርድ ፒን: {v}", "የሕንጻው በር ኮድ {v} ነው፣ ከእኔ ቀድመህ ከደረስክ",
  "የቤት ዋይፋይ የይለፍ ቃል: {v}", "የኢሜይሌ {email} የይለፍ ቃል: {v}",
  "የተላለፈ መልዕክት: የማረጋገጫ ኮድዎ {v} ነው። ለማንም አያጋሩ።",
  "የእናቴ ካርድ: {card}፣ የሚያበቃበት {exp}፣ CVV {cvv}", "የቢሮ ማንቂያ ኮድ: {v} (በ30 ሰከንድ ውስጥ ያጥፉ)",
  "{date} በ{t} የጥርስ ሐኪም ቀጠሮ።", "ወተት፣ ዳቦ እና {n} እንቁላል መግዛት።",
  "እሁድ ለአያቴ መደወል፣ በሚቀጥለው ሳምንት ልደቷ ነው።",
  "ትናንት የባንክ ካርዴን ፒን ቀየርኩ።", "የዋይፋይ የይለፍ ቃል ከራውተሩ ጀርባ ተጽፏል።",
  "በሚቀጥለው ሳምንት የኢሜይል የይለፍ ቃሌን ዳግም ማስጀመር አለብኝ፣ ረሳሁት።"]),
 "ne": ("Nepali", ["बैंक कार्डको पिन: {v}", "भवनको ढोकाको कोड {v} हो, म भन्दा अघि पुग्यौ भने",
  "घरको वाइफाइ पासवर्ड: {v}", "मेरो इमेल {email} को पासवर्ड: {v}",
  "फर्वार्ड गरिएको SMS: तपाईंको प्रमाणीकरण कोड {v} हो। कसैलाई नदिनुहोस्।",
  "आमाको कार्ड: {card}, म्याद {exp}, CVV {cvv}", "अफिसको अलार्म कोड: {v} (३० सेकेन्डभित्र बन्द गर्नुहोस्)",
  "{date} मा {t} बजे दाँतको डाक्टरसँग भेट।", "दूध, पाउरोटी र {n} वटा अण्डा किन्नु।",
  "आइतबार हजुरआमालाई फोन गर्नु, अर्को हप्ता उहाँको जन्मदिन हो।",
  "हिजो मैले बैंक कार्डको पिन परिवर्तन गरें।", "वाइफाइको पासवर्ड राउटरको पछाडि लेखिएको छ।",
  "अर्को हप्ता इमेलको पासवर्ड रिसेट गर्नुपर्छ, बिर्सें।"]),
 "si": ("Sinhala", ["බැංකු කාඩ්පතේ PIN අංකය: {v}", "ගොඩනැගිල්ලේ දොරේ කේතය {v}, මට කලින් ආවොත්",
  "ගෙදර wifi මුරපදය: {v}", "මගේ ඊමේල් {email} මුරපදය: {v}",
  "යොමු කළ SMS: ඔබගේ සත්‍යාපන කේතය {v} වේ. කිසිවෙකුට ලබා නොදෙන්න.",
  "අම්මාගේ කාඩ්පත: {card}, කල් ඉකුත් වන්නේ {exp}, CVV {cvv}", "කාර්යාල අනතුරු ඇඟවීමේ කේතය: {v} (තත්පර 30ක් ඇතුළත නවත්වන්න)",
  "{date} දින {t}ට දන්ත වෛද්‍ය හමුව.", "කිරි, පාන් සහ බිත්තර {n}ක් ගන්න.",
  "ඉරිදා ආච්චිට කතා කරන්න, ලබන සතියේ ඇගේ උපන්දිනය.",
  "ඊයේ මම බැංකු කාඩ්පතේ PIN අංකය වෙනස් කළා.", "wifi මුරපදය router එකේ පිටුපස ලියා ඇත.",
  "ලබන සතියේ ඊමේල් මුරපදය යළි සැකසිය යුතුයි, මට අමතක වුණා."]),
 "km": ("Khmer", ["លេខ PIN កាតធនាគារ: {v}", "លេខកូដទ្វារអគារគឺ {v} បើអ្នកមកដល់មុនខ្ញុំ",
  "ពាក្យសម្ងាត់ wifi នៅផ្ទះ: {v}", "ពាក្យសម្ងាត់អ៊ីមែល {email} របស់ខ្ញុំ: {v}",
  "សារ SMS ដែលបានបញ្ជូនបន្ត: លេខកូដផ្ទៀងផ្ទាត់របស់អ្នកគឺ {v}។ កុំប្រាប់អ្នកណាម្នាក់។",
  "កាតរបស់ម្តាយ: {card} ផុតកំណត់ {exp} CVV {cvv}", "លេខកូដរោទិ៍ការិយាល័យ: {v} (បិទក្នុងរយៈពេល 30 វិនាទី)",
  "ណាត់ពេទ្យធ្មេញថ្ងៃ {date} ម៉ោង {t}។", "ទិញទឹកដោះគោ នំបុ័ង និងពងមាន់ {n}។",
  "ថ្ងៃអាទិត្យទូរស័ព្ទទៅយាយ សប្តាហ៍ក្រោយជាថ្ងៃកំណើតគាត់។",
  "ម្សិលមិញខ្ញុំបានប្តូរលេខ PIN កាតធនាគារ។", "ពាក្យសម្ងាត់ wifi សរសេរនៅខាងក្រោយរ៉ោតទ័រ។",
  "សប្តាហ៍ក្រោយត្រូវកំណត់ពាក្យសម្ងាត់អ៊ីមែលឡើងវិញ ខ្ញុំភ្លេចហើយ។"]),
 "lo": ("Lao", ["ລະຫັດ PIN ບັດທະນາຄານ: {v}", "ລະຫັດປະຕູອາຄານແມ່ນ {v} ຖ້າເຈົ້າມາຮອດກ່ອນຂ້ອຍ",
  "ລະຫັດ wifi ຢູ່ເຮືອນ: {v}", "ລະຫັດຜ່ານອີເມວ {email} ຂອງຂ້ອຍ: {v}",
  "SMS ທີ່ສົ່ງຕໍ່: ລະຫັດຢືນຢັນຂອງທ່ານແມ່ນ {v}. ຢ່າບອກໃຜ.",
  "ບັດຂອງແມ່: {card} ໝົດອາຍຸ {exp} CVV {cvv}", "ລະຫັດສັນຍານເຕືອນຫ້ອງການ: {v} (ປິດພາຍໃນ 30 ວິນາທີ)",
  "ນັດໝໍແຂ້ວວັນທີ {date} ເວລາ {t}.", "ຊື້ນົມ, ເຂົ້າຈີ່ ແລະ ໄຂ່ {n} ໜ່ວຍ.",
  "ວັນອາທິດໂທຫາແມ່ຕູ້, ອາທິດໜ້າແມ່ນວັນເກີດຂອງລາວ.",
  "ມື້ວານຂ້ອຍໄດ້ປ່ຽນລະຫັດ PIN ບັດທະນາຄານແລ້ວ.", "ລະຫັດ wifi ຂຽນໄວ້ຢູ່ດ້ານຫຼັງຂອງ router.",
  "ອາທິດໜ້າຕ້ອງຕັ້ງລະຫັດຜ່ານອີເມວໃໝ່, ຂ້ອຍລືມແລ້ວ."]),
 "mn": ("Mongolian", ["Банкны картын ПИН код: {v}", "Орцны хаалганы код {v}, надаас түрүүлж ирвэл",
  "Гэрийн wifi нууц үг: {v}", "миний имэйл {email} нууц үг: {v}",
  "Дамжуулсан SMS: Таны баталгаажуулах код {v}. Хэнд ч бүү хэлээрэй.",
  "Ээжийн карт: {card}, дуусах {exp}, CVV {cvv}", "Оффисын дохиоллын код: {v} (30 секундэд унтраах)",
  "{date}-нд {t} цагт шүдний эмчид үзүүлнэ.", "Сүү, талх, {n} өндөг авах.",
  "Ням гарагт эмээ рүү залгах, ирэх долоо хоногт төрсөн өдөр нь.",
  "Өчигдөр банкны картынхаа ПИН кодыг сольсон.", "Wifi-ийн нууц үг роутерын ард бичээстэй байгаа.",
  "Ирэх долоо хоногт имэйлийн нууц үгээ сэргээх хэрэгтэй, мартчихсан."]),
 "uz": ("Uzbek", ["Bank kartasi PIN kodi: {v}", "Podyezd eshigining kodi {v}, mendan oldin kelsang",
  "Uydagi wifi paroli: {v}", "elektron pochtam {email} paroli: {v}",
  "Yuborilgan SMS: Tasdiqlash kodingiz {v}. Uni hech kimga bermang.",
  "Onamning kartasi: {card}, amal qilish muddati {exp}, CVV {cvv}", "Ofis signalizatsiyasi kodi: {v} (30 soniya ichida o'chirish)",
  "{date} kuni soat {t} da tish shifokori qabuli.", "Sut, non va {n} ta tuxum sotib olish.",
  "Yakshanba kuni buvimga qo'ng'iroq qilish, kelasi hafta tug'ilgan kuni.",
  "Kecha bank kartamning PIN kodini o'zgartirdim.", "Wifi paroli routerning orqasida yozilgan.",
  "Kelasi hafta pochta parolini tiklashim kerak, unutib qo'ydim."]),
 "az": ("Azerbaijani", ["Bank kartının PIN kodu: {v}", "Binanın qapı kodu: {v}, məndən əvvəl gəlsən",
  "Evdəki wifi şifrəsi: {v}", "e-poçtumun {email} şifrəsi: {v}",
  "Yönləndirilmiş SMS: Təsdiq kodunuz {v}. Heç kimə deməyin.",
  "Anamın kartı: {card}, bitmə tarixi {exp}, CVV {cvv}", "Ofis siqnalizasiya kodu: {v} (30 saniyə ərzində söndürün)",
  "Diş həkimi: {date}, saat {t}.", "Süd, çörək və {n} yumurta almaq.",
  "Bazar günü nənəmə zəng etmək, gələn həftə ad günüdür.",
  "Dünən bank kartımın PIN kodunu dəyişdim.", "Wifi şifrəsi routerin arxasında yazılıb.",
  "Gələn həftə e-poçt şifrəmi bərpa etməliyəm, unutmuşam."]),
 "ps": ("Pashto", ["د بانک کارت پن: {v}", "د ودانۍ د دروازې کوډ {v} دی، که زما نه مخکې ورسېدې",
  "د کور وای فای پټنوم: {v}", "زما د برېښنالیک {email} پټنوم: {v}",
  "لېږل شوی پیغام: ستاسو د تایید کوډ {v} دی. له هېچا سره یې مه شریکوئ.",
  "د مور کارت: {card}، پای نېټه {exp}، CVV {cvv}", "د دفتر د خطر زنګ کوډ: {v} (په ۳۰ ثانیو کې یې بند کړئ)",
  "د {date} په {t} بجو د غاښونو ډاکټر سره لیدنه.", "شیدې، ډوډۍ او {n} هګۍ واخله.",
  "یکشنبه نیا ته زنګ ووهه، راتلونکې اونۍ یې د زیږون ورځ ده.",
  "پرون مې د بانک کارت پن بدل کړ.", "د وای فای پټنوم د روټر شاته لیکل شوی دی.",
  "راتلونکې اونۍ باید د برېښنالیک پټنوم بیا تنظیم کړم، هېر مې کړی دی."]),
 "ml": ("Malayalam", ["ബാങ്ക് കാർഡിന്റെ പിൻ: {v}", "ബിൽഡിംഗിന്റെ ഗേറ്റ് കോഡ് {v} ആണ്, എനിക്ക് മുമ്പ് എത്തിയാൽ",
  "വീട്ടിലെ വൈഫൈ പാസ്‌വേഡ്: {v}", "എന്റെ ഇമെയിൽ {email} പാസ്‌വേഡ്: {v}",
  "ഫോർവേഡ് ചെയ്ത SMS: നിങ്ങളുടെ സ്ഥിരീകരണ കോഡ് {v} ആണ്. ആരുമായും പങ്കിടരുത്.",
  "അമ്മയുടെ കാർഡ്: {card}, കാലാവധി {exp}, CVV {cvv}", "ഓഫീസ് അലാറം കോഡ്: {v} (30 സെക്കൻഡിനുള്ളിൽ ഓഫ് ചെയ്യുക)",
  "{date} ന് {t} ന് ദന്ത ഡോക്ടറെ കാണണം.", "പാൽ, ബ്രെഡ്, {n} മുട്ട വാങ്ങണം.",
  "ഞായറാഴ്ച അമ്മൂമ്മയെ വിളിക്കണം, അടുത്ത ആഴ്ച പിറന്നാളാണ്.",
  "ഇന്നലെ ബാങ്ക് കാർഡിന്റെ പിൻ മാറ്റി.", "വൈഫൈ പാസ്‌വേഡ് റൂട്ടറിന്റെ പിന്നിൽ എഴുതിയിട്ടുണ്ട്.",
  "അടുത്ത ആഴ്ച ഇമെയിൽ പാസ്‌വേഡ് റീസെറ്റ് ചെയ്യണം, മറന്നുപോയി."]),
 "te": ("Telugu", ["బ్యాంక్ కార్డ్ పిన్: {v}", "బిల్డింగ్ గేట్ కోడ్ {v}, నాకంటే ముందు వస్తే",
  "ఇంటి వైఫై పాస్‌వర్డ్: {v}", "నా ఇమెయిల్ {email} పాస్‌వర్డ్: {v}",
  "ఫార్వర్డ్ చేసిన SMS: మీ ధృవీకరణ కోడ్ {v}. ఎవరితోనూ పంచుకోవద్దు.",
  "అమ్మ కార్డ్: {card}, గడువు {exp}, CVV {cvv}", "ఆఫీస్ అలారం కోడ్: {v} (30 సెకన్లలో ఆపాలి)",
  "{date} న {t} కి దంత వైద్యుడి అపాయింట్‌మెంట్.", "పాలు, బ్రెడ్, {n} గుడ్లు కొనాలి.",
  "ఆదివారం అమ్మమ్మకు ఫోన్ చేయాలి, వచ్చే వారం ఆమె పుట్టినరోజు.",
  "నిన్న నా బ్యాంక్ కార్డ్ పిన్ మార్చాను.", "వైఫై పాస్‌వర్డ్ రౌటర్ వెనుక రాసి ఉంది.",
  "వచ్చే వారం ఇమెయిల్ పాస్‌వర్డ్ రీసెట్ చేయాలి, మర్చిపోయాను."]),
 "kn": ("Kannada", ["ಬ್ಯಾಂಕ್ ಕಾರ್ಡ್ ಪಿನ್: {v}", "ಕಟ್ಟಡದ ಗೇಟ್ ಕೋಡ್ {v}, ನನಗಿಂತ ಮೊದಲು ಬಂದರೆ",
  "ಮನೆಯ ವೈಫೈ ಪಾಸ್‌ವರ್ಡ್: {v}", "ನನ್ನ ಇಮೇಲ್ {email} ಪಾಸ್‌ವರ್ಡ್: {v}",
  "ಫಾರ್ವರ್ಡ್ ಮಾಡಿದ SMS: ನಿಮ್ಮ ಪರಿಶೀಲನಾ ಕೋಡ್ {v}. ಯಾರೊಂದಿಗೂ ಹಂಚಿಕೊಳ್ಳಬೇಡಿ.",
  "ಅಮ್ಮನ ಕಾರ್ಡ್: {card}, ಅವಧಿ {exp}, CVV {cvv}", "ಕಚೇರಿ ಅಲಾರಂ ಕೋಡ್: {v} (30 ಸೆಕೆಂಡುಗಳಲ್ಲಿ ಆಫ್ ಮಾಡಿ)",
  "{date} ರಂದು {t} ಕ್ಕೆ ದಂತ ವೈದ್ಯರ ಭೇಟಿ.", "ಹಾಲು, ಬ್ರೆಡ್ ಮತ್ತು {n} ಮೊಟ್ಟೆ ಖರೀದಿಸಬೇಕು.",
  "ಭಾನುವಾರ ಅಜ್ಜಿಗೆ ಕರೆ ಮಾಡಬೇಕು, ಮುಂದಿನ ವಾರ ಅವರ ಹುಟ್ಟುಹಬ್ಬ.",
  "ನಿನ್ನೆ ನನ್ನ ಬ್ಯಾಂಕ್ ಕಾರ್ಡ್ ಪಿನ್ ಬದಲಾಯಿಸಿದೆ.", "ವೈಫೈ ಪಾಸ್‌ವರ್ಡ್ ರೂಟರ್ ಹಿಂದೆ ಬರೆದಿದೆ.",
  "ಮುಂದಿನ ವಾರ ಇಮೇಲ್ ಪಾಸ್‌ವರ್ಡ್ ರೀಸೆಟ್ ಮಾಡಬೇಕು, ಮರೆತುಹೋಗಿದೆ."]),
 "mr": ("Marathi", ["बँक कार्डचा पिन: {v}", "इमारतीच्या गेटचा कोड {v} आहे, माझ्या आधी पोहोचलास तर",
  "घरच्या वायफायचा पासवर्ड: {v}", "माझ्या ईमेल {email} चा पासवर्ड: {v}",
  "फॉरवर्ड केलेला SMS: तुमचा पडताळणी कोड {v} आहे. तो कोणालाही सांगू नका.",
  "आईचे कार्ड: {card}, मुदत {exp}, CVV {cvv}", "ऑफिसच्या अलार्मचा कोड: {v} (३० सेकंदात बंद करा)",
  "{date} रोजी {t} वाजता दातांच्या डॉक्टरांची भेट.", "दूध, ब्रेड आणि {n} अंडी आणायची.",
  "रविवारी आजीला फोन करायचा, पुढच्या आठवड्यात तिचा वाढदिवस आहे.",
  "काल मी बँक कार्डचा पिन बदलला.", "वायफायचा पासवर्ड राउटरच्या मागे लिहिलेला आहे.",
  "पुढच्या आठवड्यात ईमेलचा पासवर्ड रीसेट करायचा आहे, मी विसरलो."]),
 "gu": ("Gujarati", ["બેંક કાર્ડનો પિન: {v}", "બિલ્ડિંગના ગેટનો કોડ {v} છે, જો તું મારા પહેલાં પહોંચે તો",
  "ઘરના વાઇફાઇનો પાસવર્ડ: {v}", "મારા ઈમેલ {email} નો પાસવર્ડ: {v}",
  "ફોરવર્ડ કરેલો SMS: તમારો ચકાસણી કોડ {v} છે. કોઈને પણ જણાવશો નહીં.",
  "મમ્મીનું કાર્ડ: {card}, સમાપ્તિ {exp}, CVV {cvv}", "ઓફિસના એલાર્મનો કોડ: {v} (30 સેકન્ડમાં બંધ કરવો)",
  "{date} ના રોજ {t} વાગ્યે દાંતના ડૉક્ટરની એપોઇન્ટમેન્ટ.", "દૂધ, બ્રેડ અને {n} ઈંડા લેવાના છે.",
  "રવિવારે દાદીને ફોન કરવો, આવતા અઠવાડિયે તેમનો જન્મદિવસ છે.",
  "ગઈકાલે મેં બેંક કાર્ડનો પિન બદલ્યો.", "વાઇફાઇનો પાસવર્ડ રાઉટરની પાછળ લખેલો છે.",
  "આવતા અઠવાડિયે ઈમેલનો પાસવર્ડ રીસેટ કરવો પડશે, ભૂલી ગયો."]),
 "pa": ("Punjabi", ["ਬੈਂਕ ਕਾਰਡ ਦਾ ਪਿੰਨ: {v}", "ਬਿਲਡਿੰਗ ਦੇ ਗੇਟ ਦਾ ਕੋਡ {v} ਹੈ, ਜੇ ਤੂੰ ਮੇਰੇ ਤੋਂ ਪਹਿਲਾਂ ਪਹੁੰਚੇਂ",
  "ਘਰ ਦੇ ਵਾਈਫਾਈ ਦਾ ਪਾਸਵਰਡ: {v}", "ਮੇਰੀ ਈਮੇਲ {email} ਦਾ ਪਾਸਵਰਡ: {v}",
  "ਫਾਰਵਰਡ ਕੀਤਾ SMS: ਤੁਹਾਡਾ ਪੁਸ਼ਟੀਕਰਨ ਕੋਡ {v} ਹੈ। ਕਿਸੇ ਨਾਲ ਸਾਂਝਾ ਨਾ ਕਰੋ।",
  "ਮੰਮੀ ਦਾ ਕਾਰਡ: {card}, ਮਿਆਦ {exp}, CVV {cvv}", "ਦਫ਼ਤਰ ਦੇ ਅਲਾਰਮ ਦਾ ਕੋਡ: {v} (30 ਸਕਿੰਟਾਂ ਵਿੱਚ ਬੰਦ ਕਰੋ)",
  "{date} ਨੂੰ {t} ਵਜੇ ਦੰਦਾਂ ਦੇ ਡਾਕਟਰ ਕੋਲ ਜਾਣਾ ਹੈ।", "ਦੁੱਧ, ਬ੍ਰੈੱਡ ਅਤੇ {n} ਅੰਡੇ ਖਰੀਦਣੇ ਹਨ।",
  "ਐਤਵਾਰ ਨੂੰ ਦਾਦੀ ਨੂੰ ਫ਼ੋਨ ਕਰਨਾ, ਅਗਲੇ ਹਫ਼ਤੇ ਉਨ੍ਹਾਂ ਦਾ ਜਨਮਦਿਨ ਹੈ।",
  "ਕੱਲ੍ਹ ਮੈਂ ਬੈਂਕ ਕਾਰਡ ਦਾ ਪਿੰਨ ਬਦਲ ਦਿੱਤਾ।", "ਵਾਈਫਾਈ ਦਾ ਪਾਸਵਰਡ ਰਾਊਟਰ ਦੇ ਪਿੱਛੇ ਲਿਖਿਆ ਹੋਇਆ ਹੈ।",
  "ਅਗਲੇ ਹਫ਼ਤੇ ਈਮੇਲ ਦਾ ਪਾਸਵਰਡ ਰੀਸੈਟ ਕਰਨਾ ਪਵੇਗਾ, ਮੈਂ ਭੁੱਲ ਗਿਆ।"]),
 "fa": ("Persian", ["رمز کارت بانکی: {v}", "کد در ساختمان {v} است، اگر زودتر از من رسیدی",
  "رمز وای‌فای خانه: {v}", "رمز ایمیلم {email}: {v}",
  "پیامک فرستاده‌شده: کد تأیید شما {v} است. آن را در اختیار کسی قرار ندهید.",
  "کارت مامان: {card}، انقضا {exp}، CVV2 {cvv}", "کد دزدگیر دفتر: {v} (ظرف ۳۰ ثانیه خاموش شود)",
  "نوبت دندانپزشکی {date} ساعت {t}.", "شیر، نان و {n} تخم‌مرغ بخرم.",
  "یکشنبه به مادربزرگ زنگ بزنم، هفته‌ی بعد تولدش است.",
  "دیروز رمز کارت بانکی‌ام را عوض کردم.", "رمز وای‌فای پشت مودم نوشته شده است.",
  "هفته‌ی بعد باید رمز ایمیلم را بازنشانی کنم، فراموشش کرده‌ام."]),
 "ta": ("Tamil", ["வங்கி அட்டை பின்: {v}", "கட்டிட கேட் குறியீடு {v}, எனக்கு முன் வந்தால்",
  "வீட்டு வைஃபை கடவுச்சொல்: {v}", "என் மின்னஞ்சல் {email} கடவுச்சொல்: {v}",
  "அனுப்பப்பட்ட SMS: உங்கள் சரிபார்ப்புக் குறியீடு {v}. யாருடனும் பகிர வேண்டாம்.",
  "அம்மாவின் அட்டை: {card}, காலாவதி {exp}, CVV {cvv}", "அலுவலக அலாரம் குறியீடு: {v} (30 விநாடிகளுக்குள் அணைக்கவும்)",
  "{date} அன்று {t} மணிக்கு பல் மருத்துவர் சந்திப்பு.", "பால், ரொட்டி மற்றும் {n} முட்டை வாங்க வேண்டும்.",
  "ஞாயிற்றுக்கிழமை பாட்டிக்கு போன் செய்ய வேண்டும், அடுத்த வாரம் அவர் பிறந்தநாள்.",
  "நேற்று என் வங்கி அட்டை பின்னை மாற்றினேன்.", "வைஃபை கடவுச்சொல் ரவுட்டரின் பின்புறம் எழுதப்பட்டுள்ளது.",
  "அடுத்த வாரம் மின்னஞ்சல் கடவுச்சொல்லை மீட்டமைக்க வேண்டும், மறந்துவிட்டேன்."]),
}


# ---------------------------------------------------------------------------
# underlying secrets for the hard (evasion) variants
# ---------------------------------------------------------------------------
PW_KINDS = [("email-password", "email password"), ("wifi-password", "wifi password"),
            ("router-admin-password", "router admin password"), ("work-vpn-password", "VPN password"),
            ("laptop-password", "laptop login password"), ("bank-login-password", "online banking password"),
            ("db-password", "database password"), ("streaming-password", "streaming account password"),
            ("password-manager-master", "password manager master password"), ("sso-password", "SSO password"),
            ("nas-admin-password", "NAS admin password"), ("ftp-password", "FTP password"),
            ("school-portal-password", "school portal password"), ("game-account-password", "game account password"),
            ("smtp-password", "SMTP password"), ("cloud-console-password", "cloud console password")]
DIG_KINDS = [("bank-card-pin", "card PIN", 4), ("door-code", "door code", 4), ("gate-code", "gate code", 4),
             ("alarm-code", "alarm code", 4), ("garage-code", "garage code", 5), ("safe-combination", "safe combination", 6),
             ("locker-code", "locker code", 4), ("bike-lock-code", "bike lock code", 4), ("keybox-code", "key box code", 4),
             ("voicemail-pin", "voicemail PIN", 4), ("phone-unlock-pin", "phone passcode", 6), ("sim-puk", "SIM PUK", 8),
             ("otp-code", "verification code", 6), ("tax-ip-pin", "IP PIN", 6), ("hardware-wallet-pin", "hardware wallet PIN", 6),
             ("intercom-code", "intercom code", 4), ("parking-code", "parking gate code", 4), ("sim-pin", "SIM PIN", 4)]


def label_for(f, var):
    vw = set(re.findall(r"[a-z0-9]+", f["vendor"].lower()))
    rest = [w for w in _split_name(var) if w not in vw]
    return f"{f['vendor']} {' '.join(rest) or 'credential'}"


def draw_tok(maxlen=100, minlen=16):
    while True:
        f = pick(FORMATS)
        var, tmpl = f["pairs"][-1]
        v = T(tmpl)
        if "\n" in v or " " in v or is_url(v) or not (minlen <= len(v) <= maxlen):
            continue
        if var == "SESSION_COOKIE":
            continue
        return {"kind": f["kind"], "v": v, "label": label_for(f, var), "vendor": f["vendor"], "var": var}


def draw_url():
    while True:
        f = pick(FORMATS)
        var, tmpl = f["pairs"][-1]
        v = T(tmpl)
        if is_url(v) and ("@" in v or "token" in v or "key=" in v or "/hooks/" in v or "webhook" in v) and len(v) <= 220 and "\n" not in v:
            return {"kind": f["kind"], "v": v, "label": label_for(f, var), "vendor": f["vendor"], "var": var}


def draw_pw(letters_only=False, alnum=False):
    k, lab = pick(PW_KINDS)
    if letters_only:
        v = pick(PW_WORDS) + pick(PW_WORDS) + pick(PW_WORDS)[:R.randint(2, 5)]
    elif alnum:
        v = pick(PW_WORDS).capitalize() + rs("m", R.randint(3, 5)) + rs("d", 2)
    else:
        v = human_password()
        while " " in v or len(v) > 22:
            v = human_password()
    return {"kind": k, "v": v, "label": lab}


def draw_dig(nozero=False, n=None):
    k, lab, ln = pick(DIG_KINDS)
    ln = n or ln
    while True:
        v = rs("d", ln)
        if nozero and "0" in v:
            continue
        return {"kind": k, "v": v, "label": lab}


def draw_seed(n=None):
    n = n or pick([12, 12, 12, 24])
    return {"kind": pick(["bip39-seed-phrase", "wallet-recovery-phrase"]), "v": seed_phrase(n), "label": "wallet recovery phrase"}


def draw_card():
    brand, num = card_number()
    return {"kind": f"payment-card-{slug(brand)}", "v": num, "label": f"{brand} card", "exp": card_exp(), "cvv": card_cvv(num)}


def draw_short():
    return pick([draw_pw, draw_pw, draw_dig, lambda: draw_tok(28, 12)])()


def draw_any():
    r = R.random()
    if r < 0.58:
        return draw_tok()
    if r < 0.83:
        return draw_pw()
    if r < 0.94:
        return draw_dig()
    return draw_card()


def draw_cred():
    s = pick([draw_pw, draw_pw, lambda: draw_tok(60)])()
    s["user"] = username()
    return s


POOLS = {"any": draw_any, "tok": draw_tok, "pw": draw_pw, "dig": draw_dig, "short": draw_short, "seed": draw_seed,
         "card": draw_card, "url": draw_url, "cred": draw_cred,
         "digNZ": lambda: draw_dig(nozero=True), "letters": lambda: draw_pw(letters_only=True),
         "alnum": lambda: draw_pw(alnum=True), "dig4": lambda: draw_dig(n=4)}


# ---------------------------------------------------------------------------
# hard (evasion) techniques for secrets
# ---------------------------------------------------------------------------
TECH = []


def tech(name, pool="any"):
    def deco(fn):
        TECH.append((name, pool, fn))
        return fn
    return deco


def say(S, how, x):
    lab = S["label"]
    return pick([f"{lab} ({how}): {x}", f"{how} {lab}: {x}", f"{x}\n^ {lab}, {how}", f"{lab} — {how} — {x}",
                 f"{lab}: {x}", f"{x}  # {lab}"])


def vb(S):
    return S["v"].encode()


NUMWORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "ja": list("〇一二三四五六七八九"),
    "zh": list("零一二三四五六七八九"),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "hi": "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split(),
    "sw": "sifuri moja mbili tatu nne tano sita saba nane tisa".split(),
}
NUMLABEL = {"en": "code is", "es": "el código es", "de": "der Code ist", "fr": "le code c'est", "it": "il codice è",
            "pt": "o código é", "ja": "暗証番号は", "zh": "密码是", "ru": "код:", "hi": "पिन है", "sw": "namba ya siri ni"}
MORSE = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
                 ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- -.-- --.. "
                 "----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split()))
MORSE.update({".": ".-.-.-", "-": "-....-", "_": "..--.-", "@": ".--.-.", "!": "-.-.--", "/": "-..-.", "?": "..--..",
              "=": "-...-", "+": ".-.-.", "$": "...-..-", "&": ".-...", ":": "---...", ";": "-.-.-.", "(": "-.--.", ")": "-.--.-",
              "'": ".----.", ",": "--..--", '"': ".-..-."})
NATO = dict(zip("abcdefghijklmnopqrstuvwxyz", "Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike "
                "November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey X-ray Yankee Zulu".split()))
SYM_NAMES = {"-": "dash", "_": "underscore", ".": "dot", "@": "at sign", "!": "exclamation mark", "#": "hash", "$": "dollar sign",
             "%": "percent", "^": "caret", "&": "ampersand", "*": "asterisk", "(": "open paren", ")": "close paren",
             "=": "equals", "+": "plus", "?": "question mark", "/": "slash", ":": "colon", ";": "semicolon", ",": "comma",
             "~": "tilde", "[": "open bracket", "]": "close bracket", "{": "open brace", "}": "close brace", "<": "less-than",
             ">": "greater-than", "|": "pipe", " ": "space", "'": "apostrophe", '"': "double quote"}
CYR = dict(zip("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ"))
GRK = dict(zip("ABEHIKMNOPTXYZov", "ΑΒΕΗΙΚΜΝΟΡΤΧΥΖον"))
BRAILLE_L = dict(zip("abcdefghijklmnopqrstuvwxyz", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵"))
BRAILLE_D = dict(zip("1234567890", "⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚"))
KEYPAD = {c: d for d, cs in {"2": "abc", "3": "def", "4": "ghi", "5": "jkl", "6": "mno", "7": "pqrs", "8": "tuv", "9": "wxyz"}.items() for c in cs}
KEYPAD_WORDS = ["cafe", "lamp", "moon", "frog", "duck", "tulip", "piano", "mango", "cloud", "rose", "kiwi", "bear", "snow",
                "jazz", "hike", "wolf", "yoga", "surf", "taco", "vinyl", "otter", "maple"]
PILISH = {1: ["a", "I"], 2: ["an", "my", "we", "on", "at"], 3: ["the", "cat", "sun", "red", "old"], 4: ["blue", "tree", "park", "warm"],
          5: ["apple", "house", "quiet", "rainy"], 6: ["garden", "yellow", "simple"], 7: ["kitchen", "morning", "evening"],
          8: ["elephant", "sandwich", "swimming"], 9: ["chocolate", "beautiful", "afternoon"], 0: ["strawberry", "photograph", "everything"]}
YEARS = [(1989, "the Berlin Wall fell"), (1969, "the first Moon landing"), (1912, "the Titanic sank"),
         (1945, "World War II ended"), (1789, "the storming of the Bastille"), (1776, "the US Declaration of Independence"),
         (1492, "Columbus first reached the Americas"), (1066, "the Battle of Hastings"), (1453, "the fall of Constantinople"),
         (1903, "the Wright brothers' first powered flight"), (1957, "Sputnik 1 was launched"), (1986, "the Chernobyl disaster"),
         (1815, "the Battle of Waterloo"), (1914, "World War I began"), (1961, "Yuri Gagarin's spaceflight"), (1990, "Germany was reunified")]
CONSTS = [("1415", "the first four digits of pi after the decimal point"), ("141592", "the first six digits of pi after the 3."),
          ("7182", "the first four decimals of Euler's number e"), ("4142", "the first four decimals of the square root of 2"),
          ("6180", "the first four decimals of the golden ratio"), ("2997", "the first four digits of the speed of light in km/s"),
          ("3141", "pi without the dot, first four digits")]
COUNTS = [("players on a soccer team", 11), ("squares along one side of a chessboard", 8), ("months in a year", 12),
          ("days in a week", 7), ("hours in a day", 24), ("planets in the solar system", 8), ("legs on a spider", 8),
          ("sides of a hexagon", 6), ("cards in a standard deck", 52), ("minutes in an hour", 60), ("keys on a standard piano", 88),
          ("strings on a violin", 4), ("players per basketball team on court", 5), ("holes on a golf course", 18)]


def rot13(s):
    return codecs.encode(s, "rot13")


def rot47(s):
    return "".join(chr(33 + (ord(c) + 14) % 94) if 33 <= ord(c) <= 126 else c for c in s)


def caesar(s, k):
    out = []
    for c in s:
        if c.islower():
            out.append(chr((ord(c) - 97 + k) % 26 + 97))
        elif c.isupper():
            out.append(chr((ord(c) - 65 + k) % 26 + 65))
        else:
            out.append(c)
    return "".join(out)


def atbash(s):
    return "".join(chr(219 - ord(c)) if c.islower() else chr(155 - ord(c)) if c.isupper() else c for c in s)


def vigenere(s, key):
    out, j = [], 0
    for c in s:
        if c.isalpha():
            k = ord(key[j % len(key)].lower()) - 97
            base = 97 if c.islower() else 65
            out.append(chr((ord(c) - base + k) % 26 + base))
            j += 1
        else:
            out.append(c)
    return "".join(out)


def tr_map(s, m):
    return "".join(m.get(c, c) for c in s)


def fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


def math_alpha(s, up, low, dig):
    out = []
    for c in s:
        if "A" <= c <= "Z":
            out.append(chr(up + ord(c) - 65))
        elif "a" <= c <= "z":
            out.append(chr(low + ord(c) - 97))
        elif "0" <= c <= "9" and dig:
            out.append(chr(dig + ord(c) - 48))
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
        elif "1" <= c <= "9":
            out.append(chr(0x2460 + ord(c) - 49))
        elif c == "0":
            out.append("⓪")
        else:
            out.append(c)
    return "".join(out)


SUP = dict(zip("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
EMOJI_KEYCAP = {d: d + "\ufe0f\u20e3" for d in "0123456789"}


def chunks(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def halves(s):
    m = len(s) // 2
    return s[:m], s[m:]


def nparts(s, n):
    k = max(1, -(-len(s) // n))
    return chunks(s, k)


def spell_nato(s):
    out = []
    for c in s:
        if c.isalpha():
            out.append(("capital " if c.isupper() else "") + NATO[c.lower()])
        elif c.isdigit():
            out.append(NUMWORDS["en"][int(c)])
        else:
            out.append(SYM_NAMES.get(c, c))
    return out


# --- encodings ------------------------------------------------------------
@tech("base64")
def t_b64(S):
    return say(S, "base64", b64(vb(S)))


@tech("base64-no-padding")
def t_b64np(S):
    return say(S, pick(["b64, padding stripped", "base64 (no =)"]), b64(vb(S)).rstrip("="))


@tech("base64url")
def t_b64u(S):
    return say(S, "base64url", b64u(vb(S)))


@tech("base64-double")
def t_b64d(S):
    return say(S, "base64 twice", b64(b64(vb(S)).encode()))


@tech("base64-of-reversed")
def t_b64r(S):
    return f"{S['label']}: reverse it after decoding → {b64(S['v'][::-1].encode())}"


@tech("base64-line-wrapped", "tok")
def t_b64w(S):
    return f"{S['label']} (b64, wrapped):\n" + wrap(b64(vb(S)), pick([12, 16, 20]))


@tech("base32")
def t_b32(S):
    return say(S, "base32", base64.b32encode(vb(S)).decode())


@tech("base32-lower-nopad")
def t_b32l(S):
    return say(S, "base32 lowercase", base64.b32encode(vb(S)).decode().lower().rstrip("="))


@tech("hex-lower")
def t_hex(S):
    return say(S, "hex", vb(S).hex())


@tech("hex-upper")
def t_hexu(S):
    return say(S, "HEX", vb(S).hex().upper())


@tech("hex-spaced-bytes")
def t_hexs(S):
    return say(S, "hex bytes", " ".join(f"{b:02x}" for b in vb(S)))


@tech("hex-0x-array")
def t_hex0x(S):
    return f"{S['label']} = [" + ", ".join(f"0x{b:02x}" for b in vb(S)) + "]"


@tech("hex-backslash-x")
def t_hexbx(S):
    return f"printf '{''.join(f'{chr(92)}x{b:02x}' for b in vb(S))}'   # {S['label']}"


@tech("hex-colon")
def t_hexc(S):
    return say(S, "hex", ":".join(f"{b:02X}" for b in vb(S)))


@tech("base85")
def t_b85(S):
    return say(S, "base85", base64.b85encode(vb(S)).decode())


@tech("ascii85")
def t_a85(S):
    return say(S, "ascii85", base64.a85encode(vb(S), adobe=True).decode())


@tech("url-encoded-all")
def t_pct(S):
    return say(S, "urlencoded", "".join(f"%{b:02X}" for b in vb(S)))


@tech("url-encoded-double")
def t_pct2(S):
    return say(S, "double urlencoded", "".join(f"%25{b:02X}" for b in vb(S)))


@tech("html-entities-decimal")
def t_htmld(S):
    return f"<span title=\"{S['label']}\">{''.join(f'&#{ord(c)};' for c in S['v'])}</span>"


@tech("html-entities-hex")
def t_htmlx(S):
    return say(S, "html", "".join(f"&#x{ord(c):x};" for c in S["v"]))


@tech("unicode-escapes")
def t_uesc(S):
    return f"const k = \"{''.join(f'{chr(92)}u{ord(c):04x}' for c in S['v'])}\"; // {S['label']}"


@tech("octal-escapes")
def t_oct(S):
    return f"echo -e '{''.join(f'{chr(92)}0{b:03o}' for b in vb(S))}'  # {S['label']}"


@tech("binary-bytes", "short")
def t_bin(S):
    return say(S, "binary", " ".join(f"{b:08b}" for b in vb(S)))


@tech("char-codes-decimal")
def t_cc(S):
    return say(S, "char codes", ", ".join(str(ord(c)) for c in S["v"]))


@tech("js-fromcharcode")
def t_fcc(S):
    return f"const secret = String.fromCharCode({','.join(str(ord(c)) for c in S['v'])}); // {S['label']}"


@tech("python-bytes-decode")
def t_pyb(S):
    return f"{snake(S['label'])} = bytes([{', '.join(str(b) for b in vb(S))}]).decode()"


@tech("python-chr-join")
def t_pychr(S):
    return f"KEY = ''.join(map(chr, [{', '.join(str(ord(c)) for c in S['v'])}]))  # {S['label']}"


@tech("rot13")
def t_rot13(S):
    return say(S, "rot13", rot13(S["v"]))


@tech("rot47")
def t_rot47(S):
    return say(S, "rot47", rot47(S["v"]))


@tech("caesar-shift")
def t_caesar(S):
    k = R.randint(1, 25)
    return f"{S['label']} shifted by {k} (letters only, shift back): {caesar(S['v'], k)}"


@tech("atbash")
def t_atbash(S):
    return f"{S['label']}, atbash'd (a<->z, b<->y…): {atbash(S['v'])}"


@tech("vigenere-with-key")
def t_vig(S):
    key = pick(["lemon", "harbor", "quartz", "walnut", "violet"])
    return f"{S['label']} — vigenère, key '{key}', digits/symbols untouched: {vigenere(S['v'], key)}"


@tech("xor-single-byte-hex")
def t_xor(S):
    k = R.randint(1, 255)
    return f"{S['label']} xor 0x{k:02x} (hex): {bytes(b ^ k for b in vb(S)).hex()}"


@tech("reversed")
def t_rev(S):
    return say(S, "reversed", S["v"][::-1])


@tech("reversed-chunks", "tok")
def t_revch(S):
    n = pick([4, 5, 6])
    return f"{S['label']} in {n}-char chunks, last chunk first: {' '.join(reversed(chunks(S['v'], n)))}"


@tech("zlib-base64-snippet")
def t_zlib(S):
    return f"import zlib, base64\nKEY = zlib.decompress(base64.b64decode('{b64(zlib.compress(vb(S), 9))}')).decode()  # {S['label']}"


@tech("gzip-base64-shell")
def t_gzip(S):
    return f"echo '{b64(gzip.compress(vb(S), mtime=0))}' | base64 -d | gunzip   # {S['label']}"


@tech("quoted-printable-all")
def t_qp(S):
    return f"Content-Transfer-Encoding: quoted-printable\n\n{S['label']}: " + "".join(f"={b:02X}" for b in vb(S))


@tech("uuencode")
def t_uu(S):
    b = vb(S)
    return f"begin 644 {slug(S['label'])}.txt\n" + "".join(binascii.b2a_uu(b[i:i + 45]).decode() for i in range(0, len(b), 45)) + "`\nend"


@tech("base64-of-hex")
def t_b64hex(S):
    return say(S, "hex, then base64", b64(vb(S).hex().encode()))


@tech("hex-of-base64")
def t_hexb64(S):
    return say(S, "base64, then hex", b64(vb(S)).encode().hex())


@tech("rot13-of-base64")
def t_rotb64(S):
    return say(S, "b64 + rot13", rot13(b64(vb(S))))


@tech("base64-with-whitespace", "tok")
def t_b64ws(S):
    e = b64(vb(S))
    return f"{S['label']}: " + " ".join(chunks(e, pick([3, 4, 5])))


@tech("json-unicode-escaped")
def t_jue(S):
    return '{"' + snake(S["label"]) + '": "' + "".join(f"\\u{ord(c):04x}" for c in S["v"]) + '"}'


@tech("java-char-array")
def t_jca(S):
    return "char[] k = {" + ", ".join("'" + ("\\'" if c == "'" else "\\\\" if c == "\\" else c) + "'" for c in S["v"]) + f"}}; // {S['label']}"


@tech("c-byte-array")
def t_cba(S):
    return f"static const uint8_t {snake(S['label'])}[] = {{" + ", ".join(f"0x{b:02X}" for b in vb(S)) + "};"


@tech("go-byte-slice")
def t_gbs(S):
    return f"key := string([]byte{{{', '.join(str(b) for b in vb(S))}}}) // {S['label']}"


@tech("printf-octal")
def t_pfo(S):
    return f"export SECRET=$(printf '{''.join(f'{chr(92)}{b:03o}' for b in vb(S))}')  # {S['label']}"


@tech("powershell-frombase64")
def t_psb64(S):
    return f"$k = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{b64(vb(S))}'))  # {S['label']}"


@tech("utf16le-hex")
def t_u16(S):
    return say(S, "utf-16le hex", S["v"].encode("utf-16-le").hex())


# --- words / spoken ----------------------------------------------------------
@tech("morse", "short")
def t_morse(S):
    return say(S, "morse", " / ".join(MORSE.get(c.upper(), c) for c in S["v"]))


@tech("nato-phonetic", "short")
def t_nato(S):
    return f"{S['label']}, spelled out: " + " ".join(spell_nato(S["v"]))


for _lang in ["en", "es", "de", "fr", "it", "pt", "ja", "zh", "ru", "hi", "sw"]:
    def _mk(lang):
        def fn(S):
            words = [NUMWORDS[lang][int(c)] for c in S["v"]]
            sep = "" if lang in ("ja", "zh") else pick([" ", "-", ", "])
            return f"{S['label']} — {NUMLABEL[lang]} {sep.join(words)}"
        return fn
    tech(f"spelled-digits-{_lang}", "dig")(_mk(_lang))


@tech("roman-numeral-digits", "digNZ")
def t_roman(S):
    rom = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"]
    return f"{S['label']}: " + " ".join(rom[int(c)] for c in S["v"]) + " (one numeral per digit)"


@tech("emoji-keycap-digits", "dig")
def t_keycap(S):
    return f"{S['label']} {''.join(EMOJI_KEYCAP[c] for c in S['v'])}"


@tech("math-per-digit", "dig")
def t_mathd(S):
    parts = []
    for c in S["v"]:
        d = int(c)
        a = R.randint(0, 9)
        parts.append(pick([f"{d + a}-{a}", f"{a}+{d}" if a + d < 20 else f"{d}+0", f"{d * 2}/2", f"{d}*1"]))
    return f"{S['label']}, one digit each: " + ", ".join(parts)


@tech("keypad-word", "dig4")
def t_keypad(S):
    w = pick(KEYPAD_WORDS)
    S["v"] = "".join(KEYPAD[c] for c in w)
    return pick([f"{S['label']} spells {w.upper()} on a phone keypad", f"{S['label']}: type {w.upper()} on the keypad letters"])


@tech("pilish-word-lengths", "dig")
def t_pilish(S):
    words = [pick(PILISH[int(c)]) for c in S["v"]]
    return f"{S['label']} = letters per word: \"{' '.join(words)}\" (10 letters = 0)"


@tech("year-riddle", "dig4")
def t_year(S):
    y, ev = pick(YEARS)
    S["v"] = str(y)
    return pick([f"{S['label']} is the year {ev}", f"{S['label']}: same as the year {ev} 😉", f"reminder — {S['label']} = year {ev}"])


@tech("two-year-riddle", "dig4")
def t_year2(S):
    (y1, e1), (y2, e2) = pick(YEARS), pick(YEARS)
    S["v"] = str(y1)[2:] + str(y2)[2:]
    return f"{S['label']}: last two digits of the year {e1}, then last two digits of the year {e2}"


@tech("math-constant-riddle", "dig4")
def t_const(S):
    v, d = pick(CONSTS)
    S["v"] = v
    return f"{S['label']} = {d}"


@tech("counting-riddle", "dig4")
def t_count(S):
    (p1, n1), (p2, n2) = pick(COUNTS), pick(COUNTS)
    S["v"] = f"{n1:02d}{n2:02d}"
    return f"{S['label']}: number of {p1} (two digits), then number of {p2} (two digits)"


@tech("birthday-combine", "dig4")
def t_bday(S):
    d, m, y = R.randint(1, 28), R.randint(1, 12), R.randint(1950, 2015)
    who = pick(["Lena", "Grandpa Joe", "my sister", "Tom", "Mum", "Aiko"])
    S["v"] = f"{d:02d}{m:02d}"
    return f"{who}'s birthday: {d} {MONTHS[m - 1]} {y}.\n{S['label']} = {who}'s day and month (DDMM)."


@tech("birth-year-combine", "dig4")
def t_byear(S):
    y = R.randint(1940, 2005)
    who = pick(["Dad", "Oma", "Uncle Rui", "my husband", "Priya"])
    S["v"] = str(y)
    return f"{who} was born in {y}. {S['label']}: {who}'s birth year."


@tech("house-number-twice", "dig4")
def t_house(S):
    n = R.randint(10, 99)
    S["v"] = f"{n}{n}"
    return f"we live at {n} {pick(STREETS)}. {S['label']} is just the house number twice."


@tech("landline-last-four", "dig4")
def t_landline(S):
    num = f"0{R.randint(11, 99)}{R.randint(1, 9)} {rs('d', 3)} {rs('d', 4)}"
    S["v"] = num[-4:]
    return f"old landline: {num}\n{S['label']} = last four digits of the old landline"


@tech("pet-name-plus-year", "pw")
def t_petyear(S):
    pet, y, sym = pick(PETS), R.randint(2005, 2024), pick(["!", "#", "?", "*"])
    S["v"] = f"{pet}{y}{sym}"
    return f"{S['label']}: the dog's name + the year we got him + '{sym}'\n(dog = {pet}, got him in {y})"


@tech("street-plus-number", "pw")
def t_streetnum(S):
    st, n = pick(["Maple", "Harbour", "Linden", "Station", "Kingfisher"]), R.randint(1, 99)
    S["v"] = f"{st}{n}{pick(['!', '$', '.'])}"
    return f"childhood street: {st} Road, no. {n}. {S['label']} is street+number then {S['v'][-1]}"


@tech("voice-transcript-digits", "dig")
def t_voice_d(S):
    return (f"[voice memo transcript] ok so the {S['label']} is " + ", ".join(NUMWORDS['en'][int(c)] for c in S["v"])
            + pick([", got it? yeah.", ". okay bye.", "… um, yes that's right."]))


@tech("voice-transcript-letters", "pw")
def t_voice_l(S):
    parts = []
    for c in S["v"]:
        if c.isalpha():
            parts.append(("capital " if c.isupper() else "small ") + c.upper())
        elif c.isdigit():
            parts.append(NUMWORDS["en"][int(c)])
        else:
            parts.append(SYM_NAMES.get(c, c))
    return f"[transcribed voicemail] \"...the {S['label']} is " + ", ".join(parts) + ". Call me if it doesn't work.\""


@tech("phonetic-with-case", "short")
def t_phonc(S):
    out = []
    for c in S["v"]:
        if c.isalpha():
            out.append((NATO[c.lower()].upper() if c.isupper() else NATO[c.lower()].lower()))
        elif c.isdigit():
            out.append(NUMWORDS["en"][int(c)])
        else:
            out.append(SYM_NAMES.get(c, c))
    return f"{S['label']} (UPPERCASE word = capital letter): " + " ".join(out)


@tech("braille-unicode", "dig")
def t_braille(S):
    return f"{S['label']}: ⠼" + "".join(BRAILLE_D[c] for c in S["v"])


@tech("braille-letters", "letters")
def t_braille_l(S):
    return f"{S['label']} in braille: " + "".join(BRAILLE_L.get(c, c) for c in S["v"].lower())


@tech("a1z26", "letters")
def t_a1z26(S):
    S["v"] = S["v"].lower()
    return f"{S['label']} (a=1…z=26): " + "-".join(str(ord(c) - 96) for c in S["v"])


@tech("digits-as-letters", "dig")
def t_d2l(S):
    return f"{S['label']}, a=0 b=1 … j=9: " + "".join(chr(97 + int(c)) for c in S["v"])


@tech("qwerty-shift-right", "letters")
def t_qwerty(S):
    rows = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
    m = {}
    for r in rows:
        for i, c in enumerate(r[:-1]):
            m[c] = r[i + 1]
    S["v"] = "".join(c for c in S["v"].lower() if c in m)
    return f"{S['label']} typed with my hand one key to the right: {''.join(m[c] for c in S['v'])}"


@tech("superscript-digits", "dig")
def t_sup(S):
    return f"{S['label']} {''.join(SUP[c] for c in S['v'])}"


# --- layout ------------------------------------------------------------------
@tech("split-fields", "tok")
def t_split_fields(S):
    a, b = halves(S["v"])
    return {"service": S["label"], "part_a": a, "part_b": b, "note": "concatenate a+b"}


@tech("split-list-items")
def t_split_list(S):
    return [f"{S['label']} in pieces:"] + nparts(S["v"], pick([3, 4]))


@tech("split-lines-labeled")
def t_split_lines(S):
    a, b = halves(S["v"])
    return f"{S['label']}\nfirst half: {a}\nsecond half: {b}"


@tech("split-numbered-shuffled", "tok")
def t_split_num(S):
    ps = nparts(S["v"], pick([3, 4, 5]))
    idx = list(range(len(ps)))
    R.shuffle(idx)
    return f"{S['label']} (put in order): " + "  ".join(f"({i + 1}) {ps[i]}" for i in idx)


@tech("split-nested-object", "tok")
def t_split_nested(S):
    a, b, c = nparts(S["v"], 3) + [""] * (3 - len(nparts(S["v"], 3)))
    return {"integration": {"name": S["label"], "auth": {"prefix": a, "body": {"value": b, "suffix": c}}}}


@tech("interleaved-two-lines", "tok")
def t_inter(S):
    return f"{S['label']}, zip these together char by char:\nA: {S['v'][0::2]}\nB: {S['v'][1::2]}"


@tech("interleaved-filler")
def t_filler(S):
    junk = rs("m", len(S["v"]))
    return f"{S['label']} — drop every 2nd char: " + "".join(a + b for a, b in zip(S["v"], junk))


@tech("every-third-char", "tok")
def t_third(S):
    out = "".join(rs("m", 2) + c for c in S["v"])
    return f"{S['label']}: take every 3rd character → {out}"


@tech("spaced-out")
def t_spaced(S):
    return f"{S['label']}: " + " ".join(S["v"])


@tech("dotted")
def t_dotted(S):
    return f"{S['label']} = " + ".".join(S["v"])


@tech("one-char-per-line", "short")
def t_cpl(S):
    return f"{S['label']}\n" + "\n".join(S["v"])


@tech("zero-width-space")
def t_zws(S):
    return f"{S['label']}: " + "\u200b".join(S["v"])


@tech("word-joiner")
def t_wj(S):
    return f"{S['label']}: " + "\u2060".join(S["v"])


@tech("soft-hyphen")
def t_shy(S):
    return f"{S['label']}: " + "\u00ad".join(S["v"])


@tech("homoglyph-cyrillic")
def t_cyr(S):
    return f"{S['label']}: {tr_map(S['v'], CYR)}"


@tech("homoglyph-greek")
def t_grk(S):
    return f"{S['label']}: {tr_map(S['v'], GRK)}"


@tech("fullwidth")
def t_fw(S):
    return f"{S['label']}：{fullwidth(S['v'])}"


@tech("math-bold")
def t_mbold(S):
    return f"{S['label']}: {math_alpha(S['v'], 0x1D400, 0x1D41A, 0x1D7CE)}"


@tech("math-monospace")
def t_mmono(S):
    return f"{S['label']}: {math_alpha(S['v'], 0x1D670, 0x1D68A, 0x1D7F6)}"


@tech("circled-alphanumerics", "short")
def t_circ(S):
    return f"{S['label']} {circled(S['v'])}"


@tech("combining-acute", "short")
def t_comb(S):
    return f"{S['label']}: " + "".join(c + "\u0301" for c in S["v"])


@tech("acrostic-first-letters", "alnum")
def t_acro(S):
    lines = [f"{c}{pick(['', '…', ' —'])} {pick(['rain on the window', 'tea going cold', 'the bus is late', 'cat on the sofa', 'lights off at ten', 'socks in the dryer', 'radio humming', 'bread in the oven'])}" for c in S["v"]]
    return f"(first character of each line = {S['label']})\n" + "\n".join(lines)


@tech("last-char-of-lines", "alnum")
def t_telestich(S):
    lines = [f"{pick(['note', 'item', 'line', 'row'])} {i + 1}: {rs('l', R.randint(3, 7))}{c}" for i, c in enumerate(S["v"])]
    return "\n".join(lines) + f"\n(read the last character of each line: {S['label']})"


@tech("swap-halves", "tok")
def t_swap(S):
    a, b = halves(S["v"])
    return f"{S['label']} with halves swapped: {b}{a} (split at {len(b)})"


@tech("swapcase-instruction", "alnum")
def t_swapcase(S):
    return f"{S['label']} — invert upper/lower case: {S['v'].swapcase()}"


@tech("remove-filler-symbol")
def t_rmfill(S):
    f = pick(["~", "¦", "§", "¤"])
    return f"{S['label']} (delete every {f}): " + f.join(S["v"])


@tech("partially-masked-full-elsewhere", "tok")
def t_pmask(S):
    return {"display": S["v"][:4] + "*" * 8 + S["v"][-4:], "label": S["label"], "raw": S["v"], "masked_in_ui": True}


@tech("ascii-box-sticky-note", "short")
def t_box(S):
    t = f" {S['label']}: {S['v']} "
    return "+" + "-" * len(t) + "+\n|" + t + "|\n+" + "-" * len(t) + "+"


@tech("unicode-tag-smuggling", "short")
def t_tags(S):
    hidden = "".join(chr(0xE0000 + ord(c)) for c in S["v"] if ord(c) < 128)
    return pick(["Nice weather today 🌤", "meeting moved to 3", "see you soon!"]) + hidden + f" ({S['label']} is tagged in here)"


@tech("variation-selector-smuggling", "short")
def t_vs(S):
    def vsel(b):
        return chr(0xFE00 + b) if b < 16 else chr(0xE0100 + b - 16)
    return pick(["🔑", "😀", "🐈"]) + "".join(vsel(b) for b in vb(S)) + f" ← {S['label']} (bytes as variation selectors)"


@tech("whitespace-stego", "short")
def t_ws(S):
    lines = []
    for c in S["v"]:
        bits = f"{ord(c):08b}"
        lines.append(pick(["todo", "done", "next", "ok"]) + " " + bits.replace("0", " ").replace("1", "\t"))
    return f"({S['label']}: trailing whitespace, tab=1 space=0, one byte per line)\n" + "\n".join(lines)


# --- markup / code / tables ----------------------------------------------------
@tech("markdown-table-cell")
def t_mdtab(S):
    rows = [("Jira", "https://jira.example.com", "SSO"), (S["label"], "—", S["v"]), ("Wiki", "https://wiki.example.com", "SSO")]
    R.shuffle(rows)
    return "| service | url | secret |\n|---|---|---|\n" + "\n".join(f"| {a} | {b} | {c} |" for a, b, c in rows)


@tech("markdown-table-column-chars", "short")
def t_mdcol(S):
    return f"| # | char |  ({S['label']}, top to bottom)\n|---|---|\n" + "\n".join(f"| {i + 1} | {c} |" for i, c in enumerate(S["v"]))


@tech("csv-row", "cred")
def t_csv(S):
    return f"service,username,secret,updated\n{slug(S['label'])},{S['user']},{S['v']},{date_iso()}\nwiki,{username()},(sso),{date_iso()}"


@tech("tsv-row", "cred")
def t_tsv(S):
    return f"name\tlogin\tpass\n{S['label']}\t{S['user']}\t{S['v']}"


@tech("html-comment")
def t_htmlc(S):
    return f"<div class=\"footer\">\n  <!-- {S['label']}: {S['v']} -->\n  <p>© {R.randint(2019, 2026)} Example Ltd</p>\n</div>"


@tech("html-hidden-input")
def t_hidden(S):
    return f"<form action=\"/api/sync\" method=\"post\">\n  <input type=\"hidden\" name=\"{snake(S['label'])}\" value=\"{xesc(S['v'])}\">\n  <button>Sync</button>\n</form>"


@tech("html-data-attribute")
def t_dattr(S):
    return f"<div id=\"widget\" data-{kebab(S['label'])}=\"{xesc(S['v'])}\" data-theme=\"dark\"></div>"


@tech("html-meta-tag")
def t_meta(S):
    return f"<meta name=\"{kebab(S['label'])}\" content=\"{xesc(S['v'])}\">"


@tech("css-custom-property")
def t_css(S):
    return f":root {{\n  --brand-color: #{rs('h', 6)};\n  --{kebab(S['label'])}: \"{S['v']}\";\n}}"


@tech("xml-cdata")
def t_cdata(S):
    return f"<config>\n  <{camel(S['label'])}><![CDATA[{S['v']}]]></{camel(S['label'])}>\n</config>"


@tech("svg-desc")
def t_svg(S):
    return f"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\" height=\"16\"><desc>{xesc(S['label'])}: {xesc(S['v'])}</desc><circle cx=\"8\" cy=\"8\" r=\"7\"/></svg>"


@tech("latex-comment")
def t_latex(S):
    return f"\\section{{Results}}\n% {S['label']}: {S['v']}\nThe model improves accuracy by {R.randint(2, 9)}\\%."


@tech("markdown-code-block")
def t_mdcode(S):
    return f"To reproduce, run:\n\n```bash\n{snake(S['label']).upper()}='{S['v']}' ./run.sh\n```"


@tech("markdown-link-url", "url")
def t_mdlink(S):
    return f"see the [{pick(['status page', 'endpoint', 'dashboard'])}]({S['v']}) for details"


@tech("markdown-image-alt")
def t_mdimg(S):
    return f"![{S['label']} {S['v']}](./img/screenshot-{R.randint(1, 40)}.png)"


@tech("markdown-footnote")
def t_mdfn(S):
    return f"Deployment works again after the fix[^1].\n\n[^1]: {S['label']} used: {S['v']}"


@tech("json-deep-nested", "tok")
def t_jdeep(S):
    return {"env": {"prod": {"services": {slug(S["vendor"]) if "vendor" in S else "svc": {"auth": {"credentials": {"value": S["v"]}}}}}}}


@tech("json-string-escaped")
def t_jstr(S):
    inner = json.dumps({camel(S["label"]): S["v"], "region": "eu"})
    return json.dumps({"payload": inner})


@tech("yaml-anchor-alias")
def t_yanchor(S):
    return f"defaults: &defaults\n  {snake(S['label'])}: {lit(S['v'])}\n  timeout: 30\n\nproduction:\n  <<: *defaults\n  replicas: 3"


@tech("yaml-folded-split", "tok")
def t_yfold(S):
    a, b = halves(S["v"])
    return f"secret: >-\n  {a}\n  {b}\n# folded: joined with a space — remove the space ({S['label']})"


@tech("ini-continuation", "tok")
def t_inicont(S):
    a, b = halves(S["v"])
    return f"[{slug(S['label'])}]\nkey = {a}\\\n{b}\nenabled = yes"


@tech("shell-concat")
def t_shcat(S):
    a, b = halves(S["v"])
    return f"P1='{a}'\nP2='{b}'\nexport SECRET=\"$P1$P2\"   # {S['label']}"


@tech("js-string-concat")
def t_jscat(S):
    return "const key = " + " + ".join(lit(p) for p in nparts(S["v"], pick([2, 3, 4]))) + f"; // {S['label']}"


@tech("python-implicit-concat")
def t_pycat(S):
    return "TOKEN = (\n" + "".join(f"    {lit(p)}\n" for p in nparts(S["v"], pick([2, 3]))) + f")  # {S['label']}"


@tech("array-join-code")
def t_arrjoin(S):
    return "const k = [" + ", ".join(lit(p) for p in nparts(S["v"], pick([3, 4]))) + f"].join(''); // {S['label']}"


@tech("excel-concat-formula")
def t_excel(S):
    return "=CONCAT(" + ";".join(lit(p) for p in nparts(S["v"], pick([2, 3]))) + f")    ' {S['label']}"


@tech("spreadsheet-cells", "tok")
def t_cells(S):
    ps = nparts(S["v"], 3)
    return [["", "A", "B", "C"], ["1", S["label"], "", ""], ["2", ps[0], ps[1] if len(ps) > 1 else "", ps[2] if len(ps) > 2 else ""],
            ["3", "=A2&B2&C2", "", ""]]


@tech("sql-insert", "cred")
def t_sqlins(S):
    return f"INSERT INTO service_accounts (name, username, secret) VALUES ('{slug(S['label'])}', '{S['user']}', '{S['v']}');"


@tech("sql-create-user", "pw")
def t_sqlcu(S):
    return pick([f"CREATE USER {snake(pick(APPS))} WITH PASSWORD '{S['v']}';",
                 f"ALTER USER 'app'@'%' IDENTIFIED BY '{S['v']}';", f"CREATE LOGIN reporting WITH PASSWORD = '{S['v']}';"])


@tech("sql-comment")
def t_sqlc(S):
    return f"-- {S['label']}: {S['v']}\nSELECT id, email FROM users WHERE created_at > now() - interval '7 days';"


@tech("commented-out-code")
def t_ccode(S):
    return f"# old_{snake(S['label'])} = \"{S['v']}\"\n{snake(S['label'])} = os.environ[\"{snake(S['label']).upper()}\"]"


@tech("todo-comment")
def t_todo(S):
    return f"// TODO(remove before merge): hardcoded {S['label']} {S['v']}\nconst client = createClient(config);"


@tech("vbscript-string")
def t_vbs(S):
    return f"Dim k\nk = \"{S['v']}\" ' {S['label']}\nSet http = CreateObject(\"MSXML2.XMLHTTP\")"


# --- logs / traces / diffs ---------------------------------------------------------
def ts():
    return f"{date_iso()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}.{R.randint(0, 999):03d}Z"


@tech("log-line-info")
def t_log(S):
    return f"{ts()} INFO  [{pick(APPS)}] auth ok using {snake(S['label'])}={S['v']} latency={R.randint(3, 900)}ms"


@tech("log-debug-headers", "tok")
def t_loghdr(S):
    return f"DEBUG urllib3.connectionpool: headers={{'User-Agent': 'python-requests/2.32', 'Authorization': 'Bearer {S['v']}', 'Accept': '*/*'}}"


@tech("log-json-structured")
def t_logjson(S):
    return json.dumps({"ts": ts(), "level": "debug", "msg": "login attempt", "user": username(), "password": S["v"], "ok": True})


@tech("syslog-line", "cred")
def t_syslog(S):
    return f"{pick(MONTHS)} {R.randint(1, 28):2d} {R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d} nas01 rsyncd[{R.randint(100, 9999)}]: auth failed, tried user={S['user']} pass={S['v']}"


@tech("nginx-access-log-query", "tok")
def t_nginx(S):
    ip = f"{R.randint(11, 220)}.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}"
    return f"{ip} - - [{R.randint(1, 28)}/{pick(MONTHS)}/2025:10:{R.randint(10, 59)}:{R.randint(10, 59)} +0000] \"GET /export?api_key={S['v']}&fmt=csv HTTP/1.1\" 200 {R.randint(300, 90000)} \"-\" \"curl/8.5.0\""


@tech("python-traceback-locals")
def t_tb(S):
    return (f"Traceback (most recent call last):\n  File \"/app/sync.py\", line {R.randint(20, 300)}, in connect\n    client.login(user, secret)\n"
            f"  locals: user='{username()}' secret='{S['v']}'\nConnectionError: 401 Unauthorized")


@tech("java-stacktrace-url", "url")
def t_jst(S):
    return (f"Exception in thread \"main\" java.net.ConnectException: Connection refused: {S['v']}\n\tat java.base/sun.nio.ch.Net.connect0(Native Method)\n"
            f"\tat com.example.{pick(['sync', 'etl', 'billing'])}.Client.open(Client.java:{R.randint(30, 400)})")


@tech("node-error-config-dump")
def t_nodeerr(S):
    return (f"Error: request failed with status 403\n    at Client.send (/srv/app/node_modules/sdk/index.js:{R.randint(40, 900)}:11)\n"
            f"  config: {{ baseURL: 'https://api.example.com', headers: {{ 'x-api-key': '{S['v']}' }}, timeout: 5000 }}")


@tech("go-panic-struct", "cred")
def t_gopanic(S):
    return (f"panic: dial tcp: i/o timeout\n\ngoroutine 1 [running]:\nmain.connect(...)\n\t/src/main.go:{R.randint(20, 200)}\n"
            f"cfg=&main.Config{{Host:\"{hostname()}\", User:\"{S['user']}\", Password:\"{S['v']}\", Port:5432}}")


@tech("git-diff-added")
def t_diffadd(S):
    var = snake(S["label"]).upper()
    return f"diff --git a/.env.production b/.env.production\n@@ -3,3 +3,4 @@\n LOG_LEVEL=info\n PORT=8080\n+{var}={S['v']}\n REGION=eu-west-1"


@tech("git-diff-removed")
def t_diffrm(S):
    var = snake(S["label"]).upper()
    return f"diff --git a/config.py b/config.py\n@@ -10,4 +10,4 @@\n-{var} = \"{S['v']}\"\n+{var} = os.environ[\"{var}\"]\n DEBUG = False"


@tech("git-commit-message")
def t_commit(S):
    return f"commit {rs('h', 40)}\nAuthor: {fullname()} <{email_addr()}>\n\n    fix login ({S['label']} was {S['v']}, now moved to env)"


@tech("ci-log-echo")
def t_cilog(S):
    return f"##[group]Run ./deploy.sh\n+ echo \"using {snake(S['label']).upper()}={S['v']}\"\nusing {snake(S['label']).upper()}={S['v']}\n##[endgroup]"


@tech("printenv-dump")
def t_printenv(S):
    env = [("HOME", "/home/app"), ("PATH", "/usr/local/bin:/usr/bin"), (snake(S["label"]).upper(), S["v"]), ("LANG", "C.UTF-8"), ("PWD", "/srv")]
    R.shuffle(env)
    return "$ printenv\n" + "\n".join(f"{k}={v}" for k, v in env)


@tech("ps-aux-args")
def t_psaux(S):
    return (f"USER  PID %CPU %MEM COMMAND\napp  {R.randint(100, 30000)}  1.2  3.4 /usr/bin/{pick(['backup-agent', 'sync', 'java'])} --user {username()} --password {S['v']} --daemon")


@tech("docker-inspect-env")
def t_dinspect(S):
    return [{"Id": rs("h", 64), "Config": {"Image": f"{pick(APPS)}:latest", "Env": ["PATH=/usr/local/sbin:/usr/local/bin",
             f"{snake(S['label']).upper()}={S['v']}", "NODE_ENV=production"]}}]


@tech("heroku-config-output")
def t_herokucfg(S):
    return f"=== {pick(APPS)} Config Vars\nDATABASE_POOL: 10\n{snake(S['label']).upper()}: {S['v']}\nWEB_CONCURRENCY: 2"


@tech("k8s-secret-data-base64")
def t_k8sb64(S):
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pick(APPS)}\ndata:\n  {snake(S['label'])}: {b64(vb(S))}"


@tech("kubectl-get-secret-output", "cred")
def t_kget(S):
    return (f"$ kubectl get secret db-creds -o jsonpath='{{.data}}'\n"
            + json.dumps({"username": b64(S["user"].encode()), "password": b64(vb(S))}))


@tech("terraform-state-json", "tok")
def t_tfstate(S):
    return {"version": 4, "resources": [{"type": "random_string", "name": "x", "instances": [{"attributes": {"id": rs("a", 8)}}]},
                                        {"type": "api_key", "name": slug(S["label"]).replace("-", "_"), "instances": [{"attributes": {"secret": S["v"], "id": rs("d", 6)}}]}]}


@tech("jupyter-output-cell")
def t_jupout(S):
    return {"cell_type": "code", "source": ["print(os.environ['" + snake(S["label"]).upper() + "'])"],
            "outputs": [{"output_type": "stream", "name": "stdout", "text": [S["v"] + "\n"]}]}


@tech("dockerfile-arg-default")
def t_dockarg(S):
    return f"FROM python:3.12-slim\nARG {snake(S['label']).upper()}={S['v']}\nRUN pip install -r requirements.txt"


@tech("crontab-line", "tok")
def t_cron(S):
    return f"*/15 * * * * curl -fsS -H 'Authorization: Bearer {S['v']}' https://api.example.com/v1/sync >/dev/null 2>&1"


@tech("bash-heredoc-env")
def t_heredoc(S):
    return f"cat > .env <<'EOF'\nAPP_ENV=production\n{snake(S['label']).upper()}={S['v']}\nEOF"


# --- protocols / credential files / exports ----------------------------------------
@tech("har-entry", "tok")
def t_har(S):
    return {"log": {"entries": [{"request": {"method": "GET", "url": f"https://api.example.com/v1/{pick(['me', 'orders', 'items'])}",
                                              "headers": [{"name": "Accept", "value": "application/json"},
                                                          {"name": "Authorization", "value": f"Bearer {S['v']}"}]},
                                  "response": {"status": 200}}]}}


@tech("curl-verbose-output", "cred")
def t_curlv(S):
    return (f"> GET /api/v1/status HTTP/2\n> Host: {hostname()}\n> authorization: Basic {b64((S['user'] + ':' + S['v']).encode())}\n"
            f"> user-agent: curl/8.5.0\n>\n< HTTP/2 200")


@tech("basic-auth-header", "cred")
def t_basic(S):
    return f"Authorization: Basic {b64((S['user'] + ':' + S['v']).encode())}"


@tech("proxy-authorization", "cred")
def t_proxyauth(S):
    return f"CONNECT api.example.com:443 HTTP/1.1\nProxy-Authorization: Basic {b64((S['user'] + ':' + S['v']).encode())}"


@tech("cookie-header", "tok")
def t_cookie(S):
    return f"Cookie: theme=dark; lang=en; {pick(['session', 'sid', 'auth', 'token'])}={S['v']}; _ga=GA1.2.{rs('d', 9)}.{rs('d', 10)}"


@tech("set-cookie-response", "tok")
def t_setcookie(S):
    return f"HTTP/1.1 302 Found\nLocation: /dashboard\nSet-Cookie: {pick(['session', 'sid', 'auth_token'])}={S['v']}; Path=/; HttpOnly; Secure; SameSite=Lax"


@tech("smtp-auth-plain", "cred")
def t_smtp(S):
    return (f"S: 220 mail.example.com ESMTP\nC: EHLO laptop\nS: 250-AUTH PLAIN LOGIN\nC: AUTH PLAIN {b64((chr(0) + S['user'] + chr(0) + S['v']).encode())}\nS: 235 2.7.0 Authentication successful")


@tech("imap-login-transcript", "cred")
def t_imap(S):
    return f"* OK IMAP4rev1 ready\na1 LOGIN {S['user']} \"{S['v']}\"\na1 OK LOGIN completed"


@tech("ftp-session-transcript", "cred")
def t_ftp(S):
    return f"220 ProFTPD Server\nUSER {S['user']}\n331 Password required\nPASS {S['v']}\n230 User logged in"


@tech("netrc", "cred")
def t_netrc(S):
    return f"machine {pick(['api.heroku.com', 'github.com', 'gitlab.example.com', 'files.example.org'])}\n  login {S['user']}\n  password {S['v']}"


@tech("pgpass", "cred")
def t_pgpass(S):
    return f"{hostname()}:5432:{pick(['app', 'orders', '*'])}:{S['user']}:{S['v']}"


@tech("git-credentials", "cred")
def t_gitcred(S):
    return f"https://{S['user']}:{pct(S['v'])}@{pick(['github.com', 'gitlab.com', 'bitbucket.org', 'git.example.com'])}"


@tech("docker-config-auths", "cred")
def t_dockercfg(S):
    return json.dumps({"auths": {pick(["https://index.docker.io/v1/", "ghcr.io", "registry.example.com"]):
                                 {"auth": b64(f"{S['user']}:{S['v']}".encode())}}}, indent=2)


@tech("kubeconfig-token", "tok")
def t_kubecfg(S):
    return (f"apiVersion: v1\nkind: Config\nclusters:\n- name: prod\n  cluster:\n    server: https://{rs('h', 8)}.gr7.eu-west-1.eks.amazonaws.com\n"
            f"users:\n- name: deployer\n  user:\n    token: {S['v']}")


@tech("npmrc-authtoken", "tok")
def t_npmrc(S):
    return f"registry=https://registry.npmjs.org/\n//registry.npmjs.org/:_authToken={S['v']}"


@tech("pypirc", "cred")
def t_pypirc(S):
    return f"[distutils]\nindex-servers = private\n\n[private]\nrepository = https://pypi.example.com/\nusername = {S['user']}\npassword = {S['v']}"


@tech("pip-conf-index-url", "cred")
def t_pipconf(S):
    return f"[global]\nindex-url = https://{S['user']}:{pct(S['v'])}@pypi.example.com/simple/"


@tech("maven-settings-xml", "cred")
def t_maven(S):
    return f"<settings>\n  <servers>\n    <server>\n      <id>releases</id>\n      <username>{S['user']}</username>\n      <password>{xesc(S['v'])}</password>\n    </server>\n  </servers>\n</settings>"


@tech("gradle-properties", "cred")
def t_gradle(S):
    return f"org.gradle.jvmargs=-Xmx2g\nmavenUser={S['user']}\nmavenPassword={S['v']}"


@tech("aws-credentials-file")
def t_awscred(S):
    return f"[default]\naws_access_key_id = AKIA{rs('A', 16)}\naws_secret_access_key = {rs('b', 40)}\n\n[{pick(['ci', 'backup', 'legacy'])}]\nnote = {S['label']} {S['v']}"


@tech("s3cfg", "tok")
def t_s3cfg(S):
    return f"[default]\naccess_key = {rs('A', 20)}\nsecret_key = {S['v']}\nhost_base = s3.{pick(['eu-central-1', 'us-east-1'])}.wasabisys.com"


@tech("sshpass-command", "cred")
def t_sshpass(S):
    return f"sshpass -p '{S['v']}' ssh {S['user']}@{hostname()} 'sudo systemctl restart app'"


@tech("mysql-cli-inline-password", "cred")
def t_mysql(S):
    return f"mysql -h {hostname()} -u {S['user']} -p'{S['v']}' {pick(['orders', 'app', 'crm'])}"


@tech("psql-pgpassword-env", "cred")
def t_psql(S):
    return f"PGPASSWORD='{S['v']}' psql -h {hostname()} -U {S['user']} -d app -c 'select count(*) from orders'"


@tech("redis-cli-auth", "pw")
def t_redis(S):
    return f"redis-cli -h cache.internal -p 6379 -a '{S['v']}' --no-auth-warning INFO keyspace"


@tech("mongo-shell-uri", "cred")
def t_mongo(S):
    return f"mongosh \"mongodb://{S['user']}:{pct(S['v'])}@{hostname()}:27017/admin\""


@tech("ldapsearch-bind-password", "cred")
def t_ldap(S):
    return f"ldapsearch -x -H ldaps://ldap.example.com -D 'uid={S['user']},ou=people,dc=example,dc=com' -w '{S['v']}' '(uid=*)'"


@tech("openssl-pass-arg", "pw")
def t_openssl(S):
    return f"openssl enc -aes-256-cbc -pbkdf2 -in backup.tar -out backup.tar.enc -pass pass:'{S['v']}'"


@tech("zip-password-flag", "pw")
def t_zip(S):
    return f"zip -P '{S['v']}' tax-docs-{R.randint(2019, 2025)}.zip *.pdf"


@tech("gpg-passphrase-flag", "pw")
def t_gpg(S):
    return f"gpg --batch --pinentry-mode loopback --passphrase '{S['v']}' -d secrets.tar.gpg | tar x"


@tech("keytool-storepass", "pw")
def t_keytool(S):
    return f"keytool -importcert -alias root -file ca.pem -keystore truststore.jks -storepass '{S['v']}' -noprompt"


@tech("android-signing-config", "pw")
def t_android(S):
    return f"signingConfigs {{\n    release {{\n        storeFile file('release.jks')\n        storePassword '{S['v']}'\n        keyAlias 'upload'\n        keyPassword '{S['v']}'\n    }}\n}}"


@tech("powershell-securestring", "pw")
def t_pssec(S):
    return f"$pw = ConvertTo-SecureString '{S['v']}' -AsPlainText -Force\n$cred = New-Object PSCredential('{username()}', $pw)"


@tech("windows-cmdkey", "cred")
def t_cmdkey(S):
    return f"cmdkey /add:fileserver01 /user:CORP\\{S['user']} /pass:{S['v']}"


@tech("registry-export", "pw")
def t_reg(S):
    return f"Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\{pick(['VNC', 'FileZilla', 'BackupTool'])}]\n\"User\"=\"{username()}\"\n\"Password\"=\"{S['v']}\""


@tech("macos-security-cli", "cred")
def t_macsec(S):
    return f"security add-generic-password -a {S['user']} -s '{S['label']}' -w '{S['v']}' -U"


@tech("ansible-inventory-password", "cred")
def t_ansinv(S):
    return f"[web]\n{hostname()} ansible_user={S['user']} ansible_password={S['v']} ansible_become=yes"


@tech("jenkins-credentials-xml", "cred")
def t_jenkins(S):
    return (f"<com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>\n  <id>{slug(S['label'])}</id>\n"
            f"  <username>{S['user']}</username>\n  <password>{xesc(S['v'])}</password>\n</com.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl>")


@tech("tomcat-users-xml", "cred")
def t_tomcat(S):
    return f"<tomcat-users>\n  <user username=\"{S['user']}\" password=\"{xesc(S['v'])}\" roles=\"manager-gui\"/>\n</tomcat-users>"


@tech("wp-config-define", "pw")
def t_wpconfig(S):
    return f"define( 'DB_NAME', 'wordpress' );\ndefine( 'DB_USER', 'wp_{rs('l', 5)}' );\ndefine( 'DB_PASSWORD', '{S['v']}' );"


@tech("mqtt-connect", "cred")
def t_mqtt(S):
    return f"mosquitto_pub -h broker.example.com -p 8883 -u {S['user']} -P '{S['v']}' -t home/garage/door -m open"


@tech("graphql-request-headers", "tok")
def t_gql(S):
    return json.dumps({"query": "query { viewer { login } }", "headers": {"Authorization": f"bearer {S['v']}"}})


@tech("grpc-metadata", "tok")
def t_grpc(S):
    return f"grpcurl -H 'x-api-key: {S['v']}' -d '{{\"id\": {R.randint(1, 999)}}}' api.example.com:443 orders.v1.Orders/Get"


@tech("websocket-url-token", "tok")
def t_ws_url(S):
    return f"const ws = new WebSocket('wss://stream.example.com/v2/live?token={S['v']}');"


@tech("postman-collection", "tok")
def t_postman(S):
    return {"info": {"name": pick(APPS), "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
            "auth": {"type": "bearer", "bearer": [{"key": "token", "value": S["v"], "type": "string"}]}}


# --- password manager exports / URIs / personal carriers ----------------------------
@tech("keepass-xml-export", "cred")
def t_keepass(S):
    return (f"<Entry>\n  <String><Key>Title</Key><Value>{xesc(S['label'])}</Value></String>\n  <String><Key>UserName</Key><Value>{S['user']}</Value></String>\n"
            f"  <String><Key>Password</Key><Value ProtectInMemory=\"True\">{xesc(S['v'])}</Value></String>\n</Entry>")


@tech("bitwarden-json-export", "cred")
def t_bitwarden(S):
    return {"encrypted": False, "items": [{"type": 1, "name": S["label"], "login": {"username": S["user"], "password": S["v"],
                                                                                    "uris": [{"uri": f"https://{rs('l', 7)}.example.com"}]}}]}


@tech("1password-csv-export", "cred")
def t_1pcsv(S):
    return f"Title,Website,Username,Password,Notes\n\"{S['label']}\",https://{rs('l', 6)}.com,{S['user']},\"{S['v']}\",\"\""


@tech("lastpass-csv-export", "cred")
def t_lpcsv(S):
    return f"url,username,password,totp,extra,name,grouping,fav\nhttps://{rs('l', 6)}.com,{S['user']},{S['v']},,,{S['label']},Personal,0"


@tech("chrome-passwords-csv", "cred")
def t_chrome(S):
    site = rs("l", 7)
    return f"name,url,username,password,note\n{site}.com,https://{site}.com/login,{S['user']},{S['v']},"


@tech("otpauth-uri")
def t_otpauth(S):
    sec = base64.b32encode(rb(20)).decode().rstrip("=")
    S["kind"] = "totp-seed"
    return f"otpauth://totp/{pick(['GitHub', 'AWS', 'Google', 'Okta', 'Coinbase'])}:{username()}?secret={sec}&issuer={pick(['GitHub', 'AWS', 'Google', 'Okta', 'Coinbase'])}&digits=6"


@tech("totp-seed-grouped")
def t_totpgroup(S):
    sec = base64.b32encode(rb(20)).decode().rstrip("=").lower()
    S["kind"] = "totp-seed"
    return f"2FA setup key (can't scan the QR): {' '.join(chunks(sec, 4))}"


@tech("wifi-qr-payload", "pw")
def t_wifiqr(S):
    S["kind"] = "wifi-password"
    return f"WIFI:T:WPA;S:{pick(NETS)};P:{S['v']};H:false;;"


@tech("vcard-note", "dig")
def t_vcard(S):
    return f"BEGIN:VCARD\nVERSION:3.0\nFN:{fullname()}\nTEL;TYPE=cell:+44 7700 {rs('d', 6)}\nNOTE:{S['label']} {S['v']}\nEND:VCARD"


@tech("ical-description", "dig")
def t_ical(S):
    return (f"BEGIN:VEVENT\nSUMMARY:Cat sitting at {pick(FIRST)}'s\nDTSTART:{date_iso().replace('-', '')}T090000\n"
            f"DESCRIPTION:{S['label']} {S['v']}\\, spare key under the mat\nEND:VEVENT")


@tech("mime-base64-attachment")
def t_mime(S):
    body = f"{snake(S['label']).upper()}={S['v']}\n".encode()
    return (f"Content-Type: text/plain; name=\".env\"\nContent-Disposition: attachment; filename=\".env\"\nContent-Transfer-Encoding: base64\n\n{wrap(b64(body), 76)}")


@tech("email-quoted-forward")
def t_fwd(S):
    return f"> > > {S['label']}: {S['v']}\n> > thanks!\n> see below\nFYI — forwarding {name()}'s message"


@tech("email-subject-body-split", "tok")
def t_subjbody(S):
    a, b = halves(S["v"])
    return f"Subject: key part 1/2 {a}\n\npart 2 is {b} — glue them ({S['label']})"


@tech("chat-multi-turn-split", "tok")
def t_chatsplit(S):
    ps = nparts(S["v"], 3)
    n1, n2 = name(), name()
    return [f"{n1}: sending the {S['label']} in bits", *[f"{n1}: {p}" for p in ps], f"{n2}: got it, joined"]


@tech("sms-forward-chain", "dig")
def t_smschain(S):
    return f"Fwd: Fwd: Fwd: \"{S['v']} is your {S['label']}. Do not share.\""


@tech("srt-subtitle", "dig")
def t_srt(S):
    return (f"12\n00:01:0{R.randint(0, 9)},200 --> 00:01:0{R.randint(0, 9)},900\nOkay, the {S['label']} is\n\n13\n00:01:10,000 --> 00:01:12,500\n"
            + " ".join(S["v"]))


@tech("jwt-payload-claim", "pw")
def t_jwtclaim(S):
    return "eyJhbGciOiJub25lIn0." + b64u(json.dumps({"sub": username(), "pwd": S["v"]}).encode()) + "."


@tech("data-uri-base64")
def t_datauri(S):
    return f"data:text/plain;base64,{b64((S['label'] + ': ' + S['v']).encode())}"


@tech("url-query-param", "tok")
def t_urlq(S):
    return f"https://api.example.com/v2/report?format=csv&{pick(['api_key', 'key', 'access_token', 'token'])}={S['v']}&page=2"


@tech("url-fragment-token", "tok")
def t_urlfrag(S):
    return f"https://app.example.com/callback#access_token={S['v']}&token_type=Bearer&expires_in=3600"


@tech("url-userinfo", "cred")
def t_urluser(S):
    return f"{pick(['https', 'ftp', 'smb', 'sftp'])}://{S['user']}:{pct(S['v'])}@{hostname()}/{pick(['exports', 'share', 'backup'])}/"


@tech("mailto-body")
def t_mailto(S):
    return f"mailto:{email_addr()}?subject=access&body={pct(S['label'] + ': ' + S['v'])}"


@tech("connection-string-in-url", "url")
def t_connurl(S):
    return say(S, "conn", S["v"])


# --- seeds / cards ------------------------------------------------------------------
@tech("seed-numbered-list", "seed")
def t_seednum(S):
    return "\n".join(f"{i + 1}. {w}" for i, w in enumerate(S["v"].split()))


@tech("seed-grid-table", "seed")
def t_seedgrid(S):
    w = S["v"].split()
    cols = 3 if len(w) == 12 else 4
    return "\n".join(" | ".join(f"{r * cols + c + 1:>2} {w[r * cols + c]}" for c in range(cols)) for r in range(len(w) // cols))


@tech("seed-first-four-letters", "seed")
def t_seed4(S):
    return "backup (first 4 letters of each word are enough): " + " ".join(w[:4] for w in S["v"].split())


@tech("seed-shuffled-with-indices", "seed")
def t_seedshuf(S):
    w = list(enumerate(S["v"].split()))
    R.shuffle(w)
    return ", ".join(f"{w_}({i + 1})" for i, w_ in w)


@tech("seed-two-halves-fields", "seed")
def t_seedhalves(S):
    w = S["v"].split()
    m = len(w) // 2
    return {"wallet": pick(["Ledger", "Trezor", "MetaMask", "Electrum"]), "words_1": " ".join(w[:m]), "words_2": " ".join(w[m:])}


@tech("seed-uppercase-commas", "seed")
def t_seedup(S):
    return S["v"].upper().replace(" ", ",")


@tech("card-split-lines", "card")
def t_cardsplit(S):
    return f"{S['label']}\n" + "\n".join(chunks(S["v"], 4)) + f"\nexp {S['exp']}  cvc {S['cvv']}"


@tech("card-spelled-digits", "card")
def t_cardspell(S):
    return f"{S['label']}: " + " ".join(NUMWORDS["en"][int(c)] for c in S["v"]) + f", expires {S['exp']}, code {S['cvv']}"


@tech("card-receipt-style", "card")
def t_cardrcpt(S):
    return (f"BOOKING CONFIRMATION\nGuest: {fullname()}\nPayment: {S['label'].upper()} {S['v']}  EXP {S['exp']}  CVV {S['cvv']}\nTotal: {money()}")


@tech("card-mixed-separators", "card")
def t_cardmix(S):
    seps = [" ", "-", ".", "/"]
    return f"{S['label']}: " + "".join(c + (pick(seps) if i % 4 == 3 and i < len(S['v']) - 1 else "") for i, c in enumerate(S["v"])) + f" {S['exp']} {S['cvv']}"


@tech("card-reversed", "card")
def t_cardrev(S):
    return f"{S['label']} backwards (so it's not obvious): {S['v'][::-1]} / {S['exp']} / {S['cvv']}"


@tech("card-in-json-cents", "card")
def t_cardjson(S):
    return {"order": R.randint(10000, 99999), "amount_cents": R.randint(500, 90000), "pan": S["v"], "exp": S["exp"], "cvc": S["cvv"]}


@tech("backup-codes-csv")
def t_bcodes(S):
    S["kind"] = "backup-codes"
    return "code,used\n" + "\n".join(f"{rs('d', 4)}-{rs('d', 4)},{pick(['no', 'no', 'yes'])}" for _ in range(8))


@tech("recovery-key-grouped-lines")
def t_rkey(S):
    S["kind"] = "recovery-key"
    groups = [f"{R.randint(0, 65535) * 11:06d}" for _ in range(8)]
    return "BitLocker recovery key\n" + "\n".join(" ".join(groups[i:i + 2]) for i in range(0, 8, 2))


# --- key / namespace carriers (few; listed in the README) ------------------------------
@tech("key-hex-suffix", "dig")
def t_keyhex(S):
    S["_key"] = "mem_" + vb(S).hex()
    return pick([f"{S['label']}: see this memory's key — hex after mem_", f"{S['label']} is stored hex-encoded in the memory key"])


@tech("namespace-part", "alnum")
def t_nspart(S):
    a, b = halves(S["v"])
    S["_ns3"] = a
    return f"{S['label']} = (name of this memory's folder) + {b}"


# ---------------------------------------------------------------------------
# benign look-alike families
# ---------------------------------------------------------------------------
FAM = []


def fam(name, embed=True):
    def deco(fn):
        FAM.append((name, fn, embed))
        return fn
    return deco


def ssh_pub_ed():
    return "ssh-ed25519 " + b64(_ssh_s(b"ssh-ed25519") + _ssh_s(rb(32)))


def ssh_pub_rsa():
    return "ssh-rsa " + b64(_ssh_s(b"ssh-rsa") + _ssh_s(b"\x01\x00\x01") + _ssh_s(b"\x00" + rb(256)))


def ec_pub_pem():
    return pem("PUBLIC KEY", bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + rb(64))


def bech(n):
    return rs("c", n)


def b58(n):
    return rs("z", n)


def eth_addr():
    return "0x" + "".join(c.upper() if c.isalpha() and chance(0.5) else c for c in rs("h", 40))


def btc_addr():
    return pick(["bc1q" + bech(38), "1" + b58(33), "3" + b58(33), "bc1p" + bech(58)])


def bcrypt_hash():
    return f"$2b${pick(['10', '12', '12', '14'])}$" + rs(string.ascii_letters + string.digits + "./", 53)


def ulid():
    return rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 26)


def tracking():
    return pick(["1Z" + rs("A", 6) + rs("d", 10), "9400 1" + rs("d", 3) + " " + " ".join(rs("d", 4) for _ in range(4)) + " " + rs("d", 2),
                 rs("d", 12), "JD0" + rs("d", 17), rs("u", 2) + rs("d", 9) + pick(["DE", "GB", "CN", "NL"])])


def phone():
    return pick([f"+44 7{rs('d', 3)} {rs('d', 6)}", f"+1 ({R.randint(201, 989)}) 555-01{rs('d', 2)}", f"+49 15{rs('d', 1)} {rs('d', 7)}",
                 f"+234 80{rs('d', 1)} {rs('d', 3)} {rs('d', 4)}", f"+81 90-{rs('d', 4)}-{rs('d', 4)}", f"0{rs('d', 3)} {rs('d', 3)} {rs('d', 4)}"])


# --- high-entropy identifiers ------------------------------------------------------
@fam("git-commit-sha")
def f_gitsha():
    return pick([f"deployed {pick(APPS)} at commit {rs('h', 40)}", f"git revert {rs('h', 40)}", f"fixed in {rs('h', 40)} (see PR #{R.randint(10, 9999)})"])


@fam("git-short-sha")
def f_shortsha():
    return f"{rs('h', 7)} {pick(['fix typo in README', 'bump deps', 'add retry to uploader', 'refactor auth middleware'])}\n{rs('h', 7)} {pick(['merge main', 'update changelog', 'tweak CI cache'])}"


@fam("sha256-checksum")
def f_sha256():
    return f"{rs('h', 64)}  {pick(['ubuntu-24.04.1-desktop-amd64.iso', 'backup-2025.tar.gz', 'installer.dmg', 'firmware_v3.bin'])}"


@fam("sha1-checksum")
def f_sha1():
    return f"SHA1 ({pick(['setup.exe', 'photos.zip', 'report.pdf'])}) = {rs('h', 40)}"


@fam("md5-checksum")
def f_md5():
    return f"MD5 checksum of the scan: {rs('h', 32)} (matches the one on the website)"


@fam("sha512-checksum")
def f_sha512():
    return f"sha512: {rs('h', 128)}"


@fam("uuid-request-id")
def f_uuid():
    return pick([f"support ticket ref {uuid4()}", f"X-Request-Id: {uuid4()}", f"order {uuid4()} failed at payment step, retried ok"])


@fam("ulid-identifier")
def f_ulid():
    return f"event id {ulid()} → processed in {R.randint(2, 900)} ms"


@fam("ksuid-identifier")
def f_ksuid():
    return f"segment messageId: {rs('m', 27)} (ksuid)"


@fam("mongodb-objectid")
def f_oid():
    return f'db.users.findOne({{_id: ObjectId("{rs("h", 24)}")}})'


@fam("snowflake-message-id")
def f_snow():
    return f"discord message link https://discord.com/channels/{rs('d', 18)}/{rs('d', 19)}/{rs('d', 19)}"


@fam("aws-arn")
def f_arn():
    return pick([f"arn:aws:iam::{rs('d', 12)}:role/{pick(['deploy', 'lambda-exec', 'ReadOnly'])}",
                 f"arn:aws:s3:::{pick(APPS)}-{rs('d', 4)}/exports/*", f"arn:aws:lambda:eu-west-1:{rs('d', 12)}:function:{pick(APPS)}"])


@fam("aws-resource-ids")
def f_awsids():
    return f"instance i-0{rs('h', 16)} in vpc-0{rs('h', 16)}, sg-0{rs('h', 16)}, ami-0{rs('h', 16)}"


@fam("aws-request-id")
def f_awsreq():
    return f"RequestId: {uuid4()}  Duration: {R.randint(1, 900)}.{R.randint(10, 99)} ms  Billed Duration: {R.randint(1, 900)} ms"


@fam("azure-resource-id")
def f_azid():
    return f"/subscriptions/{uuid4()}/resourceGroups/rg-{pick(APPS)}/providers/Microsoft.Web/sites/{pick(APPS)}-{pick(['prod', 'dev'])}"


@fam("azure-tenant-client-ids")
def f_aztenant():
    return f"tenant id {uuid4()}, client (application) id {uuid4()} — the secret is in Key Vault, not here"


@fam("gcp-resource-name")
def f_gcpres():
    return f"projects/{pick(['acme', 'orbit'])}-{rs('d', 6)}/locations/europe-west1/services/{pick(APPS)}"


@fam("docker-image-digest")
def f_digest():
    return f"{pick(['nginx', 'postgres', 'redis', 'python'])}@sha256:{rs('h', 64)}"


@fam("container-id")
def f_cid():
    return f"CONTAINER ID   IMAGE\n{rs('h', 12)}   {pick(APPS)}:latest\n{rs('h', 12)}   redis:7"


@fam("k8s-pod-name")
def f_pod():
    return f"{pick(APPS)}-{rs('a', 10)}-{rs('a', 5)}   1/1   Running   0   {R.randint(1, 59)}m"


@fam("npm-integrity")
def f_npmint():
    return f'"integrity": "sha512-{b64(rb(64))}"'


@fam("subresource-integrity")
def f_sri():
    return f'<script src="https://cdn.example.com/lib.min.js" integrity="sha384-{b64(rb(48))}" crossorigin="anonymous"></script>'


@fam("stripe-object-ids")
def f_stripeids():
    return f"customer cus_{rs('m', 14)} paid invoice in_{rs('m', 24)} via pi_{rs('m', 24)} (charge ch_{rs('m', 24)})"


@fam("slack-ids")
def f_slackids():
    return f"channel C0{rs('A', 8)}, user U0{rs('A', 8)}, thread ts {rs('d', 10)}.{rs('d', 6)}"


@fam("github-node-id")
def f_ghnode():
    return f"node_id: {pick(['MDQ6VXNlcj', 'R_kgDO', 'PR_kwDO', 'I_kwDO'])}{rs('w', 12)}"


@fam("twilio-message-sid")
def f_twsid():
    return f"message SM{rs('h', 32)} delivered to {phone()}"


@fam("sentry-event-id")
def f_sentry():
    return f"Sentry event {rs('h', 32)} — TypeError: cannot read properties of undefined"


@fam("w3c-traceparent")
def f_trace():
    return f"traceparent: 00-{rs('h', 32)}-{rs('h', 16)}-01"


@fam("youtube-video-id")
def f_yt():
    return f"watch later: https://www.youtube.com/watch?v={rs('w', 11)}&t={R.randint(10, 900)}s"


@fam("short-url")
def f_short():
    return f"link to the recipe: https://{pick(['bit.ly', 'tinyurl.com', 'goo.gl'])}/{rs('m', 7)}"


@fam("webpack-chunk-hash")
def f_chunk():
    return f"main.{rs('h', 8)}.js   {R.randint(80, 900)} KiB\nvendors.{rs('h', 20)}.js  {R.randint(200, 2000)} KiB"


@fam("oauth-public-client-id")
def f_clientid():
    return pick([f"Google OAuth client ID (public): {rs('d', 12)}-{rs('a', 32)}.apps.googleusercontent.com",
                 f"GitHub App client id Iv1.{rs('h', 16)} — safe to commit", f"Auth0 client id {rs('m', 32)} (SPA, no secret)"])


@fam("apple-bundle-team-ids")
def f_apple():
    return f"Team ID {rs('A', 10)}, bundle id com.{pick(['acme', 'orbit'])}.{pick(['app', 'notes'])}, app id {rs('d', 10)}"


@fam("cloudfront-distribution-id")
def f_cf():
    return f"invalidate cache: aws cloudfront create-invalidation --distribution-id E{rs('A', 13)} --paths '/*'"


@fam("ssh-host-fingerprint")
def f_sshfp():
    return f"ED25519 key fingerprint is SHA256:{b64(rb(32)).rstrip('=')}.\nAre you sure you want to continue connecting (yes/no)?"


@fam("pgp-fingerprint")
def f_pgpfp():
    return f"my PGP fingerprint: {' '.join(rs('H', 4) for _ in range(10))}"


@fam("tls-cert-fingerprint")
def f_tlsfp():
    return f"SHA-256 Fingerprint={':'.join(rs('H', 2) for _ in range(32))}"


@fam("mac-address")
def f_mac():
    return f"printer MAC {':'.join(rs('h', 2) for _ in range(6))}, reserved IP 192.168.1.{R.randint(2, 250)}"


@fam("ipv6-address")
def f_ipv6():
    return f"server IPv6: 2001:db8:{rs('h', 4)}:{rs('h', 4)}::{rs('h', 3)}"


@fam("isbn-doi")
def f_isbn():
    return pick([f"book to borrow: ISBN 978-{R.randint(0, 1)}-{rs('d', 3)}-{rs('d', 5)}-{rs('d', 1)}", f"cite: doi:10.{rs('d', 4)}/{rs('a', 5)}.{rs('d', 4)}.{rs('d', 5)}"])


@fam("color-hex-codes")
def f_colors():
    return f"palette for the website: #{rs('h', 6)} #{rs('h', 6)} #{rs('h', 6)} #{rs('H', 6)}"


# --- crypto (public) ------------------------------------------------------------------
@fam("eth-address")
def f_eth():
    return f"send the refund to my ETH address {eth_addr()}"


@fam("btc-address")
def f_btc():
    return f"donations (BTC): {btc_addr()}"


@fam("sol-address")
def f_sol():
    return f"SOL wallet address (public): {b58(44)}"


@fam("eth-tx-hash")
def f_ethtx():
    return f"tx hash 0x{rs('h', 64)} — confirmed after {R.randint(2, 40)} blocks"


@fam("btc-txid")
def f_btctx():
    return f"txid {rs('h', 64)}"


@fam("block-hash")
def f_block():
    return f"block #{R.randint(800000, 900000)} hash 0000000000000000000{rs('h', 45)}"


@fam("ens-name")
def f_ens():
    return f"my ENS is {pick(FIRST).lower()}{R.randint(1, 99)}.eth → {eth_addr()}"


@fam("xpub-extended-public-key")
def f_xpub():
    return f"watch-only wallet, xpub (public): xpub661MyMwAqRbc{b58(95)}"


@fam("nostr-npub")
def f_npub():
    return f"follow me on nostr: npub1{bech(58)}"


@fam("ipfs-cid")
def f_ipfs():
    return pick([f"ipfs://Qm{b58(44)}", f"https://ipfs.io/ipfs/bafybei{rs('v', 52)}"])


@fam("lightning-invoice")
def f_ln():
    return f"pay for the coffee: lnbc{R.randint(1, 99)}0u1p{bech(150)}"


@fam("contract-address")
def f_contract():
    return f"USDC contract on Base: {eth_addr()} (verify on the explorer)"


# --- personal data that is not a credential ---------------------------------------------
@fam("phone-number")
def f_phone():
    return f"{name()}'s new number: {phone()}"


@fam("email-address")
def f_email():
    return f"contact for the venue: {email_addr()}"


@fam("street-address")
def f_addr():
    return f"new address: {R.randint(1, 200)} {pick(STREETS)}, {pick(CITIES)} {rs('d', 5)}"


@fam("birthday")
def f_bday():
    return f"{name()}'s birthday {R.randint(1, 28)} {pick(MONTHS)} {R.randint(1950, 2020)} 🎂"


@fam("passport-number")
def f_passport():
    return f"passport no. {rs('A', 2)}{rs('d', 7)}, expires {date_iso()}"


@fam("drivers-license-number")
def f_dl():
    return f"driving licence number {rs('u', 5)}{rs('d', 6)}{rs('u', 2)}{rs('d', 1)}{rs('u', 2)}"


@fam("order-number")
def f_order():
    return pick([f"Amazon order {rs('d', 3)}-{rs('d', 7)}-{rs('d', 7)}", f"order #{rs('d', 8)} shipped", f"IKEA order {rs('d', 10)}"])


@fam("tracking-number")
def f_track():
    return f"parcel tracking: {tracking()}"


@fam("insurance-policy-number")
def f_policy():
    return f"home insurance policy {rs('A', 3)}-{rs('d', 9)}, renewal {date_human()}"


@fam("claim-number")
def f_claim():
    return f"claim number CLM{rs('d', 10)} — adjuster will call"


@fam("membership-number")
def f_member():
    return f"gym membership #{rs('d', 8)}, frequent flyer {rs('A', 2)} {rs('d', 9)}"


@fam("invoice-number")
def f_invoice():
    return f"invoice INV-{R.randint(2023, 2026)}-{rs('d', 5)} due {date_human()}, {money()}"


@fam("imei-number")
def f_imei():
    return f"phone IMEI {imei()} (for the insurance form)"


@fam("vin-number")
def f_vin():
    return f"car VIN {vin()}, plate {rs('u', 2)}{R.randint(10, 99)} {rs('u', 3)}"


@fam("iccid-sim-serial")
def f_iccid():
    return f"SIM card serial (ICCID) {iccid()}"


@fam("product-serial-number")
def f_serial():
    return f"dishwasher serial {rs('A', 4)}{rs('d', 8)}, model {rs('u', 3)}{R.randint(100, 999)}"


@fam("bank-branch-data")
def f_branch():
    return pick([f"sort code {rs('d', 2)}-{rs('d', 2)}-{rs('d', 2)}, branch {pick(CITIES)} High St", f"routing number {rs('d', 9)} ({pick(BANKS)})",
                 f"SWIFT/BIC {rs('u', 4)}{rs('u', 2)}{rs('A', 2)} for the wire"])


@fam("medical-notes")
def f_med():
    return f"GP: {pick(['mild asthma', 'vitamin D low', 'sprained ankle', 'migraine'])}, follow-up in {R.randint(2, 8)} weeks. BP 1{R.randint(10, 40)}/{R.randint(70, 90)}"


@fam("prescription")
def f_rx():
    return f"Rx: {pick(['amoxicillin 500 mg', 'sertraline 50 mg', 'levothyroxine 75 mcg', 'ibuprofen 400 mg'])}, {pick(['1x daily', '3x daily with food'])}, refill #{R.randint(1, 5)}"


@fam("lab-values")
def f_lab():
    return f"bloods {date_human()}: HbA1c {R.randint(48, 70) / 10}%, LDL {R.randint(20, 50) / 10} mmol/L, ferritin {R.randint(15, 300)}"


@fam("vaccination-record")
def f_vax():
    return f"flu jab {date_iso()}, batch {rs('A', 6)}, next due {R.randint(2026, 2028)}"


@fam("booking-reference")
def f_pnr():
    return f"flight booking ref {rs('A', 6)}, seat {R.randint(1, 40)}{pick('ABCDEF')}"


@fam("e-ticket-number")
def f_eticket():
    return f"e-ticket {rs('d', 3)}-{rs('d', 10)}"


@fam("library-card-number")
def f_library():
    return f"library card {rs('d', 14)} (renew books by {date_human()})"


@fam("student-employee-id")
def f_stid():
    return pick([f"student ID {rs('d', 8)}", f"employee number E{rs('d', 6)}", f"badge no. {rs('d', 5)}"])


@fam("vat-tax-id")
def f_vat():
    return f"company VAT number {pick(['DE', 'FR', 'NL', 'GB'])}{rs('d', 9)}"


# --- public / non-secret keys ------------------------------------------------------------
@fam("ssh-ed25519-public-key")
def f_sshed():
    return f"{ssh_pub_ed()} {pick(FIRST).lower()}@laptop"


@fam("ssh-rsa-public-key", embed=False)
def f_sshrsa():
    return f"{ssh_pub_rsa()} deploy@ci"


@fam("pem-public-key", embed=False)
def f_pempub():
    return ec_pub_pem()


@fam("x509-certificate", embed=False)
def f_cert():
    return pem("CERTIFICATE", bytes.fromhex("308201") + rb(R.randint(380, 520)))


@fam("certificate-signing-request", embed=False)
def f_csr():
    return pem("CERTIFICATE REQUEST", bytes.fromhex("308201") + rb(R.randint(250, 330)))


@fam("pgp-public-key-block", embed=False)
def f_pgppub():
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + wrap(b64(b"\x98\x33\x04" + rb(R.randint(200, 300))), 64) + "\n=" + b64(rb(3)) + "\n-----END PGP PUBLIC KEY BLOCK-----"


@fam("age-recipient-public-key")
def f_agepub():
    return f"encrypt backups to this age recipient (public key): age1{bech(58)}"


@fam("wireguard-peer-public-key")
def f_wgpub():
    return f"[Peer]\nPublicKey = {b64(rb(32))}\nEndpoint = vpn.example.net:51820\nAllowedIPs = 10.8.0.0/24"


@fam("jwk-public-key")
def f_jwkpub():
    return json.dumps({"keys": [{"kty": "EC", "crv": "P-256", "use": "sig", "kid": rs("a", 8), "x": b64u(rb(32)), "y": b64u(rb(32))}]})


@fam("minisign-public-key")
def f_minipub():
    return f"untrusted comment: minisign public key {rs('H', 16)}\nRWQ{b64(rb(39))}"


@fam("tor-onion-address")
def f_onion():
    return f"http://{rs('v', 56)}.onion/"


@fam("dkim-dns-record")
def f_dkim():
    return f"selector1._domainkey.example.com. TXT \"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ{b64(rb(120))}\""


@fam("known-hosts-line")
def f_knownhosts():
    return f"|1|{b64(rb(20))}|{b64(rb(20))} {ssh_pub_ed()}"


@fam("authorized-keys-line")
def f_authkeys():
    return f'command="/usr/local/bin/backup-only",no-pty {ssh_pub_ed()} backup@nas'


@fam("stripe-publishable-key")
def f_stripepk():
    return f"Stripe publishable key (safe for the frontend): pk_live_51{rs('m', 97)}"


@fam("mapbox-public-token")
def f_mapboxpk():
    return f"mapboxgl.accessToken = 'pk.eyJ1Ijoi{rs('w', 30)}In0.{rs('w', 22)}'; // public token, URL-restricted"


@fam("posthog-project-key")
def f_phc():
    return f"posthog.init('phc_{rs('m', 43)}', {{api_host: 'https://eu.i.posthog.com'}}) // project API key is public"


@fam("algolia-search-only-key")
def f_algolia():
    return f"algoliasearch('{rs('A', 10)}', '{rs('h', 32)}') // search-only API key, fine in the browser"


@fam("supabase-anon-key")
def f_supaanon():
    now = R.randint(1700000000, 1760000000)
    return f"SUPABASE_ANON_KEY (public, RLS enforced) = {jwt({'iss': 'supabase', 'ref': rs('l', 20), 'role': 'anon', 'iat': now, 'exp': now + 315360000})}"


@fam("captcha-site-key")
def f_captcha():
    return pick([f'<div class="g-recaptcha" data-sitekey="6L{rs("w", 38)}"></div>', f'<div class="cf-turnstile" data-sitekey="0x4AAAAAAA{rs("w", 14)}"></div>',
                 f'<div class="h-captcha" data-sitekey="{uuid4()}"></div>'])


@fam("payment-public-keys")
def f_paypub():
    return pick([f"Paystack public key pk_live_{rs('h', 40)}", f"Flutterwave public key FLWPUBK-{rs('h', 32)}-X",
                 f"Razorpay key_id (public) rzp_live_{rs('m', 14)}", f"Square application id sq0idp-{rs('w', 22)}",
                 f"Adyen client key live_{rs('A', 32)} (client-side)"])


@fam("clerk-publishable-key")
def f_clerkpk():
    return f"NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_{b64(('clerk.' + rs('l', 8) + '.com$').encode()).rstrip('=')}"


@fam("analytics-public-ids")
def f_anaids():
    return pick([f"gtag('config', 'G-{rs('A', 10)}');", f"fbq('init', '{rs('d', 16)}');", f"mixpanel.init('{rs('h', 32)}') // project token is public",
                 f"LaunchDarkly client-side ID {rs('h', 24)}", f"Statsig client key client-{rs('m', 43)}", f"OneSignal appId: '{uuid4()}'"])


@fam("firebase-web-config-ids")
def f_firebase():
    return json.dumps({"authDomain": f"{rs('l', 8)}.firebaseapp.com", "projectId": f"{rs('l', 8)}-{rs('d', 5)}",
                       "storageBucket": f"{rs('l', 8)}.appspot.com", "messagingSenderId": rs("d", 12), "appId": f"1:{rs('d', 12)}:web:{rs('h', 22)}"})


@fam("langfuse-public-key")
def f_lfpk():
    return f"LANGFUSE_PUBLIC_KEY=pk-lf-{uuid4()}  (secret key lives in the vault)"


@fam("vapid-public-key")
def f_vapid():
    return f"applicationServerKey: 'B{rs('w', 86)}' // VAPID public key"


# --- protected / placeholder / ciphertext / hashes --------------------------------------
@fam("masked-card-number")
def f_maskcard():
    return pick([f"card ending in {rs('d', 4)}", f"**** **** **** {rs('d', 4)}  exp {card_exp()}", f"Visa •••• {rs('d', 4)} was charged {money()}"])


@fam("masked-api-key")
def f_maskkey():
    return pick([f"sk_live_••••••••{rs('m', 4)}", f"ghp_{'*' * 32}{rs('m', 4)}", f"key: AKIA************{rs('A', 4)}", f"xoxb-****-****-{rs('m', 4)} (masked in UI)"])


@fam("redacted-log")
def f_redact():
    return pick([f"{ts()} INFO login ok user={username()} password=[REDACTED]", f"Authorization: Bearer ***", f"token=<redacted> status=200",
                 f'{{"api_key": "[FILTERED]", "status": "ok"}}'])


@fam("asterisk-password-field")
def f_asterisk():
    return f"username: {username()}\npassword: ••••••••••"


@fam("placeholder-angle-brackets")
def f_placeholder():
    return pick(["curl -H 'Authorization: Bearer <your-token>' https://api.example.com/v1/me", "API_KEY=<paste-your-key-here>",
                 "export OPENAI_API_KEY=sk-...your key...", "password: <YOUR_PASSWORD>", "token: YOUR_API_TOKEN_HERE"])


@fam("env-var-reference")
def f_envref():
    return pick(["STRIPE_SECRET_KEY=${STRIPE_SECRET_KEY}", "const key = process.env.OPENAI_API_KEY;", "token = os.environ['GITHUB_TOKEN']",
                 "password: \"${DB_PASSWORD:?must be set}\"", "-e SLACK_WEBHOOK_URL=$SLACK_WEBHOOK_URL", "$env:API_KEY = $Env:API_KEY_FROM_VAULT"])


@fam("ci-secrets-reference")
def f_ciref():
    return pick(["env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}", "variables:\n  DEPLOY_KEY: $CI_DEPLOY_KEY", "withCredentials([string(credentialsId: 'sonar-token', variable: 'SONAR_TOKEN')])"])


@fam("k8s-secretkeyref")
def f_skr():
    return "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password"


@fam("secret-manager-reference")
def f_smref():
    return pick([f"vault:secret/data/{pick(APPS)}/prod#password", "op://Private/AWS Prod/credential", f"arn:aws:secretsmanager:eu-west-1:{rs('d', 12)}:secret:prod/db-{rs('m', 6)}",
                 f"sm://projects/{rs('d', 12)}/secrets/stripe-key/versions/latest", "doppler run -- npm start", f"@Microsoft.KeyVault(SecretUri=https://kv-{rs('l', 6)}.vault.azure.net/secrets/api-key/)"])


@fam("changeme-default-values")
def f_changeme():
    return pick(["ADMIN_PASSWORD=changeme", "password: CHANGE_ME", "DB_PASS=your_password_here", "secret_key: \"replace-me\"", "DB_PASSWORD=\"<set-me>\"  # filled in by the deploy pipeline"])


@fam("aws-documented-example-keys")
def f_awsexample():
    return "from the AWS docs (example values): aws_access_key_id = AKIAIOSFODNN7EXAMPLE, aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"


@fam("example-marked-keys")
def f_exkey():
    return pick([f"e.g. GITHUB_TOKEN=ghp_EXAMPLE{'0' * 25} (docs placeholder)", "sample: sk_test_EXAMPLEONLYDONOTUSE", f"example value from the README: api_key=\"xxxxxxxxxxxxxxxxxxxxxxxx\"",
                 "EXAMPLE_TOKEN=00000000-0000-0000-0000-000000000000"])


@fam("published-test-card-numbers")
def f_testcard():
    c = pick(PUBLISHED_TEST_CARDS)
    return pick([f"Stripe test card {c}, any future date, any CVC", f"use test number {c} in the sandbox", f"QA: test card {c} should decline? no — it succeeds"])


@fam("jwt-io-example-token")
def f_jwtio():
    return ("the example token from jwt.io: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
            "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c " + pick(["(for the slides)", "— decodes to John Doe", "useful for testing the parser"]))


@fam("vault-transit-ciphertext")
def f_transit():
    return f"ciphertext: vault:v1:{b64(rb(R.randint(40, 80)))}"


@fam("sops-encrypted-value")
def f_sops():
    return f"db_password: ENC[AES256_GCM,data:{b64(rb(R.randint(12, 30)))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]"


@fam("age-armored-ciphertext", embed=False)
def f_agearm():
    return "-----BEGIN AGE ENCRYPTED FILE-----\n" + wrap(b64(b"age-encryption.org/v1\n-> X25519 " + rb(R.randint(120, 200))), 64) + "\n-----END AGE ENCRYPTED FILE-----"


@fam("pgp-encrypted-message", embed=False)
def f_pgpmsg():
    return "-----BEGIN PGP MESSAGE-----\n\n" + wrap(b64(b"\x85\x01\x0c\x03" + rb(R.randint(150, 260))), 64) + "\n=" + b64(rb(3)) + "\n-----END PGP MESSAGE-----"


@fam("ansible-vault-blob", embed=False)
def f_ansvault():
    return "$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(rs("h", 80) for _ in range(R.randint(3, 5)))


@fam("kms-ciphertext-blob")
def f_kms():
    return f"CiphertextBlob: AQICAH{b64(rb(R.randint(120, 170)))}"


@fam("sealed-secret-manifest", embed=False)
def f_sealed():
    return f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: db\nspec:\n  encryptedData:\n    password: AgB{b64(rb(R.randint(180, 260)))}"


@fam("fernet-token-ciphertext")
def f_fernet():
    return f"encrypted field (fernet, key not stored here): gAAAAAB{b64u(rb(R.randint(60, 100)))}"


@fam("openssl-salted-blob")
def f_salted():
    return f"backup.enc contents: U2FsdGVkX1{b64(rb(R.randint(40, 80)))}"


@fam("bcrypt-hash")
def f_bcrypt():
    return pick([f"users.password_hash = '{bcrypt_hash()}'", f"{username()}:{bcrypt_hash()}", f"hash: {bcrypt_hash()}"])


@fam("argon2-hash")
def f_argon():
    return f"$argon2id$v=19$m=65536,t=3,p=4${b64(rb(16)).rstrip('=')}${b64(rb(32)).rstrip('=')}"


@fam("sha512crypt-shadow-line")
def f_shadow():
    return f"{username()}:$6${rs(string.ascii_letters + string.digits + './', 16)}${rs(string.ascii_letters + string.digits + './', 86)}:19{rs('d', 3)}:0:99999:7:::"


@fam("htpasswd-apr1")
def f_apr1():
    return f"{username()}:$apr1${rs('m', 8)}${rs(string.ascii_letters + string.digits + './', 22)}"


@fam("django-pbkdf2-hash")
def f_djhash():
    return f"pbkdf2_sha256$870000${rs('m', 22)}${b64(rb(32))}"


@fam("werkzeug-password-hash")
def f_wzhash():
    return pick([f"scrypt:32768:8:1${rs('m', 16)}${rs('h', 128)}", f"pbkdf2:sha256:600000${rs('m', 16)}${rs('h', 64)}"])


@fam("ldap-ssha-hash")
def f_ssha():
    return f"userPassword: {{SSHA}}{b64(rb(24))}"


@fam("mysql-native-hash")
def f_myhash():
    return f"mysql.user authentication_string = *{rs('H', 40)}"


# --- innocuous encoded / technique-shaped text -----------------------------------------------
INNOCENT = ["happy birthday grandma", "see you at the lake at noon", "the cake is in the fridge", "don't forget the tent pegs",
            "meet at platform 4", "I love you, goodnight", "pizza friday!", "water the tomatoes", "congrats on the new job",
            "bring sunscreen and snacks", "the answer to the crossword is heron", "movie starts at eight", "call me when you land",
            "bus 42 to the museum", "thanks for the flowers", "the spare umbrella is by the door", "good luck on the exam"]


@fam("base64-innocuous")
def f_b64i():
    return pick(["decode this 😄 ", "secret message for Sam: ", "b64: ", ""]) + b64(pick(INNOCENT).encode())


@fam("base32-innocuous")
def f_b32i():
    return "puzzle hunt clue (base32): " + base64.b32encode(pick(INNOCENT).encode()).decode()


@fam("hex-innocuous")
def f_hexi():
    return "the kids' geocache clue in hex: " + pick(INNOCENT).encode().hex()


@fam("url-encoded-search")
def f_urlenc():
    q = pick(["best pho near me", "how to descale a kettle", "flights lisbon to porto", "vegan lasagna recipe"])
    return f"https://www.google.com/search?q={pct(q)}&hl=en"


@fam("html-entities-text")
def f_htmlent():
    return f"<p>Fish &amp; chips &mdash; &pound;{R.randint(8, 20)}.50 &lt;today only&gt;</p>"


@fam("unicode-escapes-text")
def f_uesci():
    return 'const greeting = "' + "".join(f"\\u{ord(c):04x}" for c in pick(["Grüße", "café", "naïve", "¡Hola!", "日本語"])) + '";'


@fam("rot13-spoiler")
def f_rot13i():
    return "spoiler (rot13): " + rot13(pick(["the butler did it", "they were siblings all along", "the dog survives", "it was all a dream"]))


@fam("rot47-innocuous")
def f_rot47i():
    return "rot47 for fun: " + rot47(pick(INNOCENT))


@fam("caesar-kids-puzzle")
def f_caesari():
    k = R.randint(1, 25)
    return f"treasure hunt clue, shift {k}: {caesar(pick(INNOCENT), k)}"


@fam("atbash-puzzle")
def f_atbashi():
    return "atbash riddle for class: " + atbash(pick(INNOCENT))


@fam("reversed-text")
def f_revi():
    return "mirror writing from Leo's card: " + pick(INNOCENT)[::-1]


@fam("char-codes-innocuous")
def f_cci():
    return "String.fromCharCode(" + ",".join(str(ord(c)) for c in pick(["hi mom", "hello", "ok", "lol"])) + ")  // prints a greeting"


@fam("binary-innocuous")
def f_bini():
    return "binary bracelet pattern: " + " ".join(f"{ord(c):08b}" for c in pick(["LOVE", "MIA", "JO", "HI"]))


@fam("morse-innocuous")
def f_morsei():
    return "morse practice: " + " / ".join(MORSE.get(c.upper(), c) for c in pick(["sos", "hello", "see you soon", "cq cq"]))


@fam("nato-spelling-name")
def f_natoi():
    nm = pick(LAST)
    return f"surname for the booking, spelled: " + " ".join(NATO[c.lower()] for c in nm if c.isalpha())


@fam("spelled-phone-number")
def f_spellphone():
    return "call back on " + " ".join(NUMWORDS["en"][int(c)] for c in ("07" + rs("d", 9)))


@fam("emoji-keycap-score")
def f_keycapi():
    return f"final score {''.join(EMOJI_KEYCAP[c] for c in str(R.randint(0, 9)))} - {''.join(EMOJI_KEYCAP[c] for c in str(R.randint(0, 9)))} ⚽"


@fam("roman-numerals")
def f_romani():
    return pick([f"Super Bowl LIX party at {name()}'s", f"chapter XIV notes", f"Louis XVI reading list", f"Rocky IV on tonight"])


@fam("math-homework")
def f_mathi():
    a, b = R.randint(2, 99), R.randint(2, 99)
    return f"homework: {a} + {b} = {a + b}, {a} × {b % 12} = {a * (b % 12)}, 3x + {b} = {3 * a + b} → x = {a}"


@fam("keypad-vanity-number")
def f_vanity():
    return pick(["florist: 1-800-FLOWERS", "call 1-800-GOT-JUNK for the old sofa", "the pizza place is 1-888-PIZZA-99"])


@fam("pi-mnemonic")
def f_pimn():
    return "pi mnemonic from school: \"How I want a drink, alcoholic of course, after the heavy lectures involving quantum mechanics\""


@fam("history-year-trivia")
def f_yeari():
    y, ev = pick(YEARS)
    return f"pub quiz answer: {ev} in {y}"


@fam("age-calculation")
def f_agei():
    y = R.randint(1940, 2010)
    return f"{name()} born {y} → turns {2026 - y} next year, party?"


@fam("split-fields-address")
def f_splitaddr():
    return {"line1": f"{R.randint(1, 200)} {pick(STREETS)}", "line2": f"Flat {R.randint(1, 30)}", "city": pick(CITIES), "postcode": rs("d", 5)}


@fam("list-items-recipe")
def f_recipe():
    return ["pancakes", f"{R.randint(1, 3)} cups flour", f"{R.randint(1, 3)} eggs", "pinch of salt", f"{R.randint(200, 400)} ml milk"]


@fam("spaced-out-shouting")
def f_spacedi():
    return " ".join(pick(["SO EXCITED", "HAPPY NEW YEAR", "WE WON", "NO WAY"]))


@fam("zero-width-joiner-emoji")
def f_zwj():
    return f"family photo caption: 👨\u200d👩\u200d👧\u200d👦 at the beach, {date_human()}"


@fam("homoglyph-mixed-script-name")
def f_homoi():
    return pick(["Сергей sent the photos", "meeting with Αλέξανδρος at 10", "Наталья's birthday dinner", "Ολυμπία café on the corner"])


@fam("fullwidth-japanese-text")
def f_fwi():
    return pick(["ＡＢＣマート で靴を買う", "会議室Ｂ２ 集合", "ポイント ３００ 獲得", "ｗｉｆｉ 繋がらない…再起動する"])


@fam("math-bold-bio")
def f_mboldi():
    return math_alpha(pick(["Coffee lover", "Runner and reader", "Plant mum"]), 0x1D400, 0x1D41A, 0x1D7CE) + " | " + pick(CITIES)


@fam("circled-numbers-list")
def f_circi():
    return "① pack ② lock windows ③ water plants ④ set alarm"


@fam("superscript-units")
def f_supi():
    return f"flat is {R.randint(40, 120)} m², balcony {R.randint(3, 12)} m², e = mc²"


@fam("zalgo-text")
def f_zalgo():
    return "".join(c + "\u0301\u0316" for c in pick(["spooky", "halloween", "boo"])) + " party invite"


@fam("acrostic-poem")
def f_acroi():
    w = pick(["MOM", "LOVE", "HOME", "TEA"])
    lines = {"M": "Mornings with you", "O": "Only the best", "L": "Laughing at nothing", "V": "Very late nights", "E": "Every single day",
             "H": "Happy little house", "T": "Toast with honey", "A": "Always there"}
    return "acrostic for the card:\n" + "\n".join(lines[c] for c in w)


@fam("braille-sign-text")
def f_braillei():
    w = pick(["exit", "lift", "toilet", "push"])
    return f"the sign by the lift says {''.join(BRAILLE_L[c] for c in w)} ({w})"


@fam("base85-innocuous")
def f_b85i():
    return "ascii85 in the puzzle book: " + base64.a85encode(pick(INNOCENT).encode(), adobe=True).decode()


@fam("quoted-printable-email")
def f_qpi():
    return "Content-Transfer-Encoding: quoted-printable\n\nBonjour, le caf=C3=A9 est pr=C3=AAt =E2=98=95"


@fam("uuencode-innocuous")
def f_uui():
    return "begin 644 note.txt\n" + binascii.b2a_uu(pick(INNOCENT).encode()).decode() + "`\nend"


@fam("zlib-base64-innocuous")
def f_zlibi():
    return f"zlib.decompress(base64.b64decode('{b64(zlib.compress(pick(INNOCENT).encode()))}'))  # test fixture text"


@fam("unicode-tag-innocuous")
def f_tagi():
    return "hi there" + "".join(chr(0xE0000 + ord(c)) for c in "hello") + " (unicode tag test string)"


@fam("variation-selector-emoji")
def f_vsi():
    return "love this ❤️ and this ☀️ and ✌️"


@fam("python-indentation")
def f_indent():
    return "def greet(name):\n    if name:\n\treturn f'hi {name}'\n    return 'hi'"


@fam("a1z26-puzzle")
def f_a1z26i():
    w = pick(["hello", "pizza", "beach", "happy"])
    return "kids puzzle (a=1): " + "-".join(str(ord(c) - 96) for c in w)


@fam("char-array-innocuous")
def f_charr():
    return "char[] vowels = {'a', 'e', 'i', 'o', 'u'};"


@fam("c-byte-array-magic")
def f_cbyte():
    return "static const uint8_t PNG_MAGIC[] = {0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A};"


@fam("printf-ansi-escapes")
def f_ansi():
    return "printf '\\033[1;32mOK\\033[0m\\n'   # green OK"


@fam("powershell-encoded-benign")
def f_psenc():
    cmd = pick(["Get-Date", "Get-ChildItem C:\\Users", "Write-Host hello"])
    return f"powershell -EncodedCommand {b64(cmd.encode('utf-16-le'))}  # just runs {cmd}"


# --- carriers without secrets -------------------------------------------------------
@fam("log-line-no-secret")
def f_logi():
    return f"{ts()} INFO  [{pick(APPS)}] request completed path=/api/v1/items status=200 latency={R.randint(3, 900)}ms user_id={R.randint(1000, 99999)}"


@fam("traceback-no-secret", embed=False)
def f_tbi():
    return (f"Traceback (most recent call last):\n  File \"/app/main.py\", line {R.randint(10, 300)}, in <module>\n    main()\n"
            f"  File \"/app/main.py\", line {R.randint(10, 300)}, in main\n    total = sum(items) / len(items)\nZeroDivisionError: division by zero")


@fam("java-stacktrace-no-creds", embed=False)
def f_jsti():
    return f"java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null\n\tat com.example.app.UserService.normalize(UserService.java:{R.randint(20, 300)})"


@fam("git-diff-no-secret", embed=False)
def f_diffi():
    return f"diff --git a/.env.example b/.env.example\n@@ -1,3 +1,4 @@\n LOG_LEVEL=info\n PORT=8080\n+STRIPE_SECRET_KEY=\n+SENTRY_DSN="


@fam("git-commit-rotate-talk")
def f_commiti():
    return f"commit {rs('h', 40)}\n\n    chore: read API key from env, remove hardcoded fallback (key already rotated)"


@fam("har-entry-no-auth")
def f_hari():
    return {"log": {"entries": [{"request": {"method": "GET", "url": f"https://www.example.com/assets/app.{rs('h', 8)}.js",
                                              "headers": [{"name": "Accept", "value": "*/*"}, {"name": "Accept-Language", "value": "en-GB"}]},
                                  "response": {"status": 200}}]}}


@fam("curl-verbose-no-auth", embed=False)
def f_curlvi():
    return f"> GET /health HTTP/2\n> Host: {pick(APPS)}.example.com\n> user-agent: curl/8.5.0\n> accept: */*\n>\n< HTTP/2 200\n< content-type: application/json"


@fam("cookie-header-preferences")
def f_cookiei():
    return f"Cookie: theme=dark; lang=en-GB; consent=analytics:false; _ga=GA1.2.{rs('d', 9)}.{rs('d', 10)}"


@fam("set-cookie-consent")
def f_setcookiei():
    return "Set-Cookie: cookie_consent=accepted; Path=/; Max-Age=31536000; SameSite=Lax"


@fam("netrc-no-password")
def f_netrci():
    return f"machine {pick(['github.com', 'api.heroku.com'])}\n  login {username()}\n# password is provided by the credential helper"


@fam("git-credential-helper-config")
def f_gitcredi():
    return "[credential]\n\thelper = osxkeychain\n[url \"git@github.com:\"]\n\tinsteadOf = https://github.com/"


@fam("docker-config-credstore")
def f_dockercfgi():
    return json.dumps({"auths": {"ghcr.io": {}, "https://index.docker.io/v1/": {}}, "credsStore": "desktop"}, indent=2)


@fam("kubeconfig-exec-plugin", embed=False)
def f_kubecfgi():
    return ("users:\n- name: eks-admin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: aws\n"
            f"      args: [\"eks\", \"get-token\", \"--cluster-name\", \"{pick(APPS)}\"]")


@fam("npmrc-env-reference")
def f_npmrci():
    return "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\nsave-exact=true"


@fam("pypirc-no-password")
def f_pypirci():
    return "[pypi]\nusername = __token__\n# password comes from keyring"


@fam("pip-conf-public-index")
def f_pipi():
    return "[global]\nindex-url = https://pypi.org/simple\ntimeout = 60"


@fam("maven-settings-env-ref", embed=False)
def f_maveni():
    return "<server>\n  <id>releases</id>\n  <username>${env.MAVEN_USER}</username>\n  <password>${env.MAVEN_PASSWORD}</password>\n</server>"


@fam("aws-config-region-only")
def f_awscfgi():
    return f"[profile {pick(['dev', 'prod', 'sandbox'])}]\nregion = {pick(['eu-west-1', 'us-east-1'])}\nsso_start_url = https://{rs('l', 6)}.awsapps.com/start\nsso_role_name = ReadOnly"


@fam("ssh-command-keyfile")
def f_sshi():
    return f"ssh -i ~/.ssh/id_ed25519 -p 2222 {username()}@{hostname()}"


@fam("mysql-cli-prompt")
def f_mysqli():
    return f"mysql -h {hostname()} -u {pick(['app', 'readonly'])} -p   # prompts for the password"


@fam("psql-no-password")
def f_psqli():
    return f"psql \"host={hostname()} dbname=app user=readonly sslmode=require\"  # uses ~/.pgpass"


@fam("redis-cli-no-auth")
def f_redisi():
    return "redis-cli -h localhost -p 6379 INFO memory"


@fam("password-manager-export-no-passwords")
def f_pmi():
    return f"name,url,username\n{rs('l', 6)}.com,https://{rs('l', 6)}.com/login,{username()}\nbank,https://bank.example,{username()}"


@fam("otpauth-redacted")
def f_otpi():
    return f"otpauth://totp/GitHub:{username()}?secret=REDACTED&issuer=GitHub"


@fam("wifi-qr-open-network")
def f_wifiqri():
    return f"WIFI:T:nopass;S:{pick(['CafeGuest', 'Library-Free', 'Airport_Free_WiFi', 'Museum Visitors'])};;"


@fam("vcard-ordinary")
def f_vcardi():
    return f"BEGIN:VCARD\nVERSION:3.0\nFN:{fullname()}\nTEL;TYPE=cell:{phone()}\nEMAIL:{email_addr()}\nEND:VCARD"


@fam("ical-ordinary")
def f_icali():
    return f"BEGIN:VEVENT\nSUMMARY:{pick(['Dentist', 'Parents evening', 'Team lunch'])}\nDTSTART:{date_iso().replace('-', '')}T{R.randint(8, 18):02d}0000\nLOCATION:{pick(CITIES)}\nEND:VEVENT"


@fam("mime-attachment-innocuous", embed=False)
def f_mimei():
    return f"Content-Type: text/plain; name=\"shopping.txt\"\nContent-Transfer-Encoding: base64\n\n{b64(b'eggs, milk, bread, apples')}"


@fam("email-forward-ordinary")
def f_fwdi():
    return f"> > see you at the {pick(['match', 'recital', 'BBQ'])} on saturday!\n> lovely\nfwd from {name()}"


@fam("data-uri-image")
def f_datai():
    return f"<img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mN{rs('w', 10)}AAAAABJRU5ErkJggg==\">"


@fam("url-utm-params")
def f_utm():
    return f"https://shop.example.com/sale?utm_source=newsletter&utm_medium=email&utm_campaign={pick(['spring', 'bf', 'summer'])}{R.randint(23, 26)}&gclid={rs('w', 30)}"


@fam("url-fragment-anchor")
def f_frag():
    return f"https://docs.example.com/guide/install#{pick(['step-3-configure', 'troubleshooting', 'faq'])}"


@fam("git-remote-ssh-url")
def f_gitremote():
    return f"git remote add origin git@github.com:{pick(FIRST).lower()}/{pick(APPS)}.git"


@fam("mailto-ordinary")
def f_mailtoi():
    return f"mailto:{email_addr()}?subject={pct('RSVP for Saturday')}&body={pct('count us in, 3 people')}"


@fam("excel-formula-ordinary")
def f_exceli():
    return pick(['=CONCAT(A2;" ";B2)', "=SUM(C2:C40)*1.2", '=VLOOKUP(E2;Prices!A:B;2;FALSE)', '=IF(D2>100;"over";"ok")'])


@fam("spreadsheet-ordinary")
def f_sheeti():
    return [["", "A", "B"], ["1", "item", "cost"], ["2", "tent", money()], ["3", "stove", money()], ["4", "total", "=SUM(B2:B3)"]]


@fam("jupyter-output-ordinary")
def f_jupi():
    return {"cell_type": "code", "source": ["df.shape"], "outputs": [{"output_type": "execute_result", "data": {"text/plain": [f"({R.randint(100, 99999)}, {R.randint(3, 40)})"]}}]}


@fam("terraform-state-outputs")
def f_tfi():
    return {"version": 4, "outputs": {"bucket_name": {"value": f"{pick(APPS)}-assets", "type": "string"},
                                      "lb_dns": {"value": f"{pick(APPS)}-{rs('d', 9)}.eu-west-1.elb.amazonaws.com", "type": "string"}}}


@fam("ci-log-masked", embed=False)
def f_cilogi():
    return "##[group]Run ./deploy.sh\n+ echo \"using DEPLOY_TOKEN=***\"\nusing DEPLOY_TOKEN=***\n##[endgroup]"


@fam("dockerfile-arg-no-default", embed=False)
def f_dockargi():
    return "FROM node:20-alpine\nARG NPM_TOKEN\nRUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci"


@fam("crontab-ordinary")
def f_croni():
    return f"0 3 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1\n*/5 * * * * /usr/bin/php /var/www/cron.php"


@fam("powershell-read-host")
def f_psi():
    return "$pw = Read-Host -AsSecureString 'Enter the service password'\n$cred = New-Object PSCredential('svc_backup', $pw)"


@fam("cmdkey-list-output")
def f_cmdkeyi():
    return "Currently stored credentials:\n\n    Target: Domain:target=fileserver01\n    Type: Domain Password\n    User: CORP\\jdoe"


@fam("registry-export-ordinary", embed=False)
def f_regi():
    return "Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\Notepad++]\n\"Theme\"=\"Obsidian\"\n\"TabSize\"=dword:00000004"


@fam("sql-insert-hashed-password")
def f_sqli():
    return f"INSERT INTO users (email, password_hash) VALUES ('{email_addr()}', '{bcrypt_hash()}');"


@fam("sql-grant-no-password")
def f_granti():
    return f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO readonly;  -- role already exists"


@fam("ps-aux-ordinary")
def f_psauxi():
    return f"USER  PID %CPU COMMAND\napp  {R.randint(100, 30000)}  0.3 /usr/bin/node server.js --port 8080\npostgres {R.randint(100, 30000)} 0.1 postgres: checkpointer"


@fam("docker-inspect-no-secret")
def f_dinspi():
    return [{"Id": rs("h", 64), "Config": {"Image": "nginx:1.27", "Env": ["PATH=/usr/local/sbin:/usr/local/bin", "NGINX_VERSION=1.27.0", "TZ=UTC"]}}]


@fam("postman-collection-var-ref")
def f_postmani():
    return {"info": {"name": "orders API"}, "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "{{access_token}}", "type": "string"}]}}


@fam("graphql-no-auth")
def f_gqli():
    return json.dumps({"query": "query { countries { code name } }", "variables": {}})


@fam("mqtt-anonymous")
def f_mqtti():
    return "mosquitto_sub -h test.mosquitto.org -t 'home/+/temperature' -v"


@fam("heredoc-env-non-secret", embed=False)
def f_heredoci():
    return "cat > .env <<'EOF'\nAPP_ENV=production\nLOG_LEVEL=warn\nPORT=8080\nEOF"


@fam("ansible-inventory-vault-ref")
def f_ansinvi():
    return "[web]\nweb01.example.com ansible_user=deploy ansible_password=\"{{ vault_web_password }}\""


@fam("keytool-prompted")
def f_keytooli():
    return "keytool -genkeypair -alias upload -keyalg RSA -keysize 2048 -validity 10000 -keystore upload.jks  # asks for the password"


@fam("gradle-signing-env")
def f_gradlei():
    return "storePassword System.getenv(\"KEYSTORE_PASSWORD\")\nkeyPassword System.getenv(\"KEY_PASSWORD\")"


@fam("printenv-no-secrets")
def f_printenvi():
    return f"$ printenv\nHOME=/home/app\nLANG=C.UTF-8\nPATH=/usr/local/bin:/usr/bin\nHOSTNAME={rs('h', 12)}"


@fam("k8s-configmap-base64", embed=False)
def f_cmb64():
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: banner\nbinaryData:\n  motd.txt: {b64(pick(INNOCENT).encode())}"


@fam("kubectl-secret-sops-encrypted", embed=False)
def f_ksops():
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: ENC[AES256_GCM,data:{b64(rb(16))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]\nsops:\n  age:\n  - recipient: age1{bech(58)}"


@fam("srt-subtitle-ordinary", embed=False)
def f_srti():
    return f"12\n00:01:02,200 --> 00:01:04,900\nThe train leaves at {time_h()}.\n\n13\n00:01:05,000 --> 00:01:07,500\nDon't miss it."


@fam("ascii-box-note")
def f_boxi():
    t = f" {pick(['back at 2pm', 'door is stiff, push hard', 'parcel for no. 12'])} "
    return "+" + "-" * len(t) + "+\n|" + t + "|\n+" + "-" * len(t) + "+"


@fam("chat-multi-turn-ordinary")
def f_chati():
    a, b = name(), name()
    return [f"{a}: are we still on for {pick(DAYS)}?", f"{b}: yes! {time_h()} at the usual place", f"{a}: 👍"]


@fam("env-file-empty-values", embed=False)
def f_envempty():
    return "# copy to .env and fill in\nSTRIPE_SECRET_KEY=\nOPENAI_API_KEY=\nDATABASE_URL=postgres://user:password@localhost:5432/app"


@fam("connection-url-no-credentials")
def f_connnocred():
    return pick(["DATABASE_URL=postgres://localhost:5432/app", "REDIS_URL=redis://cache.internal:6379/0", "mongodb://mongo-0.mongo:27017/?replicaSet=rs0"])


@fam("http-request-no-auth", embed=False)
def f_httpi():
    return f"GET /v1/status HTTP/1.1\nHost: api.{rs('l', 6)}.com\nAccept: application/json\nUser-Agent: curl/8.5.0"


# --- homonyms ---------------------------------------------------------------------------
@fam("dress-code")
def f_dress():
    return f"dress code for {name()}'s wedding: {pick(['black tie', 'smart casual', 'beach formal'])}"


@fam("zip-postal-code")
def f_zip():
    return f"zip code for the form: {rs('d', 5)}" if chance(0.5) else f"postcode {rs('u', 2)}{R.randint(1, 20)} {R.randint(1, 9)}{rs('u', 2)}"


@fam("area-country-code")
def f_area():
    return f"area code {R.randint(201, 989)}, country code +{pick(['44', '49', '234', '81', '55'])}"


@fam("error-code")
def f_err():
    return pick([f"printer shows error code E{R.randint(10, 99)}", f"Windows update failed with 0x800{rs('H', 5)}", f"dishwasher code F{R.randint(1, 30)} again"])


@fam("http-status-code")
def f_http():
    return f"site returns {pick([404, 500, 502, 503, 429])} since {time_h()}"


@fam("public-promo-code")
def f_promo():
    return f"podcast ad said promo code {pick(['PODCAST', 'SPRING', 'WELCOME'])}{R.randint(10, 30)} for {R.randint(10, 30)}% off (public code)"


@fam("cheat-code")
def f_cheat():
    return pick(["konami code ↑↑↓↓←→←→BA still works lol", "GTA cheat: R1 R2 L1 X ← ↓ → ↑ ← ↓ → ↑", "sims cheat: motherlode"])


@fam("code-review-talk")
def f_cr():
    return f"code review for PR #{R.randint(100, 9999)} tomorrow at {time_h()}"


@fam("icd10-diagnosis-code")
def f_icd():
    return f"insurance form diagnosis code {pick(['J45.909', 'M54.5', 'S93.401A', 'E55.9'])}"


@fam("airport-code")
def f_airport():
    return f"flying {pick(['LIS', 'OPO', 'LHR', 'NBO', 'KIX', 'DEN'])} → {pick(['BCN', 'CDG', 'AMS', 'JFK', 'SYD'])}"


@fam("hs-tariff-code")
def f_hs():
    return f"customs form HS code {rs('d', 4)}.{rs('d', 2)} (ceramic mugs)"


@fam("qr-morse-source-code-mentions")
def f_codementions():
    return pick(["scan the QR code on the menu", "learned some morse code at scouts", "source code is on GitHub", "the Da Vinci Code was meh"])


@fam("pin-on-map")
def f_pinmap():
    return f"dropped a pin at the trailhead, {R.randint(1, 9)} km from the car park"


@fam("bowling-pins")
def f_bowling():
    return f"knocked down {R.randint(1, 10)} pins, score {R.randint(90, 220)} 🎳"


@fam("pinned-message")
def f_pinned():
    return f"pinned message in the group: {pick(['bring your own cup', 'rota for the cleaning', 'new meeting time'])}"


@fam("enamel-pin-collection")
def f_pinbadge():
    return f"bought {R.randint(2, 6)} enamel pins at the con, {money()}"


@fam("gpio-pin")
def f_gpio():
    return f"LED on GPIO pin {R.randint(2, 27)}, button on pin {R.randint(2, 27)}"


@fam("music-key")
def f_musickey():
    return f"song is in the key of {pick(['D minor', 'E flat', 'G major', 'A minor'])}, capo {R.randint(1, 5)}"


@fam("key-lime-pie")
def f_keylime():
    return f"key lime pie recipe: {R.randint(3, 5)} limes, condensed milk, digestive base"


@fam("keyboard-shortcut")
def f_kbd():
    return pick(["shortcut: Ctrl+Shift+K deletes the line", "Cmd+Option+Esc to force quit", "Win+Shift+S for screenshots"])


@fam("house-key-cutting")
def f_keycut():
    return f"got {R.randint(2, 4)} copies of the house key cut at the market, {money()}"


@fam("car-keyfob-battery")
def f_keyfob():
    return f"car key fob needs a CR2032 battery"


@fam("database-primary-key")
def f_pk():
    return "orders.id is the primary key, customer_id is a foreign key to customers"


@fam("arcade-token")
def f_arcade():
    return f"kids used {R.randint(10, 60)} tokens at the arcade"


@fam("llm-token-count")
def f_llmtok():
    return f"prompt was {R.randint(1000, 90000)} tokens, output {R.randint(100, 4000)} tokens"


@fam("crypto-token-name")
def f_cryptotok():
    return f"{pick(['UNI', 'LINK', 'ARB'])} token up {R.randint(1, 30)}% today"


@fam("bus-transit-pass")
def f_buspass():
    return f"monthly bus pass renewed, card number {rs('d', 10)}"


@fam("boarding-pass")
def f_boarding():
    return f"boarding pass: gate {pick('ABCD')}{R.randint(1, 40)}, boarding {time_h()}, seat {R.randint(1, 40)}{pick('ABCDEF')}"


@fam("mountain-pass")
def f_mpass():
    return f"drove over the {pick(['Stelvio', 'Furka', 'Gotthard', 'Khardung La'])} pass, {R.randint(1800, 5400)} m"


@fam("season-pass-number")
def f_season():
    return f"ski season pass no. {rs('d', 8)} valid until April"


@fam("secret-santa")
def f_santa():
    return f"secret santa: I got {name()}, budget {money()}"


@fam("secret-recipe")
def f_secretrec():
    return f"the secret ingredient in grandma's stew is {pick(['a spoon of marmite', 'smoked paprika', 'anchovies'])}"


@fam("garden-seeds")
def f_seeds():
    return f"sow the tomato seeds indoors in {pick(MONTHS)}, basil seeds in {pick(MONTHS)}"


@fam("random-seed-config")
def f_rseed():
    return f"training config: seed={R.randint(0, 99999)}, lr=3e-4, batch_size={pick([16, 32, 64])}"


@fam("tournament-seed")
def f_tseed():
    return f"she's the #{R.randint(1, 16)} seed at the tournament"


@fam("proofreading-pass")
def f_proof():
    return f"second proofreading pass done on chapter {R.randint(1, 20)}"


# --- numbers beside credential words -----------------------------------------------------
@fam("gate-number-flight")
def f_gatenum():
    return f"flight {rs('u', 2)} {R.randint(100, 9999)} leaves from gate {pick('ABCDE')}{R.randint(1, 60)} at {time_h()}"


@fam("room-number")
def f_room():
    return f"hotel room {R.randint(101, 1299)}, breakfast 7-10"


@fam("locker-number-no-code")
def f_locker():
    return f"my locker at the gym is number {R.randint(1, 300)} (the padlock is the key kind)"


@fam("apartment-door-number")
def f_door():
    return f"door 4{pick('ABCD')}, second floor, ring twice"


@fam("game-score")
def f_score():
    return f"scrabble scores: me {R.randint(150, 450)}, {name()} {R.randint(150, 450)}"


@fam("price-number")
def f_price():
    return f"new code editor license {money()}/year, pass on it"


@fam("model-number")
def f_model():
    return f"router model {pick(['AX', 'RT', 'DSL'])}-{R.randint(1000, 9999)}{pick(['', 'E', 'v2'])}, firmware {R.randint(1, 9)}.{R.randint(0, 9)}.{R.randint(0, 99)}"


@fam("phone-extension")
def f_ext():
    return f"reception ext. {R.randint(100, 999)}, IT helpdesk ext. {R.randint(1000, 9999)}"


@fam("build-version-number")
def f_build():
    return f"build {R.randint(1000, 99999)} of v{R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)} passed"


@fam("part-number")
def f_part():
    return f"replacement filter part no. {rs('A', 3)}-{rs('d', 5)}-{rs('d', 2)}"


@fam("temperature-reading")
def f_temp():
    return f"oven {R.randint(160, 240)}°C for {R.randint(20, 90)} min; fridge at {R.randint(2, 6)}°C"


@fam("odometer-tire-pressure")
def f_odo():
    return f"odometer {R.randint(10000, 250000)} km, tyres {R.randint(30, 38)} psi front / {R.randint(30, 38)} rear"


@fam("pin-shaped-non-credential")
def f_pinshape():
    return pick([f"bus {R.randint(1000, 9999)} was cancelled", f"4-digit year on the coin: {R.randint(1900, 2024)}", f"{R.randint(1000, 9999)} steps before lunch",
                 f"train {R.randint(1000, 9999)} delayed"])


# --- credential talk without the value ------------------------------------------------------
TALK_EN = [
    "I changed my bank PIN yesterday", "the wifi password is on the fridge", "rotate the Stripe key next week",
    "remind me to reset my Apple ID password", "the door code changed again, ask {name} for the new one",
    "I never remember which security question answer I used", "turned on 2FA for email, backup codes are printed and in the drawer",
    "the gate code is written on the back of the welcome card", "need a new password manager, 1Password renewal is {money}",
    "bank says they will never ask for your PIN by phone", "got a {money} gift card from work, haven't redeemed it",
    "seed phrase is in the safe deposit box, not online", "my card expires next month, new one should arrive soon",
    "IT forced a password change, must be 14+ chars now", "the alarm company is coming to reset the code on {day}",
    "lost my phone, had to use a recovery code to get into Google", "the OTP text never arrived, tried three times",
    "ticket: rotate all API keys that were in the old repo", "password hint is useless, it just says 'usual'",
    "don't put the vault token in Slack, use the secrets manager", "{name} will text me the lockbox code when we land",
]


@fam("credential-talk-en")
def f_talken():
    return pick(TALK_EN).format(name=name(), money=money(), day=pick(DAYS))


@fam("password-policy-text")
def f_policy():
    return f"Password policy: at least {pick([12, 14, 16])} characters, no reuse of last {R.randint(3, 24)} passwords, rotate every {pick([90, 180, 365])} days."


@fam("security-awareness")
def f_aware():
    return pick(["Phishing test today — never type your password into a link from email", "Reminder: lock your screen (Win+L) when you leave your desk",
                 "Never share one-time codes with anyone, not even 'support'"])


@fam("key-rotation-ticket")
def f_rotate():
    return f"[SEC-{R.randint(100, 9999)}] Rotate {pick(['SendGrid', 'Datadog', 'GitHub', 'AWS'])} credentials for {pick(APPS)} — owner {name()}, due {date_human()}"


@fam("key-hex-room-number")
def f_keyroom():
    room = f"room {R.randint(100, 999)}"
    return ("_key", "mem_" + room.encode().hex(), pick(["hotel room number is hex-encoded in this memory's key, ha", "the key of this memory spells the room number in hex"]))


@fam("namespace-trip-reference")
def f_nstrip():
    ref = f"trip-{rs('d', 4)}"
    return ("_ns3", ref, "the itinerary for this trip is filed under the folder name")


for _code, (_lname, _txt) in LANGS.items():
    def _mk_talk(code, txt):
        def fn():
            return txt[10 + R.randrange(3)]
        return fn
    fam(f"credential-talk-{_code}")(_mk_talk(_code, _txt))


# ---------------------------------------------------------------------------
# ordinary (benign/plain) English memories
# ---------------------------------------------------------------------------
def octx():
    return {"name": name(), "name2": name(), "day": pick(DAYS), "t": time_h(), "t2": time_h(), "date": date_human(),
            "n": R.randint(2, 12), "n2": R.randint(10, 95), "money": money(), "city": pick(CITIES), "city2": pick(CITIES),
            "store": pick(STORES), "km": R.randint(5000, 180000), "iso": date_iso(), "street": f"{R.randint(1, 200)} {pick(STREETS)}",
            "pet": pick(PETS), "app": pick(APPS), "ids": ", ".join(str(R.randint(1000, 99999)) for _ in range(R.randint(2, 5))),
            "flight": f"{rs('u', 2)}{R.randint(100, 2999)}", "seat": f"{R.randint(1, 40)}{pick('ABCDEF')}",
            "fullname": fullname(), "pct": R.randint(5, 60), "min": R.randint(10, 90)}


def oform_library(c):
    return {"form": "Library membership", "name": c["fullname"], "preferred_branch": c["city"], "newsletter": chance(0.5)}


def oform_rsvp(c):
    return {"form": "RSVP", "guest": c["fullname"], "attending": True, "plus_one": chance(0.5), "dietary": pick(["vegetarian", "none", "no nuts"])}


def oform_vet(c):
    return {"form": "Vet registration", "pet_name": c["pet"], "species": pick(["cat", "dog", "rabbit"]), "age_years": c["n"], "owner": c["fullname"]}


EN_ORDINARY = [
    ("notes", "dentist moved to {day} {t} — bring the insurance card"),
    ("notes", "ideas for {name}'s birthday: pottery class, a {store} voucher, that board game"),
    ("list", "groceries:\n- oat milk\n- {n} eggs\n- spinach\n- coffee beans\n- dish soap"),
    ("chat", "{name}: running {min} min late, start without me"),
    ("chat", "can you grab the kids at {t}? stuck in a meeting"),
    ("email", "Subject: Team offsite\n\nHi all,\n\nthe offsite is confirmed for {date} in {city}. Please book trains by Friday.\n\nThanks,\n{name}"),
    ("calendar", "{day} {t} – standup\n{day} {t2} – 1:1 with {name}\n{day} 18:00 – gym"),
    ("notes", "car: oil change due at {km} km, tyres rotated {date}"),
    ("notes", "blood pressure this morning 12{n}/8{n}, pulse 6{n} — better than last week"),
    ("notes", "{name}'s allergies: peanuts + penicillin. EpiPen in the blue bag."),
    ("notes", "plant watering: fern every 3 days, cactus every 2 weeks, orchid ice cube on sundays"),
    ("journal", "{date}\nlong run today, {n} km… knees ok. made lentil soup, called {name}"),
    ("voice-memo", "Voice memo: ask {name} about the quote for the kitchen tiles, they said around {money}"),
    ("sms-forward", "Fwd from {name}: dinner at ours on {day}? 7ish, bring nothing"),
    ("form", oform_library), ("form", oform_rsvp), ("form", oform_vet),
    ("sql", "SELECT city, COUNT(*) FROM customers WHERE signup_date >= '{iso}' GROUP BY city ORDER BY 2 DESC;"),
    ("sql", "UPDATE orders SET status = 'shipped' WHERE id IN ({ids});"),
    ("sql", "CREATE INDEX CONCURRENTLY idx_orders_created ON orders (created_at);"),
    ("notes", "flight {flight} {city}→{city2}, departs {t}, seat {seat}"),
    ("notes", "hotel in {city}: check-in after 3pm, breakfast included, {street}"),
    ("list", "packing:\n- passport\n- chargers\n- {n} t-shirts\n- rain jacket\n- snacks for the train"),
    ("chat", "{name}: did you see the match? {n}-{n} what a game"),
    ("email", "Subject: Invoice {ids}\n\nHello,\n\nplease find attached the invoice for {date}. Payment within 30 days.\n\nKind regards,\n{fullname}"),
    ("notes", "book club: next book is due {date}, meeting at {name}'s"),
    ("notes", "kids' school: pickup {t} on {day}, swimming kit on thursdays"),
    ("notes", "recipe: roast {n} carrots at 200°C for 30 min, honey + cumin"),
    ("calendar", "{date}: mum's birthday 🎂\n{date}: pay council tax\n{date}: car MOT"),
    ("notes", "budget {date}: rent {money}, groceries {money}, savings {pct}%"),
    ("notes", "electricity meter reading {km} on {date}"),
    ("chat", "landlord says the boiler guy comes {day} between {t} and {t2}"),
    ("journal", "slept badly again. {n} cups of coffee is too many. try chamomile tonight."),
    ("notes", "vet: {pet} due for vaccines in {date}, weight {n}.{n} kg"),
    ("notes", "garden: plant tulip bulbs before the frost, prune the roses in {date}"),
    ("voice-memo", "Transcript: note to self, the parking at the stadium is in lot {n}, row {n2}"),
    ("email", "Subject: Re: weekend plans\n\nSounds great! We'll bring the salad. See you {day} around {t}.\n\n{name}"),
    ("notes", "work: finish the Q{n} report, send slides to {name} by {day}"),
    ("notes", "meeting notes {date}: decided to move launch to {date}, {name} owns QA"),
    ("ticket", "[{app}] Button misaligned on the checkout page in Safari — steps: open cart, resize to 768px"),
    ("ticket", "[SUP-{n2}] Customer can't upload PDFs larger than {n} MB — suggest raising the limit"),
    ("chat", "{name}: lunch at the noodle place? {t}"),
    ("list", "weekend:\n1. farmers market\n2. fix the bike chain\n3. call {name}\n4. laundry"),
    ("notes", "running PB: 5k in 2{n}:{n2}"),
    ("notes", "bought a new desk lamp at {store} for {money}, receipt in the drawer"),
    ("notes", "{name}'s wedding {date} in {city}, hotel booked, gift from the registry"),
    ("sms-forward", "Fwd: Your parcel from {store} will arrive {day} between {t} and {t2}"),
    ("sms-forward", "Fwd from {name}: the bus is diverted, take the {n2} instead"),
    ("notes", "insurance renewal quote {money}, last year {money} — shop around"),
    ("notes", "learned today: sourdough needs a {n}-hour cold proof"),
    ("calendar", "Recurring: piano lesson every {day} {t}, {n} weeks left"),
    ("chat", "ok {name}, the film starts {t}, I'll get popcorn"),
    ("email", "Subject: Parents' evening\n\nDear parents, parents' evening is on {date} from {t}. Please book a slot online.\n\nSchool office"),
    ("notes", "medication: vitamin D 1000 IU daily, magnesium before bed"),
    ("notes", "fix: leaking tap in the bathroom, washer size {n} mm"),
    ("journal", "{date} — {city} trip day {n}. walked {n2} km, amazing pastries, rain in the afternoon"),
    ("notes", "{app} retro: more tests around the importer, fewer meetings on {day}"),
    ("sql", "SELECT product_id, SUM(qty) AS sold FROM order_items WHERE created_at > now() - interval '{n} days' GROUP BY 1;"),
    ("notes", "tomorrow: {t} yoga, {t2} call with {name}, evening free"),
    ("notes", "hobby: need {n} more skeins of wool for the blanket, colour 'moss'"),
    ("chat", "{name}: can I borrow your ladder on {day}?"),
    ("notes", "car wash + vacuum {money}, next service in {km} km"),
    ("notes", "{name} recommends the podcast about octopuses, episode {n2}"),
    ("voice-memo", "Voice memo: idea for the garden — raised beds along the fence, maybe {n} of them"),
    ("list", "hardware store:\n- wood glue\n- {n} hinges\n- sandpaper 120 grit\n- light bulbs E27"),
    ("notes", "shopping: {store} has the sofa on sale, {pct}% off until {date}"),
    ("email", "Subject: Booking confirmation\n\nThank you for booking a table for {n} on {date} at {t}.\n\nThe Olive Tree"),
    ("notes", "stock check: pasta {n}, rice {n}, tinned tomatoes {n2}"),
    ("calendar", "{day}: bin day (recycling)\n{day}: window cleaner\n{day}: {name} visiting"),
    ("notes", "tax: send receipts for home office to the accountant before {date}"),
    ("chat", "{name}: the baby slept {n} hours straight!! 🎉"),
    ("journal", "first day at the new job. team seems kind. {name} showed me around."),
    ("notes", "travel: {city} museum closed on {day}s, buy tickets online"),
    ("notes", "doctor said to walk {n2} min a day and cut salt"),
    ("sms-forward", "Fwd: Reminder — your appointment with Dr {name} is on {date} at {t}"),
    ("notes", "{pet} hates the new food, switch back to the salmon one"),
    ("ticket", "[HOME-{n2}] Replace smoke alarm battery in the hallway"),
    ("notes", "fuel: {n2} litres for {money}, {km} km on the clock"),
    ("notes", "friends' kids: {name} is {n}, {name2} is {n2} months — gifts for xmas"),
]


def gen_ordinary_en():
    src, t = pick(EN_ORDINARY)
    c = octx()
    v = t(c) if callable(t) else t.format(**c)
    return src, v


# ---------------------------------------------------------------------------
# record generation
# ---------------------------------------------------------------------------
MAXLEN = 1500
RAWMAX = 1380
SEEN = set()


def canon(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


def slen(v):
    return len(json.dumps(v, ensure_ascii=False))


def take_unique(gen, tries=40):
    last = None
    for _ in range(tries):
        out = gen()
        v = out[0] if isinstance(out, tuple) else out
        if slen(v) > RAWMAX:
            continue
        last = out
        c = canon(v)
        if c not in SEEN:
            SEEN.add(c)
            return out
    return last


def mkrec(label, variant, segment, kind, value, lang="en", fix=False, meta=None):
    return {"label": label, "variant": variant, "segment": segment, "kind": kind, "value": value, "lang": lang,
            "fix": fix, "meta": meta or {}}


N_VENDOR = 540
N_PERS_EN_ROUNDS = 2
N_HARD = 415
N_BPLAIN_EN = 215
N_BPLAIN_CONT = 100
N_BHARD_OTHER = 680
EMBED_P = 0.34


def gen_vendor_plain():
    out = []
    fmts = FORMATS[:]
    R.shuffle(fmts)
    conts = list(CONTAINERS)
    order = []
    while len(order) < N_VENDOR:
        cc = conts[:]
        R.shuffle(cc)
        order += cc
    for i, f in enumerate(fmts[:N_VENDOR]):
        want = order[i]

        def g(f=f, want=want):
            sp = [(k, T(t)) for k, t in f["pairs"]]
            c = want if compatible(want, sp) else pick([x for x in conts if compatible(x, sp)])
            pairs = list(sp)
            if c not in HTTP_ONLY:
                for p in innoc_pairs(R.choice([0, 0, 0, 0, 0, 1, 2])):
                    pairs.insert(R.randint(0, len(pairs)), p)
            ctx = {"vendor": f["vendor"], "main": sp[-1][0]}
            return CONTAINERS[c](pairs, ctx), c
        v, c = take_unique(g)
        out.append(mkrec("secret", "plain", c, f["kind"], v, meta={"vendor": f["vendor"], "cat": f["cat"], "format": f["kind"]}))
    return out


def gen_personal_plain():
    out = []
    tl = EN_PERSONAL * N_PERS_EN_ROUNDS
    R.shuffle(tl)
    for kind, src, tmpl in tl:
        def g(kind=kind, tmpl=tmpl):
            c = pctx()
            v = PV[kind]()
            return tmpl(c, v) if callable(tmpl) else tmpl.format(v=v, **c)
        out.append(mkrec("secret", "plain", src, kind, take_unique(g)))
    for code, (lname, txt) in LANGS.items():
        for i, (kind, src) in enumerate(LANG_SEC_KINDS):
            def g(kind=kind, t=txt[i]):
                c = pctx()
                return t.format(v=PV[kind](), email=c["email"], card=c["card"], exp=c["exp"], cvv=c["cvv"])
            out.append(mkrec("secret", "plain", f"{src}-{code}", kind, take_unique(g), lang=code))
    return out


def maybe_embed(v, p):
    if isinstance(v, str) and chance(p):
        return fill_frame(pick(NOTE_FRAMES), v), True
    return v, False


def gen_hard_secret():
    out = []
    special = {"key-hex-suffix", "namespace-part"}
    plan = [t for t in TECH]
    plan += [t for t in TECH if t[0] in special]
    others = [t for t in TECH if t[0] not in special]
    while len(plan) < N_HARD:
        plan.append(pick(others))
    for name_, pool, fn in plan:
        def g(pool=pool, fn=fn):
            S = POOLS[pool]()
            v = fn(S)
            return v, S
        v, S = take_unique(g)
        meta = {}
        fix = False
        if "_key" in S:
            meta["key"] = S["_key"]
            fix = True
        if "_ns3" in S:
            meta["ns3"] = S["_ns3"]
            fix = True
        emb = False
        if not fix:
            v, emb = maybe_embed(v, 0.30)
        meta["embedded"] = emb
        out.append(mkrec("secret", "hard", name_, S["kind"], v, fix=fix, meta=meta))
    return out


BENIGN_VENDORS = ["Stripe", "Datadog", "Sentry", "GitHub", "Slack", "Twilio", "PostgreSQL", "Redis", "Kafka", "nginx", "OpenAI",
                  "Cloudflare", "Algolia", "Mapbox", "Shopify", "Auth0"]


def gen_benign_plain():
    out = []
    for _ in range(N_BPLAIN_EN):
        src, v = take_unique(gen_ordinary_en)
        out.append(mkrec("benign", "plain", src, f"ordinary-{src}", v))
    conts = list(CONTAINERS)
    order = []
    while len(order) < N_BPLAIN_CONT:
        cc = conts[:]
        R.shuffle(cc)
        order += cc
    for c in order[:N_BPLAIN_CONT]:
        def g(c=c):
            ctx = {"vendor": pick(APPS + BENIGN_VENDORS), "benign": True}
            pairs = innoc_pairs(R.randint(3, 7))
            ctx["main"] = pairs[-1][0]
            return CONTAINERS[c](pairs, ctx)
        out.append(mkrec("benign", "plain", c, f"ordinary-{c}", take_unique(g)))
    for code, (lname, txt) in LANGS.items():
        for i, src in enumerate(LANG_BEN_SRC):
            def g(t=txt[7 + i]):
                return t.format(date=date_human(), t=time_h(), n=R.randint(2, 12))
            seg = f"{src}-{code}"
            out.append(mkrec("benign", "plain", seg, f"ordinary-{seg}", take_unique(g), lang=code))
    return out


def gen_benign_hard():
    out = []
    fams = [f for f in FAM if not f[0].startswith("credential-talk-") or f[0] == "credential-talk-en"]
    plan = fams[:]
    while len(plan) < N_BHARD_OTHER:
        plan.append(pick(fams))
    for name_, fn, emb_ok in plan:
        v = take_unique(fn)
        meta, fix = {}, False
        if isinstance(v, tuple):
            what, val, text = v
            meta["key" if what == "_key" else "ns3"] = val
            v, fix = text, True
        emb = False
        if emb_ok and not fix:
            v, emb = maybe_embed(v, EMBED_P)
        meta["embedded"] = emb
        out.append(mkrec("benign", "hard", name_, name_, v, fix=fix, meta=meta))
    for code, (lname, txt) in LANGS.items():
        for i in range(3):
            v = txt[10 + i]
            SEEN.add(canon(v))
            v, emb = maybe_embed(v, EMBED_P)
            fam_name = f"credential-talk-{code}"
            out.append(mkrec("benign", "hard", fam_name, fam_name, v, lang=code, meta={"embedded": emb}))
    return out


# ---------------------------------------------------------------------------
# multi-topic composition: ordinary sentences around a record (both labels;
# per-group rates chosen only to equalise the length distributions)
# ---------------------------------------------------------------------------
FILLER_EN = [
    "dentist {day} {t}", "buy oat milk + bread", "call {name} back about the weekend", "bins go out {day}",
    "return the library books by {date}", "{name}'s party at 7", "water the tomatoes", "book the car service",
    "the plumber comes {day} between 8 and 12", "pay the window cleaner {money}", "gym at {t}", "ask about the school trip form",
    "pick up the prescription", "order more printer paper", "check the train times for {date}", "send {name} the photos",
    "renew the bus pass", "cancel the magazine subscription", "try the new ramen place on the corner", "return the parcel to {store}",
    "move the standup to {t}", "review {name}'s slides", "book flights for {date}", "get a birthday card for {name}",
    "defrost the freezer", "fix the squeaky door", "mum says hi", "meeting notes are in the shared folder",
]
# same filler/digest rates for both labels; code/config containers are never composed.
# look-alike "decoy" lines are mixed into hard records of BOTH labels (rates differ only
# to equalise the length distributions: benign families are natively shorter).
PAD_RATES = {"plain": (0.40, 0.05, 0.0, 0.0), "hard-secret": (0.20, 0.04, 0.30, 0.0),
             "hard-benign": (0.25, 0.04, 0.60, 0.0)}


def decoy_line():
    while True:
        nm, fn, _ = pick(FAM)
        if nm.startswith("credential-talk-") and nm != "credential-talk-en":
            continue
        v = fn()
        if isinstance(v, str) and "\n" not in v and len(v) <= 160:
            return v


def filler(lang):
    if lang == "en":
        return pick(FILLER_EN).format(day=pick(DAYS), t=time_h(), name=name(), date=date_human(), money=money(), store=pick(STORES))
    return LANGS[lang][1][7 + R.randrange(3)].format(date=date_human(), t=time_h(), n=R.randint(2, 12))


def compose(recs):
    for r in recs:
        if not isinstance(r["value"], str) or r["fix"] or r["segment"] in CONTAINERS:
            continue
        grp = "plain" if r["variant"] == "plain" else f"hard-{r['label']}"
        pad, longp, decp, _ = PAD_RATES[grp]
        v = r["value"]
        if r["variant"] == "hard" and chance(decp):
            ds = [decoy_line() for _ in range(R.randint(1, 2))]
            k = R.randint(0, len(ds))
            v = "\n".join(ds[:k] + [v] + ds[k:])
        x = R.random()
        if x < longp:
            items = [filler(r["lang"]) for _ in range(R.randint(5, 9))]
            items.insert(R.randint(0, len(items)), v)
            head = pick(["Weekly notes", "Notes", "To remember", "Misc", date_human()])
            v = head + "\n" + "\n".join("- " + it for it in items)
        elif x < longp + pad:
            fs = [filler(r["lang"]) for _ in range(R.randint(1, 3))]
            sep = pick(["\n", "\n", ". ", " / ", "\n\n"])
            k = R.randint(0, len(fs))
            v = sep.join(fs[:k] + [v] + fs[k:])
        if v != r["value"] and slen(v) <= RAWMAX:
            r["value"] = v
            r["meta"]["composed"] = True


# ---------------------------------------------------------------------------
# label-independent shaping and context wrapping
# ---------------------------------------------------------------------------
TAGS = ["personal", "work", "todo", "misc", "home", "later", "inbox", "ideas", "travel", "admin"]
SOURCES_APPS = ["notes", "keep", "obsidian", "chat-export", "email-import", "voice", "clipboard"]


def iso_dt():
    return f"{date_iso()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:00Z"


def to_object(s):
    k = R.randrange(6)
    if k == 0:
        return {"text": s}
    if k == 1:
        return {"note": s, "source": pick(SOURCES_APPS)}
    if k == 2:
        return {"content": s, "created_at": iso_dt()}
    if k == 3:
        return {"memory": s, "tags": [pick(TAGS) for _ in range(R.randint(1, 3))]}
    if k == 4:
        return {"body": s, "pinned": chance(0.3)}
    return {"title": pick(["note", "saved", "misc", "from phone", "quick note", "clip"]), "text": s}


def to_array(s):
    if "\n" in s:
        return [ln for ln in s.split("\n") if ln.strip()] or [s]
    return [s]


def shape_balance(recs):
    for label in ("secret", "benign"):
        idx = [i for i, r in enumerate(recs) if r["label"] == label]
        n = len(idx)
        n_obj = sum(isinstance(recs[i]["value"], dict) for i in idx)
        n_arr = sum(isinstance(recs[i]["value"], list) for i in idx)
        need_obj = max(0, round(0.20 * n) - n_obj)
        need_arr = max(0, round(0.10 * n) - n_arr)
        cand = [i for i in idx if isinstance(recs[i]["value"], str) and not recs[i]["fix"]]
        R.shuffle(cand)
        for i in cand[:need_obj]:
            recs[i]["value"] = to_object(recs[i]["value"])
            recs[i]["meta"]["wrapped_shape"] = "object"
        for i in cand[need_obj:need_obj + need_arr]:
            recs[i]["value"] = to_array(recs[i]["value"])
            recs[i]["meta"]["wrapped_shape"] = "array"


STR_PREFIX = ["hey — ", "Saved {date}: ", "[{iso}] ", "{day} {t} — ", "from my phone: ", "ok so ", "note ({date}): ", "{date}\n"]
STR_SUFFIX = ["\n\n(also: buy batteries)", "\n— sent from my phone", "\nP.S. call mum back", "\n\nunrelated: the plumber comes {day}",
              " 🙂", "\n#todo", "\n\n(need to tidy these notes up)", "\nand don't forget the bins on {day}"]
ARR_EXTRA = ["(unrelated) pick up dry cleaning", "{date}", "also: {name}'s birthday soon", "✔ done", "buy oat milk", "saved {iso}"]


def ctx_fill(t):
    return t.format(date=date_human(), iso=date_iso(), day=pick(DAYS), t=time_h(), name=name())


def wrap_prob(L):
    return 0.55 if L < 40 else 0.35 if L < 100 else 0.25 if L < 300 else 0.12


def context_wrap(recs):
    for r in recs:
        v = r["value"]
        L = slen(v)
        if not chance(wrap_prob(L)):
            continue
        if isinstance(v, str):
            nv = ctx_fill(pick(STR_PREFIX)) + v if chance(0.5) else v + ctx_fill(pick(STR_SUFFIX))
        elif isinstance(v, dict):
            nv = dict(v)
            extra = [("saved_at", iso_dt()), ("device", pick(["phone", "laptop", "tablet", "watch"])),
                     ("source_app", pick(SOURCES_APPS)), ("reminder", pick(["water plants", "call back", "none"])),
                     ("lang_hint", pick(["auto", "mixed"]))]
            R.shuffle(extra)
            for k, x in extra[:R.randint(1, 2)]:
                if k not in nv:
                    nv[k] = x
        else:
            item = ctx_fill(pick(ARR_EXTRA))
            nv = [item] + list(v) if chance(0.5) else list(v) + [item]
        if slen(nv) <= MAXLEN:
            r["value"] = nv
            r["meta"]["context"] = True


def dedupe(recs):
    seen = set()
    for r in recs:
        while canon(r["value"]) in seen:
            v = r["value"]
            stamp = date_iso()
            if isinstance(v, str):
                r["value"] = f"[{stamp}] {v}"
            elif isinstance(v, dict):
                r["value"] = {**v, "date": stamp}
            else:
                r["value"] = [stamp] + list(v)
            r["meta"]["date_stamped"] = True
        seen.add(canon(r["value"]))


NS3 = ["notes", "work", "travel", "home", "personal", "family", "projects", "inbox", "archive", "misc", "health", "finance"]
USERS = [f"u{R.randint(1000, 99999999)}" for _ in range(360)]


def finalize(recs):
    counters = {}
    for r in recs:
        key3 = (r["label"], r["variant"], r["segment"])
        counters[key3] = counters.get(key3, 0) + 1
        r["id"] = f"h18-{r['label'][0]}-{r['variant'][0]}-{r['segment']}-{counters[key3]:03d}"
        ns = ["memories", pick(USERS)]
        if "ns3" in r["meta"]:
            ns.append(r["meta"]["ns3"])
        elif chance(0.12):
            ns.append(pick(NS3))
        r["namespace"] = ns
        r["key"] = r["meta"].get("key") or "mem_" + rs("h", R.randint(8, 32))


def build():
    recs = gen_vendor_plain() + gen_personal_plain() + gen_hard_secret() + gen_benign_plain() + gen_benign_hard()
    compose(recs)
    shape_balance(recs)
    context_wrap(recs)
    dedupe(recs)
    finalize(recs)
    R.shuffle(recs)
    return recs


def dump(recs):
    lines = []
    for r in recs:
        o = {"id": r["id"], "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": r["namespace"],
             "key": r["key"], "value": r["value"]}
        lines.append(json.dumps(o, ensure_ascii=False))
    return ("\n".join(lines) + "\n").encode("utf-8")


# ---------------------------------------------------------------------------
# stats
# ---------------------------------------------------------------------------
def shape_of(v):
    return "string" if isinstance(v, str) else "object" if isinstance(v, dict) else "array"


def band(v):
    L = slen(v)
    return "<40" if L < 40 else "40-99" if L < 100 else "100-299" if L < 300 else "300-1500"


def table(title, rows, cols, data):
    out = [f"### {title}", "", "| | " + " | ".join(cols) + " | total |", "|---|" + "---:|" * (len(cols) + 1)]
    for r in rows:
        vals = [data.get((r, c), 0) for c in cols]
        out.append(f"| {r} | " + " | ".join(str(x) for x in vals) + f" | {sum(vals)} |")
    tot = [sum(data.get((r, c), 0) for r in rows) for c in cols]
    out.append("| total | " + " | ".join(str(x) for x in tot) + f" | {sum(tot)} |")
    return "\n".join(out)


def stats(recs, digest):
    from collections import Counter
    lab = ["secret", "benign"]
    c = Counter()
    for r in recs:
        c[(r["label"], r["variant"])] += 1
    print(f"sha256(heldout18.jsonl) = {digest}\nrecords = {len(recs)}\n")
    print(table("label x variant", lab, ["plain", "hard"], c), "\n")
    c = Counter((r["label"], shape_of(r["value"])) for r in recs)
    print(table("value shape per label", lab, ["string", "object", "array"], c), "\n")
    c = Counter((r["label"], band(r["value"])) for r in recs)
    print(table("length band per label (chars of the JSON-serialised value)", lab, ["<40", "40-99", "100-299", "300-1500"], c), "\n")
    langs = sorted({r["lang"] for r in recs}, key=lambda x: (x != "en", x))
    c = Counter((r["lang"], r["label"]) for r in recs)
    print(table("languages (en = English or code/config)", langs, ["secret", "benign"], c), "\n")
    vend = [r for r in recs if r["label"] == "secret" and r["variant"] == "plain" and "vendor" in r["meta"]]
    pers = [r for r in recs if r["label"] == "secret" and r["variant"] == "plain" and "vendor" not in r["meta"]]
    sh = [r for r in recs if r["label"] == "secret" and r["variant"] == "hard"]
    bp = [r for r in recs if r["label"] == "benign" and r["variant"] == "plain"]
    bh = [r for r in recs if r["label"] == "benign" and r["variant"] == "hard"]
    print("### distinct counts\n")
    print(f"- secret/plain vendor credentials: {len(vend)} records, {len({r['meta']['vendor'] for r in vend})} vendors/products, "
          f"{len({r['meta']['format'] for r in vend})} formats, {len({r['meta']['cat'] for r in vend})} categories, "
          f"{len({r['segment'] for r in vend})} containers")
    print(f"- secret/plain personal secrets: {len(pers)} records, {len({r['kind'] for r in pers})} kinds, "
          f"{sum(r['lang'] == 'en' for r in pers)} English, {sum(r['lang'] != 'en' for r in pers)} in "
          f"{len({r['lang'] for r in pers if r['lang'] != 'en'})} other languages")
    print(f"- secret/hard: {len(sh)} records, {len({r['segment'] for r in sh})} techniques, {len({r['kind'] for r in sh})} underlying kinds")
    print(f"- benign/plain: {len(bp)} records, {len({r['segment'] for r in bp})} sources, {sum(r['lang'] != 'en' for r in bp)} non-English")
    print(f"- benign/hard: {len(bh)} records, {len({r['segment'] for r in bh})} families "
          f"({len({r['segment'] for r in bh if r['segment'].startswith('credential-talk-')})} credential-talk families)")
    sb = [r for r in bh if r["meta"].get("embedded")]
    bs = [r for r in bh if isinstance(r["value"], str) or r["meta"].get("wrapped_shape")]
    print(f"- benign/hard string-valued look-alikes embedded in a note sentence: {len(sb)} of {len(bs)}")
    ss = [r for r in sh if r["meta"].get("embedded")]
    print(f"- secret/hard string values embedded in the same note frames: {len(ss)} of {len(sh)}")
    print(f"- context-wrapped: secret {sum(bool(r['meta'].get('context')) for r in recs if r['label'] == 'secret')}, "
          f"benign {sum(bool(r['meta'].get('context')) for r in recs if r['label'] == 'benign')}; "
          f"date-stamped duplicates: {sum(bool(r['meta'].get('date_stamped')) for r in recs)}")
    kn = [r for r in recs if "key" in r["meta"] or "ns3" in r["meta"]]
    print("- records that deliberately use key or namespace: " + ", ".join(sorted(f"{r['id']} ({'key' if 'key' in r['meta'] else 'namespace'})" for r in kn)))
    nf = [r for r in recs if len(r["namespace"]) == 3]
    print(f"- namespaces with a third element: secret {sum(r['label'] == 'secret' for r in nf)}, benign {sum(r['label'] == 'benign' for r in nf)}")


def main():
    recs = build()
    data = dump(recs)
    with open(OUT, "wb") as fh:
        fh.write(data)
    import hashlib
    digest = hashlib.sha256(data).hexdigest()
    if "--stats" in sys.argv:
        stats(recs, digest)
    else:
        print(f"wrote {OUT} ({len(recs)} records, sha256 {digest})")


if __name__ == "__main__":
    main()
