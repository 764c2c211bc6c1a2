"""billion_trace_vs_peer / billion_peak_rss_gb: a Llama-3.2-1B-shaped model with random weights (16 layers,
32 query and 8 key-value heads, E = 2,048, llama3 rotary scaling, tied embeddings; benchmarks/billion_model.py)
traced at 2,048 tokens with every layer's maps available on demand.

Ours: the request (tokenize, mask, forward; as the window runs a deep model, the selected layer captured whole
and every layer's q and k kept, so that every layer's maps are derived from them when looked at) until the
next-token distribution after the last token, as the window shows it first (the trace derives its logits from
final.out when read: explorer/trace/logits.py). The peer: transformers' LlamaForCausalLM
forward of the same weights (its parameters are views of ours: one copy in memory) and ids with its default
SDPA attention, no attentions returned, every row's logits (its default); beside it, in detail, the same
forward asked for the last row's logits only (logits_to_keep=1, run once), our ratio to it, and the relative error of
our last row against the peer's. Runs alternate in one process; medians of ``repeats`` are compared.

The peak resident memory is measured in a fresh process that builds the model (random initialisation) and runs
our side once; it is compared with the weights' own size (the target: weights + 2 GB).

    python benchmarks/bench_billion.py [repeats]      (3 by default)

BENCH_BILLION_CONTEXT (2048) and BENCH_BILLION_LAYERS (16) shrink the run while trying the script;
BENCH_BILLION_DTYPES (float32,bfloat16) names the dtypes measured, one after the other; a figure of another
dtype than float32 carries its name (billion_trace_vs_peer_bfloat16, billion_peak_rss_gb_bfloat16). In bfloat16
the weights are made in bfloat16, as a checkpoint stored so and opened in its dtype holds them, and both sides
compute in it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from common import emit, figure, median, peak_rss_gb

CONTEXT = int(os.environ.get("BENCH_BILLION_CONTEXT", 2048))
DTYPES = os.environ.get("BENCH_BILLION_DTYPES", "float32,bfloat16").split(",")
DTYPE = os.environ.get("BENCH_BILLION_DTYPE", "float32")  # the dtype of this run (a child's from its parent)
KEYS = ("billion_trace_vs_peer", "billion_peak_rss_gb")
GB = 1024**3


def _options():
    """The window's options for a deep model (explorer/session/capture_policy.py): the selected layer captured
    whole (layer 0), maps derived when looked at, and every other layer's q and k (config.keeps_every_map)."""
    from explorer.config import RunOptions

    return RunOptions(lazy_pairwise=True, layers_to_capture=(0,), dtype=DTYPE)


OPTIONS = None  # set in main() and child_peak(): explorer is importable once the path is set


def budget_gb(bundle) -> float:
    """A budget a user with this model raises to (ATTENTION_EXPLORER_MEMORY_GB): the estimate, rounded up."""
    from explorer.config import estimate_memory

    est = estimate_memory(bundle.config, 1, CONTEXT, OPTIONS)
    return est.peak_bytes / GB + 0.5


def ours_once(bundle, text: str) -> tuple[float, object]:
    """(seconds, the last row's logits) of one request with every layer's maps on demand."""
    from explorer.trace.run import run_trace

    t0 = time.perf_counter()
    trace = run_trace(bundle, text, OPTIONS)
    last = trace.logits_rows(0, trace.C - 1, trace.C)[0]
    seconds = time.perf_counter() - t0
    every = tuple(range(bundle.config.layers))
    assert trace.map_layers == every and trace.C == CONTEXT, (trace.map_layers, trace.C)
    return seconds, last


