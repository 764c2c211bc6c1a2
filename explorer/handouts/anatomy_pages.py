"""A number's anatomy as slides (issue 39, ``anatomy --pdf``): a title page saying which number and listing
its steps, then one page per step as a teacher writes it on the board: what is done, what it reads, what it
gives (large) and the sum so far, with the steps before it down the side. Every word and number is text
(pdftotext finds each step's result); the words are the core's step labels, English or Japanese."""

from __future__ import annotations

from explorer.anatomy import Cell, Step
from explorer.anatomy.text import value_text
from explorer.handouts import colours as col
from explorer.handouts.lesson_page import A4_LANDSCAPE, Page
from explorer.handouts.scene import Scene, Text
from explorer.handouts.text import plain, wrap
from explorer.present.token_parts import token_label

WORDS = {
    "en": {
        "title": "How is this number made?",
        "step": "Step {n} of {total}",
        "steps": "{n} steps",
        "so far": "so far {x}",
        "others": "+ {n} others = {x}",
        "largest": "the largest of them: {x}",
        "page": "{n} / {total}",
        "before": "The steps before",
        "layer": "layer {l}",
        "head": "head {h}",
        "query": "query {i} “{t}”",
        "key": "key {j} “{t}”",
        "dim": "column {k}",
        "neuron": "neuron {n}",
        "sentence": "sentence {s}",
    },
    "ja": {
        "title": "この数はどう作られるか",
        "step": "ステップ {n} / {total}",
        "steps": "{n} ステップ",
        "so far": "ここまで {x}",
        "others": "+ 残り {n} 項 = {x}",
        "largest": "その最大: {x}",
        "page": "{n} / {total}",
        "before": "ここまでのステップ",
        "layer": "層 {l}",
        "head": "ヘッド {h}",
        "query": "クエリ {i}「{t}」",
        "key": "キー {j}「{t}」",
        "dim": "列 {k}",
        "neuron": "ニューロン {n}",
        "sentence": "文 {s}",
    },
}
SIDE_STEPS = 14  # the steps before, down the side of a page


def _words(language: str) -> dict[str, str]:
    return WORDS.get(language, WORDS["en"])


def cell_line(trace, cell: Cell, language: str = "en") -> str:
    """Which number: "weights · layer 0 · head 1 · query 3 “pen” · key 1 “is”"."""
    w, parts = _words(language), [f"qkv: {cell.part or 'q'}" if cell.stage == "qkv" else cell.stage]
    if trace.config.L > 1 or cell.layer:
        parts.append(w["layer"].format(l=cell.layer))
    if cell.key is not None or cell.stage in ("heads", "qkv"):
        parts.append(w["head"].format(h=cell.head))
    if trace.B > 1:
        parts.append(w["sentence"].format(s=cell.sentence))
    parts.append(w["query"].format(i=cell.query, t=token_label(trace, cell.sentence, cell.query)))
    if cell.key is not None:
        parts.append(w["key"].format(j=cell.key, t=token_label(trace, cell.sentence, cell.key)))
    if cell.dim is not None:
        parts.append(w["dim"].format(k=cell.dim))
    if cell.neuron is not None:
        parts.append(w["neuron"].format(n=cell.neuron))
    return " · ".join(parts)


def step_parts(step: Step, language: str) -> tuple[str, list[str], str, str]:
    """(what is done, what it reads line by line, what it gives, the sum so far) of one step."""
    w = _words(language)
    where = f" [{step.index}]" if step.index is not None else ""
    if step.op == "others":
        n = step.operands.get("count", 0)
        reads = [w["largest"].format(x=value_text(step.operands.get("largest")))]
        return step.label(language), reads, w["others"].format(n=n, x=value_text(step.result)), _so_far(step, w)
    reads = [f"{k} = {value_text(v)}" for k, v in step.operands.items() if v is not None]
    return step.label(language) + where, reads, value_text(step.result), _so_far(step, w)


def _so_far(step: Step, w: dict[str, str]) -> str:
    if step.running is None or step.op == "cell":
        return ""
    return w["so far"].format(x=value_text(step.running))


