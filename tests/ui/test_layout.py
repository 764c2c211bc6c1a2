"""Legible at the sizes where the app is used (issue 11): the attention map is never clipped and is the
largest figure, every token is labelled up to C = 32, presentation mode scales the figure's text, and no
label in the window is cut without an ellipsis and a tooltip. Everything is read back from the laid-out
widgets and the axes' last paint."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QGraphicsView, QLabel, QWidget

from explorer.ui.views.map.heatmap import Heatmap, TokenAxis
from tests.ui.waits import wait_laid_out

SIZES = [(1280, 720), (1366, 768), (1400, 900), (1920, 1080)]


def settle(qtbot, rounds: int = 4) -> None:
    """Until the window's layout is still (no fixed wait: tests/ui/waits.py)."""
    wait_laid_out(qtbot)


def paint(widget: QWidget) -> None:
    """Paint as the screen would (the axes lay their labels out while painting), twice: a first paint may
    change an axis's size."""
    widget.grab()
    QApplication.processEvents()
    widget.grab()
    QApplication.processEvents()


def in_viewport(h: Heatmap, item) -> QRectF:
    """An item's laid-out rect (its labels are checked inside it) in the heatmap widget's coordinates."""
    scene_rect = item.mapRectToScene(item.rect())
    view = h.graphics
    poly = view.mapFromScene(scene_rect)
    r = QRectF(poly.boundingRect())
    return r.translated(QPointF(view.mapTo(h, view.rect().topLeft())))


def wholly_seen(w: QWidget) -> bool:
    """Shown, and not cut by any parent (a scroll area's viewport, a dock, the window)."""
    if not w.isVisible():
        return False
    top = w.window()
    r = QRect(w.mapTo(top, QPoint(0, 0)), w.size())
    p = w.parentWidget()
    while p is not None:
        if not QRect(p.mapTo(top, QPoint(0, 0)), p.size()).contains(r):
            return False
        p = p.parentWidget()
    return True


def seen_area(w: QWidget) -> int:
    """Pixels of ``w`` not cut off by a parent (a scroll area shows part of a taller panel)."""
    top = w.window()
    r = QRect(w.mapTo(top, QPoint(0, 0)), w.size())
    p = w.parentWidget()
    while p is not None:
        r = r.intersected(QRect(p.mapTo(top, QPoint(0, 0)), p.size()))
        p = p.parentWidget()
    return max(0, r.width()) * max(0, r.height())


def in_front(w: QWidget) -> bool:
    """Not in a panel hidden behind another tab."""
    from explorer.ui.views.base import View

    p = w
    while p is not None and not isinstance(p, View):
        p = p.parentWidget()
    return p is None or p.on_screen()


def inside(inner: QRectF, outer: QRectF, slack: float = 1.5) -> bool:
    return (
        inner.left() >= outer.left() - slack
        and inner.top() >= outer.top() - slack
        and inner.right() <= outer.right() + slack
        and inner.bottom() <= outer.bottom() + slack
    )


def assert_map_whole(h: Heatmap, head: int) -> None:
    """Plot, colour bar, axes (with their labels) and the title inside the widget, which is itself on screen."""
    assert h.isVisible() and h.width() > 0
    frame = QRectF(h.rect())
    viewport = QRectF(h.graphics.viewport().rect()).translated(
        QPointF(h.graphics.mapTo(h, h.graphics.rect().topLeft()))
    )
    items = {"plot": h.plot.getViewBox(), "left axis": h.left, "bottom axis": h.bottom}
    if h.bar is not None:
        items["colour bar"] = h.bar
    for what, item in items.items():
        r = in_viewport(h, item)
        assert inside(r, viewport) and inside(r, frame), (what, r, viewport)
    assert h.title.isVisible() and f"head {head}" in h.title.text()
    assert inside(QRectF(h.title.geometry()), frame)
    # the title's text fits its label (it wraps rather than being cut)
    fm = QFontMetrics(h.title.font())
    assert (
        fm.boundingRect(h.title.contentsRect(), int(h.title.alignment()) | 0x1000, h.title.text()).height()
        <= h.title.height() + 1
    )
    # the whole map widget is on screen, not scrolled or pushed out of its window
    top_left = h.mapTo(h.window(), h.rect().topLeft())
    assert inside(QRectF(top_left.x(), top_left.y(), h.width(), h.height()), QRectF(h.window().rect()))


