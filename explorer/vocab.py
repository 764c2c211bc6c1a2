"""One definition of each vocabulary a user chooses from: positions, norms, activations, dtypes (and their
item sizes), mask kinds (which take a size, which generation can decode with, the sliding window's rule),
the size options (-E -D -H -L …) with their ranges, the corpora, the panels, the languages, themes and
palettes, the ablation modes, sweep kinds and snapshot formats, and the file names of a checkpoint and a run
folder.

ModelConfig validates against these tuples, every CLI command builds its options (argparse ``choices``) from
them (explorer/cli/model_options.py), and the window's controls, menus and settings list them
(explorer/ui/views/controls_view.py, explorer/ui/menus/actions.py, explorer/ui/preferences/settings_schema.py).
Before this module the CLI's ``export --positions`` lacked ``rope``, which ``train`` had: two copies drift.
Three vocabularies belong to one subsystem each and are defined there: the capture modes of Model → Layers to
capture (explorer/session/capture_policy.py ``MODES``), the before/after views of an intervened run
(explorer/present/before_after.py ``MODES``) and a printed figure's file types (explorer/handouts/sizes.py
``FORMATS``). tests/core/test_vocabulary_allow_list.py fails on any other copy of these words.
Pure data: no torch, no Qt, no argparse.
"""

from __future__ import annotations

from dataclasses import dataclass

POSITIONS = ("none", "sinusoidal", "learned", "rope")
ADDED_POSITIONS = ("sinusoidal", "learned")  # a position vector added to each token's embedding (rope rotates q, k)
NORMS = ("layernorm", "rmsnorm", "none")
ACTIVATIONS = ("gelu", "gelu_tanh", "relu", "silu_gated", "gelu_gated", "gelu_tanh_gated")
# Where a block's norms sit around each sublayer (attention, FFN): "pre" norms what the sublayer reads (GPT-2,
# Llama), "post" norms the stream after the residual sum (BERT, the original Transformer), "sandwich" norms both
# what the sublayer reads and what it gives back before the sum (Gemma 2 and 3), "output" norms only what it
# gives back (OLMo 2).
NORM_PLACEMENTS = ("pre", "post", "sandwich", "output")
# Query/key RMSNorm before the scores: none, over each head's D numbers (Qwen 3, Gemma 3), or over all H·D (OLMo 2).
QK_NORMS = ("none", "head", "all")
# The placements that norm what a sublayer reads (ln_attn, ln_ffn before it) and those that norm what it gives
# back before the residual sum (ln_attn_out, ln_ffn_out): explorer/config/model_config.py's pre_norms, out_norms.
NORMS_BEFORE_SUBLAYER = ("pre", "sandwich")
NORMS_AFTER_SUBLAYER = ("sandwich", "output")
# What a run computes in. float32 is the default (exact comparisons rely on it); bfloat16 and float16 are the
# dtypes checkpoints ship in and GPUs run them in (docs/real-models.md, "Dtypes").
DTYPES = ("float32", "float64", "bfloat16", "float16")
ITEMSIZE = {"float32": 4, "float64": 8, "bfloat16": 2, "float16": 2}  # bytes per number (memory, cost figures)
# The half-precision dtypes: computed in, but a trace's arrays hold their values as float32, which represents
# every bfloat16 and float16 number exactly (numpy has no bfloat16), so the numbers shown are the computed ones.
HALF_DTYPES = ("bfloat16", "float16")
# The colour palettes of every map, colour bar and bar chart (explorer/present/palettes.py): the default
# viridis and blue–white–red, cividis with a blue–white–yellow, a high-contrast pair, greyscale for printing.
PALETTES = ("standard", "cividis", "high-contrast", "greyscale")
MASK_KINDS = ("causal", "none", "window", "prefix", "explicit")
# The masks a model brings as its own: causal for a decoder, none for an encoder (BERT). A newly opened model
# replaces one of these with its own; a window, a prefix or a painted mask the user chose stays.
OWN_MASKS = ("causal", "none")
SIZED_MASKS = ("window", "prefix")  # the kinds written kind:N (W for the window, P for the prefix)
# The kinds generation can decode with: a query never sees a later key (prefix's first P see each other).
DECODING_MASKS = ("causal", "window")
# The mask kinds a user can type (an explicit mask is painted in the window or read from a file).
TYPED_MASKS = "causal, none, window:W or prefix:P"

# The sliding window, defined once: query i sees keys i−W+1 … i (itself and the W−1 before it). The model
# (explorer/model/mask.py), the window's tooltip and the stage caption (explorer/ui/words/captions.py) all say it
# from here; they once said it three ways, one off by one.
WINDOW_FIRST_KEY = "i−W+1"  # the first key query i sees, as the window's texts write it


def window_first_key(i, W):
    """The first key query ``i`` sees through a sliding window of ``W`` (i − W + 1; may be below 0). Plain
    arithmetic, so that the model applies it to a tensor of positions and the texts to one number."""
    return i - W + 1


