"""The temporary files and folders of explorer.util.fileio: their names, the clean-up of those a killed writer
left, and SIGTERM during a write.

A temporary is named ``.NAME.ae-HOST-PID-RANDOM.part`` (``.old`` for a folder being replaced): unique (mkstemp's
RANDOM), hidden, and the app's own by its mark. NAME is the target's name when it is printable UTF-8 of at most
100 bytes, else a stand-in made of its ASCII characters and a hash of the name's bytes: every writer, Qt's included, can
open it (a target ``\\xff.png`` once got a 0-byte file while Qt wrote the picture under another name), and it is never
longer than a file name may be. A later write beside the same target removes those of this machine whose
process is gone (killed with SIGKILL, a power cut); nothing that does not carry the mark is touched.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TEMP_TAG = "ae"  # the app's mark in a temporary name: .NAME.ae-HOST-PID-RANDOM.part
TEMP_NAME = re.compile(
    rf"^\.(?P<name>.+)\.{TEMP_TAG}-(?P<host>[0-9a-f]{{6}})-(?P<pid>\d+)-[A-Za-z0-9_]+\.(?:part|old)$"
)
MAX_STEM = 100  # bytes of the target's name kept in a temporary name (a name may have 255 bytes)


def _sha1_hex(data: bytes) -> str:
    import hashlib  # loads OpenSSL: only when a temporary is named

    return hashlib.sha1(data).hexdigest()


def host_tag() -> str:
    """Six hex digits of this machine's name: a pid says nothing about a write from another machine to a
    shared (network) folder, so only this machine's temporaries are judged by their pid."""
    import socket  # here, not at the top: the window starts without socket and OpenSSL (0.02 s)

    return _sha1_hex(socket.gethostname().encode("utf-8", "replace"))[:6]


def temp_stem(name: str) -> str:
    """The part of a temporary name that stands for the target's ``name``."""
    try:
        if name.isprintable() and len(name.encode("utf-8")) <= MAX_STEM:
            return name
    except UnicodeEncodeError:  # bytes that are not UTF-8 (surrogateescape)
        pass
    plain = "".join(ch if ch.isascii() and ch.isprintable() else "_" for ch in name)
    return f"{plain[:40]}~{_sha1_hex(os.fsencode(name))[:12]}"


def temp_prefix(target: Path) -> str:
    return f".{temp_stem(target.name)}.{TEMP_TAG}-{host_tag()}-{os.getpid()}-"


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: alive, someone else's
        return True
    return True


def remove_stale_temporaries(folder: Path, name: str | None = None) -> list[Path]:
    """Remove the temporary files and folders this app left in ``folder`` (for ``name`` only, when given)
    whose writing process is gone. Nothing that does not carry the app's temporary name is touched."""
    removed = []
    host = host_tag()
    stem = temp_stem(name) if name is not None else None
    try:
        children = list(Path(folder).iterdir())
    except OSError:
        return removed
    for child in children:
        m = TEMP_NAME.match(child.name)
        if not m or (stem is not None and m.group("name") != stem) or m.group("host") != host:
            continue
        if _pid_alive(int(m.group("pid"))):
            continue
        try:
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
            removed.append(child)
        except OSError:
            pass
    return removed


# ------------------------------------------------------------------------------------------------ SIGTERM


class Terminated(SystemExit):
    """SIGTERM arrived during a write: the temporary file is removed, then the process ends (143).

    Raised between any two bytecodes, it can cut an object's ``__init__`` in half (numpy's ZipFile, under
    load): that object's finalizer then fails as the process ends and Python printed its traceback as
    "Exception ignored in …". The process is ending on the user's word; those finalizers are kept quiet."""

    def __init__(self) -> None:
        super().__init__(128 + signal.SIGTERM)
        sys.unraisablehook = _ending_quietly


def _ending_quietly(unraisable) -> None:
    """The unraisable-exception hook once a SIGTERM ends the process: a half-built object's failing
    finalizer is not the user's concern (nothing to report, nothing left to save)."""


_held = 0  # > 0 while a step that must not be cut in half runs (making a temporary, the final renames)
_pending = False  # SIGTERM came while held: raised as Terminated when the step is done


EXIT_TERM = 128 + signal.SIGTERM  # what a shell reports for a process ended by SIGTERM
_received = False  # a SIGTERM came during a write: said even where a library swallowed the exception


def sigterm_received() -> bool:
    """True once a SIGTERM has reached a write of this process. Qt's bindings turn the exception the handler
    raises into another (a SystemError from QPageSize, an AttributeError from a lazy attribute) or drop it
    (a PDF written and exit code 0): the writers and the command ask here instead of trusting the exception."""
    return _received


def _on_sigterm(signum, frame):
    global _pending, _received
    _received = True
    if _held:
        _pending = True
        return
    raise Terminated()


@contextmanager
def sigterm_held() -> Iterator[None]:
    """Defer a SIGTERM that arrives inside the block to its end. Python runs a handler between any two
    bytecodes, so without this a SIGTERM between mkstemp creating the file and the name reaching the
    ``try`` that removes it would leave the temporary behind."""
    global _held, _pending
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if not _held and _pending:  # also when the block failed: the SIGTERM still ends the process
            _pending = False
            raise Terminated()  # noqa: B012 - on purpose: it replaces the block's own exception


@contextmanager
def cleanup_on_sigterm() -> Iterator[None]:
    """While a write is under way on the main thread, SIGTERM raises Terminated (a SystemExit) so that the
    writer's ``except BaseException`` removes the temporary file; the previous handler is put back after."""
    # get_ident, not current_thread(): that would register a dummy thread for a QThread calling in (and keep it)
    if threading.get_ident() != threading.main_thread().ident:
        yield
        return
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except (ValueError, OSError):  # pragma: no cover - no signals here
        yield
        return
    if previous not in (signal.SIG_DFL, None):  # someone else handles it (the GUI, a test runner)
        yield
        return
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
