"""``attention-explorer train``: train a model on a corpus or task, writing checkpoint folders.

    attention-explorer train --corpus induction --steps 3000 --out runs/induction
    attention-explorer train --corpus tiny-en -E 32 -H 2 --steps 500
    attention-explorer train --corpus my-notes.txt --word-level --steps 2000

A progress bar goes to stderr, one summary line to stdout. Ctrl-C stops after the current step and keeps
(and saves) the weights reached so far.
"""

from __future__ import annotations

import argparse
import math
import shlex
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.cli.model_options import _sizes, add_size_options
from explorer.errors import Cancelled, ConfigError
from explorer.train.corpora import NAMES, TEACHES, get_corpus
from explorer.train.settings import default_recipe
from explorer.weights.presets import PRESETS, preset_config

if TYPE_CHECKING:
    from explorer.train.loop import TrainProgress

# The recipe for each corpus (steps, batch size, learning rate) is explorer.train.settings.default_recipe, the
# one the window's Train panel starts from too.


def add_parser(sub) -> None:
    corpora = ", ".join(f"{n} ({TEACHES[n]})" for n in NAMES)
    p = sub.add_parser(
        "train",
        help="train a model on a corpus or an algorithmic task",
        description=f"Train on a corpus: {corpora}; or on any UTF-8 text file given by its path.",
    )
    p.add_argument("--corpus", required=True, metavar="NAME_OR_PATH", help=f"{', '.join(NAMES)} or a UTF-8 text file")
    p.add_argument("--word-level", action="store_true", help="text files: word-level tokens (default: characters)")
    p.add_argument(
        "--preset",
        choices=list(PRESETS),
        help="sizes to start from (default: classroom for text, japanese for tiny-ja, induction for tasks)",
    )
    g = p.add_argument_group("model sizes (override the preset's)")
    add_size_options(g)
    t = p.add_argument_group("training")
    t.add_argument("--steps", type=int, help="optimizer steps (default depends on the corpus)")
    t.add_argument("--batch-size", type=int, help="rows per step")
    t.add_argument("--lr", type=float, help="peak learning rate (AdamW; warmup, then cosine to a tenth)")
    t.add_argument("--warmup", type=int, help="warmup steps (default min(100, steps/10))")
    t.add_argument("--weight-decay", type=float, default=0.01)
    t.add_argument("--grad-clip", type=float, default=1.0, help="max gradient norm (0: off)")
    t.add_argument("--context", type=int, help="longest row in tokens (default: the corpus's)")
    t.add_argument("--seed", type=int, default=0, help="seed of the initial weights and of the batches")
    t.add_argument(
        "--answer-only",
        dest="answer_only",
        action="store_true",
        default=None,
        help="tasks: loss only on the answer part",
    )
    t.add_argument("--all-positions", dest="answer_only", action="store_false", help="tasks: loss on every position")
    t.add_argument(
        "--group-by-length",
        action="store_true",
        help="sentence corpora: each batch takes rows of about the same length (less padding computed)",
    )
    t.add_argument("--eval-every", type=int, default=100, help="held-out loss every N steps")
    t.add_argument(
        "--checkpoint-every", type=int, help="a checkpoint every N steps (default steps/10; 0: only at the end)"
    )
    t.add_argument("--keep", type=int, help="keep only the newest N periodic checkpoints")
    t.add_argument("--out", metavar="DIR", help="run folder (default runs/<corpus>-<time>)")
    t.add_argument("--device", default="cpu", help="cpu, cuda, cuda:N or mps")
    t.add_argument("--threads", type=int, help="CPU threads (default 1 for small models)")
    t.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


