"""Printing a hover's operands with just enough digits that its arithmetic adds up by hand.

A hover such as ``0.94·(−1.05) + (−2.49)·0.14 = −1.36`` is only honest when a student who multiplies the
printed operands gets the printed result. With two decimals they often do not (the operands were rounded).
``adding_up`` prints the operands with 2 decimals, and with 3, 4 … when needed, until the expression
computed from the *printed* operands rounds to the printed result. The result keeps the format the views
print (``explorer.present.explain.fmt``), so the hover still ends on the number in the cell.

The rule "rounds to" is: |value of the printed expression − printed result| ≤ half a unit in the printed
result's last digit (tests/core/test_hover_arithmetic.py checks exactly that on every hover kind).
No Qt, no torch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

# Operands get at most this precision level (decimals in the everyday range).
MAX_DECIMALS = 12


def fixed(x: float, decimals: int) -> str:
    """``x`` with a fixed number of decimals, with the typographic minus; ``−0.00`` is written ``0.00``."""
    x = float(x)
    if math.isnan(x):
        return "NaN"  # as every other number of the views says it (Python writes "nan")
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    s = f"{x:.{decimals}f}"
    if s.startswith("-") and float(s) == 0.0:
        s = s[1:]
    return s.replace("-", "−")


def approx(x: float, level: int) -> str:
    """``x`` at precision ``level`` (2, 3, …): ``level`` decimals in the everyday range 0.01 … 100 (level 2
    prints as the views do), ``level + 1`` significant digits outside it, so that a tiny denominator or a
    large e^s is not printed as 0.00 or with a dozen digits."""
    x = float(x)
    a = abs(x)
    if a == 0 or math.isinf(x) or math.isnan(x):
        return fixed(x, level) if a == 0 else ("NaN" if math.isnan(x) else fixed(x, 0))
    if a < 1e-4 or a >= 1e6:
        return f"{x:.{level}e}".replace("-", "−")
    magnitude = math.floor(math.log10(a))
    if 0.01 <= a < 100:
        return fixed(x, level)
    return fixed(x, max(0, level - magnitude))


def parse(s: str) -> float:
    return float(s.replace("−", "-").replace("∞", "inf"))


def half_unit(s: str) -> float:
    """Half a unit in the last printed digit of ``s`` (``"0.80"`` → 0.005, ``"1.23e+05"`` → 500)."""
    text = s.replace("−", "-").lower()
    mantissa, _, exponent = text.partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** ((int(exponent) if exponent else 0) - decimals)


def agrees(value: float, printed: str) -> bool:
    """Whether ``value`` rounds to ``printed`` at its printed precision (ties either way)."""
    target = parse(printed)
    if math.isinf(target) or math.isnan(target):
        return value == target or (math.isnan(value) and math.isnan(target))  # NaN: no digit makes it add up
    return abs(value - target) <= half_unit(printed) * (1 + 1e-9) + 1e-12 * abs(target)


def adding_up(
    operands: Sequence[float],
    combine: Callable[[Sequence[float]], float],
    result: float | str,
    fmt: Callable[[float], str],
    start: int = 2,
) -> tuple[list[str], str]:
    """Operand strings and the result string such that ``combine`` of the printed operands agrees with
    the printed result.

    ``result`` is either a number, printed with ``fmt`` as the exact value of the unrounded operands (in
    float64: the stored float32 tensor equals it up to its own rounding, invisible at the printed
    precision), or an already printed string: an intermediate step whose precision the next step chose.
    """
    printed = fmt(combine(list(operands))) if not isinstance(result, str) else result
    shown: list[str] = []
    for level in range(start, MAX_DECIMALS + 1):
        shown = [approx(v, level) for v in operands]
        if agrees(combine([parse(s) for s in shown]), printed):
            return shown, printed
    # Only a value on a rounding boundary to 1e-10 gets here: print what the printed operands give.
    value = combine([parse(s) for s in shown])
    if isinstance(result, str):
        return shown, fixed(value, len(result.replace("−", "-").partition("e")[0].partition(".")[2]))
    return shown, fmt(value)
