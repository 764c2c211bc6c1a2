"""Lesson files: the format read and written, steps folded, and every kind of bad file refused in one line
that names the file, the line and the key."""

from __future__ import annotations

import pytest
import tomllib

from explorer.lessons import DEFAULT_START, LessonError, dump_lesson, parse_lesson, read_lesson, resolve, resolve_all
from explorer.lessons.model import PANELS, Step, recorded_settings
from explorer.weights.presets import get_preset

GOOD = """\
title = "Two steps"
languages = ["en", "ja"]

[[steps]]
caption.en = "First"
caption.ja = "最初"
preset = "classroom"
D = 32
stage = "scores"
cell = [3, 1]

[[steps]]
caption.en = "Second, only in English"
question.en = "Why?"
answer.en = "Because."
scaling = false
stage = "weights"
"""


def bad(body: str, tmp_path, name: str = "bad.toml") -> str:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    with pytest.raises(LessonError) as info:
        read_lesson(path)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_step_keeps_what_it_does_not_set():
    lesson = parse_lesson(GOOD)
    first, second = resolve_all(lesson)
    assert (first.D, first.stage, first.token, first.key, first.scaling) == (32, "scores", 3, 1, True)
    # The second step sets scaling and stage; D and the picked cell stay as step 1 left them.
    assert (second.D, second.stage, second.token, second.key, second.scaling) == (32, "weights", 3, 1, False)
    assert resolve(lesson, 1) == second


def test_a_preset_is_a_fresh_start_for_the_model():
    lesson = parse_lesson(GOOD + '\n[[steps]]\ncaption = "Toy"\npreset = "seed-toy"\nrow = 1\ntoken = 1\n')
    third = resolve(lesson, 2)
    toy = get_preset("seed-toy")
    assert third.D is None and third.scaling is True  # sizes and options back to the preset's
    assert third.text == toy.example and third.preset == "seed-toy"
    assert third.stage == "weights"  # the selection is not part of the model: it stays
    assert third.key is None  # a new token without a key: no cell picked


def test_missing_caption_in_a_language_falls_back_with_a_note():
    lesson = parse_lesson(GOOD)
    text, note = lesson.steps[1].words("caption", "ja")
    assert text == "Second, only in English"
    assert note and "Japanese" in note and "English" in note
    assert lesson.steps[0].words("caption", "ja") == ("最初", None)


def test_round_trip_keeps_every_value():
    matrix = [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [0, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 0, 1, 1, 1]]
    rows = "\n".join(f"  {r}," for r in matrix)
    body = GOOD + (
        '\n[[steps]]\ncaption.en = """\nTwo lines,\nwith "quotes" and a \\\\ backslash"""\nmask = '
        f'[\n{rows}\n]\ntemperature = 0.5\nnorm = "rmsnorm"\ntoken = "none"\n'
    )
    lesson = parse_lesson(body, "x.toml")
    again = parse_lesson(dump_lesson(lesson), "x.toml")
    assert again == lesson
    last = resolve(again, 2)
    assert last.mask == tuple(tuple(bool(v) for v in r) for r in matrix)
    assert (last.temperature, last.norm, last.token, last.key) == (0.5, "rmsnorm", None, None)
    assert again.steps[2].caption["en"] == 'Two lines,\nwith "quotes" and a \\ backslash'


def test_recorded_steps_lead_to_the_recorded_states():
    """Authoring: recorded steps written and read back give the same states, from any starting state."""
    states = [
        DEFAULT_START.replace(stage="scores", token=2, key=1, D=32),
        DEFAULT_START.replace(
            preset="seed-toy", text="This is\na pen", stage="weights", row=1, token=1, scaling=False, head=1
        ),
        DEFAULT_START.replace(
            stage="probs",
            token=None,
            panel="output",
            mask=((True, False, False), (True, True, False), (True, True, True)),
            text="a pen .",
        ),
    ]
    steps = [Step(caption={"en": f"step {i}"}, settings=recorded_settings(s)) for i, s in enumerate(states)]
    lesson = parse_lesson(GOOD, "x").with_steps(steps)
    again = parse_lesson(dump_lesson(lesson), "x", check_runs=False)
    assert resolve_all(again) == states
    elsewhere = DEFAULT_START.replace(
        preset="induction", stage="ffn", layer=1, head=3, token=7, key=2, D=8, scaling=False
    )
    assert resolve_all(again, elsewhere) == states
    assert resolve(again.with_steps(again.steps[::-1]), 0) == states[-1]  # moved first, it shows the same


