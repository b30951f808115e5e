"""``python -m benchmarks`` (``make bench``): every benchmark; arguments go to benchmarks.engines."""

from benchmarks.engines import main

if __name__ == "__main__":
    main()
