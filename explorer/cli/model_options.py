"""Options shared by every command that builds or loads a model and traces text."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from explorer.config import MaskSpec, RunOptions
from explorer.errors import ConfigError, InputError
from explorer.weights.presets import DEFAULT_PRESET, PRESETS, load_preset

if TYPE_CHECKING:  # the bundle module imports torch: `attention-explorer gui` must not wait for it
    from explorer.weights.bundle import ModelBundle


def add_model_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("model")
    g.add_argument("--preset", default=DEFAULT_PRESET, help=f"starting point: {', '.join(PRESETS)} (default {DEFAULT_PRESET})")
    g.add_argument("--model", metavar="PATH_OR_NAME", help="a checkpoint folder, Hugging Face folder or GGUF file instead of a preset")
    g.add_argument("--embed-dim", "-E", type=int, metavar="E", help="embedding size E")
    g.add_argument("--key-dim", "-D", type=int, metavar="D", help="query/key size per head D")
    g.add_argument("--heads", "-H", type=int, metavar="H", help="number of heads H")
    g.add_argument("--layers", "-L", type=int, metavar="L", help="number of layers")
    g.add_argument("--value-dim", type=int, metavar="D_V", help="value size per head (default D)")
    g.add_argument("--ffn-dim", type=int, metavar="F", help="FFN width (default 4·E)")
    g.add_argument("--unfactored", action="store_true", help="the note's single head: W_v (E, E) and no W_o")
    g.add_argument("--positions", choices=["none", "sinusoidal", "learned"], help="positional encoding")
    g.add_argument("--bare", action="store_true", help="no norms and no residuals: the note's bare Attention then FFN")
    g.add_argument("--seed", type=int, help="seed for random weights (implies random weights)")
    g.add_argument("--random-weights", action="store_true", help="use random weights even where the preset ships trained ones")
    r = p.add_argument_group("run")
    r.add_argument("--mask", default="causal", help="causal (default), none, window:W or prefix:P")
    r.add_argument("--no-scale", action="store_true", help="do not divide Q·Kᵀ by √D")
    r.add_argument("--temperature", type=float, default=1.0, help="softmax temperature of the next-token distribution")
    r.add_argument("--dtype", choices=["float32", "float64"], default="float32")
    r.add_argument("--device", default="cpu", help="cpu, cuda, cuda:N or mps (falls back to cpu when absent)")
    r.add_argument("--layers-to-capture", metavar="LIST", help="comma-separated layer indices to keep, e.g. 0,5,11 (default all)")
    r.add_argument("--lazy-maps", action="store_true", help="keep the (C, C) maps out of memory and derive them per head on demand")
    r.add_argument("--memory-budget", type=float, metavar="GB", help="refuse configurations estimated above this (default 4 GB)")


def _sizes(args: argparse.Namespace) -> dict:
    sizes = dict(
        embed_dim=args.embed_dim, key_dim=args.key_dim, heads=args.heads, layers=args.layers,
        value_dim=args.value_dim, ffn_dim=args.ffn_dim, positions=args.positions,
    )
    if args.unfactored:
        sizes.update(unfactored_value=True, heads=args.heads or 1)
    if args.bare:
        sizes.update(norm="none", residual=False)
    return {k: v for k, v in sizes.items() if v is not None}


def bundle_from_args(args: argparse.Namespace) -> ModelBundle:
    if args.memory_budget is not None:
        import os

        if not (args.memory_budget > 0 and args.memory_budget != float("inf")):  # nan and inf too
            raise ConfigError(f"--memory-budget must be a positive number of GB, got {args.memory_budget}")
        os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = str(args.memory_budget)
    sizes = _sizes(args)
    if getattr(args, "model", None):
        from explorer.weights.loaders import load_model

        if sizes:
            raise ConfigError("sizes come from the model file; drop --embed-dim/--heads/... when using --model")
        return load_model(args.model)
    return load_preset(args.preset, random_weights=args.random_weights, seed=args.seed, **sizes)


def options_from_args(args: argparse.Namespace) -> RunOptions:
    layers = None
    if args.layers_to_capture:
        try:
            layers = tuple(int(x) for x in args.layers_to_capture.split(",") if x.strip())
        except ValueError:
            raise ConfigError(f"--layers-to-capture takes layer numbers like 0,5,11, got {args.layers_to_capture!r}") from None
    return RunOptions(
        mask=MaskSpec.parse(args.mask),
        scale=not args.no_scale,
        temperature=args.temperature,
        dtype=args.dtype,
        device=args.device,
        layers_to_capture=layers,
        lazy_pairwise=args.lazy_maps,
    )


def check_layers(bundle: ModelBundle, options: RunOptions) -> None:
    if options.layers_to_capture is not None:
        bad = [l for l in options.layers_to_capture if not 0 <= l < bundle.config.layers]
        if bad:
            raise ConfigError(f"layers {bad} do not exist: the model has layers 0 … {bundle.config.layers - 1}")


def text_from_args(args: argparse.Namespace) -> str:
    if getattr(args, "text_file", None):
        from explorer.config import MAX_TEXT_CHARS
        from explorer.reading import read_text

        # Read what a trace can use (and enough past it for the notices), never the whole file: /dev/zero
        # or a FIFO once took 24 GB or waited forever.
        limit = 5 * MAX_TEXT_CHARS
        text, more = read_text(args.text_file, limit, InputError)
        if more:
            import sys

            print(f"note: {args.text_file} is longer than {limit:,} characters: only its start is read", file=sys.stderr)
        return text
    if args.text is None:
        raise InputError("give the text to trace, or --text-file FILE")
    return args.text
