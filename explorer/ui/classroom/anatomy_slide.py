"""“How is this made?” on a slide (issue 39): H (or Ctrl+H) builds the chosen cell's number beside the figure,
in the slide's type, with "what comes next?" on; while it is shown, → Space ← Home End and P walk and play
its steps (the stage keys wait), and H or Esc puts it away. The same stepper as beside the map."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QWidget

from explorer.ui.classroom.slide_window import BACK_KEYS, NEXT_KEYS
from explorer.ui.views.anatomy.stepper import Stepper
from explorer.ui.views.tensor import tensor_anatomy


def build(window, figure: QHBoxLayout) -> None:
    window.stepper = Stepper(window.state)
    for w in (window.stepper, *window.stepper.findChildren(QWidget)):
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # every key belongs to the slide
    window.stepper.hide()
    figure.addWidget(window.stepper, 2)
    window.state.traceChanged.connect(lambda trace: window.stepper.isVisible() and window.stepper.retrace(trace))


def toggle(window) -> None:
    """Show the stepper for the cell the slide's map has chosen (put it away if it is shown)."""
    stepper = window.stepper
    if stepper.isVisible():
        stepper.pause()
        stepper.hide()
        window.refresh()
        return
    cell = tensor_anatomy.meant_cell(window.tensor)
    asked = tensor_anatomy.anatomy_ask(window.tensor, *cell) if cell is not None else None
    if asked is None or window.state.trace is None:
        window.footer.setText(
            QCoreApplication.translate(
                "PresentationWindow", "How is this made? Click a cell of the map first, then press H."
            )
        )
        return
    stepper.explain(asked, window.state.trace)
    stepper.show()
    window.footer.setText(
        QCoreApplication.translate(
            "PresentationWindow", "→ the next step · ← back · Home / End · P to play · H to go back to the stages"
        )
    )


def key(window, event: QKeyEvent) -> bool:
    """True: the stepper took the key."""
    k, stepper = event.key(), window.stepper
    if k == Qt.Key.Key_H:
        toggle(window)
        return True
    if not stepper.isVisible() or event.modifiers() & (
        Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ControlModifier
    ):
        return False
    if k == Qt.Key.Key_Escape:
        toggle(window)
    elif k in NEXT_KEYS:
        stepper.forward()
    elif k in BACK_KEYS:
        stepper.back()
    elif k in (Qt.Key.Key_Home, Qt.Key.Key_End):
        stepper.go_to(0 if k == Qt.Key.Key_Home else len(stepper.steps))
    elif k == Qt.Key.Key_P:
        stepper.buttons["play"].toggle()
    else:
        return False
    return True
