"""A figure drawn from Python (no Qt) says the words a figure drawn by the window or ``figure --language``
says: the pure .ts reader (explorer/util/translations.py) answers every shipped message as Qt's translator
answers it from the .qm, and the figure words built without Qt (explorer/handouts/translated_words.py) are the
Qt layer's (explorer/ui/words/figure_words.py), key for key, in English and in Japanese."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import PySide6
import pytest
from PySide6.QtCore import QCoreApplication, QTranslator

from explorer.handouts.translated_words import figure_words as pure_figure_words
from explorer.handouts.words import TENSOR_TITLES
from explorer.present import stages
from explorer.ui.preferences import i18n
from explorer.ui.words.figure_words import figure_words as qt_figure_words
from explorer.util.translations import read_ts, translations, ts_path
from tests.ts_edge_cases import EDGE_CASES_TS

# Tensor names as a trace holds them: every titled one, at some layer, and names without a title.
TENSOR_NAMES = [*TENSOR_TITLES, *(f"layers.3.{key}" for key in TENSOR_TITLES), "layers.0.attn.unknown", "params.x"]


@pytest.fixture
def japanese(qapp):
    assert i18n.install_language("ja")
    yield
    i18n.install_language("en")


def _same_words(pure, qt) -> None:
    assert pure.text == qt.text
    assert pure.stage_titles == qt.stage_titles
    # what edge_label reads: its English words under the ones passed (None: the English alone)
    assert {**stages.WORDS, **(pure.edge_words or {})} == {**stages.WORDS, **(qt.edge_words or {})}
    assert {n: pure.tensor_title(n) for n in TENSOR_NAMES} == {n: qt.tensor_title(n) for n in TENSOR_NAMES}


def test_every_shipped_message_reads_as_qt_translates_it(japanese):
    messages = translations("ja").messages
    assert len(messages) > 500
    read = translations("ja").translate
    differ = [
        (context, source)
        for context, source, comment in messages
        if read(context, source, comment or None) != QCoreApplication.translate(context, source, comment or None)
    ]
    assert differ == []


def _lrelease() -> Path:
    for candidate in (Path(sys.executable).parent / "pyside6-lrelease", Path(PySide6.__file__).parent / "lrelease"):
        if candidate.is_file():
            return candidate
    pytest.skip("lrelease is not installed with PySide6")


def test_what_lrelease_leaves_out_reads_as_qt_translates_it(qapp, tmp_path):
    ts, qm = tmp_path / "edge_ja.ts", tmp_path / "edge_ja.qm"
    ts.write_text(EDGE_CASES_TS, encoding="utf-8")
    subprocess.run([str(_lrelease()), "-silent", str(ts), "-qm", str(qm)], check=True, timeout=120)
    translator = QTranslator()
    assert translator.load(str(qm))
    asked = [(c, s, None) for c in ("View", "Other") for s in ("done", "draft", "todo", "gone", "old", "bank", "x")]
    asked += [("View", "bank", "river"), ("View", "bank", "money"), ("View", "a <b> & {n}", None)]
    read = read_ts(ts).translate
    QCoreApplication.installTranslator(translator)
    try:
        qt = [QCoreApplication.translate(c, s, d) for c, s, d in asked]
    finally:
        QCoreApplication.removeTranslator(translator)
    assert [read(c, s, d) for c, s, d in asked] == qt


def test_the_figure_words_without_qt_are_the_windows_in_japanese(japanese):
    pure = pure_figure_words("ja")
    _same_words(pure, qt_figure_words())
    assert pure.stage_titles["tokens"] == "トークン → ID"  # not the English: the translations were found


def test_the_figure_words_without_qt_are_the_windows_in_english(qapp):
    _same_words(pure_figure_words("en"), qt_figure_words())


def test_every_language_with_a_ts_file_has_figure_words():
    from explorer import vocab

    for language in vocab.LANGUAGES[1:]:
        assert ts_path(language).is_file(), language
        assert pure_figure_words(language).text != pure_figure_words("en").text, language
