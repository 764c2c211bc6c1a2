"""The application's own logic, without Qt: what to trace (the model source and the trace request), what is
selected, the one function that opens any model source, and the Session, which holds what the user is doing
and every rule that turns a result into the next request (which layers to capture, how far to grow a painted
mask, a model that failed to load, a lesson step's selection waiting for its trace).

The window's AppState (explorer/ui/state.py) owns a Session and re-emits its events as signals; the CLI
builds the same ModelSource and opens it with the same ``open_source``. Everything here is tested in
tests/core, with Qt unimportable.
"""

from explorer.session.request import ModelSource, Selection, TraceRequest, first_request, preset_request
from explorer.session.session import Session

__all__ = ["ModelSource", "Selection", "Session", "TraceRequest", "first_request", "preset_request"]
