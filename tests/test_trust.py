"""A log that holds against a cheater: the secret seed (DICE.SECRET), receipts (LOG.RECEIPT),
one writer a game (STORE.ONE_WRITER), and hostile or damaged input refused with a clear error,
each tried through the command line as a player runs it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from itertools import count
from pathlib import Path

import pytest

from regiment.core.errors import ConcurrencyConflict, TamperedLog
from regiment.core.game import Game
from regiment.core.record import step_heads
from regiment.core.scenario import load_scenario
from regiment.store import MemoryStore, SqliteStore, open_store
from regiment.tools.bot import choose
from regiment.tools.cli import main
from regiment.tools.receipts import Receipt, parse_receipt
from regiment.tools.verify import verify

from .conftest import EXAMPLES
from .test_play import Terminal, term  # noqa: F401 - the pseudo-terminal fixture

OLD = Path(__file__).parent / "data" / "v0.3.0"   # written by engine 0.3.0 (tests/data)
SEED = "5ec7e75eed"                               # ten hex digits: never in a hash by chance


def played(store, seed: str = SEED, turns: int = 1, game_id: str = "g", clock=None) -> Game:
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    scenario["seed"] = seed
    scenario["turns"] = turns
    game = Game.new(scenario, store=store, game_id=game_id,
                    **({"clock": clock} if clock else {}))
    while game.pending.kind != "over":
        game.submit(choose(game))
    return game


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# --- DICE.SECRET -----------------------------------------------------------------------------


def test_dice_secret_the_seed_is_in_nothing_made_from_the_log(tmp_path, capsys):
    """A seed given on the command line and one written in the scenario: neither is in the
    log, serve's lines, an export, a record, a replay, an inspection or the replay page."""
    scenario = (EXAMPLES / "ford_clash.toml").read_text(encoding="utf-8")
    assert 'seed = "5eed0001"' in scenario
    db = tmp_path / "g.db"
    proc = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "serve",
                           str(EXAMPLES / "ford_clash.toml"), "--seed", SEED, "--store", str(db)],
                          input='{"query": "state"}\n', capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and '"GameStarted"' in proc.stdout
    (tmp_path / "file.toml").write_text(scenario, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "play",
                           str(tmp_path / "file.toml"), "--store", str(db)], input="1\nquit\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    with SqliteStore(db) as store:
        games = store.games()
        assert len(games) == 2 and store.get_secret(games[0]) == bytes.fromhex(SEED)
        assert store.get_secret(games[1]) == bytes.fromhex("5eed0001")
    made = [proc.stdout, done.stdout, db.read_bytes()]
    for game in games:
        for args in (["export", str(db), "--game", game], ["record", "export", str(db),
                                                           "--game", game],
                     ["replay", str(db), "--game", game, "--json"],
                     ["inspect", str(db), "--game", game, "--json"],
                     ["replay", str(db), "--game", game, "--html", str(tmp_path / "p.html")]):
            code, out, err = cli(capsys, *args)
            assert code == 0, err
            made.append(out)
        made.append((tmp_path / "p.html").read_text(encoding="utf-8"))
    for text in made:
        data = text if isinstance(text, bytes) else text.encode()
        assert SEED.encode() not in data and b"5eed0001" not in data
    started = json.loads(proc.stdout.splitlines()[0])["events"][0]["data"]
    assert "seed" not in started["scenario"] and len(started["dice_commitment"]) == 64


def test_dice_secret_record_export_reveals_the_seed_only_when_asked(tmp_path, capsys):
    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        game = played(store)
    code, out, err = cli(capsys, "record", "export", str(db))
    assert code == 0 and SEED not in out
    header = json.loads(out.splitlines()[0])
    assert "seed" not in header["dice"] and "faces" in out       # the faces, not the seed
    code, out, err = cli(capsys, "record", "export", str(db), "--reveal-seed", "-o",
                         str(tmp_path / "r.record"))
    assert code == 0 and "REVEALS the dice seed" in err
    assert json.loads((tmp_path / "r.record").read_text().splitlines()[0])["dice"]["seed"] \
        == SEED
    # a copy of the log alone cannot reveal what it never held
    assert cli(capsys, "export", str(db), "-o", str(tmp_path / "g.jsonl"))[0] == 0
    code, out, err = cli(capsys, "record", "export", str(tmp_path / "g.jsonl"),
                         "--reveal-seed")
    assert code == 2 and "does not hold the dice seed" in err and out == ""
    # the revealed seed lets anyone check every die
    code, out, _ = cli(capsys, "verify", str(db), "--seed", SEED)
    assert code == 0 and "every die matches the revealed seed" in out
    assert game.dice is not None


