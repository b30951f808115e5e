"""A worker freezes the objects it booted with for the garbage collector, and collects
the youngest generation less often (config/celery.py)."""

import gc

from celery.signals import worker_process_init, worker_ready

from config.celery import WORKER_GC_THRESHOLDS, _freeze_boot_objects


def test_a_ready_worker_and_each_pool_process_freeze_their_boot_objects():
    for signal in (worker_ready, worker_process_init):  # solo/threads pools; prefork
        assert _freeze_boot_objects in signal._live_receivers(sender=None)
    before = gc.get_threshold()
    try:
        gc.unfreeze()
        assert gc.get_freeze_count() == 0
        _freeze_boot_objects()
        # everything alive at that moment is out of the collector's walks
        assert gc.get_freeze_count() > 1000
        assert gc.get_threshold() == WORKER_GC_THRESHOLDS
        assert WORKER_GC_THRESHOLDS[0] > before[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
