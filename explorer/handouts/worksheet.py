"""Exercises done by hand on the note's toy sizes, with the numbers of one sentence and one seed: q·k for one
cell, the scaling by √D, the mask, the softmax of one row, one row of A·V, one entry of concat·W_o and the
probability of one next token. Each exercise holds its inputs (printed with three decimals) and its answer
(to the digits it asks for), read from the trace: the key agrees with a snapshot of the same run.

The exercises chain on one query token, the note's second token (or the only one): row i of every map,
cell (i, 0) for the dot product, and the token that follows it for the probability.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np

from explorer import names
from explorer.errors import ConfigError, TrivialWorksheet

log = logging.getLogger(__name__)

EXERCISES = ("qk", "scale", "mask", "softmax", "av", "wo", "prob")
INPUT_DIGITS = 3
MAX_TOKENS = 8  # a row of a map is written by hand
MAX_SIZES = {"E": 8, "D": 4, "H": 4}


@dataclass(frozen=True)
class Quantity:
    label: str  # math, language-neutral: "q₁", "W_o[:, 0]"
    value: np.ndarray  # a scalar, a vector or a matrix (−∞ kept)
    digits: int = INPUT_DIGITS
    row_label: str = ""  # a matrix: each row printed as its own vector, e.g. v₀, v₁ …


@dataclass(frozen=True)
class Exercise:
    key: str  # one of EXERCISES
    inputs: tuple[Quantity, ...]
    answer: Quantity
    tensor: str  # the traced tensor the answer is an entry (or a row) of
    index: tuple  # where in it
    params: dict = field(default_factory=dict)  # numbers the instructions name (i, j, D, e, token…)


def worksheet_trace(text: str, seed: int | None = None):
    """The trace a worksheet of ``text`` reads: the note's toy model (seed-toy), random from ``seed`` if given."""
    from explorer.config import RunOptions
    from explorer.session.open import open_source
    from explorer.session.request import ModelSource
    from explorer.trace import run_trace

    return run_trace(open_source(ModelSource("preset", "seed-toy", seed=seed)), text, RunOptions())


def parse_exercises(text: str | None) -> tuple[str, ...]:
    if not text:
        return EXERCISES
    chosen = tuple(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))
    bad = [c for c in chosen if c not in EXERCISES]
    if bad or not chosen:
        raise ConfigError(f"--exercises takes a comma-separated list of {', '.join(EXERCISES)}; got {text!r}")
    return chosen


def exercises_for(config, exercises: tuple[str, ...], asked: bool) -> tuple[str, ...]:
    """An encoder (BERT) has no next token: its probabilities fill in each position's own token, so the
    "probability of the next token" exercise means nothing there. Left out of the default sheet with a note,
    refused when asked for by name."""
    if not getattr(config, "mlm_head", False) or "prob" not in exercises:
        return exercises
    if asked:
        raise ConfigError(
            "--exercises prob asks for the probability of the next token: an encoder (BERT, RoBERTa, DistilBERT) "
            "predicts no next token; leave prob out"
        )
    log.warning("an encoder predicts no next token: the sheet leaves out the next-token probability (prob)")
    return tuple(k for k in exercises if k != "prob")


def check_small(trace, row: int) -> None:
    """A worksheet is for the note's toy sizes: refused, with what to use, when the numbers are too many."""
    cfg = trace.config
    sizes = {"E": cfg.E, "D": cfg.D, "H": cfg.H}
    if any(sizes[k] > v for k, v in MAX_SIZES.items()):
        have = ", ".join(f"{k}={v}" for k, v in sizes.items())
        limit = ", ".join(f"{k} ≤ {v}" for k, v in MAX_SIZES.items())
        raise ConfigError(
            f"a worksheet is done by hand on a small model ({limit}); this one has {have}: use --preset seed-toy"
        )
    if not 0 <= row < trace.B:
        raise ConfigError(f"sentence {row} does not exist: the text has {trace.B} sentences (counted from 0)")
    n = trace.rows[row].length
    if n > MAX_TOKENS:
        raise ConfigError(
            f"a worksheet is done by hand: at most {MAX_TOKENS} tokens in the sentence; sentence {row} has {n}"
        )


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(n: int) -> str:
    return str(n).translate(_SUB)


