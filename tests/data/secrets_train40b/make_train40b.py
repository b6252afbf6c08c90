#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""make_train40b.py -- deterministic generator of the ``train40b`` labelled corpus.

Each record is a "memory" an assistant could be asked to keep; the label says
whether it holds a usable access credential (``secret``) or not (``benign``).

Python 3.11 standard library only, no network.  A single ``random.Random(SEED)``
drives every choice (including the final shuffle), so running

    python3 make_train40b.py

rewrites ``train40b.jsonl`` (and ``README.md``) byte-identically.

All credential material is random: only the public *shape* of provider formats
(prefixes, lengths, alphabets, armour) is imitated.
"""
import base64
import codecs
import gzip
import hashlib
import html
import json
import os
import random
import re
import string
import urllib.parse
from collections import Counter, defaultdict

SEED = 731402958
R = random.Random(SEED)
HERE = os.path.dirname(os.path.abspath(__file__))
OUT_JSONL = os.path.join(HERE, "train40b.jsonl")
OUT_README = os.path.join(HERE, "README.md")

N_SECRET_PLAIN, N_SECRET_HARD = 1000, 500
N_BENIGN_PLAIN, N_BENIGN_HARD = 1000, 500

# ----------------------------------------------------------------- basics
LOW, UPP, DIG = string.ascii_lowercase, string.ascii_uppercase, string.digits
ALPH = {
    "a": LOW + DIG, "A": UPP + LOW + DIG, "U": UPP + DIG, "L": LOW, "C": UPP,
    "h": "0123456789abcdef", "H": "0123456789ABCDEF", "d": DIG,
    "B": UPP + LOW + DIG + "+/", "b": UPP + LOW + DIG + "-_",
    "r": "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
    "Z": UPP + "234567", "c": "qpzry9x8gf2tvdw0s3jn54khce6mua7l",
    "X": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", "j": LOW + DIG + "!@#%^&*(-_=+)",
    "y": "./" + UPP + LOW + DIG,  # crypt(3) alphabet
    "n": "0123456789abcdfghijklmnpqrsvwxyz",  # nix base32
}
NL = "\n"


def rs(alpha, n):
    return "".join(R.choice(alpha) for _ in range(n))


def ch(seq):
    return R.choice(seq)


def rb(n):
    return R.randbytes(n)


def b64(b):
    return base64.b64encode(b).decode()


def b64u(b):
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def b64np(b):
    return base64.b64encode(b).decode().rstrip("=")


def uuid4():
    h = rs(ALPH["h"], 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{ch('89ab')}{h[17:20]}-{h[20:32]}"


def ulid():
    return "01" + ch("HJK") + rs("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 23)


def d1(n):
    return str(R.randint(1, 9)) + rs(DIG, n - 1)


def sq(v):
    return "'" + v + "'"


def dq(v):
    return '"' + v + '"'


def jesc(v):
    return v.replace('"', '\\"').replace("\n", "\\n")


WORDS = """alpha amber anchor apple arrow aspen atlas aurora badger bamboo banner basil beacon birch bison
blossom breeze bronze cactus canyon cedar cinder citrus clover cobalt comet copper coral cosmos cotton crane
crystal cypress dahlia delta denim dune eagle ember falcon fern fjord flint forest fossil galaxy garnet gecko
geyser ginger glacier granite harbor hazel heron hollow indigo iris island ivory jade jasper juniper kernel
kestrel lagoon lantern lemon lilac linen lotus lunar magma mango maple marble meadow merlin mesa meteor mint
mosaic nectar nebula nimbus nova oak oasis ocean olive onyx orbit orchid otter pebble pepper phoenix pine pixel
plasma polar poppy prairie prism quartz quill radar raven reef ridge river rocket saffron sage salmon sapphire
scarlet sequoia shadow sierra silver slate spruce summit tango tidal timber topaz tulip tundra umber valley
velvet violet walnut willow zephyr""".split()
FIRST = """alice bob carol dmitri emeka fatima giulia hiro ines jonas kavya liam mei nadia oscar priya quentin
rosa sven tariq uma victor wen yusuf zoe amara bruno chloe diego elena farid greta hamza ivan julia kofi lena
marco nina omar paula rahul sara tomas ugo vera""".split()
USERS = ["admin", "deploy", "svc_app", "app", "ci", "jenkins", "backup", "etl", "reporting", "api", "web",
         "worker", "grafana", "airflow", "metabase", "postgres", "root", "ops", "mlops", "analytics", "billing",
         "ingest", "readonly", "appuser", "svc-sync", "dbadmin"] + FIRST
ENVS = ["production", "staging", "dev", "qa", "preprod"]
REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-2", "ap-northeast-1",
           "sa-east-1", "ca-central-1"]
HOSTROLES = ["db", "pg", "mysql", "redis", "mq", "cache", "api", "auth", "search", "es", "kafka", "mongo",
             "ldap", "smtp", "vault", "ci", "files", "metrics"]
HOSTSUF = ["prod", "stg", "dev", "01", "02", "eu1", "us1", "primary", "replica", "blue", "green"]
TEAMS = ["platform", "payments", "growth", "data", "mobile", "infra", "search", "identity", "billing", "ml"]
CHANNELS = ["#infra", "#deploys", "#payments-eng", "#data-platform", "#oncall", "#dev", "#mobile", "#sre",
            "#backend", "#release"]


def word():
    return ch(WORDS)


def user():
    return ch(USERS)


def dom():
    return f"{word()}{ch(['labs', 'works', 'hq', 'cloud', 'systems', 'tech', 'data', 'apps'])}." + \
        ch(["com", "io", "dev", "net", "co", "app"])


def host():
    return f"{ch(HOSTROLES)}-{ch(HOSTSUF)}." + ch(["internal", "svc.cluster.local", "corp.lan", dom()])


def svc():
    return f"{word()}-{ch(['api', 'worker', 'web', 'sync', 'gateway', 'billing', 'ingest', 'auth'])}"


def date():
    return f"2025-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"


def ts():
    return f"{date()}T{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:{R.randint(0, 59):02d}Z"


def ip():
    return f"{R.randint(11, 223)}.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}"


def ticket():
    return f"{ch(['OPS', 'SEC', 'INFRA', 'PLAT', 'PAY', 'DATA', 'INC', 'SRE'])}-{R.randint(100, 9999)}"


def name_parts(n):
    return [p for p in re.split(r"[^A-Za-z0-9]+", n) if p] or ["value"]


def snake(n):
    return "_".join(p.lower() for p in name_parts(n))


def camel(n):
    ps = [p.lower() for p in name_parts(n)]
    return ps[0] + "".join(p.title() for p in ps[1:])


def pascal(n):
    return "".join(p.lower().title() for p in name_parts(n))


def kebab(n):
    return "-".join(p.lower() for p in name_parts(n))


def dotted(n):
    return ".".join(p.lower() for p in name_parts(n))


def header_name(n):
    if n.lower() in ("authorization", "cookie"):
        return n.title()
    return "X-" + "-".join(p.lower().title() for p in name_parts(n))


# ----------------------------------------------------------------- passwords
PW_SYMS = "!#%&*+-=?@^_~."


def gen_pw():
    r = R.random()
    if r < 0.4:
        n = R.randint(12, 28)
        while True:
            s = rs(ALPH["A"] + PW_SYMS, n)
            if any(c.isdigit() for c in s) and any(c in PW_SYMS for c in s) and any(c.isalpha() for c in s):
                return s
    if r < 0.65:
        return f"{word().title()}{ch(PW_SYMS)}{word().title()}{R.randint(10, 9999)}"
    if r < 0.85:
        return ch(["-", ".", "_", "+"]).join(word() for _ in range(R.randint(3, 5))) + str(R.randint(1, 99))
    return rs(ALPH["A"], R.randint(16, 32))


def gen_pw_url(n):
    while True:
        s = rs(ALPH["A"] + "-_.~", n)
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s):
            return s


# ----------------------------------------------------------------- key material
def pem(label, der, width=64):
    body = base64.b64encode(der).decode()
    lines = [body[i:i + width] for i in range(0, len(body), width)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def der_rsa_pkcs1(bits=2048):
    if bits == 2048:
        return bytes.fromhex("308204a40201000282010100") + rb(1180)
    return bytes.fromhex("3082025d02010002818100") + rb(598)


def der_rsa_pkcs8():
    return bytes.fromhex("308204be020100300d06092a864886f70d0101010500048204a8308204a40201000282010100") + rb(1166)


def der_ec_sec1():
    return bytes.fromhex("30770201010420") + rb(32) + bytes.fromhex("a00a06082a8648ce3d030107a144034200") + b"\x04" + rb(64)


def der_ec_pkcs8():
    return (bytes.fromhex("308187020100301306072a8648ce3d020106082a8648ce3d030107046d306b0201010420") + rb(32)
            + bytes.fromhex("a144034200") + b"\x04" + rb(64))


def der_ed25519_pkcs8():
    return bytes.fromhex("302e020100300506032b657004220420") + rb(32)


def der_dsa():
    return bytes.fromhex("308201bb02818100") + rb(435)


def openssh_blob():
    pub = b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rb(32)
    return (b"openssh-key-v1\x00" + b"\x00\x00\x00\x04none" * 2 + b"\x00\x00\x00\x00\x00\x00\x00\x01"
            + len(pub).to_bytes(4, "big") + pub + rb(150 + R.randint(0, 30)))


def pem_private(kind=None):
    kind = kind or ch(["rsa1", "rsa1", "rsa1k", "p8rsa", "ec", "p8ec", "ed", "openssh", "openssh", "dsa", "pgp"])
    if kind == "rsa1":
        return pem("RSA PRIVATE KEY", der_rsa_pkcs1())
    if kind == "rsa1k":
        return pem("RSA PRIVATE KEY", der_rsa_pkcs1(1024))
    if kind == "p8rsa":
        return pem("PRIVATE KEY", der_rsa_pkcs8())
    if kind == "ec":
        return pem("EC PRIVATE KEY", der_ec_sec1())
    if kind == "p8ec":
        return pem("PRIVATE KEY", der_ec_pkcs8())
    if kind == "ed":
        return pem("PRIVATE KEY", der_ed25519_pkcs8())
    if kind == "openssh":
        return pem("OPENSSH PRIVATE KEY", openssh_blob(), 70)
    if kind == "dsa":
        return pem("DSA PRIVATE KEY", der_dsa())
    body = base64.b64encode(b"\x95\x03\xc6\x04" + rb(640)).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return ("-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(lines) + "\n=" + rs(ALPH["B"], 4)
            + "\n-----END PGP PRIVATE KEY BLOCK-----")


def ssh_pub(kind=None):
    kind = kind or ch(["ed", "ed", "rsa", "ecdsa"])
    if kind == "ed":
        return "ssh-ed25519 " + b64(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + rb(32))
    if kind == "rsa":
        return "ssh-rsa " + b64(b"\x00\x00\x00\x07ssh-rsa\x00\x00\x00\x03\x01\x00\x01\x00\x00\x01\x01\x00" + rb(256))
    return "ecdsa-sha2-nistp256 " + b64(b"\x00\x00\x00\x13ecdsa-sha2-nistp256\x00\x00\x00\x08nistp256\x00\x00\x00\x41\x04" + rb(64))


def pem_public():
    k = ch(["rsa", "ec", "ed"])
    if k == "rsa":
        der = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + rb(256) + bytes.fromhex("0203010001")
    elif k == "ec":
        der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + rb(64)
    else:
        der = bytes.fromhex("302a300506032b6570032100") + rb(32)
    return pem("PUBLIC KEY", der)


def pem_cert(label="CERTIFICATE"):
    der = (bytes.fromhex("308203") + rb(1) + bytes.fromhex("308202") + rb(1) + bytes.fromhex("a0030201020214") + rb(20)
           + bytes.fromhex("300d06092a864886f70d01010b0500") + rb(R.randint(600, 1500)))
    return pem(label, der)


# ----------------------------------------------------------------- tokens
def make_jwt(payload=None, alg=None):
    alg = alg or ch(["HS256", "RS256", "ES256", "RS512", "HS384", "PS256", "EdDSA"])
    hdr = {"alg": alg, "typ": "JWT"}
    if R.random() < 0.5:
        hdr["kid"] = rs(ALPH["b"], R.randint(8, 24))
    if payload is None:
        now = R.randint(1735689600, 1767225599)
        s = R.random()
        if s < 0.4:
            payload = {"sub": d1(R.randint(5, 12)), "email": f"{ch(FIRST)}@{dom()}", "role": ch(["admin", "user", "editor", "owner"]),
                       "iat": now}
        elif s < 0.7:
            payload = {"iss": f"https://auth.{dom()}/", "sub": f"{rs(ALPH['a'], 24)}@clients", "aud": f"https://api.{dom()}",
                       "scope": " ".join(R.sample(["read:users", "write:orders", "admin", "read:reports", "write:files", "offline_access"], 3)),
                       "gty": "client-credentials", "iat": now}
        else:
            payload = {"sub": uuid4(), "tenant": word(), "perms": R.sample(["*", "repo", "deploy", "billing", "read", "write"], 2),
                       "iat": now, "jti": uuid4()}
        if R.random() < 0.6:
            payload["exp"] = now + ch([365, 730, 1825, 3650]) * 86400
    sig = {"HS256": 32, "HS384": 48, "RS256": 256, "RS512": 256, "PS256": 256, "ES256": 64, "EdDSA": 64}[alg]
    return (b64u(json.dumps(hdr, separators=(",", ":")).encode()) + "." +
            b64u(json.dumps(payload, separators=(",", ":")).encode()) + "." + b64u(rb(sig)))


def jwt_supabase(role):
    now = R.randint(1700000000, 1760000000)
    return make_jwt({"iss": "supabase", "ref": rs(LOW, 20), "role": role, "iat": now, "exp": now + 315360000}, "HS256")


def jwt_k8s():
    ns = ch(["default", "kube-system", "ci", "monitoring", word()])
    sa = f"{word()}-{ch(['deployer', 'runner', 'controller', 'sa'])}"
    return make_jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": ns,
                     "kubernetes.io/serviceaccount/secret.name": f"{sa}-token-{rs(LOW + DIG, 5)}",
                     "kubernetes.io/serviceaccount/service-account.name": sa,
                     "kubernetes.io/serviceaccount/service-account.uid": uuid4(),
                     "sub": f"system:serviceaccount:{ns}:{sa}"}, "RS256")


def jwt_ed():
    return make_jwt({"a": "rw", "iat": R.randint(1730000000, 1760000000), "id": uuid4()}, "EdDSA")


def discord_token():
    return b64u(str(R.randint(10 ** 17, 10 ** 19 - 1)).encode()) + "." + rs(ALPH["b"], 6) + "." + rs(ALPH["b"], 38)


def gcp_sa():
    proj = f"{word()}-{word()}-{rs(DIG, 6)}"
    nm = f"{word()}-{ch(['sa', 'deployer', 'ci', 'reader', 'etl'])}"
    obj = {"type": "service_account", "project_id": proj, "private_key_id": rs(ALPH["h"], 40),
           "private_key": pem("PRIVATE KEY", der_rsa_pkcs8()) + "\n",
           "client_email": f"{nm}@{proj}.iam.gserviceaccount.com", "client_id": d1(21),
           "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": "https://oauth2.googleapis.com/token",
           "auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
           "client_x509_cert_url": f"https://www.googleapis.com/robot/v1/metadata/x509/{nm}%40{proj}.iam.gserviceaccount.com",
           "universe_domain": "googleapis.com"}
    return json.dumps(obj, indent=ch([None, 2]))


BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve
acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance
advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert
alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst
anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart
apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive
arrow art artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend
attitude attract auction audit august aunt author auto autumn average avocado avoid awake aware away awesome
awful awkward axis baby bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain
barrel base basic basket battle beach bean beauty because become beef before begin behave behind believe below
belt bench benefit best betray better between beyond bicycle bid bike bind biology bird birth bitter black blade
blame blanket blast bleak bless blind blood blossom blouse blue blur blush board boat body boil bomb bone bonus
book boost border boring borrow boss bottom bounce box boy bracket brain brand brass brave bread breeze brick
bridge brief bright bring brisk broccoli broken bronze broom brother brown brush bubble buddy budget buffalo
build bulb bulk bullet bundle bunker burden burger burst bus business busy butter buyer buzz cabbage cabin cable
cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas canyon capable capital captain
car carbon card cargo carpet carry cart case cash casino castle casual cat catalog catch category cattle caught
cause caution cave ceiling celery cement census century cereal certain chair chalk champion change chaos chapter
charge chase chat cheap check cheese chef cherry chest chicken chief child chimney choice choose chronic chuckle
chunk churn cigar cinnamon circle citizen city civil claim clap clarify claw clay clean clerk clever click client
cliff climb clinic clip clock clog close cloth cloud clown club clump cluster clutch coach coast coconut code
coffee coil coin collect color column combine come comfort comic common company concert conduct confirm congress
connect consider control convince cook cool copper copy coral core corn correct cost cotton couch country couple
course cousin cover coyote crack cradle craft cram crane crash crater crawl crazy cream credit creek crew cricket
crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch crush cry crystal cube culture cup
cupboard curious current curtain curve cushion custom cute cycle""".split()


def mnemonic():
    return " ".join(ch(BIP39) for _ in range(ch([12, 12, 24])))


def solana_keypair():
    return json.dumps([R.randint(0, 255) for _ in range(64)])


def docker_auth_json():
    reg = ch(["https://index.docker.io/v1/", "ghcr.io", f"registry.{dom()}", f"{d1(12)}.dkr.ecr.{ch(REGIONS)}.amazonaws.com", "quay.io"])
    tok = b64(f"{user()}:{gen_pw_url(R.randint(14, 30))}".encode())
    return json.dumps({"auths": {reg: {"auth": tok}}}, indent=ch([None, 2]))


# ----------------------------------------------------------------- template engine
TOK = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::(\d+)(?:-(\d+))?)?\}")
SPECIAL = {
    "uuid": lambda n: uuid4(), "UUID": lambda n: uuid4().upper(), "b64": lambda n: b64(rb(n)),
    "b64q": lambda n: urllib.parse.quote(b64(rb(n)), safe=""), "d1": d1, "pw": gen_pw_url,
    "user": lambda n: user(), "host": lambda n: host(), "word": lambda n: word(), "dom": lambda n: dom(),
    "jwt": lambda n: make_jwt(), "jwt_sr": lambda n: jwt_supabase("service_role"), "jwt_k8s": lambda n: jwt_k8s(),
    "jwt_ed": lambda n: jwt_ed(), "pem_rsa": lambda n: pem_private("rsa1"), "pem_p8rsa": lambda n: pem_private("p8rsa"),
    "pem_ec": lambda n: pem_private("ec"), "pem_p8ec": lambda n: pem_private("p8ec"), "gcpsa": lambda n: gcp_sa(),
    "discord": lambda n: discord_token(), "mnemonic": lambda n: mnemonic(), "solkp": lambda n: solana_keypair(),
    "dockerauth": lambda n: docker_auth_json(), "region": lambda n: ch(REGIONS),
}


def _tok_len(m):
    a, b = m.group(2), m.group(3)
    n = int(a) if a else 0
    if b:
        n = R.randint(n, int(b))
    return n


def expand(t):
    def sub(m):
        k, n = m.group(1), _tok_len(m)
        if k in ALPH:
            return rs(ALPH[k], n)
        return SPECIAL[k](n)
    return TOK.sub(sub, t)


def literal_prefix(t):
    m = TOK.search(t)
    return t if m is None else t[:m.start()]


# ----------------------------------------------------------------- provider catalogue
# F(kind, format_name, "VAR=template" (primary secret) | "VAR~template" (companion field), ...)
CAT = []


def _parse_field(f):
    i = min(x for x in (f.find("="), f.find("~")) if x >= 0)
    return (f[:i], f[i + 1:], f[i] == "=")


def F(kind, name, *fields):
    fl = [_parse_field(f) for f in fields]
    assert sum(1 for x in fl if x[2]) == 1, name
    CAT.append((kind, name, fl))


K_CLOUD, K_PAY, K_LLM, K_VCS, K_CI = "cloud_iaas", "payment_api", "llm_api", "source_hosting", "ci_cd"
K_OBS, K_CHAT, K_MSG, K_DB, K_REG = "observability_apm", "chat_social_hook", "email_sms", "database_dsn", "pkg_registry"
K_CDN, K_AUTH, K_CRYPTO, K_ANA, K_FLAG = "cdn_edge", "identity_auth", "crypto_wallet", "product_analytics", "flag_service"
K_MAPS, K_SEARCH, K_STORE, K_SAAS, K_OPS = "maps_geo", "search_engine_api", "object_storage", "saas_api", "infra_ops"
K_PRIV, K_PW, K_JWT, K_COOKIE, K_BASIC = "asym_private_key", "plain_password", "jwt_bearer", "web_session_cookie", "http_basic_auth"
K_URLUI, K_URLQ = "url_userinfo", "url_query_secret"

