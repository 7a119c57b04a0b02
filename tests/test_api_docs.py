"""docs/api.md runs as written: its Python blocks, in order, in one namespace, in a folder of
their own (they make a store there)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_api_reference_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    found = blocks()
    assert len(found) >= 10
    namespace: dict[str, object] = {"__name__": "api_doc"}
    for i, code in enumerate(found, 1):
        try:
            exec(compile(code, f"docs/api.md block {i}", "exec"), namespace)
        except Exception as exc:  # the block, named, and why
            raise AssertionError(f"docs/api.md block {i} fails: {exc!r}\n{code}") from exc
