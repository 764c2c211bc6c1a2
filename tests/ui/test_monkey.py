"""A randomised GUI test: thousands of random actions on the real main window, with a fixed seed.

Text edits (weird text included), sizes through the state and through the spin boxes, masks (painted ones
that block whole rows too), selections of tokens, heads, layers and stages, stepping, snapshot exports into
a temporary folder and reopening them, damaged snapshots, the language (en/ja), the theme and presentation
mode. No exception may reach sys.excepthook (pytest-qt also fails the test on an exception inside a Qt
virtual), a refused request never removes the trace shown, and the window closes with no thread left.

The worker is waited for only now and then, so most actions land while a trace is computing (the
newest-request-wins path). Set ATTENTION_EXPLORER_MONKEY_ACTIONS to run more (or fewer) actions.
"""

from __future__ import annotations

import os
import random
import sys
import threading
import time

import pytest
from PySide6.QtWidgets import QApplication

from explorer.config import MaskSpec
from explorer.present.stages import STAGE_KEYS
from explorer.weights.presets import PRESETS

pytestmark = pytest.mark.slow

ACTIONS = int(os.environ.get("ATTENTION_EXPLORER_MONKEY_ACTIONS", "2000"))
SEED = 20261129

WEIRD_TEXTS = [
    "",
    "   ",
    "\n\n\t",
    "a",
    "This is a pen .",
    "This is a pen .\nIs this a dog ?",
    "The cat sat on the mat .\nA dog runs .\nThe big red pen is on the desk .",
    "\x00\x01\x02 cat \x1b[31m red \x7f",
    "emoji 😀🎉👨‍👩‍👧 and flags 🇯🇵",
    "これはペンです。猫がいます。",
    "zzqx florb unknownword xyzzy",
    "a\u202eb\u200bc\ufeff",
    "word " * 1500,  # more tokens than the learned-position presets' context (64) and than 1024
    ("This is a pen .\n" * 100),  # more sentences than the limit
]
LONG_TEXT = "This is a pen . " * 6250  # 100,000 characters


@pytest.fixture
def recorded_exceptions():
    """Every exception that reaches sys.excepthook or threading.excepthook during the test."""
    seen: list[str] = []
    old_sys, old_thread = sys.excepthook, threading.excepthook

    def on_sys(kind, value, tb):
        seen.append(f"{kind.__name__}: {value}")
        old_sys(kind, value, tb)

    def on_thread(args):
        seen.append(f"thread {args.thread}: {args.exc_type.__name__}: {args.exc_value}")
        old_thread(args)

    sys.excepthook, threading.excepthook = on_sys, on_thread
    yield seen
    sys.excepthook, threading.excepthook = old_sys, old_thread


