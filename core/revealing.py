"""A game's deciding of the host's commands for shared dice (core.shared): the commitments,
a round's reveals, and a reveal withheld past its time (DICE.COMMIT, DICE.REVEAL,
DICE.SHARED, DICE.WITHHELD)."""

from __future__ import annotations

from typing import NamedTuple

from .commands import CommitDice, Reveal, Withheld
from .endings import Ending, ending
from .events import DiceCommitted, DiceRevealed, Event, GameEnded, GameStarted
from .history import Timeline
from .i18n import tr
from .shared import HEX64, SERVER, anchor_commitment, commitment_problem, link, order, shared_faces
from .state import GameState

WITHHELD = ("concede", "contested")
REVEAL_TIMEOUT = 60.0   # seconds a party has to reveal, unless the scenario says otherwise


class Opening(NamedTuple):
    """What a game keeps of its ``GameStarted`` once begun: what its dice ask of it later
    (DICE.COMMIT: the game and the host's commitment; DICE.WITHHELD: what a reveal withheld
    past its time ends in, and that time), not the whole scenario (8 KiB a held game)."""

    game_id: str
    dice: str
    dice_commitment: str
    withheld: str
    reveal_timeout: float

    @classmethod
    def of(cls, started: GameStarted) -> Opening:
        scenario = started.scenario
        return cls(started.game_id, started.dice, started.dice_commitment,
                   scenario.get("withheld", "concede"),
                   float(scenario.get("reveal_timeout", REVEAL_TIMEOUT)))


class Refused(Exception):
    """A host's command the rules refuse: why, the rule, a reason code and the field."""

    def __init__(self, why: str, rule: str, code: str, field: str | None = None) -> None:
        super().__init__(why)
        self.why, self.rule, self.code, self.field = why, rule, code, field


def committed(started: Opening, timeline: Timeline, state: GameState, command: CommitDice
              ) -> list[Event]:
    """DICE.COMMIT: every party's commitment, once, before any shared die: the host's anchor
    must be the one ``GameStarted`` committed to, each seat's signed with its own key."""
    if started.dice != "shared":
        raise Refused(tr("this game's dice are not shared"), "DICE.COMMIT", "not_shared")
    if timeline.chains:
        raise Refused(tr("the dice commitments are already in"), "DICE.COMMIT",
                      "already_committed")
    parties = command.commitments
    if SERVER not in parties:
        raise Refused(tr("the host's commitment is missing"), "DICE.COMMIT", "no_host",
                      "commitments")
    for party in parties:
        if party != SERVER and party not in state.players:
            raise Refused(tr("{party} is not a party of this game", party=party),
                          "DICE.COMMIT", "not_a_party", "commitments")
        problem = commitment_problem(started.game_id, party, parties[party])
        if problem:
            raise Refused(problem, "DICE.COMMIT", "bad_commitment", f"commitments.{party}")
    if anchor_commitment(parties[SERVER]["anchor"]) != started.dice_commitment:
        raise Refused(tr("the host's anchor is not the one the game's first record commits "
                         "to"), "DICE.COMMIT", "bad_commitment", f"commitments.{SERVER}")
    return [DiceCommitted(party=p, **{k: parties[p][k] for k in ("anchor", "length", "key",
                                                                 "sig")})
            for p in order(parties)]


def next_round(timeline: Timeline, state: GameState, k: int) -> None:
    """DICE.PENDING, DICE.COMMIT, DICE.REVEAL: a roll waits, the commitments are in, and ``k``
    is the round after the last one revealed (in any branch: rounds never rewind)."""
    if state.awaiting is None:
        raise Refused(tr("no roll is pending"), "DICE.PENDING", "no_roll_pending")
    if not timeline.chains:
        raise Refused(tr("the dice commitments are not all in yet"), "DICE.COMMIT",
                      "not_committed")
    if k != timeline.rounds + 1:
        raise Refused(tr("round {round} is the next to reveal, not {k}",
                         round=timeline.rounds + 1, k=k), "DICE.REVEAL", "wrong_round",
                      "round")


def value_problem(timeline: Timeline, party: str, k: int, value: object) -> str | None:
    """DICE.REVEAL: why ``value`` is not ``party``'s reveal for round ``k``, if it is not."""
    chain = timeline.chains.get(party)
    if chain is None:
        return tr("{party} has no chain in this game", party=party)
    if k > chain.length:
        return tr("{party}'s chain has {n} rounds; round {k} is past it", party=party,
                  n=chain.length, k=k)
    if not isinstance(value, str) or not HEX64.match(value):
        return tr("{party}'s reveal is not 64 hex digits", party=party)
    if link(bytes.fromhex(value)).hex() != chain.last:
        return tr("{party}'s reveal for round {k} does not hash to its previous value",
                  party=party, k=k)
    return None


def revealed(game_id: str, head: str, timeline: Timeline, state: GameState, command: Reveal,
             known: tuple[int | None, ...] | None) -> tuple[DiceRevealed, tuple[int, ...]]:
    """DICE.REVEAL, DICE.SHARED: round ``k``'s reveals, every one checked against its chain,
    and the faces of the pending roll: those an undone branch rolled (DICE.NO_REROLL), then
    the new ones the reveals make, bound to the game, the round and the head."""
    k = command.round
    next_round(timeline, state, k)
    aw = state.awaiting
    assert aw is not None   # (next_round)
    if command.by != aw.player:
        raise Refused(tr("this roll is {player}'s", player=aw.player), "DICE.PENDING",
                      "not_your_roll", "by")
    values = command.values
    if set(values) != set(timeline.chains):
        raise Refused(tr("round {k} needs a reveal from each of {parties}", k=k,
                         parties=", ".join(order(timeline.chains))), "DICE.REVEAL",
                      "reveals_missing", "values")
    for party in order(values):
        problem = value_problem(timeline, party, k, values[party])
        if problem:
            raise Refused(problem, "DICE.REVEAL", "bad_reveal", f"values.{party}")
    old = tuple(f for f in (known or ()) if f is not None)
    if len(old) == aw.dice:
        raise Refused(tr("these dice were rolled before: no reveal is needed"),
                      "DICE.NO_REROLL", "dice_already_rolled")
    new = aw.dice - len(old)
    faces = old + shared_faces(values, game_id, k, head, new)
    return DiceRevealed(round=k, values=dict(values), head=head, dice=new), faces


def withheld(started: Opening, timeline: Timeline, state: GameState, command: Withheld
             ) -> GameEnded:
    """DICE.WITHHELD: ``by`` did not reveal round ``k`` in time: it concedes, or (the
    scenario's ``withheld = "contested"``) the game ends with no winner, contested, the signed
    log its evidence."""
    next_round(timeline, state, command.round)
    if command.by not in timeline.chains:
        raise Refused(tr("{party} reveals no dice in this game", party=command.by),
                      "DICE.WITHHELD", "not_a_party", "by")
    if started.withheld == "concede":
        return GameEnded(winner=state.opponent(command.by), ending=ending(
            Ending.WITHHELD, player=command.by, round=command.round))
    return GameEnded(winner=None, ending=ending(Ending.CONTESTED, player=command.by,
                                                round=command.round))
