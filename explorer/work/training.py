"""A training run as background work (plain Python; the window's job runner runs it on a thread of its own).
The core Trainer does the work; this only reads the corpus, builds the trainer, and turns its per-step
callback into reports, batched, so that a tiny model doing hundreds of steps a second does not flood the GUI
thread. Cancel sets an event the loop checks before every step; the checkpoints already written stay.

Each checkpoint's weights go into the job runner's model cache under the checkpoint folder's path (a
ModelSource of kind "path"), from this thread: the window is told the folder, never handed the model.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.config import ModelConfig
from explorer.session.request import ModelSource
from explorer.work.model_cache import ModelCache

if TYPE_CHECKING:
    from explorer.train.loop import TrainSettings
    from explorer.work.report import Report, Work

EMIT_EVERY_S = 0.1  # progress reaches the window at most ten times a second (and at every evaluation)


@dataclass(frozen=True)
class TrainRequest:
    corpus: str  # tiny-en, tiny-ja, english, copy, reverse, sort, induction, or a UTF-8 text file's path
    config: ModelConfig  # the sizes to train (V is replaced by the corpus's vocabulary)
    settings: TrainSettings
    run_dir: Path
    shown_vocab: tuple[str, ...] | None = None  # the shown model's vocabulary, to tell whether it fits the corpus
    init_source: ModelSource | None = None  # whose weights to start from; None: random (seed)


@dataclass(frozen=True)
class TrainPrepared:
    """What the run turned out to be, once the corpus is read."""

    corpus: str
    config: ModelConfig  # as trained: the corpus's V
    vocab_matches: bool  # the shown model already used this corpus's tokens
    example: str  # a held-out row, to trace while training
    run_dir: Path


@dataclass(frozen=True)
class CheckpointSaved:
    """A checkpoint was written (``folder``); its weights are in the model cache under ModelSource("path", folder)."""

    step: int
    folder: str


class _Run:
    def __init__(self, request: TrainRequest, models: ModelCache, report: Report, cancel: threading.Event) -> None:
        self.request, self.models, self.report, self.cancel = request, models, report, cancel
        self._buffer: list = []
        self._last_emit = 0.0
        self.trainer: Any = None

    def flush(self) -> None:
        if self._buffer:
            batch, self._buffer = self._buffer, []
            self.report.send(batch)  # list[TrainProgress] since the last one
        self._last_emit = time.perf_counter()

    def on_progress(self, p) -> None:
        self._buffer.append(p)
        if p.checkpoint is not None:
            self.flush()
            # The callback runs right after the save, before the next step: the snapshot is those weights.
            self.models.put(ModelSource("path", str(p.checkpoint)), self.trainer.snapshot())
            self.report.send(CheckpointSaved(p.step, str(p.checkpoint)))
        elif p.heldout_loss is not None or time.perf_counter() - self._last_emit >= EMIT_EVERY_S:
            self.flush()

    def prepare(self) -> TrainPrepared:
        from explorer.train.corpora import get_corpus
        from explorer.train.loop import Trainer, context_for

        r = self.request
        corpus = get_corpus(r.corpus)
        tok = corpus.tokenizer
        config = r.config.replace(vocab_size=tok.vocab_size)
        matches = r.shown_vocab is not None and tuple(r.shown_vocab) == tuple(tok.display_vocab())
        init = None
        if r.init_source is not None and matches:
            init = self.models.get(r.init_source, cancel=self.cancel)  # the one opening path (open_source)
        context = context_for(corpus, config, r.settings.context)
        rows = corpus.heldout_sequences(context)
        example = tok.decode(rows[0].ids.tolist()) if rows else ""
        self.trainer = Trainer(corpus, config, r.settings, r.run_dir, init=init)
        return TrainPrepared(corpus.name, self.trainer.config, matches, example, r.run_dir)

    def __call__(self) -> Any:
        try:
            self.report.send(self.prepare())
            result = self.trainer.run(self.on_progress, self.cancel)
            if result.checkpoint is not None and result.bundle is not None:
                self.models.put(ModelSource("path", str(result.checkpoint)), result.bundle)
            return result
        finally:
            self.flush()
            self.trainer = None


def training_work(request: TrainRequest, models: ModelCache) -> Work:
    """Train as ``request`` says; sends TrainPrepared, then lists of TrainProgress and CheckpointSaved as they
    come; returns the TrainResult (a cancelled run too: ``result.cancelled``)."""

    def work(report: Report, cancel: threading.Event) -> Any:
        return _Run(request, models, report, cancel)()

    return work