def assert_axis_labels(h: Heatmap, axis: TokenAxis, count: int) -> None:
    """``count`` labels drawn, each inside the widget, none overlapping, each whole or elided with a tooltip."""
    drawn = axis.drawn()
    assert len(drawn) == count, [t for _r, t, _w in drawn]
    frame = QRectF(h.rect())
    view = h.graphics
    offset = QPointF(view.mapTo(h, view.rect().topLeft()))
    fm = QFontMetrics(axis.style["tickFont"])
    rects = []
    for rect, text, whole in drawn:
        upright = (
            axis.orientation == "bottom"
            and rect.height() > rect.width()
            and text
            and fm.horizontalAdvance(text) > rect.width()
        )
        in_widget = QRectF(view.mapFromScene(axis.mapRectToScene(rect)).boundingRect()).translated(offset)
        assert inside(in_widget, frame, 2.0), (text, in_widget, frame)
        room = rect.height() if upright else rect.width()
        assert fm.horizontalAdvance(text) <= room + 1, (text, room)
        if text != whole:  # elided, or a crowded key axis showing the index (the query axis names it)
            assert text.endswith("…") or text == whole.split(" ")[0], (text, whole)
            assert axis.label_at(rect.center()) == whole
        rects.append(rect)
    for a in range(len(rects)):
        for b in range(a + 1, len(rects)):
            overlap = rects[a].intersected(rects[b])
            assert overlap.width() < 1.5 or overlap.height() < 1.5, (drawn[a][1], drawn[b][1])


@pytest.fixture
def big_window(window, state, qtbot):
    qtbot.waitExposed(window)
    state.select(stage="weights", layer=0, head=0)
    yield window


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_map_is_whole_largest_and_labelled_at_every_size(big_window, state, qtbot, size):
    window = big_window
    window.resize(*size)
    window.apply_default_sizes()
    settle(qtbot)
    assert (window.width(), window.height()) == size  # the panels' minimum sizes fit the screen
    tv = window.views["tensor"]
    paint(window)
    assert_map_whole(tv.large, 0)
    C = state.trace.rows[0].length
    assert_axis_labels(tv.large, tv.large.left, C)
    assert_axis_labels(tv.large, tv.large.bottom, C)
    # the largest figure of the window: no other plot on screen is larger
    area = seen_area
    others = [
        g for g in window.findChildren(QGraphicsView) if g.isVisible() and in_front(g) and g is not tv.large.graphics
    ]
    assert others  # the selected token's plots are beside the map
    biggest = max(others, key=area)
    assert area(tv.large.graphics) > area(biggest), (area(tv.large.graphics), biggest.parent(), area(biggest))


def test_the_explaining_panels_have_room_once_opened(big_window, state, qtbot):
    """At 1400×900 the map takes the room: the Selected token and Identities panels start on their strips.
    One click on each opens it with room for what it explains."""
    window = big_window
    window.resize(1400, 900)
    window.apply_default_sizes()
    settle(qtbot)
    sel = window.views["selection"]
    assert not sel.on_screen()  # closed to its strip at this width
    window.strips["right"].button("selection").click()
    window.strips["bottom"].button("identities").click()
    settle(qtbot)
    assert sel.on_screen()
    for w in (sel.q, sel.keys, sel.bars_plot, sel.received):  # q, the keys, the weights, Σ a·v: no scrolling
        assert wholly_seen(w), w
    ident = window.views["identities"]
    assert ident.on_screen()
    assert "→" in ident.difference.text() and wholly_seen(ident.difference)  # the verdict
    controls = window.views["controls"]
    for w in (controls.mask, controls.scale):  # above the fold
        assert wholly_seen(w), w


def test_reset_layout_brings_panels_back(window, qtbot):
    from explorer.ui.shell.window_layout import default_open

    window.docks["selection"].show()
    window.docks["identities"].show()
    window.docks["identities"].setFloating(True)
    window.docks["input"].hide()
    window.actions_.reset_layout.trigger()
    settle(qtbot)
    assert not any(d.isFloating() for d in window.docks.values())
    opened = {name for name, d in window.docks.items() if not d.isHidden()}
    assert opened == default_open(window, window.specs) and {"flow", "input", "controls"} <= opened
    assert window.views["input"].on_screen() and not window.docks["identities"].isVisible()
    window.resize(1920, 1080)
    window.actions_.reset_layout.trigger()
    settle(qtbot)
    assert window.views["selection"].on_screen()  # a wide window has the room for it


