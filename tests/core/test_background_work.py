"""The window's background work as plain functions (explorer/work/), run
here without Qt or threads: each takes a model's source and the model cache (never a model), reports its
progress, and gives the core's own numbers."""

from __future__ import annotations

import threading

import numpy as np

from explorer.config import ModelConfig, RunOptions
from explorer.session import ModelSource
from explorer.session.open import open_source
from explorer.trace.run import run_trace
from explorer.work.generating import generation_work
from explorer.work.interventions import lens_work, sweep_work
from explorer.work.model_cache import KEEP, ModelCache
from explorer.work.training import CheckpointSaved, TrainPrepared, TrainRequest, training_work

SOURCE = ModelSource("preset", "classroom")


class Report:
    def __init__(self) -> None:
        self.progressed: list = []
        self.sent: list = []

    def progress(self, done, total, what=""):
        self.progressed.append((done, total))

    def send(self, value):
        self.sent.append(value)


def test_the_cache_builds_a_model_once_and_keeps_a_few():
    opened: list = []
    cache = ModelCache(lambda source, progress=None, cancel=None: opened.append(source) or object())
    first = cache.get(SOURCE)
    assert cache.get(SOURCE) is first and opened == [SOURCE] and cache.loads == 1
    for seed in range(KEEP):
        cache.get(ModelSource("preset", "classroom", seed=seed))
    assert not cache.has(SOURCE)  # the oldest went
    cache.forget(ModelSource("preset", "classroom", seed=0))
    assert not cache.has(ModelSource("preset", "classroom", seed=0))


def test_the_lens_and_the_sweep_are_the_cores_numbers():
    from explorer.interventions.lens import lens_grid
    from explorer.interventions.sweep import patching_sweep

    cache, bundle = ModelCache(), open_source(SOURCE)
    cache.put(SOURCE, bundle)
    trace = run_trace(bundle, "This is a pen .")
    report = Report()
    grid = lens_work(cache, SOURCE, trace, 0)(report, threading.Event())
    np.testing.assert_array_equal(grid.predicted_prob, lens_grid(bundle, trace, 0).predicted_prob)
    assert report.progressed
    swept = sweep_work(cache, SOURCE, "This is a pen .", "This is a cat .", "heads", None)(Report(), threading.Event())
    expected = patching_sweep(bundle, "This is a pen .", "This is a cat .", "heads")
    np.testing.assert_allclose(swept.recovered, expected.recovered, atol=1e-6)
    assert cache.loads == 0


def test_a_generation_sends_each_step_as_it_comes():
    report = Report()
    how = dict(max_new_tokens=3, sampling={"greedy": True}, use_cache=True)
    generation = generation_work(ModelCache(), SOURCE, "This is a", RunOptions(), how)(report, threading.Event())
    assert len(generation.steps) == 3 and report.sent == list(generation.steps)


def test_a_training_run_reports_and_puts_its_checkpoints_in_the_cache(tmp_path):
    from explorer.train.settings import TrainSettings

    cache = ModelCache()
    config = ModelConfig(vocab_size=10, embed_dim=8, key_dim=4, heads=2, layers=1)
    request = TrainRequest(
        "copy", config, TrainSettings(steps=4, batch_size=4, eval_every=2, checkpoint_every=2), tmp_path / "run"
    )
    report = Report()
    result = training_work(request, cache)(report, threading.Event())
    assert isinstance(report.sent[0], TrainPrepared) and report.sent[0].corpus == "copy"
    saved = [v for v in report.sent if isinstance(v, CheckpointSaved)]
    assert saved and all(cache.has(ModelSource("path", s.folder)) for s in saved[-2:])
    assert result.steps == 4 and cache.has(ModelSource("path", str(result.checkpoint)))
