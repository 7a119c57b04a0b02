"""The hostile-input rows of ``make faults`` (issue 55): commands with hostile numbers,
strings, lists and paths, each refused with the CPU it cost beside a real step's; scenarios
with hostile numbers and geometry; SQLite records flipped byte by byte; log files with frames
duplicated, swapped or with their CRC word hit, mended by ``repair``."""

from __future__ import annotations

import math
import random
import shutil
import statistics
import time
import tomllib
from pathlib import Path
from typing import Any

from regiment.core.errors import InvalidScenario, RegimentError
from regiment.core.game import Game
from regiment.core.scenario import parse_scenario
from regiment.store import LogFileStore, MemoryStore
from regiment.tools.bot import choose

from . import faults

NUMBERS = [math.nan, math.inf, -math.inf, 10**400, -2**70, 1e308, 1e6 + 1, 2**63]
WALL = [[30.0, 14.0], [42.0, 14.0], [42.0, 15.0], [30.0, 15.0]]


def hostile_command(rng: random.Random, unit: str) -> dict[str, Any]:
    """A move a hostile client might send: a hostile number in any field, a long list or
    string, or a path of many (or no-length) legs ending at a wall."""
    move: dict[str, Any] = {"cmd": "move", "by": "red", "unit": unit}
    pick = rng.randrange(6)
    if pick == 0:
        move[rng.choice(["x", "y", "facing"])] = rng.choice(NUMBERS)
        move.setdefault("x", 1.0)
        move.setdefault("y", 1.0)
    elif pick == 1:
        move["path"] = [["forward", 0.01]] * rng.choice([17, 100, 1000, 1161])
    elif pick == 2:
        move["path"] = [["forward", rng.choice([0, 0.0, -0.0])], ["forward", 30]]
    elif pick == 3:
        move["path"] = [["wheel", rng.choice(NUMBERS)]]
    elif pick == 4:
        move["unit"] = "u" * rng.choice([5000, 100_000])
    else:
        move["files"] = rng.choice(NUMBERS)
    return move


def commands(n: int, rng: random.Random) -> faults.Tally:
    """Each hostile command refused, the game unchanged, its CPU measured; the worst beside
    the median CPU of a real step of the same game (a move checked against a wall)."""
    tally = faults.Tally("hostile commands: numbers, lists, paths (issue 55)")
    raw = tomllib.loads((faults.ROOT / "examples" / "border_patrol.toml").read_text())
    raw["table"]["blocking"] = [WALL]   # every path checked against a wall
    game = Game.new(parse_scenario(raw), store=MemoryStore())
    real: list[float] = []
    while game.pending.kind != "over" and len(real) < 40:
        command = choose(game)
        start = time.process_time()
        game.submit(command)
        real.append(time.process_time() - start)
        if game.state.phase.endswith("remaining"):
            break
    unit = next(u.id for u in game.state.units.values() if u.player == game.state.player)
    # a refusal lists what is legal instead: worked out once a state, as the step that made
    # the state works it out for its decision (a real step's cost), so not counted again
    game.legal()
    worst = 0.0
    for _ in range(n):
        move = {**hostile_command(rng, unit), "by": game.state.player}
        before = (game.version, game.head)
        start = time.process_time()
        try:
            game.submit(move)
            tally.add("lost", f"accepted: {str(move)[:80]}")
            continue
        except RegimentError:
            pass
        except Exception as exc:
            tally.add("crashed", f"{type(exc).__name__}: {exc}")
            continue
        worst = max(worst, time.process_time() - start)
        tally.add("refused" if (game.version, game.head) == before else "lost")
    step = statistics.median(real)
    tally.measured = (f"worst refused {worst * 1000:.2f} ms CPU, a real step "
                      f"{step * 1000:.2f} ms ({worst / step:.1f}x)")
    return tally


