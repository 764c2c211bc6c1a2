"""The main window: builds the docks, menus and status bar, and hands the state's requests to the job runner's
trace kind of job (explorer/ui/background/worker.py) and its results back. Nothing else."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QWidget

from explorer.ui.access.wheel_guard import WheelGuard
from explorer.ui.background.job_runner import JobRunner
from explorer.ui.background.model_loading import ModelLoading
from explorer.ui.background.worker import TraceWorker
from explorer.ui.bridge.state import AppState
from explorer.ui.classroom.focus_mode import FocusMode
from explorer.ui.menus.actions import Actions
from explorer.ui.preferences.choices import ChoiceFollower
from explorer.ui.shell import map_room, window_layout, window_state
from explorer.ui.shell.capture_status import LayerCapture
from explorer.ui.shell.nonfinite_banner import install_nonfinite_banner
from explorer.ui.shell.snapshot_banner import install_snapshot_banner
from explorer.ui.shell.status_bar import StatusBar
from explorer.ui.views.base import View
from explorer.ui.views.lazy import LazyViews
from explorer.ui.views.registry import view_specs


class MainWindow(QMainWindow):
    def __init__(self, state: AppState, worker: TraceWorker | None = None, restore_layout: bool = True) -> None:
        super().__init__()
        self.setObjectName("MainWindow")
        self.state = state
        self.choices = ChoiceFollower(state, self)  # the palette, text size and language the state says to apply
        self.runner = JobRunner(self, models=worker.models if worker is not None else None)  # all background work
        self.worker = worker or self.runner.traces
        self.views = LazyViews(self._build_view)  # name → View; panels behind a tab are built when needed
        self.docks: dict[str, QDockWidget] = {}
        self._restored = False  # a saved layout was restored: its sizes are the user's
        self.persist = True  # False for screenshots: they must not change a user's saved layout or session
        self.geometry_restored = False  # a saved geometry was applied (app.py fits it to the screen)
        self.restore_notes: list[str] = []  # saved values that could not be used, said once at the start
        self.setDockOptions(QMainWindow.DockOption.AllowTabbedDocks | QMainWindow.DockOption.AnimatedDocks)
        self._build_views()
        self.strips = window_layout.build_strips(self, self.specs)  # a button per panel on each edge
        self.setStatusBar(StatusBar(state, self))
        self.statusBar().insertPermanentWidget(0, self.strips["bottom"])  # the bottom panels, left of the counts
        self.loading = ModelLoading(state, self.worker, self)  # File → Open model, progress, Cancel
        self.statusBar().addPermanentWidget(self.loading.widget)
        self.capture = LayerCapture(state, self)  # which layers a trace holds
        self.statusBar().addPermanentWidget(self.capture.widget)
        self.focus_mode = FocusMode(self)  # F11: only the pipeline and the map
        self.actions_ = Actions(self)
        self._wire()
        self.wheel_guard = WheelGuard(self)  # a control in a scrolling panel takes the wheel only when focused
        self.wheel_guard.guard(self)
        self.retranslate()
        self._default_layout = self.saveState()  # what View → Reset layout goes back to
        self._sized = False  # default dock sizes are applied at the first show, for the size shown
        self._asked: set[str] | None = set()  # panels opened before the first layout (command line, lesson step)
        # The map keeps its room whatever the restored layout, text size or screen (map_room): checked a moment
        # after the window changes size or text size, once its layouts have followed.
        self._room_check = QTimer(self, singleShot=True, interval=60)
        self._room_check.timeout.connect(self._make_room)
        self._kept: set[str] = set()  # panels opened since the last check
        self._last_kept: frozenset[str] = frozenset()  # and those of the last check
        state.traceChanged.connect(self._first_map_drawn)
        self.resize(1400, 900)
        self.apply_default_sizes()
        if restore_layout:
            self._restore_layout()
        install_snapshot_banner(self)  # after the layout is restored: the banner shows only with a snapshot
        self.nonfinite_banner = install_nonfinite_banner(self)  # shown only while the trace holds NaN or ±∞
        from explorer.ui.classroom.lesson_menu import LessonMenu  # the Lesson menu, the lesson bar and its player

        # Built after the saved layout is restored: a lesson bar left open last time must not come back empty.
        self.lessons = LessonMenu(self)
        from explorer.ui.access import accessible  # names and descriptions for a screen reader (issue 27)

        accessible.install(self)

    # ------------------------------------------------------------------ building
    def _build_views(self) -> None:
        central: QWidget | None = None
        specs = self.specs = view_specs()
        for spec in specs:
            if not _built_later(spec):
                view = spec.create(self.state)
                view.setObjectName(f"view.{spec.object_name}")
                self.views.put(spec.object_name, view)
            else:
                # Behind another tab, or a side panel the layout may put on its strip: built when it is first
                # shown, when asked for, or once the first trace is on screen, whichever comes first. The window
                # appears that much sooner.
                view = QWidget()
                self.views.defer(spec.object_name, spec)
            if spec.area is None:
                central = view
                continue
            dock = QDockWidget(self)
            dock.setObjectName(f"dock.{spec.object_name}")
            dock.setWidget(view)
            if _built_later(spec):
                dock.visibilityChanged.connect(lambda visible, name=spec.object_name: visible and self.views.get(name))
            dock.setProperty("title_source", spec.title)
            if spec.area == Qt.DockWidgetArea.TopDockWidgetArea:  # the pipeline: no title bar (its height is the map's)
                dock.setTitleBarWidget(QWidget())
            if spec.below and spec.below in self.docks:
                self.splitDockWidget(self.docks[spec.below], dock, Qt.Orientation.Vertical)
            elif spec.tabify_with and spec.tabify_with in self.docks:
                self.tabifyDockWidget(self.docks[spec.tabify_with], dock)
            else:
                self.addDockWidget(spec.area, dock)
            self.docks[spec.object_name] = dock
        self.setCentralWidget(central or QLabel())
        # The side columns reach the bottom edge, so the pipeline gets the full width at the top.
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        for spec in specs:  # the first dock of each tab group is the one in front
            if (
                spec.area is not None and spec.tabify_with is None
            ):  # "below" docks too: Selected token before Interventions
                self.docks[spec.object_name].raise_()
        self._closed = {s.object_name for s in specs if s.closed}  # opened from the View menu when wanted
        for name in self._closed:
            self.docks[name].hide()

    def apply_default_sizes(self) -> None:
        """The default layout for the window's present size (window_layout): the map in the middle, large;
        the panels around it open or on their strips, sized to the window."""
        window_layout.apply_default_layout(self, self.specs, keep=self._asked or ())

    def open_panel(self, name: str, toggle: bool = False) -> None:
        """Bring a panel to the front, opening it if it is closed (a lesson step, the command line, a strip
        button; with ``toggle``, a panel already in front is closed)."""
        if self._asked is not None:
            self._asked.add(name)  # asked for before the first layout: the default layout keeps it open
        self._kept.add(name)  # asked for now: the map's room check makes it smaller if need be, never closes it
        self.keep_map_first()
        window_layout.open_panel(self, name, toggle)

    def reset_layout(self) -> None:
        """View → Reset layout: every panel back where it starts, open or on its strip as at the first start."""
        for dock in self.docks.values():
            dock.setFloating(False)
        self.restoreState(self._default_layout)
        self.apply_default_sizes()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            if not self._restored:  # after the first layout pass: sizes set before it are redistributed
                QTimer.singleShot(0, self._first_layout)
            else:
                self._asked = None
                self.keep_map_first()  # a layout saved on another screen or at another text size

    def _first_layout(self) -> None:
        self.apply_default_sizes()
        self._asked = None  # a later Reset layout is the plain default
        self.keep_map_first()

    def keep_map_first(self, keep=()) -> None:
        """Check (soon, once the layouts have followed) that the map has its room; panels give way if not
        (those named in ``keep`` only smaller, never closed)."""
        self._kept.update(keep)
        self._room_check.start()

    def settle_now(self) -> bool:
        """Make the map's pending room check now (a screenshot about to be taken); True when one was pending."""
        if not self._room_check.isActive():
            return False
        self._room_check.stop()
        self._make_room()
        return True

    def _make_room(self) -> None:
        kept, self._kept = frozenset(self._kept), set()
        self._last_kept = kept
        map_room.make_room(self, kept)

    def _first_map_drawn(self, _trace) -> None:
        self.state.traceChanged.disconnect(self._first_map_drawn)
        self.keep_map_first()  # the map's axes are measured now: the room is known, not guessed
        # and again whenever its labels take other room: 16 tokens at 200 % text took 40 px more than 5
        self.views["tensor"].large.axesResized.connect(self._axes_resized)

    def _axes_resized(self) -> None:
        if self._sized and not self._room_check.isActive():
            # the map redrawn smaller for a panel just opened: that panel is still the one just opened
            self._kept |= self._last_kept
            self.keep_map_first()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._sized:
            self.keep_map_first()

    def text_size_changed(self, _old_px: int, _new_px: int, _scale: float) -> None:
        """View → Text size: the pipeline grows or shrinks back to its boxes, and the panels give the map its
        room again (at 200 % the map was 233 px; back at 100 % a 240 px empty band stayed)."""
        self.keep_map_first()

    def _wire(self) -> None:
        s, w = self.state, self.worker
        s.requestToRun.connect(self._submit)  # before the views' own requestChanged slots: the trace starts first
        s.traceCancelled.connect(lambda _ticket: w.cancel_current())  # only the latest ticket's job can run
        w.traceReady.connect(self._on_trace)
        w.baselineReady.connect(lambda ticket, b: s.set_baseline(b, ticket))  # issue 15: compare views
        w.traceFailed.connect(self._on_failed)
        w.busyChanged.connect(s.set_busy)
        # A model's depth is known as soon as it is loaded, before its first (full) trace ends: a deep one
        # switches to capturing one layer now, which cancels that trace instead of waiting for every layer.
        w.modelReady.connect(lambda config: s.on_model(config.layers))
        s.modelWithdrawn.connect(self.runner.models.forget)  # read from disk if it is shown again
        s.selectionChanged.connect(lambda sel: w.set_prefetch(sel.stage, sel.layer, sel.row, sel.head))
        w.set_prefetch(s.selection.stage, s.selection.layer, s.selection.row, s.selection.head)
        # The panels behind tabs, once the first trace has been painted (not before: it would delay it).
        s.traceChanged.connect(
            lambda _t: self.views.pending() and QTimer.singleShot(300, self, self._build_deferred_views)
        )

    def _build_view(self, name: str, spec) -> View:
        view = spec.create(self.state)
        view.setObjectName(f"view.{name}")
        placeholder = self.docks[name].widget()
        self.docks[name].setWidget(view)
        self.wheel_guard.guard(view)
        if placeholder is not None:
            placeholder.deleteLater()  # QDockWidget.setWidget keeps the old widget as a child
        return view

    def _build_deferred_views(self) -> None:
        # One panel per turn of the event loop: built together (eleven plots and their menus) they held the
        # GUI thread for most of a second, a freeze right after the first map appears.
        if self.views.build_next():
            QTimer.singleShot(0, self, self._build_deferred_views)  # dropped if the window is gone by then

    def start(self) -> None:
        """Trace the opening request (so a first-time user sees maps at once)."""
        self._submit(self.state.request)

    def _submit(self, request, ticket: int | None = None) -> None:
        """Carry out the Session's RunTrace: the job carries the effect's ticket and every result of it comes
        back with it, so the Session's one rule (explorer/session/step.py) drops a result asked for before the
        latest request."""
        self.worker.submit(request, self.state.ticket if ticket is None else ticket)

    def _on_trace(self, ticket: int, trace, editable: bool) -> None:
        self.state.set_trace(trace, editable, ticket)

    def _on_failed(self, ticket: int, message: str, error=None) -> None:
        self.state.report_error(message, error, ticket)

    # ------------------------------------------------------------------ language, layout
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Attention Explorer"))
        for dock in self.docks.values():
            dock.setWindowTitle(QCoreApplication.translate("Views", dock.property("title_source")))
        for strip in self.strips.values():
            strip.setWindowTitle(self.tr("Panels"))
            for button in strip.buttons.values():
                button.setToolTip(self.tr("Open this panel (or close it, when it is open and in front)"))
        self.actions_.retranslate()
        if hasattr(self, "lessons"):
            self.lessons.retranslate()

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _restore_layout(self) -> None:
        """The saved geometry and panels (window_state): what cannot be used is noted in restore_notes."""
        done = window_state.restore(self)
        self._restored = done.layout
        self.geometry_restored = done.geometry
        self.restore_notes = done.notes

    def save_layout(self) -> None:
        if self.focus_mode.active:  # Focus is a moment, not a layout: the panels around it are saved
            self.focus_mode.set_active(False)
        window_state.save(self)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.persist:
            self.save_layout()
            self.actions_.save_session()
        for view in self.views.built():  # views that run background work (training) stop it first
            shutdown = getattr(view, "shutdown", None)
            if shutdown is not None:
                shutdown()
        self.worker.stop()  # the traces first: the runner then ends the threads they tokenized with
        self.runner.stop()
        super().closeEvent(event)


def _built_later(spec) -> bool:
    """A panel behind another's tab, or the first of the right or bottom group, which the default layout of a
    laptop screen puts on its strip (Selected token 0.12 s, Identities 0.11 s of a 0.7 s window build)."""
    right_or_bottom = (Qt.DockWidgetArea.RightDockWidgetArea, Qt.DockWidgetArea.BottomDockWidgetArea)
    return spec.tabify_with is not None or spec.area in right_or_bottom
