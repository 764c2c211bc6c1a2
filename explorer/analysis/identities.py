"""The note's identities with real numbers (DESIGN.md section 1, items 7 and 8).

* Multi-head: Σᵢ Rⁱ·W_oⁱ equals [R¹ … Rᴴ]·W_o (the concat form is just the sum written as one matmul).
* Low rank: W_v (E, E) ≈ W_v1 (E, r) · W_v2 (r, E), the best rank-r approximation by truncated SVD, and
  what it saves: E·E parameters become E·r + r·E (the note's E=100, r=10: 10,000 → 2,000, −80 %).

Weights are in the note's (in, out) orientation, as the trace stores them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from explorer import names


# ----------------------------------------------------------------------------------------- multi-head
def head_terms(heads: np.ndarray, W_o: np.ndarray) -> np.ndarray:
    """Rⁱ·W_oⁱ for every head: heads (H, C, D_v), W_o (H·D_v, E) → (H, C, E).

    Head i owns rows i·D_v … i·D_v+D_v−1 of W_o (the stacked [W_o¹; …; W_oᴴ])."""
    H, C, Dv = heads.shape
    if W_o.shape[0] != H * Dv:
        raise ValueError(f"W_o has {W_o.shape[0]} rows, expected H·D_v = {H}·{Dv}")
    W_per_head = W_o.reshape(H, Dv, W_o.shape[1])  # (H, D_v, E): W_oⁱ
    return np.matmul(heads, W_per_head)  # (H, C, D_v) · (H, D_v, E) → (H, C, E)


@dataclass(frozen=True)
class MultiheadIdentity:
    sum_form: np.ndarray  # (C, E): Σᵢ Rⁱ·W_oⁱ
    concat_form: np.ndarray  # (C, E): concat · W_o
    max_abs_difference: float
    tolerance: float  # rounding allowance of the dtype at this magnitude

    @property
    def equal(self) -> bool:
        return self.max_abs_difference <= self.tolerance


def multihead_identity(heads: np.ndarray, concat: np.ndarray, W_o: np.ndarray) -> MultiheadIdentity:
    """Both sides of the identity for one sentence, in the trace's own dtype (so the difference shown is
    the real rounding of float32 or float64, not of a recomputation in higher precision).

    heads (H, C, D_v) are the Rⁱ, concat (C, H·D_v) is [R¹ … Rᴴ], W_o (H·D_v, E)."""
    dtype = np.result_type(heads.dtype, W_o.dtype)
    terms = head_terms(heads.astype(dtype, copy=False), W_o.astype(dtype, copy=False))  # (H, C, E)
    sum_form = terms.sum(axis=0)  # (C, E)
    concat_form = concat.astype(dtype, copy=False) @ W_o.astype(dtype, copy=False)  # (C, H·D_v)·(H·D_v, E)
    diff = float(np.max(np.abs(sum_form - concat_form))) if sum_form.size else 0.0
    scale = float(np.max(np.abs(concat_form))) if concat_form.size else 0.0
    # Both forms add the same H·D_v products in a different order: the gap is a few ulps of the values.
    tolerance = 1e3 * float(np.finfo(dtype).eps) * (1.0 + scale)
    return MultiheadIdentity(sum_form, concat_form, diff, tolerance)


# ----------------------------------------------------------------------------------------- low rank
def value_matrix(W_v: np.ndarray, W_o: np.ndarray | None, H: int, H_kv: int, D_v: int) -> np.ndarray:
    """The value path as one (E, E) matrix.

    Unfactored model (no W_o): W_v itself. Factored model: Σᵢ W_vⁱ·W_oⁱ = W_v·W_o, with each key/value
    head's columns repeated for the H/H_kv query heads it serves (grouped-query attention)."""
    if W_o is None:
        return np.asarray(W_v)
    per_kv = W_v.reshape(W_v.shape[0], H_kv, D_v)  # (E, H_kv, D_v)
    reads = [names.kv_head_of(h, H, H_kv) for h in range(H)]  # the key/value head each query head reads
    repeated = per_kv[:, reads].reshape(W_v.shape[0], H * D_v)  # (E, H·D_v)
    return repeated @ W_o  # (E, H·D_v) · (H·D_v, E) → (E, E)


