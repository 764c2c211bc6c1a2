"""How a colour looks to a student with a colour-vision deficiency, and how far apart two colours look.

Numpy only, no Qt. Used by the palette checks (tests/core/test_palettes_cvd.py) and available to anything
that wants to preview a figure as a colour-blind reader sees it.

- Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color
  Vision Deficiency", IEEE TVCG 15(6). The matrices are the paper's published severity-1.0 (dichromat)
  matrices for protanopia, deuteranopia and tritanopia, applied to *linear* sRGB, then clipped.
- Colour differences: CIELAB (D65 white, the sRGB primaries), CIE76 (Euclidean ΔE*ab) and CIEDE2000
  (Sharma, Wu & Dalal 2005, "The CIEDE2000 color-difference formula: implementation notes").
"""

from __future__ import annotations

import numpy as np

# Machado et al. 2009, Table of simulation matrices, severity 1.0 (row-major, acting on linear RGB columns).
MACHADO_2009: dict[str, np.ndarray] = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
DEFICIENCIES = tuple(MACHADO_2009)

# sRGB (IEC 61966-2-1) linear RGB → CIE XYZ, D65; and the D65 reference white.
_RGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_WHITE = _RGB_TO_XYZ.sum(axis=1)  # (0.95047, 1.0, 1.08883)


def srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB values in [0, 1] (…, 3) → linear light."""
    c = np.asarray(rgb, dtype=np.float64)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(lin: np.ndarray) -> np.ndarray:
    c = np.clip(np.asarray(lin, dtype=np.float64), 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(rgb: np.ndarray, deficiency: str) -> np.ndarray:
    """sRGB colours in [0, 1] (…, 3) as a dichromat of ``deficiency`` sees them (sRGB in [0, 1])."""
    matrix = MACHADO_2009[deficiency]
    lin = srgb_to_linear(rgb)
    return linear_to_srgb(lin @ matrix.T)


def srgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB in [0, 1] (…, 3) → CIELAB (L*, a*, b*) under D65."""
    xyz = srgb_to_linear(rgb) @ _RGB_TO_XYZ.T / _WHITE
    eps, kappa = 216 / 24389, 24389 / 27
    f = np.where(xyz > eps, np.cbrt(xyz), (kappa * xyz + 16) / 116)
    L = 116 * f[..., 1] - 16
    a = 500 * (f[..., 0] - f[..., 1])
    b = 200 * (f[..., 1] - f[..., 2])
    return np.stack([L, a, b], axis=-1)


def delta_e76(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIE76: the Euclidean distance in CIELAB."""
    return np.linalg.norm(np.asarray(lab1, dtype=np.float64) - np.asarray(lab2, dtype=np.float64), axis=-1)


def delta_e2000(lab1: np.ndarray, lab2: np.ndarray) -> np.ndarray:
    """CIEDE2000 (kL = kC = kH = 1), following Sharma et al. 2005 step by step."""
    L1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=np.float64), -1, 0)
    L2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=np.float64), -1, 0)
    C_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    G = 0.5 * (1 - np.sqrt(C_bar**7 / (C_bar**7 + 25.0**7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(C1p * C2p == 0, 0.0, dh)
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh) / 2)
    Lp_bar, Cp_bar = (L1 + L2) / 2, (C1p + C2p) / 2
    h_sum = h1p + h2p
    hp_bar = np.where(np.abs(h1p - h2p) > 180, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2), h_sum / 2)
    hp_bar = np.where(C1p * C2p == 0, h_sum, hp_bar)
    T = (
        1
        - 0.17 * np.cos(np.radians(hp_bar - 30))
        + 0.24 * np.cos(np.radians(2 * hp_bar))
        + 0.32 * np.cos(np.radians(3 * hp_bar + 6))
        - 0.20 * np.cos(np.radians(4 * hp_bar - 63))
    )
    d_theta = 30 * np.exp(-(((hp_bar - 275) / 25) ** 2))
    R_C = 2 * np.sqrt(Cp_bar**7 / (Cp_bar**7 + 25.0**7))
    S_L = 1 + 0.015 * (Lp_bar - 50) ** 2 / np.sqrt(20 + (Lp_bar - 50) ** 2)
    S_C = 1 + 0.045 * Cp_bar
    S_H = 1 + 0.015 * Cp_bar * T
    R_T = -np.sin(np.radians(2 * d_theta)) * R_C
    return np.sqrt((dLp / S_L) ** 2 + (dCp / S_C) ** 2 + (dHp / S_H) ** 2 + R_T * (dCp / S_C) * (dHp / S_H))
