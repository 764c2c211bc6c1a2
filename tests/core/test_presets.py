"""Loading the shipped presets (explorer/weights/presets.py)."""

from __future__ import annotations


def test_a_trained_preset_reads_its_vocabulary_once(monkeypatch):
    """Its checkpoint's tokenizer.json is the vocabulary file byte for byte: read once (0.1 s of every start)."""
    from explorer.tokenize import Tokenizer
    from explorer.weights import presets

    presets.preset_tokenizer.cache_clear()
    read: list[str] = []
    real = Tokenizer.from_file.__func__

    def counting(cls, path, kind=None):
        read.append(str(path))
        return real(cls, path, kind)

    monkeypatch.setattr(Tokenizer, "from_file", classmethod(counting))
    bundle = presets.load_preset("classroom")
    presets.preset_tokenizer.cache_clear()  # the next test reads the real file again
    assert len(read) == 1, read
    assert bundle.tokenizer.vocab_size == bundle.config.vocab_size and bundle.source == "preset:classroom"


def test_weights_are_checked_finite_however_large_their_sum():
    """check_weights sums first (one reduction): a sum that overflows is not a refusal, a NaN or ±∞ is."""
    import pytest
    import torch

    from explorer.errors import ModelLoadError
    from explorer.weights.real_models import check_weights

    huge = torch.full((4, 4), 3e38)  # finite weights whose sum is +∞ in float32
    assert check_weights("m", "w", huge) is huge
    for bad in (float("nan"), float("inf"), -float("inf")):
        t = torch.zeros(4, 4)
        t[2, 3] = bad
        with pytest.raises(ModelLoadError, match="NaN or infinite"):
            check_weights("m", "w", t)
        with pytest.raises(ModelLoadError, match="NaN or infinite"):
            check_weights("m", "w", t.to(torch.bfloat16))


def test_a_presets_sizes_come_without_reading_its_vocabulary_nor_importing_torch():
    """The window shows the parameter count while it is built (explorer/ui/views/controls_view.py): V from the
    checkpoint's config.json, the same V as the vocabulary's."""
    import subprocess
    import sys

    from explorer.weights.presets import PRESETS, preset_config, preset_tokenizer

    for name, preset in PRESETS.items():
        assert preset_config(name).vocab_size == preset_tokenizer(preset.tokenizer).vocab_size, name
    code = (
        "import sys; from explorer.weights import presets; c = presets.preset_config('classroom'); "
        "print(c.vocab_size, 'torch' in sys.modules, presets.preset_tokenizer.cache_info().currsize)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(preset_config("classroom").vocab_size), "False", "0"], out
