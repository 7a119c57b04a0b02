"""Signed receipts (LOG.RECEIPT): the game server signs every step's head with Ed25519.

A head alone proves nothing to a third party: a player could make one up. A head signed by the
server's key is the server's own word that its game reached that head at that step, so a
host that later cut, forked or rewrote the game is caught by any player who kept one later
receipt: ``regiment verify LOG --receipts FILE`` checks each receipt's signature, then that the
log holds its head at its step (``tools.receipts``).

A receipt is one JSON object: ``{"game", "step", "head", "key", "sig"}``, ``head`` the step's
head and ``key`` the server's public key, both hex, and ``sig`` the signature (hex) of
``regiment-receipt/1 GAME STEP HEAD``. The public key is published at ``GET /key``; pass it to
``verify --key`` to refuse receipts signed by any other.

Signing uses the ``cryptography`` package (maintained, with Ed25519 in OpenSSL), not a
hand-written curve.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from regiment.core.errors import BadRequest, TamperedLog
from regiment.core.shared import public_key, receipt_message, signed_by

from ..receipts import Receipt

_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_HEX128 = re.compile(r"^[0-9a-f]{128}$")


message = receipt_message   # what the server and each seat sign of a step's head


class ServerKey:
    """The server's signing key, kept in a PEM file readable by its owner only (mode 600);
    made on first start. Several server processes of one deployment share the file."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._key = self.private = private
        self.public = public_key(private)

    @classmethod
    def load_or_create(cls, path: Path) -> ServerKey:
        if path.exists():
            try:
                key = serialization.load_pem_private_key(path.read_bytes(), password=None)
            except (ValueError, TypeError, OSError) as exc:
                raise BadRequest(f"{path}: not a server key ({exc})") from None
            if not isinstance(key, Ed25519PrivateKey):
                raise BadRequest(f"{path}: not an Ed25519 key")
            return cls(key)
        key = Ed25519PrivateKey.generate()
        pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:   # another process made it first: use that one
            return cls.load_or_create(path)
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
        return cls(key)

    def sign(self, game_id: str, step: int, head: str) -> dict[str, Any]:
        sig = self._key.sign(message(game_id, step, head)).hex()
        return {"game": game_id, "step": step, "head": head, "key": self.public, "sig": sig}


@dataclass(frozen=True)
class Signed:
    game: str
    step: int
    head: str
    key: str


def check_signed(value: Any, where: str) -> Signed:
    """A receipt as a player kept it, its signature checked; BadRequest names what is wrong,
    TamperedLog says that the signature is not the key's."""
    if not isinstance(value, dict):
        raise BadRequest(f"{where}: a receipt is a JSON object")
    game, step = value.get("game"), value.get("step")
    if not isinstance(game, str) or not game:
        raise BadRequest(f"{where}: the receipt has no game")
    if type(step) is not int or step < 0:
        raise BadRequest(f"{where}: the receipt's step is not a whole number")
    hexes: dict[str, str] = {}
    for name, form, digits in (("head", _HEX64, 64), ("key", _HEX64, 64),
                               ("sig", _HEX128, 128)):
        v = value.get(name)
        if not isinstance(v, str) or not form.match(v):
            raise BadRequest(f"{where}: the receipt's {name} is not {digits} lower-case hex "
                             "digits")
        hexes[name] = v
    head, key = hexes["head"], hexes["key"]
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
            bytes.fromhex(hexes["sig"]), message(game, step, head))
    except InvalidSignature:
        raise TamperedLog(f"{where}: the receipt's signature does not match it (step {step}, "
                          f"head {head[:10]}): not the server's word") from None
    except ValueError:
        raise BadRequest(f"{where}: the receipt's key is not an Ed25519 public key") from None
    return Signed(game, step, head, key)


def seat_signatures(value: dict[str, Any], signed: Signed, where: str) -> list[Receipt]:
    """LOG.RECEIPT: the seats' signatures a receipt holds (``"seats": {seat: {head, key,
    sig}}``, shared dice), each checked; each the seat's word that it was shown that head at
    that step: a head the log does not hold there is a split view, or a changed game."""
    seats = value.get("seats", {})
    if not isinstance(seats, dict):
        raise BadRequest(f"{where}: the receipt's seats is not a map of seat to signature")
    out = []
    for seat, s in seats.items():
        if not isinstance(s, dict) or not all(isinstance(s.get(k), str) for k in (
                "head", "key", "sig")) or not _HEX64.match(s["head"]):
            raise BadRequest(f"{where}: {seat}'s signature is not a map of head, key and sig")
        if not signed_by(s["key"], s["sig"], message(signed.game, signed.step, s["head"])):
            raise TamperedLog(f"{where}: {seat}'s signature does not match step {signed.step} "
                              f"and head {s['head'][:10]}: not that seat's word")
        out.append(Receipt(s["head"], signed.step, party=seat, key=s["key"]))
    return out


def read_receipts(lines: Iterable[str | bytes], source: str, game_id: str,
                  key: str | None) -> list[Receipt]:
    """The receipts of ``game_id`` in a file of JSON lines, each signature checked (and the
    key, when one is given), as Receipts the log must hold."""
    out: list[Receipt] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source} line {n}"
        try:
            value = json.loads(line)
        except (ValueError, RecursionError) as exc:
            raise BadRequest(f"{where}: not JSON ({exc})") from None
        signed = check_signed(value, where)
        if key is not None and signed.key != key.lower():
            raise TamperedLog(f"{where}: the receipt is signed by key {signed.key[:16]}..., not "
                              f"by the server's key {key[:16]}...")
        if signed.game == game_id:
            out.append(Receipt(signed.head, signed.step))
            out += seat_signatures(value, signed, where)
    if not out:
        raise BadRequest(f"{source}: no receipt of game {game_id}")
    return out
