"""``TraceResult.show()``: the desktop window, in a process of its own, at a trace's state.

The trace is saved as a snapshot in a temporary folder and opened with ``python -m explorer gui --snapshot``
at the selection's stage, layer, head, sentence and token. A snapshot, always: the window then shows exactly
the numbers the notebook holds (interventions, sizes, a model opened from a folder, a GGUF file), read-only,
where a live window would recompute them from the model and could differ (another device, a model changed on
disk). The notebook's Python never imports Qt: the window is another process.

Everything the command would refuse is refused here first, with its own one line (an ExplorerError): no
display to open on, a size no screen holds, a head or token the trace does not have.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import tempfile
from pathlib import Path

import explorer
from explorer.errors import ConfigError, ExplorerError
from explorer.present.stages import STAGE_KEYS
from explorer.session.selecting import ASKABLE, unshowable
from explorer.util.printable import one_line, quoted
from explorer.util.window_checks import check_display, check_screenshot_target, parse_size

TEMP_PREFIX = "attention-explorer-show-"
SNAPSHOT_NAME = "trace.npz"


def launch(core_trace, selection, screenshot=None, size=None, wait: bool = False):
    """Open the window on ``core_trace`` (a core Trace) at ``selection`` (anything with ``stage``, ``layer``,
    ``head``, ``row``, ``token`` and optionally ``key``; None: the window's defaults).

    ``screenshot``: save the window as this PNG instead of showing it, then end (no display needed);
    ``size``: the window's size, ``"1600x1000"`` or ``(1600, 1000)``. Returns the window's
    ``subprocess.Popen`` at once, or with ``wait`` the ``subprocess.CompletedProcess`` once the window has
    closed (its notes printed here; a failure raised as an ExplorerError with the window's `error:` line).

    The window shows a snapshot: read-only (nothing is recomputed; "Return to the live model" leaves it).
    """
    stage, asked = _checked_selection(core_trace, selection)
    size_text = _size_text(size)
    shot = None if screenshot is None else Path(screenshot).expanduser().absolute()
    if shot is not None:
        check_screenshot_target(shot)
    else:
        check_display()  # without a display, Qt would abort the child with a message nobody reads
    folder = Path(tempfile.mkdtemp(prefix=TEMP_PREFIX))
    try:
        from explorer.export.snapshot import write_snapshot

        snapshot = write_snapshot(core_trace, folder / SNAPSHOT_NAME)
        command = gui_command(snapshot, stage, asked, shot, size_text)
        if wait:
            return _run_to_end(command)
        # A session of its own: Ctrl+C in the terminal of a Python prompt stops the prompt's work, not the window.
        process = subprocess.Popen(command, env=child_environment(), start_new_session=True)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    finally:
        if wait:
            shutil.rmtree(folder, ignore_errors=True)
    return process


def gui_command(snapshot: Path, stage: str | None, asked: dict[str, int], shot: Path | None, size: str | None):
    """``python -m explorer gui --snapshot … --stage … --layer …`` with the interpreter running this code."""
    command = [sys.executable, "-m", "explorer", "gui", "--snapshot", str(snapshot), "--temporary-snapshot"]
    if stage is not None:
        command += ["--stage", stage]
    for name in ASKABLE:
        if name in asked:
            command += [f"--{name}", str(asked[name])]
    if shot is not None:
        command += ["--screenshot", str(shot)]
    if size is not None:
        command += ["--size", size]
    return command


def child_environment() -> dict[str, str]:
    """The window imports the same ``explorer`` as this process: a checkout put on ``sys.path`` by hand (a
    notebook beside the code) is handed on; an installed package is found by the child as it is."""
    env = dict(os.environ)
    root = str(Path(explorer.__file__).resolve().parents[1])
    installed = {str(Path(p).resolve()) for p in [*site.getsitepackages(), site.getusersitepackages()]}
    if root not in installed:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def _checked_selection(trace, selection) -> tuple[str | None, dict[str, int]]:
    """The stage and the numbers to ask the window for; refused as ``gui`` would refuse them."""
    stage = getattr(selection, "stage", None)
    if stage is not None and stage not in STAGE_KEYS:
        raise ConfigError(f"--stage must be one of {', '.join(STAGE_KEYS)}; got {quoted(str(stage))}")
    asked = {}
    for name in ASKABLE:
        value = getattr(selection, name, None)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"--{name} counts from 0, got {quoted(str(value))}")
        asked[name] = int(value)
    if "key" in asked and "token" not in asked:
        raise ConfigError("--key needs --token (a key is a column of the query token's row)")
    problems = unshowable(trace, asked, as_snapshot=True)
    if problems:
        raise ConfigError(problems[0][1])
    return stage, asked


def _size_text(size) -> str | None:
    if size is None:
        return None
    text = f"{size[0]}x{size[1]}" if isinstance(size, (tuple, list)) and len(size) == 2 else str(size)
    w, h = parse_size(text)
    return f"{w}x{h}"


def _run_to_end(command: list[str]) -> subprocess.CompletedProcess:
    """Run the window until it closes; its notes go to this process's stderr (a notebook shows them), its
    failure is raised with the window's own one line."""
    done = subprocess.run(command, env=child_environment(), capture_output=True, text=True, check=False)
    errors = [line[len("error: ") :] for line in done.stderr.splitlines() if line.startswith("error: ")]
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    if notes:
        print("\n".join(notes), file=sys.stderr)
    if done.returncode != 0:
        if errors:
            message = errors[-1]
        else:  # no `error:` line: the window crashed; its last line is all there is to say
            last = (done.stderr.strip().splitlines() or [""])[-1]
            message = f"the window ended with exit code {done.returncode}" + (f": {last}" if last else "")
        error = ExplorerError(one_line(message))
        error.exit_code = done.returncode
        raise error
    return done


def remove_temporary_snapshot(snapshot: str | Path) -> None:
    """What ``gui --temporary-snapshot`` does once its window has closed: remove the folder show() made for
    the snapshot. The window's own process does it (no thread waiting here per call, and it still happens
    when the notebook's kernel has ended first); only a folder show() made is ever removed."""
    folder = Path(snapshot).absolute().parent
    if folder.name.startswith(TEMP_PREFIX) and folder.parent == Path(tempfile.gettempdir()).absolute():
        shutil.rmtree(folder, ignore_errors=True)
