"""What the settings file may hold: one check per key. A value that does not fit is dropped with a note and
the app goes on with its default; a list is cut to its length (issue 26).

The file is the user's and anything can be in it: ``recent_files=5``, ``null``, JSON nested 100,000 deep, a
theme ``evil``, session sizes ``"xyz"`` (a traceback, then SIGSEGV), a window geometry no window can take,
100,000 recent entries (the menu took 20 s to open). Each check returns the value as the app uses it or
raises ``Unusable`` with the reason the note gives.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import math
from collections.abc import Callable
from typing import Any

from explorer import vocab
from explorer.config import MAX_TEXT_CHARS, ModelConfig
from explorer.errors import ConfigError
from explorer.weights.presets import PRESETS, preset_config

MAX_RECENT = 8  # entries of each recent list (the menus show them all)
MAX_PATH = 4096  # characters of a path kept (PATH_MAX)
MAX_GEOMETRY_BYTES = 4096  # QWidget.saveGeometry: 66 bytes
MAX_STATE_BYTES = 256 * 1024  # QMainWindow.saveState: a few kB
MAX_OPTION_KEYS = 64
TEXT_SCALES = (vocab.TEXT_SCALES[0], vocab.TEXT_SCALES[-1])  # View → Text size's range (its steps' ends)
_SIZE_FIELDS = {f.name: f for f in dataclasses.fields(ModelConfig) if f.name not in ("vocab_size", "family")}


class Unusable(ValueError):
    """A setting's value that the app cannot use: the message says why."""


def _text(value: Any, limit: int, what: str = "text") -> str:
    if not isinstance(value, str):
        raise Unusable(f"expected {what}, got {type(value).__name__}")
    if "\x00" in value:
        raise Unusable(f"{what} with a NUL character")
    if len(value) > limit:
        raise Unusable(f"{what} of {len(value):,} characters (at most {limit:,})")
    return value


def choice(options: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options or not isinstance(value, str):
            raise Unusable(f"one of {', '.join(options)} expected")
        return value

    return check


def path(value: Any) -> str:
    return _text(value, MAX_PATH, "a path")


def session_text(value: Any) -> str:
    """The text of the last session, cut where a trace cuts it."""
    if isinstance(value, str):
        value = value[:MAX_TEXT_CHARS]
    return _text(value, MAX_TEXT_CHARS)


def recent(value: Any) -> list[str]:
    """A recent list: text entries only, at most MAX_RECENT of them (the rest dropped)."""
    if not isinstance(value, list):
        raise Unusable(f"expected a list, got {type(value).__name__}")
    kept = [v for v in value[: MAX_RECENT * 4] if isinstance(v, str) and v and "\x00" not in v and len(v) <= MAX_PATH]
    return list(dict.fromkeys(kept))[:MAX_RECENT]


def blob(limit: int) -> Callable[[Any], bytes]:
    """Bytes Qt saved (window geometry, dock layout), stored as base64 text."""

    def check(value: Any) -> bytes:
        if not isinstance(value, str) or len(value) > limit * 4 // 3 + 8:
            raise Unusable(f"expected base64 text of at most {limit:,} bytes")
        try:
            data = base64.b64decode(value.encode("ascii"), validate=True)
        except (binascii.Error, ValueError, UnicodeEncodeError):
            raise Unusable("not base64 text") from None
        if not data:
            raise Unusable("empty")
        return data

    return check


def _size(name: str, value: Any) -> Any:
    field = _SIZE_FIELDS.get(name) if isinstance(name, str) else None
    if field is None:
        raise Unusable(f"unknown size {str(name)[:40]!r}")
    kind = str(field.type)
    if "bool" in kind:
        ok, what = isinstance(value, bool), "true or false"
    elif "int" in kind:
        ok, what = isinstance(value, int) and not isinstance(value, bool), "a whole number"
    elif "float" in kind:
        ok, what = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value), "a number"
    else:
        ok, what = isinstance(value, str) and len(value) <= 40, "a short text"
    if not ok:
        raise Unusable(f"size {name} = {str(value)[:40]!r} is not {what}")
    return value


