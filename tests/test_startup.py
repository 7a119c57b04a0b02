"""Start-up: a command imports what it uses (issue 15). ``--help`` and ``odds`` need no
rulebook, no geometry (numpy, shapely), no store and no structlog; a rulebook is loaded when a
game or a log of it first needs it, and not before."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("numpy", "shapely", "structlog", "transitions", "regiment.store.sqlite",
         "regiment.phases.fantasy.preset", "regiment.phases.skirmish.preset")


def loaded_after(*argv: str) -> dict[str, bool]:
    code = (f"import sys, contextlib, io; from regiment.tools.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try: main({list(argv)!r})\n"
            f"    except SystemExit: pass\n"
            f"print(__import__('json').dumps({{m: m in sys.modules for m in {HEAVY!r}}}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_help_and_odds_import_no_rulebook_geometry_store_or_logging():
    for argv in (["--help"], ["odds", "break", "7"], ["odds", "sweep"]):
        assert not any(loaded_after(*argv).values()), (argv, loaded_after(*argv))


def test_a_rulebook_loads_when_a_log_of_it_is_read(tmp_path):
    from regiment.tools.cli import main

    db = tmp_path / "g.db"
    assert main(["demo", "--store", str(db), "--seed", "1"]) == 0
    seen = loaded_after("verify", str(db))
    assert seen["regiment.phases.fantasy.preset"] and not seen["regiment.phases.skirmish.preset"]


def test_reading_a_log_imports_no_shapely_nor_numpy(tmp_path):
    """A log's story is a fold of its events: no rule is run, no shape asked, and shapely
    (numpy under it), a third of the start-up, is imported only when a shape is asked."""
    from regiment.tools.cli import main

    db = tmp_path / "g.db"
    assert main(["demo", "--store", str(db), "--seed", "1"]) == 0
    seen = loaded_after("replay", "--store", str(db))
    assert seen["regiment.phases.fantasy.preset"]
    assert not seen["shapely"] and not seen["numpy"]


def test_the_fields_registered_for_later_are_the_schemas_own():
    import regiment.phases as phases
    from regiment.phases.fantasy import scenario as fantasy
    from regiment.phases.skirmish import scenario as skirmish

    assert phases.FANTASY_FIELDS == fantasy.FIELDS
    assert phases.SKIRMISH_FIELDS == skirmish.FIELDS
