"""The default, offline text embedder for the store.

The store needs embeddings that work with no network and no torch, so the
package ships a small static model in ``langgraph_trustmem/data/embedder``
(distilled from all-MiniLM-L6-v2 and trained to match its sentence
embeddings by ``scripts/distill_embedder.py``, in Model2Vec's format; its
recall is measured by ``bench/embedder_eval.py``). Embedding a text is a tokenizer pass, a table look-up and
a mean, so a thousand short texts take milliseconds; quality is below the full
transformer, which callers can still pass as their own ``Embeddings``.

The folder is read here with ``safetensors``, ``tokenizers`` and numpy rather
than through ``model2vec.StaticModel``: the result is the same (the vectors
match ``StaticModel.encode`` to float precision), but loading takes about
50 ms instead of about 0.7 s (model2vec imports huggingface_hub and jinja2 to
load), a missing folder can never turn into a hub download, and the tokenizer
is configured once, so threads can share it without a lock.
"""

from __future__ import annotations

import atexit
import functools
import importlib.resources
import importlib.util
import json
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

__all__ = ["StaticEmbeddings", "WordLlamaEmbeddings", "default_embeddings", "packaged_model_dir"]

_PACKAGE = "langgraph_trustmem"
_MODEL_SUBDIR = ("data", "embedder")
_REQUIRED_FILES = ("model.safetensors", "tokenizer.json", "config.json")
_DEFAULT_MAX_LENGTH = 512


