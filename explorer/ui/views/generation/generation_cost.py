"""The Generate panel's cost line at step t, in words: multiply-adds with and without the cache (counted from
the shapes by explorer.generation.cost), the measured time, the cache's memory and, for grouped-query heads,
what caching H_kv heads instead of H saves. Every sentence is a literal ``translate("GenerationCost", …)``
call so that lupdate finds it."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer import vocab
from explorer.generation.cost import step_cost


def count(n: float) -> str:
    """1234567 → "1.23 M" (multiply-adds, bytes)."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n:.0f}"


def cost_lines(generation, t: int) -> list[str]:
    """One to three lines: what step t cost, what the cache holds, what grouped-query heads save."""
    cfg = generation.trace.config
    step = generation.steps[t]
    itemsize = vocab.itemsize(generation.trace.options.dtype)
    cost = step_cost(cfg, step.keys, itemsize)
    if step.cached:
        how = QCoreApplication.translate("GenerationCost", "with the cache")
    elif t == 0:
        how = QCoreApplication.translate("GenerationCost", "the prefill")
    else:
        how = QCoreApplication.translate("GenerationCost", "without the cache")
    lines = [
        QCoreApplication.translate(
            "GenerationCost",
            "Step {t}: the query at position {q} attends to {k} keys. Multiply-adds with the cache {mc}, "
            "without {mn} (×{r:.0f}). Measured: {ms:.1f} ms ({how}).",
        ).format(
            t=t + 1,
            q=step.query,
            k=step.keys,
            mc=count(cost.macs_cache),
            mn=count(cost.macs_no_cache),
            r=cost.saving,
            ms=step.ms,
            how=how,
        )
    ]
    if generation.use_cache:
        lines.append(
            QCoreApplication.translate(
                "GenerationCost", "The cache holds {n} positions × {L} layers × {h} heads × (D + D_v = {dd}): {b}B."
            ).format(n=step.keys, L=cfg.layers, h=cfg.H_kv, dd=cfg.D + cfg.D_v, b=count(cost.cache_bytes))
        )
        if cfg.H_kv < cfg.H:
            lines.append(
                QCoreApplication.translate(
                    "GenerationCost",
                    "Grouped-query heads: {h} query heads share {g} key/value heads, so the cache holds "
                    "{b}B instead of {a}B ({p:.0f} % less).",
                ).format(
                    h=cfg.H,
                    g=cfg.H_kv,
                    b=count(cost.cache_bytes),
                    a=count(cost.cache_bytes_all_heads),
                    p=100 * (1 - cost.cache_bytes / cost.cache_bytes_all_heads),
                )
            )
    return lines
