"""Process hardening that keeps plaintext in memory from reaching disk.

Offered, not forced: call :func:`harden_process` early in a service that
holds PHI. Core dumps and ptrace attach are the common ways a process's
memory (decrypted messages, keys) ends up in files or other processes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import resource
import sys

PR_SET_DUMPABLE = 4


def harden_process() -> dict[str, bool]:
    """Disable core dumps (RLIMIT_CORE = 0) and mark the process not
    dumpable (Linux ``prctl``), which also blocks ptrace by other users.

    Returns what was applied, so a caller can log it.
    """
    applied = {"core_dumps_disabled": False, "not_dumpable": False}
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        applied["core_dumps_disabled"] = resource.getrlimit(resource.RLIMIT_CORE) == (0, 0)
    except (ValueError, OSError):
        pass
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0:
            applied["not_dumpable"] = libc.prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE
    return applied


__all__ = ["harden_process"]
