"""docs/api.md cannot go stale: every public name of ``explorer`` and every public method, property and
attribute of the objects the API hands out (read from the classes and from real instances) is named there,
each callable's parameters are in its entry, and every entry the page heads names something the code has."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")

# "### `TraceResult.map(stage=…)`" or "### `explorer.TraceResult`, `explorer.Figure`": the entry's subjects.
HEADING_RE = re.compile(r"^### ((?:`[^`]+`(?:, )?)+)(.*)$", re.M)
SUBJECT_RE = re.compile(r"`([\w.]+)")
BUILTIN_BASES = (object, dict, list)
SHARED_OPTIONS = "`trace`'s"  # an entry that says its other options are trace()'s


def entries(text: str) -> dict[str, str]:
    """Each subject a `###` heading names, and its entry: the heading and the text up to the next heading."""
    found: dict[str, str] = {}
    marks = list(re.finditer(r"^#{2,3} ", text, re.M))
    for m in HEADING_RE.finditer(text):
        end = next((n.start() for n in marks if n.start() > m.start()), len(text))
        for subject in SUBJECT_RE.findall(m.group(1)):
            found[subject] = text[m.start() : end]
    return found


def _documented(parameter: str, entry: str) -> bool:
    heading = entry.splitlines()[0]
    return re.search(rf"[(, ]\**{re.escape(parameter)}\b", heading) is not None or f"`{parameter}`" in entry


@pytest.fixture(scope="module")
def api():
    """The API's classes, and one real instance of each (a few ms each on the seed-toy preset)."""
    import explorer as ax
    from explorer.api.generating import GenerationResult
    from explorer.api.reports import Attribution, ModelList
    from explorer.api.views import CellRef, ComparisonResult

    t = ax.trace("This is a pen .", preset="seed-toy")
    instances = {
        ax.TraceResult: t,
        ax.Figure: t.map(),
        CellRef: t.cell("weights", layer=0, head=1, query=3, key=1),
        ComparisonResult: t.compare(ax.trace("This is a dog .", preset="seed-toy")),
        GenerationResult: ax.generate("This is a pen .", n=2, preset="seed-toy"),
        Attribution: ax.attribute("This is a pen .", target="run", preset="seed-toy"),
        ModelList: ax.models(),
    }
    for cls, obj in instances.items():
        assert type(obj) is cls
    return ax, instances


def public_members(cls, instance) -> dict[str, object]:
    """Public names a user reaches on ``cls`` (its own and its bases', not dict's or list's) and on an
    instance (attributes set in __init__), each with what the class holds (None for an instance attribute)."""
    members: dict[str, object] = {}
    for base in reversed(cls.__mro__):
        if base not in BUILTIN_BASES:
            members.update({n: v for n, v in vars(base).items() if not n.startswith("_")})
    if not isinstance(instance, (dict, list)):
        members.update({n: None for n in vars(instance) if not n.startswith("_") and n not in members})
    return members


def _parameters(function) -> list[str]:
    return [n for n in inspect.signature(function).parameters if n not in ("self", "cls")]


def test_the_page_is_read():
    found = entries(DOC)
    assert len(found) > 40  # a broken reader would find nothing and pass everything below
    assert "explorer.trace" in found and "TraceResult.map" in found and "explorer.Figure" in found
    assert "stage" in found["TraceResult.map"] and "### `Figure`" not in found["TraceResult.map"]
    assert _documented("head", found["TraceResult.map"]) and not _documented("colour", found["TraceResult.map"])


def test_every_public_name_of_explorer_has_an_entry(api):
    ax, _instances = api
    found = entries(DOC)
    assert {"trace", "open", "TraceResult", "Error", "__version__"} <= set(ax.__all__)
    missing = [name for name in ax.__all__ if f"explorer.{name}" not in found]
    assert not missing, f"docs/api.md has no `### explorer.NAME` entry for: {missing}"


def test_every_parameter_of_the_calls_is_in_its_entry(api):
    ax, _instances = api
    found = entries(DOC)
    shared = {p for p in _parameters(ax.trace) if _documented(p, found["explorer.trace"])}
    for name in ("trace", "open", "generate", "attribute", "models"):
        entry = found[f"explorer.{name}"]
        inherited = shared if SHARED_OPTIONS in entry else set()
        missing = [p for p in _parameters(getattr(ax, name)) if p not in inherited and not _documented(p, entry)]
        assert not missing, f"docs/api.md's explorer.{name} does not name its parameters {missing}"


def test_every_public_member_of_the_results_is_documented(api):
    _ax, instances = api
    found = entries(DOC)
    problems = []
    for cls, instance in instances.items():
        heading = re.search(rf"^##+ `{cls.__name__}`", DOC, re.M)
        assert heading, f"docs/api.md has no heading `{cls.__name__}`"
        for name, held in public_members(cls, instance).items():
            qualified = f"{cls.__name__}.{name}"
            if held is None:  # an instance attribute: named anywhere on the page
                if f"`{qualified}`" not in DOC:
                    problems.append(f"{qualified} (attribute) is not named")
                continue
            if qualified not in found:
                problems.append(f"{qualified} has no ### entry")
                continue
            function = held.__func__ if isinstance(held, (classmethod, staticmethod)) else held
            if callable(function) and not isinstance(held, property):
                problems += [
                    f"{qualified}: parameter {p!r} is not in its entry"
                    for p in _parameters(function)
                    if not _documented(p, found[qualified])
                ]
    assert not problems, "docs/api.md is behind the code:\n" + "\n".join(problems)


def test_every_entry_names_something_the_code_has(api):
    ax, instances = api
    classes = {cls.__name__: (cls, instance) for cls, instance in instances.items()}
    stale = []
    for subject in entries(DOC):
        owner, _, member = subject.partition(".")
        if owner == "explorer":
            if member not in ax.__all__:
                stale.append(subject)
        elif owner not in classes:
            stale.append(subject)
        elif member and member not in public_members(*classes[owner]):
            stale.append(subject)
    assert not stale, f"docs/api.md documents what the code does not have: {stale}"


def test_the_readme_and_the_notebook_point_here():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/api.md" in readme and "docs/notebook.ipynb" in readme
    assert "(screenshot-notebook.png)" in DOC