# cloud
F(K_CLOUD, "aws_iam_user", "AWS_ACCESS_KEY_ID~AKIA{U:16}", "AWS_SECRET_ACCESS_KEY={B:40}")
F(K_CLOUD, "aws_sts_session", "AWS_ACCESS_KEY_ID~ASIA{U:16}", "AWS_SECRET_ACCESS_KEY={B:40}", "AWS_SESSION_TOKEN~IQoJb3JpZ2luX2VjE{B:280-360}")
F(K_CLOUD, "gcp_api_key", "GOOGLE_API_KEY=AIza{b:35}")
F(K_CLOUD, "gcp_oauth_client", "GOOGLE_CLIENT_ID~{d1:12}-{a:32}.apps.googleusercontent.com", "GOOGLE_CLIENT_SECRET=GOCSPX-{b:28}")
F(K_CLOUD, "gcp_oauth_access_token", "GOOGLE_ACCESS_TOKEN=ya29.a0{b:150-200}")
F(K_CLOUD, "gcp_refresh_token", "GOOGLE_REFRESH_TOKEN=1//0{b:90-100}")
F(K_CLOUD, "gcp_service_account_json", "GOOGLE_CREDENTIALS={gcpsa}")
F(K_CLOUD, "azure_storage_conn", "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName={a:12};AccountKey={b64:64};EndpointSuffix=core.windows.net")
F(K_CLOUD, "azure_storage_key", "AZURE_STORAGE_ACCOUNT~{a:10}", "AZURE_STORAGE_KEY={b64:64}")
F(K_CLOUD, "azure_client_secret", "AZURE_TENANT_ID~{uuid}", "AZURE_CLIENT_ID~{uuid}", "AZURE_CLIENT_SECRET={A:3}8Q~{b:34}")
F(K_CLOUD, "azure_sas_token", "AZURE_STORAGE_SAS_TOKEN=sv=2022-11-02&ss=bfqt&srt=sco&sp=rwdlacupiytfx&se=2027-0{d1:1}-1{d:1}T0{d:1}:00:00Z&st=2025-0{d1:1}-0{d1:1}T00:00:00Z&spr=https&sig={b64q:32}")
F(K_CLOUD, "azure_cosmos", "COSMOS_CONNECTION_STRING=AccountEndpoint=https://{a:10}.documents.azure.com:443/;AccountKey={b64:64};")
F(K_CLOUD, "azure_servicebus", "SERVICEBUS_CONNECTION_STRING=Endpoint=sb://{a:10}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64:32}")
F(K_CLOUD, "azure_eventhub", "EVENTHUB_CONNECTION_STRING=Endpoint=sb://{a:10}.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey={b64:32};EntityPath={word}")
F(K_CLOUD, "azure_signalr", "AZURE_SIGNALR_CONNECTION_STRING=Endpoint=https://{a:10}.service.signalr.net;AccessKey={b64:32};Version=1.0;")
F(K_CLOUD, "azure_appconfig", "APP_CONFIG_CONNECTION_STRING=Endpoint=https://{a:10}.azconfig.io;Id={a:4}-l0-s0:{A:20};Secret={b64:32}")
F(K_CLOUD, "azure_function_key", "AZURE_FUNCTION_KEY={b:54}==")
F(K_CLOUD, "digitalocean_pat", "DIGITALOCEAN_TOKEN=dop_v1_{h:64}")
F(K_CLOUD, "digitalocean_oauth", "DO_OAUTH_TOKEN=doo_v1_{h:64}")
F(K_CLOUD, "digitalocean_refresh", "DO_REFRESH_TOKEN=dor_v1_{h:64}")
F(K_CLOUD, "linode_token", "LINODE_TOKEN={h:64}")
F(K_CLOUD, "vultr_api_key", "VULTR_API_KEY={U:36}")
F(K_CLOUD, "hetzner_token", "HCLOUD_TOKEN={A:64}")
F(K_CLOUD, "ibm_cloud_api_key", "IBMCLOUD_API_KEY={b:44}")
F(K_CLOUD, "alibaba_access_key", "ALIBABA_CLOUD_ACCESS_KEY_ID~LTAI{A:20}", "ALIBABA_CLOUD_ACCESS_KEY_SECRET={A:30}")
F(K_CLOUD, "tencent_secret", "TENCENTCLOUD_SECRET_ID~AKID{A:32}", "TENCENTCLOUD_SECRET_KEY={A:32}")
F(K_CLOUD, "huawei_ak_sk", "HUAWEICLOUD_SDK_AK~{U:20}", "HUAWEICLOUD_SDK_SK={A:40}")
F(K_CLOUD, "oci_auth_token", "OCI_USER_OCID~ocid1.user.oc1..aaaaaaaa{a:52}", "OCI_AUTH_TOKEN={A:12}({A:3}_{A:4}")
F(K_CLOUD, "scaleway", "SCW_ACCESS_KEY~SCW{U:17}", "SCW_SECRET_KEY={uuid}")
F(K_CLOUD, "ovh", "OVH_APPLICATION_KEY~{A:16}", "OVH_APPLICATION_SECRET={A:32}", "OVH_CONSUMER_KEY~{A:32}")
F(K_CLOUD, "exoscale", "EXOSCALE_API_KEY~EXO{h:24}", "EXOSCALE_API_SECRET={b:43}")
F(K_CLOUD, "heroku_api_key", "HEROKU_API_KEY=HRKU-AA{b:58}")
F(K_CLOUD, "heroku_legacy_key", "HEROKU_API_KEY={uuid}")
F(K_CLOUD, "fly_io_token", "FLY_API_TOKEN=FlyV1 fm2_{b:200-260}")
F(K_CLOUD, "vercel_token", "VERCEL_TOKEN={A:24}")
F(K_CLOUD, "netlify_token", "NETLIFY_AUTH_TOKEN=nfp_{A:40}")
F(K_CLOUD, "render_api_key", "RENDER_API_KEY=rnd_{A:32}")
F(K_CLOUD, "railway_token", "RAILWAY_TOKEN={uuid}")
F(K_CLOUD, "supabase_service_role", "SUPABASE_URL~https://{L:20}.supabase.co", "SUPABASE_SERVICE_ROLE_KEY={jwt_sr}")
F(K_CLOUD, "supabase_access_token", "SUPABASE_ACCESS_TOKEN=sbp_{h:40}")
F(K_CLOUD, "supabase_secret_key", "SUPABASE_SECRET_KEY=sb_secret_{b:31}")
F(K_CLOUD, "cloudflare_tunnel", "TUNNEL_TOKEN=eyJhIjoi{b:150-170}")
# payments
F(K_PAY, "stripe_secret_key", "STRIPE_SECRET_KEY=sk_live_{A:24}")
F(K_PAY, "stripe_secret_key_long", "STRIPE_SECRET_KEY=sk_live_51{A:97}")
F(K_PAY, "stripe_restricted_key", "STRIPE_RESTRICTED_KEY=rk_live_51{A:97}")
F(K_PAY, "stripe_webhook_secret", "STRIPE_WEBHOOK_SECRET=whsec_{A:32}")
F(K_PAY, "paypal_client_secret", "PAYPAL_CLIENT_ID~A{b:79}", "PAYPAL_CLIENT_SECRET=E{b:79}")
F(K_PAY, "paypal_access_token", "PAYPAL_ACCESS_TOKEN=A21AA{b:90}")
F(K_PAY, "braintree_access_token", "BRAINTREE_ACCESS_TOKEN=access_token$production${a:16}${h:32}")
F(K_PAY, "braintree_private_key", "BRAINTREE_MERCHANT_ID~{a:16}", "BRAINTREE_PUBLIC_KEY~{a:16}", "BRAINTREE_PRIVATE_KEY={h:32}")
F(K_PAY, "square_access_token", "SQUARE_ACCESS_TOKEN=EAAA{b:60}")
F(K_PAY, "square_oauth_secret", "SQUARE_APPLICATION_ID~sq0idp-{b:22}", "SQUARE_APPLICATION_SECRET=sq0csp-{b:43}")
F(K_PAY, "adyen_api_key", "ADYEN_API_KEY=AQE{A:6}hmfx{B:100-140}")
F(K_PAY, "razorpay_secret", "RAZORPAY_KEY_ID~rzp_live_{A:14}", "RAZORPAY_KEY_SECRET={A:24}")
F(K_PAY, "paystack_secret", "PAYSTACK_SECRET_KEY=sk_live_{h:40}")
F(K_PAY, "flutterwave_secret", "FLW_SECRET_KEY=FLWSECK-{h:32}-X")
F(K_PAY, "mollie_live_key", "MOLLIE_API_KEY=live_{A:30}")
F(K_PAY, "checkout_secret", "CKO_SECRET_KEY=sk_{uuid}")
F(K_PAY, "gocardless_token", "GOCARDLESS_ACCESS_TOKEN=live_{b:40}")
F(K_PAY, "coinbase_commerce", "COINBASE_COMMERCE_API_KEY={uuid}")
F(K_PAY, "shopify_admin_token", "SHOPIFY_ACCESS_TOKEN=shpat_{h:32}")
F(K_PAY, "shopify_custom_app", "SHOPIFY_CUSTOM_APP_TOKEN=shpca_{h:32}")
F(K_PAY, "shopify_private_app", "SHOPIFY_PASSWORD=shppa_{h:32}")
F(K_PAY, "shopify_shared_secret", "SHOPIFY_API_KEY~{h:32}", "SHOPIFY_API_SECRET=shpss_{h:32}")
F(K_PAY, "plaid_secret", "PLAID_CLIENT_ID~{h:24}", "PLAID_SECRET={h:30}")
F(K_PAY, "plaid_access_token", "PLAID_ACCESS_TOKEN=access-production-{uuid}")
F(K_PAY, "wise_token", "WISE_API_TOKEN={uuid}")
F(K_PAY, "paddle_api_key", "PADDLE_API_KEY=pdl_live_apikey_01{a:24}_{A:22}_{a:3}")
F(K_PAY, "recurly_key", "RECURLY_API_KEY={h:32}")
F(K_PAY, "chargebee_key", "CHARGEBEE_SITE~{word}", "CHARGEBEE_API_KEY=live_{A:32}")
F(K_PAY, "authorize_net", "AUTHNET_API_LOGIN_ID~{A:10}", "AUTHNET_TRANSACTION_KEY={A:16}")
F(K_PAY, "amazon_mws", "MWS_AUTH_TOKEN=amzn.mws.{uuid}")
F(K_PAY, "xendit_secret", "XENDIT_SECRET_KEY=xnd_production_{A:60}")
F(K_PAY, "midtrans_server", "MIDTRANS_SERVER_KEY=Mid-server-{b:24}")
F(K_PAY, "lemonsqueezy_key", "LEMONSQUEEZY_API_KEY={jwt}")
F(K_PAY, "klarna_credentials", "KLARNA_USERNAME~PK{d:5}_{h:12}", "KLARNA_PASSWORD={A:16}")
F(K_PAY, "adyen_hmac", "ADYEN_HMAC_KEY={H:64}")
# LLM / AI
F(K_LLM, "openai_legacy", "OPENAI_API_KEY=sk-{A:20}T3BlbkFJ{A:20}")
F(K_LLM, "openai_project", "OPENAI_API_KEY=sk-proj-{b:74}T3BlbkFJ{b:74}")
F(K_LLM, "openai_service_account", "OPENAI_API_KEY=sk-svcacct-{b:74}T3BlbkFJ{b:74}")
F(K_LLM, "openai_admin", "OPENAI_ADMIN_KEY=sk-admin-{b:74}T3BlbkFJ{b:74}")
F(K_LLM, "anthropic_api", "ANTHROPIC_API_KEY=sk-ant-api03-{b:93}AA")
F(K_LLM, "anthropic_admin", "ANTHROPIC_ADMIN_KEY=sk-ant-admin01-{b:93}AA")
F(K_LLM, "huggingface_token", "HF_TOKEN=hf_{A:34}")
F(K_LLM, "huggingface_org", "HUGGINGFACE_ORG_TOKEN=api_org_{A:34}")
F(K_LLM, "cohere", "COHERE_API_KEY={A:40}")
F(K_LLM, "mistral", "MISTRAL_API_KEY={A:32}")
F(K_LLM, "groq", "GROQ_API_KEY=gsk_{A:52}")
F(K_LLM, "replicate", "REPLICATE_API_TOKEN=r8_{A:37}")
F(K_LLM, "together", "TOGETHER_API_KEY={h:64}")
F(K_LLM, "perplexity", "PERPLEXITY_API_KEY=pplx-{A:48}")
F(K_LLM, "xai", "XAI_API_KEY=xai-{A:80}")
F(K_LLM, "deepseek", "DEEPSEEK_API_KEY=sk-{h:32}")
F(K_LLM, "gemini", "GEMINI_API_KEY=AIza{b:35}")
F(K_LLM, "fireworks", "FIREWORKS_API_KEY=fw_{A:24}")
F(K_LLM, "openrouter", "OPENROUTER_API_KEY=sk-or-v1-{h:64}")
F(K_LLM, "langsmith_pat", "LANGSMITH_API_KEY=lsv2_pt_{h:32}_{h:10}")
F(K_LLM, "langsmith_sk", "LANGCHAIN_API_KEY=lsv2_sk_{h:32}_{h:10}")
F(K_LLM, "pinecone", "PINECONE_API_KEY=pcsk_{A:5}_{A:60}")
F(K_LLM, "pinecone_legacy", "PINECONE_API_KEY={uuid}")
F(K_LLM, "elevenlabs", "ELEVENLABS_API_KEY=sk_{h:48}")
F(K_LLM, "assemblyai", "ASSEMBLYAI_API_KEY={h:32}")
F(K_LLM, "deepgram", "DEEPGRAM_API_KEY={h:40}")
F(K_LLM, "stability", "STABILITY_API_KEY=sk-{A:48}")
F(K_LLM, "voyage", "VOYAGE_API_KEY=pa-{b:43}")
F(K_LLM, "wandb", "WANDB_API_KEY={h:40}")
F(K_LLM, "comet", "COMET_API_KEY={A:25}")
F(K_LLM, "runpod", "RUNPOD_API_KEY=rpa_{U:40}")
F(K_LLM, "cerebras", "CEREBRAS_API_KEY=csk-{a:48}")
F(K_LLM, "nvidia", "NVIDIA_API_KEY=nvapi-{b:64}")
F(K_LLM, "ai21", "AI21_API_KEY={A:32}")
F(K_LLM, "clarifai", "CLARIFAI_PAT={h:32}")
F(K_LLM, "anyscale", "ANYSCALE_API_KEY=esecret_{a:26}")
F(K_LLM, "weaviate", "WEAVIATE_URL~https://{a:12}.weaviate.network", "WEAVIATE_API_KEY={A:40}")
F(K_LLM, "qdrant", "QDRANT_URL~https://{uuid}.eu-central-1-0.aws.cloud.qdrant.io:6333", "QDRANT_API_KEY={b:40}")
F(K_LLM, "modal", "MODAL_TOKEN_ID~ak-{A:22}", "MODAL_TOKEN_SECRET=as-{A:22}")
F(K_LLM, "jina", "JINA_API_KEY=jina_{h:32}{A:28}")
F(K_LLM, "azure_openai", "AZURE_OPENAI_ENDPOINT~https://{a:10}.openai.azure.com/", "AZURE_OPENAI_API_KEY={h:32}")
# source hosting
F(K_VCS, "github_pat_classic", "GITHUB_TOKEN=ghp_{A:36}")
F(K_VCS, "github_oauth", "GITHUB_OAUTH_TOKEN=gho_{A:36}")
F(K_VCS, "github_user_to_server", "GH_USER_TOKEN=ghu_{A:36}")
F(K_VCS, "github_server_to_server", "GH_INSTALLATION_TOKEN=ghs_{A:36}")
F(K_VCS, "github_refresh", "GH_REFRESH_TOKEN=ghr_{A:76}")
F(K_VCS, "github_fine_grained", "GH_TOKEN=github_pat_11{U:20}_{A:59}")
F(K_VCS, "github_app_key", "GITHUB_APP_ID~{d1:6}", "GITHUB_APP_PRIVATE_KEY={pem_rsa}")
F(K_VCS, "github_oauth_app_secret", "GITHUB_CLIENT_ID~Iv1.{h:16}", "GITHUB_CLIENT_SECRET={h:40}")
F(K_VCS, "github_webhook_secret", "GITHUB_WEBHOOK_SECRET={h:40}")
F(K_VCS, "gitlab_pat", "GITLAB_TOKEN=glpat-{b:20}")
F(K_VCS, "gitlab_trigger", "CI_TRIGGER_TOKEN=glptt-{h:40}")
F(K_VCS, "gitlab_runner", "RUNNER_TOKEN=glrt-{b:20}")
F(K_VCS, "gitlab_runner_registration", "REGISTRATION_TOKEN=GR1348941{b:20}")
F(K_VCS, "gitlab_deploy", "GITLAB_DEPLOY_TOKEN=gldt-{b:20}")
F(K_VCS, "gitlab_feed", "GITLAB_FEED_TOKEN=glft-{b:20}")
F(K_VCS, "gitlab_oauth_secret", "GITLAB_APP_ID~{h:64}", "GITLAB_APP_SECRET=gloas-{h:64}")
F(K_VCS, "gitlab_agent", "GITLAB_AGENT_TOKEN=glagent-{b:50}")
F(K_VCS, "gitlab_scim", "GITLAB_SCIM_TOKEN=glsoat-{b:20}")
F(K_VCS, "gitlab_incoming_mail", "INCOMING_EMAIL_TOKEN=glimt-{a:25}")
F(K_VCS, "bitbucket_app_password", "BITBUCKET_USERNAME~{user}", "BITBUCKET_APP_PASSWORD=ATBB{A:32}")
F(K_VCS, "atlassian_api_token", "ATLASSIAN_EMAIL~{user}@{dom}", "ATLASSIAN_API_TOKEN=ATATT3xFfGF0{b:170}={H:8}")
F(K_VCS, "bitbucket_access_token", "BITBUCKET_ACCESS_TOKEN=ATCTT3xFfGN0{b:170}={H:8}")
F(K_VCS, "gitea_token", "GITEA_TOKEN={h:40}")
F(K_VCS, "azure_devops_pat", "AZURE_DEVOPS_EXT_PAT={a:52}")
F(K_VCS, "sourcegraph", "SRC_ACCESS_TOKEN=sgp_{h:40}")
F(K_VCS, "gerrit_http", "GERRIT_HTTP_PASSWORD={A:42}")
# CI/CD
F(K_CI, "circleci_pat", "CIRCLECI_TOKEN=CCIPAT_{A:22}_{h:40}")
F(K_CI, "circleci_project", "CIRCLE_PROJECT_TOKEN=CCIPRJ_{A:22}_{h:40}")
F(K_CI, "travis", "TRAVIS_API_TOKEN={b:22}")
F(K_CI, "buildkite_api", "BUILDKITE_API_TOKEN=bkua_{h:40}")
F(K_CI, "buildkite_agent", "BUILDKITE_AGENT_TOKEN={h:50}")
F(K_CI, "jenkins_api", "JENKINS_USER~{user}", "JENKINS_API_TOKEN=11{h:32}")
F(K_CI, "drone", "DRONE_TOKEN={A:32}")
F(K_CI, "codecov", "CODECOV_TOKEN={uuid}")
F(K_CI, "sonarqube_user", "SONAR_TOKEN=squ_{h:40}")
F(K_CI, "sonarqube_project", "SONAR_TOKEN=sqp_{h:40}")
F(K_CI, "sonarqube_global", "SONAR_TOKEN=sqa_{h:40}")
F(K_CI, "snyk", "SNYK_TOKEN={uuid}")
F(K_CI, "octopus", "OCTOPUS_API_KEY=API-{U:27}")
F(K_CI, "teamcity", "TEAMCITY_TOKEN=eyJ0eXAiOiAiVENWMiJ9.{b:36}.{b:48}")
F(K_CI, "harness", "HARNESS_API_KEY=pat.{b:22}.{h:24}.{A:20}")
F(K_CI, "appveyor", "APPVEYOR_API_TOKEN=v2.{a:20}")
F(K_CI, "semaphore", "SEMAPHORE_API_TOKEN={a:20}")
F(K_CI, "bitrise", "BITRISE_TOKEN={b:86}")
F(K_CI, "expo", "EXPO_TOKEN={b:40}")
F(K_CI, "cypress", "CYPRESS_RECORD_KEY={uuid}")
F(K_CI, "percy", "PERCY_TOKEN={h:64}")
F(K_CI, "browserstack", "BROWSERSTACK_USERNAME~{user}_{A:6}", "BROWSERSTACK_ACCESS_KEY={A:20}")
F(K_CI, "saucelabs", "SAUCE_USERNAME~{user}", "SAUCE_ACCESS_KEY={uuid}")
F(K_CI, "lambdatest", "LT_USERNAME~{user}", "LT_ACCESS_KEY={A:50}")
F(K_CI, "coveralls", "COVERALLS_REPO_TOKEN={A:32}")
F(K_CI, "fossa", "FOSSA_API_KEY={h:32}")
F(K_CI, "codacy", "CODACY_PROJECT_TOKEN={h:32}")
F(K_CI, "spacelift", "SPACELIFT_API_KEY_ID~{U:26}", "SPACELIFT_API_KEY_SECRET={h:64}")
F(K_CI, "argocd", "ARGOCD_AUTH_TOKEN={jwt}")
F(K_CI, "github_actions_runner_reg", "RUNNER_REGISTRATION_TOKEN=A{U:28}")
# observability
F(K_OBS, "datadog_api", "DD_API_KEY={h:32}")
F(K_OBS, "datadog_app", "DD_API_KEY~{h:32}", "DD_APP_KEY={h:40}")
F(K_OBS, "newrelic_user", "NEW_RELIC_API_KEY=NRAK-{U:27}")
F(K_OBS, "newrelic_license", "NEW_RELIC_LICENSE_KEY={h:36}NRAL")
F(K_OBS, "newrelic_insert", "NEW_RELIC_INSERT_KEY=NRII-{b:32}")
F(K_OBS, "sentry_org_token", "SENTRY_AUTH_TOKEN=sntrys_eyJ{b:150}_{b:43}")
F(K_OBS, "sentry_user_token", "SENTRY_AUTH_TOKEN=sntryu_{h:64}")
F(K_OBS, "honeycomb_ingest", "HONEYCOMB_API_KEY=hcaik_01{a:56}")
F(K_OBS, "honeycomb_classic", "HONEYCOMB_WRITEKEY={h:32}")
F(K_OBS, "grafana_cloud", "GRAFANA_CLOUD_API_KEY=glc_{b:100-120}")
F(K_OBS, "grafana_sa", "GRAFANA_TOKEN=glsa_{A:32}_{h:8}")
F(K_OBS, "splunk_hec", "SPLUNK_HEC_TOKEN={uuid}")
F(K_OBS, "logzio", "LOGZIO_TOKEN={A:32}")
F(K_OBS, "dynatrace", "DT_API_TOKEN=dt0c01.{U:24}.{U:64}")
F(K_OBS, "pagerduty", "PAGERDUTY_TOKEN=u+{b:18}")
F(K_OBS, "pagerduty_routing", "PAGERDUTY_ROUTING_KEY={h:32}")
F(K_OBS, "opsgenie", "OPSGENIE_API_KEY={uuid}")
F(K_OBS, "elastic_api_key", "ELASTIC_API_KEY={b64:45}")
F(K_OBS, "sumologic", "SUMO_ACCESS_ID~su{A:12}", "SUMO_ACCESS_KEY={A:64}")
F(K_OBS, "bugsnag", "BUGSNAG_AUTH_TOKEN={h:32}")
F(K_OBS, "rollbar", "ROLLBAR_ACCESS_TOKEN={h:32}")
F(K_OBS, "mezmo", "MEZMO_INGESTION_KEY={h:32}")
F(K_OBS, "loggly", "LOGGLY_TOKEN={uuid}")
F(K_OBS, "papertrail", "PAPERTRAIL_API_TOKEN={A:20}")
F(K_OBS, "lightstep", "LIGHTSTEP_ACCESS_TOKEN={B:84}")
F(K_OBS, "axiom", "AXIOM_TOKEN=xaat-{uuid}")
F(K_OBS, "betterstack", "BETTERSTACK_SOURCE_TOKEN={A:24}")
F(K_OBS, "checkly", "CHECKLY_API_KEY=cu_{h:32}")
F(K_OBS, "statuspage", "STATUSPAGE_API_KEY={uuid}")
F(K_OBS, "uptimerobot", "UPTIMEROBOT_API_KEY=u{d:7}-{h:24}")
# chat / webhooks / social
F(K_CHAT, "slack_bot", "SLACK_BOT_TOKEN=xoxb-{d1:11}-{d1:12}-{A:24}")
F(K_CHAT, "slack_user", "SLACK_USER_TOKEN=xoxp-{d1:11}-{d1:11}-{d1:12}-{h:32}")
F(K_CHAT, "slack_app", "SLACK_APP_TOKEN=xapp-1-A{U:10}-{d1:12}-{h:64}")
F(K_CHAT, "slack_config_refresh", "SLACK_CONFIG_REFRESH_TOKEN=xoxe-1-{A:140}")
F(K_CHAT, "slack_webhook", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T{U:8}/B{U:10}/{A:24}")
F(K_CHAT, "slack_workflow", "SLACK_WORKFLOW_URL=https://hooks.slack.com/triggers/T{U:8}/{d1:13}/{h:32}")
F(K_CHAT, "slack_signing_secret", "SLACK_SIGNING_SECRET={h:32}")
F(K_CHAT, "discord_bot", "DISCORD_TOKEN={discord}")
F(K_CHAT, "discord_webhook", "DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/{d1:18}/{b:68}")
F(K_CHAT, "teams_webhook", "TEAMS_WEBHOOK_URL=https://{L:8}.webhook.office.com/webhookb2/{uuid}@{uuid}/IncomingWebhook/{h:32}/{uuid}/V2{b:40}")
F(K_CHAT, "teams_workflow", "TEAMS_FLOW_URL=https://prod-{d:2}.westeurope.logic.azure.com:443/workflows/{h:32}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig={b:43}")
F(K_CHAT, "telegram_bot", "TELEGRAM_BOT_TOKEN={d1:10}:AA{b:33}")
F(K_CHAT, "mattermost_webhook", "MATTERMOST_WEBHOOK=https://chat.{dom}/hooks/{a:26}")
F(K_CHAT, "rocketchat_webhook", "ROCKETCHAT_WEBHOOK=https://rocket.{dom}/hooks/{A:17}/{A:48}")
F(K_CHAT, "google_chat_webhook", "GCHAT_WEBHOOK=https://chat.googleapis.com/v1/spaces/AAAA{b:7}/messages?key=AIzaSy{b:33}&token={b:43}%3D")
F(K_CHAT, "zulip_bot", "ZULIP_API_KEY={A:32}")
F(K_CHAT, "line_channel", "LINE_CHANNEL_ACCESS_TOKEN={B:171}=")
F(K_CHAT, "whatsapp_cloud", "WHATSAPP_TOKEN=EAAG{A:180-200}")
F(K_CHAT, "facebook_page", "FB_PAGE_ACCESS_TOKEN=EAAB{A:150-190}")
F(K_CHAT, "twitter_bearer", "TWITTER_BEARER_TOKEN=AAAAAAAAAAAAAAAAAAAAA{A:25}%3D{A:50}")
F(K_CHAT, "twitter_oauth1", "TWITTER_API_KEY~{A:25}", "TWITTER_API_SECRET={A:50}")
F(K_CHAT, "pushover", "PUSHOVER_USER~u{a:29}", "PUSHOVER_TOKEN={a:30}")
F(K_CHAT, "pusher", "PUSHER_APP_ID~{d1:7}", "PUSHER_KEY~{h:20}", "PUSHER_SECRET={h:20}")
F(K_CHAT, "ably", "ABLY_API_KEY={A:6}.{A:6}:{b:43}")
F(K_CHAT, "intercom", "INTERCOM_ACCESS_TOKEN=dG9rOj{b:54}=")
F(K_CHAT, "zendesk", "ZENDESK_EMAIL~{user}@{dom}/token", "ZENDESK_API_TOKEN={A:40}")
F(K_CHAT, "webex_bot", "WEBEX_BOT_TOKEN={A:64}_{A:4}_{uuid}")
F(K_CHAT, "twitch", "TWITCH_CLIENT_ID~{a:30}", "TWITCH_CLIENT_SECRET={a:30}")
F(K_CHAT, "twitch_oauth", "TWITCH_OAUTH=oauth:{a:30}")
F(K_CHAT, "reddit", "REDDIT_CLIENT_ID~{b:22}", "REDDIT_CLIENT_SECRET={b:30}")
F(K_CHAT, "linkedin", "LINKEDIN_CLIENT_ID~{a:14}", "LINKEDIN_CLIENT_SECRET={A:16}")
F(K_CHAT, "zoom_s2s", "ZOOM_ACCOUNT_ID~{b:22}", "ZOOM_CLIENT_ID~{b:22}", "ZOOM_CLIENT_SECRET={A:32}")
F(K_CHAT, "zapier_hook", "ZAPIER_HOOK_URL=https://hooks.zapier.com/hooks/catch/{d1:7}/{a:6}/")
F(K_CHAT, "ifttt", "IFTTT_WEBHOOK_KEY={b:22}")
F(K_CHAT, "spotify", "SPOTIFY_CLIENT_ID~{h:32}", "SPOTIFY_CLIENT_SECRET={h:32}")
# e-mail / SMS
F(K_MSG, "sendgrid", "SENDGRID_API_KEY=SG.{b:22}.{b:43}")
F(K_MSG, "mailgun_legacy", "MAILGUN_API_KEY=key-{h:32}")
F(K_MSG, "mailgun_new", "MAILGUN_API_KEY={h:32}-{h:8}-{h:8}")
F(K_MSG, "mailgun_webhook", "MAILGUN_WEBHOOK_SIGNING_KEY={h:32}")
F(K_MSG, "mailchimp", "MAILCHIMP_API_KEY={h:32}-us{d1:2}")
F(K_MSG, "mandrill", "MANDRILL_API_KEY={A:22}")
F(K_MSG, "postmark", "POSTMARK_SERVER_TOKEN={uuid}")
F(K_MSG, "sparkpost", "SPARKPOST_API_KEY={h:40}")
F(K_MSG, "ses_smtp", "SES_SMTP_USERNAME~AKIA{U:16}", "SES_SMTP_PASSWORD=B{B:43}")
F(K_MSG, "brevo", "BREVO_API_KEY=xkeysib-{h:64}-{A:16}")
F(K_MSG, "brevo_smtp", "BREVO_SMTP_KEY=xsmtpsib-{h:64}-{A:16}")
F(K_MSG, "resend", "RESEND_API_KEY=re_{A:8}_{A:24}")
F(K_MSG, "mailjet", "MJ_APIKEY_PUBLIC~{h:32}", "MJ_APIKEY_PRIVATE={h:32}")
F(K_MSG, "twilio_auth", "TWILIO_ACCOUNT_SID~AC{h:32}", "TWILIO_AUTH_TOKEN={h:32}")
F(K_MSG, "twilio_api_key", "TWILIO_API_KEY~SK{h:32}", "TWILIO_API_SECRET={A:32}")
F(K_MSG, "vonage", "VONAGE_API_KEY~{h:8}", "VONAGE_API_SECRET={A:16}")
F(K_MSG, "messagebird", "MESSAGEBIRD_ACCESS_KEY={A:25}")
F(K_MSG, "plivo", "PLIVO_AUTH_ID~MA{U:18}", "PLIVO_AUTH_TOKEN={A:40}")
F(K_MSG, "telnyx", "TELNYX_API_KEY=KEY01{U:26}_{A:22}")
F(K_MSG, "mailersend", "MAILERSEND_API_KEY=mlsn.{h:64}")
F(K_MSG, "customerio", "CUSTOMERIO_APP_API_KEY={h:32}")
F(K_MSG, "onesignal", "ONESIGNAL_REST_API_KEY=os_v2_app_{a:100-115}")
F(K_MSG, "sinch", "SINCH_SERVICE_PLAN_ID~{h:32}", "SINCH_API_TOKEN={h:32}")
F(K_MSG, "clicksend", "CLICKSEND_USERNAME~{user}", "CLICKSEND_API_KEY={H:8}-{H:4}-{H:4}-{H:4}-{H:12}")
F(K_MSG, "smtp_password", "SMTP_HOST~smtp.{dom}", "SMTP_USER~{user}@{dom}", "SMTP_PASSWORD={pw:16}")
F(K_MSG, "azure_communication", "ACS_CONNECTION_STRING=endpoint=https://{a:10}.communication.azure.com/;accesskey={b64:64}")
F(K_MSG, "firebase_fcm_server_key", "FCM_SERVER_KEY=AAAA{b:7}:APA91b{b:134}")
# databases
F(K_DB, "postgres_url", "DATABASE_URL=postgres://{user}:{pw:20}@{host}:5432/{word}")
F(K_DB, "postgresql_sslmode", "DATABASE_URL=postgresql://{user}:{pw:24}@{host}/{word}?sslmode=require")
F(K_DB, "mysql_url", "MYSQL_URL=mysql://{user}:{pw:18}@{host}:3306/{word}")
F(K_DB, "sqlalchemy_mysql", "SQLALCHEMY_DATABASE_URI=mysql+pymysql://{user}:{pw:16}@{host}/{word}?charset=utf8mb4")
F(K_DB, "mongodb_srv", "MONGODB_URI=mongodb+srv://{user}:{pw:20}@cluster0.{a:5}.mongodb.net/{word}?retryWrites=true&w=majority")
F(K_DB, "mongodb_url", "MONGO_URL=mongodb://{user}:{pw:16}@{host}:27017/{word}?authSource=admin")
F(K_DB, "redis_url", "REDIS_URL=redis://default:{pw:32}@{host}:6379/0")
F(K_DB, "rediss_url", "REDIS_TLS_URL=rediss://:{pw:40}@{host}:6380")
F(K_DB, "azure_redis", "AZURE_REDIS_CONNECTION={a:10}.redis.cache.windows.net:6380,password={b64:32},ssl=True,abortConnect=False")
F(K_DB, "amqp_url", "RABBITMQ_URL=amqps://{user}:{pw:20}@{host}:5671/{word}")
F(K_DB, "mssql_connstr", "ConnectionStrings__Default=Server=tcp:{a:10}.database.windows.net,1433;Initial Catalog={word};User ID={user};Password={pw:18};Encrypt=True;")
F(K_DB, "jdbc_postgres", "SPRING_DATASOURCE_URL=jdbc:postgresql://{host}:5432/{word}?user={user}&password={pw:16}")
F(K_DB, "jdbc_mysql", "JDBC_URL=jdbc:mysql://{host}:3306/{word}?user={user}&password={pw:16}&useSSL=true")
F(K_DB, "oracle_ezconnect", "ORACLE_CONN={user}/{pw:14}@{host}:1521/ORCLPDB1")
F(K_DB, "elasticsearch_url", "ELASTICSEARCH_URL=https://elastic:{pw:24}@{a:12}.es.us-east-1.aws.found.io:9243")
F(K_DB, "clickhouse_url", "CLICKHOUSE_URL=clickhouse://{user}:{pw:20}@{host}:9440/{word}?secure=true")
F(K_DB, "snowflake_password", "SNOWFLAKE_ACCOUNT~{U:7}-{U:7}", "SNOWFLAKE_USER~{user}", "SNOWFLAKE_PASSWORD={pw:18}")
F(K_DB, "cockroach_url", "DATABASE_URL=postgresql://{user}:{pw:22}@{word}-{d:4}.8nj.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full")
F(K_DB, "neo4j", "NEO4J_URI~neo4j+s://{h:8}.databases.neo4j.io", "NEO4J_USERNAME~neo4j", "NEO4J_PASSWORD={b:43}")
F(K_DB, "influxdb_token", "INFLUX_TOKEN={b64:64}")
F(K_DB, "couchbase", "COUCHBASE_CONNSTR~couchbases://cb.{a:16}.cloud.couchbase.com", "COUCHBASE_USERNAME~{user}", "COUCHBASE_PASSWORD={pw:20}")
F(K_DB, "mongodb_atlas_api", "MONGODB_ATLAS_PUBLIC_KEY~{L:8}", "MONGODB_ATLAS_PRIVATE_KEY={uuid}")
F(K_DB, "firebase_db_secret", "FIREBASE_DATABASE_SECRET={A:40}")
F(K_DB, "fauna", "FAUNA_SECRET=fnA{b:37}")
F(K_DB, "turso", "TURSO_DATABASE_URL~libsql://{word}-{user}.turso.io", "TURSO_AUTH_TOKEN={jwt_ed}")
F(K_DB, "databricks", "DATABRICKS_HOST~https://adb-{d1:16}.{d:1}.azuredatabricks.net", "DATABRICKS_TOKEN=dapi{h:32}")
F(K_DB, "redshift_jdbc", "REDSHIFT_URL=jdbc:redshift://{word}.{a:12}.us-east-1.redshift.amazonaws.com:5439/dev?user={user}&password={pw:16}")
F(K_DB, "odbc_dsn", "ODBC_CONNECTION=Driver={ODBC Driver 18 for SQL Server};Server={host};Database={word};UID={user};PWD={pw:16};")
F(K_DB, "kafka_jaas", 'KAFKA_SASL_JAAS_CONFIG=org.apache.kafka.common.security.plain.PlainLoginModule required username="{U:16}" password="{B:64}";')
F(K_DB, "confluent_cloud", "CONFLUENT_API_KEY~{U:16}", "CONFLUENT_API_SECRET={B:64}")
F(K_DB, "xata", "XATA_API_KEY=xau_{A:32}")
F(K_DB, "convex", "CONVEX_DEPLOY_KEY=prod:{word}-{word}-{d:3}|{b:80}")
F(K_DB, "astra_db", "ASTRA_DB_APPLICATION_TOKEN=AstraCS:{A:24}:{h:64}")
F(K_DB, "tidb_cloud", "TIDB_URL=mysql://{a:13}.root:{pw:16}@gateway01.us-west-2.prod.aws.tidbcloud.com:4000/test")
F(K_DB, "postgres_keyword_dsn", "PG_DSN=host={host} port=5432 dbname={word} user={user} password={pw:18} sslmode=require")
F(K_DB, "neon_api_key", "NEON_API_KEY=napi_{a:64}")
F(K_DB, "planetscale_token", "PLANETSCALE_SERVICE_TOKEN_ID~{a:12}", "PLANETSCALE_SERVICE_TOKEN=pscale_tkn_{b:43}")
F(K_DB, "planetscale_password", "DATABASE_PASSWORD=pscale_pw_{b:43}")
F(K_DB, "upstash_redis_token", "UPSTASH_REDIS_REST_URL~https://{word}-{d:5}.upstash.io", "UPSTASH_REDIS_REST_TOKEN=A{b:59}=")
# package registries
F(K_REG, "npm_token", "NPM_TOKEN=npm_{A:36}")
F(K_REG, "npmrc_legacy", "NPMRC_LINE=//registry.npmjs.org/:_authToken={uuid}")
F(K_REG, "pypi_token", "PYPI_API_TOKEN=pypi-AgEIcHlwaS5vcmc{b:150-200}")
F(K_REG, "testpypi_token", "TEST_PYPI_TOKEN=pypi-AgENdGVzdC5weXBpLm9yZw{b:150-200}")
F(K_REG, "rubygems", "GEM_HOST_API_KEY=rubygems_{h:48}")
F(K_REG, "nuget", "NUGET_API_KEY=oy2{a:43}")
F(K_REG, "dockerhub_pat", "DOCKERHUB_TOKEN=dckr_pat_{b:27}")
F(K_REG, "dockerhub_oat", "DOCKER_ORG_TOKEN=dckr_oat_{b:32}")
F(K_REG, "crates_io", "CARGO_REGISTRY_TOKEN=cio{A:32}")
F(K_REG, "jfrog_api_key", "ARTIFACTORY_API_KEY=AKCp{A:69}")
F(K_REG, "jfrog_identity", "JFROG_ACCESS_TOKEN=cmVmdGtuOjAxOjE3{b:40}")
F(K_REG, "quay_robot", "QUAY_ROBOT~{word}+{word}", "QUAY_ROBOT_TOKEN={U:64}")
F(K_REG, "clojars", "CLOJARS_TOKEN=CLOJARS_{h:60}")
F(K_REG, "cloudsmith", "CLOUDSMITH_API_KEY={h:40}")
F(K_REG, "gemfury", "FURY_TOKEN={A:20}")
F(K_REG, "packagecloud", "PACKAGECLOUD_TOKEN={h:48}")
F(K_REG, "chocolatey", "CHOCO_API_KEY={uuid}")
F(K_REG, "gradle_publish", "GRADLE_PUBLISH_KEY~{A:32}", "GRADLE_PUBLISH_SECRET={A:32}")
F(K_REG, "sonatype_ossrh", "OSSRH_USERNAME~{A:8}", "OSSRH_PASSWORD={b:44}")
F(K_REG, "hex_pm", "HEX_API_KEY={h:32}")
F(K_REG, "vsce_pat", "VSCE_PAT={a:52}")
F(K_REG, "openvsx", "OVSX_PAT={uuid}")
F(K_REG, "docker_config_auth", "DOCKER_AUTH_CONFIG={dockerauth}")
F(K_REG, "helm_repo", "HELM_REPO_USERNAME~{user}", "HELM_REPO_PASSWORD={pw:20}")
F(K_REG, "anaconda", "ANACONDA_API_TOKEN={a:2}-{uuid}")
F(K_REG, "cocoapods_trunk", "COCOAPODS_TRUNK_TOKEN={h:32}")
# CDN / edge
F(K_CDN, "cloudflare_api_token", "CLOUDFLARE_API_TOKEN={b:40}")
F(K_CDN, "cloudflare_global_key", "CLOUDFLARE_EMAIL~{user}@{dom}", "CLOUDFLARE_API_KEY={h:37}")
F(K_CDN, "cloudflare_origin_ca", "CF_ORIGIN_CA_KEY=v1.0-{h:24}-{h:146}")
F(K_CDN, "fastly", "FASTLY_API_TOKEN={b:32}")
F(K_CDN, "akamai_edgegrid", "AKAMAI_HOST~akab-{a:16}-{a:16}.luna.akamaiapis.net", "AKAMAI_CLIENT_TOKEN~akab-{a:16}-{a:16}", "AKAMAI_ACCESS_TOKEN~akab-{a:16}-{a:16}", "AKAMAI_CLIENT_SECRET={B:43}=")
F(K_CDN, "bunnycdn", "BUNNY_API_KEY={uuid}-{h:4}-{h:4}")
F(K_CDN, "keycdn", "KEYCDN_API_KEY={A:32}")
F(K_CDN, "cloudinary", "CLOUDINARY_URL=cloudinary://{d1:15}:{b:27}@{L:8}")
F(K_CDN, "imagekit", "IMAGEKIT_PRIVATE_KEY=private_{B:28}=")
F(K_CDN, "stackpath", "STACKPATH_CLIENT_ID~{h:32}", "STACKPATH_CLIENT_SECRET={h:64}")
F(K_CDN, "imgix", "IMGIX_API_KEY=ak_{h:64}")
F(K_CDN, "uploadcare", "UPLOADCARE_PUBLIC_KEY~{h:20}", "UPLOADCARE_SECRET_KEY={h:20}")
F(K_CDN, "mux", "MUX_TOKEN_ID~{uuid}", "MUX_TOKEN_SECRET={B:75}")
# identity / auth / app signing secrets
F(K_AUTH, "auth0_client", "AUTH0_DOMAIN~{word}.us.auth0.com", "AUTH0_CLIENT_ID~{A:32}", "AUTH0_CLIENT_SECRET={b:64}")
F(K_AUTH, "auth0_mgmt", "AUTH0_MANAGEMENT_TOKEN={jwt}")
F(K_AUTH, "okta_api", "OKTA_ORG_URL~https://{word}.okta.com", "OKTA_API_TOKEN=00{b:40}")
F(K_AUTH, "okta_client", "OKTA_CLIENT_ID~0oa{A:17}", "OKTA_CLIENT_SECRET={b:40}")
F(K_AUTH, "onelogin", "ONELOGIN_CLIENT_ID~{h:64}", "ONELOGIN_CLIENT_SECRET={h:64}")
F(K_AUTH, "clerk_secret", "CLERK_SECRET_KEY=sk_live_{A:50}")
F(K_AUTH, "clerk_webhook", "CLERK_WEBHOOK_SECRET=whsec_{B:32}")
F(K_AUTH, "keycloak_client", "KEYCLOAK_CLIENT_ID~{word}-backend", "KEYCLOAK_CLIENT_SECRET={A:32}")
F(K_AUTH, "cognito_client", "COGNITO_CLIENT_ID~{a:26}", "COGNITO_CLIENT_SECRET={a:52}")
F(K_AUTH, "stytch", "STYTCH_PROJECT_ID~project-live-{uuid}", "STYTCH_SECRET=secret-live-{b:36}")
F(K_AUTH, "magic", "MAGIC_SECRET_KEY=sk_live_{H:16}")
F(K_AUTH, "duo", "DUO_IKEY~DI{U:18}", "DUO_SKEY={A:40}", "DUO_HOST~api-{h:8}.duosecurity.com")
F(K_AUTH, "jumpcloud", "JUMPCLOUD_API_KEY={h:40}")
F(K_AUTH, "workos", "WORKOS_API_KEY=sk_{A:64}")
F(K_AUTH, "nextauth", "NEXTAUTH_SECRET={b64:32}")
F(K_AUTH, "authjs", "AUTH_SECRET={b64:33}")
F(K_AUTH, "django_secret", "DJANGO_SECRET_KEY=django-insecure-{j:50}")
F(K_AUTH, "django_secret_plain", "SECRET_KEY={j:50}")
F(K_AUTH, "rails_secret_key_base", "SECRET_KEY_BASE={h:128}")
F(K_AUTH, "rails_master_key", "RAILS_MASTER_KEY={h:32}")
F(K_AUTH, "flask_secret", "FLASK_SECRET_KEY={h:64}")
F(K_AUTH, "laravel_app_key", "APP_KEY=base64:{b64:32}")
F(K_AUTH, "jwt_hs_secret", "JWT_SECRET={A:48}")
F(K_AUTH, "express_session", "SESSION_SECRET={b:40}")
F(K_AUTH, "phoenix_secret", "PHX_SECRET_KEY_BASE={B:64}")
F(K_AUTH, "symfony", "APP_SECRET={h:32}")
F(K_AUTH, "oauth_generic", "OAUTH_CLIENT_ID~{a:20}", "OAUTH_CLIENT_SECRET={A:40}")
F(K_AUTH, "saml_sp_key", "SAML_SP_PRIVATE_KEY={pem_p8rsa}")
F(K_AUTH, "apple_signin_p8", "APPLE_TEAM_ID~{U:10}", "APPLE_KEY_ID~{U:10}", "APPLE_PRIVATE_KEY={pem_p8ec}")
F(K_AUTH, "ldap_bind", "LDAP_BIND_DN~cn={word},ou=services,dc={word},dc=com", "LDAP_BIND_PASSWORD={pw:18}")
F(K_AUTH, "supertokens", "SUPERTOKENS_API_KEY={A:32}")
F(K_AUTH, "firebase_admin_sa", "FIREBASE_SERVICE_ACCOUNT={gcpsa}")
# crypto
F(K_CRYPTO, "eth_private_key", "ETH_PRIVATE_KEY=0x{h:64}")
F(K_CRYPTO, "eth_private_key_nohex", "DEPLOYER_PRIVATE_KEY={h:64}")
F(K_CRYPTO, "btc_wif", "BTC_WIF=K{r:51}")
F(K_CRYPTO, "btc_wif_uncompressed", "WALLET_WIF=5{r:50}")
F(K_CRYPTO, "bip39_mnemonic", "MNEMONIC={mnemonic}")
F(K_CRYPTO, "xprv", "XPRV=xprv9{r:106}")
F(K_CRYPTO, "solana_keypair", "SOLANA_KEYPAIR={solkp}")
F(K_CRYPTO, "solana_base58", "SOLANA_PRIVATE_KEY={r:87-88}")
F(K_CRYPTO, "binance", "BINANCE_API_KEY~{A:64}", "BINANCE_API_SECRET={A:64}")
F(K_CRYPTO, "coinbase_cdp", "CDP_API_KEY_NAME~organizations/{uuid}/apiKeys/{uuid}", "CDP_API_KEY_PRIVATE_KEY={pem_ec}")
F(K_CRYPTO, "kraken", "KRAKEN_API_KEY~{B:56}", "KRAKEN_PRIVATE_KEY={b64:64}")
F(K_CRYPTO, "kucoin", "KUCOIN_API_KEY~{h:24}", "KUCOIN_API_SECRET={uuid}", "KUCOIN_API_PASSPHRASE~{pw:12}")
F(K_CRYPTO, "okx", "OKX_API_KEY~{uuid}", "OKX_SECRET_KEY={H:32}", "OKX_PASSPHRASE~{pw:12}")
F(K_CRYPTO, "bitfinex", "BFX_API_KEY~{A:43}", "BFX_API_SECRET={A:43}")
F(K_CRYPTO, "bybit", "BYBIT_API_KEY~{A:18}", "BYBIT_API_SECRET={A:36}")
F(K_CRYPTO, "gemini_exchange", "GEMINI_EXCHANGE_KEY~account-{A:20}", "GEMINI_EXCHANGE_SECRET={A:28}")
F(K_CRYPTO, "infura", "INFURA_PROJECT_ID~{h:32}", "INFURA_PROJECT_SECRET={h:32}")
F(K_CRYPTO, "alchemy", "ALCHEMY_API_KEY={b:32}")
F(K_CRYPTO, "alchemy_rpc_url", "RPC_URL=https://eth-mainnet.g.alchemy.com/v2/{b:32}")
F(K_CRYPTO, "etherscan", "ETHERSCAN_API_KEY={U:34}")
F(K_CRYPTO, "blockcypher", "BLOCKCYPHER_TOKEN={h:32}")
F(K_CRYPTO, "moralis", "MORALIS_API_KEY={A:64}")
F(K_CRYPTO, "quicknode", "QUICKNODE_URL=https://{word}-{word}-{word}.quiknode.pro/{h:40}/")
# analytics / data
F(K_ANA, "posthog_personal", "POSTHOG_PERSONAL_API_KEY=phx_{A:47}")
F(K_ANA, "mixpanel_secret", "MIXPANEL_API_SECRET={h:32}")
F(K_ANA, "mixpanel_sa", "MIXPANEL_SERVICE_ACCOUNT~{word}.{d:6}.mp-service-account", "MIXPANEL_SA_SECRET={A:32}")
F(K_ANA, "amplitude", "AMPLITUDE_API_KEY~{h:32}", "AMPLITUDE_SECRET_KEY={h:32}")
F(K_ANA, "ga4_mp_secret", "GA_MEASUREMENT_ID~G-{U:10}", "GA_API_SECRET={b:22}")
F(K_ANA, "segment_public_api", "SEGMENT_API_TOKEN=sgp_{A:60}")
F(K_ANA, "looker", "LOOKERSDK_CLIENT_ID~{A:20}", "LOOKERSDK_CLIENT_SECRET={A:24}")
F(K_ANA, "tableau_pat", "TABLEAU_PAT_NAME~{word}-ci", "TABLEAU_PAT_SECRET={B:22}==:{A:32}")
F(K_ANA, "metabase", "METABASE_API_KEY=mb_{B:43}=")
F(K_ANA, "fullstory", "FULLSTORY_API_KEY=na1.{B:120}")
F(K_ANA, "fivetran", "FIVETRAN_API_KEY~{A:16}", "FIVETRAN_API_SECRET={A:32}")
F(K_ANA, "dbt_cloud", "DBT_CLOUD_API_TOKEN=dbtc_{b:56}")
F(K_ANA, "prefect", "PREFECT_API_KEY=pnu_{A:36}")
F(K_ANA, "kaggle", "KAGGLE_USERNAME~{user}", "KAGGLE_KEY={h:32}")
F(K_ANA, "rudderstack", "RUDDERSTACK_ACCESS_TOKEN={A:28}")
# feature flags
F(K_FLAG, "launchdarkly_sdk", "LD_SDK_KEY=sdk-{uuid}")
F(K_FLAG, "launchdarkly_api", "LD_API_TOKEN=api-{uuid}")
F(K_FLAG, "split_server", "SPLIT_SERVER_API_KEY={a:36}")
F(K_FLAG, "flagsmith_server", "FLAGSMITH_ENVIRONMENT_KEY=ser.{A:22}")
F(K_FLAG, "unleash_admin", "UNLEASH_API_TOKEN=*:production.{h:56}")
F(K_FLAG, "unleash_client", "UNLEASH_CLIENT_TOKEN=default:production.{h:56}")
F(K_FLAG, "optimizely", "OPTIMIZELY_TOKEN=2:{b:43}")
F(K_FLAG, "growthbook", "GROWTHBOOK_SECRET_KEY=secret_{a:16}_{h:20}")
F(K_FLAG, "statsig", "STATSIG_SERVER_SECRET=secret-{A:43}")
F(K_FLAG, "configcat_mgmt", "CONFIGCAT_API_USER~{b:20}", "CONFIGCAT_API_PASS={B:40}=")
F(K_FLAG, "devcycle", "DEVCYCLE_SERVER_SDK_KEY=dvc_server_{h:32}_{h:7}")
# maps
F(K_MAPS, "google_maps", "GOOGLE_MAPS_API_KEY=AIza{b:35}")
F(K_MAPS, "mapbox_secret", "MAPBOX_SECRET_TOKEN=sk.eyJ1Ijoi{b:40-60}In0.{b:22}")
F(K_MAPS, "here", "HERE_API_KEY={b:43}")
F(K_MAPS, "tomtom", "TOMTOM_API_KEY={A:32}")
F(K_MAPS, "bing_maps", "BING_MAPS_KEY={b:64}")
F(K_MAPS, "opencage", "OPENCAGE_API_KEY={h:32}")
F(K_MAPS, "geoapify", "GEOAPIFY_API_KEY={h:32}")
F(K_MAPS, "what3words", "W3W_API_KEY={U:8}")
F(K_MAPS, "azure_maps", "AZURE_MAPS_SUBSCRIPTION_KEY={b:43}")
F(K_MAPS, "mapquest", "MAPQUEST_KEY={A:32}")
# search
F(K_SEARCH, "algolia_admin", "ALGOLIA_APP_ID~{U:10}", "ALGOLIA_ADMIN_API_KEY={h:32}")
F(K_SEARCH, "meilisearch", "MEILI_MASTER_KEY={b:32-44}")
F(K_SEARCH, "typesense", "TYPESENSE_ADMIN_API_KEY={A:32}")
F(K_SEARCH, "azure_search_admin", "AZURE_SEARCH_ENDPOINT~https://{a:10}.search.windows.net", "AZURE_SEARCH_ADMIN_KEY={A:52}")
F(K_SEARCH, "bing_search", "BING_SEARCH_V7_SUBSCRIPTION_KEY={h:32}")
F(K_SEARCH, "serpapi", "SERPAPI_API_KEY={h:64}")
F(K_SEARCH, "brave", "BRAVE_SEARCH_API_KEY=BSA{b:28}")
F(K_SEARCH, "tavily", "TAVILY_API_KEY=tvly-{A:32}")
F(K_SEARCH, "exa", "EXA_API_KEY={uuid}")
F(K_SEARCH, "coveo", "COVEO_API_KEY=xx{uuid}")
F(K_SEARCH, "elastic_cloud", "ELASTIC_CLOUD_ID~{word}:{b64:60}", "ELASTIC_PASSWORD={A:24}")
F(K_SEARCH, "opensearch", "OPENSEARCH_URL=https://admin:{pw:20}@search-{word}-{a:26}.us-east-1.es.amazonaws.com")
F(K_SEARCH, "swiftype", "SWIFTYPE_PRIVATE_KEY=private-{a:24}")
F(K_SEARCH, "google_cse", "GOOGLE_CSE_ID~{h:17}", "GOOGLE_CSE_KEY=AIza{b:35}")
# storage
F(K_STORE, "gcs_hmac", "GCS_HMAC_ACCESS_ID~GOOG1E{U:55}", "GCS_HMAC_SECRET={B:40}")
F(K_STORE, "do_spaces", "SPACES_ACCESS_KEY_ID~DO00{U:16}", "SPACES_SECRET_ACCESS_KEY={B:43}")
F(K_STORE, "minio_root", "MINIO_ROOT_USER~{word}admin", "MINIO_ROOT_PASSWORD={pw:24}")
F(K_STORE, "minio_access", "MINIO_ACCESS_KEY~{U:20}", "MINIO_SECRET_KEY={A:40}")
F(K_STORE, "backblaze", "B2_APPLICATION_KEY_ID~005{h:22}", "B2_APPLICATION_KEY=K005{B:27}")
F(K_STORE, "wasabi", "WASABI_ACCESS_KEY~{U:20}", "WASABI_SECRET_KEY={A:40}")
F(K_STORE, "r2", "R2_ACCESS_KEY_ID~{h:32}", "R2_SECRET_ACCESS_KEY={h:64}")
F(K_STORE, "dropbox_short", "DROPBOX_ACCESS_TOKEN=sl.{b:135}")
F(K_STORE, "dropbox_app", "DROPBOX_APP_KEY~{a:15}", "DROPBOX_APP_SECRET={a:15}")
F(K_STORE, "box", "BOX_CLIENT_ID~{a:32}", "BOX_CLIENT_SECRET={A:32}")
F(K_STORE, "pinata", "PINATA_API_KEY~{h:20}", "PINATA_SECRET_API_KEY={h:64}")
F(K_STORE, "pinata_jwt", "PINATA_JWT={jwt}")
F(K_STORE, "storj", "STORJ_ACCESS_GRANT=1{r:300-340}")
F(K_STORE, "vercel_blob", "BLOB_READ_WRITE_TOKEN=vercel_blob_rw_{A:16}_{A:30}")
F(K_STORE, "sftp_password", "SFTP_HOST~sftp.{dom}", "SFTP_USER~{user}", "SFTP_PASSWORD={pw:16}")
F(K_STORE, "uploadthing", "UPLOADTHING_TOKEN=eyJhcGlLZXkiOiJza19saXZlX{b:120}")
# SaaS APIs
F(K_SAAS, "notion_legacy", "NOTION_TOKEN=secret_{A:43}")
F(K_SAAS, "notion_ntn", "NOTION_API_KEY=ntn_{d1:11}{A:35}")
F(K_SAAS, "airtable_pat", "AIRTABLE_TOKEN=pat{A:14}.{h:64}")
F(K_SAAS, "asana_pat", "ASANA_PAT=2/{d1:16}/{d1:16}:{h:32}")
F(K_SAAS, "linear", "LINEAR_API_KEY=lin_api_{A:40}")
F(K_SAAS, "monday", "MONDAY_API_TOKEN={jwt}")
F(K_SAAS, "trello", "TRELLO_API_KEY~{h:32}", "TRELLO_TOKEN=ATTA{h:64}{H:8}")
F(K_SAAS, "clickup", "CLICKUP_API_TOKEN=pk_{d1:8}_{U:32}")
F(K_SAAS, "figma", "FIGMA_TOKEN=figd_{b:40}")
F(K_SAAS, "hubspot", "HUBSPOT_ACCESS_TOKEN=pat-na1-{uuid}")
F(K_SAAS, "salesforce_consumer", "SF_CONSUMER_KEY~3MVG9{A:80}", "SF_CONSUMER_SECRET={H:64}")
F(K_SAAS, "salesforce_session", "SF_ACCESS_TOKEN=00D{A:12}!{A:100}")
F(K_SAAS, "typeform", "TYPEFORM_TOKEN=tfp_{b:44}_{b:14}")
F(K_SAAS, "docusign", "DOCUSIGN_INTEGRATION_KEY~{uuid}", "DOCUSIGN_SECRET_KEY={uuid}")
F(K_SAAS, "contentful_cma", "CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-{b:43}")
F(K_SAAS, "sanity", "SANITY_API_TOKEN=sk{A:180}")
F(K_SAAS, "strapi", "STRAPI_API_TOKEN={h:256}")
F(K_SAAS, "postman", "POSTMAN_API_KEY=PMAK-{h:24}-{h:34}")
F(K_SAAS, "vimeo", "VIMEO_ACCESS_TOKEN={h:32}")
F(K_SAAS, "openweather", "OPENWEATHER_API_KEY={h:32}")
F(K_SAAS, "newsapi", "NEWSAPI_KEY={h:32}")
F(K_SAAS, "lob", "LOB_API_KEY=live_{h:35}")
F(K_SAAS, "easypost", "EASYPOST_API_KEY=EZAK{h:54}")
F(K_SAAS, "shippo", "SHIPPO_API_TOKEN=shippo_live_{h:40}")
F(K_SAAS, "adobe", "ADOBE_CLIENT_ID~{h:32}", "ADOBE_CLIENT_SECRET=p8e-{A:32}")
F(K_SAAS, "quickbooks", "QBO_CLIENT_ID~AB{A:48}", "QBO_CLIENT_SECRET={A:40}")
F(K_SAAS, "xero", "XERO_CLIENT_ID~{H:32}", "XERO_CLIENT_SECRET={b:48}")
F(K_SAAS, "freshdesk", "FRESHDESK_API_KEY={A:20}")
F(K_SAAS, "jira_api_token", "JIRA_USER~{user}@{dom}", "JIRA_API_TOKEN={A:24}")
F(K_SAAS, "yandex_oauth", "YANDEX_OAUTH_TOKEN=y0_{b:58}")
F(K_SAAS, "yandex_cloud", "YC_API_KEY=AQVN{b:36}")
F(K_SAAS, "calendly", "CALENDLY_PAT={jwt}")
F(K_SAAS, "discourse", "DISCOURSE_API_USERNAME~system", "DISCOURSE_API_KEY={h:64}")
F(K_SAAS, "webflow", "WEBFLOW_API_TOKEN={h:64}")
F(K_SAAS, "wordpress_app_password", "WP_USER~{user}", "WP_APP_PASSWORD={A:4} {A:4} {A:4} {A:4} {A:4} {A:4}")
F(K_SAAS, "gitbook", "GITBOOK_TOKEN=gb_api_{A:40}")
F(K_SAAS, "ghost_admin", "GHOST_ADMIN_API_KEY={h:24}:{h:64}")
F(K_SAAS, "miro", "MIRO_ACCESS_TOKEN=eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_{b:27}")
F(K_SAAS, "smartsheet", "SMARTSHEET_ACCESS_TOKEN={A:37}")
F(K_SAAS, "dropbox_sign", "HELLOSIGN_API_KEY={h:64}")
F(K_SAAS, "apify", "APIFY_TOKEN=apify_api_{A:36}")
F(K_SAAS, "scrapingbee", "SCRAPINGBEE_API_KEY={U:80}")
F(K_SAAS, "rapidapi", "RAPIDAPI_KEY={h:10}msh{h:15}p1{h:6}jsn{h:12}")
F(K_SAAS, "ipinfo", "IPINFO_TOKEN={h:14}")
F(K_SAAS, "youtube_data", "YOUTUBE_API_KEY=AIza{b:35}")
F(K_SAAS, "zendesk_oauth", "ZENDESK_OAUTH_TOKEN={h:64}")
# infrastructure / ops tooling
F(K_OPS, "pulumi_token", "PULUMI_ACCESS_TOKEN=pul-{h:40}")
F(K_OPS, "terraform_cloud_token", "TF_TOKEN_app_terraform_io={A:14}.atlasv1.{A:67}")
F(K_OPS, "doppler_service_token", "DOPPLER_TOKEN=dp.st.{L:3-8}.{A:40}")
F(K_OPS, "doppler_personal_token", "DOPPLER_TOKEN=dp.pt.{A:43}")
F(K_OPS, "vault_service_token", "VAULT_TOKEN=hvs.{b:90-100}")
F(K_OPS, "vault_batch_token", "VAULT_TOKEN=hvb.{b:120-140}")
F(K_OPS, "vault_legacy_token", "VAULT_TOKEN=s.{A:24}")
F(K_OPS, "infisical_service_token", "INFISICAL_TOKEN=st.{uuid}.{h:32}.{h:32}")
F(K_OPS, "onepassword_service_account", "OP_SERVICE_ACCOUNT_TOKEN=ops_eyJ{b:200-300}")
F(K_OPS, "onepassword_connect", "OP_CONNECT_TOKEN={jwt}")
F(K_OPS, "tailscale_auth_key", "TS_AUTHKEY=tskey-auth-{A:11}CNTRL-{A:33}")
F(K_OPS, "tailscale_api_key", "TAILSCALE_API_KEY=tskey-api-{A:11}CNTRL-{A:33}")
F(K_OPS, "ngrok_authtoken", "NGROK_AUTHTOKEN={A:27}_{A:21}")
F(K_OPS, "docker_swarm_join", "SWARM_WORKER_TOKEN=SWMTKN-1-{a:50}-{a:25}")
F(K_OPS, "k8s_bootstrap_token", "BOOTSTRAP_TOKEN={a:6}.{a:16}")
F(K_OPS, "k8s_sa_token", "KUBE_TOKEN={jwt_k8s}")
F(K_OPS, "consul_acl_token", "CONSUL_HTTP_TOKEN={uuid}")
F(K_OPS, "nomad_token", "NOMAD_TOKEN={uuid}")
F(K_OPS, "rancher_token", "RANCHER_TOKEN=token-{a:5}:{a:54}")
F(K_OPS, "portainer_token", "PORTAINER_API_KEY=ptr_{b:43}")
F(K_OPS, "openshift_token", "OC_TOKEN=sha256~{b:43}")
F(K_OPS, "k3s_token", "K3S_TOKEN=K10{h:64}::server:{h:32}")
F(K_OPS, "kubeadm_cert_key", "KUBEADM_CERTIFICATE_KEY={h:64}")
F(K_OPS, "wireguard_private_key", "WG_PRIVATE_KEY={b64:32}")
F(K_OPS, "age_secret_key", "SOPS_AGE_KEY=AGE-SECRET-KEY-1{X:58}")
F(K_OPS, "sops_pgp_private", "SOPS_PGP_PRIVATE_KEY={pem_rsa}")
F(K_OPS, "ansible_vault_password", "ANSIBLE_VAULT_PASSWORD={pw:32}")
F(K_OPS, "terraform_state_backend", "PG_CONN_STR=postgres://terraform:{pw:24}@{host}/tfstate")

SECRET_VARS = sorted({f[0] for k, n, fl in CAT for f in fl if f[2]})


# ----------------------------------------------------------------- containers
# A container renders a list of (name, value) assignments as text.  Values are
# inserted verbatim (only JSON-ish containers escape '"' and newlines).
CONTAINERS = []


def container(ml=True):
    def deco(f):
        CONTAINERS.append((f.__name__[2:], f, ml))
        return f
    return deco


def anyq(v):
    if "\n" in v or " " in v or v == "":
        return dq(v)
    return ch([v, v, dq(v), sq(v) if "'" not in v else dq(v)])


def shq(v):
    if v == "":
        return '""'
    if re.fullmatch(r"[A-Za-z0-9_./:@%+=,-]+", v) and R.random() < 0.4:
        return v
    if "'" not in v and R.random() < 0.6:
        return sq(v)
    return dq(v)


def yscalar(v):
    if v == "":
        return '""'
    if ('"' in v or v[:1] in "*&!%@`{[|>'#-?:" or ": " in v or " #" in v or v.strip() != v
            or v.lower() in ("true", "false", "yes", "no", "null", "on", "off") or re.fullmatch(r"[0-9.e+-]+", v)):
        return sq(v) if "'" not in v else dq(v)
    return ch([v, dq(v)]) if "\\" not in v else v


def ykv(k, v, ind):
    pad = " " * ind
    if "\n" in v:
        body = "\n".join(" " * (ind + 2) + ln for ln in v.split("\n"))
        return f"{pad}{k}: |\n{body}"
    return f"{pad}{k}: {yscalar(v)}"


def code_lit(v, lang):
    if "\n" not in v and '"' not in v:
        if lang in ("python", "js", "ts", "ruby", "php") and "'" not in v and R.random() < 0.35:
            return sq(v)
        return dq(v)
    if lang == "python":
        return '"""' + v + '"""' if '"""' not in v else "'''" + v + "'''"
    if lang in ("js", "ts", "go"):
        return "`" + v + "`"
    if lang in ("java", "kotlin"):
        return '"""\n' + v + '"""'
    if lang == "csharp":
        return '"""\n' + v + '\n"""'
    if lang == "rust":
        return 'r#"' + v + '"#'
    if lang == "ruby":
        return "%q{" + v + "}"
    if lang == "swift":
        return '#"""\n' + v + '\n"""#'
    return sq(v)


@container()
def c_dotenv(a):
    out = []
    if R.random() < 0.3:
        out.append(ch(["# .env", f"# {svc()}", "# generated by bootstrap.sh", "# local overrides", f"# {ch(ENVS)}"]))
    for n, v in a:
        out.append(f"{n}={anyq(v)}")
    return NL.join(out)


@container()
def c_export(a):
    return NL.join(f"export {n}={shq(v) if NL not in v else dq(v)}" for n, v in a)


@container(ml=False)
def c_history(a):
    other = ["ls -la", f"cd ~/src/{word()}", "git status", "git pull --rebase", f"kubectl get pods -n {word()}",
             "docker ps", "vim .env", "source .venv/bin/activate", "make test", "npm run build", "terraform plan",
             f"ssh {user()}@{host()}", "history | tail", "clear", "cat README.md"]
    lines = [ch(other) for _ in range(R.randint(0, 3))]
    for n, v in a:
        lines.insert(R.randint(0, len(lines)), f"export {n}={shq(v)}")
    start = R.randint(100, 1900)
    return NL.join(f"{start + i:>5}  {ln}" for i, ln in enumerate(lines))


@container(ml=False)
def c_fish(a):
    return NL.join(f"set -gx {n} {shq(v)}" for n, v in a)


@container(ml=False)
def c_cmd(a):
    st = ch(["set", "setx"])
    if st == "set":
        return NL.join(f"set {n}={v}" for n, v in a)
    return NL.join(f'setx {n} "{v}"' for n, v in a)


@container()
def c_powershell(a):
    if R.random() < 0.6:
        return NL.join(f'$env:{n} = "{v}"' for n, v in a)
    return NL.join(f'[Environment]::SetEnvironmentVariable("{n}", "{v}", "User")' for n, v in a)


@container()
def c_compose(a):
    s = word()
    out = ["services:", f"  {s}:", f"    image: {ch(['ghcr.io', 'docker.io', 'registry.gitlab.com'])}/{word()}/{s}:{R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}",
           "    environment:"]
    if R.random() < 0.5 and not any(NL in v for _, v in a):
        out += [f"      - {n}={v}" for n, v in a]
    else:
        out += [ykv(n, v, 6) for n, v in a]
    if R.random() < 0.5:
        out += ["    ports:", f'      - "{ch([8080, 3000, 5432, 6379])}:{ch([8080, 3000, 5432, 6379])}"']
    return NL.join(out)


@container(ml=False)
def c_dockerfile(a):
    base = ch(["python:3.12-slim", "node:20-alpine", "golang:1.22", "eclipse-temurin:21-jre", "ruby:3.3"])
    kw = ch(["ENV", "ARG"])
    out = [f"FROM {base}", "WORKDIR /app"] + [f"{kw} {n}={shq(v)}" for n, v in a]
    out += ["COPY . .", ch(["RUN pip install -r requirements.txt", "RUN npm ci", "RUN go build ./...", "RUN bundle install"])]
    return NL.join(out)


@container()
def c_k8s_secret(a):
    out = ["apiVersion: v1", "kind: Secret", "metadata:", f"  name: {word()}-{ch(['credentials', 'env', 'config', 'secrets'])}",
           f"  namespace: {ch(['default', 'prod', 'staging', word()])}", "type: Opaque", "stringData:"]
    out += [ykv(ch([kebab(n), n, snake(n)]), v, 2) for n, v in a]
    return NL.join(out)


@container()
def c_k8s_deploy(a):
    s = word()
    out = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", f"  name: {s}", "spec:", "  template:", "    spec:",
           "      containers:", f"        - name: {s}", f"          image: {s}:{R.randint(1, 40)}", "          env:"]
    for n, v in a:
        out.append(f"            - name: {n}")
        out.append(ykv("value", v, 14))
    return NL.join(out)


