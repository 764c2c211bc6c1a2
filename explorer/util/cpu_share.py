"""How many of this process's cores other programs have taken, read from the kernel's counters.

On a busy machine (a browser, a video call, another program's build beside the window) a run that splits each
operation over every core waits, at the end of each one, for the thread whose core is shared: the trace of
256 tokens on two cores with one CPU-bound program beside it took 1.05 s on two threads and 0.66 s on one
(benchmarks/bench_trace_vs_peer.py, trace_vs_peer_ratio_busy). So a large run asks here how many cores are
free and takes no more threads than that (explorer/util/threads.py).

What other programs used is the busy time of this process's cores (/proc/stat, in clock ticks) minus this
process's own CPU time, over the time since the last look: the window's own painting and a run of ours do
not count as taken. A core counts as taken once other programs used at least TAKEN_SHARE of it. Where the
counters cannot be read (not Linux) nothing counts as taken.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

TAKEN_SHARE = 0.5  # of one core: from here, a run's second thread waits about as long as it helps
MIN_WINDOW_TICKS = 20  # per core (0.2 s at 100 ticks a second): shorter looks keep the last answer
_STAT = "/proc/stat"


@dataclass(frozen=True)
class Counters:
    """Clock ticks so far: ``busy`` and ``total`` summed over this process's cores, ``own`` this process's CPU
    time (every thread), all in the same ticks."""

    busy: float
    total: float
    own: float


def taken_cores(cores: int, before: Counters, after: Counters) -> int | None:
    """The cores other programs took between two readings (0 … ``cores``); None when the readings are too
    close together to say (keep the last answer)."""
    elapsed = after.total - before.total  # ticks of all the cores together
    if cores < 1 or elapsed < MIN_WINDOW_TICKS * cores:
        return None
    others = max(0.0, (after.busy - before.busy) - (after.own - before.own))  # ticks
    used = others / elapsed * cores  # cores' worth of other programs' work
    return max(0, min(cores, int(used + 1 - TAKEN_SHARE)))


def parse_stat(text: str, cpus: set[int]) -> tuple[float, float]:
    """(busy, total) ticks of the CPUs ``cpus`` from /proc/stat's text. Idle and waiting on a disk are not
    busy; time the hypervisor gave another machine (steal) is: the core was taken."""
    busy = total = 0.0
    for line in text.splitlines():
        name, _, rest = line.partition(" ")
        if not (name.startswith("cpu") and name[3:].isdigit() and int(name[3:]) in cpus):
            continue
        ticks = [float(v) for v in rest.split()[:8]]  # user nice system idle iowait irq softirq steal
        idle = ticks[3] + ticks[4]
        total += sum(ticks)
        busy += sum(ticks) - idle
    return busy, total


def _cpus() -> set[int]:
    try:
        return set(os.sched_getaffinity(0))  # a process limited to some cores (taskset, a container) has those
    except (AttributeError, OSError):
        return set(range(os.cpu_count() or 1))


def read_counters(cpus: set[int] | None = None) -> Counters | None:
    """The counters now; None where the kernel does not offer them."""
    try:
        with open(_STAT) as fh:
            text = fh.read()
    except OSError:
        return None
    busy, total = parse_stat(text, _cpus() if cpus is None else cpus)
    if total <= 0:
        return None
    t = os.times()
    return Counters(busy, total, (t.user + t.system) * os.sysconf("SC_CLK_TCK"))


class CoreWatch:
    """Cores taken by other programs since the last look (or since this module was imported)."""

    def __init__(self, read=read_counters, cpus: set[int] | None = None) -> None:
        self._read = read
        self._cpus = _cpus() if cpus is None else cpus
        self._lock = threading.Lock()
        self._last = read(self._cpus)
        self._taken = 0

    def taken(self) -> int:
        with self._lock:
            now = self._read(self._cpus)
            if now is None or self._last is None:
                self._last = now
                return self._taken
            taken = taken_cores(len(self._cpus), self._last, now)
            if taken is not None:  # else: the window grows until it says something
                self._taken, self._last = taken, now
            return self._taken

    @property
    def cores(self) -> int:
        return len(self._cpus)


_WATCH: list[CoreWatch] = []
_WATCH_LOCK = threading.Lock()


def watch() -> CoreWatch:
    """The process's one watch, started at the first call (threads.py calls it when it is imported)."""
    with _WATCH_LOCK:
        if not _WATCH:
            _WATCH.append(CoreWatch())
        return _WATCH[0]
