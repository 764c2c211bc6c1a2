"""One generation on a background thread: the core's ``generate`` runs here (torch loads in this thread, never
in the GUI's), each chosen token is reported as it comes, and Stop sets an event the loop checks between steps
(the tokens written so far are kept)."""

from __future__ import annotations

import threading
import traceback

from PySide6.QtCore import QThread, Signal

from explorer.errors import ExplorerError


class GenerateJob(QThread):
    stepped = Signal(object)  # explorer.generation.Step, as soon as it is chosen
    succeeded = Signal(object)  # explorer.generation.Generation
    failed = Signal(str)  # one-line message

    def __init__(self, source, text: str, options, max_new_tokens: int, sampling: dict, use_cache: bool, parent=None, bundle=None) -> None:
        """``bundle``: the model already built for ``source`` (the trace worker's), or None to build it here."""
        super().__init__(parent)
        self.bundle = bundle
        self.source, self.text, self.options = source, text, options
        self.max_new_tokens, self.sampling, self.use_cache = max_new_tokens, sampling, use_cache
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:  # noqa: D401 - QThread entry point
        try:
            from explorer.generation.loop import GenerateOptions, generate
            from explorer.generation.sampling import Sampling, end_token_ids
            from explorer.ui.worker import build_bundle

            bundle = self.bundle if self.bundle is not None else build_bundle(self.source, cancel=self._cancel)
            options = GenerateOptions(
                max_new_tokens=self.max_new_tokens, sampling=Sampling(**self.sampling), use_cache=self.use_cache,
                stop_ids=end_token_ids(bundle.tokenizer),  # a real model stops at its end-of-text token
            )
            result = generate(bundle, self.text, self.options, options, cancel=self._cancel, on_step=self.stepped.emit)
        except ExplorerError as exc:
            self.failed.emit(str(exc))
        except MemoryError:
            self.failed.emit("out of memory: make the model or the text smaller")
        except Exception as exc:  # a bug: one line here, the details on stderr
            traceback.print_exc()
            self.failed.emit(f"internal error ({type(exc).__name__}: {exc}); please report it")
        else:
            self.succeeded.emit(result)
