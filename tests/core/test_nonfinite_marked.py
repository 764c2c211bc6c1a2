"""Issue 44 item 2 in the core: which drawn cells are NaN or +∞ (present/nonfinite.py), the finite-check line
found among a trace's notices, and the anatomy of a NaN number said in one step naming its input and the
trace's first NaN tensor, instead of the softmax's "every key blocked: the row is all 0"."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nan_trace import NAN_POSITION, nan_trace  # noqa: E402

from explorer.anatomy import Cell, anatomy  # noqa: E402
from explorer.anatomy.text import step_line  # noqa: E402
from explorer.present.nonfinite import nonfinite_cells, nonfinite_line  # noqa: E402


@pytest.fixture(scope="module")
def trace():
    return nan_trace()


def test_nonfinite_cells_are_nan_and_plus_infinity_not_the_masks_minus_infinity():
    data = np.array([[1.0, np.nan], [-np.inf, np.inf]], dtype=np.float32)
    assert nonfinite_cells(data).tolist() == [[False, True], [False, True]]
    assert nonfinite_cells(np.array([[0.0, -np.inf]], dtype=np.float32)) is None
    assert nonfinite_cells(np.zeros((0, 0), dtype=np.float32)) is None


def test_the_finite_check_line_is_found_whole_among_the_notices(trace):
    line = nonfinite_line(trace.notices)
    assert line is not None and line.startswith("NaN or infinite values from embed.tok on")
    assert line in trace.notices  # the notice itself, not a shortened copy
    assert nonfinite_line(("3 tokens were cut",)) is None


def test_a_nan_weight_says_where_its_nan_came_from_in_one_step(trace):
    i, j = NAN_POSITION, 1
    assert math.isnan(trace.head_map(0, "weights", 0, 0)[i, j])  # the setting: this cell is NaN
    steps = anatomy(trace, Cell("weights", 0, 0, i, key=j))
    ops = [s.op for s in steps]
    assert ops == ["nonfinite", "cell"] and "empty_row" not in ops
    said = steps[0].operands
    assert said["input"].startswith("layers.0.attn.q") and f"query {i}" in said["input"]
    assert said["holds"] == "NaN" and said["first_in_trace"] == "embed.tok"
    assert math.isnan(steps[-1].result) and steps[-1].extra["exact"]
    assert "NaN" in step_line(steps[0]) and "every key blocked" not in step_line(steps[0])


def test_a_weight_whose_row_holds_nan_names_that_row(trace):
    """Query 4's own q and key 0's k are finite; the softmax's row holds key 3's NaN score."""
    steps = anatomy(trace, Cell("weights", 0, 0, 4, key=0))
    assert steps[0].op == "nonfinite" and steps[0].operands["input"].startswith("layers.0.attn.masked")


def test_finite_cells_and_the_masks_minus_infinity_keep_their_chain(trace):
    healthy = anatomy(trace, Cell("weights", 0, 0, 1, key=0))
    assert "nonfinite" not in [s.op for s in healthy] and "divide" in [s.op for s in healthy]
    blocked = anatomy(trace, Cell("masked", 0, 0, 1, key=3))  # −∞ by the causal mask
    assert "nonfinite" not in [s.op for s in blocked] and blocked[-2].op == "mask"


def test_the_hover_of_a_nan_cell_says_nan_with_short_operands(trace):
    """Python writes "nan", and a NaN never "added up" at any precision: its operands printed 12 decimals."""
    from explorer.present.explain import explain_cell

    said = explain_cell(trace, "scores", 0, 0, 0, NAN_POSITION, 1)
    assert said.endswith("= NaN") and "nan" not in said
    operands = said.split(" = ")[1].replace("(", "").replace(")", "").replace("NaN·", "").split(" + ")
    assert all(len(x.split(".")[-1]) <= 3 for x in operands), said


def test_minus_infinity_counts_where_no_mask_reaches():
    data = np.array([[1.0, -np.inf]], dtype=np.float32)
    assert nonfinite_cells(data) is None and nonfinite_cells(data, minus_infinity=True).tolist() == [[False, True]]
