#!/usr/bin/env python3
"""make_train20b.py -- deterministic generator for the train20b corpus.

A labelled TRAINING corpus for a memory-secret detector, written by an
independent author.  Python 3.11 standard library only.  Every random choice
(including the final shuffle) comes from ONE generator,
random.Random(20112062); no set or dict-hash ordering is ever iterated.

    python3 make_train20b.py            # writes train20b.jsonl next to this file
    python3 make_train20b.py --stats    # also prints counts and the sha256
    python3 make_train20b.py --tables   # prints markdown composition tables

All values are synthetic.  Card numbers are Luhn-valid with real brand
prefixes and are never published test numbers (published test numbers appear
only in benign records that say they are test numbers).
"""
import base64
import codecs
import hashlib
import json
import os
import re
import sys
import random

SEED = 20112062
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "train20b.jsonl")

UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LO = "abcdefghijklmnopqrstuvwxyz"
DI = "0123456789"
AL = UP + LO + DI
HX = "0123456789abcdef"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
B64C = AL + "+/"
URLSAFE = AL + "-_"
CLEAR = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O/1/I look-alikes


def ch(seq):
    return seq[R.randrange(len(seq))]


def chance(p):
    return R.random() < p


def rs(alpha, n):
    return "".join(alpha[R.randrange(len(alpha))] for _ in range(n))


def digs(n, nz=False):
    s = rs(DI, n)
    if nz and s[0] == "0":
        s = str(R.randint(1, 9)) + s[1:]
    return s


def wpick(pairs):
    """weighted pick from [(weight, item), ...] in list order"""
    tot = sum(w for w, _ in pairs)
    x = R.random() * tot
    for w, it in pairs:
        x -= w
        if x < 0:
            return it
    return pairs[-1][1]


def sample(seq, k):
    return R.sample(list(seq), k)


# ---------------------------------------------------------------- cards
TEST_CARDS = {
    "4242424242424242", "4111111111111111", "4012888888881881", "4000056655665556",
    "5555555555554444", "5105105105105100", "5200828282828210", "2223003122003222",
    "378282246310005", "371449635398431", "378734493671000", "6011111111111117",
    "6011000990139424", "3530111333300000", "3566002020360505", "30569309025904",
    "38520000023237", "6200000000000005", "4000000000000002", "4000000000009995",
    "4000000000000077", "5425233430109903", "2222420000001113", "4917610000000000",
    "6759649826438453", "4035501000000008", "4988438843884305", "5454545454545454",
    "4444333322221111", "4917300800000000", "6304000000000000",
}


def luhn_ok(num):
    tot = 0
    for i, c in enumerate(reversed(num)):
        d = int(c)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        tot += d
    return tot % 10 == 0


def luhn_complete(prefix, length):
    while True:
        body = prefix + digs(length - len(prefix) - 1)
        tot = 0
        for i, c in enumerate(reversed(body)):
            d = int(c)
            if i % 2 == 0:
                d *= 2
                if d > 9:
                    d -= 9
            tot += d
        num = body + str((10 - tot % 10) % 10)
        assert luhn_ok(num)
        if num not in TEST_CARDS and len(set(num[len(prefix):])) > 3:
            return num


def _mc_prefix():
    return ch(["51", "52", "53", "54", "55", str(R.randint(2221, 2720))])


BRANDS = {
    "Visa": (lambda: "4", 16, 3),
    "Mastercard": (_mc_prefix, 16, 3),
    "Amex": (lambda: ch(["34", "37"]), 15, 4),
    "Discover": (lambda: ch(["6011", "644", "645", "646", "647", "648", "649", "65"]), 16, 3),
    "JCB": (lambda: str(R.randint(3528, 3589)), 16, 3),
    "UnionPay": (lambda: "62" + ch(["2", "4", "5", "6", "8"]), 16, 3),
    "Maestro": (lambda: ch(["6759", "5018", "5020", "5038", "6304"]), 16, 3),
    "RuPay": (lambda: ch(["6521", "6522", "6070", "6071", "6073", "8172"]), 16, 3),
    "Mir": (lambda: "220" + ch("01234"), 16, 3),
    "Elo": (lambda: ch(["636368", "504175", "451416", "627780"]), 16, 3),
    "Troy": (lambda: "9792", 16, 3),
    "Diners": (lambda: ch(["36", "38", "300", "305"]), 14, 3),
}
LANG_BRANDS = {
    "ru": ["Mir", "Mir", "Visa", "Mastercard"], "uk": ["Visa", "Mastercard"],
    "zh": ["UnionPay", "UnionPay", "Visa"], "yue": ["UnionPay", "Visa", "Mastercard"],
    "ja": ["JCB", "JCB", "Visa", "Mastercard"], "ko": ["Visa", "Mastercard", "Amex"],
    "hi": ["RuPay", "RuPay", "Visa", "Mastercard"], "ta": ["RuPay", "Visa"], "te": ["RuPay", "Visa"],
    "mr": ["RuPay", "Visa"], "pa": ["RuPay", "Mastercard"], "gu": ["RuPay", "Visa"],
    "tr": ["Troy", "Visa", "Mastercard"], "pt": ["Elo", "Visa", "Mastercard"],
    "en": ["Visa", "Visa", "Mastercard", "Mastercard", "Amex", "Discover", "Maestro", "Diners"],
}


def card_fmt(num):
    if len(num) == 15:
        return f"{num[:4]} {num[4:10]} {num[10:]}"
    if len(num) == 14:
        return f"{num[:4]} {num[4:10]} {num[10:]}"
    return " ".join(num[i:i + 4] for i in range(0, len(num), 4))


def make_card(lang="en"):
    brand = ch(LANG_BRANDS.get(lang, ["Visa", "Mastercard", "Visa", "Mastercard", "Amex", "Maestro"]))
    pfx, ln, cvvlen = BRANDS[brand]
    num = luhn_complete(pfx(), ln)
    exp = f"{R.randint(1, 12):02d}/{R.randint(26, 31)}"
    return brand, num, exp, digs(cvvlen)


# ---------------------------------------------------------------- code values
def pin(n=4):
    while True:
        s = digs(n)
        if len(set(s)) > 1:
            return s


def door_code():
    c = pin(ch([4, 4, 4, 5, 6]))
    return wpick([(5, c), (2, c + "#"), (1, "#" + c), (1, "*" + c + "#"), (1, c[:2] + "-" + c[2:]),
                  (1, "C" + c), (1, c + "✓")])


def combo():
    return wpick([(2, "-".join(f"{R.randint(0, 39):02d}" for _ in range(3))),
                  (2, "-".join(str(R.randint(0, 9)) for _ in range(4))),
                  (1, " ".join(str(R.randint(0, 59)) for _ in range(3)))])


def puk():
    return digs(8)


PW_SYMS = "!#$%&*?@."
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7"}


def leet(w):
    return "".join(LEET.get(c, c) if chance(0.6) else c for c in w)


def human_pw(words):
    w = ch(words)
    w2 = ch(words)
    p = R.randrange(9)
    if p == 0:
        s = w.capitalize() + str(R.randint(1952, 2019)) + ch(PW_SYMS)
    elif p == 1:
        s = w.lower() + "." + w2.lower() + digs(2)
    elif p == 2:
        s = w.capitalize() + ch(PW_SYMS) + digs(2)
    elif p == 3:
        s = rs(AL, R.randint(12, 16)) + ch(["", "!", "#", "-"])
    elif p == 4:
        s = w.lower() + digs(R.randint(3, 4))
    elif p == 5:
        s = leet(w.lower()) + ch(PW_SYMS) + digs(2)
    elif p == 6:
        s = w.capitalize() + w2.capitalize() + digs(2) + ch("!?")
    elif p == 7:
        s = digs(2) + w.lower() + ch("!_-") + w2.lower()
    else:
        s = "-".join([rs(LO, 5), rs(LO, 5), rs(LO + DI, 5)])
    if len(s) < 8:
        s += digs(8 - len(s))
    return s


def wifi_pw(words):
    p = R.randrange(7)
    if p == 0:
        return rs(CLEAR, R.randint(8, 10))
    if p == 1:
        return "-".join(rs(LO + DI, 4) for _ in range(3))
    if p == 2:
        return digs(10)
    if p == 3:
        return rs(LO + DI, 12)
    if p == 4:
        return ch(words).lower() + ch(words).lower() + digs(R.randint(2, 4))
    return human_pw(words)


def ssid(words):
    return wpick([
        (2, f"VM{digs(7)}"), (2, f"TP-Link_{rs('0123456789ABCDEF', 4)}"),
        (2, f"FRITZ!Box 7590 {rs(UP, 2)}"), (2, f"Livebox-{rs('0123456789ABCDEF', 4)}"),
        (2, f"NETGEAR{digs(2)}"), (2, f"BT-{rs(UP, 6)}"), (2, f"HUAWEI-{rs(UP + DI, 4)}"),
        (2, f"Vodafone-{rs(UP + DI, 6)}"), (2, f"Xiaomi_{rs('0123456789ABCDEF', 4)}"),
        (3, ch(words).capitalize() + ch(["_5G", "-2.4", "_EXT", "", " Home", "Net"])),
    ])


FIRST = ["anna", "ben", "carlos", "diana", "eva", "farid", "gita", "hana", "ivan", "julia", "kofi",
         "lena", "marco", "nadia", "omar", "priya", "quinn", "rosa", "sami", "tomas", "uma", "viktor",
         "wen", "ximena", "yusuf", "zoe", "mei", "li", "aiko", "minh", "ayse", "olga", "sven", "kasia"]
LAST = ["smith", "garcia", "muller", "rossi", "silva", "jansen", "nowak", "novak", "kovacs", "popescu",
        "papadopoulos", "yilmaz", "ivanova", "shevchenko", "cohen", "ahmadi", "khan", "sharma", "das",
        "nguyen", "tan", "santos", "wanjiru", "tanaka", "kim", "chen", "wong", "berg", "virtanen", "hansen"]
MAIL_DOMAINS = ["gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com", "gmx.de", "web.de",
                "orange.fr", "libero.it", "mail.ru", "yandex.ru", "seznam.cz", "wp.pl", "uol.com.br",
                "naver.com", "qq.com", "163.com", "yahoo.co.jp", "proton.me", "btinternet.com", "ukr.net",
                "abv.bg", "rediffmail.com", "hotmail.es", "free.fr", "t-online.de", "daum.net"]


def email():
    f, l = ch(FIRST), ch(LAST)
    local = wpick([(3, f"{f}.{l}"), (2, f"{f}{l[0]}{digs(2)}"), (2, f"{f}_{l}{digs(2)}"),
                   (1, f"{l}.{f}{R.randint(60, 99)}"), (1, f"the{l}s"), (1, f"{f}{digs(4)}")])
    return f"{local}@{ch(MAIL_DOMAINS)}"


def username():
    return wpick([(2, ch(FIRST) + digs(3)), (2, ch(FIRST)[0] + ch(LAST) + digs(2)),
                  (1, ch(LAST).upper() + digs(5)), (1, ch(FIRST) + "_" + ch(LAST))])


SEEDWORDS = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident account "
    "accuse achieve acid acoustic acquire across act action actor actress actual adapt add addict "
    "address adjust admit adult advance advice aerobic affair afford afraid again age agent agree "
    "ahead aim air airport aisle alarm album alcohol alert alien all alley allow almost alone alpha "
    "already also alter always amateur amazing among amount amused analyst anchor ancient anger angle "
    "angry animal ankle announce annual another answer antenna antique anxiety apart apology appear "
    "apple approve april arch arctic area arena argue arm armed armor army around arrange arrest "
    "arrive arrow art artist artwork ask aspect assault asset assist assume asthma athlete atom "
    "attack attend attitude attract auction audit august aunt author auto autumn average avocado "
    "avoid awake aware away awesome awful awkward axis baby bachelor bacon badge bag balance balcony "
    "ball bamboo banana banner bar barely bargain barrel base basic basket battle beach bean beauty "
    "because become beef before begin behave behind believe below belt bench benefit best betray "
    "better between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket "
    "blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone "
    "bonus book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave "
    "bread breeze brick bridge brief bright bring brisk broccoli broken bronze broom brother brown "
    "brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst bus "
    "business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp canal "
    "cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet "
    "carry cart case cash casino castle casual cat catalog catch category cattle caught cause caution "
    "cave ceiling celery cement census century cereal certain chair chalk champion change chaos "
    "chapter charge chase chat cheap check cheese chef cherry chest chicken chief child chimney "
    "choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap "
    "clarify claw clay clean clerk clever click client cliff climb clinic clip clock clog close "
    "cloth cloud clown club clump cluster clutch coach coast coconut code coffee coil coin collect "
    "color column combine come comfort comic common company concert conduct confirm congress connect "
    "consider control convince cook cool copper copy coral core corn correct cost cotton couch "
    "country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl crazy "
    "cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise "
    "crumble crunch crush cry crystal cube culture cup cupboard curious current curtain curve cushion "
    "custom cute cycle dad damage damp dance danger daring dash daughter dawn day deal debate debris "
    "decade december decide decline decorate decrease deer defense define defy degree delay deliver "
    "demand demise denial dentist deny depart depend deposit depth deputy derive describe desert "
    "design desk despair destroy detail detect develop device devote diagram dial diamond diary dice "
    "diesel diet differ digital dignity dilemma dinner dinosaur direct dirt disagree discover disease "
    "dish dismiss disorder display distance divert divide divorce dizzy doctor document dog doll "
    "dolphin domain donate donkey donor door dose double dove draft dragon drama drastic draw dream "
    "dress drift drill drink drip drive drop drum dry duck dumb dune during dust dutch duty dwarf "
    "dynamic eager eagle early earn earth easily east easy echo ecology economy edge edit educate "
    "effort egg eight either elbow elder electric elegant element elephant elevator elite else embark "
    "embody embrace emerge emotion employ empower empty enable enact end endless endorse enemy energy "
    "enforce engage engine enhance enjoy enlist enough enrich enroll ensure enter entire entry "
    "envelope episode equal equip era erase erode erosion error erupt escape essay essence estate "
    "eternal ethics evidence evil evoke evolve exact example excess exchange excite exclude excuse "
    "execute exercise exhaust exhibit exile exist exit exotic expand expect expire explain expose "
    "express extend extra eye eyebrow fabric face faculty fade faint faith fall false fame family "
    "famous fan fancy fantasy farm fashion fat fatal father fatigue fault favorite feature february "
    "federal fee feed feel female fence festival fetch fever few fiber fiction field figure file "
    "film filter final find fine finger finish fire firm first fiscal fish fit fitness fix flag "
    "flame flash flat flavor flee flight flip float flock floor flower fluid flush fly foam focus "
    "fog foil fold follow food foot force forest forget fork fortune forum forward fossil foster "
    "found fox fragile frame frequent fresh friend fringe frog front frost frown frozen fruit fuel "
    "fun funny furnace fury future gadget gain galaxy gallery game gap garage garbage garden garlic "
    "garment gas gasp gate gather gauge gaze general genius genre gentle genuine gesture ghost giant "
    "gift giggle ginger giraffe girl give glad glance glare glass glide glimpse globe gloom glory "
    "glove glow glue goat goddess gold good goose gorilla gospel gossip govern gown grab grace grain "
    "grant grape grass gravity great green grid grief grit grocery group grow grunt guard guess guide "
    "guilt guitar gun gym habit hair half hammer hamster hand happy harbor hard harsh harvest hat "
    "have hawk hazard head health heart heavy hedgehog height hello helmet help hen hero hidden high "
    "hill hint hip hire history hobby hockey hold hole holiday hollow home honey hood hope horn "
    "horror horse hospital host hotel hour hover hub huge human humble humor hundred hungry hunt "
    "hurdle hurry hurt husband hybrid ice icon idea identify idle ignore ill illegal illness image "
    "imitate immense immune impact impose improve impulse inch include income increase index "
    "indicate indoor industry infant inflict inform inhale inherit initial inject injury inmate "
    "inner innocent input inquiry insane insect inside inspire install intact interest into invest "
    "invite involve iron island isolate issue item ivory jacket jaguar jar jazz jealous jeans jelly "
    "jewel job join joke journey joy judge juice jump jungle junior junk just kangaroo keen keep "
    "ketchup key kick kid kidney kind kingdom kiss kit kitchen kite kitten kiwi knee knife knock "
    "know lab label labor ladder lady lake lamp language laptop large later latin laugh laundry lava "
    "law lawn lawsuit layer lazy leader leaf learn leave lecture left leg legal legend leisure lemon "
    "lend length lens leopard lesson letter level liar liberty library license life lift light like "
    "limb limit link lion liquid list little live lizard load loan lobster local lock logic lonely "
    "long loop lottery loud lounge love loyal lucky luggage lumber lunar lunch luxury lyrics machine "
    "mad magic magnet maid mail main major make mammal man manage mandate mango mansion manual maple "
    "marble march margin marine market marriage mask mass master match material math matrix matter "
    "maximum maze meadow mean measure meat mechanic medal media melody melt member memory mention "
    "menu mercy merge merit merry mesh message metal method middle midnight milk million mimic mind "
    "minimum minor minute miracle mirror misery miss mistake mix mixed mixture mobile model modify "
    "mom moment monitor monkey monster month moon moral more morning mosquito mother motion motor "
    "mountain mouse move movie much muffin mule multiply muscle museum mushroom music must mutual "
    "myself mystery myth naive name napkin narrow nasty nation nature near neck need negative neglect "
    "neither nephew nerve nest net network neutral never news next nice night noble noise nominee "
    "noodle normal north nose notable note nothing notice novel now nuclear number nurse nut oak "
    "obey object oblige obscure observe obtain obvious occur ocean october odor off offer office "
    "often oil okay old olive olympic omit once one onion online only open opera opinion oppose "
    "option orange orbit orchard order ordinary organ orient original orphan ostrich other outdoor "
    "outer output outside oval oven over own owner oxygen oyster ozone pact paddle page pair palace "
    "palm panda panel panic panther paper parade parent park parrot party pass patch path patient "
    "patrol pattern pause pave payment peace peanut pear peasant pelican pen penalty pencil people "
    "pepper perfect permit person pet phone photo phrase physical piano picnic picture piece pig "
    "pigeon pill pilot pink pioneer pipe pistol pitch pizza place planet plastic plate play please "
    "pledge pluck plug plunge poem poet point polar pole police pond pony pool popular portion "
    "position possible post potato pottery poverty powder power practice praise predict prefer "
    "prepare present pretty prevent price pride primary print priority prison private prize problem "
    "process produce profit program project promote proof property prosper protect proud provide "
    "public pudding pull pulp pulse pumpkin punch pupil puppy purchase purity purpose purse push put "
    "puzzle pyramid quality quantum quarter question quick quit quiz quote rabbit raccoon race rack "
    "radar radio rail rain raise rally ramp ranch random range rapid rare rate rather raven raw "
    "razor ready real reason rebel rebuild recall receive recipe record recycle reduce reflect "
    "reform refuse region regret regular reject relax release relief rely remain remember remind "
    "remove render renew rent reopen repair repeat replace report require rescue resemble resist "
    "resource response result retire retreat return reunion reveal review reward rhythm rib ribbon "
    "rice rich ride ridge rifle right rigid ring riot ripple risk ritual rival river road roast "
    "robot robust rocket romance roof rookie room rose rotate rough round route royal rubber rude "
    "rug rule run runway rural sad saddle sadness safe sail salad salmon salon salt salute same "
    "sample sand satisfy satoshi sauce sausage save say scale scan scare scatter scene scheme school "
    "science scissors scorpion scout scrap screen script scrub sea search season seat second secret "
    "section security seed seek segment select sell seminar senior sense sentence series service "
    "session settle setup seven shadow shaft shallow share shed shell sheriff shield shift shine ship "
    "shiver shock shoe shoot shop short shoulder shove shrimp shrug shuffle shy sibling sick side "
    "siege sight sign silent silk silly silver similar simple since sing siren sister situate six "
    "size skate sketch ski skill skin skirt skull slab slam sleep slender slice slide slight slim "
    "slogan slot slow slush small smart smile smoke smooth snack snake snap sniff snow soap soccer "
    "social sock soda soft solar soldier solid solution solve someone song soon sorry sort soul "
    "sound soup source south space spare spatial spawn speak special speed spell spend sphere spice "
    "spider spike spin spirit split spoil sponsor spoon sport spot spray spread spring spy square "
    "squeeze squirrel stable stadium staff stage stairs stamp stand start state stay steak steel "
    "stem step stereo stick still sting stock stomach stone stool story stove strategy street strike "
    "strong struggle student stuff stumble style subject submit subway success such sudden suffer "
    "sugar suggest suit summer sun sunny sunset super supply supreme sure surface surge surprise "
    "surround survey suspect sustain swallow swamp swap swarm swear sweet swift swim swing switch "
    "sword symbol symptom syrup system table tackle tag tail talent talk tank tape target task taste "
    "tattoo taxi teach team tell ten tenant tennis tent term test text thank that theme then theory "
    "there they thing this thought three thrive throw thumb thunder ticket tide tiger tilt timber "
    "time tiny tip tired tissue title toast tobacco today toddler toe together toilet token tomato "
    "tomorrow tone tongue tonight tool tooth top topic topple torch tornado tortoise toss total "
    "tourist toward tower town toy track trade traffic tragic train transfer trap trash travel tray "
    "treat tree trend trial tribe trick trigger trim trip trophy trouble truck true truly trumpet "
    "trust truth try tube tuition tumble tuna tunnel turkey turn turtle twelve twenty twice twin "
    "twist two type typical ugly umbrella unable unaware uncle uncover under undo unfair unfold "
    "unhappy uniform unique unit universe unknown unlock until unusual unveil update upgrade uphold "
    "upon upper upset urban urge usage use used useful useless usual utility vacant vacuum vague "
    "valid valley valve van vanish vapor various vast vault vehicle velvet vendor venture venue verb "
    "verify version very vessel veteran viable vibrant vicious victory video view village vintage "
    "violin virtual virus visa visit visual vital vivid vocal voice void volcano volume vote voyage "
    "wage wagon wait walk wall walnut want warfare warm warrior wash wasp waste water wave way "
    "wealth weapon wear weasel weather web wedding weekend weird welcome west wet whale what wheat "
    "wheel when where whip whisper wide width wife wild will win window wine wing wink winner winter "
    "wire wisdom wise wish witness wolf woman wonder wood wool word work world worry worth wrap "
    "wreck wrestle wrist write wrong yard year yellow you young youth zebra zero zone zoo"
).split()


def seed_phrase(n=12):
    return " ".join(ch(SEEDWORDS) for _ in range(n))


def totp_seed(n=None):
    return rs(B32, n or ch([16, 16, 32, 32, 26]))


def spaced4(s):
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def wif_key():
    return ch(["5H", "5J", "5K"]) + rs(B58, 49) if chance(0.4) else ch("KL") + rs(B58, 51)


def backup_codes(k=None):
    k = k or ch([8, 10, 10, 16])
    style = R.randrange(3)
    out = []
    for _ in range(k):
        if style == 0:
            out.append(digs(4) + " " + digs(4))
        elif style == 1:
            out.append(rs(LO + DI, 4) + "-" + rs(LO + DI, 4))
        else:
            out.append(digs(8))
    return out


def gift_code(kind):
    if kind == "amazon":
        return f"{rs(CLEAR, 4)}-{rs(CLEAR, 6)}-{rs(CLEAR, 4)}"
    if kind == "steam":
        return "-".join(rs(CLEAR, 5) for _ in range(3))
    if kind == "play":
        return " ".join(rs(CLEAR, 4) for _ in range(5))
    if kind == "apple":
        return "X" + rs(CLEAR, 15)
    if kind == "psn":
        return "-".join(rs(CLEAR, 4) for _ in range(3))
    return "-".join(rs(CLEAR, 4) for _ in range(4))


def zoom_id():
    d = digs(ch([10, 11]), nz=True)
    return f"{d[:3]} {d[3:7]} {d[7:]}" if len(d) == 11 else f"{d[:3]} {d[3:6]} {d[6:]}"


def meeting_pass():
    return wpick([(2, rs(AL, 6)), (2, digs(6)), (1, rs(AL, 8))])


PETS = ["Biscuit", "Mochi", "Rex", "Luna", "Whiskers", "Bella", "Simba", "Coco", "Pepper", "Nala",
        "Oscar", "Milo", "Toby", "Ginger", "Loki", "Pixel", "Muffin", "Zeus", "Kiki", "Bruno"]
SURNAMES = ["Kowalczyk", "O'Leary", "Fitzgerald", "Haddad", "Abernathy", "Nakamura", "Okonkwo",
            "Lindqvist", "Ferreira", "Delacroix", "Vasquez", "Thornbury", "McAllister", "Petrenko",
            "Brennan", "Achterberg", "Castellano", "Whitcombe", "Rahman", "Oyelaran"]
MEMWORDS = ["marmalade", "lighthouse", "pinecone", "tangerine", "snowdrop", "harbour", "velvet",
            "cobblestone", "buttercup", "teapot", "windmill", "kingfisher", "paperclip", "bluebell"]
SCHOOLS = ["St Mary's", "Hillcrest Primary", "Oakwood", "Riverside Junior", "Greenfield",
           "St Joseph's", "Kingsmead", "Holy Trinity"]


