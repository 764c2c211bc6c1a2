"""The documented tolerance of PyTorch's fused attention kernel against the reference (docs/performance.md):
a lazy trace computes each head's Rⁱ with F.scaled_dot_product_attention, in its own order of operations,
so everything from the first attention on equals an eager trace to rounding, not bit for bit.

The measure is the relative error of the whole tensor, ‖actual − expected‖₂ / ‖expected‖₂ (an element near 0
has no meaningful relative error of its own): at most 1e-6 in float32 and 1e-12 in float64. Entries that
are −∞ (masked scores) must be −∞ in both, and are left out of the norms.
"""

from __future__ import annotations

import numpy as np

FUSED_RTOL = {np.dtype(np.float32): 1e-6, np.dtype(np.float64): 1e-12}


def relative_error(actual, expected) -> float:
    a, e = np.asarray(actual, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert a.shape == e.shape, (a.shape, e.shape)
    ninf = np.isneginf(e)
    assert np.array_equal(np.isneginf(a), ninf), "−∞ (masked) cells differ"
    a, e = a[~ninf], e[~ninf]
    norm = np.linalg.norm(e)
    return float(np.linalg.norm(a - e) / norm) if norm > 0 else float(np.abs(a).max(initial=0.0))


def assert_fused_close(actual, expected, what: str = "") -> None:
    """``actual`` (a fused-path result) equals ``expected`` (the reference) within the documented tolerance."""
    actual = np.asarray(actual)
    if actual.dtype.kind not in "fc":
        assert np.array_equal(actual, expected), what
        return
    err = relative_error(actual, expected)
    assert err <= FUSED_RTOL[actual.dtype], f"{what}: relative error {err:.3g} > {FUSED_RTOL[actual.dtype]:g}"
