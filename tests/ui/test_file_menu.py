"""File menu: export a snapshot, reopen it read-only in every view, export the view and all stages as
figures at print quality; and the session (text, model, options, layout) remembered across starts."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFileDialog

from explorer import names
from explorer.export.snapshot import read_snapshot
from explorer.present.stages import stage, stage_keys_for


def _distinct_colours(path) -> int:
    img = QImage(str(path))
    assert not img.isNull()
    return len({img.pixel(x, y) for y in range(0, img.height(), 5) for x in range(0, img.width(), 5)})


@pytest.mark.parametrize("suffix", ["npz", "safetensors", "pt"])
def test_export_snapshot_from_the_menu_writes_every_tensor(window, state, tmp_path, monkeypatch, suffix):
    target = tmp_path / f"lesson.{suffix}"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_.export_snapshot.trigger()
    assert target.is_file()
    back = read_snapshot(target)
    trace = state.trace
    assert set(back.names()) == set(trace.names())
    for name in (names.attn(1, "weights"), "logits", "params.layers.0.attn.W_q", "tokens"):
        assert np.array_equal(back[name], trace[name]), name


def test_open_snapshot_from_the_menu_shows_it_read_only_in_every_view(window, state, qtbot, tmp_path, monkeypatch):
    target = tmp_path / "saved.npz"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_.export_snapshot.trigger()
    with qtbot.waitSignal(state.traceChanged, timeout=20_000):
        state.set_text("Is this a dog ?")  # something else on screen first
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    window.actions_.open_snapshot.trigger()
    shown = state.trace
    assert shown.read_only and shown.origin == str(target)
    assert shown.rows[0].tokens == ("This", " is", " a", " pen", " .")  # byte-level BPE pieces keep their space
    state.select(stage="weights", layer=1, head=2)
    large = window.views["tensor"].large.image.image
    assert np.array_equal(large, shown.head_map(1, "weights", 0, 2))
    assert not state.editable_sizes
    assert "read-only" in window.statusBar().currentMessage()


def test_export_view_png_svg_pdf_and_all_stages(window, state, tmp_path, monkeypatch, qtbot):
    from explorer.ui.menus import figure_menu

    png, svg, pdf = tmp_path / "view.png", tmp_path / "view.svg", tmp_path / "view.pdf"
    for target in (png, svg, pdf):
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, t=target, **k: (str(t), ""))
        window.actions_.export_view.trigger()
        assert target.is_file() and target.stat().st_size > 1000
    assert _distinct_colours(png) > 30
    assert QImage(str(png)).width() == round(
        160 / 25.4 * 300
    )  # print quality: 160 mm at 300 dpi, not the widget's size
    assert "<svg" in svg.read_text(encoding="utf-8")[:2000] and pdf.read_bytes().startswith(b"%PDF")
    folder = tmp_path / "slides"
    asked = {"folder": str(folder), "layers": "all", "kind": "png", "width_mm": 60.0, "dpi": 96.0}
    monkeypatch.setattr(figure_menu, "ask_stages", lambda parent: asked)
    keys = stage_keys_for(state.trace.config)
    layered = [k for k in keys if stage(k).per_layer]
    expected = len(keys) + (len(state.trace.layers) - 1) * len(layered)  # every stage of every layer
    window.actions_.export_stages.trigger()  # painted off the GUI thread: the window answers meanwhile
    qtbot.waitUntil(lambda: "figures into" in window.statusBar().currentMessage(), timeout=120_000)
    pngs = sorted(p.name for p in folder.glob("*.png"))
    assert len(pngs) == expected
    assert pngs[0] == "01-tokens.png" and pngs[-1].endswith(f"-{keys[-1]}.png")
    assert any("-layer1-weights" in n for n in pngs)
    assert state.selection.stage == "weights"  # the window's selection is not touched
    for old in folder.glob("*.png"):
        old.unlink()
    slot = figure_menu.export_all_stages(window, state, {**asked, "layers": "1", "kind": "svg"})
    with qtbot.waitSignal(slot.succeeded, timeout=120_000) as written:
        pass
    assert sorted(written.args[0]) == sorted(folder.glob("*.svg"))
    assert sorted(p.name for p in folder.glob("*.svg")) and all("layer0" not in p.name for p in folder.glob("*.svg"))


def test_session_is_remembered_across_starts(qtbot, open_window):
    from explorer.ui.bridge.state import AppState
    from explorer.ui.menus.actions import restore_session
    from explorer.ui.shell.main_window import MainWindow

    state = AppState()
    w = open_window(state)
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_options(mask=__import__("explorer.config", fromlist=["MaskSpec"]).MaskSpec.parse("window:2"))
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        state.set_text("The cat sees a dog .")
    w.open_panel("output")  # an open panel stays open (a narrow window starts with the side panels on their strip)
    w.docks["selection"].close()  # a closed panel stays closed
    w.close()
    text, source, options = restore_session()
    assert text == "The cat sees a dog ."
    assert source == state.source
    assert str(options.mask) == "window:2"
    again = MainWindow(AppState(text, source, options))
    qtbot.addWidget(again)
    assert again.docks["selection"].isHidden() and not again.docks["output"].isHidden()
    again.close()


def test_worksheet_of_the_current_text(window, state, tmp_path, monkeypatch, qtbot):
    import shutil
    import subprocess

    target = tmp_path / "class.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_.worksheet.trigger()
    key = tmp_path / "class-key.pdf"
    qtbot.waitUntil(lambda: key.exists() and target.exists(), timeout=60_000)
    assert target.read_bytes().startswith(b"%PDF")
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(key), "-"], capture_output=True, text=True, check=True).stdout
        assert f"“{state.text}”" in text and "seed-toy" in text and text.count("Answer:") == 7


def test_export_view_draws_the_tensor_the_view_shows(window, state, tmp_path, monkeypatch, qtbot):
    state.select(stage="embed")
    view = window.views["tensor"]
    qtbot.waitUntil(lambda: view.tensor_combo.count() > 1, timeout=10_000)
    view.tensor_combo.setCurrentIndex(
        [view.tensor_combo.itemData(i) for i in range(view.tensor_combo.count())].index("embed.tok")
    )
    target = tmp_path / "embed.svg"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_.export_view.trigger()
    svg = target.read_text(encoding="utf-8")
    assert "token embedding (row id of the table)" in svg and "x = token + position embedding" not in svg


def test_all_stages_are_painted_off_the_gui_thread(window, state, tmp_path, monkeypatch, qtbot):
    """Issue 37: Export all stages is a job of the window's runner, not a loop on the GUI thread."""
    import threading

    from explorer.ui.menus import figure_menu
    from explorer.ui.printing import figure_export

    painted_on: set[int] = set()
    real = figure_export.write_figure

    def recording(*args, **kwargs):
        painted_on.add(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(figure_export, "write_figure", recording)
    choices = {"folder": str(tmp_path / "f"), "layers": "0", "kind": "svg", "width_mm": 60.0, "dpi": 96.0}
    slot = figure_menu.export_all_stages(window, state, choices)
    with qtbot.waitSignal(slot.succeeded, timeout=120_000) as done:
        pass
    assert done.args[0] and all(p.is_file() for p in done.args[0])
    assert painted_on and threading.get_ident() not in painted_on


def test_a_trivial_sentence_is_refused_in_the_windows_language(window, state, tmp_path, monkeypatch, qtbot):
    """Issue 38: the window says why in its own language, and writes no sheet."""
    from explorer.ui.menus import figure_menu
    from explorer.ui.preferences import i18n

    said = []
    monkeypatch.setattr(figure_menu, "report_failure", lambda _parent, _title, message: said.append(message))
    target = tmp_path / "class.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions_.language_actions["ja"].trigger()
    try:
        with qtbot.waitSignal(state.traceChanged, timeout=30_000):
            state.set_text("猫 犬")
        window.actions_.worksheet.trigger()
        qtbot.waitUntil(lambda: bool(said), timeout=60_000)
    finally:
        i18n.install_language("en")
    assert "自明" in said[0] and "<unk>" in said[0] and not target.exists()