def labelled_heatmap(qtbot, C: int, size=(520, 440), word: str = "token") -> Heatmap:
    h = Heatmap()
    qtbot.addWidget(h)
    h.resize(*size)
    h.show()
    qtbot.waitExposed(h)
    labels = [f"{i} {word}{i}" for i in range(C)]
    h.set_matrix(np.random.default_rng(0).random((C, C), dtype=np.float32), labels, labels, False, square=True)
    h.set_axis_titles("query (row)", "key (column)", "query (row) attends to key (column) — head 3")
    settle(qtbot, 2)
    paint(h)
    return h


@pytest.mark.parametrize("C", [5, 10, 24, 32])
def test_every_token_is_labelled_up_to_32(qtbot, C):
    h = labelled_heatmap(qtbot, C)
    assert_axis_labels(h, h.left, C)
    assert_axis_labels(h, h.bottom, C)
    assert_map_whole(h, 3)


def test_long_tokens_are_elided_with_the_whole_token_as_tooltip(qtbot):
    h = labelled_heatmap(qtbot, 8, word="extraordinarily_long_piece")
    texts = [t for _r, t, _w in h.left.drawn()]
    assert any(t.endswith("…") for t in texts)
    assert_axis_labels(h, h.left, 8)
    assert_axis_labels(h, h.bottom, 8)


def test_past_32_labels_follow_the_zoom_and_keep_the_selected_token(qtbot):
    h = labelled_heatmap(qtbot, 200)
    h.set_highlight(137, None)
    paint(h)
    drawn = [w for _r, _t, w in h.left.drawn()]
    assert 5 < len(drawn) < 200 and "137 token137" in drawn
    assert "137 token137" in [w for _r, _t, w in h.bottom.drawn()]
    vb = h.plot.getViewBox()
    vb.setRange(xRange=(100, 120), yRange=(100, 120), padding=0)  # zoomed in: about 20 cells on screen
    paint(h)
    import math

    lo, hi = sorted(vb.viewRange()[1])
    on_screen = range(max(0, math.ceil(lo - 0.5)), min(200, math.floor(hi - 0.5) + 1))  # cells whose centre is in view
    assert len(on_screen) <= 32  # the square cells may show a row or two more than asked
    assert [w for _r, _t, w in h.left.drawn()] == [f"{i} token{i}" for i in on_screen]  # every one of them


@pytest.mark.parametrize("side", [600, 650, 900])
def test_cell_numbers_are_never_tiny(qtbot, side):
    h = labelled_heatmap(qtbot, 12, size=(side, side))  # at 600–650 px the numbers would be 7–8 px: not shown
    shown = h.layers.numbers.shown()
    if side == 900:
        assert shown  # room enough: every number printed
    assert not shown or h.layers.cell_font_px() >= 9


# ------------------------------------------------------------------------------------------ presentation
def figure_text_px(h: Heatmap) -> dict[str, float]:
    """Pixel size of every text of the figure as drawn."""
    sizes = {
        "left ticks": h.left.style["tickFont"].pixelSize(),
        "bottom ticks": h.bottom.style["tickFont"].pixelSize(),
        "title": h.title.font().pixelSize(),
        "legend": h.legend_text.font().pixelSize(),
    }
    for name, axis in (("left title", h.left), ("bottom title", h.bottom)):
        sizes[name] = float(axis.labelStyle.get("font-size", "0px").rstrip("px"))
    if h.bar is not None:
        sizes["colour bar ticks"] = (h.bar.axis.style["tickFont"] or h.bar.axis.font()).pixelSize()
    if h.layers.numbers.shown():
        sizes["cell numbers"] = h.layers.cell_font_px()
    return sizes


PRESENTATION_SIZES = [(1280, 720), (1920, 1080)]


