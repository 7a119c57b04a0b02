"""What more than one rulebook plays by: tables the fantasy and the skirmish games share."""
