"""The stepper's widgets, built once: the board (which cell, the step's number, what is done, what it reads,
what it gives, the sum so far), the teacher's controls (first, back, play or pause, next, last, the speed,
"what comes next?"), the scrub bar and the steps as a table. Only construction: stepper.py fills them."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontInfo, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSlider,
    QTableWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

SPEEDS = (0.5, 1.0, 2.0, 4.0)  # × one step per beat (stepper.BEAT_MS)
# Each line of the board × the text size: the result is what the last row must read.
LINE_SCALES = {"heading": 1.1, "counter": 1.0, "label": 1.5, "operands": 1.35, "result": 2.6, "running": 1.5}


def _label(mono: bool = False, bold: bool = False) -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)  # a token's text is shown, never read as markup
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if mono or bold:
        font = QFont(label.font())
        if mono:
            font.setFamily("monospace")
            font.setStyleHint(QFont.StyleHint.Monospace)
        font.setBold(bold)
        label.setFont(font)
    return label


def build(stepper) -> None:
    stepper.board = QFrame()
    stepper.board.setFrameShape(QFrame.Shape.StyledPanel)
    stepper.lines = {
        "heading": _label(bold=True),
        "counter": _label(),
        "label": _label(bold=True),
        "operands": _label(mono=True),
        "result": _label(mono=True, bold=True),
        "running": _label(mono=True),
    }
    stepper.lines["counter"].setForegroundRole(QPalette.ColorRole.PlaceholderText)
    board = QVBoxLayout(stepper.board)
    for label in stepper.lines.values():
        board.addWidget(label)
    board.addStretch(1)
    stepper.controls = _controls(stepper)
    stepper.scrub = QSlider(Qt.Orientation.Horizontal)
    stepper.scrub.setPageStep(1)
    stepper.ask_next = QCheckBox()  # a row of its own: beside the buttons it squeezed Play in a narrow panel
    stepper.table = _table()
    lay = QVBoxLayout(stepper)
    lay.setContentsMargins(4, 4, 4, 4)
    lay.addWidget(stepper.board, 3)
    lay.addWidget(stepper.controls)
    lay.addWidget(stepper.scrub)
    lay.addWidget(stepper.ask_next)
    lay.addWidget(stepper.table, 1)


def _controls(stepper) -> QWidget:
    row = QWidget()
    lay = QHBoxLayout(row)
    lay.setContentsMargins(0, 0, 0, 0)
    stepper.buttons = {}
    # Glyphs every font has (⏮ ⏭ ⏸ are missing from DejaVu Sans); play and pause are words (retranslate).
    for key, text in (("first", "|◀"), ("back", "◀"), ("play", ""), ("next", "▶"), ("last", "▶|")):
        b = QToolButton()
        b.setText(text)
        b.setMinimumWidth(b.fontMetrics().horizontalAdvance("▶|") * 2)
        stepper.buttons[key] = b
        lay.addWidget(b)
    stepper.buttons["play"].setCheckable(True)
    stepper.speed = QComboBox()
    for factor in SPEEDS:
        stepper.speed.addItem(f"{factor:g}×", factor)
    stepper.speed.setCurrentIndex(SPEEDS.index(1.0))
    lay.addWidget(stepper.speed)
    lay.addStretch(1)
    return row


def _table() -> QTableWidget:
    table = QTableWidget(0, 4)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    header = table.horizontalHeader()
    # Sized once after filling (stepper._fill_table): sized to contents at every item, 42 rows took 200 ms.
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    return table


def base_px(widget: QWidget) -> int:
    """The widget's text size in pixels (the window's text size, View → Text size)."""
    return QFontInfo(widget.font()).pixelSize()


def scale_fonts(stepper, px: int) -> None:
    """Every line of the board from ``px`` pixels up (a slide, or the window's text size)."""
    for key, label in stepper.lines.items():
        font = QFont(label.font())
        font.setPixelSize(max(1, round(px * LINE_SCALES[key])))
        label.setFont(font)
