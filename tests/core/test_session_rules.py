"""The Session (explorer/session/session.py): every rule that moves the window's state, without Qt (this file
runs with Qt unimportable, as all of tests/core). Each test drives the Session as the window does (a control,
then the result of the request it returns) and checks the next request and the events it records."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.config import MaskSpec
from explorer.errors import MaskTooSmall, ModelLoadError
from explorer.interventions.spec import EdgeCut, HeadAblation
from explorer.lessons import Lesson, LessonState, Step
from explorer.session import ModelSource, Session
from explorer.session.open import open_source
from explorer.trace.run import run_trace

DEEP = ModelSource("preset", "classroom").with_sizes(layers=10, embed_dim=8, heads=2, key_dim=4)


def traced(request):
    return run_trace(open_source(request.source), request.text, request.options)


def kinds(session: Session) -> list[str]:
    return [kind for kind, _ in session.take_events()]


@pytest.fixture
def shown():
    """A session showing the trace of its first request (the window after start)."""
    s = Session()
    s.on_trace(traced(s.request))
    s.take_events()
    return s


def test_a_control_returns_the_request_to_compute_and_says_so_once():
    s = Session(text="This is a pen .")
    request = s.set_text("This is a cat .")
    assert request is not None and request.text == "This is a cat ." and s.request == request
    assert s.take_events() == [("request", (request,))]
    assert s.set_text("This is a cat .") is None and s.take_events() == []  # nothing changed: nothing to compute
    sized = s.set_sizes(embed_dim=8)
    assert sized.source.random_weights and dict(sized.source.sizes) == {"embed_dim": 8}


def test_a_trace_is_shown_with_its_model_and_the_selection_clamped(shown):
    s = shown
    s.select(head=99, token=99, row=5)
    assert (s.selection.head, s.selection.token, s.selection.row) == (
        s.trace.config.H - 1,
        s.trace.rows[0].length - 1,
        0,
    )
    nxt = s.set_sizes(heads=2, embed_dim=8, key_dim=4)
    s.take_events()
    assert s.on_trace(traced(nxt)) is None  # two layers: nothing more to ask for
    events = kinds(s)
    assert events[:2] == ["model_info", "trace"] and "selection" in events  # head 3 of 4 → head 1 of 2
    assert s.selection.head == 1


def test_a_deep_model_captures_the_selected_layer_and_traces_a_layer_when_it_is_picked():
    s = Session(source=DEEP)
    first = s.on_model(10)  # known once loaded, before its first (full) trace ends
    assert first is not None and first.options.layers_to_capture == (0,)
    assert s.on_trace(traced(first)) is None
    s.take_events()
    wanted = s.select(layer=7)
    assert wanted is not None and wanted.options.layers_to_capture == (7,)
    assert kinds(s) == ["layer_wanted", "request"]  # the selection stays on a layer the trace holds
    assert s.selection.layer == 0
    assert s.on_trace(traced(wanted)) is None
    assert s.selection.layer == 7  # picked, then traced, now selected
    again = s.set_capture_mode("all")
    assert again.options.layers_to_capture is None


def test_a_layer_waiting_for_its_trace_is_forgotten_when_the_trace_fails():
    s = Session(source=DEEP)
    s.on_trace(traced(s.on_model(10)))
    s.select(layer=5)
    assert s.capture.wanted == 5
    s.on_error("no", None)
    assert s.capture.wanted is None


def test_the_painted_mask_grows_before_the_text_outgrows_it_and_after_a_refusal(shown):
    s = shown
    C = s.trace.C
    request = s.paint(start="causal")
    assert request.options.mask.kind == "explicit" and len(request.options.mask.matrix) >= C
    small = np.tril(np.ones((C + 1, C + 1), dtype=bool))
    small[C, 0] = False
    painted = s.paint(small)  # one spare row: the next trace asks for room at once
    grown = s.on_trace(traced(painted))
    assert grown is not None and len(grown.options.mask.matrix) > C + 1
    assert not np.asarray(grown.options.mask.matrix)[C, 0]  # what was painted is kept
    s.on_trace(traced(grown))
    refused = s.on_error("the painted mask is smaller than the text", MaskTooSmall(painted=5, tokens=400))
    assert refused is not None and len(refused.options.mask.matrix) >= 400
    assert s.on_error("something else", ModelLoadError("x")) is None  # another error: nothing grows


def test_a_request_with_a_painting_from_elsewhere_is_adopted():
    s = Session()
    s.take_events()
    m = np.eye(3, dtype=bool)
    s.set_options(mask=MaskSpec.explicit(m))
    assert [k for k, _ in s.take_events()] == ["painted", "request"]
    np.testing.assert_array_equal(s.painted, m)


def test_a_model_that_fails_to_load_is_gone_back_from(shown, tmp_path):
    s = shown
    before = s.source
    s.set_text("This is a cat .")
    s.take_events()
    request = s.open_model(str(tmp_path / "missing"))
    assert request.source == ModelSource("path", str(tmp_path / "missing")) and request.text == "This is a cat ."
    assert s.loading_model is False  # not busy
    s.set_busy(True)
    assert s.loading_model
    assert s.on_error("cannot open", ModelLoadError("cannot open")) is None
    assert s.source == before and s.text == "This is a cat ."  # back to the shown model, the text kept
    assert ("reverted", (s.request,)) in s.take_events()
    s.open_model("smollm2")
    s.cancel_load()
    assert s.source == before


def test_a_model_opened_becomes_recent_once_it_shows(shown, tmp_path):
    from explorer.weights.checkpoint import save_checkpoint

    s = shown
    folder = tmp_path / "run" / "step-000003"
    save_checkpoint(
        open_source(ModelSource("preset", "classroom", seed=1).with_sizes(embed_dim=8, heads=2, key_dim=4, layers=1)),
        folder,
    )
    request = s.open_model(str(tmp_path / "run"))  # a run folder: its newest checkpoint
    assert request.source.name == str(folder)
    s.take_events()
    s.on_trace(traced(request))
    events = dict(s.take_events())
    assert events["model_opened"] == (str(folder),)
    assert events["run_folder_shown"][0].step == "step-000003"


def test_a_snapshot_is_shown_read_only_and_left_for_the_live_model(shown, tmp_path):
    from explorer.export.snapshot import write_snapshot
    from explorer.export.snapshot_read import read_snapshot

    s = shown
    live = s.request
    path = tmp_path / "s.npz"
    write_snapshot(s.trace, path)
    snap = read_snapshot(path)
    assert s.on_trace(snap, editable_sizes=False) is None
    assert s.snapshot == snap.origin and s.read_only and s.source.kind == "snapshot"
    assert [k for k, _ in s.take_events()] == ["reverted", "model_info", "trace", "snapshot"]
    assert s.set_text("typed while a snapshot is shown") is None  # ignored
    assert s.on_trace(traced(live)) is None and s.trace is snap  # a late live trace: the snapshot stays
    back = s.return_to_live()
    assert back == live and s.snapshot is None


def test_interventions_are_edited_one_item_at_a_time(shown):
    s = shown
    s.add_intervention(HeadAblation(0, 1, "zero"))
    s.add_intervention(HeadAblation(0, 1, "mean"))  # one mode per head
    s.add_intervention(EdgeCut(0, 1, 2, 0))
    assert s.interventions.ablations == (HeadAblation(0, 1, "mean"),) and len(s.interventions.cuts) == 1
    assert "interventions" in kinds(s)
    s.remove_intervention(HeadAblation(0, 1, "mean"))
    assert s.interventions.ablations == ()
    s.clear_interventions()
    assert s.interventions.empty


def test_a_lesson_steps_selection_waits_for_its_trace_and_an_error_drops_it(shown):
    s = shown
    step = LessonState().replace(
        preset="classroom", text="The cat sat .", stage="scores", layer=1, head=2, token=1, panel="flow"
    )
    request = s.apply_lesson_step(step)
    assert request is not None and request.text == "The cat sat ."
    assert s.selection.head == 0  # not yet: the step's model may have fewer heads than the one shown
    assert ("panel", ("flow",)) in s.take_events()
    s.on_trace(traced(request))
    assert (s.selection.stage, s.selection.layer, s.selection.head, s.selection.token) == ("scores", 1, 2, 1)
    other = s.apply_lesson_step(step.replace(text="A dog ran .", head=3))
    s.on_error("no", None)
    s.on_trace(traced(other))
    assert s.selection.head == 2  # the failed step's selection was dropped
    recorded = s.read_lesson_step("flow")
    assert recorded.text == "A dog ran ." and recorded.panel == "flow" and recorded.head == 2


def test_a_lesson_is_played_step_by_step():
    s = Session()
    steps = tuple(Step(caption={"en": f"step {i}"}, settings={"text": f"Step {i} ."}) for i in range(3))
    lesson = Lesson(title={"en": "t"}, steps=steps, languages=("en",))
    s.lesson.open(lesson, 1)
    assert s.lesson.index == 1 and s.text == "Step 1 ."
    s.lesson.next()
    s.lesson.next()  # past the end: stays
    assert s.lesson.index == 2 and s.text == "Step 2 ."
    assert ("lesson_step", (2,)) in s.take_events()


def test_the_generation_shown_hides_when_the_request_or_the_stage_changes(shown):
    s = shown

    @dataclasses.dataclass
    class Gen:
        steps: tuple = (1, 2, 3)

    s.generation.set_generation(Gen())
    assert s.generation.shown and s.generation.step == 2
    s.generation.set_step(9)
    assert s.generation.step == 2
    s.select(stage="scores")
    assert not s.generation.shown
    s.generation.show(True)
    s.set_text("Another prompt .")
    assert not s.generation.shown