@dataclass(frozen=True)
class LowRank:
    """The SVD of a matrix M = U·diag(s)·Vᵀ, computed once; every rank r reads from it."""

    M: np.ndarray  # (m, n) the matrix, float64
    s: np.ndarray  # (k,) singular values, largest first

    @property
    def shape(self) -> tuple[int, int]:
        return self.M.shape  # type: ignore[return-value]

    @cached_property
    def _uv(self) -> tuple[np.ndarray, np.ndarray]:
        # The panel needs only the singular values (error and spectrum); the vectors are computed when a
        # factorisation is asked for: for a 768×768 W_v·W_o that is seconds saved on every new model.
        import torch  # LAPACK through torch's threads: several times faster than numpy's single-threaded one

        U, _, Vt = torch.linalg.svd(torch.from_numpy(self.M), full_matrices=False)
        return U.numpy(), Vt.numpy()

    @property
    def U(self) -> np.ndarray:
        return self._uv[0]

    @property
    def Vt(self) -> np.ndarray:
        return self._uv[1]

    @property
    def max_rank(self) -> int:
        return len(self.s)

    def _r(self, r: int) -> int:
        if r < 1:
            raise ValueError(f"rank must be at least 1, got {r}")
        return min(int(r), self.max_rank)

    def factors(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        """W_v1 (m, r) = U_r·diag(s_r) and W_v2 (r, n) = V_rᵀ: their product is the best rank-r M."""
        r = self._r(r)
        return self.U[:, :r] * self.s[:r], self.Vt[:r]

    def reconstruct(self, r: int) -> np.ndarray:
        W1, W2 = self.factors(r)
        return W1 @ W2

    def relative_error(self, r: int) -> float:
        """‖M − W_v1·W_v2‖_F / ‖M‖_F, from the singular values alone (Eckart–Young)."""
        r = self._r(r)
        total = float(np.sum(self.s**2))
        if total == 0.0:
            return 0.0
        return float(np.sqrt(np.sum(self.s[r:] ** 2) / total))

    def numerical_rank(self) -> int:
        """How many singular values are not rounding noise."""
        if not len(self.s) or self.s[0] == 0:
            return 0
        tol = self.s[0] * max(self.shape) * np.finfo(self.s.dtype).eps
        return int(np.sum(self.s > tol))


def low_rank(M: np.ndarray) -> LowRank:
    """Truncated-SVD factorisation of M, in float64 so the error shown is the truncation's, not rounding."""
    import torch  # loaded by then (a trace exists); numpy's single-threaded SVD of 768×768 took 2 s here

    M = np.ascontiguousarray(M, dtype=np.float64)
    return LowRank(M, torch.linalg.svdvals(torch.from_numpy(M)).numpy())


@dataclass(frozen=True)
class ParameterCounts:
    before: int  # m·n: the full matrix
    after: int  # m·r + r·n: the two factors

    @property
    def saving(self) -> float:
        """Fraction of the parameters saved (negative when the factors are larger than the matrix)."""
        return 1.0 - self.after / self.before if self.before else 0.0


def parameter_counts(rows: int, cols: int, r: int) -> ParameterCounts:
    """The note's count: E=100, r=10 → 10,000 before, 2,000 after, 80 % saved."""
    return ParameterCounts(rows * cols, rows * r + r * cols)


def fingerprint(weights: np.ndarray | None) -> tuple | None:
    """Which weights these are, cheaply, to key a cached result such as an SVD: each trace wraps the model's
    parameters in new array objects, so the object is no key; their memory and their sum are (the sum
    changes when training updates them in place)."""
    if weights is None:
        return None
    return (weights.shape, weights.__array_interface__["data"][0], float(weights.sum(dtype=np.float64)))
