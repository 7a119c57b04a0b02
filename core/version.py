"""The engine's version: written into every game it begins (``GameStarted.engine_version``),
and the rulings a game is played under follow from it."""

ENGINE_VERSION = "0.8.0"
