"""Odd E with sinusoidal positions (issue 12, item 3): the note's toy has E = 3.

Sines and cosines interleave and an odd E drops the last cosine; the table is checked against the textbook
formula written column by column in numpy (tests/core/oracle_np.py), and the whole trace against the oracle.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch
from oracle_np import sinusoid
from test_numpy_oracle import check, randomize

from explorer.config import ModelConfig, RunOptions
from explorer.errors import ConfigError
from explorer.model.positions import sinusoidal_table
from explorer.trace import run_trace
from explorer.weights.presets import load_preset


@pytest.mark.parametrize("E", [3, 5, 7])
def test_sinusoid_table_for_odd_E_matches_numpy(E):
    C = 9
    table = sinusoidal_table(C, E, dtype=torch.float64).numpy()
    ref = np.array(
        [
            [
                np.sin(p / 10000 ** (2 * (c // 2) / E)) if c % 2 == 0 else np.cos(p / 10000 ** (2 * (c // 2) / E))
                for c in range(E)
            ]
            for p in range(C)
        ]
    )
    np.testing.assert_allclose(table, ref, atol=1e-12)
    np.testing.assert_allclose(table, sinusoid(C, E), atol=1e-12)
    assert table.shape == (C, E)
    assert np.allclose(table[:, E - 1], np.sin(np.arange(C) / 10000 ** ((E - 1) / E)))  # the last column is a sine


@pytest.mark.parametrize("E", [3, 5, 7])
def test_odd_E_traces_like_the_numpy_oracle(E):
    bundle = randomize(load_preset("seed-toy", embed_dim=E, key_dim=2, heads=2, layers=1, positions="sinusoidal"))
    trace = run_trace(bundle, "This is a pen .", RunOptions(dtype="float64"))
    check(trace)
    np.testing.assert_allclose(trace["embed.pos"][0], sinusoid(trace.C, E), atol=1e-12)


def test_rope_still_needs_an_even_D_and_says_how_to_fix_it():
    with pytest.raises(ConfigError) as err:
        ModelConfig(vocab_size=10, embed_dim=6, key_dim=3, positions="rope")
    message = str(err.value)
    assert "\n" not in message and "D must be even" in message and "D = 4" in message


def test_the_notes_toy_sizes_export(tmp_path):
    out = tmp_path / "toy.npz"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "explorer",
            "export",
            "This is a pen .",
            "-E",
            "3",
            "-D",
            "2",
            "-H",
            "2",
            "-L",
            "1",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    with np.load(out, allow_pickle=False) as z:
        assert z["embed.out"].shape[-1] == 3
        np.testing.assert_allclose(z["embed.pos"][0], sinusoid(z["embed.pos"].shape[1], 3), atol=1e-6)
