"""Issue 26 item 1: a lesson's words (and any outside text: the traced sentence, file names, tokens) are plain
text everywhere in the window. With a lesson whose title, caption, question, answer and text are HTML that
loads files, every label showing them is plain text, every tooltip that holds them is escaped, and the lesson
bar shows the words exactly as written."""

from __future__ import annotations

from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QApplication, QGraphicsView, QLabel, QWidget

from explorer.lessons import parse_lesson

MARK = "zq"  # in every hostile word, to find the widgets that show them


@pytest.fixture
def app_style(qapp):
    """The application's style, as `gui` sets it (explorer.ui.preferences.theme), put back afterwards."""
    from explorer.ui.preferences import theme

    style, palette = qapp.style().name(), qapp.palette()
    theme.apply_theme("light")
    yield
    qapp.setStyle(style)
    qapp.setPalette(palette)


def hostile_lesson(png: str) -> str:
    img = f'<img src=\\"{png}\\" width=400 height=300>'
    return f"""title = "<b>{MARK} title</b> {img}"
[[steps]]
caption = "{img} <b>{MARK} caption</b> \\u001b[31m <table><tr><td>{MARK}</td></tr></table>"
question = "<i>{MARK} q</i> <img src=\\"file:///etc/passwd\\">"
answer = "<a href='x'>{MARK} a</a>"
text = "<b>{MARK}</b> is <img src=x>"
"""


def _tips(widget: QWidget) -> list[str]:
    tips = [widget.toolTip()]
    if isinstance(widget, QGraphicsView) and widget.scene() is not None:
        tips += [item.toolTip() for item in widget.scene().items()]
    return [t for t in tips if MARK in t]


def test_lesson_words_are_plain_text_in_every_widget(open_window, state, qtbot, tmp_path, app_style):
    from PySide6.QtGui import QColor, QImage

    png = tmp_path / "shown-if-html.png"
    image = QImage(40, 30, QImage.Format.Format_RGB32)
    image.fill(QColor("magenta"))
    image.save(str(png))
    lesson = parse_lesson(hostile_lesson(str(png)), "hostile.toml", check_runs=False)
    window = open_window(state)
    try:
        with qtbot.waitSignal(state.traceChanged, timeout=30_000):
            window.lessons.player.open(lesson, 0)
        window.lessons.present_lesson()
        _check_every_widget(window, lesson)
    finally:  # closed before the fixture puts the style back (a re-polish of open windows is not this test's)
        window.lessons.player.close()
        window.close()


def _check_every_widget(window, lesson) -> None:
    bar = window.lessons.bar
    step = lesson.steps[0]
    assert bar.caption.text() == step.caption["en"] and bar.answer.text() == step.answer["en"]
    assert bar.title.text() == step.title.get("en") or bar.title.text() == lesson.title["en"]
    shown = 0
    for widget in QApplication.allWidgets():
        if isinstance(widget, QLabel) and MARK in widget.text():
            widget.ensurePolished()
            assert widget.textFormat() == Qt.TextFormat.PlainText, (widget.objectName(), widget.text())
            shown += 1
        for tip in _tips(widget):
            # a tooltip of outside words shows them letter for letter: plain, or escaped inside HTML
            assert not GuiQt.mightBeRichText(tip) or "&lt;" in tip, tip
    assert shown >= 8  # the bar's and the presentation's title, caption, question and answer at least
    for action in window.findChildren(type(window.lessons.open_file)):
        assert "<img" not in action.text() or not GuiQt.mightBeRichText(action.text())


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    words=st.lists(
        st.sampled_from(["<b>", "</b>", "<img src=/dev/zero>", "&amp;", "\n", "\x1b", "\u202e", "a", " "])
        | st.text(max_size=8),
        min_size=1,
        max_size=8,
    )
    .map("".join)
    .filter(str.strip)
)
def test_the_lesson_bar_shows_any_words_as_written(state, qtbot, app_style, words):
    from explorer.lessons import Lesson, Step
    from explorer.ui.bridge.lesson_player import LessonPlayer
    from explorer.ui.classroom.lesson_bar import LessonBar

    player = LessonPlayer(state)
    bar = LessonBar(player)
    qtbot.addWidget(bar)
    bar.show()
    player.open(
        Lesson(
            title={"en": words},
            steps=(Step(caption={"en": words}, question={"en": words}, answer={"en": words}),),
            languages=("en",),
        )
    )
    bar.refresh()
    for label in (bar.title, bar.caption, bar.answer):
        assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == words


def test_a_tooltip_of_outside_words_is_escaped_and_shows_them():
    from explorer.ui.words.plain_text import menu_text, plain_tip

    tip = plain_tip('<img src="/dev/zero"> & <b>x</b>')
    assert (
        "<img" not in tip
        and unescape(tip.removeprefix("<p style='white-space:pre-wrap'>").removesuffix("</p>"))
        == '<img src="/dev/zero"> & <b>x</b>'
    )
    assert plain_tip("a < b") == "a < b"  # not HTML to Qt: left as it is
    assert menu_text("R&D/\nnotes.toml") == "R&&D/\\nnotes.toml"
