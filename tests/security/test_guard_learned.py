"""The guard's learned reader (``langgraph_trustmem/guard/learned.py``).

It only adds refusals after every rule passed; its weights ship with the package and are
trained by ``bench/train_guard.py`` on the tuning corpora only. These tests hold what a user
relies on: the weights are the ones trained on the corpora in this repository (and on none
of the held-out ones), the same text always gets the same features, a phrasing no rule names
is refused, its homonyms are not, a refusal names only the kind, and no input breaks it.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np
import pytest

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import SECRET_KINDS, Guard
from langgraph_trustmem.guard.learned import DIMS, KIND, LearnedModel, features, shipped, text_of

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import guard_eval  # noqa: E402  (after the path setup)


def test_weights_were_trained_on_these_tuning_corpora_and_no_held_out_one():
    meta = shipped().meta
    assert meta["dims"] == DIMS
    assert not set(meta["corpora"]) & set(guard_eval.HELD_OUT)
    unseen = (*guard_eval.HELD_OUT, *guard_eval.NOT_TRAINED)
    assert set(meta["corpora"]) == {n for n in guard_eval.CORPORA if n not in unseen}
    files = meta["files"]
    assert files and not any(f"secrets_{h}/" in f for f in files for h in unseen)
    for rel, digest in files.items():  # a corpus edited or added without retraining shows here
        assert hashlib.sha256((ROOT / rel).read_bytes()).hexdigest() == digest, rel
    on_disk = {
        str(p.relative_to(ROOT))
        for p in guard_eval.DATA.glob("secrets_*/*.jsonl")
        if p.parent.name not in {f"secrets_{h}" for h in unseen}
    }
    assert on_disk <= set(files)
    # the threshold is the one validation chose for its false-positive budget
    chosen = next(r["threshold"] for r in meta["validation"] if r["fp_added_max"] <= meta["fp_budget"])
    assert shipped().threshold == pytest.approx(chosen)


def test_features_are_stable():
    """The weights index these slots: a change to the features without retraining would
    silently turn the reader into noise."""
    idx, values = features("mum's ipad unlock: 190455")
    digest = hashlib.sha256(idx.tobytes() + np.round(values, 5).tobytes()).hexdigest()
    assert digest[:16] == "3460eb743a5c8b02", digest
    assert features("PIN 4821")[0].tolist() == features("PIN 9999")[0].tolist()  # every digit reads as 0
    assert abs(float(np.linalg.norm(values)) - 1.0) < 1e-5


@pytest.mark.parametrize(
    ("text", "digest"),
    [
        # lower-cased as a whole, a capital sigma after a letter becomes a final sigma; each
        # word lower-cased on its own, not: the words are read one by one here
        ("ΟΔΟΣ ΑΘΗΝΑΣ.Σ κωδικός 4821", "9b60e3985c8fb0da"),
        ("İstanbul şifre: Kedi2024!", "e550567533f79274"),  # İ lower-cases to two characters
        ("token " + "Q" * 70 + "9x-Ab", "219c0798ec912574"),  # a token's shape reads its first 64 only
        ("a\u2028b  !!--==  ÄÖ ٣٣", "2581a3db44710e53"),  # runs of marks, other scripts' digits
    ],
)
def test_features_are_the_trained_ones_on_the_edge_cases(text: str, digest: str) -> None:
    """Digests of the features as the shipped weights were trained on them (the reference
    implementation before the fast path): any text, any script, the same slots."""
    idx, values = features(text)
    assert hashlib.sha256(idx.tobytes() + np.round(values, 5).tobytes()).hexdigest()[:16] == digest


@pytest.mark.parametrize(
    "text",
    ["mum's kindle unlock: 190455", "dad's tv parental lock: 482913"],
)
def test_a_phrasing_no_rule_names_is_refused(text):
    with pytest.raises(SecretRejected) as caught:
        Guard().check({"text": text})
    assert list(caught.value.kinds) == [KIND]
    assert text.split(":")[1].strip() not in str(caught.value)
    Guard(learned=False).check({"text": text})  # the rules alone pass it


@pytest.mark.parametrize(
    "text",
    [
        "locker 118 is on the second floor next to the showers",
        "Ipad unlock screen broke, took it to the repair shop",
        "I must change my bank PIN next week",
        "bowling night: we knocked down 9 pins in the last frame",
        "Reminder: dentist at 4pm Thursday, bring insurance card",
    ],
)
def test_homonyms_pass(text):
    value, _ = Guard().check({"text": text})
    assert value == {"text": text}


def test_off_switch_and_kind_listed():
    assert KIND in SECRET_KINDS
    assert Guard(learned=False).learned is False


@pytest.mark.parametrize(
    "value",
    [
        "",
        "\ud800 lone surrogate \udfff",
        "x" * 200_000,
        "🔑" * 500,
        {"a": [1, 2.5, None, True, {"b": "c"}]},
        ["one", "two"],
        12345,
    ],
    ids=["empty", "surrogates", "long", "emoji", "nested", "list", "int"],
)
def test_any_input_is_scored(value):
    p = shipped().score(text_of(value))
    assert 0.0 <= p <= 1.0


def test_saved_weights_round_trip(tmp_path):
    w = np.zeros(DIMS, dtype=np.float32)
    idx, _ = features("door code 1234")
    w[idx] = 5.0
    LearnedModel.save(tmp_path / "m.npz", w, -2.0, 0.9, {"note": "test"})
    m = LearnedModel.from_file(tmp_path / "m.npz")
    assert m.threshold == 0.9 and m.meta == {"note": "test"}
    assert m.flags("door code 1234") and not m.flags("weather is mild")
    np.savez(tmp_path / "bad.npz", weights=np.zeros(10, np.float16), bias=0.0, threshold=0.5,
             meta=np.frombuffer(b"{}", dtype=np.uint8))
    with pytest.raises(ValueError):
        LearnedModel.from_file(tmp_path / "bad.npz")


def test_a_broken_install_fails_when_the_guard_is_made(monkeypatch):
    """Weights missing or cut short: a typed error naming the way out, at Guard(), not at a
    user's first put; a guard without the reader still works."""
    from langgraph_trustmem.errors import ConfigurationError
    from langgraph_trustmem.guard import learned

    def missing() -> LearnedModel:
        raise FileNotFoundError("/site-packages/langgraph_trustmem/data/guard/learned.npz")

    monkeypatch.setattr(learned, "shipped", missing)
    with pytest.raises(ConfigurationError, match="learned=False") as caught:
        Guard()
    assert "site-packages" not in str(caught.value)
    Guard(learned=False).check({"text": "weather is mild"})
    Guard(reject_secrets=False)  # nothing refused: the reader is not needed
