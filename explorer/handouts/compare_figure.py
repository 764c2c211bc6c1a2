"""Two runs compared as one print figure (issue 40, ``figure --compare``): a title saying what is compared and
how the tokens were aligned, then one head's three maps side by side, as the Compare view and its slide draw
them (explorer/compare/shown.py): A and B on one shared colour scale (one colour bar, beside B), B − A on a
diverging scale, masked or one-sided cells hatched, each map's labels on the aligned axis ([brackets]: the
other run's only). Each map is drawn by the stage figure's map drawing (map_draw.py)."""

from __future__ import annotations

import dataclasses
import math

from explorer.compare import Comparison
from explorer.compare.shown import shown_head
from explorer.errors import ConfigError
from explorer.handouts import colours as col
from explorer.handouts.map_draw import draw_row
from explorer.handouts.map_layout import LINE, Box, MapSpec, bar_width
from explorer.handouts.scene import Scene, Text
from explorer.handouts.stage_figure import Frame
from explorer.handouts.text import wrap
from explorer.handouts.words import ENGLISH, FigureWords

DEFAULT_WIDTH_MM = 240.0  # three maps in a row: the text width of a landscape A4 page
MAP_TEXT_SCALE = 0.6  # three maps share the width one map has in a stage's figure: their labels smaller


def check_head(comparison: Comparison, layer: int, head: int) -> None:
    """One line naming a head the two runs do not both have."""
    if not any((h.layer, h.head) == (layer, head) for h in comparison.heads):
        layers = sorted({h.layer for h in comparison.heads})
        heads = 1 + max((h.head for h in comparison.heads), default=-1)
        raise ConfigError(
            f"head {layer}.{head} is not a head both runs have: layers {', '.join(map(str, layers)) or 'none'}, "
            f"heads 0 … {heads - 1}"
        )


def compare_specs(comparison: Comparison, layer: int, head: int, words: FigureWords = ENGLISH) -> list[MapSpec]:
    """A's, B's and B − A's maps of (layer, head): the numbers and hatching of compare/shown.py."""
    check_head(comparison, layer, head)
    shown = shown_head(comparison, layer, head)
    made_a, made_b = comparison.pair.a.made, comparison.pair.b.made
    edited = words["compare intervened"] if made_b.get("interventions") else ""
    common = dict(
        y_title=words["compare query"], x_title=words["compare key"], square=True, legend=words["compare legend"]
    )
    a = MapSpec(
        shown.a,
        shown.labels_a,
        shown.labels_a,
        False,
        shown.levels,
        shown.hatched_a,
        title=words["compare a"].format(model=made_a.get("model", "")),
        colour_bar=False,
        bar_room=False,
        **common,
    )
    b = dataclasses.replace(
        a,
        data=shown.b,
        row_labels=shown.labels_b,
        col_labels=shown.labels_b,
        blocked=shown.hatched_b,
        title=words["compare b"].format(model=made_b.get("model", "")) + edited,
        legend="",
        y_title="",
        colour_bar=True,
    )
    difference = dataclasses.replace(
        b,
        data=shown.difference,
        row_labels=_either_side(comparison, shown.labels_a, shown.labels_b),
        col_labels=_either_side(comparison, shown.labels_a, shown.labels_b),
        signed=True,
        levels=shown.difference_levels,
        blocked=shown.hatched_difference,
        title=words["compare difference"],
    )  # one legend, under A, serves the three maps
    return [a, b, difference]


def _either_side(comparison: Comparison, labels_a, labels_b) -> tuple[str, ...]:
    """The difference's labels: in brackets where either run has no token (A's brackets, else B's)."""
    return tuple(
        b if unit.a and not unit.b else a for unit, a, b in zip(comparison.alignment.units, labels_a, labels_b)
    )


def compare_scene(
    comparison: Comparison,
    layer: int,
    head: int,
    frame: Frame,
    words: FigureWords = ENGLISH,
    theme: str = "light",
) -> Scene:
    """The figure: the title and the alignment's words, then the three maps in a row."""
    specs = compare_specs(comparison, layer, head, words)
    th = col.theme(theme)
    px = frame.text_px()
    scene = Scene(frame.width, frame.height or 0.0, background=th.paper)
    items, top = _header(comparison, layer, head, frame.width, px, words, th)
    scene.extend(items)
    pad = px * 0.5
    box = Box(pad, top, frame.width - 2 * pad, None if frame.height is None else frame.height - top - pad)
    items, bottom = _row_of_three(specs, box, px * MAP_TEXT_SCALE, th)
    scene.extend(items)
    if frame.height is None:
        scene.height = float(math.ceil(bottom + px * 0.6))  # whole pixels: every renderer makes the same size
    scene.title = words["compare title"].format(layer=layer, head=head)
    return scene


def _header(comparison, layer, head, width, px, words, th) -> tuple[list, float]:
    """The bold title, the two texts, and how the tokens were aligned and gathered."""
    one_sided = sum(not u.shared for u in comparison.alignment.units)
    small = px * 0.8  # how they were aligned: under what is compared
    lines = [
        (words["compare title"].format(layer=layer, head=head), px * 1.25, th.ink, True, 2),
        (f"A: “{comparison.pair.a.trace.rows[comparison.pair.a.sentence].text}”", px, th.ink, False, 2),
        (f"B: “{comparison.pair.b.trace.rows[comparison.pair.b.sentence].text}”", px, th.ink, False, 2),
        (
            words["compare units"].format(units=len(comparison.alignment.units), alone=one_sided),
            small,
            th.faint,
            False,
            2,
        ),
        (words["compare gather"], small, th.faint, False, 3),
    ]
    items: list = []
    y = px * 0.4
    for text, size, colour, bold, most in lines:
        for line in wrap(text, size, width - px, bold=bold, max_lines=most):
            y += size
            items.append(Text(width / 2, y, line, size, colour, "middle", bold=bold))
            y += size * (LINE - 1)
    return items, y + px * 0.8


def _row_of_three(specs: list[MapSpec], box: Box, px: float, th: col.Theme) -> tuple[list, float]:
    """Three maps of one cell size: A keeps room for the axis title, B and B − A for their colour bars."""
    return draw_row(specs, [px * LINE, bar_width(specs[1], px), bar_width(specs[2], px)], box, px, th)
