"""Fixtures the core tests share. Every test here runs with Qt unimportable (tests/conftest.py).

Each fixture is built once per test session: a Tokenizer is read-only, and the tokenizer.json text is a string.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def words():
    """The word-level English vocabulary the presets use (words-en.json)."""
    from explorer.weights.presets import preset_tokenizer

    return preset_tokenizer("words-en.json")


@pytest.fixture(scope="session")
def tokenizer():
    """The classroom preset's tokenizer (the interventions' tests build their models on it)."""
    from explorer.weights.presets import load_preset

    return load_preset("classroom").tokenizer


@pytest.fixture(scope="session")
def tokenizer_json():
    """A tiny byte-level BPE's tokenizer.json, for the Hugging Face and GGUF folders the oracle tests write."""
    from tiny_bpe import train_tokenizer

    return train_tokenizer().to_str()
