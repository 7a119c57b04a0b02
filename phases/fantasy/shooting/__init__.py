"""SHOOT.*: the fantasy shooting phase: who may shoot at whom, the to-hit need and its
modifiers, then the attack sequence and panic of any volley (ATK.SEQUENCE, PANIC.TRIGGERS)."""
