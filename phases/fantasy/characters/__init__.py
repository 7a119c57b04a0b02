"""Characters: joining and leaving units, fighting in their front rank (CHAR.*)."""
