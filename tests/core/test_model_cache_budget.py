"""The models kept for the next request stay within a share of the memory budget (issue 26 item 5): a lesson
walking through large models kept four of them; now the kept models' parameters stay within a quarter of
the budget, and the model in use is always kept (explorer/work/model_cache.py)."""

from __future__ import annotations

from types import SimpleNamespace

from explorer.session import ModelSource
from explorer.work.model_cache import ModelCache


def test_the_models_kept_stay_within_a_share_of_the_budget(monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "1")  # a quarter: 256 MiB, 64 M float32 parameters
    big = lambda n: SimpleNamespace(config=SimpleNamespace(parameter_count=lambda: n))  # noqa: E731
    cache = ModelCache(lambda source, progress=None, cancel=None: big(40_000_000 if source.name != "tiny" else 1000))
    for name in ("a", "b", "c", "tiny"):
        cache.get(ModelSource("preset", name))
    kept = [s.name for s in cache._bundles]
    assert kept[-1] == "tiny" and sum(b.config.parameter_count() * 4 for b in cache._bundles.values()) <= 256 * 1024**2
    assert len(kept) <= 2  # two 160 MB models never sit side by side with a third
    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "64")  # a roomy budget keeps the usual few
    for name in ("a", "b", "c"):
        cache.get(ModelSource("preset", name))
    assert len(cache._bundles) == 4