def test_the_builtin_lesson_follows_the_note():
    lesson = read_lesson("builtin")
    states = resolve_all(lesson)
    stages = [s.stage for s in states]
    # The note's order: embed, Q K V, Q·Kᵀ, ÷√D, mask, softmax, ·V, W_o, multi-head, batch, C distributions.
    order = ["embed", "qkv", "scores", "scaled", "masked", "heads", "out", "concat", "probs"]
    assert [stages.index(s) for s in order] == sorted(stages.index(s) for s in order)
    assert stages[stages.index("masked") + 1] == "weights"  # softmax and the map right after the mask
    scaling_off = next(s for s in states if not s.scaling)
    assert scaling_off.D and scaling_off.D >= 128 and scaling_off.stage == "weights"  # saturation, D grown
    batch = next(s for s in states if s.preset == "seed-toy")
    assert batch.row == 1 and len(batch.text.splitlines()) == 2
    pen = next(s for s in states if s.stage == "probs")
    assert pen.text == "This is a pen ." and pen.token == 2  # the row of "a"
    # The trained induction preset, then a real model to the end: its previous-token, induction and "it" heads.
    real = next(i for i, s in enumerate(states) if s.model == "smollm2")
    assert states[real - 1].preset == "induction" and all(s.model == "smollm2" for s in states[real:])
    assert len(states) - real == 4
    for step in lesson.steps:  # both languages, every step
        assert step.caption.get("en") and step.caption.get("ja") and step.title.get("en") and step.title.get("ja")
        assert bool(step.question) == bool(step.answer)


