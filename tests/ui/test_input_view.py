"""The text box and token chips: debounced re-tracing, chips that match the trace, unknown tokens marked,
chip clicks select, selections elsewhere highlight, and long inputs stay fast."""

from __future__ import annotations

import time

import pytest
from live_state import live, make_trace, wait_trace
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette

from explorer.analysis.token_text import visible
from explorer.ui.background.render_queue import render_queue


@pytest.fixture
def view(input_view):
    return input_view


def _pixel(widget, point):
    return widget.grab().toImage().pixelColor(point)


def _fill_point(rect):
    """A point inside a chip's fill, left of its text."""
    return rect.topLeft() + QPoint(3, rect.height() // 2)


def test_typing_retraces_after_the_debounce_and_chips_match(qtbot, state, view):
    with live(state, qtbot):
        requests = []
        state.requestChanged.connect(requests.append)
        qtbot.keyClicks(view.text, " zorblax")  # eight keystrokes, one request after the pause
        assert requests == []  # nothing sent while typing
        trace = wait_trace(qtbot, state, lambda t: "zorblax" in t.rows[0].text)
        assert len(requests) == 1
        assert requests[0].text == "This is a pen . zorblax"
        chips = view.chips.rows()
        assert [c.text for c in chips[0]] == [visible(t) for t in trace.rows[0].tokens]
        assert [c.token_id for c in chips[0]] == list(trace.rows[0].ids)
        assert "".join(trace.rows[0].tokens) == "This is a pen . zorblax"  # subword pieces, no <unk>
        assert [c.unknown for c in chips[0]] == [False] * len(chips[0])
        assert not any("not in the vocabulary" in c.tooltip for c in chips[0])


def test_unknown_chip_is_drawn_differently(qtbot, state, view):
    state.set_trace(make_trace("The zorblax is a pen .", preset="seed-toy"))  # a word-level vocabulary
    qtbot.waitUntil(lambda: len(view.chips.rows()[0]) == 6)
    known, unknown = view.chips.chip_rect(0, 0), view.chips.chip_rect(0, 1)
    assert _pixel(view.chips, _fill_point(known)) != _pixel(view.chips, _fill_point(unknown))
    assert "unk" in view.chips.rows()[0][1].tooltip
    assert "1 not in the vocabulary" in view.summary.text()


def test_clicking_a_chip_selects_its_row_and_token(qtbot, state, view):
    state.set_trace(make_trace("This is a pen .\nIs this a dog ?"))
    rect = view.chips.chip_rect(1, 3)
    qtbot.mouseClick(view.chips, Qt.MouseButton.LeftButton, pos=rect.center())
    assert (state.selection.row, state.selection.token) == (1, 3)
    qtbot.keyClick(view.chips, Qt.Key.Key_Left)  # arrows step through the tokens
    assert state.selection.token == 2


def test_a_selection_from_elsewhere_highlights_the_chip(qtbot, state, view):
    state.set_trace(make_trace())
    highlight = view.palette().color(QPalette.ColorRole.Highlight)
    inside = _fill_point(view.chips.chip_rect(0, 2))
    assert _pixel(view.chips, inside) != highlight
    state.select(token=2)
    assert view.chips.selected() == (0, 2)
    assert _pixel(view.chips, inside) == highlight
    assert _pixel(view.chips, _fill_point(view.chips.chip_rect(0, 0))) != highlight


def test_text_changed_elsewhere_shows_in_the_box(qtbot, state, view):
    state.set_preset("seed-toy")  # the Model menu: a new example sentence
    assert view.text.toPlainText() == "This is\na pen"


def test_a_pending_edit_is_not_overwritten(qtbot, state, view):
    view.text.setPlainText("Is this a dog ?")  # still within the debounce
    state.set_options(scale=False)  # a control changes meanwhile: its request carries the old text
    assert view.text.toPlainText() == "Is this a dog ?"
    qtbot.waitUntil(lambda: state.text == "Is this a dog ?", timeout=30_000)


def _chips_shown(state, view, n: int) -> float:
    """Seconds from a trace of ``n`` word tokens set on the state to its chips laid out and painted."""
    trace = make_trace(
        ("This is a pen . " * (n // 5)).strip(), preset="seed-toy", lazy_pairwise=True
    )  # a chip per word
    assert trace.rows[0].length == n
    start = time.perf_counter()
    state.set_trace(trace)
    if n > 256:
        assert view.chips.rows() == [] or len(view.chips.rows()[0]) != n  # a long input's chips wait for their turn
    render_queue().flush()
    view.grab()  # lay out and paint
    elapsed = time.perf_counter() - start
    assert len(view.chips.rows()[0]) == n
    return elapsed


def test_a_thousand_tokens_build_quickly(qtbot, state, view):
    # measured here, alternating, the fastest of two each: a busy machine slows both alike
    hundred, thousand = float("inf"), float("inf")
    for _ in range(2):
        hundred = min(hundred, _chips_shown(state, view, 100))
        thousand = min(thousand, _chips_shown(state, view, 1000))
    print(f"100 chips: {hundred * 1000:.0f} ms, 1,000 chips: {thousand * 1000:.0f} ms")
    assert thousand < 30 * hundred  # about linear in the chips (ten times as many); a quadratic cost is 100×
    state.select(token=999)  # the last chip scrolls into view

    def shown() -> bool:
        rect = view.chips.chip_rect(0, 999)
        top = view.scroll.verticalScrollBar().value()
        return top <= rect.top() and rect.bottom() <= top + view.scroll.viewport().height()

    qtbot.waitUntil(shown, timeout=30_000)
