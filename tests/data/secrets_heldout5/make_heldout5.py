#!/usr/bin/env python3
"""make_heldout5.py -- generator for the FROZEN held-out secret-detection corpus #5.

Writes ``heldout5.jsonl`` next to this file.  Standard library only, Python 3.11+.

Deterministic: every random choice comes from one ``random.Random(SEED)``; the
code never iterates over sets, never reads the clock or the environment, and
writes with fixed separators, so two runs produce identical bytes.

Each output line is one memory an agent wants to store:

    {"id", "label": "secret"|"benign", "kind", "variant": "plain"|"hard",
     "namespace": [...], "key": "...", "value": <any JSON>}

The corpus was written from scratch, from general knowledge of credential
formats and of how people write notes; it was not derived from the detector
under test.  See README.md for the decisions taken on ambiguous cases.

Sections:
  1. helpers (random strings, checksums, DER/PEM, base58, bech32, ...)
  2. vendor API tokens (~125 vendors) x many file formats / languages
  3. credentials without a vendor prefix (passwords, PINs, keys, cards, ...)
  4. evasions (variant "hard" secrets, one technique per kind "evade_*")
  5. benign ordinary memories (variant "plain")
  6. benign look-alikes (variant "hard")
  7. assemble, shuffle, number, write, validate
"""
from __future__ import annotations

import base64
import codecs
import hashlib
import json
import os
import random
import re
import string
import sys

SEED = 202406115
R = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "heldout5.jsonl")

# ---------------------------------------------------------------------------
# 1. helpers
# ---------------------------------------------------------------------------

ALNUM = string.ascii_letters + string.digits
LETTERS = string.ascii_letters
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64U = ALNUM + "-_"
B32 = UPPER + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def rs(n: int, alphabet: str = ALNUM) -> str:
    """Random string of length n over alphabet."""
    return "".join(R.choice(alphabet) for _ in range(n))


def hx(n: int) -> str:
    return rs(n, HEX)


def dg(n: int) -> str:
    """n random digits, first one non-zero."""
    return str(R.randint(1, 9)) + rs(n - 1, DIGITS)


def rbytes(n: int) -> bytes:
    return bytes(R.getrandbits(8) for _ in range(n))


def pick(seq):
    return R.choice(seq)


def uuid4() -> str:
    h = list(hx(32))
    h[12] = "4"
    h[16] = R.choice("89ab")
    s = "".join(h)
    return f"{s[:8]}-{s[8:12]}-{s[12:16]}-{s[16:20]}-{s[20:]}"


def b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def b64s(s: str) -> str:
    return b64(s.encode())


def wrap(s: str, width: int = 64) -> str:
    return "\n".join(s[i:i + width] for i in range(0, len(s), width))


def chunks(s: str, n: int) -> list[str]:
    """Split s into n roughly equal consecutive pieces."""
    size = -(-len(s) // n)
    return [s[i:i + size] for i in range(0, len(s), size)]


def date(year_from: int = 2023, year_to: int = 2025) -> str:
    return f"{R.randint(year_from, year_to)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def ts() -> str:
    return f"{date(2024, 2025)}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}Z"


class Rot:
    """Round-robin over a seeded shuffle, so every option is used about equally."""

    def __init__(self, items):
        self.items = list(items)
        R.shuffle(self.items)
        self.i = 0

    def next(self):
        x = self.items[self.i % len(self.items)]
        self.i += 1
        if self.i % len(self.items) == 0:
            R.shuffle(self.items)
        return x


# --- checksums -------------------------------------------------------------

def luhn_ok(num: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def luhn_complete(partial: str) -> str:
    for c in DIGITS:
        if luhn_ok(partial + c):
            return partial + c
    raise AssertionError


def luhn_break(num: str) -> str:
    """Return num with the last digit changed so that it fails Luhn."""
    if not luhn_ok(num):
        return num
    last = (int(num[-1]) + R.randint(1, 9)) % 10
    return num[:-1] + str(last)


CARD_BRANDS = {
    "Visa": (["4"], 16),
    "Mastercard": (["51", "52", "53", "54", "55", "2221", "2296", "2519", "2720"], 16),
    "American Express": (["34", "37"], 15),
    "Discover": (["6011", "644", "65"], 16),
    "JCB": (["3528", "3541", "3566", "3589"], 16),
    "Diners Club": (["36", "38"], 14),
    "UnionPay": (["62"], 19),
    "Maestro": (["6759", "6761"], 16),
    "Mir": (["2200", "2202", "2204"], 16),
}


def card_number(brand: str) -> str:
    prefixes, length = CARD_BRANDS[brand]
    p = pick(prefixes)
    return luhn_complete(p + rs(length - len(p) - 1, DIGITS))


def card_fmt(num: str, sep: str = " ") -> str:
    if len(num) == 15:
        parts = [num[:4], num[4:10], num[10:]]
    elif len(num) == 14:
        parts = [num[:4], num[4:10], num[10:]]
    else:
        parts = [num[i:i + 4] for i in range(0, len(num), 4)]
    return sep.join(parts)


def expiry() -> str:
    return f"{R.randint(1, 12):02d}/{R.randint(26, 31)}"


def cvv(brand: str) -> str:
    return rs(4 if brand == "American Express" else 3, DIGITS)


def iban(cc: str, bban: str) -> str:
    rearranged = bban + cc + "00"
    num = "".join(str(int(c, 36)) for c in rearranged)
    check = 98 - int(num) % 97
    return f"{cc}{check:02d}{bban}"


def iban_fmt(s: str) -> str:
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def random_iban() -> str:
    cc = pick(["DE", "NL", "FR", "GB", "ES", "IT", "BE", "AT"])
    if cc == "DE":
        bban = rs(8, DIGITS) + rs(10, DIGITS)
    elif cc == "NL":
        bban = pick(["ABNA", "INGB", "RABO", "TRIO"]) + rs(10, DIGITS)
    elif cc == "FR":
        bban = rs(23, DIGITS)
    elif cc == "GB":
        bban = pick(["NWBK", "BARC", "LOYD", "MIDL"]) + rs(14, DIGITS)
    elif cc == "ES":
        bban = rs(20, DIGITS)
    elif cc == "IT":
        bban = pick(UPPER) + rs(10, DIGITS) + rs(12, DIGITS)
    elif cc == "BE":
        bban = rs(12, DIGITS)
    else:
        bban = rs(16, DIGITS)
    return iban(cc, bban)


def aba_routing() -> str:
    while True:
        first = pick(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12",
                      "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32"])
        d = [int(c) for c in first + rs(6, DIGITS)]
        for c in range(10):
            full = d + [c]
            if (3 * (full[0] + full[3] + full[6]) + 7 * (full[1] + full[4] + full[7])
                    + (full[2] + full[5] + full[8])) % 10 == 0:
                return "".join(map(str, full))


def ssn() -> str:
    while True:
        area = R.randint(1, 899)
        if area != 666:
            break
    return f"{area:03d}-{R.randint(1, 99):02d}-{R.randint(1, 9999):04d}"


def isbn13() -> str:
    """Valid ISBN-13 that is not also Luhn-valid (so it cannot pass as a card)."""
    while True:
        core = "978" + rs(9, DIGITS)
        total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(core))
        full = core + str((10 - total % 10) % 10)
        if not luhn_ok(full):
            return full


def issn() -> str:
    core = rs(7, DIGITS)
    total = sum(int(c) * w for c, w in zip(core, range(8, 1, -1), strict=True))
    chk = (11 - total % 11) % 11
    return f"{core[:4]}-{core[4:]}{'X' if chk == 10 else chk}"


def imei() -> str:
    return luhn_complete(pick(["35", "86", "01"]) + rs(12, DIGITS))


def digits_no_luhn(n: int) -> str:
    """Digit string that is NOT Luhn-valid (for benign long numbers)."""
    return luhn_break(dg(n))


# --- base58 / bech32 / crypto formats ----------------------------------------

def b58encode(b: bytes) -> str:
    n = int.from_bytes(b, "big")
    out = ""
    while n:
        n, r = divmod(n, 58)
        out = B58[r] + out
    pad = len(b) - len(b.lstrip(b"\x00"))
    return "1" * pad + out


def b58check(payload: bytes) -> str:
    chk = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58encode(payload + chk)


def wif(compressed: bool = True) -> str:
    payload = b"\x80" + rbytes(32) + (b"\x01" if compressed else b"")
    return b58check(payload)


def btc_legacy_address() -> str:
    return b58check(b"\x00" + rbytes(20))


def _bech32_polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = ((chk & 0x1FFFFFF) << 5) ^ v
        for i in range(5):
            if (top >> i) & 1:
                chk ^= gen[i]
    return chk


def _bech32_hrp_expand(hrp):
    return [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]


def _convertbits(data, frombits, tobits):
    acc = bits = 0
    ret = []
    maxv = (1 << tobits) - 1
    for value in data:
        acc = (acc << frombits) | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            ret.append((acc >> bits) & maxv)
    if bits:
        ret.append((acc << (tobits - bits)) & maxv)
    return ret


def bech32(hrp: str, data5: list[int]) -> str:
    values = _bech32_hrp_expand(hrp) + data5
    polymod = _bech32_polymod(values + [0] * 6) ^ 1
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(BECH32[d] for d in data5 + checksum)


def btc_bech32_address() -> str:
    return bech32("bc", [0] + _convertbits(rbytes(20), 8, 5))


def age_secret_key() -> str:
    return bech32("age-secret-key-", _convertbits(rbytes(32), 8, 5)).upper()


def age_public_key() -> str:
    return bech32("age", _convertbits(rbytes(32), 8, 5))


def eth_address() -> str:
    return "0x" + hx(40)


def ulid() -> str:
    return pick("01") + rs(25, CROCKFORD)


# --- DER / PEM ---------------------------------------------------------------

def _der_len(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(b)]) + b


def der(tag: int, body: bytes) -> bytes:
    return bytes([tag]) + _der_len(len(body)) + body


def der_int(b: bytes) -> bytes:
    b = b.lstrip(b"\x00") or b"\x00"
    if b[0] & 0x80:
        b = b"\x00" + b
    return der(0x02, b)


def der_seq(*parts: bytes) -> bytes:
    return der(0x30, b"".join(parts))


def _big(nbytes: int) -> bytes:
    b = bytearray(rbytes(nbytes))
    b[0] |= 0x80
    b[-1] |= 1
    return bytes(b)


OID_RSA = bytes.fromhex("06092a864886f70d010101")
OID_P256 = bytes.fromhex("06082a8648ce3d030107")
OID_ECPUB = bytes.fromhex("06072a8648ce3d0201")
OID_PBES2 = bytes.fromhex("06092a864886f70d01050d")
NULL = b"\x05\x00"


def pem(label: str, body: bytes, width: int = 64) -> str:
    return f"-----BEGIN {label}-----\n{wrap(b64(body), width)}\n-----END {label}-----"


