"""Generate: write token by token and watch the KV cache.

Generate runs the core's generation on a background job (explorer.work.generating.generation_work) and
hands the result to the window's state (``state.generation``), which the central view and presentation mode show too;
the panel then shows step t, chosen with Step, Play (one step at a time, for a class), or the slider (scrub back): the
attention the selected layer and head has seen so far (the prefill's C×C map with each decode step's row beneath it),
the K and V cache of that head's key/value head with the rows written at step t highlighted, the chosen
token and its alternatives, and what the step cost with and without the cache (generation_details). This
module runs and steps; the parts are in generate_controls, generation_details, generation_tables,
generation_cost and generation_map, and everything shown is cut by explorer.generation.frames.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from explorer.analysis.token_text import visible
from explorer.ui.background.job_runner import runner_of
from explorer.ui.background.jobs import JobSlot
from explorer.ui.views.base import View
from explorer.ui.views.generation import generation_anatomy
from explorer.ui.views.generation.generate_controls import GenerateControls
from explorer.ui.views.generation.generation_details import GenerationDetails
from explorer.work.generating import generation_work

PLAY_MS = 700  # one step per this many milliseconds while playing
GROW_TO = 0.5  # of the window's height, for the dock the first time the panel is shown
MAP_MIN_WIDTH = 220  # px: the map beside the controls never narrower (its labels and colour bar need room)
TABLES_MIN_HEIGHT = 200  # px: the cache tables and the choices, below which the panel scrolls


class GenerateView(View):
    def __init__(self, state, parent: QWidget | None = None) -> None:
        super().__init__(state, parent)
        self.gen = state.generation  # where the result lives: the centre and presentation mode show it too
        self.slot = JobSlot(self)  # one generation at a time; Stop keeps the tokens written so far
        self.slot.sent.connect(self._on_step)
        self.slot.succeeded.connect(self._on_done)
        self.slot.failed.connect(self._on_failed)
        self.slot.busyChanged.connect(self._buttons)
        self._then = "last"  # what to show when the running generation is done
        self._live: list = []  # steps reported while the job runs
        self._play = QTimer(self)
        self._play.setInterval(PLAY_MS)
        self._play.timeout.connect(self._advance)
        self.controls = GenerateControls()
        self.details = GenerationDetails(with_map=True)
        self._aliases()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.details.split.setMinimumHeight(TABLES_MIN_HEIGHT)  # the tables stay readable; the panel scrolls
        self._lay_out()
        c = self.controls
        c.run_button.clicked.connect(lambda: self.generate())
        c.step_button.clicked.connect(self.step_once)
        c.play_button.clicked.connect(self.play)
        c.stop_button.clicked.connect(self.stop)
        c.save_button.clicked.connect(lambda: self.save())
        c.open_button.clicked.connect(lambda: self.open())
        c.slider.valueChanged.connect(self.gen.set_step)
        self.gen.changed.connect(lambda _g: self._follow())
        self.gen.stepChanged.connect(lambda _t: self._follow())
        self.gen.shownChanged.connect(
            lambda on: self.map.setVisible(not on)
        )  # the centre shows it large: room for the tables
        state.selectionChanged.connect(self.when_shown(lambda _s: self._show()))
        generation_anatomy.wire(self, self.map)  # “How is this made?” on a cell of the prompt's block (issue 39)
        self.retranslate()
        self._buttons()

    def _aliases(self) -> None:
        """The parts by their names (tests and File → Export reach them here)."""
        for name in (
            "run_button",
            "step_button",
            "play_button",
            "stop_button",
            "save_button",
            "open_button",
            "count",
            "greedy",
            "temperature",
            "top_k",
            "top_p",
            "seed",
            "use_cache",
            "slider",
            "step_label",
        ):
            setattr(self, name, getattr(self.controls, name))
        for name in (
            "map",
            "text_label",
            "cost_label",
            "k_title",
            "v_title",
            "k_table",
            "v_table",
            "top_title",
            "top_table",
        ):
            setattr(self, name, getattr(self.details, name))

    def _lay_out(self) -> None:
        """The map beside the rest, as high as the panel: under the controls and the text, in the scrolled
        part, a laptop's bottom panel showed about 64 px of it (issue 38). The rest scrolls in a low panel."""
        body = QWidget()
        lay = _NoHeightForWidth(body)
        lay.addWidget(self.controls)
        lay.addWidget(self.message)
        lay.addWidget(self.details, 1)
        scroll = QScrollArea()  # in a low dock, scroll instead of growing the window
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        self.map.setParent(None)  # out of the details' row of figures, into the panel's own row
        self.map.setMinimumWidth(MAP_MIN_WIDTH)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.map, 2)
        outer.addWidget(scroll, 3)

    def ask_anatomy(self) -> bool:
        """Ctrl+H while the map has the focus: the chosen cell's steps, on the generation's own trace."""
        return generation_anatomy.ask(self, self.map)

    def say(self, text: str) -> None:
        self.message.setText(text)

    def keep_open(self) -> None:
        """Asked for again: the window's room for the map makes the panel smaller for the stepper, never closes it."""
        window = self.window()
        if hasattr(window, "open_panel"):
            window.open_panel("generate")

    # the generation lives in the state; these read it there
    @property
    def generation(self):
        return self.gen.generation

    @generation.setter
    def generation(self, generation) -> None:
        self.gen.set_generation(generation, show=False)

    @property
    def step(self) -> int:
        return self.gen.step

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not getattr(self, "_grown", False):
            self._grown = True
            QTimer.singleShot(0, self._grow_dock)

    def _grow_dock(self) -> None:
        """The first time the panel is shown, give its dock half the window's height: the bottom docks start
        low (about 200 px), too low for the map and the cache tables."""
        if not self.on_screen():  # built behind its tab (or shown for a moment): wait until the user brings it up
            self._grown = False
            return
        dock, window = self.parentWidget(), self.window()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is None or not isinstance(window, QMainWindow) or dock.isFloating():
            return
        wanted = int(window.height() * GROW_TO)
        if dock.height() < wanted:
            window.resizeDocks([dock], [wanted], Qt.Orientation.Vertical)

    def retranslate(self) -> None:
        self.controls.retranslate()
        self.details.retranslate()
        self._show()

    # ------------------------------------------------------------------ running
    def _prompt(self) -> str:
        lines = [line.strip() for line in self.state.text.splitlines() if line.strip()]
        return lines[0] if lines else ""

    def generate(self, then: str = "last") -> None:
        """Run a generation; then show its ``last`` step, its ``first`` (Step), or ``play`` from the first."""
        if self.slot.busy:
            return
        self._live, self._then = [], then
        self.message.setText(self.tr("Generating…"))
        runner = runner_of(self)  # it keeps the models built: the one that traced the text is used
        how = dict(
            max_new_tokens=self.count.value(), sampling=self.controls.sampling(), use_cache=self.use_cache.isChecked()
        )
        work = generation_work(runner.models, self.state.source, self._prompt(), self.state.options, how)
        self.slot.submit(work)

    def save(self, path: str | None = None) -> None:
        if self.generation is None:
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self, self.tr("Save generation"), "generation.npz", self.tr("Snapshots (*.npz *.safetensors *.pt)")
            )
            if not path:
                return
        from explorer.errors import ExplorerError
        from explorer.export.snapshot import write_generation

        try:
            written = write_generation(self.generation, path)
        except ExplorerError as exc:
            self.message.setText(self.tr("Not saved: {message}").format(message=exc))
        except OSError as exc:
            self.message.setText(self.tr("Not saved: {message}").format(message=exc.strerror or exc))
        else:
            self.message.setText(self.tr("Saved {path}").format(path=written))

    def open(self, path: str | None = None) -> None:
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self, self.tr("Open generation"), "", self.tr("Snapshots (*.npz *.safetensors *.pt)")
            )
            if not path:
                return
        from explorer.errors import ExplorerError
        from explorer.export.snapshot import read_generation

        try:
            generation = read_generation(path)
        except ExplorerError as exc:
            self.message.setText(self.tr("Not opened: {message}").format(message=exc))
            return
        self.stop()
        self._then = "last"
        self._on_done(generation)
        self.message.setText(self.tr("{path} (read-only)").format(path=path))
        self._buttons()

    def step_once(self) -> None:
        self._play.stop()
        if self.generation is None:
            self.generate("first")
            return
        self.gen.set_step(self.step + 1)

    def play(self) -> None:
        if self.generation is None:
            self.generate("play")
            return
        if self.step >= self.gen.last:
            self.gen.set_step(0)
        self._play.start()
        self._buttons()

    def stop(self) -> None:
        self._play.stop()
        self.slot.cancel()
        self._buttons()

    def shutdown(self) -> None:
        """The window is closing: stop the job and wait for it."""
        self._play.stop()
        self.slot.shutdown()

    @property
    def job(self):
        """The running generation's job, or None."""
        return self.slot.job

    def _advance(self) -> None:
        if self.generation is None or self.step >= self.gen.last:
            self._play.stop()
            self._buttons()
            return
        self.gen.set_step(self.step + 1)

    def _on_step(self, step) -> None:
        self._live.append(step)
        self.gen.set_live(tuple(self._live))
        self.message.setText(
            self.tr("Generating… {n} tokens: {text}").format(
                n=len(self._live), text=" ".join(visible(s.token) for s in self._live)
            )
        )

    def _on_done(self, generation) -> None:
        then = self._then
        notices = list(generation.notices)
        if generation.stopped == "cancelled":
            notices.append(self.tr("stopped after {n} tokens").format(n=len(generation.steps)))
        self.message.setText("; ".join(notices))
        self.gen.set_generation(generation, None if then == "last" else 0)
        if then == "play":
            self._play.start()

    def _on_failed(self, message: str) -> None:
        self.gen.set_live(())
        self.message.setText(self.tr("Not generated: {message}").format(message=message))

    def _buttons(self, _busy: bool = False) -> None:
        running = self.slot.busy
        self.run_button.setEnabled(not running)
        self.stop_button.setEnabled(running or self._play.isActive())
        self.slider.setEnabled(self.generation is not None)

    # ------------------------------------------------------------------ drawing
    def _follow(self) -> None:
        """The state's generation or step changed (here, in the centre or in presentation mode)."""
        self.slider.blockSignals(True)
        self.slider.setRange(0, self.gen.last)
        self.slider.setValue(self.gen.step)
        self.slider.blockSignals(False)
        self._buttons()
        self._show()

    def _show(self) -> None:
        g = self.generation
        if g is None or not g.steps:
            self.step_label.setText(self.tr("Step –"))
            self.details.clear()
            return
        t = min(self.step, len(g.steps) - 1)
        self.step_label.setText(self.tr("Step {t} / {n}").format(t=t + 1, n=len(g.steps)))
        self.details.show_step(g, self.state.selection, t)


class _NoHeightForWidth(QVBoxLayout):
    """A layout that does not report height-for-width: with wrapped labels inside, a resizable QScrollArea
    sizes its widget to the preferred height (the map then hid below the fold) instead of the minimum."""

    def hasHeightForWidth(self) -> bool:
        return False
