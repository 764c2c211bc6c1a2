"""Where hand-outs may be written, checked before any work (and before Qt loads): a PDF is one regular file
(explorer/util/fileio.py refuses a FIFO, a device or a folder), a folder of PNG slides replaces the folder
as a whole, so it must be new, empty, or slides this command wrote."""

from __future__ import annotations

import os
import re
from pathlib import Path

from explorer.lessons.model import LessonError
from explorer.util.fileio import check_writable_target
from explorer.util.printable import shown

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
        with os.scandir(out) as entries:
            # A slide is a regular file of a slide's name: a folder or a link named title.png is a user's, and
            # replacing the folder deleted what was inside it (the check matched names, not kinds).
            found = [(e.name, e.is_file(follow_symlinks=False)) for e in entries]
    except OSError as exc:
        raise LessonError(f"cannot write {out}: {exc.strerror or exc}") from None
    others = [name for name, regular in found if not SLIDE_NAME.match(name)]
    if others:
        raise LessonError(
            f"cannot write {out}: the folder holds files that are not slides ({shown(others[0])}…); give a new or "
            "empty folder"
        )
    odd = [name for name, regular in found if not regular]
    if odd:
        raise LessonError(
            f"cannot write {out}: {shown(odd[0])} in it is not a slide (a folder, a link or a device of that "
            "name); give a new or empty folder"
        )
