"""Shared test setup. Qt runs offscreen everywhere (set before any Qt import); the core's and the headless
CLI's tests (tests/core, tests/cli) are collected and run with Qt unimportable (tests/qt_blocker.py)."""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as explorer/__init__ does, before numpy loads

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

sys.path.insert(0, str(Path(__file__).parent))
from qt_blocker import qt_unimportable  # noqa: E402

WITHOUT_QT = tuple(Path(__file__).parent / d for d in ("core", "cli"))


def _without_qt(path) -> bool:
    path = Path(str(path))
    return any(path.is_relative_to(d) for d in WITHOUT_QT)


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_make_collect_report(collector):
    if isinstance(collector, pytest.Module) and _without_qt(collector.path):
        with qt_unimportable():
            yield
    else:
        yield


def _run_without_qt(item):
    if _without_qt(item.path):
        with qt_unimportable():
            yield
    else:
        yield


pytest_runtest_setup = pytest.hookimpl(hookwrapper=True, trylast=True)(_run_without_qt)
pytest_runtest_call = pytest.hookimpl(hookwrapper=True, trylast=True)(_run_without_qt)
pytest_runtest_teardown = pytest.hookimpl(hookwrapper=True, trylast=True)(_run_without_qt)