@container()
def c_helm(a):
    out = [f"{word()}:", "  replicaCount: " + str(R.randint(1, 5)), "  config:"]
    out += [ykv(camel(n), v, 4) for n, v in a]
    return NL.join(out)


@container()
def c_terraform(a):
    st = R.random()
    out = []
    if st < 0.5:
        for n, v in a:
            val = f'"{v}"' if NL not in v and '"' not in v else f"<<EOT\n{v}\nEOT"
            out += [f'variable "{snake(n)}" {{', "  type      = string", f"  default   = {val}",
                    f"  sensitive = {ch(['true', 'false'])}", "}", ""]
        return NL.join(out).rstrip()
    out.append(f'resource "{ch(["kubernetes_secret", "aws_lambda_function", "helm_release", "null_resource"])}" "{word()}" {{')
    out.append("  environment_variables = {")
    for n, v in a:
        val = f'"{v}"' if NL not in v and '"' not in v else f"<<EOT\n{v}\nEOT"
        out.append(f"    {n} = {val}")
    out += ["  }", "}"]
    return NL.join(out)


@container()
def c_tfvars(a):
    out = []
    for n, v in a:
        val = f'"{v}"' if NL not in v and '"' not in v else f"<<EOT\n{v}\nEOT"
        out.append(f"{snake(n)} = {val}")
    return NL.join(out)


@container()
def c_ansible(a):
    if R.random() < 0.5:
        out = ["---", f"# group_vars/{ch(['all', 'prod', 'webservers', 'db'])}.yml"] + [ykv(snake(n), v, 0) for n, v in a]
        return NL.join(out)
    out = [f"- name: configure {word()}", f"  hosts: {ch(['all', 'web', 'db', 'workers'])}", "  vars:"]
    out += [ykv(snake(n), v, 4) for n, v in a]
    out += ["  tasks:", "    - name: render env file", "      ansible.builtin.template:", "        src: app.env.j2",
            "        dest: /etc/app/app.env"]
    return NL.join(out)


@container()
def c_gha(a):
    out = [f"name: {ch(['deploy', 'release', 'ci', 'nightly'])}", "on:", "  push:", "    branches: [main]", "jobs:",
           f"  {ch(['build', 'deploy', 'publish'])}:", "    runs-on: ubuntu-latest", "    env:"]
    out += [ykv(n, v, 6) for n, v in a]
    out += ["    steps:", "      - uses: actions/checkout@v4", f"      - run: {ch(['make deploy', './scripts/release.sh', 'npm publish', 'terraform apply -auto-approve'])}"]
    return NL.join(out)


@container()
def c_gitlab(a):
    out = ["variables:"] + [ykv(n, v, 2) for n, v in a]
    out += ["", f"{ch(['deploy', 'release', 'test'])}:", f"  stage: {ch(['deploy', 'test', 'build'])}",
            f"  image: {ch(['alpine:3.20', 'python:3.12', 'node:20'])}", "  script:", f"    - {ch(['./deploy.sh', 'make release', 'pytest -q'])}"]
    return NL.join(out)


@container()
def c_circleci(a):
    out = ["version: 2.1", "jobs:", "  build:", "    docker:", "      - image: cimg/base:2024.01", "        environment:"]
    out += [ykv(n, v, 10) for n, v in a]
    out += ["    steps:", "      - checkout", f"      - run: {ch(['make build', './ci/run.sh'])}"]
    return NL.join(out)


@container()
def c_json(a):
    inner = ",\n".join(f'    "{ch([camel(n), n, snake(n)])}": "{jesc(v)}"' for n, v in a)
    return "{\n  " + dq(word()) + ": {\n" + inner + "\n  }\n}"


@container()
def c_appsettings(a):
    inner = ",\n".join(f'    "{pascal(n)}": "{jesc(v)}"' for n, v in a)
    return ('{\n  "Logging": { "LogLevel": { "Default": "Information" } },\n  "' + pascal(word()) + '": {\n'
            + inner + "\n  }\n}")


@container()
def c_launch_json(a):
    inner = ", ".join(f'"{n}": "{jesc(v)}"' for n, v in a)
    return ('{\n  "version": "0.2.0",\n  "configurations": [\n    {\n      "name": "Debug ' + word() +
            '",\n      "type": "' + ch(["node", "python", "go"]) + '",\n      "request": "launch",\n      "env": {' + inner + "}\n    }\n  ]\n}")


