"""``regiment odds`` (exact, by enumerating the dice) and ``regiment simulate`` (a scenario
played many times by the bots, with 95 % intervals on what came out)."""

from __future__ import annotations

import argparse
import math
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from regiment.core.errors import BadRequest
from regiment.phases.fantasy import odds

if TYPE_CHECKING:   # rich and the rulebooks' units are imported by the commands that use them
    from rich.console import Console

    from regiment.phases.fantasy.state import UnitState


def pct(p: Fraction | float) -> str:
    return f"{float(p) * 100:.1f} %"


def bounded(kind: type, low: float, high: float, what: str) -> Any:
    """An argparse type: a number of ``kind`` from ``low`` to ``high`` (a usage error, exit 2,
    otherwise: a Leadership of 99 or a million attacks is a typing slip, not a question)."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a number, not {text!r}") from None
        if not low <= value <= high or value != value:
            raise argparse.ArgumentTypeError(f"{what} is {low:,} to {high:,}, not {text}")
        return value
    return parse


def hex_number(text: str) -> int:
    if not re.fullmatch(r"[0-9a-fA-F]{1,32}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not a hex seed (digits 0-9 and a-f)")
    return int(text, 16)


def add_parsers(sub: Any) -> None:
    s = sub.add_parser("odds", help="exact odds: a charge, a break test, a pursuit, attacks, "
                       "a volley")
    kinds = s.add_subparsers(dest="kind", required=True)
    k = kinds.add_parser("charge", help="the chance a charge reaches (CH.RANGE)")
    k.add_argument("distance", type=bounded(float, 0, 100, "the distance"), nargs="?",
                   help="inches to the target (without it: a table of what the dice reach)")
    k.add_argument("--movement", "-m", type=bounded(int, 0, 20, "Movement"),
                   help="the charger's Movement (needed with a distance)")
    k.add_argument("--swiftstride", action="store_true", help="3D6, the lowest dropped")
    k = kinds.add_parser("break", help="the chance a unit holds its break test (BT.TEST)")
    k.add_argument("leadership", type=bounded(int, 1, 10, "Leadership"),
                   help="the unit's Leadership")
    k.add_argument("--lost-by", type=bounded(int, 0, 100, "the margin"), default=0,
                   help="the margin the combat was lost by")
    k.add_argument("--steadfast", action="store_true", help="BT.STEADFAST: no penalty")
    k.add_argument("--stubborn", action="store_true", help="BT.SPECIAL: no penalty")
    k = kinds.add_parser("catch", help="the chance pursuers catch a broken unit (FP.CAUGHT)")
    k.add_argument("--pursuer-swiftstride", action="store_true")
    k.add_argument("--flee-swiftstride", action="store_true")
    k = kinds.add_parser("sweep", help="the skirmish game: the chance a sweeping advance "
                         "catches a unit falling back (SK.SWEEP)")
    k.add_argument("--initiative", type=bounded(int, 1, 10, "Initiative"),
                   help="the sweeping unit's Initiative (without both: a table by difference)")
    k.add_argument("--against", type=bounded(int, 1, 10, "Initiative"),
                   help="the Initiative of the unit falling back")
    k = kinds.add_parser("attacks", help="the unsaved wounds attacks cause (ATK.SEQUENCE)")
    k.add_argument("attacks", type=bounded(int, 0, 500, "the number of attacks"),
                   help="how many attacks (up to 500)")
    k.add_argument("--attacker", help="a catalogue unit (orc_boyz, ...): needs from profiles")
    k.add_argument("--target", help="a catalogue unit attacked")
    k.add_argument("--charging", action="store_true", help="the attacker charged this turn")
    for need in ("hit", "wound", "armour", "ward"):
        k.add_argument(f"--{need}", type=bounded(int, 0, 7, f"the {need} need"),
                       help=f"the {need} need (2-6; 0: none)")
    k.add_argument("--reroll-misses", action="store_true", help="CC.ASF re-rolls misses")
    k = kinds.add_parser("shoot", help="the unsaved wounds a volley causes (SHOOT.HIT, "
                         "ATK.SEQUENCE)")
    k.add_argument("shots", type=bounded(int, 0, 500, "the number of shots"),
                   help="how many shots (one a model that shoots, two a model with a "
                        "weapon of multiple shots)")
    k.add_argument("--shooter", required=True, help="a catalogue unit with a missile weapon")
    k.add_argument("--target", required=True, help="a catalogue unit shot at")
    k.add_argument("--long-range", action="store_true", help="beyond half the range: -1")
    k.add_argument("--moved", action="store_true", help="the shooter moved this turn: -1")
    k.add_argument("--cover", choices=("none", "soft", "hard"), default="none",
                   help="the target's cover: soft -1, hard -2")
    s.set_defaults(run=run_odds)

    s = sub.add_parser("simulate", help="play a scenario many times with the bots: outcome "
                       "rates with 95 %% intervals")
    s.add_argument("scenario", help="scenario TOML file, or a bundled scenario's name")
    s.add_argument("-n", type=bounded(int, 1, 10_000_000, "the number of games"), default=200,
                   help="how many games (default %(default)s)")
    s.add_argument("--seed", type=hex_number, default=0,
                   help="hex seed of the first game (the others follow it)")
    s.add_argument("--jobs", "-j", type=bounded(int, 1, 1024, "the number of processes"),
                   default=None, help="processes to play on (default: every core); the "
                   "results are the same whatever the number")
    s.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="play on the Dask cluster whose scheduler is at ADDRESS "
                   "(tcp://host:8786; needs dask.distributed)")
    s.set_defaults(run=_simulate)


def _simulate(args: argparse.Namespace, console: Console) -> int:
    from .simulate import run_simulate

    return run_simulate(args, console)


def run_odds(args: argparse.Namespace, console: Console) -> int:
    return {"charge": _charge, "break": _break, "catch": _catch, "sweep": _sweep,
            "attacks": _attacks, "shoot": _shoot}[args.kind](args, console)


def _charge(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    dice = "3D6, the lowest dropped" if args.swiftstride else "2D6"
    if args.distance is not None:
        if args.movement is None:
            raise BadRequest(f"a charge of {args.distance:g}\" needs the charger's Movement: "
                             "add -m M (for example -m 4)")
        need = max(0, math.ceil(args.distance - args.movement - 1e-9))
        p = odds.charge_odds(need, args.swiftstride)
        console.print(f"A charge of {args.distance:g}\" with Movement {args.movement}: the dice "
                      f"({dice}) must reach {need}: {pct(p)} (exactly {p}). (CH.RANGE)")
        return 0
    table = Table(title=f"Charge range: the dice ({dice}) reach at least (CH.RANGE)")
    table.add_column("inches", justify="right")
    table.add_column("chance", justify="right")
    for k in range(2, 13):
        table.add_row(str(k), pct(odds.charge_odds(k, args.swiftstride)))
    console.print(table)
    return 0


def _break(args: argparse.Namespace, console: Console) -> int:
    p = odds.break_odds(args.leadership, args.lost_by, args.steadfast, args.stubborn)
    why = ("steadfast, no penalty (BT.STEADFAST)" if args.steadfast else
           "stubborn, no penalty (BT.SPECIAL)" if args.stubborn else f"Ld - {args.lost_by}")
    need = min(10, args.leadership) - (0 if args.steadfast or args.stubborn else args.lost_by)
    console.print(f"Break test on Ld {args.leadership}, {why}: needs {need} or less on 2D6 "
                  f"(a double 1 always holds): holds {pct(p)}, breaks {pct(1 - p)}. "
                  "(BT.TEST, LD.TEST, LD.INSANE)")
    return 0


def _catch(args: argparse.Namespace, console: Console) -> int:
    p = odds.catch_odds(3 if args.pursuer_swiftstride else 2, 3 if args.flee_swiftstride else 2)
    console.print(f"A pursuer catches a fleeing unit (equal or higher roll): {pct(p)} "
                  f"(exactly {p}). (FP.CAUGHT)")
    return 0


def _sweep(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    from regiment.phases.skirmish.fight.sweep import sweep_odds

    if (args.initiative is None) != (args.against is None):
        raise BadRequest("--initiative and --against go together (or neither, for the table)")
    if args.initiative is not None:
        p = sweep_odds(args.initiative, args.against)
        console.print(f"A sweeping advance at Initiative {args.initiative} against "
                      f"{args.against} (D6 + I each, equal or higher catches): {pct(p)} "
                      f"(exactly {p}). (SK.SWEEP)")
        return 0
    table = Table(title="Sweeping advance: the chance to catch, by Initiative difference "
                  "(SK.SWEEP)")
    table.add_column("difference", justify="right")
    table.add_column("caught", justify="right")
    for d in range(-3, 4):
        table.add_row(f"{d:+d}", pct(sweep_odds(4 + d, 4)))
    console.print(table)
    return 0


def _profile(key: str, uid: str) -> UnitState:
    from regiment.phases.fantasy.scenario import catalogue
    from regiment.phases.fantasy.state import UnitState

    from .names import meant, resolve

    cat = catalogue()
    name, near = resolve(key, cat)   # orc_boy, orc-boyz: orc_boyz
    if name is None:
        raise BadRequest(f"no unit {key!r} in the catalogue{meant(near)} "
                         "(regiment catalogue lists them)")
    u = cat[name]
    return UnitState(id=uid, player=uid, name=u["name"], troop=u["troop"], models=10, files=5,
                     base=tuple(u["base"]), profile=dict(u["profile"]), position=(0.0, 0.0),
                     facing=0.0, armour=u.get("armour"), ward=u.get("ward"),
                     equipment=tuple(u.get("equipment", ())), rules=tuple(u.get("rules", ())))


def _attacks(args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table

    from regiment.phases.fantasy import effects
    from regiment.phases.fantasy.close_combat.strikes import group

    def rerolled(a: UnitState, t: UnitState, g: dict[str, Any]) -> dict[str, Any]:
        """CC.ASF, CC.HATRED: the first round's re-roll a rule grants (SPECIAL.EFFECTS)."""
        part = effects.reroll(a, "to_hit", effects.Ask(a, t, 1))
        return {**g, "reroll": True} if part is not None else g

    needs = {"hit": 4, "wound": 4, "armour": 0, "ward": 0, "reroll": False}
    who, parry, acted = "attacks", False, ""
    rules: list[str] = []
    if bool(args.attacker) != bool(args.target):
        given, missing = (("--attacker", "--target") if args.attacker else
                          ("--target", "--attacker"))
        raise BadRequest(f"{given} needs {missing}: the needs come from both profiles")
    if args.attacker and args.target:
        a, t = _profile(args.attacker, "a"), _profile(args.target, "t")
        if args.charging:
            a = a.evolve(charged=True)
        g = rerolled(a, t, group(a, t, args.attacks))   # from the front (ATK.PARRY)
        needs = {k: g[k] for k in needs}
        needs.update(poison=bool(g.get("poison")), killing=bool(g.get("killing")))
        parry = bool(g.get("parry"))
        acted, rules = effects.acted(g.get("parts", ()), g)   # SPECIAL.EFFECTS
        who = f"{a.name} attacks at {t.name}"
    for k in ("hit", "wound", "armour", "ward"):
        if getattr(args, k) is not None:
            needs[k] = getattr(args, k)
    reroll = bool(needs["reroll"]) or args.reroll_misses
    dist = odds.attack_odds(args.attacks, int(needs["hit"]), int(needs["wound"]),
                            int(needs["armour"]), int(needs["ward"]), reroll,
                            poison=bool(needs.get("poison")), killing=bool(needs.get("killing")))
    if args.ward is not None:
        parry = False   # a ward given by hand is a ward
    saves = ", ".join(f"{'parry' if k == 'ward' and parry else k} {needs[k]}+"
                      for k in ("armour", "ward") if needs[k]) or "no save"
    table = Table(title=f"{args.attacks} {who}: hit {needs['hit']}+"
                  f"{' re-rolling misses' if reroll else ''}, wound {needs['wound']}+, "
                  f"{saves}{acted} (ATK.SEQUENCE{', ATK.PARRY' if parry else ''}"
                  f"{''.join(', ' + r for r in dict.fromkeys(rules))})")
    _wounds_table(console, table, dist)
    return 0


