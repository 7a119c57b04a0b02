"""The engine's version: written into every game it begins (``GameStarted.engine_version``),
and the rulings a game is played under follow from it."""

ENGINE_VERSION = "0.16.4"

Version = tuple[int, int, int]


def parse_version(text: str) -> Version | None:
    """``"0.4.0"`` -> (0, 4, 0); None for anything else."""
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def version(text: str) -> Version:
    """The engine version a game was begun under; an empty or unreadable one is this
    engine's (a playout)."""
    return parse_version(text) or parse_version(ENGINE_VERSION) or (0, 0, 0)
