"""A Sealed Secret's manifest stored the ways users keep it (parsed into a record, or a line a
list item) is no one's secret: kubeseal's ciphertexts are published by design. What is
written beside them still is. And an address followed by a message's subject or a file's
name (words in title case and a year) is no login; an address and a password after " / " or
with a symbol still is. The phrasings are written for this test, not taken from the corpora."""

from __future__ import annotations

import pytest

from langgraph_trustmem.guard import Guard

from .helpers import refused_kinds, stored

RULES = Guard(learned=False)

# kubeseal's ciphertext: version byte 2 ("Ag" in base64), then hundreds of base64 characters
CIPHERTEXT = "AgBy3i4OJSWK+PiTySYZZA9rO43cGDEq2RmxYz8fBMZsL2dDXvk5ACb4f8rNq9n6YQxfwLd1b2LyC8nJ+QpYQ4jHvZ9wXq6mZ0yBvNnT1sGkO0p5cR7eQ4jHvZ9wXq6mZ0y=="

PUBLISHED = [
    {"apiVersion": "bitnami.com/v1alpha1", "kind": "SealedSecret", "metadata": {"name": "db"},
     "spec": {"encryptedData": {"password": CIPHERTEXT, "api_token": "Ag" + CIPHERTEXT[2:].rstrip("=")[::-1]}}},
    {"kind": "SealedSecret", "spec": {"encryptedData": {"password": CIPHERTEXT}}},
    ["apiVersion: bitnami.com/v1alpha1", "kind: SealedSecret", "metadata:", "  name: db", "spec:",
     "  encryptedData:", f"    password: {CIPHERTEXT}"],
    {"manifest": ["kind: SealedSecret", "spec:", "  encryptedData:", f"    DB_PASSWORD: {CIPHERTEXT}"]},
    "From noreply@bank.com: Statement_March2024",
    "mom@gmail.com | BirthdayPlans2024",
    "sent to team@clinic.org: Minutes-Board-Meeting-2025",
]

PYPI = "pypi-AgEIcHlwaS5vcmcCJGQ5YjM0ZWE2LTRmOGEtNGY2Ny1hZGIzLTk3ZGQ2YjU4MWUwZgACKlszLCJmMmRlOTc2Yi0xNGE0LTRkNjctYTQ2My05ZjRlNmQ2N2U0OGQiXQAABiB3Xq9vT2mLp8RzK4wN7bYc3HdJQ9wE8rT7yU6i"
STS = "AgoJb3JpZ2luX2VjEJov" + "Q9wE8rT7yU6iO5pA4sD3fG2hJ1kL0zX9cV8b" * 6

STILL_REFUSED = [
    # only a manifest's ciphertexts under encryptedData are excused, in a record naming the kind
    {"manifest": ["spec:", "  encryptedData:", f"    DB_PASSWORD: {CIPHERTEXT}"]},
    ["SealedSecret", PYPI],  # a PyPI token's macaroon starts with "Ag" too
    {"kind": "SealedSecret", "release": {"cmd": f"twine upload dist/* -u __token__ -p {PYPI}"}},
    {"q": "what is encryptedData?", "aws_session_token": STS},
    {"kind": "SealedSecret", "token": STS},
    # a login's line, or random letters in title case, is no subject
    "netflix account  jane@corp.com - BrightMorningSun2024",
    "router admin: admin@router.lan | Qvtrp_Zmwkd_Hjxfl99",
    # a ciphertext's shape outside a manifest: a field named password holds it
    {"spec": {"data": {"password": CIPHERTEXT}}},
    # a manifest does not excuse what stands beside the ciphertexts
    {"kind": "SealedSecret", "spec": {"encryptedData": {"password": CIPHERTEXT}},
     "note": "the admin password is Tr0ub4dor&3x!"},
    {"spec": {"encryptedData": {"password": CIPHERTEXT}}, "token": "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"},
    {"kind": "SealedSecret", "password": "hunter2!Xy9"},
    # an address and its password, as logins are kept
    "sofia5@fastmail.com / Maple_waffle14$",
    "mom@gmail.com | BirthdayPlans2024!",
    "mom@gmail.com / BirthdayPlans2024",
]


@pytest.mark.parametrize("value", PUBLISHED, ids=range(len(PUBLISHED)))
def test_published_by_design_is_stored_unchanged(guard, value):
    assert stored(guard, value) == (value, [])


@pytest.mark.parametrize("value", STILL_REFUSED, ids=range(len(STILL_REFUSED)))
def test_what_stands_beside_is_still_refused(guard, value):
    assert refused_kinds(guard, value)
    assert refused_kinds(RULES, value)  # by the rules, not the learned reader
