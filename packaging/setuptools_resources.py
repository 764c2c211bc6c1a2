"""setuptools hook: install the top-level ``resources/`` folder as the package data ``explorer/resources``.

``resources/`` stays the single source of the shipped data (corpora, tokenizers, presets, translations, icons):
a checkout reads it in place (explorer/util/paths.py), and ``pyproject.toml`` names this ``build_py`` in
``[tool.setuptools.cmdclass]`` so that wheels (and the sdist, which lists build_py's data files) carry it as
``explorer/resources``. Package discovery stays automatic (``packages.find``): a static ``package-dir``
entry alone would need every package listed by hand. Editable installs copy nothing; they read the checkout.
The ``sdist`` below also carries ``packaging/`` (this hook, the PyInstaller spec, the desktop files), so that a
wheel built from the sdist is built the same way.
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from pathlib import Path

from setuptools.command.build_py import build_py as _build_py
from setuptools.command.sdist import sdist as _sdist

PACKAGE = "explorer.resources"
SOURCE = "resources"
PATTERNS = ["**/*"]


class build_py(_build_py):  # noqa: N801 (setuptools command names are lower case)
    def finalize_options(self) -> None:
        super().finalize_options()
        # Fresh containers: distutils shares these with the Distribution; leave its view untouched.
        if PACKAGE not in (self.packages or []):
            self.packages = [*(self.packages or []), PACKAGE]
        self.package_dir = {**(self.package_dir or {}), PACKAGE: SOURCE}
        self.package_data = {**(self.package_data or {}), PACKAGE: list(PATTERNS)}
        self.__dict__.pop("data_files", None)  # computed lazily from the above

    def build_package_data(self) -> None:
        super().build_package_data()
        # Readable by everyone, whatever the working tree's modes (a file written through mkstemp is 0600): a
        # system-wide install must not ship presets only root can read.
        for package, _src_dir, build_dir, filenames in self.data_files:
            if package == PACKAGE:
                for name in filenames:
                    path = os.path.join(build_dir, name)
                    os.chmod(path, os.stat(path).st_mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)

    def analyze_manifest(self) -> None:
        # resources/corpora etc. are data folders, not packages: the "absent from `packages`" warning is noise.
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=rf"(?s).*Package '{re.escape(PACKAGE)}\.")
            super().analyze_manifest()


class sdist(_sdist):  # noqa: N801
    """The usual sdist, plus the files under packaging/ (egg_info's manifest knows nothing of them)."""

    def make_release_tree(self, base_dir, files) -> None:
        here = Path(__file__).resolve().parent
        root = here.parent
        extra = []
        for path in sorted(here.rglob("*")):
            rel = path.relative_to(root)
            if path.is_file() and "__pycache__" not in rel.parts and not path.name.startswith("."):
                extra.append(rel.as_posix())
        super().make_release_tree(base_dir, [*files, *(f for f in extra if f not in files)])