def window_keys(i: int, W: int) -> range:
    """The keys query ``i`` sees through a sliding window of ``W``: i−W+1 … i, none before key 0."""
    return range(max(0, window_first_key(i, W)), i + 1)


def window_keys_before(W: int) -> int:
    """How many keys before itself a query sees at most through a window of ``W`` (W − 1)."""
    return len(window_keys(W, W)) - 1


# What a user types for an encoder's masked position (BERT's [MASK]; RoBERTa's <mask> is typed the same way),
# and what parts two sentences in one line (explorer/tokenize/pairs.py; a tab works too).
MASK_TEXT = "[MASK]"
SENTENCE_SEPARATOR = "[SEP]"


def itemsize(dtype: str) -> int:
    """Bytes per number of a run in ``dtype`` (float32 unless another of DTYPES)."""
    return ITEMSIZE.get(dtype, 4)


def array_dtype(dtype: str) -> str:
    """The numpy dtype a trace's arrays hold a run in ``dtype`` as: float32 for the half dtypes (exactly)."""
    return "float32" if dtype in HALF_DTYPES else dtype


MAX_HEADS = 256
MAX_LAYERS = 256


@dataclass(frozen=True)
class SizeOption:
    """One size of the model: its ModelConfig field, its command-line flags and the window's range."""

    field: str
    flags: tuple[str, ...]
    metavar: str
    help: str
    low: int  # the window's spin box; 0 means "the default" where there is one
    high: int


SIZE_OPTIONS: tuple[SizeOption, ...] = (
    SizeOption("embed_dim", ("--embed-dim", "-E"), "E", "embedding size E", 1, 4096),
    SizeOption("key_dim", ("--key-dim", "-D"), "D", "query/key size per head D", 1, 1024),
    SizeOption("heads", ("--heads", "-H"), "H", "number of heads H", 1, MAX_HEADS),
    SizeOption("layers", ("--layers", "-L"), "L", "number of layers L", 1, MAX_LAYERS),
    SizeOption("value_dim", ("--value-dim",), "D_V", "value size per head (default D)", 0, 1024),
    SizeOption("ffn_dim", ("--ffn-dim",), "F", "FFN width (default 4·E)", 0, 16384),
)

# What each norm means, for help texts (the window has its own translated words).
NORM_HELP = "layernorm (GPT-2), rmsnorm (Llama) or none (the note's bare block)"
POSITIONS_HELP = "none, sinusoidal, learned or rope (rotary: D must be even)"

# The corpora a model can be trained on by name (explorer.train.corpora builds them; the window lists them
# without importing torch). A UTF-8 text file's path is accepted besides.
SHIPPED_CORPORA = ("tiny-en", "tiny-ja", "english")
TASK_CORPORA = ("copy", "reverse", "sort", "induction")
CORPORA = SHIPPED_CORPORA + TASK_CORPORA

# The languages of the interface, of printed figures and worksheets and of a lesson's texts (English first: the
# source texts; resources/translations/explorer_<code>.ts for each other one).
LANGUAGES = ("en", "ja")
# The window's colour themes ("system" follows the desktop) and a printed figure's paper (which has no system).
THEMES = ("system", "light", "dark")
# View → Text size's steps (Ctrl+= / Ctrl+− walk them; 1.0 = 100 %), and their range: a size asked for
# (gui --text-size, a saved setting) is held to it.
TEXT_SCALES = (0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0)
DEFAULT_TEXT_SCALE = 1.0
PRINT_THEMES = ("light", "dark")

# How an ablation removes a head (its output set to zero, or to its mean over the positions), and what a
# patching sweep patches (the residual stream at each layer and position, or each head's output).
ABLATE_MODES = ("zero", "mean")
SWEEP_KINDS = ("resid", "heads")
# Why generation stopped (explorer/generation/result.py; a snapshot records it).
STOP_REASONS = ("count", "token", "context", "cancelled")

# The containers a snapshot is written in (explorer/export/snapshot.py; docs/snapshot-format.md), and those
# whose writers copy every tensor first (npz writes the arrays as they are): the export's memory estimate.
SNAPSHOT_FORMATS = ("npz", "safetensors", "pt")
COPYING_SNAPSHOT_FORMATS = ("safetensors", "pt")

# The window's panels by object name, in the registry's order (explorer/ui/views/registry.py builds one dock
# per name; a lesson step's ``panel`` names one of these).
PANELS = (
    "tensor",
    "flow",
    "input",
    "controls",
    "selection",
    "output",
    "identities",
    "scaling",
    "params",
    "tensors",
    "train",
    "generate",
    "interventions",
    "model_view",
    "anatomy",
    "compare",
)

# The files of a checkpoint folder (explorer/weights/checkpoint.py writes them; the loaders, run folders and
# the window recognise a checkpoint by them) and of a run folder (explorer/train/runs.py).
WEIGHTS_FILE = "model.safetensors"
CONFIG_FILE = "config.json"
TOKENIZER_FILE = "tokenizer.json"
METRICS_FILE = "metrics.json"  # a shipped preset's held-out figures
RUN_FILE = "run.json"
