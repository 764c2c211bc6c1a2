"""A stage of a trace as the central view draws it, as a figure: the step's title and its shapes line, then
the selected head's (C, C) map on the layer's shared colour scale, Q K V side by side, or the stage's
tensor as a (tokens, columns) matrix. The same colour levels, labels and words as the window, from the
same core helpers (explorer/present/matrices.py)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from explorer import names
from explorer.errors import ConfigError
from explorer.handouts import colours as col
from explorer.handouts.map_draw import draw_map, draw_row
from explorer.handouts.map_layout import LINE, Box, MapSpec, bar_width
from explorer.handouts.scene import Scene, Text
from explorer.handouts.text import wrap
from explorer.handouts.words import ENGLISH, FigureWords
from explorer.present import figure, matrices, stages
from explorer.present.figure import Panel
from explorer.session.request import Selection
from explorer.util.printable import quoted


@dataclass(frozen=True)
class Frame:
    """Where a figure goes and how large its text is: a box in CSS pixels and the base text size."""

    width: float
    height: float | None = None  # None: as tall as the figure needs
    px: float | None = None  # None: from the size (a larger figure has larger text)
    numbered: bool = True  # "Step k of 18:" before the title; a lesson's slide has its own step number

    def text_px(self) -> float:
        if self.px is not None:
            return self.px
        side = self.width if self.height is None else min(self.width, self.height * 1.25)
        return max(8.0, min(48.0, side / 44.0))


def check_selection(trace, sel: Selection) -> None:
    """One line naming what does not exist, as the window's controls would never allow it."""
    if sel.stage not in stages.stage_keys_for(trace.config):
        raise ConfigError(
            f"this model has no stage {sel.stage!r}; its stages: {', '.join(stages.stage_keys_for(trace.config))}"
        )
    if not 0 <= sel.row < trace.B:
        raise ConfigError(f"sentence {sel.row} does not exist: the text has {trace.B} sentences (counted from 0)")
    if stages.stage(sel.stage).per_layer and sel.layer not in trace.layers:
        if 0 <= sel.layer < trace.config.layers:
            raise ConfigError(
                f"this trace holds no tensors of layer {sel.layer} (not captured, or a snapshot saved without them)"
            )
        raise ConfigError(f"layer {sel.layer} does not exist: the model has layers 0 … {trace.config.layers - 1}")
    if not 0 <= sel.head < trace.config.H:
        raise ConfigError(f"head {sel.head} does not exist: the model has {trace.config.H} heads (counted from 0)")
    n = trace.rows[sel.row].length
    for what, value in (("token", sel.token), ("key", sel.key)):
        if value is not None and not 0 <= value < n:
            raise ConfigError(f"{what} {value} does not exist: sentence {sel.row} has {n} tokens (counted from 0)")


def stage_scene(
    trace, sel: Selection, frame: Frame, words: FigureWords = ENGLISH, theme: str = "light", tensor: str | None = None
) -> Scene:
    """The figure of ``sel.stage`` for this trace and selection; ``tensor``: which of the stage's tensors
    (embed.tok rather than embed.out, as the view's Tensor choice), else its main one."""
    check_selection(trace, sel)
    if tensor is not None:
        check_tensor(trace, sel, tensor)
    th = col.theme(theme)
    px = frame.text_px()
    scene = Scene(frame.width, frame.height or 0.0, background=th.paper)
    head_items, top = header(trace, sel, frame.width, px, words, th, frame.numbered)
    scene.extend(head_items)
    pad = px * 0.5  # the legend and the axis titles keep off the paper's edge
    box = Box(pad, top, frame.width - 2 * pad, None if frame.height is None else frame.height - top - pad)
    try:
        items, bottom = panels(trace, sel, box, px, words, th, tensor)
    except KeyError as exc:  # a snapshot saved with --names holds only some tensors
        raise ConfigError(
            f"this trace does not hold {exc.args[0] if exc.args else 'a tensor'} (a snapshot saved without "
            "it); draw another stage"
        ) from None
    scene.extend(items)
    if frame.height is None:
        scene.height = float(math.ceil(bottom + px * 0.6))  # whole pixels: every renderer makes the same size
    scene.title = stage_title(trace, sel, words, frame.numbered)
    return scene


