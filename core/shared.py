"""Shared dice (DICE.SHARED): dice nobody can bias or foresee, the host included.

Every party (the server, ``@server``, and each seat a person plays) makes a hash chain of its
own: a random ``x[length]``, then ``x[i-1] = SHA-256(x[i])`` down to the anchor ``x[0]``, and
commits to the anchor (DICE.COMMIT). Round ``k`` of the game's dice is made once every party
has revealed its ``x[k]``; a reveal that does not hash to the party's previous value is
refused (DICE.REVEAL). The faces come from all the reveals together with the game, ``k`` and
the head of the log that called for the roll: HMAC-SHA-256 keyed with the reveals (in the
parties' order), one message a die, and rejection sampling as the seeded dice do (bytes
252-255 skipped), so nobody knows a face before the last reveal and nobody can steer one.
Each chain is fixed before the first die, so a party that reveals last can only withhold
(DICE.WITHHELD), never choose.

Everything here is SHA-256, HMAC-SHA-256 and Ed25519: what a browser's WebCrypto computes, so
a page checks every die and every reveal itself (tools/web/static/shared.js does the same).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .dice import Dice

SERVER = "@server"   # the host's party name ("@" keeps it apart from every player id)
LENGTH = 1024        # a chain's rounds: a game of six turns rolls a few hundred times
HEX64 = re.compile(r"^[0-9a-f]{64}$")
HEX128 = re.compile(r"^[0-9a-f]{128}$")


def link(value: bytes) -> bytes:
    """One step down a chain: ``x[i-1] = SHA-256(x[i])``."""
    return hashlib.sha256(value).digest()


class Chain:
    """A party's hash chain: ``value(k)`` is its reveal for round ``k`` (1 to ``length``),
    ``anchor`` its commitment. ``seed`` is ``x[length]``, the party's secret."""

    __slots__ = ("_values", "length", "seed")

    def __init__(self, seed: bytes | None = None, length: int = LENGTH) -> None:
        self.seed = seed if seed is not None else secrets.token_bytes(32)
        self.length = length
        values = [self.seed]
        for _ in range(length):
            values.append(link(values[-1]))
        values.reverse()   # values[k] = x[k]
        self._values = values

    @property
    def anchor(self) -> str:
        return self._values[0].hex()

    def value(self, k: int) -> str:
        if not 1 <= k <= self.length:
            raise ValueError(f"round {k} is outside this chain's 1 to {self.length}")
        return self._values[k].hex()

    def __repr__(self) -> str:
        return f"Chain(<secret>, length={self.length})"


def anchor_commitment(anchor: str) -> str:
    """What ``GameStarted.dice_commitment`` holds for shared dice: the host's anchor, hashed,
    so the host is bound to its chain before any seat commits, and no seat's commitment can
    depend on it."""
    return hashlib.sha256(b"regiment-dice/1 anchor " + bytes.fromhex(anchor)).hexdigest()


def commit_message(game_id: str, party: str, anchor: str, length: int) -> bytes:
    """What a party signs with its key to commit to its chain (DICE.COMMIT)."""
    return f"regiment-dice/1 commit {game_id} {party} {anchor} {length}".encode()


def receipt_message(game_id: str, step: int, head: str) -> bytes:
    """What the host and each seat sign of a head they have seen (LOG.RECEIPT)."""
    return f"regiment-receipt/1 {game_id} {step} {head}".encode()


def public_key(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(serialization.Encoding.Raw,
                                         serialization.PublicFormat.Raw).hex()


def signed_by(key: str, sig: str, message: bytes) -> bool:
    """Whether ``sig`` (hex) is the Ed25519 signature of ``message`` by ``key`` (hex)."""
    if not HEX64.match(key) or not HEX128.match(sig):
        return False
    try:
        _public(key).verify(bytes.fromhex(sig), message)
    except (InvalidSignature, ValueError):
        return False
    return True


@functools.lru_cache(maxsize=4096)
def _public(key: str) -> Ed25519PublicKey:
    """A seat's key, read once (a server checks a signature of it every step)."""
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(key))


def commitment(game_id: str, party: str, chain: Chain, key: Ed25519PrivateKey
               ) -> dict[str, Any]:
    """A party's signed commitment, as a client sends it (DICE.COMMIT)."""
    sig = key.sign(commit_message(game_id, party, chain.anchor, chain.length)).hex()
    return {"anchor": chain.anchor, "length": chain.length, "key": public_key(key), "sig": sig}


def commitment_problem(game_id: str, party: str, c: object) -> str | None:
    """DICE.COMMIT: what is wrong with a party's commitment, if anything."""
    if not isinstance(c, Mapping):
        return f"{party}'s commitment is not a map of anchor, length, key and sig"
    anchor, length, key, sig = (c.get(k) for k in ("anchor", "length", "key", "sig"))
    if not isinstance(anchor, str) or not HEX64.match(anchor):
        return f"{party}'s anchor is not 64 hex digits"
    if type(length) is not int or not 1 <= length <= 1_000_000:
        return f"{party}'s chain length is not 1 to 1000000"
    if not isinstance(key, str) or not isinstance(sig, str) or not signed_by(
            key, sig, commit_message(game_id, party, anchor, length)):
        return f"{party}'s commitment is not signed by the key it names"
    return None


def order(values: Mapping[str, object]) -> list[str]:
    """The parties in the order their reveals key the dice: the host first, then the seats
    by name."""
    return sorted(values, key=lambda p: (p != SERVER, p))


def shared_faces(values: Mapping[str, str], game_id: str, k: int, head: str, count: int
                 ) -> tuple[int, ...]:
    """DICE.SHARED: the ``count`` faces of round ``k``: die ``j`` is the first byte below 252
    of HMAC-SHA-256(key = the reveals joined, message = ``regiment-dice/1 GAME K HEAD J
    BLOCK``), mod 6, plus 1."""
    key = b"".join(bytes.fromhex(values[p]) for p in order(values))
    out = []
    for j in range(count):
        block = 0
        face = 0
        while not face:
            msg = f"regiment-dice/1 {game_id} {k} {head} {j} {block}".encode()
            for byte in hmac.new(key, msg, hashlib.sha256).digest():
                if byte < 252:   # 252 = 6 * 42: only bytes that map evenly onto six faces
                    face = byte % 6 + 1
                    break
            block += 1
        out.append(face)
    return tuple(out)


class SharedDice(Dice):
    """The host's side of shared dice: the seed of its chain (the store keeps it as it keeps a
    seeded game's seed, never in the log), or none where the game is only read or verified.
    Not automatic: a roll waits for every party's reveal."""

    kind = "shared"
    automatic = False

    def __init__(self, seed: bytes | str | None = None, length: int = LENGTH) -> None:
        if isinstance(seed, str):
            seed = bytes.fromhex(seed)
        self.seed = seed
        self.length = length
        self._chain: Chain | None = None

    @classmethod
    def made(cls) -> SharedDice:
        """A new game's: a fresh secret chain."""
        return cls(secrets.token_bytes(32))

    @property
    def chain(self) -> Chain | None:
        """The host's chain (made when first asked: a load that never reveals never pays for
        it), or None without the seed."""
        if self._chain is None and self.seed is not None:
            self._chain = Chain(self.seed, self.length)
        return self._chain

    def faces(self, index: int, count: int) -> None:
        return None

    def commitment(self) -> str:
        chain = self.chain
        return anchor_commitment(chain.anchor) if chain is not None else ""

    def __repr__(self) -> str:
        return "SharedDice(<hidden chain>)"
