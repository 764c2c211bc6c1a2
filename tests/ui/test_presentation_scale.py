"""Presentation that scales with the screen (issue 22): every text of every slide, the figure's tick labels
and colour-bar numbers included, at least 20 px on a 1080-line projector and in proportion elsewhere (14 px
at 720 lines); every slide's figure has a numbered scale. Read back from the laid-out slide."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QLabel, QTableWidget, QWidget

from explorer.present.stage_walk import walk
from tests.ui.waits import wait_laid_out

SIZES = [(1280, 720, 14), (1920, 1080, 20)]


def settle(qtbot) -> None:
    """Until the slides stop moving: a condition, not a number of event-loop turns."""
    wait_laid_out(qtbot)


def shown_px(widget: QWidget) -> int:
    return QFontInfo(widget.font()).pixelSize()


@pytest.mark.parametrize("width, height, least", SIZES, ids=["1280x720", "1920x1080"])
def test_every_text_of_every_slide_scales_with_the_screen(traced, qtbot, width, height, least):
    from explorer.ui.classroom import presentation
    from explorer.ui.views.map.heatmap import Heatmap

    state = traced
    state.set_text("The animal didn't cross the street because it was too tired.")
    parent = QWidget()
    qtbot.addWidget(parent)
    slides = presentation.show_for(state, parent)
    slides.setWindowState(slides.windowState() & ~slides.windowState())
    slides.setFixedSize(width, height)  # the offscreen screen stands in for a projector of this size
    settle(qtbot)
    trace = state.trace
    small = []
    for stage, layer in walk(trace.layers, trace.config):
        state.select(stage=stage, layer=layer)
        settle(qtbot)
        slides.grab()  # the axes lay their labels out when painted
        for label in slides.findChildren(QLabel):
            if label.isVisible() and label.text() and shown_px(label) < least:
                small.append((stage, "label", label.text()[:30], shown_px(label)))
        for table in slides.findChildren(QTableWidget):
            if table.isVisible() and shown_px(table) < least:
                small.append((stage, "table", shown_px(table)))
        maps = [h for h in slides.findChildren(Heatmap) if h.isVisible()]
        assert maps, stage
        for h in maps:
            for axis in (h.left, h.bottom):
                px = axis.style["tickFont"].pixelSize()
                if axis.drawn() and px < least:
                    small.append((stage, axis.orientation, px))
            if h.bar is not None:
                bar_px = (h.bar.axis.style["tickFont"] or h.bar.axis.font()).pixelSize()
                numbers = h.bar_numbers()
                assert len(numbers) >= 2 and len(set(numbers)) == len(numbers), (stage, numbers)  # a scale
                if bar_px < least:
                    small.append((stage, "colour bar", bar_px))
        assert any(h.bar is not None and h.bar.isVisible() for h in maps), stage  # every slide has a scale
    assert not small, small
    slides.close()
