#!/usr/bin/env python3
"""Deterministic generator for the heldout23 secret-detector evaluation corpus.

Python 3.11, standard library only.  A single random.Random(SEED) drives every
random choice; nothing iterates over a set; the output path comes from
__file__; the clock is never read.

    python3 make_heldout23.py           # writes heldout23.jsonl, prints sha256
    python3 make_heldout23.py --stats   # prints counts, writes nothing
"""
import argparse
import base64
import binascii
import codecs
import hashlib
import json
import os
import quopri
import re
import string
import sys
import urllib.parse
import random
import zlib

SEED = 23_0923_17
R = random.Random(SEED)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "heldout23.jsonl")

UP = string.ascii_uppercase
LO = string.ascii_lowercase
DG = string.digits
AN = UP + LO + DG
ANL = LO + DG
ANU = UP + DG
B64 = AN + "+/"
B64U = AN + "-_"
HEX = "0123456789abcdef"
B32 = UP + "234567"
B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def rs(chars, n):
    return "".join(R.choice(chars) for _ in range(n))


def hx(n):
    return rs(HEX, n)


def HX(n):
    return rs("0123456789ABCDEF", n)


def an(n):
    return rs(AN, n)


def dg(n):
    return rs(DG, n)


def dgnz(n):
    return R.choice("123456789") + dg(n - 1)


def pick(seq):
    return R.choice(seq)


def chance(p):
    return R.random() < p


def uuid4():
    h = hx(32)
    return "%s-%s-4%s-%s%s-%s" % (h[:8], h[8:12], h[13:16], pick("89ab"), h[17:20], h[20:32])


def b64s(b):
    return base64.b64encode(b).decode()


def b64u_nopad(b):
    return base64.urlsafe_b64encode(b).decode().rstrip("=")


def rbytes(n):
    return bytes(R.randrange(256) for _ in range(n))


def luhn_ok(d):
    total = 0
    for i, c in enumerate(reversed(d)):
        n = int(c)
        if i % 2 == 1:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return total % 10 == 0


def luhn_complete(prefix, length):
    body = prefix + dg(length - len(prefix) - 1)
    for c in DG:
        if luhn_ok(body + c):
            return body + c
    raise AssertionError


def card_number():
    iin, ln = pick([("4", 16), ("51", 16), ("53", 16), ("2221", 16), ("2720", 16), ("34", 15), ("37", 15),
                    ("6011", 16), ("65", 16), ("3528", 16), ("3589", 16), ("36", 14), ("62", 16), ("4", 19)])
    return luhn_complete(iin, ln)


def group_card(n):
    if len(n) == 15:
        return "%s %s %s" % (n[:4], n[4:10], n[10:])
    return " ".join(n[i:i + 4] for i in range(0, len(n), 4))


def non_luhn(n):
    while True:
        d = dgnz(n)
        if not luhn_ok(d):
            return d


def expiry():
    return "%02d/%02d" % (R.randint(1, 12), R.randint(26, 32))


def jwt(payload, alg="HS256", sig_len=43):
    h = b64u_nopad(json.dumps({"alg": alg, "typ": "JWT"}, separators=(",", ":")).encode())
    p = b64u_nopad(json.dumps(payload, separators=(",", ":")).encode())
    return "%s.%s.%s" % (h, p, rs(B64U, sig_len))


def pem(label, nbytes):
    body = b64s(rbytes(nbytes))
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN %s-----\n%s\n-----END %s-----" % (label, "\n".join(lines), label)


def openssh_private():
    raw = b"openssh-key-v1\x00\x00\x00\x00\x04none\x00\x00\x00\x04none\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x003\x00\x00\x00\x0bssh-ed25519\x00\x00\x00 " + rbytes(190)
    body = b64s(raw)
    lines = [body[i:i + 70] for i in range(0, len(body), 70)]
    return "-----BEGIN OPENSSH PRIVATE KEY-----\n%s\n-----END OPENSSH PRIVATE KEY-----" % "\n".join(lines)


# ---------------------------------------------------------------- people etc.
FIRST = ["Amara", "Bogdan", "Chiara", "Dmitri", "Elif", "Farah", "Gustavo", "Hana", "Ines", "Jonas", "Kavya",
         "Lior", "Mateo", "Nadia", "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tomasz", "Uma", "Viktor",
         "Wen", "Ximena", "Yusuf", "Zofia", "Aiko", "Bram", "Camille", "Dario", "Esra", "Femi", "Greta",
         "Hamid", "Ilse", "Joon", "Keanu", "Leila", "Marek", "Noor", "Olu", "Paulo", "Rania", "Sade",
         "Teo", "Ugo", "Vera", "Wiremu", "Yara", "Zeynep", "Mikko", "Anouk", "Ravi", "Thandi", "Lucía"]
LAST = ["Okafor", "Lindqvist", "Moreau", "Haddad", "Kowalczyk", "Tanaka", "Nguyen", "Brennan", "Castillo",
        "Petrov", "Achterberg", "Iyer", "Rossi", "Demir", "Santos", "Novak", "Fischer", "Mensah", "Sato",
        "Alvarez", "Kaur", "Oyelaran", "Virtanen", "Dubois", "Horvat", "Yilmaz", "Costa", "Walsh", "Bauer"]
CITIES = ["Lisbon", "Tallinn", "Porto Alegre", "Kraków", "Leeds", "Osaka", "Nairobi", "Valparaíso", "Ghent",
          "Tbilisi", "Halifax", "Da Nang", "Bergen", "Izmir", "Pune", "Cork", "Lyon", "Graz", "Accra", "Busan"]
PROJECTS = ["atlas", "bluefin", "cormorant", "driftwood", "ember", "fjord", "gannet", "heron", "ironbark",
            "juniper", "kestrel", "lumen", "marlin", "nimbus", "orchard", "pelican", "quarry", "rook",
            "saffron", "tamarind", "umber", "vireo", "wren", "yarrow", "zephyr", "basalt", "cobalt", "dune"]
ORGS = ["acme-labs", "northwind", "brightpath", "lowtide", "kitehouse", "greenleaf-co", "stonebridge",
        "fablefox", "mossgrove", "tinroof", "quillworks", "redkite-studio", "harbourline", "oakmint"]
STREETS = ["Rua das Flores", "Lange Voorhout", "Elm Street", "Calle Mayor", "Via Roma", "Hauptstraße",
           "Rue Oberkampf", "ul. Długa", "Baker Lane", "Kanalgatan", "Linden Avenue", "Quai Saint-Pierre"]
