"""What one seat of a game may spend on the server, across all its connections
(SERVER.LIMITS): one message rate, a few connections, and a sender that keeps above the rate
closed; and what any connection may spend idle.

A seat is a player's token (or the spectators' one, shared by everyone watching). Limits kept
per connection let a seat open ten connections and send ten times the rate; a connection that
sent just above the rate was never closed, since only a run of refusals in a row closed it;
and a connection that sent nothing kept its memory for ever (issue 55 rows 9).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

RATE = 20.0             # messages a second a seat may send, on average, all its connections...
BURST = 40.0            # ...and at once
CONNECTIONS = 4         # a player's seat: a phone, a laptop, a reload or two
WATCHERS = 200          # the spectators' seat of one game
OVER = 40               # messages refused for rate within WINDOW: the connection is closed
WINDOW = 10.0           # seconds
IDLE = 600.0            # seconds a connection may send nothing before it is closed


@dataclass
class Seat:
    """One seat's shared bucket, its connections, and the refusals in the last WINDOW."""

    tokens: float = BURST
    at: float = field(default_factory=time.monotonic)
    connections: int = 0
    refused: deque[float] = field(default_factory=deque)

    def take(self, now: float) -> bool:
        """A message allowed by the rate (True), or refused (False, and counted)."""
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused.append(now)
        while self.refused and self.refused[0] < now - WINDOW:
            self.refused.popleft()
        return False

    def retry_after(self) -> float:
        """Seconds until the next message is allowed."""
        return max(0.0, (1 - self.tokens) / RATE)

    def flooding(self) -> bool:
        """Refused OVER times within WINDOW: a sender that keeps above the rate."""
        return len(self.refused) >= OVER


class Seats:
    """Every seat of every game this process serves, while one of its connections is open."""

    def __init__(self) -> None:
        self._seats: dict[tuple[str, str], Seat] = {}

    def join(self, game_id: str, seat: str, spectator: bool) -> Seat | None:
        """The seat a new connection shares; None when the seat has all the connections it
        may have (CONNECTIONS, WATCHERS for the spectators)."""
        held = self._seats.setdefault((game_id, seat), Seat())
        if held.connections >= (WATCHERS if spectator else CONNECTIONS):
            return None
        held.connections += 1
        return held

    def leave(self, game_id: str, seat: str) -> None:
        held = self._seats.get((game_id, seat))
        if held is None:
            return
        held.connections -= 1
        if held.connections <= 0 and held.tokens >= BURST - 1e-9:
            del self._seats[(game_id, seat)]   # forgotten once it has nothing left to owe

    def sweep(self) -> None:
        """Forget the seats no connection holds whose bucket is full again by now."""
        now = time.monotonic()
        for key, held in list(self._seats.items()):
            if held.connections <= 0 and held.tokens + (now - held.at) * RATE >= BURST:
                del self._seats[key]

    def __len__(self) -> int:
        return len(self._seats)
