"""The README and the pages of docs/ link to one another: every relative link names a file
that is there, and every ``#anchor`` a heading of the page it names (GitHub's anchors: the
heading in lower case, its punctuation dropped, its spaces made hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    out = set()
    for heading in re.findall(r"^#+ (.+)$", text, flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_relative_link_of_the_readme_and_docs_is_there():
    broken = []
    for page in pages():
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue   # (an address on the web)
            path, _, anchor = target.partition("#")
            named = (page.parent / path).resolve() if path else page
            if not named.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif anchor and named.suffix == ".md" and anchor not in anchors(named):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert not broken, broken
    assert len(pages()) > 10
