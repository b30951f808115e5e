"""Racing calls for concurrency tests: each call in its own thread, all let go at once."""

from __future__ import annotations

import threading

from django.db import connections


def run_together(work, calls: list[tuple], *, timeout: float = 120) -> list:
    """``work(*args)`` for each ``args`` in ``calls``, every thread waiting at one barrier so
    that they really race; returns the results in the order the calls finished. An error in
    any thread is raised here (not lost in the thread); each thread closes its connections."""
    barrier = threading.Barrier(len(calls))
    results, errors = [], []
    lock = threading.Lock()

    def run(args):
        try:
            barrier.wait(timeout=30)
            value = work(*args)
            with lock:
                results.append(value)
        except BaseException as exc:  # reported below
            with lock:
                errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(args,)) for args in calls]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=timeout)
    assert not errors, errors
    assert len(results) == len(calls), "a thread did not finish in time"
    return results
