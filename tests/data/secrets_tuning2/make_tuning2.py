#!/usr/bin/env python3
"""make_tuning2.py - deterministic generator for tuning2.jsonl (see README.md).

Tuning corpus for a secret detector guarding an agent long-term memory store.
Mostly benign memories (many of them look-alikes of secrets) plus a smaller
set of secret-bearing memories.  Every secret value is made up at random here.

Python 3.11 standard library only.  All randomness comes from ONE
random.Random(2026_1127); running the script twice gives byte-identical output.
"""
import base64
import hashlib
import json
import os
import random
import string
import struct
import sys
import uuid
from collections import Counter, defaultdict
from datetime import datetime, timedelta, timezone

SEED = 2026_1127
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tuning2.jsonl")

HEX = "0123456789abcdef"
DIG = "0123456789"
LOW = string.ascii_lowercase
UP = string.ascii_uppercase
ALNUM = string.ascii_letters + string.digits
UPALNUM = UP + DIG
LOWALNUM = LOW + DIG
B64URL = ALNUM + "-_"


# ----------------------------------------------------------------- helpers
def hx(r, n): return "".join(r.choice(HEX) for _ in range(n))
def HX(r, n): return hx(r, n).upper()
def dg(r, n): return "".join(r.choice(DIG) for _ in range(n))
def dg1(r, n): return r.choice("123456789") + dg(r, n - 1)
def an(r, n, alpha=ALNUM): return "".join(r.choice(alpha) for _ in range(n))
def rbytes(r, n): return bytes(r.getrandbits(8) for _ in range(n))
def b64(r, n): return base64.b64encode(rbytes(r, n)).decode()
def b64u(r, n): return base64.urlsafe_b64encode(rbytes(r, n)).decode().rstrip("=")
def uid(r): return str(uuid.UUID(int=r.getrandbits(128), version=4))
def pick(r, s): return r.choice(s)
def wrap(s, w=64): return "\n".join(s[i:i + w] for i in range(0, len(s), w))
def b64txt(s): return base64.b64encode(s.encode()).decode()
def b64utxt(s): return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")


EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)


def when(r):
    return EPOCH + timedelta(seconds=r.randrange(3 * 365 * 86400))


def iso(r, ms=True):
    d = when(r)
    s = d.strftime("%Y-%m-%dT%H:%M:%S")
    if ms:
        s += f".{r.randrange(1000):03d}"
    return s + "Z"


def hhmm(r, step=5):
    return f"{r.randint(7, 19):02d}:{r.randrange(0, 60, step):02d}"


def ip_priv(r):
    k = r.randrange(3)
    if k == 0:
        return f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)}"
    if k == 1:
        return f"192.168.{r.randrange(256)}.{r.randrange(1, 255)}"
    return f"172.{r.randrange(16, 32)}.{r.randrange(256)}.{r.randrange(1, 255)}"


def ip_doc(r):
    return pick(r, ["192.0.2.", "198.51.100.", "203.0.113."]) + str(r.randrange(1, 255))


def ip_any(r):
    return ip_priv(r) if r.random() < 0.6 else ip_doc(r)


def ip6(r):
    return "2001:db8:" + ":".join(f"{r.randrange(65536):x}" for _ in range(6))


def mac(r, sep=":"):
    return sep.join(f"{r.randrange(256):02x}" for _ in range(6))


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


def card_number(r):
    brand = pick(r, ["Visa", "Visa", "Mastercard", "Mastercard", "Amex", "Discover"])
    if brand == "Visa":
        body = "4" + dg(r, 14)
    elif brand == "Mastercard":
        body = (pick(r, ["51", "52", "53", "54", "55"]) + dg(r, 13)) if r.random() < 0.7 else (str(r.randint(2221, 2720)) + dg(r, 11))
    elif brand == "Amex":
        body = pick(r, ["34", "37"]) + dg(r, 12)
    else:
        body = "6011" + dg(r, 11)
    return brand, body + luhn_digit(body)


def group_card(num, sep=" "):
    if len(num) == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


def expiry(r, sep="/"):
    return f"{r.randint(1, 12):02d}{sep}{r.randint(26, 31)}"


def ml(r, pool, **kw):
    """Pick a (lang, template) from pool and fill it."""
    lang, t = r.choice(pool)
    return (t(**kw) if callable(t) else t.format(**kw)), lang


FIRST = ["Ana", "Marco", "Priya", "Jonas", "Fatima", "Kenji", "Lucía", "Tomasz", "Ingrid", "Mehmet",
         "Aisha", "Wei", "Minh", "Sofia", "Pieter", "Hana", "Rahul", "Olga", "Diego", "Yuki", "Amara",
         "Lars", "Noor", "Giulia", "Ji-woo", "Thiago", "Elif", "Camille", "Oskar", "Leila", "Sam",
         "Grace", "Daniel", "Mia", "Chloe", "Ben", "Zoe", "Omar", "Emma", "Luca", "Nadia", "Felix"]
LAST = ["Okafor", "Rossi", "Kowalski", "Nguyen", "Schmidt", "García", "Dubois", "Tanaka", "Kim", "Silva",
        "Jansen", "Andersson", "Yılmaz", "Haddad", "Sharma", "Chen", "Novak", "Murphy", "Costa", "Larsen",
        "Moreau", "Ferreira", "Bakker", "Lindqvist", "Demir", "Patel", "Ito", "Park", "Wójcik", "Reyes"]
CITY = ["Lisbon", "Berlin", "Madrid", "Lyon", "Kraków", "Gothenburg", "Utrecht", "Bologna", "Izmir",
        "Osaka", "Busan", "Hanoi", "Pune", "Amman", "Toronto", "Denver", "Leeds", "Porto", "Graz", "Seville"]
SERVICES = ["Gmail", "Netflix", "Spotify", "Amazon", "PayPal", "Dropbox", "iCloud", "Outlook", "Instagram",
            "LinkedIn", "Revolut", "N26", "Chase", "Wise", "Steam", "Disney+", "MyChart", "Workday",
            "Slack", "Jira", "Zoom", "Deutsche Bank", "Santander", "ING", "BBVA", "Nubank", "Monzo",
            "the clinic portal", "the pharmacy app", "the HR portal", "the school portal", "Etsy", "eBay"]
SVC_SHORT = ["Gmail", "Netflix", "Spotify", "Amazon", "PayPal", "Dropbox", "iCloud", "Outlook", "Instagram",
             "LinkedIn", "Revolut", "N26", "Wise", "Steam", "Zoom", "Slack", "Jira", "ING", "BBVA", "Monzo"]
DOCTORS = ["Dr. Okafor", "Dr. Lindqvist", "Dr. Haddad", "Dr. Moreau", "Dr. Tanaka", "Dr. Patel",
           "Dr. Costa", "Dr. Novak", "Dr. Reyes", "Dr. Bakker", "Dr. Kim", "Dr. Schmidt"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
MON3 = [m[:3] for m in MONTHS]
WORDS = ["amber", "anchor", "apple", "arrow", "autumn", "badger", "banjo", "basil", "beacon", "birch",
         "biscuit", "blossom", "bramble", "breeze", "bronze", "cactus", "canyon", "cedar", "cherry", "cinder",
         "clover", "cobalt", "comet", "copper", "coral", "cricket", "crystal", "daisy", "delta", "dolphin",
         "dune", "eagle", "ember", "falcon", "fern", "fig", "finch", "fjord", "flint", "forest", "fox",
         "galaxy", "garnet", "ginger", "glacier", "granite", "harbor", "hazel", "heron", "honey", "indigo",
         "iris", "ivory", "jasmine", "juniper", "kayak", "kettle", "kiwi", "lagoon", "lantern", "lemon",
         "lilac", "lotus", "magnet", "mango", "maple", "marble", "meadow", "mint", "mocha", "monsoon",
         "moss", "nectar", "nutmeg", "oasis", "olive", "onyx", "orbit", "otter", "paddle", "panda",
         "papaya", "pebble", "pepper", "pine", "pixel", "plum", "polar", "poppy", "prairie", "quartz",
         "quill", "radish", "raven", "reef", "ripple", "river", "robin", "saffron", "salmon", "sapphire",
         "scarlet", "shadow", "sierra", "silver", "sparrow", "spruce", "summit", "sunset", "tango",
         "thistle", "thunder", "tiger", "timber", "tulip", "tundra", "umber", "velvet", "violet",
         "walnut", "willow", "winter", "wombat", "yarrow", "zephyr", "zinnia", "trombone", "halibut",
         "kiosk", "miramar", "pistachio", "rhubarb", "snorkel", "teapot", "waffle", "yodel"]


def gen_password(r):
    k = r.randrange(7)
    sym = "!@#$%&*?+=_-."
    if k == 0:
        return pick(r, WORDS).capitalize() + pick(r, sym) + dg(r, r.randint(2, 4))
    if k == 1:
        return an(r, r.randint(11, 18), ALNUM + "!@#$%^&*-_")
    if k == 2:
        return pick(r, ["-", ".", "_", " "]).join(r.sample(WORDS, r.randint(3, 5)))
    if k == 3:
        w = pick(r, WORDS) + pick(r, WORDS).capitalize()
        leet = str.maketrans({"a": "@", "o": "0", "e": "3", "i": "1", "s": "$"})
        return w.translate(leet) + dg(r, 2)
    if k == 4:
        return pick(r, WORDS).capitalize() + str(r.randint(1960, 2019)) + pick(r, sym)
    if k == 5:
        return pick(r, FIRST).replace("-", "") + pick(r, sym) + pick(r, WORDS).capitalize() + dg(r, 2)
    return an(r, 4, UP) + "-" + an(r, 4, LOWALNUM) + "-" + an(r, 4, ALNUM) + pick(r, sym)


def gen_pin(r, n=None):
    n = n or pick(r, [4, 4, 4, 6, 6, 5, 8])
    return dg(r, n)


# ---------------------------------------------------------------- registry
FAMS = []


def family(name, label, kind, **counts):
    def deco(fn):
        FAMS.append({"name": name, "label": label, "kind": kind, "counts": counts, "fn": fn})
        return fn
    return deco


# =====================================================================
# BENIGN look-alikes (variant "hard") - A: logs, dev artefacts, identifiers
# =====================================================================
PREFIX_EN = ["", "", "", "Saved from today's incident: ", "Log line to ask the security team about:\n",
             "For the postmortem - ", "Keep for the bug report: ", "Copied from the server, remember this pattern:\n"]


@family("auth_log", "benign", "auth_log", hard=16)
def f_auth_log(r, v):
    u = dg1(r, r.randint(4, 7)); ip = ip_any(r); t = iso(r)
    rid = pick(r, ["req_", "rq-", "", "r-"]) + hx(r, pick(r, [12, 16, 24]))
    method = pick(r, ["totp", "sms_otp", "email_otp", "webauthn", "push", "password", "password+totp",
                      "recovery_code", "magic_link", "passkey"])
    k = r.randrange(10)
    if k == 0:
        s = (f"{t} INFO  auth.login user_id={u} method={method} result=success ip={ip} "
             f"request_id={rid} duration_ms={r.randint(40, 900)}")
    elif k == 1:
        s = (f"{t} WARN  auth.mfa challenge_failed user_id={u} factor={method} attempt={r.randint(1, 4)}/5 "
             f"ip={ip} request_id={rid} status=401 reason=code_mismatch")
    elif k == 2:
        d = when(r)
        s = (f"{d.strftime('%b %d %H:%M:%S')} {pick(r, ['web', 'bastion', 'db', 'nas'])}-{r.randint(1, 9):02d} "
             f"sshd[{r.randint(900, 65000)}]: Accepted publickey for {pick(r, ['deploy', 'ubuntu', 'git', 'ana'])} "
             f"from {ip} port {r.randint(30000, 65000)} ssh2: ED25519 SHA256:{b64(r, 32).rstrip('=')}")
    elif k == 3:
        d = when(r)
        s = "\n".join(
            f"{(d + timedelta(seconds=i * r.randint(1, 4))).strftime('%b %d %H:%M:%S')} vps-{r.randint(1, 40)} "
            f"sshd[{r.randint(900, 65000)}]: Failed password for invalid user "
            f"{pick(r, ['admin', 'oracle', 'test', 'pi', 'postgres', 'user'])} from {ip_doc(r)} port {r.randint(30000, 65000)} ssh2"
            for i in range(r.randint(2, 4)))
    elif k == 4:
        return ({"ts": t, "level": pick(r, ["info", "warn"]), "service": "auth-api",
                 "event": pick(r, ["otp_verify_failed", "otp_sent", "mfa_enrolled", "password_changed",
                                   "session_revoked", "totp_verified"]),
                 "user_id": int(u), "mfa_method": method, "ip": ip, "request_id": rid,
                 "latency_ms": r.randint(5, 800), "http": {"status": pick(r, [200, 201, 401, 429]),
                                                           "path": pick(r, ["/v1/mfa/verify", "/v1/login", "/v1/otp/send"])}},
                "en")
    elif k == 5:
        s = (f"{t} type=LOGIN_ERROR, realmId={pick(r, ['clinic', 'staff', 'patients'])}, clientId=web-portal, "
             f"userId={uid(r)}, ipAddress={ip}, error=invalid_user_credentials, auth_method=openid-connect, "
             f"redirect_uri=https://portal.example.org/callback, code_id={uid(r)}")
    elif k == 6:
        s = (f"eventType=user.authentication.auth_via_mfa outcome=SUCCESS factor=token:software:totp "
             f"actor={pick(r, FIRST).lower()}.{pick(r, LAST).lower()}@example.com client.ip={ip} "
             f"transaction.id={an(r, 27, ALNUM)} published={t}")
    elif k == 7:
        n = pick(r, FIRST).lower().replace("í", "i").replace("-", "")
        s = (f"{when(r).strftime('%b %d %H:%M:%S')} laptop sudo: pam_unix(sudo:auth): authentication failure; "
             f"logname={n} uid={r.randint(1000, 1010)} euid=0 tty=/dev/pts/{r.randint(0, 5)} ruser={n} rhost=  user={n}")
    elif k == 8:
        s = (f"{t} otp.dispatch channel=sms to=+{r.randint(30, 49)} *** *** {dg(r, 2)} code_length=6 "
             f"expires_in={pick(r, [120, 300, 600])}s template=login_v{r.randint(2, 5)} request_id={rid}")
    else:
        s = (f"{t} audit user={u} action=password_reset_requested via=email ip={ip} ua=\"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)\" "
             f"result=link_sent ttl=30m request_id={rid}")
    return pick(r, PREFIX_EN) + s, "en"


@family("app_log", "benign", "app_log", hard=12)
def f_app_log(r, v):
    ip = ip_any(r); d = when(r); t = iso(r)
    k = r.randrange(8)
    if k == 0:
        s = (f"{ip} - - [{d.strftime('%d/%b/%Y:%H:%M:%S')} +0000] \"GET /api/v2/appointments/{uid(r)} HTTP/1.1\" "
             f"{pick(r, [200, 304, 404])} {r.randint(200, 9000)} \"-\" \"okhttp/4.12.0\" rt={r.random():.3f} "
             f"req_id={hx(r, 32)}")
    elif k == 1:
        s = (f"{t} POST /oauth/token {pick(r, [200, 400])} in {r.randint(20, 400)}ms "
             f"grant_type=refresh_token client=ios-app v{r.randint(3, 9)}.{r.randint(0, 20)} user={dg1(r, 6)}")
    elif k == 2:
        s = (f"Started POST \"/users/sign_in\" for {ip} at {d.strftime('%Y-%m-%d %H:%M:%S')} +0100\n"
             f"Processing by Users::SessionsController#create as HTML\n"
             f"  Parameters: {{\"authenticity_token\"=>\"[FILTERED]\", \"user\"=>{{\"email\"=>\"{pick(r, FIRST).lower()}@example.com\", "
             f"\"password\"=>\"[FILTERED]\", \"remember_me\"=>\"1\"}}}}\n"
             f"Completed 302 Found in {r.randint(80, 600)}ms (ActiveRecord: {r.random() * 20:.1f}ms)")
    elif k == 3:
        s = (f"{d.strftime('%Y-%m-%d %H:%M:%S')}.{r.randrange(1000):03d}  INFO 1 --- [nio-8080-exec-{r.randint(1, 9)}] "
             f"c.a.b.PaymentController : charge ok orderId=ORD-{dg(r, 6)} amount={r.randint(5, 300)}.{dg(r, 2)} EUR "
             f"latencyMs={r.randint(80, 900)} traceId={hx(r, 32)}")
    elif k == 4:
        s = (f"Warning  BackOff  {r.randint(1, 9)}m (x{r.randint(3, 30)} over {r.randint(10, 50)}m)  kubelet  "
             f"Back-off restarting failed container api in pod api-{hx(r, 9)}-{an(r, 5, LOWALNUM)}")
    elif k == 5:
        return ({"level": "info", "msg": "request completed", "status": pick(r, [200, 201, 204]),
                 "method": pick(r, ["GET", "POST"]), "path": pick(r, ["/v1/reports", "/v1/meals", "/v1/budget/summary"]),
                 "duration": f"{r.randint(3, 900)}ms", "request_id": uid(r), "user_id": dg1(r, 6),
                 "client": {"ip": ip, "ua": "Android 14; Pixel 8"}}, "en")
    elif k == 6:
        s = (f"[{d.strftime('%d/%b/%Y %H:%M:%S')}] \"POST /accounts/password/reset/ HTTP/1.1\" 302 0\n"
             f"[{d.strftime('%d/%b/%Y %H:%M:%S')}] \"GET /accounts/password/reset/done/ HTTP/1.1\" 200 {r.randint(1000, 4000)}")
    else:
        s = (f"h2 {t} app/prod-alb/{hx(r, 16)} {ip_doc(r)}:{r.randint(30000, 65000)} {ip_priv(r)}:8080 "
             f"0.00{r.randint(1, 9)} 0.0{r.randint(10, 99)} 0.000 200 200 {r.randint(100, 999)} {r.randint(1000, 9999)} "
             f"\"GET https://api.example.com:443/v1/health HTTP/2.0\" \"curl/8.5.0\" Root=1-{hx(r, 8)}-{hx(r, 24)}")
    return pick(r, PREFIX_EN) + s, "en"


@family("stack_trace", "benign", "stack_trace", hard=10)
def f_stack(r, v):
    k = r.randrange(5)
    ln = lambda: r.randint(12, 480)
    if k == 0:
        s = ("Traceback (most recent call last):\n"
             f"  File \"/app/{pick(r, ['settings', 'config', 'boot'])}.py\", line {ln()}, in <module>\n"
             f"    DB_PASSWORD = os.environ[\"DB_PASSWORD\"]\n"
             f"  File \"/usr/lib/python3.11/os.py\", line 679, in __getitem__\n"
             f"    raise KeyError(key) from None\nKeyError: 'DB_PASSWORD'")
    elif k == 1:
        s = ("Traceback (most recent call last):\n"
             f"  File \"/home/{pick(r, FIRST).lower()}/budget/sync.py\", line {ln()}, in fetch\n"
             f"    resp = session.get(url, timeout={r.randint(5, 30)})\n"
             "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.com', port=443): "
             f"Max retries exceeded with url: /v1/transactions?page={r.randint(2, 40)}")
    elif k == 2:
        s = (f"java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"token\" is null\n"
             f"\tat com.acme.auth.TokenRefresher.refresh(TokenRefresher.java:{ln()})\n"
             f"\tat com.acme.auth.SessionFilter.doFilter(SessionFilter.java:{ln()})\n"
             f"\tat org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:{ln()})")
    elif k == 3:
        s = ("TypeError: Cannot read properties of undefined (reading 'apiKey')\n"
             f"    at loadConfig (/srv/app/src/config.js:{ln()}:{r.randint(5, 40)})\n"
             f"    at Object.<anonymous> (/srv/app/src/index.js:{ln()}:{r.randint(5, 40)})\n"
             "    at Module._compile (node:internal/modules/cjs/loader:1376:14)")
    else:
        s = (f"panic: runtime error: invalid memory address or nil pointer dereference\n"
             f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x{hx(r, 2)} pc=0x{hx(r, 6)}]\n\n"
             f"goroutine {r.randint(1, 300)} [running]:\n"
             f"main.(*Vault).Secret(0x0, {{0xc000{hx(r, 6)}, 0x{hx(r, 2)}}})\n"
             f"\t/src/vault.go:{ln()} +0x{hx(r, 2)}\nmain.main()\n\t/src/main.go:{ln()} +0x{hx(r, 3)}")
    return pick(r, ["", "", "Error from my side project: ", "Got this when running the script, fix later:\n"]) + s, "en"


@family("ci_output", "benign", "ci_output", hard=10)
def f_ci(r, v):
    k = r.randrange(6)
    ver = f"{r.randint(1, 5)}.{r.randint(0, 30)}.{r.randint(0, 20)}"
    if k == 0:
        s = ("Run npm publish --access public\n  env:\n    NODE_AUTH_TOKEN: ***\n"
             f"npm notice Publishing to https://registry.npmjs.org/ with tag latest\n+ @acme/ui@{ver}\n"
             f"Cache saved with key: node-cache-Linux-x64-npm-{hx(r, 64)}")
    elif k == 1:
        s = (f"Running with gitlab-runner 16.{r.randint(0, 11)}.{r.randint(0, 3)} ({hx(r, 8)})\n"
             f"  on shared-runner-{r.randint(1, 9)} {an(r, 8)}, system ID: s_{hx(r, 12)}\n"
             f"Using docker image sha256:{hx(r, 64)} for python:3.11-slim with digest python@sha256:{hx(r, 64)} ...")
    elif k == 2:
        s = ("[Pipeline] withCredentials\nMasking supported pattern matches of $DEPLOY_KEY or $REGISTRY_PASSWORD\n"
             "[Pipeline] {\n[Pipeline] sh\n+ docker login -u ci-bot --password-stdin registry.example.com\n"
             "Login Succeeded\n+ ./deploy.sh --token ****")
    elif k == 3:
        s = (f"============ {r.randint(50, 900)} passed, {r.randint(0, 9)} skipped, {r.randint(0, 3)} xfailed, "
             f"{r.randint(1, 40)} warnings in {r.randint(5, 300)}.{dg(r, 2)}s ============")
    elif k == 4:
        s = (f"#{r.randint(8, 20)} exporting to image\n#{r.randint(8, 20)} writing image sha256:{hx(r, 64)} done\n"
             f"#{r.randint(8, 20)} naming to ghcr.io/acme/web:{ver} done\n"
             f"{ver}: digest: sha256:{hx(r, 64)} size: {r.randint(1000, 4000)}")
    else:
        s = (f"Restoring cache: v1-deps-{{{{ checksum \"package-lock.json\" }}}}\nFound a cache from build {r.randint(1000, 99999)} "
             f"at v1-deps-{b64(r, 32).rstrip('=')}\nSize: {r.randint(10, 900)} MiB\nSkipping cache - already exists.")
    return pick(r, ["", "CI log from the release: ", "Pipeline output (keep for reference):\n"]) + s, "en"


COMMIT_MSGS = ["Rotate API key references to use Vault", "Fix password reset email link", "Bump lodash from 4.17.20 to 4.17.21",
               "Add TOTP enrollment screen", "Remove hardcoded token from tests (use fixture)", "Refactor session expiry",
               "Update glucose chart colours", "Fix typo in budget export", "Add PIN change flow behind feature flag",
               "Mask card numbers in receipts", "Migrate secrets to SOPS", "Increase bcrypt cost to 12",
               "docs: explain how to set OPENAI_API_KEY locally", "chore: regenerate lockfile", "Handle expired OTP gracefully"]


@family("git_log", "benign", "git_log", hard=12)
def f_git(r, v):
    k = r.randrange(6)
    nm = f"{pick(r, FIRST)} {pick(r, LAST)}"
    d = when(r)
    if k == 0:
        s = (f"commit {hx(r, 40)}\nAuthor: {nm} <{nm.split()[0].lower()}@example.com>\n"
             f"Date:   {d.strftime('%a %b %d %H:%M:%S %Y')} +0100\n\n    {pick(r, COMMIT_MSGS)}")
    elif k == 1:
        s = "\n".join(f"{hx(r, 7)} {pick(r, COMMIT_MSGS)}" for _ in range(r.randint(3, 5)))
        s = f"{s.split(chr(10))[0][:7]} (HEAD -> main, origin/main)" + s[7:]
    elif k == 2:
        s = f"git rev-parse HEAD on the release branch gives {hx(r, 40)}; the tag v{r.randint(1, 4)}.{r.randint(0, 20)}.{r.randint(0, 9)} points at {hx(r, 7)}."
    elif k == 3:
        s = (f"Merge pull request #{r.randint(100, 9999)} from acme/fix/{pick(r, ['token-expiry', 'otp-resend', 'pin-lockout', 'password-meter'])}\n\n"
             f"{pick(r, COMMIT_MSGS)} (reviewed by {pick(r, FIRST)})")
    elif k == 4:
        s = f"Revert \"{pick(r, COMMIT_MSGS)}\"\n\nThis reverts commit {hx(r, 40)}."
    else:
        s = f"{hx(r, 7)} HEAD@{{{r.randint(0, 20)}}}: rebase (finish): returning to refs/heads/feature/{pick(r, WORDS)}-{r.randint(1, 99)}"
    return pick(r, ["", "", "Last commit on my repo: ", "Note for standup - "]) + s, "en"


@family("uuid_ref", "benign", "identifier", hard=10)
def f_uuid(r, v):
    u = uid(r)
    pool = [("en", "Calendar event UID {u} - the physio series, in case it needs to be re-synced."),
            ("en", "Support case correlation ID {u}; quote it when calling the insurer."),
            ("en", "Device ID of the glucose sensor app: {u}"),
            ("en", "Notion page id for my workout plan: {n}"),
            ("en", "Order reference (UUID) from the pharmacy: {u}"),
            ("en", "The bank's dispute case id is {U}."),
            ("de", "Vorgangsnummer der Krankenkasse: {u} (für Rückfragen)."),
            ("es", "Identificador de la solicitud de reembolso: {u}."),
            ("fr", "Identifiant du dossier de remboursement : {u}"),
            ("ja", "サポート問い合わせ番号: {u}")]
    return ml(r, pool, u=u, n=u.replace("-", ""), U=u.upper())


