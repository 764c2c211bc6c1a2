"""docs/architecture.md stays true to the tree: it names every package and every top-level module of
explorer/ as they are on disk, every repository path it names exists, and it quotes the import-linter
contracts that enforce the boundaries it describes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "docs" / "architecture.md"

# Paths the page names that exist on branches not yet merged into this one (issues 12a, 12b, 13, 15, 16).
# Nothing else belongs here. The integrator empties this set after merging them: the last test below fails
# while a listed path already exists, so the set cannot go stale.
PENDING_PATHS = frozenset(
    {
        # issue12a: the vocabulary module, hover digits, its tests
        # issue12b: the english corpus
        # issue13: reading files from anywhere, schemas
        # issue15: interventions
        # issue16: generation
    }
)

# A repository path as the page writes it: from one of these top-level folders, up to a character that
# cannot be part of a path (space, backtick, parenthesis, "…", "<").
PATH_RE = re.compile(r"(?<![\w./-])((?:explorer|tests|docs|benchmarks|resources|packaging)/[\w./*-]*)")


def _doc() -> str:
    return DOC_PATH.read_text(encoding="utf-8")


# A bullet that lists a folder's files by bare name: "- `explorer/model/`: `transformer.py` (…), `block.py` …".
BULLET_RE = re.compile(r"^- `((?:explorer)/[\w/]*/)`:(.*?)(?=^- |^\s*$|\Z)", re.M | re.S)
# A bare name may also be a path from the bullet's folder ("- `explorer/ui/`: `shell/app.py`") or, when its first
# folder is not there, from explorer/ ("`present/matrices.py`"); a full path is PATH_RE's.
BARE_FILE_RE = re.compile(r"`((?!(?:explorer|tests|docs|benchmarks|resources|packaging)/)(?:\w+/)*\w+\.py)`")


def _in_bullet(folder: str, name: str) -> str:
    if "/" in name and not (ROOT / folder / name.split("/")[0]).is_dir():
        return "explorer/" + name
    return folder + name


def named_paths(text: str) -> set[str]:
    """Every repository path the page names; the bare file names of a folder's bullet count as paths in it."""
    out = set()
    for m in PATH_RE.finditer(text):
        path = m.group(1).rstrip(".,:;")
        if path:
            out.add(path)
    for m in BULLET_RE.finditer(text):
        out.update(_in_bullet(m.group(1), name) for name in BARE_FILE_RE.findall(m.group(2)))
    return out


def exists(path: str) -> bool:
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


def units_on_disk() -> list[str]:
    """Every package under explorer/ (as "explorer/x/y/") and every top-level module ("explorer/x.py")."""
    pkg = ROOT / "explorer"
    units = [
        d.relative_to(ROOT).as_posix() + "/"
        for d in sorted(pkg.rglob("*"))
        if d.is_dir() and (d / "__init__.py").is_file() and "__pycache__" not in d.parts and d != pkg
    ]
    units += [f.relative_to(ROOT).as_posix() for f in sorted(pkg.glob("*.py"))]
    return units


def test_the_page_and_the_tree_are_read():
    units = units_on_disk()
    assert "explorer/model/" in units and "explorer/ui/views/" in units and "explorer/names.py" in units
    paths = named_paths(_doc())
    assert len(paths) > 60  # a broken reader would find nothing and pass everything below
    assert "explorer/ui/views/registry.py" in paths and "docs/errors.md" in paths
    assert (
        "explorer/model/attention.py" in paths and "explorer/ui/views/map/heatmap.py" in paths
    )  # bare names in bullets


@pytest.mark.parametrize("unit", units_on_disk())
def test_every_package_and_top_level_module_is_described(unit):
    assert unit in _doc(), f"{unit} exists but docs/architecture.md does not mention it: add a line to its table"


@pytest.mark.parametrize("path", sorted(named_paths(_doc())))
def test_every_named_path_exists(path):
    if path in PENDING_PATHS:
        pytest.skip(f"{path} arrives with another branch (PENDING_PATHS)")
    assert exists(path), f"docs/architecture.md names {path}, which does not exist: fix the page"


def test_pending_paths_are_named_and_not_yet_here():
    named = named_paths(_doc())
    assert PENDING_PATHS <= named, f"listed as pending but not in the page: {sorted(PENDING_PATHS - named)}"
    arrived = sorted(p for p in PENDING_PATHS if exists(p))
    assert not arrived, f"these have been merged: remove them from PENDING_PATHS in this test: {arrived}"


def test_the_enforcing_contracts_are_quoted():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 3
    text = _doc()
    for contract in contracts:
        assert f'"{contract["name"]}"' in text, (
            f"the contract {contract['name']!r} is not described in docs/architecture.md"
        )
    for test in ("tests/core/test_boundaries.py", "tests/docs/test_errors_doc.py", "tests/ui/test_i18n.py"):
        assert test in text and (ROOT / test).is_file()


# The page's sentence of the packages' layers is checked against the contract that enforces them, so that a
# package added to (or moved in) pyproject.toml cannot be left out of the page (issue 37: `handouts` was).
LAYERS_CONTRACT = "explorer's packages import only downward (no package cycle, not even inside a function)"


def layers_in_pyproject() -> list[set[str]]:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == LAYERS_CONTRACT)
    return [{name.strip() for name in re.split(r"[|:]", layer)} for layer in contract["layers"]]


def layers_in_doc(text: str) -> list[set[str]]:
    """The steps of the boundaries table's layer sentence, top to bottom; the packages of one step as a set."""
    row = next(line for line in text.splitlines() if line.startswith("|") and f'"{LAYERS_CONTRACT}"' in line)
    listed = row.split("top to bottom:", 1)[1].split(" (", 1)[0]
    return [set(re.findall(r"`(\w+)`", step)) for step in listed.split(", ")]


def test_the_layer_sentence_is_the_contract():
    assert layers_in_doc(_doc()) == layers_in_pyproject(), (
        f"docs/architecture.md's layers {layers_in_doc(_doc())} differ from pyproject.toml's "
        f"{layers_in_pyproject()}: write the contract's layers into the boundaries table"
    )


def test_the_layer_comparison_sees_a_missing_a_moved_and_an_extra_package():
    text, contract = _doc(), layers_in_pyproject()
    assert len(contract) >= 10 and {"handouts"} in contract
    assert "`handouts`, " in text
    assert layers_in_doc(text.replace("`handouts`, ", "")) != contract  # the finding
    assert "`__main__`, `cli`," in text
    assert layers_in_doc(text.replace("`__main__`, `cli`,", "`cli`, `__main__`,")) != contract  # a moved one
    assert layers_in_doc(text.replace("`config`,", "`config`, `extra`,")) != contract
    assert layers_in_doc(text.replace("`lessons` \\| `export`", "`export` \\| `lessons`")) == contract  # one step
