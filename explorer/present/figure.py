"""What a stage draws, as a description both renderers draw: the window's central view
(explorer/ui/views/tensor/tensor_view.py) and print (explorer/handouts/stage_figure.py).

A stage is one ``Panel`` (the selected head's (C, C) map, or the stage's tensor as a (tokens, columns)
matrix) or three side by side (Q, K, V of the selected head on one colour scale). A panel holds its numbers,
its labels, its colour scale and which cells are blocked; its words are ``Say`` keys with their fields, said
by the renderer in its language (explorer/handouts/words.py ``WORDS`` in English, ui/figure_words.py
translated), so that the window and a hand-out say the same. How the axes are labelled and which cells are
hatched is decided in ``axis_labels.py`` and ``hatching.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer import names
from explorer.present import matrices
from explorer.present.hover_format import fmt
from explorer.present.number_format import map_format, scale_ticks

SQUARE_UP_TO = 24  # a matrix with at most this many rows and columns gets square cells
# Numbers are printed inside the cells of maps up to this many rows and columns (the note's toy sizes always
# qualify); beyond it the text would be unreadable (and, on screen, the items would cost time).
NUMBERS_UP_TO = 16


@dataclass(frozen=True)
class Say:
    """Words of a figure: a key of the figure's words and the fields it is formatted with ("tensor" names a
    traced tensor, said by the words' ``tensor_title``, with its shape; "trio title" one of Q, K, V with its
    shape; "plain" is said as it is)."""

    key: str
    fields: tuple[tuple[str, object], ...] = ()

    @staticmethod
    def of(key: str, **fields) -> Say:
        return Say(key, tuple(fields.items()))

    def said(self, words) -> str:
        """The words in ``words``' language (a ``FigureWords``)."""
        fields = dict(self.fields)
        if self.key == "plain":
            return str(fields["text"])
        if self.key == "tensor":
            return f"{words.tensor_title(fields['name'])}  ({fields['rows']}, {fields['cols']})"
        if self.key == "trio title":
            which = words["trio " + fields["which"]].format(h=fields["h"])
            return f"{which}  ({fields['rows']}, {fields['cols']})"
        return words[self.key].format(**fields)


NOTHING = Say.of("plain", text="")


@dataclass(frozen=True)
class Panel:
    """One map or matrix: the data (−∞ kept), its labels, colour scale, blocked cells and words."""

    data: np.ndarray
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    signed: bool
    levels: tuple[float, float]
    blocked: np.ndarray | None = None  # cells drawn as blocked besides the −∞ ones (the weights the mask set to 0)
    title: Say = NOTHING
    y_title: Say = NOTHING
    x_title: Say = NOTHING
    square: bool = False
    highlight: tuple[int | None, int | None] = (None, None)
    legend: Say = NOTHING  # said beside the hatched swatch when a cell is blocked
    note: Say = NOTHING
    colour_bar: bool = True
    tip: str = ""  # the traced tensor's name, for a title's tooltip
    col_tokens: bool = False  # the columns are the sentence's tokens (a (C, C) map), not dimensions or ids
    masked: bool = True  # −∞ is where the mask blocks; False: no mask reaches this map, a −∞ is a fault (NaN's colour)


def pairwise_panel(
    trace, sel, data: np.ndarray, levels: tuple[float, float, bool], signed: bool | None = None
) -> Panel:
    """The selected head's (C, C) map ``data`` on the layer's shared ``levels`` (lo, hi, clipped);
    ``signed``: the scale's kind (the stage's own unless a difference of two runs is shown)."""
    lo, hi, clipped = levels
    mask = matrices.blocked_cells(trace, sel.row)
    labels = matrices.token_labels(trace, sel.row)
    weights = sel.stage == "weights"
    return Panel(
        data=data,
        row_labels=labels,
        col_labels=labels,
        signed=names.spec(names.attn(sel.layer, sel.stage)).signed if signed is None else signed,
        levels=(lo, hi),
        blocked=mask if weights else None,  # the weights the mask set to 0, drawn like the −∞ they came from
        title=Say.of("map title", h=sel.head),
        y_title=Say.of("query axis"),
        x_title=Say.of("key axis"),
        square=True,
        col_tokens=True,
        highlight=(sel.token, sel.key),
        legend=Say.of("legend weights" if weights else "legend masked"),
        note=Say.of("clipped", v=fmt(hi)) if clipped else NOTHING,
    )


