"""regiment.tools."""
