"""Shared test setup. Qt runs offscreen everywhere (set before any Qt import); the core's, the headless
CLI's and the Python API's tests (tests/core, tests/cli, tests/api) are collected and run with Qt
unimportable (tests/qt_blocker.py); a window they need runs in its own process."""

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as explorer/__init__ does, before numpy loads
# The suite's two workers (and the processes the tests start) share the machine's cores: torch's OpenMP threads
# spinning after each parallel region took the core another worker needed. tests/core on 2 cores: 89-93 s of
# CPU and 52-55 s, against 66-70 s and 41-43 s waiting passively. The app keeps libgomp's default, which
# measured better there (a single trace at C = 256: 0.27 s against 0.29 s). Set before torch loads.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The suite starts a few hundred Python processes (the CLI, the app's screenshots, probes); with
# PYTHONDONTWRITEBYTECODE set (as on the machines this project is built on) each compiled the app's modules
# again. Written once here, as an installed app's are, they are read by every process after.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

sys.path.insert(0, str(Path(__file__).parent))
from qt_blocker import qt_unimportable  # noqa: E402

WITHOUT_QT = tuple(Path(__file__).parent / d for d in ("core", "cli", "api"))


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


def pytest_collection_modifyitems(items):
    """The long files first: pytest-xdist hands out files in this order, and a file of a minute (the real
    window's probe, the monkey) handed out last kept one worker busy while the other had nothing left to do
    (the suite's last 80 s on one core). e2e first (their wait is mostly a window at rest, the other worker
    runs meanwhile), then the slow ones, then the rest in their order."""

    def rank(item) -> int:
        return 0 if item.get_closest_marker("e2e") else 1 if item.get_closest_marker("slow") else 2

    items.sort(key=rank)  # stable: within a rank, the files and tests keep their order
