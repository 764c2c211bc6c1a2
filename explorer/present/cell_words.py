"""What a screen reader says for one cell of a map or matrix, and the numbers of a map as a table.

"query 3 pen, key 1 is, weight 0.15, row sum 1": the cell the keyboard is on, with its tokens, its value
and (for attention weights) the sum of its row. No Qt: the window passes translations of ``WORDS``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from explorer.present.hover_format import cell_text

WORDS: dict[str, str] = {
    "query": "query",
    "key": "key",
    "row": "row",
    "column": "column",
    "weight": "weight",
    "value": "value",
    "row sum": "row sum",
    "masked": "masked, minus infinity",
}


def spoken(x: float) -> str:
    """A number as it is read out: two decimals at most, no trailing zeros ("0.2", "1", "−3.21")."""
    x = float(x)
    if math.isinf(x) or math.isnan(x):
        return cell_text(x)
    text = cell_text(x)
    if "." in text and "e" not in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("−0", "-0") else text


def is_weights(data: np.ndarray) -> bool:
    """Whether every row of ``data`` is a distribution (≥ 0, summing to 1): attention weights."""
    if data.ndim != 2 or data.size == 0:
        return False
    finite = np.where(np.isfinite(data), data, 0.0)
    return bool(np.all(finite >= 0) and np.allclose(finite.sum(axis=1), 1.0, atol=1e-3))


def announce_cell(
    data: np.ndarray,
    i: int,
    j: int,
    row_labels: Sequence[str],
    col_labels: Sequence[str],
    words: Mapping[str, str] = WORDS,
) -> str:
    """The words for cell (i, j). A map (rows and columns are the same tokens) names a query and a key; a
    matrix names a row (a token) and a column (its label when it is more than its index)."""
    w = {**WORDS, **words}
    row = " ".join(row_labels[i].split()) if i < len(row_labels) else str(i)  # "3  pen" (a leading space) reads "3 pen"
    col = " ".join(col_labels[j].split()) if j < len(col_labels) else str(j)
    value = float(data[i, j])
    pairwise = data.shape[0] == data.shape[1] and tuple(row_labels) == tuple(col_labels)
    weights = pairwise and is_weights(data[i : i + 1])  # its own row: a large map is not read whole per key press
    said = spoken(value) if math.isfinite(value) else w["masked"]
    if pairwise:
        parts = [f"{w['query']} {row}", f"{w['key']} {col}", f"{w['weight' if weights else 'value']} {said}"]
        if weights:
            parts.append(f"{w['row sum']} {spoken(float(np.nansum(np.where(np.isfinite(data[i]), data[i], 0.0))))}")
    else:
        parts = [
            f"{w['row']} {row}",
            f"{w['column']} {j}" + ("" if col == str(j) else f" {col}"),
            f"{w['value']} {said}",
        ]
    return ", ".join(parts)


def table_text(data: np.ndarray) -> list[list[str]]:
    """Every cell as the map's table shows it (the numbers printed in cells, −∞ for masked)."""
    return [[cell_text(v) for v in row] for row in np.asarray(data)]
