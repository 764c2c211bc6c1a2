"""One engine (issue 41): for the same text and options, every array ``explorer.trace`` gives equals, bit for
bit, the array of that name in the snapshot ``attention-explorer export`` writes (read here with numpy
alone), and ``t.save`` writes the very file export writes; ``explorer.open`` reads it back unchanged.

The cases change what a wrong plumbing of one option would show: seed-toy as shipped and with a window mask,
no scaling, a temperature and float64; classroom with an ablated head and a cut edge; a random-weight
Llama-shaped model (RMSNorm, rotary positions, 2 layers) sized from the classroom preset."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import explorer as ax
from explorer.cli import main

PEN = "This is a pen .\nThe pen is red ."

CASES = {
    "seed-toy": (["--preset", "seed-toy"], {"preset": "seed-toy"}),
    "seed-toy-options": (
        ["--preset", "seed-toy", "--mask", "window:2", "--no-scale", "--temperature", "0.5", "--dtype", "float64"],
        {"preset": "seed-toy", "mask": "window:2", "scale": False, "temperature": 0.5, "dtype": "float64"},
    ),
    "classroom-ablated": (
        ["--preset", "classroom", "--ablate", "0.1,1.3", "--cut", "2.0:3:1"],
        {"preset": "classroom", "ablate": [(0, 1), (1, 3)], "cut": "2.0:3:1"},
    ),
    "llama-shaped-random": (
        ["--preset", "classroom", "--seed", "3", "-L", "2", "-H", "4", "--norm", "rmsnorm", "--positions", "rope"],
        {"preset": "classroom", "seed": 3, "L": 2, "heads": 4, "norm": "rmsnorm", "positions": "rope"},
    ),
}


def export(tmp_path: Path, flags: list[str], name: str = "export.npz") -> Path:
    out = tmp_path / name
    assert main(["export", PEN, *flags, "-o", str(out)]) == 0
    return out


def load_npz(path: Path) -> tuple[dict, dict[str, np.ndarray]]:
    with np.load(path, allow_pickle=False) as data:
        manifest = json.loads(data["manifest"].tobytes().decode("utf-8"))
        return manifest, {k: data[k] for k in data.files if k != "manifest"}


@pytest.mark.parametrize("case", CASES)
def test_every_array_equals_exports_bit_for_bit(tmp_path, case):
    flags, options = CASES[case]
    manifest, snapshot = load_npz(export(tmp_path, flags))
    t = ax.trace(PEN, **options)
    assert set(t.names()) == set(snapshot), "the trace and the snapshot hold different names"
    assert len(snapshot) > 20
    for name, expected in snapshot.items():
        got = t[name]
        assert got.dtype == expected.dtype, name
        assert np.array_equal(got, expected), f"{case}: {name} differs from export's"
    assert t.rows == [row["tokens"] for row in manifest["batch"]]
    assert t.options.to_dict() == manifest["options"]


def test_the_cases_differ_so_that_each_option_is_seen(tmp_path):
    """A case whose option were ignored would trace what the plain one traces: they must differ."""
    plain = ax.trace(PEN, **CASES["seed-toy"][1])
    changed = ax.trace(PEN, **CASES["seed-toy-options"][1])
    assert not np.array_equal(plain["layers.0.attn.weights"], changed["layers.0.attn.weights"])
    ablated = ax.trace(PEN, **CASES["classroom-ablated"][1])
    assert ablated.core.interventions is not None
    assert not np.array_equal(ablated["logits"], ax.trace(PEN, preset="classroom")["logits"])
    llama = ax.trace(PEN, **CASES["llama-shaped-random"][1])
    assert (llama.config.L, llama.config.H, llama.config.norm, llama.config.positions) == (2, 4, "rmsnorm", "rope")


def _members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as z:
        return {i.filename: z.read(i) for i in z.infolist()}


def test_save_writes_the_file_export_writes_and_open_reads_it_back(tmp_path):
    flags, options = CASES["classroom-ablated"]
    exported = export(tmp_path, flags)
    t = ax.trace(PEN, **options)
    saved = t.save(tmp_path / "saved.npz")
    # The zip's members byte for byte: every array and the manifest (only the zip's own timestamps may differ).
    assert _members(saved) == _members(exported)
    back = ax.open(saved)
    assert back.source is None and back.core.read_only
    assert set(back.names()) == set(t.names())
    for name in t.names():
        assert np.array_equal(back[name], t[name]), name
    assert back.rows == t.rows and back.text == t.text


def test_save_with_names_keeps_those_and_what_a_snapshot_needs(tmp_path):
    t = ax.trace(PEN, preset="seed-toy")
    assert (
        main(
            ["export", PEN, "--preset", "seed-toy", "--names", "layers.0.attn.*,logits", "-o", str(tmp_path / "e.npz")]
        )
        == 0
    )
    saved = t.save(tmp_path / "s.npz", names=["layers.0.attn.*", "logits"])
    assert _members(saved) == _members(tmp_path / "e.npz")
    assert {"tokens", "mask", "logits", "layers.0.attn.weights"} <= set(ax.open(saved).names())
