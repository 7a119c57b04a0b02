"""The skirmish game of seed 004 (issue 14), as its own rulebook: so far its sweeping advance
(SK.SWEEP) and the odds of it. The preset ``skirmish40k`` is not registered yet; a scenario
naming it is refused."""
