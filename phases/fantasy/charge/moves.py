"""CH.MOVE_ORDER, CH.RANGE, CH.CHARGE_MOVE, CH.FAILED, CH.CATCH_FLEEING: the charge moves,
as the machine's ``charge_moves`` step: the active player picks each charger in turn, it rolls
its range, and it reaches its target (a combat begins or grows), catches it fleeing, or
fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.fold import fold
from regiment.core.pending import Decision
from regiment.core.state import Awaiting

from .. import charge, table
from ..appliers import to_move
from ..close_combat import contacts
from ..close_combat.combat import combat_holding
from ..commands import EndCharges, MoveCharger
from ..events import (
    ChargeRolled,
    CombatBegan,
    CombatJoined,
    UnitCaught,
    UnitDestroyed,
)
from ..faces import counted, dropped
from ..flow import Flow
from ..motion import hill_regions, moved
from ..rolls import Toward, ask, read
from ..rulings import ruled
from ..state import State, UnitState
from ..units import ALIVE, box
from ..why import CHARGE_FAILED, DESTROYED, ENGAGED, written


class Caught(NamedTuple):
    box: geo.Box
    run: float


class ChargeMoveFlow:
    """The charge moves (the declarations ended)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {"end_charges": self._end_charges, "move_charger": self._move_charger}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {"charge_moves": {"charge_range": self._range_rolled}}

    def drives(self) -> dict[str, Any]:
        return {}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {"charge_moves": self._ask_charge_move}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {}

    def _end_charges(self, state: State, cmd: EndCharges) -> list[Event]:
        self.flow.check_turn(state, cmd, "CH.DECLARE")
        return self.flow.fire(state, "end_charges")

    def _move_charger(self, state: State, cmd: MoveCharger) -> list[Event]:
        """CH.MOVE_ORDER: the active player picks the next charger; it rolls its range."""
        self.flow.check_turn(state, cmd, "CH.MOVE_ORDER")
        self.flow.check_offered(state, cmd, "CH.MOVE_ORDER")
        unit = state.units[cmd.unit]
        return [ask("charge_range", unit.id, unit.player, charge.movement_dice(unit),
                    Toward(cmd.target or unit.declared or ""))]

    def _range_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        unit = state.units[aw.unit or ""]
        target = state.units[read(Toward, aw).unit]
        reach = charge.charge_range(unit, faces)
        gone = target.status not in ALIVE
        dist = 0.0 if gone and table.measured(state) else \
            table.gap(state, unit, target,
                      "CH.CATCH_FLEEING" if target.status == "fleeing" else "CH.RANGE")
        dice = counted(faces)
        base: dict[str, Any] = {"unit": unit.id, "target": target.id, "dice": dice,
                                "range": reach, "distance": dist}
        if ruled(state, "story_told_whole") and len(faces) > len(dice):
            base["dropped"] = dropped(faces)   # Swiftstride: told as dropped
        if gone:
            events: list[Event] = [ChargeRolled(**base, success=False, why=written(
                CHARGE_FAILED, state, "target_gone", target=target.id))]
            return self.flow.finish(state, events + self._failed(state, unit, target, faces))
        if target.status == "fleeing":  # CH.CATCH_FLEEING
            if reach < dist:
                events = [ChargeRolled(**base, success=False)]
                return self.flow.finish(state, events + self._failed(state, unit, target, faces))
            b = None if table.measured(state) else self._caught_at(state, unit, target, dist)
            events = [ChargeRolled(**base, success=True), UnitCaught(unit=target.id, by=unit.id),
                      UnitDestroyed(unit=target.id,
                                    reason=written(DESTROYED, state, "caught_fleeing")),
                      moved(unit.id, b.box if b else None, "charge",
                            b.run if b else dist)]
            events += self.flow.flights.panic_after(
                fold(state, events, self.flow.fold_table), [target.id], "was destroyed")
            return self.flow.finish(state, events)
        side = state.context.sides.get(unit.id) or "front"
        if reach < dist:   # out of range: where it would have landed does not matter
            events = [ChargeRolled(**base, success=False)]
            return self.flow.finish(state, events + self._failed(state, unit, target, faces))
        end, why = table.room(state, unit, target, side,
                              lambda: charge.plan_charge(state, unit, target, side))
        if why:
            events = [ChargeRolled(**base, success=False, why=why)]
            return self.flow.finish(state, events + self._failed(state, unit, target, faces))
        hill = self._down_hill(state, unit, end)
        events = [ChargeRolled(**base, success=True), moved(unit.id, end, "charge", dist)]
        joined = self._joined(state, unit, target, end, hill)
        events.append(joined)
        events += contacts.charged(fold(state, events, self.flow.fold_table), unit, target, side,
                                   joined)
        return self.flow.finish(state, events)

    def _caught_at(self, state: State, unit: UnitState, target: UnitState, dist: float
                   ) -> Caught:
        """CH.CATCH_FLEEING: the charger runs straight at the fleer it caught; from engine
        0.5.0 it stops at a unit in its way (GEO.NO_OVERLAP)."""
        heading = geo.bearing(box(unit).position, geo.centre(box(target)))
        if ruled(state, "no_overlap"):
            others = [box(o) for o in state.units.values() if o.id not in (unit.id,
                      target.id) and o.status in ALIVE]
            dist = round(geo.clear_run(box(unit), heading, dist, others), 4)
        return Caught(geo.rounded(geo.moved(box(unit), dist, heading)), dist)

    def _down_hill(self, state: State, unit: UnitState, end: geo.Box | None) -> bool:
        """CR.CHARGE: the charger came down off a hill: half on one before, less after."""
        def geometric() -> bool:
            hills = hill_regions(state)
            return end is not None and \
                geo.area_share(box(unit), hills) >= 0.5 > geo.area_share(end, hills)

        return table.down_hill(state, unit, geometric)

    def _joined(self, state: State, unit: UnitState, target: UnitState, end: geo.Box | None,
                hill: bool) -> CombatBegan | CombatJoined:
        """A new combat, or (the target or another enemy the charger now touches already
        fighting) the combat it joins, with any other combat it links to it."""
        touched = [target.id, *table.also_touched(state, unit, target, end)]
        linked = list(dict.fromkeys(c.id for uid in touched
                                    for c in (combat_holding(state, uid),) if c is not None))
        on_hill = (unit.id,) if hill else ()
        if not linked:
            return CombatBegan(combat=f"{state.turn}-{unit.id}-{target.id}",
                               units=(unit.id, target.id), chargers=(unit.id,), hill=on_hill,
                               reason=ENGAGED.make("charge"))
        joining = (unit.id,) if target.status == "engaged" else (unit.id, target.id)
        return CombatJoined(combat=linked[0], units=joining, chargers=(unit.id,), hill=on_hill,
                            merged=tuple(linked[1:]), reason=ENGAGED.make("charge"))

    def _failed(self, state: State, unit: UnitState, target: UnitState,
                faces: tuple[int, ...]) -> list[Event]:
        if table.measured(state):   # CH.FAILED: the players move it; no position to record
            return [moved(unit.id, None, "failed_charge", float(max(faces)))]
        end, run = charge.failed_move(state, unit, target, faces)
        return [moved(unit.id, end, "failed_charge", run)]

    def _ask_charge_move(self, state: State) -> Decision:
        """CH.MOVE_ORDER: the active player picks the next charger (and, CH.REDIRECT, which of
        two fleeing targets it goes after)."""
        p = state.player
        moves: list[Command] = []
        for uid in to_move(state):
            u = state.units[uid]
            if u.status != "ready":
                continue
            targets = state.context.targets.get(uid, ())
            fled = [t for t in targets if state.units[t].status == "fleeing"]
            if len(targets) > 1 and len(fled) == len(targets):
                moves += [MoveCharger(by=p, unit=uid, target=t) for t in targets]
            else:
                moves.append(MoveCharger(by=p, unit=uid))
        return Decision(player=p, decision="move_charger", legal=tuple(moves))


# the flow's part: its place among the parts, its name (parts.py)
PART = (3, "charge_moves", ChargeMoveFlow)
