"""What can be selected in a trace: a selection clamped to it, and the layers a user can pick."""

from __future__ import annotations

import dataclasses

from explorer.session.request import Selection
from explorer.trace import Trace


def clamped(sel: Selection, trace: Trace) -> Selection:
    """``sel`` moved inside ``trace``: a layer it holds, a head, row and positions that exist."""
    layers = trace.layers or (0,)
    layer = sel.layer if sel.layer in layers else layers[0]
    head = min(sel.head, trace.config.H - 1)
    row = min(sel.row, trace.B - 1)
    length = trace.rows[row].length
    token = None if sel.token is None else min(sel.token, length - 1)
    key = None if sel.key is None else min(sel.key, length - 1)
    return dataclasses.replace(sel, layer=layer, head=head, row=row, token=token, key=key)


def selectable_layers(trace: Trace | None) -> tuple[int, ...]:
    """The layers a user can pick: every layer of a computed model (one the trace did not capture is traced
    when picked), only the stored ones of a snapshot."""
    if trace is None:
        return ()
    if trace.read_only:
        return trace.layers
    return tuple(range(trace.config.layers))
