"""Psychology: the tests fear and terror call for (SR.FEAR, SR.TERROR), asked where the turn
already stands (the start of a round of combat, a charge's reaction): no step of their own."""
