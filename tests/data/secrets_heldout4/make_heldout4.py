#!/usr/bin/env python3
"""Generator for the FROZEN held-out secret-detection corpus #4 (heldout4.jsonl).

Standard library only, Python 3.11, fully deterministic (one seeded
random.Random, no clock, no set iteration).  Running it twice yields
byte-identical output.  `python make_heldout4.py --check` re-validates the
written file (parse, keys, unique ids, counts, Luhn of every card number).

Written independently of the detector: nothing here was derived from the
detector's rules or from other corpora.  See README.md.
"""
import base64
import codecs
import hashlib
import json
import re
import string
import struct
import sys
import urllib.parse
from pathlib import Path
import random

SEED = 20250417_4
R = random.Random(SEED)
OUT = Path(__file__).with_name("heldout4.jsonl")

# ----------------------------------------------------------------- alphabets
D = string.digits
LO = string.ascii_lowercase
UP = string.ascii_uppercase
HEX = "0123456789abcdef"
HEXU = HEX.upper()
B62 = UP + LO + D
B64U = B62 + "-_"
B64S = B62 + "+/"
LOWNUM = LO + D
UPNUM = UP + D
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"

def rs(alpha, n): return "".join(R.choice(alpha) for _ in range(n))
def pick(seq): return R.choice(seq)
def rbytes(n): return bytes(R.getrandbits(8) for _ in range(n))
def b64(b): return base64.b64encode(b).decode()
def b64u(b): return base64.urlsafe_b64encode(b).decode().rstrip("=")
def jb64u(obj): return b64u(json.dumps(obj, separators=(",", ":")).encode())

def uuid4():
    h = rs(HEX, 32)
    h = h[:12] + "4" + h[13:16] + R.choice("89ab") + h[17:]
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

def wrap(s, n=64): return "\n".join(s[i:i + n] for i in range(0, len(s), n))
def chunks(s, n): return [s[i:i + n] for i in range(0, len(s), n)]
def slug(s): return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")
def rdate(y0=2024, y1=2026): return f"{R.randint(y0, y1)}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}"
def rtime(): return f"{R.randint(7, 18):02d}:{pick(['00', '15', '30', '45'])}"

def b58(b):
    n = int.from_bytes(b, "big")
    s = ""
    while n:
        n, r = divmod(n, 58)
        s = B58[r] + s
    return "1" * (len(b) - len(b.lstrip(b"\0"))) + s

def b58check(b): return b58(b + hashlib.sha256(hashlib.sha256(b).digest()).digest()[:4])

def _polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk

def _to5(data):
    acc = bits = 0
    out = []
    for v in data:
        acc = (acc << 8) | v
        bits += 8
        while bits >= 5:
            bits -= 5
            out.append((acc >> bits) & 31)
    if bits:
        out.append((acc << (5 - bits)) & 31)
    return out

def bech32(hrp, data5):
    pm = _polymod([ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp] + data5 + [0] * 6) ^ 1
    return hrp + "1" + "".join(BECH[d] for d in data5 + [(pm >> 5 * (5 - i)) & 31 for i in range(6)])

def luhn_ok(num):
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0

def luhn_complete(prefix, length):
    body = prefix + rs(D, length - len(prefix) - 1)
    for c in D:
        if luhn_ok(body + c):
            return body + c

def iban(cc, bban):
    num = "".join(str(int(c, 36)) for c in bban + cc + "00")
    return f"{cc}{98 - int(num) % 97:02d}{bban}"

def spaced4(s): return " ".join(chunks(s, 4))

def isbn13():
    b = "978" + rs(D, 9)
    s = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(b))
    b += str((10 - s % 10) % 10)
    return f"{b[:3]}-{b[3]}-{b[4:8]}-{b[8:12]}-{b[12]}"

def sshstr(b): return struct.pack(">I", len(b)) + b

# ------------------------------------------------------------ record sinks
RECS = []
FIRST = ["amara", "jonas", "sofia", "kenji", "priya", "mateo", "leila", "tomasz", "ingrid", "chidi",
         "yuki", "lucia", "emre", "astrid", "rafael", "minjun", "chloe", "giulia", "daan", "zofia"]
SURN = ["okafor", "lindqvist", "haddad", "moreau", "tanaka", "ribeiro", "novak", "castellanos",
        "brennan", "weiss", "kowalczyk", "yilmaz", "de-vries", "rossi", "park", "chen"]
MAILDOM = ["gmail.com", "outlook.com", "proton.me", "gmx.de", "yahoo.fr", "icloud.com", "web.de", "hotmail.es"]

def user(): return pick([f"{pick(FIRST)}.{pick(SURN)}", f"{pick(FIRST)}{R.randint(1, 99)}", f"{pick(FIRST)[0]}{pick(SURN)}"])
def email(): return f"{pick(FIRST)}.{pick(SURN)}@{pick(MAILDOM)}"

def pick_ns():
    k = R.randrange(7)
    if k == 0:
        return ["memories", f"user-{R.randint(1, 999)}"]
    if k == 1:
        return ["profile", f"u{R.randint(1000, 99999)}"]
    if k == 2:
        return ["agent", "health", f"patient-{R.randint(100, 9999)}"]
    if k == 3:
        return ["notes", pick(FIRST)]
    if k == 4:
        return ["users", f"{pick(FIRST)}-{R.randint(10, 99)}", "memories"]
    if k == 5:
        return ["workspace", pick(["acme", "orion", "kestrel", "bluefin"]), "shared"]
    return ["memories", pick(FIRST), pick(["personal", "work", "family", "health"])]

def pick_key():
    k = R.randrange(4)
    if k == 0:
        return f"note-{R.randint(1, 400)}"
    if k == 1:
        return f"mem_{R.randint(1, 9999):04d}"
    if k == 2:
        return f"{pick(['misc', 'todo', 'scratch', 'reminder', 'inbox', 'log', 'fact', 'context'])}-{R.randint(1, 60)}"
    return f"{pick(['2024', '2025'])}-{R.randint(1, 12):02d}-{R.randint(1, 28):02d}-{R.randint(1, 9)}"

def add(label, kind, variant, value, ns=None, key=None):
    RECS.append({"id": None, "label": label, "kind": kind, "variant": variant,
        "namespace": ns if ns is not None else pick_ns(),
        "key": key if key is not None else pick_key(), "value": value})

def sec(kind, value, variant="plain", **kw): add("secret", kind, variant, value, **kw)
def ben(kind, value, variant="plain", **kw): add("benign", kind, variant, value, **kw)

CARDS = []  # every card number generated, re-checked with Luhn at the end

# ================================================================ TOKENS
SPECS = []

class Spec:
    def __init__(self, kind, vendor, env, gen, url="", hdr="Authorization: Bearer {t}", bare=True):
        self.kind, self.vendor, self.env, self.gen = kind, vendor, env, gen
        self.url, self.hdr = url, hdr
        self.bare = bare and not isinstance(env, tuple)

    def entries(self):
        v = self.gen()
        if isinstance(v, tuple):
            return list(zip(self.env, v))
        return [(self.env, v)]

