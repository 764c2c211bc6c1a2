"""Each step of a lesson as a trace, without a window: the step's folded state (``resolve_all``) gives the
model source, the text and the run options, which ``open_source`` and ``run_trace`` turn into the trace the
window would show. Used by ``lesson export`` (slides) and anything else that wants a lesson's figures.

One trace is kept at a time: a step that changes only the selection (stage, head, token) reuses the
previous step's trace. Models of earlier steps are kept while they are small (together at most
``KEEP_MODEL_BYTES``: a lesson that comes back to its first preset does not load it again); a large one is
let go before the next is built, so a lesson of a thousand steps holds no more than a step's work. The memory budget is
checked for every step before its model is built (explorer/config/memory.py).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass

from explorer.config import MaskSpec, RunOptions, check_memory
from explorer.lessons.model import DEFAULT_START, Lesson, LessonError, LessonState, resolve_all, skip_note
from explorer.session.request import ModelSource, Selection
from explorer.util.threads import threads_for


def source_of(ls: LessonState) -> ModelSource:
    """The model a step shows (the window's explorer/ui/lesson_state.py opens the same)."""
    if ls.model is not None:
        return ModelSource("path", ls.model)
    source = ModelSource("preset", ls.preset, seed=ls.seed, random_weights=ls.weights == "random")
    return source.with_sizes(**ls.size_overrides())


def options_of(ls: LessonState) -> RunOptions:
    mask = MaskSpec.explicit(ls.mask) if isinstance(ls.mask, tuple) else MaskSpec.parse(ls.mask)
    return RunOptions(mask=mask, scale=ls.scaling, temperature=ls.temperature)


def selection_of(ls: LessonState) -> Selection:
    return Selection(stage=ls.stage, layer=ls.layer, head=ls.head, row=ls.row, token=ls.token, key=ls.key)


@dataclass
class StepTrace:
    index: int  # 0-based
    state: LessonState
    trace: object | None  # the Trace, or None when the step cannot be shown here
    note: str | None  # why not (a real model that is not installed, with how to install it)


def check_budget(ls: LessonState, index: int) -> None:
    """The step's model and text within the memory budget, before anything is built (a preset step: its
    sizes are known without opening it; a real model's are checked as it is opened)."""
    if ls.model is not None:
        return
    from explorer.errors import ConfigError
    from explorer.trace.run import split_batch
    from explorer.weights.presets import PRESETS, preset_config, preset_tokenizer

    try:
        config = preset_config(ls.preset, **ls.size_overrides())
        tok = preset_tokenizer(PRESETS[ls.preset].tokenizer)
        lengths = [len(tok.encode(s)) for s in split_batch(ls.text)] or [1]
        check_memory(config, len(lengths), max(max(lengths), 1), options_of(ls))
    except ConfigError as exc:
        raise LessonError(f"step {index + 1}: {exc}") from None


KEEP_MODEL_BYTES = 256 * 1024**2  # models kept for later steps while their weights add up to at most this


class StepTracer:
    """Traces steps one after the other, keeping one trace and the models of recent steps while they are
    small (a lesson going back to its first preset does not load it again); a large model is let go before
    the next one is built."""

    def __init__(self) -> None:
        self._bundles: OrderedDict[ModelSource, tuple[object, int]] = OrderedDict()
        self._key: tuple | None = None
        self._trace = None

    def _bundle(self, source: ModelSource):
        from explorer.session.open import open_source

        if source in self._bundles:
            self._bundles.move_to_end(source)
            return self._bundles[source][0]
        if self._held() > KEEP_MODEL_BYTES:
            self._bundles.clear()  # a large model is let go before the next one is built
        bundle = open_source(source)
        self._bundles[source] = (bundle, _weight_bytes(bundle))
        while self._held() > KEEP_MODEL_BYTES and len(self._bundles) > 1:
            self._bundles.popitem(last=False)  # the oldest small ones make room
        return bundle

    def _held(self) -> int:
        return sum(size for _, size in self._bundles.values())

    def trace(self, ls: LessonState, index: int):
        from explorer.trace import run_trace

        source, options = source_of(ls), options_of(ls)
        key = (source, ls.text, options)
        if key == self._key:
            return self._trace
        self._key = self._trace = None  # let the last trace go before the next is made
        check_budget(ls, index)
        bundle = self._bundle(source)
        tokens = len(ls.text.split()) if bundle.tokenizer.kind == "word" else len(ls.text)  # never below the real count
        with threads_for(
            tokens * bundle.config.parameter_count()
        ):  # a small run on one thread: 3× faster on a busy machine
            self._trace = run_trace(bundle, ls.text, options)
        self._key = key
        return self._trace


def _weight_bytes(bundle) -> int:
    try:
        return sum(p.numel() * p.element_size() for p in bundle.model.parameters())
    except (AttributeError, TypeError):
        return KEEP_MODEL_BYTES + 1  # unknown: not kept


def step_traces(lesson: Lesson, start: LessonState = DEFAULT_START) -> Iterator[StepTrace]:
    """Every step with its trace (or the note saying why it cannot be shown), in order."""
    from explorer.errors import Cancelled, ExplorerError

    tracer = StepTracer()
    for i, state in enumerate(resolve_all(lesson, start)):
        note = skip_note(state)
        try:
            trace = None if note else tracer.trace(state, i)
        except Cancelled:
            raise
        except LessonError:
            raise
        except ExplorerError as exc:
            raise LessonError(f"step {i + 1}: {exc}") from None
        yield StepTrace(i, state, trace, note)
