"""One format per map (issue 22): the map's range chooses the decimals, every cell uses them, a value that
rounds to zero is "0". Expected strings are written out by hand."""

from __future__ import annotations

import numpy as np

from explorer.present.number_format import MapFormat, map_format


def test_weights_print_with_the_same_decimals_and_tiny_ones_as_zero():
    f = map_format(np.array([[1.0, 0.0], [0.0200, 0.00446], [0.000224, 0.31]]))
    assert [f(v) for v in (1.0, 0.02, 0.00446, 0.000224, 0.31, 0.0)] == ["1.00", "0.02", "0", "0", "0.31", "0"]


def test_the_largest_magnitude_sets_three_significant_digits():
    assert map_format([12.3, -1.63e-07, 0.5])(12.3) == "12.3"
    assert map_format([12.3, -1.63e-07, 0.5])(-1.63e-07) == "0"  # never "−1.63e−07" beside "12.3"
    assert map_format([0.5, -0.0312])(-0.0312) == "−0.031"
    assert map_format([512.0, 3.5])(3.5) == "4"
    assert map_format([-4.2, 4.0, 0.004])(-4.2) == "−4.20"


def test_no_negative_zero_and_infinities_spelled():
    f = map_format([-0.0001, 3.0, -np.inf, np.nan])
    assert f(-0.0001) == "0" and f(-np.inf) == "−∞" and f(np.inf) == "+∞" and f(np.nan) == "NaN"


def test_whole_numbers_stay_whole():
    f = map_format([0, 1, 2047])
    assert (f(2047), f(0), f(1)) == ("2047", "0", "1")
    assert map_format([0.0, 1.0])(1.0) == "1"  # a one-hot row


def test_extreme_ranges_use_one_scientific_form():
    f = map_format([3.2e-6, -1.0e-7])
    assert f(3.2e-6) == "3.20e−6" and f(-1.0e-7) == "−1.00e−7" and f(0.0) == "0"
    assert map_format([2.5e9, 1.0])(2.5e9) == "2.50e9"


def test_longest_is_the_widest_printed_number():
    values = np.array([0.5, -0.25, -np.inf])
    f = map_format(values)
    assert f.longest(values) == max(len(f(v)) for v in values) == len("−0.250")
    assert MapFormat(2).longest([]) == 1
