"""The learned reader: the guard's last line, a linear model over hashed n-grams.

Rules refuse what someone thought to write down; a new author phrases a PIN, a door code or
a pasted key in a way no rule names, in a language no cue list holds. This reader scores the
whole memory with a logistic model over its character n-grams (2 to 5, lower-cased, every
digit read as 0), its words and word pairs, and the shapes of its tokens ("Aa0|4": mixed
letters and digits, 16 to 31 long), hashed into ``DIMS`` slots.

It reads the memory as stored and, where the rules undid a disguise (base64, hex, rot13,
look-alike letters...), the text undone. It only adds refusals: it runs after every rule
passed, and refuses at a probability set in
leave-one-corpus-out validation (each of the newest tuning corpora, by another author, left
out in turn) so that it adds at most one false positive in 1,000 benign memories on any of
them. Its weights are trained by ``bench/train_guard.py`` on the tuning corpora and on the
values the guard's own tests check (never on a held-out corpus) and ship with the package
(``data/guard/learned.npz``): nothing is downloaded, and the same input always gets the
same verdict.
"""

from __future__ import annotations

import functools
import json
import math
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from langgraph_trustmem.errors import ConfigurationError

__all__ = ["DIMS", "KIND", "LearnedModel", "features", "refuses", "require_model", "shipped", "text_of", "views"]

#: The kind a refusal by this reader reports.
KIND = "learned-credential"
DIMS = 1 << 20
NGRAMS = (2, 3, 4, 5)

_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"\w+|[^\w\s]")
_MASK = DIMS - 1
_PRIME = np.uint64(1_000_003)
_MIX = np.uint64(29)


