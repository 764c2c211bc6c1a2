"""Start the desktop application: QApplication, language, theme, state, worker, main window."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from explorer import vocab
from explorer.session import Preferences
from explorer.session.launch import LaunchOptions
from explorer.ui.background.gui_gc import collect_on_gui_thread
from explorer.ui.bridge.state import AppState, ModelSource
from explorer.ui.preferences import i18n, settings, theme
from explorer.ui.shell.screenshot import screenshot_when_ready
from explorer.ui.shell.start_selection import select_at_start
from explorer.util.paths import resource

# How long a thread may keep the interpreter when another asks for it (Python's default: 5 ms). While a
# trace computes in the worker, the window's thread asks for it to paint and to answer the user; at 5 ms
# its waits added up to the longest stall of a 1,024-token trace: median of five 29.4 and 29.7 ms, against
# 20.7 and 20.9 ms at 1 ms (benchmarks/bench_stall.py, GPT-2-small shape). A thread alone is never interrupted.
GUI_SWITCH_INTERVAL_S = 0.001


def create_application(argv: list[str] | None = None) -> QApplication:

    sys.setswitchinterval(GUI_SWITCH_INTERVAL_S)
    app = QApplication.instance() or QApplication(argv or sys.argv[:1])
    collect_on_gui_thread(app)  # garbage collected on this thread only: explorer/ui/background/gui_gc.py
    app.setApplicationName("Attention Explorer")
    app.setOrganizationName(settings.ORG)
    app.setDesktopFileName("io.github.attention_explorer.AttentionExplorer")
    import pyqtgraph as pg

    pg.setConfigOptions(imageAxisOrder="row-major")  # images are (rows, cols) like every matrix in the trace
    icon = resource("icons", "attention-explorer.svg")
    if icon.is_file():
        app.setWindowIcon(QIcon(str(icon)))
    return app


def launch(options: LaunchOptions | None = None) -> int:
    """Open the window as ``options`` say (explorer/session/launch.py); returns the exit code."""
    o = options or LaunchOptions()
    opened = o.opened
    if o.snapshot and opened is None:
        # Read before any window exists: a damaged snapshot is one `error:` line (gui_cmd reads it earlier still).
        from explorer.export.snapshot import read_snapshot

        opened = read_snapshot(o.snapshot)
    app = create_application()
    collector = collect_on_gui_thread(app)
    collector.hold_until_started()  # nothing collected while the window is built and torch imported
    try:
        return _run(app, o, opened, collector)
    finally:
        collector.started()  # however the window ended, collection goes on


def _run(app: QApplication, o: LaunchOptions, opened, collector) -> int:
    text, preset, model, snapshot, stage, language = o.text, o.preset, o.model, o.snapshot, o.stage, o.language
    theme_name, screenshot, size, presentation, lesson, step = (
        o.theme,
        o.screenshot,
        o.size,
        o.presentation,
        o.lesson,
        o.step,
    )
    fresh = screenshot is not None  # screenshots must not depend on (or change) a user's saved session
    chosen = _restore_access(o.palette, o.text_scale, fresh)
    window, state = _open_window(text, preset, model, language, theme_name, fresh, chosen)
    collector.start_after_first(state.traceChanged, state.errorRaised)
    _place(window, size, restored=window.geometry_restored, exact=screenshot is not None)
    for note in window.restore_notes:  # saved values that could not be used: said, never a traceback
        print(f"note: {note}", file=sys.stderr)
        window.statusBar().showMessage(QCoreApplication.translate("WindowState", note), 15_000)
    if stage:
        state.select(stage=stage)
    if o.interventions is not None and not o.interventions.empty:  # gui --ablate/--cut: the panel in front
        state.set_interventions(o.interventions)
        window.open_panel("interventions")
    window.show()
    timings = os.environ.get("ATTENTION_EXPLORER_TIMINGS")
    if timings:  # benchmarks/bench_start.py: when the window and the first trace appeared, then quit
        _record_start_timings(app, state, Path(timings))
    if opened is not None:
        if not o.temporary_snapshot:  # show()'s snapshot is deleted when the window closes: not a recent file
            settings.add_recent(str(snapshot))
        state.set_trace(opened, editable_sizes=False)
    else:
        if lesson is not None:  # its step sets the request the first trace computes
            from explorer.lessons import DEFAULT_START

            window.lessons.player.open(lesson, step, DEFAULT_START if fresh else None)
        window.start()
    # gui --layer/--head/--row/--token/--key: selected in the snapshot now, else once the first trace is there
    selected = select_at_start(window, state, o.asked_selection(), shown=opened is not None)
    if presentation:
        _present(window, lesson is not None, size if screenshot else None)
    if o.generate:  # gui --generate N: N greedy tokens once the first trace is there, the Generate panel in front
        _generate_after_first_trace(window, state, o.generate, bool(screenshot))
    if screenshot:
        # The picture waits for the generation, or for the selection asked of a live model (a layer it had
        # not captured is traced first).
        ready = state.generation.changed if o.generate else None
        if ready is None and selected is not None and opened is None:
            ready = selected.done
        return screenshot_when_ready(app, window, state, Path(screenshot), bool(snapshot), size, ready)
    return app.exec()


def _open_window(text, preset, model, language, theme_name, fresh: bool, chosen: tuple[str, float]):
    """Language and theme, the state (from the command line, else the saved session; ``chosen``: the palette
    and text size applied) and its main window."""
    language = language or (None if fresh else _saved_choice("language", vocab.LANGUAGES)) or i18n.system_language()
    theme_name = (
        theme_name or (None if fresh else _saved_choice("theme", vocab.THEMES)) or ("light" if fresh else "system")
    )
    theme.apply_theme(theme_name)
    i18n.install_language(language)

    from explorer.ui.menus.actions import restore_session
    from explorer.ui.shell.main_window import MainWindow

    saved_text, saved_source, saved_options = (None, None, None) if fresh else restore_session()
    if model:
        source = ModelSource("path", model)
        from explorer.config import MaskSpec, RunOptions
        from explorer.weights.catalog import own_mask

        mask = own_mask(model)  # an encoder (BERT) opens with its own mask, none
        if mask != "causal" or (saved_options is not None and saved_options.mask.kind == "none"):
            saved_options = (saved_options or RunOptions()).replace(mask=MaskSpec(mask))
    elif preset:
        source = ModelSource("preset", preset)
    else:
        source = saved_source
    state = AppState(
        text if text is not None else (saved_text if not preset and not model else None),
        source,
        saved_options,
        Preferences(*chosen, language),  # what was applied above: the state records it from the start
    )
    window = MainWindow(state, restore_layout=not fresh)
    window.persist = not fresh
    window.actions_.language_actions.get(language, window.actions_.language_actions["en"]).setChecked(True)
    window.actions_.theme_actions[theme_name].setChecked(True)
    return window, state


def _saved_choice(key: str, allowed) -> str | None:
    """A saved language or theme, if it is one the window has; a damaged value is dropped with a note."""
    value = settings.get(key)
    if value is None or value in allowed:
        return value
    print(
        f"note: the saved {key} {str(value)[:40]!r} is not one of {', '.join(allowed)}; the default is used",
        file=sys.stderr,
    )
    return None


def _restore_access(palette: str | None, text_scale: float | None, fresh: bool) -> tuple[str, float]:
    """The palette and the text size (issue 27), before any widget exists: every widget is built with them.
    A screenshot uses what the command asks for, else the defaults, never a user's saved choice. Gives back
    the palette and the text size applied."""
    from explorer.present import palettes
    from explorer.ui.preferences import palette_choice, text_size

    if fresh:
        key = palettes.set_current(palette or palettes.DEFAULT).key
        return key, text_size.apply(text_scale or text_size.DEFAULT, remember=False)
    return palette_choice.restore(palette), text_size.restore(text_scale)


def _present(window, lesson: bool, size: tuple[int, int] | None) -> None:
    """Presentation mode (the lesson's slides when a lesson is open); a screenshot's slide gets its size."""
    window.lessons.present_lesson() if lesson else window.actions_.presentation.trigger()
    if size:  # the slide as a projector of that size shows it (offscreen has no such screen)
        from explorer.ui.classroom.slide_window import SlideWindow

        # presentation mode's slides only, as before the slide windows were one (a lesson's keep their own size)
        for slides in window.findChildren(SlideWindow, "PresentationWindow"):
            slides.setWindowState(Qt.WindowState.WindowNoState)
            slides.setFixedSize(*size)


def _generate_after_first_trace(window, state: AppState, count: int, screenshot: bool = False) -> None:
    def start(_trace) -> None:
        state.traceChanged.disconnect(start)
        window.open_panel("generate")
        panel = window.views["generate"]
        if screenshot:  # a refused generation ends the picture's wait at once, in one line (it waited it out)
            panel.slot.failed.connect(lambda message, *_: state.errorRaised.emit(f"not generated: {message}"))
        panel.count.setValue(count)
        panel.greedy.setChecked(True)
        panel.generate()

    state.traceChanged.connect(start)


def _place(window, size: tuple[int, int] | None, restored: bool, exact: bool) -> None:
    """Screenshots get exactly the size asked for (no screen is involved); a window on a screen fits it:
    a --size, else the saved geometry, else the first-launch size, each made to fit the screen it is on."""
    if exact:
        if size:
            from PySide6.QtWidgets import QLayout

            # The docks' minimum sizes would otherwise make a small --size larger than asked for.
            window.layout().setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
            window.setMinimumSize(1, 1)
            window.resize(*size)
        return
    from explorer.ui.shell.window_fit import fit_to_screen

    if not fit_to_screen(window, restored and size is None, size) and size is not None:
        print(
            f"note: --size {size[0]}x{size[1]} is larger than this screen; the window fits the screen instead",
            file=sys.stderr,
        )


def _record_start_timings(app: QApplication, state: AppState, path: Path) -> None:
    import json
    import time

    app.processEvents()  # the window's first paint
    window = app.activeWindow() or next((w for w in app.topLevelWidgets() if w.isVisible()), None)
    marks = {"window_shown": time.time()}
    if window is not None:  # and where it opened (tests/e2e: the window fits the screen)
        g, a = window.frameGeometry(), window.screen().availableGeometry()
        marks["window"] = [g.x(), g.y(), g.width(), g.height()]
        marks["available"] = [a.x(), a.y(), a.width(), a.height()]
        hint, bar = window.minimumSizeHint(), window.statusBar()  # tests/e2e: it fits a 1280×700 screen
        marks["minimum"] = [max(hint.width(), window.minimumWidth()), max(hint.height(), window.minimumHeight())]
        marks["status_bar_bottom"] = bar.mapTo(window, bar.rect().bottomLeft()).y() if bar is not None else None

    def painted() -> None:
        marks["first_trace_painted"] = time.time()
        path.write_text(json.dumps(marks))
        app.quit()

    state.traceChanged.connect(lambda _t: QTimer.singleShot(0, painted))  # after the views have drawn it
