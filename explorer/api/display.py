"""What a notebook shows for a trace: ONE picture, drawn offline from the hand-outs' scenes
(explorer/handouts): a strip of the pipeline's stages with the selected one marked, the selected stage's
figure (the ``figure`` command's, explorer/handouts/stage_figure.py), and the next-token bars of the selected
(or last) token. Written as SVG by the hand-outs' writer in its notebook form (no script, no URL; a map wider
than 128 cells is one picture of one pixel per cell, so a 512-token map stays far below 2 MB); the words stay
text. ``trace_text`` is the same display in plain text, for a terminal's IPython."""

from __future__ import annotations

import math
from functools import partial

from explorer.analysis.token_text import visible
from explorer.generation.choose import join_tokens, top_k
from explorer.handouts import colours as col
from explorer.handouts.scene import Line, Rect, Scene, Text
from explorer.handouts.stage_figure import Frame, check_selection, stage_scene, stage_title
from explorer.handouts.svg import svg_text
from explorer.handouts.text import CENTRE_TO_BASELINE, elide, text_width
from explorer.handouts.translated_words import figure_words
from explorer.handouts.words import ENGLISH
from explorer.names import PAIRWISE_STAGES
from explorer.present import palettes, stages
from explorer.session.request import Selection

TOP_TOKENS = 8  # next-token bars shown: the window's default k
HEAD_STAGES = (*PAIRWISE_STAGES, "qkv", "qk_norm", "heads")  # the stages whose figure is one head's
CONTEXT_TOKENS = 6  # the heading quotes the last few tokens before the prediction, as the window's
BARS_CONTEXT = "OutputView"  # the window's next-token panel, whose heading the bars repeat


def trace_svg(
    core_trace,
    selection: Selection | None = None,
    width_px: float = 720.0,
    theme: str = "light",
    language: str = "en",
) -> str:
    """The notebook picture of a core trace (explorer/trace) at ``selection`` (default: the attention weights
    of layer 0, head 0) as one SVG, ready for ``_repr_mimebundle_``'s ``image/svg+xml``; the figure's words in
    ``language`` (as ``figure --language``; Japanese needs a CJK font where the SVG is shown)."""
    return svg_text(trace_scene(core_trace, selection, width_px, theme, language), inline=True)


def trace_scene(
    core_trace,
    selection: Selection | None = None,
    width_px: float = 720.0,
    theme: str = "light",
    language: str = "en",
) -> Scene:
    """The display as one scene: strip, figure and bars stacked, each drawn by its own part and moved down."""
    sel = selection or Selection()
    th = col.theme(theme)
    frame = Frame(float(width_px))
    px = frame.text_px()
    words = figure_words(language)
    figure = stage_scene(core_trace, sel, frame, words, theme)  # checks the selection: one line if wrong
    scene = Scene(frame.width, 0.0, background=th.paper, title=figure.title)
    strip, y = pipeline_strip(core_trace, sel, frame.width, px, th)
    scene.extend(strip)
    scene.extend(figure.translated(0.0, y))
    y += figure.height
    where = next_token_position(core_trace, sel)
    if where is not None:
        bars, height = next_token_bars(core_trace, *where, frame.width, px, th, language)
        scene.extend(Scene(frame.width, height, items=bars).translated(0.0, y))
        y += height
    scene.height = float(math.ceil(y))
    return scene


# ---------------------------------------------------------------------------------------------- the strip


def pipeline_strip(core_trace, sel: Selection, width: float, px: float, th: col.Theme) -> tuple[list, float]:
    """The model in one line, then every stage it runs through as a labelled box (the flow view's symbols),
    rows wrapped to the width, the selected stage filled; returns the items and their bottom."""
    size = px * 0.8
    pad = px * 0.5
    items: list = [Text(pad, pad + px * 0.9, model_line(core_trace), px * 0.85, th.faint)]
    chosen = _hex(palettes.current().bar)
    x, y = pad, pad + px * 1.6
    h = size * 1.7
    gap = size * 0.9
    for n, stage in enumerate(stages.stages_for(core_trace.config)):
        w = text_width(stage.symbol, size, bold=True) + size * 0.9
        if x > pad and x + w > width - pad:  # a new row of boxes
            x, y = pad, y + h + size * 0.6
        elif n:  # the arrow from the previous box
            items.append(Line(x - gap, y + h / 2, x, y + h / 2, th.axis, max(0.75, size * 0.07)))
        selected = stage.key == sel.stage
        items.append(Rect(x, y, w, h, chosen if selected else None, None if selected else th.axis, size * 0.07))
        ink = "#ffffff" if selected else th.ink
        items.append(
            Text(x + w / 2, y + h / 2 + size * CENTRE_TO_BASELINE, stage.symbol, size, ink, "middle", selected)
        )
        x += w + gap
    return items, y + h + px * 0.4


def model_line(core_trace) -> str:
    """'classroom · 3 layers × 4 heads · E=128 · 1 sentence of 5 tokens'."""
    cfg = core_trace.config
    name = core_trace.model_name or "model"
    rows = core_trace.B
    lengths = sorted({r.length for r in core_trace.rows})
    tokens = f"{lengths[0]}" if len(lengths) == 1 else f"{lengths[0]}–{lengths[-1]}"
    sentences = _count(rows, "sentence")
    return (
        f"{name} · {_count(cfg.layers, 'layer')} × {_count(cfg.H, 'head')} · E={cfg.E} · {sentences} of {tokens} tokens"
    )


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _hex(rgb) -> str:
    return col.hex_colour(rgb)