class Monkey:
    def __init__(self, window, qtbot, tmp_path, rng: random.Random) -> None:
        self.w, self.qtbot, self.tmp, self.rng = window, qtbot, tmp_path, rng
        self.state = window.state
        self.controls = window.views["controls"]
        self.input = window.views["input"]
        self.flow = window.views["flow"]
        self.exported: list = []
        self.counts: dict[str, int] = {}
        self.times: dict[str, float] = {}
        self.bad = tmp_path / "bad"
        self.bad.mkdir()
        (self.bad / "empty.npz").write_bytes(b"")
        (self.bad / "text.pt").write_bytes(b"not a snapshot at all")
        (self.bad / "zip.npz").write_bytes(b"PK\x03\x04" + bytes(300))

    # ------------------------------------------------------------------ actions
    def type_text(self):
        r = self.rng.random()
        text = LONG_TEXT if r < 0.01 else self.rng.choice(WEIRD_TEXTS)
        if self.rng.random() < 0.5:
            self.input.text.setPlainText(text)  # what a paste does; the view debounces and sends it
        else:
            self.state.set_text(text)

    def append_text(self):
        self.input.text.insertPlainText(self.rng.choice([" pen", " .", "\n", " 猫", " 😀", "\x01", " dog ?"]))

    def sizes_via_state(self):
        name = self.rng.choice(["embed_dim", "key_dim", "heads", "layers", "value_dim", "ffn_dim"])
        # Refused values (0, -1, 2.5, "x", over the caps or the memory budget) a quarter of the time.
        good = [1, 2, 3, 4, 8, 16]
        value = self.rng.choice(good if self.rng.random() < 0.75 else [0, -1, 2.5, "x", 10**20, 65_537, 4096])
        self.state.set_sizes(**{name: value})

    def sizes_via_spin(self):
        name, spin = self.rng.choice(list(self.controls.sizes.items()))
        if spin.isEnabled():
            # The range's top (H = 256, L = 256, E = 4096) is legal but slow to draw: now and then only.
            top = self.rng.random() < 0.02
            spin.setValue(spin.maximum() if top else self.rng.choice([spin.minimum(), 1, 2, 3, 4, 6, 8, 16]))

    def positions(self):
        combo = self.controls.positions
        if combo.isEnabled():
            combo.setCurrentIndex(self.rng.randrange(combo.count()))
            combo.activated.emit(combo.currentIndex())

    def mask_widget(self):
        combo = self.controls.mask
        combo.setCurrentIndex(self.rng.randrange(combo.count()))
        combo.activated.emit(combo.currentIndex())
        if self.rng.random() < 0.5:
            self.controls.mask_size.setValue(self.rng.choice([1, 2, 3, 50, 999]))

    def mask_state(self):
        kind = self.rng.choice(["causal", "none", "window", "prefix", "explicit", "explicit"])
        if kind in ("window", "prefix"):
            spec = MaskSpec(kind, self.rng.choice([1, 2, 5, 10_000]))
        elif kind == "explicit":
            n = self.rng.choice([1, 2, 5, 12, 40])
            p = self.rng.choice([0.0, 0.3, 0.7, 1.0])  # 0.0 blocks every row
            spec = MaskSpec.explicit([[self.rng.random() < p for _ in range(n)] for _ in range(n)])
        else:
            spec = MaskSpec(kind)
        self.state.set_options(mask=spec)

    def options(self):
        c = self.controls
        choice = self.rng.randrange(4)
        if choice == 0:
            c.scale.toggle()
        elif choice == 1:
            c.temperature.setValue(self.rng.choice([0.01, 0.5, 1.0, 3.0, 100.0]))
        elif choice == 2:
            c.dtype.setCurrentIndex(self.rng.randrange(c.dtype.count()))
            c.dtype.activated.emit(c.dtype.currentIndex())
        else:
            self.state.set_options(device=self.rng.choice(["cpu", "cuda:7", "mps"]))

    def weights(self):
        choice = self.rng.randrange(3)
        if choice == 0:
            self.state.set_preset(self.rng.choice(list(PRESETS)), keep_text=self.rng.random() < 0.5)
        elif choice == 1:
            self.state.set_seed(self.rng.choice([None, 0, 1, 7, 2**31 - 1, 2**40, -5]))
        else:
            self.state.set_random_weights(self.rng.random() < 0.5)

    def select(self):
        self.state.select(
            **self.rng.choice(
                [
                    {"token": self.rng.choice([None, 0, 1, 3, 500])},
                    {"key": self.rng.choice([None, 0, 2, 999])},
                    {"head": self.rng.randrange(0, 9)},
                    {"layer": self.rng.randrange(0, 5)},
                    {"row": self.rng.randrange(0, 4)},
                    {"stage": self.rng.choice(STAGE_KEYS)},
                ]
            )
        )

    def step_stage(self):
        choice = self.rng.randrange(4)
        if choice == 0:
            self.flow.step(self.rng.choice([-1, 1]))
        elif choice == 1:
            self.flow.toggle_play()
        elif choice == 2:
            self.flow._move_layer(self.rng.choice([-1, 1]))
        else:
            self.input.chips.moveRequested.emit(self.rng.choice([-1, 1]))

    def export(self):
        from explorer.ui.menus import file_ops

        if self.state.trace is None:
            return
        fmt = self.rng.choice(["npz", "safetensors", "pt"])
        path = self.tmp / f"snap-{len(self.exported) % 5}.{fmt}"
        if self.rng.random() < 0.15:
            path = self.tmp / "no-such-folder" / f"x.{fmt}"  # an unwritable target: an error in the status bar
        out = file_ops.write_snapshot_with_progress(self.w, self.state.trace, str(path))
        if out is not None:
            self.exported.append(out)

    def export_image(self):
        from explorer.ui.menus import figure_menu

        figure_menu.export_view(self.w, self.state, str(self.tmp / f"view.{self.rng.choice(['png', 'svg', 'pdf'])}"))

    def open_snapshot(self):
        from explorer.ui.menus import file_ops

        if self.exported and self.rng.random() < 0.7:
            path = self.rng.choice(self.exported)
        else:
            path = self.rng.choice(sorted(self.bad.iterdir()))
        before = self.state.trace
        if not file_ops.open_snapshot(self.w, self.state, str(path)):
            assert self.state.trace is before  # a damaged file changes nothing

    def language(self):
        self.w.actions_.set_language(self.rng.choice(["en", "ja"]))

    def theme(self):
        self.w.actions_.set_theme(self.rng.choice(["light", "dark", "system"]))

    def presentation(self):
        from explorer.ui.classroom.slide_window import SlideWindow

        self.w.actions_.presentation.trigger()  # F5 toggles: open, or close when open
        pres = self.w.findChild(SlideWindow, "PresentationWindow")
        if pres is not None and pres.isVisible():
            pres.step(self.rng.choice([-1, 1]))
            QApplication.processEvents()
            if self.rng.random() < 0.7:  # mostly closed again at once: open, it redraws on every action
                self.w.actions_.presentation.trigger()

    def wait_for_worker(self):
        self.qtbot.waitUntil(lambda: not self.state.busy, timeout=60_000)

    # ------------------------------------------------------------------ driving
    def table(self):
        return [
            (self.type_text, 12),
            (self.append_text, 6),
            (self.sizes_via_state, 6),
            (self.sizes_via_spin, 6),
            (self.positions, 2),
            (self.mask_widget, 5),
            (self.mask_state, 5),
            (self.options, 5),
            (self.weights, 4),
            (self.select, 25),
            (self.step_stage, 10),
            (self.export, 2),
            (self.export_image, 1),
            (self.open_snapshot, 2),
            (self.language, 1),
            (self.theme, 1),
            (self.presentation, 1),
            (self.wait_for_worker, 2),
        ]

    def run(self, n: int) -> None:
        actions, weights = zip(*self.table())
        app = QApplication.instance()
        self.t0 = time.perf_counter()
        for i in range(n):
            action = self.rng.choices(actions, weights)[0]
            self.counts[action.__name__] = self.counts.get(action.__name__, 0) + 1
            t0 = time.perf_counter()
            action()
            # Events (repaints, the worker's results) are processed after about every other action: a burst
            # of two actions between paints is what fast clicking does, and it halves the painting time.
            if self.rng.random() < 0.5:
                app.processEvents()
            self.times[action.__name__] = self.times.get(action.__name__, 0.0) + time.perf_counter() - t0
            if os.environ.get("ATTENTION_EXPLORER_MONKEY_LOG") and i % 200 == 0:
                t = self.state.trace
                print(
                    f"{i}: {time.perf_counter() - self.t0:.1f} s, B={t.B} C={t.C} E={t.config.E} "
                    f"H={t.config.H} L={t.config.L} V={t.config.V}",
                    flush=True,
                )
            if self.state.trace is None and i > 0:
                raise AssertionError(f"action {i} ({action.__name__}) left no trace on screen")


