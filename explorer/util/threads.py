"""How many CPU threads a model run gets: one for a small run, torch's default for a large one.

A classroom trace (12 tokens, 2 layers, E = 64) is a few hundred tiny operations. Given two threads, every
operation that torch splits (layer norm, softmax) waits for the second thread to be scheduled, which on a
busy two-core machine (or beside the window's own thread, painting the previous trace) costs milliseconds
per operation: measured in the window, a 2.5 ms trace took 10–100 ms. On one thread it takes 2.5–3 ms.
Large runs keep every thread: there the split pays for itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

# Below this many multiply-adds (tokens × parameters) a run is done in well under 20 ms on one core.
SMALL_RUN_MACS = 1e8


@contextmanager
def threads_for(macs: float) -> Iterator[None]:
    """Run the body on one thread when ``macs`` is small; torch's thread setting is restored after it."""
    import torch  # here, not at the top: the window is built before torch is loaded

    before = torch.get_num_threads()
    wanted = 1 if macs < SMALL_RUN_MACS else before
    if wanted != before:
        torch.set_num_threads(wanted)
    try:
        yield
    finally:
        if wanted != before:
            torch.set_num_threads(before)
