"""A worksheet's pages (A4 portrait) as scenes: a header with the sentence, the model and the seed, then each
exercise with its instruction, its inputs in fixed-width digits and room to write, or, on the key, the
answer. The words come in translated (explorer/ui/worksheet_words.py); numbers are the core's
(explorer/handouts/worksheet.py)."""

from __future__ import annotations

from explorer.handouts import colours as col
from explorer.handouts.scene import Line, Rect, Scene, Text
from explorer.handouts.text import plain, wrap
from explorer.handouts.worksheet import Exercise, written

A4_PORTRAIT = (793.7, 1122.52)  # CSS pixels (210 × 297 mm)
KEY_INK = "#1a4fa0"

WORDS = {
    "title": "Attention by hand",
    "key title": "Attention by hand — answers",
    "about": "Text: “{text}” · model {model}, seed {seed} · E = {E}, D = {D}, H = {H} · sentence {row}, head {head}",
    "name": "Name:",
    "answer": "Answer:",
    "page": "{n} / {total}",
    "qk": (
        "The dot product of query {i} and key {j} (head {head}): multiply the two vectors term by term and add. "
        "Two decimals."
    ),
    "scale": "Scale the score of cell ({i}, {j}): divide it by √D. Two decimals.",
    "scale off": "This run does not scale: S/√D is S itself. Write it with two decimals.",
    "mask": (
        "Apply the mask ({mask}) to row {i}: keep the cells the mask allows (1), write −∞ where it blocks (0). Two "
        "decimals."
    ),
    "softmax": "The softmax of row {i}: e^x for each cell (e^−∞ = 0), then divide each by their sum. Three decimals.",
    "av": "Row {i} of A·V (head {head}): the weights of row {i} times the value vectors v₀, v₁ …, added. Two decimals.",
    "wo": (
        "Entry ({i}, {e}) of concat·W_o: the heads' outputs of token {i} side by side, times column {e} of W_o, "
        "added. Two decimals."
    ),
    "prob": (
        "The probability that “{token}” comes next: p = e^(l/T) / Z, where Z adds e^(l/T) over all {V} tokens of "
        "the vocabulary (given). Three decimals."
    ),
    "qk title": "q·k for one cell",
    "scale title": "Scaling by √D",
    "mask title": "The mask",
    "softmax title": "Softmax of one row",
    "av title": "One row of A·V",
    "wo title": "One entry of concat·W_o",
    "prob title": "The next token's probability",
}


class _Pages:
    def __init__(self, words: dict, theme: str) -> None:
        self.words, self.th = {**WORDS, **words}, col.theme(theme)
        self.w, self.h = A4_PORTRAIT
        self.m, self.px = 56.0, 13.0
        self.pages: list[Scene] = []
        self.y = 0.0

    def new(self) -> None:
        self.pages.append(Scene(self.w, self.h, self.th.paper, title=self.words["title"]))
        self.y = self.m

    @property
    def scene(self) -> Scene:
        return self.pages[-1]

    def lines(self, text: str, size: float, colour: str, bold=False, mono=False, indent=0.0, max_lines=12) -> None:
        for line in wrap(plain(text, 2000), size, self.w - 2 * self.m - indent, bold, max_lines):
            self.y += size
            self.scene.add(Text(self.m + indent, self.y, line, size, colour, bold=bold, mono=mono))
            self.y += size * 0.35

    def room(self, need: float) -> None:
        if self.y + need > self.h - self.m:
            self.new()


def _height(ex: Exercise, words: dict, px: float, width: float, key: bool) -> float:
    lines = 1 + len(wrap(words[ex.key], px, width)) + sum(len(written(q)) for q in ex.inputs)
    return lines * px * 1.4 + (px * 2 if key else px * 5.5) + px * 2


def worksheet_pages(
    exercises: list[Exercise], about: dict, words: dict | None = None, key: bool = False, theme: str = "light"
) -> list[Scene]:
    """The pages of the sheet (``key`` False: room to write) or of its key (every answer filled in)."""
    p = _Pages(words or {}, theme)
    w, px, th = p.words, p.px, p.th
    p.new()
    p.lines(w["key title"] if key else w["title"], px * 1.7, th.ink, bold=True)
    p.lines(w["about"].format(**about), px * 0.9, th.faint, max_lines=4)
    if not key:
        p.y += px * 0.8
        p.lines(w["name"], px, th.ink)
        p.scene.add(Line(p.m + px * 4, p.y - px * 0.2, p.m + px * 24, p.y - px * 0.2, th.faint, 0.8))
    p.y += px
    for k, ex in enumerate(exercises):
        p.room(_height(ex, w, px, p.w - 2 * p.m, key))
        p.lines(f"{k + 1}. {w[ex.key + ' title']}", px * 1.15, th.ink, bold=True)
        ask = "scale off" if ex.key == "scale" and not ex.params.get("scaling", True) else ex.key
        p.lines(w[ask].format(**ex.params), px, th.ink, indent=px)
        for q in ex.inputs:
            for line in written(q):
                p.lines(line, px, th.ink, mono=True, indent=px * 2)
        if key:
            for line in written(ex.answer):
                p.lines(f"{w['answer']} {line}", px, KEY_INK, bold=True, mono=True, indent=px)
        else:
            p.lines(w["answer"], px, th.ink, indent=px)
            p.scene.add(Rect(p.m + px, p.y + px * 0.2, p.w - 2 * p.m - px, px * 3.6, None, th.faint, 0.8))
            p.y += px * 4
        p.y += px * 1.2
    for n, scene in enumerate(p.pages):
        scene.add(
            Text(p.w - p.m, p.h - p.m * 0.5, w["page"].format(n=n + 1, total=len(p.pages)), px * 0.8, th.faint, "end")
        )
    return p.pages
