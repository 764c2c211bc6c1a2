"""The axis makes room for its widest label in pixels, not its longest in characters."""

from PySide6.QtGui import QFont, QFontMetrics

from explorer.ui.views.token_axis import _widest


def test_the_widest_label_is_measured_not_the_longest_string(qapp):
    fm = QFontMetrics(QFont("DejaVu Sans", 20))
    labels = ["0 iii", "1 WWW"]  # the same length; "WWW" is far wider
    assert _widest(fm, labels) == fm.horizontalAdvance("1 WWW") > fm.horizontalAdvance("0 iii")
