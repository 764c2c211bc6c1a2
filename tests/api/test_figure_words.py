"""A figure from Python says what the ``figure`` command says in English (issue 41): the hand-outs' English
tensor titles (explorer/handouts/words.py, no Qt) are the window's captions' source texts, read here from the
Qt layer's source without importing it (explorer/ui/words/captions.py and captions_families.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from explorer.handouts.words import ENGLISH, TENSOR_TITLES

ROOT = Path(__file__).resolve().parents[2]


def _caption_titles(path: Path, function: str) -> dict[str, str]:
    """{key: English text} of the dict of translate("Captions", TEXT) calls inside ``function``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    body = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    table = next(n for n in ast.walk(body) if isinstance(n, ast.Dict) and len(n.keys) > 5)
    out = {}
    for key, value in zip(table.keys, table.values):
        assert isinstance(value, ast.Call) and value.args[0].value == "Captions"
        out[key.value] = value.args[1].value
    return out


def test_every_tensor_title_is_the_windows_caption():
    words = ROOT / "explorer" / "ui" / "words"
    captions = _caption_titles(words / "captions.py", "tensor_title")
    captions |= _caption_titles(words / "captions_families.py", "family_tensor_title")
    assert len(captions) > 30 and captions["probs"] == "next-token probabilities"
    assert TENSOR_TITLES == captions
    assert ENGLISH.tensor_title("layers.3.attn.weights") == "attention weights A"  # any layer's
    assert ENGLISH.tensor_title("final.out") == "stream after the final norm"
