"""Carry a graph run's context into worker threads.

LangGraph finds the running graph's config (and so the session, its level
and its user) through context variables, which a plain thread pool does not
copy. The store refuses tenant-scoped calls that cannot find their run, so
work handed to a pool keeps its confinement only through these helpers.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


def carry_context(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` bound to the caller's current context: each call runs in a
    copy of it, so the same wrapper may run in several threads at once."""
    ctx = contextvars.copy_context()

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        return ctx.copy().run(fn, *args, **kwargs)

    return run


class ContextThreadPoolExecutor(ThreadPoolExecutor):
    """A ``ThreadPoolExecutor`` whose tasks run in the context of the code
    that submitted them (as ``asyncio.to_thread`` does)."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        ctx = contextvars.copy_context()
        return super().submit(ctx.run, fn, *args, **kwargs)


__all__ = ["ContextThreadPoolExecutor", "carry_context"]
