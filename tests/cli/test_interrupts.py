"""Ctrl-C stays Ctrl-C when a library turns the KeyboardInterrupt into another error (explorer/cli/interrupts.py)."""

from __future__ import annotations

import signal
import threading

import pytest

from explorer.cli.interrupts import noted_interrupts
from explorer.errors import ModelLoadError

pytestmark = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread()
    or signal.getsignal(signal.SIGINT) is not signal.default_int_handler,
    reason="noted_interrupts applies where Ctrl-C has its default handler, on the main thread",
)


def _interrupted_inside_a_library(error: Exception):
    """What a C library does with a KeyboardInterrupt raised during its call: it raises ``error`` instead."""
    try:
        signal.raise_signal(signal.SIGINT)
    except KeyboardInterrupt:
        raise error from None


@pytest.mark.parametrize(
    "error",
    [SystemError("Objects/longobject.c:1208: bad argument to internal function"), ModelLoadError("damaged")],
    ids=["PySide6's SystemError", "a loader's error"],
)
def test_an_error_that_follows_an_interrupt_is_the_interrupt(error):
    with pytest.raises(KeyboardInterrupt):
        with noted_interrupts():
            _interrupted_inside_a_library(error)


def test_the_same_error_without_an_interrupt_is_itself():
    with pytest.raises(SystemError):
        with noted_interrupts():
            raise SystemError("a real one")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
