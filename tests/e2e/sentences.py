"""Sentences of a given number of tokens for the default model, found with its own tokenizer: the classroom
preset's vocabulary changes (issue 38, item 1), so no test counts the tokens of a sentence by hand."""

from __future__ import annotations

from functools import lru_cache

PASSAGE = (
    "After the long lesson, the students asked the teacher why the model looked back at the first word so often, "
    "and the teacher said that the animal did not cross the street because it was too tired and the road was long "
    "and wide and far away from home, so the class read the story again from the start ."
)


@lru_cache(maxsize=8)
def sentence_of(tokens: int) -> str:
    """A prefix of ``PASSAGE`` (words, then perhaps a full stop) that the default model reads as ``tokens``
    tokens."""
    from explorer.session import ModelSource
    from explorer.session.open import open_source
    from explorer.weights.presets import DEFAULT_PRESET

    tokenizer = open_source(ModelSource("preset", DEFAULT_PRESET)).tokenizer
    words = PASSAGE.split(" ")
    for end in range(1, len(words) + 1):
        text = " ".join(words[:end])
        for candidate in (text, text + " .", text + " . ."):
            if len(tokenizer.encode(candidate)) == tokens:
                return candidate
    raise AssertionError(f"no prefix of the passage is {tokens} tokens long")