def test_thousands_of_random_actions(qtbot, tmp_path, recorded_exceptions):
    from explorer.ui.bridge.state import AppState
    from explorer.ui.shell.main_window import MainWindow

    before_threads = set(threading.enumerate())
    state = AppState()
    window = MainWindow(state)
    qtbot.addWidget(window)
    window.resize(1100, 700)  # every view still shown; fewer pixels to paint per action than 1400×900
    window.show()
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        window.start()
    monkey = Monkey(window, qtbot, tmp_path, random.Random(SEED))
    t0 = time.perf_counter()
    try:
        monkey.run(ACTIONS)
        monkey.wait_for_worker()
        QApplication.processEvents()
    finally:
        elapsed = time.perf_counter() - t0
        print(f"\nmonkey: {ACTIONS} actions in {elapsed:.1f} s; {sorted(monkey.counts.items())}")
        print("seconds per kind:", {k: round(v, 1) for k, v in sorted(monkey.times.items(), key=lambda kv: -kv[1])})
        window.actions_.set_language("en")
        window.close()
    assert not window.worker.isRunning()
    assert recorded_exceptions == []
    assert state.trace is not None
    assert len(monkey.exported) > 0  # the exports did happen (and some were reopened)
    leftover = {t for t in threading.enumerate() if t not in before_threads and t.is_alive()}
    assert leftover == set()
