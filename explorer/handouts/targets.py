"""Where hand-outs may be written, checked before any work (and before Qt loads): a PDF is one regular file
(explorer/util/fileio.py refuses a FIFO, a device or a folder), a folder of PNG slides replaces the folder
as a whole, so it must be new, empty, or slides this command wrote."""

from __future__ import annotations

import re
from pathlib import Path

from explorer.lessons.model import LessonError
from explorer.util.fileio import check_writable_target

SLIDE_NAME = re.compile(r"^(title|step-\d+|answers-\d+)\.png$")


def _through_a_file(out: Path) -> None:
    for parent in out.parents:
        if parent.exists() or parent.is_symlink():
            if not parent.is_dir():
                raise LessonError(f"cannot write {out}: a part of the path is a file, not a folder")
            return


def check_lesson_target(out: str | Path) -> None:
    """A .pdf: a file that may be replaced; anything else: a folder of slides (``check_slides_folder``)."""
    out = Path(out)
    _through_a_file(out)
    if out.suffix.lower() == ".pdf":
        check_writable_target(out)  # a FIFO, a device or a folder: refused before any work
    else:
        check_slides_folder(out)


def check_slides_folder(out: Path) -> None:
    """The folder of PNG slides replaces ``out`` as a whole: ``out`` must be new, empty, or slides this
    command wrote (names title.png, step-NN.png, answers-N.png); a path through a file is named as such."""
    _through_a_file(out)
    if out.is_symlink():
        raise LessonError(f"cannot write {out}: it is a symbolic link; give a folder")
    if not out.exists():
        return
    if not out.is_dir():
        raise LessonError(
            f"cannot write {out}: it exists and is not a folder; give a folder for PNG slides, or a .pdf file"
        )
    try:
        others = [p.name for p in out.iterdir() if not SLIDE_NAME.match(p.name)]
    except OSError as exc:
        raise LessonError(f"cannot write {out}: {exc.strerror or exc}") from None
    if others:
        raise LessonError(
            f"cannot write {out}: the folder holds files that are not slides ({others[0]}…); give a new or empty folder"
        )
