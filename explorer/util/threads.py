"""How many CPU threads a model run gets: one for a small run, the process's default for a large one; set
on the thread that runs it, for every run, so that a trace's numbers do not depend on which thread ran it.

A classroom trace (12 tokens, 2 layers, E = 64) is a few hundred tiny operations. Given two threads, every
operation that torch splits (layer norm, softmax) waits for the second thread to be scheduled, which on a
busy two-core machine (or beside the window's own thread, painting the previous trace) costs milliseconds
per operation: measured in the window, a 2.5 ms trace took 10–100 ms. On one thread it takes 2.5–3 ms.
Large runs keep every thread: there the split pays for itself.

The count also decides the last bits of a result: MKL's matrix product rounds differently on one and on two
threads for some shapes (a long inner dimension, such as an FFN's down-projection of 3,072, or one row
against 768 columns), and torch's count belongs to each thread (a new thread starts from whatever was set
last, anywhere in the process). So every run sets the count its size calls for, on its own thread, instead
of inheriting one (tests/core/test_threads_determinism.py).

On a busy machine a large run takes no more threads than the cores other programs leave free
(explorer/util/cpu_share.py): with one of two cores taken, every operation split over two threads waits for
the one whose core is shared. That is allowed only where the products give the same bits on any count
(explorer/util/invariant_products.py); elsewhere a large run keeps the process's count whatever the load.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from explorer.util import cpu_share

# Below this many multiply-adds (tokens × parameters) a run is done in well under 20 ms on one core.
SMALL_RUN_MACS = 1e8

_default: list[int] = []  # the process's thread count as it was before the first run set one
_default_lock = threading.Lock()
cpu_share.watch()  # from now on: the first large run sees what other programs did since


def default_threads() -> int:
    """The count a large run gets: torch's own for this process (or what the program set before its first
    run), read once, before any run of ours changed it."""
    import torch  # here, not at the top: the window is built before torch is loaded

    with _default_lock:
        if not _default:
            _default.append(torch.get_num_threads())
        return _default[0]


def choose_threads(macs: float, default: int, taken: int, cores: int, invariant: bool) -> int:
    """The count for a run of ``macs`` multiply-adds: 1 for a small run; for a large one ``default``, less the
    cores other programs took (``taken`` of this process's ``cores``) when the count cannot change the
    numbers (``invariant``), and never below 1."""
    if macs < SMALL_RUN_MACS:
        return 1
    if not invariant:
        return default
    return max(1, min(default, cores - taken))


def threads_wanted(macs: float) -> int:
    if macs < SMALL_RUN_MACS:
        return 1
    from explorer.util.invariant_products import products_invariant

    invariant = products_invariant()
    watch = cpu_share.watch()
    taken = watch.taken() if invariant else 0
    return choose_threads(macs, default_threads(), taken, watch.cores, invariant)


@contextmanager
def threads_for(macs: float) -> Iterator[None]:
    """Run the body with the thread count a run of ``macs`` multiply-adds gets (see above), set on this
    thread; the thread's own count is restored after it."""
    import torch

    wanted = threads_wanted(macs)
    before = torch.get_num_threads()
    torch.set_num_threads(wanted)  # always, also when equal: it sets OpenMP's and MKL's counts of this thread
    try:
        yield
    finally:
        torch.set_num_threads(before)
