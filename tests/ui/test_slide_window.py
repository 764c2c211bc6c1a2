"""One full-screen slide window: presentation mode (F5) and a lesson's slides are the same window class with
another deck, and no other window of the interface goes full screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

UI = Path(__file__).resolve().parents[2] / "explorer" / "ui"


def test_only_the_slide_window_goes_full_screen():
    callers = sorted(
        p.relative_to(UI).as_posix()
        for p in UI.rglob("*.py")
        if "__pycache__" not in p.parts and "showFullScreen" in p.read_text(encoding="utf-8")
    )
    assert callers == ["classroom/slide_window.py"]


def test_presentation_and_lesson_slides_are_one_window_class(window, state, qtbot):
    from explorer.ui.classroom import lesson_present, presentation
    from explorer.ui.classroom.slide_window import SlideWindow

    stages = presentation.show_for(state, window)
    qtbot.waitExposed(stages)
    window.lessons.open_lesson("builtin")
    lesson = lesson_present.show_for(window.lessons.player, window.lessons.bar, window, full_screen=False)
    qtbot.waitExposed(lesson)
    assert type(stages) is type(lesson) is SlideWindow and stages is not lesson
    assert set(window.findChildren(SlideWindow)) == {stages, lesson}
    for slides in (stages, lesson):  # leaving is the window's, whatever the deck
        qtbot.keyClick(slides, Qt.Key.Key_Escape)
        assert not slides.isVisible()
    assert lesson_present.show_for(window.lessons.player, window.lessons.bar, window, False) is lesson  # reused
