"""A key the memory says, in words beside it, is not a live credential is stored: a vendor's
test-mode key ("sk_test_") in a memory that says it is for a sandbox or test mode, and an AWS
access key id whose secret the memory says is kept elsewhere, is given by reference, or that
stands where AWS itself prints ids (an AccessDenied error, a CloudTrail event, IAM's list of
keys). Tuned on the training corpora (train20a's and train40b's false positives; heldout22
never read). A test-mode key said nothing about, named "test" only in an identifier, or beside
a live key, and a key id next to its secret, are still refused. Phrasings written for this test."""

from __future__ import annotations

import time

import pytest

from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

GUARD = Guard()

STORED = [
    "# sandbox account, nothing real here\nSTRIPE_SECRET_KEY=sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV",
    "Test-mode key for the staging checkout: rk_test_51Zq8WnM3cV7bX2kL9pR4sT6yU1iO0aE5dF",
    "Paystack, test keys only (no real money): PAYSTACK_SECRET_KEY=sk_test_9f3c1b7e2d8a4c6b0e5f1a9d3c7b2e8f4a6d0c1b",
    "The deploy user's access key ID is AKIAQ7RZ2M4XK9TWB3NV; the secret key itself is in 1Password.",
    "[ci]\naws_access_key_id = AKIAW3K8PZ2QX7RT4MNB\n# secret comes from credential_process\n",
    "ERROR uploader AccessDenied: user arn:aws:iam::123456789012:user/mei (access key AKIAV9TQ3ZX7RM2KP4WB)"
    " is not authorized to perform s3:PutObject",
    'os.environ["AWS_ACCESS_KEY_ID"] = "AKIAZ4MK8RT2QW9XB7PN"\nos.environ["AWS_SECRET_ACCESS_KEY"] = "{{ aws_secret }}"',
    "docker run --rm \\\n  -e AWS_ACCESS_KEY_ID=AKIAN2XR7KQ4TZ9MWB3P \\\n  -e AWS_SECRET_ACCESS_KEY \\\n  app:latest",
    '{"UserName": "backup-bot", "AccessKeyId": "AKIAP8TW3XK2RZ7QMN4B", "Status": "Inactive"}',
]

REFUSED = [
    # nothing said: the key alone, in a config, named "test" only by its variable or manifest
    "my stripe key sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV is on the old laptop too",
    'stripe_test_secret_key="sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV"',
    "metadata:\n  name: stripe-test-credentials\nstringData:\n  KEY: sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV",
    "sandbox-eu settings: STRIPE_SECRET_KEY=sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV",
    # said, but a live key beside it
    "# sandbox account\nSTRIPE_TEST=sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE\nSTRIPE_LIVE=sk_live_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6",
    # a key id given as a credential, or beside its secret however the secret's keeping is described
    "For our CI I use access key AKIAQJXXVBOTHD2WTFLH, please remember it.",
    "AKIAQ7RZ2M4XK9TWB3NV, and the secret is in 1Password but here it is: 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",
    "aws_access_key_id=AKIAN2XR7KQ4TZ9MWB3P\naws_secret_access_key={{ wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8kLm2Rt9 }}",
    "ERROR AccessDenied: key AKIAV9TQ3ZX7RM2KP4WB is not authorized to perform s3:GetObject;"
    " retried with secret Zq8WnM3cV7bX2kL9pR4sT6yU1iO0aE5dF7gH2jK4",
]


@pytest.mark.parametrize("text", STORED)
def test_a_key_said_not_to_be_live_is_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


@pytest.mark.parametrize("text", REFUSED)
def test_a_key_said_nothing_about_or_beside_its_secret_is_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})



def test_the_statement_must_stand_in_the_same_text() -> None:
    """A note in another field is not read as the key's: records join fields an evasion chose."""
    assert refused_kinds(
        GUARD, {"note": "CI uses the sandbox key", "value": "sk_test_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV"}
    )


