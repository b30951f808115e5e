"""Pages of tournaments, one module per page family."""
