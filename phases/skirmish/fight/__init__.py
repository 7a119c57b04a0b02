"""The fight of each combat (SK.ENGAGED, SK.ALLOCATE, SK.RESULT, SK.SWEEP, SK.FALL_BACK,
SK.CONSOLIDATE): its steps, its rule functions (``sweep``), its events, their appliers and
their sentences."""
