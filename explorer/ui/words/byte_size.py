"""A size in bytes as a person reads it ("1.5 MiB"): the status bar, the Model panel and the Parameters panel say
memory the same way. Its own module so that a panel need not import the window's status bar for it."""

from __future__ import annotations


def human_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GiB"
