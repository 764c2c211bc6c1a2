"""How many threads a run takes on a busy machine (explorer/util/threads.py, cpu_share.py, invariant_products.py).

A large run takes the cores other programs leave free, but only where the products give the same bits on any
thread count; the cores taken are what other programs used of this process's cores, not what this process
did itself.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from explorer.util import cpu_share, invariant_products, threads
from explorer.util.cpu_share import CoreWatch, Counters, parse_stat, taken_cores

LARGE, SMALL = 1e10, 1e6  # multiply-adds


@pytest.mark.parametrize(
    ("macs", "default", "taken", "cores", "invariant", "expected"),
    [
        (SMALL, 2, 0, 2, True, 1),  # a classroom trace: one thread, busy or not
        (LARGE, 2, 0, 2, True, 2),  # a quiet machine: every thread
        (LARGE, 2, 1, 2, True, 1),  # one of two cores taken: the run does not wait on the shared one
        (LARGE, 2, 2, 2, True, 1),  # every core taken: still one thread, never none
        (LARGE, 4, 2, 8, True, 4),  # free cores beyond the default do not raise it
        (LARGE, 8, 3, 8, True, 5),
        (LARGE, 2, 1, 2, False, 2),  # products that round by thread count: the count never follows the load
    ],
)
def test_the_count_follows_the_free_cores_only_where_the_numbers_cannot_change(
    macs, default, taken, cores, invariant, expected
):
    assert threads.choose_threads(macs, default, taken, cores, invariant) == expected


def _counters(busy: float, total: float, own: float) -> Counters:
    return Counters(busy=busy, total=total, own=own)


def test_a_core_is_taken_by_other_programs_work_not_by_this_process_own():
    start = _counters(0, 0, 0)
    # two cores for 100 ticks each: 180 busy ticks, 80 of them this process's own → 100 = one core of others
    assert taken_cores(2, start, _counters(180, 200, 80)) == 1
    # every busy tick this process's own (a run of ours on both cores): nothing taken
    assert taken_cores(2, start, _counters(190, 200, 190)) == 0
    # others used 0.4 of a core: not taken; 0.6: taken
    assert taken_cores(2, start, _counters(40, 200, 0)) == 0
    assert taken_cores(2, start, _counters(60, 200, 0)) == 1
    # never more than the cores there are, never fewer than none (counters of own time running ahead)
    assert taken_cores(2, start, _counters(200, 200, 0)) == 2
    assert taken_cores(2, start, _counters(10, 200, 50)) == 0


def test_readings_too_close_together_say_nothing():
    assert taken_cores(2, _counters(0, 0, 0), _counters(10, 10, 0)) is None


STAT = """cpu  900 0 900 900 0 0 0 0 0 0
cpu0 100 0 50 800 40 0 10 0 0 0
cpu1 300 0 100 100 0 0 0 500 0 0
cpu2 999 0 999 0 0 0 0 0 0 0
intr 12345
"""


def test_only_this_process_cores_count_and_a_disk_wait_is_not_busy_but_steal_is():
    assert parse_stat(STAT, {0}) == (160.0, 1000.0)  # user + system + softirq; idle and iowait are not busy
    assert parse_stat(STAT, {1}) == (900.0, 1000.0)  # steal: the hypervisor gave the core to another machine
    assert parse_stat(STAT, {0, 1}) == (1060.0, 2000.0)  # cpu2 (not ours) and the summary line left out


def test_the_watch_keeps_its_last_answer_until_enough_time_has_passed():
    readings = iter(
        [
            _counters(0, 0, 0),  # when the watch starts
            _counters(100, 200, 0),  # one core's worth of others' work: taken
            _counters(105, 210, 0),  # 10 ticks later: too soon, the last answer stands
            _counters(105, 400, 0),  # since the last answer: 5 busy ticks in 200: nothing taken now
        ]
    )
    watch = CoreWatch(read=lambda cpus: next(readings), cpus={0, 1})
    assert [watch.taken(), watch.taken(), watch.taken()] == [1, 1, 0]


def test_a_large_run_on_a_busy_machine_takes_one_thread_of_two_only_with_invariant_products(monkeypatch):
    class Busy:
        cores = 2

        def taken(self) -> int:
            return 1

    monkeypatch.setattr(cpu_share, "watch", lambda: Busy())
    monkeypatch.setattr(threads, "default_threads", lambda: 2)
    monkeypatch.setattr(invariant_products, "products_invariant", lambda: True)
    assert threads.threads_wanted(LARGE) == 1
    monkeypatch.setattr(invariant_products, "products_invariant", lambda: False)
    assert threads.threads_wanted(LARGE) == 2


def test_importing_explorer_first_makes_the_products_the_same_on_one_and_two_threads():
    """The property the policy rests on, in a fresh process as the app starts one: an FFN's down-projection
    (inner size 3,072, which MKL rounds differently on one and two threads) equal bit for bit."""
    code = textwrap.dedent(
        """
        import explorer, torch
        from explorer.util.invariant_products import _mkl, products_invariant
        if _mkl() is None:
            print("no-mkl"); raise SystemExit
        torch.manual_seed(0)
        x, w = torch.randn(256, 3072), torch.randn(3072, 768)
        out = []
        for n in (1, 2):
            torch.set_num_threads(n)
            out.append(x @ w)
        print(products_invariant(), torch.equal(out[0], out[1]))
        """
    )
    env = {k: v for k, v in __import__("os").environ.items() if k != "MKL_CBWR"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    if done.stdout.strip() == "no-mkl":
        pytest.skip("torch is built without MKL here: runs keep a fixed thread count")
    assert done.stdout.split() == ["True", "True"]
