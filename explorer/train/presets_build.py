"""Train the shipped presets: ``make presets`` (or ``python -m explorer.train.presets_build``).

    python -m explorer.train.presets_build                     # all three, into resources/presets/
    python -m explorer.train.presets_build --only induction    # one of them
    python -m explorer.train.presets_build --out /tmp/presets  # somewhere else (to compare)

Each preset folder gets model.safetensors, config.json and tokenizer.json (a checkpoint, written
atomically) and metrics.json: the recipe, the training time and the held-out figures next to the
baselines. Training is deterministic for a given seed, torch version and one thread; with two (classroom)
the sums come out in another order from run to run (its first phase: 5.252, then 5.248 when rebuilt).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from explorer.train.corpora import get_corpus
from explorer.train.corpora_text import shipped_part
from explorer.train.evaluate import baselines_for, english_word_figures
from explorer.train.loop import Trainer, TrainSettings, evaluate
from explorer.util.paths import resource
from explorer.vocab import METRICS_FILE
from explorer.weights.presets import get_preset, preset_config


@dataclass(frozen=True)
class Anneal:
    """A second, short phase: from the first phase's weights, train on some of the corpus's training files
    with a learning rate that falls to a tenth again. The preset is still scored on the whole corpus."""

    files: tuple[str, ...]  # training files of the recipe's corpus (corpora_text.SHIPPED_FILES)
    settings: TrainSettings


@dataclass(frozen=True)
class Recipe:
    preset: str
    corpus: str
    settings: TrainSettings
    corpus_options: dict = field(default_factory=dict)  # get_corpus's options (task lengths, prefix, …)
    anneal: Anneal | None = None


RECIPES: dict[str, Recipe] = {
    r.preset: r
    for r in (
        # english: WordNet's examples and definitions, fortune cookies, Bierce, Austen and tiny-en (258,795
        # rows, 3.2M tokens); rows grouped by length (a third of the padding computed), two threads (the
        # 16,384-word unembedding splits well): about 4 epochs in under an hour on a 2-core machine.
        Recipe(
            "classroom",
            "english",
            TrainSettings(
                steps=12000, batch_size=96, lr=3e-3, seed=0, eval_every=1000, threads=2, group_by_length=True
            ),
            # then 500 steps on the sayings alone (the other cookie files, Bierce): 5.25 → 5.12 on the held-out
            # cookies, 22 of 26 cloze prompts (was 21); longer overfits them (docs/training.md, "Shipped presets")
            anneal=Anneal(
                ("english/fortunes.txt.gz", "english/devil.txt.gz"),
                TrainSettings(
                    steps=500, batch_size=96, lr=1e-3, seed=1, eval_every=100, threads=2, group_by_length=True
                ),
            ),
        ),
        Recipe(
            "japanese", "tiny-ja", TrainSettings(steps=2000, batch_size=64, lr=3e-3, seed=0, eval_every=250, threads=1)
        ),
        # lr 2e-3: at 1e-3 the model stalls for thousands of steps on one-letter matching (p ≈ 0.75).
        # Strings of 3–30 letters after 0–8 others; the loss only on the repeated half (the first copy is
        # noise: learning it punishes copying at every chance repeat); half the rows with distinct letters,
        # so a letter seen once before means "copy" (see docs/training.md, "Induction at every length").
        Recipe(
            "induction",
            "induction",
            TrainSettings(steps=4000, batch_size=64, lr=2e-3, seed=0, eval_every=250, threads=1, answer_only=True),
            dict(min_len=3, max_len=30, max_prefix=8, min_alphabet=13, distinct=0.5),
        ),
    )
}


def build(name: str, out_root: Path, log=print) -> dict:
    recipe = RECIPES[name]
    preset = get_preset(name)
    corpus = get_corpus(recipe.corpus, **recipe.corpus_options)
    config = preset_config(name)
    command = f"python -m explorer.train.presets_build --only {name}"
    trainer = Trainer(corpus, config, recipe.settings, run_dir=None, command=command)
    result = trainer.run(_progress(name, log))
    notes = {}
    if recipe.anneal is not None:
        result, notes = _anneal(trainer, recipe.anneal, result, _progress(f"{name} (second phase)", log))
    figures = evaluate(trainer.model, corpus, trainer.context, trainer.answer_only)
    base = baselines_for(corpus, trainer.context, trainer.answer_only)
    metrics = {**_metrics(recipe, trainer, result, figures, base, command), **notes}
    if name == "induction":
        metrics["induction"] = _induction_metrics(trainer.snapshot())
    if recipe.corpus == "english":  # whole words and cloze (issue 38): also what `eval` prints
        metrics.update({k: round(v, 4) for k, v in english_word_figures(trainer.snapshot()).items()})
    folder = out_root / (preset.checkpoint or name)
    trainer.save(
        folder,
        loss=result.loss,
        heldout=figures["heldout_loss"],
        elapsed=result.elapsed_s,
        tokens=result.tokens_seen,
        extra_files={METRICS_FILE: json.dumps(metrics, ensure_ascii=False, indent=2) + "\n"},
        train_notes=notes,
    )
    size = sum(f.stat().st_size for f in folder.iterdir())
    log(
        f"{name}: {result.steps} steps in {result.elapsed_s:.0f} s, held-out {figures['heldout_loss']:.3f} "
        f"(unigram {base['unigram_loss']:.3f}, bigram {base['bigram_loss']:.3f}) nats/token, {size / 1024:.0f} "
        f"KiB → {folder}"
    )
    if "induction" in metrics:
        ind = metrics["induction"]
        log(
            f"  induction: p(correct) {ind['correct_prob']:.3f}, accuracy {ind['accuracy']:.3f}, best head "
            f"L{ind['best_head'][0]}H{ind['best_head'][1]} ({ind['best_score']:.3f})"
        )
        for key in ("by_length", "by_length_after_prefix"):
            log(f"  {key}: " + " ".join(f"{n}:{v:.3f}" for n, v in ind[key].items()))
    return metrics


def _progress(label: str, log):
    def progress(p):
        if p.heldout_loss is not None:
            extra = "".join(f" {k} {v:.3f}" for k, v in p.metrics.items())
            loss = f"{p.loss:.3f}" if p.loss is not None else "–"
            log(
                f"  {label} step {p.step:5d}  loss {loss}  held-out {p.heldout_loss:.3f}{extra}  "
                f"{p.tokens_per_s:,.0f} tok/s  {p.elapsed_s:.0f} s"
            )

    return progress


def _anneal(trainer: Trainer, anneal: Anneal, first, progress):
    """The second phase, from ``trainer``'s weights; they come back into ``trainer``, whose corpus (the whole
    one) the preset is scored on and names. Returns the two phases' result and what metrics.json and the
    checkpoint say of the second (its files, settings, steps and held-out loss before and after)."""
    second = Trainer(
        shipped_part(trainer.corpus.name, anneal.files), trainer.config, anneal.settings, init=trainer.model
    )
    r2 = second.run(progress)
    trainer.model.load_state_dict(second.model.state_dict())
    trainer.step += r2.steps
    both = dataclasses.replace(
        first,
        steps=first.steps + r2.steps,
        total_steps=first.total_steps + r2.total_steps,
        loss=r2.loss,
        heldout_loss=r2.heldout_loss,
        elapsed_s=first.elapsed_s + r2.elapsed_s,
        cpu_s=first.cpu_s + r2.cpu_s,
        tokens_seen=first.tokens_seen + r2.tokens_seen,
    )
    notes = {
        "anneal": {
            "files": list(anneal.files),
            "settings": anneal.settings.to_dict(),
            "steps": r2.steps,
            "tokens_seen": r2.tokens_seen,
            "heldout_before": round(first.heldout_loss, 4) if first.heldout_loss is not None else None,
            "heldout_after": round(r2.heldout_loss, 4) if r2.heldout_loss is not None else None,
        }
    }
    return both, notes


def _metrics(recipe: Recipe, trainer: Trainer, result, figures: dict, base: dict, command: str) -> dict:
    """metrics.json: the recipe, the training time and the held-out figures next to the baselines."""
    metrics = {
        "preset": recipe.preset,
        "corpus": recipe.corpus,
        **({"corpus_options": dict(recipe.corpus_options)} if recipe.corpus_options else {}),
        "sizes": get_preset(recipe.preset).sizes,
        "vocab_size": trainer.config.vocab_size,
        "parameters": trainer.config.parameter_count(),
        "steps": result.steps,
        "batch_size": recipe.settings.batch_size,
        "lr": recipe.settings.lr,
        "seed": recipe.settings.seed,
        "context": trainer.context,
        "answer_only": trainer.answer_only,
        "train_time_s": round(result.elapsed_s, 1),
        "train_cpu_s": round(result.cpu_s, 1),
        "tokens_seen": result.tokens_seen,
        "threads": recipe.settings.threads,
        "heldout_loss": round(figures["heldout_loss"], 4),
        "unigram_loss": round(base["unigram_loss"], 4),
        "bigram_loss": round(base["bigram_loss"], 4),
        "tokens": figures["tokens"],
        "command": command,
        "torch": torch.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    for key in ("accuracy", "correct_prob", "exact_match"):
        if key in figures:
            metrics[f"heldout_{key}"] = round(figures[key], 4)
    return metrics


def _induction_metrics(model) -> dict:
    """The induction report (which head, how well on 10–20 letters) and p(right next letter) over the
    repeated half per string length: 40 fresh strings of uniformly random letters per length, right at the
    start and after a random prefix of 0–8 letters."""
    from explorer.train.induction import induction_by_length, induction_report

    rep = induction_report(model)
    out = {
        "sequences": rep["sequences"],
        "lengths": list(rep["lengths"]),
        "seed": rep["seed"],
        "correct_prob": round(rep["correct_prob"], 4),
        "accuracy": round(rep["accuracy"], 4),
        "best_head": list(rep["best_head"]),
        "best_score": round(rep["best_score"], 4),
        "previous_token_head": list(rep["previous_token_head"]),
        "previous_token_score": round(rep["previous_token_score"], 4),
        "scores": np.round(rep["scores"], 4).tolist(),
    }
    for key, prefix in (("by_length", 0), ("by_length_after_prefix", 8)):
        out[key] = {str(n): round(v, 4) for n, v in induction_by_length(model, max_prefix=prefix).items()}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m explorer.train.presets_build", description=__doc__.split("\n")[0])
    ap.add_argument("--only", action="append", choices=list(RECIPES), help="build only this preset (repeatable)")
    ap.add_argument("--out", type=Path, default=None, help="folder to write into (default resources/presets)")
    args = ap.parse_args(argv)
    out_root = args.out or resource("presets")
    out_root.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for name in args.only or list(RECIPES):
        build(name, out_root, log=lambda s: print(s, file=sys.stderr, flush=True))
    print(f"done in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
