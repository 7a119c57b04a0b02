"""The words `play` shows players, as catalogue messages (``locale/ru.po``): roll purposes,
the roster's columns, commands and decisions, their arguments. A test checks that every
registered command and every decision a rulebook asks has its words here."""

from __future__ import annotations

import re
from typing import Any

from regiment.core.commands import Command
from regiment.core.game import Game
from regiment.core.i18n import mark, tr
from regiment.core.protocols import view_of

PURPOSES = {"to_hit": mark("to hit"), "to_wound": mark("to wound"),
            "armour": mark("armour saves"), "ward": mark("ward saves"),
            "break_test": mark("break test"), "charge_range": mark("charge"),
            "stand_and_shoot_hit": mark("stand and shoot (to hit)"),
            "shooting_hit": mark("shooting (to hit)"),
            "random_side": mark("which side"), "random_choice": mark("a random choice"),
            "dangerous_terrain": mark("dangerous terrain"),
            "special_hits": mark("impact hits or stomps (how many)"), "hit": mark("to hit"),
            "multiple_wounds": mark("multiple wounds (how many)"),
            "fear": mark("fear test"), "terror": mark("terror test"),
            "wound": mark("to wound"), "save": mark("saves"),
            "escape": mark("roll to get away"), "sweep": mark("sweeping advance"),
            "fall_back": mark("fall back (inches)"),
            "consolidate": mark("consolidation (inches)"),
            "charge": mark("charge (inches)"),
            "difficult_terrain": mark("difficult terrain (inches)"),
            "failed_charge": mark("failed charge (inches)"), "flee": mark("flee (inches)"),
            "march": mark("march (Leadership)"), "morale": mark("morale"),
            "overrun": mark("overrun (inches)"), "panic": mark("panic (Leadership)"),
            "pursuit": mark("pursuit (inches)"), "rally": mark("rally (Leadership)"),
            "redirect": mark("redirect (Leadership)"),
            "reform": mark("reform (Leadership)"), "reform_move": mark("reform, then move"),
            "restrain": mark("restrain the pursuit (Leadership)")}
COLUMNS = {
    "unit": mark("unit"), "player": mark("player"), "models": mark("models"),
    "ranks": mark("ranks"), "wounds": mark("wounds"), "status": mark("status"),
    "combat": mark("combat")}
# Commands and decisions as players read them (a test checks that every registered command
# is here: a new one would otherwise be shown in English)
COMMAND_WORDS = {
    "accept_challenge": mark("accept challenge"), "allocate": mark("allocate"),
    "answer_challenge": mark("answer challenge"), "break_test_order": mark("break test order"),
    "challenge": mark("challenge"), "commit_dice": mark("commit dice"),
    "consent_undo": mark("consent undo"),
    "consolidate": mark("consolidate"), "declare_assault": mark("declare assault"),
    "declare_charge": mark("declare charge"), "decline_challenge": mark("decline challenge"),
    "decline_redirect": mark("decline redirect"), "end_charges": mark("end charges"),
    "end_phase": mark("end phase"), "fight": mark("fight"),
    "fire_overwatch": mark("fire overwatch"), "flee_order": mark("flee order"),
    "grant_undo": mark("grant undo"), "hold_overwatch": mark("hold overwatch"),
    "join_unit": mark("join unit"), "leave_unit": mark("leave unit"),
    "measure": mark("measure"), "move": mark("move"),
    "move_charger": mark("move charger"), "overrun": mark("overrun"),
    "overwatch": mark("overwatch"), "pursue": mark("pursue"),
    "pursuit_order": mark("pursuit order"), "react": mark("react"),
    "redirect": mark("redirect"), "redirect_target": mark("redirect target"),
    "redo": mark("redo"), "reform": mark("reform"),
    "reform_order": mark("reform order"), "refuse_challenge": mark("refuse challenge"),
    "refuse_undo": mark("refuse undo"), "remaining_moves": mark("remaining moves"),
    "resolve_combat": mark("resolve combat"), "restrain": mark("restrain"),
    "reveal": mark("reveal dice"), "withheld": mark("reveal withheld"),
    "roll": mark("roll"), "shoot": mark("shoot"), "skip_reform": mark("skip reform"),
    "split_attacks": mark("split attacks"), "undo": mark("undo")}