class _Bar:
    """tqdm when it is installed, else a one-line text bar redrawn with \\r (both on stderr)."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total, self.quiet = total, quiet
        self.tqdm = None
        self._last = 0.0
        self.heldout = None
        if quiet:
            return
        try:
            from tqdm import tqdm

            self.tqdm = tqdm(total=total, unit="step", file=sys.stderr, dynamic_ncols=True, leave=True)
        except ImportError:
            pass

    def update(self, p: TrainProgress) -> None:
        if self.quiet:
            return
        if p.heldout_loss is not None:
            self.heldout = p.heldout_loss
        info = f"loss {p.loss:.3f}" if p.loss is not None else "loss –"
        if self.heldout is not None:
            info += f" held-out {self.heldout:.3f}"
        info += f" {p.tokens_per_s:,.0f} tok/s"
        if self.tqdm is not None:
            self.tqdm.n = p.step
            self.tqdm.set_postfix_str(info, refresh=False)
            self.tqdm.refresh()
            return
        now = time.monotonic()
        if now - self._last < 0.2 and p.step != self.total:
            return
        self._last = now
        width = 30
        done = int(width * p.step / max(1, self.total))
        sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {p.step}/{self.total} {info}   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        elif not self.quiet:
            sys.stderr.write("\n")
            sys.stderr.flush()


def resolve_config(args: argparse.Namespace, corpus):
    preset = args.preset or corpus.default_preset
    sizes = _sizes(args)
    config = preset_config(preset, **sizes).replace(vocab_size=corpus.tokenizer.vocab_size)
    return preset, config


def settings_from(args: argparse.Namespace, corpus):
    """TrainSettings from the command line, the corpus's default recipe filling what was not given."""
    from explorer.train.loop import TrainSettings  # torch loads here

    recipe = default_recipe(corpus.name)
    steps = args.steps if args.steps is not None else recipe["steps"]
    if steps is not None and steps < 1:
        raise ConfigError(f"--steps must be at least 1, got {steps}")
    every = args.checkpoint_every if args.checkpoint_every is not None else max(1, steps // 10)
    return TrainSettings(
        steps=steps,
        batch_size=args.batch_size or recipe["batch_size"],
        lr=args.lr if args.lr is not None else recipe["lr"],
        warmup=args.warmup,
        weight_decay=args.weight_decay,
        grad_clip=args.grad_clip,
        context=args.context,
        seed=args.seed,
        eval_every=max(0, args.eval_every),
        checkpoint_every=max(0, every),
        keep_checkpoints=args.keep,
        answer_only=args.answer_only,
        device=args.device,
        threads=args.threads,
        group_by_length=args.group_by_length,
    )


def run(args: argparse.Namespace) -> int:
    from explorer.train.loop import Trainer  # torch loads here
    from explorer.train.runs import check_run_dir

    corpus = get_corpus(args.corpus, word_level=args.word_level)
    preset, config = resolve_config(args, corpus)
    settings = settings_from(args, corpus)
    label = Path(corpus.name).stem if corpus.name not in NAMES else corpus.name
    out = Path(args.out) if args.out else Path("runs") / f"{label}-{time.strftime('%Y%m%d-%H%M%S')}"
    check_run_dir(out)  # new, empty, or an empty run of this app; never a user's folder (explorer.train.runs)
    command = (
        "attention-explorer " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["train"] else None
    )
    trainer = Trainer(corpus, config, settings, out, command=command)
    if trainer.device_notice:
        print(f"note: {trainer.device_notice}", file=sys.stderr)
    if not args.quiet:
        print(
            f"training {preset} sizes (E={config.E}, D={config.D}, H={config.H}, L={config.L}, V={config.V}, "
            f"{config.parameter_count():,} parameters) on {label} for {settings.steps} steps → {out}",
            file=sys.stderr,
        )
    result = _run_until_ctrl_c(trainer, _Bar(settings.steps, args.quiet))

    from explorer.train.evaluate import baselines_for

    print(summary_line(result, baselines_for(corpus, trainer.context, trainer.answer_only)))
    if result.cancelled:
        raise Cancelled(f"training stopped at step {result.steps}; the last checkpoint is {result.checkpoint}")
    return 0


def _run_until_ctrl_c(trainer, bar: _Bar):
    """Run the trainer; the first Ctrl-C stops it after the current step, a second one at once."""
    cancel = threading.Event()
    previous = None
    if threading.current_thread() is threading.main_thread():

        def on_sigint(signum, frame):
            if cancel.is_set():
                raise KeyboardInterrupt
            cancel.set()

        previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        return trainer.run(bar.update, cancel)
    finally:
        bar.close()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def summary_line(result, base: dict) -> str:
    """The one line on stdout: steps, time, losses next to the baselines, accuracy, the last checkpoint."""
    held = result.heldout_loss
    parts = [f"{'stopped' if result.cancelled else 'trained'} {result.steps} steps in {result.elapsed_s:.1f} s"]
    if result.loss is not None:
        parts.append(f"loss {result.loss:.3f}")
    if held is not None and math.isfinite(held):
        parts.append(
            f"held-out {held:.3f} nats/token (unigram {base['unigram_loss']:.3f}, bigram {base['bigram_loss']:.3f})"
        )
    if "accuracy" in result.metrics:
        parts.append(f"answer accuracy {result.metrics['accuracy']:.1%}")
    if result.checkpoint is not None:
        parts.append(f"checkpoint {result.checkpoint}")
    return ", ".join(parts)
