"""The close combat phase's flow: challenges, initiative steps, the combat result, break
tests, flee and pursuit, combat reform. Outcomes come from ``combat``, ``result``,
``attacks`` and ``pursuit``; this module only sequences them into events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.events import Event
from regiment.core.fold import fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.phases.common.engine import per_state

from .. import table
from ..commands import Allocate, Fight
from ..events import (
    AttacksAllocated,
    AttacksResolved,
    CharacterLeft,
    CombatRoundBegan,
    InitiativeStepBegan,
    PanicCaused,
    UnitDestroyed,
)
from ..flight.steps import panic
from ..flow import Flow, fight_of
from ..motion import moved
from ..rolls import AttackRoll, ask
from ..rulings import ruled
from ..state import Combat, State, UnitState
from ..units import ALIVE, box, has_champion
from ..why import DESTROYED, LEFT, PANIC, written
from . import attacks, contacts, strikes
from .attacks import Batch


def casualties(target: UnitState, unsaved: int, challenge: bool) -> tuple[int, int, int]:
    """ATK.CASUALTIES, CR.OVERKILL: (wounds lost, models slain, overkill). Wounds beyond
    what the unit (or, in a challenge, its fighter) has are lost, or count as overkill."""
    w = target.profile["W"]
    if challenge and has_champion(target):
        lost = min(unsaved, w)
        return lost, 1 if lost >= w else 0, unsaved - lost
    pool = target.models * w - target.wounded
    lost = min(unsaved, pool)
    slain = (target.wounded + lost) // w
    return lost, slain, (unsaved - lost) if challenge else 0


class CombatFlow:
    """Close combat: the combat chosen, challenges, initiative steps, the result and break
    tests (CC.*, CR.*, BT.*); flee and pursuit, and reform, are ``pursuit`` and ``reform``."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow   # the machine, the fold and the other part: one engine a preset

    def handlers(self) -> dict[str, Any]:
        return {"fight": self._fight,
                "allocate": self._allocate}

    def rolls(self) -> dict[str, dict[str, Any]]:
        """Each step's rolls, and what each leads to: the step that asked goes on."""
        return {}

    def drives(self) -> dict[str, Any]:
        return {"strikes": self._drive_steps}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        """The named guards of the close combat steps: each says its step is done."""
        return {
            "allocated": lambda s: self._to_allocate(s) is None,
        }

    # --- choosing a combat (CC.ORDER) -------------------------------------------------------

    def _fight(self, state: State, cmd: Fight) -> list[Event]:
        self.flow.check_turn(state, cmd, "CC.ORDER")
        self.flow.check_offered(state, cmd, "CC.ORDER")
        cmb = state.combats[cmd.combat]
        begun = CombatRoundBegan(combat=cmb.id, round=cmb.round,
                                 steps=tuple(strikes.steps(state, cmb)),
                                 challenges=bool(self.flow.challenges.challengers(
                                     state, state.player, cmb)))
        return self.flow.then(state, [begun], "fight")

    # --- initiative steps (CC.INITIATIVE, ATK.SEQUENCE) -------------------------------------

    @per_state
    def _to_allocate(self, state: State) -> tuple[str, tuple[str, ...], int] | None:
        """CC.ALLOCATE: the next split a player owes in this step."""
        fight = fight_of(state)
        if not fight.steps:
            return None
        return strikes.to_allocate(state, state.combats[fight.combat], fight.steps[0],
                                  fight)

    def _drive_steps(self, state: State) -> list[Event]:
        fight = fight_of(state)
        if not fight.steps:
            return []
        cmb = state.combats[fight.combat]
        step = fight.steps[0]
        if self._to_allocate(state) is not None:
            return []   # a player splits attacks first (CC.ALLOCATE)
        return [InitiativeStepBegan(combat=cmb.id, step=step,
                                    strikes=tuple(strikes.strikes(state, cmb, step, fight)))]

    def _allocate(self, state: State, cmd: Allocate) -> list[Event]:
        """CC.ALLOCATE: the split must name exactly the enemy units the models touch and add
        up to the attacks to split."""
        cmb = state.combats[fight_of(state).combat]
        left = self._to_allocate(state)
        if left is None or left[0] != cmd.unit:
            self.flow.check_offered(state, cmd, "CC.ALLOCATE")
        assert left is not None
        uid, foes, n = left
        if cmd.by != state.units[uid].player:
            raise self.flow.illegal(state, cmd, tr("{unit} is {player}'s unit",
                                                    unit=state.units[uid].name,
                                                    player=state.units[uid].player),
                                     "CC.ALLOCATE")
        if set(cmd.attacks) != set(foes) or any(type(v) is not int or v < 0
                                                for v in cmd.attacks.values()):
            raise self.flow.illegal(state, cmd, tr("the attacks must be split among {foes}, "
                                                    "none below 0", foes=", ".join(foes)),
                                     "CC.ALLOCATE")
        if sum(cmd.attacks.values()) != n:
            raise self.flow.illegal(
                state, cmd, tr("{unit} has {n} attacks to split; these add up to {sum}",
                               unit=state.units[uid].name, n=n,
                               sum=sum(cmd.attacks.values())), "CC.ALLOCATE")
        split = {f: cmd.attacks[f] for f in foes}
        return self.flow.then(state, [AttacksAllocated(combat=cmb.id, unit=uid, attacks=split)],
                          "allocate")

    def drive_batch(self, state: State) -> list[Event]:
        """ATK.SEQUENCE: the next roll of the batch, or its results once all dice are in."""
        batch = state.batch
        if batch is None:
            raise KeyError("no attacks are being rolled")
        nxt = attacks.next_roll(batch.groups, batch.last)
        if nxt is not None:
            i, stage, n = nxt
            g = batch.groups[i]
            who = attacks.roller(g, stage)
            return [ask(attacks.purpose(g, stage, batch.step), who, state.units[who].player, n,
                        AttackRoll(i, stage))]
        return self._resolve_batch(state, batch)

    def _resolve_batch(self, state: State, batch: Batch) -> list[Event]:
        """ATK.SEQUENCE steps 5 and 6: every group's count, casualties removed at once, then
        the units destroyed and the panic they cause (PANIC.TRIGGERS)."""
        events: list[Event] = []
        cur = state
        for g in batch.groups:
            t = attacks.tally(g)
            lost, slain, overkill = casualties(cur.units[g.target], t["unsaved"],
                                               g.challenge)
            needs: dict[str, Any] = {"hit": g.hit, "hit2": g.hit2, "wound": g.wound,
                                     "armour": g.armour, "ward": g.ward, "reroll": g.reroll}
            if g.special:
                # ATK.SPECIAL: what the hits came from
                needs["special"] = g.special.written()
            if g.mount:
                needs["mount"] = g.mount       # CC.MOUNT: the mounts' own attacks
            if g.parry:
                needs["parry"] = True          # ATK.PARRY: the ward save was a parry
            if g.reroll_by:
                needs["reroll_by"] = g.reroll_by   # CC.ASF, CC.HATRED: who granted it
            if g.parts:   # SPECIAL.EFFECTS: every special rule that acted, and its change
                needs["parts"] = list(g.parts)
            if g.multiple:
                needs["multiple"] = g.multiple   # SR.MULTIPLE_WOUNDS: what a wound became
            e = AttacksResolved(combat=batch.combat, step=batch.step, unit=g.unit,
                                target=g.target, attacks=t["attacks"], hits=t["hits"],
                                wounds=t["wounds"], saved=t["saved"], unsaved=t["unsaved"],
                                needs=needs, lost=lost, slain=slain, overkill=overkill,
                                challenge=g.challenge)
            cur = fold(cur, [e], self.flow.fold_table)
            events.append(e)
        dead = [uid for uid in dict.fromkeys(g.target for g in batch.groups)
                if cur.units[uid].models <= 0]
        for uid in dead:   # CHAR.ALONE: its characters fight on where its front stood
            host = cur.units[uid]
            at_table = table.measured(cur)   # where the unit stood is the players' to see
            events += [CharacterLeft(character=c, unit=uid,
                                     position=None if at_table else box(host).position,
                                     facing=None if at_table else host.facing,
                                     reason=LEFT.make("alone"))
                       for c in host.characters]
            events.append(UnitDestroyed(unit=uid, reason=written(DESTROYED, state, "slain")))
        cur = fold(cur, events[len(batch.groups):], self.flow.fold_table)
        if batch.combat is not None:
            closing = close_ups(state, cur, batch.combat)
            closing += contacts.recount(state, fold(cur, closing, self.flow.fold_table),
                                        batch.combat)   # at the table, counted again
            cur = fold(cur, closing, self.flow.fold_table)
            events += closing
        events += self.flow.flights.panic_after(cur, dead, "was destroyed")
        if batch.combat is None and ruled(state, "panic_by_phase"):
            events += self._phase_panic(cur, batch, events)
        elif batch.combat is None:  # PANIC.TRIGGERS before 0.13.0: 25% lost to one volley
            for g in batch.groups:
                before = state.units[g.target].models
                u = cur.units[g.target]
                if u.status == "ready" and 4 * (before - u.models) >= before and before:
                    events += self._shot_panic(cur, u)
        return events

    def _phase_panic(self, cur: State, batch: Batch, events: list[Event]) -> list[Event]:
        """PANIC.TRIGGERS: a unit that has lost a quarter of the models it had when the
        phase began to shooting in this phase tests, once (two volleys of an eighth each
        count together); one already owing or taken a panic test this turn does not."""
        ctx = cur.context
        lost = ctx.shot_lost if ctx.shot_in == cur.phase else {}
        owing = {*ctx.panic, *ctx.panicked}
        for e in events:
            if isinstance(e, PanicCaused):
                owing.update(e.units)
        out: list[Event] = []
        for uid in dict.fromkeys(g.target for g in batch.groups):
            u = cur.units[uid]
            began = u.models + lost.get(uid, 0)
            if u.status == "ready" and uid not in owing and began and \
                    4 * lost.get(uid, 0) >= began:
                out += self._shot_panic(cur, u)
        return out

    def _shot_panic(self, state: State, u: UnitState) -> list[Event]:
        """PANIC.TRIGGERS: ``u`` tests, or its special rule spares it (SPECIAL.EFFECTS)."""
        caused = panic(state, [u.id], u.id, written(PANIC, state, "shot", unit=u.id))
        return [caused] if caused is not None else []

    # --- the result and break tests (CR.*, BT.*) --------------------------------------------

    # --- what the close combat phase waits for -----------------------------------------

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        """What the game asks in each step of close combat (None: nothing, it goes on)."""
        return {"choose_combat": self._ask_fight, "allocation": self._ask_allocation}

    def _ask_fight(self, state: State) -> Decision | None:
        """CC.ORDER: the active player picks the next combat to fight."""
        p = state.player
        fought = state.context.fought
        options: list[Command] = [Fight(by=p, combat=c) for c in state.combats
                                  if c not in fought]
        return Decision(player=p, decision="fight", legal=tuple(options)) if options else None

    def _ask_allocation(self, state: State) -> Decision | None:
        """CC.ALLOCATE: how a model touching several enemy units splits its attacks."""
        if not fight_of(state).steps:
            return None
        pool = self._to_allocate(state)
        if pool is None:
            return None
        uid, foes, n = pool
        who = state.units[uid].player
        return Decision(player=who, decision="allocate", legal=tuple(
            Allocate(by=who, unit=uid, attacks=dict(zip(foes, split, strict=True)))
            for split in splits(n, len(foes))))