@pytest.mark.parametrize("size", PRESENTATION_SIZES, ids=[f"{w}x{h}" for w, h in PRESENTATION_SIZES])
def test_presentation_shows_one_large_whole_figure_with_large_text(qtbot, state, size):
    from explorer.ui.classroom import presentation
    from tests.ui.live_state import make_trace

    state.set_trace(make_trace())
    state.select(stage="weights", head=1)
    parent = QWidget()
    qtbot.addWidget(parent)
    slides = presentation.show_for(state, parent)
    qtbot.waitExposed(slides)
    slides.setWindowState(slides.windowState() & ~slides.windowState())
    slides.setFixedSize(*size)  # the offscreen screen is 800×800: stand in for a projector of this size
    settle(qtbot)
    paint(slides)
    tv = slides.tensor
    assert not tv.bar.isVisible() and not tv.explanation.isVisible() and not tv.grid.isVisible()
    assert_map_whole(tv.large, 1)
    assert_axis_labels(tv.large, tv.large.left, 5)
    assert_axis_labels(tv.large, tv.large.bottom, 5)
    sizes = figure_text_px(tv.large)
    want = 20 * size[1] / 1080
    assert "cell numbers" in sizes  # five tokens on a slide: the weights are printed
    assert all(px >= want - 0.5 for px in sizes.values()), sizes
    assert tv.large.graphics.height() > 0.5 * size[1]  # one large figure
    slides.close()


# ------------------------------------------------------------------------------------------ nothing clipped
def clipped_labels(root: QWidget, checked: list | None = None) -> list[str]:
    """Visible labels whose text does not fit their rect, unless elided on purpose with a tooltip."""
    bad = []
    checked = [] if checked is None else checked
    for label in root.findChildren(QLabel):
        if (
            not label.isVisible()
            or label.visibleRegion().isEmpty()
            or not label.text()
            or label.pixmap()
            and not label.pixmap().isNull()
        ):
            continue
        if label.textFormat() == 1 or "<" in label.text():  # rich text lays itself out
            continue
        scroll = label.parent()
        in_scroll = False
        while scroll is not None:
            if isinstance(scroll, QAbstractScrollArea):
                in_scroll = True
                break
            scroll = scroll.parent()
        checked.append(label)
        fm = QFontMetrics(label.font())
        rect = label.contentsRect()
        text = label.text().replace("&&", "\0").replace("&", "").replace("\0", "&") if label.buddy() else label.text()
        if label.wordWrap():
            need = fm.boundingRect(rect, int(label.alignment()) | 0x1000, text).height()
            if need > rect.height() + 2 and not in_scroll:
                bad.append(
                    f"{text[:40]!r} needs {need} px, has {rect.height()} ({label.parent().metaObject().className()})"
                )
        else:
            widest = max(fm.horizontalAdvance(line) for line in text.split("\n"))
            if widest > rect.width() + 2 and not (text.endswith("…") and label.toolTip()):
                bad.append(
                    f"{text[:40]!r} needs {widest} px, has {rect.width()} ({label.parent().metaObject().className()})"
                )
    return bad


def clipped_plot_texts(root: QWidget) -> list[str]:
    """Axis titles longer than their axis, legends overlapping an axis title or leaving their plot."""
    bad = []
    for view in root.findChildren(QGraphicsView):
        if not view.isVisible() or not in_front(view):
            continue
        for item in view.scene().items():
            if not isinstance(item, pg.PlotItem) or not item.isVisible():
                continue
            titles = []
            for name in ("left", "bottom"):
                axis = item.getAxis(name)
                if not axis.isVisible() or not axis.label.isVisible() or not axis.labelText:
                    continue
                length = axis.height() if name == "left" else axis.width()
                text_len = axis.label.boundingRect().width()  # the left title is the same item, rotated
                if text_len > length + 2:
                    bad.append(f"axis title {axis.labelText!r}: {text_len:.0f} px on a {length:.0f} px axis")
                titles.append(axis.label.sceneBoundingRect())
            legend = item.legend
            if legend is not None and legend.isVisible() and legend.items:
                box = legend.sceneBoundingRect()
                if any(box.intersects(t) for t in titles):
                    bad.append("legend over an axis title")
                if not item.sceneBoundingRect().adjusted(-1, -1, 1, 1).contains(box):
                    bad.append("legend outside its plot")
    return bad