@family("trace_id", "benign", "trace_id", hard=9)
def f_trace(r, v):
    k = r.randrange(6)
    if k == 0:
        s = f"traceparent: 00-{hx(r, 32)}-{hx(r, 16)}-01"
    elif k == 1:
        s = f"X-Amzn-Trace-Id: Root=1-{hx(r, 8)}-{hx(r, 24)};Parent={hx(r, 16)};Sampled=1"
    elif k == 2:
        s = f"dd.trace_id={dg1(r, 19)} dd.span_id={dg1(r, 19)} service=checkout env=prod"
    elif k == 3:
        s = f"uber-trace-id: {hx(r, 16)}:{hx(r, 16)}:0:1"
    elif k == 4:
        s = f"X-B3-TraceId: {hx(r, 32)}\nX-B3-SpanId: {hx(r, 16)}\nX-B3-Sampled: 1"
    else:
        s = f"X-Cloud-Trace-Context: {hx(r, 32)}/{dg1(r, 19)};o=1"
    return pick(r, ["Slow request to look at: ", "Trace for the timeout bug - ", "", "Span to share with the SRE: "]) + s, "en"


FILES = ["ubuntu-24.04.1-desktop-amd64.iso", "backup-2025-03.tar.gz", "photos-export.zip", "tax-return-2024.pdf",
         "Firmware_v1.0.7.bin", "node-v20.11.1-linux-x64.tar.xz", "health-export.xml", "KeePassXC-2.7.9-Win64.msi",
         "debian-12.5.0-arm64-netinst.iso", "thesis-final-v3.docx", "scan_blood_results.pdf", "garmin-activities.fit"]


@family("checksum", "benign", "checksum", hard=12)
def f_checksum(r, v):
    f = pick(r, FILES)
    k = r.randrange(7)
    if k == 0:
        s = f"{hx(r, 64)}  {f}"
    elif k == 1:
        s = f"MD5 ({f}) = {hx(r, 32)}"
    elif k == 2:
        s = f"SHA1 of {f}: {hx(r, 40)}"
    elif k == 3:
        s = f"Algorithm : SHA256\nHash      : {HX(r, 64)}\nPath      : C:\\Users\\{pick(r, FIRST)}\\Downloads\\{f}"
    elif k == 4:
        s = f"The download page lists sha512 {hx(r, 128)} for {f}; mine matched."
    elif k == 5:
        s = f"CRC32 {HX(r, 8)}, size {r.randint(1, 900)} MB, file {f}"
    else:
        s = f"{f}: OK (sha256 {hx(r, 64)[:16]}…{hx(r, 6)})"
    return pick(r, ["", "Verified checksum: ", "Checksum so I know the copy isn't corrupted - ", "For the backup log: "]) + s, "en"


@family("b64_digest", "benign", "digest", hard=10)
def f_b64d(r, v):
    k = r.randrange(6)
    if k == 0:
        s = f"<script src=\"https://cdn.example.net/lib.min.js\" integrity=\"sha384-{b64(r, 48)}\" crossorigin=\"anonymous\"></script>"
    elif k == 1:
        return ({"node_modules/lodash": {"version": "4.17.21", "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
                                         "integrity": f"sha512-{b64(r, 64)}"}}, "en")
    elif k == 2:
        s = f"Content-MD5: {b64(r, 16)}"
    elif k == 3:
        s = f"ETag: \"{hx(r, 32)}-{r.randint(2, 20)}\"  (multipart upload of the photo archive)"
    elif k == 4:
        s = f"Digest: sha-256={b64(r, 32)}"
    else:
        s = f"x-goog-hash: crc32c={b64(r, 4)}\nx-goog-hash: md5={b64(r, 16)}"
    return pick(r, ["", "Header from the download: ", "Integrity value to check later: "]) + s, "en"


@family("hashed_file", "benign", "file_name", hard=10)
def f_hfile(r, v):
    d = when(r)
    pool = [lambda: f"Build output: main.{hx(r, 8)}.js, vendor.{hx(r, 8)}.chunk.js, styles.{hx(r, 20)}.css",
            lambda: f"The photo is IMG_{d.strftime('%Y%m%d_%H%M%S')}_{hx(r, 6)}.jpg in the 'Kids' album.",
            lambda: f"Saved the lab report as scan_{uid(r)}.pdf in Documents/Health.",
            lambda: f"Git packfile .git/objects/pack/pack-{hx(r, 40)}.pack is 1.2 GB, that's why clone is slow.",
            lambda: f"backup-{d.strftime('%Y-%m-%d')}-{hx(r, 6)}.tar.zst uploaded to the NAS",
            lambda: f"WhatsApp Image {d.strftime('%Y-%m-%d at %H.%M.%S')}_{hx(r, 8)}.jpg is the receipt for the plumber.",
            lambda: f"/_next/static/chunks/pages/_app-{hx(r, 16)}.js returns 404 after deploy",
            lambda: f"Invoice PDF: invoice_{d.strftime('%Y%m')}_{an(r, 10, LOWALNUM)}.pdf"]
    return pick(r, pool)(), "en"


@family("image_digest", "benign", "image_digest", hard=9)
def f_imgdig(r, v):
    k = r.randrange(4)
    img = pick(r, ["postgres:16.2", "redis:7.2-alpine", "python:3.11-slim", "nginx:1.25", "grafana/grafana:10.4.1"])
    if k == 0:
        s = f"ghcr.io/acme/api@sha256:{hx(r, 64)}"
    elif k == 1:
        s = f"docker pull {img}@sha256:{hx(r, 64)}"
    elif k == 2:
        s = f"Image:          {img}\nImage ID:       docker-pullable://{img.split(':')[0]}@sha256:{hx(r, 64)}"
    else:
        s = f"Pinned base image in the Dockerfile to {img}@sha256:{hx(r, 64)} so rebuilds are reproducible."
    return pick(r, ["", "Running digest: ", "Deployed image - "]) + s, "en"


@family("cloud_id", "benign", "cloud_resource_id", hard=12)
def f_cloud(r, v):
    acct = dg1(r, 12)
    reg = pick(r, ["eu-west-1", "us-east-1", "eu-central-1", "ap-northeast-1"])
    k = r.randrange(9)
    if k == 0:
        s = f"arn:aws:iam::{acct}:role/{pick(r, ['ReadOnly', 'BillingViewer', 'ci-deployer', 'LambdaExec'])}"
    elif k == 1:
        s = f"arn:aws:lambda:{reg}:{acct}:function:{pick(r, ['resize-images', 'send-reminders', 'nightly-report'])}"
    elif k == 2:
        s = f"/subscriptions/{uid(r)}/resourceGroups/rg-{pick(r, WORDS)}-prod/providers/Microsoft.Web/sites/{pick(r, WORDS)}-api"
    elif k == 3:
        s = f"projects/{pick(r, WORDS)}-{dg(r, 6)}/locations/europe-west1/services/{pick(r, WORDS)}-web (project number {dg1(r, 12)})"
    elif k == 4:
        s = f"Instance i-0{hx(r, 16)} in subnet subnet-0{hx(r, 16)}, security group sg-0{hx(r, 16)}, AMI ami-0{hx(r, 16)}"
    elif k == 5:
        s = f"CloudFront distribution E{an(r, 13, UPALNUM)} fronts the s3 bucket {pick(r, WORDS)}-static-{dg(r, 4)}"
    elif k == 6:
        s = f"Azure tenant ID {uid(r)} and subscription {uid(r)} (both are identifiers, not credentials)"
    elif k == 7:
        s = f"Service account: ci-deployer@{pick(r, WORDS)}-{dg(r, 6)}.iam.gserviceaccount.com (key-less, uses workload identity)"
    else:
        s = f"arn:aws:secretsmanager:{reg}:{acct}:secret:prod/db/credentials-{an(r, 6)}  <- only the ARN, the value stays in Secrets Manager"
    return pick(r, ["", "", "Work note: ", "Resource for the ticket: "]) + s, "en"


def ssh_ed25519_blob(r):
    raw = struct.pack(">I", 11) + b"ssh-ed25519" + struct.pack(">I", 32) + rbytes(r, 32)
    return base64.b64encode(raw).decode()


def ssh_rsa_blob(r, bits=2048):
    nbytes = bits // 8
    n = b"\x00" + bytes([r.randint(0xC0, 0xFF)]) + rbytes(r, nbytes - 1)
    raw = struct.pack(">I", 7) + b"ssh-rsa" + struct.pack(">I", 3) + b"\x01\x00\x01" + struct.pack(">I", len(n)) + n
    return base64.b64encode(raw).decode()


def ssh_ecdsa_blob(r):
    raw = (struct.pack(">I", 19) + b"ecdsa-sha2-nistp256" + struct.pack(">I", 8) + b"nistp256"
           + struct.pack(">I", 65) + b"\x04" + rbytes(r, 64))
    return base64.b64encode(raw).decode()


@family("ssh_pubkey", "benign", "public_key", hard=12)
def f_sshpub(r, v):
    who = f"{pick(r, FIRST).lower().replace('í', 'i').replace('-', '')}@{pick(r, ['laptop', 'macbook', 'desktop', 'work-pc', 'pixel'])}"
    k = r.randrange(3)
    key = (f"ssh-ed25519 {ssh_ed25519_blob(r)} {who}" if k == 0 else
           f"ssh-rsa {ssh_rsa_blob(r, pick(r, [2048, 3072]))} {who}" if k == 1 else
           f"ecdsa-sha2-nistp256 {ssh_ecdsa_blob(r)} {who}")
    pool = [("en", lambda: f"My laptop's PUBLIC key (safe to share, paste into GitHub):\n{key}"),
            ("en", lambda: f"authorized_keys on the Raspberry Pi now has:\n{key}"),
            ("en", lambda: f"github.com ssh-ed25519 {ssh_ed25519_blob(r)}  # known_hosts entry"),
            ("en", lambda: f"Public key to give IT for the bastion host: {key}"),
            ("de", lambda: f"Öffentlicher SSH-Schlüssel für den Server (darf geteilt werden): {key}"),
            ("es", lambda: f"Clave pública SSH del portátil nuevo, para añadir en GitLab: {key}")]
    return ml(r, pool)


def pem(label, body):
    return f"-----BEGIN {label}-----\n{wrap(body)}\n-----END {label}-----"


@family("pem_public", "benign", "public_key", hard=10)
def f_pempub(r, v):
    k = r.randrange(5)
    if k == 0:
        s = pem("PUBLIC KEY", "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA" + b64(r, 258)[:-4] + "IDAQAB")
        ctx = "Webhook signature verification public key from the payment provider docs:\n"
    elif k == 1:
        s = pem("PUBLIC KEY", "MCowBQYDK2VwAyEA" + b64(r, 32))
        ctx = "Ed25519 public key of the release signer:\n"
    elif k == 2:
        s = pem("PUBLIC KEY", "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE" + b64(r, 63) + "Kw==")
        ctx = "EC P-256 public key used to verify the app's JWTs:\n"
    elif k == 3:
        s = pem("CERTIFICATE", "MIID" + b64(r, 690))
        ctx = pick(r, ["The clinic portal's TLS certificate (public):\n", "Root CA cert for the home lab, import into the browser:\n"])
    else:
        s = ("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBG" + wrap(b64(r, 300)) + f"\n={b64(r, 3)}\n-----END PGP PUBLIC KEY BLOCK-----")
        ctx = "My PGP public key, for people who want to email me encrypted stuff:\n"
    return ctx + s, "en"


@family("key_fpr", "benign", "fingerprint", hard=10)
def f_fpr(r, v):
    k = r.randrange(5)
    if k == 0:
        s = "GPG key fingerprint: " + " ".join(HX(r, 4) for _ in range(10))
    elif k == 1:
        s = f"Host key fingerprint is SHA256:{b64(r, 32).rstrip('=')} - matches what the admin sent."
    elif k == 2:
        s = "Certificate SHA-256 fingerprint " + ":".join(HX(r, 2) for _ in range(32))
    elif k == 3:
        s = ("Signal safety number with " + pick(r, FIRST) + " (verified in person): "
             + " ".join(dg(r, 5) for _ in range(12)))
    else:
        s = f"ssh-keygen -lf says: 256 MD5:{':'.join(hx(r, 2) for _ in range(16))} {pick(r, FIRST).lower()}@laptop (ED25519)"
    return s, "en"


@family("jwks", "benign", "public_key", hard=8)
def f_jwks(r, v):
    k = r.randrange(3)
    if k == 0:
        return ({"keys": [{"kty": "RSA", "use": "sig", "alg": "RS256", "kid": hx(r, 40),
                           "n": b64u(r, 256), "e": "AQAB"}],
                 "_note": "public JWKS fetched from /.well-known/jwks.json"}, "en")
    if k == 1:
        now = int(when(r).timestamp())
        return ({"note": "decoded ID token claims (payload only, no signature) while debugging login",
                 "header": {"alg": "RS256", "kid": hx(r, 16), "typ": "JWT"},
                 "payload": {"iss": "https://login.example.com/", "sub": f"auth0|{hx(r, 24)}",
                             "aud": an(r, 32), "iat": now, "exp": now + 3600, "email_verified": True}}, "en")
    return ({"kty": "EC", "crv": "P-256", "kid": uid(r), "x": b64u(r, 32), "y": b64u(r, 32), "use": "sig"},
            "en")


@family("public_client_key", "benign", "public_client_key", hard=12)
def f_pubkey(r, v):
    k = r.randrange(8)
    if k == 0:
        s = (f"Stripe PUBLISHABLE key for the shop frontend (meant to be public, it's in the page source): "
             f"pk_live_{an(r, 24)}{an(r, pick(r, [0, 75]))}")
    elif k == 1:
        u = pick(r, FIRST).lower().replace('í', 'i').replace('-', '')
        s = f"Mapbox public token (pk.*, URL-restricted, fine in the web app): pk.{b64utxt(json.dumps({'u': u, 'a': an(r, 25, LOWALNUM)}, separators=(',', ':')))}.{b64u(r, 16)}"
    elif k == 2:
        s = (f"Sentry DSN for the browser SDK (public by design): https://{hx(r, 32)}@o{dg1(r, 6)}.ingest.sentry.io/{dg1(r, 7)}")
    elif k == 3:
        s = f"Algolia app ID {an(r, 10, UPALNUM)}, search-only API key {hx(r, 32)} - the search-only one is OK to expose."
    elif k == 4:
        s = f"reCAPTCHA site key (public half, goes in the HTML): 6L{an(r, 38, B64URL)}"
    elif k == 5:
        s = f"PostHog project API key phc_{an(r, 43)} - it's a write-only public key, they say to put it in the frontend."
    elif k == 6:
        s = f"Clerk publishable key pk_test_{b64utxt(pick(r, WORDS) + '-' + pick(r, WORDS) + '-' + dg(r, 2) + '.clerk.accounts.dev$')}"
    else:
        s = f"Web push VAPID public key (applicationServerKey, public): B{b64u(r, 64)}"
    return s, "en"


@family("placeholder", "benign", "placeholder", hard=18)
def f_placeholder(r, v):
    svc = pick(r, ["OpenAI", "Stripe", "GitHub", "Twilio", "SendGrid", "Anthropic", "Mapbox", "AWS"])
    k = r.randrange(14)
    if k == 0:
        s = f"README step 3: export {svc.upper()}_API_KEY=<API_KEY>  # replace with your own key"
    elif k == 1:
        s = f"The log shows Authorization: Bearer sk-...redacted and then a {pick(r, [401, 403])}, so the key was rejected."
    elif k == 2:
        s = f"{svc} dashboard shows the key as {pick(r, ['sk-', 'ghp_', 'SG.', 'xoxb-'])}••••••••{an(r, 4)} (only last four visible)."
    elif k == 3:
        s = "docker-compose.example.yml:\n  POSTGRES_USER: app\n  POSTGRES_PASSWORD: changeme   # template default, override in .env.local"
    elif k == 4:
        s = "DATABASE_URL=postgresql://USER:PASSWORD@HOST:5432/DBNAME   (copy from the docs, fill in yours)"
    elif k == 5:
        s = "The AWS docs use AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY as the sample key pair in every example."
    elif k == 6:
        return ({"api_key": "YOUR_API_KEY_HERE", "base_url": "https://api.example.com/v1", "timeout": r.randint(5, 60),
                 "_comment": "sample config from the tutorial"}, "en")
    elif k == 7:
        s = f"password: ******** (hidden by the app, I didn't write it down here on purpose)"
    elif k == 8:
        s = f"token = \"{pick(r, ['xxxxxxxxxxxxxxxxxxxx', 'XXXX-XXXX-XXXX-XXXX', '<redacted>', '[REDACTED]', '...'])}\"  # real one is in 1Password"
    elif k == 9:
        s = "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com/v1/me   # TOKEN comes from `gh auth token`"
    elif k == 10:
        s = f"ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX is the placeholder in the onboarding doc - generate your own PAT."
    elif k == 11:
        s = "Example .env from the course:\nSECRET_KEY=dev-secret-change-me\nDEBUG=true\n# never use these values in production"
    elif k == 12:
        s = f"Card number field in the screenshot shows •••• •••• •••• {dg(r, 4)}, rest masked."
    else:
        s = f"Slack token looks like xoxb-XXXXXXXXXXX-XXXXXXXXXXXXX-XXXXXXXXXXXXXXXXXXXXXXXX in their docs; ours lives in Vault."
    return pick(r, ["", "", "Dev note: ", "From the setup guide - "]) + s, "en"


@family("env_ref", "benign", "env_reference", hard=14)
def f_envref(r, v):
    app = pick(r, WORDS)
    k = r.randrange(9)
    if k == 0:
        s = (f"# .env for {app}\nDB_HOST=db.internal\nDB_PORT=5432\nDB_USER={app}_app\nDB_PASSWORD=${{DB_PASSWORD}}\n"
             f"REDIS_URL=redis://cache.internal:6379/0\nLOG_LEVEL=info")
    elif k == 1:
        s = (f"STRIPE_SECRET_KEY=op://Personal/Stripe/{pick(r, ['secret key', 'credential'])}\n"
             f"OPENAI_API_KEY=op://Dev/OpenAI/api-key\n# resolved at runtime by `op run -- npm start`")
    elif k == 2:
        s = (f"env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: {app}-db\n        key: password\n"
             f"  - name: API_TOKEN\n    valueFrom:\n      secretKeyRef:\n        name: {app}-api\n        key: token")
    elif k == 3:
        s = (f"services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n"
             f"    secrets:\n      - db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt")
    elif k == 4:
        s = ("- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n"
             "    SENTRY_AUTH_TOKEN: ${{ secrets.SENTRY_AUTH_TOKEN }}")
    elif k == 5:
        s = ("MasterUserPassword: '{{resolve:ssm-secure:/prod/" + app + "/db/password:" + str(r.randint(1, 9)) + "}}'")
    elif k == 6:
        s = (f"variable \"db_password\" {{\n  type      = string\n  sensitive = true\n}}\n\n"
             f"resource \"aws_db_instance\" \"{app}\" {{\n  username = \"{app}\"\n  password = var.db_password\n}}")
    elif k == 7:
        s = f"API_KEY=\nAPI_SECRET=\n# leave empty; the app reads them from vault:secret/data/{app}#api_key at boot"
    else:
        s = f"SMTP_PASSWORD=${{SMTP_PASSWORD:?must be set}}\nSMTP_USER=notifications@{app}.example.com\nSMTP_HOST=smtp.example.com"
    return pick(r, ["", "", "Config for the side project: ", "My env template (no real values): "]) + s, "en"


@family("config_file", "benign", "config", hard=12)
def f_config(r, v):
    k = r.randrange(6)
    app = pick(r, WORDS)
    if k == 0:
        s = (f"server:\n  port: {pick(r, [8080, 3000, 8000])}\n  read_timeout: {r.randint(5, 60)}s\n"
             f"auth:\n  session_cookie_name: sid\n  token_ttl_seconds: {pick(r, [900, 3600, 86400])}\n"
             f"  password_min_length: {r.randint(10, 16)}\n  mfa_required: true\nfeatures:\n  new_dashboard: {pick(r, ['true', 'false'])}")
    elif k == 1:
        s = (f"[tool.poetry]\nname = \"{app}\"\nversion = \"{r.randint(0, 3)}.{r.randint(0, 20)}.{r.randint(0, 9)}\"\n\n"
             f"[tool.poetry.dependencies]\npython = \"^3.11\"\nrequests = \"^2.31\"\nkeyring = \"^24.3\"")
    elif k == 2:
        s = (f"[loggers]\nkeys=root,{app}\n\n[handlers]\nkeys=console\n\n[formatter_simple]\n"
             f"format=%(asctime)s %(levelname)s %(name)s %(message)s")
    elif k == 3:
        return ({"compilerOptions": {"target": "ES2022", "strict": True, "paths": {"@/*": ["./src/*"]}},
                 "include": ["src"], "exclude": ["node_modules"]}, "en")
    elif k == 4:
        s = (f"server {{\n    listen 443 ssl;\n    server_name {app}.example.com;\n    ssl_certificate /etc/letsencrypt/live/{app}/fullchain.pem;\n"
             f"    ssl_certificate_key /etc/letsencrypt/live/{app}/privkey.pem;\n    location / {{ proxy_pass http://127.0.0.1:{pick(r, [3000, 8080])}; }}\n}}")
    else:
        return ({"app": app, "retry": {"max_attempts": r.randint(2, 6), "backoff_ms": r.randint(100, 2000)},
                 "otp": {"digits": 6, "period_seconds": 30, "issuer": app.capitalize()},
                 "secrets_backend": "aws-secrets-manager", "key_rotation_days": pick(r, [30, 90, 180])}, "en")
    return s, "en"


@family("code_env", "benign", "code", hard=14)
def f_codeenv(r, v):
    k = r.randrange(9)
    var = pick(r, ["OPENAI_API_KEY", "STRIPE_SECRET_KEY", "DB_PASSWORD", "GITHUB_TOKEN", "TWILIO_AUTH_TOKEN", "ANTHROPIC_API_KEY"])
    if k == 0:
        s = f"import os\n\napi_key = os.environ[\"{var}\"]\nclient = Client(api_key=api_key, timeout={r.randint(10, 60)})"
    elif k == 1:
        s = f"const key = process.env.{var};\nif (!key) throw new Error('{var} is not set');"
    elif k == 2:
        s = f"token := os.Getenv(\"{var}\")\nif token == \"\" {{\n\tlog.Fatal(\"missing {var}\")\n}}"
    elif k == 3:
        s = ("import hvac\nclient = hvac.Client(url=os.environ['VAULT_ADDR'])\n"
             f"secret = client.secrets.kv.v2.read_secret_version(path='{pick(r, WORDS)}/db')\n"
             "password = secret['data']['data']['password']")
    elif k == 4:
        s = ("import boto3, json\nsm = boto3.client('secretsmanager')\n"
             f"creds = json.loads(sm.get_secret_value(SecretId='prod/{pick(r, WORDS)}')['SecretString'])")
    elif k == 5:
        s = f"export {var}=$(vault kv get -field=value secret/ci/{var.lower()})\n./run_tests.sh"
    elif k == 6:
        s = f"let key = std::env::var(\"{var}\").expect(\"{var} must be set\");"
    elif k == 7:
        s = f"String pw = System.getenv(\"{var}\");\nDataSource ds = pool(url, user, pw);"
    else:
        s = f"import keyring\npw = keyring.get_password(\"{pick(r, WORDS)}-app\", getpass.getuser())"
    return pick(r, ["", "Snippet that works: ", "Remember this pattern for reading secrets:\n", "From my notes:\n"]) + s, "en"


@family("sql_query", "benign", "sql", hard=10)
def f_sql(r, v):
    n = r.randint(3, 30)
    pool = [f"SELECT user_id, last_login FROM users WHERE password_reset_at > now() - interval '{n} days';",
            f"UPDATE accounts SET pin_attempts = 0, locked = false WHERE id = {dg1(r, 5)};",
            "CREATE TABLE api_keys (id uuid PRIMARY KEY, owner_id bigint NOT NULL, key_hash text NOT NULL, last4 char(4), created_at timestamptz DEFAULT now());",
            f"SELECT category, SUM(amount) FROM expenses WHERE date >= '2025-{r.randint(1, 12):02d}-01' GROUP BY category ORDER BY 2 DESC;",
            f"SELECT date, systolic, diastolic FROM bp_readings WHERE patient_id = {dg1(r, 6)} ORDER BY date DESC LIMIT {n};",
            "GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO analyst_role;",
            f"DELETE FROM sessions WHERE expires_at < now() - interval '{n} hours';",
            f"ALTER TABLE users ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false;  -- migration {dg(r, 4)}"]
    return pick(r, ["", "Query I use: ", "SQL for the monthly report: "]) + pick(r, pool), "en"


@family("k8s_output", "benign", "cli_output", hard=9)
def f_k8s(r, v):
    k = r.randrange(3)
    if k == 0:
        rows = "\n".join(f"{pick(r, ['api', 'worker', 'web', 'cron'])}-{hx(r, 9)}-{an(r, 5, LOWALNUM)}   1/1     Running   {r.randint(0, 4)}          {r.randint(1, 30)}d"
                         for _ in range(r.randint(2, 4)))
        s = "NAME                          READY   STATUS    RESTARTS   AGE\n" + rows
    elif k == 1:
        rows = "\n".join(f"{pick(r, WORDS)}-{pick(r, ['db', 'api', 'tls', 'smtp'])}   {pick(r, ['Opaque', 'kubernetes.io/tls'])}   {r.randint(1, 4)}      {r.randint(1, 300)}d"
                         for _ in range(r.randint(2, 4)))
        s = "$ kubectl get secrets\nNAME              TYPE     DATA   AGE\n" + rows
    else:
        sn = pick(r, WORDS)
        s = (f"$ kubectl describe secret {sn}-db\nName:         {sn}-db\nNamespace:    prod\nType:  Opaque\n\nData\n====\n"
             f"password:  {r.randint(16, 40)} bytes\nusername:  {r.randint(3, 12)} bytes")
    return s, "en"


@family("tf_plan", "benign", "cli_output", hard=8)
def f_tf(r, v):
    app = pick(r, WORDS)
    pool = [f"  # aws_db_instance.{app} will be updated in-place\n  ~ resource \"aws_db_instance\" \"{app}\" {{\n      ~ instance_class = \"db.t3.micro\" -> \"db.t3.small\"\n        password       = (sensitive value)\n    }}",
            f"Outputs:\n\ndb_endpoint = \"{app}.c{an(r, 12, LOWALNUM)}.eu-west-1.rds.amazonaws.com\"\ndb_password = <sensitive>",
            f"Plan: {r.randint(0, 9)} to add, {r.randint(0, 9)} to change, {r.randint(0, 3)} to destroy.\n  + random_password.{app}: result = (sensitive value)",
            f"module.vault.vault_generic_secret.{app}: Refreshing state... [id=secret/{app}]"]
    return pick(r, pool), "en"


