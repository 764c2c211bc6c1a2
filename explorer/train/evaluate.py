"""Held-out figures of a trained model next to the unigram and bigram baselines, on the same targets.

``evaluate_bundle(bundle)`` finds the corpus a checkpoint was trained on (stored in its config.json), scores
the model on that corpus's held-out set and fits both baselines on its training split. Everything is in
nats per token, averaged over the same target positions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from explorer.errors import ConfigError
from explorer.train.baselines import NGramBaselines
from explorer.train.corpora import SHIPPED, Corpus, corpus_from_spec, get_corpus
from explorer.train.losses import context_for, evaluate
from explorer.util.printable import quoted
from explorer.vocab import CONFIG_FILE
from explorer.weights.bundle import ModelBundle

_BASELINES: dict[tuple, dict[str, float]] = {}


def baselines_for(corpus: Corpus, context: int, answer_only: bool | None = None) -> dict[str, float]:
    """{"unigram_loss", "bigram_loss", "tokens"}: fitted on the training split, scored on held-out."""
    answer_only = corpus.answer_only_default if answer_only is None else answer_only
    key = (json.dumps(corpus.spec(), sort_keys=True), context, answer_only)
    if key not in _BASELINES:
        model = NGramBaselines.fit(
            corpus.baseline_sequences(context), corpus.tokenizer.vocab_size, corpus.tokenizer.pad_id, answer_only
        )
        _BASELINES[key] = model.score(corpus.heldout_sequences(context), answer_only)
    return dict(_BASELINES[key])


def train_info(bundle: ModelBundle) -> dict[str, Any]:
    """The "train" block of a checkpoint's config.json, or {} for a model that was not trained here."""
    src = bundle.source
    folder = None
    if src.startswith("checkpoint:"):
        folder = Path(src.split(":", 1)[1])
    elif src.startswith("preset:"):
        from explorer.weights.presets import preset_dir

        folder = preset_dir(src.split(":", 1)[1])
    if folder is None or not (folder / CONFIG_FILE).is_file():
        return {}
    from explorer.errors import ExplorerError
    from explorer.util.reading import read_json

    try:
        meta = read_json(folder / CONFIG_FILE, ExplorerError)  # bounded; deep nesting is an error, not a crash
    except ExplorerError:
        return {}
    info = meta.get("train", {}) if isinstance(meta, dict) else {}
    if isinstance(info, dict):
        info = {**info, "step": meta.get("step")}
        return info
    return {}


def evaluate_bundle(
    bundle: ModelBundle,
    corpus: Corpus | str | None = None,
    context: int | None = None,
    answer_only: bool | None = None,
    device: str = "cpu",
    other_vocabulary: bool = False,
) -> dict[str, Any]:
    """Held-out loss next to the corpus's baselines (nats per token of the corpus). ``other_vocabulary``: a
    model with another vocabulary is scored on the same text, counted in the corpus's targets
    (explorer.train.reference_loss)."""
    if bundle.config.mlm_head:  # first: what follows (the corpus, its vocabulary) cannot make it meaningful
        raise ConfigError(
            "eval scores the next token's loss: an encoder (BERT, RoBERTa, DistilBERT) fills in a [MASK] and "
            "predicts no next token"
        )
    info = train_info(bundle)
    if corpus is None:
        if not info.get("corpus"):
            raise ConfigError("this model does not say which corpus it was trained on: pass --corpus")
        corpus = corpus_from_spec(info["corpus"])
    elif isinstance(corpus, str):
        corpus = get_corpus(corpus)
    if (
        bundle.tokenizer.vocab_size != corpus.tokenizer.vocab_size
        or bundle.tokenizer.to_str() != corpus.tokenizer.to_str()
    ):
        if other_vocabulary:
            return _other_vocabulary(bundle, corpus, context_for(corpus, bundle.config, context), device)
        raise ConfigError(
            f"the model's vocabulary is not the one of {corpus.name}: it cannot be scored on it token by token "
            "(--other-vocabulary scores it on the same text, in the corpus's tokens)"
        )
    if answer_only is None:
        answer_only = info.get("answer_only", corpus.answer_only_default)
    if context is None:
        context = info.get("context")
    context = context_for(corpus, bundle.config, context)
    model = bundle.model_for("float32", device)
    figures = evaluate(model, corpus, context, answer_only, device=device)
    base = baselines_for(corpus, context, answer_only)
    if base["tokens"] != figures["tokens"]:  # same targets, by construction; a mismatch is a bug
        raise AssertionError(f"baselines scored {base['tokens']} targets, the model {figures['tokens']}")
    out: dict[str, Any] = {
        "heldout_loss": figures["heldout_loss"],
        "unigram_loss": base["unigram_loss"],
        "bigram_loss": base["bigram_loss"],
        "tokens": figures["tokens"],
        "corpus": _corpus_label(corpus),
        "context": context,
        "answer_only": bool(answer_only),
    }
    for key in ("accuracy", "correct_prob", "exact_match"):
        if key in figures:
            out[key] = figures[key]
    if info.get("step") is not None:
        out["step"] = info["step"]
    if corpus.name == "english":
        out.update(english_word_figures(bundle))
    return out


