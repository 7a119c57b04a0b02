"""The library's loggers, made when first used: structlog (and what its console renderer
imports) costs a command a fifth of a second to start, and most commands never log. The
command line says how logging is set up (``when_first_used``); that set-up runs just before
the first logger is made, so nothing logged ever goes anywhere else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_setup: list[Callable[[], None]] = []


def when_first_used(setup: Callable[[], None]) -> None:
    """Run ``setup`` (the command line's logging set-up) before the first logger is made."""
    _setup[:] = [setup]


class Logger:
    """A structlog logger, made on its first call."""

    __slots__ = ("_log", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._log: Any = None

    def __getattr__(self, method: str) -> Any:
        if self._log is None:
            while _setup:
                _setup.pop()()
            import structlog

            self._log = structlog.get_logger(self._name)
        return getattr(self._log, method)


def get_logger(name: str) -> Logger:
    return Logger(name)
