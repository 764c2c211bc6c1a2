"""A GGUF file's header schema, walked before the ``gguf`` package reads it: every declared count and length
compared with the bytes the file has left, before anything is allocated for it.

The ``gguf`` reader trusts the counts: a 0.4 MB file declaring 2^40 entries in a numeric array ran for two
minutes and reached 7.5 GB, and a 1 MB SentencePiece token took 87 s to turn into merges. Here the header is
read with ``struct`` from a memory map, each value's type must be one GGUF defines, each string and array must
fit in what is left of the file, tokens and tensor names have the lengths real files use, and each tensor has
1 to 4 dimensions, a known type and its data inside the file. The first field that breaks a rule is named in
one ModelLoadError line.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path

from explorer.errors import ModelLoadError

MAX_KEY_BYTES = 1024  # metadata keys are dotted names ("llama.attention.head_count")
MAX_TOKEN_BYTES = 2048  # a vocabulary's longest tokens are runs of spaces or dashes, at most a few hundred bytes
MAX_NAME_BYTES = 64  # GGML_MAX_NAME
MAX_DIMS = 4  # GGML_MAX_DIMS
TOKEN_LISTS = {  # the lists of tokens, whose length bounds the tokenizer's work (merges are two tokens)
    "tokenizer.ggml.tokens": MAX_TOKEN_BYTES,
    "tokenizer.ggml.merges": 2 * MAX_TOKEN_BYTES + 1,
}

# GGUF value types: code → (name, struct format of one item); STRING (8) and ARRAY (9) are read apart.
_SCALARS = {
    0: ("uint8", "B"),
    1: ("int8", "b"),
    2: ("uint16", "H"),
    3: ("int16", "h"),
    4: ("uint32", "I"),
    5: ("int32", "i"),
    6: ("float32", "f"),
    7: ("bool", "?"),
    10: ("uint64", "Q"),
    11: ("int64", "q"),
    12: ("float64", "d"),
}
_STRING, _ARRAY = 8, 9


class _Walk:
    """A cursor over the mapped file that refuses any read past its end, naming the field being read."""

    def __init__(self, data: mmap.mmap, origin: str, order: str) -> None:
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
        raw = bytes(self.data[self.at : self.at + n])
        self.at += n
        return raw

    def skip(self, count: int, size: int, field: str) -> None:
        if count * size > self.left():
            raise self.fail(
                f"{field} declares {count:,} entries ({count * size:,} bytes), more than the {self.left():,} bytes "
                "left in the file"
            )
        self.at += count * size


def check_header(path: Path, origin: str) -> None:
    """Walk the whole header of the GGUF file at ``path`` (metadata and tensor infos) and check every tensor's
    data lies inside the file; ModelLoadError naming the first field that does not fit."""
    with open(path, "rb") as fh:
        if path.stat().st_size < 24:
            raise ModelLoadError(f"{origin}: the GGUF header is cut off (the file has {path.stat().st_size} bytes)")
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            _check(data, origin)


def _check(data: mmap.mmap, origin: str) -> None:
    (version,) = struct.unpack_from("<I", data, 4)
    order = ">" if version & 0xFFFF == 0 else "<"  # a big-endian file, as the gguf reader detects it
    walk = _Walk(data, origin, order)
    walk.at = 4
    version = walk.read("I", "the version")
    if version not in (2, 3):
        raise walk.fail(f"GGUF version {version} is not supported (2 and 3 are)")
    tensors = walk.read("Q", "the tensor count")
    kvs = walk.read("Q", "the metadata count")
    if kvs * 12 > walk.left():  # the smallest entry: a key length, a type and a one-byte value
        raise walk.fail(f"the header declares {kvs:,} metadata entries, more than the file can hold")
    alignment = 32
    for _ in range(kvs):
        key = _text(walk.string("a metadata key", MAX_KEY_BYTES, "metadata key"), walk, "a metadata key")
        kind = walk.read("I", f"metadata {key}'s type")
        value = _value(walk, key, kind)
        if key == "general.alignment":
            if kind != 4 or not value or value & (value - 1):
                raise walk.fail(f"metadata general.alignment must be a power of two (uint32), got {value!r}")
            alignment = value
    if tensors * 32 > walk.left():  # the smallest tensor info: a name, one dimension, a type, an offset
        raise walk.fail(f"the header declares {tensors:,} tensors, more than the file can hold")
    infos = [_tensor_info(walk) for _ in range(tensors)]
    start = -(-walk.at // alignment) * alignment
    for name, _kind, elements, nbytes, offset in infos:
        end = start + offset + nbytes
        if end > len(data):
            raise walk.fail(
                f"tensor {name} declares {elements:,} values ({nbytes:,} bytes) past the end of the file "
                "(is the file complete?)"
            )


def _text(raw: bytes, walk: _Walk, field: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise walk.fail(f"{field} is not UTF-8 text") from None


def _value(walk: _Walk, key: str, kind: int):
    field = f"metadata {key}"
    if kind in _SCALARS:
        return walk.read(_SCALARS[kind][1], field)
    if kind == _STRING:
        return walk.string(field)
    if kind != _ARRAY:
        raise walk.fail(f"{field} has value type {kind}, which GGUF does not define")
    item = walk.read("I", f"{field}'s item type")
    count = walk.read("Q", f"{field}'s length")
    if item in _SCALARS:
        walk.skip(count, struct.calcsize(_SCALARS[item][1]), field)
    elif item == _STRING:
        walk.skip(count, 8, field)  # each string has at least its 8-byte length
        walk.at -= count * 8
        most = TOKEN_LISTS.get(key)
        for i in range(count):
            walk.string(f"{field}[{i}]", most, "token")
    else:  # an array of arrays: no metadata this reader uses has one
        raise walk.fail(f"{field} is an array of value type {item}, which this reader does not take")
    return None


def _tensor_info(walk: _Walk) -> tuple[str, str, int, int, int]:
    from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

    name = _text(walk.string("a tensor's name", MAX_NAME_BYTES, "tensor name"), walk, "a tensor's name")
    dims = walk.read("I", f"tensor {name}'s dimension count")
    if not 1 <= dims <= MAX_DIMS:
        raise walk.fail(f"tensor {name} has {dims} dimensions (GGUF tensors have 1 to {MAX_DIMS})")
    shape = [walk.read("Q", f"tensor {name}'s shape") for _ in range(dims)]
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
    return name, kind.name, elements, elements // block * size, offset
