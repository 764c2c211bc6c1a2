"""The training loop: AdamW, warmup + cosine schedule, gradient clipping, held-out loss, checkpoints.

No Qt here. A GUI worker thread drives it like this:

    trainer = Trainer(get_corpus("induction"), preset_config("induction"), TrainSettings(steps=3000),
                      run_dir=folder)
    cancel = threading.Event()           # the Cancel button sets it; checked before every step
    result = trainer.run(callback=on_progress, cancel=cancel)   # on the worker thread
    # on_progress(p: TrainProgress) is called after every step (p.heldout_loss is set on eval steps,
    # p.checkpoint when a checkpoint folder was written at that step). trainer.snapshot() gives a copy of
    # the current weights as a ModelBundle at any time; list_checkpoints(folder) lists the saved ones.

Checkpoints are folders ``run_dir/step-000500`` written atomically, so a cancelled or killed run keeps
every checkpoint it completed. ``run_dir/log.jsonl`` holds one line per evaluation, to redraw the curves.
``run_dir/run.json`` (explorer.train.runs) is written first and marks the folder as a run of this app: a folder
that is not empty and has none is refused, and a run replaces or prunes only checkpoints it wrote itself.
"""

from __future__ import annotations

import copy
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from explorer import __version__
from explorer.config import ModelConfig, check_training_memory
from explorer.errors import ConfigError
from explorer.model import Transformer
from explorer.train.corpora import Batch, Corpus
from explorer.train.losses import batch_loss, context_for, evaluate
from explorer.train.optim import AdamW
from explorer.train.run_folder import RunFolder
from explorer.train.runs import checkpoint_name, list_checkpoints, read_log
from explorer.train.settings import TrainingDiverged, TrainProgress, TrainResult, TrainSettings, default_threads
from explorer.util.devices import resolve_device
from explorer.weights.bundle import ModelBundle
from explorer.weights.checkpoint import save_checkpoint
from explorer.weights.init import init_params

# ------------------------------------------------------------------------------------------------ Trainer


