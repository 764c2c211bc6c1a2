"""docs/math.md tells where each step of the lecture note appears in the app: every tensor name it quotes is one
of explorer/names.py, every stage it names is a stage of the pipeline, and every step of the attention
function is placed. A rename in the code that the page does not follow fails here."""

from __future__ import annotations

import re
from pathlib import Path

from explorer import names
from explorer.present.stages import STAGES

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "math.md"

# A quoted tensor name: `layers.{l}.attn.q`, `params.layers.0.attn.W_o`, `embed.out`, `probs` …
NAME_RE = re.compile(r"`((?:params\.|layers\.|embed\.|mask|tokens|logits|probs|final\.)[\w.{}]*)`")
STAGE_RE = re.compile(r"[Ss]tages? \*\*([^*]+)\*\*")
NOTE_STEPS = ("q", "k", "v", "scores", "scaled", "masked", "weights", "heads", "concat", "out")


def quoted_names(text: str) -> set[str]:
    return set(NAME_RE.findall(text))


def named_stages(text: str) -> set[str]:
    return set(STAGE_RE.findall(text))


def test_the_readers_find_names_and_stages():
    sample = "stage **Q·Kᵀ** (`layers.{l}.attn.scores`) and `params.embed.tok`, not `W_k`"
    assert quoted_names(sample) == {"layers.{l}.attn.scores", "params.embed.tok"}
    assert named_stages(sample) == {"Q·Kᵀ"}


def test_every_quoted_tensor_name_is_a_traced_name():
    quoted = quoted_names(PAGE.read_text(encoding="utf-8"))
    assert len(quoted) >= 20
    unknown = sorted(n for n in quoted if not names.is_known(n.replace("{l}", "0")))
    assert not unknown, f"docs/math.md quotes names that explorer/names.py does not have: {unknown}"


def test_every_named_stage_is_on_the_pipeline():
    symbols = {s.symbol for s in STAGES}
    stages = named_stages(PAGE.read_text(encoding="utf-8"))
    assert len(stages) >= 10
    assert not stages - symbols, f"docs/math.md names stages the pipeline does not show: {sorted(stages - symbols)}"


def test_every_step_of_the_attention_function_is_placed_in_the_app():
    quoted = quoted_names(PAGE.read_text(encoding="utf-8"))
    missing = [s for s in NOTE_STEPS if f"layers.{{l}}.attn.{s}" not in quoted]
    assert not missing, f"docs/math.md does not say where these steps appear: {missing}"
