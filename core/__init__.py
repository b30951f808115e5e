"""What every app uses: accounts pages, errors, permissions, throttling, time zones, health.

See docs/architecture.md ("Apps and their dependencies") for what core may import.
"""
