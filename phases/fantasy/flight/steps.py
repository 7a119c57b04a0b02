"""What makes units flee and come back: panic tests (PANIC.*), which any step may call for,
the flight a failed test or a charge reaction makes (FP.FLEE_ROLL, FP.FLEE_DIRECTION,
FP.FLEE_THROUGH, FP.OFF_TABLE), the rally step of the movement phase (RALLY.TEST) and the
units that left the table coming back (FP.OFF_TABLE)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core import geometry as geo
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.pending import Decision
from regiment.core.reasons import Reason
from regiment.core.state import Awaiting

from .. import charge, effects, table
from ..characters.rules import unit_leadership
from ..effects import SparedData
from ..events import (
    DangerousTerrainTested,
    LeadershipTested,
    PanicCaused,
    UnitDestroyed,
    UnitFled,
    UnitRallied,
    UnitReturned,
)
from ..faces import counted
from ..flow import Flow
from ..motion import moved
from ..result import ld_test
from ..rolls import FleeRoll, Toward, ask, read
from ..rulings import ruled
from ..specials import IMMUNE_TO_PSYCHOLOGY, has
from ..state import State, UnitState
from ..units import ALIVE, box, stands_on_another, too_few_to_rally
from ..why import DESTROYED, PANIC, written

PANIC_RANGE = 6.0


class FlightFlow:
    """Panic, flight, rally and returns: the rally step, and the rolls any step may ask for
    (a panic test, a flight, a flight through the enemy)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow

    def handlers(self) -> dict[str, Any]:
        return {}

    def rolls(self) -> dict[str, dict[str, Any]]:
        return {"reactions": {"flee": self.flee_rolled},
                "rally": {"rally": self._rally_rolled, "flee": self.flee_rolled}}

    def anywhere(self) -> dict[str, Any]:
        """Rolls of what may happen in any step: a panic test and the flight it may cause
        (PANIC.TRIGGERS), a flight through the enemy (FP.FLEE_THROUGH)."""
        return {"panic": self._panic_rolled, "flee": self.flee_rolled,
                "dangerous_terrain": self._dangerous_rolled}

    def drives(self) -> dict[str, Any]:
        # FP.OFF_TABLE: fantasy8 brings pursuers back in the remaining moves, as ambushers;
        # fantasy-classic at the start of the movement phase, as reinforcements
        return {"rally": self._drive_rally, self.flow.variant.returns_in: self._drive_returns}

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        return {}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        return {}

    def flee_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                    ) -> list[Event]:
        """CH.REACT, PANIC.TRIGGERS, RALLY.TEST: a unit flees its roll (a broken unit's
        flight is the pursuit's step, ``flee_rolls``)."""
        unit = state.units[aw.unit or ""]
        dist = sum(counted(faces))
        reason, source = (flee := read(FleeRoll, aw)).reason, flee.source
        away = state.units.get(source) or table.nearest_enemy(state, unit, "FP.FLEE_DIRECTION")
        events: list[Event] = [UnitFled(unit=unit.id, distance=dist, reason=reason, dice=faces,
                                        away_from=away.id if away else "")]
        if away is not None:
            events += self.flee_events(state, unit, away, dist, reason)
        return self.flow.finish(state, events)

    def flee_events(self, state: State, unit: UnitState, away: UnitState | None, dist: float,
                    reason: str) -> list[Event]:
        """The flee move, or the table edge that destroys a fleeing unit (FP.OFF_TABLE); a
        unit with no enemy to flee from turns about on its own centre."""
        end, off, through = table.flee(
            state, unit, away, dist,
            lambda: charge.flee_move(state, unit, geo.centre(box(away if away else unit)), dist))
        events: list[Event] = [moved(unit.id, end, "flee", dist)]
        if off:
            events.append(UnitDestroyed(unit=unit.id,
                                        reason=written(DESTROYED, state, "fled_off_table")))
            events += self.panic_after(fold(state, events, self.flow.fold_table), [unit.id],
                                       "was destroyed")
            return events
        foes = [u for u in through if state.units[u].player != unit.player]
        if foes:  # FP.FLEE_THROUGH: every model takes a dangerous terrain test
            events.append(ask("dangerous_terrain", unit.id, unit.player, unit.models,
                              Toward(foes[0])))
        return events

    def _dangerous_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                          ) -> list[Event]:
        """FP.FLEE_THROUGH: each 1 costs a model a wound, with no save."""
        u = state.units[aw.unit or ""]
        ones = sum(1 for f in faces if f == 1)
        lost = min(ones, u.models * u.profile["W"] - u.wounded)
        slain = (u.wounded + lost) // u.profile["W"]
        events: list[Event] = [DangerousTerrainTested(unit=u.id, faces=faces,
                                                      through=read(Toward, aw).unit,
                                                      lost=lost, slain=slain)]
        if slain >= u.models:
            events.append(UnitDestroyed(unit=u.id,
                                        reason=written(DESTROYED, state, "dangerous_terrain")))
        return self.flow.finish(state, events)

    def panic_after(self, state: State, causes: list[str], what: str) -> list[Event]:
        """PANIC.TRIGGERS: friends within 6" of a unit that broke or was destroyed test."""
        out: list[Event] = []
        queued = set(state.context.panic) | set(state.context.panicked)
        named = ruled(state, "effects_named")
        for cid in causes:
            cause = state.units[cid]
            near = table.within(state, cause, [
                u for u in state.units.values()
                if u.player == cause.player and u.id != cid and u.status == "ready"
                and u.id not in queued and (named or not has(u, IMMUNE_TO_PSYCHOLOGY))],
                PANIC_RANGE, "PANIC.TRIGGERS")
            code = "destroyed_near" if what == "was destroyed" else "broke_near"
            caused = panic(state, near, cid, written(PANIC, state, code, unit=cid))
            if caused is not None:
                queued |= set(caused.units)
                out.append(caused)
        return out

    def drive_panic(self, state: State) -> list[Event]:
        uid = state.context.panic[0]
        u = state.units[uid]
        return [RollRequested(purpose="panic", unit=uid, player=u.player, dice=2)]

    def _panic_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        return self._ld_then_flee(state, aw, faces, "panic")

    def _ld_then_flee(self, state: State, aw: Awaiting, faces: tuple[int, ...],
                      purpose: str) -> list[Event]:
        u = state.units[aw.unit or ""]
        passed, need, insane = ld_test(unit_leadership(state, u), 0, faces)
        if purpose == "rally" and too_few_to_rally(u):  # RALLY.TEST: 25 % or fewer left
            passed = insane = tuple(faces) == (1, 1)
            need = 1
        events: list[Event] = [LeadershipTested(unit=u.id, purpose=purpose,
                                                leadership=unit_leadership(state, u), penalty=0,
                                                faces=faces, passed=passed, needs=need,
                                                insane=insane)]
        if passed:
            if purpose == "rally":  # RALLY.TEST: it rallies and turns to face the nearest foe
                events.append(UnitRallied(unit=u.id))
                # the players turn it at the table; only geometry turns it here
                foe = None if table.measured(state) else charge.nearest_enemy(state, u)
                if foe is not None:
                    b = geo.pivoted(box(u), geo.bearing(geo.centre(box(u)),
                                                        geo.centre(box(foe))))
                    if not (stands_on_another(state, u, b) and
                            ruled(state, "no_overlap")):   # GEO.NO_OVERLAP
                        events.append(moved(u.id, geo.rounded(b), "rally"))
        else:
            events.append(ask("flee", u.id, u.player, charge.movement_dice(u),
                              FleeRoll(purpose)))
        return self.flow.finish(state, events)

    def _drive_rally(self, state: State) -> list[Event]:
        """RALLY.TEST: each fleeing unit of the active player tests, one after another."""
        done = state.context.rallied
        for u in state.units.values():
            if u.player == state.player and u.status == "fleeing" and u.id not in done:
                return [RollRequested(purpose="rally", unit=u.id, player=u.player, dice=2)]
        return []

    def _rally_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        return self._ld_then_flee(state, aw, faces, "rally")

    def _drive_returns(self, state: State) -> list[Event]:
        """FP.OFF_TABLE: pursuers that left the table come back in their player's next
        movement phase, rear rank centred on the point they left by, facing the table."""
        for u in state.units.values():
            if u.player == state.player and u.status == "off_table" and (
                    u.left_at or table.measured(state)):   # at the table: where it left
                if table.measured(state):   # the players place it where it left
                    return [UnitReturned(unit=u.id, position=None, facing=None)]
                b = return_box(state, u)
                return [UnitReturned(unit=u.id, position=(b.x, b.y), facing=b.facing)]
        return []


