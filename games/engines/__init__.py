"""Pure-Python rules engines. Nothing below this package may import Django."""
