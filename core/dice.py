"""Dice sources. Every die face a game uses is recorded as a ``DiceRolled`` event.

- ``SeededDice``: face number ``i`` of the game's dice stream comes from BLAKE2b keyed with the
  seed over the counter ``i``, by rejection sampling (bytes 252-255 are skipped), so it is fair
  and the same on every platform and Python version. ``GameStarted`` stores only the
  commitment, BLAKE2b of the seed; revealing the seed lets anyone check every roll.
- ``ManualDice``: the players roll real dice and enter the faces; the game pends a ``Roll``.
- ``ScriptedDice``: a list of faces, for tests and worked examples.

The position in the stream is part of the game state, so an undo rewinds it and the same dice
come out again; faces that a log already holds for a position are never rolled anew.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import Any

from .errors import IllegalCommand
from .i18n import tr

_PERSON = b"regiment-dice"


def commitment(seed: bytes) -> str:
    """The public commitment to a seed, stored in GameStarted."""
    return hashlib.blake2b(seed, digest_size=32, person=b"regiment-commit").hexdigest()


def seed_bytes(text: str) -> bytes:
    """A hex seed as scenarios and the command line write it (an odd number of digits is read
    with a leading 0). ValueError when it is not hex."""
    return bytes.fromhex(text if len(text) % 2 == 0 else "0" + text)


def seeded_face(seed: bytes, index: int, keyed: Any = None) -> int:
    """Face ``index`` of the stream of ``seed``: uniform on 1..6 by rejection sampling.
    ``keyed`` is the hasher already keyed with ``seed`` (copying it is cheaper than keying)."""
    base = keyed or hashlib.blake2b(key=seed, digest_size=16, person=_PERSON)
    block = 0
    while True:
        h = base.copy()
        h.update(index.to_bytes(8, "little") + block.to_bytes(4, "little"))
        for byte in h.digest():
            if byte < 252:  # 252 = 6 * 42: keep only bytes that map evenly onto six faces
                return byte % 6 + 1
        block += 1


class Dice:
    """Base of dice sources. ``automatic`` sources roll without asking the players."""

    kind = "none"
    automatic = True

    def faces(self, index: int, count: int) -> tuple[int, ...] | None:
        raise NotImplementedError

    def commitment(self) -> str:
        return ""


class SeededDice(Dice):
    kind = "seeded"

    def __init__(self, seed: bytes | str | None = None) -> None:
        if seed is None:
            seed = secrets.token_bytes(16)
        elif isinstance(seed, str):
            seed = seed_bytes(seed)
        self.seed = seed
        self._keyed = hashlib.blake2b(key=seed, digest_size=16, person=_PERSON)

    def faces(self, index: int, count: int) -> tuple[int, ...]:
        return tuple(seeded_face(self.seed, index + i, self._keyed) for i in range(count))

    def commitment(self) -> str:
        return commitment(self.seed)

    def __repr__(self) -> str:
        return "SeededDice(<hidden seed>)"


class ScriptedDice(Dice):
    kind = "scripted"

    def __init__(self, faces: Sequence[int]) -> None:
        for i, face in enumerate(faces):
            if type(face) is not int or not 1 <= face <= 6:
                raise ValueError(f"scripted face {i} is {face!r}, not 1-6")
        self.script = tuple(faces)

    def faces(self, index: int, count: int) -> tuple[int, ...]:
        if index + count > len(self.script):
            raise IllegalCommand(
                f"the dice script has {len(self.script)} faces; face {index + count} was needed",
                rule="DICE.SCRIPT",
            )
        return self.script[index:index + count]

    def __repr__(self) -> str:
        return f"ScriptedDice({list(self.script)!r})"


class ManualDice(Dice):
    kind = "manual"
    automatic = False

    def faces(self, index: int, count: int) -> None:
        return None

    def __repr__(self) -> str:
        return "ManualDice()"


def faces_problem(faces: Sequence[int], count: int) -> str | None:
    """DICE.FACES: a roll entered by hand must be exactly ``count`` faces, each 1 to 6."""
    if len(faces) != count:
        return tr("this roll needs {count} dice, {entered} faces were entered", count=count,
                  entered=len(faces))
    for face in faces:
        if not 1 <= face <= 6:
            return tr("a D6 shows 1 to 6, not {face}", face=face)
    return None


def dice_for(kind: str, seed: str | None, script: Sequence[int],
             require_seed: bool = True) -> Dice:
    """The dice source a scenario or a log names."""
    if kind == "manual":
        return ManualDice()
    if kind == "scripted":
        return ScriptedDice(script)
    if kind == "shared":   # the host's chain: made for a new game, the store's when loaded
        from .shared import SharedDice

        return SharedDice(seed) if seed is not None or not require_seed else SharedDice.made()
    if seed is None and not require_seed:
        return _SealedDice()
    return SeededDice(seed)


class _SealedDice(Dice):
    """A seeded game whose seed this store does not hold: it can be read, not rolled on."""

    kind = "seeded"

    def faces(self, index: int, count: int) -> tuple[int, ...]:
        raise IllegalCommand("this game's seed is not in this store; it cannot roll new dice",
                             rule="DICE.SEED")
