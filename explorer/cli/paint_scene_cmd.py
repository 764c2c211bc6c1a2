"""``attention-explorer paint-scene -o OUT.png|pdf|svg [--dpi D]``, not listed in ``--help``: paints a figure's
scene (explorer/handouts/scene.py), pickled on standard input by the Python API (explorer/api/figure.py), with
the figure command's own Qt painter. The API imports no Qt, so its PNGs and PDFs are painted in this child
process; the pickle comes from the parent that started it, never from a file."""

from __future__ import annotations

import argparse
import sys


def add_parser(sub) -> None:
    # No help=: argparse lists only the commands given one. This one is the API's, not a user's.
    p = sub.add_parser(
        "paint-scene", description="Paint a pickled figure scene read on standard input (used by explorer.api)."
    )
    p.add_argument("-o", "--output", required=True, metavar="OUT.png|pdf|svg", help="the file; its ending chooses")
    p.add_argument("--dpi", type=float, default=96.0, help="resolution of a PNG (default 96: one pixel per CSS px)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from explorer.handouts.sizes import figure_size, output_kind
    from explorer.util.fileio import check_writable_target

    output_kind(args.output)
    check_writable_target(Path(args.output))
    size = figure_size(dpi=args.dpi)  # the figure command's limits on the resolution
    scene = _scene(sys.stdin.buffer.read())
    try:
        from explorer.ui.printing.headless import drawing_application
    except ModuleNotFoundError as exc:  # an install without the window's packages still writes SVG
        if not (exc.name or "").startswith(("PySide6", "shiboken6")):
            raise
        from explorer.errors import ConfigError

        raise ConfigError("a PNG or PDF is painted with Qt (PySide6), which is not installed: save as .svg") from None
    drawing_application("en")  # the words are in the scene already
    from explorer.ui.printing.figure_export import write_scene

    path, said = write_scene(scene, args.output, size)
    print(f"wrote {path} ({said})")
    return 0


def _scene(data: bytes):
    import pickle

    from explorer.errors import ConfigError
    from explorer.handouts.scene import Scene

    try:
        scene = pickle.loads(data)
    except Exception:  # any damage: the one line below, never a traceback
        scene = None
    if not isinstance(scene, Scene):
        raise ConfigError("paint-scene reads a figure's scene pickled on standard input, as explorer.api sends it")
    return scene
