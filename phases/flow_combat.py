"""The close combat phase's flow: challenges, initiative steps, the combat result, break
tests, flee and pursuit, combat reform. Outcomes come from ``combat``, ``result``,
``attacks`` and ``pursuit``; this module only sequences them into events."""

from __future__ import annotations

from typing import Any

from regiment.core import geometry as geo
from regiment.core.commands import (
    AcceptChallenge,
    Challenge,
    Command,
    DeclineChallenge,
    Fight,
    Overrun,
    Pursue,
    Reform,
    ReformOrder,
    RefuseChallenge,
    Restrain,
    SkipReform,
)
from regiment.core.events import Event, RollRequested
from regiment.core.fold import fold
from regiment.core.pending import Decision
from regiment.core.state import Awaiting, GameState, UnitState

from . import attacks, charge, combat, pursuit
from .events import (
    AttacksResolved,
    BreakTestTaken,
    ChallengeAnswered,
    ChallengeIssued,
    CombatBegan,
    CombatEnded,
    CombatResultDecided,
    CombatRoundBegan,
    CombatRoundEnded,
    InitiativeStepBegan,
    LeadershipTested,
    PanicCaused,
    PursuitDeclared,
    PursuitRolled,
    PursuitsCompleted,
    ReformOrderChosen,
    ReformSkipped,
    UnitCaught,
    UnitDestroyed,
    UnitLeftTable,
    UnitReformed,
)
from .flow import Flow, fight_of
from .flow_charge import hill_regions, moved
from .result import break_penalty, decide, ld_test, side_parts
from .units import box, has, has_champion, is_character, leadership


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


def fighters(state: GameState, cmb: dict[str, Any], player: str) -> list[UnitState]:
    """CC.CHALLENGE: units of ``player`` in the combat with a champion or a character."""
    return [state.units[u] for u in cmb["units"] if state.units[u].player == player
            and state.units[u].status == "engaged"
            and (has_champion(state.units[u]) or is_character(state.units[u]))]


