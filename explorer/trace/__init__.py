"""Run a model on text and keep every named tensor: ``run_trace(bundle, text, options) -> Trace``."""

from explorer.trace.run import run_trace, split_batch
from explorer.trace.trace import FORMAT_VERSION, Row, Trace

__all__ = ["run_trace", "split_batch", "Trace", "Row", "FORMAT_VERSION"]