def _row(a) -> np.ndarray:
    return np.array(a, dtype=np.float64)


def check_not_trivial(trace, row: int, head: int, i: int) -> None:
    """Refuse a sentence whose exercises would be trivial: query ``i`` (the token they all ask about) sees fewer
    than two keys whose scores differ at the printed digits. Then every weight of its row is 1/(keys), A·V is
    the mean of the values, and no exercise depends on which token is which: a one-token sentence, the same
    word twice, or words outside the toy vocabulary, all read as the same <unk> (a Japanese sentence on
    seed-toy became one or two <unk>, issue 38)."""
    n = trace.rows[row].length
    masked = np.asarray(trace[names.attn(0, "masked")][row, head, i, :n], dtype=np.float64)
    seen = np.round(masked[np.isfinite(masked)], INPUT_DIGITS)  # the keys the mask lets it see, as printed
    if seen.size < 2 or np.ptp(seen) == 0:
        raise TrivialWorksheet(i, int(seen.size), int(sum(trace.rows[row].unknown)))


def worksheet(trace, exercises=EXERCISES, row: int = 0, head: int = 0) -> list[Exercise]:
    """The exercises asked for, in the order given."""
    check_small(trace, row)
    if not 0 <= head < trace.config.H:
        raise ConfigError(f"head {head} does not exist: the model has {trace.config.H} heads (counted from 0)")
    n = trace.rows[row].length
    i = min(1, n - 1)
    check_not_trivial(trace, row, head, i)
    make = {"qk": _qk, "scale": _scale, "mask": _mask, "softmax": _softmax, "av": _av, "wo": _wo, "prob": _prob}
    return [make[k](trace, row, head, i) for k in exercises]


def _qk(trace, b, h, i) -> Exercise:
    q = trace[names.attn(0, "q")][b, h, i]
    k = trace[names.attn(0, "k")][b, h, 0]
    return Exercise(
        "qk",
        (Quantity(f"q{sub(i)}", _row(q)), Quantity(f"k{sub(0)}", _row(k))),
        Quantity(f"S{sub(i)}{sub(0)}", _row(trace[names.attn(0, "scores")][b, h, i, 0]), 2),
        names.attn(0, "scores"),
        (b, h, i, 0),
        {"i": i, "j": 0, "head": h},
    )


def _scale(trace, b, h, i) -> Exercise:
    D = trace.config.D
    s = trace[names.attn(0, "scores")][b, h, i, 0]
    return Exercise(
        "scale",
        (Quantity(f"S{sub(i)}{sub(0)}", _row(s)), Quantity("D", np.array(float(D)), 0)),
        Quantity(f"S{sub(i)}{sub(0)} / √D", _row(trace[names.attn(0, "scaled")][b, h, i, 0]), 2),
        names.attn(0, "scaled"),
        (b, h, i, 0),
        {"i": i, "j": 0, "D": D, "scaling": trace.options.scale},
    )


def _mask(trace, b, h, i) -> Exercise:
    n = trace.rows[b].length
    allowed = np.asarray(trace["mask"][b, i, :n], dtype=bool)
    return Exercise(
        "mask",
        (
            Quantity(f"(S/√D){sub(i)}", _row(trace[names.attn(0, "scaled")][b, h, i, :n])),
            Quantity(f"mask{sub(i)}", allowed.astype(np.float64), 0),
        ),
        Quantity(f"masked{sub(i)}", _row(trace[names.attn(0, "masked")][b, h, i, :n]), 2),
        names.attn(0, "masked"),
        (b, h, i, slice(0, n)),
        {"i": i, "mask": str(trace.options.mask)},
    )


def _softmax(trace, b, h, i) -> Exercise:
    n = trace.rows[b].length
    return Exercise(
        "softmax",
        (Quantity(f"masked{sub(i)}", _row(trace[names.attn(0, "masked")][b, h, i, :n])),),
        Quantity(f"A{sub(i)}", _row(trace[names.attn(0, "weights")][b, h, i, :n]), 3),
        names.attn(0, "weights"),
        (b, h, i, slice(0, n)),
        {"i": i},
    )


