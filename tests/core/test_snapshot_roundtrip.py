"""Snapshots: export → read gives the same arrays in every container; reading never unpickles."""

from __future__ import annotations

import io
import json
import os
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest
import tomllib
import torch

import explorer
from explorer.config import MaskSpec, ModelConfig, RunOptions
from explorer.errors import SnapshotError
from explorer.export.snapshot import read_manifest_and_arrays, read_snapshot, write_snapshot
from explorer.trace import run_trace
from explorer.util.paths import resource
from explorer.weights.bundle import random_bundle
from tests.core.fused_tolerance import assert_fused_close

REPO = Path(__file__).resolve().parents[2]
FORMATS = ("npz", "safetensors", "pt")
TEXT = "This is a pen .\nThe cat sat"


@pytest.fixture(scope="module")
def trace(words):
    cfg = ModelConfig(words.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=2, value_dim=3, bias=True)
    return run_trace(random_bundle(cfg, words, 17), TEXT, RunOptions(mask=MaskSpec.parse("window:3"), temperature=0.7))


@pytest.fixture(scope="module")
def files(trace, tmp_path_factory):
    d = tmp_path_factory.mktemp("snap")
    return {fmt: write_snapshot(trace, d / f"s.{fmt}") for fmt in FORMATS}


def _vocab_ids() -> dict[str, int]:
    return json.loads(resource("tokenizers", "words-en.json").read_text(encoding="utf-8"))["model"]["vocab"]


# ------------------------------------------------------------------------------------------ round trips


@pytest.mark.parametrize("fmt", FORMATS)
def test_export_then_read_gives_identical_arrays(trace, files, fmt):
    back = read_snapshot(files[fmt])
    assert back.read_only and not trace.read_only
    assert set(back.names()) == set(trace.names())
    for name in trace.names():
        a, b = trace[name], back[name]
        assert a.dtype == b.dtype, name
        assert np.array_equal(a, b), name
        assert back.labels(name) == trace.labels(name), name
    assert back.rows == trace.rows
    assert back.config == trace.config and back.options == trace.options
    assert back.seed == 17 and back.source == "random"
    assert back.vocab == trace.vocab


@pytest.mark.parametrize("fmt", FORMATS)
def test_manifest_contents(trace, files, fmt):
    manifest, arrays = read_manifest_and_arrays(files[fmt])
    vocab = _vocab_ids()
    assert manifest["format"] == "attention-explorer-snapshot"
    assert manifest["format_version"] == 1
    assert manifest["text"] == TEXT
    batch = manifest["batch"]
    assert [r["tokens"] for r in batch] == [["This", "is", "a", "pen", "."], ["The", "cat", "sat"]]
    assert [r["ids"] for r in batch] == [[vocab[t] for t in r["tokens"]] for r in batch]
    assert [r["length"] for r in batch] == [5, 3]
    assert arrays["tokens"][0].tolist() == batch[0]["ids"]
    assert arrays["tokens"][1, :3].tolist() == batch[1]["ids"]
    cfg = manifest["config"]
    assert (cfg["embed_dim"], cfg["key_dim"], cfg["heads"], cfg["layers"], cfg["value_dim"], cfg["bias"]) == (
        8,
        4,
        2,
        2,
        3,
        True,
    )
    assert cfg["vocab_size"] == len(vocab)
    assert manifest["options"]["mask"] == {"kind": "window", "size": 3}
    assert manifest["options"]["temperature"] == 0.7
    assert manifest["seed"] == 17 and manifest["dtype"] == "float32" and manifest["device"] == "cpu"
    assert manifest["weights_source"] == "random"
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert manifest["app_version"] == pyproject["project"]["version"] == explorer.__version__
    # every stored array is described, with its real shape and dtype
    for name, a in arrays.items():
        entry = manifest["names"][name]
        assert entry["shape"] == list(a.shape) and entry["dtype"] == str(a.dtype), name