def rsa_pkcs1_der(bits: int = 2048) -> bytes:
    nb = bits // 8
    return der_seq(der_int(b"\x00"), der_int(_big(nb)), der_int(b"\x01\x00\x01"),
                   der_int(_big(nb)), der_int(_big(nb // 2)), der_int(_big(nb // 2)),
                   der_int(_big(nb // 2)), der_int(_big(nb // 2)), der_int(_big(nb // 2)))


def rsa_private_pem(bits: int = 2048) -> str:
    return pem("RSA PRIVATE KEY", rsa_pkcs1_der(bits))


def pkcs8_rsa_pem(bits: int = 2048) -> str:
    body = der_seq(der_int(b"\x00"), der_seq(OID_RSA, NULL), der(0x04, rsa_pkcs1_der(bits)))
    return pem("PRIVATE KEY", body)


def ec_private_pem() -> str:
    body = der_seq(der_int(b"\x01"), der(0x04, rbytes(32)), der(0xA0, OID_P256),
                   der(0xA1, der(0x03, b"\x00\x04" + rbytes(64))))
    return pem("EC PRIVATE KEY", body)


def ed25519_pkcs8_pem() -> str:
    return pem("PRIVATE KEY", bytes.fromhex("302e020100300506032b657004220420") + rbytes(32))


def dsa_private_pem() -> str:
    body = der_seq(der_int(b"\x00"), der_int(_big(128)), der_int(_big(20)), der_int(_big(128)),
                   der_int(_big(128)), der_int(_big(20)))
    return pem("DSA PRIVATE KEY", body)


def encrypted_pkcs8_pem() -> str:
    algo = der_seq(OID_PBES2, der_seq(
        der_seq(bytes.fromhex("06092a864886f70d01050c"),
                der_seq(der(0x04, rbytes(16)), der_int((2048).to_bytes(2, "big")),
                        der_seq(bytes.fromhex("06082a864886f70d0209"), NULL))),
        der_seq(bytes.fromhex("060960864801650304012a"), der(0x04, rbytes(16)))))
    return pem("ENCRYPTED PRIVATE KEY", der_seq(algo, der(0x04, rbytes(1232))))


def rsa_public_pem() -> str:
    pub = der_seq(der_int(_big(256)), der_int(b"\x01\x00\x01"))
    return pem("PUBLIC KEY", der_seq(der_seq(OID_RSA, NULL), der(0x03, b"\x00" + pub)))


def ec_public_pem() -> str:
    return pem("PUBLIC KEY", der_seq(der_seq(OID_ECPUB, OID_P256),
                                    der(0x03, b"\x00\x04" + rbytes(64))))


def certificate_pem() -> str:
    tbs = der_seq(der(0xA0, der_int(b"\x02")), der_int(rbytes(16)),
                  der_seq(bytes.fromhex("06092a864886f70d01010b"), NULL),
                  der(0x04, rbytes(R.randint(700, 900))))
    return pem("CERTIFICATE", der_seq(tbs, der_seq(bytes.fromhex("06092a864886f70d01010b"), NULL),
                                      der(0x03, b"\x00" + rbytes(256))))


def _ssh_str(b: bytes) -> bytes:
    return len(b).to_bytes(4, "big") + b


def openssh_ed25519(comment: str) -> tuple[str, str]:
    """Return (private OpenSSH PEM, public authorized_keys line)."""
    pub = rbytes(32)
    priv = rbytes(32)
    pubblob = _ssh_str(b"ssh-ed25519") + _ssh_str(pub)
    check = rbytes(4)
    sec = check + check + pubblob + _ssh_str(priv + pub) + _ssh_str(comment.encode())
    i = 1
    while len(sec) % 8:
        sec += bytes([i])
        i += 1
    blob = (b"openssh-key-v1\x00" + _ssh_str(b"none") + _ssh_str(b"none") + _ssh_str(b"")
            + (1).to_bytes(4, "big") + _ssh_str(pubblob) + _ssh_str(sec))
    private = f"-----BEGIN OPENSSH PRIVATE KEY-----\n{wrap(b64(blob), 70)}\n-----END OPENSSH PRIVATE KEY-----"
    return private, f"ssh-ed25519 {b64(pubblob)} {comment}"


def ssh_rsa_public(comment: str) -> str:
    blob = _ssh_str(b"ssh-rsa") + _ssh_str(b"\x01\x00\x01") + _ssh_str(b"\x00" + _big(256))
    return f"ssh-rsa {b64(blob)} {comment}"


def _crc24(data: bytes) -> int:
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def pgp_block(private: bool) -> str:
    created = (1700000000 + R.randint(0, 40000000)).to_bytes(4, "big")
    if private:
        body = b"\x95\x05\x58\x04" + created + b"\x01\x08\x00" + rbytes(1400)
        label = "PGP PRIVATE KEY BLOCK"
    else:
        body = b"\x99\x02\x0d\x04" + created + b"\x01\x10\x00" + rbytes(560)
        label = "PGP PUBLIC KEY BLOCK"
    crc = b64(_crc24(body).to_bytes(3, "big"))
    return f"-----BEGIN {label}-----\n\n{wrap(b64(body), 64)}\n={crc}\n-----END {label}-----"


def jwt(payload: dict, alg: str = "HS256") -> str:
    header = {"alg": alg, "typ": "JWT"}
    h = b64u(json.dumps(header, separators=(",", ":")).encode())
    p = b64u(json.dumps(payload, separators=(",", ":")).encode())
    sig = b64u(rbytes(256 if alg.startswith("RS") else 32))
    return f"{h}.{p}.{sig}"


def wg_key() -> str:
    return b64(rbytes(32))


# --- human-made passwords ------------------------------------------------------

PW_WORDS = ["Sunflower", "Marigold", "Pretzel", "Harbor", "Tulip", "Falcon", "Juniper", "Biscuit",
            "Lighthouse", "Cobalt", "Mango", "Saffron", "Pinecone", "Thunder", "Velvet", "Walrus",
            "Nebula", "Cactus", "Orchid", "Pancake", "Gondola", "Hazel", "Dolphin", "Quartz",
            "Rosemary", "Maple", "Winter", "Bluebird", "Copper", "Zeppelin", "Kiwi", "Lantern",
            "Paprika", "Noodle", "Otter", "Sparrow", "Tornado", "Violet", "Waffle", "Yodel"]
PW_NAMES = ["Karolina", "Benji", "Mittens", "Rocco", "Ayesha", "Frodo", "Luna", "Oskar", "Pippa",
            "Dmitri", "Chloe", "Bodhi", "Mateo", "Ingrid", "Kofi", "Noor"]
SYMS = "!@#$%&*?-_.+="
PP_WORDS = ["correct", "orange", "river", "stapler", "violin", "kettle", "meadow", "granite",
            "puzzle", "banjo", "thistle", "comet", "lagoon", "saddle", "ember", "pickle", "walnut",
            "glacier", "teapot", "harvest", "marble", "falcon", "cinnamon", "ladder", "ocean"]


def human_pw() -> str:
    style = R.randrange(8)
    if style == 0:
        return pick(PW_WORDS) + pick(SYMS) + pick(PW_WORDS) + rs(R.randint(2, 4), DIGITS)
    if style == 1:
        return pick(PW_WORDS).lower() + str(R.randint(1965, 2012)) + pick(SYMS)
    if style == 2:
        w = pick(PW_WORDS).replace("o", "0").replace("a", "@").replace("e", "3").replace("i", "1")
        return w + pick(SYMS) + rs(2, DIGITS)
    if style == 3:
        return rs(R.randint(12, 18), ALNUM + "!@#$%^&*-_")
    if style == 4:
        return pick(PW_WORDS) + pick(PW_WORDS) + str(R.randint(2015, 2025))
    if style == 5:
        return pick(PW_NAMES) + f"{R.randint(1, 28):02d}{R.randint(1, 12):02d}" + pick(SYMS)
    if style == 6:
        return pick(["Zürich", "Ñandú", "Smørrebrød", "Crème", "Ärmel", "Łódź"]) + pick(SYMS) + rs(4, DIGITS)
    return pick(PW_WORDS)[:R.randint(3, 6)] + rs(3, DIGITS) + pick(PW_WORDS).upper()[:3] + pick(SYMS)


def passphrase() -> str:
    words = [pick(PP_WORDS) for _ in range(R.randint(3, 5))]
    style = R.randrange(4)
    if style == 0:
        return "-".join(words)
    if style == 1:
        return " ".join(words)
    if style == 2:
        return "".join(w.capitalize() for w in words) + str(R.randint(10, 99))
    return ".".join(words) + pick(SYMS)


def pin(n: int = 4) -> str:
    while True:
        p = rs(n, DIGITS)
        if len(set(p)) > 1 and p not in ("1234", "123456", "0000"):
            return p


# --- records ---------------------------------------------------------------------

RECORDS: list[dict] = []
CARD_NUMBERS: list[str] = []      # every secret card number, for the Luhn check
CARDS_SPELLED: list[str] = []     # subset written out in words (not present as digits)
USERS = ["user-17", "u_4821", "alice", "maria.k", "patient-0932", "tomasz", "li.wei", "user-203",
         "k.nakamura", "emp-5521", "sam", "d.okafor", "fatima.z", "user-88", "joao", "priya_r"]
TEXT_FIELDS = ["text"] * 8 + ["content", "note", "memory"]


def make_ns(area: str | None = None) -> list[str]:
    u = pick(USERS)
    style = R.randrange(6)
    if style == 0:
        return ["memories", u]
    if style == 1:
        return ["memories", u, area or "general"]
    if style == 2:
        return ["agent", "notes", u]
    if style == 3:
        return ["users", u, "facts"]
    if style == 4:
        return [u, "semantic"]
    return ["memories", u]


def make_key(hint: str | None = None) -> str:
    style = R.randrange(6)
    if style in (0, 1):
        return uuid4()
    if style == 2:
        return f"mem-{R.randint(1, 99999):05d}"
    if style == 3 and hint:
        return f"{hint}-{R.randint(1, 999)}"
    if style == 4:
        return f"note_{date().replace('-', '')}_{R.randint(1, 99)}"
    return f"{pick(['fact', 'pref', 'item', 'ctx', 'episode'])}_{R.randint(1, 9999)}"


def add(label: str, kind: str, variant: str, value, key: str | None = None,
        ns: list[str] | None = None, hint: str | None = None, raw: bool = False) -> None:
    assert label in ("secret", "benign"), label
    assert variant in ("plain", "hard"), variant
    if isinstance(value, str) and not raw:
        value = {pick(TEXT_FIELDS): value}
    RECORDS.append({
        "label": label,
        "kind": kind,
        "variant": variant,
        "namespace": ns if ns is not None else make_ns(),
        "key": key if key is not None else make_key(hint),
        "value": value,
    })


def secret(kind, value, variant="plain", **kw):
    add("secret", kind, variant, value, **kw)


LUHN_RUN = re.compile(r"(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)")


def _break_luhn_runs(obj):
    """Benign records must not contain a Luhn-valid 13-19 digit run by accident
    (e.g. inside a random DOI or hash): change the last digit of such a run."""
    if isinstance(obj, str):
        def fix(m):
            g = m.group()
            if luhn_ok(re.sub(r"\D", "", g)):
                return g[:-1] + str((int(g[-1]) + R.randint(1, 9)) % 10)
            return g
        return LUHN_RUN.sub(fix, obj)
    if isinstance(obj, dict):
        return {_break_luhn_runs(k): _break_luhn_runs(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_break_luhn_runs(v) for v in obj]
    return obj


def benign(kind, value, variant="plain", **kw):
    if kind not in ("doc_example", "imei", "isbn"):
        value = _break_luhn_runs(value)
    add("benign", kind, variant, value, **kw)


# ---------------------------------------------------------------------------
# 2. vendor API tokens
# ---------------------------------------------------------------------------

class V:
    """One vendor credential format.

    fields: list of (ENV_NAME, generator) -- most vendors have one field,
            some come as pairs/triples (AWS key id + secret, Twilio SID + token).
    auth:   how the credential is sent over HTTP:
            ("hdr", "Header: ... {t}")   header built from field `idx`
            ("basic", "{f0}:{f1}")       HTTP Basic, template over the fields
            ("url",)                      token is part of the URL (host has {t})
            ("query", "param")            token as query parameter
            ("none",)                     not an HTTP bearer-style credential
    prefixed: the token is recognisable without context (distinctive prefix
            or structure); only those are used bare.
    """

    def __init__(self, name, slug, fields, host, auth=("hdr", "Authorization: Bearer {t}"),
                 prefixed=True, n=2, idx=0):
        self.name, self.slug, self.fields, self.host = name, slug, fields, host
        self.auth, self.prefixed, self.n, self.idx = auth, prefixed, n, idx

    def make(self):
        return [(env, gen()) for env, gen in self.fields]


def _openai():
    style = R.randrange(4)
    if style == 0:
        return "sk-" + rs(20) + "T3BlbkFJ" + rs(20)
    if style == 1:
        return "sk-svcacct-" + rs(74, B64U) + "T3BlbkFJ" + rs(74, B64U)
    return "sk-proj-" + rs(74, B64U) + "T3BlbkFJ" + rs(74, B64U)


def _slack():
    style = R.randrange(3)
    if style == 0:
        return f"xoxb-{dg(11)}-{dg(13)}-{rs(24)}"
    if style == 1:
        return f"xoxp-{dg(11)}-{dg(11)}-{dg(13)}-{hx(32)}"
    return f"xapp-1-A{rs(10, UPPER + DIGITS)}-{dg(13)}-{hx(64)}"


def _discord():
    uid = dg(18).encode()
    return f"{b64(uid).rstrip('=')}.{rs(6, B64U)}.{rs(38, B64U)}"


def _intercom():
    return b64s(f"tok:{uuid4()}:1:0")


def _mapbox_secret():
    user = pick(["jdoe", "acme-maps", "lenakraus", "routeplanner"])
    payload = b64u(json.dumps({"u": user, "a": "cl" + rs(23, LOWER + DIGITS)}, separators=(",", ":")).encode())
    return f"sk.{payload}.{rs(22, B64U)}"


def _one_password_sa():
    body = {"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
            "iterations": 650000, "salt": b64u(rbytes(16))}, "email": f"{rs(13, LOWER + DIGITS)}@1passwordserviceaccounts.com",
            "srpX": hx(64), "muk": {"alg": "A256GCM", "ext": True, "k": b64u(rbytes(32)), "key_ops": ["encrypt", "decrypt"],
            "kty": "oct", "kid": "mp"}, "secretKey": f"A3-{rs(6, UPPER + DIGITS)}-{rs(6, UPPER + DIGITS)}-{rs(5, UPPER + DIGITS)}-{rs(5, UPPER + DIGITS)}-{rs(5, UPPER + DIGITS)}-{rs(5, UPPER + DIGITS)}",
            "throttleSecret": {"seed": hx(64), "uuid": rs(26, UPPER + DIGITS)}, "deviceUuid": rs(26, LOWER + DIGITS)}
    return "ops_" + b64u(json.dumps(body, separators=(",", ":")).encode())


def _supabase():
    if R.random() < 0.5:
        return "sb_secret_" + rs(31, B64U)
    ref = rs(20, LOWER)
    return jwt({"iss": "supabase", "ref": ref, "role": "service_role", "iat": 1710000000 + R.randint(0, 9999999),
                "exp": 2025000000 + R.randint(0, 9999999)})


def _jfrog():
    return b64s(f"reftkn:01:{R.randint(1900000000, 2099999999)}:{rs(31)}")[:64]


def _twitter():
    return "AAAAAAAAAAAAAAAAAAAAA" + rs(30) + "%3D" + rs(50)


def _person_email():
    return f"{pick(['jana', 'omar', 'lee', 'sofia', 'raj', 'emma', 'tobias', 'ines'])}.{pick(['novak', 'haddad', 'chen', 'rossi', 'iyer', 'berg', 'keller', 'silva'])}@{pick(['gmail.com', 'outlook.com', 'acme.io', 'posteo.de', 'proton.me'])}"


VENDORS = [
    V("Anthropic", "anthropic", [("ANTHROPIC_API_KEY", lambda: pick(["sk-ant-api03-", "sk-ant-api03-", "sk-ant-admin01-"]) + rs(93, B64U) + "AA")],
      "https://api.anthropic.com/v1/messages", ("hdr", "x-api-key: {t}"), n=4),
    V("OpenAI", "openai", [("OPENAI_API_KEY", _openai)], "https://api.openai.com/v1/chat/completions", n=4),
    V("Google Gemini", "gemini", [("GEMINI_API_KEY", lambda: "AIza" + rs(35, B64U))],
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-1.5-flash:generateContent", ("hdr", "x-goog-api-key: {t}"), n=3),
    V("Google Maps", "google-maps", [("GOOGLE_MAPS_API_KEY", lambda: "AIza" + rs(35, B64U))],
      "https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key={t}", ("url",)),
    V("Google OAuth", "google-oauth", [("GOOGLE_CLIENT_ID", lambda: f"{dg(12)}-{rs(32, LOWER + DIGITS)}.apps.googleusercontent.com"),
                                       ("GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + rs(28, B64U))],
      "https://oauth2.googleapis.com/token", ("basic", "{f0}:{f1}")),
    V("Google access token", "google-ya29", [("GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + rs(160, B64U))],
      "https://www.googleapis.com/drive/v3/files"),
    V("Azure OpenAI", "azure-openai", [("AZURE_OPENAI_API_KEY", lambda: hx(32))],
      "https://contoso-ai.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-06-01",
      ("hdr", "api-key: {t}"), prefixed=False),
    V("Azure Storage", "azure-storage", [("AZURE_STORAGE_CONNECTION_STRING", lambda: f"DefaultEndpointsProtocol=https;AccountName={pick(['contosodata', 'mediastore01', 'backupsweu'])};AccountKey={b64(rbytes(64))};EndpointSuffix=core.windows.net")],
      "", ("none",)),
    V("Azure AD", "azure-ad", [("AZURE_TENANT_ID", uuid4), ("AZURE_CLIENT_ID", uuid4),
                               ("AZURE_CLIENT_SECRET", lambda: rs(3) + pick(DIGITS) + "Q~" + rs(34, ALNUM + "~._-"))],
      "", ("none",), prefixed=False),
    V("Azure DevOps", "azure-devops", [("AZURE_DEVOPS_EXT_PAT", lambda: rs(52, LOWER + "234567"))],
      "https://dev.azure.com/contoso/_apis/projects?api-version=7.1", ("basic", ":{f0}"), prefixed=False),
    V("AWS", "aws", [("AWS_ACCESS_KEY_ID", lambda: "AKIA" + rs(16, B32)),
                     ("AWS_SECRET_ACCESS_KEY", lambda: rs(40, ALNUM + "/+"))],
      "", ("none",), n=4),
    V("AWS STS", "aws-sts", [("AWS_ACCESS_KEY_ID", lambda: "ASIA" + rs(16, B32)),
                             ("AWS_SECRET_ACCESS_KEY", lambda: rs(40, ALNUM + "/+")),
                             ("AWS_SESSION_TOKEN", lambda: "IQoJb3JpZ2luX2VjE" + rs(320, B64))],
      "", ("none",)),
    V("GitHub", "github", [("GITHUB_TOKEN", lambda: pick(["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) + rs(36))],
      "https://api.github.com/user/repos", n=5),
    V("GitHub fine-grained", "github-pat", [("GH_TOKEN", lambda: "github_pat_11" + rs(20, UPPER + DIGITS) + "_" + rs(59))],
      "https://api.github.com/repos/acme/infra/issues", n=3),
    V("GitLab", "gitlab", [("GITLAB_TOKEN", lambda: pick(["glpat-", "glpat-", "gldt-", "glrt-"]) + rs(20, B64U))],
      "https://gitlab.com/api/v4/projects", ("hdr", "PRIVATE-TOKEN: {t}"), n=3),
    V("GitLab trigger", "gitlab-trigger", [("CI_TRIGGER_TOKEN", lambda: "glptt-" + hx(40))],
      "https://gitlab.com/api/v4/projects/4821/trigger/pipeline", ("none",)),
    V("Bitbucket", "bitbucket", [("BITBUCKET_USERNAME", lambda: pick(["mkowalski", "devops-bot", "lena_b"])),
                                 ("BITBUCKET_APP_PASSWORD", lambda: "ATBB" + rs(32))],
      "https://api.bitbucket.org/2.0/repositories/acme", ("basic", "{f0}:{f1}")),
    V("Atlassian", "jira", [("JIRA_EMAIL", _person_email),
                            ("JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + rs(170, B64U) + "=" + hx(8).upper())],
      "https://acme.atlassian.net/rest/api/3/myself", ("basic", "{f0}:{f1}")),
    V("Slack", "slack", [("SLACK_BOT_TOKEN", _slack)], "https://slack.com/api/chat.postMessage", n=4),
    V("Discord", "discord", [("DISCORD_BOT_TOKEN", _discord)], "https://discord.com/api/v10/users/@me",
      ("hdr", "Authorization: Bot {t}"), n=3),
    V("Telegram", "telegram", [("TELEGRAM_BOT_TOKEN", lambda: f"{R.randint(100000000, 9999999999)}:AA{rs(33, B64U)}")],
      "https://api.telegram.org/bot{t}/getUpdates", ("url",), n=3),
    V("Twilio", "twilio", [("TWILIO_ACCOUNT_SID", lambda: "AC" + hx(32)), ("TWILIO_AUTH_TOKEN", lambda: hx(32))],
      "https://api.twilio.com/2010-04-01/Accounts.json", ("basic", "{f0}:{f1}"), prefixed=False),
    V("SendGrid", "sendgrid", [("SENDGRID_API_KEY", lambda: "SG." + rs(22, B64U) + "." + rs(43, B64U))],
      "https://api.sendgrid.com/v3/mail/send", n=3),
    V("Mailgun", "mailgun", [("MAILGUN_API_KEY", lambda: "key-" + hx(32))],
      "https://api.mailgun.net/v3/mg.example.org/messages", ("basic", "api:{f0}")),
    V("Postmark", "postmark", [("POSTMARK_SERVER_TOKEN", uuid4)], "https://api.postmarkapp.com/email",
      ("hdr", "X-Postmark-Server-Token: {t}"), prefixed=False),
    V("Mailchimp", "mailchimp", [("MAILCHIMP_API_KEY", lambda: hx(32) + "-us" + str(R.randint(1, 21)))],
      "https://us6.api.mailchimp.com/3.0/lists", ("basic", "anystring:{f0}")),
    V("Stripe", "stripe", [("STRIPE_SECRET_KEY", lambda: pick(["sk_live_51", "sk_live_51", "rk_live_51"]) + rs(97))],
      "https://api.stripe.com/v1/charges", ("basic", "{f0}:"), n=4),
    V("Stripe webhook", "stripe-whsec", [("STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + rs(32))], "", ("none",)),
    V("Square", "square", [("SQUARE_ACCESS_TOKEN", lambda: "EAAA" + rs(60, B64U))],
      "https://connect.squareup.com/v2/locations"),
    V("Adyen", "adyen", [("ADYEN_API_KEY", lambda: "AQE" + rs(97, B64) + "==-" + rs(43, B64) + "=-" + rs(16, ALNUM + "@%^{}+"))],
      "https://checkout-test.adyen.com/v71/payments", ("hdr", "X-API-Key: {t}")),
    V("Braintree", "braintree", [("BRAINTREE_ACCESS_TOKEN", lambda: "access_token$production$" + rs(16, LOWER + DIGITS) + "$" + hx(32))],
      "https://payments.braintree-api.com/graphql"),
    V("PayPal", "paypal", [("PAYPAL_CLIENT_ID", lambda: "A" + rs(79, B64U)), ("PAYPAL_CLIENT_SECRET", lambda: "E" + rs(79, B64U))],
      "https://api-m.paypal.com/v1/oauth2/token", ("basic", "{f0}:{f1}"), prefixed=False),
    V("Shopify", "shopify", [("SHOPIFY_ACCESS_TOKEN", lambda: pick(["shpat_", "shpat_", "shpss_", "shpca_", "shppa_"]) + hx(32))],
      "https://acme-store.myshopify.com/admin/api/2024-04/products.json", ("hdr", "X-Shopify-Access-Token: {t}"), n=3),
    V("HubSpot", "hubspot", [("HUBSPOT_ACCESS_TOKEN", lambda: f"pat-{pick(['na1', 'eu1'])}-{uuid4()}")],
      "https://api.hubapi.com/crm/v3/objects/contacts"),
    V("Zendesk", "zendesk", [("ZENDESK_EMAIL", _person_email), ("ZENDESK_API_TOKEN", lambda: rs(40))],
      "https://acme.zendesk.com/api/v2/tickets.json", ("basic", "{f0}/token:{f1}"), prefixed=False),
    V("Intercom", "intercom", [("INTERCOM_ACCESS_TOKEN", _intercom)], "https://api.intercom.io/contacts"),
    V("Notion", "notion", [("NOTION_TOKEN", lambda: pick(["secret_" + rs(43), "ntn_" + dg(11) + rs(35)]))],
      "https://api.notion.com/v1/databases/query", n=3),
    V("Linear", "linear", [("LINEAR_API_KEY", lambda: "lin_api_" + rs(40))], "https://api.linear.app/graphql",
      ("hdr", "Authorization: {t}")),
    V("Asana", "asana", [("ASANA_PAT", lambda: f"2/{dg(16)}/{dg(16)}:{hx(32)}")],
      "https://app.asana.com/api/1.0/users/me"),
    V("Airtable", "airtable", [("AIRTABLE_TOKEN", lambda: "pat" + rs(14) + "." + hx(64))],
      "https://api.airtable.com/v0/appX1y2Z3/Tasks"),
    V("Figma", "figma", [("FIGMA_TOKEN", lambda: "figd_" + rs(40, B64U))], "https://api.figma.com/v1/me",
      ("hdr", "X-Figma-Token: {t}")),
    V("Sentry", "sentry", [("SENTRY_AUTH_TOKEN", lambda: "sntryu_" + hx(64))],
      "https://sentry.io/api/0/projects/"),
    V("Datadog", "datadog", [("DD_API_KEY", lambda: hx(32)), ("DD_APP_KEY", lambda: hx(40))],
      "https://api.datadoghq.eu/api/v1/validate", ("hdr", "DD-API-KEY: {t}"), prefixed=False),
    V("New Relic", "newrelic", [("NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(27, UPPER + DIGITS))],
      "https://api.newrelic.com/graphql", ("hdr", "API-Key: {t}")),
    V("Grafana", "grafana", [("GRAFANA_SERVICE_ACCOUNT_TOKEN", lambda: "glsa_" + rs(32) + "_" + hx(8))],
      "https://grafana.acme.net/api/dashboards/uid/k8s-nodes"),
    V("PagerDuty", "pagerduty", [("PAGERDUTY_API_TOKEN", lambda: "u+" + rs(18, B64U))],
      "https://api.pagerduty.com/incidents", ("hdr", "Authorization: Token token={t}"), prefixed=False),
    V("Opsgenie", "opsgenie", [("OPSGENIE_API_KEY", uuid4)], "https://api.opsgenie.com/v2/alerts",
      ("hdr", "Authorization: GenieKey {t}"), prefixed=False),
    V("Heroku", "heroku", [("HEROKU_API_KEY", lambda: "HRKU-AA" + rs(58, B64U))], "https://api.heroku.com/apps"),
    V("Vercel", "vercel", [("VERCEL_TOKEN", lambda: rs(24))], "https://api.vercel.com/v9/projects", prefixed=False),
    V("Netlify", "netlify", [("NETLIFY_AUTH_TOKEN", lambda: "nfp_" + rs(36))], "https://api.netlify.com/api/v1/sites"),
    V("Fly.io", "flyio", [("FLY_API_TOKEN", lambda: "fo1_" + rs(43, B64U))], "https://api.machines.dev/v1/apps"),
    V("Render", "render", [("RENDER_API_KEY", lambda: "rnd_" + rs(32))], "https://api.render.com/v1/services"),
    V("Railway", "railway", [("RAILWAY_TOKEN", uuid4)], "https://backboard.railway.app/graphql/v2", prefixed=False),
    V("DigitalOcean", "digitalocean", [("DIGITALOCEAN_TOKEN", lambda: pick(["dop_v1_", "dop_v1_", "doo_v1_"]) + hx(64))],
      "https://api.digitalocean.com/v2/droplets", n=3),
    V("Linode", "linode", [("LINODE_TOKEN", lambda: hx(64))], "https://api.linode.com/v4/linode/instances", prefixed=False),
    V("Vultr", "vultr", [("VULTR_API_KEY", lambda: rs(36, UPPER + DIGITS))], "https://api.vultr.com/v2/instances", prefixed=False),
    V("Hetzner", "hetzner", [("HCLOUD_TOKEN", lambda: rs(64))], "https://api.hetzner.cloud/v1/servers", prefixed=False),
    V("Scaleway", "scaleway", [("SCW_ACCESS_KEY", lambda: "SCW" + rs(17, UPPER + DIGITS)), ("SCW_SECRET_KEY", uuid4)],
      "https://api.scaleway.com/instance/v1/zones/fr-par-1/servers", ("hdr", "X-Auth-Token: {t}"), idx=1, prefixed=False),
    V("Cloudflare", "cloudflare", [("CLOUDFLARE_API_TOKEN", lambda: rs(40, B64U))],
      "https://api.cloudflare.com/client/v4/user/tokens/verify", prefixed=False, n=3),
    V("Fastly", "fastly", [("FASTLY_API_TOKEN", lambda: rs(32, B64U))], "https://api.fastly.com/service",
      ("hdr", "Fastly-Key: {t}"), prefixed=False),
    V("Akamai", "akamai", [("client_secret", lambda: b64(rbytes(32))),
                           ("host", lambda: f"akab-{rs(16, LOWER + DIGITS)}-{rs(16, LOWER + DIGITS)}.luna.akamaiapis.net"),
                           ("access_token", lambda: f"akab-{rs(16, LOWER + DIGITS)}-{rs(16, LOWER + DIGITS)}"),
                           ("client_token", lambda: f"akab-{rs(16, LOWER + DIGITS)}-{rs(16, LOWER + DIGITS)}")],
      "", ("none",)),
    V("Docker Hub", "dockerhub", [("DOCKERHUB_TOKEN", lambda: "dckr_pat_" + rs(27, B64U))], "https://hub.docker.com/v2/users/login"),
    V("npm", "npm", [("NPM_TOKEN", lambda: "npm_" + rs(36))], "https://registry.npmjs.org/-/whoami", n=3),
    V("PyPI", "pypi", [("TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(160, B64U))], "", ("none",), n=3),
    V("RubyGems", "rubygems", [("GEM_HOST_API_KEY", lambda: "rubygems_" + hx(48))], "https://rubygems.org/api/v1/gems",
      ("hdr", "Authorization: {t}")),
    V("NuGet", "nuget", [("NUGET_API_KEY", lambda: "oy2" + rs(43, LOWER + DIGITS))], "https://www.nuget.org/api/v2/package",
      ("hdr", "X-NuGet-ApiKey: {t}")),
    V("crates.io", "cratesio", [("CARGO_REGISTRY_TOKEN", lambda: "cio" + rs(32))], "https://crates.io/api/v1/me",
      ("hdr", "Authorization: {t}")),
    V("JFrog", "jfrog", [("JFROG_ACCESS_TOKEN", _jfrog)], "https://acme.jfrog.io/artifactory/api/repositories"),
    V("Hugging Face", "huggingface", [("HF_TOKEN", lambda: "hf_" + rs(34, LETTERS))], "https://huggingface.co/api/whoami-v2", n=3),
    V("Replicate", "replicate", [("REPLICATE_API_TOKEN", lambda: "r8_" + rs(37))], "https://api.replicate.com/v1/predictions"),
    V("Cohere", "cohere", [("COHERE_API_KEY", lambda: rs(40))], "https://api.cohere.com/v2/chat", prefixed=False),
    V("Mistral", "mistral", [("MISTRAL_API_KEY", lambda: rs(32))], "https://api.mistral.ai/v1/chat/completions", prefixed=False),
    V("Groq", "groq", [("GROQ_API_KEY", lambda: "gsk_" + rs(52))], "https://api.groq.com/openai/v1/chat/completions"),
    V("Together AI", "together", [("TOGETHER_API_KEY", lambda: hx(64))], "https://api.together.xyz/v1/chat/completions", prefixed=False),
    V("Fireworks", "fireworks", [("FIREWORKS_API_KEY", lambda: "fw_" + rs(24))], "https://api.fireworks.ai/inference/v1/chat/completions"),
    V("Perplexity", "perplexity", [("PERPLEXITY_API_KEY", lambda: "pplx-" + rs(48))], "https://api.perplexity.ai/chat/completions"),
    V("DeepSeek", "deepseek", [("DEEPSEEK_API_KEY", lambda: "sk-" + hx(32))], "https://api.deepseek.com/chat/completions", prefixed=False),
    V("ElevenLabs", "elevenlabs", [("ELEVENLABS_API_KEY", lambda: "sk_" + hx(48))], "https://api.elevenlabs.io/v1/voices",
      ("hdr", "xi-api-key: {t}")),
    V("AssemblyAI", "assemblyai", [("ASSEMBLYAI_API_KEY", lambda: hx(32))], "https://api.assemblyai.com/v2/transcript",
      ("hdr", "Authorization: {t}"), prefixed=False),
    V("Deepgram", "deepgram", [("DEEPGRAM_API_KEY", lambda: hx(40))], "https://api.deepgram.com/v1/listen",
      ("hdr", "Authorization: Token {t}"), prefixed=False),
    V("LangSmith", "langsmith", [("LANGSMITH_API_KEY", lambda: "lsv2_pt_" + hx(32) + "_" + hx(10))],
      "https://api.smith.langchain.com/runs", ("hdr", "x-api-key: {t}")),
    V("Weights & Biases", "wandb", [("WANDB_API_KEY", lambda: hx(40))], "", ("none",), prefixed=False),
    V("Pinecone", "pinecone", [("PINECONE_API_KEY", lambda: "pcsk_" + rs(5) + "_" + rs(63))], "https://api.pinecone.io/indexes",
      ("hdr", "Api-Key: {t}")),
    V("Weaviate", "weaviate", [("WEAVIATE_API_KEY", lambda: rs(40))], "https://my-cluster.weaviate.cloud/v1/schema", prefixed=False),
    V("Qdrant Cloud", "qdrant", [("QDRANT_API_KEY", lambda: rs(54, B64U))],
      "https://3f1c8e2a-xyz.eu-central.aws.cloud.qdrant.io:6333/collections", ("hdr", "api-key: {t}"), prefixed=False),
    V("Supabase", "supabase", [("SUPABASE_SERVICE_ROLE_KEY", _supabase)], "https://abcdxyzqrstuvwlmnop.supabase.co/rest/v1/profiles",
      ("hdr", "apikey: {t}"), n=3),
    V("Firebase", "firebase", [("FCM_SERVER_KEY", lambda: "AAAA" + rs(7, B64U) + ":APA91b" + rs(134, B64U))],
      "https://fcm.googleapis.com/fcm/send", ("hdr", "Authorization: key={t}")),
    V("MongoDB Atlas", "mongodb-atlas", [("MONGODB_URI", lambda: f"mongodb+srv://{pick(['app', 'admin', 'svc-orders'])}:{rs(16)}@cluster0.{rs(5, LOWER + DIGITS)}.mongodb.net/?retryWrites=true&w=majority")],
      "", ("none",), n=3),
    V("PlanetScale", "planetscale", [("PLANETSCALE_TOKEN", lambda: pick(["pscale_tkn_", "pscale_pw_"]) + rs(43, B64U))],
      "https://api.planetscale.com/v1/organizations"),
    V("Neon", "neon", [("NEON_API_KEY", lambda: "napi_" + rs(64, LOWER + DIGITS))], "https://console.neon.tech/api/v2/projects"),
    V("Upstash", "upstash", [("UPSTASH_REDIS_REST_URL", lambda: f"https://{pick(['eager', 'calm', 'brave'])}-{pick(['owl', 'fox', 'eel'])}-{R.randint(10000, 99999)}.upstash.io"),
                             ("UPSTASH_REDIS_REST_TOKEN", lambda: "AX" + rs(58, B64U) + "=")],
      "", ("none",), prefixed=False),
    V("Redis Cloud", "redis-cloud", [("REDIS_URL", lambda: f"redis://default:{rs(32)}@redis-{R.randint(10000, 19999)}.c{R.randint(100, 999)}.us-east-1-4.ec2.redns.redis-cloud.com:{R.randint(10000, 19999)}")],
      "", ("none",)),
    V("Okta", "okta", [("OKTA_API_TOKEN", lambda: "00" + rs(40, B64U))], "https://acme.okta.com/api/v1/users",
      ("hdr", "Authorization: SSWS {t}")),
    V("Auth0", "auth0", [("AUTH0_DOMAIN", lambda: "acme-prod.eu.auth0.com"), ("AUTH0_CLIENT_ID", lambda: rs(32)),
                         ("AUTH0_CLIENT_SECRET", lambda: rs(64, B64U))], "", ("none",), prefixed=False),
    V("Clerk", "clerk", [("CLERK_SECRET_KEY", lambda: "sk_live_" + rs(42))], "https://api.clerk.com/v1/users"),
    V("1Password", "1password", [("OP_SERVICE_ACCOUNT_TOKEN", _one_password_sa)], "", ("none",)),
    V("Bitwarden", "bitwarden", [("BWS_ACCESS_TOKEN", lambda: f"0.{uuid4()}.{rs(30)}:{rs(22)}==")], "", ("none",)),
    V("HashiCorp Vault", "vault", [("VAULT_TOKEN", lambda: "hvs." + rs(R.choice([24, 91]), B64U))],
      "https://vault.internal:8200/v1/secret/data/app", ("hdr", "X-Vault-Token: {t}")),
    V("Terraform Cloud", "terraform", [("TFE_TOKEN", lambda: rs(14) + ".atlasv1." + rs(67))],
      "https://app.terraform.io/api/v2/organizations"),
    V("Doppler", "doppler", [("DOPPLER_TOKEN", lambda: pick(["dp.st." + pick(["prd", "dev", "stg"]) + ".", "dp.pt."]) + rs(43))],
      "https://api.doppler.com/v3/configs/config/secrets"),
    V("Pulumi", "pulumi", [("PULUMI_ACCESS_TOKEN", lambda: "pul-" + hx(40))], "https://api.pulumi.com/api/user",
      ("hdr", "Authorization: token {t}")),
    V("Snyk", "snyk", [("SNYK_TOKEN", uuid4)], "https://api.snyk.io/rest/self?version=2024-06-10",
      ("hdr", "Authorization: token {t}"), prefixed=False),
    V("SonarQube", "sonarqube", [("SONAR_TOKEN", lambda: pick(["squ_", "sqp_", "sqa_"]) + hx(40))],
      "https://sonar.acme.dev/api/projects/search", ("basic", "{f0}:")),
    V("CircleCI", "circleci", [("CIRCLE_TOKEN", lambda: "CCIPAT_" + rs(22) + "_" + hx(40))], "https://circleci.com/api/v2/me",
      ("hdr", "Circle-Token: {t}")),
    V("Travis CI", "travis", [("TRAVIS_API_TOKEN", lambda: rs(22, B64U))], "https://api.travis-ci.com/user",
      ("hdr", "Authorization: token {t}"), prefixed=False),
    V("Buildkite", "buildkite", [("BUILDKITE_API_TOKEN", lambda: "bkua_" + hx(40))], "https://api.buildkite.com/v2/organizations"),
    V("Postman", "postman", [("POSTMAN_API_KEY", lambda: "PMAK-" + hx(24) + "-" + hx(34))], "https://api.getpostman.com/me",
      ("hdr", "X-Api-Key: {t}")),
    V("Contentful", "contentful", [("CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + rs(43, B64U))],
      "https://api.contentful.com/spaces"),
    V("Dynatrace", "dynatrace", [("DT_API_TOKEN", lambda: "dt0c01." + rs(24, UPPER + DIGITS) + "." + rs(64, UPPER + DIGITS))],
      "https://abc12345.live.dynatrace.com/api/v2/metrics", ("hdr", "Authorization: Api-Token {t}")),
    V("Databricks", "databricks", [("DATABRICKS_TOKEN", lambda: "dapi" + hx(32))],
      "https://adb-1234567890123456.7.azuredatabricks.net/api/2.0/clusters/list"),
    V("Tailscale", "tailscale", [("TS_AUTHKEY", lambda: pick(["tskey-auth-", "tskey-api-"]) + "k" + rs(16) + "CNTRL-" + rs(33))],
      "https://api.tailscale.com/api/v2/tailnet/-/devices"),
    V("ngrok", "ngrok", [("NGROK_AUTHTOKEN", lambda: "2" + rs(26) + "_" + rs(21))], "", ("none",), prefixed=False),
    V("Algolia", "algolia", [("ALGOLIA_APP_ID", lambda: rs(10, UPPER + DIGITS)), ("ALGOLIA_ADMIN_API_KEY", lambda: hx(32))],
      "https://XYZ123ABCD-dsn.algolia.net/1/indexes", ("hdr", "X-Algolia-API-Key: {t}"), idx=1, prefixed=False),
    V("Mapbox", "mapbox", [("MAPBOX_SECRET_TOKEN", _mapbox_secret)],
      "https://api.mapbox.com/tokens/v2?access_token={t}", ("url",)),
    V("Twitch", "twitch", [("TWITCH_OAUTH_TOKEN", lambda: "oauth:" + rs(30, LOWER + DIGITS))], "https://api.twitch.tv/helix/users",
      prefixed=False),
    V("Dropbox", "dropbox", [("DROPBOX_ACCESS_TOKEN", lambda: "sl." + rs(135, B64U))],
      "https://api.dropboxapi.com/2/files/list_folder"),
    V("Box", "box", [("BOX_DEVELOPER_TOKEN", lambda: rs(32))], "https://api.box.com/2.0/folders/0", prefixed=False),
    V("Zoom", "zoom", [("ZOOM_CLIENT_ID", lambda: rs(22)), ("ZOOM_CLIENT_SECRET", lambda: rs(32)),
                       ("ZOOM_ACCOUNT_ID", lambda: rs(22, B64U))],
      "https://zoom.us/oauth/token?grant_type=account_credentials", ("basic", "{f0}:{f1}"), prefixed=False),
    V("Coinbase", "coinbase", [("COINBASE_API_KEY_NAME", lambda: f"organizations/{uuid4()}/apiKeys/{uuid4()}"),
                               ("COINBASE_API_PRIVATE_KEY", ec_private_pem)], "", ("none",)),
    V("Binance", "binance", [("BINANCE_API_KEY", lambda: rs(64)), ("BINANCE_SECRET_KEY", lambda: rs(64))],
      "https://api.binance.com/api/v3/account", ("hdr", "X-MBX-APIKEY: {t}"), prefixed=False),
    V("Plaid", "plaid", [("PLAID_CLIENT_ID", lambda: hx(24)), ("PLAID_SECRET", lambda: hx(30)),
                         ("PLAID_ACCESS_TOKEN", lambda: "access-production-" + uuid4())], "", ("none",)),
    V("Wise", "wise", [("WISE_API_TOKEN", uuid4)], "https://api.transferwise.com/v1/profiles", prefixed=False),
    V("Shippo", "shippo", [("SHIPPO_API_TOKEN", lambda: "shippo_live_" + hx(40))], "https://api.goshippo.com/shipments/",
      ("hdr", "Authorization: ShippoToken {t}")),
    V("EasyPost", "easypost", [("EASYPOST_API_KEY", lambda: "EZAK" + hx(54))], "https://api.easypost.com/v2/shipments",
      ("basic", "{f0}:")),
    V("Flutterwave", "flutterwave", [("FLW_SECRET_KEY", lambda: "FLWSECK-" + hx(32) + "-X")], "https://api.flutterwave.com/v3/transactions"),
    V("Razorpay", "razorpay", [("RAZORPAY_KEY_ID", lambda: "rzp_live_" + rs(14)), ("RAZORPAY_KEY_SECRET", lambda: rs(24))],
      "https://api.razorpay.com/v1/payments", ("basic", "{f0}:{f1}")),
    V("Paystack", "paystack", [("PAYSTACK_SECRET_KEY", lambda: "sk_live_" + hx(40))], "https://api.paystack.co/transaction"),
    V("Mollie", "mollie", [("MOLLIE_API_KEY", lambda: "live_" + rs(30))], "https://api.mollie.com/v2/payments"),
    V("Duffel", "duffel", [("DUFFEL_ACCESS_TOKEN", lambda: "duffel_live_" + rs(43, B64U))], "https://api.duffel.com/air/offer_requests"),
    V("X (Twitter)", "twitter", [("TWITTER_BEARER_TOKEN", _twitter)], "https://api.twitter.com/2/users/me"),
    V("Meta", "meta", [("FB_PAGE_ACCESS_TOKEN", lambda: "EAAG" + rs(180))], "https://graph.facebook.com/v19.0/me/accounts",
      ("query", "access_token")),
    V("Alibaba Cloud", "alibaba", [("ALIBABA_CLOUD_ACCESS_KEY_ID", lambda: "LTAI" + rs(20)),
                                   ("ALIBABA_CLOUD_ACCESS_KEY_SECRET", lambda: rs(30))], "", ("none",)),
    V("Tencent Cloud", "tencent", [("TENCENTCLOUD_SECRET_ID", lambda: "AKID" + rs(32)),
                                   ("TENCENTCLOUD_SECRET_KEY", lambda: rs(32))], "", ("none",)),
    V("Yandex Cloud", "yandex", [("YC_TOKEN", lambda: "y0_" + rs(55, B64U))], "https://resource-manager.api.cloud.yandex.net/resource-manager/v1/clouds",
      prefixed=False),
    V("IBM Cloud", "ibmcloud", [("IBMCLOUD_API_KEY", lambda: rs(44, B64U))], "", ("none",), prefixed=False),
    V("LaunchDarkly", "launchdarkly", [("LAUNCHDARKLY_SDK_KEY", lambda: "sdk-" + uuid4())], "", ("none",), prefixed=False),
    V("Vonage", "vonage", [("VONAGE_API_KEY", lambda: hx(8)), ("VONAGE_API_SECRET", lambda: rs(16))],
      "https://rest.nexmo.com/sms/json", ("basic", "{f0}:{f1}"), prefixed=False),
    V("Salesforce", "salesforce", [("SF_ACCESS_TOKEN", lambda: "00D" + rs(12) + "!" + rs(96, ALNUM + "._"))],
      "https://acme.my.salesforce.com/services/data/v60.0/sobjects/Account"),
    V("Prefect", "prefect", [("PREFECT_API_KEY", lambda: "pnu_" + rs(36))], "https://api.prefect.cloud/api/me/"),
    V("Typeform", "typeform", [("TYPEFORM_TOKEN", lambda: "tfp_" + rs(44) + "_" + rs(14))], "https://api.typeform.com/forms"),
    V("Frame.io", "frameio", [("FRAMEIO_TOKEN", lambda: "fio-u-" + rs(64, B64U))], "https://api.frame.io/v2/me"),
    V("Cloudinary", "cloudinary", [("CLOUDINARY_URL", lambda: f"cloudinary://{dg(15)}:{rs(27, B64U)}@{pick(['acme-media', 'dq9xv2k', 'shopcdn'])}")],
      "", ("none",)),
]


# --- contexts a vendor credential can appear in --------------------------------

def _camel(env: str) -> str:
    parts = env.lower().split("_")
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def _pascal(env: str) -> str:
    return "".join(p.capitalize() for p in env.lower().split("_"))


def _auth_parts(v: V, f):
    """Return (url, list of header lines) for an HTTP call, or None if not HTTP."""
    kind = v.auth[0]
    vals = [x for _, x in f]
    t = vals[v.idx]
    if kind == "none" or not v.host:
        return None
    url = v.host.replace("{t}", t) if kind == "url" else v.host
    if kind == "hdr":
        return url, [v.auth[1].format(t=t)]
    if kind == "basic":
        creds = v.auth[1].format(**{f"f{i}": x for i, x in enumerate(vals)})
        return url, ["Authorization: Basic " + b64s(creds)]
    if kind == "query":
        sep = "&" if "?" in url else "?"
        return f"{url}{sep}{v.auth[1]}={t}", []
    return url, []


def cred_phrase(f) -> str:
    if len(f) == 1:
        return f[0][1]
    return ", ".join(f"{env}={val}" for env, val in f)


SENT_EN = [
    "Here's my {v} API key so you can set things up later: {t}",
    "remember my {v} key -> {t}",
    "{v} token for the side project: {t} (don't lose it again lol)",
    "Can you keep this for me? It's the {v} credential for prod: {t}",
    "New {v} credentials after Friday's rotation: {t}",
    "fyi the {v} key we use in the staging pipeline is {t}",
    "Save this somewhere safe please - {v}: {t}",
    "I keep forgetting it, so: my personal {v} token is {t}",
    "Use {t} whenever you need to call {v} on my behalf.",
    "ok the {v} key finally works. it's {t}. note it down",
]

SENT_I18N = {
    "de": ["Mein {v} API-Schlüssel lautet {t}, bitte für später merken.", "Zugangsdaten für {v}: {t} – nicht weitergeben!"],
    "fr": ["Voici ma clé API {v} : {t} — garde-la pour le script de demain.", "Le jeton {v} du serveur de prod est {t}"],
    "es": ["Guárdame la clave de API de {v}: {t}", "El token de {v} que usamos en producción es {t}"],
    "it": ["La chiave API di {v} è {t}, ricordatela per il deploy.", "Token {v} del progetto: {t}"],
    "pt": ["Minha chave de API do {v} é {t}", "Anota aí o token do {v}: {t}"],
    "nl": ["Mijn {v} API-sleutel is {t}, onthoud die even.", "Token voor {v}: {t}"],
    "pl": ["Zapamiętaj mój klucz API do {v}: {t}", "Token {v} do środowiska testowego: {t}"],
    "sv": ["Min API-nyckel för {v} är {t}", "Spara {v}-token åt mig: {t}"],
    "tr": ["{v} API anahtarım: {t} — bunu sonra lazım olacak.", "{v} token'ı şu: {t}"],
    "ru": ["Запомни мой API-ключ {v}: {t}", "Токен {v} для продакшена: {t}"],
    "uk": ["Мій API-ключ для {v}: {t}", "Збережи токен {v}: {t}"],
    "ja": ["{v}のAPIキーは {t} です。覚えておいてください。", "{v}のトークン: {t}"],
    "zh": ["我的{v} API密钥是 {t}，帮我记一下。", "{v}的令牌：{t}"],
    "ko": ["{v} API 키는 {t} 입니다. 기억해 줘.", "{v} 토큰: {t}"],
    "ar": ["مفتاح API الخاص بـ {v} هو {t}", "احفظ رمز {v}: {t}"],
    "hi": ["मेरी {v} API key है {t}, इसे याद रखना।", "{v} का टोकन: {t}"],
    "id": ["Kunci API {v} saya: {t}, tolong simpan.", "Token {v} untuk server produksi: {t}"],
    "vi": ["Khóa API {v} của tôi là {t}", "Token {v}: {t}, nhớ giúp mình nhé"],
    "cs": ["Můj API klíč pro {v} je {t}", "Token do {v}: {t}"],
    "el": ["Το κλειδί API για το {v} είναι {t}", "Κράτα το token του {v}: {t}"],
    "he": ["מפתח ה-API שלי ל-{v} הוא {t}", "הטוקן של {v}: {t}"],
    "fi": ["{v}-API-avaimeni on {t}", "Tallenna {v}-tunnus: {t}"],
}
LANG_ROT = Rot(list(SENT_I18N))
SENT_ROT = Rot(SENT_EN)


def ctx_sentence_en(v, f):
    return SENT_ROT.next().format(v=v.name, t=cred_phrase(f))


def ctx_sentence_i18n(v, f):
    lang = LANG_ROT.next()
    return pick(SENT_I18N[lang]).format(v=v.name, t=cred_phrase(f))


def ctx_dotenv(v, f):
    lines = [f"# {v.name}"] + [f"{env}={val}" for env, val in f]
    extra = pick([["NODE_ENV=production", "PORT=3000"], ["LOG_LEVEL=info"], ["DEBUG=false", "TZ=Europe/Berlin"], []])
    R.shuffle(extra)
    return "\n".join(extra[:1] + lines + extra[1:])


def ctx_yaml(v, f):
    body = "".join(f"  {env.lower()}: {val}\n" for env, val in f)
    return f"{v.slug.replace('-', '_')}:\n{body}  timeout_seconds: 30\n  region: {pick(['eu-west-1', 'us-east-1', 'ap-southeast-2'])}\n"


def ctx_toml(v, f):
    body = "".join(f'{env.lower()} = "{val}"\n' for env, val in f)
    return f"[{v.slug.replace('-', '_')}]\n{body}retries = 3\n"


def ctx_ini(v, f):
    body = "".join(f"{env.lower()} = {val}\n" for env, val in f)
    return f"[{v.slug}]\n{body}enabled = true\n"


def ctx_json_record(v, f):
    return {"service": v.name, "environment": pick(["production", "staging", "personal"]),
            "credentials": {_camel(env): val for env, val in f}, "added": date()}


def ctx_hcl(v, f):
    out = []
    for env, val in f:
        out.append(f'variable "{env.lower()}" {{\n  type      = string\n  sensitive = true\n  default   = "{val}"\n}}')
    return "\n\n".join(out)


def ctx_properties(v, f):
    prefix = v.slug.replace("-", ".")
    lines = []
    for env, val in f:
        prop = env.lower().replace("_", ".")
        if not prop.startswith(prefix.split(".")[0]):
            prop = f"{prefix}.{prop}"
        lines.append(f"{prop}={val}")
    return "\n".join(lines)


def ctx_shell(v, f):
    lines = [f"export {env}='{val}'" for env, val in f]
    return "\n".join(["# add to ~/.zshrc"] + lines + ["source ~/.zshrc"])


def ctx_powershell(v, f):
    if R.random() < 0.5:
        return "\n".join(f'$env:{env} = "{val}"' for env, val in f)
    return "\n".join(f'[Environment]::SetEnvironmentVariable("{env}", "{val}", "User")' for env, val in f)


def ctx_compose(v, f):
    envs = "".join(f"      - {env}={val}\n" for env, val in f)
    return (f"services:\n  worker:\n    image: ghcr.io/acme/worker:1.{R.randint(0, 9)}.{R.randint(0, 20)}\n"
            f"    restart: unless-stopped\n    environment:\n{envs}")


def ctx_k8s(v, f):
    data = "".join(f"  {env}: \"{val}\"\n" for env, val in f)
    return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {v.slug}-credentials\n  namespace: {pick(['prod', 'default', 'payments'])}\n"
            f"type: Opaque\nstringData:\n{data}")


def ctx_gha(v, f):
    envs = "".join(f"      {env}: {val}\n" for env, val in f)
    return (f"name: deploy\non:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n"
            f"    env:\n{envs}    steps:\n      - uses: actions/checkout@v4\n      - run: ./scripts/deploy.sh\n")


def ctx_curl(v, f):
    url, headers = _auth_parts(v, f)
    hs = " ".join(f"-H '{h}'" for h in headers)
    return f"curl -sS {hs} '{url}' | jq ." if hs else f"curl -sS '{url}'"


def ctx_httpie(v, f):
    url, headers = _auth_parts(v, f)
    hs = " ".join(f"'{h.replace(': ', ':', 1)}'" for h in headers)
    return f"http GET {url} {hs}".strip()


def ctx_http_dump(v, f):
    url, headers = _auth_parts(v, f)
    host = url.split("/")[2]
    path = "/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/"
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "User-Agent: python-httpx/0.27.0", "Accept: application/json"]
    lines += headers
    return "\n".join(lines) + "\n\n"


def ctx_python(v, f):
    if len(f) == 1 and R.random() < 0.5:
        cls = _pascal(v.slug.replace("-", "_")) + "Client"
        return f"from {v.slug.replace('-', '_')} import {cls}\n\nclient = {cls}(api_key=\"{f[0][1]}\")\n"
    return "import os\n\n" + "\n".join(f'os.environ["{env}"] = "{val}"' for env, val in f) + "\n"


def ctx_js(v, f):
    body = "".join(f"  {_camel(env)}: '{val}',\n" for env, val in f)
    return f"// {v.name} config\nexport const config = {{\n{body}}};\n"


def ctx_go(v, f):
    body = "".join(f'\t{_camel(env)} = "{val}"\n' for env, val in f)
    return f"package config\n\nconst (\n{body})\n"


def ctx_java(v, f):
    body = "".join(f'    private static final String {env} = "{val}";\n' for env, val in f)
    return f"public final class {_pascal(v.slug.replace('-', '_'))}Config {{\n{body}}}\n"


def ctx_csharp(v, f):
    inner = ",\n".join(f'    "{_pascal(env)}": "{val}"' for env, val in f)
    return f'{{\n  "{_pascal(v.slug.replace("-", "_"))}": {{\n{inner}\n  }},\n  "AllowedHosts": "*"\n}}'


def ctx_log(v, f):
    parts = _auth_parts(v, f)
    if parts and parts[1]:
        url, headers = parts
        hdr = headers[0].split(": ", 1)
        return (f"{ts()} WARN  http.client retrying POST {url} (attempt 2/5) "
                f"headers={{'{hdr[0]}': '{hdr[1]}', 'Content-Type': 'application/json'}}")
    return f"{ts()} DEBUG config.loader loaded settings: " + " ".join(f"{env}={val}" for env, val in f)


def ctx_chat(v, f):
    return (f"User: can you remember my {v.name} credentials for next time?\n"
            f"Assistant: Sure - paste them and I'll keep them with your project notes.\n"
            f"User: {cred_phrase(f)}")


def ctx_bare(v, f):
    return f[v.idx][1] if len(f) > 1 else f[0][1]


def ctx_email(v, f):
    who = pick(["Priya", "Tom", "Ana", "Kenji", "Grace", "Lukas"])
    return (f"Subject: {v.name} access for the migration\n\nHi {who},\n\nas discussed, here are the "
            f"{v.name} credentials for the new environment:\n\n{cred_phrase(f)}\n\nPlease keep them out of Slack.\n\nCheers,\nM.")


def ctx_bullets(v, f):
    lines = [f"- {v.name} (work acct)"] + [f"- {env.lower()}: {val}" for env, val in f] + [f"- rotate before {date(2025, 2026)}"]
    return "\n".join(lines)


def ctx_terminal(v, f):
    body = "\n".join(f"{env.lower()} = {val}" for env, val in f)
    return f"$ cat ~/.config/{v.slug}/credentials\n[default]\n{body}\n$ ls ~/.config/{v.slug}\ncredentials  config.toml"


def ctx_xml(v, f):
    adds = "\n".join(f'    <add key="{_pascal(env)}" value="{val}" />' for env, val in f)
    return f"<configuration>\n  <appSettings>\n{adds}\n  </appSettings>\n</configuration>"


def ctx_list(v, f):
    return [{"service": v.name, "field": env, "value": val} for env, val in f]


CONTEXTS = {
    "sentence_en": ctx_sentence_en, "sentence_i18n": ctx_sentence_i18n, "dotenv": ctx_dotenv, "yaml": ctx_yaml,
    "toml": ctx_toml, "ini": ctx_ini, "json": ctx_json_record, "hcl": ctx_hcl, "properties": ctx_properties,
    "shell": ctx_shell, "powershell": ctx_powershell, "docker_compose": ctx_compose, "k8s": ctx_k8s,
    "github_actions": ctx_gha, "curl": ctx_curl, "httpie": ctx_httpie, "http_dump": ctx_http_dump,
    "python": ctx_python, "javascript": ctx_js, "go": ctx_go, "java": ctx_java, "csharp_appsettings": ctx_csharp,
    "log": ctx_log, "chat": ctx_chat, "bare": ctx_bare, "email": ctx_email, "bullets": ctx_bullets,
    "terminal": ctx_terminal, "xml": ctx_xml, "list": ctx_list,
}
HTTP_CONTEXTS = {"curl", "httpie", "http_dump"}
CTX_ROT = Rot(list(CONTEXTS) + ["sentence_en", "sentence_i18n", "sentence_i18n", "dotenv"])
CONTEXT_USE: dict[str, int] = {}


def emit_vendor_records():
    for v in VENDORS:
        used = []
        for _ in range(v.n):
            for _attempt in range(50):
                c = CTX_ROT.next()
                if c in used:
                    continue
                if c == "bare" and (not v.prefixed or len(v.fields) > 1):
                    continue
                if c in HTTP_CONTEXTS and (v.auth[0] == "none" or not v.host):
                    continue
                break
            used.append(c)
            CONTEXT_USE[c] = CONTEXT_USE.get(c, 0) + 1
            f = v.make()
            value = CONTEXTS[c](v, f)
            raw = c == "bare" and R.random() < 0.4
            secret(v.slug, value, hint=pick([v.slug, "creds", "config", "note"]), raw=raw)
    # a few more bare tokens (string values, no context at all) from prefixed vendors
    bare_pool = [v for v in VENDORS if v.prefixed and len(v.fields) == 1]
    R.shuffle(bare_pool)
    for v in bare_pool[:15]:
        CONTEXT_USE["bare"] = CONTEXT_USE.get("bare", 0) + 1
        secret(v.slug, v.make()[0][1], raw=R.random() < 0.6)


def emit_gcp_service_accounts():
    for i in range(5):
        proj = pick(["acme-prod-4821", "bookings-eu", "ml-sandbox-2291", "analytics-core"])
        sa = pick(["deployer", "bq-reader", "ci-runner", "backup-bot"])
        doc = {
            "type": "service_account",
            "project_id": proj,
            "private_key_id": hx(40),
            "private_key": pkcs8_rsa_pem() + "\n",
            "client_email": f"{sa}@{proj}.iam.gserviceaccount.com",
            "client_id": dg(21),
            "auth_uri": "https://accounts.google.com/o/oauth2/auth",
            "token_uri": "https://oauth2.googleapis.com/token",
            "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
            "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{sa}%40{proj}.iam.gserviceaccount.com",
            "universe_domain": "googleapis.com",
        }
        if i == 0:
            value = doc
        elif i == 1:
            value = {"text": "service account json for the nightly export, keep it:\n" + json.dumps(doc, indent=2)}
        elif i == 2:
            value = {"file": "gcp-key.json", "content": json.dumps(doc)}
        elif i == 3:
            value = {"text": "GOOGLE_CREDENTIALS='" + json.dumps(doc, separators=(",", ":")) + "'"}
        else:
            value = {"project": proj, "sa": doc["client_email"], "private_key": doc["private_key"],
                     "private_key_id": doc["private_key_id"]}
        secret("gcp_service_account", value, hint="gcp")


# ---------------------------------------------------------------------------
# 3. credentials without a vendor prefix
# ---------------------------------------------------------------------------

SITES = ["Gmail", "the hospital portal", "MyChart", "Netflix", "the bank app", "Amazon", "my work laptop",
         "Disney+", "the pharmacy site", "Instagram", "the school portal", "Spotify", "the insurance website",
         "PayPal", "Steam", "the router admin page", "iCloud", "the tax office portal", "Outlook", "LinkedIn"]
FIRST = ["Marta", "Kevin", "Aiko", "Dev", "Olu", "Sanne", "Rafael", "Hannah", "Yusuf", "Elif", "Bruno", "Mei"]
SSIDS = ["Lindqvist_5G", "FRITZ!Box 7590 XQ", "Vodafone-4F21", "TP-Link_8C2E", "CasaRossi", "NETGEAR47",
         "Cabin-Guest", "HomeNet-2.4", "Livebox-A3C1", "BT-7HXK2P"]


def username():
    return pick(["jdoe82", "m.rossi", "kat_wu", "oleksii.b", "tbauer", "ana.pereira", "s.ahmed", "lukas1990"])


PW_PROSE_EN = [
    "my password for {site} is {pw}",
    "pw for {site}: {pw}",
    "it's {pw} - that's the login for mom's iPad",
    "{pw} for the wifi",
    "the code for my laptop is {pw}",
    "{site} login -> user {user} / pass {pw}",
    "Changed the {site} password today, new one is {pw}",
    "Remind me: router admin is 192.168.0.1, admin / {pw}",
    "Wi-Fi at the cabin: network \"{ssid}\", password {pw}",
    "if I ever forget it, my Apple ID password is {pw}",
    "Note to self - VPN passphrase: {pp}",
    "The password for the shared family Netflix is {pw}, don't give it to {name}",
    "ok so the pharmacy portal wanted a password and I used {pw}",
    "My patient portal login is {email} with password {pw}",
    "remember the password for {site}: {pw}",
    "Password hint for future me: it's literally {pw}",
    "the wifi password at grandma's is {pw} (all of it, case sensitive)",
    "Set the kids' tablet password to {pw}",
    "{name}'s password on the office PC is {pw}, they asked me to log in for them",
    "login for the gym app is my email and {pw}",
    "Use {pw} as the password for the encrypted backup drive",
    "Master password for my password manager: {pp}",
    "my Windows login password is {pw}",
    "the PDF with the tax documents opens with {pw}",
    "The zip from the accountant is protected, password {pw}",
    "keychain password {pw}",
    "The guest wifi is '{ssid}' and the key is {pw}",
    "in an emergency the password for my phone is {pw}",
    "{name}'s password for the school portal: {pw}",
    "BIOS/firmware password on the ThinkPad is {pw}",
    "passcode to unlock my iPhone: {d6}",
    "I reset my email password, it's now {pw} until I pick something better",
    "Dad's Facebook: {email} / {pw} (he keeps getting locked out)",
    "the login for the camera NVR is admin and {pw}",
]

PW_PROSE_I18N = [
    ("de", "Mein Passwort fürs Onlinebanking ist {pw}"), ("de", "WLAN-Passwort: {pw} (Netz {ssid})"),
    ("de", "Kennwort für den Dienstlaptop: {pw}"),
    ("fr", "Mon mot de passe pour la mutuelle, c'est {pw}"), ("fr", "le code wifi de la maison : {pw}"),
    ("es", "Mi contraseña del correo es {pw}"), ("es", "la clave del wifi es {pw}"),
    ("it", "La mia password di Poste è {pw}"), ("it", "password del wifi in ufficio: {pw}"),
    ("pt", "Minha senha do banco é {pw}"), ("pt", "A senha do wi-fi é {pw}"),
    ("nl", "Wachtwoord van DigiD: {pw}"), ("nl", "het wifi-wachtwoord is {pw}"),
    ("pl", "Hasło do poczty: {pw}"), ("pl", "Moje hasło do banku to {pw}"),
    ("sv", "Lösenordet till wifi är {pw}"), ("tr", "E-devlet şifrem {pw}"), ("tr", "Modem şifresi: {pw}"),
    ("ru", "Пароль от госуслуг: {pw}"), ("ru", "Мой пароль от почты {pw}"), ("uk", "Пароль від Дії: {pw}"),
    ("ja", "Wi-Fiのパスワードは {pw} です"), ("ja", "会社のPCのパスワード：{pw}"),
    ("zh", "我的邮箱密码是 {pw}"), ("zh", "家里WiFi密码：{pw}"),
    ("ko", "넷플릭스 비밀번호는 {pw}"), ("ko", "회사 노트북 비밀번호: {pw}"),
    ("ar", "كلمة المرور الخاصة بي للبنك هي {pw}"), ("hi", "मेरा बैंक पासवर्ड {pw} है"),
    ("fi", "Verkkopankin salasana on {pw}"), ("cs", "Heslo k wifi je {pw}"), ("hu", "A jelszavam a gmailhez: {pw}"),
    ("da", "Min adgangskode til MitID-appen er {pw}"), ("no", "Passordet til ruteren er {pw}"),
    ("id", "Kata sandi wifi rumah: {pw}"), ("vi", "Mật khẩu email của tôi là {pw}"),
    ("el", "Ο κωδικός μου για το email είναι {pw}"), ("he", "הסיסמה שלי לבנק היא {pw}"),
    ("ro", "Parola de la laptop este {pw}"),
]


def fill_pw(t: str) -> str:
    return t.format(site=pick(SITES), pw=human_pw(), pp=passphrase(), user=username(), ssid=pick(SSIDS),
                    name=pick(FIRST), email=_person_email(), d6=pin(6))


def emit_password_prose():
    for t in PW_PROSE_EN:
        secret("password_prose", fill_pw(t), hint="login")
    for _lang, t in PW_PROSE_I18N:
        secret("password_prose_i18n", fill_pw(t), hint="login")


def emit_connection_strings():
    def pw():
        return pick([rs(16), human_pw().replace("@", "#").replace(":", "!").replace("/", "_").replace("%", "&"), rs(24, ALNUM + "-_")])

    def host():
        return pick(["db.internal", "10.0.4.12", "prod-db.cluster-c9x2.eu-west-1.rds.amazonaws.com", "pg.acme.lan", "sql01.corp.local"])

    items = [
        lambda: f"DATABASE_URL=postgres://app_user:{pw()}@{host()}:5432/orders",
        lambda: f"postgresql://analytics:{pw()}@{host()}/warehouse?sslmode=require",
        lambda: f"mysql://root:{pw()}@{host()}:3306/wordpress",
        lambda: f"jdbc:postgresql://{host()}:5432/billing?user=billing_svc&password={pw()}",
        lambda: f"jdbc:mysql://{host()}:3306/shop?user=shop&password={pw()}&useSSL=true",
        lambda: f"jdbc:sqlserver://{host()}:1433;databaseName=HR;user=sa;password={pw()};encrypt=true",
        lambda: f"Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:{host()},1433;Database=Payroll;Uid=payroll_ro;Pwd={pw()};Encrypt=yes;",
        lambda: f"Server=myServerAddress;Database=CRM;User Id=crm_app;Password={pw()};TrustServerCertificate=True;",
        lambda: f"Data Source=SQL01\\PROD;Initial Catalog=Inventory;User ID=inv;Password={pw()}",
        lambda: f"mongodb+srv://reporting:{pw()}@cluster1.x7k2p.mongodb.net/reports?retryWrites=true",
        lambda: f"mongodb://admin:{pw()}@mongo-0.mongo:27017,mongo-1.mongo:27017/?replicaSet=rs0&authSource=admin",
        lambda: f"amqp://orders:{pw()}@rabbitmq.internal:5672/prod",
        lambda: f"CELERY_BROKER_URL=amqps://worker:{pw()}@b-1a2b.mq.eu-central-1.amazonaws.com:5671",
        lambda: f"smtp://noreply%40acme.io:{pw()}@smtp.gmail.com:587",
        lambda: f"EMAIL_HOST=smtp.office365.com\nEMAIL_PORT=587\nEMAIL_HOST_USER=alerts@acme.io\nEMAIL_HOST_PASSWORD={pw()}",
        lambda: f"ftp://upload:{pw()}@ftp.printshop.example.net/incoming/",
        lambda: f"sftp://deploy:{pw()}@files.acme.io:22/var/www",
        lambda: f"redis://:{pw()}@cache.internal:6379/0",
        lambda: f"spring.datasource.url=jdbc:postgresql://{host()}:5432/app\nspring.datasource.username=app\nspring.datasource.password={pw()}",
        lambda: f"define( 'DB_NAME', 'wp_blog' );\ndefine( 'DB_USER', 'wp_admin' );\ndefine( 'DB_PASSWORD', '{pw()}' );\ndefine( 'DB_HOST', 'localhost' );",
        lambda: f"# ~/.pgpass\n{host()}:5432:reports:report_reader:{pw()}",
        lambda: f"machine api.heroku.com\n  login me@example.org\n  password {pw()}",
        lambda: f"[global]\nindex-url = https://ci-bot:{pw()}@pypi.internal.acme.io/simple/",
        lambda: f"<server>\n  <id>nexus-releases</id>\n  <username>deployment</username>\n  <password>{pw()}</password>\n</server>",
        lambda: f"network={{\n    ssid=\"{pick(SSIDS)}\"\n    psk=\"{human_pw()}\"\n    key_mgmt=WPA-PSK\n}}",
        lambda: f"ldap://cn=admin,dc=acme,dc=org:{pw()}@ldap.acme.org:389",
        lambda: f"ansible_user: deploy\nansible_become_password: {pw()}",
        lambda: f"WIFI:T:WPA;S:{pick(SSIDS)};P:{human_pw()};;",
        lambda: f"https://builder:{pw()}@git.acme.lan/platform/infra.git",
    ]
    for make in items:
        secret("connection_string", make(), hint="db")


def emit_cli_commands():
    def p():
        return pick([human_pw().replace("'", ""), rs(14)])

    items = [
        lambda: f"mysql -h {pick(['127.0.0.1', 'db.internal'])} -u root -p{rs(12)} shop < dump.sql",
        lambda: f"PGPASSWORD='{p()}' psql -h pg.acme.lan -U reporting -d warehouse -c 'select count(*) from orders'",
        lambda: f"sshpass -p '{p()}' ssh -o StrictHostKeyChecking=no pi@192.168.1.{R.randint(2, 250)}",
        lambda: f"htpasswd -b -c /etc/nginx/.htpasswd admin '{p()}'",
        lambda: f"net use Z: \\\\fileserver\\finance /user:CORP\\{username()} {p()} /persistent:yes",
        lambda: f"C:\\> runas /user:CORP\\adm-{username()} cmd.exe\nEnter the password for CORP\\adm-{username()}: {p()}\nAttempting to start cmd.exe ...",
        lambda: f"docker login registry.acme.io -u ci -p '{p()}'",
        lambda: f"echo '{p()}' | docker login ghcr.io -u {username()} --password-stdin",
        lambda: f"curl -u admin:{p()} https://jenkins.acme.lan/api/json",
        lambda: f"wget --user=backup --password='{p()}' https://nas.home.arpa/backups/latest.tar.gz",
        lambda: f"smbclient //nas/media -U {username()}%{p()}",
        lambda: f"sudo mount -t cifs //10.0.0.5/share /mnt/share -o username=media,password={p()},uid=1000",
        lambda: f"xfreerdp /v:10.1.2.3 /u:Administrator /p:'{p()}' /cert:ignore",
        lambda: f"openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{p()}",
        lambda: f"keytool -importkeystore -srckeystore old.jks -destkeystore new.p12 -srcstorepass {p()} -deststorepass {p()}",
        lambda: f"zip -P '{p()}' taxes-2023.zip *.pdf",
        lambda: f"7z a -p{rs(14)} -mhe=on archive.7z ~/Documents/medical",
        lambda: f"ldapsearch -x -H ldap://dc01 -D 'cn=svc-ldap,ou=svc,dc=corp' -w '{p()}' '(uid=jdoe)'",
        lambda: f"redis-cli -h cache.internal -a '{p()}' info keyspace",
        lambda: f"sqlcmd -S tcp:sql01,1433 -U sa -P '{p()}' -Q \"SELECT @@VERSION\"",
        lambda: f"mongosh \"mongodb://root:{rs(16)}@localhost:27017/admin\"",
        lambda: f"echo '{p()}' | sudo -S apt-get -y upgrade",
        lambda: f"$pw = ConvertTo-SecureString '{p()}' -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential('CORP\\svc_backup', $pw)",
        lambda: f"psexec \\\\ws-{R.randint(100, 999)} -u CORP\\helpdesk -p {p()} cmd",
        lambda: f"az login --username ops@acme.onmicrosoft.com --password '{p()}'",
        lambda: f"git clone https://deploy:{rs(20)}@bitbucket.acme.lan/scm/plat/api.git",
        lambda: f"nmcli dev wifi connect \"{pick(SSIDS)}\" password \"{human_pw()}\"",
        lambda: f"ftp> open ftp.example-print.net\nName: orders\nPassword: {p()}\n230 Login successful.",
        lambda: f"rclone config create nas webdav url https://nas.local/dav user admin pass {p()}",
    ]
    for make in items:
        secret("cli_credential", make(), hint="shell")


PW_FIELDS = ["password", "pass", "pwd", "passwd", "pw", "psw", "secret", "userPassword", "user_password",
             "USER_PASSWORD", "loginPassword", "passWord", "PASSWD", "Passwort", "Kennwort", "mot_de_passe",
             "motDePasse", "contraseña", "clave", "senha", "wachtwoord", "hasło", "haslo", "lösenord", "пароль",
             "パスワード", "密码", "비밀번호", "şifre", "heslo", "salasana", "jelszó", "adgangskode", "passord",
             "κωδικός", "סיסמה", "كلمة_المرور", "mật_khẩu", "kata_sandi", "login_pw", "acct_pwd", "db_pass"]


def emit_credential_records():
    for fname in PW_FIELDS:
        style = R.randrange(4)
        if style == 0:
            value = {"site": pick(SITES), "username": username(), fname: human_pw()}
        elif style == 1:
            value = {"account": pick(["Sparkasse", "Chase", "BBVA", "Revolut", "N26", "Barclays", "ING"]),
                     "login": username(), fname: human_pw(), "updated": date()}
        elif style == 2:
            value = {"type": "wifi", "ssid": pick(SSIDS), fname: human_pw()}
        else:
            value = {"system": pick(["NAS", "printer", "alarm panel", "CMS", "VPN"]), "user": "admin", fname: rs(14)}
        secret("credential_record", value, hint="account")
    # compact credential notations
    secret("credential_record", {"creds": f"{username()}:{human_pw()}", "host": "ftp.acme.io"})
    secret("credential_record", {"auth": {"user": "svc-reporting", "secret": rs(32)}, "endpoint": "https://reports.acme.io"})
    secret("credential_record", [{"name": "Gmail", "user": _person_email(), "pw": human_pw()},
                                 {"name": "Bank", "user": username(), "pw": human_pw()}])
    secret("credential_record", "name,url,username,password,note\n"
           f"Gmail,https://accounts.google.com,{_person_email()},{human_pw()},\n"
           f"Netflix,https://www.netflix.com,{_person_email()},{human_pw()},family")


PIN_PROSE = [
    "My debit card PIN is {p4}", "ATM PIN: {p4}", "SIM PIN {p4}, PUK {p8}", "voicemail code is {p4}",
    "front door code {p4}#", "alarm code for the house is {p4} - you have 30 seconds to disarm",
    "the safe in the bedroom closet opens with {p6}", "gym locker combo is {c1}-{c2}-{c3}",
    "bike lock code {p4}", "garage keypad: {p4}", "key safe outside mum's front door: {p4}",
    "gate code for the community is #{p4}", "Phone unlock PIN: {p6}",
    "Screen Time passcode for the kids' iPad: {p4}", "credit union phone banking PIN {p6}",
    "the code to our storage unit is {p4}", "office door keypad: {p4}*",
    "Grandpa's hearing aid app PIN is {p4}", "My Visa PIN is {p4}, the Mastercard one is {p4b}",
    "combination lock on the suitcase: {p3}", "The lockbox with the spare key is under the porch, code {p4}",
    "Parents' house alarm: disarm code {p4}, duress code {p4b}", "Telephone banking passcode: {p6}",
    "For the school pickup the safe word is '{word}' and the gate PIN is {p4}",
]
PIN_I18N = [
    "Meine PIN für die Girocard ist {p4}", "Code de la carte bleue : {p4}", "El PIN de mi tarjeta es {p4}",
    "Il codice del portone è {p4}", "O código do alarme é {p4}", "Pincode van mijn bankpas: {p4}",
    "PIN do karty: {p4}", "キャッシュカードの暗証番号は{p4}", "银行卡密码是{p6}", "현관 비밀번호 {p4}",
    "ПИН-код от карты {p4}", "Kart şifrem {p4}", "Portkoden är {p4}", "Koodi ovelle on {p4}",
]


def fill_pin(t: str) -> str:
    return t.format(p3=pin(3), p4=pin(4), p4b=pin(4), p6=pin(6), p8=pin(8), c1=R.randint(1, 39),
                    c2=R.randint(1, 39), c3=R.randint(1, 39), word=pick(["pineapple", "blue heron", "marzipan"]))


def emit_pins():
    for t in PIN_PROSE:
        secret("pin_code", fill_pin(t), hint="codes")
    for t in PIN_I18N:
        secret("pin_code_i18n", fill_pin(t), hint="codes")
    recs = [
        {"item": "debit card", "bank": "Monzo", "pin": pin()},
        {"Karte": "Sparkasse", "Geheimzahl": pin()},
        {"door_code": pin(), "wifi_network": pick(SSIDS)},
        {"alarmCode": pin(), "monitoringCompany": "ADT"},
        {"locker": 214, "combo": f"{R.randint(1, 39)}-{R.randint(1, 39)}-{R.randint(1, 39)}"},
        {"sim": {"pin": pin(), "puk": pin(8)}},
        {"voicemail": {"number": "+44 7700 900123", "passcode": pin(6)}},
        {"codes": {"garage": pin(), "gate": pin(), "shed padlock": pin(3)}},
    ]
    for r in recs:
        secret("pin_record", r, hint="codes")


def emit_security_answers():
    items = [
        "Security question for the bank: mother's maiden name? Answer I gave: Kowalczyk",
        "Recovery answers for my Apple ID: first pet - Biscuit; city where my parents met - Tromsø; favourite teacher - Mrs. Adeyemi",
        {"account": "PayPal", "security_question": "Name of your first school?", "answer": "St. Brigid's Primary"},
        {"recovery": [{"q": "What street did you grow up on?", "a": "Calle Arenal"},
                      {"q": "What was your childhood nickname?", "a": "Pipoca"}]},
        "For the Verizon account the secret answer is 'purple giraffe' (question: favourite toy)",
        "Sicherheitsfrage bei der Bank: Name des ersten Haustiers -> Antwort: Krümel",
        "Question secrète du compte Ameli : ville de naissance de ma mère, réponse : Tlemcen",
        {"memorable_word": "halcyon", "used_for": "Barclays online banking"},
        "security answer for the airline account (first car): 'rusty blue Corolla 1998'",
    ]
    for it in items:
        secret("security_answer", it, hint="recovery")


def emit_recovery_and_totp():
    gh = "\n".join(f"{hx(5)}-{hx(5)}" for _ in range(16))
    secret("recovery_codes", f"GitHub recovery codes (saved {date()}):\n{gh}", hint="2fa")
    g = "\n".join(f"{rs(4, DIGITS)} {rs(4, DIGITS)}" for _ in range(10))
    secret("recovery_codes", f"Google backup codes - each works once\n{g}", hint="2fa")
    secret("recovery_codes", {"service": "Microsoft account", "recovery_code": "-".join(rs(5, UPPER + DIGITS) for _ in range(5))})
    secret("recovery_codes", {"service": "Discord", "backup_codes": [f"{rs(4, LOWER + DIGITS)}-{rs(4, LOWER + DIGITS)}" for _ in range(8)]})
    bl = "-".join(f"{11 * R.randint(1000, 65535):06d}" for _ in range(8))
    secret("recovery_codes", f"BitLocker recovery key for the work laptop (ID {hx(8).upper()}): {bl}", hint="laptop")
    secret("recovery_codes", f"Apple account recovery key: {'-'.join(rs(4, UPPER + DIGITS) for _ in range(7))}")
    secret("recovery_codes", f"Proton recovery phrase for the mail account: {' '.join(pick(BIP39) for _ in range(12))}")
    for i in range(6):
        seed = rs(32, B32)
        style = i % 3
        if style == 0:
            who = pick(["aws-root", "github", "jdoe@acme.io", "vpn"])
            secret("totp_seed", f"otpauth://totp/{pick(['AWS', 'GitHub', 'Acme'])}:{who}?secret={seed}&issuer={pick(['AWS', 'GitHub', 'Acme'])}&digits=6&period=30", hint="2fa")
        elif style == 1:
            grouped = " ".join(seed[j:j + 4].lower() for j in range(0, 32, 4))
            secret("totp_seed", f"2FA setup key for {pick(['Coinbase', 'Binance', 'the Okta account', 'Kraken'])} (type it into Authy if the QR fails): {grouped}", hint="2fa")
        else:
            secret("totp_seed", {"issuer": pick(["Bitwarden", "Dropbox", "Namecheap"]), "totp_secret": seed, "algorithm": "SHA1"}, hint="2fa")


BIP39 = ["abandon", "ability", "able", "about", "above", "absent", "absorb", "abstract", "absurd", "abuse",
         "access", "accident", "account", "accuse", "achieve", "acid", "acoustic", "acquire", "across", "act",
         "action", "actor", "actress", "actual", "adapt", "add", "addict", "address", "adjust", "admit",
         "adult", "advance", "advice", "aerobic", "affair", "afford", "afraid", "again", "age", "agent",
         "agree", "ahead", "aim", "air", "airport", "aisle", "alarm", "album", "alcohol", "alert", "alien",
         "all", "alley", "allow", "almost", "alone", "alpha", "already", "also", "alter", "always", "amateur",
         "amazing", "among", "amount", "amused", "analyst", "anchor", "ancient", "anger", "angle", "angry",
         "animal", "ankle", "announce", "annual", "another", "answer", "antenna", "antique", "anxiety", "any",
         "apart", "apology", "appear", "apple", "approve", "april", "arch", "arctic", "area", "arena", "argue",
         "arm", "armed", "armor", "army", "around", "arrange", "arrest", "arrive", "arrow", "art", "artist",
         "artwork", "ask", "aspect", "assault", "asset", "assist", "assume", "asthma", "athlete", "atom",
         "attack", "attend", "attitude", "attract", "auction", "audit", "august", "aunt", "author", "auto",
         "autumn", "average", "avocado", "avoid", "awake", "aware", "away", "awesome", "awful", "awkward",
         "axis", "baby", "bacon", "badge", "bag", "balance", "ball", "bamboo", "banana", "banner", "barrel",
         "basket", "battle", "beach", "bean", "beauty", "because", "become", "before", "begin", "behind",
         "believe", "below", "bench", "benefit", "best", "better", "between", "beyond", "bicycle", "bird",
         "bitter", "black", "blanket", "blossom", "blue", "board", "boat", "body", "bonus", "book", "border",
         "bottom", "brain", "brave", "bread", "bridge", "brief", "bright", "broccoli", "brother", "bubble",
         "budget", "buffalo", "butter", "cabbage", "cactus", "camera", "canal", "candy", "canvas", "captain",
         "carbon", "carpet", "castle", "catalog", "ceiling", "cherry", "chicken", "citizen", "clock", "cloud",
         "coconut", "coffee", "dolphin", "donkey", "dragon", "eagle", "garden", "guitar", "island", "jungle",
         "kitchen", "lemon", "lobster", "magnet", "mango", "monkey", "orange", "panda", "piano", "pumpkin",
         "rabbit", "river", "rocket", "salmon", "tomato", "tunnel", "violin", "wagon", "window", "winter",
         "zebra", "zero", "zone", "zoo"]


def emit_keys():
    priv, _pub = openssh_ed25519(f"{username()}@{pick(['thinkpad', 'mbp', 'desktop'])}")
    secret("private_key", priv, hint="ssh")
    priv, _pub = openssh_ed25519("deploy@ci")
    secret("private_key", {"host": "prod-bastion", "user": "deploy", "ssh_key": priv}, hint="ssh")
    priv, _pub = openssh_ed25519("pi@raspberrypi")
    secret("private_key", "here's the id_ed25519 for the raspberry pi so I can restore it later:\n\n" + priv)
    secret("private_key", rsa_private_pem(), hint="tls")
    secret("private_key", f"server.key for nginx on the homelab:\n{rsa_private_pem()}")
    secret("private_key", pkcs8_rsa_pem(), raw=True)
    secret("private_key", {"tls": {"cert": "/etc/ssl/certs/shop.crt", "key": pkcs8_rsa_pem()}})
    secret("private_key", ec_private_pem(), hint="tls")
    secret("private_key", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: webhook-tls\ntype: kubernetes.io/tls\nstringData:\n  tls.key: |\n"
           + "\n".join("    " + ln for ln in ec_private_pem().splitlines()))
    secret("private_key", ed25519_pkcs8_pem())
    secret("private_key", dsa_private_pem())
    secret("private_key", f"{encrypted_pkcs8_pem()}\n\npassphrase for the key above: {passphrase()}")
    secret("private_key", pgp_block(True), hint="pgp")
    secret("private_key", "My PGP secret key backup (the one on the Yubikey is a subkey):\n" + pgp_block(True))
    secret("private_key", {"kty": "EC", "crv": "P-256", "x": b64u(rbytes(32)), "y": b64u(rbytes(32)),
                           "d": b64u(rbytes(32)), "use": "sig", "kid": hx(16)}, hint="jwk")
    secret("private_key", {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": b64u(rbytes(32)), "d": b64u(rbytes(32)),
                                     "kid": "2024-signing"}]}, hint="jwks")
    secret("private_key", f"[Interface]\nPrivateKey = {wg_key()}\nAddress = 10.8.0.{R.randint(2, 200)}/24\nDNS = 1.1.1.1\n\n[Peer]\n"
           f"PublicKey = {wg_key()}\nEndpoint = vpn.example-home.net:51820\nAllowedIPs = 0.0.0.0/0", hint="wireguard")
    secret("private_key", {"wireguard": {"private_key": wg_key(), "listen_port": 51820}})
    secret("private_key", f"# created: {ts()}\n# public key: {age_public_key()}\n{age_secret_key()}", hint="age")
    pub_lines = wrap(b64(_ssh_str(b"ssh-ed25519") + _ssh_str(rbytes(32))), 64)
    secret("private_key", f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-{date().replace('-', '')}\n"
           f"Public-Lines: 2\n{pub_lines}\nPrivate-Lines: 1\n{b64(_ssh_str(rbytes(32)))}\nPrivate-MAC: {hx(64)}")


def emit_tokens_misc():
    # JWTs
    for i in range(6):
        payload = {"sub": pick([uuid4(), str(R.randint(10000, 99999)), _person_email()]), "iat": 1717000000 + R.randint(0, 9999999),
                   "exp": 1750000000 + R.randint(0, 99999999), "scope": pick(["read write", "admin", "openid profile email"])}
        tok = jwt(payload, pick(["HS256", "RS256"]))
        t = [f"Authorization: Bearer {tok}", {"access_token": tok, "token_type": "Bearer", "expires_in": 3600},
             f"the session token from the devtools network tab: {tok}", tok,
             f"refresh_token={tok}", f"const token = '{tok}';"][i]
        secret("jwt", t, raw=(i == 3), hint="auth")
    # cookies
    cookies = [
        f"Cookie: sessionid={rs(32, LOWER + DIGITS)}; csrftoken={rs(32)}",
        f"connect.sid=s%3A{rs(32, B64U)}.{rs(43, B64U)}",
        f"Set-Cookie: __Secure-next-auth.session-token={jwt({'name': 'Lena', 'email': _person_email()})}; Path=/; HttpOnly; Secure",
        f"PHPSESSID={rs(26, LOWER + DIGITS)} (copied from the admin panel so you can log in as me)",
        f"_myapp_session={b64(rbytes(120))}--{hx(40)}",
        {"cookies": [{"name": "JSESSIONID", "value": hx(32).upper(), "domain": "intranet.acme.lan"}]},
        f"li_at={rs(150, B64U)} - LinkedIn cookie for the scraper",
    ]
    for c in cookies:
        secret("session_cookie", c, hint="browser")
    # auth headers
    heads = [
        f"Authorization: Basic {b64s(username() + ':' + human_pw())}",
        f"Proxy-Authorization: Basic {b64s('proxyuser:' + rs(12))}",
        f"Authorization: Bearer {rs(48, B64U)}",
        f"curl -H 'Authorization: Token {hx(40)}' https://internal.acme.io/api/v1/reports",
        {"headers": {"Authorization": "Basic " + b64s("admin:" + human_pw()), "Accept": "application/json"}},
        f"X-Api-Key: {rs(40)}  <- header for the internal billing API",
        f"fetch(url, {{ headers: {{ Authorization: 'Bearer {rs(64, B64U)}' }} }})",
    ]
    for h in heads:
        secret("auth_header", h, hint="http")
    # signed URLs
    akid = "AKIA" + rs(16, B32)
    d = f"2024{R.randint(1, 12):02d}{R.randint(1, 28):02d}"
    urls = [
        f"https://acme-invoices.s3.eu-west-1.amazonaws.com/2024/inv-0042.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={akid}%2F{d}%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date={d}T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={hx(64)}",
        f"download link for the scan (valid a week): https://med-uploads.s3.amazonaws.com/scans/mri.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA{rs(16, B32)}%2F{d}%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date={d}T080000Z&X-Amz-Expires=604800&X-Amz-Security-Token={rs(200, B64U)}&X-Amz-SignedHeaders=host&X-Amz-Signature={hx(64)}",
        f"https://storage.googleapis.com/acme-exports/report.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exporter%40acme-prod.iam.gserviceaccount.com%2F{d}%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date={d}T120000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={hx(512)}",
        f"https://contosodata.blob.core.windows.net/backups/db.bak?sv=2022-11-02&ss=b&srt=o&sp=rwdlac&se=2026-01-01T00:00:00Z&st=2024-06-01T00:00:00Z&spr=https&sig={b64(rbytes(32)).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}",
        {"share_url": f"https://mediastore01.blob.core.windows.net/photos?sp=racwdl&st=2024-06-01T09:00:00Z&se=2025-12-31T17:00:00Z&spr=https&sv=2022-11-02&sr=c&sig={b64(rbytes(32)).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}"},
        f"BlobEndpoint=https://backupsweu.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2025-09-30T18:00:00Z&spr=https&sig={b64(rbytes(32)).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}",
    ]
    for u in urls:
        secret("signed_url", u, hint="link")
    # webhooks
    hooks = [
        f"https://hooks.slack.com/services/T{rs(8, UPPER + DIGITS)}/B{rs(10, UPPER + DIGITS)}/{rs(24)}",
        f"alerts go to the #oncall channel via SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{rs(10, UPPER + DIGITS)}/B{rs(10, UPPER + DIGITS)}/{rs(24)}",
        f"https://discord.com/api/webhooks/{dg(19)}/{rs(68, B64U)}",
        {"discord_webhook": f"https://discordapp.com/api/webhooks/{dg(18)}/{rs(68, B64U)}", "channel": "#deploys"},
        f"Teams incoming webhook for the family calendar bot: https://contoso.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}",
        f"https://acmecorp.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{hx(32)}/{uuid4()}/V2{rs(40, B64U)}",
        f"https://chat.googleapis.com/v1/spaces/AAAA{rs(7, B64U)}/messages?key=AIza{rs(35, B64U)}&token={rs(43, B64U)}%3D",
    ]
    for h in hooks:
        secret("webhook_url", h, hint="webhook")


def emit_crypto_wallets():
    secret("crypto_private_key", f"ETH hot wallet private key: 0x{hx(64)}", hint="wallet")
    secret("crypto_private_key", {"network": "polygon", "address": eth_address(), "private_key": hx(64)}, hint="wallet")
    secret("crypto_private_key", f"PRIVATE_KEY={hx(64)}\nRPC_URL=https://mainnet.infura.io/v3/{hx(32)}", hint="wallet")
    secret("crypto_private_key", f"paper wallet (bitcoin) - WIF: {wif(False)}", hint="wallet")
    secret("crypto_private_key", f"importprivkey {wif(True)} \"savings\" false")
    secret("crypto_private_key", {"btc_wif": wif(True), "label": "cold storage 2019"})
    secret("crypto_private_key", "solana id.json: " + json.dumps(list(rbytes(64))), hint="wallet")
    for i in range(7):
        n = 24 if i % 3 == 0 else 12
        words = " ".join(pick(BIP39) for _ in range(n))
        t = [f"Seed phrase for the Ledger, write it on steel later: {words}",
             {"wallet": "MetaMask", "recovery_phrase": words.split()},
             f"my {n} words: {words}",
             f"Frase semilla de la billetera: {words}",
             f"Wiederherstellungsphrase (Trezor): {words}",
             "\n".join(f"{j + 1}. {w}" for j, w in enumerate(words.split())),
             f"mnemonic: \"{words}\"\nderivation_path: m/44'/60'/0'/0/0"][i]
        secret("seed_phrase", t, hint="wallet")


def emit_cards_bank_ssn():
    brands = list(CARD_BRANDS)
    templates = [
        lambda b, n, e, c: f"My {b} is {card_fmt(n)} exp {e} cvv {c}",
        lambda b, n, e, c: {"card_number": n, "expiry": e, "cvc": c, "brand": b, "name": "J DOE"},
        lambda b, n, e, c: f"card for online orders: {card_fmt(n, '-')}  {e}  {c}",
        lambda b, n, e, c: f"{n} {e} {c}",
        lambda b, n, e, c: f"Kreditkarte ({b}): {card_fmt(n)}, gültig bis {e}, Prüfziffer {c}",
        lambda b, n, e, c: f"Tarjeta {b}: {card_fmt(n)} vence {e} CVV {c}",
        lambda b, n, e, c: {"payment": {"pan": card_fmt(n), "exp_month": int(e[:2]), "exp_year": 2000 + int(e[3:]), "cvv": c}},
        lambda b, n, e, c: f"Mom's card for the pharmacy refills: {card_fmt(n)} (exp {e}), security code {c}",
        lambda b, n, e, c: f"use the {b} ending {n[-4:]} - full number {n}, {e}",
        lambda b, n, e, c: f"Carte bancaire : {card_fmt(n)} — expire fin {e} — cryptogramme {c}",
        lambda b, n, e, c: f"カード番号 {card_fmt(n)} 有効期限 {e} セキュリティコード {c}",
        lambda b, n, e, c: f"card: {n}\nexp: {e}\ncvv2: {c}\nzip: {R.randint(10000, 99999)}",
    ]
    for i in range(20):
        b = brands[i % len(brands)]
        n = card_number(b)
        CARD_NUMBERS.append(n)
        secret("payment_card", templates[i % len(templates)](b, n, expiry(), cvv(b)), hint="card")
    # bank account + PIN / online banking
    for i in range(7):
        if i % 2 == 0:
            ib = random_iban()
            t = [f"Bank: IBAN {iban_fmt(ib)}, card PIN {pin()}",
                 {"iban": ib, "online_banking_pin": pin(5), "tan_app": "pushTAN"},
                 f"Konto {iban_fmt(ib)} - Online-Banking PIN {pin(5)}",
                 {"account": ib, "telephone_banking_passcode": pin(6)}][i // 2]
        else:
            t = [f"Checking acct {dg(10)} routing {aba_routing()}, debit PIN {pin()}",
                 {"routing_number": aba_routing(), "account_number": dg(12), "atm_pin": pin()},
                 f"Sort code {rs(2, DIGITS)}-{rs(2, DIGITS)}-{rs(2, DIGITS)}, account {rs(8, DIGITS)}, telephone banking PIN {pin(6)}"][i // 2]
        secret("bank_account_pin", t, hint="bank")
    # US social security numbers
    ssn_t = [
        "My SSN is {s}", "social security number: {s}", {"ssn": "{s}", "dob": "1987-04-12"},
        "For the tax forms, Dad's social is {s}", "SSN {s} (needed for the W-4)",
        "Número de seguro social: {s}", {"applicant": {"name": "Dana Whitfield", "SSN": "{s}"}},
    ]
    for t in ssn_t:
        s = ssn()
        v = json.loads(json.dumps(t).replace("{s}", s)) if isinstance(t, dict) else t.format(s=s)
        secret("us_ssn", v, hint="tax")


def emit_nonvendor_secrets():
    emit_password_prose()
    emit_connection_strings()
    emit_cli_commands()
    emit_credential_records()
    emit_pins()
    emit_security_answers()
    emit_recovery_and_totp()
    emit_keys()
    emit_tokens_misc()
    emit_crypto_wallets()
    emit_cards_bank_ssn()


# ---------------------------------------------------------------------------
# 4. evasions: the same kinds of secrets, disguised (variant "hard")
# ---------------------------------------------------------------------------

def _site_pw_label():
    return pick(["my email password", "the bank login password", "the wifi password", "my Apple ID password",
                 "the NAS admin password", "the password for the patient portal"])


EV_BASES = [
    ("token", "GitHub token", lambda: "ghp_" + rs(36)),
    ("token", "Stripe secret key", lambda: "sk_live_51" + rs(60)),
    ("token", "Anthropic API key", lambda: "sk-ant-api03-" + rs(93, B64U) + "AA"),
    ("token", "OpenAI key", lambda: "sk-" + rs(20) + "T3BlbkFJ" + rs(20)),
    ("token", "Slack bot token", lambda: f"xoxb-{dg(11)}-{dg(13)}-{rs(24)}"),
    ("token", "AWS secret access key", lambda: rs(40, ALNUM + "/+")),
    ("token", "GitLab token", lambda: "glpat-" + rs(20, B64U)),
    ("token", "Hugging Face token", lambda: "hf_" + rs(34, LETTERS)),
    ("token", "npm publish token", lambda: "npm_" + rs(36)),
    ("token", "SendGrid key", lambda: "SG." + rs(22, B64U) + "." + rs(43, B64U)),
    ("token", "Google API key", lambda: "AIza" + rs(35, B64U)),
    ("token", "DigitalOcean token", lambda: "dop_v1_" + hx(64)),
    ("password", None, human_pw),
    ("password", None, human_pw),
    ("password", None, human_pw),
]
EV_ROT = Rot(range(len(EV_BASES)))
TOKEN_ROT = Rot([i for i, b in enumerate(EV_BASES) if b[0] == "token"])


def ev_base(family: str | None = None):
    """Return (family, label, secret) for a fresh base secret."""
    rot = TOKEN_ROT if family == "token" else EV_ROT
    while True:
        fam, label, gen = EV_BASES[rot.next()]
        if family in (None, fam):
            return fam, (label or _site_pw_label()), gen()


def ev_pw():
    # passwords without quotes/backslashes so code-like contexts stay valid
    while True:
        _, label, s = ev_base("password")
        if not any(c in s for c in "'\"\\"):
            return label, s


def intro(label: str) -> str:
    return pick([f"{label}", f"here's {label}", f"save {label}", f"note: {label}", f"for later, {label}"])


ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ",
        "A": "А", "B": "В", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т", "X": "Х"}
NATO = {"a": "alfa", "b": "bravo", "c": "charlie", "d": "delta", "e": "echo", "f": "foxtrot", "g": "golf",
        "h": "hotel", "i": "india", "j": "juliett", "k": "kilo", "l": "lima", "m": "mike", "n": "november",
        "o": "oscar", "p": "papa", "q": "quebec", "r": "romeo", "s": "sierra", "t": "tango", "u": "uniform",
        "v": "victor", "w": "whiskey", "x": "x-ray", "y": "yankee", "z": "zulu"}
NUM_WORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "nl": "nul een twee drie vier vijf zes zeven acht negen".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
}
NUM_INTRO = {
    "en": "my bank card PIN is", "de": "die PIN meiner EC-Karte ist", "fr": "le code de ma carte est",
    "es": "el PIN de la tarjeta es", "it": "il PIN del bancomat è", "pt": "a senha do cartão é",
    "nl": "de pincode van mijn pas is", "pl": "PIN do karty to", "ja": "暗証番号は", "ru": "ПИН-код карты:",
}


def spell_digits(s: str, lang: str) -> str:
    return " ".join(NUM_WORDS[lang][int(c)] if c.isdigit() else c for c in s)


def fullwidth(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in s)


def ev_spaced():
    fam, label, s = ev_base()
    return f"{intro(label)} (spaces added so it doesn't autocorrect): {' '.join(s)}"


def ev_dashed():
    fam, label, s = ev_base("token")
    return f"{label}: {'-'.join(s[i:i + 4] for i in range(0, len(s), 4))}  (drop the dashes)"


def ev_dotted():
    fam, label, s = ev_base()
    return f"{label} = {'.'.join(s)}"


def ev_zero_width():
    fam, label, s = ev_base()
    out = ""
    for c in s:
        out += c + (pick(ZW) if R.random() < 0.5 else "")
    return f"{intro(label)}: {out}"


def ev_fullwidth():
    fam, label, s = ev_base()
    return f"{label}： {fullwidth(s)}" if R.random() < 0.5 else fullwidth(f"{label}: {s}")


def ev_homoglyph():
    fam, label, s = ev_base()
    s2 = "".join(HOMO.get(c, c) if R.random() < 0.6 else c for c in s)
    kw = "раsswоrd" if fam == "password" else "tоkеn"
    return f"{kw} ({label}): {s2}"


def ev_base64():
    fam, label, s = ev_base()
    return f"{label}, base64 so it isn't in plain text: {b64s(s)}"


def ev_hex():
    fam, label, s = ev_base()
    return f"{label} (hex-encoded): {s.encode().hex()}"


def ev_base32():
    fam, label, s = ev_base()
    return f"{label} in base32 -> {base64.b32encode(s.encode()).decode()}"


def ev_percent():
    fam, label, s = ev_base()
    return f"{label}: {''.join(f'%{b:02X}' for b in s.encode())}"


def ev_quoted_printable():
    fam, label, s = ev_base()
    enc = "".join(f"={b:02X}" if (R.random() < 0.7 or b == 61 or b > 126) else chr(b) for b in s.encode())
    return f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{label}: {enc}"


def ev_unicode_escape():
    fam, label, s = ev_base()
    esc = "".join(f"\\u{ord(c):04x}" for c in s)
    return f'{label} = "{esc}"'


def ev_html_entities():
    fam, label, s = ev_base()
    ent = "".join(pick([f"&#{ord(c)};", f"&#x{ord(c):x};"]) for c in s)
    return f"<p>{label}: {ent}</p>"


def ev_rot13():
    fam, label, s = ev_base()
    return f"{label} (rot13'd, you know the drill): {codecs.encode(s, 'rot13')}"


def ev_reversed():
    fam, label, s = ev_base()
    return f"{label}, written backwards: {s[::-1]}"


def ev_split_fields():
    fam, label, s = ev_base()
    a, b = s[:len(s) // 2], s[len(s) // 2:]
    return {"what": label, "part_1": a, "part_2": b, "join": "part_1 + part_2"}


def ev_split_list():
    fam, label, s = ev_base()
    return {"note": f"{label}, concatenate the pieces", "pieces": chunks(s, R.randint(3, 5))}


def ev_split_lines():
    fam, label, s = ev_base()
    return f"{label} (one chunk per line):\n" + "\n".join(chunks(s, R.randint(3, 6)))


def ev_split_dict_keys():
    fam, label, s = ev_base()
    parts = chunks(s, 3)
    return {"about": label, parts[0]: 1, parts[1]: 2, parts[2]: 3}


def ev_swap_key_value():
    fam, label, s = ev_base()
    return {s: label}


def ev_in_memory_key():
    fam, label, s = ev_base()
    return {"value": f"{label} (it's the key of this memory)"}, s, None


def ev_in_namespace():
    fam, label, s = ev_base()
    return {"text": f"{label} is filed under this namespace"}, None, ["memories", pick(USERS), s]


def ev_code_concat():
    fam, label, s = ev_base("token")
    parts = chunks(s, R.randint(3, 4))
    if R.random() < 0.5:
        return "API_KEY = " + " + ".join(f'"{p}"' for p in parts) + "  # " + label
    return "const k = [" + ", ".join(f"'{p}'" for p in parts) + "].join('');  // " + label


def ev_markdown_table():
    label, s = ev_pw()
    return ("| service | username | password |\n|---|---|---|\n"
            f"| {pick(SITES)} | {username()} | {s} |\n| library | card on file | n/a |")


def ev_csv_row():
    label, s = ev_pw()
    return f"service;login;secret;notes\n{pick(SITES)};{_person_email()};{s};changed {date()}"


def ev_sql_insert():
    label, s = ev_pw()
    return f"INSERT INTO accounts (site, login, password) VALUES ('{pick(SITES)}', '{username()}', '{s}');"


def ev_yaml_block():
    label, s = ev_pw()
    style = pick(["|", "|-", ">-"])
    return f"account:\n  user: {username()}\n  password: {style}\n    {s}\n  note: {label}\n"


def ev_json_in_json():
    fam, label, s = ev_base()
    inner = {"label": label, "value": s}
    return {"payload": json.dumps(inner), "type": "stringified"}


def ev_spelled_numbers():
    lang = pick(list(NUM_WORDS))
    p = pin(R.choice([4, 4, 6]))
    return f"{NUM_INTRO[lang]} {spell_digits(p, lang)}"


def ev_spelled_card():
    b = pick(["Visa", "Mastercard", "Discover"])
    n = card_number(b)
    CARD_NUMBERS.append(n)
    CARDS_SPELLED.append(n)
    lang = pick(["en", "de", "fr", "es"])
    return f"{b}: {spell_digits(n, lang)} / {expiry()}"


def ev_leet_keyword():
    label, s = ev_pw()
    kw = pick(["p@ssw0rd", "p4ssw0rd", "P455W0RD", "pa$$word", "passw0rd", "p@55"])
    return f"{kw}: {s}"


def ev_typo_keyword():
    label, s = ev_pw()
    kw = pick(["pasword", "passwrod", "passowrd", "pssword", "paswd", "passwprd", "pasword for gmail"])
    return f"{kw} {pick([':', '=', 'is', '->'])} {s}"


def ev_foreign_keyword():
    label, s = ev_pw()
    kw = pick(["my пароль is", "the wifi 密码:", "NAS パスワード =", "the κωδικός for the router is", "סיסמה:",
               "the 비밀번호 for the door app is", "my शब्दकूट (password) is"])
    return f"{kw} {s}"


def ev_nato():
    label, s = ev_pw()
    spelled = []
    for c in s:
        if c.isalpha() and c.lower() in NATO:
            w = NATO[c.lower()]
            spelled.append(w.upper() if c.isupper() else w)
        elif c.isdigit():
            spelled.append(NUM_WORDS["en"][int(c)])
        else:
            spelled.append(repr(c))
    return f"{label}, spelled out (caps = uppercase): {' '.join(spelled)}"


def ev_char_codes():
    fam, label, s = ev_base()
    return f"// {label}\nconst secret = String.fromCharCode({', '.join(str(ord(c)) for c in s)});"


def ev_hex_escapes():
    fam, label, s = ev_base()
    esc = "".join(f"\\x{b:02x}" for b in s.encode())
    return f'{label} = b"{esc}".decode()'


def ev_soft_hyphen():
    fam, label, s = ev_base()
    return f"{label}: " + "\u00ad".join(chunks(s, R.randint(4, 8)))


def ev_unicode_punct():
    label, s = ev_pw()
    kw = pick(["password", "Password", "PASSWORD"])
    return f"{kw}\u00a0\uff1a\u3000{s}" if R.random() < 0.5 else f"{kw}\u2236\u2003{s}"


def ev_html_comment():
    fam, label, s = ev_base()
    return f"<div class=\"footer\">\n  <!-- {label}: {s} -->\n  <p>&copy; 2024</p>\n</div>"


def ev_xml_attr():
    label, s = ev_pw()
    return f'<credential host="nas.local" user="admin" pass="{s}" note="{label}"/>'


def ev_data_uri():
    fam, label, s = ev_base()
    return f"data:text/plain;base64,{b64s(f'{label}={s}')}"


def ev_base64_env():
    fam, label, s = ev_base("token")
    env = f"APP_ENV=production\nLOG_LEVEL=warn\nAPI_TOKEN={s}\n"
    return f"my .env, base64'd so the chat doesn't mangle it:\n{b64s(env)}"


def ev_double_base64():
    fam, label, s = ev_base()
    return f"{label} (base64 twice): {b64s(b64s(s))}"


def ev_embedded_long():
    label, s = ev_pw()
    return ("Follow-up with Dr. Haddad went fine. Blood pressure 128/84, she wants me to keep taking "
            "amlodipine 5 mg in the morning and recheck in three months. The new portal account is set up - "
            f"password is {s} - so I can see the lab results there. Need to book the eye exam before August and "
            "ask about the knee again, it still clicks on stairs.")


def ev_deep_nesting():
    fam, label, s = ev_base()
    return {"profile": {"integrations": [{"name": label, "config": {"auth": {"v1": [{"data": s}]}}}]}}


def ev_emoji_sep():
    fam, label, s = ev_base()
    return f"🔑 {label}: " + "✨".join(chunks(s, R.randint(3, 6)))


def ev_rtl_override():
    fam, label, s = ev_base()
    return f"{label}: \u202e{s[::-1]}\u202c"


def ev_combining():
    fam, label, s = ev_base()
    return f"{label}: " + "".join(c + "\u0336" for c in s)


def ev_interleave():
    fam, label, s = ev_base()
    junk = "".join(c + pick("#*~^") for c in s)
    return f"{label} - take every other character, starting with the first: {junk}"


def ev_split_prose():
    fam, label, s = ev_base()
    a, b = s[:len(s) // 2], s[len(s) // 2:]
    return f"The first half of {label} is {a} and the second half, which I keep separately, is {b}."


def ev_k8s_data_b64():
    label, s = ev_pw()
    return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-auth\ntype: Opaque\ndata:\n"
            f"  username: {b64s('app')}\n  password: {b64s(s)}\n")


def ev_docker_auth():
    label, s = ev_pw()
    return {"auths": {"https://index.docker.io/v1/": {"auth": b64s(f"{username()}:{s}")},
                      "ghcr.io": {"auth": b64s(f"{username()}:ghp_{rs(36)}")}}}


def ev_morse():
    morse = {"0": "-----", "1": ".----", "2": "..---", "3": "...--", "4": "....-", "5": ".....",
             "6": "-....", "7": "--...", "8": "---..", "9": "----."}
    p = pin()
    return f"alarm code in morse (lol): {' '.join(morse[c] for c in p)}"


def ev_url_fragment():
    fam, label, s = ev_base("token")
    return f"redirected to https://app.example-crm.com/oauth/callback#access_token={s}&token_type=bearer&expires_in=7200"


def ev_spaced_keyword():
    label, s = ev_pw()
    return f"p a s s w o r d  ->  {s}"


def ev_caesar():
    label, s = ev_pw()
    shifted = "".join(chr((ord(c) - 97 + 1) % 26 + 97) if c.islower() else
                      chr((ord(c) - 65 + 1) % 26 + 65) if c.isupper() else c for c in s)
    return f"{label}, every letter shifted forward by one (digits unchanged): {shifted}"


def ev_described_fully():
    name = pick(PW_NAMES)
    year = R.randint(1960, 2015)
    sym = pick("!#$%&*")
    return (f"my bank password is my dog's name {name} followed by {year} and then a {sym} - "
            f"so literally {name}{year}{sym}")


def ev_pin_in_date():
    p = str(R.randint(1931, 1958))
    return f"PIN for the new card = the year grandma was born, so {p}"


def ev_reversed_card():
    b = pick(["Visa", "Mastercard", "American Express"])
    n = card_number(b)
    CARD_NUMBERS.append(n)
    return f"card number reversed (paranoid, I know): {n[::-1]}, exp {expiry()}, cvv {cvv(b)}"


def ev_list_items():
    label, s = ev_pw()
    return ["wifi setup", f"network: {pick(SSIDS)}", "key below, split in two:", s[:len(s) // 2], s[len(s) // 2:]]


EVASIONS = {
    "spaced": ev_spaced, "dashed": ev_dashed, "dotted": ev_dotted, "zero_width": ev_zero_width,
    "fullwidth": ev_fullwidth, "homoglyph": ev_homoglyph, "base64": ev_base64, "hex": ev_hex,
    "base32": ev_base32, "percent_encoded": ev_percent, "quoted_printable": ev_quoted_printable,
    "unicode_escape": ev_unicode_escape, "html_entities": ev_html_entities, "rot13": ev_rot13,
    "reversed": ev_reversed, "split_fields": ev_split_fields, "split_list": ev_split_list,
    "split_lines": ev_split_lines, "split_dict_keys": ev_split_dict_keys, "key_value_swap": ev_swap_key_value,
    "in_memory_key": ev_in_memory_key, "in_namespace": ev_in_namespace, "code_concat": ev_code_concat,
    "markdown_table": ev_markdown_table, "csv_row": ev_csv_row, "sql_insert": ev_sql_insert,
    "yaml_block_scalar": ev_yaml_block, "json_in_json": ev_json_in_json, "spelled_numbers": ev_spelled_numbers,
    "spelled_card": ev_spelled_card, "leet_keyword": ev_leet_keyword, "typo_keyword": ev_typo_keyword,
    "foreign_script_keyword": ev_foreign_keyword, "nato_phonetic": ev_nato, "char_codes": ev_char_codes,
    "hex_escapes": ev_hex_escapes, "soft_hyphen": ev_soft_hyphen, "unicode_punctuation": ev_unicode_punct,
    "html_comment": ev_html_comment, "xml_attribute": ev_xml_attr, "data_uri": ev_data_uri,
    "base64_env_file": ev_base64_env, "double_base64": ev_double_base64, "buried_in_long_note": ev_embedded_long,
    "deep_nesting": ev_deep_nesting, "emoji_separators": ev_emoji_sep, "rtl_override": ev_rtl_override,
    "combining_marks": ev_combining, "interleaved_junk": ev_interleave, "split_prose": ev_split_prose,
    "k8s_data_base64": ev_k8s_data_b64, "docker_auth_base64": ev_docker_auth, "morse": ev_morse,
    "url_fragment": ev_url_fragment, "spaced_keyword": ev_spaced_keyword, "caesar_shift": ev_caesar,
    "described_but_revealed": ev_described_fully, "pin_with_story": ev_pin_in_date,
    "reversed_card": ev_reversed_card, "list_items": ev_list_items,
}


def emit_evasions(per_technique: int = 3):
    for name, fn in EVASIONS.items():
        for _ in range(per_technique):
            out = fn()
            key = ns = None
            if isinstance(out, tuple):
                out, key, ns = out
            secret("evade_" + name, out, variant="hard", key=key, ns=ns)


# ---------------------------------------------------------------------------
# 5. benign ordinary memories (variant "plain")
# ---------------------------------------------------------------------------

MEDS = [("metformin", "500 mg", "twice daily with meals"), ("lisinopril", "10 mg", "every morning"),
        ("atorvastatin", "20 mg", "at bedtime"), ("levothyroxine", "75 mcg", "on an empty stomach, 30 min before breakfast"),
        ("sertraline", "50 mg", "once a day"), ("amlodipine", "5 mg", "once daily"), ("omeprazole", "20 mg", "before breakfast"),
        ("albuterol inhaler", "90 mcg, 2 puffs", "as needed for wheezing"), ("insulin glargine", "18 units", "at 10 pm"),
        ("apixaban", "5 mg", "twice a day"), ("methotrexate", "15 mg", "once weekly on Sundays, plus folic acid 1 mg daily"),
        ("gabapentin", "300 mg", "three times a day"), ("vitamin D3", "2000 IU", "daily"), ("ferrous sulfate", "325 mg", "every other day"),
        ("losartan", "50 mg", "every evening"), ("escitalopram", "10 mg", "in the morning"), ("montelukast", "10 mg", "at night"),
        ("warfarin", "5 mg", "Mon/Wed/Fri, 2.5 mg other days"), ("prednisone", "40 mg", "tapering by 5 mg every 3 days"),
        ("adalimumab", "40 mg", "injection every other week")]
DIAG = ["type 2 diabetes", "high blood pressure", "hypothyroidism", "asthma", "migraine with aura", "GERD",
        "atrial fibrillation", "rheumatoid arthritis", "celiac disease", "iron deficiency anemia", "generalized anxiety disorder",
        "obstructive sleep apnea", "PCOS", "psoriasis", "osteopenia", "ADHD", "endometriosis", "gout"]
DOCTORS = ["Dr. Okafor", "Dr. Lindqvist", "Dr. Ramanathan", "Dr. Moreau", "Dr. Haddad", "Dr. Chen", "Dr. Nowak", "Dr. Alvarez"]
RELS = ["my mom", "Dad", "my sister Leila", "my husband", "my wife", "our son Theo", "my daughter Ines", "Grandma Rose",
        "my brother-in-law", "Uncle Bashir"]

HEALTH_T = [
    "I was diagnosed with {diag} in {year}.",
    "Taking {med} {dose} {sched}.",
    "{rel} takes {med} {dose} {sched} - remind me to refill it on the 1st.",
    "Allergic to penicillin (hives). Also sulfa drugs make me nauseous.",
    "Severe peanut allergy - always carry two EpiPens.",
    "Latest labs: HbA1c {a1c}%, LDL {ldl} mg/dL, TSH {tsh} mIU/L.",
    "Cardiology follow-up with {doc} on {date} at {time}, room {room}.",
    "Blood pressure this morning 132/86, pulse 71.",
    "Ferritin came back at {ferr} ng/mL, {doc} wants to recheck in 8 weeks.",
    "INR was {inr} on Tuesday, warfarin dose unchanged.",
    "Physio twice a week for the left knee (ACL reconstruction, {year}).",
    "{rel} is lactose intolerant and can't have gluten either.",
    "Dentist: cleaning every 6 months, next one {date}.",
    "I get migraines when I skip meals or sleep less than 6 hours.",
    "Vitamin D was low ({vitd} ng/mL), started 2000 IU daily.",
    "eGFR {egfr}, creatinine 1.{cr} mg/dL - kidney function stable per {doc}.",
    "Fasting glucose {glu} mg/dL this week on average.",
    "Flu shot done {date}; COVID booster due in the autumn.",
    "My blood type is O negative.",
    "Therapy sessions on Thursdays at 17:30 with Maren, covered 80% by insurance.",
    "Started CPAP for sleep apnea, pressure set to 9 cmH2O.",
    "Colonoscopy prep starts the day before - clear liquids only after noon.",
    "Theo's pediatrician is {doc}, office opens at 8.",
    "Weight {wt} kg, goal is to lose 5 kg before the wedding.",
    "Ran out of {med}; pharmacy said the refill is ready after 3 pm.",
    "Hemoglobin 11.{hb} g/dL, mild anemia, more iron-rich food.",
    "Avoid ibuprofen because of the stomach ulcer in {year}.",
    "I wear contacts, -2.75 both eyes; glasses for night driving.",
    "Grandma's memory clinic appointment moved to {date}, bring the list of meds.",
    "PSA {psa} ng/mL, normal for my age according to {doc}.",
]


def fill_health(t: str) -> str:
    m = pick(MEDS)
    return t.format(diag=pick(DIAG), year=R.randint(2005, 2024), med=m[0], dose=m[1], sched=m[2], rel=pick(RELS),
                    a1c=round(R.uniform(5.4, 9.2), 1), ldl=R.randint(70, 190), tsh=round(R.uniform(0.6, 6.5), 1),
                    doc=pick(DOCTORS), date=date(2024, 2025), time=f"{R.randint(8, 16)}:{pick(['00', '15', '30', '45'])}",
                    room=pick(["3B", "214", "C-12", "5.07"]), ferr=R.randint(8, 300), inr=round(R.uniform(1.8, 3.4), 1),
                    vitd=R.randint(9, 28), egfr=R.randint(45, 110), cr=R.randint(0, 4), glu=R.randint(85, 160),
                    wt=R.randint(55, 110), hb=R.randint(0, 9), psa=round(R.uniform(0.4, 3.8), 1))


FAMILY_T = [
    "{rel}'s birthday is on {date}, she loves dark chocolate and gardening books.",
    "Kids' school starts at 8:15; Theo has swimming on Wednesdays.",
    "We're hosting Thanksgiving this year - 14 people, two vegetarians.",
    "My partner's name is Jonas, we've been together since 2016.",
    "Ines is allergic to cats, so no sleepovers at the Hendersons'.",
    "Dad prefers phone calls on Sunday mornings, not texts.",
    "Anniversary dinner at Trattoria Da Enzo, table for two, 19:30.",
    "Our dog Pepper needs her heartworm pill on the 1st of every month.",
    "Grandma Rose moved into the assisted living place on Elm Street in March.",
    "Leila is expecting her second baby in November.",
    "Theo wants a bike with gears for his 10th birthday.",
    "Mom's hearing aids need new batteries every 5-7 days (size 312).",
    "We agreed the kids get 1 hour of screen time on school days.",
    "Secret Santa at the family dinner: budget 25 euros.",
    "My husband is vegetarian but eats fish occasionally.",
]
WORK_T = [
    "I work as a nurse at St. Mary's, mostly night shifts on the cardiac ward.",
    "Quarterly planning is on {date}; I need to present the hiring plan.",
    "My manager is Farah; 1:1s are biweekly on Tuesdays at 10.",
    "I prefer meetings before noon and focus time in the afternoon.",
    "Promotion review in September - collect feedback from the Berlin team.",
    "The team uses Jira for tickets and Confluence for docs.",
    "Out of office {date} to {date2}, Ravi covers on-call.",
    "I'm learning Rust on weekends; halfway through the book.",
    "Conference talk accepted: 'Observability on a budget', 25 minutes.",
    "Standup is at 9:30 CET, keep updates under two minutes.",
    "Our team's OKR this quarter: cut p95 latency of the search API below 300 ms.",
    "Expense reports are due by the 5th of each month.",
    "I switched teams in May - now on the payments platform.",
    "Remember that Kenji is in Tokyo, 8 hours ahead of me.",
]
TRAVEL_T = [
    "Flying to Lisbon on {date}, window seat preferred, aisle on long-haul.",
    "Hotel in Kyoto is near Sanjo station, check-in after 15:00.",
    "I get motion sickness on boats - book ferries only if unavoidable.",
    "Passport renewal appointment at the consulate on {date}.",
    "Prefer trains over flights for anything under 5 hours.",
    "Summer trip idea: Dolomites hut-to-hut, mid-July.",
    "Need an adapter for UK plugs (type G) for the London trip.",
    "Rental car pickup at the airport desk, need my driver's licence and credit card.",
    "Travel insurance covers up to 60 days per trip.",
    "Layover in Doha is 3h20, enough time for lunch.",
]
FIN_T = [
    "Rent is 1,450 EUR, due on the 3rd.",
    "Saving 300 a month for the kids' education fund.",
    "Budget for groceries: about 120 per week.",
    "I want to pay off the car loan by December 2026.",
    "Switched electricity provider, new monthly estimate 78 EUR.",
    "Tax return deadline is July 31 this year; accountant needs receipts by June.",
    "Prefer index funds; no individual stocks.",
    "Split the holiday costs 50/50 with Leila.",
    "The credit card statement closes on the 22nd.",
    "Mortgage rate fixed at 3.4% until 2029.",
    "Annual gym membership renews in February, 420 EUR.",
]
PREF_T = [
    "I like my coffee black, no sugar.",
    "Please answer in short bullet points when I'm on mobile.",
    "Favourite authors: Ursula K. Le Guin, Kazuo Ishiguro, Chimamanda Ngozi Adichie.",
    "I'm vegetarian, but I eat eggs and dairy.",
    "Call me Sam, not Samantha.",
    "I'm left-handed.",
    "I prefer metric units and 24-hour time.",
    "Favourite running route: the river loop, about 7.5 km.",
    "Don't suggest recipes with coriander - tastes like soap to me.",
    "I'm training for a half marathon in October, target 1:55.",
    "Likes: jazz, board games, hiking. Dislikes: horror movies.",
    "I'm in the Europe/Berlin time zone.",
]
I18N_BENIGN = [
    "Termin beim Hausarzt am Dienstag um 8:30, nüchtern kommen wegen Blutabnahme.",
    "Ich nehme morgens 50 µg L-Thyroxin.",
    "Je suis allergique à la pénicilline et aux fruits à coque.",
    "Rendez-vous chez le dentiste le 14 mars à 10h.",
    "Mi madre toma 10 mg de enalapril cada mañana.",
    "Tengo diabetes tipo 2 desde 2019; la última hemoglobina glicada fue 6,9 %.",
    "Mio figlio ha la visita dal pediatra giovedì alle 16:00.",
    "Sono intollerante al lattosio.",
    "Minha consulta com o cardiologista é dia 22 às 14h.",
    "Tomo 20 mg de omeprazol antes do café da manhã.",
    "Afspraak bij de fysiotherapeut elke maandag om 9 uur.",
    "Mam ciśnienie 135/85, lekarz kazał mierzyć codziennie rano.",
    "Jag är allergisk mot nötter.",
    "Во вторник анализ крови натощак, в 8:00.",
    "Мама принимает метформин 500 мг два раза в день.",
    "明日の10時に歯医者の予約があります。",
    "私は卵アレルギーです。",
    "我对青霉素过敏。",
    "下周三下午三点带孩子去打疫苗。",
    "다음 주 화요일 오후 2시에 정기 검진이 있어요.",
    "Salı günü saat 11'de göz doktoru randevum var.",
    "لدي موعد مع طبيب الأسنان يوم الخميس الساعة الرابعة.",
    "मुझे हर सुबह थायरॉइड की दवा लेनी होती है।",
    "Saya alergi udang.",
    "Tôi bị dị ứng với tôm.",
    "Mám alergii na pyl, v květnu beru antihistaminika.",
    "Έχω ραντεβού με τον παθολόγο την Παρασκευή στις 12.",
    "יש לי תור לרופאת המשפחה ביום ראשון ב-9:00.",
    "Minulla on keliakia, joten syön gluteenitonta.",
    "Mama are diabet și ia insulină seara.",
    "Meine Tochter hat am Samstag Geburtstag, sie wird sieben.",
    "On part en vacances en Bretagne du 3 au 17 août.",
    "El alquiler sube a 950 euros en enero.",
    "Lavoro da casa il lunedì e il venerdì.",
]


def emit_benign_plain():
    for t in HEALTH_T:
        benign("health", fill_health(t), hint="health", ns=make_ns("health"))
    for t in [t for t in HEALTH_T if "{" in t]:   # second pass, only templates that vary
        benign("health", fill_health(t), hint="health", ns=make_ns("health"))
    for t in FAMILY_T:
        benign("family", t.format(rel=pick(RELS), date=date(2024, 2025)), hint="family")
    for t in WORK_T:
        benign("work", t.format(date=date(2024, 2025), date2=date(2025, 2025)), hint="work")
    for t in TRAVEL_T:
        benign("travel", t.format(date=date(2024, 2025)), hint="travel")
    for t in FIN_T:
        benign("finance", t, hint="finance")
    for t in PREF_T:
        benign("preference", t, hint="pref")
    for t in I18N_BENIGN:
        benign("multilingual", t)
    # structured health/personal records
    for m in MEDS[:12]:
        benign("health_record", {"type": "medication", "name": m[0], "dose": m[1], "schedule": m[2],
                                 "prescriber": pick(DOCTORS), "started": date(2020, 2024)}, ns=make_ns("health"))
    labs = [("HbA1c", 5.2, 9.5, "%", 5.7), ("LDL cholesterol", 60, 190, "mg/dL", 130), ("TSH", 0.3, 7.5, "mIU/L", 4.5),
            ("Ferritin", 8, 320, "ng/mL", 300), ("Vitamin D", 9, 60, "ng/mL", 999), ("Creatinine", 0.6, 1.8, "mg/dL", 1.3),
            ("Potassium", 3.3, 5.4, "mmol/L", 5.1), ("Hemoglobin", 10.1, 16.5, "g/dL", 17.5)]
    for test, lo, hi, unit, upper in labs:
        val = round(R.uniform(lo, hi), 1)
        benign("health_record", {"type": "lab_result", "test": test, "value": val, "unit": unit,
                                 "date": date(2024, 2025), "flag": "high" if val > upper else "normal"}, ns=make_ns("health"))
    for d in DIAG[:8]:
        benign("health_record", {"condition": d, "since": R.randint(2008, 2024), "managed_by": pick(DOCTORS),
                                 "notes": pick(["stable", "flare-ups in winter", "review yearly", "diet controlled"])}, ns=make_ns("health"))
    benign("health_record", {"allergies": [{"substance": "penicillin", "reaction": "hives"},
                                           {"substance": "latex", "reaction": "contact dermatitis"}]})
    benign("health_record", {"appointments": [{"with": pick(DOCTORS), "when": f"{date(2025, 2025)}T09:40", "where": "Room 3B"},
                                              {"with": "physio", "when": f"{date(2025, 2025)}T17:00"}]})
    benign("health_record", "date,systolic,diastolic,pulse\n" + "\n".join(
        f"2025-03-{d:02d},{R.randint(118, 142)},{R.randint(72, 92)},{R.randint(58, 84)}" for d in range(1, 8)))
    benign("health_record", "Glucose log (mg/dL):\n- Mon 112 / 148\n- Tue 105 / 161\n- Wed 98 / 139\n- Thu 120 / 155")
    benign("contact", {"name": "Dr. Amara Okafor", "role": "cardiologist", "clinic": "Riverside Heart Center", "phone": "+1 415 555 0132"})
    benign("event", {"title": "Parent-teacher meeting", "date": date(2025, 2025), "time": "18:00", "location": "Room 12"})
    benign("todo", ["renew car insurance", "book vet for Pepper", "call Grandma", "buy birthday gift for Leila"])
    benign("trip", {"destination": "Porto", "depart": date(2025, 2025), "nights": 4, "travelers": 2, "budget_eur": 900})
    benign("work", {"project": "search relaunch", "role": "tech lead", "deadline": date(2025, 2025), "stakeholders": ["Farah", "Ravi"]})


# ---------------------------------------------------------------------------
# 6. benign look-alikes (variant "hard")
# ---------------------------------------------------------------------------

def hard(kind, value, **kw):
    benign(kind, value, variant="hard", **kw)


def emit_lookalike_ids():
    # git SHAs
    hard("git_sha", f"Deployed {hx(40)} to production at 14:02, rollback target is {hx(7)}.")
    hard("git_sha", f"bisect says the regression came in with commit {hx(40)}")
    hard("git_sha", {"repo": "acme/api", "commit": hx(40), "branch": "main", "ci": "passed"})
    hard("git_sha", f"git cherry-pick {hx(7)} {hx(7)} onto release/2.3")
    hard("git_sha", f"commit {hx(40)}\nAuthor: Lena Berg <lena@acme.io>\nDate:   Tue Mar 4 10:12:55 2025 +0100\n\n    Fix timezone bug in reminders")
    hard("git_sha", f"pinned the action to actions/checkout@{hx(40)} # v4.1.7")
    # checksums and digests
    hard("checksum", f"{hx(64)}  ubuntu-24.04.1-desktop-amd64.iso")
    hard("checksum", f"md5 of the scan I sent the clinic: {hx(32)}")
    hard("checksum", {"file": "backup-2025-02.tar.zst", "sha256": hx(64), "size_bytes": R.randint(10 ** 8, 10 ** 10)})
    hard("checksum", f"SHA-1 of the firmware: {hx(40).upper()} - matches the vendor page")
    hard("checksum", f"sha512: {hx(128)}")
    hard("checksum", f'<script src="https://cdn.jsdelivr.net/npm/chart.js@4.4.1" integrity="sha384-{b64(rbytes(48))}" crossorigin="anonymous"></script>')
    hard("checksum", f"Server cert SHA-256 fingerprint: {':'.join(hx(2).upper() for _ in range(32))}")
    hard("docker_digest", f"image: postgres@sha256:{hx(64)}")
    hard("docker_digest", f"16: Pulling from library/postgres\nDigest: sha256:{hx(64)}\nStatus: Downloaded newer image for postgres:16")
    hard("docker_digest", {"image": "ghcr.io/acme/worker", "tag": "1.8.2", "digest": f"sha256:{hx(64)}"})
    # uuids / ulids / request ids
    hard("uuid", f"Order confirmation id {uuid4()} - keep for returns.")
    hard("uuid", {"device_id": uuid4(), "model": "Dexcom G7", "paired": date(2024, 2025)})
    hard("uuid", f"Support ticket {uuid4()} opened about the double charge.")
    hard("uuid", f"Apple Health export: {uuid4()}.zip")
    hard("uuid", {"patient_uuid": uuid4(), "record": "immunization history"})
    hard("ulid", f"event id {ulid()}")
    hard("ulid", {"id": ulid(), "type": "reminder", "text": "water the plants"})
    hard("ulid", f"Job {ulid()} finished in 42s")
    hard("trace_id", f"traceparent: 00-{hx(32)}-{hx(16)}-01")
    hard("trace_id", f"X-Amzn-Trace-Id: Root=1-{hx(8)}-{hx(24)}")
    hard("trace_id", f"Cloudflare Ray ID: {hx(16)}-FRA (page showed error 522)")
    hard("trace_id", f"x-request-id: {uuid4()}")
    hard("trace_id", f"Sentry event {hx(32)} - NullPointerException in CheckoutService")
    hard("trace_id", f"Stripe request id req_{rs(14)} returned 402 card_declined")
    # public identifiers that look random
    hard("public_id", f"Stripe customer cus_{rs(14)}, price price_1{rs(23)}")
    hard("public_id", f"Slack channel id C0{rs(8, UPPER + DIGITS)} is #family-logistics")
    hard("public_id", f"my Discord user id is {digits_no_luhn(18)}")
    hard("public_id", f"arn:aws:iam::{dg(12)}:role/github-actions-deploy")
    hard("public_id", {"aws_account_id": dg(12), "region": "eu-central-1", "alias": "acme-prod"})
    hard("public_id", f"Notion page https://www.notion.so/Trip-planning-{hx(32)}")
    hard("public_id", f"Google Analytics property G-{rs(10, UPPER + DIGITS)}")
    hard("public_id", f"Twilio phone number +1 415 555 0199, messaging service MG{hx(32)}")


def emit_lookalike_keys_wallets():
    _priv, pub = openssh_ed25519(f"{username()}@laptop")
    hard("public_key", f"add this to authorized_keys on the NAS:\n{pub}")
    hard("public_key", ssh_rsa_public("backup@homeserver"))
    hard("public_key", rsa_public_pem())
    hard("public_key", {"service": "webhook verification", "public_key": ec_public_pem()})
    hard("public_key", f"SSH host key fingerprint: SHA256:{b64(rbytes(32)).rstrip('=')} (ED25519)")
    hard("certificate", certificate_pem())
    hard("certificate", f"root CA for the office VPN:\n{certificate_pem()}")
    hard("public_key", pgp_block(False))
    hard("public_key", f"My GPG key fingerprint: {' '.join(hx(4).upper() for _ in range(10))}")
    hard("public_key", f"age recipient for the backups: {age_public_key()}")
    hard("public_key", f"[Peer]\nPublicKey = {wg_key()}\nEndpoint = vpn.example-home.net:51820\nAllowedIPs = 10.8.0.0/24")
    hard("public_key", {"kty": "EC", "crv": "P-256", "x": b64u(rbytes(32)), "y": b64u(rbytes(32)), "use": "sig", "kid": hx(16)})
    hard("public_key", {"keys": [{"kty": "RSA", "e": "AQAB", "n": b64u(_big(256)), "alg": "RS256", "kid": hx(12)}]})
    hard("wallet_address", f"BTC donation address: {btc_bech32_address()}")
    hard("wallet_address", f"send the rent share to {btc_legacy_address()} (legacy wallet)")
    hard("wallet_address", f"My ETH address is {eth_address()}")
    hard("wallet_address", {"chain": "solana", "address": b58encode(rbytes(32)), "label": "Phantom"})
    hard("wallet_address", f"ENS: lena.eth -> {eth_address()}")
    hard("tx_hash", f"tx hash 0x{hx(64)} - confirmed after 12 blocks")
    hard("tx_hash", f"https://etherscan.io/tx/0x{hx(64)}")
    hard("tx_hash", f"bitcoin txid {hx(64)}, fee 14 sat/vB")


def emit_lookalike_refs():
    hard("tracking_number", f"UPS tracking 1Z{rs(6, UPPER + DIGITS)}{rs(2, DIGITS)}{rs(8, DIGITS)}")
    hard("tracking_number", f"FedEx: {dg(12)}, arriving Thursday")
    hard("tracking_number", f"USPS tracking 9400 {rs(4, DIGITS)} {rs(4, DIGITS)} {rs(4, DIGITS)} {rs(4, DIGITS)} {rs(2, DIGITS)}")
    hard("tracking_number", f"DHL Sendungsnummer {dg(10)}")
    hard("tracking_number", f"Royal Mail {rs(2, UPPER)}{rs(9, DIGITS)}GB - signed for")
    hard("tracking_number", {"carrier": "PostNL", "code": f"3S{rs(4, UPPER)}{rs(9, DIGITS)}", "status": "in transit"})
    o = luhn_break(dg(17))
    hard("order_ref", f"Amazon order {o[:3]}-{o[3:10]}-{o[10:]} (the blender)")
    hard("order_ref", f"Flight booking reference {rs(6, UPPER + DIGITS)}, TAP Air Portugal")
    hard("order_ref", f"Hotel confirmation #{dg(9)}, Hotel Adlon, 2 nights")
    hard("order_ref", f"Airbnb reservation code HM{rs(8, UPPER + DIGITS)}")
    hard("order_ref", {"shop": "IKEA", "order_number": dg(10), "pickup": date(2025, 2025)})
    hard("order_ref", f"eBay order {rs(2, DIGITS)}-{rs(5, DIGITS)}-{rs(5, DIGITS)}")
    hard("order_ref", f"DB Auftragsnummer {dg(12)} (ICE Berlin-München)")
    hard("invoice_number", f"Invoice INV-2024-{R.randint(100, 999):05d} paid on {date(2024, 2024)}")
    hard("invoice_number", f"Rechnungsnummer RE-2025-{R.randint(1000, 9999)}, Betrag 149,00 EUR")
    hard("invoice_number", {"invoice": f"F2024/{R.randint(100, 999):04d}", "amount": 89.5, "currency": "EUR"})
    hard("isbn", f"Book club pick: ISBN {isbn13()}")
    hard("isbn", {"title": "The Left Hand of Darkness", "isbn13": isbn13()})
    hard("issn", f"Journal ISSN {issn()}")
    hard("doi", f"Paper about the new diabetes drug: https://doi.org/10.1056/NEJMoa{dg(7)}")
    hard("doi", f"doi:10.1038/s41586-0{R.randint(20, 25)}-{dg(5)}-{rs(1, DIGITS)}")
    hard("mrn", f"MRN {dg(8)} at St. Mary's - give it when calling radiology")
    hard("mrn", {"hospital": "Charité", "patient_id": f"E{dg(7)}", "ward": "Station 5"})
    hard("mrn", f"NHS number {rs(3, DIGITS)} {rs(3, DIGITS)} {rs(4, DIGITS)}")
    hard("mrn", f"Kaiser medical record number {dg(9)}")
    hard("insurance_id", f"Aetna member ID W{dg(9)}, group {dg(7)}")
    hard("insurance_id", f"Versichertennummer {pick(UPPER)}{dg(9)} (TK)")
    hard("insurance_id", {"member_id": f"XEH{dg(9)}", "group": dg(5), "rx_bin": "610014", "rx_pcn": "MEDDPRIME"})
    hard("insurance_id", f"Policy number POL-{dg(5)}-{rs(2, DIGITS)}, renews {date(2025, 2025)}")
    hard("lab_accession", f"Lab accession number S{R.randint(23, 25)}-{dg(5)}")
    hard("lab_accession", {"specimen_id": f"{R.randint(24, 25)}-{R.randint(100, 365)}-{rs(4, DIGITS)}", "test": "CBC with diff"})
    hard("lab_accession", f"Quest requisition {dg(8)}, fasting draw")


def emit_lookalike_personal():
    hard("contact_info", f"My email is {_person_email()} and my mobile is +49 151 {rs(8, DIGITS)}")
    hard("contact_info", {"name": "Priya Raman", "phone": f"+1 (617) 555-{rs(4, DIGITS)}", "email": "priya.raman@example.org"})
    hard("contact_info", "Home address: Lindenstraße 14, 10969 Berlin, 3rd floor, ring 'Berg/Kowalski'")
    hard("contact_info", "Mom: 22 Rue des Lilas, 69003 Lyon - tel 04 78 12 34 56")
    hard("contact_info", "Office: 1600 Amphitheatre Pkwy, Mountain View, CA 94043")
    hard("contact_info", f"Pharmacy fax: +1 212 555 {rs(4, DIGITS)}, phone ext. {rs(4, DIGITS)}")
    hard("contact_info", "BEGIN:VCARD\nVERSION:3.0\nFN:Jonas Keller\nTEL;TYPE=cell:+41 79 555 12 34\nEMAIL:jonas.keller@example.ch\nEND:VCARD")
    hard("contact_info", "Kenji's LINE id is kenji_t88; WhatsApp same number as before.")
    hard("network", f"NAS is at 192.168.1.{R.randint(2, 250)}, MAC {':'.join(hx(2).upper() for _ in range(6))}")
    hard("network", f"IPv6 of the home server: 2001:db8:{hx(4)}:{hx(4)}::{hx(3)}")
    hard("network", f"office VPN egress IP 203.0.113.{R.randint(2, 250)}, allowlisted on the vendor side")
    hard("network", {"pihole": "10.0.0.53", "router": "10.0.0.1", "dhcp_range": "10.0.0.100-10.0.0.200", "subnet": "10.0.0.0/24"})
    hard("network", f"Wi-Fi network at the cottage is called '{pick(SSIDS)}' (the password is on the fridge)")
    hard("network", f"Bluetooth address of the hearing aid: {':'.join(hx(2).upper() for _ in range(6))}")
    hard("iban_only", f"Landlord's IBAN for the rent: {iban_fmt(random_iban())}")
    hard("iban_only", {"payee": "Sportverein Grün-Weiß", "iban": random_iban(), "reference": "Mitgliedsbeitrag 2025"})
    hard("iban_only", f"To receive the refund, my IBAN is {random_iban()} (BIC INGDDEFFXXX)")
    hard("card_last4", f"Paid with the Visa ending in {rs(4, DIGITS)}")
    hard("card_last4", {"card": f"Mastercard •••• {rs(4, DIGITS)}", "expires": expiry(), "use_for": "subscriptions"})
    hard("card_last4", f"Amex xxxx-xxxxxx-x{rs(4, DIGITS)} was charged twice by the airline")
    hard("imei", f"Phone IMEI {imei()} - needed for the insurance claim")
    hard("imei", {"device": "Pixel 8", "imei": imei(), "serial": rs(12, UPPER + DIGITS)})
    hard("family_fact", "Mum's maiden name is Kowalski; her family came from Gdańsk.")
    hard("family_fact", "Our first dog was a beagle called Rufus, he lived to 15.")
    hard("family_fact", "I grew up on Calle Mayor in Zaragoza and went to the Colegio San Agustín.")
    hard("license_plate", "Car: blue Skoda Octavia, plate B-KL 4821")
    hard("license_plate", {"vehicle": "Toyota Yaris", "plate": "AB12 CDE", "mot_due": date(2025, 2025)})
    hard("flight", f"Flight LH{R.randint(100, 1999)} departs 07:35 from Terminal 1, gate B{R.randint(10, 60)}")
    hard("flight", f"Return on BA{R.randint(100, 999)}, seat 23A, booking class Y")
    hard("flight", {"flight": f"EK{R.randint(1, 999)}", "from": "DXB", "to": "MUC", "date": date(2025, 2025)})


def emit_lookalike_placeholders():
    hard("placeholder", "OPENAI_API_KEY=<your-api-key>\nANTHROPIC_API_KEY=<your-api-key>")
    hard("placeholder", "set the key like sk-...xxxx in the settings page, not in code")
    hard("placeholder", "password: ********")
    hard("placeholder", "DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@${DB_HOST}:5432/${DB_NAME}")
    hard("placeholder", "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  SLACK_WEBHOOK: ${{ secrets.SLACK_WEBHOOK_URL }}")
    hard("placeholder", "curl -H 'Authorization: Bearer <token>' https://api.example.com/v1/me")
    hard("placeholder", 'api_key = "YOUR_API_KEY_HERE"  # replace before running')
    hard("placeholder", "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
    hard("placeholder", "AWS_SECRET_ACCESS_KEY=REPLACE_ME")
    hard("placeholder", {"stripe_key": "{{ STRIPE_SECRET_KEY }}", "db_password": "%(DB_PASS)s", "token": "$TOKEN"})
    hard("placeholder", "const key = process.env.OPENAI_API_KEY; // never hardcode it")
    hard("placeholder", "password = os.environ['MAIL_PASSWORD']")
    hard("placeholder", "-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n(paste your key here)")
    hard("redacted", "password: [REDACTED]")
    hard("redacted", f"The Anthropic key ending in ...{rs(4)} was rotated on {date(2025, 2025)}")
    hard("redacted", "wifi key: •••••••••••")
    hard("redacted", "token=***  (masked in logs)")
    hard("redacted", "AKIA**************** (access key id masked by the console)")
    hard("redacted", {"card": "**** **** **** 1881", "cvv": "***", "pin": "****"})
    hard("redacted", "Authorization: Bearer [filtered]")
    hard("redacted", "xoxb-****-****-**** (Slack shows only this)")
    hard("env_var_name", "Set OPENAI_API_KEY and ANTHROPIC_API_KEY in your shell profile before running the notebook.")
    hard("env_var_name", "The .env needs STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and DATABASE_URL - values are in 1Password.")
    hard("env_var_name", ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_REGION"])
    hard("env_var_name", {"required_env": ["GITHUB_TOKEN", "NPM_TOKEN", "SENTRY_AUTH_TOKEN"], "optional_env": ["LOG_LEVEL"]})
    hard("env_var_name", "unset HF_TOKEN before sharing the screen")
    hard("env_var_name", "Heads up: the CI job fails if SLACK_BOT_TOKEN is missing.")
    hard("doc_example", "AWS docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    hard("doc_example", "jwt.io sample token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
    hard("doc_example", "connection string format: postgresql://USER:PASSWORD@HOST:PORT/DBNAME")
    hard("doc_example", "Slack's docs show webhooks as https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX")
    hard("doc_example", "Stripe test card: 4242 4242 4242 4242, any future date, any CVC")
    hard("doc_example", "Generic Visa test number from the payment gateway docs: 4111 1111 1111 1111")
    hard("doc_example", "mongodb://<username>:<password>@cluster0.example.mongodb.net/")
    hard("publishable_key", f"Stripe publishable key for the checkout page (public by design): pk_live_51{rs(60)}")
    hard("publishable_key", f"mapbox public token for the web map: pk.{b64u(json.dumps({'u': 'acme-maps', 'a': 'cl' + rs(23, LOWER + DIGITS)}, separators=(',', ':')).encode())}.{rs(22, B64U)}")
    hard("publishable_key", {"algolia_app_id": rs(10, UPPER + DIGITS), "algolia_search_only_key": hx(32), "note": "search-only key, safe in the browser"})


TALK = [
    "I need to reset my bank PIN next week - the old card expires.",
    "Set up 2FA with an authenticator app on Thursday, remember to print the backup codes and put them in the safe.",
    "My password manager is Bitwarden; the family vault is shared with Jonas.",
    "The IT department forces a password change every 90 days.",
    "Forgot my Netflix password again, used the reset link.",
    "Don't ever store my passwords here, I use a password manager for that.",
    "Mom wants help creating a strong password for her new email account.",
    "The new building uses a keypad - the code comes by SMS every month.",
    "Get a new SIM card PIN letter from the carrier, the old one got lost.",
    "We should rotate the API keys after the contractor leaves.",
    "Bank says they will never ask for my PIN over the phone.",
    "Enable passkeys on the Google account instead of SMS codes.",
    "Remind me to change the default router password when the technician leaves.",
    "Ich muss meine PIN für die neue Kreditkarte noch ändern.",
    "Il faut que je change mon mot de passe Ameli, il a expiré.",
    "Tengo que activar la verificación en dos pasos en el banco.",
    "Hasło do banku zmieniam co trzy miesiące.",
    "パスワードを忘れたので再設定しました。",
    "The SSH key on the old laptop should be revoked from GitHub.",
    "Private key for the blog TLS cert is managed by Caddy automatically.",
]
HINTS = [
    "Password hint: the usual one with 2024 at the end.",
    "It's the same password as the Netflix one.",
    "The wifi password is on the sticker under the router.",
    "PIN is Grandpa's birth year.",
    "Hint for the laptop: favourite band + street number.",
    "The code for the bike lock is written inside my wallet.",
    "Door code: Leila knows it, ask her.",
    "Password for the school portal is in the blue notebook, page 3.",
    "Safe combination is in the envelope at the lawyer's office.",
    "The alarm code is the same as last year, just ask Dad.",
    "Hint: first pet + year we moved to Berlin, with a ! at the end.",
    "Das Passwort steht auf dem Zettel im Küchenschrank.",
]


def emit_lookalike_talk():
    for t in TALK:
        hard("password_talk", t)
    for t in HINTS:
        hard("password_hint", t)
    hard("password_policy", "Password rules at work: min 14 characters, no reuse of the last 12, MFA required.")
    hard("password_policy", {"password_changed_at": date(2024, 2025), "password_expires_in_days": 90, "mfa_enabled": True})
    hard("password_policy", "Changed the email password on 2025-02-11 after the phishing attempt.")
    hard("safe_command", "ssh -i ~/.ssh/id_ed25519 deploy@203.0.113.10")
    hard("safe_command", "docker login ghcr.io -u lena-berg --password-stdin < ~/.ghcr_token")
    hard("safe_command", "psql -h db.internal -U reporting -W warehouse   # prompts for the password")
    hard("safe_command", "gh auth login --web")
    hard("safe_command", "aws sso login --profile prod && aws s3 ls")
    hard("safe_command", "export OPENAI_API_KEY=$(op read 'op://Private/OpenAI/credential')")


def emit_lookalike_fields():
    recs = [
        {"password_changed_at": f"{date(2024, 2025)}T08:12:00Z", "user": "lena"},
        {"token_count": R.randint(100, 9000), "model": "gpt-4o", "cost_usd": round(R.uniform(0.01, 2.0), 3)},
        {"pin_attempts": 2, "card_locked": False},
        {"secret_santa": "Aunt Rita", "budget": 25},
        {"key_findings": ["LDL improved by 18%", "blood pressure stable", "continue current dose"]},
        {"api_key_rotated": True, "rotated_on": date(2025, 2025)},
        {"private_key_path": "~/.ssh/id_ed25519", "public_key_path": "~/.ssh/id_ed25519.pub"},
        {"auth_method": "oauth", "session_timeout_minutes": 30},
        {"credentials_location": "blue folder, top drawer"},
        {"secret_ingredient": "smoked paprika", "dish": "lentil soup"},
        {"passcode_required": False, "face_id": True},
        {"max_tokens": 4096, "temperature": 0.2},
        {"keystore": "/etc/ssl/keystore.jks", "truststore": "/etc/ssl/truststore.jks"},
        {"password_strength": "strong", "breached": False},
        {"key": "C minor", "tempo_bpm": 92, "song": "practice piece"},
        {"token": "bus pass", "zones": "A-B", "valid_until": date(2025, 2025)},
        {"secret": False, "visibility": "family"},
        {"pin": "pinned", "note": "keep this reminder at the top"},
        {"passport_photo": "done", "key_dates": ["2025-04-02", "2025-05-10"]},
        {"key_ring": ["front door", "mailbox", "bike"], "spare_keys_with": "neighbour Mrs. Alvarez"},
    ]
    for r in recs:
        hard("secretish_field_name", r)


def emit_lookalike_misc():
    hard("version", f"Upgraded to Python 3.12.{R.randint(1, 8)} and Django 5.1.{R.randint(1, 5)}")
    hard("version", f"App version v2.{R.randint(10, 40)}.{R.randint(0, 9)}-rc.1+build.{R.randint(100, 999)}")
    hard("version", {"ios": "17.5.1", "app": "4.12.0 (4120)", "firmware": "FW-3.2.7b"})
    hard("version", f"kernel 6.8.0-{R.randint(30, 60)}-generic, nvidia driver 550.{R.randint(10, 99)}.{R.randint(1, 9)}")
    hard("hex_colour", "Brand colours: #1E90FF primary, #FF6F61 accent, #2D2D2D text")
    hard("hex_colour", {"theme": "dark", "background": "#121212", "surface": "#1f1b24", "primary": "#bb86fc"})
    hard("hex_colour", "Paint for the kids' room: 0xF4E1C1 (sandstone)")
    hard("coordinates", "Parking spot at the trailhead: 47.2692, 11.4041")
    hard("coordinates", {"place": "Grandma's house", "lat": 52.520008, "lon": 13.404954})
    hard("coordinates", "Geocache GC8X2QK at N 48° 08.123 E 011° 34.567")
    hard("serial_number", f"MacBook serial {rs(12, UPPER + DIGITS)}, AppleCare until {date(2026, 2026)}")
    hard("serial_number", f"Boiler serial no. {rs(2, UPPER)}{dg(10)} - service due in October")
    hard("serial_number", {"device": "CPAP ResMed AirSense 11", "serial": dg(11), "warranty_until": date(2026, 2027)})
    hard("serial_number", f"Windows product ID {rs(5, DIGITS)}-{rs(5, DIGITS)}-{rs(5, DIGITS)}-{rs(5, UPPER)}")
    hard("product_code", f"Printer ink: HP 305XL, SKU {rs(6, UPPER + DIGITS)}")
    hard("product_code", "IKEA KALLAX 802.758.87, white, 77x147 cm")
    hard("product_code", {"item": "running shoes", "model": "GEL-Nimbus 26", "style_code": "1011B794-400", "size": "44.5"})
    hard("media_id", f"Song for the wedding: https://www.youtube.com/watch?v={rs(11, B64U)}")
    hard("media_id", f"https://youtu.be/{rs(11, B64U)}?t=42 - the knee exercise video from physio")
    hard("media_id", f"Playlist https://open.spotify.com/playlist/{rs(22)}")
    hard("media_id", {"spotify_track": f"spotify:track:{rs(22)}", "title": "Clair de Lune"})
    hard("media_id", f"Shared folder https://drive.google.com/drive/folders/1{rs(32, B64U)}")
    hard("media_id", f"Recipe doc https://docs.google.com/document/d/1{rs(43, B64U)}/edit")
    hard("media_id", f"short link to the form: https://bit.ly/{rs(7)}")
    hard("media_id", f"https://forms.gle/{rs(17)}")
    hard("medical_code", "Diagnosis codes on the claim: E11.9 (type 2 diabetes), I10 (hypertension)")
    hard("medical_code", {"loinc": "4548-4", "name": "Hemoglobin A1c", "value": 6.8, "unit": "%"})
    hard("medical_code", "NDC 0002-8215-01 - insulin lispro pen")
    hard("medical_code", "CPT 99213 office visit, CPT 80053 metabolic panel")
    hard("medical_code", {"snomed": "73211009", "display": "Diabetes mellitus", "rxnorm": "860975"})
    hard("medical_code", "ICD-10 M54.5 low back pain; referral code REF-ORTHO-2291")
    hard("recipe", "Sourdough: 500 g flour, 350 g water, 100 g starter, 10 g salt; bake 230°C 20 min lid on, 25 min off.")
    hard("recipe", {"dish": "banana bread", "oven_c": 175, "minutes": 55, "ingredients": {"bananas": 3, "flour_g": 250, "sugar_g": 120}})
    hard("workout", "Leg day: squat 5x5 @ 80 kg, RDL 3x8 @ 60 kg, lunges 3x12.")
    hard("workout", "Intervals: 6 x 800 m at 3:55/km with 400 m jog, HR zone 4.")
    hard("workout", {"date": date(2025, 2025), "distance_km": 10.2, "time": "54:31", "avg_hr": 152, "vo2max": 48})
    hard("datetime", f"Meeting moved to {date(2025, 2025)}T15:30:00+01:00")
    hard("datetime", f"Unix timestamp of the outage start: {R.randint(1700000000, 1760000000)}")
    hard("datetime", "Opening hours: Mon-Fri 08:00-18:30, Sat 09:00-13:00")
    hard("pinlike_number", f"Room number {R.randint(1000, 4999)} on the 4th floor")
    hard("pinlike_number", f"Bus {R.randint(100, 299)} to the hospital, stop number {R.randint(1000, 9999)}")
    hard("pinlike_number", f"Zip code {R.randint(10000, 99999)}; apartment {R.randint(1, 60)}B")
    hard("pinlike_number", f"Locker number {R.randint(100, 999)} at the pool (bring a 1 euro coin)")
    hard("word_list", "Shopping list: apple banana bread butter cabbage carrot cherry coffee lemon salmon tomato")
    hard("word_list", "Spelling words for Theo this week: anchor, ancient, answer, arrive, attitude, autumn, balance, bridge, brother, castle, kitchen, window")
    hard("word_list", "Kids' animal quiz answers: dolphin, eagle, panda, zebra, rabbit, lobster, monkey, donkey, buffalo, chicken, salmon, bird")
    hard("encoded_harmless", f"thumbnail: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9h{b64(rbytes(90))}")
    hard("encoded_harmless", f"Book club spoiler (rot13): {codecs.encode('the butler did it, and the dog knew all along', 'rot13')}")
    hard("encoded_harmless", f"base64 of the poem line I like: {b64s('Do not go gentle into that good night')}")
    hard("encoded_harmless", f"hex of our wedding date string: {b'2019-06-22'.hex()}")
    hard("encoded_harmless", "My username backwards is 'greb.anel' - silly joke with Jonas.")
    hard("health_numbers", "BP 128/82, HR 64, SpO2 97%, temp 36.8 °C")
    hard("health_numbers", "Insulin pump basal rates: 00:00 0.85 U/h, 06:00 1.05 U/h, 12:00 0.90 U/h; ICR 1:10, ISF 45")
    hard("health_numbers", "Cholesterol panel: total 212, HDL 48, LDL 141, triglycerides 116")
    hard("health_numbers", {"inr_history": [2.1, 2.6, 3.1, 2.4], "target": "2.0-3.0", "dose_mg": [5, 5, 2.5, 5]})
    hard("health_numbers", "Eye prescription: OD -2.75 -0.50 x 180, OS -2.50 -0.25 x 175, PD 63")
    hard("health_numbers", "Baby weight log: 3420 g at birth, 3910 g at 3 weeks, 4580 g at 6 weeks")
    hard("health_numbers", "Covid test lot number 2304178, expiry 2025-10; result negative")
    hard("health_numbers", "Dexcom G6 sensor code 5917 (the calibration code printed on the applicator)")


LONG_NOTES = [
    "Visit summary, Dr. Moreau, 12 March:\n- BP 138/88, weight down 2 kg\n- HbA1c 7.4% (was 7.9%)\n- increase metformin to 1000 mg twice daily\n- foot exam normal, eye screening due in May\n- next visit in 3 months",
    "| medication | dose | when |\n|---|---|---|\n| levothyroxine | 75 mcg | 6:30, empty stomach |\n| vitamin D | 2000 IU | breakfast |\n| magnesium | 250 mg | bedtime |",
    "Meal plan this week: Mon lentil soup, Tue salmon + rice, Wed leftovers, Thu veggie curry, Fri pizza night, Sat grill at Leila's, Sun roast chicken.",
    "Packing list for the Lisbon trip:\n- passport and EHIC card\n- inhaler + spacer\n- chargers, UK/EU adapter\n- swimsuit, sunscreen SPF 50\n- printed hotel confirmation",
    "Hi Mr. Adeyemi,\n\nthe kitchen tap has been leaking since Sunday. Could the plumber come on Thursday after 16:00? I'm home all afternoon.\n\nThanks,\nSam (flat 3B)",
    "User: remind me what the physio said about my shoulder\nAssistant: She recommended the band exercises 3x a week and ice after the sessions.\nUser: right, and no overhead presses until June.",
    "date,activity,minutes,avg_hr\n2025-04-01,run,42,151\n2025-04-03,swim,35,132\n2025-04-05,bike,80,128\n2025-04-06,yoga,30,95",
    {"kids_schedule": {"Theo": {"mon": "swimming 17:00", "wed": "piano 16:30"}, "Ines": {"tue": "football 17:30", "fri": "art club 15:00"}}},
    "Grandma's care plan: carer visits 8:00 and 19:00, meals on wheels at noon, physio on Tuesdays, GP review every 3 months. Emergency contact: Leila.",
    "Notes from the pregnancy scan at 20 weeks: everything looks normal, placenta anterior, next midwife appointment on 3 June at 10:20.",
    "My daily routine: wake 6:30, run 3x a week, work 8:30-17:00, dinner at 19:00, screens off at 22:00, sleep by 23:00.",
    "Asthma action plan: green zone - 2 puffs preventer morning and night; yellow zone - reliever up to every 4 hours and call the GP; red zone - call 112.",
    "Birthday ideas for Dad (turning 70): photo book of the Norway trip, a good fountain pen, tickets for the Berliner Philharmoniker.",
    "Eltern-Abend am Donnerstag um 19 Uhr in der Aula. Themen: Klassenfahrt, Handyregeln, neue Mathelehrerin.",
    "Recordatorio: la revisión del coche es el 14 de mayo a las 9:00; llevar el libro de mantenimiento.",
    "Promemoria: mamma deve fare l'ecografia all'addome il 21, a digiuno da mezzanotte.",
    "Planning de la semaine : lundi kiné 18h, mercredi dentiste 9h30, vendredi dîner chez les Martin.",
    "Nota: o seguro do carro vence a 30 de setembro, comparar preços antes.",
    "週末の予定：土曜日は子どものサッカー、日曜日は祖母の家でお昼ごはん。",
    "本周计划：周二体检（空腹），周四交房租，周六带爸妈去公园。",
]
CONFIG_NO_SECRET = [
    "NODE_ENV=production\nPORT=3000\nLOG_LEVEL=info\nTZ=Europe/Berlin\nFEATURE_NEW_CHECKOUT=true",
    "services:\n  web:\n    image: nginx:1.27-alpine\n    ports:\n      - \"8080:80\"\n    volumes:\n      - ./site:/usr/share/nginx/html:ro\n    restart: unless-stopped",
    "[server]\nhost = 0.0.0.0\nport = 8443\nworkers = 4\n\n[logging]\nlevel = \"debug\"\nformat = \"json\"",
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\ndata:\n  LOG_LEVEL: info\n  CACHE_TTL_SECONDS: \"300\"\n  REGION: eu-west-1",
    "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.12'\n      - run: pytest -q",
    "curl -s https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41&hourly=temperature_2m | jq '.hourly.temperature_2m[0:6]'",
    "GET /v1/status HTTP/1.1\nHost: status.example.com\nAccept: application/json\nUser-Agent: curl/8.5.0",
    "2025-03-02T10:14:07Z INFO  scheduler job=nightly-backup status=ok duration_ms=48211 files=1832",
    "smart home: living room lights on at sunset, thermostat 21°C day / 18°C night, robot vacuum Mon/Thu 10:00",
    "INSERT INTO meals (day, dish, kcal) VALUES ('Mon', 'lentil soup', 420), ('Tue', 'salmon bowl', 610);",
    "variable \"region\" {\n  type    = string\n  default = \"eu-central-1\"\n}\n\nvariable \"instance_type\" {\n  default = \"t3.small\"\n}",
    "import os\n\nLOG_LEVEL = os.getenv(\"LOG_LEVEL\", \"INFO\")\nTIMEOUT_SECONDS = 30\nRETRIES = 3",
]


def emit_benign_extra():
    for t in LONG_NOTES:
        benign("long_note", t)
    for t in CONFIG_NO_SECRET:
        hard("config_no_secret", t)
    for t in [t for t in HEALTH_T if "{" in t][:12]:   # a third, varied pass of health facts
        benign("health", fill_health(t), hint="health", ns=make_ns("health"))


def emit_benign_lookalikes():
    emit_lookalike_ids()
    emit_lookalike_keys_wallets()
    emit_lookalike_refs()
    emit_lookalike_personal()
    emit_lookalike_placeholders()
    emit_lookalike_talk()
    emit_lookalike_fields()
    emit_lookalike_misc()


# ---------------------------------------------------------------------------
# 7. assemble, write, validate
# ---------------------------------------------------------------------------

# deliberately Luhn-valid look-alikes (isbn13() never yields Luhn-valid numbers)
ALLOWED_LUHN_BENIGN = {"doc_example", "imei"}


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield k
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
    elif obj is not None and not isinstance(obj, bool):
        yield str(obj)


def validate(records: list[dict]) -> dict:
    keys = ["id", "label", "kind", "variant", "namespace", "key", "value"]
    ids = set()
    for r in records:
        assert list(r) == keys, r
        assert r["id"] not in ids
        ids.add(r["id"])
        assert isinstance(r["namespace"], list) and r["namespace"] and all(isinstance(x, str) for x in r["namespace"])
        assert isinstance(r["key"], str) and r["key"]
    for n in CARD_NUMBERS:
        assert luhn_ok(n), n
        assert 13 <= len(n) <= 19
    # every secret card number really appears in some record (as digits)
    flat = {r["id"]: re.sub(r"\D", "", " ".join(_strings(r["value"]))) for r in records if r["label"] == "secret"}
    alltext = "\n".join(flat.values())
    for n in CARD_NUMBERS:
        if n not in CARDS_SPELLED:
            assert n in alltext or n[::-1] in alltext, n
    # no accidental Luhn-valid 13-19 digit run in benign records
    run = re.compile(r"(?<!\d)\d(?:[ -]?\d){12,18}(?!\d)")
    for r in records:
        if r["label"] != "benign" or r["kind"] in ALLOWED_LUHN_BENIGN:
            continue
        for s in _strings(r["value"]):
            for m in run.finditer(s):
                digits = re.sub(r"\D", "", m.group())
                if 13 <= len(digits) <= 19 and luhn_ok(digits):
                    raise AssertionError(f"benign record {r['id']} has Luhn-valid number {m.group()!r}")
    sec = [r for r in records if r["label"] == "secret"]
    ben = [r for r in records if r["label"] == "benign"]
    stats = {
        "total": len(records),
        "secret": len(sec), "secret_hard": sum(r["variant"] == "hard" for r in sec),
        "benign": len(ben), "benign_hard": sum(r["variant"] == "hard" for r in ben),
        "kinds": len({r["kind"] for r in records}),
        "secret_kinds": len({r["kind"] for r in sec}), "benign_kinds": len({r["kind"] for r in ben}),
        "evasion_techniques": len({r["kind"] for r in sec if r["kind"].startswith("evade_")}),
        "vendors": len({v.name.split(" ")[0] for v in VENDORS}),
    }
    assert stats["secret"] >= 500 and stats["benign"] >= 400, stats
    assert stats["secret_hard"] >= 150 and stats["evasion_techniques"] >= 30, stats
    assert stats["benign_hard"] >= 220, stats
    assert stats["vendors"] >= 80, stats
    return stats


def main() -> int:
    emit_vendor_records()
    emit_gcp_service_accounts()
    emit_nonvendor_secrets()
    emit_evasions()
    emit_benign_plain()
    emit_benign_lookalikes()
    emit_benign_extra()

    # drop accidental exact duplicates (same label and value), keeping the first
    records, seen = [], set()
    for r in RECORDS:
        sig = (r["label"], json.dumps(r["value"], sort_keys=True, ensure_ascii=False))
        if sig not in seen:
            seen.add(sig)
            records.append(r)
    R.shuffle(records)
    out = []
    for i, r in enumerate(records, 1):
        out.append({"id": f"h5-{i:04d}", "label": r["label"], "kind": r["kind"], "variant": r["variant"],
                    "namespace": r["namespace"], "key": r["key"], "value": r["value"]})
    stats = validate(out)
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for r in out:
            fh.write(json.dumps(r, ensure_ascii=False, separators=(", ", ": ")) + "\n")
    # re-read to prove every line parses
    with open(OUT, encoding="utf-8") as fh:
        reread = [json.loads(line) for line in fh]
    assert reread == out
    print(json.dumps(stats, indent=1))
    if "-v" in sys.argv:
        by_kind: dict[tuple, int] = {}
        for r in out:
            k = (r["label"], r["variant"], r["kind"])
            by_kind[k] = by_kind.get(k, 0) + 1
        for k in sorted(by_kind):
            print(f"{k[0]:7s} {k[1]:6s} {k[2]:32s} {by_kind[k]}")
        print("vendor contexts:", json.dumps(dict(sorted(CONTEXT_USE.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
