"""Set a spin box only when the value or bounds really change.

QAbstractSpinBox.setValue repaints the box even with the value it already shows, and setRange with the same
bounds asks the window for a new layout. The views set their controls from the state after every request,
a text edit included: set unconditionally, eight untouched spin boxes repainted on each key (1–2 ms)."""

from __future__ import annotations


def set_value(spin, value) -> None:
    if spin.value() != value:
        spin.setValue(value)


def set_range(spin, lo, hi) -> None:
    if (spin.minimum(), spin.maximum()) != (lo, hi):
        spin.setRange(lo, hi)