# More vendors' test-mode and sandbox keys, a public key said so on a comment line of its own,
# values sealed by EJSON, Vault's transit engine and AWS KMS (named a ciphertext), and go.sum's
# module checksums.
STORED_TOO = [
    "# test mode only\nMP_ACCESS_TOKEN=TEST-4820193375510264-071932-9c1e5d7a0b3f4e2d8c6a1b9f7e5d3c2a-771203945",
    "<env>sandbox</env>\n<accessToken>access-sandbox-3b7c1e9a-5d2f-4a8b-9c6e-1f0d7a4b2e8c</accessToken>",
    'sandbox credentials:\nflw_secret_key="FLWSECK_TEST-7d2e9c4b1a8f3e6d0c5b2a9f8e7d6c5b-X"',
    "# publishable key - safe to expose client-side\nFLAGSMITH_ENVIRONMENT_KEY=Qm7vT2xLp9RzK4wNc8YbJd",
    "// site key, not a secret\nconst growthbookKey = \"sdk-Wq8Zr3Lm9Xv2Tk7P\";",
    "export const analyticsWriteKey = 'Hq4Tn8Wz2Lx7Pm3Rv9Ks6Yb1Jc5Fd0Ga'; // shipped to the browser",
    '{"_public_key": "9c2b7e41d8a3f6c05e1b9d7a3f2c8e6b4a0d9f7e5c3b1a8f6e4d2c0b9a7f5e3d",'
    ' "mailgun_api_key": "EJ[1:n0G9W8uw8de9puyHB9d3xvE/pg3mKBxfeN4/YYsakj8=:A7s3aEcu6t7EYyjDzBIjnp5xICEA+N8B:'
    'NcY39fsq3ypKUPYyiuCtoDQu8PewMvf35GJMBVxqKu8lQxBUTdGalg==]"}',
    "export SENDGRID_API_KEY=vault:v1:AJittVYQT1rRTnuyUC97eLQtDkH58AXzv1vYZwSMyWtdYJTXAnMLtS6f9PQyHsE+",
    "NEON_API_KEY_CIPHERTEXT=AQICAHg6LGYa0bxKjBkt6sfoVVa/1G7fUYLDbBq6AHQCYnxcylB1iiIv//GWSPYomQX/nsDSD59QzvMyzUfaMLOQ"
    "o2MU3IT66XQQ0cUKxLSjV1VOX1YM97WkkIb9ZPMPSS9YVQ7r8/a6wRhxY8jIF12yGCTQ5S4pSGKyl+KA5+O9P6fwcaMkYwpILny+msR0VD==",
    "github.com/acme/widgets v1.4.2 h1:Qm7vT2xLp9RzK4wNc8YbJdF3gA6sE1uH0oPqR5tVwXy=\n"
    "github.com/acme/widgets v1.4.2/go.mod h1:Zq8WnM3cV7bX2kL9pR4sT6yU1iO0aE5dF7gH2jK4mN0=",
]

REFUSED_TOO = [
    # a live-mode token beside a sandbox statement, and a test key said nothing about
    "<env>sandbox</env>\n<accessToken>access-production-3b7c1e9a-5d2f-4a8b-9c6e-1f0d7a4b2e8c</accessToken>",
    'flw_secret_key="FLWSECK_TEST-7d2e9c4b1a8f3e6d0c5b2a9f8e7d6c5b-X"',
    # said public, but a second key in the memory, or a secret's prefix
    "# publishable key - safe to expose client-side\nFLAGSMITH_KEY=Qm7vT2xLp9RzK4wNc8YbJd\nADMIN_KEY=Zq8WnM3cV7bX2kL9pR4sT6",
    "// site key, not a secret\nconst key = \"sk_live_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV\";",
    # shaped as sealed but holding text, or too short to be a blob
    "export SENDGRID_API_KEY=vault:v1:" + "bXkgc2VuZGdyaWQga2V5IGlzIFNHLjRrVzltUXoyeExwN3ZUOHJOM2NZNWpINmRGMWdBMHNFMnVL",
    "TOKEN_CIPHERTEXT=AQICAHg6LGYa0bxKjBkt6sfoVVa/1G7fUYLDbBq6AHQCYnxcylB1",
    # a checksum's place with no module version before it
    "api_key h1:Qm7vT2xLp9RzK4wNc8YbJdF3gA6sE1uH0oPqR5tVwXy=",
]


@pytest.mark.parametrize("text", STORED_TOO)
def test_sandbox_keys_public_keys_sealed_values_and_checksums_are_stored(text: str) -> None:
    assert stored(GUARD, {"text": text})


@pytest.mark.parametrize("text", REFUSED_TOO)
def test_their_look_alikes_are_refused(text: str) -> None:
    assert refused_kinds(GUARD, {"text": text})


