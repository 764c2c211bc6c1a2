"""The anatomy of a block's and the output's numbers: a residual sum, a norm (mean and variance, or the mean
square, then γ and β), an FFN neuron (its pre-activation as a sum, the activation, its contribution) or an
FFN output column, a logit (the unembedding column · x) and a probability (÷ T, then the softmax of the
whole row over the vocabulary). Every number is read from the trace."""

from __future__ import annotations

import math

import numpy as np

from explorer.anatomy.cell import Cell, stored
from explorer.anatomy.steps import Step
from explorer.anatomy.sums import cell_step, dot_steps, f64, last_running, number_type, softmax_steps
from explorer.present.stages import main_tensor
from explorer.trace import Trace


def _input(layer: int) -> str:
    return "embed.out" if layer == 0 else f"layers.{layer - 1}.out"


def _first(trace: Trace, *candidates: str) -> str:
    return next(n for n in candidates if n in trace.stored_names())


def _finish(trace: Trace, c: Cell, steps: list[Step], name: str, value: float, index: tuple) -> list[Step]:
    return steps + [cell_step(trace[name][index], value, trace.options.dtype, c.where(name))]


def residual_steps(trace: Trace, c: Cell) -> list[Step]:
    """x[K] + attention[K] (the stage "residual") or mid[K] + FFN[K] (the stage "block")."""
    l, b, i, K = c.layer, c.sentence, c.query, c.dim
    if c.stage == "residual":
        first, second = _input(l), _first(trace, f"layers.{l}.attn.out_norm", f"layers.{l}.attn.out")
    else:
        first, second = f"layers.{l}.mid", _first(trace, f"layers.{l}.ffn.out_norm", f"layers.{l}.ffn.out")
    name = main_tensor(c.stage, l, trace)
    b_value = float(trace[second][b, i, K])
    if not trace.config.residual:
        steps = [Step("no_residual", {"sublayer": b_value}, b_value)]
        return _finish(trace, c, steps, name, b_value, (b, i, K))
    a_value = float(trace[first][b, i, K])
    steps = [
        Step("add", {"x": a_value, "sublayer": b_value, "x_from": first, "sublayer_from": second}, a_value + b_value)
    ]
    return _finish(trace, c, steps, name, a_value + b_value, (b, i, K))


# A norm stage: (what it reads, its parameters' prefix, what it gives); {l} is the layer.
NORMS = {
    "norm_attn": ("{input}", "params.layers.{l}.ln_attn", "layers.{l}.attn.in"),
    "parallel": ("{input}", "params.layers.{l}.ln_ffn", "layers.{l}.ffn.in"),
    "norm_ffn": ("layers.{l}.mid", "params.layers.{l}.ln_ffn", "layers.{l}.ffn.in"),
    "attn_out_norm": ("layers.{l}.attn.out", "params.layers.{l}.ln_attn_out", "layers.{l}.attn.out_norm"),
    "ffn_out_norm": ("layers.{l}.ffn.out", "params.layers.{l}.ln_ffn_out", "layers.{l}.ffn.out_norm"),
    "post_norm_attn": ("layers.{l}.attn.sum", "params.layers.{l}.ln_attn", "layers.{l}.mid"),
    "post_norm_ffn": ("layers.{l}.ffn.sum", "params.layers.{l}.ln_ffn", "layers.{l}.out"),
    "final_norm": ("layers.{last}.out", "params.ln_final", "final.out"),
}


def norm_steps(trace: Trace, c: Cell) -> list[Step]:
    """LayerNorm: μ, σ², (x[K] − μ)/√(σ² + ε), × γ[K], + β[K]; RMSNorm: mean(x²), x[K]/√(mean(x²) + ε), × γ[K]."""
    source, prefix, target = (
        p.format(l=c.layer, input=_input(c.layer), last=trace.config.L - 1) for p in NORMS[c.stage]
    )
    steps, value = layer_norm_steps(trace, c, source, prefix)
    return _finish(trace, c, steps, target, value, (c.sentence, c.query, c.dim))


