"""What a pending roll needs, as a player at the table reads it ("each die: 4+ wounds"), for
the prompt that asks for real dice. The same rule functions decide it that decide the roll's
outcome, so the prompt and the outcome never disagree."""

from __future__ import annotations

import math
from collections.abc import Callable

from regiment.core.i18n import mark, tr
from regiment.core.state import Awaiting

from . import charge, table
from .characters.rules import unit_leadership
from .close_combat import attacks
from .result import break_penalty
from .rolls import ATTACK_PURPOSES, AttackRoll, FleeTie, SideRoll, Toward, read
from .specials import SWIFTSTRIDE, has
from .state import State
from .units import side_word, too_few_to_rally


def roll_need(state: State) -> str | None:
    """What the awaited roll needs, in a few words, or None when no roll is awaited."""
    aw = state.awaiting
    if aw is None:
        return None
    if state.batch is not None and aw.purpose in STAGE_NEEDS:
        return _attack_need(state, aw)
    if aw.purpose in LEADERSHIP:
        return _leadership_need(state, aw)
    tell = OTHER.get(aw.purpose)
    return tell(state, aw) if tell is not None else None


STAGE_NEEDS = ATTACK_PURPOSES


def _attack_need(state: State, aw: Awaiting) -> str | None:
    """ATK.SEQUENCE: the need of the stage being rolled."""
    at = _attack_stage(state, aw)
    if at is None:
        return None
    g, stage = at
    if stage == "multiple":   # SR.MULTIPLE_WOUNDS: how many wounds each unsaved one becomes
        return (tr("each die D3 wounds (1-2: one, 3-4: two, 5-6: three)")
                if g.multiple == "D3" else tr("each die is that many wounds"))
    if g.special and stage == "hit":   # ATK.IMPACT, ATK.STOMP: how many hits a model makes
        return (tr("each die D3 hits (1-2: one, 3-4: two, 5-6: three)")
                if g.special.value == "D3"
                else tr("each die is that many hits"))
    need = {"hit": g.hit, "hit2": g.hit if g.reroll else g.hit2, "wound": g.wound,
            "armour": g.armour, "ward": g.ward}[stage]
    if stage == "hit2":
        return (tr("each die {need}+ hits (the misses again)", need=need) if g.reroll
                else tr("each die {need}+ hits (the 6s again)", need=need))
    if stage == "hit":
        return tr("each die {need}+ hits", need=need)
    if stage == "wound":
        return tr("each die {need}+ wounds", need=need)
    return tr("each die {need}+ saves", need=need)


def roll_numbers(state: State) -> dict[str, int | bool] | None:
    """What the awaited roll needs, as numbers a screen can check the faces with: each die
    at least (``each_at_least``), or the total at most (a Leadership test: a double 1 passes)
    or at least (a charge: ``highest_two`` with Swiftstride); None where the words alone say
    it (a distance rolled, a side, a choice)."""
    aw = state.awaiting
    if aw is None:
        return None
    if state.batch is not None and aw.purpose in STAGE_NEEDS:
        at = _attack_stage(state, aw)
        if at is None or at[0].special or at[1] == "multiple":
            return None
        g, stage = at
        return {"each_at_least": {"hit": g.hit, "hit2": g.hit if g.reroll else g.hit2,
                                  "wound": g.wound, "armour": g.armour, "ward": g.ward}[stage]}
    if aw.purpose in LEADERSHIP:
        u = state.units[aw.unit or ""]
        if aw.purpose == "rally" and too_few_to_rally(u):
            return {"total_at_most": 2, "double_one_passes": True}
        return {"total_at_most": _leadership(state, aw), "double_one_passes": True}
    if aw.purpose == "charge_range":
        u = state.units[aw.unit or ""]
        target = state.units.get(read(Toward, aw).unit)
        if target is None or table.measured(state):
            return None
        need = max(0, math.ceil(charge.gap(u, target) - u.profile["M"] - 1e-9))
        return {"total_at_least": need, "highest_two": has(u, SWIFTSTRIDE)}
    return None


LEADERSHIP = ("break_test", "panic", "restrain", "reform", "rally", "redirect", "march",
              "reform_move", "fear", "terror")