def test_npz_is_readable_with_numpy_alone(trace, files):
    with np.load(files["npz"], allow_pickle=False) as data:
        manifest = json.loads(data["manifest"].tobytes().decode("utf-8"))
        assert data["manifest"].dtype == np.uint8
        assert np.array_equal(data["layers.1.attn.weights"], trace["layers.1.attn.weights"])
        assert np.array_equal(data["params.layers.0.attn.W_q"], trace["params.layers.0.attn.W_q"])
        assert set(data.files) - {"manifest"} == set(manifest["names"])


def test_safetensors_and_pt_are_readable_with_their_own_libraries(trace, files):
    from safetensors import safe_open
    from safetensors.numpy import load_file

    st = load_file(str(files["safetensors"]))
    assert np.array_equal(st["logits"], trace["logits"]) and st["mask"].dtype == np.bool_
    with safe_open(str(files["safetensors"]), framework="numpy") as f:
        assert json.loads(f.metadata()["manifest"])["text"] == TEXT
    payload = torch.load(files["pt"], weights_only=True)
    assert isinstance(payload["manifest"], str) and json.loads(payload["manifest"])["seed"] == 17
    assert np.array_equal(payload["layers.0.attn.heads"].numpy(), trace["layers.0.attn.heads"])


@pytest.mark.parametrize("fmt", FORMATS)
def test_float64_lazy_and_selected_names_round_trip(words, tmp_path, fmt):
    cfg = ModelConfig(words.vocab_size, embed_dim=6, key_dim=2, heads=3, kv_heads=1, layers=2, positions="rope")
    b = random_bundle(cfg, words, 2)
    lazy = run_trace(b, TEXT, RunOptions(dtype="float64", lazy_pairwise=True))
    eager = run_trace(b, TEXT, RunOptions(dtype="float64"))
    path = write_snapshot(lazy, tmp_path / f"lazy.{fmt}")
    back = read_snapshot(path)
    assert set(back.names()) == set(eager.names())
    for name in eager.names():  # derived maps are written out like any other tensor
        assert back[name].dtype == np.float64 or back[name].dtype.kind in "bi", name
        assert np.array_equal(back[name], lazy[name]), name  # what the lazy trace gave, bit for bit
        assert_fused_close(back[name], eager[name], name)  # its fused attention: equal to rounding
    part = write_snapshot(eager, tmp_path / f"part.{fmt}", select=["layers.0.attn.*"])
    _, arrays = read_manifest_and_arrays(part)
    assert set(arrays) == {"tokens", "mask"} | {n for n in eager.names() if n.startswith("layers.0.attn.")}
    with pytest.raises(SnapshotError, match="no tensor matches"):
        write_snapshot(eager, tmp_path / f"none.{fmt}", select=["layers.9.*"])


def test_unknown_extension_needs_a_format(trace, tmp_path):
    with pytest.raises(SnapshotError):
        write_snapshot(trace, tmp_path / "s.bin")
    path = write_snapshot(trace, tmp_path / "s.bin", fmt="safetensors")
    assert np.array_equal(read_snapshot(path)["logits"], trace["logits"])  # the reader sniffs the content


# ------------------------------------------------------------------------------------------ never unpickle


