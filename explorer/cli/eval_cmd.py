"""``attention-explorer eval``: held-out loss of a checkpoint or preset next to unigram/bigram baselines.

    attention-explorer eval runs/induction/step-003000
    attention-explorer eval --preset classroom
    attention-explorer eval smollm2 --corpus english --other-vocabulary   # a real model on the same text

Prints JSON: {"heldout_loss", "unigram_loss", "bigram_loss", "tokens", ...} in nats per token on the
held-out data of the corpus the model was trained on (or --corpus); tasks add "accuracy",
"correct_prob" and "exact_match" on the answer part. With --other-vocabulary a model whose vocabulary is
not the corpus's is scored on the same held-out lines: its nats on the text after each line's first token,
divided by the corpus's targets (explorer.train.reference_loss), so that it reads beside the baselines.
"""

from __future__ import annotations

import argparse

from explorer.cli.model_options import open_model
from explorer.errors import ConfigError
from explorer.session import ModelSource
from explorer.train.corpora import NAMES
from explorer.util.printable import json_text
from explorer.weights.presets import PRESETS, get_preset


def add_parser(sub) -> None:
    p = sub.add_parser("eval", help="held-out loss of a checkpoint or preset, with unigram/bigram baselines (JSON)")
    p.add_argument(
        "checkpoint",
        nargs="?",
        metavar="CHECKPOINT",
        help="a checkpoint folder written by `train`, or its run folder (the latest complete checkpoint); with "
        "--other-vocabulary any model: smollm2, a Hugging Face folder, a GGUF file",
    )
    p.add_argument("--preset", choices=list(PRESETS), help="evaluate a shipped trained preset instead")
    p.add_argument(
        "--corpus",
        metavar="NAME_OR_PATH",
        help=f"score on this corpus ({', '.join(NAMES)} or a file) instead of the training one",
    )
    p.add_argument("--word-level", action="store_true", help="with a text file --corpus: word-level tokens")
    p.add_argument("--context", type=int, help="longest row in tokens (default: as in training)")
    p.add_argument("--device", default="cpu", help="cpu, cuda, cuda:N or mps")
    p.add_argument(
        "--other-vocabulary",
        action="store_true",
        help="score a model with another vocabulary on the same held-out text, counted in the corpus's tokens",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from explorer.train.corpora import get_corpus
    from explorer.train.evaluate import evaluate_bundle
    from explorer.util.devices import resolve_device

    if bool(args.checkpoint) == bool(args.preset):
        raise ConfigError("give a checkpoint folder or --preset NAME (one of them)")
    if args.preset:
        preset = get_preset(args.preset)
        if not preset.has_trained_weights():
            raise ConfigError(
                f"preset {args.preset} has no trained weights to evaluate (it is random by design or not "
                "built: run `make presets`)"
            )
        source = ModelSource("preset", args.preset)
    else:
        source = ModelSource("path", args.checkpoint)
    bundle = open_model(source)  # the one opening path (explorer.session.open), as export and the window
    corpus = get_corpus(args.corpus, word_level=args.word_level) if args.corpus else None
    device, _ = resolve_device(args.device)
    result = evaluate_bundle(
        bundle, corpus, context=args.context, device=device, other_vocabulary=args.other_vocabulary
    )
    result = {"model": bundle.source, **result}
    print(json_text(result, indent=2))
    return 0
