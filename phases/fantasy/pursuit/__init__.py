"""Flee and pursuit (FP.*): the pursuit's steps, its rule functions, its events, their
appliers and their sentences."""
