"""Combat reform (REF.*): the reform's steps, its rule functions, its events, their appliers
and their sentences."""
