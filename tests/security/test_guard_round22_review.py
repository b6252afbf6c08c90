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
    'widget key Xq9vT2mLp8RzK4wN7bYc3HdJ, used in the browser once, then it got out',
    'api key for the mailer (kms): AQICAHgT3mL9pQ7xR2vK8wN4zB6cY1dF5hJ0sA3eG7iU9oP2',
    'admin password hash is $P$BMyRealPasswordHunter2isGoodX1234',
    # six digits a phone's or UPI's PIN in India's scripts; a gate's word inflected
    'फोनचा पिन = 272691',
    'यूपीआई पिन 482913',
    'kóði á hliðinu er 3840#',
    # the second review's: words before an e-mail, a PIN with no address beside it, a hash
    # holding words, curly quotes, more wordings of a code before its thing, a leak said
    # otherwise, sqlplus's alias, a dash after a client id, Latvian, commas, inflections
    'Netflix sofia5@fastmail.com — Maple_waffle14$',
    'MyChart login: jane.doe@gmail.com: Qz7!mB2vLp, changed it in March',
    'मेरा सीक्रेट पिन 482913 है, किसी को मत बताना',
    'पेटीएम पिन 482913 है',
    'password: $P$BMyRealPasswordIsHunter2Ok.2024',
    'password: pbkdf2:sha256:600000$Hunt3r2P4ssw0rdX$a258ffaf92bcb48593edde4a5967621ed2a2be424775b9a05c0f3f5c5f5110f0',
    'the code is ‘four eight two seven’ for the gate',
    "the code is 4827 for Grandma's house",
    'the code is 4827 to get into the building',
    'the code is 4827 for the apartment',
    'My Gemini API key AIzaSyD3kF8q2Lm9Xw4Rt7Yb1Nc6Vz0Pq5Hs2Jg (public now, I pushed it to GitHub by mistake)',
    'sqlplus scott/Tiger#2024@ORCL',
    'Fitbit API: client id 23BX7Q — Xq9vT2mLp8Rz4kW7nB3cD5fG',
    'Banka parole Zv41gzne!2024',
    'Šifra za vrata, ako zatreba, 4827',
    'Cheia de rezervă: codul ușii e 4827',
    'Koodi porttiin on 4827',
    'Kapuhoz a kód 4827',
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
    # the second review's: medication and plan shorthand, real hashes, a paint's and a tax's
    # code, a key exposed by design, '(public)' at the sentence's end, a message's subject, a path
    'Meds: Metformin/500mg-XR@08:30/daily, with food',
    'Training plan: run/tempo-5k@06:30/Tue',
    'Prometheus scrape job node/exporter@monitor:9100/metrics',
    'password: $6$85uaj4gZECBU5U4y$ynEE2hndKs1YJit/nRhSvKBJ5NSVid.1DYriZWi2aBi3TgDPe0.vPqbzaqsLWzD2zuguiRjLkNbcbZqp9PXJuz',
    'colour code 7016 for the garage door',
    'tax code 1257 for the house',
    'Google Maps browser key AIzaSyD3kF8q2Lm9Xw4Rt7Yb1Nc6Vz0Pq5Hs2Jg (exposed in the page source by design)',
    'OpenWeather key 8f3c9a1e7b2d4f6a0c5e8b1d3f7a9e3a for the weather widget on my dashboard (public)',
    'support@acme.io: ticket#48213 (for the refund)',
    'Forwarded by anna@familymail.de: Krankenkasse-Bescheid2024 (in Downloads)',
    'Therapy client id C-20931 / uploads/2024/03/c20931-intake-form.pdf',
]


@pytest.mark.parametrize("value", REFUSED)
def test_bypass_is_refused(guard, value):
    assert refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_no_ones_secret_is_stored_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