def child_peak() -> None:
    """Fresh process: build the model, run our side once; print the peak resident memory and the weights' size."""
    global OPTIONS
    import billion_model

    OPTIONS = _options()
    t0 = time.perf_counter()
    os.environ.setdefault("ATTENTION_EXPLORER_MEMORY_GB", "64")  # the estimate is checked below, not here
    bundle = billion_model.ours(dtype=DTYPE)
    build = time.perf_counter() - t0
    weights = sum(p.numel() * p.element_size() for p in bundle.model.parameters())
    after_build = peak_rss_gb()
    os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = f"{budget_gb(bundle):.2f}"
    text, _ = billion_model.ids_text(CONTEXT, bundle.config.V)
    seconds, _ = ours_once(bundle, text)
    print(
        json.dumps(
            {
                "peak_rss_gb": peak_rss_gb(),
                "weights_gb": weights / GB,
                "peak_after_build_gb": after_build,
                "build_s": build,
                "trace_s": seconds,
                "budget_gb": float(os.environ["ATTENTION_EXPLORER_MEMORY_GB"]),
            }
        )
    )


def main(repeats: int = 3) -> None:
    global DTYPE
    figures = {}
    for dtype in DTYPES:
        DTYPE = dtype
        got = measure(repeats)
        figures.update(got if dtype == "float32" else {f"{k}_{dtype}": v for k, v in got.items()})
    emit(figures)


def measure(repeats: int) -> dict:
    global OPTIONS
    import billion_model
    import torch

    OPTIONS = _options()
    proc = subprocess.run(
        [sys.executable, __file__, "--child"],
        capture_output=True,
        text=True,
        timeout=3600,
        env={**os.environ, "BENCH_BILLION_DTYPE": DTYPE},
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(f"peak-memory run failed: {proc.stderr[-3000:]}")
    child = json.loads(lines[-1])

    os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = "64"
    t0 = time.perf_counter()
    bundle = billion_model.ours(dtype=DTYPE)
    build = time.perf_counter() - t0
    os.environ["ATTENTION_EXPLORER_MEMORY_GB"] = f"{budget_gb(bundle):.2f}"
    hf = billion_model.peer(bundle, dtype=DTYPE)
    text, ids = billion_model.ids_text(CONTEXT, bundle.config.V)
    ids_t = torch.tensor([ids])

    def peer(keep: int = 0):
        t = time.perf_counter()
        with torch.inference_mode():
            logits = hf(ids_t, logits_to_keep=keep).logits
        return time.perf_counter() - t, logits[0, -1]

    mine, theirs, theirs_last, errors = [], [], [], []
    for _ in range(repeats):
        seconds, last = ours_once(bundle, text)
        mine.append(seconds)
        seconds, expected = peer()
        theirs.append(seconds)
        if not theirs_last:  # once: a detail, not the figure (each 1B forward takes minutes on two cores)
            theirs_last.append(peer(1)[0])
        diff = torch.from_numpy(last) - expected
        errors.append(float(diff.norm() / expected.norm()))
    ratio = median(mine) / median(theirs)
    weights = child["weights_gb"]
    load = round(os.getloadavg()[0], 2)
    shape = dict(context=CONTEXT, layers=bundle.config.layers, dtype=DTYPE, repeats=repeats)
    return {
        "billion_trace_vs_peer": figure(
            ratio,
            "ratio",
            "≤ 1.2",
            ratio <= 1.2,
            ours_s=[round(x, 2) for x in mine],
            peer_s=[round(x, 2) for x in theirs],
            peer_last_row_s=[round(x, 2) for x in theirs_last],
            vs_peer_last_row=round(median(mine) / theirs_last[0], 3),
            last_row_relative_error=max(errors),
            build_s=round(build, 1),
            threads=torch.get_num_threads(),
            load_1min=load,
            **shape,
        ),
        "billion_peak_rss_gb": figure(
            child["peak_rss_gb"],
            "GB",
            "≤ weights + 2 GB",
            child["peak_rss_gb"] <= weights + 2,
            weights_gb=round(weights, 2),
            over_weights_gb=round(child["peak_rss_gb"] - weights, 2),
            peak_after_build_gb=round(child["peak_after_build_gb"], 2),
            build_s_fresh=round(child["build_s"], 1),
            trace_s_fresh=round(child["trace_s"], 2),
            memory_budget_gb=child["budget_gb"],
            **shape,
        ),
    }


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if sys.argv[1:] == ["--child"]:
        child_peak()
    else:
        main(int(sys.argv[1]) if sys.argv[1:] else 3)
