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


# What a selection can be asked for by number (``gui --layer …``, ``t.show(layer=…)``), in the order checked.
ASKABLE = ("row", "layer", "head", "token", "key")


def unshowable(trace: Trace, asked: dict[str, int | None], as_snapshot: bool = False) -> list[tuple[str, str]]:
    """The values of ``asked`` (keys of ASKABLE; None: not asked) that ``trace`` cannot show, each with the
    one line that says why, in the words ``figure`` uses for the same options. A layer a live model has but
    did not capture is showable (picking it traces it); a snapshot shows only the layers it stores, and so
    does a live trace about to be saved as one (``as_snapshot``)."""
    cfg, problems = trace.config, []
    layers = trace.layers if as_snapshot else selectable_layers(trace)
    row = asked.get("row")
    if row is not None and not 0 <= row < trace.B:
        problems.append(("row", f"sentence {row} does not exist: the text has {trace.B} sentences (counted from 0)"))
        row = None
    layer = asked.get("layer")
    if layer is not None and layer not in layers:
        if 0 <= layer < cfg.layers:
            why = f"this trace holds no tensors of layer {layer} (not captured, or a snapshot saved without them)"
        else:
            why = f"layer {layer} does not exist: the model has layers 0 … {cfg.layers - 1}"
        problems.append(("layer", why))
    head = asked.get("head")
    if head is not None and not 0 <= head < cfg.H:
        problems.append(("head", f"head {head} does not exist: the model has {cfg.H} heads (counted from 0)"))
    row = row or 0
    length = trace.rows[row].length
    for what in ("token", "key"):
        value = asked.get(what)
        if value is not None and not 0 <= value < length:
            problems.append(
                (what, f"{what} {value} does not exist: sentence {row} has {length} tokens (counted from 0)")
            )
    return problems
