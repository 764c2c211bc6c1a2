"""What the worker computes before it hands a long trace to the window, so that the window finds it done: the
overview a long text's map opens on (explorer/present/long_map.py, issue 43), or the maps, colour levels and
thumbnails of the selection (explorer/present/matrices.py ``prefetch_maps``)."""

from __future__ import annotations

from explorer.present import long_map, matrices


def prefetch_maps(trace, stage: str, layer: int, row: int, head: int) -> None:
    if 0 <= row < trace.B and long_map.shows_long_map(trace, stage, layer):
        long_map.overview(trace, stage, layer, row, min(head, trace.config.H - 1))
        return
    matrices.prefetch_maps(trace, stage, layer, row, head)