class Trap:
    """Unpickling this runs a shell command that creates a marker file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch '{self.marker}'",))


def test_the_trap_is_armed(tmp_path):
    marker = tmp_path / "armed"
    pickle.loads(pickle.dumps(Trap(marker)))  # an unsafe load really runs it
    assert marker.exists()


def test_npz_with_an_object_array_is_refused_without_unpickling(files, tmp_path):
    marker = tmp_path / "npz-pwned"
    with np.load(files["npz"], allow_pickle=False) as data:
        content = {k: data[k] for k in data.files}
    content["tokens"] = np.array([Trap(marker)], dtype=object)
    evil = tmp_path / "evil.npz"
    np.savez(evil, **content)
    with pytest.raises(SnapshotError):
        read_snapshot(evil)
    with pytest.raises(SnapshotError):
        read_manifest_and_arrays(evil)
    assert not marker.exists()


def test_pt_with_a_pickled_payload_is_refused_without_unpickling(files, tmp_path):
    marker = tmp_path / "pt-pwned"
    payload = torch.load(files["pt"], weights_only=True)
    payload["tokens"] = Trap(marker)
    evil = tmp_path / "evil.pt"
    torch.save(payload, evil)
    with pytest.raises(SnapshotError):
        read_snapshot(evil)
    assert not marker.exists()
    legacy = tmp_path / "legacy.pt"  # the old non-zip torch format is one big pickle
    torch.save({"manifest": payload["manifest"], "tokens": Trap(marker)}, legacy, _use_new_zipfile_serialization=False)
    with pytest.raises(SnapshotError):
        read_snapshot(legacy)
    plain = tmp_path / "plain.pt"
    plain.write_bytes(pickle.dumps({"manifest": "{}", "x": Trap(marker)}))
    with pytest.raises(SnapshotError):
        read_snapshot(plain)
    assert not marker.exists()


# ------------------------------------------------------------------------------------------ damaged files


@pytest.mark.parametrize("fmt", FORMATS)
def test_truncated_files_are_snapshot_errors(files, tmp_path, fmt):
    data = files[fmt].read_bytes()
    for n in (len(data) // 2, len(data) - 10, 200, 20, 9, 1):
        cut = tmp_path / f"cut{n}.{fmt}"
        cut.write_bytes(data[:n])
        with pytest.raises(SnapshotError):
            read_snapshot(cut)


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"hello world, not a snapshot",
        os.urandom(4096),
        b"PK\x03\x04" + os.urandom(300),
        (2**40).to_bytes(8, "little") + b"{" + os.urandom(50),
        (30).to_bytes(8, "little") + b'{"a": [1, 2' + b"\0" * 30,
    ],
    ids=["empty", "text", "random", "fake-zip", "huge-header", "bad-header"],
)
def test_garbage_files_are_snapshot_errors(tmp_path, content):
    for suffix in FORMATS:
        p = tmp_path / f"g.{suffix}"
        p.write_bytes(content)
        with pytest.raises(SnapshotError):
            read_snapshot(p)


def test_missing_file_is_a_snapshot_error(tmp_path):
    with pytest.raises(SnapshotError, match="cannot open"):
        read_snapshot(tmp_path / "nope.npz")


def test_a_zip_that_is_neither_npz_nor_pt(tmp_path):
    p = tmp_path / "other.npz"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(SnapshotError):
        read_snapshot(p)


def _rewrite(path: Path, fmt: str, out: Path, change) -> Path:
    """Write a copy of a snapshot with its manifest (a dict) changed by ``change``."""
    if fmt == "npz":
        with np.load(path, allow_pickle=False) as data:
            content = {k: data[k] for k in data.files}
        m = change(json.loads(content["manifest"].tobytes()))
        content["manifest"] = np.frombuffer(json.dumps(m).encode(), dtype=np.uint8)
        np.savez(out, **content)
    elif fmt == "safetensors":
        from safetensors import safe_open
        from safetensors.numpy import save_file

        with safe_open(str(path), framework="numpy") as f:
            content = {k: f.get_tensor(k) for k in f.keys()}
            m = change(json.loads(f.metadata()["manifest"]))
        save_file(content, str(out), metadata={"manifest": json.dumps(m)})
    else:
        payload = torch.load(path, weights_only=True)
        payload["manifest"] = json.dumps(change(json.loads(payload["manifest"])))
        torch.save(payload, out)
    return out


@pytest.mark.parametrize("fmt", FORMATS)
def test_newer_format_version_is_refused_clearly(files, tmp_path, fmt):
    future = _rewrite(files[fmt], fmt, tmp_path / f"future.{fmt}", lambda m: {**m, "format_version": 999})
    with pytest.raises(SnapshotError) as err:
        read_snapshot(future)
    msg = str(err.value)
    assert "999" in msg and "newer" in msg and "\n" not in msg
    # control: the same rewrite with the current version reads fine
    same = _rewrite(files[fmt], fmt, tmp_path / f"same.{fmt}", lambda m: m)
    assert read_snapshot(same).C == 5


@pytest.mark.parametrize("fmt", ["npz", "pt"])
def test_manifest_that_is_not_ours(files, tmp_path, fmt):
    other = _rewrite(files[fmt], fmt, tmp_path / f"other.{fmt}", lambda m: {**m, "format": "something-else"})
    with pytest.raises(SnapshotError):
        read_snapshot(other)
    broken = _rewrite(
        files[fmt], fmt, tmp_path / f"broken.{fmt}", lambda m: {k: v for k, v in m.items() if k != "batch"}
    )
    with pytest.raises(SnapshotError, match="incomplete"):
        read_snapshot(broken)


def test_npz_without_manifest_or_with_unknown_names(files, tmp_path):
    with np.load(files["npz"], allow_pickle=False) as data:
        content = {k: data[k] for k in data.files}
    bare = dict(content)
    bare.pop("manifest")
    np.savez(tmp_path / "bare.npz", **bare)
    with pytest.raises(SnapshotError, match="manifest"):
        read_snapshot(tmp_path / "bare.npz")
    np.savez(tmp_path / "extra.npz", **content, **{"my.secret": np.zeros(3)})
    with pytest.raises(SnapshotError, match="my.secret"):
        read_snapshot(tmp_path / "extra.npz")
    buf = io.BytesIO()
    np.savez(buf, **{k: v for k, v in content.items() if k != "mask"})
    (tmp_path / "nomask.npz").write_bytes(buf.getvalue())
    with pytest.raises(SnapshotError, match="mask"):
        read_snapshot(tmp_path / "nomask.npz")


# ------------------------------------------------------------------------------------------ the documentation

DOC = REPO / "docs" / "snapshot-format.md"


def _doc_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]


def test_doc_names_table_matches_the_names_module():
    from explorer import names

    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| `"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells[1]
    for entry in names.ALL:
        assert entry.pattern in rows, f"{entry.pattern} is not documented"
        assert rows[entry.pattern] == "(" + ", ".join(entry.labels) + ")", entry.pattern


def test_doc_lists_every_manifest_field(trace):
    text = DOC.read_text(encoding="utf-8")
    manifest = trace.manifest()
    for key in manifest:
        assert f"`{key}`" in text, f"manifest field {key} is not documented"
    for key in manifest["config"]:
        assert f"`{key}`" in text, f"config field {key} is not documented"
    for key in manifest["options"]:
        assert f"`{key}`" in text, f"option {key} is not documented"


@pytest.mark.parametrize(
    "sizes",
    [dict(), dict(heads=4, kv_heads=2, key_dim=2, positions="rope", bias=True, norm="rmsnorm")],
    ids=["plain", "gqa-rope-bias"],
)
def test_doc_code_runs_on_real_snapshots(words, tmp_path, capsys, sizes):
    cfg = ModelConfig(words.vocab_size, **{**dict(embed_dim=8, key_dim=4, heads=2, layers=1), **sizes})
    t = run_trace(random_bundle(cfg, words, 9), TEXT + "\nzzz", RunOptions(mask=MaskSpec.parse("window:2")))
    numpy_block, st_block, pt_block = _doc_blocks()[:3]
    path = str(write_snapshot(t, tmp_path / "s.npz"))
    scope = {"path": path}
    exec(compile(numpy_block, "docs/snapshot-format.md (numpy)", "exec"), scope)  # its asserts must hold
    assert np.array_equal(scope["arrays"]["logits"], t["logits"])
    assert scope["derived"].shape == t["layers.0.attn.weights"].shape
    for block, fmt in ((st_block, "safetensors"), (pt_block, "pt")):
        scope = {"path": str(write_snapshot(t, tmp_path / f"s.{fmt}"))}
        exec(compile(block, f"docs/snapshot-format.md ({fmt})", "exec"), scope)
        assert scope["manifest"]["text"] == t.manifest()["text"]
        assert set(scope["arrays"]) == set(t.names())
        assert all(np.array_equal(scope["arrays"][n], t[n]) for n in t.names())
    assert "This" in capsys.readouterr().out