def _attack_stage(state: State, aw: Awaiting) -> tuple[attacks.Group, str] | None:
    batch = state.batch
    assert batch is not None
    if aw.about is not None:
        at = read(AttackRoll, aw)
        return batch.groups[at.group], at.stage
    nxt = attacks.next_roll(batch.groups)
    return None if nxt is None else (batch.groups[nxt[0]], nxt[1])


def _leadership(state: State, aw: Awaiting) -> int:
    """LD.TEST, BT.TEST: the highest total that passes (Leadership less any penalty)."""
    u = state.units[aw.unit or ""]
    penalty = 0
    fight = state.fight
    if aw.purpose == "break_test" and fight is not None and fight.combat in state.combats:
        penalty = break_penalty(state, state.combats[fight.combat], u.id,
                                fight.outcome.margin)[0]
    elif aw.purpose == "reform" and fight is not None:
        penalty = fight.penalties.get(u.id, 0)
    return unit_leadership(state, u) - penalty


def _leadership_need(state: State, aw: Awaiting) -> str:
    """LD.TEST, LD.INSANE, BT.TEST, RALLY.TEST: the total the two dice must not pass."""
    u = state.units[aw.unit or ""]
    if aw.purpose == "rally" and too_few_to_rally(u):
        return tr("only a double 1 rallies it (25 % or fewer of its models left)")
    ld = unit_leadership(state, u)
    need = _leadership(state, aw)
    penalty = ld - need
    less = f"Ld {ld} - {penalty}" if penalty else f"Ld {ld}"
    return tr("a total of {need} or less passes ({less}; a double 1 always passes)",
              need=need, less=less)


def _charge_need(state: State, aw: Awaiting) -> str:
    """CH.RANGE: the dice that count, with the charger's Movement, must reach the target."""
    u = state.units[aw.unit or ""]
    target = state.units.get(read(Toward, aw).unit)
    dice = tr("the highest two of 3D6") if has(u, SWIFTSTRIDE) else "2D6"
    if target is None or table.measured(state):   # at a table: measured after the roll
        return tr("{dice} + M {m} is the charge range", dice=dice, m=u.profile["M"])
    dist = charge.gap(u, target)
    need = max(0, math.ceil(dist - u.profile["M"] - 1e-9))
    return tr("{need} or more on {dice} reaches {target}, {distance}\" away with M {m}",
              need=need, dice=dice, target=target.name, distance=format(dist, ".1f"),
              m=u.profile["M"])


def _side(state: State, aw: Awaiting) -> str:
    first, second = read(SideRoll, aw).sides
    return tr("1-3: its {first}, 4-6: its {second} (CH.CHARGE_MOVE)",
              first=side_word(first), second=side_word(second))


def _tie(state: State, aw: Awaiting) -> str:
    among = read(FleeTie, aw).among
    share = 6 // len(among)
    names = ", ".join(f"{i * share + 1}-{(i + 1) * share}: {state.units[u].name}"
                      for i, u in enumerate(among))
    rest = tr(" (higher: roll again)") if share * len(among) < 6 else ""
    return tr("it flees from {names}{rest} (FP.FLEE_DIRECTION)", names=names, rest=rest)


def _distance(plain: str, swift: str) -> Callable[[State, Awaiting], str]:
    """FP.FLEE_ROLL, FP.PURSUE_ROLL: the dice are the distance (Swiftstride: the highest two
    of three)."""
    def need(state: State, aw: Awaiting) -> str:
        u = state.units.get(aw.unit or "")
        return tr(swift) if u is not None and has(u, SWIFTSTRIDE) else tr(plain)
    return need


OTHER = {
    "charge_range": _charge_need,
    "flee": _distance(mark("the total is the distance it flees (FP.FLEE_ROLL)"),
                      mark("the highest two are the distance it flees (Swiftstride, "
                           "FP.FLEE_ROLL)")),
    "pursuit": _distance(mark("the total is the distance it pursues (FP.PURSUE_ROLL)"),
                         mark("the highest two are the distance it pursues (Swiftstride, "
                              "FP.PURSUE_ROLL)")),
    "dangerous_terrain": lambda s, aw: tr("each 1 loses a model (FP.FLEE_THROUGH)"),
    "random_side": _side,
    "random_choice": _tie,
}
