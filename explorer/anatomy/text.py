"""A step as one line of text, as a teacher would say it: ``multiply one pair and add it [3]: q = 0.52,
k = −1.10 → −0.57 (so far 2.31)``. Numbers print as the hovers print them (explorer/present/hover_format.py);
a vector shows its first entries. The command line prints these; the window and slides translate the labels."""

from __future__ import annotations

from explorer.anatomy.steps import Step
from explorer.present.hover_format import fmt

SHOWN_ENTRIES = 4  # a vector operand prints this many entries, then "…"

_WORDS = {"en": ("so far", "entries"), "ja": ("ここまで", "個")}


def value_text(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, str)):
        return str(value)
    try:
        return fmt(float(value))
    except (TypeError, ValueError):
        pass
    entries = list(value)
    shown = ", ".join(fmt(float(v)) for v in entries[:SHOWN_ENTRIES])
    more = ", …" if len(entries) > SHOWN_ENTRIES else ""
    return f"[{shown}{more}] ({len(entries)})"


def step_line(step: Step, language: str = "en") -> str:
    so_far, _ = _WORDS.get(language, _WORDS["en"])
    where = f" [{step.index}]" if step.index is not None else ""
    operands = ", ".join(f"{k} = {value_text(v)}" for k, v in step.operands.items() if v is not None)
    text = f"{step.label(language)}{where}: {operands} → {value_text(step.result)}"
    if step.running is not None and step.op != "cell":
        text += f" ({so_far} {value_text(step.running)})"
    if step.op == "cell":
        text += f" (float64: {value_text(step.extra.get('recomputed'))}"
        text += ", exact)" if step.extra.get("exact") else f", {step.extra.get('ulps', '?')} ulp apart)"
    return text
