"""Training runs on disk, seen from the window: which run a checkpoint folder belongs to, what a new run's
folder is called, how long the rest of a run will take, and which heads score best. No Qt here.

A run is a folder holding checkpoint folders ``step-000000``, ``step-000100``, … (see explorer.train.loop),
``log.jsonl`` and the run manifest ``run.json`` (``{"format": "attention-explorer-run", "version": 1, …}``),
written before anything else. The manifest is how training recognises a folder as its own: a name that
merely looks like a checkpoint (a user's ``step-000000`` folder) is never replaced, deleted or appended to.
This module imports neither Qt nor torch: the window imports it while it appears, before torch is loaded.
"""

from __future__ import annotations

import json
import math
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from explorer import __version__
from explorer.errors import ConfigError, SnapshotError
from explorer.util.fileio import TEMP_NAME, atomic_write_bytes, describe_os_error, remove_stale_temporaries
from explorer.vocab import CONFIG_FILE, RUN_FILE, WEIGHTS_FILE

# The checkpoint folder pattern, defined once: written by checkpoint_name, read by STEP_NAME.
STEP_NAME = re.compile(r"^step-(\d+)$")


def checkpoint_name(step: int) -> str:
    """The folder a run keeps its checkpoint of ``step`` in (``step-000120``); STEP_NAME reads it back."""
    return f"step-{step:06d}"


RUN_FORMAT = "attention-explorer-run"
RUN_VERSION = 1
LOG_FILE = "log.jsonl"
_RUN_OWN = {RUN_FILE, LOG_FILE}  # what an empty run holds before its first checkpoint


def read_run_manifest(folder: str | Path) -> dict[str, Any] | None:
    """The run manifest of ``folder`` when it has one this app wrote, else None (never raises)."""
    path = Path(folder) / RUN_FILE
    try:
        if not path.is_file() or path.stat().st_size > 1_000_000:
            return None
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return meta if isinstance(meta, dict) and meta.get("format") == RUN_FORMAT else None


def is_run_dir(folder: str | Path) -> bool:
    return read_run_manifest(folder) is not None


def _entries(folder: Path) -> list[str]:
    """The names in ``folder`` other than this app's temporary files (in a run of this app, the stale ones
    a killed run left are removed first)."""
    if is_run_dir(folder):
        remove_stale_temporaries(folder)
    return sorted(c.name for c in folder.iterdir() if not TEMP_NAME.match(c.name))


def check_run_dir(folder: str | Path) -> None:
    """Refuse ``folder`` as a new run's --out unless it is absent, empty, or a run of this app that has no
    checkpoints yet (and holds nothing else). Never writes anything."""
    p = Path(folder)
    if not p.exists() and not p.is_symlink():
        return
    if not p.is_dir():
        raise ConfigError(f"{p} is a file, not a folder; give --out a new or empty folder")
    try:
        entries = _entries(p)
    except OSError as exc:
        raise ConfigError(f"cannot read the folder {p}: {exc.strerror or exc}") from None
    if not entries:
        return
    if list_checkpoints(p):  # this app's run (or one from before run.json existed): never mixed with another
        raise ConfigError(f"{p} already holds a run; choose another --out or remove it")
    if not is_run_dir(p):
        shown = ", ".join(entries[:3]) + (", …" if len(entries) > 3 else "")
        raise ConfigError(
            f"{p} is not empty ({shown}) and is not a run folder of this app (it has no {RUN_FILE}); "
            "give --out a new or empty folder"
        )
    others = [e for e in entries if e not in _RUN_OWN]
    if others:
        raise ConfigError(
            f"{p} holds files this app did not write ({', '.join(others[:3])}); give --out a new or empty folder"
        )


def claim_run_dir(folder: str | Path, **facts: Any) -> Path:
    """Make ``folder`` a new run: check it (check_run_dir), create it, write its manifest and start an
    empty log. ``facts`` (corpus, command, …) go into the manifest."""
    p = Path(folder)
    check_run_dir(p)
    try:
        p.mkdir(parents=True, exist_ok=True)
        (p / LOG_FILE).unlink(missing_ok=True)  # an earlier start of this same empty run
    except OSError as exc:
        raise SnapshotError(describe_os_error(exc, p)) from None
    write_run_manifest(
        p, {"created": datetime.now(timezone.utc).isoformat(timespec="seconds"), **facts, "checkpoints": []}
    )
    return p


def write_run_manifest(folder: str | Path, meta: dict[str, Any]) -> None:
    body = {"format": RUN_FORMAT, "version": RUN_VERSION, "app_version": __version__, **meta}
    atomic_write_bytes(Path(folder) / RUN_FILE, (json.dumps(body, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))


def checkpoint_step_of(path: str | Path) -> int | None:
    """The step a checkpoint folder's name says (``step-000120`` → 120), or None for any other path."""
    m = STEP_NAME.match(Path(path).name)
    return int(m.group(1)) if m else None


def list_checkpoints(run_dir: str | Path) -> list[tuple[int, Path]]:
    """Complete checkpoint folders of a run, ordered by step: [(step, path), …]."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        return []
    found = []
    for child in run_dir.iterdir():
        m = STEP_NAME.match(child.name)
        if m and child.is_dir() and (child / CONFIG_FILE).is_file() and (child / WEIGHTS_FILE).is_file():
            found.append((int(m.group(1)), child))
    return sorted(found)


def read_log(run_dir: str | Path) -> list[dict]:
    """The evaluations logged by a run (tolerates a last line cut by a killed process)."""
    path = Path(run_dir) / LOG_FILE
    rows = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return rows


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


def checkpoint_corpus(path: str | Path) -> str | None:
    """The corpus a checkpoint folder was trained on (its config.json's ``train.corpus.name``), or None."""
    try:
        meta = json.loads((Path(path) / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    corpus = (
        meta.get("train", {}).get("corpus") if isinstance(meta, dict) and isinstance(meta.get("train"), dict) else None
    )
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
    cells = [
        (float(scores[l, h]), l, h)
        for l in range(scores.shape[0])
        for h in range(scores.shape[1])
        if np.isfinite(scores[l, h])
    ]
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
    "RUN_FILE",
    "RUN_FORMAT",
    "RUN_VERSION",
    "read_run_manifest",
    "is_run_dir",
    "check_run_dir",
    "claim_run_dir",
    "write_run_manifest",
    "checkpoint_name",
    "checkpoint_step_of",
    "list_checkpoints",
    "read_log",
    "run_dir_of",
    "latest_checkpoint",
    "checkpoint_corpus",
    "new_run_name",
    "unique_run_dir",
    "eta_seconds",
    "format_duration",
    "best_heads",
    "nearest_index",
]