def source(value: Any) -> dict[str, Any]:
    """The model the session had: a preset with sizes that build a model, or a path or name."""
    if not isinstance(value, dict):
        raise Unusable(f"expected an object, got {type(value).__name__}")
    kind, name = value.get("kind"), value.get("name")
    if kind not in ("preset", "path") or not isinstance(name, str):
        raise Unusable("kind must be preset or path, with a name")
    sizes = value.get("sizes", [])
    pairs_ok = (
        all(isinstance(p, (list, tuple)) and len(p) == 2 for p in sizes) if isinstance(sizes, (list, tuple)) else False
    )
    if not pairs_ok or len(sizes) > len(_SIZE_FIELDS):
        raise Unusable("sizes must be a list of [name, value] pairs")
    pairs = [(k, _size(k, v)) for k, v in sizes]
    seed = value.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
        raise Unusable("the seed must be a whole number from 0 to 2⁶³ − 1")
    random_weights = value.get("random_weights", False)
    if not isinstance(random_weights, bool):
        raise Unusable("random_weights must be true or false")
    if kind == "preset":
        if name not in PRESETS:
            raise Unusable(f"no preset {name[:40]!r}")
        try:
            preset_config(name, **dict(pairs))  # the sizes build a model (the window would otherwise fail on them)
        except (ConfigError, TypeError, ValueError) as exc:
            raise Unusable(str(exc).splitlines()[0][:120]) from None
    else:
        path(name)
        if pairs:
            raise Unusable("a model opened from a file has its own sizes")
    return {
        "kind": kind,
        "name": name,
        "sizes": [list(p) for p in pairs],
        "seed": seed,
        "random_weights": random_weights,
    }


def text_scale(value: Any) -> float:
    """View → Text size: a finite number within the range the menu offers."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise Unusable("a number expected")
    if not TEXT_SCALES[0] <= value <= TEXT_SCALES[1]:
        raise Unusable(f"a text size from {TEXT_SCALES[0]:g} to {TEXT_SCALES[1]:g} expected")
    return float(value)


def options(value: Any) -> dict[str, Any]:
    """The run options (RunOptions.from_dict checks their values when the session is restored)."""
    if not isinstance(value, dict) or len(value) > MAX_OPTION_KEYS or not all(isinstance(k, str) for k in value):
        raise Unusable("expected an object of run options")
    return value


SCHEMA: dict[str, Callable[[Any], Any]] = {
    "language": choice(vocab.LANGUAGES),
    "theme": choice(vocab.THEMES),
    "palette": choice(vocab.PALETTES),
    "text_scale": text_scale,
    "last_dir": path,
    "recent_files": recent,
    "recent_models": recent,
    "lessons/recent": recent,
    "session/text": session_text,
    "session/source": source,
    "session/options": options,
    "window/geometry": blob(MAX_GEOMETRY_BYTES),
    "window/state": blob(MAX_STATE_BYTES),
}
BLOBS = ("window/geometry", "window/state")  # handed to Qt as QByteArray


def checked(raw: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """(the values the app can use, one note per value dropped or cut)."""
    values, notes = {}, []
    for key, value in raw.items():
        check = SCHEMA.get(key) if isinstance(key, str) else None
        if check is None:
            notes.append(f"unknown setting {str(key)[:60]!r} ignored")
            continue
        try:
            values[key] = check(value)
        except Unusable as exc:
            notes.append(f"the setting {key} was dropped ({exc})")
            continue
        if key in ("recent_files", "recent_models", "lessons/recent") and len(values[key]) < len(value):
            notes.append(
                f"the setting {key} had {len(value):,} entries; the first {len(values[key])} usable ones are kept"
            )
    return values, notes
