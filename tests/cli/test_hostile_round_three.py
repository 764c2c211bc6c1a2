"""Issue 26: the newer surfaces given hostile input as a real process. Each case ends in exactly one `error:` line
and exit code 2 (or, where the input is legal, exit 0; a reader that left, 141), never a traceback, never a
hang (timeouts here are hang guards only), with the peak memory measured inside the child where memory is the
point, and the user's files left as they were."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
import hostile  # noqa: E402
from hostile import PEN, ROOT, one_error, run_cli  # noqa: E402

GiB = 1024**3
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    "QT_QPA_PLATFORM": "offscreen",
}


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    return hostile.good_snapshot(tmp_path_factory.mktemp("good") / "good.npz")


def _run(argv, tmp_path: Path, stdout, env: dict | None = None, cwd: Path | None = None, timeout: float = 120):
    return subprocess.run(
        [sys.executable, "-m", "explorer", *map(str, argv)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**ENV, "XDG_CONFIG_HOME": str(tmp_path / ".config"), **(env or {})},
        cwd=cwd or tmp_path,
        timeout=timeout,
    )


# ------------------------------------------------------------------------------------------ the terminal

PIPE_CASES = {
    "version": ["--version"],
    "help": ["--help"],
    "info": ["info", "{good}"],
    "lesson-check": ["lesson", "check", "builtin"],
    "generate-json": ["generate", "the cat", "--preset", "seed-toy", "-n", "3", "--json"],
    "attribute": ["attribute", "the cat sat", "--preset", "seed-toy", "--target-id", "3"],
    "export": ["export", PEN, "--preset", "seed-toy", "-o", "{tmp}/s.npz"],
}


def _argv(case: list[str], good: Path, tmp_path: Path) -> list[str]:
    return [a.format(good=good, tmp=tmp_path) for a in case]


@pytest.mark.parametrize("case", list(PIPE_CASES))
def test_a_reader_that_left_ends_every_command_quietly(tmp_path, good, case):
    """`… | (exec 0<&-)`: every command, --version included, stops with 141 and says nothing (it printed
    "Exception ignored … BrokenPipeError" and exited 120)."""
    read, write = os.pipe()
    os.close(read)
    try:
        r = _run(_argv(PIPE_CASES[case], good, tmp_path), tmp_path, stdout=write)
    finally:
        os.close(write)
    assert r.returncode == 141, r.stderr
    assert "Traceback" not in r.stderr and "Exception ignored" not in r.stderr and "BrokenPipe" not in r.stderr


@pytest.mark.parametrize("case", ["version", "info", "export"])
def test_output_that_cannot_be_written_is_one_error_line(tmp_path, good, case):
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        r = _run(_argv(PIPE_CASES[case], good, tmp_path), tmp_path, stdout=full)
    assert r.returncode == 2  # `info > /dev/full` exited 0 with its output lost
    assert "cannot write the output: the disk is full" in one_error(r.stderr)


@pytest.mark.parametrize(
    "env",
    [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"}],
    ids=["ascii", "c-locale"],
)
def test_an_ascii_only_terminal_gets_escapes_not_a_traceback(tmp_path, good, env):
    r = _run(["info", good], tmp_path, stdout=subprocess.PIPE, env=env)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "\\xb7" in r.stdout or "\\xd7" in r.stdout  # '·' and '×' written as escapes
    r = _run(
        ["export", "x", "--preset", "seed-toy", "-o", tmp_path / "s.npz"], tmp_path, stdout=subprocess.PIPE, env=env
    )
    assert r.returncode == 0 and "Traceback" not in r.stderr and "wrote" in r.stdout


def test_a_deleted_current_folder_is_one_error_line(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, time; print('ready', flush=True); sys.stdin.readline(); "
            "from explorer.cli import main; raise SystemExit(main(['export', 'x', '--preset', 'seed-toy', "
            "'-o', 'x.npz']))",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=gone,
        env=ENV,
    )
    assert proc.stdout.readline().strip() == "ready"  # the interpreter is up (its start-up needs the folder)
    gone.rmdir()  # while the process sits in it
    out, err = proc.communicate("\n", timeout=120)
    assert proc.returncode == 2 and "current folder no longer exists" in one_error(err), err
    assert "oneMKL" not in err


def test_eighty_thousand_arguments_are_refused_at_once(tmp_path, good):
    code, _, err, _ = run_cli(tmp_path, "info", good, *["--json"] * 80_000, timeout=60)
    assert code == 2 and "too many arguments (80,002)" in one_error(err)


# ------------------------------------------------------------------------------------------ argv strings

ARG = st.text(
    alphabet=st.characters(codec=None)
    | st.sampled_from(["\n", "\x1b", "\r", "\udcff", "\udc80", "\u202e", ".", ":", "@", "#", "-", "0", "9"]),
    min_size=1,
    max_size=24,
)
OPTIONS = ["--ablate", "--cut", "--mask", "--target", "--names", "--device", "--dtype", "--layers-to-capture"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(option=st.sampled_from(OPTIONS), value=ARG)
def test_argv_strings_with_newlines_escapes_and_undecodable_bytes_are_one_line(tmp_path, capsys, option, value):
    from explorer.cli import main

    code = main(["export", PEN, "--preset", "seed-toy", option, value, "-o", str(tmp_path / "s.npz")])
    err = capsys.readouterr().err
    assert code in (0, 2) and "Traceback" not in err
    assert all(line.isprintable() for line in err.splitlines()), err  # no ESC, no CR, no raw byte
    errors = [ln for ln in err.splitlines() if "error:" in ln]
    assert len(errors) == (1 if code else 0), err


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--ablate", "0." + "1" * 5000], "is larger than any layer, head or position"),
        (["--cut", "0.0:" + "9" * 5000 + ":1"], "is larger than any layer, head or position"),
        (["--patch", "layers.0.out@0-300000000", "--patch-from", PEN], "is larger than any layer, head or position"),
        (
            ["--patch", "layers.0.out@0-" + "9" * 5000, "--patch-from", PEN],
            "is larger than any layer, head or position",
        ),
    ],
    ids=["ablate-5000-digits", "cut-5000-digits", "patch-huge-range", "patch-5000-digits"],
)
def test_numbers_and_strings_at_the_edges_are_one_line(tmp_path, argv, said):
    code, _, err, rss = run_cli(tmp_path, "export", PEN, "--preset", "seed-toy", *argv, "-o", tmp_path / "s.npz")
    assert code == 2 and said in one_error(err), err
    assert rss < 1 * GiB  # the range once built a 12 GB list
    assert not (tmp_path / "s.npz").exists()


def test_a_newline_in_a_typed_token_stays_in_its_line(tmp_path):
    code, _, err, _ = run_cli(tmp_path, "attribute", PEN, "--preset", "seed-toy", "--target", " mat\nerror: x")
    assert code == 2 and "' mat\\nerror: x'" in one_error(err)
    code, _, err, _ = run_cli(
        tmp_path, "export", PEN, "--preset", "seed-toy", "--target", " mat\nerror: x", "-o", tmp_path / "s.npz"
    )
    lines = [ln for ln in err.splitlines() if "error:" in ln]  # argparse's own error line, one line too
    assert code == 2 and len(lines) == 1 and "unrecognized arguments: --target  mat\\nerror: x" in lines[0], err


def test_a_vanishing_temperature_samples_the_likeliest_token(tmp_path):
    code, out, err, _ = run_cli(
        tmp_path, "generate", "the cat", "--preset", "seed-toy", "-n", "3", "--temperature", "5e-324"
    )
    assert code == 0 and "Traceback" not in err
    _, greedy, _, _ = run_cli(tmp_path, "generate", "the cat", "--preset", "seed-toy", "-n", "3")
    assert out == greedy  # T → 0 is greedy decoding


def test_undecodable_tokens_are_not_in_the_vocabulary(tmp_path):
    code, _, err, _ = run_cli(tmp_path, "generate", "the cat", "--preset", "seed-toy", "--stop", os.fsdecode(b"\xff"))
    assert code == 2 and "--stop takes a token of the vocabulary; '\\xff' is not one" in one_error(err)
    code, _, err, _ = run_cli(
        tmp_path, "attribute", "the cat sat", "--preset", "seed-toy", "--target", os.fsdecode(b"\xff")
    )
    assert code == 2 and "is not one token of this model's vocabulary" in one_error(err) and "damaged" not in err


def test_a_bad_screenshot_timeout_is_one_line(tmp_path):
    code, _, err, _ = run_cli(
        tmp_path, "gui", "--screenshot", tmp_path / "s.png", env={"ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS": "abc"}
    )
    assert code == 2 and "ATTENTION_EXPLORER_SCREENSHOT_TIMEOUT_MS must be a whole number of milliseconds" in one_error(
        err
    )
    assert not (tmp_path / "s.png").exists()


# ------------------------------------------------------------------------------------------ lessons


def _lesson(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "lesson.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "deep":
        path.write_text('title = "t"\nx = ' + "[" * 20_000 + "]" * 20_000 + "\n")
    elif kind == "dotted":
        path.write_text('title = "t"\n' + "a." * 30_000 + "b = 1\n")
    elif kind == "escape-key":
        path.write_text('title = "t"\n[[steps]]\ncaption = "c"\n"k\\u001b[2J\\nerror: forged" = 1\n')
    return path


@pytest.mark.parametrize(
    "kind, said",
    [
        ("fifo", "not a lesson file (a named pipe (FIFO), not a regular file)"),
        ("deep", "nested too deeply"),
        ("dotted", "a key of more than 16 dotted parts"),
        ("escape-key", "\\x1b[2J\\nerror: forged"),
    ],
)
@pytest.mark.parametrize("command", ["check", "gui"])
def test_hostile_lesson_files_are_one_line(tmp_path, kind, said, command):
    path = _lesson(tmp_path, kind)
    argv = (
        ["lesson", "check", path]
        if command == "check"
        else ["gui", "--lesson", path, "--screenshot", tmp_path / "s.png"]
    )
    code, _, err, rss = run_cli(tmp_path, *argv, timeout=90)
    assert code == 2 and said in one_error(err), err
    assert "\x1b" not in err and rss < 1 * GiB  # a 30,000-part key took 5.2 GB
    assert not (tmp_path / "s.png").exists()


# ------------------------------------------------------------------------------------------ writing


def test_a_screenshot_under_an_undecodable_name_is_written_as_named(tmp_path):
    name = os.fsdecode(b"\xff.png")
    code, out, err, _ = run_cli(
        tmp_path, "gui", "--preset", "seed-toy", "--size", "600x400", "--screenshot", tmp_path / name, timeout=150
    )
    assert code == 0 and "Traceback" not in err, err
    shot = tmp_path / name
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # it once left a 0-byte target and the picture in a .part
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    assert "wrote '" in out and "\\xff.png'" in out


# ------------------------------------------------------------------------------------------ settings


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "deep", "many-recent"])
def test_a_hostile_settings_file_never_stops_the_window(tmp_path, kind):
    folder = tmp_path / ".config" / "AttentionExplorer"
    folder.mkdir(parents=True)
    path = folder / "attention-explorer.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        if not Path("/dev/zero").exists():
            pytest.skip("no /dev/zero here")
        path.symlink_to("/dev/zero")
    elif kind == "deep":
        path.write_text('{"theme": ' + "[" * 100_000 + "]" * 100_000 + "}")
    else:
        path.write_text(
            json.dumps(
                {
                    "recent_files": [f"/f{i}.npz" for i in range(100_000)],
                    "theme": "evil",
                    "session/source": {"kind": "preset", "name": "classroom", "sizes": [["embed_dim", "xyz"]]},
                }
            )
        )
    before = os.lstat(path)
    code, _, err, rss = run_cli(
        tmp_path,
        "gui",
        "--preset",
        "seed-toy",
        env={"ATTENTION_EXPLORER_TIMINGS": str(tmp_path / "t.json")},
        timeout=150,
    )
    assert code == 0 and "Traceback" not in err, err
    assert (tmp_path / "t.json").exists()  # the window showed its first trace
    assert any(ln.startswith("note: ") for ln in err.splitlines())
    assert rss < 2 * GiB
    after = os.lstat(path)
    if kind in ("fifo", "dev-zero"):
        assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode), before.st_ino)
        assert kind != "dev-zero" or stat.S_ISCHR(os.stat("/dev/zero").st_mode)


# ------------------------------------------------------------------------------------------ snapshots


@pytest.fixture(scope="module")
def kinds(tmp_path_factory) -> dict[str, Path]:
    from explorer.cli import main

    folder = tmp_path_factory.mktemp("kinds")
    assert main(["export", PEN, "--preset", "seed-toy", "--ablate", "0.1", "-o", str(folder / "intervened.npz")]) == 0
    assert main(["generate", "the cat", "--preset", "seed-toy", "-n", "3", "-o", str(folder / "generation.npz")]) == 0
    return {"intervened": folder / "intervened.npz", "generation": folder / "generation.npz"}


def _edit(manifest: dict, arrays: dict, case: str) -> None:
    gen = manifest.get("generation")
    if case == "no-baseline-logits":
        arrays.pop("baseline.logits")
    elif case == "interventions-garbage":
        manifest["interventions"] = "garbage"
    elif case == "ablation-past-the-heads":
        manifest["interventions"]["ablations"][0]["head"] = 99
    elif case == "baseline-without-interventions":
        manifest.pop("interventions")
    elif case == "no-cache-keys":
        for name in [n for n in arrays if n.startswith("cache.")]:
            arrays.pop(name)
    elif case == "generated-ids-outside-the-vocabulary":
        arrays["gen.tokens"] = np.full_like(arrays["gen.tokens"], 10**6)
        for step in gen["steps"]:
            step["token_id"] = 10**6
    elif case == "data-ids-outside-the-vocabulary":
        arrays["gen.tokens"] = np.full_like(arrays["gen.tokens"], 10**6)
    elif case == "incomplete-steps":
        del gen["steps"][1]["prob"]
    elif case == "steps-not-a-list":
        gen["steps"] = "garbage"


SNAPSHOT_CASES = {
    "no-baseline-logits": "intervened",
    "interventions-garbage": "intervened",
    "ablation-past-the-heads": "intervened",
    "baseline-without-interventions": "intervened",
    "no-cache-keys": "generation",
    "generated-ids-outside-the-vocabulary": "generation",
    "data-ids-outside-the-vocabulary": "generation",
    "incomplete-steps": "generation",
    "steps-not-a-list": "generation",
}


@pytest.mark.parametrize("case", list(SNAPSHOT_CASES))
def test_tampered_snapshots_of_every_kind_are_one_line_everywhere(tmp_path, kinds, case):
    from explorer.errors import SnapshotError
    from explorer.export.snapshot import read_generation, read_snapshot

    manifest, arrays = hostile.npz_parts(kinds[SNAPSHOT_CASES[case]])
    _edit(manifest, arrays, case)
    bad = hostile.write_npz(tmp_path / f"{case}.npz", manifest, arrays)
    before = bad.read_bytes()
    code, _, err, _ = run_cli(tmp_path, "info", bad)
    if case == "data-ids-outside-the-vocabulary":
        assert code == 0 and "Traceback" not in err  # info reads the headers only
    else:
        assert code == 2 and f"{case}.npz" in one_error(err), err
    code, _, err, _ = run_cli(tmp_path, "gui", "--snapshot", bad, "--screenshot", tmp_path / "s.png")
    assert code == 2 and f"{case}.npz" in one_error(err), err  # it opened in the window with exit 0
    with pytest.raises(SnapshotError):
        read_snapshot(bad) if SNAPSHOT_CASES[case] == "intervened" else read_generation(bad)
    assert bad.read_bytes() == before and not (tmp_path / "s.png").exists()


def test_good_snapshots_of_every_kind_still_open(tmp_path, kinds):
    from explorer.export.snapshot import read_generation, read_snapshot

    assert read_snapshot(kinds["intervened"]).interventions["ablations"] == [{"layer": 0, "head": 1, "mode": "zero"}]
    assert len(read_generation(kinds["generation"]).steps) == 3
    for path in kinds.values():
        code, _, err, _ = run_cli(tmp_path, "info", path)
        assert code == 0, err


# ------------------------------------------------------------------------------------------ memory


def test_a_generation_past_the_budget_is_refused_before_it_runs(tmp_path):
    code, _, err, rss = run_cli(
        tmp_path,
        "generate",
        "the cat",
        "--preset",
        "classroom",
        "-E",
        "1024",
        "-L",
        "8",
        "-n",
        "4096",
        "--no-cache",
        "--memory-budget",
        "1",
        timeout=180,
    )
    assert code == 2 and "generating" in one_error(err) and "more than the 1.00 GiB budget" in err
    assert rss < 1.5 * GiB
