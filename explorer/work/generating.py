"""A generation as work off the GUI thread (explorer.generation.loop.generate): each chosen step is sent as
it comes, and Stop keeps the tokens written so far."""

from __future__ import annotations

import threading
from typing import Any

from explorer.config import RunOptions
from explorer.session.request import ModelSource
from explorer.work.model_cache import ModelCache
from explorer.work.report import Report, Work


def generation_work(
    models: ModelCache, source: ModelSource, text: str, options: RunOptions, how: dict[str, Any]
) -> Work:
    """A generation of ``how["max_new_tokens"]`` tokens with ``how["sampling"]`` (Sampling's keywords) and
    ``how["use_cache"]``; each chosen Step is sent as it comes. Stop keeps the tokens written so far."""

    def work(report: Report, cancel: threading.Event) -> Any:
        from explorer.generation.loop import GenerateOptions, generate
        from explorer.generation.sampling import Sampling, end_token_ids

        bundle = models.get(source, cancel=cancel)
        settings = GenerateOptions(
            max_new_tokens=how["max_new_tokens"],
            sampling=Sampling(**how["sampling"]),
            use_cache=how["use_cache"],
            stop_ids=end_token_ids(bundle.tokenizer),  # a real model stops at its end-of-text token
        )
        return generate(bundle, text, options, settings, cancel=cancel, on_step=report.send)

    return work
