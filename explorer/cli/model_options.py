"""Options shared by every command that builds or loads a model and traces text."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from explorer import vocab
from explorer.config import MaskSpec, RunOptions
from explorer.errors import ConfigError, InputError
from explorer.session import ModelSource
from explorer.session.open import open_source
from explorer.util.printable import quoted
from explorer.weights.presets import DEFAULT_PRESET, PRESETS

if TYPE_CHECKING:  # the bundle module imports torch: `attention-explorer gui` must not wait for it
    from explorer.weights.bundle import ModelBundle


def add_size_options(g) -> None:
    """-E -D -H -L, value and FFN widths, the unfactored form, positions, norm, residuals: the one set of size
    options every command that builds a model offers (export, train…), from explorer.vocab."""
    for opt in vocab.SIZE_OPTIONS:
        g.add_argument(*opt.flags, dest=opt.field, type=int, metavar=opt.metavar, help=opt.help)
    g.add_argument("--unfactored", action="store_true", help="the note's single head: W_v (E, E) and no W_o")
    g.add_argument("--positions", choices=vocab.POSITIONS, help=f"positional encoding: {vocab.POSITIONS_HELP}")
    g.add_argument("--max-positions", type=int, metavar="P", help="longest input; the table size of learned positions")
    g.add_argument("--norm", choices=vocab.NORMS, help=f"normalisation before attention and FFN: {vocab.NORM_HELP}")
    g.add_argument("--no-residual", dest="residual", action="store_false", default=None, help="no residual connections")
    g.add_argument("--bare", action="store_true", help="no norms and no residuals: the note's bare Attention then FFN")


def add_model_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("model")
    g.add_argument(
        "--preset", default=DEFAULT_PRESET, help=f"starting point: {', '.join(PRESETS)} (default {DEFAULT_PRESET})"
    )
    g.add_argument(
        "--model",
        metavar="PATH_OR_NAME",
        help=(
            "a checkpoint folder, a run folder (its newest checkpoint), Hugging Face folder or GGUF file instead "
            "of a preset"
        ),
    )
    add_size_options(g)
    g.add_argument("--seed", type=int, help="seed for random weights (implies random weights)")
    g.add_argument(
        "--random-weights", action="store_true", help="use random weights even where the preset ships trained ones"
    )
    r = p.add_argument_group("run")
    r.add_argument(
        "--mask",
        default=None,
        help=f"{vocab.TYPED_MASKS} (default: the model's own, causal; none for an encoder such as BERT)",
    )
    r.add_argument("--no-scale", action="store_true", help="do not divide Q·Kᵀ by √D")
    r.add_argument("--temperature", type=float, default=1.0, help="softmax temperature of the next-token distribution")
    r.add_argument("--dtype", choices=vocab.DTYPES, default="float32")
    r.add_argument("--device", default="cpu", help="cpu, cuda, cuda:N or mps (falls back to cpu when absent)")
    r.add_argument(
        "--layers-to-capture", metavar="LIST", help="comma-separated layer indices to keep, e.g. 0,5,11 (default all)"
    )
    r.add_argument(
        "--lazy-maps", action="store_true", help="keep the (C, C) maps out of memory and derive them per head on demand"
    )
    r.add_argument(
        "--memory-budget", type=float, metavar="GB", help="refuse configurations estimated above this (default 4 GB)"
    )


def _sizes(args: argparse.Namespace) -> dict:
    """The ModelConfig overrides the size options ask for (only those given)."""
    sizes = {opt.field: getattr(args, opt.field, None) for opt in vocab.SIZE_OPTIONS}
    sizes.update(
        positions=getattr(args, "positions", None),
        max_positions=getattr(args, "max_positions", None),
        norm=getattr(args, "norm", None),
        residual=getattr(args, "residual", None),
    )
    if getattr(args, "unfactored", False):
        sizes.update(unfactored_value=True, heads=args.heads or 1)
    if getattr(args, "bare", False):
        if sizes["norm"] not in (None, "none") or sizes["residual"]:
            raise ConfigError("--bare means no norm and no residuals: drop --norm, or drop --bare")
        sizes.update(norm="none", residual=False)
    return {k: v for k, v in sizes.items() if v is not None}


def source_from_args(args: argparse.Namespace) -> ModelSource:
    """The ModelSource the model options name: the window's worker opens the same kind of object."""
    sizes = _sizes(args)
    if getattr(args, "model", None):
        if sizes:
            raise ConfigError("sizes come from the model file; drop --embed-dim/--heads/... when using --model")
        return ModelSource("path", args.model)
    return ModelSource("preset", args.preset, seed=args.seed, random_weights=args.random_weights).with_sizes(**sizes)


def bundle_from_args(args: argparse.Namespace) -> ModelBundle:
    if args.memory_budget is not None:
        import os

        if not (args.memory_budget > 0 and args.memory_budget != float("inf")):  # nan and inf too
            raise ConfigError(f"--memory-budget must be a positive number of GB, got {args.memory_budget}")
        os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = str(args.memory_budget)
    return open_model(source_from_args(args))


def open_model(source: ModelSource) -> ModelBundle:
    """The one way a command opens a model (explorer.session.open.open_source, the window's too); a run folder
    stands for its latest complete checkpoint, and a ``note:`` line on stderr says which."""
    return open_source(source, note=_note)


def _note(message: str) -> None:
    print(f"note: {message}", file=sys.stderr)


def options_from_args(args: argparse.Namespace, config=None) -> RunOptions:
    """The run options the flags ask for; without --mask, the model's own mask (none for an encoder)."""
    layers = None
    if args.layers_to_capture:
        try:
            layers = tuple(int(x) for x in args.layers_to_capture.split(",") if x.strip())
        except ValueError:
            raise ConfigError(
                f"--layers-to-capture takes layer numbers like 0,5,11, got {quoted(args.layers_to_capture)}"
            ) from None
    return RunOptions(
        mask=MaskSpec.parse(args.mask)
        if args.mask
        else MaskSpec("none" if getattr(config, "bidirectional", False) else "causal"),
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
        from explorer.util.reading import read_text

        # Read what a trace can use (and enough past it for the notices), never the whole file: /dev/zero
        # or a FIFO once took 24 GB or waited forever.
        limit = 5 * MAX_TEXT_CHARS
        text, more = read_text(args.text_file, limit, InputError)
        if more:
            import sys

            print(
                f"note: {args.text_file} is longer than {limit:,} characters: only its start is read", file=sys.stderr
            )
        return text
    if args.text is None:
        raise InputError("give the text to trace, or --text-file FILE")
    return args.text
