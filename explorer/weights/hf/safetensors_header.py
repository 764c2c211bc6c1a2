"""A safetensors file's header schema, checked before the safetensors library maps the file: the header's
length within the file, each tensor's dtype one the format defines, its shape whole numbers, its bytes inside
the file and equal to its shape times its dtype's size. Each failure names the tensor and the field in one
ModelLoadError line (the library's own errors read as "invalid header" with no name)."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

from explorer.errors import ModelLoadError
from explorer.util.schema import Where, listing, mapping, text, whole

MAX_HEADER_BYTES = 100 * 1024**2  # the safetensors library's own limit
# Every dtype of the format, by its item size in bits (F4 and F6 pack several values in a byte).
DTYPE_BITS = {
    "BOOL": 8,
    "U8": 8,
    "I8": 8,
    "F8_E5M2": 8,
    "F8_E4M3": 8,
    "F8_E8M0": 8,
    "I16": 16,
    "U16": 16,
    "F16": 16,
    "BF16": 16,
    "I32": 32,
    "U32": 32,
    "F32": 32,
    "F64": 64,
    "I64": 64,
    "U64": 64,
    "C64": 64,
    "F4": 4,
    "F6_E2M3": 6,
    "F6_E3M2": 6,
}


def check_safetensors_header(path: Path) -> None:
    """The header of the safetensors file at ``path``, every entry checked; ModelLoadError naming the first
    wrong one."""
    where = Where(path.name, ModelLoadError)
    size = path.stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(8)
        if len(head) < 8:
            raise where.fail("the header's length is cut off (the file has fewer than 8 bytes)")
        (length,) = struct.unpack("<Q", head)
        if length > min(MAX_HEADER_BYTES, size - 8):
            raise where.fail(
                f"the header declares {length:,} bytes, more than the {max(size - 8, 0):,} the file has "
                f"(or the {MAX_HEADER_BYTES:,} a header may have)"
            )
        raw = fh.read(length)
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise where.fail("the header is not JSON (is the file complete?)") from None
    data = size - 8 - length
    for name, entry in mapping(header, "the header", where).items():
        if name != "__metadata__":
            _check_entry(text(name, "a tensor's name", where, 1000), entry, data, where)


def _check_entry(name: str, entry: Any, data: int, where: Where) -> None:
    field = f"tensor {name[:80]}"
    entry = mapping(entry, field, where)
    dtype = text(entry.get("dtype"), f"{field}.dtype", where, 20)
    if dtype not in DTYPE_BITS:
        raise where.fail(f"{field} has dtype {dtype!r}, which safetensors does not define")
    shape = listing(entry.get("shape"), f"{field}.shape", where, whole, 8)
    offsets = listing(entry.get("data_offsets"), f"{field}.data_offsets", where, whole, 2)
    if len(offsets) != 2 or not offsets[0] <= offsets[1] <= data:
        raise where.fail(f"{field}.data_offsets {offsets} do not lie inside the file's {data:,} bytes of data")
    count = 1
    for n in shape:
        count *= n
    if -(-count * DTYPE_BITS[dtype] // 8) != offsets[1] - offsets[0]:
        raise where.fail(
            f"{field} declares shape {tuple(shape)} of {dtype} but {offsets[1] - offsets[0]:,} bytes of data"
        )
