"""Persistent settings (window layout, last configuration, language, theme, recent files) via QSettings."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QSettings

ORG = "AttentionExplorer"
APP = "attention-explorer"
MAX_RECENT = 8


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORG, APP)


def get(key: str, default: Any = None) -> Any:
    value = settings().value(key, default)
    return default if value is None else value


def get_json(key: str, default: Any = None) -> Any:
    raw = settings().value(key)
    if not raw:
        return default
    try:
        return json.loads(raw)
    except (TypeError, ValueError):
        return default


def put(key: str, value: Any) -> None:
    settings().setValue(key, value)


def put_json(key: str, value: Any) -> None:
    settings().setValue(key, json.dumps(value))


def recent_files() -> list[str]:
    return [p for p in get_json("recent_files", []) if isinstance(p, str)]


def add_recent(path: str) -> list[str]:
    files = [path] + [p for p in recent_files() if p != path]
    put_json("recent_files", files[:MAX_RECENT])
    return files[:MAX_RECENT]


def recent_models() -> list[str]:
    """Models opened by path or name (checkpoint and Hugging Face folders, GGUF files, ``smollm2``)."""
    return [p for p in get_json("recent_models", []) if isinstance(p, str)]


def add_recent_model(path_or_name: str) -> list[str]:
    models = [path_or_name] + [p for p in recent_models() if p != path_or_name]
    put_json("recent_models", models[:MAX_RECENT])
    return models[:MAX_RECENT]
