"""Generates heldout2.jsonl: the second frozen held-out corpus of the store's secret guard.

Run once (``python make_heldout2.py``); the output is committed before any further tuning
of the guard and never regenerated or edited afterwards. Written independently of the
first held-out corpus (``../secrets_heldout/``) and of the tuning data: its own templates
and phrasings, its own list of vendors (many not in the other corpora), without running
the guard on any of it.

Every secret is FAKE: random values in the vendors' public formats (prefixes, lengths,
alphabets, and checksums where a format has one: GitHub's CRC32, Luhn for cards, IBAN
mod-97, base58check for Bitcoin keys). Every record is one ``TrustStore.put``:
``{"id", "label": "secret"|"benign", "kind", "variant": "plain"|"hard", "namespace": [...],
"key": str, "value": {...}}``; ``hard`` marks structured records and evasions.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import random
import string
import urllib.parse
import uuid
from pathlib import Path

rng = random.Random(0x4E1D0772)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
LOD = LO + DG
UPD = UP + DG
HEX = "0123456789abcdef"
B64 = AN + "+/"
URLSAFE = AN + "-_"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def r(chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def rbytes(n: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(n))


def pick(seq):
    return rng.choice(seq)


def b62(n: int, width: int) -> str:
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = (DG + UP + LO)[d] + out
    return out.rjust(width, "0")


def b58(data: bytes) -> str:
    n = int.from_bytes(data, "big")
    out = ""
    while n:
        n, d = divmod(n, 58)
        out = B58[d] + out
    return "1" * (len(data) - len(data.lstrip(b"\0"))) + out


def b58check(payload: bytes) -> str:
    return b58(payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4])


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


# -- people, places, names ------------------------------------------------------------------------

PEOPLE = ["Noor", "Kwame", "Ines", "Tomasz", "Mei", "Rafael", "Sanna", "Olu", "Priya", "Dmitri", "Lucía",
          "Hamid", "Freya", "Jun", "Beatriz", "Caleb", "Yara", "Emeka", "Ingrid", "Matteo", "Aroha", "Zeynep"]
PROJECTS = ["atlas", "birch", "cobalt", "dunes", "ember", "fjord", "granite", "harbor", "iris", "juniper",
            "kestrel", "lumen", "meadow", "nimbus", "orchid", "pepper", "quartz", "raven", "sable", "tundra"]
HOSTS = ["db-primary.internal", "10.20.4.17", "pg.acme-corp.io", "mysql.staging.local", "cluster0.x7kqp.mongodb.net",
         "cache-01.prod", "172.31.9.200", "warehouse.snowy.net", "rabbit.ops.lan", "files.example.org"]
USERNAMES = ["admin", "svc_backup", "deploy", "reporting", "jlaine", "app_rw", "etl_user", "root", "ops", "m.santos"]


def person() -> str:
    return pick(PEOPLE)


def project() -> str:
    return pick(PROJECTS)


def uid() -> str:
    return pick([
        lambda: f"user-{rng.randint(100, 9999)}",
        lambda: "u_" + r(LOD, 10),
        lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)),
        lambda: pick(PEOPLE).lower() + str(rng.randint(1, 99)),
    ])()


def namespace() -> list[str]:
    u = uid()
    return pick([["memories", u], ["users", u, "facts"], ["profile", u], ["agent", "notes", u], ["memories", u, "chat"]])


_key_n = [0]


def key() -> str:
    _key_n[0] += 1
    return pick([f"m{_key_n[0]:05d}", f"fact-{_key_n[0]}", f"note_{_key_n[0]:04d}", f"mem/{_key_n[0]}"])


FIELDS = ["text", "content", "memory", "note", "fact", "summary", "detail", "body"]


def wrap(text: str) -> dict:
    f = pick(FIELDS)
    extra = rng.random()
    if extra < 0.2:
        return {f: text, "tags": rng.sample(["work", "home", "infra", "todo", "finance", "travel", "dev"], 2)}
    if extra < 0.3:
        return {f: text, "source": pick(["chat", "email", "voice"]), "created_at": f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"}
    if extra < 0.35:
        return {f: text, "importance": rng.randint(1, 5)}
    return {f: text}


# -- token formats --------------------------------------------------------------------------------


def gh_classic(prefix: str) -> str:
    body = r(AN, 30)
    return prefix + body + b62(binascii.crc32(body.encode()), 6)


def luhn_complete(prefix: str, length: int) -> str:
    digits = prefix + r(DG, length - len(prefix) - 1)
    for check in DG:
        cand = digits + check
        total = 0
        for i, ch in enumerate(reversed(cand)):
            d = int(ch)
            if i % 2:
                d = d * 2 - (9 if d * 2 > 9 else 0)
            total += d
        if total % 10 == 0:
            return cand
    raise AssertionError


def luhn_ok(num: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(num)):
        d = int(ch)
        if i % 2:
            d = d * 2 - (9 if d * 2 > 9 else 0)
        total += d
    return total % 10 == 0


def card_number() -> tuple[str, str]:
    brand = pick(["Visa", "Visa", "Mastercard", "Mastercard", "Amex", "Discover", "JCB", "UnionPay", "Diners"])
    if brand == "Visa":
        return brand, luhn_complete("4" + r(DG, 5), 16)
    if brand == "Mastercard":
        return brand, luhn_complete(pick([str(rng.randint(51, 55)) + r(DG, 4), str(rng.randint(2221, 2720)) + r(DG, 2)]), 16)
    if brand == "Amex":
        return brand, luhn_complete(pick(["34", "37"]) + r(DG, 4), 15)
    if brand == "Discover":
        return brand, luhn_complete(pick(["6011", "65" + r(DG, 2)]) + r(DG, 2), 16)
    if brand == "JCB":
        return brand, luhn_complete(str(rng.randint(3528, 3589)) + r(DG, 2), 16)
    if brand == "Diners":
        return brand, luhn_complete(pick(["36", "38"]) + r(DG, 4), 14)
    return brand, luhn_complete("62" + r(DG, 4), 16)


def fmt_card(num: str, sep: str) -> str:
    if len(num) in (14, 15):
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i:i + 4] for i in range(0, len(num), 4))


def ssn() -> str:
    area = rng.choice([a for a in range(1, 900) if a != 666])
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def iban(country: str, valid: bool = True) -> str:
    spec = {
        "DE": "d18", "FR": "d23", "GB": "a4d14", "NL": "a4d10", "ES": "d20", "IT": "a1d22", "CH": "d17",
        "BE": "d12", "AT": "d16", "PL": "d24", "SE": "d20", "NO": "d11", "DK": "d14", "IE": "a4d14", "PT": "d21",
        "FI": "d14", "LU": "d16",
    }[country]
    bban = ""
    if spec.startswith("a"):
        n_a, n_d = spec[1:].split("d")
        bban = r(UP, int(n_a)) + r(DG, int(n_d))
    else:
        bban = r(DG, int(spec[1:]))
    num = int("".join(str(int(ch, 36)) for ch in bban + country + "00"))
    check = 98 - num % 97
    if not valid:
        check = (check + rng.randint(1, 40)) % 97 or 11
        if check < 2:
            check += 5
    compact = f"{country}{check:02d}{bban}"
    return compact


def spaced4(s: str) -> str:
    return " ".join(s[i:i + 4] for i in range(0, len(s), 4))


def jwt(claims: dict, alg: str = "HS256") -> str:
    head = b64u(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(json.dumps(claims, separators=(",", ":")).encode())
    sig = b64u(rbytes(32 if alg == "HS256" else 256))
    return f"{head}.{body}.{sig}"


def pem_block(label: str, nbytes: int, lead: str = "") -> str:
    data = lead + b64(rbytes(nbytes))
    lines = [data[i:i + 64] for i in range(0, len(data), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def openssh_key() -> str:
    head = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    return pem_block("OPENSSH PRIVATE KEY", 300, head)


def wif(compressed: bool = True) -> str:
    payload = b"\x80" + rbytes(32) + (b"\x01" if compressed else b"")
    return b58check(payload)


def xprv() -> str:
    payload = bytes.fromhex("0488ade4") + b"\x00" + b"\x00" * 4 + b"\x00" * 4 + rbytes(32) + b"\x00" + rbytes(32)
    return b58check(payload)


BIP39 = """abandon ability able about above absent absorb abstract absurd abuse access accident account accuse
achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult
advance advice afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert alien all
alley allow almost alone alpha already also alter always amateur amazing among amount analyst anchor ancient anger
angle angry animal ankle announce annual another answer antenna antique anxiety any apart apology appear apple
approve april arch arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artist
artwork ask aspect assault asset assist assume asthma athlete atom attack attend attitude attract auction audit
august aunt author auto autumn average avocado avoid awake aware away awesome awful awkward axis baby bachelor
bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket battle beach
bean beauty because become beef before begin behave behind believe below belt bench benefit best betray better
between beyond bicycle bid bike bind biology bird birth bitter black blade blame blanket blast bleak bless blind
blood blossom blouse blue blur blush board boat body boil bomb bone bonus book boost border boring borrow boss
bottom bounce box boy bracket brain brand brass brave bread breeze brick bridge brief bright bring brisk broccoli
broken bronze broom brother brown brush bubble buddy budget buffalo build bulb bulk bullet bundle bunker burden
burger burst bus business busy butter buyer buzz cabbage cabin cable cactus cage cake call calm camera camp canal
cancel candy cannon canoe canvas canyon capable capital captain car carbon card cargo carpet carry cart case cash
casino castle casual cat catalog catch category cattle caught cause caution cave ceiling celery cement census
century cereal certain chair chalk champion change chaos chapter charge chase chat cheap check cheese chef cherry
chest chicken chief child chimney choice choose chronic chuckle chunk churn cigar cinnamon circle citizen city
zebra zero zone zoo youth young yellow year yard wrong write wrist world wolf wisdom winter window wild wheat""".split()


def mnemonic(n: int) -> list[str]:
    return [pick(BIP39) for _ in range(n)]


def bech32_upper(n: int) -> str:
    return r(BECH32, n).upper()


def azure_client_secret() -> str:
    alpha = AN + "_~.-"
    return r(alpha, 3) + "8Q~" + r(alpha, 34)


def discord_bot() -> str:
    snowflake = str(rng.randint(10**17, 10**19 - 1))
    return b64u(snowflake.encode()) + "." + r(URLSAFE, 6) + "." + r(URLSAFE, 38)


def atlassian() -> str:
    return "ATATT3xFfGF0" + r(URLSAFE, 170) + "=" + r(HEX.upper(), 8)


def sentry_org() -> str:
    body = b64u(json.dumps({"iat": rng.randint(1_700_000_000, 1_750_000_000), "url": "https://sentry.io", "region_url": "https://us.sentry.io",
                            "org": project()}).encode())
    return "sntrys_" + body + "_" + r(B64.replace("+", "").replace("/", ""), 43)


def mapbox(kind: str) -> str:
    body = b64u(json.dumps({"u": pick(PEOPLE).lower(), "a": r(LOD, 25)}, separators=(",", ":")).encode())
    return f"{kind}.{body}.{r(URLSAFE, 22)}"


def onepassword_sa() -> str:
    body = b64u(json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256",
                            "iterations": 650000, "salt": r(URLSAFE, 22)}, "email": r(LOD, 12) + "@1passwordserviceaccounts.com",
                            "srpX": r(HEX, 64), "muk": {"alg": "A256GCM", "ext": True, "k": r(URLSAFE, 43), "key_ops": ["encrypt", "decrypt"],
                            "kty": "oct", "kid": "mp"}, "secretKey": "A3-" + r(UPD, 6) + "-" + r(UPD, 6), "throttleSecret": {"seed": r(HEX, 64),
                            "uuid": r(UPD, 26)}, "deviceUuid": r(LOD, 26)}).encode())
    return "ops_" + body


def onepassword_secret_key() -> str:
    a = "ABCDEFGHJKLMNPQRSTVWXYZ23456789"
    return f"A3-{r(a, 6)}-{r(a, 6)}-{r(a, 5)}-{r(a, 5)}-{r(a, 5)}-{r(a, 5)}"


def twitter_bearer() -> str:
    return "AAAAAAAAAAAAAAAAAAAAA" + r(AN, 7) + "AAAAAA" + r(AN + "%", 80)


# Vendor table: name, env var, token generator, has a distinctive prefix (can be written bare).
VENDORS: list[tuple[str, str, object, bool]] = [
    ("GitHub", "GITHUB_TOKEN", lambda: gh_classic(pick(["ghp_", "gho_", "ghu_", "ghs_"])), True),
    ("GitHub fine-grained", "GH_PAT", lambda: "github_pat_" + r(AN, 22) + "_" + r(AN, 59), True),
    ("GitLab runner", "CI_RUNNER_TOKEN", lambda: "glrt-" + r(URLSAFE, 20), True),
    ("GitLab deploy", "GITLAB_DEPLOY_TOKEN", lambda: "gldt-" + r(URLSAFE, 20), True),
    ("GitLab", "GITLAB_TOKEN", lambda: "glpat-" + r(URLSAFE, 20), True),
    ("Bitbucket app password", "BITBUCKET_APP_PASSWORD", lambda: "ATBB" + r(AN, 32) + r(HEX.upper(), 8), True),
    ("Atlassian API", "JIRA_API_TOKEN", atlassian, True),
    ("OpenAI", "OPENAI_API_KEY", lambda: pick(["sk-proj-", "sk-svcacct-", "sk-admin-"]) + r(URLSAFE, 58) + "T3BlbkFJ" + r(URLSAFE, 58), True),
    ("Anthropic", "ANTHROPIC_API_KEY", lambda: "sk-ant-api03-" + r(URLSAFE, 93) + "AA", True),
    ("Anthropic admin", "ANTHROPIC_ADMIN_KEY", lambda: "sk-ant-admin01-" + r(URLSAFE, 93) + "AA", True),
    ("OpenRouter", "OPENROUTER_API_KEY", lambda: "sk-or-v1-" + r(HEX, 64), True),
    ("Hugging Face", "HF_TOKEN", lambda: "hf_" + r(AN, 34), True),
    ("Replicate", "REPLICATE_API_TOKEN", lambda: "r8_" + r(AN, 37), True),
    ("Groq", "GROQ_API_KEY", lambda: "gsk_" + r(AN, 52), True),
    ("xAI", "XAI_API_KEY", lambda: "xai-" + r(AN, 80), True),
    ("Perplexity", "PPLX_API_KEY", lambda: "pplx-" + r(AN, 48), True),
    ("LangSmith", "LANGSMITH_API_KEY", lambda: pick(["lsv2_pt_", "lsv2_sk_"]) + r(HEX, 32) + "_" + r(HEX, 10), True),
    ("Langfuse", "LANGFUSE_SECRET_KEY", lambda: "sk-lf-" + str(uuid.UUID(int=rng.getrandbits(128), version=4)), True),
    ("Pinecone", "PINECONE_API_KEY", lambda: "pcsk_" + r(AN, 6) + "_" + r(AN, 62), True),
    ("Tavily", "TAVILY_API_KEY", lambda: "tvly-" + pick(["", "dev-", "prod-"]) + r(AN, 32), True),
    ("LlamaCloud", "LLAMA_CLOUD_API_KEY", lambda: "llx-" + r(AN, 48), True),
    ("Cerebras", "CEREBRAS_API_KEY", lambda: "csk-" + r(LOD, 48), True),
    ("Together AI", "TOGETHER_API_KEY", lambda: "tgp_v1_" + r(URLSAFE, 43), True),
    ("ElevenLabs", "ELEVENLABS_API_KEY", lambda: "sk_" + r(HEX, 48), True),
    ("Mistral", "MISTRAL_API_KEY", lambda: r(AN, 32), False),
    ("Cohere", "COHERE_API_KEY", lambda: r(AN, 40), False),
    ("DeepSeek", "DEEPSEEK_API_KEY", lambda: "sk-" + r(HEX, 32), False),
    ("Weights & Biases", "WANDB_API_KEY", lambda: r(HEX, 40), False),
    ("Google OAuth access", "GOOGLE_ACCESS_TOKEN", lambda: "ya29." + r(URLSAFE, 150), True),
    ("Google OAuth refresh", "GOOGLE_REFRESH_TOKEN", lambda: "1//0" + r(URLSAFE, 99), True),
    ("Google OAuth client secret", "GOOGLE_CLIENT_SECRET", lambda: "GOCSPX-" + r(URLSAFE, 28), True),
    ("Gemini", "GEMINI_API_KEY", lambda: "AIza" + r(URLSAFE, 35), True),
    ("Firebase Cloud Messaging", "FCM_SERVER_KEY", lambda: "AAAA" + r(URLSAFE, 7) + ":APA91b" + r(URLSAFE, 134), True),
    ("AWS", "AWS_ACCESS_KEY_ID", lambda: pick(["AKIA", "ASIA"]) + r(B32, 16), True),
    ("Azure AD app", "AZURE_CLIENT_SECRET", azure_client_secret, True),
    ("Alibaba Cloud", "ALIBABA_CLOUD_ACCESS_KEY_ID", lambda: "LTAI" + r(AN, 20), True),
    ("Tencent Cloud", "TENCENTCLOUD_SECRET_ID", lambda: "AKID" + r(AN, 32), True),
    ("DigitalOcean", "DIGITALOCEAN_TOKEN", lambda: pick(["dop_v1_", "doo_v1_"]) + r(HEX, 64), True),
    ("Linode", "LINODE_TOKEN", lambda: r(HEX, 64), False),
    ("Hetzner Cloud", "HCLOUD_TOKEN", lambda: r(AN, 64), False),
    ("Scaleway", "SCW_SECRET_KEY", lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)), False),
    ("Cloudflare", "CLOUDFLARE_API_TOKEN", lambda: r(URLSAFE, 40), False),
    ("Cloudflare origin CA", "CF_ORIGIN_CA_KEY", lambda: "v1.0-" + r(HEX, 24) + "-" + r(HEX, 146), True),
    ("Vercel", "VERCEL_TOKEN", lambda: r(AN, 24), False),
    ("Netlify", "NETLIFY_AUTH_TOKEN", lambda: "nfp_" + r(AN, 36), True),
    ("Render", "RENDER_API_KEY", lambda: "rnd_" + r(AN, 32), True),
    ("Fly.io", "FLY_API_TOKEN", lambda: "FlyV1 fm2_" + r(URLSAFE, 300), True),
    ("Heroku", "HEROKU_API_KEY", lambda: "HRKU-AA" + r(URLSAFE, 58), True),
    ("Neon", "NEON_API_KEY", lambda: "napi_" + r(LOD, 64), True),
    ("PlanetScale", "PLANETSCALE_SERVICE_TOKEN", lambda: pick(["pscale_tkn_", "pscale_pw_"]) + r(URLSAFE, 43), True),
    ("Supabase", "SUPABASE_ACCESS_TOKEN", lambda: "sbp_" + r(HEX, 40), True),
    ("Doppler", "DOPPLER_TOKEN", lambda: pick(["dp.pt.", "dp.st.prd.", "dp.sa."]) + r(AN, 43), True),
    ("HashiCorp Vault", "VAULT_TOKEN", lambda: "hvs." + r(URLSAFE, 92), True),
    ("Terraform Cloud", "TFE_TOKEN", lambda: r(LOD, 14) + ".atlasv1." + r(URLSAFE, 67), True),
    ("Pulumi", "PULUMI_ACCESS_TOKEN", lambda: "pul-" + r(HEX, 40), True),
    ("Tailscale", "TS_AUTHKEY", lambda: "tskey-auth-" + r(AN, 17) + "-" + r(AN, 33), True),
    ("ngrok", "NGROK_AUTHTOKEN", lambda: "2" + r(AN, 26) + "_" + r(AN, 21), False),
    ("Docker Hub", "DOCKERHUB_TOKEN", lambda: "dckr_pat_" + r(URLSAFE, 27), True),
    ("JFrog", "ARTIFACTORY_API_KEY", lambda: "AKCp" + r(AN, 69), True),
    ("npm", "NPM_TOKEN", lambda: "npm_" + r(AN, 36), True),
    ("PyPI", "TWINE_PASSWORD", lambda: "pypi-AgEIcHlwaS5vcmc" + r(URLSAFE, 70), True),
    ("RubyGems", "GEM_HOST_API_KEY", lambda: "rubygems_" + r(HEX, 48), True),
    ("NuGet", "NUGET_API_KEY", lambda: "oy2" + r(LOD, 43), True),
    ("crates.io", "CARGO_REGISTRY_TOKEN", lambda: "cio" + r(AN, 32), True),
    ("Clojars", "CLOJARS_TOKEN", lambda: "CLOJARS_" + r(LOD, 60), True),
    ("Buildkite", "BUILDKITE_API_TOKEN", lambda: "bkua_" + r(HEX, 40), True),
    ("CircleCI", "CIRCLE_TOKEN", lambda: "CCIPAT_" + r(AN, 22) + "_" + r(HEX, 40), True),
    ("SonarQube", "SONAR_TOKEN", lambda: pick(["squ_", "sqp_"]) + r(HEX, 40), True),
    ("Sourcegraph", "SRC_ACCESS_TOKEN", lambda: "sgp_" + r(HEX, 16) + "_" + r(HEX, 40), True),
    ("Octopus Deploy", "OCTOPUS_API_KEY", lambda: "API-" + r(UPD, 26), True),
    ("Prefect", "PREFECT_API_KEY", lambda: "pnu_" + r(AN, 36), True),
    ("Infracost", "INFRACOST_API_KEY", lambda: "ico-" + r(AN, 32), True),
    ("Snyk", "SNYK_TOKEN", lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)), False),
    ("Datadog", "DD_API_KEY", lambda: r(HEX, 32), False),
    ("New Relic", "NEW_RELIC_API_KEY", lambda: "NRAK-" + r(UPD, 27), True),
    ("Grafana service account", "GRAFANA_SA_TOKEN", lambda: "glsa_" + r(AN, 32) + "_" + r(HEX, 8), True),
    ("Grafana Cloud", "GRAFANA_CLOUD_TOKEN", lambda: "glc_" + b64u(json.dumps({"o": str(rng.randint(10**5, 10**6)), "n": "stack-" + project(), "k": r(AN, 24), "m": {"r": "prod-us-east-0"}}).encode()), True),
    ("Dynatrace", "DT_API_TOKEN", lambda: "dt0c01." + r(UPD, 24) + "." + r(UPD, 64), True),
    ("Sentry", "SENTRY_AUTH_TOKEN", lambda: pick([sentry_org, lambda: "sntryu_" + r(HEX, 64)])(), True),
    ("PagerDuty", "PAGERDUTY_TOKEN", lambda: "u+" + r(URLSAFE, 18), False),
    ("Linear", "LINEAR_API_KEY", lambda: "lin_api_" + r(AN, 40), True),
    ("Notion", "NOTION_TOKEN", lambda: pick(["ntn_" + r(DG, 11) + r(AN, 35), "secret_" + r(AN, 43)]), True),
    ("Figma", "FIGMA_TOKEN", lambda: "figd_" + r(URLSAFE, 40), True),
    ("Asana", "ASANA_PAT", lambda: "2/" + r(DG, 16) + "/" + r(DG, 16) + ":" + r(HEX, 32), True),
    ("ClickUp", "CLICKUP_API_TOKEN", lambda: "pk_" + r(DG, 8) + "_" + r(UPD, 32), True),
    ("Airtable", "AIRTABLE_PAT", lambda: "pat" + r(AN, 14) + "." + r(HEX, 64), True),
    ("Typeform", "TYPEFORM_TOKEN", lambda: "tfp_" + r(AN, 44) + "_" + r(AN, 14), True),
    ("Contentful", "CONTENTFUL_MANAGEMENT_TOKEN", lambda: "CFPAT-" + r(URLSAFE, 43), True),
    ("Readme", "README_API_KEY", lambda: "rdme_" + r(LOD, 70), True),
    ("Frame.io", "FRAMEIO_TOKEN", lambda: "fio-u-" + r(URLSAFE, 64), True),
    ("Adobe", "ADOBE_CLIENT_SECRET", lambda: "p8e-" + r(AN, 32), True),
    ("Adafruit IO", "ADAFRUIT_IO_KEY", lambda: "aio_" + r(AN, 28), True),
    ("Postman", "POSTMAN_API_KEY", lambda: "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34), True),
    ("Mapbox", "MAPBOX_SECRET_TOKEN", lambda: mapbox("sk"), True),
    ("Algolia admin", "ALGOLIA_ADMIN_KEY", lambda: r(HEX, 32), False),
    ("Okta", "OKTA_API_TOKEN", lambda: "00" + r(URLSAFE, 40), False),
    ("Auth0", "AUTH0_CLIENT_SECRET", lambda: r(URLSAFE, 64), False),
    ("Clerk", "CLERK_SECRET_KEY", lambda: "sk_live_" + r(AN, 40), True),
    ("LaunchDarkly", "LD_SDK_KEY", lambda: "sdk-" + str(uuid.UUID(int=rng.getrandbits(128), version=4)), True),
    ("Stripe", "STRIPE_SECRET_KEY", lambda: pick(["sk_live_", "rk_live_"]) + r(AN, 99), True),
    ("Stripe webhook", "STRIPE_WEBHOOK_SECRET", lambda: "whsec_" + r(AN, 32), True),
    ("Square", "SQUARE_ACCESS_TOKEN", lambda: pick(["EAAA" + r(URLSAFE, 60), "sq0csp-" + r(URLSAFE, 43)]), True),
    ("Braintree", "BRAINTREE_ACCESS_TOKEN", lambda: "access_token$production$" + r(LOD, 16) + "$" + r(HEX, 32), True),
    ("Razorpay", "RAZORPAY_KEY_SECRET", lambda: r(AN, 24), False),
    ("Paystack", "PAYSTACK_SECRET_KEY", lambda: "sk_live_" + r(HEX, 40), True),
    ("Flutterwave", "FLW_SECRET_KEY", lambda: "FLWSECK-" + r(HEX, 32) + "-X", True),
    ("Mollie", "MOLLIE_API_KEY", lambda: "live_" + r(AN, 30), True),
    ("GoCardless", "GOCARDLESS_ACCESS_TOKEN", lambda: "live_" + r(URLSAFE, 40), True),
    ("Plaid", "PLAID_ACCESS_TOKEN", lambda: "access-production-" + str(uuid.UUID(int=rng.getrandbits(128), version=4)), True),
    ("Duffel", "DUFFEL_ACCESS_TOKEN", lambda: "duffel_live_" + r(URLSAFE, 43), True),
    ("Shippo", "SHIPPO_API_TOKEN", lambda: "shippo_live_" + r(HEX, 40), True),
    ("EasyPost", "EASYPOST_API_KEY", lambda: "EZAK" + r(HEX, 54), True),
    ("Shopify", "SHOPIFY_ACCESS_TOKEN", lambda: pick(["shpat_", "shpss_", "shpca_"]) + r(HEX, 32), True),
    ("Twilio", "TWILIO_API_KEY", lambda: "SK" + r(HEX, 32), True),
    ("Twilio auth", "TWILIO_AUTH_TOKEN", lambda: r(HEX, 32), False),
    ("SendGrid", "SENDGRID_API_KEY", lambda: "SG." + r(URLSAFE, 22) + "." + r(URLSAFE, 43), True),
    ("Brevo", "BREVO_API_KEY", lambda: "xkeysib-" + r(HEX, 64) + "-" + r(AN, 16), True),
    ("MailerSend", "MAILERSEND_API_TOKEN", lambda: "mlsn." + r(HEX, 64), True),
    ("Mailgun", "MAILGUN_API_KEY", lambda: "key-" + r(HEX, 32), True),
    ("Mailchimp", "MAILCHIMP_API_KEY", lambda: r(HEX, 32) + "-us" + str(rng.randint(1, 21)), True),
    ("Mandrill", "MANDRILL_API_KEY", lambda: "md-" + r(URLSAFE, 22), True),
    ("Postmark", "POSTMARK_SERVER_TOKEN", lambda: str(uuid.UUID(int=rng.getrandbits(128), version=4)), False),
    ("Resend", "RESEND_API_KEY", lambda: "re_" + r(AN, 8) + "_" + r(AN, 24), True),
    ("Slack bot", "SLACK_BOT_TOKEN", lambda: f"xoxb-{r(DG, 12)}-{r(DG, 13)}-{r(AN, 24)}", True),
    ("Slack app-level", "SLACK_APP_TOKEN", lambda: f"xapp-1-A{r(UPD, 10)}-{r(DG, 13)}-{r(HEX, 64)}", True),
    ("Discord bot", "DISCORD_TOKEN", discord_bot, True),
    ("Telegram bot", "TELEGRAM_BOT_TOKEN", lambda: f"{rng.randint(10**8, 10**10)}:AA{r(URLSAFE, 33)}", True),
    ("Twitter/X bearer", "TWITTER_BEARER_TOKEN", twitter_bearer, True),
    ("Facebook", "FB_ACCESS_TOKEN", lambda: "EAA" + pick(["B", "G", "J"]) + r(AN, 180), True),
    ("Instagram", "IG_ACCESS_TOKEN", lambda: "IGQV" + r(URLSAFE, 180), True),
    ("Twitch", "TWITCH_OAUTH", lambda: "oauth:" + r(LOD, 30), True),
    ("Dropbox", "DROPBOX_TOKEN", lambda: "sl." + r(URLSAFE, 136), True),
    ("Yandex", "YANDEX_OAUTH_TOKEN", lambda: "y0_" + r(URLSAFE, 55), True),
    ("1Password service account", "OP_SERVICE_ACCOUNT_TOKEN", onepassword_sa, True),
    ("age", "SOPS_AGE_KEY", lambda: "AGE-SECRET-KEY-1" + bech32_upper(58), True),
    ("Defined Networking", "DN_API_KEY", lambda: "dnkey-" + r(UPD, 26) + "-" + r(UPD, 52), True),
    ("Harness", "HARNESS_PLATFORM_API_KEY", lambda: "pat." + r(URLSAFE, 22) + "." + r(HEX, 24) + "." + r(AN, 20), True),
]


def vendor_text(name: str, env: str, tok: str, bare_ok: bool) -> tuple[str, str]:
    """A memory holding ``tok``; returns (text, how)."""
    lower = env.lower()
    with_name = [
        f"{name} token for {project()} is {tok}",
        f"Reminder to self: {name} credentials -> {tok}",
        f"I regenerated the {name} key this morning, new value {tok}",
        f"{person()} gave me our {name} key ({tok}), use it for the nightly job",
        f"{name} API key: {tok} — staging only",
        f"Der {name}-Schlüssel für das Projekt lautet {tok}",
        f"Clé API {name} pour la prod : {tok}",
        f"La clave de {name} que uso es {tok}",
        f"Il token di {name} è {tok}, non condividerlo",
        f"A chave do {name} é {tok}",
        f"Mijn {name} sleutel: {tok}",
        f"{name}のAPIキーは{tok}です",
        f"{name}的访问令牌：{tok}",
        f"Klucz {name} do testów: {tok}",
    ]
    config = [
        f"{env}={tok}",
        f"export {env}='{tok}'",
        f"{lower}: {tok}",
        f'"{lower}": "{tok}"',
        f"set {env} to {tok} in the .env before deploying",
        f"{env} = \"{tok}\"  # do not commit",
    ]
    bare = [
        tok,
        f"paste this into the settings page: {tok}",
        f"the new one from the dashboard: {tok}",
        f"`{tok}`",
        f"keep {tok} somewhere safe for me",
        f"got it -> {tok}",
    ]
    choice = rng.random()
    if bare_ok and choice < 0.33:
        return pick(bare), "bare"
    if choice < 0.66:
        return pick(config), "config"
    return pick(with_name), "named"


records: list[dict] = []


def add(label: str, kind: str, value, variant: str = "plain", ns=None, k=None) -> None:
    n = sum(1 for x in records if x["label"] == label)
    records.append({
        "id": ("x" if label == "secret" else "y") + f"{n:04d}",
        "label": label,
        "kind": kind,
        "variant": variant,
        "namespace": ns if ns is not None else namespace(),
        "key": k if k is not None else key(),
        "value": value,
    })


def sec(kind: str, value, variant: str = "plain", ns=None, k=None) -> None:
    add("secret", kind, value, variant, ns, k)


def ben(kind: str, value, variant: str = "plain", ns=None, k=None) -> None:
    add("benign", kind, value, variant, ns, k)


# == secrets: vendor tokens ========================================================================

for name, env, gen, bare_ok in VENDORS:
    n = 2 if not bare_ok else pick([2, 2, 3])
    for _ in range(n):
        text, _how = vendor_text(name, env, gen(), bare_ok)
        sec(f"{name} token", wrap(text))

# AWS secret access keys and key pairs, session tokens
for _ in range(4):
    kid, sk = "AKIA" + r(B32, 16), r(B64, 40)
    sec("AWS key pair", wrap(pick([
        f"aws_access_key_id = {kid}\naws_secret_access_key = {sk}",
        f"AWS creds for the backup bucket: {kid} / {sk}",
        f"access key {kid}, secret {sk}",
        f"[profile {project()}]\naws_access_key_id={kid}\naws_secret_access_key={sk}\nregion=eu-west-1",
    ])))
for _ in range(3):
    sk = r(B64, 40)
    sec("AWS secret key", wrap(pick([
        f"AWS_SECRET_ACCESS_KEY={sk}",
        f"the secret access key for the IAM user ci-bot is {sk}",
        f"aws secret: {sk}",
    ])))
sec("AWS session token", wrap("AWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE" + r(B64, 300)))

# Azure storage keys, SAS
for _ in range(3):
    acct = project() + "store" + r(DG, 2)
    k88 = r(B64, 86) + "=="
    sec("Azure storage key", wrap(pick([
        f"DefaultEndpointsProtocol=https;AccountName={acct};AccountKey={k88};EndpointSuffix=core.windows.net",
        f"storage account {acct} key1: {k88}",
        f"AZURE_STORAGE_KEY={k88}",
    ])))

# == secrets: private keys, wallets, 2FA ===========================================================

sec("private key", wrap("deploy key for the build box:\n" + openssh_key()))
sec("private key", wrap(pem_block("RSA PRIVATE KEY", 900, "MIIEpAIBAAKCAQEA")))
sec("private key", wrap(pem_block("EC PRIVATE KEY", 90, "MHcCAQEEI")))
sec("private key", wrap("TLS key for the dashboard:\n" + pem_block("PRIVATE KEY", 900, "MIIEvgIBADANBgkqhkiG9w0BAQEFAASC")))
sec("private key", wrap(pem_block("ENCRYPTED PRIVATE KEY", 900, "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI")))
sec("private key", wrap(pem_block("PGP PRIVATE KEY BLOCK", 700, "lQOYBGX")))
sec("private key", {"filename": "id_ed25519", "contents": openssh_key()}, "hard")
gsa = {
    "type": "service_account", "project_id": f"{project()}-{r(DG, 6)}", "private_key_id": r(HEX, 40),
    "private_key": pem_block("PRIVATE KEY", 900, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC").replace("\n", "\\n") + "\\n",
    "client_email": f"runner@{project()}.iam.gserviceaccount.com", "client_id": r(DG, 21),
}
sec("GCP service account", {"text": json.dumps(gsa)})
sec("GCP service account", dict(gsa, private_key=gsa["private_key"].replace("\\n", "\n")), "hard")
kube_key = b64(pem_block("RSA PRIVATE KEY", 600, "MIIEowIBAAKCAQEA").encode())
sec("kubeconfig client key", wrap(f"users:\n- name: admin\n  user:\n    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n    client-key-data: {kube_key}"))
wg = b64(rbytes(32))
sec("WireGuard private key", wrap(f"[Interface]\nPrivateKey = {wg}\nAddress = 10.8.0.2/32\nDNS = 1.1.1.1"))
sec("WireGuard private key", wrap(f"wireguard private key for the laptop: {b64(rbytes(32))}"))
sec("PuTTY key", wrap("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: work-laptop\nPublic-Lines: 2\n"
                      + r(B64, 64) + "\n" + r(B64, 4) + "\nPrivate-Lines: 1\n" + r(B64, 44) + "\nPrivate-MAC: " + r(HEX, 64)))
sec("1Password secret key", wrap(f"1Password Secret Key (Emergency Kit): {onepassword_secret_key()}"))
sec("1Password secret key", wrap(f"emergency kit says {onepassword_secret_key()} — store offline"))

for _ in range(3):
    eth = r(HEX, 64)
    sec("Ethereum private key", wrap(pick([
        f"MetaMask account 2 private key: {eth}",
        f"export PRIVATE_KEY=0x{eth}",
        f"private key of the hot wallet 0x{eth}",
    ])))
sec("Ethereum private key", {"wallet": "deployer", "address": "0x" + r(HEX, 40), "privateKey": "0x" + r(HEX, 64)}, "hard")
for _ in range(2):
    sec("Bitcoin private key", wrap(pick([f"WIF for the paper wallet: {wif()}", f"btc privkey {wif(False)}"])))
sec("Bitcoin private key", wrap(f"Electrum master private key {xprv()}"))
sec("Bitcoin extended key", wrap(xprv()))
sec("Solana private key", wrap(f"Phantom export: {b58(rbytes(64))}"))
sec("Solana keypair file", {"file": "~/.config/solana/id.json", "content": json.dumps(list(rbytes(64)))}, "hard")

phrases = [
    lambda w: "seed phrase of my Ledger: " + " ".join(w),
    lambda w: "MetaMask Secret Recovery Phrase — " + " ".join(w),
    lambda w: " ".join(f"{i + 1}. {x}" for i, x in enumerate(w)),
    lambda w: "backup words (Trezor), in order: " + ", ".join(w),
    lambda w: "Wiederherstellungsphrase für die Wallet: " + " ".join(w),
    lambda w: "phrase de récupération : " + " ".join(w),
    lambda w: " ".join(w),
    lambda w: "frase semilla de la billetera: " + " ".join(w),
]
for i, ph in enumerate(phrases):
    sec("recovery phrase", wrap(ph(mnemonic(pick([12, 24, 12])))))
sec("recovery phrase", {"wallet": "Exodus", "words": mnemonic(12)}, "hard")
sec("recovery phrase", {"note": "cold storage", "seed": " ".join(mnemonic(24))}, "hard")

for _ in range(3):
    seed = r(B32, pick([16, 32]))
    sec("2FA seed", wrap(pick([
        f"otpauth://totp/{pick(['GitHub', 'AWS', 'Proton', 'Coinbase'])}:{pick(PEOPLE).lower()}?secret={seed}&issuer=x&digits=6",
        f"TOTP secret for the admin panel: {seed}",
        f"authenticator setup key {' '.join(seed[i:i + 4] for i in range(0, len(seed), 4))}",
    ])))
for _ in range(3):
    sec("backup codes", wrap(pick([
        "GitHub recovery codes: " + " ".join(r(HEX, 5) + "-" + r(HEX, 5) for _ in range(8)),
        "Google backup codes " + ", ".join(r(DG, 4) + " " + r(DG, 4) for _ in range(6)),
        "2FA backup codes for Dropbox: " + " ".join(r(LOD, 4) + " " + r(LOD, 4) for _ in range(5)),
    ])))

# == secrets: URLs, connection strings, headers ====================================================


def human_pw() -> str:
    return pick([
        lambda: pick(["Sunset", "Marigold", "Tiger", "Hazel", "Pluto", "Bluebird", "Cactus", "Mango"]) + pick(["!", "#", "@", "$", "_"]) + str(rng.randint(1970, 2024)),
        lambda: r(AN + "!@#%^&*", rng.randint(12, 20)),
        lambda: "-".join(pick(BIP39) for _ in range(4)),
        lambda: pick(["tr0ub4dor", "p4ssw0rd", "qwerty", "letmein", "dragon"]) + r(DG, 3) + pick(["!", "?", "*"]),
        lambda: r(LO, 4) + r(DG, 2) + r(UP, 2) + pick(["%", "&", "+"]) + r(LO, 3),
    ])()


def url_pw() -> str:
    return r(AN, rng.randint(10, 18))


for _ in range(14):
    u, h, p = pick(USERNAMES), pick(HOSTS), url_pw()
    tmpl = pick([
        f"postgresql://{u}:{p}@{h}:5432/app",
        f"mysql://{u}:{p}@{h}/shop?charset=utf8mb4",
        f"mongodb+srv://{u}:{p}@{h}/?retryWrites=true&w=majority",
        f"redis://:{p}@{h}:6379/0",
        f"rediss://default:{p}@{h}:6380",
        f"amqp://{u}:{p}@{h}:5672/%2f",
        f"sftp://{u}:{p}@{h}/uploads",
        f"https://{u}:{p}@{h}/nexus/repository/",
        f"smtp://{u}:{p}@smtp.mailhost.io:587",
        f"ldap bind: cn={u},dc=corp,dc=local / {p}",
        f"jdbc:postgresql://{h}:5432/erp?user={u}&password={p}",
        f"Server={h};Database=Sales;User Id={u};Password={p};",
        f"Driver={{ODBC Driver 18 for SQL Server}};Server={h};Uid={u};Pwd={p};Encrypt=yes",
        f"clickhouse://{u}:{p}@{h}:9000/default",
    ])
    sec("connection string", wrap(pick([tmpl, f"connection string for {project()}: {tmpl}", f"DATABASE_URL={tmpl}"])))

for _ in range(10):
    tmpl = pick([
        lambda: "Authorization: Bearer " + jwt({"sub": r(DG, 8), "iat": 1736000000, "exp": 1767536000, "scope": "admin"}),
        lambda: "Authorization: Basic " + b64(f"{pick(USERNAMES)}:{url_pw()}".encode()),
        lambda: f"curl -H 'X-API-Key: {r(HEX, 40)}' https://api.{project()}.io/v2/items",
        lambda: f"curl -u {pick(USERNAMES)}:{url_pw()} https://{pick(HOSTS)}/api/export",
        lambda: f"header x-auth-token: {r(URLSAFE, 48)}",
        lambda: f"Cookie: sessionid={r(LOD, 32)}; csrftoken={r(AN, 64)}",
        lambda: "the session JWT is " + jwt({"user_id": rng.randint(1, 99999), "role": "owner", "iat": 1738000000}, "RS256"),
        lambda: f"git remote set-url origin https://x-access-token:{gh_classic('ghs_')}@github.com/{project()}/app.git",
        lambda: f"https://api.{project()}.com/v1/report?api_key={r(AN, 32)}&format=csv",
        lambda: f"wss://stream.{project()}.io/feed?access_token={r(URLSAFE, 40)}",
    ])
    sec("auth header or URL", wrap(tmpl()))

for _ in range(4):
    tmpl = pick([
        lambda: (f"https://{project()}-exports.s3.amazonaws.com/report.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA{r(B32, 16)}%2F20250301%2Fus-east-1%2Fs3%2Faws4_request"
                 f"&X-Amz-Date=20250301T101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature={r(HEX, 64)}"),
        lambda: (f"https://storage.googleapis.com/{project()}-media/v.mp4?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=svc%40{project()}.iam.gserviceaccount.com"
                 f"%2F20250301%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20250301T000000Z&X-Goog-Expires=3600&X-Goog-SignedHeaders=host&X-Goog-Signature={r(HEX, 256)}"),
        lambda: f"https://{project()}data.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=sco&sp=rwdlac&se=2026-01-01T00:00:00Z&st=2025-01-01T00:00:00Z&spr=https&sig={urllib.parse.quote(b64(rbytes(32)))}",
    ])
    sec("signed URL", wrap("download link (valid a week): " + tmpl()))

for _ in range(5):
    tmpl = pick([
        lambda: f"https://hooks.slack.com/services/T{r(UPD, 9)}/B{r(UPD, 10)}/{r(AN, 24)}",
        lambda: f"https://discord.com/api/webhooks/{r(DG, 19)}/{r(URLSAFE, 68)}",
        lambda: f"https://{project()}.webhook.office.com/webhookb2/{uuid.UUID(int=rng.getrandbits(128), version=4)}@{uuid.UUID(int=rng.getrandbits(128), version=4)}/IncomingWebhook/{r(HEX, 32)}/{uuid.UUID(int=rng.getrandbits(128), version=4)}",
        lambda: f"https://hooks.zapier.com/hooks/catch/{r(DG, 8)}/{r(LOD, 6)}/",
    ])
    sec("webhook URL", wrap(pick(["alerts webhook: ", "post deploy notices to ", ""]) + tmpl()))

# == secrets: passwords in config lines ===========================================================

config_pw = [
    lambda p: f"DB_PASSWORD={p}",
    lambda p: f"POSTGRES_PASSWORD: \"{p}\"",
    lambda p: f"spring.datasource.password={p}",
    lambda p: f"machine ftp.{project()}.net login {pick(USERNAMES)} password {p}",
    lambda p: f"[client]\nuser={pick(USERNAMES)}\npassword={p}",
    lambda p: f"{pick(HOSTS)}:5432:*:{pick(USERNAMES)}:{p}",
    lambda p: f"wpa_passphrase={p}",
    lambda p: f"WIFI:T:WPA;S:{pick(['Casa', 'Home', 'Lab'])}-{r(DG, 3)};P:{p};;",
    lambda p: f"smtp_pass: '{p}'",
    lambda p: f"ADMIN_PASS := {p}",
    lambda p: f"<add key=\"SmtpPassword\" value=\"{p}\" />",
    lambda p: f"rootpw = {p}",
    lambda p: f"mqtt:\n  user: sensors\n  pass: {p}",
    lambda p: f"--password '{p}'",
    lambda p: f"docker login -u {pick(USERNAMES)} -p {p} registry.{project()}.io",
    lambda p: f"keystore.password={p}",
    lambda p: f"passwd: {p}",
    lambda p: f"requirepass {p}",
    lambda p: f"$env:SQL_PWD = \"{p}\"",
    lambda p: f"secret_key_base: {r(HEX, 128)}",
    lambda p: f"SECRET_KEY = '{r(AN + '!@#%^&*(-_=+)', 50)}'",
    lambda p: f"jwt_secret: {r(AN, 48)}",
    lambda p: f"client_secret={r(URLSAFE, 40)}",
    lambda p: f"encryption_key = {b64(rbytes(32))}",
]
for t in config_pw:
    sec("password in config", wrap(t(human_pw())))

# == secrets: passwords and codes in prose (several languages) ====================================

prose_pw = [
    lambda p: f"My Netflix login is {pick(PEOPLE).lower()}@mailbox.org and the password is {p}",
    lambda p: f"wifi at grandma's: network Vodafone-{r(UPD, 4)}, password {p}",
    lambda p: f"the router admin page uses admin / {p}",
    lambda p: f"New password for the bank app: {p} (changed it on Tuesday)",
    lambda p: f"{p} is what I set for the office VPN",
    lambda p: f"For the school portal: username {pick(PEOPLE).lower()}.k, pw {p}",
    lambda p: f"remember that the laptop login is now {p}",
    lambda p: f"NAS admin pass → {p}",
    lambda p: f"passphrase for my GPG key: {p}",
    lambda p: f"Das WLAN-Passwort im Ferienhaus ist {p}",
    lambda p: f"Mein Passwort für das Finanzamt-Portal: {p}",
    lambda p: f"Le mot de passe du compte Ameli est {p}",
    lambda p: f"mdp de la box : {p}",
    lambda p: f"La contraseña del correo del trabajo es {p}",
    lambda p: f"contraseña wifi oficina: {p}",
    lambda p: f"La password dell'home banking è {p}",
    lambda p: f"A senha do Wi-Fi da casa é {p}",
    lambda p: f"Het wachtwoord van de router is {p}",
    lambda p: f"Hasło do konta w banku: {p}",
    lambda p: f"Lösenordet till jobbdatorn är {p}",
    lambda p: f"Wi-Fi şifresi: {p}",
    lambda p: f"Пароль от почты: {p}",
    lambda p: f"会社のメールのパスワードは {p} です",
    lambda p: f"家里路由器的密码是 {p}",
    lambda p: f"공유기 비밀번호는 {p} 입니다",
    lambda p: f"Salasana työkoneeseen: {p}",
    lambda p: f"ok so for the streaming account it's {pick(PEOPLE).lower()}91 and {p}",
    lambda p: f"Password hint no, the actual password: {p}",
    lambda p: f"I reset the Apple ID password to {p}",
    lambda p: f"login for the electricity supplier site -> user {pick(PEOPLE).lower()}, password: {p}",
    lambda p: f"pw for the shared drive is {p}, don't tell the interns",
    lambda p: f"Kennwort für den Drucker-Admin: {p}",
]
for t in prose_pw:
    sec("password in prose", wrap(t(human_pw())))

pins = [
    lambda: f"My debit card PIN is {r(DG, 4)}",
    lambda: f"ATM pin {r(DG, 4)} for the credit union card",
    lambda: f"phone unlock code: {r(DG, 6)}",
    lambda: f"alarm system disarm code {r(DG, 4)}#",
    lambda: f"garage keypad code is {r(DG, 4)}",
    lambda: f"gym locker combination {rng.randint(0, 39)}-{rng.randint(0, 39)}-{rng.randint(0, 39)}",
    lambda: f"SIM PIN {r(DG, 4)}, PUK {r(DG, 8)}",
    lambda: f"Meine Geheimzahl für die EC-Karte ist {r(DG, 4)}",
    lambda: f"code de la porte d'entrée : {r(DG, 4)}B",
    lambda: f"El PIN de la tarjeta es {r(DG, 4)}",
    lambda: f"Il PIN del bancomat è {r(DG, 5)}",
    lambda: f"voicemail passcode {r(DG, 6)}",
    lambda: f"the key safe at the cabin opens with {r(DG, 4)}",
    lambda: f"bank telephone banking passcode is {r(DG, 6)}",
    lambda: f"暗証番号は{r(DG, 4)}",
]
for t in pins:
    sec("PIN or code", wrap(t()))

# == secrets: cards, SSNs =========================================================================

card_prose = [
    lambda b, n, s: f"my {b} is {fmt_card(n, s)} exp {rng.randint(1, 12):02d}/{rng.randint(26, 31)}",
    lambda b, n, s: f"company card {fmt_card(n, s)}, CVC {r(DG, 3)}",
    lambda b, n, s: f"use {fmt_card(n, s)} for the hotel booking",
    lambda b, n, s: f"Kreditkarte: {fmt_card(n, s)} gültig bis {rng.randint(1, 12):02d}/{rng.randint(26, 31)}",
    lambda b, n, s: f"numéro de carte bancaire {fmt_card(n, s)}",
    lambda b, n, s: f"tarjeta de crédito {fmt_card(n, s)}",
    lambda b, n, s: fmt_card(n, s),
    lambda b, n, s: f"{b} ending ... actually the whole number: {n}",
    lambda b, n, s: f"pay the plumber with card {n}",
    lambda b, n, s: f"Mom's card for emergencies {fmt_card(n, s)} ({b})",
    lambda b, n, s: f"クレジットカード番号 {fmt_card(n, s)}",
    lambda b, n, s: f"virtual card for subscriptions: {fmt_card(n, s)} {rng.randint(1, 12):02d}/{rng.randint(26, 31)} {r(DG, 3)}",
]
for t in card_prose:
    b, n = card_number()
    sec("card number", wrap(t(b, n, pick([" ", "-", " ", ""]))))
for _ in range(3):
    sec("card security code", wrap(pick([
        f"the 3 digits on the back of my Visa are {r(DG, 3)}",
        f"CVV for the Amex: {r(DG, 4)}",
        f"card verification code {r(DG, 3)} (work Mastercard)",
    ])))
for _ in range(4):
    b, n = card_number()
    sec("card record", pick([
        {"type": "payment_method", "brand": b, "number": n, "exp_month": rng.randint(1, 12), "exp_year": 2028, "cvc": r(DG, 3)},
        {"card": {"pan": fmt_card(n, " "), "expiry": "11/29", "holder": person()}},
        {"name_on_card": person(), "card_no": n, "valid_thru": "04/27"},
        {"payment": f"{b} {n}", "billing_zip": r(DG, 5)},
    ]), "hard")

for _ in range(6):
    s = ssn()
    sec("national id", wrap(pick([
        f"my SSN is {s}",
        f"social security number {s.replace('-', '')} for the tax forms",
        f"Dad's SS# {s}",
        f"SSN: {s.replace('-', ' ')}",
        f"for the I-9 form: social security {s}",
        f"numéro de sécurité sociale américain {s}",
    ])))
sec("national id", {"employee": person(), "ssn": ssn(), "dob": "1984-03-12"}, "hard")
sec("national id", {"tax": {"tin_type": "SSN", "tin": ssn().replace("-", "")}}, "hard")

# == secrets: structured records (field names carry the meaning) ==================================

struct_secrets = [
    lambda: {"site": "fidelity.com", "login": pick(PEOPLE).lower(), "pass": human_pw()},
    lambda: {"service": "home router", "admin_password": human_pw()},
    lambda: {"credentials": {"username": pick(USERNAMES), "password": human_pw()}},
    lambda: {"db": {"host": pick(HOSTS), "port": 5432, "user": pick(USERNAMES), "password": url_pw()}},
    lambda: {"env": {"STRIPE_SECRET_KEY": "sk_live_" + r(AN, 99), "NODE_ENV": "production"}},
    lambda: {"env": [{"name": "DATABASE_PASSWORD", "value": human_pw()}, {"name": "LOG_LEVEL", "value": "info"}]},
    lambda: {"wifi": {"ssid": "Cafe-" + r(DG, 3), "psk": human_pw()}},
    lambda: {"account": "Chase", "online_banking_pin": r(DG, 6)},
    lambda: {"door": "back gate", "keypad": r(DG, 5)},
    lambda: {"api": "weather", "apiKey": r(HEX, 32)},
    lambda: {"integration": "Zendesk", "token": r(AN, 40), "email": "ops@example.com"},
    lambda: {"kind": "secret", "value": r(URLSAFE, 44)},
    lambda: {"name": "Mailjet", "api_secret": r(HEX, 32)},
    lambda: {"vault_unseal_key": b64(rbytes(33))},
    lambda: {"ssh": {"host": pick(HOSTS), "user": "root", "passphrase": human_pw()}},
    lambda: {"bitwarden": {"master_password": human_pw()}},
    lambda: {"phone": {"model": "Pixel 8", "unlock_pin": r(DG, 6)}},
    lambda: {"items": [{"label": "locker", "combo": f"{r(DG, 2)}-{r(DG, 2)}-{r(DG, 2)}"}]},
    lambda: {"oauth": {"client_id": r(DG, 12) + "-" + r(LOD, 32) + ".apps.googleusercontent.com", "client_secret": "GOCSPX-" + r(URLSAFE, 28)}},
    lambda: {"cfg": "[database]\nuser = app\npassword = " + human_pw()},
    lambda: {"Passwort": human_pw(), "Benutzer": pick(USERNAMES)},
    lambda: {"mot_de_passe": human_pw(), "identifiant": pick(PEOPLE).lower()},
    lambda: {"contraseña": human_pw()},
    lambda: {"note": "twitter app", "consumer_key": r(AN, 25), "consumer_secret": r(AN, 50)},
    lambda: {"secrets": {"session_secret": r(HEX, 64)}},
]
for t in struct_secrets:
    sec("structured credential", t(), "hard")

# == secrets: evasions ============================================================================


def some_token() -> str:
    return pick([
        lambda: gh_classic("ghp_"), lambda: "sk_live_" + r(AN, 24), lambda: "xoxb-" + r(DG, 12) + "-" + r(DG, 13) + "-" + r(AN, 24),
        lambda: "glpat-" + r(URLSAFE, 20), lambda: "AKIA" + r(B32, 16), lambda: "hf_" + r(AN, 34), lambda: "npm_" + r(AN, 36),
        lambda: "sk-ant-api03-" + r(URLSAFE, 93) + "AA", lambda: "SG." + r(URLSAFE, 22) + "." + r(URLSAFE, 43),
    ])()


for _ in range(3):
    t = some_token()
    sec("spaced token", wrap("token: " + " ".join(t)), "hard")
t = some_token()
sec("dashed token", wrap("key in chunks " + "-".join(t[i:i + 4] for i in range(0, len(t), 4))), "hard")
for _ in range(3):
    t = some_token()
    sec("base64 encoded", wrap(pick(["b64: ", "encoded so nobody reads it: ", ""]) + b64(f"API_KEY={t}".encode())), "hard")
t = some_token()
sec("base64 encoded", wrap(b64(f"password: {human_pw()}".encode())), "hard")
for _ in range(2):
    t = some_token()
    sec("hex encoded", wrap("hex " + t.encode().hex()), "hard")
for _ in range(3):
    t = some_token()
    sec("reversed token", wrap(pick(["backwards so bots miss it: ", "reversed: ", ""]) + t[::-1]), "hard")
for _ in range(2):
    sec("url encoded", wrap(urllib.parse.quote(f"postgres://{pick(USERNAMES)}:{human_pw()}@{pick(HOSTS)}/db", safe="")), "hard")
for _ in range(3):
    t = some_token()
    cut = len(t) // 2
    sec("split across fields", {"first_half": t[:cut], "second_half": t[cut:]}, "hard")
for _ in range(2):
    t = some_token()
    sec("split across list items", {"parts": [t[i:i + 10] for i in range(0, len(t), 10)]}, "hard")
b, n = card_number()
sec("split card", {"card_parts": [n[i:i + 4] for i in range(0, len(n), 4)], "exp": "08/28"}, "hard")
homo = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х"}
for _ in range(2):
    t = some_token()
    t2 = "".join(homo.get(ch, ch) if i < 4 else ch for i, ch in enumerate(t))
    sec("homoglyphs", wrap("token " + t2), "hard")
for _ in range(2):
    t = some_token()
    zw = pick(["\u200b", "\u200c", "\u2060", "\u00ad"])
    sec("invisible characters", wrap(zw.join([t[:6], t[6:14], t[14:]])), "hard")
t = some_token()
sec("fullwidth", wrap("ｋｅｙ " + "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in t)), "hard")
t = some_token()
sec("line-wrapped", wrap("token (wrapped by the mail client):\n" + t[:20] + "\n" + t[20:]), "hard")
t = some_token()
sec("html entities", wrap("".join(f"&#{ord(ch)};" for ch in t)), "hard")
t = some_token()
sec("json in string", wrap(json.dumps({"auth": {"apiKey": t}})), "hard")
t = some_token()
sec("markdown code", wrap(f"```\n{t}\n```"), "hard")
sec("spelled out PIN", wrap("pin is four seven nine two"), "hard")
for _ in range(3):
    t = some_token()
    sec("secret in key", wrap(pick(["see key", "the key of this memory", "token saved as key"])), "hard", k=pick([t, "tok:" + t, f"{project()}-{t}"]))
for _ in range(3):
    t = some_token()
    sec("secret in namespace", wrap("note filed under a token"), "hard", ns=["memories", uid(), t])
sec("secret in key", wrap("pw in the key"), "hard", k="wifi-password=" + human_pw())

# == benign =======================================================================================

ordinary = [
    "Prefers window seats on long flights and aisle on short hops.",
    "Allergic to penicillin; fine with amoxicillin-free antibiotics.",
    "Daughter Leila starts kindergarten in September.",
    "Runs 5k every Saturday at the park run near the river.",
    "Wants reminders in the morning, never after 9pm.",
    "Learning Portuguese for a move to Lisbon next spring.",
    "Does not eat pork; okay with chicken and fish.",
    "Has a standing desk and gets back pain after long meetings.",
    "Favourite author is Ursula K. Le Guin.",
    "Drinks decaf after 2pm.",
    "Takes the 7:42 train from Haarlem on weekdays.",
    "Is a vegetarian since 2019 but eats eggs.",
    "Budget for the kitchen renovation is about 18,000 EUR.",
    "Plays five-a-side football on Wednesdays at 8.",
    "Partner's name is Sam; anniversary is 14 June.",
    "Prefers bullet points over long paragraphs in summaries.",
    "Uses metric units, Celsius for weather.",
    "Is on call the first week of every month.",
    "Cat named Biscuit needs thyroid medication twice a day.",
    "Hates cilantro.",
    "Wants the weekly report as a PDF, not a link.",
    "Mother lives in Porto and visits at Christmas.",
    "Works remotely from Tallinn, timezone EET.",
    "Prefers Python over JavaScript for side projects.",
    "Planning a hike on the West Highland Way in May.",
    "Sleeps badly when the room is above 20°C.",
    "Dentist appointment every six months at Dr. Okafor's practice.",
    "Interested in woodworking, building a bookshelf.",
    "Speaks Spanish at home with the kids.",
    "Lactose intolerant; oat milk is fine.",
    "Goal: read 24 books this year, at 9 so far.",
    "Likes jazz, especially Alice Coltrane and Yusef Lateef.",
    "Car is a 2016 Skoda Octavia estate, due for MOT in March.",
    "Son plays cello; lessons on Thursday afternoons.",
    "Doesn't want emoji in replies.",
    "Is saving for a sabbatical in 2027.",
    "Prefers to be addressed as they/them.",
    "Volunteers at the food bank every other Sunday.",
    "Diagnosed with mild asthma, uses an inhaler before running.",
    "Wants all meeting times shown in both CET and ET.",
]
for t in ordinary:
    ben("ordinary", wrap(t))

multi = [
    "Mag keinen Koriander und trinkt Kaffee schwarz.",
    "Wohnt in Leipzig, arbeitet aber zweimal pro Woche in Berlin.",
    "Préfère les réunions le matin, jamais le vendredi après-midi.",
    "Sa fille fait du judo le mercredi.",
    "Le gusta el senderismo y va a los Picos de Europa en agosto.",
    "Es alérgica a los frutos secos.",
    "Preferisce i treni agli aerei per andare a Milano.",
    "Prefere receber resumos curtos por e-mail.",
    "Houdt van fietsen en woont in Utrecht.",
    "Lubi kawę z mlekiem owsianym.",
    "Gillar att baka surdegsbröd på helgerna.",
    "Kahvaltıda çay içmeyi sever.",
    "Любит джаз и играет на саксофоне.",
    "朝はコーヒーよりお茶が好き。",
    "周末喜欢去公园跑步。",
    "매주 화요일에 요가 수업을 듣는다.",
    "Ich habe mein Passwort vergessen und warte auf den Reset-Link.",
    "J'ai changé mon mot de passe hier, tout fonctionne.",
    "Necesito cambiar la contraseña del router este fin de semana.",
    "Devo ricordarmi di aggiornare il PIN della carta, la banca me l'ha chiesto.",
    "Wachtwoordmanager is Bitwarden, voor het hele gezin.",
    "パスワードは定期的に変更すること。",
    "密码至少要十二位，包含数字和符号。",
    "Nie zapisuj haseł w notatkach, używaj menedżera haseł.",
]
for t in multi:
    ben("multilingual", wrap(t))

talk = [
    "I changed my email password yesterday after the phishing scare.",
    "Remind me to rotate the AWS keys on Friday.",
    "My password manager is 1Password; the family plan covers four people.",
    "Switched from LastPass to Bitwarden in January.",
    "The API key is in the team vault under 'Stripe prod', never paste it in chat.",
    "Password must be at least 14 characters with one symbol per the new IT policy.",
    "The access token expires after 3600 seconds, so refresh before long jobs.",
    "Set OPENAI_API_KEY in your shell profile rather than in the code.",
    "Forgot the PIN for the old phone; will do a factory reset.",
    "Bank says they will never ask for the full card number over the phone.",
    "The SSH key on the laptop is passphrase-protected now.",
    "Turned on two-factor authentication for the Google account with an authenticator app.",
    "Keep recovery codes printed in the fireproof box at home.",
    "The Wi-Fi password is on the sticker under the router.",
    "Needs to renew the TLS certificate before it expires on 3 March.",
    "GitHub tokens should have an expiry of 90 days at most.",
    "Asked IT to reset the VPN password; ticket is open.",
    "The seed phrase is written on steel plates in the safe deposit box, not stored digitally.",
    "Don't store secrets in memory; use the vault.",
    "The door code changes every month; the landlord texts the new one.",
    "Prefers passkeys over passwords wherever the site supports them.",
    "The old Slack token was revoked after the incident review.",
    "PIN pad at the office is broken; use the badge reader on the side door.",
    "Credit card got replaced after fraud; new one arrives next week.",
    "Password reset emails go to the work address, not the personal one.",
    "Uses a YubiKey for work logins.",
    "The database password lives in AWS Secrets Manager under prod/db.",
    "Prefers that API keys are scoped read-only for dashboards.",
    "Mentioned that her password is the name of her first dog plus a year, told her to change it.",
    "The secret ingredient in grandma's soup is nutmeg.",
    "Secret Santa this year: I'm buying for Ruth, budget 25 EUR.",
    "Our token budget for the LLM is 4,096 tokens per request.",
    "Card declined at the pharmacy again; call the bank.",
    "The private key never leaves the HSM; signing happens there.",
    "SSN is needed for the mortgage application; bring the card to the appointment.",
    "Bring passport and social security card to the DMV on Tuesday.",
    "Uses passwordless login (magic links) for the newsletter tool.",
    "The Kubernetes secret is mounted at /var/run/secrets, read it from there.",
    "Don't forget: PIN unlock is disabled on the work phone, only fingerprint.",
    "Password rotation reminder every 180 days for the HR portal.",
    "The API returns 401 when the bearer token is missing.",
    "Wrote a blog post about why password complexity rules backfire.",
    "Her recovery email is the Gmail one, not Outlook.",
    "The credentials file is ~/.aws/credentials; don't commit it.",
    "Changed the garage code after the contractor finished.",
    "Keys for the cabin are with the neighbour at number 12.",
    "Public key was uploaded to GitHub for the new laptop.",
    "Card ending in 4417 is the one for travel expenses.",
    "My Visa ending 0932 expires next month.",
    "Uses Apple Pay for most purchases; no physical card in the wallet.",
]
for t in talk:
    ben("talk about secrets", wrap(t))

placeholders = [
    "password: ${DB_PASSWORD}",
    "api_key: <your-api-key-here>",
    "STRIPE_SECRET_KEY=sk_live_...  (fill in from the vault)",
    "token = os.environ['GITHUB_TOKEN']",
    "export OPENAI_API_KEY=\"$(op read op://dev/openai/credential)\"",
    "AWS_SECRET_ACCESS_KEY=******** (redacted in the screenshot)",
    "password=REDACTED",
    "Authorization: Bearer {{token}}",
    "DATABASE_URL=postgres://localhost:5432/dev (no password locally, peer auth)",
    "client_secret: changeme",
]
for t in placeholders:
    ben("placeholder", wrap(t))

for _ in range(8):
    u = uuid.UUID(int=rng.getrandbits(128), version=4)
    ben("uuid", wrap(pick([
        f"Workspace id {u} is the shared one.",
        f"order {u} is stuck in processing",
        f"Azure subscription {u} is the dev subscription",
        f"session {u} crashed, attach logs to the bug",
        f"calendar event {u}",
        f"{u}",
    ])))

for _ in range(6):
    ben("git hash", wrap(pick([
        f"Regression started at commit {r(HEX, 40)}.",
        f"Deployed {r(HEX, 7)} to staging on Monday.",
        f"revert {r(HEX, 40)} if the cache bug comes back",
        f"merge base is {r(HEX, 12)}",
    ])))
for _ in range(6):
    ben("checksum", wrap(pick([
        f"sha256 of the ISO: {r(HEX, 64)}",
        f"image digest sha256:{r(HEX, 64)}",
        f"md5 {r(HEX, 32)} matches the vendor's",
        f"integrity sha512-{b64(rbytes(64))}",
        f"SRI hash sha384-{b64(rbytes(48))}",
        f"SHA-1 fingerprint of the release tarball: {':'.join(r(HEX.upper(), 2) for _ in range(20))}",
    ])))
for _ in range(6):
    ben("tx hash", wrap(pick([
        f"Transaction 0x{r(HEX, 64)} confirmed after 12 blocks.",
        f"bitcoin txid {r(HEX, 64)} for the refund",
        f"tx hash: 0x{r(HEX, 64)}",
        f"see etherscan for 0x{r(HEX, 64)}",
    ])))
for _ in range(8):
    ben("wallet address", wrap(pick([
        f"Send donations to 0x{r(HEX, 40)}",
        f"my ETH address 0x{r(HEX, 40)}",
        f"BTC deposit address bc1q{r(BECH32, 38)}",
        f"legacy btc address 1{r(B58, 33)}",
        f"Solana wallet {b58(rbytes(32))}",
        f"ENS name is {pick(PEOPLE).lower()}.eth",
        f"Lightning address {pick(PEOPLE).lower()}@getalby.com",
    ])))
for _ in range(6):
    ben("public key", wrap(pick([
        f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{r(B64, 43)} {pick(PEOPLE).lower()}@laptop",
        f"authorized key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{r(B64, 300)} deploy@ci",
        f"age public key age1{r(BECH32, 58)}",
        f"PGP fingerprint {' '.join(r(HEX.upper(), 4) for _ in range(10))}",
        f"WireGuard peer PublicKey = {b64(rbytes(32))}",
        f"host key fingerprint SHA256:{b64(rbytes(32)).rstrip('=')}",
        "-----BEGIN PUBLIC KEY-----\n" + "\n".join(r(B64, 64) for _ in range(3)) + "\n-----END PUBLIC KEY-----",
    ])))
for _ in range(10):
    ben("public identifier", wrap(pick([
        f"Stripe publishable key pk_live_{r(AN, 99)} goes in the frontend",
        f"Mapbox public token {mapbox('pk')}",
        f"customer cus_{r(AN, 14)} disputed the charge",
        f"payment intent pi_{r(AN, 24)} failed",
        f"Google Analytics id G-{r(UPD, 10)}",
        f"reCAPTCHA site key 6L{r(URLSAFE, 38)}",
        f"Slack channel C0{r(UPD, 9)} is #incidents",
        f"Discord server id {r(DG, 18)}",
        f"AWS account 1{r(DG, 11)}, role arn:aws:iam::{r(DG, 12)}:role/ReadOnly",
        f"Twilio account SID AC{r(HEX, 32)}",
        f"YouTube video id {r(URLSAFE, 11)} for the tutorial",
        f"Spotify playlist spotify:playlist:{r(AN, 22)}",
        f"IPFS CID bafybei{r(BECH32[:32].replace('1', ''), 52)}",
        f"OAuth client id {r(DG, 12)}-{r(LOD, 32)}.apps.googleusercontent.com",
        f"Sentry DSN https://{r(HEX, 32)}@o{r(DG, 6)}.ingest.sentry.io/{r(DG, 7)}",
        f"Firebase project {project()}-{r(LOD, 5)}",
        f"VIN {r('ABCDEFGHJKLMNPRSTUVWXYZ0123456789', 17)}",
    ])))
for _ in range(8):
    ben("order or tracking number", wrap(pick([
        f"UPS tracking 1Z{r(UPD, 16)}",
        f"FedEx tracking {r(DG, 12)}",
        f"USPS 9400{r(DG, 18)}",
        f"DHL waybill {r(DG, 10)}",
        f"Amazon order {r(DG, 3)}-{r(DG, 7)}-{r(DG, 7)}",
        f"booking reference {r(UPD, 6)} with KLM, flight KL{rng.randint(100, 1999)}",
        f"invoice INV-{rng.randint(2024, 2025)}-{r(DG, 5)}",
        f"RMA number {r(UPD, 10)} for the broken headphones",
        f"claim number {r(DG, 3)}-{r(DG, 6)}-{r(DG, 2)}",
    ])))


def non_luhn(length: int) -> str:
    while True:
        s = str(rng.randint(1, 9)) + r(DG, length - 1)
        if not luhn_ok(s):
            return s


for _ in range(6):
    ben("number look-alike", wrap(pick([
        f"loyalty card number {non_luhn(16)}",
        f"IMEI {luhn_complete('35' + r(DG, 6), 15)} for the insurance claim",
        f"ISBN 978-{r(DG, 1)}-{r(DG, 3)}-{r(DG, 5)}-{r(DG, 1)}",
        f"meter reading reference {non_luhn(16)}",
        f"routing number 0{r(DG, 8)} for the direct deposit form",
        f"frequent flyer number {r(DG, 9)}",
        f"part number 300-{r(DG, 2)}-{r(DG, 4)} for the dishwasher pump",
        f"ZIP+4 is 94107-{r(DG, 4)}",
        f"NHS number {r(DG, 3)} {r(DG, 3)} {r(DG, 4)}",
    ])))
for _ in range(8):
    ben("email", wrap(pick([
        f"Work email is {pick(PEOPLE).lower()}.{r(LO, 5)}@{project()}-labs.com",
        f"Send invoices to billing+{r(LOD, 4)}@example.org",
        f"Reach the landlord at {pick(PEOPLE).lower()}{r(DG, 2)}@gmail.com",
        f"Contact: {pick(PEOPLE).lower()}@proton.me (preferred)",
    ])))
for _ in range(8):
    ben("phone", wrap(pick([
        f"Mobile: +44 7{r(DG, 3)} {r(DG, 6)}",
        f"call the clinic on (415) 555-{r(DG, 4)}",
        f"Oma: +49 30 {r(DG, 7)}",
        f"numéro du plombier 06 {r(DG, 2)} {r(DG, 2)} {r(DG, 2)} {r(DG, 2)}",
        f"Tokyo office +81 3-{r(DG, 4)}-{r(DG, 4)}",
        f"WhatsApp +55 11 9{r(DG, 4)}-{r(DG, 4)}",
        f"support line 1-800-{r(DG, 3)}-{r(DG, 4)}",
        f"home phone 555-{r(DG, 3)}-{r(DG, 4)}",
    ])))
for _ in range(6):
    ben("ip address", wrap(pick([
        f"home server is at 192.168.{rng.randint(0, 255)}.{rng.randint(2, 254)}",
        f"VPS public IP {rng.randint(11, 223)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}",
        f"IPv6 2001:db8:{r(HEX, 4)}:{r(HEX, 4)}::{r(HEX, 3)}",
        f"allowlist 10.{rng.randint(0, 255)}.0.0/16 on the firewall",
        f"printer MAC {':'.join(r(HEX, 2) for _ in range(6))}",
    ])))
for c in ["DE", "FR", "GB", "NL", "ES", "IT", "CH", "BE", "PL", "SE", "IE", "PT", "FI", "AT"]:
    i = iban(c)
    ben("iban", wrap(pick([
        f"Rent goes to IBAN {spaced4(i)}",
        f"my IBAN: {i}",
        f"Überweisung an {spaced4(i)} (Verein)",
        f"IBAN du propriétaire : {spaced4(i)}",
        f"pay the nanny to {i}, BIC {r(UP, 4)}{c}{r(UPD, 2)}",
    ])))
for c in ["DE", "NL", "ES", "GB"]:
    ben("iban-like", wrap(f"old account reference {spaced4(iban(c, valid=False))} (closed)"))

tech = [
    "Python 3.12.4 on the build server; Node 20.11.1 for the frontend.",
    "Use `kubectl get secrets -n prod` to list secret names (not values).",
    "The regex for tokens is ghp_[A-Za-z0-9]{36}; add it to the pre-commit hook.",
    "Port 5432 is PostgreSQL, 6379 is Redis, 8080 is the admin UI.",
    "Cron: 0 3 * * * runs the backup.",
    "The JWT header is base64url of {\"alg\":\"HS256\",\"typ\":\"JWT\"}.",
    "Set max_connections = 200 on the primary.",
    "Docker image is ghcr.io/acme/api:v2.14.0.",
    "The Terraform state lives in s3://acme-tf-state/prod/terraform.tfstate.",
    "Feature flag new_checkout is at 25% rollout.",
    "Use bcrypt with cost 12 for password hashing in the new service.",
    "Hex colour for the brand is #1E88E5, accent #FFC107.",
    "Timeout is 30s for the upstream, retries 3 with jitter.",
    "Grafana dashboard id 12486 shows the queue depth.",
    "Build number 20250314.7 broke the Android app.",
    "Chrome extension id: " + r("abcdefghijklmnop", 32),
    "npm package version ^4.17.21 of lodash is pinned.",
    "Lambda ARN arn:aws:lambda:eu-west-1:" + r(DG, 12) + ":function:thumbnailer",
    "S3 bucket acme-prod-uploads-" + r(LOD, 6) + " has versioning on.",
    "Run `ssh-keygen -t ed25519 -C work` to make a new key.",
    "base64 of 'hello world' is aGVsbG8gd29ybGQ=",
    "Data URI for the favicon: data:image/png;base64," + b64(rbytes(60)),
    "ETag \"" + r(HEX, 32) + "\" means the object did not change.",
    "CloudFront request id " + r(URLSAFE, 56),
    "Trace id 4bf92f3577b34da6a3ce929d0e0e4736, span 00f067aa0ba902b7.",
    "Kafka topic orders.v2 has 12 partitions.",
    "The config key is `auth.token_ttl_seconds` (default 900).",
    "Login endpoint is POST /api/v1/auth/login with JSON {username, password}.",
    "Use `git config credential.helper osxkeychain` so tokens go to the keychain.",
    "Salt column is 16 bytes, stored as hex.",
]
for t in tech:
    ben("tech note", wrap(t))

struct_benign = [
    {"service": "Netlify", "token_expires": "2025-09-01", "owner": "web team"},
    {"password_policy": {"min_length": 14, "require_symbol": True, "rotation_days": 180}},
    {"auth": "oauth2", "scopes": ["calendar.read", "mail.send"], "token_type": "Bearer", "expires_in": 3600},
    {"pin_required": False, "biometric": True},
    {"card": {"brand": "Visa", "last4": "4821", "exp": "09/27"}},
    {"api_key_env": "ANTHROPIC_API_KEY", "model": "claude-sonnet"},
    {"secret_santa": {"giver": "me", "receiver": "Ruth", "budget_eur": 25}},
    {"wifi": {"ssid": "BlueHouse-5G", "password_location": "sticker under the router"}},
    {"db": {"host": "localhost", "port": 5432, "name": "notes", "password": None}},
    {"credentials": "stored in 1Password, vault 'Family'"},
    {"token_budget": 4096, "temperature": 0.2},
    {"passport": {"country": "NL", "expires": "2031-04-30"}},
    {"key": "favourite_colour", "value": "teal"},
    {"secret": False, "visibility": "public", "title": "Trip photos"},
    {"username": pick(PEOPLE).lower() + "_" + r(DG, 2), "display_name": pick(PEOPLE)},
    {"private_key_path": "~/.ssh/id_ed25519", "public_key_uploaded": True},
    {"api": {"base_url": "https://api.openweathermap.org/data/3.0", "units": "metric"}},
    {"two_factor": {"enabled": True, "method": "totp", "backup_codes_remaining": 7}},
    {"bank": {"name": "ING", "iban": spaced4(iban("NL")), "bic": "INGBNL2A"}},
    {"contact": {"email": "noor.h@example.com", "phone": "+31 6 1234 5678"}},
    {"ssh": {"host": "10.0.0.5", "user": "pi", "auth": "key"}},
    {"order": {"id": "ORD-" + r(DG, 8), "total": 49.90, "currency": "EUR"}},
    {"device": {"serial": r(UPD, 12), "imei": luhn_complete("35" + r(DG, 6), 15)}},
    {"env": [{"name": "LOG_LEVEL", "value": "debug"}, {"name": "REGION", "value": "eu-central-1"}]},
    {"hash": r(HEX, 64), "file": "backup-2025-03-01.tar.zst"},
    {"wallet": {"chain": "ethereum", "address": "0x" + r(HEX, 40)}},
    {"Passwortänderung": "2025-02-11", "Konto": "Sparkasse"},
    {"mot_de_passe_oublie": True},
    {"contraseña_cambiada": "ayer"},
    {"tokens_used": 1834, "session": str(uuid.UUID(int=rng.getrandbits(128), version=4))},
    {"request_id": r(HEX, 32), "status": 200},
    {"pin": {"lat": 52.37, "lon": 4.89, "label": "favourite café"}},
    {"access": {"level": "read-only", "granted_by": "Kwame"}},
    {"user_id": "auth0|" + r(HEX, 24), "locale": "en-GB"},
    {"uid": r(AN, 28), "provider": "firebase"},
]
for v in struct_benign:
    ben("structured", v, "hard")

evasion_lookalikes = [
    {"text": " ".join("hello world")},
    {"text": "reversed: " + "dlrow olleh"},
    {"text": "b64: " + b64(b"meeting moved to Thursday at 10")},
    {"text": "hex " + b"see you at the cafe".hex()},
    {"parts": ["The quick brown", " fox jumps over", " the lazy dog"]},
    {"first_half": "Buy milk and", "second_half": " eggs on the way home"},
    {"text": "%48%65%6C%6C%6F (URL-encoded Hello)"},
    {"text": "ｆｕｌｌｗｉｄｔｈ ｔｅｘｔ from a Japanese form"},
    {"text": "zero\u200bwidth joiners from a copy-paste"},
    {"text": "Grocery list:\n- apples\n- rice\n- tofu"},
    {"text": "```\nprint('hello')\n```"},
    {"text": "&#72;&#105; is HTML for Hi"},
]
for v in evasion_lookalikes:
    ben("evasion look-alike", v, "hard")

for _ in range(10):
    ns = pick([
        ["memories", "u_" + r(LOD, 16)],
        ["users", str(uuid.UUID(int=rng.getrandbits(128), version=4)), "facts"],
        ["memories", "auth0|" + r(HEX, 24)],
        ["profile", r(AN, 28)],
        ["memories", "google-oauth2|" + r(DG, 21)],
    ])
    k = pick([r(HEX, 32), str(uuid.UUID(int=rng.getrandbits(128), version=4)), "mem_" + r(AN, 20), r(URLSAFE, 22)])
    ben("key and namespace", wrap(pick(["Likes tea.", "Birthday is 3 May.", "Prefers short answers.", "Lives in Ghent."])), "hard", ns=ns, k=k)

health = [
    "Blood pressure readings 128/82 this morning, 131/85 yesterday.",
    "Takes 50 mg sertraline every morning.",
    "Physio exercises for the left knee three times a week.",
    "Had a flu shot on 12 October.",
    "Migraine triggers: red wine, skipped meals.",
    "Resting heart rate about 58 bpm.",
    "Allergy to cat dander is mild; takes cetirizine in spring.",
    "Type 1 diabetic; insulin pump settings reviewed quarterly.",
    "Eye test due in June; prescription -2.25 both eyes.",
    "Sleeps about 6.5 hours on weeknights, trying for 7.5.",
]
for t in health:
    ben("health", wrap(t))

plans = [
    "Trip to Kyoto 3-12 April; ryokan booked for two nights.",
    "Dinner with Ines on Friday at 19:30, Lebanese place on Oudegracht.",
    "Move to the new flat on 1 August; movers booked for 8am.",
    "Quarterly planning offsite in Lisbon, 17-19 September.",
    "Dentist on the 14th at 10:15.",
    "Renew the car insurance before 31 May.",
    "Marathon training plan starts in January, 16 weeks.",
    "Parents' 40th anniversary party on 22 June, need a venue.",
    "Sign up for the pottery course by the end of the month.",
    "Submit the tax return before 1 May; accountant is Hamid.",
    "Book the vet for Biscuit's annual check-up.",
    "Weekly sync with the design team moved to Tuesday 11:00.",
    "Call the insurance about claim 2025-44817 on Monday.",
    "Conference talk deadline 15 Feb; topic: vector search at scale.",
    "Flight LH 1234 departs 06:50 from terminal 1.",
    "Pick up Leila from school at 15:15 on Wednesdays.",
    "Buy a birthday gift for Tomasz, he likes board games.",
    "Kitchen fitters arrive 3 March; water off for a day.",
    "Check-in for the Oslo hotel after 3pm, confirmation 88412093.",
    "Visit the Rijksmuseum on Sunday; tickets for 10:30.",
]
for t in plans:
    ben("plan", wrap(t))

prefs = [
    "Prefers answers in British English.",
    "Likes recipes that take under 30 minutes.",
    "Wants code examples in TypeScript when possible.",
    "Dislikes small talk in emails; keep them short.",
    "Prefers dark mode screenshots in docs.",
    "Likes to get a summary at the end of long answers.",
    "Wants flights with at most one stop.",
    "Prefers trains for trips under 5 hours.",
    "Tea: Earl Grey, no milk.",
    "Favourite cuisine: Ethiopian.",
    "Wants prices in EUR with VAT included.",
    "Prefers 24-hour time.",
    "Likes sci-fi, dislikes horror.",
    "Music for focus: lo-fi or Bach.",
    "Prefers aisle seats at the cinema.",
]
for t in prefs:
    ben("preference", wrap(t))

# ---------------------------------------------------------------------------------------------

out = Path(__file__).with_name("heldout2.jsonl")
with out.open("w", encoding="utf-8") as f:
    for rec in records:
        f.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
n_s = sum(x["label"] == "secret" for x in records)
print(f"wrote {out.name}: {n_s} secrets, {len(records) - n_s} benign, "
      f"{len({x['kind'] for x in records if x['label'] == 'secret'})} secret kinds")
