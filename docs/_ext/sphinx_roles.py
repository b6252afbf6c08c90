"""Griffe extension for the docs build: render Sphinx roles as code.

The package's docstrings use Sphinx roles (:class:`~a.B`, :meth:`put`);
Markdown would show the role name literally. This rewrites each role to a
code span (the last dotted part when the target starts with ``~``, ``()``
after functions and methods), in the docs only; the source is untouched.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(class|meth|func|attr|mod|exc|obj|data|const):`(~?)([^`]+)`")


def _code(match: re.Match[str]) -> str:
    kind, short, target = match.groups()
    name = target.rsplit(".", 1)[-1] if short else target
    if kind in ("meth", "func") and not name.endswith(")"):
        name += "()"
    return f"`{name}`"


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ":`" in obj.docstring.value:
            obj.docstring.value = ROLE.sub(_code, obj.docstring.value)
