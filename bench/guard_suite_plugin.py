"""A pytest plugin for ``bench/train_guard.py --collect``: records every value the guard's
tests check with the default configuration, and the rules' verdict on it.

The suite passes with the rules alone, so those verdicts are the behaviour its tests hold
(a secret a test expects refused was refused, a look-alike a test expects stored passed):
the learned reader is trained on them as one more tuning corpus (``secrets_suite``).
Corpus-driven tests are left out (their records are corpora already).
"""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any

from langgraph_trustmem.errors import SecretRejected
from langgraph_trustmem.guard import Guard

_OUT = os.environ.get("TRUSTMEM_SUITE_OUT", "")
_DEFAULT = Guard()
_seen: dict[str, dict[str, Any]] = {}
_original = Guard.check


def _record(value: Any, namespace: Any, key: Any, refused: bool) -> None:
    try:
        ns = [str(x) for x in (namespace or ("memories", "u1"))]
        text = json.dumps(value, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        return  # not JSON: the suite's type errors, nothing a memory holds
    slot = json.dumps([text, ns, key], ensure_ascii=False)
    _seen.setdefault(slot, {"value": value, "namespace": ns, "key": key if isinstance(key, str) else "k",
                            "refused": refused})


def _check(self: Guard, value: Any, *, namespace: Any = None, key: Any = None) -> Any:
    plain = dataclasses.replace(self, learned=False) if self.learned else self
    default = dataclasses.replace(plain, learned=True) == _DEFAULT
    try:
        out = _original(plain, value, namespace=namespace, key=key)
    except SecretRejected:
        if default:
            _record(value, namespace, key, True)
        raise
    if default:
        _record(value, namespace, key, bool(out[1]))
    return out


Guard.check = _check  # type: ignore[method-assign]


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    if not _OUT:
        return
    with open(_OUT, "w", encoding="utf-8") as f:
        for i, rec in enumerate(_seen.values()):
            label = "secret" if rec["refused"] else "benign"
            f.write(json.dumps({"id": f"suite-{label[0]}-{i:05d}", "label": label, "kind": "suite", "variant": "plain",
                                "namespace": rec["namespace"], "key": rec["key"], "value": rec["value"]},
                               ensure_ascii=False) + "\n")
