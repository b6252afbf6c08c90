"""The twenty-second round's rules, each seen from both sides.

Codes and passwords named in languages the earlier rules did not read: India's scripts (where
"code", "PIN" and "password" are borrowed words), Urdu, Persian, Georgian, Armenian, Serbian,
Romanian, Icelandic, and the Nordic compounds ("lågekode", "hurðarkóði"). And what is no one's
secret in those languages: India's postal PIN code, a code with no value, a year, a train's
number. The phrasings are written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from .helpers import refused_kinds, stored

REFUSED = {
    # a door's, a gate's, an alarm's or a safe's code
    "दाराचा कोड 4827": "PIN",
    "अलार्मचा कोड आहे 59321": "PIN",
    "সিন্দুকের কোড 3391": "PIN",
    "கதவு குறியீடு 4827": "PIN",
    "అలారం కోడ్: 59321": "PIN",
    "ಬಾಗಿಲಿನ ಕೋಡ್ 4827": "PIN",
    "വാതിൽ കോഡ് 4827": "PIN",
    "દરવાજાનો કોડ #4827": "PIN",
    "ਦਰਵਾਜ਼ੇ ਦਾ ਕੋਡ 4827": "PIN",
    "دروازے کا کوڈ 4827": "PIN",
    "კარის კოდი: 4827": "PIN",
    "դարպասի կոդը: #4827": "PIN",
    "шифра аларма 59321": "PIN",
    "kombinacija sefa je 12-34-56": "PIN",
    "codul ușii e 4827": "PIN",
    "hurðarkóði: 4827#": "PIN",
    "lågekode = #4827": "PIN",
    # a card's PIN
    "ஏடிஎம் பின் 4412": "PIN",
    "కార్డ్ పిన్ 4412": "PIN",
    "ਕਾਰਡ ਦਾ ਪਿੰਨ 4412": "PIN",
    # a one-time code, in two halves too
    "पडताळणी कोड 483921": "one-time code",
    "ధృవీకరణ కోడ్ 483 921": "one-time code",
    "ઓટીપી 483921": "one-time code",
    "تصدیقی کوڈ 483921": "one-time code",
    "დადასტურების კოდი 483 921": "one-time code",
    "staðfestingarkóði er 483 921": "one-time code",
    "bekræftelseskode 483921": "one-time code",
    # digits said aloud, the value first and its name after
    '"four two six seven" — that\'s the keybox code': "PIN",
    '"cinq huit deux trois" — that\'s the alarm code': "PIN",
    '"yksi kaksi kolme nolla" — that\'s the card PIN': "PIN",
    '"चार दो छह सात" — that\'s the locker code': "PIN",
    '"五 八 一 三" — that\'s the phone passcode': "PIN",
    "gate code (said out loud): ნული ხუთი რვა ერთი": "PIN",
    # an account's user and password side by side
    "HBO Max — li.wei@proton.me / Copper_kettle88&": "password",
    "pension portal  m.haddad@web.de  Quartz.lantern27!": "password",
    "Hulu acct jo.ng@gmx.net Vq8$Lm2!Tz9#Rw": "password",
    "NAS admin login admin / Fx7#kLq2Wm9z at 10.0.0.5": "password",
    "library portal login r.osei / kettle-walrus-prism-dune": "password",
    "club wiki admin: tmaru / hZqWkPvRtLxMnBy": "password",
    # a key of one case and digits, whose alphabet is smaller than base64's
    "PLANNER_API_KEY: orb_k7qz2m9xw4vt1np8hy3c6jd5lr0fgs": "generic API key",
    "ACME_TOKEN=Q7KZ2M9XW4VT1NP8HY3C6JD5LR0FGSB2": "generic API key",
    # formats of their own: a cluster's join token, a Nostr key, hooks whose URL is the secret
    "k3s_token: K10" + "3f" * 32 + "::server:" + "9c" * 16: "API key or token",
    "nostr: nsec15feryxhrdz9m6y09mr8wrerwzgj6f8ntxvhxyrdlm5aahn0t09nl4ujy86": "cryptocurrency private key",
    "const hook = 'https://api.netlify.com/build_hooks/5f2a9c81d3b47e60a1c9d2f4';": "webhook URL",
    "deploy hook https://api.vercel.com/v1/integrations/deploy/prj_Xq7vLp2RtZ9mKw4NbY8c1Qz/aB3dE5gH7j": "webhook URL",
    "fn: https://orders-fn.azurewebsites.net/api/sync?code=Zq8Lm2Rt9Vx4Np7Kw3Bc6Df1Gh5Jk0Ls2Qe8Yt4Uu==": "webhook URL",
    # a setting named in one field and valued in the next, PowerShell's $env:, an AK/SK pair's secret
    '{"values": [{"key": "SEARCH_ADMIN_KEY", "value": "9f3c1a7e5b2d8c4f6a0e1b3d5c7f9a2e", "enabled": true}]}': "generic API key",
    '$env:QUEUE_REST_TOKEN = "Zq8Lm2Rt9Vx4Np7Kw3Bc6Df1Gh5Jk0Ls2Qe8Yt4U-"': "generic API key",
    "OBS_SDK_SK: vvQm4Tz8Lw2Nx6PvKr3Yb7Jc1Hd5Fg9Sa0Ze2Xu": "generic API key",
    # English shapes: "pswd", a device's unlock, a lock named with its value, an app password,
    # a keypad value with its star, an Oracle connect descriptor
    "pswd for the water bill site: Harbor_517": "password",
    "scooter lock = 4417": "PIN",
    "grandma's ipad unlock 5208": "PIN",
    "hotmail app password qzmxkrtwplvnhsye": "password",
    "google app password: wxyz abcd efgh ijkl": "password",
    "Garage #7731 then press enter": "PIN",
    "export DSN='app_rw/Qm4Tz8Lw2Nx6Pv@//db7.corp.example:1521/SALES'": "connection string with password",
    # a password
    "ईमेल का पासवर्ड है Kite-7421-blue": "password",
    "వైఫై పాస్‌వర్డ్: Mango.river.42": "password",
    "ವೈಫೈ ಪಾಸ್‌ವರ್ಡ್ Mango.river.42": "password",
    "وائی فائی پاس ورڈ Mango.river.42": "password",
    "parola wifi Mango.river.42": "password",
    "kata laluan wifi Mango.river.42": "password",
    "κωδικός wifi Mango.river.42": "password",
}

PASSES = [
    "मेरा पिन कोड 560034 है",  # India's postal code
    "पिन कोड: 110001, नई दिल्ली",
    "পিন কোড 700019",
    "பின் கோடு 600028",
    "codul poștal 010011",
    "codul poștal al ușii 010011",
    "దరవాజా కోడ్ మార్చాలి",  # no value
    "lågekode skiftes i august",
    "hurðarkóði breytt 2024",  # a year
    "गेट नंबर 4 पर मिलना, ट्रेन 12951",
    "शिफ्ट 4827",
    "шифра производа 48271",  # a product's code
    "OTP 5 मिनट में आएगा",
    "पासवर्ड भूल गया, रीसेट लिंक भेजो",
    "پاس ورڈ بدلنا ہے کل",
    "kata laluan wifi ada di belakang router",
    "parola wifi e pe router",
    "lykilorð wifi er á routernum",
    "कार्ड का PIN कभी किसी को न बताएं",
    '"one two three four" — that\'s the song we sang',
    '"four two six seven" — that\'s the number of the bus',
    "Flight 4412 — that's the gate",
    "contact bob@example.com / Team-Lead",
    "cc: anna@acme.io / marketing-team-2024",
    "meeting with anna@acme.io  Thursday 10:00",
    "forward to ops@acme.io  Q3-report.pdf",
    "login page redesign: alice / bob review it",
    "Terraform output: ami-0c55b159cbfafe1f0",  # a resource's id: a word and hex
    "host: oak06.oakridge-data.com, port 5432",  # a host's name, mostly letters
    "saved_at 2024-10-04T18:00:00Z, build 20241004180000Z",  # dates, mostly digits
    '{"values": [{"key": "MAX_RETRIES", "value": "6", "enabled": true}]}',
    "app password instructions are in the wiki",
    "phone unlock 2021 model",
    "tablet unlock 4 times a day",
    "door #2 then turn left",
    "bike lock broke in 2019",
    "journal entry #2031 about the move",
    "Hotel room door #1205, second floor",
    "support@acme.com ticket#INC0012345",
    "tracking for dad@gmail.com 1Z999AA10123456784",
]


@pytest.mark.parametrize(("value", "kind"), REFUSED.items())
def test_refused(guard, value, kind):
    assert kind in refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])


# What is no one's secret, read wrongly before this round, and its attack beside it.
NOT_SECRETS = [
    # a password's hash as WordPress, Drupal and Flask store it
    "wp_users row: user_pass = $P$BZq1mT0aw7Yv4c2Hh9kXnLpQe8rS5u/",
    "drupal users.pass: $S$DkQ9q2R7vN0mW4pX8sT1yZ6cB3fH5jL9aE2gK7nP4rU0wX3zC6vB",
    "user.password_hash = 'pbkdf2:sha256:600000$Xq7vLp2RtZ9mKw4N$" + "4f" * 32 + "'",
    "werkzeug hash: scrypt:32768:8:1$Nb8cQ2wE4rT6yU8i$" + "a3" * 64,
    # a command's separate arguments: a setting's name and a value that is no secret
    'dotnet user-secrets set "Billing:Region" "eu-west-1"\ndotnet user-secrets set "Billing:Retries" "5"',
    'curl -H "PRIVATE-TOKEN: $GITLAB_TOKEN" "$CI_SERVER_URL/api/v4/projects"',
    # public by design, and said so
    'Mixpanel project token (public, in the page): "c4f1e9a07b2d3e8f6a5b4c3d2e1f0a9b"',
    "the Razorpay key id is public: rzp_live_Qm4Tz8Lw2Nx6Pv",
    "datadogRum.init({ applicationId: 'f3a1c2d4-5b6e-4f70-8a91-b2c3d4e5f601', clientToken: 'pub0a1b2c3d4e5f60718293a4b5c6d7e8f9', site: 'datadoghq.com' })",
    "okta.client-id=0oa8x2Kq9LmN4pR7sT1v",
    # a value kept elsewhere, named by a template
    "db_password: \"{{ lookup('env', 'APP_DB_PASSWORD') }}\"",
    # a record encoded, a cipher's name, ciphertext sealed by KMS, a word's keypad digits
    "order webhook payload: eyJvcmRlciI6ICJBLTEwMjQiLCAic3RhdHVzIjogInBhaWQifQ==",
    "backup.tar encrypted with openssl enc -chacha20 (passphrase kept in 1Password)",
    "secret blob from KMS: AQICAHj" + "Qx7vLp2RtZ9mKw4N" * 8,
    "kids' puzzle: on a phone keypad 7867 spells RUNS",
]

STILL_SECRETS = [
    "wp admin password Qm4!Tz8Lw2Nx next to its hash $P$BZq1mT0aw7Yv4c2Hh9kXnLpQe8rS5u/",
    'dotnet user-secrets set "Billing:StripeApiKey" "rk_live_51Hx2QmR7tVz9LpN4wK8yB3cD6fG"',
    'dotnet user-secrets set "Mail:SmtpPassword" "Qm4!Tz8Lw2Nx#7v"',
    "okta.client-id=0oa8x2Kq9LmN4pR7sT1v\nokta.client-secret=Gk7Qm2Lp9Rt4Vz8Nw3Xy6Bc1Df5Hj0Ks",
    "db_password: \"{{ 'Qm4!Tz8Lw2Nx#7v' }}\"",
    # base64 of a record that holds a key: the decoded record is read
    "payload: eyJhcGlfa2V5IjogInNrX2xpdmVfNTFIeDJRbVI3dFZ6OUxwTjR3Szh5QjNjRDZmRyJ9",
    "my door code 7867 spells RUNS",
    "broker: amqp://orders:Qm4!Tz8Lw2Nx@mq.internal:5672",
    # the review's bypasses of this round, mended
    "{{ lookup('file', 'AKIAZ7QK2M9XW4VT1NP8') }} and aws secret {{ lookup('file', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kLm2Rt9Vx') }}",
    'SLACK = "https://hooks.slack.com/services/" "T01ABCDEF/B02GHIJKL/Zq8Lm2Rt9Vx4Np7Kw3Bc6Df1"',
    'creds = "admin:" "Qm4!Tz8Lw2Nx#7v"',
    "the SIM PUK 46637867 spells HOMERUNS",
    "postgres://app:pass@db.prod.acme.io/app",
]


@pytest.mark.parametrize("value", NOT_SECRETS)
def test_no_ones_secret_passes(guard, value):
    assert stored(guard, value) == (value, [])


@pytest.mark.parametrize("value", STILL_SECRETS)
def test_its_attack_is_refused(guard, value):
    assert refused_kinds(guard, value)
