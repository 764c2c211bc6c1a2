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
            "active_parameters_millions": model.active or None,  # a mixture of experts: what one token uses
            "float32_gb": round(model.weights_gb, 2),  # what the explorer holds: it computes in float32 today
            "stored_dtype": model.stored,
            "stored_gb": round(model.stored_gb, 2),
            "special": model.special,
            "installed": str(path) if path else None,
            "install": model.install_command(),
            "memory_budget_gb": model.budget_gb(),
            "not_supported": model.missing or None,
        }
        for model, path in known_models()
    ]


def model_lines(rows: list[dict[str, Any]]) -> list[str]:
    """``info --models``' table of ``model_rows()``."""
    width = max((len(r["name"]) for r in rows), default=4)
    lines = [f"{'name':<{width}}  {'family':<16} {'params':>8} {'float32':>9}  {'stored as':<18} where / what it needs"]
    for r in rows:
        lines.append(
            f"{r['name']:<{width}}  {r['family']:<16} {_millions(r['parameters_millions']):>8} "
            f"{r['float32_gb']:>6.2f} GB  {r['stored_dtype'] + ' ' + format(r['stored_gb'], '.2f') + ' GB':<18} "
            f"{_where(r)}"
        )
        active = r["active_parameters_millions"]
        used = f"; {_millions(active)} used per token" if active else ""
        lines.append(f"{'':<{width}}  {r['special']}{used}")
    return lines


def _millions(count: float) -> str:
    return f"{count / 1000:.2f}B" if count >= 1000 else f"{count:g}M"


def _where(row: dict[str, Any]) -> str:
    if row["not_supported"]:
        return f"not supported yet: {row['not_supported']}"
    budget = f"; needs --memory-budget {row['memory_budget_gb']}" if row["memory_budget_gb"] else ""
    # a cache folder's name is data from the disk: a newline in it would forge a row of this table
    return (
        f"installed: {shown(row['installed'])}{budget}"
        if row["installed"]
        else f"not installed: {row['install']}{budget}"
    )


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
