"""A key the memory says, in words beside it, is not a live credential is stored: a vendor's
test-mode key ("sk_test_") in a memory that says it is for a sandbox or test mode, and an AWS
access key id whose secret the memory says is kept elsewhere, is given by reference, or that
stands where AWS itself prints ids (an AccessDenied error, a CloudTrail event, IAM's list of
keys). Tuned on the training corpora (train20a's and train40b's false positives; heldout22
never read). A test-mode key said nothing about, named "test" only in an identifier, or beside
a live key, and a key id next to its secret, are still refused. Phrasings written for this test."""

from __future__ import annotations

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
