"""The Model view: every layer × head as a thumbnail equal to the trace's map shrunk in numpy, clicks and keys
that open a head, sorting and outlining by scores recomputed here, a synthetic model whose previous-token
head is known, the model's own pass for a deep model in the window, stale results, the exported figure."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt

from explorer.analysis import head_scores as hs


@pytest.fixture
def view(qtbot, state):
    from explorer.ui.views.model_view import ModelView

    v = ModelView(state)
    qtbot.addWidget(v)
    v.resize(700, 500)
    v.show()
    return v


def _filled(qtbot, view, count: int) -> None:
    try:
        qtbot.waitUntil(lambda: view.complete and view.mosaic.filled() == count, timeout=30_000)
    except qtbot.TimeoutError:  # say what the view was doing (a loaded run once timed out here)
        raise AssertionError(
            f"filled {view.mosaic.filled()} of {count}; status {view.status.text()!r}; key {view._key}; "
            f"busy {view.slot.busy}; on screen {view.on_screen()}; layers {sorted(view._layers)}"
        ) from None


def _block_max(m: np.ndarray, cells: int) -> np.ndarray:
    f = -(-m.shape[0] // cells)
    size = -(-m.shape[0] // f) * f
    padded = np.full((size, size), -np.inf, dtype=np.float32)
    padded[: m.shape[0], : m.shape[1]] = m
    return padded.reshape(size // f, f, size // f, f).max(axis=(1, 3))


def _weights(trace, layer: int, row: int = 0) -> np.ndarray:
    n = trace.rows[row].length
    return np.stack(
        [np.asarray(trace.head_map(layer, "weights", row, h)[:n, :n], dtype=np.float64) for h in range(trace.config.H)]
    )


def test_the_grid_fills_with_every_heads_map_shrunk(qtbot, state, view):
    from live_state import make_trace

    from explorer.present.model_view import THUMB_CELLS

    trace = make_trace(" ".join(["This is a pen ."] * 20))  # over 100 tokens: maps shrunk
    assert trace.C > THUMB_CELLS
    state.set_trace(trace)
    L, H = trace.config.layers, trace.config.H
    _filled(qtbot, view, L * H)
    for layer in range(L):
        heads = view._layers[layer]
        for h in range(H):
            expected = _block_max(np.asarray(trace.head_map(layer, "weights", 0, h), dtype=np.float32), THUMB_CELLS)
            np.testing.assert_array_equal(heads.thumbs[h], expected)
            image = view.mosaic.images[(layer, h)]
            assert (image.width(), image.height()) == expected.shape[::-1]
            r, g, b, a = heads.images[h][10, 3]
            assert image.pixelColor(3, 10).getRgb() == (r, g, b, a)  # the painted image is the job's colours
    assert f"{trace.C} tokens" in view.status.text()


def test_clicking_a_map_selects_its_layer_and_head(qtbot, state, view, trace):
    state.set_trace(trace)
    _filled(qtbot, view, trace.config.layers * trace.config.H)
    rect = view.mosaic.head_rect(1, 2)
    qtbot.mouseClick(view.mosaic, Qt.MouseButton.LeftButton, pos=QPoint(int(rect.center().x()), int(rect.center().y())))
    assert (state.selection.layer, state.selection.head, state.selection.stage) == (1, 2, "weights")
    assert view.mosaic.selected == (1, 2)


def test_arrow_keys_walk_the_grid_and_enter_opens_the_head(qtbot, state, view, trace):
    state.set_trace(trace)
    _filled(qtbot, view, trace.config.layers * trace.config.H)
    view.mosaic.setFocus()
    view.mosaic.cursor = (0, 0)
    layers_down = view.mosaic._layout(view.mosaic.width(), view.mosaic.height())[0]
    qtbot.keyClick(view.mosaic, Qt.Key.Key_Down if layers_down else Qt.Key.Key_Right)  # next layer
    qtbot.keyClick(view.mosaic, Qt.Key.Key_Right if layers_down else Qt.Key.Key_Down)  # next head
    qtbot.keyClick(view.mosaic, Qt.Key.Key_Return)
    assert (state.selection.layer, state.selection.head) == (1, 1)


def test_sorting_orders_each_layers_heads_by_the_score(qtbot, state, view, trace):
    state.set_trace(trace)
    L, H = trace.config.layers, trace.config.H
    _filled(qtbot, view, L * H)
    for name, high_first in (("previous", True), ("entropy", False), ("first", True)):
        view.score.setCurrentIndex(view.score.findData(name))
        view.sort.setChecked(True)
        for layer in range(L):
            A = _weights(trace, layer)
            if name == "previous":
                score = np.array([np.mean([A[h, i, i - 1] for i in range(1, A.shape[1])]) for h in range(H)])
            elif name == "first":
                score = np.array([np.mean([A[h, i, 0] for i in range(1, A.shape[1])]) for h in range(H)])
            else:
                score = np.array(
                    [
                        np.mean([-sum(a * np.log(a) for a in A[h, i] if a > 0) for i in range(1, A.shape[1])])
                        for h in range(H)
                    ]
                )
            expected = sorted(range(H), key=lambda h: -score[h] if high_first else score[h])
            assert view.mosaic.order[layer].tolist() == expected, name
    view.sort.setChecked(False)
    assert view.mosaic.order is None


def _previous_token_bundle(tok, prev_head: int):
    """Two layers of three heads, no norm, learned positions that are one-hot: x_i = e_i. Head ``prev_head``
    of layer 0 has W_q e_i = β e_{i−1} and W_k = I, so query i's scores peak at key i−1; every other head
    has W_q = 0 (uniform weights)."""
    import torch

    from explorer.config import ModelConfig
    from explorer.weights.bundle import random_bundle

    E = D = 32
    cfg = ModelConfig(
        vocab_size=tok.vocab_size,
        embed_dim=E,
        key_dim=D,
        heads=3,
        layers=2,
        positions="learned",
        norm="none",
        max_positions=E,
    )
    bundle = random_bundle(cfg, tok, seed=0)
    m = bundle.model
    with torch.no_grad():
        m.embed.tok.zero_()
        m.embed.pos.copy_(torch.eye(E))
        for layer in m.layers:
            layer.attn.W_q.zero_()
        cols = slice(prev_head * D, (prev_head + 1) * D)
        m.layers[0].attn.W_q[:, cols] = 100.0 * torch.diag(torch.ones(E - 1), -1)  # row i → column i−1
        m.layers[0].attn.W_k[:, cols] = torch.eye(E)
    return bundle


def test_a_known_previous_token_head_is_outlined(qtbot, state, view):
    from explorer.trace import run_trace
    from explorer.weights.presets import preset_tokenizer

    bundle = _previous_token_bundle(preset_tokenizer("words-en.json"), prev_head=2)
    trace = run_trace(bundle, "the cat sat on the mat and the dog ran to the big red door")
    assert trace.head_map(0, "weights", 0, 2)[5, 4] > 0.99  # the construction does what it says
    state.set_trace(trace)
    _filled(qtbot, view, 6)
    view.score.setCurrentIndex(view.score.findData("previous"))
    assert view.mosaic.marked == {(0, 2)}  # 6 heads: one outlined, the known one
    assert "layer 0 head 2: 1.00" in view.best.text()
    assert "previous token 1.00" in view._tip(0, 2)


def test_a_deep_model_is_filled_by_the_models_own_pass(qtbot, open_window):
    """12 layers × 12 heads (GPT-2's grid): the window's trace holds one layer; the view runs the model."""
    from explorer.ui.bridge.state import AppState

    state = AppState()
    state.set_sizes(embed_dim=48, key_dim=4, heads=12, layers=12)
    window = open_window(state)
    try:
        assert len(state.trace.layers) == 1  # auto capture: one layer at a time
        window.actions_.model_view.trigger()
        view = window.views["model_view"]
        _filled(qtbot, view, 144)
        assert view._key[0] == "model"  # not the trace: it holds one layer
        qtbot.waitUntil(lambda: view._induction is not None, timeout=60_000)
        assert view._induction.shape == (12, 12) and np.isfinite(view._induction).all()
        layer = state.trace.layers[0]
        A = _weights(state.trace, layer)
        np.testing.assert_allclose(
            view._layers[layer].scores["previous"], [np.mean(np.diagonal(a, -1)) for a in A], rtol=1e-6
        )
        view.score.setCurrentIndex(view.score.findData("induction"))
        best = hs.top_heads(view._induction, "induction")
        assert view.mosaic.marked == {(l, h) for l, h, _ in best} and len(best) == 7
        rect = view.mosaic.head_rect(7, 5)
        qtbot.mouseClick(
            view.mosaic, Qt.MouseButton.LeftButton, pos=QPoint(int(rect.center().x()), int(rect.center().y()))
        )
        qtbot.waitUntil(lambda: 7 in state.trace.layers, timeout=30_000)  # layer 7 traced for the central view
        assert (state.selection.layer, state.selection.head) == (7, 5)
    finally:
        window.close()


def test_a_newer_trace_replaces_a_filling_grid(qtbot, state, view):
    from live_state import make_trace

    first, second = make_trace("This is a pen ."), make_trace("a pen is this , really")
    state.set_trace(first)
    state.set_trace(second)  # before the first job's layers arrive
    _filled(qtbot, view, 12)  # classroom: 3 layers × 4 heads
    qtbot.waitUntil(lambda: not view.slot.busy, timeout=30_000)  # every job's queued layers delivered (and dropped)
    assert {h.tokens for h in view._layers.values()} == {second.C}
    np.testing.assert_array_equal(view._layers[1].thumbs[3], second.head_map(1, "weights", 0, 3))


def test_a_snapshot_missing_layers_says_so(qtbot, state, view):
    from live_state import make_trace

    trace = make_trace("This is a pen .", layers_to_capture=(1,))
    state.set_trace(trace)
    _filled(qtbot, view, 4)
    assert sorted(view._layers) == [1]
    assert "holds 1 of the model's 3 layers" in view.status.text()


def test_the_figure_is_saved_as_png_and_svg(qtbot, state, view, trace, tmp_path):
    from PySide6.QtGui import QImage

    state.set_trace(trace)
    _filled(qtbot, view, 12)
    png = view.export_figure(str(tmp_path / "grid.png"), tile_px=50)
    image = QImage(png)
    assert image.height() > 2 * 50 and image.width() > 4 * 50
    svg = tmp_path / "grid.svg"
    assert view.export_figure(str(svg)) == str(svg)
    text = svg.read_text()
    assert text.count("<image") >= 12 and "layer" in text


def test_the_panel_starts_closed_and_opens_from_the_view_menu(qtbot, window):
    dock = window.docks["model_view"]
    assert not dock.isVisible()  # a fourth tab beside Selected token would cut every tab's title short
    action = window.actions_.model_view
    assert action.shortcut().toString() == "Ctrl+Shift+M" and action in window.actions_.view_menu.actions()
    action.trigger()
    assert dock.isVisible() and window.views["model_view"].on_screen()
    from PySide6.QtCore import Qt

    assert (
        window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    )  # in the side column (its tabs when open)
    view = window.views["model_view"]
    _filled(qtbot, view, window.state.trace.config.layers * window.state.trace.config.H)
    window.reset_layout()
    assert not dock.isVisible()


def test_a_sentence_too_long_for_the_grid_is_said_not_drawn(qtbot, state, view, trace, monkeypatch):
    from explorer.present import model_view as mv

    monkeypatch.setattr(mv, "MAX_TOKENS", trace.C - 1)
    state.set_trace(trace)
    assert view.mosaic.filled() == 0 and not view.slot.busy  # no job started
    assert f"has {trace.C} tokens" in view.status.text()


def test_the_maps_are_asked_for_only_after_the_panel_has_painted(qtbot, window):
    """Asked for at the panel's Show, the model's pass ran in the worker while the window laid out and
    painted the opening panel, and shared the interpreter with it: the opening stalled 51–69 ms (issue 28)."""
    from PySide6.QtCore import QEvent, QObject

    view = window.views["model_view"]
    order: list[str] = []

    class FirstPaint(QObject):
        def eventFilter(self, obj, event) -> bool:
            if event.type() == QEvent.Type.Paint and "paint" not in order:
                order.append("paint")
            return False

    watcher = FirstPaint()
    view.mosaic.installEventFilter(watcher)
    submit = view.slot.submit
    view.slot.submit = lambda job: (order.append("job"), submit(job))[1]
    window.actions_.model_view.trigger()
    assert "job" not in order  # not at the Show
    _filled(qtbot, view, window.state.trace.config.layers * window.state.trace.config.H)
    assert order[:2] == ["paint", "job"]


def test_a_lazy_trace_past_the_old_limit_fills_the_grid_from_q_and_k(qtbot, state, view):
    """Past 1,024 tokens the grid was refused; a lazy trace's layers are now streamed from q and k in bands
    (explorer/trace/layer_glance.py): every map comes, each the head's whole map shrunk (to float rounding)."""
    from explorer.config import ModelConfig, RunOptions
    from explorer.present import model_view as mv
    from explorer.present.model_view import THUMB_CELLS
    from explorer.trace import run_trace
    from explorer.weights.bundle import random_bundle
    from explorer.weights.presets import preset_tokenizer

    tok = preset_tokenizer("words-en.json")
    cfg = ModelConfig(
        vocab_size=tok.vocab_size,
        embed_dim=16,
        key_dim=4,
        heads=4,
        kv_heads=2,
        layers=2,
        positions="rope",
        max_positions=2048,
    )
    words = "the cat sat on the mat and the dog ran to the big red door".split()
    text = " ".join(np.random.default_rng(1).choice(words, mv.MAX_TOKENS + 100))
    trace = run_trace(random_bundle(cfg, tok, seed=0), text, RunOptions(lazy_pairwise=True))
    assert trace.C > mv.MAX_TOKENS
    state.set_trace(trace)
    _filled(qtbot, view, 8)
    assert f"{trace.C} tokens" in view.status.text()
    for layer in range(2):
        for h in (0, 3):
            whole = np.asarray(trace.head_map(layer, "weights", 0, h), dtype=np.float32)
            np.testing.assert_allclose(view._layers[layer].thumbs[h], _block_max(whole, THUMB_CELLS), atol=1e-6)
    A = _weights(trace, 1)
    np.testing.assert_allclose(view._layers[1].scores["first"], A[:, 1:, 0].mean(axis=1), rtol=1e-5)
