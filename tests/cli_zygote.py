"""``attention-explorer ARGV`` as a real process of its own, without paying for its start each time.

A CLI test that runs the command as a process (its exit code, its one `error:` line, its peak memory, a crash
that must not take the test down) spent about 1.2 s of CPU importing torch for each run, well over half the
suite's CLI tests. Here one process per test worker imports torch and the explorer once (a zygote, as
Android starts its apps) and forks a child for each run: the child has its own memory, exit code, stdout and
stderr, environment, working folder and signals, and runs ``explorer.cli.main`` as the command does.

What a fork cannot give is a fresh import: a setting read when a module is imported is the zygote's. So
commands whose test is about what happens at start-up (Qt missing, sockets blocked, the window's import
floor) keep ``subprocess``; the zygote imports no Qt (a child imports it as a fresh process would) and runs
nothing in torch, so it holds no threads to lose in the fork.

Not a test module (no test_ prefix): imported by tests/core/hostile.py.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The zygote: read one request a line, fork, let the child run the command, answer with its pid at once and
# its status when it ends. The child's stdin is /dev/null; its stdout and stderr go to the files named.
_ZYGOTE = r"""
import atexit, json, os, resource, sys, threading, traceback
import torch, numpy  # noqa: F401  (what every run of the command imports; no operation is run)
import explorer.cli, explorer.trace.run, explorer.export.snapshot  # noqa: F401
assert "PySide6" not in sys.modules  # a child imports Qt as a fresh process would
requests, answers = os.fdopen(0, "r"), os.fdopen(int(sys.argv[1]), "w", buffering=1)
for line in requests:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:  # the child: the command's process from here on, ended as the command's process ends
        requests.close()
        answers.close()
        os.setpgid(0, 0)  # its own group: a timeout kills the child and whatever it started
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, name in ((1, job["out"]), (2, job["err"])):
            os.dup2(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False, encoding="utf-8")
        sys.stderr = open(2, "w", buffering=1, closefd=False, encoding="utf-8", errors="backslashreplace")
        os.environ.clear()
        os.environ.update(job["env"])
        os.chdir(job["cwd"])
        sys.argv = ["attention-explorer", *job["argv"]]
        try:
            # whole: as `python -m explorer ARGV` calls it (the real command line: a window's Ctrl+Q and a
            # screenshot end the process at once); else as a caller in the same process does
            code = explorer.cli.main(None if job["whole"] else job["argv"])
        except SystemExit as exc:
            code = exc.code
        except BaseException:  # what the interpreter prints for an exception nobody caught, and its exit 1
            traceback.print_exc()
            code = 1
        finally:
            with open(job["rss"], "w") as fh:
                fh.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024))
        if not isinstance(code, int) and code is not None:
            print(code, file=sys.stderr)
        # The interpreter's own ending, less its module teardown (a quarter of a second with torch loaded,
        # nothing a test can see): wait for the threads left running, run the atexit handlers, flush.
        threading._shutdown()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0 if code is None else code if isinstance(code, int) else 1)
    answers.write(json.dumps({"pid": pid}) + "\n")
    _, status = os.waitpid(pid, 0)
    answers.write(json.dumps({"status": os.waitstatus_to_exitcode(status)}) + "\n")
"""


class _Zygote:
    def __init__(self) -> None:
        read_answers, write_answers = os.pipe()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        env.pop("QT_QPA_PLATFORM", None)  # each request brings its own environment
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE, str(write_answers)],
            stdin=subprocess.PIPE,
            text=True,
            env=env,
            pass_fds=(write_answers,),
            cwd=ROOT,
        )
        os.close(write_answers)
        self.answers = os.fdopen(read_answers, "r")
        self.lock = threading.Lock()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _answer(self, deadline: float | None) -> dict:
        import time

        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([self.answers], [], [], timeout)
        if not ready:
            raise TimeoutError
        line = self.answers.readline()
        if not line:
            raise RuntimeError(f"the CLI zygote ended (exit {self.proc.wait()})")
        return json.loads(line)

    def run(self, argv: list[str], env: dict, cwd: Path, timeout: float, whole: bool) -> tuple[int, str, str, int]:
        import time

        with self.lock, tempfile.TemporaryDirectory(prefix="zygote-") as tmp:
            out, err, rss = Path(tmp, "out"), Path(tmp, "err"), Path(tmp, "rss")
            job = {
                "argv": argv,
                "env": env,
                "cwd": str(cwd),
                "out": str(out),
                "err": str(err),
                "rss": str(rss),
                "whole": whole,
            }
            self.proc.stdin.write(json.dumps(job) + "\n")
            self.proc.stdin.flush()
            pid = self._answer(time.monotonic() + 60)["pid"]
            try:
                status = self._answer(time.monotonic() + timeout)["status"]
            except TimeoutError:
                os.killpg(pid, signal.SIGKILL)
                self._answer(None)  # its status: the zygote is ready for the next request
                raise subprocess.TimeoutExpired(["attention-explorer", *argv], timeout) from None
            text = lambda p: p.read_bytes().decode("utf-8", errors="replace") if p.exists() else ""  # noqa: E731
            return status, text(out), text(err), int(rss.read_text()) if rss.exists() and rss.read_text() else -1

    def close(self) -> None:
        if self.alive():
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


_zygote: list[_Zygote] = []


def run_forked(argv: list[str], env: dict, cwd: Path, timeout: float, whole: bool = False) -> tuple[int, str, str, int]:
    """(exit code, stdout, stderr, peak RSS in bytes of the child, measured inside it, -1 when the command
    ended the process itself): as ``subprocess.run([attention-explorer, *argv], env=env, cwd=cwd,
    timeout=timeout)`` would give. ``whole``: the command line's own call (``main()``), else ``main(argv)``."""
    if not _zygote or not _zygote[0].alive():
        _zygote[:] = [_Zygote()]
        atexit.register(_zygote[0].close)
    return _zygote[0].run([str(a) for a in argv], env, cwd, timeout, whole)


def run_completed(argv: list, env: dict, cwd: Path, timeout: float) -> subprocess.CompletedProcess:
    """``run_forked`` as ``subprocess.run(..., capture_output=True, text=True)`` answers."""
    code, out, err, _rss = run_forked([str(a) for a in argv], env, cwd, timeout, whole=True)
    return subprocess.CompletedProcess(["attention-explorer", *map(str, argv)], code, out, err)
