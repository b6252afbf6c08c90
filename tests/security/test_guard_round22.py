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
]


@pytest.mark.parametrize(("value", "kind"), REFUSED.items())
def test_refused(guard, value, kind):
    assert kind in refused_kinds(guard, value)


@pytest.mark.parametrize("value", PASSES)
def test_passes_unchanged(guard, value):
    assert stored(guard, value) == (value, [])
