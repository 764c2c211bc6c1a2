"""``attention-explorer lesson check|export``: validate a lesson file, or render it as hand-outs.

``check`` is headless. ``export`` computes every step's trace without a window and draws its page with the
Qt painter (fonts, PDF), never a widget: a PDF of slides (title page, one page per step with its words as
text and its figure as vectors, the answers at the end) or one PNG per slide in a folder.
"""

from __future__ import annotations

import argparse
import sys

from explorer import vocab
from explorer.errors import ConfigError
from explorer.lessons import read_lesson, resolve_all, skip_note
from explorer.util.printable import one_line


def add_parser(sub) -> None:
    p = sub.add_parser("lesson", help="check a lesson file, or export it as slides (PDF or PNGs)")
    lsub = p.add_subparsers(dest="lesson_command", metavar="ACTION", required=True)
    check = lsub.add_parser("check", help="validate a lesson: exit 0, or one error: line naming file, line and key")
    check.add_argument("file", metavar="FILE|builtin")
    check.set_defaults(func=run_check)
    export = lsub.add_parser("export", help="slides: a PDF (text and vector figures) or a folder of PNGs")
    export.add_argument("file", metavar="FILE|builtin")
    export.add_argument(
        "-o", "--output", required=True, metavar="OUT.pdf|DIR", help="a .pdf file, or a folder for PNG slides"
    )
    export.add_argument(
        "--language", choices=vocab.LANGUAGES, help="language of the captions (default: the lesson's first)"
    )
    export.add_argument(
        "--size",
        metavar="WxH",
        default="1920x1080",
        help="pixels of each PNG slide (default 1920x1080; a PDF is A4 landscape)",
    )
    export.add_argument("--no-answers", action="store_true", help="leave out the answer pages at the end")
    export.set_defaults(func=run_export)


def run_check(args: argparse.Namespace) -> int:
    lesson = read_lesson(args.file)
    notes = [f"step {i + 1}: {n}" for i, s in enumerate(resolve_all(lesson)) if (n := skip_note(s))]
    for language in lesson.languages:
        missing = [i + 1 for i, s in enumerate(lesson.steps) if language not in s.caption]
        if missing:
            notes.append(f"no {language} caption in steps {', '.join(map(str, missing))}: they show another language's")
    for note in notes:
        print(f"note: {one_line(note)}")
    title = one_line(
        lesson.title_in(lesson.languages[0])
    )  # the lesson's own words: one line, nothing a terminal acts on
    print(f"ok: {title} — {len(lesson.steps)} steps, languages {', '.join(lesson.languages)}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
        if not (320 <= w <= 7680 and 240 <= h <= 4320):
            raise ValueError
    except ValueError:
        raise ConfigError(
            f"--size takes WIDTHxHEIGHT between 320x240 and 7680x4320, e.g. 1920x1080; got {args.size!r}"
        ) from None
    lesson = read_lesson(args.file)
    language = args.language or lesson.languages[0]
    from explorer.handouts.targets import check_lesson_target

    check_lesson_target(args.output)  # one `error:` line before Qt loads or any step is traced
    from explorer.ui.printing.headless import drawing_application

    drawing_application(language)
    from explorer.cli.interrupts import noted_interrupts
    from explorer.ui.printing.lesson_export import export_lesson

    with noted_interrupts():
        path, pages = export_lesson(
            lesson,
            args.output,
            language,
            (w, h),
            answers=not args.no_answers,
            note=lambda m: print(f"note: {m}", file=sys.stderr),
        )
    print(f"wrote {path} ({pages} pages)")
    return 0
