"""The README's game-server example, run as written after ``make demo``: the server in the
background, the example client, then the ``verify`` command the client printed (the README
shows it with its seed and key elided, as they are new in every game)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import time
from pathlib import Path

import httpx

from .test_readme import ROOT, expected, flat


def example() -> list[tuple[str, list[str]]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## A game server"):text.index("## Command line")]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S)
    assert block is not None
    out: list[tuple[str, list[str]]] = []
    for line in block.group(1).splitlines():
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
    return out


def shows(command: str, text: str, lines: list[str]) -> None:
    fragments, _ = expected(lines)
    shown, at = flat(text), 0
    for fragment in fragments:
        found = shown.find(fragment, at)
        assert found >= 0, f"{command}: not shown: {fragment!r}\n\n{shown[at:at + 2000]}"
        at = found + len(fragment)


def test_the_readme_game_server_example_runs_as_written(after_demo: Path):
    (serve, serve_shows), (client, client_shows), (check, check_shows) = example()
    assert serve.endswith(" &") and "..." in check
    # the key goes to the user's configuration folder: here, one of the test's own
    env = {**os.environ, "XDG_CONFIG_HOME": str(after_demo / ".config")}
    server = subprocess.Popen(shlex.split(serve[:-2]), cwd=after_demo, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert server.stdout is not None
        shows(serve, server.stdout.readline(), serve_shows)
        for _ in range(200):
            try:
                httpx.get("http://127.0.0.1:8000/key", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        done = subprocess.run(shlex.split(client), cwd=after_demo, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0 and not done.stderr, done.stdout + done.stderr
        shows(client, done.stdout, client_shows)
        told = done.stdout.strip().splitlines()[-1].split()
        # the command the client printed, typed as it is (after make demo: .venv/bin/regiment)
        assert told[:3] == [".venv/bin/regiment", "verify", "game.jsonl"]
        assert check.split()[:3] == told[:3]   # the README runs that one
        done = subprocess.run(told, cwd=after_demo, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        shows(check, done.stdout, check_shows)
        key = after_demo / ".config" / "regiment" / "server.key"
        assert key.stat().st_mode & 0o777 == 0o600
        assert key.parent.stat().st_mode & 0o777 == 0o700
        assert not (after_demo / "regiment-server.key").exists()
    finally:
        server.terminate()
        server.wait(10)


def test_server_limits_a_key_made_in_a_checkout_is_ignored_by_git(tmp_path):
    """Should a server still be given a key file inside the checkout, git leaves it out."""
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True).returncode:
        import pytest

        pytest.skip("not a git checkout")
    for name in ("regiment-server.key", "server.key", "deploy/prod.key"):
        done = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", name])
        assert done.returncode == 0, f"{name} would be offered for commit"
