"""The fantasy rulebook: ``fantasy8`` and ``fantasy-classic`` (which differs in a few bonuses,
as data: ``variants``). It owns its commands, events, appliers, turn machine, flow, rule
functions, special rules, narration sources and scenario schema; ``regiment.phases``
registers its presets."""
