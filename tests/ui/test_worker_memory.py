"""Issue 26 item 5: what the window's worker keeps is counted against the memory budget too."""

from __future__ import annotations


def test_the_models_the_worker_keeps_stay_within_a_share_of_the_budget(qapp, monkeypatch):
    """Issue 26 item 5: a lesson walking through large models kept four of them; the kept models' parameters
    now stay within a quarter of the memory budget (the model in use is always kept)."""
    import threading
    from types import SimpleNamespace

    from explorer.session import ModelSource
    from explorer.ui import worker as worker_module

    monkeypatch.setenv("ATTENTION_EXPLORER_MEMORY_GB", "1")  # a quarter: 256 MiB, 64 M float32 parameters
    big = lambda n: SimpleNamespace(config=SimpleNamespace(parameter_count=lambda: n))  # noqa: E731
    monkeypatch.setattr(worker_module, "build_bundle", lambda source, **kw: big(40_000_000 if source.name != "tiny" else 1000))
    w = worker_module.TraceWorker()
    for name in ("a", "b", "c", "tiny"):
        w._bundle(ModelSource("preset", name), threading.Event())
    kept = [s.name for s in w._bundles]
    assert kept[-1] == "tiny" and sum(b.config.parameter_count() * 4 for b in w._bundles.values()) <= 256 * 1024**2
    assert len(kept) <= 2  # two 160 MB models never sit side by side with a third
