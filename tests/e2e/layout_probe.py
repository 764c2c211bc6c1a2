"""Run under Xvfb (with a window manager) by test_map_first_states.py: the window opened the way a teacher
opens it (``explorer.ui.shell.app.launch``, the saved settings of ``XDG_CONFIG_HOME``), driven through the
states of issue 38 and measured from its widgets and its grab. Prints one JSON object on its last line.

    DISPLAY=:N QT_QPA_PLATFORM=xcb python tests/e2e/layout_probe.py '{"steps": [...]}'

Steps (in order): ``{"text": "..."}``, ``{"text_scale": 1.25}`` (View → Text size, remembered),
``{"open": "generate"}``, ``{"focus": true}``, ``{"measure": "name"}`` (or ``"shot"``: also save a PNG under
``out``), ``{"slides": "name"}`` (presentation mode measured at the screen's size), ``{"quit": true}`` (closes
the window: its layout is saved, as Ctrl+Q does).
"""

from __future__ import annotations

import json
import os
import sys
import time


def wait_until(app, condition, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.processEvents()
        if condition():
            return True
        time.sleep(0.01)
    return False


def steady(app, window) -> None:
    """Until two paints in a row lay the map out the same (the axes arrange their labels when painted)."""
    from PySide6.QtWidgets import QWidget

    from explorer.ui.background.render_queue import render_queue

    seen: list = []

    def same() -> bool:
        for _ in range(3):
            app.sendPostedEvents()
            app.processEvents()
            if render_queue().pending():
                render_queue().flush()
        pending = getattr(window, "_room_check", None)
        if pending is not None and pending.isActive():  # the map's room is checked a moment after a change
            return False
        window.grab()
        large = window.views["tensor"].large if hasattr(window, "views") else window.tensor.large
        geo = [(w.isVisible(), w.geometry().getRect()) for w in window.findChildren(QWidget)]
        seen.append((large.cells_rect(), len(large.left.drawn()), len(large.bottom.drawn()), geo))
        return len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]

    if not wait_until(app, same, 30):
        print("never steady:", seen[-4:], file=sys.stderr)


def run(app, window, state, steps: list, out: str) -> dict:
    from tests.e2e.map_measure import cut_labels, measure_map

    result: dict = {}
    for step in steps:
        if "text" in step:
            state.set_text(step["text"])
            wait_until(app, lambda t=step["text"]: state.trace is not None and state.trace.rows[0].text == t)
            state.select(stage="weights", layer=0, head=0)
        elif "text_scale" in step:
            state.set_text_size(step["text_scale"])  # as View → Text size does, remembered
        elif "open" in step:
            window.open_panel(step["open"])
        elif "focus" in step:
            window.focus_mode.set_active(step["focus"])
        elif "measure" in step or "shot" in step:
            steady(app, window)
            name = step.get("measure") or step["shot"]
            got = measure_map(window, window.views["tensor"].large)
            got["caption_cut"] = cut_labels(window.docks["flow"]) + cut_labels(window.views["tensor"])
            got["folded"] = folded_lines(window)
            got["docks"] = sorted(n for n, d in window.docks.items() if d.isVisible())
            got["tokens"] = state.trace.rows[0].length
            got["maximized"] = window.isMaximized()
            if "shot" in step:
                window.grab().save(f"{out}/{name}.png")
            result[name] = got
        elif "slides" in step:
            result[step["slides"]] = slides(app, window, state)
        elif "quit" in step:
            window.close()
    return result


def folded_lines(window) -> list[str]:
    """The lines around the map that gave it their room (map_room.py): folded to one line, or hidden."""
    from explorer.ui.views.folding_label import FoldingLabel

    tensor = window.views["tensor"]
    lines = [
        label.objectName() or label.full_text()[:30] for label in window.findChildren(FoldingLabel) if label.folded
    ]
    hidden = [
        name for name, shown in (("title", tensor.large.title_wanted), ("hover", tensor.hover_line_wanted)) if not shown
    ]
    return lines + hidden


def slides(app, window, state) -> dict:
    from explorer.ui.classroom.slide_window import SlideWindow
    from tests.e2e.map_measure import measure_map

    window.actions_.presentation.trigger()
    found: list = []
    wait_until(app, lambda: found.extend(window.findChildren(SlideWindow, "PresentationWindow")) or bool(found))
    slide = found[0]
    wait_until(app, lambda: slide.isVisible() and slide.width() >= 0.9 * slide.screen().size().width())
    steady(app, slide)
    got = measure_map(slide, slide.tensor.large)
    slide.close()
    return got


def main() -> None:
    request = json.loads(sys.argv[1])
    from PySide6.QtCore import QTimer

    from explorer.session.launch import LaunchOptions
    from explorer.ui.shell.app import create_application, launch
    from explorer.ui.shell.main_window import MainWindow

    app = create_application()
    result: dict = {}

    def drive() -> None:
        window = next((w for w in app.topLevelWidgets() if isinstance(w, MainWindow)), None)
        if window is None or not window.isVisible():
            QTimer.singleShot(20, drive)
            return
        state = window.state
        try:
            wait_until(app, lambda: state.trace is not None, 120)
            state.select(stage="weights", layer=0, head=0)
            result.update(run(app, window, state, request["steps"], request.get("out", ".")))
        except Exception as error:  # noqa: BLE001 - said in the JSON, the test shows it
            import traceback

            result["error"] = traceback.format_exc() or repr(error)
        if window.isVisible():
            window.close()
        app.quit()

    QTimer.singleShot(0, drive)
    code = launch(
        LaunchOptions(
            text=request.get("start_text"),
            preset=request.get("preset"),
            language=request.get("lang"),
            theme="light",
        )
    )
    from explorer.ui.preferences import settings

    settings.flush()  # what closing the window saved, written now: the process ends without its teardown
    print(json.dumps(result), flush=True)
    # Qt's teardown after a window with the Generate panel open crashed the process (also without issue 38's
    # changes); what is measured here is the window, so the process ends at once
    os._exit(code)


if __name__ == "__main__":
    main()
