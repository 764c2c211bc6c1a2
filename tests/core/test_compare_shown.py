"""One head of a comparison as the window draws it (explorer/compare/shown.py): both runs on one scale that
holds both runs' largest weight, B − A on a scale symmetric about 0 that holds its largest change, the cells
a run has no token in hatched, and a unit one run lacks labelled in brackets on that run's map only."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.compare import Pair, Run, compare
from explorer.compare.shown import shown_head, unit_of_token
from explorer.session import ModelSource
from explorer.session.open import open_source
from explorer.trace import run_trace

A = "the cat sat on the mat because it was very tired ."
B = "the cat sat on the mat because it was very wide ."


@pytest.fixture(scope="module")
def comparison():
    bundle = open_source(ModelSource("preset", "classroom"))
    return compare(Pair(Run(run_trace(bundle, A)), Run(run_trace(bundle, B))))


def test_one_scale_for_both_runs_and_a_symmetric_one_for_the_difference(comparison):
    for layer, head in ((0, 0), (1, 1)):
        shown = shown_head(comparison, layer, head)
        weights = [
            comparison.pair.a.trace.head_map(layer, "weights", 0, head),
            comparison.pair.b.trace.head_map(layer, "weights", 0, head),
        ]
        # gathered cells are sums of the sentence's weights: no gathered cell exceeds the largest row's total (1),
        # and the scale's top is the larger of the two runs' largest cells
        assert shown.levels[0] == 0.0
        assert shown.levels[1] == pytest.approx(max(np.nanmax(shown.a), np.nanmax(shown.b)))
        assert shown.levels[1] <= 1.0 + 1e-6 and max(float(w.max()) for w in weights) <= 1.0 + 1e-6
        low, high = shown.difference_levels
        assert low == -high and high == pytest.approx(np.nanmax(np.abs(shown.b - shown.a)))
        assert np.array_equal(np.isnan(shown.difference), np.isnan(shown.a) | np.isnan(shown.b))
        assert shown.hatched_a[np.isnan(shown.a)].all() and shown.hatched_difference[np.isnan(shown.difference)].all()


def test_a_word_one_run_lacks_is_bracketed_on_that_runs_map_only(comparison):
    shown = shown_head(comparison, 0, 0)
    for unit, label_a, label_b in zip(comparison.alignment.units, shown.labels_a, shown.labels_b):
        assert label_a.startswith("[") == (not unit.a)
        assert label_b.startswith("[") == (not unit.b)
    assert any(label == "[wide]" or label.startswith("[w") for label in shown.labels_a)  # B's word, on A's map


def test_each_token_of_a_run_finds_its_aligned_unit(comparison):
    for side, run in (("a", comparison.pair.a), ("b", comparison.pair.b)):
        for token in range(run.length):
            unit = unit_of_token(comparison, side, token)
            assert token in comparison.alignment.units[unit].side(side)
    assert unit_of_token(comparison, "a", 10_000) is None