@container()
def c_toml(a):
    out = [f"[{ch(['default', 'production', 'app', 'credentials', word()])}]"]
    for n, v in a:
        out.append(f'{snake(n)} = """{v}"""' if NL in v or '"' in v else f'{snake(n)} = "{v}"')
    return NL.join(out)


@container()
def c_ini(a):
    out = [f"[{ch(['default', 'database', 'api', 'service', word()])}]"]
    for n, v in a:
        if NL in v:
            out.append(f"{snake(n)} = " + v.replace(NL, NL + "    "))
        else:
            out.append(f"{snake(n)} = {v}")
    return NL.join(out)


@container()
def c_properties(a):
    out = []
    for n, v in a:
        out.append(f"{dotted(n)}={v.replace(NL, chr(92) + 'n' + chr(92) + NL)}")
    return NL.join(out)


@container()
def c_spring_yaml(a):
    out = [f"{word()}:"]
    for n, v in a:
        out.append(ykv(kebab(n), v, 2))
    return NL.join(out)


@container()
def c_xml(a):
    if R.random() < 0.5 and not any(NL in v or '"' in v for _, v in a):
        inner = NL.join(f'    <add key="{n}" value="{v}" />' for n, v in a)
        return "<configuration>\n  <appSettings>\n" + inner + "\n  </appSettings>\n</configuration>"
    inner = NL.join(f"    <{camel(n)}>{v}</{camel(n)}>" for n, v in a)
    return f"<settings>\n  <{word()}>\n" + inner + f"\n  </{word()}>\n</settings>"


@container()
def c_python(a):
    st = R.random()
    if st < 0.4:
        return NL.join(f"{n} = {code_lit(v, 'python')}" for n, v in a)
    if st < 0.7:
        return "import os\n\n" + NL.join(f'os.environ.setdefault("{n}", {code_lit(v, "python")})' for n, v in a)
    return "SETTINGS = {\n" + NL.join(f'    "{snake(n)}": {code_lit(v, "python")},' for n, v in a) + "\n}"


@container()
def c_js(a):
    if R.random() < 0.5:
        return NL.join(f"const {camel(n)} = {code_lit(v, 'js')};" for n, v in a)
    return "module.exports = {\n" + NL.join(f"  {camel(n)}: {code_lit(v, 'js')}," for n, v in a) + "\n};"


@container()
def c_ts(a):
    return ("export const config = {\n" + NL.join(f"  {camel(n)}: {code_lit(v, 'ts')}," for n, v in a) + "\n} as const;")


@container()
def c_go(a):
    if R.random() < 0.5:
        return "const (\n" + NL.join(f"\t{camel(n)} = {code_lit(v, 'go')}" for n, v in a) + "\n)"
    return "func init() {\n" + NL.join(f'\tos.Setenv("{n}", {code_lit(v, "go")})' for n, v in a) + "\n}"


@container()
def c_java(a):
    body = NL.join(f"    private static final String {snake(n).upper()} = {code_lit(v, 'java')};" for n, v in a)
    return f"public class {pascal(word())}Config {{\n{body}\n}}"


@container()
def c_csharp(a):
    if R.random() < 0.5:
        body = NL.join(f"    public const string {pascal(n)} = {code_lit(v, 'csharp')};" for n, v in a)
        return f"internal static class {pascal(word())}Settings\n{{\n{body}\n}}"
    return NL.join(f'Environment.SetEnvironmentVariable("{n}", {code_lit(v, "csharp")});' for n, v in a)


@container()
def c_rust(a):
    if R.random() < 0.5:
        return NL.join(f"const {snake(n).upper()}: &str = {code_lit(v, 'rust')};" for n, v in a)
    return "fn main() {\n" + NL.join(f'    std::env::set_var("{n}", {code_lit(v, "rust")});' for n, v in a) + "\n}"


@container()
def c_ruby(a):
    if R.random() < 0.5:
        return NL.join(f'ENV["{n}"] ||= {code_lit(v, "ruby")}' for n, v in a)
    return NL.join(f"Rails.application.config.x.{snake(n)} = {code_lit(v, 'ruby')}" for n, v in a)


@container()
def c_php(a):
    if R.random() < 0.5:
        return "<?php\n" + NL.join(f"define('{n}', {code_lit(v, 'php')});" for n, v in a)
    return "<?php\nreturn [\n" + NL.join(f"    '{snake(n)}' => {code_lit(v, 'php')}," for n, v in a) + "\n];"


@container()
def c_kotlin(a):
    return f"object {pascal(word())}Config {{\n" + NL.join(f"    const val {snake(n).upper()} = {code_lit(v, 'kotlin')}" for n, v in a) + "\n}"


@container()
def c_swift(a):
    return f"enum {pascal(word())}Keys {{\n" + NL.join(f"    static let {camel(n)} = {code_lit(v, 'swift')}" for n, v in a) + "\n}"


@container()
def c_sql(a):
    if R.random() < 0.6:
        rows = ",\n  ".join(f"('{n}', '{v}')" for n, v in a)
        return f"INSERT INTO {ch(['app_settings', 'config', 'integration_credentials', 'settings'])} (name, value) VALUES\n  {rows};"
    return NL.join(f"UPDATE {ch(['app_config', 'settings'])} SET value = '{v}' WHERE key = '{n}';" for n, v in a)


@container(ml=False)
def c_curl(a):
    url = f"https://api.{dom()}/v{R.randint(1, 3)}/{ch(['events', 'charges', 'messages', 'jobs', 'sync', 'items'])}"
    if R.random() < 0.6:
        hs = " ".join(f'-H "{header_name(n)}: {v}"' for n, v in a)
        return f"curl -sS {ch(['-X POST ', '', '-X GET '])}{url} {hs}".replace("  ", " ")
    ds = " ".join(f'-d "{snake(n)}={v}"' for n, v in a)
    return f"curl -sS -X POST {url} {ds}"


@container(ml=False)
def c_http(a):
    path = f"/v{R.randint(1, 3)}/{ch(['events', 'orders', 'hooks', 'ingest', 'tokens'])}"
    lines = [f"{ch(['POST', 'PUT', 'GET'])} {path} HTTP/1.1", f"Host: api.{dom()}", "User-Agent: " + ch(["python-requests/2.32.3", "curl/8.5.0", "okhttp/4.12.0", "axios/1.7.2"]),
             "Accept: application/json"]
    if R.random() < 0.6:
        lines += [f"{header_name(n)}: {v}" for n, v in a]
        lines += ["Content-Length: 0", ""]
    else:
        body = "{" + ", ".join(f'"{snake(n)}": "{jesc(v)}"' for n, v in a) + "}"
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}", "", body]
    return NL.join(lines)


@container()
def c_log(a):
    s = svc()
    lvl = ch(["INFO", "DEBUG", "WARN"])
    if any(NL in v for _, v in a):
        return f"{ts()} {lvl} [{s}] env dump:\n" + NL.join(f"  {n}={v}" for n, v in a)
    kv = " ".join(f"{n}={v}" for n, v in a)
    return f"{ts()} {lvl} [{s}] {ch(['loaded config', 'starting with', 'effective settings', 'resolved env'])}: {kv}"


@container()
def c_stacktrace(a):
    s = word()
    if R.random() < 0.5:
        loc = NL.join(f"    {snake(n)} = {sq(v) if chr(39) not in v else dq(v)}" for n, v in a)
        return (f"Traceback (most recent call last):\n  File \"/app/{s}/client.py\", line {R.randint(20, 400)}, in connect\n"
                f"    resp = session.post(url, headers=headers, timeout=10)\n  File \"/usr/local/lib/python3.12/site-packages/requests/sessions.py\", line 637, in post\n"
                f"requests.exceptions.HTTPError: {ch(['401', '403', '500', '502'])} Error for url: https://api.{dom()}/v1/{word()}\n"
                f"Locals at frame 0:\n{loc}")
    kv = ", ".join(f"{n}={v}" for n, v in a)
    return (f"Exception in thread \"main\" java.lang.IllegalStateException: failed to initialise {pascal(s)}Client config={{{kv}}}\n"
            f"\tat com.{word()}.{s}.{pascal(s)}Client.<init>({pascal(s)}Client.java:{R.randint(20, 300)})\n"
            f"\tat com.{word()}.{s}.Main.main(Main.java:{R.randint(10, 90)})")


@container()
def c_diff(a):
    path = ch([".env", "config/settings.py", "deploy/values.yaml", "src/config.ts", "app.properties", ".env.production"])
    h1, h2 = rs(ALPH["h"], 7), rs(ALPH["h"], 7)
    added = []
    for n, v in a:
        for j, ln in enumerate(f"{n}={v}".split(NL)):
            added.append("+" + ln)
    ctx = [" " + ch(["LOG_LEVEL=info", "# settings", "PORT=8080", "DEBUG=false", "APP_NAME=" + word()])]
    return (f"diff --git a/{path} b/{path}\nindex {h1}..{h2} 100644\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -{R.randint(1, 40)},3 +{R.randint(1, 40)},{3 + len(added)} @@\n" + NL.join(ctx + added))


@container()
def c_jupyter(a):
    src = ['"import os\\n"'] + [f'"os.environ[\\"{n}\\"] = \\"{jesc(v)}\\"\\n"' for n, v in a]
    return ('{\n "cell_type": "code",\n "execution_count": ' + str(R.randint(1, 60)) +
            ',\n "metadata": {},\n "outputs": [],\n "source": [\n  ' + ",\n  ".join(src) + "\n ]\n}")


@container()
def c_slack(a):
    body = NL.join(f"{n}={v}" for n, v in a)
    return (f"[{R.randint(7, 19)}:{R.randint(0, 59):02d}] {ch(FIRST)}: {ch(['here are the values for', 'use these for', 'config for', 'settings for'])} {svc()} {ch(ENVS)}\n```\n{body}\n```")


@container()
def c_teams(a):
    body = NL.join(f"{n}: {v}" for n, v in a)
    return f"{ch(FIRST).title()} {ch(FIRST).title()[0]}. ({ch(['Mon', 'Tue', 'Wed', 'Thu', 'Fri'])} {R.randint(8, 18)}:{R.randint(0, 59):02d})\n{ch(['Settings for the', 'Values for', 'As requested, the'])} {word()} integration:\n{body}"


@container()
def c_jira(a):
    body = NL.join(f"{n}={v}" for n, v in a)
    return f"{ticket()} - comment by {user()}:\nConfigured the {word()} connector, values below.\n{{code}}\n{body}\n{{code}}"


@container()
def c_email(a):
    body = NL.join(f"  {n}: {v}" for n, v in a)
    return (f"From: {ch(FIRST)}@{dom()}\nTo: {ch(FIRST)}@{dom()}\nSubject: {ch(['Re: ', 'Fwd: ', ''])}{word()} {ch(['setup', 'access', 'integration', 'config'])}\n\n"
            f"Hi {ch(FIRST).title()},\n\n{ch(['Here is what you need for the', 'Settings for the', 'Below are the values for the'])} {word()} environment:\n\n{body}\n\nCheers,\n{ch(FIRST).title()}")


@container()
def c_markdown(a):
    body = NL.join(f"export {n}={shq(v) if NL not in v else dq(v)}" for n, v in a)
    return f"## {word().title()} {ch(['setup', 'local development', 'deployment', 'quickstart'])}\n\n{ch(['Set these before running', 'Export the following, then run', 'Required environment:'])} `make {ch(['dev', 'run', 'deploy'])}`:\n\n```bash\n{body}\n```"


@container()
def c_md_table(a):
    rows = NL.join(f"| `{n}` | `{v.replace(NL, '<br>')}` | {ch(['', 'required', 'prod only', 'see runbook', 'staging'])} |" for n, v in a)
    return "| Variable | Value | Notes |\n|---|---|---|\n" + rows


@container()
def c_csv(a):
    rows = NL.join(f"{n},\"{v.replace(chr(34), chr(34) * 2)}\",{ch(ENVS)}" for n, v in a)
    return "name,value,env\n" + rows


@container(ml=False)
def c_crontab(a):
    env = " ".join(f"{n}={shq(v)}" for n, v in a)
    return f"# m h dom mon dow command\n{R.randint(0, 59)} {R.randint(0, 23)} * * {ch(['*', '1-5', '0'])} {env} /opt/{word()}/bin/{ch(['sync', 'backup', 'report'])}.sh >> /var/log/{word()}.log 2>&1"


@container(ml=False)
def c_systemd(a):
    envs = NL.join(f'Environment="{n}={v}"' for n, v in a)
    s = word()
    return f"[Unit]\nDescription={s} service\nAfter=network.target\n\n[Service]\n{envs}\nExecStart=/usr/local/bin/{s}\nRestart=always\n\n[Install]\nWantedBy=multi-user.target"


@container(ml=False)
def c_nginx(a):
    hs = NL.join(f'        proxy_set_header {header_name(n)} "{v}";' for n, v in a)
    return f"server {{\n    listen 443 ssl;\n    server_name {word()}.{dom()};\n    location /api/ {{\n        proxy_pass http://{word()}:{ch([8080, 3000, 9000])};\n{hs}\n    }}\n}}"


@container(ml=False)
def c_apache(a):
    if R.random() < 0.5:
        inner = NL.join(f"    SetEnv {n} {v}" for n, v in a)
    else:
        inner = NL.join(f'    RequestHeader set {header_name(n)} "{v}"' for n, v in a)
    return f"<VirtualHost *:443>\n    ServerName {word()}.{dom()}\n{inner}\n</VirtualHost>"


@container(ml=False)
def c_makefile(a):
    out = [f"{n} {ch(['?=', ':=', '='])} {v}" for n, v in a]
    return NL.join(out) + f"\n\n{ch(['deploy', 'run', 'release'])}:\n\t./scripts/{word()}.sh"


@container()
def c_chat(a):
    if len(a) == 1:
        n, v = a[0]
        return f"user: {ch(['can you remember my', 'please keep my', 'save my', 'note down the'])} {n} for {word()}? it's {v}\nassistant: {ch(['Noted.', 'Got it.', 'Saved.'])}"
    body = NL.join(f"{n} = {v}" for n, v in a)
    return f"user: {ch(['remember these for the', 'keep these for the', 'here are the settings for the'])} {word()} project:\n{body}\nassistant: {ch(['Noted.', 'Got it.', 'Saved.'])}"


@container(ml=False)
def c_cli_setter(a):
    app = word()
    st = ch(["heroku", "fly", "gh", "az", "ssm", "kubectl", "doppler", "railway", "vercel_pull"])
    if st == "heroku":
        return f"heroku config:set {' '.join(f'{n}={shq(v)}' for n, v in a)} --app {app}"
    if st == "fly":
        return f"fly secrets set {' '.join(f'{n}={shq(v)}' for n, v in a)} -a {app}"
    if st == "gh":
        return NL.join(f"gh secret set {n} --body {shq(v)} --repo {word()}/{app}" for n, v in a)
    if st == "az":
        return f"az webapp config appsettings set -g rg-{app} -n {app} --settings {' '.join(f'{n}={shq(v)}' for n, v in a)}"
    if st == "ssm":
        return NL.join(f"aws ssm put-parameter --name /{app}/{n} --type SecureString --value {shq(v)} --overwrite" for n, v in a)
    if st == "kubectl":
        return f"kubectl create secret generic {app}-env " + " ".join(f"--from-literal={snake(n)}={shq(v)}" for n, v in a)
    if st == "doppler":
        return f"doppler secrets set {' '.join(f'{n}={shq(v)}' for n, v in a)} --project {app}"
    if st == "railway":
        return NL.join(f'railway variables --set "{n}={v}"' for n, v in a)
    return "\n".join(f"echo {shq(v)} | vercel env add {n} production" for n, v in a)


@container(ml=False)
def c_docker_run(a):
    envs = " ".join(f"-e {n}={shq(v)}" for n, v in a)
    return f"docker run -d --name {word()} {envs} {word()}/{word()}:{ch(['latest', 'stable', str(R.randint(1, 9))])}"


@container(ml=False)
def c_supervisord(a):
    envs = ",".join(f'{n}="{v}"' for n, v in a)
    s = word()
    return f"[program:{s}]\ncommand=/usr/local/bin/{s} --serve\nautorestart=true\nenvironment={envs}"


@container()
def c_cloudinit(a):
    body = NL.join(f"      {n}={ln}" if i == 0 else f"      {ln}" for n, v in a for i, ln in enumerate(v.split(NL)))
    return f"#cloud-config\nwrite_files:\n  - path: /etc/{word()}/app.env\n    permissions: '0600'\n    content: |\n{body}"


@container()
def c_bash_script(a):
    body = NL.join(f"{n}={shq(v) if NL not in v else dq(v)}" for n, v in a)
    return f"#!/usr/bin/env bash\nset -euo pipefail\n\n{body}\n\nexec ./bin/{word()} {ch(['--serve', 'sync', 'migrate', '--once'])}"


@container()
def c_pulumi(a):
    proj = word()
    return f"config:\n  aws:region: {ch(REGIONS)}\n" + NL.join(ykv(f"{proj}:{camel(n)}", v, 2) for n, v in a)


@container()
def c_serverless(a):
    out = [f"service: {word()}", "provider:", "  name: aws", f"  runtime: {ch(['nodejs20.x', 'python3.12'])}", "  environment:"]
    out += [ykv(n, v, 4) for n, v in a]
    return NL.join(out)


@container()
def c_gradle(a):
    return NL.join(f"{camel(n)}={v.replace(NL, chr(92) + NL)}" for n, v in a)


@container()
def c_vault_kv_cmd(a):
    path = f"secret/{ch(ENVS)}/{word()}"
    if any(NL in v for _, v in a):
        return f"vault kv put {path} " + " ".join(f"{snake(n)}=@{snake(n)}.txt" for n, v in a) + "\n# " + NL.join(f"{snake(n)}.txt:\n{v}" for n, v in a)
    return f"vault kv put {path} " + " ".join(f"{snake(n)}={shq(v)}" for n, v in a)


NOISE = [
    ("APP_ENV", lambda: ch(ENVS)), ("LOG_LEVEL", lambda: ch(["info", "debug", "warn", "error"])),
    ("PORT", lambda: str(ch([3000, 8000, 8080, 8443, 9090, 5000]))), ("AWS_REGION", lambda: ch(REGIONS)),
    ("TIMEOUT_MS", lambda: str(ch([500, 1000, 2500, 5000, 30000]))), ("MAX_RETRIES", lambda: str(R.randint(1, 8))),
    ("SERVICE_NAME", svc), ("CACHE_TTL_SECONDS", lambda: str(ch([60, 300, 900, 3600]))),
    ("NODE_ENV", lambda: ch(["production", "development"])), ("WORKERS", lambda: str(R.randint(1, 16))),
    ("ENABLE_TRACING", lambda: ch(["true", "false"])), ("TZ", lambda: ch(["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"])),
    ("BASE_URL", lambda: f"https://{word()}.{dom()}"), ("DB_HOST", host), ("DB_NAME", word),
]
LAST_CONTAINER = [None]


def render(assigns, noise=True):
    a = list(assigns)
    if noise and R.random() < 0.45:
        have = {n for n, _ in a}
        for _ in range(R.randint(1, 3)):
            n, fn = ch(NOISE)
            if n not in have:
                have.add(n)
                a.insert(R.randint(0, len(a)), (n, fn()))
    ml = any(NL in v for _, v in a)
    pool = [c for c in CONTAINERS if c[2] or not ml]
    name, f, _ = ch(pool)
    LAST_CONTAINER[0] = name
    return f(a)


# shared snippet wrappers (used by both labels)
def wrap_cmd(cmds):
    st = ch(["prompt", "history", "md", "slack", "runbook", "script", "plain"])
    LAST_CONTAINER[0] = "cmd_" + st
    if st == "prompt":
        return NL.join(f"{ch(['$', '#', user() + '@' + word() + ':~$'])} {c}" for c in cmds)
    if st == "history":
        s = R.randint(100, 1900)
        return NL.join(f"{s + i:>5}  {c}" for i, c in enumerate(cmds))
    if st == "md":
        return f"{ch(['To connect:', 'Steps:', 'Usage', 'Run this from the bastion:'])}\n\n```{ch(['bash', 'sh', 'console', ''])}\n" + NL.join(cmds) + "\n```"
    if st == "slack":
        return f"{ch(FIRST)}: {ch(['this worked for me', 'try this', 'fyi command I used', 'what I ran'])} `" + "` then `".join(cmds) + "`"
    if st == "runbook":
        return NL.join(f"{i + 1}. `{c}`" for i, c in enumerate(cmds))
    if st == "script":
        return "#!/bin/sh\nset -e\n" + NL.join(cmds)
    return NL.join(cmds)


def wrap_file(text, path):
    st = ch(["cat", "fence", "header", "plain", "heredoc_view"])
    LAST_CONTAINER[0] = "file_" + st
    if st == "cat":
        return f"$ cat {path}\n{text}"
    if st == "fence":
        return f"`{path}`:\n```\n{text}\n```"
    if st == "header":
        return f"# {path}\n{text}"
    if st == "heredoc_view":
        return f"==> {path} <==\n{text}"
    return text


def http_dump(method, url, headers, body=None):
    u = urllib.parse.urlsplit(url)
    path = u.path + (("?" + u.query) if u.query else "")
    lines = [f"{method} {path or '/'} HTTP/1.1", f"Host: {u.netloc}"] + [f"{k}: {v}" for k, v in headers]
    if body is not None:
        lines += [f"Content-Length: {len(body)}", "", body]
    LAST_CONTAINER[0] = "http_dump"
    return NL.join(lines)


def curl_cmd(method, url, headers, data=None):
    parts = ["curl", ch(["-sS", "-s", "-v", "-fsSL"])]
    if method != "GET":
        parts += ["-X", method]
    parts += [f'-H "{k}: {v}"' for k, v in headers]
    if data:
        parts += ["-d", sq(data)]
    parts.append(dq(url) if "&" in url else url)
    LAST_CONTAINER[0] = "curl"
    return " ".join(parts) if R.random() < 0.5 else " \\\n  ".join(parts)


def api_url():
    return f"https://api.{dom()}/v{R.randint(1, 3)}/{ch(['users', 'orders', 'charges', 'reports', 'items', 'events', 'search', 'repos'])}"


# ----------------------------------------------------------------- label-neutral wrapping
PREFIXES = ["remember this:", "note to self:", "saving for later -", "from the onboarding thread:", "for the migration next week:",
            "copied from the wiki:", "ctx for tomorrow:", "pinned:", "keep handy:", "from yesterday's pairing session:", "FYI",
            "store this please:", "as discussed:", "quick ref:", "for the demo env:", "context:"]
SUFFIXES = ["(updated last week)", "- ping me if this breaks", "ref: runbook section 3", "thanks!", "see also the infra channel",
            "(from the old laptop)", "-- end --"]
TITLES = ["deploy notes", "staging setup", "ci fix", "config", "misc", "onboarding", "migration", "debug session", "infra",
          "scratch", "handover", "release checklist"]
TAGS = ["infra", "todo", "ops", "dev", "billing", "mobile", "backend", "data", "ci", "work", "snippet", "project-x"]
SOURCES = ["chat", "ide", "browser-extension", "cli", "email-import", "slack-import", "api"]
LANGS = ["bash", "yaml", "python", "json", "text", "ini", "go", "typescript", "sql", "markdown"]
APPS = ["notes", "assistant", "clipper", "vscode", "raycast", "obsidian"]


def finalize(text):
    if R.random() < 0.3:
        text = ch(PREFIXES) + ch([" ", "\n"]) + text
    if R.random() < 0.12:
        text = text + ch(["\n", " "]) + ch(SUFFIXES)
    r = R.random()
    if r < 0.70:
        return text
    if r < 0.90:
        s = R.randrange(6)
        if s == 0:
            return {"content": text, "source": ch(SOURCES), "created_at": ts()}
        if s == 1:
            return {"title": ch(TITLES), "body": text}
        if s == 2:
            return {"note": text, "tags": R.sample(TAGS, R.randint(1, 3))}
        if s == 3:
            return {"snippet": text, "lang": ch(LANGS), "pinned": R.random() < 0.5}
        if s == 4:
            return {"messages": [{"role": "user", "content": text}]}
        return {"text": text, "meta": {"app": ch(APPS), "v": R.randint(1, 9)}}
    s = R.randrange(4)
    lines = text.split("\n")
    if s == 0 and len(lines) > 1:
        return lines
    if s == 1:
        return [ch(TITLES), text]
    if s == 2:
        return [{"role": "user", "content": text}]
    return [text, ch(TAGS)]


# ----------------------------------------------------------------- secret generators (label: secret)
def needles_of(v):
    """Substrings that must survive rendering (containers only escape quotes/newlines)."""
    if "\n" not in v and '"' not in v:
        return [v]
    segs = [s.strip() for s in re.split(r'["\n]', v)]
    segs = [s for s in segs if len(s) >= 12]
    assert segs, v
    return segs


def expand_fmt(fmt):
    kind, name, fields = fmt
    return [(var, expand(t), p) for var, t, p in fields]


def s_catalogue(fmt):
    fields = expand_fmt(fmt)
    assigns = [(v, x) for v, x, p in fields]
    if R.random() < 0.12 and len(assigns) > 1:
        R.shuffle(assigns)
    needles = [n for v, x, p in fields if p for n in needles_of(x)]
    return render(assigns), needles


PW_NAMES = [("DB_USER", "DB_PASSWORD"), ("POSTGRES_USER", "POSTGRES_PASSWORD"), ("MYSQL_USER", "MYSQL_PASSWORD"),
            (None, "MYSQL_ROOT_PASSWORD"), (None, "REDIS_PASSWORD"), ("ADMIN_USER", "ADMIN_PASSWORD"), ("SMTP_USER", "SMTP_PASS"),
            ("LDAP_BIND_USER", "LDAP_PASSWORD"), (None, "KEYSTORE_PASSWORD"), ("RABBITMQ_DEFAULT_USER", "RABBITMQ_DEFAULT_PASS"),
            ("GF_SECURITY_ADMIN_USER", "GF_SECURITY_ADMIN_PASSWORD"), (None, "ELASTIC_PASSWORD"),
            ("MONGO_INITDB_ROOT_USERNAME", "MONGO_INITDB_ROOT_PASSWORD"), (None, "MSSQL_SA_PASSWORD"), (None, "PGPASSWORD"),
            ("FTP_USER", "FTP_PASSWORD"), ("VPN_USER", "VPN_PASSWORD"), (None, "BACKUP_PASSPHRASE"),
            ("SERVICE_ACCOUNT", "SERVICE_ACCOUNT_PASSWORD"), ("KEYCLOAK_ADMIN", "KEYCLOAK_ADMIN_PASSWORD"),
            ("JENKINS_USER", "JENKINS_PASSWORD"), ("ARTIFACTORY_USER", "ARTIFACTORY_PASSWORD"), ("SONAR_DB_USER", "SONAR_DB_PASSWORD"),
            ("WIFI_SSID", "WIFI_PSK"), ("REGISTRY_USER", "REGISTRY_PASSWORD"), (None, "ANSIBLE_BECOME_PASS"), (None, "KEY_PASSWORD"),
            (None, "TRUSTSTORE_PASSWORD"), ("AIRFLOW_ADMIN_USER", "AIRFLOW_ADMIN_PASSWORD"), ("SMB_USER", "SMB_PASSWORD"),
            ("db.username", "db.password"), ("spring.datasource.username", "spring.datasource.password"), ("user", "password"),
            ("ADMIN_EMAIL", "ADMIN_INITIAL_PASSWORD"), ("NEXUS_USER", "NEXUS_PASSWORD"), ("PROXY_USER", "PROXY_PASS")]

PW_CMDS = [
    "mysql -u {u} -p'{p}' -h {h} {db}", "mysql --user={u} --password={p} --host={h}", "PGPASSWORD='{p}' psql -h {h} -U {u} -d {db}",
    "sshpass -p '{p}' ssh {u}@{h}", "docker login -u {u} -p '{p}' registry.{d}", "echo '{p}' | docker login registry.{d} -u {u} --password-stdin",
    "redis-cli -h {h} -a '{p}' ping", "rabbitmqctl add_user {u} '{p}'", "htpasswd -b -c /etc/nginx/.htpasswd {u} '{p}'",
    "smbclient //{h}/share -U {u}%'{p}'", "ldapsearch -x -H ldap://{h} -D 'cn={u},dc={w},dc=com' -w '{p}' -b 'dc={w},dc=com'",
    "net user {u} {p} /add", "keytool -importkeystore -srckeystore app.p12 -srcstoretype PKCS12 -srcstorepass '{p}' -destkeystore app.jks -deststorepass '{p}'",
    "openssl pkcs12 -export -in cert.pem -inkey key.pem -out bundle.p12 -passout pass:{p}", "wget --user={u} --password='{p}' https://{h}/exports/latest.csv",
    "az login -u {u}@{d} -p '{p}'", "sqlcmd -S {h} -U {u} -P '{p}' -Q 'SELECT 1'", "lftp -u {u},'{p}' sftp://{h}",
    "echo '{p}' | sudo -S systemctl restart {w}", "ansible-playbook site.yml -e 'ansible_become_pass={p}'",
    "helm repo add {w} https://charts.{d} --username {u} --password '{p}'", "mc alias set {w} https://s3.{d} {u} '{p}'",
    "influx setup --username {u} --password '{p}' --org {w} --bucket metrics --force",
    "kubectl create secret docker-registry regcred --docker-server=registry.{d} --docker-username={u} --docker-password='{p}'",
    "mysqldump -u{u} -p'{p}' {db} > dump.sql", "pg_dump 'host={h} user={u} password={p} dbname={db}' > {db}.sql",
    "mongosh --host {h} -u {u} -p '{p}' --authenticationDatabase admin", "xfreerdp /v:{h} /u:{u} /p:'{p}'",
    "zip -P '{p}' backup.zip dump.sql", "7z a -p'{p}' -mhe=on archive.7z ./exports", "openssl enc -aes-256-cbc -salt -in db.sql -out db.sql.enc -pass pass:{p}",
    "rclone config create {w} webdav url https://dav.{d} user {u} pass '{p}'", "nmcli dev wifi connect {W} password '{p}'",
    "vncpasswd -f <<< '{p}' > ~/.vnc/passwd", "ipmitool -I lanplus -H {h} -U {u} -P '{p}' chassis status",
]

PW_FILES = [
    ("~/.pgpass", "{h}:5432:{db}:{u}:{p}"), ("~/.netrc", "machine {h}\n  login {u}\n  password {p}"),
    ("~/.my.cnf", "[client]\nuser={u}\npassword={p}\nhost={h}"),
    ("/etc/wpa_supplicant/wpa_supplicant.conf", 'network={{\n    ssid="{W}"\n    psk="{p}"\n}}'),
    ("/etc/samba/creds", "username={u}\npassword={p}\ndomain=CORP"),
    ("~/.m2/settings.xml", "<servers>\n  <server>\n    <id>{w}-releases</id>\n    <username>{u}</username>\n    <password>{p}</password>\n  </server>\n</servers>"),
    ("router-config.txt", "username {u} privilege 15 password 0 {p}"),
    ("~/.fetchmailrc", 'poll imap.{d} protocol IMAP user "{u}" password "{p}"'),
    ("/etc/openvpn/auth.txt", "{u}\n{p}"), ("notes.txt", "{W} admin console: {u} / {p}"),
    ("~/.git-credentials", "https://{u}:{p}@git.{d}"), ("pgbouncer/userlist.txt", '"{u}" "{p}"'),
    ("/etc/ppp/chap-secrets", "{u} * {p} *"), ("config/database.yml", "production:\n  adapter: postgresql\n  host: {h}\n  username: {u}\n  password: {p}"),
    ("wp-config.php", "define( 'DB_USER', '{u}' );\ndefine( 'DB_PASSWORD', '{p}' );\ndefine( 'DB_HOST', '{h}' );"),
    ("php.ini", "mysqli.default_user = {u}\nmysqli.default_pw = {p}"), ("grafana.ini", "[security]\nadmin_user = {u}\nadmin_password = {p}"),
    ("redis.conf", "requirepass {p}\nmasterauth {p}"), ("pgadmin servers.json", '{{"Servers": {{"1": {{"Host": "{h}", "Username": "{u}", "Password": "{p}"}}}}}}'),
]