def S(*a, **k): SPECS.append(Spec(*a, **k))
def _discord_bot(): return f"{b64u(str(R.randint(700000000000000000, 1299999999999999999)).encode())}.{rs(B64U, 6)}.{rs(B64U, 38)}"
def _ops_token():
    return "ops_" + jb64u({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
        "iterations": 650000, "salt": rs(B64U, 22)}, "email": rs(LOWNUM, 13) + "@1passwordserviceaccounts.com",
        "srpX": rs(HEX, 64), "muk": {"alg": "A256GCM", "ext": True, "k": rs(B64U, 43),
        "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}, "deviceUuid": rs(LOWNUM, 26)})

def _grafana_cloud():
    return "glc_" + b64(json.dumps({"o": str(R.randint(100000, 999999)), "n": f"stack-{rs(D, 6)}-hm-read-{rs(LO, 6)}",
        "k": rs(B62, 24), "m": {"r": "prod-eu-west-2"}}, separators=(",", ":")).encode())

def _sentry_org():
    return "sntrys_" + jb64u({"iat": R.randint(1700000000, 1750000000) + 0.5, "url": "https://sentry.io",
        "region_url": "https://de.sentry.io", "org": pick(["acme-health", "orion-labs", "kestrel"])}) + "_" + rs(B64U, 43)

def _mapbox_sk(): return "sk." + jb64u({"u": pick(FIRST) + rs(D, 2), "a": "cl" + rs(LOWNUM, 23)}) + "." + rs(B64U, 22)
def _intercom(): return b64(f"tok:{uuid4()}:1:0".encode())

S("openai_key", "OpenAI", "OPENAI_API_KEY", lambda: "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74), "https://api.openai.com/v1/models")
S("openai_legacy_key", "OpenAI", "OPENAI_API_KEY", lambda: "sk-" + rs(B62, 20) + "T3BlbkFJ" + rs(B62, 20), "https://api.openai.com/v1/models")
S("openai_svcacct_key", "OpenAI", "OPENAI_API_KEY", lambda: "sk-svcacct-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74), "https://api.openai.com/v1/files")
S("anthropic_key", "Anthropic", "ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + rs(B64U, 93) + "AA", "https://api.anthropic.com/v1/models", "x-api-key: {t}")
S("anthropic_admin_key", "Anthropic", "ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + rs(B64U, 93) + "AA", "https://api.anthropic.com/v1/organizations/users", "x-api-key: {t}")
S("github_pat", "GitHub", "GITHUB_TOKEN", lambda: "ghp_" + rs(B62, 36), "https://api.github.com/user", "Authorization: token {t}")
S("github_fine_grained_pat", "GitHub", "GH_TOKEN", lambda: "github_pat_11" + rs(UPNUM, 20) + "_" + rs(B62, 59), "https://api.github.com/user/repos")
S("github_oauth_token", "GitHub", "GITHUB_OAUTH_TOKEN", lambda: "gho_" + rs(B62, 36), "https://api.github.com/user")
S("github_app_token", "GitHub", "GITHUB_APP_TOKEN", lambda: "ghs_" + rs(B62, 36), "https://api.github.com/installation/repositories")
S("github_refresh_token", "GitHub", "GITHUB_REFRESH_TOKEN", lambda: "ghr_" + rs(B62, 76), "https://github.com/login/oauth/access_token")
S("gitlab_pat", "GitLab", "GITLAB_TOKEN", lambda: "glpat-" + rs(B64U, 20), "https://gitlab.com/api/v4/user", "PRIVATE-TOKEN: {t}")
S("gitlab_runner_token", "GitLab", "CI_RUNNER_TOKEN", lambda: "glrt-" + rs(B64U, 20), "https://gitlab.com/api/v4/runners/verify", "PRIVATE-TOKEN: {t}")
S("gitlab_deploy_token", "GitLab", "GITLAB_DEPLOY_TOKEN", lambda: "gldt-" + rs(B64U, 20), "https://gitlab.com/api/v4/projects", "PRIVATE-TOKEN: {t}")
S("slack_bot_token", "Slack", "SLACK_BOT_TOKEN", lambda: f"xoxb-{rs(D, 11)}-{rs(D, 13)}-{rs(B62, 24)}", "https://slack.com/api/auth.test")
S("slack_user_token", "Slack", "SLACK_USER_TOKEN", lambda: f"xoxp-{rs(D, 11)}-{rs(D, 11)}-{rs(D, 13)}-{rs(HEX, 32)}", "https://slack.com/api/users.list")
S("slack_app_token", "Slack", "SLACK_APP_TOKEN", lambda: f"xapp-1-A{rs(UPNUM, 10)}-{rs(D, 13)}-{rs(HEX, 64)}", "https://slack.com/api/apps.connections.open")
S("slack_webhook", "Slack", "SLACK_WEBHOOK_URL", lambda: f"https://hooks.slack.com/services/T{rs(UPNUM, 8)}/B{rs(UPNUM, 10)}/{rs(B62, 24)}", hdr="POST")
S("stripe_secret_key", "Stripe", "STRIPE_SECRET_KEY", lambda: "sk_live_51" + rs(B62, 97), "https://api.stripe.com/v1/charges", "-u {t}:")
S("stripe_restricted_key", "Stripe", "STRIPE_RESTRICTED_KEY", lambda: "rk_live_51" + rs(B62, 97), "https://api.stripe.com/v1/customers", "-u {t}:")
S("stripe_webhook_secret", "Stripe", "STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + rs(B62, 32), hdr="NONE")
S("aws_access_key", "AWS", ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"), lambda: ("AKIA" + rs(B32, 16), rs(B62 + "/+", 40)), "https://sts.amazonaws.com/?Action=GetCallerIdentity", "-u {t}:{t2}")
S("aws_session_credentials", "AWS", ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"),
  lambda: ("ASIA" + rs(B32, 16), rs(B62 + "/+", 40), "IQoJb3JpZ2luX2VjE" + rs(B64S, 280)), "https://s3.eu-west-1.amazonaws.com/", "X-Amz-Security-Token: {t2}")
S("google_api_key", "Google Cloud", "GOOGLE_API_KEY", lambda: "AIzaSy" + rs(B64U, 33), "https://maps.googleapis.com/maps/api/geocode/json?address=Lisbon&key={t}")
S("google_oauth_client_secret", "Google OAuth", "GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + rs(B64U, 28), "https://oauth2.googleapis.com/token",
  "-d client_id=4821.apps.googleusercontent.com -d client_secret={t} -d grant_type=authorization_code")
S("google_oauth_access_token", "Google", "GOOGLE_ACCESS_TOKEN", lambda: "ya29.a0" + rs(B64U, 170), "https://www.googleapis.com/drive/v3/files")
S("google_refresh_token", "Google", "GOOGLE_REFRESH_TOKEN", lambda: "1//0" + rs(UP, 1) + rs(B64U, 98), "https://oauth2.googleapis.com/token", bare=False)
S("twilio_auth_token", "Twilio", ("TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"), lambda: ("AC" + rs(HEX, 32), rs(HEX, 32)), "https://api.twilio.com/2010-04-01/Accounts.json", "-u {t}:{t2}")
S("twilio_api_key", "Twilio", ("TWILIO_API_KEY", "TWILIO_API_SECRET"), lambda: ("SK" + rs(HEX, 32), rs(B62, 32)), "https://api.twilio.com/2010-04-01/Accounts.json", "-u {t}:{t2}")
S("sendgrid_key", "SendGrid", "SENDGRID_API_KEY", lambda: "SG." + rs(B64U, 22) + "." + rs(B64U, 43), "https://api.sendgrid.com/v3/scopes")
S("mailgun_key", "Mailgun", "MAILGUN_API_KEY", lambda: pick(["key-" + rs(HEX, 32), f"{rs(HEX, 32)}-{rs(HEX, 8)}-{rs(HEX, 8)}"]), "https://api.mailgun.net/v3/domains", "-u api:{t}", bare=False)
S("mailchimp_key", "Mailchimp", "MAILCHIMP_API_KEY", lambda: rs(HEX, 32) + f"-us{R.randint(2, 21)}", "https://us6.api.mailchimp.com/3.0/ping", "-u anystring:{t}")
S("huggingface_token", "Hugging Face", "HF_TOKEN", lambda: "hf_" + rs(UP + LO, 34), "https://huggingface.co/api/whoami-v2")
S("npm_token", "npm", "NPM_TOKEN", lambda: "npm_" + rs(B62, 36), "https://registry.npmjs.org/-/whoami")
S("pypi_token", "PyPI", "TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmcCJDA" + rs(B64U, 150), "https://upload.pypi.org/legacy/", "-u __token__:{t}")
S("rubygems_key", "RubyGems", "GEM_HOST_API_KEY", lambda: "rubygems_" + rs(HEX, 48), "https://rubygems.org/api/v1/gems.json", "Authorization: {t}")
S("nuget_key", "NuGet", "NUGET_API_KEY", lambda: "oy2" + rs(LOWNUM, 43), "https://www.nuget.org/api/v2/package", "X-NuGet-ApiKey: {t}")
S("crates_io_token", "crates.io", "CARGO_REGISTRY_TOKEN", lambda: "cio" + rs(B62, 32), "https://crates.io/api/v1/me", "Authorization: {t}")
S("dockerhub_pat", "Docker Hub", "DOCKERHUB_TOKEN", lambda: "dckr_pat_" + rs(B64U, 27), "https://hub.docker.com/v2/users/login")
S("shopify_admin_token", "Shopify", "SHOPIFY_ACCESS_TOKEN", lambda: "shpat_" + rs(HEX, 32), "https://acme-store.myshopify.com/admin/api/2024-07/shop.json", "X-Shopify-Access-Token: {t}")
S("shopify_shared_secret", "Shopify", "SHOPIFY_API_SECRET", lambda: "shpss_" + rs(HEX, 32), "https://acme-store.myshopify.com/admin/oauth/access_token",
  "-d client_id=3f9c1e -d client_secret={t} -d code=auth-code-from-callback")
S("atlassian_api_token", "Atlassian Jira", "JIRA_API_TOKEN", lambda: "ATATT3xFfGF0" + rs(B64U, 170) + "=" + rs(HEXU, 8), "https://acme.atlassian.net/rest/api/3/myself", "-u ops@acme.io:{t}")
S("bitbucket_app_password", "Bitbucket", "BITBUCKET_APP_PASSWORD", lambda: "ATBB" + rs(B62, 28) + rs(HEXU, 8), "https://api.bitbucket.org/2.0/user", "-u devbot:{t}")
S("azure_storage_connection", "Azure Storage", "AZURE_STORAGE_CONNECTION_STRING",
  lambda: f"DefaultEndpointsProtocol=https;AccountName=st{rs(LOWNUM, 10)};AccountKey={b64(rbytes(64))};EndpointSuffix=core.windows.net", "https://management.azure.com/")
S("azure_ad_client_secret", "Azure AD", ("AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET"), lambda: (uuid4(), rs(B62 + "_~.-", 3) + pick(D) + "Q~" + rs(B62 + "_~.-", 34)), "https://login.microsoftonline.com/common/oauth2/v2.0/token",
  "-d client_id={t} -d client_secret={t2} -d grant_type=client_credentials -d scope=https://graph.microsoft.com/.default")
S("azure_openai_key", "Azure OpenAI", "AZURE_OPENAI_API_KEY", lambda: rs(HEX, 32), "https://acme-eastus.openai.azure.com/openai/deployments?api-version=2024-02-01", "api-key: {t}", bare=False)
S("azure_devops_pat", "Azure DevOps", "AZURE_DEVOPS_EXT_PAT", lambda: rs(LO + "234567", 52), "https://dev.azure.com/acme/_apis/projects", "-u :{t}", bare=False)
S("digitalocean_token", "DigitalOcean", "DIGITALOCEAN_TOKEN", lambda: "dop_v1_" + rs(HEX, 64), "https://api.digitalocean.com/v2/account")
S("digitalocean_oauth", "DigitalOcean", "DO_OAUTH_TOKEN", lambda: "doo_v1_" + rs(HEX, 64), "https://api.digitalocean.com/v2/droplets")
S("databricks_token", "Databricks", "DATABRICKS_TOKEN", lambda: "dapi" + rs(HEX, 32) + pick(["", "-2", "-3"]), "https://adb-4412.12.azuredatabricks.net/api/2.0/clusters/list")
S("discord_bot_token", "Discord", "DISCORD_BOT_TOKEN", _discord_bot, "https://discord.com/api/v10/users/@me", "Authorization: Bot {t}")
S("discord_webhook", "Discord", "DISCORD_WEBHOOK_URL", lambda: f"https://discord.com/api/webhooks/{rs(D, 19)}/{rs(B64U, 68)}", hdr="POST")
S("telegram_bot_token", "Telegram", "TELEGRAM_BOT_TOKEN", lambda: f"{R.randint(5000000000, 7999999999)}:AA{rs(B64U, 33)}", "https://api.telegram.org/bot{t}/getMe")
S("postman_api_key", "Postman", "POSTMAN_API_KEY", lambda: f"PMAK-{rs(HEX, 24)}-{rs(HEX, 34)}", "https://api.getpostman.com/me", "X-Api-Key: {t}")
S("linear_api_key", "Linear", "LINEAR_API_KEY", lambda: "lin_api_" + rs(B62, 40), "https://api.linear.app/graphql", "Authorization: {t}")
S("notion_secret", "Notion", "NOTION_TOKEN", lambda: "secret_" + rs(B62, 43), "https://api.notion.com/v1/users/me")
S("notion_ntn_token", "Notion", "NOTION_API_KEY", lambda: "ntn_" + rs(D, 11) + rs(B62, 35), "https://api.notion.com/v1/search")
S("heroku_api_key", "Heroku", "HEROKU_API_KEY", lambda: "HRKU-AA" + rs(B64U, 58), "https://api.heroku.com/apps")
S("vercel_token", "Vercel", "VERCEL_TOKEN", lambda: rs(B62, 24), "https://api.vercel.com/v2/user", bare=False)
S("netlify_token", "Netlify", "NETLIFY_AUTH_TOKEN", lambda: "nfp_" + rs(B62, 36), "https://api.netlify.com/api/v1/sites")
S("supabase_pat", "Supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + rs(HEX, 40), "https://api.supabase.com/v1/projects")
S("supabase_secret_key", "Supabase", "SUPABASE_SECRET_KEY", lambda: "sb_secret_" + rs(B64U, 31), "https://xyzcompany.supabase.co/rest/v1/", "apikey: {t}")
S("groq_key", "Groq", "GROQ_API_KEY", lambda: "gsk_" + rs(B62, 52), "https://api.groq.com/openai/v1/models")
S("replicate_token", "Replicate", "REPLICATE_API_TOKEN", lambda: "r8_" + rs(B62, 37), "https://api.replicate.com/v1/account")
S("perplexity_key", "Perplexity", "PERPLEXITY_API_KEY", lambda: "pplx-" + rs(B62, 48), "https://api.perplexity.ai/chat/completions")
S("xai_key", "xAI", "XAI_API_KEY", lambda: "xai-" + rs(B62, 80), "https://api.x.ai/v1/models")
S("mistral_key", "Mistral AI", "MISTRAL_API_KEY", lambda: rs(B62, 32), "https://api.mistral.ai/v1/models", bare=False)
S("cohere_key", "Cohere", "CO_API_KEY", lambda: rs(B62, 40), "https://api.cohere.com/v1/models", bare=False)
S("tavily_key", "Tavily", "TAVILY_API_KEY", lambda: "tvly-" + pick(["", "dev-", "prod-"]) + rs(B62, 32), "https://api.tavily.com/search")
S("langsmith_key", "LangSmith", "LANGSMITH_API_KEY", lambda: f"lsv2_{pick(['pt', 'sk'])}_{rs(HEX, 32)}_{rs(HEX, 10)}", "https://api.smith.langchain.com/api/v1/sessions", "x-api-key: {t}")
S("pinecone_key", "Pinecone", "PINECONE_API_KEY", lambda: f"pcsk_{rs(B62, 5)}_{rs(B62, 63)}", "https://api.pinecone.io/indexes", "Api-Key: {t}")
S("cloudflare_api_token", "Cloudflare", "CLOUDFLARE_API_TOKEN", lambda: rs(B64U, 40), "https://api.cloudflare.com/client/v4/user/tokens/verify", bare=False)
S("cloudflare_global_key", "Cloudflare", ("CLOUDFLARE_EMAIL", "CLOUDFLARE_API_KEY"), lambda: (email(), rs(HEX, 37)), "https://api.cloudflare.com/client/v4/zones", "X-Auth-Email: {t}\" -H \"X-Auth-Key: {t2}")
S("datadog_keys", "Datadog", ("DD_API_KEY", "DD_APP_KEY"), lambda: (rs(HEX, 32), rs(HEX, 40)), "https://api.datadoghq.eu/api/v1/validate", "DD-API-KEY: {t}\" -H \"DD-APPLICATION-KEY: {t2}")
S("sentry_org_token", "Sentry", "SENTRY_AUTH_TOKEN", _sentry_org, "https://sentry.io/api/0/organizations/")
S("sentry_user_token", "Sentry", "SENTRY_AUTH_TOKEN", lambda: "sntryu_" + rs(HEX, 64), "https://sentry.io/api/0/projects/")
S("newrelic_user_key", "New Relic", "NEW_RELIC_API_KEY", lambda: "NRAK-" + rs(UPNUM, 27), "https://api.eu.newrelic.com/graphql", "API-Key: {t}")
S("newrelic_license_key", "New Relic", "NEW_RELIC_LICENSE_KEY", lambda: rs(HEX, 36) + "NRAL", "https://log-api.eu.newrelic.com/log/v1", "X-License-Key: {t}")
S("grafana_sa_token", "Grafana", "GRAFANA_TOKEN", lambda: f"glsa_{rs(B62, 32)}_{rs(HEX, 8)}", "https://grafana.acme.io/api/dashboards/home")
S("grafana_cloud_token", "Grafana Cloud", "GRAFANA_CLOUD_TOKEN", _grafana_cloud, "https://grafana.com/api/instances")
S("vault_token", "HashiCorp Vault", "VAULT_TOKEN", lambda: "hvs.CAESI" + rs(B64U, 86), "https://vault.acme.internal:8200/v1/secret/data/app", "X-Vault-Token: {t}")
S("terraform_cloud_token", "Terraform Cloud", "TF_TOKEN_app_terraform_io", lambda: rs(B62, 14) + ".atlasv1." + rs(B62, 67), "https://app.terraform.io/api/v2/account/details")
S("doppler_token", "Doppler", "DOPPLER_TOKEN", lambda: f"dp.st.{pick(['prd', 'dev', 'stg'])}.{rs(B62, 40)}", "https://api.doppler.com/v3/configs/config/secrets")
S("onepassword_service_token", "1Password", "OP_SERVICE_ACCOUNT_TOKEN", _ops_token, "https://my.1password.com/api/v1/vaults")
S("okta_api_token", "Okta", "OKTA_API_TOKEN", lambda: "00" + rs(B64U, 40), "https://acme.okta.com/api/v1/users?limit=5", "Authorization: SSWS {t}", bare=False)
S("auth0_client_secret", "Auth0", ("AUTH0_CLIENT_ID", "AUTH0_CLIENT_SECRET"), lambda: (rs(B62, 32), rs(B64U, 64)), "https://acme.eu.auth0.com/oauth/token",
  "-d client_id={t} -d client_secret={t2} -d grant_type=client_credentials")
S("firebase_server_key", "Firebase Cloud Messaging", "FCM_SERVER_KEY", lambda: "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134), "https://fcm.googleapis.com/fcm/send", "Authorization: key={t}")
S("algolia_admin_key", "Algolia", ("ALGOLIA_APP_ID", "ALGOLIA_ADMIN_KEY"), lambda: (rs(UPNUM, 10), rs(HEX, 32)), "https://acme-dsn.algolia.net/1/keys", "X-Algolia-Application-Id: {t}\" -H \"X-Algolia-API-Key: {t2}")
S("mapbox_secret_token", "Mapbox", "MAPBOX_SECRET_TOKEN", _mapbox_sk, "https://api.mapbox.com/tokens/v2?access_token={t}")
S("plaid_secret", "Plaid", ("PLAID_CLIENT_ID", "PLAID_SECRET"), lambda: (rs(HEX, 24), rs(HEX, 30)), "https://production.plaid.com/accounts/get")
S("plaid_access_token", "Plaid", "PLAID_ACCESS_TOKEN", lambda: "access-production-" + uuid4(), "https://production.plaid.com/transactions/sync")
S("square_access_token", "Square", "SQUARE_ACCESS_TOKEN", lambda: "EAAA" + rs(B64U, 60), "https://connect.squareup.com/v2/locations")
S("square_app_secret", "Square", "SQUARE_APPLICATION_SECRET", lambda: "sq0csp-" + rs(B64U, 43), "https://connect.squareup.com/oauth2/token")
S("braintree_token", "Braintree", "BRAINTREE_ACCESS_TOKEN", lambda: f"access_token$production${rs(LOWNUM, 16)}${rs(HEX, 32)}", "https://payments.braintree-api.com/graphql")
S("paypal_client_secret", "PayPal", ("PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET"), lambda: ("A" + rs(B64U, 79), "E" + rs(B64U, 79)), "https://api-m.paypal.com/v1/oauth2/token", "-u {t}:{t2}")
S("coinbase_api_secret", "Coinbase", ("COINBASE_API_KEY", "COINBASE_API_SECRET"), lambda: (rs(B62, 16), rs(B62, 32)), "https://api.coinbase.com/v2/user", "CB-ACCESS-KEY: {t}")
S("alchemy_key", "Alchemy", "ALCHEMY_RPC_URL", lambda: "https://eth-mainnet.g.alchemy.com/v2/" + rs(B64U, 32), hdr="RPC")
S("infura_key", "Infura", ("INFURA_PROJECT_ID", "INFURA_API_SECRET"), lambda: (rs(HEX, 32), rs(HEX, 32)), "https://mainnet.infura.io/v3/{t}")
S("etherscan_key", "Etherscan", "ETHERSCAN_API_KEY", lambda: rs(UPNUM, 34), "https://api.etherscan.io/api?module=account&action=balance&address=0x0&apikey={t}", bare=False)
S("zoom_client_secret", "Zoom", ("ZOOM_CLIENT_ID", "ZOOM_CLIENT_SECRET"), lambda: (rs(B62, 22), rs(B62, 32)), "https://zoom.us/oauth/token", "-u {t}:{t2}")
S("asana_pat", "Asana", "ASANA_ACCESS_TOKEN", lambda: f"2/{rs(D, 16)}/{rs(D, 16)}:{rs(HEX, 32)}", "https://app.asana.com/api/1.0/users/me")
S("airtable_pat", "Airtable", "AIRTABLE_API_KEY", lambda: f"pat{rs(B62, 14)}.{rs(HEX, 64)}", "https://api.airtable.com/v0/meta/whoami")
S("dropbox_token", "Dropbox", "DROPBOX_ACCESS_TOKEN", lambda: "sl.u." + rs(B64U, 140), "https://api.dropboxapi.com/2/users/get_current_account")
S("box_developer_token", "Box", "BOX_DEVELOPER_TOKEN", lambda: rs(B62, 32), "https://api.box.com/2.0/users/me", bare=False)
S("figma_token", "Figma", "FIGMA_TOKEN", lambda: "figd_" + rs(B64U, 40), "https://api.figma.com/v1/me", "X-Figma-Token: {t}")
S("contentful_token", "Contentful", "CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + rs(B64U, 43), "https://api.contentful.com/spaces")
S("segment_token", "Segment", "SEGMENT_PUBLIC_API_TOKEN", lambda: "sgp_" + rs(B62, 64), "https://api.segmentapis.com/workspaces")
S("mixpanel_secret", "Mixpanel", ("MIXPANEL_SA_USERNAME", "MIXPANEL_SA_SECRET"), lambda: (f"exports.{rs(HEX, 6)}.mp-service-account", rs(B62, 32)), "https://eu.mixpanel.com/api/app/me", "-u {t}:{t2}")
S("amplitude_keys", "Amplitude", ("AMPLITUDE_API_KEY", "AMPLITUDE_SECRET_KEY"), lambda: (rs(HEX, 32), rs(HEX, 32)), "https://amplitude.com/api/2/export", "-u {t}:{t2}")
S("intercom_token", "Intercom", "INTERCOM_ACCESS_TOKEN", _intercom, "https://api.intercom.io/me")
S("zendesk_token", "Zendesk", ("ZENDESK_EMAIL", "ZENDESK_API_TOKEN"), lambda: (email(), rs(B62, 40)), "https://acme.zendesk.com/api/v2/users/me.json", "-u {t}/token:{t2}")
S("hubspot_pat", "HubSpot", "HUBSPOT_ACCESS_TOKEN", lambda: f"pat-{pick(['na1', 'eu1'])}-{uuid4()}", "https://api.hubapi.com/crm/v3/objects/contacts")
S("salesforce_session", "Salesforce", "SF_ACCESS_TOKEN", lambda: "00D" + rs(B62, 12) + "!AQ" + rs(B62 + ".", 94), "https://acme.my.salesforce.com/services/data/v61.0/sobjects")
S("twitch_secret", "Twitch", ("TWITCH_CLIENT_ID", "TWITCH_CLIENT_SECRET"), lambda: (rs(LOWNUM, 30), rs(LOWNUM, 30)), "https://id.twitch.tv/oauth2/token",
  "-d client_id={t} -d client_secret={t2} -d grant_type=client_credentials")
S("facebook_access_token", "Meta Graph API", "FB_ACCESS_TOKEN", lambda: "EAA" + pick("BGIJ") + rs(B62, R.randint(150, 190)), "https://graph.facebook.com/v19.0/me?access_token={t}")
S("age_secret_key", "age", "SOPS_AGE_KEY", lambda: bech32("age-secret-key-", _to5(rbytes(32))).upper(), hdr="NONE")
S("tailscale_auth_key", "Tailscale", "TS_AUTHKEY", lambda: f"tskey-auth-k{rs(B62, 10)}CNTRL-{rs(B62, 33)}", "https://api.tailscale.com/api/v2/tailnet/-/devices")
S("tailscale_api_key", "Tailscale", "TAILSCALE_API_KEY", lambda: f"tskey-api-k{rs(B62, 10)}CNTRL-{rs(B62, 33)}", "https://api.tailscale.com/api/v2/tailnet/-/keys")
S("flyio_token", "Fly.io", "FLY_API_TOKEN", lambda: "fo1_" + rs(B64U, 43), "https://api.machines.dev/v1/apps?org_slug=personal")
S("render_key", "Render", "RENDER_API_KEY", lambda: "rnd_" + rs(B62, 32), "https://api.render.com/v1/services")
S("railway_token", "Railway", "RAILWAY_TOKEN", lambda: uuid4(), "https://backboard.railway.app/graphql/v2", "Project-Access-Token: {t}", bare=False)
S("resend_key", "Resend", "RESEND_API_KEY", lambda: f"re_{rs(B62, 8)}_{rs(B62, 24)}", "https://api.resend.com/domains")
S("postmark_token", "Postmark", "POSTMARK_SERVER_TOKEN", lambda: uuid4(), "https://api.postmarkapp.com/server", "X-Postmark-Server-Token: {t}", bare=False)
S("cloudinary_url", "Cloudinary", "CLOUDINARY_URL", lambda: f"cloudinary://{rs(D, 15)}:{rs(B64U, 27)}@{pick(['dq', 'hx', 'acme'])}{rs(LOWNUM, 6)}", hdr="NONE")
S("planetscale_password", "PlanetScale", "DATABASE_PASSWORD", lambda: "pscale_pw_" + rs(B64U, 43), hdr="NONE")
S("planetscale_token", "PlanetScale", "PLANETSCALE_SERVICE_TOKEN", lambda: "pscale_tkn_" + rs(B64U, 43), "https://api.planetscale.com/v1/organizations")
S("openrouter_key", "OpenRouter", "OPENROUTER_API_KEY", lambda: "sk-or-v1-" + rs(HEX, 64), "https://openrouter.ai/api/v1/auth/key")
S("deepseek_key", "DeepSeek", "DEEPSEEK_API_KEY", lambda: "sk-" + rs(HEX, 32), "https://api.deepseek.com/user/balance", bare=False)
S("elevenlabs_key", "ElevenLabs", "ELEVENLABS_API_KEY", lambda: "sk_" + rs(HEX, 48), "https://api.elevenlabs.io/v1/user", "xi-api-key: {t}")
S("fireworks_key", "Fireworks AI", "FIREWORKS_API_KEY", lambda: "fw_" + rs(B62, 24), "https://api.fireworks.ai/inference/v1/models")
S("wandb_key", "Weights & Biases", "WANDB_API_KEY", lambda: rs(HEX, 40), "https://api.wandb.ai/graphql", "-u api:{t}", bare=False)
S("clerk_secret_key", "Clerk", "CLERK_SECRET_KEY", lambda: "sk_live_" + rs(B62, 42), "https://api.clerk.com/v1/users")
S("circleci_token", "CircleCI", "CIRCLE_TOKEN", lambda: f"CCIPAT_{rs(B62, 22)}_{rs(HEX, 40)}", "https://circleci.com/api/v2/me", "Circle-Token: {t}")
S("jfrog_reference_token", "JFrog Artifactory", "ARTIFACTORY_TOKEN", lambda: "cmVmdGtuOjAxOjE3" + rs(B62, 48), "https://acme.jfrog.io/artifactory/api/repositories")
S("sonarqube_token", "SonarQube", "SONAR_TOKEN", lambda: pick(["squ_", "sqp_", "sqa_"]) + rs(HEX, 40), "https://sonarcloud.io/api/authentication/validate", "-u {t}:")
S("launchdarkly_key", "LaunchDarkly", "LAUNCHDARKLY_SDK_KEY", lambda: pick(["sdk-", "api-"]) + uuid4(), "https://app.launchdarkly.com/api/v2/projects", "Authorization: {t}")
S("prefect_key", "Prefect Cloud", "PREFECT_API_KEY", lambda: "pnu_" + rs(B62, 36), "https://api.prefect.cloud/api/me/")
S("ngrok_authtoken", "ngrok", "NGROK_AUTHTOKEN", lambda: "2" + rs(B62, 26) + "_" + rs(B62, 21), "https://api.ngrok.com/tunnels", bare=False)
S("pulumi_token", "Pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + rs(HEX, 40), "https://api.pulumi.com/api/user", "Authorization: token {t}")
S("dynatrace_token", "Dynatrace", "DT_API_TOKEN", lambda: f"dt0c01.{rs(UPNUM, 24)}.{rs(UPNUM, 64)}", "https://abc12345.live.dynatrace.com/api/v2/entities", "Authorization: Api-Token {t}")
S("readme_key", "ReadMe", "README_API_KEY", lambda: "rdme_" + rs(LOWNUM, 70), "https://dash.readme.com/api/v1", "-u {t}:")
S("flutterwave_secret", "Flutterwave", "FLW_SECRET_KEY", lambda: f"FLWSECK-{rs(HEX, 32)}-X", "https://api.flutterwave.com/v3/transactions")
S("razorpay_keys", "Razorpay", ("RAZORPAY_KEY_ID", "RAZORPAY_KEY_SECRET"), lambda: ("rzp_live_" + rs(B62, 14), rs(B62, 24)), "https://api.razorpay.com/v1/payments", "-u {t}:{t2}")
S("paystack_secret", "Paystack", "PAYSTACK_SECRET_KEY", lambda: "sk_live_" + rs(HEX, 40), "https://api.paystack.co/transaction")
S("shippo_token", "Shippo", "SHIPPO_API_TOKEN", lambda: "shippo_live_" + rs(HEX, 40), "https://api.goshippo.com/addresses/", "Authorization: ShippoToken {t}")
S("easypost_key", "EasyPost", "EASYPOST_API_KEY", lambda: "EZAK" + rs(HEX, 54), "https://api.easypost.com/v2/shipments", "-u {t}:")
S("nvidia_api_key", "NVIDIA NGC", "NGC_API_KEY", lambda: "nvapi-" + rs(B64U, 64), "https://integrate.api.nvidia.com/v1/models")
S("teams_webhook", "Microsoft Teams", "TEAMS_WEBHOOK_URL", lambda: f"https://acme.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{rs(HEX, 32)}/{uuid4()}/V2{rs(B64U, 43)}", hdr="POST")
S("bitwarden_access_token", "Bitwarden Secrets Manager", "BWS_ACCESS_TOKEN", lambda: f"0.{uuid4()}.{rs(B62, 30)}:{b64(rbytes(16))}", hdr="NONE")
S("harness_pat", "Harness", "HARNESS_PLATFORM_API_KEY", lambda: f"pat.{rs(B64U, 22)}.{rs(HEX, 24)}.{rs(B62, 20)}", "https://app.harness.io/ng/api/user/currentUser", "x-api-key: {t}")
S("langfuse_secret_key", "Langfuse", ("LANGFUSE_PUBLIC_KEY", "LANGFUSE_SECRET_KEY"), lambda: ("pk-lf-" + uuid4(), "sk-lf-" + uuid4()), "https://cloud.langfuse.com/api/public/traces", "-u {t}:{t2}")
S("cerebras_key", "Cerebras", "CEREBRAS_API_KEY", lambda: "csk-" + rs(LOWNUM, 48), "https://api.cerebras.ai/v1/models")
S("twitter_bearer", "X (Twitter) API", "TWITTER_BEARER_TOKEN", lambda: "AAAAAAAAAAAAAAAAAAAAA" + rs(B62, 25) + "%3D" + rs(B62, 50), "https://api.twitter.com/2/users/me")
S("typeform_token", "Typeform", "TYPEFORM_TOKEN", lambda: f"tfp_{rs(B62, 44)}_{rs(B62, 14)}", "https://api.typeform.com/forms")
S("confluent_api_secret", "Confluent Cloud", ("CONFLUENT_API_KEY", "CONFLUENT_API_SECRET"), lambda: (rs(UPNUM, 16), rs(B64S, 64)), "https://api.confluent.cloud/iam/v2/api-keys", "-u {t}:{t2}")
S("clickup_token", "ClickUp", "CLICKUP_API_TOKEN", lambda: f"pk_{rs(D, 8)}_{rs(UPNUM, 32)}", "https://api.clickup.com/api/v2/user", "Authorization: {t}")
S("trello_token", "Trello", ("TRELLO_API_KEY", "TRELLO_TOKEN"), lambda: (rs(HEX, 32), "ATTA" + rs(HEX, 64) + rs(HEXU, 8)), "https://api.trello.com/1/members/me?key={t}&token={t2}")
S("pagerduty_token", "PagerDuty", "PAGERDUTY_API_TOKEN", lambda: "u+" + rs(B64U, 18), "https://api.pagerduty.com/users", "Authorization: Token token={t}", bare=False)
S("deepl_key", "DeepL", "DEEPL_AUTH_KEY", lambda: uuid4() + ":fx", "https://api-free.deepl.com/v2/usage", "Authorization: DeepL-Auth-Key {t}", bare=False)
S("jina_key", "Jina AI", "JINA_API_KEY", lambda: "jina_" + rs(HEX, 32) + rs(B62, 28), "https://r.jina.ai/https://example.org")
S("firecrawl_key", "Firecrawl", "FIRECRAWL_API_KEY", lambda: "fc-" + rs(HEX, 32), "https://api.firecrawl.dev/v1/crawl")
S("e2b_key", "E2B", "E2B_API_KEY", lambda: "e2b_" + rs(HEX, 40), "https://api.e2b.dev/sandboxes", "X-API-Key: {t}")
S("modal_token", "Modal", ("MODAL_TOKEN_ID", "MODAL_TOKEN_SECRET"), lambda: ("ak-" + rs(B62, 22), "as-" + rs(B62, 22)), hdr="NONE")
S("neon_api_key", "Neon", "NEON_API_KEY", lambda: "napi_" + rs(LOWNUM, 64), "https://console.neon.tech/api/v2/projects")
S("brevo_key", "Brevo", "BREVO_API_KEY", lambda: f"xkeysib-{rs(HEX, 64)}-{rs(B62, 16)}", "https://api.brevo.com/v3/account", "api-key: {t}")
S("telnyx_key", "Telnyx", "TELNYX_API_KEY", lambda: f"KEY0{rs(HEXU, 31)}_{rs(B62, 22)}", "https://api.telnyx.com/v2/balance")
S("ably_key", "Ably", "ABLY_API_KEY", lambda: f"{rs(B64U, 6)}.{rs(B64U, 6)}:{rs(B64U, 43)}", "https://rest.ably.io/channels", "-u {t}", bare=False)
S("mollie_key", "Mollie", "MOLLIE_API_KEY", lambda: "live_" + rs(B62, 30), "https://api.mollie.com/v2/payments")
S("vonage_secret", "Vonage", ("VONAGE_API_KEY", "VONAGE_API_SECRET"), lambda: (rs(HEX, 8), rs(B62, 16)), "https://rest.nexmo.com/account/get-balance?api_key={t}&api_secret={t2}")
S("kaggle_key", "Kaggle", ("KAGGLE_USERNAME", "KAGGLE_KEY"), lambda: (pick(FIRST) + pick(SURN).replace("-", ""), rs(HEX, 32)), "https://www.kaggle.com/api/v1/competitions/list", "-u {t}:{t2}")

# ------------------------------------------------------------ token contexts
EN_TOK = [
    "Here's my {vendor} API key so you have it for later: {tok}", "Save this. {vendor} token for the side project: {tok}",
    "For the record, the production {vendor} credential is {tok} - don't share it with anyone.", "{vendor} key (personal account): {tok}",
    "I generated a new {vendor} token today, it's {tok}; the old one is revoked.", "If the nightly job breaks again, it talks to {vendor} with {tok}",
    "remember my {vendor} secret pls: {tok}", "Client asked me to keep their {vendor} access handy: {tok} (valid until end of quarter)",
    "Can you hold on to this for me? {vendor}: {tok}", "Onboarding notes for Ravi - {vendor} creds are {tok}, paste them into the CI settings.",
]
LANG_TOK = [
    ("de", "Mein {vendor}-API-Schlüssel lautet {tok} – bitte gut aufbewahren."),
    ("fr", "Voici ma clé API {vendor} : {tok}. Garde-la pour le projet."), ("es", "Mi clave de API de {vendor} es {tok}, guárdala por favor."),
    ("pt", "A minha chave da API do {vendor} é {tok} — não partilhar."), ("it", "La chiave API di {vendor} che uso in produzione è {tok}."),
    ("nl", "Mijn {vendor} API-sleutel is {tok}, bewaar die even voor me."), ("pl", "Mój klucz API do {vendor}: {tok} (nie udostępniać)."),
    ("ja", "{vendor}のAPIキーは {tok} です。覚えておいてください。"), ("zh", "我的{vendor} API密钥是 {tok}，帮我记一下。"),
    ("ko", "내 {vendor} API 키는 {tok} 이야. 기억해 줘."), ("tr", "{vendor} API anahtarım şu: {tok} — lütfen sakla."),
    ("sv", "Min API-nyckel till {vendor} är {tok}, spara den åt mig."), ("ru", "Мой API-ключ {vendor}: {tok}, сохрани, пожалуйста."),
    ("cs", "Můj API klíč pro {vendor} je {tok}, nikomu ho neposílej."), ("id", "Kunci API {vendor} saya adalah {tok}, tolong simpan."),
    ("vi", "Khóa API {vendor} của tôi là {tok}, nhớ giúp tôi nhé."), ("de", "Das {vendor}-Token für den Build-Server: {tok}"),
    ("fr", "Jeton {vendor} pour le serveur d'intégration : {tok}"), ("es", "El token de {vendor} del servidor de pruebas es {tok}"),
    ("pt", "Token do {vendor} pra automação: {tok}"), ("ja", "ビルドサーバー用の{vendor}トークン：{tok}"),
    ("zh", "公司{vendor}的访问令牌：{tok}（不要外传）"), ("it", "Token {vendor} per lo script di backup: {tok}"),
    ("nl", "Token voor {vendor} (productie): {tok}"),
]
_lang_i = [0]

def tokstr(E): return E[0][1] if len(E) == 1 else " / ".join(v for _, v in E)
def c_en(s, E): return {"text": pick(EN_TOK).format(vendor=s.vendor, tok=tokstr(E))}

def c_lang(s, E):
    lang, t = LANG_TOK[_lang_i[0] % len(LANG_TOK)]
    _lang_i[0] += 1
    return {"text": t.format(vendor=s.vendor, tok=tokstr(E)), "lang": lang}

def c_env(s, E):
    lines = [f"# {s.vendor}"] + [f"{e}={v}" for e, v in E]
    lines = pick([["NODE_ENV=production", "PORT=8080"], ["LOG_LEVEL=info"], ["APP_NAME=carebot", "TZ=Europe/Berlin"]]) + lines
    return {"file": pick([".env", ".env.production", ".env.local", "config/.env"]), "content": "\n".join(lines)}

def c_yaml(s, E):
    body = "".join(f"  {e.lower()}: {v}\n" for e, v in E)
    return {"text": f"settings.yaml:\n{slug(s.vendor)}:\n{body}  timeout_seconds: 30\n  retries: 3"}

def c_toml(s, E):
    body = "\n".join(f'{e.lower()} = "{v}"' for e, v in E)
    return {"snippet": f"[{slug(s.vendor)}]\n{body}\nregion = \"eu\"", "format": "toml"}

def c_json(s, E):
    return {"integration": s.vendor, "environment": pick(["prod", "staging", "personal"]),
        "credentials": {e.lower(): v for e, v in E}, "added": rdate()}

def c_export(s, E): return {"text": f"added to ~/.{pick(['zshrc', 'bashrc', 'profile'])}:\n" + "\n".join(f"export {e}='{v}'" for e, v in E)}

def c_compose(s, E):
    envs = "".join(f"      - {e}={v}\n" for e, v in E)
    return {"text": f"services:\n  worker:\n    image: ghcr.io/acme/worker:1.{R.randint(2, 9)}\n    environment:\n{envs}    restart: unless-stopped"}

def c_k8s(s, E):
    data = "".join(f"  {e}: \"{v}\"\n" for e, v in E)
    return {"text": f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {slug(s.vendor).replace('_', '-')}-credentials\ntype: Opaque\nstringData:\n{data}"}

def c_code(s, E):
    k = R.randrange(3)
    if k == 0:
        return {"text": "\n".join(f'os.environ["{e}"] = "{v}"' for e, v in E), "language": "python"}
    if k == 1:
        return {"text": "\n".join(f'const {e} = "{v}";' for e, v in E), "language": "javascript"}
    return {"text": "\n".join(f'os.Setenv("{e}", "{v}")' for e, v in E), "language": "go"}

def c_curl(s, E):
    t, t2 = E[0][1], E[-1][1]
    url = s.url or f"https://api.{slug(s.vendor)}.com/v1/me"
    if s.hdr == "NONE":
        return c_lang(s, E)
    if s.hdr == "POST":
        cmd = f"curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"backup finished\"}}' {t}"
    elif s.hdr == "RPC":
        cmd = f"curl {t} -X POST -H 'Content-Type: application/json' --data '{{\"jsonrpc\":\"2.0\",\"method\":\"eth_blockNumber\",\"params\":[],\"id\":1}}'"
    elif "{t" in url:
        cmd = f'curl -s "{url.format(t=t, t2=t2)}"'
    elif s.hdr.startswith("-"):
        cmd = f"curl -s {s.hdr.format(t=t, t2=t2)} {url}"
    else:
        cmd = f'curl -s {url} -H "{s.hdr.format(t=t, t2=t2)}"'
    return {"text": pick(["working request from yesterday:\n", "", "to test the key:\n"]) + cmd}

def c_bare(s, E):
    if not s.bare:
        return c_en(s, E)
    return pick([E[0][1], {"text": E[0][1]}, {"text": E[0][1] + "\n"}])

CONFIG_CTX = [c_env, c_yaml, c_toml, c_json, c_export, c_compose, c_k8s, c_code]
THIRD_CTX = [c_curl, c_bare, c_lang, c_curl, c_en, c_bare]

def build_tokens():
    for i, s in enumerate(SPECS):
        first = c_en if i % 2 == 0 else c_lang
        for ctx in (first, CONFIG_CTX[i % len(CONFIG_CTX)], THIRD_CTX[i % len(THIRD_CTX)]):
            sec(s.kind, ctx(s, s.entries()))

# ================================================= passwords, PINs, codes
PW_WORDS = ["Marmalade", "Falcon", "Tulipan", "Sonnenblume", "Papillon", "Girasol", "Borboleta", "Nebbia",
            "Zeppelin", "Lighthouse", "Krokodil", "Mariposa", "Pingwin", "Tanuki", "Saffron", "Obsidian",
            "Glacier", "Hibiscus", "Cobalt", "Harbour", "Walnuss", "Citrouille", "Limonada", "Kastanje"]
SYM = "!@#$%*?+=_-.:"
LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7"}

def password():
    k = R.randrange(6)
    if k == 0:
        return pick(PW_WORDS) + str(R.randint(10, 2029)) + pick(SYM)
    if k == 1:
        return rs(B62 + "!@#$%^*", R.randint(12, 20))
    if k == 2:
        return "-".join(pick(PW_WORDS).lower() for _ in range(3)) + str(R.randint(1, 99))
    if k == 3:
        w = pick(PW_WORDS)
        return w[0] + "".join(LEET.get(c, c) if R.random() < .6 else c for c in w[1:]) + pick(SYM) + rs(D, 2)
    if k == 4:
        return pick(SYM) + pick(PW_WORDS)[:5] + rs(D, 3) + pick(PW_WORDS).lower()[:4]
    return rs(LO, 4) + rs(D, 2) + rs(UP, 2) + pick(SYM) + rs(LOWNUM, 4)

def qpw(pw=None): return urllib.parse.quote(pw or password(), safe="-_.~!*")  # URI-safe (percent-encoded) password

def pin(n=4):
    while True:
        p = rs(D, n)
        if len(set(p)) >= min(3, n - 1) and p not in "01234567890" and p not in "98765432109":
            return p

PW_PROSE = [
    ("en", "my wifi password is {pw}"), ("en", "the code to the garage app is {pw}"),
    ("en", "Netflix login: {email} / {pw} (shared with my sister)"),
    ("en", "Please retain the following for the patient portal: username {user}, password {pw}."),
    ("en", "lol ok so my steam pw is {pw} dont tell anyone"), ("en", "Work laptop BIOS password: {pw}"),
    ("en", "The guest network at the cabin uses {pw} as the passphrase."), ("en", "If I forget again: the Synology admin password is {pw}"),
    ("en", "Password for the pharmacy app: {pw}"), ("en", "Gmail account {email}, password {pw} - recovery phone is mine."),
    ("en", "Changed the router admin password to {pw} after the ISP visit."), ("en", "The zip file from the accountant opens with {pw}"),
    ("en", "VPN: user {user}, pass {pw}"), ("en", "Insurance portal login is {user} and the password is {pw}."),
    ("en", "Note for Ana: the shared Disney+ password is now {pw}"),
    ("en", "My old password for everything was {pw}, I still need to change it on a few sites."),
    ("en", "Encryption passphrase for the backup drive: {pw}"), ("en", "Remember: MyChart password = {pw}"),
    ("en", "Use {pw} to unlock the KeePass database on the USB stick."), ("en", "Mom's Facebook - she asked me to keep it: {email} pw {pw}"),
    ("de", "Das WLAN-Passwort bei Oma ist {pw}"), ("de", "Mein Passwort fürs Online-Banking lautet {pw}."),
    ("de", "Zugang zur Krankenkassen-App: Benutzer {user}, Kennwort {pw}"), ("fr", "Le mot de passe du Wi-Fi de la maison : {pw}"),
    ("fr", "Mon mot de passe Ameli est {pw}, ne l'oublie pas."), ("es", "La contraseña de mi correo es {pw}"),
    ("es", "La clave del wifi del piso es {pw}"), ("pt", "A senha do banco é {pw}"),
    ("pt", "Senha do Wi-Fi da casa da praia: {pw}"), ("it", "La password del router è {pw}"),
    ("it", "Password del fascicolo sanitario: {pw}"), ("nl", "Het wachtwoord van de NAS is {pw}"),
    ("nl", "DigiD wachtwoord: {pw}"), ("pl", "Hasło do laptopa: {pw}"),
    ("pl", "Moje hasło do banku to {pw}"), ("ja", "社内VPNのパスワードは{pw}です"),
    ("ja", "Wi-Fiのパスワード：{pw}"), ("zh", "我的邮箱密码是{pw}"),
    ("zh", "家里WiFi密码：{pw}"), ("ko", "내 인스타 비밀번호는 {pw}야"),
    ("ko", "회사 메일 비밀번호: {pw}"), ("tr", "E-devlet şifrem {pw}"),
    ("tr", "Modemin şifresi {pw}, misafirlere verebilirsin."), ("sv", "Lösenordet till routern är {pw}"),
    ("sv", "Mitt lösenord till 1177 är {pw}"), ("ru", "Пароль от госуслуг: {pw}"),
    ("ru", "Пароль от вайфая на даче — {pw}"), ("cs", "Heslo k wifi je {pw}"),
    ("hi", "मेरा ईमेल पासवर्ड {pw} है"), ("ar", "كلمة المرور للواي فاي هي {pw}"),
]

def build_password_prose():
    for lang, t in PW_PROSE:
        sec("password_prose", {"text": t.format(pw=password(), user=user(), email=email()), "lang": lang})

def _cfg_lines(pw, u):
    h, q = pick(["db.internal", "10.0.4.17", "pg-main.acme.io", "mysql.prod.local", "nas.home.arpa"]), qpw(pw)
    return [
        ("ini", f"[database]\nhost = {h}\nuser = {u}\npassword = {pw}\nport = 5432"),
        ("yaml", f"spring:\n  datasource:\n    url: jdbc:postgresql://{h}:5432/clinic\n    username: {u}\n    password: {pw}"),
        ("properties", f"db.url=jdbc:mysql://{h}:3306/shop\ndb.user={u}\ndb.password={pw}"),
        ("xml", f'<appSettings>\n  <add key="SmtpUser" value="{u}" />\n  <add key="SmtpPassword" value="{pw}" />\n</appSettings>'),
        ("xml", f'<connectionStrings>\n  <add name="Main" connectionString="Server={h};Database=Billing;User Id={u};Password={pw};" />\n</connectionStrings>'),
        ("jdbc", f"jdbc:postgresql://{h}:5432/records?user={u}&password={q}&ssl=true"),
        ("jdbc", f"jdbc:sqlserver://{h}:1433;databaseName=Payroll;user=sa;password={pw};encrypt=true"),
        ("jdbc", f"jdbc:oracle:thin:{u}/{pw}@{h}:1521/ORCLPDB1"),
        ("odbc", f"Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:{h},1433;Database=Lab;Uid={u};Pwd={pw};Encrypt=yes;"),
        ("shell", f"redis-cli -h {h} -p 6379 -a '{pw}' --no-auth-warning"),
        ("redis", f"AUTH default {pw}"),
        ("netrc", f"machine api.heroku.com\n  login {email()}\n  password {pw}"),
        ("pgpass", f"{h}:5432:*:{u}:{pw}"),
        ("shell", f"htpasswd -b -c /etc/nginx/.htpasswd {u} '{pw}'"),
        ("shell", f"docker login registry.acme.io -u {u} -p '{pw}'"),
        ("shell", f"mysql -h {h} -u root -p'{pw}' clinic < dump.sql"),
        ("shell", f"sshpass -p '{pw}' ssh {u}@{h}"),
        ("shell", f"git clone https://{u}:{q}@git.acme.io/health/intake.git"),
        ("php", f"define( 'DB_USER', '{u}' );\ndefine( 'DB_PASSWORD', '{pw}' );"),
        ("php", f"$db_host = '{h}';\n$db_pass = '{pw}';"),
        ("pip", f"[global]\nindex-url = https://{u}:{q}@pypi.acme.io/simple"),
        ("yaml", f"ansible_user: {u}\nansible_become_password: {pw}"),
        ("hcl", f'resource "azurerm_mssql_server" "main" {{\n  administrator_login          = "{u}"\n  administrator_login_password = "{pw}"\n}}'),
        ("shell", f"net use Z: \\\\nas\\family {pw} /user:{u}"),
        ("shell", f"nmcli dev wifi connect \"Casa-{rs(UPNUM, 4)}\" password '{pw}'"),
        ("wpa", f'network={{\n    ssid="HomeNet-{rs(UPNUM, 4)}"\n    psk="{pw}"\n}}'),
        ("smb", f"username={u}\npassword={pw}\ndomain=WORKGROUP"),
        ("env", f"MAIL_HOST=smtp.{pick(MAILDOM)}\nMAIL_USERNAME={email()}\nMAIL_PASSWORD={pw}"),
        ("python", f"DATABASES = {{'default': {{'ENGINE': 'django.db.backends.postgresql', 'NAME': 'app', 'USER': '{u}', 'PASSWORD': '{pw}', 'HOST': '{h}'}}}}"),
        ("properties", f'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="{u}" password="{pw}";'),
        ("ini", f"[default]\ndefault_user = {u}\ndefault_pass = {pw}"),
        ("shell", f'ldapsearch -x -H ldap://{h} -D "cn=admin,dc=acme,dc=io" -w \'{pw}\' -b "dc=acme,dc=io"'),
        ("text", f"auth-user-pass file for OpenVPN:\n{u}\n{pw}"),
        ("yaml", f"smtp:\n  host: smtp.office365.com\n  port: 587\n  username: {email()}\n  password: \"{pw}\""),
    ]

def build_password_config():
    # one record per config format, each with a fresh password/user (the list is rebuilt per record)
    n = len(_cfg_lines("x", "y"))
    for i in range(n):
        fmt, text = _cfg_lines(password(), user())[i]
        sec("password_config", {"text": text, "format": fmt})

PW_FIELDS = [("user", "pass"), ("username", "password"), ("usuario", "contraseña"), ("Benutzer", "Kennwort"),
             ("identifiant", "mot_de_passe"), ("utente", "password"), ("usuário", "senha"), ("gebruiker", "wachtwoord"),
             ("użytkownik", "hasło"), ("kullanıcı", "şifre"), ("användare", "lösenord"), ("ユーザー名", "パスワード"),
             ("用户名", "密码"), ("아이디", "비밀번호"), ("логин", "пароль"), ("login", "pwd"), ("account", "passphrase"),
             ("email", "passwd")]
SITES = ["netflix.com", "amazon.de", "portal.aok.de", "mychart.example-health.org", "github.com", "bank.ing.nl",
         "caixa.pt", "doctolib.fr", "tk.de", "allegro.pl", "rakuten.co.jp", "naver.com", "ikea.com", "steam"]

def build_password_records():
    for uf, pf in PW_FIELDS:
        rec = {"site": pick(SITES), uf: user() if uf != "email" else email(), pf: password()}
        if R.random() < .4:
            rec["note"] = pick(["shared with family", "work account", "changed in March", "for Mum"])
        sec("password_record", rec)
    sec("password_record", [{"site": s, "login": email(), "password": password()} for s in R.sample(SITES, 3)])
    rows = "\n".join(f"{s},https://{s}/login,{email()},{password()}" for s in R.sample(SITES, 3))
    sec("password_record", {"text": "name,url,username,password\n" + rows, "source": "browser export"})

PIN_PROSE = [
    "My bank card PIN is {p4}", "SIM PIN {p4}, PUK {p8} (the card is in the drawer)",
    "Front door keypad code: {p6}", "Alarm code for the house is {p4}; tell the dog sitter.",
    "The safe in the wardrobe opens with {p6}", "Parking garage gate code is {p4}#",
    "iPhone passcode: {p6}", "Kid's tablet parental-control PIN is {p4}",
    "Voicemail PIN {p4}", "Grandma's medication lockbox combination: {p4}",
    "Meine EC-Karten-PIN ist {p4}", "Le code de la porte de l'immeuble est {p4}B, et celui de la carte bleue {p4b}.",
    "El PIN de mi tarjeta es {p4}", "O código do alarme é {p4}",
    "Il PIN del bancomat è {p4}", "De pincode van mijn bankpas is {p4}",
    "PIN do karty: {p4}", "キャッシュカードの暗証番号は{p4}",
    "我的银行卡密码是{p6}", "현관 비밀번호는 {p4}* 야",
    "Kartımın şifresi {p4}", "Portkoden är {p4} och larmkoden {p4b}.",
    "ПИН-код от карты: {p4}", "Unlock code for the shared work phone: {p6}",
]

def build_pins():
    for t in PIN_PROSE:
        sec("pin_prose", {"text": t.format(p4=pin(4), p4b=pin(4), p6=pin(6), p8=pin(8))})
    recs = [
        {"card": "Visa debit (ING)", "pin": pin()},
        {"door_code": pin(6), "building": "Rua das Flores 88"},
        {"sim": {"carrier": "Vodafone", "pin": pin(), "puk": pin(8)}},
        {"alarm": {"disarm_code": pin(), "company": "Verisure"}},
        {"Tresor": {"Kombination": "-".join(str(R.randint(10, 79)) for _ in range(3))}},
        {"código_alarma": pin(), "instalador": "Securitas"},
        {"phone": "Pixel 8", "screen_lock_pin": pin(6)},
        {"garage": {"gate_pin": pin(), "remote": "blue"}},
    ]
    for r in recs:
        sec("pin_record", r)

def build_security_answers():
    items = [
        {"text": f"Security question answers for the Chase account: first pet = {pick(['Biscuit', 'Mochi', 'Pickles', 'Rocco'])}, city where my parents met = {pick(['Tulsa', 'Gdańsk', 'Coimbra'])}"},
        {"account": "PayPal", "security_question": "Mother's maiden name?", "answer": pick(["Oyelaran", "Marchetti", "Kwiatkowska"])},
        {"text": f"Sicherheitsfrage bei der Sparkasse (Name des ersten Haustiers): {pick(['Flocke', 'Bello', 'Krümel'])}"},
        {"text": f"Pregunta de seguridad del banco - ¿nombre de tu primera escuela? Respuesta: {pick(['San Jerónimo', 'Los Pinos'])}"},
        {"text": f"Apple ID security answers: favourite teacher {pick(['Mrs Abernathy', 'Mr Dlamini'])}, first car {pick(['Fiat Panda', 'Corolla'])}, dream job {pick(['astronaut', 'vet'])}"},
        {"security_answers": {"first_street": pick(["Maple Ave", "Rua Augusta"]), "childhood_friend": pick(["Tobias", "Keiko"])}, "for": "Vanguard"},
        {"text": f"Question secrète pour Ameli : nom de jeune fille de la grand-mère → {pick(['Lefebvre', 'Gauthier'])}"},
        {"text": f"If the airline asks for the account verification word, it's '{pick(['pumpernickel', 'tangerine-27', 'overlook'])}'."},
    ]
    for v in items:
        sec("security_answer", v)

def build_recovery_codes():
    gh = " ".join(f"{rs(HEX, 5)}-{rs(HEX, 5)}" for _ in range(16))
    sec("recovery_codes", {"text": f"GitHub recovery codes (keep offline):\n{gh}"})
    sec("recovery_codes", {"service": "Google", "backup_codes": [f"{rs(D, 4)} {rs(D, 4)}" for _ in range(10)]})
    sec("recovery_codes", {"text": "Apple recovery key: " + "-".join(rs(UPNUM, 4) for _ in range(7))})
    sec("recovery_codes", {"text": "BitLocker recovery key for the work laptop: " + "-".join(rs(D, 6) for _ in range(8))})
    sec("recovery_codes", {"text": "1Password Secret Key: A3-" + "-".join([rs(UPNUM, 6), rs(UPNUM, 6)] + [rs(UPNUM, 5) for _ in range(4)])})
    sec("recovery_codes", {"text": "Bitwarden two-step login recovery code: " + " ".join(rs(LOWNUM, 4) for _ in range(8))})
    sec("recovery_codes", {"service": "Discord", "codes": [f"{rs(LOWNUM, 4)}-{rs(LOWNUM, 4)}" for _ in range(10)]})
    sec("recovery_codes", {"text": "Códigos de respaldo de Microsoft: " + ", ".join(rs(UPNUM, 5) + "-" + rs(UPNUM, 5) for _ in range(5))})
    sec("recovery_codes", {"text": "Proton recovery phrase: " + " ".join(R.sample(BIP39, 12))})
    sec("recovery_codes", {"text": "Wiederherstellungscodes Nextcloud: " + " ".join(rs(UPNUM, 10) for _ in range(6))})

def build_totp():
    for _ in range(4):
        iss = pick(["GitHub", "Binance", "Coinbase", "Proton", "Fastmail", "Kraken"])
        sec("totp_secret", {"text": f"otpauth://totp/{iss}:{email()}?secret={rs(B32, 32)}&issuer={iss}&algorithm=SHA1&digits=6&period=30"})
    seed = rs(B32, 32).lower()
    sec("totp_secret", {"text": "2FA setup key for the Binance account: " + " ".join(chunks(seed, 4))})
    sec("totp_secret", {"totp_seed": rs(B32, 16), "issuer": "Coinbase", "account": email()})
    sec("totp_secret", {"text": "Clé de configuration Google Authenticator pour le compte pro : " + " ".join(chunks(rs(B32, 32).lower(), 4))})
    sec("totp_secret", {"text": f"Authy-Geheimnis (manuell eintragen): {rs(B32, 26)}"})
    sec("totp_secret", {"text": f"otpauth://totp/AWS%20SSO:{user()}?secret={rs(B32, 64)}&issuer=Amazon%20Web%20Services"})
    sec("totp_secret", {"mfa": {"type": "totp", "secret": rs(B32, 32), "label": "Okta Verify"}})

# ====================================================== keys and crypto
BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve
acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance
advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien
all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst anchor
ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology
appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art
artefact artist artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract
auction audit august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby
bachelor bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle
beach bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better
between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind
blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow boss bottom
bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli broken
bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden burger burst
bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy
cannon canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash casino castle
casual cat catalog catch category cattle caught cause caution cave ceiling celery cement census century cereal
certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry chest chicken chief
child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city civil claim clap clarify
claw clay clean clerk clever click client cliff climb clinic clip clock clog close cloth cloud clown club clump
cluster clutch coach coast coconut code coffee coil coin collect color column combine come comfort comic common
company concert conduct confirm congress connect consider control convince cook cool copper copy coral core corn
correct cost cotton couch country couple course cousin cover coyote crack cradle craft cram crane crash crater crawl
crazy cream credit creek crew cricket crime crisp critic crop cross crouch crowd crucial cruel cruise crumble crunch
crush cry crystal cube culture cup cupboard curious current curtain curve cushion custom cute cycle dad damp dawn
daughter debris december deer dentist desert diesel dinosaur dizzy dolphin dragon duck dwarf dynamic eagle egg eight
elegant elephant embark emerge enemy engine erosion escape eternal evolve exile exotic express fabric faculty famous
fashion father fence festival flamingo flavor fluid forest fossil fringe frozen furnace future gadget garden garlic
genius giant giraffe goose gorilla gospel grape gravity guard guitar hammer harvest helmet hero history hockey hollow
honey horse hospital humor hungry hurdle hybrid icon illness impulse index infant injury inmate iron island ivory
jaguar jelly jewel journey juice kangaroo ketchup kidney kingdom kitten kiwi ladder lamp language lava laundry lawsuit
legend lemon leopard library limb lion liquid lizard lobster lottery lunar luxury lyrics machine magnet mammal mango
marble maze meadow melody merit mesh method midnight million mirror mixture moment monkey motor mountain museum
mushroom mystery myth napkin nature neutral nephew night ninja noble noodle notable nuclear number oak obtain ocean
olympic orange orbit orphan owner oyster paddle palace panel panther parrot party patient patrol peanut pelican
penalty pepper phone phrase piano pigeon pilot pink pistol pizza planet pole pony portion position potato pottery
predict pride problem prosper public pulse pumpkin pupil puzzle pyramid quantum quiz rabbit rally rather raven razor
recycle region release remind rescue result review reward rhythm ripple ritual river robot rocket round royal rubber
rural saddle salad salmon satoshi scatter scheme school scissors scout season security segment seminar session
settle shadow sheriff shell shield ship shoulder shrimp silent silver siren skull slim slogan smile snow soap social
soldier solution soul source space speak spell spider spirit spoon spring squirrel stage steel stick still stock
stove street struggle stumble style subway sugar sunset survey swim sword symbol table talent task tent tenant test
thank theory thunder ticket tissue toilet tomato tooth topic tornado tower toward travel trial tribe truck trust tube
tunnel turtle twenty twist typical ugly umbrella uncle unique unlock until unveil update urban useful usual valley
venue verb vessel video village virus visit vivid wagon warrior water wave wealth weasel weather whale wheel whisper
wide wild window wine winter wisdom wolf world worth wrist write wrong year yellow young youth zero zone zoo""".split()

def mnemonic(n=12): return " ".join(pick(BIP39) for _ in range(n))
def pem(label, der, width=64): return f"-----BEGIN {label}-----\n{wrap(b64(der), width)}\n-----END {label}-----"
def rsa_der():
    return (b"\x30\x82\x04\xa4\x02\x01\x00\x02\x82\x01\x01\x00" + rbytes(256) + b"\x02\x03\x01\x00\x01\x02\x82\x01\x00"
        + rbytes(1192 - 12 - 256 - 9))

def pkcs8_der():
    return b"\x30\x82\x04\xbd\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00\x04\x82\x04\xa7" + rsa_der()[:1191]

def ec_der():
    return (b"\x30\x77\x02\x01\x01\x04\x20" + rbytes(32) + b"\xa0\x0a\x06\x08\x2a\x86\x48\xce\x3d\x03\x01\x07\xa1\x44\x03\x42\x00\x04"
            + rbytes(64))

def openssh_priv(comment):
    pk, sk = rbytes(32), rbytes(32)
    pub = sshstr(b"ssh-ed25519") + sshstr(pk)
    check = rbytes(4)
    priv = check + check + pub + sshstr(sk + pk) + sshstr(comment.encode())
    priv += bytes(range(1, 1 + (-len(priv)) % 8))
    blob = b"openssh-key-v1\0" + sshstr(b"none") + sshstr(b"none") + sshstr(b"") + struct.pack(">I", 1) + sshstr(pub) + sshstr(priv)
    return pem("OPENSSH PRIVATE KEY", blob, 70)

def pgp_priv():
    body = wrap(b64(b"\x95\x03\xc6\x04" + rbytes(900)), 64)
    return f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{body}\n={b64(rbytes(3))}\n-----END PGP PRIVATE KEY BLOCK-----"

def build_private_keys():
    c = f"{pick(FIRST)}@{pick(['laptop', 'nas', 'build-01', 'macbook'])}"
    items = [
        ("private_key_rsa", {"text": "deploy key for the backup server:\n" + pem("RSA PRIVATE KEY", rsa_der())}),
        ("private_key_rsa", pem("RSA PRIVATE KEY", rsa_der())),
        ("private_key_rsa", {"text": "Mein SSH-Schlüssel für den Praxis-Server:\n" + pem("RSA PRIVATE KEY", rsa_der())}),
        ("private_key_pkcs8", {"text": pem("PRIVATE KEY", pkcs8_der())}),
        ("private_key_pkcs8", {"file": "tls/server.key", "content": pem("PRIVATE KEY", pkcs8_der())}),
        ("private_key_ec", {"text": "EC key for the webhook signer\n" + pem("EC PRIVATE KEY", ec_der())}),
        ("private_key_ec", {"text": "Clave privada del certificado de la FNMT:\n" + pem("EC PRIVATE KEY", ec_der())}),
        ("private_key_ec", {"snippet": pem("EC PRIVATE KEY", ec_der()), "note": "APNs signing key"}),
        ("private_key_openssh", {"text": "~/.ssh/id_ed25519:\n" + openssh_priv(c)}),
        ("private_key_openssh", openssh_priv(c)),
        ("private_key_openssh", {"text": "Chiave SSH del Raspberry, copiala sul nuovo portatile:\n" + openssh_priv(c)}),
        ("private_key_openssh", {"key_name": "github-deploy", "private_key": openssh_priv(c)}),
        ("private_key_pgp", {"text": "my GPG secret key export (gpg --export-secret-keys --armor):\n" + pgp_priv()}),
        ("private_key_pgp", pgp_priv()),
        ("private_key_putty", {"text": f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: {c}\nPublic-Lines: 2\n"
                               f"{wrap(b64(sshstr(b'ssh-ed25519') + sshstr(rbytes(32))), 64)}\nPrivate-Lines: 1\n{b64(sshstr(rbytes(32)))}\nPrivate-MAC: {rs(HEX, 64)}"}),
        ("private_key_wireguard", {"text": f"[Interface]\nPrivateKey = {b64(rbytes(32))}\nAddress = 10.8.0.{R.randint(2, 250)}/24\nDNS = 1.1.1.1\n\n[Peer]\nPublicKey = {b64(rbytes(32))}\nEndpoint = vpn.{pick(SURN)}.net:51820\nAllowedIPs = 0.0.0.0/0"}),
        ("private_key_wireguard", {"text": f"WireGuard-Schlüssel fürs Handy: PrivateKey = {b64(rbytes(32))}"}),
    ]
    for _ in range(3):
        proj = f"{pick(['carebot', 'intake', 'acme-health', 'orion'])}-{R.randint(100000, 999999)}"
        items.append(("gcp_service_account_key", {"type": "service_account", "project_id": proj, "private_key_id": rs(HEX, 40),
                      "private_key": pem("PRIVATE KEY", pkcs8_der()) + "\n", "client_email": f"svc-ingest@{proj}.iam.gserviceaccount.com",
                      "client_id": rs(D, 21), "token_uri": "https://oauth2.googleapis.com/token"}))
    for kind, v in items:
        sec(kind, v)

def wif(compressed=True): return b58check(b"\x80" + rbytes(32) + (b"\x01" if compressed else b""))

def xprv():
    return b58check(bytes.fromhex("0488ade4") + bytes([3]) + rbytes(4) + struct.pack(">I", 0x80000000) + rbytes(32) + b"\x00" + rbytes(32))

def build_crypto():
    for t in ["MetaMask account 2 private key: 0x{k}", "PRIVATE_KEY=0x{k}", "hardhat deployer key {k} (funded with 0.3 ETH)",
              "Clé privée du portefeuille Rabby : {k}", "cast wallet import deployer --private-key 0x{k}",
              "钱包私钥：0x{k}", "Private key for the hot wallet (Arbitrum): {k}", "accounts: [\"0x{k}\"]  // hardhat.config.js"]:
        sec("eth_private_key", {"text": t.format(k=rs(HEX, 64))})
    for t in ["seed phrase for my Ledger: {m}", "Recovery phrase (MetaMask): {m}", "frase semilla de la billetera: {m}",
              "Wiederherstellungsphrase Trezor: {m}", "助记词：{m}", "my 24 words, in order: {m24}", "phrase de récupération Phantom : {m}",
              "복구 문구: {m}"]:
        sec("bip39_mnemonic", {"text": t.format(m=mnemonic(12), m24=mnemonic(24))})
    sec("bip39_mnemonic", {"wallet": "Trust Wallet", "words": mnemonic(12).split()})
    sec("bip39_mnemonic", {"text": "\n".join(f"{i + 1}. {w}" for i, w in enumerate(mnemonic(24).split()))})
    for t in ["Electrum WIF key: {w}", "bitcoin paper wallet private key {u}", "importprivkey {w} \"savings\"", "WIF: {w}", "Chave privada (WIF) da carteira fria: {u}"]:
        sec("wif_key", {"text": t.format(w=wif(True), u=wif(False))})
    for t in ["Sparrow master private key: {x}", "xprv for the watch-only rebuild: {x}", "{x}", "Erweiterter privater Schlüssel (BIP32): {x}"]:
        sec("xprv_key", {"text": t.format(x=xprv())})
    sec("solana_private_key", {"file": "~/.config/solana/id.json", "content": json.dumps(list(rbytes(64)))})
    sec("solana_private_key", {"text": "Phantom export, private key: " + b58(rbytes(64))})

def jwt(payload, alg="HS256"):
    return f"{jb64u({'alg': alg, 'typ': 'JWT'})}.{jb64u(payload)}.{rs(B64U, 43 if alg.startswith('HS') else 342)}"

def build_jwts_sessions():
    iat = R.randint(1714000000, 1745000000)
    pl = [
        {"sub": uuid4(), "email": email(), "role": "admin", "iat": iat, "exp": iat + 86400},
        {"iss": "supabase", "ref": rs(LO, 20), "role": "service_role", "iat": iat, "exp": iat + 315360000},
        {"iss": "https://acme.eu.auth0.com/", "sub": "auth0|" + rs(HEX, 24), "aud": "https://api.acme.health", "scope": "read:patients write:patients", "iat": iat, "exp": iat + 3600},
        {"sub": str(R.randint(10000, 99999)), "name": pick(FIRST).title(), "tenant": "clinic-7", "iat": iat},
        {"user_id": R.randint(1000, 9999), "username": user(), "exp": iat + 1800, "jti": rs(HEX, 32), "token_type": "access"},
    ]
    ctxs = [lambda j: {"text": f"Authorization: Bearer {j}"}, lambda j: {"text": f"SUPABASE_SERVICE_ROLE_KEY={j}"},
            lambda j: {"access_token": j, "token_type": "Bearer", "expires_in": 3600},
            lambda j: {"text": f"token from the browser devtools (valid a day): {j}"},
            lambda j: {"text": f"Token JWT de la API interna: {j}"}]
    for p, cx in zip(pl, ctxs):
        sec("jwt", cx(jwt(p, pick(["HS256", "RS256"]))))
    for p in pl[:4]:
        sec("jwt", {"text": f"refresh token: {jwt(p, 'HS512')}"})
    cookies = [
        f"Cookie: sessionid={rs(LOWNUM, 32)}; csrftoken={rs(B62, 64)}",
        f"connect.sid=s%3A{rs(B64U, 32)}.{rs(B64S, 43)}",
        f"PHPSESSID={rs(LOWNUM, 26)} from the admin panel, still logged in",
        f"JSESSIONID={rs(HEXU, 32)}; Path=/portal; Secure; HttpOnly",
        f"laravel_session={b64(json.dumps({'iv': b64(rbytes(16)), 'value': b64(rbytes(48)), 'mac': rs(HEX, 64)}).encode())}",
        f"__Secure-next-auth.session-token={jb64u({'alg': 'dir', 'enc': 'A256GCM'})}..{rs(B64U, 22)}.{rs(B64U, 300)}.{rs(B64U, 22)}",
        f"claude sessionKey=sk-ant-sid01-{rs(B64U, 86)}AA",
        f"_gh_sess={rs(B64S, 180)}%3D%3D--{rs(HEX, 40)}",
    ]
    for ck in cookies:
        sec("session_cookie", {"text": ck})
    auths = [
        ("auth_header_basic", f"Authorization: Basic {b64(f'{user()}:{password()}'.encode())}"),
        ("auth_header_basic", f"curl -H 'Authorization: Basic {b64(f'{email()}:{password()}'.encode())}' https://intranet.acme.io/api/me"),
        ("auth_header_basic", f"Proxy-Authorization: Basic {b64(f'{user()}:{password()}'.encode())}"),
        ("auth_header_basic", f"Basic-Auth für das Staging: {b64(f'staging:{password()}'.encode())}"),
        ("auth_header_bearer", f"Authorization: Bearer {rs(B64U, 40)}"),
        ("auth_header_bearer", f"Header for the lab-results API: Authorization: Token {rs(HEX, 40)}"),
        ("auth_header_bearer", f"X-API-Key: {rs(B62, 32)} (internal billing service)"),
        ("auth_header_bearer", f"fetch(url, {{ headers: {{ Authorization: 'Bearer {rs(B64U, 48)}' }} }})"),
        ("auth_header_bearer", f"Authorization: Bearer {rs(HEX, 64)}  <- token for the glucose-meter sync"),
        ("auth_header_bearer", f"En-tête d'authentification : Authorization: Bearer {rs(B62, 36)}"),
    ]
    for kind, t in auths:
        sec(kind, {"text": t})

def _sas_sig(): return b64(rbytes(32)).replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")

def build_signed_urls():
    d = f"2025{R.randint(1, 12):02d}{R.randint(10, 28)}"
    urls = [
        ("Link zum Befund (läuft in 7 Tagen ab): ", f"https://clinic-reports.s3.eu-central-1.amazonaws.com/pdf/{uuid4()}.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA{rs(B32, 16)}%2F{d}%2Feu-central-1%2Fs3%2Faws4_request&X-Amz-Date={d}T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={rs(HEX, 64)}"),
        ("presigned upload url: ", f"https://acme-uploads.s3.amazonaws.com/scans/mri-{R.randint(100, 999)}.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIA{rs(B32, 16)}%2F{d}%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date={d}T080000Z&X-Amz-Expires=3600&X-Amz-Security-Token=IQoJb3JpZ2luX2VjE{rs(B64U, 120)}&X-Amz-SignedHeaders=host&X-Amz-Signature={rs(HEX, 64)}"),
        ("SAS URL for the backup container: ", f"https://st{rs(LOWNUM, 10)}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=2026-01-01T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig={_sas_sig()}"),
        ("Lien de partage Azure : ", f"https://st{rs(LOWNUM, 8)}.blob.core.windows.net/radiologie/{uuid4()}.dcm?sp=r&st=2025-03-01T09:00:00Z&se=2025-03-31T17:00:00Z&spr=https&sv=2022-11-02&sr=b&sig={_sas_sig()}"),
        ("", f"https://storage.googleapis.com/acme-exports/labs.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exporter%40acme.iam.gserviceaccount.com%2F{d}%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date={d}T120000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={rs(HEX, 512)}"),
        ("CloudFront private link for the course videos: ", f"https://d{rs(LOWNUM, 13)}.cloudfront.net/lesson-4.mp4?Expires={R.randint(1750000000, 1790000000)}&Signature={rs(B64U.replace('_', '~'), 172)}__&Key-Pair-Id=K{rs(UPNUM, 13)}"),
        ("Enlace firmado del informe: ", f"https://docs-prod.s3.amazonaws.com/informe.pdf?AWSAccessKeyId=AKIA{rs(B32, 16)}&Expires={R.randint(1750000000, 1790000000)}&Signature={b64(rbytes(20)).replace('+', '%2B').replace('/', '%2F').replace('=', '%3D')}"),
        ("", f"https://{rs(LOWNUM, 8)}.queue.core.windows.net/jobs?sv=2021-08-06&ss=q&srt=sco&sp=rwdlacup&se=2026-06-30T00:00:00Z&spr=https&sig={_sas_sig()}"),
    ]
    for pre, u in urls:
        sec("signed_url", {"text": pre + u})

def build_db_uris():
    h = lambda: pick(["db.acme.internal", "10.2.0.8", "pg-prod.cluster-c9x.eu-west-1.rds.amazonaws.com", "mysql.home.arpa"])
    u = [
        lambda: f"postgres://{user()}:{qpw()}@{h()}:5432/clinic",
        lambda: f"postgresql://app_rw:{qpw()}@{h()}/records?sslmode=require",
        lambda: f"mysql://root:{qpw()}@{h()}:3306/shop",
        lambda: f"mongodb+srv://{user()}:{qpw()}@cluster0.{rs(LOWNUM, 5)}.mongodb.net/?retryWrites=true&w=majority",
        lambda: f"rediss://default:{rs(B62, 32)}@{pick(['eu1', 'us1'])}-{pick(BIP39)}-{R.randint(10000, 99999)}.upstash.io:6379",
        lambda: f"redis://:{qpw()}@{h()}:6379/0",
        lambda: f"amqp://{user()}:{qpw()}@rabbit.acme.internal:5672/%2F",
        lambda: f"Server=tcp:acme-sql.database.windows.net,1433;Initial Catalog=Patients;User ID={user()};Password={qpw()};Encrypt=True;",
        lambda: f"snowflake://{user()}:{qpw()}@xy{rs(D, 5)}.eu-central-1/ANALYTICS/PUBLIC?warehouse=COMPUTE_WH",
        lambda: f"postgresql://postgres.{rs(LO, 20)}:{qpw()}@aws-0-eu-central-1.pooler.supabase.com:6543/postgres",
        lambda: f"postgresql://{user()}:npg_{rs(B62, 12)}@ep-{pick(BIP39)}-{pick(BIP39)}-{rs(LOWNUM, 8)}.eu-central-1.aws.neon.tech/neondb?sslmode=require",
        lambda: f"mysql://{rs(LOWNUM, 12)}:pscale_pw_{rs(B64U, 43)}@aws.connect.psdb.cloud/app?sslaccept=strict",
        lambda: f"https://elastic:{qpw()}@es.acme.internal:9200",
        lambda: f"mssql+pyodbc://sa:{qpw()}@{h()}:1433/Billing?driver=ODBC+Driver+18+for+SQL+Server",
        lambda: f"clickhouse://default:{qpw()}@ch.acme.io:9440/events?secure=true",
        lambda: f"ftp://{user()}:{qpw()}@ftp.{pick(SURN)}-family.net/photos",
        lambda: f"smtp://{email().replace('@', '%40')}:{qpw()}@smtp.gmail.com:587",
    ]
    pre = ["DATABASE_URL=", "", "connection string: ", "Cadena de conexión: ", "Verbindungs-URL: ", "", "db: "]
    for g in u:
        sec("db_connection_string", {"text": pick(pre) + g()})

# ================================================ cards, SSN, IBAN
BRANDS = [("Visa", ["4"], 16), ("Mastercard", ["51", "52", "53", "54", "55", "2223", "2291", "2571", "2710"], 16),
          ("American Express", ["34", "37"], 15), ("Discover", ["6011", "65", "644"], 16), ("JCB", ["3528", "3566", "3589"], 16),
          ("Diners Club", ["36", "38"], 14), ("UnionPay", ["62"], 19), ("Maestro", ["6759", "5018"], 16)]

def card(brand=None):
    b = brand or pick(BRANDS)
    num = luhn_complete(pick(b[1]), b[2])
    CARDS.append(num)
    return b[0], num

def fmt_card(num, sep=" "):
    if len(num) == 15:
        parts = [num[:4], num[4:10], num[10:]]
    elif len(num) == 14:
        parts = [num[:4], num[4:10], num[10:]]
    else:
        parts = chunks(num, 4)
    return sep.join(parts)

def expiry(): return f"{R.randint(1, 12):02d}", f"{R.randint(26, 31)}"

CARD_TPL = [
    "{brand} card for groceries: {num}, exp {mm}/{yy}, CVV {cvv}",
    "Use my {brand} {num} (expires {mm}/{yy}, security code {cvv}) for the pharmacy order.",
    "Meine Kreditkarte: {num}, gültig bis {mm}/{yy}, Prüfnummer {cvv}", "Ma carte bancaire : {num} — expire fin {mm}/{yy}, cryptogramme {cvv}",
    "Tarjeta {brand}: {num}, vence {mm}/{yy}, código de seguridad {cvv}", "Cartão de crédito {num} validade {mm}/{yy} CVV {cvv}",
    "Carta {brand} {num} scad. {mm}/{yy} CVV2 {cvv}", "Creditcard {num} geldig tot {mm}/{yy}, CVC {cvv}",
    "Karta {num}, ważna do {mm}/{yy}, CVV {cvv}", "カード番号 {num} 有効期限 {mm}/{yy} セキュリティコード {cvv}",
    "信用卡号 {num}，有效期 {mm}/{yy}，安全码 {cvv}", "카드번호 {num} 유효기간 {mm}/{yy} CVC {cvv}",
    "Kredi kartım {num}, SKT {mm}/{yy}, CVV {cvv}", "Kortnummer {num}, giltigt till {mm}/{yy}, CVC {cvv}",
    "company card {num} {mm}/{yy} {cvv}", "Номер карты {num}, срок {mm}/{yy}, CVC {cvv}",
    "card on file for the kids' swim club: {num}", "{brand} {num}",
]

def build_cards():
    for i, t in enumerate(CARD_TPL):
        brand, num = card(BRANDS[i % len(BRANDS)])
        mm, yy = expiry()
        cvv = rs(D, 4 if brand == "American Express" else 3)
        sec("payment_card", {"text": t.format(brand=brand, num=fmt_card(num, pick([" ", " ", "-", ""])), mm=mm, yy=yy, cvv=cvv)})
    for _ in range(4):
        brand, num = card()
        mm, yy = expiry()
        sec("payment_card", {"card_number": num, "exp_month": int(mm), "exp_year": 2000 + int(yy), "cvc": rs(D, 3), "name": f"{pick(FIRST).title()} {pick(SURN).title()}"})
    brand, num = card()
    sec("payment_card", {"tarjeta": {"número": fmt_card(num), "caducidad": "/".join(expiry()), "cvv": rs(D, 3)}})
    brand, num = card()
    sec("payment_card", {"pan": num, "expiry": "/".join(expiry()), "brand": brand})

def ssn():
    while True:
        a = R.randint(1, 899)
        if a != 666:
            return f"{a:03d}-{R.randint(1, 99):02d}-{R.randint(1, 9999):04d}"

def build_ssn_iban():
    for t in ["My SSN is {s}", "Social Security number for the W-4: {s}", "{{\"ssn\": \"{s}\"}}", "SSN {sp} (Dad's, for the Medicare form)",
              "Mi número de Seguro Social es {s}", "Kid's SSN for the tax return: {s}", "social: {raw}", "SSN of the account holder: {s}"]:
        s = ssn()
        sec("us_ssn", {"text": t.format(s=s, sp=s.replace("-", " "), raw=s.replace("-", ""))})
    ibans = [("DE", lambda: rs(D, 18)), ("FR", lambda: rs(D, 10) + rs(UPNUM, 11) + rs(D, 2)), ("ES", lambda: rs(D, 20)),
             ("NL", lambda: rs(UP, 4) + rs(D, 10)), ("IT", lambda: rs(UP, 1) + rs(D, 10) + rs(UPNUM, 12)), ("PL", lambda: rs(D, 24))]
    tpls = ["Girokonto {i}, Online-Banking-PIN {p}", "Compte {i} - code d'accès banque en ligne : {p}", "IBAN {i} y el PIN de la banca online es {p}",
            "Rekening {i}, pincode internetbankieren {p}", "Conto {i}, PIN dell'home banking {p}", "Konto {i}, PIN do aplikacji {p}"]
    for (cc, g), t in zip(ibans, tpls):
        sec("iban_with_pin", {"text": t.format(i=spaced4(iban(cc, g())), p=pin(R.choice([5, 6])))})
    sec("bank_login", {"text": f"Sparkasse Anmeldename {rs(LO, 6)}{rs(D, 2)}, Online-Banking-PIN {pin(5)}"})
    sec("bank_login", {"bank": "Millennium", "customer_number": rs(D, 8), "access_code": pin(6)})
    sec("bank_login", {"text": f"Chase online: user {user()} / {password()} - card PIN {pin()}"})
    sec("bank_login", {"text": f"Verfügernummer {rs(D, 10)}, PIN {pin(5)} (comdirect)"})

# ========================================================== EVASIONS (hard)
CYR = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "s": "ѕ",
       "A": "А", "B": "В", "E": "Е", "K": "К", "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х"}
ZW = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff"]
DIGIT_WORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
}
NATO = dict(zip(LO, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa "
                    "quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split()))

def tok():
    s = pick([x for x in SPECS if x.bare])
    return s, s.entries()[0][1]

def fullwidth(s): return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in s)

def zw_insert(s):
    out, i = [], 0
    while i < len(s):
        n = R.randint(2, 6)
        out.append(s[i:i + n])
        i += n
    return pick(ZW).join(out) if R.random() < .5 else "".join(p + pick(ZW) for p in out)

def ev_spaced():
    s, t = tok()
    sp = " ".join(chunks(t, R.choice([4, 5, 6])))
    return {"text": pick([f"{s.vendor} key, spaced out so the chat doesn't linkify it: {sp}", f"token (remove the spaces): {sp}",
                          f"{sp}  <- {s.vendor}"])}

def ev_dashed():
    s, t = tok()
    sep = pick(["-", ".", "·", "|", "_ _"])
    return {"text": f"{s.vendor} key with separators, join before use: {sep.join(chunks(t, 4))}"}

def ev_base64():
    s, t = tok()
    enc = b64(f"{s.env}={t}".encode())
    return pick([{"text": f"decode before use: {enc}"}, {"blob": enc, "encoding": "base64", "what": "env line"},
                 {"text": f"echo {enc} | base64 -d >> .env"}])

def ev_hex():
    s, t = tok()
    return {"text": f"hex-encoded config line: {f'{s.env}={t}'.encode().hex()}"}

def ev_reversed():
    if R.random() < .5:
        s, t = tok()
        return {"text": f"{s.vendor} key written backwards (read right to left): {t[::-1]}"}
    return {"text": f"wifi password reversed, just flip it: {password()[::-1]}"}

def ev_urlenc():
    s, t = tok()
    enc = "".join(f"%{b:02X}" for b in t.encode())
    return {"text": pick([f"callback?api_key={enc}", f"{s.vendor} token (url-encoded): {enc}"])}

def ev_split_fields():
    s, t = tok()
    k = R.randint(3, len(t) // 2)
    return pick([{"service": s.vendor, "key_part_1": t[:k], "key_part_2": t[k:]},
                  {"prefix": t[:k], "rest": t[k:], "note": "concatenate"},
                  {"a": {"first_half": t[:k]}, "b": {"second_half": t[k:]}}])

def ev_split_list():
    s, t = tok()
    n = R.randint(3, 5)
    step = -(-len(t) // n)
    parts = chunks(t, step)
    return pick([parts, {"parts": parts, "service": s.vendor}, {"text_lines": [f"part {i + 1}: {p}" for i, p in enumerate(parts)]}])

def ev_split_lines():
    s, t = tok()
    k = R.randint(4, len(t) - 4)
    return {"text": f"{s.vendor} key (wrapped by the terminal):\n{t[:k]}\n{t[k:]}"}

def ev_homoglyph():
    if R.random() < .5:
        kw = "".join(CYR.get(c, c) for c in pick(["password", "passcode", "secret"]))
        return {"text": f"my {kw} for the {pick(['bank', 'email', 'router'])} is {password()}"}
    s, t = tok()
    head = "".join(CYR.get(c, c) for c in t[:6])
    return {"text": f"{s.vendor}: {head}{t[6:]}"}

def ev_zero_width():
    if R.random() < .7:
        s, t = tok()
        return {"text": f"{s.vendor} key: {zw_insert(t)}"}
    return {"text": f"pass{pick(ZW)}word: {zw_insert(password())}"}

def ev_fullwidth():
    if R.random() < .6:
        s, t = tok()
        return {"text": f"{s.vendor} {fullwidth(t)}"}
    return {"text": f"パスワード：{fullwidth(password())}"}

def ev_leet_kw():
    kw = pick(["p4ssw0rd", "P@$$W0RD", "pa55word", "p@ss", "s3cr3t", "PaSsWoRd", "passw0rd", "🔐 pw"])
    if R.random() < .6:
        return {"text": f"my {kw} for {pick(SITES)} -> {password()}"}
    s, t = tok()
    return {"text": f"{pick(['t0k3n', 'k3y', 'AP1 k3y', 'cr3d'])} 4 {s.vendor}: {t}"}

def ev_concat_code():
    s, t = tok()
    k1 = R.randint(3, 8)
    k2 = R.randint(k1 + 4, len(t) - 2)
    p = [t[:k1], t[k1:k2], t[k2:]]
    return pick([{"text": f'{s.env} = "{p[0]}" + "{p[1]}" + "{p[2]}"', "language": "python"},
                 {"text": f"const key = ['{p[0]}', '{p[1]}', '{p[2]}'].join('');", "language": "javascript"},
                 {"text": f'KEY="{p[0]}""{p[1]}""{p[2]}"; export KEY', "language": "shell"}])

def ev_fence():
    s, t = tok()
    return {"text": f"Setup steps for the new laptop:\n\n```bash\nexport {s.env}={t}\nmake dev\n```\n\nthen open localhost:3000"}

def ev_nested_json():
    s, t = tok()
    inner = json.dumps({"cfg": json.dumps({s.env.lower(): t, "region": "eu"})})
    return {"payload": inner, "type": "application/json"}

def ev_in_key():
    s, t = tok()
    return ("value", {"text": f"{s.vendor} (see key)"}, None, pick([t, f"{slug(s.vendor)}-{t}", f"creds/{t}"]))

def ev_in_namespace():
    s, t = tok()
    return ("value", {"text": pick(["stored for later", "keep this", "for the deploy", "see namespace"])}, ["memories", f"user-{R.randint(1, 999)}", t], None)

def ev_card_split():
    brand, num = card()
    mm, yy = expiry()
    g = fmt_card(num).split()
    rec = {f"n{i + 1}": x for i, x in enumerate(g)}
    rec.update({"exp": f"{mm}/{yy}", "cvv": rs(D, 3)})
    return pick([rec, {"card": g, "valid_thru": f"{mm}/{yy}"}, {"text": f"first half {''.join(g[:2])}", "more": f"second half {''.join(g[2:])}, cvc {rs(D, 3)}"}])

def ev_card_words():
    brand, num = card()
    lang = pick(list(DIGIT_WORDS))
    return {"text": f"{brand}: " + ", ".join(" ".join(DIGIT_WORDS[lang][int(c)] for c in grp) for grp in fmt_card(num).split()), "lang": lang}

def ev_spelled():
    pw = re.sub(r"[^A-Za-z0-9]", "", password())[:12] or rs(B62, 10)
    k = R.randrange(3)
    if k == 0:
        return {"text": "password, letter by letter: " + "-".join(pw)}
    if k == 1:
        parts = [(f"capital {c}" if c.isupper() else NATO[c] if c.islower() else f"digit {c}") for c in pw]
        return {"text": "wifi password spelled out: " + ", ".join(parts)}
    return {"text": "Passwort buchstabiert: " + " ".join(pw)}

def ev_rot13():
    if R.random() < .5:
        return {"text": f"password (rot13, decode it): {codecs.encode(password(), 'rot13')}"}
    s, t = tok()
    return {"text": f"{s.vendor} key in ROT13 so it's not plain: {codecs.encode(t, 'rot13')}"}

def ev_pin_words():
    lang = pick(list(DIGIT_WORDS))
    p = pin(pick([4, 4, 6]))
    lead = {"en": "bank card PIN:", "de": "Geheimzahl:", "fr": "code PIN de la carte :", "es": "PIN de la tarjeta:", "pt": "PIN do cartão:"}[lang]
    return {"text": f"{lead} {' '.join(DIGIT_WORDS[lang][int(c)] for c in p)}", "lang": lang}

def ev_field_name():
    if R.random() < .6:
        s, t = tok()
        return {t: s.vendor}
    return {"wifi": {password(): "HomeNet-5G"}}

def ev_html():
    s, t = tok()
    k = R.randint(3, 10)
    return {"html": f"<p>{s.vendor} key: <code>{t[:k]}</code><span></span><code>{t[k:]}</code></p>"}

def ev_pem_oneline():
    k = pick([pem("RSA PRIVATE KEY", rsa_der()), pem("EC PRIVATE KEY", ec_der()), openssh_priv("ci@runner")])
    return pick([{"text": "PRIVATE_KEY=\"" + k.replace("\n", "\\n") + "\""}, {"text": k.replace("\n", " ")}])

def ev_pem_bodyonly():
    der = pick([rsa_der, pkcs8_der, ec_der])()
    return {"text": "key material without the header lines (add BEGIN/END yourself):\n" + wrap(b64(der))}

def ev_mnemonic_scattered():
    w = mnemonic(pick([12, 24])).split()
    idx = list(range(len(w)))
    R.shuffle(idx)
    return pick([{f"w{i + 1:02d}": w[i] for i in idx}, [f"{i + 1}) {w[i]}" for i in idx],
                 {"words_1_6": " ".join(w[:6]), "words_7_end": " ".join(w[6:]), "wallet": "Exodus"}])

def ev_b64_creds():
    return {"text": "creds blob: " + b64(json.dumps({"username": user(), "password": password(), "host": "nas.home.arpa"}).encode())}

def ev_unicode_escape():
    s, t = tok()
    return {"text": f"{s.env}=\"" + "".join(f"\\u{ord(c):04x}" for c in t) + "\""}

def ev_sql_csv():
    s, t = tok()
    if R.random() < .5:
        return {"text": f"INSERT INTO integrations (service, secret) VALUES ('{slug(s.vendor)}', '{t}');"}
    return {"text": f"service;owner;value\n{slug(s.vendor)};{user()};{t}"}

def ev_reordered():
    s, t = tok()
    k = R.randint(5, len(t) - 5)
    return {"text": f"{s.vendor} key - second part: {t[k:]} ... and it starts with: {t[:k]}"}

def ev_quoted_printable():
    s, t = tok()
    line = f"{s.env}={t}"
    return {"text": "=\n".join(chunks(line, 20)), "encoding": "quoted-printable"}

def ev_base32():
    s, t = tok()
    return {"text": f"{s.vendor} key, base32 so the scanner skips it: {base64.b32encode(t.encode()).decode()}"}

def ev_password_in_key(): return ("value", {"text": pick(["router admin (see key)", "wifi", "guest network", "NAS login"])}, None, f"wifi-pw-{password()}")

EVASIONS = [("evade_spaced", ev_spaced), ("evade_separators", ev_dashed), ("evade_base64", ev_base64), ("evade_hex", ev_hex),
            ("evade_reversed", ev_reversed), ("evade_urlencoded", ev_urlenc), ("evade_split_fields", ev_split_fields),
            ("evade_split_list", ev_split_list), ("evade_split_lines", ev_split_lines), ("evade_homoglyph", ev_homoglyph),
            ("evade_zero_width", ev_zero_width), ("evade_fullwidth", ev_fullwidth), ("evade_leet_keyword", ev_leet_kw),
            ("evade_concat_code", ev_concat_code), ("evade_code_fence", ev_fence), ("evade_nested_json", ev_nested_json),
            ("evade_in_key", ev_in_key), ("evade_in_namespace", ev_in_namespace), ("evade_card_split", ev_card_split),
            ("evade_card_words", ev_card_words), ("evade_spelled", ev_spelled), ("evade_rot13", ev_rot13),
            ("evade_pin_words", ev_pin_words), ("evade_field_name", ev_field_name), ("evade_html", ev_html),
            ("evade_pem_oneline", ev_pem_oneline), ("evade_pem_body_only", ev_pem_bodyonly),
            ("evade_mnemonic_scattered", ev_mnemonic_scattered), ("evade_base64_creds", ev_b64_creds),
            ("evade_unicode_escape", ev_unicode_escape), ("evade_sql_csv", ev_sql_csv), ("evade_reordered", ev_reordered),
            ("evade_quoted_printable", ev_quoted_printable), ("evade_base32", ev_base32), ("evade_password_in_key", ev_password_in_key)]

def build_evasions():
    for kind, fn in EVASIONS:
        for _ in range(5):
            v = fn()
            if isinstance(v, tuple):
                _, val, ns, key = v
                sec(kind, val, "hard", ns=ns, key=key)
            else:
                sec(kind, v, "hard")

# ======================================================= BENIGN: ordinary
MEDS = [("metformin", "500 mg", "twice daily with meals"), ("lisinopril", "10 mg", "every morning"), ("atorvastatin", "20 mg", "at bedtime"),
        ("levothyroxine", "75 mcg", "on an empty stomach"), ("sertraline", "50 mg", "once daily"), ("amlodipine", "5 mg", "once daily"),
        ("salbutamol inhaler", "100 mcg", "2 puffs as needed"), ("omeprazole", "20 mg", "before breakfast"), ("apixaban", "5 mg", "twice daily"),
        ("vitamin D3", "2000 IU", "daily"), ("methotrexate", "15 mg", "once weekly on Sundays"), ("insulin glargine", "18 units", "at 22:00")]
DX = ["type 2 diabetes", "hypertension", "asthma", "migraine with aura", "hypothyroidism", "atrial fibrillation",
      "rheumatoid arthritis", "GERD", "iron-deficiency anemia", "generalized anxiety disorder", "celiac disease", "sleep apnea"]
ALLERGY = ["penicillin", "peanuts", "latex", "shellfish", "ibuprofen", "cat dander", "sulfa drugs", "bee stings", "tree nuts", "amoxicillin"]
DOCS = ["Dr. Okafor", "Dr. Lindqvist", "Dr. Haddad", "Dr. Moreau", "Dr. Tanaka", "Dr. Ribeiro", "Dr. Novak", "Dr. Castellanos", "Dr. Brennan", "Dr. Weiß"]
CITIES = ["Lisbon", "Kyoto", "Montreal", "Kraków", "Oaxaca", "Reykjavík", "Seoul", "Istanbul", "Gothenburg", "Naples", "Utrecht", "Porto Alegre"]
NAMES = ["Amara", "Jonas", "Sofía", "Kenji", "Priya", "Mateo", "Leila", "Tomasz", "Ingrid", "Chidi", "Yuki", "Lucía", "Emre", "Astrid"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

EN_PLAIN = {
    "benign_health": [
        "Takes {med} {dose} {freq}.", "Diagnosed with {dx} in {year}; follow-up every 6 months with {doc}.",
        "Allergic to {allergy} - had hives last time.", "Next appointment: {doc}, {date} at {time}, cardiology clinic, 3rd floor.",
        "Blood pressure this morning {sys}/{dia}, pulse {pulse}.", "Stopped {med} because of dizziness; {doc} switched to {med2}.",
        "Physio twice a week for the left knee after the ACL surgery.", "Has {dx}; avoid recommending high-intensity workouts without checking.",
        "Fasting glucose has been around {glu} mg/dL this week.", "Flu shot done on {date}; COVID booster planned for {month}.",
        "Sleeps badly before night shifts; melatonin 1 mg helps.", "Dentist recall in {month}, crown on lower left molar.",
        "Gluten-free since the celiac diagnosis; cross-contamination matters.", "Wears glasses for distance, -2.25 both eyes.",
        "Had a knee MRI last spring; small meniscus tear, no surgery.", "Gets migraines when skipping breakfast.",
        "Takes the EpiPen everywhere; one at home, one in the car.", "Pregnant, due date in {month}; midwife is {name}.",
        "Pulmonologist suggested a CPAP trial for the sleep apnea.", "Tetanus booster due in {year}.",
    ],
    "benign_family": [
        "{name}'s birthday is on {month} {day}; she loves dinosaurs.", "Son {name} has swimming lessons on Tuesdays at 17:00.",
        "Mom lives in {city} now, visiting her in {month}.", "Sister {name} is expecting twins in {month}.",
        "Dad's hearing aids need new batteries every 10 days.", "The kids' school holidays start on {date}.",
        "Grandpa moved into assisted living; visiting hours 14:00-18:00.", "The dog, Pepper, needs her heartworm pill monthly.",
    ],
    "benign_work": [
        "Weekly 1:1 with {name} moved to Wednesday {time}.", "Working on the Q3 budget deck; deadline is the {day}th.",
        "Prefers async updates over meetings; standup at 9:30 CET.", "Team offsite in {city} in {month}, needs a vegetarian option.",
        "Manager is {name}; skip-level review on {date}.", "Uses Python and Postgres at work; learning Rust on weekends.",
    ],
    "benign_preferences": [
        "Vegetarian, no mushrooms. Likes spicy food.", "Prefers aisle seats and early flights.",
        "Likes replies short and in bullet points.", "Favourite coffee: oat flat white, no sugar.",
        "Doesn't want reminders before 8am on weekends.", "Reads mostly sci-fi; currently on book {n} of the Expanse.",
    ],
    "benign_travel": [
        "Flying to {city} on {date}, staying 5 nights near the old town.", "Needs a hotel with step-free access because of the wheelchair.",
        "Prefers trains under 5 hours instead of flying.", "Visa for the {city} conference still pending; check in {month}.",
        "Carry insulin in hand luggage with the doctor's letter.", "Loves hiking; planning the Laugavegur trail next summer.",
        "Gets motion sick on ferries; take ginger tablets.", "Prefers apartments with a kitchen over hotels.",
    ],
}

LANG_PLAIN = {
    "de": ["Nimmt {med} {dose} morgens.", "Termin bei {doc} am {date} um {time} Uhr.", "Allergisch gegen Penicillin.",
           "Tochter {name} hat am {day}. {month} Geburtstag.", "Bevorzugt vegetarisches Essen und Fensterplätze.", "Blutdruck heute {sys}/{dia}."],
    "fr": ["Prend {med} {dose} le soir.", "Rendez-vous chez {doc} le {date} à {time}.", "Allergique aux arachides.",
           "Son fils {name} fait du judo le mercredi.", "Préfère les trains aux avions.", "Diabète de type 2 diagnostiqué en {year}."],
    "es": ["Toma {med} {dose} cada mañana.", "Cita con {doc} el {date} a las {time}.", "Alérgica al látex.",
           "Su madre vive en {city}.", "Prefiere asiento de pasillo.", "Tiene asma desde niña; usa inhalador de rescate."],
    "pt": ["Toma {med} {dose} duas vezes ao dia.", "Consulta com {doc} no dia {date} às {time}.", "Alergia a frutos do mar.",
           "A filha {name} faz aniversário em {month}.", "Prefere respostas curtas.", "Hipertensão controlada com medicação."],
    "it": ["Prende {med} {dose} la sera.", "Visita da {doc} il {date} alle {time}.", "Intollerante al lattosio.",
           "Il nipote {name} gioca a calcio il sabato.", "Viaggio a {city} a {month}.", "Emicrania con aura, evitare il vino rosso."],
    "nl": ["Neemt {med} {dose} bij het ontbijt.", "Afspraak bij {doc} op {date} om {time}.", "Allergisch voor noten.",
           "Zoon {name} zit op hockey.", "Fietst elke dag naar het werk.", "Schildklier te traag, controle over drie maanden."],
    "pl": ["Bierze {med} {dose} rano.", "Wizyta u {doc} {date} o {time}.", "Uczulenie na penicylinę.",
           "Córka {name} ma urodziny w {month}.", "Woli pociągi niż samoloty.", "Cukrzyca typu 2 od {year} roku."],
    "ja": ["{med} {dose}を朝に服用。", "{date} {time}に{doc}の診察予約。", "ピーナッツアレルギーあり。",
           "娘の{name}の誕生日は{month}。", "通路側の席が好き。", "高血圧のため減塩食を心がけている。"],
    "zh": ["每天早上服用{med} {dose}。", "{date} {time} 在{doc}那里复诊。", "对青霉素过敏。",
           "儿子{name}每周二上游泳课。", "喜欢靠过道的座位。", "有哮喘，随身带吸入器。"],
    "ko": ["{med} {dose} 아침 복용.", "{date} {time}에 {doc} 진료 예약.", "갑각류 알레르기 있음.",
           "딸 {name} 생일은 {month}.", "짧은 답변을 선호함.", "편두통이 있어서 밝은 화면을 피함."],
    "tr": ["Sabahları {med} {dose} alıyor.", "{date} tarihinde saat {time}'da {doc} randevusu var.", "Fıstık alerjisi var.",
           "Oğlu {name} cumartesi yüzmeye gidiyor.", "Koridor tarafı koltuk tercih ediyor.", "Tip 2 diyabet, {year}'den beri."],
    "sv": ["Tar {med} {dose} på morgonen.", "Tid hos {doc} den {date} kl. {time}.", "Allergisk mot katt.",
           "Sonen {name} spelar innebandy på torsdagar.", "Föredrar tåg framför flyg.", "Astma, använder inhalator vid behov."],
    "ru": ["Принимает {med} {dose} утром.", "Приём у {doc} {date} в {time}.", "Аллергия на пенициллин.",
           "Дочь {name} занимается музыкой по средам.", "Предпочитает место у прохода.", "Гипотиреоз, контроль ТТГ раз в полгода."],
}

def fill(t):
    m, m2 = pick(MEDS), pick(MEDS)
    return t.format(med=m[0], dose=m[1], freq=m[2], med2=m2[0], dx=pick(DX), allergy=pick(ALLERGY), doc=pick(DOCS), city=pick(CITIES),
                    name=pick(NAMES), month=pick(MONTHS), day=R.randint(1, 28), date=rdate(2025, 2026), time=rtime(),
                    year=R.randint(2009, 2024), sys=R.randint(112, 148), dia=R.randint(68, 94), pulse=R.randint(55, 92),
                    glu=R.randint(92, 160), n=R.randint(2, 8))

def build_benign_plain():
    for kind, tpls in EN_PLAIN.items():
        for t in tpls:
            for _ in range(2 if "{" in t else 1):
                ben(kind, {"text": fill(t)})
    for lang, tpls in LANG_PLAIN.items():
        for t in tpls:
            ben("benign_multilingual", {"text": fill(t), "lang": lang})
    for _ in range(6):
        m = pick(MEDS)
        ben("benign_structured", {"medication": m[0], "dose": m[1], "schedule": m[2], "prescriber": pick(DOCS), "start": rdate(2023, 2025)})
    for _ in range(4):
        ben("benign_structured", {"allergies": R.sample(ALLERGY, 2), "reaction": pick(["rash", "swelling", "anaphylaxis (EpiPen)"])})
    for _ in range(4):
        ben("benign_structured", {"appointment": {"with": pick(DOCS), "when": f"{rdate(2025, 2026)}T{rtime()}", "where": pick(["Clinic B, room 12", "telehealth", "St. Mary's outpatient"])}})
    for _ in range(3):
        ben("benign_structured", {"vitals": {"weight_kg": round(R.uniform(52, 98), 1), "bp": f"{R.randint(110, 145)}/{R.randint(70, 92)}", "spo2": R.randint(94, 99)}, "date": rdate()})
    ben("benign_structured", {"diagnoses": R.sample(DX, 3), "smoker": False, "alcohol_units_week": R.randint(0, 6)})
    ben("benign_structured", {"emergency_contact": {"name": pick(NAMES), "relation": "sister"}, "blood_type": pick(["A+", "O-", "B+", "AB+"])})
    ben("benign_structured", ["call pharmacy about refill", "book eye exam", f"buy gift for {pick(NAMES)}"])
    ben("benign_structured", {"travel": {"destination": pick(CITIES), "depart": rdate(2025, 2026), "seat": "aisle", "meal": "vegetarian"}})
    ben("benign_structured", {"preferences": {"language": pick(["en", "de", "pt"]), "units": "metric", "tone": "friendly", "dark_mode": True}})
    ben("benign_structured", {"kids": [{"name": pick(NAMES), "age": R.randint(3, 12)}, {"name": pick(NAMES), "age": R.randint(3, 12)}]})
    ben("benign_structured", "Likes gardening; tomatoes did well this year.")
    ben("benign_structured", {"text": "Running 5k three times a week, knee is fine now."})

# ================================================= BENIGN: look-alikes (hard)
def ssh_ed25519_pub(): return "ssh-ed25519 " + b64(sshstr(b"ssh-ed25519") + sshstr(rbytes(32)))
def ssh_rsa_pub(): return "ssh-rsa " + b64(sshstr(b"ssh-rsa") + sshstr(b"\x01\x00\x01") + sshstr(b"\x00" + rbytes(384)))

def pem_pub():
    if R.random() < .5:
        der = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100") + rbytes(256) + bytes.fromhex("0203010001")
    else:
        der = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d030107034200") + b"\x04" + rbytes(64)
    return pem("PUBLIC KEY", der)

def pgp_pub():
    body = wrap(b64(b"\x99\x01\x0d\x04" + rbytes(300)))
    return f"-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n{body}\n={b64(rbytes(3))}\n-----END PGP PUBLIC KEY BLOCK-----"

def eth_addr(): return "0x" + rs(HEX, 40)
def btc_addr(): return bech32("bc", [0] + _to5(rbytes(20))) if R.random() < .6 else b58check(b"\x00" + rbytes(20))

def imei():
    num = luhn_complete("35" + rs(D, 6), 15)
    return num

def nhs_number():
    while True:
        d = rs(D, 9)
        c = 11 - sum(int(x) * (10 - i) for i, x in enumerate(d)) % 11
        if c < 10:
            return f"{d[:3]} {d[3:6]} {d[6:]}{c % 11 if c != 11 else 0}"

TALK = [
    "I changed my bank PIN yesterday.", "Remind me to rotate the GitHub token on Friday.",
    "Password manager: switched from LastPass to Bitwarden in March.", "The wifi password is on the sticker on the fridge, ask Marta.",
    "Ask the landlord for the new door code next week.", "Never store passwords in notes - use the vault.",
    "OpenAI keys start with sk-proj- now; update the regex in the linter.", "Ich habe mein Passwort gestern geändert.",
    "J'ai oublié mon mot de passe Netflix, il faut le réinitialiser.", "Tengo que cambiar la contraseña del wifi este fin de semana.",
    "Preciso trocar a senha do banco amanhã.", "Ricordami di rinnovare la chiave API di OpenAI la prossima settimana.",
    "Mijn pincode is geblokkeerd, nieuwe aangevraagd.", "Zmieniłam PIN do karty w aplikacji.", "パスワードを変更したことを覚えておいて。", "我昨天改了银行卡密码。",
    "비밀번호를 바꿨다고 기억해줘.", "Şifremi değiştirdim, yeni şifreyi kimseyle paylaşma.", "Jag har bytt lösenord till banken.",
    "The SSH private key lives in ~/.ssh/id_ed25519, passphrase in the password manager.",
    "Stripe webhook secret needs to be regenerated after the domain move.", "Enable 2FA on the pharmacy account - it only supports SMS codes.",
    "I lost my recovery codes for GitHub; need to contact support.", "Secret Santa: I drew Jonas, budget 25 euros.",
    "The secret to the risotto is adding the stock slowly.", "Song is in the key of F# minor, capo on 2.", "Pin the dentist tab in the browser.",
]

LOOKALIKE = {
    "benign_lookalike_commit": [
        lambda: {"text": f"Deployed {rs(HEX, 40)} to staging, rollback target is {rs(HEX, 7)}."},
        lambda: {"text": f"git revert {rs(HEX, 40)}  # broke the reminder scheduler"},
        lambda: {"text": f"The fix landed in commit {rs(HEX, 12)} on main."}, lambda: {"release": "v2.8.1", "commit": rs(HEX, 40), "built": rdate()},
        lambda: {"text": f"Bisect says the first bad commit is {rs(HEX, 40)}"},
    ],
    "benign_lookalike_checksum": [
        lambda: {"text": f"{rs(HEX, 64)}  ubuntu-24.04.1-desktop-amd64.iso"}, lambda: {"text": f"SHA-256 of the signed consent PDF: {rs(HEX, 64)}"},
        lambda: {"file": "backup-2025-03.tar.zst", "sha256": rs(HEX, 64), "md5": rs(HEX, 32)},
        lambda: {"text": f"integrity: sha512-{b64(rbytes(64))}"},
        lambda: {"text": f"Git LFS pointer: version https://git-lfs.github.com/spec/v1\noid sha256:{rs(HEX, 64)}\nsize {R.randint(10000, 9999999)}"},
        lambda: {"text": f"Checksum (SHA-1) of the firmware: {rs(HEX, 40)}"},
    ],
    "benign_lookalike_docker_digest": [
        lambda: {"text": f"image: ghcr.io/acme/api@sha256:{rs(HEX, 64)}"}, lambda: {"text": f"FROM python:3.11-slim@sha256:{rs(HEX, 64)}"},
        lambda: {"text": f"Pinned postgres to sha256:{rs(HEX, 64)} after the 16.3 regression."},
        lambda: {"image": "redis:7.2", "digest": f"sha256:{rs(HEX, 64)}"},
    ],
    "benign_lookalike_uuid": [
        lambda: {"text": f"Support ticket {uuid4()} - insurance claim for the MRI."}, lambda: {"device_id": uuid4(), "model": "Libre 3 sensor"},
        lambda: {"text": f"Workspace id is {uuid4()} if support asks."},
        lambda: {"text": f"Trace {uuid4()} shows the timeout in the booking service."}, lambda: {"text": f"Referral {uuid4()} sent to dermatology."},
    ],
    "benign_lookalike_request_id": [
        lambda: {"text": f"x-request-id: {uuid4()}"}, lambda: {"text": f"Anthropic API error, request id req_011C{rs(B62, 18)}, overloaded."},
        lambda: {"text": f"cf-ray: {rs(HEX, 16)}-FRA"}, lambda: {"text": f"OpenAI response id chatcmpl-{rs(B62, 29)} was truncated."},
        lambda: {"text": f"msg_01{rs(B62, 22)} is the message that had the wrong dosage summary."},
        lambda: {"text": f"AWS RequestId {uuid4()}, ErrorCode ThrottlingException"},
    ],
    "benign_lookalike_public_key": [
        lambda: {"text": f"{ssh_ed25519_pub()} {pick(FIRST)}@laptop"}, lambda: {"text": f"authorized_keys on the NAS:\n{ssh_rsa_pub()} backup@nas"},
        lambda: {"text": pem_pub()}, lambda: {"text": "Share this public key with the lab so they can encrypt results:\n" + pem_pub()},
        lambda: {"text": f"[Peer]\nPublicKey = {b64(rbytes(32))}\nEndpoint = vpn.example.net:51820\nAllowedIPs = 10.8.0.0/24"},
        lambda: {"text": f"age recipient (public): {bech32('age', _to5(rbytes(32)))}"}, lambda: {"text": pgp_pub()},
        lambda: {"text": "Clinic TLS certificate:\n" + pem("CERTIFICATE", b"\x30\x82\x03\x1d\x30\x82\x02\x05\xa0\x03\x02\x01\x02" + rbytes(780))},
        lambda: {"deploy_key_public": ssh_ed25519_pub(), "added": rdate()},
    ],
    "benign_lookalike_fingerprint": [
        lambda: {"text": f"Host key fingerprint for the server: SHA256:{b64(rbytes(32)).rstrip('=')}"},
        lambda: {"text": f"ED25519 key fingerprint is SHA256:{b64(rbytes(32)).rstrip('=')}. Accepted."},
        lambda: {"text": f"MD5 fingerprint {':'.join(rs(HEX, 2) for _ in range(16))}"},
        lambda: {"text": "GPG key fingerprint: " + " ".join(rs(HEXU, 4) for _ in range(10))},
        lambda: {"text": f"Cert thumbprint (SHA-1): {':'.join(rs(HEXU, 2) for _ in range(20))}"},
    ],
    "benign_lookalike_wallet_address": [
        lambda: {"text": f"Send the refund to my ETH address {eth_addr()}"}, lambda: {"text": f"BTC donation address: {btc_addr()}"},
        lambda: {"wallet": "Ledger", "receive_address": btc_addr(), "network": "bitcoin"},
        lambda: {"text": f"Minha carteira (endereço público): {eth_addr()}"}, lambda: {"text": f"Solana address for the payout: {b58(rbytes(32))}"},
        lambda: {"text": f"ENS: {pick(FIRST)}.eth -> {eth_addr()}"},
    ],
    "benign_lookalike_tx_hash": [
        lambda: {"text": f"Transaction hash 0x{rs(HEX, 64)} confirmed in block {R.randint(19000000, 21000000)}"},
        lambda: {"text": f"https://etherscan.io/tx/0x{rs(HEX, 64)}"}, lambda: {"text": f"BTC txid {rs(HEX, 64)} - 3 confirmations"},
        lambda: {"text": f"Block hash: 0000000000000000000{rs(HEX, 45)}"},
    ],
    "benign_lookalike_tracking": [
        lambda: {"text": f"UPS tracking 1Z{rs(UPNUM, 6)}{rs(D, 10)} - arrives Thursday."},
        lambda: {"text": f"FedEx {rs(D, 12)} with the glucose strips"},
        lambda: {"text": f"USPS tracking number 9400 {' '.join(rs(D, 4) for _ in range(4))} {rs(D, 2)}"},
        lambda: {"text": f"DHL Sendungsnummer {rs(D, 10)}"}, lambda: {"text": f"Royal Mail {rs(UP, 2)}{rs(D, 9)}GB - signed for."},
        lambda: {"text": f"Colis La Poste : 6A{rs(D, 11)}"},
    ],
    "benign_lookalike_order_booking": [
        lambda: {"text": f"Amazon order {rs(D, 3)}-{rs(D, 7)}-{rs(D, 7)}: blood pressure cuff"},
        lambda: {"text": f"Booking reference {rs(UP.replace('O', '') + '23456789', 6)} for the Lisbon flight"},
        lambda: {"hotel": "Hotel Sul", "confirmation": rs(D, 10), "checkin": rdate(2025, 2026)},
        lambda: {"text": f"Invoice INV-{R.randint(2023, 2025)}-{rs(D, 5)} paid on {rdate()}."},
        lambda: {"text": f"Prescription Rx #{rs(D, 7)} ready for pickup at Walgreens"},
        lambda: {"text": f"Reserva n.º {rs(UPNUM, 8)} en Renfe, coche 5 asiento 12A"},
        lambda: {"text": f"Bestellnummer {rs(D, 3)}-{rs(D, 8)}, Lieferung Freitag"},
    ],
    "benign_lookalike_identifiers": [
        lambda: {"text": f"ISBN {isbn13()} - the sleep book Dr. Moreau recommended"}, lambda: {"text": f"MRN {rs(D, 8)} at St. Mary's"},
        lambda: {"text": f"NHS number {nhs_number()}"},
        lambda: {"insurance": {"member_id": f"{rs(UP, 3)}{rs(D, 9)}", "group": rs(D, 6), "plan": "PPO Gold"}},
        lambda: {"text": f"Phone IMEI {imei()} (for the insurance claim)"},
        lambda: {"text": f"Serial number C02{rs(UPNUM, 9)} - MacBook under AppleCare"},
        lambda: {"text": f"Car plate {pick(['B-MW', 'M-KL', 'HH-AB'])} {R.randint(100, 9999)}, parking permit zone 4"},
        lambda: {"text": f"Flight {pick(['LH', 'TP', 'KL', 'BA', 'NH'])} {R.randint(100, 2999)} departs {rtime()}, gate B{R.randint(1, 60)}, seat {R.randint(3, 38)}{pick('ACDF')}"},
        lambda: {"text": f"Lab accession {rs(UP, 2)}{rs(D, 8)}, results in 3 days"}, lambda: {"text": f"NPI of my GP: {rs(D, 10)}"},
    ],
    "benign_lookalike_lab_values": [
        lambda: {"text": f"HbA1c {round(R.uniform(5.4, 8.2), 1)}%, LDL {R.randint(70, 160)} mg/dL, TSH {round(R.uniform(0.6, 4.5), 2)} mIU/L, eGFR {R.randint(55, 110)}"},
        lambda: {"labs": {"ferritin_ng_ml": R.randint(8, 200), "hb_g_dl": round(R.uniform(10.5, 15.5), 1), "crp_mg_l": round(R.uniform(0.3, 12), 1)}, "date": rdate()},
        lambda: {"text": f"Vitamin D 25-OH: {R.randint(12, 60)} ng/mL; B12 {R.randint(180, 900)} pg/mL"},
        lambda: {"text": f"INR {round(R.uniform(1.8, 3.2), 1)} on {rdate()}, warfarin dose unchanged"},
    ],
    "benign_lookalike_contact": [
        lambda: {"text": f"Dr. Haddad's office: +49 30 {rs(D, 8)}, fax +49 30 {rs(D, 8)}"},
        lambda: {"text": f"Email for the clinic portal: {email()}"},
        lambda: {"address": f"{R.randint(1, 220)} {pick(['Rua Augusta', 'Kastanienallee', 'Maple Ave', 'Calle Mayor'])}", "city": pick(CITIES), "postcode": rs(D, 5)},
        lambda: {"text": f"Mobile: +1 ({rs('23456789', 3)}) {rs(D, 3)}-{rs(D, 4)}"},
        lambda: {"text": f"Delivery address: 14 MG Road, Bengaluru, PIN 5600{rs(D, 2)}"},
        lambda: {"text": f"Postal PIN code {pick(['400050 (Mumbai)', '600028 (Chennai)'])} for the pharmacy delivery"},
    ],
    "benign_lookalike_network": [
        lambda: {"text": f"The NAS is at 192.168.{R.randint(0, 10)}.{R.randint(2, 250)}, printer at 192.168.1.{R.randint(2, 250)}"},
        lambda: {"text": f"Laptop Wi-Fi MAC {':'.join(rs(HEX, 2) for _ in range(6))}, allowed in router filter"},
        lambda: {"text": f"Home IPv6 prefix 2a02:{rs(HEX, 4)}:{rs(HEX, 4)}::/56"},
        lambda: {"text": f"Wi-Fi network name is Vodafone-{rs(UPNUM, 4)}; the password is on the router sticker."},
        lambda: {"text": "postgresql://localhost:5432/app (no auth, local dev only)"}, lambda: {"text": "REDIS_URL=redis://cache:6379/0"},
        lambda: {"text": "mongodb://db.internal:27017/records"},
    ],
    "benign_lookalike_placeholder": [
        lambda: {"text": "OPENAI_API_KEY=<YOUR_API_KEY>"}, lambda: {"text": "Set the key like this: export STRIPE_SECRET_KEY=${STRIPE_KEY}"},
        lambda: {"text": "sk-proj-****REDACTED**** (I rotated it, the real one is in 1Password)"},
        lambda: {"text": "api key format: xxxx-xxxx-xxxx-xxxx"}, lambda: {"text": "GITHUB_TOKEN=ghp_" + "X" * 36},
        lambda: {"text": "AWS docs example: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
        lambda: {"text": "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME"},
        lambda: {"text": "Authorization: Bearer {{access_token}}   (Postman variable)"},
        lambda: {"text": 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me'},
        lambda: {"text": "OPENAI_API_KEY=\nANTHROPIC_API_KEY=\nSTRIPE_SECRET_KEY=\n# fill these in locally, never commit"},
        lambda: {"api_key": "your-api-key-here", "model": "gpt-4o"},
        lambda: {"text": "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----  <- paste yours here (template)"},
        lambda: {"text": "password: ${DB_PASSWORD:?missing}"}, lambda: {"text": "stringData:\n  token: <base64-encoded-token>"},
    ],
    "benign_lookalike_masked": [
        lambda: {"text": f"Card on file: Visa •••• {rs(D, 4)}, exp {R.randint(1, 12):02d}/{R.randint(26, 30)}"},
        lambda: {"text": "password: ********"}, lambda: {"site": "netflix.com", "username": email(), "password": "••••••••••"},
        lambda: {"text": f"Mastercard ending in {rs(D, 4)} was charged 42.90 EUR"}, lambda: {"text": "PIN: ****  (never store it here)"},
        lambda: {"text": f"IBAN ending ...{rs(D, 4)} for the rent"},
        lambda: {"text": f"sk_live_...{rs(B62, 4)} was the key that got rotated (last four only)"},
    ],
    "benign_lookalike_secret_talk": [(lambda t=t: {"text": t}) for t in TALK] + [
        lambda: {"text": f"That prompt used {R.randint(1000, 90000):,} tokens; keep summaries shorter."},
    ],
    "benign_lookalike_password_hint": [
        lambda: {"text": "Password hint for the old laptop: same pattern as the router, with the year at the end."},
        lambda: {"hint": "the one with grandma's street", "site": "old email account"},
        lambda: {"text": "Hinweis fürs Passwort: das übliche mit Großbuchstaben am Anfang."},
        lambda: {"text": "Indice : le nom du premier chat, comme d'habitude."},
        lambda: {"text": "Pista de la contraseña: la de siempre pero con el número de la casa."},
        lambda: {"text": "The banking PIN is the one I use for the old SIM card - not writing it here."},
    ],
    "benign_lookalike_secret_fields": [
        lambda: {"password_last_changed": rdate(2024, 2025)}, lambda: {"token_count": R.randint(500, 9000), "model": "claude-sonnet"},
        lambda: {"pin_required": True, "device": "front door lock"}, lambda: {"api_key_configured": False, "provider": "openai"},
        lambda: {"secret_santa": {"giver": pick(NAMES), "receiver": pick(NAMES), "budget_eur": 25}},
        lambda: {"two_factor": {"enabled": True, "method": "authenticator app"}},
        lambda: {"password_policy": {"min_length": 14, "require_symbol": True, "rotation_days": 90}},
        lambda: {"max_tokens": 4096, "temperature": 0.2}, lambda: {"private_key_path": "~/.ssh/id_ed25519", "agent_forwarding": False},
        lambda: {"session_timeout_minutes": 30, "remember_me": True}, lambda: {"credentials_expire": rdate(2025, 2026), "owner": "IT"},
        lambda: {"auth": {"type": "oauth2", "scopes": ["calendar.read", "contacts.read"]}}, lambda: {"key": "C minor", "tempo_bpm": 92},
        lambda: {"secret": None, "password": "", "pin": None}, lambda: {"token_expiry": f"{rdate(2025, 2026)}T00:00:00Z", "refresh": "automatic"},
        lambda: {"keys_given_to": ["neighbour Ana", "cleaner"], "spare_key": "under the blue pot? no - with Ana"},
        lambda: {"passcode_enabled": True, "face_id": True}, lambda: {"otp_method": "sms", "backup_phone": "mum"},
    ],
    "benign_lookalike_versions_colours": [
        lambda: {"text": f"Running Python 3.11.{R.randint(1, 9)}, Node v20.{R.randint(1, 18)}.{R.randint(0, 9)}, iOS 17.{R.randint(1, 6)} (build 21F{R.randint(10, 99)})"},
        lambda: {"text": f"Brand colours: #{rs(HEXU, 6)} primary, #{rs(HEXU, 6)} accent, #{rs(HEX, 6)} background"},
        lambda: {"theme": {"primary": f"#{rs(HEX, 6)}", "font": "Inter", "radius_px": 8}},
        lambda: {"text": f"Firmware {R.randint(1, 9)}.{R.randint(0, 20)}.{R.randint(0, 99)}-rc{R.randint(1, 4)} on the insulin pump remote"},
    ],
    "benign_lookalike_base64_text": [
        lambda: {"text": f"base64 of the greeting for the test: {b64('Hello from Lisbon! See you on Friday.'.encode())}"},
        lambda: {"text": f"data:image/png;base64,{b64(bytes.fromhex('89504e470d0a1a0a0000000d49484452') + rbytes(45))}"},
        lambda: {"encoded_note": b64("Reminder: pick up Leila at 4pm".encode()), "encoding": "base64"},
        lambda: {"text": f"Authorization header from the docs is built from base64(user:password); ours uses OAuth instead."},
    ],
    "benign_lookalike_provider_ids": [
        lambda: {"text": f"Stripe customer cus_{rs(B62, 14)}, subscription sub_{rs(B62, 24)}"},
        lambda: {"text": f"PaymentIntent pi_3{rs(B62, 23)} failed with card_declined"},
        lambda: {"text": f"Slack channel C0{rs(UPNUM, 9)}, my user id U0{rs(UPNUM, 9)}"},
        lambda: {"text": f"OpenAI file-{rs(B62, 22)} uploaded to assistant asst_{rs(B62, 24)}"},
        lambda: {"text": f"AWS account {rs(D, 12)}, role arn:aws:iam::{rs(D, 12)}:role/ReadOnlyAuditor"},
        lambda: {"text": f"EC2 instance i-0{rs(HEX, 16)} in subnet-{rs(HEX, 17)}"},
        lambda: {"text": f"Google OAuth client id {rs(D, 12)}-{rs(LOWNUM, 32)}.apps.googleusercontent.com"},
        lambda: {"text": f"GA4 measurement id G-{rs(UPNUM, 10)}"}, lambda: {"text": f"Discord user id {rs(D, 18)}"},
        lambda: {"text": f"YouTube video https://youtu.be/{rs(B64U, 11)} about knee exercises"},
        lambda: {"text": f"Doc link https://docs.google.com/document/d/1{rs(B64U, 43)}/edit"},
        lambda: {"text": f"IPFS CID bafybei{rs('abcdefghijklmnopqrstuvwxyz234567', 52)}"},
        lambda: {"text": f"k8s pod api-{rs(LOWNUM, 10)}-{rs(LOWNUM, 5)} crashlooping"},
        lambda: {"text": f"GitHub Actions run 1{rs(D, 9)}, job {rs(D, 11)}"},
    ],
    "benign_lookalike_publishable_key": [
        lambda: {"text": f"Stripe publishable key for the checkout page: pk_live_51{rs(B62, 97)}"},
        lambda: {"text": f"Mapbox public token (URL-restricted): pk.{jb64u({'u': pick(FIRST), 'a': 'cl' + rs(LOWNUM, 23)})}.{rs(B64U, 22)}"},
        lambda: {"text": f"LANGFUSE_PUBLIC_KEY=pk-lf-{uuid4()}"}, lambda: {"text": f"reCAPTCHA site key 6L{rs(B64U, 38)}"},
    ],
}

REPEAT_TWICE = {"benign_lookalike_commit", "benign_lookalike_checksum", "benign_lookalike_docker_digest", "benign_lookalike_uuid",
                "benign_lookalike_request_id", "benign_lookalike_public_key", "benign_lookalike_fingerprint", "benign_lookalike_wallet_address",
                "benign_lookalike_tx_hash", "benign_lookalike_tracking", "benign_lookalike_order_booking", "benign_lookalike_identifiers",
                "benign_lookalike_lab_values", "benign_lookalike_provider_ids", "benign_lookalike_publishable_key"}

def build_lookalikes():
    for kind, gens in LOOKALIKE.items():
        for _ in range(2 if kind in REPEAT_TWICE else 1):
            for g in gens:
                ben(kind, g(), "hard")
    # benign structures placed in key / namespace positions, mirroring the secret evasions
    for _ in range(3):
        ben("benign_lookalike_in_key", {"text": pick(["release notes", "deployed fine", "hotfix for reminders"])}, "hard", key=f"commit-{rs(HEX, 40)}")
        ben("benign_lookalike_in_key", {"text": pick(["scan results", "MRI report summary", "lab PDF"])}, "hard", ns=["memories", f"user-{R.randint(1, 999)}", uuid4()])
    ben("benign_lookalike_in_key", {"text": "donation wallet"}, "hard", key=f"addr-{eth_addr()}")
    ben("benign_lookalike_in_key", {"digest": "see key"}, "hard", key=f"sha256-{rs(HEX, 64)}")

# ===================================================================== main
def main():
    for build in (build_tokens, build_password_prose, build_password_config, build_password_records, build_pins,
                  build_security_answers, build_recovery_codes, build_totp, build_private_keys, build_crypto,
                  build_jwts_sessions, build_signed_urls, build_db_uris, build_cards, build_ssn_iban, build_evasions,
                  build_benign_plain, build_lookalikes):
        build()
    R.shuffle(RECS)
    for i, r in enumerate(RECS, 1):
        r["id"] = f"h4-{i:04d}"
    with OUT.open("w", encoding="utf-8", newline="\n") as f:
        for r in RECS:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    assert all(luhn_ok(c) for c in CARDS), "non-Luhn card generated"
    found = {"".join(card_digits(r["value"])) for r in RECS if r["kind"] in CARD_KINDS}
    assert all(any(c in f for f in found) for c in CARDS), "generated card missing from card records"
    check()

CARD_KINDS = ("payment_card", "evade_card_split", "evade_card_words")
WORD2DIGIT = {w: str(i) for words in DIGIT_WORDS.values() for i, w in enumerate(words)}

def card_digits(value):
    """All digit runs of a record's values (not field names) in document order; digit words mapped to digits."""
    if isinstance(value, dict):
        return [d for v in value.values() for d in card_digits(v)]
    if isinstance(value, list):
        return [d for v in value for d in card_digits(v)]
    text = re.sub(r"[^\W\d_]+", lambda m: WORD2DIGIT.get(m.group(0).lower(), " "), str(value))
    return re.findall(r"\d+", text)

def card_in(value):
    groups = card_digits(value)
    for i in range(len(groups)):
        acc = ""
        for g in groups[i:]:
            acc += g
            if len(acc) > 19:
                break
            if len(acc) >= 13 and luhn_ok(acc) and re.match(r"3[4-8]|4|5[0-5]|2[2-7]|6", acc):
                return acc
    return None

def check():
    rows = [json.loads(line) for line in OUT.read_text(encoding="utf-8").splitlines()]
    keys = ["id", "label", "kind", "variant", "namespace", "key", "value"]
    assert all(list(r) == keys for r in rows), "bad keys"
    assert len({r["id"] for r in rows}) == len(rows), "duplicate ids"
    assert all(r["label"] in ("secret", "benign") and r["variant"] in ("plain", "hard") for r in rows)
    assert all(isinstance(r["namespace"], list) and all(isinstance(x, str) for x in r["namespace"]) and isinstance(r["key"], str) for r in rows)
    ncards = 0
    for r in rows:  # each card record must contain a Luhn-valid 13-19 digit number with a card-brand prefix
        if r["kind"] in CARD_KINDS:
            assert card_in(r["value"]), r["id"]
            ncards += 1
    sec_ = [r for r in rows if r["label"] == "secret"]
    ben_ = [r for r in rows if r["label"] == "benign"]
    stats = {"total": len(rows), "secrets": len(sec_), "benign": len(ben_),
             "secret_hard": sum(r["variant"] == "hard" for r in sec_), "benign_hard": sum(r["variant"] == "hard" for r in ben_),
             "kinds": len({r["kind"] for r in rows}), "secret_kinds": len({r["kind"] for r in sec_}),
             "token_types": len({s.kind for s in SPECS}) if SPECS else None, "cards_luhn_checked": ncards}
    assert stats["secrets"] >= 450 and stats["benign"] >= 350 and stats["secret_hard"] >= 130 and stats["benign_hard"] >= 180, stats
    print(json.dumps(stats))
    return stats

if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        check()
    else:
        main()
