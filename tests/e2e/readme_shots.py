"""The README's stepper and compare pictures, on the default preset (`make screenshots` runs this after the
four `gui --screenshot` pictures):

    QT_QPA_PLATFORM=offscreen python tests/e2e/readme_shots.py docs/

* screenshot-stepper.png: the window at 1366×768, "This is a pen .", the weights map, Ctrl+H on query 3,
  key 1, five steps in;
* screenshot-stepper-slide.png: the same cell on a 1920×1080 slide (H), "what comes next?" held back;
* screenshot-compare.png: File → Compare… at 1366×768, two 16-token sentences that differ in one word;
* screenshot-compare-slide.png: the same on a 1920×1080 slide (C).

Prints one JSON line: the files written and the head each picture shows.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from long_map_shots import settle  # this folder is the script's first import path

STEPPER_TEXT = "This is a pen ."
TEXT_A = "The animal did not cross the busy street because it was much too tired today ."
TEXT_B = "The animal did not cross the busy street because it was much too wide today ."


def wait_until(app, condition, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.processEvents()
        if condition():
            return
        time.sleep(0.01)
    raise TimeoutError("the window did not get there")


def save(app, widget, path: Path) -> str:
    settle(app)
    widget.grab().save(str(path))
    return path.name


def projector(app, slides):
    """The slides at 1920×1080 (full screen takes the offscreen screen's own size on the first show)."""
    wait_until(app, slides.isVisible)
    slides.resize(1920, 1080)
    wait_until(app, lambda: slides.size().width() == 1920)
    return slides


def open_window(text: str):
    from explorer.ui.bridge.state import AppState
    from explorer.ui.preferences import i18n, theme
    from explorer.ui.shell.app import create_application
    from explorer.ui.shell.main_window import MainWindow

    app = create_application()
    theme.apply_theme("light")
    i18n.install_language("en")
    state = AppState(text)
    window = MainWindow(state, restore_layout=False)
    window.persist = False
    window.resize(1366, 768)
    window.apply_default_sizes()
    window.show()
    window.start()
    wait_until(app, lambda: state.trace is not None and state.trace.rows[0].text == text)
    return app, state, window


def stepper_shots(app, state, window, out: Path) -> dict:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from explorer.ui.classroom import presentation

    state.select(stage="weights", layer=0, head=0, token=None)
    settle(app)
    graphics = window.centralWidget().large.graphics
    graphics.setFocus(Qt.FocusReason.TabFocusReason)
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Right):  # query 3 " pen", key 1 " is"
        QTest.keyClick(graphics, key)
    QTest.keyClick(graphics, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    stepper = window.views["anatomy"].stepper
    wait_until(app, lambda: len(stepper.steps) > 0)
    for _ in range(5):
        QTest.keyClick(stepper, Qt.Key.Key_Right)
    files = {"stepper": save(app, window, out / "screenshot-stepper.png")}
    state.select(token=3, key=1)  # the slide's H explains the chosen cell
    slides = projector(app, presentation.show_for(state, window))
    QTest.keyClick(slides, Qt.Key.Key_H)
    wait_until(app, lambda: len(slides.stepper.steps) > 0)
    for _ in range(5):
        QTest.keyClick(slides, Qt.Key.Key_Right)
    files["stepper slide"] = save(app, slides, out / "screenshot-stepper-slide.png")
    slides.close()
    return files


def compare_shots(app, state, window, out: Path) -> dict:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from explorer.ui.classroom import presentation

    state.set_text(TEXT_A)
    wait_until(app, lambda: state.trace is not None and state.trace.rows[0].text == TEXT_A)
    window.actions_.compare.trigger()
    view = window.views["compare"]
    view.bar.value.setText(TEXT_B)
    view.bar.go.click()
    wait_until(app, lambda: view.comparison is not None and view.maps.shown is not None and view.maps.b.isVisible())
    first = view.comparison.ranked()[0]  # the head that differs most, as the table's first row chooses
    state.select(stage="weights", layer=first.layer, head=first.head)
    wait_until(app, lambda: (view.maps.shown.layer, view.maps.shown.head) == (first.layer, first.head))
    top = view.window()
    top.resize(1366, 768)
    files = {"compare": save(app, top, out / "screenshot-compare.png")}
    slides = projector(app, presentation.show_for(state, window))
    QTest.keyClick(slides, Qt.Key.Key_C)
    wait_until(app, lambda: slides.compare_maps.isVisible())
    files["compare slide"] = save(app, slides, out / "screenshot-compare-slide.png")
    slides.close()
    files["head"] = f"{first.layer}.{first.head}"
    return files


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    app, state, window = open_window(STEPPER_TEXT)
    files = stepper_shots(app, state, window, out)
    files.update(compare_shots(app, state, window, out))
    print(json.dumps(files))
    window.close()


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    import os

    os._exit(0)  # the worker threads and Qt's teardown are not what this script is about