def _lines(scene: Scene, x: float, y: float, text: str, size: float, room: float, colour: str, **style) -> float:
    max_lines = style.pop("max_lines", 3)
    for line in wrap(plain(text), size, room, style.get("bold", False), max_lines):
        y += size
        scene.add(Text(x, y, line, size, colour, **style))
        y += size * 0.3
    return y


def _footer(scene: Scene, page: Page, left: str, n: int, total: int, language: str, th) -> None:
    y, m, px = page.height - page.margin * 0.5, page.margin, page.px
    scene.add(Text(m, y, wrap(plain(left, 200), px * 0.75, page.width * 0.7, max_lines=1)[0], px * 0.75, th.faint))
    scene.add(Text(page.width - m, y, _words(language)["page"].format(n=n, total=total), px * 0.75, th.faint, "end"))


def title_page(line: str, steps: list[Step], language: str, page: Page, th) -> Scene:
    w = _words(language)
    scene = Scene(page.width, page.height, th.paper, title=w["title"])
    px, m = page.px, page.margin
    room = page.width - 2 * m
    y = _lines(scene, m, page.height * 0.12, w["title"], px * 2.2, room, th.ink, bold=True, max_lines=2)
    last = value_text(steps[-1].result) if steps else ""
    y = _lines(scene, m, y + px * 0.5, f"{line} = {last}", px * 1.3, room, th.ink, max_lines=3)
    y = _lines(scene, m, y + px * 0.5, w["steps"].format(n=len(steps)), px, room, th.faint, max_lines=1) + px * 0.5
    size, bottom = px * 0.85, page.height - m * 1.2
    for n, step in enumerate(steps, 1):
        if y + size * 1.3 > bottom:
            scene.add(Text(m, y + size, "…", size, th.faint))
            break
        label, _reads, gives, _ = step_parts(step, language)
        y = _lines(scene, m, y, f"{n}. {label} → {gives}", size, room, th.ink, max_lines=1)
    return scene


def step_page(steps: list[Step], k: int, language: str, page: Page, th) -> Scene:
    """Step ``k`` (0-based): the board on the left two thirds, the steps before it down the right."""
    w = _words(language)
    label, reads, gives, so_far = step_parts(steps[k], language)
    scene = Scene(page.width, page.height, th.paper, title=label)
    px, m = page.px, page.margin
    board = page.width * 0.62 - m
    scene.add(Text(m, m, w["step"].format(n=k + 1, total=len(steps)), px * 0.9, th.faint))
    y = _lines(scene, m, m + px * 0.5, label, px * 2.2, board, th.ink, bold=True, max_lines=2) + px * 0.5
    for line in reads[:8]:
        y = _lines(scene, m, y, line, px * 1.6, board, th.ink, mono=True, max_lines=2)
    size = px * (1.8 if gives.startswith("[") else 3.4)  # a vector's entries on a line or two, a number large
    y = _lines(scene, m, y + px * 0.6, f"→ {gives}", size, board, th.ink, bold=True, mono=True, max_lines=4)
    if so_far:
        _lines(scene, m, y + px * 0.3, so_far, px * 1.8, board, th.ink, mono=True, max_lines=1)
    side_x, side = m + board + px * 2, page.width - 2 * m - board - px * 2
    y = _lines(scene, side_x, m + px * 0.5, w["before"], px * 0.9, side, th.faint, bold=True, max_lines=1)
    first = max(0, k - SIDE_STEPS)
    for n in range(first, k):
        before, _r, result, _s = step_parts(steps[n], language)
        y = _lines(scene, side_x, y, f"{n + 1}. {before} → {result}", px * 0.75, side, th.faint, max_lines=1)
    return scene


def anatomy_pages(trace, cell: Cell, steps: list[Step], language: str = "en", theme: str = "light") -> list[Scene]:
    """The title page and one page per step, A4 landscape, each with its footer (which number, page n / N)."""
    th, page = col.theme(theme), Page(*A4_LANDSCAPE)
    line = cell_line(trace, cell, language)
    scenes = [title_page(line, steps, language, page, th)] + [
        step_page(steps, k, language, page, th) for k in range(len(steps))
    ]
    for n, scene in enumerate(scenes, 1):
        _footer(scene, page, line, n, len(scenes), language, th)
    return scenes
