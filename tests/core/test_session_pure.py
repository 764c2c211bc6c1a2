"""The Session is pure (issue 37, item 1): its state and rules read no file (opening one is an effect the
window carries out), ``step`` gives the same answer for the same recorded actions, and a result asked for by
an older RunTrace than the latest is dropped by ``step``'s one rule."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from explorer.interventions.spec import HeadAblation
from explorer.lessons import Lesson, Step
from explorer.session import actions as a
from explorer.session import effects as e
from explorer.session import initial_state, step
from explorer.session.actions import changes
from explorer.session.open import open_source
from explorer.session.records import RunFolderShown
from explorer.trace.run import run_trace

SESSION = Path(__file__).resolve().parents[2] / "explorer" / "session"
# open.py (the one way any model source is opened) may read files; nothing else in the package may.
WORK_MODULES = {"open"}  # the rest of the jobs' work is explorer/work/
FORBIDDEN_MODULES = {"os", "pathlib", "io", "shutil", "tempfile", "glob", "subprocess", "socket"}
FORBIDDEN_CALLS = {"open", "__import__", "exec", "eval"}


def file_access(folder: Path, work: set[str] = WORK_MODULES) -> list[str]:
    """Every import of a file-system module, call of ``open``, or import of a work module, in the modules of
    ``folder`` that are not work modules: "module:line what"."""
    found = []
    for path in sorted(folder.glob("*.py")):
        if path.stem in work:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                found.append(f"{path.stem}:{node.lineno} {node.func.id}()")
            forbidden = [name for name in names if _reads_files(name.split("."), work)]
            if forbidden:
                found.append(f"{path.stem}:{node.lineno} import {forbidden[0]}")
    return found


def _reads_files(parts: list[str], work: set[str]) -> bool:
    is_work = parts[:2] == ["explorer", "session"] and len(parts) > 2 and parts[2] in work
    return parts[0] in FORBIDDEN_MODULES or is_work


def test_the_session_state_and_rules_read_no_file():
    assert (SESSION / "step.py").is_file() and (SESSION / "records.py").is_file()  # the scan looks at them
    assert file_access(SESSION) == []


def test_the_scan_catches_a_file_read_planted_in_a_module(tmp_path):
    (tmp_path / "clean.py").write_text("import dataclasses\nfrom explorer.session.request import Selection\n")
    (tmp_path / "planted.py").write_text(
        "import os\nfrom pathlib import Path\nimport io as stream\n"
        "from explorer.session.open import model_path\nfrom explorer.session import open as opener\n"
        "def read(p):\n    return open(p).read()\n"
    )
    (tmp_path / "open.py").write_text("import os\n")  # a work module: allowed
    found = file_access(tmp_path)
    assert found == [
        "planted:1 import os",
        "planted:2 import pathlib",
        "planted:3 import io",
        "planted:4 import explorer.session.open",
        "planted:5 import explorer.session.open",
        "planted:7 open()",
    ]


@pytest.fixture(scope="module")
def traces():
    source = initial_state().source
    bundle = open_source(source)
    return [run_trace(bundle, text) for text in ("This is a pen .", "This is a cat .", "A dog .")]


def recorded_actions(traces) -> list:
    """What a user and the job runner did, as the window would have handed it to ``step``."""
    lesson = Lesson(
        title={"en": "t"},
        steps=tuple(Step(caption={"en": str(i)}, settings={"text": f"Step {i} ."}) for i in range(2)),
        languages=("en",),
    )
    return [
        a.SetBusy(True),
        a.TraceFinished(traces[0], ticket=0),
        a.SetBusy(False),
        a.SetText("This is a cat ."),
        a.Select(changes(stage="scores", head=1, token=2)),
        a.TraceFinished(traces[1], ticket=1),
        a.AddIntervention(HeadAblation(0, 1, "zero")),
        a.Paint(start="causal"),
        a.TraceFailed("no", None, ticket=3),
        a.ModelPathResolved("runs/x", "runs/x/step-000002", RunFolderShown("runs/x/step-000002", "x", "step-000002")),
        a.TraceFinished(traces[2], ticket=4),
        a.CancelLoad(),
        a.OpenLesson(lesson, 1),
        a.SetGeneration(None),
        a.SetTraining(True),
        a.SetFocus(True),
        a.Select(changes(layer=1)),
    ]


def replay(actions) -> tuple:
    state, said = initial_state(), []
    for action in actions:
        state, effects = step(state, action)
        said.append(effects)
    return state, said


def test_step_is_deterministic_on_recorded_actions(traces):
    actions = recorded_actions(traces)
    first_state, first_effects = replay(actions)
    second_state, second_effects = replay(actions)
    assert first_state == second_state and first_effects == second_effects
    assert first_state.text == "Step 1 ." and first_state.lesson.index == 1  # the replay went somewhere
    assert first_state.training and first_state.focus and first_state.opening.shown is not None
    assert any(isinstance(x, e.RunTrace) for effects in first_effects for x in effects)
    before = initial_state()
    step(before, a.SetText("changed"))
    assert before == initial_state()  # the given state is never changed


def test_a_result_with_an_older_ticket_is_dropped(traces):
    state = initial_state()
    state, effects = step(state, a.SetText("This is a cat ."))
    older = effects[-1]
    state, effects = step(state, a.SetText("A dog ."))
    newer = effects[-1]
    assert isinstance(older, e.RunTrace) and isinstance(newer, e.RunTrace) and newer.ticket == older.ticket + 1
    for late in (
        a.TraceFinished(traces[1], ticket=older.ticket),
        a.TraceFailed("the old request failed", None, ticket=older.ticket),
        a.BaselineFinished(traces[1], ticket=older.ticket),
    ):
        assert step(state, late) == (state, ())  # nothing changes, nothing is said
    shown, effects = step(state, a.TraceFinished(traces[2], ticket=newer.ticket))
    assert shown.trace is traces[2] and e.TraceShown(traces[2]) in effects
    failed, effects = step(state, a.TraceFailed("the new request failed", None, ticket=newer.ticket))
    assert effects[0] == e.ErrorShown("the new request failed")
    untold, _ = step(state, a.TraceFinished(traces[1]))  # no ticket: a snapshot opened, a test: always shown
    assert untold.trace is traces[1]


def test_opening_a_model_is_an_effect_not_a_file_read():
    state, effects = step(initial_state(), a.OpenModel("/no/such/run"))
    assert effects == (e.ResolveModelPath("/no/such/run"),) and state == initial_state()
    state, effects = step(state, a.ModelPathResolved("/no/such/run", "/no/such/run"))
    assert state.source.kind == "path" and state.source.name == "/no/such/run"
    assert effects[-1] == e.RunTrace(state.ticket, state.request)
    assert dataclasses.replace(state.opening, shown=None).opening == "/no/such/run"
