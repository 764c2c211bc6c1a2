"""``attention-explorer generate TEXT --max-new-tokens N … [-o gen.npz]``: continue a prompt token by token.

Prints the prompt and its continuation (or, with --json, every step's token, probability, alternatives and
time) and writes the generation trace (prefill maps, each step's attention rows, the KV cache) as one
snapshot. Here ``--temperature`` and ``--seed`` are the sampling's; random weights take ``--weights-seed``.
"""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.cli.model_options import add_model_options, bundle_from_args, options_from_args, text_from_args
from explorer.util.printable import json_text


def add_parser(sub) -> None:
    p = sub.add_parser(
        "generate",
        help="continue a prompt token by token and write the generation trace (attention rows, KV cache)",
        conflict_handler="resolve",  # --temperature and --seed mean the sampling's here
    )
    p.add_argument("text", nargs="?", help="the prompt (one line)")
    p.add_argument("--text-file", metavar="FILE", help="read the prompt from a UTF-8 file instead")
    p.add_argument(
        "--max-new-tokens", "-n", type=int, default=20, metavar="N", help="write at most N tokens (default 20)"
    )
    p.add_argument(
        "-o", "--output", metavar="PATH", help="write the generation trace to this snapshot (.npz, .safetensors or .pt)"
    )
    p.add_argument("--format", choices=vocab.SNAPSHOT_FORMATS, help="container (default: from the file name)")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"prompt", "text", "steps": [{"token", "token_id", "prob", "top", "ms"}, …]}',
    )
    add_model_options(p)
    s = p.add_argument_group("sampling (greedy unless one of these is given)")
    s.add_argument("--greedy", action="store_true", help="always take the most likely token (the default)")
    s.add_argument(
        "--temperature", dest="sample_temperature", type=float, metavar="T", help="sample from softmax(logits / T)"
    )
    s.add_argument("--top-k", type=int, metavar="K", help="sample among the K most likely tokens only")
    s.add_argument(
        "--top-p", type=float, metavar="P", help="sample among the most likely tokens whose probabilities reach P"
    )
    s.add_argument(
        "--seed",
        dest="sample_seed",
        type=int,
        metavar="S",
        help="seed of the sampling (default 0): the same seed writes the same tokens",
    )
    s.add_argument(
        "--stop",
        action="append",
        metavar="TOKEN",
        help="stop after writing this token (repeatable; default: the vocabulary's end-of-text token)",
    )
    s.add_argument("--top", type=int, default=5, metavar="N", help="alternatives recorded per step (default 5)")
    s.add_argument(
        "--no-cache", action="store_true", help="recompute the whole text at every step instead of reading the KV cache"
    )
    p.add_argument(
        "--weights-seed", dest="seed", type=int, metavar="S", help="seed for random weights (implies random weights)"
    )
    p.set_defaults(func=run, temperature=1.0)


def _sampling(args: argparse.Namespace):
    from explorer.api.generating import sampling

    return sampling(args.greedy, args.sample_temperature, args.top_k, args.top_p, args.sample_seed)


def run(args: argparse.Namespace) -> int:
    sampling = _sampling(args)
    text = text_from_args(args)
    if args.output:
        from explorer.export.snapshot import format_for

        format_for(args.output, args.format)  # refuse a bad file name before generating
    bundle = bundle_from_args(args)
    options = options_from_args(args, bundle.config)
    from explorer.api.generating import stop_ids
    from explorer.generation.loop import GenerateOptions, generate  # torch loads here

    gen_options = GenerateOptions(
        max_new_tokens=args.max_new_tokens,
        sampling=sampling,
        use_cache=not args.no_cache,
        stop_ids=stop_ids(args.stop, bundle.tokenizer),
        top=max(1, args.top),
    )
    generation = generate(bundle, text, options, gen_options)
    for notice in generation.trace.notices:
        print(f"note: {notice}", file=sys.stderr)
    if args.output:
        from explorer.export.snapshot import write_generation

        path = write_generation(generation, args.output, args.format)
        print(
            f"wrote {path} ({generation.prompt_tokens} prompt tokens, {len(generation.steps)} generated)",
            file=sys.stderr,
        )
    if args.json:
        print(json_text(generation.summary()))
    else:
        print(generation.text)
    return 0
