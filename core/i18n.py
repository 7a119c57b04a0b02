"""The engine's sentences in the players' language: English, or Russian (``--lang ru``), the
language of the rule pages the players hold.

A module that tells players something writes each message through ``tr`` (and ``ntr`` when a
number decides its form: Russian has three), with named fields: ``tr('{unit} falls back',
unit=name)``. A message made now but told later (a reason stored in a log) is marked with
``mark``. Babel extracts the messages (``make messages``); each package keeps its Russian
catalogue in ``locale/ru.po``, read with Babel when Russian is first asked for. Rule IDs and
page citations are written the same in every language: a test checks that each translation
keeps them, and its fields, and that no message is left untranslated.
"""

from __future__ import annotations

import contextvars
import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ru")
DOMAIN = "ru.po"

_LANG: contextvars.ContextVar[str] = contextvars.ContextVar("regiment_lang", default="en")
_FOLDERS: list[Path] = []
_LOADED: dict[str, gettext.NullTranslations] = {}


def register(folder: Path) -> None:
    """A package's ``locale`` folder (read when its language is first used)."""
    if folder not in _FOLDERS:
        _FOLDERS.append(folder)
        _LOADED.clear()


def _check(lang: str) -> str:
    if lang not in LANGUAGES:
        from .errors import BadRequest

        raise BadRequest(f"no narration in {lang!r}; languages: {', '.join(LANGUAGES)}")
    return lang


def set_language(lang: str) -> None:
    _LANG.set(_check(lang))


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Tell in ``lang`` inside the block."""
    token = _LANG.set(_check(lang))
    try:
        yield
    finally:
        _LANG.reset(token)


def current() -> str:
    return _LANG.get()


def _translations() -> gettext.NullTranslations:
    lang = _LANG.get()
    found = _LOADED.get(lang)
    if found is None:
        found = _LOADED[lang] = _load(lang)
    return found


def _load(lang: str) -> gettext.NullTranslations:
    """Every registered catalogue of ``lang``, as one gettext translation (Babel reads the
    .po files and writes them as .mo in memory: no build step, nothing compiled to commit)."""
    if lang == "en":
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    merged: gettext.NullTranslations | None = None
    for folder in _FOLDERS:
        path = folder / f"{lang}.po"
        if not path.exists():
            continue
        with open(path, "rb") as handle:
            catalog = read_po(handle, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        one = gettext.GNUTranslations(buffer)
        if merged is None:
            merged = one
        else:
            merged.add_fallback(one)
    return merged or gettext.NullTranslations()


class Told(str):
    """A message told in the current language that can still be told in English (an error's
    ``message`` for programs, beside the translated one for players): its message id and
    fields are kept with it."""

    __slots__ = ("fields", "msgid")

    msgid: str
    fields: dict[str, Any]


def _told(text: str, msgid: str, fields: dict[str, Any]) -> Told:
    out = Told(text)
    out.msgid, out.fields = msgid, fields
    return out


def tr(message: str, **fields: Any) -> str:
    """``message`` in the current language, its ``{fields}`` filled in."""
    text = _translations().gettext(message)
    return _told(text.format(**fields) if fields else text, message, fields)


def ntr(singular: str, plural: str, n: int, **fields: Any) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in the current language; ``{n}``
    and the other fields filled in."""
    return _told(_translations().ngettext(singular, plural, n).format(n=n, **fields),
                 singular if n == 1 else plural, {"n": n, **fields})


def english(text: object) -> str:
    """``text`` as it reads in English: a message ``tr`` told, told again from its id (and its
    fields that were told, so too); any other text as it is."""
    if isinstance(text, Told):
        fields = text.fields
        if not fields:
            return text.msgid
        return text.msgid.format(**{k: english(v) for k, v in fields.items()})
    return str(text)


def mark(message: str) -> str:
    """A message to extract, told later (through ``tr``) in the reader's language."""
    return message
