"""Lessons in the real window: each built-in step leaves the state it names, the window stays live and →
goes on from the lesson, the bar's question and answer, fallback captions, recording → save → open, and the
lesson presented full screen."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6.QtCore import Qt

from explorer.lessons import DEFAULT_START, read_lesson, resolve
from explorer.lessons.model import PANELS

SIZE_KEYS = {"E": "embed_dim", "D": "key_dim", "H": "heads", "L": "layers"}


def settle(qtbot, window, step: int) -> None:
    """Show ``step`` and wait until its trace is shown and its selection applied."""
    state = window.state
    player = window.lessons.player
    before = state.request
    player.go(step)
    if player.note is None and state.request != before:
        target = player.resolved()
        qtbot.waitUntil(
            lambda: (
                not state.busy
                and state.trace is not None
                and state.selection.stage == target.stage
                and state.selection.head == target.head
                and state.selection.token == target.token
            ),
            timeout=30_000,
        )


def assert_state_is(state, ls) -> None:
    """The AppState read back field by field against what the lesson step names."""
    if ls.model is None:
        assert (state.source.kind, state.source.name) == ("preset", ls.preset)
        sizes = dict(state.source.sizes)
        for key, field in SIZE_KEYS.items():
            assert sizes.get(field) == getattr(ls, key), key
        assert state.source.random_weights == (ls.weights == "random")
    else:
        assert (state.source.kind, state.source.name) == ("path", ls.model)
    assert state.text == ls.text
    mask = state.options.mask
    assert (mask.matrix if mask.kind == "explicit" else str(mask)) == ls.mask
    assert state.options.scale == ls.scaling and state.options.temperature == ls.temperature
    sel = state.selection
    assert (sel.stage, sel.layer, sel.head, sel.row, sel.token, sel.key) == (
        ls.stage,
        ls.layer,
        ls.head,
        ls.row,
        ls.token,
        ls.key,
    )
    assert state.trace is not None and state.trace.config.heads > ls.head


def test_the_lesson_panels_are_the_window_panels():
    from explorer.ui.views.registry import view_specs

    assert tuple(s.object_name for s in view_specs()) == PANELS


def test_every_builtin_step_leaves_the_state_it_names(window, state, qtbot):
    lesson = read_lesson("builtin")
    menu = window.lessons
    assert menu.menu.title().replace("&", "") == "Lesson"
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles.index("Lesson") == titles.index("Help") - 1
    before = state.read_lesson_step()
    menu.player.open(lesson, 0, DEFAULT_START)
    assert menu.toolbar.isVisible()
    for i in range(len(lesson.steps)):
        shown = state.read_lesson_step()
        settle(qtbot, window, i)
        target = resolve(lesson, i)
        if target.model is not None and menu.player.note:  # the real model is not installed: skipped
            assert "not installed" in menu.player.note and menu.bar.note.isVisible()
            assert dataclasses.replace(state.read_lesson_step(), panel=None) == dataclasses.replace(shown, panel=None)
            continue
        assert_state_is(state, target)
        if target.panel not in (None, "tensor"):
            assert not window.docks[target.panel].visibleRegion().isEmpty(), target.panel
        assert menu.bar.title.text() == lesson.steps[i].title["en"]
        assert menu.bar.caption.text() == lesson.steps[i].caption["en"]
    # Spot checks against the note, written out by hand (not through resolve).
    settle(qtbot, window, 4)
    assert (
        dict(state.source.sizes) == {"key_dim": 256}
        and state.options.scale is False
        and state.selection.stage == "weights"
    )
    rows = state.trace.head_map(0, "weights", 0, 0)
    assert rows.max(axis=1).min() > 0.9  # saturated: every row almost one-hot
    settle(qtbot, window, 10)
    assert (
        state.source.name == "seed-toy"
        and state.trace.B == 2
        and state.trace.config.E == 3
        and state.selection.row == 1
    )
    settle(qtbot, window, 12)
    assert state.source.name == "induction" and (state.selection.layer, state.selection.head) == (1, 3)
    assert before is not None


def test_the_window_stays_live_and_next_continues_from_the_lesson(window, state, qtbot):
    menu = window.lessons
    assert menu.open_lesson("builtin", 2)
    settle(qtbot, window, 2)
    state.set_text("I like the dog .")  # the class asks "what if…", the teacher tries it
    state.set_options(scale=False)
    state.select(stage="ffn")
    qtbot.waitUntil(
        lambda: state.trace is not None and state.trace.rows[0].length == 5 and not state.busy, timeout=20_000
    )
    assert state.text == "I like the dog ."
    qtbot.keyClick(menu.bar.forward, Qt.Key.Key_Space)  # → in the bar
    qtbot.waitUntil(lambda: menu.player.index == 3, timeout=30_000)
    qtbot.waitUntil(lambda: state.selection.stage == "scaled" and not state.busy, timeout=30_000)
    assert (
        state.text == "This is a pen ." and state.options.scale is True and dict(state.source.sizes) == {"key_dim": 256}
    )
    menu.bar.back.click()
    qtbot.waitUntil(lambda: state.selection.stage == "scores" and not state.busy, timeout=30_000)
    assert dict(state.source.sizes) == {} and (state.selection.token, state.selection.key) == (3, 1)


def test_question_and_show_answer(window, state, qtbot):
    menu = window.lessons
    menu.open_lesson("builtin", 4)
    bar = menu.bar
    step = read_lesson("builtin").steps[4]
    assert step.question["en"] in bar.question.text() and bar.show_answer.isVisible()
    assert not bar.answer.isVisible()
    qtbot.mouseClick(bar.show_answer, Qt.MouseButton.LeftButton)
    assert bar.answer.isVisible() and bar.answer.text() == step.answer["en"]
    window.actions_.language_actions["ja"].setChecked(True)  # the interface language: captions follow it
    assert bar.caption.text() == step.caption["ja"] and not bar.answer.isVisible()
    assert step.question["ja"] in bar.question.text()


def test_missing_caption_falls_back_with_a_note(window, state, qtbot, tmp_path):
    path = tmp_path / "en-only.toml"
    path.write_text(
        'title = "Only English"\n[[steps]]\ncaption = "Look at the map."\nstage = "weights"\n', encoding="utf-8"
    )
    menu = window.lessons
    menu.bar.set_language("ja")
    assert menu.open_lesson(str(path))
    assert menu.bar.caption.text() == "Look at the map."
    assert menu.bar.note.isVisible() and "日本語" in menu.bar.note.text() and "English" in menu.bar.note.text()


def test_a_bad_file_is_one_line_and_nothing_changes(window, state, qtbot, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('title = "x"\n[[steps]]\ncaption = "c"\nH = 0\n', encoding="utf-8")
    request = state.request
    with qtbot.waitSignal(state.errorRaised) as blocker:
        assert not window.lessons.open_lesson(str(path))
    assert blocker.args[0] == f"{path}:4: step 1: H: must lie between 1 and 256, got 0"
    assert window.lessons.player.lesson is None and state.request == request and not window.lessons.toolbar.isVisible()


def test_record_save_open_gives_the_same_states(window, state, qtbot, tmp_path):
    menu = window.lessons
    recorded = []

    def record(caption: str) -> None:
        qtbot.waitUntil(lambda: not state.busy and state.trace is not None, timeout=30_000)
        recorded.append(state.read_lesson_step())
        menu.add_step(caption)

    state.select(stage="scores", token=3, key=1)
    record("scores")
    state.set_sizes(key_dim=32)
    state.set_options(scale=False, temperature=0.5)
    state.select(stage="weights", head=2)
    record("no scaling")
    state.set_preset("seed-toy")
    qtbot.waitUntil(lambda: state.trace is not None and state.trace.config.E == 3, timeout=30_000)
    state.set_options(mask=__import__("explorer.config", fromlist=["MaskSpec"]).MaskSpec.explicit([[1, 1], [0, 1]]))
    state.select(stage="masked", row=1, token=1, key=0, head=1)
    record("painted")
    assert menu.player.count == 3 and menu.player.index == 2
    menu.move_step(0, 1)  # reorder: [no scaling, scores, painted]
    menu.move_step(1, 1)  # [no scaling, painted, scores]
    menu.delete_step(2)  # [no scaling, painted]
    path = tmp_path / "mine.toml"
    assert menu.save_to(str(path))
    menu.player.close()
    state.set_preset("induction")  # somewhere else entirely
    qtbot.waitUntil(lambda: state.trace is not None and state.trace.config.V < 40, timeout=30_000)
    assert menu.open_lesson(str(path))
    expected = [recorded[1], recorded[2]]
    assert [s.caption["en"] for s in menu.player.lesson.steps] == ["no scaling", "painted"]
    for i, want in enumerate(expected):
        settle(qtbot, window, i)
        got = state.read_lesson_step()
        assert dataclasses.replace(got, panel=None) == dataclasses.replace(want, panel=None)


def test_presenting_the_lesson_shows_the_caption_large_and_keys_move_steps(window, state, qtbot):
    from explorer.ui.classroom import lesson_present

    menu = window.lessons
    menu.open_lesson("builtin")
    slides = lesson_present.show_for(menu.player, menu.bar, window, full_screen=False)
    qtbot.waitExposed(slides)
    step = read_lesson("builtin").steps[0]
    assert slides.caption.text() == step.caption["en"]
    assert slides.caption.font().pointSizeF() > 1.5 * window.font().pointSizeF()
    qtbot.keyClick(slides, Qt.Key.Key_Right)
    assert menu.player.index == 1 and slides.title.text() == read_lesson("builtin").steps[1].title["en"]
    qtbot.keyClick(slides, Qt.Key.Key_Left)
    assert menu.player.index == 0
    qtbot.keyClick(slides, Qt.Key.Key_A)
    assert slides.answer.isVisible()
    qtbot.keyClick(slides, Qt.Key.Key_Escape)
    assert not slides.isVisible()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_recent_lessons_are_remembered(window, tmp_path, language):
    from explorer.ui.classroom.lesson_menu import recent_lessons

    path = tmp_path / f"{language}.toml"
    path.write_text(f'title = "t"\nlanguages = ["{language}"]\n[[steps]]\ncaption = "c"\n', encoding="utf-8")
    assert window.lessons.open_lesson(str(path))
    assert recent_lessons()[0] == str(path)
    window.lessons._fill_recent()
    entry = next(a for a in window.lessons.recent_menu.actions() if a.data() == str(path))
    assert entry.toolTip() == str(path) and entry.text().endswith(f"{language}.toml")  # shortened, if at all, inside


def test_a_file_sets_norm_painted_mask_and_temperature(window, state, qtbot, tmp_path):
    path = tmp_path / "more.toml"
    path.write_text(
        'title = "More"\n[[steps]]\ncaption = "RMSNorm, painted, cooler"\nnorm = "rmsnorm"\ntemperature = 0.5\n'
        'mask = [[1,0,0,0,0],[1,1,0,0,0],[0,1,1,0,0],[1,1,1,1,0],[1,0,1,1,1]]\nstage = "masked"\ncell = [2, 0]\n',
        encoding="utf-8",
    )
    assert window.lessons.open_lesson(str(path))
    qtbot.waitUntil(
        lambda: (
            not state.busy
            and state.trace is not None
            and state.trace.config.norm == "rmsnorm"
            and state.selection.stage == "masked"
        ),
        timeout=30_000,
    )
    assert state.options.temperature == 0.5 and state.options.mask.kind == "explicit"
    painted = [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 0, 1, 1, 1]]
    # The mask painter grows a painting causally past the text (room to type): the painted cells stay.
    assert [[int(v) for v in row[:5]] for row in state.options.mask.matrix[:5]] == painted
    masked = state.trace.head_map(0, "masked", 0, 0)
    assert masked[2, 0] == float("-inf") and masked[2, 1] != float("-inf")  # the painted cell blocks
    assert (state.selection.token, state.selection.key) == (2, 0)


def test_a_lesson_bar_left_open_does_not_come_back_empty(qtbot, state):
    from explorer.ui.shell.main_window import MainWindow

    first = MainWindow(state)
    qtbot.addWidget(first)
    first.show()
    assert first.lessons.open_lesson("builtin") and first.lessons.toolbar.isVisible()
    first.save_layout()
    first.close()
    from explorer.ui.bridge.state import AppState

    second = MainWindow(AppState())  # the next start: a new session (the lesson played is the session's)
    qtbot.addWidget(second)
    second.show()
    assert not second.lessons.toolbar.isVisible() and second.lessons.player.lesson is None
    second.close()
