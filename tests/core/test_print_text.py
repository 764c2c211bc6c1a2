"""Printed lesson text (issue 38): Japanese lines broken by the kinsoku rules, and inline markup shown as its
words. The forbidden characters are listed here, from JIS X 4051, not read from the code under test."""

from __future__ import annotations

import pytest

from explorer.handouts.text import unmarked, wrap

NEVER_FIRST = "、。，．」』）］・ーっゃゅょァィッャュョ！？"
NEVER_LAST = "「『（［"
CAPTION_JA = (
    "文を C = 5 個のトークンに分け、それぞれに ID を振ります。Embed は重み行列 W (V, E) の「id」行目を"
    "取り出します。one-hot ベクトルとの行列積と数学的に等価ですが、実際は単なるテーブル参照です（速い）。"
    "ちょっと、ぴったりとキャッシュ！ですね？「はい」。"
)


@pytest.mark.parametrize("room", range(40, 420, 3))
def test_no_japanese_line_starts_or_ends_with_a_forbidden_mark(room):
    lines = wrap(CAPTION_JA, 10.0, float(room), max_lines=200)
    assert "".join(lines).replace(" ", "") == CAPTION_JA.replace(" ", "")  # nothing lost but spaces at breaks
    for before, after in zip(lines, lines[1:]):
        assert after[0] not in NEVER_FIRST, (room, before, after)
        assert before[-1] not in NEVER_LAST, (room, before, after)


def test_inline_markup_is_printed_as_its_words():
    assert unmarked("Embed picks row `id` of **W**") == "Embed picks row id of W"
    assert unmarked("a*b and a lone ` stay") == "a*b and a lone ` stay"
