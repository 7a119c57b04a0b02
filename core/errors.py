"""The one error family of regiment.

Every error says what went wrong and where: the command and phase for an illegal command, the
file and field path for a bad scenario, the offset or record for a corrupt or tampered log.
A rejected command or a failed append leaves the game and the store exactly as they were.
"""

from __future__ import annotations

from typing import Any


class RegimentError(Exception):
    """Base of every error the engine raises on purpose.

    As data (``to_dict``, what every client gets): ``type`` (the class), ``code`` (what went
    wrong, a stable word a program branches on), ``field`` (the field of the request it
    concerns, a dotted path, or null: the request as a whole), ``message`` in English and
    ``translated`` in the language the game is told in."""

    type_name = "RegimentError"
    code = "error"
    field: str | None = None

    def english(self) -> str:
        from .i18n import english

        return english(self.args[0]) if self.args else ""

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type_name, "code": self.code, "field": self.field,
                "message": self.english(), "translated": str(self)}


class IllegalCommand(RegimentError):
    """A command that is not legal now: wrong player, wrong phase, bad arguments, or a rule.

    Carries the rule ID that forbids it and the commands that are legal instead.
    """

    type_name = "IllegalCommand"

    def __init__(
        self,
        message: str,
        *,
        rule: str = "",
        command: Any = None,
        phase: str = "",
        legal: list[dict[str, Any]] | None = None,
        code: str = "",
        field: str | None = None,
    ) -> None:
        self.why = message
        # the refusal as a code with its parameters, where the rule gave one (core.reasons.Said)
        self.reason: dict[str, Any] | None = getattr(message, "reason", None)
        self.rule = rule
        self.command = command
        self.phase = phase
        self.legal = legal or []
        # what a program branches on: given where the refusal is made, else the reason's code,
        # else the rule's own refusal (``rule`` says which)
        self.code = code or (self.reason["code"] if self.reason else "forbidden")
        self.field = field
        super().__init__(f"{message}{self._where()}")

    def _where(self) -> str:
        where = f" [{self.rule}]" if self.rule else ""
        return where + (f" (phase {self.phase})" if self.phase else "")

    def english(self) -> str:
        from .i18n import english

        return english(self.why) + self._where()

    def to_dict(self) -> dict[str, Any]:
        return {
            **super().to_dict(),
            "rule": self.rule,
            "phase": self.phase,
            **({"reason": self.reason} if self.reason is not None else {}),
        }


class BadRequest(RegimentError):
    """A request that is not even a command: malformed JSON, missing fields, unknown names."""

    type_name = "BadRequest"
    code = "bad_request"

    def __init__(self, message: str, *, field: str | None = None, code: str = "") -> None:
        self.field = field
        if code:
            self.code = code
        super().__init__(message)


class RateLimited(BadRequest):
    """A message sent faster than a server takes them from one seat (SERVER.LIMITS): dropped,
    nothing changed; ``retry_after`` says in how many seconds the next one is taken."""

    type_name = "RateLimited"
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(message)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "retry_after": round(self.retry_after, 3)}


class InvalidScenario(RegimentError):
    """A scenario that cannot start a game. Names the file, the field path and what was expected."""

    type_name = "InvalidScenario"
    code = "invalid_scenario"

    def __init__(self, message: str, *, source: str = "<scenario>", path: str = "") -> None:
        self.source = source
        self.path = path
        self.field = path or None
        field = f" at {path}" if path else ""
        super().__init__(f"{source}{field}: {message}")


class CorruptLog(RegimentError):
    """Bytes that are not a valid log: bad frame, bad CRC, undecodable or out-of-bounds record."""

    type_name = "CorruptLog"
    code = "corrupt_log"

    def __init__(self, message: str, *, where: str = "") -> None:
        self.where = where
        self.reason = message
        super().__init__(f"{where}: {message}" if where else message)

    def at(self, where: str) -> CorruptLog:
        """The same error, located (callers add the place only when something is wrong)."""
        return type(self)(self.reason, where=where)


class TamperedLog(RegimentError):
    """A log whose hash chain or re-derived outcomes disagree; names the first bad record."""

    type_name = "TamperedLog"
    code = "tampered_log"

    def __init__(self, message: str, *, seq: int | None = None) -> None:
        self.seq = seq
        self.reason = message
        super().__init__(f"record {seq}: {message}" if seq is not None else message)


class UnknownEventType(CorruptLog):
    """An event type or schema version that no code or upcaster knows. Never guessed at."""

    type_name = "UnknownEventType"
    code = "unknown_event_type"


class ConcurrencyConflict(RegimentError):
    """An append whose expected version is not the store's, or a second writer on one log."""

    type_name = "ConcurrencyConflict"
    code = "conflict"


class StoreError(RegimentError):
    """The store could not do what was asked (disk full, I/O error); nothing was half-written."""

    type_name = "StoreError"
    code = "store_error"


class StoreUnavailable(StoreError):
    """The store cannot be reached now (a database restarting, a network gone): nothing was
    changed, and the same request may be made again shortly."""

    type_name = "StoreUnavailable"
    code = "store_unavailable"
