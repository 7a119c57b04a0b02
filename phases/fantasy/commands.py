"""The fantasy rulebook's commands: what a player decides in its turn, in the imperative.

They are registered with the kernel's command registry (``regiment.core.commands.command``)
when this package is imported; their legality and outcomes are the flow's and the rules'.
"""

from __future__ import annotations

from regiment.core.commands import Command, command
from regiment.phases.common.commands import Move as Move  # both rulebooks' (one name)
from regiment.phases.common.commands import Shoot as Shoot


@command("declare_charge")
class DeclareCharge(Command):
    by: str
    unit: str
    target: str


@command("end_charges")
class EndCharges(Command):
    by: str


@command("react")
class React(Command):
    by: str
    unit: str
    reaction: str


@command("redirect")
class Redirect(Command):
    """CH.REDIRECT: try to redirect (``target`` empty: the Leadership test, games from engine
    0.9.0), then name the new target once it passed (before 0.9.0: both at once)."""

    by: str
    unit: str
    target: str = ""


@command("decline_redirect")
class DeclineRedirect(Command):
    by: str
    unit: str


@command("move_charger")
class MoveCharger(Command):
    """Roll the next charger's range; ``target`` picks between two fleeing targets after a
    redirect (CH.REDIRECT), empty otherwise."""

    by: str
    unit: str
    target: str = ""


@command("fight")
class Fight(Command):
    by: str
    combat: str


@command("challenge")
class Challenge(Command):
    """Issue a challenge with ``unit``'s champion or character (CC.CHALLENGE)."""

    by: str
    unit: str


@command("decline_challenge")
class DeclineChallenge(Command):
    """Issue no challenge this round."""

    by: str


@command("accept_challenge")
class AcceptChallenge(Command):
    by: str
    unit: str


@command("refuse_challenge")
class RefuseChallenge(Command):
    by: str
    unit: str


@command("pursue")
class Pursue(Command):
    by: str
    unit: str
    target: str


@command("overrun")
class Overrun(Command):
    """A unit that destroyed its foes in the first round of its charge moves on (FP.OVERRUN)."""

    by: str
    unit: str


@command("restrain")
class Restrain(Command):
    by: str
    unit: str


@command("reform")
class Reform(Command):
    """Reform a unit: ``files`` is the new frontage, ``face`` an enemy to turn to face (combat
    reform), ``turn`` degrees to turn about its centre (a winner with no foe left)."""

    by: str
    unit: str
    files: int
    face: str = ""
    turn: int = 0


@command("allocate")
class Allocate(Command):
    """CC.ALLOCATE: split the attacks of models touching several enemy units among them:
    ``attacks`` maps each of those units to how many attacks it takes."""

    by: str
    unit: str
    attacks: dict[str, int]


@command("break_test_order")
class BreakTestOrder(Command):
    """BT.WHO: the losing player picks which of his units takes its break test next."""

    by: str
    unit: str


@command("flee_order")
class FleeOrder(Command):
    """FP.MULTI_ORDER: the losing player picks which of his broken units flees next."""

    by: str
    unit: str


@command("pursuit_order")
class PursuitOrder(Command):
    """FP.MULTI_ORDER: the winning player picks which of his pursuers moves next."""

    by: str
    unit: str


@command("reform_order")
class ReformOrder(Command):
    """REF.ORDER: when both players may reform, the active player says who goes first."""

    by: str
    first: str


@command("skip_reform")
class SkipReform(Command):
    by: str
    unit: str


@command("join_unit")
class JoinUnit(Command):
    """CHAR.JOIN: a character joins a friendly unit, in its remaining moves."""

    by: str
    character: str
    unit: str


@command("leave_unit")
class LeaveUnit(Command):
    """CHAR.LEAVE: a character leaves its unit, placed with its front edge's centre at
    (``x``, ``y``) facing ``facing`` (in table mode where the players place it)."""

    by: str
    character: str
    x: float | None = None   # none in table mode: the players place it
    y: float | None = None
    facing: float = 0.0

