"""Issue 26, lesson export: the one safe writer, plain text, bounded memory and Ctrl-C, as real processes.

Each case ends in exactly one `error:` line and exit 2 (or, where the input is legal, exit 0), never a
traceback or a hang; the user's files are left as they were; nothing beside the named output is created.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
from hostile import ROOT, one_error, run_cli  # noqa: E402

GiB = 1024**3
ONE_STEP = """
title = "T"
[[steps]]
caption = "{caption}"
stage = "{stage}"
"""


def lesson(path: Path, steps: list[str], title: str = "T") -> Path:
    """A lesson of these caption-and-settings steps (each a TOML fragment), in English."""
    body = [f'title = "{title}"'] + [f"[[steps]]\n{s}" for s in steps]
    path.write_text("\n".join(body) + "\n", encoding="utf-8")
    return path


def small(tmp_path: Path, n: int = 2) -> Path:
    return lesson(tmp_path / "l.toml", [f'caption = "step {i}"\nstage = "weights"' for i in range(n)])


def names_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_no_fixed_temporary_name_and_the_mode_of_the_replaced_file_is_kept(tmp_path):
    src = small(tmp_path)
    out = tmp_path / "out.pdf"
    out.write_bytes(b"old")
    out.chmod(0o640)
    users = tmp_path / ".out.pdf.part"  # a user's own file with the name the old export consumed
    users.write_bytes(b"mine")
    code, stdout, err, _ = run_cli(tmp_path, "lesson", "export", src, "-o", out)
    assert code == 0, err
    assert out.read_bytes().startswith(b"%PDF") and stat.S_IMODE(out.stat().st_mode) == 0o640
    assert users.read_bytes() == b"mine"
    assert [n for n in names_in(tmp_path) if n.endswith(".part")] == [".out.pdf.part"]


@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_an_output_that_is_not_a_regular_file_is_refused_before_any_work(tmp_path, kind):
    src = small(tmp_path)
    if kind == "fifo":
        out = tmp_path / "x.pdf"
        os.mkfifo(out)
    elif kind == "device":
        out = Path("/dev/null")
    else:
        out = tmp_path / "d.pdf"
        out.mkdir()
    start = time.monotonic()
    code, _, err, _ = run_cli(tmp_path, "lesson", "export", src, "-o", out, timeout=90)
    assert code == 2 and time.monotonic() - start < 60
    assert one_error(err).startswith(f"error: cannot write {out}: it ")
    if kind == "fifo":
        assert stat.S_ISFIFO(out.stat().st_mode)
    if kind == "device":
        assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("target", ["afile/x.pdf", "afile/slides"])
def test_a_path_through_a_file_names_that_cause(tmp_path, target):
    (tmp_path / "afile").write_text("x")
    code, _, err, _ = run_cli(tmp_path, "lesson", "export", small(tmp_path), "-o", tmp_path / target)
    assert code == 2
    assert one_error(err) == f"error: cannot write {tmp_path / target}: a part of the path is a file, not a folder"


def test_png_slides_replace_the_folder_and_never_write_through_a_link(tmp_path):
    """A link of a slide's name is the user's, not a slide this command wrote: refused whole (issue 44: the
    folder's replacement removed it), and never written through."""
    victim = tmp_path / "victim.png"
    victim.write_bytes(b"the user's picture")
    slides = tmp_path / "slides"
    slides.mkdir()
    (slides / "step-01.png").symlink_to(victim)
    (slides / "step-07.png").write_bytes(b"an old slide")
    code, _, err, _ = run_cli(tmp_path, "lesson", "export", small(tmp_path), "-o", slides)
    assert code == 2 and "step-01.png in it is not a slide" in one_error(err)
    assert victim.read_bytes() == b"the user's picture"
    assert (slides / "step-01.png").is_symlink() and (slides / "step-07.png").read_bytes() == b"an old slide"
    (slides / "step-01.png").unlink()
    code, _, err, _ = run_cli(tmp_path, "lesson", "export", small(tmp_path), "-o", slides)
    assert code == 0, err
    assert names_in(slides) == ["answers-1.png", "step-01.png", "step-02.png", "title.png"]
    assert (slides / "step-01.png").read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir() if ".ae-" in p.name) == []


def test_a_folder_with_other_files_is_not_replaced(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"jpg")
    code, _, err, _ = run_cli(tmp_path, "lesson", "export", small(tmp_path), "-o", folder)
    assert code == 2 and "the folder holds files that are not slides (holiday.jpg…)" in one_error(err)
    assert names_in(folder) == ["holiday.jpg"]


