"""The Qt bridge over the Session (explorer/ui/bridge/state.py, issue 37 item 1): every member is written out (no
table of strings that generates methods or signals), an edit goes to ``step`` and comes back as the request
to run with its ticket, and a result carrying an older ticket is not shown."""

from __future__ import annotations

import ast
import inspect

from explorer.ui.bridge import state as state_module
from explorer.ui.bridge.state import AppState
from tests.ui.live_state import make_trace


def written_out_members() -> set[str]:
    """The names the AppState class body defines with ``def`` or as ``= Signal(...)``."""
    tree = ast.parse(inspect.getsource(state_module))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "AppState")
    names = {n.name for n in cls.body if isinstance(n, ast.FunctionDef)}
    for n in cls.body:
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and getattr(n.value.func, "id", "") == "Signal":
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
    return names


def test_every_member_of_the_bridge_is_written_out():
    members = {name for name in vars(AppState) if not name.startswith("__")}
    assert members - {"staticMetaObject"} <= written_out_members()
    assert {"set_text", "set_sizes", "select", "set_trace", "traceChanged", "requestToRun"} <= members
    assert not hasattr(state_module, "SIGNALS")


def test_an_edit_runs_with_a_ticket_and_an_older_result_is_not_shown(qtbot):
    state = AppState()
    asked, shown = [], []
    state.requestToRun.connect(lambda request, ticket: asked.append((request, ticket)))
    state.traceChanged.connect(shown.append)
    state.set_sizes(embed_dim=8)
    ((request, older),) = asked
    assert dict(request.source.sizes) == {"embed_dim": 8} and older == state.ticket
    state.set_text("This is a cat .")
    newer = asked[-1][1]
    assert newer == older + 1 == state.ticket
    state.set_trace(make_trace("This is a pen ."), ticket=older)  # finished late: a newer request is on its way
    assert shown == [] and state.trace is None
    cat = make_trace("This is a cat .")
    state.set_trace(cat, ticket=newer)
    assert shown == [cat] and state.trace is cat
