"""Persistent settings (window layout, last configuration, language, theme, recent files).

One JSON file, ``<config folder>/AttentionExplorer/attention-explorer.json``, read once through the schema of
explorer/ui/preferences/settings_schema.py and written by the project's safe writer (explorer/util/fileio.py). Why not
QSettings: it opened a FIFO in the file's place and waited forever, read /dev/zero without end, parsed any
value the file held, and wrote through a symbolic link with QSaveFile: as root, a settings file linked to
/dev/zero replaced /dev/zero itself with a 49-byte file.

- Reading: a regular file of at most MAX_FILE_BYTES (a link to one is followed), JSON in one line of error;
  each value checked, what does not fit dropped with a ``note:`` (logged), lists cut. A file that cannot be
  read at all is said once and the defaults are used; it is not replaced by anything but a good file.
- Writing: the whole file, batched (one write per event-loop turn, and at exit), merged with what another
  window wrote meanwhile, through atomic_write_bytes: a link to a file is replaced by the file, a link to a
  device or FIFO is never written (a note says the settings were not saved).
- The settings written by earlier versions (QSettings' ``attention-explorer.ini``) are read once when no JSON
  file exists yet, after the same checks on the file.
"""

from __future__ import annotations

import atexit
import base64
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QCoreApplication, QStandardPaths, QTimer

from explorer.errors import ExplorerError
from explorer.ui.preferences.settings_schema import BLOBS, MAX_RECENT, SCHEMA, checked
from explorer.util.fileio import atomic_write_bytes
from explorer.util.reading import parse_json, read_bytes

ORG = "AttentionExplorer"
APP = "attention-explorer"
MAX_FILE_BYTES = 4 * 1024**2  # the saved text is at most 200,000 characters; everything else is small
log = logging.getLogger(__name__)

__all__ = [
    "APP",
    "MAX_RECENT",
    "ORG",
    "add_recent",
    "add_recent_model",
    "file_path",
    "flush",
    "get",
    "get_json",
    "put",
    "put_json",
    "recent_files",
    "recent_models",
    "set_folder",
]


class SettingsError(ExplorerError):
    """The settings file cannot be read or written (said as a note: the app goes on with its defaults)."""


_folder_override: Path | None = None


def set_folder(folder: str | Path | None) -> None:
    """Keep the settings in ``folder`` (tests, benchmarks, a portable install); None: the user's own."""
    global _folder_override
    flush()
    _folder_override = Path(folder) if folder is not None else None


def file_path() -> Path:
    if _folder_override is not None:
        return _folder_override / ORG / f"{APP}.json"
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericConfigLocation)
    return Path(base or Path.home() / ".config") / ORG / f"{APP}.json"


class _Store:
    """The values of one settings file, as the schema left them, and the keys changed since the last write."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.values, notes = _load(path)
        for note in notes:
            log.warning("%s", note)
        self.changed: set[str] = set()
        self.scheduled = False

    def write(self) -> None:
        self.scheduled = False
        if not self.changed:
            return
        on_disk, _ = _load(self.path, quiet=True)  # another window's changes to other keys are kept
        merged = {**on_disk, **{k: self.values[k] for k in self.changed if k in self.values}}
        for key in self.changed - self.values.keys():
            merged.pop(key, None)
        data = {k: base64.b64encode(v).decode("ascii") if k in BLOBS else v for k, v in merged.items()}
        self.changed.clear()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # ASCII with escapes: a path or a text holding a byte that is not UTF-8 (a lone surrogate) is kept as
            # \udcff and read back as it was; UTF-8 could not encode it.
            atomic_write_bytes(
                self.path, (json.dumps(data, ensure_ascii=True, indent=1) + "\n").encode("ascii"), SettingsError
            )
        except (
            ExplorerError,
            OSError,
            ValueError,
        ) as exc:  # said, never raised: it runs from the event loop or at exit
            log.warning("the settings were not saved: %s", exc)


def _load(path: Path, quiet: bool = False) -> tuple[dict[str, Any], list[str]]:
    if not os.path.lexists(path):
        return _from_ini(path.with_suffix(".ini"))
    try:
        raw = parse_json(read_bytes(path, MAX_FILE_BYTES, SettingsError, "settings file"), SettingsError, str(path))
    except SettingsError as exc:
        return {}, ([] if quiet else [f"the settings file cannot be used ({exc}); starting from the defaults"])
    if not isinstance(raw, dict):
        return {}, (
            [] if quiet else [f"the settings file {path} does not hold a JSON object; starting from the defaults"]
        )
    values, notes = checked(raw)
    return values, ([] if quiet else notes)


def _from_ini(ini: Path) -> tuple[dict[str, Any], list[str]]:
    """The settings an earlier version kept with QSettings, checked like any others (read only after the file
    is known to be a small regular file: QSettings itself would wait on a FIFO)."""
    try:
        st = os.stat(ini)
    except OSError:
        return {}, []
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE_BYTES:
        return {}, []
    from PySide6.QtCore import QSettings

    qs = QSettings(str(ini), QSettings.Format.IniFormat)
    raw: dict[str, Any] = {}
    for key in SCHEMA:
        value = qs.value(key)
        if value is None:
            continue
        if key in BLOBS:
            raw[key] = base64.b64encode(bytes(value)).decode("ascii") if isinstance(value, QByteArray) else None
        elif key in ("language", "theme", "last_dir", "session/text"):
            raw[key] = value
        else:
            try:
                raw[key] = json.loads(value) if isinstance(value, str) else None
            except (ValueError, RecursionError):
                raw[key] = None
    return checked(raw)


_stores: dict[Path, _Store] = {}


def _store() -> _Store:
    path = file_path()
    store = _stores.get(path)
    if store is None:
        store = _stores[path] = _Store(path)
    return store


def flush() -> None:
    """Write every changed value now (at exit, and before the settings folder changes)."""
    for store in list(_stores.values()):
        store.write()


atexit.register(flush)


def _schedule(store: _Store) -> None:
    """One write per event-loop turn (closing the window puts five values); at once without a Qt loop."""
    if QCoreApplication.instance() is None:
        store.write()
    elif not store.scheduled:
        store.scheduled = True
        QTimer.singleShot(0, store.write)


# ------------------------------------------------------------------------------------------ the API


def get(key: str, default: Any = None) -> Any:
    value = _store().values.get(key)
    if value is None:
        return default
    return QByteArray(value) if key in BLOBS else value


def get_json(key: str, default: Any = None) -> Any:
    return get(key, default)


def put(key: str, value: Any) -> None:
    """Keep ``value`` under ``key`` if the schema takes it (the app's own values always fit)."""
    if isinstance(value, QByteArray):
        value = base64.b64encode(bytes(value)).decode("ascii")
    values, notes = checked({key: value})
    store = _store()
    if key not in values:
        log.warning("not saved: %s", "; ".join(notes))
        return
    store.values[key] = values[key]
    store.changed.add(key)
    _schedule(store)


def put_json(key: str, value: Any) -> None:
    put(key, value)


def recent_files() -> list[str]:
    return list(get("recent_files", []))


def add_recent(path: str) -> list[str]:
    files = ([path] + [p for p in recent_files() if p != path])[:MAX_RECENT]
    put("recent_files", files)
    return files


def recent_models() -> list[str]:
    """Models opened by path or name (checkpoint and Hugging Face folders, GGUF files, ``smollm2``)."""
    return list(get("recent_models", []))


def add_recent_model(path_or_name: str) -> list[str]:
    models = ([path_or_name] + [p for p in recent_models() if p != path_or_name])[:MAX_RECENT]
    put("recent_models", models)
    return models