def layer_norm_steps(trace: Trace, c: Cell, source: str, prefix: str) -> tuple[list[Step], float]:
    """The norm of row ``source``[sentence, query] with the parameters ``prefix``.weight (and .bias), at column
    ``c.dim``: its steps and the value they give."""
    cfg, b, i, K = trace.config, c.sentence, c.query, c.dim
    x = f64(trace[source][b, i])  # (E,)
    eps = float(cfg.norm_eps)
    gamma = float(trace[f"{prefix}.weight"][K])
    if cfg.norm == "rmsnorm":
        ms = float(np.mean(x**2))
        steps = [Step("mean_square", {"sum_of_squares": float(np.sum(x**2)), "count": len(x), "of": source}, ms)]
        value = x[K] / math.sqrt(ms + eps)
        steps.append(Step("normalise", {"x": x[K], "mean_square": ms, "eps": eps}, value))
    else:
        mean, var = float(x.mean()), float(x.var())
        steps = [
            Step("mean", {"sum": float(x.sum()), "count": len(x), "of": source}, mean),
            Step("variance", {"sum_of_squares": float(np.sum((x - mean) ** 2)), "count": len(x)}, var),
        ]
        value = (x[K] - mean) / math.sqrt(var + eps)
        steps.append(Step("normalise", {"x": x[K], "mean": mean, "variance": var, "eps": eps}, value))
    steps.append(Step("gamma", {"x": value, "gamma": gamma}, value * gamma))
    value *= gamma
    beta = stored(trace, f"{prefix}.bias")
    if beta is not None:
        steps.append(Step("beta", {"x": value, "beta": float(beta[K])}, value + float(beta[K])))
        value += float(beta[K])
    return steps, float(value)


_FUNCTIONS = {
    "gelu": ("GELU", lambda z: 0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0)))),
    "gelu_tanh": (
        "GELU (tanh)",
        lambda z: 0.5 * z * (1.0 + math.tanh(math.sqrt(2.0 / math.pi) * (z + 0.044715 * z**3))),
    ),
    "relu": ("ReLU", lambda z: max(z, 0.0)),
    "silu_gated": ("SiLU", lambda z: z / (1.0 + math.exp(-z)) if z > -700 else 0.0),
}
_FUNCTIONS["gelu_tanh_gated"] = _FUNCTIONS["gelu_tanh"]
_FUNCTIONS["gelu_gated"] = _FUNCTIONS["gelu"]


def _with_bias(trace: Trace, steps: list[Step], name: str, index: int) -> float:
    total = last_running(steps)
    bias = stored(trace, name)
    if bias is not None:
        total += float(bias[index])
        steps.append(Step("bias", {"b": float(bias[index])}, float(bias[index]), total))
    return total


def neuron_steps(trace: Trace, c: Cell) -> list[Step]:
    """Neuron N at token i: xᵢ · W_in[:, N] (+ b) term by term (and the gate's sum for a gated FFN), the
    activation, the neuron's contribution hᵢ[N] · W_out[N, :] to the output, then the map's hᵢ[N]."""
    cfg, l, b, i, N = trace.config, c.layer, c.sentence, c.query, c.neuron
    x = trace[f"layers.{l}.ffn.in"][b, i]  # (E,)
    up_steps = dot_steps(x, trace[f"params.layers.{l}.ffn.W_in"][:, N], ("x", "W_in"))
    up = _with_bias(trace, up_steps, f"params.layers.{l}.ffn.b_in", N)
    label, f = _FUNCTIONS[cfg.ffn_activation]
    if cfg.gated:
        steps = dot_steps(x, trace[f"params.layers.{l}.ffn.W_gate"][:, N], ("x", "W_gate"), op="gate_product")
        gate = _with_bias(trace, steps, f"params.layers.{l}.ffn.b_gate", N)
        steps.append(Step("activation", {"function": label, "x": gate}, f(gate)))
        steps += up_steps
        value = f(gate) * up
        steps.append(Step("gate_times_up", {"gate": f(gate), "up": up}, value))
    else:
        value = f(up)
        steps = up_steps + [Step("activation", {"function": label, "x": up}, value)]
    hidden = trace[f"layers.{l}.ffn.hidden"][b, i, N]
    W_row = f64(trace[f"params.layers.{l}.ffn.W_out"][N])  # (E,)
    steps.append(Step("contribution", {"h": float(hidden), "W_out_row": W_row}, float(hidden) * W_row))
    return _finish(trace, c, steps, f"layers.{l}.ffn.hidden", value, (b, i, N))


