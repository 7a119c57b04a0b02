"""docs/learning.md runs as written: its Python blocks in order, in one namespace, in a folder
of their own; what a ``print`` shows is the comment line under it; the log a block writes is
verified by ``regiment verify`` as the page says; the training script runs where sb3-contrib
is installed (it needs PyTorch, which ``make test`` does not install)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "learning.md"

pytest.importorskip("pyspiel")


def blocks(fence: str) -> list[str]:
    return re.findall(rf"```{fence}\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def shown(code: str) -> list[str]:
    """The comment lines that stand right under a print: what it shows."""
    lines = code.splitlines()
    return [b[2:] for a, b in itertools.pairwise(lines)
            if a.lstrip().startswith("print(") and b.startswith("# ")]


def test_the_learning_page_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    found = blocks("python")
    assert len(found) >= 6
    namespace: dict[str, object] = {"__name__": "learning_doc"}
    for i, code in enumerate(found, 1):
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(code, f"docs/learning.md block {i}", "exec"), namespace)
        except Exception as exc:  # the block, named, and why
            raise AssertionError(f"docs/learning.md block {i} fails: {exc!r}\n{code}") from exc
        text = out.getvalue()
        for line in shown(code):
            if "..." in line:
                assert all(part in text for part in line.split("...")), (i, line, text)
            else:
                assert line in text.splitlines(), (i, line, text)
    done = subprocess.run([sys.executable, "-m", "regiment.tools.cli", "verify", "learner.db",
                           "--game", "learner-1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "every outcome re-derived" in done.stdout, done.stdout


@pytest.mark.skipif(importlib.util.find_spec("sb3_contrib") is None,
                    reason="sb3-contrib (and PyTorch) not installed: make test installs neither")
def test_the_training_script_runs(tmp_path: Path):   # pragma: no cover - where sb3 is
    script = tmp_path / "train.py"
    script.write_text(blocks("py")[0], encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    assert re.search(r"won \d+ of 20 against the rule bot", done.stdout)
