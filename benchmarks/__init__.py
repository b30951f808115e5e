"""Runnable benchmarks that print figures with their ratios to the targets (see README.md)."""
