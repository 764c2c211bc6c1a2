"""Named starting points: a model size, a vocabulary, a seed, an example sentence, and maybe trained weights.

``seed-toy`` has the note's worked-example sizes (B=2, C=2, E=3, H=2, D=2), small enough to print every
number. ``classroom`` is the default: big enough for patterns, small enough to redraw at once.
"""

from __future__ import annotations

import filecmp
import json
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.config import ModelConfig
from explorer.errors import ConfigError
from explorer.util.paths import resource
from explorer.vocab import CONFIG_FILE, WEIGHTS_FILE

if TYPE_CHECKING:
    from explorer.tokenize import Tokenizer
    from explorer.weights.bundle import ModelBundle


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    tokenizer: str  # file in resources/tokenizers/
    sizes: dict[str, Any]  # ModelConfig fields other than vocab_size
    example: str
    seed: int = 0
    checkpoint: str | None = None  # folder in resources/presets/ with trained weights, if any
    options: dict[str, Any] = field(default_factory=dict)  # RunOptions fields this preset starts with

    def has_trained_weights(self) -> bool:
        return self.checkpoint is not None and (resource("presets", self.checkpoint) / WEIGHTS_FILE).is_file()


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset(
            "classroom",
            "E=128, D=32, H=4, L=3 on ordinary English, whole-word tokens: the default",
            "bpe-english.json",
            # Tied embedding and unembedding: the 16,384-token table is most of the model, stored once.
            dict(embed_dim=128, key_dim=32, heads=4, layers=3, positions="sinusoidal", tie_embeddings=True),
            "This is a pen .",
            seed=0,
            checkpoint="classroom",
        ),
        Preset(
            "seed-toy",
            "the note's worked example: B=2, C=2, E=3, H=2, D=2 — every number fits in its cell",
            "words-en.json",
            # no norm, as the note: embed → Q K V → … chains by hand (layers.0.attn.in is embed.out)
            dict(embed_dim=3, key_dim=2, heads=2, layers=1, ffn_dim=6, positions="none", norm="none"),
            "This is\na pen",
            seed=7,
        ),
        Preset(
            "japanese",
            "model of simple Japanese sentences (これはペンです。), subword tokens",
            "bpe-ja.json",
            dict(embed_dim=64, key_dim=16, heads=4, layers=2, positions="sinusoidal"),
            "これはペンです。",
            seed=0,
            checkpoint="japanese",
        ),
        Preset(
            "induction",
            "2-layer model on repeated random letters: watch an induction head copy the continuation",
            "letters.json",
            dict(embed_dim=64, key_dim=16, heads=4, layers=2, positions="rope", max_positions=72),
            "qwertyuiopqwertyuiop",
            seed=0,
            checkpoint="induction",
        ),
    )
}

DEFAULT_PRESET = "classroom"


@lru_cache(maxsize=16)
def preset_tokenizer(filename: str) -> Tokenizer:
    path = resource("tokenizers", filename)
    if not path.is_file():
        raise ConfigError(f"the vocabulary file {filename} is missing from {path.parent}; run `make setup` again")
    from explorer.tokenize import Tokenizer  # here: the window is shown before the tokenizers library loads

    return Tokenizer.from_file(path)


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise ConfigError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}") from None


def preset_config(name: str, **overrides: Any) -> ModelConfig:
    preset = get_preset(name)
    sizes = {**preset.sizes, **{k: v for k, v in overrides.items() if v is not None}}
    return ModelConfig(vocab_size=preset_vocab_size(name), **sizes)


@cache
def preset_vocab_size(name: str) -> int:
    """V of a preset: read from its checkpoint's config.json where it has trained weights (the window shows the
    parameter count before the vocabulary itself is read: 0.09 s of the window's start), else the vocabulary's.
    Loading the checkpoint checks that the two agree."""
    preset = get_preset(name)
    if preset.has_trained_weights():  # a shipped file (json here: explorer.weights.checkpoint imports torch)
        try:
            meta = json.loads((resource("presets", preset.checkpoint) / CONFIG_FILE).read_text(encoding="utf-8"))
            size = meta["config"]["vocab_size"]
        except (OSError, ValueError, KeyError, TypeError):
            size = None
        if type(size) is int and size > 0:
            return size
    return preset_tokenizer(preset.tokenizer).vocab_size


@cache
def shipped_config(name: str) -> ModelConfig:
    """The preset's own sizes (what its trained weights were made with); built once per preset."""
    return preset_config(name)


def load_preset(
    name: str,
    *,
    random_weights: bool = False,
    seed: int | None = None,
    config: ModelConfig | None = None,
    **overrides: Any,
) -> ModelBundle:
    """The preset's model. Trained weights are used when shipped, unless sizes are overridden, a seed is
    given, or ``random_weights`` asks for the untrained model (the difference is worth showing).

    ``config``: the sizes, already built by the caller (the session builds a source's config once and
    passes it on); otherwise the preset's sizes with ``overrides``."""
    preset = get_preset(name)
    tok = preset_tokenizer(preset.tokenizer)
    if config is None:
        config = preset_config(name, **overrides)
    sized_as_shipped = config == shipped_config(name)
    if not random_weights and seed is None and sized_as_shipped and preset.has_trained_weights():
        from explorer.weights.checkpoint import load_checkpoint

        folder = resource("presets", preset.checkpoint)  # type: ignore[arg-type]
        # its tokenizer.json is the vocabulary file itself (checked, byte for byte): read once, not twice (0.1 s)
        same = filecmp.cmp(folder / "tokenizer.json", resource("tokenizers", preset.tokenizer), shallow=False)
        bundle = load_checkpoint(folder, tokenizer=tok if same else None)
        bundle.source = f"preset:{name}"
        bundle.name = name
        return bundle
    from explorer.weights.bundle import random_bundle

    bundle = random_bundle(config, tok, preset.seed if seed is None else seed, name=name)
    return bundle


def preset_dir(name: str) -> Path | None:
    preset = get_preset(name)
    return resource("presets", preset.checkpoint) if preset.checkpoint else None