def _corpus_label(corpus: Corpus) -> str:
    """A shipped corpus's name, or a text file's name without its folder."""
    return Path(corpus.name).name if corpus.kind == "text" and corpus.name not in SHIPPED else corpus.name


def _other_vocabulary(bundle: ModelBundle, corpus: Corpus, context: int, device: str) -> dict[str, Any]:
    from explorer.train.reference_loss import reference_nats, unknown_pieces

    lines = getattr(corpus, "heldout_lines", None)  # SentenceCorpus's; tasks and windowed files have none
    if corpus.is_task or lines is None:
        raise ConfigError(
            f"a model with another vocabulary is scored on held-out lines of text, and {corpus.name} has none"
        )
    unknown = unknown_pieces(bundle.tokenizer, lines)
    if unknown:
        raise ConfigError(
            f"the model's vocabulary has no token for {len(unknown)} pieces of {_corpus_label(corpus)}'s held-out "
            f"text ({quoted(unknown[0])}, …): its loss there would not compare with the baselines"
        )
    unknown = unknown_pieces(corpus.tokenizer, lines)
    if unknown:  # a word-level file's held-out words that its training lines never had
        raise ConfigError(
            f"{_corpus_label(corpus)}'s own vocabulary has no token for {len(unknown)} pieces of its held-out text "
            f"({quoted(unknown[0])}, …): the baselines score them as one <unk>, the model as the words they are"
        )
    nats, targets = reference_nats(bundle, lines, corpus.tokenizer, context, device)
    base = baselines_for(corpus, context, False)
    if base["tokens"] != targets:  # the same targets, by construction; a mismatch is a bug
        raise AssertionError(f"baselines scored {base['tokens']} targets, the other vocabulary {targets}")
    return {
        "heldout_loss": nats / targets,
        "unigram_loss": base["unigram_loss"],
        "bigram_loss": base["bigram_loss"],
        "tokens": targets,
        "corpus": _corpus_label(corpus),
        "context": context,
        "answer_only": False,
        "other_vocabulary": "nats on the text after each line's first token, per target of the corpus",
    }


def english_word_figures(bundle: ModelBundle) -> dict[str, Any]:
    """Does a model of the english corpus know words (explorer/train/english_probes.py)? The share of the
    held-out ordinary sentences' words that are one token, and of the cloze prompts whose top 5 next
    tokens hold a sensible word."""
    from explorer.train.english_probes import CLOZE, ORDINARY_SENTENCES, cloze_share, whole_word_share

    whole, _ = whole_word_share(bundle.tokenizer, ORDINARY_SENTENCES)
    cloze, _ = cloze_share(bundle)
    return {"whole_words": whole, "cloze_top5": cloze, "cloze_prompts": len(CLOZE)}


__all__ = ["baselines_for", "english_word_figures", "evaluate_bundle", "train_info"]