def _wounds_table(console: Console, table: Any, dist: dict[int, Fraction]) -> None:
    table.add_column("unsaved wounds", justify="right")
    table.add_column("exactly", justify="right")
    table.add_column("at least", justify="right")
    tail = Fraction(1)
    for wounds in sorted(dist):
        if tail < Fraction(1, 10_000):
            break
        table.add_row(str(wounds), pct(dist[wounds]), pct(tail))
        tail -= dist[wounds]
    console.print(table)
    console.print(f"Expected unsaved wounds: {float(odds.mean(dist)):.2f}")


def _shoot(args: argparse.Namespace, console: Console) -> int:
    """SHOOT.HIT, SHOOT.WEAPONS: a volley's needs from the two profiles and the modifiers."""
    from rich.table import Table

    from regiment.phases.fantasy.close_combat.attacks import to_hit_shooting
    from regiment.phases.fantasy.shooting.events import ShotsFired
    from regiment.phases.fantasy.shooting.rules import MODIFIERS
    from regiment.phases.fantasy.shooting.steps import volley
    from regiment.phases.fantasy.units import missile

    a, t = _profile(args.shooter, "a"), _profile(args.target, "t")
    weapon = missile(a)
    if weapon is None:
        raise BadRequest(f"{a.name} has no missile weapon (SHOOT.WEAPONS)")
    mods = [m for m, on in (("long_range", args.long_range), ("moved", args.moved),
                            (f"{args.cover}_cover", args.cover != "none"),
                            ("multiple_shots", weapon.shots > 1)) if on]
    hit, hit2 = to_hit_shooting(a.profile["BS"], sum(MODIFIERS[m] for m in mods))
    g = volley(a, t, ShotsFired(unit=a.id, target=t.id, weapon=weapon.name, distance=0.0,
                                modifiers=tuple(mods), hit=hit, hit2=hit2, shots=args.shots))
    dist = odds.attack_odds(args.shots, hit, g["wound"], g["armour"], g["ward"], hit2=hit2)
    need = "none can hit" if not hit else f"hit {hit}+" + (f" then {hit2}+" if hit2 else "")
    saves = ", ".join(f"{k} {g[k]}+" for k in ("armour", "ward") if g[k]) or "no save"
    told = ", ".join(m.replace("_", " ") for m in mods)
    table = Table(title=f"{args.shots} {weapon.name} shots of {a.name} at {t.name}"
                  f"{f' ({told})' if told else ''}: {need}, wound {g['wound']}+, {saves} "
                  "(SHOOT.HIT, ATK.SEQUENCE)")
    _wounds_table(console, table, dist)
    return 0


# --- simulate ----------------------------------------------------------------------------------


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``k`` in ``n`` (``k`` may count halves:
    a draw as half a win)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
