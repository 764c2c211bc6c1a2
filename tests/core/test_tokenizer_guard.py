"""Issue 13: a tokenizer.json from anywhere cannot hang or crash a trace. Its regex engine's panic (a
BaseException) becomes one InputError without the Rust report on stderr; a tokenizer that is merely very
slow is given up after ENCODE_SECONDS; a FIFO or a device in place of tokenizer.json is refused at once.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from explorer.errors import InputError, ModelLoadError
from explorer.tokenize import Tokenizer
from explorer.tokenize import encoding as encoding_module
from explorer.util.paths import resource

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hostile  # noqa: E402


@pytest.fixture
def catastrophic() -> Tokenizer:
    return Tokenizer.from_str(hostile.catastrophic_tokenizer_json())


def test_a_panic_is_one_input_error_and_nothing_on_stderr(catastrophic, capfd):
    with pytest.raises(InputError, match="the model's tokenizer failed on this text") as info:
        catastrophic.encode("a" * 2000 + "!")
    assert "\n" not in str(info.value)
    err = capfd.readouterr().err
    assert "panicked" not in err and "Onig" not in err
    assert catastrophic.encode("This is a pen .").ids  # the same tokenizer still works on other text


def test_other_output_written_meanwhile_is_not_lost(capfd):
    from explorer.tokenize.quiet import rust_panics_quiet

    with rust_panics_quiet():
        os.write(2, b"a warning from another thread\n")  # fd 2 points at the scratch file here
    assert "a warning from another thread" in capfd.readouterr().err
    with pytest.raises(RuntimeError):
        with rust_panics_quiet():
            os.write(2, b"a panic report\n")
            raise RuntimeError
    assert "a panic report" not in capfd.readouterr().err


def test_a_very_slow_tokenizer_is_given_up(catastrophic, monkeypatch):
    piece = "a" * 18 + "! "  # each piece stays under the retry limit, and costs the same
    start = time.monotonic()
    catastrophic.encode(piece * 10)
    ten_pieces = time.monotonic() - start  # measured here: a busy machine slows this and the give-up alike
    monkeypatch.setattr(encoding_module, "ENCODE_SECONDS", 0.3)
    start = time.monotonic()
    with pytest.raises(InputError, match=r"took more than 0\.3 s on this text"):
        catastrophic.encode(piece * 2000)  # 200 times the ten pieces: minutes on a quiet machine
    assert time.monotonic() - start < 20 * ten_pieces  # given up within a tenth of that
    assert catastrophic.encode("This is a pen .").ids  # later encodes are not stalled behind it


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_tokenizer_json_that_is_not_a_file(tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "tokenizer.json"
        os.mkfifo(path)
        said = "named pipe"
    else:
        path = Path("/dev/zero")
        if not path.exists():
            pytest.skip("no /dev/zero here")
        said = "character device"
    refused, read = [], []
    for _ in range(3):  # the fastest of three: one sample of a busy machine was preempted for 4 ms
        start = time.monotonic()
        with pytest.raises(ModelLoadError, match=said):
            Tokenizer.from_file(path)  # reading it would block until a writer came (FIFO) or never end (device)
        refused.append(time.monotonic() - start)
        start = time.monotonic()
        Tokenizer.from_file(resource("tokenizers", "words-en.json"))  # reading a real one, measured here
        read.append(time.monotonic() - start)
    assert min(refused) < 5 * min(read)  # refused from what the file is, before any reading


def test_the_time_limit_starts_no_thread_per_call(monkeypatch):
    """Issue 37: the guard's helper threads are reused; a thread started for every call (as before) made
    200 encodes start 200 threads."""
    import threading

    from explorer.tokenize import guard

    tokenizer = Tokenizer.from_file(resource("tokenizers", "words-en.json"))
    tokenizer.encode("warm up")  # a helper may be started once
    started = []
    real_start = threading.Thread.start
    monkeypatch.setattr(threading.Thread, "start", lambda self: (started.append(self.name), real_start(self))[1])
    before = guard.helpers_alive()
    for i in range(200):
        assert tokenizer.encode(f"This is pen number {i} .").ids
    assert started == [] and guard.helpers_alive() == before >= 1


def test_a_call_given_up_keeps_its_helper_and_the_next_call_gets_another():
    """A helper still busy with an abandoned call is not handed the next one (that one would wait behind it);
    once the abandoned call ends, its helper serves again, and stop_helpers ends the idle ones."""
    import threading

    from explorer.tokenize import guard

    def helpers() -> set:
        return {t for t in threading.enumerate() if t.name == "tokenize" and t.is_alive()}

    guard.stop_helpers()
    before = helpers()  # helpers still busy with an earlier test's abandoned call
    release = threading.Event()
    with pytest.raises(guard.TimedOut):
        guard.call_bounded(release.wait, 0.1)  # stuck until released
    assert guard.call_bounded(lambda: 42, 5.0) == 42  # on a second helper: not behind the stuck call
    assert len(helpers() - before) == 2
    release.set()
    deadline = time.monotonic() + 10
    while len(guard._idle) < 2 and time.monotonic() < deadline:  # the abandoned call ended: its helper is back
        time.sleep(0.01)
    for _ in range(20):
        assert guard.call_bounded(lambda: 1, 5.0) == 1
    assert len(helpers() - before) == 2  # reused, none added
    guard.stop_helpers()
    assert helpers() - before == set()