FOLDERS = ["notes", "travel", "work", "home", "family", "projects", "inbox", "misc", "health", "finance",
           "devops", "personal", "archive", "shared"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WORDS = ["abandon", "balcony", "cactus", "dolphin", "eager", "fabric", "garlic", "harbor", "icon", "jungle",
         "kettle", "lemon", "marble", "napkin", "orbit", "pepper", "quantum", "rabbit", "saddle", "tunnel",
         "umbrella", "velvet", "walnut", "yellow", "zebra", "anchor", "bridge", "candle", "desert", "engine",
         "falcon", "glove", "hammer", "island", "jacket", "kitten", "ladder", "meadow", "noble", "oyster",
         "pilot", "quiz", "rocket", "silver", "timber", "unique", "violin", "wagon", "yard", "zone", "acid",
         "bamboo", "copper", "drift", "elbow", "fossil", "gravity", "hollow", "ivory", "jelly", "kingdom",
         "lunar", "mango", "nephew", "olive", "parrot", "raven", "shadow", "thunder", "urban", "vapor",
         "winter", "absorb", "bicycle", "cherry", "donkey", "eclipse", "frost", "ginger", "habit", "inch",
         "juice", "kiwi", "lobster", "mirror", "nature", "ocean", "puzzle", "ribbon", "salmon", "tomato",
         "uncle", "valley", "whisper", "youth", "another", "brave", "clinic", "dizzy", "empty", "figure"]
PWWORDS = ["Tangerine", "Moonlit", "Paprika", "Harbour", "Cobalt", "Nebula", "Juniper", "Pistachio", "Otter",
           "Lantern", "Saffron", "Walrus", "Quokka", "Meridian", "Sparrow", "Thimble", "Marigold", "Bramble"]


def person():
    return pick(FIRST) + " " + pick(LAST)


def first():
    return pick(FIRST)


def proj():
    return pick(PROJECTS)


def email(name=None):
    n = (name or first()).lower().replace(" ", ".")
    n = n.replace("í", "i").replace("ú", "u").replace("é", "e")
    return "%s@%s" % (n, pick(["example.com", "example.org", "example.net", "mail.example.com", "example.co.uk"]))


def date_str():
    return "%d %s" % (R.randint(1, 28), pick(MONTHS))


def iso_date():
    return "20%02d-%02d-%02d" % (R.randint(24, 26), R.randint(1, 12), R.randint(1, 28))


def password():
    k = R.randrange(6)
    if k == 0:
        return pick(PWWORDS) + pick(PWWORDS).lower() + dg(R.randint(2, 4)) + pick("!#$%&*?@")
    if k == 1:
        return rs(AN + "!@#%^&*-_", R.randint(12, 20))
    if k == 2:
        return "-".join(pick(WORDS) for _ in range(R.randint(3, 4))) + dg(1)
    if k == 3:
        return pick(FIRST) + "." + dg(4) + pick("!?$")
    if k == 4:
        return rs(AN, R.randint(10, 16))
    return pick(PWWORDS) + pick("@_.-") + pick(WORDS).capitalize() + dg(2)


def pin(n=None):
    return dg(n or pick([4, 4, 4, 5, 6]))


def ssid():
    return pick(["Casa", "HOME", "Vodafone", "FRITZ!Box 7530", "TP-Link", "Livebox", "Nest", "Orbi",
                 "Starlink", "BTHub6", "Ziggo", "Telekom", "MEO", "ASUS_5G", "SKY"]) + pick(["-", "_", " ", ""]) + rs(ANU, R.randint(2, 5))


def recovery_codes(n=None, style=None):
    n = n or R.randint(6, 10)
    style = style or R.randrange(3)
    if style == 0:
        return ["%s-%s" % (dg(4), dg(4)) for _ in range(n)]
    if style == 1:
        return [rs(ANL, 5) + "-" + rs(ANL, 5) for _ in range(n)]
    return [dg(8) for _ in range(n)]


def totp_seed():
    return rs(B32, pick([16, 26, 32]))


def seed_phrase(n=None):
    return [pick(WORDS) for _ in range(n or pick([12, 12, 24]))]


# ================================================================ vendor specs
VENDORS = []


def V(slug, name, style, fn, api=None, hdr="Authorization: Bearer {t}"):
    VENDORS.append(dict(slug=slug, name=name, style=style, fn=fn, api=api, hdr=hdr))


def _aws():
    return [("AWS_ACCESS_KEY_ID", "AKIA" + rs(B32, 16)), ("AWS_SECRET_ACCESS_KEY", rs(B64, 40))]


def _aws_sts():
    return [("AWS_ACCESS_KEY_ID", "ASIA" + rs(B32, 16)), ("AWS_SECRET_ACCESS_KEY", rs(B64, 40)),
            ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2VjE" + rs(B64, 300))]


V("aws-access-key", "AWS", "multi", _aws)
V("aws-sts-session", "AWS STS", "multi", _aws_sts)
V("github-pat-classic", "GitHub", "tok", lambda: [("GITHUB_TOKEN", "ghp_" + an(36))], "https://api.github.com/user", "Authorization: token {t}")
V("github-pat-fine-grained", "GitHub", "tok", lambda: [("GH_TOKEN", "github_pat_11" + rs(ANU, 20) + "_" + an(59))], "https://api.github.com/repos/%s/%s" % (pick(ORGS), proj()))
V("github-oauth", "GitHub OAuth", "tok", lambda: [("GITHUB_OAUTH_TOKEN", "gho_" + an(36))], "https://api.github.com/user/repos")
V("github-app-installation", "GitHub App", "tok", lambda: [("GH_INSTALL_TOKEN", "ghs_" + an(36))], "https://api.github.com/installation/repositories")
V("github-refresh", "GitHub App", "tok", lambda: [("GITHUB_REFRESH_TOKEN", "ghr_" + an(76))])
V("gitlab-pat", "GitLab", "tok", lambda: [("GITLAB_TOKEN", "glpat-" + rs(B64U, 20))], "https://gitlab.com/api/v4/projects", "PRIVATE-TOKEN: {t}")
V("gitlab-runner", "GitLab Runner", "tok", lambda: [("RUNNER_TOKEN", "glrt-" + rs(B64U, 20))])
V("gitlab-deploy-token", "GitLab", "multi", lambda: [("deploy_user", "gitlab+deploy-token-" + dg(6)), ("deploy_token", "gldt-" + rs(B64U, 20))])
V("bitbucket-app-password", "Bitbucket", "multi", lambda: [("BITBUCKET_USER", first().lower()), ("BITBUCKET_APP_PASSWORD", "ATBB" + an(28) + HX(8))])
V("slack-bot", "Slack", "tok", lambda: [("SLACK_BOT_TOKEN", "xoxb-%s-%s-%s" % (dgnz(12), dgnz(13), an(24)))], "https://slack.com/api/chat.postMessage")
V("slack-user", "Slack", "tok", lambda: [("SLACK_USER_TOKEN", "xoxp-%s-%s-%s-%s" % (dgnz(12), dgnz(12), dgnz(13), hx(32)))], "https://slack.com/api/users.list")
V("slack-app-level", "Slack", "tok", lambda: [("SLACK_APP_TOKEN", "xapp-1-A%s-%s-%s" % (rs(ANU, 10), dgnz(13), hx(64)))])
V("slack-webhook", "Slack", "url", lambda: [("SLACK_WEBHOOK_URL", "https://hooks.slack.com/services/T%s/B%s/%s" % (rs(ANU, 10), rs(ANU, 10), an(24)))])
V("discord-bot", "Discord", "tok", lambda: [("DISCORD_TOKEN", "%s.%s.%s" % (b64u_nopad(dgnz(18).encode()), rs(B64U, 6), rs(B64U, 38)))], "https://discord.com/api/v10/users/@me", "Authorization: Bot {t}")
V("discord-webhook", "Discord", "url", lambda: [("DISCORD_WEBHOOK", "https://discord.com/api/webhooks/%s/%s" % (dgnz(19), rs(B64U, 68)))])
V("telegram-bot", "Telegram", "tok", lambda: [("TELEGRAM_BOT_TOKEN", "%s:AA%s" % (dgnz(10), rs(B64U, 33)))])
V("twilio-auth", "Twilio", "multi", lambda: [("TWILIO_ACCOUNT_SID", "AC" + hx(32)), ("TWILIO_AUTH_TOKEN", hx(32))])
V("twilio-api-key", "Twilio", "multi", lambda: [("TWILIO_API_KEY", "SK" + hx(32)), ("TWILIO_API_SECRET", an(32))])
V("sendgrid", "SendGrid", "tok", lambda: [("SENDGRID_API_KEY", "SG.%s.%s" % (rs(B64U, 22), rs(B64U, 43)))], "https://api.sendgrid.com/v3/mail/send")
V("mailgun", "Mailgun", "tok", lambda: [("MAILGUN_API_KEY", "%s-%s-%s" % (hx(32), hx(8), hx(8)))])
V("mailchimp", "Mailchimp", "tok", lambda: [("MAILCHIMP_API_KEY", "%s-us%d" % (hx(32), R.randint(2, 21)))])
V("postmark", "Postmark", "tok", lambda: [("POSTMARK_SERVER_TOKEN", uuid4())], "https://api.postmarkapp.com/email", "X-Postmark-Server-Token: {t}")
V("resend", "Resend", "tok", lambda: [("RESEND_API_KEY", "re_%s_%s" % (an(8), an(24)))], "https://api.resend.com/emails")
V("brevo", "Brevo", "tok", lambda: [("BREVO_API_KEY", "xkeysib-%s-%s" % (hx(64), an(16)))], "https://api.brevo.com/v3/smtp/email", "api-key: {t}")
V("mandrill", "Mandrill", "tok", lambda: [("MANDRILL_KEY", "md-" + rs(B64U, 22))])
V("sparkpost", "SparkPost", "tok", lambda: [("SPARKPOST_API_KEY", hx(40))], "https://api.sparkpost.com/api/v1/transmissions", "Authorization: {t}")
V("stripe-secret", "Stripe", "tok", lambda: [("STRIPE_SECRET_KEY", "sk_live_51" + an(97))], "https://api.stripe.com/v1/charges")
V("stripe-restricted", "Stripe", "tok", lambda: [("STRIPE_RESTRICTED_KEY", "rk_live_51" + an(97))])
V("stripe-webhook-secret", "Stripe", "tok", lambda: [("STRIPE_WEBHOOK_SECRET", "whsec_" + an(32))])
V("braintree-token", "Braintree", "tok", lambda: [("BRAINTREE_ACCESS_TOKEN", "access_token$production$%s$%s" % (rs(ANL, 16), hx(32)))])
V("paypal-client", "PayPal", "multi", lambda: [("PAYPAL_CLIENT_ID", "A" + rs(B64U, 79)), ("PAYPAL_CLIENT_SECRET", "E" + rs(B64U, 79))])
V("square-access", "Square", "tok", lambda: [("SQUARE_ACCESS_TOKEN", "EAAA" + rs(B64U, 60))], "https://connect.squareup.com/v2/locations")
V("square-oauth-secret", "Square", "tok", lambda: [("SQUARE_APP_SECRET", "sq0csp-" + rs(B64U, 43))])
V("adyen", "Adyen", "tok", lambda: [("ADYEN_API_KEY", "AQE" + rs(AN, 5) + "mfx" + rs(B64, 150) + "=-" + rs(B64, 44) + "=-" + rs(AN, 16))], "https://checkout-live.adyen.com/v71/payments", "X-API-Key: {t}")
V("razorpay", "Razorpay", "multi", lambda: [("RAZORPAY_KEY_ID", "rzp_live_" + an(14)), ("RAZORPAY_KEY_SECRET", an(24))])
V("paystack", "Paystack", "tok", lambda: [("PAYSTACK_SECRET_KEY", "sk_live_" + hx(40))], "https://api.paystack.co/transaction/initialize")
V("flutterwave", "Flutterwave", "tok", lambda: [("FLW_SECRET_KEY", "FLWSECK-%s-X" % hx(32))])
V("mollie", "Mollie", "tok", lambda: [("MOLLIE_API_KEY", "live_" + an(30))], "https://api.mollie.com/v2/payments")
V("checkout-com", "Checkout.com", "tok", lambda: [("CKO_SECRET_KEY", "sk_" + rs(ANL, 8) + "-" + rs(ANL, 4) + "-" + rs(ANL, 4) + "-" + rs(ANL, 4) + "-" + rs(ANL, 12))])
V("plaid", "Plaid", "multi", lambda: [("PLAID_CLIENT_ID", hx(24)), ("PLAID_SECRET", hx(30)), ("PLAID_ENV", "production")])
V("shopify-admin", "Shopify", "tok", lambda: [("SHOPIFY_ADMIN_TOKEN", "shpat_" + hx(32))], "https://%s.myshopify.com/admin/api/2024-07/orders.json" % proj(), "X-Shopify-Access-Token: {t}")
V("shopify-shared-secret", "Shopify", "tok", lambda: [("SHOPIFY_API_SECRET", "shpss_" + hx(32))])
V("openai-project", "OpenAI", "tok", lambda: [("OPENAI_API_KEY", "sk-proj-" + rs(B64U, 74) + "T3BlbkFJ" + rs(B64U, 74))], "https://api.openai.com/v1/chat/completions")
V("openai-legacy", "OpenAI", "tok", lambda: [("OPENAI_API_KEY", "sk-" + an(20) + "T3BlbkFJ" + an(20))], "https://api.openai.com/v1/models")
V("anthropic", "Anthropic", "tok", lambda: [("ANTHROPIC_API_KEY", "sk-ant-api03-" + rs(B64U, 93) + "AA")], "https://api.anthropic.com/v1/messages", "x-api-key: {t}")
V("huggingface", "Hugging Face", "tok", lambda: [("HF_TOKEN", "hf_" + rs(UP + LO, 34))], "https://huggingface.co/api/whoami-v2")
V("replicate", "Replicate", "tok", lambda: [("REPLICATE_API_TOKEN", "r8_" + an(37))], "https://api.replicate.com/v1/predictions")
V("groq", "Groq", "tok", lambda: [("GROQ_API_KEY", "gsk_" + an(52))], "https://api.groq.com/openai/v1/models")
V("cohere", "Cohere", "tok", lambda: [("CO_API_KEY", an(40))], "https://api.cohere.com/v1/chat")
V("mistral", "Mistral", "tok", lambda: [("MISTRAL_API_KEY", an(32))], "https://api.mistral.ai/v1/models")
V("perplexity", "Perplexity", "tok", lambda: [("PPLX_API_KEY", "pplx-" + an(48))], "https://api.perplexity.ai/chat/completions")
V("gemini-server-key", "Gemini API (server-side)", "tok", lambda: [("GEMINI_API_KEY", "AIza" + rs(B64U, 35))], "https://generativelanguage.googleapis.com/v1beta/models", "x-goog-api-key: {t}")
V("openrouter", "OpenRouter", "tok", lambda: [("OPENROUTER_API_KEY", "sk-or-v1-" + hx(64))], "https://openrouter.ai/api/v1/chat/completions")
V("deepseek", "DeepSeek", "tok", lambda: [("DEEPSEEK_API_KEY", "sk-" + hx(32))], "https://api.deepseek.com/chat/completions")
V("xai", "xAI", "tok", lambda: [("XAI_API_KEY", "xai-" + an(80))], "https://api.x.ai/v1/models")
V("elevenlabs", "ElevenLabs", "tok", lambda: [("ELEVENLABS_API_KEY", "sk_" + hx(48))], "https://api.elevenlabs.io/v1/voices", "xi-api-key: {t}")
V("assemblyai", "AssemblyAI", "tok", lambda: [("ASSEMBLYAI_API_KEY", hx(32))], "https://api.assemblyai.com/v2/transcript", "authorization: {t}")
V("deepgram", "Deepgram", "tok", lambda: [("DEEPGRAM_API_KEY", hx(40))], "https://api.deepgram.com/v1/listen", "Authorization: Token {t}")
V("together", "Together AI", "tok", lambda: [("TOGETHER_API_KEY", hx(64))], "https://api.together.xyz/v1/models")
V("fireworks", "Fireworks AI", "tok", lambda: [("FIREWORKS_API_KEY", "fw_" + an(24))])
V("langsmith", "LangSmith", "tok", lambda: [("LANGSMITH_API_KEY", "lsv2_pt_%s_%s" % (hx(32), hx(10)))])
V("wandb", "Weights & Biases", "tok", lambda: [("WANDB_API_KEY", hx(40))])
V("stability", "Stability AI", "tok", lambda: [("STABILITY_API_KEY", "sk-" + an(48))], "https://api.stability.ai/v1/user/account")
V("pinecone", "Pinecone", "tok", lambda: [("PINECONE_API_KEY", "pcsk_%s_%s" % (an(6), an(62)))], None, "Api-Key: {t}")
V("gcp-oauth-client", "Google OAuth client", "multi", lambda: [("GOOGLE_CLIENT_ID", "%s-%s.apps.googleusercontent.com" % (dgnz(12), rs(ANL, 32))), ("GOOGLE_CLIENT_SECRET", "GOCSPX-" + rs(B64U, 28))])
V("google-refresh-token", "Google OAuth", "tok", lambda: [("GOOGLE_REFRESH_TOKEN", "1//0" + rs(B64U, 99))])
V("azure-storage-conn", "Azure Storage", "url", lambda: [("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=https;AccountName=%s%s;AccountKey=%s;EndpointSuffix=core.windows.net" % (proj(), dg(3), b64s(rbytes(64))))])
V("azure-sas-url", "Azure Blob SAS", "url", lambda: [("BLOB_SAS_URL", "https://%sstore.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rwdlac&se=%sT18:00:00Z&st=%sT09:00:00Z&spr=https&sig=%s" % (proj(), iso_date(), iso_date(), urllib.parse.quote(b64s(rbytes(32)), safe="")))])
V("azure-ad-client-secret", "Microsoft Entra ID app", "multi", lambda: [("AZURE_TENANT_ID", uuid4()), ("AZURE_CLIENT_ID", uuid4()), ("AZURE_CLIENT_SECRET", rs(AN, 3) + "8Q~" + rs(B64U.replace("-", "") + ".~", 31))])
V("azure-devops-pat", "Azure DevOps", "tok", lambda: [("AZDO_PAT", rs(LO + "234567", 52))], "https://dev.azure.com/%s/_apis/projects" % pick(ORGS), "Authorization: Basic {b}")
V("azure-openai", "Azure OpenAI", "multi", lambda: [("AZURE_OPENAI_ENDPOINT", "https://%s-oai.openai.azure.com/" % proj()), ("AZURE_OPENAI_API_KEY", hx(32))])
V("digitalocean", "DigitalOcean", "tok", lambda: [("DIGITALOCEAN_TOKEN", "dop_v1_" + hx(64))], "https://api.digitalocean.com/v2/droplets")
V("digitalocean-spaces", "DigitalOcean Spaces", "multi", lambda: [("SPACES_KEY", "DO00" + rs(ANU, 16)), ("SPACES_SECRET", rs(B64, 43))])
V("linode", "Linode", "tok", lambda: [("LINODE_TOKEN", hx(64))], "https://api.linode.com/v4/linode/instances")
V("vultr", "Vultr", "tok", lambda: [("VULTR_API_KEY", rs(ANU, 36))], "https://api.vultr.com/v2/instances")
V("hetzner", "Hetzner Cloud", "tok", lambda: [("HCLOUD_TOKEN", an(64))], "https://api.hetzner.cloud/v1/servers")
V("cloudflare-token", "Cloudflare", "tok", lambda: [("CLOUDFLARE_API_TOKEN", rs(B64U, 40))], "https://api.cloudflare.com/client/v4/user/tokens/verify")
V("cloudflare-global", "Cloudflare", "multi", lambda: [("CF_API_EMAIL", email()), ("CF_API_KEY", hx(37))])
V("fastly", "Fastly", "tok", lambda: [("FASTLY_API_TOKEN", rs(B64U, 32))], "https://api.fastly.com/service", "Fastly-Key: {t}")
V("netlify", "Netlify", "tok", lambda: [("NETLIFY_AUTH_TOKEN", "nfp_" + an(36))], "https://api.netlify.com/api/v1/sites")
V("vercel", "Vercel", "tok", lambda: [("VERCEL_TOKEN", an(24))], "https://api.vercel.com/v9/projects")
V("heroku", "Heroku", "tok", lambda: [("HEROKU_API_KEY", "HRKU-AA" + rs(B64U, 58))], "https://api.heroku.com/apps")
V("flyio", "Fly.io", "tok", lambda: [("FLY_API_TOKEN", "FlyV1 fm2_" + rs(B64, 180))])
V("render", "Render", "tok", lambda: [("RENDER_API_KEY", "rnd_" + an(32))], "https://api.render.com/v1/services")
V("railway", "Railway", "tok", lambda: [("RAILWAY_TOKEN", uuid4())])
V("supabase-service-role", "Supabase", "multi", lambda: [("SUPABASE_URL", "https://%s.supabase.co" % rs(ANL, 20)), ("SUPABASE_SERVICE_ROLE_KEY", jwt({"iss": "supabase", "ref": rs(ANL, 20), "role": "service_role", "iat": 17 * 10 ** 8 + R.randint(0, 10 ** 7), "exp": 20 * 10 ** 8 + R.randint(0, 10 ** 7)}))])
V("supabase-access-token", "Supabase", "tok", lambda: [("SUPABASE_ACCESS_TOKEN", "sbp_" + hx(40))])
V("firebase-fcm-server", "Firebase Cloud Messaging", "tok", lambda: [("FCM_SERVER_KEY", "AAAA" + rs(B64U, 7) + ":APA91b" + rs(B64U, 134))], "https://fcm.googleapis.com/fcm/send", "Authorization: key={t}")
V("mongodb-atlas", "MongoDB Atlas", "url", lambda: [("MONGODB_URI", "mongodb+srv://%s:%s@cluster0.%s.mongodb.net/%s?retryWrites=true&w=majority" % (first().lower(), urllib.parse.quote(password(), safe=""), rs(ANL, 5), proj()))])
V("postgres-url", "PostgreSQL", "url", lambda: [("DATABASE_URL", "postgresql://%s:%s@db.%s.internal:5432/%s" % (proj() + "_app", urllib.parse.quote(password(), safe=""), proj(), proj()))])
V("mysql-url", "MySQL", "url", lambda: [("MYSQL_URL", "mysql://root:%s@10.%d.%d.%d:3306/%s" % (urllib.parse.quote(password(), safe=""), R.randint(0, 255), R.randint(0, 255), R.randint(1, 254), proj()))])
V("redis-url", "Redis", "url", lambda: [("REDIS_URL", "rediss://default:%s@%s-cache.example.net:6380/0" % (an(32), proj()))])
V("amqp-url", "RabbitMQ", "url", lambda: [("AMQP_URL", "amqps://%s:%s@mq.%s.example.com:5671/%%2F" % (proj(), an(20), proj()))])
V("mssql-conn", "SQL Server", "url", lambda: [("ConnectionStrings__Default", "Server=tcp:%s-sql.database.windows.net,1433;Initial Catalog=%s;User ID=%sadmin;Password=%s;Encrypt=True;" % (proj(), proj(), proj(), password()))])
V("jdbc-oracle", "Oracle JDBC", "url", lambda: [("spring.datasource.url", "jdbc:oracle:thin:%s/%s@//ora.%s.internal:1521/ORCLPDB1" % (proj().upper(), password(), proj()))])
V("snowflake", "Snowflake", "multi", lambda: [("SNOWFLAKE_ACCOUNT", rs(ANU, 7) + "-" + rs(ANU, 7)), ("SNOWFLAKE_USER", "SVC_" + proj().upper()), ("SNOWFLAKE_PASSWORD", password())])
V("databricks", "Databricks", "tok", lambda: [("DATABRICKS_TOKEN", "dapi" + hx(32))], "https://adb-%s.%d.azuredatabricks.net/api/2.0/clusters/list" % (dgnz(16), R.randint(1, 19)))
V("planetscale", "PlanetScale", "multi", lambda: [("PLANETSCALE_USERNAME", rs(ANL, 12)), ("PLANETSCALE_PASSWORD", "pscale_pw_" + rs(B64U, 43))])
V("neon", "Neon", "url", lambda: [("DATABASE_URL", "postgresql://neondb_owner:npg_%s@ep-%s-%s-%s.eu-central-1.aws.neon.tech/neondb?sslmode=require" % (an(12), pick(WORDS), pick(WORDS), rs(ANL, 8)))])
V("elastic-api-key", "Elastic Cloud", "tok", lambda: [("ES_API_KEY", b64s((rs(B64U, 20) + ":" + rs(B64U, 22)).encode()))], "https://%s.es.europe-west1.gcp.cloud.es.io:443/_cat/indices" % proj(), "Authorization: ApiKey {t}")
V("algolia-admin", "Algolia (admin key)", "multi", lambda: [("ALGOLIA_APP_ID", rs(ANU, 10)), ("ALGOLIA_ADMIN_KEY", hx(32))])
V("meilisearch-master", "Meilisearch", "tok", lambda: [("MEILI_MASTER_KEY", rs(B64U, 43))])
V("upstash-redis", "Upstash Redis", "multi", lambda: [("UPSTASH_REDIS_REST_URL", "https://%s-%s-%d.upstash.io" % (pick(WORDS), pick(WORDS), R.randint(10000, 99999))), ("UPSTASH_REDIS_REST_TOKEN", "A" + rs(B64U, 5) + "AAIjcDE" + rs(B64U, 50))])
V("turso", "Turso", "tok", lambda: [("TURSO_AUTH_TOKEN", jwt({"a": "rw", "iat": 17 * 10 ** 8 + R.randint(0, 10 ** 7), "id": uuid4()}, "EdDSA", 86))])
V("datadog", "Datadog", "multi", lambda: [("DD_API_KEY", hx(32)), ("DD_APP_KEY", hx(40))])
V("newrelic-user", "New Relic", "tok", lambda: [("NEW_RELIC_API_KEY", "NRAK-" + rs(ANU, 27))], "https://api.newrelic.com/graphql", "API-Key: {t}")
V("newrelic-license", "New Relic", "tok", lambda: [("NEW_RELIC_LICENSE_KEY", hx(36) + "NRAL")])
V("sentry-auth", "Sentry", "tok", lambda: [("SENTRY_AUTH_TOKEN", "sntryu_" + hx(64))], "https://sentry.io/api/0/projects/")
V("honeycomb", "Honeycomb", "tok", lambda: [("HONEYCOMB_API_KEY", "hcaik_" + rs(ANL, 58))], None, "x-honeycomb-team: {t}")
V("grafana-sa", "Grafana", "tok", lambda: [("GRAFANA_TOKEN", "glsa_%s_%s" % (an(32), hx(8)))], "https://%s.grafana.net/api/dashboards/home" % proj())
V("grafana-cloud", "Grafana Cloud", "tok", lambda: [("GRAFANA_CLOUD_TOKEN", "glc_" + b64s(json.dumps({"o": dg(6), "n": "stack-" + dg(6) + "-hm-write", "k": an(24), "m": {"r": "prod-eu-west-2"}}).encode()).rstrip("="))])
V("pagerduty", "PagerDuty", "tok", lambda: [("PAGERDUTY_TOKEN", "u+" + rs(B64U, 18))], "https://api.pagerduty.com/incidents", "Authorization: Token token={t}")
V("pagerduty-routing", "PagerDuty Events", "tok", lambda: [("PD_ROUTING_KEY", hx(32))])
V("opsgenie", "Opsgenie", "tok", lambda: [("OPSGENIE_API_KEY", uuid4())], "https://api.opsgenie.com/v2/alerts", "Authorization: GenieKey {t}")
V("splunk-hec", "Splunk HEC", "tok", lambda: [("SPLUNK_HEC_TOKEN", uuid4().upper())], "https://splunk.%s.example.com:8088/services/collector" % proj(), "Authorization: Splunk {t}")
V("betterstack", "Better Stack", "tok", lambda: [("LOGTAIL_SOURCE_TOKEN", an(24))], "https://in.logs.betterstack.com")
V("circleci", "CircleCI", "tok", lambda: [("CIRCLECI_TOKEN", "CCIPAT_%s_%s" % (an(22), hx(40)))], "https://circleci.com/api/v2/me", "Circle-Token: {t}")
V("buildkite", "Buildkite", "tok", lambda: [("BUILDKITE_API_TOKEN", "bkua_" + hx(40))], "https://api.buildkite.com/v2/user")
V("jenkins", "Jenkins", "multi", lambda: [("JENKINS_USER", first().lower()), ("JENKINS_API_TOKEN", "11" + hx(32))])
V("travis", "Travis CI", "tok", lambda: [("TRAVIS_TOKEN", rs(B64U, 22))], "https://api.travis-ci.com/user", "Authorization: token {t}")
V("sonarqube", "SonarQube", "tok", lambda: [("SONAR_TOKEN", "squ_" + hx(40))])
V("snyk", "Snyk", "tok", lambda: [("SNYK_TOKEN", uuid4())], "https://api.snyk.io/rest/self?version=2024-06-10", "Authorization: token {t}")
V("codecov", "Codecov", "tok", lambda: [("CODECOV_TOKEN", uuid4())])
V("octopus", "Octopus Deploy", "tok", lambda: [("OCTOPUS_API_KEY", "API-" + rs(ANU, 26))], None, "X-Octopus-ApiKey: {t}")
V("npm", "npm", "tok", lambda: [("NPM_TOKEN", "npm_" + an(36))])
V("pypi", "PyPI", "tok", lambda: [("TWINE_PASSWORD", "pypi-AgEIcHlwaS5vcmc" + rs(B64U, 160))])
V("rubygems", "RubyGems", "tok", lambda: [("GEM_HOST_API_KEY", "rubygems_" + hx(48))])
V("nuget", "NuGet", "tok", lambda: [("NUGET_API_KEY", "oy2" + rs(ANL, 43))])
V("dockerhub", "Docker Hub", "multi", lambda: [("DOCKERHUB_USERNAME", pick(ORGS)), ("DOCKERHUB_TOKEN", "dckr_pat_" + rs(B64U, 27))])
V("jfrog", "JFrog Artifactory", "tok", lambda: [("ARTIFACTORY_ACCESS_TOKEN", "cmVmdGtuOjAxOjE3" + an(48))])
V("crates-io", "crates.io", "tok", lambda: [("CARGO_REGISTRY_TOKEN", "cio" + an(32))])
V("terraform-cloud", "HCP Terraform", "tok", lambda: [("TFE_TOKEN", "%s.atlasv1.%s" % (an(14), an(67)))], "https://app.terraform.io/api/v2/organizations")
V("vault-token", "HashiCorp Vault", "tok", lambda: [("VAULT_TOKEN", "hvs." + rs(B64U, 24))], "https://vault.%s.internal:8200/v1/secret/data/app" % proj(), "X-Vault-Token: {t}")
V("doppler", "Doppler", "tok", lambda: [("DOPPLER_TOKEN", "dp.st.prd." + an(43))])
V("onepassword-sa", "1Password service account", "tok", lambda: [("OP_SERVICE_ACCOUNT_TOKEN", "ops_" + b64s(json.dumps({"signInAddress": "my.1password.com", "userAuth": {"method": "SRPg-4096", "alg": "PBES2g-HS256", "iterations": 650000, "salt": rs(B64U, 22)}, "email": rs(ANL, 13) + "@1passwordserviceaccounts.com", "srpX": hx(64), "muk": {"alg": "A256GCM", "ext": True, "k": rs(B64U, 43), "key_ops": ["encrypt", "decrypt"], "kty": "oct", "kid": "mp"}}).encode()).rstrip("="))])
V("pulumi", "Pulumi", "tok", lambda: [("PULUMI_ACCESS_TOKEN", "pul-" + hx(40))])
V("atlassian", "Atlassian (Jira/Confluence)", "multi", lambda: [("JIRA_EMAIL", email()), ("JIRA_API_TOKEN", "ATATT3xFfGF0" + rs(B64U, 170) + "=" + HX(8))])
V("linear", "Linear", "tok", lambda: [("LINEAR_API_KEY", "lin_api_" + an(40))], "https://api.linear.app/graphql", "Authorization: {t}")
V("notion", "Notion", "tok", lambda: [("NOTION_TOKEN", "ntn_" + dg(11) + an(35))], "https://api.notion.com/v1/search")
V("notion-legacy", "Notion", "tok", lambda: [("NOTION_API_KEY", "secret_" + an(43))])
V("asana", "Asana", "tok", lambda: [("ASANA_PAT", "2/%s/%s:%s" % (dgnz(16), dgnz(16), hx(32)))], "https://app.asana.com/api/1.0/users/me")
V("airtable", "Airtable", "tok", lambda: [("AIRTABLE_PAT", "pat%s.%s" % (an(14), hx(64)))], "https://api.airtable.com/v0/meta/bases")
V("trello", "Trello", "multi", lambda: [("TRELLO_KEY", hx(32)), ("TRELLO_TOKEN", "ATTA" + hx(64) + HX(8))])
V("clickup", "ClickUp", "tok", lambda: [("CLICKUP_TOKEN", "pk_%s_%s" % (dgnz(8), rs(ANU, 32)))], "https://api.clickup.com/api/v2/team", "Authorization: {t}")
V("monday", "monday.com", "tok", lambda: [("MONDAY_API_TOKEN", jwt({"tid": R.randint(10 ** 8, 10 ** 9), "aai": 11, "uid": R.randint(10 ** 7, 10 ** 8), "iad": iso_date() + "T10:12:03.000Z", "per": "me:write", "rgn": "euc1"}))])
V("figma", "Figma", "tok", lambda: [("FIGMA_TOKEN", "figd_" + rs(B64U, 40))], "https://api.figma.com/v1/me", "X-Figma-Token: {t}")
V("dropbox", "Dropbox", "tok", lambda: [("DROPBOX_ACCESS_TOKEN", "sl.u." + rs(B64U, 140))], "https://api.dropboxapi.com/2/users/get_current_account")
V("box", "Box", "multi", lambda: [("BOX_CLIENT_ID", rs(ANL, 32)), ("BOX_CLIENT_SECRET", an(32))])
V("zoom-s2s", "Zoom Server-to-Server OAuth", "multi", lambda: [("ZOOM_ACCOUNT_ID", rs(B64U, 22)), ("ZOOM_CLIENT_ID", rs(B64U, 22)), ("ZOOM_CLIENT_SECRET", an(32))])
V("okta", "Okta", "tok", lambda: [("OKTA_API_TOKEN", "00" + rs(B64U, 40))], "https://%s.okta.com/api/v1/users" % pick(ORGS), "Authorization: SSWS {t}")
V("auth0", "Auth0", "multi", lambda: [("AUTH0_DOMAIN", "%s.eu.auth0.com" % pick(ORGS)), ("AUTH0_CLIENT_ID", an(32)), ("AUTH0_CLIENT_SECRET", rs(B64U, 64))])
V("mapbox-secret", "Mapbox (secret scope)", "tok", lambda: [("MAPBOX_SECRET_TOKEN", "sk.eyJ1Ijoi" + b64u_nopad(('%s","a":"%s"}' % (pick(ORGS), rs(ANL, 25))).encode()) + "." + rs(B64U, 22))])
V("contentful-cma", "Contentful", "tok", lambda: [("CONTENTFUL_MANAGEMENT_TOKEN", "CFPAT-" + rs(B64U, 43))])
V("sanity", "Sanity", "tok", lambda: [("SANITY_API_TOKEN", "sk" + an(180))])
V("typeform", "Typeform", "tok", lambda: [("TYPEFORM_TOKEN", "tfp_%s_%s" % (an(44), an(14)))])
V("hubspot", "HubSpot", "tok", lambda: [("HUBSPOT_ACCESS_TOKEN", "pat-eu1-" + uuid4())], "https://api.hubapi.com/crm/v3/objects/contacts")
V("intercom", "Intercom", "tok", lambda: [("INTERCOM_TOKEN", "dG9rOj" + rs(B64, 54) + "=")], "https://api.intercom.io/contacts")
V("zendesk", "Zendesk", "multi", lambda: [("ZENDESK_SUBDOMAIN", pick(ORGS)), ("ZENDESK_EMAIL", email() + "/token"), ("ZENDESK_API_TOKEN", an(40))])
V("freshdesk", "Freshdesk", "tok", lambda: [("FRESHDESK_API_KEY", an(20))])
V("salesforce", "Salesforce connected app", "multi", lambda: [("SF_CONSUMER_KEY", "3MVG9" + rs(B64U.replace("-", "") + ".", 80)), ("SF_CONSUMER_SECRET", HX(64)), ("SF_PASSWORD", password()), ("SF_SECURITY_TOKEN", an(24))])
V("twitch", "Twitch", "multi", lambda: [("TWITCH_CLIENT_ID", rs(ANL, 30)), ("TWITCH_CLIENT_SECRET", rs(ANL, 30))])
V("x-bearer", "X (Twitter) API", "tok", lambda: [("TWITTER_BEARER_TOKEN", "AAAAAAAAAAAAAAAAAAAAA" + an(22) + "%3D" + an(50))], "https://api.twitter.com/2/tweets/search/recent?query=%23" + proj())
V("meta-page-token", "Meta Graph API", "tok", lambda: [("FB_PAGE_ACCESS_TOKEN", "EAAB" + an(180))], "https://graph.facebook.com/v19.0/me/accounts")
V("linkedin", "LinkedIn", "multi", lambda: [("LINKEDIN_CLIENT_ID", rs(ANL, 14)), ("LINKEDIN_CLIENT_SECRET", "WPL_AP1.%s.%s==" % (an(16), an(8)))])
V("reddit", "Reddit", "multi", lambda: [("REDDIT_CLIENT_ID", rs(B64U, 22)), ("REDDIT_CLIENT_SECRET", rs(B64U, 30)), ("REDDIT_PASSWORD", password())])
V("spotify", "Spotify", "multi", lambda: [("SPOTIPY_CLIENT_ID", hx(32)), ("SPOTIPY_CLIENT_SECRET", hx(32))])
V("coinbase-cdp", "Coinbase CDP", "blob", lambda: [("name", "organizations/%s/apiKeys/%s" % (uuid4(), uuid4())), ("privateKey", pem("EC PRIVATE KEY", 121))])
V("binance", "Binance", "multi", lambda: [("BINANCE_API_KEY", an(64)), ("BINANCE_API_SECRET", an(64))])
V("kraken", "Kraken", "multi", lambda: [("KRAKEN_API_KEY", rs(B64, 56)), ("KRAKEN_PRIVATE_KEY", b64s(rbytes(64)))])
V("okx", "OKX", "multi", lambda: [("OKX_API_KEY", uuid4()), ("OKX_SECRET_KEY", HX(32)), ("OKX_PASSPHRASE", password())])
V("kucoin", "KuCoin", "multi", lambda: [("KUCOIN_KEY", hx(24)), ("KUCOIN_SECRET", uuid4()), ("KUCOIN_PASSPHRASE", password())])
V("bybit", "Bybit", "multi", lambda: [("BYBIT_API_KEY", an(18)), ("BYBIT_API_SECRET", an(36))])
V("alchemy", "Alchemy", "url", lambda: [("ALCHEMY_RPC", "https://eth-mainnet.g.alchemy.com/v2/" + rs(B64U, 32))])
V("infura", "Infura", "multi", lambda: [("INFURA_API_KEY", hx(32)), ("INFURA_API_KEY_SECRET", hx(32))])
V("etherscan", "Etherscan", "tok", lambda: [("ETHERSCAN_API_KEY", rs(ANU, 34))])
V("eth-private-key", "Ethereum deployer wallet", "tok", lambda: [("DEPLOYER_PRIVATE_KEY", "0x" + hx(64))])
V("ssh-openssh", "SSH deploy key", "blob", lambda: [("id_ed25519", openssh_private())])
V("pem-rsa", "RSA private key", "blob", lambda: [("server.key", pem("RSA PRIVATE KEY", 1190))])
V("pem-ec", "EC private key", "blob", lambda: [("ec.key", pem("EC PRIVATE KEY", 121))])
V("pem-pkcs8", "PKCS#8 private key", "blob", lambda: [("tls.key", pem("PRIVATE KEY", 1218))])
V("pem-encrypted-with-pass", "encrypted PKCS#8 key + passphrase", "blob", lambda: [("client.key", pem("ENCRYPTED PRIVATE KEY", 1298)), ("passphrase", password())])
V("putty-ppk", "PuTTY key", "blob", lambda: [("deploy.ppk", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: %s@%s\nPublic-Lines: 2\n%s\n%s\nPrivate-Lines: 1\n%s\nPrivate-MAC: %s" % (first().lower(), proj(), "AAAAC3NzaC1lZDI1NTE5AAAAI" + rs(B64, 40), rs(B64, 20), "AAAAI" + rs(B64, 39) + "=", hx(64)))])
V("jwk-private", "JWK private key", "blob", lambda: [("jwk", json.dumps({"kty": "EC", "crv": "P-256", "kid": proj() + "-sig-" + dg(2), "x": rs(B64U, 43), "y": rs(B64U, 43), "d": rs(B64U, 43)}))])
V("jwk-rsa-private", "JWK RSA private key", "blob", lambda: [("jwk", json.dumps({"kty": "RSA", "kid": uuid4(), "n": rs(B64U, 342), "e": "AQAB", "d": rs(B64U, 342), "p": rs(B64U, 171), "q": rs(B64U, 171)}))])
V("pgp-private", "PGP private key", "blob", lambda: [("secring.asc", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + "\n".join(rs(B64, 64) for _ in range(10)) + "\n=" + rs(B64, 4) + "\n-----END PGP PRIVATE KEY BLOCK-----")])
V("age-secret", "age identity", "tok", lambda: [("AGE_SECRET_KEY", "AGE-SECRET-KEY-1" + rs("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L".upper(), 58))])
V("wireguard-private", "WireGuard", "blob", lambda: [("wg0.conf", "[Interface]\nPrivateKey = %s\nAddress = 10.8.0.%d/24\nListenPort = 51820\n\n[Peer]\nPublicKey = %s\nEndpoint = vpn.%s.example.net:51820\nAllowedIPs = 0.0.0.0/0" % (b64s(rbytes(32)), R.randint(2, 250), b64s(rbytes(32)), proj()))])
V("tailscale", "Tailscale", "tok", lambda: [("TS_AUTHKEY", "tskey-auth-%s-%s" % (an(17), an(33)))])
V("ngrok", "ngrok", "tok", lambda: [("NGROK_AUTHTOKEN", "2" + rs(B58, 26) + "_" + an(21))])
V("cloudinary", "Cloudinary", "url", lambda: [("CLOUDINARY_URL", "cloudinary://%s:%s@%s" % (dgnz(15), rs(B64U, 27), proj()))])
V("here", "HERE", "tok", lambda: [("HERE_API_KEY", rs(B64U, 43))])
V("clerk", "Clerk", "tok", lambda: [("CLERK_SECRET_KEY", "sk_live_" + an(40))])
V("stytch", "Stytch", "multi", lambda: [("STYTCH_PROJECT_ID", "project-live-" + uuid4()), ("STYTCH_SECRET", "secret-live-" + rs(B64U, 36))])
V("launchdarkly", "LaunchDarkly server SDK", "tok", lambda: [("LD_SDK_KEY", "sdk-" + uuid4())])
V("statsig", "Statsig server secret", "tok", lambda: [("STATSIG_SERVER_SECRET", "secret-" + an(43))])
V("posthog-personal", "PostHog personal API key", "tok", lambda: [("POSTHOG_PERSONAL_API_KEY", "phx_" + an(43))], "https://eu.posthog.com/api/projects/")
V("postman", "Postman", "tok", lambda: [("POSTMAN_API_KEY", "PMAK-%s-%s" % (hx(24), hx(34)))], "https://api.getpostman.com/collections", "X-Api-Key: {t}")
V("rapidapi", "RapidAPI", "tok", lambda: [("RAPIDAPI_KEY", an(50))], None, "X-RapidAPI-Key: {t}")
V("openweather", "OpenWeatherMap", "url", lambda: [("OWM_URL", "https://api.openweathermap.org/data/2.5/weather?q=%s&appid=%s" % (urllib.parse.quote(pick(CITIES)), hx(32)))])
V("vonage", "Vonage", "multi", lambda: [("VONAGE_API_KEY", hx(8)), ("VONAGE_API_SECRET", an(16))])
V("plivo", "Plivo", "multi", lambda: [("PLIVO_AUTH_ID", "MA" + rs(ANU, 18)), ("PLIVO_AUTH_TOKEN", an(40))])
V("messagebird", "MessageBird", "tok", lambda: [("MESSAGEBIRD_ACCESS_KEY", an(25))], None, "Authorization: AccessKey {t}")
V("pusher", "Pusher Channels", "multi", lambda: [("PUSHER_APP_ID", dgnz(7)), ("PUSHER_KEY", hx(20)), ("PUSHER_SECRET", hx(20))])
V("ably", "Ably", "tok", lambda: [("ABLY_API_KEY", "%s.%s:%s" % (rs(B64U, 6), rs(B64U, 6), rs(B64U, 43)))])
V("expo", "Expo", "tok", lambda: [("EXPO_TOKEN", rs(B64U, 40))])
V("nats-nkey", "NATS", "tok", lambda: [("NATS_NKEY_SEED", "SU" + rs(B32, 56))])
V("k8s-sa-token", "Kubernetes service account", "blob", lambda: [("kubeconfig", "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    server: https://k8s.%s.internal:6443\n  name: prod\nusers:\n- name: ci-deployer\n  user:\n    token: %s\ncontexts:\n- context: {cluster: prod, user: ci-deployer}\n  name: prod" % (proj(), jwt({"iss": "kubernetes/serviceaccount", "kubernetes.io/serviceaccount/namespace": "ci", "sub": "system:serviceaccount:ci:deployer"}, "RS256", 342)))])
V("docker-config-auth", "Docker registry auth", "blob", lambda: [("~/.docker/config.json", json.dumps({"auths": {"registry.%s.example.com" % proj(): {"auth": b64s(("%s:%s" % (first().lower(), password())).encode())}}}, indent=2))])
V("npmrc", ".npmrc", "blob", lambda: [(".npmrc", "@%s:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=ghp_%s\nalways-auth=true" % (pick(ORGS), an(36)))])
V("pypirc", ".pypirc", "blob", lambda: [(".pypirc", "[distutils]\nindex-servers = internal\n\n[internal]\nrepository = https://pypi.%s.example.com/simple/\nusername = %s\npassword = %s" % (proj(), first().lower(), password()))])
V("git-credential-url", "git remote with token", "url", lambda: [("remote", "https://%s:%s@github.com/%s/%s.git" % (first().lower(), "ghp_" + an(36), pick(ORGS), proj()))])
V("ftp-url", "FTP", "url", lambda: [("FTP_URL", "ftp://%s:%s@ftp.%s.example.net/incoming" % (first().lower(), urllib.parse.quote(password(), safe=""), proj()))])
V("smtp-password", "SMTP relay", "multi", lambda: [("SMTP_HOST", "smtp.%s.example.com" % proj()), ("SMTP_USER", email()), ("SMTP_PASSWORD", password())])
V("ldap-bind", "LDAP bind", "multi", lambda: [("LDAP_BIND_DN", "cn=svc-%s,ou=services,dc=example,dc=com" % proj()), ("LDAP_BIND_PASSWORD", password())])
V("basic-auth-header", "HTTP basic auth", "tok", lambda: [("Authorization", "Basic " + b64s(("%s:%s" % (first().lower(), password())).encode()))])
V("session-cookie-django", "Django admin session cookie", "tok", lambda: [("Cookie", "sessionid=%s; csrftoken=%s" % (rs(ANL, 32), an(32)))])
V("session-cookie-express", "Express session cookie", "tok", lambda: [("Cookie", "connect.sid=s%%3A%s.%s" % (rs(B64U, 32), urllib.parse.quote(rs(B64, 43), safe="")))])
V("session-cookie-rails", "Rails session cookie", "tok", lambda: [("Cookie", "_%s_session=%s--%s--%s" % (proj(), rs(B64, 120), rs(B64, 16), rs(B64, 22) + "%3D%3D"))])
V("s3-presigned", "S3 presigned URL", "url", lambda: [("url", "https://%s-exports.s3.eu-west-1.amazonaws.com/reports/q%d.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%s%%2F%s%%2Feu-west-1%%2Fs3%%2Faws4_request&X-Amz-Date=%sT101500Z&X-Amz-Expires=604800&X-Amz-SignedHeaders=host&X-Amz-Signature=%s" % (proj(), R.randint(1, 4), rs(B32, 16), dg(8), dg(8), hx(64)))])
V("gcs-signed", "GCS signed URL", "url", lambda: [("url", "https://storage.googleapis.com/%s-media/video/%s.mp4?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=uploader%%40%s.iam.gserviceaccount.com%%2F%s%%2Fauto%%2Fstorage%%2Fgoog4_request&X-Goog-Date=%sT000000Z&X-Goog-Expires=86400&X-Goog-SignedHeaders=host&X-Goog-Signature=%s" % (proj(), hx(10), proj(), dg(8), dg(8), hx(512)))])
V("cloudfront-signed", "CloudFront signed URL", "url", lambda: [("url", "https://d%s.cloudfront.net/course/%s/lesson.m3u8?Expires=%d&Signature=%s&Key-Pair-Id=K%s" % (rs(ANL, 13), proj(), 17 * 10 ** 8 + R.randint(0, 10 ** 8), rs(B64U.replace("_", "~"), 340), rs(ANU, 13)))])
V("teams-webhook", "Microsoft Teams webhook", "url", lambda: [("TEAMS_WEBHOOK", "https://%s.webhook.office.com/webhookb2/%s@%s/IncomingWebhook/%s/%s/V2%s" % (pick(ORGS).replace("-", ""), uuid4(), uuid4(), hx(32), uuid4(), rs(B64U, 40)))])
V("google-chat-webhook", "Google Chat webhook", "url", lambda: [("GCHAT_WEBHOOK", "https://chat.googleapis.com/v1/spaces/AAAA%s/messages?key=AIza%s&token=%s" % (rs(B64U, 7), rs(B64U, 35), urllib.parse.quote(rs(B64U, 43) + "=", safe="")))])
V("zapier-webhook", "Zapier catch hook", "url", lambda: [("ZAP_HOOK", "https://hooks.zapier.com/hooks/catch/%s/%s/" % (dgnz(8), rs(ANL, 7)))])
V("mattermost-webhook", "Mattermost webhook", "url", lambda: [("MM_WEBHOOK", "https://chat.%s.example.com/hooks/%s" % (proj(), rs(ANL, 26)))])
V("ifttt-maker", "IFTTT Webhooks", "url", lambda: [("IFTTT_URL", "https://maker.ifttt.com/trigger/%s/with/key/%s" % (pick(["door_open", "garage_alert", "plant_dry"]), rs(B64U, 43)))])
V("gcp-service-account", "GCP service account", "blob", lambda: [("sa.json", json.dumps({"type": "service_account", "project_id": proj() + "-prod-" + dg(4), "private_key_id": hx(40), "private_key": pem("PRIVATE KEY", 1218) + "\n", "client_email": "deployer@%s-prod.iam.gserviceaccount.com" % proj(), "client_id": dgnz(21), "token_uri": "https://oauth2.googleapis.com/token"}, indent=2))])
V("bearer-jwt-api", "internal API bearer", "tok", lambda: [("Authorization", "Bearer " + jwt({"sub": uuid4(), "scope": "admin:all", "iss": "https://auth.%s.example.com" % proj(), "exp": 20 * 10 ** 8 + R.randint(0, 10 ** 7)}, "RS256", 342))])
V("lokalise", "Lokalise", "tok", lambda: [("LOKALISE_API_TOKEN", hx(40))], "https://api.lokalise.com/api2/projects", "X-Api-Token: {t}")
V("mixpanel-sa", "Mixpanel service account", "multi", lambda: [("MP_SA_USERNAME", "%s-export.%s.mp-service-account" % (proj(), dg(6))), ("MP_SA_SECRET", an(32))])
V("segment-access", "Segment Public API token", "tok", lambda: [("SEGMENT_TOKEN", "sgp_" + an(64))])


# ---------------------------------------------------------------- vendor framing
PURPOSES = ["the nightly export job", "staging", "the prod deploy pipeline", "my side project", "the billing service",
            "the analytics dashboard", "the support bot", "our demo environment", "the data team's notebooks",
            "the mobile backend", "the migration script", "the customer webhook relay", "the alerting setup",
            "local testing against prod data", "the newsletter sender", "the internal wiki sync"]


def _lbl(var):
    return var.lower().replace("_", " ")


def _env_lines(pairs, export=None, quote=None):
    export = chance(0.3) if export is None else export
    quote = pick(["", "", "'", '"']) if quote is None else quote
    return "\n".join("%s%s=%s%s%s" % ("export " if export else "", k, quote, v, quote) for k, v in pairs)


def f_env(sp, pairs):
    head = pick(["", "# %s\n" % sp["name"], "# %s — %s\n" % (sp["name"], pick(PURPOSES)), "### %s creds (do not commit)\n" % proj()])
    extra = pick(["", "\nLOG_LEVEL=info", "\nNODE_ENV=production", "\nPORT=%d" % R.choice([3000, 8000, 8080, 5000])])
    return head + _env_lines(pairs) + extra


def f_yaml(sp, pairs):
    root = pick([sp["slug"].split("-")[0], "credentials", "integrations", proj()])
    body = "\n".join("  %s: %s" % (k.lower(), json.dumps(v) if chance(0.4) else v) for k, v in pairs if "\n" not in v)
    return "%s:\n%s" % (root, body)


def f_json(sp, pairs):
    k = R.randrange(4)
    if k == 0:
        return {"service": sp["name"], "project": proj(), "env": dict(pairs)}
    if k == 1:
        return {"type": "credential", "provider": sp["name"], "owner": email(), "fields": [{"name": a, "value": b} for a, b in pairs]}
    if k == 2:
        d = {a.lower(): b for a, b in pairs}
        d["added_by"] = first()
        d["note"] = pick(["for " + pick(PURPOSES), "rotate quarterly", "prod", "shared with the on-call rota"])
        return d
    return {"memory": "%s access for %s" % (sp["name"], pick(PURPOSES)), "values": dict(pairs), "saved": iso_date()}


PROSE_T = [
    "Remember the {name} credentials for {purpose}: {vals}.",
    "Note to self — {name} for {purpose}. {vals}",
    "{who} sent me the {name} key we use for {purpose}: {vals}",
    "Keep this handy, it's what {purpose} authenticates with ({name}): {vals}",
    "Pinned from #{chan}: {name} → {vals} (for {purpose}, ask {who} before rotating)",
    "If the {name} integration breaks again, the working values were {vals}.",
    "Saved {name} creds. {vals}. Used by {purpose}.",
    "{name}: {vals} — this is the live one, the old one was revoked on {date}.",
    "for future me: {purpose} needs {name}, use {vals}",
    "The {name} token {who} generated on {date} is {vals}; scope is read/write.",
]


def _vals(pairs):
    if len(pairs) == 1 and chance(0.6):
        return pairs[0][1]
    sep = pick([", ", "; ", " / ", " and "])
    fmt = pick(["{k}={v}", "{k}: {v}", "{l} {v}", "{l} is {v}"])
    return sep.join(fmt.format(k=k, v=v, l=_lbl(k)) for k, v in pairs)


def f_prose(sp, pairs):
    return pick(PROSE_T).format(name=sp["name"], purpose=pick(PURPOSES), vals=_vals(pairs), who=first(),
                                chan=pick(["devops", "platform", "eng-private", "ops", "infra"]), date=date_str())


CHAT_T = [
    ("user: can you remember the {name} key for {purpose}? it's {vals}", "assistant: Saved. I'll use it when you ask about {purpose}."),
    ("User: {name} stuff for later -> {vals}", "Assistant: Got it, stored under {name}."),
    ("me: store this please\nme: {vals}\nme: ({name}, {purpose})", "bot: stored ✅"),
    ("[{t1}] {who}: here's the {name} one you asked for: {vals}", "[{t2}] me: thanks, saving it to memory"),
]


def f_chat(sp, pairs):
    a, b = pick(CHAT_T)
    t1 = "%02d:%02d" % (R.randint(7, 22), R.randint(0, 59))
    kw = dict(name=sp["name"], purpose=pick(PURPOSES), vals=_vals(pairs), who=first(), t1=t1, t2=t1[:3] + "%02d" % R.randint(0, 59))
    return a.format(**kw) + "\n" + b.format(**kw)


def f_curl(sp, pairs):
    t = pairs[0][1]
    hdr = sp["hdr"].format(t=t, b=b64s((":" + t).encode()))
    if pairs[0][0] in ("Cookie", "Authorization"):
        hdr = "%s: %s" % pairs[0]
    api = sp["api"] or "https://api.%s.example.com/v1/status" % sp["slug"].split("-")[0]
    cmd = pick(["curl -s -H '%s' %s", "curl --fail -H \"%s\" \"%s\" | jq .", "http GET %s '%s'"])
    if cmd.startswith("http "):
        line = cmd % (api, hdr)
    else:
        line = cmd % (hdr, api)
    return pick(["", "working call for %s:\n" % sp["name"], "# %s smoke test\n" % proj(), "{} check that the token still works:\n".format(first())]) + line


CODE_T = [
    'import os\nos.environ["{k}"] = "{v}"  # {name}\n',
    'const {camel} = "{v}"; // {name}, TODO move to env\n',
    '{k_low} = "{v}"\nclient = make_client({k_low})\n',
    'cfg := Config{{{camel}: "{v}"}} // {name}\n',
    'provider "{slug0}" {{\n  token = "{v}"\n}}\n',
    '$env:{k} = "{v}"   # {name}\n',
    'settings.{k} = "{v}"\n',
]


def f_code(sp, pairs):
    out = []
    for k, v in pairs:
        camel = "".join(p.capitalize() for p in k.lower().split("_"))
        camel = camel[:1].lower() + camel[1:]
        out.append(pick(CODE_T).format(k=k, v=v.replace('"', '\\"'), name=sp["name"], camel=camel or "token", k_low=k.lower(), slug0=sp["slug"].split("-")[0]))
    return "".join(out).rstrip("\n")


def f_list(sp, pairs):
    items = [pick(["%s (%s)" % (sp["name"], pick(PURPOSES)), sp["name"] + " access", "creds: " + sp["name"]])]
    for k, v in pairs:
        items.append(pick(["%s: %s", "%s=%s", "%s -> %s"]) % (k, v))
    if chance(0.5):
        items.append(pick(["owner: " + first(), "expires " + iso_date(), "rotate by " + date_str(), "env: prod"]))
    return items


def f_docker(sp, pairs):
    env = " ".join("-e %s=%s" % (k, v if not any(c in v for c in " ;&$") else "'%s'" % v) for k, v in pairs)
    return "docker run --rm %s ghcr.io/%s/%s:%s" % (env, pick(ORGS), proj(), pick(["latest", "1.%d.%d" % (R.randint(0, 9), R.randint(0, 30))]))


def f_ticket(sp, pairs):
    return "Handoff from %s (%s):\n- %s is wired into %s\n%s\n- next rotation %s" % (
        first(), date_str(), sp["name"], pick(PURPOSES), "\n".join("- %s = %s" % (k, v) for k, v in pairs), iso_date())


def f_blob_prose(sp, pairs):
    lead = pick(["Keep this safe — %s for %s:" % (sp["name"], pick(PURPOSES)), "%s (%s), pasted from %s's laptop:" % (sp["name"], proj(), first()),
                 "here's the %s, I'll need it again when the runner gets rebuilt" % sp["name"], "%s file contents:" % pairs[0][0]])
    return lead + "\n" + "\n".join(v if i == 0 else "%s: %s" % (k, v) for i, (k, v) in enumerate(pairs))


def f_blob_json(sp, pairs):
    if chance(0.5):
        return {"file": pairs[0][0], "content": pairs[0][1], **{k: v for k, v in pairs[1:]}, "host": "%s-%02d" % (proj(), R.randint(1, 40))}
    return {"kind": sp["name"], "purpose": pick(PURPOSES), "data": dict(pairs)}


def f_blob_yaml(sp, pairs):
    out = ["%s:" % proj()]
    for k, v in pairs:
        if "\n" in v:
            out.append("  %s: |" % k.replace("~/", "").replace("/", "_"))
            out.extend("    " + ln for ln in v.split("\n"))
        else:
            out.append("  %s: %s" % (k, v))
    return "\n".join(out)


def vendor_value(sp):
    pairs = sp["fn"]()
    st = sp["style"]
    if st == "blob":
        fr = pick([f_blob_prose, f_blob_prose, f_blob_json, f_blob_yaml, f_chat])
    elif st == "url":
        fr = pick([f_env, f_prose, f_prose, f_json, f_chat, f_list, f_yaml, f_code, f_ticket])
    elif st == "tok":
        opts = [f_env, f_prose, f_prose, f_json, f_chat, f_list, f_code, f_yaml, f_docker, f_ticket]
        if sp["api"] or pairs[0][0] in ("Cookie", "Authorization"):
            opts += [f_curl, f_curl]
        fr = pick(opts)
    else:
        fr = pick([f_env, f_prose, f_prose, f_json, f_chat, f_list, f_code, f_yaml, f_docker, f_ticket])
    return fr(sp, pairs)


# ================================================================ personal secrets
PETS = ["Biscuit", "Pumpernickel", "Mochi", "Rocco", "Tilly", "Ziggy", "Olive", "Bruno", "Kiki", "Pippin", "Luna", "Socks"]
MAIDEN = ["Kowalczyk", "Albuquerque", "Fitzgerald", "Okonkwo", "Van der Berg", "Mastrangelo", "Halvorsen", "Ibáñez"]
STREETS_CHILD = ["Maple Crescent", "Rua Augusta", "Millbrook Road", "Calle Luna", "Birkenweg", "Oak Hollow"]
TEACHERS = ["Mrs Pemberton", "Mr Adeyemi", "Ms Laurent", "Señora Ruiz", "Herr Vogel"]


def meeting_id():
    return "%s %s %s" % (dgnz(3), dg(4), dg(4))


def gift_code():
    k = R.randrange(4)
    if k == 0:
        return "%s-%s-%s" % (rs(ANU, 4), rs(ANU, 6), rs(ANU, 5))
    if k == 1:
        return "X" + rs(ANU, 15)
    if k == 2:
        return " ".join(rs(ANU, 4) for _ in range(5))
    return rs(ANU, 4) + "-" + rs(ANU, 4) + "-" + rs(ANU, 4) + "-" + rs(ANU, 4)


def pvals(lang="en"):
    card = card_number()
    codes = recovery_codes()
    d = dict(
        who=first(), ssid=ssid(), pw=password(), code=pin(), code6=pin(6), door=pick([pin(4) + "#", "*" + pin(4), pin(5), pin(6), pin(4)]),
        safe=pick([pin(6), "%02d-%02d-%02d" % (R.randint(0, 59), R.randint(0, 59), R.randint(0, 59)), "%d-%d-%d" % (R.randint(1, 39), R.randint(1, 39), R.randint(1, 39))]),
        lock=pick([pin(3), pin(4), pin(4)]), ans=pick(PETS + MAIDEN + STREETS_CHILD + TEACHERS + CITIES),
        pet=pick(PETS), maiden=pick(MAIDEN), street=pick(STREETS_CHILD), city=pick(CITIES), teacher=pick(TEACHERS),
        codes=pick([", ", " ", "\n", " | "]).join(codes), seed=totp_seed(), words=" ".join(seed_phrase()),
        card=pick([card, group_card(card)]), exp=expiry(), cvv=dg(4 if len(card) == 15 else 3), gift=gift_code(),
        mid=meeting_id(), mpw=pick([pin(6), an(6), rs(ANL, 8)]), puk=dg(8), site=pick(["the bank", "my Outlook", "Netflix", "the pension portal", "the kids' school portal", "Steam", "the council tax site", "the landlord's portal"]),
        bank=pick(["Revolut", "ING", "Santander", "Monzo", "N26", "the credit union"]), place=pick(CITIES),
        n=R.randint(2, 9), t="%02d:%02d" % (R.randint(6, 22), pick([0, 15, 30, 45])),
    )
    if lang == "en":
        return d
    d["site"] = pick(["Gmail", "Netflix", "Instagram", "Steam", "PayPal", "Facebook", "Spotify", "iCloud", "Booking.com", "LINE", "WhatsApp Web"])
    d["bank"] = pick(["Revolut", "ING", "Santander", "N26", "BBVA", "HSBC", "Wise"])
    return d


EN = {
    "wifi": ["Wifi at {who}'s place: network {ssid}, password {pw}",
             "the guest wifi password at the cabin is {pw} (network is {ssid})",
             "Mum's new router — SSID {ssid} / key {pw}. She always forgets it so I said I'd remember.",
             "Office wifi changed again, it's now {pw} on {ssid}",
             "{ssid} pw: {pw}"],
    "pin": ["My debit card PIN is {code}", "PIN for the {bank} card: {code} (the old one was blocked)",
            "phone unlock PIN if my face ID fails: {code6}", "{who}'s SIM PIN is {code} and PUK {puk}, keep for her"],
    "door": ["Building entry code is {door}, then buzz 3", "front door keypad at the Airbnb in {place}: {door}",
             "The studio door code changed to {door} as of Monday", "Grandma's key safe by the back door opens with {door}"],
    "alarm": ["House alarm disarm code is {code}; the panel is behind the coat rack", "alarm code for the shop: {code}, duress code is different, don't use it",
              "If the alarm goes off at {who}'s, the code to silence it is {code}"],
    "safe": ["Hotel room safe code I set: {safe}", "The combination for the filing cabinet safe is {safe}", "dad's gun safe combo: {safe}"],
    "locker": ["Gym locker combination {lock}", "my locker at the pool uses {lock}", "Bike lock code is {lock} (the blue D-lock)"],
    "gate": ["Garage remote broke; the keypad code for the garage is {door}", "Community gate code: {door}. Delivery drivers always ask.",
             "Allotment gate padlock is {lock}"],
    "password": ["my password for {site} is {pw}", "Login for {site}: username {who}{n}, password {pw}",
                 "{who} asked me to remember her laptop password: {pw}", "new password for the router admin page is {pw} (user admin)",
                 "PS4 account pw {pw}"],
    "secq": ["Security question for {bank} — first pet's name — I put {pet}", "For the passport office account: mother's maiden name answer is {maiden}",
             "The answer I gave to 'street you grew up on' is {street}", "security answers: favourite teacher = {teacher}, birth city = {city}"],
    "recovery": ["Backup codes for my Google account:\n{codes}", "GitHub 2FA recovery codes, in case my phone dies: {codes}",
                 "Save these Proton recovery codes: {codes}"],
    "totp": ["TOTP secret for the VPN (add to a new authenticator if I lose my phone): {seed}", "authenticator setup key for {site}: {seed}"],
    "seed": ["my wallet recovery phrase: {words}", "Seed words for the Ledger, in order: {words}", "{who}'s MetaMask secret phrase (she asked me to keep a copy): {words}"],
    "card": ["Card for online orders: {card}, exp {exp}, CVV {cvv}", "Use my Visa {card} exp {exp} cvc {cvv} for the flight booking",
             "company card {card}  {exp}  {cvv} — only for AWS invoices"],
    "gift": ["Gift card code from the raffle: {gift}", "Unused Amazon voucher {gift}, balance 50", "Apple gift card for {who}'s birthday, code {gift}"],
    "meeting": ["Weekly sync with {who}: Zoom ID {mid}, passcode {mpw}", "board call meeting ID {mid} / passcode {mpw}", "Teams dial-in conference ID {mid}, PIN {mpw}"],
    "voicemail": ["voicemail PIN is {code}", "to check the office voicemail dial *86 then {code}#"],
}

# per-language templates: type -> list; T: localized type names; F: field names; chat: (me, assistant, ack)
LANGS = {
    "es": dict(
        wifi=["La contraseña del wifi de casa de {who} es {pw} (red {ssid})", "wifi del piso en {place}: {ssid} / {pw}"],
        pin=["El PIN de mi tarjeta del {bank} es {code}", "PIN del móvil: {code6}"],
        door=["El código del portal es {door}", "Código de la puerta del trastero: {door}"],
        alarm=["Código de la alarma de la tienda: {code}"],
        password=["Mi contraseña de {site} es {pw}", "usuario {who}{n}, contraseña {pw}"],
        secq=["Respuesta a la pregunta de seguridad (nombre de mi primera mascota): {pet}"],
        card=["Tarjeta para compras online: {card}, caduca {exp}, CVV {cvv}"],
        gift=["Código de la tarjeta regalo: {gift}"],
        T=dict(wifi="Wifi", pin="PIN", door="Código portal", alarm="Alarma", password="Contraseña", secq="Pregunta de seguridad", card="Tarjeta", gift="Tarjeta regalo"),
        F=dict(title="título", value="valor", note="nota"), chat=("Yo", "Asistente", "Guardado, lo recordaré."),
    ),
    "fr": dict(
        wifi=["Le mot de passe wifi chez {who} : {pw} (réseau {ssid})", "Wifi du gîte à {place} — {ssid}, clé {pw}"],
        pin=["Code PIN de ma carte bleue : {code}", "code de déverrouillage du téléphone : {code6}"],
        door=["Digicode de l'immeuble : {door}", "Le code de la porte du local vélos est {door}"],
        safe=["Code du coffre-fort de l'hôtel : {safe}"],
        password=["Mon mot de passe {site} : {pw}", "identifiant {who}{n} / mdp {pw}"],
        recovery=["Codes de secours de mon compte : {codes}"],
        meeting=["Réunion Zoom avec {who} : ID {mid}, code secret {mpw}"],
        T=dict(wifi="Wifi", pin="Code PIN", door="Digicode", safe="Coffre", password="Mot de passe", recovery="Codes de secours", meeting="Réunion"),
        F=dict(title="titre", value="valeur", note="remarque"), chat=("Moi", "Assistant", "C'est noté."),
    ),
    "de": dict(
        wifi=["WLAN bei {who}: Netz {ssid}, Passwort {pw}", "Das WLAN-Passwort in der Ferienwohnung ist {pw}"],
        pin=["Meine EC-Karten-PIN ist {code}", "Handy-PIN {code6}, PUK {puk}"],
        door=["Haustür-Code im Büro: {door}", "Code für den Schlüsseltresor an der Garage: {door}"],
        alarm=["Alarmanlage ausschalten mit {code}"],
        password=["Passwort für {site}: {pw}", "Benutzername {who}{n}, Kennwort {pw}"],
        secq=["Sicherheitsfrage (Geburtsort der Mutter): Antwort {city}"],
        totp=["TOTP-Schlüssel für das VPN: {seed}"],
        seed=["Wiederherstellungsphrase meiner Wallet: {words}"],
        T=dict(wifi="WLAN", pin="PIN", door="Türcode", alarm="Alarmcode", password="Passwort", secq="Sicherheitsfrage", totp="2FA-Schlüssel", seed="Seed-Phrase"),
        F=dict(title="Titel", value="Wert", note="Notiz"), chat=("Ich", "Assistent", "Alles klar, gespeichert."),
    ),
    "it": dict(
        wifi=["La password del wifi di casa è {pw} (rete {ssid})", "wifi dell'ufficio di {place}: {ssid}, chiave {pw}"],
        pin=["Il PIN del bancomat è {code}"],
        door=["Codice del cancello: {door}", "Il codice del portone è {door}"],
        password=["La mia password di {site}: {pw}"],
        card=["Carta per gli acquisti: {card} scad. {exp} CVV {cvv}"],
        locker=["Lucchetto dell'armadietto in palestra: {lock}"],
        T=dict(wifi="Wifi", pin="PIN", door="Codice cancello", password="Password", card="Carta", locker="Armadietto"),
        F=dict(title="titolo", value="valore", note="nota"), chat=("Io", "Assistente", "Fatto, me lo ricordo."),
    ),
    "pt": dict(
        wifi=["A senha do wi-fi da casa da {who} é {pw}", "rede {ssid}, senha {pw} (apartamento em {place})"],
        pin=["A senha do cartão do {bank} é {code}", "PIN do telemóvel: {code6}"],
        door=["Código do portão do prédio: {door}"],
        password=["Minha senha do {site}: {pw}", "login {who}{n} senha {pw}"],
        secq=["Resposta secreta (nome do primeiro animal): {pet}"],
        gift=["Código do vale-presente: {gift}"],
        T=dict(wifi="Wi-Fi", pin="Senha do cartão", door="Portão", password="Senha", secq="Pergunta secreta", gift="Vale-presente"),
        F=dict(title="título", value="valor", note="obs"), chat=("Eu", "Assistente", "Anotado!"),
    ),
    "nl": dict(
        wifi=["Wifi-wachtwoord bij {who}: {pw} (netwerk {ssid})"],
        pin=["Pincode van mijn bankpas: {code}"],
        door=["De code van de fietsenstalling is {door}", "Sleutelkluisje bij oma: {door}"],
        password=["Wachtwoord voor {site}: {pw}"],
        alarm=["Alarmcode van de zaak: {code}"],
        recovery=["Herstelcodes van mijn account: {codes}"],
        T=dict(wifi="Wifi", pin="Pincode", door="Deurcode", password="Wachtwoord", alarm="Alarmcode", recovery="Herstelcodes"),
        F=dict(title="titel", value="waarde", note="notitie"), chat=("Ik", "Assistent", "Opgeslagen."),
    ),
    "pl": dict(
        wifi=["Hasło do wifi u {who}: {pw}", "sieć {ssid}, hasło {pw}"],
        pin=["PIN do karty: {code}"],
        door=["Kod do domofonu na klatce: {door}"],
        password=["Moje hasło do {site} to {pw}"],
        safe=["Szyfr do sejfu w biurze: {safe}"],
        secq=["Odpowiedź na pytanie bezpieczeństwa (panieńskie nazwisko matki): {maiden}"],
        T=dict(wifi="Wi-Fi", pin="PIN", door="Kod do drzwi", password="Hasło", safe="Sejf", secq="Pytanie bezpieczeństwa"),
        F=dict(title="tytuł", value="wartość", note="notatka"), chat=("Ja", "Asystent", "Zapisane."),
    ),
    "tr": dict(
        wifi=["{who}'nin evindeki wifi şifresi {pw}", "Ağ: {ssid} — şifre: {pw}"],
        pin=["Banka kartımın şifresi {code}"],
        door=["Apartman kapısının kodu {door}"],
        password=["{site} şifrem: {pw}"],
        alarm=["Dükkanın alarm kodu {code}"],
        card=["Kart: {card}, SKT {exp}, CVV {cvv}"],
        T=dict(wifi="Wifi", pin="Kart şifresi", door="Kapı kodu", password="Şifre", alarm="Alarm", card="Kart"),
        F=dict(title="başlık", value="değer", note="not"), chat=("Ben", "Asistan", "Kaydettim."),
    ),
    "id": dict(
        wifi=["Password wifi rumah {who}: {pw}", "wifi kantor {ssid}, sandinya {pw}"],
        pin=["PIN ATM saya {code}", "PIN m-banking: {code6}"],
        door=["Kode pintu kos: {door}"],
        password=["Kata sandi {site} saya {pw}"],
        gift=["Kode voucher belanja: {gift}"],
        T=dict(wifi="Wifi", pin="PIN", door="Kode pintu", password="Kata sandi", gift="Voucher"),
        F=dict(title="judul", value="nilai", note="catatan"), chat=("Saya", "Asisten", "Sudah disimpan."),
    ),
    "vi": dict(
        wifi=["Mật khẩu wifi nhà {who} là {pw}", "wifi quán cà phê ở {place}: {ssid} / {pw}"],
        pin=["Mã PIN thẻ ATM của tôi: {code}"],
        door=["Mã cửa chung cư: {door}"],
        password=["Mật khẩu {site} là {pw}"],
        recovery=["Mã dự phòng đăng nhập: {codes}"],
        T=dict(wifi="Wifi", pin="Mã PIN", door="Mã cửa", password="Mật khẩu", recovery="Mã dự phòng"),
        F=dict(title="tiêu đề", value="giá trị", note="ghi chú"), chat=("Tôi", "Trợ lý", "Đã lưu."),
    ),
    "sw": dict(
        wifi=["Nenosiri la wifi nyumbani kwa {who} ni {pw}"],
        pin=["PIN ya M-Pesa yangu ni {code}", "PIN ya kadi ya benki: {code}"],
        door=["Namba ya siri ya geti ni {door}"],
        password=["Nenosiri langu la {site} ni {pw}"],
        T=dict(wifi="Wifi", pin="PIN", door="Geti", password="Nenosiri"),
        F=dict(title="kichwa", value="thamani", note="maelezo"), chat=("Mimi", "Msaidizi", "Nimehifadhi."),
    ),
    "ru": dict(
        wifi=["Пароль от вайфая у {who}: {pw}", "Сеть {ssid}, пароль {pw}"],
        pin=["ПИН-код карты {bank}: {code}"],
        door=["Код домофона: {door}", "Код от калитки на даче: {door}"],
        password=["Мой пароль от {site}: {pw}"],
        secq=["Контрольный вопрос (кличка первого питомца): {pet}"],
        seed=["Сид-фраза кошелька: {words}"],
        T=dict(wifi="Wi-Fi", pin="ПИН", door="Домофон", password="Пароль", secq="Контрольный вопрос", seed="Сид-фраза"),
        F=dict(title="название", value="значение", note="заметка"), chat=("Я", "Ассистент", "Запомнил."),
    ),
    "el": dict(
        wifi=["Ο κωδικός του wifi στο σπίτι της {who} είναι {pw}"],
        pin=["Το PIN της κάρτας μου είναι {code}"],
        door=["Κωδικός εξώπορτας: {door}"],
        password=["Ο κωδικός μου για το {site}: {pw}"],
        alarm=["Κωδικός συναγερμού: {code}"],
        T=dict(wifi="Wifi", pin="PIN", door="Εξώπορτα", password="Κωδικός", alarm="Συναγερμός"),
        F=dict(title="τίτλος", value="τιμή", note="σημείωση"), chat=("Εγώ", "Βοηθός", "Αποθηκεύτηκε."),
    ),
    "he": dict(
        wifi=["הסיסמה לוויפי אצל {who} היא {pw}"],
        pin=["הקוד הסודי של כרטיס האשראי: {code}"],
        door=["הקוד לדלת הכניסה לבניין: {door}"],
        password=["הסיסמה שלי ל-{site}: {pw}"],
        safe=["הקוד של הכספת במלון: {safe}"],
        T=dict(wifi="וויפי", pin="קוד סודי", door="קוד דלת", password="סיסמה", safe="כספת"),
        F=dict(title="כותרת", value="ערך", note="הערה"), chat=("אני", "עוזר", "שמרתי."),
    ),
    "ar": dict(
        wifi=["كلمة سر الواي فاي في بيت {who} هي {pw}", "الشبكة {ssid} وكلمة المرور {pw}"],
        pin=["الرقم السري لبطاقة البنك: {code}"],
        door=["رمز باب العمارة: {door}"],
        password=["كلمة المرور الخاصة بي لـ {site}: {pw}"],
        secq=["جواب سؤال الأمان (اسم أول حيوان أليف): {pet}"],
        T=dict(wifi="واي فاي", pin="الرقم السري", door="رمز الباب", password="كلمة المرور", secq="سؤال الأمان"),
        F=dict(title="العنوان", value="القيمة", note="ملاحظة"), chat=("أنا", "المساعد", "تم الحفظ."),
    ),
    "hi": dict(
        wifi=["{who} के घर का वाईफाई पासवर्ड {pw} है"],
        pin=["मेरे एटीएम कार्ड का पिन {code} है", "UPI पिन: {code6}"],
        door=["सोसाइटी गेट का कोड {door} है"],
        password=["{site} का पासवर्ड: {pw}"],
        T=dict(wifi="वाईफाई", pin="पिन", door="गेट कोड", password="पासवर्ड"),
        F=dict(title="शीर्षक", value="मान", note="नोट"), chat=("मैं", "सहायक", "सेव कर लिया।"),
    ),
    "zh": dict(
        wifi=["{who}家的WiFi密码是{pw}", "网络 {ssid}，密码 {pw}"],
        pin=["我的银行卡密码是{code}", "手机锁屏密码：{code6}"],
        door=["小区大门密码：{door}"],
        password=["{site}的登录密码：{pw}"],
        safe=["保险柜密码是{safe}"],
        recovery=["账号的备用验证码：{codes}"],
        T=dict(wifi="WiFi", pin="银行卡密码", door="门禁密码", password="密码", safe="保险柜", recovery="备用码"),
        F=dict(title="标题", value="值", note="备注"), chat=("我", "助手", "已保存。"),
    ),
    "ja": dict(
        wifi=["{who}さんの家のWi-Fiパスワードは{pw}", "SSID {ssid} / パスワード {pw}"],
        pin=["キャッシュカードの暗証番号は{code}"],
        door=["マンションのオートロック番号：{door}"],
        password=["{site}のパスワード：{pw}"],
        locker=["ジムのロッカーの番号錠：{lock}"],
        meeting=["Zoom会議 ID {mid} パスコード {mpw}"],
        T=dict(wifi="Wi-Fi", pin="暗証番号", door="オートロック", password="パスワード", locker="ロッカー", meeting="会議"),
        F=dict(title="タイトル", value="値", note="メモ"), chat=("私", "アシスタント", "保存しました。"),
    ),
    "ko": dict(
        wifi=["{who}네 집 와이파이 비밀번호는 {pw}"],
        pin=["체크카드 비밀번호 {code}"],
        door=["아파트 공동현관 비밀번호: {door}", "현관 도어락 번호는 {door}"],
        password=["{site} 비밀번호: {pw}"],
        card=["카드번호 {card} 유효기간 {exp} CVC {cvv}"],
        T=dict(wifi="와이파이", pin="카드 비밀번호", door="도어락", password="비밀번호", card="카드"),
        F=dict(title="제목", value="값", note="메모"), chat=("나", "어시스턴트", "저장했어요."),
    ),
    "th": dict(
        wifi=["รหัสไวไฟบ้าน{who}คือ {pw}"],
        pin=["รหัส ATM ของฉันคือ {code}"],
        door=["รหัสประตูคอนโด: {door}"],
        password=["รหัสผ่าน {site}: {pw}"],
        T=dict(wifi="ไวไฟ", pin="รหัส ATM", door="รหัสประตู", password="รหัสผ่าน"),
        F=dict(title="หัวข้อ", value="ค่า", note="หมายเหตุ"), chat=("ฉัน", "ผู้ช่วย", "บันทึกแล้ว"),
    ),
    "sv": dict(
        wifi=["Wifi-lösenordet hos {who} är {pw}"],
        pin=["PIN-koden till kortet: {code}"],
        door=["Portkoden är {door}"],
        password=["Mitt lösenord till {site}: {pw}"],
        gift=["Presentkortskod: {gift}"],
        T=dict(wifi="Wifi", pin="PIN-kod", door="Portkod", password="Lösenord", gift="Presentkort"),
        F=dict(title="titel", value="värde", note="anteckning"), chat=("Jag", "Assistent", "Sparat."),
    ),
}
EN_T = dict(wifi="Wi-Fi", pin="PIN", door="Door code", alarm="Alarm code", safe="Safe", locker="Locker", gate="Gate code",
            password="Password", secq="Security answer", recovery="Backup codes", totp="TOTP seed", seed="Recovery phrase",
            card="Card", gift="Gift card", meeting="Meeting", voicemail="Voicemail PIN")

# which placeholder(s) hold the secret value for the JSON / list forms
PFIELDS = dict(wifi=["ssid", "pw"], pin=["code"], door=["door"], alarm=["code"], safe=["safe"], locker=["lock"], gate=["door"],
               password=["pw"], secq=["ans"], recovery=["codes"], totp=["seed"], seed=["words"], card=["card", "exp", "cvv"],
               gift=["gift"], meeting=["mid", "mpw"], voicemail=["code"])


SECRET_FIELDS = ["ssid", "pw", "code", "code6", "puk", "door", "safe", "lock", "ans", "pet", "maiden", "street", "teacher", "city",
                 "codes", "seed", "words", "card", "exp", "cvv", "gift", "mid", "mpw"]


def personal_value(lang, typ):
    src = EN if lang == "en" else LANGS[lang]
    tmpl = pick(src[typ])
    vals = pvals(lang)
    if typ == "secq" and "{ans}" not in tmpl:
        pass
    text = tmpl.format(**vals)
    T = EN_T if lang == "en" else src["T"]
    F = dict(title="title", value="value", note="note") if (lang == "en" or chance(0.4)) else src["F"]
    chat = ("me", "assistant", "Saved.") if lang == "en" else src["chat"]
    form = R.random()
    used = [f for f in SECRET_FIELDS if "{" + f + "}" in tmpl]
    assert used, tmpl
    if form < 0.5:
        return text
    if form < 0.66:
        me, asst, ack = chat
        return "%s: %s\n%s: %s" % (me, text, asst, ack)
    if form < 0.78:
        return "%s — %s" % (T[typ], text) if chance(0.5) else text + pick(["", " ", "  (%s)" % iso_date()])
    if form < 0.92:
        obj = {F["title"]: T[typ]}
        for f in used:
            obj[F["value"] if len(used) == 1 else f] = vals[f]
        if chance(0.6):
            obj[F["note"]] = text
        return obj
    return [T[typ]] + [str(vals[f]) for f in used] + ([vals["who"]] if chance(0.3) else [])


# ================================================================ evasions
EV_TOKEN_SLUGS = ["github-pat-classic", "gitlab-pat", "slack-bot", "stripe-secret", "openai-legacy", "anthropic", "huggingface",
                  "sendgrid", "npm", "digitalocean", "groq", "linear", "notion-legacy", "figma", "doppler", "netlify",
                  "shopify-admin", "replicate", "databricks", "tailscale", "perplexity", "postman", "sentry-auth", "dockerhub"]
VBY = {v["slug"]: v for v in VENDORS}


def ev_token():
    sp = VBY[pick(EV_TOKEN_SLUGS)]
    pairs = sp["fn"]()
    return sp["name"] + " " + pick(["token", "API key", "key"]), pairs[-1][1]


DIGIT_LABELS = ["bank card PIN", "door code", "alarm code", "safe combination", "phone unlock PIN", "garage keypad code",
                "locker code", "key-safe code", "SIM PIN", "voicemail PIN", "gate code"]
TEXT_LABELS = ["email password", "wifi password", "laptop password", "router admin password", "bank login password",
               "Netflix password", "VPN password", "work SSO password"]


def ev_digits():
    return pick(DIGIT_LABELS), pin(pick([4, 4, 5, 6]))


def ev_text():
    k = R.randrange(5)
    if k < 2:
        return ev_token()
    if k == 2:
        c = card_number()
        return "card number (exp %s, cvv %s)" % (expiry(), dg(3)), c
    return pick(TEXT_LABELS), password()


def ev_alpha():
    return ev_token() if chance(0.5) else (pick(TEXT_LABELS), password())


def ev_any():
    return ev_digits() if chance(0.3) else ev_text()


def caesar(s, n):
    out = []
    for c in s:
        if c in LO:
            out.append(LO[(LO.index(c) + n) % 26])
        elif c in UP:
            out.append(UP[(UP.index(c) + n) % 26])
        else:
            out.append(c)
    return "".join(out)


def vigenere(s, key):
    out, j = [], 0
    for c in s:
        sh = LO.index(key[j % len(key)])
        if c in LO:
            out.append(LO[(LO.index(c) + sh) % 26]); j += 1
        elif c in UP:
            out.append(UP[(UP.index(c) + sh) % 26]); j += 1
        else:
            out.append(c)
    return "".join(out)


def atbash(s):
    return "".join(LO[25 - LO.index(c)] if c in LO else UP[25 - UP.index(c)] if c in UP else c for c in s)


CYR = {"a": "а", "e": "е", "o": "о", "p": "р", "c": "с", "x": "х", "y": "у", "i": "і", "A": "А", "B": "В", "E": "Е", "K": "К",
       "M": "М", "H": "Н", "O": "О", "P": "Р", "C": "С", "T": "Т", "X": "Х"}


def homoglyph(s, p=0.6):
    return "".join(CYR[c] if c in CYR and chance(p) else c for c in s)


def fullwidth(s):
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in s)


def mathbold(s):
    out = []
    for c in s:
        if c in UP:
            out.append(chr(0x1D400 + UP.index(c)))
        elif c in LO:
            out.append(chr(0x1D41A + LO.index(c)))
        elif c in DG:
            out.append(chr(0x1D7CE + DG.index(c)))
        else:
            out.append(c)
    return "".join(out)


def mathmono(s):
    out = []
    for c in s:
        if c in UP:
            out.append(chr(0x1D670 + UP.index(c)))
        elif c in LO:
            out.append(chr(0x1D68A + LO.index(c)))
        elif c in DG:
            out.append(chr(0x1D7F6 + DG.index(c)))
        else:
            out.append(c)
    return "".join(out)


def insert_every(s, ch, k=None):
    out = []
    for i, c in enumerate(s):
        out.append(c)
        if i < len(s) - 1 and (k is None and chance(0.35) or k and (i + 1) % k == 0):
            out.append(ch)
    return "".join(out)


DIGWORDS = {
    "en": "zero one two three four five six seven eight nine".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf".split(),
    "de": "null eins zwei drei vier fünf sechs sieben acht neun".split(),
    "it": "zero uno due tre quattro cinque sei sette otto nove".split(),
    "pt": "zero um dois três quatro cinco seis sete oito nove".split(),
    "pl": "zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć".split(),
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz".split(),
    "ru": "ноль один два три четыре пять шесть семь восемь девять".split(),
    "ja": "ゼロ いち に さん よん ご ろく なな はち きゅう".split(),
    "zh": "零 一 二 三 四 五 六 七 八 九".split(),
    "hi": "शून्य एक दो तीन चार पाँच छह सात आठ नौ".split(),
    "ar": "صفر واحد اثنان ثلاثة أربعة خمسة ستة سبعة ثمانية تسعة".split(),
    "sw": "sifuri moja mbili tatu nne tano sita saba nane tisa".split(),
    "ko": "영 일 이 삼 사 오 육 칠 팔 구".split(),
    "id": "nol satu dua tiga empat lima enam tujuh delapan sembilan".split(),
}
DIGLEAD = {"en": "the {l} is", "es": "el código de la puerta es", "fr": "le code de la porte d'entrée :", "de": "der Türcode lautet",
           "it": "il codice del cancello è", "pt": "o PIN do cartão é", "pl": "PIN do karty to", "tr": "kart şifresi", "ru": "код домофона:",
           "ja": "キャッシュカードの暗証番号は", "zh": "银行卡密码是", "hi": "एटीएम पिन है", "ar": "الرقم السري للبطاقة هو",
           "sw": "PIN ya M-Pesa ni", "ko": "도어락 비밀번호는", "id": "PIN ATM-ku"}
NATIVE_DIGITS = {"devanagari": "०१२३४५६७८९", "arabic-indic": "٠١٢٣٤٥٦٧٨٩", "persian": "۰۱۲۳۴۵۶۷۸۹", "thai": "๐๑๒๓๔๕๖๗๘๙",
                 "bengali": "০১২৩৪৫৬৭৮৯", "circled": "⓪①②③④⑤⑥⑦⑧⑨", "superscript": "⁰¹²³⁴⁵⁶⁷⁸⁹", "fullwidth": "０１２３４５６７８９"}
NATO = dict(zip(LO, "alfa bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu".split()))
MORSE = dict(zip(LO + DG, ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- -.-- --.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----.".split()))
ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX",
         "XX", "XXI", "XXII", "XXIII", "XXIV", "XXV", "XXVI", "XXVII", "XXVIII", "XXIX", "XXX", "XXXI", "XXXII", "XXXIII", "XXXIV", "XXXV", "XXXVI", "XXXVII", "XXXVIII", "XXXIX"]


def chunks(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def nsplit(s, k):
    size = -(-len(s) // k)
    return chunks(s, size)


EVASIONS = []


def E(slug):
    def deco(fn):
        EVASIONS.append((slug, fn))
        return fn
    return deco


@E("base64-token")
def _(ctx):
    l, s = ev_text()
    return pick(["%s, base64'd so it doesn't show in screenshots: %s", "%s (b64) = %s", "stored the %s as base64 → %s"]) % (l, b64s(s.encode()))


@E("base64-sentence")
def _(ctx):
    l, s = ev_any()
    return "memo: " + b64s(("%s: %s" % (l, s)).encode())


@E("base64-userpass-object")
def _(ctx):
    u = first().lower()
    return {"service": pick(["NAS", "router", "printer admin", "Jenkins", "pfSense"]), "encoding": "base64(user:pass)", "blob": b64s(("%s:%s" % (u, password())).encode())}


@E("data-uri-base64")
def _(ctx):
    l, s = ev_text()
    return "%s → data:text/plain;base64,%s" % (l, b64s(s.encode()))


@E("hex-token")
def _(ctx):
    l, s = ev_text()
    return pick(["%s in hex: %s", "hex-encoded %s %s — decode with xxd -r -p", "%s = 0x%s"]) % (l, s.encode().hex())


@E("hex-spaced-bytes")
def _(ctx):
    l, s = ev_any()
    return "%s bytes: %s" % (l, " ".join("%02X" % b for b in s.encode()))


@E("url-encoded-all")
def _(ctx):
    l, s = ev_text()
    return "%s=%s" % (l.replace(" ", "_"), "".join("%%%02X" % b for b in s.encode()))


@E("base32")
def _(ctx):
    l, s = ev_any()
    return pick(["%s (base32): %s", "b32 %s → %s"]) % (l, base64.b32encode(s.encode()).decode())


@E("layered-base64-of-hex")
def _(ctx):
    l, s = ev_text()
    return "%s — base64, then hex-decode: %s" % (l, b64s(s.encode().hex().encode()))


@E("double-base64")
def _(ctx):
    l, s = ev_text()
    return {"label": l, "value": b64s(b64s(s.encode()).encode()), "how": "base64 decode twice"}


@E("reversed-base64")
def _(ctx):
    l, s = ev_text()
    return "%s, base64 written backwards: %s" % (l, b64s(s.encode())[::-1])


@E("zlib-base64")
def _(ctx):
    l, s = ev_text()
    return "%s (zlib+base64): %s" % (l, b64s(zlib.compress(s.encode(), 9)))


@E("ascii85")
def _(ctx):
    l, s = ev_text()
    return "%s, ascii85: <~%s~>" % (l, base64.a85encode(s.encode()).decode())


@E("uuencode")
def _(ctx):
    l, s = ev_text()
    return "begin 644 %s.txt\n%send" % (l.replace(" ", "_"), "".join(binascii.b2a_uu(c).decode() for c in chunks(s.encode(), 45)) + "`\n")


@E("quoted-printable-all")
def _(ctx):
    l, s = ev_text()
    return "Content-Transfer-Encoding: quoted-printable\n\n%s: %s" % (l, "".join("=%02X" % b for b in s.encode()))


@E("rot13")
def _(ctx):
    l, s = ev_alpha()
    return pick(["%s (rot13, obviously): %s", "rot13 → %s: %s", "%s rot13'd: %s"]) % (l, codecs.encode(s, "rot13"))


@E("caesar-shift")
def _(ctx):
    l, s = ev_alpha()
    n = R.randint(2, 11)
    return "%s shifted %d letters forward (Caesar): %s" % (l, n, caesar(s, n))


@E("vigenere")
def _(ctx):
    l, s = ev_alpha()
    key = pick(["lemon", "otter", "harbor", "quince", "maple"])
    return "%s encrypted with Vigenère, key '%s': %s" % (l, key, vigenere(s, key))


@E("xor-hex")
def _(ctx):
    l, s = ev_text()
    k = R.randint(1, 255)
    return "%s XOR 0x%02x, hex: %s" % (l, k, bytes(b ^ k for b in s.encode()).hex())


@E("atbash")
def _(ctx):
    l, s = ev_alpha()
    return "%s (atbash): %s" % (l, atbash(s))


@E("case-swap")
def _(ctx):
    l, s = ev_token()
    return "%s with upper/lower case swapped: %s" % (l, s.swapcase())


@E("digit-offset")
def _(ctx):
    l, s = ev_digits()
    n = R.randint(1, 6)
    enc = "".join(str((int(c) + n) % 10) for c in s)
    return pick(["%s: %s (each digit +{n}, undo mod 10)", "%s is stored as %s — subtract {n} from every digit"]).format(n=n) % (l, enc)


@E("arithmetic")
def _(ctx):
    l, s = ev_digits()
    a = R.randint(1, int(s) - 1) if int(s) > 2 else 0
    return "%s = %d + %d" % (l, a, int(s) - a) if s[0] != "0" else "%s = '%s' (no maths needed)" % (l, s)


@E("split-fields")
def _(ctx):
    l, s = ev_text()
    a, b = nsplit(s, 2)
    return {"what": l, "part_1": a, "part_2": b, "note": "concatenate"}


@E("split-fields-shuffled")
def _(ctx):
    l, s = ev_text()
    parts = nsplit(s, 3)
    return {"c": parts[2], "a": parts[0], "b": parts[1], "label": l, "order": "a+b+c"}


@E("split-list")
def _(ctx):
    l, s = ev_text()
    return [l + " (join the pieces)"] + nsplit(s, R.randint(3, 5))


@E("split-prose")
def _(ctx):
    l, s = ev_text()
    a, b = nsplit(s, 2)
    return "The first half of the %s is %s. Unrelated: dentist on %s. Second half: %s" % (l, a, pick(WEEKDAYS), b)


@E("split-record-key")
def _(ctx):
    name, n = pick([("Datadog API key", 32), ("Linode token", 64), ("Mailgun signing key", 32), ("PagerDuty routing key", 32), ("Infura secret", 32)])
    full = hx(n)
    cut = R.randint(12, min(24, n - 8))
    ctx["key"] = "mem_" + full[:cut]
    return pick(["%s: the hex after mem_ in this record's key, followed by %s", "%s = <memory key without the mem_ prefix> + %s"]) % (name, full[cut:])


@E("split-namespace")
def _(ctx):
    l, s = ev_token()
    a, b = nsplit(s, 2)
    ctx["ns_extra"] = a
    return "%s continues from the folder name: ...%s" % (l, b)


@E("spaced-chars")
def _(ctx):
    l, s = ev_text()
    return "%s: %s" % (l, " ".join(s))


@E("dash-chunks")
def _(ctx):
    l, s = ev_token()
    return "%s, grouped for reading (drop the dashes): %s" % (l, "-".join(chunks(s, 4)))


@E("dot-separated")
def _(ctx):
    l, s = ev_any()
    return "%s — %s" % (l, ".".join(s))


@E("pipe-separated")
def _(ctx):
    l, s = ev_text()
    return "%s |%s|" % (l, "|".join(chunks(s, 3)))


@E("newline-per-char")
def _(ctx):
    l, s = ev_any()
    return l + ":\n" + "\n".join(s)


@E("tab-separated-chunks")
def _(ctx):
    l, s = ev_text()
    return l + "\t" + "\t".join(chunks(s, 5))


@E("homoglyph-token")
def _(ctx):
    l, s = ev_token()
    return "%s: %s" % (l, homoglyph(s))


@E("homoglyph-keyword")
def _(ctx):
    l, s = pick(TEXT_LABELS), password()
    return "%s %s" % (homoglyph(pick(["my password is", "the wifi password:", "passcode ="]), 0.9), s)


@E("zero-width-space")
def _(ctx):
    l, s = ev_text()
    return "%s: %s" % (l, insert_every(s, "\u200b"))


@E("zero-width-joiner")
def _(ctx):
    l, s = ev_any()
    return "%s → %s" % (l, insert_every(s, pick(["\u200d", "\u200c"]), 2))


@E("soft-hyphen")
def _(ctx):
    l, s = ev_text()
    return "%s %s" % (l, insert_every(s, "\u00ad", 3))


@E("word-joiner")
def _(ctx):
    l, s = ev_text()
    return "%s = %s" % (l, insert_every(s, "\u2060"))


@E("bom-and-invisible-mix")
def _(ctx):
    l, s = ev_text()
    return "%s: %s" % (l, "".join(c + pick(["", "", "\ufeff", "\u2062", "\u2063", "\u200b"]) for c in s))


@E("unicode-tag-chars")
def _(ctx):
    l, s = ev_text()
    return pick(["note to self 🙂", "see hidden text", "remember this"]) + " (%s hidden in tag characters)" % l + "".join(chr(0xE0000 + ord(c)) for c in s)


@E("rtl-override")
def _(ctx):
    l, s = ev_text()
    return "%s: \u202e%s\u202c" % (l, s[::-1])


@E("fullwidth")
def _(ctx):
    l, s = ev_text()
    return "%s: %s" % (l, fullwidth(s))


@E("math-bold")
def _(ctx):
    l, s = ev_any()
    return "%s %s" % (l, mathbold(s))


@E("math-monospace")
def _(ctx):
    l, s = ev_text()
    return "%s: %s" % (l, mathmono(s))


for _lang in ["en", "es", "fr", "de", "it", "pt", "pl", "tr", "ru", "ja", "zh", "hi", "ar", "sw", "ko", "id"]:
    def _mk(lang):
        def f(ctx):
            l, s = ev_digits()
            words = [DIGWORDS[lang][int(c)] for c in s]
            sep = "" if lang in ("zh",) else pick([" ", " ", "-", ", "])
            lead = DIGLEAD[lang].format(l=l)
            return "%s %s" % (lead, sep.join(words))
        return f
    EVASIONS.append(("spelled-digits-" + _lang, _mk(_lang)))

for _nd in ["devanagari", "arabic-indic", "persian", "thai", "bengali", "circled", "superscript", "fullwidth"]:
    def _mk2(nd):
        def f(ctx):
            l, s = ev_digits()
            return "%s: %s" % (l, "".join(NATIVE_DIGITS[nd][int(c)] for c in s))
        return f
    EVASIONS.append(("native-digits-" + _nd, _mk2(_nd)))


@E("reversed-text")
def _(ctx):
    l, s = ev_any()
    return pick(["%s, written backwards: %s", "(read right to left) %s %s"]) % (l, s[::-1])


@E("reversed-sentence")
def _(ctx):
    l, s = ev_any()
    return ("the %s is %s" % (l, s))[::-1]


@E("nato-phonetic")
def _(ctx):
    s = password()
    out = []
    for c in s:
        if c.lower() in NATO:
            out.append(("capital " if c.isupper() else "") + NATO[c.lower()])
        elif c in DG:
            out.append(DIGWORDS["en"][int(c)])
        else:
            out.append(repr(c))
    return "%s spelled out: %s" % (pick(TEXT_LABELS), " ".join(out))


@E("python-join")
def _(ctx):
    l, s = ev_text()
    return "# %s\nSECRET = \"\".join(%s)" % (l, json.dumps(nsplit(s, R.randint(3, 6))))


@E("js-concat")
def _(ctx):
    l, s = ev_text()
    return "// %s\nconst k = %s;" % (l, " + ".join(json.dumps(p) for p in nsplit(s, R.randint(2, 5))))


@E("bash-printf-hex")
def _(ctx):
    l, s = ev_text()
    return "# %s\nexport PASS=$(printf '%s')" % (l, "".join("\\x%02x" % b for b in s.encode()))


@E("chr-codes")
def _(ctx):
    l, s = ev_text()
    return "%s = ''.join(map(chr, %s))" % (l.replace(" ", "_"), [ord(c) for c in s])


@E("decimal-codes-array")
def _(ctx):
    l, s = ev_any()
    return [l, "char codes"] + [ord(c) for c in s]


@E("octal-escapes")
def _(ctx):
    l, s = ev_text()
    return "%s: \"%s\"" % (l, "".join("\\%03o" % b for b in s.encode()))


@E("unicode-escapes")
def _(ctx):
    l, s = ev_text()
    return "%s: %s" % (l, "".join("\\u%04x" % ord(c) for c in s))


@E("html-entities")
def _(ctx):
    l, s = ev_text()
    return "<p>%s: %s</p>" % (l, "".join(pick(["&#%d;", "&#x%x;"]) % ord(c) for c in s))


@E("binary-bytes")
def _(ctx):
    l, s = ev_any()
    return "%s: %s" % (l, " ".join(format(b, "08b") for b in s.encode()))


@E("morse")
def _(ctx):
    l, s = pick([ev_digits, lambda: (pick(TEXT_LABELS), "".join(pick(LO + DG) for _ in range(R.randint(8, 12))))])()
    return "%s in morse: %s" % (l, " / ".join(MORSE[c] for c in s.lower()))


@E("emoji-keycaps")
def _(ctx):
    l, s = ev_digits()
    return "%s %s" % (l, "".join(c + "\ufe0f\u20e3" for c in s))


@E("roman-combination")
def _(ctx):
    nums = [R.randint(1, 39) for _ in range(3)]
    return "%s: %s" % (pick(["locker combination", "safe dial", "padlock combo"]), "-".join(ROMAN[n] for n in nums))


@E("interleaved-filler")
def _(ctx):
    l, s = ev_text()
    return "%s — keep only every second character: %s" % (l, "".join(c + pick(LO + DG) for c in s))


@E("acrostic")
def _(ctx):
    s = rs(UP + LO, R.randint(8, 10))
    lines = [c + pick(["... ", "ike ", "nd ", "ver ", "ne "]) + " ".join(pick(WORDS) for _ in range(3)) for c in s]
    return "The %s is the first letter of each line:\n%s" % (pick(TEXT_LABELS), "\n".join(lines))


@E("markdown-table-split")
def _(ctx):
    l, s = ev_text()
    parts = nsplit(s, 3)
    return "| %s | col1 | col2 | col3 |\n|---|---|---|---|\n| concat → | %s | %s | %s |" % (l, parts[0], parts[1], parts[2])


@E("byte-array-json")
def _(ctx):
    l, s = ev_text()
    return {"label": l, "bytes": list(s.encode()), "decode": "utf-8"}


@E("rot13-then-base64")
def _(ctx):
    l, s = ev_alpha()
    return "%s: base64 then rot13 → %s" % (l, b64s(codecs.encode(s, "rot13").encode()))


@E("base64-split-fields")
def _(ctx):
    l, s = ev_text()
    b = b64s(s.encode())
    a, c = nsplit(b, 2)
    return {"name": l, "b64_head": a, "b64_tail": c}


@E("hex-reversed")
def _(ctx):
    l, s = ev_text()
    return "%s hex, reversed byte order: %s" % (l, s.encode()[::-1].hex())


@E("bracket-words")
def _(ctx):
    u, dom = first().lower(), pick(["gmail.com", "outlook.com", "proton.me"])
    pw = password()
    return "login %s [at] %s, pass %s" % (u, dom, " ".join(pw).replace(".", "[dot]"))


@E("decoy-fields")
def _(ctx):
    l, s = ev_text()
    a, b = nsplit(s, 2)
    return {"x1": an(len(a)), "real_1": a, "x2": an(len(b)), "real_2": b, "hint": "%s = real_1+real_2, x* are noise" % l}


@E("vertical-columns")
def _(ctx):
    l, s = ev_text()
    half = nsplit(s, 2)
    rows = [(half[0][i] if i < len(half[0]) else " ") + " " + (half[1][i] if i < len(half[1]) else " ") for i in range(len(half[0]))]
    return "%s (read column 1 top-down, then column 2):\n%s" % (l, "\n".join(rows))


@E("ciphered-pin-chat")
def _(ctx):
    l, s = ev_digits()
    return "me: %s backwards is %s\nassistant: Noted, I'll reverse it when you ask." % (l, s[::-1])


@E("key-and-ns-split")
def _(ctx):
    full = hx(40)
    ctx["key"] = "mem_" + full[:16]
    ctx["ns_extra"] = full[16:28]
    return "New Relic ingest key = hex of this record's key (after mem_) + the folder name + %s" % full[28:]


@E("obfuscated-sql")
def _(ctx):
    pw = password()
    return "UPDATE users SET pwd = CONCAT(%s) WHERE login = '%s'; -- my real password" % (", ".join("'%s'" % p.replace("'", "''") for p in nsplit(pw, 3)), first().lower())


@E("url-param-encoded-password")
def _(ctx):
    pw = password() + pick(["@", "#", "/", ":"]) + dg(2)
    return "jdbc url: jdbc:postgresql://db.%s.example.com:5432/app?user=admin&password=%s" % (proj(), "".join("%%%02X" % b for b in pw.encode()))


# ================================================================ benign look-alikes
LOOK = []


def L(slug, n=2):
    def deco(fn):
        LOOK.append((slug, fn, n))
        return fn
    return deco


AWS_DOC_ID = "AKIAIOSFODNN7EXAMPLE"
AWS_DOC_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
JWT_IO = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
SLACK_DOC = "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"


@L("stripe-publishable-key", 3)
def _():
    k = "pk_live_51" + an(97)
    return pick(["Stripe publishable key for the checkout page (it's the public one, fine to ship in the frontend bundle): %s",
                 "checkout.js config → publishableKey: '%s'  (pk_ = public; the secret key is only on the server, not here)",
                 "Frontend env: NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=%s  # publishable, safe to expose"]) % k


@L("stripe-test-secret-sandbox", 2)
def _():
    k = "sk_test_51" + an(97)
    return pick(["Stripe TEST mode secret for the sandbox account (test data only, no real charges): %s" % k,
                 {"env": "sandbox", "note": "Stripe test-mode key, only works against test data", "STRIPE_KEY": k},
                 "%s is the Stripe sandbox test key from the tutorial repo, test mode only" % k])


@L("google-maps-browser-key", 2)
def _():
    k = "AIza" + rs(B64U, 35)
    return pick(["Maps JS key embedded in the public store-locator page: %s — restricted to *.%s.example.com referrers, it's a browser key so it is public anyway",
                 "<script src=\"https://maps.googleapis.com/maps/api/js?key=%s&callback=initMap\"></script> (public browser key, HTTP-referrer restricted)"]) % (k, proj()) if chance(0.5) else "<script src=\"https://maps.googleapis.com/maps/api/js?key=%s&callback=initMap\"></script> <!-- public browser key, referrer-restricted -->" % k


@L("firebase-web-config", 2)
def _():
    p = proj() + "-" + dg(4)
    return {"note": "Firebase web config for the PWA — these values are public client identifiers, security comes from rules",
            "firebaseConfig": {"apiKey": "AIza" + rs(B64U, 35), "authDomain": p + ".firebaseapp.com", "projectId": p,
                               "storageBucket": p + ".appspot.com", "messagingSenderId": dgnz(12), "appId": "1:%s:web:%s" % (dgnz(12), hx(22))}}


@L("supabase-anon-key", 2)
def _():
    ref = rs(ANL, 20)
    k = jwt({"iss": "supabase", "ref": ref, "role": "anon", "iat": 17 * 10 ** 8 + R.randint(0, 10 ** 7), "exp": 20 * 10 ** 8 + R.randint(0, 10 ** 7)})
    return pick(["Supabase anon (public) key for the web client: %s — row level security is on; the service_role key is NOT in this note",
                 "NEXT_PUBLIC_SUPABASE_ANON_KEY=%s\n# anon key is meant to be public"]) % k


@L("mapbox-public-token", 2)
def _():
    return "Mapbox default public token (pk.) used on the hiking map: pk.eyJ1Ijoi%s.%s — public scopes only" % (b64u_nopad(('%s","a":"%s"}' % (pick(ORGS), rs(ANL, 25))).encode()), rs(B64U, 22))


@L("posthog-project-key", 2)
def _():
    return pick(["PostHog project API key (phc_, public, write-only for events): phc_%s", "posthog.init('phc_%s', {api_host: 'https://eu.i.posthog.com'}) // public project key"]) % an(43)


@L("algolia-search-only-key", 2)
def _():
    return {"algolia": {"appId": rs(ANU, 10), "searchOnlyApiKey": hx(32)}, "comment": "search-only key, it ships in the docs site JS; admin key is elsewhere"}


@L("recaptcha-site-key", 2)
def _():
    return "reCAPTCHA site key for the contact form: 6L%s (the site key is public; the secret key is in the server's secret store)" % rs(B64U, 38)


@L("oauth-client-id-public", 2)
def _():
    return "Google Sign-In client ID for the SPA: %s-%s.apps.googleusercontent.com — client IDs are public, no client secret is used (PKCE)" % (dgnz(12), rs(ANL, 32))


@L("vapid-public-key", 1)
def _():
    return "Web push VAPID *public* key to paste in the service worker: B%s" % rs(B64U, 86)


@L("aws-docs-example-key", 2)
def _():
    return pick(["From the AWS docs, the example credentials are %s / %s — these are the documentation's fake example values, useful for testing the redaction regex.",
                 "[default]\n# example values copied from the AWS CLI guide, not real\naws_access_key_id = %s\naws_secret_access_key = %s"]) % (AWS_DOC_ID, AWS_DOC_SECRET)


@L("jwt-io-sample", 2)
def _():
    return pick(["The sample token on jwt.io (sub 1234567890, name John Doe) decodes fine in our debugger: %s",
                 "unit test fixture: the well-known jwt.io example token %s — it is the public documentation example"]) % JWT_IO


@L("slack-docs-placeholder-webhook", 1)
def _():
    return "Slack docs show webhook URLs like %s — replace with your own; don't commit the real one" % SLACK_DOC


@L("placeholder-angle-brackets", 2)
def _():
    return pick(["curl -H \"Authorization: Bearer <YOUR_API_KEY>\" https://api.%s.example.com/v2/items", "export OPENAI_API_KEY=<paste-your-key-here>\n# %s setup step 3",
                 "Config template: api_key = \"YOUR_API_KEY_HERE\"  # %s"]) % proj()


@L("env-example-empty", 2)
def _():
    keys = R.sample(["DATABASE_URL", "STRIPE_SECRET_KEY", "SENDGRID_API_KEY", "JWT_SECRET", "REDIS_PASSWORD", "S3_SECRET_ACCESS_KEY", "GITHUB_TOKEN", "SMTP_PASSWORD"], 4)
    return "# .env.example — copy to .env and fill in\n" + "\n".join("%s=%s" % (k, pick(["", "", "changeme_in_env", "<secret>", "xxx"]).replace("changeme_in_env", "")) for k in keys) + "\nAPP_PORT=8080"


@L("shell-var-reference", 2)
def _():
    return pick(["psql \"postgresql://app:${DB_PASSWORD}@db.%s.internal:5432/app\"", "mysql -u root -p\"$MYSQL_ROOT_PASSWORD\" %s_prod",
                 "docker login -u %s --password-stdin < ~/.secrets/ghcr_token"]) % proj()


@L("gha-secrets-reference", 2)
def _():
    return "- name: Publish\n  run: npm publish\n  env:\n    NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}\n    %s_API_KEY: ${{ secrets.%s_API_KEY }}" % ((proj().upper(),) * 2)


@L("template-secrets-reference", 2)
def _():
    return pick(["db_password: \"{{ secrets.DB_PASSWORD }}\"\nsmtp_password: \"{{ vault('secret/data/%s/smtp', 'password') }}\"",
                 "password: {{ .Values.postgresql.auth.password | quote }}  # comes from the %s-values secret", "api_key = \"%%(api_key)s\"  # interpolated at runtime for %s"]) % proj()


@L("k8s-secretkeyref", 2)
def _():
    return "env:\n  - name: DATABASE_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: %s-db\n        key: password\n  - name: LOG_LEVEL\n    value: info" % proj()


@L("vault-path-reference", 2)
def _():
    return pick(["The prod DB creds live in Vault at secret/data/%s/prod/postgres (role app-ro); `vault kv get` to read them, never paste them in chat." % proj(),
                 "Stripe secret is referenced as vault://kv/%s/stripe#secret_key in the deploy manifest" % proj()])


@L("aws-secretsmanager-arn", 2)
def _():
    return "Lambda reads its token from arn:aws:secretsmanager:eu-west-1:%s:secret:%s/api-token-%s at cold start" % (dg(12), proj(), an(6))


@L("gcp-secret-manager-ref", 1)
def _():
    return "secret ref: projects/%s/secrets/%s-sendgrid-key/versions/latest (mounted at /secrets/sendgrid)" % (dgnz(12), proj())


@L("onepassword-reference", 2)
def _():
    return pick(["op run --env-file=.env.tpl -- ./deploy.sh   # .env.tpl has GITHUB_TOKEN=op://Engineering/%s-ci/credential",
                 "Wifi password for the office is in 1Password under 'Office Wi-Fi (%s)', shared vault"]) % proj()


@L("azure-keyvault-reference", 1)
def _():
    return "App setting: DbPassword = @Microsoft.KeyVault(SecretUri=https://kv-%s.vault.azure.net/secrets/db-password/)" % proj()


@L("sops-ciphertext", 2)
def _():
    return "db:\n    password: ENC[AES256_GCM,data:%s,iv:%s,tag:%s,type:str]\nsops:\n    kms:\n        - arn: arn:aws:kms:eu-west-1:%s:key/%s\n    version: 3.8.1" % (b64s(rbytes(18)), b64s(rbytes(32)), b64s(rbytes(16)), dg(12), uuid4())


@L("ansible-vault-ciphertext", 2)
def _():
    body = hx(64 * 5)
    return "group_vars/prod/vault.yml:\n$ANSIBLE_VAULT;1.1;AES256\n" + "\n".join(chunks(body, 80)) + "\n(vault password is on the ops laptop, not here)"


@L("sealed-secret", 2)
def _():
    return "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: %s-api\nspec:\n  encryptedData:\n    API_TOKEN: AgB%s" % (proj(), rs(B64, 300))


@L("age-encrypted-file", 1)
def _():
    body = b64s(rbytes(180))
    return "backup.tar.age header:\n-----BEGIN AGE ENCRYPTED FILE-----\n%s\n-----END AGE ENCRYPTED FILE-----\nrecipient is my YubiKey identity" % "\n".join(chunks(body, 64))


@L("pgp-encrypted-message", 2)
def _():
    return "-----BEGIN PGP MESSAGE-----\n\n%s\n=%s\n-----END PGP MESSAGE-----" % ("\n".join(rs(B64, 64) for _ in range(5)), rs(B64, 4))


@L("kms-ciphertext-blob", 2)
def _():
    return {"CiphertextBlob": "AQICAHh" + rs(B64, 180) + "==", "KeyId": "alias/%s-config" % proj(), "note": "decrypt with kms decrypt; plaintext never stored"}


@L("rails-credentials-enc", 1)
def _():
    return "config/credentials/production.yml.enc = %s--%s--%s (master key is in the team password manager)" % (rs(B64, 120), rs(B64, 22) + "==", rs(B64, 22) + "==")


@L("password-policy", 3)
def _():
    return pick(["Password policy for the new HR portal: at least %d characters, one number, one symbol, no reuse of last 5, expires every 90 days.",
                 {"policy": "passwords", "min_length": R.randint(10, 16), "require": ["upper", "lower", "digit", "symbol"], "lockout_after": R.randint(3, 6)},
                 "Bank says the online PIN must be 6 digits and can't be a sequence like 123456 or my birth year."]) if chance(0.67) else "Password rules at %s: min %d chars, passphrase allowed, MFA mandatory." % (pick(ORGS), R.randint(12, 20))


@L("bcrypt-hash", 2)
def _():
    h = "$2b$12$" + rs("./" + AN, 53)
    return pick(["users row: id=%d email=%s password_hash=%s" % (R.randint(10, 999), email(), h), "seed fixture password hash (bcrypt, cost 12): %s" % h])


@L("argon2-hash", 1)
def _():
    return "$argon2id$v=19$m=65536,t=3,p=4$%s$%s" % (rs(B64.replace("+", "").replace("/", ""), 22), rs(B64.replace("+", "").replace("/", ""), 43))


@L("shadow-sha512crypt", 1)
def _():
    return "%s:$6$%s$%s:19%d:0:99999:7:::" % (first().lower(), rs("./" + AN, 16), rs("./" + AN, 86), R.randint(100, 999))


@L("django-pbkdf2-hash", 1)
def _():
    return {"model": "auth.user", "fields": {"username": first().lower(), "password": "pbkdf2_sha256$870000$%s$%s=" % (an(22), rs(B64, 43))}}


@L("rotation-statement", 3)
def _():
    return pick(["Rotated the %s key on %s after the contractor left; new value is in Vault, old one revoked." % (pick(["Stripe", "SendGrid", "Datadog", "GitHub deploy"]), date_str()),
                 "%s reset the router admin password yesterday. I don't have the new one yet." % first(),
                 "Moved all the CI tokens from the repo settings into Doppler; nothing is hard-coded anymore.",
                 "reminder: the AWS keys for %s expire on %s, ask %s to issue new ones" % (proj(), iso_date(), first())])


@L("revoked-token-masked", 2)
def _():
    return pick(["Revoked ghp_****%s (leaked in a gist). Replacement issued, not recorded here." % an(4), "GitLab token ending …%s was revoked on %s" % (an(4), date_str())])


@L("masked-card", 2)
def _():
    return pick(["Netflix is billed to the card ending %s (exp %s)." % (dg(4), expiry()), "**** **** **** %s — the joint account card, I'll pay the plumber with it" % dg(4),
                 {"payment_method": "visa", "last4": dg(4), "brand_display": "•••• " + dg(4)}])


@L("masked-api-key", 2)
def _():
    return pick(["Dashboard shows the live key as sk_live_••••••••••%s; nobody has the full value except the billing service." % an(4),
                 "API keys page: %s…%s (created %s) — full key is only shown once" % (pick(["sk-proj-", "xoxb-", "SG.", "glpat-"]), an(4), iso_date())])


@L("redacted-log", 2)
def _():
    return "%s ERROR upstream 401 POST /v1/charges headers={'Authorization': 'Bearer [REDACTED]', 'Idempotency-Key': '%s'}" % (iso_date() + "T%02d:%02d:%02dZ" % (R.randint(0, 23), R.randint(0, 59), R.randint(0, 59)), uuid4())


@L("git-commit-sha", 2)
def _():
    return pick(["Bug was introduced in commit %s, fixed in %s." % (hx(40), hx(12)), "deployed %s to prod; rollback target is %s" % (hx(40), hx(40))])


@L("docker-image-digest", 2)
def _():
    return "image: ghcr.io/%s/%s@sha256:%s" % (pick(ORGS), proj(), hx(64))


@L("sha256-checksum", 2)
def _():
    return "%s  %s-%d.%d.%d-linux-amd64.tar.gz" % (hx(64), proj(), R.randint(0, 3), R.randint(0, 20), R.randint(0, 9))


@L("npm-integrity", 1)
def _():
    return "\"integrity\": \"sha512-%s==\"" % rs(B64, 86)


@L("uuid-identifiers", 2)
def _():
    return pick(["Support ticket request id %s — they said to quote it when calling." % uuid4(), {"trace_id": hx(32), "span_id": hx(16), "traceparent": "00-%s-%s-01" % (hx(32), hx(16))}])


@L("ssh-public-key", 2)
def _():
    return "my public key for the new server's authorized_keys: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI%s %s@laptop" % (rs(B64, 43), first().lower())


@L("pgp-public-key", 1)
def _():
    return "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n%s\n=%s\n-----END PGP PUBLIC KEY BLOCK-----" % ("\n".join(rs(B64, 64) for _ in range(6)), rs(B64, 4))


@L("x509-certificate", 2)
def _():
    return "Public cert for the mTLS client (safe to share):\n" + pem("CERTIFICATE", 700)


@L("jwk-public", 1)
def _():
    return {"keys": [{"kty": "EC", "crv": "P-256", "kid": proj() + "-2025", "use": "sig", "x": rs(B64U, 43), "y": rs(B64U, 43)}], "note": "public JWKS served at /.well-known/jwks.json"}


@L("age-public-recipient", 1)
def _():
    return "encrypt backups to my age public key: age1%s" % rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)


@L("wireguard-public-key", 1)
def _():
    return "[Peer]\n# %s's phone — public key only\nPublicKey = %s\nAllowedIPs = 10.8.0.%d/32" % (first(), b64s(rbytes(32)), R.randint(2, 250))


@L("ssh-host-fingerprint", 1)
def _():
    return "server fingerprint when connecting to bastion.%s: ED25519 key SHA256:%s" % (proj(), rs(B64, 43))


@L("eth-address", 2)
def _():
    return pick(["Send the refund to my ETH address 0x%s (public address, not the key)" % hx(40), "Donation wallet (public): 0x%s" % hx(40)])


@L("eth-tx-hash", 1)
def _():
    return "transaction hash for the rent payment: 0x%s" % hx(64)


@L("btc-address", 1)
def _():
    return "my BTC receive address: bc1q%s" % rs("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 38)


@L("pgp-fingerprint", 1)
def _():
    return "Verify my GPG key fingerprint: %s" % " ".join(chunks(HX(40), 4))


@L("cloud-resource-ids", 2)
def _():
    return pick(["prod box is i-0%s in vpc-0%s, security group sg-0%s" % (hx(16), hx(16), hx(16)), "KMS key id %s (alias/%s-data)" % (uuid4(), proj()),
                 "AWS account %s is the sandbox org; prod is %s" % (dg(12), dg(12))])


@L("tracking-number", 3)
def _():
    return pick(["UPS tracking 1Z%s%s" % (rs(ANU, 6), dg(10)), "DHL parcel %s should arrive %s" % (dg(10), pick(WEEKDAYS)),
                 "Royal Mail tracked: %s%sGB" % (rs(UP, 2), dg(9)), "USPS tracking %s" % ("9400" + dg(18))])


@L("order-number", 2)
def _():
    return pick(["Amazon order %s-%s-%s — the kettle, returnable until %s" % (dg(3), dg(7), dg(7), date_str()), "IKEA order no. %s, delivery window %s" % (dg(10), pick(WEEKDAYS))])


@L("booking-reference", 3)
def _():
    return pick(["Flight booking ref %s, e-ticket %s, seat %d%s" % (rs(ANU.replace("0", "").replace("O", ""), 6), "%s-%s" % (dg(3), dg(10)), R.randint(1, 40), pick("ABCDEF")),
                 "Hotel confirmation number %s for %s" % (dg(9), pick(CITIES)), "Train: coach %d seat %d, booking %s" % (R.randint(1, 12), R.randint(1, 80), rs(ANU, 8))])


@L("gate-flight-seat-numbers", 2)
def _():
    return "%s %s departs gate %s%d at %02d:%02d, boarding group %d" % (pick(["LH", "TP", "KL", "BA", "TK", "AF"]), R.randint(100, 9999), pick("ABCDE"), R.randint(1, 60), R.randint(5, 22), pick([0, 10, 25, 40, 55]), R.randint(1, 6))


@L("room-number", 3)
def _():
    return pick(["Conference is in room %d on the 4th floor" % R.randint(100, 9999), "Hotel room %d — breakfast 7–10 on floor 1" % R.randint(100, 2999),
                 "Mum's ward: bed %d, room %d" % (R.randint(1, 30), R.randint(100, 999))])


@L("buzzer-or-apartment-number", 2)
def _():
    return pick(["When delivering, buzz apartment %d (name on the bell: %s)" % (R.randint(1, 120), pick(LAST)), "Flat %d%s, entrance round the back, ring twice" % (R.randint(1, 40), pick("ABCD"))])


@L("extension-number", 1)
def _():
    return "%s's desk extension is %d; reception is 0" % (first(), R.randint(1000, 9999))


@L("locker-number-not-code", 2)
def _():
    return pick(["Left the suitcase in coin locker number %d at the station (it takes a key, which is in my bag)." % R.randint(1, 400),
                 "Gym assigned me locker %d — I bring my own padlock with a key" % R.randint(1, 300)])


@L("base64-harmless", 2)
def _():
    t = pick(["see you at the lake at noon", "happy birthday grandma!", "remember to water the ficus", "the quick brown fox jumps", "lunch: falafel wrap"])
    return pick(["base64 test string: {b}", "Puzzle from the escape room, base64: {b}", "the newsletter footer had {b}, which just decodes to '{t}'"]).format(b=b64s(t.encode()), t=t)


@L("hex-harmless", 1)
def _():
    t = pick(["hello world", "ping", "status ok", "Zoe says hi"])
    return "Sample payload in hex from the firmware docs: %s (ASCII '%s')" % (t.encode().hex(), t)


@L("rot13-harmless", 2)
def _():
    t = pick(["the butler did it", "Bruce Willis was dead all along", "Snape kills Dumbledore", "it was a dream"])
    return "Spoiler for the book club, rot13'd so nobody reads it by accident: %s" % codecs.encode(t, "rot13")


@L("caesar-harmless", 1)
def _():
    t = pick(["meet at the treehouse", "the treasure is under the big oak", "bring snacks"])
    n = R.randint(1, 5)
    return "Kids' secret-message game (shift %d): %s" % (n, caesar(t, n))


@L("sandbox-test-keys", 4)
def _():
    return pick(["Razorpay test mode keys for the demo (test only): key id rzp_test_%s" % an(14),
                 "PayPal sandbox account for QA: sb-%s@personal.example.com — sandbox only, no real money" % rs(ANL, 8),
                 "Paystack test secret key from the sandbox dashboard: sk_test_%s — test mode, cannot move money" % hx(40),
                 "Twilio magic test credentials are used in CI (test account SID ACxxxxxxxx..., test numbers +15005550006)",
                 "Braintree sandbox merchant id %s (sandbox environment only)" % rs(ANL, 16)])


@L("non-luhn-long-number", 3)
def _():
    return pick(["Electricity meter MPAN %s" % non_luhn(13), "Loyalty card number %s — gets 10%% off at the garden centre" % non_luhn(16),
                 "Customer reference %s on the water bill" % non_luhn(14), "Pension scheme member no. %s" % non_luhn(15)])


@L("isbn-ean", 2)
def _():
    return pick(["Book for the club: ISBN %s" % non_luhn_prefix("978", 13), "Barcode on the formula tin: %s" % non_luhn(13)])


@L("vin", 1)
def _():
    return "Car VIN %s (for the insurance renewal)" % rs("ABCDEFGHJKLMNPRSTUVWXYZ0123456789", 17)


@L("token-regex-pattern", 2)
def _():
    return pick(["gitleaks rule: id = \"github-pat\", regex = '''ghp_[0-9a-zA-Z]{36}'''", "Our scanner flags anything matching (sk|rk)_live_[0-9a-zA-Z]{24,} or xox[bpas]-[0-9A-Za-z-]+"])


@L("token-format-docs", 2)
def _():
    return pick(["GitLab personal access tokens start with glpat- followed by 20 characters; runner tokens start with glrt-.",
                 "Slack token prefixes: xoxb- bot, xoxp- user, xapp- app-level. Useful for the secret-scanner docs."])


@L("placeholder-x-token", 2)
def _():
    return pick(["GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx  # placeholder in README", "openai.api_key = \"sk-...\"  # put yours here",
                 "AWS_SECRET_ACCESS_KEY=****************************************"])


@L("fake-fixture-strings", 1)
def _():
    return "unit tests pass api_key='not-a-real-key' to the mock server on localhost; the client never talks to the real API in CI"


@L("wifi-no-password", 3)
def _():
    return pick(["Café wifi '%s' is an open network, no password, just accept the terms" % ssid(), "Guest network at the library: %s (login with library card on the portal page)" % ssid(),
                 "The wifi password is on the sticker under the router at mum's.", "Hotel wifi code is printed on the key card sleeve."])


@L("pin-changed-mention", 2)
def _():
    return pick(["Changed my card PIN at the ATM today — don't need to remember the old one anymore.", "Set up a new PIN for the phone after the repair; %s helped." % first(),
                 "The bank blocked the card after three wrong PIN attempts, new card arriving %s." % pick(WEEKDAYS)])


@L("security-question-no-answer", 1)
def _():
    return "The bank's security question is 'name of your first school' — I'll remember the answer myself."


@L("recovery-codes-location", 2)
def _():
    return pick(["Printed my 2FA backup codes and put them in the fireproof box, top shelf.", "Seed phrase for the hardware wallet is stamped on a steel plate in the safe deposit box — not writing it anywhere else."])


@L("spelling-word-list", 1)
def _():
    return "Spelling words for %s this week: %s" % (first(), ", ".join(pick(WORDS) for _ in range(12)))


@L("hash-of-key-audit", 1)
def _():
    return "Audit log stores only sha256(api_key) = %s for key #%d" % (hx(64), R.randint(1, 99))


@L("identifier-not-secret", 4)
def _():
    return pick(["Twilio Account SID AC%s (identifier; the auth token stays in Vault)" % hx(32), "Stripe customer cus_%s, payment intent pi_%s" % (an(14), an(24)),
                 "Slack channel C0%s, user U0%s" % (rs(ANU, 9), rs(ANU, 9)), "OpenAI org id org-%s, project proj_%s" % (an(24), an(24)),
                 "GA4 measurement ID G-%s, GTM container GTM-%s" % (rs(ANU, 10), rs(ANU, 7)), "Discord server id %s" % non_luhn(18),
                 "Anthropic request id req_%s, message msg_01%s" % (an(24), an(22))])


@L("webhook-signature-header", 1)
def _():
    return "Incoming GitHub delivery had X-Hub-Signature-256: sha256=%s (signature of that payload; verification passed)" % hx(64)


@L("connection-string-no-password", 2)
def _():
    return pick(["DATABASE_URL=postgresql://app@localhost:5432/%s_dev  # peer auth, no password locally" % proj(), "REDIS_URL=redis://127.0.0.1:6379/0",
                 "mongodb://localhost:27017/%s?directConnection=true" % proj()])


@L("curl-env-reference", 2)
def _():
    return "curl -s -H \"Authorization: Bearer $%s\" https://api.github.com/repos/%s/%s/actions/runs | jq '.workflow_runs[0].status'" % (pick(["GITHUB_TOKEN", "GH_TOKEN"]), pick(ORGS), proj())


@L("compose-env-file", 2)
def _():
    return "services:\n  api:\n    image: %s:latest\n    env_file: .env.production\n    secrets:\n      - db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt" % proj()


@L("terraform-sensitive-var", 1)
def _():
    return "variable \"db_password\" {\n  type      = string\n  sensitive = true\n}\n# value injected from TF_VAR_db_password in CI"


@L("external-secrets", 1)
def _():
    return "kind: ExternalSecret\nspec:\n  secretStoreRef: {name: aws-sm, kind: ClusterSecretStore}\n  data:\n    - secretKey: token\n      remoteRef: {key: %s/prod/api-token}" % proj()


@L("otp-app-mention", 1)
def _():
    return "2FA for the tax portal is via the Aegis app on my old phone; remember to migrate it before trading the phone in."


@L("meeting-id-no-passcode", 1)
def _():
    return "Open community webinar, no passcode: meeting ID %s, waiting room on" % meeting_id()


@L("gift-card-masked", 1)
def _():
    return "Gift card from work (code ending …%s) has %d left" % (rs(ANU, 4), R.randint(5, 80))


@L("timestamps-epoch", 2)
def _():
    return pick(["last sync at epoch ms %s" % non_luhn_prefix("17", 13), "created_at: %d" % (17 * 10 ** 8 + R.randint(0, 10 ** 7))])


@L("phone-numbers", 2)
def _():
    return pick(["Plumber's number: +44 7%s %s" % (dg(3), dg(6)), "%s's new mobile +49 15%s %s" % (first(), dg(1), dg(7))])


@L("passport-membership-numbers", 2)
def _():
    return pick(["Passport no. %s%s, expires %s" % (rs(UP, 2), dg(7), iso_date()), "Library card %s, NHS number %s %s %s" % (dg(8), dg(3), dg(3), dg(4))])


@L("git-lfs-and-content-hashes", 1)
def _():
    return "version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d" % (hx(64), R.randint(10 ** 5, 10 ** 8))


@L("ipfs-magnet-hashes", 1)
def _():
    return pick(["Dataset pinned on IPFS: bafybei%s" % rs("abcdefghijklmnopqrstuvwxyz234567", 52), "magnet:?xt=urn:btih:%s&dn=ubuntu-24.04-desktop-amd64.iso" % hx(40)])


@L("css-colours-and-versions", 1)
def _():
    return "Brand colours #%s / #%s, font Inter 4.0, design tokens v%d.%d.%d" % (hx(6), hx(6), R.randint(1, 5), R.randint(0, 20), R.randint(0, 9))


@L("code-sample-no-secret", 2)
def _():
    return pick(["def connect():\n    return psycopg.connect(os.environ[\"DATABASE_URL\"])\n", "const key = process.env.STRIPE_SECRET_KEY;\nif (!key) throw new Error('missing STRIPE_SECRET_KEY');",
                 "token = keyring.get_password(\"%s\", \"deploy\")  # from the OS keychain" % proj()])


@L("password-manager-advice", 1)
def _():
    return "%s recommended Bitwarden for the family; the master password should be a long passphrase, never reused." % first()


@L("hint-not-password", 1)
def _():
    return "Password hint for the old laptop (I know the rest): 'favourite band + the year we met'."


@L("license-plate-and-parking", 1)
def _():
    return "Parked on level %d, bay %d, plate %s-%s-%d" % (R.randint(-3, 5), R.randint(1, 300), rs(UP, 2), rs(UP, 2), R.randint(100, 999))


def non_luhn_prefix(prefix, n):
    while True:
        d = prefix + dg(n - len(prefix))
        if not luhn_ok(d):
            return d


# ================================================================ multilingual benign
LB = {
    "es": dict(ord=[("appointment", "Cita con el dentista el {day} a las {t}, clínica en {street} {hnum}"), ("family", "A {who} le encanta el flan; su cumpleaños es el {date}"),
                    ("diet", "Soy vegetariana desde hace {n} años, nada de marisco"), ("contact", "El teléfono de {who} es {phone}")],
               look=[("pin-changed-mention", "Ayer cambié el PIN de la tarjeta en el cajero, ya está."), ("room-number", "La reunión es en la sala {room}, tercera planta"),
                     ("wifi-password-location", "La contraseña del wifi está en la pegatina del router"), ("order-number", "Pedido nº {order}, llega el {day}")]),
    "fr": dict(ord=[("appointment", "RDV chez le kiné {day} à {t}"), ("travel", "Train pour {place} le {date}, voiture {n}"),
                    ("preference", "{who} préfère le thé vert, jamais de sucre"), ("address", "Nouvelle adresse : {hnum} {street}, {place}")],
               look=[("pin-changed-mention", "J'ai changé le code PIN de ma carte hier, rien à noter."), ("flight-gate", "Vol {flight}, porte {gate}, embarquement {t}"),
                     ("room-number", "Chambre {room} à l'hôtel, petit-déjeuner au rez-de-chaussée"), ("password-policy", "Le mot de passe doit faire au moins 12 caractères avec un symbole")]),
    "de": dict(ord=[("appointment", "Zahnarzttermin am {day} um {t}"), ("family", "{who} hat am {date} Geburtstag, wünscht sich ein Puzzle"),
                    ("health", "Diagnose vom Hausarzt: leichte Schilddrüsenunterfunktion, Kontrolle in {n} Monaten"), ("work", "Sprint-Review immer donnerstags, Raum {room}")],
               look=[("pin-changed-mention", "Neue PIN für die Bankkarte ist per Post gekommen, liegt im Ordner."), ("room-number", "Das Seminar ist in Raum {room}, Gebäude C"),
                     ("order-number", "Bestellnummer {order}, Lieferung am {day}"), ("rotation-statement", "Das WLAN-Passwort wurde geändert, {who} hat das neue.")]),
    "it": dict(ord=[("recipe", "La nonna mette {n} uova nella carbonara, niente panna"), ("appointment", "Visita dal medico {day} alle {t}"),
                    ("contact", "Numero dell'idraulico: {phone}"), ("travel", "Volo per {place} il {date}")],
               look=[("flight-gate", "Volo {flight}, gate {gate}"), ("pin-changed-mention", "Ho cambiato il PIN del telefono ieri sera."),
                     ("room-number", "Aula {room} per l'esame di giovedì"), ("wifi-password-location", "La password del wifi è scritta dietro il modem")]),
    "pt": dict(ord=[("family", "O aniversário da {who} é dia {date}"), ("appointment", "Consulta no dentista {day} às {t}"),
                    ("diet", "Não como glúten; {who} é alérgico a amendoim"), ("address", "Morada nova: {street} {hnum}, {place}")],
               look=[("pin-changed-mention", "Mudei a senha do cartão no multibanco ontem."), ("order-number", "Encomenda n.º {order} chega na {day}"),
                     ("room-number", "A reunião é na sala {room}"), ("flight-gate", "Voo {flight}, portão {gate}")]),
    "nl": dict(ord=[("appointment", "Afspraak bij de huisarts {day} om {t}"), ("hobby", "{who} zit op zaterdag op hockey"),
                    ("contact", "Nummer van de loodgieter: {phone}"), ("travel", "Trein naar {place} op {date}")],
               look=[("room-number", "Vergadering in zaal {room}"), ("pin-changed-mention", "Nieuwe pincode aangevraagd, komt per post."),
                     ("order-number", "Bestelling {order} wordt {day} bezorgd")]),
    "pl": dict(ord=[("appointment", "Wizyta u dentysty w {day} o {t}"), ("family", "{who} ma urodziny {date}"),
                    ("diet", "Nie jem mięsa od {n} lat"), ("work", "Daily o 9:30, sala {room}")],
               look=[("pin-changed-mention", "Zmieniłam wczoraj PIN do karty w bankomacie."), ("flight-gate", "Lot {flight}, bramka {gate}"),
                     ("room-number", "Pokój {room} w hotelu")]),
    "tr": dict(ord=[("appointment", "{day} saat {t} diş randevusu"), ("family", "{who}'in doğum günü {date}"),
                    ("preference", "Çayı şekersiz içiyorum"), ("contact", "Tesisatçının numarası {phone}")],
               look=[("pin-changed-mention", "Dün kartın şifresini değiştirdim."), ("room-number", "Toplantı {room} numaralı salonda"),
                     ("order-number", "Sipariş no {order}, {day} gelecek")]),
    "id": dict(ord=[("appointment", "Janji dokter gigi hari {day} jam {t}"), ("family", "Ulang tahun {who} tanggal {date}"),
                    ("diet", "Saya tidak makan babi dan tidak minum alkohol"), ("travel", "Penerbangan ke {place} tanggal {date}")],
               look=[("flight-gate", "Pesawat {flight}, gate {gate}"), ("pin-changed-mention", "Kemarin saya ganti PIN ATM."),
                     ("room-number", "Kamar hotel nomor {room}")]),
    "vi": dict(ord=[("appointment", "Lịch khám răng {day} lúc {t}"), ("family", "Sinh nhật {who} ngày {date}"),
                    ("preference", "Tôi thích cà phê sữa đá ít đường"), ("address", "Địa chỉ mới: {hnum} {street}, {place}")],
               look=[("room-number", "Họp ở phòng {room}"), ("pin-changed-mention", "Hôm qua tôi đã đổi mã PIN thẻ."),
                     ("order-number", "Mã đơn hàng {order}")]),
    "sw": dict(ord=[("appointment", "Miadi na daktari {day} saa {t}"), ("family", "Siku ya kuzaliwa ya {who} ni {date}"),
                    ("contact", "Namba ya fundi bomba ni {phone}")],
               look=[("pin-changed-mention", "Jana nilibadilisha PIN ya M-Pesa."), ("room-number", "Mkutano uko chumba namba {room}"),
                     ("order-number", "Namba ya oda ni {order}")]),
    "ru": dict(ord=[("appointment", "Запись к стоматологу: {day}, {t}"), ("family", "У {who} день рождения {date}"),
                    ("health", "Врач сказал: гастрит, диета {n} недель"), ("travel", "Поезд в {place} {date}, вагон {n}")],
               look=[("pin-changed-mention", "Вчера поменял ПИН-код карты в банкомате."), ("room-number", "Совещание в кабинете {room}"),
                     ("flight-gate", "Рейс {flight}, выход {gate}"), ("wifi-password-location", "Пароль от вайфая написан на роутере")]),
    "el": dict(ord=[("appointment", "Ραντεβού στον οδοντίατρο {day} στις {t}"), ("family", "Τα γενέθλια της {who} είναι στις {date}"),
                    ("preference", "Ο {who} προτιμά ελληνικό καφέ σκέτο")],
               look=[("room-number", "Η συνάντηση είναι στην αίθουσα {room}"), ("pin-changed-mention", "Άλλαξα χθες το PIN της κάρτας."),
                     ("order-number", "Αριθμός παραγγελίας {order}")]),
    "he": dict(ord=[("appointment", "תור לרופא שיניים ביום {day} בשעה {t}"), ("family", "יום ההולדת של {who} ב-{date}"),
                    ("contact", "המספר של השרברב: {phone}")],
               look=[("room-number", "הפגישה בחדר {room}"), ("pin-changed-mention", "החלפתי אתמול את הקוד הסודי של הכרטיס."),
                     ("flight-gate", "טיסה {flight}, שער {gate}")]),
    "ar": dict(ord=[("appointment", "موعد طبيب الأسنان يوم {day} الساعة {t}"), ("family", "عيد ميلاد {who} في {date}"),
                    ("diet", "لا آكل اللحوم الحمراء"), ("travel", "رحلة إلى {place} في {date}")],
               look=[("room-number", "الاجتماع في الغرفة {room}"), ("pin-changed-mention", "غيرت الرقم السري للبطاقة أمس."),
                     ("flight-gate", "الرحلة {flight}، البوابة {gate}"), ("order-number", "رقم الطلب {order}")]),
    "hi": dict(ord=[("appointment", "{day} को {t} बजे डॉक्टर से मिलना है"), ("family", "{who} का जन्मदिन {date} को है"),
                    ("diet", "मैं शाकाहारी हूँ, प्याज़-लहसुन भी नहीं")],
               look=[("room-number", "मीटिंग कमरा नंबर {room} में है"), ("pin-changed-mention", "कल एटीएम पर कार्ड का पिन बदल दिया।"),
                     ("order-number", "ऑर्डर नंबर {order}")]),
    "zh": dict(ord=[("appointment", "{day}{t}看牙医"), ("family", "{who}的生日是{date}"),
                    ("preference", "喝咖啡不加糖"), ("work", "周会在{room}会议室")],
               look=[("room-number", "酒店房间号{room}"), ("pin-changed-mention", "昨天在ATM改了银行卡密码，不用记。"),
                     ("flight-gate", "航班{flight}，登机口{gate}"), ("order-number", "订单号{order}")]),
    "ja": dict(ord=[("appointment", "{day}の{t}に歯医者"), ("family", "{who}さんの誕生日は{date}"),
                    ("preference", "コーヒーはブラックで"), ("travel", "{place}行きの新幹線、{n}号車")],
               look=[("room-number", "会議は{room}号室"), ("pin-changed-mention", "昨日キャッシュカードの暗証番号を変更した。"),
                     ("order-number", "注文番号 {order}"), ("wifi-password-location", "Wi-Fiのパスワードはルーターの裏に書いてある")]),
    "ko": dict(ord=[("appointment", "{day} {t} 치과 예약"), ("family", "{who} 생일은 {date}"),
                    ("diet", "땅콩 알레르기 있음")],
               look=[("room-number", "회의실 {room}호"), ("pin-changed-mention", "어제 카드 비밀번호 바꿨음."),
                     ("flight-gate", "항공편 {flight}, 탑승구 {gate}")]),
    "th": dict(ord=[("appointment", "นัดหมอฟันวัน{day} เวลา {t}"), ("family", "วันเกิดของ{who}คือ {date}"),
                    ("diet", "ไม่กินเผ็ดมาก")],
               look=[("room-number", "ประชุมที่ห้อง {room}"), ("pin-changed-mention", "เมื่อวานเปลี่ยนรหัส ATM แล้ว"),
                     ("order-number", "หมายเลขคำสั่งซื้อ {order}")]),
    "sv": dict(ord=[("appointment", "Tandläkaren {day} kl {t}"), ("family", "{who} fyller år den {date}"),
                    ("hobby", "Innebandy på tisdagar")],
               look=[("room-number", "Mötet är i rum {room}"), ("pin-changed-mention", "Bytte PIN-kod på kortet igår."),
                     ("order-number", "Ordernummer {order}")]),
}


def bvals():
    return dict(who=first(), place=pick(CITIES), t="%02d:%02d" % (R.randint(7, 20), pick([0, 15, 30, 45])), day=pick(WEEKDAYS),
                room=R.randint(100, 4999), gate=pick("ABCDEFGK") + str(R.randint(1, 70)),
                flight=pick(["LH", "TK", "QR", "EK", "VN", "KE", "JL", "IB", "AZ", "LO", "SK", "TP"]) + " " + str(R.randint(100, 2999)),
                order=pick([dg(9), rs(ANU, 3) + "-" + dg(7), dg(6) + "-" + dg(4)]), n=R.randint(2, 12), date=date_str(),
                phone="+%d %d %d %d" % (R.randint(30, 99), R.randint(100, 999), R.randint(100, 999), R.randint(1000, 9999)),
                street=pick(STREETS), hnum=R.randint(1, 180))


def local_date(lang):
    d, m = R.randint(1, 28), R.randint(1, 12)
    if lang in ("zh", "ja"):
        return "%d月%d日" % (m, d)
    if lang == "ko":
        return "%d월 %d일" % (m, d)
    return pick(["%d/%d", "%d.%d."]) % (d, m)


def ml_benign_value(lang, tmpl, topic):
    bv = bvals()
    bv["day"] = local_date(lang)
    bv["date"] = local_date(lang)
    text = tmpl.format(**bv)
    src = LANGS[lang]
    form = R.random()
    if form < 0.55:
        return text
    if form < 0.72:
        me, asst, ack = src["chat"]
        return "%s: %s\n%s: %s" % (me, text, asst, ack)
    if form < 0.9:
        F = src["F"] if chance(0.6) else dict(title="title", value="value", note="note")
        nums = re.findall(r"[A-Z]*\d[\d\-A-Z]*", text)
        obj = {F["title"]: topic.replace("-", " ")}
        if nums:
            obj[F["value"]] = nums[0]
        obj[F["note"]] = text
        return obj
    return [x.strip() for x in re.split(r"[,，、;]", text) if x.strip()] + ([iso_date()] if chance(0.4) else [])


# ================================================================ ordinary memories (English)
ORD = []


def O(slug, n=2):
    def deco(fn):
        ORD.append((slug, fn, n))
        return fn
    return deco


@O("food-preferences", 3)
def _():
    return pick(["%s doesn't eat coriander and prefers oat milk in coffee." % first(), "Favourite takeaway: the Sichuan place on %s, order the dry-fried beans" % pick(STREETS),
                 "I'm trying to cut sugar — suggest recipes under %d g per serving" % R.randint(5, 15), {"likes": R.sample(["ramen", "tapas", "dal", "pho", "pierogi", "tacos", "mezze"], 3), "dislikes": ["olives"], "person": first()}])


@O("allergies-health", 3)
def _():
    return pick(["%s is allergic to penicillin and tree nuts; carries an EpiPen." % first(), "Diagnosed with mild asthma in %s; inhaler twice a day, review in %d months." % (pick(MONTHS), R.randint(2, 12)),
                 {"condition": "type 2 diabetes", "medication": "metformin 500 mg", "gp": "Dr " + pick(LAST), "next_review": iso_date()}, "Physio says: no running for %d weeks, swimming is fine." % R.randint(2, 8)])


@O("birthdays-family", 3)
def _():
    return pick(["%s's birthday is %s — she likes board games and dark chocolate." % (first(), date_str()), "Anniversary with %s: %s. Book the usual restaurant two weeks ahead." % (first(), date_str()),
                 ["birthdays", "%s — %s" % (first(), date_str()), "%s — %s" % (first(), date_str()), "%s — %s" % (first(), date_str())]])


@O("kids-school", 2)
def _():
    return pick(["School pickup: %s on Mon/Wed, me on Tue/Thu, grandma Fridays at 15:20" % first(), "%s's teacher is %s; parent evening %s at %s" % (first(), pick(TEACHERS), date_str(), "%02d:%02d" % (R.randint(16, 19), pick([0, 30])))])


@O("pets", 2)
def _():
    return pick(["%s (the cat) needs her thyroid pill with breakfast; vet is %s Vets, %s" % (pick(PETS), pick(LAST), pick(STREETS)), "Dog walker comes at %d:00, %s, pays weekly" % (R.randint(10, 14), first())])


@O("travel-itinerary", 3)
def _():
    return pick([{"trip": pick(CITIES), "depart": iso_date(), "return": iso_date(), "hotel": "Hotel " + pick(LAST), "notes": "aisle seat, vegetarian meal"},
                 "Flying to %s on %s, back %s. Need an adapter and the rail pass." % (pick(CITIES), date_str(), date_str()),
                 ["Packing list", "passport", "charger", "rain jacket", "meds", "swimsuit", "printed insurance card"]])


@O("work-project-notes", 3)
def _():
    p = proj()
    return pick(["Project %s: migration to Postgres 16 planned for %s; %s owns the rollback plan." % (p, date_str(), first()),
                 "%s API is rate limited to %d rpm; batch the requests in the nightly job." % (p.capitalize(), R.randint(60, 600)),
                 {"project": p, "status": "green", "next_milestone": "beta on " + iso_date(), "owners": [first(), first()]}, "Standup moved to 09:45 because %s is in a different timezone now." % first()])


@O("meeting-notes", 2)
def _():
    return "Notes from %s sync (%s):\n- agreed to drop IE11 support\n- %s to draft the pricing page\n- revisit hiring plan in %s" % (proj(), date_str(), first(), pick(MONTHS))


@O("addresses-contacts", 3)
def _():
    return pick(["%s's new address: %d %s, %s" % (person(), R.randint(1, 200), pick(STREETS), pick(CITIES)), "Accountant: %s, %s, +44 20 %d %d" % (person(), email(), R.randint(1000, 9999), R.randint(1000, 9999)),
                 {"name": person(), "email": email(), "phone": "+1 %d-%d-%d" % (R.randint(200, 999), R.randint(200, 999), R.randint(1000, 9999)), "relation": pick(["landlord", "cousin", "mentor", "neighbour"])}])


@O("iban-rent", 2)
def _():
    return pick(["Rent goes to IBAN DE%s %s %s %s %s %s (landlord %s), due on the 1st" % (dg(2), dg(4), dg(4), dg(4), dg(4), dg(2), pick(LAST)),
                 "Nanny's bank details for the transfer: NL%s INGB %s, name %s" % (dg(2), dg(10), person())])


@O("car-maintenance", 2)
def _():
    return pick(["Car service due at %d km; garage is %s Motors, ask for %s" % (R.randint(30, 150) * 1000, pick(LAST), first()), "Tyre pressure 2.4 bar front, 2.2 rear; winter tyres in the garage loft"])


@O("fitness-routine", 2)
def _():
    return pick(["Gym plan: push Mon, pull Wed, legs Fri; deadlift PB %d kg" % R.randint(80, 200), "Running 5k in %d:%02d, goal is sub-25 by %s" % (R.randint(24, 34), R.randint(0, 59), pick(MONTHS))])


@O("reading-list", 2)
def _():
    return ["Reading list", pick(["The Left Hand of Darkness", "Piranesi", "The Overstory", "Klara and the Sun"]), pick(["Braiding Sweetgrass", "Sapiens", "Thinking, Fast and Slow"]), pick(["Middlemarch", "Pachinko", "Beloved"])]


@O("recipes", 2)
def _():
    return pick(["Grandma's lentil soup: 250 g red lentils, 1 onion, 2 carrots, cumin, 1.2 l stock, 25 min.", "Pizza dough: 500 g flour, 325 ml water, 10 g salt, 3 g yeast, 48 h cold proof"])


@O("hobbies", 2)
def _():
    return pick(["Learning the cello — lesson with %s every %s at %d:00" % (first(), pick(WEEKDAYS), R.randint(16, 20)), "Bouldering gym membership renews in %s; grade V4 now" % pick(MONTHS)])


@O("env-file-no-secret", 2)
def _():
    return "APP_ENV=staging\nPORT=%d\nLOG_LEVEL=%s\nFEATURE_NEW_CHECKOUT=true\nAPI_BASE_URL=https://api.%s.example.com\nTZ=Europe/Lisbon" % (pick([3000, 8080, 8000]), pick(["debug", "info"]), proj())


@O("yaml-config-no-secret", 2)
def _():
    return "server:\n  host: 0.0.0.0\n  port: %d\ncache:\n  ttl_seconds: %d\n  max_entries: %d\nlogging:\n  level: info" % (pick([8080, 9000]), R.randint(60, 3600), R.randint(100, 10000))


@O("compose-no-secret", 1)
def _():
    return "services:\n  web:\n    image: nginx:1.27\n    ports: [\"8080:80\"]\n    volumes: [\"./site:/usr/share/nginx/html:ro\"]"


@O("curl-public-api", 2)
def _():
    return pick(["curl -s 'https://api.open-meteo.com/v1/forecast?latitude=%.2f&longitude=%.2f&hourly=temperature_2m' | jq .hourly" % (R.uniform(-60, 60), R.uniform(-120, 120)),
                 "curl -I https://www.%s.example.org/  # check the redirect" % proj()])


@O("code-snippet", 2)
def _():
    return pick(["def slugify(s):\n    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')", "SELECT customer_id, COUNT(*) FROM orders WHERE created_at > now() - interval '30 days' GROUP BY 1 ORDER BY 2 DESC LIMIT 20;",
                 "kubectl -n %s rollout restart deploy/api && kubectl -n %s rollout status deploy/api" % ((proj(),) * 2)])


@O("chat-log", 2)
def _():
    return "%s: are we still on for Saturday?\nme: yes, 11 at the market\n%s: I'll bring the folding table" % ((first(),) * 2)


@O("support-ticket", 2)
def _():
    return "Ticket #%d: customer can't upload PDFs over 10 MB. Repro on Chrome, works in Firefox. Assigned to %s." % (R.randint(1000, 99999), first())


@O("shopping-list", 2)
def _():
    return ["groceries"] + R.sample(["eggs", "spinach", "rice", "lemons", "coffee beans", "yoghurt", "oats", "tofu", "bin bags", "batteries"], 5)


@O("plants-garden", 1)
def _():
    return "Water the monstera every %d days; the basil wants the south window. Repot the fig in %s." % (R.randint(5, 10), pick(MONTHS))


@O("home-maintenance", 2)
def _():
    return pick(["Boiler service booked for %s; the stopcock is under the kitchen sink." % date_str(), "Smoke alarm batteries replaced %s" % iso_date()])


@O("budget", 2)
def _():
    return {"month": pick(MONTHS), "rent": R.randint(600, 2000), "groceries": R.randint(200, 700), "savings_goal": R.randint(100, 1000), "currency": pick(["EUR", "GBP", "USD"])}


@O("language-learning", 1)
def _():
    return "Learning Portuguese: %d-day streak, focus on past tense; tutor %s on %s" % (R.randint(5, 300), first(), pick(WEEKDAYS))


@O("sports-teams", 1)
def _():
    return "%s supports %s; don't schedule anything during derby day." % (first(), pick(["Benfica", "Celtic", "Boca Juniors", "Ajax", "Galatasaray"]))


@O("music-movies", 2)
def _():
    return pick(["Playlist for the drive: Khruangbin, Bonobo, Nils Frahm", "Want to watch: Perfect Days, Past Lives, The Zone of Interest"])


@O("passing-mention", 6)
def _():
    return pick(["Changed my bank PIN yesterday.", "Reset my email password this morning after the phishing scare.", "The wifi password is on the fridge if the babysitter asks.",
                 "Need to set up 2FA on the pension account this weekend.", "%s forgot the door code again, I let her in." % first(), "Locked out of the work laptop, IT is resetting my password.",
                 "Remind me to update the alarm code when the cleaners change.", "Got a new credit card in the post; activate it before Friday."])


@O("server-inventory", 2)
def _():
    return "\n".join("%s-%02d  10.%d.%d.%d  %s" % (proj(), i, R.randint(0, 255), R.randint(0, 255), R.randint(1, 254), pick(["ubuntu 24.04", "debian 12"])) for i in range(1, R.randint(3, 5)))


@O("cron-makefile", 1)
def _():
    return "# backups\n0 3 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1\n*/15 * * * * /usr/local/bin/healthcheck"


@O("package-json", 1)
def _():
    return {"name": proj(), "version": "%d.%d.%d" % (R.randint(0, 3), R.randint(0, 20), R.randint(0, 9)), "scripts": {"dev": "vite", "build": "vite build"}, "dependencies": {"react": "^18.3.1", "zod": "^3.23.8"}}


@O("log-excerpt", 2)
def _():
    return "%sT%02d:%02d:%02dZ INFO  request completed method=GET path=/api/items status=200 duration_ms=%d" % (iso_date(), R.randint(0, 23), R.randint(0, 59), R.randint(0, 59), R.randint(3, 900))


@O("email-draft", 2)
def _():
    return "Draft to %s: Hi %s, thanks for the intro yesterday — could we move our call to %s? Best, %s" % (email(), first(), pick(WEEKDAYS), first())


@O("insurance-policy", 1)
def _():
    return "Home insurance with %s, policy %s-%s, renews %s" % (pick(["Aviva", "Allianz", "AXA", "Generali"]), rs(UP, 3), dg(8), date_str())


@O("vaccination-record", 1)
def _():
    return {"person": first(), "vaccine": pick(["tetanus booster", "flu", "hepatitis A", "yellow fever"]), "date": iso_date(), "clinic": pick(CITIES) + " travel clinic"}


@O("tax-deadlines", 1)
def _():
    return "Self-assessment due 31 January; keep receipts for the home office (desk, chair, %d%% of broadband)" % R.randint(10, 50)


@O("subscriptions", 1)
def _():
    return ["subscriptions", "Spotify family — %d/month" % R.randint(10, 20), "newspaper — cancel in %s" % pick(MONTHS), "cloud photos 2 TB"]


@O("csv-snippet", 1)
def _():
    return "date,steps,sleep_h\n" + "\n".join("%s,%d,%.1f" % (iso_date(), R.randint(2000, 15000), R.uniform(5, 9)) for _ in range(3))


@O("runbook-no-secret", 2)
def _():
    return "Runbook: if the queue backs up, scale workers to %d (`kubectl scale deploy/worker --replicas=%d`), then check the DLQ in the %s dashboard." % ((R.randint(4, 20),) * 2 + (proj(),))


@O("wedding-events", 1)
def _():
    return "%s & %s wedding: %s in %s, dress code garden formal, RSVP by %s" % (first(), first(), date_str(), pick(CITIES), date_str())


@O("utilities", 1)
def _():
    return "Energy supplier switched to %s from %s; meter read on the first of the month" % (pick(["Octopus", "EDF", "Ecotricity"]), pick(MONTHS))


# ================================================================ assembly
LUHN_RUN = re.compile(r"\d(?:[ \-.]?\d)*")


def has_luhn_run(text):
    for m in LUHN_RUN.finditer(text):
        d = re.sub(r"\D", "", m.group())
        if 13 <= len(d) <= 19 and luhn_ok(d):
            return True
    for m in re.finditer(r"\d+", text):
        d = m.group()
        if 13 <= len(d) <= 19 and luhn_ok(d):
            return True
    return False


def canon(v):
    return json.dumps(v, ensure_ascii=False, sort_keys=True)


class Builder:
    def __init__(self):
        self.records = []
        self.values = {}
        self.keys = {}
        self.counters = {}

    def key(self):
        while True:
            k = "mem_" + hx(R.randint(8, 32))
            if k not in self.keys:
                return k

    def add(self, label, segment, kind, make, tries=40):
        """make() -> (value, ctx).  Returns True if a record was added."""
        for _ in range(tries):
            value, ctx = make()
            c = canon(value)
            if c in self.values:
                continue
            if label == "benign" and has_luhn_run(c):
                continue
            break
        else:
            return False
        variant = "hard" if segment in ("evasion", "lookalike") else "plain"
        n = self.counters.get(segment, 0) + 1
        self.counters[segment] = n
        ns = ["memories", "u%s" % dgnz(R.randint(3, 7))]
        if ctx.get("ns_extra"):
            ns.append(ctx["ns_extra"])
        elif chance(0.28):
            ns.append(pick(FOLDERS))
        k = ctx.get("key") or self.key()
        assert k not in self.keys and re.fullmatch(r"mem_[0-9a-f]{8,32}", k), k
        self.keys[k] = True
        self.values[c] = True
        rec = {"id": "h23-%s-%s-%s-%03d" % (label[0], variant[0], segment, n), "label": label, "kind": kind, "variant": variant,
               "namespace": ns, "key": k, "value": value}
        rec["_segment"] = segment
        self.records.append(rec)
        return True


def plain(fn):
    def make():
        return fn(), {}
    return make


def with_ctx(fn):
    def make():
        ctx = {}
        v = fn(ctx)
        return v, ctx
    return make


def build():
    B = Builder()
    # ---- secrets: vendor
    for sp in VENDORS:
        assert B.add("secret", "vendor", sp["slug"], (lambda sp=sp: (vendor_value(sp), {})))
    # ---- secrets: personal
    for typ in EN:
        for _ in range(pick([2, 2, 3])):
            assert B.add("secret", "personal", typ + ".en", (lambda typ=typ: (personal_value("en", typ), {})))
    for lang in LANGS:
        for typ in LANGS[lang]:
            if typ in ("T", "F", "chat"):
                continue
            assert B.add("secret", "personal", typ + "." + lang, (lambda lang=lang, typ=typ: (personal_value(lang, typ), {})))
    # ---- secrets: evasion
    plan = [i for i in range(len(EVASIONS))] + [R.randrange(len(EVASIONS)) for _ in range(26)]
    for i in plan:
        slug, fn = EVASIONS[i]
        assert B.add("secret", "evasion", slug, with_ctx(fn))
    # ---- benign: lookalike
    for slug, fn, n in LOOK:
        for _ in range(n + (1 if n >= 2 else 0)):
            B.add("benign", "lookalike", slug, plain(fn))
    for lang in LB:
        for fam, tmpl in LB[lang]["look"]:
            assert B.add("benign", "lookalike", fam + "." + lang, (lambda lang=lang, tmpl=tmpl, fam=fam: (ml_benign_value(lang, tmpl, fam), {})))
    # ---- benign: ordinary
    for slug, fn, n in ORD:
        for _ in range(n + 1):
            B.add("benign", "ordinary", slug, plain(fn))
    for lang in LB:
        for topic, tmpl in LB[lang]["ord"]:
            assert B.add("benign", "ordinary", topic + "." + lang, (lambda lang=lang, tmpl=tmpl, topic=topic: (ml_benign_value(lang, tmpl, topic), {})))
    balance_forms(B)
    return B


def form_of(v):
    return "object" if isinstance(v, dict) else "array" if isinstance(v, list) else "string"


def to_obj(s):
    k = R.randrange(5)
    if k == 0:
        return {"note": s}
    if k == 1:
        return {"text": s, "source": pick(["chat", "voice memo", "email", "manual entry", "import"])}
    if k == 2:
        return {"content": s, "tags": [pick(FOLDERS)]}
    if k == 3:
        return {"memory": s, "created": iso_date()}
    return {"body": s, "pinned": chance(0.5)}


def to_arr(s):
    lines = [ln for ln in s.split("\n") if ln.strip()]
    if len(lines) >= 2:
        return lines
    return [s] if chance(0.5) else [s, pick(FOLDERS)]


def balance_forms(B):
    by = {}
    for lab in ("secret", "benign"):
        cnt = {"object": 0, "array": 0}
        for r in B.records:
            if r["label"] == lab and form_of(r["value"]) != "string":
                cnt[form_of(r["value"])] += 1
        by[lab] = cnt
    t_obj = max(by["secret"]["object"], by["benign"]["object"]) + 14
    t_arr = max(by["secret"]["array"], by["benign"]["array"]) + 9
    for lab in ("secret", "benign"):
        strs = [r for r in B.records if r["label"] == lab and isinstance(r["value"], str)]
        R.shuffle(strs)
        need = [("object", t_obj - by[lab]["object"]), ("array", t_arr - by[lab]["array"])]
        it = iter(strs)
        for form, k in need:
            done = 0
            while done < k:
                r = next(it)
                nv = to_obj(r["value"]) if form == "object" else to_arr(r["value"])
                c = canon(nv)
                if c in B.values or (lab == "benign" and has_luhn_run(c)):
                    continue
                del B.values[canon(r["value"])]
                B.values[c] = True
                r["value"] = nv
                done += 1


def finalize(B):
    recs = B.records[:]
    R.shuffle(recs)
    seen_v, seen_k, seen_id = {}, {}, {}
    out = []
    for r in recs:
        c = canon(r["value"])
        assert c not in seen_v and r["key"] not in seen_k and r["id"] not in seen_id
        seen_v[c] = seen_k[r["key"]] = seen_id[r["id"]] = True
        if r["label"] == "benign":
            assert not has_luhn_run(c), r["id"]
        out.append({k: r[k] for k in ("id", "label", "kind", "variant", "namespace", "key", "value")})
    return out


def stats(recs, segs):
    from collections import Counter
    print("records:", len(recs))
    print("by label:", dict(sorted(Counter(r["label"] for r in recs).items())))
    c = Counter((r["label"], segs[r["id"]], r["variant"]) for r in recs)
    for k in sorted(c):
        kinds = sorted(dict.fromkeys(r["kind"] for r in recs if (r["label"], segs[r["id"]], r["variant"]) == k))
        print("  %-7s %-10s %-5s records=%4d distinct_kinds=%d" % (k[0], k[1], k[2], c[k], len(kinds)))
    f = Counter((r["label"], form_of(r["value"])) for r in recs)
    print("forms:", dict(sorted(f.items())))
    ns = Counter((r["label"], len(r["namespace"])) for r in recs)
    print("namespace lengths:", dict(sorted(ns.items())))
    langs = sorted(dict.fromkeys(r["kind"].rsplit(".", 1)[1] for r in recs if segs[r["id"]] == "personal"))
    print("personal languages (%d): %s" % (len(langs), " ".join(langs)))
    blangs = sorted(dict.fromkeys(r["kind"].rsplit(".", 1)[1] for r in recs if r["label"] == "benign" and "." in r["kind"]))
    print("benign non-English languages (%d): %s" % (len(blangs), " ".join(blangs)))
    if "--kinds" in sys.argv:
        for k in sorted(Counter((segs[r["id"]], r["kind"]) for r in recs).items()):
            print("   ", k)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--kinds", action="store_true")
    a = ap.parse_args()
    B = build()
    segs = {r["id"]: r["_segment"] for r in B.records}
    recs = finalize(B)
    if a.stats:
        stats(recs, segs)
        return
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs).encode("utf-8")
    with open(OUT, "wb") as fh:
        fh.write(data)
    print(OUT)
    print("sha256", hashlib.sha256(data).hexdigest())


if __name__ == "__main__":
    main()
