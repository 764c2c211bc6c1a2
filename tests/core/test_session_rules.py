"""The Session (explorer/session/step.py, driven by explorer/session/session.py): every rule that moves the
window's state, without Qt (this file runs with Qt unimportable, as all of tests/core). Each test drives the
Session as the window does (an action from a control, then the result of the request it asks for) and checks
the next request and the effects it says."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.config import MaskSpec
from explorer.errors import MaskTooSmall, ModelLoadError
from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions
from explorer.lessons import Lesson, LessonState, Step
from explorer.session import ModelSource, Session, mask_growth
from explorer.session import actions as a
from explorer.session.actions import changes
from explorer.session.effects import CancelTrace, LessonStepChanged, PanelWanted, RequestReverted, RunTrace
from explorer.session.open import open_source, resolve_model_path
from explorer.session.rules_lessons import read_lesson_step
from explorer.trace.run import run_trace

DEEP = ModelSource("preset", "classroom").with_sizes(layers=10, embed_dim=8, heads=2, key_dim=4)


def traced(request):
    return run_trace(open_source(request.source), request.text, request.options)


def kinds(session: Session) -> list[str]:
    return [type(effect).__name__ for effect in session.take_effects()]


@pytest.fixture
def shown():
    """A session showing the trace of its first request (the window after start)."""
    s = Session(resolve_path=resolve_model_path)
    s.do(a.TraceFinished(traced(s.state.request)))
    s.take_effects()
    return s


def test_a_control_returns_the_request_to_compute_and_says_so_once():
    s = Session(text="This is a pen .")
    request = s.do(a.SetText("This is a cat ."))
    assert request is not None and request.text == "This is a cat ." and s.state.request == request
    assert s.take_effects() == [RunTrace(s.state.ticket, request)]
    assert s.do(a.SetText("This is a cat .")) is None and s.take_effects() == []  # nothing changed: nothing to compute
    sized = s.do(a.SetSizes(changes(embed_dim=8)))
    assert sized.source.random_weights and dict(sized.source.sizes) == {"embed_dim": 8}


def test_a_trace_is_shown_with_its_model_and_the_selection_clamped(shown):
    s = shown
    s.do(a.Select(changes(head=99, token=99, row=5)))
    trace, sel = s.state.trace, s.state.selection
    assert (sel.head, sel.token, sel.row) == (trace.config.H - 1, trace.rows[0].length - 1, 0)
    nxt = s.do(a.SetSizes(changes(heads=2, embed_dim=8, key_dim=4)))
    s.take_effects()
    assert s.do(a.TraceFinished(traced(nxt), ticket=s.state.ticket)) is None  # two layers: nothing more to ask for
    effects = kinds(s)
    assert effects[:2] == ["ModelInfoChanged", "TraceShown"] and "SelectionChanged" in effects  # head 3 of 4 → 1 of 2
    assert s.state.selection.head == 1


def test_a_deep_model_captures_the_selected_layer_and_traces_a_layer_when_it_is_picked():
    s = Session(source=DEEP)
    first = s.do(a.ModelLoaded(10))  # known once loaded, before its first (full) trace ends
    assert first is not None and first.options.layers_to_capture == (0,)
    assert s.do(a.TraceFinished(traced(first), ticket=s.state.ticket)) is None
    s.take_effects()
    wanted = s.do(a.Select(changes(layer=7)))
    assert wanted is not None and wanted.options.layers_to_capture == (7,)
    assert kinds(s) == ["LayerWanted", "RunTrace"]  # the selection stays on a layer the trace holds
    assert s.state.selection.layer == 0
    assert s.do(a.TraceFinished(traced(wanted), ticket=s.state.ticket)) is None
    assert s.state.selection.layer == 7  # picked, then traced, now selected
    again = s.do(a.SetCaptureMode("all"))
    assert again.options.layers_to_capture is None


def test_a_layer_waiting_for_its_trace_is_forgotten_when_the_trace_fails():
    s = Session(source=DEEP)
    s.do(a.TraceFinished(traced(s.do(a.ModelLoaded(10)))))
    s.do(a.Select(changes(layer=5)))
    assert s.state.capture.wanted == 5
    s.do(a.TraceFailed("no", None))
    assert s.state.capture.wanted is None


def test_the_painted_mask_grows_before_the_text_outgrows_it_and_after_a_refusal(shown):
    s = shown
    C = s.state.trace.C
    request = s.do(a.Paint(start="causal"))
    assert request.options.mask.kind == "explicit" and len(request.options.mask.matrix) >= C
    small = np.tril(np.ones((C + 1, C + 1), dtype=bool))
    small[C, 0] = False
    painted = s.do(a.Paint(mask_growth.as_matrix(small)))  # one spare row: the next trace asks for room at once
    grown = s.do(a.TraceFinished(traced(painted)))
    assert grown is not None and len(grown.options.mask.matrix) > C + 1
    assert not np.asarray(grown.options.mask.matrix)[C, 0]  # what was painted is kept
    s.do(a.TraceFinished(traced(grown)))
    refused = s.do(a.TraceFailed("the painted mask is smaller than the text", MaskTooSmall(painted=5, tokens=400)))
    assert refused is not None and len(refused.options.mask.matrix) >= 400
    assert s.do(a.TraceFailed("something else", ModelLoadError("x"))) is None  # another error: nothing grows


def test_a_request_with_a_painting_from_elsewhere_is_adopted():
    s = Session()
    m = np.eye(3, dtype=bool)
    s.do(a.SetOptions(changes(mask=MaskSpec.explicit(m))))
    assert kinds(s) == ["MaskPainted", "RunTrace"]
    np.testing.assert_array_equal(np.array(s.state.painted), m)


def test_a_model_that_fails_to_load_is_gone_back_from(shown, tmp_path):
    s = shown
    before = s.state.source
    s.do(a.SetText("This is a cat ."))
    s.take_effects()
    request = s.do(a.OpenModel(str(tmp_path / "missing")))
    assert request.source == ModelSource("path", str(tmp_path / "missing")) and request.text == "This is a cat ."
    assert s.state.loading_model is False  # not busy
    s.do(a.SetBusy(True))
    assert s.state.loading_model
    assert s.do(a.TraceFailed("cannot open", ModelLoadError("cannot open"))) is None
    assert s.state.source == before and s.state.text == "This is a cat ."  # back to the shown model, text kept
    assert RequestReverted(s.state.request) in s.take_effects()
    s.do(a.OpenModel("smollm2"))
    s.take_effects()
    s.do(a.CancelLoad())
    assert s.state.source == before
    assert s.take_effects() == [CancelTrace(s.state.ticket), RequestReverted(s.state.request)]  # its job stops


def test_a_model_opened_becomes_recent_once_it_shows(shown, tmp_path):
    from explorer.weights.checkpoint import save_checkpoint

    s = shown
    folder = tmp_path / "run" / "step-000003"
    save_checkpoint(
        open_source(ModelSource("preset", "classroom", seed=1).with_sizes(embed_dim=8, heads=2, key_dim=4, layers=1)),
        folder,
    )
    request = s.do(a.OpenModel(str(tmp_path / "run")))  # a run folder: its newest checkpoint
    assert request.source.name == str(folder)
    s.take_effects()
    s.do(a.TraceFinished(traced(request)))
    effects = {type(e).__name__: e for e in s.take_effects()}
    assert effects["ModelOpened"].path == str(folder)
    assert effects["RunFolderNoted"].note.step == "step-000003"


def test_a_snapshot_is_shown_read_only_and_left_for_the_live_model(shown, tmp_path):
    from explorer.export.snapshot import write_snapshot
    from explorer.export.snapshot_read import read_snapshot

    s = shown
    live = s.state.request
    path = tmp_path / "s.npz"
    write_snapshot(s.state.trace, path)
    snap = read_snapshot(path)
    assert s.do(a.TraceFinished(snap, editable_sizes=False)) is None
    assert s.state.snapshot == snap.origin and s.state.read_only and s.state.source.kind == "snapshot"
    assert kinds(s) == ["RequestReverted", "ModelInfoChanged", "TraceShown", "SnapshotChanged"]
    assert s.do(a.SetText("typed while a snapshot is shown")) is None  # ignored
    assert s.do(a.TraceFinished(traced(live))) is None and s.state.trace is snap  # a late live trace: it stays
    back = s.do(a.ReturnToLive())
    assert back == live and s.state.snapshot is None


def test_interventions_are_edited_one_item_at_a_time(shown):
    s = shown
    s.do(a.AddIntervention(HeadAblation(0, 1, "zero")))
    s.do(a.AddIntervention(HeadAblation(0, 1, "mean")))  # one mode per head
    s.do(a.AddIntervention(EdgeCut(0, 1, 2, 0)))
    assert s.state.interventions.ablations == (HeadAblation(0, 1, "mean"),) and len(s.state.interventions.cuts) == 1
    assert "InterventionsChanged" in kinds(s)
    s.do(a.RemoveIntervention(HeadAblation(0, 1, "mean")))
    assert s.state.interventions.ablations == ()
    s.do(a.SetInterventions(Interventions()))
    assert s.state.interventions.empty


def test_a_lesson_steps_selection_waits_for_its_trace_and_an_error_drops_it(shown):
    s = shown
    step = LessonState().replace(
        preset="classroom", text="The cat sat .", stage="scores", layer=1, head=2, token=1, panel="flow"
    )
    request = s.do(a.ApplyLessonStep(step))
    assert request is not None and request.text == "The cat sat ."
    assert s.state.selection.head == 0  # not yet: the step's model may have fewer heads than the one shown
    assert PanelWanted("flow") in s.take_effects()
    s.do(a.TraceFinished(traced(request)))
    sel = s.state.selection
    assert (sel.stage, sel.layer, sel.head, sel.token) == ("scores", 1, 2, 1)
    other = s.do(a.ApplyLessonStep(step.replace(text="A dog ran .", head=3)))
    s.do(a.TraceFailed("no", None))
    s.do(a.TraceFinished(traced(other)))
    assert s.state.selection.head == 2  # the failed step's selection was dropped
    recorded = read_lesson_step(s.state, "flow")
    assert recorded.text == "A dog ran ." and recorded.panel == "flow" and recorded.head == 2


def test_a_lesson_is_played_step_by_step():
    s = Session()
    steps = tuple(Step(caption={"en": f"step {i}"}, settings={"text": f"Step {i} ."}) for i in range(3))
    lesson = Lesson(title={"en": "t"}, steps=steps, languages=("en",))
    s.do(a.OpenLesson(lesson, 1))
    assert s.state.lesson.index == 1 and s.state.text == "Step 1 ."
    s.do(a.NextLessonStep())
    s.do(a.NextLessonStep())  # past the end: stays
    assert s.state.lesson.index == 2 and s.state.text == "Step 2 ."
    assert LessonStepChanged(2) in s.take_effects()


def test_the_generation_shown_hides_when_the_request_or_the_stage_changes(shown):
    s = shown

    @dataclasses.dataclass(frozen=True)
    class Gen:
        steps: tuple = (1, 2, 3)

    s.do(a.SetGeneration(Gen()))
    assert s.state.generation.shown and s.state.generation.step == 2
    s.do(a.SetGenerationStep(9))
    assert s.state.generation.step == 2
    s.do(a.Select(changes(stage="scores")))
    assert not s.state.generation.shown
    s.do(a.ShowGeneration(True))
    s.do(a.SetText("Another prompt ."))
    assert not s.state.generation.shown
