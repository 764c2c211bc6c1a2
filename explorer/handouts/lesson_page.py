"""A lesson as slides, each page a scene: the title page, one page per step (its title, caption and
question as text, the figure of its stage beside them, the page number), and the answers at the end.

Every word of a lesson is drawn as plain text (explorer/handouts/text.py ``plain``): a caption that holds
markup shows its characters, never loads or renders anything, and a megabyte without spaces is cut and
wrapped like any other text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from explorer.handouts import colours as col
from explorer.handouts.scene import Rect, Scene, Text
from explorer.handouts.stage_figure import Frame, stage_scene
from explorer.handouts.text import plain, unmarked, wrap
from explorer.handouts.words import ENGLISH, FigureWords

A4_LANDSCAPE = (1122.52, 793.7)  # CSS pixels (297 × 210 mm)
# A step title's own "Step 2:" (the lecture note's three steps of attention) printed beside the slide's
# "Step 7 of 14" and the figure's "Step 8 of 18" gave three step numbers on one page (issue 38): a slide
# keeps only its own.
_STEP_PREFIX = re.compile(r"^\s*(?:Step|ステップ)\s*\d+\s*[:：]\s*")
ID_STAGES = ("tokens", "embed")  # the steps whose question is about token ids: the ids printed on the page


def unnumbered(title: str) -> str:
    """A step's title without a leading "Step 2:" of its own (the slide numbers its steps)."""
    return _STEP_PREFIX.sub("", title, count=1) or title


def token_ids(trace, row: int) -> str:
    """The sentence's tokens with their ids, as the window's chips show them ("This 433 · ␣is 299 …"):
    paper has no Text panel to read them from."""
    from explorer.analysis.token_text import visible

    r = trace.rows[row]
    return " · ".join(f"{visible(t)} {i}" for t, i in zip(r.tokens, r.ids))


PAGE_WORDS = {
    "question": "Question:",
    "answer": "Answer:",
    "answers": "Answers",
    "step": "Step {n} of {total}",
    "page": "{n} / {total}",
    "steps": "{n} steps",
    "not shown": "The figure of this step cannot be drawn here.",
    "no answers": "(no question in this lesson)",
    "ids": "Token ids: {ids}",
}


@dataclass(frozen=True)
class PageWords:
    text: dict[str, str] = field(default_factory=lambda: dict(PAGE_WORDS))
    figure: FigureWords = ENGLISH

    def __getitem__(self, key: str) -> str:
        return self.text.get(key, PAGE_WORDS[key])


@dataclass(frozen=True)
class StepText:
    """A step's words in the chosen language (plain text), and notes (another language shown, not drawn)."""

    title: str
    caption: str
    question: str = ""
    answer: str = ""
    notes: str = ""


@dataclass(frozen=True)
class Page:
    width: float
    height: float

    @property
    def px(self) -> float:
        return self.height / 46.0

    @property
    def margin(self) -> float:
        return self.height * 0.06


