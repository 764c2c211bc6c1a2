"""Shared test setup. Qt runs offscreen everywhere (set before any Qt import)."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as explorer/__init__ does, before numpy loads

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
