"""One model run from two threads at once (the window's trace worker and a patching sweep or a logit lens):
each run's trace is its own, equal to the same run made alone. The capture sink lives on the model's
modules, so without the model's lock (model.capture.model_lock) the runs captured into each other's sinks."""

from __future__ import annotations

import threading

import numpy as np

from explorer.interventions.lens import lens_grid
from explorer.trace.run import run_trace
from explorer.weights.presets import load_preset

TEXTS = ("This is a pen .", "The cat sat on the mat and the dog sat on the chair .")


def test_two_threads_on_one_model_get_their_own_traces():
    bundle = load_preset("classroom")
    alone = {t: run_trace(bundle, t) for t in TEXTS}
    lens_alone = lens_grid(bundle, alone[TEXTS[0]])
    wrong: list[str] = []

    def trace_again(text: str) -> None:
        for _ in range(15):
            got = run_trace(bundle, text)
            for name in ("layers.0.attn.heads", "layers.1.out", "logits"):
                if got[name].shape != alone[text][name].shape or not np.array_equal(got[name], alone[text][name]):
                    wrong.append(f"{text!r}: {name}")

    def lens_again() -> None:
        for _ in range(15):
            grid = lens_grid(bundle, alone[TEXTS[0]])
            if not np.array_equal(grid.top_prob, lens_alone.top_prob):
                wrong.append("lens")

    def guarded(fn, *args):
        def run() -> None:
            try:
                fn(*args)
            except Exception as exc:  # noqa: BLE001 - a run broken by the other thread's sink is a failure too
                wrong.append(f"{type(exc).__name__}: {exc}")

        return threading.Thread(target=run)

    threads = [guarded(trace_again, t) for t in TEXTS] + [guarded(lens_again)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not wrong, wrong[:5]