@family("http_headers", "benign", "http", hard=8)
def f_headers(r, v):
    k = r.randrange(3)
    if k == 0:
        s = (f"GET /v1/me HTTP/2\nHost: api.example.com\nAuthorization: Bearer <redacted>\nAccept: application/json\n"
             f"X-Request-Id: {uid(r)}\nUser-Agent: {pick(r, WORDS)}-cli/{r.randint(1, 9)}.{r.randint(0, 9)}")
    elif k == 1:
        s = (f"HTTP/1.1 200 OK\nETag: W/\"{hx(r, 16)}\"\nSet-Cookie: theme=dark; Path=/; Max-Age=31536000; SameSite=Lax\n"
             f"Set-Cookie: consent=granted; Path=/\nStrict-Transport-Security: max-age=63072000\nX-Served-By: cache-{pick(r, ['fra', 'ams', 'mad'])}{dg(r, 5)}")
    else:
        s = (f"HTTP/1.1 401 Unauthorized\nWWW-Authenticate: Bearer realm=\"api\", error=\"invalid_token\", error_description=\"The access token expired\"\n"
             f"X-RateLimit-Remaining: {r.randint(0, 500)}\nRetry-After: {r.randint(1, 120)}")
    return s, "en"


@family("dockerfile", "benign", "code", hard=7)
def f_docker(r, v):
    s = (f"FROM python:3.11-slim@sha256:{hx(r, 64)}\nARG APP_VERSION={r.randint(1, 5)}.{r.randint(0, 9)}.{r.randint(0, 9)}\n"
         "RUN --mount=type=secret,id=pip_conf,target=/etc/pip.conf pip install -r requirements.txt\n"
         f"ENV PORT={pick(r, [8000, 8080])} LOG_LEVEL=info\nUSER {r.randint(1000, 1100)}\nCMD [\"gunicorn\", \"app:app\"]")
    return s, "en"


@family("openapi", "benign", "code", hard=7)
def f_openapi(r, v):
    hdr = pick(r, ["X-API-Key", "X-Api-Token", "api-key"])
    s = (f"components:\n  securitySchemes:\n    ApiKeyAuth:\n      type: apiKey\n      in: header\n      name: {hdr}\n"
         f"    bearerAuth:\n      type: http\n      scheme: bearer\n      bearerFormat: JWT\nsecurity:\n  - ApiKeyAuth: []\n"
         f"paths:\n  /v{r.randint(1, 3)}/{pick(r, ['meals', 'budgets', 'shifts', 'readings'])}:\n    get:\n      summary: List items\n"
         f"      parameters:\n        - name: limit\n          in: query\n          schema: {{type: integer, maximum: {pick(r, [50, 100, 500])}}}")
    return s, "en"


@family("cron_regex", "benign", "pattern", hard=8)
def f_cron(r, v):
    pool = [lambda: f"Cron for the reminder job: {pick(r, ['*/15', '0', '30'])} {r.randint(6, 9)} * * {pick(r, ['1-5', '*', '0,6'])}",
            lambda: "Password validation regex from the spec: ^(?=.*\\d)(?=.*[a-z])(?=.*[A-Z])(?=.*[^\\w\\s]).{" + str(r.randint(10, 14)) + ",64}$",
            lambda: f"PIN field pattern: ^\\d{{{pick(r, [4, 6])}}}$ (client-side check only)",
            lambda: f".gitignore has: .env*, !.env.example, *.pem, secrets/, *.key  (added {when(r).strftime('%Y-%m-%d')})",
            lambda: f"Card number mask regex: \\b(?:\\d[ -]*?){{13,19}}\\b -> replace all but last 4",
            lambda: f"systemd timer: OnCalendar=*-*-* {r.randint(0, 23):02d}:{r.randrange(0, 60, 5):02d}:00, Persistent=true"]
    return pick(r, pool)(), "en"


@family("design_token", "benign", "design", hard=8)
def f_design(r, v):
    k = r.randrange(3)
    if k == 0:
        s = "\n".join(f"--{pick(r, ['brand', 'accent', 'surface', 'danger'])}-{n}: #{hx(r, 6)};" for n in (100, 300, 500, 700))
        s = ":root {\n" + s + "\n}"
        return "Design tokens from Figma:\n" + s, "en"
    if k == 1:
        return ({"tokens": {"color": {"primary": {"value": f"#{hx(r, 6)}"}, "secondary": {"value": f"#{hx(r, 6)}"}},
                            "radius": {"md": {"value": f"{r.randint(4, 12)}px"}},
                            "font": {"body": {"value": pick(r, ["Inter", "Source Sans 3", "Noto Sans"])}}}}, "en")
    return f"Kitchen paint: 'Sage Whisper' is #{hx(r, 6).upper()} on screen, RAL {r.randint(1000, 9023)} for the door.", "en"


@family("url_params", "benign", "url", hard=9)
def f_url(r, v):
    k = r.randrange(4)
    if k == 0:
        s = f"https://shop.example.com/p/{pick(r, WORDS)}-{dg(r, 6)}?utm_source=newsletter&utm_medium=email&utm_campaign=spring_{r.randint(2024, 2026)}&ref={an(r, 6, LOWALNUM)}"
    elif k == 1:
        cur = b64utxt(json.dumps({"id": int(dg1(r, 5)), "ts": int(when(r).timestamp())}, separators=(",", ":")))
        s = f"Next page of my transactions: /v1/transactions?limit=50&cursor={cur}"
    elif k == 2:
        s = f"{{\"items\": [...], \"next_page_token\": \"{b64u(r, 24)}\"}}  <- pagination cursor from the photos API"
    else:
        s = f"https://maps.example.com/?q={r.uniform(35, 60):.5f},{r.uniform(-9, 30):.5f}&z={r.randint(10, 18)}&hl={pick(r, ['en', 'de', 'es'])}"
    return s, "en"


@family("error_code", "benign", "error_code", hard=9)
def f_errcode(r, v):
    pool = [("en", lambda: f"Dishwasher shows error E{r.randint(10, 40)} again - drain pump, per the manual."),
            ("en", lambda: f"Windows stop code 0x{HX(r, 8)} (DRIVER_IRQL_NOT_LESS_OR_EQUAL) after the update."),
            ("en", lambda: f"Printer: error {r.randint(10, 99)}.{r.randint(0, 9)}.{dg(r, 2)}, fuser. Technician booked."),
            ("en", lambda: f"Bank app says 'error {dg1(r, 4)}: session expired, please log in again'."),
            ("en", lambda: f"Boiler fault code F.{r.randint(20, 80)} - called the landlord."),
            ("de", lambda: f"Waschmaschine zeigt Fehler F{r.randint(10, 30)}, laut Handbuch Wasserzulauf prüfen."),
            ("es", lambda: f"La caldera marca el error E{dg(r, 3)}, viene el técnico el jueves."),
            ("fr", lambda: f"Le lave-linge affiche l'erreur E{r.randint(10, 40)}, filtre à nettoyer."),
            ("it", lambda: f"La lavastoviglie dà errore E{r.randint(10, 40)}, chiamare l'assistenza.")]
    return ml(r, pool)


@family("version_str", "benign", "version", hard=10)
def f_version(r, v):
    pool = [lambda: f"App version {r.randint(1, 9)}.{r.randint(0, 30)}.{r.randint(0, 20)}-rc.{r.randint(1, 5)}+build.{dg1(r, 4)} crashes on login.",
            lambda: f"Phone is on Android 14 (UP1A.{dg(r, 6)}.{dg(r, 3)}), security patch {when(r).strftime('%Y-%m-%d')}.",
            lambda: f"Router firmware {r.randint(1, 7)}.{r.randint(0, 9)}.{r.randint(0, 9)}.{r.randint(0, 99)}_{when(r).strftime('%Y%m%d')}",
            lambda: f"Chrome {r.randint(120, 131)}.0.{r.randint(6000, 6999)}.{r.randint(10, 200)} (Official Build) (arm64)",
            lambda: f"node v{r.randint(18, 22)}.{r.randint(0, 15)}.{r.randint(0, 3)}, npm {r.randint(9, 10)}.{r.randint(0, 9)}.{r.randint(0, 9)}, pnpm {r.randint(8, 9)}.{r.randint(0, 15)}.{r.randint(0, 9)}",
            lambda: f"iOS {r.randint(16, 18)}.{r.randint(0, 6)}.{r.randint(0, 2)} ({r.randint(20, 22)}{pick(r, UP)}{r.randint(10, 999)}{pick(r, ['', 'a', 'b'])})",
            lambda: f"Insulin pump firmware v{r.randint(1, 4)}.{r.randint(0, 9)}.{dg(r, 4)}; CGM transmitter SW {r.randint(10, 40)}.{r.randint(0, 9)}"]
    return pick(r, pool)(), "en"


@family("net_addr", "benign", "network", hard=10)
def f_net(r, v):
    pool = [("en", lambda: f"Printer is at {ip_priv(r)}, MAC {mac(r)}"),
            ("en", lambda: f"NAS: {ip_priv(r)} / {ip6(r)}, MAC {mac(r, '-').upper()}"),
            ("en", lambda: f"Home subnet is 192.168.{r.randint(0, 200)}.0/24, DHCP range .100-.200, DNS {pick(r, ['1.1.1.1', '9.9.9.9', '8.8.8.8'])}"),
            ("en", lambda: f"Work VPN gives me {ip_priv(r)}; office egress IP is {ip_doc(r)} (for the allow-list)."),
            ("en", lambda: f"Smart plug 'kettle' = {ip_priv(r)} ({mac(r).upper()}), reserved in the router"),
            ("de", lambda: f"Der Drucker hat die IP {ip_priv(r)}, MAC-Adresse {mac(r).upper()}."),
            ("es", lambda: f"La tele está en {ip_priv(r)}, MAC {mac(r)}; reservada en el router."),
            ("nl", lambda: f"IP-adres van de thermostaat: {ip_priv(r)} (MAC {mac(r)})")]
    return ml(r, pool)


@family("router_cfg", "benign", "network", hard=7)
def f_router(r, v):
    pool = [("en", lambda: f"Router: Fritz!Box {pick(r, ['7530', '7590', '6690'])} at 192.168.178.1. Admin login is in the password manager, not here. Guest network on, {pick(r, ['2.4', '5'])} GHz."),
            ("en", lambda: f"Changed router DNS to {pick(r, ['1.1.1.1', '9.9.9.9'])}, enabled WPA3, firmware {r.randint(7, 8)}.{r.randint(0, 60)}. Wifi password unchanged (ask Ana if needed)."),
            ("de", lambda: f"Router-Einstellungen: DHCP {ip_priv(r)}–.{r.randint(150, 250)}, Portweiterleitung {r.randint(1024, 65000)} → NAS. Zugangsdaten stehen im Passwortmanager."),
            ("es", lambda: f"Router de Movistar: IP 192.168.1.1, canal {r.randint(1, 11)}, WPA2/WPA3. La clave de administrador la tiene mi hermano, no la guardes aquí.")]
    return ml(r, pool)


# =====================================================================
# BENIGN look-alikes - B: talk about credentials without any value
# =====================================================================
def _fills(r):
    d = when(r)
    return dict(name=pick(r, FIRST), svc=pick(r, SERVICES), s=pick(r, SVC_SHORT), day=pick(r, WEEKDAYS),
                dm=f"{d.day}.{d.month:02d}.", ds=f"{d.day}/{d.month:02d}", n=r.randint(2, 5),
                month=pick(r, MONTHS), doc=pick(r, DOCTORS), t=hhmm(r))


PW_TALK = [
    ("en", "Need to reset my {svc} PIN tomorrow at the branch, bring ID."),
    ("en", "The door code for the building changed again - ask {name}, she has the new one."),
    ("en", "{name} said the wifi password is on the note on the fridge; don't store it here."),
    ("en", "Remind me to change my {svc} password before {day}; it expires then."),
    ("en", "I use Bitwarden for all my passwords now, so please never keep any password for me."),
    ("en", "Locked out of {svc} after three wrong PIN attempts, have to wait 24 hours."),
    ("en", "The alarm code is the same as before, {name} knows it if the sitter needs it."),
    ("en", "Forgot my voicemail PIN again, need to call the carrier on {day}."),
    ("en", "New debit card arrived; the PIN letter comes separately in a few days."),
    ("en", "The one-time code from {svc} never arrived, asked them to resend it by email."),
    ("en", "My security questions for {svc} need updating - the old answers were too easy to guess."),
    ("en", "Don't save the garage code in notes; {name} will text it when needed."),
    ("en", "Got a 'your password was changed' email from {svc} that I didn't trigger. Called support, it was phishing."),
    ("en", "User prefers to type passwords herself; never offer to remember login details."),
    ("en", "Told {name} the gate code over the phone instead of writing it down."),
    ("en", "Bank asked me to set a new 6-digit passcode for the app; did it at the counter, not noting it anywhere."),
    ("en", "SIM PIN got blocked, need the PUK from the original card holder - it's in the drawer at mum's."),
    ("en", "Password hint for the old laptop is 'the usual' - I'll figure it out at home."),
    ("es", "Mañana tengo que cambiar el PIN de la tarjeta en la oficina de {s}."),
    ("es", "El código del portal cambió, pregúntale a {name}."),
    ("es", "Mi contraseña de {s} caduca el {ds}, recuérdamelo unos días antes."),
    ("es", "No me llegó el código de verificación del banco; lo pediré otra vez."),
    ("fr", "Le code du portail a changé, demander à {name} (la gardienne)."),
    ("fr", "Penser à réinitialiser mon mot de passe {s} avant le {ds}."),
    ("fr", "Je n'ai jamais reçu le code de vérification de {s}, il faut le redemander."),
    ("fr", "Nouveau code PIN de la carte bancaire reçu par courrier, à mémoriser puis détruire la lettre."),
    ("de", "Mein Passwort für {s} läuft am {dm} ab - rechtzeitig ändern."),
    ("de", "Neue PIN für die Girokarte kommt per Post, {name} holt den Brief ab."),
    ("de", "Türcode fürs Büro hat sich geändert, {name} fragen."),
    ("de", "Keine Passwörter hier speichern, die liegen alle im KeePass."),
    ("it", "La password del wifi è cambiata, chiedi a {name}."),
    ("it", "Devo rifare il PIN del bancomat, l'ho sbagliato tre volte."),
    ("it", "Il codice del cancello lo sa {name}, chiederlo prima di partire."),
    ("pt", "A senha do wifi está no papel colado na geladeira, pergunte à {name}."),
    ("pt", "Preciso trocar a senha do {s} até {ds}."),
    ("pt", "O código de verificação do banco não chegou; pedir outro amanhã."),
    ("nl", "Wachtwoord van {s} vergeten, resetlink aangevraagd."),
    ("nl", "De code van de fietsenstalling is veranderd, vraag het aan {name}."),
    ("pl", "Hasło do {s} trzeba zmieniać co 90 dni - przypomnij mi przed {dm}"),
    ("pl", "Kod do domofonu się zmienił, zapytaj {name}."),
    ("sv", "Lösenordet till jobbdatorn går ut nästa vecka, påminn mig."),
    ("sv", "Portkoden har ändrats, fråga {name}."),
    ("tr", "Şifremi unuttum, yarın {s} müşteri hizmetlerini arayacağım."),
    ("tr", "Apartmanın kapı şifresi değişmiş, yenisini {name} biliyor."),
    ("ja", "{s}のパスワードを忘れたので、明日再設定する。"),
    ("ja", "マンションのオートロックの暗証番号が変わった。{name}さんに聞くこと。"),
    ("zh", "{s}的密码下周过期，记得改。"),
    ("zh", "门禁密码换了，问{name}。"),
    ("ko", "{s} 비밀번호를 다음 주까지 바꿔야 함."),
    ("ko", "현관 비밀번호가 바뀌었대요, {name}에게 물어보기."),
    ("ar", "انتهت صلاحية كلمة المرور لحساب {s}، يجب تغييرها هذا الأسبوع."),
    ("ar", "تغيّر رمز البوابة، اسأل {name}."),
    ("hi", "{s} का पासवर्ड अगले हफ़्ते तक बदलना है।"),
    ("hi", "एटीएम पिन कल बैंक जाकर बदलवाना है।"),
    ("vi", "Mật khẩu wifi mới thì hỏi {name}."),
    ("vi", "Phải đổi mã PIN thẻ ngân hàng vào tuần sau."),
]


@family("pw_talk", "benign", "credential_talk", hard=30)
def f_pwtalk(r, v):
    return ml(r, PW_TALK, **_fills(r))


@family("pw_policy", "benign", "password_policy", hard=14)
def f_pwpolicy(r, v):
    f = dict(n=r.randint(8, 16), k=r.randint(3, 12), d=pick(r, [60, 90, 180, 365]), a=r.randint(3, 10),
             m=r.randint(5, 30), org=pick(r, ["Company", "Hospital", "University", "Clinic", "Bank"]))
    pool = [("en", "{org} password policy: at least {n} characters, one digit, one symbol, no reuse of the last {k}, rotate every {d} days."),
            ("en", "New rules at work: passphrases of {n}+ characters allowed, no forced rotation, account locks after {a} failed attempts for {m} minutes."),
            ("en", "The bank app PIN must be 6 digits, no repeating or sequential digits (no 111111 or 123456 style)."),
            ("en", lambda **f: json.dumps({"password_policy": {"min_length": f["n"], "require": ["upper", "lower", "digit", "symbol"],
                                                                "history": f["k"], "max_age_days": f["d"], "lockout": {"attempts": f["a"], "minutes": f["m"]}}})),
            ("es", "Política de contraseñas: mínimo {n} caracteres, una mayúscula, un número y un símbolo; caduca cada {d} días."),
            ("fr", "Règle du service informatique : mot de passe d'au moins {n} caractères, renouvelé tous les {d} jours, pas de réutilisation des {k} derniers."),
            ("de", "Passwortrichtlinie: mindestens {n} Zeichen, Groß- und Kleinbuchstaben, eine Ziffer; Sperre nach {a} Fehlversuchen."),
            ("it", "Requisiti password: almeno {n} caratteri, una cifra e un simbolo; scade ogni {d} giorni."),
            ("pt", "Regra da empresa: senha com no mínimo {n} caracteres e troca a cada {d} dias."),
            ("pl", "Zasady haseł: co najmniej {n} znaków, cyfra i znak specjalny, zmiana co {d} dni."),
            ("ja", "社内のパスワード規則：{n}文字以上、英大文字・小文字・数字を含む、{d}日ごとに変更。"),
            ("zh", "公司密码规则：至少{n}位，包含数字和符号，每{d}天更换一次。"),
            ("ko", "회사 비밀번호 정책: {n}자 이상, 숫자와 특수문자 포함, {d}일마다 변경."),
            ("nl", "Wachtwoordbeleid: minimaal {n} tekens, één cijfer en één symbool; na {a} foute pogingen geblokkeerd.")]
    lang, t = r.choice(pool)
    return (t(**f) if callable(t) else t.format(**f)), lang


@family("twofa_setup", "benign", "mfa_instructions", hard=14)
def f_2fa(r, v):
    f = _fills(r)
    f["app"] = pick(r, ["Google Authenticator", "Authy", "Microsoft Authenticator", "1Password", "Aegis", "FreeOTP"])
    pool = [("en", "To turn on 2FA for {s}: Settings > Security > Two-step verification, scan the QR code with {app}, then type the 6-digit code it shows."),
            ("en", "Set up {app} on the new phone: export accounts from the old phone first, then scan the transfer QR. Don't wipe the old phone until every login works."),
            ("en", "{s} backup codes are printed and in the fireproof box with the passports - not stored digitally."),
            ("en", "IT says: enroll a hardware key (YubiKey) as second factor, keep SMS only as fallback."),
            ("en", "When {s} asks for the verification code, it arrives by SMS within a minute; if not, use the authenticator app instead."),
            ("es", "Para activar la verificación en dos pasos en {s}: Ajustes > Seguridad, escanear el código QR con {app} y escribir el código de 6 dígitos."),
            ("fr", "Activer la double authentification sur {s} : scanner le QR code avec {app}, puis saisir le code à 6 chiffres affiché."),
            ("de", "Zwei-Faktor-Authentifizierung für {s}: QR-Code mit {app} scannen, dann den 6-stelligen Code eingeben. Backup-Codes ausdrucken."),
            ("it", "Per attivare l'autenticazione a due fattori su {s}: scansiona il QR con {app} e inserisci il codice a 6 cifre."),
            ("pt", "Ativar a verificação em duas etapas no {s}: ler o QR code com o {app} e digitar o código de 6 dígitos."),
            ("ja", "{s}の二段階認証：設定から{app}でQRコードを読み取り、表示された6桁のコードを入力する。"),
            ("zh", "开启{s}两步验证：用{app}扫描二维码，然后输入显示的6位验证码。"),
            ("ko", "{s} 2단계 인증 설정: {app}으로 QR 코드를 스캔하고 6자리 코드를 입력."),
            ("sv", "Tvåstegsverifiering för {s}: skanna QR-koden med {app} och skriv in den sexsiffriga koden."),
            ("tr", "{s} için iki adımlı doğrulama: QR kodunu {app} ile tara, çıkan 6 haneli kodu gir.")]
    return ml(r, pool, **f)


@family("email_ticket", "benign", "email", hard=12)
def f_email(r, v):
    f = _fills(r)
    f.update(last4=dg(r, 4), tk=dg1(r, 5), acct=f"{pick(r, FIRST).lower().replace('í', 'i').replace('-', '')}.{pick(r, LAST).lower()[:4]}@example.com")
    pool = [("en", "Subject: Your {s} account ending in {last4}\n\nHi {name}, we noticed a sign-in from a new device. If this was you, no action is needed. "
                   "We will never ask for your password or one-time code by email."),
            ("en", "Ticket #{tk}: user {acct} cannot log in after password reset. Reset link re-sent, MFA device re-enrolled by helpdesk. Status: solved."),
            ("en", "From: IT Service Desk\nSubject: Password expiry reminder\n\nYour network password expires in {n} days. Change it at the self-service portal. Do not reply with your password."),
            ("en", "Email from {s}: 'Your verification code has expired. Request a new one from the login page.' - ignore, I already logged in."),
            ("en", "Support chat transcript: agent confirmed my account {acct} is verified and unlocked; no credentials were shared."),
            ("es", "Asunto: Acceso a tu cuenta de {s}\n\nHola {name}: hemos restablecido el acceso. Nunca te pediremos tu contraseña por correo."),
            ("fr", "Objet : Ticket n° {tk} - compte {acct} débloqué. Le mot de passe a été réinitialisé par l'utilisateur lui-même."),
            ("de", "Betreff: Ihr Konto bei {s}\n\nSehr geehrte/r {name}, Ihr Zugang wurde entsperrt. Wir fragen niemals nach PIN oder TAN."),
            ("it", "Oggetto: ticket {tk} - l'utente {acct} non riceve il codice OTP. Verificato numero di telefono, risolto."),
            ("nl", "Onderwerp: ticket {tk} - gebruiker {acct} kan niet inloggen. Wachtwoord door gebruiker gereset, opgelost.")]
    return ml(r, pool, **f)


def chat(*pairs):
    out = []
    for i, c in enumerate(pairs):
        out.append({"role": "user" if i % 2 == 0 else "assistant", "content": c})
    return out


@family("chat_transcript", "benign", "chat", hard=16)
def f_chat(r, v):
    f = _fills(r)
    k = r.randrange(12)
    if k == 0:
        return chat(f"I never got the verification code from {f['s']}, what should I do?",
                    "Wait a minute, check spam, then tap 'resend'. Never share the code with anyone who calls you."), "en"
    if k == 1:
        return chat("Can you remember my bank PIN for me?",
                    "I'd rather not store PINs or passwords. A password manager is a safer place for that.",
                    "ok fair, just remind me that I changed it last week then"), "en"
    if k == 2:
        return chat(f"What time is my appointment with {f['doc']}?", f"{f['day']} at {f['t']}, room {r.randint(100, 450)}."), "en"
    if k == 3:
        return chat(f"How many grams of carbs in {r.randint(100, 250)} g of cooked rice?",
                    f"Roughly {r.randint(35, 70)} g, depending on the rice."), "en"
    if k == 4:
        return chat("¿Qué hago si olvidé la contraseña del correo?",
                    "Usa 'He olvidado mi contraseña' en la pantalla de inicio y sigue el enlace que te envían."), "es"
    if k == 5:
        return chat("Mon code de carte bancaire est bloqué, c'est grave ?",
                    "Non : la banque peut le débloquer, ou vous pouvez le faire à un distributeur de votre banque."), "fr"
    if k == 6:
        return chat("Wie richte ich die Zwei-Faktor-Anmeldung ein?",
                    "In den Sicherheitseinstellungen den QR-Code mit der Authenticator-App scannen und den angezeigten Code bestätigen."), "de"
    if k == 7:
        return [{"role": "system", "content": "You are a budgeting assistant."},
                {"role": "user", "content": f"I spent {r.randint(20, 200)}.{dg(r, 2)} on groceries this week, is that over budget?"},
                {"role": "assistant", "content": f"Your weekly grocery budget is {r.randint(80, 250)}, so you're within it."}], "en"
    if k == 8:
        return chat("パスワードを安全に管理するには？", "パスワードマネージャーを使い、使い回しを避けてください。"), "ja"
    if k == 9:
        return chat("验证码一直收不到怎么办？", "先检查短信拦截，再点击重新发送；不要把验证码告诉任何人。"), "zh"
    if k == 10:
        return chat(f"Remind me which gate {f['name']}'s flight leaves from", f"Gate {pick(r, 'ABCDE')}{r.randint(1, 60)}, boarding {f['t']}."), "en"
    return chat("Il mio PIN del telefono non funziona più", "Dopo troppi tentativi serve il codice PUK, che trovi sulla tessera della SIM o chiedendo all'operatore."), "it"


