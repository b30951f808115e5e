"""Writes of the clubs app (membership, events, seasons: one module each)."""
