"""The token chips explain themselves (issue 38): each chip's tooltip says what its id is (the row of the
embedding table) and, on a piece drawn with ␣, that ␣ is the space glued to the front of the word; Help →
Reading the tokens says the same; both in the interface's language."""

from __future__ import annotations

import unicodedata

import pytest
from PySide6.QtWidgets import QMessageBox

from explorer.ui.preferences import i18n

SPACE = "␣"


def _japanese(text: str) -> bool:
    return any(ord(ch) >= 0x3000 or unicodedata.east_asian_width(ch) in ("W", "F") for ch in text)


def _chips(view):
    return [chip for row in view.chips._rows for chip in row]


@pytest.fixture
def english_after():
    yield
    i18n.install_language("en")


def test_every_chip_says_what_its_id_and_its_space_mark_are(qtbot, traced, english_after):
    from explorer.ui.views.tokens.input_view import InputView

    view = InputView(traced)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: len(_chips(view)) == traced.trace.rows[0].length)
    chips = _chips(view)
    assert any(SPACE in c.text for c in chips) and any(SPACE not in c.text for c in chips)
    for chip, token_id in zip(chips, traced.trace.rows[0].ids):
        assert f"id {token_id}: the row of the embedding table" in chip.tooltip, chip.tooltip
        explained = "space glued to the front of the word" in chip.tooltip
        assert explained is (SPACE in chip.text), chip  # said where a chip shows ␣, and only there

    i18n.install_language("ja")
    qtbot.waitUntil(lambda: all(_japanese(c.tooltip.split("\n", 1)[1]) for c in _chips(view)))
    for chip in _chips(view):
        assert ("W_E" in chip.tooltip) and (SPACE in chip.tooltip.split("\n", 1)[1]) is (SPACE in chip.text)


def test_help_explains_the_chips(window, qtbot, english_after):
    window.actions_.reading_tokens.trigger()
    box = window.findChild(QMessageBox, "ReadingTokens")
    qtbot.waitUntil(lambda: box is not None and box.isVisible())
    text = box.text()
    assert SPACE in text and "space glued to the front" in text and "embedding table" in text
    box.close()
    window.actions_.language_actions["ja"].trigger()  # View → Language → 日本語
    window.actions_.reading_tokens.trigger()
    boxes = [b for b in window.findChildren(QMessageBox, "ReadingTokens") if b.isVisible()]
    assert boxes and _japanese(boxes[-1].text()) and SPACE in boxes[-1].text()
    qtbot.waitUntil(lambda: _japanese(window.actions_.reading_tokens.text()))
