"""Text in figures without a font engine: how wide a run is (to lay out axes and margins), and text from a
file made safe to draw (bounded, no control characters). The colour bar's numbers are the window's
(explorer/present/figure.py ``bar_ticks``).

Widths are DejaVu Sans' own advances for ASCII (the window's font here), a full em for East Asian wide
characters (IPA Gothic's), and a typical 0.65 em for anything else. Layout only needs them to be close:
every run is placed by its anchor, so each renderer aligns it with its own metrics.
"""

from __future__ import annotations

import re
import unicodedata

# DejaVu Sans advances of U+0020…U+007E in thousandths of an em, regular and bold.
_REGULAR = (
    318,
    401,
    460,
    838,
    636,
    950,
    780,
    275,
    390,
    390,
    500,
    838,
    318,
    361,
    318,
    337,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    636,
    337,
    337,
    838,
    838,
    838,
    531,
    1000,
    684,
    686,
    698,
    770,
    632,
    575,
    775,
    752,
    295,
    295,
    656,
    557,
    863,
    748,
    787,
    603,
    787,
    695,
    635,
    611,
    732,
    684,
    989,
    685,
    611,
    685,
    390,
    337,
    390,
    838,
    500,
    500,
    613,
    635,
    550,
    635,
    615,
    352,
    635,
    634,
    278,
    278,
    579,
    278,
    974,
    634,
    612,
    635,
    635,
    411,
    521,
    392,
    634,
    592,
    818,
    592,
    592,
    525,
    636,
    337,
    636,
    838,
)
_BOLD = (
    348,
    456,
    521,
    838,
    696,
    1002,
    872,
    306,
    457,
    457,
    523,
    838,
    380,
    415,
    380,
    365,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    696,
    400,
    400,
    838,
    838,
    838,
    580,
    1000,
    774,
    762,
    734,
    830,
    683,
    683,
    821,
    837,
    372,
    372,
    775,
    637,
    995,
    837,
    850,
    733,
    850,
    770,
    720,
    682,
    812,
    774,
    1103,
    771,
    724,
    725,
    457,
    365,
    457,
    838,
    500,
    500,
    675,
    716,
    593,
    716,
    678,
    435,
    716,
    712,
    343,
    343,
    665,
    343,
    1042,
    712,
    687,
    716,
    716,
    493,
    595,
    478,
    712,
    652,
    924,
    645,
    652,
    582,
    712,
    365,
    712,
    838,
)
ASCENT = 0.928  # of the em, above the baseline
DESCENT = 0.236
CENTRE_TO_BASELINE = 0.36  # a run vertically centred on y has its baseline at y + 0.36 em (digits, capitals)


MONO_EM = 0.602  # DejaVu Sans Mono: every character


def char_em(ch: str, bold: bool = False, mono: bool = False) -> float:
    o = ord(ch)
    if mono and not _wide(ch):
        return MONO_EM
    if 32 <= o < 127:
        return (_BOLD if bold else _REGULAR)[o - 32] / 1000.0
    if _wide(ch):
        return 1.0
    if unicodedata.combining(ch):
        return 0.0
    return 0.65


def text_width(text: str, size: float, bold: bool = False, mono: bool = False) -> float:
    return size * sum(char_em(c, bold, mono) for c in text)


def elide(text: str, size: float, room: float, bold: bool = False) -> str:
    """``text`` cut with "…" to fit ``room`` pixels (at least its first character)."""
    if text_width(text, size, bold) <= room + size * 1e-3:  # a label measured to fit exactly still fits
        return text
    budget = room - char_em("…") * size
    width, cut = 0.0, 0
    for cut, ch in enumerate(text):  # noqa: B007 (the index where the loop stopped is the cut, read below)
        width += char_em(ch, bold) * size
        if width > budget:
            break
    return text[: max(1, cut)] + "…"


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


# Japanese line breaking (kinsoku, JIS X 4051): no line starts with closing brackets, commas, full stops,
# small kana or the prolonged sound mark, and none ends with an opening bracket (issue 38: slides broke
# before 、 and 。).
NO_LINE_START = frozenset(
    "、。，．・：；？！ー－～…‥」』）］｝〕〉》】〙〗〟’”ゝゞヽヾ々ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ,.:;!?)]}"
)
NO_LINE_END = frozenset("「『（［｛〔〈《【〘〖〝‘“([{")


def _may_break(para: str, k: int) -> bool:
    """Whether a line may end before ``para[k]`` (after ``para[k - 1]``) by the kinsoku rules."""
    return 0 < k < len(para) and para[k] not in NO_LINE_START and para[k - 1] not in NO_LINE_END


def wrap(text: str, size: float, room: float, bold: bool = False, max_lines: int = 8) -> list[str]:
    """Greedy line breaking in one pass: at the last space that fits, after any Japanese (wide) character
    where the kinsoku rules allow (``_may_break``), or anywhere in a run without either (a long word); line
    breaks in the text are kept. Past ``max_lines`` the last line ends in "…"."""
    lines: list[str] = []
    for para in text.split("\n"):
        start, width = 0, 0.0
        end = resume = -1  # the last place a line may end, and where the next then starts
        for i, ch in enumerate(para):
            w = char_em(ch, bold) * size
            if width + w > room and i > start:
                if end > start:
                    lines.append(para[start:end])
                    start = resume
                    width = text_width(para[start:i], size, bold)
                else:
                    lines.append(para[start:i])
                    start, width = i, 0.0
                end = -1
                if len(lines) > max_lines:
                    break
            if ch == " ":
                end, resume = i, i + 1
            elif (_wide(ch) or (i + 1 < len(para) and _wide(para[i + 1]))) and _may_break(para, i + 1):
                end = resume = i + 1
            width += w
        else:
            lines.append(para[start:])
        if len(lines) > max_lines:
            break
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = elide(lines[-1] + " …", size, room, bold)
    return lines


# ------------------------------------------------------------------------------------------ safe text

MAX_TEXT = 4000  # characters of one text drawn on a page; a lesson's caption is shorter (files are ≤ 1 MB)


def unmarked(text: str) -> str:
    """A lesson's words without their inline markup: `code` and **bold** as their words (paper shows no
    backticks or asterisks, issue 38). Only paired marks go; a lone * (a product) stays."""
    text = re.sub(r"`([^`\n]+)`", r"\1", text)
    return re.sub(r"\*\*([^*\n]+)\*\*", r"\1", text)


def plain(text: str, limit: int = MAX_TEXT) -> str:
    """Text from a file as it may be drawn: control characters (except line breaks and tabs) removed,
    tabs as spaces, and at most ``limit`` characters (cut with "…"). Never markup: it is drawn as it is."""
    text = str(text)[: limit + 1]
    text = "".join(
        " " if c == "\t" else c for c in text if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cs", "Co", "Cn")
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"