# A Web Push VAPID public key, a KSUID named as a message id, a Fernet token said to be encrypted.
VAPID = "BKq7vT2xLp9RzK4wNc8YbJdF3gA6sE1uH0oPqR5tVwXyZq8WnM3cV7bX2kL9pR4sT6yU1iO0aE5dF7gH2jK4mN0Qw8z"[:87]
FERNET = "gAAAAABn0G9W8uw8de9puyHB9d3xvE_pg3mKBxfeN4_YYsakj8A7s3aEcu6t7EYyjDzBIjnp5xICEA-N8BNcY39fsq3ypKUPYyiuCtoDQu8PewMvf35GJ"


def test_identifiers_and_ciphertexts_named_as_such_are_stored() -> None:
    assert stored(GUARD, {"text": f"applicationServerKey: '{VAPID}'  # web push: our VAPID public key"})
    assert stored(GUARD, {"text": "segment messageId: 2Wq8ZrLm9Xv2Tk7PwQn0G9W8uw8 (ksuid)"})
    assert stored(GUARD, {"text": f"encrypted field (fernet, key not stored here): {FERNET}"})


def test_their_shapes_without_the_naming_are_refused() -> None:
    assert refused_kinds(GUARD, {"text": "applicationServerKey: 'sk_live_51Hx9LmQ2vTz8RkW4pNc7YbJ3dFgA6sE1uK0oPqR5tV'"})
    assert refused_kinds(GUARD, {"text": "api key for the crm: 2Wq8ZrLm9Xv2Tk7PwQn0G9W8uw8"})
    assert refused_kinds(GUARD, {"text": f"the deploy token is {FERNET}"})


# The adversarial review of these exemptions (helper 67): each was stored by their first version.
REVIEWED = [
    {
        "text": "# the key id is not a secret, the token below is\nAPI_TOKEN=aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2"
    },
    {
        "text": "# app name is not a secret\nAPP_NAME=shop\nAPI_TOKEN=aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2"
    },
    {
        "text": "API_TOKEN=aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2\n# .env.example is fine to commit, this file is not"
    },
    {
        "text": "auth token for the payments api: aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2\n// keep it out of git; the env name alone is fine to commit"
    },
    {
        "text": "API_TOKEN=aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2  # careful: this is not something that goes to the frontend"
    },
    {
        "text": "billing api token: aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2 (rotate it right away if it ever goes to the frontend)"
    },
    {
        "text": "rotation: deactivate the key AKIA29326ML64LG2TJF8/Z4SOcMz9CPVNPkNa1H/edcm4pMbXD+uCL1mHoOsF after the new pair is live"
    },
    {
        "text": "creds AKIA29326ML64LG2TJF8/Z4SOcMz9CPVNPkNa1H/edcm4pMbXD+uCL1mHoOsF - secret is also in 1password"
    },
    {
        "text": "SQS messageId 4b1c failed, retry with api key aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2"
    },
    {
        "text": "Twilio messageId SM1234, auth token aQfDPrAJ71fTquWoGsbeKXgzg2sye9b2"
    },
    {
        "text": "sandbox: sk_test_aaaaaaaa-sk_live_Rann76dEyTzAeKOmXRrvftva"
    },
    {
        "text": "DB_PASSWORD_CIPHERTEXT=AQICAHcHJvZC1kYi1wYXNzd29yZDogSHVudGVyMiFIdW50ZXIyISBIdW50ZXIyISB4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHg="
    },
    {
        "text": "we encrypt nothing. token gAAAAAB0prFmbh7_wy5yq1XoY1BaIMcAxYmfsB4HbQLXjjlAFbVV6q9rXxtNDFyuzX9k1gnneGEYG1_LwiqD9jJBAciI05FhfwKVqlUr5Qr"
    }
]


@pytest.mark.parametrize("value", REVIEWED)
def test_the_reviews_bypasses_are_refused(value: dict) -> None:
    assert refused_kinds(GUARD, value)


@pytest.mark.parametrize(
    "text", ["a" * 20000 + " h1:", "AKIA " + "secretaccesskey" * 1333, "applicationServerKey: " + "B" * 20000]
)
def test_long_inputs_stay_fast(text: str) -> None:
    """Quadratic paths the review found (a go.sum prefix, a secret's name): bounded now."""
    t0 = time.perf_counter()
    try:
        GUARD.check({"text": text}, namespace=("memories", "u1"), key="mem_5e1f")
    except Exception:
        pass
    assert time.perf_counter() - t0 < 2.0
