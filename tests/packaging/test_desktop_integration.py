"""The .desktop launcher, the AppStream metainfo, the icon and `make install-desktop` (packaging/install-desktop.sh)."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from packaging_helpers import (
    APP_ID,
    ICON_SIZES,
    PACKAGING,
    RESOURCES,
    desktop_file_name_in_app,
    png_size,
    pyproject,
)

DESKTOP = PACKAGING / f"{APP_ID}.desktop"
METAINFO = PACKAGING / f"{APP_ID}.metainfo.xml"
SVG = RESOURCES / "icons" / "attention-explorer.svg"
MAIN_CATEGORIES = {
    "AudioVideo",
    "Audio",
    "Video",
    "Development",
    "Education",
    "Game",
    "Graphics",
    "Network",
    "Office",
    "Science",
    "Settings",
    "System",
    "Utility",
}


def read_desktop(path=DESKTOP) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser


def test_app_announces_the_desktop_file_name():
    # Wayland compositors and docks match the window to the launcher by this name.
    assert desktop_file_name_in_app() == APP_ID
    assert DESKTOP.is_file() and METAINFO.is_file()


def test_desktop_file_keys():
    entry = read_desktop()["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Attention Explorer" and entry.get("Name[ja]")
    assert entry["Icon"] == APP_ID
    assert entry.getboolean("Terminal") is False
    script = next(iter(pyproject()["project"]["scripts"]))
    assert entry["Exec"].split()[0] == script == entry["TryExec"]
    assert entry["Exec"].split()[1] == "gui"
    categories = [c for c in entry["Categories"].split(";") if c]
    assert len(MAIN_CATEGORIES.intersection(categories)) == 1, categories
    assert entry["Keywords"].endswith(";") and entry["Categories"].endswith(";")
    for action in [a for a in entry["Actions"].split(";") if a]:
        assert read_desktop()[f"Desktop Action {action}"]["Exec"].startswith(f"{script} ")


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_file_validate():
    result = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def test_metainfo_matches_the_project():
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.find("launchable").get("type") == "desktop-id"
    project = pyproject()["project"]
    assert root.findtext("provides/binary") in project["scripts"]
    assert root.findtext("project_license") == project["license"]
    versions = [r.get("version") for r in root.iter("release")]
    assert versions and versions[0] == project["version"], "newest <release> must be the pyproject version"


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream (appstreamcli) not installed")
def test_metainfo_appstreamcli_validate():
    result = subprocess.run(
        ["appstreamcli", "validate", "--no-net", "--no-color", str(METAINFO)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_icon_svg_and_png_sizes():
    svg = ET.parse(SVG).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("viewBox") == "0 0 256 256"
    for size in ICON_SIZES:
        png = RESOURCES / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert png.is_file(), f"{png} missing: run `make icons`"
        assert png_size(png) == (size, size)


def test_icon_pngs_are_rendered_from_the_svg(clean_env):
    pytest.importorskip("PySide6.QtSvg")
    result = subprocess.run(
        [sys.executable, str(PACKAGING / "render_icons.py"), "--check"],
        capture_output=True,
        text=True,
        env=clean_env,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(sys.platform != "linux", reason="freedesktop integration is for Linux")
def test_install_desktop_user_level(tmp_path, clean_env):
    data = tmp_path / "data"
    env = {**clean_env, "XDG_DATA_HOME": str(data)}
    script = PACKAGING / "install-desktop.sh"
    exe = "/opt/Attention Explorer/attention-explorer"  # a space on purpose
    result = subprocess.run(["sh", str(script), exe], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    desktop = data / "applications" / DESKTOP.name
    entry = read_desktop(desktop)["Desktop Entry"]
    assert entry["Exec"] == f'"{exe}" gui' and entry["TryExec"] == exe
    assert read_desktop(desktop)["Desktop Action presentation"]["Exec"] == f'"{exe}" gui --presentation'
    if shutil.which("desktop-file-validate"):
        check = subprocess.run(["desktop-file-validate", str(desktop)], capture_output=True, text=True)
        assert check.returncode == 0, check.stdout
    assert (data / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").read_bytes() == SVG.read_bytes()
    for size in ICON_SIZES:
        assert (data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()
    assert not list(data.rglob("*.cache")), "no user-level caches that nothing keeps up to date"

    result = subprocess.run(["sh", str(script), "--uninstall"], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert [p for p in data.rglob("*") if p.is_file()] == []

    bad = subprocess.run(["sh", str(script), "relative/exe"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and "absolute" in bad.stderr
    assert os.access(script, os.X_OK)