def s_password():
    un, pn = ch(PW_NAMES)
    p = gen_pw()
    u, h, d, w = user(), host(), dom(), word()
    r = R.random()
    if r < 0.40:
        a = ([(un, u)] if un else []) + [(pn, p)]
        if R.random() < 0.3:
            a.insert(0, (ch(["DB_HOST", "HOST", "SERVER"]), h))
        return render(a), [p]
    if r < 0.72:
        tpl = ch(PW_CMDS)
        cmd = tpl.format(u=u, p=p, h=h, d=d, w=w, W=w.title() + "-" + rs(DIG, 2), db=ch(WORDS))
        cmds = [cmd]
        if R.random() < 0.4:
            cmds.insert(0, ch([f"ssh bastion.{d}", f"cd /srv/{w}", "sudo -i", f"kubectl -n {w} exec -it deploy/{w} -- sh"]))
        return wrap_cmd(cmds), [p]
    path, tpl = ch(PW_FILES)
    text = tpl.format(u=u, p=p, h=h, d=d, w=w, W=w.title() + "-" + rs(DIG, 2), db=ch(WORDS))
    return wrap_file(text, path), [p]


def priv_key_material():
    st = R.random()
    if st < 0.62:
        k = pem_private()
        return ch(["SSH_PRIVATE_KEY", "DEPLOY_KEY", "TLS_KEY", "JWT_PRIVATE_KEY", "SIGNING_KEY", "PRIVATE_KEY", "GPG_PRIVATE_KEY"]), k, ch(
            ["~/.ssh/id_ed25519", "~/.ssh/id_rsa", "/etc/ssl/private/" + word() + ".key", "deploy_key", "certs/tls.key", "keys/jwt-signing.pem", "server.key"])
    if st < 0.70:
        d = b64u(rb(32))
        jwk = {"kty": "EC", "crv": "P-256", "d": d, "x": b64u(rb(32)), "y": b64u(rb(32)), "kid": rs(ALPH["b"], 12), "use": "sig"}
        if R.random() < 0.5:
            jwk = {"kty": "OKP", "crv": "Ed25519", "d": d, "x": b64u(rb(32)), "kid": rs(ALPH["b"], 12)}
        return "JWK_PRIVATE", json.dumps(jwk, indent=ch([None, 2])), "keys/signing.jwk.json"
    if st < 0.77:
        priv = b64(rb(80))
        txt = (f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: {user()}@{word()}\nPublic-Lines: 2\n"
               f"{b64(rb(36))}\n{b64(rb(15))}\nPrivate-Lines: 1\n{priv}\nPrivate-MAC: {rs(ALPH['h'], 64)}")
        return "PPK", txt, f"{user()}.ppk"
    if st < 0.83:
        body = NL.join(rs(ALPH["h"], 32) for _ in range(16))
        return "TLS_AUTH_KEY", f"-----BEGIN OpenVPN Static key V1-----\n{body}\n-----END OpenVPN Static key V1-----", "/etc/openvpn/ta.key"
    if st < 0.91:
        txt = (f"[Interface]\nAddress = 10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(1, 254)}/32\nPrivateKey = {b64(rb(32))}\n"
               f"DNS = 1.1.1.1\n\n[Peer]\nPublicKey = {b64(rb(32))}\nEndpoint = {ip()}:51820\nAllowedIPs = 0.0.0.0/0")
        return "WG_CONF", txt, "/etc/wireguard/wg0.conf"
    k = "AGE-SECRET-KEY-1" + rs(ALPH["X"], 58)
    txt = f"# created: {ts()}\n# public key: age1{rs(ALPH['c'], 58)}\n{k}"
    return "SOPS_AGE_KEY_FILE_CONTENT", txt, "~/.config/sops/age/keys.txt"


def key_needles(name, txt):
    if name == "JWK_PRIVATE":
        return [json.loads(txt)["d"]]
    if name == "WG_CONF":
        return [re.search(r"PrivateKey = (\S+)", txt).group(1)]
    if name == "PPK":
        return [txt.split("Private-Lines: 1\n")[1].split("\n")[0]]
    if name == "SOPS_AGE_KEY_FILE_CONTENT":
        return [txt.split("\n")[-1]]
    return [ln for ln in needles_of(txt) if not ln.startswith("-----")]


def s_private_key():
    name, txt, path = priv_key_material()
    nd = key_needles(name, txt)
    if R.random() < 0.45:
        return wrap_file(txt, path), nd
    return render([(name, txt)]), nd


def s_jwt():
    tok = make_jwt()
    r = R.random()
    url = api_url()
    if r < 0.3:
        return render([(ch(["ACCESS_TOKEN", "API_TOKEN", "AUTH_TOKEN", "BEARER_TOKEN", "SERVICE_TOKEN"]), tok)]), [tok]
    if r < 0.5:
        return http_dump(ch(["GET", "POST"]), url, [("Authorization", f"Bearer {tok}"), ("Accept", "application/json")]), [tok]
    if r < 0.65:
        return curl_cmd(ch(["GET", "POST"]), url, [("Authorization", f"Bearer {tok}")]), [tok]
    if r < 0.8:
        body = json.dumps({"access_token": tok, "token_type": "Bearer", "expires_in": ch([3600, 86400]),
                           "refresh_token": rs(ALPH["A"], 48), "scope": "read write"}, indent=ch([None, 2]))
        return f"HTTP/1.1 200 OK\nContent-Type: application/json\n\n{body}", [tok]
    if r < 0.9:
        LAST_CONTAINER[0] = "js_localstorage"
        return f"localStorage.setItem('{ch(['auth_token', 'access_token', 'jwt', 'id'])}', '{tok}');", [tok]
    LAST_CONTAINER[0] = "postman_env"
    return json.dumps({"name": f"{word()} {ch(ENVS)}", "values": [{"key": "baseUrl", "value": url, "enabled": True},
                                                                   {"key": "token", "value": tok, "enabled": True}]}, indent=2), [tok]


COOKIES = [
    ("sessionid", lambda: rs(ALPH["a"], 32)), ("connect.sid", lambda: "s%3A" + rs(ALPH["b"], 32) + "." + urllib.parse.quote(b64np(rb(32)), safe="")),
    ("PHPSESSID", lambda: rs(ALPH["a"], 26)), ("JSESSIONID", lambda: rs(ALPH["H"], 32)), ("ASP.NET_SessionId", lambda: rs(ALPH["a"], 24)),
    (".AspNetCore.Cookies", lambda: "CfDJ8" + rs(ALPH["b"], 300)), ("laravel_session", lambda: "eyJpdiI6" + rs(ALPH["A"], 200) + "%3D"),
    ("_session_id", lambda: rs(ALPH["h"], 32)),
    ("__Secure-next-auth.session-token", lambda: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + rs(ALPH["b"], 22) + "." + rs(ALPH["b"], 200) + "." + rs(ALPH["b"], 22)),
    ("session", lambda: "eyJ" + rs(ALPH["b"], 40) + "." + rs(ALPH["b"], 6) + "." + rs(ALPH["b"], 27)),
    ("wordpress_logged_in_" + "{h32}", lambda: f"{user()}%7C{d1(10)}%7C{rs(ALPH['A'], 43)}%7C{rs(ALPH['h'], 64)}"),
    ("SSESS{h32}", lambda: rs(ALPH["b"], 43)), ("AUTH_SESSION_ID", lambda: uuid4() + "." + word() + "-" + rs(DIG, 4)),
    ("_gitlab_session", lambda: rs(ALPH["h"], 32)), ("user_session", lambda: rs(ALPH["b"], 48)),
    ("sid", lambda: "s:" + rs(ALPH["b"], 32)), ("remember_user_token", lambda: "eyJfcmFpbHMiOnsibWVzc2FnZSI6Ik" + rs(ALPH["A"], 120) + "--" + rs(ALPH["h"], 40)),
]


def s_cookie():
    nm, fn = ch(COOKIES)
    nm = nm.replace("{h32}", rs(ALPH["h"], 32))
    val = fn()
    site = f"{ch(['app', 'admin', 'portal', 'dashboard', 'console'])}.{dom()}"
    r = R.random()
    if r < 0.3:
        return http_dump("GET", f"https://{site}/{ch(['account', 'settings', 'admin/users', 'api/me'])}",
                         [("Cookie", f"{nm}={val}; {ch(['theme=dark', 'lang=en', '_ga=GA1.2.' + d1(9) + '.' + d1(10)])}"), ("Accept", "text/html")]), [val]
    if r < 0.45:
        LAST_CONTAINER[0] = "set_cookie_response"
        return f"HTTP/2 302\nlocation: /dashboard\nset-cookie: {nm}={val}; Path=/; HttpOnly; Secure; SameSite=Lax", [val]
    if r < 0.6:
        return curl_cmd("GET", f"https://{site}/api/{word()}", [], None).replace("curl ", f"curl -b '{nm}={val}' ", 1), [val]
    if r < 0.72:
        LAST_CONTAINER[0] = "netscape_cookiejar"
        return f"# Netscape HTTP Cookie File\n.{site}\tTRUE\t/\tTRUE\t{R.randint(1767225600, 1830000000)}\t{nm}\t{val}", [val]
    if r < 0.84:
        LAST_CONTAINER[0] = "devtools_cookie_json"
        return json.dumps([{"domain": site, "name": nm, "value": val, "path": "/", "httpOnly": True, "secure": True}], indent=ch([None, 2])), [val]
    if r < 0.92:
        LAST_CONTAINER[0] = "python_requests_cookie"
        return f"s = requests.Session()\ns.cookies.set('{nm}', '{val}', domain='{site}')\nr = s.get('https://{site}/api/me')", [val]
    return render([(ch(["SESSION_COOKIE", "COOKIE", "AUTH_COOKIE"]), f"{nm}={val}")]), [val]


def s_basic():
    u, p = user(), gen_pw()
    tok = b64(f"{u}:{p}".encode())
    url = api_url()
    r = R.random()
    if r < 0.25:
        return http_dump(ch(["GET", "POST"]), url, [("Authorization", f"Basic {tok}")]), [tok]
    if r < 0.4:
        return curl_cmd("GET", url, [("Authorization", f"Basic {tok}")]), [tok]
    if r < 0.55:
        LAST_CONTAINER[0] = "curl_u"
        return f"curl -u {u}:{sq(p)} {url}", [p]
    if r < 0.67:
        LAST_CONTAINER[0] = "nginx_upstream_auth"
        return f"location /upstream/ {{\n    proxy_pass https://{host()};\n    proxy_set_header Authorization \"Basic {tok}\";\n}}", [tok]
    if r < 0.78:
        LAST_CONTAINER[0] = "python_requests_auth"
        return f"resp = requests.get(\"{url}\", auth=(\"{u}\", \"{p}\"), timeout=10)", [p]
    if r < 0.88:
        LAST_CONTAINER[0] = "js_fetch"
        return f"fetch('{url}', {{ headers: {{ Authorization: 'Basic {tok}' }} }})", [tok]
    return render([(ch(["BASIC_AUTH", "AUTH_HEADER", "UPSTREAM_AUTHORIZATION"]), f"Basic {tok}")]), [tok]


def s_url_userinfo():
    r = R.random()
    u, p, d = user(), gen_pw_url(R.randint(14, 28)), dom()
    if r < 0.2:
        tok = expand(ch(["ghp_{A:36}", "ghs_{A:36}", "github_pat_11{U:20}_{A:59}"]))
        url = f"https://{ch(['x-access-token', u, 'oauth2'])}:{tok}@github.com/{word()}/{word()}.git"
        sec = tok
    elif r < 0.3:
        tok = expand("glpat-{b:20}")
        url = f"https://oauth2:{tok}@gitlab.com/{word()}/{word()}.git"
        sec = tok
    elif r < 0.4:
        url = f"https://{tok}@github.com/{word()}/{word()}.git" if (tok := expand("ghp_{A:36}")) else ""
        sec = tok
    else:
        scheme, port, path = ch([("ftp", 21, "/pub"), ("sftp", 22, "/upload"), ("smtp", 587, ""), ("http", 3128, ""),
                                 ("https", 443, "/simple/"), ("mqtt", 1883, ""), ("nats", 4222, ""), ("webdav", 443, "/remote.php/dav"),
                                 ("ldap", 389, ""), ("svn+ssh", 22, "/repos/" + word()), ("redis", 6379, "/1"), ("amqp", 5672, "/")])
        url = f"{scheme}://{u}:{p}@{ch([host(), 'proxy.' + d, 'files.' + d, 'pypi.' + d])}:{port}{path}"
        sec = p
    st = R.random()
    if st < 0.5:
        return render([(ch(["REPO_URL", "PROXY_URL", "HTTPS_PROXY", "SMTP_URL", "MQTT_URL", "INDEX_URL", "REMOTE_URL", "UPSTREAM_URL"]), url)]), [sec]
    cmd = ch([f"git clone {url}", f"git remote set-url origin {url}", f"pip install --index-url {url} {word()}",
              f"export HTTPS_PROXY={url}", f"curl -x {url} https://example.org", f"rclone copy ./out :webdav:{word()} --webdav-url {url}"])
    return wrap_cmd([cmd]), [sec]


def s_url_query():
    d = dom()
    r = R.random()
    if r < 0.25:
        sec = expand(ch(["{A:32}", "{h:40}", "{b:43}", "sk_live_{A:24}", "AIza{b:35}"]))
        url = f"https://api.{d}/v{R.randint(1, 3)}/{word()}?{ch(['api_key', 'apikey', 'key', 'access_token', 'token', 'auth'])}={sec}&{ch(['limit=50', 'format=json', 'page=2'])}"
    elif r < 0.4:
        sec = rs(ALPH["h"], 64)
        cred = f"AKIA{rs(ALPH['U'], 16)}%2F2025{R.randint(1, 12):02d}{R.randint(10, 28)}%2F{ch(REGIONS)}%2Fs3%2Faws4_request"
        url = (f"https://{word()}-{ch(['exports', 'backups', 'uploads'])}.s3.amazonaws.com/{word()}/{d1(6)}.{ch(['csv', 'zip', 'pdf'])}"
               f"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={cred}&X-Amz-Date=2025{R.randint(1, 12):02d}{R.randint(10, 28)}T{R.randint(10, 23)}0000Z"
               f"&X-Amz-Expires={ch([3600, 86400, 604800])}&X-Amz-SignedHeaders=host&X-Amz-Signature={sec}")
    elif r < 0.5:
        sec = urllib.parse.quote(b64(rb(32)), safe="")
        url = f"https://{rs(LOW, 12)}.blob.core.windows.net/{word()}/{word()}.json?sv=2022-11-02&ss=b&srt=o&sp=rl&se=2027-01-01T00:00:00Z&spr=https&sig={sec}"
    elif r < 0.6:
        sec = rs(ALPH["h"], 512)
        url = (f"https://storage.googleapis.com/{word()}-{word()}/{word()}.tar.gz?X-Goog-Algorithm=GOOG4-RSA-SHA256"
               f"&X-Goog-Credential={word()}%40{word()}-{d1(6)}.iam.gserviceaccount.com%2F20250301%2Fauto%2Fstorage%2Fgoog4_request"
               f"&X-Goog-Date=20250301T101500Z&X-Goog-Expires=604800&X-Goog-SignedHeaders=host&X-Goog-Signature={sec}")
    elif r < 0.7:
        sec = f"{d1(10)}:AA{rs(ALPH['b'], 33)}"
        url = f"https://api.telegram.org/bot{sec}/sendMessage?chat_id=-{d1(13)}&text=deploy+finished"
    elif r < 0.8:
        sec = rs(ALPH["A"], 32)
        url = f"https://{ch(['jenkins', 'ci'])}.{d}/job/{word()}/buildWithParameters?token={sec}&BRANCH=main"
    elif r < 0.9:
        sec = rs(ALPH["b"], 43)
        url = f"https://hooks.{d}/incoming/{word()}?secret={sec}"
    else:
        sec = rs(ALPH["b"], 86)
        url = f"https://{d}/reset-password?email={user()}%40{d}&token={sec}"
    st = R.random()
    if st < 0.35:
        return render([(ch(["WEBHOOK_URL", "CALLBACK_URL", "DOWNLOAD_URL", "SIGNED_URL", "NOTIFY_URL", "ENDPOINT"]), url)]), [sec]
    if st < 0.6:
        return curl_cmd("GET", url, []), [sec]
    if st < 0.8:
        LAST_CONTAINER[0] = "access_log"
        u = urllib.parse.urlsplit(url)
        return (f'{ip()} - - [{R.randint(1, 28):02d}/{ch(["Jan", "Mar", "Jun", "Sep", "Nov"])}/2025:{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:11 +0000] '
                f'"GET {u.path}?{u.query} HTTP/1.1" {ch([200, 200, 302, 403])} {R.randint(200, 90000)} "-" "{ch(["curl/8.5.0", "Mozilla/5.0", "python-requests/2.31.0"])}"'), [sec]
    LAST_CONTAINER[0] = "md_link"
    return f"{ch(['Download', 'Report', 'Export', 'Link'])}: [{word()}]({url})", [sec]


GENERIC_SECRET = [(K_PW, s_password, 90), (K_PRIV, s_private_key, 50), (K_JWT, s_jwt, 45), (K_COOKIE, s_cookie, 35),
                  (K_BASIC, s_basic, 30), (K_URLUI, s_url_userinfo, 25), (K_URLQ, s_url_query, 25)]


# ---- credential picker for hard (evasion) variants
def pick_cred():
    """Returns (kind, format, name, credential, extras)."""
    if R.random() < 0.68:
        fmt = ch(CAT)
        fields = expand_fmt(fmt)
        prim = next(f for f in fields if f[2])
        extras = [(v, x) for v, x, p in fields if not p]
        return fmt[0], fmt[1], prim[0], prim[1], extras
    g = ch(["pw", "pw", "pw", "key", "jwt", "cookie", "basic", "urlui", "urlq"])
    if g == "pw":
        un, pn = ch(PW_NAMES)
        return K_PW, "password", pn, gen_pw(), ([(un, user())] if un else [])
    if g == "key":
        k = pem_private(ch(["ed", "ec", "p8ec", "openssh", "rsa1k", "rsa1"]))
        return K_PRIV, "pem", ch(["SSH_PRIVATE_KEY", "TLS_KEY", "SIGNING_KEY", "DEPLOY_KEY"]), k, []
    if g == "jwt":
        return K_JWT, "jwt", ch(["ACCESS_TOKEN", "API_TOKEN", "BEARER_TOKEN"]), make_jwt(), []
    if g == "cookie":
        nm, fn = ch(COOKIES)
        return K_COOKIE, "cookie", nm.replace("{h32}", rs(ALPH["h"], 32)), fn(), []
    if g == "basic":
        return K_BASIC, "basic", "BASIC_AUTH_TOKEN", b64(f"{user()}:{gen_pw()}".encode()), []
    if g == "urlui":
        return K_URLUI, "url_userinfo", "DATABASE_URL", f"postgres://{user()}:{gen_pw_url(20)}@{host()}:5432/{word()}", []
    return K_URLQ, "url_query", "WEBHOOK_URL", f"https://api.{dom()}/v1/{word()}?api_key={rs(ALPH['A'], 32)}", []


def cclass(c):
    if "\n" in c or '"' in c or "'" in c or "\\" in c:
        return "M"
    return "S" if len(c) <= 100 else "L"


# ----------------------------------------------------------------- hard (evasion) techniques
# Each technique takes (name, credential, extras) and returns (text, needles); it asserts
# the credential is recoverable from what it writes.
TECHS = []


def tech(classes, cont=False):
    def deco(f):
        TECHS.append((f.__name__[2:], classes, cont, f))
        return f
    return deco


