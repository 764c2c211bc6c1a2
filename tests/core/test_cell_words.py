"""The words a screen reader says for a map's cell (issue 27), checked against numbers written out here."""

from __future__ import annotations

import numpy as np

from explorer.present.cell_words import announce_cell, is_weights, spoken, table_text

LABELS = ("0 This", "1 is", "2 a", "3 pen", "4 .")


def causal_weights() -> np.ndarray:
    A = np.tril(np.full((5, 5), 1.0))
    A[3] = [0.51, 0.15, 0.06, 0.28, 0]
    return A / A.sum(axis=1, keepdims=True)


def test_a_weight_cell_names_query_key_weight_and_row_sum():
    A = causal_weights()
    assert announce_cell(A, 3, 1, LABELS, LABELS) == "query 3 pen, key 1 is, weight 0.15, row sum 1"
    assert announce_cell(A, 0, 0, LABELS, LABELS) == "query 0 This, key 0 This, weight 1, row sum 1"


def test_scores_are_values_and_masked_cells_say_so():
    S = np.array([[1.5, -np.inf], [0.25, -2.0]])
    labels = ("0 a", "1 b")
    assert not is_weights(S)
    assert announce_cell(S, 0, 1, labels, labels) == "query 0 a, key 1 b, value masked, minus infinity"
    assert announce_cell(S, 1, 1, labels, labels) == "query 1 b, key 1 b, value −2"


def test_a_matrix_names_row_and_column_and_translations_replace_words():
    Q = np.array([[0.123, 4.0], [1.0, -0.5]])
    assert announce_cell(Q, 1, 0, ("0 x", "1 y"), ("0", "1")) == "row 1 y, column 0, value 1"
    words = {"row": "行", "column": "列", "value": "値"}
    assert announce_cell(Q, 0, 1, ("0 x", "1 y"), ("d0", "d1"), words) == "行 0 x, 列 1 d1, 値 4"


def test_spoken_numbers_and_the_table():
    assert [spoken(x) for x in (0.2, 1.0, 0.15, -3.21, 0.0)] == ["0.2", "1", "0.15", "−3.21", "0"]
    assert table_text(np.array([[1.0, -np.inf]])) == [["1", "−∞"]]
