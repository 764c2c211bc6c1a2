"""Every word the app or the command line chooses among is listed once (issue 37: languages were listed in 8
places, themes in 3, ablate modes in 4, the CLI's ``choices`` written by hand). The source of explorer/ is read
as syntax trees: a literal tuple, list or set holding two or more words of one vocabulary is a second listing
unless it stands in that vocabulary's home or on the allow-list below with its reason; an argparse
``choices=`` written as a literal is always one (it must name the definition)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from explorer import vocab

ROOT = Path(__file__).resolve().parents[2]
VOCAB_HOME = "explorer/vocab.py"

# The vocabularies that belong to one subsystem each (explorer/vocab.py's docstring points to them): name →
# (the module that defines it, which is its home, and the attribute).
SUBSYSTEM_VOCABULARIES = {
    "capture modes": ("explorer.session.capture_policy", "MODES"),
    "compare modes": ("explorer.present.before_after", "MODES"),
    "print formats": ("explorer.handouts.sizes", "FORMATS"),
}

# (file name, vocabulary) → why a second listing of those words stays in that file. By file name, not path, so
# that moving a file between packages keeps its entry.
ALLOWED = {
    ("compare_switch.py", "compare modes"): (
        "SHOWN orders the buttons left to right as before, after, change; MODES puts the default first"
    ),
    ("compare_bars.py", "compare modes"): "the legend's placeholder words until the view sets the translated ones",
}


@dataclass(frozen=True)
class Vocabulary:
    name: str
    home: str  # the one file that may list its words
    words: frozenset[str]


@dataclass(frozen=True)
class Listing:
    path: str  # relative to the scanned root
    line: int
    vocabulary: str  # the vocabulary it repeats, or "choices" for a hand-written argparse choices=
    words: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.path}:{self.line} lists {self.words} of {self.vocabulary}"


def vocabularies() -> list[Vocabulary]:
    """Every tuple of two or more words in explorer/vocab.py, and the subsystems' vocabularies."""
    import importlib

    found = [
        Vocabulary(name, VOCAB_HOME, frozenset(value))
        for name, value in vars(vocab).items()
        if name.isupper() and isinstance(value, tuple) and len(value) >= 2 and all(isinstance(v, str) for v in value)
    ]
    for name, (module_name, attribute) in SUBSYSTEM_VOCABULARIES.items():
        module = importlib.import_module(module_name)
        home = Path(module.__file__).resolve().relative_to(ROOT).as_posix()
        found.append(Vocabulary(name, home, frozenset(getattr(module, attribute))))
    return found


def _words(node: ast.AST) -> tuple[str, ...]:
    return tuple(e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str))


def _listings(tree: ast.AST):
    """(node, its string words, whether it is the value of a choices= keyword) of every literal collection."""
    literal = (ast.Tuple, ast.List, ast.Set, ast.Dict)
    choices = [k.value for k in ast.walk(tree) if isinstance(k, ast.keyword) and k.arg == "choices"]
    choices = [c for c in choices if isinstance(c, literal)]
    for node in choices:
        yield node, (), True
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and not any(node is c for c in choices):
            yield node, _words(node), False


def scan(root: Path, vocabs: list[Vocabulary], allowed: dict[tuple[str, str], str]) -> list[Listing]:
    """Every second listing of a vocabulary's words under ``root``/explorer, outside its home and ``allowed``."""
    found = []
    for path in sorted((root / "explorer").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node, words, is_choices in _listings(ast.parse(path.read_text(encoding="utf-8"), filename=rel)):
            if is_choices:
                found.append(Listing(rel, node.lineno, "choices", ("written by hand",)))
                continue
            for v in vocabs:
                shared = tuple(w for w in dict.fromkeys(words) if w in v.words)
                if len(shared) >= 2 and rel != v.home and (path.name, v.name) not in allowed:
                    found.append(Listing(rel, node.lineno, v.name, shared))
    return found


def test_each_vocabulary_is_listed_once():
    found = scan(ROOT, vocabularies(), ALLOWED)
    assert not found, "read these from their definition instead:\n" + "\n".join(map(str, found))


def test_every_allowed_listing_is_still_there():
    """An entry whose listing went away is removed, so that the allow-list stays the short list of exceptions."""
    everything = scan(ROOT, vocabularies(), {})
    stale = [key for key in ALLOWED if not any((Path(f.path).name, f.vocabulary) == key for f in everything)]
    assert not stale


def _plant(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_scanner_reports_a_planted_copy(tmp_path):
    """The scanner would catch each kind of copy this issue removed, and nothing in a vocabulary's home."""
    root = _plant(
        tmp_path,
        {
            "explorer/vocab.py": 'LANGUAGES = ("en", "ja")\nTHEMES = ("system", "light", "dark")\n',
            "explorer/cli/some_cmd.py": (
                "def add_parser(p):\n"
                '    p.add_argument("--language", choices=["en", "ja"])\n'
                '    p.add_argument("--format", choices=("npz", "pt"))\n'
            ),
            "explorer/ui/menu.py": 'for t in ("light", "dark"):\n    pass\nOK = ("light",)\n',
            "explorer/ui/allowed.py": 'ORDER = ["dark", "light"]\n',
        },
    )
    vocabs = [
        Vocabulary("LANGUAGES", VOCAB_HOME, frozenset({"en", "ja"})),
        Vocabulary("THEMES", VOCAB_HOME, frozenset({"system", "light", "dark"})),
    ]
    found = {(f.path, f.line, f.vocabulary) for f in scan(root, vocabs, {("allowed.py", "THEMES"): "why"})}
    assert found == {
        ("explorer/cli/some_cmd.py", 2, "choices"),
        ("explorer/cli/some_cmd.py", 3, "choices"),
        ("explorer/ui/menu.py", 1, "THEMES"),
    }
    assert ("explorer/ui/allowed.py", 1, "THEMES") in {(f.path, f.line, f.vocabulary) for f in scan(root, vocabs, {})}


def test_the_vocabulary_holds_what_this_scan_protects():
    """The words the issue counted are vocabularies of the scan (a name taken out of vocab.py would drop it)."""
    scanned = {v.words for v in vocabularies()}
    for words in (("en", "ja"), ("system", "light", "dark"), ("zero", "mean"), ("npz", "safetensors", "pt")):
        assert frozenset(words) in scanned
    assert frozenset(vocab.PALETTES) in scanned and frozenset(vocab.SWEEP_KINDS) in scanned


def test_the_tables_keyed_by_a_vocabulary_cover_it():
    """Tables that give each word a meaning (a paper colour, a name) hold the same words, in the same order."""
    from explorer.handouts.colours import THEMES as PAPERS
    from explorer.lessons.model import LANGUAGE_NAMES
    from explorer.present.palettes import PALETTES

    assert tuple(PAPERS) == vocab.PRINT_THEMES
    assert tuple(LANGUAGE_NAMES) == vocab.LANGUAGES
    assert tuple(PALETTES) == vocab.PALETTES
    assert set(vocab.COPYING_SNAPSHOT_FORMATS) < set(vocab.SNAPSHOT_FORMATS)
    assert set(vocab.PRINT_THEMES) < set(vocab.THEMES)
