"""The activation-patching sweep: run the corrupted text once per cell with one activation taken from the
clean text's run, and measure how much of the clean prediction comes back.

    recovered = (logit_patched − logit_corrupted) / (logit_clean − logit_corrupted)

for the target token (default: the clean run's top prediction) at one position (default: the last). 1 means
this activation alone restores the clean logit, 0 means it does nothing. Cells: each (layer, position) of the
residual stream (``embed.out`` and every ``layers.{l}.out``), or each (layer, head) (``attn.heads`` of that
head at every position). Pure core: the window runs it in its worker with a progress callback and Cancel.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from explorer import names
from explorer.config import RunOptions
from explorer.errors import Cancelled, ConfigError
from explorer.interventions.intervened_run import source_trace
from explorer.interventions.patches import build_patches
from explorer.interventions.spec import Interventions, PatchSpec
from explorer.trace.run import run_trace
from explorer.vocab import SWEEP_KINDS
from explorer.weights.bundle import ModelBundle


@dataclass(frozen=True)
class SweepResult:
    kind: str  # "resid" or "heads"
    rows: tuple[str, ...]  # the patched name of each row (resid) or "layers.l" (heads)
    columns: tuple[str, ...]  # token labels (resid) or "head h" (heads)
    recovered: np.ndarray  # (rows, columns) float64, as in the module docstring
    target: int
    position: int
    clean_logit: float
    corrupted_logit: float


def _cells(kind: str, L: int, H: int, C: int) -> list[tuple[int, int, PatchSpec]]:
    if kind == "resid":
        rows = ["embed.out"] + [f"layers.{l}.out" for l in range(L)]
        return [(r, p, PatchSpec(name, (p,))) for r, name in enumerate(rows) for p in range(C)]
    return [(l, h, PatchSpec(names.attn(l, "heads"), None, (h,))) for l in range(L) for h in range(H)]


@dataclass(frozen=True)
class Measured:
    """Where the sweep reads the logit it compares: ``token``'s at ``position`` (None: the clean run's own
    prediction; the last position)."""

    token: int | None = None
    position: int | None = None


def patching_sweep(
    bundle: ModelBundle,
    clean: str,
    corrupted: str,
    kind: str = "resid",
    measured: Measured = Measured(),
    options: RunOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancel: threading.Event | None = None,
) -> SweepResult:
    """Patch each cell of ``clean``'s run into ``corrupted``'s run (the first sentence of each; both of the
    same length in tokens). ``progress(done, total)`` is called after every cell; ``cancel`` stops between
    cells and inside a run (raising Cancelled)."""
    target, position = measured.token, measured.position
    if kind not in SWEEP_KINDS:
        raise ConfigError(f"the patching sweep is over resid or heads, got {kind!r}")
    # Nothing but the logits is kept from the patched runs: every layer is computed, none is stored.
    options = (options or RunOptions()).replace(layers_to_capture=(), lazy_pairwise=True)
    corrupt = run_trace(bundle, corrupted, options, cancel)
    clean_run = source_trace(bundle, clean, corrupt, options, cancel, ("the clean text", "the corrupted text"))
    C = corrupt.rows[0].length
    if position is None:
        position = C - 1
    if not 0 <= position < C:
        raise ConfigError(f"--position {position} does not exist: the text has positions 0 … {C - 1}")
    clean_logits = clean_run.logits_rows(0, position, position + 1)[0]
    if target is None:
        target = int(clean_logits.argmax())
    l_clean, l_corrupt = float(clean_logits[target]), float(corrupt.logits_rows(0, position, position + 1)[0, target])
    cfg = bundle.config
    cells = _cells(kind, cfg.layers, cfg.H, C)
    shape = (cfg.layers + 1, C) if kind == "resid" else (cfg.layers, cfg.H)
    recovered = np.zeros(shape, dtype=np.float64)
    lengths = [r.length for r in corrupt.rows]
    spread = l_clean - l_corrupt
    for done, (r, c, spec) in enumerate(cells, start=1):
        if cancel is not None and cancel.is_set():
            raise Cancelled("the patching sweep was cancelled")
        patches = build_patches(Interventions(patches=(spec,), patch_from=clean), cfg, lengths, corrupt.C, clean_run)
        run = run_trace(bundle, corrupted, options, cancel, patches=patches)
        patched = float(run.logits_rows(0, position, position + 1)[0, target])
        recovered[r, c] = (patched - l_corrupt) / spread if spread != 0 else 0.0
        if progress is not None:
            progress(done, len(cells))
    if kind == "resid":
        rows = ("embed.out", *(f"layers.{l}.out" for l in range(cfg.layers)))
        columns = tuple(corrupt.token_label(0, i) for i in range(C))
    else:
        rows = tuple(f"layers.{l}" for l in range(cfg.layers))
        columns = tuple(f"head {h}" for h in range(cfg.H))
    return SweepResult(kind, rows, columns, recovered, target, position, l_clean, l_corrupt)
