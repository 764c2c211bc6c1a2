"""The folder one training run writes to (explorer.train.loop's ``run_dir``): claimed before its first write
(run.json, explorer.train.runs), checkpoints written under their step's name and pruned to the number kept,
run.json listing them newest last, log.jsonl appended one line per evaluation. A run replaces or prunes only
checkpoints it wrote itself."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from explorer.errors import SnapshotError
from explorer.train.runs import LOG_FILE, checkpoint_name, claim_run_dir, read_run_manifest, write_run_manifest
from explorer.util.fileio import describe_os_error


class RunFolder:
    def __init__(self, path: Path, claim: dict[str, Any]) -> None:
        self.path = path
        self._claim = claim  # what run.json says of the run (corpus, config, command)
        self._claimed = False  # path checked and its run.json written (on the first write)
        self._written: list[Path] = []  # checkpoint folders this run wrote, oldest first

    def claim(self) -> None:
        """Before the first write: the run folder must be new, empty or an empty run of this app (explorer.train.runs);
        its run.json says so to every later reader (and to a later run pointed at the same folder)."""
        if self._claimed:
            return
        claim_run_dir(self.path, **self._claim)
        self._claimed = True

    def write_checkpoint(self, step: int, save: Callable[[Path], Path], keep: int | None) -> Path:
        """The checkpoint of ``step`` written by ``save(target)``; older periodic ones beyond ``keep`` removed."""
        self.claim()
        target = self.path / checkpoint_name(step)
        if os.path.lexists(target) and target not in self._written:
            # Put there while the run went on: not ours to replace.
            raise SnapshotError(f"cannot write {target}: something this run did not write is in its place")
        path = save(target)
        if path in self._written:
            self._written.remove(path)
        self._written.append(path)
        if keep is not None and keep > 0:
            periodic = [p for p in self._written if p.name != checkpoint_name(0)]  # the random start stays
            for old in periodic[: max(0, len(periodic) - keep)]:
                shutil.rmtree(old, ignore_errors=True)
                self._written.remove(old)
        self._update_manifest(step)
        return path

    def _update_manifest(self, step: int) -> None:
        """run.json lists the checkpoints, newest last, for whoever opens the run folder as a model."""
        meta = {
            k: v
            for k, v in (read_run_manifest(self.path) or {}).items()
            if k not in ("format", "version", "app_version")
        }
        meta.update(
            checkpoints=[p.name for p in self._written],
            latest=self._written[-1].name if self._written else None,
            step=step,
        )
        write_run_manifest(self.path, meta)

    def log(self, row: dict[str, Any]) -> None:
        self.claim()  # the log is appended to only in a run folder this app made
        try:
            with open(self.path / LOG_FILE, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
        except OSError as exc:  # an unwritable --out or a full disk: one line, not a traceback
            raise SnapshotError(
                describe_os_error(exc, self.path if not self.path.is_dir() else self.path / LOG_FILE)
            ) from None
