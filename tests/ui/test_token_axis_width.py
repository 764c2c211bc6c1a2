"""The axis makes room for its widest label in pixels, not its longest in characters."""

from explorer.present.axis_labels import widest
from explorer.ui.views.map.token_axis import FONT_MEASURE


def test_the_widest_label_is_measured_not_the_longest_string(qapp):
    labels = ["0 iii", "1 WWW"]  # the same length; "WWW" is far wider (both under the cut length)
    assert widest(FONT_MEASURE, 20, labels) == FONT_MEASURE.width("1 WWW", 20) > FONT_MEASURE.width("0 iii", 20)
