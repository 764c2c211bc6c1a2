"""One number's anatomy as a worksheet exercise (issue 39, ``worksheet --anatomy``): the core's steps
(explorer/anatomy/) as lines a student works through by hand. The sheet prints what each step reads and leaves
its result (and the sum so far) blank; the key prints every result. A number a step reads that is the
student's own earlier result is printed as "(step k)", never as its value, so the sheet holds no answer.

Numbers print as the worksheet prints them (three decimals, a real minus sign, −∞)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.anatomy import Cell, Step, anatomy
from explorer.anatomy.cell import PAIRWISE
from explorer.errors import ConfigError
from explorer.handouts.worksheet import INPUT_DIGITS, check_small, number

# Steps the sheet gives whole: the row a softmax reads, and the terms a shortened sum leaves out.
GIVEN_OPS = frozenset({"row", "others"})
# What a step reads that is the student's own work inside that step (x − max, a sum of entries): not printed.
WORKED = frozenset({"x_minus_max", "place_in_row", "sum", "sum_of_squares", "mean_square", "largest"})
# What a step reads from a step before it: printed as "(step k)" on the sheet.
FROM_BEFORE = {
    "scale": ("score",),
    "no_scale": ("score",),
    "softcap": ("x",),
    "mask": ("x",),
    "exp": ("x",),
    "normalise": ("mean", "variance", "mean_square"),
    "gamma": ("x",),
    "beta": ("x",),
    "activation": ("x",),
    "gate_times_up": ("gate", "up"),
    "contribution": ("h",),
    "divide": ("exp", "sum"),
}
LONGEST_VECTOR = 12  # a longer vector (a row over the vocabulary) is given by its length, its entries in the steps


@dataclass(frozen=True)
class SheetStep:
    """One step as the sheet and its key print it."""

    label: str  # what is done, in the sheet's language
    given: tuple[str, ...]  # "q = 2.160", "score = (step 2)"
    result: str  # the answer (the key prints it; the sheet only when ``asked`` is False)
    running: str | None  # the sum so far, inside a sum
    asked: bool  # the student writes the result


def parse_cell(text: str) -> Cell:
    """``STAGE:LAYER:HEAD:QUERY[:COLUMN]``: COLUMN is the key of a scores … weights cell, an output column
    otherwise, nN for an FFN neuron (``ffn:0:0:2:n3``), or kD / vD for a key's or a value's entry
    (``qkv:0:0:2:k1``; a plain number is the query's)."""
    parts = text.split(":")
    usage = f"--anatomy takes STAGE:LAYER:HEAD:QUERY[:COLUMN] (e.g. weights:0:0:2:1, ffn:0:0:2:n3); got {text!r}"
    if len(parts) not in (4, 5):
        raise ConfigError(usage)
    stage, column = parts[0], parts[4] if len(parts) == 5 else None
    part = column[0] if stage == "qkv" and column and column[0] in "qkv" else None
    column = column[1:] if part else column
    neuron = column is not None and column.startswith("n")
    try:
        layer, head, query = (int(p) for p in parts[1:4])
        number_ = None if column is None else int(column[1:] if neuron else column)
    except ValueError:
        raise ConfigError(usage) from None
    if neuron:
        return Cell(stage, layer, head, query, neuron=number_)
    if stage in PAIRWISE:
        return Cell(stage, layer, head, query, key=number_)
    return Cell(stage, layer, head, query, dim=number_, part=part)


def written(value) -> str:
    """A number or a vector as the worksheet prints it; text (a mask's reason, a function) as it is."""
    if value is None or isinstance(value, (bool, str, np.bool_)):
        return str(value).lower() if isinstance(value, (bool, np.bool_)) else str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    array = np.asarray(value, dtype=np.float64)
    if array.ndim == 0:
        return number(float(array), INPUT_DIGITS)
    return "(" + ", ".join(number(x, INPUT_DIGITS) for x in array) + ")"


class _Answers:
    """The results the student has written so far, to name by step instead of printing them."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str, int | None]] = []  # (step, what it gave, its index in its sum)

    def add(self, n: int, index: int | None, *texts: str | None) -> None:
        self.seen += [(n, t, index) for t in texts if t is not None]

    def step_of(self, text: str, index: int | None = None) -> int | None:
        """The latest step that gave ``text``; one of the same term first (÷ the sum [3] reads e^… [3])."""
        same = [n for n, t, k in self.seen if t == text and index is not None and k == index]
        return same[-1] if same else next((n for n, t, _ in reversed(self.seen) if t == text), None)


def _given(step: Step, answers: _Answers, words: dict) -> tuple[str, ...]:
    out = []
    for name, value in step.operands.items():
        before = name in FROM_BEFORE.get(step.op, ())
        if value is None or (name in WORKED and not before):
            continue
        text = written(value)
        earlier = answers.step_of(text, step.index) if before else None
        out.append(f"{name} = {words['step ref'].format(k=earlier) if earlier else text}")
    return tuple(out)


def _given_row(step: Step, answers: _Answers, words: dict) -> str:
    """A softmax's row: each entry, the one asked about named by the step that made it (the mask's result)."""
    row = np.asarray(step.result, dtype=np.float64)
    if row.size > LONGEST_VECTOR:
        return words["long row"].format(n=row.size)
    entries = [number(x, INPUT_DIGITS) for x in row]
    selected = step.operands.get("selected")
    if selected is not None and (earlier := answers.step_of(entries[selected])):
        entries[selected] = words["step ref"].format(k=earlier)
    return "(" + ", ".join(entries) + ")"


def _result(step: Step, words: dict) -> str:
    if isinstance(step.result, (list, tuple, np.ndarray)) and np.size(step.result) > LONGEST_VECTOR:
        return words["long row"].format(n=np.size(step.result))
    return written(step.result)


def sheet_steps(steps: list[Step], language: str, words: dict) -> list[SheetStep]:
    """The steps as the sheet prints them: given operands, the result asked for (or given)."""
    answers, out = _Answers(), []
    for n, step in enumerate(steps, 1):
        where = f" [{step.index}]" if step.index is not None else ""
        running = None if step.running is None or step.op == "cell" else written(step.running)
        long = isinstance(step.result, (list, tuple, np.ndarray)) and np.size(step.result) > LONGEST_VECTOR
        asked = step.op not in GIVEN_OPS and not long
        result = _given_row(step, answers, words) if step.op == "row" else _result(step, words)
        given = _given(step, answers, words)
        if step.op == "others":
            given = (words["others"].format(n=step.operands.get("count", 0)),)
        out.append(SheetStep(step.label(language) + where, given, result, running, asked))
        if asked:
            answers.add(n, step.index, result)
            answers.add(n, None, running)
    return out


def _row_of(trace, steps: list[Step], cell: Cell) -> list[str]:
    """A norm's steps name the row they read (``of``): the sheet prints it, for the student has no map."""
    for step in steps:
        source = step.operands.get("of")
        if isinstance(source, str) and source in trace.stored_names():
            row = np.asarray(trace[source][cell.sentence, cell.query], dtype=np.float64)
            return [f"x = {written(row)}"]
    return []


@dataclass(frozen=True)
class AnatomyExercise:
    cell: Cell
    inputs: tuple[str, ...]  # given before the steps (a norm's input row)
    steps: tuple[SheetStep, ...]
    value: float  # the number the map shows (the last step's)


def anatomy_exercise(trace, cell: Cell, language: str, words: dict) -> AnatomyExercise:
    """The exercise of ``cell``'s anatomy, on a model small enough to do by hand (as every worksheet)."""
    check_small(trace, cell.sentence)
    steps = anatomy(trace, cell)
    value = float(steps[-1].result)
    return AnatomyExercise(cell, tuple(_row_of(trace, steps, cell)), tuple(sheet_steps(steps, language, words)), value)