def test_a_full_disk_is_an_error_and_the_old_file_stays(tmp_path):
    from test_atomic_writes import leftovers, mounted

    src = lesson(tmp_path / "l.toml", [f'caption = "step {i}"\nstage = "weights"\nhead = {i % 4}' for i in range(12)])
    with mounted("full", tmp_path / "tiny") as tiny:
        (tiny / "keep.pdf").write_bytes(b"old")
        code, stdout, err, _ = run_cli(tmp_path, "lesson", "export", src, "-o", tiny / "keep.pdf")
        assert code == 2 and "wrote" not in stdout
        assert one_error(err) == f"error: cannot write {tiny / 'keep.pdf'}: the disk is full"
        assert (tiny / "keep.pdf").read_bytes() == b"old" and leftovers(tiny) == []
        (tiny / "slides").mkdir()
        (tiny / "slides" / "step-01.png").write_bytes(b"old")
        code, _, err, _ = run_cli(tmp_path, "lesson", "export", src, "-o", tiny / "slides", "--size", "1920x1080")
        assert code == 2 and "the disk is full" in one_error(err)
        assert (tiny / "slides" / "step-01.png").read_bytes() == b"old" and leftovers(tiny) == []


def test_markup_in_words_is_shown_as_text_and_loads_nothing(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    pic = tmp_path / "pic.png"
    pic.write_bytes(b"\x89PNG not really")
    table = "<table>" + "<tr><td>x</td></tr>" * 90 + "</table>"  # markup up to the reader's limit on words
    src = lesson(
        tmp_path / "l.toml",
        [
            f'caption = "<img src=\\"{pic}\\"> <img src=\\"/dev/zero\\"> <b>bold</b>"\nquestion = '
            '"<i>why</i>?"\nanswer = "file:///etc/passwd"',
            f'caption = "{table}"',
        ],
        title="<h1>Big</h1>",
    )
    code, _, err, rss = run_cli(tmp_path, "lesson", "export", src, "-o", tmp_path / "o.pdf", timeout=300)
    assert code == 0, err
    text = "".join(
        "".join(p.extract_text().split()) for p in pypdf.PdfReader(str(tmp_path / "o.pdf")).pages
    )  # lines joined
    for shown in (f'<imgsrc="{pic}">', "<b>bold</b>", "<h1>Big</h1>", "<table><tr><td>x</td></tr>", "<i>why</i>?"):
        assert shown in text, shown
    assert rss < 1.5 * GiB


def test_a_megabyte_caption_is_one_error_line_and_a_long_word_is_wrapped(tmp_path):
    src = lesson(tmp_path / "l.toml", ['caption = "' + "x" * 1_000_000 + '"'])
    assert src.stat().st_size < 1024 * 1024
    code, _, err, rss = run_cli(tmp_path, "lesson", "export", src, "-o", tmp_path / "o.pdf", timeout=300)
    assert code == 2 and len(err.strip().splitlines()) == 1  # was SIGSEGV in QPainter
    assert "caption: at most 2,000 characters, got 1,000,000" in err
    src = lesson(tmp_path / "l2.toml", ['caption = "' + "x" * 2_000 + '"'])  # the longest word the reader takes
    code, _, err, rss = run_cli(tmp_path, "lesson", "export", src, "-o", tmp_path / "o.pdf", timeout=300)
    assert code == 0, err
    assert rss < 1.5 * GiB


def test_pages_stream_to_the_file_a_thousand_steps_in_bounded_memory(tmp_path):
    stages = ["weights", "scores", "masked", "tokens"]
    few = lesson(tmp_path / "few.toml", [f'caption = "step {i}"\nstage = "{stages[i % 4]}"' for i in range(10)])
    many = lesson(tmp_path / "many.toml", [f'caption = "step {i}"\nstage = "{stages[i % 4]}"' for i in range(1000)])
    code, _, err, rss_few = run_cli(
        tmp_path, "lesson", "export", few, "-o", tmp_path / "few.pdf", "--no-answers", timeout=600
    )
    assert code == 0, err
    code, out, err, rss_many = run_cli(
        tmp_path, "lesson", "export", many, "-o", tmp_path / "many.pdf", "--no-answers", timeout=900
    )
    assert code == 0, err
    assert "(1001 pages)" in out
    assert rss_many - rss_few < 200 * 1024**2, (rss_few, rss_many)  # the old export held every page: 4.4 GB


def test_the_memory_budget_is_checked_before_a_steps_work(tmp_path):
    src = lesson(tmp_path / "l.toml", ['caption = "small"', 'caption = "large"\nE = 4096\nD = 512\nH = 8\nL = 4'])
    code, _, err, rss = run_cli(
        tmp_path, "lesson", "export", src, "-o", tmp_path / "o.pdf", env={"ATTENTION_EXPLORER_MEMORY_GB": "0.5"}
    )
    assert code == 2 and "MiB budget" in one_error(err) and "step 2" in one_error(err)
    # torch, Qt and the small first step hold about 1 GB; the large step alone would have taken 4.8 GB
    assert rss < 1.5 * GiB and not (tmp_path / "o.pdf").exists()


@contextmanager
def _ctrl_c_as_in_a_terminal() -> Iterator[None]:
    """A child started meanwhile gets SIGINT's default action: a runner started in the background (`make
    test-loaded &` from a script) ignores SIGINT, and a child inherits that; Ctrl-C in a terminal is never
    ignored. Set here around the start (a handler is reset to the default at exec), not in a preexec_fn:
    Python between fork and exec can deadlock in a process with threads, and Popen would wait for ever."""
    try:
        ignored = signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        if ignored:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # not the main thread: nothing to change
        ignored = False
    try:
        yield
    finally:
        if ignored:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interrupt_while_writing(tmp_path: Path, steps: int) -> tuple[int, str, str] | None:
    """Export a lesson of ``steps`` steps and press Ctrl+C (SIGINT) once its pages are being written: (exit
    code, stdout, stderr), or None when it had finished before it could be stopped (a busy machine let the
    whole export run between two looks). The process is stopped (SIGSTOP) the moment pages are seen, so the
    interrupt lands before the file is complete, whatever the machine's load."""
    src = lesson(
        tmp_path / "l.toml",
        [f'caption = "step {i}"\ntext = "This is a pen number {i} ."\nstage = "weights"' for i in range(steps)],
    )
    (tmp_path / "o.pdf").write_bytes(b"old")
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    with _ctrl_c_as_in_a_terminal():
        proc = subprocess.Popen(
            [sys.executable, "-m", "explorer", "lesson", "export", str(src), "-o", str(tmp_path / "o.pdf")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
        )
    partial = lambda: [p for p in tmp_path.iterdir() if p.name.startswith(".o.pdf.ae-") and p.stat().st_size]  # noqa: E731
    try:
        deadline = time.monotonic() + 300
        while not partial() and proc.poll() is None:
            assert time.monotonic() < deadline, "no page was written in 300 s"
            time.sleep(0.02)
        proc.send_signal(signal.SIGSTOP)
        if proc.poll() is not None or not partial():  # it finished (or was renaming) before it was stopped
            proc.send_signal(signal.SIGCONT)
            proc.communicate(timeout=120)
            return None
        proc.send_signal(signal.SIGINT)  # pending until it runs again
        proc.send_signal(signal.SIGCONT)
        stdout, stderr = proc.communicate(timeout=120)
        return proc.returncode, stdout, stderr
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGCONT)
            proc.kill()


def test_ctrl_c_is_one_line_exit_130_and_nothing_is_left(tmp_path):
    for steps in (400, 1600, 6400):  # a longer lesson where a busy machine ran a short one to its end
        for p in tmp_path.iterdir():
            p.unlink()
        ended = _interrupt_while_writing(tmp_path, steps)
        if ended is not None:
            break
    else:
        pytest.fail("the export always ended before Ctrl+C could reach it")
    code, stdout, stderr = ended
    assert code == 130 and stderr == "interrupted\n" and "wrote" not in stdout, ended
    assert (tmp_path / "o.pdf").read_bytes() == b"old"
    assert names_in(tmp_path) == ["l.toml", "o.pdf"]


# The export, with the PDF's closing step made slow and announced (a marker file), so that Ctrl-C lands in it.
SLOW_CLOSE = """
import sys, time
from pathlib import Path
import explorer.ui.printing.pdf_file as pdf_file
real = pdf_file._close
def slow(*args):
    Path(sys.argv[1]).write_text("closing")
    time.sleep(2)
    return real(*args)
pdf_file._close = slow
from explorer.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_ctrl_c_while_the_pdf_is_being_closed_is_exit_130_and_nothing_is_left(tmp_path):
    """Closing the PDF is done before the interrupt is raised (closing it half way crashed the interpreter:
    with SIGINT blocked in the main thread the kernel handed it to another thread, and the export died of
    SIGSEGV with "Cannot destroy paint device that is being painted"); then exit 130 and nothing is left."""
    src = small(tmp_path, 3)
    (tmp_path / "o.pdf").write_bytes(b"old")
    marker = tmp_path.parent / f"{tmp_path.name}.closing"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    with _ctrl_c_as_in_a_terminal():
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                SLOW_CLOSE,
                str(marker),
                "lesson",
                "export",
                str(src),
                "-o",
                str(tmp_path / "o.pdf"),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp_path,
        )
    try:
        deadline = time.monotonic() + 300
        while not marker.exists() and proc.poll() is None:
            assert time.monotonic() < deadline, "the export never reached its closing step in 300 s"
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)  # within the 2 s the closing step now takes
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, stderr, stdout) == (130, "interrupted\n", "")
    assert (tmp_path / "o.pdf").read_bytes() == b"old"
    assert names_in(tmp_path) == ["l.toml", "o.pdf"]