def clipped_cells(root: QWidget) -> list[str]:
    """Table cells whose text is cut (by the column or the viewport) without its whole text as tooltip."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QTableView

    bad = []
    for table in root.findChildren(QTableView):
        if not table.isVisible() or not in_front(table) or table.model() is None:
            continue
        model, fm = table.model(), QFontMetrics(table.font())
        right = table.viewport().width()
        for r in range(model.rowCount()):
            for c in range(model.columnCount()):
                index = model.index(r, c)
                text = str(model.data(index, Qt.ItemDataRole.DisplayRole) or "")
                rect = table.visualRect(index)
                if not text or rect.isEmpty():
                    continue
                room = min(rect.right(), right) - rect.left() - 8
                tip = model.data(index, Qt.ItemDataRole.ToolTipRole)
                if fm.horizontalAdvance(text) > room and tip != text:
                    bad.append(f"cell {text!r}: {fm.horizontalAdvance(text)} px in {room}")
    return bad


TABS = ["identities", "scaling", "params", "tensors", "train", "selection", "output"]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_no_label_is_cut(big_window, qtbot, size):
    window = big_window
    window.resize(*size)
    window.apply_default_sizes()
    settle(qtbot)
    checked, bad = [], []
    for tab in TABS:  # every panel in front once, as a user clicking through the tabs sees it
        window.open_panel(tab)  # as its strip button does: the bottom and right panels start closed
        window.views.get(tab)
        settle(qtbot, 3)
        paint(window)
        bad += [
            f"{tab}: {b}" for b in clipped_labels(window, checked) + clipped_plot_texts(window) + clipped_cells(window)
        ]
    assert not bad, "\n".join(sorted(set(bad)))
    assert len(checked) > 30  # the walk saw the window's labels (not a vacuous pass)


def test_no_stage_makes_the_window_taller_than_a_laptop_screen(big_window, state, qtbot):
    from explorer.present.stages import STAGE_KEYS

    window = big_window
    window.resize(1280, 720)
    window.apply_default_sizes()
    for key in STAGE_KEYS:
        state.select(stage=key)
        settle(qtbot, 2)
        assert (window.width(), window.height()) == (1280, 720), key
        assert_map_whole(window.views["tensor"].large, 0) if key in ("scores", "scaled", "masked", "weights") else None


def test_tokens_stage_shows_ids_and_the_one_hot_lookup(big_window, state, qtbot):
    window = big_window
    state.select(stage="tokens", token=3)
    settle(qtbot, 2)
    tv = window.views["tensor"]
    trace = state.trace
    ids = trace.rows[0].ids
    assert tv.lookup.isVisible() and not tv.splitter.isVisible()
    assert [tv.ids_table.item(r, 1).text() for r in range(tv.ids_table.rowCount())] == [str(i) for i in ids]
    one_hot = tv.one_hot.image.image
    assert one_hot.shape == (1, trace.config.V) and one_hot.sum() == 1 and one_hot[0, ids[3]] == 1
    W = trace["params.embed.tok"]
    first = int(tv.table_map.left.labels[0])
    assert np.array_equal(tv.table_map.image.image, W[first : first + tv.table_map.image.image.shape[0]])
    assert tv.table_map.layers.highlighted()[0] == ids[3] - first  # the row the one-hot picks
    # one-hot · W_E is the row the model looked up (its own capture of the token embedding)
    assert np.allclose(one_hot.astype(np.float64) @ W.astype(np.float64), trace["embed.tok"][0, 3], atol=1e-6)
    assert np.allclose(tv.picked.image.image[0], trace["embed.tok"][0, 3], atol=1e-6)
    assert f"{ids[3]}" in tv.one_hot.title.text()


@pytest.mark.parametrize("size", [(520, 440), (900, 500), (700, 900)])
@pytest.mark.parametrize("C", [5, 16, 28])
def test_a_square_maps_labels_sit_against_its_cells(qtbot, size, C):
    """Issue 38: the square map sat in the middle of a full-width plot with its ticks at the plot's edges (290 px
    from the row labels to the first cell). Now every row label ends, and every key label starts, within 24 px
    of the cells, whatever the widget's shape."""
    h = labelled_heatmap(qtbot, C, size=size, word="w")
    settle(qtbot)
    paint(h)
    cells = h.cells_rect()
    assert abs(cells.width() - cells.height()) <= 1.5
    for rect, _t, _w in h.left.drawn():
        assert 0 <= cells.left() - in_viewport_rect(h, h.left, rect).right() <= 24
    for rect, _t, _w in h.bottom.drawn():
        assert 0 <= in_viewport_rect(h, h.bottom, rect).top() - cells.bottom() <= 24


def in_viewport_rect(h: Heatmap, axis, rect: QRectF) -> QRectF:
    view = h.graphics
    poly = view.mapFromScene(axis.mapRectToScene(rect))
    return QRectF(poly.boundingRect()).translated(QPointF(view.mapTo(h, view.rect().topLeft())))
