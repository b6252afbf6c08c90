"""Generates heldout.jsonl: the frozen held-out corpus of the store's secret guard.

Run once (``python make_heldout.py``) before any tuning; the output is committed and
never regenerated or edited afterwards. Every secret is FAKE: random values in the
vendors' public formats (prefixes, lengths, alphabets, and checksums where a format has
one: GitHub's CRC32, Luhn, IBAN mod-97, Bitcoin's base58check). Written from the formats
and from how people phrase memories, without looking at what the guard detects.

Each line is one ``TrustStore.put``: ``{"id", "label": "secret"|"benign", "kind",
"variant": "plain"|"hard", "namespace": [...], "key": str, "value": {...}}``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import random
import string
import uuid
from pathlib import Path

rng = random.Random(0x5EC2E75)

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
HEX = "0123456789abcdef"
B64 = AN + "+/"
URLSAFE = AN + "-_"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def r(chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


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
    pad = len(data) - len(data.lstrip(b"\0"))
    return "1" * pad + out


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


# -- token formats ------------------------------------------------------------------------------


def gh(prefix: str) -> str:
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
                d *= 2
                d -= 9 if d > 9 else 0
            total += d
        if total % 10 == 0:
            return cand
    raise AssertionError


def card() -> str:
    brand = rng.choice(["visa", "visa", "mc", "mc2", "amex", "disc", "jcb", "diners", "unionpay"])
    if brand == "visa":
        return luhn_complete("4" + r(DG, 5), 16)
    if brand == "mc":
        return luhn_complete(str(rng.randint(51, 55)) + r(DG, 4), 16)
    if brand == "mc2":
        return luhn_complete(str(rng.randint(2221, 2720)) + r(DG, 2), 16)
    if brand == "amex":
        return luhn_complete(rng.choice(["34", "37"]) + r(DG, 4), 15)
    if brand == "disc":
        return luhn_complete("6011" + r(DG, 2), 16)
    if brand == "jcb":
        return luhn_complete(str(rng.randint(3528, 3589)) + r(DG, 2), 16)
    if brand == "diners":
        return luhn_complete("36" + r(DG, 4), 14)
    return luhn_complete("62" + r(DG, 4), 16)


def group_card(num: str, sep: str = " ") -> str:
    if len(num) == 15:
        parts = [num[:4], num[4:10], num[10:]]
    elif len(num) == 14:
        parts = [num[:4], num[4:10], num[10:]]
    else:
        parts = [num[i : i + 4] for i in range(0, len(num), 4)]
    return sep.join(parts)


def iban(country: str, bban_len: int, valid: bool = True) -> str:
    bban = r(DG, bban_len) if country not in ("GB", "NL") else (r(UP, 4) + r(DG, bban_len - 4))
    rearranged = bban + country + "00"
    num = int("".join(str(int(ch, 36)) for ch in rearranged))
    check = 98 - num % 97
    if not valid:
        check = (check + rng.randint(1, 50)) % 97 or 3
    compact = f"{country}{check:02d}{bban}"
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


def wif() -> str:
    payload = b"\x80" + bytes(rng.getrandbits(8) for _ in range(32)) + b"\x01"
    check = hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    return b58(payload + check)


def jwt(claims: dict) -> str:
    head = b64u(json.dumps({"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}).encode())
    body = b64u(json.dumps(claims).encode())
    sig = b64u(bytes(rng.getrandbits(8) for _ in range(rng.choice([32, 64, 256]))))
    return f"{head}.{body}.{sig}"


def pem(kind: str) -> str:
    body = base64.b64encode(bytes(rng.getrandbits(8) for _ in range(rng.randint(180, 400)))).decode()
    if kind == "OPENSSH":
        body = "b3BlbnNzaC1rZXktdjEAAAAA" + body[24:]
    if kind == "RSA":
        body = "MIIEpAIBAAKCAQEA" + body[16:]
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    label = "PRIVATE KEY" if kind == "PKCS8" else f"{kind} PRIVATE KEY"
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


def discord_bot() -> str:
    snowflake = str(rng.randint(10**17, 10**19 - 1))
    return b64u(snowflake.encode()) + "." + r(URLSAFE, 6) + "." + r(URLSAFE, rng.choice([27, 38]))


def azure_ad_secret() -> str:
    return r(AN, 3) + r(DG, 1) + "Q~" + r(AN + "_~.-", 34)


TOKENS: dict[str, tuple[list[str], object]] = {
    # kind: (names people use for it, generator)
    "AWS access key": (["AWS access key", "AWS key id", "IAM access key"], lambda: rng.choice(["AKIA", "AKIA", "ASIA"]) + r(B32, 16)),
    "AWS secret key": (["AWS secret access key", "aws secret"], lambda: r(AN + "+/", 40)),
    "GitHub token": (["GitHub token", "GitHub PAT", "gh token"], lambda: gh(rng.choice(["ghp_", "ghp_", "gho_", "ghs_", "ghu_"]))),
    "GitHub fine-grained token": (["fine-grained GitHub token"], lambda: "github_pat_" + r(AN, 22) + "_" + r(AN, 59)),
    "GitLab token": (["GitLab token", "GitLab PAT"], lambda: rng.choice(["glpat-", "glpat-", "glrt-", "gldt-"]) + r(AN + "-_", 20)),
    "Slack bot token": (["Slack bot token", "slack token"], lambda: f"xoxb-{r(DG, 12)}-{r(DG, 13)}-{r(AN, 24)}"),
    "Slack user token": (["Slack user token"], lambda: f"xoxp-{r(DG, 11)}-{r(DG, 12)}-{r(DG, 13)}-{r(HEX, 32)}"),
    "Slack webhook": (["Slack webhook"], lambda: f"https://hooks.slack.com/services/T{r(UP + DG, 10)}/B{r(UP + DG, 10)}/{r(AN, 24)}"),
    "Stripe secret key": (["Stripe secret key", "Stripe live key", "stripe restricted key"], lambda: rng.choice(["sk_live_", "rk_live_", "sk_test_"]) + "51" + r(AN, rng.choice([22, 97]))),
    "Stripe webhook secret": (["Stripe webhook signing secret"], lambda: "whsec_" + r(AN, 32)),
    "OpenAI key": (["OpenAI key", "OpenAI API key"], lambda: rng.choice([f"sk-proj-{r(URLSAFE, 58)}T3BlbkFJ{r(URLSAFE, 58)}", f"sk-{r(AN, 20)}T3BlbkFJ{r(AN, 20)}"])),
    "Anthropic key": (["Anthropic API key", "Claude API key"], lambda: "sk-ant-api03-" + r(URLSAFE, 93) + "AA"),
    "Google API key": (["Google API key", "Maps API key", "Gemini key"], lambda: "AIzaSy" + r(URLSAFE, 33)),
    "Google OAuth secret": (["Google OAuth client secret"], lambda: "GOCSPX-" + r(URLSAFE, 28)),
    "Google OAuth token": (["Google access token"], lambda: "ya29.a0" + r(URLSAFE, 150)),
    "Hugging Face token": (["Hugging Face token", "HF token"], lambda: "hf_" + r(UP + LO, 34)),
    "Databricks token": (["Databricks token", "Databricks PAT"], lambda: "dapi" + r(HEX, 32) + rng.choice(["", "", "-2", "-3"])),
    "Discord webhook": (["Discord webhook"], lambda: f"https://{rng.choice(['discord.com', 'discordapp.com'])}/api/webhooks/{r(DG, 19)}/{r(URLSAFE, 68)}"),
    "Discord bot token": (["Discord bot token"], discord_bot),
    "Postman key": (["Postman API key"], lambda: f"PMAK-{r(HEX, 24)}-{r(HEX, 34)}"),
    "Twilio API key": (["Twilio API key"], lambda: "SK" + r(HEX, 32)),
    "SendGrid key": (["SendGrid API key"], lambda: f"SG.{r(URLSAFE, 22)}.{r(URLSAFE, 43)}"),
    "Mailgun key": (["Mailgun API key"], lambda: "key-" + r(HEX, 32)),
    "Mailchimp key": (["Mailchimp API key"], lambda: r(HEX, 32) + f"-us{rng.randint(1, 21)}"),
    "npm token": (["npm token", "npm publish token"], lambda: "npm_" + r(AN, 36)),
    "PyPI token": (["PyPI token", "PyPI upload token"], lambda: "pypi-AgEIcHlwaS5vcmc" + r(URLSAFE, rng.randint(60, 140))),
    "Shopify token": (["Shopify admin token", "Shopify access token"], lambda: rng.choice(["shpat_", "shpss_", "shpca_"]) + r(HEX, 32)),
    "DigitalOcean token": (["DigitalOcean token"], lambda: rng.choice(["dop_v1_", "doo_v1_"]) + r(HEX, 64)),
    "Heroku key": (["Heroku API key"], lambda: "HRKU-AA" + r(URLSAFE, 58)),
    "Azure AD client secret": (["Azure client secret", "Entra app secret"], azure_ad_secret),
    "Atlassian token": (["Atlassian API token", "Jira API token"], lambda: "ATATT3xFfGF0" + r(URLSAFE, 170) + "=" + r("0123456789ABCDEF", 8)),
    "Linear key": (["Linear API key"], lambda: "lin_api_" + r(AN, 40)),
    "Notion token": (["Notion integration token"], lambda: rng.choice(["secret_" + r(AN, 43), "ntn_" + r(AN, 46)])),
    "Airtable token": (["Airtable token"], lambda: "pat" + r(AN, 14) + "." + r(HEX, 64)),
    "Vault token": (["Vault token"], lambda: "hvs." + rng.choice([r(AN, 24), "CAESI" + r(URLSAFE, 85)])),
    "Doppler token": (["Doppler token"], lambda: rng.choice(["dp.pt.", "dp.st.prd."]) + r(AN, 43)),
    "Grafana token": (["Grafana service account token"], lambda: "glsa_" + r(AN, 32) + "_" + r(HEX, 8)),
    "New Relic key": (["New Relic user key"], lambda: "NRAK-" + r(UP + DG, 27)),
    "Telegram bot token": (["Telegram bot token"], lambda: f"{r('123456789', 1)}{r(DG, 9)}:AA{r(URLSAFE, 33)}"),
    "Supabase token": (["Supabase access token"], lambda: "sbp_" + r(HEX, 40)),
    "JWT": (["JWT", "session token", "ID token"], lambda: jwt({"sub": str(uuid.UUID(int=rng.getrandbits(128))), "iat": rng.randint(1.6e9, 1.8e9), "role": rng.choice(["user", "admin", "service_role"])})),
    "age secret key": (["age secret key"], lambda: "AGE-SECRET-KEY-1" + r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58)),
    "Square token": (["Square access token"], lambda: rng.choice(["sq0atp-" + r(URLSAFE, 22), "sq0csp-" + r(URLSAFE, 43), "EAAA" + r(URLSAFE, 60)])),
    "Braintree token": (["Braintree access token"], lambda: f"access_token$production${r(LO + DG, 16)}${r(HEX, 32)}"),
    "Dropbox token": (["Dropbox access token"], lambda: "sl." + r(URLSAFE, 136)),
    "Figma token": (["Figma personal access token"], lambda: "figd_" + r(URLSAFE, 40)),
    "Pulumi token": (["Pulumi access token"], lambda: "pul-" + r(HEX, 40)),
    "Terraform Cloud token": (["Terraform Cloud token"], lambda: r(AN, 14) + ".atlasv1." + r(AN, 67)),
    "Docker Hub token": (["Docker Hub access token"], lambda: "dckr_pat_" + r(URLSAFE, 27)),
    "Contentful token": (["Contentful management token"], lambda: "CFPAT-" + r(URLSAFE, 43)),
    "Mapbox secret token": (["Mapbox secret token"], lambda: "sk.eyJ1Ijoi" + b64u(json.dumps({"u": "maya", "a": r(LO + DG, 25)}).encode())[10:] + "." + r(URLSAFE, 22)),
    "Alibaba key": (["Alibaba Cloud AccessKey ID"], lambda: "LTAI" + r(AN, 20)),
    "Groq key": (["Groq API key"], lambda: "gsk_" + r(AN, 52)),
    "Replicate token": (["Replicate token"], lambda: "r8_" + r(AN, 37)),
    "Perplexity key": (["Perplexity API key"], lambda: "pplx-" + r(AN, 48)),
    "LangSmith key": (["LangSmith API key"], lambda: "lsv2_" + rng.choice(["pt_", "sk_"]) + r(HEX, 32) + "_" + r(HEX, 10)),
    "Pinecone key": (["Pinecone API key"], lambda: "pcsk_" + r(AN, 5) + "_" + r(AN, 63)),
    "Tavily key": (["Tavily API key"], lambda: "tvly-" + rng.choice(["dev-", "prod-", ""]) + r(AN, 32)),
    "Resend key": (["Resend API key"], lambda: "re_" + r(AN, 8) + "_" + r(AN, 24)),
    "xAI key": (["xAI API key", "Grok API key"], lambda: "xai-" + r(AN, 80)),
    "Sentry token": (["Sentry auth token"], lambda: "sntryu_" + r(HEX, 64)),
    "Fly.io token": (["Fly.io deploy token"], lambda: "FlyV1 fm2_" + r(B64, 120)),
    "Firebase server key": (["FCM server key"], lambda: "AAAA" + r(URLSAFE, 7) + ":APA91b" + r(URLSAFE, 134)),
    "Twitter bearer token": (["Twitter bearer token", "X API bearer token"], lambda: "AAAAAAAAAAAAAAAAAAAAA" + r(AN, 25) + "%3D" + r(AN, 50)),
    "Facebook token": (["Facebook page access token"], lambda: "EAAG" + r(AN, 160)),
}

NAMES = ["Maya", "Tom", "Priya", "Jonas", "Aiko", "Carlos", "Lena", "Omar", "Sofia", "Dev", "Grace", "Yusuf", "Ines", "Ravi", "Noor"]
PROJECTS = ["the billing service", "our side project", "the clinic portal", "the home automation", "the newsletter", "the staging env", "the data pipeline", "the mobile app", "the family photo site", "the research scraper"]

TOKEN_TEMPLATES = [
    "My {name} is {tok}",
    "{who} sent me the {name} for {proj}: {tok}",
    "remember this {name}: {tok}",
    "Note: {name} = {tok} (rotate in March)",
    "For {proj} I'm using {tok} as the {name}.",
    "Please keep the {name} handy, it's {tok}",
    "{tok} is the {name} {who} set up for {proj}",
    "use {tok} when {proj} asks for the {name}",
    "{name} for {proj} -> {tok}",
    "In case I lose it again, the {name} is {tok}!",
    "Saving this so I stop digging through Slack: {tok}",
    "the key that works for {proj} is {tok}",
    "{who}'s credentials for {proj}: {tok}",
    "here it is {tok} - don't share",
]
CONFIG_TEMPLATES = [
    "{ENV}={tok}",
    'export {ENV}="{tok}"',
    "{env}: {tok}",
    '"{env}": "{tok}"',
    "{ENV} = '{tok}'  # prod",
    "set {ENV} to {tok} in the .env",
]


def env_name(kind: str) -> str:
    base = "".join(ch if ch.isalnum() else "_" for ch in kind.upper()).strip("_")
    return rng.choice([base, base + "_VALUE", "APP_" + base]).replace("__", "_")


records: list[dict] = []


def add(label: str, kind: str, value, variant: str = "plain", namespace=None, key=None) -> None:
    if isinstance(value, str):
        value = {rng.choice(["text", "content", "memory", "note"]): value}
    n = len(records)
    records.append(
        {
            "id": f"{label[0]}{n:04d}",
            "label": label,
            "kind": kind,
            "variant": variant,
            "namespace": namespace or ["memories", f"user-{n % 37}"],
            "key": key or f"mem-{n:05d}",
            "value": value,
        }
    )


# -- secrets: provider tokens --------------------------------------------------------------------

for kind, (names, gen) in TOKENS.items():
    count = 5 if kind in ("Databricks token", "Discord webhook", "Postman key", "AWS access key", "GitHub token", "OpenAI key", "Stripe secret key") else 4
    for i in range(count):
        tok = gen()  # type: ignore[operator]
        name = rng.choice(names)
        if i % 4 == 3:
            tpl = rng.choice(CONFIG_TEMPLATES)
            env = env_name(kind)
            text = tpl.format(ENV=env, env=env.lower(), tok=tok)
        elif i % 4 == 2 and kind not in ("AWS secret key",):
            # no vendor name, no keyword: the format alone has to speak
            text = rng.choice(
                [
                    "{who} pasted {tok} into the doc, save it for later",
                    "for {proj}: {tok}",
                    "{tok}",
                    "the thing {who} gave me for {proj} was {tok}",
                ]
            ).format(who=rng.choice(NAMES), proj=rng.choice(PROJECTS), tok=tok)
        else:
            text = rng.choice(TOKEN_TEMPLATES).format(name=name, tok=tok, who=rng.choice(NAMES), proj=rng.choice(PROJECTS))
        add("secret", kind, text)

# AWS pairs and other secrets that need their context
for _ in range(3):
    add("secret", "AWS secret key", f"aws_access_key_id={TOKENS['AWS access key'][1]()}\naws_secret_access_key={r(AN + '+/', 40)}")  # type: ignore[operator]
for _ in range(4):
    ctx = rng.choice(["Twilio auth token", "Datadog API key", "DD_API_KEY", "Algolia admin key", "OpenWeather API key", "Mistral API key", "Cloudflare global API key", "Okta API token"])
    val = {"Okta API token": "00" + r(URLSAFE, 40), "Cloudflare global API key": r(HEX, 37)}.get(ctx, r(HEX if rng.random() < 0.5 else AN, 32))
    add("secret", "vendor key by context", rng.choice([f"{ctx}: {val}", f"the {ctx} is {val}", f"{ctx}={val}"]))
for _ in range(3):
    val = r(URLSAFE, 40)
    add("secret", "Cloudflare token", rng.choice([f"Cloudflare API token: {val}", f"CLOUDFLARE_API_TOKEN={val}", f"cf token for the DNS edits is {val}"]))

# -- secrets: keys, wallets, 2FA -------------------------------------------------------------------

for kind in ["RSA", "OPENSSH", "EC", "PKCS8", "RSA"]:
    add("secret", "private key", rng.choice(["server key backup:\n", "deploy key for the pi: ", "", "id_ed25519 is\n"]) + pem(kind))
add("secret", "private key", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGX" + r(B64, 200) + "\n=" + r(B64, 4) + "\n-----END PGP PRIVATE KEY BLOCK-----")
add("secret", "private key", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: home-nas\nPublic-Lines: 2\n" + r(B64, 68) + "\nPrivate-Lines: 1\n" + r(B64, 44))
for i in range(6):
    k = r(HEX, 64)
    add(
        "secret",
        "Ethereum private key",
        [
            f"MetaMask private key for the test wallet: 0x{k}",
            f"eth wallet privkey {k}",
            f"PRIVATE_KEY=0x{k}",
            f"my ledger backup (private key) -> {k}",
            {"wallet": "hot wallet", "chain": "ethereum", "private_key": "0x" + k},
            f"Import this key into Rabby: {k}",
        ][i],
    )
for i in range(3):
    w = wif()
    add("secret", "Bitcoin private key", [f"paper wallet WIF: {w}", f"old bitcoin key {w} still has 0.02 BTC", {"coin": "BTC", "wif": w}][i])
for i in range(3):
    k = b58(bytes(rng.getrandbits(8) for _ in range(64)))
    add("secret", "Solana private key", [f"Phantom wallet private key: {k}", f"solana keypair secret {k}", f"SOLANA_PRIVATE_KEY={k}"][i])

BIP39 = (
    "abandon ability able about above absent absorb abstract absurd abuse access accident account accuse "
    "achieve acid acoustic acquire across act action actor actress actual adapt add addict address adjust "
    "admit adult advance advice aerobic affair afford afraid again age agent agree ahead aim air airport "
    "aisle alarm album alcohol alert alien all alley allow almost alone alpha already also alter always "
    "amateur amazing among amount amused analyst anchor ancient anger angle angry animal ankle announce "
    "annual another answer antenna antique anxiety any apart apology appear apple approve april arch "
    "arctic area arena argue arm armed armor army around arrange arrest arrive arrow art artefact artist "
    "bacon badge bag balance balcony ball bamboo banana banner bar barely bargain barrel base basic basket "
    "battle beach bean beauty because become beef before begin behave behind believe below belt bench "
    "cabbage cabin cable cactus cage cake call calm camera camp can canal cancel candy cannon canoe canvas "
    "dad damage damp dance danger daring dash daughter dawn day deal debate debris decade december decide "
    "eager eagle early earn earth easily east easy echo ecology economy edge edit educate effort egg "
    "fabric face faculty fade faint faith fall false fame family famous fan fancy fantasy farm fashion"
).split()
for i in range(6):
    words = " ".join(rng.choice(BIP39) for _ in range(rng.choice([12, 12, 24])))
    add(
        "secret",
        "recovery phrase",
        [
            f"seed phrase for the Trezor: {words}",
            f"my recovery words are {words}",
            f"wallet mnemonic -> {words}",
            {"wallet": "Exodus", "seed": words},
            f"backup phrase (write it on paper!): {words}",
            f"12 words for the cold wallet: {words}",
        ][i],
    )
for i in range(6):
    sec = r(B32, rng.choice([16, 32]))
    add(
        "secret",
        "2FA secret",
        [
            f"otpauth://totp/Acme:maya@example.com?secret={sec}&issuer=Acme",
            f"TOTP seed for the bank app: {sec}",
            f"authenticator setup key is {' '.join(sec[j:j + 4] for j in range(0, len(sec), 4))}",
            f"2FA backup codes: {r(DG, 4)}-{r(DG, 4)} {r(DG, 4)}-{r(DG, 4)} {r(DG, 4)}-{r(DG, 4)} {r(DG, 4)}-{r(DG, 4)}",
            f"GitHub recovery codes: {r(HEX, 5)}-{r(HEX, 5)}, {r(HEX, 5)}-{r(HEX, 5)}, {r(HEX, 5)}-{r(HEX, 5)}",
            {"service": "Proton", "totp_secret": sec},
        ][i],
    )

# -- secrets: connection strings, URLs, headers ----------------------------------------------------

PWS = [
    "Tr0ub4dor&3x!", "S3cure!Pass2024", "correcthorse99!", "Bl@ckC0ffee#7", "winter-Melon-42", "P@ssw0rd!23",
    "qT7#vLz2!mPw", "Mango_Tango_88", "ilovemycat2019", "Zx9!kd8Qw", "hunter2hunter2", "Sunshine#1987",
    "Rosebud.77", "Lemon$Tree19", "kR4z!9pLmQ", "Pa55word!", "m0nkey&banana", "Gr33nTea*21", "R!ver-Stone-3",
    "dolphin1984", "Tulip!Garden5", "Aurora_2023!", "fjord88Blue", "N0rth*Star", "Quokka#41x", "Velvet!Moon8",
]


def pw() -> str:
    return rng.choice(PWS)


for i in range(14):
    p = pw()
    host = rng.choice(["db.internal", "10.0.3.12", "prod-db.example.com", "localhost", "cluster0.ab1cd.mongodb.net", "cache.example.org"])
    user = rng.choice(["app", "admin", "maya", "svc_report", "root", "postgres"])
    add(
        "secret",
        "connection string",
        [
            f"DATABASE_URL=postgresql://{user}:{p}@{host}:5432/health",
            f"mongodb+srv://{user}:{p}@{host}/prod?retryWrites=true",
            f"redis://:{p}@{host}:6379/0",
            f"the analytics db is mysql://{user}:{p}@{host}/stats",
            f"amqp://{user}:{p}@{host}:5672/vhost",
            f"Server={host};Database=Clinic;User Id={user};Password={p};",
            f"jdbc:postgresql://{host}:5432/app?user={user}&password={p}",
            f"Host={host};Port=5432;Username={user};Password={p}",
            f"sqlalchemy url is postgresql+psycopg://{user}:{p}@{host}/db",
            f"https://{user}:{p}@git.example.com/team/repo.git",
            f"ftp://{user}:{p}@files.example.net/backups",
            f"{host}:5432:health:{user}:{p}",
            f"cloudinary://{r(DG, 15)}:{r(URLSAFE, 27)}@maya-photos",
            f"DefaultEndpointsProtocol=https;AccountName=clinicdata;AccountKey={r(B64, 86)}==;EndpointSuffix=core.windows.net",
        ][i],
    )
for i in range(6):
    up = base64.b64encode(f"{rng.choice(['admin', 'maya', 'api'])}:{pw()}".encode()).decode()
    add(
        "secret",
        "auth header",
        [
            f"Authorization: Basic {up}",
            f"curl -H 'Authorization: Bearer {r(AN, 40)}' https://api.example.com/v2/me",
            f"header x-api-key: {r(AN, 32)}",
            f"Cookie: sessionid={r(LO + DG, 32)}; csrftoken={r(AN, 32)}",
            f"curl -u maya:{pw()} https://nas.local/api",
            f"the webhook needs X-Auth-Token {r(HEX, 40)}",
        ][i],
    )
for i in range(4):
    add(
        "secret",
        "signed URL",
        [
            f"https://clinicdata.blob.core.windows.net/scans/mri.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&sig={r(B64, 43)}%3D",
            f"https://bucket.s3.amazonaws.com/report.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA{r(B32, 16)}%2F20240611%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature={r(HEX, 64)}",
            f"https://api.example.com/export?api_key={r(AN, 32)}&format=csv",
            f"https://maps.example.com/embed?key=AIzaSy{r(URLSAFE, 33)}",
        ][i],
    )

# -- secrets: passwords in config lines ------------------------------------------------------------

CONFIG_PW = [
    "DB_PASSWORD={p}",
    "password: {p}",
    'password = "{p}"',
    "spring.datasource.password={p}",
    "<password>{p}</password>",
    '"password": "{p}"',
    "PGPASSWORD={p} psql -h db -U app",
    "mysql -u root -p{p} clinic",
    "smtp_pass = {p}",
    "machine api.example.com login maya password {p}",
    "REDIS_PASS='{p}'",
    "admin_pwd: {p}",
    "  passwd: {p}",
    "wifi:\n  ssid: CabinNet\n  psk: {p}",
    "[database]\nuser = app\npass = {p}",
    "MAIL_PASSWORD={p} # gmail app password",
    "docker login -u maya -p {p}",
    "ansible_become_pass: {p}",
    "SECRET_KEY = '{s}'",
    "client_secret={s}",
    "jwt_secret: {s}",
    "session_secret = \"{s}\"",
    "encryption_key: {s}",
    "webhook_secret={s}",
]
for tpl in CONFIG_PW:
    add("secret", "password in config", tpl.format(p=pw(), s=r(AN + "!@#$%^&*", rng.choice([24, 32, 48]))))

# -- secrets: passwords in prose ------------------------------------------------------------------

PROSE_PW = [
    "my password for the bank is {p}",
    "Netflix login: maya.k@example.com / {p}",
    "The wifi at the cabin is {p}",
    "wifi password at grandma's: {p}",
    "I set the router admin password to {p}",
    "my gmail pw is {p}",
    "The new password for the school portal: {p}",
    "Remember my Amazon password, it's {p}",
    "{p} is my password for everything, don't judge",
    "login for the pharmacy site is maya / {p}",
    "Jonas's laptop password: {p}",
    "the passphrase for my SSH key is {p}",
    "Guest network key is {p}",
    "I changed the VPN password to {p} yesterday",
    "my Apple ID password is now {p}",
    "The alarm company account: user maya88, password {p}",
    "Passwort für das WLAN: {p}",
    "mi contraseña del correo es {p}",
    "mon mot de passe Orange est {p}",
    "pwd for the NAS {p}",
    "the password is literally {p}",
    "Use {p} to unlock the encrypted backup drive",
    "the zip file password is {p}",
    "Spotify: maya_k, pass {p}",
    "my work password expired so the new one is {p}",
    "Keepass master password {p}",
    "our shared Disney+ account password = {p}",
    "Dad's Facebook password is {p} (he asked me to remember)",
    "The password to the family iCloud is '{p}'",
    "If the kiosk asks, the admin password is {p}.",
]
for tpl in PROSE_PW:
    add("secret", "password in prose", tpl.format(p=pw()))

# -- secrets: PINs, codes, cards ------------------------------------------------------------------

PIN_TPL = [
    "my debit card PIN is {d4}",
    "bank PIN {d4}",
    "The garage door code is {d4}",
    "alarm code: {d4}#",
    "the phone unlock code is {d6}",
    "SIM PIN {d4}, PUK {d8}",
    "door code for the building is {d4}",
    "the lockbox combination is {d4}",
    "safe combination 12-{d2}-{d2b}",
    "Kids' iPad passcode is {d6}",
    "PIN for the credit card: {d4}",
    "keypad at the back gate: {d5}",
    "my ATM pin = {d4}",
    "voicemail PIN is {d4}",
    "Code de la carte bleue: {d4}",
]
for tpl in PIN_TPL:
    add("secret", "PIN", tpl.format(d4=r(DG, 4), d5=r(DG, 5), d6=r(DG, 6), d8=r(DG, 8), d2=r(DG, 2), d2b=r(DG, 2)))

CARD_TPL = [
    "my Visa is {g}, exp {mm}/{yy}",
    "card number {c} cvv {cvv}",
    "Pay the vet with {g}",
    "company card: {d}",
    "{g} exp {mm}/{yy} CVC {cvv}",
    "Amazon has my card {g} on file, remember it for the other shops",
    "Card: {c}",
    "the travel card is {g} — security code {cvv}",
    "Use card {d} for the subscription",
    "{c}",
    "credit card {g}, name on card MAYA K, expiry {mm}/{yy}",
    "backup card number {g}",
]
for tpl in CARD_TPL:
    num = card()
    add(
        "secret",
        "card number",
        tpl.format(g=group_card(num), c=num, d=group_card(num, "-"), mm=f"{rng.randint(1, 12):02d}", yy=rng.randint(25, 31), cvv=r(DG, 3)),
    )
for tpl in ["CVV on the Visa is {v}", "the security code on the back is {v}", "cvc: {v}"]:
    add("secret", "card security code", tpl.format(v=r(DG, 3)))
for i in range(4):
    num = card()
    add("secret", "card record", [
        {"card_number": num, "expiry": "09/28", "holder": "Maya K"},
        {"payment": {"type": "visa", "number": group_card(num), "cvv": r(DG, 3)}},
        {"cards": [{"label": "main", "pan": num}]},
        {"billing": "monthly", "card": int(num)},
    ][i])

# national id numbers: redacted by default (counted as caught when refused or redacted)
for tpl in ["my SSN is {s}", "Social security number {s}", "SSN: {s} (for the tax forms)", "social security no. {s}", "{{\"ssn\": \"{s}\"}}"]:
    s = f"{rng.randint(100, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"
    add("secret", "national id", tpl.format(s=s))

# -- secrets: structured records and field-name context -------------------------------------------

STRUCT = [
    lambda: {"username": "bob", "password": pw()},
    lambda: {"bank_pin": r(DG, 4)},
    lambda: {"site": "hospital portal", "login": "maya.k", "pw": pw()},
    lambda: {"wifi": {"ssid": "Home-5G", "password": pw()}},
    lambda: {"accounts": [{"service": "electric", "user": "mk88", "pass": pw()}, {"service": "water", "user": "mk88"}]},
    lambda: {"api": {"provider": "weather", "api_key": r(AN, 32)}},
    lambda: {"credentials": {"user": "admin", "secret": r(AN + "-_", 40)}},
    lambda: {"alarm_code": r(DG, 4)},
    lambda: {"door": "front", "code": r(DG, 4), "note": "keypad on the left"},
    lambda: {"phone_passcode": r(DG, 6)},
    lambda: {"ssh": {"host": "nas.local", "user": "pi", "passphrase": pw()}},
    lambda: {"vpn_password": pw()},
    lambda: {"email_app_password": " ".join(r(LO, 4) for _ in range(4))},
    lambda: {"security_question": "first pet", "security_answer": rng.choice(["Biscuit", "Mr Whiskers", "Rex1999"])},
    lambda: {"stripe": {"mode": "live", "secret_key": "sk_live_51" + r(AN, 24)}},
    lambda: {"token": r(AN + "-_", 48), "expires": "2025-06-01"},
    lambda: {"pin": int(r("123456789", 1) + r(DG, 3))},
    lambda: {"cvv": r(DG, 3), "card_last4": r(DG, 4)},
    lambda: {"passcode": r(DG, 6)},
    lambda: {"master_password": pw()},
    lambda: {"login": {"email": "maya@example.com", "password": pw()}},
    lambda: {"router": {"admin_user": "admin", "admin_password": pw()}},
    lambda: {"auth": {"type": "bearer", "value": r(AN, 40)}},
    lambda: {"kube": {"token": jwt({"iss": "kubernetes/serviceaccount", "sub": "system:serviceaccount:default:ci"})}},
    lambda: {"auths": {"registry.example.com": {"auth": base64.b64encode(f"maya:{pw()}".encode()).decode()}}},
]
for make in STRUCT:
    add("secret", "structured credential", make(), variant="hard")

# -- secrets: evasions ---------------------------------------------------------------------------

HOMO = {"A": "\u0410", "K": "\u041a", "I": "\u0406", "S": "\u0405", "E": "\u0415", "O": "\u041e", "B": "\u0412", "C": "\u0421", "T": "\u0422", "H": "\u041d", "P": "\u0420", "M": "\u041c", "X": "\u0425"}
for i in range(3):
    key = "AKIA" + r(B32, 16)
    fake = "".join(HOMO.get(ch, ch) if rng.random() < 0.6 else ch for ch in key)
    add("secret", "AWS access key", f"aws key {fake}", variant="hard")
tok = gh("ghp_")
add("secret", "GitHub token", tok.replace("p", "\u0440").replace("o", "\u043e"), variant="hard")  # Cyrillic r and o

for i in range(6):
    tok = rng.choice([TOKENS["Stripe secret key"][1], TOKENS["GitHub token"][1], TOKENS["OpenAI key"][1], TOKENS["Slack bot token"][1], TOKENS["AWS access key"][1]])()  # type: ignore[operator]
    sep = [" ", " ", "-", ".", " ", "  "][i]
    step = [1, 4, 4, 1, 2, 3][i]
    spaced = sep.join(tok[j : j + step] for j in range(0, len(tok), step))
    add("secret", "spaced token", rng.choice([f"key (spaced so the filter won't eat it): {spaced}", f"{spaced}", f"api key {spaced}"]), variant="hard")
for i in range(6):
    inner = [
        "ghp_" + gh("ghp_")[4:],
        f"sk_live_51{r(AN, 24)}",
        f"password: {pw()}",
        f"AKIA{r(B32, 16)}",
        f"postgres://app:{pw()}@db:5432/x",
        f"xoxb-{r(DG, 12)}-{r(DG, 13)}-{r(AN, 24)}",
    ][i]
    enc = base64.b64encode(inner.encode()).decode()
    add("secret", "base64 encoded", rng.choice([f"encoded so it is safe: {enc}", f"b64: {enc}", f"{enc}", f"the blob {enc} (decode later)"]), variant="hard")
for i in range(3):
    inner = [f"sk_live_51{r(AN, 24)}", f"password={pw()}", gh("ghp_")][i]
    add("secret", "hex encoded", f"hex: {inner.encode().hex()}", variant="hard")
for i in range(5):
    inner = [gh("ghp_"), "sk_live_51" + r(AN, 24), "AKIA" + r(B32, 16), "glpat-" + r(AN, 20), "xoxb-" + r(DG, 12) + "-" + r(DG, 13) + "-" + r(AN, 24)][i]
    add("secret", "reversed token", rng.choice([f"reversed: {inner[::-1]}", f"{inner[::-1]} (read it backwards)", f"backwards key {inner[::-1]}"]), variant="hard")
for i in range(6):
    tok = [gh("ghp_"), "sk_live_51" + r(AN, 30), "AKIA" + r(B32, 16), "xoxb-" + r(DG, 12) + "-" + r(DG, 13) + "-" + r(AN, 24), "dapi" + r(HEX, 32), "glpat-" + r(AN, 20)][i]
    cut = rng.randint(6, len(tok) - 6)
    if i % 2:
        add("secret", "split across fields", {"key_part1": tok[:cut], "key_part2": tok[cut:]}, variant="hard")
    else:
        thirds = [tok[: len(tok) // 3], tok[len(tok) // 3 : 2 * len(tok) // 3], tok[2 * len(tok) // 3 :]]
        add("secret", "split across list items", {"pieces": thirds}, variant="hard")
for i in range(4):
    num = card()
    groups = group_card(num).split()
    add("secret", "card split", [
        {f"card_{j + 1}": g for j, g in enumerate(groups)},
        {"digits": groups},
        f"card {group_card(num, '.')}",
        f"card {group_card(num, ' / ')}",
    ][i], variant="hard")
for i in range(4):
    tok = [gh("ghp_"), "AKIA" + r(B32, 16), "sk_live_51" + r(AN, 24), "xoxb-" + r(DG, 12) + "-" + r(DG, 13) + "-" + r(AN, 24)][i]
    zw = "\u200b" if i % 2 else "\u2060"
    add("secret", "invisible characters", f"token {zw.join(tok[j:j + 5] for j in range(0, len(tok), 5))}", variant="hard")
add("secret", "fullwidth", "key " + "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in "sk_live_51" + r(AN, 24)), variant="hard")
add("secret", "url encoded", f"saved form: user=maya&password%3D{pw().replace('!', '%21').replace('#', '%23')}", variant="hard")
add("secret", "url encoded", f"next=%2Fhome&password={pw().replace('!', '%21').replace('@', '%40')}", variant="hard")
add("secret", "json in string", '{"username": "maya", "password": "' + pw() + '"}', variant="hard")
add("secret", "spelled out", f"my PIN is {' '.join(r(DG, 4))}", variant="hard")
add("secret", "password in prose", f"pw:{pw()}", variant="hard")

# secrets in the key or the namespace (only the value was scanned)
for i in range(8):
    tok = [gh("ghp_"), "sk_live_51" + r(AN, 24), "AKIA" + r(B32, 16), "xoxb-" + r(DG, 12) + "-" + r(DG, 13) + "-" + r(AN, 24), "dapi" + r(HEX, 32), "glpat-" + r(AN, 20), "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34), "hf_" + r(UP + LO, 34)][i]
    if i < 4:
        add("secret", "secret in key", {"text": "see key"}, variant="hard", key=tok)
    else:
        add("secret", "secret in namespace", {"text": "credentials"}, variant="hard", namespace=["memories", f"user-{i}", tok])
add("secret", "secret in key", {"note": "bank"}, variant="hard", key=f"password={pw()}")
add("secret", "secret in namespace", {"note": "x"}, variant="hard", namespace=["memories", "user-3", f"pin {r(DG, 4)}"])
add("secret", "secret in key", {"v": 1}, variant="hard", key=card())

# -- benign ----------------------------------------------------------------------------------------

B = []


def ben(kind: str, value, variant: str = "plain", namespace=None, key=None) -> None:
    add("benign", kind, value, variant=variant, namespace=namespace, key=key)


for _ in range(12):
    u = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    ben("uuid", rng.choice([f"Request id {u} failed twice, retry tomorrow", f"the booking reference is {u}", f"user id {u} in the CRM", f"trace {u}", f"device id: {u}", f"Ticket link has id={u}"]))
for _ in range(10):
    h = r(HEX, rng.choice([7, 40, 40, 64, 32]))
    ben("hash", rng.choice([f"fixed in commit {h}", f"sha256 of the installer is {h}", f"the checksum matched: {h}", f"deployed {h} to staging", f"git bisect points at {h}", f"md5 {h} for the scan file", f"docker image digest sha256:{r(HEX, 64)}"]))
for _ in range(8):
    ben("tx hash", rng.choice([f"Transaction hash 0x{r(HEX, 64)} confirmed", f"tx 0x{r(HEX, 64)} went through on mainnet", f"Etherscan shows block hash 0x{r(HEX, 64)}"]))
for _ in range(6):
    ben("wallet address", rng.choice([f"send rent in USDC to 0x{r(HEX, 40)}", f"my ENS points to 0x{r(HEX, 40)}", f"BTC address bc1q{r(LO + DG, 38)}", f"donation address 1{r(B58, 33)}"]))
ORDER = [
    "Order #112-{a}-{b} arrives Thursday.",
    "Amazon order {c}-{a}-{b} was refunded",
    "Invoice INV-2024-{d} is due on the 15th",
    "tracking 1Z{e}{f} via UPS",
    "USPS tracking 9400 1{g} {h} {i} {j} {k} 00",
    "FedEx 7{l} should arrive Monday",
    "confirmation code {m} for the Lisbon flight",
    "PNR {m}, seat 14C",
    "Order ID: ORD-{n}",
    "Reservation number {o} at the Marriott",
    "claim number CLM-{d}-{p} with the insurer",
    "case #{o} with Comcast support",
    "ticket SUP-{d} is still open",
    "the return label RMA{o}",
    "Etsy order {o} shipped",
]
for tpl in ORDER:
    ben(
        "order number",
        tpl.format(a=r(DG, 7), b=r(DG, 7), c=r(DG, 3), d=r(DG, 5), e=r(UP + DG, 6), f=r(DG, 10), g=r(DG, 3), h=r(DG, 4), i=r(DG, 4), j=r(DG, 4), k=r(DG, 4), l=r(DG, 11), m=r(UP + DG, 6), n=r(UP + DG, 10), o=r(DG, 8), p=r(DG, 3)),
    )
VERS = [
    "upgraded the app to v2.14.3", "Python 3.12.1 on the laptop", "Windows build 10.0.22631.3296", "iOS 17.4.1 fixed the bug",
    "firmware 4.2.0-rc.3 on the router", "node 20.11.0 and npm 10.2.4", "semver 1.0.0-rc.2+build.5 was released", "Chrome 124.0.6367.91",
    "the router runs OpenWrt 23.05.3 r23809-234f1a2efa", "kernel 6.8.0-31-generic", "Docker 26.1.1, build 4cf5afa", "Postgres 16.2 on the NAS",
]
for v in VERS:
    ben("version", v)
for _ in range(10):
    area = rng.choice(["415", "212", "617", "303", "512"])
    ben("phone", rng.choice([f"Dr. Chen's office: ({area}) 555-{r(DG, 4)}", f"call mom at +1 {area} 555 {r(DG, 4)}", f"pharmacy {area}-555-{r(DG, 4)}", f"UK number +44 20 7946 {r(DG, 4)}", f"Lena's mobile is +49 151 {r(DG, 8)}", f"dentist: {area}.555.{r(DG, 4)}"]))
for _ in range(8):
    n = rng.choice(NAMES).lower()
    ben("email", rng.choice([f"{n}@example.com is the best address for receipts", f"cc {n}.k@clinic-mail.org on lab results", f"my work email is {n}@acme.io", f"send the invoice to billing+{n}@example.net"]))
for _ in range(5):
    ben("ip address", rng.choice([f"the NAS is at 192.168.1.{rng.randint(2, 250)}", f"VPN exit 203.0.113.{rng.randint(2, 250)}", f"printer IP 10.0.0.{rng.randint(2, 250)}", "home IPv6 2001:db8:85a3::8a2e:370:7334"]))
for _ in range(6):
    ben("iban", rng.choice([f"my IBAN for the rent is {iban('DE', 18)}", f"pay the landlord at {iban('FR', 23)}", f"salary goes to {iban('NL', 14)}", f"IBAN {iban('GB', 18)} (joint account)", f"refund to {iban('ES', 20)}"]))
for _ in range(6):
    ben("iban-like", rng.choice([f"reference {iban('DE', 18, valid=False)}", f"the form code was {iban('FR', 23, valid=False)}", "room DE12 on floor 3, desk AB 44", "part number GB29 NWBK 6016 13 rev B", "model NL91 ABNA 0417 XC (vacuum filter)"]))
for _ in range(5):
    ben("card look-alike", rng.choice([f"card ending in {r(DG, 4)} was declined", f"the Visa ending {r(DG, 4)} expires soon", f"IMEI {luhn_complete('35' + r(DG, 4), 15)}", f"gift card balance $25, card ending {r(DG, 4)}", f"loyalty number {r(DG, 12)}"]))
IDS = [
    "Stripe customer cus_{a} pays yearly", "the Stripe publishable key pk_live_{b} goes in the frontend",
    "Mapbox public token pk.eyJ1IjoibWF5YSIsImEiOiJ{c}.{d} is fine to embed", "Google Analytics id G-{e}",
    "YouTube video dQw4w9WgXcQ is the warmup playlist", "doc id 1{f} in Google Drive is the budget",
    "Spotify playlist 37i9dQZF1DX{g}", "Slack channel C0{h} for the family", "Jira ticket HEALTH-{i}",
    "AWS account 1234{j} in us-east-1", "role arn:aws:iam::{k}:role/ReadOnly", "S3 bucket clinic-exports-{l}",
    "Sentry DSN project id {m}", "Firebase project maya-health-{n}", "the pod web-{o}-x2kqp keeps restarting",
    "k8s namespace team-{p}", "Zoom meeting ID 845 {q} {r_}", "the VIN is 1HGCM82633A{s}", "ISBN 978-0-{t}-{u}-5",
    "MAC address 3C:22:FB:{v}", "color #3A7BD5 for the header", "lat 37.7749, lon -122.4194 for the cabin",
    "Clerk user id user_2{w}", "Auth0 id auth0|{x}", "the SSH public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{y} maya@laptop",
    "PGP fingerprint {z}", "ORCID 0000-0002-{ab}-{ac}", "DOI 10.1038/s41586-{ad}-{ae}", "npm package @clinic/ui-kit@3.4.1",
    "license plate 7ABC123 for the rental", "MRN 004829371 at St. Mary's", "Medicare claim CN{af}",
]
for tpl in IDS:
    ben(
        "identifier",
        tpl.format(
            a=r(AN, 14), b=r(AN, 24), c=r(AN, 20), d=r(URLSAFE, 22), e=r(UP + DG, 10), f=r(URLSAFE, 43), g=r(AN, 11), h=r(UP + DG, 8),
            i=r(DG, 4), j=r(DG, 8), k=r(DG, 12), l=r(LO + DG, 8), m=r(DG, 7), n=r(LO + DG, 5), o=r(LO + DG, 9), p=r(LO, 6), q=r(DG, 4),
            r_=r(DG, 4), s=r(DG, 6), t=r(DG, 4), u=r(DG, 4), v=":".join(r("0123456789ABCDEF", 2) for _ in range(3)), w=r(AN, 26),
            x=r(HEX, 24), y=r(B64, 43), z=" ".join(r("0123456789ABCDEF", 4) for _ in range(10)), ab=r(DG, 4), ac=r(DG, 3) + "X",
            ad=r(DG, 3), ae=r(DG, 5), af=r(DG, 10),
        ),
    )
TALK = [
    "Remind me to change my bank password next week.",
    "My PIN got blocked after three wrong tries, call the branch.",
    "The password must be at least 12 characters with a symbol.",
    "I use Bitwarden as my password manager now.",
    "I forgot the garage code again, ask Tom.",
    "The door code changes every month; the concierge texts it.",
    "The API key is stored in Vault under kv/billing/prod.",
    "my GitHub token expires in 30 days, renew before the release",
    "The secret ingredient in grandma's soup is cardamom.",
    "The PIN pad at the pharmacy was broken, paid by phone.",
    "Don't tell Ella about the surprise party - it's a secret!",
    "The key to the shed is under the blue flower pot.",
    "Password reset emails go to my old Hotmail, fix that.",
    "She prefers passwordless login with passkeys.",
    "Tokens for the arcade are in the kitchen drawer.",
    "The API token for the weather app is in 1Password, vault 'Home'.",
    "Reset the router password after the technician leaves.",
    "My passcode is my daughter's birthday, I should change it.",
    "The password hint is 'first dog'.",
    "Remember that the wifi network is called CabinNet-5G.",
    "Keynote presentation is in the Key folder on the desktop.",
    "The song is in the key of C minor.",
    "Secret Santa: I got Omar this year, budget $30.",
    "The bank sends a one-time code by SMS when I log in.",
    "Use the guest pass at the front desk, ask for Maria.",
    "bus pass renews on the 1st of every month",
    "My boarding pass is in the Wallet app.",
    "token count limit for the summarizer is 4,000",
    "Set max_tokens to 1024 for the summaries.",
    "He's got a key-card for the lab; visitors need an escort.",
    "API key rotation is every 90 days per the security policy.",
    "Passport number is on the scanned page in the travel folder.",
    "The authentication app is Google Authenticator on the old phone.",
    "Lock screen timeout is 30 seconds.",
    "Combination therapy: metformin plus lifestyle changes.",
    "The code review for PR 4821 is due Friday.",
    "Her zip code is 94110 and the area code is 415.",
    "Error code 0x80070005 when installing the update.",
    "Promo code SPRING24 gave 20% off.",
    "Discount code WELCOME10 for the first box.",
    "The confirmation code from Delta is in my inbox.",
    "Code 1234 is the default on every new lock, change it on day one.",
    "HTTP 401 means the token was missing.",
    "The private key stays on the YubiKey; nothing to back up.",
    "Private practice hours are Mon-Thu 9-5.",
    "My credentials for the conference were emailed to my work address.",
    "I keep my passwords in a notebook at home, not on the phone.",
    "Changed all my passwords after the breach on May 3rd.",
    "the pass code for the ferry is printed on the receipt",
    "The seed packets for the garden arrived: tomatoes and basil.",
    "Recovery after the knee surgery takes six weeks.",
    "Backup codes are printed and locked in the fireproof box.",
    "Security question answers are in the envelope in the safe.",
    "The password to the museum exhibit audio guide is on the wall sign.",
    "Token of appreciation: send flowers to the nurses.",
    "PIN the blue jacket photo to the mood board.",
    "pinned the grocery list to the fridge",
    "Password day is a reminder to update old logins.",
    "The secretary at the clinic is called Rosa.",
    "Use secret mode in the browser for the gift shopping.",
]
for t in TALK:
    ben("talk about secrets", t)
HEALTH = [
    "Allergic to penicillin; carries an EpiPen.", "Takes 50 mg sertraline every morning.", "HbA1c 6.1% in June, down from 6.8%.",
    "Blood pressure 128/82 this morning, pulse 71.", "LDL 128 mg/dL, HDL 52 mg/dL.", "MRI of the left knee on 2024-09-14 at 08:15.",
    "Physio Tuesdays and Thursdays at 4:30pm.", "Flu shot lot FL4829B at the CVS on Main St.", "Prescription Rx #6029481 for lisinopril 10 mg.",
    "ICD-10 E11.9, CPT 99214 on the referral.", "Weight 72.4 kg; target 70 kg by summer.", "Uses a CPAP at 9 cmH2O.",
    "Vitamin D 2000 IU daily.", "Sleep average 6h 40m last week.", "Walks 8,000 steps a day on average.",
    "Insurance member ID XJH492017733, group 88412.", "NPI of the endocrinologist is 1234567893.", "Blood type O negative.",
    "Migraine triggers: red wine, skipped lunch, bright screens.", "Dr. Alvarez moved the appointment to 10:15 on Friday.",
]
for t in HEALTH:
    ben("health", t)
PREFS = [
    "Prefers oat milk and no sugar.", "Likes jazz, especially Bill Evans.", "Call me Max, not Maximilian.", "Vegetarian since 2019.",
    "Prefers answers in bullet points and metric units.", "Speaks German and Spanish; replies in English.",
    "Daughter Ella turns 7 on May 12.", "Partner works night shifts on weekends.", "Favourite colour is forest green.",
    "Wants the weekly summary on Sunday evening.", "Flying to Lisbon on 2024-07-02, returning the 14th.",
    "Book tables for 4 at 7:30pm, never earlier.", "Budget for the kitchen remodel is $18,500.", "Rent is $2,150, due on the 1st.",
    "Gym membership: 24h Fitness, Tuesday and Friday at 6am.", "The cat's name is Biscuit; vet is Dr. Patel.",
    "Home address is 42 Elm Street, Apt 3B, Springfield.", "Birthday is March 14, 1988.", "Loves hiking in the Dolomites.",
    "Learning Japanese, JLPT N4 in December.",
]
for t in PREFS:
    ben("preference", t)
TECH = [
    "The staging URL is https://staging.example.com/app?utm_source=newsletter&ref=home",
    "Docs at https://docs.example.com/v2/api-reference#authentication",
    "The repo is github.com/maya-k/garden-planner, branch feature/beds-v2",
    "export PATH=$HOME/.local/bin:$PATH",
    "Config lives in ~/.config/garden/settings.toml",
    "Run `pytest -k token_budget` before merging",
    "ssh pi@nas.local -p 2222 for the backups",
    "The cron is 0 3 * * * /usr/local/bin/backup.sh",
    "DB host is db.internal, port 5432, database health, user app (password in Vault)",
    "API base https://api.example.com/v1, rate limit 100 req/min",
    "password_min_length = 12",
    "api_key_env = OPENAI_API_KEY",
    "token: ${GITHUB_TOKEN}",
    "password: <set in CI>",
    "AWS_REGION=eu-west-1",
    "AUTH_PROVIDER=auth0",
    "SECRET_KEY=os.environ['SECRET_KEY']",
    "jwt_expiry_minutes: 15",
    "the logo is at /static/img/logo-3fa85f64.svg",
    "webpack chunk main.4f3c2b1a9e8d7c6b.js is too big",
    "CSS class .btn-primary-7d9f8b6c",
    "base image python:3.11-slim@sha256:" + r(HEX, 64),
    "the cache key is v3-deps-" + r(HEX, 40),
    "Google Fonts: Inter 400/600",
    "localStorage key app.settings.v2",
    "OAuth redirect https://app.example.com/callback?state=xyz",
    "the test card 4242 4242 4242 4242 is Stripe's public test number",  # documented public test value: benign? keep as card -> see README
]
TECH.pop()  # a public test card number is still a card number to the guard: left out on purpose
for t in TECH:
    ben("tech note", t)

# structured benign records (field names that sound like secrets, values that are not)
SB = [
    {"name": "Ana", "phone": "+1 415 555 0132", "email": "ana@example.com"},
    {"password_hint": "first pet + birth year"},
    {"password_last_changed": "2024-05-01"},
    {"password_manager": "Bitwarden"},
    {"pin_required": True},
    {"token_budget": 4000},
    {"max_tokens": 1024},
    {"secret_santa_group": "Office 2024"},
    {"keyboard": "ISO DE"},
    {"api_key_rotation_days": 90},
    {"door_code_location": "ask the concierge"},
    {"key": "C minor", "tempo": 92},
    {"keys": "under the mat at the back door"},
    {"password_policy": "12 chars minimum, one symbol"},
    {"token": "$CHAT_TOKEN"},
    {"api_key": "<redacted>"},
    {"pin": "required for pickup"},
    {"password": "********"},
    {"secret": None},
    {"auth": "oauth2", "provider": "google"},
    {"credentials": "in 1Password"},
    {"passcode_enabled": False},
    {"wifi": {"ssid": "CabinNet-5G", "password": "ask Tom"}},
    {"bank": "Chase", "last4": "4821"},
    {"card": {"brand": "visa", "last4": "0042", "exp": "09/27"}},
    {"dob": "1988-03-14", "blood_type": "O-"},
    {"area": "415", "exchange": "555", "line": "0132"},
    {"y": "2024", "m": "06", "d": "11"},
    {"lottery": ["07", "19", "23", "31", "42", "45"]},
    {"scores": [12, 45, 78, 90]},
    {"countries": ["DE", "FR", "NL", "ES", "IT"]},
    {"steps": ["boil", "water", "add", "pasta"]},
    {"dose_mg": [250, 500, 250], "times": ["08:00", "14:00", "20:00"]},
    {"room": "B12", "floor": "3", "building": "North"},
    {"flight": "LH454", "seat": "14C", "pnr": "K7QX2M"},
    {"insurance": {"member_id": "XJH492017733", "group": "88412"}},
    {"vitals": {"bp": "122/78", "pulse": 64, "spo2": 98}},
    {"device": {"serial": "C02XK1JHJG5J", "model": "MacBook Pro"}},
    {"session": {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)), "started": "2024-06-11T09:12:00Z"}},
    {"commit": r(HEX, 40), "branch": "main"},
    {"digest": "sha256:" + r(HEX, 64)},
    {"user_id": "user_2" + r(AN, 26)},
    {"hash": r(HEX, 64), "algo": "sha256"},
    {"request_id": r(HEX, 32)},
    {"etag": '"' + r(HEX, 32) + '"'},
    {"nonce_used": True, "attempts": 3},
    {"iban": iban("DE", 18), "bank": "GLS"},
    {"phone_numbers": ["+1 415 555 0132", "+1 212 555 0188"]},
    {"emails": ["maya@example.com", "tom@example.org"]},
    {"text": "I keep my passwords in a notebook", "tags": ["security", "habits"]},
]
for v in SB:
    ben("structured", v, variant="hard")
# evasion look-alikes: what the normalisers must not turn into secrets
EV = [
    base64.b64encode(b"Hello from the clinic, see you Monday").decode(),
    "data:image/png;base64," + base64.b64encode(bytes(rng.getrandbits(8) for _ in range(60))).decode(),
    "S P E L L  it out: E L L A",
    "dlrow olleh is hello world backwards",
    "Reversed list: 5 4 3 2 1 liftoff",
    "The hex for 'hi' is 6869",
    "base64 of the word cat is Y2F0",
    "Привет! Как дела? Встреча в 10:00.",
    "Ελληνικά μαθήματα την Τρίτη.",
    "café résumé naïve coöperate",
    "ＰＡＲＴＹ at 8pm!",
    "Call 1 800 555 0199 for support",
    "2024-06-11 12:30:45.123456",
    "Order 1000 2000 3000 4000 boxes? No, 1000.",
    "the numbers 4 8 15 16 23 42",
    "The code for the exhibit audio guide is on the wall.",
    "abcdefghijklmnopqrstuvwxyz0123456789",
    "Rx 1234-5678-9012 at the pharmacy",
    "Her ID card photo is in the travel folder.",
    "qwertyuiop is not a great password example",
]
for t in EV:
    ben("evasion look-alike", t, variant="hard")
for i in range(10):
    u = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    ben("key and namespace", {"text": rng.choice(["Likes tea", "Allergic to nuts", "Prefers email", "Lives in Porto"])}, variant="hard",
        key=[u, r(HEX, 40), "profile", "preferences.food", f"memory-{u[:8]}", "2024-06-11T09:12:00Z", u, "contact-info", r(HEX, 32), "pw-reset-reminder"][i],
        namespace=[["memories", "ana.silva@example.com"], ["memories", "user_2" + r(AN, 26)], ["memories", "auth0|" + r(HEX, 24), "health"], ["memories", u],
                   ["memories", "u-" + r(LO + DG, 20), "prefs"], ["memories", "maya", "travel"], ["memories", r(AN, 28)], ["memories", "tom", "passwords-to-change"],
                   ["memories", "user-17", "tokens"], ["memories", "user-9", "secrets-of-the-garden"]][i])

# more ordinary memories, for volume and variety
MORE = [
    "Needs a reminder to water the plants on Mondays and Thursdays.", "Coffee with Priya at 9 on Wednesday at Blue Bottle.",
    "Car service due at 45,000 miles; currently 43,210.", "The Wi-Fi is slow upstairs, try the mesh node by the stairs.",
    "Kids' school starts at 8:05; pickup at 15:10.", "Grocery: eggs, spinach, feta, 2 lemons, rice.",
    "Prefers aisle seats on flights longer than 3 hours.", "Doctor said to avoid ibuprofen for a week.",
    "Library books due June 21: 3 items.", "Anniversary dinner on 9/14 at Nopa, 7:45pm.",
    "Meeting notes: Q3 budget approved at $1.2M, headcount +2.", "Tom's shoe size is 44 EU.",
    "The passcode screen flickers on the old iPad; replace the battery.", "Took 2 of 3 antibiotic courses; finish by Friday.",
    "Electric bill averages $84 a month.", "Parking spot P2-117 at the hospital garage.",
    "Mortgage rate 6.25% fixed for 30 years.", "Recipe: 200 g flour, 2 eggs, 300 ml milk.",
    "The hiking trail is 12.4 km with 800 m elevation.", "Ella's teacher is Ms. Okafor, room 21B.",
    "Moving to Porto in September; needs a NIF.", "Renew driver's license before 2025-02-28.",
    "The plumber quoted $340 for the water heater.", "Prefers Celsius and 24-hour time.",
    "Volunteer shift at the food bank every other Saturday 10-1.", "Marathon PB is 3:42:17 (Berlin 2023).",
    "Allergy season starts in April; start cetirizine then.", "Jonas owes me $45 for concert tickets.",
    "Tax appointment with the accountant on March 3 at 2pm.", "Use the blue folder for insurance paperwork.",
    "Netflix plan is Standard, $15.49 a month.", "The thermostat schedule is 19°C at night, 21°C days.",
    "Spanish class level B1, Tuesdays 18:30.", "Wants to read 24 books this year; at 11 so far.",
    "Prefers the 7:10 train; platform 4.", "Printer model HP LaserJet M209dw, toner 134A.",
    "Solar panels produced 412 kWh in May.", "The dog gets 2 cups of kibble, morning and evening.",
    "Sister's wedding is in Lyon on 2025-06-21.", "Quarterly review with Grace on the 2nd Monday.",
]
for t in MORE:
    ben("ordinary", t)

secrets = [x for x in records if x["label"] == "secret"]
benign = [x for x in records if x["label"] == "benign"]
assert len(secrets) >= 300 and len(benign) >= 300, (len(secrets), len(benign))
out = Path(__file__).with_name("heldout.jsonl")
with out.open("w", encoding="utf-8") as fh:
    for rec in records:
        fh.write(json.dumps(rec, ensure_ascii=False, sort_keys=True) + "\n")
kinds = sorted({x["kind"] for x in secrets})
print(f"{len(secrets)} secrets of {len(kinds)} kinds, {len(benign)} benign -> {out.name}")
