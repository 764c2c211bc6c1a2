"""A lesson's steps traced without a window (explorer/handouts/lesson_traces.py): the model, text and options of
each folded step, one trace shared by steps that only change the selection, the memory budget checked
before a step's model is built, and the note of a step whose model is not installed."""

from __future__ import annotations

import pytest

from explorer.handouts import lesson_traces as lt
from explorer.lessons import DEFAULT_START, Step, read_lesson, resolve_all
from explorer.lessons.model import Lesson, LessonError


def test_the_builtin_lessons_steps_are_the_windows():
    lesson = read_lesson("builtin")
    states = resolve_all(lesson)
    seen = []
    for st in lt.step_traces(lesson):
        state = states[st.index]
        assert st.state == state
        if st.trace is None:
            assert "not installed" in st.note and "pip install" in st.note
            continue
        assert st.trace.rows[0].text == state.text.splitlines()[0]
        assert st.trace.config.D == (state.D or st.trace.config.D) and st.trace.options.scale == state.scaling
        seen.append((st.index, st.trace))
    assert len(seen) >= 13
    by_index = dict(seen)
    assert by_index[1] is by_index[2]  # step 3 changes only the stage: the same trace, not a new run


def test_a_step_over_the_budget_is_refused_before_its_model_is_built(monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "0.2")
    built = []
    monkeypatch.setattr("explorer.session.open.open_source", lambda source, **k: built.append(source))
    big = Step(caption={"en": "big"}, settings={"E": 4096, "D": 512, "H": 8, "L": 4})
    lesson = Lesson(title={"en": "T"}, steps=(big,))
    with pytest.raises(LessonError, match=r"^step 1: .*budget"):
        list(lt.step_traces(lesson))
    assert built == []


def test_models_are_kept_only_while_small():
    tracer = lt.StepTracer()
    first = DEFAULT_START
    second = Step(caption={}, settings={"preset": "seed-toy"}).apply(first)
    a = tracer.trace(first, 0)
    b = tracer.trace(second, 1)
    assert a is not b and len(tracer._bundles) == 2
    tracer.trace(first, 2)
    assert len(tracer._bundles) == 2  # the first model came back from the cache
