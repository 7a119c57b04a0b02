"""Logging set-up for the command line only: the library itself never configures logging."""

from __future__ import annotations

import logging
import sys
from typing import Any

from regiment.core.log import when_first_used


def _stderr_logger(*args: object) -> Any:
    import structlog

    return structlog.PrintLogger(file=sys.stderr)  # looked up per logger: stderr may be swapped


def configure(verbosity: int = 0, json_logs: bool = False) -> None:
    """Logs go to stderr (stdout carries the protocol and the output people read), set up
    when something first logs (most commands never do, and structlog is slow to import)."""
    when_first_used(lambda: _configure(verbosity, json_logs))


def _configure(verbosity: int, json_logs: bool) -> None:
    import structlog

    level = {0: logging.WARNING, 1: logging.INFO}.get(verbosity, logging.DEBUG)
    renderer = (structlog.processors.JSONRenderer() if json_logs
                else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()))
    structlog.configure(
        processors=[structlog.processors.add_log_level,
                    structlog.processors.TimeStamper(fmt="iso", utc=True), renderer],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=_stderr_logger,
        cache_logger_on_first_use=False,
    )
