"""A GGUF file's header, read against its schema: every declared count and length compared with the bytes
the file has left before anything is allocated for it, then the metadata and the tensors' places returned.

The ``gguf`` package's reader trusts the counts and builds one numpy object per array entry: a 0.4 MB file
declaring 2^40 entries ran for two minutes and reached 7.5 GB, and a legal 4 MB array of a million numbers
took 20 s and 0.7 GB. Here the header is read with ``struct`` and ``numpy.frombuffer`` from a memory map:
each value's type must be one GGUF defines, each string and array must fit in what is left of the file and
in the limits real files keep (a vocabulary of at most 1,000,000 tokens of at most 2,048 bytes), each tensor
has 1 to 4 dimensions, a known type and its data inside the file. The first field that breaks a rule is
named in one ModelLoadError line. The ``gguf`` package still dequantises the tensors.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from explorer.errors import ModelLoadError
from explorer.util.printable import quoted

MAX_KEY_BYTES = 1024  # metadata keys are dotted names ("llama.attention.head_count")
MAX_TOKEN_BYTES = 2048  # a vocabulary's longest tokens are runs of spaces or dashes, at most a few hundred bytes
MAX_NAME_BYTES = 64  # GGML_MAX_NAME
MAX_DIMS = 4  # GGML_MAX_DIMS
MAX_ENTRIES = 1_000_000  # entries of one array: a vocabulary's tokens, scores or types (V ≤ 1,000,000)
TOKEN_LISTS = {  # the lists of tokens, whose length bounds the tokenizer's work (a merge is two tokens)
    "tokenizer.ggml.tokens": MAX_TOKEN_BYTES,
    "tokenizer.ggml.merges": 2 * MAX_TOKEN_BYTES + 1,
}

# GGUF value types: code → numpy item type; STRING (8) and ARRAY (9) are read apart.
_SCALARS = {0: "u1", 1: "i1", 2: "u2", 3: "i2", 4: "u4", 5: "i4", 6: "f4", 7: "?", 10: "u8", 11: "i8", 12: "f8"}
_STRING, _ARRAY = 8, 9
_UNREADABLE = object()  # a string value that is not UTF-8: the key is left out, as the gguf reader's users did


class TensorInfo(NamedTuple):
    """One tensor as the ``gguf`` reader describes it: ``shape`` in ggml order (in, out), ``data`` the mapped
    bytes in the layout ``gguf.quants.dequantize`` takes."""

    name: str
    tensor_type: Any  # gguf.GGMLQuantizationType
    shape: tuple[int, ...]
    data: np.ndarray


class _Walk:
    """A cursor over the mapped file that refuses any read past its end, naming the field being read."""

    def __init__(self, data: np.ndarray, origin: str, order: str) -> None:
        self.data, self.origin, self.order, self.at = data, origin, order, 0

    def fail(self, message: str) -> ModelLoadError:
        return ModelLoadError(f"{self.origin}: {message}")

    def left(self) -> int:
        return len(self.data) - self.at

    def read(self, fmt: str, field: str):
        size = struct.calcsize(fmt)
        if size > self.left():
            raise self.fail(f"{field} is cut off: the file ends inside it (is the file complete?)")
        value = struct.unpack_from(self.order + fmt, self.data, self.at)[0]
        self.at += size
        return value

    def string(self, field: str, most: int | None = None, what: str = "") -> bytes:
        """A string's bytes: its declared length within the file, and within ``most`` (a ``what``'s limit)."""
        n = self.read("Q", field)
        if n > self.left():
            raise self.fail(f"{field} declares {n:,} bytes, more than the {self.left():,} left in the file")
        if most is not None and n > most:
            raise self.fail(f"{field} is {n:,} bytes long; a {what} has at most {most:,}")
        raw = self.data[self.at : self.at + n].tobytes()
        self.at += n
        return raw

    def numbers(self, code: int, count: int, field: str) -> list:
        """``count`` numbers of GGUF type ``code``, read at once."""
        dtype = np.dtype(_SCALARS[code]).newbyteorder(self.order)
        if count * dtype.itemsize > self.left():
            raise self.fail(
                f"{field} declares {count:,} entries ({count * dtype.itemsize:,} bytes), more than the "
                f"{self.left():,} bytes left in the file"
            )
        values = np.frombuffer(self.data, dtype, count, self.at)
        self.at += count * dtype.itemsize
        return values.tolist()


def read_header(path: Path, origin: str) -> tuple[dict[str, Any], dict[str, TensorInfo]]:
    """(metadata, tensors by name) of the GGUF file at ``path``, every declared count, length and tensor
    checked against the file; ModelLoadError naming the first field that does not fit."""
    size = path.stat().st_size
    if size < 24:
        raise ModelLoadError(f"{origin}: the GGUF header is cut off (the file has {size} bytes)")
    data = np.memmap(path, dtype=np.uint8, mode="r")
    (version,) = struct.unpack_from("<I", data, 4)
    walk = _Walk(data, origin, ">" if version & 0xFFFF == 0 else "<")  # big-endian, as the gguf reader detects it
    walk.at = 4
    version = walk.read("I", "the version")
    if version not in (2, 3):
        raise walk.fail(f"GGUF version {version} is not supported (2 and 3 are)")
    tensors = walk.read("Q", "the tensor count")
    meta = _metadata(walk, walk.read("Q", "the metadata count"))
    alignment = meta.get("general.alignment", 32)
    if not isinstance(alignment, int) or isinstance(alignment, bool) or alignment < 1 or alignment & (alignment - 1):
        raise walk.fail(f"metadata general.alignment must be a power of two, got {quoted(alignment, 40)}")
    if tensors * 32 > walk.left():  # the smallest tensor info: a name, one dimension, a type, an offset
        raise walk.fail(f"the header declares {tensors:,} tensors, more than the file can hold")
    infos = [_tensor_info(walk) for _ in range(tensors)]
    start = -(-walk.at // alignment) * alignment
    out: dict[str, TensorInfo] = {}
    for name, shape, kind, nbytes, offset in infos:
        if name in out:
            raise walk.fail(f"tensor {name} appears twice")
        if start + offset + nbytes > size:
            raise walk.fail(
                f"tensor {name} declares {shape} ({nbytes:,} bytes) past the end of the file (is the file complete?)"
            )
        out[name] = TensorInfo(name, kind, shape, _tensor_data(walk, start + offset, shape, kind, nbytes))
    return meta, out


def _metadata(walk: _Walk, count: int) -> dict[str, Any]:
    if count * 12 > walk.left():  # the smallest entry: a key length, a type and a one-byte value
        raise walk.fail(f"the header declares {count:,} metadata entries, more than the file can hold")
    meta: dict[str, Any] = {}
    for _ in range(count):
        key = _text(walk.string("a metadata key", MAX_KEY_BYTES, "metadata key"), walk, "a metadata key")
        if key in meta:
            raise walk.fail(f"metadata {key} appears twice")
        value = _value(walk, key, walk.read("I", f"metadata {key}'s type"))
        if value is not _UNREADABLE:
            meta[key] = value
    return meta


def _text(raw: bytes, walk: _Walk, field: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise walk.fail(f"{field} is not UTF-8 text") from None


def _value(walk: _Walk, key: str, kind: int) -> Any:
    field = f"metadata {key}"
    if kind in _SCALARS:
        return walk.numbers(kind, 1, field)[0]
    if kind == _STRING:
        try:
            return walk.string(field).decode("utf-8")
        except UnicodeDecodeError:
            return _UNREADABLE
    if kind != _ARRAY:
        raise walk.fail(f"{field} has value type {kind}, which GGUF does not define")
    item = walk.read("I", f"{field}'s item type")
    count = walk.read("Q", f"{field}'s length")
    if item not in _SCALARS and item != _STRING:  # an array of arrays: no metadata this reader uses has one
        raise walk.fail(f"{field} is an array of value type {item}, which this reader does not take")
    if count > MAX_ENTRIES:
        raise walk.fail(f"{field} declares {count:,} entries; an array has at most {MAX_ENTRIES:,}")
    if item in _SCALARS:
        return walk.numbers(item, count, field)
    if count * 8 > walk.left():  # each string has at least its 8-byte length
        raise walk.fail(f"{field} declares {count:,} strings, more than the {walk.left():,} bytes left in the file")
    most = TOKEN_LISTS.get(key)
    raw = [walk.string(f"{field}[{i}]", most, "token") for i in range(count)]
    try:
        return [r.decode("utf-8") for r in raw]
    except UnicodeDecodeError:
        return _UNREADABLE


def _tensor_info(walk: _Walk) -> tuple[str, tuple[int, ...], Any, int, int]:
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    name = _text(walk.string("a tensor's name", MAX_NAME_BYTES, "tensor name"), walk, "a tensor's name")
    dims = walk.read("I", f"tensor {name}'s dimension count")
    if not 1 <= dims <= MAX_DIMS:
        raise walk.fail(f"tensor {name} has {dims} dimensions (GGUF tensors have 1 to {MAX_DIMS})")
    shape = tuple(walk.read("Q", f"tensor {name}'s shape") for _ in range(dims))
    code = walk.read("I", f"tensor {name}'s type")
    offset = walk.read("Q", f"tensor {name}'s offset")
    try:
        kind = GGMLQuantizationType(code)
        block, size = GGML_QUANT_SIZES[kind]
    except (ValueError, KeyError):
        raise walk.fail(f"tensor {name} has type {code}, which this version of GGUF does not define") from None
    elements = 1
    for n in shape:
        if not 1 <= n < 2**40:
            raise walk.fail(f"tensor {name} has a dimension of {n:,}")
        elements *= n
    if shape[0] % block:
        raise walk.fail(f"tensor {name}'s rows of {shape[0]} values do not fill {kind.name}'s blocks of {block}")
    return name, shape, kind, elements // block * size, offset


def _tensor_data(walk: _Walk, at: int, shape: tuple[int, ...], kind: Any, nbytes: int) -> np.ndarray:
    """The tensor's mapped bytes as the gguf reader gives them: typed for F16, F32, F64 and the integers (in the
    file's byte order), bytes per row for the quantised types."""
    from gguf.quants import quant_shape_to_byte_shape

    typed = {"F16": np.float16, "F32": np.float32, "F64": np.float64, "I8": np.int8, "I16": np.int16}
    typed |= {"I32": np.int32, "I64": np.int64}
    dims = tuple(reversed(shape))
    raw = walk.data[at : at + nbytes]
    if kind.name in typed:
        return raw.view(np.dtype(typed[kind.name]).newbyteorder(walk.order)).reshape(dims)
    return raw.reshape(quant_shape_to_byte_shape(dims, kind))
