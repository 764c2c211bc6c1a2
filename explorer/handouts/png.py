"""A PNG file from an RGB array in pure Python (zlib), for the pictures an SVG carries inline."""

from __future__ import annotations

import struct
import zlib

import numpy as np


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(pixels: np.ndarray) -> bytes:
    """(rows, cols, 3) uint8 → the bytes of a PNG file (8-bit RGB, no interlace)."""
    pixels = np.ascontiguousarray(pixels, dtype=np.uint8)
    h, w, _ = pixels.shape
    raw = np.zeros((h, w * 3 + 1), dtype=np.uint8)  # each row starts with filter type 0 (none)
    raw[:, 1:] = pixels.reshape(h, w * 3)
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw.tobytes(), 6))
        + _chunk(b"IEND", b"")
    )


def upscaled(pixels: np.ndarray, factor: int) -> np.ndarray:
    """Each pixel as a factor × factor block: a renderer that smooths a picture it scales can only blur the
    outermost pixel of each cell, and cells stay sharp even where nearest-neighbour is not honoured."""
    if factor <= 1:
        return pixels
    return np.repeat(np.repeat(pixels, factor, axis=0), factor, axis=1)


def crisp_factor(cells: int, drawn_px: float, most: int = 2048) -> int:
    """How many pixels per cell a picture of ``cells`` cells a side needs to stay sharp when drawn
    ``drawn_px`` pixels wide (at most ``most`` pixels a side)."""
    want = max(1, int(round(drawn_px * 2 / max(cells, 1))))  # two picture pixels per drawn pixel at 96 dpi
    return max(1, min(want, most // max(cells, 1)))
