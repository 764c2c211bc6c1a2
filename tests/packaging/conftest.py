"""Fixtures of the packaging tests (the helpers live in packaging_helpers.py)."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def clean_env(tmp_path):
    """An environment for running an installed app: no checkout on the path, a private home and config."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ATTENTION_EXPLORER_RESOURCES", "VIRTUAL_ENV")
    }
    home = tmp_path / "home"
    home.mkdir()
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        QT_QPA_PLATFORM="offscreen",
    )
    return env