# ---------------------------------------------------------------------------------------------- the bars


def next_token_position(core_trace, sel: Selection) -> tuple[int, int] | None:
    """(sentence, position) whose distribution the bars show: the selected token, else the last one; None for
    a trace without output scores (a snapshot saved without them)."""
    if "logits" not in core_trace:
        return None
    length = core_trace.rows[sel.row].length
    return sel.row, (length - 1 if sel.token is None else min(sel.token, length - 1))


def top_tokens(core_trace, row: int, pos: int, k: int = TOP_TOKENS) -> list[tuple[str, float]]:
    """The ``k`` likeliest next tokens after ``pos`` with their probabilities (at the traced temperature)."""
    ids, probs = top_k(core_trace.probs_row(row, pos), k)
    vocab = core_trace.vocab
    return [
        (visible(vocab[i]) if vocab is not None and i < len(vocab) else str(int(i)), float(p))
        for i, p in zip(ids, probs)
    ]


def bars_heading(core_trace, row: int, pos: int, language: str = "en") -> tuple[str, str]:
    """The window's heading of the bars and its line of where and how (explorer/ui/views/tokens/output_view.py),
    in ``language``: that panel's source texts, translated in its context as the window translates them."""
    tr = _panel_words(language)
    tokens = core_trace.rows[row].tokens
    if core_trace.config.mlm_head:  # an encoder predicts the token at the position (a [MASK]), not the next one
        heading = tr("The token at position {i}: “{context}”").format(i=pos, context=tokens[pos])
    else:
        context = join_tokens(tokens[max(0, pos - CONTEXT_TOKENS + 1) : pos + 1], core_trace.tokenizer_kind)
        heading = tr("Next token after “{context}”").format(context=("… " if pos >= CONTEXT_TOKENS else "") + context)
    where = tr("position {i} (of 0–{last}) · temperature {t:g}")
    return heading, where.format(i=pos, last=len(tokens) - 1, t=core_trace.options.temperature)


def _panel_words(language: str):
    """The next-token panel's translate(source) in ``language`` (English: the source itself)."""
    if language == "en":
        return lambda source: source
    from explorer.util.translations import translations

    return partial(translations(language).translate, BARS_CONTEXT)


def fmt_prob(p: float) -> str:
    """A probability as the window's bars print it."""
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def next_token_bars(
    core_trace, row: int, pos: int, width: float, px: float, th: col.Theme, language: str = "en"
) -> tuple[list, float]:
    """Heading, then one row per token: its label, a bar as long as its probability relative to the
    likeliest (the window's rule), the probability printed after it. Returns the items and their height."""
    pad = px * 0.5
    heading, where = bars_heading(core_trace, row, pos, language)
    items: list = [
        Text(pad, pad + px * 1.1, elide(heading, px * 1.1, width - 2 * pad, bold=True), px * 1.1, th.ink, bold=True),
        Text(pad, pad + px * 2.5, where, px * 0.85, th.faint),
    ]
    rows = top_tokens(core_trace, row, pos)
    size, rh = px * 0.9, px * 1.5
    label_w = min(max((text_width(label, size) for label, _ in rows), default=0.0) + px * 0.8, width / 3)
    num_w = text_width("0.000e-00", size) + px * 0.4
    bar_w = max(10.0, width - 2 * pad - label_w - num_w)
    top = max((p for _, p in rows), default=0.0) or 1.0
    bar = palettes.current().bar
    faint = _hex(tuple(round(c * 0.6 + 255 * 0.4) for c in bar))  # the window's paler bars below the first
    y = pad + px * 3.1
    for n, (label, p) in enumerate(rows):
        mid = y + rh / 2
        items.append(
            Text(
                pad + label_w - px * 0.4,
                mid + size * CENTRE_TO_BASELINE,
                elide(label, size, label_w - px * 0.6),
                size,
                th.ink,
                "end",
            )
        )
        length = max(1.0, bar_w * p / top)
        items.append(Rect(pad + label_w, y + rh * 0.18, length, rh * 0.64, _hex(bar) if n == 0 else faint))
        items.append(
            Text(pad + label_w + length + px * 0.3, mid + size * CENTRE_TO_BASELINE, fmt_prob(p), size, th.ink)
        )
        y += rh
    return items, y + pad


# ---------------------------------------------------------------------------------------------- plain text


def trace_text(core_trace, selection: Selection | None = None) -> str:
    """The display in a few lines of text: the model, the tokens, what is selected, the likeliest next tokens."""
    sel = selection or Selection()
    check_selection(core_trace, sel)
    tokens = " | ".join(visible(t) for t in core_trace.rows[sel.row].tokens)
    lines = [f"Trace: {model_line(core_trace)}", f"tokens: {tokens}"]
    title = stage_title(core_trace, sel, ENGLISH)
    lines.append(f"shown: {title}, head {sel.head}" if sel.stage in HEAD_STAGES else f"shown: {title}")
    where = next_token_position(core_trace, sel)
    if where is not None:
        heading, _ = bars_heading(core_trace, *where)
        guesses = ", ".join(f"{label} {fmt_prob(p)}" for label, p in top_tokens(core_trace, *where, k=5))
        lines.append(f"{heading}: {guesses}")
    return "\n".join(lines)
