"""Shared by the benchmark scripts: each prints ONE JSON object mapping figure keys to
{"value", "unit", "target", "met"} (plus "detail" where useful), and run_all.py merges them."""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


RETIRED = "none (a figure only)"  # the target of a figure kept for its value, no longer met or missed


def figure(value: float, unit: str, target: str, met: bool | None, **detail) -> dict:
    """One figure (``met`` None: a figure without a target, ``RETIRED``). Its detail always says the machine's
    load when it was measured (the 1-minute load average,
    ``load_1min``, unless the script gave its own): absolute times on a shared machine swing with it, the
    same-run ratios much less."""
    out = {"value": round(float(value), 4), "unit": unit, "target": target, "met": None if met is None else bool(met)}
    if "load" in detail and "load_1min" not in detail:
        detail["load_1min"] = round(float(detail.pop("load")), 2)
    detail.setdefault("load_1min", round(os.getloadavg()[0], 2))
    out["detail"] = detail
    return out


def skipped(reason: str, unit: str, target: str) -> dict:
    return {"value": None, "unit": unit, "target": target, "met": None, "skipped": reason}


def emit(figures: dict) -> None:
    print(json.dumps(figures))


def median(xs) -> float:
    return statistics.median(xs)


def p95(xs) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def peak_rss_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # Linux: KiB


def current_rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3
    return (
        f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB, {platform.system()} {platform.release()}, Python "
        f"{platform.python_version()}"
    )


def gpt2_small_bundle(tmp: Path, context: int = 1024):
    """A GPT-2-small-shaped model with random weights, saved by transformers and opened by our loader,
    so both sides run the very same weights. Tokens are "t0" … "t50256" so ids are easy to choose."""
    import tokenizers
    import torch
    from tokenizers import models, pre_tokenizers
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    cfg = GPT2Config(n_positions=max(context, 1024), attn_implementation="eager")
    hf = GPT2LMHeadModel(cfg).eval()
    hf.save_pretrained(tmp)
    vocab = {f"t{i}": i for i in range(cfg.vocab_size)}
    tok = tokenizers.Tokenizer(models.WordLevel(vocab, unk_token="t0"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.save(str(tmp / "tokenizer.json"))
    from explorer.weights.hf import load_hf_folder

    return hf, load_hf_folder(tmp)


def random_text(n_tokens: int, vocab: int = 50257, seed: int = 0) -> tuple[str, list[int]]:
    import random

    rng = random.Random(seed)
    ids = [rng.randrange(1, vocab) for _ in range(n_tokens)]
    return " ".join(f"t{i}" for i in ids), ids
