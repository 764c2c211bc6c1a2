"""Next token panel: top-k bars from the trace, the C-row table, appending a token re-traces."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from explorer.analysis.token_text import visible
from explorer.generation.choose import sample, top_k


@pytest.fixture
def view(qtbot, state, trace):
    from explorer.ui.views.tokens.output_view import OutputView

    state.set_trace(trace)
    v = OutputView(state)
    qtbot.addWidget(v)
    v.resize(420, 700)
    v.show()
    return v


def test_bars_are_the_top_k_of_the_last_position_by_default(view, trace):
    ids, probs = top_k(trace["probs"][0, 4], 10)
    assert [i for i, _, _ in view.bars.items] == ids.tolist()
    assert [p for _, _, p in view.bars.items] == pytest.approx(probs.tolist(), abs=0)
    assert [label for _, label, _ in view.bars.items] == [visible(trace.vocab[i]) for i in ids]  # " to" → "␣to"
    assert "This is a pen ." in view.heading.text()


def test_bars_follow_the_selected_token_and_k(view, state, trace):
    state.select(token=2)
    ids, _ = top_k(trace["probs"][0, 2], 10)
    assert [i for i, _, _ in view.bars.items] == ids.tolist()
    assert "“This is a”" in view.heading.text()
    view.k_spin.setValue(3)
    assert [i for i, _, _ in view.bars.items] == ids[:3].tolist()


def test_table_has_one_row_per_token_like_the_note(view, trace):
    t = view.table
    V = trace.config.V
    assert t.rowCount() == 5
    assert [t.item(i, 0).text() for i in range(5)] == [
        "This",
        "This is",
        "This is a",
        "This is a pen",
        "This is a pen .",
    ]
    headers = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    last = trace.vocab[V - 1].replace(" ", "␣")  # a chip shows a word's leading space as ␣
    assert headers[2:] == ["0\n<pad>", f"1\n{trace.vocab[1]}", "……", f"{V - 1}\n{last}"]
    p = trace["probs"][0]
    from explorer.ui.views.tokens.output_view import fmt_prob

    assert t.item(3, 2).text() == fmt_prob(float(p[3, 0]))
    assert t.item(3, 5).text() == fmt_prob(float(p[3, V - 1]))
    best = trace.vocab[int(np.argmax(p[2]))]
    assert t.item(2, 1).text().startswith(visible(best) + " ")


def test_table_row_and_selection_are_linked(view, state, qtbot):
    state.select(token=1)
    assert view.table.currentRow() == 1
    rect = view.table.visualItemRect(view.table.item(3, 0))
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert state.selection.token == 3


def test_temperature_box_sets_the_option(view, state):
    view.t_spin.setValue(2.0)
    assert state.options.temperature == 2.0


def test_append_most_likely_appends_the_argmax_and_retraces(qtbot, traced):
    from explorer.ui.views.tokens.output_view import OutputView

    state = traced
    view = OutputView(state)
    qtbot.addWidget(view)
    state.select(token=1)  # the bars show position 1; generation still continues the whole sentence
    before = state.trace
    expected = before.vocab[int(np.argmax(before["probs"][0, before.rows[0].length - 1]))]
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        qtbot.mouseClick(view.append_best, Qt.MouseButton.LeftButton)
    assert state.trace is not before
    assert before.tokenizer_kind == "bpe"  # the classroom's pieces carry their own spaces: appended as they are
    assert state.text == "This is a pen ." + expected
    assert state.trace.rows[0].tokens[-1] == expected
    assert state.trace.rows[0].length == 6
    assert view.table.rowCount() == 6
    assert view.where.text() == "position 5 (of 0–5) · temperature 1"  # counted from 0, as the map's rows

    p = state.trace["probs"][0, 5]
    view.rng = np.random.default_rng(5)
    drawn = state.trace.vocab[sample(p, np.random.default_rng(5))]
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        qtbot.mouseClick(view.append_sampled, Qt.MouseButton.LeftButton)
    assert state.trace.rows[0].tokens[-1] == drawn
    assert state.trace.rows[0].length == 7


def test_append_is_off_for_a_snapshot(view, state, trace):

    snapshot = trace.replace({n: trace[n] for n in trace.stored_names()}, origin="/tmp/saved.npz")
    state.set_trace(snapshot)
    assert not view.append_best.isEnabled() and not view.append_sampled.isEnabled()
    assert view.table.rowCount() == 5
