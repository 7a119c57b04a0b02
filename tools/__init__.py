"""regiment.tools."""

from pathlib import Path as _Path

from regiment.core import i18n as _i18n

_i18n.register(_Path(__file__).with_name("locale"))   # the tools' words (tools/words.py)