# =====================================================================
# BENIGN look-alikes - C: health numbers
# =====================================================================
MEDS = [("Metformin", [500, 850, 1000], "mg"), ("Levothyroxine", [50, 75, 88, 100], "mcg"), ("Lisinopril", [5, 10, 20], "mg"),
        ("Atorvastatin", [10, 20, 40], "mg"), ("Sertraline", [25, 50, 100], "mg"), ("Amlodipine", [5, 10], "mg"),
        ("Vitamin D3", [1000, 2000, 4000], "IU"), ("Ibuprofen", [200, 400, 600], "mg"), ("Omeprazole", [20, 40], "mg"),
        ("Insulin glargine", [10, 14, 18, 22, 26], "units"), ("Prednisolone", [5, 10, 20], "mg"), ("Apixaban", [2.5, 5], "mg")]


@family("med_dose", "benign", "medication", hard=14)
def f_meddose(r, v):
    m, doses, u = pick(r, MEDS)
    f = dict(m=m, d=pick(r, doses), u=u, t=hhmm(r, 15), n=r.randint(5, 14), doc=pick(r, DOCTORS))
    pool = [("en", "{m} {d} {u} twice daily with meals, started by {doc}."),
            ("en", "Take {m} {d} {u} at {t}; refill due in {n} days."),
            ("en", "{doc} raised {m} to {d} {u} once daily; recheck in {n} weeks."),
            ("en", lambda **f: json.dumps({"medication": f["m"], "dose": f["d"], "unit": f["u"], "schedule": ["08:00", "20:00"], "prescriber": f["doc"]})),
            ("es", "{m} {d} {u} cada 12 horas durante {n} días."),
            ("fr", "{m} {d} {u} le matin à jeun, pendant {n} jours."),
            ("de", "{m} {d} {u} täglich um {t} Uhr, laut {doc}."),
            ("it", "{m} {d} {u} dopo cena per {n} giorni."),
            ("pt", "Tomar {m} {d} {u} às {t}."),
            ("ja", "{m} {d}{u}を1日2回、朝夕食後。"),
            ("ko", "{m} {d}{u} 하루 한 번, {t}."),
            ("hi", "{m} {d} {u} रोज़ सुबह {t} बजे।")]
    return ml(r, pool, **f)


@family("lab_value", "benign", "lab_result", hard=14)
def f_lab(r, v):
    f = dict(a1c=f"{r.uniform(5.2, 8.5):.1f}", a1c0=f"{r.uniform(5.2, 8.5):.1f}", ldl=r.randint(70, 190), hdl=r.randint(35, 80),
             tg=r.randint(60, 300), tsh=f"{r.uniform(0.4, 5.5):.2f}", egfr=r.randint(45, 110), fer=r.randint(8, 300),
             vitd=r.randint(12, 60), hb=f"{r.uniform(10.5, 16.5):.1f}", crp=f"{r.uniform(0.1, 25):.1f}", mon=pick(r, MONTHS))
    pool = [("en", "HbA1c {a1c}% (was {a1c0}% in {mon})."),
            ("en", "Lipids: LDL {ldl} mg/dL, HDL {hdl} mg/dL, triglycerides {tg} mg/dL."),
            ("en", "TSH {tsh} mIU/L, eGFR {egfr} mL/min/1.73m², ferritin {fer} ng/mL."),
            ("en", "Vitamin D came back at {vitd} ng/mL; doctor wants it above 30."),
            ("en", lambda **f: json.dumps({"panel": "CBC", "hemoglobin_g_dl": float(f["hb"]), "crp_mg_l": float(f["crp"]), "ferritin_ng_ml": f["fer"]})),
            ("es", "Análisis: hemoglobina {hb} g/dL, PCR {crp} mg/L, ferritina {fer} ng/mL."),
            ("fr", "Bilan sanguin : HbA1c {a1c} %, LDL {ldl} mg/dL, TSH {tsh} mUI/L."),
            ("de", "Laborwerte: HbA1c {a1c} %, LDL {ldl} mg/dl, eGFR {egfr}."),
            ("it", "Esami del sangue: emoglobina {hb} g/dL, vitamina D {vitd} ng/mL."),
            ("pl", "Wyniki: TSH {tsh} mIU/l, ferrytyna {fer} ng/ml."),
            ("sv", "Provsvar: Hb {hb} g/dL, CRP {crp} mg/L."),
            ("zh", "化验结果：糖化血红蛋白 {a1c}%，低密度脂蛋白 {ldl} mg/dL。"),
            ("ar", "نتيجة التحليل: السكر التراكمي {a1c}٪ والكوليسترول الضار {ldl} ملغ/دل."),
            ("vi", "Kết quả xét nghiệm: HbA1c {a1c}%, LDL {ldl} mg/dL.")]
    return ml(r, pool, **f)


ICD = [("E11.9", "type 2 diabetes without complications"), ("I10", "essential hypertension"), ("J45.909", "asthma, uncomplicated"),
       ("M54.5", "low back pain"), ("E78.5", "hyperlipidemia"), ("F41.1", "generalized anxiety disorder"), ("K21.9", "GERD"),
       ("E03.9", "hypothyroidism"), ("G43.909", "migraine"), ("Z00.00", "general adult exam")]
CPT = ["99213", "99214", "80053", "85025", "83036", "93000", "90686", "36415", "97110", "99396"]


@family("med_code", "benign", "medical_code", hard=12)
def f_medcode(r, v):
    c, desc = pick(r, ICD); c2, d2 = pick(r, ICD)
    f = dict(c=c, desc=desc, c2=c2, cpt=pick(r, CPT), cpt2=pick(r, CPT), amt=f"{r.randint(40, 600)}.{dg(r, 2)}")
    pool = [("en", "Insurance EOB lists CPT {cpt} and {cpt2}, diagnosis ICD-10 {c} ({desc}); patient owes ${amt}."),
            ("en", "Diagnosis code on the referral: {c} - {desc}."),
            ("en", "Claim was denied because CPT {cpt} didn't match ICD-10 {c2}; asked the clinic to resubmit."),
            ("en", lambda **f: json.dumps({"claim_lines": [{"cpt": f["cpt"], "icd10": [f["c"]]}, {"cpt": f["cpt2"], "icd10": [f["c2"]]}]})),
            ("es", "El informe dice CIE-10 {c} ({desc})."),
            ("de", "Diagnose laut Überweisung: ICD-10 {c}."),
            ("fr", "Code CIM-10 sur l'ordonnance : {c}."),
            ("pt", "CID-10 no atestado: {c}.")]
    return ml(r, pool, **f)


@family("mrn", "benign", "record_number", hard=12)
def f_mrn(r, v):
    f = dict(mrn=dg(r, pick(r, [7, 8, 9])), hosp=pick(r, ["St. Mary's", "City General", "Riverside Clinic", "Hospital Clínic", "Charité"]),
             pid=f"PT-{r.randint(2019, 2025)}-{dg(r, 6)}", enc=dg1(r, 10), name=pick(r, FIRST))
    pool = [("en", "My MRN at {hosp} is {mrn} - they ask for it at every check-in."),
            ("en", "Mum's hospital record number (MRN): {mrn}. Patient ID on the wristband: {pid}."),
            ("en", "Encounter number {enc} for the ER visit, needed for the insurance claim."),
            ("en", lambda **f: json.dumps({"patient": {"mrn": f["mrn"], "facility": f["hosp"]}, "encounter_id": f["enc"]})),
            ("es", "Número de historia clínica en {hosp}: {mrn}."),
            ("de", "Fallnummer im Krankenhaus: {enc}, Patientennummer {mrn}."),
            ("fr", "Numéro de dossier patient à {hosp} : {mrn}."),
            ("it", "Numero di cartella clinica di {name}: {mrn}."),
            ("nl", "Patiëntnummer bij het ziekenhuis: {mrn}."),
            ("ja", "診察券番号は{mrn}。")]
    return ml(r, pool, **f)


@family("bp_reading", "benign", "vital_signs", hard=12)
def f_bp(r, v):
    def bp(): return f"{r.randint(105, 165)}/{r.randint(62, 102)}"
    f = dict(b1=bp(), b2=bp(), b3=bp(), p=r.randint(52, 98), t=hhmm(r))
    pool = [("en", "BP this morning {b1}, pulse {p}."),
            ("en", "Blood pressure log: Mon {b1}, Wed {b2}, Fri {b3} - all seated, left arm."),
            ("en", lambda **f: json.dumps([{"time": "07:30", "bp": f["b1"], "hr": f["p"]}, {"time": "21:00", "bp": f["b2"], "hr": f["p"] - 3}])),
            ("es", "Tensión de hoy: {b1}, pulso {p}."),
            ("de", "Blutdruck um {t}: {b1}, Puls {p}."),
            ("fr", "Tension ce matin : {b1}, pouls {p}."),
            ("it", "Pressione alle {t}: {b1}."),
            ("ja", "血圧 {b1}、脈拍 {p}（朝）。"),
            ("tr", "Sabah tansiyon {b1}, nabız {p}."),
            ("ar", "ضغط الدم صباحاً {b1}، النبض {p}."),
            ("hi", "आज सुबह बीपी {b1}, पल्स {p}।")]
    return ml(r, pool, **f)


@family("glucose", "benign", "glucose_log", hard=12)
def f_glucose(r, v):
    k = r.randrange(6)
    if k == 0:
        return "Fasting glucose this week: " + ", ".join(str(r.randint(84, 140)) for _ in range(7)) + " mg/dL", "en"
    if k == 1:
        return "CGM: " + " ".join(f"{r.uniform(4.2, 11.5):.1f}" for _ in range(8)) + " mmol/L (every 3 h)", "en"
    if k == 2:
        d = when(r)
        return ([{"ts": (d + timedelta(minutes=15 * i)).strftime("%Y-%m-%dT%H:%M"), "mg_dl": r.randint(70, 210), "trend": pick(r, ["flat", "up", "down"])}
                 for i in range(r.randint(3, 6))], "en")
    if k == 3:
        return f"Glucemia en ayunas: {r.randint(85, 130)}, {r.randint(85, 130)}, {r.randint(85, 130)} mg/dL.", "es"
    if k == 4:
        return f"Blutzucker nüchtern {r.uniform(4.5, 7.5):.1f} mmol/l, nach dem Essen {r.uniform(6, 11):.1f}.", "de"
    return f"Glycémie : {r.randint(90, 180)} mg/dL avant le dîner, {r.randint(100, 200)} deux heures après.", "fr"


@family("wearable", "benign", "fitness_data", hard=8)
def f_wear(r, v):
    f = dict(hr=r.randint(48, 75), hrv=r.randint(20, 90), sl=r.randint(55, 95), st=f"{r.randint(3000, 18000):,}", vo=r.randint(30, 55),
             kcal=r.randint(1600, 3200), spo=r.randint(93, 99))
    pool = [("en", "Watch summary: resting HR {hr}, HRV {hrv} ms, sleep score {sl}, {st} steps."),
            ("en", lambda **f: json.dumps({"date": "2025-05-02", "steps": int(f["st"].replace(",", "")), "resting_hr": f["hr"], "spo2": f["spo"], "vo2max": f["vo"]})),
            ("de", "Ruhepuls {hr}, Schlafwert {sl}, {kcal} kcal verbraucht."),
            ("sv", "Vilopuls {hr}, HRV {hrv} ms, sömnpoäng {sl}."),
            ("ko", "오늘 걸음 수 {st}, 안정시 심박수 {hr}.")]
    return ml(r, pool, **f)


@family("vax_lot", "benign", "vaccination", hard=7)
def f_vax(r, v):
    d = when(r)
    f = dict(lot=an(r, 2, UP) + dg(r, 4), d=d.strftime("%Y-%m-%d"), vac=pick(r, ["flu", "COVID-19 booster", "tetanus (Tdap)", "hepatitis B dose 2", "shingles dose 1"]))
    pool = [("en", "Got the {vac} shot on {d}, lot number {lot}, left arm."),
            ("en", lambda **f: json.dumps({"vaccine": f["vac"], "date": f["d"], "lot": f["lot"], "site": "deltoid"})),
            ("es", "Vacuna ({vac}) puesta el {d}, lote {lot}."),
            ("de", "Impfung ({vac}) am {d}, Charge {lot}.")]
    return ml(r, pool, **f)


@family("appointment", "benign", "appointment", hard=14)
def f_appt(r, v):
    d = when(r)
    f = dict(doc=pick(r, DOCTORS), day=pick(r, WEEKDAYS), dd=d.day, mon=pick(r, MONTHS), t=hhmm(r), room=f"{r.randint(1, 6)}{pick(r, 'ABCDE')}",
             rn=r.randint(100, 520), ds=d.strftime("%d/%m"), dm=d.strftime("%d.%m."), iso=d.strftime("%Y-%m-%d"))
    pool = [("en", "Dentist {day} {dd} {mon} at {t}, {doc}, room {room}."),
            ("en", "Physio every {day} at {t}, first session {iso}."),
            ("en", "Follow-up with {doc} on {iso} at {t}; bring the glucose log."),
            ("es", "Cita con {doc} el {ds} a las {t}, consulta {rn}."),
            ("fr", "Rendez-vous chez {doc} le {ds} à {t}, salle {room}."),
            ("de", "Termin bei {doc} am {dm} um {t} Uhr, Raum {rn}."),
            ("it", "Visita da {doc} il {ds} alle {t}, ambulatorio {rn}."),
            ("pt", "Consulta com {doc} em {ds} às {t}, sala {rn}."),
            ("nl", "Afspraak bij {doc} op {ds} om {t}, kamer {rn}."),
            ("pl", "Wizyta u {doc} {dm} o {t}, gabinet {rn}."),
            ("sv", "Tid hos {doc} den {ds} kl. {t}, rum {rn}."),
            ("ja", "{iso} {t} {doc}の診察、{rn}番診察室。"),
            ("ko", "{iso} {t} {doc} 진료, {rn}호."),
            ("vi", "Lịch hẹn với {doc} ngày {ds} lúc {t}, phòng {rn}.")]
    return ml(r, pool, **f)


@family("room_ward", "benign", "location", hard=10)
def f_room(r, v):
    f = dict(w=f"{r.randint(1, 9)}{pick(r, 'ABCD')}", bed=r.randint(1, 32), rm=r.randint(100, 920), fl=r.randint(1, 9), name=pick(r, FIRST))
    pool = [("en", "Dad is in ward {w}, bed {bed}, room {rm}. Visiting 14:00-19:00."),
            ("en", "{name} moved to room {rm} on floor {fl}, bed by the window ({bed})."),
            ("de", "Oma liegt auf Station {w}, Zimmer {rm}, Bett {bed}."),
            ("es", "Mamá está en la habitación {rm}, planta {fl}, cama {bed}."),
            ("fr", "Papa est chambre {rm}, service {w}, lit {bed}."),
            ("it", "Il nonno è nel reparto {w}, stanza {rm}, letto {bed}."),
            ("pt", "O avô está no quarto {rm}, leito {bed}, {fl}º andar."),
            ("tr", "Babam {fl}. katta, {rm} numaralı odada, yatak {bed}."),
            ("ar", "والدي في الجناح {w}، الغرفة {rm}، السرير {bed}."),
            ("zh", "外婆住在{fl}楼{rm}病房{bed}床。")]
    return ml(r, pool, **f)


# =====================================================================
# BENIGN look-alikes - D: everyday identifiers and numbers
# =====================================================================
@family("address", "benign", "address", hard=14)
def f_address(r, v):
    f = dict(no=r.randint(1, 240), apt=f"{r.randint(1, 30)}{pick(r, ['', 'B', 'C', ''])}", fl=r.randint(1, 25), name=pick(r, FIRST),
             us=dg1(r, 5), de=dg1(r, 5), nl=f"{dg1(r, 4)} {an(r, 2, UP)}", uk=f"{pick(r, ['LS', 'M', 'SW', 'EH', 'BS'])}{r.randint(1, 20)} {r.randint(1, 9)}{an(r, 2, 'ABDEFGHJLNPQRSTUWXYZ')}",
             pl=f"{dg(r, 2)}-{dg(r, 3)}", se=f"{dg1(r, 3)} {dg(r, 2)}", jp=f"{dg1(r, 3)}-{dg(r, 4)}", ca=f"{pick(r, 'KMTV')}{r.randint(1, 9)}{pick(r, UP)} {r.randint(1, 9)}{pick(r, UP)}{r.randint(1, 9)}",
             st=pick(r, ["Elm St", "Oak Avenue", "Maple Road", "Baker St", "Pine Lane"]))
    fl = f["fl"]
    f["flo"] = f"{fl}{'th' if 10 <= fl % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(fl % 10, 'th')}"
    pool = [("en", "New address: {no} {st}, Apt {apt}, {flo} floor, zip {us}."),
            ("en", "Office moved to building C, floor {fl}, desk area {apt} - postcode {uk}."),
            ("en", "{name}'s place is flat {apt}, {no} {st}, {uk}; buzz twice."),
            ("de", "Neue Adresse: Lindenstraße {no}, Wohnung {apt}, {fl}. OG, {de} Berlin."),
            ("nl", "Ons nieuwe adres: Kerkstraat {no}, {nl} Utrecht, {fl}e verdieping."),
            ("pl", "Adres: ul. Długa {no} m. {apt}, {pl} Kraków, piętro {fl}."),
            ("sv", "Adress: Storgatan {no}, lgh {apt}, {se} Göteborg."),
            ("ja", "〒{jp} 大阪市北区梅田{no}-{fl}、{apt}号室"),
            ("es", "Calle Mayor {no}, {fl}º {apt}, CP {de}, Madrid."),
            ("fr", "{no} rue des Lilas, bâtiment B, {fl}e étage, appartement {apt}, {de} Lyon."),
            ("it", "Via Roma {no}, interno {apt}, piano {fl}, CAP {de} Bologna."),
            ("pt", "Rua das Flores {no}, {fl}º andar, apto {apt}, CEP {de}-{pl}."),
            ("en", "Canada office: {no} Bank St, suite {apt}, Ottawa ON {ca}.")]
    return ml(r, pool, **f)


@family("phone", "benign", "phone_number", hard=14)
def f_phone(r, v):
    f = dict(name=pick(r, FIRST), us=f"(415) 555-01{dg(r, 2)}", es=f"+34 6{dg(r, 2)} {dg(r, 3)} {dg(r, 3)}",
             de=f"+49 15{dg(r, 1)} {dg(r, 8)}", fr=f"+33 6 {dg(r, 2)} {dg(r, 2)} {dg(r, 2)} {dg(r, 2)}", uk=f"+44 7700 900{dg(r, 3)}",
             jp=f"090-{dg(r, 4)}-{dg(r, 4)}", it=f"+39 3{dg(r, 2)} {dg(r, 3)} {dg(r, 4)}", ext=dg1(r, 3), doc=pick(r, DOCTORS),
             ind=f"+91 9{dg(r, 4)} {dg(r, 5)}", br=f"+55 11 9{dg(r, 4)}-{dg(r, 4)}")
    pool = [("en", "{name}'s mobile: {us}"), ("en", "Clinic front desk {uk}, ext. {ext}; ask for {doc}'s nurse."),
            ("en", "Plumber: {de} (speaks English)."), ("es", "El teléfono de {name} es {es}."),
            ("fr", "Numéro du cabinet : {fr}."), ("de", "Handy von {name}: {de}"), ("ja", "{name}さんの携帯：{jp}"),
            ("it", "Cellulare di {name}: {it}"), ("hi", "{name} का नंबर: {ind}"), ("pt", "Celular da {name}: {br}"),
            ("en", "Emergency contacts: {name} {es}; neighbour {uk}.")]
    return ml(r, pool, **f)