def test_dice_secret_sqlite_keeps_seeds_beside_the_database_readable_by_its_owner(tmp_path):
    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        game = played(store, turns=1)
    secrets = tmp_path / "g.db.secrets"
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    tables = {r[0] for r in sqlite3.connect(db).execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "secrets" not in tables and bytes.fromhex(SEED) not in db.read_bytes()
    with SqliteStore(db) as store:        # another process takes the game up: it can roll
        again = Game.load(game.game_id, store)
        assert again.dice is not None and again.dice.commitment() == game.dice.commitment()
    shutil.copy(db, tmp_path / "handed-over.db")   # the database alone: read, not rolled on
    with SqliteStore(tmp_path / "handed-over.db") as store:
        loaded = Game.load(game.game_id, store)
        assert loaded.records[-1].hash == game.records[-1].hash
        assert store.get_secret(game.game_id) is None


def test_dice_secret_a_030_store_loads_verifies_and_says_its_seed_was_published(tmp_path,
                                                                                 capsys):
    old = tmp_path / "old"
    shutil.copytree(OLD, old)
    code, out, err = cli(capsys, "verify", str(old / "store.db"), "--game", "published")
    assert code == 0, err
    assert "every die matches the seed published in the log" in out
    assert "dice seed (0badc0de) was published in its own log by engine 0.3.0" in err
    # reading changed nothing; opened to write, its seeds leave the shared file for the file
    # beside it, and its log is as it was
    assert (old / "store.db").read_bytes() == (OLD / "store.db").read_bytes()
    assert not (old / "store.db.secrets").exists()
    with SqliteStore(old / "store.db") as store:
        assert store.get_secret("secret") is not None
        records = list(store.read("published"))
    secrets = old / "store.db.secrets"
    assert stat.S_IMODE(secrets.stat().st_mode) == 0o600
    tables = {r[0] for r in sqlite3.connect(old / "store.db").execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "secrets" not in tables
    original = [json.loads(line) for line in (OLD / "published.jsonl").read_text().splitlines()]
    assert [r.hash.hex() for r in records] == [r["hash"] for r in original]
    code, out, err = cli(capsys, "verify", str(old / "store.db"), "--game", "secret")
    assert code == 0 and "published" not in err
    code, out, err = cli(capsys, "verify", str(old / "logs"), "--game", "logfile")
    assert code == 0 and "was published" in err


def test_dice_secret_030_exports_and_records_still_verify_and_import(tmp_path, capsys):
    code, out, err = cli(capsys, "verify", str(OLD / "secret.jsonl"))
    assert code == 0 and "OK" in out
    assert "before exports had a closing line" in err and "receipt" in err
    # a record is read as the log it arrives at: verify and replay take it as they take a store
    code, out, err = cli(capsys, "verify", str(OLD / "secret.record"))
    assert code == 0 and "every die matches the revealed seed" in out, err
    code, out, err = cli(capsys, "replay", str(OLD / "published.record"))
    assert code == 0 and "The game ends" in out and "was published" in err
    for name in ("published", "secret"):
        db = tmp_path / f"{name}.db"
        code, out, err = cli(capsys, "record", "import", str(OLD / f"{name}.record"),
                             "--store", str(db))
        assert code == 0, err
        assert cli(capsys, "verify", str(db))[0] == 0


# --- LOG.RECEIPT -----------------------------------------------------------------------------


def test_log_receipt_verify_head_catches_a_cut_and_names_the_step(tmp_path, capsys):
    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        game = played(store)
    heads = step_heads(game.records)
    last = max(heads)
    code, out, _ = cli(capsys, "verify", str(db), "--head", heads[last].hex()[:10],
                       "--head", f"3:{heads[3].hex()}")
    assert code == 0 and "2 receipts held" in out
    # the cheater takes the last three steps off the store: it verifies alone...
    con = sqlite3.connect(db)
    con.execute("DELETE FROM events WHERE step > ?", (last - 3,))
    con.execute("UPDATE games SET records = (SELECT COUNT(*) FROM events), head = (SELECT hash "
                "FROM events ORDER BY seq DESC LIMIT 1)")
    con.commit()
    con.close()
    code, out, _ = cli(capsys, "verify", str(db))
    assert code == 0 and "no receipt given" in out
    # ...but not against the receipt the other player noted, in the store or re-exported
    code, out, _ = cli(capsys, "verify", str(db), "--head", f"{last}:{heads[last].hex()[:10]}")
    assert code == 1
    assert f"(step {last}) is not in this log: this log ends at step {last - 3}" in out
    assert cli(capsys, "export", str(db), "-o", str(tmp_path / "cut.jsonl"))[0] == 0
    code, out, _ = cli(capsys, "verify", str(tmp_path / "cut.jsonl"), "--head",
                       heads[last].hex()[:12])
    assert code == 1 and "is not in this log" in out
    code, out, _ = cli(capsys, "verify", str(tmp_path / "cut.jsonl"), "--head",
                       heads[last - 4].hex())
    assert code == 0                                      # an earlier receipt still holds
    # the cut game mailed as a record, closed anew: importing it with the receipt refuses it
    assert cli(capsys, "record", "export", str(db), "-o", str(tmp_path / "cut.record"))[0] == 0
    code, _, err = cli(capsys, "record", "import", str(tmp_path / "cut.record"), "--store",
                       str(tmp_path / "mine.db"), "--head", f"{last}:{heads[last].hex()[:10]}")
    assert code == 2 and "does not hold a receipt" in err and f"step {last}" in err
    assert not (tmp_path / "mine.db").exists()


def test_log_receipt_a_fork_and_a_head_at_another_step_are_caught():
    ticks = count()

    def clock() -> str:
        return f"2026-11-30T12:00:{next(ticks) % 60:02d}.000000Z"

    honest = played(MemoryStore(), clock=clock).records
    heads = step_heads(honest)
    # the loser rewrites the game from step 5 on (another choice, same dice), hashes intact
    ticks = count()
    scenario = load_scenario(EXAMPLES / "ford_clash.toml")
    scenario["seed"], scenario["turns"] = SEED, 1
    forked = Game.new(scenario, store=MemoryStore(), game_id="g", clock=clock)
    while forked.pending.kind != "over":
        bot = choose(forked)
        other = [c for c in forked.legal() if c.name not in ("undo", "redo") and c != bot]
        forked.submit(other[0] if len(forked.timeline.steps) >= 5 and other else bot)
    assert verify(forked.records).steps > 5
    assert verify(forked.records, receipts=[Receipt(heads[4].hex()[:10], 4)])
    with pytest.raises(TamperedLog, match=r"receipt \w+ \(step 20\) is not in this log"):
        verify(forked.records, receipts=[Receipt(heads[20].hex()[:10], 20)])
    with pytest.raises(TamperedLog, match="is step 5's head, but in this log it is step 4's"):
        verify(honest, receipts=[Receipt(heads[4].hex()[:10], 5)])
    inner = next(r for r in honest if r.step == 6 and r.hash != heads[6])
    with pytest.raises(TamperedLog, match="in the middle of step 6"):
        verify(honest, receipts=[Receipt(inner.hash.hex())])


def test_log_receipt_a_receipt_is_a_head_of_ten_hex_digits_or_more(capsys):
    assert parse_receipt("57:3FA9C0D1E2") == Receipt("3fa9c0d1e2", 57)
    assert parse_receipt("3fa9c0d1e2ff").step is None
    for bad in ("3fa9c0d1e", "57:", "zz9c0d1e2ab", "1:2:3fa9c0d1e2"):
        with pytest.raises(SystemExit) as exit_:
            main(["verify", "x.db", "--head", bad])
        assert exit_.value.code == 2
        assert "is not a receipt" in capsys.readouterr().err


def test_log_receipt_exports_close_and_a_cut_or_padded_export_is_refused(tmp_path, capsys):
    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        played(store)
    out = tmp_path / "g.jsonl"
    assert cli(capsys, "export", str(db), "-o", str(out))[0] == 0
    lines = out.read_text().splitlines()
    end = json.loads(lines[-1])
    assert end == {"end": True, "records": len(lines) - 1,
                   "head": json.loads(lines[-2])["hash"]}
    assert cli(capsys, "verify", str(out))[0] == 0
    step = json.loads(lines[-2])["step"]
    whole = [line for line in lines[:-1] if json.loads(line)["step"] < step]
    for name, text, says in (
            ("cut", whole, "the export is cut: it has no closing line"),
            ("short", [*whole, lines[-1]], "records were cut or added"),
            ("after", [*lines, lines[0]], "a line after the closing line")):
        (tmp_path / f"{name}.jsonl").write_text("\n".join(text) + "\n")
        code, _, err = cli(capsys, "verify", str(tmp_path / f"{name}.jsonl"))
        assert code == 2 and says in err and "Traceback" not in err, name
        code, _, err = cli(capsys, "record", "export", str(tmp_path / f"{name}.jsonl"))
        assert code == 2 and says in err


def test_log_receipt_serve_answers_carry_the_head(tmp_path):
    db = tmp_path / "g.db"
    proc = subprocess.Popen([sys.executable, "-m", "regiment.tools.cli", "serve",
                             str(EXAMPLES / "ford_clash.toml"), "--store", str(db)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    hello = json.loads(proc.stdout.readline())
    proc.stdin.write(json.dumps(hello["pending"]["legal"][0]) + "\n")
    proc.stdin.write('{"cmd": "fly", "by": "red"}\n')
    proc.stdin.flush()
    moved, refused = json.loads(proc.stdout.readline()), json.loads(proc.stdout.readline())
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    with SqliteStore(db) as store:
        records = list(store.read(hello["game_id"]))
    heads = step_heads(records)
    assert hello["head"] == heads[0].hex() and moved["head"] == heads[1].hex()
    assert "error" in refused and refused["head"] == moved["head"]


def test_log_receipt_play_shows_a_head_code_at_each_turn_end(term, tmp_path):  # noqa: F811
    db = tmp_path / "t.db"
    t = term("play", str(EXAMPLES / "ford_clash.toml"), "--store", str(db))
    t.expect(r"red> ")
    t.type("head")
    t.expect(r"The game stands: head code 0:[0-9a-f]{10}")
    for _ in range(200):
        t.type("1")
        # a prompt begins a line ("red> ", "red (Enter: 1)> "); phases read "charge > reform"
        m = t.expect(r"(?m)(A turn ends: head code (\d+):([0-9a-f]{10}))|"
                     r"(^\w+(?: \(Enter: 1\))?> )")
        if m.group(1):
            break
    else:
        raise AssertionError("no turn ended in 200 moves")
    step, code = m.group(2), m.group(3)
    t.expect(r"(?m)^\w+(?: \(Enter: 1\))?> ")
    t.type("quit")
    assert t.close() == 0
    game = open_store(db).games()[-1]
    assert main(["verify", str(db), "--game", game, "--head", f"{step}:{code}"]) == 0


# --- STORE.ONE_WRITER ------------------------------------------------------------------------

HOLDER = """
import sys, time
from regiment.store import open_store
store = open_store(sys.argv[1])
store.claim("g")
print("holding", flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("kind", ["g.db", "logs"])
def test_store_one_writer_a_second_process_is_refused_and_a_killed_one_frees_the_game(
        kind, tmp_path, capsys):
    path = tmp_path / kind
    with open_store(path) as store:
        played(store)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
        with open_store(path) as store, pytest.raises(ConcurrencyConflict):
            Game.load("g", store).store.claim("g")  # type: ignore[attr-defined]
        code, _, err = cli(capsys, "play", "--resume", "g", "--store", str(path))
        assert code == 2 and ("another process" in err or "another writer" in err), err
        code, out, _ = cli(capsys, "verify", str(path))     # reading needs no lock
        assert code == 0 and "OK" in out
    finally:
        os.kill(holder.pid, signal.SIGKILL)                  # a crash, not a clean exit
        holder.wait()
    deadline = time.monotonic() + 5
    with open_store(path) as store:
        while True:
            try:
                store.claim("g")
                break
            except ConcurrencyConflict:
                assert time.monotonic() < deadline, "the dead writer still holds the game"
                time.sleep(0.05)


# --- hostile and damaged input ---------------------------------------------------------------


def test_hostile_bytes_and_arguments_get_a_clear_error_and_exit_2(tmp_path, capsys):
    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        played(store)
    assert cli(capsys, "export", str(db), "-o", str(tmp_path / "g.jsonl"))[0] == 0
    assert cli(capsys, "record", "export", str(db), "-o", str(tmp_path / "g.record"))[0] == 0
    export = (tmp_path / "g.jsonl").read_bytes()
    (tmp_path / "bad.jsonl").write_bytes(export[:200] + b"\xff\xfe" + export[202:])
    record = (tmp_path / "g.record").read_bytes()
    (tmp_path / "bad.record").write_bytes(record[:100] + b"\xc3\x28" + record[102:])
    deep = "preset = 'fantasy8'\nx = " + "[" * 5000 + "]" * 5000 + "\n"
    (tmp_path / "deep.toml").write_text(deep)
    (tmp_path / "shallow.toml").write_text("preset = 'fantasy8'\nx = " + "[" * 12 + "]" * 12)
    (tmp_path / "notastore").write_text("hello")
    cases = [
        (["verify", str(tmp_path / "bad.jsonl")], "not UTF-8 text"),
        (["record", "import", str(tmp_path / "bad.record"), "--store", str(tmp_path / "i.db")],
         "not UTF-8 text"),
        (["serve", str(tmp_path / "deep.toml")], "nested deeper than 8"),
        (["play", str(tmp_path / "shallow.toml"), "--store", str(tmp_path / "p.db")],
         "nested deeper than 8"),
        (["verify", str(db), "--game", "../../etc/passwd"], "a game id is"),
        (["verify", str(tmp_path / "notastore")], "is a file that is not a store"),
        (["replay", str(tmp_path / "missing.jsonl")], "cannot read"),
    ]
    for args, says in cases:
        code, _, err = cli(capsys, *args)
        assert code == 2 and says in err and "Traceback" not in err, (args, err)
    for args, says in ((["verify", str(db), "--seed", "zz"], "is not a hex seed"),
                       (["simulate", str(EXAMPLES / "ford_clash.toml"), "-n", "-1"],
                        "the number of games is 1 to 10,000,000, not -1"),
                       (["odds", "break", "99"], "Leadership is 1 to 10, not 99"),
                       (["odds", "attacks", "100000000"], "the number of attacks is 0 to 500")):
        with pytest.raises(SystemExit) as exit_:
            main(args)
        assert exit_.value.code == 2 and says in capsys.readouterr().err
    for args, says in ((["verify", str(db), "--game", ""], "a game id is"),
                       (["replay", ""], "no path given"),
                       (["export", str(db), "-o", str(tmp_path)], "is a directory")):
        code, _, err = cli(capsys, *args)
        assert code == 2 and says in err
    assert not (tmp_path / "i.db").exists()                 # a refused import wrote nothing


def test_hostile_a_demo_on_a_log_directory_then_verify_it(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli(capsys, "demo", "--store", "dm", "--seed", "0004")[0] == 0
    assert Path("dm").is_dir()
    code, out, err = cli(capsys, "verify", "dm", "--seed", "0004")
    assert code == 0 and "every die matches the revealed seed" in out, err


def test_hostile_a_damaged_sqlite_page_is_corrupt_never_a_shorter_game(tmp_path, capsys):
    db = tmp_path / "g.db"
    with SqliteStore(db) as store:
        game = played(store, turns=2)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    # the events of the last step vanish as if their page were lost, the games row intact
    con = sqlite3.connect(db)
    con.execute("DELETE FROM events WHERE seq >= ?", (len(game.records) - 3,))
    con.commit()
    con.close()
    code, _, err = cli(capsys, "verify", str(db))
    assert code == 2 and " record " in err and "games row says" in err
    # a damaged page: SQLite's own check refuses the file
    data = bytearray(db.read_bytes())
    page = 4096
    data[2 * page + 8] ^= 0xFF
    db.write_bytes(bytes(data))
    code, _, err = cli(capsys, "verify", str(db))
    assert code == 2 and str(db) in err and "Traceback" not in err


@pytest.fixture
def small_disk(tmp_path):
    """A real file system of 2 MiB (tmpfs), mounted for the test: the disk that fills up."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Take every free byte of ``disk``; the file returned gives them back when removed."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, b"x" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


@pytest.mark.parametrize("kind", ["g.db", "logs"])
def test_hostile_a_full_disk_says_so_loses_nothing_and_reads_still_work(kind, small_disk,
                                                                        capsys):
    from regiment.core.errors import StoreError

    path = small_disk / kind
    store = open_store(path)
    game = Game.new(load_scenario(EXAMPLES / "mill_race.toml"), store=store, game_id="g")
    game.submit(choose(game))
    filler = fill(small_disk)
    refused = None
    for _ in range(200):
        before = (game.version, game.head, game.state)
        try:
            game.submit(choose(game))
        except StoreError as exc:
            refused = str(exc)
            assert (game.version, game.head, game.state) == before   # nothing half done
            break
    assert refused is not None and "the disk is full" in refused
    # read-only commands on the full disk: they work, or say why (never a crash)
    for args in (["verify", str(path)], ["replay", str(path)], ["inspect", str(path)]):
        code, _out, err = cli(capsys, *args)
        assert code == 0 or (code == 2 and "full" in err), (args, err)
        assert "Traceback" not in err
    code, _, err = cli(capsys, "export", str(path), "-o", str(small_disk / "g.jsonl"))
    assert code == 0 or (code == 2 and "the disk is full; nothing was written" in err), err
    assert not (small_disk / "g.jsonl").exists() or code == 0     # no half export left
    filler.unlink()
    kept = game.version
    game.submit(choose(game))                          # room again: the game goes on
    assert game.version > kept
    store.close()
    with open_store(path) as again:
        assert verify(list(again.read("g"))).records == game.version
