"""Keep a Rust panic's own report off the terminal while a tokenizer runs.

When the ``tokenizers`` library panics (a catastrophic regex in a tokenizer.json), Rust's panic hook writes
several lines (a whole backtrace when RUST_BACKTRACE is set) straight to file descriptor 2 before Python sees
a PanicException. The caller turns that exception into one ``error:`` line; this context manager points fd 2
at a scratch file for the duration of the call, drops what it caught when the call failed and passes it on
unchanged when it did not (another thread's warning written meanwhile is delayed, never lost).
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_scratch = None  # one scratch file per process, emptied after each use


@contextmanager
def rust_panics_quiet() -> Iterator[None]:
    global _scratch
    with _lock:
        try:
            if _scratch is None:
                _scratch = tempfile.TemporaryFile()
            sys.stderr.flush() if sys.stderr is not None else None
            saved = os.dup(2)
        except (OSError, ValueError):  # no usable fd 2 (a windowed app on some systems): nothing to hide
            yield
            return
        os.dup2(_scratch.fileno(), 2)
        failed = False
        try:
            yield
        except BaseException:
            failed = True
            raise
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            size = _scratch.tell()
            if size and not failed:  # someone else's output: hand it on
                _scratch.seek(0)
                os.write(2, _scratch.read(size))
            _scratch.seek(0)
            _scratch.truncate()
