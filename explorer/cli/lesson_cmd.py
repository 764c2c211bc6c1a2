"""``attention-explorer lesson check|export``: validate a lesson file, or render it as hand-outs.

``check`` is headless. ``export`` renders every step with the real window offscreen (the Qt layer is
imported only then, as ``gui`` does), one page per step in a PDF or one PNG per step in a folder.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from explorer.errors import ConfigError
from explorer.lessons import read_lesson, resolve_all, skip_note


def add_parser(sub) -> None:
    p = sub.add_parser("lesson", help="check a lesson file, or export it as slides (PDF or PNGs)")
    lsub = p.add_subparsers(dest="lesson_command", metavar="ACTION", required=True)
    check = lsub.add_parser("check", help="validate a lesson: exit 0, or one error: line naming file, line and key")
    check.add_argument("file", metavar="FILE|builtin")
    check.set_defaults(func=run_check)
    export = lsub.add_parser("export", help="one PDF page or one PNG per step: the figure and its caption")
    export.add_argument("file", metavar="FILE|builtin")
    export.add_argument("-o", "--output", required=True, metavar="OUT.pdf|DIR", help="a .pdf file, or a folder for PNGs")
    export.add_argument("--language", choices=["en", "ja"], help="language of the captions (default: the lesson's first)")
    export.add_argument("--size", metavar="WxH", default="1400x900", help="window size each step is rendered at")
    export.set_defaults(func=run_export)


def run_check(args: argparse.Namespace) -> int:
    lesson = read_lesson(args.file)
    notes = [f"step {i + 1}: {n}" for i, s in enumerate(resolve_all(lesson)) if (n := skip_note(s))]
    for language in lesson.languages:
        missing = [i + 1 for i, s in enumerate(lesson.steps) if language not in s.caption]
        if missing:
            notes.append(f"no {language} caption in steps {', '.join(map(str, missing))}: they show another language's")
    for note in notes:
        print(f"note: {note}")
    print(f"ok: {lesson.title_in(lesson.languages[0])} — {len(lesson.steps)} steps, languages {', '.join(lesson.languages)}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
        if not (320 <= w <= 7680 and 240 <= h <= 4320):
            raise ValueError
    except ValueError:
        raise ConfigError(f"--size takes WIDTHxHEIGHT between 320x240 and 7680x4320, e.g. 1400x900; got {args.size!r}") from None
    lesson = read_lesson(args.file)
    language = args.language or lesson.languages[0]
    _check_output(Path(args.output))
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # hand-outs need no screen, and no window flashing on one
    from explorer.ui.lesson_export import export_lesson

    for path in export_lesson(lesson, args.output, language, (w, h)):
        print(f"wrote {path}")
    return 0


def _check_output(out: Path) -> None:
    """A target that cannot be written is the command's one `error:` line before Qt loads (a PDF's folder must
    exist; a folder of PNGs is made)."""
    from explorer.lessons.model import LessonError
    from explorer.util.fileio import describe_os_error

    if out.suffix.lower() == ".pdf":
        if not out.parent.is_dir():
            raise LessonError(f"cannot write {out}: the folder does not exist")
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise LessonError(describe_os_error(exc, out)) from None
