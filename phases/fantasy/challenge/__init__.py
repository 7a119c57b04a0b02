"""Challenges (CC.CHALLENGE): the challenge's steps, its events, their appliers and their
sentences."""
