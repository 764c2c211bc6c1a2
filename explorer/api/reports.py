"""What ``attribute`` and ``info --models`` print, once: the command prints these lines, and
``explorer.attribute`` / ``explorer.models`` return the same facts as plain Python objects whose text is
these lines (a dict and a list, each with a readable repr)."""

from __future__ import annotations

from typing import Any

from explorer.util.printable import shown


def attribution_lines(out: dict[str, Any]) -> list[str]:
    """The ``attribute`` command's report of explorer.interventions.attribution.attribute's result."""
    lines = [
        f"position {out['position']} ({out['token']!r}), target {out['target']!r} (id {out['target_id']}): "
        f"logit {out['logit']:.4f}",
        "logit lens (after each layer):",
    ]
    for r in out["logit_lens"]:
        lines.append(f"  layer {r['layer']:>3}  p(target) {r['prob']:.4f}  rank {r['rank']:>6}  top {r['top']!r}")
    lines.append("direct contributions to the logit:")
    for c in sorted(out["contributions"], key=lambda c: -abs(c["value"])):
        lines.append(f"  {c['component']:<28} {c['value']:+.4f}")
    lines.append(f"  {'constant (biases, norm shift)':<28} {out['constant']:+.4f}")
    return lines


def model_rows() -> list[dict[str, Any]]:
    """The catalog: each real model, its family, size, whether it is installed here and what it needs."""
    from explorer.weights.catalog import known_models

    return [
        {
            "name": model.name,
            "family": model.family,
            "parameters_millions": model.parameters,
            "float32_gb": round(model.weights_gb, 2),
            "special": model.special,
            "installed": str(path) if path else None,
            "install": model.install_command(),
            "memory_budget_gb": model.budget_gb(),
        }
        for model, path in known_models()
    ]


def model_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``info --models``' table of ``model_rows()``."""
    width = max((len(r["name"]) for r in rows), default=4)
    lines = [f"{'name':<{width}}  {'family':<16} {'params':>7} {'float32':>8}  where / what it needs"]
    for r in rows:
        budget = f"; needs --memory-budget {r['memory_budget_gb']}" if r["memory_budget_gb"] else ""
        # a cache folder's name is data from the disk: a newline in it would forge a row of this table
        installed = f"installed: {shown(r['installed'])}{budget}"
        where = installed if r["installed"] else f"not installed: {r['install']}{budget}"
        lines.append(
            f"{r['name']:<{width}}  {r['family']:<16} {r['parameters_millions']:>6g}M {r['float32_gb']:>6.2f} "
            f"GB  {where}"
        )
        lines.append(f"{'':<{width}}  {r['special']}")
    return lines


class Attribution(dict):
    """explorer.attribute's result: the ``attribute --json`` object (position, token, target, logit, logit_lens,
    contributions, constant), shown as the command's report."""

    def __repr__(self) -> str:
        return "\n".join(attribution_lines(self))

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": repr(self)}


class ModelList(list):
    """explorer.models()'s result: one dict per real model known by name (``info --models --json``), shown as
    the command's table."""

    def __repr__(self) -> str:
        return "\n".join(model_lines(self))

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        return {"text/plain": repr(self)}
