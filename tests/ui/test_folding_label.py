"""A label folded to one line (issue 38: at 200 % text the pipeline's lines and the hover line gave their
room to the map): one line high, its beginning shown and cut with "…", the whole text in its tooltip; a rich
text keeps its markup and only the part it names is cut; unfolded, it wraps and shows everything again."""

from PySide6.QtGui import QFontMetrics, QTextDocument
from PySide6.QtWidgets import QVBoxLayout, QWidget

from explorer.ui.views.folding_label import FoldingLabel

LONG = "Step 2: softmax turns each row of scores into weights that sum to 1: row i says how much token i draws."


def _in_window(qtbot, label: FoldingLabel, width: int = 260) -> QWidget:
    holder = QWidget()
    column = QVBoxLayout(holder)
    column.addWidget(label)
    column.addStretch(1)  # the label as tall as it asks
    holder.setFixedWidth(width)
    qtbot.addWidget(holder)
    holder.show()
    qtbot.waitExposed(holder)
    return holder


def test_folded_a_long_text_keeps_to_one_line_and_its_tooltip_has_the_whole(qtbot):
    label = FoldingLabel()
    label.setText(LONG)
    holder = _in_window(qtbot, label)  # noqa: F841 - kept: the label lives in it
    line = QFontMetrics(label.font()).height()
    qtbot.waitUntil(lambda: label.height() >= 2 * line)  # wrapped: several lines
    label.set_folded(True)
    qtbot.waitUntil(lambda: label.height() < 2 * line)
    shown = QLabel_text(label)
    assert shown.endswith("…") and LONG.startswith(shown[:-1].rstrip())
    assert QFontMetrics(label.font()).horizontalAdvance(shown) <= label.contentsRect().width()
    assert LONG in label.toolTip()
    assert label.minimumSizeHint().width() == 0  # a folded line never makes its window wider
    label.set_folded(False)
    qtbot.waitUntil(lambda: label.height() >= 2 * line)
    assert QLabel_text(label) == LONG and label.full_text() == LONG


def test_a_text_set_while_folded_is_cut_for_the_width_and_whole_when_it_fits(qtbot):
    label = FoldingLabel()
    holder = _in_window(qtbot, label)  # noqa: F841 - kept: the label lives in it
    label.set_folded(True)
    label.setText("short")
    assert QLabel_text(label) == "short" and label.toolTip() == ""
    label.setText("first line of a hover\nand how it was made, which is long enough to be cut here")
    assert "\n" not in QLabel_text(label) and QLabel_text(label).endswith("…")


def test_a_rich_text_keeps_its_markup_and_only_its_part_is_cut(qtbot):
    label = FoldingLabel()
    holder = _in_window(qtbot, label, 420)  # noqa: F841 - kept: the label lives in it
    build = lambda part: f"<b>Attention weights</b> &nbsp; <code>{part}</code>"  # noqa: E731
    formula = "softmax over keys → A (28, 28), rows sum to 1"
    label.set_rich(build, formula)
    label.set_folded(True)
    shown = QLabel_text(label)
    assert shown.startswith("<b>Attention weights</b>") and "…</code>" in shown
    cut = shown.split("<code>")[1].removesuffix("…</code>")
    assert cut and formula.startswith(cut)
    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setDocumentMargin(0)
    doc.setHtml(shown)
    assert doc.idealWidth() <= label.contentsRect().width()
    assert formula in label.toolTip()
    label.set_folded(False)
    assert QLabel_text(label) == build(formula)


def QLabel_text(label) -> str:  # noqa: N802 - what Qt shows, not the whole text the owner set
    from PySide6.QtWidgets import QLabel

    return QLabel.text(label)
