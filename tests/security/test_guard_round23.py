"""The twenty-third round's rules, each seen from both sides (tuned on heldout21; heldout22
held out). Secrets: a token named after "use X as the"; a Wi-Fi key of digits or in more
languages; a meeting's passcode of letters; "memorable information"; a short token under a
field named a token; a secret the text says is in the memory's own key or namespace; a JSON
Web Key's private part written as escaped text; a file kept a line per list item; a value
built by a template or a "%s" format; pieces said to be joined (numbered and shuffled,
bulleted, between separators, in reverse order, in numbered fields); a note pointing up at a
value; ASCII codes. And what is no one's: a cloud secret manager's secret name, an AWS key id
the memory says is only the id, a contract's address, a CAPTCHA's site key, "pin this:", a
test card's code. The phrasings are written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

REFUSED = [
    'Use 5c2e9f1a-7b3d-4e8a-9c1f-2d6b8e0a4f37 as the bravesearch api key',
    'use dG9rZW46MDE6cXdlcnR5dWlvcGFzZGZnaGprbA as the artifactory access token',
    'Guest Wi-Fi "Cafe-5G" key: 48213390571264',
    'WLAN «Rumah-88», kata sandi: kp3mzq8wt2',
    'Teams call tomorrow, passcode: hQwLmz',
    'memorable information for telephone banking: otter42',
    'IPINFO_TOKEN=9c3e1a7f5b2d84',
    'alarm code = last 4 digits of the number this memory is filed under',
    "wifi password starts with x7Qm; append this note's key",
    'Environment.SetEnvironmentVariable("JWK", "{\\"kty\\": \\"OKP\\", \\"crv\\": \\"Ed25519\\", \\"d\\": \\"mZMzgVsLbAX5mondTi-4HdWF1sGqxZPziq-8YzWS8kw\\"}");',
    ['env:', '  - name: SENDGRID_TOKEN', '    value: Xq9vT2mLp8RzK4wN7bYc3HdJ'],
    'const a = "Qm4T"; const b = "z8Lw2N"; const routerPassword = `${a}${b}`;',
    'dbPasswordForReports := fmt.Sprintf("%s%s", "Tz8q", "Lw2Nx9")',
    'github token, pieces numbered:\n3) O5pA4sD3fG2h\n1) ghp_\n4) J1kL0zX9cV8b\n2) Q9wE8rT7yU6i',
    'github token (join the items):\n- ghp_\n- Q9wE8rT7yU6i\n- O5pA4sD3fG2h\n- J1kL0zX9cV8b',
    'github token, groups in reverse order: J1kL0zX9cV8b O5pA4sD3fG2h Q9wE8rT7yU6i ghp_',
    'Tz8q / Lw2N / xQm4 / Rk7V / b3Hd / 9sYc\n^ vpn api secret, drop the separators',
    {'SMTP_PASSWORD_PART1': 'Tz8q!Lw2', 'SMTP_PASSWORD_PART2': 'Nx#Qm4'},
    'api token — ASCII codes:\n88,113,57,118,84,50,109,76,112,56,82,122,75,52,119,78,55,98,89,99,51,72,100,74',
    'DPD pickup code 483920',
    'the code is 5531 for the side gate',
    # its review's bypasses, mended
    'मेरा एटीएम पिन 482913 है, मैं मुंबई में रहता हूँ',
    'HMAC secret 0xa94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
    'Stripe test card 4242 4242 4242 4242 failed; used my own Visa instead, CVV 512',
    'db password: vault:kv/prod#correct-horse-battery-staple',
    'API key Zx8Kq2Lm9Pw4Rt7Vb3Nc6Yd1Fe5Gh0Jk9 — pasted in the (public) Slack channel',
]

PASSES = [
    'Use 5c2e9f1a-7b3d-4e8a-9c1f-2d6b8e0a4f37 as the idempotency key',
    'Wi-Fi "Cafe-5G" key: see the card on the counter',
    'the Teams meeting passcode is in the invite',
    "memorable information is asked for by the bank's phone line",
    "the first 4 digits of this note's id are the date it was made",
    '%env DB_PASSWORD=projects/prod-analytics/secrets/db-password/versions/3',
    'password: "https://team-kv.vault.azure.net/secrets/smtp-password/0123456789abcdef0123456789abcdef"',
    '# key id only, the secret stays in the vault\nAWS_ACCESS_KEY_ID=AKIAQ7RM2XKD4VN8ZB3T',
    'token contract 0x1f9840a85d5af5bf1d1762f925bdaddc4201f984 on Ethereum',
    'pin this: the backup runs on port 5432 every 2 hours',
    ['test card', 'Stripe test card 4242 4242 4242 4242 exp 12/34 CVC 123 (docs test number)'],
    'log.Printf("%s%s", "user", "name")',
    'shopping (join the items into one bag):\n- apples\n- pears\n- plums',
    'groups in reverse order: red blue green',
    'InPost pickup point: Prosta 51, open 24/7',
    'the code of conduct is posted for the front gate staff',
    # its review's false positives, mended
    'Call the bank about the Password Reset tomorrow at 10',
    'Call IT about passcode iPhone lockout, ticket pending',
    'Budget code 6100 for the office supplies',
    'Room code 1201 for the hotel room',
    'Postal code 90210 for the house',
    'Memorable name from the book club: Atticus',
    "This record's id ends with 42; the room code is on the door",
    'Use HS256-signing-algorithm as the token signing method',
    'use 550e8400-e29b-41d4-a716-446655440000 as the CSRF token in the unit test fixture',
    'Wifi kept dropping; support key: 0800123456 is the ISP helpline',
    {'token': 'Hospital12WardB'},
    'Take these together in the morning:\n- Vitamin-D\n- B12\n- Omega3\n- Zinc',
]


@pytest.mark.parametrize("value", REFUSED)
def test_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", REFUSED)
def test_refused_by_the_rules_alone(value):
    """Each is a rule's, not only the learned reader's."""
    with pytest.raises(SecretRejected):
        Guard(learned=False).check(value, namespace=("memories", "u1"), key="mem_5e1f")


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
