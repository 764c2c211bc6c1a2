"""Which compute devices exist here, and what to do when the requested one does not."""

from __future__ import annotations

import re

from explorer.errors import ConfigError

_DEVICE_RE = re.compile(r"^(cpu|mps|cuda)(?::(\d+))?$")


def available_devices() -> list[str]:
    """Devices present on this machine, CPU first: cpu, cuda:0 … cuda:N−1, mps."""
    import torch  # here, not at the top: the window is built before torch is loaded

    found = ["cpu"]
    if torch.cuda.is_available():
        found += [f"cuda:{i}" for i in range(torch.cuda.device_count())]
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        found.append("mps")
    return found


def resolve_device(requested: str | None) -> tuple[str, str | None]:
    """(device to use, notice or None). An absent device falls back to the CPU with a notice."""
    name = (requested or "cpu").strip().lower()
    m = _DEVICE_RE.match(name)
    if not m:
        raise ConfigError(f"unknown device {requested!r}: use cpu, cuda, cuda:N or mps")
    if m.group(1) == "cuda" and m.group(2) is None:
        name = "cuda:0"
    if m.group(1) == "cpu" and m.group(2) is not None:
        name = "cpu"
    present = available_devices()
    if name in present:
        return name, None
    return "cpu", f"device {requested} is not available here (present: {', '.join(present)}); using cpu"
