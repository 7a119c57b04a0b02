"""MOVE.*: the remaining moves of the fantasy turn (forward, wheel, turn, reform, back and
sideways, march), as steps of the machine's ``movement.remaining`` phase."""

# the kinds of remaining move, as ``move`` names them and ``UnitMoved.reason`` records them
KINDS = ("forward", "march", "back", "sideways", "reform")
