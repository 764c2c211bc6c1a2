"""The pages (A4 portrait) of a worksheet whose exercise is one number's anatomy (``worksheet --anatomy``): a
header with the sentence, the model and which number, then each step: what to do, what it reads, and a line
to write the result on (the sheet) or the result in the key's ink (the key). English and Japanese words
here, as the anatomy's slides (explorer/handouts/anatomy_pages.py) have them; the steps are the core's."""

from __future__ import annotations

from explorer.handouts import colours as col
from explorer.handouts.anatomy_exercise import AnatomyExercise, SheetStep
from explorer.handouts.scene import Line, Scene, Text
from explorer.handouts.text import plain, wrap
from explorer.handouts.worksheet_page import A4_PORTRAIT, KEY_INK

WORDS = {
    "en": {
        "title": "How is this number made? By hand",
        "key title": "How is this number made? — answers",
        "about": "Text: “{text}” · model {model}, seed {seed}",
        "which": "The number: {cell}",
        "task": (
            "Work through the steps in order. Each step says what to do and what it reads; write its result "
            "(and, inside a sum, the sum so far) with three decimals. “(step k)” is your own result of step k."
        ),
        "inputs": "Given:",
        "name": "Name:",
        "step ref": "(step {k})",
        "long row": "({n} entries: those used are given in the steps)",
        "others": "the other {n} terms together (given)",
        "given": "given: {x}",
        "so far": "so far",
        "page": "{n} / {total}",
    },
    "ja": {
        "title": "この数はどう作られるか — 手で計算",
        "key title": "この数はどう作られるか — 解答",
        "about": "テキスト:「{text}」· モデル {model}、シード {seed}",
        "which": "求める数: {cell}",
        "task": (
            "ステップを順に進めてください。各ステップは何をするか、何を読むかを示します。結果 (和の途中では"
            "ここまでの和も) を小数第 3 位まで書きます。「(ステップ k)」はステップ k のあなたの結果です。"
        ),
        "inputs": "与えられた値:",
        "name": "名前:",
        "step ref": "(ステップ {k})",
        "long row": "({n} 個: 使うものは各ステップに与えてあります)",
        "others": "残りの {n} 項の和 (与えられた値)",
        "given": "与えられた値: {x}",
        "so far": "ここまで",
        "page": "{n} / {total}",
    },
}


def words_for(language: str) -> dict[str, str]:
    return WORDS.get(language, WORDS["en"])


class _Sheet:
    def __init__(self, theme: str, title: str) -> None:
        self.th, self.title = col.theme(theme), title
        self.w, self.h = A4_PORTRAIT
        self.m, self.px = 56.0, 12.0
        self.pages: list[Scene] = []
        self.y = 0.0

    def new(self) -> None:
        self.pages.append(Scene(self.w, self.h, self.th.paper, title=self.title))
        self.y = self.m

    def lines(self, text: str, size: float, colour: str, bold=False, mono=False, indent=0.0, max_lines=12) -> None:
        for line in wrap(plain(text, 4000), size, self.w - 2 * self.m - indent, bold, max_lines):
            self.y += size
            self.pages[-1].add(Text(self.m + indent, self.y, line, size, colour, bold=bold, mono=mono))
            self.y += size * 0.35

    def room(self, need: float) -> None:
        if self.y + need > self.h - self.m:
            self.new()

    def blank(self, indent: float, length: float) -> None:
        """A line to write on, under the text just printed."""
        y = self.y + self.px * 0.2
        self.pages[-1].add(Line(self.m + indent, y, self.m + indent + length, y, self.th.faint, 0.8))


def _step(s: _Sheet, n: int, step: SheetStep, w: dict, key: bool) -> None:
    px, th = s.px, s.th
    width = s.w - 2 * s.m
    given = "; ".join(step.given)
    need = px * 1.4 * (1 + len(wrap(given, px, width - px * 2)) + 2)
    s.room(need)
    s.lines(f"{n}. {step.label}", px, th.ink, bold=True)
    if given:
        s.lines(given, px, th.ink, mono=True, indent=px * 1.5)
    so_far = f"   {w['so far']} " if step.running is not None else ""
    if not step.asked:
        s.lines(w["given"].format(x=step.result), px, th.ink, mono=True, indent=px * 1.5, max_lines=4)
    elif key:
        shown = f"→ {step.result}" + (f"{so_far}{step.running}" if so_far else "")
        s.lines(shown, px, KEY_INK, bold=True, mono=True, indent=px * 1.5, max_lines=4)
    else:
        s.y += px * 0.6
        s.lines("→", px, th.ink, mono=True, indent=px * 1.5)
        s.blank(px * 3, px * 14)
        if so_far:
            s.pages[-1].add(Text(s.m + px * 19, s.y - px * 0.35, so_far.strip(), px, th.ink))
            s.blank(px * 19 + len(so_far) * px * 0.55, px * 12)
    s.y += px * 0.7


def anatomy_sheet_pages(
    exercise: AnatomyExercise, about: dict, cell_words: str, language: str, key: bool = False, theme: str = "light"
) -> list[Scene]:
    """The sheet (``key`` False: a line to write each result on) or its key (every result)."""
    w = words_for(language)
    s = _Sheet(theme, w["key title"] if key else w["title"])
    px, th = s.px, s.th
    s.new()
    s.lines(s.title, px * 1.6, th.ink, bold=True)
    s.lines(w["about"].format(**about), px * 0.9, th.faint, max_lines=4)
    s.lines(w["which"].format(cell=cell_words), px, th.ink, bold=True, max_lines=3)
    if not key:
        s.y += px * 0.6
        s.lines(w["name"], px, th.ink)
        s.blank(px * 4, px * 20)
    s.y += px * 0.6
    s.lines(w["task"], px * 0.95, th.ink, max_lines=6)
    if exercise.inputs:
        s.lines(w["inputs"], px, th.ink, bold=True)
        for line in exercise.inputs:
            s.lines(line, px, th.ink, mono=True, indent=px * 1.5)
    s.y += px * 0.6
    for n, step in enumerate(exercise.steps, 1):
        _step(s, n, step, w, key)
    for n, scene in enumerate(s.pages):
        page = w["page"].format(n=n + 1, total=len(s.pages))
        scene.add(Text(s.w - s.m, s.h - s.m * 0.5, page, px * 0.8, th.faint, "end"))
    return s.pages