def text_of(value: Any) -> str:
    """The memory as the reader sees it: a string as it is, anything else as its JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


class _Classes(dict[int, str]):
    """A token's character classes for ``str.translate``: a digit reads as "0", an
    upper-case letter as "A", any other letter as "a", anything else as itself. Filled
    per code point as met (characters only, never text), up to a few thousand."""

    def __missing__(self, point: int) -> str:
        ch = chr(point)
        c = "0" if ch.isdigit() else "A" if ch.isupper() else "a" if ch.isalpha() else ch
        if len(self) < 4096:  # a text of rare characters costs time, never memory
            self[point] = c
        return c


_CLASSES = _Classes()
# the repeats of a character after its first: removed, they leave each run collapsed to one
# (the usual classes spelt out: a backreference at every position is twice as slow)
_REPEATS = re.compile(r"(?<=a)a+|(?<=A)A+|(?<=0)0+|(?<=(.))\1+", re.DOTALL)
_BAND = "1111" + "2" * 4 + "3" * 8 + "4" * 16 + "5"  # by length: < 4, < 8, < 16, < 32, longer


def _shapes(text: str, tokens: list[str]) -> list[str]:
    """Each token's classes of characters (its first 64 characters), runs collapsed, cut to
    12, and a length band. Translated and collapsed as one text: whitespace stays itself, so
    the collapsed text splits into the same tokens."""
    collapsed = _REPEATS.sub("", text.translate(_CLASSES)).split()
    out = []
    for token, shape in zip(tokens, collapsed, strict=True):
        n = len(token)
        if n > 64:  # the first 64 only: its collapsed classes may end sooner
            shape = _REPEATS.sub("", token[:64].translate(_CLASSES))
        out.append(shape[:12] + "|" + _BAND[min(n, 32)])
    return out


def _crcs(prefix: bytes, texts: list[str]) -> list[int]:
    # not cached: a cache of recent words would keep memories' text (and refused secrets)
    # in the process after their check
    seed = zlib.crc32(prefix)
    return [zlib.crc32(t.encode("utf-8", "surrogatepass"), seed) & _MASK for t in texts]


def _words(text: str, low: str) -> list[str]:
    """The words and marks of ``text``, lower-cased, digits read as 0, each on its own.
    ``low`` is all of ``text`` so, which gives the same words unless lower-casing changed
    a length (İ) or read the context (a final capital sigma)."""
    if len(low) == len(text) and "\u03a3" not in text:
        return _WORD.findall(low)
    return [_DIGIT.sub("0", w.lower()) for w in _WORD.findall(text)]


# The n-gram hash of ``n`` code points p0..p(n-1): seed n * 7919, then h = h * P + p
# for each; as a polynomial, seed * P**n + G, where G(n) = G(n - 1) * P + p(n-1).
_SEEDS = {n: np.uint64((n * 7919 * pow(1_000_003, n, 1 << 64)) % (1 << 64)) for n in NGRAMS}


def features(text: str) -> tuple[np.ndarray, np.ndarray]:
    """The hashed feature slots of ``text`` and their values (log counts, unit length)."""
    low = _DIGIT.sub("0", text.lower())
    points = np.frombuffer(low.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)
    grams: list[np.ndarray] = []
    size = len(points)
    g = points
    for n in range(2, NGRAMS[-1] + 1):
        if size < n:
            break
        g = g[:-1] * _PRIME + points[n - 1 :]
        if n in _SEEDS:
            grams.append(g + _SEEDS[n])
    h = np.concatenate(grams) if grams else np.empty(0, dtype=np.uint64)
    words = _words(text, low)
    extra = _crcs(b"w:", words)
    extra += _crcs(b"b:", [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)])
    extra += _crcs(b"s:", _shapes(text, text.split()))
    every = np.concatenate(((h ^ (h >> _MIX)) & np.uint64(_MASK), np.asarray(extra, dtype=np.uint64))).astype(np.int64)
    idx, counts = np.unique(every, return_counts=True)
    values = np.log1p(counts).astype(np.float32)
    norm = float(np.sqrt(float(values @ values))) or 1.0
    return idx, values / norm


def views(value: Any, undone: Sequence[str] = ()) -> list[str]:
    """What the reader scores: the memory, and its disguises undone (base64 decoded,
    look-alike letters folded, ...) as one text when the rules undid any."""
    return [text_of(value), "\n".join(undone)] if undone else [text_of(value)]


@dataclass(frozen=True)
class LearnedModel:
    """Weights, bias and refusal threshold; ``meta`` says how they were trained."""

    weights: np.ndarray  # DIMS float32
    bias: float
    threshold: float
    meta: dict[str, Any]

    def score(self, text: str) -> float:
        """The probability the model gives ``text`` holding a credential."""
        idx, values = features(text)
        z = float(self.weights[idx] @ values) + self.bias
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def probability(self, value: Any, undone: Sequence[str] = ()) -> float:
        """The highest probability of the memory's :func:`views`."""
        return max(self.score(t) for t in views(value, undone))

    def flags(self, value: Any, undone: Sequence[str] = ()) -> bool:
        return self.probability(value, undone) >= self.threshold

    @staticmethod
    def save(path: Any, weights: np.ndarray, bias: float, threshold: float, meta: dict[str, Any]) -> None:
        np.savez_compressed(
            path,
            weights=weights.astype(np.float16),
            bias=np.float64(bias),
            threshold=np.float64(threshold),
            meta=np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8),
        )

    @classmethod
    def from_file(cls, path: Any) -> LearnedModel:
        with np.load(path) as z:
            weights = z["weights"].astype(np.float32)
            if weights.shape != (DIMS,):
                raise ValueError("the learned reader's weights do not match its feature space")
            return cls(weights, float(z["bias"]), float(z["threshold"]), json.loads(bytes(z["meta"]).decode()))


def require_model() -> None:
    """Load the shipped model now, so a broken install fails when a guard is made, with
    :class:`ConfigurationError`, not at a user's first put."""
    try:
        shipped()
    except (OSError, ValueError, KeyError) as exc:
        raise ConfigurationError(
            f"the guard's learned reader cannot be loaded ({type(exc).__name__}); reinstall "
            "langgraph-trustmem, or pass Guard(learned=False) to rely on the rules only"
        ) from None


def refuses(value: Any, undone: Sequence[str] = ()) -> bool:
    """Whether the shipped model refuses ``value`` (``undone``: its disguises undone)."""
    return shipped().flags(value, undone)


@functools.cache
def shipped() -> LearnedModel:
    """The model shipped with the package, loaded once per process."""
    with resources.as_file(resources.files("langgraph_trustmem") / "data" / "guard" / "learned.npz") as path:
        return LearnedModel.from_file(path)

