"""SK.MOVE: the skirmish game's movement phase (games begun under engine 0.12.0)."""
