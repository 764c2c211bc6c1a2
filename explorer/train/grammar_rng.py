"""The random source of the tiny-en and tiny-ja grammars: only ``random.Random.random`` is called (its
stream is fixed across Python versions), so a sentence list depends only on its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence


class GrammarRng:
    """A thin wrapper over ``random.Random`` that only ever calls ``random()`` (stable across versions)."""

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def below(self, n: int) -> int:
        return min(int(self._r.random() * n), n - 1)

    def pick(self, seq: Sequence):
        return seq[self.below(len(seq))]

    def chance(self, p: float) -> bool:
        return self._r.random() < p

    def weighted(self, items: Sequence[tuple[float, object]]):
        total = sum(w for w, _ in items)
        x = self._r.random() * total
        for w, item in items:
            x -= w
            if x < 0:
                return item
        return items[-1][1]
