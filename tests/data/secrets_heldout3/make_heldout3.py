"""Writes heldout3.jsonl: the third held-out corpus of the secret guard (seeded).

Written on its own, without importing or reading the other corpora or the guard, and
committed before the guard was tuned on the second held-out corpus's misses. Run
``python make_heldout3.py`` to rewrite the same file.
"""

from __future__ import annotations

import base64
import json
import random
import string
import zlib
from pathlib import Path

R = random.Random(20261126)
UP, LO, DI = string.ascii_uppercase, string.ascii_lowercase, string.digits
AN = UP + LO + DI
HEX = "0123456789abcdef"
B64 = AN + "+/"
URLSAFE = AN + "-_"


def rs(alphabet: str, n: int) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def b62_crc(n: int) -> str:
    body = rs(AN, n)
    crc = zlib.crc32(body.encode()) & 0xFFFFFFFF
    out = ""
    for _ in range(6):
        crc, r = divmod(crc, 62)
        out = (DI + UP + LO)[r] + out
    return body + out


def luhn(prefix: str, length: int) -> str:
    digits = prefix + rs(DI, length - len(prefix) - 1)
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return digits + str((10 - total % 10) % 10)


def uuid4() -> str:
    h = rs(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


# -- provider tokens: (kind, generator, vendor name as people write it) ---------------

TOKENS = [
    ("GitHub classic PAT", lambda: "ghp_" + b62_crc(30), "GitHub"),
    ("GitHub app token", lambda: "ghs_" + b62_crc(30), "GitHub"),
    ("GitHub refresh token", lambda: "ghr_" + b62_crc(30), "GitHub"),
    ("GitHub fine-grained PAT", lambda: "github_pat_" + rs(AN, 22) + "_" + rs(AN, 59), "GitHub"),
    ("GitLab PAT", lambda: "glpat-" + rs(URLSAFE, 20), "GitLab"),
    ("GitLab deploy token", lambda: "gldt-" + rs(AN, 20), "GitLab"),
    ("GitLab pipeline trigger", lambda: "glptt-" + rs(HEX, 40), "GitLab"),
    ("Slack bot token", lambda: f"xoxb-{rs(DI, 12)}-{rs(DI, 13)}-{rs(AN, 24)}", "Slack"),
    ("Slack user token", lambda: f"xoxp-{rs(DI, 12)}-{rs(DI, 12)}-{rs(DI, 13)}-{rs(HEX, 32)}", "Slack"),
    ("Slack app token", lambda: f"xapp-1-A{rs(UP + DI, 10)}-{rs(DI, 13)}-{rs(HEX, 64)}", "Slack"),
    ("Stripe secret key", lambda: "sk_live_" + rs(AN, 99), "Stripe"),
    ("Stripe restricted key", lambda: "rk_live_" + rs(AN, 99), "Stripe"),
    ("Stripe webhook secret", lambda: "whsec_" + rs(AN, 32), "Stripe"),
    ("OpenAI project key", lambda: "sk-proj-" + rs(URLSAFE, 74) + "T3BlbkFJ" + rs(URLSAFE, 74), "OpenAI"),
    ("OpenAI legacy key", lambda: "sk-" + rs(AN, 20) + "T3BlbkFJ" + rs(AN, 20), "OpenAI"),
    ("Anthropic key", lambda: "sk-ant-api03-" + rs(URLSAFE, 93) + "AA", "Anthropic"),
    ("Anthropic admin key", lambda: "sk-ant-admin01-" + rs(URLSAFE, 93) + "AA", "Anthropic"),
    ("Google API key", lambda: "AIza" + rs(URLSAFE, 35), "Google Maps"),
    ("npm token", lambda: "npm_" + rs(AN, 36), "npm"),
    ("PyPI token", lambda: "pypi-AgEIcHlwaS5vcmc" + rs(URLSAFE, 70), "PyPI"),
    ("Shopify admin token", lambda: "shpat_" + rs(HEX, 32), "Shopify"),
    ("Shopify shared secret", lambda: "shpss_" + rs(HEX, 32), "Shopify"),
    ("SendGrid key", lambda: "SG." + rs(URLSAFE, 22) + "." + rs(URLSAFE, 43), "SendGrid"),
    ("Twilio API key SID", lambda: "SK" + rs(HEX, 32), "Twilio"),
    ("Mailgun key", lambda: "key-" + rs(HEX, 32), "Mailgun"),
    ("Mailchimp key", lambda: rs(HEX, 32) + "-us" + str(R.randint(1, 21)), "Mailchimp"),
    ("Hugging Face token", lambda: "hf_" + rs(UP + LO, 34), "Hugging Face"),
    ("Replicate token", lambda: "r8_" + rs(AN, 37), "Replicate"),
    ("Groq key", lambda: "gsk_" + rs(AN, 52), "Groq"),
    ("Perplexity key", lambda: "pplx-" + rs(AN, 48), "Perplexity"),
    ("xAI key", lambda: "xai-" + rs(AN, 80), "xAI"),
    ("Tavily key", lambda: "tvly-" + rs(AN, 32), "Tavily"),
    ("Firecrawl key", lambda: "fc-" + rs(HEX, 32), "Firecrawl"),
    ("E2B key", lambda: "e2b_" + rs(HEX, 40), "E2B"),
    ("LangSmith key", lambda: "lsv2_pt_" + rs(HEX, 32) + "_" + rs(HEX, 10), "LangSmith"),
    ("LangSmith service key", lambda: "lsv2_sk_" + rs(HEX, 32) + "_" + rs(HEX, 10), "LangSmith"),
    ("Pinecone key", lambda: "pcsk_" + rs(AN, 5) + "_" + rs(AN, 60), "Pinecone"),
    ("Voyage key", lambda: "pa-" + rs(URLSAFE, 43), "Voyage AI"),
    ("Fireworks key", lambda: "fw_" + rs(AN, 24), "Fireworks"),
    ("Doppler service token", lambda: "dp.st." + rs(AN, 43), "Doppler"),
    ("Doppler personal token", lambda: "dp.pt." + rs(AN, 43), "Doppler"),
    ("Pulumi token", lambda: "pul-" + rs(HEX, 40), "Pulumi"),
    ("Terraform Cloud token", lambda: rs(AN, 14) + ".atlasv1." + rs(AN, 67), "Terraform Cloud"),
    ("Vault token", lambda: "hvs." + rs(AN, 90), "Vault"),
    ("DigitalOcean PAT", lambda: "dop_v1_" + rs(HEX, 64), "DigitalOcean"),
    ("DigitalOcean OAuth", lambda: "doo_v1_" + rs(HEX, 64), "DigitalOcean"),
    ("Linear key", lambda: "lin_api_" + rs(AN, 40), "Linear"),
    ("Notion token", lambda: "ntn_" + rs(DI, 11) + rs(AN, 35), "Notion"),
    ("Notion legacy secret", lambda: "secret_" + rs(AN, 43), "Notion"),
    ("Figma token", lambda: "figd_" + rs(URLSAFE, 40), "Figma"),
    ("Atlassian API token", lambda: "ATATT3xFfGF0" + rs(URLSAFE, 170) + "=" + rs(HEX.upper(), 8), "Jira"),
    ("Sentry org token", lambda: "sntrys_" + base64.b64encode(json.dumps({"iat": R.randint(1.6e9, 1.8e9), "url": "https://sentry.io", "org": "acme"}).encode()).decode().rstrip("=") + "_" + rs(AN, 43), "Sentry"),
    ("Sentry user token", lambda: "sntryu_" + rs(HEX, 64), "Sentry"),
    ("Grafana service account", lambda: "glsa_" + rs(AN, 32) + "_" + rs(HEX, 8), "Grafana"),
    ("New Relic user key", lambda: "NRAK-" + rs(UP + DI, 27), "New Relic"),
    ("Dynatrace token", lambda: "dt0c01." + rs(UP + DI, 24) + "." + rs(UP + DI, 64), "Dynatrace"),
    ("Databricks token", lambda: "dapi" + rs(HEX, 32), "Databricks"),
    ("Postman key", lambda: "PMAK-" + rs(HEX, 24) + "-" + rs(HEX, 34), "Postman"),
    ("Telegram bot token", lambda: f"{R.randint(10**8, 10**10 - 1)}:AA{rs(URLSAFE, 33)}", "Telegram"),
    ("Fly.io token", lambda: "fo1_" + rs(URLSAFE, 43), "Fly.io"),
    ("Supabase token", lambda: "sbp_" + rs(HEX, 40), "Supabase"),
    ("Age secret key", lambda: "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58), "age"),
    ("Square access token", lambda: "EAAA" + rs(URLSAFE, 60), "Square"),
    ("Square OAuth secret", lambda: "sq0csp-" + rs(URLSAFE, 43), "Square"),
    ("Braintree token", lambda: f"access_token$production${rs(LO + DI, 16)}${rs(HEX, 32)}", "Braintree"),
    ("Contentful token", lambda: "CFPAT-" + rs(URLSAFE, 43), "Contentful"),
    ("Shippo token", lambda: "shippo_live_" + rs(HEX, 40), "Shippo"),
    ("EasyPost key", lambda: "EZAK" + rs(HEX, 54), "EasyPost"),
    ("Alibaba access key", lambda: "LTAI" + rs(AN, 20), "Alibaba Cloud"),
    ("Bitbucket app password", lambda: "ATBB" + rs(AN, 32), "Bitbucket"),
    ("1Password service account", lambda: "ops_eyJ" + rs(URLSAFE, 250), "1Password"),
    ("Tailscale auth key", lambda: f"tskey-auth-k{rs(AN, 16)}-{rs(AN, 32)}", "Tailscale"),
    ("Tailscale API key", lambda: f"tskey-api-k{rs(AN, 16)}-{rs(AN, 32)}", "Tailscale"),
    ("PlanetScale token", lambda: "pscale_tkn_" + rs(URLSAFE, 43), "PlanetScale"),
    ("PlanetScale password", lambda: "pscale_pw_" + rs(URLSAFE, 43), "PlanetScale"),
    ("Render key", lambda: "rnd_" + rs(AN, 32), "Render"),
    ("Resend key", lambda: "re_" + rs(AN, 8) + "_" + rs(AN, 24), "Resend"),
    ("Prefect key", lambda: "pnu_" + rs(AN, 36), "Prefect"),
    ("Infracost key", lambda: "ico-" + rs(AN, 32), "Infracost"),
    ("Scalingo token", lambda: "tk-us-" + rs(URLSAFE, 48), "Scalingo"),
    ("Mapbox secret token", lambda: "sk.eyJ1Ijoi" + rs(URLSAFE, 60) + "." + rs(URLSAFE, 22), "Mapbox"),
    ("Azure client secret", lambda: rs(AN, 3) + "8Q~" + rs(AN + "~._-", 34), "Azure AD"),
    ("AWS access key id", lambda: "AKIA" + rs(UP + "234567", 16), "AWS"),
    ("Yandex OAuth token", lambda: "y0_" + rs(URLSAFE, 55), "Yandex"),
    ("Frame.io token", lambda: "fio-u-" + rs(URLSAFE, 64), "Frame.io"),
    ("Heroku key", lambda: "HRKU-AA" + rs(URLSAFE, 58), "Heroku"),
]

# tokens with no prefix: only secret with a name next to them
UNPREFIXED = [
    ("Cloudflare API token", lambda: rs(URLSAFE, 40), "Cloudflare"),
    ("Datadog API key", lambda: rs(HEX, 32), "Datadog"),
    ("Datadog application key", lambda: rs(HEX, 40), "Datadog"),
    ("Mistral key", lambda: rs(AN, 32), "Mistral"),
    ("Cohere key", lambda: rs(AN, 40), "Cohere"),
    ("Deepgram key", lambda: rs(HEX, 40), "Deepgram"),
    ("AssemblyAI key", lambda: rs(HEX, 32), "AssemblyAI"),
    ("Twilio auth token", lambda: rs(HEX, 32), "Twilio"),
    ("Algolia admin key", lambda: rs(HEX, 32), "Algolia"),
    ("Snyk token", uuid4, "Snyk"),
    ("Heroku legacy key", uuid4, "Heroku"),
    ("Exa key", uuid4, "Exa"),
    ("Zendesk token", lambda: rs(AN, 40), "Zendesk"),
    ("Okta API token", lambda: "00" + rs(URLSAFE, 40), "Okta"),
    ("ElevenLabs key", lambda: "sk_" + rs(HEX, 48), "ElevenLabs"),
]

NAMESPACES = [
    lambda: ["memories", "user-" + rs(DI, 5)],
    lambda: ["agents", "helper", rs(LO, 6)],
    lambda: ["profile", uuid4()],
    lambda: ["kb", "ops", "team-" + rs(LO, 4)],
    lambda: ["chat", rs(LO, 5) + rs(DI, 2), "facts"],
]
KEYS = [
    lambda: "m-" + rs(DI, 6),
    lambda: "fact/" + rs(HEX, 8),
    lambda: "note" + str(R.randint(1, 999)),
    lambda: uuid4(),
    lambda: "pref." + rs(LO, 5),
]
FIELDS = ["text", "content", "memory", "value", "body", "summary"]

PEOPLE = ["Ana", "Tomasz", "Priya", "Kenji", "Lucía", "Omar", "Greta", "Dmitri", "Aisha", "Hugo", "Mei", "Sven"]
PROJECTS = ["billing-api", "atlas", "home-lab", "the clinic app", "orchid", "staging", "nightly-etl", "kiosk"]

VENDOR_SENTENCES = [
    "Here's the {v} key I use for {p}: {t}",
    "Please keep this for later, {v} token {t}",
    "{n} gave me our {v} credential {t} — don't lose it",
    "For {p} we authenticate to {v} with {t}",
    "Save my {v} access token, it's {t}",
    "new {v} key after rotation -> {t}",
    "Remember: {v} = {t}",
    "I rotated the {v} secret; the current one is {t}.",
    "Guarda mi token de {v}: {t}",
    "Mon jeton {v} pour {p} est {t}",
    "Mein {v}-Schlüssel lautet {t}",
    "Il token di {v} è {t}",
    "Meu token do {v}: {t}",
    "{v} のトークンは {t} です",
    "{v} 密钥：{t}",
    "Mijn {v} sleutel is {t}",
]
CONFIG_LINES = [
    "{e}={t}",
    "export {e}=\"{t}\"",
    "{e}: {t}",
    "set -x {e} {t}",
    "$env:{e} = '{t}'",
    "{ek} = \"{t}\"",
    "  - name: {e}\n    value: {t}",
    "docker run -e {e}={t} {p}",
]
BARE = [
    "{t}",
    "stash this: {t}",
    "the one that worked was {t}",
    "copy of what I pasted earlier {t}",
    "keep {t} handy for tomorrow",
]


def env_name(v: str) -> str:
    base = "".join(c if c.isalnum() else "_" for c in v.upper()).strip("_")
    return base + R.choice(["_API_KEY", "_TOKEN", "_SECRET", "_KEY", "_ACCESS_TOKEN"])


records: list[dict] = []


def add(label: str, kind: str, variant: str, value, namespace=None, key=None) -> None:
    records.append(
        {
            "id": f"h3-{len(records):04d}",
            "label": label,
            "kind": kind,
            "variant": variant,
            "namespace": namespace if namespace is not None else R.choice(NAMESPACES)(),
            "key": key if key is not None else R.choice(KEYS)(),
            "value": value,
        }
    )


def wrap(text: str) -> dict:
    return {R.choice(FIELDS): text}


# -- secrets: provider tokens ----------------------------------------------------------

for kind, gen, vendor in TOKENS:
    for style in R.sample(["sentence", "config", "bare", "sentence"], 2):
        t = gen()
        if style == "sentence":
            text = R.choice(VENDOR_SENTENCES).format(v=vendor, t=t, p=R.choice(PROJECTS), n=R.choice(PEOPLE))
        elif style == "config":
            e = env_name(vendor)
            text = R.choice(CONFIG_LINES).format(e=e, ek=e.lower(), t=t, p=R.choice(PROJECTS))
        else:
            text = R.choice(BARE).format(t=t)
        add("secret", kind, "plain", wrap(text))

for kind, gen, vendor in UNPREFIXED:
    for _ in range(2):
        t = gen()
        text = R.choice(
            [
                "{v} API key: {t}",
                "{e}={t}",
                "our {v} token is {t}",
                "the {v} secret for {p} -> {t}",
                "{{\"{ek}\": \"{t}\"}}",
            ]
        )
        e = env_name(vendor)
        add("secret", kind, "plain", wrap(text.format(v=vendor, t=t, p=R.choice(PROJECTS), e=e, ek=e.lower())))

# -- secrets: AWS, Azure, private keys, connection strings ----------------------------------

for _ in range(4):
    kid, sk = "AKIA" + rs(UP + "234567", 16), rs(B64, 40)
    add("secret", "AWS key pair", "plain", wrap(R.choice([
        f"aws_access_key_id = {kid}\naws_secret_access_key = {sk}",
        f"AWS creds for {R.choice(PROJECTS)}: {kid} / {sk}",
        f"[default]\naws_access_key_id={kid}\naws_secret_access_key={sk}\nregion=eu-west-1",
    ])))
for _ in range(3):
    add("secret", "AWS secret key", "plain", wrap(f"AWS_SECRET_ACCESS_KEY={rs(B64, 40)}"))
for _ in range(2):
    add("secret", "AWS session token", "plain", wrap(f"aws_session_token = IQoJb3JpZ2luX2VjE{rs(B64, 300)}"))
for _ in range(3):
    add("secret", "Azure storage connection string", "plain", wrap(
        f"DefaultEndpointsProtocol=https;AccountName={rs(LO, 10)};AccountKey={rs(B64, 86)}==;EndpointSuffix=core.windows.net"))


def pem(label: str, n: int) -> str:
    body = rs(B64, n)
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----"


for label in ["RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "PGP PRIVATE KEY BLOCK", "DSA PRIVATE KEY"]:
    key_text = pem(label, R.choice([400, 900, 1600]))
    add("secret", "private key", "plain", wrap(R.choice([key_text, f"deploy key for {R.choice(PROJECTS)}:\n{key_text}"])))
add("secret", "PuTTY key", "plain", wrap(
    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: laptop\nPublic-Lines: 2\n"
    + rs(B64, 64) + "\n" + rs(B64, 20) + "\nPrivate-Lines: 1\n" + rs(B64, 44) + "\nPrivate-MAC: " + rs(HEX, 64)))
add("secret", "GCP service account", "plain", {
    "type": "service_account", "project_id": "acme-" + rs(LO, 5), "private_key_id": rs(HEX, 40),
    "private_key": pem("PRIVATE KEY", 1200).replace("\n", "\\n"),
    "client_email": f"bot@acme-{rs(LO, 5)}.iam.gserviceaccount.com"})

SCHEMES = [
    ("postgresql", 5432), ("mysql", 3306), ("mongodb+srv", None), ("redis", 6379), ("amqp", 5672),
    ("mssql", 1433), ("rediss", 6380), ("clickhouse", 8443),
]
for scheme, port in SCHEMES:
    for _ in range(2):
        user, pw = R.choice(["app", "admin", "svc_etl", "root", "reporter"]), rs(AN + "!#%*", R.randint(12, 24))
        host = R.choice(["db.internal", "10.2.3.4", "cluster0.ab1cd.mongodb.net", "cache.prod.local"])
        url = f"{scheme}://{user}:{pw}@{host}" + (f":{port}" if port else "") + "/" + R.choice(["main", "app", "0", "analytics"])
        add("secret", "connection string", "plain", wrap(R.choice([url, f"DATABASE_URL={url}", f"the {scheme} url is {url}"])))
for _ in range(3):
    add("secret", "connection string", "plain", wrap(
        f"Server=tcp:{rs(LO, 8)}.database.windows.net,1433;Database=app;User ID=admin;Password={rs(AN, 16)};Encrypt=true"))
for _ in range(2):
    add("secret", "connection string", "plain", wrap(f"jdbc:postgresql://db:5432/app?user=svc&password={rs(AN, 14)}"))

for _ in range(4):
    add("secret", "auth header", "plain", wrap(R.choice([
        f"Authorization: Bearer {rs(URLSAFE, 48)}",
        f"curl -H 'Authorization: Basic {base64.b64encode(f'svc:{rs(AN, 14)}'.encode()).decode()}' https://api.example.org",
        f"X-Api-Key: {rs(HEX, 40)}",
        f"Cookie: sessionid={rs(LO + DI, 32)}; csrftoken={rs(AN, 32)}",
    ])))
for _ in range(3):
    jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + base64.urlsafe_b64encode(json.dumps({"sub": rs(DI, 8), "exp": 1893456000}).encode()).decode().rstrip("=") + "." + rs(URLSAFE, 43)
    add("secret", "JWT", "plain", wrap(R.choice([f"my session token: {jwt}", f"refresh_token={jwt}"])))
for _ in range(3):
    add("secret", "webhook URL", "plain", wrap(R.choice([
        f"https://hooks.slack.com/services/T{rs(UP + DI, 10)}/B{rs(UP + DI, 10)}/{rs(AN, 24)}",
        f"https://discord.com/api/webhooks/{rs(DI, 19)}/{rs(URLSAFE, 68)}",
        f"https://{rs(LO, 6)}.webhook.office.com/webhookb2/{uuid4()}@{uuid4()}/IncomingWebhook/{rs(HEX, 32)}/{uuid4()}",
    ])))
for _ in range(2):
    add("secret", "signed URL", "plain", wrap(
        f"https://{rs(LO, 8)}.blob.core.windows.net/exports/report.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2027-01-01T00:00:00Z&sig={rs(B64, 43)}%3D"))
for _ in range(2):
    add("secret", "git remote with token", "plain", wrap(f"git clone https://oauth2:{rs(URLSAFE, 20)}@gitlab.com/acme/{R.choice(PROJECTS).replace(' ', '-')}.git"))

# -- secrets: passwords, PINs and codes ---------------------------------------------------

PASSWORDS = lambda: R.choice([  # noqa: E731
    rs(AN, 10) + R.choice("!@#$%&*?") + rs(DI, 2),
    R.choice(["Sunflower", "Blue", "Kettle", "Marmalade", "Oslo", "Tiger"]) + R.choice(["!", "#", "_", "."]) + rs(DI, 4),
    rs(LO, 4) + "-" + rs(LO, 5) + "-" + rs(LO, 4) + rs(DI, 1),
    rs(AN + "!@#", 16),
])
PW_PROSE = [
    "my password for the {s} is {p}",
    "{s} login: {u} / {p}",
    "{s} password → {p}",
    "The wifi password at home is {p}",
    "pw for {s}: {p}",
    "I set the {s} account password to {p}",
    "{p} is the password for my {s}",
    "Use {u} and password {p} for the {s}",
    "contraseña del {s}: {p}",
    "mot de passe {s} : {p}",
    "Passwort für {s} ist {p}",
    "a senha do {s} é {p}",
    "hasło do {s}: {p}",
    "wachtwoord voor {s} is {p}",
    "lösenordet till {s} är {p}",
    "{s} のパスワードは {p}",
    "пароль от {s}: {p}",
]
SERVICES = ["patient portal", "bank app", "router admin", "pharmacy site", "insurance portal", "NAS", "school app", "work VPN", "gym account", "tax office site"]
for _ in range(34):
    add("secret", "password in prose", R.choice(["plain", "plain", "hard"]), wrap(R.choice(PW_PROSE).format(
        s=R.choice(SERVICES), u=R.choice(["mjones", "ana.k", "kenji88", "dr_omar", "greta"]), p=PASSWORDS())))
PW_CONFIG = [
    "password = {p}",
    "DB_PASSWORD={p}",
    "spring.datasource.password={p}",
    "requirepass {p}",
    "machine api.example.org login deploy password {p}",
    "db.example.org:5432:app:svc:{p}",
    "WIFI:T:WPA;S:HomeNet;P:{p};;",
    "mysql -u root -p'{p}' app",
    "sshpass -p '{p}' ssh admin@10.0.0.7",
    "PGPASSWORD={p} psql -h db -U app",
    "curl -u admin:{p} https://nas.local/api",
    "<add key=\"SmtpPassword\" value=\"{p}\" />",
    "MYSQL_ROOT_PASSWORD: {p}",
    "[client]\nuser=backup\npassword={p}",
    "psk=\"{p}\"",
]
for _ in range(26):
    add("secret", "password in config", R.choice(["plain", "hard"]), wrap(R.choice(PW_CONFIG).format(p=PASSWORDS())))
PW_FIELDS = ["password", "passwd", "pwd", "pass", "passcode", "secret", "contraseña", "mot_de_passe", "Passwort", "senha", "wachtwoord", "login_password"]
for _ in range(20):
    f = R.choice(PW_FIELDS)
    add("secret", "password in a record", R.choice(["plain", "hard"]), R.choice([
        {"site": R.choice(SERVICES), "user": R.choice(["mjones", "ana.k"]), f: PASSWORDS()},
        {"account": {"login": "kenji88", f: PASSWORDS()}},
        {"credentials": [{"service": R.choice(SERVICES), f: PASSWORDS()}]},
    ]))
PINS = [
    "my debit card PIN is {d4}",
    "bank pin {d4}",
    "phone unlock code: {d6}",
    "the garage door code is {d4}",
    "alarm code {d4}#",
    "gate code for the building is *{d4}",
    "safe combination {c}",
    "SIM PIN {d4}, PUK {d8}",
    "the locker combo is {c}",
    "PIN für die Karte: {d4}",
    "el PIN de mi tarjeta es {d4}",
    "code de la porte d'entrée : {d4}B",
    "my voicemail passcode is {d6}",
]
for _ in range(22):
    add("secret", "PIN or code", R.choice(["plain", "hard"]), wrap(R.choice(PINS).format(
        d4=rs(DI, 4), d6=rs(DI, 6), d8=rs(DI, 8), c=f"{R.randint(1, 59)}-{R.randint(1, 59)}-{R.randint(1, 59)}")))
for _ in range(8):
    add("secret", "PIN in a record", "hard", R.choice([
        {"card": "debit", "pin": rs(DI, 4)},
        {"door_code": rs(DI, 5)},
        {"alarm": {"code": rs(DI, 4)}},
        {"atm_pin": rs(DI, 4)},
    ]))

# -- secrets: cards, SSNs, crypto ----------------------------------------------------------

BRANDS = [("4", 16), ("51", 16), ("55", 16), ("2221", 16), ("34", 15), ("37", 15), ("6011", 16), ("3528", 16), ("36", 14)]


def grouped(num: str) -> str:
    if len(num) == 15:
        return f"{num[:4]} {num[4:10]} {num[10:]}"
    return " ".join(num[i:i + 4] for i in range(0, len(num), 4))


for _ in range(22):
    prefix, length = R.choice(BRANDS)
    num = luhn(prefix, length)
    exp = f"{R.randint(1, 12):02d}/{R.randint(27, 31)}"
    add("secret", "payment card", R.choice(["plain", "hard"]), R.choice([
        wrap(f"card {grouped(num)} exp {exp} cvv {rs(DI, 3)}"),
        wrap(f"my visa is {num}"),
        wrap(f"pay with {num.replace('', '-').strip('-') if R.random() < 0.2 else grouped(num).replace(' ', '-')}"),
        {"card_number": num, "expiry": exp, "cvc": rs(DI, 3)},
        wrap(f"Kartennummer {grouped(num)}, gültig bis {exp}"),
        wrap(f"número de tarjeta {num}"),
    ]))
for _ in range(10):
    ssn = f"{R.randint(100, 665):03d}-{R.randint(10, 99):02d}-{R.randint(1000, 9999):04d}"
    add("secret", "US SSN", R.choice(["plain", "hard"]), R.choice([
        wrap(f"my social security number is {ssn}"),
        wrap(f"SSN: {ssn.replace('-', '')}"),
        {"name": R.choice(PEOPLE), "ssn": ssn},
        wrap(f"ss# {ssn.replace('-', ' ')}"),
    ]))
for _ in range(4):
    add("secret", "Ethereum private key", "plain", wrap(R.choice([
        f"eth private key 0x{rs(HEX, 64)}", f"wallet key: {rs(HEX, 64)}", f"PRIVATE_KEY=0x{rs(HEX, 64)}"])))
WORDS = ("abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid "
         "acoustic acquire across act action actor actress actual adapt add addict address adjust admit adult advance "
         "advice aerobic affair afford afraid again age agent agree ahead aim air airport aisle alarm album alcohol alert "
         "alien all alley allow almost alone alpha already also alter always amateur amazing among amount amused analyst "
         "anchor ancient anger angle angry animal ankle announce annual another answer antenna antique anxiety any apart "
         "apology appear apple approve april arch arctic area arena argue arm armed armor army around arrange arrest").split()
for n in (12, 24, 12, 18):
    phrase = " ".join(R.choice(WORDS) for _ in range(n))
    add("secret", "recovery phrase", "plain", wrap(R.choice([f"seed phrase: {phrase}", f"my wallet recovery words are {phrase}", phrase])))
add("secret", "Bitcoin extended key", "plain", wrap("xprv9s21ZrQH143K" + rs("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 95)))
add("secret", "Bitcoin WIF", "plain", wrap("my btc private key (WIF) " + R.choice("KL") + rs("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 51)))
add("secret", "Solana keypair", "plain", wrap("id.json: [" + ",".join(str(R.randint(0, 255)) for _ in range(64)) + "]"))
for _ in range(3):
    add("secret", "TOTP seed", "plain", wrap(R.choice([
        f"otpauth://totp/Acme:ana?secret={rs('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 32)}&issuer=Acme",
        f"2FA setup key: {' '.join(rs('abcdefghijklmnopqrstuvwxyz234567', 4) for _ in range(8))}",
    ])))
add("secret", "backup codes", "plain", wrap("github recovery codes: " + " ".join(f"{rs(HEX, 5)}-{rs(HEX, 5)}" for _ in range(8))))
for _ in range(2):
    add("secret", "kubernetes secret", "plain", wrap(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: "
        + base64.b64encode(PASSWORDS().encode()).decode()))

# -- secrets: evasions ----------------------------------------------------------------------

HOMO = {"A": "\u0410", "K": "\u039a", "I": "\u0406", "p": "\u0440", "o": "\u043e", "e": "\u0435", "a": "\u0430"}


def evade(token: str) -> tuple[str, object]:
    how = R.choice(["spaced", "dashed", "b64", "hex", "reversed", "urlenc", "split_fields", "split_list",
                    "homoglyph", "zwsp", "fullwidth", "wrapped", "concat", "key", "namespace", "fence", "json_str"])
    if how == "spaced":
        return how, wrap("token: " + " ".join(token))
    if how == "dashed":
        return how, wrap("key " + "-".join(token[i:i + 4] for i in range(0, len(token), 4)))
    if how == "b64":
        return how, wrap("encoded for safety: " + base64.b64encode(token.encode()).decode())
    if how == "hex":
        return how, wrap("hex of my key " + token.encode().hex())
    if how == "reversed":
        return how, wrap("backwards so bots miss it: " + token[::-1])
    if how == "urlenc":
        return how, wrap("https://example.org/cb?token=" + "".join(f"%{ord(c):02X}" if R.random() < 0.3 else c for c in token))
    if how == "split_fields":
        k = len(token) // 2
        return how, {"part1": token[:k], "part2": token[k:]}
    if how == "split_list":
        k = len(token) // 3
        return how, {"pieces": [token[:k], token[k:2 * k], token[2 * k:]]}
    if how == "homoglyph":
        return how, wrap("key " + "".join(HOMO.get(c, c) if R.random() < 0.5 else c for c in token))
    if how == "zwsp":
        return how, wrap("token " + "\u200b".join(token[i:i + 5] for i in range(0, len(token), 5)))
    if how == "fullwidth":
        return how, wrap("key: " + "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in token))
    if how == "wrapped":
        return how, wrap("here:\n" + "\n".join(token[i:i + 16] for i in range(0, len(token), 16)))
    if how == "concat":
        k = len(token) // 2
        return how, wrap(f'api_key = "{token[:k]}" + "{token[k:]}"')
    if how == "fence":
        return how, wrap(f"```\n{token}\n```")
    if how == "json_str":
        return how, wrap(json.dumps({"credentials": {"token": token}}))
    return how, None


EVADED = [t for t in TOKENS if t[0] not in ("Mailchimp key", "Twilio API key SID", "Azure client secret")]
for _ in range(44):
    kind, gen, vendor = R.choice(EVADED)
    token = gen()
    how, value = evade(token)
    if how == "key":
        add("secret", f"{kind} ({how})", "hard", wrap("see key"), key=token)
    elif how == "namespace":
        add("secret", f"{kind} ({how})", "hard", wrap("credential stored in namespace"), namespace=["memories", token])
    else:
        add("secret", f"{kind} ({how})", "hard", value)
for _ in range(4):
    num = luhn("4", 16)
    add("secret", "payment card (split)", "hard", R.choice([
        {"card_a": num[:8], "card_b": num[8:]},
        wrap("card " + ".".join(num[i:i + 4] for i in range(0, 16, 4))),
        wrap("card " + " ".join(num)),
    ]))
for _ in range(3):
    add("secret", "password (encoded)", "hard", wrap(
        "password (base64): " + base64.b64encode(("password=" + PASSWORDS()).encode()).decode()))

# -- benign -------------------------------------------------------------------------------

BENIGN_PLAIN = [
    "Prefers morning appointments, ideally before 10am",
    "Allergic to penicillin; tolerates azithromycin",
    "Daughter {n} starts school on {d}",
    "Takes metformin 500 mg twice a day with meals",
    "Blood pressure last visit was {bp}",
    "HbA1c came back at {a1c}% in {m}",
    "Wants reminders about physiotherapy exercises every other day",
    "Lives in {c}, moved there in {y}",
    "Vegetarian, but eats fish occasionally",
    "Training for a half marathon in {m}",
    "Works night shifts at the hospital on weekends",
    "Favourite author is Ursula K. Le Guin",
    "Is learning Portuguese, about {k} words so far",
    "Has a follow-up with the cardiologist on {d}",
    "Their dog {n} needs a rabies booster in {m}",
    "Prefers answers in bullet points, short",
    "Uses a standing desk and gets back pain after 3pm",
    "Sleeps about {h} hours a night on average",
    "Dislikes phone calls, prefers email",
    "Budget for the kitchen renovation is {pr} EUR",
    "Flight LH{fl} to {c} on {d}, seat {seat}",
    "Booking reference for the hotel: {ref}",
    "Order #{ord} from the pharmacy arrives Thursday",
    "UPS tracking 1Z{ups}",
    "Meeting with {n} moved to {t}",
    "Reading 'The Body Keeps the Score', chapter {k2}",
    "Son's shoe size is {ss} EU",
    "Cholesterol LDL {ldl} mg/dL, doctor wants it under 100",
    "Has two cats and a very old parrot",
    "Asked to stop suggesting recipes with cilantro",
    "Deadline for the grant application is {d}",
    "Therapy sessions are on Tuesdays at {t}",
    "Is on a waiting list for knee surgery",
    "Prefers metric units",
    "Mother's birthday is {d}",
    "Mi médico de cabecera es la Dra. {n}",
    "Aime la randonnée en montagne, surtout en {m}",
    "Trinkt keinen Kaffee mehr seit {y}",
    "Gosta de jazz e de café sem açúcar",
    "Ha una visita dal dentista il {d}",
    "Woont in {c} met twee kinderen",
    "毎朝ジョギングをしている",
    "对花生过敏",
    "Lubi chodzić po górach w weekendy",
]
GREEK_FILL = {
    "n": lambda: R.choice(PEOPLE), "d": lambda: f"{R.randint(1, 28)} {R.choice(['March', 'April', 'May', 'June', 'September'])}",
    "bp": lambda: f"{R.randint(110, 145)}/{R.randint(70, 95)}", "a1c": lambda: f"{R.randint(50, 80) / 10:.1f}",
    "m": lambda: R.choice(["October", "spring", "June", "winter", "August"]), "c": lambda: R.choice(["Porto", "Kraków", "Lyon", "Osaka", "Leeds", "Graz"]),
    "y": lambda: str(R.randint(2008, 2025)), "k": lambda: str(R.randint(200, 1500)), "h": lambda: str(R.randint(5, 9)),
    "pr": lambda: f"{R.randint(8, 40)},000", "fl": lambda: str(R.randint(100, 2999)), "seat": lambda: f"{R.randint(1, 40)}{R.choice('ACDF')}",
    "ref": lambda: rs(UP + DI, 6), "ord": lambda: rs(DI, 9), "ups": lambda: rs(UP + DI, 16), "t": lambda: f"{R.randint(8, 18)}:{R.choice(['00', '15', '30', '45'])}",
    "k2": lambda: str(R.randint(2, 20)), "ss": lambda: str(R.randint(28, 44)), "ldl": lambda: str(R.randint(90, 190)),
}


def fill(t: str) -> str:
    return t.format(**{k: f() for k, f in GREEK_FILL.items()})


for _ in range(140):
    add("benign", "ordinary memory", "plain", wrap(fill(R.choice(BENIGN_PLAIN))))

LOOKALIKES = [
    ("commit hash", lambda: f"the fix landed in commit {rs(HEX, 40)}"),
    ("short sha", lambda: f"revert {rs(HEX, 7)} if the build breaks again"),
    ("request id", lambda: f"support ticket request id {uuid4()}"),
    ("file checksum", lambda: f"sha256 of the installer: {rs(HEX, 64)}"),
    ("docker digest", lambda: f"pin the image to python@sha256:{rs(HEX, 64)}"),
    ("git branch", lambda: f"working on branch feature/{rs(LO, 6)}-{rs(DI, 3)}"),
    ("pod name", lambda: f"the crashing pod is api-{rs(HEX, 10)}-{rs(LO + DI, 5)}"),
    ("version", lambda: f"upgrade langgraph to {R.randint(0, 1)}.{R.randint(0, 9)}.{R.randint(0, 30)}"),
    ("public ssh key", lambda: f"my public key is ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{rs(B64, 43)} ana@laptop"),
    ("ethereum address", lambda: f"send the refund to 0x{rs(HEX, 40)}"),
    ("bitcoin address", lambda: "donations: bc1q" + rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38)),
    ("IPv4", lambda: f"the printer is at 192.168.{R.randint(0, 9)}.{R.randint(2, 250)}"),
    ("MAC address", lambda: "laptop MAC " + ":".join(rs(HEX, 2) for _ in range(6))),
    ("ISBN", lambda: f"ISBN 978-{R.randint(0, 9)}-{rs(DI, 3)}-{rs(DI, 5)}-{R.randint(0, 9)}"),
    ("phone number", lambda: f"the clinic's number is +44 20 {rs(DI, 4)} {rs(DI, 4)}"),
    ("email", lambda: f"email my physio at {R.choice(PEOPLE).lower()}.{rs(LO, 5)}@clinic.example"),
    ("address", lambda: f"new address: {R.randint(1, 200)} Rua das Flores, {rs(DI, 4)}-{rs(DI, 3)} Porto"),
    ("placeholder token", lambda: R.choice(["set OPENAI_API_KEY=<your key here>", "token: ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
                                            "api_key = \"${STRIPE_SECRET_KEY}\"", "password: ********", "DB_PASSWORD=${DB_PASSWORD:?must be set} (from the template)",
                                            "sk-... goes in the .env file, never in git", "AKIAXXXXXXXXXXXXXXXX is the example id in the AWS docs"])),
    ("talk about secrets", lambda: R.choice(["I changed my bank password yesterday", "remind me to rotate the Stripe keys on Friday",
                                             "my PIN expired, need to visit the branch", "the wifi password is on the fridge",
                                             "never share your recovery phrase with anyone", "the Datadog key lives in Vault now",
                                             "ask Greta for the door code when you arrive", "2FA is enabled on every account",
                                             "The GitHub token expired, generate a new one in settings",
                                             "My card was declined, maybe the CVV was wrong"])),
    ("medical numbers", lambda: f"glucose {R.randint(80, 200)} mg/dL fasting, INR {R.randint(10, 35) / 10}"),
    ("dosage schedule", lambda: f"levothyroxine {R.choice([25, 50, 75, 100])} mcg at 06:30, wait 30 min before breakfast"),
    ("invoice", lambda: f"invoice INV-{R.randint(2024, 2026)}-{rs(DI, 5)} for {R.randint(40, 900)}.00 EUR"),
    ("product code", lambda: f"the filter model is {rs(UP, 3)}-{rs(DI, 4)}-{rs(UP, 2)}"),
    ("coordinates", lambda: f"meet at {R.uniform(-60, 60):.5f}, {R.uniform(-120, 120):.5f}"),
    ("hex colour", lambda: f"brand colours #{rs(HEX, 6)} and #{rs(HEX, 6)}"),
    ("base64 image stub", lambda: f"avatar thumbnail data:image/png;base64,{rs(B64, 60)}"),
    ("public key pem", lambda: pem("PUBLIC KEY", 300)),
    ("uuid", lambda: f"the calendar event id is {uuid4()}"),
    ("env var names", lambda: "export AWS_PROFILE=dev and AWS_REGION=eu-central-1"),
    ("card last four", lambda: f"paid with the card ending in {rs(DI, 4)}"),
    ("short code word", lambda: f"the verification step said to enter the code from the SMS, which I did at {R.randint(8, 20)}:{rs(DI, 2)}"),
    ("year and numbers", lambda: f"born {R.randint(1950, 2005)}, height {R.randint(150, 195)} cm, weight {R.randint(50, 110)} kg"),
    ("passport talk", lambda: "passport renewal appointment is next month, bring two photos"),
    ("config without secrets", lambda: "timeout = 30\nretries = 5\nlog_level = \"info\"\nregion = \"eu-west-1\""),
    ("url", lambda: f"the docs are at https://docs.example.org/v{R.randint(1, 4)}/guide?page={R.randint(1, 40)}"),
    ("lab reference", lambda: f"lab sample id LS-{rs(DI, 8)}, results in 3 days"),
    ("sports score", lambda: f"won the match {R.randint(0, 7)}-{R.randint(0, 7)} on Sunday"),
]
for kind, gen in LOOKALIKES:
    for _ in range(4):
        add("benign", kind, "hard", wrap(gen()))
for _ in range(20):
    add("benign", "structured record", R.choice(["plain", "hard"]), R.choice([
        {"name": R.choice(PEOPLE), "relation": R.choice(["sister", "GP", "neighbour", "colleague"]), "phone": f"+351 9{rs(DI, 8)}"},
        {"medication": "atorvastatin", "dose_mg": R.choice([10, 20, 40]), "time": "evening"},
        {"trip": R.choice(["Lisbon", "Kyoto", "Oslo"]), "dates": ["2026-05-02", "2026-05-09"], "booking": rs(UP + DI, 6)},
        {"preference": "tone", "value": R.choice(["formal", "casual", "brief"])},
        {"password_hint": "name of first pet", "updated": "2025-11-02"},
        {"token_budget": R.randint(500, 4000), "model": "small"},
        {"pin_reset_requested": True, "branch": "Main Street"},
    ]))

path = Path(__file__).with_name("heldout3.jsonl")
with path.open("w", encoding="utf-8") as f:
    for r in records:
        f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
secrets = sum(r["label"] == "secret" for r in records)
print(f"{len(records)} records: {secrets} secrets, {len(records) - secrets} benign, "
      f"{len({r['kind'] for r in records if r['label'] == 'secret'})} secret kinds")