class CombatFlow(Flow):
    def combat_handlers(self) -> dict[str, Any]:
        return {"fight": self._fight, "challenge": self._challenge,
                "decline_challenge": self._decline_challenge,
                "accept_challenge": self._answer, "refuse_challenge": self._answer,
                "pursue": self._pursue, "overrun": self._pursue, "restrain": self._pursue,
                "reform": self._reform, "skip_reform": self._skip_reform,
                "reform_order": self._reform_order}

    def combat_rolls(self) -> dict[str, Any]:
        return {"break_test": self._break_rolled, "restrain": self._restrain_rolled,
                "pursuit": self._pursuit_rolled, "overrun": self._pursuit_rolled,
                "reform": self._reform_rolled}

    def combat_drives(self) -> dict[str, Any]:
        return {"challenge": self._drive_challenge, "initiative_steps": self._drive_steps,
                "result": self._drive_result, "break_tests": self._drive_tests,
                "pursuit": self._drive_pursuit, "reform": self._drive_reform}

    # --- choosing a combat, challenges (CC.ORDER, CC.CHALLENGE) ------------------------------

    def _fight(self, state: GameState, cmd: Fight) -> list[Event]:
        self._active(state, cmd, "CC.ORDER")
        self._offered(state, cmd, "CC.ORDER")
        cmb = state.combats[cmd.combat]
        begun = CombatRoundBegan(combat=cmb["id"], round=cmb["round"],
                                 steps=tuple(combat.steps(state, cmb)),
                                 challenges=bool(self._challengers(state, state.player, cmb)))
        return self._then(state, [begun], "fight")

    def _offerer(self, state: GameState) -> str | None:
        offers = fight_of(state).get("offers", ())
        return next((p for p in (state.player, state.opponent(state.player))
                     if p not in offers), None)

    def _challengers(self, state: GameState, player: str, cmb: dict[str, Any] | None = None
                     ) -> list[UnitState]:
        """CC.CHALLENGE: units of ``player`` whose champion or character could challenge an
        enemy fighter it touches."""
        cmb = cmb or state.combats[fight_of(state)["combat"]]
        foes = fighters(state, cmb, state.opponent(player))
        return [u for u in fighters(state, cmb, player)
                if any(combat.in_contact_at_all(u, f) for f in foes)]

    def _drive_challenge(self, state: GameState) -> list[Event]:
        fight = fight_of(state)
        if fight.get("challenge") != "open":
            return []
        player = self._offerer(state)
        if player is None:
            return []
        if not self._challengers(state, player):  # no one to challenge with: pass it on
            return [ChallengeIssued(combat=fight["combat"], unit="", player=player)]
        return []

    def _challenge(self, state: GameState, cmd: Challenge) -> list[Event]:
        self._offered(state, cmd, "CC.CHALLENGE")
        return self._then(state, [ChallengeIssued(combat=fight_of(state)["combat"],
                                                  unit=cmd.unit, player=cmd.by)], "challenge")

    def _decline_challenge(self, state: GameState, cmd: DeclineChallenge) -> list[Event]:
        self._offered(state, cmd, "CC.CHALLENGE")
        return self._then(state, [ChallengeIssued(combat=fight_of(state)["combat"], unit="",
                                                  player=cmd.by)], cmd.name)

    def _answer(self, state: GameState, cmd: AcceptChallenge | RefuseChallenge) -> list[Event]:
        self._offered(state, cmd, "CC.CHALLENGE")
        answer = ChallengeAnswered(combat=fight_of(state)["combat"], unit=cmd.unit,
                                   accepted=cmd.name == "accept_challenge")
        return self._then(state, [answer], cmd.name)

    # --- initiative steps (CC.INITIATIVE, ATK.SEQUENCE) -------------------------------------

    def _drive_steps(self, state: GameState) -> list[Event]:
        fight = fight_of(state)
        if not fight.get("steps"):
            return []
        cmb = state.combats[fight["combat"]]
        step = fight["steps"][0]
        return [InitiativeStepBegan(combat=cmb["id"], step=step,
                                    strikes=tuple(combat.strikes(state, cmb, step, fight)))]

    def drive_batch(self, state: GameState) -> list[Event]:
        """ATK.SEQUENCE: the next roll of the batch, or its results once all dice are in."""
        batch = state.context["batch"]
        nxt = attacks.next_roll(batch["groups"], batch.get("last", ""))
        if nxt is not None:
            i, stage, n = nxt
            g = batch["groups"][i]
            who = attacks.roller(g, stage)
            return [RollRequested(purpose=attacks.purpose(g, stage), unit=who,
                                  player=state.units[who].player, dice=n, about=f"{i}:{stage}")]
        return self._resolve_batch(state, batch)

    def _resolve_batch(self, state: GameState, batch: dict[str, Any]) -> list[Event]:
        """ATK.SEQUENCE steps 5 and 6: every group's count, casualties removed at once, then
        the units destroyed and the panic they cause (PANIC.TRIGGERS)."""
        events: list[Event] = []
        cur = state
        for g in batch["groups"]:
            t = attacks.tally(g)
            lost, slain, overkill = casualties(cur.units[g["target"]], t["unsaved"],
                                               g["challenge"])
            needs = {k: g[k] for k in ("hit", "hit2", "wound", "armour", "ward")}
            needs["reroll"] = g["reroll"]
            e = AttacksResolved(combat=batch["combat"], step=batch["step"], unit=g["unit"],
                                target=g["target"], attacks=t["attacks"], hits=t["hits"],
                                wounds=t["wounds"], saved=t["saved"], unsaved=t["unsaved"],
                                needs=needs, lost=lost, slain=slain, overkill=overkill,
                                challenge=g["challenge"])
            cur = fold(cur, [e], self.fold_table)
            events.append(e)
        dead = [uid for uid in dict.fromkeys(g["target"] for g in batch["groups"])
                if cur.units[uid].models <= 0]
        events += [UnitDestroyed(unit=uid, reason="slain") for uid in dead]
        cur = fold(cur, events[len(batch["groups"]):], self.fold_table)
        events += self.panic_after(cur, dead, "was destroyed")
        if batch["combat"] is None:  # PANIC.TRIGGERS: 25% lost to shooting
            for g in batch["groups"]:
                before = state.units[g["target"]].models
                u = cur.units[g["target"]]
                if u.status == "ready" and 4 * (before - u.models) >= before and before and \
                        not has(u, "immune_to_psychology"):
                    events.append(self._shot_panic(u))
        return events

    def _shot_panic(self, u: UnitState) -> Event:
        return PanicCaused(units=(u.id,), cause=u.id, reason=f"{u.name} lost a quarter of its "
                           "models to shooting")

    # --- the result and break tests (CR.*, BT.*) --------------------------------------------

    def _drive_result(self, state: GameState) -> list[Event]:
        fight = fight_of(state)
        if "result" in fight:
            return []
        cmb = state.combats[fight["combat"]]
        sides: dict[str, Any] = {}
        for p in state.players:
            parts = side_parts(state, cmb, p, fight["caused"], fight["overkill"],
                               self.classic, hill_regions(state))
            sides[p] = {"total": sum(x["value"] for x in parts), "parts": parts}
        alive = {p: [state.units[u] for u in cmb["units"] if state.units[u].player == p
                     and state.units[u].status == "engaged"] for p in state.players}
        a, b = state.players
        totals = {p: sides[p]["total"] for p in state.players}
        musician = None
        no_more_foes: tuple[str, ...] = ()
        if alive[a] and alive[b]:
            music = {p: any("musician" in u.command for u in alive[p]) for p in state.players}
            winner, margin, musician = decide(totals, music)
            if musician is not None:
                sides[musician]["parts"].append({"rule": "CR.MUSICIAN", "unit": next(
                    u.id for u in alive[musician] if "musician" in u.command), "value": 1})
                sides[musician]["total"] += 1
        elif alive[a] or alive[b]:  # CR.NO_MORE_FOES: the survivors win whatever the count
            winner = a if alive[a] else b
            margin = max(0, totals[winner] - totals[state.opponent(winner)])
            no_more_foes = tuple(u.id for u in alive[winner])
        else:
            winner, margin = None, 0
        tests: tuple[str, ...] = ()
        unbreakable: tuple[str, ...] = ()
        if winner is not None:  # BT.WHO, BT.SPECIAL
            losers = alive[state.opponent(winner)]
            tests = tuple(u.id for u in losers if not has(u, "unbreakable"))
            unbreakable = tuple(u.id for u in losers if has(u, "unbreakable"))
        return [CombatResultDecided(combat=cmb["id"], sides=sides, winner=winner,
                                    margin=margin, musician=musician, tests=tests,
                                    no_more_foes=no_more_foes, unbreakable=unbreakable)]

    def _drive_tests(self, state: GameState) -> list[Event]:
        tests = fight_of(state).get("tests")
        if not tests:
            return []
        u = state.units[tests[0]]
        return [RollRequested(purpose="break_test", unit=u.id, player=u.player, dice=2)]

    def _break_rolled(self, state: GameState, aw: Awaiting, faces: tuple[int, ...]
                      ) -> list[Event]:
        """BT.TEST, BT.STEADFAST, BT.DISRUPTED, BT.SPECIAL, LD.INSANE."""
        fight = fight_of(state)
        cmb = state.combats[fight["combat"]]
        u = state.units[aw.unit or ""]
        penalty, firm, why = break_penalty(state, cmb, u.id, fight["result"]["margin"])
        passed, need, insane = ld_test(leadership(u), penalty, faces)
        totals = fight["result"].get("totals", {})
        mine = totals.get(u.player, 0)
        theirs = totals.get(state.opponent(u.player), 0)
        events: list[Event] = [BreakTestTaken(unit=u.id, leadership=leadership(u),
                                              penalty=penalty, steadfast=firm, faces=faces,
                                              passed=passed, needs=need, insane=insane,
                                              why=why, result=(mine, theirs))]
        if not passed:
            events += self.panic_after(fold(state, events, self.fold_table), [u.id], "broke")
        return self._finish(state, events)

    # --- flee and pursuit (FP.*) -------------------------------------------------------------

    def _candidates(self, state: GameState) -> dict[str, tuple[str, list[str]]]:
        """FP.CHOOSE_PURSUIT, FP.OVERRUN: winners that may pursue (with the broken units they
        touched) or overrun."""
        fight = fight_of(state)
        winner = (fight.get("result") or {}).get("winner")
        if winner is None:
            return {}
        cmb = state.combats[fight["combat"]]
        out: dict[str, tuple[str, list[str]]] = {}
        broken = set(fight.get("broken", ()))
        for uid in cmb["units"]:
            u = state.units[uid]
            if u.player != winner or u.status != "engaged":
                continue
            foes = [state.units[o] for o in cmb["units"] if state.units[o].player != winner
                    and state.units[o].status in ("engaged", "fleeing")
                    and combat.in_contact_at_all(u, state.units[o])]
            if foes and all(f.id in broken for f in foes):
                out[uid] = ("pursue", [f.id for f in foes])
            elif (not foes and not broken and cmb["round"] == 1 and u.charged
                  and uid in cmb.get("chargers", ())
                  and not any(state.units[o].status == "engaged" for o in cmb["units"]
                              if state.units[o].player != winner)):
                out[uid] = ("overrun", [])
        return out

    def _undecided(self, state: GameState) -> str | None:
        decided = fight_of(state).get("decided", {})
        return next((u for u in self._candidates(state) if u not in decided), None)

    def _pursue(self, state: GameState, cmd: Pursue | Overrun | Restrain) -> list[Event]:
        self._offered(state, cmd, "FP.CHOOSE_PURSUIT")
        target = getattr(cmd, "target", "")
        if cmd.name == "restrain":
            _kind, targets = self._candidates(state)[cmd.unit]
            target = targets[0] if targets else ""
        return self._then(state, [PursuitDeclared(unit=cmd.unit, target=target, kind=cmd.name)],
                          cmd.name)

    def _drive_pursuit(self, state: GameState) -> list[Event]:
        fight = fight_of(state)
        if fight.get("pursued") or self._undecided(state) is not None:
            return []
        decided = fight.get("decided", {})
        for uid, (kind, _) in decided.items():
            if kind == "restraining":  # FP.CHOOSE_PURSUIT: a Leadership test to stay
                u = state.units[uid]
                return [RollRequested(purpose="restrain", unit=uid, player=u.player, dice=2)]
        for b in fight.get("broken", ()):
            u = state.units[b]
            if b not in fight.get("fled", {}) and u.status == "fleeing":
                return [RollRequested(purpose="flee", unit=b, player=u.player,
                                      dice=charge.movement_dice(u), about="combat")]
        for uid, (kind, target) in decided.items():
            if kind in ("pursue", "overrun") and uid not in fight.get("rolled", {}):
                u = state.units[uid]
                return [RollRequested(purpose="pursuit" if kind == "pursue" else "overrun",
                                      unit=uid, player=u.player, dice=charge.movement_dice(u),
                                      about=target)]
        return self._pursuit_moves(state)

    def _restrain_rolled(self, state: GameState, aw: Awaiting, faces: tuple[int, ...]
                         ) -> list[Event]:
        u = state.units[aw.unit or ""]
        passed, need, insane = ld_test(leadership(u), 0, faces)
        return self._finish(state, [LeadershipTested(unit=u.id, purpose="restrain",
                                                     leadership=leadership(u), penalty=0,
                                                     faces=faces, passed=passed, needs=need,
                                                     insane=insane)])

    def _pursuit_rolled(self, state: GameState, aw: Awaiting, faces: tuple[int, ...]
                        ) -> list[Event]:
        """FP.PURSUE_ROLL, FP.CAUGHT: caught if the pursuit equals or beats the flee roll."""
        dist = sum(charge.counted(faces))
        fled = fight_of(state).get("fled", {})
        caught = bool(aw.about) and aw.about in fled and dist >= fled[aw.about]
        return self._finish(state, [PursuitRolled(unit=aw.unit or "", target=aw.about,
                                                  dice=charge.counted(faces), distance=dist,
                                                  caught=caught)])

    def _pursuit_moves(self, state: GameState) -> list[Event]:
        """FP.FLEE_DIRECTION, FP.CAUGHT, FP.PURSUE_MOVE, FP.OFF_TABLE, FP.FRESH_ENEMY."""
        fight = fight_of(state)
        cmb = state.combats[fight["combat"]]
        decided = fight.get("decided", {})
        rolled, fled = fight.get("rolled", {}), fight.get("fled", {})
        events: list[Event] = []
        cur = state
        for b in fight.get("broken", ()):
            u = cur.units[b]
            if u.status != "fleeing" or b not in fled:
                continue
            by = [p for p, (k, t) in decided.items() if k == "pursue" and t == b
                  and rolled.get(p, 0) >= fled[b]]
            if by:
                more: list[Event] = [UnitCaught(unit=b, by=by[0]),
                                     UnitDestroyed(unit=b, reason="caught")]
                more += self.panic_after(fold(cur, more, self.fold_table), [b], "was destroyed")
            else:
                foes = [cur.units[o] for o in cmb["units"] if cur.units[o].player != u.player
                        and cur.units[o].status == "engaged"]
                away = pursuit.flee_from(cur, u, foes)
                point = geo.centre(box(away)) if away else geo.centre(box(u))
                more = self.flee_events(cur, u, point, fled[b], "flee")
            cur = fold(cur, more, self.fold_table)
            events += more
        if cmb["id"] in cur.combats and not all(any(
                cur.units[o].status == "engaged" and cur.units[o].player == p
                for o in cmb["units"]) for p in cur.players):
            end = CombatEnded(combat=cmb["id"], reason="one side has no unit left fighting")
            cur = fold(cur, [end], self.fold_table)
            events.append(end)
        for uid, (kind, target) in decided.items():
            if kind not in ("pursue", "overrun") or uid not in rolled:
                continue
            more = self._pursuer_moves(cur, cur.units[uid], kind, target, rolled[uid])
            cur = fold(cur, more, self.fold_table)
            events += more
        return [*events, PursuitsCompleted(combat=cmb["id"])]

    def _pursuer_moves(self, state: GameState, u: UnitState, kind: str, target: str,
                       dist: int) -> list[Event]:
        if kind == "pursue" and target in state.units:
            heading = geo.bearing(geo.centre(box(u)),
                                  geo.centre(box(state.units[target])))
            quarry = target
        else:
            heading, quarry = u.facing, None
        end, edge, fresh, run = pursuit.pursue_move(state, u, heading, dist, quarry,
                                                    kind == "pursue")
        events: list[Event] = [moved(u.id, end, "pursuit" if kind == "pursue" else "overrun",
                                     run)]
        if edge is not None:
            events.append(UnitLeftTable(unit=u.id, point=edge))
        elif fresh is not None:  # FP.FRESH_ENEMY: a charge; fought next close combat phase
            events.append(CombatBegan(combat=f"{state.turn}-{u.id}-{fresh}",
                                      units=(u.id, fresh), chargers=(u.id,), reason=kind))
        return events

    # --- combat reform (REF.*) ---------------------------------------------------------------

    _reform_memo: tuple[GameState, dict[str, list[Any]]] | None = None

    def _reforms(self, state: GameState, u: UnitState) -> list[Any]:
        """REF.PLACEMENT, CR.NO_MORE_FOES: the reforms open to ``u`` as (files, face, turn,
        box), kept for the last state asked about (the drive, the pending decision and the
        command all ask of the same state)."""
        memo = self._reform_memo
        if memo is None or memo[0] is not state:
            memo = self._reform_memo = (state, {})
        if u.id not in memo[1]:
            cmb = state.combats.get(fight_of(state)["combat"])
            memo[1][u.id] = (pursuit.reform_options(state, cmb, u) if cmb is not None
                             else pursuit.free_reform_options(state, u))
        return memo[1][u.id]

    def _order_open(self, state: GameState, left: list[UnitState]) -> bool:
        """REF.ORDER: both players have a reform open and no order was chosen yet."""
        fight = fight_of(state)
        if "reform_first" in fight:
            return False
        if fight["combat"] not in state.combats:
            return False
        players = {u.player for u in left if self._reforms(state, u)}
        return len(players) == 2

    def _reform_order(self, state: GameState, cmd: ReformOrder) -> list[Event]:
        self._offered(state, cmd, "REF.ORDER")
        return self._then(state, [ReformOrderChosen(combat=fight_of(state)["combat"],
                                                    first=cmd.first)], "reform_order")

    def _reformers(self, state: GameState) -> list[UnitState]:
        """REF.WHO, REF.ORDER: units still in the combat, those of the player who reforms
        first (the active player's, unless he chose otherwise) first; once the combat is
        over, the winners that stayed where they were (CR.NO_MORE_FOES)."""
        fight = fight_of(state)
        done = fight.get("reformed", ())
        cmb = state.combats.get(fight["combat"])
        if cmb is None:
            winner = (fight.get("result") or {}).get("winner")
            moved = {u for u, (kind, _) in fight.get("decided", {}).items()
                     if kind in ("pursue", "overrun")}
            return [state.units[u] for u in fight.get("units", ())
                    if state.units[u].player == winner and state.units[u].status == "ready"
                    and u not in done and u not in moved]
        units = [state.units[u] for u in cmb["units"] if state.units[u].status == "engaged"
                 and u not in done and combat.touching(state, cmb, u)]
        first = fight.get("reform_first") or state.player
        return sorted(units, key=lambda u: u.player != first)

    def _drive_reform(self, state: GameState) -> list[Event]:
        fight = fight_of(state)
        if not fight or state.awaiting is not None:
            return []
        left = self._reformers(state)
        if left:
            if self._order_open(state, left):
                return []   # the active player says who reforms first
            u = left[0]
            if not self._reforms(state, u):
                return [ReformSkipped(unit=u.id, why="no reform is open to it")]
            return []
        return [CombatRoundEnded(combat=fight["combat"], round=fight["round"])]

    def _reform(self, state: GameState, cmd: Reform) -> list[Event]:
        self._offered(state, cmd, "REF.PLACEMENT")
        fight = fight_of(state)
        u = state.units[cmd.unit]
        winner = fight["result"]["winner"]
        if winner is not None and winner != u.player:  # REF.TEST
            return [RollRequested(purpose="reform", unit=u.id, player=u.player, dice=2,
                                  about=f"{cmd.files}:{cmd.face}:{cmd.turn}")]
        return self._finish(state, [self._reformed(state, u, cmd.files, cmd.face, cmd.turn)])

    def _reformed(self, state: GameState, u: UnitState, files: int, face: str, turn: int
                  ) -> Event:
        for f, fc, t, b in self._reforms(state, u):
            if (f, fc, t) == (files, face, turn):
                how = (f"turn to face {state.units[face].name}" if face else
                       f"turn {t} degrees" if t else f"reform {files} wide")
                return UnitReformed(unit=u.id, files=files, position=(b.x, b.y),
                                    facing=b.facing, how=how)
        return ReformSkipped(unit=u.id, why="that reform is no longer open")

    def _reform_rolled(self, state: GameState, aw: Awaiting, faces: tuple[int, ...]
                       ) -> list[Event]:
        u = state.units[aw.unit or ""]
        penalty = fight_of(state).get("penalties", {}).get(u.id, 0)
        passed, need, insane = ld_test(leadership(u), penalty, faces)
        events: list[Event] = [LeadershipTested(unit=u.id, purpose="reform",
                                                leadership=leadership(u), penalty=penalty,
                                                faces=faces, passed=passed, needs=need,
                                                insane=insane)]
        files, face, turn = aw.about.split(":")
        events.append(self._reformed(state, u, int(files), face, int(turn)) if passed else
                      ReformSkipped(unit=u.id, why="it failed its reform test"))
        return self._finish(state, events)

    def _skip_reform(self, state: GameState, cmd: SkipReform) -> list[Event]:
        self._offered(state, cmd, "REF.WHO")
        return self._then(state, [ReformSkipped(unit=cmd.unit, why="its player chose not to")],
                          "skip_reform")

    # --- what the close combat phase waits for -----------------------------------------

    def combat_pending(self, state: GameState, leaf: str) -> Decision | None:
        p = state.player
        if leaf == "choose_combat":
            fought = state.context.get("fought", ())
            options: list[Command] = [Fight(by=p, combat=c) for c in state.combats
                                      if c not in fought]
            if options:
                return Decision(player=p, decision="fight", legal=tuple(options))
            return None
        fight = fight_of(state)
        if leaf == "challenge" and fight.get("challenge") == "open":
            who = self._offerer(state)
            if who is None:
                return None
            offers: list[Command] = [Challenge(by=who, unit=u.id)
                                     for u in self._challengers(state, who)]
            return Decision(player=who, decision="challenge",
                            legal=(*offers, DeclineChallenge(by=who)))
        if leaf == "challenge" and fight.get("challenge") == "answer":
            challenger = state.units[fight["challenger"]]
            who = state.opponent(challenger.player)
            cmb = state.combats[fight["combat"]]
            near = [u for u in cmb["units"] if state.units[u].player == who
                    and state.units[u].status == "engaged"
                    and combat.in_contact_at_all(state.units[u], challenger)]
            able = {u.id for u in fighters(state, cmb, who)}
            answers: list[Command] = [AcceptChallenge(by=who, unit=u) for u in near if u in able]
            answers += [RefuseChallenge(by=who, unit=u) for u in near]
            return Decision(player=who, decision="answer_challenge", legal=tuple(answers))
        if leaf == "pursuit":
            uid = self._undecided(state)
            if uid is None:
                return None
            u = state.units[uid]
            kind, targets = self._candidates(state)[uid]
            choices: list[Command] = ([Pursue(by=u.player, unit=uid, target=t) for t in targets]
                                      if kind == "pursue" else [Overrun(by=u.player, unit=uid)])
            return Decision(player=u.player, decision="pursue",
                            legal=(*choices, Restrain(by=u.player, unit=uid)))
        if leaf == "reform":
            left = self._reformers(state)
            if not left:
                return None
            if self._order_open(state, left):
                other = state.opponent(p)
                return Decision(player=p, decision="reform_order",
                                legal=(ReformOrder(by=p, first=p), ReformOrder(by=p, first=other)))
            u = left[0]
            reforms: list[Command] = [Reform(by=u.player, unit=u.id, files=f, face=fc, turn=t)
                                      for f, fc, t, _ in self._reforms(state, u)]
            return Decision(player=u.player, decision="reform",
                            legal=(*reforms, SkipReform(by=u.player, unit=u.id)))
        return None


