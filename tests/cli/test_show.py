"""``gui --layer/--head/--row/--token/--key`` from the command line, and ``show()``'s launcher
(explorer/api/show.py), which runs that command on a temporary snapshot. Qt is unimportable here
(tests/conftest.py): the launcher never loads it in the caller's process."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from png_size import png_size

from explorer.api import show
from explorer.errors import ConfigError, ExplorerError
from explorer.util.window_checks import NO_DISPLAY

ROOT = Path(__file__).resolve().parents[2]
OFFSCREEN = {"QT_QPA_PLATFORM": "offscreen"}


@pytest.fixture(scope="module")
def trace():
    """The classroom preset (L = 3, H = 4) on five tokens."""
    from explorer.trace import run_trace
    from explorer.weights.presets import load_preset

    return run_trace(load_preset("classroom"), "This is a pen .")


@pytest.fixture(scope="module")
def snapshot(trace, tmp_path_factory):
    from explorer.export.snapshot import write_snapshot

    return write_snapshot(trace, tmp_path_factory.mktemp("snap") / "s.npz")


def _gui(tmp_path: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    base.update(PYTHONPATH=str(ROOT), XDG_CONFIG_HOME=str(tmp_path / "config"))
    return subprocess.run(
        [sys.executable, "-m", "explorer", "gui", *args],
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
    )


def _error_line(res: subprocess.CompletedProcess) -> str:
    lines = res.stderr.strip().splitlines()
    assert res.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.stderr[-2000:]
    return lines[0][len("error: ") :]


def _temporaries() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob(show.TEMP_PREFIX + "*")}


@pytest.mark.parametrize(
    "flags, expected",
    [
        (["--head", "4"], "head 4 does not exist: the model has 4 heads (counted from 0)"),
        (["--layer", "3"], "layer 3 does not exist: the model has layers 0 … 2"),
        (["--token", "5"], "token 5 does not exist: sentence 0 has 5 tokens (counted from 0)"),
        (["--token", "1", "--key", "9"], "key 9 does not exist: sentence 0 has 5 tokens (counted from 0)"),
        (["--row", "1"], "sentence 1 does not exist: the text has 1 sentences (counted from 0)"),
        (["--head", "-1"], "--head counts from 0, got -1"),
        (["--key", "1"], "--key needs --token (a key is a column of the query token's row)"),
    ],
)
def test_what_a_snapshot_cannot_show_is_refused_before_the_window(tmp_path, snapshot, flags, expected):
    shot = tmp_path / "x.png"
    res = _gui(tmp_path, "--snapshot", str(snapshot), *flags, "--screenshot", str(shot), env=OFFSCREEN)
    assert _error_line(res) == expected
    assert not shot.exists()


def test_what_a_live_model_cannot_show_is_a_note_and_the_picture_is_taken(tmp_path):
    shot = tmp_path / "x.png"
    res = _gui(
        tmp_path, "--preset", "seed-toy", "--head", "9", "--token", "1", "--screenshot", str(shot), env=OFFSCREEN
    )
    assert res.returncode == 0, res.stderr[-2000:]
    notes = [line for line in res.stderr.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and notes[0].startswith("note: head 9 does not exist") and "--head left out" in notes[0]
    assert png_size(shot)  # a picture was written


@pytest.fixture(autouse=True)
def own_settings(tmp_path, monkeypatch):
    """The windows these tests start keep their settings (a snapshot's recent entry) in the test's folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_show_opens_the_window_on_a_temporary_snapshot_at_the_selection(tmp_path, trace):
    before = _temporaries()
    shot = tmp_path / "shown.png"
    selection = SimpleNamespace(stage="weights", layer=1, head=2, row=0, token=3)
    process = show.launch(trace, selection, screenshot=shot, size=(900, 640))
    assert isinstance(process, subprocess.Popen)
    command = process.args
    assert command[:4] == [sys.executable, "-m", "explorer", "gui"] and command[6] == "--temporary-snapshot"
    asked = dict(zip(command[7::2], command[8::2]))
    assert asked == {
        "--stage": "weights",
        "--row": "0",
        "--layer": "1",
        "--head": "2",
        "--token": "3",
        "--screenshot": str(shot),
        "--size": "900x640",
    }
    folder = Path(command[5]).parent
    assert folder.name.startswith(show.TEMP_PREFIX) and folder.is_dir()
    assert process.wait(timeout=180) == 0
    assert png_size(shot) == (900, 640)
    assert not folder.exists()  # the window's own process removed it as it ended (no thread waits here)
    assert _temporaries() <= before
    remembered = " ".join(p.read_text(errors="replace") for p in (tmp_path / "config").rglob("*") if p.is_file())
    assert folder.name not in remembered  # the temporary snapshot is not a recent file (`gui --snapshot` adds one)
    assert "PySide6" not in sys.modules


def test_show_refuses_what_gui_refuses_with_its_words(tmp_path, trace, snapshot):
    res = _gui(tmp_path, "--snapshot", str(snapshot), "--head", "7", "--screenshot", "x.png", env=OFFSCREEN)
    with pytest.raises(ConfigError) as caught:
        show.launch(trace, SimpleNamespace(stage="weights", layer=0, head=7, row=0, token=None), screenshot="x.png")
    assert str(caught.value) == _error_line(res)


def test_a_live_trace_is_shown_only_at_a_layer_it_holds(trace):
    """The snapshot holds only what the trace captured: a layer it skipped is refused here, where the child
    would have refused it out of sight."""
    from explorer.config import RunOptions
    from explorer.trace import run_trace
    from explorer.weights.presets import load_preset

    one_layer = run_trace(load_preset("classroom"), "This is a pen .", RunOptions(layers_to_capture=(0,)))
    with pytest.raises(ConfigError, match="holds no tensors of layer 2"):
        show.launch(one_layer, SimpleNamespace(stage="weights", layer=2, head=0, row=0, token=None), screenshot="x.png")


def test_without_a_display_show_says_so_and_writes_nothing(trace, monkeypatch):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    before = _temporaries()
    with pytest.raises(ConfigError) as caught:
        show.launch(trace, SimpleNamespace(stage="weights", layer=0, head=0, row=0, token=None))
    assert str(caught.value) == NO_DISPLAY
    assert _temporaries() == before


def test_waiting_raises_the_windows_own_error_line(tmp_path, trace, monkeypatch):
    """A failure only the window's process sees (here its screenshot time limit) comes back as the
    ExplorerError of its `error:` line, and the temporary snapshot is gone."""
    monkeypatch.setenv("ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS", "soon")
    before = _temporaries()
    selection = SimpleNamespace(stage="weights", layer=0, head=0, row=0, token=None)
    with pytest.raises(ExplorerError) as caught:
        show.launch(trace, selection, screenshot=tmp_path / "x.png", wait=True)
    assert str(caught.value).startswith("ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS must be a whole number")
    assert caught.value.exit_code == 2
    assert _temporaries() == before


def test_gui_removes_only_a_folder_show_made(tmp_path):
    """`gui --temporary-snapshot` on a user's own snapshot (the flag typed by hand) never removes their folder."""
    own = tmp_path / (show.TEMP_PREFIX + "mine")
    own.mkdir()
    (own / "trace.npz").write_bytes(b"x")
    show.remove_temporary_snapshot(own / "trace.npz")
    assert (own / "trace.npz").exists()  # not in the system's temporary folder: kept
    made = Path(tempfile.mkdtemp(prefix=show.TEMP_PREFIX))
    (made / "trace.npz").write_bytes(b"x")
    show.remove_temporary_snapshot(made / "trace.npz")
    assert not made.exists()
