"""The guard's recall, false-positive rate and speed on the labelled corpora.

The figures are those of ``bench/guard_eval.py`` (recorded in ``bench/README.md``): every
record is checked as ``TrustStore.put`` checks it, a refusal or a redaction counts as
caught for a secret and as a false positive for a benign memory. No server is needed.

Corpora: the four tuning corpora and the first seventeen held-out corpora (``secrets_heldout``
to ``secrets_heldout17``) have had their misses read and tuned on; the eighteenth
(``secrets_heldout18``) had its totals read while the learned reader was built and trains
it now, as do the nineteenth (measured once first) and two corpora written for training
(``secrets_train20a``, ``secrets_train20b``); the twentieth (``secrets_heldout20``) was
held out until the twenty-second round tuned rules on it and trained the reader with it; the
twenty-first (``secrets_heldout21``) was held out until the twenty-third round tuned rules on
it and the fortieth stop trained the reader with it; the twenty-second (``secrets_heldout22``)
was held out until the forty-second stop tuned rules on it (the reader has never been trained
on it); the twenty-third (``secrets_heldout23``), written by a helper that never saw the guard
and committed frozen before it was first run, is the held-out figure of record.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import guard_eval  # noqa: E402  (after the path setup)

# The targets, on a corpus the guard was not tuned on.
TARGET_RECALL = 0.97
TARGET_FP = 0.01
TARGET_MS = 0.5


def test_tuning_corpus(guard):
    report, misses, fps = guard_eval.evaluate("tuning", guard_eval.tuning_corpus(), guard, timing=False)
    assert report.secrets >= 500 and report.benign >= 500
    assert report.errors == 0
    assert report.recall >= 0.99, [r.id for r in misses]
    assert report.recall_hard >= 0.99, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_first_heldout_corpus_is_tuning_data_now(guard):
    """Its misses were read and tuned on: it is held to the tuning corpus's standard."""
    report, misses, fps = guard_eval.evaluate("heldout", guard_eval.heldout_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.99, [r.id for r in misses]
    assert report.recall_hard >= 0.99, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_second_heldout_corpus_is_tuning_data_now(guard):
    """Its misses were read and tuned on in the third round: held to the tuning standard."""
    report, misses, fps = guard_eval.evaluate("heldout2", guard_eval.heldout2_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.99, [r.id for r in misses]
    assert report.recall_hard >= 0.98, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_third_heldout_corpus_is_tuning_data_now(guard):
    """Its misses were read and tuned on in the fourth round: held to the tuning standard."""
    report, misses, fps = guard_eval.evaluate("heldout3", guard_eval.heldout3_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.99, [r.id for r in misses]
    assert report.recall_hard >= 0.98, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_fourth_heldout_corpus_is_tuning_data_now(guard):
    """Its misses were read and tuned on in the fifth round (0.856 -> 0.939, 0.949 after the
    sixth); the kinds it still misses (evasions, vendor tokens without a name) are left, so
    it is held to what was measured, not to the tuning corpus's standard."""
    report, misses, fps = guard_eval.evaluate("heldout4", guard_eval.heldout4_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.93, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_fifth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a helper that never saw the guard and frozen before the fifth round, where
    it measured 0.846 recall and 0.018 false positives; its misses were read and tuned on in
    the sixth round (0.956 / 0.008). It is held to what was measured after that round."""
    report, misses, fps = guard_eval.evaluate("heldout5", guard_eval.heldout5_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.95, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_sixth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a third helper that never saw the guard and frozen before the sixth round
    was committed, where it measured 0.788 recall and 0.021 false positives; its misses were
    read and tuned on in the seventh round (0.906 / 0.021). Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout6", guard_eval.heldout6_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.91, [r.id for r in misses]
    assert report.fp_rate <= 0.013, [r.id for r, _ in fps]


def test_seventh_heldout_corpus_is_tuning_data_now(guard):
    """Written by a fourth helper that never saw the guard, committed frozen before the
    seventh round, where it measured 0.798 recall (0.667 on evasions) and 0.008 false
    positives; its misses were read and tuned on in the eighth round (the cue check,
    ``guard/cues.py``): 0.927 / 0.008. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout7", guard_eval.heldout7_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0  # no check raises anything but SecretRejected
    assert report.recall >= 0.92, [r.id for r in misses]
    assert report.recall_hard >= 0.86, [r.id for r in misses]
    assert report.fp_rate <= TARGET_FP, [r.id for r, _ in fps]


def test_eighth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a fifth helper that never saw the guard, committed frozen (its README)
    before the eighth round was committed. Measured before the round (0.829 recall, 0.725
    on evasions, 0.027 false positives) and after it (0.857 / 0.760 / 0.023); its misses
    were read and tuned on in the ninth round (records, labels, encodings in place, more
    phrasings): 0.954 / 0.928 / 0.014, and after the round's two reviews' mends 0.951 /
    0.925 / 0.014. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout8", guard_eval.heldout8_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0  # no check raises anything but SecretRejected
    assert report.recall >= 0.95, [r.id for r in misses]
    assert report.recall_hard >= 0.92, [r.id for r in misses]
    assert report.fp_rate <= 0.015, [r.id for r, _ in fps]


def test_ninth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a sixth helper that never saw the guard, committed frozen (ac78925)
    before it was first run. Measured once before the ninth round (0.799 recall, 0.679 on
    evasions, 0.018 false positives) and after it (0.830 / 0.741 / 0.016); its misses were
    read and tuned on in the tenth round (slips in cue words, the phonetic alphabet,
    spaced character codes, CSV exports, codes in more languages, log lines, ARNs):
    0.897 / 0.809 / 0.000, and after the round's review mends 0.886 / 0.801 / 0.000.
    Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout9", guard_eval.heldout9_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.88, [r.id for r in misses]
    assert report.recall_hard >= 0.79, [r.id for r in misses]
    assert report.fp_rate <= 0.002, [r.id for r, _ in fps]


def test_tenth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a seventh helper that never saw the guard, committed frozen (33bca85)
    before it was first run. Measured before the tenth round (0.800 recall, 0.668 on
    evasions, 0.026 false positives) and after it (0.804 / 0.668 / 0.022); its misses
    were read and tuned on in the eleventh round (codes of phones and rooms, codes on the
    line after their name or before it, CVVs, plural recovery codes, code words, app
    passwords, character codes, SSH public keys): 0.863 / 0.721 / 0.020, and after the
    round's review mends 0.854 / 0.702 / 0.020, and with values cut into string literals or
    written a character at a time read whole, webhook URLs and records naming a PIN, 0.867 /
    0.724 / 0.020. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout10", guard_eval.heldout10_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.86, [r.id for r in misses]
    assert report.recall_hard >= 0.71, [r.id for r in misses]
    assert report.fp_rate <= 0.021, [r.id for r, _ in fps]


def test_eleventh_heldout_corpus_is_tuning_data_now(guard):
    """Written by an eighth helper that never saw the guard or any other corpus, committed
    frozen (216da22) before it was first run. Measured before the eleventh round: 0.808
    recall, 0.724 on evasions, 0.193 false positives, nearly all of them one cause (a
    memory key of ``mem_`` and 32 hex digits read as a vendor's token). After the eleventh
    round and its mends: 0.785 / 0.685 / 0.011. Its misses were read and tuned on in the
    twelfth round (conversations, clause-bound negation, Chinese, Japanese and Korean cues,
    compound password words, values down a column or between symbols, account lists,
    disguises undone before the cues are read): 0.885 / 0.793 / 0.004, and with the round's
    second half (leet and device-login cues, generated passphrases, more languages' lock
    and answer words) 0.908 / 0.808 / 0.004, and with values named after them (a comment, a
    bracket), SQL and word lists 0.917 / 0.828 / 0.002, and with passwords in file names,
    spaced separators and account rows split by ";" 0.921 / 0.840 / 0.002. Held to what was
    measured."""
    report, misses, fps = guard_eval.evaluate("heldout11", guard_eval.heldout11_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.92, [r.id for r in misses]
    assert report.recall_hard >= 0.83, [r.id for r in misses]
    assert report.fp_rate <= 0.0032, [r.id for r, _ in fps]


def test_twelfth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a ninth helper that never saw the guard or any other corpus, committed
    frozen (6ed1aad) before it was first run. Measured on the guard before the twelfth
    round (9731856): 0.813 recall, 0.709 on evasions, 0.026 false positives; after the
    round and its review's mends 0.855 / 0.770 / 0.027. Its misses and false positives were
    read and tuned on in the thirteenth round (encodings read in place, values below their
    name, more languages' cues, labelled records, and its 30 false positives by class):
    0.951 / 0.909 / 0.000. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout12", guard_eval.heldout12_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.95, [r.id for r in misses]
    assert report.recall_hard >= 0.90, [r.id for r in misses]
    assert report.fp_rate <= 0.001, [r.id for r, _ in fps]


def test_thirteenth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a tenth helper that never saw the guard or any other corpus, committed
    frozen (6d6987e) before it was first run. Measured on the guard before the thirteenth
    round (b7d6af2): 0.845 recall, 0.779 on evasions, 0.033 false positives; after it
    0.874 / 0.816 / 0.028. Its misses and false positives were read and tuned on in the
    fourteenth round (values sealed or public by design, codes named in more languages,
    values placed by code, tables and hints, values in the key or namespace or in pieces):
    0.940 / 0.903 / 0.000. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout13", guard_eval.heldout13_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.94, [r.id for r in misses]
    assert report.recall_hard >= 0.90, [r.id for r in misses]
    assert report.fp_rate <= 0.001, [r.id for r, _ in fps]


def test_fourteenth_heldout_corpus_is_tuning_data_now(guard):
    """Written by an eleventh helper that never saw the guard or any other corpus, committed
    frozen (59a1aee) before it was first run. Measured on the guard before the fourteenth
    round (0fb6656): 0.764 recall, 0.571 on evasions, 0.031 false positives; after it:
    0.782 / 0.604 / 0.021. Its misses and false positives were read in the fifteenth round
    (codes named in more languages, security questions as fields, chats as text lines,
    texted codes, digits of other scripts, gift cards' codes; a password's hash, a request's
    signature, anon and documentation tokens, a keypad game): 0.826 / 0.625 / 0.006. Held
    to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout14", guard_eval.heldout14_corpus(), guard, timing=False)
    assert report.errors == 0
    assert report.recall >= 0.82, [r.id for r in misses]
    assert report.recall_hard >= 0.62, [r.id for r in misses]
    assert report.fp_rate <= 0.007, [r.id for r, _ in fps]


def test_fifteenth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a twelfth helper that never saw the guard or any other corpus, committed
    frozen (c8c9e19) before it was first run. Measured on the guard before the fifteenth
    round (7a13c03): 0.737 recall, 0.569 on evasions, 0.012 false positives; after the
    round and its review's mends 0.745 / 0.569 / 0.011. Its misses and false positives were
    read in the sixteenth round (public values masked for the record readers, a note's
    headings, backup-code sheets, dial combinations, wallet words as items, secrecy words,
    codes named in 35 languages): 0.811 / 0.593 / 0.000. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout15", guard_eval.heldout15_corpus(), guard, timing=False)
    assert report.errors == 0
    assert report.recall >= 0.81, [r.id for r in misses]
    assert report.recall_hard >= 0.59, [r.id for r in misses]
    assert report.fp_rate <= 0.001, [r.id for r, _ in fps]


def test_sixteenth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a thirteenth helper that never saw the guard or any other corpus, committed
    frozen (af6b324) before it was first run. Measured on the guard before the sixteenth
    round (6a391a6): 0.784 recall, 0.587 on evasions, 0.025 false positives; after it and its
    review's mends (b972329): 0.791 / 0.587 / 0.019. Its misses and false positives were read
    in the seventeenth round (passwords, security questions, verification and door codes in
    more languages; words encoded, an empty key armour, where a password is kept, a registry
    key's id, a share of people in a study; a value in numbered pieces, kept in the memory's key,
    spelled in eleven more languages), after the round's review: 0.856 / 0.616 / 0.002. Held to
    what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout16", guard_eval.heldout16_corpus(), guard, timing=False)
    assert report.errors == 0
    assert report.recall >= 0.855, [r.id for r in misses]
    assert report.recall_hard >= 0.61, [r.id for r in misses]
    assert report.fp_rate <= 0.002, [r.id for r, _ in fps]


def test_seventeenth_heldout_corpus_is_tuning_data_now(guard):
    """Written by a fourteenth helper that never saw the guard or any other corpus, committed
    frozen (2f945ba) before it was first run. Measured on the guard before the seventeenth
    round (d689b7f): 0.847 recall, 0.776 on evasions, 0.021 false positives; after the round and
    its review's mends (cf94d39): 0.853 / 0.776 / 0.021. Its misses and false positives were
    read in the eighteenth round (ciphertext, placeholders, secret-manager addresses, a named
    Twilio SID, a Firebase web config; notes with the value on the next line or first, forms as
    label and value, security questions in more languages): 0.885 / 0.778 / 0.003. Held to
    what was measured."""
    report, misses, fps = guard_eval.evaluate("heldout17", guard_eval.heldout17_corpus(), guard, timing=False)
    assert report.errors == 0
    assert report.recall >= 0.884, [r.id for r in misses]
    assert report.recall_hard >= 0.777, [r.id for r in misses]
    assert report.fp_rate <= 0.0032, [r.id for r, _ in fps]


def test_eighteenth_heldout_corpus_is_training_data_now(guard):
    """Written by a fifteenth helper that never saw the guard or any other corpus, committed
    frozen (0f89a04) before it was first run. Measured on the guard before the eighteenth
    round (861d88e): 0.834 recall, 0.773 on evasions, 0.029 false positives; after the round
    (tuned on heldout17 only): 0.835 / 0.773 / 0.027. Its totals were read while the learned
    reader was built (0.857 / 0.822 / 0.029 for a first model; 0.852 / 0.815 / 0.029 for the
    model shipped before heldout19 came), and it is the reader's training data now: 0.852 /
    0.810 / 0.027 with the model trained with it; 0.850 / 0.805 / 0.027 with the one trained on
    heldout19, train20a and train20b too. Until the forty-first stop its records were never read
    to choose rules; that stop read its false positives (VAPID keys, KSUIDs, Fernet tokens) and
    mended them: 0.882 / 0.812 / 0.0080, tuning figures now."""
    report, _, _ = guard_eval.evaluate("heldout18", guard_eval.heldout18_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.850
    assert report.recall_hard >= 0.804
    assert report.fp_rate <= 0.0080


def test_nineteenth_heldout_corpus_is_training_data_now(guard):
    """Written by a sixteenth helper that never saw the guard or any other corpus, committed
    frozen (0c3a562) before it was first run, and measured once, after the learned reader was
    retrained with heldout18 as planned before it arrived: rules alone 0.850 recall, 0.667 on
    evasions, 0.0325 false positives; with the reader 0.877 / 0.749 / 0.0355. Never tuned on
    by rules before; the reader's training data since heldout20 came: 0.879 / 0.749 / 0.0325;
    its false positives were read in the twentieth round (password hashes as stores print
    them, values dotenvx and Jasypt encrypted): 0.879 / 0.749 / 0.0207."""
    report, _, _ = guard_eval.evaluate("heldout19", guard_eval.heldout19_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.878
    assert report.recall_hard >= 0.749
    assert report.fp_rate <= 0.0207


def test_twentieth_heldout_corpus_is_training_data_now(guard):
    """Written by a helper that never saw the guard or any other corpus, committed frozen
    (2bfdca0) before it was first run, and measured once, after the learned reader was
    retrained with heldout19, train20a and train20b as planned before it arrived: rules alone
    0.837 recall, 0.737 on evasions, 0.0309 false positives; with the reader 0.867 / 0.817 /
    0.0309. After the twentieth round measured again: 0.867 / 0.817 / 0.0281. A held-out figure
    of record until the twenty-second round read its misses and false positives, tuned rules on
    them and trained the reader on it: 0.947 / 0.857 / 0.0065, then 0.0072 after the review's mends (tuning figures, not held out).
    The fortieth stop's reader (trained with train40a too, at a higher threshold its folds chose):
    0.943 / 0.846 / 0.0072; the forty-first stop's keys said to be kept elsewhere: 0.0058."""
    report, _, _ = guard_eval.evaluate("heldout20", guard_eval.heldout20_corpus(), guard, timing=False)
    assert report.secrets >= 300 and report.benign >= 300
    assert report.errors == 0
    assert report.recall >= 0.942
    assert report.recall_hard >= 0.845
    assert report.fp_rate <= 0.0058


def test_twenty_first_heldout_corpus(guard):
    """Written by a helper that never saw the guard or any other corpus (458 secrets: 222
    provider credentials from a catalogue of 612 formats, 132 personal secrets in 19
    languages, 104 evasions of 65 techniques; 460 benign, 255 of them look-alikes), committed
    frozen (ee4076c) before it was first run, and measured once, on the guard of the
    thirty-seventh stop (its speed changes only: verdicts identical on every other corpus):
    0.915 recall, 0.789 on evasions, 0.0348 false positives (16 of 460), 1.14 ms per
    200-character memory; rules alone 0.904 / 0.750 / 0.0348. Measured once more after the
    twenty-second round (rules tuned on heldout20, the reader retrained with it): 0.926 / 0.808
    / 0.0348 (424 of 458 secrets, 16 of 460 benign); rules alone 0.910 / 0.760 / 0.0348. Never
    tuned on, never trained on until then. The twenty-third round read its misses and false
    positives and tuned rules on them (the learned reader was not retrained: it has still never
    seen it): 0.991 / 0.962 / 0.0087 (4 of 460); rules alone 0.978 / 0.923. Tuning data now,
    and training data since the fortieth stop retrained the reader with it: 0.989 / 0.962 /
    0.0087 (the new weights reach one secret fewer here; the rules' verdicts are unchanged); with
    train40a in the reader's training too, 0.989 / 0.952 / 0.0087."""
    report, misses, fps = guard_eval.evaluate("heldout21", guard_eval.heldout21_corpus(), guard, timing=False)
    assert report.secrets >= 450 and report.benign >= 450
    assert report.errors == 0
    assert report.recall >= 0.989, [r.id for r in misses]
    assert report.recall_hard >= 0.951
    assert report.fp_rate <= 0.0087, [r.id for r, _ in fps]


def test_twenty_second_heldout_corpus(guard):
    """Written by a helper that never saw the guard or any other corpus (472 secrets: 189
    provider credentials of 167 formats, 165 personal secrets in English and 22 languages,
    118 evasions of 104 techniques; 470 benign, 259 of them look-alikes of 165 families),
    committed frozen (405bb13) before it was first run, and first measured on the guard of
    4e86ab9 (round 22 and its review's mends): 0.939 recall, 0.856 on evasions, 0.0149 false
    positives (7 of 470), 1.25 ms per 200-character memory; rules alone 0.934 / 0.839 /
    0.0149. Measured again after the twenty-third round (rules tuned on heldout21, and that
    round's two reviews mended): identical, 0.939 / 0.856 / 0.0149. Measured a third time after
    the learned reader was retrained with heldout21 (the retraining planned before this
    measurement, its threshold chosen by the usual folds): 0.941 / 0.864 / 0.0170 (one secret
    and one false positive more than the rules' own 0.934 / 0.839 / 0.0149). Measured a fourth
    time after the fortieth stop's rules and the reader retrained with train40a: identical. Held
    out until then; the forty-second stop read its misses and false positives and tuned rules on
    them (the reader was not retrained): 0.970 / 0.915 / 0.0128 (14 of 472 secrets missed, 6 of
    470 benign flagged); rules alone 0.966 / 0.898 / 0.0106. Tuning data now."""
    report, misses, fps = guard_eval.evaluate("heldout22", guard_eval.heldout22_corpus(), guard, timing=False)
    assert report.secrets >= 450 and report.benign >= 450
    assert report.errors == 0
    assert report.recall >= 0.970, [r.id for r in misses]
    assert report.recall_hard >= 0.915
    assert report.fp_rate <= 0.0128, [r.id for r, _ in fps]


def test_twenty_third_heldout_corpus(guard):
    """Written by a helper that never saw the guard, its tests or any other corpus (513 secrets:
    233 provider credentials of 233 formats, 154 personal secrets in English and 21 languages,
    126 evasions of 100 techniques; 517 benign, 318 of them look-alikes of 177 families),
    committed frozen (aa09973) before it was first run. Measured first on the guard of stop 41
    (e83a282): 0.938 recall, 0.937 on evasions, 0.0193 false positives (10 of 517), 1.15 ms per
    200-character memory; rules alone 0.922 / 0.889 / 0.0193. Measured again after the
    forty-second stop's rules (tuned on heldout22 and the training corpora: 97 secrets gained and
    28 false positives gone there): identical, 0.938 / 0.937 / 0.0193; and a third time after that
    stop's review mends: identical. Never tuned on, never
    trained on: the held-out figure of record. The targets are not met. Asserted as measured,
    so a regression shows; its records are never read."""
    report, _, _ = guard_eval.evaluate("heldout23", guard_eval.heldout23_corpus(), guard, timing=False)
    assert report.secrets >= 500 and report.benign >= 500
    assert report.errors == 0
    assert report.recall >= 0.937  # target TARGET_RECALL: not met
    assert report.recall_hard >= 0.936
    assert report.fp_rate <= 0.0194  # target TARGET_FP: not met


def test_fourth_tuning_corpus(guard):
    """Written by a helper that never saw the guard, as tuning data of evasions (800 of
    its 970 secrets disguised by 246 techniques) and look-alikes (840 of 1,020 benign
    memories, 210 families). Measured first at 0.540 recall and 0.010 false positives (and
    a crash on escaped surrogates, mended); after the values built in code, digits spelled in
    more scripts, a code spelled in the next message, smuggled characters: 0.612 / 0.010; after
    the fifteenth round (a password's hash, a command's output): 0.615 / 0.007; after the
    sixteenth: 0.628 / 0.007. Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("tuning4", guard_eval.tuning4_corpus(), guard, timing=False)
    assert report.benign >= 1000
    assert report.errors == 0
    assert report.recall >= 0.625, [r.id for r in misses]
    assert report.fp_rate <= 0.008, [r.id for r, _ in fps]


def test_third_tuning_corpus(guard):
    """Written by a helper that never saw the guard, as tuning data for false positives
    (1,609 benign memories, 1,309 of them look-alikes of 174 families; 312 secrets).
    Measured first at 0.878 recall and 0.015 false positives; its false positives were read
    and fixed by class (public Mapbox tokens, SSH public keys, cache keys, ULIDs, payment
    records and event ids, barcodes, code computing a password, test fixtures, boarding
    passes): 0.878 / 0.001; then its misses (pick-up codes, codes a service sent, gift and
    wallet codes, auth tuples in code, tokens cut with "+"): 0.936 / 0.001; with combinations
    named right before their numbers 0.949 / 0.001; with the fourteenth round (gift cards by
    their store, numbered wallet words) 0.971 / 0.001, and after its review's mends (wallet
    words numbered without a wallet named must carry their checksum) 0.968 / 0.001. Held to
    what was measured."""
    report, misses, fps = guard_eval.evaluate("tuning3", guard_eval.tuning3_corpus(), guard, timing=False)
    assert report.benign >= 1500
    assert report.errors == 0
    assert report.recall >= 0.965, [r.id for r in misses]
    assert report.fp_rate <= 0.002, [r.id for r, _ in fps]


def test_second_tuning_corpus(guard):
    """Written by a helper that never saw the guard, as tuning data to find false positives
    (1,307 benign memories, 986 of them look-alikes of 89 families; 309 secrets). Measured
    first at 0.867 recall and 0.010 false positives; its false positives were read and
    fixed (password policies in five languages, a validation pattern, a keyring lookup, a
    Terraform variable, a pagination token, a public JSON Web Key, a port in an sshd log):
    0.867 / 0.000; its misses read in the fourteenth round (seed phrases after a dash and in
    six languages, codes in more languages, security questions asked by topic): 0.935 / 0.000,
    0.932 after the round's review mends.
    Held to what was measured."""
    report, misses, fps = guard_eval.evaluate("tuning2", guard_eval.tuning2_corpus(), guard, timing=False)
    assert report.benign >= 1000
    assert report.errors == 0
    assert report.recall >= 0.93, [r.id for r in misses]
    assert report.fp_rate <= 0.001, [r.id for r, _ in fps]


@pytest.mark.parametrize("corpus", ["heldout", "heldout23"])
def test_speed_per_200_char_memory(guard, corpus):
    """A regression guard only, far above the measured figure: the speed
    target (TARGET_MS) is checked by ``bench/guard_eval.py`` on an idle
    machine, never by a timed test that a busy CI box would fail."""
    texts = guard_eval.memories_200(guard_eval.CORPORA[corpus]())
    best, median = guard_eval.ms_per_memory(guard, texts)
    print(f"\nGuard.check per 200-char memory ({corpus}): best {best:.3f} ms, median {median:.3f} ms")
    assert best <= 10 * TARGET_MS


def test_fortieth_stop_training_corpora(guard):
    """Two corpora written for the learned reader by helpers that never saw the guard or any
    other corpus, measured once on the guard before anything was trained on them (rules +
    reader: train40a 0.823 / 0.748 / 0.0072, train40b 0.917 / 0.822 / 0.1333). train40a
    (personal and conversational secrets in 29 languages) trains the reader now; train40b
    (provider credentials in 65 containers) was read for rule families (command lines,
    references) and is kept out of the reader's training: its author labelled benign about 90
    records the guard refuses by policy (test-mode keys, an AWS key id alone, vendors' examples
    quoted from memory), most of its 179 false positives. Asserted as measured after. The
    forty-first stop stored such keys where the memory says in words that they are not live
    (a sandbox, a secret kept elsewhere, a key said public): train40b's false positives 0.1193
    -> 0.0900. The forty-second stop read train40a's misses for rules for the first time
    (security questions asked as banks ask them, backup codes named in more languages) and
    train40b's again (tokens given in pieces, command lines): train40a 0.855 / 0.771 / 0.0066,
    train40b 0.926 / 0.836 / 0.0827."""
    a, _, _ = guard_eval.evaluate("train40a", guard_eval.train40a_corpus(), guard, timing=False)
    assert a.secrets >= 1500 and a.benign >= 1500 and a.errors == 0
    assert a.recall >= 0.855 and a.recall_hard >= 0.771 and a.fp_rate <= 0.0066
    b, _, _ = guard_eval.evaluate("train40b", guard_eval.train40b_corpus(), guard, timing=False)
    assert b.secrets >= 1500 and b.benign >= 1500 and b.errors == 0
    assert b.recall >= 0.926 and b.recall_hard >= 0.836 and b.fp_rate <= 0.0827
