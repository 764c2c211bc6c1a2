"""The axis makes room for its widest label in pixels, not its longest in characters."""

from explorer.present.axis_labels import widest
from explorer.ui.views.map.token_axis import FONT_MEASURE


def test_the_widest_label_is_measured_not_the_longest_string(qapp):
    labels = ["0 iii", "1 WWW"]  # the same length; "WWW" is far wider (both under the cut length)
    assert widest(FONT_MEASURE, 20, labels) == FONT_MEASURE.width("1 WWW", 20) > FONT_MEASURE.width("0 iii", 20)


def test_a_second_row_of_key_labels_starts_close_to_the_first(qapp):
    """Two rows of 24 px key labels (200 % text) put the second 26 px from its cells (issue 38): the labels
    shrink until the second row starts within BAND_STEP of the first, and no further."""
    from explorer.present.axis_labels import BAND_STEP, ROW_PITCH, arrange

    labels_px = 24
    index = "15"  # positions: a crowded key axis of 16 tokens
    per_label = FONT_MEASURE.width(index, labels_px) * 0.7  # too close for one row at full size, fine for two
    got = arrange(per_label, True, 200.0, labels_px, 8, FONT_MEASURE, index, extent=300)  # upright: cut
    assert got.bands == 2 and got.index
    assert FONT_MEASURE.line(got.px) * ROW_PITCH <= BAND_STEP < FONT_MEASURE.line(got.px + 1) * ROW_PITCH
    words = arrange(
        FONT_MEASURE.width("0 After", labels_px) * 0.7,
        True,
        FONT_MEASURE.width("0 After", labels_px),
        labels_px,
        8,
        FONT_MEASURE,
    )  # token labels, flat in two rows
    assert words.bands == 2 and not words.upright and FONT_MEASURE.line(words.px) <= BAND_STEP