def check_tensor(trace, sel: Selection, tensor: str) -> None:
    """``--tensor`` names one of the stage's own tensors of that layer, or is refused: a map stage (weights,
    scores) drew its map whatever was named (an unknown name, ``*``, another stage's tensor, exit 0)."""
    found = matrices.stage_tensors(trace, sel.stage, sel.layer)
    if tensor not in found:
        shows = ", ".join(found) if found else "nothing in this trace"
        raise ConfigError(f"stage {sel.stage} of layer {sel.layer} shows {shows}; not {quoted(tensor)}")


def stage_title(trace, sel: Selection, words: FigureWords, numbered: bool = True) -> str:
    keys = stages.stage_keys_for(trace.config)
    title = words.stage_titles.get(sel.stage, sel.stage)
    if numbered:
        title = words["step"].format(n=keys.index(sel.stage) + 1, total=len(keys), title=title)
    if stages.stage(sel.stage).per_layer:
        title += " — " + words["layer"].format(layer=sel.layer)
    return title


def header(
    trace, sel: Selection, width: float, px: float, words: FigureWords, th: col.Theme, numbered: bool = True
) -> tuple[list, float]:
    """The step's title (bold) and its computation with the real shapes; returns the items and their bottom."""
    items: list = []
    y = px * 0.4
    size = px * 1.25
    for line in wrap(stage_title(trace, sel, words, numbered), size, width, bold=True, max_lines=2):
        y += size
        items.append(Text(width / 2, y, line, size, th.ink, "middle", bold=True))
        y += size * (LINE - 1)
    edge = stages.edge_label(sel.stage, trace, sel.layer, sel.row, words.edge_words)
    for line in wrap(edge, px, width, max_lines=3):
        y += px
        items.append(Text(width / 2, y, line, px, th.faint, "middle"))
        y += px * (LINE - 1)
    return items, y + px * 0.8


def panels(
    trace, sel: Selection, box: Box, px: float, words: FigureWords, th: col.Theme, tensor: str | None = None
) -> tuple[list, float]:
    if sel.stage in names.PAIRWISE_STAGES:
        items, lay = draw_map(map_spec(trace, sel, words), box, px, th)
        return items, lay.bottom_y
    if sel.stage == "qkv" and tensor is None and all(names.attn(sel.layer, k) in trace for k in "qkv"):
        return _trio(trace, sel, box, px, words, th)
    items, lay = draw_map(matrix_spec(trace, sel, words, tensor), box, px, th)
    return items, lay.bottom_y


def spec_of(panel: Panel, words: FigureWords) -> MapSpec:
    """The panel (explorer/present/figure.py) with its words said in ``words``' language."""
    return MapSpec(
        data=panel.data,
        row_labels=panel.row_labels,
        col_labels=panel.col_labels,
        signed=panel.signed,
        levels=panel.levels,
        blocked=panel.blocked,
        title=panel.title.said(words),
        y_title=panel.y_title.said(words),
        x_title=panel.x_title.said(words),
        square=panel.square,
        highlight=panel.highlight,
        legend=panel.legend.said(words),
        note=panel.note.said(words),
        colour_bar=panel.colour_bar,
    )


def map_spec(trace, sel: Selection, words: FigureWords) -> MapSpec:
    """The selected head's map, on the colour levels every head of the layer shares (as the window's grid)."""
    return spec_of(figure.head_panel(trace, sel), words)


def matrix_spec(trace, sel: Selection, words: FigureWords, tensor: str | None = None) -> MapSpec:
    found = matrices.stage_tensors(trace, sel.stage, sel.layer)
    if not found:
        raise ConfigError(f"this trace holds no tensor of stage {sel.stage!r} (layer {sel.layer})")
    if tensor is not None and tensor not in found:
        raise ConfigError(f"stage {sel.stage} of layer {sel.layer} shows {', '.join(found)}; not {quoted(tensor)}")
    return spec_of(figure.matrix_panel(matrices.stage_matrix(trace, tensor or found[0], sel.head, sel.row), sel), words)


def _trio(trace, sel: Selection, box: Box, px: float, words: FigureWords, th: col.Theme) -> tuple[list, float]:
    """Q, K, V of the selected head side by side on one colour scale: maps of one size, one colour bar (beside
    V) and one axis title (beside Q), their titles on a level."""
    specs = [spec_of(panel, words) for panel in figure.trio_panels(trace, sel)]
    # on paper the three narrow maps share Q's axis title (the window repeats it over each)
    specs = [specs[0]] + [dataclasses.replace(s, y_title="") for s in specs[1:]]
    extra = [px * LINE, 0.0, bar_width(specs[2], px) - px * 0.3]  # Q's axis title, V's colour bar
    return draw_row(specs, extra, box, px, th)
