"""The window names stages from the core's one table (explorer/present/stage_titles.py), translated where it
shows them: the step line and stage list (short titles), the flow view and presentation mode (headings), and
the figures it exports. In Japanese each keeps the translation it had before the table moved."""

from __future__ import annotations

from explorer.present.stage_titles import STAGE_TITLES
from explorer.ui.preferences import i18n
from explorer.ui.words import captions
from explorer.ui.words.figure_words import figure_words
from explorer.ui.words.stage_words import stage_headings, stage_titles


def test_the_window_reads_the_one_table_in_english(qapp):
    assert stage_titles() == {key: entry.title for key, entry in STAGE_TITLES.items()}
    assert stage_headings() == captions.titles() == {key: entry.heading for key, entry in STAGE_TITLES.items()}
    assert figure_words().stage_titles == stage_titles()


def test_every_title_and_heading_is_translated_to_japanese(qapp):
    try:
        assert i18n.install_language("ja")
        titles, headings = stage_titles(), stage_headings()
        for key, entry in STAGE_TITLES.items():
            assert titles[key] != entry.title, key
            assert headings[key] != entry.heading, key
        assert titles["tokens"] == "トークン → ID"
        assert headings["scaled"] == "√D によるスケーリング"
        assert figure_words().stage_titles == titles  # a figure exported in Japanese says the same
    finally:
        i18n.install_language("en")
