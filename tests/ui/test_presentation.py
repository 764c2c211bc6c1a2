"""Presentation mode: full screen, large type, keys move through the stages and the main window follows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget


@pytest.fixture
def slides(qtbot, state, trace):
    from explorer.ui.classroom import presentation

    state.set_trace(trace)
    parent = QWidget()  # stands in for the main window; kept alive while the test runs
    qtbot.addWidget(parent)
    w = presentation.show_for(state, parent)
    qtbot.waitExposed(w)
    yield w


def test_f5_opens_full_screen_with_large_type_and_keys_drive_the_main_window(window, state, qtbot):
    from explorer.ui.classroom import presentation
    from explorer.ui.classroom.slide_window import SlideWindow

    state.select(stage="scores", layer=0)
    window.actions_.presentation.trigger()  # F5
    slides = window.findChild(SlideWindow, "PresentationWindow")
    assert slides is not None and slides.isVisible() and slides.isFullScreen()
    from PySide6.QtGui import QFontInfo

    base = QFontInfo(QApplication.font()).pixelSize()  # a slide's type is in pixels, from the screen's height
    assert QFontInfo(slides.title.font()).pixelSize() >= 2 * base
    assert QFontInfo(slides.caption.font()).pixelSize() >= 1.5 * base
    assert slides.title.text() == "Similarity scores Q·Kᵀ"
    assert "Q (5, 32) · Kᵀ (32, 5) → S (5, 5)" in slides.edge.text()
    assert slides.footer.text().startswith("stage 5 / 18")  # the classroom model's pre-norm is stage 3

    qtbot.keyClick(slides, Qt.Key.Key_Right)
    assert state.selection.stage == "scaled"
    flow = window.views["flow"]
    assert flow.boxes["scaled"].selected and not flow.boxes["scores"].selected  # the main window follows
    assert slides.title.text() == "Scaling by √D" and "√32 = 5.66" in slides.caption.text()
    qtbot.keyClick(slides, Qt.Key.Key_Left)
    assert state.selection.stage == "scores"

    qtbot.keyClick(slides, Qt.Key.Key_Escape)
    assert not slides.isVisible()
    window.actions_.presentation.trigger()  # F5 again: the same window comes back
    assert window.findChild(SlideWindow, "PresentationWindow") is slides and slides.isVisible()
    presentation.show_for(state, window)  # F5 while it is open leaves it
    assert not slides.isVisible()


def test_clicker_keys_walk_every_layer(slides, state, qtbot):
    state.select(stage="block", layer=0)
    assert slides.where.text() == "layer 0 of L = 3"
    qtbot.keyClick(slides, Qt.Key.Key_PageDown)  # into layer 1: its pre-norm comes first
    assert (state.selection.stage, state.selection.layer) == ("norm_attn", 1)
    assert slides.where.text() == "layer 1 of L = 3"
    qtbot.keyClick(slides, Qt.Key.Key_Space)
    assert state.selection.stage == "qkv"
    qtbot.keyClick(slides, Qt.Key.Key_PageUp)
    qtbot.keyClick(slides, Qt.Key.Key_PageUp)
    assert (state.selection.stage, state.selection.layer) == ("block", 0)
    qtbot.keyClick(slides, Qt.Key.Key_End)
    assert state.selection.stage == "probs" and slides.footer.text().startswith("stage 18 / 18")
    assert slides.where.text() == ""  # outside the layers
    qtbot.keyClick(slides, Qt.Key.Key_Home)
    assert state.selection.stage == "tokens"
    assert "5 tokens" in slides.caption.text()


def test_f5_inside_leaves_and_the_picture_is_the_central_view(slides, state, qtbot):
    from explorer.ui.views.tensor.tensor_view import TensorView

    assert isinstance(slides.tensor, TensorView)
    state.select(stage="weights", head=2)
    assert slides.tensor.head_spin.value() == 2  # it draws the selected stage and head
    qtbot.keyClick(slides, Qt.Key.Key_F5)
    assert not slides.isVisible()