@family("travel", "benign", "travel", hard=14)
def f_travel(r, v):
    f = dict(al=pick(r, ["LH", "BA", "IB", "AF", "KL", "TK", "NH", "LX", "SK", "FR"]), fn=r.randint(100, 9999), seat=f"{r.randint(1, 45)}{pick(r, 'ABCDEF')}",
             gate=f"{pick(r, 'ABCDEGK')}{r.randint(1, 70)}", t=hhmm(r), t2=hhmm(r), wag=r.randint(1, 14), pl=r.randint(11, 98),
             tr=r.randint(100, 9999), car=r.randint(1, 16), pnr=an(r, 6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"), city=pick(r, CITY))
    pool = [("en", "Flight {al} {fn} to {city}, seat {seat}, gate {gate}, boarding {t}."),
            ("en", "Return {al}{fn} departs {t}, lands {t2}; booking ref {pnr}, seat {seat}."),
            ("de", "ICE {tr}, Wagen {wag}, Platz {pl}, Abfahrt {t} Gleis {car}."),
            ("es", "AVE {tr}, coche {car}, plaza {seat}, sale a las {t}."),
            ("fr", "TGV {tr}, voiture {car}, place {pl}, départ {t}."),
            ("it", "Frecciarossa {tr}, carrozza {car}, posto {seat}, partenza {t}."),
            ("ja", "のぞみ{fn}号 {car}号車 {seat}席 {t}発"),
            ("nl", "Vlucht {al}{fn}, stoel {seat}, gate {gate}."),
            ("sv", "Tåg {tr}, vagn {car}, plats {pl}, avgång {t}."),
            ("tr", "{al} {fn} sefer sayılı uçuş, koltuk {seat}, kapı {gate}."),
            ("zh", "航班{al}{fn}，座位{seat}，登机口{gate}，{t}登机。"),
            ("ko", "{al}{fn}편, 좌석 {seat}, 탑승구 {gate}, {t} 탑승.")]
    return ml(r, pool, **f)


@family("booking_ref", "benign", "reference_number", hard=18)
def f_booking(r, v):
    f = dict(amz=f"{dg(r, 3)}-{dg(r, 7)}-{dg(r, 7)}", ups=f"1Z{an(r, 6, UPALNUM)}{dg(r, 10)}", pnr=an(r, 6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"),
             inv=f"INV-{r.randint(2023, 2026)}-{dg(r, 5)}", clm=f"CLM-{dg1(r, 8)}", pol=f"{an(r, 2, UP)}-{dg1(r, 7)}-{dg(r, 2)}",
             tk=dg1(r, 6), dhl=dg1(r, 10), hotel=dg1(r, 10), usps=f"9400 {dg(r, 4)} {dg(r, 4)} {dg(r, 4)} {dg(r, 4)} {dg(r, 2)}",
             ord=f"#{dg1(r, 7)}", name=pick(r, FIRST))
    pool = [("en", "Amazon order {amz} - the kettle, arriving Thursday."),
            ("en", "UPS tracking {ups}, signature required."),
            ("en", "Hotel confirmation {hotel}, PIN-free check-in at the kiosk with the booking name."),
            ("en", "Invoice {inv} from the accountant, due in 14 days."),
            ("en", "Insurance claim {clm} for the broken phone; policy no. {pol}."),
            ("en", "USPS tracking: {usps}"),
            ("en", "Support ticket #{tk} about the double charge."),
            ("en", lambda **f: json.dumps({"order_id": f["ord"], "status": "shipped", "carrier": "DHL", "tracking": f["dhl"], "items": 2})),
            ("es", "Número de pedido {ord}, seguimiento DHL {dhl}."),
            ("fr", "Référence de réservation {pnr}, facture {inv}."),
            ("de", "Sendungsnummer DHL {dhl}, Bestellung {ord}."),
            ("it", "Numero pratica sinistro {clm}, polizza {pol}."),
            ("pt", "Código de rastreio {ups}; pedido {ord}."),
            ("pl", "Numer przesyłki {dhl}, faktura {inv}."),
            ("ja", "注文番号 {amz}、配送はヤマト運輸。"),
            ("zh", "订单号 {ord}，快递单号 {dhl}。")]
    return ml(r, pool, **f)


@family("loyalty", "benign", "membership_number", hard=12)
def f_loyalty(r, v):
    f = dict(mm=f"992 {dg(r, 3)} {dg(r, 4)} {dg(r, 4)}", costco=f"{dg1(r, 3)} {dg(r, 3)} {dg(r, 3)} {dg(r, 3)}",
             lib=f"2{dg(r, 13)}", gym=dg1(r, 8), ff=f"{an(r, 2, UP)}{dg(r, 9)}", pb=f"{dg(r, 4)} {dg(r, 4)} {dg(r, 4)}", name=pick(r, FIRST),
             nhs=f"{dg1(r, 3)} {dg(r, 3)} {dg(r, 4)}")
    pool = [("en", "Miles & More number {mm} - add it to the {name} booking too."),
            ("en", "Costco membership {costco}, renews in March."),
            ("en", "Library card barcode {lib}."),
            ("en", "Gym membership ID {gym} (the app shows it as a QR at the door)."),
            ("en", "Frequent flyer {ff}, status silver."),
            ("de", "Payback-Kundennummer {pb}."), ("es", "Número de socio del club: {gym}."),
            ("fr", "Carte de fidélité Monoprix n° {pb}."), ("nl", "Bonuskaart nummer {pb}."),
            ("sv", "Medlemsnummer ICA: {gym}."), ("ja", "ポイントカード番号 {pb}"), ("ko", "멤버십 번호 {gym}")]
    return ml(r, pool, **f)


@family("gym_locker", "benign", "locker", hard=10)
def f_locker(r, v):
    f = dict(n=r.randint(1, 480), name=pick(r, FIRST), day=pick(r, WEEKDAYS))
    pool = [("en", "My locker at the gym is {n}, the one next to the sauna."),
            ("en", "Swim club: locker {n} is mine on {day}s; bring my own padlock."),
            ("en", "Work locker {n} on the 2nd floor, key is with facilities."),
            ("es", "Mi taquilla del gimnasio es la {n}."), ("de", "Mein Spind im Fitnessstudio: Nummer {n}."),
            ("fr", "Mon casier à la piscine, c'est le {n}."), ("it", "Il mio armadietto in palestra è il {n}."),
            ("pt", "Meu armário na academia é o {n}."), ("nl", "Mijn kluisje bij de sportschool is {n}."),
            ("pl", "Moja szafka na siłowni ma numer {n}."), ("sv", "Mitt skåp på gymmet är nummer {n}."),
            ("tr", "Spor salonundaki dolabım {n} numara."), ("ja", "ジムのロッカーは{n}番。"),
            ("ko", "헬스장 사물함은 {n}번."), ("vi", "Tủ đồ của tôi ở phòng gym là số {n}.")]
    return ml(r, pool, **f)


@family("bus_route", "benign", "transit", hard=10)
def f_bus(r, v):
    f = dict(b=r.randint(1, 399), tr=r.randint(1, 30), t=hhmm(r), stop=pick(r, ["Plac Grunwaldzki", "Central Station", "Marktplatz", "Plaza Mayor", "Gare Part-Dieu", "Stadhuis"]),
             n=r.randint(2, 12), m=r.randint(3, 20))
    pool = [("en", "Take bus {b} then tram {tr} to {stop}; the {t} one is usually on time."),
            ("en", "Route {b} express stops at platform {n}, every {m} minutes."),
            ("pl", "Autobus {b}, potem tramwaj {tr} do przystanku {stop}."),
            ("de", "Bus {b} ab {stop} um {t}, dann S{n}."),
            ("es", "Línea {b} hasta {stop}, luego metro línea {n}."),
            ("fr", "Bus {b} jusqu'à {stop}, puis tram T{n}."),
            ("it", "Linea {b} notturna, passa alle {t}."),
            ("nl", "Bus {b} naar {stop}, elke {m} minuten."),
            ("sv", "Buss {b} mot {stop}, sedan spårvagn {tr}."),
            ("ko", "{b}번 버스 타고 {stop}에서 내리기.")]
    return ml(r, pool, **f)


def ean13(r):
    body = dg1(r, 12)
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


@family("sku", "benign", "product_code", hard=10)
def f_sku(r, v):
    pool = [lambda: f"Running shoes SKU {dg1(r, 4)}-{pick(r, ['BLK', 'WHT', 'NVY'])}-{pick(r, ['S', 'M', 'L', '42', '43'])}, re-order same size.",
            lambda: f"IKEA KALLAX shelf article number {dg(r, 3)}.{dg(r, 3)}.{dg(r, 2)}",
            lambda: f"ASIN B0{an(r, 8, UPALNUM)} - the good water filter",
            lambda: f"Barcode on the oat milk: EAN {ean13(r)}",
            lambda: f"Car air filter part number {dg(r, 5)}-{an(r, 5, UPALNUM)}",
            lambda: f"Printer cartridge model {pick(r, ['HP', 'Canon', 'Brother'])} {dg1(r, 3)}{pick(r, ['XL', 'A', 'BK'])}, order 2.",
            lambda: f"Replacement toothbrush heads: product code {an(r, 2, UP)}{dg(r, 4)}/{dg(r, 2)}"]
    return pick(r, pool)(), "en"


def imei(r):
    body = dg1(r, 14)
    return body + luhn_digit(body)


@family("serial_no", "benign", "serial_number", hard=10)
def f_serial(r, v):
    pool = [("en", lambda: f"MacBook serial {an(r, 12, 'CDFGHJKLMNPQRTVWXY0123456789')} - AppleCare until next year."),
            ("en", lambda: f"Dishwasher model SMS4{dg(r, 2)}, S/N {dg(r, 3)}-{dg(r, 5)}-{an(r, 2, UP)} for the warranty claim."),
            ("en", lambda: f"Phone IMEI {imei(r)} (written down in case it gets stolen)."),
            ("en", lambda: f"Bike frame number WAW{dg(r, 7)}{pick(r, UP)} registered with the police bike index."),
            ("en", lambda: f"Glucose meter serial {an(r, 3, UP)}{dg(r, 7)}, lot {an(r, 1, UP)}{dg(r, 5)}."),
            ("de", lambda: f"Seriennummer der Waschmaschine: {dg(r, 9)}{an(r, 2, UP)}."),
            ("es", lambda: f"Número de serie del router: {an(r, 14, UPALNUM)}."),
            ("fr", lambda: f"Numéro de série de la chaudière : {dg(r, 4)}-{dg(r, 6)}.")]
    return ml(r, pool)


VIN_CH = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


@family("vin_plate", "benign", "vehicle", hard=8)
def f_vin(r, v):
    pool = [("en", lambda: f"Car VIN {an(r, 17, VIN_CH)} - needed for the insurance quote."),
            ("en", lambda: f"Rental car plate {an(r, 2, UP)}{r.randint(10, 99)} {an(r, 3, UP)}, parked level -2, spot {r.randint(1, 300)}."),
            ("de", lambda: f"Kennzeichen {pick(r, ['B', 'M', 'HH', 'K'])}-{an(r, 2, UP)} {r.randint(1, 9999)}, Stellplatz {r.randint(1, 99)}."),
            ("es", lambda: f"Matrícula del coche nuevo: {dg(r, 4)} {an(r, 3, 'BCDFGHJKLMNPRSTVWXYZ')}."),
            ("fr", lambda: f"Immatriculation : {an(r, 2, UP)}-{dg(r, 3)}-{an(r, 2, UP)}.")]
    return ml(r, pool)


def isbn13(r):
    body = "978" + dg(r, 9)
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(body))
    return body + str((10 - s % 10) % 10)


@family("isbn_doi", "benign", "publication_id", hard=8)
def f_isbn(r, v):
    pool = [lambda: f"Book club pick, ISBN {isbn13(r)}",
            lambda: f"Paper the cardiologist mentioned: doi:10.{dg1(r, 4)}/{pick(r, ['NEJMoa', 'jama.', 'S0140-6736(', 'bmj.'])}{dg(r, 7)}",
            lambda: f"PubMed PMID {dg1(r, 8)} - the magnesium and sleep study.",
            lambda: f"arXiv:{r.randint(21, 25)}{r.randint(1, 12):02d}.{dg(r, 5)}v{r.randint(1, 3)} for the reading group."]
    return pick(r, pool)(), "en"


@family("wifi_name", "benign", "wifi_ssid", hard=14)
def f_wifi(r, v):
    fam = pick(r, LAST)
    f = dict(ssid=pick(r, [f"Casa_{fam}_5G", f"{fam}-Home", f"FRITZ!Box 7590 {an(r, 2, UP)}", f"Vodafone-{an(r, 4, UPALNUM)}",
                         f"TP-Link_{HX(r, 4)}", f"{pick(r, WORDS).capitalize()}Net", f"eduroam", f"Livebox-{HX(r, 4)}"]),
             guest=f"{fam}-Guest", name=pick(r, FIRST), cafe=pick(r, ["CafeLuna", "Bakery_Free", "Library-Public", "Hotel_Lobby"]))
    pool = [("en", "Home wifi network is '{ssid}', the guest one is '{guest}'. Password is NOT stored here - ask {name}."),
            ("en", "Office SSID is {ssid}; log in with the normal work account (SSO)."),
            ("en", "Hotel network: {cafe}, you log in with room number and surname on the captive page."),
            ("en", "QR on the cafe wall decodes to WIFI:S:{cafe};T:nopass;; - it's an open network."),
            ("en", "The printer only sees the 2.4 GHz network '{ssid}' not the 5G one."),
            ("es", "La red del piso se llama {ssid}; la clave la tiene {name}."),
            ("fr", "Le réseau wifi de la maison s'appelle {ssid}."),
            ("de", "WLAN-Name zu Hause: {ssid}, Gäste-WLAN: {guest}."),
            ("it", "La rete wifi dell'ufficio è {ssid}, si entra con le credenziali aziendali."),
            ("pt", "O nome da rede wifi é {ssid}."),
            ("nl", "Wifi-netwerk in het vakantiehuis: {ssid}."),
            ("ja", "自宅のWi-Fiは「{ssid}」。"),
            ("ko", "집 와이파이 이름은 {ssid}."),
            ("vi", "Tên mạng wifi ở nhà là {ssid}.")]
    return ml(r, pool, **f)


@family("meeting_id", "benign", "meeting_id", hard=10)
def f_meeting(r, v):
    f = dict(zid=f"{dg1(r, 3)} {dg(r, 4)} {dg(r, 4)}", tid=f"{dg1(r, 3)} {dg(r, 3)} {dg(r, 3)} {dg(r, 3)}", t=hhmm(r, 15), day=pick(r, WEEKDAYS),
             gm=f"{an(r, 3, LOW)}-{an(r, 4, LOW)}-{an(r, 3, LOW)}")
    pool = [("en", "Standup on Zoom, meeting ID {zid}; the passcode is in the calendar invite."),
            ("en", "Teams meeting ID: {tid} - join from the link in Outlook."),
            ("en", "Telehealth visit {day} {t}, Google Meet meet.google.com/{gm}"),
            ("es", "Reunión de Zoom, ID {zid}, a las {t}."),
            ("de", "Zoom-Meeting-ID {zid}, {day} um {t}."),
            ("fr", "Réunion Teams, ID {tid}, à {t}."),
            ("it", "Videovisita su Meet: meet.google.com/{gm} alle {t}."),
            ("pt", "ID da reunião: {zid}.")]
    return ml(r, pool, **f)


@family("promo_code", "benign", "promo_code", hard=10)
def f_promo(r, v):
    f = dict(c=pick(r, ["SPRING", "SUMMER", "WELCOME", "FREESHIP", "BLACKFRIDAY", "HELLO", "YOGA", "BACK2SCHOOL"]) + str(r.choice([10, 15, 20, 25, 30])),
             p=pick(r, [10, 15, 20, 25, 30]), shop=pick(r, ["the pharmacy", "HelloFresh", "Zalando", "Decathlon", "the bookshop"]))
    pool = [("en", "Public discount code {c} gives {p}% off at {shop} (it was on their Instagram)."),
            ("en", "Newsletter promo: use code {c} at checkout, ends Sunday."),
            ("es", "Código de descuento {c} para {shop}, {p}% de descuento."),
            ("de", "Gutscheincode aus der Werbung: {c}, {p} % Rabatt."),
            ("fr", "Code promo {c} : -{p} % chez {shop}."),
            ("it", "Codice sconto {c}, valido fino a domenica."),
            ("pt", "Cupom {c} dá {p}% de desconto."),
            ("nl", "Kortingscode {c} voor {p}% korting.")]
    return ml(r, pool, **f)


@family("employee_id", "benign", "work_identifier", hard=12)
def f_emp(r, v):
    f = dict(e=f"E{dg1(r, 5)}", badge=dg(r, 7), ext=dg1(r, 4), cc=f"CC-{dg1(r, 4)}", desk=f"{r.randint(2, 9)}.{r.randint(10, 99)}",
             name=pick(r, FIRST), po=f"PO-{dg1(r, 6)}")
    pool = [("en", "My employee ID is {e}; badge number {badge} is printed on the back of the card."),
            ("en", "{name}'s desk phone: ext. {ext}. Cost center {cc}."),
            ("en", "Hot desk booked: {desk} on Thursday."),
            ("en", "Expense report needs cost center {cc} and purchase order {po}."),
            ("de", "Personalnummer {e}, Kostenstelle {cc}, Durchwahl {ext}."),
            ("es", "Número de empleado {e}, extensión {ext}."),
            ("fr", "Matricule {e}, poste {ext}."),
            ("it", "Matricola {e}, interno {ext}."),
            ("nl", "Personeelsnummer {e}, toestel {ext}."),
            ("ja", "社員番号 {e}、内線 {ext}。")]
    return ml(r, pool, **f)


@family("work_ticket", "benign", "work_identifier", hard=10)
def f_wticket(r, v):
    pj = pick(r, ["PAY", "OPS", "WEB", "HR", "DATA", "SEC", "INFRA"])
    pool = [lambda: f"Picked up {pj}-{r.randint(100, 9999)} (rotate expiring TLS cert) and {pj}-{r.randint(100, 9999)} for this sprint.",
            lambda: f"PR #{r.randint(100, 9999)} fixes {pj}-{r.randint(100, 9999)}; waiting on review from {pick(r, FIRST)}.",
            lambda: f"Incident INC{dg1(r, 7)} - password reset emails delayed {r.randint(10, 90)} min; RCA due Friday.",
            lambda: f"ServiceNow RITM{dg(r, 7)}: request access to the finance shared drive.",
            lambda: f"Sentry issue {an(r, 4, UP)}-{an(r, 2, UP)}{dg(r, 1)} ('Invalid token signature') spiked after the release."]
    return pick(r, pool)(), "en"


# =====================================================================
# BENIGN look-alikes - E: money and finance (no card data, no credentials)
# =====================================================================
@family("money", "benign", "amount", hard=12)
def f_money(r, v):
    a = r.randint(3, 2500)
    f = dict(usd=f"${a:,}.{dg(r, 2)}", eur=f"{a},{dg(r, 2)} €", yen=f"¥{a * 100:,}", inr=f"₹{a * 10:,}", pln=f"{a} zł",
             t=f"{r.randint(30, 300)}.{dg(r, 2)}", n=r.randint(2, 6), name=pick(r, FIRST), gbp=f"£{a}.{dg(r, 2)}")
    pool = [("en", "Split the dinner bill {usd} {n} ways."), ("en", "Rent goes up to {gbp} from next month."),
            ("en", "Budget for groceries: {usd}/month; spent {t} so far."),
            ("en", "{name} owes me {usd} for the concert tickets."),
            ("es", "La factura de la luz este mes fue de {eur}."), ("de", "Stromabschlag jetzt {eur} monatlich."),
            ("ja", "今月の食費は{yen}。"), ("hi", "बिजली का बिल {inr} आया।"), ("pl", "Czynsz: {pln} miesięcznie."),
            ("fr", "Courses de la semaine : {eur}."), ("it", "Spesa dal dentista: {eur}."), ("tr", "Market alışverişi {t} TL tuttu.")]
    return ml(r, pool, **f)


@family("card_masked", "benign", "masked_card", hard=12)
def f_cardmask(r, v):
    f = dict(l4=dg(r, 4), brand=pick(r, ["Visa", "Mastercard", "Amex", "debit card", "credit card"]), bin6=pick(r, ["4", "5"]) + dg(r, 5),
             shop=pick(r, ["Netflix", "Spotify", "Amazon", "Vattenfall", "McFit", "Disney+", "Uber"]), amt=f"{r.randint(5, 120)}.{dg(r, 2)}")
    pool = [("en", "{shop} is billed to my {brand} ending in {l4}."),
            ("en", "Receipt shows {brand} •••• {l4}, {amt}."),
            ("en", "Statement line: CARD XXXX XXXX XXXX {l4} {amt} {shop}"),
            ("en", "Switched the {shop} subscription to the card ending {l4}; old one expires soon."),
            ("en", "Fraud alert was about card {bin6}******{l4} - bank blocked it and is sending a new one."),
            ("es", "{shop} se cobra en la tarjeta terminada en {l4}."), ("de", "{shop} wird von der Karte mit Endziffern {l4} abgebucht."),
            ("fr", "Prélèvement {shop} sur la carte se terminant par {l4}."), ("it", "Addebito {shop} sulla carta che finisce con {l4}."),
            ("pt", "{shop} é cobrado no cartão final {l4}."), ("nl", "{shop} wordt afgeschreven van de kaart eindigend op {l4}."),
            ("ja", "{shop}の支払いは末尾{l4}のカード。")]
    return ml(r, pool, **f)


@family("bank_ref", "benign", "bank_reference", hard=12)
def f_bankref(r, v):
    f = dict(rf=f"RF{dg(r, 2)} {dg(r, 4)} {dg(r, 4)} {dg(r, 4)}", bic=pick(r, ["DEUTDEFFXXX", "BSCHESMMXXX", "INGBNL2A", "BNPAFRPPXXX", "NDEASESS", "COBADEFFXXX"]),
             miban=f"{pick(r, ['DE', 'ES', 'NL', 'FR'])}{dg(r, 2)} **** **** **** {dg(r, 4)}", tx=f"TXN{dg1(r, 11)}", mand=f"MNDT-{an(r, 10, UPALNUM)}",
             amt=f"{r.randint(10, 3000)}.{dg(r, 2)}", name=pick(r, FIRST))
    pool = [("en", "Transfer to the landlord: reference {rf}, amount {amt} EUR."),
            ("en", "Bank's BIC/SWIFT code is {bic} (public, on their website)."),
            ("en", "Salary account {miban} (masked on the payslip)."),
            ("en", "Refund transaction ID {tx}, should land in 3-5 business days."),
            ("en", "SEPA direct debit mandate reference {mand} for the gym."),
            ("de", "Überweisung an {name}: Verwendungszweck {rf}, Betrag {amt} €."),
            ("es", "Transferencia con referencia {tx}, importe {amt} €."),
            ("fr", "Virement reçu, référence {tx}, montant {amt} €."),
            ("nl", "Betaling met kenmerk {rf}."), ("it", "Bonifico con causale {rf}, importo {amt} €.")]
    return ml(r, pool, **f)


@family("invest", "benign", "investment", hard=8)
def f_invest(r, v):
    f = dict(n=r.randint(1, 40), px=f"{r.uniform(20, 500):.2f}", tick=pick(r, ["VWCE", "AAPL", "MSFT", "IWDA", "VOO", "NVDA"]),
             isin=pick(r, ["IE", "US", "LU", "DE"]) + dg(r, 2) + an(r, 7, UPALNUM) + dg(r, 1), pct=f"{r.uniform(-5, 12):.1f}")
    pool = [("en", "Bought {n} {tick} @ {px}; ISIN {isin}."), ("en", "Portfolio up {pct}% this year, mostly {tick}."),
            ("en", lambda **f: json.dumps({"holding": f["tick"], "isin": f["isin"], "units": f["n"], "avg_price": float(f["px"])})),
            ("de", "Sparplan: {n} Anteile {tick} monatlich, ISIN {isin}."), ("es", "Compré {n} acciones de {tick} a {px}.")]
    return ml(r, pool, **f)


@family("crypto_addr", "benign", "public_crypto_id", hard=10)
def f_crypto(r, v):
    bech = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    pool = [lambda: f"My BTC receiving address (public, fine to share for the refund): bc1q{an(r, 38, bech)}",
            lambda: f"ETH deposit address from the exchange (public): 0x{hx(r, 40)}",
            lambda: f"Transaction hash for the refund, to check on the explorer: 0x{hx(r, 64)}",
            lambda: f"Bitcoin txid {hx(r, 64)} - 3 confirmations so far.",
            lambda: f"ENS name {pick(r, WORDS)}{dg(r, 2)}.eth resolves to 0x{hx(r, 40)} (public)."]
    return pick(r, pool)(), "en"


@family("payslip", "benign", "payslip", hard=8)
def f_payslip(r, v):
    g = r.randint(2200, 9000)
    net = int(g * r.uniform(0.58, 0.72)); c = dg(r, 2)
    f = dict(g=f"{g:,}.00", n=f"{net:,}.{c}", gd=f"{g:,}".replace(",", ".") + ",00", nd=f"{net:,}".replace(",", ".") + f",{c}",
             gs=f"{g:,}".replace(",", " ") + ",00", ns=f"{net:,}".replace(",", " ") + f",{c}",
             tax=r.randint(1, 6), h=r.randint(120, 180), rate=f"{r.uniform(12, 60):.2f}")
    pool = [("en", "Payslip: gross {g}, net {n}, {h} hours at {rate}/h."),
            ("de", "Gehaltsabrechnung: brutto {gd} €, netto {nd} €, Steuerklasse {tax}."),
            ("es", "Nómina: bruto {gd} €, neto {nd} €."), ("fr", "Fiche de paie : brut {gs} €, net {ns} €."),
            ("nl", "Loonstrook: bruto € {gd}, netto € {nd}."), ("sv", "Lönespec: brutto {gs} kr, netto {ns} kr.")]
    return ml(r, pool, **f)


# =====================================================================
# BENIGN look-alikes - F: misc numbers, encodings, structured data
# =====================================================================
@family("datetime", "benign", "datetime", hard=14)
def f_datetime(r, v):
    d = when(r)
    f = dict(iso=d.isoformat(), ts=int(d.timestamp()), ms=int(d.timestamp() * 1000), dmy=d.strftime("%d/%m/%Y"), mdy=d.strftime("%m/%d/%y"),
             wk=d.strftime("%G-W%V"), reiwa=f"令和{d.year - 2018}年{d.month}月{d.day}日", zh=f"{d.year}年{d.month}月{d.day}日",
             ko=f"{d.year}년 {d.month}월 {d.day}일", de=d.strftime("%d.%m.%Y"), t=d.strftime("%H:%M"), compact=d.strftime("%Y%m%d%H%M%S"),
             q=f"Q{(d.month - 1) // 3 + 1} FY{d.year % 100}")
    pool = [("en", "Last backup ran at {iso}."), ("en", "Unix timestamp {ts} = when the sensor was inserted."),
            ("en", "Export file timestamp {compact}."), ("en", "Epoch millis from the app: {ms}"),
            ("en", "Planning review in {wk}, targets for {q}."), ("en", "Lease starts {mdy} at noon."),
            ("es", "La mudanza es el {dmy} a las {t}."), ("de", "Kündigung zum {de} einreichen."),
            ("ja", "契約開始日：{reiwa}"), ("zh", "签证到期日：{zh}"), ("ko", "계약 만료일: {ko}"),
            ("fr", "Date limite de déclaration : {dmy}."), ("pl", "Termin płatności: {de}."), ("tr", "Toplantı {de} saat {t}'da.")]
    return ml(r, pool, **f)


@family("sports_score", "benign", "score", hard=10)
def f_score(r, v):
    f = dict(a=r.randint(85, 130), b=r.randint(85, 130), g1=r.randint(0, 5), g2=r.randint(0, 5), s1=r.randint(0, 6), s2=r.randint(0, 6),
             runs=r.randint(150, 380), wk=r.randint(2, 10), golf=r.randint(70, 105), name=pick(r, FIRST))
    pool = [("en", "Lakers {a}-{b} Celtics, what a finish."), ("en", "{name}'s tennis match: 6-{s1}, {s2}-6, 7-6(5)."),
            ("en", "India {runs}/{wk} after 50 overs."), ("en", "Golf today: {golf} at the municipal course."),
            ("es", "El Barça ganó {g1}-{g2}."), ("de", "Bayern gegen Dortmund {g1}:{g2}."), ("it", "Inter-Milan {g1}-{g2}, che partita."),
            ("pt", "Flamengo {g1} x {g2} Palmeiras."), ("tr", "Galatasaray {g1}-{g2} Fenerbahçe."), ("nl", "Ajax - PSV {g1}-{g2}.")]
    return ml(r, pool, **f)


@family("lottery", "benign", "lottery_numbers", hard=8)
def f_lottery(r, v):
    k = r.randrange(5)
    if k == 0:
        n = sorted(r.sample(range(1, 70), 5))
        return "My usual Powerball numbers: " + " ".join(f"{x:02d}" for x in n) + f" + PB {r.randint(1, 26)}", "en"
    if k == 1:
        n = sorted(r.sample(range(1, 51), 5)); s = sorted(r.sample(range(1, 13), 2))
        return "EuroMillions ticket: " + " ".join(map(str, n)) + f" ★ {s[0]} ★ {s[1]}", "en"
    if k == 2:
        n = sorted(r.sample(range(1, 50), 6))
        return "Lotto 6aus49: " + ", ".join(map(str, n)) + f", Superzahl {r.randint(0, 9)}", "de"
    if k == 3:
        n = sorted(r.sample(range(1, 34), 6))
        return "双色球 红球 " + " ".join(f"{x:02d}" for x in n) + f" 蓝球 {r.randint(1, 16):02d}", "zh"
    n = sorted(r.sample(range(1, 50), 6))
    return "Primitiva del sábado: " + " - ".join(map(str, n)) + f", reintegro {r.randint(0, 9)}", "es"


@family("recipe", "benign", "recipe", hard=10)
def f_recipe(r, v):
    f = dict(fl=r.randint(150, 500), eg=r.randint(1, 4), su=r.randint(50, 200), bu=r.randint(50, 250), tc=pick(r, [160, 170, 180, 190, 200]),
             mn=r.randint(20, 60), ml=r.randint(100, 500), sal=f"{r.uniform(0.5, 2):.1f}")
    pool = [("en", "Banana bread: {fl} g flour, {eg} eggs, {su} g sugar, {bu} g butter, bake {mn} min at {tc}°C."),
            ("en", "Pancakes for 4: {fl} g flour, {ml} ml milk, {eg} eggs, pinch of salt."),
            ("es", "Tortilla: {eg} huevos, {fl} g de patatas, {ml} ml de aceite, sal al gusto."),
            ("fr", "Quiche : {fl} g de farine, {bu} g de beurre, {eg} œufs, {ml} ml de crème, {mn} min à {tc} °C."),
            ("de", "Pizzateig: {fl} g Mehl, {ml} ml Wasser, {sal} TL Salz, {mn} Minuten gehen lassen."),
            ("it", "Tiramisù: {eg} uova, {su} g di zucchero, {fl} g di mascarpone."),
            ("ja", "パンケーキ：薄力粉{fl}g、卵{eg}個、牛乳{ml}ml。"),
            ("hi", "चाय: {ml} ml दूध, {eg} चम्मच चीनी, अदरक।"),
            ("vi", "Phở: {fl} g bánh phở, {ml} ml nước dùng, {eg} củ hành."),
            ("tr", "Mercimek çorbası: {fl} g kırmızı mercimek, {ml} ml su, {eg} soğan.")]
    return ml(r, pool, **f)


@family("measurement", "benign", "measurement", hard=10)
def f_measure(r, v):
    f = dict(w=f"{r.uniform(3, 6):.2f}", l=f"{r.uniform(2.5, 5):.2f}", kg=f"{r.uniform(48, 110):.1f}", cm=r.randint(60, 110), bar=f"{r.uniform(2, 2.8):.1f}",
             ring=r.randint(48, 62), h=r.randint(150, 195), sh=f"{r.randint(36, 46)}", tmp=f"{r.uniform(36, 39):.1f}")
    pool = [("en", "Living room is {w} m x {l} m, ceiling 2.6 m."), ("en", "Weight {kg} kg, waist {cm} cm."),
            ("en", "Tyre pressure {bar} bar front, {bar} rear."), ("en", "Ring size {ring}, shoe size EU {sh}."),
            ("de", "Körpergröße {h} cm, Gewicht {kg} kg."), ("es", "Fiebre de {tmp} °C esta noche."),
            ("fr", "Taille {h} cm, pointure {sh}."), ("pl", "Pokój ma {w} × {l} m."), ("ar", "الوزن {kg} كغ والطول {h} سم."),
            ("zh", "身高{h}厘米，体重{kg}公斤。")]
    return ml(r, pool, **f)


@family("coords", "benign", "coordinates", hard=9)
def f_coords(r, v):
    lat, lon = r.uniform(-40, 65), r.uniform(-120, 140)
    gh = an(r, r.randint(6, 9), "0123456789bcdefghjkmnpqrstuvwxyz")
    pool = [lambda: f"Trailhead parking: {lat:.5f}, {lon:.5f}",
            lambda: f"Campsite at {abs(lat):.4f}° {'N' if lat > 0 else 'S'}, {abs(lon):.4f}° {'E' if lon > 0 else 'W'}",
            lambda: f"Geohash of the meeting point: {gh}",
            lambda: f"Plus code for the farm: {an(r, 4, '23456789CFGHJMPQRVWX')}+{an(r, 2, '23456789CFGHJMPQRVWX')}",
            lambda: f"what3words for the back entrance: ///{pick(r, WORDS)}.{pick(r, WORDS)}.{pick(r, WORDS)}",
            lambda: f"GPX waypoint lat=\"{lat:.6f}\" lon=\"{lon:.6f}\" ele=\"{r.randint(0, 3000)}\""]
    return pick(r, pool)(), "en"


FENS = ["rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 6 5",
        "rnbqkb1r/ppp1pppp/5n2/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 1 3",
        "8/8/4k3/8/2K5/8/3P4/8 w - - 0 60", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30"]
PGNS = ["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7", "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7",
        "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6", "1. e4 e6 2. d4 d5 3. Nc3 Bb4 4. e5 c5",
        "1. c4 e5 2. Nc3 Nf6 3. g3 d5 4. cxd5 Nxd5", "1. e4 c6 2. d4 d5 3. e5 Bf5 4. Nf3 e6", "1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6"]


@family("chess", "benign", "chess", hard=8)
def f_chess(r, v):
    pool = [lambda: f"Position to study (FEN): {pick(r, FENS)}",
            lambda: f"Won with {pick(r, PGNS)} ... rated {r.randint(900, 2100)} blitz.",
            lambda: f"Lichess puzzle #{an(r, 5)}: {pick(r, FENS)} - white to move.",
            lambda: f"[Event \"Club night\"]\n[White \"{pick(r, FIRST)}\"]\n[Black \"{pick(r, FIRST)}\"]\n[Result \"{pick(r, ['1-0', '0-1', '1/2-1/2'])}\"]\n\n{pick(r, PGNS)}"]
    return pick(r, pool)(), "en"


@family("music", "benign", "music", hard=8)
def f_music(r, v):
    key = pick(r, ["D", "G", "Am", "Em", "C"])
    pool = [lambda: f"X:{r.randint(1, 99)}\nT:{pick(r, WORDS).capitalize()} Reel\nM:4/4\nL:1/8\nK:{key}\n|:A2FA DAFA|d2fd cdec|BcdB AFDF|E2FE EFGE:|",
            lambda: f"Song in {key}: {pick(r, ['Am-F-C-G', 'C-G-Am-F', 'G-D-Em-C', 'Dm7-G7-Cmaj7'])}, capo {r.randint(1, 5)}, {r.randint(70, 140)} bpm",
            lambda: "Guitar tab intro:\ne|-----0-----0---|\nB|---1---1-----1-|\nG|-2-------2-----|\nD|---------------|",
            lambda: f"Practice: Bach BWV {r.randint(772, 1080)}, bars {r.randint(1, 20)}-{r.randint(21, 48)}, metronome {r.randint(60, 120)}.",
            lambda: f"Tuning DADGAD, then drop to C for '{pick(r, WORDS).capitalize()}'."]
    return pick(r, pool)(), "en"


B64_TEXTS = ["grocery list: oat milk, eggs, spinach, rye bread", "Happy birthday Grandma! Love from all of us",
             "meeting moved to 3pm, room Aurora", "remember to water the tomatoes", "See you at the lake on Saturday",
             "Chapter 4 notes - photosynthesis", "steps: 10432, water: 2.1 L, sleep: 7h20", "Ligue para a avó no domingo",
             "Einkaufsliste: Milch, Brot, Äpfel", "Hola, ¿quedamos el viernes?", "the quick brown fox jumps over the lazy dog",
             "todo: renew passport photos", "{\"theme\":\"dark\",\"lang\":\"fr\"}", "Merci pour le dîner !"]


@family("b64_text", "benign", "encoded_text", hard=10)
def f_b64text(r, v):
    t = pick(r, B64_TEXTS) + pick(r, ["", f" ({r.randint(2, 99)})", f" #{r.randint(1, 9)}"])
    pool = [lambda: f"Decoded the QR from the event flyer, it was just base64 of a message: {b64txt(t)}",
            lambda: f"Test payload for the note-sync app (base64): {b64txt(t)}",
            lambda: f"{b64utxt(t)}  <- base64url of my sample note, for the parser test",
            lambda: f"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAA{b64(r, 42)}  (tiny placeholder icon)",
            lambda: f"Email attachment header: Content-Transfer-Encoding: base64\n\n{wrap(b64txt(t * 2), 76)}"]
    return pick(r, pool)(), "en"


@family("random_slug", "benign", "opaque_public_id", hard=12)
def f_slug(r, v):
    pool = [lambda: f"Video of the knee exercises: https://youtu.be/{an(r, 11, B64URL)}",
            lambda: f"Short link for the recipe: https://bit.ly/{an(r, 7)}",
            lambda: f"Playlist for running: open.spotify.com/playlist/{an(r, 22)}",
            lambda: f"Instagram post with the hike photos: instagram.com/p/{an(r, 11, B64URL)}/",
            lambda: f"Shared Google Doc (team only): docs.google.com/document/d/1{an(r, 43, B64URL)}/edit",
            lambda: f"Imgur album of the flat: imgur.com/a/{an(r, 7)}",
            lambda: f"Tweet id {dg1(r, 19)} - the thread about sleep hygiene",
            lambda: f"Figma file key {an(r, 22)} (the wedding invite design)",
            lambda: f"Tinyurl tinyurl.com/{an(r, 8, LOWALNUM)} -> the school's term calendar"]
    return pick(r, pool)(), "en"


@family("csv_export", "benign", "csv", hard=14)
def f_csv(r, v):
    d = when(r)
    k = r.randrange(6)
    days = [(d + timedelta(days=i)).strftime("%Y-%m-%d") for i in range(r.randint(3, 6))]
    if k == 0:
        rows = "\n".join(f"{x},{r.randint(105, 160)},{r.randint(65, 100)},{r.randint(55, 95)}" for x in days)
        return "date,systolic,diastolic,pulse\n" + rows, "en"
    if k == 1:
        cats = ["groceries", "rent", "transport", "pharmacy", "eating out", "utilities"]
        rows = "\n".join(f"{x},{pick(r, cats)},{r.randint(3, 400)}.{dg(r, 2)},{pick(r, ['card', 'cash', 'transfer'])}" for x in days)
        return "date,category,amount,method\n" + rows, "en"
    if k == 2:
        rows = "\n".join(f"{pick(r, FIRST)} {pick(r, LAST)},+{r.randint(30, 49)} {dg(r, 3)} {dg(r, 3)} {dg(r, 3)},{pick(r, ['family', 'work', 'doctor', 'school'])}"
                         for _ in range(r.randint(2, 5)))
        return "name,phone,group\n" + rows, "en"
    if k == 3:
        rows = "\n".join(f"{(d + timedelta(days=i)).strftime('%d.%m.%Y')};{r.randint(3, 300)},{dg(r, 2)};{pick(r, ['Lebensmittel', 'Miete', 'Apotheke', 'Bahn'])}" for i in range(r.randint(3, 5)))
        return "Datum;Betrag;Kategorie\n" + rows, "de"
    if k == 4:
        rows = "\n".join(f"{x}\t{r.randint(3000, 16000)}\t{r.uniform(5.5, 9):.1f}\t{r.randint(0, 3)}" for x in days)
        return "date\tsteps\tsleep_h\tcoffees\n" + rows, "en"
    rows = "\n".join(f"{(d + timedelta(days=i)).strftime('%d/%m/%Y')};{pick(r, ['supermercado', 'farmacia', 'gasolina', 'luz'])};{r.randint(3, 200)},{dg(r, 2)}" for i in range(r.randint(3, 5)))
    return "fecha;concepto;importe\n" + rows, "es"


@family("json_record", "benign", "json_record", hard=14)
def f_json(r, v):
    k = r.randrange(6)
    name = pick(r, FIRST)
    if k == 0:
        return ({"profile": {"name": name, "units": pick(r, ["metric", "imperial"]), "locale": pick(r, ["en-GB", "de-DE", "es-ES"])},
                 "security": {"passwordless": True, "mfa_enabled": True, "last_password_change": when(r).strftime("%Y-%m-%d")},
                 "stats": {"token_count": r.randint(100, 9000), "sessions": r.randint(1, 40)}}, "en")
    if k == 1:
        return ({"household": {"members": [{"name": name, "age": r.randint(30, 70)}, {"name": pick(r, FIRST), "age": r.randint(1, 17)}],
                               "pets": [{"type": pick(r, ["cat", "dog"]), "name": pick(r, WORDS).capitalize()}]},
                 "address_id": uid(r)}, "en")
    if k == 2:
        return ({"trip": {"id": f"TRP-{dg1(r, 6)}", "legs": [{"from": pick(r, CITY), "to": pick(r, CITY), "flight": f"{pick(r, ['LH', 'IB', 'KL'])}{r.randint(100, 999)}", "seat": f"{r.randint(1, 40)}{pick(r, 'ACDF')}"}],
                          "hotel": {"name": f"Hotel {pick(r, WORDS).capitalize()}", "nights": r.randint(1, 7), "confirmation": dg1(r, 9)}}}, "en")
    if k == 3:
        return ({"budget": {"month": when(r).strftime("%Y-%m"), "limits": {"food": r.randint(200, 600), "fun": r.randint(50, 200)},
                            "spent": {"food": round(r.uniform(100, 600), 2), "fun": round(r.uniform(10, 200), 2)}},
                 "key": pick(r, ["food", "fun"]), "secret_santa_budget": r.randint(10, 40)}, "en")
    if k == 4:
        return ({"workout": {"date": when(r).strftime("%Y-%m-%d"), "sets": [{"exercise": e, "reps": r.randint(5, 15), "kg": r.randint(10, 120)}
                                                                              for e in r.sample(["squat", "bench", "row", "deadlift", "press"], 3)]},
                 "device": {"id": uid(r), "fw": f"{r.randint(1, 9)}.{r.randint(0, 9)}"}}, "en")
    return ({"paciente": name, "citas": [{"fecha": when(r).strftime("%Y-%m-%d"), "hora": hhmm(r), "especialidad": pick(r, ["cardiología", "dermatología"])}],
             "clave_de_sol": "lecciones de piano los martes"}, "es")


@family("ics_vcard", "benign", "calendar_contact", hard=8)
def f_ics(r, v):
    d = when(r)
    if r.random() < 0.5:
        s = (f"BEGIN:VEVENT\nUID:{uid(r)}@calendar.example.com\nDTSTAMP:{d.strftime('%Y%m%dT%H%M%SZ')}\n"
             f"DTSTART:{(d + timedelta(days=3)).strftime('%Y%m%dT%H%M00')}\nSUMMARY:{pick(r, ['Dentist', 'Parent-teacher meeting', 'Physio', 'Team offsite'])}\n"
             f"LOCATION:Room {r.randint(100, 500)}\nEND:VEVENT")
    else:
        n, l = pick(r, FIRST), pick(r, LAST)
        s = (f"BEGIN:VCARD\nVERSION:3.0\nFN:{n} {l}\nTEL;TYPE=CELL:+{r.randint(30, 49)} {dg(r, 3)} {dg(r, 3)} {dg(r, 3)}\n"
             f"EMAIL:{n.lower().replace('í', 'i').replace('-', '')}@example.com\nUID:urn:uuid:{uid(r)}\nEND:VCARD")
    return s, "en"


@family("phonetic", "benign", "phonetic_spelling", hard=10)
def f_phonetic(r, v):
    NATO = {"A": "Alpha", "B": "Bravo", "C": "Charlie", "D": "Delta", "E": "Echo", "F": "Foxtrot", "G": "Golf", "H": "Hotel", "I": "India",
            "J": "Juliett", "K": "Kilo", "L": "Lima", "M": "Mike", "N": "November", "O": "Oscar", "P": "Papa", "Q": "Quebec", "R": "Romeo",
            "S": "Sierra", "T": "Tango", "U": "Uniform", "V": "Victor", "W": "Whiskey", "X": "X-ray", "Y": "Yankee", "Z": "Zulu"}
    DIGW = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    k = r.randrange(4)
    if k == 0:
        ln = pick(r, ["Okafor", "Kowalski", "Lindqvist", "Haddad", "Bakker", "Moreau", "Tanaka"])
        return f"Surname spelled for the pharmacy: {ln} - " + " ".join(NATO[c] for c in ln.upper()), "en"
    if k == 1:
        ref = an(r, 6, "ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        sp = ", ".join(NATO[c] if c.isalpha() else DIGW[int(c)] for c in ref)
        return f"Airline booking reference read out on the phone: {sp} ({ref})", "en"
    if k == 2:
        ES = {"G": "G de Granada", "A": "A de Antonio", "R": "R de Roma", "C": "C de Carmen", "I": "I de Italia", "Í": "I de Italia"}
        return "Apellido deletreado: " + ", ".join(ES.get(c, c) for c in "GARCIA") + f" (para la reserva {dg1(r, 6)})", "es"
    DE = {"S": "Siegfried", "C": "Cäsar", "H": "Heinrich", "M": "Martha", "I": "Ida", "D": "Dora", "T": "Theodor"}
    return "Name buchstabiert: " + ", ".join(DE[c] for c in "SCHMIDT") + f", Kundennummer {dg1(r, 7)}", "de"


@family("num_words", "benign", "numbers_in_words", hard=10)
def f_numwords(r, v):
    EN = ["twenty-three", "thirty-four", "forty-one", "fifty-seven", "sixty-two", "seventy", "eighty-five", "twelve", "nineteen", "ninety"]
    f = dict(en=pick(r, EN), en2=pick(r, EN), name=pick(r, FIRST), old=pick(r, ["seventy-eight", "eighty-one", "eighty-six", "ninety-two", "seventy-four"]),
             es=pick(r, ["cuarenta y dos", "treinta y cinco", "sesenta y ocho", "veintiún"]),
             fr=pick(r, ["quatre-vingt-dix", "soixante-douze", "trente-trois", "quatre-vingt-un"]),
             de=pick(r, ["dreiundzwanzig", "siebenundvierzig", "neunundfünfzig", "zweiundachtzig"]),
             it=pick(r, ["trentasette", "quarantotto", "sessantuno"]), pt=pick(r, ["trinta e seis", "quarenta e nove"]))
    pool = [("en", "{name} turned {en} in May; party for {en2} people."), ("en", "We need {en} chairs and {en2} plates for the reunion."),
            ("en", "Grandpa is {old} and still walks four miles a day."), ("es", "Mi abuela cumple {es} años."),
            ("fr", "Papi a {fr} ans cette année."), ("de", "Oma wird {de}."), ("it", "Il nonno compie {it} anni."),
            ("pt", "A tia fez {pt} anos.")]
    return ml(r, pool, **f)


@family("typo_text", "benign", "typo_text", hard=10)
def f_typo(r, v):
    f = dict(name=pick(r, FIRST), day=pick(r, WEEKDAYS).lower())
    pool = [("en", "remeber to by milk and egss tomorow, {name} is comming for brekfast"),
            ("en", "recieve the pakage on {day}, its the new pasword-manager book for {name} lol"),
            ("en", "apointment w/ dentsit moved, cal them bak"),
            ("en", "dont forgt the tokn of apreciation gift for {name}s retirment"),
            ("en", "pls rmind me abt the acount setings, the app keeps loging me out"),
            ("en", "wich pin?? the one for the map - {name} pinned the restaurnt"),
            ("es", "recordar conprar pan y lech mañna, viene {name}"),
            ("fr", "rapeller a {name} pour le rdv chez le dentiste, g oublié"),
            ("de", "nich vergesen: {name} abholn um halb fünf"),
            ("pt", "lenbrar de pagar a conta de luz amanhan")]
    return ml(r, pool, **f)


@family("math_digits", "benign", "math", hard=6)
def f_math(r, v):
    fib = [0, 1]
    for _ in range(r.randint(12, 22)):
        fib.append(fib[-1] + fib[-2])
    pool = [lambda: "Kid's homework: pi to 30 digits 3.141592653589793238462643383279" + pick(r, ["", " (they memorised it!)", " - learn 10 a day"]),
            lambda: "Fibonacci for the maths club: " + ", ".join(map(str, fib)),
            lambda: f"e ≈ 2.718281828459045, sqrt(2) ≈ 1.4142135623730951; homework page {r.randint(10, 200)}",
            lambda: f"Primes under {pick(r, [60, 80, 100])}: " + " ".join(str(p) for p in range(2, 100) if all(p % q for q in range(2, p))),
            lambda: f"{r.randint(100, 999)} × {r.randint(100, 999)} worked example for {pick(r, FIRST)}'s test"]
    return pick(r, pool)(), "en"


@family("wordsense", "benign", "homonym", hard=16)
def f_wordsense(r, v):
    f = dict(name=pick(r, FIRST))
    pool = [("en", "The piece is in the key of E-flat minor, which is why {name} finds it hard."),
            ("en", "Our secret family recipe: smoked paprika in the lentil soup. Not really secret, share freely!"),
            ("en", "Dress code for the gala: black tie. Zip code for the venue is on the invite."),
            ("en", "Watched an old episode of the game show 'Password' with Grandma."),
            ("en", "Classroom token economy: kids earn tokens for reading, swap 10 for a sticker."),
            ("en", "Pinned {name}'s message about the picnic in the family group."),
            ("en", "The escape room hint was 'look behind the clock'; we got out with 2 minutes left."),
            ("en", "Key takeaways from the budgeting webinar: automate savings, review subscriptions monthly."),
            ("en", "Board game night: each player starts with 3 tokens and 1 secret objective card."),
            ("en", "My 'access' to the new office is only on Tuesdays - hot desk policy."),
            ("es", "En solfeo, la clave de sol va en la segunda línea; {name} lo está aprendiendo."),
            ("es", "La clave del éxito según mi entrenador: dormir bien y constancia."),
            ("fr", "Le mot de passe de l'épisode était un clin d'œil au film, trop drôle."),
            ("de", "Schlüsselerlebnis der Woche: {name} hat zum ersten Mal allein geschwommen."),
            ("it", "La chiave di violino è la prima cosa che {name} ha imparato al corso."),
            ("pt", "A senha do jogo era só uma piada entre amigos; nada importante."),
            ("nl", "Het geheim van de smid: de pannenkoeken een nacht laten rusten."),
            ("ja", "秘密のレシピ：カレーに少しチョコレートを入れる。"),
            ("zh", "成功的秘诀是坚持，教练说的。"),
            ("ko", "비밀 레시피는 된장찌개에 설탕 한 꼬집.")]
    return ml(r, pool, **f)


# =====================================================================
# BENIGN plain: ordinary memories with no look-alike
# =====================================================================
FOODS_EN = ["mushrooms", "coriander", "olives", "blue cheese", "spicy food", "raw onion", "eggplant", "anchovies", "liver", "celery"]
LIKES_EN = ["Thai curries", "dark chocolate", "sourdough", "ramen", "grilled fish", "lentil soup", "fresh figs", "pistachio ice cream"]


@family("pref_food", "benign", "preference", plain=30)
def f_pref_food(r, v):
    f = dict(x=pick(r, FOODS_EN), y=pick(r, LIKES_EN), name=pick(r, FIRST))
    pool = [("en", "User is vegetarian and dislikes {x}."), ("en", "Loves {y}; can't stand {x}."),
            ("en", "Trying to eat less sugar; suggest {y} instead of desserts."), ("en", "{name} (daughter) is allergic to peanuts - always check labels."),
            ("en", "Prefers lactose-free milk in coffee."), ("en", "Doesn't eat pork for religious reasons; chicken and fish are fine."),
            ("en", "Favourite comfort food is {y}, especially on rainy days."),
            ("es", "No le gustan las aceitunas y prefiere la comida poco picante."), ("es", "Es vegana desde hace años; le encanta la comida india."),
            ("fr", "N'aime pas la coriandre, adore le fromage de chèvre."), ("fr", "Évite le gluten autant que possible."),
            ("de", "Isst kein Fleisch, aber gerne Fisch."), ("de", "Mag keinen Koriander, liebt aber Thai-Curry."),
            ("it", "Preferisce la pasta integrale e non beve latte."), ("pt", "Não come carne vermelha; gosta muito de peixe grelhado."),
            ("nl", "Houdt niet van spruitjes, wel van stamppot."), ("pl", "Nie je ostrych potraw, uwielbia pierogi z kapustą."),
            ("sv", "Äter inte gluten; gillar havregryn till frukost."), ("tr", "Acı yemekleri sevmiyor, mercimek çorbasına bayılıyor."),
            ("ja", "納豆が苦手で、和食の中では焼き魚が好き。"), ("zh", "不吃香菜，喜欢清淡的菜。"), ("ko", "매운 음식을 잘 못 먹고 된장찌개를 좋아함."),
            ("ar", "لا يحب الطعام الحار ويفضل السمك المشوي."), ("hi", "शाकाहारी है, प्याज़ और लहसुन नहीं खाती।"), ("vi", "Không ăn được đồ cay, thích phở gà.")]
    return ml(r, pool, **f)


@family("comm_style", "benign", "preference", plain=26)
def f_comm(r, v):
    f = dict(name=pick(r, FIRST), ch=pick(r, ["email", "a text message", "the app notification", "WhatsApp", "a weekly digest"]),
             tm=pick(r, ["morning", "evening", "lunchtime", "weekend"]))
    pool = [("en", "Prefers short answers with bullet points."),
            ("en", "Wants summaries sent by {ch}, ideally in the {tm}."),
            ("en", "Please check in with {name} before changing shared family plans."), ("en", "Likes a friendly tone but no emojis."),
            ("en", "Wants to be addressed as {name}, not by surname."), ("en", "Prefers reminders in the evening rather than the morning."),
            ("en", "Dislikes long explanations; give the answer first, then details if asked."),
            ("en", "Likes gentle encouragement when talking about exercise goals."),
            ("en", "Prefers metric units and the day-month-year date format."),
            ("es", "Prefiere que le hablen de tú y con respuestas breves."), ("fr", "Préfère le vouvoiement et des réponses détaillées."),
            ("de", "Möchte geduzt werden und mag kurze Antworten."), ("it", "Preferisce risposte semplici, senza termini tecnici."),
            ("pt", "Gosta de respostas diretas e sem rodeios."), ("nl", "Wil graag korte antwoorden zonder jargon."),
            ("pl", "Woli, żeby zwracać się do niego po imieniu."), ("sv", "Föredrar korta svar och punktlistor."),
            ("tr", "Kısa ve net cevapları tercih ediyor."), ("ja", "丁寧語で、短めの返答を好む。"), ("zh", "喜欢简洁的回答，不要太多客套话。"),
            ("ko", "존댓말로 간단하게 답해 주는 것을 선호함."), ("ar", "يفضل الإجابات القصيرة والواضحة."), ("hi", "छोटे और सीधे जवाब पसंद करते हैं।"),
            ("vi", "Thích câu trả lời ngắn gọn, dễ hiểu.")]
    return ml(r, pool, **f)


@family("family_life", "benign", "personal_fact", plain=30)
def f_family(r, v):
    f = dict(a=pick(r, FIRST), b=pick(r, FIRST), c=pick(r, CITY))
    pool = [("en", "Has two kids, {a} and {b}; {a} just started primary school."), ("en", "Sister {a} lives in {c} and visits at Christmas."),
            ("en", "Partner {a} works night shifts at the hospital."), ("en", "Mother-in-law {a} moves in with them next spring."),
            ("en", "Son {a} plays the cello and has lessons after school."), ("en", "Grandmother lives in {c}; they video-call on Sundays."),
            ("en", "{a} and {b} are getting married in the autumn, in {c}."),
            ("es", "Tiene una hija, {a}, que estudia en {c}."), ("es", "Su hermano {a} se muda a {c} este verano."),
            ("fr", "Sa fille {a} fait du judo le mercredi."), ("de", "Ihr Sohn {a} macht gerade Abitur."),
            ("it", "Il fratello {a} vive a {c} con la moglie."), ("pt", "A avó mora em {c} e adora receber visitas."),
            ("nl", "Haar dochter {a} zit op zwemles."), ("pl", "Córka {a} zaczyna studia w {c}."),
            ("sv", "Sonen {a} spelar fotboll på helgerna."), ("tr", "Kızı {a} bu yıl üniversiteye başladı."),
            ("ja", "娘の{a}は{c}の大学に通っている。"), ("zh", "儿子{a}在{c}读大学。"), ("ko", "동생 {a}는 {c}에 살고 있음."),
            ("ar", "ابنته {a} تدرس الطب في {c}."), ("hi", "बेटा {a} {c} में नौकरी करता है।"), ("vi", "Con gái {a} đang học ở {c}.")]
    return ml(r, pool, **f)


@family("hobby", "benign", "personal_fact", plain=30)
def f_hobby(r, v):
    f = dict(h=pick(r, ["bouldering", "sourdough baking", "birdwatching", "watercolour painting", "trail running", "knitting", "chess", "salsa dancing", "gardening", "pottery"]),
             name=pick(r, FIRST), c=pick(r, CITY))
    pool = [("en", "Took up {h} last year and goes most weekends."), ("en", "Is training for a half marathon in {c}."),
            ("en", "Enjoys {h}; looking for a club near home."), ("en", "Reads mostly historical fiction and some poetry."),
            ("en", "Plays board games with {name} on Friday evenings."), ("en", "Wants to learn {h} once the kids are older."),
            ("es", "Le encanta la jardinería y tiene un huerto en el balcón."), ("es", "Corre por el parque casi todas las mañanas."),
            ("fr", "Fait de la poterie le samedi matin."), ("de", "Spielt Gitarre in einer kleinen Band."), ("it", "Ama la fotografia di paesaggio."),
            ("pt", "Faz trilhas na serra sempre que pode."), ("nl", "Fietst graag lange tochten in het weekend."),
            ("pl", "Lubi wędkować nad jeziorem z ojcem."), ("sv", "Paddlar kajak på sommaren."), ("tr", "Hafta sonları fotoğraf çekmeyi seviyor."),
            ("ja", "週末は山登りをしている。"), ("zh", "喜欢周末去爬山和拍照。"), ("ko", "주말마다 요가 수업을 들음."),
            ("ar", "يحب القراءة وركوب الدراجة في المساء."), ("hi", "उन्हें बागवानी और पेंटिंग का शौक है।"), ("vi", "Thích chơi cầu lông vào buổi tối.")]
    return ml(r, pool, **f)


@family("health_habit", "benign", "health_note", plain=30)
def f_health(r, v):
    f = dict(name=pick(r, FIRST), doc=pick(r, DOCTORS), sp=pick(r, ["swimming", "cycling", "pilates", "tai chi", "walking football", "yoga"]),
             tm=pick(r, ["mornings", "evenings", "weekends", "lunch breaks"]))
    pool = [("en", "Avoids caffeine after noon because it affects sleep."),
            ("en", "Does {sp} on {tm}; it helps with back pain."),
            ("en", "GP is {doc}; prefers {tm} for check-ups."), ("en", "Walks after dinner to help with blood sugar."),
            ("en", "Has mild asthma; uses the inhaler before running in cold weather."), ("en", "Gets migraines when skipping meals."),
            ("en", "Physiotherapist is {doc}; working on knee strength."), ("en", "Trying to drink more water and less soda."),
            ("en", "Sleeps better with the window slightly open."), ("en", "Prefers morning appointments; afternoons make her anxious."),
            ("en", "Is lactose intolerant and gets hay fever in spring."),
            ("es", "Intenta dormir ocho horas y camina a diario."), ("es", "Tiene alergia al polen en primavera."),
            ("fr", "Fait du yoga pour son dos."), ("de", "Hat Heuschnupfen und meidet im Frühling Wiesen."),
            ("it", "Sta riducendo il sale per la pressione."), ("pt", "Faz fisioterapia para o ombro."),
            ("nl", "Drinkt geen koffie meer na de lunch."), ("pl", "Ma alergię na orzechy."), ("sv", "Tar promenader varje morgon för humöret."),
            ("tr", "Şeker tüketimini azaltmaya çalışıyor."), ("ja", "夜更かしをやめて、早寝早起きを心がけている。"),
            ("zh", "每天晚饭后散步半小时。"), ("ko", "허리가 안 좋아서 스트레칭을 매일 함."), ("ar", "يحاول تقليل السكر والمشي يومياً."),
            ("hi", "सुबह योग करती हैं और चीनी कम खाती हैं।"), ("vi", "Đang tập thể dục buổi sáng để giảm cân.")]
    return ml(r, pool, **f)


@family("fin_goal", "benign", "finance_note", plain=30)
def f_fin(r, v):
    f = dict(g=pick(r, ["a new bike", "a trip to Japan", "a house deposit", "an emergency fund", "the wedding", "a used car", "a new laptop"]), name=pick(r, FIRST))
    pool = [("en", "Saving for {g}; prefers automatic monthly transfers."), ("en", "Prefers low-cost index funds over picking stocks."),
            ("en", "Wants to cut eating-out spending and cook more at home."), ("en", "Pays the credit card in full every month; hates interest."),
            ("en", "Splits household bills with {name} evenly."), ("en", "Is nervous about investing; explain things slowly."),
            ("en", "Plans to cancel unused streaming subscriptions."), ("en", "Gets paid at the end of the month; rent leaves early in the month."),
            ("es", "Está ahorrando para {g}."), ("es", "Prefiere pagar en efectivo en el mercado."),
            ("fr", "Veut mettre de côté pour un voyage en Italie."), ("de", "Spart für eine neue Küche und möchte kein Darlehen."),
            ("it", "Vuole ridurre le spese per le cene fuori."), ("pt", "Está juntando dinheiro para a viagem de fim de ano."),
            ("nl", "Wil een buffer opbouwen voor onverwachte kosten."), ("pl", "Oszczędza na wkład własny na mieszkanie."),
            ("sv", "Sparar till en resa till Island."), ("tr", "Ev almak için birikim yapıyor."), ("ja", "老後のために少しずつ積み立てている。"),
            ("zh", "想每个月存下一部分工资。"), ("ko", "여행 자금을 모으는 중."), ("ar", "يدّخر لشراء سيارة مستعملة."),
            ("hi", "बच्चों की पढ़ाई के लिए बचत कर रहे हैं।"), ("vi", "Đang tiết kiệm tiền để mua xe máy.")]
    return ml(r, pool, **f)


@family("work_context", "benign", "work_note", plain=30)
def f_work(r, v):
    f = dict(name=pick(r, FIRST), team=pick(r, ["billing", "mobile", "data platform", "customer support", "logistics", "HR", "design"]))
    pool = [("en", "Works on the {team} team; manager is {name}."), ("en", "Has weekly one-on-ones with {name} on Thursdays."),
            ("en", "Prefers async updates over meetings."), ("en", "Is preparing a talk about onboarding for the all-hands."),
            ("en", "Starts work early and logs off by late afternoon to pick up the kids."), ("en", "Just moved from the {team} team to product."),
            ("en", "Is mentoring {name}, a new junior colleague."), ("en", "Working from home on Mondays and Fridays."),
            ("es", "Trabaja en el equipo de {team}; su jefa es {name}."), ("fr", "Travaille en télétravail le lundi."),
            ("de", "Arbeitet im Team {team}, Chefin ist {name}."), ("it", "Lavora nel reparto {team}."), ("pt", "Trabalha no time de {team}."),
            ("nl", "Werkt drie dagen op kantoor."), ("pl", "Pracuje w dziale {team}."), ("sv", "Jobbar deltid under sommaren."),
            ("tr", "{team} ekibinde çalışıyor, yöneticisi {name}."), ("ja", "{team}チームで働いていて、上司は{name}さん。"),
            ("zh", "在{team}团队工作，经理是{name}。"), ("ko", "{team} 팀에서 일하고, 팀장은 {name}."),
            ("ar", "يعمل في فريق {team}، ومديرته {name}."), ("hi", "{team} टीम में काम करती हैं।"), ("vi", "Làm việc ở nhóm {team}, quản lý là {name}.")]
    return ml(r, pool, **f)


@family("travel_pref", "benign", "preference", plain=25)
def f_travelpref(r, v):
    f = dict(c=pick(r, CITY), name=pick(r, FIRST))
    pool = [("en", "Prefers aisle seats and vegetarian meals on flights."), ("en", "Likes small family-run hotels over chains."),
            ("en", "Gets motion sickness on boats; avoid ferries."), ("en", "Wants to visit {c} in spring when it's less crowded."),
            ("en", "Travels light - carry-on only."), ("en", "Prefers trains to flights for trips under six hours."),
            ("es", "Prefiere viajar en tren y sentarse junto a la ventana."), ("fr", "Aime les hôtels calmes, loin du centre."),
            ("de", "Reist am liebsten mit dem Zug."), ("it", "Preferisce il posto corridoio."), ("pt", "Gosta de viajar na baixa temporada."),
            ("nl", "Neemt altijd de nachttrein als het kan."), ("pl", "Lubi zwiedzać muzea w czasie podróży."),
            ("sv", "Vill alltid ha fönsterplats."), ("tr", "Deniz kenarındaki küçük otelleri seviyor."),
            ("ja", "旅行は電車派で、窓側の席が好き。"), ("zh", "喜欢靠窗的座位。"), ("ko", "비행기에서는 통로 좌석을 선호함."),
            ("ar", "يفضل السفر بالقطار."), ("hi", "ट्रेन से यात्रा करना पसंद है।"), ("vi", "Thích đi du lịch bằng tàu hỏa.")]
    return ml(r, pool, **f)


@family("reminder", "benign", "reminder", plain=25)
def f_reminder(r, v):
    f = dict(name=pick(r, FIRST), day=pick(r, WEEKDAYS))
    pool = [("en", "Call grandma on {day}s."), ("en", "Water the plants every {day}."), ("en", "Remind me to buy a birthday card for {name}."),
            ("en", "Renew the passport before the summer."), ("en", "Take the recycling out on {day} evening."),
            ("en", "Ask {name} about the school trip form."), ("en", "Book the car service before winter."),
            ("es", "Recordar llamar a {name} el fin de semana."), ("fr", "Penser à acheter du pain pour le dîner chez {name}."),
            ("de", "Daran denken, {name} zum Geburtstag zu gratulieren."), ("it", "Ricordarsi di prenotare il ristorante per {name}."),
            ("pt", "Lembrar de levar o cachorro ao veterinário."), ("nl", "Niet vergeten de vuilnisbak buiten te zetten."),
            ("pl", "Przypomnij mi, żeby zadzwonić do {name}."), ("sv", "Kom ihåg att köpa present till {name}."),
            ("tr", "{name}'ya doğum günü hediyesi almayı unutma."), ("ja", "{name}さんにお礼のメールを送る。"),
            ("zh", "记得给{name}打电话。"), ("ko", "{name}에게 생일 선물 사기."), ("ar", "تذكير: الاتصال بـ{name} مساءً."),
            ("hi", "{name} को जन्मदिन की बधाई देना याद रखें।"), ("vi", "Nhớ gọi điện cho {name} vào cuối tuần.")]
    return ml(r, pool, **f)


@family("mood_journal", "benign", "journal", plain=25)
def f_mood(r, v):
    f = dict(name=pick(r, FIRST))
    pool = [("en", "Felt anxious before the presentation but it went well."), ("en", "Good day - long walk with {name} and an early night."),
            ("en", "Tired and irritable; probably not enough sleep this week."), ("en", "Proud of sticking to the morning stretches."),
            ("en", "Missing {name} a lot since the move."), ("en", "Feeling calmer since cutting back on news in the evening."),
            ("es", "Hoy me sentí con mucha energía después de correr."), ("fr", "Journée difficile au travail, mais dîner agréable avec {name}."),
            ("de", "Heute ziemlich gestresst, Spaziergang hat geholfen."), ("it", "Giornata serena, ho letto molto."),
            ("pt", "Fiquei feliz com a visita da {name}."), ("nl", "Vandaag wat somber, morgen weer sporten."),
            ("pl", "Dziś był spokojny dzień."), ("sv", "Kände mig utvilad efter helgen."), ("tr", "Bugün biraz yorgun hissettim."),
            ("ja", "今日は気分が良かった。散歩が効いたかも。"), ("zh", "今天心情不错，和{name}吃了午饭。"), ("ko", "오늘은 조금 우울했지만 저녁에 나아짐."),
            ("ar", "شعرت بالراحة بعد نزهة طويلة."), ("hi", "आज मन अच्छा था।"), ("vi", "Hôm nay cảm thấy vui vẻ hơn.")]
    return ml(r, pool, **f)


@family("pet", "benign", "personal_fact", plain=20)
def f_pet(r, v):
    f = dict(p=pick(r, WORDS).capitalize(), a=pick(r, ["cat", "dog", "rabbit", "parrot"]))
    pool = [("en", "Has a {a} called {p} who hates the vacuum cleaner."), ("en", "{p} the {a} needs a special kidney diet."),
            ("en", "Walks {p} before work; the dog walker comes at lunch."), ("es", "Su gata se llama {p} y es muy tímida."),
            ("fr", "Le chien {p} a peur des orages."), ("de", "Der Kater {p} ist schon ziemlich alt."), ("it", "Il cane {p} adora il mare."),
            ("pt", "O gato {p} dorme o dia todo."), ("nl", "Hun konijn heet {p}."), ("pl", "Pies {p} uwielbia spacery w lesie."),
            ("sv", "Katten {p} är allergisk mot kyckling."), ("ja", "猫の{p}はとても人懐っこい。"), ("ko", "강아지 {p}는 산책을 좋아함."),
            ("tr", "Kedisi {p} çok tembel.")]
    return ml(r, pool, **f)


@family("learning", "benign", "personal_fact", plain=20)
def f_learning(r, v):
    f = dict(l=pick(r, ["Portuguese", "Japanese", "Spanish", "Korean", "German", "sign language", "Italian", "Arabic"]), name=pick(r, FIRST))
    pool = [("en", "Is learning {l}; practise a little every evening."), ("en", "Wants vocabulary quizzes in {l} on weekends."),
            ("en", "Takes an online statistics course; finds proofs hard."), ("en", "{name} is teaching her to play the piano."),
            ("es", "Está aprendiendo alemán para el trabajo."), ("fr", "Apprend l'espagnol avec une application."),
            ("de", "Lernt gerade Italienisch für den Urlaub."), ("it", "Studia giapponese da un anno."), ("pt", "Está aprendendo a tocar violão."),
            ("nl", "Leert Zweeds voor de verhuizing."), ("pl", "Uczy się hiszpańskiego."), ("sv", "Läser en kurs i programmering."),
            ("ja", "韓国語を勉強中。"), ("zh", "正在学习西班牙语。"), ("ko", "일본어를 배우는 중."), ("ar", "يتعلم اللغة الألمانية."),
            ("hi", "अंग्रेज़ी बोलने का अभ्यास कर रहे हैं।"), ("vi", "Đang học tiếng Anh để đi du học."), ("tr", "İspanyolca öğreniyor.")]
    return ml(r, pool, **f)


# =====================================================================
# SECRETS (all values are random and made up here)
# =====================================================================
def _user(r):
    n = pick(r, FIRST).lower().replace("í", "i").replace("-", "")
    return pick(r, [f"{n}.{pick(r, LAST).lower()[:5]}@example.com", f"{n}{dg(r, 2)}", f"{n}_{pick(r, WORDS)}", f"{n}@example.org"])


PW_PLAIN = [("en", "My {svc} password is {pw}"), ("en", "{svc} login: {u} / password {pw}"), ("en", "Password for {svc}: {pw}"),
            ("en", "New {svc} password (changed today): {pw}"), ("en", "Remember my {svc} password for me: {pw}"),
            ("en", "Work laptop password is {pw} - IT reset it this morning."),
            ("es", "Mi contraseña de {svc} es {pw}"), ("fr", "Mon mot de passe {svc} : {pw}"), ("de", "Mein {svc}-Passwort lautet {pw}"),
            ("it", "La password di {svc} è {pw}"), ("pt", "A senha do {svc} é {pw}"), ("nl", "Mijn wachtwoord voor {svc} is {pw}"),
            ("pl", "Hasło do {svc}: {pw}"), ("sv", "Lösenordet till {svc} är {pw}"), ("tr", "{svc} şifrem: {pw}"),
            ("ja", "{svc}のパスワードは {pw}"), ("zh", "{svc}的密码是 {pw}"), ("ko", "{svc} 비밀번호는 {pw}"),
            ("ar", "كلمة المرور لحساب {svc} هي {pw}"), ("hi", "{svc} का पासवर्ड {pw} है"), ("vi", "Mật khẩu {svc} là {pw}")]


@family("password", "secret", "password", plain=22, hard=22)
def s_password(r, v):
    f = dict(svc=pick(r, SVC_SHORT), pw=gen_password(r), u=_user(r), pw2=gen_password(r), name=pick(r, FIRST))
    if v == "plain":
        return ml(r, PW_PLAIN, **f)
    w = pick(r, WORDS); d4 = dg(r, 4)
    pool = [("en", lambda **f: {"accounts": [{"site": f["svc"].lower() + ".com", "user": f["u"], "pass": f["pw"]},
                                             {"site": "library", "user": f["name"].lower(), "note": "uses SSO"}]}),
            ("en", lambda **f: chat("ok save this for me, the school portal login", "Sure, what is it?",
                                    f"user {f['u']} and it's {f['pw']}")),
            ("en", lambda **f: f"name,url,username,password\n{f['svc']},https://{f['svc'].lower()}.com,{f['u']},{f['pw']}\nLibrary,https://lib.example.org,{f['name'].lower()},{f['pw2']}"),
            ("en", "{svc} -> {u} / {pw}"),
            ("en", "notes: buy stamps; gym pw {pw}; call {name}"),
            ("en", "Changed my {svc} password from {pw2} to {pw}."),
            ("en", lambda **f: f"Laptop login is the word '{w}' followed by {d4} and an exclamation mark, i.e. {w}{d4}!"),
            ("en", "Passphrase for my KeePass database: {pw}"),
            ("en", lambda **f: f"admin:\n  username: {f['u']}\n  password: \"{f['pw']}\"\n  email_notifications: true"),
            ("de", "Kennwort fürs Laptop: {pw}"), ("de", "Zugangsdaten Elternportal: Benutzer {u}, PW {pw}"),
            ("pl", "hasło do laptopa {pw}"), ("pt", "Login do Windows: usuário {u}, senha {pw}"),
            ("es", "usuario: {u}\nclave: {pw}\n(la del banco online)"), ("fr", "identifiant {u} - mdp {pw}"),
            ("it", "credenziali del portale: {u} / {pw}"), ("ja", "ログイン情報：ID {u} / PW {pw}"), ("zh", "账号 {u} 密码 {pw}"),
            ("ko", "아이디 {u} 비번 {pw}"), ("tr", "e-Devlet şifresi: {pw}"), ("vi", "mật khẩu email công ty: {pw}"),
            ("sv", "inlogg {svc}: {u} / lösen {pw}"), ("nl", "ww {svc}: {pw}"), ("ar", "اسم المستخدم {u} وكلمة السر {pw}"),
            ("hi", "लॉगिन: {u}, पासवर्ड: {pw}")]
    return ml(r, pool, **f)


DIGIT_WORDS = {"en": ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
               "es": ["cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
               "de": ["null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun"]}

PIN_PLAIN = [("en", "My debit card PIN is {pin4}"), ("en", "Phone unlock PIN: {pin}"), ("en", "Voicemail PIN is {pin}"),
             ("en", "SIM PIN {pin4}, PUK {puk}"), ("en", "Credit card PIN: {pin4}"), ("en", "Banking app passcode: {pin6}"),
             ("es", "El PIN de mi tarjeta es {pin4}"), ("fr", "Code PIN de la carte bleue : {pin4}"), ("de", "PIN der Girokarte: {pin4}"),
             ("it", "Il PIN del bancomat è {pin4}"), ("pt", "Senha do cartão de débito: {pin4}"), ("nl", "Pincode van mijn bankpas: {pin4}"),
             ("pl", "PIN do karty: {pin4}"), ("sv", "Pinkoden till kortet är {pin4}"), ("tr", "Kart şifrem {pin4}"),
             ("ja", "キャッシュカードの暗証番号は{pin4}"), ("zh", "银行卡密码是{pin6}"), ("ko", "카드 비밀번호 {pin4}"),
             ("ar", "الرقم السري لبطاقة الصراف {pin4}"), ("hi", "एटीएम पिन {pin4} है"), ("vi", "Mã PIN thẻ ATM là {pin4}")]


@family("pin", "secret", "pin", plain=14, hard=14)
def s_pin(r, v):
    f = dict(pin=gen_pin(r), pin4=dg(r, 4), pin6=dg(r, 6), puk=dg(r, 8), name=pick(r, FIRST), bank=pick(r, ["Chase", "ING", "Santander", "Sparkasse", "BBVA", "Monzo"]))
    if v == "plain":
        return ml(r, PIN_PLAIN, **f)
    p4 = f["pin4"]
    pool = [("en", lambda **f: f"phone code {' '.join(f['pin6'])}"),
            ("en", lambda **f: "card PIN is " + " ".join(DIGIT_WORDS['en'][int(c)] for c in p4)),
            ("es", lambda **f: "el pin es " + " ".join(DIGIT_WORDS['es'][int(c)] for c in p4)),
            ("de", lambda **f: "Geheimzahl: " + " ".join(DIGIT_WORDS['de'][int(c)] for c in p4)),
            ("en", lambda **f: {"wallet": [{"card": "debit", "bank": f["bank"], "pin": p4}, {"card": "library", "number": dg1(r, 8)}]}),
            ("en", "Mum's stuff: card PIN {pin4}, phone {pin6}, ask {name} for the rest"),
            ("en", lambda **f: chat("can you remember the kids' tablet passcode", "I can note it, what is it?", f"{f['pin6']}")),
            ("en", "iPad passcode {pin6} (the old one)"),
            ("en", "PUK for the work SIM: {puk}"),
            ("de", "Tablet der Kinder: Code {pin4}"),
            ("ja", lambda **f: "暗証番号：" + " ".join(p4)),
            ("fr", "code carte {pin4} / code tel {pin6}"),
            ("pt", "senha de 4 dígitos do cartão {bank}: {pin4}"),
            ("ko", "휴대폰 잠금 {pin6}"),
            ("ar", lambda **f: f"رمز فتح الهاتف {f['pin6']}"),
            ("hi", "कार्ड का पिन: {pin4}"), ("zh", "手机解锁密码 {pin6}"), ("tr", "Telefon kilidi {pin6}"),
            ("it", "pin sim {pin4}, puk {puk}"), ("vi", "mã mở khóa điện thoại {pin6}")]
    return ml(r, pool, **f)


ACC_PLAIN = [("en", "Gate code is {c}"), ("en", "Alarm disarm code: {c}"), ("en", "Safe combination {a}-{b}-{d}"),
             ("en", "Garage door keypad code {c}"), ("en", "Building door code {c}#"), ("en", "Lockbox at the Airbnb: {c}"),
             ("es", "El código del portal es {c}"), ("fr", "Code de la porte d'entrée : {c}"), ("de", "Türcode: {c}"),
             ("it", "Il codice del cancello è {c}"), ("pt", "Código do portão: {c}"), ("nl", "Code van de voordeur: {c}"),
             ("pl", "Kod do domofonu: {c}"), ("sv", "Portkoden är {c}"), ("tr", "Kapı şifresi {c}"), ("ja", "オートロックの暗証番号は{c}"),
             ("zh", "门禁密码{c}"), ("ko", "현관 비밀번호 {c}"), ("ar", "رمز البوابة {c}"), ("hi", "गेट का कोड {c}"), ("vi", "Mã cửa chung cư: {c}")]


@family("access_code", "secret", "access_code", plain=12, hard=12)
def s_access(r, v):
    f = dict(c=dg(r, pick(r, [4, 4, 5, 6])), c2=dg(r, 4), c3=dg(r, 3), a=r.randint(0, 59), b=r.randint(0, 59), d=r.randint(0, 59),
             name=pick(r, FIRST), L=pick(r, "ABC"))
    if v == "plain":
        return ml(r, ACC_PLAIN, **f)
    pool = [("en", "For the dog sitter: key box left of the door, code {c}; alarm {c2} then #."),
            ("de", "Tresor: {a}-{b}-{d}"), ("en", "garage {c} / alarm {c2} / shed lock {c3}"),
            ("en", lambda **f: {"house_manual": {"wifi": "see router sticker", "bins": "Tuesday",
                                                 "entry": {"keypad": f["c"], "alarm_panel": f["c2"] + "*"}}}),
            ("en", lambda **f: chat("What did the host say about check-in?", "They sent a message this morning.",
                                    f"right, the lockbox combo is {f['c']}, save that")),
            ("de", "Omas Haus: Alarmanlage {c2}*, Garage {c}"), ("fr", "Digicode {c}{L}, interphone au nom de {name}"),
            ("es", "para entrar al garaje: {c} y luego la tecla verde"), ("en", "bike lock combo {c3}, locker padlock {c2}"),
            ("en", "office after hours: side door keypad {c}, then disarm with {c2}"),
            ("ja", "倉庫の鍵ボックス {c3}、玄関 {c}"), ("nl", "sleutelkastje bij de achterdeur: {c}"),
            ("it", "cassaforte in camera: {c}"), ("zh", "保险柜密码 {a}-{b}-{d}")]
    return ml(r, pool, **f)


@family("wifi_password", "secret", "wifi_password", plain=10, hard=10)
def s_wifi(r, v):
    fam = pick(r, LAST)
    ssid = pick(r, [f"Casa_{fam}", f"{fam}-Home", f"{pick(r, WORDS).capitalize()}Net_5G", f"Vodafone-{an(r, 4, UPALNUM)}"])
    pw = pick(r, [gen_password(r), an(r, 12, LOWALNUM), pick(r, WORDS) + pick(r, WORDS) + dg(r, 4)])
    f = dict(ssid=ssid, pw=pw, fritz=" ".join(dg(r, 4) for _ in range(5)), name=pick(r, FIRST))
    if v == "plain":
        pool = [("en", "Wifi password: {pw}"), ("en", "Home wifi {ssid}, password {pw}"), ("de", "WLAN-Passwort: {pw}"),
                ("es", "La clave del wifi es {pw}"), ("fr", "Mot de passe wifi : {pw}"), ("pt", "Senha do wifi: {pw}"),
                ("zh", "wifi 密码 {pw}"), ("ko", "와이파이 비밀번호 {pw}"), ("ja", "Wi-Fiのパスワード {pw}"),
                ("nl", "Wachtwoord wifi: {pw}"), ("pl", "Hasło do wifi: {pw}"), ("it", "Password del wifi: {pw}"),
                ("tr", "Wifi şifresi {pw}"), ("vi", "Mật khẩu wifi: {pw}"), ("ar", "كلمة سر الواي فاي {pw}")]
        return ml(r, pool, **f)
    pool = [("en", "WIFI:S:{ssid};T:WPA;P:{pw};;"), ("en", "{ssid} / {pw}"),
            ("en", lambda **f: {"network": {"ssid": f["ssid"], "security": "WPA2", "psk": f["pw"]}}),
            ("en", lambda **f: f"network={{\n    ssid=\"{f['ssid']}\"\n    psk=\"{f['pw']}\"\n}}"),
            ("de", "WLAN-Schlüssel vom Router-Aufkleber: {fritz}"),
            ("en", "Guest network {ssid}, key {pw} - give it to visitors"),
            ("en", "nmcli dev wifi connect {ssid} password '{pw}'"),
            ("es", "wifi de la casa de la playa: red {ssid}, clave {pw}"),
            ("fr", "Box : réseau {ssid}, clé WPA {pw}"),
            ("en", lambda **f: chat("what's the wifi here?", f"Network {f['ssid']}, {f['name']} said the key is {f['pw']}"))]
    return ml(r, pool, **f)


B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


@family("otp_code", "secret", "one_time_code", plain=10, hard=10)
def s_otp(r, v):
    svc = pick(r, SVC_SHORT)
    f = dict(svc=svc, code=dg(r, 6), code8=dg(r, 8), u=_user(r),
             backup="\n".join(f"{dg(r, 4)} {dg(r, 4)}" for _ in range(r.randint(5, 10))),
             bk2="  ".join(f"{an(r, 4, LOWALNUM)}-{an(r, 4, LOWALNUM)}" for _ in range(r.randint(6, 10))),
             seed=an(r, 32, B32))
    if v == "plain":
        pool = [("en", "Verification code from {svc}: {code} (valid 10 minutes)"), ("en", "Backup codes for {svc}:\n{backup}"),
                ("en", "{svc} recovery codes: {bk2}"), ("de", "TAN für die Überweisung: {code}"),
                ("es", "Código de verificación de {svc}: {code}"), ("fr", "Code de vérification {svc} : {code}"),
                ("ja", "{svc}の確認コード: {code}"), ("zh", "{svc}验证码：{code}"), ("pt", "Código de backup do {svc}: {code8}"),
                ("it", "Codici di recupero {svc}:\n{backup}")]
        return ml(r, pool, **f)
    pool = [("en", "otpauth://totp/{svc}:{u}?secret={seed}&issuer={svc}&digits=6"),
            ("en", "2FA setup key for {svc} (the text under the QR): {seed}"),
            ("en", lambda **f: {"sms_inbox": [{"from": f["svc"], "text": f"{f['code']} is your {f['svc']} login code. Don't share it."}]}),
            ("en", lambda **f: chat(f"I just got a code from {f['svc']}, it's {f['code'][:3]} {f['code'][3:]} - can you log in for me?",
                                    "I can't log in on your behalf, but here's how to do it yourself.")),
            ("en", "G-{code} is your Google verification code."),
            ("ko", "인증번호 [{code}] 타인 노출 금지"), ("tr", "Doğrulama kodunuz: {code}"),
            ("en", lambda **f: "Printed backup codes (used ones crossed out):\n" + f["backup"]),
            ("de", "Wiederherstellungscodes {svc}: {bk2}"), ("sv", "Engångskod från banken: {code}")]
    return ml(r, pool, **f)


SEC_ANS = ["Kowalczyk", "Biscuit", "Mrs. Haverford", "Lisbon", "Blue Beetle", "Pemberton", "Rex", "Avenida Sol", "Whiskers", "Dunmore",
           "Fernández", "Snowball", "Tallinn", "Maple Street", "Oskar", "Bergström", "Pinocchio", "Yamamoto", "Ms. Ravel", "Corvette"]


@family("security_answer", "secret", "security_answer", plain=8, hard=8)
def s_secq(r, v):
    f = dict(x=pick(r, SEC_ANS) + pick(r, ["", "", f"{dg(r, 2)}", "!"]), y=pick(r, SEC_ANS), svc=pick(r, SVC_SHORT))
    if v == "plain":
        pool = [("en", "Security question answer for {svc} (mother's maiden name): {x}"),
                ("en", "Bank security answer - first pet: {x}"),
                ("es", "Respuesta de seguridad de {svc} (nombre de mi primera mascota): {x}"),
                ("de", "Sicherheitsfrage 'Name des ersten Haustiers' bei {svc}: {x}"),
                ("fr", "Question secrète {svc} (ville de naissance de ma mère) : {x}"),
                ("ja", "{svc}の秘密の質問の答え（初めて飼ったペット）: {x}"),
                ("pt", "Resposta da pergunta de segurança do {svc}: {x}"),
                ("it", "Risposta alla domanda di sicurezza ({svc}): {x}")]
        return ml(r, pool, **f)
    pool = [("en", lambda **f: {"svc": f["svc"], "security_questions": [{"q": "Favourite teacher?", "a": f["x"]}, {"q": "Street you grew up on?", "a": f["y"]}]}),
            ("en", "If {svc} asks 'favourite teacher' on the phone, the answer I set is {x}"),
            ("en", "secret answers (fake ones I made up for {svc}): city of birth = {x}, first car = {y}"),
            ("nl", "Beveiligingsvraag {svc}: antwoord is {x}"), ("pl", "Odpowiedź na pytanie bezpieczeństwa: {x}"),
            ("en", lambda **f: chat("what did I set as the answer for the bank's security question?", f"You told me it was '{f['x']}'.", "right, keep that"))]
    return ml(r, pool, **f)


@family("payment_card", "secret", "payment_card", plain=14, hard=16)
def s_card(r, v):
    brand, num = card_number(r)
    cvv = dg(r, 4 if brand == "Amex" else 3)
    f = dict(brand=brand, num=group_card(num), raw=num, exp=expiry(r), cvv=cvv, name=f"{pick(r, FIRST).upper()} {pick(r, LAST).upper()}",
             dash=group_card(num, "-"))
    if v == "plain":
        pool = [("en", "My {brand}: {num} exp {exp} CVV {cvv}"), ("en", "Card for online shopping: {num}, expires {exp}, security code {cvv}"),
                ("es", "Tarjeta {num}, caduca {exp}, CVV {cvv}"), ("de", "Kreditkarte {num}, gültig bis {exp}, Prüfnummer {cvv}"),
                ("fr", "Carte {num} exp {exp} cryptogramme {cvv}"), ("it", "Carta {num} scadenza {exp} CVV {cvv}"),
                ("pt", "Cartão {num} validade {exp} CVV {cvv}"), ("nl", "Creditcard {num}, geldig tot {exp}, CVC {cvv}"),
                ("pl", "Karta {num}, ważna do {exp}, CVC {cvv}"), ("ja", "カード番号{num} 有効期限{exp} セキュリティコード{cvv}"),
                ("zh", "卡号{num}，有效期{exp}，安全码{cvv}"), ("ko", "카드번호 {num} 유효기간 {exp} CVC {cvv}"),
                ("tr", "Kart no {num}, SKT {exp}, CVV {cvv}"), ("ar", "رقم البطاقة {num} تاريخ الانتهاء {exp} الرمز {cvv}"),
                ("hi", "कार्ड नंबर {num}, एक्सपायरी {exp}, CVV {cvv}"), ("vi", "Số thẻ {num}, hết hạn {exp}, CVV {cvv}")]
        return ml(r, pool, **f)
    pool = [("en", "{raw}|{exp}|{cvv}"), ("en", "{dash} {exp} {cvv}"),
            ("en", lambda **f: {"payment": {"holder": f["name"], "pan": f["raw"], "exp_month": int(f["exp"][:2]), "exp_year": 2000 + int(f["exp"][3:]), "cvc": f["cvv"]}}),
            ("en", lambda **f: chat("book the hotel with my card please", "I can't enter card details for you, but I can guide you.",
                                    f"fine just remember it then: {f['num']}, {f['exp']}, {f['cvv']}")),
            ("en", lambda **f: f"card first 8: {f['raw'][:8]}\nlast digits: {f['raw'][8:]}\nexp {f['exp']} / code {f['cvv']}"),
            ("en", "{name}\n{num}\nVALID THRU {exp}\n(back: {cvv})"),
            ("en", "{brand} {num} - thru {exp}"),
            ("de", "Karte von Papa: {raw}, Ablauf {exp}"),
            ("es", "la tarjeta de empresa: {dash}, vence {exp}, código detrás {cvv}"),
            ("fr", "CB pour les courses en ligne {raw} {exp} {cvv}"),
            ("ja", "会社のカード {raw} / {exp} / {cvv}"),
            ("en", lambda **f: f"cc: {f['raw'][:4]} {f['raw'][4:8]} {f['raw'][8:12]} {f['raw'][12:]} ({f['exp'].replace('/', '')}) cvv{f['cvv']}")]
    return ml(r, pool, **f)


def vendor_token(r):
    """(vendor, env var name, token) with random bodies in each vendor's public format."""
    k = r.randrange(26)
    if k == 0:
        return "AWS", "AWS_SECRET_ACCESS_KEY", ("AKIA" + an(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"), an(r, 40, ALNUM + "/+"))
    if k == 1:
        return "GitHub", "GITHUB_TOKEN", "ghp_" + an(r, 36)
    if k == 2:
        return "GitHub", "GH_PAT", "github_pat_" + an(r, 22) + "_" + an(r, 59)
    if k == 3:
        return "GitLab", "GITLAB_TOKEN", "glpat-" + an(r, 20, B64URL)
    if k == 4:
        return "Slack", "SLACK_BOT_TOKEN", f"xoxb-{dg1(r, 11)}-{dg1(r, 13)}-{an(r, 24)}"
    if k == 5:
        return "Stripe", "STRIPE_SECRET_KEY", pick(r, ["sk_live_", "rk_live_"]) + an(r, pick(r, [24, 99]))
    if k == 6:
        return "OpenAI", "OPENAI_API_KEY", "sk-proj-" + an(r, 74, B64URL) + "T3BlbkFJ" + an(r, 74, B64URL)
    if k == 7:
        return "Anthropic", "ANTHROPIC_API_KEY", "sk-ant-api03-" + an(r, 93, B64URL) + "AA"
    if k == 8:
        return "Google", "GOOGLE_API_KEY", "AIza" + an(r, 35, B64URL)
    if k == 9:
        return "Twilio", "TWILIO_AUTH_TOKEN", ("AC" + hx(r, 32), hx(r, 32))
    if k == 10:
        return "SendGrid", "SENDGRID_API_KEY", "SG." + an(r, 22, B64URL) + "." + an(r, 43, B64URL)
    if k == 11:
        return "Mailgun", "MAILGUN_API_KEY", "key-" + hx(r, 32)
    if k == 12:
        return "npm", "NPM_TOKEN", "npm_" + an(r, 36)
    if k == 13:
        return "PyPI", "PYPI_TOKEN", "pypi-AgEIcHlwaS5vcmc" + an(r, 150, B64URL)
    if k == 14:
        return "Hugging Face", "HF_TOKEN", "hf_" + an(r, 34, string.ascii_letters)
    if k == 15:
        return "Shopify", "SHOPIFY_ACCESS_TOKEN", "shpat_" + hx(r, 32)
    if k == 16:
        return "DigitalOcean", "DIGITALOCEAN_TOKEN", "dop_v1_" + hx(r, 64)
    if k == 17:
        return "Discord", "DISCORD_BOT_TOKEN", b64utxt(dg1(r, 18)) + "." + an(r, 6, B64URL) + "." + an(r, 38, B64URL)
    if k == 18:
        return "Telegram", "TELEGRAM_BOT_TOKEN", f"{dg1(r, 10)}:AA{an(r, 33, B64URL)}"
    if k == 19:
        return "Datadog", "DD_API_KEY", hx(r, 32)
    if k == 20:
        return "Notion", "NOTION_TOKEN", pick(r, ["secret_" + an(r, 43), "ntn_" + dg(r, 11) + an(r, 35)])
    if k == 21:
        return "Linear", "LINEAR_API_KEY", "lin_api_" + an(r, 40)
    if k == 22:
        return "Postman", "POSTMAN_API_KEY", f"PMAK-{hx(r, 24)}-{hx(r, 34)}"
    if k == 23:
        return "Databricks", "DATABRICKS_TOKEN", "dapi" + hx(r, 32)
    if k == 24:
        return "Grafana", "GRAFANA_SA_TOKEN", "glsa_" + an(r, 32) + "_" + hx(r, 8)
    return "Azure", "AZURE_STORAGE_KEY", b64(r, 64)


def _tok_str(tok):
    return tok if isinstance(tok, str) else tok[1]


@family("api_token", "secret", "api_key", plain=25, hard=35)
def s_token(r, v):
    vendor, var, tok = vendor_token(r)
    if isinstance(tok, tuple):
        kid, sec = tok
        if vendor == "AWS":
            body = f"access key {kid}, secret {sec}"
            if v == "hard":
                k = r.randrange(3)
                if k == 0:
                    return f"[default]\naws_access_key_id = {kid}\naws_secret_access_key = {sec}\nregion = {pick(r, ['eu-west-1', 'us-east-1'])}", "en"
                if k == 1:
                    return {"Credentials": {"AccessKeyId": kid, "SecretAccessKey": sec, "Expiration": iso(r, False)}}, "en"
                return f"export AWS_ACCESS_KEY_ID={kid}\nexport AWS_SECRET_ACCESS_KEY={sec}", "en"
            return pick(r, [f"My personal AWS keys: {body}", f"AWS IAM user for the backup script - {body}"]), "en"
        body = f"Account SID {kid}, auth token {sec}"
        if v == "hard":
            return f"client = Client(\"{kid}\", \"{sec}\")  # twilio, sends the appointment SMS", "en"
        return f"Twilio for the reminder bot: {body}", "en"
    if v == "plain":
        pool = [("en", f"My {vendor} API key: {tok}"), ("en", f"Saving my {vendor} token here so I don't lose it: {tok}"),
                ("en", f"{vendor} key for the side project -> {tok}"), ("de", f"Mein {vendor}-API-Schlüssel: {tok}"),
                ("es", f"Mi clave de API de {vendor}: {tok}"), ("fr", f"Ma clé API {vendor} : {tok}"),
                ("ja", f"{vendor}のAPIキー: {tok}"), ("pt", f"Token do {vendor}: {tok}"), ("zh", f"{vendor} 的 API 密钥：{tok}"),
                ("it", f"Chiave API {vendor}: {tok}")]
        return ml(r, pool)
    k = r.randrange(14)
    app = pick(r, WORDS)
    if k == 0:
        return f"import os\nclient = Client(api_key=\"{tok}\")  # TODO move to env\nprint(client.ping())", "en"
    if k == 1:
        return f"# .env\nAPP_NAME={app}\n{var}={tok}\nLOG_LEVEL=debug", "en"
    if k == 2:
        return f"{app}:\n  api:\n    base_url: https://api.example.com\n    key: {tok}\n  retries: 3", "en"
    if k == 3:
        return f"curl -s https://api.example.com/v1/items -H \"Authorization: Bearer {tok}\"", "en"
    if k == 4:
        return {"integrations": {vendor.lower().replace(" ", "_"): {"enabled": True, "credentials": {"token": tok}}}}, "en"
    if k == 5:
        return chat(f"why does my {vendor} call return 401?", "Can you show the request (without the key)?",
                    f"sure: headers={{'Authorization': 'Bearer {tok}'}}"), "en"
    if k == 6:
        return f"docker run -e {var}={tok} -p 8080:8080 {app}:latest", "en"
    if k == 7:
        if vendor == "npm":
            return f"//registry.npmjs.org/:_authToken={tok}", "en"
        if vendor == "GitHub":
            return f"git remote set-url origin https://{pick(r, FIRST).lower().replace('í', 'i').replace('-', '')}:{tok}@github.com/acme/{app}.git", "en"
        return f"const {vendor.split()[0].lower()}Key = '{tok}';", "en"
    if k == 8:
        return f"$env:{var} = \"{tok}\"", "en"
    if k == 9:
        return f"Slack webhook for alerts: https://hooks.slack.com/services/T{an(r, 8, UPALNUM)}/B{an(r, 10, UPALNUM)}/{an(r, 24)}", "en"
    if k == 10:
        return f"Discord webhook: https://discord.com/api/webhooks/{dg1(r, 18)}/{an(r, 68, B64URL)}", "en"
    if k == 11:
        return pick(r, [(f"Der {vendor}-Token fürs Projekt: {tok}", "de"), (f"el token de {vendor} del proyecto es {tok}", "es"),
                        (f"{vendor} 토큰: {tok}", "ko"), (f"token {vendor} do projeto: {tok}", "pt")])
    if k == 12:
        return f"kubectl create secret generic {app}-api --from-literal={var.lower()}={tok}", "en"
    return f"[{app}]\nendpoint = https://api.example.com\ntoken = {tok}", "en"


@family("connection_string", "secret", "connection_string", plain=8, hard=12)
def s_conn(r, v):
    pw = "".join(c for c in gen_password(r) if c not in " @/:#%?&;=")
    user = pick(r, ["app", "admin", "postgres", "svc_report", "root", "budget_rw"])
    host = pick(r, ["db.internal", f"{pick(r, WORDS)}.c{an(r, 12, LOWALNUM)}.eu-west-1.rds.amazonaws.com", "10.0.3.12", "mysql.example.com"])
    k = r.randrange(9)
    cs = [f"postgres://{user}:{pw}@{host}:5432/{pick(r, WORDS)}",
          f"mysql://{user}:{pw}@{host}:3306/shop",
          f"mongodb+srv://{user}:{pw}@cluster0.{an(r, 5, LOWALNUM)}.mongodb.net/?retryWrites=true&w=majority",
          f"redis://:{pw}@cache.internal:6379/0",
          f"amqp://{user}:{pw}@rabbit.internal:5672/%2f",
          f"Server=tcp:{pick(r, WORDS)}.database.windows.net,1433;Database=app;User ID={user};Password={pw};Encrypt=true;",
          f"jdbc:postgresql://{host}:5432/app?user={user}&password={pw}&ssl=true",
          f"DefaultEndpointsProtocol=https;AccountName={pick(r, WORDS)}{dg(r, 3)};AccountKey={b64(r, 64)};EndpointSuffix=core.windows.net",
          f"smtps://{user}%40example.com:{pw}@smtp.example.com:465"][k]
    if v == "plain":
        return pick(r, [(f"Prod DB connection string: {cs}", "en"), (f"Connection string for the reporting database: {cs}", "en"),
                        (f"Cadena de conexión de la base de datos: {cs}", "es"), (f"Verbindungszeichenfolge: {cs}", "de")])
    j = r.randrange(5)
    if j == 0:
        return f"DATABASE_URL={cs}", "en"
    if j == 1:
        return f"engine = create_engine(\"{cs}\")", "en"
    if j == 2:
        return {"ConnectionStrings": {"Default": cs}, "Logging": {"LogLevel": {"Default": "Information"}}}, "en"
    if j == 3:
        return f"services:\n  api:\n    environment:\n      - DATABASE_URL={cs}", "en"
    return chat("the migration fails, here is my setting", "What error do you get?", f"cs = {cs} and it says timeout"), "en"


RSA_HDR = "MIIEowIBAAKCAQEA"
EC_HDR = "MHcCAQEEI"
PKCS8_HDR = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ"
OSSH_HDR = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACA"


def private_key_pem(r):
    k = r.randrange(4)
    if k == 0:
        return pem("RSA PRIVATE KEY", RSA_HDR + b64(r, 1180)[len(RSA_HDR):])
    if k == 1:
        return pem("EC PRIVATE KEY", EC_HDR + b64(r, 114)[len(EC_HDR):])
    if k == 2:
        return pem("PRIVATE KEY", PKCS8_HDR + b64(r, 1190)[len(PKCS8_HDR):])
    body = OSSH_HDR + b64(r, 330)[len(OSSH_HDR):]
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n" + wrap(body, 70) + "\n-----END OPENSSH PRIVATE KEY-----"


@family("private_key", "secret", "private_key", plain=7, hard=8)
def s_privkey(r, v):
    if v == "plain":
        key = private_key_pem(r)
        return pick(r, [(f"My server's private key (keep!):\n{key}", "en"), (f"Private key for the home VPN box:\n{key}", "en"),
                        (f"Clave privada del servidor:\n{key}", "es"), (f"Deploy key (private half):\n{key}", "en")])
    k = r.randrange(6)
    if k == 0:
        proj = f"{pick(r, WORDS)}-{dg(r, 6)}"
        return {"type": "service_account", "project_id": proj, "private_key_id": hx(r, 40),
                "private_key": pem("PRIVATE KEY", PKCS8_HDR + b64(r, 1190)[len(PKCS8_HDR):]) + "\n",
                "client_email": f"ci@{proj}.iam.gserviceaccount.com", "client_id": dg1(r, 21)}, "en"
    if k == 1:
        return (f"[Interface]\nPrivateKey = {b64(r, 32)}\nAddress = 10.8.0.{r.randint(2, 250)}/24\nDNS = 1.1.1.1\n\n[Peer]\n"
                f"PublicKey = {b64(r, 32)}\nEndpoint = {ip_doc(r)}:51820\nAllowedIPs = 0.0.0.0/0"), "en"
    if k == 2:
        return f"ETH wallet private key: 0x{hx(r, 64)}", "en"
    if k == 3:
        return f"# created: {iso(r, False)}\n# public key: age1{an(r, 58, 'qpzry9x8gf2tvdw0s3jn54khce6mua7l')}\nAGE-SECRET-KEY-1{an(r, 58, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L')}", "en"
    if k == 4:
        return chat("my ssh doesn't work, here's the key file", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{wrap(OSSH_HDR + b64(r, 330)[len(OSSH_HDR):], 70)}\n-----END OPENSSH PRIVATE KEY-----"), "en"
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQVYBG" + wrap(b64(r, 700)) + f"\n={b64(r, 3)}\n-----END PGP PRIVATE KEY BLOCK-----"), "en"


@family("seed_phrase", "secret", "seed_phrase", plain=4, hard=4)
def s_seed(r, v):
    words = r.sample(WORDS, pick(r, [12, 12, 24]))
    if v == "plain":
        return pick(r, [(f"My wallet recovery phrase: {' '.join(words)}", "en"), (f"MetaMask seed phrase - {' '.join(words)}", "en"),
                        (f"Frase de recuperación de la cartera: {' '.join(words)}", "es")])
    k = r.randrange(3)
    if k == 0:
        return "\n".join(f"{i + 1}. {w}" for i, w in enumerate(words)), "en"
    if k == 1:
        return {"wallet": "Ledger", "backup": {"mnemonic": " ".join(words), "passphrase": None}}, "en"
    return "Wiederherstellungswörter (Hardware-Wallet): " + ", ".join(words), "de"


@family("basic_auth", "secret", "credential_in_url", plain=4, hard=8)
def s_basic(r, v):
    user = pick(r, ["admin", "pi", "ana", "backup", "deploy", "root"]); pw = gen_password(r).replace(" ", "-").replace("@", "a").replace("/", "").replace(":", "")
    if v == "plain":
        return pick(r, [f"Router admin: http://{user}:{pw}@192.168.1.1", f"NAS web UI http://{user}:{pw}@{ip_priv(r)}:5000",
                        f"Camera stream rtsp://{user}:{pw}@{ip_priv(r)}:554/stream1"]), "en"
    k = r.randrange(6)
    if k == 0:
        return f"curl -u {user}:{pw} https://api.example.com/v1/export", "en"
    if k == 1:
        return f"Authorization: Basic {b64txt(user + ':' + pw)}", "en"
    if k == 2:
        return f"machine api.example.com\n  login {user}\n  password {pw}", "en"
    if k == 3:
        return f"https://{user}:{pw}@git.example.com\n", "en"
    if k == 4:
        return f"[global]\nindex-url = https://{user}:{pw}@pypi.example.com/simple", "en"
    return {"printer": {"url": f"http://{ip_priv(r)}", "auth": {"type": "basic", "username": user, "password": pw}}}, "en"


def jwt(r):
    hdr = b64utxt(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")))
    now = int(when(r).timestamp())
    pl = b64utxt(json.dumps({"sub": dg1(r, 7), "name": pick(r, FIRST), "role": pick(r, ["user", "admin"]), "iat": now, "exp": now + 86400},
                            separators=(",", ":")))
    return f"{hdr}.{pl}.{b64u(r, 32)}"


@family("bearer_session", "secret", "session_token", plain=4, hard=8)
def s_bearer(r, v):
    t = jwt(r)
    if v == "plain":
        return pick(r, [f"Bearer token for the clinic API (valid 24h): {t}", f"My session token from the bank site: {t}",
                        f"Access token: {t}"]), "en"
    k = r.randrange(5)
    if k == 0:
        return f"curl https://api.example.com/me -H 'Authorization: Bearer {t}'", "en"
    if k == 1:
        return f"Cookie: sessionid={an(r, 32, LOWALNUM)}; csrftoken={an(r, 64)}", "en"
    if k == 2:
        return {"auth": {"access_token": t, "refresh_token": an(r, 64, B64URL), "expires_in": 3600}}, "en"
    if k == 3:
        return f"__Secure-next-auth.session-token={b64u(r, 120)}", "en"
    return chat("the portal logged me out, I copied this from dev tools", f"localStorage token: {t}"), "en"


# =====================================================================
# build
# =====================================================================
SOURCES = ["chat", "voice_note", "email_import", "manual", "calendar_sync", "journal"]
TAGS = ["health", "finance", "work", "family", "travel", "home", "todo", "misc"]


def maybe_wrap(r, value):
    """Wrap ~15% of string values (either label) in an ordinary memory envelope."""
    if not isinstance(value, str) or r.random() >= 0.15:
        return value
    k = r.randrange(3)
    if k == 0:
        return {"text": value, "source": pick(r, SOURCES), "created_at": iso(r, False)}
    if k == 1:
        return {"memory": value, "tags": r.sample(TAGS, r.randint(1, 3)), "importance": round(r.random(), 2)}
    return {"content": {"body": value, "format": "text"}, "meta": {"session": uid(r), "turn": r.randint(1, 40)}}


def build():
    r = random.Random(SEED)
    users = sorted({"u%05d" % r.randrange(100000) for _ in range(220)})
    seen, keys, recs = set(), set(), []
    langs = defaultdict(Counter)
    for fam in FAMS:
        for variant in ("plain", "hard"):
            n = fam["counts"].get(variant, 0)
            made = tries = 0
            while made < n:
                tries += 1
                if tries > 400 * n:
                    sys.exit(f"cannot make {n} distinct values for {fam['name']}/{variant} (made {made})")
                out = fam["fn"](r, variant)
                value, lang = out[0], out[1]
                kind = out[2] if len(out) > 2 else fam["kind"]
                canon = json.dumps(value, ensure_ascii=False, sort_keys=True)
                if canon in seen:
                    continue
                seen.add(canon)
                value = maybe_wrap(r, value)
                made += 1
                while True:
                    key = "mem_" + hx(r, 8)
                    if key not in keys:
                        keys.add(key)
                        break
                lab = "s" if fam["label"] == "secret" else "b"
                recs.append({"id": f"t2-{lab}-{variant[0]}-{fam['name']}-{made:03d}", "label": fam["label"], "kind": kind,
                             "variant": variant, "namespace": ["memories", pick(r, users)], "key": key, "value": value})
                langs[fam["label"]][lang] += 1
    r.shuffle(recs)
    return recs, langs


def main():
    recs, langs = build()
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for rec in recs:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    digest = hashlib.sha256(open(OUT, "rb").read()).hexdigest()
    lv = Counter((x["label"], x["variant"]) for x in recs)
    fams = defaultdict(set)
    for x in recs:
        fams[x["label"]].add(x["id"].split("-")[3])
    vt = Counter((x["label"], type(x["value"]).__name__) for x in recs)
    print(f"wrote {OUT}: {len(recs)} records, sha256 {digest}")
    for k in sorted(lv):
        print("  ", k, lv[k])
    for lab in sorted(fams):
        print(f"  families[{lab}] = {len(fams[lab])}")
    for lab in sorted(langs):
        print(f"  languages[{lab}] =", dict(sorted(langs[lab].items(), key=lambda kv: -kv[1])))
    print("  value types:", dict(vt))


if __name__ == "__main__":
    main()
