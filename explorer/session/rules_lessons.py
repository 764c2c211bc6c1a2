"""The rules for a lesson being played and for the generation shown.

Each lesson step is the fold of the steps before it over the window as it was when the lesson opened
(``LessonPlay.start``), so jumping, going back, or pressing → after trying something in the window always
shows the step as written. A step on a real model that is not installed is skipped: its words are shown with
a note, the window stays as it is. A step's selection waits for the step's trace: selecting head 3 before
the model with 4 heads has been traced would be clamped to the old model's heads.

The generation: the Generate panel hands its result here; its slider, presentation mode's arrow keys and the
centre's Generation button change the step or the showing. A new request or another stage hides it.
"""

from __future__ import annotations

import dataclasses

from explorer.lessons import LessonState, resolve, skip_note
from explorer.session import actions as a
from explorer.session import lesson_steps
from explorer.session.effects import (
    GenerationChanged,
    GenerationLiveChanged,
    GenerationStepChanged,
    LessonChanged,
    LessonStepChanged,
    PanelWanted,
)
from explorer.session.records import SessionState
from explorer.session.rules_controls import select_changes
from explorer.session.turn import Turn, set_request, show_generation


def read_lesson_step(state: SessionState, panel: str | None = None) -> LessonState:
    """The session as a lesson step would set it (recording a step)."""
    return lesson_steps.read_step(state.request, state.selection, panel)


def apply_lesson_step(turn: Turn, action: a.ApplyLessonStep) -> None:
    """Set the session to the step. Its selection waits for the step's trace when one is on its way; the
    step's panel is asked to the front."""
    step, before = action.step, turn.state.request
    set_request(turn, lesson_steps.step_request(before, step))
    selection = lesson_steps.step_selection(step)
    if turn.state.request != before or turn.state.trace is None:
        turn.set(pending=a.changes(**selection))  # a newer step replaces it; an error drops it
    else:
        turn.set(pending=None)
        select_changes(turn, **selection)
    if step.panel is not None:
        turn.say(PanelWanted(step.panel))


def open_lesson(turn: Turn, action: a.OpenLesson) -> None:
    start = action.start or read_lesson_step(turn.state)
    turn.set(lesson=dataclasses.replace(turn.state.lesson, lesson=action.lesson, start=start, index=-1))
    turn.say(LessonChanged(action.lesson))
    go_to_step(turn, a.GoToLessonStep(action.step))


def close_lesson(turn: Turn, action: a.CloseLesson) -> None:
    turn.set(lesson=dataclasses.replace(turn.state.lesson, lesson=None, index=-1, note=None))
    turn.say(LessonChanged(None))


def replace_lesson(turn: Turn, action: a.ReplaceLesson) -> None:
    """The lesson was edited (steps added, moved, deleted): show the step without re-applying it; the window
    already shows what the teacher recorded or kept."""
    play = turn.state.lesson
    start = read_lesson_step(turn.state) if play.lesson is None else play.start
    index = min(play.index if action.index is None else action.index, len(action.lesson.steps) - 1)
    turn.set(lesson=dataclasses.replace(play, lesson=action.lesson, start=start, index=index))
    turn.say(LessonChanged(action.lesson))
    turn.say(LessonStepChanged(index))


def go_to_step(turn: Turn, action: a.GoToLessonStep) -> None:
    play = turn.state.lesson
    if play.lesson is None or not play.lesson.steps:
        return
    n = max(0, min(play.count - 1, action.index))
    target = resolve(play.lesson, n, play.start)
    note = skip_note(target)
    turn.set(lesson=dataclasses.replace(play, note=note))
    if note is None:
        apply_lesson_step(turn, a.ApplyLessonStep(target))
    turn.set(lesson=dataclasses.replace(turn.state.lesson, index=n))
    turn.say(LessonStepChanged(n))


def next_step(turn: Turn, action: a.NextLessonStep) -> None:
    play = turn.state.lesson
    if play.index < play.count - 1:
        go_to_step(turn, a.GoToLessonStep(play.index + 1))


def previous_step(turn: Turn, action: a.PreviousLessonStep) -> None:
    play = turn.state.lesson
    if play.index > 0:
        go_to_step(turn, a.GoToLessonStep(play.index - 1))


# ---------------------------------------------------------------------- the generation
def set_generation(turn: Turn, action: a.SetGeneration) -> None:
    """A new generation (None: none), shown at ``step`` (default its last); ``show``: in the centre too."""
    shown = turn.state.generation
    new = dataclasses.replace(shown, generation=action.generation, live=())
    step = new.last if action.step is None else max(0, min(action.step, new.last))
    turn.set(generation=dataclasses.replace(new, step=step))
    turn.say(GenerationChanged(action.generation))  # listeners read the step too
    show_generation(turn, action.show and turn.state.generation.active)


def set_generation_shown(turn: Turn, action: a.ShowGeneration) -> None:
    show_generation(turn, action.on)


def set_generation_step(turn: Turn, action: a.SetGenerationStep) -> None:
    shown = turn.state.generation
    step = max(0, min(action.step, shown.last))
    if step != shown.step:
        turn.set(generation=dataclasses.replace(shown, step=step))
        turn.say(GenerationStepChanged(step))


def set_generation_live(turn: Turn, action: a.SetGenerationLive) -> None:
    live = tuple(action.steps)
    turn.set(generation=dataclasses.replace(turn.state.generation, live=live))
    turn.say(GenerationLiveChanged(live))