def return_box(state: State, u: UnitState) -> geo.Box:
    """FP.OFF_TABLE: the unit's box with its rear rank centred on the point it left by, or as
    close to it along the edge as it can stand: on the table and, from engine 0.5.0, on no
    other unit (GEO.NO_OVERLAP)."""
    x, y = u.left_at or (0.0, 0.0)
    w, d = state.table["width"], state.table["depth"]
    edges = {0.0: abs(y), 90.0: abs(x), 180.0: abs(d - y), 270.0: abs(w - x)}
    facing = min(edges, key=lambda k: edges[k])  # face away from the nearest edge
    size = box(u)
    (fx, fy), _ = geo.axes(facing)
    b = geo.Box(x + fx * size.depth, y + fy * size.depth, facing, size.width, size.depth)
    # slide along the edge until the whole unit is on the table
    (_, _), (rx, ry) = geo.axes(facing)
    others = [box(o) for o in state.units.values() if o.id != u.id and o.status in ALIVE] \
        if ruled(state, "no_overlap") else []
    first: geo.Box | None = None
    for shift in (0.0, *[s * k for k in range(1, 200) for s in (0.5, -0.5)]):
        c = b._replace(x=b.x + rx * shift, y=b.y + ry * shift)
        if geo.on_table(c, w, d):
            first = first or c
            if not any(geo.overlaps(c, o) for o in others):
                return geo.rounded(c)
    return geo.rounded(first or b)


def panic(state: State, units: list[str], cause: str, reason: Reason) -> PanicCaused | None:
    """PANIC.TRIGGERS, SPECIAL.EFFECTS: the panic tests ``units`` owe, those a special rule
    spares named with it (games from engine 0.14.0; before, they were left out unsaid), or
    None when nobody tests and nobody is named."""
    tests: list[str] = []
    spared: list[SparedData] = []
    for uid in units:
        part = effects.spared(state.units[uid], "panic")
        if part is None:
            tests.append(uid)
        elif ruled(state, "effects_named"):
            spared.append(SparedData(unit=uid, **part.written()))
    if not tests and not spared:
        return None
    return PanicCaused(units=tuple(tests), cause=cause, reason=reason, spared=tuple(spared))


# the flow's part: its place among the parts, its name (parts.py); panic, flight, rally and
# returns: first, where two parts drive one step (the pursuers come back before the dice for a
# split front are rolled, FP.OFF_TABLE in fantasy-classic)
PART = (0, "flights", FlightFlow)