@functools.lru_cache(maxsize=1)
def packaged_model_dir() -> Path:
    """The folder of the shipped model, as a real path (copied out once if the package is zipped)."""
    resource = importlib.resources.files(_PACKAGE).joinpath(*_MODEL_SUBDIR)
    if isinstance(resource, Path):
        return resource
    # A zip or other non-file importer: the tokenizer needs real files.
    folder = Path(tempfile.mkdtemp(prefix="trustmem-embedder-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    for item in resource.iterdir():
        if item.is_file():
            (folder / item.name).write_bytes(item.read_bytes())
    return folder


@dataclass(frozen=True)
class _Model:
    table: np.ndarray  # (rows, dims), int8 or float; SIF weights are baked in
    weights: np.ndarray | None  # per-token weights (vocabulary-quantised models only)
    mapping: np.ndarray | None  # token id -> table row (vocabulary-quantised models only)
    tokenizer: Any  # tokenizers.Tokenizer, truncation set once at load
    unk_id: int | None
    max_chars: int | None  # cut very long texts before tokenising, as model2vec does


def _load_model(folder: Path, max_length: int | None) -> _Model:
    return _read_model(folder / "model.safetensors", "embeddings", folder / "tokenizer.json", max_length)


def _read_model(
    weights: Path, table: str, tokenizer_file: Path, max_length: int | None, dims: int | None = None
) -> _Model:
    """A static model from its tensors (``table`` names the embedding table)
    and a tokenizers JSON file; ``dims`` keeps the table's first columns
    (Matryoshka-trained tables only)."""
    from safetensors.numpy import load_file  # noqa: PLC0415
    from tokenizers import Tokenizer  # noqa: PLC0415

    tensors = load_file(str(weights))
    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_padding()
    if max_length is None:
        tokenizer.no_truncation()
    else:
        tokenizer.enable_truncation(max_length)
    unk_token = getattr(tokenizer.model, "unk_token", None)
    vocab = tokenizer.get_vocab()
    median_token_chars = int(np.median([len(token) for token in vocab]))
    return _Model(
        table=tensors[table] if dims is None else np.ascontiguousarray(tensors[table][:, :dims]),
        weights=tensors.get("weights"),
        mapping=tensors.get("mapping"),
        tokenizer=tokenizer,
        unk_id=vocab.get(unk_token) if unk_token is not None else None,
        max_chars=None if max_length is None else max_length * median_token_chars,
    )


class StaticEmbeddings(Embeddings):
    """LangChain ``Embeddings`` over a Model2Vec static model folder, loaded on first use.

    Vectors are float32 lists of unit length, so cosine similarity is a dot
    product. A text with no known token (an empty string, say) gets a fixed
    unit vector instead of zeros, because cosine on a zero vector is NaN in
    numpy, pgvector and Qdrant. One instance is safe to share between threads.
    """

    def __init__(self, model_dir: str | Path | None = None, *, max_length: int | None = _DEFAULT_MAX_LENGTH):
        self._model_dir = Path(model_dir) if model_dir is not None else None
        self._max_length = max_length
        self._model: _Model | None = None
        self._dims: int | None = None
        self._lock = threading.Lock()

    @property
    def packaged(self) -> bool:
        """Whether this is the package's own model."""
        return self._model_dir is None

    @property
    def model_dir(self) -> Path:
        """Where the model is read from."""
        return self._model_dir if self._model_dir is not None else packaged_model_dir()

    @property
    def dims(self) -> int:
        """Output dimension, from the model's config.json (does not load the table)."""
        if self._dims is None:
            config = json.loads((self._checked_dir() / "config.json").read_text(encoding="utf-8"))
            self._dims = int(config["hidden_dim"])
        return self._dims

    def _checked_dir(self) -> Path:
        folder = self.model_dir
        missing = [name for name in _REQUIRED_FILES if not (folder / name).is_file()]
        if missing:
            raise FileNotFoundError(
                f"embedding model not found in {folder} (missing {', '.join(missing)}); "
                "rebuild it with scripts/distill_embedder.py"
            )
        return folder

    def _read(self) -> _Model:
        return _load_model(self._checked_dir(), self._max_length)

    def _load(self) -> _Model:
        model = self._model
        if model is None:
            with self._lock:
                if self._model is None:
                    self._model = self._read()
                    self._dims = int(self._model.table.shape[1])
                model = self._model
        return model

    def _embed(self, texts: list[str]) -> np.ndarray:
        model = self._load()
        dims = model.table.shape[1]
        out = np.zeros((len(texts), dims), dtype=np.float32)
        if not texts:
            return out
        if model.max_chars is not None:
            texts = [text[: model.max_chars] for text in texts]
        encodings = model.tokenizer.encode_batch_fast(texts, add_special_tokens=False)
        ids = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        if model.unk_id is not None:
            ids = [row[row != model.unk_id] for row in ids]
        lengths = np.fromiter((len(row) for row in ids), dtype=np.int64, count=len(ids))
        filled = np.flatnonzero(lengths)
        if filled.size:
            flat = np.concatenate([ids[i] for i in filled])
            rows = model.table[flat if model.mapping is None else model.mapping[flat]].astype(np.float32)
            if model.weights is not None:
                rows *= model.weights[flat, None]
            starts = np.concatenate(([0], np.cumsum(lengths[filled])[:-1]))
            # Sum, not mean: the vectors are normalised next, which cancels the count.
            out[filled] = np.add.reduceat(rows, starts, axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        empty = norms[:, 0] == 0.0
        if empty.any():
            out[empty] = 1.0
            norms[empty] = np.sqrt(dims)
        return out / norms

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed texts for storage: one unit vector per text."""
        return self._embed(list(texts)).tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed a search query; the model is symmetric, so same as a document."""
        return self._embed([text])[0].tolist()

    def __repr__(self) -> str:
        where = str(self._model_dir) if self._model_dir is not None else "packaged"
        return f"StaticEmbeddings({where!r})"

    def __getstate__(self) -> dict[str, Any]:
        # Locks and tokenizers do not pickle; the model reloads lazily on the other side.
        state = self.__dict__.copy()
        state["_lock"] = None
        state["_model"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


class WordLlamaEmbeddings(StaticEmbeddings):
    """WordLlama's static model (``pip install "langgraph-trustmem[wordllama]"``),
    read from the files its wheel installs; its own loader, which may fetch
    from a model hub, is never called.

    Opt-in: it recalls better than the packaged model on the held-out recall
    set (top-5 among a user's memories 0.943 against 0.928,
    ``bench/embedder_eval.py``) at a similar speed, but its table is derived
    from Llama 2's token embeddings: read WordLlama's licence and Llama 2's
    before shipping it. ``dims`` may cut its Matryoshka-trained 256
    dimensions (64, 128, 256). Swapping embedders re-embeds a store's
    memories at its next ``setup()``.
    """

    MODEL = "l2_supercat"

    def __init__(self, dims: int = 256, *, max_length: int | None = _DEFAULT_MAX_LENGTH) -> None:
        if dims not in (64, 128, 256):
            raise ValueError("WordLlama's dims are 64, 128 or 256")
        super().__init__(None, max_length=max_length)
        self._dims = dims

    @property
    def model_dir(self) -> Path:
        spec = importlib.util.find_spec("wordllama")  # located, not imported: its files are all we read
        if spec is None or spec.origin is None:
            raise ImportError('WordLlamaEmbeddings needs: pip install "langgraph-trustmem[wordllama]"')
        return Path(spec.origin).resolve().parent

    @property
    def packaged(self) -> bool:
        return False

    @property
    def dims(self) -> int:
        assert self._dims is not None
        return self._dims

    def _files(self) -> tuple[Path, Path]:
        folder = self.model_dir
        weights = folder / "weights" / f"{self.MODEL}_256.safetensors"
        tokenizer = folder / "tokenizers" / f"{self.MODEL}_tokenizer_config.json"
        if not (weights.is_file() and tokenizer.is_file()):
            raise FileNotFoundError(f"WordLlama's {self.MODEL} files are not in {folder}: reinstall wordllama")
        return weights, tokenizer

    def _read(self) -> _Model:
        weights, tokenizer = self._files()
        return _read_model(weights, "embedding.weight", tokenizer, self._max_length, self.dims)

    def __repr__(self) -> str:
        return f"WordLlamaEmbeddings({self.MODEL!r}, dims={self.dims})"


_default: StaticEmbeddings | None = None
_default_lock = threading.Lock()


def default_embeddings() -> StaticEmbeddings:
    """The process-wide packaged embedder (one instance; the model loads on first use)."""
    global _default
    if _default is None:
        with _default_lock:
            if _default is None:
                _default = StaticEmbeddings()
    return _default
