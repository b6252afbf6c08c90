#!/usr/bin/env python3
"""Generator for the heldout10 secret-detector evaluation corpus.

Standard library only (Python 3.11).  All randomness comes from a single
random.Random(1010_2026); running the script twice yields identical bytes.
Writes heldout10.jsonl next to this file and prints summary statistics.
"""
import base64
import codecs
import hashlib
import json
import os
import string
import sys
import urllib.parse
import random
from collections import Counter

R = random.Random(1010_2026)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout10.jsonl")

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DIG = string.digits
AN = UP + LO + DIG
LD = LO + DIG
UD = UP + DIG
HEXL = "0123456789abcdef"
HEXU = "0123456789ABCDEF"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BECH = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


def rs(n, alpha=AN):
    return "".join(R.choice(alpha) for _ in range(n))


def hx(n):
    return rs(n, HEXL)


def HX(n):
    return rs(n, HEXU)


def dg(n):
    return rs(n, DIG)


def dgnz(n):
    return R.choice("123456789") + dg(n - 1)


def b64s(n):
    return rs(n, AN + "+/")


def b64u(n):
    return rs(n, AN + "-_")


def rbytes(n):
    return bytes(R.getrandbits(8) for _ in range(n))


def uuid4():
    h = hx(32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def pick(seq):
    return R.choice(seq)


def b64url(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def b64std(b):
    return base64.b64encode(b).decode()


def b58enc(b):
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\x00"))
    return "1" * pad + out


def b58check(payload):
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58enc(payload + chk)


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def wrap(s, w):
    return "\n".join(s[i:i + w] for i in range(0, len(s), w))


def ts_epoch(lo=1704067200, hi=1767225599):
    return R.randint(lo, hi)


def iso_ts():
    y = R.choice([2024, 2025])
    return f"{y}-{R.randint(1,12):02d}-{R.randint(1,28):02d}T{R.randint(0,23):02d}:{R.randint(0,59):02d}:{R.randint(0,59):02d}Z"


def date_s():
    return f"{R.choice([2024, 2025])}-{R.randint(1,12):02d}-{R.randint(1,28):02d}"


# ---------------------------------------------------------------- JWT / keys

def jwt(payload, alg="HS256", kid=None, typ="JWT"):
    hdr = {"alg": alg, "typ": typ}
    if kid:
        hdr["kid"] = kid
    h = b64url(json.dumps(hdr, separators=(",", ":")).encode())
    p = b64url(json.dumps(payload, separators=(",", ":")).encode())
    siglen = {"HS256": 32, "HS512": 64, "RS256": 256, "ES256": 64, "EdDSA": 64, "RS512": 256}[alg]
    return f"{h}.{p}.{b64url(rbytes(siglen))}"


def pem_wrap(label, der, width=64):
    return f"-----BEGIN {label}-----\n" + wrap(b64std(der), width) + f"\n-----END {label}-----"


def rsa_pkcs1_pem():
    der = bytes.fromhex("308204a40201000282010100") + rbytes(1192 - 12)
    return pem_wrap("RSA PRIVATE KEY", der)


def rsa_pkcs8_pem():
    der = bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + rbytes(1218 - 38)
    return pem_wrap("PRIVATE KEY", der)


def ec_sec1_pem():
    der = bytes.fromhex("30770201010420") + rbytes(32) + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64)
    return pem_wrap("EC PRIVATE KEY", der)


def ec_pkcs8_pem():
    der = (bytes.fromhex("308193020100301306072a8648ce3d020106082a8648ce3d030107047930770201010420") + rbytes(32)
           + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rbytes(64))
    return pem_wrap("PRIVATE KEY", der)


def ed25519_pkcs8_pem():
    der = bytes.fromhex("302e020100300506032b657004220420") + rbytes(32)
    return pem_wrap("PRIVATE KEY", der)


def encrypted_pkcs8_pem():
    der = bytes.fromhex("30820526305006092a864886f70d01050d3043302206092a864886f70d01050c3015") + rbytes(1322 - 34)
    return pem_wrap("ENCRYPTED PRIVATE KEY", der)


def sshstr(b):
    return len(b).to_bytes(4, "big") + b


def ssh_ed25519_pair(comment):
    pub = rbytes(32)
    priv = rbytes(32)
    kt = b"ssh-ed25519"
    pubblob = sshstr(kt) + sshstr(pub)
    chk = rbytes(4)
    sec = chk + chk + sshstr(kt) + sshstr(pub) + sshstr(priv + pub) + sshstr(comment.encode())
    pad = 1
    while len(sec) % 8:
        sec += bytes([pad])
        pad += 1
    blob = (b"openssh-key-v1\x00" + sshstr(b"none") + sshstr(b"none") + sshstr(b"")
            + (1).to_bytes(4, "big") + sshstr(pubblob) + sshstr(sec))
    privpem = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(b64std(blob), 70) + "\n-----END OPENSSH PRIVATE KEY-----"
    publine = "ssh-ed25519 " + b64std(pubblob) + " " + comment
    return privpem, publine


def ssh_rsa_pub(comment, bits=3072):
    blob = sshstr(b"ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00\xc1" + rbytes(bits // 8 - 1))
    return "ssh-rsa " + b64std(blob) + " " + comment


def ssh_ecdsa_pub(comment):
    blob = sshstr(b"ecdsa-sha2-nistp256") + sshstr(b"nistp256") + sshstr(b"\x04" + rbytes(64))
    return "ecdsa-sha2-nistp256 " + b64std(blob) + " " + comment


def pgp_block(kind, uid):
    if kind == "PRIVATE":
        body = (b"\x94\x58\x04" + rbytes(4) + bytes.fromhex("16092b06010401da470f0101074007") + rbytes(32)
                + b"\x00" + rbytes(33) + b"\xb4" + bytes([len(uid)]) + uid.encode() + b"\x88\x90\x04\x13\x16\x08" + rbytes(140)
                + b"\x9c\x5d\x04" + rbytes(4) + rbytes(90))
    else:
        body = (b"\x98\x33\x04" + rbytes(4) + bytes.fromhex("16092b06010401da470f0101074007") + rbytes(32)
                + b"\xb4" + bytes([len(uid)]) + uid.encode() + b"\x88\x99\x04\x13\x16\x0a" + rbytes(150)
                + b"\xb8\x38\x04" + rbytes(4) + rbytes(54))
    c = crc24(body)
    crc = b64std(c.to_bytes(3, "big"))
    return (f"-----BEGIN PGP {kind} KEY BLOCK-----\n\n" + wrap(b64std(body), 64) + f"\n={crc}\n-----END PGP {kind} KEY BLOCK-----")


def cert_pem():
    der = bytes.fromhex("308203") + rbytes(2) + bytes.fromhex("308202") + rbytes(2) + bytes.fromhex("a0030201020214") + rbytes(20) + bytes.fromhex("300d06092a864886f70d01010b0500") + rbytes(680)
    return pem_wrap("CERTIFICATE", der)


def rsa_public_pem():
    der = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + rbytes(256) + bytes.fromhex("0203010001")
    return pem_wrap("PUBLIC KEY", der)


def putty_ppk(comment):
    pubblob = sshstr(b"ssh-ed25519") + sshstr(rbytes(32))
    privblob = sshstr(rbytes(32))
    return ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: " + comment
            + "\nPublic-Lines: 2\n" + wrap(b64std(pubblob), 64) + "\nPrivate-Lines: 1\n" + b64std(privblob)
            + "\nPrivate-MAC: " + hx(64))


def btc_wif():
    return b58check(b"\x80" + rbytes(32) + b"\x01")


def btc_xprv():
    payload = bytes.fromhex("0488ade4") + b"\x00" + b"\x00" * 4 + b"\x00" * 4 + rbytes(32) + b"\x00" + rbytes(32)
    return b58check(payload)


def btc_xpub():
    payload = bytes.fromhex("0488b21e") + b"\x00" + b"\x00" * 4 + b"\x00" * 4 + rbytes(32) + R.choice([b"\x02", b"\x03"]) + rbytes(32)
    return b58check(payload)


def btc_address():
    return "bc1q" + rs(38, "qpzry9x8gf2tvdw0s3jn54khce6mua7l")


def eth_address():
    return "0x" + rs(40, "0123456789abcdefABCDEF")


def sol_secret_b58():
    return b58enc(rbytes(64))


def sol_pubkey():
    return b58enc(rbytes(32))


# ---------------------------------------------------------------- payment cards

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


FAMOUS_TEST_CARDS = {"4242424242424242", "4111111111111111", "5555555555554444", "378282246310005",
                     "4000056655665556", "5105105105105100", "6011111111111117", "4012888888881881"}


def card_number(brand=None):
    brand = brand or R.choice(["Visa", "Visa", "Visa", "Mastercard", "Mastercard", "Amex", "Discover", "JCB", "UnionPay", "Mastercard"])
    while True:
        if brand == "Visa":
            pre, L = "4" + dg(5), 16
        elif brand == "Mastercard":
            pre, L = (R.choice(["51", "52", "53", "54", "55"]) + dg(4)) if R.random() < 0.7 else (str(R.randint(2221, 2720)) + dg(2)), 16
        elif brand == "Amex":
            pre, L = R.choice(["34", "37"]) + dg(4), 15
        elif brand == "Discover":
            pre, L = R.choice(["6011", "65" + dg(2)]) + dg(2), 16
        elif brand == "JCB":
            pre, L = str(R.randint(3528, 3589)) + dg(2), 16
        else:
            pre, L = "62" + dg(4), 16
        body = pre + dg(L - 1 - len(pre))
        num = body + luhn_digit(body)
        if num not in FAMOUS_TEST_CARDS:
            return brand, num


def fmt_card(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, 16, 4))


def expiry(style=None):
    m, y = R.randint(1, 12), R.randint(2025, 2030)
    style = style or R.choice(["mm/yy", "mm/yy", "mm/yyyy", "mm-yy"])
    if style == "mm/yy":
        return f"{m:02d}/{y % 100:02d}"
    if style == "mm/yyyy":
        return f"{m:02d}/{y}"
    return f"{m:02d}-{y % 100:02d}"


def cvv(brand):
    return dg(4) if brand == "Amex" else dg(3)


# ---------------------------------------------------------------- word pools

BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid
acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance advice aerobic
affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost
alone alpha already also alter always amateur amazing among amount amused analyst anchor ancient anger angle angry animal
ankle announce annual another answer antenna antique anxiety any apart apology appear apple approve april arch arctic area
arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist artwork ask aspect assault asset
assist assume asthma athlete atom attack attend attitude attract auction audit august aunt author auto autumn average avocado
avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar
barely bargain barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe below
belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket
blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring
borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli
broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst
bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon
canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle casual cat catalog
catch category cattle caught cause caution cave ceiling celery cement census century cereal certain chair chalk champion
change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic
chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client
cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin
collect color column combine come comfort comic common company concert conduct confirm congress connect consider control
convince cook cool copper copy coral core corn correct cost cotton couch country couple course cousin cover coyote crack
cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd
crucial cruel cruise crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom
cute cycle dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide decline
decorate decrease deer defense define defy degree delay deliver demand demise denial dentist deny depart depend deposit depth
deputy derive describe desert design desk despair destroy detail detect develop device devote diagram dial diamond diary dice
diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree discover disease dish dismiss disorder display
distance divert divide divorce dizzy doctor document dog doll dolphin domain donate donkey donor door dose double dove draft
dragon drama drastic draw dream dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf
dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg eight either elbow
elder electric elegant element elephant elevator elite else embark embody embrace emerge emotion employ empower empty enable
enact end endless endorse enemy energy enforce engage engine enhance enjoy enlist enough enrich enroll ensure enter entire
entry envelope episode equal equip era erase erode erosion error erupt escape essay essence estate eternal ethics evidence
evil evoke evolve exact example excess exchange excite exclude excuse execute exercise exhaust exhibit exile exist exit exotic
expand expect expire explain expose express extend extra eye eyebrow fabric face faculty fade faint faith fall false fame
family famous fan fancy fantasy farm fashion fat fatal father fatigue fault favorite feature february federal fee feed feel
female fence festival fetch fever few fiber fiction field figure file film filter final find fine finger finish fire firm
first fiscal fish fit fitness fix flag flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam
focus fog foil fold follow food foot force forest forget fork fortune forum forward fossil foster found fox fragile frame
frequent fresh friend fringe frog front frost frown frozen fruit fuel fun funny furnace fury future gadget gain galaxy gallery
game gap garage garbage garden garlic garment gas gasp gate gather gauge gaze general genius genre gentle genuine gesture
ghost giant gift giggle ginger giraffe girl give glad glance glare glass glide glimpse globe gloom glory glove glow glue goat
goddess gold good goose gorilla gospel gossip govern gown grab grace grain grant grape grass gravity great green grid grief
grit grocery group grow grunt guard guess guide guilt guitar gun gym habit hair half hammer hamster hand happy harbor hard
harsh harvest hat have hawk hazard head health heart heavy hedgehog height hello helmet help hen hero hidden high hill hint
hip hire history hobby hockey hold hole holiday hollow home honey hood hope horn horror horse hospital host hotel hour hover
hub huge human humble humor hundred hungry hunt hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill
illegal illness image imitate immense immune impact impose improve impulse inch include income increase index indicate indoor
industry infant inflict inform inhale inherit initial inject injury inmate inner innocent input inquiry insane insect inside
inspire install intact interest into invest invite involve iron island isolate issue item ivory jacket jaguar jar jazz jealous
jeans jelly jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep ketchup key kick kid
kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock know lab label labor ladder lady lake lamp language
laptop large later latin laugh laundry lava law lawn lawsuit layer lazy leader leaf learn leave lecture left leg legal legend
leisure lemon lend length lens leopard lesson letter level liar liberty library license life lift light like limb limit link
lion liquid list little live lizard load loan lobster local lock logic lonely long loop lottery loud lounge love loyal lucky
luggage lumber lunar lunch luxury lyrics machine mad magic magnet maid mail main major make mammal man manage mandate mango
mansion manual maple marble march margin marine market marriage mask mass master match material math matrix matter maximum
maze meadow mean measure meat mechanic medal media melody melt member memory mention menu mercy merge merit merry mesh message
metal method middle midnight milk million mimic mind minimum minor minute miracle mirror misery miss mistake mix mixed mixture
mobile model modify mom moment monitor monkey monster month moon moral more morning mosquito mother motion motor mountain
mouse move movie much muffin mule multiply muscle museum mushroom music must mutual myself mystery myth naive name napkin
narrow nasty nation nature near neck need negative neglect neither nephew nerve nest net network neutral never news next nice
night noble noise nominee noodle normal north nose notable note nothing notice novel now nuclear number nurse nut oak obey
object oblige obscure observe obtain obvious occur ocean october odor off offer office often oil okay old olive olympic omit
once one onion online only open opera opinion oppose option orange orbit orchard order ordinary organ orient original orphan
ostrich other outdoor outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace palm
panda panel panic panther paper parade parent park parrot party pass patch path patient patrol pattern pause pave payment
peace peanut pear peasant pelican pen penalty pencil people pepper perfect permit person pet phone photo phrase physical
piano picnic picture piece pig pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please
pledge pluck plug plunge poem poet point polar pole police pond pony pool popular portion position possible post potato pottery
poverty powder power practice praise predict prefer prepare present pretty prevent price pride primary print priority prison
private prize problem process produce profit program project promote proof property prosper protect proud provide public
pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put puzzle pyramid quality quantum
quarter question quick quit quiz quote rabbit raccoon race rack radar radio rail rain raise rally ramp ranch random range
rapid rare rate rather raven raw razor ready real reason rebel rebuild recall receive recipe record recycle reduce reflect
reform refuse region regret regular reject relax release relief rely remain remember remind remove render renew rent reopen
repair repeat replace report require rescue resemble resist resource response result retire retreat return reunion reveal
review reward rhythm rib ribbon rice rich ride ridge rifle right rigid ring riot ripple risk ritual rival river road roast
robot robust rocket romance roof rookie room rose rotate rough round route royal rubber rude rug rule run runway rural sad
saddle sadness safe sail salad salmon salon salt salute same sample sand satisfy satoshi sauce sausage save say scale scan
scare scatter scene scheme school science scissors scorpion scout scrap screen script scrub sea search season seat second
secret section security seed seek segment select sell seminar senior sense sentence series service session settle setup
seven shadow shaft shallow share shed shell sheriff shield shift shine ship shiver shock shoe shoot shop short shoulder shove
shrimp shrug shuffle shy sibling sick side siege sight sign silent silk silly silver similar simple since sing siren sister
situate six size skate sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim slogan slot slow
slush small smart smile smoke smooth snack snake snap sniff snow soap soccer social sock soda soft solar soldier solid solution
solve someone song soon sorry sort soul sound soup source south space spare spatial spawn speak special speed spell spend
sphere spice spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring spy square squeeze squirrel
stable stadium staff stage stairs stamp stand start state stay steak steel stem step stereo stick still sting stock stomach
stone stool story stove strategy street strike strong struggle student stuff stumble style subject submit subway success such
sudden suffer sugar suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise surround survey
suspect sustain swallow swamp swap swarm swear sweet swift swim swing switch sword symbol symptom syrup system table tackle
tag tail talent talk tank tape target task taste tattoo taxi teach team tell ten tenant tennis tent term test text thank that
theme then theory there they thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber time tiny tip
tired tissue title toast tobacco today toddler toe together toilet token tomato tomorrow tone tongue tonight tool tooth top
topic topple torch tornado tortoise toss total tourist toward tower town toy track trade traffic tragic train transfer trap
trash travel tray treat tree trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet trust truth
try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin twist two type typical ugly umbrella unable
unaware uncle uncover under undo unfair unfold unhappy uniform unique unit universe unknown unlock until unusual unveil update
upgrade uphold upon upper upset urban urge usage use used useful useless usual utility vacant vacuum vague valid valley valve
van vanish vapor various vast vault vehicle velvet vendor venture venue verb verify version very vessel veteran viable vibrant
vicious victory video view village vintage violin virtual virus visa visit visual vital vivid vocal voice void volcano volume
vote voyage wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way wealth weapon wear weasel
weather web wedding weekend weird welcome west wet whale what wheat wheel when where whip whisper wide width wife wild will
win window wine wing wink winner winter wire wisdom wise wish witness wolf woman wonder wood wool word work world worry worth
wrap wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone zoo""".split()

EN_FIRST = ["Emma", "Liam", "Olivia", "Noah", "Ava", "James", "Sophia", "Lucas", "Mia", "Ethan", "Grace", "Daniel", "Chloe",
            "Ryan", "Hannah", "Owen", "Priya", "Marcus", "Aisha", "Tom", "Rachel", "Kevin", "Megan", "Sam", "Julia", "Derek",
            "Nina", "Oscar", "Leah", "Victor", "Tanya", "Ben", "Harriet", "Jamal", "Colin", "Fiona", "Wes", "Dana", "Amir", "Keiko"]
EN_LAST = ["Carter", "Nguyen", "Patel", "O'Brien", "Walsh", "Morrison", "Fitzgerald", "Okafor", "Kim", "Reyes", "Hughes",
           "Bennett", "Lindqvist", "Sharma", "Dubois", "Kowalski", "Harper", "Brennan", "Takahashi", "Mensah", "Whitaker", "Alvarez"]
WORDS_PW = ["Biscuit", "Maple", "Tigger", "Snowball", "Pumpkin", "Rocket", "Bluebird", "Falcon", "Willow", "Pepper", "Juniper",
            "Mango", "Cobalt", "Hazel", "Nimbus", "Otter", "Saffron", "Thunder", "Velvet", "Zephyr", "Marbles", "Sunset",
            "Clover", "Gizmo", "Harbor", "Koala", "Lemon", "Monkey", "Oreo", "Peanut", "Ranger", "Shadow", "Sparky", "Toffee",
            "Yankee", "Zigzag", "Waffles", "Luna", "Brownie", "Dakota", "Everest", "Fenway", "Gatsby", "Hobbes", "Indigo"]
WORDS_PW_L = {
    "es": ["Girasol", "Mariposa", "Chispa", "Tortuga", "Canela", "Palmera", "Lucero", "Estrella", "Gatito", "Manzana"],
    "fr": ["Papillon", "Citron", "Soleil", "Chaton", "Framboise", "Mistral", "Nuage", "Lavande", "Grenouille", "Cerise"],
    "de": ["Sonnenblume", "Eichhorn", "Zitrone", "Kuckuck", "Bergsee", "Apfelbaum", "Schnecke", "Lokomotive", "Wolke", "Fuchs"],
    "it": ["Girasole", "Farfalla", "Limone", "Gattino", "Stella", "Pinguino", "Lucciola", "Ciliegia", "Tramonto", "Volpe"],
    "pt": ["Girassol", "Borboleta", "Saudade", "Caju", "Jabuti", "Pitanga", "Sabia", "Estrela", "Gatinho", "Mangueira"],
    "nl": ["Zonnebloem", "Vlinder", "Stroopwafel", "Tulp", "Kikker", "Molen", "Eekhoorn", "Klompje", "Duinroos", "Regenboog"],
    "pl": ["Slonecznik", "Motylek", "Wiewiorka", "Kotek", "Bursztyn", "Jezyk", "Pierogi", "Tatry", "Malina", "Zuraw"],
    "sv": ["Solros", "Fjaril", "Kanelbulle", "Alg", "Blabar", "Lingon", "Skargard", "Ekorre", "Midsommar", "Hjortron"],
    "tr": ["Aycicegi", "Kelebek", "Lale", "Karamel", "Kartal", "Pamuk", "Bulut", "Yildiz", "Simit", "Deniz"],
    "ja": ["sakura", "momiji", "tanuki", "hanabi", "tsubame", "kitsune", "yuzu", "hotaru", "kumo", "shiba"],
    "zh": ["xiongmao", "meihua", "longjing", "xiaoyu", "tianshi", "jinyu", "moli", "baozi", "yueliang", "huahua"],
}
SYMS = "!#$%&*?@+-._"


def human_password(lang="en"):
    words = WORDS_PW_L.get(lang, WORDS_PW) if R.random() < 0.6 else WORDS_PW
    style = R.randint(0, 9)
    if style == 0:
        return pick(words) + str(R.randint(1960, 2024)) + pick(SYMS)
    if style == 1:
        return pick(words).lower() + pick(["_", ".", "-", ""]) + pick(words) + str(R.randint(1, 99))
    if style == 2:
        return "-".join(R.sample(BIP39, 3)).title() + "-" + str(R.randint(1, 99))
    if style == 3:
        return rs(R.randint(12, 18), AN + "!#$%&*@^")
    if style == 4:
        return pick(EN_FIRST) + f"{R.randint(1,28):02d}{R.randint(1,12):02d}" + pick(SYMS)
    if style == 5:
        w = pick(words)
        leet = w.replace("a", "@").replace("o", "0").replace("e", "3").replace("i", "1").replace("s", "$")
        return leet + str(R.randint(10, 999)) + pick(SYMS)
    if style == 6:
        return rs(4, LO) + rs(2, DIG) + pick(SYMS) + rs(4, UP) + rs(3, LD)
    if style == 7:
        return pick(words) + pick(SYMS) + pick(words).lower() + str(R.randint(1, 9))
    if style == 8:
        return "-".join(rs(6, LD) for _ in range(3))
    return pick(words) + pick(words) + pick(SYMS) + dg(R.randint(2, 4))


def svc_user():
    f, l = pick(EN_FIRST).lower(), pick(EN_LAST).lower().replace("'", "")
    dom = pick(["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "hotmail.com", "gmx.de", "web.de", "libero.it", "orange.fr"])
    return pick([f"{f}.{l}@{dom}", f"{f}{l[0]}{R.randint(1,99)}@{dom}", f"{f[0]}{l}@{dom}", f"{f}_{l}{R.randint(70,99)}@{dom}"])


def corp_email():
    f, l = pick(EN_FIRST).lower(), pick(EN_LAST).lower().replace("'", "")
    return f"{f}.{l}@" + pick(["acme-corp.com", "northwind.io", "globex.net", "initech.co", "contoso.com", "brightlane.ai", "tidewater-health.org", "kestrel.dev"])


def host_name():
    return pick(["db", "pg", "mysql", "mongo", "cache", "mq", "search", "warehouse", "ledger", "billing", "auth"]) + pick(["-prod", "-01", "-primary", "-eu", "-replica", "", "-stg"])


def app_slug():
    return pick(["ledger", "billing", "payroll", "careplan", "pillbox", "moneytree", "hrportal", "timesheet", "claims", "budgetly",
                 "nutrilog", "fitsync", "invoicer", "shiftboard", "benefits", "expensify-sync", "patient-intake", "crm", "orders", "reports"])


# ---------------------------------------------------------------- vendor credential formats
# each entry: vendor, kind, category, generator -> list of (name, value); last pair is the key secret.
# auth: how the secret is presented in http/curl renderings ("bearer", "hdr:<Header>", "basic", "url", "none")

FORMATS = []


def F(vendor, kind, cat, fn, host=None, auth="bearer"):
    FORMATS.append({"vendor": vendor, "kind": kind, "cat": cat, "fn": fn, "host": host, "auth": auth})


def _acct():
    return pick(["acme", "northwind", "globex", "tidewater", "kestrel", "bluefin", "marlow", "quarry", "oakridge", "sable"]) + pick(["prod", "data", "logs", "media", "backup", "files", ""]) + dg(2)


def _pw_strong():
    return rs(R.randint(16, 28), AN + "!#%*+-_.~")


def _pw_cfg():
    return pick([_pw_strong(), human_password(), rs(20, AN), pick(WORDS_PW) + dg(4) + pick("!#$%")])


# ---- cloud
F("AWS", "aws_access_key_pair", "cloud", lambda: [("AWS_ACCESS_KEY_ID", "AKIA" + rs(16, UP + "234567")), ("AWS_SECRET_ACCESS_KEY", b64s(40))], "sts.amazonaws.com", "none")
F("AWS", "aws_sts_session_credentials", "cloud", lambda: [("AWS_ACCESS_KEY_ID", "ASIA" + rs(16, UP + "234567")), ("AWS_SECRET_ACCESS_KEY", b64s(40)), ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2VjE" + b64s(R.randint(330, 420)))], None, "none")
F("AWS", "aws_ses_smtp_credentials", "cloud", lambda: [("SMTP_HOST", "email-smtp.eu-west-1.amazonaws.com"), ("SMTP_USERNAME", "AKIA" + rs(16, UP + "234567")), ("SMTP_PASSWORD", "B" + b64s(43))], None, "none")
F("Google Cloud", "gcp_service_account_key", "cloud", lambda: [("service_account", {"type": "service_account", "project_id": f"{app_slug()}-{dg(6)}", "private_key_id": hx(40), "private_key": rsa_pkcs8_pem() + "\n", "client_email": f"{app_slug()}-sa@{app_slug()}-{dg(6)}.iam.gserviceaccount.com", "client_id": dg(21), "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token"})], None, "none")
F("Google Maps Platform", "google_maps_server_key", "cloud", lambda: [("GOOGLE_MAPS_SERVER_KEY", "AIza" + b64u(35))], "maps.googleapis.com", "query:key")
F("Google AI Studio", "google_gemini_api_key", "ai", lambda: [("GEMINI_API_KEY", "AIza" + b64u(35))], "generativelanguage.googleapis.com", "hdr:x-goog-api-key")
F("Google", "google_oauth_client_secret", "cloud", lambda: [("GOOGLE_CLIENT_ID", dg(12) + "-" + rs(32, LD) + ".apps.googleusercontent.com"), ("GOOGLE_CLIENT_SECRET", "GOCSPX-" + b64u(28))], None, "none")
F("Google", "google_oauth_refresh_token", "cloud", lambda: [("refresh_token", "1//0" + rs(1, LO) + b64u(98))], "oauth2.googleapis.com", "none")
F("Google", "google_oauth_access_token", "cloud", lambda: [("access_token", "ya29.a0A" + b64u(R.randint(150, 200)))], "www.googleapis.com")
F("Microsoft Azure", "azure_storage_connection_string", "cloud", lambda: [("AZURE_STORAGE_CONNECTION_STRING", f"DefaultEndpointsProtocol=https;AccountName={_acct()};AccountKey={b64s(86)}==;EndpointSuffix=core.windows.net")], None, "none")
F("Microsoft Entra ID", "azure_ad_client_secret", "cloud", lambda: [("AZURE_TENANT_ID", uuid4()), ("AZURE_CLIENT_ID", uuid4()), ("AZURE_CLIENT_SECRET", rs(3, AN) + dg(1) + "Q~" + rs(34, AN + "-_.~"))], None, "none")
F("Microsoft Azure", "azure_blob_sas_url", "cloud", lambda: [("SAS_URL", f"https://{_acct()}.blob.core.windows.net/{pick(['exports','scans','backups','invoices'])}?sp=racwdl&st=2025-0{R.randint(1,9)}-1{R.randint(0,9)}T09:12:00Z&se=2026-0{R.randint(1,9)}-1{R.randint(0,9)}T17:12:00Z&spr=https&sv=2022-11-02&sr=c&sig={urllib.parse.quote(b64s(43) + '=', safe='')}")], None, "url")
F("Azure DevOps", "azure_devops_pat", "cicd", lambda: [("AZURE_DEVOPS_EXT_PAT", rs(52, LO + "234567"))], "dev.azure.com", "basic")
F("Azure Cosmos DB", "azure_cosmosdb_connection_string", "database", lambda: [("COSMOS_CONNECTION", f"AccountEndpoint=https://{_acct()}.documents.azure.com:443/;AccountKey={b64s(86)}==;")], None, "none")
F("Azure Service Bus", "azure_servicebus_connection_string", "cloud", lambda: [("SERVICEBUS_CONNECTION", f"Endpoint=sb://{_acct()}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64s(43)}=")], None, "none")
F("Azure Functions", "azure_function_key", "cloud", lambda: [("FUNCTION_URL", f"https://{app_slug()}-func.azurewebsites.net/api/{pick(['ProcessClaim','SyncPayroll','Ingest','NightlyReport'])}?code={b64u(54)}==")], None, "url")
F("Azure OpenAI", "azure_openai_key", "ai", lambda: [("AZURE_OPENAI_ENDPOINT", f"https://{_acct()}-oai.openai.azure.com/"), ("AZURE_OPENAI_API_KEY", hx(32))], None, "hdr:api-key")
F("DigitalOcean", "digitalocean_pat", "cloud", lambda: [("DIGITALOCEAN_ACCESS_TOKEN", "dop_v1_" + hx(64))], "api.digitalocean.com")
F("DigitalOcean", "digitalocean_oauth_token", "cloud", lambda: [("DO_OAUTH_TOKEN", "doo_v1_" + hx(64))], "api.digitalocean.com")
F("DigitalOcean", "digitalocean_spaces_keys", "cloud", lambda: [("SPACES_ACCESS_KEY_ID", "DO00" + rs(16, UD)), ("SPACES_SECRET_ACCESS_KEY", b64s(43))], None, "none")
F("Alibaba Cloud", "alibaba_access_key", "cloud", lambda: [("ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI5t" + rs(18, AN)), ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", rs(30, AN))], None, "none")
F("Tencent Cloud", "tencent_cloud_secret", "cloud", lambda: [("TENCENTCLOUD_SECRET_ID", "AKID" + rs(32, AN)), ("TENCENTCLOUD_SECRET_KEY", rs(32, AN))], None, "none")
F("IBM Cloud", "ibm_cloud_api_key", "cloud", lambda: [("IBMCLOUD_API_KEY", b64u(44))], "iam.cloud.ibm.com", "none")
F("Oracle Cloud", "oci_auth_token", "cloud", lambda: [("OCI_USER", f"oracleidentitycloudservice/{corp_email()}"), ("OCI_AUTH_TOKEN", rs(20, AN + "#:;()[]<>+_"))], None, "none")
F("Linode", "linode_pat", "cloud", lambda: [("LINODE_TOKEN", hx(64))], "api.linode.com")
F("Vultr", "vultr_api_key", "cloud", lambda: [("VULTR_API_KEY", rs(36, UD))], "api.vultr.com")
F("Hetzner", "hetzner_cloud_token", "cloud", lambda: [("HCLOUD_TOKEN", rs(64, AN))], "api.hetzner.cloud")
F("Scaleway", "scaleway_api_key", "cloud", lambda: [("SCW_ACCESS_KEY", "SCW" + rs(17, UD)), ("SCW_SECRET_KEY", uuid4())], "api.scaleway.com", "hdr:X-Auth-Token")
F("OVHcloud", "ovh_api_credentials", "cloud", lambda: [("OVH_APPLICATION_KEY", rs(16, AN)), ("OVH_APPLICATION_SECRET", rs(32, AN)), ("OVH_CONSUMER_KEY", rs(32, AN))], None, "none")
F("Cloudflare", "cloudflare_api_token", "cloud", lambda: [("CLOUDFLARE_API_TOKEN", b64u(40))], "api.cloudflare.com")
F("Cloudflare", "cloudflare_global_api_key", "cloud", lambda: [("CF_API_EMAIL", corp_email()), ("CF_API_KEY", hx(37))], "api.cloudflare.com", "hdr:X-Auth-Key")
F("Cloudflare", "cloudflare_origin_ca_key", "cloud", lambda: [("CF_ORIGIN_CA_KEY", "v1.0-" + hx(24) + "-" + hx(146))], "api.cloudflare.com", "hdr:X-Auth-User-Service-Key")
F("Cloudflare R2", "cloudflare_r2_credentials", "cloud", lambda: [("R2_ACCOUNT_ID", hx(32)), ("R2_ACCESS_KEY_ID", hx(32)), ("R2_SECRET_ACCESS_KEY", hx(64))], None, "none")
F("Fastly", "fastly_api_token", "cloud", lambda: [("FASTLY_API_TOKEN", b64u(32))], "api.fastly.com", "hdr:Fastly-Key")
F("Heroku", "heroku_api_key", "cloud", lambda: [("HEROKU_API_KEY", "HRKU-AA" + b64u(58))], "api.heroku.com")
F("Netlify", "netlify_pat", "cloud", lambda: [("NETLIFY_AUTH_TOKEN", "nfp_" + rs(36, AN))], "api.netlify.com")
F("Vercel", "vercel_token", "cloud", lambda: [("VERCEL_TOKEN", rs(24, AN))], "api.vercel.com")
F("Fly.io", "flyio_token", "cloud", lambda: [("FLY_API_TOKEN", "FlyV1 fm2_lJPECAAAAAAAA" + b64s(R.randint(160, 220)) + "==")], "api.machines.dev", "none")
F("Render", "render_api_key", "cloud", lambda: [("RENDER_API_KEY", "rnd_" + rs(32, AN))], "api.render.com")
F("Railway", "railway_token", "cloud", lambda: [("RAILWAY_TOKEN", uuid4())], "backboard.railway.app")
F("Supabase", "supabase_service_role_key", "cloud", lambda: [("SUPABASE_URL", f"https://{rs(20, LO)}.supabase.co"), ("SUPABASE_SERVICE_ROLE_KEY", jwt({"iss": "supabase", "ref": rs(20, LO), "role": "service_role", "iat": 1700000000 + R.randint(0, 40000000), "exp": 2015000000 + R.randint(0, 40000000)}))], None, "hdr:apikey")
F("Supabase", "supabase_pat", "cloud", lambda: [("SUPABASE_ACCESS_TOKEN", "sbp_" + hx(40))], "api.supabase.com")
F("Firebase", "firebase_fcm_server_key", "messaging", lambda: [("FCM_SERVER_KEY", "AAAA" + b64u(7) + ":APA91b" + b64u(134))], "fcm.googleapis.com", "hdr:Authorization: key=")
F("Firebase", "firebase_database_secret", "database", lambda: [("FIREBASE_DB_SECRET", rs(40, AN))], None, "none")
F("Pulumi", "pulumi_access_token", "cicd", lambda: [("PULUMI_ACCESS_TOKEN", "pul-" + hx(40))], "api.pulumi.com", "hdr:Authorization: token ")
F("HashiCorp Terraform Cloud", "terraform_cloud_token", "cicd", lambda: [("TFE_TOKEN", rs(14, AN) + ".atlasv1." + rs(67, AN))], "app.terraform.io")
F("HashiCorp Vault", "vault_service_token", "secrets-mgmt", lambda: [("VAULT_ADDR", f"https://vault.{pick(['internal','corp','ops'])}.{pick(['acme-corp.com','northwind.io'])}:8200"), ("VAULT_TOKEN", "hvs.CAESI" + b64u(86))], None, "hdr:X-Vault-Token")
F("HashiCorp Vault", "vault_batch_token", "secrets-mgmt", lambda: [("VAULT_TOKEN", "hvb.AAAAAQ" + b64u(130))], None, "hdr:X-Vault-Token")
F("Doppler", "doppler_service_token", "secrets-mgmt", lambda: [("DOPPLER_TOKEN", "dp.st." + pick(["prd", "dev", "stg"]) + "." + rs(40, AN))], "api.doppler.com")
F("Doppler", "doppler_personal_token", "secrets-mgmt", lambda: [("DOPPLER_TOKEN", "dp.pt." + rs(43, AN))], "api.doppler.com")
F("1Password", "onepassword_service_account_token", "secrets-mgmt", lambda: [("OP_SERVICE_ACCOUNT_TOKEN", "ops_eyJzaWduSW5BZGRyZXNzIjoi" + b64u(R.randint(280, 340)))], None, "none")
F("Infisical", "infisical_service_token", "secrets-mgmt", lambda: [("INFISICAL_TOKEN", "st." + uuid4() + "." + hx(32) + "." + hx(32))], "app.infisical.com")
F("Databricks", "databricks_pat", "database", lambda: [("DATABRICKS_HOST", f"https://adb-{dg(16)}.{R.randint(1,19)}.azuredatabricks.net"), ("DATABRICKS_TOKEN", "dapi" + hx(32))], None)
F("Snowflake", "snowflake_connection_url", "database", lambda: [("SNOWFLAKE_URL", f"snowflake://{pick(['etl_user','ANALYST_SVC','dbt_runner','looker'])}:{urllib.parse.quote(_pw_cfg(), safe='')}@{rs(7, UP)}-{rs(7, UP)}/ANALYTICS/PUBLIC?warehouse=COMPUTE_WH&role=TRANSFORMER")], None, "none")
F("Confluent", "confluent_cloud_api_key", "database", lambda: [("CONFLUENT_API_KEY", rs(16, UD)), ("CONFLUENT_API_SECRET", rs(64, AN + "+/"))], None, "none")

# ---- code hosting / CI / registries
F("GitHub", "github_pat_classic", "cicd", lambda: [("GITHUB_TOKEN", "ghp_" + rs(36, AN))], "api.github.com", "hdr:Authorization: token ")
F("GitHub", "github_pat_fine_grained", "cicd", lambda: [("GH_TOKEN", "github_pat_11" + rs(20, UD) + "_" + rs(59, AN))], "api.github.com")
F("GitHub", "github_oauth_token", "cicd", lambda: [("oauth_token", "gho_" + rs(36, AN))], "api.github.com")
F("GitHub", "github_app_installation_token", "cicd", lambda: [("INSTALLATION_TOKEN", "ghs_" + rs(36, AN))], "api.github.com")
F("GitHub", "github_refresh_token", "cicd", lambda: [("refresh_token", "ghr_" + rs(76, AN))], "github.com", "none")
F("GitHub", "github_user_to_server_token", "cicd", lambda: [("user_token", "ghu_" + rs(36, AN))], "api.github.com")
F("GitHub", "github_webhook_secret", "cicd", lambda: [("GITHUB_WEBHOOK_SECRET", hx(40))], None, "none")
F("GitLab", "gitlab_pat", "cicd", lambda: [("GITLAB_TOKEN", "glpat-" + b64u(20))], "gitlab.com", "hdr:PRIVATE-TOKEN")
F("GitLab", "gitlab_runner_token", "cicd", lambda: [("RUNNER_TOKEN", "glrt-t" + str(R.randint(1, 3)) + "_" + b64u(20))], None, "none")
F("GitLab", "gitlab_pipeline_trigger_token", "cicd", lambda: [("TRIGGER_TOKEN", "glptt-" + hx(40))], None, "none")
F("GitLab", "gitlab_deploy_token", "cicd", lambda: [("DEPLOY_USER", f"gitlab+deploy-token-{dg(7)}"), ("DEPLOY_TOKEN", "gldt-" + b64u(20))], None, "none")
F("GitLab", "gitlab_feed_token", "cicd", lambda: [("feed_token", "glft-" + b64u(20))], None, "none")
F("Bitbucket", "bitbucket_app_password", "cicd", lambda: [("BITBUCKET_USER", pick(EN_FIRST).lower() + dg(2)), ("BITBUCKET_APP_PASSWORD", "ATBB" + rs(32, AN) + HX(8))], "api.bitbucket.org", "basic")
F("Atlassian", "atlassian_api_token", "saas", lambda: [("JIRA_EMAIL", corp_email()), ("JIRA_API_TOKEN", "ATATT3xFfGF0" + b64u(R.randint(170, 190)) + "=" + HX(8))], "acme.atlassian.net", "basic")
F("Atlassian", "jira_datacenter_pat", "saas", lambda: [("JIRA_PAT", "N" + rs(43, AN + "+/"))], "jira.internal.corp")
F("CircleCI", "circleci_pat", "cicd", lambda: [("CIRCLECI_TOKEN", "CCIPAT_" + rs(22, AN) + "_" + hx(40))], "circleci.com", "hdr:Circle-Token")
F("Travis CI", "travis_ci_token", "cicd", lambda: [("TRAVIS_TOKEN", b64u(22))], "api.travis-ci.com", "hdr:Authorization: token ")
F("Buildkite", "buildkite_api_token", "cicd", lambda: [("BUILDKITE_API_TOKEN", "bkua_" + hx(40))], "api.buildkite.com")
F("Jenkins", "jenkins_api_token", "cicd", lambda: [("JENKINS_USER", pick(["ci-bot", "deploy", "admin", "release"])), ("JENKINS_API_TOKEN", "11" + hx(32))], "jenkins.corp.internal", "basic")
F("Drone CI", "drone_token", "cicd", lambda: [("DRONE_TOKEN", rs(32, AN))], "drone.corp.internal")
F("TeamCity", "teamcity_token", "cicd", lambda: [("TEAMCITY_TOKEN", "eyJ0eXAiOiAiVENWMiJ9." + b64u(36) + "." + b64u(48))], "teamcity.corp.internal")
F("Codecov", "codecov_upload_token", "cicd", lambda: [("CODECOV_TOKEN", uuid4())], None, "none")
F("SonarQube", "sonarqube_token", "cicd", lambda: [("SONAR_TOKEN", "squ_" + hx(40))], "sonar.corp.internal", "basic")
F("Snyk", "snyk_token", "cicd", lambda: [("SNYK_TOKEN", uuid4())], "api.snyk.io", "hdr:Authorization: token ")
F("JFrog", "jfrog_api_key", "registry", lambda: [("ARTIFACTORY_API_KEY", "AKCp8" + rs(68, AN))], "acme.jfrog.io", "hdr:X-JFrog-Art-Api")
F("JFrog", "jfrog_reference_token", "registry", lambda: [("JFROG_ACCESS_TOKEN", b64std(f"reftkn:01:{1700000000 + R.randint(0, 90000000)}:{rs(33, AN)}".encode()).rstrip("="))], "acme.jfrog.io")
F("Docker Hub", "dockerhub_pat", "registry", lambda: [("DOCKERHUB_USERNAME", pick(EN_FIRST).lower() + pick(["dev", "ops", ""]) + dg(2)), ("DOCKERHUB_TOKEN", "dckr_pat_" + b64u(27))], None, "none")
F("Quay", "quay_robot_token", "registry", lambda: [("QUAY_USERNAME", f"{_acct()}+{pick(['ci','deployer','puller'])}"), ("QUAY_PASSWORD", rs(64, UD))], None, "none")
F("npm", "npm_access_token", "registry", lambda: [("NPM_TOKEN", "npm_" + rs(36, AN))], "registry.npmjs.org")
F("PyPI", "pypi_api_token", "registry", lambda: [("TWINE_PASSWORD", "pypi-AgEIcHlwaS5vcmc" + b64u(R.randint(150, 190)))], None, "none")
F("TestPyPI", "testpypi_api_token", "registry", lambda: [("TEST_PYPI_TOKEN", "pypi-AgENdGVzdC5weXBpLm9yZw" + b64u(R.randint(150, 180)))], None, "none")
F("RubyGems", "rubygems_api_key", "registry", lambda: [("GEM_HOST_API_KEY", "rubygems_" + hx(48))], "rubygems.org", "hdr:Authorization")
F("NuGet", "nuget_api_key", "registry", lambda: [("NUGET_API_KEY", "oy2" + rs(43, LD))], "api.nuget.org", "hdr:X-NuGet-ApiKey")
F("crates.io", "crates_io_token", "registry", lambda: [("CARGO_REGISTRY_TOKEN", "cio" + rs(32, AN))], None, "none")
F("Clojars", "clojars_token", "registry", lambda: [("CLOJARS_PASSWORD", "CLOJARS_" + hx(60))], None, "none")
F("Gradle Plugin Portal", "gradle_publish_keys", "registry", lambda: [("gradle.publish.key", rs(32, AN)), ("gradle.publish.secret", rs(32, AN))], None, "none")
F("Octopus Deploy", "octopus_api_key", "cicd", lambda: [("OCTOPUS_API_KEY", "API-" + rs(26, UD))], "octopus.corp.internal", "hdr:X-Octopus-ApiKey")
F("Harness", "harness_pat", "cicd", lambda: [("HARNESS_API_KEY", "pat." + b64u(22) + "." + hx(24) + "." + rs(20, AN))], "app.harness.io", "hdr:x-api-key")
F("Postman", "postman_api_key", "saas", lambda: [("POSTMAN_API_KEY", "PMAK-" + hx(24) + "-" + hx(34))], "api.getpostman.com", "hdr:X-Api-Key")
F("Grafana", "grafana_service_account_token", "observability", lambda: [("GRAFANA_TOKEN", "glsa_" + rs(32, AN) + "_" + hx(8))], "grafana.corp.internal")
F("Grafana Cloud", "grafana_cloud_token", "observability", lambda: [("GRAFANA_CLOUD_TOKEN", "glc_eyJvIjoi" + b64s(R.randint(120, 160)) + "=")], None, "none")
F("Gitea", "gitea_token", "cicd", lambda: [("GITEA_TOKEN", hx(40))], "git.home.lan", "hdr:Authorization: token ")
F("Expo", "expo_access_token", "cicd", lambda: [("EXPO_TOKEN", b64u(40))], None, "none")
F("Sentry", "sentry_org_auth_token", "observability", lambda: [("SENTRY_AUTH_TOKEN", "sntrys_eyJpYXQiOjE3" + b64s(R.randint(120, 150)) + "_" + b64s(43))], "sentry.io")
F("Sentry", "sentry_user_auth_token", "observability", lambda: [("SENTRY_AUTH_TOKEN", "sntryu_" + hx(64))], "sentry.io")

# ---- collaboration / messaging
F("Slack", "slack_bot_token", "messaging", lambda: [("SLACK_BOT_TOKEN", f"xoxb-{dgnz(12)}-{dgnz(13)}-{rs(24, AN)}")], "slack.com")
F("Slack", "slack_user_token", "messaging", lambda: [("SLACK_USER_TOKEN", f"xoxp-{dgnz(12)}-{dgnz(12)}-{dgnz(13)}-{hx(32)}")], "slack.com")
F("Slack", "slack_app_token", "messaging", lambda: [("SLACK_APP_TOKEN", f"xapp-1-A{rs(10, UD)}-{dgnz(13)}-{hx(64)}")], "slack.com")
F("Slack", "slack_config_refresh_token", "messaging", lambda: [("SLACK_CONFIG_REFRESH", f"xoxe-1-My0x{rs(4, AN)}-{dgnz(13)}-{dgnz(13)}-{hx(64)}")], None, "none")
F("Slack", "slack_incoming_webhook", "webhook", lambda: [("SLACK_WEBHOOK_URL", f"https://hooks.slack.com/services/T{rs(10, UD)}/B{rs(10, UD)}/{rs(24, AN)}")], None, "url")
F("Discord", "discord_bot_token", "messaging", lambda: [("DISCORD_TOKEN", b64url(dgnz(19).encode()) + "." + b64u(6) + "." + b64u(38))], "discord.com", "hdr:Authorization: Bot ")
F("Discord", "discord_webhook", "webhook", lambda: [("DISCORD_WEBHOOK", f"https://discord.com/api/webhooks/{dgnz(19)}/{b64u(68)}")], None, "url")
F("Telegram", "telegram_bot_token", "messaging", lambda: [("TELEGRAM_BOT_TOKEN", f"{dgnz(10)}:AA{b64u(33)}")], None, "none")
F("Microsoft Teams", "teams_incoming_webhook", "webhook", lambda: [("TEAMS_WEBHOOK", f"https://{_acct()}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}/V2{b64u(43)}")], None, "url")
F("Google Chat", "google_chat_webhook", "webhook", lambda: [("GCHAT_WEBHOOK", f"https://chat.googleapis.com/v1/spaces/AAAA{b64u(7)}/messages?key=AIzaSy{b64u(33)}&token={b64u(43)}%3D")], None, "url")
F("Mattermost", "mattermost_incoming_webhook", "webhook", lambda: [("MM_WEBHOOK", f"https://chat.{pick(['acme-corp.com','northwind.io','kestrel.dev'])}/hooks/{rs(26, LD)}")], None, "url")
F("Mattermost", "mattermost_pat", "messaging", lambda: [("MM_TOKEN", rs(26, LD))], "chat.acme-corp.com")
F("Zapier", "zapier_catch_hook", "webhook", lambda: [("ZAP_HOOK", f"https://hooks.zapier.com/hooks/catch/{dgnz(8)}/{rs(6, LD)}/")], None, "url")
F("Make", "make_webhook", "webhook", lambda: [("MAKE_HOOK", f"https://hook.{pick(['eu1','eu2','us1'])}.make.com/{rs(32, LD)}")], None, "url")
F("IFTTT", "ifttt_webhook_key", "webhook", lambda: [("IFTTT_URL", f"https://maker.ifttt.com/trigger/{pick(['door_open','med_reminder','low_balance','garage'])}/with/key/{b64u(22)}")], None, "url")
F("Twilio", "twilio_auth_token", "messaging", lambda: [("TWILIO_ACCOUNT_SID", "AC" + hx(32)), ("TWILIO_AUTH_TOKEN", hx(32))], "api.twilio.com", "basic")
F("Twilio", "twilio_api_key_secret", "messaging", lambda: [("TWILIO_API_KEY", "SK" + hx(32)), ("TWILIO_API_SECRET", rs(32, AN))], "api.twilio.com", "basic")
F("SendGrid", "sendgrid_api_key", "messaging", lambda: [("SENDGRID_API_KEY", "SG." + b64u(22) + "." + b64u(43))], "api.sendgrid.com")
F("Mailgun", "mailgun_api_key", "messaging", lambda: [("MAILGUN_API_KEY", hx(32) + "-" + hx(8) + "-" + hx(8))], "api.mailgun.net", "basic")
F("Mailgun", "mailgun_legacy_key", "messaging", lambda: [("MAILGUN_KEY", "key-" + hx(32))], "api.mailgun.net", "basic")
F("Mailchimp", "mailchimp_api_key", "messaging", lambda: [("MAILCHIMP_API_KEY", hx(32) + "-us" + str(R.randint(1, 21)))], None, "basic")
F("Mandrill", "mandrill_api_key", "messaging", lambda: [("MANDRILL_KEY", "md-" + b64u(22))], None, "none")
F("Postmark", "postmark_server_token", "messaging", lambda: [("POSTMARK_SERVER_TOKEN", uuid4())], "api.postmarkapp.com", "hdr:X-Postmark-Server-Token")
F("Brevo", "brevo_api_key", "messaging", lambda: [("BREVO_API_KEY", "xkeysib-" + hx(64) + "-" + rs(16, AN))], "api.brevo.com", "hdr:api-key")
F("Mailjet", "mailjet_api_credentials", "messaging", lambda: [("MJ_APIKEY_PUBLIC", hx(32)), ("MJ_APIKEY_PRIVATE", hx(32))], "api.mailjet.com", "basic")
F("SparkPost", "sparkpost_api_key", "messaging", lambda: [("SPARKPOST_API_KEY", hx(40))], "api.sparkpost.com", "hdr:Authorization")
F("Resend", "resend_api_key", "messaging", lambda: [("RESEND_API_KEY", "re_" + rs(8, AN) + "_" + rs(24, AN))], "api.resend.com")
F("MailerSend", "mailersend_token", "messaging", lambda: [("MAILERSEND_API_KEY", "mlsn." + hx(64))], "api.mailersend.com")
F("Vonage", "vonage_api_secret", "messaging", lambda: [("VONAGE_API_KEY", hx(8)), ("VONAGE_API_SECRET", rs(16, AN))], None, "none")
F("MessageBird", "messagebird_access_key", "messaging", lambda: [("MESSAGEBIRD_KEY", rs(25, AN))], "rest.messagebird.com", "hdr:Authorization: AccessKey ")
F("Plivo", "plivo_auth_token", "messaging", lambda: [("PLIVO_AUTH_ID", "MA" + rs(18, UD)), ("PLIVO_AUTH_TOKEN", rs(40, AN))], "api.plivo.com", "basic")
F("Telnyx", "telnyx_api_key", "messaging", lambda: [("TELNYX_API_KEY", "KEY0" + HX(31) + "_" + rs(22, AN))], "api.telnyx.com")
F("Pusher", "pusher_app_secret", "messaging", lambda: [("PUSHER_APP_ID", dgnz(7)), ("PUSHER_KEY", hx(20)), ("PUSHER_SECRET", hx(20))], None, "none")
F("Ably", "ably_api_key", "messaging", lambda: [("ABLY_API_KEY", rs(6, AN) + "." + b64u(6) + ":" + b64u(43))], "rest.ably.io", "basic")
F("LINE", "line_channel_access_token", "messaging", lambda: [("LINE_CHANNEL_ACCESS_TOKEN", b64s(171) + "=")], "api.line.me")
F("Meta", "meta_graph_access_token", "messaging", lambda: [("WHATSAPP_TOKEN", "EAA" + rs(R.randint(170, 200), AN))], "graph.facebook.com")
F("Meta", "facebook_app_secret", "saas", lambda: [("FB_APP_ID", dgnz(15)), ("FB_APP_SECRET", hx(32))], None, "none")
F("X (Twitter)", "twitter_bearer_token", "saas", lambda: [("TWITTER_BEARER_TOKEN", "AAAAAAAAAAAAAAAAAAAAA" + rs(25, AN) + "%3D" + rs(50, AN))], "api.twitter.com")
F("X (Twitter)", "twitter_consumer_secret", "saas", lambda: [("TWITTER_API_KEY", rs(25, AN)), ("TWITTER_API_SECRET", rs(50, AN))], None, "none")
F("Pushover", "pushover_app_token", "messaging", lambda: [("PUSHOVER_USER", "u" + rs(29, LD)), ("PUSHOVER_TOKEN", "a" + rs(29, LD))], None, "none")
F("OneSignal", "onesignal_rest_api_key", "messaging", lambda: [("ONESIGNAL_REST_API_KEY", "os_v2_app_" + rs(R.randint(100, 110), LO + "234567"))], "api.onesignal.com", "hdr:Authorization: Key ")
F("Agora", "agora_app_certificate", "messaging", lambda: [("AGORA_APP_ID", hx(32)), ("AGORA_APP_CERTIFICATE", hx(32))], None, "none")
F("LiveKit", "livekit_api_secret", "messaging", lambda: [("LIVEKIT_API_KEY", "API" + rs(12, AN)), ("LIVEKIT_API_SECRET", rs(43, AN))], None, "none")
F("Daily", "daily_api_key", "messaging", lambda: [("DAILY_API_KEY", hx(64))], "api.daily.co")
F("Zoom", "zoom_oauth_client_secret", "saas", lambda: [("ZOOM_ACCOUNT_ID", b64u(22)), ("ZOOM_CLIENT_ID", rs(22, AN)), ("ZOOM_CLIENT_SECRET", rs(32, AN))], None, "none")

# ---- SaaS / productivity / commerce
F("HubSpot", "hubspot_private_app_token", "saas", lambda: [("HUBSPOT_ACCESS_TOKEN", f"pat-{pick(['na1','eu1','na2'])}-{uuid4()}")], "api.hubapi.com")
F("Salesforce", "salesforce_access_token", "saas", lambda: [("SF_INSTANCE_URL", f"https://{_acct()}.my.salesforce.com"), ("SF_ACCESS_TOKEN", "00D" + rs(15, AN) + "!AQ" + rs(2, AN) + "A" + rs(R.randint(90, 100), AN + "._"))], None)
F("Zendesk", "zendesk_api_token", "saas", lambda: [("ZENDESK_EMAIL", corp_email() + "/token"), ("ZENDESK_API_TOKEN", rs(40, AN))], "acme.zendesk.com", "basic")
F("Intercom", "intercom_access_token", "saas", lambda: [("INTERCOM_TOKEN", b64std(f"tok:{uuid4()}:1:0".encode()))], "api.intercom.io")
F("Freshdesk", "freshdesk_api_key", "saas", lambda: [("FRESHDESK_API_KEY", rs(20, AN))], "acme.freshdesk.com", "basic")
F("Asana", "asana_pat", "saas", lambda: [("ASANA_PAT", f"2/{dgnz(16)}/{dgnz(16)}:{hx(32)}")], "app.asana.com")
F("Notion", "notion_integration_token", "saas", lambda: [("NOTION_TOKEN", "ntn_" + dg(11) + rs(35, AN))], "api.notion.com")
F("Notion", "notion_legacy_secret", "saas", lambda: [("NOTION_API_KEY", "secret_" + rs(43, AN))], "api.notion.com")
F("Airtable", "airtable_pat", "saas", lambda: [("AIRTABLE_TOKEN", "pat" + rs(14, AN) + "." + hx(64))], "api.airtable.com")
F("Linear", "linear_api_key", "saas", lambda: [("LINEAR_API_KEY", "lin_api_" + rs(40, AN))], "api.linear.app", "hdr:Authorization")
F("ClickUp", "clickup_personal_token", "saas", lambda: [("CLICKUP_TOKEN", "pk_" + dgnz(8) + "_" + rs(32, UD))], "api.clickup.com", "hdr:Authorization")
F("Trello", "trello_token", "saas", lambda: [("TRELLO_KEY", hx(32)), ("TRELLO_TOKEN", "ATTA" + hx(64) + HX(8))], "api.trello.com", "none")
F("monday.com", "monday_api_token", "saas", lambda: [("MONDAY_API_TOKEN", jwt({"tid": R.randint(100000000, 499999999), "aai": R.randint(10, 20), "uid": R.randint(10000000, 69999999), "iad": iso_ts().replace("Z", ".000Z"), "per": "me:write", "actid": R.randint(1000000, 29999999), "rgn": pick(["use1", "euc1"])}))], "api.monday.com", "hdr:Authorization")
F("Figma", "figma_pat", "saas", lambda: [("FIGMA_TOKEN", "figd_" + b64u(40))], "api.figma.com", "hdr:X-Figma-Token")
F("Dropbox", "dropbox_access_token", "saas", lambda: [("DROPBOX_ACCESS_TOKEN", "sl.u.AF" + b64u(R.randint(130, 150)))], "api.dropboxapi.com")
F("Box", "box_developer_token", "saas", lambda: [("BOX_DEVELOPER_TOKEN", rs(32, AN))], "api.box.com")
F("Shopify", "shopify_admin_access_token", "commerce", lambda: [("SHOPIFY_SHOP", f"{_acct()}.myshopify.com"), ("SHOPIFY_ACCESS_TOKEN", "shpat_" + hx(32))], None, "hdr:X-Shopify-Access-Token")
F("Shopify", "shopify_shared_secret", "commerce", lambda: [("SHOPIFY_API_SECRET", "shpss_" + hx(32))], None, "none")
F("Shopify", "shopify_custom_app_token", "commerce", lambda: [("SHOPIFY_TOKEN", "shpca_" + hx(32))], None, "hdr:X-Shopify-Access-Token")
F("Shopify", "shopify_private_app_password", "commerce", lambda: [("SHOPIFY_PASSWORD", "shppa_" + hx(32))], None, "hdr:X-Shopify-Access-Token")
F("WooCommerce", "woocommerce_rest_keys", "commerce", lambda: [("WC_CONSUMER_KEY", "ck_" + hx(40)), ("WC_CONSUMER_SECRET", "cs_" + hx(40))], None, "basic")
F("BigCommerce", "bigcommerce_access_token", "commerce", lambda: [("BC_STORE_HASH", rs(10, LD)), ("BC_ACCESS_TOKEN", rs(31, LD))], "api.bigcommerce.com", "hdr:X-Auth-Token")
F("Amazon Seller Central", "lwa_refresh_token", "commerce", lambda: [("LWA_REFRESH_TOKEN", "Atzr|IwEBI" + b64u(R.randint(300, 340)))], None, "none")
F("Typeform", "typeform_pat", "saas", lambda: [("TYPEFORM_TOKEN", "tfp_" + rs(44, AN) + "_" + rs(14, AN))], "api.typeform.com")
F("Jotform", "jotform_api_key", "saas", lambda: [("JOTFORM_API_KEY", hx(32))], "api.jotform.com", "hdr:APIKEY")
F("Contentful", "contentful_management_token", "saas", lambda: [("CONTENTFUL_MANAGEMENT_TOKEN", "CFPAT-" + b64u(43))], "api.contentful.com")
F("Sanity", "sanity_api_token", "saas", lambda: [("SANITY_API_TOKEN", "sk" + rs(R.randint(170, 182), AN))], None)
F("Webflow", "webflow_api_token", "saas", lambda: [("WEBFLOW_TOKEN", hx(64))], "api.webflow.com")
F("Ghost", "ghost_admin_api_key", "saas", lambda: [("GHOST_ADMIN_API_KEY", hx(24) + ":" + hx(64))], None, "none")
F("WordPress", "wordpress_application_password", "saas", lambda: [("WP_USER", pick(["admin", "editor", pick(EN_FIRST).lower()])), ("WP_APP_PASSWORD", " ".join(rs(4, AN) for _ in range(6)))], None, "basic")
F("Strapi", "strapi_api_token", "saas", lambda: [("STRAPI_TOKEN", hx(256))], None)
F("Algolia", "algolia_admin_api_key", "saas", lambda: [("ALGOLIA_APP_ID", rs(10, UD)), ("ALGOLIA_ADMIN_KEY", hx(32))], None, "hdr:X-Algolia-API-Key")
F("Typesense", "typesense_admin_key", "saas", lambda: [("TYPESENSE_API_KEY", rs(32, AN))], None, "hdr:X-TYPESENSE-API-KEY")
F("Meilisearch", "meilisearch_master_key", "saas", lambda: [("MEILI_MASTER_KEY", b64u(32))], None, "none")
F("Mapbox", "mapbox_secret_token", "saas", lambda: [("MAPBOX_SECRET_TOKEN", "sk." + b64url(json.dumps({"u": pick(EN_FIRST).lower() + dg(2), "a": "cl" + rs(23, LD)}, separators=(",", ":")).encode()) + "." + b64u(22))], None, "query:access_token")
F("HERE", "here_api_key", "saas", lambda: [("HERE_API_KEY", b64u(43))], None, "query:apiKey")
F("TomTom", "tomtom_api_key", "saas", lambda: [("TOMTOM_KEY", rs(32, AN))], None, "query:key")
F("OpenWeatherMap", "openweathermap_api_key", "saas", lambda: [("OWM_API_KEY", hx(32))], "api.openweathermap.org", "query:appid")
F("Okta", "okta_api_token", "identity", lambda: [("OKTA_ORG_URL", f"https://{_acct()}.okta.com"), ("OKTA_API_TOKEN", "00" + b64u(40))], None, "hdr:Authorization: SSWS ")
F("Auth0", "auth0_client_secret", "identity", lambda: [("AUTH0_DOMAIN", f"{_acct()}.eu.auth0.com"), ("AUTH0_CLIENT_ID", rs(32, AN)), ("AUTH0_CLIENT_SECRET", b64u(64))], None, "none")
F("Auth0", "auth0_management_api_token", "identity", lambda: [("AUTH0_MGMT_TOKEN", jwt({"iss": f"https://{_acct()}.us.auth0.com/", "sub": f"{rs(32, AN)}@clients", "aud": "https://acme.us.auth0.com/api/v2/", "iat": 1720000000 + R.randint(0, 9000000), "exp": 1730000000 + R.randint(0, 9000000), "scope": "read:users update:users delete:users", "gty": "client-credentials"}, "RS256", kid=b64u(22)))], None)
F("Clerk", "clerk_secret_key", "identity", lambda: [("CLERK_SECRET_KEY", "sk_live_" + rs(40, AN))], "api.clerk.com")
F("Keycloak", "keycloak_client_secret", "identity", lambda: [("KEYCLOAK_CLIENT_ID", app_slug() + "-backend"), ("KEYCLOAK_CLIENT_SECRET", rs(32, AN))], None, "none")
F("Duo Security", "duo_secret_key", "identity", lambda: [("DUO_IKEY", "DI" + rs(18, UD)), ("DUO_SKEY", rs(40, AN)), ("DUO_HOST", f"api-{hx(8)}.duosecurity.com")], None, "none")
F("Mixpanel", "mixpanel_api_secret", "observability", lambda: [("MIXPANEL_API_SECRET", hx(32))], "mixpanel.com", "basic")
F("Amplitude", "amplitude_secret_key", "observability", lambda: [("AMPLITUDE_API_KEY", hx(32)), ("AMPLITUDE_SECRET_KEY", hx(32))], None, "basic")
F("LaunchDarkly", "launchdarkly_server_sdk_key", "saas", lambda: [("LD_SDK_KEY", "sdk-" + uuid4())], None, "none")
F("LaunchDarkly", "launchdarkly_api_access_token", "saas", lambda: [("LD_API_TOKEN", "api-" + uuid4())], "app.launchdarkly.com", "hdr:Authorization")
F("PostHog", "posthog_personal_api_key", "observability", lambda: [("POSTHOG_PERSONAL_API_KEY", "phx_" + rs(43, AN))], "eu.posthog.com")
F("Datadog", "datadog_api_app_keys", "observability", lambda: [("DD_API_KEY", hx(32)), ("DD_APP_KEY", hx(40))], "api.datadoghq.eu", "hdr:DD-API-KEY")
F("New Relic", "newrelic_user_api_key", "observability", lambda: [("NEW_RELIC_API_KEY", "NRAK-" + rs(27, UD))], "api.newrelic.com", "hdr:Api-Key")
F("New Relic", "newrelic_license_key", "observability", lambda: [("NEW_RELIC_LICENSE_KEY", hx(36) + "NRAL")], None, "none")
F("New Relic", "newrelic_insights_insert_key", "observability", lambda: [("NRII_KEY", "NRII-" + b64u(32))], None, "hdr:X-Insert-Key")
F("Honeycomb", "honeycomb_api_key", "observability", lambda: [("HONEYCOMB_API_KEY", "hcaik_01" + rs(56, LD))], "api.honeycomb.io", "hdr:X-Honeycomb-Team")
F("PagerDuty", "pagerduty_rest_api_key", "observability", lambda: [("PAGERDUTY_TOKEN", "u+" + b64u(18))], "api.pagerduty.com", "hdr:Authorization: Token token=")
F("PagerDuty", "pagerduty_integration_key", "observability", lambda: [("PD_ROUTING_KEY", hx(32))], None, "none")
F("Opsgenie", "opsgenie_api_key", "observability", lambda: [("OPSGENIE_API_KEY", uuid4())], "api.opsgenie.com", "hdr:Authorization: GenieKey ")
F("Splunk", "splunk_hec_token", "observability", lambda: [("SPLUNK_HEC_TOKEN", uuid4().upper())], "splunk.corp.internal:8088", "hdr:Authorization: Splunk ")
F("Elastic", "elastic_api_key", "observability", lambda: [("ELASTIC_API_KEY", b64std(f"{b64u(20)}:{b64u(22)}".encode()))], "acme.es.eu-west-1.aws.found.io", "hdr:Authorization: ApiKey ")
F("Dynatrace", "dynatrace_api_token", "observability", lambda: [("DT_API_TOKEN", "dt0c01." + rs(24, UD) + "." + rs(64, UD))], "abc12345.live.dynatrace.com", "hdr:Authorization: Api-Token ")
F("Loggly", "loggly_customer_token", "observability", lambda: [("LOGGLY_URL", f"https://logs-01.loggly.com/inputs/{uuid4()}/tag/http/")], None, "url")
F("Rollbar", "rollbar_access_token", "observability", lambda: [("ROLLBAR_ACCESS_TOKEN", hx(32))], "api.rollbar.com", "hdr:X-Rollbar-Access-Token")
F("Sumo Logic", "sumologic_access_key", "observability", lambda: [("SUMO_ACCESS_ID", "su" + rs(12, AN)), ("SUMO_ACCESS_KEY", rs(64, AN))], None, "basic")
F("Better Stack", "betterstack_source_token", "observability", lambda: [("LOGTAIL_SOURCE_TOKEN", rs(24, AN))], "in.logs.betterstack.com")
F("Axiom", "axiom_api_token", "observability", lambda: [("AXIOM_TOKEN", "xaat-" + uuid4())], "api.axiom.co")
F("Cloudinary", "cloudinary_url", "saas", lambda: [("CLOUDINARY_URL", f"cloudinary://{dgnz(15)}:{b64u(27)}@{_acct()}")], None, "none")
F("Backblaze B2", "backblaze_application_key", "cloud", lambda: [("B2_APPLICATION_KEY_ID", "005" + hx(22)), ("B2_APPLICATION_KEY", "K005" + rs(27, AN + "+/"))], None, "none")
F("Wasabi", "wasabi_access_keys", "cloud", lambda: [("WASABI_ACCESS_KEY", rs(20, UD)), ("WASABI_SECRET_KEY", rs(40, AN))], None, "none")
F("MinIO", "minio_root_credentials", "cloud", lambda: [("MINIO_ROOT_USER", pick(["minioadmin2", "storage-admin", "backup_root"])), ("MINIO_ROOT_PASSWORD", _pw_strong())], None, "none")
F("Mux", "mux_token_secret", "saas", lambda: [("MUX_TOKEN_ID", uuid4()), ("MUX_TOKEN_SECRET", b64s(75))], "api.mux.com", "basic")
F("Vimeo", "vimeo_access_token", "saas", lambda: [("VIMEO_TOKEN", hx(32))], "api.vimeo.com")
F("Spotify", "spotify_client_secret", "saas", lambda: [("SPOTIFY_CLIENT_ID", hx(32)), ("SPOTIFY_CLIENT_SECRET", hx(32))], None, "none")
F("Twitch", "twitch_oauth_token", "saas", lambda: [("TWITCH_OAUTH", "oauth:" + rs(30, LD))], None, "none")
F("Riot Games", "riot_api_key", "saas", lambda: [("RIOT_API_KEY", "RGAPI-" + uuid4())], "euw1.api.riotgames.com", "hdr:X-Riot-Token")
F("Steam", "steam_web_api_key", "saas", lambda: [("STEAM_API_KEY", HX(32))], "api.steampowered.com", "query:key")
F("Roblox", "roblox_security_cookie", "saas", lambda: [(".ROBLOSECURITY", "_|WARNING:-DO-NOT-SHARE-THIS.--Sharing-this-will-allow-someone-to-log-in-as-you-and-to-steal-your-ROBUX-and-items.|_" + HX(R.randint(300, 360)))], None, "none")
F("Reddit", "reddit_app_secret", "saas", lambda: [("REDDIT_CLIENT_ID", b64u(22)), ("REDDIT_CLIENT_SECRET", b64u(30))], None, "none")
F("Strava", "strava_client_secret", "saas", lambda: [("STRAVA_CLIENT_ID", dgnz(6)), ("STRAVA_CLIENT_SECRET", hx(40))], None, "none")
F("Pipedrive", "pipedrive_api_token", "saas", lambda: [("PIPEDRIVE_API_TOKEN", hx(40))], "api.pipedrive.com", "query:api_token")
F("Zoho", "zoho_refresh_token", "saas", lambda: [("ZOHO_REFRESH_TOKEN", "1000." + hx(32) + "." + hx(32))], None, "none")
F("Todoist", "todoist_api_token", "saas", lambda: [("TODOIST_TOKEN", hx(40))], "api.todoist.com")
F("Intuit QuickBooks", "intuit_client_secret", "finance", lambda: [("QB_CLIENT_ID", "AB" + rs(48, AN)), ("QB_CLIENT_SECRET", rs(40, AN))], None, "none")
F("Xero", "xero_client_secret", "finance", lambda: [("XERO_CLIENT_ID", HX(32)), ("XERO_CLIENT_SECRET", b64u(48))], None, "none")
F("BambooHR", "bamboohr_api_key", "hr", lambda: [("BAMBOOHR_API_KEY", hx(40))], "api.bamboohr.com", "basic")
F("Greenhouse", "greenhouse_harvest_key", "hr", lambda: [("GREENHOUSE_API_KEY", hx(32) + "-" + dg(1))], "harvest.greenhouse.io", "basic")
F("DocuSign", "docusign_integration_secret", "saas", lambda: [("DOCUSIGN_INTEGRATION_KEY", uuid4()), ("DOCUSIGN_SECRET_KEY", uuid4())], None, "none")
F("Dropbox Sign", "dropbox_sign_api_key", "saas", lambda: [("HELLOSIGN_API_KEY", hx(64))], "api.hellosign.com", "basic")
F("Kit (ConvertKit)", "convertkit_api_secret", "messaging", lambda: [("CONVERTKIT_API_SECRET", b64u(43))], "api.convertkit.com", "query:api_secret")
F("Klaviyo", "klaviyo_private_key", "messaging", lambda: [("KLAVIYO_PRIVATE_KEY", "pk_" + hx(34))], "a.klaviyo.com", "hdr:Authorization: Klaviyo-API-Key ")
F("Braze", "braze_rest_api_key", "messaging", lambda: [("BRAZE_REST_KEY", uuid4())], "rest.fra-02.braze.eu")
F("Frame.io", "frameio_token", "saas", lambda: [("FRAMEIO_TOKEN", "fio-u-" + b64u(64))], "api.frame.io")
F("Prefect", "prefect_api_key", "cicd", lambda: [("PREFECT_API_KEY", "pnu_" + rs(36, AN))], None, "none")
F("ReadMe", "readme_api_key", "saas", lambda: [("README_API_KEY", "rdme_" + hx(70))], "dash.readme.com", "basic")
F("Yandex", "yandex_oauth_token", "cloud", lambda: [("YANDEX_OAUTH", "y0_" + b64u(55))], None, "hdr:Authorization: OAuth ")
F("Adobe", "adobe_client_secret", "saas", lambda: [("ADOBE_CLIENT_ID", hx(32)), ("ADOBE_CLIENT_SECRET", "p8e-" + b64u(32))], None, "none")
F("Lokalise", "lokalise_api_token", "saas", lambda: [("LOKALISE_API_TOKEN", hx(40))], "api.lokalise.com", "hdr:X-Api-Token")
F("Crowdin", "crowdin_pat", "saas", lambda: [("CROWDIN_PERSONAL_TOKEN", hx(80))], "api.crowdin.com")
F("DeepL", "deepl_api_key", "ai", lambda: [("DEEPL_AUTH_KEY", uuid4() + ":fx")], "api-free.deepl.com", "hdr:Authorization: DeepL-Auth-Key ")
F("Cal.com", "calcom_api_key", "saas", lambda: [("CAL_API_KEY", "cal_live_" + hx(32))], "api.cal.com")
F("Calendly", "calendly_pat", "saas", lambda: [("CALENDLY_TOKEN", jwt({"iss": "https://auth.calendly.com", "iat": 1720000000 + R.randint(0, 9000000), "jti": uuid4(), "user_uuid": uuid4()}, "ES256", kid=hx(64), typ="PAT"))], "api.calendly.com")
F("Google reCAPTCHA", "recaptcha_secret_key", "saas", lambda: [("RECAPTCHA_SECRET_KEY", "6L" + b64u(38))], None, "none")
F("hCaptcha", "hcaptcha_secret", "saas", lambda: [("HCAPTCHA_SECRET", "0x" + hx(40))], None, "none")
F("Cloudflare Turnstile", "turnstile_secret_key", "saas", lambda: [("TURNSTILE_SECRET_KEY", "0x4AAAAAAA" + b64u(25))], None, "none")
F("Google Analytics", "ga4_measurement_protocol_secret", "observability", lambda: [("GA4_MEASUREMENT_ID", "G-" + rs(10, UD)), ("GA4_API_SECRET", b64u(22))], None, "none")
F("Shodan", "shodan_api_key", "security", lambda: [("SHODAN_API_KEY", rs(32, AN))], "api.shodan.io", "query:key")
F("VirusTotal", "virustotal_api_key", "security", lambda: [("VT_API_KEY", hx(64))], "www.virustotal.com", "hdr:x-apikey")
F("Tailscale", "tailscale_auth_key", "security", lambda: [("TS_AUTHKEY", "tskey-auth-k" + rs(10, AN) + "CNTRL-" + rs(33, AN))], None, "none")
F("ngrok", "ngrok_authtoken", "security", lambda: [("NGROK_AUTHTOKEN", "2" + rs(26, AN) + "_" + rs(21, AN))], None, "none")

# ---- payments / finance
F("Stripe", "stripe_live_secret_key", "payment", lambda: [("STRIPE_SECRET_KEY", "sk_live_51" + rs(97, AN))], "api.stripe.com")
F("Stripe", "stripe_restricted_key", "payment", lambda: [("STRIPE_RESTRICTED_KEY", "rk_live_51" + rs(97, AN))], "api.stripe.com")
F("Stripe", "stripe_webhook_secret", "payment", lambda: [("STRIPE_WEBHOOK_SECRET", "whsec_" + rs(32, AN))], None, "none")
F("PayPal", "paypal_client_secret", "payment", lambda: [("PAYPAL_CLIENT_ID", "A" + b64u(79)), ("PAYPAL_CLIENT_SECRET", "E" + b64u(79))], "api-m.paypal.com", "basic")
F("PayPal", "paypal_access_token", "payment", lambda: [("PAYPAL_ACCESS_TOKEN", "A21AA" + b64u(92))], "api-m.paypal.com")
F("Square", "square_access_token", "payment", lambda: [("SQUARE_ACCESS_TOKEN", "EAAA" + b64u(60))], "connect.squareup.com")
F("Square", "square_oauth_secret", "payment", lambda: [("SQUARE_APP_ID", "sq0idp-" + b64u(22)), ("SQUARE_APP_SECRET", "sq0csp-" + b64u(43))], None, "none")
F("Braintree", "braintree_access_token", "payment", lambda: [("BRAINTREE_ACCESS_TOKEN", f"access_token$production${rs(16, LD)}${hx(32)}")], None, "none")
F("Adyen", "adyen_api_key", "payment", lambda: [("ADYEN_API_KEY", "AQE" + rs(3, AN) + "mfxK" + rs(60, AN + "+/") + "=-" + rs(43, AN + "+/") + "=-" + rs(16, AN + "+/"))], "checkout-live.adyen.com", "hdr:X-API-Key")
F("Razorpay", "razorpay_key_secret", "payment", lambda: [("RAZORPAY_KEY_ID", "rzp_live_" + rs(14, AN)), ("RAZORPAY_KEY_SECRET", rs(24, AN))], "api.razorpay.com", "basic")
F("Paystack", "paystack_secret_key", "payment", lambda: [("PAYSTACK_SECRET_KEY", "sk_live_" + hx(40))], "api.paystack.co")
F("Flutterwave", "flutterwave_secret_key", "payment", lambda: [("FLW_SECRET_KEY", "FLWSECK-" + hx(32) + "-X")], "api.flutterwave.com")
F("Mollie", "mollie_live_api_key", "payment", lambda: [("MOLLIE_API_KEY", "live_" + rs(30, AN))], "api.mollie.com")
F("Plaid", "plaid_secret", "finance", lambda: [("PLAID_CLIENT_ID", hx(24)), ("PLAID_SECRET", hx(30)), ("PLAID_ENV", "production")], None, "none")
F("GoCardless", "gocardless_live_token", "payment", lambda: [("GOCARDLESS_ACCESS_TOKEN", "live_" + b64u(40))], "api.gocardless.com")
F("Checkout.com", "checkout_secret_key", "payment", lambda: [("CKO_SECRET_KEY", "sk_" + rs(26, LD))], "api.checkout.com")
F("Wise", "wise_api_token", "finance", lambda: [("WISE_API_TOKEN", uuid4())], "api.transferwise.com")
F("Paddle", "paddle_api_key", "payment", lambda: [("PADDLE_API_KEY", "pdl_live_apikey_" + rs(26, LD) + "_" + rs(22, AN) + "_" + rs(3, AN))], "api.paddle.com")
F("Authorize.net", "authorizenet_transaction_key", "payment", lambda: [("AUTHNET_API_LOGIN_ID", rs(10, AN)), ("AUTHNET_TRANSACTION_KEY", rs(16, AN))], None, "none")
F("Shippo", "shippo_live_token", "commerce", lambda: [("SHIPPO_API_TOKEN", "shippo_live_" + hx(40))], "api.goshippo.com", "hdr:Authorization: ShippoToken ")
F("EasyPost", "easypost_api_key", "commerce", lambda: [("EASYPOST_API_KEY", "EZAK" + hx(54))], "api.easypost.com", "basic")
F("Lob", "lob_live_api_key", "commerce", lambda: [("LOB_API_KEY", "live_" + hx(35))], "api.lob.com", "basic")
F("Duffel", "duffel_live_token", "commerce", lambda: [("DUFFEL_ACCESS_TOKEN", "duffel_live_" + b64u(43))], "api.duffel.com")
F("Lemon Squeezy", "lemonsqueezy_api_key", "payment", lambda: [("LEMONSQUEEZY_API_KEY", jwt({"aud": "94d59cef-dbb8-4ea5-b178-d2540fcd6919", "jti": hx(80), "iat": 1720000000 + R.randint(0, 9000000), "nbf": 1720000000, "sub": dgnz(6), "scopes": []}, "RS256"))], "api.lemonsqueezy.com")
F("Binance", "binance_api_secret", "crypto", lambda: [("BINANCE_API_KEY", rs(64, AN)), ("BINANCE_API_SECRET", rs(64, AN))], None, "none")
F("Kraken", "kraken_api_private_key", "crypto", lambda: [("KRAKEN_API_KEY", b64s(56)), ("KRAKEN_PRIVATE_KEY", b64s(86) + "==")], None, "none")
F("Coinbase", "coinbase_cdp_api_key", "crypto", lambda: [("name", f"organizations/{uuid4()}/apiKeys/{uuid4()}"), ("privateKey", ec_sec1_pem() + "\n")], None, "none")
F("Etherscan", "etherscan_api_key", "crypto", lambda: [("ETHERSCAN_API_KEY", rs(34, UD))], "api.etherscan.io", "query:apikey")
F("Infura", "infura_project_secret", "crypto", lambda: [("INFURA_PROJECT_ID", hx(32)), ("INFURA_PROJECT_SECRET", hx(32))], None, "basic")
F("Alchemy", "alchemy_rpc_url", "crypto", lambda: [("ALCHEMY_URL", f"https://eth-mainnet.g.alchemy.com/v2/{b64u(32)}")], None, "url")

# ---- AI APIs
F("OpenAI", "openai_project_key", "ai", lambda: [("OPENAI_API_KEY", "sk-proj-" + b64u(74) + "T3BlbkFJ" + b64u(74))], "api.openai.com")
F("OpenAI", "openai_legacy_user_key", "ai", lambda: [("OPENAI_API_KEY", "sk-" + rs(20, AN) + "T3BlbkFJ" + rs(20, AN))], "api.openai.com")
F("OpenAI", "openai_service_account_key", "ai", lambda: [("OPENAI_API_KEY", "sk-svcacct-" + b64u(74) + "T3BlbkFJ" + b64u(74))], "api.openai.com")
F("OpenAI", "openai_admin_key", "ai", lambda: [("OPENAI_ADMIN_KEY", "sk-admin-" + b64u(74) + "T3BlbkFJ" + b64u(74))], "api.openai.com")
F("Anthropic", "anthropic_api_key", "ai", lambda: [("ANTHROPIC_API_KEY", "sk-ant-api03-" + b64u(93) + "AA")], "api.anthropic.com", "hdr:x-api-key")
F("Anthropic", "anthropic_admin_key", "ai", lambda: [("ANTHROPIC_ADMIN_KEY", "sk-ant-admin01-" + b64u(93) + "AA")], "api.anthropic.com", "hdr:x-api-key")
F("Hugging Face", "huggingface_token", "ai", lambda: [("HF_TOKEN", "hf_" + rs(34, AN))], "huggingface.co")
F("Cohere", "cohere_api_key", "ai", lambda: [("CO_API_KEY", rs(40, AN))], "api.cohere.com")
F("Replicate", "replicate_api_token", "ai", lambda: [("REPLICATE_API_TOKEN", "r8_" + rs(37, AN))], "api.replicate.com")
F("Groq", "groq_api_key", "ai", lambda: [("GROQ_API_KEY", "gsk_" + rs(52, AN))], "api.groq.com")
F("Mistral AI", "mistral_api_key", "ai", lambda: [("MISTRAL_API_KEY", rs(32, AN))], "api.mistral.ai")
F("Perplexity", "perplexity_api_key", "ai", lambda: [("PPLX_API_KEY", "pplx-" + rs(48, AN))], "api.perplexity.ai")
F("xAI", "xai_api_key", "ai", lambda: [("XAI_API_KEY", "xai-" + rs(80, AN))], "api.x.ai")
F("DeepSeek", "deepseek_api_key", "ai", lambda: [("DEEPSEEK_API_KEY", "sk-" + hx(32))], "api.deepseek.com")
F("Together AI", "together_api_key", "ai", lambda: [("TOGETHER_API_KEY", "tgp_v1_" + b64u(43))], "api.together.xyz")
F("Fireworks AI", "fireworks_api_key", "ai", lambda: [("FIREWORKS_API_KEY", "fw_" + rs(24, AN))], "api.fireworks.ai")
F("ElevenLabs", "elevenlabs_api_key", "ai", lambda: [("ELEVENLABS_API_KEY", "sk_" + hx(48))], "api.elevenlabs.io", "hdr:xi-api-key")
F("AssemblyAI", "assemblyai_api_key", "ai", lambda: [("ASSEMBLYAI_API_KEY", hx(32))], "api.assemblyai.com", "hdr:authorization")
F("Deepgram", "deepgram_api_key", "ai", lambda: [("DEEPGRAM_API_KEY", hx(40))], "api.deepgram.com", "hdr:Authorization: Token ")
F("Pinecone", "pinecone_api_key", "ai", lambda: [("PINECONE_API_KEY", "pcsk_" + rs(5, AN) + "_" + rs(64, AN))], "api.pinecone.io", "hdr:Api-Key")
F("LangChain", "langsmith_personal_token", "ai", lambda: [("LANGSMITH_API_KEY", "lsv2_pt_" + hx(32) + "_" + hx(10))], "api.smith.langchain.com", "hdr:x-api-key")
F("LangChain", "langsmith_service_key", "ai", lambda: [("LANGCHAIN_API_KEY", "lsv2_sk_" + hx(32) + "_" + hx(10))], "api.smith.langchain.com", "hdr:x-api-key")
F("Weights & Biases", "wandb_api_key", "ai", lambda: [("WANDB_API_KEY", hx(40))], None, "none")
F("OpenRouter", "openrouter_api_key", "ai", lambda: [("OPENROUTER_API_KEY", "sk-or-v1-" + hx(64))], "openrouter.ai")
F("Stability AI", "stability_api_key", "ai", lambda: [("STABILITY_API_KEY", "sk-" + rs(48, AN))], "api.stability.ai")
F("Jina AI", "jina_api_key", "ai", lambda: [("JINA_API_KEY", "jina_" + hx(32) + rs(28, AN))], "api.jina.ai")
F("Voyage AI", "voyage_api_key", "ai", lambda: [("VOYAGE_API_KEY", "pa-" + b64u(43))], "api.voyageai.com")
F("Cerebras", "cerebras_api_key", "ai", lambda: [("CEREBRAS_API_KEY", "csk-" + rs(48, LD))], "api.cerebras.ai")
F("NVIDIA", "nvidia_nim_api_key", "ai", lambda: [("NVIDIA_API_KEY", "nvapi-" + b64u(64))], "integrate.api.nvidia.com")
F("Tavily", "tavily_api_key", "ai", lambda: [("TAVILY_API_KEY", "tvly-" + pick(["dev-", "prod-", ""]) + rs(32, AN))], "api.tavily.com")
F("SerpApi", "serpapi_key", "ai", lambda: [("SERPAPI_API_KEY", hx(64))], "serpapi.com", "query:api_key")
F("Firecrawl", "firecrawl_api_key", "ai", lambda: [("FIRECRAWL_API_KEY", "fc-" + hx(32))], "api.firecrawl.dev")
F("Browserbase", "browserbase_api_key", "ai", lambda: [("BROWSERBASE_API_KEY", "bb_live_" + b64u(27))], "api.browserbase.com", "hdr:X-BB-API-Key")
F("E2B", "e2b_api_key", "ai", lambda: [("E2B_API_KEY", "e2b_" + hx(40))], None, "none")
F("Langfuse", "langfuse_secret_key", "ai", lambda: [("LANGFUSE_PUBLIC_KEY", "pk-lf-" + uuid4()), ("LANGFUSE_SECRET_KEY", "sk-lf-" + uuid4())], "cloud.langfuse.com", "basic")
F("Helicone", "helicone_api_key", "ai", lambda: [("HELICONE_API_KEY", "sk-helicone-" + "-".join(rs(7, LD) for _ in range(4)))], "oai.helicone.ai", "hdr:Helicone-Auth: Bearer ")

# ---- databases / data stores / connection strings
def _user():
    return pick(["app", "app_rw", "postgres", "admin", "svc_billing", "reporting", "etl", "django", "root", "api_user", "hr_app", "claims_rw"])


def _dbhost(suffix):
    return f"{host_name()}.{suffix}"


F("PostgreSQL", "postgres_connection_uri", "database", lambda: [("DATABASE_URL", f"postgres://{_user()}:{urllib.parse.quote(_pw_cfg(), safe='')}@{_dbhost(pick(['internal.acme-corp.com','c9xk2lq0abcd.eu-west-1.rds.amazonaws.com','db.northwind.io']))}:5432/{app_slug().replace('-','_')}?sslmode=require")], None, "none")
F("MySQL", "mysql_connection_uri", "database", lambda: [("MYSQL_URL", f"mysql://{_user()}:{urllib.parse.quote(_pw_cfg(), safe='')}@{_dbhost('corp.internal')}:3306/{app_slug().replace('-','_')}")], None, "none")
F("MongoDB Atlas", "mongodb_srv_uri", "database", lambda: [("MONGODB_URI", f"mongodb+srv://{_user()}:{urllib.parse.quote(_pw_cfg(), safe='')}@cluster0.{rs(5, LD)}.mongodb.net/{app_slug()}?retryWrites=true&w=majority")], None, "none")
F("MongoDB Atlas", "mongodb_atlas_api_key", "database", lambda: [("ATLAS_PUBLIC_KEY", rs(8, LO)), ("ATLAS_PRIVATE_KEY", uuid4())], None, "none")
F("Redis", "redis_connection_uri", "database", lambda: [("REDIS_URL", f"rediss://default:{rs(32, AN)}@{pick(['redis-1' + dg(4) + '.c' + dg(3) + '.eu-west-1-1.ec2.redns.redis-cloud.com', 'cache.internal:6380'])}:{R.randint(10000, 19999)}")], None, "none")
F("Upstash", "upstash_redis_rest_token", "database", lambda: [("UPSTASH_REDIS_REST_URL", f"https://{pick(BIP39)}-{pick(BIP39)}-{R.randint(10000,99999)}.upstash.io"), ("UPSTASH_REDIS_REST_TOKEN", "AX" + rs(3, AN) + "AAIjcDE" + b64u(60))], None)
F("RabbitMQ", "amqp_connection_uri", "database", lambda: [("AMQP_URL", f"amqps://{_user()}:{urllib.parse.quote(_pw_cfg(), safe='')}@{pick(['rabbit.corp.internal','b-' + uuid4() + '.mq.eu-central-1.amazonaws.com'])}:5671/%2F")], None, "none")
F("Microsoft SQL Server", "mssql_connection_string", "database", lambda: [("ConnectionStrings__Default", f"Server=tcp:{_acct()}.database.windows.net,1433;Initial Catalog={app_slug()};Persist Security Info=False;User ID={_user()};Password={_pw_cfg()};MultipleActiveResultSets=False;Encrypt=True;")], None, "none")
F("Oracle Database", "oracle_jdbc_credentials", "database", lambda: [("spring.datasource.url", f"jdbc:oracle:thin:@//{_dbhost('corp.internal')}:1521/ORCLPDB1"), ("spring.datasource.username", _user().upper()), ("spring.datasource.password", _pw_cfg())], None, "none")
F("Neo4j", "neo4j_credentials", "database", lambda: [("NEO4J_URI", f"neo4j+s://{hx(8)}.databases.neo4j.io"), ("NEO4J_USERNAME", "neo4j"), ("NEO4J_PASSWORD", b64u(43))], None, "none")
F("Elasticsearch", "elasticsearch_basic_auth_url", "database", lambda: [("ES_URL", f"https://elastic:{rs(24, AN)}@{_acct()}.es.us-central1.gcp.cloud.es.io:9243")], None, "none")
F("ClickHouse", "clickhouse_connection", "database", lambda: [("CLICKHOUSE_URL", f"clickhouse://default:{b64u(20)}@{rs(10, LD)}.eu-central-1.aws.clickhouse.cloud:9440/default?secure=true")], None, "none")
F("CockroachDB", "cockroachdb_connection_uri", "database", lambda: [("COCKROACH_URL", f"postgresql://{_user()}:{b64u(22)}@{pick(BIP39)}-{pick(BIP39)}-{R.randint(1000,9999)}.{rs(4, LD)}.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full")], None, "none")
F("Neon", "neon_connection_uri", "database", lambda: [("DATABASE_URL", f"postgresql://neondb_owner:npg_{rs(12, AN)}@ep-{pick(BIP39)}-{pick(BIP39)}-{rs(8, LD)}.eu-central-1.aws.neon.tech/neondb?sslmode=require")], None, "none")
F("PlanetScale", "planetscale_password", "database", lambda: [("DATABASE_USERNAME", rs(20, LD)), ("DATABASE_PASSWORD", "pscale_pw_" + b64u(43))], None, "none")
F("PlanetScale", "planetscale_service_token", "database", lambda: [("PLANETSCALE_SERVICE_TOKEN_ID", rs(12, LD)), ("PLANETSCALE_SERVICE_TOKEN", "pscale_tkn_" + b64u(43))], None, "none")
F("Fauna", "fauna_secret", "database", lambda: [("FAUNA_SECRET", "fnA" + b64u(37))], None, "none")
F("Turso", "turso_auth_token", "database", lambda: [("TURSO_DATABASE_URL", f"libsql://{app_slug()}-{pick(EN_FIRST).lower()}.turso.io"), ("TURSO_AUTH_TOKEN", jwt({"a": "rw", "iat": 1720000000 + R.randint(0, 9000000), "id": uuid4()}, "EdDSA"))], None, "none")
F("InfluxDB", "influxdb_token", "database", lambda: [("INFLUX_TOKEN", b64u(86) + "==")], "eu-central-1-1.aws.cloud2.influxdata.com", "hdr:Authorization: Token ")
F("DataStax Astra", "astra_db_token", "database", lambda: [("ASTRA_DB_APPLICATION_TOKEN", "AstraCS:" + rs(24, AN) + ":" + hx(64))], None, "none")
F("CouchDB", "couchdb_admin_url", "database", lambda: [("COUCHDB_URL", f"http://admin:{human_password()}@{pick(['localhost','couch.lan','10.0.0.' + str(R.randint(2, 250))])}:5984")], None, "none")
F("SMTP", "smtp_credentials_url", "messaging", lambda: [("EMAIL_URL", f"smtp+tls://{urllib.parse.quote(corp_email(), safe='')}:{urllib.parse.quote(_pw_cfg(), safe='')}@smtp.office365.com:587")], None, "none")
F("FTP", "ftp_credentials_url", "database", lambda: [("FTP_URL", f"ftp://{pick(['upload','scanner','backup'])}:{human_password()}@{pick(['ftp.','files.'])}{pick(['acme-corp.com','northwind.io','clinic-group.net'])}/inbox")], None, "none")
F("LDAP", "ldap_bind_password", "identity", lambda: [("LDAP_BIND_DN", f"cn=svc-{app_slug()},ou=service,dc={pick(['acme','corp','hospital'])},dc=local"), ("LDAP_BIND_PASSWORD", _pw_cfg())], None, "none")
F("Apache Kafka", "kafka_sasl_jaas_config", "database", lambda: [("sasl.jaas.config", f'org.apache.kafka.common.security.plain.PlainLoginModule required username="{rs(16, UD)}" password="{rs(64, AN + "+/")}";')], None, "none")

# ---- private keys (PEM / OpenSSH / PGP / misc)
def _comment():
    return pick(EN_FIRST).lower() + "@" + pick(["macbook-pro", "thinkpad", "build-01", "bastion", "laptop", "ws-042"])


F("OpenSSH", "openssh_private_key_ed25519", "private-key", lambda: [("id_ed25519", ssh_ed25519_pair(_comment())[0] + "\n")], None, "none")
F("RSA", "rsa_private_key_pkcs1", "private-key", lambda: [("server.key", rsa_pkcs1_pem() + "\n")], None, "none")
F("PKCS#8", "pkcs8_private_key_rsa", "private-key", lambda: [("tls.key", rsa_pkcs8_pem() + "\n")], None, "none")
F("EC", "ec_private_key_sec1", "private-key", lambda: [("ec.key", ec_sec1_pem() + "\n")], None, "none")
F("PKCS#8", "pkcs8_private_key_ed25519", "private-key", lambda: [("signing.key", ed25519_pkcs8_pem() + "\n")], None, "none")
F("Apple", "apple_app_store_connect_p8", "private-key", lambda: [("KEY_ID", rs(10, UD)), ("ISSUER_ID", uuid4()), ("AuthKey.p8", ec_pkcs8_pem() + "\n")], None, "none")
F("GitHub", "github_app_private_key", "private-key", lambda: [("GITHUB_APP_ID", dgnz(6)), ("GITHUB_APP_PRIVATE_KEY", rsa_pkcs1_pem())], None, "none")
F("GnuPG", "pgp_private_key_block", "private-key", lambda: [("private.asc", pgp_block("PRIVATE", f"{pick(EN_FIRST)} {pick(EN_LAST)} <{svc_user()}>") + "\n")], None, "none")
F("PuTTY", "putty_ppk_private_key", "private-key", lambda: [("key.ppk", putty_ppk("eddsa-key-" + date_s().replace("-", "")))], None, "none")
F("age", "age_secret_key", "private-key", lambda: [("AGE_SECRET_KEY", "AGE-SECRET-KEY-1" + rs(58, BECH))], None, "none")
F("WireGuard", "wireguard_private_key", "private-key", lambda: [("wg0.conf", f"[Interface]\nPrivateKey = {b64std(rbytes(32))}\nAddress = 10.{R.randint(0,255)}.{R.randint(0,255)}.2/32\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {b64std(rbytes(32))}\nEndpoint = vpn.{pick(['home.lan','acme-corp.com','myhouse.duckdns.org'])}:51820\nAllowedIPs = 0.0.0.0/0\n")], None, "none")
F("Encrypted PKCS#8", "encrypted_private_key_with_passphrase", "private-key", lambda: [("client.key", encrypted_pkcs8_pem()), ("passphrase", human_password())], None, "none")

# ---- crypto wallets
F("Ethereum", "ethereum_private_key", "crypto", lambda: [("PRIVATE_KEY", "0x" + hx(64))], None, "none")
F("Bitcoin", "bitcoin_wif_private_key", "crypto", lambda: [("wif", btc_wif())], None, "none")
F("Bitcoin", "bip32_extended_private_key", "crypto", lambda: [("xprv", btc_xprv())], None, "none")
F("Solana", "solana_keypair_bytes", "crypto", lambda: [("id.json", json.dumps(list(rbytes(64)), separators=(",", ":")))], None, "none")
F("Solana", "solana_private_key_base58", "crypto", lambda: [("SOLANA_PRIVATE_KEY", sol_secret_b58())], None, "none")
F("BIP39", "bip39_seed_phrase_12", "crypto", lambda: [("mnemonic", " ".join(R.sample(BIP39, 12)))], None, "none")
F("BIP39", "bip39_seed_phrase_24", "crypto", lambda: [("mnemonic", " ".join(R.sample(BIP39, 24)))], None, "none")
F("Ethereum", "ethereum_keystore_password", "crypto", lambda: [("keystore", f"UTC--{date_s()}T{R.randint(10,23)}-{R.randint(10,59)}-{R.randint(10,59)}.{dg(9)}Z--{hx(40)}"), ("keystore_password", human_password())], None, "none")

# ---- app / framework secrets, config passwords, auth material
F("Generic", "jwt_signing_secret", "app-secret", lambda: [("JWT_SECRET", pick([b64u(48), hx(64), rs(40, AN + "!@#$%^&*")]))], None, "none")
F("Django", "django_secret_key", "app-secret", lambda: [("SECRET_KEY", "django-insecure-" + rs(50, LD + "!@#$%^&*(-_=+)") if R.random() < 0.3 else rs(50, LD + "!@#$%^&*(-_=+)"))], None, "none")
F("Ruby on Rails", "rails_secret_key_base", "app-secret", lambda: [("SECRET_KEY_BASE", hx(128))], None, "none")
F("Ruby on Rails", "rails_master_key", "app-secret", lambda: [("RAILS_MASTER_KEY", hx(32))], None, "none")
F("Laravel", "laravel_app_key", "app-secret", lambda: [("APP_KEY", "base64:" + b64std(rbytes(32)))], None, "none")
F("NextAuth.js", "nextauth_secret", "app-secret", lambda: [("NEXTAUTH_SECRET", b64std(rbytes(32)))], None, "none")
F("Flask", "flask_secret_key", "app-secret", lambda: [("FLASK_SECRET_KEY", hx(48))], None, "none")
F("Kubernetes", "kubernetes_service_account_token", "identity", lambda: [("token", jwt({"aud": ["https://kubernetes.default.svc.cluster.local"], "exp": 1760000000 + R.randint(0, 9000000), "iat": 1730000000 + R.randint(0, 9000000), "iss": "https://kubernetes.default.svc.cluster.local", "kubernetes.io": {"namespace": pick(["payments", "default", "hr", "claims"]), "serviceaccount": {"name": pick(["deployer", "ci-bot", "admin-sa"]), "uid": uuid4()}}, "nbf": 1730000000, "sub": "system:serviceaccount:payments:deployer"}, "RS256", kid=b64u(43)))], "kubernetes.default.svc")
F("Docker", "docker_config_auth", "registry", lambda: [("config.json", json.dumps({"auths": {pick(["https://index.docker.io/v1/", "ghcr.io", "registry.gitlab.com", f"{dg(12)}.dkr.ecr.eu-west-1.amazonaws.com"]): {"auth": b64std(f"{pick(EN_FIRST).lower()}:{human_password()}".encode())}}}, indent=2))], None, "none")
F("netrc", "netrc_credentials", "config-password", lambda: [(".netrc", f"machine {pick(['api.heroku.com','github.com','ftp.acme-corp.com','nexus.corp.internal'])}\n  login {pick([corp_email(), pick(EN_FIRST).lower()])}\n  password {pick([_pw_cfg(), 'ghp_' + rs(36, AN)])}\n")], None, "none")
F("PostgreSQL", "pgpass_entry", "config-password", lambda: [(".pgpass", f"{_dbhost('corp.internal')}:5432:{app_slug().replace('-','_')}:{_user()}:{_pw_cfg()}")], None, "none")
F("HTTP", "http_basic_auth_header", "config-password", lambda: [("Authorization", "Basic " + b64std(f"{pick(['admin','api','svc-' + app_slug(), pick(EN_FIRST).lower()])}:{_pw_cfg()}".encode()))], None, "none")
F("HTTP", "session_cookie", "config-password", lambda: [("Cookie", pick([f"sessionid={rs(32, LD)}; csrftoken={rs(64, AN)}", f"connect.sid=s%3A{b64u(32)}.{b64u(43)}", f"_session_id={hx(32)}", f"JSESSIONID={HX(32)}; remember-me={b64u(60)}"]))], None, "none")
def _otpauth():
    iss = pick(["GitHub", "AWS", "Okta", "Google", "Coinbase", "Fidelity", "Kraken", "Proton"])
    return f"otpauth://totp/{urllib.parse.quote(iss + ':' + svc_user())}?secret={rs(32, B32)}&issuer={iss}&algorithm=SHA1&digits=6&period=30"


F("TOTP", "totp_seed_otpauth_uri", "identity", lambda: [("otpauth", _otpauth())], None, "none")
F("Generic", "db_password_env", "config-password", lambda: [("DB_HOST", _dbhost("corp.internal")), ("DB_USER", _user()), ("DB_PASSWORD", _pw_cfg())], None, "none")
F("Spring", "spring_datasource_password", "config-password", lambda: [("spring.datasource.username", _user()), ("spring.datasource.password", _pw_cfg())], None, "none")
F("Docker Compose", "postgres_password_compose", "config-password", lambda: [("POSTGRES_USER", _user()), ("POSTGRES_PASSWORD", _pw_cfg())], None, "none")
F("Docker Compose", "mysql_root_password", "config-password", lambda: [("MYSQL_ROOT_PASSWORD", _pw_cfg())], None, "none")
F("Grafana", "grafana_admin_password", "config-password", lambda: [("GF_SECURITY_ADMIN_PASSWORD", _pw_cfg())], None, "none")
F("WordPress", "wp_config_db_password", "config-password", lambda: [("DB_NAME", "wp_" + rs(6, LO)), ("DB_USER", "wp_" + rs(5, LO)), ("DB_PASSWORD", _pw_cfg())], None, "none")
F("Ansible", "ansible_become_password", "config-password", lambda: [("ansible_user", pick(["deploy", "ubuntu", "ops"])), ("ansible_become_pass", _pw_cfg())], None, "none")
F("SMTP", "smtp_password_config", "config-password", lambda: [("SMTP_HOST", pick(["smtp.gmail.com", "smtp.office365.com", "mail.acme-corp.com"])), ("SMTP_USER", corp_email()), ("SMTP_PASS", _pw_cfg())], None, "none")
F("Apache Maven", "maven_settings_password", "config-password", lambda: [("settings.xml", f"<settings>\n  <servers>\n    <server>\n      <id>{pick(['nexus-releases','internal-repo','artifactory'])}</id>\n      <username>{pick(['deployer','ci','release-bot'])}</username>\n      <password>{_pw_cfg()}</password>\n    </server>\n  </servers>\n</settings>")], None, "none")
F("Router", "router_admin_password_config", "config-password", lambda: [("admin_user", "admin"), ("admin_password", human_password())], None, "none")
F("SNMP", "snmpv3_auth_passphrase", "config-password", lambda: [("snmp_user", "monitor"), ("auth_passphrase", _pw_cfg()), ("priv_passphrase", _pw_cfg())], None, "none")
F("Redis", "redis_requirepass", "config-password", lambda: [("requirepass", rs(32, AN))], None, "none")
F("OpenVPN", "openvpn_auth_user_pass", "config-password", lambda: [("auth.txt", f"{pick(EN_FIRST).lower()}.{pick(EN_LAST).lower().replace(chr(39), '')}\n{_pw_cfg()}\n")], None, "none")
F("Wi-Fi", "wpa_supplicant_psk", "config-password", lambda: [("wpa_supplicant.conf", f'network={{\n    ssid="{pick(["HomeNet","Casa","Vodafone-","FRITZ!Box 7590 ","TP-Link_","NETGEAR"])}{HX(4)}"\n    psk="{human_password()}"\n    key_mgmt=WPA-PSK\n}}')], None, "none")
F("Jupyter", "jupyter_server_token", "app-secret", lambda: [("url", f"http://127.0.0.1:8888/lab?token={hx(48)}")], None, "url")
F("Firebase", "firebase_admin_sdk_key", "cloud", lambda: [("firebase-adminsdk.json", {"type": "service_account", "project_id": f"{app_slug()}-app", "private_key_id": hx(40), "private_key": ec_pkcs8_pem() if False else rsa_pkcs8_pem() + "\n", "client_email": f"firebase-adminsdk-{rs(5, LD)}@{app_slug()}-app.iam.gserviceaccount.com", "client_id": dg(21)})], None, "none")


# ================================================================ rendering of technical credentials

PROJECTS = ["budget tracker", "clinic scheduler", "payroll sync", "expense bot", "side project", "family photo backup",
            "med-reminder app", "invoice parser", "HR onboarding flow", "home automation", "portfolio site", "timesheet export",
            "claims dashboard", "newsletter", "staging cluster", "data pipeline", "Discord bot", "thesis scraper"]
FILLER_ENV = ["NODE_ENV=production", "LOG_LEVEL=info", "PORT=8080", "TZ=Europe/Berlin", "APP_ENV=staging", "DEBUG=false",
              "FEATURE_FLAGS=new-checkout,dark-mode", "WORKERS=4", "REGION=eu-west-1", "CACHE_TTL=300", "SENTRY_ENVIRONMENT=prod",
              "PYTHONUNBUFFERED=1", "MAX_UPLOAD_MB=25", "LOCALE=en_US", "TIMEOUT_SECONDS=30"]


def is_ml(v):
    return isinstance(v, str) and "\n" in v


def slugify(s):
    out = "".join(c.lower() if c.isalnum() else "_" for c in s)
    while "__" in out:
        out = out.replace("__", "_")
    return out.strip("_")


def pairs_inline(pairs, sep=", ", kv=": "):
    return sep.join(f"{n}{kv}{v}" for n, v in pairs)


def secret_of(pairs):
    return pairs[-1][1]


def r_env(vendor, pairs):
    lines = []
    if R.random() < 0.6:
        lines.append(f"# {vendor}")
    fill = R.sample(FILLER_ENV, R.randint(0, 3))
    q = pick(["", "", '"', "'"])
    body = [f"{n}={q}{v}{q}" for n, v in pairs]
    lines += fill[:1] + body + fill[1:]
    return "\n".join(lines)


def r_shell(vendor, pairs):
    return "\n".join(f"export {n.upper().replace('.', '_')}='{v}'" for n, v in pairs)


def r_yaml(vendor, pairs):
    top = slugify(vendor)
    lines = [pick(["integrations:", "services:", "providers:", "secrets:", "config:"]), f"  {top}:"]
    for n, v in pairs:
        k = n.lower().replace(".", "_")
        if is_ml(v):
            lines.append(f"    {k}: |")
            lines += ["      " + ln for ln in v.rstrip("\n").split("\n")]
        else:
            lines.append(f"    {k}: {json.dumps(v) if R.random() < 0.4 else v}")
    if R.random() < 0.5:
        lines.append(f"    timeout: {R.choice([10, 15, 30, 60])}")
    return "\n".join(lines)


def r_json(vendor, pairs):
    inner = {}
    for n, v in pairs:
        inner[n if R.random() < 0.5 else n.lower()] = v
    shape = R.randint(0, 3)
    if shape == 0:
        return {"provider": vendor, "credentials": inner}
    if shape == 1:
        return {"type": "config", "service": slugify(vendor), "settings": inner, "updated": date_s()}
    if shape == 2:
        return {slugify(vendor): inner}
    return {"memory": f"{vendor} credentials for the {pick(PROJECTS)}", "data": inner}


def r_toml(vendor, pairs):
    return f"[{slugify(vendor)}]\n" + "\n".join(f'{n.lower().replace(".", "_")} = {json.dumps(v)}' for n, v in pairs)


def r_ini(vendor, pairs):
    return f"[{slugify(vendor)}]\n" + "\n".join(f"{n.lower()} = {v}" for n, v in pairs)


def r_compose(vendor, pairs):
    svc = pick(["api", "worker", "web", "backend", "scheduler"])
    img = pick(["node:20-alpine", "python:3.11-slim", "ghcr.io/acme/api:1.14.2", "postgres:16", "grafana/grafana:11.1.0"])
    env = "\n".join(f"      - {n}={v}" for n, v in pairs)
    return f"services:\n  {svc}:\n    image: {img}\n    environment:\n{env}\n    restart: unless-stopped"


def r_k8s(vendor, pairs):
    data = "\n".join(f"  {n}: {json.dumps(v)}" for n, v in pairs)
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {slugify(vendor).replace('_', '-')}-credentials\n  namespace: {pick(['default','prod','payments','hr'])}\ntype: Opaque\nstringData:\n{data}"


def r_tfvars(vendor, pairs):
    return "\n".join(f'{n.lower()} = "{v}"' for n, v in pairs)


def r_gha(vendor, pairs):
    env = "\n".join(f"      {n}: {v}" for n, v in pairs)
    return (f"jobs:\n  deploy:\n    runs-on: ubuntu-latest\n    env:\n{env}\n    steps:\n      - uses: actions/checkout@v4\n"
            f"      - run: ./scripts/deploy.sh")


def r_code_py(vendor, pairs):
    if len(pairs) == 1 and R.random() < 0.5:
        n, v = pairs[0]
        cls = "".join(w.capitalize() for w in slugify(vendor).split("_")) or "Client"
        return f"import {slugify(vendor) or 'client'}\n\nclient = {slugify(vendor)}.{cls}(api_key=\"{v}\")\nresp = client.ping()\nprint(resp)"
    lines = ["import os", ""] + [f'os.environ.setdefault("{n}", "{v}")' for n, v in pairs]
    return "\n".join(lines)


def r_code_js(vendor, pairs):
    obj = ",\n".join(f"  {n.lower().replace('.', '_')}: '{v}'" for n, v in pairs)
    return f"// {vendor} config\nexport const {slugify(vendor)}Config = {{\n{obj}\n}};"


def r_http(fmt, pairs):
    n, v = pairs[-1]
    host = fmt["host"] or f"api.{slugify(fmt['vendor']).replace('_', '')}.com"
    auth = fmt["auth"]
    path = pick(["/v1/me", "/v2/users", "/api/v1/status", "/v1/messages", "/v3/accounts", "/api/search"])
    if auth == "basic":
        user = pairs[0][1] if len(pairs) > 1 else pick(["api", "me", ""])
        hdr = "Authorization: Basic " + b64std(f"{user}:{v}".encode())
    elif auth.startswith("hdr:"):
        h = auth[4:]
        if ": " in h:
            hn, pre = h.split(": ", 1)
            hdr = f"{hn}: {pre}{v}"
        else:
            hdr = f"{h}: {v}"
    elif auth.startswith("query:"):
        return f"GET {path}?{auth[6:]}={v}&format=json HTTP/1.1\nHost: {host}\nAccept: application/json\nUser-Agent: python-requests/2.32.3"
    else:
        hdr = f"Authorization: Bearer {v}"
    return f"GET {path} HTTP/1.1\nHost: {host}\n{hdr}\nAccept: application/json\nUser-Agent: {pick(['curl/8.5.0', 'python-requests/2.32.3', 'axios/1.7.2', 'PostmanRuntime/7.39.0'])}"


def r_curl(fmt, pairs):
    n, v = pairs[-1]
    host = fmt["host"] or f"api.{slugify(fmt['vendor']).replace('_', '')}.com"
    auth = fmt["auth"]
    path = pick(["/v1/me", "/v1/projects", "/api/v2/items", "/v1/usage", "/v1/accounts"])
    if auth == "basic":
        user = pairs[0][1] if len(pairs) > 1 else "api"
        return f"curl -s -u {user}:{v} https://{host}{path}"
    if auth.startswith("hdr:"):
        h = auth[4:]
        hv = f"{h.split(': ', 1)[0]}: {h.split(': ', 1)[1]}{v}" if ": " in h else f"{h}: {v}"
        return f"curl -sS https://{host}{path} \\\n  -H \"{hv}\" \\\n  -H 'Content-Type: application/json'"
    if auth.startswith("query:"):
        return f"curl \"https://{host}{path}?{auth[6:]}={v}\""
    return f"curl -H \"Authorization: Bearer {v}\" https://{host}{path}"


TECH_PROSE_EN = [
    "Note to self: {vendor} credentials for the {project} are {cred}. Don't paste them in Slack again.",
    "Remember the {vendor} key for the {project}: {cred}",
    "{vendor} (prod) → {cred}",
    "The staging {vendor} token is {cred}, expires end of quarter.",
    "Saving this so I can find it later — {vendor}: {cred}",
    "Rotated the {vendor} key today. New one: {cred}. Old one is revoked.",
    "For the {project} I'm using {vendor}; my key is {cred}",
    "My {vendor} API key is {cred} — use it whenever I ask you to call {vendor} for me.",
    "Heads up for future me: the {project} talks to {vendor} with {cred}",
    "{vendor} creds (from the onboarding doc): {cred}",
    "Keep this: {cred} ({vendor}, personal account)",
    "When the {project} breaks, check that the {vendor} secret is still {cred}",
]
TECH_PROSE_L = {
    "es": ["Guarda esto: las credenciales de {vendor} para el proyecto son {cred}", "Mi clave de API de {vendor} es {cred}, no la compartas."],
    "fr": ["Note : la clé {vendor} du projet est {cred}", "Mes identifiants {vendor} : {cred} (ne pas partager)"],
    "de": ["Merken: {vendor}-Zugangsdaten fürs Projekt sind {cred}", "Mein {vendor} API-Schlüssel lautet {cred}"],
    "it": ["Ricorda: la chiave {vendor} del progetto è {cred}", "Le mie credenziali {vendor}: {cred}"],
    "pt": ["Anota aí: a chave da {vendor} do projeto é {cred}", "Minhas credenciais do {vendor}: {cred}"],
    "nl": ["Onthoud: de {vendor}-sleutel voor het project is {cred}", "Mijn {vendor} API-sleutel is {cred}"],
    "pl": ["Zapisz: klucz {vendor} do projektu to {cred}", "Moje dane logowania do {vendor}: {cred}"],
    "sv": ["Spara detta: {vendor}-nyckeln för projektet är {cred}", "Min API-nyckel till {vendor} är {cred}"],
    "tr": ["Not: projenin {vendor} anahtarı {cred}", "{vendor} API anahtarım {cred}, kimseyle paylaşma."],
    "ja": ["メモ：プロジェクトの{vendor}のキーは {cred}", "{vendor}のAPIキーは {cred} です。共有しないで。"],
    "zh": ["记一下：项目的{vendor}密钥是 {cred}", "我的{vendor} API密钥是 {cred}，别外传"],
}


def cred_text(pairs):
    if len(pairs) == 1 and not isinstance(pairs[0][1], dict):
        n, v = pairs[0]
        return v if R.random() < 0.6 else f"{n}={v}"
    return pairs_inline([(n, v if not isinstance(v, dict) else json.dumps(v)) for n, v in pairs], pick([", ", " / ", "; "]), pick([": ", "=", " "]))


def r_prose(fmt, pairs, lang):
    cred = cred_text(pairs)
    if lang == "en":
        t = pick(TECH_PROSE_EN)
    else:
        t = pick(TECH_PROSE_L[lang])
    return t.format(vendor=fmt["vendor"], project=pick(PROJECTS), cred=cred)


ACKS = {"en": ["Got it, I'll remember that.", "Saved.", "Okay, noted.", "Noted — I'll keep it for later."],
        "es": ["Entendido, lo recordaré.", "Guardado."], "fr": ["C'est noté.", "D'accord, je m'en souviendrai."],
        "de": ["Alles klar, gemerkt.", "Notiert."], "it": ["Ok, me lo ricordo.", "Salvato."], "pt": ["Beleza, anotado.", "Ok, guardei."],
        "nl": ["Genoteerd.", "Oké, onthouden."], "pl": ["Zapisane.", "Jasne, zapamiętam."], "sv": ["Noterat.", "Okej, sparat."],
        "tr": ["Tamam, kaydettim.", "Not aldım."], "ja": ["了解、覚えておきます。", "保存しました。"], "zh": ["好的，记住了。", "已保存。"]}


def r_chat(text, lang):
    shape = R.randint(0, 2)
    if shape == 0:
        return [{"role": "user", "content": text}, {"role": "assistant", "content": pick(ACKS[lang])}]
    if shape == 1:
        return {"source": "chat", "turns": [{"from": "user", "text": text}], "ts": iso_ts()}
    return f"User: {text}\nAssistant: {pick(ACKS[lang])}"


def r_ticket(fmt, pairs):
    proj = pick(["OPS", "INFRA", "IT", "HELP", "SEC", "DEV", "PLAT"])
    num = R.randint(100, 9999)
    title = pick([f"{fmt['vendor']} integration failing in prod", f"Request access to {fmt['vendor']}", f"Rotate {fmt['vendor']} credentials",
                  f"{fmt['vendor']} webhook not firing", f"Set up {fmt['vendor']} for the {pick(PROJECTS)}"])
    who = f"{pick(EN_FIRST)} {pick(EN_LAST)}"
    body = pick(["Here are the creds so you can reproduce:", "New credentials below, please update the vault when you get a chance:",
                 "Using these values in the .env:", "Works locally with:"])
    cred = "\n".join(f"{n}={v if not isinstance(v, dict) else json.dumps(v)}" for n, v in pairs)
    return f"[{proj}-{num}] {title}\nReporter: {who}\nPriority: {pick(['P2','P3','Medium','High'])}\n\n{body}\n{cred}\n\nThanks!"


def r_email(fmt, pairs):
    a, b = pick(EN_FIRST), pick(EN_FIRST)
    cred = "\n".join(f"  {n}: {v if not isinstance(v, dict) else json.dumps(v, indent=2)}" for n, v in pairs)
    return (f"From: {a.lower()}@{pick(['acme-corp.com','northwind.io','kestrel.dev'])}\nTo: {b.lower()}@{pick(['acme-corp.com','gmail.com','northwind.io'])}\n"
            f"Subject: {pick(['access for','creds -','your','re:'])} {fmt['vendor']}\n\nHi {b},\n\n"
            f"{pick(['As discussed, here is what you need:', 'Here you go — please move these to the password manager:', 'The new values after rotation:'])}\n{cred}\n\n"
            f"{pick(['Cheers', 'Thanks', 'Best'])},\n{a}")


def r_log(fmt, pairs):
    lvl = pick(["DEBUG", "INFO", "WARN", "ERROR"])
    comp = pick(["config", "http", "bootstrap", "client", "worker-3", "sync"])
    kv = " ".join(f"{n.lower()}={v}" for n, v in pairs if not is_ml(v))
    return pick([
        f"{iso_ts()} {lvl} [{comp}] loaded settings {kv}",
        f"{iso_ts()} {lvl} {fmt['vendor']} client initialised with {kv}",
        f"[{iso_ts()}] {lvl}: request failed (401) using {kv} — retrying in 5s",
    ])


def r_sql(fmt, pairs):
    cols = ", ".join(slugify(n) for n, _ in pairs)
    vals = ", ".join("'" + str(v).replace("'", "''") + "'" for _, v in pairs)
    return f"INSERT INTO integration_credentials (provider, {cols}, created_at) VALUES ('{slugify(fmt['vendor'])}', {vals}, '{date_s()}');"


def r_csv(fmt, pairs):
    hdr = "provider," + ",".join(n for n, _ in pairs) + ",owner"
    row = fmt["vendor"] + "," + ",".join(str(v) for _, v in pairs) + "," + corp_email()
    return hdr + "\n" + row


def r_file(fmt, pairs):
    parts = []
    for n, v in pairs:
        if isinstance(v, dict):
            return {"file": n if n.endswith(".json") else f"{slugify(fmt['vendor'])}-key.json", "content": v}
        if is_ml(v):
            parts.append(v.rstrip("\n"))
        else:
            parts.append(f"{n}: {v}")
    return {"type": "file", "name": next((n for n, v in pairs if is_ml(v)), "notes.txt"), "content": "\n".join(parts) + "\n"}


SINGLE_CONTAINERS = ["env", "env", "shell", "yaml", "json", "json", "toml", "ini", "compose", "k8s", "tfvars", "gha", "code-py", "code-js",
                     "prose-en", "prose-en", "prose-en", "prose-xx", "chat", "chat", "ticket", "email", "log", "sql", "csv", "http", "curl"]
ML_CONTAINERS = ["file", "file", "yaml", "json", "chat", "email", "ticket", "prose-en"]


def render_tech(fmt, pairs, container=None):
    """returns (value, segment, lang)"""
    has_ml = any(is_ml(v) or isinstance(v, dict) for _, v in pairs)
    if container is None:
        container = pick(ML_CONTAINERS if has_ml else SINGLE_CONTAINERS)
        if container in ("http", "curl") and fmt["auth"] in ("none", "url"):
            container = pick(["env", "prose-en", "chat", "json"])
    if has_ml and any(isinstance(v, dict) for _, v in pairs) and container not in ("file", "json", "chat", "email", "prose-en"):
        container = "file"
    lang = "en"
    if container == "prose-xx":
        lang = pick(list(TECH_PROSE_L))
        return r_prose(fmt, pairs, lang), f"prose-{lang}", lang
    if container == "prose-en":
        return r_prose(fmt, pairs, "en"), "prose-en", "en"
    if container == "chat":
        lang = "en" if R.random() < 0.75 else pick(list(TECH_PROSE_L))
        return r_chat(r_prose(fmt, pairs, lang), lang), "chat", lang
    fn = {"env": lambda: r_env(fmt["vendor"], pairs), "shell": lambda: r_shell(fmt["vendor"], pairs),
          "yaml": lambda: r_yaml(fmt["vendor"], pairs), "json": lambda: r_json(fmt["vendor"], pairs),
          "toml": lambda: r_toml(fmt["vendor"], pairs), "ini": lambda: r_ini(fmt["vendor"], pairs),
          "compose": lambda: r_compose(fmt["vendor"], pairs), "k8s": lambda: r_k8s(fmt["vendor"], pairs),
          "tfvars": lambda: r_tfvars(fmt["vendor"], pairs), "gha": lambda: r_gha(fmt["vendor"], pairs),
          "code-py": lambda: r_code_py(fmt["vendor"], pairs), "code-js": lambda: r_code_js(fmt["vendor"], pairs),
          "ticket": lambda: r_ticket(fmt, pairs), "email": lambda: r_email(fmt, pairs), "log": lambda: r_log(fmt, pairs),
          "sql": lambda: r_sql(fmt, pairs), "csv": lambda: r_csv(fmt, pairs), "http": lambda: r_http(fmt, pairs),
          "curl": lambda: r_curl(fmt, pairs), "file": lambda: r_file(fmt, pairs)}[container]
    val = fn()
    if container == "json" and isinstance(val, dict) is False:
        val = {"content": val}
    seg = "pem-file" if container == "file" and any("-----BEGIN" in str(v) for _, v in pairs) else container
    return val, seg, lang


# ================================================================ personal secrets (people telling an assistant)

LANGS = ["en", "es", "fr", "de", "it", "pt", "nl", "pl", "sv", "tr", "ja", "zh"]

SVC = {
    "en": ["Netflix", "Gmail", "Amazon", "Spotify", "Facebook", "Instagram", "iCloud", "Disney+", "Uber", "LinkedIn", "Dropbox",
           "Steam", "PlayStation Network", "Hulu", "eBay", "Etsy", "Zoom", "Microsoft account", "Yahoo Mail", "TikTok", "Airbnb",
           "Booking.com", "Duolingo", "Peloton", "Costco", "Target", "Venmo", "PayPal", "Coinbase", "Fidelity", "Vanguard",
           "Robinhood", "TurboTax", "Credit Karma", "Chase app", "Schwab", "Workday", "ADP", "the company VPN", "my work Outlook",
           "Concur", "the HR portal", "the timesheet system", "Xbox Live", "Nintendo account", "Hinge", "Strava", "Audible"],
    "es": ["Netflix", "Gmail", "BBVA", "CaixaBank", "Amazon", "Sanitas", "Movistar", "Wallapop", "Idealista", "Santander", "Renfe", "Glovo"],
    "fr": ["Netflix", "Ameli", "Doctolib", "Crédit Agricole", "Leboncoin", "la CAF", "Free", "Boursorama", "SNCF Connect", "Deezer", "Vinted"],
    "de": ["Netflix", "Sparkasse", "DKB", "Amazon", "Doctolib", "TK-App", "PayPal", "DB Navigator", "GMX", "Zalando", "N26", "Check24"],
    "it": ["Netflix", "Poste Italiane", "Intesa Sanpaolo", "Amazon", "UniCredit", "Trenitalia", "Libero Mail", "Fineco", "Subito", "Fascicolo Sanitario"],
    "pt": ["Netflix", "Nubank", "Itaú", "Millennium bcp", "iFood", "Mercado Livre", "Bradesco", "Caixa", "OLX", "Spotify"],
    "nl": ["Netflix", "ING", "Rabobank", "Bol.com", "Marktplaats", "NS", "Ziggo", "ABN AMRO", "Thuisbezorgd", "Zilveren Kruis"],
    "pl": ["Netflix", "PKO BP", "mBank", "Allegro", "Gmail", "Revolut", "OLX", "Pekao", "InPost", "Onet Poczta"],
    "sv": ["Netflix", "Swedbank", "Handelsbanken", "1177", "Blocket", "Spotify", "SJ", "Klarna", "SEB", "Tradera"],
    "tr": ["Netflix", "Garanti BBVA", "İş Bankası", "e-Nabız", "Trendyol", "Hepsiburada", "Gmail", "Turkcell", "Yemeksepeti", "Akbank"],
    "ja": ["Netflix", "楽天", "Amazon", "三菱UFJ銀行", "LINE", "メルカリ", "ゆうちょ", "PayPay", "ヨドバシ", "Yahoo!メール"],
    "zh": ["微信", "支付宝", "淘宝", "招商银行", "网易邮箱", "京东", "Netflix", "工商银行", "美团", "抖音"],
}
HEALTH_SVC = ["MyChart", "the patient portal", "the Walgreens app", "my CVS pharmacy account", "my HSA portal", "Kaiser Permanente",
              "the dentist's booking site", "Teladoc", "Quest lab results", "the GoodRx account", "my insurance portal (Aetna)",
              "Cigna member site", "the hospital billing portal", "Zocdoc", "the therapy practice portal", "the LabCorp site"]
BANKS = {
    "en": ["Chase", "Bank of America", "Wells Fargo", "Barclays", "HSBC", "Lloyds", "Monzo", "Capital One", "Citi", "NatWest", "TD", "Ally", "Santander UK", "Halifax"],
    "es": ["BBVA", "Santander", "CaixaBank", "Bankinter", "ING", "Sabadell"], "fr": ["BNP", "Crédit Agricole", "Société Générale", "LCL", "La Banque Postale", "Crédit Mutuel"],
    "de": ["Sparkasse", "Commerzbank", "DKB", "Volksbank", "Deutsche Bank", "Postbank"], "it": ["Intesa", "UniCredit", "BPER", "Fineco", "Poste", "Banco BPM"],
    "pt": ["Nubank", "Itaú", "Bradesco", "Millennium", "CGD", "Santander"], "nl": ["ING", "Rabobank", "ABN AMRO", "SNS", "Triodos", "bunq"],
    "pl": ["PKO BP", "mBank", "Pekao", "ING Bank Śląski", "Santander", "Millennium"], "sv": ["Swedbank", "Handelsbanken", "SEB", "Nordea", "ICA Banken", "Länsförsäkringar"],
    "tr": ["Garanti BBVA", "İş Bankası", "Ziraat", "Akbank", "Yapı Kredi", "QNB"], "ja": ["三菱UFJ", "ゆうちょ", "三井住友", "みずほ", "楽天銀行", "りそな"],
    "zh": ["招商银行", "工商银行", "建设银行", "中国银行", "农业银行", "交通银行"],
}
NAMES_L = {
    "en": EN_FIRST, "es": ["Lucía", "Mateo", "Carmen", "Javier", "Sofía", "Diego", "Elena", "Pablo"], "fr": ["Camille", "Louis", "Chloé", "Hugo", "Manon", "Julien", "Léa", "Théo"],
    "de": ["Lena", "Jonas", "Anna", "Felix", "Marie", "Lukas", "Sophie", "Paul"], "it": ["Giulia", "Marco", "Chiara", "Luca", "Sara", "Matteo", "Francesca", "Davide"],
    "pt": ["Ana", "João", "Beatriz", "Pedro", "Mariana", "Tiago", "Inês", "Rafael"], "nl": ["Sanne", "Daan", "Emma", "Bram", "Fleur", "Thijs", "Lotte", "Sem"],
    "pl": ["Zofia", "Jakub", "Maja", "Kacper", "Julia", "Szymon", "Hanna", "Antoni"], "sv": ["Elsa", "William", "Alice", "Oscar", "Maja", "Hugo", "Ebba", "Liam"],
    "tr": ["Elif", "Emir", "Zeynep", "Yusuf", "Defne", "Mehmet", "Ayşe", "Can"], "ja": ["さくら", "ゆうと", "はるか", "けんた", "あおい", "そうた"],
    "zh": ["小雨", "伟", "芳", "杰", "婷婷", "浩然"],
}
PETS = ["Biscuit", "Rex", "Whiskers", "Luna", "Max", "Coco", "Pepper", "Bella", "Oreo", "Simba", "Nala", "Buddy", "Mittens", "Ziggy", "Kiwi", "Bruno"]
CITIES = ["Scranton", "Cork", "Valparaíso", "Tampere", "Bendigo", "Leeds", "Duluth", "Graz", "Lyon", "Porto", "Gdańsk", "Izmir", "Sapporo", "Chengdu"]
SURNAMES = ["Kowalczyk", "Brennan", "Okonkwo", "Halvorsen", "Delacroix", "Fitzpatrick", "Moreau", "Yilmaz", "Nakamura", "Ferreira", "Van Dijk", "Lindgren"]
CARRIERS = ["Vodafone", "T-Mobile", "Verizon", "O2", "EE", "Orange", "Movistar", "Telekom", "Three", "AT&T", "Lycamobile", "giffgaff"]
SSIDS = ["HomeNet", "TheShire", "Casa_Lopez", "FRITZ!Box 7530 KL", "Vodafone-4F2A", "NETGEAR47", "BT-8JX2KQ", "Livebox-71C0", "TP-Link_9E3C",
         "PrettyFlyForAWiFi", "Orbi88", "TeleTubbies-5G", "Bbox-4C1D2E", "SKY9F7A1", "Ziggo8842031", "Telia-5AC3", "TURKSAT-KABLONET-8A1C", "aterm-4f1a2b-g"]


def pin(n=4):
    while True:
        p = dg(n)
        if p not in ("1234", "0000", "1111", "123456", "000000") and len(set(p)) > 1:
            return p


def door_code():
    return pick([pin(4) + "#", "*" + pin(4), pin(4), pin(5), pick("ABCD") + pin(4), "#" + pin(4), pin(6), pin(4) + " then the key symbol"])


def wifi_pw(lang="en"):
    return pick([human_password(lang), "-".join(rs(4, LD) for _ in range(3)), hx(16), rs(12, LD), rs(10, AN), pick(BIP39) + "-" + pick(BIP39) + "-" + dg(3)])


def otp6():
    return dg(6)


def backup_codes():
    style = R.randint(0, 3)
    if style == 0:
        return "Google", ", ".join(f"{dg(4)} {dg(4)}" for _ in range(R.randint(4, 10)))
    if style == 1:
        return "GitHub", " ".join(f"{hx(5)}-{hx(5)}" for _ in range(R.randint(4, 16)))
    if style == 2:
        return pick(["Microsoft", "Xbox"]), "-".join(rs(5, UD) for _ in range(5))
    return pick(["Dropbox", "Discord", "Proton", "Coinbase", "Twitter"]), "  ".join(rs(8, LD) for _ in range(R.randint(4, 10)))


def card_slots(lang):
    brand, num = card_number()
    return {"brand": brand, "card": fmt_card(num, pick([" ", " ", "-", ""])), "exp": expiry(), "cvv": cvv(brand), "last4": num[-4:],
            "holder": f"{pick(NAMES_L.get(lang, EN_FIRST))} {pick(SURNAMES)}".upper(), "bank": pick(BANKS[lang])}


P = {}  # kind -> lang -> templates

P["account_password"] = {
    "en": ["My {svc} password is {pw}", "remember my {svc} login: {user} / {pw}", "Please save this: {svc} → username {user}, password {pw}",
           "I just reset my {svc} password. New one is {pw} — remind me if I forget.", "{svc} pw: {pw}",
           "For {svc} I use the email {user} and the password {pw}.", "Mom's {svc} account: {user}, password {pw}. She keeps asking me for it.",
           "Changed the {svc} password to {pw} after that breach email.", "Hey, can you keep my {svc} password handy? It's {pw}",
           "Login for {svc} is {user} and the pass is {pw}", "The shared family {svc} password is {pw}, don't tell the kids.",
           "If I ever ask what my {svc} password is, it's {pw}.", "password for {svc} = {pw}", "{svc} credentials — user: {user} | password: {pw}",
           "ugh I always forget this one. {svc}: {pw}", "New job! My {svc} temp password is {pw}, have to change it after first login.",
           "my husband's {svc} password is {pw} in case he locks himself out again"],
    "es": ["Mi contraseña de {svc} es {pw}", "Apunta esto: usuario de {svc} {user}, contraseña {pw}",
           "He cambiado la clave de {svc}, ahora es {pw}. Recuérdamela si se me olvida.", "La contraseña del {svc} de mi madre es {pw}"],
    "fr": ["Mon mot de passe {svc} est {pw}", "Retiens ça : identifiant {svc} {user}, mot de passe {pw}",
           "J'ai changé le mot de passe de {svc}, le nouveau c'est {pw}.", "Le mdp du compte {svc} de papa : {pw}"],
    "de": ["Mein {svc}-Passwort ist {pw}", "Merk dir bitte: {svc}-Login {user}, Passwort {pw}",
           "Hab das Passwort für {svc} geändert, das neue lautet {pw}.", "Das Kennwort für Omas {svc}-Konto ist {pw}"],
    "it": ["La mia password di {svc} è {pw}", "Ricordati: {svc}, utente {user}, password {pw}", "Ho cambiato la password di {svc}, adesso è {pw}."],
    "pt": ["Minha senha do {svc} é {pw}", "Guarda isso: login do {svc} {user}, senha {pw}", "Troquei a senha do {svc}, agora é {pw}."],
    "nl": ["Mijn wachtwoord voor {svc} is {pw}", "Onthoud even: {svc} login {user}, wachtwoord {pw}", "Heb het {svc}-wachtwoord veranderd, het nieuwe is {pw}."],
    "pl": ["Moje hasło do {svc} to {pw}", "Zapamiętaj: {svc}, login {user}, hasło {pw}", "Zmieniłam hasło do {svc}, nowe to {pw}."],
    "sv": ["Mitt lösenord till {svc} är {pw}", "Kom ihåg: {svc}, användarnamn {user}, lösenord {pw}", "Jag bytte lösenordet till {svc}, det nya är {pw}."],
    "tr": ["{svc} şifrem {pw}", "Bunu kaydet: {svc} kullanıcı adı {user}, şifre {pw}", "{svc} şifremi değiştirdim, yenisi {pw}."],
    "ja": ["{svc}のパスワードは {pw} です", "覚えておいて：{svc} のログインは {user}、パスワードは {pw}", "{svc}のパスワードを変えた。新しいのは {pw}"],
    "zh": ["我的{svc}密码是 {pw}", "帮我记一下：{svc} 账号 {user}，密码 {pw}", "{svc}的密码改成了 {pw}，别忘了提醒我"],
}
P["health_portal_password"] = {
    "en": ["My login for {hsvc} is {user}, password {pw}", "{hsvc} password: {pw} (I need it to see my lab results)",
           "Save the {hsvc} password for me — {pw}. I'm always locked out before appointments.",
           "Dad's login for {hsvc} is {user} / {pw}; I manage his prescriptions.", "Password for {hsvc} is {pw}"],
    "de": ["Passwort für das Patientenportal der Praxis: {pw}", "Login TK-App: {user}, Passwort {pw}"],
    "es": ["Contraseña del portal del paciente (Sanitas): {pw}"], "fr": ["Mot de passe Ameli : {pw} (numéro de compte dans mes notes)"],
    "nl": ["Wachtwoord van het patiëntenportaal: {pw}"], "sv": ["Lösenordet till vårdappen (Kry) är {pw}"],
}
P["online_banking_credentials"] = {
    "en": ["{bank} online banking: customer ID {cust}, password {pw}", "My {bank} login is {cust} and the passcode is {pin6}",
           "Telephone banking for {bank}: customer number {cust}, security number {pin}"],
    "de": ["{bank} Online-Banking: Anmeldename {cust}, PIN {pin5}", "Onlinebanking-Zugang {bank}: Legitimations-ID {cust}, PIN {pin5}"],
    "es": ["Banca online {bank}: usuario {cust}, clave {pin6}"], "fr": ["Accès banque en ligne {bank} : identifiant {cust}, code secret {pin6}"],
    "it": ["Home banking {bank}: codice utente {cust}, PIN {pin5}"], "nl": ["Internetbankieren {bank}: gebruikersnaam {cust}, wachtwoord {pw}"],
    "pl": ["Bankowość {bank}: identyfikator {cust}, hasło {pw}"], "pt": ["Internet banking {bank}: agência/conta {cust}, senha {pin6}"],
    "tr": ["{bank} internet şubesi: müşteri no {cust}, şifre {pin6}"],
}
P["bank_card_pin"] = {
    "en": ["My debit card PIN is {pin}", "PIN for the {bank} card: {pin}", "The ATM PIN for my {bank} Visa is {pin}", "{bank} debit — PIN {pin}",
           "I changed my card PIN at the branch today, new PIN is {pin}", "Can you remember my credit card PIN? {pin}",
           "the PIN for the joint account card is {pin} (same for both our cards)", "Dad's bank card PIN: {pin} — he asked me to keep it in case he forgets",
           "PIN for the new {bank} card that came in the mail: {pin}", "my card pin is {pin} btw"],
    "es": ["El PIN de mi tarjeta de {bank} es {pin}", "Pin del cajero: {pin} (tarjeta de débito {bank})"],
    "fr": ["Le code de ma carte bleue {bank} c'est {pin}", "Code PIN carte {bank} : {pin}"],
    "de": ["Die PIN meiner {bank}-Girocard ist {pin}", "Geheimzahl EC-Karte ({bank}): {pin}"],
    "it": ["Il PIN del bancomat {bank} è {pin}", "PIN carta {bank}: {pin}"],
    "pt": ["A senha do cartão {bank} é {pin}", "PIN do multibanco: {pin}"],
    "nl": ["De pincode van mijn {bank}-pas is {pin}", "Pincode bankpas: {pin}"],
    "pl": ["PIN do karty {bank} to {pin}", "Mój PIN do bankomatu: {pin}"],
    "sv": ["PIN-koden till mitt {bank}-kort är {pin}", "Kortkod: {pin} ({bank})"],
    "tr": ["{bank} kartımın şifresi {pin}", "Banka kartı PIN: {pin}"],
    "ja": ["{bank}のキャッシュカードの暗証番号は{pin}", "暗証番号（{bank}）：{pin}"],
    "zh": ["我的{bank}银行卡密码是{pin6}", "{bank}取款密码：{pin6}"],
}
P["phone_unlock_pin"] = {
    "en": ["My iPhone passcode is {pin6}", "phone unlock code: {pin}", "The code to unlock my Android is {pin}", "Lock screen PIN for the old Samsung is {pin}",
           "Grandma's tablet passcode is {pin}", "My work phone passcode: {pin6}", "The kids' iPad code is {pin}"],
    "es": ["El código de desbloqueo de mi móvil es {pin}"], "fr": ["Le code de déverrouillage de mon téléphone : {pin6}"],
    "de": ["Der Entsperrcode von meinem Handy ist {pin}"], "it": ["Il codice di sblocco del telefono è {pin6}"],
    "pt": ["O código de desbloqueio do meu celular é {pin}"], "nl": ["De toegangscode van mijn telefoon is {pin6}"],
    "pl": ["Kod do odblokowania telefonu: {pin}"], "sv": ["Koden för att låsa upp mobilen är {pin}"], "tr": ["Telefonumun kilit şifresi {pin}"],
    "ja": ["スマホのパスコードは{pin6}"], "zh": ["我手机的锁屏密码是{pin6}"],
}
P["sim_pin_puk"] = {
    "en": ["SIM card PIN is {pin} and the PUK is {puk}", "New SIM from {carrier}: PIN {pin}, PUK {puk}"],
    "de": ["SIM-Karte ({carrier}): PIN {pin}, PUK {puk}"], "es": ["PIN de la SIM: {pin}, PUK: {puk}"],
    "fr": ["Code PIN de la carte SIM : {pin}, code PUK : {puk}"], "it": ["PIN della SIM {pin}, PUK {puk}"],
    "nl": ["Simkaart pincode {pin}, PUK {puk}"], "pl": ["PIN do karty SIM: {pin}, PUK: {puk}"],
}
P["voicemail_pin"] = {"en": ["Voicemail PIN: {pin}", "To check voicemail from another phone, dial in and enter {pin}", "My {carrier} voicemail password is {pin}"],
                      "de": ["Mailbox-PIN: {pin}"], "fr": ["Code de la messagerie vocale : {pin}"]}
P["door_code"] = {
    "en": ["The door code for our building is {code}", "Entry code at the front gate: {code}", "Garage keypad code is {code}",
           "Mom's apartment buzzer code: {code}", "The Airbnb lockbox code is {code}", "Keypad code for the office back door: {code}",
           "Code for the key safe at Dad's care home: {code}", "The bike room code is {code}", "Gate code for the storage unit: {code}",
           "side door to the clinic staff entrance: {code}"],
    "es": ["El código del portal es {code}", "Código de la puerta del garaje: {code}"], "fr": ["Le digicode de l'immeuble c'est {code}", "Digicode chez Mamie : {code}"],
    "de": ["Der Türcode fürs Haus ist {code}", "Code für den Schlüsseltresor: {code}"], "it": ["Il codice del portone è {code}"],
    "pt": ["O código do portão é {code}"], "nl": ["De deurcode van het gebouw is {code}"], "pl": ["Kod do domofonu to {code}"],
    "sv": ["Portkoden är {code}"], "tr": ["Apartman kapısının şifresi {code}"], "ja": ["マンションのオートロックの暗証番号は{code}"], "zh": ["小区门禁密码是{code}"],
}
P["alarm_code"] = {
    "en": ["The house alarm code is {code}", "Alarm disarm code {code} — the duress code is {code2}", "Security system code at the office: {code}",
           "If the alarm goes off when you feed the cat, the code is {code}", "ADT code: {code}"],
    "de": ["Alarmanlage: Code {code}"], "fr": ["Code de l'alarme : {code}"], "es": ["El código de la alarma es {code}"], "it": ["Codice antifurto: {code}"],
    "nl": ["Alarmcode: {code}"], "sv": ["Larmkoden är {code}"], "pl": ["Kod do alarmu: {code}"], "pt": ["O código do alarme é {code}"],
}
P["safe_combination"] = {
    "en": ["Safe combination: {c3}", "Combination for the fire safe in the closet: {c3}", "The hotel room safe code I set is {pin}",
           "Dad's safe (the one with the will) opens with {c3}"],
    "de": ["Tresorkombination: {c3}"], "es": ["La combinación de la caja fuerte es {c3}"], "fr": ["Combinaison du coffre-fort : {c3}"],
}
P["locker_code"] = {
    "en": ["Gym locker combo: {c3}", "Bike lock combination {pin}", "Mia's school locker combination is {c3}", "Luggage lock code: {c3d}",
           "The padlock on the shed is {pin}"],
    "de": ["Zahlenschloss vom Fahrrad: {pin}"], "nl": ["Cijferslot fiets: {pin}"], "sv": ["Koden till cykellåset är {pin}"],
}
P["wifi_password"] = {
    "en": ["Our wifi is {ssid}, password {wpw}", "Guest wifi password: {wpw} (network {ssid})", "Office wifi: {ssid} / {wpw}",
           "Grandma's wifi password is {wpw}", "The WPA key on the router sticker is {wpw}", "wifi at the cabin: {ssid}, pw {wpw}",
           "New router! Network {ssid}, password {wpw}"],
    "es": ["La contraseña del wifi es {wpw} (red {ssid})"], "fr": ["Le code wifi c'est {wpw} ({ssid})"],
    "de": ["WLAN-Passwort: {wpw} (Netz {ssid})", "WLAN-Schlüssel von der FRITZ!Box: {wpw}"], "it": ["La password del wifi è {wpw}"],
    "pt": ["A senha do wifi é {wpw}"], "nl": ["Het wifi-wachtwoord is {wpw}"], "pl": ["Hasło do wifi: {wpw}"], "sv": ["Wifi-lösenordet är {wpw}"],
    "tr": ["Wifi şifresi {wpw}"], "ja": ["Wi-Fiのパスワードは{wpw}（SSID: {ssid}）"], "zh": ["家里WiFi密码：{wpw}（网络名 {ssid}）"],
}
P["one_time_code"] = {
    "en": ["The verification code they texted me is {otp}", "my 2FA code right now: {otp}", "Bank says the one-time passcode is {otp}, valid 10 minutes",
           "Enter this for me: login code {otp}", "Steam Guard code: {otp5}", "{svc} sent me {otp}, can you type it in?"],
    "es": ["El código de verificación es {otp}"], "fr": ["Code de vérification reçu par SMS : {otp}"], "de": ["Der Bestätigungscode per SMS lautet {otp}"],
    "it": ["Il codice OTP è {otp}"], "pt": ["O código de verificação é {otp}"], "nl": ["De verificatiecode is {otp}"], "pl": ["Kod weryfikacyjny: {otp}"],
    "sv": ["Engångskoden är {otp}"], "tr": ["Doğrulama kodu {otp}"], "ja": ["認証コードは{otp}です"], "zh": ["验证码是{otp}"],
}
P["twofa_backup_codes"] = {
    "en": ["{issuer} backup codes (each works once): {codes}", "2FA recovery codes for {issuer}: {codes}", "Save these {issuer} recovery codes: {codes}"],
    "de": ["Backup-Codes für {issuer}: {codes}"], "es": ["Códigos de respaldo de {issuer}: {codes}"], "fr": ["Codes de secours {issuer} : {codes}"],
}
P["security_answer"] = {
    "en": ["Security question for {svc}: 'What was your first pet's name?' — answer: {pet}", "My bank's security question is mother's maiden name; I answered {surname}",
           "Secret question (city where my parents met): {city}", "For {carrier} the account security word is {word}",
           "{bank} memorable word: {word}", "Security answers for {svc}: first car = {car}, favourite teacher = {teacher}"],
    "es": ["Pregunta de seguridad de {svc}: nombre de mi primera mascota → {pet}"], "fr": ["Question secrète (ville de naissance de ma mère) : {city}"],
    "de": ["Sicherheitsfrage bei {svc} (Name des ersten Haustiers): {pet}"], "it": ["Domanda di sicurezza: cognome da nubile di mia madre → {surname}"],
    "pt": ["Pergunta de segurança (nome do primeiro animal): {pet}"], "nl": ["Beveiligingsvraag (eerste huisdier): {pet}"],
    "pl": ["Pytanie pomocnicze (nazwisko panieńskie matki): {surname}"], "sv": ["Säkerhetsfråga (första husdjuret): {pet}"],
    "tr": ["Güvenlik sorusu (ilk evcil hayvanım): {pet}"], "ja": ["秘密の質問（初めて飼ったペットの名前）の答え：{pet}"], "zh": ["密保问题（第一只宠物的名字）答案：{pet}"],
}
P["payment_card_full"] = {
    "en": ["My {brand}: {card} exp {exp} CVV {cvv}", "Card for online orders — {brand} {card}, expires {exp}, security code {cvv}, name on card {holder}",
           "Save my card please: number {card}, expiry {exp}, CVC {cvv}", "Company card: {card} / {exp} / {cvv}",
           "Use this card for the pharmacy refills: {card}, {exp}, cvv {cvv}", "{holder} — {card} — {exp} — {cvv}",
           "new card arrived: {card}, valid thru {exp}, 3-digit code {cvv}"],
    "es": ["Mi tarjeta {brand}: {card}, caduca {exp}, CVV {cvv}"], "fr": ["Ma carte {brand} : {card}, expire {exp}, cryptogramme {cvv}"],
    "de": ["Kreditkarte {brand}: {card}, gültig bis {exp}, Prüfnummer {cvv}"], "it": ["Carta {brand}: {card}, scadenza {exp}, CVV {cvv}"],
    "pt": ["Cartão {brand}: {card}, validade {exp}, código de segurança {cvv}"], "nl": ["Creditcard {brand}: {card}, geldig tot {exp}, CVC {cvv}"],
    "pl": ["Karta {brand}: {card}, ważna do {exp}, CVV {cvv}"], "sv": ["Kort {brand}: {card}, giltigt t.o.m. {exp}, CVC {cvv}"],
    "tr": ["Kredi kartım {brand}: {card}, son kullanma {exp}, CVV {cvv}"], "ja": ["クレジットカード：{card}、有効期限 {exp}、セキュリティコード {cvv}"],
    "zh": ["信用卡号 {card}，有效期 {exp}，安全码 {cvv}"],
}
P["payment_card_number_expiry"] = {
    "en": ["Card number {card}, expiry {exp} — the {bank} one I use for bills", "{brand} {card} exp {exp}"],
    "de": ["Kartennummer {card}, gültig bis {exp}"], "fr": ["Numéro de carte {card}, date d'expiration {exp}"], "es": ["Número de tarjeta {card}, vence {exp}"],
}
P["card_cvv"] = {
    "en": ["The CVV on my {bank} card is {cvv}", "security code on the back of the card ending {last4}: {cvv}", "CVC for the card ending {last4} is {cvv}",
           "Remember the CVV of the new {brand}: {cvv} (card ends in {last4})"],
    "es": ["El CVV de la tarjeta que termina en {last4} es {cvv}"], "de": ["Die Prüfziffer der Karte mit Endung {last4} ist {cvv}"],
    "fr": ["Le cryptogramme de la carte qui finit par {last4} : {cvv}"], "it": ["Il CVV della carta che finisce con {last4} è {cvv}"],
    "pt": ["O CVV do cartão final {last4} é {cvv}"], "nl": ["De CVC van de kaart eindigend op {last4} is {cvv}"],
}
P["master_password"] = {
    "en": ["My 1Password master password is {pw}", "Bitwarden master password: {pw}", "The password manager master password is {pw} — everything else is in there",
           "LastPass master pw (I know, I know): {pw}"],
    "de": ["Das Master-Passwort für KeePass ist {pw}"], "fr": ["Mot de passe maître du gestionnaire : {pw}"], "sv": ["Huvudlösenordet till Bitwarden är {pw}"],
}
P["router_admin_password"] = {"en": ["Router admin login is admin / {pw}", "The admin password for the mesh router app is {pw}"],
                              "de": ["FRITZ!Box-Kennwort: {pw}"], "es": ["Contraseña de administración del router: {pw}"]}
P["recovery_key"] = {
    "en": ["BitLocker recovery key for my work laptop: {bitlocker}", "Apple account recovery key: {applekey}", "FileVault recovery key: {applekey}"],
    "de": ["BitLocker-Wiederherstellungsschlüssel: {bitlocker}"], "fr": ["Clé de récupération BitLocker : {bitlocker}"],
}
P["irs_ip_pin"] = {"en": ["My IRS Identity Protection PIN for this year is {pin6}", "IP PIN from the IRS letter: {pin6} (needed to e-file)"]}
P["phone_banking_passcode"] = {"en": ["Telephone banking passcode for {bank}: {pin6}", "{bank} phone banking security number is {pin}"]}
P["seed_phrase_personal"] = {
    "en": ["My MetaMask recovery phrase: {seed12}", "Ledger seed words in order: {seed24}", "wallet backup phrase — {seed12}"],
    "es": ["Mi frase semilla de la cartera: {seed12}"], "de": ["Wiederherstellungsphrase meiner Wallet: {seed12}"], "pt": ["Frase de recuperação da carteira: {seed12}"],
}
P["app_specific_password"] = {"en": ["Apple app-specific password for Thunderbird: {apppw}", "Gmail app password for the scanner's scan-to-email: {gapppw}"],
                              "de": ["App-Passwort für Outlook: {gapppw}"]}
P["car_keypad_code"] = {"en": ["Door keypad code on the Ford: {pin5}", "The car's keyless entry code is {pin5}"]}
P["pickup_code_word"] = {"en": ["School pickup password for Lily is '{word}' — anyone collecting her must say it", "Daycare pickup code word: {word}"]}
P["app_pin"] = {"en": ["PIN for the {svc} app is {pin}", "The {bank} app login PIN: {pin6}"], "de": ["App-PIN für {svc}: {pin}"],
                "es": ["El PIN de la app de {svc} es {pin}"], "it": ["PIN dell'app {svc}: {pin5}"], "pl": ["PIN do aplikacji {svc}: {pin}"]}

PERSONAL_WEIGHTS = {"account_password": 26, "health_portal_password": 8, "online_banking_credentials": 8, "bank_card_pin": 18, "phone_unlock_pin": 10,
                    "sim_pin_puk": 5, "voicemail_pin": 3, "door_code": 14, "alarm_code": 7, "safe_combination": 5, "locker_code": 5,
                    "wifi_password": 14, "one_time_code": 10, "twofa_backup_codes": 6, "security_answer": 11, "payment_card_full": 16,
                    "payment_card_number_expiry": 4, "card_cvv": 8, "master_password": 4, "router_admin_password": 3, "recovery_key": 3,
                    "irs_ip_pin": 2, "phone_banking_passcode": 2, "seed_phrase_personal": 4, "app_specific_password": 3, "car_keypad_code": 2,
                    "pickup_code_word": 2, "app_pin": 5}


def personal_slots(lang):
    card = card_slots(lang)
    codes_issuer, codes = backup_codes()
    c3 = "-".join(str(R.randint(0, 59)) for _ in range(3))
    return {
        "svc": pick(SVC[lang]), "hsvc": pick(HEALTH_SVC), "pw": human_password(lang), "user": svc_user(), "bank": pick(BANKS[lang]),
        "pin": pin(4), "pin5": pin(5), "pin6": pin(6), "puk": dg(8), "carrier": pick(CARRIERS), "code": door_code(), "code2": pin(4),
        "c3": c3, "c3d": dg(3), "ssid": pick(SSIDS), "wpw": wifi_pw(lang), "otp": otp6(), "otp5": rs(5, "BCDFGHJKMNPQRTVWXY2346789"),
        "issuer": codes_issuer, "codes": codes, "pet": pick(PETS), "surname": pick(SURNAMES), "city": pick(CITIES),
        "word": pick(["marmalade", "lighthouse", "blue dolphin", "Tuesday", "cardigan", "pinecone", "walrus", "sycamore", "paprika"]),
        "car": pick(["Honda Civic", "blue Corolla", "VW Polo", "Ford Fiesta", "Renault Clio"]), "teacher": pick(["Mrs Abernathy", "Mr Okoro", "Ms Lindqvist", "Mr Patel"]),
        "cust": dg(R.choice([8, 10])), "bitlocker": "-".join(dg(6) for _ in range(8)), "applekey": "-".join(rs(4, UD) for _ in range(7)),
        "seed12": " ".join(R.sample(BIP39, 12)), "seed24": " ".join(R.sample(BIP39, 24)), "apppw": "-".join(rs(4, LO) for _ in range(4)),
        "gapppw": " ".join(rs(4, LO) for _ in range(4)), **card,
    }


def weighted_kind(weights):
    kinds = list(weights)
    return R.choices(kinds, weights=[weights[k] for k in kinds])[0]


LANG_WEIGHTS = {"en": 52, "es": 6, "fr": 5, "de": 7, "it": 4, "pt": 4, "nl": 4, "pl": 4, "sv": 4, "tr": 4, "ja": 3, "zh": 3}


PERSONAL_LANG_WEIGHTS = {"en": 40, "es": 6, "fr": 6, "de": 7, "it": 5, "pt": 5, "nl": 5, "pl": 5, "sv": 5, "tr": 5, "ja": 4, "zh": 4}


def personal_plain():
    lang = weighted_kind(PERSONAL_LANG_WEIGHTS)
    kind = weighted_kind({k: w for k, w in PERSONAL_WEIGHTS.items() if lang in P[k]})
    t = pick(P[kind][lang])
    text = t.format(**personal_slots(lang))
    shape = R.random()
    if shape < 0.55:
        return text, f"prose-{lang}", kind, lang
    if shape < 0.8:
        return r_chat(text, lang), "chat", kind, lang
    if shape < 0.92:
        return {"memory": text, "category": pick(["personal", "home", "accounts", "misc", "to-remember"]), "created_at": iso_ts()}, "note", kind, lang
    return {"type": "fact", "subject": "user", "content": text, "confidence": round(R.uniform(0.7, 0.99), 2)}, "json", kind, lang


def personal_csv():
    rows = ["name,url,username,password,note"]
    for _ in range(R.randint(2, 5)):
        s = pick(["Netflix", "Spotify", "Amazon", "eBay", "Etsy", "Dropbox", "Hulu", "Strava", "Duolingo", "Airbnb", "Zoom", "Venmo", "LinkedIn", "Instagram", "Steam"])
        rows.append(f"{s},https://{slugify(s).replace('_', '')}.com/login,{svc_user()},{human_password()},")
    return "\n".join(rows), "csv", "password_manager_export", "en"


# ================================================================ hard (evasive) secrets

def secret_pair(pairs):
    for n, v in reversed(pairs):
        if isinstance(v, str) and not is_ml(v):
            return n, v
    return None


HARD_OK_FORMATS = [f for f in FORMATS if f["cat"] not in ("private-key",) and f["kind"] not in (
    "gcp_service_account_key", "firebase_admin_sdk_key", "coinbase_cdp_api_key", "solana_keypair_bytes", "docker_config_auth",
    "netrc_credentials", "maven_settings_password", "openvpn_auth_user_pass", "wpa_supplicant_psk")]


def tech_base(fmt):
    pairs = fmt["fn"]()
    n, v = secret_pair(pairs)
    return {"kind": fmt["kind"], "vendor": fmt["vendor"], "secret": v, "var": n, "pairs": pairs, "fmt": fmt,
            "label": pick([f"{fmt['vendor']} {n}", f"my {fmt['vendor']} key", f"the {fmt['vendor']} token for the {pick(PROJECTS)}", f"{n} ({fmt['vendor']})"]),
            "personal": False, "numeric": False, "lang": "en"}


def personal_base(kinds=None):
    s = personal_slots("en")
    opts = kinds or ["account_password", "bank_card_pin", "phone_unlock_pin", "door_code", "alarm_code", "wifi_password", "payment_card_full",
                     "card_cvv", "security_answer", "seed_phrase_personal", "one_time_code", "sim_pin_puk", "safe_combination", "master_password",
                     "health_portal_password", "garage_code", "voicemail_pin"]
    k = pick(opts)
    d = {"personal": True, "lang": "en", "vendor": None, "kind": k, "numeric": False}
    if k == "account_password":
        d.update(secret=s["pw"], label=f"my {s['svc']} password")
    elif k == "health_portal_password":
        d.update(secret=s["pw"], label=f"the password for {s['hsvc']}")
    elif k == "master_password":
        d.update(secret=s["pw"], label=pick(["my Bitwarden master password", "the 1Password master password", "my KeePass master password"]))
    elif k == "bank_card_pin":
        d.update(secret=s["pin"], label=f"my {s['bank']} debit card PIN", numeric=True)
    elif k == "phone_unlock_pin":
        d.update(secret=pick([s["pin"], s["pin6"]]), label=pick(["my phone passcode", "the iPad unlock code", "my work phone PIN"]), numeric=True)
    elif k == "door_code":
        d.update(secret=pick([s["pin"], s["pin5"], s["pin6"]]), label=pick(["the building door code", "the front gate keypad code", "Mum's key safe code", "the office side-door code"]), numeric=True)
    elif k == "garage_code":
        d.update(secret=s["pin"], label="the garage door keypad code", numeric=True)
    elif k == "alarm_code":
        d.update(secret=s["pin"], label="the house alarm code", numeric=True)
    elif k == "voicemail_pin":
        d.update(secret=s["pin"], label="my voicemail PIN", numeric=True)
    elif k == "sim_pin_puk":
        d.update(secret=s["pin"], label="my SIM PIN", numeric=True)
    elif k == "one_time_code":
        d.update(secret=s["otp"], label=pick(["the login code the bank just texted me", "my 2FA code", "the verification code from PayPal"]), numeric=True)
    elif k == "wifi_password":
        d.update(secret=s["wpw"], label=f"the wifi password for {s['ssid']}")
    elif k == "payment_card_full":
        d.update(secret=f"{s['card']} exp {s['exp']} cvv {s['cvv']}", label=f"my {s['brand']} card", card=s)
    elif k == "card_cvv":
        d.update(secret=s["cvv"], label=f"the CVV of my {s['brand']} ending {s['last4']}", numeric=True)
    elif k == "security_answer":
        d.update(secret=s["pet"], label=f"the answer to my {s['bank']} security question (first pet's name)")
    elif k == "seed_phrase_personal":
        d.update(secret=s["seed12"], label="my wallet recovery phrase")
    elif k == "safe_combination":
        d.update(secret=s["c3"], label="the safe combination")
    return d


def group(s, n, sep):
    return sep.join(s[i:i + n] for i in range(0, len(s), n))


def split_n(s, k):
    if " " in s:
        w = s.split(" ")
        k = min(k, len(w))
        cuts = sorted(R.sample(range(1, len(w)), k - 1))
        parts, prev = [], 0
        for c in cuts + [len(w)]:
            parts.append(" ".join(w[prev:c]))
            prev = c
        return parts
    if len(s) < k * 2:
        k = 2
    cuts = sorted(R.sample(range(1, len(s)), k - 1))
    parts, prev = [], 0
    for c in cuts + [len(s)]:
        parts.append(s[prev:c])
        prev = c
    return parts


HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "i": "і", "y": "у", "s": "ѕ", "A": "А", "B": "В", "E": "Е",
        "K": "К", "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х"}


def homoglyph(s, frac=0.6):
    return "".join(HOMO[c] if c in HOMO and R.random() < frac else c for c in s)


ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


def zwsp(s):
    out = []
    for i, c in enumerate(s):
        out.append(c)
        if i < len(s) - 1 and R.random() < 0.35:
            out.append(pick(ZW))
    return "".join(out)


def fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in s)


LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7"}


def leet(s):
    return "".join(LEET.get(c, c) if R.random() < 0.8 else c for c in s)


DIGIT_WORDS = {
    "en": "zero one two three four five six seven eight nine".split(), "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(), "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(), "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "nl": "nul een twee drie vier vijf zes zeven acht negen".split(), "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
    "sv": "noll ett två tre fyra fem sex sju åtta nio".split(), "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(), "zh": "零 一 二 三 四 五 六 七 八 九".split(),
}
NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf", "h": "hotel", "i": "india",
        "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november", "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo",
        "s": "sierra", "t": "tango", "u": "uniform", "v": "victor", "w": "whiskey", "x": "x-ray", "y": "yankee", "z": "zulu"}
SYMNAMES = {"!": "exclamation mark", "#": "hash", "$": "dollar sign", "%": "percent", "&": "ampersand", "*": "asterisk", "?": "question mark",
            "@": "at sign", "+": "plus", "-": "dash", ".": "dot", "_": "underscore", "^": "caret"}


def spell_pw(pw):
    out = []
    for c in pw:
        if c.isdigit():
            out.append(DIGIT_WORDS["en"][int(c)])
        elif c.isalpha() and c.lower() in NATO:
            out.append(("capital " if c.isupper() else "") + NATO[c.lower()])
        else:
            out.append(SYMNAMES.get(c, repr(c)))
    return ", ".join(out)


SPELLED_T = {
    "en": [("bank_card_pin", "my card PIN is {w}"), ("door_code", "the door code is {w}, then press the bell"), ("phone_unlock_pin", "phone passcode: {w}"),
           ("alarm_code", "alarm code — {w}")],
    "es": [("bank_card_pin", "El PIN de mi tarjeta es {w}"), ("door_code", "El código del portal: {w}")],
    "fr": [("bank_card_pin", "Le code de ma carte : {w}"), ("door_code", "Digicode : {w}")],
    "de": [("bank_card_pin", "Meine Karten-PIN ist {w}"), ("alarm_code", "Der Code der Alarmanlage lautet {w}")],
    "it": [("bank_card_pin", "Il mio PIN del bancomat è {w}")], "pt": [("bank_card_pin", "A senha do meu cartão é {w}")],
    "nl": [("bank_card_pin", "Mijn pincode is {w}")], "pl": [("bank_card_pin", "Mój PIN do karty to {w}")],
    "sv": [("door_code", "Portkoden är {w}")], "tr": [("bank_card_pin", "Kart şifrem {w}")],
    "ja": [("bank_card_pin", "キャッシュカードの暗証番号は{w}")], "zh": [("bank_card_pin", "我的银行卡密码是{w}")],
}


def t_spelled(b):
    if R.random() < 0.3:
        pb = personal_base(["account_password", "wifi_password", "master_password"])
        return {"value": f"{pb['label'][0].upper() + pb['label'][1:]}, spelled out: {spell_pw(pb['secret'])}", "base": pb, "lang": "en"}
    lang = weighted_kind({l: (20 if l == "en" else 4) for l in SPELLED_T})
    kind, t = pick(SPELLED_T[lang])
    p = pin(6) if lang == "zh" else pick([pin(4), pin(4), pin(6)])
    sep = " " if lang not in ("ja", "zh") else ("、" if lang == "ja" else "")
    w = sep.join(DIGIT_WORDS[lang][int(c)] for c in p)
    base = {"personal": True, "kind": kind, "vendor": None, "secret": p}
    return {"value": t.format(w=w), "base": base, "lang": lang}


INDIRECT = [
    ("bank_card_pin", lambda: (lambda y: f"My bank card PIN is just my birth year — {y}.")(R.randint(1950, 2005))),
    ("door_code", lambda: (lambda h: f"The garage code is our house number twice, so {h}{h}.")(R.randint(10, 99))),
    ("wifi_password", lambda: (lambda p, y: f"The wifi password is the dog's name followed by the year we got him: {p}{y}")(pick(PETS), R.randint(2010, 2024))),
    ("alarm_code", lambda: (lambda d, m: f"Alarm code = our wedding anniversary, day then month: {d:02d}{m:02d}")(R.randint(1, 28), R.randint(1, 12))),
    ("phone_unlock_pin", lambda: (lambda d, m, y: f"Phone passcode is my daughter's birthday, {d:02d}{m:02d}{y:02d}")(R.randint(1, 28), R.randint(1, 12), R.randint(5, 22))),
    ("account_password", lambda: (lambda c, n, s: f"My {s} password is my first car plus my lucky number, no spaces: {c}{n}")(pick(["Corolla", "Civic", "Golf", "Fiesta", "Beetle", "Polo"]), R.randint(7, 99), pick(SVC["en"]))),
    ("safe_combination", lambda: (lambda a, b, c: f"The safe opens with the kids' ages in order: {a}-{b}-{c}")(R.randint(9, 17), R.randint(5, 8), R.randint(1, 4))),
    ("voicemail_pin", lambda: (lambda p: f"Voicemail PIN is the last four digits of our old landline ({p}).")(pin(4))),
    ("door_code", lambda: (lambda n: f"Lockbox at the cabin: it's the street number backwards — {str(n)[::-1]}")(R.randint(1000, 9999))),
    ("account_password", lambda: (lambda k, d: f"For the patient portal I used Sam's name and his birthday with a ! at the end — {k}{d}!")(pick(["Sam", "sam", "SAM"]), f"{R.randint(1,28):02d}{R.randint(1,12):02d}")),
    ("bank_card_pin", lambda: (lambda y: f"Meine PIN ist mein Geburtsjahr: {y}.")(R.randint(1950, 2005)), "de"),
    ("bank_card_pin", lambda: (lambda y: f"El PIN de la tarjeta es el año en que nació mi madre, {y}.")(R.randint(1940, 1975)), "es"),
    ("door_code", lambda: (lambda y: f"Le digicode, c'est l'année de naissance de Mamie : {y}.")(R.randint(1930, 1960)), "fr"),
    ("wifi_password", lambda: (lambda p, y: f"La password del wifi è il nome del gatto più l'anno: {p}{y}")(pick(["Micio", "Pallina", "Romeo", "Briciola"]), R.randint(2012, 2024)), "it"),
    ("alarm_code", lambda: (lambda a, b: f"Alarmcode is onze trouwdag: {a:02d}{b:02d}")(R.randint(1, 28), R.randint(1, 12)), "nl"),
    ("card_cvv", lambda: (lambda c, l: f"The CVV on the card ending {l} is the same as our old flat number, {c}.")(dg(3), dg(4))),
]


def t_indirect(b):
    item = pick(INDIRECT)
    kind, fn = item[0], item[1]
    lang = item[2] if len(item) > 2 else "en"
    return {"value": fn(), "base": {"personal": True, "kind": kind, "vendor": None}, "lang": lang}


KEYCAP = {str(i): f"{i}\ufe0f\u20e3" for i in range(10)}


def t_keycap(b):
    b = personal_base(["bank_card_pin", "door_code", "phone_unlock_pin", "alarm_code", "sim_pin_puk", "card_cvv"])
    k = "".join(KEYCAP[c] for c in b["secret"])
    return {"value": pick([f"{b['label']} 🔑 {k}", f"{k} ← {b['label']}", f"remember {b['label']}: {k} 😅"]), "base": b}


def t_spaced(b):
    s = b["secret"]
    if " " in s:
        sp = "   ".join(" ".join(w) for w in s.split(" "))
    else:
        sp = " ".join(s) if b.get("numeric") else group(s, R.choice([3, 4, 5]), " ")
    return {"value": pick([f"{b['label']}: {sp}", f"{b['label']} = {sp} (I put spaces in, just remove them)", f"saving {b['label']} → {sp}"]), "base": b}


def t_punctuated(b):
    s = b["secret"]
    sep = pick([".", "-", "·", "/", "|", "_"])
    if " " in s:
        p = " ".join(sep.join(w) for w in s.split(" "))
    else:
        p = sep.join(s) if b.get("numeric") else group(s, R.choice([3, 4, 6]), sep)
    return {"value": pick([f"{b['label']} is {p} (ignore the {sep!r} separators)", f"{b['label']}: {p}", f"{p}  <- {b['label']}, strip the {sep}"]), "base": b}


def t_per_char(b):
    s = b["secret"]
    sep = pick(["-", " · ", "_", ","])
    return {"value": f"{b['label']} one character at a time: {sep.join(s)}", "base": b}


def t_split_fields(b):
    parts = split_n(b["secret"], R.choice([2, 3]))
    names = pick([["a", "b", "c"], ["part1", "part2", "part3"], ["head", "mid", "tail"], ["x1", "x2", "x3"], ["left", "center", "right"]])
    obj = {"what": b["label"]}
    for n, p in zip(names, parts):
        obj[n] = p
    obj["note"] = "join " + " + ".join(names[:len(parts)]) + (" with single spaces" if " " in b["secret"] else " with nothing in between")
    return {"value": obj, "base": b}


def t_split_list(b):
    parts = split_n(b["secret"], R.choice([3, 4]))
    items = [f"{b['label']} (in pieces, concatenate in order):"] + [f"{i+1}) {p}" for i, p in enumerate(parts)]
    return {"value": items if R.random() < 0.5 else {"list": items}, "base": b}


TURN_T = {
    "en": ["ok so {label} — first part is {p}", "next bit: {p}", "and the end is {p}", "last piece {p}"],
    "es": ["vale, {label}: empieza por {p}", "luego {p}", "y termina en {p}", "y al final {p}"],
    "de": ["also, {label}: fängt an mit {p}", "dann {p}", "und am Ende {p}", "zum Schluss {p}"],
    "fr": ["alors {label} : ça commence par {p}", "ensuite {p}", "et ça finit par {p}", "et enfin {p}"],
}
LABEL_L = {"es": "los datos de mi tarjeta", "de": "meine Kartendaten", "fr": "les infos de ma carte"}


def t_split_turns(b):
    lang = pick(["en", "en", "en", "es", "de", "fr"])
    if lang != "en" or (b.get("kind") == "payment_card_full"):
        cb = personal_base(["payment_card_full"])
        c = cb["card"]
        digits = c["card"].replace(" ", "").replace("-", "")
        parts = [digits[:8], digits[8:], f"{c['exp']} / {c['cvv']}"]
        label = LABEL_L.get(lang, "my card details")
        b = cb
    else:
        parts = split_n(b["secret"], 3)
        label = b["label"]
    tpl = TURN_T[lang]
    turns = []
    for i, p in enumerate(parts):
        t = tpl[0] if i == 0 else (tpl[2] if i == len(parts) - 1 else tpl[1])
        turns.append({"role": "user", "content": t.format(label=label, p=p)})
        if i < len(parts) - 1 and R.random() < 0.5:
            turns.append({"role": "assistant", "content": pick(["go on", "ok", "mm-hm", "👍"])})
    turns.append({"role": "assistant", "content": pick(ACKS[lang])})
    return {"value": turns, "base": b, "lang": lang}


def t_base64(b):
    e = b64std(b["secret"].encode())
    return {"value": pick([f"{b['label']} (base64 so it doesn't show in plain text): {e}", f"b64 of {b['label']}: {e}", f"decode later → {e}  [{b['label']}]"]), "base": b}


def t_hex(b):
    e = b["secret"].encode().hex()
    return {"value": pick([f"{b['label']} hex-encoded: {e}", f"hex({b['label']}) = {e}", f"0x{e} — that's {b['label']} in hex"]), "base": b}


def t_reversed(b):
    e = b["secret"][::-1]
    return {"value": pick([f"{b['label']}, written backwards: {e}", f"reverse this to get {b['label']}: {e}", f"{e} (reversed — {b['label']})"]), "base": b}


def t_rot13(b):
    e = codecs.encode(b["secret"], "rot13")
    return {"value": pick([f"rot13 of {b['label']}: {e}", f"{b['label']} (rot13): {e}", f"ebg13 → {e}  ({b['label']})"]), "base": b}


def t_urlenc(b):
    e = "".join(f"%{x:02X}" for x in b["secret"].encode())
    return {"value": pick([f"{b['label']} url-encoded: {e}", f"token={e}&note=" + urllib.parse.quote(b["label"]), f"{b['label']} → {e}"]), "base": b}


def t_charcodes(b):
    codes = [ord(c) for c in b["secret"]]
    return {"value": pick([f"{b['label']} as char codes: {codes}", f"String.fromCharCode({', '.join(map(str, codes))}) // {b['label']}",
                           f"bytes({codes}).decode()  # {b['label']}"]), "base": b}


def t_leet(b):
    kw = pick(["p4ssw0rd", "p@55w0rd", "t0k3n", "s3cr3t", "k3y", "p1n", "cr3d5"])
    return {"value": pick([f"{leet(b['label'])} ({kw}): {b['secret']}", f"my {kw} 4 {leet(b['label'])} iz {b['secret']}", f"{kw} >> {b['secret']} << {leet(b['label'])}"]), "base": b}


def t_typo(b):
    kw = pick(["pasword", "passwrod", "pssword", "paswd", "pin nuber", "secrte", "tokn", "pasword/pin", "contrasena", "passwort?"])
    return {"value": pick([f"{kw} for {b['label'].replace('my ', '')}: {b['secret']}", f"{b['label']} {kw} {b['secret']}", f"the {kw} is {b['secret']} ({b['label']})"]), "base": b}


def t_homoglyph(b):
    s = b["secret"]
    n = min(len(s), R.randint(2, 6))
    s2 = homoglyph(s[:n], 1.0) + s[n:]
    if s2 == s:
        s2 = homoglyph(s, 0.5)
    return {"value": pick([f"{homoglyph(b['label'])}: {s2}", f"{homoglyph('password')} / {homoglyph('token')} — {homoglyph(b['label'])} = {s2}"]), "base": b}


def t_zero_width(b):
    return {"value": pick([f"{b['label']}: {zwsp(b['secret'])}", f"{zwsp(b['label'])} → {zwsp(b['secret'])}"]), "base": b}


def t_fullwidth(b):
    return {"value": pick([f"{b['label']}：{fullwidth(b['secret'])}", f"{fullwidth(b['label'])} {fullwidth(b['secret'])}"]), "base": b}


def t_html(b):
    e = "".join((f"&#x{ord(c):x};" if R.random() < 0.5 else f"&#{ord(c)};") for c in b["secret"])
    return {"value": f"<p>{b['label']}: <code>{e}</code></p>", "base": b}


def t_uescape(b):
    e = "".join(f"\\u{ord(c):04x}" for c in b["secret"])
    return {"value": pick([f"{b['label']} = \"{e}\"", f'{{"k": "{e}", "what": "{b["label"]}"}}']), "base": b}


def t_in_key(b):
    s = b["secret"]
    slug = slugify(b["label"])[:24]
    key = pick([f"{slug}__{s}", f"{s}", f"kv:{slug}={s}"])
    val = pick([f"{b['label']} (value kept in the key)", {"note": f"see key for {b['label']}"}, "saved", {"tags": ["credentials"], "desc": b["label"]}])
    return {"value": val, "base": b, "key": key}


def t_in_namespace(b):
    ns3 = pick([f"{slugify(b['label'])[:20]}:{b['secret']}", f"secret={b['secret']}"] + ([] if b["personal"] else [b["secret"]]))
    val = pick([f"{b['label']} — stored in the namespace label", {"note": b["label"], "where": "namespace"}, {"type": "pointer", "desc": b["label"]}])
    return {"value": val, "base": b, "ns3": ns3}


NEST_KEYS = ["settings", "profile", "prefs", "meta", "data", "payload", "items", "cfg", "v2", "extra", "attrs", "node", "inner", "misc", "state", "opts"]


def t_deep(b):
    depth = R.randint(6, 9)
    leaf_key = pick(["v", "value", "x", "blob", "k", "raw", "field_7", "note"])
    node = {leaf_key: b["secret"], "desc": b["label"]} if R.random() < 0.6 else {leaf_key: b["secret"]}
    for i in range(depth):
        k = pick(NEST_KEYS)
        wrapper = {k: node}
        if R.random() < 0.4:
            wrapper[pick(["id", "rev", "ts", "flags"])] = pick([R.randint(1, 999), date_s(), [], True])
        if R.random() < 0.2:
            wrapper = [wrapper]
            wrapper = {pick(NEST_KEYS): wrapper}
        node = wrapper
    if not b["personal"] or R.random() < 0.5:
        node = {"memory": f"app state dump ({pick(PROJECTS)})", "state": node}
    return {"value": node, "base": b}


def t_code(b):
    var = pick(["cfg_blob", "x", "tmp", "DEFAULT_OPTS", "seed", "magic", "_k", "conn_str", "buf", "helper_value"])
    s = b["secret"]
    lang = pick(["py", "js", "go", "rb", "sh"])
    if lang == "py":
        v = f"# {b['label']}\n{var} = \"{s}\"\n\ndef main():\n    run(opts={{'v': {var}}})\n"
    elif lang == "js":
        v = f"const {var} = '{s}'; // {b['label']}\nmodule.exports = {{ {var} }};"
    elif lang == "go":
        v = f"package main\n\n// {b['label']}\nconst {var.strip('_').capitalize() or 'K'} = \"{s}\"\n\nfunc main() {{}}"
    elif lang == "rb":
        v = f"# {b['label']}\n{var.upper()} = '{s}'.freeze"
    else:
        v = f"#!/usr/bin/env bash\n# {b['label']}\n{var.upper()}=\"{s}\"\n./sync.sh --opt \"${var.upper()}\""
    return {"value": {"snippet": v, "lang": lang} if R.random() < 0.4 else v, "base": b}


def t_concat(b):
    parts = split_n(b["secret"], R.choice([3, 4, 5]))
    lang = pick(["py", "js", "java"])
    q = '"'
    expr = " + ".join(q + p + q for p in parts)
    if lang == "py":
        v = f"KEY = {expr}  # {b['label']}"
    elif lang == "js":
        v = f"const k = {expr}; // {b['label']}"
    else:
        v = f"private static final String K = {expr}; // {b['label']}"
    return {"value": v, "base": b}


def t_shell_history(b):
    s = b["secret"]
    if b["personal"]:
        line = pick([f"echo '{s}' | pbcopy   # {b['label']}", f"sshpass -p '{s}' ssh pi@192.168.1.{R.randint(2, 250)}", f"nmcli dev wifi connect HomeNet password '{s}'"])
    else:
        fmt = b["fmt"]
        line = pick([f"export {b['var'].upper().replace('.', '_')}={s}", f"curl -H 'Authorization: Bearer {s}' https://{fmt['host'] or 'api.example-vendor.com'}/v1/me",
                     f"echo {s} | docker login -u ci --password-stdin", f"gh secret set {b['var'].upper().replace('.', '_')} --body '{s}'",
                     f"vercel env add {b['var'].upper().replace('.', '_')} production <<< '{s}'"])
    hist = ["cd ~/projects/" + slugify(pick(PROJECTS)), "git status", "ls -la", "npm run dev", "python -m venv .venv", "source .venv/bin/activate",
            "docker compose up -d", "kubectl get pods -n prod", "htop", "git pull --rebase", "make test", "clear", "brew upgrade", "tail -f logs/app.log"]
    lines = R.sample(hist, R.randint(4, 8))
    lines.insert(R.randint(1, len(lines) - 1), line)
    numbered = [f"  {500 + i}  {l}" for i, l in enumerate(lines)]
    return {"value": "\n".join(numbered) if R.random() < 0.6 else lines, "base": b}


def t_mdtable(b):
    rows = ["| service | user | value | notes |", "|---|---|---|---|"]
    others = [f"| library | {pick(EN_FIRST).lower()} | card on file | renew in May |", f"| gym | member | front desk | closed Sundays |",
              f"| dentist | — | Dr. {pick(EN_LAST)} | cleaning in {pick(['March','June','October'])} |"]
    if b["personal"]:
        mine = f"| {b['label']} | {svc_user() if b['kind'].endswith('password') else '—'} | {b['secret']} | {pick(['current', 'do not share', 'new', 'changed in spring'])} |"
    else:
        mine = f"| {b['vendor']} | {pick([corp_email(), 'ci-bot', '—'])} | {b['secret']} | {pick(['current', 'rotated last week', 'do not share', 'prod'])} |"
    body = R.sample(others, 2) + [mine]
    R.shuffle(body)
    return {"value": "\n".join(rows + body), "base": b}


def t_url(b):
    s = urllib.parse.quote(b["secret"], safe="")
    if b["personal"]:
        if R.random() < 0.5:
            pw = urllib.parse.quote(human_password(), safe="")
            v = f"http://admin:{pw}@192.168.{R.randint(0,1)}.1/ — router admin page, saved with the password in it"
            b = {"personal": True, "kind": "router_admin_password", "vendor": None}
        else:
            pw = urllib.parse.quote(human_password(), safe="")
            v = f"https://{pick(['portal','my','mychart'])}.{pick(['northside-health.org','clinic-group.net','citymed.care'])}/login?user={urllib.parse.quote(svc_user())}&pass={pw}  (patient portal auto-login link)"
            b = {"personal": True, "kind": "health_portal_password", "vendor": None}
    else:
        v = pick([f"https://{b['fmt']['host'] or 'api.vendor.io'}/v1/export?format=csv&{pick(['api_key','token','access_token','key'])}={s}",
                  f"[status dashboard](https://{b['fmt']['host'] or 'status.vendor.io'}/embed?auth={s}&theme=dark)",
                  f"wss://{b['fmt']['host'] or 'stream.vendor.io'}/socket?token={s}"])
    return {"value": v, "base": b}


def t_padding(b):
    pad = R.sample(FILLER_SENTENCES, R.randint(8, 14))
    pos = R.randint(3, len(pad) - 2)
    pad.insert(pos, pick([f"Oh and {b['label']} is {b['secret']}.", f"({b['label']}: {b['secret']})", f"Also {b['label']} = {b['secret']} btw."]))
    return {"value": " ".join(pad), "base": b}


def t_quoted_printable(b):
    s = b["secret"].replace("=", "=3D")
    w = R.randint(18, 30)
    qp = "=\n".join(s[i:i + w] for i in range(0, len(s), w))
    return {"value": (f"Content-Type: text/plain; charset=\"utf-8\"\nContent-Transfer-Encoding: quoted-printable\n\nHi,\n\n{b['label']}:\n{qp}\n\nPlease keep it safe=\n.\n"), "base": b}


def t_wrapped(b):
    s = b["secret"]
    w = R.randint(8, 16)
    return {"value": f"{b['label']}\n" + "\n".join(s[i:i + w] for i in range(0, len(s), w)), "base": b}


def t_commented(b):
    fmt = b["fmt"]
    var = b["var"].upper().replace(".", "_")
    lines = R.sample(FILLER_ENV, 3)
    lines.insert(R.randint(0, 3), f"# {var}={b['secret']}   # old one, still works if the new one breaks")
    lines.append(f"{var}=${{{var}_FROM_VAULT}}")
    return {"value": "\n".join(lines), "base": b}


def t_csv(b):
    hdr = "id,col_1,col_2,col_3,col_4,updated"
    rows = [hdr]
    for i in range(R.randint(2, 4)):
        rows.append(f"{R.randint(100,999)},{pick(['blue','n/a','ok','42','yes'])},{pick(['2','x',''])},{hx(6)},{pick(['gym','library','school'])},{date_s()}")
    rows.insert(R.randint(1, len(rows)), f"{R.randint(100,999)},{b['secret']},{slugify(b['label'])},,{pick(['misc','acct','home'])},{date_s()}")
    return {"value": "\n".join(rows), "base": b}


def t_unlabeled(b):
    if b["personal"]:
        cb = personal_base(["payment_card_full"])
        c = cb["card"]
        return {"value": pick([f"{c['card']} {c['exp']} {c['cvv']}", f"for tomorrow: {c['card']}  {c['exp']}  {c['cvv']}"]), "base": cb}
    if b["kind"] not in UNLABELED_OK:
        want = pick(UNLABELED_OK)
        b = tech_base(next(f for f in FORMATS if f["kind"] == want))
    return {"value": pick([b["secret"], f"for later: {b['secret']}", f"{b['secret']} (from Tuesday)"]), "base": b}


UNLABELED_OK = ["github_pat_classic", "github_pat_fine_grained", "slack_bot_token", "stripe_live_secret_key", "openai_project_key", "anthropic_api_key",
                "gitlab_pat", "npm_access_token", "sendgrid_api_key", "huggingface_token", "digitalocean_pat", "groq_api_key", "shopify_admin_access_token",
                "postgres_connection_uri", "mongodb_srv_uri", "slack_incoming_webhook", "discord_webhook", "dockerhub_pat", "pypi_api_token",
                "doppler_service_token", "openrouter_api_key", "vault_service_token", "sentry_user_auth_token", "amqp_connection_uri"]


def t_sql(b):
    col = pick(["misc", "c7", "blob", "extra", "label2"])
    return {"value": f"INSERT INTO notes (owner, title, {col}) VALUES ('{svc_user()}', '{b['label'].replace(chr(39), '')}', '{b['secret'].replace(chr(39), chr(39) * 2)}');", "base": b}


def t_error_trace(b):
    fmt = b["fmt"]
    s = b["secret"]
    v = pick([
        f"Traceback (most recent call last):\n  File \"/app/sync.py\", line {R.randint(20,300)}, in run\n    resp = session.get(url, headers=headers)\nrequests.exceptions.HTTPError: 403 Client Error for url https://{fmt['host'] or 'api.vendor.io'}/v1/items\nheaders={{'Authorization': 'Bearer {s}', 'Accept': 'application/json'}}",
        f"Error: connect ECONNREFUSED\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1606:16) {{\n  config: {{ {b['var']}: '{s}' }}\n}}",
        f"panic: auth failed\n\ngoroutine 1 [running]:\nmain.mustAuth(0xc000012345, {{\"{s}\"}})\n\t/src/main.go:{R.randint(30,99)} +0x1a5",
    ])
    return {"value": v, "base": b}


def t_double_json(b):
    inner = json.dumps({"desc": b["label"], "v": b["secret"], "ts": iso_ts()})
    return {"value": {"payload": inner} if R.random() < 0.5 else json.dumps({"payload": inner}), "base": b}


def t_xml(b):
    return {"value": f"<configuration>\n  <appSettings>\n    <add key=\"Timeout\" value=\"30\" />\n    <add key=\"{pick(['Opt7', 'Misc', 'Helper', 'K'])}\" value=\"{b['secret']}\" />  <!-- {b['label']} -->\n  </appSettings>\n</configuration>", "base": b}


def t_k8s_b64(b):
    fmt = b["fmt"]
    data = {"config.yaml": b64std(f"region: eu-west-1\nretries: 3\n".encode()), b["var"].lower().replace("_", "-"): b64std(b["secret"].encode())}
    lines = "\n".join(f"  {k}: {v}" for k, v in data.items())
    return {"value": f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {slugify(fmt['vendor']).replace('_', '-')}\ntype: Opaque\ndata:\n{lines}", "base": b}


# technique -> (function, base preference, target count)
TECHNIQUES = [
    ("spaced", t_spaced, "any", 9), ("punctuated", t_punctuated, "any", 8), ("per-char", t_per_char, "any", 7),
    ("split-fields", t_split_fields, "any", 9), ("split-list", t_split_list, "any", 8), ("split-turns", t_split_turns, "any", 10),
    ("base64", t_base64, "any", 9), ("hex", t_hex, "any", 7), ("reversed", t_reversed, "any", 8), ("rot13", t_rot13, "any", 7),
    ("url-encoded", t_urlenc, "any", 7), ("char-codes", t_charcodes, "any", 7), ("leetspeak", t_leet, "any", 7), ("typo-keyword", t_typo, "any", 7),
    ("homoglyph", t_homoglyph, "any", 8), ("zero-width", t_zero_width, "any", 8), ("fullwidth", t_fullwidth, "any", 7),
    ("html-entities", t_html, "any", 6), ("unicode-escapes", t_uescape, "any", 6), ("key-field", t_in_key, "any", 9),
    ("namespace-label", t_in_namespace, "any", 8), ("deep-nesting", t_deep, "any", 9), ("code-snippet", t_code, "tech", 9),
    ("string-concat", t_concat, "tech", 7), ("shell-history", t_shell_history, "any", 8), ("markdown-table", t_mdtable, "any", 8),
    ("url-query", t_url, "any", 8), ("spelled-words", t_spelled, "personal", 14), ("indirect", t_indirect, "personal", 12),
    ("keycap-emoji", t_keycap, "personal", 6), ("benign-padding", t_padding, "any", 10), ("quoted-printable", t_quoted_printable, "tech", 6),
    ("line-wrapped", t_wrapped, "any", 7), ("commented-config", t_commented, "tech", 7), ("csv-obscure-column", t_csv, "any", 7),
    ("unlabeled", t_unlabeled, "any", 8), ("sql-insert", t_sql, "any", 6), ("error-trace", t_error_trace, "tech", 7),
    ("double-serialized", t_double_json, "any", 6), ("xml-config", t_xml, "tech", 6), ("k8s-base64-data", t_k8s_b64, "tech", 6),
]


# ================================================================ benign: ordinary memories (no look-alike)

FOODS = ["Thai green curry", "sushi", "mushroom risotto", "black coffee", "oat milk lattes", "spicy food", "dark chocolate", "falafel wraps",
         "grilled salmon", "lentil soup", "sourdough toast", "kimchi fried rice", "pho", "shakshuka", "Greek salad", "blueberry muffins"]
DISLIKES = ["cilantro", "olives", "mushrooms", "blue cheese", "raw onions", "anchovies", "very sweet desserts", "coconut", "eggplant", "beets"]
HOBBIES = ["bouldering", "watercolor painting", "trail running", "birdwatching", "chess", "sourdough baking", "gardening", "playing the cello",
           "woodworking", "salsa dancing", "knitting", "photography", "sea swimming", "cycling", "pottery", "reading crime novels"]
CONDS = ["mild asthma", "lactose intolerance", "seasonal allergies", "migraines", "type 2 diabetes", "high blood pressure", "a bad left knee",
         "celiac disease", "eczema", "IBS", "hypothyroidism", "sleep apnea"]
RELS = ["sister", "brother", "mother", "father", "daughter", "son", "wife", "husband", "partner", "best friend", "grandmother", "uncle"]
ROLES = ["product manager", "nurse", "data analyst", "teacher", "accountant", "UX designer", "pharmacist", "software engineer", "HR business partner",
         "physiotherapist", "paralegal", "store manager", "operations lead", "research assistant"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ACTIV = ["a walk", "yoga", "a swim", "meal prep", "a call with Mom", "grocery shopping", "the farmers market", "therapy", "choir practice"]

ORD_EN = [
    "I'm vegetarian but I eat fish now and then.", "I really don't like {dis}, please leave it out of recipe ideas.", "My favourite comfort food is {food}.",
    "I have {cond}, so keep that in mind when suggesting workouts.", "My {rel} {name} lives in {city} and we talk every {day}.",
    "I work as a {role} and mostly work from home on {day}s.", "Please keep answers short — bullet points are best for me.",
    "I'm learning Spanish and want to practise a little every day.", "My manager is {name}; weekly one-to-ones are on {day} mornings.",
    "I prefer aisle seats and I hate red-eye flights.", "I've been getting into {hobby} lately.", "I'm trying to cut back on caffeine after lunch.",
    "My dog {pet} is scared of thunderstorms.", "We're saving up for a house, so I want to keep the monthly budget tight.",
    "Remind me that {name} prefers texts over phone calls.", "I'm allergic to penicillin.", "I usually do {act} on {day} evenings.",
    "I'd like gentle reminders, not nagging ones.", "My partner is {name}; we've been together since university.", "I'm left-handed.",
    "My therapist suggested journaling before bed, so I'm trying that.", "I don't drink alcohol.", "I'm a night owl — don't schedule things early.",
    "I take the train to work and like podcasts for the commute.", "My {rel} is expecting a baby in the spring.", "I find {food} too heavy for lunch.",
    "At work I'm the go-to person for onboarding new hires.", "I prefer metric units.", "Call me {name}, not by my full name.",
    "I want to get better at saying no to extra projects.", "My kid {name} is really into dinosaurs right now.", "I moved to {city} last year.",
    "The physio said to avoid running until the knee settles down.", "I like my reports in plain English without jargon.",
    "I'm on the parents' committee at the school.", "My {rel} {name} is a great cook; ask me about her recipes.",
    "I get motion sick on boats.", "I'm trying to read more fiction this year.", "Team standup is at the start of the day, keep my mornings light.",
    "I'd rather pay off the credit card in full each month than carry a balance.", "Our cat {pet} needs her medication with food.",
    "I'm colour-blind (red-green), so avoid charts that depend on red vs green.",
]
ORD_L = {
    "es": ["Soy vegetariana pero como pescado de vez en cuando.", "No me gusta nada {dis}.", "Mi {rel} {name} vive en {city}.", "Trabajo como {role}.",
           "Prefiero respuestas cortas y directas.", "Me encanta {hobby}.", "Tengo {cond}, tenlo en cuenta.", "Los {day} voy a clase de yoga.",
           "Mi perro se llama {pet} y le dan miedo los petardos.", "Estoy ahorrando para un viaje a Japón."],
    "fr": ["Je suis végétarien depuis deux ans.", "Je déteste {dis}.", "Ma {rel} {name} habite à {city}.", "Je travaille comme {role}.",
           "Je préfère les réponses courtes.", "Je me suis mis au {hobby}.", "J'ai {cond}.", "Le {day} soir, je fais du sport.",
           "Mon chat {pet} n'aime pas les visiteurs.", "Je préfère les trains aux avions."],
    "de": ["Ich bin Vegetarierin, esse aber manchmal Fisch.", "Ich mag kein {dis}.", "Meine {rel} {name} wohnt in {city}.", "Ich arbeite als {role}.",
           "Bitte kurze Antworten, am liebsten Stichpunkte.", "Ich habe mit {hobby} angefangen.", "Ich habe {cond}.", "Am {day} gehe ich immer schwimmen.",
           "Unser Hund {pet} hat Angst vor Gewitter.", "Ich spare gerade für eine neue Küche.", "Ich trinke keinen Alkohol."],
    "it": ["Sono vegetariana.", "Non mi piacciono {dis}.", "Mia {rel} {name} abita a {city}.", "Lavoro come {role}.", "Preferisco risposte brevi.",
           "Ultimamente faccio {hobby}.", "Ho {cond}.", "Il {day} vado in palestra.", "Il mio gatto si chiama {pet}."],
    "pt": ["Sou vegetariano.", "Não gosto de {dis}.", "Minha {rel} {name} mora em {city}.", "Trabalho como {role}.", "Prefiro respostas curtas.",
           "Comecei a fazer {hobby}.", "Tenho {cond}.", "Às {day}s faço caminhada.", "Meu cachorro {pet} tem medo de fogos."],
    "nl": ["Ik ben vegetariër.", "Ik lust geen {dis}.", "Mijn {rel} {name} woont in {city}.", "Ik werk als {role}.", "Liever korte antwoorden.",
           "Ik ben begonnen met {hobby}.", "Ik heb {cond}.", "Op {day} ga ik altijd zwemmen.", "Onze kat {pet} is bang voor de stofzuiger."],
    "pl": ["Jestem wegetarianką.", "Nie lubię {dis}.", "Moja {rel} {name} mieszka w {city}.", "Pracuję jako {role}.", "Wolę krótkie odpowiedzi.",
           "Zaczęłam {hobby}.", "Mam {cond}.", "W {day} chodzę na basen.", "Mój pies {pet} boi się burzy."],
    "sv": ["Jag är vegetarian.", "Jag tycker inte om {dis}.", "Min {rel} {name} bor i {city}.", "Jag jobbar som {role}.", "Korta svar, tack.",
           "Jag har börjat med {hobby}.", "Jag har {cond}.", "På {day}ar springer jag.", "Vår katt {pet} gillar inte besök."],
    "tr": ["Vejetaryenim.", "{dis} sevmiyorum.", "{rel} {name}, {city} şehrinde yaşıyor.", "{role} olarak çalışıyorum.", "Kısa cevapları tercih ederim.",
           "Son zamanlarda {hobby} yapıyorum.", "{cond} var.", "{day} günleri yüzmeye gidiyorum.", "Köpeğim {pet} gök gürültüsünden korkuyor."],
    "ja": ["私はベジタリアンです。", "{dis}が苦手です。", "{rel}の{name}は{city}に住んでいます。", "{role}として働いています。", "短い回答が好きです。",
           "最近{hobby}を始めました。", "{cond}があります。", "{day}はジムに行きます。", "猫の{pet}は雷が怖いです。"],
    "zh": ["我是素食者。", "我不喜欢{dis}。", "我{rel}{name}住在{city}。", "我的工作是{role}。", "回答请简短一点。", "最近开始{hobby}。",
           "我有{cond}。", "每周{day}我去游泳。", "我家的猫叫{pet}，怕打雷。"],
}
L10N = {
    "es": {"dis": ["el cilantro", "las aceitunas", "la cebolla cruda"], "rel": ["hermana", "madre", "tía", "prima"], "role": ["enfermera", "profesora", "contable", "ingeniera"],
           "hobby": ["la escalada", "la cerámica", "el pádel"], "cond": ["asma leve", "intolerancia a la lactosa", "migrañas"], "day": ["lunes", "martes", "jueves"],
           "city": ["Sevilla", "Bilbao", "Valencia", "Rosario"]},
    "fr": {"dis": ["la coriandre", "les olives", "les champignons"], "rel": ["sœur", "mère", "tante", "cousine"], "role": ["infirmier", "professeur", "comptable", "développeur"],
           "hobby": ["vélo", "yoga", "jardinage"], "cond": ["de l'asthme", "une intolérance au lactose", "des migraines"], "day": ["lundi", "mardi", "jeudi"],
           "city": ["Lyon", "Nantes", "Lille", "Montréal"]},
    "de": {"dis": ["Koriander", "Rosenkohl", "Blauschimmelkäse"], "rel": ["Schwester", "Mutter", "Tante", "Cousine"], "role": ["Krankenpfleger", "Lehrerin", "Buchhalter", "Entwicklerin"],
           "hobby": ["Bouldern", "Töpfern", "Laufen"], "cond": ["leichtes Asthma", "eine Laktoseintoleranz", "Migräne"], "day": ["Montag", "Dienstag", "Donnerstag"],
           "city": ["Leipzig", "Graz", "Bremen", "Basel"]},
    "it": {"dis": ["i funghi", "le olive", "i peperoni"], "rel": ["sorella", "madre", "zia", "cugina"], "role": ["infermiera", "insegnante", "commercialista", "sviluppatrice"],
           "hobby": ["arrampicata", "yoga", "ceramica"], "cond": ["l'asma", "intolleranza al lattosio", "emicrania"], "day": ["lunedì", "martedì", "giovedì"],
           "city": ["Bologna", "Torino", "Bari", "Verona"]},
    "pt": {"dis": ["coentro", "azeitona", "cebola crua"], "rel": ["irmã", "mãe", "tia", "prima"], "role": ["enfermeira", "professora", "contadora", "engenheira"],
           "hobby": ["escalada", "ioga", "cerâmica"], "cond": ["asma leve", "intolerância à lactose", "enxaqueca"], "day": ["segunda", "terça", "quinta"],
           "city": ["Curitiba", "Porto", "Recife", "Coimbra"]},
    "nl": {"dis": ["koriander", "olijven", "spruitjes"], "rel": ["zus", "moeder", "tante", "nicht"], "role": ["verpleegkundige", "docent", "boekhouder", "ontwikkelaar"],
           "hobby": ["boulderen", "yoga", "tuinieren"], "cond": ["lichte astma", "lactose-intolerantie", "migraine"], "day": ["maandag", "dinsdag", "donderdag"],
           "city": ["Utrecht", "Groningen", "Gent", "Leiden"]},
    "pl": {"dis": ["kolendry", "oliwek", "grzybów"], "rel": ["siostra", "mama", "ciocia", "kuzynka"], "role": ["pielęgniarka", "nauczycielka", "księgowa", "programistka"],
           "hobby": ["wspinaczkę", "jogę", "ceramikę"], "cond": ["astmę", "nietolerancję laktozy", "migreny"], "day": ["poniedziałki", "wtorki", "czwartki"],
           "city": ["Krakowie", "Gdańsku", "Wrocławiu", "Poznaniu"]},
    "sv": {"dis": ["koriander", "oliver", "svamp"], "rel": ["syster", "mamma", "moster", "kusin"], "role": ["sjuksköterska", "lärare", "revisor", "utvecklare"],
           "hobby": ["klättring", "yoga", "keramik"], "cond": ["lätt astma", "laktosintolerans", "migrän"], "day": ["måndag", "tisdag", "torsdag"],
           "city": ["Uppsala", "Malmö", "Umeå", "Lund"]},
    "tr": {"dis": ["Kişniş", "Zeytin", "Patlıcan"], "rel": ["Kız kardeşim", "Annem", "Teyzem", "Kuzenim"], "role": ["Hemşire", "Öğretmen", "Muhasebeci", "Yazılımcı"],
           "hobby": ["tırmanış", "yoga", "seramik"], "cond": ["Hafif astımım", "Laktoz intoleransım", "Migrenim"], "day": ["Pazartesi", "Salı", "Perşembe"],
           "city": ["İzmir", "Bursa", "Eskişehir", "Antalya"]},
    "ja": {"dis": ["パクチー", "椎茸", "納豆"], "rel": ["姉", "母", "叔母", "いとこ"], "role": ["看護師", "教師", "会計士", "エンジニア"],
           "hobby": ["ボルダリング", "ヨガ", "陶芸"], "cond": ["軽い喘息", "乳糖不耐症", "片頭痛"], "day": ["月曜日", "火曜日", "木曜日"], "city": ["札幌", "福岡", "京都", "仙台"]},
    "zh": {"dis": ["香菜", "榴莲", "苦瓜"], "rel": ["姐姐", "妈妈", "阿姨", "表妹"], "role": ["护士", "老师", "会计", "工程师"],
           "hobby": ["攀岩", "瑜伽", "做陶艺"], "cond": ["轻度哮喘", "乳糖不耐受", "偏头痛"], "day": ["一", "二", "四"], "city": ["成都", "杭州", "青岛", "苏州"]},
}


def ordinary_text(lang):
    if lang == "en":
        t = pick(ORD_EN)
        return t.format(dis=pick(DISLIKES), food=pick(FOODS), cond=pick(CONDS), rel=pick(RELS), name=pick(EN_FIRST), city=pick(CITIES),
                        day=pick(DAYS), role=pick(ROLES), hobby=pick(HOBBIES), pet=pick(PETS), act=pick(ACTIV))
    t = pick(ORD_L[lang])
    l = L10N[lang]
    return t.format(dis=pick(l["dis"]), rel=pick(l["rel"]), name=pick(NAMES_L[lang]), city=pick(l["city"]), role=pick(l["role"]),
                    hobby=pick(l["hobby"]), cond=pick(l["cond"]), day=pick(l["day"]), pet=pick(PETS))


BENIGN_LANG_WEIGHTS = {"en": 48, "es": 6, "fr": 5, "de": 6, "it": 5, "pt": 5, "nl": 5, "pl": 5, "sv": 5, "tr": 5, "ja": 5, "zh": 6}


def benign_ordinary():
    lang = weighted_kind(BENIGN_LANG_WEIGHTS)
    n = 1 if R.random() < 0.6 else 2
    text = ordinary_text(lang)
    if n == 2:
        t2 = ordinary_text(lang)
        if t2 != text:
            text = text + " " + t2
    topic = "memory"
    shape = R.random()
    if shape < 0.5:
        return text, f"prose-{lang}", f"ordinary_{topic}", lang
    if shape < 0.75:
        return r_chat(text, lang), "chat", f"ordinary_{topic}", lang
    if shape < 0.9:
        return {"memory": text, "category": pick(["general", "profile", "user_fact"]), "created_at": iso_ts()}, "note", f"ordinary_{topic}", lang
    return {"type": "fact", "subject": "user", "content": text, "confidence": round(R.uniform(0.6, 0.99), 2)}, "json", f"ordinary_{topic}", lang


FILLER_SENTENCES = [
    "I went to the farmers market this morning and got way too many tomatoes.", "The kids have swimming lessons on Thursday now.",
    "Work has been hectic because of the quarterly review.", "I finally finished the book about the Antarctic expedition.",
    "My sister is visiting in two weeks, so the spare room needs sorting.", "The physio exercises are helping with my shoulder.",
    "We're thinking about repainting the hallway a warm grey.", "I need to call the plumber about the dripping tap.",
    "The new manager seems nice but a bit intense.", "I want to start cycling to work once the weather improves.",
    "Dinner tonight is going to be lentil soup with crusty bread.", "The dog chewed another slipper, classic.",
    "I'm trying to drink more water during the day.", "There's a parents' evening at school next week.",
    "Our neighbour lent us their ladder for the gutters.", "I keep meaning to back up the photos from the holiday.",
    "The car is due for its service soon.", "I signed up for a pottery class on Wednesdays.", "Grandma's birthday lunch is at the Italian place again.",
    "I should probably cancel one of the streaming subscriptions.", "It rained the whole weekend so we did a jigsaw.",
    "The team offsite got moved to the spring.", "I started taking my vitamin D again.", "Remember to water the basil.",
    "The library book is due back soon.", "Our boiler made a weird noise again last night.", "I've been sleeping better since cutting out late coffee.",
    "My brother recommended a podcast about urban planning.", "I need new running shoes, the old ones are falling apart.",
    "We finally booked the summer trip to the coast.",
]


# ================================================================ benign: look-alikes a naive detector would flag
# each family function returns (value, kind, lang) or (value, kind, lang, key_override)

def la_commit_sha():
    sha = hx(40)
    return pick([f"Deployed commit {sha} to staging; if it breaks, roll back to {hx(40)}.",
                 f"The fix for the payroll rounding bug is in {sha[:12]} on main.",
                 {"repo": f"{pick(['acme','northwind','kestrel'])}/{app_slug()}", "release": f"v{R.randint(1,4)}.{R.randint(0,20)}.{R.randint(0,9)}", "commit": sha},
                 f"git cherry-pick {sha}  # backport to release branch",
                 f"Remember: the last good build was from commit {sha[:7]} (Tuesday)."]), "commit_sha", "en"


def la_uuid():
    u = uuid4()
    return pick([f"My patient record id in the clinic's system is {u} — they asked me to quote it when calling.",
                 f"Customer record {u} in the CRM is the duplicate we need to merge.", {"event_id": u, "type": "appointment_booked", "at": iso_ts()},
                 f"Correlation id for the failed payroll export: {u}", f"The shared calendar id is {u}@group.calendar.google.com"]), "uuid_reference", "en"


def la_trace():
    t = pick([f"00-{hx(32)}-{hx(16)}-01", f"req_{rs(24, AN)}", f"X-Request-Id: {uuid4()}", f"trace_id={hx(32)} span_id={hx(16)}", f"cf-ray: {hx(16)}-{pick(['FRA','AMS','LHR','IAD'])}"])
    return pick([f"Support asked for the request id when the transfer failed: {t}", f"{iso_ts()} ERROR payment declined (do_not_honor) {t}",
                 f"Ticket note: user saw a 500 on checkout, {t}"]), "request_trace_id", "en"


def la_checksum():
    algo, h = pick([("SHA256", hx(64)), ("MD5", hx(32)), ("SHA1", hx(40)), ("SHA512", hx(128))])
    f = pick(["ubuntu-24.04.1-desktop-amd64.iso", "tax_return_2024.pdf", "backup-2025-01.tar.gz", "firmware_v3.2.bin", "family_photos.zip"])
    return pick([f"{algo} of {f}: {h}", f"{h}  {f}", {"file": f, algo.lower(): h, "verified": True},
                 f"Checked the download, {algo.lower()}sum matches: {h}"]), "file_checksum", "en"


def la_digest():
    d = "sha256:" + hx(64)
    img = pick(["postgres:16.4", "ghcr.io/acme/api", "nginx:1.27-alpine", "python:3.11-slim", "grafana/grafana"])
    return pick([f"Pin the image to {img}@{d}", f"image: {img}@{d}", f"Scanner flagged layer {d} (openssl CVE), not the app."]), "container_image_digest", "en"


def la_sri():
    h = pick(["sha512-" + b64s(86) + "==", "sha384-" + b64s(64), "sha256-" + b64s(43) + "="])
    pkg = pick(["lodash", "react-dom", "date-fns", "zod", "axios", "left-pad"])
    return pick([f'"node_modules/{pkg}": {{ "version": "{R.randint(1,18)}.{R.randint(0,30)}.{R.randint(0,9)}", "integrity": "{h}" }}',
                 f'<script src="https://cdn.jsdelivr.net/npm/{pkg}@{R.randint(1,9)}/dist/{pkg}.min.js" integrity="{h}" crossorigin="anonymous"></script>']), "package_integrity_hash", "en"


def la_sshpub():
    c = _comment()
    k = pick([lambda: ssh_ed25519_pair(c)[1], lambda: ssh_rsa_pub(c), lambda: ssh_ecdsa_pub(c)])()
    return pick([f"My public SSH key (fine to share, add it to the server's authorized_keys): {k}", {"authorized_keys": k, "host": pick(["nas.local", "pi-hole", "build-01"])},
                 f"Public key for the deploy user:\n{k}"]), "ssh_public_key", "en"


def la_cert():
    if R.random() < 0.5:
        c = cert_pem()
        return pick([f"Here's the clinic's public TLS certificate they asked us to pin:\n{c}", {"ca_bundle_public_cert": c}]), "x509_certificate", "en"
    return f"Public key for verifying the webhook signatures (public, from their docs page):\n{rsa_public_pem()}", "public_key_pem", "en"


def la_pgppub():
    blk = pgp_block("PUBLIC", f"{pick(EN_FIRST)} {pick(EN_LAST)} <{svc_user()}>")
    fp = " ".join(HX(4) for _ in range(10))
    return pick([f"My PGP public key, fingerprint {fp}:\n{blk}", f"Fingerprint of my public key: {fp} — please verify before encrypting files to me."]), "pgp_public_key", "en"


def la_jwks():
    return {"keys": [{"kty": "RSA", "use": "sig", "kid": b64u(22), "alg": "RS256", "n": b64u(342), "e": "AQAB"}], "note": "public JWKS from the IdP, safe to cache"}, "jwks_public_keys", "en"


def la_publishable():
    opt = R.randint(0, 3)
    if opt == 0:
        k = "pk_live_51" + rs(97, AN)
        return pick([f"Stripe publishable key for the checkout page (public, goes in the frontend): {k}", f'const stripe = Stripe("{k}"); // publishable key, safe client-side']), "stripe_publishable_key", "en"
    if opt == 1:
        k = "rzp_live_" + rs(14, AN)
        return f"Razorpay key_id {k} is the public identifier used in checkout.js (the secret is kept server-side, not here).", "razorpay_key_id", "en"
    if opt == 2:
        k = "live_" + rs(32, LD)
        return f"Paddle client-side token for Paddle.js: {k} — Paddle documents client-side tokens as safe to expose.", "paddle_client_token", "en"
    k = "pk_live_" + rs(24, AN)
    return f"Clerk publishable key (frontend) is {k}; publishable keys are public by design.", "clerk_publishable_key", "en"


def la_public_client():
    opt = R.randint(0, 7)
    if opt == 0:
        return f"PostHog project API key for the browser snippet: phc_{rs(43, AN)} (it's the public write-only key)", "posthog_project_key", "en"
    if opt == 1:
        tok = "pk." + b64url(json.dumps({"u": pick(EN_FIRST).lower(), "a": "cl" + rs(23, LD)}, separators=(",", ":")).encode()) + "." + b64u(22)
        return f"Mapbox public token for the store-locator map (URL-restricted): {tok}", "mapbox_public_token", "en"
    if opt == 2:
        return {"algolia": {"appId": rs(10, UD), "searchOnlyApiKey": hx(32), "comment": "search-only key, safe in the browser"}}, "algolia_search_only_key", "en"
    if opt == 3:
        sl = app_slug() + "-" + rs(5, LD)
        cfg = {"apiKey": "AIza" + b64u(35), "authDomain": f"{sl}.firebaseapp.com", "projectId": sl, "storageBucket": f"{sl}.appspot.com",
               "messagingSenderId": dgnz(12), "appId": f"1:{dgnz(12)}:web:{hx(22)}"}
        return {"firebaseConfig": cfg, "note": "Firebase web config is public; access is enforced by security rules"}, "firebase_web_config", "en"
    if opt == 4:
        return f"reCAPTCHA site key for the contact form (public, goes in the HTML): 6L{b64u(38)}", "recaptcha_site_key", "en"
    if opt == 5:
        return f"Sentry DSN for the frontend (DSNs are meant to be public): https://{hx(32)}@o{dgnz(6)}.ingest.sentry.io/{dgnz(7)}", "sentry_dsn", "en"
    if opt == 6:
        return f"Google Analytics measurement ID: G-{rs(10, UD)}, and the Meta pixel id is {dgnz(15)}.", "analytics_measurement_id", "en"
    return f"OAuth client ID for the iOS app (public, not a secret): {dgnz(12)}-{rs(32, LD)}.apps.googleusercontent.com", "oauth_client_id", "en"


def la_placeholder():
    v = pick([
        "OPENAI_API_KEY=<your-api-key>", "STRIPE_SECRET_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "password: ${DB_PASSWORD}",
        "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}", "api_key = \"YOUR_API_KEY_HERE\"", "Authorization: Bearer <token>",
        "DATABASE_URL=postgres://user:password@localhost:5432/dbname", "aws_secret_access_key = <paste from 1Password>",
        "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/XXXXXXXXX/XXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX", "SENDGRID_API_KEY=SG.xxxxxx.xxxxxx",
        "export ANTHROPIC_API_KEY=\"sk-ant-...\"  # fill in locally", "client_secret: <set in vault, see runbook>",
        "MYSQL_ROOT_PASSWORD=${MYSQL_ROOT_PASSWORD:?must be set}", "TWILIO_AUTH_TOKEN=your_auth_token", "HF_TOKEN=hf_****************",
        "password=********", "token: '{{ vault_api_token }}'", "PIN: ____ (write it on the paper form, not here)",
    ])
    return pick([v, f"Template for the new .env — {v}", {"example_env_line": v}, f"README says to set this: `{v}`"]), "placeholder_credential", "en"


def la_redacted():
    v = pick([f"sk-...{rs(4, AN)} (REDACTED)", f"ghp_{'*' * 32}{rs(4, AN)}", "[REDACTED]", f"AKIA****************", f"xoxb-***-***-{'*' * 12}",
              f"card ending {dg(4)} (full number redacted)", "password=[FILTERED]", f"Bearer eyJ...<redacted>", f"sk_live_...{rs(4, AN)}",
              "token: «hidden»", "Authorization: <redacted by proxy>"])
    return pick([f"The log showed {v}, so the key itself was not leaked.", f"Audit log entry: credential {v} rotated by admin.",
                 f"{iso_ts()} INFO auth ok key={v}", {"finding": "secret scanner hit", "match": v, "status": "false positive (redacted)"}]), "redacted_credential", "en"


def la_docexample():
    v = pick([
        ("AWS docs example key pair: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY (these are the documentation samples, not real).", "aws_doc_example"),
        ("From the tutorial: `curl -H \"Authorization: Bearer YOUR_TOKEN\" https://api.example.com/v1/items` — replace YOUR_TOKEN with your own.", "tutorial_placeholder"),
        ("Example JWT from jwt.io: header {\"alg\":\"HS256\",\"typ\":\"JWT\"}, the sample secret there is literally 'your-256-bit-secret'.", "jwt_doc_example"),
        ("The Slack docs show webhook URLs like https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX as a format example.", "slack_doc_example"),
        ("RFC 6238 test vector: the TOTP test seed is the ASCII string 12345678901234567890.", "rfc_test_vector"),
        ("Sample connection string from the course slides: Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;", "doc_connection_string"),
        ("example.com docs: api_key=EXAMPLE-KEY-DO-NOT-USE-0000", "doc_example_key"),
    ])
    return v[0], v[1], "en"


def la_testcard():
    v = pick([
        "Stripe test card for the sandbox: 4242 4242 4242 4242, any future expiry, any CVC — it only works in test mode.",
        "For QA use Stripe's documented test card 4000 0566 5566 5556 (Visa debit), test mode only.",
        "Adyen/Stripe docs list 5555 5555 5555 4444 as the Mastercard test number; never charge real money.",
        "PayPal sandbox accounts generate fake card numbers; we use the documented Visa test number 4111 1111 1111 1111 in unit tests.",
    ])
    return v, "documented_test_card", "en"


def la_secretref():
    v = pick([f"arn:aws:secretsmanager:eu-west-1:{dg(12)}:secret:prod/{app_slug()}/db-{rs(6, AN)}",
              f"op://Private/{pick(SVC['en'])}/password", f"vault kv get -field=password secret/{app_slug()}/postgres",
              f"valueFrom:\n  secretKeyRef:\n    name: {app_slug()}-db\n    key: password",
              f"projects/{app_slug()}-{dg(6)}/secrets/stripe-secret-key/versions/latest", f"${{{{ secrets.{pick(['NPM_TOKEN','PYPI_TOKEN','DEPLOY_KEY'])} }}}}",
              f"azure keyvault: https://{_acct()}-kv.vault.azure.net/secrets/{pick(['SqlPassword','ApiKey'])}/{hx(32)}"])
    return pick([f"The real credential lives in the secret manager: {v}", {"secret_ref": v, "owner": "platform team"}, f"Don't hardcode it — reference {v} instead."]), "secret_manager_reference", "en"


PWTALK = {
    "en": ["I changed my bank password yesterday.", "Can you suggest a good password manager? I'm torn between Bitwarden and 1Password.",
           "Remind me to update my Netflix password next month.", "I always forget my passwords; maybe I should use a passphrase.",
           "The IT department says our passwords must be at least 14 characters now.", "My password for the pharmacy app expired, I need to reset it.",
           "I never reuse passwords anymore after the LinkedIn breach.", "Mom keeps writing her passwords on sticky notes, I need to help her set up a manager.",
           "What makes a strong password? I want to teach the kids.", "I set up a new password for the HR portal, it's in my password manager.",
           "Apparently 'password123' is still the most common password, wild.", "I got a phishing email asking me to 'confirm my password' — deleted it."],
    "es": ["Ayer cambié la contraseña del banco.", "¿Qué gestor de contraseñas me recomiendas?", "Tengo que cambiar la contraseña del correo el mes que viene."],
    "fr": ["J'ai changé mon mot de passe bancaire hier.", "Tu me conseilles quel gestionnaire de mots de passe ?", "Mon mot de passe Ameli a expiré, il faut le réinitialiser."],
    "de": ["Ich habe gestern mein Banking-Passwort geändert.", "Welchen Passwort-Manager empfiehlst du?", "Die IT verlangt jetzt Passwörter mit mindestens 14 Zeichen."],
    "it": ["Ieri ho cambiato la password della banca.", "Mi consigli un password manager?"], "pt": ["Troquei a senha do banco ontem.", "Qual gerenciador de senhas você recomenda?"],
    "nl": ["Ik heb gisteren mijn bankwachtwoord veranderd.", "Welke wachtwoordmanager raad je aan?"], "pl": ["Wczoraj zmieniłam hasło do banku.", "Jaki menedżer haseł polecasz?"],
    "sv": ["Jag bytte lösenord till banken i går.", "Vilken lösenordshanterare rekommenderar du?"], "tr": ["Dün banka şifremi değiştirdim.", "Hangi şifre yöneticisini önerirsin?"],
    "ja": ["昨日、銀行のパスワードを変更しました。", "おすすめのパスワード管理アプリはある？"], "zh": ["我昨天改了银行密码。", "你推荐哪个密码管理器？"],
}
PINTALK = {
    "en": ["I forgot my card PIN, the bank is mailing a new one.", "I switched to Face ID so I don't type my phone PIN in public anymore.",
           "The building is changing the door code next week, they'll email everyone.", "Remind me to set a SIM PIN on the new phone.",
           "The alarm company is coming Thursday to reset the code.", "I need to pick up the new door fob from the concierge.",
           "The PIN reminder letter from the bank arrived — I shredded it after memorising.", "Ask the landlord for the new gate code when we move in."],
    "es": ["Se me olvidó el PIN de la tarjeta, el banco me envía uno nuevo.", "La comunidad va a cambiar el código del portal la semana que viene."],
    "fr": ["J'ai oublié le code de ma carte, la banque m'en envoie un nouveau.", "Le syndic change le digicode lundi."],
    "de": ["Ich habe meine PIN vergessen, die Bank schickt eine neue.", "Die Hausverwaltung ändert nächste Woche den Türcode."],
    "it": ["Ho dimenticato il PIN, la banca me ne manda uno nuovo."], "nl": ["Ik ben mijn pincode vergeten, de bank stuurt een nieuwe."],
    "pl": ["Zapomniałam PIN-u do karty, bank wyśle nowy."], "sv": ["Jag glömde PIN-koden, banken skickar en ny."], "pt": ["Esqueci a senha do cartão, o banco vai mandar outra."],
    "tr": ["Kart şifremi unuttum, banka yenisini gönderecek."], "ja": ["暗証番号を忘れたので銀行に再発行を頼んだ。"], "zh": ["我忘了银行卡密码，银行会寄新的。"],
}


def la_talk(table, kind):
    lang = weighted_kind({l: LANG_WEIGHTS[l] for l in table})
    t = pick(table[lang])
    return pick([t, r_chat(t, lang), {"memory": t, "created_at": iso_ts()}]), kind, lang


def la_password_talk():
    return la_talk(PWTALK, "password_talk")


def la_pin_talk():
    return la_talk(PINTALK, "pin_talk")


def la_otp_talk():
    t = pick(["I turned on two-factor for my email using the Authy app.", "The bank now sends a one-time code by SMS for every transfer over a limit.",
              "My 2FA backup codes are printed and in the fire safe, not on the computer.", "I lost my phone so I had to use a recovery code to get back into Google.",
              "Work made us switch from SMS codes to the Okta Verify app.", "I should set up a hardware security key for my main accounts.",
              "The verification code never arrived, I'll try again tomorrow.", "Passkeys are set up on my Google account now."])
    return t, "twofa_talk", "en"


MEDS = [("metformin", "500 mg", "twice daily with meals"), ("lisinopril", "10 mg", "once every morning"), ("levothyroxine", "75 mcg", "on an empty stomach"),
        ("sertraline", "50 mg", "once daily"), ("atorvastatin", "20 mg", "at night"), ("ibuprofen", "400 mg", "every 6–8 hours as needed"),
        ("amoxicillin", "500 mg", "three times a day for 7 days"), ("vitamin D3", "2000 IU", "daily"), ("salbutamol", "100 mcg/puff", "2 puffs when needed"),
        ("insulin glargine", "18 units", "at bedtime"), ("omeprazole", "20 mg", "before breakfast"), ("methotrexate", "15 mg", "once a week on Sundays")]


def la_medical():
    opt = R.randint(0, 5)
    if opt == 0:
        m, d, f = pick(MEDS)
        return pick([f"I take {m} {d} {f}.", f"Dr. {pick(EN_LAST)} increased my {m} to {d}, {f}."]), "medication_dosage", "en"
    if opt == 1:
        return pick([f"Latest labs: HbA1c {round(R.uniform(5.2, 8.4), 1)}%, LDL {round(R.uniform(1.8, 4.2), 1)} mmol/L, TSH {round(R.uniform(0.5, 4.8), 2)} mIU/L.",
                     f"Ferritin came back at {R.randint(8, 300)} ng/mL and vitamin B12 at {R.randint(180, 900)} pg/mL.",
                     f"eGFR {R.randint(55, 110)} mL/min/1.73m², creatinine {R.randint(60, 120)} µmol/L."]), "lab_values", "en"
    if opt == 2:
        code, desc = pick([("E11.9", "type 2 diabetes without complications"), ("J45.909", "asthma, uncomplicated"), ("I10", "essential hypertension"),
                           ("M54.5", "low back pain"), ("F41.1", "generalized anxiety disorder"), ("K21.9", "GERD"), ("G43.909", "migraine")])
        return f"The referral letter lists ICD-10 {code} ({desc}).", "icd10_code", "en"
    if opt == 3:
        return pick([f"BP this morning {R.randint(110, 150)}/{R.randint(65, 95)}, pulse {R.randint(55, 95)}.", f"Blood sugar before breakfast: {round(R.uniform(4.5, 9.5), 1)} mmol/L."]), "vital_signs", "en"
    if opt == 4:
        lang, t = pick([("es", f"Tomo {pick(['paracetamol 1 g cada 8 horas', 'omeprazol 20 mg en ayunas', 'enalapril 10 mg por la mañana'])}."),
                        ("de", f"Ich nehme {pick(['Ramipril 5 mg morgens', 'L-Thyroxin 50 µg nüchtern', 'Metformin 1000 mg zweimal täglich'])}."),
                        ("fr", f"Je prends {pick(['Doliprane 1000 mg trois fois par jour', 'Levothyrox 75 µg le matin'])}."),
                        ("it", "Prendo Eutirox 50 mcg la mattina a digiuno."), ("nl", "Ik neem 2 keer per dag 500 mg metformine."),
                        ("pl", "Biorę Euthyrox 75 mcg rano na czczo."), ("sv", "Jag tar Waran 2,5 mg på kvällen."), ("pt", "Tomo losartana 50 mg de manhã."),
                        ("tr", "Sabahları aç karnına Levotiron 100 mcg alıyorum."), ("ja", "毎朝チラーヂン50μgを飲んでいます。"), ("zh", "我每天早上吃二甲双胍500毫克。")])
        return t, "medication_dosage", lang
    return f"Vaccine record: {pick(['Comirnaty', 'Shingrix', 'Boostrix', 'Fluad'])} lot {rs(2, UP)}{dg(4)}, given {date_s()}.", "vaccine_lot_number", "en"


def la_order():
    opt = R.randint(0, 5)
    if opt == 0:
        return f"Amazon order {dgnz(3)}-{dg(7)}-{dg(7)} should arrive Thursday.", "order_number", "en"
    if opt == 1:
        return f"UPS tracking 1Z{rs(6, UD)}{dg(10)} — the new monitor.", "tracking_number", "en"
    if opt == 2:
        return f"Invoice INV-{R.randint(2024, 2025)}-{dg(5)} from the plumber is due at the end of the month.", "invoice_number", "en"
    if opt == 3:
        lang, t = pick([("de", f"Bestellnummer {dg(9)} bei Zalando, Rücksendung bis Freitag."), ("es", f"Pedido n.º {dg(8)} de El Corte Inglés, llega el lunes."),
                        ("fr", f"Commande n° {dgnz(2)}{dg(8)} sur Fnac, livraison mercredi."), ("nl", f"Bol.com bestelling {dg(10)} komt morgen."),
                        ("pl", f"Paczka InPost nr {dg(24)} czeka w paczkomacie."), ("it", f"Ordine n. {dg(10)} su Amazon.it in consegna domani.")])
        return t, "order_number", lang
    if opt == 4:
        return f"Royal Mail tracking {rs(2, UP)}{dg(9)}GB for the birthday parcel.", "tracking_number", "en"
    return f"Warranty claim case #{dg(8)} for the dishwasher.", "support_case_number", "en"


def la_travel():
    opt = R.randint(0, 4)
    pnr = rs(6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    al = pick(["BA", "LH", "AF", "KL", "IB", "UA", "DL", "TK", "SK", "LX", "FR", "U2", "NH"])
    if opt == 0:
        return f"Flight {al}{R.randint(100, 2999)} on {date_s()}, booking reference {pnr}, seat {R.randint(3, 38)}{pick('ACDF')}.", "flight_booking", "en"
    if opt == 1:
        return f"Hotel confirmation {dgnz(10)}, room {R.randint(2, 14)}{R.randint(0, 3)}{R.randint(1, 9)}, breakfast included.", "hotel_confirmation", "en"
    if opt == 2:
        return f"Train to {pick(CITIES)}: coach {R.randint(1, 14)}, seat {R.randint(1, 88)}, ticket ref {rs(8, UD)}.", "train_ticket_ref", "en"
    if opt == 3:
        lang, t = pick([("es", f"Vuelo {al}{R.randint(100, 2999)}, localizador {pnr}, sale a las {R.randint(6, 22)}:{pick(['05','20','45'])}."),
                        ("de", f"Flug {al}{R.randint(100, 2999)}, Buchungscode {pnr}, Gate B{R.randint(1, 60)}."),
                        ("fr", f"Vol {al}{R.randint(100, 2999)}, référence de réservation {pnr}."), ("it", f"Volo {al}{R.randint(100, 2999)}, codice prenotazione {pnr}."),
                        ("ja", f"便名 {al}{R.randint(100, 2999)}、予約番号 {pnr}。"), ("sv", f"Flyg {al}{R.randint(100,2999)}, bokningsnummer {pnr}.")])
        return t, "flight_booking", lang
    return f"Car rental reservation {rs(2, UP)}{dg(8)} at the airport desk, pick-up {R.randint(8, 18)}:00.", "car_rental_reference", "en"


def phone_num(lang):
    return {"en": pick([f"+1 ({R.randint(201, 989)}) {R.randint(200, 999)}-{dg(4)}", f"+44 7{dg(3)} {dg(6)}"]), "es": f"+34 6{dg(2)} {dg(3)} {dg(3)}",
            "fr": f"+33 6 {dg(2)} {dg(2)} {dg(2)} {dg(2)}", "de": f"+49 15{dg(1)} {dg(8)}", "it": f"+39 3{dg(2)} {dg(7)}", "pt": f"+351 9{dg(2)} {dg(3)} {dg(3)}",
            "nl": f"+31 6 {dg(8)}", "pl": f"+48 {dg(3)} {dg(3)} {dg(3)}", "sv": f"+46 70 {dg(3)} {dg(2)} {dg(2)}", "tr": f"+90 5{dg(2)} {dg(3)} {dg(2)} {dg(2)}",
            "ja": f"090-{dg(4)}-{dg(4)}", "zh": f"+86 13{dg(1)} {dg(4)} {dg(4)}"}[lang]


PHONE_T = {"en": ["Dr. {sur}'s office: {ph}", "My sister's new number is {ph}", "Pharmacy phone {ph}, open till 7pm", "The vet's emergency line is {ph}"],
           "es": ["El teléfono del centro de salud es {ph}"], "fr": ["Le numéro du cabinet médical : {ph}"], "de": ["Die Praxis erreicht man unter {ph}"],
           "it": ["Il numero del medico di base è {ph}"], "pt": ["O telefone da clínica é {ph}"], "nl": ["Het nummer van de huisarts is {ph}"],
           "pl": ["Numer do przychodni: {ph}"], "sv": ["Vårdcentralens nummer är {ph}"], "tr": ["Aile hekiminin telefonu {ph}"], "ja": ["歯医者の電話番号は{ph}"], "zh": ["诊所电话是{ph}"]}


def la_phone():
    lang = weighted_kind({l: LANG_WEIGHTS[l] for l in PHONE_T})
    return pick(PHONE_T[lang]).format(sur=pick(EN_LAST), ph=phone_num(lang)), "contact_phone_number", lang


ADDR = {"en": lambda: f"{R.randint(1, 999)} {pick(['Maple', 'Oak', 'Cedar', 'Elm', 'Harbor'])} {pick(['St', 'Ave', 'Road', 'Lane'])}, {pick(['Portland, OR 97', 'Austin, TX 78', 'Madison, WI 53'])}{dg(3)}",
        "es": lambda: f"Calle {pick(['Mayor', 'del Carmen', 'Alcalá'])} {R.randint(1, 150)}, {R.randint(1, 5)}º B, 280{dg(2)} Madrid",
        "fr": lambda: f"{R.randint(1, 99)} rue {pick(['de la Paix', 'Victor Hugo', 'des Lilas'])}, 690{dg(2)} Lyon",
        "de": lambda: f"{pick(['Goethestraße', 'Lindenweg', 'Hauptstraße'])} {R.randint(1, 120)}, 04{dg(3)} Leipzig",
        "it": lambda: f"Via {pick(['Garibaldi', 'Roma', 'Mazzini'])} {R.randint(1, 99)}, 401{dg(2)} Bologna",
        "nl": lambda: f"{pick(['Kerkstraat', 'Dorpsweg', 'Molenlaan'])} {R.randint(1, 200)}, 35{dg(2)} {rs(2, UP)} Utrecht",
        "pl": lambda: f"ul. {pick(['Długa', 'Kwiatowa', 'Lipowa'])} {R.randint(1, 80)}/{R.randint(1, 30)}, 30-{dg(3)} Kraków",
        "sv": lambda: f"{pick(['Storgatan', 'Kungsgatan', 'Sveavägen'])} {R.randint(1, 90)}, 753 {dg(2)} Uppsala",
        "pt": lambda: f"Rua {pick(['das Flores', 'Augusta', 'do Carmo'])}, {R.randint(1, 300)}, 4050-{dg(3)} Porto",
        "tr": lambda: f"{pick(['Atatürk', 'Cumhuriyet', 'İstiklal'])} Cad. No:{R.randint(1, 200)} D:{R.randint(1, 20)}, 35{dg(3)} Konak/İzmir",
        "ja": lambda: f"〒060-{dg(4)} 札幌市中央区北{R.randint(1, 20)}条西{R.randint(1, 20)}丁目", "zh": lambda: f"成都市锦江区春熙路{R.randint(1, 200)}号"}


def la_address():
    lang = weighted_kind({l: LANG_WEIGHTS[l] for l in ADDR})
    a = ADDR[lang]()
    lead = {"en": "New dentist address: ", "es": "Dirección del fisio: ", "fr": "Adresse du kiné : ", "de": "Adresse der neuen Hausärztin: ", "it": "Indirizzo dello studio: ",
            "nl": "Adres van de fysio: ", "pl": "Adres przychodni: ", "sv": "Adress till tandläkaren: ", "pt": "Morada do consultório: ", "tr": "Kliniğin adresi: ",
            "ja": "病院の住所：", "zh": "医院地址："}[lang]
    return lead + a, "postal_address", lang


def la_datetime():
    lang = pick(["en", "en", "en", "de", "es", "fr"])
    h, m = R.randint(7, 18), pick(["00", "15", "30", "45"])
    d = date_s()
    return {"en": f"Dentist appointment {d} at {h}:{m}, arrive 10 minutes early.", "de": f"Termin beim Orthopäden am {d[8:]}.{d[5:7]}. um {h}:{m} Uhr.",
            "es": f"Cita con la doctora el {d[8:]}/{d[5:7]} a las {h}:{m}.", "fr": f"Rendez-vous chez le dermato le {d[8:]}/{d[5:7]} à {h}h{m}."}[lang], "appointment_datetime", lang


def la_version():
    v = pick([f"v{R.randint(1, 5)}.{R.randint(0, 30)}.{R.randint(0, 20)}", f"{R.randint(1, 20)}.{R.randint(0, 9)}.{R.randint(0, 9)}-rc.{R.randint(1, 5)}+build.{dg(4)}",
              f"iOS {R.randint(16, 18)}.{R.randint(0, 6)}.{R.randint(0, 2)} ({R.randint(20, 22)}{pick('ABCDEFG')}{R.randint(10, 999)})", f"build {R.randint(2024, 2025)}.{R.randint(1, 12):02d}.{dg(3)}"])
    return pick([f"The budgeting app is on {v} now; the export bug was fixed there.", f"Laptop firmware {v} installed.", f"We're pinned to {v} until the migration."]), "version_string", "en"


def la_price():
    lang = pick(["en", "en", "de", "fr", "es", "it", "nl", "sv", "pl"])
    return {"en": pick([f"Groceries this week came to ${R.randint(80, 260)}.{dg(2)}.", f"Monthly budget: rent £{R.randint(900, 2400)}, utilities £{R.randint(90, 260)}, savings £{R.randint(100, 900)}."]),
            "de": f"Die Reparatur hat {R.randint(80, 900)},{dg(2)} € gekostet.", "fr": f"Le loyer passe à {R.randint(650, 1500)} € en janvier.",
            "es": f"La factura de la luz fue de {R.randint(35, 140)},{dg(2)} €.", "it": f"L'abbonamento in palestra costa {R.randint(25, 70)} € al mese.",
            "nl": f"De energierekening is € {R.randint(90, 260)},{dg(2)} per maand.", "sv": f"Hyran är {R.randint(6, 14)} {dg(3)} kr i månaden.",
            "pl": f"Czynsz wynosi {R.randint(1800, 4200)} zł miesięcznie."}[lang], "price_amount", lang


def la_loyalty():
    t = pick(["I'm Gold in Marriott Bonvoy, so ask for late checkout.", "I collect Avios, prefer BA or Iberia when prices are close.",
              "My Lufthansa Miles & More status expires in March.", "We use the Tesco Clubcard vouchers for days out.", "I'm a Costco Executive member.",
              "Please prefer Hilton Honors hotels when I travel for work.", "I'm Sapphire with Delta SkyMiles (no, not the card, the tier).",
              "Flying Blue Silver until next year.", "I have a Starbucks Rewards account but rarely use it."])
    return t, "loyalty_programme", "en"


BANKTALK = {"en": ["My checking account is with Chase and savings with Ally.", "I moved my emergency fund to a high-yield savings account.",
                   "Payday is the last working day of the month.", "I want to set up a standing order for the rent.", "Our joint account is at Monzo; bills come out of it.",
                   "I'm trying to keep a 3-month emergency fund."],
            "de": ["Mein Girokonto ist bei der Sparkasse, das Tagesgeld bei der DKB."], "es": ["Tengo la nómina domiciliada en el BBVA."],
            "fr": ["Mon compte courant est au Crédit Agricole."], "nl": ["Mijn spaarrekening staat bij de Rabobank."], "it": ["Ho il conto corrente in Fineco."],
            "pl": ["Konto osobiste mam w mBanku."], "sv": ["Lönen kommer in på Swedbank-kontot den 25:e."], "pt": ["Minha conta salário é no Itaú."],
            "tr": ["Maaşım Garanti hesabıma yatıyor."]}


def la_banktalk():
    return la_talk(BANKTALK, "bank_talk_no_iban")


def la_b64harmless():
    txt = pick(["hello world", "Happy birthday, Grandma!", "meeting moved to 3pm", "shopping list: eggs, milk, bread", "The quick brown fox jumps over the lazy dog",
                "see you at the lake", "{\"theme\":\"dark\",\"lang\":\"en\"}", "thanks for the help yesterday", "chapter 3 draft"])
    e = b64std(txt.encode())
    return pick([f"The puzzle answer was base64: {e} (decodes to '{txt}')", {"encoding": "base64", "data": e, "decoded_preview": txt},
                 f"data:text/plain;base64,{e}"]), "base64_harmless_text", "en"


def la_filename():
    f = pick([f"IMG_{date_s().replace('-', '')}_{R.randint(100000, 235959)}.jpg", f"PXL_{date_s().replace('-', '')}_{dg(9)}.MP.jpg",
              f"DSC_{dg(4)}.NEF", f"Screenshot {date_s()} at {R.randint(10, 23)}.{R.randint(10, 59)}.{R.randint(10, 59)}.png",
              f"{hx(8)}-{hx(4)}-{hx(4)}-{hx(4)}-{hx(12)}.heic", f"WhatsApp Image {date_s()} at {R.randint(10, 23)}.{R.randint(10, 59)}.{R.randint(10, 59)}.jpeg",
              f"scan_{rs(10, AN)}.pdf"])
    return pick([f"The photo of the rash for the doctor is {f}.", f"Insurance claim photo: {f}", f"Use {f} for the passport renewal."]), "image_file_name", "en"


def la_shorturl():
    u = pick([f"https://bit.ly/{rs(7, AN)}", f"https://youtu.be/{b64u(11)}", f"https://tinyurl.com/{rs(8, LD)}", f"https://open.spotify.com/track/{rs(22, AN)}",
              f"https://goo.gl/maps/{rs(17, AN)}", f"https://imgur.com/a/{rs(7, AN)}", f"https://www.instagram.com/p/{b64u(11)}/"])
    return pick([f"The stretching video the physio recommended: {u}", f"Recipe link: {u}", f"Directions to the clinic: {u}", f"Song for the wedding playlist: {u}"]), "short_url_slug", "en"


def la_score():
    return pick([f"Arsenal won {R.randint(1, 5)}–{R.randint(0, 3)} last night.", f"Our pub quiz team scored {R.randint(30, 60)}/{R.randint(60, 70)}.",
                 f"Final score {R.randint(80, 130)}-{R.randint(70, 125)}, the kids' basketball team won!", f"I bowled a {R.randint(110, 220)} on Friday.",
                 f"Tennis: 6-{R.randint(0, 4)}, {R.randint(3, 7)}-6, 7-{R.randint(5, 6)}."]), "sports_score", "en"


def la_lottery():
    nums = sorted(R.sample(range(1, 60), 6))
    return pick([f"Our office lottery syndicate numbers: {' '.join(map(str, nums))}", f"EuroMillions line: {'-'.join(map(str, sorted(R.sample(range(1, 51), 5))))} + stars {R.randint(1, 6)} & {R.randint(7, 12)}",
                 f"Dad always plays {', '.join(map(str, nums))}."]), "lottery_numbers", "en"


def la_recipe():
    return pick([f"Mum's banana bread: {R.randint(2, 3)} ripe bananas, {R.randint(150, 250)} g flour, {R.randint(75, 120)} g butter, 1 tsp baking soda, bake {pick([170, 175, 180, 185])}°C for {R.randint(50, 65)} min.",
                 f"Pancakes: {R.randint(1, 2)} cups flour, {R.randint(1, 2)} eggs, {R.randint(250, 350)} ml milk, 2 tbsp sugar.",
                 f"Brine ratio {R.randint(40, 70)} g salt per litre, {R.randint(12, 24)} hours."]), "recipe_quantities", "en"


def la_cardlast4():
    lang = pick(["en", "en", "en", "de", "es", "fr"])
    l4 = dg(4)
    return {"en": pick([f"Use the Visa ending in {l4} for the subscription.", f"Charge from the card •••• {l4} looks wrong, dispute it.",
                        f"**** **** **** {l4} expires soon, the bank is sending a replacement."]),
            "de": f"Abbuchung von der Karte mit Endung {l4} prüfen.", "es": f"Usa la tarjeta que termina en {l4} para el gimnasio.",
            "fr": f"Paiement avec la carte se terminant par {l4}."}[lang], "masked_card_last4", lang


def la_wallet():
    a = pick([eth_address(), btc_address(), sol_pubkey(), btc_xpub()])
    return pick([f"My public receiving address (safe to share): {a}", f"Send the refund to {a}, that's my public wallet address.",
                 {"watch_only_wallet": a, "note": "public address / xpub for tracking only"}]), "public_wallet_address", "en"


def la_cloudid():
    v = pick([f"arn:aws:iam::{dg(12)}:role/{app_slug()}-deployer", f"i-0{hx(16)}", f"vpc-0{hx(16)}", f"sg-0{hx(16)}", f"AWS account {dg(12)} (billing)",
              f"projects/{app_slug()}-{dg(6)}/locations/europe-west1", f"/subscriptions/{uuid4()}/resourceGroups/rg-{app_slug()}", f"ami-0{hx(16)}"])
    return pick([f"The staging box is {v}.", f"Terraform output: {v}", f"Cost spike came from {v}."]), "cloud_resource_id", "en"


def la_idkey():
    opt = R.randint(0, 3)
    if opt == 0:
        k = uuid4()
        return {"title": "Physio follow-up", "when": date_s()}, "record_id_in_key", "en", k
    if opt == 1:
        k = f"order_{dgnz(3)}-{dg(7)}-{dg(7)}"
        return "Return window closes in 30 days.", "order_id_in_key", "en", k
    if opt == 2:
        k = f"trace_{hx(32)}"
        return {"status": "resolved", "note": "timeout on bank sync"}, "trace_id_in_key", "en", k
    k = f"sha_{hx(40)}"
    return "Release notes drafted for this commit.", "commit_id_in_key", "en", k


def la_serial():
    v = pick([f"serial number C02{rs(8, UD)}", f"MAC address {':'.join(hx(2) for _ in range(6))}", f"model {rs(2, UP)}-{dg(4)}{rs(2, UP)}",
              f"hearing aid serial {dg(10)}", f"CPAP machine SN {rs(3, UD)}{dg(8)}", f"printer SN {rs(10, UD)}"])
    return pick([f"For the warranty: {v}.", f"The insurance form needs the {v}.", f"Device info — {v}."]), "device_serial", "en"


def la_wifitalk():
    lang = pick(["en", "en", "de", "es", "fr"])
    ssid = pick(SSIDS)
    return {"en": pick([f"The guest network is called {ssid}; it has no password, just a splash page.", f"Our wifi name is {ssid}. The password is on the sticker under the router.",
                        "The café wifi is open, no password needed.", f"Switch the printer to the 5 GHz network ({ssid}-5G)."]),
            "de": f"Unser WLAN heißt {ssid}, das Passwort steht auf der Rückseite der Box.", "es": f"La red wifi se llama {ssid}; la clave está en la pegatina del router.",
            "fr": f"Le réseau wifi s'appelle {ssid}, le mot de passe est sur la box."}[lang], "wifi_talk_no_password", lang


def la_promo():
    c = pick(["SPRING25", "WELCOME10", "FREESHIP", "BLACKFRIDAY30", "NEWYOU15", "SUMMER2025", "STUDENT20", "HELLO5OFF"])
    return pick([f"The newsletter promo code {c} gives 20% off until Sunday.", f"Public discount code from the podcast ad: {c}."]), "public_promo_code", "en"


def la_hexcolor():
    cols = ", ".join(f"#{hx(6)}" for _ in range(R.randint(3, 5)))
    return pick([f"Brand colours for the newsletter: {cols}", {"theme": {"primary": f"#{hx(6)}", "accent": f"#{hx(6)}", "bg": f"#{hx(6)}"}}]), "design_color_tokens", "en"


def la_configsafe():
    lines = R.sample(FILLER_ENV, 4) + [f"API_BASE_URL=https://api.{pick(['acme-corp.com', 'northwind.io'])}/v2", f"PUBLIC_SITE_ID={rs(8, LD)}", f"SENTRY_RELEASE={hx(12)}"]
    R.shuffle(lines)
    return "\n".join(lines), "config_without_secrets", "en"


def la_logids():
    return "\n".join(f"{iso_ts()} INFO request_id={uuid4()} user=u{dg(5)} path=/api/{pick(['budget', 'meds', 'shifts'])} status={pick([200, 200, 204, 304])} dur_ms={R.randint(3, 400)}"
                     for _ in range(R.randint(2, 4))), "log_with_ids", "en"


LOOKALIKES = [
    ("commit-sha", la_commit_sha, 10), ("uuid", la_uuid, 10), ("trace-id", la_trace, 10), ("checksum", la_checksum, 10), ("image-digest", la_digest, 8),
    ("sri-integrity", la_sri, 8), ("ssh-public-key", la_sshpub, 10), ("public-cert", la_cert, 8), ("pgp-public", la_pgppub, 7), ("jwks-public", la_jwks, 5),
    ("publishable-key", la_publishable, 12), ("public-client-key", la_public_client, 16), ("placeholder", la_placeholder, 14), ("redacted", la_redacted, 12),
    ("doc-example", la_docexample, 7), ("test-card-doc", la_testcard, 4), ("secret-reference", la_secretref, 10), ("password-talk", la_password_talk, 18),
    ("pin-talk", la_pin_talk, 12), ("twofa-talk", la_otp_talk, 8), ("medical-numbers", la_medical, 22), ("order-number", la_order, 14),
    ("travel-refs", la_travel, 14), ("phone-number", la_phone, 12), ("postal-address", la_address, 12), ("date-time", la_datetime, 8),
    ("version-string", la_version, 8), ("price-amount", la_price, 10), ("loyalty-programme", la_loyalty, 7), ("bank-talk", la_banktalk, 10),
    ("base64-harmless", la_b64harmless, 8), ("file-names", la_filename, 8), ("short-url-slug", la_shorturl, 8), ("sports-score", la_score, 6),
    ("lottery-numbers", la_lottery, 5), ("recipe-quantities", la_recipe, 6), ("card-last4", la_cardlast4, 10), ("wallet-address", la_wallet, 8),
    ("cloud-resource-id", la_cloudid, 8), ("id-in-key", la_idkey, 8), ("device-serial", la_serial, 7), ("wifi-talk", la_wifitalk, 8),
    ("promo-code", la_promo, 5), ("hex-color", la_hexcolor, 5), ("config-no-secret", la_configsafe, 7), ("log-ids", la_logids, 6),
]


# ================================================================ assembly

N_PLAIN_TECH = 250
N_PLAIN_PERSONAL = 210
N_BENIGN_ORDINARY = 330
GENERIC_VENDORS = ["Generic", "HTTP", "RSA", "PKCS#8", "EC", "Encrypted PKCS#8", "BIP39", "TOTP", "netrc", "Router", "SNMP", "Wi-Fi", "SMTP", "FTP", "LDAP"]


class Builder:
    def __init__(self):
        self.records = []
        self.seen_values = set()
        self.seen_keys = set()
        self.users = []
        while len(self.users) < 260:
            u = "u" + dg(5)
            if u not in self.users:
                self.users.append(u)

    def canon(self, v):
        return json.dumps(v, sort_keys=True, ensure_ascii=False)

    def fresh_key(self):
        while True:
            k = "mem_" + hx(8)
            if k not in self.seen_keys:
                self.seen_keys.add(k)
                return k

    def add(self, gen, label, variant, meta_fn):
        """gen() -> dict(value, seg, kind, lang, vendor, personal, key?, ns3?, tech?)"""
        for _ in range(400):
            d = gen()
            c = self.canon(d["value"])
            if c in self.seen_values:
                continue
            if d.get("key") and d["key"] in self.seen_keys:
                continue
            self.seen_values.add(c)
            key = d.get("key")
            if key:
                self.seen_keys.add(key)
            else:
                key = self.fresh_key()
            ns = ["memories", pick(self.users)]
            if d.get("ns3"):
                ns.append(d["ns3"])
            rec = {"label": label, "variant": variant, "seg": d["seg"], "kind": d["kind"], "namespace": ns, "key": key, "value": d["value"],
                   "_lang": d.get("lang", "en"), "_vendor": d.get("vendor"), "_personal": d.get("personal", False), "_fmtkind": d.get("fmtkind")}
            self.records.append(rec)
            return rec
        raise RuntimeError("could not generate a unique value for " + label + "/" + variant)


def main():
    B = Builder()

    # ---------- plain technical secrets: every non-hard-capable format, then a random selection
    forced = [f for f in FORMATS if f not in HARD_OK_FORMATS]
    rest = [f for f in HARD_OK_FORMATS]
    R.shuffle(rest)
    n_rest = N_PLAIN_TECH - len(forced)
    plain_fmts = forced + rest[:n_rest]
    hard_queue = rest[n_rest:]

    def plain_tech_gen(fmt):
        def g():
            pairs = fmt["fn"]()
            val, seg, lang = render_tech(fmt, pairs)
            return {"value": val, "seg": seg, "kind": fmt["kind"], "lang": lang, "vendor": fmt["vendor"], "fmtkind": fmt["kind"]}
        return g

    for fmt in plain_fmts:
        B.add(plain_tech_gen(fmt), "secret", "plain", None)

    # ---------- plain personal secrets
    def plain_personal_gen():
        if R.random() < 0.03:
            v, seg, kind, lang = personal_csv()
        else:
            v, seg, kind, lang = personal_plain()
        return {"value": v, "seg": seg, "kind": kind, "lang": lang, "personal": True}

    for _ in range(N_PLAIN_PERSONAL):
        B.add(plain_personal_gen, "secret", "plain", None)

    # ---------- hard secrets
    hq = list(hard_queue)

    def next_tech_fmt():
        if hq:
            return hq.pop()
        return pick(HARD_OK_FORMATS)

    for name, fn, pref, count in TECHNIQUES:
        for _ in range(count):
            if pref == "tech":
                personal = False
            elif pref == "personal":
                personal = True
            else:
                personal = R.random() < 0.35
            fmt_holder = {}

            def g(fn=fn, personal=personal, name=name):
                if personal:
                    b = personal_base()
                else:
                    fmt = fmt_holder.get("fmt") or next_tech_fmt()
                    fmt_holder["fmt"] = fmt
                    b = tech_base(fmt)
                out = fn(b)
                base = out["base"]
                return {"value": out["value"], "seg": name, "kind": base["kind"], "lang": out.get("lang", base.get("lang", "en")),
                        "vendor": base.get("vendor"), "personal": base.get("personal", False), "key": out.get("key"), "ns3": out.get("ns3"),
                        "fmtkind": None if base.get("personal") else base["kind"]}
            B.add(g, "secret", "hard", None)

    # any format never used gets an extra plain record so every format appears at least once
    used = set(r["_fmtkind"] for r in B.records if r["_fmtkind"])
    for fmt in FORMATS:
        if fmt["kind"] not in used:
            B.add(plain_tech_gen(fmt), "secret", "plain", None)

    # ---------- benign ordinary
    def ord_gen():
        v, seg, kind, lang = benign_ordinary()
        return {"value": v, "seg": seg, "kind": kind, "lang": lang}

    for _ in range(N_BENIGN_ORDINARY):
        B.add(ord_gen, "benign", "plain", None)

    # ---------- benign look-alikes
    for fam, fn, count in LOOKALIKES:
        for _ in range(count):
            def g(fn=fn, fam=fam):
                out = fn()
                d = {"value": out[0], "seg": fam, "kind": out[1], "lang": out[2]}
                if len(out) > 3:
                    d["key"] = out[3]
                return d
            B.add(g, "benign", "hard", None)

    # ---------- shuffle, number, write
    recs = B.records
    R.shuffle(recs)
    counters = Counter()
    lines = []
    for r in recs:
        cell = (r["label"], r["variant"])
        counters[cell] += 1
        rid = f"h10-{r['label'][0]}-{r['variant'][0]}-{r['seg']}-{counters[cell]:03d}"
        r["id"] = rid
        out = {"id": rid, "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": r["namespace"], "key": r["key"], "value": r["value"]}
        lines.append(json.dumps(out, ensure_ascii=False))
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)

    # ---------- statistics (stdout only)
    st = Counter((r["label"], r["variant"]) for r in recs)
    print("counts:", {f"{a}/{b}": n for (a, b), n in sorted(st.items())})
    print("total:", len(recs))
    print("distinct kinds:", len(set(r["kind"] for r in recs)))
    sk = set(r["kind"] for r in recs if r["label"] == "secret")
    bk = set(r["kind"] for r in recs if r["label"] == "benign")
    print("distinct secret kinds:", len(sk), "benign kinds:", len(bk))
    fk = set(r["_fmtkind"] for r in recs if r["_fmtkind"])
    vend = set(r["_vendor"] for r in recs if r["_vendor"])
    print("credential formats used:", len(fk), "of", len(FORMATS))
    print("vendors/products:", len(vend), "excluding generic:", len([v for v in vend if v not in GENERIC_VENDORS]))
    sec = [r for r in recs if r["label"] == "secret"]
    pers = [r for r in sec if r["_personal"]]
    print("personal secrets:", len(pers), "of", len(sec), f"({100 * len(pers) / len(sec):.1f}%)", "hard share:", f"{100 * sum(1 for r in sec if r['variant'] == 'hard') / len(sec):.1f}%")
    print("techniques:", sorted(Counter(r["seg"] for r in sec if r["variant"] == "hard").items()))
    print("lookalike families:", sorted(Counter(r["seg"] for r in recs if r["label"] == "benign" and r["variant"] == "hard").items()))
    print("plain secret segments:", sorted(Counter(r["seg"] for r in sec if r["variant"] == "plain").items()))
    print("benign plain segments:", sorted(Counter(r["seg"] for r in recs if r["label"] == "benign" and r["variant"] == "plain").items()))
    print("lang personal secrets:", sorted(Counter(r["_lang"] for r in pers).items()))
    print("lang all secrets:", sorted(Counter(r["_lang"] for r in sec).items()))
    print("lang benign:", sorted(Counter(r["_lang"] for r in recs if r["label"] == "benign").items()))
    print("value types:", sorted(Counter(type(r["value"]).__name__ for r in recs).items()))
    print("non-standard keys:", sum(1 for r in recs if not (r["key"].startswith("mem_") and len(r["key"]) == 12)),
          "extra namespace labels:", sum(1 for r in recs if len(r["namespace"]) > 2))
    print("sha256:", hashlib.sha256(data).hexdigest())


if __name__ == "__main__":
    main()
