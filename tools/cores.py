"""How many processes a command runs at once by default (``simulate``, ``verify``): a module
of its own, so that a command asking it imports nothing more (``simulate`` brings rich)."""

from __future__ import annotations

import os


def default_jobs() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1
