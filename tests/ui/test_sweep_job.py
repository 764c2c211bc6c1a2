"""The patching sweep off the GUI thread: the same numbers as the core's sweep run here, progress per cell,
and Cancel stops it without a result."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt

from explorer.interventions.sweep import patching_sweep
from explorer.ui.sweep_job import SweepJob
from tests.ui.live_state import preset_bundle

CLEAN, CORRUPT = "This is a pen .", "This is a cat ."


def test_the_sweep_job_reports_progress_and_the_cores_numbers(qtbot):
    bundle = preset_bundle("classroom")
    job = SweepJob(bundle, CLEAN, CORRUPT, "heads")
    steps, results = [], []
    job.progressed.connect(lambda d, t: steps.append((d, t)))
    job.succeeded.connect(results.append)
    with qtbot.waitSignal(job.finished, timeout=60_000):
        job.start()
    qtbot.waitUntil(lambda: bool(results))
    expected = patching_sweep(bundle, CLEAN, CORRUPT, "heads")
    np.testing.assert_allclose(results[0].recovered, expected.recovered, atol=1e-6)
    total = bundle.config.layers * bundle.config.H
    assert steps[-1] == (total, total) and len(steps) == total


def test_cancel_stops_the_sweep_cleanly(qtbot):
    bundle = preset_bundle("classroom")
    job = SweepJob(bundle, CLEAN, CORRUPT, "resid")
    outcome, steps = [], []
    job.progressed.connect(lambda d, t: steps.append((d, t)))
    # Direct: runs in the sweep's thread right after cell 1, so the sweep cannot finish before Cancel lands.
    job.progressed.connect(lambda d, t: d == 1 and job.cancel(), Qt.ConnectionType.DirectConnection)
    job.succeeded.connect(lambda r: outcome.append("done"))
    job.cancelled.connect(lambda: outcome.append("cancelled"))
    job.failed.connect(outcome.append)
    with qtbot.waitSignal(job.finished, timeout=60_000):
        job.start()
    qtbot.waitUntil(lambda: bool(outcome))
    assert outcome == ["cancelled"] and not job.isRunning()
    assert all(d <= 1 for d, _t in steps)  # no cell after the one that cancelled
