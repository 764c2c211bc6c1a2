"""The Train panel: a short run trains the shown sizes in the background, draws its loss, writes
checkpoints, hands each one to the views, can be cancelled, and its checkpoints can be scrubbed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from explorer.train.loop import list_checkpoints

TINY = dict(embed_dim=8, key_dim=4, heads=2, layers=1, ffn_dim=16)


@pytest.fixture
def runs_root(tmp_path, monkeypatch):
    root = tmp_path / "runs"
    monkeypatch.setattr("explorer.ui.background.train_controller.runs_root", lambda: root)
    return root


def _tiny(window, qtbot):
    state = window.state
    state.set_sizes(**TINY)
    qtbot.waitUntil(lambda: state.trace.config.E == 8, timeout=20_000)


def _configure(panel, corpus="copy", steps=20, batch=8, every=10):
    panel.corpus.setCurrentIndex(panel.corpus.findData(corpus))
    panel.steps.setValue(steps)
    panel.batch.setValue(batch)
    panel.every.setValue(every)


def test_short_run_trains_draws_and_publishes(window, qtbot, runs_root):
    state, panel = window.state, window.views["train"]
    _tiny(window, qtbot)
    _configure(panel)
    assert panel.start.isEnabled() and not panel.cancel.isEnabled()
    with qtbot.waitSignal(panel.controller.finished, timeout=60_000):
        assert panel.start_training()
        assert not panel.start.isEnabled() and panel.cancel.isEnabled()  # while it runs
    qtbot.waitUntil(lambda: not panel.controller.running, timeout=10_000)
    assert panel.start.isEnabled()

    # The curve: a training loss for every step, a held-out loss at each checkpoint (steps 0, 10, 20).
    assert panel.curve.training_points() == 20
    assert panel.curve.heldout_points() == 3
    assert panel.progress.value() == 20
    assert "tokens/s" in panel.stats.text()

    # Checkpoints in a new run folder under the user's data folder, shown in the panel.
    run = panel.controller.run_dir
    assert run.parent == runs_root and run.name.endswith("-copy")
    assert [s for s, _p in list_checkpoints(run)] == [0, 10, 20]
    assert run.name in panel.run_label.text() and panel.open_folder.isEnabled()

    # The views show the newest checkpoint, traced from the trained weights with the task's vocabulary.
    qtbot.waitUntil(lambda: state.trace.source == "training:copy@20", timeout=20_000)
    trace = state.trace
    assert state.source.name == str(run / "step-000020")
    assert trace.config.V == 29 and trace.config.E == 8  # the task's vocabulary, the sizes from the controls
    assert "|" in state.text  # a copy example replaced the English sentence
    assert "vocabulary" in panel.message.text()


def test_timeline_lists_checkpoints_and_changes_the_weights(window, qtbot, runs_root):
    state, panel = window.state, window.views["train"]
    _tiny(window, qtbot)
    _configure(panel, steps=20, every=10)
    with qtbot.waitSignal(panel.controller.finished, timeout=60_000):
        panel.start_training()
    qtbot.waitUntil(lambda: state.trace.source == "training:copy@20", timeout=20_000)
    timeline = panel.timeline
    assert timeline.slider.isEnabled() and timeline.slider.maximum() == 2
    assert timeline.slider.value() == 2 and timeline.current_step() == 20
    assert "step 20" in timeline.label.text()

    timeline.slider.setValue(0)  # as a drag would
    qtbot.waitUntil(lambda: state.trace.source.endswith("step-000000"), timeout=20_000)
    first = np.array(state.trace["params.embed.tok"])
    assert "step 0" in timeline.label.text()
    assert panel.curve.marker.isVisible() and panel.curve.marker.value() == 0

    timeline.slider.setValue(2)
    qtbot.waitUntil(
        lambda: state.trace.source.endswith("step-000020") or state.trace.source == "training:copy@20", timeout=20_000
    )
    last = np.array(state.trace["params.embed.tok"])
    assert first.shape == last.shape and not np.allclose(first, last)

    # Play walks from the first checkpoint to the last, each traced in turn, then stops.
    shown = []
    state.traceChanged.connect(lambda t: shown.append(Path(state.source.name).name))
    timeline.timer.setInterval(50)
    timeline.play.setChecked(True)  # at the last one: starts over from step 0
    qtbot.waitUntil(lambda: not timeline.play.isChecked(), timeout=20_000)
    # Play stops once the last checkpoint is asked for; its trace arrives a moment later (long under load).
    qtbot.waitUntil(lambda: shown and shown[-1] == "step-000020", timeout=20_000)
    assert [n for i, n in enumerate(shown) if i == 0 or shown[i - 1] != n] == [
        "step-000000",
        "step-000010",
        "step-000020",
    ]


def test_running_and_the_start_button_agree_when_the_thread_has_just_ended(window, qtbot, runs_root):
    """The moment between the training thread's end and the slot that hears it: the controller must not call
    the run over while the panel still shows it running (a test waiting for one and checking the other failed)."""
    panel = window.views["train"]
    _tiny(window, qtbot)
    _configure(panel, steps=2, every=1)
    assert panel.start_training()
    job = panel.controller.job
    assert job.wait(60_000)  # the thread has ended; no event processed since, so its finished slot waits
    assert panel.controller.running == (not panel.start.isEnabled())
    qtbot.waitUntil(lambda: not panel.controller.running, timeout=10_000)
    assert panel.start.isEnabled() and not panel.cancel.isEnabled()


def test_cancel_stops_the_thread_and_keeps_checkpoints(window, qtbot, runs_root):
    state, panel = window.state, window.views["train"]
    _tiny(window, qtbot)
    _configure(panel, steps=100_000, every=50)
    panel.start_training()
    qtbot.waitUntil(lambda: panel.curve.training_points() >= 3, timeout=30_000)
    with qtbot.waitSignal(panel.controller.finished, timeout=30_000) as finished:
        panel.cancel.click()
    result = finished.args[0]
    assert result.cancelled and 0 < result.steps < 100_000
    # The thread's finished signal reaches the window a moment after the thread ends: then Start comes back.
    qtbot.waitUntil(lambda: panel.controller.job is None and panel.start.isEnabled(), timeout=10_000)  # heard its end
    assert not panel.controller.running and not panel.cancel.isEnabled()
    steps = [s for s, _p in list_checkpoints(panel.controller.run_dir)]
    assert steps[0] == 0 and steps[-1] == result.steps  # where it stopped, written completely
    assert "Cancelled" in panel.message.text()
    qtbot.waitUntil(lambda: state.trace.source == f"training:copy@{result.steps}", timeout=20_000)


def test_a_finished_runs_curve_comes_back_when_one_of_its_checkpoints_is_opened(window, qtbot, runs_root):
    state, panel = window.state, window.views["train"]
    _tiny(window, qtbot)
    _configure(panel, steps=20, every=10)
    with qtbot.waitSignal(panel.controller.finished, timeout=60_000):
        panel.start_training()
    first_run = panel.controller.run_dir
    state.set_preset("seed-toy")
    qtbot.waitUntil(lambda: state.trace.config.E == 3, timeout=20_000)
    assert panel.timeline.label.text() == "no run shown" and not panel.timeline.slider.isEnabled()
    _tiny(window, qtbot)
    _configure(panel, steps=20, every=5)  # a second run: five held-out points
    with qtbot.waitSignal(panel.controller.finished, timeout=60_000):
        panel.start_training()
    assert panel.curve.heldout_points() == 5
    window.loading.open(str(first_run))  # a run folder opens its newest checkpoint
    qtbot.waitUntil(lambda: Path(state.source.name) == first_run / "step-000020", timeout=20_000)
    # the first run's curve, redrawn from its log.jsonl once the panel hears of the opened model (queued)
    qtbot.waitUntil(lambda: panel.curve.heldout_points() == 3, timeout=20_000)
    assert first_run.name in panel.run_label.text()
    qtbot.waitUntil(lambda: state.trace.config.V == 29 and panel.timeline.current_step() == 20, timeout=20_000)


def test_induction_readout_points_out_the_best_head(window, qtbot):
    from explorer.train.induction import induction_scores
    from explorer.train.runs import best_heads

    state = window.state
    readout = window.views["train"].induction
    assert readout.isHidden()  # the classroom preset is no induction model
    state.set_preset("induction")
    qtbot.waitUntil(lambda: state.trace.config.V == 28, timeout=20_000)  # the letters' vocabulary
    assert not readout.isHidden()
    assert window.views["train"].corpus.currentData() == "induction"  # the shown model's task is suggested
    l, h, score = best_heads(induction_scores(state.trace), 1)[0]
    assert f"layer {l} · head {h}" in readout.label.text()
    assert readout.show_best.isEnabled()
    state.select(stage="scores", layer=1 - l, head=(h + 1) % state.trace.config.H)
    readout.show_best.click()
    sel = state.selection
    assert (sel.stage, sel.layer, sel.head) == ("weights", l, h)


def test_real_models_cannot_be_trained_here(window, qtbot, runs_root, monkeypatch):
    state, panel = window.state, window.views["train"]
    monkeypatch.setattr(
        state, "session", dataclasses.replace(state.session, config=state.config.replace(family="llama"))
    )
    _configure(panel)
    assert not panel.start_training()
    assert "only this app's own models" in panel.message.text()
    assert not runs_root.exists()


def test_the_panel_offers_every_corpus_of_the_core():
    from explorer.train.corpora import NAMES
    from explorer.ui.views.training.train_view import CORPORA

    assert CORPORA == NAMES  # one list (explorer.vocab), read by the view without importing torch


def test_start_from_the_shown_weights_continues_the_trained_preset(window, qtbot, runs_root):
    from explorer.weights.checkpoint import load_checkpoint

    state, panel = window.state, window.views["train"]
    shown = np.array(state.trace["params.embed.tok"])  # the classroom preset, trained on english
    _configure(panel, corpus="english", steps=1, batch=2, every=1)
    panel.continue_weights.setChecked(True)
    with qtbot.waitSignal(panel.controller.finished, timeout=60_000):
        panel.start_training()
    start = load_checkpoint(panel.controller.run_dir / "step-000000")
    assert np.array_equal(start.model.state_dict()["embed.tok"].numpy(), shown)
    assert panel.message.text() == ""  # same vocabulary: nothing was rebuilt, the text stays
    assert state.text == "This is a pen ."


def test_the_panel_starts_from_the_same_recipe_as_the_train_command(window):
    from explorer.cli import build_parser
    from explorer.cli.train_cmd import settings_from
    from explorer.train.corpora import get_corpus
    from explorer.train.settings import default_recipe

    panel = window.views["train"]
    for corpus in ("copy", "induction"):
        i = panel.corpus.findData(corpus)
        panel.corpus.setCurrentIndex(i)
        panel.corpus.activated.emit(i)  # the user's choice
        window_settings = panel.train_settings()
        cli = settings_from(build_parser().parse_args(["train", "--corpus", corpus]), get_corpus(corpus))
        assert (window_settings.steps, window_settings.batch_size, window_settings.lr) == (
            cli.steps,
            cli.batch_size,
            cli.lr,
        )
        assert window_settings.checkpoint_every == cli.checkpoint_every == default_recipe(corpus)["checkpoint_every"]
