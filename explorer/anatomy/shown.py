"""Which anatomy explains a cell a map shows: the window's map (a stage, the tensor drawn, a head, a sentence)
and a cell of it (row i, column j: a key, an output column, an FFN neuron or a token id) as a ``Cell``.
"How is this made?" in the window and on a slide asks for the anatomy of this cell."""

from __future__ import annotations

from explorer.anatomy import ANATOMY_STAGES, Cell
from explorer.anatomy.cell import PAIRWISE


def shown_cell(stage: str, tensor: str | None, layer: int, head: int, sentence: int, i: int, j: int) -> Cell | None:
    """The ``Cell`` of row ``i``, column ``j`` of the map of ``stage`` (``tensor``: the one drawn, for a stage
    with several); None for a stage without one in the window (the tokens, Q K V, the embedding's parts)."""
    if stage not in ANATOMY_STAGES or i < 0 or j < 0:
        return None
    if stage in ("tokens", "qkv"):
        return None  # the window shows ids as chips: ``anatomy --stage tokens`` explains one
    if stage == "embed" and tensor not in (None, "embed.out"):
        return None  # the token's or the position's own vector: a lookup, not a sum
    if stage in PAIRWISE:
        return Cell(stage, layer, head, i, key=j, sentence=sentence)
    if stage == "ffn" and tensor is not None and tensor.endswith("ffn.hidden"):
        return Cell(stage, layer, head, i, neuron=j, sentence=sentence)
    return Cell(stage, layer, head, i, dim=j, sentence=sentence)
