"""A trace's arrays, some of which are made only when first read.

A run in bfloat16 or float16 hands its parameters over as float32 arrays (numpy has no bfloat16; see
readable.py). Converting all of them up front doubles a half model's memory: a 1B-parameter model's 2.3 GB of
bfloat16 weights would gain 4.6 GB of float32 copies that most traces never read (a map, the Model view and
the next-token bars read activations only). ``Deferred`` holds what makes the array and what it will be
(shape, dtype), so a trace can list, size and describe it without making it; ``ArrayRecord`` is the
read-only mapping a Trace keeps, which makes a deferred array the first time it is read and keeps it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np


class Deferred:
    """An array made on first use by ``make()`` (read-only afterwards); its shape and dtype known before."""

    def __init__(
        self, make: Callable[[], np.ndarray], shape: tuple[int, ...], dtype: np.dtype, source: Any = None
    ) -> None:
        """``source``: what the array is made from, where a reader can use it as it is (a half run's parameter
        tensor: the derived logits multiply by it in its own dtype, explorer/trace/logits.py)."""
        self._make, self.shape, self.dtype, self.source = make, tuple(shape), np.dtype(dtype), source
        self._value: np.ndarray | None = None
        self._lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize

    @property
    def made(self) -> bool:
        return self._value is not None

    def value(self) -> np.ndarray:
        with self._lock:  # the worker and the GUI thread may both read a parameter first
            if self._value is None:
                a = np.asarray(self._make())
                if a.flags.writeable:
                    a = a.view()
                    a.flags.writeable = False
                self._value = a
            return self._value


class ArrayRecord(Mapping[str, np.ndarray]):
    """name → read-only array, in the order given; a Deferred entry is made when first read."""

    def __init__(self, entries: Mapping[str, np.ndarray | Deferred]) -> None:
        self._entries = dict(entries)

    def __getitem__(self, name: str) -> np.ndarray:
        entry = self._entries[name]
        return entry.value() if isinstance(entry, Deferred) else entry

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def entry(self, name: str) -> np.ndarray | Deferred:
        """The array, or what will make it: its shape, dtype and nbytes without making it."""
        return self._entries[name]

    def entries(self) -> Mapping[str, np.ndarray | Deferred]:
        return dict(self._entries)
