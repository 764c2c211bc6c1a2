"""Numbers and words as the hovers print them: positions as subscripts (q₂, k₁), values with two decimals,
dot products spelled out term by term while short, and every printed chain adding up by hand
(``explorer.present.hover_numbers``). No Qt: the window passes translations of ``WORDS`` through ``words=``."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from explorer.present.hover_numbers import adding_up

# Every word that appears in an explanation; the window replaces these with translations.
WORDS: dict[str, str] = {
    "masked": "masked",
    "scaling off": "scaling off",
    "every key blocked": "every key blocked",
    "softmax": "softmax",
    "after RoPE": "after RoPE",
    "head": "head",
    "dim": "dim",
    "no residual": "no residual",
    "norm": "norm",
    "mean": "mean",
    "variance": "variance",
    "no norm": "no norm: the vector goes on unchanged",
    "next": "next",
    "keys": "keys",
    "dims": "dims",
    "sentence": "sentence",
    "unchanged": "unchanged: only the first {R} dimensions turn",
}

# Spell a product out term by term only while it stays readable.
MAX_TERMS = 4

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def sub(n: int) -> str:
    """``sub(12) == "₁₂"``: positions written as the note writes them (q₂, k₁)."""
    return str(n).translate(_SUB)


def sup(n: int) -> str:
    return str(n).translate(_SUP)


def fmt(x: float) -> str:
    """A number as the views print it: two decimals in the everyday range, 3 significant digits outside."""
    x = float(x)
    if math.isnan(x):
        return "NaN"  # as the maps, their legend and the trace's notice say it
    if math.isinf(x):
        return "−∞" if x < 0 else "+∞"
    a = abs(x)
    if a == 0:
        return "0"
    if 0.01 <= a < 100:
        s = f"{x:.2f}"
    elif 100 <= a < 10_000:
        s = f"{x:.1f}"
    else:
        s = f"{x:.3g}"
    return s.replace("-", "−")


def cell_text(x: float) -> str:
    """The short form printed inside a heatmap cell (fits a small square)."""
    x = float(x)
    if math.isinf(x) or math.isnan(x):
        return fmt(x)
    if x == int(x) and abs(x) < 10_000:
        return str(int(x)).replace("-", "−")
    return fmt(x)


def term(x: float | str) -> str:
    s = x if isinstance(x, str) else fmt(x)
    return f"({s})" if s.startswith("−") else s


def dot_terms(a: np.ndarray, b: np.ndarray, result: float | str, bias: float | None = None) -> tuple[str, str]:
    """``("0.12·0.50 + (−0.30)·1.10 + 0.20", "−0.07")`` for short vectors: the terms and the result, printed
    so that they add up; ``("", result)`` for long ones (the sum is not spelled out)."""
    if a.shape[0] > MAX_TERMS:
        return "", result if isinstance(result, str) else fmt(result)
    operands = [v for pair in zip(a.tolist(), b.tolist()) for v in pair] + ([float(bias)] if bias is not None else [])
    n = a.shape[0]

    def combine(v):
        total = sum(v[2 * k] * v[2 * k + 1] for k in range(n))
        return total + (v[2 * n] if bias is not None else 0.0)

    shown, printed = adding_up(operands, combine, result, fmt)
    terms = " + ".join(f"{term(shown[2 * k])}·{term(shown[2 * k + 1])}" for k in range(n))
    if bias is not None:
        terms += f" + {term(shown[2 * n])}"
    return terms, printed


def sum_text(a: float, b: float, value: float) -> str:
    """``a + b = value`` with a and b printed so that they add up to the printed value."""
    (sa, sb), printed = adding_up([a, b], lambda v: v[0] + v[1], value, fmt)
    return f"{sa} + {term(sb)} = {printed}"


def with_words(words: Mapping[str, str] | None) -> Mapping[str, str]:
    """``WORDS`` with the caller's translations on top."""
    return {**WORDS, **(words or {})}