# ---------------------------------------------------------------- vendor tokens
def _uuid():
    h = rs(HX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{ch('89ab')}{h[17:20]}-{h[20:]}"


def _b64url(n):
    return rs(URLSAFE, n)


def _jwt(payload_len=None):
    head = base64.urlsafe_b64encode(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()).decode().rstrip("=")
    body = base64.urlsafe_b64encode(json.dumps(
        {"sub": digs(8), "role": ch(["service_role", "admin", "api"]), "iat": 1700000000 + R.randint(0, 9 ** 7)},
        separators=(",", ":")).encode()).decode().rstrip("=")
    return f"{head}.{body}.{_b64url(43)}"


def _pem(kind="RSA PRIVATE KEY", lines=6):
    body = "\n".join(rs(B64C, 64) for _ in range(lines))
    lead = {"RSA PRIVATE KEY": "MIIEow", "PRIVATE KEY": "MIIEvQ", "EC PRIVATE KEY": "MHcCAQ",
            "OPENSSH PRIVATE KEY": "b3BlbnNzaC1rZXktdjEAAAAA"}[kind]
    return f"-----BEGIN {kind}-----\n{lead}{body[len(lead):]}\n-----END {kind}-----"


def _host():
    return ch(["db", "pg", "prod-db", "orders", "main", "analytics"]) + "." + rs(LO + DI, 6) + "." + ch(
        ["eu-west-1.rds.amazonaws.com", "internal", "neon.tech", "supabase.co", "render.com"])


# each: (vendor, category, env var, function -> (token_text, extra_fields))
def v_aws():
    ak = "AKIA" + rs(B32.replace("1", ""), 16)
    sk = rs(AL + "/+", 40)
    return f"aws_access_key_id = {ak}\naws_secret_access_key = {sk}", [("aws_access_key_id", ak), ("aws_secret_access_key", sk)]


VENDORS = [
    ("AWS", "cloud", "AWS_SECRET_ACCESS_KEY", v_aws),
    ("Azure Storage", "cloud", "AZURE_STORAGE_CONNECTION_STRING", lambda: (
        f"DefaultEndpointsProtocol=https;AccountName={rs(LO, 8)}{digs(2)};AccountKey={rs(B64C, 86)}==;EndpointSuffix=core.windows.net", None)),
    ("DigitalOcean", "cloud", "DIGITALOCEAN_TOKEN", lambda: ("dop_v1_" + rs(HX, 64), None)),
    ("Alibaba Cloud", "cloud", "ALIBABA_CLOUD_ACCESS_KEY_SECRET", lambda: (
        f"AccessKeyId: LTAI{rs(AL, 20)}\nAccessKeySecret: {rs(AL, 30)}", None)),
    ("Tencent Cloud", "cloud", "TENCENTCLOUD_SECRET_KEY", lambda: (
        f"SecretId: AKID{rs(AL, 32)}\nSecretKey: {rs(AL, 32)}", None)),
    ("Cloudflare", "cloud", "CLOUDFLARE_API_TOKEN", lambda: (rs(AL + "_-", 40), None)),
    ("Heroku", "cloud", "HEROKU_API_KEY", lambda: (_uuid(), None)),
    ("Linode", "cloud", "LINODE_TOKEN", lambda: (rs(HX, 64), None)),
    ("GitHub", "vcs", "GITHUB_TOKEN", lambda: ("ghp_" + rs(AL, 36), None)),
    ("GitHub", "vcs", "GH_PAT", lambda: ("github_pat_" + rs(AL, 22) + "_" + rs(AL, 59), None)),
    ("GitLab", "vcs", "GITLAB_TOKEN", lambda: ("glpat-" + rs(AL + "_-", 20), None)),
    ("Bitbucket", "vcs", "BITBUCKET_APP_PASSWORD", lambda: ("ATBB" + rs(AL, 32) + rs("0123456789ABCDEF", 8), None)),
    ("Stripe", "payments", "STRIPE_SECRET_KEY", lambda: ("sk_live_" + rs(AL, ch([24, 99])), None)),
    ("Stripe", "payments", "STRIPE_WEBHOOK_SECRET", lambda: ("whsec_" + rs(AL, 32), None)),
    ("Razorpay", "payments", "RAZORPAY_KEY_SECRET", lambda: (
        f"key_id: rzp_live_{rs(AL, 14)}\nkey_secret: {rs(AL, 24)}", None)),
    ("Paystack", "payments", "PAYSTACK_SECRET_KEY", lambda: ("sk_live_" + rs(HX, 40), None)),
    ("Flutterwave", "payments", "FLW_SECRET_KEY", lambda: ("FLWSECK-" + rs(HX, 32) + "-X", None)),
    ("Square", "payments", "SQUARE_ACCESS_TOKEN", lambda: ("EAAA" + rs(AL + "-_", 60), None)),
    ("Braintree", "payments", "BRAINTREE_ACCESS_TOKEN", lambda: (
        f"access_token$production${rs(LO + DI, 16)}${rs(HX, 32)}", None)),
    ("PayPal", "payments", "PAYPAL_CLIENT_SECRET", lambda: ("E" + rs(AL + "-_", 79), None)),
    ("OpenAI", "ai", "OPENAI_API_KEY", lambda: ("sk-proj-" + rs(AL + "_-", ch([48, 64, 120])), None)),
    ("Anthropic", "ai", "ANTHROPIC_API_KEY", lambda: ("sk-ant-api03-" + rs(AL + "_-", 93) + "AA", None)),
    ("Hugging Face", "ai", "HF_TOKEN", lambda: ("hf_" + rs(AL, 34), None)),
    ("Replicate", "ai", "REPLICATE_API_TOKEN", lambda: ("r8_" + rs(AL, 37), None)),
    ("Groq", "ai", "GROQ_API_KEY", lambda: ("gsk_" + rs(AL, 52), None)),
    ("Cohere", "ai", "COHERE_API_KEY", lambda: (rs(AL, 40), None)),
    ("Slack", "messaging", "SLACK_BOT_TOKEN", lambda: (
        f"xoxb-{digs(12, True)}-{digs(13, True)}-{rs(AL, 24)}", None)),
    ("Slack", "messaging", "SLACK_WEBHOOK_URL", lambda: (
        f"https://hooks.slack.com/services/T{rs(UP + DI, 8)}/B{rs(UP + DI, 10)}/{rs(AL, 24)}", None)),
    ("Discord", "messaging", "DISCORD_BOT_TOKEN", lambda: (
        base64.b64encode(digs(18, True).encode()).decode().rstrip("=") + "." + rs(AL + "-_", 6) + "." + rs(AL + "-_", 38), None)),
    ("Discord", "messaging", "DISCORD_WEBHOOK", lambda: (
        f"https://discord.com/api/webhooks/{digs(19, True)}/{rs(AL + '-_', 68)}", None)),
    ("Telegram", "messaging", "TELEGRAM_BOT_TOKEN", lambda: (f"{digs(10, True)}:AA{rs(AL + '_-', 33)}", None)),
    ("Twilio", "messaging", "TWILIO_AUTH_TOKEN", lambda: (
        f"Account SID: AC{rs(HX, 32)}\nAuth Token: {rs(HX, 32)}", None)),
    ("LINE", "messaging", "LINE_CHANNEL_SECRET", lambda: (rs(HX, 32), None)),
    ("SendGrid", "email", "SENDGRID_API_KEY", lambda: (f"SG.{rs(AL + '_-', 22)}.{rs(AL + '_-', 43)}", None)),
    ("Mailgun", "email", "MAILGUN_API_KEY", lambda: ("key-" + rs(HX, 32), None)),
    ("Mailchimp", "email", "MAILCHIMP_API_KEY", lambda: (rs(HX, 32) + "-us" + str(R.randint(1, 21)), None)),
    ("Postmark", "email", "POSTMARK_SERVER_TOKEN", lambda: (_uuid(), None)),
    ("Brevo", "email", "BREVO_API_KEY", lambda: ("xkeysib-" + rs(HX, 64) + "-" + rs(AL, 16), None)),
    ("PostgreSQL", "database", "DATABASE_URL", lambda: (
        f"postgres://{ch(['app', 'admin', 'orders_rw', 'postgres'])}:{rs(AL, ch([16, 20, 24]))}@{_host()}:5432/{ch(['app', 'prod', 'shop'])}", None)),
    ("MongoDB Atlas", "database", "MONGODB_URI", lambda: (
        f"mongodb+srv://{ch(['admin', 'svc', 'reader'])}:{rs(AL, 16)}@cluster0.{rs(LO + DI, 5)}.mongodb.net/?retryWrites=true", None)),
    ("Redis", "database", "REDIS_URL", lambda: (
        f"redis://default:{rs(AL, 32)}@{rs(LO, 6)}-{digs(5)}.c{digs(3)}.{ch(['eu-west-1', 'us-east-1'])}-1.ec2.cloud.redislabs.com:{digs(5)}", None)),
    ("Supabase", "database", "SUPABASE_SERVICE_ROLE_KEY", lambda: (_jwt(), None)),
    ("PlanetScale", "database", "PLANETSCALE_PASSWORD", lambda: ("pscale_pw_" + rs(AL + "_-", 43), None)),
    ("Datadog", "monitoring", "DD_API_KEY", lambda: (f"DD_API_KEY={rs(HX, 32)}\nDD_APP_KEY={rs(HX, 40)}", None)),
    ("New Relic", "monitoring", "NEW_RELIC_API_KEY", lambda: ("NRAK-" + rs(UP + DI, 27), None)),
    ("Grafana", "monitoring", "GRAFANA_SERVICE_ACCOUNT_TOKEN", lambda: ("glsa_" + rs(AL, 32) + "_" + rs(HX, 8), None)),
    ("Sentry", "monitoring", "SENTRY_AUTH_TOKEN", lambda: ("sntryu_" + rs(HX, 64), None)),
    ("npm", "registry", "NPM_TOKEN", lambda: ("npm_" + rs(AL, 36), None)),
    ("PyPI", "registry", "PYPI_TOKEN", lambda: ("pypi-AgEIcHlwaS5vcmc" + rs(AL + "-_", 120), None)),
    ("Docker Hub", "registry", "DOCKERHUB_TOKEN", lambda: ("dckr_pat_" + rs(AL + "-_", 27), None)),
    ("RubyGems", "registry", "GEM_HOST_API_KEY", lambda: ("rubygems_" + rs(HX, 48), None)),
    ("Atlassian", "devtools", "JIRA_API_TOKEN", lambda: ("ATATT3xFfGF0" + rs(AL + "-_", 170) + "=" + rs("0123456789ABCDEF", 8), None)),
    ("Linear", "devtools", "LINEAR_API_KEY", lambda: ("lin_api_" + rs(AL, 40), None)),
    ("Notion", "devtools", "NOTION_TOKEN", lambda: ("ntn_" + digs(11) + rs(AL, 35), None)),
    ("Figma", "devtools", "FIGMA_TOKEN", lambda: ("figd_" + rs(AL + "-_", 40), None)),
    ("Airtable", "devtools", "AIRTABLE_PAT", lambda: ("pat" + rs(AL, 14) + "." + rs(HX, 64), None)),
    ("Postman", "devtools", "POSTMAN_API_KEY", lambda: ("PMAK-" + rs(HX, 24) + "-" + rs(HX, 34), None)),
    ("Doppler", "devtools", "DOPPLER_TOKEN", lambda: ("dp.st.prd." + rs(AL, 40), None)),
    ("Shopify", "devtools", "SHOPIFY_ACCESS_TOKEN", lambda: ("shpat_" + rs(HX, 32), None)),
    ("HubSpot", "devtools", "HUBSPOT_TOKEN", lambda: ("pat-na1-" + _uuid(), None)),
    ("X / Twitter", "social", "TWITTER_BEARER_TOKEN", lambda: ("AAAAAAAAAAAAAAAAAAAAA" + rs(AL + "%", 90), None)),
    ("Facebook", "social", "FB_APP_SECRET", lambda: (f"app_id: {digs(15, True)}\napp_secret: {rs(HX, 32)}", None)),
    ("Kakao", "social", "KAKAO_REST_API_KEY", lambda: (rs(HX, 32), None)),
    ("Naver", "social", "NAVER_CLIENT_SECRET", lambda: (f"Client ID: {rs(AL, 20)}\nClient Secret: {rs(AL, 10)}", None)),
    ("Google Maps", "maps", "GOOGLE_MAPS_API_KEY", lambda: ("AIza" + rs(AL + "-_", 35), None)),
    ("Mapbox", "maps", "MAPBOX_SECRET_TOKEN", lambda: (
        "sk.eyJ1Ijoi" + rs(AL, 20) + "IiwiYSI6Ij" + rs(AL, 20) + "In0." + rs(AL + "-_", 22), None)),
    ("Google OAuth", "auth", "GOOGLE_CLIENT_SECRET", lambda: ("GOCSPX-" + rs(AL + "-_", 28), None)),
    ("Okta", "auth", "OKTA_API_TOKEN", lambda: ("00" + rs(AL + "-_", 40), None)),
    ("Auth0", "auth", "AUTH0_CLIENT_SECRET", lambda: (rs(AL + "-_", 64), None)),
    ("JWT", "auth", "JWT_SECRET", lambda: (rs(AL, 48), None)),
    ("SSH", "private-key", "DEPLOY_KEY", lambda: (_pem("OPENSSH PRIVATE KEY", 7), None)),
    ("TLS", "private-key", "TLS_KEY", lambda: (_pem(ch(["RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY"]), 5), None)),
    ("Google Cloud", "private-key", "GOOGLE_APPLICATION_CREDENTIALS", None),  # special json
    ("Algolia", "search", "ALGOLIA_ADMIN_KEY", lambda: (rs(HX, 32), None)),
    ("Dropbox", "storage", "DROPBOX_TOKEN", lambda: ("sl." + rs(AL + "-_", 130), None)),
]


def vendor_token(idx):
    name, cat, env, fn = VENDORS[idx]
    if fn is None:  # GCP service-account json
        proj = ch(["shop", "maps", "family-photos", "ml-lab", "billing"]) + "-" + digs(6)
        obj = {"type": "service_account", "project_id": proj, "private_key_id": rs(HX, 40),
               "private_key": _pem("PRIVATE KEY", 4) + "\n",
               "client_email": f"{ch(['deploy', 'ci', 'backup'])}@{proj}.iam.gserviceaccount.com"}
        return name, cat, env, json.dumps(obj), list(obj.items())
    tok, fields = fn()
    return name, cat, env, tok, fields


# ---------------------------------------------------------------- languages
# L  : labels of the 8 core personal-secret kinds      X : extra local kinds
# S  : secret line templates ({k} label, {v} value, {n1} a person)
# B  : ordinary benign notes (topic, template)          H : homonyms (family, template)
# T  : talk about credentials without any value        BL: non-credential number labels
# D  : spoken digits 0-9                                 nd: native digit zero code point
K8 = ["card-pin", "phone-pin", "door-code", "alarm-code", "wifi-password", "email-password", "safe-code", "gate-code"]


def _L(*labels):
    return dict(zip(K8, labels))


def _BL(phone, room, order, flight, passport):
    return {"phone": phone, "room": room, "order": order, "flight": flight, "passport": passport}


LANGS = {
    "es": dict(
        name="Spanish", cc="34", df="slash", card="tarjeta",
        L=_L("PIN de la tarjeta", "PIN del móvil", "código del portal", "código de la alarma",
             "clave del wifi", "contraseña del correo", "combinación de la caja fuerte", "código de la cancela"),
        X={"garage-code": "código del garaje", "bike-lock": "candado de la bici", "app-pin": "PIN de Bizum"},
        S=["{k}: {v}", "Apunta — {k} {v} 😉", "Que no se me olvide: {k} = {v}", "{n1} dice que {k} es {v}, no se lo pases a nadie",
           "ojo!! {k} nuevo: {v}"],
        B=[("appointment", "Cita con la dentista el {d} a las {t}"), ("shopping", "Comprar: leche, pan, {n} huevos y tomates"),
           ("travel", "Vuelo a Sevilla el {d}, embarque {t}"), ("health", "La niña tiene 38,{dig} de fiebre, dalsy cada 8 horas"),
           ("recipe", "Tortilla: {n} huevos, 3 patatas, media cebolla"), ("finance", "Pagar la luz antes del {d}: {p} €"),
           ("school", "Reunión de padres en el cole el {d} a las {t}"), ("pets", "Vacuna del perro el {d}, llevar la cartilla")],
        H=[("dress-code", "Código de vestimenta para la boda: traje oscuro"), ("postal-code", "Código postal de la abuela: {zip}"),
           ("secret-santa", "Amigo invisible del trabajo: me tocó Lucía, máximo {p} €"), ("recipe-secret", "El secreto del gazpacho de mamá: pan del día anterior")],
        T=["He cambiado la contraseña del wifi, luego te la paso", "Nunca compartas tu PIN con nadie, ni con el banco",
           "El código nuevo del portal lo mandan el lunes"],
        BL=_BL("teléfono", "habitación", "n.º de pedido", "vuelo", "pasaporte"),
        D="cero uno dos tres cuatro cinco seis siete ocho nueve", names=["Mamá", "Papá", "la tía Carmen"],
        PWW=["girasol", "Luna", "sevilla", "tortuga", "pepito", "Barça"], rev="al revés",
        VP=["te paso la key de {svc}:", "clave de producción de {svc}, no la subas al repo:"],
        VB=["el hash del commit de la release:", "referencia del pedido en {svc}:"]),
    "fr": dict(
        name="French", cc="33", df="slash", card="carte",
        L=_L("code de la carte bleue", "code du portable", "digicode", "code de l'alarme",
             "mot de passe wifi", "mdp de la boîte mail", "code du coffre", "code du portail"),
        X={"garage-code": "code du garage", "locker-code": "code du casier", "parcel-locker": "code du casier colis"},
        S=["{k} : {v}", "Ne pas oublier → {k} {v}", "{k} = {v} (c'est {n1} qui me l'a donné)", "psst {k} c'est {v} 🤫",
           "nouveau {k} : {v}"],
        B=[("appointment", "RDV chez le médecin le {d} à {t}"), ("shopping", "Acheter : lait, pain, {n} œufs, beurre"),
           ("travel", "Train pour Lyon le {d}, voiture {n}, place {n3}"), ("health", "Le petit a 38,{dig} de fièvre, Doliprane toutes les 6 h"),
           ("recipe", "Quiche : 3 œufs, 20 cl de crème, {n}00 g de lardons"), ("finance", "Payer la cantine avant le {d} : {p} €"),
           ("pets", "Vaccin du chat le {d} à {t}"), ("school", "Réunion parents-profs le {d} à {t}")],
        H=[("dress-code", "Dress code pour le mariage : chic décontracté"), ("postal-code", "Code postal de mamie : {zip}"),
           ("driving-code", "Examen du code de la route le {d} à {t}"), ("secret-santa", "Père Noël secret au bureau : budget {p} €")],
        T=["J'ai changé le mot de passe du wifi, je te le donne ce soir", "Ne jamais donner son code de carte, même à la banque",
           "Le nouveau digicode arrive lundi"],
        BL=_BL("tél", "chambre", "commande n°", "vol", "passeport"),
        D="zéro un deux trois quatre cinq six sept huit neuf", names=["Maman", "Papa", "Tatie Sylvie"],
        PWW=["soleil", "chouchou", "marseille", "loulou", "doudou", "Minette"], rev="à l'envers",
        VP=["voici la clé API {svc} :", "la clé de prod {svc}, ne la commite pas :"],
        VB=["le hash du commit de la release :", "référence de commande {svc} :"]),
    "de": dict(
        name="German", cc="49", df="dot", card="Karte",
        L=_L("PIN der EC-Karte", "Handy-PIN", "Türcode", "Alarmanlagen-Code",
             "WLAN-Passwort", "Mail-Passwort", "Tresorcode", "Code fürs Hoftor"),
        X={"garage-code": "Garagencode", "locker-code": "Spindcode", "parcel-locker": "Abholcode Packstation",
           "keybox-code": "Schlüsselkasten-Code", "sim-puk": "PUK"},
        S=["{k}: {v}", "Nicht vergessen!! {k} {v}", "{k} lautet {v} – von {n1}", "neuer {k} → {v} 👍", "{k}={v}"],
        B=[("appointment", "Zahnarzt am {d} um {t} Uhr"), ("shopping", "Einkaufen: Milch, Brot, {n} Eier, Butter"),
           ("travel", "Zug nach Hamburg {d}, Wagen {n}, Platz {n3}"), ("health", "Fieber 38,{dig} – Ibuprofen alle 8 Std."),
           ("recipe", "Kuchen: 200 g Mehl, {n} Eier, 100 g Zucker"), ("finance", "Miete überweisen bis {d}: {p} €"),
           ("school", "Elternabend am {d} um {t}"), ("pets", "Tierarzt mit Bello am {d}, Impfpass mitnehmen")],
        H=[("dress-code", "Dresscode für die Feier: festlich"), ("postal-code", "Postleitzahl von Oma: {zip}"),
           ("rolling-pin", "Nudelholz liegt in der zweiten Schublade"), ("secret-santa", "Wichteln im Büro: Budget {p} €")],
        T=["Hab das WLAN-Passwort geändert, schick's dir später", "Niemals die PIN weitergeben, auch nicht am Telefon",
           "Der neue Türcode kommt am Montag"],
        BL=_BL("Tel.", "Zimmer", "Bestellnr.", "Flug", "Reisepass"),
        D="null eins zwei drei vier fünf sechs sieben acht neun", names=["Mama", "Papa", "Oma"],
        PWW=["Sonnenblume", "Schatz", "Hamburg", "Mausi", "Fußball", "Bello"], rev="rückwärts",
        VP=["hier der API-Key für {svc}:", "Prod-Key für {svc}, bitte nicht ins Repo:"],
        VB=["Commit-Hash vom Release:", "Bestellreferenz bei {svc}:"]),
    "it": dict(
        name="Italian", cc="39", df="slash", card="carta",
        L=_L("PIN del bancomat", "PIN del cellulare", "codice del portone", "codice dell'allarme",
             "password del wifi", "password della mail", "combinazione della cassaforte", "codice del cancello"),
        X={"garage-code": "codice del garage", "app-pin": "PIN dell'app della banca"},
        S=["{k}: {v}", "Non dimenticare: {k} {v}", "{k} → {v} (me l'ha detto {n1})", "occhio, {k} nuovo: {v}"],
        B=[("appointment", "Dentista il {d} alle {t}"), ("shopping", "Comprare: latte, pane, {n} uova, pomodori"),
           ("travel", "Treno per Roma il {d}, carrozza {n}, posto {n3}"), ("health", "Febbre 38,{dig}, tachipirina ogni 6 ore"),
           ("recipe", "Carbonara: {n}00 g di spaghetti, 4 tuorli, guanciale"), ("finance", "Pagare la bolletta entro il {d}: {p} €")],
        H=[("dress-code", "Dress code per il matrimonio: elegante"), ("postal-code", "CAP della nonna: {zip}"),
           ("rolling-pin", "Mattarello nel secondo cassetto"), ("secret-santa", "Babbo Natale segreto in ufficio: budget {p} €")],
        T=["Ho cambiato la password del wifi, te la mando dopo", "Mai dare il PIN a nessuno, nemmeno alla banca",
           "Il nuovo codice del portone arriva lunedì"],
        BL=_BL("tel.", "camera", "ordine n.", "volo", "passaporto"),
        D="zero uno due tre quattro cinque sei sette otto nove", names=["Mamma", "Papà", "zia Rosa"],
        PWW=["girasole", "Juventus", "amore", "napoli", "Bimba", "tesoro"], rev="al contrario",
        VP=["ecco la chiave API di {svc}:"], VB=["hash del commit della release:"]),
    "pt": dict(
        name="Portuguese (BR)", cc="55", df="slash", card="cartão",
        L=_L("senha do cartão", "PIN do celular", "código da porta", "senha do alarme",
             "senha do wi-fi", "senha do e-mail", "senha do cofre", "senha do portão"),
        X={"app-pin": "senha do app do banco", "payment-pin": "senha de transação do app"},
        S=["{k}: {v}", "Não esquecer: {k} {v}", "{k} é {v}, foi {n1} que passou", "anota aí → {k} {v} 😅"],
        B=[("appointment", "Consulta no dentista dia {d} às {t}"), ("shopping", "Comprar: leite, pão, {n} ovos, banana"),
           ("travel", "Voo para Recife dia {d}, portão {n}"), ("health", "Febre 38,{dig}, dipirona de 6 em 6 horas"),
           ("recipe", "Bolo de cenoura: 3 cenouras, {n} ovos, 2 xícaras de farinha"), ("finance", "Pagar o boleto do condomínio até {d}: R$ {p}")],
        H=[("dress-code", "Dress code do casamento: esporte fino"), ("postal-code", "CEP da vó: {cep}"),
           ("secret-santa", "Amigo secreto da firma: valor até R$ {p}"), ("rolling-pin", "Rolo de massa na segunda gaveta")],
        T=["Troquei a senha do wi-fi, depois te mando", "Nunca passe a senha do cartão para ninguém",
           "A nova senha do portão sai segunda"],
        BL=_BL("tel", "quarto", "pedido nº", "voo", "passaporte"),
        D="zero um dois três quatro cinco seis sete oito nove", names=["a mãe", "o pai", "a tia Cida"],
        PWW=["flamengo", "Saudade", "brasil", "mozao", "Pitoco", "corinthians"], rev="de trás pra frente",
        VP=["segue a chave da API do {svc}:", "chave de produção do {svc}, não sobe pro git:"],
        VB=["hash do commit da versão:"]),
    "nl": dict(
        name="Dutch", cc="31", df="dash", card="pas",
        L=_L("pincode bankpas", "pincode telefoon", "deurcode", "alarmcode",
             "wifi-wachtwoord", "wachtwoord mail", "kluiscode", "code van het hek"),
        X={"bike-lock": "code fietsslot", "app-pin": "pincode bank-app"},
        S=["{k}: {v}", "Niet vergeten: {k} {v}", "{k} is {v} (van {n1})", "nieuwe {k} → {v}"],
        B=[("appointment", "Tandarts op {d} om {t}"), ("shopping", "Boodschappen: melk, brood, {n} eieren, kaas"),
           ("travel", "Trein naar Utrecht {d} om {t}"), ("health", "Koorts 38,{dig}, paracetamol om de 6 uur"),
           ("recipe", "Stamppot: 1 kg aardappels, {n}00 g boerenkool, rookworst"), ("finance", "Huur overmaken voor {d}: € {p}")],
        H=[("dress-code", "Dresscode voor het feest: smart casual"), ("postal-code", "Postcode van oma: {nlzip}"),
           ("rolling-pin", "Deegroller in de tweede la"), ("secret-santa", "Lootjes trekken voor Sinterklaas: budget € {p}")],
        T=["Ik heb het wifi-wachtwoord veranderd, stuur ik je straks", "Deel nooit je pincode, ook niet met de bank",
           "De nieuwe deurcode komt maandag"],
        BL=_BL("tel", "kamer", "bestelnr.", "vlucht", "paspoort"),
        D="nul een twee drie vier vijf zes zeven acht negen", names=["mama", "papa", "oma"],
        PWW=["Ajax", "tulp", "schatje", "fietsen", "Kaaskop", "Bolletje"], rev="achterstevoren",
        VP=["hier is de API-sleutel voor {svc}:"], VB=["commit-hash van de release:"]),
    "sv": dict(
        name="Swedish", cc="46", df="iso", card="kort",
        L=_L("pinkod till kortet", "pinkod till mobilen", "portkod", "larmkod",
             "wifi-lösenord", "lösenord till mejlen", "kod till kassaskåpet", "grindkod"),
        X={"bike-lock": "cykellåskod", "app-pin": "BankID-kod"},
        S=["{k}: {v}", "Glöm inte! {k} {v}", "{k} är {v} (från {n1})", "ny {k} → {v}"],
        B=[("appointment", "Tandläkaren {d} kl {t}"), ("shopping", "Handla: mjölk, bröd, {n} ägg, ost"),
           ("travel", "Tåget till Göteborg {d} kl {t}, vagn {n}"), ("health", "Feber 38,{dig}, alvedon var 6:e timme"),
           ("recipe", "Kanelbullar: 25 g jäst, {n} dl mjölk, 1 tsk kardemumma"), ("finance", "Betala hyran senast {d}: {p} kr")],
        H=[("dress-code", "Klädkod på festen: kavaj"), ("postal-code", "Postnummer till mormor: {sezip}"),
           ("rolling-pin", "Kaveln ligger i andra lådan"), ("secret-santa", "Julklappslek på jobbet: max {p} kr")],
        T=["Jag har bytt wifi-lösenordet, skickar det sen", "Dela aldrig din pinkod, inte ens med banken",
           "Nya portkoden kommer på måndag"],
        BL=_BL("tel", "rum", "ordernr", "flyg", "pass"),
        D="noll ett två tre fyra fem sex sju åtta nio", names=["mamma", "pappa", "mormor"],
        PWW=["Kanelbulle", "sommar", "Stockholm", "Musse", "hemmet", "Älgen"], rev="baklänges",
        VP=["här är API-nyckeln till {svc}:"], VB=["commit-hash för releasen:"]),
    "nb": dict(
        name="Norwegian", cc="47", df="dot", card="bankkort",
        L=_L("PIN-kode til bankkortet", "PIN til mobilen", "dørkode", "alarmkode",
             "wifi-passord", "passord til e-posten", "kode til safen", "portkode"),
        X={"app-pin": "Vipps-kode"},
        S=["{k}: {v}", "Husk! {k} {v}", "{k} er {v} (fra {n1})", "ny {k} → {v}"],
        B=[("appointment", "Tannlege {d} kl. {t}"), ("shopping", "Handle: melk, brød, {n} egg, brunost"),
           ("travel", "Fly til Bergen {d} kl. {t}"), ("health", "Feber 38,{dig}, paracet hver 6. time"),
           ("recipe", "Vafler: 3 egg, {n} dl melk, 4 dl mel"), ("finance", "Betale husleie innen {d}: {p} kr")],
        H=[("dress-code", "Kleskode på festen: pent"), ("postal-code", "Postnummer til farmor: {nozip}"),
           ("rolling-pin", "Kjevle i andre skuff"), ("secret-santa", "Nissevenn på jobben: maks {p} kr")],
        T=["Jeg har byttet wifi-passordet, sender det senere", "Del aldri PIN-koden din med noen",
           "Den nye dørkoden kommer mandag"],
        BL=_BL("tlf", "rom", "ordrenr.", "fly", "pass"),
        D="null en to tre fire fem seks sju åtte ni", names=["mamma", "pappa", "farmor"],
        PWW=["fjellet", "Rosenborg", "hytta", "Pusur", "sommer", "Trollet"], rev="baklengs",
        VP=["her er API-nøkkelen til {svc}:"], VB=["commit-hash for releasen:"]),
    "da": dict(
        name="Danish", cc="45", df="dot", card="dankort",
        L=_L("pinkode til dankortet", "pinkode til mobilen", "dørkode", "alarmkode",
             "wifi-kode", "adgangskode til mailen", "kode til pengeskabet", "lågekode"),
        X={"app-pin": "MobilePay-kode"},
        S=["{k}: {v}", "Husk nu! {k} {v}", "{k} er {v} (fra {n1})", "ny {k} → {v}"],
        B=[("appointment", "Tandlæge {d} kl. {t}"), ("shopping", "Indkøb: mælk, rugbrød, {n} æg, ost"),
           ("travel", "Toget til Aarhus {d} kl. {t}"), ("health", "Feber 38,{dig}, panodil hver 6. time"),
           ("recipe", "Æbleskiver: 3 æg, {n} dl mælk, 250 g mel"), ("finance", "Betal husleje inden {d}: {p} kr.")],
        H=[("dress-code", "Dresscode til festen: pænt tøj"), ("postal-code", "Postnummer til mormor: {nozip}"),
           ("rolling-pin", "Kagerullen ligger i anden skuffe"), ("secret-santa", "Pakkeleg: gaver til max {p} kr.")],
        T=["Jeg har skiftet wifi-koden, sender den senere", "Del aldrig din pinkode med nogen",
           "Den nye dørkode kommer mandag"],
        BL=_BL("tlf.", "værelse", "ordrenr.", "fly", "pas"),
        D="nul en to tre fire fem seks syv otte ni", names=["mor", "far", "mormor"],
        PWW=["hygge", "Bornholm", "smørrebrød", "Mis", "sommerhus", "Viking"], rev="baglæns",
        VP=["her er API-nøglen til {svc}:"], VB=["commit-hash til releasen:"]),
    "fi": dict(
        name="Finnish", cc="358", df="dot", card="kortti",
        L=_L("pankkikortin PIN", "puhelimen PIN", "ovikoodi", "hälytyskoodi",
             "wifin salasana", "sähköpostin salasana", "kassakaapin koodi", "portin koodi"),
        X={"locker-code": "kaapin koodi"},
        S=["{k}: {v}", "Muista! {k} {v}", "{k} on {v} ({n1} kertoi)", "uusi {k} → {v}"],
        B=[("appointment", "Hammaslääkäri {d} klo {t}"), ("shopping", "Kauppaan: maito, leipä, {n} munaa, juusto"),
           ("travel", "Juna Tampereelle {d} klo {t}"), ("health", "Kuumetta 38,{dig}, panadol 6 tunnin välein"),
           ("recipe", "Korvapuustit: 50 g hiivaa, {n} dl maitoa"), ("finance", "Vuokra maksettava {d} mennessä: {p} €")],
        H=[("dress-code", "Pukukoodi juhliin: tumma puku"), ("postal-code", "Mummon postinumero: {zip}"),
           ("rolling-pin", "Kaulin on toisessa laatikossa"), ("secret-santa", "Salainen joulupukki töissä: max {p} €")],
        T=["Vaihdoin wifin salasanan, lähetän sen myöhemmin", "Älä koskaan kerro PIN-koodiasi kenellekään",
           "Uusi ovikoodi tulee maanantaina"],
        BL=_BL("puh.", "huone", "tilausnro", "lento", "passi"),
        D="nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän", names=["äiti", "isä", "mummo"],
        PWW=["Muumi", "sauna", "kissa", "Helsinki", "Kesä", "Revontuli"], rev="takaperin",
        VP=["tässä {svc}:n API-avain:"], VB=["releasen commit-hash:"]),
    "is": dict(
        name="Icelandic", cc="354", df="dot", card="kort",
        L=_L("PIN-númer kortsins", "PIN á símanum", "hurðarkóði", "kóði á öryggiskerfinu",
             "lykilorð á wifi", "lykilorð á tölvupóstinum", "kóði á peningaskápnum", "kóði á hliðinu"),
        X={},
        S=["{k}: {v}", "Muna! {k} {v}", "{k} er {v} (frá {n1})"],
        B=[("appointment", "Tannlæknir {d} kl. {t}"), ("shopping", "Kaupa: mjólk, brauð, {n} egg, skyr"),
           ("travel", "Flug til Akureyrar {d} kl. {t}"), ("health", "Hiti 38,{dig}, parasetamól á 6 tíma fresti"),
           ("finance", "Borga leigu fyrir {d}: {p} kr.")],
        H=[("dress-code", "Klæðaburður í veislunni: fínn"), ("postal-code", "Póstnúmer hjá ömmu: {is_zip}"),
           ("rolling-pin", "Kökukeflið er í annarri skúffu")],
        T=["Ég breytti lykilorðinu á wifi, sendi það seinna", "Aldrei deila PIN-númerinu þínu",
           "Nýi hurðarkóðinn kemur á mánudaginn"],
        BL=_BL("sími", "herbergi", "pöntun nr.", "flug", "vegabréf"),
        D="núll einn tveir þrír fjórir fimm sex sjö átta níu", names=["mamma", "pabbi", "amma"],
        PWW=["Hekla", "lundi", "Reykjavik", "kisa", "sumar"], rev=None, VP=None, VB=None),
    "pl": dict(
        name="Polish", cc="48", df="dot", card="karta",
        L=_L("PIN do karty", "PIN do telefonu", "kod do domofonu", "kod do alarmu",
             "hasło do wifi", "hasło do maila", "szyfr do sejfu", "kod do bramy"),
        X={"parcel-locker": "kod odbioru z paczkomatu", "otp-code": "kod BLIK", "garage-code": "kod do garażu"},
        S=["{k}: {v}", "Nie zapomnieć!! {k} {v}", "{k} to {v} — {n1} przypomina", "nowy {k} → {v} 😉"],
        B=[("appointment", "Dentysta {d} o {t}"), ("shopping", "Kupić: mleko, chleb, {n} jajek, masło"),
           ("travel", "Pociąg do Krakowa {d} o {t}, wagon {n}"), ("health", "Gorączka 38,{dig}, paracetamol co 6 godzin"),
           ("recipe", "Pierogi: 500 g mąki, 1 jajko, {n}00 g twarogu"), ("finance", "Zapłacić czynsz do {d}: {p} zł")],
        H=[("dress-code", "Dress code na wesele: elegancko"), ("postal-code", "Kod pocztowy babci: {plzip}"),
           ("rolling-pin", "Wałek do ciasta w drugiej szufladzie"), ("secret-santa", "Tajemniczy Mikołaj w pracy: do {p} zł")],
        T=["Zmieniłam hasło do wifi, wyślę ci później", "Nigdy nie podawaj nikomu PIN-u",
           "Nowy kod do domofonu będzie w poniedziałek"],
        BL=_BL("tel.", "pokój", "nr zamówienia", "lot", "paszport"),
        D="zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć", names=["mama", "tata", "babcia"],
        PWW=["Kasztanek", "zaq1", "polska", "Misiek", "kotek", "Legia"], rev="od tyłu",
        VP=["klucz API do {svc}:", "klucz produkcyjny {svc}, nie commituj:"], VB=["hash commita z release'u:"]),
    "cs": dict(
        name="Czech", cc="420", df="dot", card="karta",
        L=_L("PIN ke kartě", "PIN k mobilu", "kód od vchodu", "kód od alarmu",
             "heslo na wifi", "heslo k mailu", "kód od trezoru", "kód od brány"),
        X={"garage-code": "kód od garáže"},
        S=["{k}: {v}", "Nezapomenout! {k} {v}", "{n1}: {k} je {v}", "nový {k} → {v}"],
        B=[("appointment", "Zubař {d} v {t}"), ("shopping", "Koupit: mléko, chleba, {n} vajec, máslo"),
           ("travel", "Vlak do Brna {d} v {t}"), ("health", "Horečka 38,{dig}, paralen každých 6 hodin"),
           ("recipe", "Svíčková: {n}00 g hovězího, smetana, kořenová zelenina"), ("finance", "Zaplatit nájem do {d}: {p} Kč")],
        H=[("dress-code", "Dress code na svatbu: společenský"), ("postal-code", "PSČ babičky: {cszip}"),
           ("rolling-pin", "Váleček na těsto je ve druhém šuplíku")],
        T=["Změnila jsem heslo na wifi, pošlu ti ho pak", "Nikdy nikomu neříkej svůj PIN",
           "Nový kód od vchodu bude v pondělí"],
        BL=_BL("tel.", "pokoj", "č. objednávky", "let", "pas"),
        D="nula jedna dva tři čtyři pět šest sedm osm devět", names=["mamka", "taťka", "babička"],
        PWW=["Pejsek", "praha", "Sparta", "kocicka", "slunicko"], rev="pozpátku",
        VP=["tady je API klíč pro {svc}:"], VB=["hash commitu z releasu:"]),
    "sk": dict(
        name="Slovak", cc="421", df="dot", card="karta",
        L=_L("PIN ku karte", "PIN do mobilu", "kód od vchodu", "kód od alarmu",
             "heslo na wifi", "heslo k mailu", "kód od trezoru", "kód od brány"),
        X={},
        S=["{k}: {v}", "Nezabudnúť! {k} {v}", "{n1}: {k} je {v}", "nový {k} → {v}"],
        B=[("appointment", "Zubár {d} o {t}"), ("shopping", "Kúpiť: mlieko, chlieb, {n} vajec, maslo"),
           ("travel", "Vlak do Košíc {d} o {t}"), ("health", "Horúčka 38,{dig}, paralen každých 6 hodín"),
           ("finance", "Zaplatiť nájom do {d}: {p} €")],
        H=[("dress-code", "Dress code na svadbu: spoločenský"), ("postal-code", "PSČ babky: {cszip}"),
           ("rolling-pin", "Valček na cesto je v druhej zásuvke")],
        T=["Zmenila som heslo na wifi, pošlem ti ho neskôr", "Nikdy nikomu nehovor svoj PIN",
           "Nový kód od vchodu bude v pondelok"],
        BL=_BL("tel.", "izba", "č. objednávky", "let", "pas"),
        D="nula jeden dva tri štyri päť šesť sedem osem deväť", names=["mama", "otec", "babka"],
        PWW=["Tatry", "macka", "bratislava", "Zlatko", "leto"], rev=None, VP=None, VB=None),
    "hu": dict(
        name="Hungarian", cc="36", df="hu", card="kártya",
        L=_L("bankkártya PIN", "telefon PIN", "ajtókód", "riasztó kódja",
             "wifi jelszó", "email jelszó", "széf kódja", "kapukód"),
        X={"app-pin": "netbank PIN"},
        S=["{k}: {v}", "El ne felejtsem! {k} {v}", "{k} = {v} ({n1} küldte)", "új {k} → {v}"],
        B=[("appointment", "Fogorvos {d}, {t}"), ("shopping", "Bevásárlás: tej, kenyér, {n} tojás, vaj"),
           ("travel", "Vonat Debrecenbe {d} {t}"), ("health", "Láz 38,{dig}, paracetamol 6 óránként"),
           ("recipe", "Lecsó: 1 kg paprika, {n} paradicsom, 2 hagyma"), ("finance", "Albérlet utalás határideje {d}: {p} Ft")],
        H=[("dress-code", "Dress code az esküvőn: elegáns"), ("postal-code", "Mama irányítószáma: {nozip}"),
           ("rolling-pin", "Sodrófa a második fiókban"), ("secret-santa", "Titkos Mikulás a munkahelyen: max {p} Ft")],
        T=["Megváltoztattam a wifi jelszót, később elküldöm", "Soha ne add meg senkinek a PIN-kódod",
           "Az új kapukódot hétfőn kapjuk meg"],
        BL=_BL("tel.", "szoba", "rendelésszám", "járat", "útlevél"),
        D="nulla egy kettő három négy öt hat hét nyolc kilenc", names=["anya", "apa", "mama"],
        PWW=["Cica", "balaton", "Puszi", "Budapest", "Maci"], rev="visszafelé",
        VP=["itt az API kulcs a {svc}-hoz:"], VB=["a release commit hash-e:"]),
    "ro": dict(
        name="Romanian", cc="40", df="dot", card="card",
        L=_L("PIN card", "PIN telefon", "cod interfon", "cod alarmă",
             "parola de la wifi", "parola de la mail", "cod seif", "cod poartă"),
        X={},
        S=["{k}: {v}", "Să nu uit! {k} {v}", "{k} e {v} (de la {n1})", "{k} nou → {v}"],
        B=[("appointment", "Dentist pe {d} la {t}"), ("shopping", "De cumpărat: lapte, pâine, {n} ouă, brânză"),
           ("travel", "Tren spre Cluj pe {d} la {t}"), ("health", "Febră 38,{dig}, paracetamol la 6 ore"),
           ("recipe", "Sarmale: 1 kg carne tocată, {n} cepe, orez, varză murată"), ("finance", "Plata întreținerii până pe {d}: {p} lei")],
        H=[("dress-code", "Dress code la nuntă: elegant"), ("postal-code", "Codul poștal al bunicii: {rozip}"),
           ("rolling-pin", "Sucitorul e în al doilea sertar"), ("secret-santa", "Moș Crăciun secret la birou: buget {p} lei")],
        T=["Am schimbat parola de la wifi, ți-o trimit mai târziu", "Nu da niciodată PIN-ul nimănui",
           "Codul nou de la interfon vine luni"],
        BL=_BL("tel.", "camera", "comanda nr.", "zbor", "pașaport"),
        D="zero unu doi trei patru cinci șase șapte opt nouă", names=["mama", "tata", "bunica"],
        PWW=["Pisicuta", "dacia", "Steaua", "iubire", "Bucuresti"], rev="invers",
        VP=["uite cheia API pentru {svc}:"], VB=["hash-ul commitului din release:"]),
    "el": dict(
        name="Greek", cc="30", df="slash", card="κάρτα",
        L=_L("PIN κάρτας", "PIN κινητού", "κωδικός εξώπορτας", "κωδικός συναγερμού",
             "κωδικός wifi", "κωδικός email", "συνδυασμός χρηματοκιβωτίου", "κωδικός αυλόπορτας"),
        X={},
        S=["{k}: {v}", "Να μην το ξεχάσω! {k} {v}", "{k} → {v} ({n1})", "καινούργιος {k}: {v}"],
        B=[("appointment", "Οδοντίατρος στις {d}, ώρα {t}"), ("shopping", "Ψώνια: γάλα, ψωμί, {n} αυγά, φέτα"),
           ("travel", "Πλοίο για Νάξο {d} στις {t}"), ("health", "Πυρετός 38,{dig}, depon κάθε 6 ώρες"),
           ("recipe", "Μουσακάς: 3 μελιτζάνες, {n}00 γρ. κιμά, μπεσαμέλ"), ("finance", "Πληρωμή ΔΕΗ μέχρι {d}: {p} €")],
        H=[("dress-code", "Dress code για τον γάμο: επίσημο"), ("postal-code", "Ταχυδρομικός κώδικας γιαγιάς: {sezip}"),
           ("rolling-pin", "Ο πλάστης είναι στο δεύτερο συρτάρι"), ("secret-santa", "Μυστικός Άγιος Βασίλης στο γραφείο: μέχρι {p} €")],
        T=["Άλλαξα τον κωδικό του wifi, θα σου τον στείλω μετά", "Ποτέ μη δίνεις το PIN σου σε κανέναν",
           "Ο νέος κωδικός της εξώπορτας έρχεται Δευτέρα"],
        BL=_BL("τηλ.", "δωμάτιο", "αρ. παραγγελίας", "πτήση", "διαβατήριο"),
        D="μηδέν ένα δύο τρία τέσσερα πέντε έξι επτά οκτώ εννέα", names=["μαμά", "μπαμπάς", "γιαγιά"],
        PWW=["Olympiakos", "agapi", "thalassa", "Lefteris", "Kouklitsa"], rev="ανάποδα",
        VP=["το API key για {svc}:"], VB=["το hash του commit της έκδοσης:"]),
    "tr": dict(
        name="Turkish", cc="90", df="dot", card="kart",
        L=_L("kart şifresi", "telefon şifresi", "kapı şifresi", "alarm şifresi",
             "wifi şifresi", "mail şifresi", "kasa şifresi", "bahçe kapısı şifresi"),
        X={"app-pin": "mobil bankacılık şifresi", "otp-code": "SMS onay kodu"},
        S=["{k}: {v}", "Unutma!! {k} {v}", "{k} {v} ({n1} söyledi)", "yeni {k} → {v}"],
        B=[("appointment", "Dişçi randevusu {d} saat {t}"), ("shopping", "Alınacaklar: süt, ekmek, {n} yumurta, beyaz peynir"),
           ("travel", "İzmir uçuşu {d} saat {t}"), ("health", "Ateş 38,{dig}, 6 saatte bir parol"),
           ("recipe", "Mercimek çorbası: 1 su bardağı mercimek, {n} su bardağı su"), ("finance", "Aidat son ödeme {d}: {p} TL")],
        H=[("dress-code", "Düğün kıyafet kuralı: şık"), ("postal-code", "Anneannemin posta kodu: {zip}"),
           ("rolling-pin", "Oklava ikinci çekmecede"), ("secret-santa", "İş yerinde yılbaşı çekilişi: en fazla {p} TL")],
        T=["Wifi şifresini değiştirdim, sonra atarım", "Kart şifreni asla kimseyle paylaşma",
           "Yeni kapı şifresi pazartesi gelecek"],
        BL=_BL("tel", "oda", "sipariş no", "uçuş", "pasaport"),
        D="sıfır bir iki üç dört beş altı yedi sekiz dokuz", names=["annem", "babam", "anneannem"],
        PWW=["Galatasaray", "fenerbahce", "askim", "Pamuk", "istanbul", "Karabas"], rev="tersten",
        VP=["{svc} API anahtarı:", "{svc} canlı ortam anahtarı, repoya atma:"], VB=["sürümün commit hash'i:"]),
    "ru": dict(
        name="Russian", cc="7", df="dot", card="карта",
        L=_L("пин-код от карты", "пин от телефона", "код домофона", "код сигнализации",
             "пароль от вайфая", "пароль от почты", "код от сейфа", "код от калитки"),
        X={"sim-puk": "PUK-код", "parcel-locker": "код постамата", "otp-code": "код из СМС", "app-pin": "код входа в Сбербанк Онлайн"},
        S=["{k}: {v}", "Не забыть!! {k} {v}", "{k} — {v}, никому не говорить", "{n1} пишет: {k} {v}", "новый {k} → {v}"],
        B=[("appointment", "Стоматолог {d} в {t}"), ("shopping", "Купить: молоко, хлеб, {n} яиц, сметану"),
           ("travel", "Поезд в Казань {d} в {t}, вагон {n}"), ("health", "Температура 38,{dig}, нурофен каждые 6 часов"),
           ("recipe", "Блины: 2 яйца, {n}00 мл молока, 1 стакан муки"), ("finance", "Оплатить коммуналку до {d}: {p} ₽"),
           ("school", "Родительское собрание {d} в {t}")],
        H=[("dress-code", "Дресс-код на свадьбу: вечерний"), ("postal-code", "Индекс бабушки: {rozip}"),
           ("rolling-pin", "Скалка во втором ящике"), ("secret-santa", "Тайный Санта на работе: до {p} ₽")],
        T=["Поменяла пароль от вайфая, скину потом", "Никогда никому не сообщайте пин-код",
           "Новый код домофона дадут в понедельник"],
        BL=_BL("тел.", "комната", "заказ №", "рейс", "паспорт"),
        D="ноль один два три четыре пять шесть семь восемь девять", names=["мама", "папа", "бабушка"],
        PWW=["solnyshko", "Medved", "zenit", "qwerty", "Masha", "kotik"], rev="задом наперёд",
        VP=["вот ключ API для {svc}:", "прод-ключ {svc}, в репу не коммить:"], VB=["хеш коммита релиза:", "номер заказа в {svc}:"]),
    "uk": dict(
        name="Ukrainian", cc="380", df="dot", card="картка",
        L=_L("пін-код картки", "пін телефону", "код домофону", "код сигналізації",
             "пароль від вайфаю", "пароль від пошти", "код сейфа", "код від хвіртки"),
        X={"parcel-locker": "код поштомату", "app-pin": "пін Дії"},
        S=["{k}: {v}", "Не забути! {k} {v}", "{k} — {v}, нікому не казати", "новий {k} → {v}"],
        B=[("appointment", "Стоматолог {d} о {t}"), ("shopping", "Купити: молоко, хліб, {n} яєць, сир"),
           ("travel", "Потяг до Львова {d} о {t}, вагон {n}"), ("health", "Температура 38,{dig}, парацетамол кожні 6 годин"),
           ("recipe", "Борщ: буряк, капуста, {n} картоплини, морква"), ("finance", "Сплатити комуналку до {d}: {p} грн")],
        H=[("dress-code", "Дрес-код на весілля: святковий"), ("postal-code", "Поштовий індекс бабусі: {zip}"),
           ("rolling-pin", "Качалка в другій шухляді"), ("secret-santa", "Таємний Санта на роботі: до {p} грн")],
        T=["Змінила пароль від вайфаю, скину пізніше", "Ніколи нікому не кажіть пін-код",
           "Новий код домофону дадуть у понеділок"],
        BL=_BL("тел.", "кімната", "замовлення №", "рейс", "паспорт"),
        D="нуль один два три чотири п'ять шість сім вісім дев'ять", names=["мама", "тато", "бабуся"],
        PWW=["sonechko", "Kyiv", "zaychyk", "Dynamo", "kvitka"], rev="задом наперед",
        VP=["ось ключ API для {svc}:"], VB=["хеш коміту релізу:"]),
    "bg": dict(
        name="Bulgarian", cc="359", df="dot", card="карта",
        L=_L("ПИН на картата", "ПИН на телефона", "код на входа", "код на алармата",
             "парола за wifi", "парола за пощата", "код на сейфа", "код на портата"),
        X={},
        S=["{k}: {v}", "Да не забравя! {k} {v}", "{k} е {v}", "нов {k} → {v}"],
        B=[("appointment", "Зъболекар на {d} в {t}"), ("shopping", "Да купя: мляко, хляб, {n} яйца, сирене"),
           ("travel", "Влак за Варна на {d} в {t}"), ("health", "Температура 38,{dig}, парацетамол на 6 часа"),
           ("recipe", "Баница: {n} яйца, 400 г сирене, кори"), ("finance", "Да платя тока до {d}: {p} лв.")],
        H=[("dress-code", "Дрескод за сватбата: официален"), ("postal-code", "Пощенски код на баба: {nozip}"),
           ("rolling-pin", "Точилката е във второто чекмедже")],
        T=["Смених паролата за wifi, ще ти я пратя после", "Никога не казвай ПИН-а си на никого",
           "Новият код за входа идва в понеделник"],
        BL=_BL("тел.", "стая", "поръчка №", "полет", "паспорт"),
        D="нула едно две три четири пет шест седем осем девет", names=["мама", "татко", "баба"],
        PWW=["Levski", "slanchice", "sofia", "Mecho", "zaiche"], rev=None, VP=None, VB=None),
    "sr": dict(
        name="Serbian", cc="381", df="dot", card="картица",
        L=_L("ПИН за картицу", "ПИН за телефон", "шифра за улаз", "шифра за аларм",
             "шифра за вајфај", "лозинка за мејл", "шифра сефа", "шифра за капију"),
        X={},
        S=["{k}: {v}", "Не заборави! {k} {v}", "{k} је {v}", "нова {k} → {v}"],
        B=[("appointment", "Зубар {d} у {t}"), ("shopping", "Купити: млеко, хлеб, {n} јаја, кајмак"),
           ("travel", "Воз за Нови Сад {d} у {t}"), ("health", "Температура 38,{dig}, бруфен на 8 сати"),
           ("finance", "Платити струју до {d}: {p} дин.")],
        H=[("dress-code", "Дрес код за венчање: свечано"), ("postal-code", "Поштански број баке: {zip}"),
           ("rolling-pin", "Оклагија је у другој фиоци")],
        T=["Променила сам шифру за вајфај, послаћу ти касније", "Никад никоме не говори ПИН",
           "Нова шифра за улаз стиже у понедељак"],
        BL=_BL("тел.", "соба", "поруџбина бр.", "лет", "пасош"),
        D="нула један два три четири пет шест седам осам девет", names=["мама", "тата", "бака"],
        PWW=["Zvezda", "beograd", "macka", "Sunce", "ljubav"], rev=None, VP=None, VB=None),
    "hr": dict(
        name="Croatian", cc="385", df="dot", card="kartica",
        L=_L("PIN kartice", "PIN mobitela", "šifra ulaza", "šifra alarma",
             "lozinka za wifi", "lozinka za mail", "šifra sefa", "šifra kapije"),
        X={},
        S=["{k}: {v}", "Ne zaboravi! {k} {v}", "{k} je {v}", "nova {k} → {v}"],
        B=[("appointment", "Zubar {d} u {t}"), ("shopping", "Kupiti: mlijeko, kruh, {n} jaja, sir"),
           ("travel", "Trajekt za Hvar {d} u {t}"), ("health", "Temperatura 38,{dig}, Lupocet svakih 6 sati"),
           ("finance", "Platiti režije do {d}: {p} €")],
        H=[("dress-code", "Dress code za vjenčanje: svečano"), ("postal-code", "Poštanski broj bake: {zip}"),
           ("rolling-pin", "Valjak za tijesto je u drugoj ladici")],
        T=["Promijenila sam lozinku za wifi, poslat ću ti kasnije", "Nikad nikome ne govori PIN",
           "Nova šifra ulaza stiže u ponedjeljak"],
        BL=_BL("tel.", "soba", "narudžba br.", "let", "putovnica"),
        D="nula jedan dva tri četiri pet šest sedam osam devet", names=["mama", "tata", "baka"],
        PWW=["Hajduk", "more", "zagreb", "Mačkica", "sunce"], rev=None, VP=None, VB=None),
    "lt": dict(
        name="Lithuanian", cc="370", df="iso", card="kortelė",
        L=_L("kortelės PIN", "telefono PIN", "laiptinės kodas", "signalizacijos kodas",
             "wifi slaptažodis", "pašto slaptažodis", "seifo kodas", "vartų kodas"),
        X={},
        S=["{k}: {v}", "Nepamiršti! {k} {v}", "{k} – {v}", "naujas {k} → {v}"],
        B=[("appointment", "Odontologas {d} {t}"), ("shopping", "Nupirkti: pieno, duonos, {n} kiaušinių, sūrio"),
           ("travel", "Traukinys į Kauną {d} {t}"), ("health", "Temperatūra 38,{dig}, paracetamolis kas 6 valandas"),
           ("recipe", "Cepelinai: 2 kg bulvių, {n}00 g faršo"), ("finance", "Sumokėti nuomą iki {d}: {p} €")],
        H=[("dress-code", "Aprangos kodas vestuvėms: elegantiškas"), ("postal-code", "Močiutės pašto kodas: LT-{zip}"),
           ("rolling-pin", "Kočėlas antrame stalčiuje")],
        T=["Pakeičiau wifi slaptažodį, atsiųsiu vėliau", "Niekada niekam nesakyk PIN kodo",
           "Naujas laiptinės kodas bus pirmadienį"],
        BL=_BL("tel.", "kambarys", "užsakymo nr.", "skrydis", "pasas"),
        D="nulis vienas du trys keturi penki šeši septyni aštuoni devyni", names=["mama", "tėtis", "močiutė"],
        PWW=["Zalgiris", "saulute", "vilnius", "Katinas", "ruduo"], rev=None, VP=None, VB=None),
    "ca": dict(
        name="Catalan", cc="34", df="slash", card="targeta",
        L=_L("PIN de la targeta", "PIN del mòbil", "codi de la porta", "codi de l'alarma",
             "contrasenya del wifi", "contrasenya del correu", "combinació de la caixa forta", "codi de la tanca"),
        X={},
        S=["{k}: {v}", "Que no se m'oblidi: {k} {v}", "{k} → {v} (m'ho ha dit {n1})", "{k} nou: {v}"],
        B=[("appointment", "Dentista el {d} a les {t}"), ("shopping", "Comprar: llet, pa, {n} ous, tomàquets"),
           ("travel", "Tren a Girona el {d} a les {t}"), ("health", "Febre de 38,{dig}, paracetamol cada 6 hores"),
           ("recipe", "Pa amb tomàquet per a {n}: pa de pagès, tomàquet, oli"), ("finance", "Pagar la llum abans del {d}: {p} €")],
        H=[("dress-code", "Codi de vestimenta del casament: elegant"), ("postal-code", "Codi postal de l'àvia: {zip}"),
           ("rolling-pin", "El corró és al segon calaix"), ("secret-santa", "Amic invisible a la feina: {p} € màxim")],
        T=["He canviat la contrasenya del wifi, després te la passo", "No comparteixis mai el PIN amb ningú",
           "El codi nou de la porta arriba dilluns"],
        BL=_BL("tel.", "habitació", "comanda núm.", "vol", "passaport"),
        D="zero u dos tres quatre cinc sis set vuit nou", names=["la mare", "el pare", "l'àvia"],
        PWW=["Barca", "castellers", "Montserrat", "Gatet", "estiu"], rev="a l'inrevés", VP=None, VB=None),
    "ar": dict(
        name="Arabic", cc="966", df="slash", card="بطاقة", nd=0x0660,
        L=_L("الرقم السري للبطاقة", "رمز قفل الجوال", "كود باب العمارة", "رمز جهاز الإنذار",
             "باسورد الواي فاي", "كلمة سر الإيميل", "رقم الخزنة", "كود البوابة"),
        X={"app-pin": "رمز تطبيق البنك", "otp-code": "رمز التحقق"},
        S=["{k}: {v}", "لا تنسى! {k} {v}", "{k} هو {v} — من {n1}", "{k} الجديد ← {v}"],
        B=[("appointment", "موعد طبيب الأسنان يوم {d} الساعة {t}"), ("shopping", "مشتريات: حليب، خبز، {n} بيضات، طماطم"),
           ("travel", "رحلة إلى دبي يوم {d} الساعة {t}"), ("health", "حرارة الولد 38.{dig}، بنادول كل 6 ساعات"),
           ("recipe", "كبسة: {n} كوب رز، دجاجة، بهارات"), ("finance", "دفع الإيجار قبل {d}: {p} ريال")],
        H=[("dress-code", "قواعد اللباس في العرس: رسمي"), ("postal-code", "الرمز البريدي لبيت جدتي: {zip}"),
           ("rolling-pin", "الشوبك في الدرج الثاني")],
        T=["غيرت باسورد الواي فاي، برسله لك بعدين", "لا تعطي الرقم السري لأي أحد أبداً",
           "كود الباب الجديد يوصل يوم الاثنين"],
        BL=_BL("جوال", "غرفة", "رقم الطلب", "رحلة", "جواز السفر"),
        D="صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة", names=["ماما", "بابا", "خالتي"],
        PWW=["habibi", "Noor", "falcon", "Ahmad", "sahra"], rev="بالعكس",
        VP=["هذا مفتاح API حق {svc}:"], VB=["رقم الـ commit للإصدار:"]),
    "he": dict(
        name="Hebrew", cc="972", df="dot", card="כרטיס",
        L=_L("קוד סודי של הכרטיס", "קוד לטלפון", "קוד לדלת של הבניין", "קוד אזעקה",
             "סיסמה לוויפי", "סיסמה למייל", "קוד לכספת", "קוד לשער"),
        X={},
        S=["{k}: {v}", "לא לשכוח! {k} {v}", "{k} זה {v} ({n1})", "{k} חדש ← {v}"],
        B=[("appointment", "תור לרופא שיניים ב-{d} בשעה {t}"), ("shopping", "לקנות: חלב, לחם, {n} ביצים, קוטג'"),
           ("travel", "טיסה לאילת ב-{d} בשעה {t}"), ("health", "חום 38.{dig}, אקמול כל 6 שעות"),
           ("recipe", "שקשוקה: {n} ביצים, 4 עגבניות, פלפל"), ("finance", "לשלם ארנונה עד {d}: {p} ₪")],
        H=[("dress-code", "קוד לבוש לחתונה: חגיגי"), ("postal-code", "מיקוד של סבתא: {isr_zip}"),
           ("rolling-pin", "המערוך במגירה השנייה")],
        T=["שיניתי את הסיסמה של הוויפי, אשלח לך אחר כך", "אף פעם לא למסור את הקוד הסודי לאף אחד",
           "הקוד החדש לדלת יגיע ביום שני"],
        BL=_BL("טלפון", "חדר", "מס' הזמנה", "טיסה", "דרכון"),
        D="אפס אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע", names=["אמא", "אבא", "סבתא"],
        PWW=["shalom", "Maccabi", "yarden", "Mitzi", "tapuz"], rev="הפוך",
        VP=["הנה מפתח ה-API של {svc}:"], VB=["ה-hash של הקומיט של הגרסה:"]),
    "fa": dict(
        name="Persian", cc="98", df="iso", card="کارت", nd=0x06F0,
        L=_L("رمز کارت بانکی", "رمز گوشی", "کد در ساختمان", "کد دزدگیر",
             "رمز وای‌فای", "رمز ایمیل", "رمز گاوصندوق", "کد در حیاط"),
        X={"app-pin": "رمز دوم کارت"},
        S=["{k}: {v}", "یادم نره! {k} {v}", "{k} میشه {v}", "{k} جدید ← {v}"],
        B=[("appointment", "نوبت دندون‌پزشکی {d} ساعت {t}"), ("shopping", "خرید: شیر، نون، {n} تا تخم‌مرغ، پنیر"),
           ("travel", "پرواز به مشهد {d} ساعت {t}"), ("health", "تب 38.{dig}، استامینوفن هر ۶ ساعت"),
           ("recipe", "قورمه‌سبزی: سبزی، لوبیا قرمز، {n}00 گرم گوشت"), ("finance", "قبض برق تا {d}: {p} هزار تومان")],
        H=[("dress-code", "کد پوشش عروسی: رسمی"), ("postal-code", "کد پستی مامان‌بزرگ: {fa_zip}"),
           ("rolling-pin", "وردنه توی کشوی دومه")],
        T=["رمز وای‌فای رو عوض کردم، بعداً برات می‌فرستم", "هیچ‌وقت رمز کارتت رو به کسی نده",
           "کد جدید در ساختمان دوشنبه میاد"],
        BL=_BL("تلفن", "اتاق", "شماره سفارش", "پرواز", "پاسپورت"),
        D="صفر یک دو سه چهار پنج شش هفت هشت نه", names=["مامان", "بابا", "خاله"],
        PWW=["golnaz", "Persepolis", "azadi", "Pishi", "baran"], rev="برعکس",
        VP=["کلید API برای {svc}:"], VB=["هش کامیت نسخه:"]),
    "ur": dict(
        name="Urdu", cc="92", df="slash", card="کارڈ", nd=0x06F0,
        L=_L("اے ٹی ایم پن", "فون کا پن", "دروازے کا کوڈ", "الارم کا کوڈ",
             "وائی فائی کا پاسورڈ", "ای میل کا پاسورڈ", "تجوری کا کوڈ", "گیٹ کا کوڈ"),
        X={"mobile-money-pin": "ایزی پیسہ پن"},
        S=["{k}: {v}", "بھولنا نہیں! {k} {v}", "{k} ہے {v}", "نیا {k} ← {v}"],
        B=[("appointment", "ڈینٹسٹ کے پاس {d} کو {t} بجے"), ("shopping", "خریداری: دودھ، ڈبل روٹی، {n} انڈے، دہی"),
           ("travel", "لاہور کی فلائٹ {d} کو {t} بجے"), ("health", "بخار 10{dig}، پیناڈول ہر 6 گھنٹے بعد"),
           ("recipe", "بریانی: {n} کلو چاول، مرغی، دہی"), ("finance", "بجلی کا بل {d} تک: {p} روپے")],
        H=[("dress-code", "شادی کا ڈریس کوڈ: روایتی"), ("postal-code", "نانی کا پوسٹل کوڈ: {zip}"),
           ("rolling-pin", "بیلن دوسرے دراز میں ہے")],
        T=["وائی فائی کا پاسورڈ بدل دیا ہے، بعد میں بھیجتا ہوں", "اپنا پن کبھی کسی کو مت بتائیں",
           "دروازے کا نیا کوڈ پیر کو آئے گا"],
        BL=_BL("فون", "کمرہ", "آرڈر نمبر", "فلائٹ", "پاسپورٹ"),
        D="صفر ایک دو تین چار پانچ چھ سات آٹھ نو", names=["امی", "ابو", "خالہ"],
        PWW=["pakistan", "Shaheen", "chanda", "Babar", "jaan"], rev=None, VP=None, VB=None),
    "hi": dict(
        name="Hindi", cc="91", df="slash", card="कार्ड", nd=0x0966,
        L=_L("एटीएम पिन", "फ़ोन का पिन", "दरवाज़े का कोड", "अलार्म कोड",
             "वाईफाई पासवर्ड", "ईमेल का पासवर्ड", "तिजोरी का कोड", "गेट का कोड"),
        X={"upi-pin": "UPI पिन", "otp-code": "OTP"},
        S=["{k}: {v}", "भूलना मत! {k} {v}", "{k} है {v}", "नया {k} → {v}", "{k} {v} hai, kisi ko mat batana"],
        B=[("appointment", "डेंटिस्ट के पास {d} को {t} बजे"), ("shopping", "सामान: दूध, ब्रेड, {n} अंडे, दही"),
           ("travel", "दिल्ली की ट्रेन {d} को {t} बजे, कोच S{n}"), ("health", "बुखार 10{dig}, क्रोसिन हर 6 घंटे"),
           ("recipe", "दाल: {n} कटोरी अरहर दाल, हल्दी, नमक"), ("finance", "बिजली का बिल {d} तक: ₹{p}")],
        H=[("dress-code", "शादी का ड्रेस कोड: पारंपरिक"), ("pin-code-postal", "नानी का पिन कोड: {in_pin}"),
           ("rolling-pin", "बेलन दूसरी दराज़ में है")],
        T=["वाईफाई का पासवर्ड बदल दिया है, बाद में भेजूँगा", "अपना पिन कभी किसी को न बताएं",
           "गेट का नया कोड सोमवार को आएगा"],
        BL=_BL("फ़ोन", "कमरा", "ऑर्डर नंबर", "फ़्लाइट", "पासपोर्ट"),
        D="शून्य एक दो तीन चार पाँच छह सात आठ नौ", names=["मम्मी", "पापा", "दादी"],
        PWW=["Krishna", "india", "sonu", "Mumbai", "pinky", "cricket"], rev="उल्टा",
        VP=["{svc} ki API key ye rahi:", "prod wali {svc} key, repo me mat daalna:"], VB=["release ka commit hash:"]),
    "bn": dict(
        name="Bengali", cc="880", df="slash", card="কার্ড", nd=0x09E6,
        L=_L("এটিএম পিন", "ফোনের পিন", "দরজার কোড", "অ্যালার্মের কোড",
             "ওয়াইফাই পাসওয়ার্ড", "ইমেইলের পাসওয়ার্ড", "সিন্দুকের কোড", "গেটের কোড"),
        X={"mobile-money-pin": "বিকাশ পিন"},
        S=["{k}: {v}", "ভুলবে না! {k} {v}", "{k} হলো {v}", "নতুন {k} → {v}"],
        B=[("appointment", "ডেন্টিস্টের কাছে {d} তারিখ {t}-এ"), ("shopping", "বাজার: দুধ, পাউরুটি, {n}টা ডিম, আলু"),
           ("travel", "চট্টগ্রামের ট্রেন {d} তারিখ {t}-এ"), ("health", "জ্বর ১০১, নাপা ৬ ঘণ্টা পর পর"),
           ("recipe", "খিচুড়ি: চাল, মসুর ডাল, {n}টা আলু"), ("finance", "বিদ্যুৎ বিল {d}-এর মধ্যে: {p} টাকা")],
        H=[("dress-code", "বিয়ের ড্রেস কোড: শাড়ি-পাঞ্জাবি"), ("postal-code", "দিদার পোস্ট কোড: {nozip}"),
           ("rolling-pin", "বেলুনি দ্বিতীয় ড্রয়ারে")],
        T=["ওয়াইফাই পাসওয়ার্ড বদলেছি, পরে পাঠাবো", "কখনো কাউকে পিন বলবেন না",
           "দরজার নতুন কোড সোমবার আসবে"],
        BL=_BL("ফোন", "রুম", "অর্ডার নম্বর", "ফ্লাইট", "পাসপোর্ট"),
        D="শূন্য এক দুই তিন চার পাঁচ ছয় সাত আট নয়", names=["মা", "বাবা", "দিদা"],
        PWW=["dhaka", "Shapla", "tuntuni", "Rupa", "bangla"], rev=None, VP=None, VB=None),
    "ta": dict(
        name="Tamil", cc="91", df="slash", card="கார்டு", nd=0x0BE6,
        L=_L("ஏடிஎம் பின்", "போன் பின்", "கதவு கோடு", "அலாரம் கோடு",
             "வைஃபை பாஸ்வேர்ட்", "ஈமெயில் பாஸ்வேர்ட்", "லாக்கர் கோடு", "கேட் கோடு"),
        X={"upi-pin": "UPI பின்"},
        S=["{k}: {v}", "மறக்காதே! {k} {v}", "{k} = {v}", "புதிய {k} → {v}"],
        B=[("appointment", "பல் டாக்டர் {d} அன்று {t} மணிக்கு"), ("shopping", "வாங்க வேண்டியது: பால், ரொட்டி, {n} முட்டை, தயிர்"),
           ("travel", "சென்னை ரயில் {d} {t}"), ("health", "காய்ச்சல் 10{dig}, டோலோ 6 மணி நேரத்திற்கு ஒருமுறை"),
           ("recipe", "சாம்பார்: துவரம் பருப்பு, {n} தக்காளி, புளி"), ("finance", "மின் கட்டணம் {d} க்குள்: ₹{p}")],
        H=[("dress-code", "கல்யாண டிரஸ் கோடு: பட்டு வேஷ்டி"), ("pin-code-postal", "பாட்டி வீட்டு பின் கோடு: {in_pin}"),
           ("rolling-pin", "சப்பாத்தி கட்டை இரண்டாவது டிராயரில்")],
        T=["வைஃபை பாஸ்வேர்டை மாற்றிவிட்டேன், பிறகு அனுப்புகிறேன்", "உங்கள் பின்னை யாரிடமும் சொல்லாதீர்கள்",
           "புதிய கேட் கோடு திங்கள் வரும்"],
        BL=_BL("போன்", "அறை", "ஆர்டர் எண்", "விமானம்", "பாஸ்போர்ட்"),
        D="பூஜ்ஜியம் ஒன்று இரண்டு மூன்று நான்கு ஐந்து ஆறு ஏழு எட்டு ஒன்பது", names=["அம்மா", "அப்பா", "பாட்டி"],
        PWW=["chennai", "Murugan", "thala", "Kutty", "ponni"], rev=None, VP=None, VB=None),
    "te": dict(
        name="Telugu", cc="91", df="slash", card="కార్డు", nd=0x0C66,
        L=_L("ఏటీఎం పిన్", "ఫోన్ పిన్", "డోర్ కోడ్", "అలారం కోడ్",
             "వైఫై పాస్‌వర్డ్", "ఈమెయిల్ పాస్‌వర్డ్", "లాకర్ కోడ్", "గేట్ కోడ్"),
        X={"upi-pin": "UPI పిన్"},
        S=["{k}: {v}", "మర్చిపోవద్దు! {k} {v}", "{k} = {v}"],
        B=[("appointment", "డెంటిస్ట్ అపాయింట్‌మెంట్ {d} {t}కి"), ("shopping", "కొనాలి: పాలు, బ్రెడ్, {n} గుడ్లు, పెరుగు"),
           ("travel", "హైదరాబాద్ రైలు {d} {t}"), ("health", "జ్వరం 10{dig}, డోలో ప్రతి 6 గంటలకు"),
           ("finance", "కరెంట్ బిల్లు {d} లోపు: ₹{p}")],
        H=[("dress-code", "పెళ్లి డ్రెస్ కోడ్: సంప్రదాయం"), ("pin-code-postal", "అమ్మమ్మ ఇంటి పిన్ కోడ్: {in_pin}")],
        T=["వైఫై పాస్‌వర్డ్ మార్చాను, తర్వాత పంపిస్తా", "మీ పిన్ ఎవరికీ చెప్పకండి"],
        BL=_BL("ఫోన్", "గది", "ఆర్డర్ నంబర్", "ఫ్లైట్", "పాస్‌పోర్ట్"),
        D="సున్నా ఒకటి రెండు మూడు నాలుగు ఐదు ఆరు ఏడు ఎనిమిది తొమ్మిది", names=["అమ్మ", "నాన్న", "అమ్మమ్మ"],
        PWW=["hyderabad", "Chinni", "balayya", "Bujji", "vizag"], rev=None, VP=None, VB=None),
    "mr": dict(
        name="Marathi", cc="91", df="slash", card="कार्ड", nd=0x0966,
        L=_L("एटीएम पिन", "फोनचा पिन", "दाराचा कोड", "अलार्मचा कोड",
             "वायफायचा पासवर्ड", "ईमेलचा पासवर्ड", "तिजोरीचा कोड", "गेटचा कोड"),
        X={"upi-pin": "UPI पिन"},
        S=["{k}: {v}", "विसरू नकोस! {k} {v}", "{k} आहे {v}"],
        B=[("appointment", "दंतवैद्याकडे {d} ला {t} वाजता"), ("shopping", "आणायचे: दूध, पाव, {n} अंडी, दही"),
           ("travel", "पुण्याची बस {d} ला {t} वाजता"), ("health", "ताप 10{dig}, क्रोसिन दर 6 तासांनी"),
           ("finance", "लाईट बिल {d} पर्यंत: ₹{p}")],
        H=[("dress-code", "लग्नाचा ड्रेस कोड: पारंपरिक"), ("pin-code-postal", "आजीचा पिन कोड: {in_pin}"),
           ("rolling-pin", "लाटणे दुसऱ्या ड्रॉवरमध्ये")],
        T=["वायफायचा पासवर्ड बदलला, नंतर पाठवतो", "तुमचा पिन कोणालाही सांगू नका"],
        BL=_BL("फोन", "खोली", "ऑर्डर क्रमांक", "फ्लाइट", "पासपोर्ट"),
        D="शून्य एक दोन तीन चार पाच सहा सात आठ नऊ", names=["आई", "बाबा", "आजी"],
        PWW=["pune", "Ganpati", "sonu", "Mauli", "vada"], rev=None, VP=None, VB=None),
    "pa": dict(
        name="Punjabi", cc="91", df="slash", card="ਕਾਰਡ", nd=0x0A66,
        L=_L("ਏਟੀਐਮ ਪਿੰਨ", "ਫ਼ੋਨ ਦਾ ਪਿੰਨ", "ਦਰਵਾਜ਼ੇ ਦਾ ਕੋਡ", "ਅਲਾਰਮ ਕੋਡ",
             "ਵਾਈਫਾਈ ਪਾਸਵਰਡ", "ਈਮੇਲ ਪਾਸਵਰਡ", "ਤਿਜੋਰੀ ਦਾ ਕੋਡ", "ਗੇਟ ਦਾ ਕੋਡ"),
        X={},
        S=["{k}: {v}", "ਭੁੱਲਣਾ ਨਹੀਂ! {k} {v}", "{k} ਹੈ {v}"],
        B=[("appointment", "ਦੰਦਾਂ ਦੇ ਡਾਕਟਰ ਕੋਲ {d} ਨੂੰ {t} ਵਜੇ"), ("shopping", "ਲਿਆਉਣਾ: ਦੁੱਧ, ਬ੍ਰੈੱਡ, {n} ਅੰਡੇ, ਦਹੀਂ"),
           ("travel", "ਅੰਮ੍ਰਿਤਸਰ ਦੀ ਬੱਸ {d} ਨੂੰ {t} ਵਜੇ"), ("finance", "ਬਿਜਲੀ ਦਾ ਬਿੱਲ {d} ਤੱਕ: ₹{p}")],
        H=[("dress-code", "ਵਿਆਹ ਦਾ ਡਰੈੱਸ ਕੋਡ: ਰਵਾਇਤੀ"), ("pin-code-postal", "ਨਾਨੀ ਦਾ ਪਿੰਨ ਕੋਡ: {in_pin}")],
        T=["ਵਾਈਫਾਈ ਪਾਸਵਰਡ ਬਦਲ ਦਿੱਤਾ, ਬਾਅਦ ਵਿੱਚ ਭੇਜਾਂਗਾ", "ਆਪਣਾ ਪਿੰਨ ਕਦੇ ਕਿਸੇ ਨੂੰ ਨਾ ਦੱਸੋ"],
        BL=_BL("ਫ਼ੋਨ", "ਕਮਰਾ", "ਆਰਡਰ ਨੰਬਰ", "ਫਲਾਈਟ", "ਪਾਸਪੋਰਟ"),
        D="ਸਿਫ਼ਰ ਇੱਕ ਦੋ ਤਿੰਨ ਚਾਰ ਪੰਜ ਛੇ ਸੱਤ ਅੱਠ ਨੌਂ", names=["ਮੰਮੀ", "ਪਾਪਾ", "ਨਾਨੀ"],
        PWW=["punjab", "Sherry", "balle", "Pinda", "jatt"], rev=None, VP=None, VB=None),
    "gu": dict(
        name="Gujarati", cc="91", df="slash", card="કાર્ડ", nd=0x0AE6,
        L=_L("એટીએમ પિન", "ફોનનો પિન", "દરવાજાનો કોડ", "એલાર્મ કોડ",
             "વાઇફાઇ પાસવર્ડ", "ઈમેલ પાસવર્ડ", "તિજોરીનો કોડ", "ગેટનો કોડ"),
        X={},
        S=["{k}: {v}", "ભૂલતા નહીં! {k} {v}", "{k} છે {v}"],
        B=[("appointment", "ડેન્ટિસ્ટ પાસે {d} ના રોજ {t} વાગ્યે"), ("shopping", "લાવવાનું: દૂધ, બ્રેડ, {n} કિલો બટાકા, દહીં"),
           ("travel", "અમદાવાદની ટ્રેન {d} {t}"), ("finance", "લાઇટ બિલ {d} સુધી: ₹{p}")],
        H=[("dress-code", "લગ્નનો ડ્રેસ કોડ: પરંપરાગત"), ("pin-code-postal", "બાના ઘરનો પિન કોડ: {in_pin}")],
        T=["વાઇફાઇ પાસવર્ડ બદલ્યો છે, પછી મોકલું છું", "તમારો પિન ક્યારેય કોઈને ન જણાવો"],
        BL=_BL("ફોન", "રૂમ", "ઓર્ડર નંબર", "ફ્લાઇટ", "પાસપોર્ટ"),
        D="શૂન્ય એક બે ત્રણ ચાર પાંચ છ સાત આઠ નવ", names=["મમ્મી", "પપ્પા", "બા"],
        PWW=["surat", "Dhokla", "jay", "Krupa", "garba"], rev=None, VP=None, VB=None),
    "ne": dict(
        name="Nepali", cc="977", df="iso", card="कार्ड", nd=0x0966,
        L=_L("एटीएम पिन", "फोनको पिन", "ढोकाको कोड", "अलार्म कोड",
             "वाइफाइको पासवर्ड", "इमेलको पासवर्ड", "तिजोरीको कोड", "गेटको कोड"),
        X={"mobile-money-pin": "eSewa पिन"},
        S=["{k}: {v}", "नबिर्सनु! {k} {v}", "{k} हो {v}"],
        B=[("appointment", "दाँतको डाक्टरकहाँ {d} मा {t} बजे"), ("shopping", "किन्नु: दूध, पाउरोटी, {n} वटा अण्डा"),
           ("travel", "पोखराको बस {d} मा {t} बजे"), ("finance", "बिजुलीको बिल {d} भित्र: रु {p}")],
        H=[("dress-code", "बिहेको ड्रेस कोड: दौरा सुरुवाल"), ("postal-code", "हजुरआमाको घरको पोस्टल कोड: {zip}")],
        T=["वाइफाइको पासवर्ड फेरेँ, पछि पठाउँछु", "आफ्नो पिन कसैलाई नभन्नुहोस्"],
        BL=_BL("फोन", "कोठा", "अर्डर नम्बर", "उडान", "राहदानी"),
        D="शून्य एक दुई तीन चार पाँच छ सात आठ नौ", names=["आमा", "बुबा", "हजुरआमा"],
        PWW=["himal", "Sagarmatha", "momo", "Bhote", "kathmandu"], rev=None, VP=None, VB=None),
    "th": dict(
        name="Thai", cc="66", df="slash", card="บัตร", nd=0x0E50,
        L=_L("รหัสบัตร ATM", "รหัสปลดล็อกมือถือ", "รหัสประตู", "รหัสสัญญาณกันขโมย",
             "รหัสไวไฟ", "รหัสผ่านอีเมล", "รหัสตู้เซฟ", "รหัสประตูรั้ว"),
        X={"app-pin": "รหัสแอปธนาคาร"},
        S=["{k}: {v}", "อย่าลืมนะ! {k} {v}", "{k} คือ {v} (จาก{n1})", "{k}ใหม่ → {v}"],
        B=[("appointment", "นัดหมอฟัน {d} เวลา {t}"), ("shopping", "ซื้อ: นม ขนมปัง ไข่ {n} ฟอง"),
           ("travel", "บินไปเชียงใหม่ {d} เวลา {t}"), ("health", "ไข้ 38.{dig} กินพาราทุก 6 ชม."),
           ("recipe", "ต้มยำกุ้ง: กุ้ง {n}00 กรัม ตะไคร้ ข่า ใบมะกรูด"), ("finance", "จ่ายค่าไฟก่อน {d}: {p} บาท")],
        H=[("dress-code", "การแต่งกายงานแต่ง: ธีมสีพาสเทล"), ("postal-code", "รหัสไปรษณีย์บ้านยาย: {zip}"),
           ("rolling-pin", "ไม้นวดแป้งอยู่ลิ้นชักที่สอง")],
        T=["เปลี่ยนรหัสไวไฟแล้ว เดี๋ยวส่งให้", "อย่าบอกรหัส ATM กับใครเด็ดขาด", "รหัสประตูใหม่จะได้วันจันทร์"],
        BL=_BL("โทร", "ห้อง", "เลขที่คำสั่งซื้อ", "เที่ยวบิน", "พาสปอร์ต"),
        D="ศูนย์ หนึ่ง สอง สาม สี่ ห้า หก เจ็ด แปด เก้า", names=["แม่", "พ่อ", "ยาย"],
        PWW=["somtam", "Bangkok", "maew", "Noina", "chang"], rev="อ่านกลับหลัง",
        VP=["API key ของ {svc}:"], VB=["commit hash ของ release:"]),
    "vi": dict(
        name="Vietnamese", cc="84", df="slash", card="thẻ",
        L=_L("mã PIN thẻ ATM", "mã khóa điện thoại", "mã cửa", "mã báo động",
             "mật khẩu wifi", "mật khẩu email", "mã két sắt", "mã cổng"),
        X={"app-pin": "mã PIN app ngân hàng", "otp-code": "mã OTP"},
        S=["{k}: {v}", "Đừng quên nha! {k} {v}", "{k} là {v} ({n1} nhắn)", "{k} mới → {v}"],
        B=[("appointment", "Hẹn nha sĩ {d} lúc {t}"), ("shopping", "Đi chợ: sữa, bánh mì, {n} quả trứng, rau muống"),
           ("travel", "Bay ra Hà Nội {d} lúc {t}"), ("health", "Sốt 38,{dig} độ, uống hạ sốt mỗi 6 tiếng"),
           ("recipe", "Phở: xương bò, {n} củ hành, quế, hồi"), ("finance", "Đóng tiền điện trước {d}: {p}.000đ")],
        H=[("dress-code", "Dress code đám cưới: áo dài"), ("postal-code", "Mã bưu chính nhà ngoại: {vn_zip}"),
           ("rolling-pin", "Cây cán bột ở ngăn kéo thứ hai")],
        T=["Mình đổi mật khẩu wifi rồi, lát gửi", "Không bao giờ đưa mã PIN cho ai", "Mã cửa mới thứ Hai mới có"],
        BL=_BL("SĐT", "phòng", "mã đơn hàng", "chuyến bay", "hộ chiếu"),
        D="không một hai ba bốn năm sáu bảy tám chín", names=["mẹ", "ba", "bà ngoại"],
        PWW=["anhyeuem", "Saigon", "conmeo", "Bong", "hanoi"], rev="đọc ngược",
        VP=["key API của {svc} nè:"], VB=["hash commit của bản release:"]),
    "id": dict(
        name="Indonesian", cc="62", df="slash", card="kartu",
        L=_L("PIN ATM", "PIN HP", "kode pintu", "kode alarm",
             "password wifi", "password email", "kode brankas", "kode pagar"),
        X={"mobile-money-pin": "PIN GoPay", "app-pin": "PIN m-banking"},
        S=["{k}: {v}", "Jangan lupa ya! {k} {v}", "{k} = {v} (dari {n1})", "{k} baru → {v}"],
        B=[("appointment", "Ke dokter gigi {d} jam {t}"), ("shopping", "Belanja: susu, roti, {n} butir telur, cabe"),
           ("travel", "Pesawat ke Bali {d} jam {t}"), ("health", "Demam 38,{dig}, paracetamol tiap 6 jam"),
           ("recipe", "Nasi goreng: {n} piring nasi, bawang merah, kecap"), ("finance", "Bayar listrik sebelum {d}: Rp{p}.000")],
        H=[("dress-code", "Dress code kondangan: batik"), ("postal-code", "Kode pos rumah nenek: {zip}"),
           ("rolling-pin", "Gilingan adonan di laci kedua")],
        T=["Password wifi udah aku ganti, nanti aku kirim", "Jangan pernah kasih PIN ke siapa pun",
           "Kode pintu baru keluar hari Senin"],
        BL=_BL("HP", "kamar", "no. pesanan", "penerbangan", "paspor"),
        D="nol satu dua tiga empat lima enam tujuh delapan sembilan", names=["Mama", "Papa", "Nenek"],
        PWW=["sayang", "Garuda", "bakso", "Kucing", "jakarta"], rev="dibalik",
        VP=["ini API key {svc}:"], VB=["hash commit rilis:"]),
    "ms": dict(
        name="Malay", cc="60", df="slash", card="kad",
        L=_L("PIN kad ATM", "PIN telefon", "kod pintu", "kod penggera",
             "kata laluan wifi", "kata laluan emel", "kod peti besi", "kod pagar"),
        X={"otp-code": "kod TAC"},
        S=["{k}: {v}", "Jangan lupa! {k} {v}", "{k} ialah {v}", "{k} baru → {v}"],
        B=[("appointment", "Temujanji doktor gigi {d} pukul {t}"), ("shopping", "Beli: susu, roti, {n} biji telur, santan"),
           ("travel", "Penerbangan ke Kuching {d} pukul {t}"), ("health", "Demam 38.{dig}, panadol setiap 6 jam"),
           ("recipe", "Nasi lemak: beras, santan, {n} helai daun pandan"), ("finance", "Bayar bil elektrik sebelum {d}: RM{p}")],
        H=[("dress-code", "Kod pakaian majlis kahwin: baju Melayu"), ("postal-code", "Poskod rumah nenek: {zip}"),
           ("rolling-pin", "Penggelek doh dalam laci kedua")],
        T=["Saya dah tukar kata laluan wifi, nanti saya hantar", "Jangan sesekali kongsi PIN anda",
           "Kod pintu baru keluar hari Isnin"],
        BL=_BL("tel", "bilik", "no. pesanan", "penerbangan", "pasport"),
        D="kosong satu dua tiga empat lima enam tujuh lapan sembilan", names=["Mak", "Abah", "Nenek"],
        PWW=["sayang", "Harimau", "durian", "Comel", "malaysia"], rev="terbalik", VP=None, VB=None),
    "tl": dict(
        name="Tagalog", cc="63", df="slash", card="card",
        L=_L("PIN ng ATM", "PIN ng cellphone", "code ng pinto", "code ng alarm",
             "password ng wifi", "password ng email", "code ng vault", "code ng gate"),
        X={"mobile-money-pin": "MPIN ng GCash"},
        S=["{k}: {v}", "Wag kalimutan! {k} {v}", "{k} ay {v} (sabi ni {n1})", "bagong {k} → {v}"],
        B=[("appointment", "Dentista sa {d}, {t}"), ("shopping", "Bibilhin: gatas, tinapay, {n} itlog, bigas"),
           ("travel", "Flight papuntang Cebu {d}, {t}"), ("health", "Lagnat 38.{dig}, biogesic tuwing 6 oras"),
           ("recipe", "Adobo: 1 kilo manok, toyo, suka, {n} butil ng bawang"), ("finance", "Bayaran ang Meralco bago {d}: ₱{p}")],
        H=[("dress-code", "Dress code sa kasal: Filipiniana"), ("postal-code", "Zip code ni Lola: {nozip}"),
           ("rolling-pin", "Rolling pin nasa pangalawang drawer")],
        T=["Pinalitan ko na password ng wifi, send ko mamaya", "Huwag ibigay ang PIN kahit kanino",
           "Bagong code ng gate sa Lunes pa"],
        BL=_BL("cp", "kwarto", "order no.", "flight", "pasaporte"),
        D="sero isa dalawa tatlo apat lima anim pito walo siyam", names=["Nanay", "Tatay", "Lola"],
        PWW=["mahal", "Pinoy", "adobo", "Bunso", "manila"], rev="baligtad", VP=None, VB=None),
    "sw": dict(
        name="Swahili", cc="254", df="slash", card="kadi",
        L=_L("PIN ya kadi ya benki", "PIN ya simu", "namba ya siri ya mlango", "namba ya alarm",
             "nenosiri la wifi", "nenosiri la barua pepe", "namba ya sefu", "namba ya geti"),
        X={"mobile-money-pin": "PIN ya M-Pesa"},
        S=["{k}: {v}", "Usisahau! {k} {v}", "{k} ni {v}", "{k} mpya → {v}"],
        B=[("appointment", "Miadi ya daktari wa meno {d} saa {t}"), ("shopping", "Kununua: maziwa, mkate, mayai {n}, sukari"),
           ("travel", "Basi la kwenda Mombasa {d} saa {t}"), ("health", "Homa 38.{dig}, panadol kila saa 6"),
           ("recipe", "Pilau: kilo {n} ya mchele, nyama, viungo"), ("finance", "Kulipa kodi kabla ya {d}: KSh {p}")],
        H=[("dress-code", "Kanuni ya mavazi harusini: rasmi"), ("postal-code", "Msimbo wa posta wa bibi: {zip}"),
           ("recipe-secret", "Siri ya pilau ya bibi ni mdalasini")],
        T=["Nimebadilisha nenosiri la wifi, nitakutumia baadaye", "Usimwambie mtu yeyote PIN yako",
           "Namba mpya ya geti itakuja Jumatatu"],
        BL=_BL("simu", "chumba", "namba ya oda", "ndege", "pasipoti"),
        D="sifuri moja mbili tatu nne tano sita saba nane tisa", names=["Mama", "Baba", "Bibi"],
        PWW=["simba", "Nairobi", "rafiki", "Jambo", "tembo"], rev="kinyume", VP=None, VB=None),
    "am": dict(
        name="Amharic", cc="251", df="slash", card="ካርድ",
        L=_L("የኤቲኤም ፒን", "የስልክ ፒን", "የበር ኮድ", "የአላርም ኮድ",
             "የዋይፋይ ፓስዎርድ", "የኢሜይል ፓስዎርድ", "የካዝና ኮድ", "የግቢ በር ኮድ"),
        X={"mobile-money-pin": "የቴሌብር ፒን"},
        S=["{k}: {v}", "እንዳትረሳ! {k} {v}", "{k} {v} ነው"],
        B=[("appointment", "የጥርስ ሐኪም ቀጠሮ {d} በ{t}"), ("shopping", "የሚገዙ: ወተት፣ ዳቦ፣ {n} እንቁላል"),
           ("travel", "ወደ ባሕር ዳር በረራ {d} በ{t}"), ("finance", "የመብራት ክፍያ እስከ {d}: {p} ብር")],
        H=[("dress-code", "የሠርግ አለባበስ: ሀበሻ ቀሚስ"), ("postal-code", "የፖስታ ሣጥን ቁጥር: {n3}")],
        T=["የዋይፋይ ፓስዎርዱን ቀየርኩት፣ በኋላ እልክልሃለሁ", "ፒንህን ለማንም አትንገር"],
        BL=_BL("ስልክ", "ክፍል", "የትዕዛዝ ቁጥር", "በረራ", "ፓስፖርት"),
        D="ዜሮ አንድ ሁለት ሶስት አራት አምስት ስድስት ሰባት ስምንት ዘጠኝ", names=["እማዬ", "አባዬ", "አያቴ"],
        PWW=["abebe", "Selam", "buna", "Habesha", "addis"], rev=None, VP=None, VB=None),
    "zh": dict(
        name="Chinese (Simplified)", cc="86", df="cjk", card="卡", DJ="",
        L=_L("银行卡密码", "手机锁屏密码", "门禁密码", "报警器密码",
             "WiFi密码", "邮箱密码", "保险柜密码", "小区大门密码"),
        X={"payment-pin": "支付宝支付密码", "app-pin": "微信支付密码", "otp-code": "短信验证码"},
        S=["{k}：{v}", "别忘了！{k} {v}", "{k}是{v}（{n1}发的）", "新的{k} → {v}"],
        B=[("appointment", "{d} {t} 看牙医"), ("shopping", "要买：牛奶、面包、{n}个鸡蛋、青菜"),
           ("travel", "{d} {t} 去上海的高铁，{n}号车厢"), ("health", "发烧38.{dig}度，布洛芬每6小时一次"),
           ("recipe", "番茄炒蛋：{n}个鸡蛋，两个番茄，少许糖"), ("finance", "{d}前交电费：{p}元"),
           ("school", "{d} 家长会，{t} 开始")],
        H=[("dress-code", "婚礼着装要求：正装"), ("postal-code", "奶奶家的邮编：{rozip}"),
           ("rolling-pin", "擀面杖在第二个抽屉"), ("secret-santa", "公司的秘密圣诞老人活动：预算{p}元")],
        T=["WiFi密码我改了，晚点发你", "银行卡密码千万不要告诉任何人", "新的门禁密码周一才发"],
        BL=_BL("电话", "房间", "订单号", "航班", "护照"),
        D="零 一 二 三 四 五 六 七 八 九", names=["妈", "爸", "奶奶"],
        PWW=["woaini", "zhangwei", "Xiaobao", "wangxin", "Tiantian"], rev="倒过来",
        VP=["{svc} 的 API 密钥：", "生产环境的 {svc} key，别提交到仓库："], VB=["发布版本的提交哈希：", "{svc} 订单号："]),
    "yue": dict(
        name="Cantonese (Traditional)", cc="852", df="cjk", card="卡", DJ="",
        L=_L("提款卡密碼", "手機密碼", "大廈閘門密碼", "警報器密碼",
             "WiFi密碼", "電郵密碼", "夾萬密碼", "閘口密碼"),
        X={},
        S=["{k}：{v}", "唔好唔記得！{k} {v}", "{k}係{v}（{n1}話嘅）", "新{k} → {v}"],
        B=[("appointment", "{d} {t} 睇牙醫"), ("shopping", "要買：牛奶、麵包、{n}隻雞蛋、菜心"),
           ("travel", "{d} {t} 飛台北"), ("health", "發燒38.{dig}度，每6個鐘食一次必理痛"),
           ("recipe", "番茄炒蛋：{n}隻蛋，兩個番茄"), ("finance", "{d}前交電費：${p}")],
        H=[("dress-code", "婚禮衣著要求：正裝"), ("rolling-pin", "擀麵棍喺第二格櫃桶"),
           ("secret-santa", "公司聖誕交換禮物：預算${p}")],
        T=["WiFi密碼我改咗，遲啲send俾你", "千祈唔好話俾人知你嘅密碼", "新嘅閘門密碼星期一先有"],
        BL=_BL("電話", "房", "訂單編號", "航班", "護照"),
        D="零 一 二 三 四 五 六 七 八 九", names=["媽咪", "爹哋", "嫲嫲"],
        PWW=["hongkong", "Ahbo", "lovely", "Kaka", "dimsum"], rev=None, VP=None, VB=None),
    "ja": dict(
        name="Japanese", cc="81", df="cjk", card="カード", DJ="、",
        L=_L("キャッシュカードの暗証番号", "スマホのパスコード", "オートロックの番号", "警報装置の暗証番号",
             "Wi-Fiのパスワード", "メールのパスワード", "金庫の番号", "門の暗証番号"),
        X={"locker-code": "ロッカーの暗証番号", "parcel-locker": "宅配ボックスの暗証番号"},
        S=["{k}：{v}", "忘れないように！{k} {v}", "{k}は{v}（{n1}から）", "新しい{k} → {v}"],
        B=[("appointment", "{d} {t} 歯医者"), ("shopping", "買うもの：牛乳、パン、卵{n}個、ネギ"),
           ("travel", "{d} {t} 新幹線で大阪へ、{n}号車"), ("health", "熱38.{dig}度、カロナール6時間おき"),
           ("recipe", "肉じゃが：じゃがいも{n}個、牛肉200g、玉ねぎ"), ("finance", "{d}までに電気代：{p}円")],
        H=[("dress-code", "結婚式のドレスコード：フォーマル"), ("postal-code", "おばあちゃんの郵便番号：〒{jpzip}"),
           ("rolling-pin", "めん棒は二段目の引き出し"), ("bowling-pins", "ボウリングで{n}番ピンが残った")],
        T=["Wi-Fiのパスワード変えたよ、あとで送るね", "暗証番号は絶対に人に教えないこと", "新しいオートロック番号は月曜に届く"],
        BL=_BL("電話", "部屋", "注文番号", "便", "パスポート"),
        D="ゼロ いち に さん よん ご ろく なな はち きゅう", names=["お母さん", "お父さん", "おばあちゃん"],
        PWW=["sakura", "Pochi", "tanaka", "Totoro", "yuki"], rev="逆から",
        VP=["{svc}のAPIキーです：", "本番用の{svc}キー、コミットしないで："], VB=["リリースのコミットハッシュ：", "{svc}の注文番号："]),
    "ko": dict(
        name="Korean", cc="82", df="ko", card="카드",
        L=_L("카드 비밀번호", "휴대폰 잠금 비번", "현관 비밀번호", "경보기 비밀번호",
             "와이파이 비번", "이메일 비밀번호", "금고 비밀번호", "공동현관 비번"),
        X={"app-pin": "간편비밀번호", "otp-code": "인증번호"},
        S=["{k}: {v}", "잊지 마! {k} {v}", "{n1}: {k} {v} 이야", "{k} → {v}"],
        B=[("appointment", "{d} {t} 치과 예약"), ("shopping", "살 것: 우유, 빵, 계란 {n}개, 대파"),
           ("travel", "{d} {t} 부산 가는 KTX, {n}호차"), ("health", "열 38.{dig}도, 타이레놀 6시간마다"),
           ("recipe", "김치찌개: 김치 반 포기, 돼지고기 {n}00g, 두부"), ("finance", "{d}까지 관리비 {p}원 납부")],
        H=[("dress-code", "결혼식 드레스 코드: 세미 정장"), ("postal-code", "할머니 댁 우편번호: {zip}"),
           ("rolling-pin", "밀대는 두 번째 서랍에"), ("bowling-pins", "볼링 {n}번 핀 스페어 처리!")],
        T=["와이파이 비번 바꿨어, 이따 보내줄게", "카드 비밀번호는 절대 남에게 알려주지 마세요", "새 현관 비번은 월요일에 나온대"],
        BL=_BL("전화", "방", "주문번호", "항공편", "여권"),
        D="공 일 이 삼 사 오 육 칠 팔 구", names=["엄마", "아빠", "할머니"],
        PWW=["saranghae", "Dubu", "seoul", "Kkami", "haneul"], rev="거꾸로",
        VP=["{svc} API 키 보내요:", "운영 {svc} 키니까 커밋하지 마세요:"], VB=["릴리스 커밋 해시:"]),
    "ka": dict(
        name="Georgian", cc="995", df="dot", card="ბარათი",
        L=_L("ბარათის პინი", "ტელეფონის პინი", "სადარბაზოს კოდი", "სიგნალიზაციის კოდი",
             "ვაიფაის პაროლი", "მეილის პაროლი", "სეიფის კოდი", "ჭიშკრის კოდი"),
        X={},
        S=["{k}: {v}", "არ დამავიწყდეს! {k} {v}", "{k} არის {v}"],
        B=[("appointment", "სტომატოლოგთან {d}, {t}"), ("shopping", "საყიდელი: რძე, პური, {n} კვერცხი, ყველი"),
           ("travel", "ბათუმის მატარებელი {d}, {t}"), ("health", "სიცხე 38,{dig}, პარაცეტამოლი ყოველ 6 საათში"),
           ("recipe", "ხინკალი: 1 კგ ფარში, {n} თავი ხახვი"), ("finance", "ქირის გადახდა {d}-მდე: {p} ლარი")],
        H=[("dress-code", "ქორწილის დრეს-კოდი: საღამოს"), ("postal-code", "ბებიას საფოსტო ინდექსი: {nozip}")],
        T=["ვაიფაის პაროლი შევცვალე, მერე გამოგიგზავნი", "პინ კოდი არავის უთხრა"],
        BL=_BL("ტელ.", "ოთახი", "შეკვეთა №", "რეისი", "პასპორტი"),
        D="ნული ერთი ორი სამი ოთხი ხუთი ექვსი შვიდი რვა ცხრა", names=["დედა", "მამა", "ბებია"],
        PWW=["tbilisi", "Sakartvelo", "gogona", "Dato", "khachapuri"], rev=None, VP=None, VB=None),
    "hy": dict(
        name="Armenian", cc="374", df="dot", card="քարտ",
        L=_L("քարտի PIN կոդը", "հեռախոսի PIN-ը", "մուտքի կոդը", "ահազանգի կոդը",
             "wifi-ի գաղտնաբառը", "մեյլի գաղտնաբառը", "սեյֆի կոդը", "դարպասի կոդը"),
        X={},
        S=["{k}: {v}", "Չմոռանամ! {k} {v}", "{k} — {v}"],
        B=[("appointment", "Ատամնաբույժ {d}, ժամը {t}"), ("shopping", "Գնել՝ կաթ, հաց, {n} ձու, պանիր"),
           ("travel", "Թռիչք Մոսկվա {d}, ժամը {t}"), ("health", "Ջերմություն 38,{dig}, պարացետամոլ 6 ժամը մեկ"),
           ("finance", "Վարձը վճարել մինչև {d}՝ {p} դրամ")],
        H=[("dress-code", "Հարսանիքի դրես-կոդ՝ պաշտոնական"), ("postal-code", "Տատիկի փոստային ինդեքսը՝ {nozip}")],
        T=["Wifi-ի գաղտնաբառը փոխեցի, հետո կուղարկեմ", "Երբեք ոչ մեկին մի ասա PIN կոդդ"],
        BL=_BL("հեռ.", "սենյակ", "պատվեր №", "չվերթ", "անձնագիր"),
        D="զրո մեկ երկու երեք չորս հինգ վեց յոթ ութ ինը", names=["մամա", "պապա", "տատիկ"],
        PWW=["yerevan", "Ararat", "sirun", "Aram", "garun"], rev=None, VP=None, VB=None),
}
LANG_CODES = list(LANGS.keys())
for _c in LANG_CODES:
    LANGS[_c].setdefault("DJ", " ")
    LANGS[_c].setdefault("nd", None)


# ---------------------------------------------------------------- English material
EN_PWW = ["sunshine", "Biscuit", "tulip", "arsenal", "dragon", "Poppy", "maple", "Liverpool", "kitkat",
          "bluebird", "Harbour", "pumpkin", "Rosie", "thunder", "coffee", "Willow", "mango", "Ziggy"]

EN_LABELS = {
    "card-pin": ["card PIN", "bank card pin", "debit card PIN", "PIN for the Visa", "cashpoint pin"],
    "phone-pin": ["phone passcode", "phone pin", "iPad passcode", "screen lock code"],
    "door-code": ["front door code", "door code", "building code", "entry code", "main door keypad"],
    "gate-code": ["gate code", "side gate code", "estate gate code"],
    "alarm-code": ["alarm code", "burglar alarm code", "alarm disarm code"],
    "garage-code": ["garage code", "garage keypad code"],
    "safe-code": ["safe code", "safe combo", "hotel safe code"],
    "locker-code": ["locker combo", "locker code", "gym locker code"],
    "keybox-code": ["key box code", "keysafe code", "lockbox code"],
    "bike-lock": ["bike lock combo", "bike lock code"],
    "wifi-password": ["wifi password", "wifi pw", "WiFi key", "wi-fi pass", "wifi code"],
    "email-password": ["email password", "gmail password", "hotmail pw"],
    "account-password": ["amazon password", "apple ID password", "PayPal password", "laptop password", "eBay pw"],
    "sim-puk": ["PUK", "SIM PUK code"],
    "voicemail-pin": ["voicemail PIN", "answerphone code"],
    "app-pin": ["banking app PIN", "Monzo PIN", "Revolut passcode"],
    "parcel-locker": ["parcel locker code", "Amazon locker pickup code"],
}
EN_KIND_VAL = {
    "card-pin": lambda: pin(4), "phone-pin": lambda: pin(ch([4, 6, 6])), "door-code": door_code,
    "gate-code": door_code, "alarm-code": lambda: pin(ch([4, 4, 5, 6])), "garage-code": lambda: pin(4),
    "safe-code": lambda: wpick([(2, pin(4)), (1, pin(6)), (1, combo())]), "locker-code": lambda: pin(ch([3, 4])),
    "keybox-code": lambda: pin(4), "bike-lock": lambda: pin(ch([3, 4, 4, 5])),
    "wifi-password": lambda: wifi_pw(EN_PWW), "email-password": lambda: human_pw(EN_PWW),
    "account-password": lambda: human_pw(EN_PWW), "sim-puk": puk, "voicemail-pin": lambda: pin(4),
    "app-pin": lambda: pin(ch([4, 6])), "parcel-locker": lambda: pin(6),
}
DIGIT_KINDS = ["card-pin", "phone-pin", "alarm-code", "garage-code", "locker-code", "keybox-code",
               "bike-lock", "voicemail-pin", "app-pin", "parcel-locker", "sim-puk"]

# fully written English personal-secret lines (kind, template).  Upper-case
# placeholders are filled by EN_PH generators at render time.
EN_SEC = [
    ("card-pin", "bank card pin {PIN4}"), ("card-pin", "Barclays debit PIN = {PIN4} (old one got blocked)"),
    ("card-pin", "PIN for the joint account card: {PIN4}. dont write it on the card lol"),
    ("card-pin", "new credit card came, pin is {PIN4}"), ("card-pin", "Nana's bank card — PIN {PIN4}, she asked me to keep it for her"),
    ("card-pin", "cashpoint pin for the Halifax card {PIN4}"),
    ("phone-pin", "phone unlock code {PIN6}"), ("phone-pin", "Mum's iPhone passcode is {PIN6}, she keeps forgetting it"),
    ("phone-pin", "work phone screen lock: {PIN4}"), ("phone-pin", "Lily's tablet passcode {PIN4} (parental controls pin is the same)"),
    ("sim-puk", "SIM PIN {PIN4} / PUK {PUK}"), ("sim-puk", "if the sim locks again the PUK is {PUK}"),
    ("app-pin", "banking app passcode {PIN6}"), ("app-pin", "Revolut pin {PIN4}"), ("app-pin", "Monzo app PIN — {PIN4}"),
    ("voicemail-pin", "voicemail pin is {PIN4}, dial 121 then #"), ("voicemail-pin", "landline answerphone remote access code: {PIN4}"),
    ("mobile-money-pin", "M-Pesa PIN {PIN4} — don't tell the shop guy again"), ("mobile-money-pin", "GCash MPIN {PIN4} (Tita's account)"),
    ("upi-pin", "UPI PIN for GPay (HDFC a/c) {PIN6}"), ("upi-pin", "PhonePe UPI pin {PIN4}"),
    ("door-code", "front door code {DOOR}"), ("door-code", "building entry code: {DOOR} then the key symbol"),
    ("door-code", "Airbnb in Lisbon — door code {DOOR}, check-in from 3pm"), ("door-code", "office side door keypad {DOOR} (after 7pm)"),
    ("door-code", "Uni library after-hours door: {DOOR}"), ("door-code", "cottage back door keypad {DOOR}, wiggle the handle"),
    ("gate-code", "gate code at Grandma's {DOOR}"), ("gate-code", "community gate #{PIN4}"), ("gate-code", "allotment gate padlock {COMBO}"),
    ("gate-code", "school car park barrier code {PIN4}"),
    ("alarm-code", "alarm code {PIN4} — you have 30 sec after opening the door"), ("alarm-code", "House alarm: disarm {PIN4} then OFF"),
    ("alarm-code", "shop alarm for closing shift {PIN4}"), ("alarm-code", "church hall alarm code is {PIN4}, panel is behind the coats"),
    ("garage-code", "garage keypad {PIN4}"), ("garage-code", "garage door opener code {PIN6}"),
    ("safe-code", "hotel safe, the code I set: {PIN4}"), ("safe-code", "safe combo {COMBO}"),
    ("safe-code", "Dad's gun safe combination: {COMBO}"), ("safe-code", "office petty cash safe {PIN6}"),
    ("locker-code", "gym locker {N3} combo {PIN4}"), ("locker-code", "school locker combination {COMBO}"),
    ("locker-code", "swimming pool locker code {PIN4} (locker 88)"),
    ("keybox-code", "key box by the back door, code {PIN4}"), ("keybox-code", "keysafe for Mum's carers: {PIN4}"),
    ("keybox-code", "cabin key lockbox {PIN4} — it's on the left of the porch"),
    ("bike-lock", "bike lock combo {PIN4}"), ("bike-lock", "combination for the blue bike lock = {PIN4}"),
    ("parcel-locker", "parcel locker pickup code {PIN6}, locker bank outside Tesco"), ("parcel-locker", "Amazon locker code: {PIN6}"),
    ("wifi-password", "wifi: {SSID} / {WIFI}"), ("wifi-password", "wifi pasword is {WIFI} (capital first letter)"),
    ("wifi-password", "guest wifi pw {WIFI}"), ("wifi-password", "neighbour's wifi lol: {SSID} pw {WIFI}"),
    ("wifi-password", "cottage wifi {SSID} — password {WIFI}"), ("wifi-password", "Office WiFi pass: {WIFI}"),
    ("wifi-password", "grandparents' wifi is {SSID}, key {WIFI} (it's on the router but the sticker's faded)"),
    ("email-password", "gmail pw {PW}"), ("email-password", "email {EMAIL} password {PW}"),
    ("email-password", "work email login: {EMAIL} // {PW}"), ("email-password", "Dad's email: {EMAIL}  pass: {PW}"),
    ("account-password", "amazon password {PW}"), ("account-password", "apple id password is {PW}"),
    ("account-password", "insurance portal login — user {USER} pass {PW}"), ("account-password", "council tax site pw {PW}"),
    ("account-password", "PlayStation acct {EMAIL} / {PW}"), ("account-password", "new laptop login password {PW}"),
    ("account-password", "router admin page 192.168.1.1 — admin / {PW}"), ("account-password", "NHS app password {PW}"),
    ("account-password", "Tesco clubcard login {EMAIL} pw {PW}"),
    ("streaming-login", "netflix: {EMAIL} / {PW} (family account, DON'T change it!!)"),
    ("streaming-login", "Disney+ login for the kids {EMAIL} pw {PW}"), ("streaming-login", "Spotify family: {EMAIL} {PW}"),
    ("streaming-login", "Sky Go user {USER} password {PW}"), ("streaming-login", "HBO login from Uncle Ray: {EMAIL} / {PW}"),
    ("streaming-login", "Prime Video shared with the Hendersons — {EMAIL}, {PW}"),
    ("one-time-code", "code from the bank text: {PIN6}, use within 5 min"),
    ("one-time-code", "verification code {PIN6} (whatsapp, for Mum's new phone)"),
    ("one-time-code", "login code for the tax portal: {PIN6}"), ("one-time-code", "Steam Guard code {STEAMGUARD}"),
    ("backup-codes", "google backup codes:\n{BACKUP}"), ("backup-codes", "Instagram recovery codes {BACKUP1L}"),
    ("backup-codes", "GitHub recovery codes (personal acct) {BACKUP1L}"),
    ("totp-seed", "authenticator secret for work VPN: {TOTP}"),
    ("totp-seed", "otpauth://totp/{ISSUER}:{EMAIL}?secret={TOTP}&issuer={ISSUER}"),
    ("totp-seed", "2FA setup key (if I lose my phone): {TOTPSP}"),
    ("seed-phrase", "wallet recovery words: {SEED12}"), ("seed-phrase", "metamask seed {SEED12}"),
    ("seed-phrase", "Ledger 24 words (keep offline!!) {SEED24}"), ("seed-phrase", "trust wallet phrase - {SEED12}"),
    ("wallet-key", "btc paper wallet private key {WIF}"), ("wallet-key", "eth wallet private key 0x{HEX64}"),
    ("card-details", "{CARDLINE}"), ("card-details", "card for subscriptions: {CARDLINE}"),
    ("card-details", "Jen's card for the booking — {CARDLINE}"), ("card-details", "company card (use for travel only) {CARDLINE}"),
    ("gift-card", "Amazon gift card claim code {AMZGC}"), ("gift-card", "Steam wallet code from Gran {STEAM}"),
    ("gift-card", "Google Play card {GPLAY} — for Leo's birthday, don't redeem yet"), ("gift-card", "Apple gift card code {APPLEGC}"),
    ("gift-card", "PSN voucher {PSN}"),
    ("meeting-passcode", "Zoom with the school: ID {ZOOMID}, passcode {ZPASS}"),
    ("meeting-passcode", "Teams meeting ID {TEAMSID} Passcode: {ZPASS}"),
    ("meeting-passcode", "Webex meeting number {ZOOMID} password {ZPASS}"),
    ("meeting-passcode", "board call — zoom {ZOOMID} pw {ZPASS}"),
    ("security-answer", "security question 'first pet' answer: {PET}"),
    ("security-answer", "mother's maiden name for the bank (security q): {SURNAME}"),
    ("security-answer", "memorable word for the building society: {MEMWORD}"),
    ("security-answer", "bank security answers — first school: {SCHOOL}, fav teacher: Mr {SURNAME}"),
    ("security-answer", "Nationwide memorable data: {MEMWORD}{N2}"),
]

EN_FAM = ["Mum", "Dad", "Nan", "Grandad", "Auntie Jo", "Uncle Ray", "Sophie", "Tom", "Kez", "Bro", "Sis", "Priya", "Ade"]
EN_REPLIES = ["thx 👍", "got it", "❤️", "ok will do", "ta", "👍👍", "saved", "who changed it??", "cheers x", "🙏"]
EN_FILLER = ["bins out Tuesday", "call the plumber re: leak", "buy birthday card for Sue", "return library books",
             "water the tomatoes", "book MOT", "pay back Jess £20", "pick up dry cleaning", "Leo: football kit Wed",
             "order more printer ink", "text Mike about Saturday", "renew parking permit", "defrost the freezer",
             "cancel the gym trial", "dentist reminder card on fridge", "buy stamps", "check tyre pressure"]

EN_BEN = [
    ("health", "Dr. {SURNAME} said keep taking amoxicillin 500mg 3x a day for {n} more days"),
    ("health", "BP this morning {BP}, pulse {PULSE}"), ("health", "HbA1c came back {A1C}% — better than March"),
    ("health", "Cholesterol: total {CHOL} mmol/L, LDL {LDL}. Recheck in 6 months"),
    ("health", "Ferritin {FERR} ng/mL, vit D {VITD} nmol/L → start 1000 IU daily"),
    ("health", "Emma's inhaler: 2 puffs of salbutamol when needed, max 8 a day"),
    ("health", "Physio exercises: {n} reps x 3 sets, twice a day"), ("health", "Allergic to penicillin — tell the new GP!"),
    ("health", "Ran {KM} km in {MIN} min, knee felt ok"), ("health", "Weight {KG} kg, target 72"),
    ("health", "fasting blood sugar {GLU} mg/dL, eGFR {EGFR}"), ("health", "Levothyroxine 75mcg every morning, 30 min before coffee"),
    ("health", "Calpol 5ml every 4-6 hrs for Mia (max 4 doses), temp was 38.{dig}"),
    ("family", "Grandma's 80th on the {DAY}th — she wants the lemon cake"), ("family", "Kids' shoe sizes: Mia {SHOE}, Leo {SHOE}"),
    ("family", "Tom's parents arrive Friday {t}, pick up from the station"), ("family", "Jake's teacher is Ms. {SURNAME}, parents evening {d}"),
    ("family", "Baby weighed {BABYKG} kg at the check, length {BABYCM} cm"), ("family", "Anniversary dinner booked at Rosa's, {t}, table for 2"),
    ("travel", "Flight {FLIGHT} departs {t} from Terminal {n}, seat {SEAT}"), ("travel", "Train to Edinburgh {d}, coach {COACH}, seat {N2}"),
    ("travel", "Rental car: grey Corolla, plate {PLATE}"), ("travel", "Passport expires {d} — renew before the Japan trip"),
    ("travel", "Bus {BUS} from the corner, every 12 min"), ("travel", "Hotel check-in after 3pm, room {ROOM}, breakfast 7-10"),
    ("travel", "Ferry to Santander {d}, cabin {N3}, car deck 5"),
    ("work", "Standup moved to {t}"), ("work", "Q3 budget: £{BIG}k, headcount 4"), ("work", "Ask Priya about the {PROJ} deck before Thursday"),
    ("work", "Performance review {d} {t}"), ("work", "Office room {ROOM}, 4th floor, desk {N2}"), ("work", "Timesheet due Friday, {n} hrs overtime"),
    ("shopping", "Buy: oat milk, eggs x{n}, bin bags, AA batteries"), ("shopping", "Paint for hallway: Farrow & Ball No. {N3}"),
    ("shopping", "IKEA Kallax 4x4, white, aisle {N2} bin {n}"), ("shopping", "Bed frame is {CM} x {CM} cm, mattress 150 x 200"),
    ("shopping", "Black Friday: TV was £{P}, now £{P2}"),
    ("finance", "Council tax £{P} due on the 1st"), ("finance", "Paid Jack back £{N2} for the concert"),
    ("finance", "Mortgage rate {RATE}% fixed until 2027"), ("finance", "Electric meter reading {METER}"),
    ("finance", "Pension contribution 5% + employer 3%"), ("finance", "Split the holiday cottage: £{BIG} / 4 each"),
    ("recipe", "Banana bread: 3 bananas, 250g flour, 100g butter, 180°C for {n}5 min"),
    ("recipe", "Pizza dough: 500g flour, 325ml water, 10g salt, 7g yeast"), ("recipe", "Grandma's soup: {n} carrots, 2 leeks, barley"),
    ("recipe", "Flapjacks: 250g oats, 125g butter, 125g sugar, 3 tbsp golden syrup, {n}0 min at 180"),
    ("school", "Maths test on {d}: fractions + decimals"), ("school", "School trip £{N2}, form back by Friday"),
    ("school", "Science fair: volcano, needs {n} tbsp baking soda"), ("school", "Spelling words: necessary, rhythm, separate, because"),
    ("school", "Parents evening {d}, slots {t} and {t}"),
    ("pets", "Biscuit's vet appt {d} at {t}, bring vaccination card"), ("pets", "Dog food: {n}00 g twice a day"),
    ("pets", "Cat flea treatment due on the {DAY}th"), ("pets", "Fish tank pH {PH}, ammonia 0, nitrite 0"),
    ("pets", "Rabbit hutch clean every {n} days"),
    ("appointment", "Haircut {d} {t} with Sam"), ("appointment", "Boiler service booked {d} between 8-12"),
    ("appointment", "MOT due {d}"), ("appointment", "Dentist {d} {t}"), ("appointment", "Eye test {d} at {t}, Specsavers"),
]

# homonyms / look-alike vocabulary (family, template)
EN_HOM = [
    ("dress-code", "Dress code for Saturday: black tie, no jeans"), ("dress-code", "office dress code is smart casual from Monday"),
    ("zip-code", "Aunt May's zip code is {ZIP}"), ("postal-code", "Postcode for the new office: {UKPC}"),
    ("area-code", "landline area code is 0{N3}{dig} — need it for the form"), ("country-code", "country code for Kenya is +254"),
    ("pin-code-postal", "Delhi office PIN code {INPIN} (postal)"), ("rolling-pin", "rolling pin is in the second drawer"),
    ("bowling-pins", "knocked down {n} pins in the first frame 🎳"), ("safety-pins", "buy safety pins + hair pins for the costume"),
    ("piano-keys", "piano has 88 keys; practise C major then G major"), ("car-keys", "spare car keys in the blue bowl by the door"),
    ("answer-key", "answer key for the worksheet is on page {N2}"), ("keyboard-shortcut", "keyboard shortcut: Ctrl+Shift+T reopens the tab"),
    ("key-lime", "key lime pie for Sunday: 4 limes, condensed milk"), ("key-points", "key points from the meeting: hire 2, cut costs"),
    ("seed-funding", "the startup closed its seed round: $1.{dig}M"), ("seeds", "tomato seeds sown {d}, {n} trays"),
    ("token-gesture", "it was a token gesture, we sent flowers"), ("arcade-tokens", "kids have {n} arcade tokens left"),
    ("pass-rate", "exam pass rate this year {PCT}%"), ("mountain-pass", "the mountain pass closes in November"),
    ("bus-pass", "bus pass renewal £{N2}"), ("boarding-pass", "boarding pass is in the phone wallet"),
    ("secret-santa", "Secret Santa: I got Dave, £{N2} limit"), ("trade-secret", "their sauce recipe is a trade secret, apparently"),
    ("error-code", "dishwasher error code E{n}4 = drain blocked"), ("error-code", "boiler showing F{N2} — ignition fault, call engineer"),
    ("qr-code", "QR code on the menu links to allergens"), ("morse-code", "Morse code homework: SOS is ...---..."),
    ("code-of-conduct", "read the club's code of conduct before the match"), ("source-code", "the source code review is on Thursday"),
    ("sort-code", "landlord's bank: sort code {SORT}, account {ACC}"), ("swift-code", "for the transfer they need the SWIFT/BIC {BIC}"),
    ("combination", "best combination: dark chocolate + sea salt"), ("lock-screen", "changed the lock screen wallpaper to the beach photo"),
    ("locked-price", "locked in the energy price at {RATE}p per kWh"), ("credentials", "her credentials: PhD in chemistry, 10 yrs at Pfizer"),
    ("access", "wheelchair access is via the side door"), ("secret-ingredient", "secret ingredient: a pinch of nutmeg"),
    ("passcode-riddle", "kids' riddle: what has keys but can't open locks? a piano"), ("password-film", "watched 'The Password' documentary, 7/10"),
    ("pin-board", "pin the school calendar on the cork board"), ("pin-location", "dropped a pin at the car park so we find the car"),
    ("wifi-speed", "wifi speed test: {N2}0 Mbps down, {N2} up"), ("wifi-network", "the cafe's wifi network is called BeanThere_Guest"),
]

EN_TALK = [
    "changed the wifi password, will text it later", "new door code comes Monday", "never share your PIN — the bank will never ask for it",
    "remind me to reset my Netflix password", "password for the router is on the sticker underneath",
    "Dad forgot his email password again, reset link sent to his phone", "enable 2FA on Instagram this weekend",
    "the alarm code is in the envelope in the kitchen drawer", "ask Sarah for the gate code when we arrive",
    "bank says the new card PIN comes by post separately, 5 working days", "switched password manager from LastPass to Bitwarden",
    "IT says passwords must be 14 characters now, ugh", "locker code changes every term, check the school email",
    "don't text the wifi password to the group chat, tell people in person", "the Airbnb host will send the door code on the day",
    "Mum wants help changing her phone PIN on Sunday", "the garage code needs resetting, manual is in the box",
    "set up a recovery email for Gran's account", "write down the new safe combo somewhere safe (not here!)",
    "PIN blocked after 3 tries — go to the branch with ID", "Netflix says someone in Lisbon logged in?? change pw",
    "turned on passkeys for Google, no more password there", "the one-time code never arrived, try again tomorrow",
    "school says never put your child's login on social media", "got a scam text asking for my M-Pesa PIN — ignored it",
]

EN_FRAMES = ["Note:", "Note to self:", "Remember:", "📌", "📝", "!!", "memo —", "saved from chat:", "(from phone notes)", "⭐",
             "for later:", "FYI", "reminder:", "keep this:", "➡️", "todo/info:"]
SYM_FRAMES = ["📌", "📝", "⭐", "➡️", "✅", "🔖", "🗒️", "•", "—", "!!", "#note", "✍️"]


# ---------------------------------------------------------------- rendering helpers
EN_MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
EN_DOW = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def date_str(lang="en"):
    d, m = R.randint(1, 28), R.randint(1, 12)
    y = ch([2024, 2025, 2025, 2026])
    df = LANGS[lang]["df"] if lang in LANGS else "en"
    if df == "slash":
        return f"{d}/{m:02d}" if chance(0.6) else f"{d:02d}/{m:02d}/{y}"
    if df == "dot":
        return f"{d:02d}.{m:02d}." if chance(0.6) else f"{d:02d}.{m:02d}.{y}"
    if df == "dash":
        return f"{d}-{m}" if chance(0.6) else f"{d:02d}-{m:02d}-{y}"
    if df == "iso":
        return f"{y}-{m:02d}-{d:02d}"
    if df == "hu":
        return f"{m:02d}. {d:02d}."
    if df == "cjk":
        return f"{m}月{d}日"
    if df == "ko":
        return f"{m}월 {d}일"
    return wpick([(2, f"{ch(EN_DOW)} {d} {EN_MON[m - 1]}"), (1, f"{d}/{m:02d}"), (1, f"{m}/{d}"), (1, f"{d} {EN_MON[m - 1]}")])


def time_str(lang="en"):
    h, mi = R.randint(7, 21), ch([0, 0, 15, 30, 45, 10, 20, 40, 50])
    if lang == "en" and chance(0.5):
        hh = h if h <= 12 else h - 12
        return f"{hh}:{mi:02d}{'am' if h < 12 else 'pm'}" if mi else f"{hh}{'am' if h < 12 else 'pm'}"
    return f"{h}:{mi:02d}" if chance(0.5) else f"{h:02d}:{mi:02d}"


def price(lang="en"):
    v = R.randint(12, 480) * {"ja": 100, "ko": 1000}.get(lang, 1)
    if chance(0.3):
        sep = "." if lang in ("en", "zh", "ja", "ko", "th", "ms", "tl", "he", "hi") else ","
        return f"{v}{sep}{R.randint(0, 99):02d}"
    return str(v)


def uk_postcode():
    return f"{ch(['SW', 'NW', 'E', 'N', 'SE', 'M', 'B', 'LS', 'BS', 'EH', 'G', 'CF', 'OX'])}{R.randint(1, 19)} {R.randint(1, 9)}{rs('ABDEFGHJLNPQRSTUWXYZ', 2)}"


def uk_mobile():
    d = digs(6)
    return f"07{R.randint(300, 999)} {d[:3]} {d[3:]}"


def intl_phone(cc):
    n = digs(9, True)
    return f"+{cc} {n[:3]} {n[3:6]} {n[6:]}" if chance(0.5) else f"+{cc} {n[:2]} {n[2:5]} {n[5:7]} {n[7:]}"


def flight_no():
    return ch(["BA", "LH", "AF", "IB", "KL", "TK", "EK", "QR", "SQ", "NH", "JL", "KE", "CA", "AI", "ET", "KQ", "LA", "AZ",
               "SK", "AY", "LO", "OS", "W6", "FR", "U2", "VY", "PC", "SU", "PS", "VN", "GA", "MH", "PR", "TG"]) + str(R.randint(10, 2999))


def passport_no():
    return wpick([(2, digs(9, True)), (2, rs(UP, 2) + digs(7)), (1, rs(UP, 1) + digs(8)), (1, rs(CLEAR, 9))])


PH = {
    "n": lambda L: str(R.randint(2, 12)), "dig": lambda L: str(R.randint(0, 9)), "d": date_str, "t": time_str,
    "p": price, "n3": lambda L: digs(3, True), "yr": lambda L: str(R.randint(1940, 2020)),
    "zip": lambda L: digs(5, True), "nlzip": lambda L: f"{digs(4, True)} {rs(UP, 2)}", "sezip": lambda L: f"{digs(3, True)} {digs(2)}",
    "plzip": lambda L: f"{digs(2)}-{digs(3)}", "cszip": lambda L: f"{digs(3, True)} {digs(2)}", "rozip": lambda L: digs(6, True),
    "jpzip": lambda L: f"{digs(3, True)}-{digs(4)}", "cep": lambda L: f"{digs(5, True)}-{digs(3)}",
    "in_pin": lambda L: str(R.randint(1, 8)) + digs(5), "isr_zip": lambda L: digs(7, True), "fa_zip": lambda L: digs(10, True),
    "vn_zip": lambda L: digs(6, True), "nozip": lambda L: digs(4, True), "is_zip": lambda L: digs(3, True),
    # English upper-case placeholders
    "PIN4": lambda L: pin(4), "PIN6": lambda L: pin(6), "PUK": lambda L: puk(), "DOOR": lambda L: door_code(),
    "COMBO": lambda L: combo(), "N3": lambda L: digs(3, True), "N2": lambda L: str(R.randint(10, 99)),
    "SSID": lambda L: ssid(EN_PWW), "WIFI": lambda L: wifi_pw(EN_PWW), "PW": lambda L: human_pw(EN_PWW),
    "EMAIL": lambda L: email(), "USER": lambda L: username(), "STEAMGUARD": lambda L: rs(CLEAR, 5),
    "BACKUP": lambda L: "\n".join(backup_codes()), "BACKUP1L": lambda L: " ".join(backup_codes()),
    "TOTP": lambda L: totp_seed(), "TOTPSP": lambda L: spaced4(totp_seed(32).lower()),
    "ISSUER": lambda L: ch(["Google", "GitHub", "Microsoft", "Okta", "Dropbox", "Binance", "Coinbase", "AWS", "Proton"]),
    "SEED12": lambda L: seed_phrase(12), "SEED24": lambda L: seed_phrase(24), "WIF": lambda L: wif_key(),
    "HEX64": lambda L: rs(HX, 64), "CARDLINE": lambda L: card_line("en"),
    "AMZGC": lambda L: gift_code("amazon"), "STEAM": lambda L: gift_code("steam"), "GPLAY": lambda L: gift_code("play"),
    "APPLEGC": lambda L: gift_code("apple"), "PSN": lambda L: gift_code("psn"), "ZOOMID": lambda L: zoom_id(),
    "ZPASS": lambda L: meeting_pass(), "TEAMSID": lambda L: " ".join(digs(3, True) for _ in range(4)),
    "PET": lambda L: ch(PETS), "SURNAME": lambda L: ch(SURNAMES), "MEMWORD": lambda L: ch(MEMWORDS), "SCHOOL": lambda L: ch(SCHOOLS),
    "BP": lambda L: f"{R.randint(108, 152)}/{R.randint(64, 96)}", "PULSE": lambda L: str(R.randint(52, 96)),
    "A1C": lambda L: f"{R.randint(5, 8)}.{R.randint(0, 9)}", "CHOL": lambda L: f"{R.randint(3, 7)}.{R.randint(0, 9)}",
    "LDL": lambda L: f"{R.randint(1, 4)}.{R.randint(0, 9)}", "FERR": lambda L: str(R.randint(8, 240)),
    "VITD": lambda L: str(R.randint(18, 110)), "KM": lambda L: f"{R.randint(3, 21)}.{R.randint(0, 9)}",
    "MIN": lambda L: str(R.randint(18, 130)), "KG": lambda L: f"{R.randint(52, 110)}.{R.randint(0, 9)}",
    "GLU": lambda L: str(R.randint(78, 140)), "EGFR": lambda L: str(R.randint(55, 110)), "DAY": lambda L: str(R.randint(4, 28)),
    "SHOE": lambda L: ch(["10", "11", "12", "13", "1", "2", "3", "4", "5", "9.5", "12.5", "EU 31", "EU 34"]),
    "BABYKG": lambda L: f"{R.randint(3, 11)}.{R.randint(0, 9)}", "BABYCM": lambda L: str(R.randint(50, 82)),
    "FLIGHT": lambda L: flight_no(), "SEAT": lambda L: f"{R.randint(1, 42)}{ch('ABCDEF')}",
    "COACH": lambda L: ch("ABCDEFGHJKLM"), "PLATE": lambda L: f"{rs(UP, 2)}{R.randint(51, 74)} {rs(UP, 3)}",
    "BUS": lambda L: str(R.randint(1, 399)), "ROOM": lambda L: str(R.randint(101, 940)), "BIG": lambda L: str(R.randint(12, 480)),
    "PROJ": lambda L: ch(["Atlas", "Nimbus", "Harbour", "Falcon", "Q3 roadmap", "pricing"]), "CM": lambda L: str(R.randint(60, 220)),
    "P": lambda L: str(R.randint(199, 1299)), "P2": lambda L: str(R.randint(99, 899)),
    "RATE": lambda L: f"{R.randint(1, 6)}.{R.randint(0, 99):02d}", "METER": lambda L: digs(5, True),
    "PH": lambda L: f"{R.randint(6, 8)}.{R.randint(0, 9)}", "ZIP": lambda L: digs(5, True), "UKPC": lambda L: uk_postcode(),
    "INPIN": lambda L: "11" + digs(4), "PCT": lambda L: str(R.randint(52, 97)),
    "SORT": lambda L: f"{digs(2, True)}-{digs(2)}-{digs(2)}", "ACC": lambda L: digs(8, True),
    "BIC": lambda L: rs(UP, 4) + ch(["GB", "DE", "FR", "NL", "ES"]) + rs(UP + DI, 2),
}
_PH_RE = re.compile(r"\{([A-Za-z_0-9]+)\}")


def fill(tpl, lang="en", ctx=None):
    def rep(m):
        key = m.group(1)
        if ctx and key in ctx:
            return ctx[key]
        if key == "n1":
            return ch(LANGS[lang]["names"]) if lang in LANGS else ch(EN_FAM)
        if key == "svc":
            raise KeyError("svc needs ctx")
        return PH[key](lang)
    return _PH_RE.sub(rep, tpl)


def card_line(lang):
    brand, num, exp, cvv = make_card(lang)
    sec = "CID" if brand == "Amex" and chance(0.5) else ch(["CVV", "cvv", "CVC", "security code", "cvv2"])
    return wpick([(3, f"{brand} {card_fmt(num)} exp {exp} {sec} {cvv}"),
                  (2, f"{card_fmt(num)} {exp} {cvv}"),
                  (1, f"{num} | {exp} | {cvv}"),
                  (1, f"{brand} {card_fmt(num)}, expires {exp}, {sec}: {cvv}")])


def card_fields(lang, labels=("card", "exp", "cvv")):
    brand, num, exp, cvv = make_card(lang)
    holder = (ch(FIRST) + " " + ch(LAST)).upper()
    return [("brand", brand), (labels[0], card_fmt(num)), (labels[1], exp), (labels[2], cvv), ("name", holder)]


# ---- digit systems
def to_native(s, zero):
    return "".join(chr(zero + int(c)) if c.isdigit() and c.isascii() else c for c in s)


SUPERS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
CIRCLED = "⓪①②③④⑤⑥⑦⑧⑨"
DIGIT_SYSTEMS = [("fullwidth", 0xFF10), ("math-bold", 0x1D7CE), ("double-struck", 0x1D7D8), ("monospace", 0x1D7F6),
                 ("sans-bold", 0x1D7EC), ("arabic-indic", 0x0660), ("persian", 0x06F0), ("devanagari", 0x0966),
                 ("bengali", 0x09E6), ("thai", 0x0E50), ("khmer", 0x17E0), ("myanmar", 0x1040), ("lao", 0x0ED0),
                 ("tibetan", 0x0F20), ("gujarati", 0x0AE6), ("gurmukhi", 0x0A66), ("telugu", 0x0C66), ("kannada", 0x0CE6),
                 ("malayalam", 0x0D66), ("odia", 0x0B66), ("tamil", 0x0BE6), ("mongolian", 0x1810), ("nko", 0x07C0)]


def to_system(s, name):
    if name == "superscript":
        return "".join(SUPERS[int(c)] if c.isdigit() else c for c in s)
    if name == "circled":
        return "".join(CIRCLED[int(c)] if c.isdigit() else c for c in s)
    zero = dict(DIGIT_SYSTEMS)[name]
    return to_native(s, zero)


def keycap(s):
    return "".join(c + "\ufe0f\u20e3" if c.isdigit() else c for c in s)


EN_DIG = "zero one two three four five six seven eight nine".split()
EN_TEENS = "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
HINGLISH_DIG = "zero ek do teen char paanch chhe saat aath nau".split()


def en_num(n):
    if n < 10:
        return EN_DIG[n]
    if n < 20:
        return EN_TEENS[n - 10]
    t, u = divmod(n, 10)
    return EN_TENS[t] + ("-" + EN_DIG[u] if u else "")


def say_digits(code, lang, sep=None):
    words = (LANGS[lang]["D"].split() if lang in LANGS else EN_DIG) if lang != "hi-Latn" else HINGLISH_DIG
    if sep is None:
        sep = LANGS[lang]["DJ"] if lang in LANGS else ch([" ", " ", "-", ", "])
    sym = {"#": "hash" if lang == "en" else "#", "*": "star" if lang == "en" else "*", "-": None}
    out = []
    for c in code:
        if c.isdigit():
            out.append(words[int(c)])
        elif c in sym:
            if sym[c]:
                out.append(sym[c])
        else:
            out.append(c)
    return sep.join(out)


def roman(n):
    vals = [(90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for v, s in vals:
        while n >= v:
            out += s
            n -= v
    return out


KEYPAD = {c: d for d, letters in [("2", "abc"), ("3", "def"), ("4", "ghi"), ("5", "jkl"), ("6", "mno"),
                                  ("7", "pqrs"), ("8", "tuv"), ("9", "wxyz")] for c in letters}
NATO = {"a": "Alfa", "b": "Bravo", "c": "Charlie", "d": "Delta", "e": "Echo", "f": "Foxtrot", "g": "Golf", "h": "Hotel",
        "i": "India", "j": "Juliett", "k": "Kilo", "l": "Lima", "m": "Mike", "n": "November", "o": "Oscar", "p": "Papa",
        "q": "Quebec", "r": "Romeo", "s": "Sierra", "t": "Tango", "u": "Uniform", "v": "Victor", "w": "Whiskey",
        "x": "X-ray", "y": "Yankee", "z": "Zulu"}
HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ", "j": "ј",
        "A": "А", "B": "В", "E": "Е", "K": "К", "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х"}


def homoglyph(s, p=0.7):
    out = "".join(HOMO[c] if c in HOMO and chance(p) else c for c in s)
    if out == s:
        for i, c in enumerate(s):
            if c in HOMO:
                return s[:i] + HOMO[c] + s[i + 1:]
    return out


def zw(s):
    return "\u200b".join(s)


def typo(s):
    """one human typo in a word of >=5 letters; never touches digits"""
    words = s.split(" ")
    idx = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    if not idx:
        return s
    i = ch(idx)
    w = words[i]
    j = R.randrange(1, len(w) - 1)
    op = R.randrange(3)
    if op == 0:
        w = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    elif op == 1:
        w = w[:j] + w[j + 1:]
    else:
        w = w[:j] + w[j] + w[j:]
    words[i] = w
    return " ".join(words)


def native_maybe(text, lang, p=0.25):
    nd = LANGS[lang]["nd"] if lang in LANGS else None
    if nd and chance(p):
        return to_native(text, nd), True
    return text, False


# ---------------------------------------------------------------- symmetric styles and wrapping
NEUTRAL_REPLIES = ["👍", "🙏", "❤️", "👌", "✅", "ok", "OK 👍", "😂", "🆗", "👀"]


def person(lang):
    return ch(EN_FAM) if lang == "en" else ch(LANGS[lang]["names"])


def style_lines(lines, lang, more_fn):
    """apply one human style to a list of content lines; identical for both labels.
    more_fn() returns one more content line of the SAME label and language."""
    ws = [(55, "plain"), (15, "chat"), (8, "voice"), (10, "forward")]
    if more_fn is not None:
        ws.append((12, "list"))
    st = wpick(ws)
    if st == "plain":
        return {"lines": lines}, st
    if st == "chat":
        who = person(lang)
        msgs = []
        for ln in lines:
            msgs.append({"from": who, "time": time_str("x"), "text": ln})
        if chance(0.7):
            who2 = person(lang)
            msgs.append({"from": who2 if who2 != who else "me", "time": time_str("x"),
                         "text": ch(EN_REPLIES) if lang == "en" else ch(NEUTRAL_REPLIES)})
        return {"msgs": msgs}, st
    if st == "voice":
        text = " ".join(lines)
        m, s = R.randint(0, 2), R.randint(3, 59)
        if lang == "en":
            text = ch(["ok so, um, ", "right, ", "note to self, uh, ", "so ", "erm, ", ""]) + text[:1].lower() + text[1:] \
                + ch(["", " ...", " — ok, that's it", ". yeah.", " [inaudible]"])
        else:
            text = ch(["… ", "", "(…) "]) + text + ch(["", " …", " (…)"])
        head = ch([f"[voice memo {m}:{s:02d}]", f"🎙️ transcript ({m}:{s:02d})", f"Voice note {m}:{s:02d} —", "[transcribed]"])
        return {"lines": [head + " " + text]}, st
    if st == "forward":
        who = person(lang)
        if lang == "en":
            head = ch([f"Fwd from {who}:", f"---------- Forwarded message ---------\nFrom: {who}", f"forwarded from {who} 👇",
                       f"{who} sent this:"])
        else:
            head = ch([f"Fwd: {who}", f"↪ {who}:", f"---------- Forwarded message ---------\nFrom: {who}", f"» {who}:"])
        body = "\n".join(lines)
        return {"lines": [head, ch(['"', "“", "> ", ""]) + body + ch(['"', "”", "", ""])]}, st
    # list
    items = list(lines)
    for _ in range(R.randint(1, 2)):
        items.append(more_fn())
    R.shuffle(items)
    bullet = ch(["- ", "• ", "* ", "", "▫️ "])
    numbered = chance(0.25)
    out = []
    head = ch(["info", "house stuff", "misc", "to remember", "for the sitter", "holiday notes", "", "", "list"]) if lang == "en" \
        else ch(["", "", "🗒️", "📋", "✔", "—"])
    if head:
        out.append(head)
    for i, it in enumerate(items, 1):
        out.append((f"{i}. " if numbered else bullet) + it)
    return {"lines": out}, st


def filler_line(lang):
    if lang == "en":
        return ch(EN_FILLER) if chance(0.6) else fill(ch(EN_BEN)[1], "en")
    return fill(ch(LANGS[lang]["B"])[1], lang)


def wrap(core, lang):
    """frames, date prefixes, filler lines, digests: same rates for both labels.
    only line-cores are wrapped; returns (core, wrap_tag)"""
    if "lines" not in core:
        return core, "none"
    lines = list(core["lines"])
    w = wpick([(52, "none"), (14, "frame"), (12, "date"), (12, "filler"), (10, "digest")])
    if w == "frame":
        fr = ch(EN_FRAMES) if lang == "en" else ch(SYM_FRAMES + EN_FRAMES[:3])
        if chance(0.5) and len(lines) == 1:
            lines = [fr + " " + lines[0]]
        else:
            lines = [fr] + lines
    elif w == "date":
        ds = wpick([(2, date_str(lang)), (1, f"{ch([2024, 2025])}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"),
                    (1, date_str(lang) + " " + time_str(lang))])
        if chance(0.5):
            lines = [ds + ch([": ", " — ", " | ", " "]) + lines[0]] + lines[1:]
        else:
            lines = [ds] + lines
    elif w == "filler":
        f = filler_line(lang)
        if chance(0.5):
            lines = [f] + lines
        else:
            lines = lines + [f]
        if chance(0.3):
            lines.append(filler_line(lang))
    elif w == "digest":
        items = [" / ".join(l for l in lines if l.strip())]
        for _ in range(R.randint(2, 3)):
            items.append(filler_line(lang))
        R.shuffle(items)
        head = ch(["Saved notes:", "Digest:", "🗒️ Notes", "Memories (3):", "Summary of today's notes", "Recent notes"])
        lines = [head] + [f"{i}. {it}" for i, it in enumerate(items, 1)]
    return {"lines": lines}, w


# ---------------------------------------------------------------- shapes
TEXT_KEYS = ["text", "note", "content", "memo", "body", "message"]
SOURCES = ["chat", "voice", "manual", "import", "email", "sms", "notes-app"]
TAGS = ["personal", "family", "misc", "todo", "home", "travel", "work", "inbox", "later"]


def meta_date():
    return f"{ch([2023, 2024, 2025])}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def render(core, shape, lang):
    if "fields" in core:
        f = core["fields"]
        if shape == "string":
            fmt = R.randrange(4)
            if fmt == 0:
                return "\n".join(f"{k}: {v}" for k, v in f)
            if fmt == 1:
                return "; ".join(f"{k}: {v}" for k, v in f)
            if fmt == 2:
                return "\n".join(f"{k} = {v}" for k, v in f)
            return " | ".join(f"{k} {v}" for k, v in f)
        if shape == "array":
            return [f"{k}: {v}" for k, v in f]
        obj = {}
        for k, v in f:
            kk = k
            while kk in obj:
                kk += "_2"
            obj[kk] = v
        if chance(0.3):
            obj[ch(["updated", "saved", "added"])] = meta_date()
        return obj
    if "msgs" in core:
        ms = core["msgs"]
        if shape == "string":
            fmt = R.randrange(3)
            if fmt == 0:
                return "\n".join(f"[{m['time']}] {m['from']}: {m['text']}" for m in ms)
            if fmt == 1:
                return "\n".join(f"{m['from']}: {m['text']}" for m in ms)
            return "\n".join(f"{m['from']} ({m['time']}): {m['text']}" for m in ms)
        if shape == "array":
            return [f"{m['from']}: {m['text']}" for m in ms]
        key = ch(["messages", "chat", "thread"])
        obj = {key: [dict(m) for m in ms]}
        if chance(0.4):
            obj["group"] = ch(["Family 🏡", "Home", "The Smiths", "Cousins", "Flatmates", "Work", "WhatsApp"]) \
                if lang == "en" else ch(["👨‍👩‍👧", "🏡", "Family", "WhatsApp", "Telegram", "LINE", "KakaoTalk", "WeChat"])
        return obj
    lines = core["lines"]
    if shape == "string":
        return "\n".join(lines)
    if shape == "array":
        if len(lines) > 1:
            return list(lines)
        return wpick([(2, [lines[0]]), (1, [meta_date(), lines[0]]), (1, [lines[0], "#" + ch(TAGS)])])
    obj = {ch(TEXT_KEYS): "\n".join(lines)}
    extra = R.randrange(5)
    if extra == 1:
        obj["source"] = ch(SOURCES)
    elif extra == 2:
        obj["created"] = meta_date()
    elif extra == 3:
        obj["tags"] = sample(TAGS, R.randint(1, 2))
    elif extra == 4:
        obj["lang"] = lang if lang != "hi-Latn" else "hi"
    return obj


# ---------------------------------------------------------------- payload generators (plain)
def lang_kind_value(kind, lang):
    P = LANGS[lang]["PWW"] if lang in LANGS else EN_PWW
    if kind == "card-pin":
        return pin(6) if lang in ("zh", "yue") else pin(4)
    if kind in ("phone-pin", "app-pin", "upi-pin"):
        return pin(ch([4, 6]))
    if kind in ("door-code", "gate-code"):
        return door_code()
    if kind == "alarm-code":
        return pin(ch([4, 4, 5, 6]))
    if kind == "wifi-password":
        return wifi_pw(P)
    if kind == "email-password":
        return human_pw(P) if chance(0.7) else f"{email()} / {human_pw(P)}"
    if kind == "safe-code":
        return wpick([(2, pin(4)), (1, pin(6)), (1, combo())])
    if kind in ("garage-code", "keybox-code", "locker-code"):
        return pin(4)
    if kind == "bike-lock":
        return pin(ch([3, 4]))
    if kind in ("parcel-locker", "otp-code", "payment-pin"):
        return pin(6)
    if kind == "sim-puk":
        return puk()
    if kind == "mobile-money-pin":
        return pin(ch([4, 4, 5, 6]))
    raise KeyError(kind)


def lang_kinds(lang):
    Ld = LANGS[lang]
    pairs = [(3, k) for k in K8] + [(2, k) for k in Ld["X"]]
    return pairs


def lang_label(kind, lang):
    Ld = LANGS[lang]
    return Ld["L"][kind] if kind in Ld["L"] else Ld["X"][kind]


def is_codey(v):
    return all(c.isdigit() or c in "#*- ✓C" for c in v)


def sep_join(k, v, lang):
    s = ch([": ", " - ", " = ", " → ", " "]) if lang not in ("zh", "yue", "ja") else ch(["：", " ", "：", " → "])
    return f"{k}{s}{v}"


def secret_line_lang(lang):
    """(kind, line) of one personal secret in a non-English language"""
    kind = wpick(lang_kinds(lang))
    k, v = lang_label(kind, lang), lang_kind_value(kind, lang)
    tpl = ch(LANGS[lang]["S"])
    if is_codey(v):
        line, _ = native_maybe(fill(tpl, lang, {"k": k, "v": v}), lang)
    else:
        t2, _ = native_maybe(fill(tpl, lang, {"k": k, "v": "\x00"}), lang)
        line = t2.replace("\x00", v)
    return kind, line


def benign_line_lang(lang):
    topic, tpl = ch(LANGS[lang]["B"])
    line, _ = native_maybe(fill(tpl, lang), lang)
    return topic, line


def lower_text(tpl):
    """lower-case a template but not its {PLACEHOLDERS}"""
    parts = re.split(r"(\{[A-Za-z_0-9]+\})", tpl)
    return "".join(p if p.startswith("{") and p.endswith("}") else p.lower() for p in parts)


def secret_line_en():
    if chance(0.75):
        kind, tpl = ch(EN_SEC)
        if chance(0.12):
            tpl = typo(tpl)
        if chance(0.15):
            tpl = lower_text(tpl)
        return kind, fill(tpl, "en")
    kind = ch(list(EN_LABELS.keys()))
    lab = ch(EN_LABELS[kind])
    if chance(0.12):
        lab = typo(lab)
    v = EN_KIND_VAL[kind]()
    return kind, wpick([(3, f"{lab}: {v}"), (2, f"{lab} {v}"), (1, f"{lab} = {v}"), (1, f"{lab} is {v}"),
                        (1, f"{v} <- {lab}"), (1, f"{lab.upper()} {v}")])


EN_BLAB = [("room", lambda: PH["ROOM"]("en")), ("seat", lambda: PH["SEAT"]("en")), ("flight", flight_no),
           ("table", lambda: str(R.randint(1, 40))), ("platform", lambda: str(R.randint(1, 16))),
           ("bus", lambda: PH["BUS"]("en")), ("parking space", lambda: ch(UP[:8]) + str(R.randint(1, 120))),
           ("locker no.", lambda: digs(3, True)), ("shoe size", lambda: PH["SHOE"]("en")),
           ("bib number", lambda: digs(4, True)), ("pew", lambda: str(R.randint(1, 30))),
           ("gate", lambda: ch("ABCDE") + str(R.randint(1, 60))), ("car park level", lambda: str(R.randint(-2, 6))),
           ("house number", lambda: str(R.randint(1, 240))), ("ward", lambda: str(R.randint(1, 30)) + ch("ABC")),
           ("tee time", lambda: time_str("en")), ("cabin", lambda: digs(4, True))]


def benign_line_en():
    if chance(0.8):
        topic, tpl = ch(EN_BEN)
        if chance(0.12):
            tpl = typo(tpl)
        if chance(0.15):
            tpl = lower_text(tpl)
        return topic, fill(tpl, "en")
    lab, fn = ch(EN_BLAB)
    v = fn()
    return "everyday-number", wpick([(3, f"{lab}: {v}"), (2, f"{lab} {v}"), (1, f"{lab} = {v}"), (1, f"{lab} is {v}"),
                                     (1, f"{v} <- {lab}"), (1, f"{lab.upper()} {v}")])


def secret_line(lang):
    return secret_line_en() if lang == "en" else secret_line_lang(lang)


def benign_line(lang):
    return benign_line_en() if lang == "en" else benign_line_lang(lang)


# --- payload modes, mirrored between labels
MODE_W = [(56, "template"), (14, "kindline"), (5, "echo"), (12, "fields"), (8, "card"), (6, "brand")]


def brand_secret(lang):
    P = LANGS[lang]["PWW"]
    k = R.randrange(8)
    if k == 0:
        return "streaming-login", ch(["Netflix", "Spotify", "Disney+", "YouTube Premium", "Max"]), f"{email()} / {human_pw(P)}"
    if k == 1:
        return "meeting-passcode", ch(["Zoom", "Zoom", "Teams", "Google Meet PIN"]), f"ID {zoom_id()} · passcode {meeting_pass()}"
    if k == 2:
        g = ch(["amazon", "steam", "play", "apple", "psn"])
        return "gift-card", {"amazon": "Amazon gift card", "steam": "Steam", "play": "Google Play", "apple": "Apple Gift Card",
                             "psn": "PlayStation"}[g], gift_code(g)
    if k == 3:
        return "seed-phrase", ch(["MetaMask seed", "Trust Wallet", "seed phrase"]), seed_phrase(12)
    if k == 4:
        return "totp-seed", ch(["Google Authenticator key", "2FA secret", "Authenticator"]), spaced4(totp_seed(32).lower())
    if k == 5:
        return "email-password", ch(["Gmail", "Outlook", "iCloud"]), f"{email()} / {human_pw(P)}"
    if k == 6:
        return "one-time-code", ch(["WhatsApp code", "Telegram code", "Instagram code"]), f"{digs(3)}-{digs(3)}" if chance(0.5) else digs(5)
    return "backup-codes", ch(["Google backup codes", "Instagram backup codes"]), " ".join(backup_codes(6))


def brand_benign(lang):
    k = R.randrange(8)
    if k == 0:
        return ch(["Netflix", "Spotify", "Disney+", "YouTube Premium"]), f"{price(lang)} /" + ch(["mes", "month", "mois", "Monat", "月", "월"])
    if k == 1:
        return ch(["Zoom", "Teams", "Google Meet"]), f"{date_str(lang)} {time_str(lang)}"
    if k == 2:
        return "Amazon", f"#{digs(3, True)}-{digs(7)}-{digs(7)}"
    if k == 3:
        return "Steam", f"{ch(['Stardew Valley', 'Minecraft', 'FIFA', 'Portal 2'])} {price(lang)}"
    if k == 4:
        return ch(["Gmail", "Outlook", "iCloud"]), email()
    if k == 5:
        return "WhatsApp", intl_phone(LANGS[lang]["cc"])
    if k == 6:
        return "Instagram", "@" + username()
    return "Google Maps", f"{R.uniform(-40, 60):.5f}, {R.uniform(-120, 140):.5f}"

EN_SITES = ["Netflix", "Amazon", "eBay", "Gmail", "Outlook", "PayPal", "Etsy", "Vinted", "Deliveroo", "Octopus Energy",
            "HMRC", "Nectar", "Ocado", "Trainline", "Booking.com", "Zoopla", "Ryanair", "Argos"]


def personal_secret_payload(lang):
    mode = wpick(MODE_W)
    if lang == "en" and mode == "brand":
        mode = "template"
    if mode == "brand":
        kind, k, v = brand_secret(lang)
        return kind, {"lines": [fill(ch(LANGS[lang]["S"]), lang, {"k": k, "v": v})]}, mode
    if lang == "en":
        if mode == "template" or mode == "kindline":
            kind, line = secret_line_en()
            return kind, {"lines": [line]}, mode
        if mode == "echo":
            kind = ch(DIGIT_KINDS)
            lab, v = ch(EN_LABELS[kind]), EN_KIND_VAL[kind]()
            line = ch([f"the {lab} is {say_digits(v, 'en')}, so {v}", f"{lab}... {say_digits(v, 'en')}. {v}",
                       f"{lab}, that's {say_digits(v, 'en')} — {v}"])
            return kind, {"lines": [ch(["[voice memo]", "🎙️", "[transcribed]"]) + " " + line]}, mode
        if mode == "fields":
            f = R.randrange(4)
            if f == 0:
                site = ch(EN_SITES)
                return "account-password", {"fields": [("site", site), (ch(["login", "email", "user"]), email()),
                                                       (ch(["password", "pw", "pass"]), human_pw(EN_PWW))]}, mode
            if f == 1:
                return "wifi-password", {"fields": [("network", ssid(EN_PWW)), (ch(["password", "key"]), wifi_pw(EN_PWW))]}, mode
            if f == 2:
                return "house-sitter-codes", {"fields": [("address", f"{R.randint(1, 200)} {ch(['Elm', 'Mill', 'Church', 'Park', 'Station'])} "
                                                                    f"{ch(['Road', 'Lane', 'Street', 'Close'])}, {uk_postcode()}"),
                                                         ("alarm code", pin(4)), ("key safe", pin(4)),
                                                         ("wifi", wifi_pw(EN_PWW)), ("vet", uk_mobile())]}, mode
            return "card-pin", {"fields": [("bank", ch(["Halifax", "Barclays", "Lloyds", "Monzo", "Nationwide", "HSBC"])),
                                           ("card", "debit, ends " + digs(4)), ("PIN", pin(4))]}, mode
        # card
        if chance(0.5):
            return "card-details", {"fields": card_fields("en")}, mode
        return "card-details", {"lines": [card_line("en") + ch(["", " (Mum's)", " — for the deposit", " use for Amazon only"])]}, mode
    # other languages
    Ld = LANGS[lang]
    if mode in ("template", "kindline"):
        if mode == "template":
            kind, line = secret_line_lang(lang)
        else:
            kind = wpick(lang_kinds(lang))
            line = sep_join(lang_label(kind, lang), lang_kind_value(kind, lang), lang)
        return kind, {"lines": [line]}, mode
    if mode == "echo":
        kind = ch([k for k in ["card-pin", "phone-pin", "alarm-code", "safe-code"]])
        v = pin(4) if kind != "card-pin" else lang_kind_value(kind, lang)
        return kind, {"lines": [f"🎙️ {lang_label(kind, lang)}: {say_digits(v, lang)} ({v})"]}, mode
    if mode == "fields":
        ks = sample([k for _, k in lang_kinds(lang)], 2)
        return ks[0], {"fields": [(lang_label(k, lang), lang_kind_value(k, lang)) for k in ks]}, mode
    brand, num, exp, cvv = make_card(lang)
    return "card-details", {"lines": [f"{Ld['card']}: {brand} {card_fmt(num)} {exp} CVV {cvv}"]}, mode


def benign_plain_payload(lang):
    mode = wpick(MODE_W)
    if lang == "en" and mode == "brand":
        mode = "template"
    if mode == "brand":
        k, v = brand_benign(lang)
        return "note-apps", {"lines": [fill(ch(LANGS[lang]["S"]), lang, {"k": k, "v": v})]}, mode
    if lang == "en":
        if mode in ("template", "kindline"):
            topic, line = benign_line_en() if mode == "template" else ("everyday-number", None)
            if line is None:
                lab, fn = ch(EN_BLAB)
                v = fn()
                line = wpick([(3, f"{lab}: {v}"), (2, f"{lab} {v}"), (1, f"{lab} = {v}"), (1, f"{lab} is {v}")])
            return "note-" + topic, {"lines": [line]}, mode
        if mode == "echo":
            lab, fn = ch([("room", lambda: PH["ROOM"]("en")), ("table", lambda: str(R.randint(10, 40))),
                          ("house number", lambda: str(R.randint(10, 240))), ("bus", lambda: str(R.randint(10, 399))),
                          ("platform", lambda: str(R.randint(1, 16)))])
            v = fn()
            line = ch([f"the {lab} is {say_digits(v, 'en')}, so {v}", f"{lab}... {say_digits(v, 'en')}. {v}",
                       f"{lab}, that's {say_digits(v, 'en')} — {v}"])
            return "note-everyday-number", {"lines": [ch(["[voice memo]", "🎙️", "[transcribed]"]) + " " + line]}, mode
        if mode == "fields":
            f = R.randrange(4)
            if f == 0:
                return "note-travel", {"fields": [("flight", flight_no()), ("date", date_str("en")), ("seat", PH["SEAT"]("en")),
                                                  ("terminal", str(R.randint(1, 5)))]}, mode
            if f == 1:
                return "note-pets", {"fields": [("pet", ch(PETS)), ("vet", f"Dr {ch(SURNAMES)}"), ("weight", PH["KG"]("en")[:3] + " kg"),
                                                ("next jab", date_str("en"))]}, mode
            if f == 2:
                return "note-shopping", {"fields": [("item", ch(["sofa", "desk", "wardrobe", "rug", "bookcase"])),
                                                    ("width", f"{R.randint(60, 240)} cm"), ("price", f"£{R.randint(49, 999)}"),
                                                    ("delivery", date_str("en"))]}, mode
            return "note-health", {"fields": [("medication", ch(["Metformin", "Amlodipine", "Sertraline", "Ramipril", "Atorvastatin"])),
                                              ("dose", f"{ch([5, 10, 20, 50, 500])} mg"), ("times", ch(["once daily", "twice daily", "with dinner"])),
                                              ("refill", date_str("en"))]}, mode
        return "note-travel", {"lines": [ch([
            f"Flight {flight_no()} {date_str('en')} {time_str('en')}, seat {PH['SEAT']('en')}, gate {ch('ABC')}{R.randint(1, 40)}",
            f"Hotel {ch(['Ibis', 'Premier Inn', 'Hilton', 'Travelodge'])} {date_str('en')}, room {PH['ROOM']('en')}, breakfast incl.",
            f"Train {time_str('en')} from platform {R.randint(1, 14)}, coach {ch('ABCDEFG')} seat {R.randint(1, 80)}"])]}, mode
    Ld = LANGS[lang]
    BL = Ld["BL"]

    def blv(x):
        if x == "room":
            return str(R.randint(101, 940))
        if x == "flight":
            return flight_no()
        if x == "order":
            return digs(ch([6, 8, 9]), True)
        if x == "phone":
            return intl_phone(Ld["cc"])
        return passport_no()
    if mode in ("template", "kindline"):
        if mode == "template":
            topic, line = benign_line_lang(lang)
        else:
            x = ch(["room", "flight", "order", "room"])
            topic, line = "everyday-number", sep_join(BL[x], blv(x), lang)
        return "note-" + topic, {"lines": [line]}, mode
    if mode == "echo":
        v = str(R.randint(101, 940))
        return "note-everyday-number", {"lines": [f"🎙️ {BL['room']}: {say_digits(v, lang)} ({v})"]}, mode
    if mode == "fields":
        xs = sample(["room", "flight", "order", "phone"], 2)
        return "note-travel", {"fields": [(BL[x], blv(x)) for x in xs]}, mode
    return "note-travel", {"lines": [f"{BL['flight']} {flight_no()} · {date_str(lang)} {time_str(lang)} · {BL['room']} {R.randint(101, 940)}"]}, mode


# ---------------------------------------------------------------- vendor credentials in messages (secret, plain)
VP_LANGS = [c for c in LANG_CODES if LANGS[c].get("VP")]
VB_LANGS = [c for c in LANG_CODES if LANGS[c].get("VB")]
EN_VLEADS = ["here's the prod key, don't commit it pls:", "new key for staging:", "use this one for the demo:",
             "API key (rotate after Friday):", "{svc} creds for the client project:",
             "pasting the {svc} token here so I don't lose it:", "key for my side project:", "the {svc} key Sam sent:",
             "remember this {svc} secret for the bot:", "found the old {svc} key, still works:"]
EN_VBLEADS = ["commit for the release:", "checksum of the installer:", "request ID from the error page:",
              "order ID from the receipt:", "build reference:", "the {svc} ID they asked for:", "for the support ticket:",
              "digest of the image we deployed:", "from the docs, just an example:", "public bit, safe to share:"]
DEV_NAMES = ["Priya", "Sam", "Jonas", "Mei", "Ade", "Lukas", "Chloé", "Dmitri", "Aiko", "Rafael", "Noor", "Ben", "Kenji", "Olu"]


def slug(name):
    return re.sub(r"[^a-z0-9]+", "", name.lower()) or "api"


def message_context(lang, lead, body, env, fields, name, cfg_keys=("api_key", "token", "key", "secret")):
    """shared wrapper for vendor secrets and their benign look-alikes"""
    oneline = "\n" not in body and " " not in body
    ctxs = [(3, "chat"), (2, "email"), (2, "note"), (2, "env"), (1, "config"), (2, "fields")]
    if oneline:
        ctxs.append((1, "curl"))
    c = wpick(ctxs)
    a, b = ch(DEV_NAMES), ch(DEV_NAMES)
    if c == "chat":
        msgs = [{"from": a, "time": time_str("x"), "text": lead}, {"from": a, "time": time_str("x"), "text": body}]
        if chance(0.5):
            msgs = [{"from": a, "time": time_str("x"), "text": lead + " " + body}]
        if chance(0.5):
            msgs.append({"from": b if b != a else "me", "time": time_str("x"),
                         "text": ch(["thanks!", "got it 👍", "ta", "ok", "🙏", "saved"])})
        return {"msgs": msgs}, c
    if c == "email":
        subj = ch([f"{name} access", f"{name} details", f"Re: {name}", f"Fwd: {name} setup", f"{name} for the migration"])
        hi = ch(["Hi", "Hey", "Hello", "Hola", "Hallo", "Bonjour", "Hi"]) + " " + b
        if chance(0.15):
            hi = ch(["Hi all", "Hi team", "Hello everyone"])
        return {"lines": [f"Subject: {subj}", "", f"{hi},", "", lead, body, "", ch(["Thanks,", "Cheers,", "Best,", "--"]), a]}, c
    if c == "note":
        return {"lines": [lead, body]}, c
    if c == "env":
        if "\n" in body or "=" in body.split("\n")[0][:40]:
            return {"lines": [ch(["# .env", ".env:", "# local env"]), body]}, c
        return {"lines": [ch(["# .env", ".env:", "# " + lead]), f"{env}={body}"]}, c
    if c == "config":
        if "\n" in body:
            return {"lines": [f"{slug(name)}:", "  " + body.replace("\n", "\n  ")]}, c
        return {"lines": [f"{slug(name)}:", f"  {ch(list(cfg_keys))}: {body}"]}, c
    if c == "curl":
        return {"lines": [lead, f'curl -H "Authorization: Bearer {body}" https://api.{slug(name)}.com/v1/me']}, c
    # fields
    if not fields and "\n" in body and all(": " in ln for ln in body.split("\n")):
        fields = [tuple(ln.split(": ", 1)) for ln in body.split("\n")]
    if fields:
        return {"fields": [("service", name)] + [(k, v) for k, v in fields]}, c
    return {"fields": [("service", name), ("env", ch(["prod", "production", "live", "staging"])), (env.lower(), body)]}, c


def vendor_secret_payload():
    idx = R.randrange(len(VENDORS))
    name, cat, env, tok, fields = vendor_token(idx)
    lang = "en" if chance(0.7) else ch(VP_LANGS)
    lead = fill(ch(EN_VLEADS) if lang == "en" else ch(LANGS[lang]["VP"]), lang, {"svc": name})
    core, c = message_context(lang, lead, tok, env, fields, name)
    return "vendor-" + cat, lang, core, c


# ---------------------------------------------------------------- vendor look-alikes (benign, hard)
AWS_DOC_EXAMPLE = ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
JWT_IO_SAMPLE = ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ."
                 "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
TEST_CARD_NOTES = [
    ("Stripe", "4242 4242 4242 4242"), ("Stripe", "4000 0566 5566 5556"), ("Stripe", "5555 5555 5555 4444"),
    ("Adyen", "5555 5555 5555 4444"), ("Braintree", "4111 1111 1111 1111"), ("PayPal sandbox", "3782 822463 10005"),
    ("Stripe", "6011 1111 1111 1117"), ("Stripe", "3530 1113 3330 0000"), ("Stripe", "4000 0000 0000 0002"),
    ("Stripe", "2223 0031 2200 3222"), ("Braintree", "3714 496353 98431"), ("Checkout.com", "4242 4242 4242 4242"),
]


def imei():
    return luhn_complete(ch(["35", "86", "01", "99"]) + digs(6), 15)


def vin():
    return rs("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17)


def vendor_lookalike_payload():
    name, cat, env, _tok, _f = vendor_token(R.randrange(len(VENDORS)))
    fam = wpick([(3, "commit-hash"), (2, "checksum"), (2, "docker-digest"), (3, "uuid-id"), (3, "placeholder-key"),
                 (2, "redacted-key"), (1, "example-key"), (2, "env-reference"), (2, "test-card-number"), (2, "public-id"),
                 (2, "public-key"), (1, "build-id")])
    body, fields = None, None
    if fam == "commit-hash":
        body = rs(HX, 40) if chance(0.6) else rs(HX, 7)
        body = ch([body, f"git checkout {body}", f"fixed in {body}", f"revert {body}"])
    elif fam == "checksum":
        body = ch([f"sha256 {rs(HX, 64)}", f"SHA256 ({ch(['setup.exe', 'ubuntu.iso', 'app.dmg', 'backup.tar.gz'])}) = {rs(HX, 64)}",
                   f"md5 {rs(HX, 32)}", f"sha1 {rs(HX, 40)}"])
    elif fam == "docker-digest":
        body = f"{ch(['nginx', 'postgres', 'redis', 'python', 'node'])}@sha256:{rs(HX, 64)}"
    elif fam == "uuid-id":
        body = ch([f"request-id {_uuid()}", f"order {_uuid()}", f"trace {rs(HX, 32)}", f"ticket #{digs(6, True)} / {_uuid()}"])
    elif fam == "placeholder-key":
        ph = ch(["<your-key-here>", "YOUR_API_KEY", "sk_live_" + "X" * 24, "ghp_" + "x" * 36, "changeme", "${" + env + "}",
                 "xxxxxxxxxxxxxxxxxxxx", "<paste token>", "AKIA" + "X" * 16, "TODO", "REPLACE_ME"])
        body = f"{env}={ph}"
    elif fam == "redacted-key":
        body = ch([f"{env}=****{rs(AL, 4)}", f"{env}: [REDACTED]", f"token: {rs(AL, 4)}…(redacted)", f"{env}=•••••••• (rotated)",
                   f"key ending in {rs(AL, 4)} was revoked"])
    elif fam == "example-key":
        body = ch([f"aws_access_key_id = {AWS_DOC_EXAMPLE[0]}  (example key from the AWS docs)",
                   f"aws_secret_access_key = {AWS_DOC_EXAMPLE[1]}  # AWS documentation example, not real",
                   f"sample token from jwt.io (not real): {JWT_IO_SAMPLE}"])
    elif fam == "env-reference":
        body = ch([f"export {env}=$(op read op://Personal/{slug(name)}/credential)", f"{env}: ${{{{ secrets.{env} }}}}",
                   f"{env} comes from Vault path secret/data/{slug(name)}", f"set {env} in the .env file (ask Priya for it)",
                   f"os.environ['{env}']  # never hard-code it"])
    elif fam == "test-card-number":
        prov, num = ch(TEST_CARD_NOTES)
        body = f"{prov} test card {num}, any future expiry, any CVC — published test number, sandbox only"
    elif fam == "public-id":
        body = ch([f"Google Analytics ID G-{rs(CLEAR, 10)}", f"Stripe account acct_{rs(AL, 16)}", f"Slack channel C0{rs(UP + DI, 9)}",
                   f"AWS account {digs(12, True)}", f"arn:aws:iam::{digs(12, True)}:role/deploy",
                   f"Firebase project id {ch(['shop', 'family-app', 'quiz'])}-{digs(5)}", f"client_id {digs(12, True)}-{rs(LO + DI, 32)}.apps.googleusercontent.com"])
    elif fam == "public-key":
        body = ch([f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64C, 43)} {ch(FIRST)}@laptop",
                   f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQ{rs(B64C, 60)}… {ch(FIRST)}@desktop",
                   f"PGP fingerprint {' '.join(rs('0123456789ABCDEF', 4) for _ in range(10))}"])
    else:
        body = ch([f"build #{digs(4, True)} ({rs(HX, 7)})", f"v{R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 30)}+{rs(HX, 8)}",
                   f"pipeline {digs(9, True)}"])
    lang = "en" if chance(0.7) else ch(VB_LANGS)
    lead = fill(ch(EN_VBLEADS) if lang == "en" else ch(LANGS[lang]["VB"]), lang, {"svc": name})
    envname = {"commit-hash": "GIT_SHA", "checksum": "SHA256", "docker-digest": "IMAGE", "uuid-id": "REQUEST_ID",
               "test-card-number": "TEST_CARD", "public-id": "ACCOUNT_ID", "public-key": "SSH_PUBLIC_KEY",
               "build-id": "BUILD_ID"}.get(fam, env)
    cfg = ("api_key", "token", "key") if fam in ("placeholder-key", "redacted-key", "example-key", "env-reference") \
        else ("id", "ref", "build", "digest", "value", "note")
    core, c = message_context(lang, lead, body, envname, fields, name, cfg)
    if "fields" in core:  # rebuild with neutral field names
        core = {"fields": [("service", name), ("what", fam.replace("-", " ")), ("value", body)]}
    return fam, lang, core, c


# ---------------------------------------------------------------- personal data that is not a credential (benign, hard)
STREETS = ["Elm", "Mill", "Church", "Park", "Station", "Victoria", "Albert", "Queens", "Orchard", "Meadow"]
TOWNS = ["Leeds", "Bristol", "York", "Cardiff", "Bath", "Norwich", "Derby", "Exeter", "Hull", "Stirling"]


def en_personal_id():
    k = R.randrange(26)
    who = ch(EN_FAM)
    if k == 0:
        return "phone-number", f"{ch(['Dr Patel surgery', 'plumber (Gary)', 'Mum new mobile', 'taxi firm', 'school office', 'Airbnb host'])}: {uk_mobile()}"
    if k == 1:
        return "address", f"new address: Flat {R.randint(1, 30)}, {R.randint(1, 220)} {ch(STREETS)} Road, {ch(TOWNS)} {uk_postcode()}"
    if k == 2:
        return "birthday", f"{who}'s birthday {R.randint(1, 28):02d}/{R.randint(1, 12):02d}/{R.randint(1940, 2020)}"
    if k == 3:
        return "passport-number", f"passport no. {digs(9, True)}, expires {date_str('en')} {R.randint(2026, 2035)}"
    if k == 4:
        return "national-id", f"NI number {rs('ABCEGHJKLMNPRSTWXYZ', 2)} {digs(2)} {digs(2)} {digs(2)} {ch('ABCD')}"
    if k == 5:
        return "tax-id", ch([f"UTR {digs(10, True)}", f"EIN {digs(2, True)}-{digs(7)}", f"VAT reg GB {digs(3, True)} {digs(4)} {digs(2)}"])
    if k == 6:
        return "health-id", f"NHS no. {digs(3, True)} {digs(3)} {digs(4)}"
    if k == 7:
        return "order-number", f"Amazon order {digs(3, True)}-{digs(7)}-{digs(7)}"
    if k == 8:
        return "tracking-number", ch([f"Royal Mail tracking {rs(UP, 2)}{digs(9)}GB", f"UPS 1Z{rs(UP + DI, 16)}", f"DHL {digs(10, True)}",
                                      f"Evri {rs(UP + DI, 16)}"])
    if k == 9:
        return "policy-number", f"home insurance policy {rs(UP, 3)}/{digs(8)}, renews {date_str('en')}"
    if k == 10:
        return "member-number", ch([f"National Trust membership {digs(9, True)}", f"gym member no. {digs(6, True)}",
                                    f"Tesco Clubcard {digs(4, True)} {digs(4)} {digs(4)} {digs(4)}", f"library card {digs(10, True)}"])
    if k == 11:
        return "invoice-number", f"invoice INV-{R.randint(2023, 2025)}-{digs(5)} for £{R.randint(40, 2400)}"
    if k == 12:
        return "booking-ref", f"booking ref {rs(CLEAR, 6)} ({ch(['easyJet', 'Ryanair', 'BA', 'Eurostar', 'Jet2'])})"
    if k == 13:
        return "imei", f"old phone IMEI {imei()}"
    if k == 14:
        return "vin", f"car VIN {vin()}"
    if k == 15:
        return "iban", f"rent to IBAN GB{digs(2)} {rs(UP, 4)} {digs(4)} {digs(4)} {digs(4)} {digs(2)}"
    if k == 16:
        return "serial-number", f"{ch(['dishwasher', 'boiler', 'laptop', 'TV'])} serial {rs(UP + DI, 12)}"
    if k == 17:
        return "email-address", f"{who}'s new email: {email()}"
    if k == 18:
        return "username", f"my Insta is @{username()}"
    if k == 19:
        return "ssid-only", f"their wifi network is {ssid(EN_PWW)} (password's on the fridge)"
    if k == 20:
        return "card-last4", f"paid the deposit with the card ending {digs(4)}"
    if k == 21:
        return "sports-score", f"{ch(['Arsenal', 'Leeds', 'Celtic', 'Wrexham'])} {R.randint(0, 4)}–{R.randint(0, 4)} {ch(['Spurs', 'Hull', 'Rangers', 'Stoke'])}, {R.randint(10, 90)}' winner"
    if k == 22:
        return "lottery-numbers", "lottery: " + " ".join(str(x) for x in sorted(R.sample(range(1, 60), 6))) + f" bonus {R.randint(1, 59)}"
    if k == 23:
        return "bus-route", f"bus {R.randint(1, 399)} to the station then the {R.randint(1, 399)}"
    if k == 24:
        return "measurement", f"window {R.randint(60, 180)} x {R.randint(40, 160)} cm, curtain drop {R.randint(120, 260)} cm"
    return "license-plate", f"{who}'s car reg {PH['PLATE']('en')}"


def lang_personal_id(lang):
    """non-credential numbers in the same sentence frames people use for codes"""
    Ld = LANGS[lang]
    x = ch(["phone", "room", "order", "flight", "passport"])
    if x == "phone":
        v = intl_phone(Ld["cc"])
    elif x == "room":
        v = str(R.randint(101, 940))
    elif x == "order":
        v = digs(ch([7, 8, 10]), True)
    elif x == "flight":
        v = flight_no()
    else:
        v = passport_no()
    line = fill(ch(Ld["S"]), lang, {"k": Ld["BL"][x], "v": v})
    line, _ = native_maybe(line, lang, 0.2)
    return {"phone": "phone-number", "room": "room-number", "order": "order-number", "flight": "flight-number",
            "passport": "passport-number"}[x], line


def homonym_line(lang):
    if lang == "en":
        fam, tpl = ch(EN_HOM)
    else:
        fam, tpl = ch(LANGS[lang]["H"])
    line, _ = native_maybe(fill(tpl, lang), lang, 0.2)
    return "homonym-" + fam, line


def talk_line(lang):
    if lang == "en":
        s = ch(EN_TALK)
        if chance(0.12):
            s = typo(s)
        return "credential-talk", s
    return "credential-talk", ch(LANGS[lang]["T"])


MASKS = ["****", "••••", "[REDACTED]", "XXXX", "(hidden)", "<removed>", "***-***", "######", "•••• (ask me)", "[see password manager]",
         "(in the safe)", "✱✱✱✱", "____", "xxxxxx", "[private]"]


def masked_line(lang):
    m = ch(MASKS)
    if chance(0.15):
        brand, num, exp, cvv = make_card(lang if lang in LANG_BRANDS else "en")
        return "masked-card", f"{brand} •••• •••• •••• {num[-4:]} exp **/** cvv ***"
    if lang == "en":
        kind = ch(list(EN_LABELS.keys()))
        lab = ch(EN_LABELS[kind])
    else:
        kind = wpick(lang_kinds(lang))
        lab = lang_label(kind, lang)
    return "masked-" + kind, sep_join(lab, m, lang)


# ---------------------------------------------------------------- hard: evasions (secret) and mirrors (benign)
LATIN_LANGS = ["en", "es", "fr", "de", "it", "pt", "nl", "sv", "nb", "da", "fi", "is", "pl", "cs", "sk", "hu", "ro", "tr",
               "hr", "lt", "ca", "vi", "id", "ms", "tl", "sw"]
BEN_PHRASES = ["happy birthday grandma", "see you at the station at 7", "milk eggs bread butter", "the cake is in the oven",
               "meet at the usual cafe", "don't forget the sun cream", "chapter 4 is the best one", "call me after school",
               "I love you to the moon and back", "the dog ate my homework", "pick up the kids at 3", "gym then lunch"]
BEN_WORDS = ["Valencia", "Hartley", "Okonkwo", "sunflower", "Lisbon", "Kowalski", "marmalade", "Brighton", "Nakamura", "Fenwick"]
FACTS = [("the year the Berlin Wall fell", "1989"), ("the moon landing year", "1969"), ("the year the Titanic sank", "1912"),
         ("the year WW2 ended", "1945"), ("the first FIFA World Cup year", "1930"), ("the year of the Battle of Hastings", "1066"),
         ("the first four digits of pi", "3141"), ("the year the Eiffel Tower opened", "1889")]
KEYPAD_WORDS = ["love", "home", "cake", "golf", "milk", "rose", "fish", "moon", "star", "bear", "lion", "kiwi", "tulip",
                "honey", "pizza", "piano", "beach", "ruby", "mango", "snow"]
GORO = {"0": ["れ", "お"], "1": ["い", "ひ"], "2": ["に", "ふ"], "3": ["さ", "み"], "4": ["よ", "し"], "5": ["ご", "こ"],
        "6": ["ろ", "む"], "7": ["な"], "8": ["は", "や"], "9": ["く"]}


def b64(s):
    return base64.b64encode(s.encode()).decode()


def code_target(lang, n=None):
    """(label, code) where code is digits only"""
    if lang in ("en", "hi-Latn"):
        kind = ch(DIGIT_KINDS[:-1] + ["door-code", "gate-code", "safe-code"])
        lab = ch(EN_LABELS[kind]) if lang == "en" else ch(["ATM pin", "ghar ka door code", "UPI pin", "locker code"])
    else:
        kind = ch(["card-pin", "phone-pin", "door-code", "alarm-code", "safe-code", "gate-code"] + [k for k in LANGS[lang]["X"]
                                                                                           if k not in ("sim-puk", "email-password")])
        lab = lang_label(kind, lang)
    return kind, lab, pin(n or ch([4, 4, 4, 5, 6]))


def pw_target(lang):
    if lang == "en":
        kind = ch(["wifi-password", "email-password", "account-password"])
        lab = ch(EN_LABELS[kind])
        v = EN_KIND_VAL[kind]()
    else:
        kind = ch(["wifi-password", "email-password"])
        lab = lang_label(kind, lang)
        v = wifi_pw(LANGS[lang]["PWW"]) if kind == "wifi-password" else human_pw(LANGS[lang]["PWW"])
        if " / " in v:
            v = v.split(" / ")[1]
    return kind, lab, v


def num_target(lang, n=None):
    """benign (label, digits) pair"""
    if lang in ("en", "hi-Latn"):
        lab = ch(["room", "house number", "table", "bus", "platform", "flat", "bib number", "pew", "year",
                  "ward", "page", "exercise", "channel", "hymn"])
    else:
        lab = LANGS[lang]["BL"][ch(["room", "room", "order", "phone"])]
    return "number", lab, digs(n or ch([3, 3, 4, 5, 6]), True)


def word_target(lang):
    if lang == "en":
        return "word", ch(["surname", "street", "town", "book title", "band name", "dog's name", "cafe"]), ch(BEN_WORDS + PETS)
    return "word", ch([LANGS[lang]["BL"]["flight"], LANGS[lang]["BL"]["order"]]), ch(BEN_WORDS + LANGS[lang]["PWW"])


def hint(lang, key):
    """local word for 'backwards' (key == 'rev')"""
    if lang == "en":
        return ch(["backwards", "read it backwards", "reversed"])
    return (LANGS.get(lang) or {}).get("rev") or "↩"


def T_spoken(lang, lab, code, benign):
    lg = lang
    if lang == "hi" and chance(0.35):
        lg = "hi-Latn"
    s = say_digits(code, lg)
    if lg == "en":
        return {"lines": [ch([f"{lab}: {s}", f"{lab} is {s}", f"the {lab}'s {s}", f"{lab} — {s}"])]}
    if lg == "hi-Latn":
        return {"lines": [f"{lab} hai {s}" + ("" if benign else ch(["", ", yaad rakhna"]))]}
    return {"lines": [sep_join(lab, s, lang)]}


def T_numwords(lang, lab, code, benign):
    parts = [code[i:i + 2] for i in range(0, len(code), 2)]
    w = " ".join(("oh " + EN_DIG[int(p[1])]) if (len(p) == 2 and p[0] == "0") else en_num(int(p)) for p in parts)
    return {"lines": [ch([f"{lab}: {w}", f"{lab} is {w}", f"the {lab} is {w}"])]}


def T_arith(lang, lab, code, benign):
    c = int(code)
    if c < 1000:
        c += 1000
        code = str(c)
    f = R.randrange(4)
    if f == 0:
        b = R.randint(1, c - 1)
        expr = f"{c - b} + {b}"
    elif f == 1 and c % 2 == 0:
        expr = f"{c // 2} × 2"
    elif f == 2:
        b = R.randint(1, 999)
        expr = f"{c + b} − {b}"
    else:
        b = R.randint(2, 9)
        expr = f"{c * b} / {b}"
    if lang == "en":
        return {"lines": [ch([f"{lab} = {expr}", f"{lab}: {expr} (do the sum)", f"{lab} is {expr}", f"for the {lab} work out {expr}"])]}
    return {"lines": [sep_join(lab, expr + ch(["", " = ?", " (=)"]), lang)]}


def T_riddle(lang, lab, code, benign):
    f = R.randrange(4)
    if f == 0:
        w = ch(KEYPAD_WORDS)
        if benign:
            return {"lines": [ch([f"the taxi firm's number spells 0800-{w.upper()} on the keypad", f"florist hotline is 0800 {w.upper()} (letters on the phone keys)"])]}
        return {"lines": [ch([f"{lab}: '{w.upper()}' on a phone keypad", f"{lab} = the word {w} typed on the number pad"])]}
    if f == 1:
        a = R.randint(1, 5)
        n = R.randint(4, 5)
        if benign:
            return {"lines": [f"knitting pattern: row stitches go {', '.join(str(a + i) for i in range(n))}…"]}
        return {"lines": [f"{lab}: {n} digits, start at {a} and go up by one each time"]}
    if f == 2:
        hn = R.randint(12, 98)
        if benign:
            return {"lines": [f"we're at no. {hn}, the flat above is {hn}A — deliveries keep mixing them up"]}
        return {"lines": [f"we're at no. {hn} — the {lab} is just the house number twice"]}
    fact, val = ch(FACTS)
    if benign:
        return {"lines": [f"pub quiz answer: {fact} → {val}"]}
    return {"lines": [ch([f"{lab}: {fact}", f"{lab} is {fact}, easy to remember"])]}


def T_date(lang, lab, code, benign):
    d, m, y = R.randint(1, 28), R.randint(1, 12), R.randint(1940, 2015)
    who = person(lang)
    if benign:
        if lang == "en":
            return {"lines": [ch([f"{who}'s birthday {d:02d}/{m:02d} — book the restaurant", f"{who} born {d:02d}.{m:02d}.{y}, needs it for the form"])]}
        return {"lines": [f"🎂 {who}: {d:02d}.{m:02d}.{y}"]}
    if lang == "en":
        return {"lines": [ch([f"{lab} is {who}'s birthday, day then month ({d:02d}/{m:02d})",
                              f"{lab} = the year {who} was born, {y}", f"{lab}: {who}'s bday → DDMM ({d:02d}.{m:02d}.{y})"])]}
    return {"lines": [ch([f"{lab} = 🎂 {who} ({d:02d}.{m:02d}) DDMM", f"{lab} = {y} ({who} 🎂)"])]}


def T_time(lang, lab, code, benign):
    h, mi = R.randint(0, 23), R.randint(0, 59)
    if benign:
        return {"lines": [ch([f"train leaves {h:02d}:{mi:02d}, platform {R.randint(1, 12)}", f"alarm set for {h:02d}:{mi:02d}",
                              f"⏰ {h:02d}:{mi:02d} — {person(lang)}"])]}
    if lang == "en":
        return {"lines": [ch([f"{lab}: like the time {h:02d}:{mi:02d} but without the colon", f"{lab} = {h:02d}:{mi:02d} on a digital clock, no dots"])]}
    return {"lines": [f"{lab}: ⏰ {h:02d}:{mi:02d} (hhmm)"]}


def T_split(lang, lab, code, benign):
    if benign:
        who = person(lang)
        if lang == "en":
            msgs = ch([[f"address first bit: Flat {R.randint(1, 30)}", f"rest is {R.randint(1, 200)} {ch(STREETS)} Road, {uk_postcode()}"],
                       ["his number?", uk_mobile()[:5], uk_mobile()[6:], "no spaces"],
                       [f"sending the {ch(['booking', 'venue', 'school'])} address in two texts", f"{R.randint(1, 200)} {ch(STREETS)} Street",
                        f"...{ch(TOWNS)} {uk_postcode()}"]])
        else:
            ph = intl_phone(LANGS[lang]["cc"])
            cut = R.randint(5, len(ph) - 3)
            msgs = [f"{LANGS[lang]['BL']['phone']} 1/2: {ph[:cut]}", f"2/2: {ph[cut:]}"]
        return {"msgs": [{"from": who, "time": time_str("x"), "text": m} for m in msgs]}
    cut = R.randint(1, len(code) - 1)
    p1, p2 = code[:cut], code[cut:]
    who = person(lang)
    if lang == "en":
        msgs = ch([[f"{lab} first bit: {p1}", f"rest is {p2}"], [f"{lab}?", p1, p2, "no spaces"],
                   [f"sending the {lab} in two texts", p1, f"...{p2}"]])
    else:
        msgs = [f"{lab} 1/2: {p1}", f"2/2: {p2}"]
    return {"msgs": [{"from": who, "time": time_str("x"), "text": m} for m in msgs]}


def T_list(lang, lab, code, benign):
    bullet = ch(["- ", "• ", "", "* "])
    if benign:
        if lang == "en":
            lab, nums = ch([("lottery numbers", sorted(R.sample(range(1, 60), 6))), ("kids' ages", sorted(R.sample(range(1, 17), 3))),
                            ("shoe sizes", [R.randint(1, 13) for _ in range(3)]), ("bus numbers that go there", sorted(R.sample(range(1, 300), 3))),
                            ("hymn numbers", sorted(R.sample(range(1, 700), 4)))])
        else:
            lab = LANGS[lang]["BL"]["room"]
            base = R.randint(101, 900)
            nums = [base + 2 * i for i in range(R.randint(2, 4))]
        return {"lines": [lab + ":"] + [bullet + str(x) for x in nums]}
    return {"lines": [lab + ":"] + [bullet + c for c in code]}


def T_reversed(lang, lab, code, benign):
    if benign:
        if lang == "en":
            w = ch(BEN_WORDS)
            return {"lines": [ch([f"kids' game: {w[::-1].lower()} is {w} backwards 😂", "racecar backwards is still racecar",
                                  f"mirror writing practice: {w[::-1]}"])]}
        w = ch(LANGS[lang]["PWW"] + BEN_WORDS)
        return {"lines": [f"{w} → {w[::-1]} ({hint(lang, 'rev')}) 😂"]}
    return {"lines": [f"{lab} ({hint(lang, 'rev')}): {code[::-1]}"]}


def T_spaced(lang, lab, code, benign):
    sep = ch([" ", "  ", " . ", " _ "])
    return {"lines": [sep_join(lab, sep.join(code), lang)]}


def T_homoglyph(lang, lab, code, benign):
    if benign:
        t = benign_line(lang)[1]
        return {"lines": [homoglyph(t, 0.5)]}
    return {"lines": [sep_join(homoglyph(lab), code, lang)]}


def T_emoji(lang, lab, code, benign):
    return {"lines": [sep_join(lab, keycap(code), lang) + ch(["", " 🙂", " 🔑" if not benign else " 🙂", " 👆"])]}


def T_unicode(lang, lab, code, benign):
    own = LANGS.get(lang, {}).get("nd")
    names = [n for n, z in DIGIT_SYSTEMS if z != own] + ["circled", "superscript"]
    return {"lines": [sep_join(lab, to_system(code, ch(names)), lang)]}


def T_b64(lang, lab, code, benign):
    if benign:
        phrase = ch(BEN_PHRASES) if lang == "en" else benign_line(lang)[1]
        return {"lines": [ch([f"{ch(['message', 'note', 'lyric', 'quote'])} (base64): {b64(phrase)}", f"b64: {b64(phrase)}"])]}
    return {"lines": [ch([f"{lab} (base64): {b64(code)}", f"{lab} — b64 {b64(code)}", f"{lab}: {b64(code)}  ← decode first"])]}


def T_hex(lang, lab, code, benign):
    if benign:
        return {"lines": [ch([f"invitation colours: #{rs(HX, 6)} and #{rs(HX, 6)}", f"printer MAC {':'.join(rs(HX, 2) for _ in range(6))}",
                              f"hex of the word '{ch(BEN_WORDS)}' for the CS homework: {ch(BEN_WORDS).encode().hex()}"])]}
    return {"lines": [ch([f"{lab} in hex: {code.encode().hex()}", f"{lab} (hex, decode to text): {code.encode().hex()}"])]}


def T_rot13(lang, lab, code, benign):
    if benign:
        return {"lines": [f"spoiler (rot13): {codecs.encode(ch(['the butler did it', 'they get married in the end', 'the dog survives', 'it was all a dream']), 'rot13')}"]}
    return {"lines": [f"{lab} (rot13): {codecs.encode(code, 'rot13')}"]}


def T_nato(lang, lab, code, benign):
    out = []
    for c in code:
        if c.lower() in NATO:
            out.append(("CAPITAL " if c.isupper() else "") + NATO[c.lower()])
        elif c.isdigit():
            out.append(EN_DIG[int(c)])
        else:
            out.append({"!": "exclamation mark", "#": "hash", ".": "dot", "-": "dash", "_": "underscore", "@": "at",
                        "$": "dollar", "%": "percent", "&": "ampersand", "*": "star", "?": "question mark"}.get(c, c))
    joined = ch([" ", "-", ", "]).join(out)
    if benign:
        return {"lines": [f"spelled the {lab} for the call centre: {joined}"]}
    return {"lines": [f"{lab}: {joined}"]}


def T_zw(lang, lab, code, benign):
    if benign:
        return {"lines": [zw(benign_line(lang)[1])]}
    return {"lines": [sep_join(zw(lab), zw(code), lang)]}


def T_roman(lang, lab, code, benign):
    if benign:
        return {"lines": [ch([f"reading chapter {roman(R.randint(2, 60))} tonight", f"Henry {roman(R.randint(2, 8))} essay due Friday",
                              f"Super Bowl {roman(R.randint(40, 59))} party at Dave's", f"clock on the wall says {roman(R.randint(1, 12))}"])]}
    code = code.replace("0", str(R.randint(1, 9)))
    if len(code) % 2:
        code = code[:-1]
    parts = [int(code[i:i + 2]) for i in range(0, len(code), 2)]
    return {"lines": [f"{lab}: {'-'.join(roman(p) for p in parts)} (two digits each)"]}, code


def T_letters(lang, lab, code, benign):
    L = "JABCDEFGHI"
    if benign:
        w = ch(["hello", "cake", "badge", "face", "bead"])
        return {"lines": [f"kids' code game (A=1): {'-'.join(str(ord(c) - 96) for c in w)} spells {w.upper()}"]}
    return {"lines": [f"{lab}: {''.join(L[int(c)] for c in code)} (A=1, B=2 … J=0)"]}


def T_shift(lang, lab, code, benign):
    if benign:
        ages = sorted(R.sample(range(2, 16), 3))
        return {"lines": [f"kids' ages {', '.join(map(str, ages))} → next year {', '.join(str(a + 1) for a in ages)}"]}
    sh = "".join(str((int(c) + 1) % 10) for c in code)
    return {"lines": [f"{lab}: {sh} (take one off every digit)"]}


def T_goro(lang, lab, code, benign):
    kana = "".join(ch(GORO[c]) for c in code)
    if benign:
        return {"lines": [f"ピザ屋の電話は語呂合わせで「{kana}」、0120-{code[:3]}-{code[3:] or '0'}"]}
    return {"lines": [f"{lab}は語呂合わせで「{kana}」"]}


TECHS = {  # name: (function, target type, weight_secret, weight_mirror, languages)
    "spoken-digits": (T_spoken, "code", 45, 30, "any"),
    "number-words": (T_numwords, "code", 12, 8, "en"),
    "arithmetic": (T_arith, "code", 30, 18, "any"),
    "riddle": (T_riddle, "code", 18, 10, "en"),
    "date-as-code": (T_date, "code", 20, 12, "any"),
    "time-as-code": (T_time, "code", 12, 8, "any"),
    "split-messages": (T_split, "either", 25, 14, "any"),
    "list-items": (T_list, "code", 15, 9, "any"),
    "reversed": (T_reversed, "either", 20, 10, "rev"),
    "spaced": (T_spaced, "either", 15, 9, "any"),
    "homoglyph": (T_homoglyph, "either", 15, 9, "latin"),
    "emoji-digits": (T_emoji, "code", 15, 9, "any"),
    "unicode-digits": (T_unicode, "code", 25, 14, "any"),
    "base64": (T_b64, "either", 12, 7, "any"),
    "hex-encoding": (T_hex, "pw", 8, 5, "any"),
    "rot13": (T_rot13, "pw", 8, 5, "latin"),
    "nato-phonetic": (T_nato, "pw", 10, 6, "en"),
    "zero-width": (T_zw, "either", 8, 5, "any"),
    "roman-numerals": (T_roman, "code", 6, 4, "en"),
    "letter-digits": (T_letters, "code", 6, 4, "en"),
    "digit-shift": (T_shift, "code", 8, 4, "en"),
    "goroawase": (T_goro, "code", 5, 3, "ja"),
}
MIRROR_NAMES = {"spoken-digits": "spoken-number", "number-words": "number-words-note", "arithmetic": "arithmetic-note",
                "riddle": "riddle-trivia", "date-as-code": "birthday-date", "time-as-code": "schedule-time",
                "split-messages": "split-message", "list-items": "number-list", "reversed": "wordplay-reversed",
                "spaced": "spaced-text", "homoglyph": "mixed-script", "emoji-digits": "emoji-number",
                "unicode-digits": "native-digits", "base64": "encoded-text", "hex-encoding": "hex-value",
                "rot13": "rot13-spoiler", "nato-phonetic": "nato-spelling", "zero-width": "zero-width-text",
                "roman-numerals": "roman-numeral", "letter-digits": "letter-number-puzzle", "digit-shift": "number-sequence",
                "goroawase": "goroawase-phone"}


def tech_lang(scope):
    if scope == "en":
        return "en"
    if scope == "ja":
        return "ja"
    if scope == "latin":
        return "en" if chance(0.4) else ch(LATIN_LANGS[1:])
    if scope == "rev":
        return "en" if chance(0.35) else ch([c for c in LANG_CODES if LANGS[c].get("rev")])
    return "en" if chance(0.3) else ch(LANG_CODES)


def hard_record(name, benign):
    fn, target, _ws, _wm, scope = TECHS[name]
    lang = tech_lang(scope)
    if target == "either":
        target = "code" if chance(0.55) else "pw"
    if benign:
        kind, lab, val = (num_target(lang) if target == "code" else word_target(lang))
        if name == "nato-phonetic":
            lab, val = ch(["surname", "street name", "postcode", "booking name"]), ch(BEN_WORDS + SURNAMES).replace("'", "")
    else:
        kind, lab, val = code_target(lang) if target == "code" else pw_target(lang)
        if name == "nato-phonetic":
            val = re.sub(r"[^A-Za-z0-9!#.\-_@$%&*?]", "", val)
    res = fn(lang, lab, val, benign)
    if isinstance(res, tuple):
        res = res[0]
    return lang, res


# ---- vendor-token evasions (secret) and split identifiers (benign)
def vendor_evasion(benign):
    name, cat, env, tok, _f = vendor_token(R.randrange(len(VENDORS)))
    if benign:
        tok = ch([rs(HX, 40), _uuid(), "sha256:" + rs(HX, 64), f"{rs(HX, 8)}-{rs(HX, 8)}-{rs(HX, 8)}"])
        what = ch(["commit", "request id", "image digest", "order ref", "build id"])
    else:
        while "\n" in tok or " " in tok:
            name, cat, env, tok, _f = vendor_token(R.randrange(len(VENDORS)))
        what = f"{name} {ch(['key', 'token', 'secret'])}"
    f = R.randrange(5)
    if f == 0:
        n = ch([2, 3])
        step = -(-len(tok) // n)
        parts = [tok[i:i + step] for i in range(0, len(tok), step)]
        who = ch(DEV_NAMES)
        msgs = [f"{what} part {i + 1}/{len(parts)}: {p}" for i, p in enumerate(parts)]
        return "en", "split-token" if not benign else "split-identifier", {"msgs": [{"from": who, "time": time_str("x"), "text": m} for m in msgs]}
    if f == 1:
        cut = R.randint(4, len(tok) - 4)
        return "en", "concat-token" if not benign else "concat-identifier", {"lines": [f"# {what}", f'{slug(env if not benign else what)} = "{tok[:cut]}" + "{tok[cut:]}"']}
    if f == 2:
        return "en", "reversed-token" if not benign else "reversed-identifier", {"lines": [f"{what} (reversed, flip it before use): {tok[::-1]}"]}
    if f == 3:
        return "en", "base64-token" if not benign else "base64-identifier", {"lines": [f"{what}, base64'd: {b64(tok)}"]}
    return "en", "spaced-token" if not benign else "spaced-identifier", {"lines": [f"{what}: " + " ".join(tok[i:i + 4] for i in range(0, len(tok), 4))]}


# ---- key / namespace split (secret) and innocent references (benign)
NS_WORDS = ["box", "shed", "lock", "gate", "vault", "flat", "casa", "haus", "dom", "maison"]


def split_record(benign, f):
    """returns (kind, lang, core, ns3, key); f selects the branch (cycled identically for both labels)"""
    if f == 0:  # namespace element carries a code
        code = pin(4)
        ns3 = f"{ch(NS_WORDS)}-{code}"
        if benign:
            yr = str(R.randint(2009, 2024))
            ns3 = f"trip-{yr}"
            return "namespace-ref", "en", {"lines": [ch([
                "photos from this folder go into the album — the number in the folder name is just the year",
                "the folder name has the year we went, nothing else to it"])]}, ns3, None
        lab = ch(EN_LABELS[ch(["door-code", "gate-code", "keybox-code", "garage-code"])])
        return "namespace-split", "en", {"lines": [ch([f"{lab}: the number in this folder's name, then #",
                                                       f"the {lab} is the digits in the folder name (the bit after the dash)"])]}, ns3, None
    if f == 1:  # key ends with the code
        code = pin(4)
        key = "mem_" + rs(HX, R.randint(8, 20)) + code
        if benign:
            return "key-ref", "en", {"lines": [ch(["the digits at the end of this memory's key are an import batch number, nothing to remember",
                                                   "this note's key is auto-generated, ignore the numbers in it"])]}, None, key
        lab = ch(EN_LABELS[ch(["safe-code", "alarm-code", "locker-code", "bike-lock"])])
        return "key-split", "en", {"lines": [ch([f"{lab} = the last 4 characters of this memory's key",
                                                 f"{lab}: see the end of this note's key (last four digits)"])]}, None, key
    if f == 2:  # key holds the first part of a wifi password
        part = rs(HX, 8)
        key = "mem_" + part + rs(HX, R.randint(4, 16))
        if benign:
            return "key-ref", "en", {"lines": [ch(["the first characters of this note's key are just a hash from the sync app",
                                                   "don't copy the key of this memory, it changes on every export"])]}, None, key
        tail = ch(["!Rain", "-kite7", "#Mum", "_2024"])
        return "key-split", "en", {"lines": [f"wifi password = the first 8 characters after mem_ in this memory's key, then {tail}"]}, None, key
    # namespace holds a password word, value holds the rest
    word = ch(EN_PWW).lower() + digs(2)
    if benign:
        lang = ch(["en", "es", "de", "fr"])
        ns3 = ch(["recipes-v2", "room-" + digs(3, True), "garden-" + str(R.randint(2015, 2024))])
        txt = {"en": "filed under this folder because it's the one I use for the garden / room lists",
               "es": "lo guardé en esta carpeta, el número del nombre es solo la habitación",
               "de": "liegt in diesem Ordner, die Zahl im Ordnernamen ist nur das Jahr",
               "fr": "rangé dans ce dossier, le numéro du nom c'est juste l'année"}[lang]
        return "namespace-ref", lang, {"lines": [txt]}, ns3, None
    lang = ch(["en", "es", "de", "fr"])
    ns3 = word
    txt = {"en": f"{ch(EN_LABELS['email-password'])} = this folder's name + {ch(PW_SYMS)}{digs(2)}",
           "es": f"contraseña del correo = el nombre de esta carpeta + {ch(PW_SYMS)}{digs(2)}",
           "de": f"Mail-Passwort = Name dieses Ordners + {ch(PW_SYMS)}{digs(2)}",
           "fr": f"mdp de la boîte mail = nom de ce dossier + {ch(PW_SYMS)}{digs(2)}"}[lang]
    return "namespace-split", lang, {"lines": [txt]}, ns3, None


# ---------------------------------------------------------------- assembly
N_PERSONAL_EN, N_PERSONAL_PER_LANG = 205, 14
N_NOTES_EN, N_NOTES_PER_LANG = 205, 14
N_VENDOR = 250
N_TOKEN_EVASION, N_TOKEN_MIRROR = 20, 12
N_SPLIT = 20
N_IDENT_EN, N_IDENT_LANG = 45, 85
N_HOM_EN, N_HOM_LANG = 45, 85
N_TALK_EN, N_TALK_LANG = 35, 55
N_MASKED = 50
N_DEVREF = 150
NS_NEUTRAL = ["notes", "inbox", "family", "personal", "imported", "chat", "voice", "archive", "2023", "2024", "travel",
              "phone-notes", "keep", "misc", "shared", "home"]

RECS = []
SEEN = set()


def _canon(core):
    return json.dumps(core, sort_keys=True, ensure_ascii=False)


def add(label, variant, segment, kind, lang, core, style="-", wrap_tag="-", ns3=None, key=None, tries=None):
    c = _canon(core)
    if c in SEEN:
        return False
    SEEN.add(c)
    RECS.append(dict(label=label, variant=variant, segment=segment, kind=kind, lang=lang, core=core, style=style,
                     wrap=wrap_tag, ns3=ns3, key=key))
    return True


def finish_core(core, lang, more_fn, allow_style=True, allow_list=True):
    st = "-"
    if allow_style and "lines" in core:
        core, st = style_lines(core["lines"], lang, more_fn if allow_list else None)
    core, w = wrap(core, lang)
    return core, st, w


def secret_more(lang):
    return lambda: secret_line(lang)[1]


def benign_more(lang):
    return lambda: benign_line(lang)[1]


def repeat(n, fn):
    done = 0
    guard = 0
    while done < n:
        guard += 1
        assert guard < n * 60 + 200, "too many duplicates"
        if fn():
            done += 1


def build():
    langs_seq = ["en"] * N_PERSONAL_EN
    for c in LANG_CODES:
        langs_seq += [c] * N_PERSONAL_PER_LANG
    # ---- secret / plain / personal
    for lang in langs_seq:
        def one(lang=lang):
            kind, core, mode = personal_secret_payload(lang)
            core, st, w = finish_core(core, lang, secret_more(lang), allow_style=(mode != "echo"))
            return add("secret", "plain", "personal", kind, lang, core, st, w)
        repeat(1, one)
    # ---- benign / plain / notes (same language sequence and the same mode weights)
    for lang in langs_seq:
        def one(lang=lang):
            kind, core, mode = benign_plain_payload(lang)
            core, st, w = finish_core(core, lang, benign_more(lang), allow_style=(mode != "echo"))
            return add("benign", "plain", "note", kind, lang, core, st, w)
        repeat(1, one)
    # ---- secret / plain / vendor
    def vend():
        kind, lang, core, c = vendor_secret_payload()
        core, st, w = finish_core(core, lang, None, allow_style=False)
        return add("secret", "plain", "vendor", kind, lang, core, "msg-" + c, w)
    repeat(N_VENDOR, vend)
    # ---- benign / hard / vendor look-alikes
    def devref():
        kind, lang, core, c = vendor_lookalike_payload()
        core, st, w = finish_core(core, lang, None, allow_style=False)
        return add("benign", "hard", "devref", kind, lang, core, "msg-" + c, w)
    repeat(N_DEVREF, devref)
    # ---- hard evasions and their mirrors
    for name, (fn, target, ws, wm, scope) in TECHS.items():
        def ev(name=name):
            lang, core = hard_record(name, benign=False)
            core, st, w = finish_core(core, lang, None, allow_list=False)
            return add("secret", "hard", "evasion", name, lang, core, st, w)
        repeat(ws, ev)

        def mi(name=name):
            lang, core = hard_record(name, benign=True)
            core, st, w = finish_core(core, lang, None, allow_list=False)
            return add("benign", "hard", "mirror", MIRROR_NAMES[name], lang, core, st, w)
        repeat(wm, mi)
    # ---- vendor token evasions / split identifiers
    def tok(benign):
        lang, kind, core = vendor_evasion(benign)
        core, st, w = finish_core(core, lang, None, allow_style=False)
        return add("benign" if benign else "secret", "hard", "token", kind, lang, core, "-", w)
    repeat(N_TOKEN_EVASION, lambda: tok(False))
    repeat(N_TOKEN_MIRROR, lambda: tok(True))
    # ---- key / namespace splits and innocent references (same branch cycle for both labels)
    for benign in (False, True):
        for i in range(N_SPLIT):
            def sp(i=i, benign=benign):
                kind, lang, core, ns3, key = split_record(benign, i % 4)
                core, st, w = finish_core(core, lang, None, allow_style=False)
                return add("benign" if benign else "secret", "hard", "ref" if benign else "split", kind, lang, core, "-", w,
                           ns3=ns3, key=key)
            repeat(1, sp)

    # ---- benign / hard: personal data, homonyms, credential talk, masked values
    def lang_cycle(n):
        return [LANG_CODES[i % len(LANG_CODES)] for i in range(n)]

    def hard_b(segment, maker, lang):
        def one():
            kind, line = maker(lang)
            core, st, w = finish_core({"lines": [line]}, lang, benign_more(lang), allow_list=True)
            return add("benign", "hard", segment, kind, lang, core, st, w)
        return one
    for lang in ["en"] * N_IDENT_EN + lang_cycle(N_IDENT_LANG):
        repeat(1, hard_b("ident", (lambda L: en_personal_id()) if lang == "en" else lang_personal_id, lang))
    for lang in ["en"] * N_HOM_EN + lang_cycle(N_HOM_LANG):
        repeat(1, hard_b("homonym", homonym_line, lang))
    for lang in ["en"] * N_TALK_EN + lang_cycle(N_TALK_LANG):
        repeat(1, hard_b("talk", talk_line, lang))
    for lang in ["en"] * 20 + lang_cycle(N_MASKED - 20):
        repeat(1, hard_b("masked", masked_line, lang))


def assign_and_render():
    # ids per (label, variant, segment) in generation order
    counters = {}
    for r in RECS:
        k = (r["label"], r["variant"], r["segment"])
        counters[k] = counters.get(k, 0) + 1
        r["num"] = counters[k]
    widths = {k: max(3, len(str(v))) for k, v in counters.items()}
    # exact 70/20/10 value types per label
    for label in ("secret", "benign"):
        idx = [i for i, r in enumerate(RECS) if r["label"] == label]
        n = len(idx)
        n_obj, n_arr = round(n * 0.20), round(n * 0.10)
        shapes = ["object"] * n_obj + ["array"] * n_arr + ["string"] * (n - n_obj - n_arr)
        R.shuffle(shapes)
        for i, s in zip(idx, shapes):
            RECS[i]["shape"] = s
    users = []
    while len(users) < 600:
        u = "u" + digs(R.randint(4, 9), True)
        if u not in users:
            users.append(u)
    keys_seen = set()
    values_seen = set()
    out = []
    for r in RECS:
        ns = ["memories", ch(users)]
        if r["ns3"] is not None:
            ns.append(r["ns3"])
        elif chance(0.30):
            ns.append(ch(NS_NEUTRAL))
        key = r["key"]
        while key is None or key in keys_seen:
            key = "mem_" + rs(HX, R.randint(8, 32))
        keys_seen.add(key)
        value = render(r["core"], r["shape"], r["lang"])
        cv = json.dumps(value, sort_keys=True, ensure_ascii=False)
        assert cv not in values_seen, cv
        values_seen.add(cv)
        seg = r["segment"]
        rid = f"t20b-{r['label'][0]}-{r['variant'][0]}-{seg}-{r['num']:0{widths[(r['label'], r['variant'], seg)]}d}"
        obj = {"id": rid, "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": ns, "key": key,
               "value": value}
        out.append((obj, r))
    R.shuffle(out)
    return out


def main(argv):
    build()
    rows = assign_and_render()
    lines = [json.dumps(o, ensure_ascii=False) for o, _ in rows]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)
    sha = hashlib.sha256(data).hexdigest()
    if "--stats" in argv or "--tables" in argv:
        stats(rows, sha, tables="--tables" in argv)
    return 0


def _count(rows, keyf):
    d = {}
    for o, r in rows:
        k = keyf(o, r)
        d[k] = d.get(k, 0) + 1
    return d


def stats(rows, sha, tables=False):
    n = len(rows)
    lv = _count(rows, lambda o, r: (o["label"], o["variant"]))
    print(f"records: {n}")
    for lab in ("secret", "benign"):
        print(f"  {lab}: {lv.get((lab, 'plain'), 0) + lv.get((lab, 'hard'), 0)}  "
              f"(plain {lv.get((lab, 'plain'), 0)}, hard {lv.get((lab, 'hard'), 0)})")
    print(f"sha256: {sha}")
    if not tables:
        return

    def table(title, keyf, cols=("secret", "benign"), sort_by_total=True, limit=None):
        d = _count(rows, lambda o, r: (keyf(o, r), o["label"]))
        keys = []
        for (k, _l) in d:
            if k not in keys:
                keys.append(k)
        if sort_by_total:
            keys.sort(key=lambda k: (-sum(d.get((k, c), 0) for c in cols), str(k)))
        else:
            keys.sort(key=str)
        print(f"\n### {title}\n")
        print("| " + " | ".join([title.split(" by ")[-1]] + list(cols)) + " |")
        print("|" + "---|" * (len(cols) + 1))
        for k in keys[:limit]:
            print(f"| {k} | " + " | ".join(str(d.get((k, c), 0)) for c in cols) + " |")

    table("records by segment", lambda o, r: f"{o['variant']}/{r['segment']}")
    table("records by value type", lambda o, r: {str: "string", dict: "object", list: "array"}[type(o["value"])])
    table("records by wrapping", lambda o, r: r["wrap"])
    table("records by style", lambda o, r: r["style"])
    table("records by namespace length", lambda o, r: len(o["namespace"]))
    table("records by language", lambda o, r: r["lang"])
    table("records by kind", lambda o, r: o["kind"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
