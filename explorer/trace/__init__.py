"""Run a model on text and keep every named tensor: ``run_trace(bundle, text, options) -> Trace``.

``Trace`` needs only numpy, so the window can be built before torch is imported (a fast start);
``run_trace`` is imported on first use.
"""

from explorer.trace.trace import FORMAT_VERSION, Row, Trace, TraceInfo

__all__ = ["run_trace", "split_batch", "Trace", "TraceInfo", "Row", "FORMAT_VERSION"]


def __getattr__(name: str):
    if name in ("run_trace", "split_batch"):
        from explorer.trace import run

        return getattr(run, name)
    raise AttributeError(name)
