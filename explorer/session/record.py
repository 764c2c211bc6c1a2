"""The Session's actions and effects (actions.py, effects.py): one small frozen record per kind.

A ``Record`` is compared and hashed by its fields, shows them in its repr, takes them by position or by
name, and cannot be changed: what a frozen dataclass gives, defined by msgspec's ``Struct`` in C. The 70
kinds took 29 ms of every start as frozen dataclasses (each generated and compiled six methods) and 1 ms as
Structs (benchmarks/bench_start.py). The states (records.py) stay dataclasses: ``dataclasses.replace`` makes
each new one.
"""

from __future__ import annotations

import msgspec


class Record(msgspec.Struct, frozen=True):
    """A frozen record: equal to another of its kind with equal fields, hashable, never changed."""
