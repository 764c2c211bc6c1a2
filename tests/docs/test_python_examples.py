"""The Python the README and docs/api.md show runs as written (in a scratch folder), and the next tokens a
comment quotes are the ones the code gives."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("README.md", "docs/api.md")
PY_BLOCK_RE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
QUOTED_TOKEN_RE = re.compile(r"\('([^']*)', (0\.\d+)…\)")  # ('run', 0.139…) in a comment


def blocks(page: str) -> list[str]:
    return PY_BLOCK_RE.findall((ROOT / page).read_text(encoding="utf-8"))


def test_the_readme_shows_the_five_lines():
    (example,) = blocks("README.md")
    lines = example.strip().splitlines()
    assert len(lines) == 5 and lines[0] == "import explorer as ax"
    assert example in blocks("docs/api.md"), "docs/api.md opens on the README's example"


@pytest.mark.parametrize("page", PAGES)
def test_every_python_block_runs(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # anything a block writes lands here
    found = blocks(page)
    assert found, f"{page} shows no Python"
    for code in found:
        scope: dict = {}
        exec(compile(code, f"{page} (python block)", "exec"), scope)
        for line in code.splitlines():
            quoted = QUOTED_TOKEN_RE.findall(line)
            if quoted:  # the line's expression gives what its comment quotes
                given = eval(line.split("#", 1)[0], scope)
                assert len(given) == len(quoted), line
                # the quoted digits are the probability's first ones ("0.139…" for 0.13942…)
                shown = [(token, f"{prob:.6f}"[: len(digits)]) for (token, prob), (_, digits) in zip(given, quoted)]
                assert shown == quoted, line