def head_panel(trace, sel) -> Panel:
    """The selected head's map of the traced run, on the levels every head of the layer shares."""
    heads = [sel.head] if matrices.shows_one_head(trace, sel.row) else range(trace.config.H)
    levels = matrices.head_levels(trace, sel.stage, sel.layer, sel.row, heads)
    n = trace.rows[sel.row].length
    return pairwise_panel(trace, sel, trace.head_map(sel.layer, sel.stage, sel.row, sel.head)[:n, :n], levels)


def matrix_panel(m: matrices.Matrix, sel) -> Panel:
    """A stage's tensor as a (tokens, columns) matrix, on its own levels."""
    rows, cols = m.data.shape
    if m.subset:
        columns = Say.of("subset", shown=cols, total=m.total_columns)
    elif m.choice is not None:  # a mixture's expert_out: each token's j-th chosen expert
        columns = Say.of("of choice", axis=m.col_axis, n=cols, j=m.choice + 1)
    elif m.per_head:
        columns = Say.of("of head", axis=m.col_axis, n=cols, h=sel.head)
    else:
        columns = Say.of("plain", text=f"{m.col_axis} ({cols})")
    return Panel(
        data=m.data,
        row_labels=m.row_labels,
        col_labels=m.col_labels,
        signed=m.signed,
        levels=matrices.levels(m.data, m.signed),
        title=Say.of("tensor", name=m.name, rows=rows, cols=cols),
        y_title=Say.of("token axis"),
        x_title=columns,
        square=max(rows, cols) <= SQUARE_UP_TO,
        highlight=(sel.token, None),
        tip=m.name,
        masked=False,
        blocked=m.passed_over,  # a router's map: the experts a token does not run, as the mask's blocked keys
        legend=Say.of("legend not chosen") if m.passed_over is not None else NOTHING,
    )


def trio_panels(trace, sel, shown: list[matrices.Matrix] | None = None) -> tuple[Panel, Panel, Panel]:
    """Q, K, V of the selected head side by side on one colour scale, one colour bar (beside V); ``shown``:
    the three matrices when not the traced run's own (a baseline, a difference)."""
    if shown is None:
        shown = [matrices.stage_matrix(trace, names.attn(sel.layer, k), sel.head, sel.row) for k in "qkv"]
    levels = matrices.levels([m.data for m in shown], True)
    panels = []
    for key, m in zip("qkv", shown):
        rows, cols = m.data.shape
        panels.append(
            Panel(
                data=m.data,
                row_labels=m.row_labels,
                col_labels=m.col_labels,
                signed=True,
                levels=levels,
                title=Say.of("trio title", which=key, h=sel.head, rows=rows, cols=cols),
                y_title=Say.of("token axis"),
                x_title=Say.of("plain", text=f"x·W_{key}  ({cols})"),
                highlight=(sel.token, None),
                colour_bar=key == "v",
                tip=m.name,
                masked=False,
            )
        )
    return tuple(panels)


def bar_tick_count(height_px: float, text_px: float) -> int:
    """How many numbers a colour bar ``height_px`` tall has room for, with text of ``text_px``."""
    return max(2, min(6, int(height_px / (3 * text_px))))


def bar_ticks(levels: tuple[float, float], most: int) -> tuple[tuple[float, str], ...]:
    """The colour bar's numbers: both ends and round steps between, at most ``most``, in one format
    (explorer/present/number_format.py). A bar once showed only "0" (issue 22)."""
    ticks = scale_ticks(levels[0], levels[1], most)
    number = map_format(ticks)
    return tuple((v, number(v)) for v in ticks)
