"""One training run on a background thread. The core Trainer does the work; this thread only reads the
corpus, builds the trainer, and turns its per-step callback into Qt signals (batched, so that a tiny model
doing hundreds of steps a second does not flood the GUI thread). Cancel sets an event the loop checks before
every step; the checkpoints already written stay.
"""

from __future__ import annotations

import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QThread, Signal

from explorer.config import ModelConfig
from explorer.errors import ExplorerError

if TYPE_CHECKING:
    from explorer.train.loop import TrainSettings

EMIT_EVERY_S = 0.1  # progress reaches the window at most ten times a second (and at every evaluation)


@dataclass(frozen=True)
class TrainRequest:
    corpus: str  # tiny-en, tiny-ja, copy, reverse, sort, induction, or a UTF-8 text file's path
    config: ModelConfig  # the sizes to train (V is replaced by the corpus's vocabulary)
    settings: TrainSettings
    run_dir: Path
    shown_vocab: tuple[str, ...] | None = None  # the shown model's vocabulary, to tell whether it fits the corpus
    init_source: object | None = None  # a ModelSource whose weights to start from; None: random (seed)


@dataclass(frozen=True)
class TrainPrepared:
    """What the run turned out to be, once the corpus is read."""

    corpus: str
    config: ModelConfig  # as trained: the corpus's V
    vocab_matches: bool  # the shown model already used this corpus's tokens
    example: str  # a held-out row, to trace while training
    run_dir: Path


class TrainJob(QThread):
    prepared = Signal(object)  # TrainPrepared
    progressed = Signal(object)  # list[TrainProgress] since the last emit
    checkpointReady = Signal(int, str, object)  # step, folder, ModelBundle (a copy of the weights saved there)
    succeeded = Signal(object)  # TrainResult (cancelled runs too: result.cancelled)
    failed = Signal(str)  # one-line message

    def __init__(self, request: TrainRequest, parent=None) -> None:
        super().__init__(parent)
        self.request = request
        self._cancel = threading.Event()
        self._buffer: list = []
        self._last_emit = 0.0
        self._trainer = None

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    # ------------------------------------------------------------------ worker thread
    def _flush(self) -> None:
        if self._buffer:
            batch, self._buffer = self._buffer, []
            self.progressed.emit(batch)
        self._last_emit = time.perf_counter()

    def _on_progress(self, p) -> None:
        self._buffer.append(p)
        if p.checkpoint is not None:
            self._flush()
            # The callback runs right after the save, before the next step: the snapshot is those weights.
            self.checkpointReady.emit(p.step, str(p.checkpoint), self._trainer.snapshot())
        elif p.heldout_loss is not None or time.perf_counter() - self._last_emit >= EMIT_EVERY_S:
            self._flush()

    def _prepare(self):
        from explorer.train.corpora import get_corpus
        from explorer.train.loop import Trainer, context_for

        r = self.request
        corpus = get_corpus(r.corpus)
        tok = corpus.tokenizer
        config = r.config.replace(vocab_size=tok.vocab_size)
        matches = r.shown_vocab is not None and tuple(r.shown_vocab) == tuple(tok.display_vocab())
        init = None
        if r.init_source is not None and matches:
            from explorer.ui.worker import build_bundle

            init = build_bundle(r.init_source, cancel=self._cancel)
        context = context_for(corpus, config, r.settings.context)
        rows = corpus.heldout_sequences(context)
        example = tok.decode(rows[0].ids.tolist()) if rows else ""
        trainer = Trainer(corpus, config, r.settings, r.run_dir, init=init)
        return trainer, TrainPrepared(corpus.name, trainer.config, matches, example, r.run_dir)

    def run(self) -> None:  # noqa: D401 - QThread entry point
        try:
            self._trainer, info = self._prepare()
            self.prepared.emit(info)
            result = self._trainer.run(self._on_progress, self._cancel)
            self._flush()
        except ExplorerError as exc:
            self._flush()
            self.failed.emit(str(exc))
        except MemoryError:
            self.failed.emit("out of memory: make the model or the batch smaller")
        except BaseException as exc:  # noqa: BLE001 - a bug or a Rust panic (a BaseException): one line here,
            # the details on stderr; a job that ended without a word left the Train panel waiting forever
            traceback.print_exc()
            self.failed.emit(f"internal error ({type(exc).__name__}: {exc}); please report it")
        else:
            self.succeeded.emit(result)
        finally:
            self._trainer = None