ARG_WORDS = {
    "attacks": mark("attacks"), "character": mark("character"), "combat": mark("combat"),
    "face": mark("face"), "faces": mark("faces"), "facing": mark("facing"),
    "files": mark("files"), "first": mark("first"), "primary": mark("primary"),
    "reaction": mark("reaction"), "secondary": mark("secondary"), "split": mark("split"),
    "target": mark("target"), "toward": mark("toward"), "turn": mark("turn"),
    "unit": mark("unit"), "value": mark("value"), "x": mark("x"), "y": mark("y"),
    "kind": mark("kind"), "path": mark("path")}
# a move's kinds and the legs of its path (MOVE.*), as an option shows them
MOVE_WORDS = {"forward": mark("forward"), "march": mark("march"), "back": mark("back"),
              "sideways": mark("sideways"), "reform": mark("reform"), "wheel": mark("wheel"),
              "turn": mark("turn")}
REACTIONS = {"hold": mark("hold"), "flee": mark("flee"), "stand_and_shoot": mark("stand and shoot")}
SIDES = {"front": mark("front"), "right": mark("right flank"), "rear": mark("rear"),
         "left": mark("left flank")}


def describe(c: Command, game: Game) -> str:
    """An option as a player reads it: names, not ids."""
    units = names(game)
    args = c.to_dict()
    cmd = args.pop("cmd")
    name = tr(COMMAND_WORDS[cmd]) if cmd in COMMAND_WORDS else cmd.replace("_", " ")
    args.pop("by", None)
    if cmd == "end_phase":
        return tr("end phase: leave {phase}", phase=phase_name(game.state.phase))
    parts = []
    for k, v in args.items():
        if v in ("", None, 0, []) and (k != "files" or cmd == "move"):
            continue
        if isinstance(v, str) and v in units:
            v = units[v]
        elif k == "reaction" and v in REACTIONS:
            v = tr(REACTIONS[v])
        elif cmd == "move" and k in ("kind", "path"):
            v = _move_words(v)
        if isinstance(v, dict):
            v = ", ".join(f"{units.get(x, x)} {n}" for x, n in v.items())
        key = tr(ARG_WORDS[k]) if k in ARG_WORDS else k.replace("_", " ")
        parts.append(f"{key} {v}")
    return name + (": " + ", ".join(parts) if parts else "")


def _move_words(v: Any) -> str:
    """A move's kind, or its path as legs: ``forward 3", wheel -20°``."""
    if isinstance(v, str):
        return tr(MOVE_WORDS[v]) if v in MOVE_WORDS else v
    return ", ".join(f"{tr(MOVE_WORDS.get(leg, leg))} {format(n, 'g')}"
                     f"{'°' if leg in ('wheel', 'turn') else chr(34)}" for leg, n in v)


def names(game: Game) -> dict[str, str]:
    view = view_of(game.preset)
    return view.names(game.state) if view is not None else {}


def phase_name(phase: str) -> str:
    """A phase as players say it: ``turn.close_combat.reform`` -> ``close combat > reform``
    (each part as the rulebook's catalogue names it, in the players' language)."""
    parts = phase.removeprefix("turn.").split(".") if phase else []
    return " > ".join(tr(p).replace("_", " ") for p in parts if p) or tr("set-up")


# What `play` takes typed at its prompt, besides an option's number
WORDS = ("undo", "redo", "explain", "log", "head", "help", "quit")
# dice kinds and undo policies as the header tells them
# the same words as players of another language type them (tools/locale)
SPOKEN = {"undo": mark("undo"), "redo": mark("redo"), "explain": mark("explain"),
          "log": mark("log"), "head": mark("head"), "help": mark("help"), "quit": mark("quit")}
HELP = mark("""Type the number of an option to choose it (with manual dice: the faces you rolled,
such as "3 5" or "35"). Or one of:
  undo     take back the last step (the dice it rolled come out again when it is redone)
  redo     make the step just undone again
  explain  why the last outcome came out as it did: the rules and the arithmetic
  log      the whole game so far, step by step
  head     the code of the game as it stands (the head of the last step), to note down
  help     this text
  quit     leave; the game is saved, and "regiment play --resume GAME" takes it up again""")


def faces_typed(text: str) -> list[str]:
    """Dice as typed: face by face (``3 5 2``), or by counts of each face for a big pool
    (``3x6 2x1``: three sixes and two ones; the order of the dice does not matter to any
    roll); [] for anything else."""
    faces: list[str] = []
    for part in re.split(r"[\s,]+", text.strip()):
        counted = re.fullmatch(r"(\d{1,3})[x*\u0445\u00d7]([1-6])", part.lower())
        if counted:
            faces += [counted.group(2)] * int(counted.group(1))
        elif re.fullmatch(r"[1-6]+", part):
            faces += list(part)
        elif part:
            return []
    return faces
