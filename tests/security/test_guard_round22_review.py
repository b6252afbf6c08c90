"""The adversarial review of the twenty-second round, mended: each bypass it found is refused
and each false positive it found is stored unchanged. The phrasings are the reviewer's kinds,
written for this test; none is taken from a corpus."""

from __future__ import annotations

import pytest

from .helpers import refused_kinds, stored

# bypasses: a secret the round's rules let through
REFUSED = [
    # an OAuth client's id, then its secret
    'client id acme-portal / Xq9vT2mLp8RzK4wN7bYc3HdJ',
    'client_id=acme-portal-web:Xq9vT2mLp8RzK4wN7bYc3HdJ',
    'client id 0oa8x2Kq9LmN | Gk7Qm2Lp9Rt4Vz8Nw3Xy6Bc1',
    # an e-mail and its password after a dash or a colon; Oracle's EZConnect without '//'
    'marketing@acme.com — Winter2024!Sales',
    'ops@acme.io: Qz7!mB2vR9xw',
    'connect scott/Tiger_2024x@db.acme.com:1521/ORCL',
    # a code's value before the thing it opens, spelled inside single quotes too
    "the code is 'four eight two seven' for the gate",
    'the code is 4827 for the gate',
    'code 4827# opens the front door',
    "combo '5531' on the storage unit padlock",
    # a key said public only because it leaked; a short run dressed as a KMS blob;
    # a chosen value dressed as a phpass hash
    'token Xq9vT2mLp8RzK4wN7bYc3HdJ (the token is public now, leaked)',
    'widget key Xq9vT2mLp8RzK4wN7bYc3HdJ, used in the browser once, then revoked',
    'api key for the mailer (kms): AQICAHgT3mL9pQ7xR2vK8wN4zB6cY1dF5hJ0sA3eG7iU9oP2',
    'admin password hash is $P$BMyRealPasswordHunter2isGoodX1234',
    # six digits a phone's or UPI's PIN in India's scripts; a gate's word inflected
    'फोनचा पिन = 272691',
    'यूपीआई पिन 482913',
    'kóði á hliðinu er 3840#',
]

# false positives: no one's secret, which the round's rules refused
PASSES = [
    # India's postal PIN; an order's code; Serbian 'kod' (at); Finnish 'oven' in English;
    # 'parole' in English; app passwords that are words; a screen's 1080p; an error code
    'मेरा पिन 400001 है, मुंबई',
    'पता: 12 गांधी मार्ग, पिन 110001',
    'Našli smo se kod vrata, 1830 je bilo',
    'the oven code 4827 means a fault in the heating element',
    'he was released on parole 2019 after serving 6 years',
    'parole officer Jenkins-4412 meets him weekly',
    'app password then open mail also',
    'app password abcd efgh ijkl mnop is the example on the help page',
    'screen unlock 1080p resolution setting',
    'error code 4827 for the garage door motor',
    'the product code is 4827 for the garage door opener',
    'widget key Xq9vT2mLp8RzK4wN7bYc3HdJ (browser key, public)',
    'wp hash $P$BZGRKx9b7LxcK2QGv3KFJ3r5o0rQ1e/',
    'see docs/readme@v2 and src/main@host:8080/x',
    'کد سفارش کارت هدیه 48271',
    'codul comenzii pentru card 48271',
]


@pytest.mark.parametrize("value", REFUSED)
def test_bypass_is_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_no_ones_secret_is_stored_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
