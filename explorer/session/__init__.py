"""The application's own logic, without Qt: what to trace (the model source and the trace request), what is
selected, and the Session: what the user is doing as immutable records (records.py) moved by one function,
``step(state, action) -> (state, effects)`` (step.py; actions.py, effects.py), which reads no file. Beside it,
open.py opens any model source (it may read files; the state and its rules may not); the rest of the work the
window's jobs run is explorer/work/.

The window's AppState (explorer/ui/bridge/state.py) holds a SessionState, hands each action to ``step``, carries out
the effects and emits a signal for each change; the CLI builds the same ModelSource and opens it with the
same ``open_source``. Everything here is tested in tests/core, with Qt unimportable.
"""

from explorer.session.records import Preferences, SessionState
from explorer.session.request import ModelSource, Selection, TraceRequest, first_request, preset_request
from explorer.session.session import Session
from explorer.session.step import initial_state, step

__all__ = [
    "ModelSource",
    "Preferences",
    "Selection",
    "Session",
    "SessionState",
    "TraceRequest",
    "first_request",
    "initial_state",
    "preset_request",
    "step",
]
