"""Writes tuning.jsonl: the TUNING corpus for structured memories, evasions, labels and vendor
breadth (``secrets.txt`` / ``benign.txt`` hold the project's sentence-level tuning corpus).

Unlike ``tests/data/secrets_heldout`` this corpus may be changed and extended while rules are
tuned. Fake values only, random in their vendors' formats. Same record format as the
held-out corpus: one ``put(namespace, key, value)`` per line.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from pathlib import Path

rng = random.Random(20240611)
AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
URL = AN + "-_"


def r(chars: str, n: int) -> str:
    return "".join(rng.choice(chars) for _ in range(n))


def luhn(prefix: str, length: int) -> str:
    body = prefix + r(string.digits, length - len(prefix) - 1)
    for c in string.digits:
        s = 0
        for i, ch in enumerate(reversed(body + c)):
            d = int(ch) * (2 if i % 2 else 1)
            s += d - 9 if d > 9 else d
        if s % 10 == 0:
            return body + c
    raise AssertionError


recs: list[dict] = []


def add(label: str, kind: str, value, hard: bool = False, ns=None, key=None) -> None:
    n = len(recs)
    if isinstance(value, str):
        value = {"text": value}
    recs.append(
        {
            "id": f"t{label[0]}{n:04d}",
            "label": label,
            "kind": kind,
            "variant": "hard" if hard else "plain",
            "namespace": ns or ["memories", f"tuner-{n % 11}"],
            "key": key or f"k{n:05d}",
            "value": value,
        }
    )


ghp = "ghp_" + r(AN, 36)
sk = "sk_live_" + r(AN, 30)
akia = "AKIA" + "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(16))
xoxb = f"xoxb-{r(string.digits, 11)}-{r(string.digits, 12)}-{r(AN, 24)}"
glpat = "glpat-" + r(URL, 20)
card = luhn("4929", 16)
card2 = luhn("5425", 16)

# --- vendor breadth (one each; the engine's rules should carry these) ---
VENDORS = [
    ("Databricks token", "our databricks workspace PAT: dapi" + r(HEX, 32)),
    ("Databricks token", "DATABRICKS_TOKEN=dapi" + r(HEX, 32) + "-2"),
    (
        "Discord webhook",
        "alerts go to https://discord.com/api/webhooks/" + r(string.digits, 18) + "/" + r(URL, 68),
    ),
    (
        "Discord webhook",
        "hook: https://discordapp.com/api/webhooks/" + r(string.digits, 19) + "/" + r(URL, 68),
    ),
    ("Postman key", "postman key PMAK-" + r(HEX, 24) + "-" + r(HEX, 34)),
    ("Postman key", "PMAK-" + r(HEX, 24) + "-" + r(HEX, 34) + " is the collection runner key"),
    ("Ethereum private key", "wallet private key is 0x" + r(HEX, 64)),
    ("Ethereum private key", "my metamask key " + r(HEX, 64) + " do not lose it"),
    ("Anthropic key", "ANTHROPIC_API_KEY=sk-ant-api03-" + r(URL, 93) + "AA"),
    ("OpenAI key", "key sk-proj-" + r(URL, 74) + "T3BlbkFJ" + r(URL, 74)),
    ("Groq key", "groq: gsk_" + r(AN, 52)),
    ("Hugging Face token", "HF_TOKEN=hf_" + r(string.ascii_letters, 34)),
    ("npm token", "//registry.npmjs.org/:_authToken=npm_" + r(AN, 36)),
    ("SendGrid key", "sendgrid SG." + r(URL, 22) + "." + r(URL, 43)),
    ("Shopify token", "shop token shpat_" + r(HEX, 32)),
    ("DigitalOcean token", "do token dop_v1_" + r(HEX, 64)),
    ("Linear key", "linear lin_api_" + r(AN, 40)),
    ("Doppler token", "DOPPLER_TOKEN=dp.st.prd." + r(AN, 40)),
    ("New Relic key", "newrelic NRAK-" + r(string.ascii_uppercase + string.digits, 27)),
    ("Grafana token", "grafana glsa_" + r(AN, 32) + "_" + r(HEX, 8)),
    ("Atlassian token", "jira token ATATT3xFfGF0" + r(URL, 180) + "=" + r("0123456789ABCDEF", 8)),
    ("Pulumi token", "PULUMI_ACCESS_TOKEN=pul-" + r(HEX, 40)),
    ("Docker Hub token", "docker pat dckr_pat_" + r(URL, 27)),
    ("Figma token", "figma figd_" + r(URL, 40)),
    ("Supabase token", "supabase sbp_" + r(HEX, 40)),
    ("Vault token", "vault login hvs." + r(AN, 24)),
    ("Telegram bot token", "telegram bot " + r("123456789", 1) + r(string.digits, 9) + ":AA" + r(URL, 33)),
    ("Square token", "square EAAA" + r(URL, 60)),
    ("Alibaba key", "aliyun LTAI" + r(AN, 20)),
    ("Azure client secret", "client secret " + r(AN, 3) + "8Q~" + r(AN + "_~.-", 34)),
    ("Age key", "AGE-SECRET-KEY-1" + r("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)),
    ("Heroku key", "heroku HRKU-AA" + r(URL, 58)),
    ("Contentful token", "contentful CFPAT-" + r(URL, 43)),
    ("Dropbox token", "dropbox sl." + r(URL, 140)),
    ("Airtable token", "airtable pat" + r(AN, 14) + "." + r(HEX, 64)),
    ("Mailgun key", "mailgun key-" + r(HEX, 32)),
    ("Twilio API key", "twilio SK" + r(HEX, 32)),
    ("Stripe key", "stripe rk_live_" + r(AN, 24)),
    (
        "Slack user token",
        f"xoxp-{r(string.digits, 11)}-{r(string.digits, 12)}-{r(string.digits, 12)}-{r(HEX, 32)}",
    ),
    ("Google OAuth token", "google token ya29." + r(URL, 120)),
    ("LangSmith key", "LANGSMITH_API_KEY=lsv2_pt_" + r(HEX, 32) + "_" + r(HEX, 10)),
    ("Replicate token", "REPLICATE_API_TOKEN=r8_" + r(AN, 37)),
    ("xAI key", "XAI_API_KEY=xai-" + r(AN, 80)),
    ("Perplexity key", "pplx-" + r(AN, 48)),
    ("Tavily key", "tvly-" + r(AN, 32)),
    ("Pinecone key", "pcsk_" + r(AN, 5) + "_" + r(AN, 63)),
    ("Bitcoin key", "paper wallet"),  # replaced below
]
for kind, text in VENDORS:
    if kind == "Bitcoin key":
        continue
    add("secret", kind, text)

# --- passwords and PINs said differently ---
for text in [
    "login for the insurer's portal: maya_k / Ch3rry!Pie",
    "wifi at the office is CorpGuest#2024",
    "the new password I picked for the bank: Oak-Tree-47",
    "Passwort vom Router: Ha5en!Sprung",
    "my contraseña for the gym app is Pesas2023!",
    "remember: netflix pass = Popcorn*Night9",
    "ssh passphrase is glacier-ember-91",
    "pw: Kestrel!808",
    "password - Wombat$pace1",
    "the alarm disarm code is 7291",
    "gate code 4410#",
    "my card PIN: 0839",
]:
    add("secret", "password or PIN in prose", text)

# --- round 2: config idioms and phrasings the first tuning pass missed ---
for text in [
    '<add key="Password" value="Wint3r!Coat"/>',
    "sshpass -p Wint3r!Coat ssh pi@nas",
    "redis-cli -a Wint3r!Coat ping",
    "I use Wint3r!Coat for the bank",
    "use Wint3r!Coat to log into the router",
    "unlock phrase: Wint3r!Coat",
    "the combination to the bike lock is 4-7-1-9",
    "password for jdoe@clinic.org is Wint3r!Coat",
    "wachtwoord: Wint3r!Coat",
    "p/w Wint3r!Coat",
    "credentials admin:Wint3r!Coat",
]:
    add("secret", "password or PIN in prose", text)
for text in [
    "I use Bitwarden for the bank and everything else",
    "use the blue card for the portal fees",
    "the combination of metformin and diet works",
    "credentials are in 1Password under Home",
    "type your name to log in",
    "password for the portal is in the vault",
]:
    add("benign", "talk about secrets", text)

# --- structured records: field names carry the meaning ---
for value in [
    {"user": "maya", "password": "Ch3rry!Pie"},
    {"debit_pin": "7720"},
    {"account": "gym", "passcode": "551903"},
    {"service": "nas", "creds": {"username": "admin", "pwd": "Nas!2024xx"}},
    {"payment": {"cvc": "918", "brand": "mc"}},
    {"openai_api_key": "sk-" + r(AN, 48)},
    {"client_secret": r(AN + "-_", 40)},
    {
        "recovery_seed": " ".join(
            rng.choice(
                [
                    "orbit",
                    "tiger",
                    "lemon",
                    "cable",
                    "drift",
                    "honey",
                    "mango",
                    "pilot",
                    "quartz",
                    "rally",
                    "solar",
                    "timber",
                ]
            )
            for _ in range(12)
        )
    },
    {"totp_secret": r("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32)},
    {"garage_code": 4412},
    {"admin": {"pass": "R0ot-Access!"}},
    {"secret_answer": "Rosebud Lane"},
]:
    add("secret", "structured", value, hard=True)

# --- evasions ---
add("secret", "spaced", "gh token: " + " ".join(ghp), hard=True)
add("secret", "spaced", "aws " + " ".join(akia[i : i + 4] for i in range(0, 20, 4)), hard=True)
add("secret", "dotted", "stripe " + ".".join(sk[i : i + 3] for i in range(0, len(sk), 3)), hard=True)
add("secret", "base64", "b64 blob " + base64.b64encode(sk.encode()).decode(), hard=True)
add("secret", "base64", base64.b64encode(b"db password: Sunrise!77").decode(), hard=True)
add("secret", "hex", "hex " + glpat.encode().hex(), hard=True)
add("secret", "reversed", "backwards: " + xoxb[::-1], hard=True)
add("secret", "reversed", ghp[::-1], hard=True)
add("secret", "split fields", {"a": sk[:12], "b": sk[12:]}, hard=True)
add("secret", "split list", {"chunks": [ghp[:10], ghp[10:25], ghp[25:]]}, hard=True)
add(
    "secret",
    "card split",
    {"cc1": card[:4], "cc2": card[4:8], "cc3": card[8:12], "cc4": card[12:]},
    hard=True,
)
add("secret", "card dotted", "card " + ".".join(card2[i : i + 4] for i in range(0, 16, 4)), hard=True)
add("secret", "card list", {"card": [card2[:4], card2[4:8], card2[8:12], card2[12:]]}, hard=True)
add("secret", "homoglyph", "key " + akia.replace("A", "\u0410").replace("K", "\u041a"), hard=True)
add("secret", "zero width", "token " + "\u200b".join(glpat), hard=True)
add("secret", "percent", "login?user=maya&password=" + "Ch3rry%21Pie", hard=True)
add("secret", "in key", {"note": "x"}, hard=True, key=ghp)
add("secret", "in key", {"note": "x"}, hard=True, key="pin-7720")
add("secret", "in namespace", {"note": "x"}, hard=True, ns=["memories", "maya", sk])
add("secret", "in namespace", {"note": "x"}, hard=True, ns=["memories", "maya", "password", "Ch3rry!Pie"])

# --- benign look-alikes ---
for text in [
    "commit 9f8e7d6c5b4a39281706f5e4d3c2b1a098765432 fixed the login bug",
    "tx hash 0x" + r(HEX, 64) + " was mined",
    "block 0x" + r(HEX, 64),
    "public address 0x" + r(HEX, 40),
    "upload id " + str(uuid.UUID(int=rng.getrandbits(128), version=4)),
    "order 114-" + r(string.digits, 7) + "-" + r(string.digits, 7) + " delivered",
    "firmware 3.10.2.1178 installed",
    "call the clinic at +1 (617) 555-0144",
    "my IBAN is DE89 3704 0044 0532 0130 00 for the refund",
    "the reference code is GB00 XXXX 1234 5678",
    "tracking 1Z" + r(string.ascii_uppercase + string.digits, 16),
    "Stripe publishable key pk_live_" + r(AN, 24) + " is in the web app",
    "image sha256:" + r(HEX, 64),
    "my password manager says the vault has 214 items",
    "the PIN reminder letter came in the mail",
    "gate code is posted by the concierge each Monday",
    "api keys live in Doppler now, nothing in .env",
    "Bought 4 tickets: rows 12, 13; seats 4 5 6 7",
    "loyalty card 6012 3456 7890",
    "Tel. 0049 30 1234 5678",
    "The recipe needs 1 1/2 cups flour, 2 eggs, 250 ml milk.",
    "she said the secret to good bread is time",
    "the key question is whether to move in June",
    "my token for the laundry machine is in the blue jar",
]:
    add("benign", "look-alike", text)
for value in [
    {"password_reminder": "every 90 days"},
    {"pin_hint": "grandma's birthday"},
    {"tokens_used": 18342},
    {"api_key_owner": "platform team"},
    {"secret_menu_item": "Animal style fries"},
    {"key": "F sharp major"},
    {"session_id": str(uuid.UUID(int=rng.getrandbits(128), version=4))},
    {"password": "<stored in 1Password>"},
    {"pin": None},
    {"door": "side", "note": "use the code from the concierge"},
    {"phone": "+44 20 7946 0011", "email": "lee@example.org"},
    {"date": ["2024", "06", "11"]},
    {"parts": ["A1", "B2", "C3", "D4"]},
    {"hex_color": "#1E90FF"},
    {"postcode": "SW1A 1AA", "house": "10"},
    {"steps": [1, 2, 3, 5, 8, 13, 21]},
    {"otp_enabled": True, "otp_method": "sms"},
    {"auth": "passkey"},
    {"credentials_location": "vault kv/home"},
    {"bank": {"iban": "GB82 WEST 1234 5698 7654 32", "bic": "WESTGB2L"}},
]:
    add("benign", "structured", value, hard=True)
add(
    "benign",
    "key/ns",
    {"text": "likes tea"},
    hard=True,
    key=str(uuid.UUID(int=rng.getrandbits(128), version=4)),
)
add(
    "benign",
    "key/ns",
    {"text": "likes tea"},
    hard=True,
    key=r(HEX, 40),
    ns=["memories", "firebase-" + r(AN, 28)],
)
add("benign", "key/ns", {"text": "morning runs"}, hard=True, ns=["memories", "lee@example.org", "passwords"])
add(
    "benign",
    "key/ns",
    {"text": "diet"},
    hard=True,
    key="pin-board",
    ns=["memories", "user_2" + r(AN, 26), "notes"],
)
add(
    "benign",
    "evasion look-alike",
    base64.b64encode(b"see you at the clinic on Monday at nine").decode(),
    hard=True,
)
add("benign", "evasion look-alike", "e n j o y  t h e  t r i p", hard=True)
add("benign", "evasion look-alike", "Москва, встреча в 18:00", hard=True)

Path(__file__).with_name("tuning.jsonl").write_text(
    "".join(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n" for x in recs), encoding="utf-8"
)
print(
    sum(x["label"] == "secret" for x in recs), "secrets,", sum(x["label"] == "benign" for x in recs), "benign"
)
