"""The close combat phase's flow: challenges, initiative steps, the combat result, break
tests, flee and pursuit, combat reform. Outcomes come from ``combat``, ``result``,
``attacks`` and ``pursuit``; this module only sequences them into events."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from regiment.core import geometry as geo
from regiment.core.commands import Command
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.i18n import tr
from regiment.core.pending import Decision
from regiment.core.state import Awaiting, memo
from regiment.phases.common.engine import per_state

from . import attacks, charge, combat, contacts, pursuit, table
from .attacks import Batch
from .characters import unit_leadership
from .commands import (
    AcceptChallenge,
    Allocate,
    BreakTestOrder,
    Challenge,
    DeclineChallenge,
    Fight,
    FleeOrder,
    Overrun,
    Pursue,
    PursuitOrder,
    Reform,
    ReformOrder,
    RefuseChallenge,
    Restrain,
    SkipReform,
)
from .events import (
    AttacksAllocated,
    AttacksResolved,
    BreakTestTaken,
    ChallengeAnswered,
    ChallengeIssued,
    CharacterLeft,
    CombatBegan,
    CombatEnded,
    CombatJoined,
    CombatResultDecided,
    CombatRoundBegan,
    CombatRoundEnded,
    FleeDirectionChosen,
    InitiativeStepBegan,
    LeadershipTested,
    OrderChosen,
    PanicCaused,
    PursuitDeclared,
    PursuitRolled,
    PursuitsCompleted,
    ReformOrderChosen,
    ReformSkipped,
    UnitCaught,
    UnitDestroyed,
    UnitFled,
    UnitLeftTable,
    UnitReformed,
)
from .faces import counted, dropped
from .flow import Flow, fight_of
from .flow_charge import hill_regions, moved
from .result import break_penalty, decide, ld_test, side_parts
from .rolls import AttackRoll, FleeRoll, FleeTie, ReformTo, Toward, ask, read
from .rulings import ruled
from .specials import IMMUNE_TO_PSYCHOLOGY, UNBREAKABLE, has
from .state import NO_RESULT, ChallengeStatus, Combat, Pursuit, State, UnitState, intent
from .units import ALIVE, box, has_champion, is_character
from .why import COMBAT_ENDED, DESTROYED, PANIC, REFORM_SKIPPED, REFORMED, written

MOVES_ON = (Pursuit.PURSUE, Pursuit.OVERRUN)   # the units that move after the broken


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
    """Close combat: the combat chosen, challenges, initiative steps, the result, break tests,
    flee and pursuit, reform (CC.*, CR.*, BT.*, FP.*, REF.*)."""

    def __init__(self, flow: Flow) -> None:
        self.flow = flow   # the machine, the fold and the other part: one engine a preset

    def handlers(self) -> dict[str, Any]:
        return {"fight": self._fight, "challenge": self._challenge,
                "decline_challenge": self._decline_challenge,
                "accept_challenge": self._answer, "refuse_challenge": self._answer,
                "pursue": self._pursue, "overrun": self._pursue, "restrain": self._pursue,
                "reform": self._reform, "skip_reform": self._skip_reform,
                "reform_order": self._reform_order, "allocate": self._allocate,
                "break_test_order": self._order, "flee_order": self._order,
                "pursuit_order": self._order}

    def rolls(self) -> dict[str, dict[str, Any]]:
        """Each step's rolls, and what each leads to: the step that asked goes on."""
        return {"tests": {"break_test": self._break_rolled},
                "restraint": {"restrain": self._restrain_rolled},
                "flee_rolls": {"flee": self._flight_rolled},
                "pursuit_rolls": {"pursuit": self._pursuit_rolled,
                                  "overrun": self._pursuit_rolled},
                "flee_moves": {"random_choice": self._direction_rolled},
                "reforms": {"reform": self._reform_rolled}}

    def drives(self) -> dict[str, Any]:
        return {"offers": self._drive_challenge, "strikes": self._drive_steps,
                "result": self._drive_result, "tests": self._drive_tests,
                "restraint": self._drive_restraint, "flee_rolls": self._drive_flee_rolls,
                "pursuit_rolls": self._drive_pursuit_rolls, "caught": self._caught,
                "flee_moves": self._drive_flee_moves, "pursuer_moves": self._drive_pursuer_moves,
                "reforms": self._drive_reform}

    def guards(self) -> dict[str, Callable[[State], bool]]:
        """The named guards of the close combat steps: each says its step is done."""
        return {
            "challenge_issued": lambda s: fight_of(s).challenge != ChallengeStatus.OPEN,
            "allocated": lambda s: self._to_allocate(s) is None,
            "test_order_known": self._test_order_known,
            "pursuers_chosen": lambda s: self._undecided(s) is None,
            "restraints_tested": lambda s: not self._restraining(s),
            "flights_rolled": lambda s: not self._unrolled_flights(s),
            "pursuits_rolled": lambda s: not self._unrolled_pursuits(s),
            "none_caught": lambda s: not self._caught(s),
            "flights_moved": lambda s: not self._left(s, "flee"),
            "reform_order_known": lambda s: not self._order_open(s, self._reformers(s)),
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

    def _order(self, state: State, cmd: BreakTestOrder | FleeOrder | PursuitOrder
               ) -> list[Event]:
        """BT.WHO, FP.MULTI_ORDER: which of a player's units goes next."""
        rule = "BT.WHO" if cmd.name == "break_test_order" else "FP.MULTI_ORDER"
        self.flow.check_offered(state, cmd, rule)
        what = cmd.name.removesuffix("_order")
        return self.flow.then(state, [OrderChosen(combat=fight_of(state).combat, what=what,
                                              unit=cmd.unit)], cmd.name)

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

    # --- flee and pursuit (FP.*) -------------------------------------------------------------

    @per_state
    def _candidates(self, state: State) -> dict[str, tuple[str, list[str]]]:
        """FP.CHOOSE_PURSUIT, FP.OVERRUN: winners that may pursue (with the broken units they
        touched: every enemy they touch must have broken) or overrun (they destroyed every
        foe they touched in the round they charged in, CR.NO_MORE_FOES)."""
        fight = fight_of(state)
        result = fight.result or NO_RESULT
        winner = result.winner
        cmb = state.combats.get(fight.combat)
        if cmb is None:
            return {}
        out: dict[str, tuple[str, list[str]]] = {}
        broken = set(fight.broken)
        if winner is not None:
            for uid in cmb.units:
                u = state.units[uid]
                if u.player != winner or u.status != "engaged":
                    continue
                foes = [state.units[o] for o in cmb.units if state.units[o].player != winner
                        and state.units[o].status in ("engaged", "fleeing")
                        and combat.in_contact_at_all(u, state.units[o])]
                if foes and all(f.id in broken for f in foes):
                    out[uid] = ("pursue", [f.id for f in foes])
        for uid in result.free:
            if state.units[uid].status == "ready" and uid in cmb.chargers:
                out[uid] = ("overrun", [])
        return out

    @per_state
    def _plans(self, state: State) -> dict[str, tuple[Pursuit, str]]:
        """FP.CHOOSE_PURSUIT: what each unit that chose does, its restraint test taken into
        account (``intent``), with the unit it goes after."""
        fight = fight_of(state)
        tests = fight.restraint
        return {u: (intent(kind, target, tests.get(u)), target)
                for u, (kind, target) in fight.decided.items()}

    def _undecided(self, state: State) -> str | None:
        decided = fight_of(state).decided
        return next((u for u in self._candidates(state) if u not in decided), None)

    def _pursue(self, state: State, cmd: Pursue | Overrun | Restrain) -> list[Event]:
        options = self._candidates(state).get(cmd.unit)
        if isinstance(cmd, Pursue) and options and cmd.target not in options[1]:
            name, nobody = state.units[cmd.unit].name, tr("none")
            raise self.flow.illegal(
                state, cmd, tr("{unit} may only pursue a broken unit it touched: {units}",
                               unit=name, units=", ".join(options[1]) or nobody),
                "FP.CHOOSE_PURSUIT")
        self.flow.check_offered(state, cmd, "FP.CHOOSE_PURSUIT")
        target = getattr(cmd, "target", "")
        if cmd.name == "restrain":
            _kind, targets = self._candidates(state)[cmd.unit]
            target = targets[0] if targets else ""
        declared = PursuitDeclared(unit=cmd.unit, target=target, kind=cmd.name)
        return self.flow.then(state, [declared], cmd.name)

    # Each step of the pursuit has its queue: who is still to act in it, in order.

    def _restraining(self, state: State) -> list[str]:
        """FP.CHOOSE_PURSUIT: units that chose to stay and take their Leadership test."""
        return [u for u, (kind, _) in self._plans(state).items()
                if kind == Pursuit.RESTRAINING]

    def _unrolled_flights(self, state: State) -> list[str]:
        """FP.FLEE_ROLL: broken units still to roll how far they flee."""
        fight = fight_of(state)
        return [b for b in fight.broken if b not in fight.fled
                and state.units[b].status == "fleeing"]

    def _unrolled_pursuits(self, state: State) -> list[str]:
        """FP.PURSUE_ROLL: pursuers and overrunning units still to roll."""
        rolled = fight_of(state).rolled
        return [u for u, (kind, _) in self._plans(state).items()
                if kind in MOVES_ON and u not in rolled]

    def _drive_restraint(self, state: State) -> list[Event]:
        """FP.CHOOSE_PURSUIT: a Leadership test to stay."""
        u = state.units[self._restraining(state)[0]]
        return [RollRequested(purpose="restrain", unit=u.id, player=u.player, dice=2)]

    def _drive_flee_rolls(self, state: State) -> list[Event]:
        """FP.FLEE_ROLL: each broken unit rolls its flight."""
        u = state.units[self._unrolled_flights(state)[0]]
        return [ask("flee", u.id, u.player, charge.movement_dice(u), FleeRoll("combat"))]

    def _flight_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                       ) -> list[Event]:
        """FP.FLEE_ROLL: how far the broken unit flees; it moves once the pursuers rolled."""
        return self.flow.finish(state, [UnitFled(unit=aw.unit or "", distance=sum(counted(faces)),
                                                 reason="broke", dice=faces)])

    def _drive_pursuit_rolls(self, state: State) -> list[Event]:
        """FP.PURSUE_ROLL: each pursuer (or overrunning unit) rolls how far it goes."""
        uid = self._unrolled_pursuits(state)[0]
        kind, target = self._plans(state)[uid]
        u = state.units[uid]
        return [ask("pursuit" if kind == Pursuit.PURSUE else "overrun", uid, u.player,
                    charge.movement_dice(u), Toward(target))]

    def _drive_flee_moves(self, state: State) -> list[Event]:
        """FP.FLEE_DIRECTION, FP.MULTI_ORDER: the broken units move, in their player's order."""
        fleeing = self._to_move(state, "flee")
        return self._flee_move(state, fleeing) if fleeing else []

    def _drive_pursuer_moves(self, state: State) -> list[Event]:
        """FP.PURSUE_MOVE, FP.MULTI_ORDER: the pursuers move, in their player's order; then
        the units touching no enemy leave the combat."""
        if fight_of(state).pursued:
            return []
        if self._left(state, "pursuit"):
            pursuers = self._to_move(state, "pursuit")
            return self._pursuer_move(state, pursuers) if pursuers else []
        return self._pursuits_done(state)

    def _left(self, state: State, what: str) -> list[str]:
        """The broken units (``flee``) or pursuers (``pursuit``) that have still to move."""
        fight = fight_of(state)
        done = fight.moved
        if what == "flee":
            return [b for b in fight.broken if state.units[b].status == "fleeing"
                    and b in fight.fled and b not in done]
        return [u for u, (kind, _) in self._plans(state).items()
                if kind in MOVES_ON and u in fight.rolled
                and u not in done and state.units[u].status in ("engaged", "ready")]

    def _to_move(self, state: State, what: str) -> list[str]:
        """The next to move; empty while its player has to say which (FP.MULTI_ORDER)."""
        left = self._left(state, what)
        if len(left) > 1:
            chosen = fight_of(state).next.get(what)
            return [chosen] if chosen in left else []
        return left

    def _order_needed(self, state: State) -> tuple[str, list[str]] | None:
        """FP.MULTI_ORDER: the moves waiting for a player to order them, if any."""
        for what in ("flee", "pursuit"):
            left = self._left(state, what)
            if left:
                return (what, left) if not self._to_move(state, what) else None
        return None

    @per_state
    def _caught(self, state: State) -> list[Event]:
        """FP.CAUGHT: a broken unit is destroyed if any of its pursuers rolled as far (the
        step's guard and its drive ask the same state: kept with it)."""
        fight = fight_of(state)
        decided, rolled, fled = self._plans(state), fight.rolled, fight.fled
        events: list[Event] = []
        cur = state
        for b in fight.broken:
            if cur.units[b].status != "fleeing" or b not in fled or b in fight.moved:
                continue
            by = [p for p, (k, t) in decided.items() if k == Pursuit.PURSUE and t == b
                  and rolled.get(p, 0) >= fled[b]]
            if by:
                more: list[Event] = [UnitCaught(unit=b, by=by[0]),
                                     UnitDestroyed(unit=b, reason=written(DESTROYED, state,
                                                                          "caught"))]
                more += self.flow.charges.panic_after(fold(cur, more, self.flow.fold_table),
                                                      [b], "was destroyed")
                cur = fold(cur, more, self.flow.fold_table)
                events += more
        return events

    def _flee_move(self, state: State, fleeing: list[str]) -> list[Event]:
        """FP.FLEE_DIRECTION: away from the enemy unit of the combat with the most ranks five
        models wide; a die chooses among equals."""
        fight = fight_of(state)
        u = state.units[fleeing[0]]
        away_id = fight.away.get(u.id)
        if away_id is None:
            among = self._flee_from(state, u)
            if len(among) > 1:
                return [ask("random_choice", u.id, u.player, 1, FleeTie(among))]
            away_id = among[0] if among else ""
        return self.flow.charges.flee_events(state, u, state.units.get(away_id),
                                             fight.fled[u.id], "flee")

    def _flee_from(self, state: State, u: UnitState) -> tuple[str, ...]:
        """FP.FLEE_DIRECTION: the enemy units of the combat ``u`` may flee from (a tie, when
        several)."""
        fight = fight_of(state)
        foes = [state.units[o] for o in fight.units if state.units[o].player != u.player
                and state.units[o].status in ("engaged", "ready")]
        return tuple(f.id for f in pursuit.flee_from(state, u, foes))

    def _direction_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                          ) -> list[Event]:
        """FP.FLEE_DIRECTION: a D6 picks one of the tied enemy units (faces beyond the last
        whole share are rolled again, so every unit is as likely)."""
        among = self._flee_from(state, state.units[aw.unit or ""])  # the step's own tie
        n = len(among)
        if faces[0] > n * (6 // n):
            return [ask("random_choice", aw.unit, aw.player, 1, FleeTie(among))]
        pick = among[(faces[0] - 1) % n]
        return self.flow.finish(state, [FleeDirectionChosen(unit=aw.unit or "", away_from=pick,
                                                        among=among, faces=faces)])

    def _pursuer_move(self, state: State, pursuers: list[str]) -> list[Event]:
        fight = fight_of(state)
        uid = pursuers[0]
        kind, target = self._plans(state)[uid]
        return self._pursuer_moves(state, state.units[uid], kind, target, fight.rolled[uid])

    def _pursuits_done(self, state: State) -> list[Event]:
        """Units of the combat left touching no enemy leave it; a combat with one side left
        ends."""
        fight = fight_of(state)
        cmb = state.combats.get(fight.combat)
        if cmb is None:
            return [PursuitsCompleted(combat=fight.combat)]
        left = tuple(u for u in cmb.units if state.units[u].status == "engaged"
                     and not combat.touching(state, cmb, u))
        events: list[Event] = [PursuitsCompleted(combat=cmb.id, left=left)]
        cur = fold(state, events, self.flow.fold_table)
        cmb = cur.combats[cmb.id]
        if not all(any(cur.units[o].status == "engaged" and cur.units[o].player == p
                       for o in cmb.units) for p in cur.players):
            events.append(CombatEnded(combat=cmb.id,
                                      reason=written(COMBAT_ENDED, state, "no_foes")))
        return events

    def _restrain_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                         ) -> list[Event]:
        u = state.units[aw.unit or ""]
        passed, need, insane = ld_test(unit_leadership(state, u), 0, faces)
        return self.flow.finish(state, [LeadershipTested(unit=u.id, purpose="restrain",
                                                     leadership=unit_leadership(state, u),
                                                     penalty=0,
                                                     faces=faces, passed=passed, needs=need,
                                                     insane=insane)])

    def _pursuit_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                        ) -> list[Event]:
        """FP.PURSUE_ROLL, FP.CAUGHT: caught if the pursuit equals or beats the flee roll."""
        dist = sum(counted(faces))
        fled = fight_of(state).fled
        target = self._plans(state)[aw.unit or ""][1]   # whom the step's pursuer goes after
        caught = bool(target) and target in fled and dist >= fled[target]
        told = ruled(state, "story_told_whole")   # Swiftstride's dropped die, in the log
        return self.flow.finish(state, [PursuitRolled(unit=aw.unit or "", target=target,
                                                  dice=counted(faces), distance=dist,
                                                  caught=caught,
                                                  dropped=dropped(faces) if told else ())])

    def _pursuer_moves(self, state: State, u: UnitState, plan: Pursuit, target: str,
                       dist: int) -> list[Event]:
        kind = plan.value   # as the events say it
        def heading() -> float:   # (geometry only: at a table the unit has no place)
            if kind == "pursue" and target in state.units:
                return geo.bearing(geo.centre(box(u)), geo.centre(box(state.units[target])))
            return u.facing

        def move() -> tuple[geo.Box, geo.Point | None, str | None, float]:
            return pursuit.pursue_move(state, u, heading(), dist, kind == "pursue")

        end, off, edge, fresh, run = table.pursue(state, u, dist, move)
        step = moved(u.id, end, "pursuit" if kind == "pursue" else "overrun", run)
        if end is not None and not off and fresh is None and run < dist - 1e-6 and \
                ruled(state, "story_told_whole"):   # FP.PURSUE_MOVE: say what stopped it
            by = pursuit.stopper(state, u, heading(), dist, kind == "pursue", run)
            if by:
                step = dataclasses.replace(step, stopped=by)
        events: list[Event] = [step]
        if off:   # in table mode the players saw where (no point is made up)
            events.append(UnitLeftTable(unit=u.id, point=edge))
        elif fresh is not None:  # FP.FRESH_ENEMY: a charge; fought next close combat phase
            joined = combat.combat_holding(state, fresh)
            began: CombatBegan | CombatJoined
            if joined is not None:  # into a unit already fighting: it joins that combat
                began = CombatJoined(combat=joined.id, units=(u.id,), chargers=(u.id,),
                                     reason=kind)
            else:
                began = CombatBegan(combat=f"{state.turn}-{u.id}-{fresh}",
                                    units=(u.id, fresh), chargers=(u.id,), reason=kind)
            events.append(began)
            events += contacts.charged(fold(state, events, self.flow.fold_table), u,
                                       state.units[fresh], None, began)
        return events

    # --- combat reform (REF.*) ---------------------------------------------------------------

    def _reforms(self, state: State, u: UnitState) -> list[Any]:
        """REF.PLACEMENT, CR.NO_MORE_FOES: the reforms open to ``u`` as (files, face, turn,
        box), kept with the state (the drive, the pending decision and the command all ask of
        the same one)."""
        answers = memo(state)
        key = ("reforms", u.id)
        if key not in answers:
            cmb = state.combats.get(fight_of(state).combat)
            answers[key] = (pursuit.reform_options(state, cmb, u) if cmb is not None
                            else pursuit.free_reform_options(state, u))
        return answers[key]  # type: ignore[no-any-return]  # what this function memoized

    def _order_open(self, state: State, left: list[UnitState]) -> bool:
        """REF.ORDER: both players have a reform open and no order was chosen yet."""
        fight = fight_of(state)
        if fight.reform_first is not None:
            return False
        if fight.combat not in state.combats:
            return False
        players = {u.player for u in left if self._reforms(state, u)}
        return len(players) == 2

    def _reform_order(self, state: State, cmd: ReformOrder) -> list[Event]:
        self.flow.check_offered(state, cmd, "REF.ORDER")
        return self.flow.then(state, [ReformOrderChosen(combat=fight_of(state).combat,
                                                    first=cmd.first)], "reform_order")

    def _reformers(self, state: State) -> list[UnitState]:
        """REF.WHO, REF.ORDER: units still in the combat, those of the player who reforms
        first (the active player's, unless he chose otherwise) first; once the combat is
        over, the winners that stayed where they were (CR.NO_MORE_FOES)."""
        fight = fight_of(state)
        done = fight.reformed
        cmb = state.combats.get(fight.combat)
        if cmb is None:
            winner = (fight.result or NO_RESULT).winner
            moved = {u for u, (kind, _) in self._plans(state).items() if kind in MOVES_ON}
            return [state.units[u] for u in fight.units
                    if state.units[u].player == winner and state.units[u].status == "ready"
                    and u not in done and u not in moved]
        units = [state.units[u] for u in cmb.units if state.units[u].status == "engaged"
                 and u not in done and combat.touching(state, cmb, u)]
        first = fight.reform_first or state.player
        return sorted(units, key=lambda u: u.player != first)

    def _drive_reform(self, state: State) -> list[Event]:
        fight = fight_of(state)
        if not fight or state.awaiting is not None:
            return []
        left = self._reformers(state)
        if left:
            if self._order_open(state, left):
                return []   # the active player says who reforms first
            u = left[0]
            if not self._reforms(state, u):
                return [ReformSkipped(unit=u.id, why=written(REFORM_SKIPPED, state,
                                                             "none_open"))]
            return []
        return [CombatRoundEnded(combat=fight.combat, round=fight.round)]

    def _reform(self, state: State, cmd: Reform) -> list[Event]:
        cmb = state.combats.get(fight_of(state).combat)
        if cmd not in self.flow.legal(state) and cmb is not None and cmd.unit in state.units:
            for (f, fc, t, _), (rule, why) in pursuit.reform_checks(state, cmb,
                                                                    state.units[cmd.unit]):
                if (f, fc, t) == (cmd.files, cmd.face, cmd.turn) and rule:
                    raise self.flow.illegal(state, cmd, why, rule)
        self.flow.check_offered(state, cmd, "REF.PLACEMENT")
        fight = fight_of(state)
        u = state.units[cmd.unit]
        asked = ReformTo(cmd.files, cmd.face, cmd.turn)
        if not table.reform_room(state, u, asked.text()):
            return self.flow.finish(state, [ReformSkipped(
                unit=u.id, why=written(REFORM_SKIPPED, state, "no_room"))])
        winner = fight.outcome.winner
        if winner is not None and winner != u.player:  # REF.TEST
            return [ask("reform", u.id, u.player, 2, asked)]
        return self.flow.finish(state, self._reformed(state, u, cmd.files, cmd.face, cmd.turn))

    def _reformed(self, state: State, u: UnitState, files: int, face: str, turn: int
                  ) -> list[Event]:
        for f, fc, t, b in self._reforms(state, u):
            if (f, fc, t) == (files, face, turn):
                how = (written(REFORMED, state, "face", unit=face) if face else
                       written(REFORMED, state, "turn", degrees=t) if t else
                       written(REFORMED, state, "files", files=files))
                if b is None:   # table mode: the players reform it, keeping contact
                    return [UnitReformed(unit=u.id, files=files, position=None, facing=None,
                                         how=how), *contacts.faced(state, u, face)]
                return [UnitReformed(unit=u.id, files=files, position=(b.x, b.y),
                                     facing=b.facing, how=how)]
        return [ReformSkipped(unit=u.id, why=written(REFORM_SKIPPED, state, "no_longer_open"))]

    def _reform_rolled(self, state: State, aw: Awaiting, faces: tuple[int, ...]
                       ) -> list[Event]:
        u = state.units[aw.unit or ""]
        penalty = fight_of(state).penalties.get(u.id, 0)
        passed, need, insane = ld_test(unit_leadership(state, u), penalty, faces)
        events: list[Event] = [LeadershipTested(unit=u.id, purpose="reform",
                                                leadership=unit_leadership(state, u),
                                                penalty=penalty,
                                                faces=faces, passed=passed, needs=need,
                                                insane=insane)]
        to = read(ReformTo, aw)
        events += (self._reformed(state, u, to.files, to.face, to.turn) if passed else
                   [ReformSkipped(unit=u.id, why=written(REFORM_SKIPPED, state, "test_failed"))])
        return self.flow.finish(state, events)

    def _skip_reform(self, state: State, cmd: SkipReform) -> list[Event]:
        self.flow.check_offered(state, cmd, "REF.WHO")
        return self.flow.then(state, [ReformSkipped(unit=cmd.unit, why=written(
            REFORM_SKIPPED, state, "declined"))],
                          "skip_reform")

    # --- what the close combat phase waits for -----------------------------------------

    def asks(self) -> dict[str, Callable[[State], Decision | None]]:
        """What the game asks in each step of close combat (None: nothing, it goes on)."""
        return {"choose_combat": self._ask_fight, "offers": self._ask_offer,
                "answer": self._ask_answer, "allocation": self._ask_allocation,
                "test_order": self._ask_test_order, "choose": self._ask_pursuers,
                "flee_moves": lambda s: self._ask_move_order(s, "flee"),
                "pursuer_moves": lambda s: self._ask_move_order(s, "pursuit"),
                "reform_order": self._ask_reform_order, "reforms": self._ask_reform}

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

    def _ask_pursuers(self, state: State) -> Decision | None:
        """FP.CHOOSE_PURSUIT: each winner that may pursue chooses, in turn."""
        undecided = self._undecided(state)
        if undecided is None:
            return None
        u = state.units[undecided]
        kind, targets = self._candidates(state)[undecided]
        choices: list[Command] = ([Pursue(by=u.player, unit=u.id, target=t) for t in targets]
                                  if kind == "pursue" else [Overrun(by=u.player, unit=u.id)])
        return Decision(player=u.player, decision="pursue",
                        legal=(*choices, Restrain(by=u.player, unit=u.id)))

    def _ask_move_order(self, state: State, what: str) -> Decision | None:
        """FP.MULTI_ORDER: the order in which broken units flee (``flee``) and pursuers move
        (``pursuit``), when a player has several to move."""
        order = self._order_needed(state)
        if order is None or order[0] != what:
            return None
        movers = order[1]
        who = state.units[movers[0]].player
        cls = FleeOrder if what == "flee" else PursuitOrder
        return Decision(player=who, decision=f"{what}_order",
                        legal=tuple(cls(by=who, unit=u) for u in movers))

    def _ask_reform_order(self, state: State) -> Decision | None:
        """REF.ORDER: who reforms first, when both players have a reform open."""
        left = self._reformers(state)
        if not left or not self._order_open(state, left):
            return None
        p = state.player
        other = state.opponent(p)
        return Decision(player=p, decision="reform_order",
                        legal=(ReformOrder(by=p, first=p), ReformOrder(by=p, first=other)))

    def _ask_reform(self, state: State) -> Decision | None:
        """REF.PLACEMENT: each unit's reform, or none."""
        left = self._reformers(state)
        if not left:
            return None
        u = left[0]
        reforms: list[Command] = [Reform(by=u.player, unit=u.id, files=f, face=fc, turn=t)
                                  for f, fc, t, _ in self._reforms(state, u)]
        return Decision(player=u.player, decision="reform",
                        legal=(*reforms, SkipReform(by=u.player, unit=u.id)))


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
