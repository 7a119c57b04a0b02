"""Close combat: contacts, the initiative steps and their blows, the attack sequence, and the
steps of a round (CC.*, ATK.*)."""
