"""The README is a front door a clone can use: short, every link and picture inside the repository, and every
command line it shows one the real parser accepts. The pages under docs/ link only to what exists."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_README_LINES = 300  # issue 37: the history lives in docs/history.md, the full table in docs/performance.md
SELF_CONTAINED = ("README.md", "docs/math.md")  # no link to anything a clone does not have

# [text](target) and ![alt](target); a target ends at the first space or ")" (a title may follow).
LINK_RE = re.compile(r"!?\[[^\]]*\]\(\s*([^)\s]+)[^)]*\)")
SH_BLOCK_RE = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)


def links(text: str) -> list[str]:
    return LINK_RE.findall(text)


def local_target_problem(page: Path, target: str) -> str | None:
    """Why a link of ``page`` to ``target`` would be broken in a clone, or None. Web links and in-page
    anchors are not local targets."""
    if re.match(r"^[a-z]+:", target) or target.startswith("#"):
        return None
    path = (page.parent / target.split("#", 1)[0]).resolve()
    if not path.is_relative_to(ROOT):
        return f"{target} leaves the repository"
    if not path.exists():
        return f"{target} does not exist"
    return None


def command_lines(text: str) -> list[list[str]]:
    """The arguments of each `attention-explorer …` line of the page's sh blocks (its comment left off)."""
    out = []
    for block in SH_BLOCK_RE.findall(text):
        for line in block.splitlines():
            if line.startswith("attention-explorer"):
                out.append(shlex.split(line, comments=True)[1:])
    return out


def pages() -> list[Path]:
    return [README, *sorted((ROOT / "docs").glob("*.md"))]


def test_the_readers_find_what_they_look_for():
    sample = (
        'see [a](docs/a.md), ![b](docs/b.png "t"), [c](https://x.org)\n```sh\nattention-explorer x "a b"  # c\n```\n'
    )
    assert links(sample) == ["docs/a.md", "docs/b.png", "https://x.org"]
    assert command_lines(sample) == [["x", "a b"]]
    assert local_target_problem(README, "../shared/DESIGN.md") == "../shared/DESIGN.md leaves the repository"
    assert local_target_problem(README, "docs/nothing.md") == "docs/nothing.md does not exist"
    assert local_target_problem(README, "docs/architecture.md#the-picture") is None


def test_the_readme_is_short():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; history belongs in docs/history.md"


@pytest.mark.parametrize("page", SELF_CONTAINED)
def test_front_pages_link_only_inside_the_repository(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "../" not in text, f"{page} points outside the repository (../): a clone does not have it"
    outside = [t for t in links(text) if re.match(r"^[a-z]+:", t)] + re.findall(r"https?://\S+", text)
    assert not outside, f"{page} links outside the repository: {outside}"


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_local_link_and_picture_exists(page):
    problems = [p for t in links(page.read_text(encoding="utf-8")) if (p := local_target_problem(page, t))]
    assert not problems, f"{page.relative_to(ROOT)}: {problems}"


def test_the_readme_shows_its_pictures_and_links_the_pages_issue_37_asks_for():
    targets = set(links(README.read_text(encoding="utf-8")))
    for shot in sorted((ROOT / "docs").glob("screenshot-*.png")):
        assert f"docs/{shot.name}" in targets, f"README.md no longer shows {shot.name}"
    for page in ("docs/math.md", "docs/performance.md", "docs/history.md", "docs/real-models.md"):
        assert page in targets, f"README.md does not link {page}"


def test_every_command_line_in_the_readme_parses():
    from explorer.cli import build_parser

    lines = command_lines(README.read_text(encoding="utf-8"))
    assert len(lines) >= 10
    for args in lines:
        try:
            build_parser().parse_args(args)
        except SystemExit as exc:  # argparse's way of refusing
            pytest.fail(f"README.md: the parser refuses attention-explorer {shlex.join(args)} (exit {exc.code})")


def test_every_subcommand_has_an_example_in_the_readme():
    from explorer.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")  # argparse keeps subparsers as an action
    shown = {args[0] for args in command_lines(README.read_text(encoding="utf-8")) if args}
    # the commands --help lists (a parser added without help=, as the API's `paint-scene`, is not listed)
    listed = {a.dest for a in sub._choices_actions}
    assert {"export", "figure", "gui"} <= listed and "paint-scene" in sub.choices and "paint-scene" not in listed
    missing = sorted(listed - shown)
    assert not missing, f"README.md's Command line has no example of: {missing}"


def test_every_make_target_the_readme_names_exists():
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    named = set(re.findall(r"`make ([\w-]+)`", README.read_text(encoding="utf-8")))
    named |= {
        m
        for block in SH_BLOCK_RE.findall(README.read_text(encoding="utf-8"))
        for m in re.findall(r"^make ([\w-]+)", block, re.M)
    }
    assert {"run", "test", "bench"} <= named
    assert not named - targets, f"README.md names make targets the Makefile does not have: {sorted(named - targets)}"
