"""``python -m benchmarks`` (``make bench``): every benchmark in turn.

``--quick`` is passed on to each; run one alone with ``python -m benchmarks.<name>``.
"""

import sys

from benchmarks import (
    engines,
    greatwall_endings,
    operations_page,
    pairing,
    ratings,
    stack,
    standings_latency,
    stream_health,
)


def main() -> None:
    quick = ["--quick"] if "--quick" in sys.argv[1:] else []
    print("== engines: random games, ISMCTS speed, bot strength ==")
    engines.main(quick)
    print("\n== Great Wall: how games end (rounds, round-limit safeguard) ==")
    greatwall_endings.main(quick)
    print("\n== platform vs engine throughput ==")
    stack.main(["--matches", "5"] if quick else [])
    print("\n== Swiss pairing: time, avoidable repeats, seat alternation ==")
    pairing.main(quick)
    print("\n== ratings: recompute speed and ladder ==")
    ratings.main(quick)
    print("\n== standings fragment latency under 50 clients, vs /health/ ==")
    standings_latency.main(quick)
    print("\n== staff operations page over a long match history ==")
    operations_page.main(["--quick"] if quick else [])
    print("\n== /health/ with 50 turn streams open (production gunicorn) ==")
    stream_health.main(["--quick"] if quick else [])


if __name__ == "__main__":
    main()
