"""What the stepper writes for one step, from the core's step alone (explorer.anatomy: op, operands, result,
running): its label in the window's language (the core's one list, English and Japanese), its operands, its
result and the running sum, as the hovers print numbers (explorer/anatomy/text.py ``value_text``). A shortened
sum's rest is one line: "+ 56 others = 1.23". Nothing here computes a number."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from explorer.anatomy import Step
from explorer.anatomy.text import value_text


@dataclass(frozen=True)
class StepText:
    label: str  # what is done: "multiply one pair and add it [3]"
    operands: str  # what it reads: "q = 0.52   k = −1.10"
    result: str  # what it gives: "−0.57"
    running: str  # the sum so far, inside a sum: "so far 2.31"; else ""


def step_text(step: Step, language: str, shown: str = "") -> StepText:
    """``shown``: the map's own printing of the cell's number, which the last step says again."""
    where = f" [{step.index}]" if step.index is not None else ""
    if step.op == "others":
        count = step.operands.get("count", 0)
        label = QCoreApplication.translate("Stepper", "+ {n} others, added together").format(n=count)
        operands = QCoreApplication.translate("Stepper", "the largest of them: {x}").format(
            x=value_text(step.operands.get("largest"))
        )
        result = QCoreApplication.translate("Stepper", "+ {n} others = {x}").format(n=count, x=value_text(step.result))
    else:
        label = step.label(language) + where
        operands = "   ".join(f"{k} = {value_text(v)}" for k, v in step.operands.items() if v is not None)
        result = value_text(step.result)
    if step.op == "cell" and shown:
        result = shown  # the digits the map and its hover print
    running = ""
    if step.running is not None and step.op != "cell":
        running = QCoreApplication.translate("Stepper", "so far {x}").format(x=value_text(step.running))
    return StepText(label, operands, result, running)


def spoken(step: Step, n: int, total: int, language: str, shown: str = "", revealed: bool = True) -> str:
    """One sentence for a screen reader: "Step 3 of 27: multiply one pair and add it [2]: q = 0.52 … → −0.57
    (so far 2.31)"; before the result is shown, "→ what comes next?"."""
    t = step_text(step, language, shown)
    said = QCoreApplication.translate("Stepper", "Step {n} of {total}").format(n=n, total=total) + f": {t.label}"
    if t.operands:
        said += f": {t.operands}"
    said += " → " + (t.result if revealed else QCoreApplication.translate("Stepper", "what comes next?"))
    if revealed and t.running:
        said += f" ({t.running})"
    return said
