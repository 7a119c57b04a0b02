"""regiment.core."""
