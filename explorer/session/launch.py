"""What the window opens with, from the command line (``attention-explorer gui …``): one frozen record
instead of twenty keyword arguments, built by explorer/cli/gui_cmd.py without Qt and read by
explorer/ui/shell/app.py's ``launch``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LaunchOptions:
    text: str | None = None  # None: the saved session's text, or the preset's example
    preset: str | None = None
    model: str | None = None  # a path or a named model
    snapshot: str | None = None  # a snapshot file shown read-only
    temporary_snapshot: bool = False  # removed when the window closes (the Python API's show()): not remembered
    opened: Any = None  # that snapshot's Trace, read by the command before any window exists (None: read it then)
    stage: str | None = None
    # gui --layer/--head/--row/--token/--key: selected once the first trace (or the snapshot) shows, as a
    # click would; None: not asked
    layer: int | None = None
    head: int | None = None
    row: int | None = None
    token: int | None = None
    key: int | None = None
    language: str | None = None
    theme: str | None = None
    screenshot: str | None = None  # save the window as this PNG and quit
    size: tuple[int, int] | None = None
    presentation: bool = False
    lesson: Any = None  # a Lesson read (and checked) by the command
    step: int = 0  # its step shown first, 0-based
    interventions: Any = None  # Interventions (gui --ablate / --cut)
    generate: int | None = None  # gui --generate N: N greedy tokens after the first trace
    palette: str | None = None  # gui --palette: the maps' colours (explorer/present/palettes.py)
    text_scale: float | None = None  # gui --text-size: every text's size, 1.0 = 100 %

    def asked_selection(self) -> dict[str, int]:
        """The selection asked for by number (explorer.session.selecting.ASKABLE), without what was not asked."""
        asked = dict(row=self.row, layer=self.layer, head=self.head, token=self.token, key=self.key)
        return {k: v for k, v in asked.items() if v is not None}
