"""Checks for values read from files (a snapshot's manifest, a config.json, GGUF metadata): each returns the
value in the type the code needs, or raises the caller's error class with a one-line message naming the field.

Every reader declares its fields once, as a table of these checks (see export/snapshot_schema.py,
families/hf_fields.py and weights/gguf/config.py), so that a value of the wrong type or range is refused where
it is read instead of surfacing later as a ZeroDivisionError or a NaN probability.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.errors import ExplorerError

LARGEST = 2**31 - 1  # no size, count or index in a file may be larger


def _show(value: Any) -> str:
    try:
        text = repr(value)
    except ValueError:  # an integer of more than 4300 digits
        return "a number too long to show"
    return text if len(text) <= 40 else text[:37] + "…"


@dataclass(frozen=True)
class Where:
    """The file and the error class a reader reports with."""

    origin: str
    error: type[ExplorerError]

    def fail(self, message: str) -> ExplorerError:
        return self.error(f"{self.origin}: {message}")


def whole(value: Any, field: str, where: Where, lo: int = 0, hi: int = LARGEST) -> int:
    """An integer (a float with no fractional part is accepted, as files written by JSON tools hold 2.0)."""
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise where.fail(f"{field} must be a whole number, got {_show(value)}")
    if not isinstance(value, numbers.Integral):
        if not (math.isfinite(value) and float(value).is_integer()):
            raise where.fail(f"{field} must be a whole number, got {_show(value)}")
    value = int(value)
    if not lo <= value <= hi:
        raise where.fail(f"{field} must lie between {lo} and {hi}, got {_show(value)}")
    return value


def number(value: Any, field: str, where: Where, positive: bool = False, hi: float = math.inf) -> float:
    """A finite real number (NaN and infinities refused), positive when asked."""
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise where.fail(f"{field} must be a number, got {_show(value)}")
    try:
        x = float(value)
    except OverflowError:
        raise where.fail(f"{field} is too large, got {_show(value)}") from None
    if not math.isfinite(x):
        raise where.fail(f"{field} must be a finite number, got {_show(value)}")
    if positive and not x > 0:
        raise where.fail(f"{field} must be positive, got {_show(value)}")
    if x > hi:
        raise where.fail(f"{field} must be at most {hi:g}, got {_show(value)}")
    return x


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's bool is no bool subclass


def flag(value: Any, field: str, where: Where) -> bool:
    if not _is_bool(value):
        raise where.fail(f"{field} must be true or false, got {_show(value)}")
    return bool(value)


def text(value: Any, field: str, where: Where, max_len: int = 1_000_000) -> str:
    if not isinstance(value, str):
        raise where.fail(f"{field} must be text, got {_show(value)}")
    if len(value) > max_len:
        raise where.fail(f"{field} is longer than {max_len:,} characters")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800") that JSON allows and no terminal can print
        raise where.fail(f"{field} is not valid Unicode text (it holds a lone surrogate)") from None
    return value


def listing(
    value: Any, field: str, where: Where, item: Callable[[Any, str, Where], Any], max_len: int = 10_000_000
) -> list:
    if not isinstance(value, list):
        raise where.fail(f"{field} must be a list, got {_show(value)}")
    if len(value) > max_len:
        raise where.fail(f"{field} has more than {max_len:,} entries")
    return [item(v, f"{field}[{i}]", where) for i, v in enumerate(value)]


def mapping(value: Any, field: str, where: Where) -> dict:
    if not isinstance(value, dict):
        raise where.fail(f"{field} must be an object, got {_show(value)}")
    return value


def valid_unicode(value: Any, field: str, where: Where) -> None:
    """Every key and string anywhere in a parsed JSON value is valid Unicode (JSON allows lone surrogates,
    "\\ud800", which no terminal or file can print: `info` printing an unknown field crashed on one)."""
    stack = [value]
    while stack:  # no recursion: the JSON may be as deep as the parser allowed
        v = stack.pop()
        if isinstance(v, str):
            text(v, field, where, max_len=1 << 30)
        elif isinstance(v, dict):
            for k, item in v.items():
                text(k, f"a key of {field}", where, max_len=1 << 30)
                stack.append(item)
        elif isinstance(v, list):
            stack.extend(v)


def optional(check: Callable[..., Any]) -> Callable[..., Any]:
    """``check`` that lets None through."""

    def run(value: Any, field: str, where: Where, *args: Any, **kwargs: Any) -> Any:
        return None if value is None else check(value, field, where, *args, **kwargs)

    return run


# The config's fields by type; every one is checked before ModelConfig sees it (it checks the ranges).
def model_config(value: Any, where: Where, field: str = "config"):
    from explorer.config import ModelConfig
    from explorer.errors import ConfigError

    data = mapping(value, field, where)
    checked: dict[str, Any] = {}
    for f in dataclasses.fields(ModelConfig):
        if f.name not in data:
            continue
        v, name = data[f.name], f"{field}.{f.name}"
        kind = str(f.type)
        if kind.startswith("int"):
            checked[f.name] = (optional(whole) if "None" in kind else whole)(v, name, where)
        elif kind == "float":
            checked[f.name] = number(v, name, where, positive=True)
        elif kind == "float | None":
            checked[f.name] = optional(number)(v, name, where, positive=True)
        elif kind.startswith("tuple[int"):
            checked[f.name] = tuple(listing(v, name, where, whole, 4096))
        elif kind == "bool":
            checked[f.name] = flag(v, name, where)
        elif kind == "RopeScaling | None":  # an object, its fields checked by RopeScaling (a ConfigError below)
            checked[f.name] = optional(mapping)(v, name, where)
        else:
            checked[f.name] = text(v, name, where, 64)
    if "vocab_size" not in checked:
        raise where.fail(f"{field}.vocab_size is missing")
    try:
        return ModelConfig.from_dict(checked)
    except ConfigError as exc:
        raise where.fail(f"invalid model config ({exc})") from None
