"""The close combat phase's flow: challenges, initiative steps, the combat result, break
tests, flee and pursuit, combat reform. Outcomes come from ``combat``, ``result``,
``attacks`` and ``pursuit``; this module only sequences them into events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting
from regiment.phases.common.engine import per_state

from . import attacks, combat, contacts, table
from .attacks import Batch
from .characters import unit_leadership
from .commands import (
    AcceptChallenge,
    Allocate,
    BreakTestOrder,
    Challenge,
    DeclineChallenge,
    Fight,
    RefuseChallenge,
)
from .events import (
    AttacksAllocated,
    AttacksResolved,
    BreakTestTaken,
    ChallengeAnswered,
    ChallengeIssued,
    CharacterLeft,
    CombatResultDecided,
    CombatRoundBegan,
    InitiativeStepBegan,
    OrderChosen,
    PanicCaused,
    UnitDestroyed,
)
from .flow import Flow, fight_of
from .flow_charge import hill_regions, moved
from .result import break_penalty, decide, ld_test, side_parts
from .rolls import AttackRoll, ask
from .rulings import ruled
from .specials import IMMUNE_TO_PSYCHOLOGY, UNBREAKABLE, has
from .state import ChallengeStatus, Combat, State, UnitState
from .units import ALIVE, box, has_champion, is_character
from .why import DESTROYED, PANIC, written


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


def fighters(state: State, cmb: Combat, player: str) -> list[UnitState]:
    """CC.CHALLENGE: units of ``player`` in the combat with a champion or a character, and
    the characters fighting in the front rank of its units (CHAR.IN_UNIT)."""
    units = [state.units[u] for u in cmb.units if state.units[u].player == player
             and state.units[u].status == "engaged"]
    return [u for u in units if has_champion(u) or is_character(u)] + [
        c for u in units if u.characters for c, _ in combat.fighting_characters(state, cmb, u)]


class CombatFlow:
    """Close combat: the combat chosen, challenges, initiative steps, the result and break
    tests (CC.*, CR.*, BT.*); flee and pursuit, and reform, are ``pursuit`` and ``reform``."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow   # the machine, the fold and the other part: one engine a preset

    def handlers(self) -> dict[str, Any]:
        return {"fight": self._fight, "challenge": self._challenge,
                "decline_challenge": self._decline_challenge,
                "accept_challenge": self._answer, "refuse_challenge": self._answer,
                "allocate": self._allocate, "break_test_order": self._order}

    def rolls(self) -> dict[str, dict[str, Any]]:
        """Each step's rolls, and what each leads to: the step that asked goes on."""
        return {"tests": {"break_test": self._break_rolled}}

    def drives(self) -> dict[str, Any]:
        return {"offers": self._drive_challenge, "strikes": self._drive_steps,
                "result": self._drive_result, "tests": self._drive_tests}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        """The named guards of the close combat steps: each says its step is done."""
        return {
            "challenge_issued": lambda s: fight_of(s).challenge != ChallengeStatus.OPEN,
            "allocated": lambda s: self._to_allocate(s) is None,
            "test_order_known": self._test_order_known,
        }

    # --- choosing a combat, challenges (CC.ORDER, CC.CHALLENGE) ------------------------------

    def _fight(self, state: State, cmd: Fight) -> list[Event]:
        self.flow.check_turn(state, cmd, "CC.ORDER")
        self.flow.check_offered(state, cmd, "CC.ORDER")
        cmb = state.combats[cmd.combat]
        begun = CombatRoundBegan(combat=cmb.id, round=cmb.round,
                                 steps=tuple(combat.steps(state, cmb)),
                                 challenges=bool(self._challengers(state, state.player, cmb)))
        return self.flow.then(state, [begun], "fight")

    def _offerer(self, state: State) -> str | None:
        offers = fight_of(state).offers
        return next((p for p in (state.player, state.opponent(state.player))
                     if p not in offers), None)

    def _challengers(self, state: State, player: str, cmb: Combat | None = None
                     ) -> list[UnitState]:
        """CC.CHALLENGE: units of ``player`` whose champion or character could challenge an
        enemy fighter it touches."""
        cmb = cmb or state.combats[fight_of(state).combat]
        foes = fighters(state, cmb, state.opponent(player))
        return [u for u in fighters(state, cmb, player)
                if any(combat.in_contact_at_all(u, f, state) for f in foes)]

    def _drive_challenge(self, state: State) -> list[Event]:
        fight = fight_of(state)
        if fight.challenge != ChallengeStatus.OPEN:
            return []
        player = self._offerer(state)
        if player is None:
            return []
        if not self._challengers(state, player):  # no one to challenge with: pass it on
            return [ChallengeIssued(combat=fight.combat, unit="", player=player)]
        return []

    def _challenge(self, state: State, cmd: Challenge) -> list[Event]:
        self.flow.check_offered(state, cmd, "CC.CHALLENGE")
        return self.flow.then(state, [ChallengeIssued(combat=fight_of(state).combat,
                                                  unit=cmd.unit, player=cmd.by)], "challenge")

    def _decline_challenge(self, state: State, cmd: DeclineChallenge) -> list[Event]:
        self.flow.check_offered(state, cmd, "CC.CHALLENGE")
        return self.flow.then(state, [ChallengeIssued(combat=fight_of(state).combat, unit="",
                                                  player=cmd.by)], cmd.name)

    def _answer(self, state: State, cmd: AcceptChallenge | RefuseChallenge) -> list[Event]:
        self.flow.check_offered(state, cmd, "CC.CHALLENGE")
        answer = ChallengeAnswered(combat=fight_of(state).combat, unit=cmd.unit,
                                   accepted=cmd.name == "accept_challenge")
        return self.flow.then(state, [answer], cmd.name)

    # --- initiative steps (CC.INITIATIVE, ATK.SEQUENCE) -------------------------------------

    @per_state
    def _to_allocate(self, state: State) -> tuple[str, tuple[str, ...], int] | None:
        """CC.ALLOCATE: the next split a player owes in this step."""
        fight = fight_of(state)
        if not fight.steps:
            return None
        return combat.to_allocate(state, state.combats[fight.combat], fight.steps[0],
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
                                    strikes=tuple(combat.strikes(state, cmb, step, fight)))]

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
            return [ask(attacks.purpose(g, stage), who, state.units[who].player, n,
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
                needs["special"] = g.special   # ATK.SPECIAL: what the hits came from
            if g.mount:
                needs["mount"] = g.mount       # CC.MOUNT: the mounts' own attacks
            if g.parry:
                needs["parry"] = True          # ATK.PARRY: the ward save was a parry
            if g.reroll_by:
                needs["reroll_by"] = g.reroll_by   # CC.ASF, CC.HATRED: who granted it
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
                                     reason="alone")
                       for c in host.characters]
            events.append(UnitDestroyed(unit=uid, reason=written(DESTROYED, state, "slain")))
        cur = fold(cur, events[len(batch.groups):], self.flow.fold_table)
        if batch.combat is not None:
            closing = close_ups(state, cur, batch.combat)
            closing += contacts.recount(state, fold(cur, closing, self.flow.fold_table),
                                        batch.combat)   # at the table, counted again
            cur = fold(cur, closing, self.flow.fold_table)
            events += closing
        events += self.flow.charges.panic_after(cur, dead, "was destroyed")
        if batch.combat is None:  # PANIC.TRIGGERS: 25% lost to shooting
            for g in batch.groups:
                before = state.units[g.target].models
                u = cur.units[g.target]
                if u.status == "ready" and 4 * (before - u.models) >= before and before and \
                        not has(u, IMMUNE_TO_PSYCHOLOGY):
                    events.append(self._shot_panic(cur, u))
        return events

    def _shot_panic(self, state: State, u: UnitState) -> Event:
        return PanicCaused(units=(u.id,), cause=u.id,
                           reason=written(PANIC, state, "shot", unit=u.id))

    # --- the result and break tests (CR.*, BT.*) --------------------------------------------

    def _drive_result(self, state: State) -> list[Event]:
        """CR.WINNER, CR.BOOKKEEPING, CR.NO_MORE_FOES, BT.WHO: every side's parts, unit by
        unit; units left touching no enemy have won and leave the combat."""
        fight = fight_of(state)
        if fight.result is not None:
            return []
        cmb = state.combats[fight.combat]
        alive = {p: [state.units[u] for u in cmb.units if state.units[u].player == p
                     and state.units[u].status == "engaged"] for p in state.players}
        free = tuple(u.id for p in state.players for u in alive[p]
                     if not combat.touching(state, cmb, u.id))
        fighting = {p: [u for u in alive[p] if u.id not in free] for p in state.players}
        sides: dict[str, Any] = {}
        for p in state.players:
            parts = side_parts(state, cmb, p, fight.caused, fight.overkill,
                               self.flow.variant, hill_regions(state), set(free))
            sides[p] = {"total": sum(x["value"] for x in parts), "parts": parts}
        a, b = state.players
        totals = {p: sides[p]["total"] for p in state.players}
        musician = None
        if fighting[a] and fighting[b]:
            music = {p: any("musician" in u.command for u in fighting[p])
                     for p in state.players}
            winner, margin, musician = decide(totals, music)
            if musician is not None:
                sides[musician]["parts"].append({"rule": "CR.MUSICIAN", "unit": next(
                    u.id for u in fighting[musician] if "musician" in u.command), "value": 1})
                sides[musician]["total"] += 1
        elif bool(alive[a]) != bool(alive[b]):
            winner = a if alive[a] else b  # CR.NO_MORE_FOES: the survivors win whatever
            margin = max(0, totals[winner] - totals[state.opponent(winner)])
        else:
            winner, margin = None, 0
        tests: tuple[str, ...] = ()
        unbreakable: tuple[str, ...] = ()
        if winner is not None:  # BT.WHO, BT.SPECIAL
            losers = fighting[state.opponent(winner)]
            tests = tuple(u.id for u in losers if not has(u, UNBREAKABLE))
            unbreakable = tuple(u.id for u in losers if has(u, UNBREAKABLE))
        return [CombatResultDecided(combat=cmb.id, sides=sides, winner=winner,
                                    margin=margin, musician=musician, tests=tests,
                                    no_more_foes=free, unbreakable=unbreakable)]

    def _drive_tests(self, state: State) -> list[Event]:
        """BT.WHO: each loser tests, in the order its player chooses."""
        fight = fight_of(state)
        tests = fight.tests
        if not tests:
            return []
        if len(tests) > 1 and fight.next.get("break_test") not in tests:
            return []
        u = state.units[tests[0]]
        return [RollRequested(purpose="break_test", unit=u.id, player=u.player, dice=2)]

    def _order(self, state: State, cmd: BreakTestOrder) -> list[Event]:
        """BT.WHO: which of a player's units takes its break test next."""
        self.flow.check_offered(state, cmd, "BT.WHO")
        return self.flow.then(state, [OrderChosen(combat=fight_of(state).combat,
                                                  what="break_test", unit=cmd.unit)], cmd.name)

    def _break_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        """BT.TEST, BT.STEADFAST, BT.DISRUPTED, BT.SPECIAL, LD.INSANE."""
        fight = fight_of(state)
        cmb = state.combats[fight.combat]
        u = state.units[aw.unit or ""]
        penalty, firm, why = break_penalty(state, cmb, u.id, fight.outcome.margin)
        passed, need, insane = ld_test(unit_leadership(state, u), penalty, faces)
        totals = fight.outcome.totals
        mine = totals.get(u.player, 0)
        theirs = totals.get(state.opponent(u.player), 0)
        events: list[Event] = [BreakTestTaken(unit=u.id, leadership=unit_leadership(state, u),
                                              penalty=penalty, steadfast=firm, faces=faces,
                                              passed=passed, needs=need, insane=insane,
                                              why=why, result=(mine, theirs))]
        if not passed:
            after = fold(state, events, self.flow.fold_table)
            events += self.flow.charges.panic_after(after, [u.id], "broke")
        return self.flow.finish(state, events)



    # --- what the close combat phase waits for -----------------------------------------

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        """What the game asks in each step of close combat (None: nothing, it goes on)."""
        return {"choose_combat": self._ask_fight, "offers": self._ask_offer,
                "answer": self._ask_answer, "allocation": self._ask_allocation,
                "test_order": self._ask_test_order}

    def _ask_fight(self, state: State) -> Decision | None:
        """CC.ORDER: the active player picks the next combat to fight."""
        p = state.player
        fought = state.context.fought
        options: list[Command] = [Fight(by=p, combat=c) for c in state.combats
                                  if c not in fought]
        return Decision(player=p, decision="fight", legal=tuple(options)) if options else None

    def _ask_offer(self, state: State) -> Decision | None:
        """CC.CHALLENGE: a challenge to issue, each player in turn."""
        who = self._offerer(state)
        if who is None:
            return None
        offers: list[Command] = [Challenge(by=who, unit=u.id)
                                 for u in self._challengers(state, who)]
        return Decision(player=who, decision="challenge",
                        legal=(*offers, DeclineChallenge(by=who)))

    def _ask_answer(self, state: State) -> Decision | None:
        """CC.CHALLENGE: the challenged player accepts with a fighter in contact, or refuses."""
        fight = fight_of(state)
        if fight.challenge != ChallengeStatus.ANSWER:
            return None
        challenger = state.units[fight.challenger]
        who = state.opponent(challenger.player)
        cmb = state.combats[fight.combat]
        able_units = fighters(state, cmb, who)
        near = [u for u in cmb.units if state.units[u].player == who
                and state.units[u].status == "engaged"
                and combat.in_contact_at_all(state.units[u], challenger, state)]
        near += [c.id for c in able_units if c.joined is not None
                 and combat.in_contact_at_all(c, challenger, state)]
        able = {u.id for u in able_units}
        answers: list[Command] = [AcceptChallenge(by=who, unit=u) for u in near if u in able]
        answers += [RefuseChallenge(by=who, unit=u) for u in near]
        return Decision(player=who, decision="answer_challenge", legal=tuple(answers))

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

    def _test_order_known(self, state: State) -> bool:
        """BT.WHO: one loser left to test, or its player said which tests next."""
        fight = fight_of(state)
        return len(fight.tests) < 2 or fight.next.get("break_test") in fight.tests

    def _ask_test_order(self, state: State) -> Decision | None:
        """BT.WHO: the loser's player picks which unit tests next (two or more left)."""
        if self._test_order_known(state):
            return None
        tests = fight_of(state).tests
        who = state.units[tests[0]].player
        return Decision(player=who, decision="break_test_order",
                        legal=tuple(BreakTestOrder(by=who, unit=u) for u in tests))


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
