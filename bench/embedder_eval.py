"""Offline recall quality and speed of an embedder on the hand-written recall sets.

Each set (``tests/data/recall_tuning``, ``tests/data/recall_heldout``) has 400
memories of 20 users and 600 questions that need one or two of them, written
by helpers who never saw a model. A question is a hit when a memory it needs
is among the top 5 by cosine:

- ``user``: among the asking user's 20 memories (what the store searches: a
  user's namespace);
- ``all``: among all 400 (a harder pool, near-duplicates across users).

Speed is texts per second on one core (the process pinned to one CPU), the
memories and questions of the set embedded in one call, best of three.

    python bench/embedder_eval.py                          # the packaged embedder, both sets
    python bench/embedder_eval.py --corpus recall_heldout  # one set
    python bench/embedder_eval.py --model DIR              # a Model2Vec folder
    python bench/embedder_eval.py --wordllama              # the optional WordLlama model

``recall_heldout`` is the figure of record: it was frozen before any model was
chosen or tuned; ``recall_tuning`` is what choices were made on.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
CORPORA = ("recall_tuning", "recall_heldout")
K = 5

Embed = Callable[[list[str]], Any]


def load(corpus: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    folder = DATA / corpus
    memories = [json.loads(line) for line in (folder / "memories.jsonl").read_text().splitlines() if line.strip()]
    queries = [json.loads(line) for line in (folder / "queries.jsonl").read_text().splitlines() if line.strip()]
    return memories, queries


def _unit(x: Any) -> np.ndarray:
    a = np.asarray(x, dtype=np.float32)
    return a / (np.linalg.norm(a, axis=1, keepdims=True) + 1e-12)


def recall(embed: Embed, memories: Sequence[dict[str, Any]], queries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Top-5 hit rates, overall and per question style, in both pools."""
    m = _unit(embed([x["text"] for x in memories]))
    q = _unit(embed([x["text"] for x in queries]))
    scores = q @ m.T
    ids = np.array([x["id"] for x in memories])
    users = np.array([x["user"] for x in memories])
    hits: dict[str, dict[str, list[bool]]] = {"user": defaultdict(list), "all": defaultdict(list)}
    for i, query in enumerate(queries):
        needed = set(query["relevant"])
        for pool in ("user", "all"):
            s = scores[i] if pool == "all" else np.where(users == query["user"], scores[i], -np.inf)
            top = set(ids[np.argpartition(-s, K)[:K]])
            hit = bool(needed & top)
            hits[pool]["all"].append(hit)
            hits[pool][query.get("style", "?")].append(hit)
    return {pool: {style: round(float(np.mean(v)), 3) for style, v in sorted(d.items())} for pool, d in hits.items()}


def speed(embed: Embed, texts: list[str], rounds: int = 3) -> float:
    """Texts per second on one core, best of ``rounds``."""
    embed(texts[:8])
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        embed(texts)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best


def _embedder(model: str | None, wordllama: bool = False) -> Embed:
    from langgraph_trustmem.store.embeddings import StaticEmbeddings, WordLlamaEmbeddings, default_embeddings

    if wordllama:
        return WordLlamaEmbeddings().embed_documents
    emb = default_embeddings() if model is None else StaticEmbeddings(model)
    return emb.embed_documents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=CORPORA, action="append")
    parser.add_argument("--model", help="a Model2Vec folder (default: the packaged embedder)")
    parser.add_argument("--wordllama", action="store_true", help="WordLlamaEmbeddings (pip install wordllama)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    embed = _embedder(args.model, args.wordllama)
    for corpus in args.corpus or CORPORA:
        memories, queries = load(corpus)
        result = recall(embed, memories, queries)
        texts = [x["text"] for x in memories] + [x["text"] for x in queries]
        print(json.dumps({"corpus": corpus, "top5": result, "texts_per_s_one_core": round(speed(embed, texts))}))


if __name__ == "__main__":
    main()