def scenarios(n: int, rng: random.Random) -> faults.Tally:
    """Scenarios with a hostile number or polygon: each refused as InvalidScenario."""
    tally = faults.Tally("hostile scenarios: numbers, polygons (issue 55)")
    base = {"preset": "fantasy8", "first": "red", "players": [{"id": "red"}, {"id": "blue"}],
            "units": [{"id": "a", "player": "red", "models": 10, "position": [20, 10],
                       "profile": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3,
                                   "A": 1, "Ld": 7}}]}
    bow_tie = [[30, 20], [40, 30], [40, 20], [30, 30]]
    for _ in range(n):
        raw = {**base, "table": {"width": 72.0, "depth": 48.0}}
        pick = rng.randrange(5)
        if pick == 0:
            raw["table"][rng.choice(["width", "depth"])] = rng.choice(NUMBERS)
        elif pick == 1:
            raw["table"][rng.choice(["hard_cover", "soft_cover", "blocking", "hills"])] = [
                bow_tie]
        elif pick == 2:
            raw["table"]["hard_cover"] = [[[0, 0], [1, 0], [rng.choice(NUMBERS), 1]]]
        elif pick == 3:
            raw["table"]["blocking"] = [[[1, 1], [2, 1], [1, 2]]] * rng.choice([33, 7500])
        else:
            raw["units"] = [{**base["units"][0], "facing": rng.choice(NUMBERS)}]
        try:
            parse_scenario(raw)
            tally.add("lost", f"accepted: {str(raw['table'])[:80]}")
        except InvalidScenario:
            tally.add("refused")
        except Exception as exc:
            tally.add("crashed", f"{type(exc).__name__}: {exc}")
    return tally


def record_flips(work: Path, n: int, rng: random.Random) -> faults.Tally:
    """Bytes of a game's SQLite records flipped: refused at reading, or harmless; never read
    as another log that only verify would catch (``caught`` is then a fault)."""
    path, original = faults.artefacts(work / "records")["sqlite"]
    data = path.read_bytes()
    first = data.find(b"\x88\xa2at")
    tally = faults.Tally("byte flips in SQLite records: read as another log (issue 55)")
    seen = faults.Tally("")
    for at in rng.sample(range(first, len(data)), min(n, len(data) - first)):
        trial = work / f"record-flip-{at}"
        trial.mkdir()
        (trial / path.name).write_bytes(faults._flip(data, at, rng))
        faults._judge(seen, faults._reader("sqlite", trial / path.name), original)
        shutil.rmtree(trial)
    tally.counts = dict(seen.counts)
    if seen.counts["caught"]:   # read without an error: what every reader must refuse
        tally.counts["lost"] += seen.counts.pop("caught")
        tally.counts["caught"] = 0
        tally.examples.append(f"{tally.name}: lost: read as another log")
    tally.examples += seen.examples
    return tally


def repairs(work: Path) -> faults.Tally:
    """A log file's frames duplicated, swapped, with a CRC word or the last frame hit:
    ``repair`` keeps every record its hash chain proves (intact), or refuses."""
    from regiment.store.logfile import HEADER, MAGIC
    from regiment.store.salvage import repair

    tally = faults.Tally("repair: frames duplicated, swapped, CRC word hit (issue 55)")
    folder = work / "repair"
    with LogFileStore(folder) as store:
        original = list(faults.play(store, turns=1).records)
    data = (folder / "g.rlog").read_bytes()
    offs, off = [], len(MAGIC)
    while off < len(data):
        offs.append(off)
        word, _ = HEADER.unpack_from(data, off)
        off += HEADER.size + (word & 0x7FFFFFFF)
    offs.append(len(data))
    for k in range(0, len(offs) - 3, max(1, (len(offs) - 3) // 12)):
        a, b, c = offs[k], offs[k + 1], offs[k + 2]
        crc = bytearray(data)
        crc[a + 5] ^= 0x20
        for changed in (data[:b] + data[a:b] + data[b:], data[:a] + data[b:c] + data[a:b]
                        + data[c:], bytes(crc)):
            trial = work / f"repair-{k}-{len(changed)}-{changed[a + 5]}"
            trial.mkdir(exist_ok=True)
            (trial / "g.rlog").write_bytes(changed)
            try:
                with LogFileStore(trial) as store:
                    repair(store, "g")
                    got = list(store.read("g"))
                tally.add("intact" if got == original else "lost",
                          f"frame {k}: {len(got)} of {len(original)} kept")
            except RegimentError:
                tally.add("refused")
            except Exception as exc:
                tally.add("crashed", f"{type(exc).__name__}: {exc}")
            shutil.rmtree(trial)
    return tally


def run(scale: int, rng: random.Random, work: Path) -> list[faults.Tally]:
    return [commands(60 * scale, rng), scenarios(40 * scale, rng),
            record_flips(work, 60 * scale, rng), repairs(work)]