def _lines(
    scene: Scene,
    x: float,
    y: float,
    text: str,
    size: float,
    room: float,
    colour: str,
    bold=False,
    max_lines=40,
    bottom=None,
) -> float:
    """Wrapped text from baseline-top ``y``; returns the y below it. Stops at ``bottom`` (ending in "…")."""
    lines = wrap(plain(unmarked(text)), size, room, bold, max_lines)
    if bottom is not None:
        fits = max(1, int((bottom - y) // (size * 1.3)))
        if len(lines) > fits:
            lines = lines[:fits]
            lines[-1] = lines[-1][: max(1, len(lines[-1]) - 2)] + " …"
    for line in lines:
        y += size
        scene.add(Text(x, y, line, size, colour, bold=bold))
        y += size * 0.3
    return y


def _footer(scene: Scene, page: Page, left: str, n: int, total: int, words: PageWords, th: col.Theme) -> None:
    px, m = page.px, page.margin
    y = page.height - m * 0.5
    scene.add(Text(m, y, wrap(plain(left, 200), px * 0.75, page.width * 0.6, max_lines=1)[0], px * 0.75, th.faint))
    scene.add(Text(page.width - m, y, words["page"].format(n=n, total=total), px * 0.75, th.faint, "end"))


def title_page(
    title: str, description: str, steps: list[str], page: Page, total: int, words: PageWords, theme="light"
) -> Scene:
    th = col.theme(theme)
    scene = Scene(page.width, page.height, th.paper, title=plain(title, 200))
    px, m = page.px, page.margin
    room = page.width - 2 * m
    y = _lines(scene, m, page.height * 0.2, title, px * 2.2, room, th.ink, bold=True, max_lines=3)
    y = _lines(scene, m, y + px, description, px * 1.2, room, th.ink, max_lines=6)
    y = _lines(scene, m, y + px * 0.5, words["steps"].format(n=len(steps)), px, room, th.faint, max_lines=1) + px
    bottom = page.height - m * 1.2
    for i, name in enumerate(steps):
        if y + px * 1.3 > bottom:
            scene.add(Text(m, y + px, "…", px, th.faint))
            break
        y = _lines(scene, m, y, f"{i + 1}. {unnumbered(name)}", px, room, th.ink, max_lines=1)
    _footer(scene, page, title, 1, total, words, th)
    return scene


def step_page(
    lesson_title: str,
    text: StepText,
    trace,
    sel,
    index: int,
    steps: int,
    page: Page,
    page_no: int,
    total: int,
    words: PageWords,
    note: str | None = None,
    theme: str = "light",
) -> Scene:
    """One step: words on the left, the stage's figure (as vectors) on the right; or the note on why the
    figure cannot be drawn here (a model that is not installed, with how to install it)."""
    th = col.theme(theme)
    scene = Scene(page.width, page.height, th.paper, title=plain(text.title, 200))
    px, m = page.px, page.margin
    left_w = page.width * 0.34
    scene.add(Text(m, m, words["step"].format(n=index + 1, total=steps), px * 0.8, th.faint))
    title = unnumbered(text.title)
    y = _lines(scene, m, m + px * 0.4, title, px * 1.5, page.width - 2 * m, th.ink, bold=True, max_lines=2)
    top = y + px * 0.6
    bottom = page.height - m * 1.1
    y = _lines(scene, m, top, text.caption, px, left_w - px, th.ink, bottom=bottom - px * 4)
    if trace is not None and sel.stage in ID_STAGES:
        ids = words["ids"].format(ids=token_ids(trace, sel.row))
        y = _lines(scene, m, y + px * 0.5, ids, px, left_w - px, th.ink, max_lines=4, bottom=bottom - px * 4)
    if text.question:
        y = _lines(scene, m, y + px * 0.8, words["question"], px, left_w - px, th.ink, bold=True, max_lines=1)
        y = _lines(scene, m, y, text.question, px, left_w - px, th.ink, bottom=bottom - px * 1.5)
    if text.notes:
        _lines(scene, m, y + px * 0.8, text.notes, px * 0.8, left_w - px, th.faint, bottom=bottom)
    fx, fw, fh = m + left_w, page.width - 2 * m - left_w, bottom - top
    if trace is None:
        scene.add(Rect(fx, top, fw, fh, None, th.faint, max(0.5, px * 0.08)))
        y = _lines(scene, fx + px, top + px, words["not shown"], px, fw - 2 * px, th.ink, bold=True, max_lines=3)
        _lines(scene, fx + px, y + px * 0.5, note or "", px, fw - 2 * px, th.ink, max_lines=12)
    else:
        figure = stage_scene(trace, sel, Frame(fw, fh, px=px * 0.85, numbered=False), words.figure, theme)
        scene.extend(figure.translated(fx, top))
    _footer(scene, page, lesson_title, page_no, total, words, th)
    return scene


def answer_pages(
    lesson_title: str,
    answers: list[tuple[int, str, str, str]],
    page: Page,
    first_page: int,
    total: int | None,
    words: PageWords,
    theme: str = "light",
) -> list[Scene]:
    """The questions and their answers, (step number, title, question, answer) each, over as many pages as
    they need. ``total`` None: the page count is not known yet (the caller counts with a first pass)."""
    th = col.theme(theme)
    px, m = page.px, page.margin
    room = page.width - 2 * m
    bottom = page.height - m * 1.2
    pages: list[Scene] = []

    def new_page() -> tuple[Scene, float]:
        scene = Scene(page.width, page.height, th.paper, title=words["answers"])
        pages.append(scene)
        return scene, _lines(scene, m, m, words["answers"], px * 1.5, room, th.ink, bold=True, max_lines=1) + px * 0.5

    scene, y = new_page()
    if not answers:
        _lines(scene, m, y, words["no answers"], px, room, th.faint)
    for n, title, question, answer in answers:
        lines = len(wrap(plain(unmarked(question)), px, room)) + len(wrap(plain(unmarked(answer)), px, room))
        need = px * 1.3 * (1 + lines) + px
        if y + min(need, bottom - m) > bottom and y > m + px * 3:
            scene, y = new_page()
        y = _lines(scene, m, y, f"{n}. {unnumbered(title)}", px, room, th.ink, bold=True, max_lines=1, bottom=bottom)
        y = _lines(scene, m, y, f"{words['question']} {question}", px, room, th.ink, bottom=bottom)
        y = _lines(scene, m, y, f"{words['answer']} {answer}", px, room, th.ink, bottom=bottom) + px * 0.6
    for k, scene in enumerate(pages):
        _footer(scene, page, lesson_title, first_page + k, total if total is not None else 0, words, th)
    return pages
