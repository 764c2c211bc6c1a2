"""Issue 38, item 1: the shipped classroom preset knows words.

* its vocabulary keeps ≥ 97 % of the words of ordinary sentences whole (the built-in lesson's, the
  README's, and a held-out set none of whose sentences is in the training text). A *word* is a maximal run
  of the letters A–Z/a–z; it is *whole* when one token covers exactly it, or it and the one space or
  apostrophe before it (explorer/train/english_probes.py);
* its held-out loss is at least 0.7 nats/token below the bigram baseline's, the bigram fitted on the
  corpus's training split and scored on the same held-out targets;
* on ≥ 20 simple cloze prompts its top 5 next tokens hold a sensible (hand-listed) word at least half the time.

These read the committed files; rebuild them with ``make presets``.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
import tomllib

from explorer.train.corpora import SHIPPED_FILES, read_lines
from explorer.train.english_probes import CLOZE, ORDINARY_SENTENCES, cloze_share, whole_word_share
from explorer.train.evaluate import evaluate_bundle
from explorer.util.paths import resource
from explorer.weights.presets import load_preset, preset_tokenizer

ROOT = resource().parent  # the repository (resources/ is at its root)
WHOLE_TARGET = 0.97


def _lesson_sentences() -> list[str]:
    """Every text the built-in lesson puts in the window (its steps' ``text``)."""
    data = tomllib.loads(resource("lessons", "builtin.toml").read_text(encoding="utf-8"))
    found: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "text" and isinstance(value, str):
                    found.append(value)
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(data)
    return sorted(set(found))


def _readme_sentences() -> list[str]:
    """The example sentences the README quotes ("This is a pen .")."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return sorted(set(re.findall(r'"([A-Z][^"\n]{2,}[.?!])"', text)))


def _tokenizer():
    return preset_tokenizer("bpe-english.json")


class _Offsets:
    """A stand-in tokenizer with given token spans, to pin the definition of a whole word."""

    def __init__(self, spans):
        self.hf = SimpleNamespace(encode=lambda text: SimpleNamespace(offsets=spans))


def test_a_word_is_a_run_of_letters_whole_when_one_token_covers_it_and_at_most_its_space():
    text = "I didn't go."  # words: I, didn, t, go
    # tokens "I" " didn" "'t" " go" ".": every word whole (the space or apostrophe before it may ride along)
    share, split = whole_word_share(_Offsets([(0, 1), (1, 6), (6, 8), (8, 11), (11, 12)]), [text])
    assert (share, split) == (1.0, [])
    # tokens "I" " did" "n" "'t" " go.": "didn" is two tokens and "go" shares its token with the stop
    share, split = whole_word_share(_Offsets([(0, 1), (1, 5), (5, 6), (6, 8), (8, 12)]), [text])
    assert split == ["didn", "go"] and share == 0.5
    # one token for two words, "I d": neither is whole
    share, split = whole_word_share(_Offsets([(0, 3)]), ["I d"])
    assert split == ["I", "d"] and share == 0.0


def test_the_sentence_sets_are_real():
    assert "This is a pen ." in _lesson_sentences()
    assert "This is a pen ." in _readme_sentences()
    assert len(ORDINARY_SENTENCES) >= 40 and len(CLOZE) >= 20


def test_the_held_out_ordinary_sentences_are_not_in_the_training_text():
    def normal(text):
        return " ".join(re.findall(r"[a-z]+", text.lower()))

    train = "\n".join(normal(line) for rel in SHIPPED_FILES["english"][0] for line in read_lines(rel))
    assert len(train) > 10_000_000
    inside = [s for s in ORDINARY_SENTENCES if normal(s) in train]
    assert not inside


def test_ordinary_words_are_one_token():
    """≥ 97 % over the three sets together, and no set far below: the lesson's SmolLM2 word list ("Say: violin
    seven honey tiger …") loses "tiger" (` t` `iger`) twice, 35 of its 37 words whole."""
    sets = {"lesson": _lesson_sentences(), "readme": _readme_sentences(), "held-out": list(ORDINARY_SENTENCES)}
    pooled, split = whole_word_share(_tokenizer(), [s for texts in sets.values() for s in texts])
    assert pooled >= WHOLE_TARGET, (pooled, split)
    for name, texts in sets.items():
        share, split = whole_word_share(_tokenizer(), texts)
        assert share >= 0.9, (name, share, split)


def test_the_shipped_model_uses_that_vocabulary_and_the_sentence_of_the_issue_reads_in_words():
    bundle = load_preset("classroom")
    assert bundle.tokenizer.to_str() == _tokenizer().to_str()
    enc = bundle.tokenizer.encode("The animal didn't cross the street because it was too tired.")
    assert enc.tokens == (
        "The",
        " animal",
        " didn",
        "'t",
        " cross",
        " the",
        " street",
        " because",
        " it",
        " was",
        " too",
        " tired",
        ".",
    )


@pytest.fixture(scope="module")
def classroom():
    return load_preset("classroom")


@pytest.fixture(scope="module")
def figures(classroom):
    out = evaluate_bundle(classroom)
    assert out["corpus"] == "english" and out["tokens"] > 4000
    assert out["bigram_loss"] < out["unigram_loss"]
    return out


def test_classroom_beats_the_bigram_baseline_on_held_out_english(figures):
    # What the shipped recipe reaches (12,000 steps, then 500 on the sayings; 49 minutes on two cores): 5.122
    # against 5.619.
    assert figures["heldout_loss"] <= figures["bigram_loss"] - 0.45, figures


@pytest.mark.xfail(
    strict=True,
    reason="issue 38's target is not reached here: 0.50 nats below the bigram, not 0.7 (docs/training.md)",
)
def test_classroom_is_0_7_nats_below_the_bigram_baseline_on_held_out_english(figures):
    assert figures["heldout_loss"] <= figures["bigram_loss"] - 0.7, figures


def test_eval_reports_the_word_figures_the_tests_measure(figures, classroom):
    assert figures["whole_words"] == whole_word_share(classroom.tokenizer, ORDINARY_SENTENCES)[0]
    assert figures["cloze_top5"] == cloze_share(classroom)[0] and figures["cloze_prompts"] == len(CLOZE)


def test_the_top_5_holds_a_sensible_next_word_for_at_least_half_the_cloze_prompts(classroom):
    share, tops = cloze_share(classroom)
    assert share >= 0.5, tops


def test_a_model_that_guesses_pieces_fails_the_cloze_measure(classroom):
    """The measure can fail: the same sizes with random weights rarely name a sensible word."""
    share, _ = cloze_share(load_preset("classroom", random_weights=True))
    assert share < 0.5
