"""long_input_s / long_input_peak_rss_gb: 4096 tokens on a GPT-2-small-shaped model (random weights, saved as a
Hugging Face folder), opened in the window (offscreen): seconds from the request (model load included) to
one head's map painted, and the process's peak resident memory over the whole run (the remaining layers
and the output included). Runs in a fresh process so the peak is the window's own."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import emit, figure, random_text
from gui_probe import main_window

CONTEXT = 4096


def child(folder: str, out: str) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from explorer.ui.bridge.state import AppState, ModelSource
    from explorer.ui.shell.app import create_application

    app = create_application()
    from explorer.ui.preferences import settings

    settings.set_folder(tempfile.mkdtemp())  # never the user's own settings
    text, _ = random_text(CONTEXT)
    state = AppState(text=text, source=ModelSource("path", folder))
    window = main_window(state)
    window.show()
    view = window.views["tensor"]
    marks: dict[str, float] = {}

    def on_trace(trace) -> None:
        if "first_map" not in marks and trace.C == CONTEXT and trace.layers:
            app.processEvents()  # let the views paint it
            view.repaint()
            marks["first_map"] = time.perf_counter()
            marks["first_map_rss_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
        if not trace.partial and trace.C == CONTEXT and "logits" in trace:
            marks["full"] = time.perf_counter()

    state.traceChanged.connect(on_trace)
    state.errorRaised.connect(lambda m: marks.setdefault("error", m))
    t0 = time.perf_counter()
    window.start()
    deadline = t0 + 1800
    while "full" not in marks and "error" not in marks and time.perf_counter() < deadline:
        app.processEvents()
        time.sleep(0.005)
    result = {
        "first_map_s": marks.get("first_map", float("nan")) - t0,
        "full_s": marks.get("full", float("nan")) - t0,
        "first_map_rss_gb": marks.get("first_map_rss_gb"),
        "peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2,
        "error": marks.get("error"),
        "layers_captured": list(state.trace.layers) if state.trace else None,
    }
    Path(out).write_text(json.dumps(result))
    window.close()


def main() -> None:
    import tokenizers
    import torch
    from tokenizers import models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel

    with tempfile.TemporaryDirectory() as tmp:
        torch.manual_seed(0)
        cfg = GPT2Config(n_positions=CONTEXT)
        GPT2LMHeadModel(cfg).save_pretrained(tmp)
        tok = tokenizers.Tokenizer(models.WordLevel({f"t{i}": i for i in range(cfg.vocab_size)}, unk_token="t0"))
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        tok.save(str(Path(tmp) / "tokenizer.json"))
        out = Path(tmp) / "result.json"
        subprocess.run(
            [sys.executable, __file__, "--child", tmp, str(out)],
            check=True,
            timeout=2400,
            env={**os.environ, "XDG_CONFIG_HOME": str(Path(tmp) / "cfg")},
        )
        r = json.loads(out.read_text())
    if r.get("error"):
        raise SystemExit(f"long input failed: {r['error']}")
    emit(
        {
            "long_input_s": figure(
                r["first_map_s"],
                "s",
                "≤ 10 s",
                r["first_map_s"] <= 10,
                full_trace_s=round(r["full_s"], 1),
                context=CONTEXT,
                layers_captured=r["layers_captured"],
            ),
            "long_input_peak_rss_gb": figure(
                r["peak_rss_gb"],
                "GB",
                "≤ 3 GB",
                r["peak_rss_gb"] <= 3,
                at_first_map_gb=round(r["first_map_rss_gb"] or 0, 2),
            ),
        }
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
    else:
        main()
