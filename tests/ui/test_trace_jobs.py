"""The trace kind of job (explorer/ui/background/worker.py): a model not built yet is loaded by a job of its own, and a
request made during a long load waits for it instead of starting it over; the load's progress keeps
arriving; only the newest request is traced (the runner's one ticket rule drops the rest); Cancel drops it all."""

from __future__ import annotations

import threading

from explorer.config import RunOptions
from explorer.errors import Cancelled
from explorer.ui.background.worker import TraceWorker
from explorer.ui.bridge.state import ModelSource, TraceRequest
from explorer.work.model_cache import ModelCache
from tests.ui.live_state import preset_bundle

BIG = ModelSource("path", "a-big-model")


def _slow_worker(release: threading.Event, opened: list) -> TraceWorker:
    def slow_open(source, progress=None, cancel=None):
        opened.append(source)
        progress(1, 2, "half")
        while not release.wait(0.01):  # as a real loader checks its cancel event between tensors
            if cancel.is_set():
                raise Cancelled("loading was cancelled")
        progress(2, 2, "all")
        return preset_bundle("classroom")

    return TraceWorker(models=ModelCache(slow_open))


def test_a_request_during_a_long_load_waits_for_it_and_only_the_newest_is_traced(qtbot):
    release, opened = threading.Event(), []
    worker = _slow_worker(release, opened)
    traced, progress, ready = [], [], []
    worker.traceReady.connect(lambda g, t, _e: traced.append((g, t.rows[0].text)))
    worker.progress.connect(lambda _d, _t, what: progress.append(what))
    worker.modelReady.connect(ready.append)
    try:
        worker.submit(TraceRequest(BIG, "This is a pen .", RunOptions()))
        qtbot.waitUntil(lambda: progress == ["half"], timeout=10_000)
        worker.submit(TraceRequest(BIG, "The cat sat .", RunOptions()))
        newest = worker.submit(TraceRequest(BIG, "Is this a dog ?", RunOptions()))
        release.set()
        with qtbot.waitSignal(worker.busyChanged, check_params_cb=lambda busy: not busy, timeout=30_000):
            qtbot.waitUntil(lambda: bool(traced), timeout=30_000)
    finally:
        worker.stop()
    assert opened == [BIG]  # loaded once: the requests made meanwhile did not start it over
    assert progress == ["half", "all"] and len(ready) == 1  # the load went on reporting, for the newest request
    assert traced == [(newest, "Is this a dog ?")]


def test_cancel_drops_a_long_load_even_one_that_ends_anyway(qtbot):
    """File → Open model, Cancel: a loader that ends after the cancel (between two of its checks) must not
    show its model or trace it: the runner drops what a cancelled request's jobs end with."""
    release, opened = threading.Event(), []

    def stubborn_open(source, progress=None, cancel=None):
        opened.append(source)
        release.wait(30)  # a long read that checks its cancel event only afterwards
        return preset_bundle("classroom")

    worker = TraceWorker(models=ModelCache(stubborn_open))
    said = []
    worker.traceReady.connect(lambda *_a: said.append("trace"))
    worker.traceFailed.connect(lambda *_a: said.append("failed"))
    worker.modelReady.connect(lambda _c: said.append("model"))
    try:
        worker.submit(TraceRequest(BIG, "This is a pen .", RunOptions()))
        qtbot.waitUntil(lambda: bool(opened), timeout=10_000)
        worker.cancel_current()
        release.set()
        qtbot.waitUntil(lambda: not worker.loads.busy, timeout=10_000)  # its end heard, what it said dropped
    finally:
        release.set()
        worker.stop()
    assert said == []
