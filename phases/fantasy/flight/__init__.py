"""Panic, flight, rally and returns (PANIC.*, FP.FLEE_ROLL, FP.FLEE_DIRECTION, RALLY.*,
FP.OFF_TABLE): the steps, the events, their appliers and their sentences."""
