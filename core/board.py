"""The board a client draws (``Game.board()``, ``{"query": "board"}``, ``GET
/games/{id}/board``): the table, its terrain, and every piece, in one frame of reference,
the same for both rulebooks and for every client (docs/board.md draws it).

- Distances are inches; ``x`` runs along the table's width and ``y`` along its depth, from
  the corner at (0, 0).
- ``facing`` is in degrees: 0 faces toward growing ``y``, 90 toward growing ``x`` (seen with
  ``y`` growing upwards, a facing grows clockwise, as a wheel's and a turn's angles do).
- A block of models' ``position`` is the middle of its front edge; its ``corners`` are its
  front-left, front-right, back-right and back-left corners, the block behind its front. A
  piece of models on round bases gives each model as a circle, at its centre with its radius.
  What else a piece says is its rulebook's (its view's ``board``).
- Bases are given in millimetres (``base``), as a model's base is sized; everything placed on
  the table is in inches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .protocols import view_of

if TYPE_CHECKING:
    from .game import Game

BOARD_VERSION = 1

FRAME: dict[str, Any] = {
    "version": BOARD_VERSION,
    "units": "inches",
    "origin": "the table's corner where x = 0 and y = 0",
    "x": "along the table's width",
    "y": "along the table's depth",
    "facing": "degrees; 0 toward growing y, 90 toward growing x (clockwise, y upward)",
    "position": "a block: the middle of its front edge; a model on a round base: its centre",
    "corners": "front-left, front-right, back-right, back-left",
    "base": "millimetres",
}


def board(game: Game) -> dict[str, Any]:
    """The table and every piece on it, as a screen draws them, in the frame of reference
    ``FRAME`` states (and its version), with the game's turn and phase."""
    view = view_of(game.preset)
    drawn = view.board(game.state) if view is not None else {"table": {}, "pieces": []}
    state = game.state
    return {"frame": FRAME, "turn": state.turn, "player": state.player,
            "phase": state.phase, **drawn}
