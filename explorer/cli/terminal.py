"""The command's side of the terminal: what it prints always gets out (or fails in one line), and nothing it
prints can act on the terminal.

- A reader that left (``| head``, a closed pipe) ends the command quietly with exit code 141, as a shell
  does: for every command, ``--version`` and ``--help`` included (they printed "Exception ignored …
  BrokenPipeError" and exited 120).
- Output that cannot be written (``> /dev/full``, a full disk) is one ``error:`` line and exit code 2 (``info``
  exited 0 with its output lost).
- An ASCII-only or C-locale terminal gets ``\\xd7`` for ``×`` instead of a UnicodeEncodeError traceback.
- Control characters (ESC of an escape sequence, a carriage return) are escaped on the way out, whatever put
  them in the text: a generated token, a key of a lesson, a file name.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from explorer.util.printable import one_line, terminal_text

EXIT_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a writer whose reader left


class OutputLost(Exception):
    """Writing the command's standard output failed (not a closed pipe): the disk is full, an I/O error."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(exc)
        self.errno = exc.errno
        self.strerror = exc.strerror or str(exc)


class _Stream:
    """A text stream that never raises UnicodeEncodeError, escapes control characters, and turns a failed
    write into OutputLost (stdout) or silence (stderr). Anything else is the wrapped stream's."""

    def __init__(self, stream: TextIO, is_stdout: bool) -> None:
        self._stream = stream
        self._is_stdout = is_stdout

    def write(self, text: str) -> int:
        text = terminal_text(text)
        try:
            try:
                return self._stream.write(text)
            except UnicodeEncodeError:
                encoding = getattr(self._stream, "encoding", None) or "ascii"
                return self._stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))
        except BrokenPipeError:
            raise
        except OSError as exc:
            if self._is_stdout:
                raise OutputLost(exc) from None
            return 0  # stderr itself cannot be written: nowhere left to say anything

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            if self._is_stdout:
                raise OutputLost(exc) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextmanager
def guarded_streams() -> Iterator[None]:
    """sys.stdout and sys.stderr wrapped for the length of one command (put back afterwards: the command
    also runs inside tests and the window's own process)."""
    out, err = sys.stdout, sys.stderr
    if out is not None and not isinstance(out, _Stream):
        sys.stdout = _Stream(out, True)
    if err is not None and not isinstance(err, _Stream):
        sys.stderr = _Stream(err, False)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


def say(kind: str, message: str) -> None:
    """``error: …`` / ``note: …`` / ``cancelled: …`` on stderr, always one line."""
    try:
        print(f"{kind}: {one_line(str(message))}", file=sys.stderr)
    except (OSError, ValueError):
        pass  # stderr closed: nothing can be said


def reader_left() -> int:
    """The reader of stdout left: stop quietly."""
    discard_stdout()
    return EXIT_PIPE


def discard_stdout() -> None:
    """Point the process's standard output at /dev/null once it is known lost (a reader that left, a full
    disk): what is still buffered then goes nowhere at exit, instead of failing again in Python's own final
    flush ("Exception ignored … OSError", exit code 120 without PYTHONUNBUFFERED)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def output_lost_message(exc: OutputLost) -> str:
    if exc.errno == errno.ENOSPC:
        return "cannot write the output: the disk is full (the output was not written whole)"
    return f"cannot write the output: {exc.strerror} (the output was not written whole)"


def flush_stdout() -> None:
    """Flush what the command printed, inside the command: a failure must reach its exit code, not Python's
    shutdown (which says "Exception ignored" and exits 120)."""
    stream = sys.stdout
    if stream is not None:
        stream.flush()


def current_folder_missing() -> bool:
    """The folder the command runs in was deleted: relative paths mean nothing, and torch's MKL aborted the
    process with "Intel oneMKL FATAL ERROR" and no error line."""
    try:
        os.getcwd()
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False
