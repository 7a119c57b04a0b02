"""The README's tour, then its continuation in docs/tour.md, run exactly as printed there,
after ``make demo``, in a folder of its own.

Each ``$ `` line of the tour's code blocks is a command; the lines under it are what it shows.
``...`` stands for text left out, inside a line or as a line of its own. A line that ends a
prompt (``red> 1``, ``red (Enter: 1)>``, ``Roll 2D6 ...): 6 5``) is typed at that prompt: the
test feeds what follows the prompt to the command, and checks the prompt was shown. Output is
compared with runs of white space made one space (the terminal wraps lines where it likes).
A command that ends ``# exits 2`` is a mistake shown on purpose: it must exit with that status.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"^(?P<prompt>(?:\S+|\S+ \(Enter: 1\))>)(?: (?P<typed>.*))?$")
ROLL = re.compile(r"^(?P<prompt>Roll \d+D6 .*): (?P<typed>[1-6][1-6 ]*|[a-z]+)$")


def tour() -> list[tuple[str, list[str]]]:
    """(command, the lines shown under it) for each ``$`` line of the tour, in order: the
    README's section, then docs/tour.md, which goes on from where it stops."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## A tour")
    return commands(text[start:text.index("\n## ", start + 1)]) + \
        commands((ROOT / "docs" / "tour.md").read_text(encoding="utf-8"))


def commands(section: str) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    # a fence with a language (```sh) shows commands for other machines: not run here
    for info, block in re.findall(r"```(\w*)\n(.*?)```", section, flags=re.S):
        if info:
            continue
        for line in block.splitlines():
            if line.startswith("$ "):
                out.append((line[2:], []))
            elif out:
                out[-1][1].append(line)
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


def expected(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the fragments to find in order, the lines typed)."""
    fragments: list[str] = []
    typed: list[str] = []
    for line in lines:
        m = PROMPT.match(line) or ROLL.match(line)
        if m:
            typed.append(m.group("typed") or "")
            line = m.group("prompt")
        fragments += [flat(part) for part in line.split("...") if flat(part)]
    return fragments, typed


def test_the_tour_is_parsed_as_the_reader_sees_it():
    steps = tour()
    assert len(steps) >= 20
    play = next(lines for command, lines in steps if " play " in command)
    _, typed = expected(play)
    assert typed == ["1", "1", "3", "", "6 5", "undo", "1", "1 1", "quit"]


@pytest.mark.parametrize("command,lines", tour(), ids=[c for c, _ in tour()])
def test_the_readme_tour_runs_as_written(after_demo: Path, command: str, lines: list[str]):
    fragments, typed = expected(lines)
    exits = re.search(r"#\s*exits (\d+)\s*$", command)
    done = subprocess.run(shlex.split(command, comments=True), cwd=after_demo,
                          capture_output=True, text=True, timeout=300,
                          input="\n".join(typed) + "\n" if typed else None)
    assert done.returncode == (int(exits.group(1)) if exits else 0), \
        f"{command}: {done.stderr[-2000:]}"
    if exits:   # a mistake is told in words, never as a traceback
        assert "Traceback" not in done.stderr and done.stderr.strip(), done.stderr
    shown = flat(done.stdout + "\n" + done.stderr)   # a terminal shows both
    at = 0
    for fragment in fragments:
        found = shown.find(fragment, at)
        assert found >= 0, (f"{command}: not shown (in this order): {fragment!r}\n\n"
                            f"{shown[at:at + 3000]}")
        at = found + len(fragment)


def test_the_readme_and_docs_count_their_files_lines_truly():
    """Where the README or a page of docs/ says how long a file is (``examples/client.py``,
    218 lines), the file is that long; "about" allows a tenth either way (the README said 191
    lines of a client grown to 218, and 150 of a duel grown to 222)."""
    said = re.compile(r"(?:`(?P<a>[\w/.]+)`, (?P<about_a>about )?(?P<n_a>\d+) lines)|"
                      r"(?:(?P<about_b>about )?(?P<n_b>\d+) lines \(`(?P<b>[\w/.]+)`)")
    claims = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for m in said.finditer(" ".join(page.read_text(encoding="utf-8").split())):
            path, about, n = (m["a"], m["about_a"], m["n_a"]) if m["a"] else (
                m["b"], m["about_b"], m["n_b"])
            length = len((ROOT / path).read_text(encoding="utf-8").splitlines())
            claims.append((page.name, path, int(n), length))
            assert (abs(length - int(n)) <= int(n) / 10 if about else length == int(n)), (
                page.name, path, n, length)
    assert {c[1] for c in claims} >= {"examples/client.py", "tests/duel.py"}, claims