def splits(n: int, k: int) -> list[tuple[int, ...]]:
    """CC.ALLOCATE: every way to split ``n`` attacks among ``k`` enemy units."""
    if k == 1:
        return [(n,)]
    return [(i, *rest) for i in range(n, -1, -1) for rest in splits(n - i, k - 1)]


def close_ups(before: State, after: State, cid: str) -> list[Event]:
    """CC.CLOSE_UP: casualties come off the rear ranks, so a unit's rear edge moves up.
    Enemies that fought it from behind or beside and so lost contact move up with it, by the
    ground its ranks gave up, as players keep units in contact on the table; a unit that moves
    up stops at any unit in its way (GEO.NO_OVERLAP), and the enemies that fought it from
    behind and so lose contact move up after it, level after level. Games begun before engine
    0.5.0 moved one level, unchecked (``_close_ups_one_level``)."""
    cmb = after.combats.get(cid)
    if cmb is None or table.measured(after):   # at the table, the players keep contact
        return []
    if not ruled(after, "close_up_checked"):
        return _close_ups_one_level(before, after, cmb)
    out: list[Event] = []
    placed = {u.id: box(u) for u in after.units.values() if u.status in ALIVE}
    queue: list[tuple[str, float, float]] = []   # (unit, how far, which way)
    for uid in cmb.units:
        old, new = before.units[uid], after.units[uid]
        if new.status != "engaged" or box(new).depth >= box(old).depth - 1e-9:
            continue
        shift = box(old).depth - box(new).depth
        queue += [(oid, shift, new.facing) for oid in cmb.units
                  if after.units[oid].player != new.player
                  and after.units[oid].status == "engaged"
                  and geo.contact(box(old), box(after.units[oid])) is not None
                  and geo.contact(box(new), box(after.units[oid])) is None]
    moved_up: set[str] = set()
    while queue:
        oid, shift, heading = queue.pop(0)
        if oid in moved_up:
            continue
        start = placed[oid]
        others = [b for k, b in placed.items() if k != oid]
        run = geo.clear_run(start, heading, shift, others)
        if run <= 1e-6:
            continue
        b = geo.rounded(geo.moved(start, run, heading))
        moved_up.add(oid)
        placed[oid] = b
        out.append(moved(oid, b, "close_up", round(run, 4)))
        o = after.units[oid]
        queue += [(pid, run, heading) for pid in cmb.units
                  if pid not in moved_up and after.units[pid].player != o.player
                  and after.units[pid].status == "engaged"
                  and geo.contact(start, placed[pid]) is not None
                  and geo.contact(b, placed[pid]) is None]
    return out


def _close_ups_one_level(before: State, after: State, cmb: Combat) -> list[Event]:
    """``close_ups`` as engines before 0.5.0 made them: one level, not checked against other
    units."""
    out: list[Event] = []
    for uid in cmb.units:
        old, new = before.units[uid], after.units[uid]
        if new.status != "engaged" or box(new).depth >= box(old).depth - 1e-9:
            continue
        shift = box(old).depth - box(new).depth
        for oid in cmb.units:
            o = after.units[oid]
            if o.player == new.player or o.status != "engaged":
                continue
            if geo.contact(box(old), box(o)) is None or geo.contact(box(new), box(o)):
                continue
            b = geo.rounded(geo.moved(box(o), shift, new.facing))
            out.append(moved(oid, b, "close_up", shift))
    return out


# the flow's part: its place among the parts, its name (parts.py)
PART = (4, "combats", CombatFlow)
