"""What a TraceResult hands out besides arrays and figures: one number's anatomy (``CellRef``) and two runs
compared (``ComparisonResult``), each shown in a notebook as the matching command prints it
(``attention-explorer anatomy``, ``attention-explorer compare``)."""

from __future__ import annotations

from typing import Any


class CellRef:
    """One number of a trace (explorer.anatomy.Cell ``.cell`` of the core trace ``.trace``). ``explain()``
    gives the steps that make it (explorer.anatomy.anatomy); its text lists them as the anatomy command does."""

    def __init__(self, trace, cell) -> None:
        from explorer.anatomy.cell import check

        check(trace, cell)  # a cell the trace lacks: one line now, not when displayed
        self.trace, self.cell = trace, cell

    def explain(self, all_terms: bool = False) -> list:
        """The anatomy's steps (explorer.anatomy.Step: op, operands, result, running); a long sum shows its
        largest terms and the rest, unless ``all_terms``."""
        from explorer.anatomy import anatomy

        return anatomy(self.trace, self.cell, whole=all_terms)

    @property
    def value(self) -> float:
        """The number itself: the last step's result (the trace's own value)."""
        return self.explain()[-1].result

    def lines(self, language: str = "en") -> list[str]:
        """``attention-explorer anatomy``'s lines: one numbered line per step."""
        from explorer.anatomy.text import step_line

        return [f"{n:>3}. {step_line(s, language)}" for n, s in enumerate(self.explain(), 1)]

    def to_json(self, language: str = "en") -> dict[str, Any]:
        """``anatomy --json``'s object: the cell and its steps."""
        return {
            "cell": {k: v for k, v in vars(self.cell).items() if v is not None},
            "dtype": self.trace.options.dtype,
            "steps": [s.to_json(language) for s in self.explain()],
        }

    def __repr__(self) -> str:
        return "\n".join(self.lines())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": repr(self)}


class ComparisonResult:
    """Two runs compared (explorer.compare.Comparison ``.comparison``): aligned tokens, each head's divergence,
    the next-token distributions; shown as the compare command's report, ``to_json()`` its ``--json``."""

    def __init__(self, comparison) -> None:
        self.comparison = comparison

    @property
    def heads(self) -> list:
        """Each compared head's divergence, most different first (explorer.compare.HeadDivergence)."""
        return list(self.comparison.ranked())

    def lines(self) -> list[str]:
        from explorer.compare.text import summary_lines

        return summary_lines(self.comparison)

    def to_json(self, head: tuple[int, int] | None = None) -> dict[str, Any]:
        from explorer.compare.report import comparison_json

        return comparison_json(self.comparison, head)

    def __repr__(self) -> str:
        return "\n".join(self.lines())

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": repr(self)}


def made(result) -> dict[str, Any]:
    """How a TraceResult was made, in the words the compare command records (its model, weights, changes)."""
    source = result.source
    if source is None:
        return {"model": result.core.source or result.core.model_name, "random_weights": None, "interventions": None}
    return {
        "model": source.label(),
        "random_weights": source.random_weights,
        "interventions": result.core.interventions,
    }
