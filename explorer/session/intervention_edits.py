"""Editing a request's interventions one item at a time, as the Interventions panel and the maps' menus do."""

from __future__ import annotations

import dataclasses

from explorer.interventions.spec import EdgeCut, HeadAblation, Interventions, PatchSpec


def added(cur: Interventions, item: HeadAblation | EdgeCut | PatchSpec, patch_from: str | None = None) -> Interventions:
    """Ablate a head (one mode per head: a new mode replaces the old), cut an edge, or patch an activation
    from ``patch_from`` (one source text for all patches: a new text is the source of every patch)."""
    if isinstance(item, PatchSpec):
        kept = tuple(p for p in cur.patches if p != item)
        return dataclasses.replace(cur, patches=kept + (item,), patch_from=patch_from)
    if isinstance(item, HeadAblation):
        kept_ablations = tuple(a for a in cur.ablations if (a.layer, a.head) != (item.layer, item.head))
        return dataclasses.replace(cur, ablations=kept_ablations + (item,))
    if item not in cur.cuts:
        return dataclasses.replace(cur, cuts=cur.cuts + (item,))
    return cur


def removed(cur: Interventions, item: HeadAblation | EdgeCut | PatchSpec) -> Interventions:
    patches = tuple(p for p in cur.patches if p != item)
    return dataclasses.replace(
        cur,
        ablations=tuple(a for a in cur.ablations if a != item),
        cuts=tuple(c for c in cur.cuts if c != item),
        patches=patches,
        patch_from=cur.patch_from if patches else None,
    )