@pytest.mark.parametrize(
    "body, line, words",
    [
        (GOOD.replace('stage = "weights"', 'stage = "weights"\ncolour = "red"'), 18, ["step 2: colour", "unknown key"]),
        (GOOD.replace("D = 32", "D = 100000"), 8, ["step 1: D", "between 1 and 4096", "100000"]),
        (GOOD.replace("D = 32", 'D = "big"'), 8, ["step 1: D", "whole number"]),
        (GOOD.replace("scaling = false", "scaling = 0"), 16, ["step 2: scaling", "true or false"]),
        (GOOD.replace('stage = "scores"', 'stage = "attention"'), 9, ["step 1: stage", "one of the stages"]),
        (GOOD.replace('preset = "classroom"', 'preset = "gpt5"'), 7, ["step 1: preset", "one of the presets"]),
        (GOOD.replace('preset = "classroom"', 'model = "/etc/passwd"'), 7, ["step 1: model", "never names a file"]),
        (GOOD.replace("cell = [3, 1]", "cell = [3, 9]"), 10, ["step 1: key", "key 9 does not exist", "5 tokens"]),
        (GOOD.replace("D = 32", 'D = 3\npositions = "rope"'), 8, ["step 1: D", "cannot run", "D must be even"]),
        (
            GOOD.replace('stage = "weights"', 'stage = "weights"\nhead = 7'),
            18,
            ["step 2: head", "head 7 does not exist", "4 heads"],
        ),
        (
            GOOD.replace('stage = "weights"', 'stage = "weights"\ninterventions = []'),
            18,
            ["step 2: interventions", "not supported yet"],
        ),
        (
            GOOD.replace('stage = "weights"', 'stage = "weights"\nmask = [[1, 0], [1, 1]]'),
            18,
            ["step 2: mask", "2×2", "5 tokens"],
        ),
        (GOOD.replace('stage = "weights"', 'stage = "weights"\nmask = "window:0"'), 18, ["step 2: mask", "at least 1"]),
        (
            GOOD.replace('stage = "weights"', 'stage = "weights"\ntemperature = -1'),
            18,
            ["step 2: temperature", "above 0"],
        ),
        (GOOD.replace('caption.en = "First"\ncaption.ja = "最初"\n', ""), 4, ["step 1: caption", "missing"]),
        (GOOD.replace('title = "Two steps"', 'title = "Two steps"\nauthor = "me"'), 2, ["author", "unknown key"]),
        (GOOD.replace('["en", "ja"]', '["en", "fr"]'), 2, ["languages"]),
        (GOOD.replace('caption.ja = "最初"', 'caption.fr = "Premier"'), 6, ["step 1: caption.fr", "unknown language"]),
        (GOOD.replace("D = 32", "D = 32\nD = 16"), 9, ["not valid TOML"]),
        (GOOD.replace("D = 32", "D = [32"), 9, ["not valid TOML"]),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 30 else None,
)
def test_bad_files_are_refused_naming_file_line_and_key(tmp_path, body, line, words):
    message = bad(body, tmp_path)
    assert message.startswith(f"{tmp_path / 'bad.toml'}:{line}: "), message
    for w in words:
        assert w in message, message


def test_sizes_of_a_real_model_are_refused(tmp_path):
    message = bad(GOOD.replace('preset = "classroom"\nD = 32', 'model = "smollm2"\nD = 32'), tmp_path)
    assert "step 1: D" in message and "fixed by its file" in message


def test_a_huge_file_and_binary_junk_are_refused(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(GOOD.encode() + b"# " + b"x" * (10 * 1024 * 1024) + b"\n")
    with pytest.raises(LessonError, match=r"big\.toml: larger than 1024 kB"):
        read_lesson(big)
    junk = tmp_path / "junk.toml"
    junk.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(LessonError, match=r"junk\.toml: not a lesson file \(binary"):
        read_lesson(junk)
    latin = tmp_path / "latin.toml"
    latin.write_bytes('title = "caf\xe9"'.encode("latin-1"))
    with pytest.raises(LessonError, match=r"not UTF-8"):
        read_lesson(latin)
    with pytest.raises(LessonError, match="is a folder"):
        read_lesson(tmp_path)
    with pytest.raises(LessonError, match="cannot read the lesson"):
        read_lesson(tmp_path / "missing.toml")


def test_writer_output_is_plain_toml_that_tomllib_reads():
    lesson = read_lesson("builtin")
    data = tomllib.loads(dump_lesson(lesson))
    assert len(data["steps"]) == len(lesson.steps)
    assert data["steps"][3]["caption"]["ja"] == lesson.steps[3].caption["ja"]
    assert set(PANELS) >= {s.get("panel") for s in data["steps"] if "panel" in s}


def test_the_documented_example_is_a_valid_lesson():
    import re
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "lessons.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(.*?)```", doc, re.S).group(1)
    states = resolve_all(parse_lesson(example, "docs/lessons.md"))
    assert [(s.D, s.scaling) for s in states] == [(None, True), (256, False), (256, True)]
    assert len(states[2].mask) == 5 and states[2].mask[2] == (False, True, True, False, False)


VALUES = [
    "1",
    "-1",
    "0",
    "1e400",
    "nan",
    "inf",
    "true",
    '"x"',
    "[]",
    "[1]",
    "[[1]]",
    "[1, 2]",
    "{}",
    "{ en = 1 }",
    '"none"',
    "[[1, 0], [1, 1]]",
    "99999999999999999999",
    '"window:2"',
    '"explicit"',
    '["a"]',
    "2026-01-01",
    '""',
]


def test_any_damaged_lesson_is_read_or_refused_in_one_line():
    """Every kind of key of the built-in lesson given a value of every other kind: the reader either accepts
    the file or raises LessonError with one line, never another exception (a crash in the window)."""
    from explorer.lessons import builtin_path

    lines = builtin_path().read_text(encoding="utf-8").splitlines()
    first_of_each: dict[str, int] = {}
    for i, line in enumerate(lines):
        if "=" in line and not line.startswith("#"):
            first_of_each.setdefault(line.split("=")[0].strip(), i)
    assert {"preset", "model", "mask", "cell", "caption.en", "title.ja", "languages", "D"} <= set(first_of_each)
    accepted = 0
    for i in first_of_each.values():
        for value in VALUES:
            text = list(lines)
            text[i] = text[i].split("=")[0] + "= " + value
            try:
                parse_lesson("\n".join(text), "f.toml")
                accepted += 1
            except LessonError as exc:
                assert "\n" not in str(exc) and str(exc).startswith("f.toml:"), (lines[i], value)
    assert accepted > 0  # some swaps are legal (a head, a token): the file is read
