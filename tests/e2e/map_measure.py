"""What a student sees of one map, read from the laid-out widgets and from a grab (issue 38): the cells' share
of the window's height, the gap between a label and the cells it names, the labels' cap height, labels cut
though they had room, and stray pixels (clipped glyph fragments) outside everything the map draws."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFontMetrics, QRegion

FRAGMENT_TOLERANCE = 40  # a pixel this far (sum of channel differences) from the background is ink


def _in_heatmap(h, axis, rect: QRectF) -> QRectF:
    view = h.graphics
    poly = view.mapFromScene(axis.mapRectToScene(rect))
    return QRectF(poly.boundingRect()).translated(QPointF(view.mapTo(h, view.rect().topLeft())))


def label_gaps(h) -> dict:
    """The largest distance (px) from a row label's end to the first cell, and from the cells' bottom edge to
    a key label's start, over every label drawn."""
    cells = h.cells_rect()
    rows = [cells.left() - _in_heatmap(h, h.left, rect).right() for rect, _t, _w in h.left.drawn()]
    keys = [_in_heatmap(h, h.bottom, rect).top() - cells.bottom() for rect, _t, _w in h.bottom.drawn()]
    return {"row_gap": max(rows, default=-1.0), "key_gap": max(keys, default=-1.0)}


def cap_heights(h) -> dict:
    return {
        "row_cap": QFontMetrics(h.left.style["tickFont"]).capHeight(),
        "key_cap": QFontMetrics(h.bottom.style["tickFont"]).capHeight(),
    }


def elided(h) -> list[str]:
    """Labels cut short with "…" (a crowded key axis showing positions only is not cut: it is counted apart)."""
    return [whole for axis in (h.left, h.bottom) for _r, text, whole in axis.drawn() if text.endswith("…")]


def positions_only(h) -> bool:
    return any(text != whole and not text.endswith("…") for _r, text, whole in h.bottom.drawn())


def _allowed(h) -> QRegion:
    """Where the map may draw: the cells, the labels, the axis lines and ticks, the axis titles, the colour bar."""
    view = h.graphics

    def region(scene_rect: QRectF, grow: int) -> QRegion:
        r = view.mapFromScene(scene_rect).boundingRect()
        return QRegion(r.adjusted(-grow, -grow, grow, grow))

    vb = h.plot.getViewBox()
    rows, cols = h.layers.shape
    allowed = region(vb.mapViewToScene(QRectF(0, 0, cols, rows)).boundingRect(), 3)
    for axis in (h.left, h.bottom):
        for rect, _t, _w in axis.drawn():
            allowed += region(axis.mapRectToScene(rect), 2)
        line = axis.mapRectToScene(axis.boundingRect())
        allowed += region(line, 0) if not axis.drawn() else QRegion()
        edge = axis.mapRectToScene(QRectF(axis.rect()))
        if axis.orientation == "left":
            allowed += region(QRectF(edge.right() - 8, edge.top(), 16, edge.height()), 1)
        else:
            allowed += region(QRectF(edge.left(), edge.top() - 8, edge.width(), 16), 1)
        if axis.label.isVisible():
            allowed += region(axis.label.sceneBoundingRect(), 2)
    if h.bar is not None and h.bar.isVisible():
        bar = h.bar.boundingRect() | h.bar.childrenBoundingRect()  # the bar and its numbers
        allowed += region(h.bar.mapRectToScene(bar), 2)
    return allowed


def fragments(h) -> dict:
    """Pixels of the map's view that are not background and lie outside everything the map draws."""
    import numpy as np
    from PySide6.QtGui import QImage

    view = h.graphics
    image = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(1)
    height, width = image.height(), image.width()
    pixels = np.frombuffer(image.constBits(), np.uint8).reshape(height, image.bytesPerLine() // 4, 4)[:, :width]
    background = QColor(view.backgroundBrush().color())
    bgr = np.array([background.blue(), background.green(), background.red()], dtype=np.int32)
    ink = np.abs(pixels[..., :3].astype(np.int32) - bgr).sum(axis=2) > FRAGMENT_TOLERANCE
    for r in _allowed(h):  # QRegion iterates over its rectangles
        ink[max(0, r.top()) : max(0, r.bottom() + 1), max(0, r.left()) : max(0, r.right() + 1)] = False
    ys, xs = np.nonzero(ink)
    box = [int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)] if len(xs) else []
    return {"stray_pixels": int(ink.sum()), "stray_box": box}


def measure_map(window, h) -> dict:
    cells = h.cells_rect()
    got = {
        "window": [window.width(), window.height()],
        "cells": [round(cells.x()), round(cells.y()), round(cells.width()), round(cells.height())],
        "share": cells.height() / window.height(),
        "labels": [len(h.left.drawn()), len(h.bottom.drawn())],
        "elided": elided(h),
        "positions": positions_only(h),
        "row_room": h.left.width(),
        **label_gaps(h),
        **cap_heights(h),
        **fragments(h),
    }
    title = h.title
    if title.isVisible():
        fm = QFontMetrics(title.font())
        need = fm.boundingRect(title.contentsRect(), int(title.alignment()) | 0x1000, title.text()).height()
        got["title_cut"] = need > title.height() + 1
    return got


def cut_labels(root) -> list[str]:
    """Visible labels of ``root`` (outside scroll areas) whose text needs more room than they have, unless cut
    on purpose with "…" and a tooltip: the caption cut through its letters at 200 % text (issue 38)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QAbstractScrollArea, QLabel

    bad = []
    for label in root.findChildren(QLabel):
        shown = QLabel.text(label)  # what is drawn (a folded label's text() is its whole text)
        if not label.isVisible() or label.visibleRegion().isEmpty() or not shown.strip():
            continue
        parent, scrolled = label.parentWidget(), False
        while parent is not None and not scrolled:
            scrolled = isinstance(parent, QAbstractScrollArea)
            parent = parent.parentWidget()
        if scrolled or (shown.endswith("…") and label.toolTip()):
            continue
        rect = label.contentsRect()
        text = shown.replace("&&", "\0").replace("&", "").replace("\0", "&") if label.buddy() else shown
        if label.textFormat() == Qt.TextFormat.RichText or "<" in shown:
            doc = QTextDocument()
            doc.setDefaultFont(label.font())
            doc.setDocumentMargin(0)
            doc.setHtml(text)
            doc.setTextWidth(rect.width() if label.wordWrap() else -1)
            need_w, need_h = doc.idealWidth(), doc.size().height()
        else:
            fm = QFontMetrics(label.font())
            flags = int(label.alignment()) | (int(Qt.TextFlag.TextWordWrap) if label.wordWrap() else 0)
            need = fm.boundingRect(rect, flags, text)
            need_w, need_h = need.width(), need.height()
        if need_h > rect.height() + 2 or (not label.wordWrap() and need_w > rect.width() + 2):
            bad.append(f"{shown[:40]!r}: {need_w:.0f}×{need_h:.0f} in {rect.width()}×{rect.height()}")
    return bad
