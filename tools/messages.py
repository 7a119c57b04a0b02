"""The narration's catalogues: extract each package's messages with Babel, bring its Russian
catalogue (``locale/ru.po``) up to date (``make messages``), and say what is missing or wrong
in it (the completeness test, ``tests/test_messages.py``).

A translation must keep its message's fields (``{unit}``) and every rule ID and page citation
(``SK.SWEEP``, ``S4``, ``[G]``) exactly: players read the same IDs in both languages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {"tr": None, "ntr": (1, 2), "mark": None}
# the packages whose messages are translated (each keeps locale/ru.po)
PACKAGES = {"core": ROOT / "core", "common": ROOT / "phases" / "common",
            "fantasy": ROOT / "phases" / "fantasy", "skirmish": ROOT / "phases" / "skirmish",
            "tools": ROOT / "tools"}
FIELD = re.compile(r"\{(\w+)[^}]*\}")
CITED = re.compile(r"\b[A-Z]{2,6}\.[A-Z][A-Z_]+\b|\bS\d\b|\[G\]|\bp\.\s?\d+")


def extract(folder: Path) -> Catalog:
    """Every message the package's modules write through ``tr``, ``ntr`` and ``mark``."""
    catalog = Catalog(locale="ru", domain="regiment", project="regiment", fuzzy=False,
                      header_comment="# The Russian narration of regiment: every sentence "
                      "players read.\n# Fields ({unit}), rule IDs and citations stay as "
                      "they are.")
    for filename, line, message, comments, context in extract_from_dir(
            folder, [("**/locale/**", "ignore"), ("**.py", "python")], keywords=KEYWORDS):
        catalog.add(message, None, [(filename, line)], auto_comments=comments,
                    context=context)
    return catalog


def path_of(folder: Path) -> Path:
    return folder / "locale" / "ru.po"


def update(folder: Path) -> Path:
    """Bring the package's ru.po up to date: new messages added untranslated, gone ones
    dropped, translations kept."""
    template = extract(folder)
    path = path_of(folder)
    if path.exists():
        with open(path, "rb") as handle:
            catalog = read_po(handle, locale="ru")
        catalog.update(template, no_fuzzy_matching=True)
    else:
        catalog = template
    path.parent.mkdir(exist_ok=True)
    with open(path, "wb") as handle:
        write_po(handle, catalog, width=100, omit_header=False, sort_output=False,
                 ignore_obsolete=True)
    return path


def problems(folder: Path) -> list[str]:
    """What is missing or wrong in the package's Russian catalogue."""
    path = path_of(folder)
    if not path.exists():
        return [f"{path}: no catalogue (make messages)"]
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale="ru")
    out = []
    for message in extract(folder):
        if not message.id:
            continue
        found = catalog.get(message.id)
        where = f"{path}: {message.id if isinstance(message.id, str) else message.id[0]!r}"
        if found is None:
            out.append(f"{where}: missing (make messages)")
            continue
        if found.fuzzy:
            out.append(f"{where}: fuzzy")
        ids = [str(i) for i in (message.id if isinstance(message.id, tuple)
                                else (message.id,))]
        strings = [str(t or "") for t in (found.string if isinstance(found.string, tuple)
                                          else (found.string,))]
        if not all(strings) or (isinstance(message.id, tuple) and len(strings) < 3):
            out.append(f"{where}: not translated")
            continue
        fields = set(FIELD.findall(" ".join(ids)))
        cited = sorted(CITED.findall(ids[-1]))
        for text in strings:
            if set(FIELD.findall(text)) != fields:
                out.append(f"{where}: the fields {sorted(fields)} are "
                           f"{sorted(set(FIELD.findall(text)))} in {text!r}")
            if sorted(CITED.findall(text)) != cited:
                out.append(f"{where}: the rule IDs and citations {cited} are "
                           f"{sorted(CITED.findall(text))} in {text!r}")
    return out


def main() -> int:
    for name, folder in PACKAGES.items():
        path = update(folder)
        missing = problems(folder)
        print(f"{name}: {path.relative_to(ROOT)}: {len(missing)} to translate or fix")
        for line in missing[:20]:
            print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
