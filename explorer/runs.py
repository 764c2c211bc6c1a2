"""Training runs on disk, seen from the window: which run a checkpoint folder belongs to, what a new run's
folder is called, how long the rest of a run will take, and which heads score best. No Qt here.

A run is a folder holding checkpoint folders ``step-000000``, ``step-000100``, … (see explorer.train.loop).
This module imports neither Qt nor torch: the window imports it while it appears, before torch is loaded.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime
from pathlib import Path

import numpy as np

STEP_NAME = re.compile(r"^step-(\d+)$")  # explorer.train.loop.CHECKPOINT_RE (that module imports torch)


def checkpoint_step_of(path: str | Path) -> int | None:
    """The step a checkpoint folder's name says (``step-000120`` → 120), or None for any other path."""
    m = STEP_NAME.match(Path(path).name)
    return int(m.group(1)) if m else None


def list_checkpoints(run_dir: str | Path) -> list[tuple[int, Path]]:
    """explorer.train.loop.list_checkpoints, imported when first needed."""
    from explorer.train.loop import list_checkpoints as listed

    return listed(run_dir)


def read_log(run_dir: str | Path) -> list[dict]:
    """explorer.train.loop.read_log, imported when first needed."""
    from explorer.train.loop import read_log as read

    return read(run_dir)


def run_dir_of(path: str | Path) -> Path | None:
    """The run a path belongs to: its parent when it is a ``step-N`` checkpoint folder of a run, the path
    itself when it is a run folder (it holds checkpoints), otherwise None."""
    p = Path(path)
    if checkpoint_step_of(p) is not None and p.parent.is_dir():
        return p.parent
    if p.is_dir() and list_checkpoints(p):
        return p
    return None


def latest_checkpoint(run_dir: str | Path) -> Path | None:
    found = list_checkpoints(run_dir)
    return found[-1][1] if found else None


def resolve_model_path(path: str | Path) -> str:
    """What File → Open model should open for a chosen path: a config.json (or any file inside a model
    folder that is not a GGUF file) means its folder; a run folder means its newest checkpoint."""
    p = Path(path)
    if p.is_file() and p.suffix.lower() != ".gguf" and (p.parent / "config.json").is_file():
        p = p.parent
    if p.is_dir() and not (p / "config.json").is_file():
        latest = latest_checkpoint(p)
        if latest is not None:
            p = latest
    return str(p)


def checkpoint_corpus(path: str | Path) -> str | None:
    """The corpus a checkpoint folder was trained on (its config.json's ``train.corpus.name``), or None."""
    try:
        meta = json.loads((Path(path) / "config.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    corpus = meta.get("train", {}).get("corpus") if isinstance(meta, dict) and isinstance(meta.get("train"), dict) else None
    if isinstance(corpus, dict):
        corpus = corpus.get("name")
    return corpus if isinstance(corpus, str) else None


_SLUG = re.compile(r"[^A-Za-z0-9_-]+")


def new_run_name(corpus: str, now: datetime | None = None) -> str:
    """``20250102-143000-copy``: sortable by time, and says what was trained (a file corpus by its stem)."""
    stem = Path(corpus).stem if ("/" in corpus or "\\" in corpus or "." in corpus) else corpus
    slug = _SLUG.sub("-", stem).strip("-")[:40] or "run"
    return f"{(now or datetime.now()):%Y%m%d-%H%M%S}-{slug}"


def unique_run_dir(root: str | Path, corpus: str, now: datetime | None = None) -> Path:
    """A folder under ``root`` that does not exist yet (two runs started in the same second get -2, -3…)."""
    base = Path(root) / new_run_name(corpus, now)
    candidate, n = base, 2
    while candidate.exists():
        candidate = base.with_name(f"{base.name}-{n}")
        n += 1
    return candidate


def eta_seconds(step: int, total: int, elapsed_s: float) -> float | None:
    """Seconds left at the mean pace so far; None before the first step."""
    if step <= 0 or elapsed_s <= 0:
        return None
    return max(0.0, (total - step) * elapsed_s / step)


def format_duration(seconds: float | None) -> str:
    """``0:07``, ``12:34``, ``1:02:03``; an em dash when unknown."""
    if seconds is None or not math.isfinite(seconds):
        return "—"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def best_heads(scores: np.ndarray, k: int = 3) -> list[tuple[int, int, float]]:
    """The k best (layer, head, score) of an (L, H) score table, best first; NaN cells are skipped."""
    scores = np.asarray(scores, dtype=float)
    cells = [(float(scores[l, h]), l, h) for l in range(scores.shape[0]) for h in range(scores.shape[1]) if np.isfinite(scores[l, h])]
    cells.sort(key=lambda c: (-c[0], c[1], c[2]))
    return [(l, h, s) for s, l, h in cells[:k]]


def nearest_index(steps: list[int], step: int | None) -> int:
    """Index of the checkpoint step closest to ``step`` (the last one when ``step`` is None)."""
    if not steps:
        return 0
    if step is None:
        return len(steps) - 1
    return min(range(len(steps)), key=lambda i: (abs(steps[i] - step), -steps[i]))


__all__ = [
    "checkpoint_step_of", "list_checkpoints", "read_log", "run_dir_of", "latest_checkpoint", "resolve_model_path", "checkpoint_corpus",
    "new_run_name", "unique_run_dir", "eta_seconds", "format_duration", "best_heads", "nearest_index",
]
