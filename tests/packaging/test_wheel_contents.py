"""`python -m build` (sdist, then the wheel from the sdist) ships resources/ as explorer/resources.

Built from a copy of the source tree in a temporary folder, so that it neither writes build/ into the checkout
nor races another build there; without build isolation (the venv's setuptools), so that it works offline.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging_helpers import APP_ID, ICON_SIZES, ROOT, pyproject, resource_files

pytest.importorskip("build", reason="`build` is in the test extras (pip install -e .[test])")

COPY = (
    "explorer",
    "resources",
    "packaging",
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "setup.cfg",
    "setup.py",
    "MANIFEST.in",
)


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> tuple[Path, Path]:
    src = tmp_path_factory.mktemp("src")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "*.egg-info")
    for name in COPY:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, ignore=ignore)
        elif path.is_file():
            shutil.copy2(path, src / name)
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--skip-dependency-check", "--outdir", str(out), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    (wheel,) = out.glob("*.whl")
    (sdist,) = out.glob("*.tar.gz")
    return wheel, sdist


def test_wheel_ships_every_resource(dists):
    wheel, _ = dists
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"explorer/resources/{rel}" for rel in resource_files()}
    assert expected <= names, f"missing from the wheel: {sorted(expected - names)[:20]}"
    # the folders the app reads, with something in them
    for folder in ("corpora/", "tokenizers/", "icons/"):
        assert any(n.startswith(f"explorer/resources/{folder}") for n in names), folder
    assert "explorer/resources/icons/attention-explorer.svg" in names
    for size in ICON_SIZES:
        assert f"explorer/resources/icons/hicolor/{size}x{size}/apps/{APP_ID}.png" in names
    unreadable = [
        i.filename
        for i in zipfile.ZipFile(wheel).infolist()
        if i.filename.startswith("explorer/resources/") and (i.external_attr >> 16) & 0o444 != 0o444
    ]
    assert not unreadable, f"not readable by everyone once installed: {unreadable[:10]}"


def test_wheel_ships_compiled_translations_and_presets(dists):
    wheel, _ = dists
    names = set(zipfile.ZipFile(wheel).namelist())
    ts = [rel for rel in resource_files() if rel.startswith("translations/") and rel.endswith(".ts")]
    missing_qm = [rel for rel in ts if f"explorer/resources/{rel[:-3]}.qm" not in names]
    assert not missing_qm, f"no compiled .qm in the wheel for {missing_qm}: run `make translations`"
    presets = [rel for rel in resource_files() if rel.startswith("presets/")]
    assert {f"explorer/resources/{rel}" for rel in presets} <= names


def test_wheel_has_every_module_and_nothing_at_top_level(dists):
    wheel, _ = dists
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "explorer").rglob("*.py") if "__pycache__" not in p.parts
    }
    assert modules <= names, f"modules missing from the wheel: {sorted(modules - names)[:20]}"
    version = pyproject()["project"]["version"]
    tops = {n.split("/")[0] for n in names}
    assert tops == {"explorer", f"attention_explorer-{version}.dist-info"}, tops
    entry_points = zipfile.ZipFile(wheel).read(f"attention_explorer-{version}.dist-info/entry_points.txt").decode()
    assert "attention-explorer = explorer.cli:main" in entry_points


def test_sdist_carries_resources_and_packaging(dists):
    _, sdist = dists
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {f"resources/{rel}" for rel in resource_files()} <= names
    for rel in (
        "packaging/setuptools_resources.py",
        "packaging/attention-explorer.spec",
        f"packaging/{APP_ID}.desktop",
        f"packaging/{APP_ID}.metainfo.xml",
        "pyproject.toml",
    ):
        assert rel in names, rel


def test_wheel_size_is_sane(dists):
    wheel, _ = dists
    size = wheel.stat().st_size
    print(f"wheel: {wheel.name} {size / 1e6:.2f} MB")
    assert size < 200e6  # resources are text, a few icons and small presets; no model blobs by accident
