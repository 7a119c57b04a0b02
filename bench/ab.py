"""``make bench-ab REV=...``: the bench of a git revision beside the working tree's, interleaved.

Each round runs revision A's own ``bench/bench.py`` against A's code, then the working tree's
against the working tree's, so that the two see the same machine at nearly the same moment (the
machines here are noisy; figures minutes apart are not comparable). A's code is taken with
``git archive`` into a temporary folder and imported through a tree of links named
``regiment``, ahead of the installed package; both use this virtual environment's libraries.

For every line both benches print, the table gives each side's median over the rounds (a
figure's first number, and its ratio to its floor where it has one), their spread (min-max),
and B / A. A figure is faster in B when B / A is above 1 for rates (per second) and below 1 for
times and ratios.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NUMBER = re.compile(r"(\d[\d,]*\.?\d*)")
RATIO = re.compile(r"ratio (\d+\.?\d*)x")


def checkout(rev: str, into: Path) -> Path:
    """Revision ``rev``'s files in ``into``, and a package tree that imports them."""
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    pkg = into / ".pkg" / "regiment"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name in ("core", "phases", "store", "tools"):
        (pkg / name).symlink_to(into / name)
    # a rulebook package of its own in that revision (phases/fantasy) needs no link: it is
    # a folder of phases
    return into / ".pkg"


def run(bench: Path, path: Path | None, quick: bool) -> str:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    args = [sys.executable, str(bench), *(["--quick"] if quick else [])]
    done = subprocess.run(args, capture_output=True, text=True, env=env, cwd=bench.parent,
                          timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"{bench} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def figures(text: str) -> dict[str, tuple[float, float | None]]:
    """Each figure line's label -> (its first number, its ratio if it has one)."""
    out: dict[str, tuple[float, float | None]] = {}
    section = ""
    for line in text.splitlines():
        if not line.startswith(" "):
            section = line.split("(")[0].strip()
            continue
        label, _, rest = line.strip().partition(":")
        numbers = NUMBER.findall(rest)
        if not numbers:
            continue
        ratio = RATIO.search(rest)
        out[f"{section} / {label.strip()}"] = (float(numbers[0].replace(",", "")),
                                               float(ratio.group(1)) if ratio else None)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("rev", help="the git revision to compare with (A); B is the working tree")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="the benches' smaller sizes")
    args = p.parse_args(argv)
    runs: dict[str, list[dict[str, tuple[float, float | None]]]] = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as tmp:
        path = checkout(args.rev, Path(tmp))
        for n in range(args.rounds):
            print(f"round {n + 1} of {args.rounds}", file=sys.stderr)
            runs["A"].append(figures(run(Path(tmp) / "bench" / "bench.py", path, args.quick)))
            runs["B"].append(figures(run(ROOT / "bench" / "bench.py", None, args.quick)))
    print(f"A = {args.rev}, B = the working tree; medians of {args.rounds} interleaved rounds "
          "(min-max)")
    print(f"{'figure':64} {'A':>22} {'B':>22} {'B / A':>7}")
    for label in runs["B"][0]:
        if not all(label in r for side in runs.values() for r in side):
            continue
        for k, what in ((0, ""), (1, " (ratio)")):
            a = [r[label][k] for r in runs["A"]]
            b = [r[label][k] for r in runs["B"]]
            if None in a or None in b:
                continue
            ma, mb = statistics.median(a), statistics.median(b)  # type: ignore[type-var]
            print(f"{(label + what)[:64]:64} {_spread(ma, a):>22} {_spread(mb, b):>22} "
                  f"{mb / ma if ma else float('nan'):>7.2f}")
    return 0


def _spread(median: float, values: list) -> str:
    return f"{_num(median)} ({_num(min(values))}-{_num(max(values))})"


def _num(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.3g}"


if __name__ == "__main__":
    raise SystemExit(main())
