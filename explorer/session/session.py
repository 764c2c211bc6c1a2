"""The Session run without Qt: a state (explorer/session/records.py), each action handed to ``step``
(explorer/session/step.py), and the effects kept in order for whoever carries them out. Tests and scripts
drive it; the window's bridge (explorer/ui/bridge/state.py) does the same, turning effects into jobs and signals.
"""

from __future__ import annotations

from collections.abc import Callable

from explorer.config import RunOptions
from explorer.session.actions import ModelPathResolved
from explorer.session.effects import ResolveModelPath, RunTrace
from explorer.session.records import RunFolderShown
from explorer.session.request import ModelSource, TraceRequest
from explorer.session.step import initial_state, step

Resolver = Callable[[str], tuple[str, RunFolderShown | None]]


class Session:
    def __init__(
        self,
        text: str | None = None,
        source: ModelSource | None = None,
        options: RunOptions | None = None,
        resolve_path: Resolver | None = None,
    ) -> None:
        """``resolve_path`` carries out ResolveModelPath (explorer.session.open.resolve_model_path, which reads
        the file system); without it that effect is only kept."""
        self.state = initial_state(text, source, options)
        self.effects: list = []
        self.resolve_path = resolve_path

    def do(self, action: object) -> TraceRequest | None:
        """Take ``action``: the request it asks to compute (its RunTrace's), or None."""
        self.state, effects = step(self.state, action)
        self.effects.extend(effects)
        asked = None
        for effect in effects:
            if isinstance(effect, RunTrace):
                asked = effect.request
            elif isinstance(effect, ResolveModelPath) and self.resolve_path is not None:
                asked = self.do(ModelPathResolved(effect.asked, *self.resolve_path(effect.asked)))
        return asked

    def take_effects(self) -> list:
        """The effects since the last call, in order."""
        effects, self.effects = self.effects, []
        return effects