def ffn_out_steps(trace: Trace, c: Cell) -> list[Step]:
    """ffn.outᵢ[K] = Σₙ hᵢ[n] · W_out[n, K] (+ b_out[K])."""
    l, b, i, K = c.layer, c.sentence, c.query, c.dim
    h = trace[f"layers.{l}.ffn.hidden"][b, i]  # (F,)
    steps = dot_steps(h, trace[f"params.layers.{l}.ffn.W_out"][:, K], ("h", "W_out"))
    value = _with_bias(trace, steps, f"params.layers.{l}.ffn.b_out", K)
    return _finish(trace, c, steps, f"layers.{l}.ffn.out", value, (b, i, K))


def ffn_steps(trace: Trace, c: Cell) -> list[Step]:
    return neuron_steps(trace, c) if c.neuron is not None else ffn_out_steps(trace, c)


def _logit(trace: Trace, c: Cell) -> tuple[list[Step], float]:
    b, i, J = c.sentence, c.query, c.dim
    x = trace[_first(trace, "mlm.out", "final.out")][b, i]  # (E,): what the unembedding reads
    W = stored(trace, "params.unembed.W_u")
    column = W[:, J] if W is not None else trace["params.embed.tok"][J]  # tied: the embedding row
    steps = dot_steps(x, column, ("x", "W_u"))
    return steps, _with_bias(trace, steps, "params.unembed.b_u", J)


def logit_steps(trace: Trace, c: Cell) -> list[Step]:
    """zᵢ[J] = xᵢ · W_u[:, J] (+ b_u[J]); then, for the stage logit_cap, Gemma 2's c·tanh(z / c) from the
    trace's own uncapped logit, in its dtype and the model's order (exact where tanh allows)."""
    b, i, J = c.sentence, c.query, c.dim
    steps, value = _logit(trace, c)
    if "logits.uncapped" in trace.stored_names() and c.stage == "logits":
        return _finish(trace, c, steps, "logits.uncapped", value, (b, i, J))
    cap = trace.config.logit_softcap
    if cap is not None:
        kind = number_type(trace.options.dtype)
        z = kind(trace["logits.uncapped"][b, i, J]) if "logits.uncapped" in trace.stored_names() else kind(value)
        capped = kind(math.tanh(float(z / kind(cap)))) * kind(cap)
        steps.append(Step("softcap", {"x": z, "c": float(cap)}, capped))
        value = float(capped)
    shown = trace.logits_rows(b, i, i + 1)[0, J]
    return steps + [cell_step(shown, value, trace.options.dtype, c.where("logits"))]


def probs_steps(trace: Trace, c: Cell) -> list[Step]:
    """P(next = J | 0…i): the row of logits ÷ T, its maximum, each e^(z − max), their sum, each ÷ sum."""
    b, i, J = c.sentence, c.query, c.dim
    z = trace.logits_rows(b, i, i + 1)[0]  # (V,)
    steps = softmax_steps(z, J, temperature=float(trace.options.temperature))
    value = next(float(s.result) for s in steps if s.op == "divide" and s.index == J)
    return steps + [cell_step(trace.probs_row(b, i)[J], value, trace.options.dtype, c.where("probs"))]
