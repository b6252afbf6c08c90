"""Train the guard's learned reader (``langgraph_trustmem/guard/learned.py``).

    python bench/train_guard.py            # validate, choose the threshold, fit, write the weights
    python bench/train_guard.py --validate # only the leave-one-corpus-out table
    python bench/train_guard.py --collect  # first rewrite secrets_suite from the guard's tests

Data: every corpus of ``bench/guard_eval.py`` except the held-out ones (``HELD_OUT``), which
the model never sees; among them ``secrets_suite``, the values the guard's tests check with
the verdicts they hold (``bench/guard_suite_plugin.py``), so the look-alikes the rules were
written to pass teach the model too. Model: L2-regularised logistic regression (L-BFGS, scipy) over the
reader's hashed features of each memory; deterministic, so the same corpora give the same
weights.

Threshold: the reader only refuses what every rule passed, so what it costs is the benign
memories it adds to the rules' refusals. Each of the ``FOLDS`` (the newest corpora, each by
another author) is left out in turn, the model fitted on the rest, and the rules'
verdicts on the left-out corpus combined with the model's (on the memory and on the
disguises the rules undid in it, as the guard reads it); the
threshold is the lowest on the grid whose added false-positive rate is at most ``FP_BUDGET``
on every fold: a new author's look-alikes vary, and the average understated what the first
model added on heldout18 (0.15% in validation, 0.24% there; 0.72% for a model chosen by its
average with the suite's cases added). The table is kept in the weights' metadata.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import guard_eval  # noqa: E402
from langgraph_trustmem.guard import Guard, learned  # noqa: E402
from langgraph_trustmem.guard.learned import DIMS, NGRAMS, LearnedModel, features, text_of, views  # noqa: E402

OUT = ROOT / "langgraph_trustmem" / "data" / "guard" / "learned.npz"
# The newest six corpora, each by another author; heldout18 and heldout19 were never tuned on
# by rules, so on them the rules pass a new author's look-alikes as they will on the next one.
FOLDS = ("heldout15", "heldout16", "heldout17", "heldout18", "heldout19", "heldout20")
LAMBDA = 2e-7
ITERATIONS = 300
FP_BUDGET = 0.001  # on the worst fold
GRID = tuple(round(1 / (1 + np.exp(-(3.0 + 0.1 * i))), 5) for i in range(51))  # logits 3 to 8


def training_names() -> list[str]:
    return [n for n in guard_eval.CORPORA if n not in (*guard_eval.HELD_OUT, *guard_eval.NOT_TRAINED)]


def matrix(texts: list[str]) -> Any:
    import scipy.sparse as sp

    rows, cols, vals = [], [], []
    for i, t in enumerate(texts):
        idx, v = features(t)
        rows.append(np.full(len(idx), i, dtype=np.int64))
        cols.append(idx)
        vals.append(v)
    return sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(len(texts), DIMS)
    )


def fit(x: Any, y: np.ndarray) -> tuple[np.ndarray, float]:
    import scipy.optimize as so

    sign = y.astype(np.float64) * 2 - 1
    share = 1.0 / len(y)

    def loss(wb: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = wb[:-1], wb[-1]
        margin = sign * (x @ w + b)
        value = share * float(np.sum(np.logaddexp(0, -margin))) + 0.5 * LAMBDA * float(w @ w)
        s = -sign * share / (1 + np.exp(margin))
        grad = np.empty_like(wb)
        grad[:-1] = x.T @ s + LAMBDA * w
        grad[-1] = s.sum()
        return value, grad

    r = so.minimize(loss, np.zeros(DIMS + 1), jac=True, method="L-BFGS-B", options={"maxiter": ITERATIONS})
    return r.x[:-1].astype(np.float32), float(r.x[-1])


def probabilities(x: Any, w: np.ndarray, b: float) -> np.ndarray:
    return 1 / (1 + np.exp(-(x @ w + b)))


def load(names: list[str]) -> dict[str, tuple[Any, np.ndarray, list[guard_eval.Record]]]:
    out = {}
    for n in names:
        recs = guard_eval.CORPORA[n]()
        out[n] = (matrix([text_of(r.value) for r in recs]), np.array([r.label == "secret" for r in recs]), recs)
    return out


def rule_views(recs: list[guard_eval.Record]) -> tuple[np.ndarray, list[list[str]]]:
    """The rules' verdict on each record, and the disguises they undid in it (what the
    reader scores beside the memory): read off the guard as it runs, the reader muted."""
    seen: list[list[str]] = []

    def spy(value: Any, undone: Any = ()) -> bool:
        seen[-1] = list(undone)
        return False

    guard, refuses = Guard(), learned.refuses
    learned.refuses = spy
    try:
        verdicts = []
        for r in recs:
            seen.append([])
            verdicts.append(guard_eval.outcome(guard, r)[0])
    finally:
        learned.refuses = refuses
    return np.array(verdicts), seen


def combined(x: Any, undone: list[list[str]], w: np.ndarray, b: float) -> np.ndarray:
    """The probability the guard acts on: the memory's, or its disguises undone's."""
    p = probabilities(x, w, b)  # x holds each memory's first view
    idx = [i for i, u in enumerate(undone) if u]
    if idx:
        second = [views(None, undone[i])[1] for i in idx]
        p[idx] = np.maximum(p[idx], probabilities(matrix(second), w, b))
    return p


def validate(data: dict[str, Any]) -> tuple[float, list[dict[str, Any]]]:
    """Leave each fold out: (threshold, per-threshold table of added recall / false positives)."""
    import scipy.sparse as sp

    folds = []
    for f in FOLDS:
        rest = [n for n in data if n != f]
        w, b = fit(sp.vstack([data[n][0] for n in rest]).tocsr(), np.concatenate([data[n][1] for n in rest]))
        x, y, recs = data[f]
        ruled, undone = rule_views(recs)
        folds.append((combined(x, undone, w, b), y, ruled))
        print(f"fold {f} fitted", flush=True)
    table = []
    for th in GRID:
        gain = [float((ruled | (p >= th))[y].mean() - ruled[y].mean()) for p, y, ruled in folds]
        cost = [float((ruled | (p >= th))[~y].mean() - ruled[~y].mean()) for p, y, ruled in folds]
        table.append({"threshold": th, "recall_added": round(float(np.mean(gain)), 4),
                      "fp_added": round(float(np.mean(cost)), 4), "fp_added_max": round(max(cost), 4)})
    chosen = next((row["threshold"] for row in table if row["fp_added_max"] <= FP_BUDGET), GRID[-1])
    return chosen, table


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def corpus_files() -> dict[str, str]:
    """Every training corpus file and its sha256 (a test checks them against the weights)."""
    held = {f"secrets_{n}" for n in (*guard_eval.HELD_OUT, *guard_eval.NOT_TRAINED)}
    files = [guard_eval.DATA / "secrets.txt", guard_eval.DATA / "benign.txt"]
    files += sorted(p for p in guard_eval.DATA.glob("secrets_*/*.jsonl") if p.parent.name not in held)
    return {str(p.relative_to(ROOT)): sha256(p) for p in files}


def collect() -> None:
    """Rewrite ``tests/data/secrets_suite/suite.jsonl`` from a run of the guard's tests."""
    import os
    import subprocess

    out = guard_eval.DATA / "secrets_suite" / "suite.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "TRUSTMEM_SUITE_OUT": str(out), "PYTHONPATH": str(ROOT / "bench")}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "guard_suite_plugin", "tests/security",
         "--deselect", "tests/security/test_secrets_corpora.py", "--deselect", "tests/security/test_guard_learned.py"],
        cwd=ROOT, env=env, check=True,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--validate", action="store_true", help="print the validation table only")
    ap.add_argument("--collect", action="store_true", help="first rewrite secrets_suite from the guard's tests")
    args = ap.parse_args(argv)
    if args.collect:
        collect()
    names = training_names()
    data = load(names)
    threshold, table = validate(data)
    for row in table:
        print(f"threshold {row['threshold']:.5f}: recall +{row['recall_added']:.4f}, "
              f"false positives +{row['fp_added']:.4f} (worst fold +{row['fp_added_max']:.4f})")
    print(f"chosen threshold {threshold}")
    if args.validate:
        return 0
    import scipy.sparse as sp

    w, b = fit(sp.vstack([data[n][0] for n in names]).tocsr(), np.concatenate([data[n][1] for n in names]))
    meta = {
        "corpora": names,
        "files": corpus_files(),
        "dims": DIMS,
        "ngrams": list(NGRAMS),
        "lambda": LAMBDA,
        "iterations": ITERATIONS,
        "fp_budget": FP_BUDGET,
        "folds": list(FOLDS),
        "validation": table,
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    LearnedModel.save(OUT, w, b, threshold, meta)
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size // 1024} KB), threshold {threshold}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
