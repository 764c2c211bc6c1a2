"""A number's anatomy as work off the GUI thread: a (C, C) map of a lazy trace is derived when first read,
and a softmax over a large vocabulary reads a whole row, so the stepper never computes on the GUI thread.
A generation's decode row is built from the generation's own query rows and KV cache (``decode_work``), or,
where it kept neither (no cache, an older snapshot), traced again first (``decode_row_work``)."""

from __future__ import annotations

import threading

import numpy as np

from explorer.anatomy import Cell, Step, anatomy
from explorer.anatomy.decode_cells import decode_anatomy
from explorer.errors import ConfigError
from explorer.generation.result import Generation
from explorer.session.request import ModelSource
from explorer.trace import Trace
from explorer.work.model_cache import ModelCache
from explorer.work.report import Report, Work


def anatomy_work(trace: Trace, cell: Cell) -> Work:
    """The steps of ``cell`` (explorer.anatomy.anatomy, long sums shortened), with the cell they explain."""

    def work(_report: Report, _cancel: threading.Event) -> tuple[Cell, list[Step]]:
        return cell, anatomy(trace, cell)

    return work


def decode_work(generation: Generation, cell: Cell) -> Work:
    """The steps of a weight a decode step wrote, from the generation's own tensors (its query row, the cached
    keys, the stored weight): nothing is traced again, and the last step is the drawn weight bit for bit."""

    def work(_report: Report, _cancel: threading.Event) -> tuple[Cell, list[Step]]:
        return cell, decode_anatomy(generation, cell)

    return work


def decode_row_work(models: ModelCache, source: ModelSource, generation: Generation, cell: Cell) -> Work:
    """The steps of a cell of a row a decode step wrote (``cell.query`` ≥ the prompt's tokens). The generation
    keeps only that row's weights, so the prompt and the tokens written are traced again as one text: in a
    causal model, row i is the same whether its keys came from the cache or from one pass. Refused when the
    text reads back as other tokens, or when the model loaded now is not the one that wrote the generation
    (its prompt's weights differ)."""

    def work(_report: Report, cancel: threading.Event) -> tuple[Cell, list[Step]]:
        from explorer.trace.run import run_trace  # torch loads here, off the GUI thread

        trace = run_trace(models.get(source, cancel=cancel), generation.text, generation.trace.options, cancel=cancel)
        written = tuple(generation.trace.rows[0].ids) + generation.token_ids
        n, C = cell.query + 1, generation.prompt_tokens
        if tuple(trace.rows[0].ids[:n]) != written[:n]:
            raise ConfigError("the generated text reads back as other tokens: its decode rows cannot be traced again")
        before = generation.trace.head_map(cell.layer, "weights", 0, cell.head)[:C, :C]
        if not np.allclose(trace.head_map(cell.layer, "weights", 0, cell.head)[:C, :C], before, atol=1e-5):
            raise ConfigError("the model loaded now did not write this generation: load that model to trace it again")
        return cell, anatomy(trace, cell)

    return work
