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
    der = bytes.fromhex("308203") + rbytes(2) + bytes.fromhex("308202") + rbytes(2) + bytes.fromhex("a003020102021") + rbytes(700)
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
