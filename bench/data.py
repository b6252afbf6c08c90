"""Deterministic benchmark data: chat messages of about 200 characters, a
cheap embedder, and the memory set of the store cases.

Nothing here holds a secret or personal identifier, so the store's guard
passes every value unchanged (it still scans every one).
"""

from __future__ import annotations

import hashlib
import random
import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, HumanMessage

WORDS = (
    "the a and to of in for on with about after before during while when then also maybe really "
    "flight hotel train booking meeting report budget project deadline review plan schedule weekend "
    "morning evening lunch dinner coffee garden walk run swim bike trip holiday city river mountain "
    "doctor appointment medicine allergy diet vegetables fruit bread cheese soup salad recipe kitchen "
    "music concert book novel film series podcast museum gallery theatre ticket friend family sister "
    "brother parents children school teacher office colleague manager team client contract invoice "
    "prefers likes wants needs asked said remembered mentioned planned booked cancelled moved changed "
    "quiet early late small large cheap expensive window aisle seat room view breakfast vegetarian "
    "spicy sweet warm cold rainy sunny blue green red new old favourite usual next last first second"
).split()


FUNCTION_WORDS = ("the", "a", "and", "to", "of", "in", "for", "on", "with", "my", "is", "at")


def sentence(rng: random.Random, chars: int) -> str:
    """A sentence of about ``chars`` characters from the word list."""
    out: list[str] = []
    n = 0
    while n < chars - 1:
        # every fourth word a function word, as in prose: twelve content words
        # in a row can read as a wallet's recovery phrase to the guard
        w = rng.choice(FUNCTION_WORDS if len(out) % 4 == 3 else WORDS)
        out.append(w)
        n += len(w) + 1
    s = " ".join(out)
    return s[0].upper() + s[1:chars - 1] + "."


class TextPool:
    """A fixed pool of ~200-character texts, picked by index."""

    def __init__(self, size: int = 4096, chars: int = 200, seed: int = 7) -> None:
        rng = random.Random(seed)
        self.texts = [sentence(rng, chars) for _ in range(size)]

    def __getitem__(self, i: int) -> str:
        return self.texts[i % len(self.texts)]


POOL = TextPool()


def history(n: int, offset: int = 0) -> list[Any]:
    """``n`` alternating human / AI messages of ~200 characters, with ids."""
    out = []
    for i in range(n):
        cls = HumanMessage if i % 2 == 0 else AIMessage
        out.append(cls(POOL[offset + i], id=str(uuid.uuid4())))
    return out


def human(i: int) -> HumanMessage:
    return HumanMessage(POOL[1000 + i], id=str(uuid.uuid4()))


class HashEmbeddings(Embeddings):
    """A cheap deterministic embedder: each text maps to a fixed random unit
    vector seeded by its hash (about 30 µs a text), so embedding cost does
    not dominate the store cases. Random vectors are the hard case for an
    approximate index (no cluster structure)."""

    def __init__(self, dims: int = 384) -> None:
        self.dims = dims

    def vector(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")
        v = np.random.default_rng(seed).standard_normal(self.dims).astype(np.float32)
        v /= np.linalg.norm(v)
        return v

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.vector(t).tolist() for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self.vector(text).tolist()

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return self.embed_documents(texts)

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)


# -- the memory set ------------------------------------------------------------

LEVELS = ("public", "internal", "personal", "sensitive")
SEARCH_LEVEL = 2  # searches run at "personal": memories at ranks 0..2 are visible


def user_id(u: int) -> str:
    return f"user-{u:03d}"


def memory(u: int, i: int) -> tuple[tuple[str, str], str, dict[str, Any]]:
    """Memory ``i`` of user ``u``: namespace, key, value. The value's
    ``level`` is the trust rank (ours labels the memory with it; the stock
    stores filter on it)."""
    rng = random.Random(u * 1_000_003 + i)
    text = f"{sentence(rng, 100)} (note {u}-{i})"
    return ("memories", user_id(u)), f"m{i:05d}", {"text": text, "level": i % 4, "kind": "fact"}


def memories(users: int, start: int, stop: int) -> list[tuple[tuple[str, str], str, dict[str, Any]]]:
    """Memories ``start..stop-1`` of every user (user-major order)."""
    return [memory(u, i) for u in range(users) for i in range(start, stop)]


def query_text(i: int) -> str:
    rng = random.Random(900_000 + i)
    return sentence(rng, 80)


def exact_top(
    emb: HashEmbeddings, query: str, u: int, per_user: int, k: int = 5, level: int = SEARCH_LEVEL
) -> list[str]:
    """The exact top-k keys of user ``u`` visible at ``level`` (brute force)."""
    keys, vecs = [], []
    for i in range(per_user):
        _, key, value = memory(u, i)
        if value["level"] <= level:
            keys.append(key)
            vecs.append(emb.vector(value["text"]))
    if not keys:
        return []
    scores = np.stack(vecs) @ emb.vector(query)
    order = np.argsort(-scores)[:k]
    return [keys[j] for j in order]


def recall_at(found: Sequence[str], truth: Sequence[str]) -> float:
    if not truth:
        return 1.0
    return len(set(found) & set(truth)) / len(truth)
