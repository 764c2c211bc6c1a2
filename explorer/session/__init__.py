"""The application's own logic, without Qt: what to trace (the model source and the trace request), what is
selected, the one function that opens any model source, and the policies that turn a result into the next
request (which layers to capture, how far to grow a painted mask) as plain functions.

The window's AppState (explorer/ui/state.py) holds these objects and re-emits; the CLI builds the same
ModelSource and opens it with the same ``open_source``. Everything here is tested in tests/core.
"""

from explorer.session.request import ModelSource, Selection, TraceRequest, first_request, preset_request

__all__ = ["ModelSource", "Selection", "TraceRequest", "first_request", "preset_request"]
