"""Options shared by every command that builds or loads a model and traces text."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from explorer import vocab
from explorer.api.options import SHAPE_FIELDS, model_source, own_mask, run_options, size_overrides
from explorer.api.options import check_layers as check_config_layers
from explorer.config import RunOptions
from explorer.errors import ConfigError, InputError
from explorer.session import ModelSource
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
    r.add_argument(
        "--dtype",
        choices=vocab.DTYPES,
        default="float32",
        help="what the model computes in (default float32; bfloat16 and float16 as checkpoints ship, a model stored "
        "in that dtype opens without a float32 copy; float64 for identities to ~1e-16)",
    )
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
    sizes.update({field: getattr(args, field, None) for field in SHAPE_FIELDS})
    return size_overrides(sizes, getattr(args, "unfactored", False), getattr(args, "bare", False))


def source_from_args(args: argparse.Namespace) -> ModelSource:
    """The ModelSource the model options name: the window's worker opens the same kind of object."""
    return model_source(args.preset, getattr(args, "model", None), _sizes(args), args.seed, args.random_weights)


def set_memory_budget(args: argparse.Namespace) -> None:
    """--memory-budget, for every estimate the run makes from here on."""
    if args.memory_budget is not None:
        import os

        if not (args.memory_budget > 0 and args.memory_budget != float("inf")):  # nan and inf too
            raise ConfigError(f"--memory-budget must be a positive number of GB, got {args.memory_budget}")
        os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = str(args.memory_budget)


def bundle_from_args(args: argparse.Namespace) -> ModelBundle:
    set_memory_budget(args)
    return open_model(source_from_args(args), getattr(args, "dtype", "float32"))


def open_model(source: ModelSource, dtype: str = "float32") -> ModelBundle:
    """The one way a command opens a model (explorer.api.engine.open_model: open_source, the window's too); a
    run folder stands for its latest complete checkpoint, and a ``note:`` line on stderr says which. ``dtype``:
    --dtype, which a model stored in that half dtype is kept in."""
    from explorer.api.engine import open_model as open_source_model

    return open_source_model(source, note=note, dtype=dtype)


def note(message: str) -> None:
    print(f"note: {message}", file=sys.stderr)


def options_from_args(args: argparse.Namespace, config=None) -> RunOptions:
    """The run options the flags ask for; without --mask, the model's own (none for an encoder; causal when
    no ``config`` is given)."""
    options = unresolved_options(args)
    return options if options.mask is not None else options.replace(mask=own_mask(config))


def unresolved_options(args: argparse.Namespace) -> RunOptions:
    """The run options the flags ask for, the mask left None without --mask: explorer.api.engine.make_trace
    fills in the model's own once the model is open (as explorer.trace's options)."""
    return run_options(
        None,
        mask=args.mask,
        scale=not args.no_scale,
        temperature=args.temperature,
        dtype=args.dtype,
        device=args.device,
        layers_to_capture=args.layers_to_capture,
        lazy_maps=args.lazy_maps,
    )


def check_layers(bundle: ModelBundle, options: RunOptions) -> None:
    check_config_layers(bundle.config, options)


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
