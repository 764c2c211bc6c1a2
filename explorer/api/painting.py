"""PNG and PDF of a figure from Python without Qt in this process: the scene is pickled to a child process,
``python -m explorer paint-scene`` (explorer/cli/paint_scene_cmd.py), which paints it with the ``figure``
command's own painter. A failure the user can fix comes back as the child's one ``error:`` line."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

from explorer.errors import ExplorerError
from explorer.handouts.scene import Scene

PAINT_TIMEOUT_S = 300  # Qt starts in a second or two; a 100-megapixel PNG takes a few more


def _child_env() -> dict[str, str]:
    """The parent's environment, with this copy of explorer first on the path (a notebook started elsewhere,
    a checkout not installed) and Qt told to draw without a screen."""
    env = dict(os.environ)
    package_root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    env["QT_QPA_PLATFORM"] = "offscreen"  # a figure needs no screen, and none may be there
    return env


def paint(scene: Scene, path: str | Path, dpi: float = 96.0) -> Path:
    """Write ``scene`` to ``path`` (.png at ``dpi``, .pdf, or .svg) in a child process."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "explorer", "paint-scene", "-o", str(path), "--dpi", repr(float(dpi))],
            input=pickle.dumps(scene, protocol=pickle.HIGHEST_PROTOCOL),
            capture_output=True,
            env=_child_env(),
            timeout=PAINT_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired:
        raise ExplorerError(f"painting the figure took more than {PAINT_TIMEOUT_S} s; try a smaller dpi") from None
    if done.returncode != 0:
        raise ExplorerError(_said(done.stderr.decode("utf-8", "replace"), done.returncode))
    return Path(path)


def _said(stderr: str, code: int) -> str:
    """The child's own `error:` line, else its last line (a crash's last words)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("error: "):
            return line[len("error: ") :]
    last = lines[-1] if lines else "no message"
    return f"painting the figure failed (exit code {code}): {last}"


def painted_bytes(scene: Scene, suffix: str, dpi: float = 96.0) -> bytes:
    """The file's bytes (``suffix``: ".png" or ".pdf"), painted into a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="explorer-figure-") as folder:
        return paint(scene, Path(folder) / f"figure{suffix}", dpi).read_bytes()
