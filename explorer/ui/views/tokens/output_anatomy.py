"""“How is this made?” on the next-token bars: the probability of the chosen bar's token at the shown position,
as the core's ``Cell`` of stage "probs" (logits ÷ T, the softmax), handed to the stepper by the same ask as
the central map's cells (state.ask_anatomy)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from explorer.anatomy import Cell
from explorer.ui.views.anatomy.ask import AnatomyAsk
from explorer.ui.views.tokens.topk_bars import fmt_prob


def bar_ask(view, n: int) -> AnatomyAsk | None:
    """The ask for bar ``n`` of the output view's bars; None when no trace or no such bar."""
    where, items = view._position(), view.bars.items
    if where is None or not 0 <= n < len(items):
        return None
    row, pos = where
    token, label, prob = items[n]
    cell = Cell("probs", 0, 0, pos, dim=token, sentence=row)
    said = QCoreApplication.translate("OutputView", "P(next = “{token}” | position {i}) = {p}").format(
        token=label, i=pos, p=fmt_prob(prob)
    )
    return AnatomyAsk(cell, said, fmt_prob(prob))


def ask(view, n: int) -> bool:
    asked = bar_ask(view, n)
    if asked is not None:
        view.state.ask_anatomy(asked)
    return asked is not None


def context_menu(view, n: int, at) -> None:
    """The bars' context menu: “How is this made?” for the bar under the pointer."""
    if bar_ask(view, n) is None:
        return
    if getattr(view, "bars_menu", None) is not None:
        view.bars_menu.deleteLater()
    view.bars_menu = QMenu(view)
    action = QAction(QCoreApplication.translate("OutputView", "How is this made? (Ctrl+H)"), view.bars_menu)
    action.triggered.connect(lambda: ask(view, n))
    view.bars_menu.addAction(action)
    view.bars_menu.popup(at)  # not exec(): no nested event loop


def hovered(view, n: int) -> None:
    """The line under the bars for the bar under the pointer, with its “How is this made?” link. It stays when
    the pointer leaves the bar, on its way to the link."""
    asked = bar_ask(view, n)
    if asked is None:
        return forget_hover(view)
    view.hovered_bar = (asked.cell.query, asked.cell.dim)  # the token, not the row: the bars are re-sorted
    how = QCoreApplication.translate("OutputView", "How is this made?")
    view.bar_hover.setText(f'{escape(asked.where)} · <a href="how">{how}</a>')
    view.bar_hover.show()


def hover_link(view) -> bool:
    """The hover line's link: the steps of the bar last hovered, if it is still shown."""
    where, token = view._position(), getattr(view, "hovered_bar", None)
    ids = [item[0] for item in view.bars.items]
    if where is None or token is None or token[0] != where[1] or token[1] not in ids:
        forget_hover(view)
        return False
    return ask(view, ids.index(token[1]))


def forget_hover(view) -> None:
    """New bars (another position, trace or k): the last hovered bar's line would name a bar no longer shown."""
    view.hovered_bar = None
    view.bar_hover.hide()
