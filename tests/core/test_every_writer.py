"""Issue 26 item 3: every writer of the core goes through the one safe writer (explorer/util/fileio.py), and
each is held here to the same rules on targets of every kind (tests/core/writer_targets.py): snapshots in
each format, a generation, lessons, a run folder's manifest, checkpoints and the GGUF cache. The window's
writers (pictures, SVG, PDF, the settings file) are in tests/ui/test_every_qt_writer.py."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.config import ModelConfig
from explorer.export.snapshot import read_snapshot, write_snapshot
from explorer.lessons import read_lesson, save_lesson
from explorer.trace import run_trace
from explorer.util.fileio import atomic_file, atomic_write_bytes
from explorer.weights.bundle import random_bundle
from explorer.weights.presets import preset_tokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from writer_targets import FILE_KINDS, FOLDER_KINDS, check, leftovers  # noqa: E402


@pytest.fixture(scope="module")
def bundle():
    tok = preset_tokenizer("words-en.json")
    return random_bundle(ModelConfig(tok.vocab_size, embed_dim=8, key_dim=4, heads=2, layers=1), tok, 5)


@pytest.fixture(scope="module")
def trace(bundle):
    return run_trace(bundle, "This is a pen .")


def _run_manifest(target: Path) -> None:
    from explorer.train.runs import write_run_manifest

    if target.name != "run.json":  # the run's manifest has one name; other kinds are the same write
        return atomic_write_bytes(target, b'{"format": "attention-explorer-run"}\n')
    write_run_manifest(target.parent, {"checkpoints": []})


def file_writers(trace):
    lesson = read_lesson("builtin")
    return {
        "snapshot.npz": (lambda t: write_snapshot(trace, t, "npz"), "s.npz"),
        "snapshot.safetensors": (lambda t: write_snapshot(trace, t, "safetensors"), "s.safetensors"),
        "snapshot.pt": (lambda t: write_snapshot(trace, t, "pt"), "s.pt"),
        "lesson": (lambda t: save_lesson(lesson, t), "lesson.toml"),
        "run.json": (_run_manifest, "run.json"),
        "atomic_file": (lambda t: _stream(t), "stream.bin"),
    }


def _stream(target: Path) -> None:
    with atomic_file(target) as fh:
        for _ in range(64):
            fh.write(os.urandom(4096))  # 256 KiB, more than a full tmpfs holds


@pytest.mark.parametrize("kind", FILE_KINDS)
@pytest.mark.parametrize(
    "writer", ["snapshot.npz", "snapshot.safetensors", "snapshot.pt", "lesson", "run.json", "atomic_file"]
)
def test_every_file_writer_on_every_kind_of_target(trace, tmp_path, writer, kind):
    write, name = file_writers(trace)[writer]
    if kind == "undecodable-name" and writer == "run.json":
        pytest.skip("the run's manifest always has the name run.json")
    check(write, kind, tmp_path, name)


def _checkpoint(bundle):
    from explorer.weights.checkpoint import save_checkpoint

    return lambda t: save_checkpoint(bundle, t)


def _gguf_cache(bundle, source: Path):
    from explorer.weights.gguf.cache import write_cache

    return lambda t: write_cache(t, source, bundle.config, bundle.tokenizer, bundle.model, "tiny")


@pytest.mark.parametrize("kind", FOLDER_KINDS)
@pytest.mark.parametrize("writer", ["checkpoint", "gguf-cache"])
def test_every_folder_writer_on_every_kind_of_target(bundle, tmp_path, writer, kind):
    source = tmp_path / "model.gguf"
    source.write_bytes(b"GGUF")
    write = _checkpoint(bundle) if writer == "checkpoint" else _gguf_cache(bundle, source)
    check(write, kind, tmp_path, "step-000001", folder=True)


NAMES = st.binary(min_size=1, max_size=120).filter(
    lambda b: b"/" not in b and b"\0" not in b and b not in (b".", b"..")
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(raw=NAMES, data=st.binary(max_size=2000))
def test_any_file_name_is_written_as_named_and_nothing_else(tmp_path_factory, raw, data):
    """Names of any bytes (not UTF-8, long, dotted, with spaces or newlines): the target has exactly that name
    and those bytes, and nothing else appears beside it."""
    folder = tmp_path_factory.mktemp("names")
    target = folder / os.fsdecode(raw)
    atomic_write_bytes(target, data)
    assert [os.fsencode(p.name) for p in folder.iterdir()] == [raw]
    assert target.read_bytes() == data


def test_a_written_snapshot_under_an_undecodable_name_reads_back(trace, tmp_path):
    target = tmp_path / os.fsdecode(b"\xff.npz")
    write_snapshot(trace, target)
    assert read_snapshot(target).C == trace.C and not leftovers(tmp_path)