def split_parts(s, k=None):
    k = k or R.randint(2, 4)
    k = max(2, min(k, len(s) // 3))
    cuts = sorted(R.sample(range(1, len(s)), k - 1))
    parts = [s[i:j] for i, j in zip([0] + cuts, cuts + [len(s)])]
    assert "".join(parts) == s
    return parts


def ex_assigns(ex):
    return ex if R.random() < 0.6 else []


@tech("SLM", True)
def t_b64_label(n, c, ex):
    enc = b64(c.encode())
    assert base64.b64decode(enc).decode() == c
    return render(ex_assigns(ex) + [(n + ch(["_B64", "_BASE64", "_ENCODED"]), enc)]), [enc]


@tech("SLM", True)
def t_b64_silent(n, c, ex):
    enc = ch([b64, lambda b: base64.urlsafe_b64encode(b).decode()])(c.encode())
    assert base64.urlsafe_b64decode(enc).decode() == c or base64.b64decode(enc).decode() == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("SL", True)
def t_hex_label(n, c, ex):
    enc = c.encode().hex()
    assert bytes.fromhex(enc).decode() == c
    return render(ex_assigns(ex) + [(n + "_HEX", enc)]), [enc]


@tech("SL", True)
def t_hex_silent(n, c, ex):
    enc = ch([str.lower, str.upper])(c.encode().hex())
    assert bytes.fromhex(enc).decode() == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("SL", True)
def t_b32(n, c, ex):
    enc = base64.b32encode(c.encode()).decode()
    assert base64.b32decode(enc).decode() == c
    return render(ex_assigns(ex) + [(n + ch(["_B32", "", "_ENC"]), enc)]), [enc]


@tech("SL")
def t_urlenc(n, c, ex):
    enc = "".join("%%%02X" % b for b in c.encode())
    assert urllib.parse.unquote(enc) == c
    st = R.random()
    if st < 0.5:
        return f"https://{word()}.{dom()}/callback?{snake(n)}={enc}&state={rs(ALPH['a'], 8)}", [enc]
    return f"{snake(n)}={enc}", [enc]


@tech("S")
def t_html(n, c, ex):
    if R.random() < 0.5:
        enc = "".join(f"&#{ord(x)};" for x in c)
    else:
        enc = "".join(f"&#x{ord(x):x};" for x in c)
    assert html.unescape(enc) == c
    if R.random() < 0.5:
        return f'<input type="hidden" name="{snake(n)}" value="{enc}">', [enc]
    return f"<{camel(n)}>{enc}</{camel(n)}>", [enc]


@tech("SL")
def t_unicode(n, c, ex):
    enc = "".join(f"\\u{ord(x):04x}" for x in c)
    assert "".join(chr(int(h, 16)) for h in re.findall(r"\\u([0-9a-f]{4})", enc)) == c
    if R.random() < 0.5:
        return f'const {camel(n)} = "{enc}";', [enc]
    return '{"' + snake(n) + '": "' + enc + '"}', [enc]


@tech("SLM", True)
def t_gzip_b64(n, c, ex):
    enc = b64(gzip.compress(c.encode(), mtime=0))
    assert gzip.decompress(base64.b64decode(enc)).decode() == c
    if R.random() < 0.5:
        return render(ex_assigns(ex) + [(n + ch(["_GZ_B64", "_Z", ""]), enc)]), [enc]
    return f"import base64, gzip\n{snake(n)} = gzip.decompress(base64.b64decode(\"{enc}\")).decode()", [enc]


@tech("SLM", True)
def t_double_b64(n, c, ex):
    enc = b64(b64(c.encode()).encode())
    assert base64.b64decode(base64.b64decode(enc)).decode() == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("SLM", True)
def t_reverse_b64(n, c, ex):
    enc = b64(c[::-1].encode())
    assert base64.b64decode(enc).decode()[::-1] == c
    return render(ex_assigns(ex) + [(n + ch(["", "_R"]), enc)]), [enc]


@tech("SL", True)
def t_b85(n, c, ex):
    enc = base64.b85encode(c.encode()).decode()
    assert base64.b85decode(enc).decode() == c
    if R.random() < 0.5:
        return f"{snake(n)} = base64.b85decode({enc!r}).decode()", [enc]
    return render(ex_assigns(ex) + [(n + "_B85", enc)]), [enc]


@tech("SL", True)
def t_reversed(n, c, ex):
    enc = c[::-1]
    assert enc[::-1] == c
    st = R.random()
    if st < 0.4:
        return f"{snake(n)} = {enc!r}[::-1]", [enc]
    if st < 0.6:
        return f"const {camel(n)} = '{enc}'.split('').reverse().join('');", [enc]
    return render(ex_assigns(ex) + [(n + ch(["", "_REV", "_REVERSED"]), enc)]), [enc]


@tech("SL", True)
def t_rot13(n, c, ex):
    enc = codecs.encode(c, "rot13")
    assert codecs.decode(enc, "rot13") == c and enc != c
    if R.random() < 0.5:
        return f"{snake(n)} = codecs.decode({enc!r}, 'rot13')", [enc]
    return render(ex_assigns(ex) + [(n + ch(["_ROT13", ""]), enc)]), [enc]


@tech("S")
def t_shift(n, c, ex):
    enc = "".join(chr(ord(x) + 1) for x in c)
    if any(x in enc for x in "\"'\\\x7f"):
        raise LookupError
    assert "".join(chr(ord(x) - 1) for x in enc) == c
    return f"# each char shifted by +1\n{snake(n)} = ''.join(chr(ord(ch) - 1) for ch in '{enc}')", [enc]


@tech("S")
def t_xor(n, c, ex):
    k = R.randint(1, 255)
    enc = bytes(b ^ k for b in c.encode()).hex()
    assert bytes(b ^ k for b in bytes.fromhex(enc)).decode() == c
    return f"{snake(n)} = bytes(b ^ 0x{k:02x} for b in bytes.fromhex(\"{enc}\")).decode()", [enc]


@tech("S")
def t_charcodes(n, c, ex):
    codes = ", ".join(str(ord(x)) for x in c)
    assert "".join(chr(int(x)) for x in codes.split(", ")) == c
    if R.random() < 0.5:
        return f"const {camel(n)} = String.fromCharCode({codes});", [codes]
    return f"{snake(n)} = ''.join(map(chr, [{codes}]))", [codes]


@tech("S")
def t_bytes_list(n, c, ex):
    lst = ", ".join("0x%02x" % b for b in c.encode())
    assert bytes(int(x, 16) for x in lst.split(", ")).decode() == c
    if R.random() < 0.5:
        return f"{camel(n)} := string([]byte{{{lst}}})", [lst]
    return f"{snake(n)} = bytes([{lst}]).decode()", [lst]


@tech("SL")
def t_fromhex(n, c, ex):
    enc = c.encode().hex()
    return f"{snake(n).upper()} = bytes.fromhex(\"{enc}\").decode()", [enc]


@tech("S", True)
def t_spaced(n, c, ex):
    enc = " ".join(c)
    assert enc[::2] == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("S", True)
def t_dotted(n, c, ex):
    sep = ch([".", "-", "|", "_", "·"])
    enc = sep.join(c)
    assert enc[::2] == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("SL", True)
def t_grouped(n, c, ex):
    w = R.randint(4, 6)
    groups = [c[i:i + w] for i in range(0, len(c), w)]
    sep = ch([" ", "  ", " / "])
    enc = sep.join(groups)
    assert "".join(groups) == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("S")
def t_vertical(n, c, ex):
    enc = NL.join(c)
    assert enc.replace(NL, "") == c or enc[::2] == c
    return f"{n} (one char per line):\n{enc}", [enc]


HOMO = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "A": "А", "B": "В", "E": "Е", "K": "К",
        "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х", "i": "і", "s": "ѕ", "j": "ј", "0": "О"}
UNHOMO = {v: k for k, v in HOMO.items() if k != "0"}
UNHOMO["О"] = "O"


@tech("SL", True)
def t_homoglyph(n, c, ex):
    idx = [i for i, x in enumerate(c) if x in HOMO and x != "0"]
    if not idx:
        raise LookupError
    pick = set(R.sample(idx, max(1, len(idx) // R.randint(2, 4))))
    enc = "".join(HOMO[x] if i in pick else x for i, x in enumerate(c))
    assert enc != c and "".join(UNHOMO.get(x, x) for x in enc) == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]


@tech("SL", True)
def t_zero_width(n, c, ex):
    out = []
    for i, x in enumerate(c):
        out.append(x)
        if i < len(c) - 1 and R.random() < 0.3:
            out.append(ch(ZW))
    if len(out) == len(c):
        out.insert(1, ZW[0])
    enc = "".join(out)
    assert re.sub("[\u200b\u200c\u200d\u2060\ufeff]", "", enc) == c
    return render(ex_assigns(ex) + [(n, enc)]), [enc]


@tech("SL")
def t_concat_py(n, c, ex):
    ps = split_parts(c)
    return f"{snake(n).upper()} = " + " + ".join(dq(p) for p in ps), ps


@tech("SL")
def t_concat_implicit(n, c, ex):
    ps = split_parts(c)
    return f"{snake(n)} = (\n" + NL.join(f"    {dq(p)}" for p in ps) + "\n)", ps


@tech("SL")
def t_js_template(n, c, ex):
    ps = split_parts(c)
    decl = NL.join(f"const p{i} = '{p}';" for i, p in enumerate(ps))
    return decl + f"\nconst {camel(n)} = `" + "".join("${p%d}" % i for i in range(len(ps))) + "`;", ps


@tech("SL")
def t_format(n, c, ex):
    ps = split_parts(c)
    return f"{snake(n)} = \"{'{}' * len(ps)}\".format(" + ", ".join(dq(p) for p in ps) + ")", ps


@tech("SL")
def t_fstring(n, c, ex):
    ps = split_parts(c)
    names = [f"_{chr(97 + i)}" for i in range(len(ps))]
    decl = NL.join(f"{v} = {dq(p)}" for v, p in zip(names, ps))
    return decl + f"\n{snake(n)} = f\"" + "".join("{" + v + "}" for v in names) + '"', ps


@tech("SL")
def t_printf(n, c, ex):
    ps = split_parts(c)
    if R.random() < 0.5:
        return f"{snake(n)} = \"{'%s' * len(ps)}\" % (" + ", ".join(dq(p) for p in ps) + ")", ps
    return f"printf '{'%s' * len(ps)}' " + " ".join(sq(p) for p in ps) + f" > ~/.{word()}_token", ps


@tech("SL")
def t_js_join(n, c, ex):
    ps = split_parts(c)
    return f"const {camel(n)} = [" + ", ".join(sq(p) for p in ps) + "].join('');", ps


@tech("SL")
def t_py_join(n, c, ex):
    ps = split_parts(c)
    return f"{snake(n)} = ''.join([" + ", ".join(dq(p) for p in ps) + "])", ps


@tech("SL")
def t_yaml_list(n, c, ex):
    ps = split_parts(c)
    hdr = ch(["", "# concatenate in order\n", "# join without separator\n"])
    return hdr + f"{snake(n)}_parts:\n" + NL.join(f'  - "{p}"' for p in ps), ps


@tech("SL")
def t_multi_field(n, c, ex):
    ps = split_parts(c)
    if R.random() < 0.5:
        return "{" + ", ".join(f'"{snake(n)}_{i + 1}": "{p}"' for i, p in enumerate(ps)) + "}", ps
    return NL.join(f"{n}_PART{i + 1}={p}" for i, p in enumerate(ps)), ps


@tech("SL")
def t_indexed_parts(n, c, ex):
    ps = split_parts(c, R.randint(3, 4))
    order = list(range(len(ps)))
    R.shuffle(order)
    return f"{snake(n)} = [None] * {len(ps)}\n" + NL.join(f"{snake(n)}[{i}] = {dq(ps[i])}" for i in order) + f"\n{snake(n)} = ''.join({snake(n)})", ps


@tech("SL")
def t_md_table_split(n, c, ex):
    ps = split_parts(c)
    return f"{n} is split across rows, join them:\n\n| # | chunk |\n|---|---|\n" + NL.join(f"| {i + 1} | `{p}` |" for i, p in enumerate(ps)), ps


@tech("SL")
def t_sql_concat(n, c, ex):
    ps = split_parts(c)
    tbl = ch(["integration_credentials", "app_settings", "api_keys"])
    if R.random() < 0.5:
        return f"INSERT INTO {tbl} (name, value) VALUES ('{n}', CONCAT(" + ", ".join(sq(p) for p in ps) + "));", ps
    return f"UPDATE {tbl} SET value = " + " || ".join(sq(p) for p in ps) + f" WHERE name = '{n}';", ps


@tech("SL")
def t_shell_concat(n, c, ex):
    ps = split_parts(c)
    names = [f"P{i}" for i in range(len(ps))]
    return NL.join(f"{v}={sq(p)}" for v, p in zip(names, ps)) + f'\nexport {n}="' + "".join("${" + v + "}" for v in names) + '"', ps


@tech("SL")
def t_go_concat(n, c, ex):
    ps = split_parts(c)
    if R.random() < 0.5:
        return f"{camel(n)} := strings.Join([]string{{" + ", ".join(dq(p) for p in ps) + "}, \"\")", ps
    return f"{camel(n)} := fmt.Sprintf(\"{'%s' * len(ps)}\", " + ", ".join(dq(p) for p in ps) + ")", ps


@tech("SL")
def t_java_sb(n, c, ex):
    ps = split_parts(c)
    return f"String {camel(n)} = new StringBuilder()" + "".join(f".append({dq(p)})" for p in ps) + ".toString();", ps


@tech("SL")
def t_csharp_concat(n, c, ex):
    ps = split_parts(c)
    return f"var {camel(n)} = string.Concat(" + ", ".join(dq(p) for p in ps) + ");", ps


@tech("SL")
def t_ps_join(n, c, ex):
    ps = split_parts(c)
    return f"$env:{n} = -join @(" + ", ".join(sq(p) for p in ps) + ")", ps


@tech("SL")
def t_obf_array(n, c, ex):
    ps = split_parts(c, 3)
    perm = list(range(len(ps)))
    R.shuffle(perm)
    arr = [ps[i] for i in perm]
    expr = " + ".join(f"_0x{perm.index(i)}" for i in range(len(ps)))
    expr = " + ".join(f"_a[{perm.index(i)}]" for i in range(len(ps)))
    return f"var _a = [" + ", ".join(sq(p) for p in arr) + f"];\nvar {camel(n)} = {expr};", ps


@tech("SL")
def t_swapped_halves(n, c, ex):
    k = len(c) // 2
    a, b = c[:k], c[k:]
    return f"{n}: second half `{b}` - first half `{a}` (put the first half in front)", [a, b]


@tech("SL")
def t_chat_split(n, c, ex):
    k = R.randint(len(c) // 3, 2 * len(c) // 3)
    a, b = c[:k], c[k:]
    u = ch(FIRST)
    return f"[{R.randint(8, 18)}:{R.randint(10, 59)}] {u}: {n} starts with {a}\n[{R.randint(8, 18)}:{R.randint(10, 59)}] {u}: ...and ends with {b}", [a, b]


@tech("SL")
def t_backslash_cont(n, c, ex):
    ps = split_parts(c)
    enc = ("\\" + NL).join(ps)
    assert enc.replace("\\\n", "") == c
    return f'export {n}="{enc}"', [enc]


@tech("SL")
def t_wrapped(n, c, ex):
    w = R.randint(12, 20)
    lines = [c[i:i + w] for i in range(0, len(c), w)]
    pre = ch(["> ", "", "    "])
    enc = NL.join(pre + ln for ln in lines)
    assert "".join(ln[len(pre):] for ln in enc.split(NL)) == c
    return f"{ch(['On', 'Quoting'])} {ch(FIRST)}'s mail, {n}:\n{enc}", [enc]


@tech("SLM")
def t_diff_removed(n, c, ex):
    path = ch([".env", "config/prod.env", "settings/local.py", "deploy/secrets.yaml", "src/config.js"])
    minus = NL.join("-" + ln for ln in f"{n}={c}".split(NL))
    plus = ch([f"+{n}=${{{n}}}", f"+{n}=", f"+# {n} moved to the secret store", f'+{n}: {{{{ .Values.{camel(n)} }}}}'])
    return (f"diff --git a/{path} b/{path}\nindex {rs(ALPH['h'], 7)}..{rs(ALPH['h'], 7)} 100644\n--- a/{path}\n+++ b/{path}\n"
            f"@@ -{R.randint(1, 30)},{R.randint(3, 6)} +{R.randint(1, 30)},{R.randint(3, 6)} @@\n {ch(['LOG_LEVEL=info', 'DEBUG=false', '# api'])}\n{minus}\n{plus}"), needles_of(c)


@tech("SLM")
def t_comment_config(n, c, ex):
    cm = ch(["#", "//", ";", "--"])
    lines = f"{n}={c}".split(NL)
    head = ch([f"{cm} old value, keep until cut-over:", f"{cm} TODO remove before commit", f"{cm} previous:", f"{cm} fallback"])
    body = NL.join(f"{cm} {ln}" for ln in lines)
    active = ch([f"{n}=${{{n}}}", f"{snake(n)}: !env {n}", f'{n}="$({n}_CMD)"'])
    return f"{head}\n{body}\n{active}", needles_of(c)


@tech("SL")
def t_commented_code(n, c, ex):
    lang = ch(["py", "js", "go"])
    if lang == "py":
        return f"# {snake(n)} = \"{c}\"\n{snake(n)} = os.environ[\"{n}\"]", [c]
    if lang == "js":
        return f"// const {camel(n)} = '{c}';\nconst {camel(n)} = process.env.{n};", [c]
    return f"// {camel(n)} := \"{c}\"\n{camel(n)} := os.Getenv(\"{n}\")", [c]


@tech("SLM")
def t_heredoc(n, c, ex):
    st = R.random()
    if st < 0.4:
        body = NL.join(f"{a}={b}" for a, b in ex_assigns(ex)) + (NL if ex else "")
        return f"cat > .env <<'EOF'\n{body}{n}={c}\nEOF", needles_of(c)
    if st < 0.7:
        return (f"kubectl apply -f - <<EOF\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {word()}\nstringData:\n"
                + ykv(snake(n), c, 2) + "\nEOF"), needles_of(c)
    return f"{ch(['vault kv put secret/' + word() + ' value=-', 'gh secret set ' + n, 'pass insert -m ' + word() + '/' + snake(n)])} <<'END'\n{c}\nEND", needles_of(c)


@tech("SLM")
def t_neighbor_field(n, c, ex):
    st = R.random()
    if st < 0.35:
        return json.dumps([{"Key": a, "Value": b} for a, b in ex_assigns(ex)] + [{"Key": n, "Value": c}], indent=2, ensure_ascii=False), needles_of(c)
    if st < 0.65:
        return json.dumps([{"ParameterKey": pascal(n), "ParameterValue": c}], indent=2, ensure_ascii=False), needles_of(c)
    return f"- label: {n}\n" + ykv("  data", c, 0).replace("  data:", "  data:", 1), needles_of(c)


@tech("SLM", True)
def t_innocuous_name(n, c, ex):
    nm = ch(["BUILD_TAG", "CACHE_BUST", "REF", "X", "NOTE", "BLOB", "LEGACY_VALUE", "TMP", "VAL2", "FOO", "SEED_DATA", "CONFIG_HASH"])
    return render([(nm, c)]), needles_of(c)


@tech("SLM", True)
def t_k8s_data(n, c, ex):
    enc = b64(c.encode())
    assert base64.b64decode(enc).decode() == c
    extra = "".join(f"\n  {kebab(a)}: {b64(b.encode())}" for a, b in ex_assigns(ex))
    LAST_CONTAINER[0] = "k8s_secret_data"
    return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {word()}-{ch(['creds', 'secret', 'auth'])}\ntype: Opaque\ndata:{extra}\n"
            f"  {kebab(n)}: {enc}"), [enc]


@tech("SL")
def t_nested_json(n, c, ex):
    inner = json.dumps({n: c})
    outer = json.dumps({"config": inner, "version": R.randint(1, 9)})
    assert json.loads(json.loads(outer)["config"])[n] == c
    return outer, [c]


@tech("SL")
def t_error_message(n, c, ex):
    return ch([f"{ts()} ERROR auth failed: provider rejected credential '{c}' (status=401) for {n}",
               f"ValueError: invalid {n}: {c!r} does not match expected pattern",
               f"panic: could not parse {n} \"{c}\": unexpected character"]), [c]


@tech("SL")
def t_separate_items(n, c, ex):
    items = [b for a, b in ex] + [c]
    if len(items) == 1:
        items = [ch(["prod", "live", "main"]), c]
    st = R.random()
    if st < 0.5:
        return json.dumps(items), [c]
    return NL.join(f"- {x}" for x in items), [c]


@tech("S")
def t_docker_auth(n, c, ex):
    u = user()
    enc = b64(f"{u}:{c}".encode())
    assert base64.b64decode(enc).decode().split(":", 1)[1] == c
    reg = ch(["ghcr.io", f"registry.{dom()}", "https://index.docker.io/v1/"])
    LAST_CONTAINER[0] = "docker_config"
    return json.dumps({"auths": {reg: {"auth": enc}}}, indent=2), [enc]


# ----------------------------------------------------------------- benign generators (label: benign)
# None of these functions receives or produces a credential value: they build
# references, placeholders, masks, identifiers, public material, hashes,
# ciphertexts without keys, and prose.
B_ENV, B_REF, B_PH, B_TALK, B_ID = "env_reference", "secret_manager_ref", "placeholder_value", "credential_discussion", "opaque_identifier"
B_PUB, B_HASH, B_ENC, B_ENT, B_MASK = "public_key_material", "hashed_credential", "ciphertext_blob", "high_entropy_nonsecret", "masked_value"
B_KEYID, B_DOC, B_TEST, B_PUBLISH = "key_id_only", "documented_example", "test_mode_key", "public_by_design"

GENERIC_SECRET_VARS = [p for _, p in PW_NAMES] + ["ACCESS_TOKEN", "API_TOKEN", "API_KEY", "CLIENT_SECRET", "SSH_PRIVATE_KEY",
                                                   "TLS_KEY", "SIGNING_KEY", "WEBHOOK_SECRET", "SESSION_SECRET"]
ALL_SECRET_VARS = SECRET_VARS + GENERIC_SECRET_VARS
PROVIDERS = ["Stripe", "GitHub", "AWS", "Twilio", "SendGrid", "Slack", "Datadog", "OpenAI", "Anthropic", "Cloudflare", "GitLab",
             "npm", "PyPI", "Docker Hub", "Okta", "Auth0", "Sentry", "PagerDuty", "MongoDB Atlas", "Snowflake", "Azure", "GCP",
             "Vercel", "Heroku", "Shopify", "HubSpot", "Mailgun", "Algolia", "Mapbox", "LaunchDarkly", "Databricks", "Confluent"]


def secret_var():
    return ch(ALL_SECRET_VARS)


def store_desc():
    e, s = ch(ENVS), word()
    return ch([f"Vault (secret/data/{e}/{s})", f"AWS Secrets Manager ({e}/{s})", f"1Password vault '{ch(TEAMS).title()} {e.title()}'",
               "GCP Secret Manager", f"Azure Key Vault kv-{s}-{e[:4]}", f"Doppler project {s}", "the sealed-secrets repo",
               f"SSM Parameter Store under /{e}/{s}/", f"Bitwarden collection '{ch(TEAMS)}'"])


# --- env references --------------------------------------------------------
REF_STYLES = [lambda n: "${" + n + "}", lambda n: "$" + n, lambda n: "${" + n + ":-}", lambda n: "${" + n + ":?" + n + " is required}",
              lambda n: "%" + n + "%", lambda n: "$env:" + n, lambda n: '{{ env "' + n + '" }}', lambda n: "${env:" + n + "}",
              lambda n: "{{ .Env." + n + " }}", lambda n: "#{ENV['" + n + "']}", lambda n: "${{ secrets." + n + " }}",
              lambda n: "$(" + n + ")", lambda n: "{{ " + snake(n) + " }}", lambda n: "!ENV ${" + n + "}", lambda n: "${" + snake(n) + "}"]


def b_env_assign():
    names = R.sample(ALL_SECRET_VARS, R.randint(1, 3))
    return render([(n, ch(REF_STYLES)(n)) for n in names])


def env_read_line(n, lang):
    return {
        "python": ch([f'{snake(n)} = os.environ["{n}"]', f'{snake(n)} = os.getenv("{n}")', f'{snake(n)} = env.str("{n}")']),
        "js": f"const {camel(n)} = process.env.{n};", "ts": f"const {camel(n)}: string = process.env.{n} ?? '';",
        "go": f'{camel(n)} := os.Getenv("{n}")', "java": f'String {camel(n)} = System.getenv("{n}");',
        "csharp": f'var {camel(n)} = Environment.GetEnvironmentVariable("{n}");', "rust": f'let {snake(n)} = std::env::var("{n}")?;',
        "ruby": f'{snake(n)} = ENV.fetch("{n}")', "php": f"${camel(n)} = getenv('{n}');", "kotlin": f'val {camel(n)} = System.getenv("{n}")',
        "swift": f'let {camel(n)} = ProcessInfo.processInfo.environment["{n}"]', "bash": f': "${{{n}:?missing {n}}}"',
        "powershell": f"${camel(n)} = $env:{n}",
    }[lang]


def b_env_code():
    lang = ch(["python", "js", "ts", "go", "java", "csharp", "rust", "ruby", "php", "kotlin", "swift", "bash", "powershell"])
    names = R.sample(ALL_SECRET_VARS, R.randint(1, 3))
    lines = [env_read_line(n, lang) for n in names]
    tail = {"python": f"client = {pascal(word())}Client(api_key={snake(names[0])})", "js": f"const client = new {pascal(word())}({camel(names[0])});",
            "go": f"client := {word()}.New({camel(names[0])})", "bash": f"./bin/{word()} --config /etc/{word()}.yaml"}.get(lang)
    if tail and R.random() < 0.6:
        lines.append(tail)
    LAST_CONTAINER[0] = "code_" + lang
    return NL.join(lines)


def b_env_ref_hard():
    n = secret_var()
    st = R.randint(0, 11)
    u = user()
    if st == 0:
        return render([("DATABASE_URL", f"postgres://{u}:${{DB_PASSWORD}}@{host()}:5432/{word()}")])
    if st == 1:
        return curl_cmd("GET", api_url(), [("Authorization", ch(["Bearer $TOKEN", "Bearer ${API_TOKEN}", "Bearer $(cat /run/secrets/token)", "token $GITHUB_TOKEN"]))])
    if st == 2:
        return wrap_cmd([ch([f"git clone https://${{GH_TOKEN}}@github.com/{word()}/{word()}.git", f"git clone https://oauth2:${{CI_JOB_TOKEN}}@gitlab.com/{word()}/{word()}.git",
                             f'mysql -u {u} -p"$MYSQL_PWD" -h {host()}', f'curl -u "$API_USER:$API_PASS" {api_url()}', f'echo "$REGISTRY_PASSWORD" | docker login -u {u} --password-stdin ghcr.io',
                             f'sshpass -e ssh {u}@{host()}', f'PGPASSWORD="$(vault kv get -field=password secret/{word()})" psql -h {host()} -U {u}'])])
    if st == 3:
        return f"- name: Log in to registry\n  uses: docker/login-action@v3\n  with:\n    registry: ghcr.io\n    username: ${{{{ github.actor }}}}\n    password: ${{{{ secrets.GITHUB_TOKEN }}}}"
    if st == 4:
        return render([(n + "_FILE", f"/run/secrets/{snake(n)}")])
    if st == 5:
        return http_dump("POST", api_url(), [("Authorization", "Bearer {{access_token}}"), ("Content-Type", "application/json")], '{"dry_run": true}')
    if st == 6:
        return f'{{\n  "{camel(n)}": "${{{n}}}",\n  "timeoutMs": {ch([1000, 5000])}\n}}'
    if st == 7:
        return (f"diff --git a/.env.example b/.env.example\n--- a/.env.example\n+++ b/.env.example\n@@ -1,3 +1,3 @@\n"
                f"-{n}=<set me>\n+{n}=${{{n}}}\n LOG_LEVEL=info")
    if st == 8:
        return f"services:\n  {word()}:\n    environment:\n      {n}: ${{{n}:?set {n} in your shell}}\n      {ch(['POSTGRES_PASSWORD_FILE', 'MYSQL_PASSWORD_FILE'])}: /run/secrets/db_password\n    secrets:\n      - db_password"
    if st == 9:
        return f"[Service]\nEnvironmentFile=/etc/{word()}/secrets.env\nLoadCredential={snake(n)}:/etc/credstore/{snake(n)}\nExecStart=/usr/bin/{word()}"
    if st == 10:
        return f"location /api/ {{\n    proxy_pass http://{word()}:8080;\n    proxy_set_header Authorization \"Bearer $upstream_token\";\n}}"
    return f"spring:\n  datasource:\n    url: jdbc:postgresql://{host()}:5432/{word()}\n    username: {u}\n    password: ${{DB_PASSWORD}}"


# --- secret-manager references --------------------------------------------
def mgr_ref(n):
    e, s = ch(ENVS), word()
    return ch([
        f"vault:secret/data/{e}/{s}#{snake(n)}", f"arn:aws:secretsmanager:{ch(REGIONS)}:{d1(12)}:secret:{e}/{s}/{kebab(n)}-{rs(ALPH['A'], 6)}",
        f"projects/{s}-{d1(6)}/secrets/{kebab(n)}/versions/latest", f"https://kv-{s}.vault.azure.net/secrets/{kebab(n)}/{rs(ALPH['h'], 32)}",
        f"@Microsoft.KeyVault(SecretUri=https://kv-{s}.vault.azure.net/secrets/{kebab(n)}/)", f"op://{ch(TEAMS).title()}/{pascal(s)}/{snake(n)}",
        f"/run/secrets/{snake(n)}", f"ref+vault://secret/data/{s}#/{snake(n)}", "{{ vault_" + snake(n) + " }}", f"(({kebab(n)}))",
        f"ssm:/{e}/{s}/{n}", "${ssm:/" + e + "/" + s + "/" + snake(n) + "}", "{{resolve:secretsmanager:" + f"{e}/{s}:SecretString:{snake(n)}" + "}}",
        f"sm://{s}-{d1(6)}/{kebab(n)}", f"berglas://{s}-secrets/{kebab(n)}", f"doppler://{s}/{e}/{n}", f"awssm:{e}/{s}?key={snake(n)}",
        f"gcp:secretmanager:projects/{s}/secrets/{kebab(n)}", f"azurekeyvault://kv-{s}/{kebab(n)}", f"k8s://secret/{s}/{kebab(n)}",
    ])


def b_secret_ref():
    n = secret_var()
    st = R.randint(0, 13)
    s = word()
    if st <= 4:
        names = [n] + R.sample(ALL_SECRET_VARS, R.randint(0, 2))
        return render([(x, mgr_ref(x)) for x in names])
    if st == 5:
        return (f"env:\n  - name: {n}\n    valueFrom:\n      secretKeyRef:\n        name: {s}-{ch(['credentials', 'secrets', 'env'])}\n        key: {kebab(n)}")
    if st == 6:
        return f"      - run: ./deploy.sh\n        env:\n          {n}: ${{{{ secrets.{n} }}}}\n          {ch(ALL_SECRET_VARS)}: ${{{{ secrets.{ch(ALL_SECRET_VARS)} }}}}"
    if st == 7:
        return (f'data "aws_secretsmanager_secret_version" "{snake(n)}" {{\n  secret_id = "{ch(ENVS)}/{s}/{kebab(n)}"\n}}\n\n'
                f'locals {{\n  {snake(n)} = jsondecode(data.aws_secretsmanager_secret_version.{snake(n)}.secret_string)["{snake(n)}"]\n}}')
    if st == 8:
        return f"{snake(n)}: \"{{{{ lookup('community.hashi_vault.hashi_vault', 'secret=secret/data/{s}:{snake(n)}') }}}}\""
    if st == 9:
        return (f"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: {s}\nspec:\n  refreshInterval: 1h\n"
                f"  secretStoreRef:\n    name: {ch(['vault-backend', 'aws-sm', 'gcp-sm'])}\n    kind: ClusterSecretStore\n  target:\n    name: {s}-env\n"
                f"  data:\n    - secretKey: {snake(n)}\n      remoteRef:\n        key: {ch(ENVS)}/{s}\n        property: {snake(n)}")
    if st == 10:
        return f"{{{{ with secret \"secret/data/{ch(ENVS)}/{s}\" }}}}\nexport {n}=\"{{{{ .Data.data.{snake(n)} }}}}\"\n{{{{ end }}}}"
    if st == 11:
        return wrap_cmd([ch([f"aws secretsmanager get-secret-value --secret-id {ch(ENVS)}/{s} --query SecretString --output text",
                             f"gcloud secrets versions access latest --secret={kebab(n)}", f"az keyvault secret show --vault-name kv-{s} --name {kebab(n)} --query value -o tsv",
                             f"op read op://{ch(TEAMS).title()}/{pascal(s)}/{snake(n)}", f"vault kv get -field={snake(n)} secret/{ch(ENVS)}/{s}",
                             f"kubectl get secret {s}-env -o jsonpath='{{.data.{snake(n)}}}' | base64 -d", f"chamber exec {s} -- ./run.sh",
                             f"sops exec-env secrets.enc.yaml './bin/{s}'", f"doppler run --project {s} --config prd -- ./start.sh",
                             f"aws ssm get-parameter --name /{ch(ENVS)}/{s}/{n} --with-decryption --query Parameter.Value --output text"])])
    if st == 12:
        return f"secrets:\n  {snake(n)}:\n    file: ./secrets/{snake(n)}.txt\nservices:\n  {s}:\n    secrets:\n      - {snake(n)}"
    return (f"apiVersion: secrets-store.csi.x-k8s.io/v1\nkind: SecretProviderClass\nmetadata:\n  name: {s}\nspec:\n  provider: {ch(['aws', 'azure', 'gcp', 'vault'])}\n"
            f"  parameters:\n    objects: |\n      - objectName: \"{ch(ENVS)}/{s}/{kebab(n)}\"\n        objectType: \"secretsmanager\"")


def b_secret_ref_hard():
    n = secret_var()
    s = word()
    st = R.randint(0, 5)
    if st == 0:
        return render([(ch(["CLIENT_ID", "ACCOUNT_ID", "APP_ID", "TENANT_ID"]), uuid4()), (n, mgr_ref(n))])
    if st == 1:
        return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {s}\n  annotations:\n    avp.kubernetes.io/path: \"secret/data/{s}\"\ntype: Opaque\n"
                f"stringData:\n  {snake(n)}: <{snake(n)}>")
    if st == 2:
        return f"[{ch(['default', 'prod'])}]\ncredential_process = /usr/local/bin/aws-vault export --format=json {s}\nregion = {ch(REGIONS)}"
    if st == 3:
        return f'{{\n  "credHelpers": {{\n    "{d1(12)}.dkr.ecr.{ch(REGIONS)}.amazonaws.com": "ecr-login",\n    "gcr.io": "gcloud"\n  }},\n  "credsStore": "{ch(["desktop", "osxkeychain", "pass"])}"\n}}'
    if st == 4:
        return f"//registry.npmjs.org/:_authToken=${{NPM_TOKEN}}\n@{s}:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${{GITHUB_PACKAGES_TOKEN}}"
    return f"[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\n# password comes from keyring: keyring set https://upload.pypi.org/legacy/ __token__"


# --- placeholders ------------------------------------------------------------
PLACEHOLDERS = ["<your-api-key>", "YOUR_API_KEY", "your_token_here", "<REPLACE_ME>", "", "TODO", "xxx", "<secret>", "__REPLACE__",
                "<insert token>", "{{API_TOKEN}}", "[your password]", "PLACEHOLDER", "<password>", "your-password-here",
                "REPLACE_WITH_REAL_TOKEN", "<token>", "%%PASSWORD%%", "__SECRET__", "xxxxxxxx", "<set-in-ci>", "null", "None",
                "<fill me in>", "ENTER_KEY_HERE", "<client-secret>", "...", "TBD", "<ask ops>", "REDACTED_BY_AUTHOR", "<paste here>",
                "YOUR-CLIENT-SECRET", "sk-...", "<generate with openssl rand -hex 32>", "<from 1password>", "${PLACEHOLDER}"]


def b_placeholder():
    names = R.sample(ALL_SECRET_VARS, R.randint(1, 3))
    a = [(n, ch(PLACEHOLDERS)) for n in names]
    if R.random() < 0.3:
        return f"{ch(['Copy .env.example to .env and fill in:', 'Template:', 'Example config (fill in before running):'])}\n" + render(a, noise=False)
    return render(a)


def shaped_placeholder(t):
    mode = ch(["x", "X", "0", "angle", "your", "dots"])

    def sub(m):
        k, n = m.group(1), _tok_len(m)
        if k in ("uuid", "UUID"):
            return ch(["00000000-0000-0000-0000-000000000000", "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", "<uuid>"])
        if k == "pw":
            return ch(["PASSWORD", "<password>", "****", "<set-in-vault>"]) if mode != "x" else "xxxxxxxx"
        if k == "user":
            return ch(["USER", "<user>", "username"])
        if k == "host":
            return ch(["HOST", "<host>", "db.example.com"])
        if k in ("word", "dom"):
            return ch(["example", "<name>", "example.com"])
        if k in ALPH or k in ("d1", "b64", "b64q"):
            n = n or 16
            if k in ("b64", "b64q"):
                n = (n * 4 + 2) // 3
            if mode in ("x", "X", "0"):
                return mode * n
            if mode == "angle":
                return ch(["<key>", "<secret>", "<token>", "<value>"])
            if mode == "your":
                return ch(["YOUR_KEY", "your-key-here", "YOUR_TOKEN_HERE"])
            return "." * 3
        return ch(["<redacted>", "<paste-here>", "..."])
    return TOK.sub(sub, t)


def pick_prefixed_fmt():
    while True:
        k, nm, fl = ch(CAT)
        var, t, p = next(f for f in fl if f[2])
        if len(literal_prefix(t)) >= 3 and not t.startswith("{"):
            return k, nm, var, t


def b_placeholder_hard():
    st = R.random()
    if st < 0.6:
        k, nm, var, t = pick_prefixed_fmt()
        return render([(var, shaped_placeholder(t))])
    if st < 0.75:
        lab = ch(["RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY"])
        body = ch(["...", "<paste your key here>", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC...(truncated)", "<contents of ~/.ssh/id_ed25519>", "xxxxxxxxxxxxxxxx"])
        return render([(ch(["SSH_PRIVATE_KEY", "TLS_KEY", "PRIVATE_KEY"]), f"-----BEGIN {lab}-----\n{body}\n-----END {lab}-----")])
    if st < 0.87:
        return render([ch([("DATABASE_URL", "postgres://USER:PASSWORD@HOST:5432/DB"), ("DATABASE_URL", "postgresql://<user>:<password>@<host>:5432/<db>"),
                           ("MONGO_URL", "mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/"), ("REDIS_URL", "redis://:<password>@localhost:6379/0"),
                           ("MYSQL_URL", "mysql://user:${DB_PASSWORD}@db:3306/app"), ("AMQP_URL", "amqp://guest:<password>@rabbitmq:5672/"),
                           ("SMTP_URL", "smtp://<user>:<app-password>@smtp.example.com:587")])])
    return render([(ch(["ACCESS_TOKEN", "AUTH_TOKEN", "ID_TOKEN"]), ch(["eyJhbGciOiJSUzI1NiJ9.<payload>.<signature>", "eyJ...", "<jwt>",
                                                                    "Bearer <token>", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.xxxxx.yyyyy"]))])


# --- masked ------------------------------------------------------------------
MASKS = ["********", "[REDACTED]", "<hidden>", "****", "•••••••••••", "REDACTED", "[FILTERED]", "[MASKED]", "***", "<redacted>", "xxxxx (masked)"]


def b_masked():
    st = R.random()
    if st < 0.45:
        names = R.sample(ALL_SECRET_VARS, R.randint(1, 3))
        return render([(n, ch(MASKS)) for n in names])
    if st < 0.65:
        LAST_CONTAINER[0] = "ci_log"
        n = secret_var()
        return (f"Run ./deploy.sh\n  env:\n    {n}: ***\n    {ch(['APP_ENV', 'REGION'])}: {ch(ENVS + REGIONS)}\n"
                f"{ts()} deploying {svc()} with token ***\n{ts()} done in {R.randint(3, 300)}s")
    if st < 0.8:
        return http_dump("GET", api_url(), [("Authorization", ch(["Bearer ***", "Bearer [REDACTED]", "Basic ********", "Bearer <redacted>"])), ("Cookie", f"sessionid={ch(MASKS)}")])
    if st < 0.9:
        LAST_CONTAINER[0] = "app_log"
        return f"{ts()} INFO connecting to postgres://{user()}:****@{host()}:5432/{word()} (pool={R.randint(2, 20)})"
    LAST_CONTAINER[0] = "cli_output"
    return f"$ {ch(['heroku config', 'fly secrets list', 'gh secret list'])}\nNAME{' ' * 20}DIGEST / VALUE\n" + NL.join(
        f"{n:<24}{ch(['<hidden>', '****', rs(ALPH['h'], 16) + '  (digest)'])}" for n in R.sample(ALL_SECRET_VARS, 3))


def masked_from_template(t):
    style = ch(["stars", "dots", "ellipsis", "redact", "first_last"])
    m = TOK.search(t)
    pre = literal_prefix(t)
    last4 = rs(ALPH["A"], 4)
    if style == "stars":
        return pre + "*" * R.randint(8, 30) + last4
    if style == "dots":
        return pre + "•" * R.randint(8, 24) + last4
    if style == "ellipsis":
        return pre + "…" + last4
    if style == "redact":
        return pre + ch(["[REDACTED]", "<redacted>", "****"])
    return pre + rs(ALPH["A"], 4) + "..." + last4


def b_masked_hard():
    k, nm, var, t = pick_prefixed_fmt()
    st = R.random()
    mv = masked_from_template(t)
    if st < 0.55:
        return render([(var, mv)])
    if st < 0.75:
        LAST_CONTAINER[0] = "dashboard_table"
        return (f"| Name | Key | Created | Last used |\n|---|---|---|---|\n| {word()}-{ch(ENVS)} | `{mv}` | {date()} | {date()} |\n"
                f"| {word()}-ci | `{masked_from_template(t)}` | {date()} | never |")
    if st < 0.9:
        LAST_CONTAINER[0] = "app_log"
        return f"{ts()} WARN {svc()} auth rejected for key {mv} (status=401, request_id={uuid4()})"
    return f"{ch(FIRST)}: is `{mv}` the one we rotated? {ch(FIRST)}: yes, that's the old one, already revoked"


# --- prose about credentials -------------------------------------------------
TALK = [
    "Rotated the {P} API key for {E} on {D}. New value lives in {S}; the old one was revoked at {H}:{M} UTC. Ticket {T}.",
    "Post-mortem {T}: a {P} token was pushed to a public fork in commit {C}. Secret scanning alerted within {N} minutes, the token was revoked and {N2} API calls from unknown IPs were reviewed. Action items: pre-commit hook, shorter token TTL.",
    "Runbook - rotating the {DB} password: 1) generate a new one in {S}; 2) run the rotation lambda; 3) restart the {V} deployment; 4) confirm connections on the dashboard. Never paste the value in Slack.",
    "Reminder: {P} keys expire every {N} days. Next rotation is due {D}. Owner: @{U}.",
    "Can someone with admin on {P} regenerate the webhook signing secret? The old one ended up in the {V} repo history. ({T})",
    "We moved all CI credentials from repo variables to OIDC federation, so there are no long-lived {P} keys left in {V}.",
    "Access review Q{Q}: {N} service accounts checked, {N3} stale keys deleted, {N2} keys older than 90 days flagged for {U}.",
    "How do I get the {E} DB password? -> ask in {CH}, it's in {S}. Don't DM it.",
    "{T}: replace hard-coded credentials in {V} with secretKeyRef. AC: no plaintext values in manifests, CI check added.",
    "Hi all, as part of SOC 2 we're enforcing MFA and revoking every personal access token older than {N} days on {D}. Re-create yours with the minimum scopes.",
    "chore: remove committed .env and move values to {S} (all keys rotated, see {T})",
    "heads up: I revoked the old {P} token, please re-auth with `{CLI} login` before your next deploy",
    "Incident {T} timeline: {H}:{M} key leaked in a CI log, {H}:{M2} log deleted, {H2}:{M} key rotated, {H2}:{M2} confirmed no misuse in {P} audit log.",
    "Decision record: service-to-service auth uses short-lived tokens minted by {S}; static {P} keys are only allowed for the break-glass account.",
    "The {P} integration stopped working because the client secret expired on {D}. {U} generated a new one and updated {S}; nothing else changed.",
    "TIL `git log -p | grep -i password` finds nothing in {V} anymore since the history rewrite in {T}.",
    "For local dev use `make creds` - it pulls short-lived {P} credentials via SSO into ~/.aws/credentials and they expire after {N} hours.",
    "Pen-test finding {T} (medium): {V} logs the Authorization header at DEBUG level. Fix: redact headers in the logging middleware.",
    "Please don't share the {P} admin login over chat. Request access through the IAM portal, approval by {U}.",
    "Quarterly key rotation checklist for {P}: create new key, deploy to {E}, watch error rates {N} min, revoke old key, update {S}.",
    "{U} asked whether the {P} sandbox keys can be committed. Answer: no, even test keys go in {S} so scanners stay quiet.",
    "Break-glass procedure: the root credentials for {P} are sealed in {S}, two approvals needed, every use pages {CH}.",
    "Note: after the {D} outage we set the {P} token TTL to {N} hours and added an alert when usage comes from a new ASN.",
    "Jira {T} - 'rotate {DB} creds for {V}' - status: Done. Verified the old user can no longer log in.",
    "Password policy update: minimum length {N4}, no rotation requirement, breached-password check against the HIBP range API.",
]


def talk_fill(t):
    return t.format(P=ch(PROVIDERS), E=ch(ENVS), D=date(), S=store_desc(), H=R.randint(0, 23), M=f"{R.randint(0, 59):02d}",
                    M2=f"{R.randint(0, 59):02d}", H2=R.randint(0, 23), T=ticket(), C=rs(ALPH["h"], 7), N=R.randint(2, 90),
                    N2=R.randint(0, 400), N3=R.randint(1, 30), N4=ch([12, 14, 16]), DB=ch(["Postgres", "MySQL", "Redis", "Mongo", "MSSQL"]),
                    V=svc(), U=ch(FIRST), Q=R.randint(1, 4), CH=ch(CHANNELS), CLI=ch(["gh auth", "npm", "docker", "vercel", "fly auth", "az"]))


def b_talk():
    t = talk_fill(ch(TALK))
    st = R.random()
    if st < 0.5:
        LAST_CONTAINER[0] = "prose"
        return t
    if st < 0.65:
        LAST_CONTAINER[0] = "slack_msg"
        return f"[{R.randint(8, 19)}:{R.randint(10, 59)}] {ch(FIRST)}: {t}"
    if st < 0.8:
        LAST_CONTAINER[0] = "email_msg"
        return f"Subject: {ch(['Credential rotation', 'Action needed', 'Security notice', 'Re: keys'])}\n\nHi team,\n\n{t}\n\nThanks,\n{ch(FIRST).title()}"
    if st < 0.9:
        LAST_CONTAINER[0] = "md_doc"
        return f"## {ch(['Secrets', 'Credential handling', 'Rotation', 'Security notes'])}\n\n- {t}\n- {talk_fill(ch(TALK))}"
    LAST_CONTAINER[0] = "git_log"
    return f"commit {rs(ALPH['h'], 40)}\nAuthor: {ch(FIRST).title()} <{ch(FIRST)}@{dom()}>\nDate:   {date()}\n\n    {t}"


def regex_from_template(t):
    def sub(m):
        k, a, b = m.group(1), m.group(2), m.group(3)
        q = "{" + (a or "1") + ("," + b if b else "") + "}" if a else "+"
        cls = {"a": "[a-z0-9]", "A": "[A-Za-z0-9]", "U": "[A-Z0-9]", "L": "[a-z]", "C": "[A-Z]", "h": "[0-9a-f]", "H": "[0-9A-F]", "d": "[0-9]",
               "B": "[A-Za-z0-9+/]", "b": "[A-Za-z0-9_-]", "r": "[1-9A-HJ-NP-Za-km-z]", "Z": "[A-Z2-7]", "d1": "[0-9]", "X": "[02-9AC-HJ-NP-Z]"}.get(k)
        if cls is None:
            return ".+?"
        return cls + q
    parts = TOK.split(t)
    out, i = [], 0
    for m in TOK.finditer(t):
        out.append(re.escape(t[i:m.start()]))
        out.append(sub(m))
        i = m.end()
    out.append(re.escape(t[i:]))
    return "".join(out)


def b_talk_hard():
    k, nm, var, t = pick_prefixed_fmt()
    pre = literal_prefix(t)
    st = R.random()
    if st < 0.3:
        LAST_CONTAINER[0] = "gitleaks_toml"
        return f"[[rules]]\nid = \"{nm.replace('_', '-')}\"\ndescription = \"{nm.replace('_', ' ')}\"\nregex = '''{regex_from_template(t)}'''\nkeywords = [\"{pre.lower()}\"]"
    if st < 0.5:
        LAST_CONTAINER[0] = "detect_secrets_baseline"
        return json.dumps({"version": "1.5.0", "results": {f"{ch(['src', 'deploy', 'config'])}/{word()}.{ch(['py', 'yaml', 'env'])}": [
            {"type": ch(["Secret Keyword", "Base64 High Entropy String", "Hex High Entropy String"]), "hashed_secret": rs(ALPH["h"], 40),
             "is_verified": False, "line_number": R.randint(1, 300)}]}, "generated_at": ts()}, indent=2)
    if st < 0.7:
        LAST_CONTAINER[0] = "prose"
        return (f"{ch(['Format note:', 'FYI for the scanner config:', 'Docs:'])} {nm.replace('_', ' ')} values start with `{pre}` "
                f"and look like `{shaped_placeholder(t)}`. If you see one in a log, revoke it and tell {ch(CHANNELS)}.")
    if st < 0.85:
        LAST_CONTAINER[0] = "scan_alert_email"
        return (f"Subject: [{word()}/{word()}] Secret scanning alert\n\nA {nm.replace('_', ' ')} was detected in {ch(['commit', 'pull request'])} "
                f"{rs(ALPH['h'], 7)} ({ch(['config/app.yml', '.env', 'README.md'])}, line {R.randint(1, 200)}).\nSecret: {masked_from_template(t)}\n"
                f"Status: {ch(['revoked by provider', 'closed as revoked', 'closed as false positive', 'open'])}")
    LAST_CONTAINER[0] = "postmortem"
    return (f"Post-incident note {ticket()}: the leaked {nm.replace('_', ' ')} (`{masked_from_template(t)}`) was valid for "
            f"{R.randint(3, 120)} minutes. It was revoked on {date()}; {var} now comes from {store_desc()}.")


# --- identifiers ---------------------------------------------------------------
def ident_value():
    acct = d1(12)
    return ch([
        ("GIT_SHA", rs(ALPH["h"], 40)), ("COMMIT", rs(ALPH["h"], 7)), ("IMAGE", f"ghcr.io/{word()}/{word()}@sha256:{rs(ALPH['h'], 64)}"),
        ("REQUEST_ID", uuid4()), ("TRACE_ID", rs(ALPH["h"], 32)), ("TRACEPARENT", f"00-{rs(ALPH['h'], 32)}-{rs(ALPH['h'], 16)}-01"),
        ("ULID", ulid()), ("ROLE_ARN", f"arn:aws:iam::{acct}:role/{pascal(word())}{ch(['Deploy', 'ReadOnly', 'Lambda', 'CI'])}Role"),
        ("BUCKET_ARN", f"arn:aws:s3:::{word()}-{ch(['assets', 'logs', 'exports'])}-{acct[:4]}"),
        ("FUNCTION_ARN", f"arn:aws:lambda:{ch(REGIONS)}:{acct}:function:{word()}-{ch(['handler', 'cron', 'api'])}"),
        ("KMS_KEY_ARN", f"arn:aws:kms:{ch(REGIONS)}:{acct}:key/{uuid4()}"), ("BUILD_NUMBER", str(R.randint(100, 99999))),
        ("RUN_ID", d1(10)), ("OBJECT_ID", rs(ALPH["h"], 24)), ("CUSTOMER_ID", "cus_" + rs(ALPH["A"], 14)),
        ("PAYMENT_INTENT", "pi_3" + rs(ALPH["A"], 23)), ("CHANNEL_ID", "C0" + rs(ALPH["U"], 9)), ("SLACK_USER", "U0" + rs(ALPH["U"], 9)),
        ("INSTANCE_ID", "i-0" + rs(ALPH["h"], 16)), ("VPC_ID", "vpc-0" + rs(ALPH["h"], 16)), ("AMI", "ami-0" + rs(ALPH["h"], 16)),
        ("SUBSCRIPTION_ID", uuid4()), ("TENANT_ID", uuid4()), ("PROJECT_NUMBER", d1(12)), ("K8S_UID", uuid4()),
        ("SENTRY_EVENT_ID", rs(ALPH["h"], 32)), ("ORDER_ID", f"ORD-{date().replace('-', '')}-{R.randint(1000, 99999)}"),
        ("WALLET_ADDRESS", "0x" + rs(ALPH["h"], 40)), ("BTC_ADDRESS", "bc1q" + rs(ALPH["c"], 38)), ("IPFS_CID", "bafy" + rs("abcdefghijklmnopqrstuvwxyz234567", 55)),
        ("SSH_FINGERPRINT", "SHA256:" + b64np(rb(32))), ("GPG_FINGERPRINT", " ".join(rs(ALPH["H"], 4) for _ in range(10))),
        ("CERT_SHA256", ":".join(rs(ALPH["H"], 2) for _ in range(32))), ("DISCORD_GUILD_ID", d1(18)), ("GA_MEASUREMENT_ID", "G-" + rs(ALPH["U"], 10)),
        ("RESOURCE_ID", f"/subscriptions/{uuid4()}/resourceGroups/rg-{word()}/providers/Microsoft.Web/sites/{word()}"),
        ("DEPLOYMENT_ID", "dpl_" + rs(ALPH["A"], 28)), ("ETAG", rs(ALPH["h"], 32)), ("NODE_ID", "MDQ6VXNlcj" + rs(ALPH["A"], 6) + "=="),
    ])


def b_ident():
    st = R.random()
    if st < 0.35:
        items = [ident_value() for _ in range(R.randint(1, 3))]
        return render(items)
    if st < 0.55:
        LAST_CONTAINER[0] = "app_log"
        a, b = ident_value(), ident_value()
        return f"{ts()} {ch(['INFO', 'WARN', 'ERROR'])} {svc()} {ch(['processed', 'retrying', 'failed', 'queued'])} {snake(a[0])}={a[1]} {snake(b[0])}={b[1]} latency_ms={R.randint(3, 900)}"
    if st < 0.7:
        LAST_CONTAINER[0] = "json_record"
        return json.dumps({snake(x[0]): x[1] for x in [ident_value() for _ in range(R.randint(2, 4))]}, indent=ch([None, 2]))
    if st < 0.82:
        LAST_CONTAINER[0] = "csv_rows"
        a = ident_value()
        return "timestamp," + snake(a[0]) + ",status\n" + NL.join(f"{ts()},{ident_value()[1] if i else a[1]},{ch(['ok', 'failed', 'pending'])}" for i in range(R.randint(2, 4)))
    if st < 0.92:
        LAST_CONTAINER[0] = "ci_output"
        return (f"Build #{R.randint(100, 9999)} {ch(['passed', 'failed'])} on {ch(['main', 'release/1.' + str(R.randint(0, 9))])}\ncommit {rs(ALPH['h'], 40)}\n"
                f"image {word()}@sha256:{rs(ALPH['h'], 64)}\nrun id {d1(10)}")
    LAST_CONTAINER[0] = "md_table"
    return "| field | value |\n|---|---|\n" + NL.join(f"| {snake(x[0])} | `{x[1]}` |" for x in [ident_value() for _ in range(R.randint(2, 4))])


def b_ident_hard():
    st = R.randint(0, 11)
    if st == 0:
        return render([("TX_HASH", "0x" + rs(ALPH["h"], 64)), ("FROM_ADDRESS", "0x" + rs(ALPH["h"], 40))])
    if st == 1:
        LAST_CONTAINER[0] = "docker_ps"
        return "$ docker ps --no-trunc -q\n" + NL.join(rs(ALPH["h"], 64) for _ in range(R.randint(1, 4)))
    if st == 2:
        LAST_CONTAINER[0] = "dynamodb_item"
        return json.dumps({"pk": f"USER#{d1(8)}", "sk": f"ORDER#{date()}#{rs(ALPH['U'], 8)}", "status": ch(["PAID", "OPEN"]), "total": R.randint(100, 90000)}, indent=2)
    if st == 3:
        return render([("NEXT_PAGE_TOKEN", rs(ALPH["b"], R.randint(40, 120))), ("PAGE_SIZE", str(ch([50, 100])))])
    if st == 4:
        return render([("SOLANA_TX_SIGNATURE", rs(ALPH["r"], 88)), ("SLOT", d1(9))])
    if st == 5:
        return render([("OPENAI_ORG_ID", "org-" + rs(ALPH["A"], 24)), ("OPENAI_PROJECT_ID", "proj_" + rs(ALPH["A"], 24))])
    if st == 6:
        return render([("STRIPE_ACCOUNT_ID", "acct_1" + rs(ALPH["A"], 15)), ("STRIPE_PRICE_ID", "price_1" + rs(ALPH["A"], 23)), ("STRIPE_PRODUCT_ID", "prod_" + rs(ALPH["A"], 14))])
    if st == 7:
        return render([("S3_KEY", f"uploads/{date().replace('-', '/')}/{uuid4()}.{ch(['png', 'pdf', 'csv'])}"), ("S3_BUCKET", f"{word()}-{ch(['uploads', 'media'])}")])
    if st == 8:
        return render([("BLOCK_HASH", "0000000000000000000" + rs(ALPH["h"], 45)), ("TXID", rs(ALPH["h"], 64))])
    if st == 9:
        LAST_CONTAINER[0] = "aws_response_headers"
        return f"HTTP/1.1 403 Forbidden\nx-amz-request-id: {rs(ALPH['U'], 16)}\nx-amz-id-2: {b64(rb(54))}\nContent-Type: application/xml"
    if st == 10:
        return render([("IDEMPOTENCY_KEY", uuid4()), ("CORRELATION_ID", rs(ALPH["h"], 32))])
    return render([("SESSION_REPLAY_ID", rs(ALPH["a"], 32)), ("CACHE_KEY", f"v3-{word()}-{rs(ALPH['h'], 40)}")])


def public_url():
    d = dom()
    return ch([
        f"https://api.{d}/v{R.randint(1, 3)}/{ch(['orders', 'items', 'users'])}?page={R.randint(1, 40)}&limit={ch([20, 50, 100])}&sort=created_at",
        f"https://github.com/{word()}/{word()}/pull/{R.randint(10, 9000)}", f"https://{d}/docs/{ch(['auth', 'api', 'webhooks'])}#{ch(['api-keys', 'rotation', 'scopes'])}",
        f"https://console.aws.amazon.com/cloudwatch/home?region={ch(REGIONS)}#logsV2:log-groups/log-group/$252Faws$252Flambda$252F{word()}",
        f"https://accounts.google.com/o/oauth2/v2/auth?client_id={d1(12)}-{rs(ALPH['a'], 32)}.apps.googleusercontent.com&redirect_uri=https%3A%2F%2F{d}%2Fcallback&response_type=code&scope=openid%20email&state={rs(ALPH['b'], 22)}&code_challenge={rs(ALPH['b'], 43)}&code_challenge_method=S256",
        f"https://{d}/search?q={word()}+{word()}&utm_source=newsletter&utm_medium=email&utm_campaign={word()}-{R.randint(2024, 2026)}",
        f"https://grafana.{d}/d/{rs(ALPH['A'], 9)}/{word()}-overview?orgId=1&from=now-6h&to=now&var-env={ch(ENVS)}",
        f"https://{ch(['cdn', 'static', 'assets'])}.{d}/build/{rs(ALPH['h'], 12)}/app.{rs(ALPH['h'], 8)}.js",
        f"https://sentry.io/organizations/{word()}/issues/{d1(10)}/?project={d1(7)}&query=is%3Aunresolved",
        f"https://{word()}.atlassian.net/browse/{ticket()}", f"https://hooks.{d}/inbound/{word()}",
        f"https://pypi.org/project/{word()}-{word()}/{R.randint(0, 5)}.{R.randint(0, 20)}.{R.randint(0, 9)}/",
    ])


def b_urls():
    st = R.random()
    if st < 0.35:
        return render([(ch(["BASE_URL", "API_URL", "DOCS_URL", "DASHBOARD_URL", "CALLBACK_URL", "WEBHOOK_ENDPOINT", "CDN_URL", "ISSUER_URL"]), public_url())])
    if st < 0.55:
        return curl_cmd("GET", public_url(), [("Accept", "application/json")])
    if st < 0.75:
        LAST_CONTAINER[0] = "access_log"
        u = urllib.parse.urlsplit(public_url())
        return (f'{ip()} - - [{R.randint(1, 28):02d}/{ch(["Jan", "Mar", "Jun", "Sep", "Nov"])}/2025:{R.randint(0, 23):02d}:{R.randint(0, 59):02d}:11 +0000] '
                f'"GET {u.path}{"?" + u.query if u.query else ""} HTTP/1.1" {ch([200, 200, 304, 404])} {R.randint(200, 90000)} "-" "Mozilla/5.0"')
    if st < 0.9:
        LAST_CONTAINER[0] = "md_link"
        return f"{ch(['See', 'Dashboard:', 'PR:', 'Docs:', 'Link'])} [{word()}]({public_url()})"
    return http_dump("GET", public_url(), [("Accept", "text/html"), ("User-Agent", "Mozilla/5.0")])


# --- public key material --------------------------------------------------------
def b_pubkey():
    st = R.random()
    if st < 0.3:
        keys = NL.join(f"{ssh_pub()} {ch(FIRST)}@{word()}" for _ in range(R.randint(1, 3)))
        return wrap_file(keys, ch(["~/.ssh/authorized_keys", "~/.ssh/id_ed25519.pub", "deploy_key.pub"]))
    if st < 0.5:
        return wrap_file(pem_cert(), ch(["/etc/ssl/certs/" + word() + ".crt", "ca.pem", "fullchain.pem"]))
    if st < 0.6:
        return wrap_file(pem_cert("CERTIFICATE REQUEST"), f"{word()}.csr")
    if st < 0.7:
        body = base64.b64encode(b"\x99\x02\x0d\x04" + rb(R.randint(520, 1700))).decode()
        lines = NL.join(body[i:i + 64] for i in range(0, len(body), 64))
        return wrap_file(f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{lines}\n={rs(ALPH['B'], 4)}\n-----END PGP PUBLIC KEY BLOCK-----", f"{ch(FIRST)}.asc")
    if st < 0.8:
        LAST_CONTAINER[0] = "known_hosts"
        return NL.join(f"{host()} {ssh_pub()}" for _ in range(R.randint(1, 3)))
    if st < 0.9:
        LAST_CONTAINER[0] = "ssh_keygen_output"
        return (f"Your public key has been saved in /home/{user()}/.ssh/id_ed25519.pub\nThe key fingerprint is:\nSHA256:{b64np(rb(32))} {user()}@{word()}\n"
                f"The key's randomart image is:\n+--[ED25519 256]--+\n|   .o+=*o.       |\n|  . .=B..        |\n+----[SHA256]-----+")
    return render([(ch(["JWT_PUBLIC_KEY", "SIGNING_PUBLIC_KEY", "VERIFY_KEY"]), pem_public())])


def b_pubkey_hard():
    st = R.randint(0, 8)
    if st == 0:
        LAST_CONTAINER[0] = "wg_peer"
        return (f"[Peer]\n# {ch(FIRST)}-laptop\nPublicKey = {b64(rb(32))}\nAllowedIPs = 10.{R.randint(0, 255)}.{R.randint(0, 255)}.{R.randint(2, 254)}/32\n"
                f"Endpoint = {ip()}:51820\nPersistentKeepalive = 25")
    if st == 1:
        LAST_CONTAINER[0] = "jwks"
        k = ch([{"kty": "RSA", "kid": rs(ALPH["b"], 16), "use": "sig", "alg": "RS256", "n": b64u(rb(256)), "e": "AQAB"},
                {"kty": "EC", "kid": rs(ALPH["b"], 16), "crv": "P-256", "x": b64u(rb(32)), "y": b64u(rb(32)), "use": "sig"},
                {"kty": "OKP", "crv": "Ed25519", "kid": rs(ALPH["b"], 12), "x": b64u(rb(32))}])
        return json.dumps({"keys": [k]}, indent=ch([None, 2]))
    if st == 2:
        return render([(ch(["SOPS_AGE_RECIPIENTS", "AGE_RECIPIENT"]), "age1" + rs(ALPH["c"], 58))])
    if st == 3:
        return render([("XPUB", "xpub6" + rs(ALPH["r"], 106))])
    if st == 4:
        return render([("NOSTR_NPUB", "npub1" + rs(ALPH["c"], 58))])
    if st == 5:
        LAST_CONTAINER[0] = "minisign_pub"
        return f"untrusted comment: minisign public key {rs(ALPH['H'], 16)}\nRW{b64(rb(40))[:54]}"
    if st == 6:
        return render([("DEPLOY_KEY_PUB", f"{ssh_pub()} deploy@{word()}")])
    if st == 7:
        return render([("WG_PEER_PUBLIC_KEY", b64(rb(32))), ("WG_ENDPOINT", f"{ip()}:51820")])
    return render([("COSIGN_PUBLIC_KEY", pem("PUBLIC KEY", bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + rb(64)))])


# --- password hashes -------------------------------------------------------------
def pw_hash():
    return ch([
        lambda: f"$2b${ch(['10', '12', '14'])}${rs(ALPH['y'], 53)}", lambda: f"$2y$10${rs(ALPH['y'], 53)}",
        lambda: f"$argon2id$v=19$m={ch([65536, 19456, 47104])},t={ch([2, 3])},p={ch([1, 4])}${b64np(rb(16))}${b64np(rb(32))}",
        lambda: f"$6${rs(ALPH['y'], 16)}${rs(ALPH['y'], 86)}", lambda: f"$6$rounds=656000${rs(ALPH['y'], 16)}${rs(ALPH['y'], 86)}",
        lambda: f"$5${rs(ALPH['y'], 16)}${rs(ALPH['y'], 43)}", lambda: f"$apr1${rs(ALPH['y'], 8)}${rs(ALPH['y'], 22)}",
        lambda: f"$y$j9T${rs(ALPH['y'], 22)}${rs(ALPH['y'], 43)}", lambda: f"pbkdf2_sha256${ch([600000, 720000, 870000])}${rs(ALPH['A'], 22)}${b64(rb(32))}",
        lambda: f"SCRAM-SHA-256$4096:{b64(rb(16))}${b64(rb(32))}:{b64(rb(32))}", lambda: "*" + rs(ALPH["H"], 40),
        lambda: "md5" + rs(ALPH["h"], 32), lambda: "{SSHA}" + b64(rb(24)), lambda: f"$P$B{rs(ALPH['y'], 31)}",
        lambda: f"$S$E{rs(ALPH['y'], 52)}", lambda: f"$7$101${b64(rb(12))}${b64(rb(64))}",
    ])()


def b_hash():
    st = R.random()
    if st < 0.3:
        lines = NL.join(f"{u}:{pw_hash()}:{R.randint(19000, 20300)}:0:99999:7:::" for u in R.sample(USERS, R.randint(1, 3)))
        return wrap_file(lines, "/etc/shadow")
    if st < 0.5:
        return wrap_file(NL.join(f"{u}:{pw_hash()}" for u in R.sample(USERS, R.randint(1, 3))), ch(["/etc/nginx/.htpasswd", "auth/htpasswd", "users.htpasswd"]))
    if st < 0.7:
        LAST_CONTAINER[0] = "sql_dump"
        rows = ",\n".join(f"  ({R.randint(1, 9999)}, '{ch(FIRST)}@{dom()}', '{pw_hash()}', '{ts()}')" for _ in range(R.randint(1, 3)))
        return f"INSERT INTO users (id, email, password_digest, created_at) VALUES\n{rows};"
    if st < 0.85:
        LAST_CONTAINER[0] = "django_fixture"
        return json.dumps([{"model": "auth.user", "pk": R.randint(1, 500), "fields": {"username": user(), "password": f"pbkdf2_sha256${ch([600000, 870000])}${rs(ALPH['A'], 22)}${b64(rb(32))}", "is_staff": True}}], indent=2)
    LAST_CONTAINER[0] = "ldif"
    return f"dn: uid={user()},ou=people,dc={word()},dc=com\nobjectClass: inetOrgPerson\nuid: {user()}\nuserPassword: {{SSHA}}{b64(rb(24))}"


def b_hash_hard():
    st = R.randint(0, 9)
    u = user()
    if st == 0:
        LAST_CONTAINER[0] = "traefik_labels"
        return f"labels:\n  - \"traefik.http.middlewares.auth.basicauth.users={u}:$$apr1$${rs(ALPH['y'], 8)}$${rs(ALPH['y'], 22)}\""
    if st == 1:
        return render([("ARGOCD_ADMIN_PASSWORD_HASH", f"$2a$10${rs(ALPH['y'], 53)}"), ("ARGOCD_ADMIN_PASSWORD_MTIME", ts())])
    if st == 2:
        LAST_CONTAINER[0] = "rabbitmq_definitions"
        return json.dumps({"users": [{"name": u, "password_hash": b64(rb(36)), "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": ["administrator"]}]}, indent=2)
    if st == 3:
        LAST_CONTAINER[0] = "jupyter_config"
        argon = f"argon2:$argon2id$v=19$m=10240,t=10,p=8${b64np(rb(16))}${b64np(rb(32))}"
        return f"c.ServerApp.password = '{ch([argon, 'sha1:' + rs(ALPH['h'], 12) + ':' + rs(ALPH['h'], 40)])}'"
    if st == 4:
        LAST_CONTAINER[0] = "cloud_init_users"
        return f"#cloud-config\nusers:\n  - name: {u}\n    passwd: \"$6$rounds=4096${rs(ALPH['y'], 16)}${rs(ALPH['y'], 86)}\"\n    lock_passwd: false"
    if st == 5:
        LAST_CONTAINER[0] = "cisco_config"
        return f"hostname {word()}-sw01\nenable secret 9 $9${rs(ALPH['y'], 14)}${rs(ALPH['y'], 43)}\nusername {u} privilege 15 secret 8 $8${rs(ALPH['y'], 14)}${rs(ALPH['y'], 43)}"
    if st == 6:
        return render([("PASSWORD", f"$2b$12${rs(ALPH['y'], 53)}"), ("USERNAME", u)])
    if st == 7:
        LAST_CONTAINER[0] = "pgbouncer_userlist"
        return f'"{u}" "SCRAM-SHA-256$4096:{b64(rb(16))}${b64(rb(32))}:{b64(rb(32))}"'
    if st == 8:
        LAST_CONTAINER[0] = "mosquitto_passwd"
        return f"{u}:$7$101${b64(rb(12))}${b64(rb(64))}"
    return render([("ADMIN_PASSWORD_BCRYPT", f"$2y$10${rs(ALPH['y'], 53)}")])


# --- ciphertext without the key -------------------------------------------------
def sops_enc(n):
    return f"ENC[AES256_GCM,data:{b64(rb(R.randint(16, 60)))},iv:{b64(rb(32))},tag:{b64(rb(16))},type:str]"


def age_armor():
    body = base64.b64encode(b"age-encryption.org/v1\n-> X25519 " + b64np(rb(32)).encode() + b"\n" + rb(R.randint(120, 260))).decode()
    return "-----BEGIN AGE ENCRYPTED FILE-----\n" + NL.join(body[i:i + 64] for i in range(0, len(body), 64)) + "\n-----END AGE ENCRYPTED FILE-----"


def ansible_vault_blob():
    return "$ANSIBLE_VAULT;1.1;AES256\n" + NL.join(rs(ALPH["h"], 80) for _ in range(R.randint(4, 30)))


def pgp_message():
    body = base64.b64encode(b"\x85\x02\x0c\x03" + rb(R.randint(300, 1600))).decode()
    return "-----BEGIN PGP MESSAGE-----\n\n" + NL.join(body[i:i + 64] for i in range(0, len(body), 64)) + f"\n={rs(ALPH['B'], 4)}\n-----END PGP MESSAGE-----"


def b_enc():
    st = R.random()
    if st < 0.3:
        return wrap_file(ansible_vault_blob(), ch(["group_vars/prod/vault.yml", "secrets.yml", "vars/vault.yml"]))
    if st < 0.55:
        return wrap_file(pgp_message(), ch(["secrets.txt.asc", "handover.asc", "creds.gpg.asc"]))
    if st < 0.75:
        return wrap_file(age_armor(), ch(["secrets.env.age", "backup.key.age", "creds.age"]))
    if st < 0.9:
        LAST_CONTAINER[0] = "rails_credentials_enc"
        return wrap_file(f"{b64(rb(R.randint(200, 400)))}--{b64(rb(12))}--{b64(rb(16))}", "config/credentials.yml.enc")
    LAST_CONTAINER[0] = "kms_cli"
    return f"$ aws kms encrypt --key-id alias/{word()} --plaintext fileb://secret.txt --query CiphertextBlob --output text\n{b64(bytes.fromhex('0102020078') + rb(R.randint(150, 200)))}"


def b_enc_hard():
    n = secret_var()
    st = R.randint(0, 7)
    if st == 0:
        LAST_CONTAINER[0] = "sops_yaml"
        return (f"{snake(n)}: {sops_enc(n)}\n{snake(secret_var())}: {sops_enc(n)}\nsops:\n    kms:\n        - arn: arn:aws:kms:{ch(REGIONS)}:{d1(12)}:key/{uuid4()}\n"
                f"          created_at: \"{ts()}\"\n          enc: {b64(rb(184))}\n          aws_profile: \"\"\n    lastmodified: \"{ts()}\"\n"
                f"    mac: {sops_enc(n)}\n    unencrypted_suffix: _unencrypted\n    version: 3.9.1")
    if st == 1:
        return render([(n, sops_enc(n))])
    if st == 2:
        LAST_CONTAINER[0] = "sealed_secret"
        return (f"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: {word()}\n  namespace: {ch(ENVS)}\nspec:\n  encryptedData:\n"
                f"    {snake(n)}: Ag{b64(rb(R.randint(400, 560)))}")
    if st == 3:
        return render([(n, "vault:v1:" + b64(rb(R.randint(40, 90))))])
    if st == 4:
        return render([(n, "ENC(" + b64(rb(R.randint(32, 64))) + ")")])
    if st == 5:
        LAST_CONTAINER[0] = "ejson"
        return json.dumps({"_public_key": rs(ALPH["h"], 64), snake(n): f"EJ[1:{b64(rb(32))}:{b64(rb(24))}:{b64(rb(R.randint(40, 80)))}]"}, indent=2)
    if st == 6:
        LAST_CONTAINER[0] = "ansible_inline_vault"
        return f"{snake(n)}: !vault |\n" + NL.join("  " + ln for ln in ansible_vault_blob().split(NL))
    return render([(n + "_CIPHERTEXT", b64(bytes.fromhex("0102020078") + rb(R.randint(150, 200))))])


# --- high-entropy non-secrets -----------------------------------------------------
def b_entropy():
    st = R.randint(0, 11)
    if st == 0:
        return wrap_file(NL.join(f"{rs(ALPH['h'], 64)}  {word()}-{R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)}-{ch(['linux-amd64', 'darwin-arm64', 'windows-amd64'])}.{ch(['tar.gz', 'zip'])}" for _ in range(R.randint(2, 4))), "SHA256SUMS")
    if st == 1:
        m = f"github.com/{word()}/{word()}"
        v = f"v{R.randint(0, 3)}.{R.randint(0, 20)}.{R.randint(0, 9)}"
        return wrap_file(f"{m} {v} h1:{b64(rb(32))}\n{m} {v}/go.mod h1:{b64(rb(32))}", "go.sum")
    if st == 2:
        LAST_CONTAINER[0] = "package_lock"
        return json.dumps({f"node_modules/{word()}": {"version": f"{R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 9)}", "resolved": f"https://registry.npmjs.org/{word()}/-/{word()}-1.0.0.tgz",
                                                         "integrity": "sha512-" + b64(rb(64))}}, indent=2)
    if st == 3:
        LAST_CONTAINER[0] = "data_uri"
        return f'<img alt="{word()}" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA{b64(rb(R.randint(60, 200)))}">'
    if st == 4:
        return wrap_file(f"{word()}=={R.randint(1, 9)}.{R.randint(0, 30)}.{R.randint(0, 9)} \\\n    --hash=sha256:{rs(ALPH['h'], 64)} \\\n    --hash=sha256:{rs(ALPH['h'], 64)}", "requirements.txt")
    if st == 5:
        LAST_CONTAINER[0] = "minified_js"
        ids = [rs(LOW, 1) for _ in range(8)]
        return "!function(" + ",".join(ids[:3]) + "){" + ";".join(f"var {a}={R.randint(0, 9999)}^{b}<<{R.randint(1, 8)}" for a, b in zip(ids, ids[1:])) + f"}}(window,document,\"{rs(ALPH['A'], 24)}\");"
    if st == 6:
        LAST_CONTAINER[0] = "sri_tag"
        return f'<script src="https://cdn.{dom()}/{word()}.min.js" integrity="sha384-{b64(rb(48))}" crossorigin="anonymous"></script>'
    if st == 7:
        LAST_CONTAINER[0] = "csp_header"
        return f"Content-Security-Policy: default-src 'self'; script-src 'self' 'nonce-{b64(rb(16))}'; object-src 'none'"
    if st == 8:
        return wrap_file(f'provider "registry.terraform.io/hashicorp/{ch(["aws", "google", "azurerm"])}" {{\n  version = "{R.randint(4, 6)}.{R.randint(0, 80)}.0"\n  hashes = [\n    "h1:{b64(rb(32))}",\n    "zh:{rs(ALPH["h"], 64)}",\n  ]\n}}', ".terraform.lock.hcl")
    if st == 9:
        return wrap_file(f"version https://git-lfs.github.com/spec/v1\noid sha256:{rs(ALPH['h'], 64)}\nsize {R.randint(1000, 90000000)}", f"assets/{word()}.bin")
    if st == 10:
        LAST_CONTAINER[0] = "nix_store"
        return NL.join(f"/nix/store/{rs(ALPH['n'], 32)}-{word()}-{R.randint(1, 9)}.{R.randint(0, 9)}" for _ in range(R.randint(1, 3)))
    LAST_CONTAINER[0] = "unit_test"
    txt = " ".join(word() for _ in range(4))
    return f"def test_digest():\n    assert hashlib.sha256(b\"{txt}\").hexdigest() == \"{hashlib.sha256(txt.encode()).hexdigest()}\""


def b_entropy_hard():
    st = R.randint(0, 9)
    body = json.dumps({"id": "evt_" + rs(ALPH["A"], 24), "type": ch(["invoice.paid", "charge.succeeded", "push"])})
    if st == 0:
        return http_dump("POST", f"https://{dom()}/webhooks/stripe", [("Stripe-Signature", f"t={R.randint(1735689600, 1767225599)},v1={rs(ALPH['h'], 64)}"), ("Content-Type", "application/json")], body)
    if st == 1:
        return http_dump("POST", f"https://{dom()}/hooks/github", [("X-GitHub-Event", "push"), ("X-Hub-Signature-256", f"sha256={rs(ALPH['h'], 64)}"), ("X-GitHub-Delivery", uuid4())], body)
    if st == 2:
        return http_dump("POST", f"https://{dom()}/slack/events", [("X-Slack-Request-Timestamp", str(R.randint(1735689600, 1767225599))), ("X-Slack-Signature", f"v0={rs(ALPH['h'], 64)}")], body)
    if st == 3:
        return render([("CACHE_KEY", rs(ALPH["h"], 64)), ("CACHE_VERSION", f"v{R.randint(1, 9)}")])
    if st == 4:
        return render([("CONTENT_SHA256", rs(ALPH["h"], 64)), ("ARTIFACT", f"{word()}-{R.randint(1, 9)}.{R.randint(0, 9)}.tar.gz")])
    if st == 5:
        return render([("ETAG", f'W/"{rs(ALPH["h"], 32)}"'), ("LAST_MODIFIED", ts())])
    if st == 6:
        return render([("BUILD_HASH", rs(ALPH["h"], 40)), ("ASSET_MANIFEST", f"main.{rs(ALPH['h'], 20)}.js")])
    if st == 7:
        return render([("NONCE_EXAMPLE", b64(rb(16))), ("ALGORITHM", "AES-256-GCM")])
    if st == 8:
        LAST_CONTAINER[0] = "yarn_lock"
        return f'"{word()}@^{R.randint(1, 9)}.0.0":\n  version "{R.randint(1, 9)}.{R.randint(0, 9)}.{R.randint(0, 9)}"\n  resolved "https://registry.yarnpkg.com/{word()}/-/{word()}-1.2.3.tgz#{rs(ALPH["h"], 40)}"\n  integrity sha512-{b64(rb(64))}'
    return render([("DOCKER_IMAGE_ID", "sha256:" + rs(ALPH["h"], 64)), ("LAYER_DIGEST", "sha256:" + rs(ALPH["h"], 64))])


# --- key id / client id / tenant alone ----------------------------------------------
KEY_IDS = [
    ("AWS_ACCESS_KEY_ID", "AKIA{U:16}"), ("GOOGLE_CLIENT_ID", "{d1:12}-{a:32}.apps.googleusercontent.com"), ("AZURE_TENANT_ID", "{uuid}"),
    ("AZURE_CLIENT_ID", "{uuid}"), ("AZURE_SUBSCRIPTION_ID", "{uuid}"), ("TWILIO_ACCOUNT_SID", "AC{h:32}"), ("RAZORPAY_KEY_ID", "rzp_live_{A:14}"),
    ("OKTA_CLIENT_ID", "0oa{A:17}"), ("AUTH0_CLIENT_ID", "{A:32}"), ("GITHUB_CLIENT_ID", "Iv1.{h:16}"), ("PLAID_CLIENT_ID", "{h:24}"),
    ("ALGOLIA_APP_ID", "{U:10}"), ("GCP_PROJECT_ID", "{word}-{word}-{d:6}"), ("PAYPAL_CLIENT_ID", "A{b:79}"), ("COGNITO_USER_POOL_ID", "{region}_{A:9}"),
    ("SLACK_APP_ID", "A0{U:9}"), ("SQUARE_APPLICATION_ID", "sq0idp-{b:22}"), ("MAILJET_APIKEY_PUBLIC", "{h:32}"), ("B2_APPLICATION_KEY_ID", "005{h:22}"),
    ("DD_SITE", "datadoghq.eu"), ("SUMO_ACCESS_ID", "su{A:12}"), ("DUO_IKEY", "DI{U:18}"), ("CLOUDINARY_CLOUD_NAME", "{L:8}"),
    ("SNOWFLAKE_ACCOUNT", "{U:7}-{U:7}"), ("AKAMAI_CLIENT_TOKEN", "akab-{a:16}-{a:16}"), ("CONFLUENT_API_KEY", "{U:16}"),
    ("GCS_HMAC_ACCESS_ID", "GOOG1E{U:55}"), ("TWILIO_API_KEY", "SK{h:32}"), ("BROWSERSTACK_USERNAME", "{user}_{A:6}"),
]


def b_keyid():
    st = R.random()
    var, t = ch(KEY_IDS)
    v = expand(t)
    if st < 0.4:
        return render([(var, v)])
    if st < 0.6:
        LAST_CONTAINER[0] = "cloudtrail_event"
        return json.dumps({"eventTime": ts(), "eventName": ch(["AssumeRole", "GetObject", "PutObject", "CreateUser"]), "userIdentity": {
            "type": "IAMUser", "arn": f"arn:aws:iam::{d1(12)}:user/{user()}", "accessKeyId": expand("AKIA{U:16}")}, "sourceIPAddress": ip(),
            "errorCode": ch(["AccessDenied", None])}, indent=2)
    if st < 0.75:
        LAST_CONTAINER[0] = "az_account_show"
        return json.dumps({"environmentName": "AzureCloud", "id": uuid4(), "isDefault": True, "name": f"{word()}-{ch(ENVS)}", "state": "Enabled",
                           "tenantId": uuid4(), "user": {"name": f"{ch(FIRST)}@{dom()}", "type": "user"}}, indent=2)
    if st < 0.88:
        LAST_CONTAINER[0] = "html_meta"
        return f'<meta name="google-signin-client_id" content="{expand(KEY_IDS[1][1])}">\n<script src="https://accounts.google.com/gsi/client" async></script>'
    return f"{ts()} ERROR {svc()} AccessDenied: user arn:aws:iam::{d1(12)}:user/{user()} (access key {expand('AKIA{U:16}')}) is not authorized to perform s3:PutObject"


def b_keyid_hard():
    var, t = ch(KEY_IDS)
    v = expand(t)
    partner = {"AWS_ACCESS_KEY_ID": "AWS_SECRET_ACCESS_KEY", "GOOGLE_CLIENT_ID": "GOOGLE_CLIENT_SECRET", "AZURE_CLIENT_ID": "AZURE_CLIENT_SECRET",
               "TWILIO_ACCOUNT_SID": "TWILIO_AUTH_TOKEN", "RAZORPAY_KEY_ID": "RAZORPAY_KEY_SECRET", "OKTA_CLIENT_ID": "OKTA_CLIENT_SECRET",
               "AUTH0_CLIENT_ID": "AUTH0_CLIENT_SECRET", "GITHUB_CLIENT_ID": "GITHUB_CLIENT_SECRET", "PLAID_CLIENT_ID": "PLAID_SECRET",
               "PAYPAL_CLIENT_ID": "PAYPAL_CLIENT_SECRET", "B2_APPLICATION_KEY_ID": "B2_APPLICATION_KEY", "CONFLUENT_API_KEY": "CONFLUENT_API_SECRET",
               "GCS_HMAC_ACCESS_ID": "GCS_HMAC_SECRET", "TWILIO_API_KEY": "TWILIO_API_SECRET", "DUO_IKEY": "DUO_SKEY", "SUMO_ACCESS_ID": "SUMO_ACCESS_KEY",
               "MAILJET_APIKEY_PUBLIC": "MJ_APIKEY_PRIVATE", "AKAMAI_CLIENT_TOKEN": "AKAMAI_CLIENT_SECRET"}.get(var, "CLIENT_SECRET")
    st = R.random()
    if st < 0.45:
        return render([(var, v), (partner, ch(REF_STYLES)(partner))])
    if st < 0.65:
        return render([(var, v), (partner, mgr_ref(partner))])
    if st < 0.8:
        return render([(var, v), (partner, ch(PLACEHOLDERS[:20]))])
    if st < 0.9:
        LAST_CONTAINER[0] = "aws_config"
        return f"[profile {word()}]\nsso_start_url = https://{word()}.awsapps.com/start\nsso_account_id = {d1(12)}\nsso_role_name = {pascal(word())}Access\nregion = {ch(REGIONS)}"
    LAST_CONTAINER[0] = "oauth_public_client"
    return json.dumps({"client_id": v, "redirect_uris": [f"https://{dom()}/callback"], "token_endpoint_auth_method": "none", "grant_types": ["authorization_code"], "code_challenge_method": "S256"}, indent=2)


# --- documented / well-known examples ---------------------------------------------------
DOC_EXAMPLES = [
    [("AWS_ACCESS_KEY_ID", "AKIAIOSFODNN7EXAMPLE"), ("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")],
    [("AWS_ACCESS_KEY_ID", "AKIAI44QH8DHBEXAMPLE"), ("AWS_SECRET_ACCESS_KEY", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY")],
    [("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;")],
    [("AZURE_STORAGE_CONNECTION_STRING", "UseDevelopmentStorage=true")],
    [("ACCESS_TOKEN", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")],
    [("Authorization", "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")],
    [("client_id", "s6BhdRkqt3"), ("client_secret", "7Fjfp0ZBr1KtDRbnfVdmIw")],
    [("Authorization", "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW")],
    [("access_token", "2YotnFZFEjr1zCsicMWpAA"), ("refresh_token", "tGzv3JOkF0XG5Qx2TlKWIA")],
    [("Authorization", "Bearer mF_9.B5f-4.1JqM")],
    [("code_verifier", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"), ("code_challenge", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")],
    [("SLACK_BOT_TOKEN", "xoxb-not-a-real-token-this-will-not-work")],
    [("STRIPE_SECRET_KEY", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"), ("STRIPE_PUBLISHABLE_KEY", "pk_test_TYooMQauvdEDq54NiTphI7jx")],
    [("DATABASE_URL", "postgresql://user:secret@localhost")],
    [("MONGODB_URI", "mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin")],
    [("HMAC_TEST_KEY", "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"), ("EXPECTED_HMAC_SHA256", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")],
]
DOC_SOURCES = ["AWS IAM user guide", "RFC 6749 section 4.1", "RFC 7617 section 2", "RFC 6750 section 2.1", "RFC 7636 appendix B", "jwt.io",
               "Azurite README", "Stripe API reference (old)", "libpq connection URI docs", "MongoDB connection string docs", "RFC 4231 test case 1",
               "Slack API docs", "the vendor's quickstart"]


def b_doc():
    ex = ch(DOC_EXAMPLES)
    src = ch(DOC_SOURCES)
    st = R.random()
    pairs = " and ".join(f"`{a}` = `{b}`" for a, b in ex)
    if st < 0.5:
        LAST_CONTAINER[0] = "prose"
        return f"{ch(['The example in', 'Straight from', 'As shown in', 'Sample values used by'])} {src}: {pairs}. {ch(['These are documentation values, not real credentials.', 'Use them only for unit tests.', 'Parsers should accept this form.'])}"
    LAST_CONTAINER[0] = "md_doc"
    return f"### Example ({src})\n\n```\n" + NL.join(f"{a}: {b}" for a, b in ex) + "\n```"


def b_doc_hard():
    ex = ch(DOC_EXAMPLES)
    st = R.random()
    if st < 0.65:
        return render(list(ex))
    if st < 0.85:
        a, b = ex[-1]
        if a == "Authorization":
            return http_dump("GET", api_url(), [(a, b)])
        return curl_cmd("GET", api_url(), [(header_name(a), b)])
    LAST_CONTAINER[0] = "unit_test"
    return f"def test_{word()}_parses_example():\n" + NL.join(f"    {snake(a)} = \"{b}\"" for a, b in ex) + f"\n    assert parse({snake(ex[0][0])})"


# --- test-mode / sandbox keys ------------------------------------------------------------------
TEST_KEYS = [
    ("STRIPE_SECRET_KEY", "sk_test_{A:24}", None), ("STRIPE_SECRET_KEY", "sk_test_51{A:97}", None), ("STRIPE_RESTRICTED_KEY", "rk_test_51{A:97}", None),
    ("PAYSTACK_SECRET_KEY", "sk_test_{h:40}", None), ("RAZORPAY_KEY_ID", "rzp_test_{A:14}", None), ("FLW_SECRET_KEY", "FLWSECK_TEST-{h:32}-X", None),
    ("MOLLIE_API_KEY", "test_{A:30}", None), ("CKO_SECRET_KEY", "sk_sbox_{a:26}", None), ("XENDIT_SECRET_KEY", "xnd_development_{A:60}", None),
    ("PLAID_ACCESS_TOKEN", "access-sandbox-{uuid}", ("PLAID_ENV", "sandbox")), ("CLERK_SECRET_KEY", "sk_test_{A:50}", None),
    ("STYTCH_SECRET", "secret-test-{b:36}", ("STYTCH_PROJECT_ID", "project-test-{uuid}")), ("MAGIC_SECRET_KEY", "sk_test_{H:16}", None),
    ("LOB_API_KEY", "test_{h:35}", None), ("SHIPPO_API_TOKEN", "shippo_test_{h:40}", None), ("EASYPOST_API_KEY", "EZTK{h:54}", None),
    ("MIDTRANS_SERVER_KEY", "SB-Mid-server-{b:24}", None), ("PADDLE_API_KEY", "pdl_sdbx_apikey_01{a:24}_{A:22}_{a:3}", None),
    ("BRAINTREE_ACCESS_TOKEN", "access_token$sandbox${a:16}${h:32}", None), ("PAYPAL_CLIENT_SECRET", "E{b:79}", ("PAYPAL_MODE", "sandbox")),
    ("SQUARE_ACCESS_TOKEN", "EAAAE{b:59}", ("SQUARE_ENVIRONMENT", "sandbox")), ("CHARGEBEE_API_KEY", "test_{A:32}", ("CHARGEBEE_SITE", "{word}-test")),
    ("GOCARDLESS_ACCESS_TOKEN", "sandbox_{b:40}", None), ("ADYEN_CLIENT_KEY", "test_{U:32}", None),
]


def b_test_key():
    var, t, companion = ch(TEST_KEYS)
    a = [(var, expand(t))]
    if companion:
        a.append((companion[0], expand(companion[1])))
        if R.random() < 0.5:
            a.reverse()
    if R.random() < 0.25:
        LAST_CONTAINER[0] = "prose"
        return f"{ch(['For the sandbox account use', 'Test-mode key for local dev:', 'CI uses the sandbox key'])} {a[0][0]}={a[0][1]}" + ("" if len(a) == 1 else f" ({a[1][0]}={a[1][1]})")
    return render(a)


# --- publishable-by-design ---------------------------------------------------------------------------
def clerk_pk():
    return ch(["pk_live_", "pk_test_"]) + b64(f"clerk.{dom()}$".encode()).rstrip("=")


def mapbox_pk():
    return "pk." + b64u(json.dumps({"u": user(), "a": rs(ALPH["a"], 25)}, separators=(",", ":")).encode()) + "." + rs(ALPH["b"], 22)


PUBLISHABLE = [
    ("STRIPE_PUBLISHABLE_KEY", lambda: "pk_live_" + rs(ALPH["A"], 24)), ("NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY", lambda: "pk_live_51" + rs(ALPH["A"], 97)),
    ("STRIPE_PUBLISHABLE_KEY", lambda: "pk_test_51" + rs(ALPH["A"], 97)), ("NEXT_PUBLIC_MAPBOX_TOKEN", mapbox_pk),
    ("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", clerk_pk), ("NEXT_PUBLIC_POSTHOG_KEY", lambda: "phc_" + rs(ALPH["A"], 43)),
    ("ALGOLIA_SEARCH_ONLY_API_KEY", lambda: rs(ALPH["h"], 32)), ("SENTRY_DSN", lambda: f"https://{rs(ALPH['h'], 32)}@o{d1(6)}.ingest.us.sentry.io/{d1(7)}"),
    ("NEXT_PUBLIC_SUPABASE_ANON_KEY", lambda: jwt_supabase("anon")), ("RECAPTCHA_SITE_KEY", lambda: "6L" + rs(ALPH["b"], 38)),
    ("HCAPTCHA_SITEKEY", uuid4), ("SQUARE_APPLICATION_ID", lambda: "sq0idp-" + rs(ALPH["b"], 22)),
    ("BRAINTREE_TOKENIZATION_KEY", lambda: f"production_{rs(ALPH['a'], 8)}_{rs(ALPH['a'], 16)}"), ("DD_RUM_CLIENT_TOKEN", lambda: "pub" + rs(ALPH["h"], 32)),
    ("NEW_RELIC_BROWSER_KEY", lambda: "NRJS-" + rs(ALPH["h"], 19)), ("VITE_MIXPANEL_PROJECT_TOKEN", lambda: rs(ALPH["h"], 32)),
    ("LD_CLIENT_SIDE_ID", lambda: rs(ALPH["h"], 24)), ("VITE_AMPLITUDE_API_KEY", lambda: rs(ALPH["h"], 32)), ("NEXT_PUBLIC_WALLETCONNECT_PROJECT_ID", lambda: rs(ALPH["h"], 32)),
    ("ADYEN_CLIENT_KEY", lambda: "live_" + rs(ALPH["U"], 32)), ("PUBLIC_SEGMENT_WRITE_KEY", lambda: rs(ALPH["A"], 32)),
]


def b_publishable():
    var, fn = ch(PUBLISHABLE)
    v = fn()
    st = R.random()
    if st < 0.55:
        return render([(var, v)])
    if st < 0.8:
        LAST_CONTAINER[0] = "frontend_code"
        if "STRIPE" in var:
            return f"const stripe = Stripe('{v}');"
        if "POSTHOG" in var:
            return f"posthog.init('{v}', {{ api_host: 'https://eu.i.posthog.com' }})"
        if "SENTRY" in var:
            return f"Sentry.init({{ dsn: \"{v}\", tracesSampleRate: 0.1 }});"
        if "ALGOLIA" in var:
            return f"const client = algoliasearch('{rs(ALPH['U'], 10)}', '{v}');"
        if "RECAPTCHA" in var or "HCAPTCHA" in var:
            return f"<div class=\"{'g-recaptcha' if 'RE' in var else 'h-captcha'}\" data-sitekey=\"{v}\"></div>"
        if "MAPBOX" in var:
            return f"mapboxgl.accessToken = '{v}';"
        return f"export const {camel(var)} = '{v}'; // shipped to the browser"
    LAST_CONTAINER[0] = "prose"
    return f"{var} ({ch(['publishable, safe to ship in the client bundle', 'public key, embedded in the web app', 'client-side key by design'])}): {v}"


# ----------------------------------------------------------------- registries of generators
BENIGN_PLAIN = [(B_ENV, b_env_assign, 90), (B_ENV, b_env_code, 80), (B_REF, b_secret_ref, 110), (B_PH, b_placeholder, 70),
                (B_TALK, b_talk, 105), (B_ID, b_ident, 85), (B_ID, b_urls, 70), (B_PUB, b_pubkey, 70), (B_HASH, b_hash, 50), (B_ENC, b_enc, 60),
                (B_ENT, b_entropy, 90), (B_MASK, b_masked, 60), (B_KEYID, b_keyid, 40), (B_DOC, b_doc, 20)]
BENIGN_HARD = [(B_PH, b_placeholder_hard, 45), (B_MASK, b_masked_hard, 45), (B_DOC, b_doc_hard, 40), (B_TEST, b_test_key, 50),
               (B_PUBLISH, b_publishable, 45), (B_HASH, b_hash_hard, 35), (B_ENC, b_enc_hard, 40), (B_ENT, b_entropy_hard, 45),
               (B_ID, b_ident_hard, 35), (B_PUB, b_pubkey_hard, 35), (B_KEYID, b_keyid_hard, 40), (B_TALK, b_talk_hard, 30),
               (B_ENV, b_env_ref_hard, 40), (B_REF, b_secret_ref_hard, 15)]


# ----------------------------------------------------------------- assembly
RECORDS = []
SEEN_VALUES = set()
SEEN_KEYS = set()
NS_EXTRA = ["infra", "work", "snippets", "2025", "projects", "ops", "dev", "notes", "archive", "team", "q3", "personal", "scratch"]
STATS = defaultdict(Counter)


def flat_strings(v):
    if isinstance(v, str):
        return [v]
    if isinstance(v, dict):
        return [s for x in v.values() for s in flat_strings(x)]
    if isinstance(v, list):
        return [s for x in v for s in flat_strings(x)]
    return []


def new_key():
    while True:
        k = "mem_" + rs(ALPH["h"], R.randint(8, 32))
        if k not in SEEN_KEYS:
            SEEN_KEYS.add(k)
            return k


def new_namespace():
    ns = ["memories", "u" + d1(R.randint(8, 10))]
    if R.random() < 0.3:
        ns.append(ch(NS_EXTRA))
    return ns


def emit(label, variant, kind, gen, meta):
    for _ in range(60):
        LAST_CONTAINER[0] = "snippet"
        out = gen()
        text, needles = out if label == "secret" else (out, None)
        value = finalize(text)
        sig = json.dumps(value, ensure_ascii=False, sort_keys=True)
        low = sig.lower()
        if sig in SEEN_VALUES or kind in low or "benign" in low:
            continue
        if label == "secret":
            joined = "\n".join(flat_strings(value))
            for nd in needles:
                assert nd and nd in joined, (meta, LAST_CONTAINER[0], nd, joined)
        SEEN_VALUES.add(sig)
        RECORDS.append({"label": label, "variant": variant, "kind": kind, "namespace": new_namespace(), "key": new_key(), "value": value})
        STATS["container"][LAST_CONTAINER[0]] += 1
        for m in meta:
            STATS[m[0]][m[1]] += 1
        return
    raise RuntimeError(f"could not emit a unique record for {kind} {meta}")


def weighted(pool):
    return R.choices(pool, weights=[w for *_, w in pool], k=1)[0]


def build():
    # secret / plain: every catalogue format at least once, then a mix
    fmts = list(CAT)
    R.shuffle(fmts)
    n_cat = 700
    plan = fmts + [ch(CAT) for _ in range(n_cat - len(fmts))]
    generic = []
    for kind, fn, w in GENERIC_SECRET:
        generic += [(kind, fn)] * w
    assert len(plan) + len(generic) == N_SECRET_PLAIN
    jobs = [("cat", f) for f in plan] + [("gen", g) for g in generic]
    R.shuffle(jobs)
    for typ, x in jobs:
        if typ == "cat":
            emit("secret", "plain", x[0], (lambda f=x: s_catalogue(f)), [("format", x[1])])
        else:
            emit("secret", "plain", x[0], x[1], [("format", x[0])])

    # secret / hard: cycle through the evasion techniques
    order = list(TECHS)
    R.shuffle(order)
    for i in range(N_SECRET_HARD):
        tname, classes, cont, fn = order[i % len(order)]
        while True:
            kind, fmt, name, cred, extras = pick_cred()
            if cclass(cred) not in classes:
                continue
            holder = {}

            def gen(fn=fn, name=name, cred=cred, extras=extras, cont=cont):
                try:
                    text, nd = fn(name, cred, extras)
                except LookupError:
                    raise
                if not cont and extras and R.random() < 0.4:
                    text = NL.join(f"{a}={b}" for a, b in extras) + NL + text
                return text, nd
            try:
                emit("secret", "hard", kind, gen, [("technique", tname), ("format", fmt)])
            except (LookupError, RuntimeError):
                continue
            break

    # benign
    for _ in range(N_BENIGN_PLAIN):
        kind, fn, w = weighted(BENIGN_PLAIN)
        emit("benign", "plain", kind, fn, [("benign_gen", fn.__name__)])
    for _ in range(N_BENIGN_HARD):
        kind, fn, w = weighted(BENIGN_HARD)
        emit("benign", "hard", kind, fn, [("benign_gen", fn.__name__)])

    R.shuffle(RECORDS)
    counters = Counter()
    out = []
    for r in RECORDS:
        s, v = r["label"][0], r["variant"][0]
        counters[(s, v, r["kind"])] += 1
        rid = f"t40b-{s}-{v}-{r['kind']}-{counters[(s, v, r['kind'])]:03d}"
        out.append({"id": rid, "label": r["label"], "kind": r["kind"], "variant": r["variant"], "namespace": r["namespace"],
                    "key": r["key"], "value": r["value"]})
    return out


def value_type(v):
    return "string" if isinstance(v, str) else ("object" if isinstance(v, dict) else "array")


def write_readme(recs, digest):
    by_lv = Counter((r["label"], r["variant"]) for r in recs)
    by_kind = Counter((r["label"], r["kind"], r["variant"]) for r in recs)
    vt = Counter((r["label"], value_type(r["value"])) for r in recs)
    kinds_s = sorted({r["kind"] for r in recs if r["label"] == "secret"})
    kinds_b = sorted({r["kind"] for r in recs if r["label"] == "benign"})
    L = []
    L.append("# secrets_train40b\n")
    L.append("A labelled **training** corpus for a detector that decides whether a *memory* (a short note, config snippet, "
             "record or chat fragment an AI assistant is asked to remember) contains a usable access credential.\n")
    L.append("Emphasis of this author: technical material - a catalogue of provider credential formats rendered in many "
             "configuration, code, CLI, log and chat containers, with hard evasions (secrets) and close look-alikes (benign).\n")
    L.append("## Files\n")
    L.append("- `make_train40b.py` - deterministic generator (Python 3.11 standard library only, no network).")
    L.append("- `train40b.jsonl` - one JSON object per line, keys in the order `id, label, kind, variant, namespace, key, value`.")
    L.append("- `README.md` - this file (also written by the generator).\n")
    L.append("## Reproduce\n")
    L.append("```\npython3 make_train40b.py\nsha256sum train40b.jsonl\n```\n")
    L.append(f"- Seed: `{SEED}` (a single `random.Random(SEED)` drives every choice and the final shuffle).")
    L.append(f"- sha256 of `train40b.jsonl`: `{digest}`")
    L.append(f"- Records: {len(recs)}\n")
    L.append("## Counts by label and variant\n")
    L.append("| label | plain | hard | total |\n|---|---|---|---|")
    for lab in ("secret", "benign"):
        p, h = by_lv[(lab, "plain")], by_lv[(lab, "hard")]
        L.append(f"| {lab} | {p} | {h} | {p + h} |")
    L.append("\n## Value types\n")
    L.append("| label | string | object | array |\n|---|---|---|---|")
    for lab in ("secret", "benign"):
        L.append(f"| {lab} | {vt[(lab, 'string')]} | {vt[(lab, 'object')]} | {vt[(lab, 'array')]} |")
    for lab, kinds in (("secret", kinds_s), ("benign", kinds_b)):
        L.append(f"\n## Kinds ({lab})\n")
        L.append("| kind | plain | hard | total |\n|---|---|---|---|")
        for k in kinds:
            p, h = by_kind[(lab, k, "plain")], by_kind[(lab, k, "hard")]
            L.append(f"| {k} | {p} | {h} | {p + h} |")
    L.append("\n## Coverage\n")
    L.append(f"- Provider credential formats in the catalogue: {len(CAT)} (all used in plain secret records); "
             f"plus generic families (passwords in configs/CLIs/files, {len({'rsa1', 'rsa1k', 'p8rsa', 'ec', 'p8ec', 'ed', 'openssh', 'dsa', 'pgp'})} private-key armours "
             f"plus JWK/PPK/OpenVPN/WireGuard/age key files, JWTs, {len(COOKIES)} session-cookie shapes, basic-auth, URL userinfo, secret URL query parameters).")
    L.append(f"- Distinct formats used in secret records: {len(STATS['format'])}.")
    L.append(f"- Rendering containers: {len(CONTAINERS)} assignment containers plus command, file, HTTP, curl and log wrappers "
             f"({len(STATS['container'])} distinct container tags used).")
    L.append(f"- Hard-secret evasion techniques: {len(TECHS)} ({', '.join(sorted(t[0] for t in TECHS))}).")
    L.append(f"- Benign generators: {len(BENIGN_PLAIN)} plain + {len(BENIGN_HARD)} hard.\n")
    L.append("## Labelling policy\n")
    L.append("- `secret`: the value contains a credential that would grant access if copied: provider API keys/tokens, "
             "client secrets paired with their ids, passwords in configs or command lines, private keys in any armour, "
             "bearer JWTs, session cookies, basic-auth headers, URLs with userinfo or secret query parameters (including signed/presigned URLs), "
             "webhook URLs that embed their token. `hard` secrets are evasions whose credential is still recoverable: split across "
             "concatenations/format calls/joins/list items/fields, reversed, encoded (base64, double base64, hex, base32, base85, URL, "
             "HTML entities, unicode escapes, gzip+base64, rot13, XOR with a stated key, char codes), spaced/dotted/grouped/wrapped, "
             "homoglyphs and zero-width characters, removed in a diff, commented out, in a heredoc, value in a field next to its name, "
             "under an innocuous name, etc. Every secret generator asserts that its credential (or its recoverable encoding/parts) "
             "survives in the final value.")
    L.append("- `benign`: no usable credential: environment-variable and secret-manager references, placeholders and empty values, "
             "documented example values (AWS docs keys, RFC 6749/6750/7617/7636 examples, jwt.io, Azurite, old Stripe docs test keys), "
             "masked/redacted values (including prefix + last-4 reveals), identifiers (SHAs, digests, UUID/ULID, ARNs, request/trace ids, "
             "object ids, blockchain addresses and transaction hashes, fingerprints), public keys and certificates, publishable-by-design keys, "
             "test-mode/sandbox keys, password hashes, ciphertexts without their key (SOPS, ansible-vault, sealed secrets, KMS, PGP/age armour), "
             "high-entropy non-secrets (checksums, integrity hashes, webhook signatures, cache keys, nonces, data URIs, minified code) "
             "and prose about credentials without values. Benign generators never receive a credential value.")
    L.append("- Judgement calls: an access-key id, OAuth client id, tenant/project/subscription id alone is benign; paired with its secret it "
             "is secret. Test-mode/sandbox keys are benign by policy even though they authenticate against a sandbox. Sentry DSNs, "
             "Supabase anon keys, Stripe/Clerk publishable keys, Mapbox `pk.` tokens and similar client-side keys are benign. "
             "Password hashes are benign. Presigned/signed URLs are secret.")
    L.append("- Wrapping (note prefixes, trailing notes, filler config lines, object/array shapes: ~70% string, ~20% object, ~10% array) "
             "is applied by the same code at the same rates to both labels; no record names its kind or label in `key` or `value` "
             "(the generator rejects any value containing its kind name or the word 'benign'). The word 'secret' occurs naturally in both labels.")
    L.append("- All random material comes from the seeded generator; only public shapes (prefixes, lengths, alphabets, armour) "
             "of vendors' formats are imitated.\n")
    return NL.join(L) + NL


def main():
    recs = build()
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)
    with open(OUT_JSONL, "w", encoding="utf-8", newline="\n") as f:
        f.write(data)
    digest = hashlib.sha256(data.encode("utf-8")).hexdigest()
    with open(OUT_README, "w", encoding="utf-8", newline="\n") as f:
        f.write(write_readme(recs, digest))
    c = Counter((r["label"], r["variant"]) for r in recs)
    print(f"wrote {len(recs)} records to {OUT_JSONL}")
    print("counts:", dict(sorted(c.items())))
    print("formats used:", len(STATS["format"]), "techniques used:", len(STATS["technique"]), "containers used:", len(STATS["container"]))
    print("sha256:", digest)


if __name__ == "__main__":
    main()
