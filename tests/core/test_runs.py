"""explorer.train.runs: run folders, model paths, ETA and head ranking (no Qt)."""

from __future__ import annotations

import json
from datetime import datetime

import numpy as np

from explorer.train import runs


def _fake_checkpoint(folder, corpus="copy"):
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(
        json.dumps({"format": "attention-explorer-checkpoint", "train": {"corpus": {"name": corpus}}})
    )
    (folder / "model.safetensors").write_bytes(b"x")
    return folder


def test_run_dir_and_latest_checkpoint(tmp_path):
    run = tmp_path / "run"
    a = _fake_checkpoint(run / "step-000000")
    b = _fake_checkpoint(run / "step-000020")
    assert runs.checkpoint_step_of(b) == 20
    assert runs.checkpoint_step_of(tmp_path / "model.gguf") is None
    assert runs.run_dir_of(a) == run
    assert runs.run_dir_of(run) == run
    assert runs.run_dir_of(tmp_path) is None
    assert runs.latest_checkpoint(run) == b
    assert runs.checkpoint_corpus(b) == "copy"
    assert runs.checkpoint_corpus(tmp_path) is None


def test_model_path_opens_a_run_folders_newest_checkpoint(tmp_path):
    from explorer.session.open import model_path

    run = tmp_path / "run"
    latest = _fake_checkpoint(run / "step-000010")
    _fake_checkpoint(run / "step-000005")
    assert model_path(str(run)) == str(latest)  # a run folder opens its newest checkpoint
    assert model_path(str(latest / "config.json")) == str(latest)
    assert model_path(str(latest / "model.safetensors")) == str(latest)
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    assert model_path(str(gguf)) == str(gguf)
    assert model_path("smollm2") == "smollm2"  # names pass through


def test_run_names_are_unique_and_sortable(tmp_path):
    now = datetime(2025, 1, 2, 14, 30, 0)
    assert runs.new_run_name("copy", now) == "20250102-143000-copy"
    assert runs.new_run_name("/home/u/my notes.txt", now) == "20250102-143000-my-notes"
    first = runs.unique_run_dir(tmp_path, "copy", now)
    first.mkdir()
    second = runs.unique_run_dir(tmp_path, "copy", now)
    assert second != first and second.name == "20250102-143000-copy-2"


def test_eta_and_durations():
    assert runs.eta_seconds(0, 100, 0.0) is None
    assert runs.eta_seconds(25, 100, 10.0) == 30.0
    assert runs.eta_seconds(100, 100, 10.0) == 0.0
    assert runs.format_duration(None) == "—"
    assert runs.format_duration(7.4) == "0:07"
    assert runs.format_duration(754) == "12:34"
    assert runs.format_duration(3723) == "1:02:03"


def test_best_heads_skips_nan_and_orders():
    scores = np.array([[0.1, np.nan, 0.3], [0.9, 0.2, 0.5]])
    assert runs.best_heads(scores, 2) == [(1, 0, 0.9), (1, 2, 0.5)]
    assert runs.best_heads(np.full((2, 2), np.nan)) == []


def test_nearest_index():
    assert runs.nearest_index([], 3) == 0
    assert runs.nearest_index([0, 10, 20], None) == 2
    assert runs.nearest_index([0, 10, 20], 12) == 1
    assert runs.nearest_index([0, 10, 20], 15) == 2  # a tie goes to the later step
