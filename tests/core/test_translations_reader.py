"""The translations read without Qt (explorer/util/translations.py): a .ts message answers as Qt's translator
answers once lrelease has compiled it, everything lrelease leaves out gives the source text back, and a
language without a shipped .ts is refused in one line. (tests/ui/test_figure_words_pure.py checks the same
answers against Qt itself.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.errors import ConfigError
from explorer.util.translations import read_ts, translations
from tests.ts_edge_cases import EDGE_CASES_TS


@pytest.fixture
def edge_cases(tmp_path: Path) -> Path:
    path = tmp_path / "edge_ja.ts"
    path.write_text(EDGE_CASES_TS, encoding="utf-8")
    return path


def test_each_message_answers_as_the_compiled_file_would(edge_cases):
    tr = read_ts(edge_cases).translate
    assert tr("View", "done") == "済み"
    assert tr("Other", "done") == "完了"  # the context chooses
    assert tr("Nowhere", "done") == "done"  # no such context: the source
    assert tr("View", "draft") == "下書き"  # lrelease keeps an unfinished translation that has a text
    assert tr("View", "todo") == "todo"  # an empty one is none
    assert tr("View", "gone") == "gone" and tr("View", "old") == "old"  # never compiled
    assert tr("View", "bank") == "銀行"
    assert tr("View", "bank", "river") == "岸"
    assert tr("View", "bank", "money") == "銀行"  # an unknown disambiguation falls back to the plain message
    assert tr("View", "a <b> & {n}") == "ア <b> & {n}"  # XML escapes read as text
    assert tr("View", "%n files") == "%n files"  # plural forms are not read


def test_the_shipped_japanese_is_read():
    tr = translations("ja").translate
    assert tr("StageTitles", "Tokens → ids") == "トークン → ID"
    assert tr("TensorView", "layer {layer}") == "レイヤー {layer}"


def test_a_language_without_translations_or_a_broken_file_is_one_line(tmp_path):
    with pytest.raises(ConfigError, match=r"^no translations for language 'xx' \(no explorer_xx\.ts among"):
        translations("xx")
    broken = tmp_path / "broken.ts"
    broken.write_text("<TS><context>", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^cannot read the translations .*broken\.ts: ") as caught:
        read_ts(broken)
    assert "\n" not in str(caught.value)
