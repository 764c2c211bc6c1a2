"""The main window: builds the docks, menus and status bar, and wires state ↔ worker. Nothing else."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QCoreApplication, Qt, QTimer
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QWidget

from explorer.ui import settings
from explorer.ui.actions import Actions
from explorer.ui.capture import LayerCapture
from explorer.ui.model_loading import ModelLoading
from explorer.ui.snapshot_banner import install_snapshot_banner
from explorer.ui.state import AppState
from explorer.ui.status_bar import StatusBar
from explorer.ui.views.base import View
from explorer.ui.views.lazy import LazyViews
from explorer.ui.views.registry import view_specs
from explorer.ui.worker import TraceWorker


class MainWindow(QMainWindow):
    def __init__(self, state: AppState, worker: TraceWorker | None = None, restore_layout: bool = True) -> None:
        super().__init__()
        self.setObjectName("MainWindow")
        self.state = state
        self.worker = worker or TraceWorker(self)
        self.views = LazyViews(self._build_view)  # name → View; panels behind a tab are built when needed
        self.docks: dict[str, QDockWidget] = {}
        self._latest = 0
        self._restored = False  # a saved layout was restored: its sizes are the user's
        self.persist = True  # False for screenshots: they must not change a user's saved layout or session
        self.setDockOptions(QMainWindow.DockOption.AllowTabbedDocks | QMainWindow.DockOption.AnimatedDocks)
        self._build_views()
        self.setStatusBar(StatusBar(state, self))
        self.loading = ModelLoading(state, self.worker, self)  # File → Open model, progress, Cancel
        self.statusBar().addPermanentWidget(self.loading.widget)
        self.capture = LayerCapture(state, self.worker, self)  # which layers a trace holds
        self.statusBar().addPermanentWidget(self.capture.widget)
        self.actions_ = Actions(self)
        self._wire()
        self.retranslate()
        self._default_layout = self.saveState()  # what View → Reset layout goes back to
        self._sized = False  # default dock sizes are applied at the first show, for the size shown
        self.resize(1400, 900)
        self.apply_default_sizes()
        if restore_layout:
            self._restore_layout()
        install_snapshot_banner(self)  # after the layout is restored: the banner shows only with a snapshot
        from explorer.ui.lesson_menu import LessonMenu  # the Lesson menu, the lesson bar and its player

        # Built after the saved layout is restored: a lesson bar left open last time must not come back empty.
        self.lessons = LessonMenu(self)
        from explorer.ui import accessible  # names and descriptions for a screen reader (issue 27)

        accessible.install(self)

    # ------------------------------------------------------------------ building
    def _build_views(self) -> None:
        central: QWidget | None = None
        specs = view_specs()
        for spec in specs:
            if spec.tabify_with is None:
                view = spec.create(self.state)
                view.setObjectName(f"view.{spec.object_name}")
                self.views.put(spec.object_name, view)
            else:
                # Behind another tab at start: built when its tab is first shown, when asked for, or once the
                # first trace is on screen, whichever comes first. The window appears that much sooner.
                view = QWidget()
                self.views.defer(spec.object_name, spec)
            if spec.area is None:
                central = view
                continue
            dock = QDockWidget(self)
            dock.setObjectName(f"dock.{spec.object_name}")
            dock.setWidget(view)
            if spec.tabify_with is not None:
                dock.visibilityChanged.connect(lambda visible, name=spec.object_name: visible and self.views.get(name))
            dock.setProperty("title_source", spec.title)
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
        self._default_sizes = [(self.docks[s.object_name], s.size, s.area) for s in specs if s.size and s.area is not None]
        self._default_sizes += [(self.docks[s.object_name], s.height, Qt.DockWidgetArea.TopDockWidgetArea) for s in specs if s.height]
        for spec in specs:  # the first dock of each tab group is the one in front
            if spec.area is not None and spec.tabify_with is None:  # "below" docks too: Selected token before Interventions
                self.docks[spec.object_name].raise_()
        self._closed = {s.object_name for s in specs if s.closed}  # opened from the View menu when wanted
        for name in self._closed:
            self.docks[name].hide()

    def apply_default_sizes(self) -> None:
        """The default dock sizes, made for 1400×900, fitted to the window as it is: side columns narrower
        on a laptop (never wider on a projector: the map takes the room), the bottom panels in proportion
        to the height, so that the attention map stays the largest figure at every size."""
        sx = min(1.0, self.width() / 1400)
        for dock, size, area in self._default_sizes:
            horizontal = area in (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)
            if horizontal:
                size = round(size * sx)
            elif area == Qt.DockWidgetArea.BottomDockWidgetArea:  # a short screen takes its pixels from here
                size = max(90, min(260, size - round((900 - self.height()) * 0.6)))
            self.resizeDocks([dock], [size], Qt.Orientation.Horizontal if horizontal else Qt.Orientation.Vertical)

    def reset_layout(self) -> None:
        """View → Reset layout: every panel back where and as large as it starts."""
        for dock in self.docks.values():
            dock.setFloating(False)
        self.restoreState(self._default_layout)
        for name, dock in self.docks.items():
            dock.setVisible(name not in self._closed)
        for name, dock in self.docks.items():  # the first panel of each tab group in front again
            if name in ("selection", "identities"):
                dock.raise_()
        self.apply_default_sizes()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            if not self._restored:  # after the first layout pass: sizes set before it are redistributed
                QTimer.singleShot(0, self.apply_default_sizes)

    def _wire(self) -> None:
        s, w = self.state, self.worker
        s.requestChanged.connect(self._submit)
        w.traceReady.connect(self._on_trace)
        w.baselineReady.connect(lambda g, b: g == self._latest and s.set_baseline(b))  # issue 15: compare views
        w.traceFailed.connect(self._on_failed)
        w.busyChanged.connect(s.set_busy)
        s.modelPublished.connect(w.put_bundle)  # training hands its checkpoints over without a disk read
        s.modelWithdrawn.connect(w.forget_bundle)
        s.selectionChanged.connect(lambda sel: w.set_prefetch(sel.stage, sel.layer, sel.row, sel.head))
        w.set_prefetch(s.selection.stage, s.selection.layer, s.selection.row, s.selection.head)
        # The panels behind tabs, once the first trace has been painted (not before: it would delay it).
        s.traceChanged.connect(lambda _t: self.views.pending() and QTimer.singleShot(300, self._build_deferred_views))

    def _build_view(self, name: str, spec) -> View:
        view = spec.create(self.state)
        view.setObjectName(f"view.{name}")
        placeholder = self.docks[name].widget()
        self.docks[name].setWidget(view)
        if placeholder is not None:
            placeholder.deleteLater()  # QDockWidget.setWidget keeps the old widget as a child
        return view

    def _build_deferred_views(self) -> None:
        self.views.build_all()

    def start(self) -> None:
        """Start the worker and trace the opening request (so a first-time user sees maps at once)."""
        if not self.worker.isRunning():
            self.worker.start()
        self._submit(self.state.request)

    def _submit(self, request) -> None:
        if not self.worker.isRunning():  # a window opened on a snapshot has no worker until it returns to live
            self.worker.start()
        self._latest = self.worker.submit(request)

    def _on_trace(self, generation: int, trace, editable: bool) -> None:
        if generation == self._latest:  # an older result that finished late is not shown
            self.state.set_trace(trace, editable)

    def _on_failed(self, generation: int, message: str, error=None) -> None:
        if generation == self._latest:
            self.state.report_error(message, error)

    # ------------------------------------------------------------------ language, layout
    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Attention Explorer"))
        for dock in self.docks.values():
            dock.setWindowTitle(QCoreApplication.translate("Views", dock.property("title_source")))
        self.actions_.retranslate()
        if hasattr(self, "lessons"):
            self.lessons.retranslate()

    def changeEvent(self, event) -> None:
        from PySide6.QtCore import QEvent

        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _restore_layout(self) -> None:
        geometry = settings.get("window/geometry")
        layout = settings.get("window/state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(layout, QByteArray):
            self._restored = self.restoreState(layout)

    def save_layout(self) -> None:
        settings.put("window/geometry", self.saveGeometry())
        settings.put("window/state", self.saveState())

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.persist:
            self.save_layout()
            self.actions_.save_session()
        for view in self.views.built():  # views that run background work (training) stop it first
            shutdown = getattr(view, "shutdown", None)
            if shutdown is not None:
                shutdown()
        self.worker.stop()
        super().closeEvent(event)