def _av(trace, b, h, i) -> Exercise:
    from explorer.present.explain import kv_head

    n = trace.rows[b].length
    V = trace[names.attn(0, "v")][b, kv_head(trace, h), :n]
    return Exercise(
        "av",
        (
            Quantity(f"A{sub(i)}", _row(trace[names.attn(0, "weights")][b, h, i, :n])),
            Quantity("V", _row(V), row_label="v"),
        ),
        Quantity(f"R{sub(i)}", _row(trace[names.attn(0, "heads")][b, h, i]), 2),
        names.attn(0, "heads"),
        (b, h, i, slice(None)),
        {"i": i, "head": h},
    )


def _wo(trace, b, h, i) -> Exercise:
    W = trace["params.layers.0.attn.W_o"][:, 0]
    inputs = [Quantity(f"concat{sub(i)}", _row(trace[names.attn(0, "concat")][b, i])), Quantity("W_o[:, 0]", _row(W))]
    if "params.layers.0.attn.b_o" in trace:
        inputs.append(Quantity("b_o[0]", _row(trace["params.layers.0.attn.b_o"][0])))
    return Exercise(
        "wo",
        tuple(inputs),
        Quantity(f"out{sub(i)},{sub(0)}", _row(trace[names.attn(0, "out")][b, i, 0]), 2),
        names.attn(0, "out"),
        (b, i, 0),
        {"i": i, "e": 0},
    )


def _prob(trace, b, h, i) -> Exercise:
    n = trace.rows[b].length
    ids = trace.rows[b].ids
    logits = np.asarray(trace.logits_rows(b, i, i + 1)[0], dtype=np.float64)
    t = int(ids[i + 1]) if i + 1 < n else int(np.argmax(logits))
    T = float(trace.options.temperature)
    z = _partition(logits, T)
    token = trace.vocab[t] if trace.vocab is not None and t < len(trace.vocab) else str(t)
    return Exercise(
        "prob",
        (
            Quantity(f"l{sub(i)}[{token}]", _row(logits[t])),
            Quantity("T", np.array(T), 2),
            Quantity("Z", np.array(z), 4),
        ),
        Quantity(f"p{sub(i)}[{token}]", _row(trace.probs_row(b, i)[t]), 3),
        "probs",
        (b, i, t),
        {"i": i, "token": token, "id": t, "V": int(logits.shape[0]), "next": i + 1 < n},
    )


def _partition(logits: np.ndarray, T: float) -> float:
    """Z = Σ exp(l / T), the number the pupil writes. At a small temperature (0.001, a plausible classroom
    value) it is past any float (OverflowError) or below the smallest: refused in one line, with what to do."""
    top = float(logits.max())
    log_z = top / T + math.log(float(np.sum(np.exp((logits - top) / T))))
    if not math.isfinite(log_z) or abs(log_z) > MAX_LOG_Z:
        raise ConfigError(
            f"the prob exercise writes Z = Σ exp(l/T) by hand, and at T = {T:g} Z is about e^{log_z:.0f}, "
            "more digits than a sheet can hold: raise the temperature (try 1) or leave prob out (--exercises)"
        )
    return math.exp(log_z)


MAX_LOG_Z = 700.0  # e^700 ≈ 1e304: beyond it exp() overflows a float


# ------------------------------------------------------------------------------------------ printing


def number(x: float, digits: int) -> str:
    """A number as a worksheet prints it: fixed decimals, a real minus sign, −∞ for a blocked cell."""
    x = float(x)
    if math.isinf(x):
        return "−∞" if x < 0 else "∞"
    if digits == 4:  # Z: four significant digits, whatever its size
        return f"{x:.4g}".replace("-", "−")
    text = f"{x:.{digits}f}"
    if text.lstrip("-").strip("0.") == "":
        text = text.lstrip("-")  # no "−0.00"
    return text.replace("-", "−")


def written(q: Quantity) -> list[str]:
    """The lines that print a quantity: one for a scalar or vector, one per row for a matrix."""
    v = np.asarray(q.value)
    if v.ndim == 0:
        return [f"{q.label} = {number(v, q.digits)}"]
    if v.ndim == 1:
        return [f"{q.label} = (" + ", ".join(number(x, q.digits) for x in v) + ")"]
    width = max(len(number(x, q.digits)) for x in v.ravel())
    rows = [", ".join(number(x, q.digits).rjust(width) for x in r) for r in v]
    return [f"{q.row_label or q.label}{sub(k)} = ({r})" for k, r in enumerate(rows)]
