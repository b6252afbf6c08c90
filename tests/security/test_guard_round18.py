"""The eighteenth round's rules, each seen from both sides. Notes as people jot them: a
credential's name on one line and its value alone on the next; a device's admin login with its
value after it; the value first and its name after ("618204 is the tablet passcode"); a
question naming a key answered by the next sentence ("my Zendesk client secret? it's ...");
a credential "changed to" a value; a form's field kept as label and value; a container env's
name and value, and a Terraform variable's default, read as one pair; a security question's
answer after the question in brackets, and "security q"; a keypad code with a letter first;
ADT as an alarm; keypad, keysafe and lockbox typed with a slip; a dial's turns ending a
sentence. And what is no one's secret: ciphertext (OpenSSL's salted output, a SOPS value cut
short, an Ansible vault tag alone), a named Twilio Account SID, a Firebase web config's apiKey,
a secret manager's address, change-me placeholders, a masked URL after "password", a key's
name given where a password would be, a pixel id. The phrasings are written for this test,
not taken from the corpora."""

from __future__ import annotations

import pytest

from .helpers import refused_kinds, stored

REFUSED = [
    # a name on its line, the value alone on the next
    "router admin password\nPelican#Drift2291",
    "wifi password at the lake house\nqTzRmWvKpLxNbHsY",
    "nvr admin login\nmarble-otter-cloud-77",
    # a device's login, its value right after
    "camera admin login Harborlights2019",
    # the value first, its name after
    "618204 is the tablet passcode",
    "remember: 4471 then # -> key box code",
    "730915 ← phone passcode for grandma",
    "tortellini4417 = Netflix login",
    "9c3fbd0e1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5 is the private key for my old eth wallet",
    # a question answered by the next sentence
    "could you keep my Zendesk client secret? it's 5e1b7c9d3f2a4e6b8c0d1f3a5b7c9e2d",
    "please save my Mailjet API key? it's Xq7vLp2RtZ9mKw4NbY8c",
    "can you hold on to my Grafana access token? it's QmVtRwXyZpLkJhGfDsAqWe",
    # changed to
    "the streaming app pass changed to waffles2291!",
    "SIM PUK changed to 81726354",
    "Amazon gift card code changed to HQ7RXK2PLM4TNW8Z",
    # pairs read as one
    "env:\n  - name: PAYMENT_GATEWAY_SECRET\n    value: \"gk-Rt9xLmQ2vZp7WnKs4YbH3c\"",
    'variable "crm_api_token" {\n  type    = string\n  default = "crm_live_8fK2xQ9vLm3RtZ7pWn4YbH6c"\n}',
    "label=garage door code; value=C4417",
    {"label": "alarm code", "value": "*6620"},
    # security questions
    "security q for my bank: first pet's name -> Biscuit",
    "svar på säkerhetsfrågan (pappas födelsestad) Uppsala",
    # codes
    "the ADT code — 8812",
    "side door keeypad: K7731",
    "kod do bramy: K5512",
    "gym safe combination is now L22 R8 L30. thanks!",
]

PASSES = [
    # not a credential beside its name
    "router admin password\nchange it every 90 days",
    "Password policy\nMin12Chars",
    "Flight 4412 -> gate code B",
    "4412 is the flight number",
    "90210 is the zip code",
    "could you remind me which token we use for staging? it's the one in the wiki",
    "zip code changed to 90210",
    "error code changed to 5012 after the update",
    "the meeting code changed to 2024 budget",
    "label=order number; value=691517",
    {"label": "tracking number", "value": "691517"},
    "env:\n  - name: LOG_LEVEL\n    value: \"debug\"",
    "login,role,last_seen\nzqvx81,viewer,2026-01-02",
    "security question (mother's maiden name) not set yet",
    "antwoord beveiligingsvraag (geboorteplaats) veranderd, vertel ik je later",
    "Întrebarea de securitate: numele primului profesor? Trebuie să aleg una.",
    # no one's secret
    "backup of my notes (the key is elsewhere): U2FsdGVkX1+Zq8vLm2RtZ7pWn4YbH6cK9xQ2vZp7WnKs4YbH3cJ0",
    "db_password: ENC[AES256_GCM,data:Qm8x...",
    "db_password: !vault |",
    "Twilio Account SID (an identifier, not a secret): AC0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    "// Firebase web config, public by design\nconst firebaseConfig = {\n  apiKey: \"AIzaSyB7xQ9vLm3RtZ7pWn4YbH6cK2xQ9vLm3Rt\",\n  authDomain: \"lantern-app.firebaseapp.com\",\n}",
    "password: vault:secret/data/lantern/db#password",
    "password: op://Private/Lantern DB/password",
    "POSTGRES_PASSWORD=change-me-before-release",
    "SMTP_PASSWORD: <base64-encoded-value>",
    "auth failed: invalid password (REDIS_URL=redis://:****@cache:6379/0)",
    "adminPasswordKey: admin-password",
    "ads: Meta pixel 376496849770009, GA4 G-QX7LM2ZP9R",
]

# Still caught: a secret beside each exemption.
STILL_REFUSED = [
    "password_from: vault:db/prod  # fallback literal Zebra!Cactus9",
    "Twilio Account SID AC0f1e2d3c4b5a69788796a5b4c3d2e1f0, auth token 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "POSTGRES_PASSWORD=Harbor!2291  # change-me later",
]


@pytest.mark.parametrize("value", REFUSED + STILL_REFUSED)
def test_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
