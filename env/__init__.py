"""maester environments (placeholder while building)."""