class Trainer:
    """Owns one model and trains it on one corpus. Safe to run on a worker thread."""

    def __init__(
        self,
        corpus: Corpus,
        config: ModelConfig,
        settings: TrainSettings | None = None,
        run_dir: str | Path | None = None,
        init: ModelBundle | torch.nn.Module | None = None,
        command: str | None = None,
    ) -> None:
        self.corpus = corpus
        self.settings = settings or TrainSettings()
        tok = corpus.tokenizer
        if config.vocab_size != tok.vocab_size:
            config = config.replace(vocab_size=tok.vocab_size)
        if config.family != "explorer":
            raise ConfigError("only this app's own models can be trained here")
        self.config = config
        self.context = context_for(corpus, config, self.settings.context)
        self.answer_only = (
            corpus.answer_only_default if self.settings.answer_only is None else self.settings.answer_only
        )
        if self.settings.group_by_length and not corpus.groups_by_length:
            raise ConfigError(
                f"grouping rows by length applies to corpora of one sentence per row, not to {corpus.name} (its "
                "rows are generated, or cut to one length)"
            )
        self.device, self.device_notice = resolve_device(self.settings.device)
        self.run_dir = Path(run_dir) if run_dir is not None else None
        self.command = command
        check_training_memory(config, self.settings.batch_size, self.context)
        self.model = Transformer(config)
        if init is not None:
            src = init.model if isinstance(init, ModelBundle) else init
            try:
                self.model.load_state_dict(src.state_dict())
            except RuntimeError:
                raise ConfigError(
                    "the starting weights do not fit this configuration (different sizes or vocabulary)"
                ) from None
        else:
            init_params(self.model, self.settings.seed)
            if config.tie_embeddings:
                # A tied table is also the unembedding: N(0, 1) rows would give logits of std √E at the
                # start (71 nats of loss at E = 128, V = 16,384). Start it at the unembedding's 1/√E.
                with torch.no_grad():
                    self.model.embed.tok.mul_(config.embed_dim**-0.5)
        self.model.to(self.device)
        self.step = 0
        self._lock = threading.Lock()  # held while the weights change; snapshot() takes it
        self._heldout: list[Batch] | None = None
        self._folder = None if self.run_dir is None else RunFolder(self.run_dir, self._claim())

    # ---------------------------------------------------------------- for the window
    def snapshot(self) -> ModelBundle:
        """A copy of the current weights (float32, CPU) as a bundle, safe to trace while training goes on."""
        with self._lock:
            model = copy.deepcopy(self.model).to("cpu").eval()
            step = self.step
        return ModelBundle(
            self.config,
            self.corpus.tokenizer,
            model,
            f"training:{self.corpus.name}@{step}",
            self.settings.seed,
            name=f"step {step}",
        )

    def heldout_batches(self) -> list[Batch]:
        if self._heldout is None:
            self._heldout = self.corpus.heldout_batches(self.context, self.answer_only)
        return self._heldout

    def evaluate(self) -> dict[str, float]:
        return evaluate(self.model, self.corpus, self.context, self.answer_only, self.heldout_batches(), self.device)

    # ---------------------------------------------------------------- checkpoints
    def _claim(self) -> dict[str, Any]:
        """What run.json says of this run."""
        return {
            "corpus": self.corpus.spec(),
            "config": self.config.to_dict(),
            **({"command": self.command} if self.command else {}),
        }

    def _train_meta(self, loss: float | None, heldout: float | None, elapsed: float, tokens: int) -> dict[str, Any]:
        return {
            "corpus": self.corpus.spec(),
            "settings": self.settings.to_dict(),
            "seed": self.settings.seed,
            "context": self.context,
            "answer_only": self.answer_only,
            "loss": loss,
            "heldout_loss": heldout,
            "elapsed_s": round(elapsed, 3),
            "tokens_seen": tokens,
            "torch": torch.__version__,
            "app_version": __version__,
            **({"command": self.command} if self.command else {}),
        }

    def save(
        self,
        folder: str | Path,
        loss: float | None = None,
        heldout: float | None = None,
        elapsed: float = 0.0,
        tokens: int = 0,
        extra_files: dict[str, str] | None = None,
        train_notes: dict[str, Any] | None = None,
    ) -> Path:
        """``train_notes``: more of what the run did, for the checkpoint's "train" block (a second phase)."""
        with self._lock:
            return save_checkpoint(
                self.model,
                folder,
                config=self.config,
                tokenizer=self.corpus.tokenizer,
                step=self.step,
                train={**self._train_meta(loss, heldout, elapsed, tokens), **(train_notes or {})},
                extra_files=extra_files,
            )

    def _checkpoint(self, loss, heldout, elapsed, tokens) -> Path | None:
        if self._folder is None:
            return None
        return self._folder.write_checkpoint(
            self.step,
            lambda target: self.save(target, loss, heldout, elapsed, tokens),
            self.settings.keep_checkpoints,
        )

    def _log(self, row: dict[str, Any]) -> None:
        if self._folder is not None:
            self._folder.log(row)

    # ---------------------------------------------------------------- the loop
    def run(
        self,
        callback: Callable[[TrainProgress], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> TrainResult:
        s = self.settings
        threads_before = torch.get_num_threads()
        torch.set_num_threads(s.threads or default_threads(self.config))
        try:
            return self._run(callback, cancel)
        finally:
            torch.set_num_threads(threads_before)

    def _optimizer(self) -> AdamW:
        s = self.settings
        decay = [p for n, p in self.model.named_parameters() if p.ndim >= 2]
        no_decay = [p for n, p in self.model.named_parameters() if p.ndim < 2]
        groups = [{"params": decay, "weight_decay": s.weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
        return AdamW(groups, lr=s.lr, betas=s.betas)

    def _run(self, callback, cancel) -> TrainResult:
        s = self.settings
        self.model.train()
        opt = self._optimizer()
        batches = self._batches()
        st = _RunState()
        # Step 0: the untrained model, so curves and the checkpoint timeline start at random weights.
        self._evaluate_now(st, None)
        ckpt0 = None
        if s.checkpoint_every > 0:
            ckpt0 = st.last_ckpt = self._checkpoint(None, st.heldout, 0.0, 0)
            st.last_ckpt_step = 0
        if callback is not None:
            callback(TrainProgress(0, s.steps, None, st.heldout, 0.0, s.lr_at(0), 0.0, ckpt0, dict(st.metrics)))
        cancelled = False
        while self.step < s.steps:
            if cancel is not None and cancel.is_set():
                cancelled = True
                break
            lr = self._step(opt, next(batches), st)
            self._after_step(st, lr, callback)
        return self._finish(st, cancelled)

    def _batches(self) -> Iterator[Batch]:
        s = self.settings
        if not s.group_by_length:
            return self.corpus.train_batches(s.batch_size, self.context, s.seed, self.answer_only)
        return self.corpus.train_batches(s.batch_size, self.context, s.seed, self.answer_only, by_length=True)

    def _step(self, opt: AdamW, batch: Batch, st: _RunState) -> float:
        """One optimiser step on ``batch``; returns its learning rate."""
        s = self.settings
        t0 = time.perf_counter()
        batch = batch.to(self.device)
        lr = s.lr_at(self.step)
        for g in opt.param_groups:
            g["lr"] = lr
        loss = batch_loss(self.model, batch)
        st.loss = float(loss.detach())
        if not math.isfinite(st.loss):
            raise TrainingDiverged(
                f"training diverged at step {self.step + 1} (the loss is {st.loss}); lower the learning rate"
                + (f"; the last good checkpoint is {st.last_ckpt}" if st.last_ckpt else "")
            )
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if s.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), s.grad_clip)
        with self._lock:
            opt.step()
            self.step += 1
        st.window.append((batch.tokens, time.perf_counter() - t0))
        st.tokens_seen += batch.tokens
        st.recent_losses.append(st.loss)
        return lr

    def _after_step(self, st: _RunState, lr: float, callback) -> None:
        """Evaluate and checkpoint when due, then tell the callback."""
        s = self.settings
        step_heldout = None
        ckpt = None
        final = self.step == s.steps
        if (s.eval_every and self.step % s.eval_every == 0) or final:
            self._evaluate_now(st, st.loss)
            step_heldout = st.heldout
        if (s.checkpoint_every and self.step % s.checkpoint_every == 0) or final:
            ckpt = st.last_ckpt = self._checkpoint(st.loss, st.heldout, time.perf_counter() - st.start, st.tokens_seen)
            st.last_ckpt_step = self.step
        if callback is not None:
            callback(
                TrainProgress(
                    self.step,
                    s.steps,
                    st.loss,
                    step_heldout,
                    st.tps(),
                    lr,
                    time.perf_counter() - st.start,
                    ckpt,
                    dict(st.metrics) if step_heldout is not None else {},
                )
            )

    def _evaluate_now(self, st: _RunState, loss: float | None) -> None:
        ev = self.evaluate()
        st.heldout = ev["heldout_loss"]
        st.metrics = {k: v for k, v in ev.items() if k not in ("heldout_loss", "tokens")}
        row = {
            "step": self.step,
            "loss": loss,
            "heldout_loss": st.heldout,
            "tokens_per_s": round(st.tps(), 1),
            "elapsed_s": round(time.perf_counter() - st.start, 3),
            **st.metrics,
        }
        st.history.append(row)
        self._log(row)

    def _finish(self, st: _RunState, cancelled: bool) -> TrainResult:
        s = self.settings
        elapsed = time.perf_counter() - st.start
        if cancelled and s.save_on_cancel and self.step > st.last_ckpt_step and self.run_dir is not None:
            if not st.history or st.history[-1]["step"] != self.step:
                self._evaluate_now(st, st.loss)
            st.last_ckpt = self._checkpoint(st.loss, st.heldout, elapsed, st.tokens_seen)
        self.model.eval()
        return TrainResult(
            steps=self.step,
            total_steps=s.steps,
            cancelled=cancelled,
            loss=float(np.mean(st.recent_losses)) if st.recent_losses else None,
            heldout_loss=st.heldout,
            metrics=st.metrics,
            elapsed_s=elapsed,
            cpu_s=time.process_time() - st.cpu_start,
            tokens_per_s=st.tokens_seen / elapsed if elapsed > 0 else 0.0,
            tokens_seen=st.tokens_seen,
            checkpoint=st.last_ckpt,
            history=st.history,
            bundle=self.snapshot(),
        )


@dataclass
class _RunState:
    """What one run() keeps between steps: timing, the recent losses, the last evaluation and checkpoint."""

    start: float = field(default_factory=time.perf_counter)
    cpu_start: float = field(default_factory=time.process_time)
    window: deque = field(default_factory=lambda: deque(maxlen=20))  # (tokens, seconds) of the last steps
    recent_losses: deque = field(default_factory=lambda: deque(maxlen=50))
    history: list[dict[str, Any]] = field(default_factory=list)
    tokens_seen: int = 0
    loss: float | None = None  # the last step's training loss
    heldout: float | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    last_ckpt: Path | None = None
    last_ckpt_step: int = -1

    def tps(self) -> float:
        t = sum(x[1] for x in self.window)
        return sum(x[0] for x in self.window) / t if t > 0 else 0.0


def train(
    corpus: Corpus,
    config: ModelConfig,
    settings: TrainSettings | None = None,
    run_dir: str | Path | None = None,
    callback: Callable[[TrainProgress], None] | None = None,
    cancel: threading.Event | None = None,
    init: ModelBundle | None = None,
) -> TrainResult:
    """Train a fresh model of ``config`` (V taken from the corpus) on ``corpus``; see Trainer."""
    return Trainer(corpus, config, settings, run_dir, init).run(callback, cancel)


__all__ = [  # settings, losses and runs are re-exported: callers import them from here
    "TrainSettings",
    "TrainProgress",
    "TrainResult",
    "Trainer",
    "TrainingDiverged",
    "train",
    "evaluate",
    "list_checkpoints",
    "read_log",
    "context_for",
    "batch_loss",
    "checkpoint_name",
    "default_threads",
]
