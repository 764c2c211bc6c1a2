"""Two runs compared on a slide (issue 40): C shows run A, run B and B − A of the chosen head in place of the
figure, in the slide's type, from the Compare view's last comparison (File → Compare…); → ← walk the heads
from the most different, C or Esc goes back to the stages. The same three linked maps as the Compare view."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QWidget

from explorer.compare.shown import shown_head
from explorer.ui.classroom.slide_window import BACK_KEYS, NEXT_KEYS
from explorer.ui.views.compare.compare_maps import CompareMaps
from explorer.ui.views.compare.compare_view import map_titles

MAP_TEXT_SCALE = 0.85


def build(window, figure: QHBoxLayout) -> None:
    window.compare_maps = CompareMaps(tab_below_px=0)
    for w in (window.compare_maps, *window.compare_maps.findChildren(QWidget)):
        w.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # every key belongs to the slide
    window.compare_maps.hide()
    figure.addWidget(window.compare_maps, 3)
    window.compare_follower = _Follower(window)
    window.state.selectionChanged.connect(window.compare_follower.selection_changed)


class _Follower(QObject):
    """Follows the window's head while the comparison is shown; a QObject of the slide, so the connection
    ends with the slide window."""

    def selection_changed(self, _selection) -> None:
        QTimer.singleShot(0, self, lambda: _fill(self.parent()))  # after the deck has written its own lines


def comparison_of(window):
    """The Compare view's last comparison (None: nothing compared yet)."""
    views = getattr(window.parentWidget(), "views", None)
    for view in views.built() if hasattr(views, "built") else ():
        if getattr(view, "comparison", None) is not None and hasattr(view, "shown_head"):
            return view
    return None


def toggle(window) -> None:
    maps = window.compare_maps
    if maps.isVisible():
        maps.hide()
        window.tensor.show()
        window.refresh()
        return
    if comparison_of(window) is None:
        window.footer.setText(
            QCoreApplication.translate(
                "PresentationWindow", "Nothing to compare yet: File → Compare… in the window first, then press C."
            )
        )
        return
    window.tensor.hide()
    maps.show()
    _fill(window)


def _fill(window) -> None:
    maps = window.compare_maps
    view = comparison_of(window)
    if not maps.isVisible() or view is None:
        return
    comparison, (layer, head) = view.comparison, view.shown_head()
    # Three maps share the slide's width: their labels a little under the figure's type, so that each token
    # keeps one line of its own (at the figure's size, 18 labels overlapped in two bands and the maps shrank).
    px = max(12, round(window.tensor.font().pixelSize() * MAP_TEXT_SCALE))
    maps.set_text_px(px, smallest=px)
    # no axis titles: the caption says rows and columns once, and the cells get their width
    titles = map_titles(comparison, layer, head, with_head=False)
    maps.show_head(shown_head(comparison, layer, head), titles, ("", ""))
    maps.set_legend_text(QCoreApplication.translate("PresentationWindow", "masked, or no token of this run there"))
    ranked = [(h.layer, h.head) for h in comparison.ranked()]
    rank = ranked.index((layer, head)) + 1 if (layer, head) in ranked else 0
    window.title.setText(
        QCoreApplication.translate("PresentationWindow", "Two runs compared: where does each head look?")
    )
    window.where.setText(
        QCoreApplication.translate("PresentationWindow", "head {layer}.{head}: {rank} of {n} by difference").format(
            layer=layer, head=head, rank=rank, n=len(ranked)
        )
    )
    window.edge.setText("")
    window.caption.setText(
        QCoreApplication.translate(
            "PresentationWindow",
            "A: {a}\nB: {b}\nEach row: a word's attention (query) over the words (keys), tokens of both runs aligned",
        ).format(a=comparison.pair.a.trace.rows[0].text, b=comparison.pair.b.trace.rows[0].text)
    )
    window.footer.setText(
        QCoreApplication.translate(
            "PresentationWindow", "→ ← the heads, most different first · C to go back to the stages"
        )
    )


def key(window, event: QKeyEvent) -> bool:
    """True: the comparison took the key."""
    k, maps = event.key(), window.compare_maps
    if k == Qt.Key.Key_C and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
        toggle(window)
        return True
    if not maps.isVisible():
        return False
    if k == Qt.Key.Key_Escape:
        toggle(window)
        return True
    if k in NEXT_KEYS or k in BACK_KEYS:
        view = comparison_of(window)
        ranked = [(h.layer, h.head) for h in view.comparison.ranked()]
        shown = view.shown_head()
        at = ranked.index(shown) if shown in ranked else -1
        layer, head = ranked[max(0, min(len(ranked) - 1, at + (1 if k in NEXT_KEYS else -1)))]
        window.state.select(stage="weights", layer=layer, head=head)
        return True
    return False
