"""Reading files from anywhere: refuse what is not a regular file before opening it, read at most what can be
used, and turn JSON that Python's parser chokes on into one line.

Why: a FIFO given as any input blocked forever in open(); /dev/zero or a sparse file was read whole before
the text was cut (24 GB); JSON nested 200,000 deep raised RecursionError and a 5000-digit integer a
ValueError, both tracebacks. Every reader of user files goes through here (writing is fileio.py's).
"""

from __future__ import annotations

import codecs
import json
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO

from explorer.errors import ExplorerError

CHUNK = 1 << 20  # read in pieces of 1 MiB: never more than one piece past what is used

# The largest small files we accept, by kind: far above any real one, far below the memory budget.
MAX_JSON_BYTES = 64 * 1024**2  # config.json, model.safetensors.index.json, meta.json
MAX_TOKENIZER_BYTES = 256 * 1024**2  # tokenizer.json (real ones: 2–35 MB)


def kind_of(mode: int) -> str:
    """What a path that is not a regular file is, in words ("a named pipe (FIFO)")."""
    return _kind(mode)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(path: str | Path, mode: int) -> str:
    """The one-line reason a path that exists cannot be read as a file."""
    kind = _kind(mode)
    if kind == "a folder":
        return f"{path} is a folder, not a file"
    return f"{path} is {kind}, not a regular file: give a file (reading it could wait forever or never end)"


def check_regular(path: str | Path, error: type[ExplorerError], missing: str | None = None) -> os.stat_result:
    """stat ``path`` (following links) without opening it; a one-line ``error`` unless it is a regular file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(missing or f"no such file: {path}") from None
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(not_regular(path, st.st_mode))
    return st


def is_regular(path: str | Path, error: type[ExplorerError]) -> bool:
    """False when nothing is there; True for a regular file; ``error`` for anything else (a FIFO, a device).

    For optional files (tokenizer.json, an index): a FIFO in their place must not read as "absent" either.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(not_regular(path, st.st_mode))
    return True


def open_regular(path: str | Path, error: type[ExplorerError], missing: str | None = None) -> BinaryIO:
    """Open for reading without ever blocking: O_NONBLOCK makes open() return at once on a FIFO, and the
    descriptor's own fstat (not the name's, which may have changed since) decides."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(missing or f"no such file: {path}") from None
    except IsADirectoryError:
        raise error(f"{path} is a folder, not a file") from None
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise error(not_regular(path, st.st_mode))
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_text(
    path: str | Path, max_chars: int, error: type[ExplorerError], missing: str | None = None
) -> tuple[str, bool]:
    """The first ``max_chars`` characters of a UTF-8 file and whether there was more, reading at most one chunk
    past them (a 1 GiB file costs a few MB, not 2 GB)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    have = 0
    more = False
    with open_regular(path, error, missing) as fh:
        try:
            while True:
                chunk = fh.read(CHUNK)
                text = decoder.decode(chunk, final=not chunk)
                parts.append(text)
                have += len(text)
                if have > max_chars:
                    more = True
                    break
                if not chunk:
                    break
        except UnicodeDecodeError:
            raise error(f"{path} is not UTF-8 text") from None
        except OSError as exc:
            raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    text = "".join(parts)
    return (text[:max_chars], True) if more or len(text) > max_chars else (text, False)


def read_bytes(
    path: str | Path, max_bytes: int, error: type[ExplorerError], what: str = "file", missing: str | None = None
) -> bytes:
    """A small file whole; a larger one than ``max_bytes`` is refused before it is read."""
    with open_regular(path, error, missing) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            raise error(
                f"{path} is {size / 1024**2:.0f} MB, too large for a {what} (at most {max_bytes / 1024**2:.0f} MB)"
            )
        try:
            data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # it grew while we read
        raise error(f"{path} is too large for a {what} (at most {max_bytes / 1024**2:.0f} MB)")
    return data


def parse_json(text: str | bytes, error: type[ExplorerError], where: str) -> Any:
    """json.loads whose every failure is one line: bad syntax, nesting deeper than Python's stack, integers
    longer than Python converts (4300 digits), bytes that are not UTF-8."""
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{where} is nested too deeply to be read (a damaged or hostile file?)") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where} cannot be read as JSON ({exc})") from None
    except UnicodeDecodeError:
        raise error(f"{where} is not UTF-8 text") from None
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion"
        raise error(f"{where} holds a number too long to read ({str(exc).splitlines()[0][:80]})") from None


def read_json(
    path: str | Path, error: type[ExplorerError], max_bytes: int = MAX_JSON_BYTES, missing: str | None = None
) -> Any:
    return parse_json(read_bytes(path, max_bytes, error, "JSON file", missing), error, str(path))
