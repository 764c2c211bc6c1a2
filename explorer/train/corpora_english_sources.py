"""The larger sources of the ``english`` corpus's training text, each from a Debian package (issue 38).

* WordNet 3.0's glosses (``wordnet-base``): the definitions beside the usage examples, about 117,000
  phrases of plain descriptive English ("a small room in which a monk or nun lives");
* the BSD fortune cookies of ``fortunes`` (and ``literature``/``riddles`` of ``fortunes-min``): quotations,
  jokes and sayings of many hands, one sentence a line, the attribution lines dropped;
* Ambrose Bierce's *The Devil's Dictionary* (``dict-devil``, public domain), its prose cut into sentences.

The held-out cookies (fortunes-min's ``fortunes`` file) are never trained on: a training line that holds
one of them, or one of their sentences, is dropped (``disjoint_from``). Not used: ``bible-kjv-text``
(public domain, 800,000 words of 1611 English, "thou hast", "unto them": it would outweigh every other
source and teach forms a class never types) and ``fortunes-off``.
"""

from __future__ import annotations

import gzip
import re
import subprocess
from pathlib import Path

FORTUNES_DIR = Path("/usr/share/games/fortunes")
DEVIL_FILE = Path("/usr/share/dictd/devil.dict.dz")
HELD_OUT_FORTUNES = "fortunes"  # fortunes-min's file: the held-out cookies
# Cookie files that are not prose: pictures made of characters, and text in other languages to translate.
NOT_PROSE = ("ascii-art", "translate-me")
MAX_CHARS = 200
MIN_WORDS = 3
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')]?\s+(?=[\"'(]?[A-Z])")
_ATTRIBUTION = re.compile(r"^\s*(--|—|~)\s")
_CLAUSE_END = re.compile(r"(?<=;)\s+|(?<=:)\s+|\s*--\s*")
_ABBREVIATION = re.compile(r"\b(Mr|Mrs|Ms|Dr|St|Mme|Messrs|Col|Capt|Gen|Rev|Sir|vs|i\.e|e\.g)\.$")
_DEVIL_HEADWORD = re.compile(r"^[A-Z][A-Z' -]+, [a-z. ]+\s\s")


def _clean(text: str) -> str:
    return " ".join(text.split())


def _mostly_words(line: str) -> bool:
    """A line of prose: at least 85 % letters and spaces (drops code, tables and character pictures)."""
    ok = sum(ch.isalpha() or ch == " " for ch in line)
    return ok >= 0.85 * len(line) and len(re.findall(r"[A-Za-z]+", line)) >= MIN_WORDS


def sentences(text: str) -> list[str]:
    """Cut prose into sentences; a sentence longer than MAX_CHARS is dropped (a row is one sentence)."""
    parts: list[str] = []
    for part in _SENTENCE_END.split(_clean(text.replace("_", ""))):  # _italics_ of the plain-text editions
        if parts and _ABBREVIATION.search(parts[-1]):  # "Mr. Darcy" is one sentence
            parts[-1] += " " + part
        else:
            parts.append(part)
    out = []
    for part in parts:
        # a long sentence gives its clauses (between semicolons and dashes) that fit one row
        pieces = [part] if len(part) <= MAX_CHARS else _CLAUSE_END.split(part)
        out += [p.strip() for p in pieces if p.strip() and len(p.strip()) <= MAX_CHARS and _mostly_words(p.strip())]
    return out


def wordnet_glosses(folder: Path) -> list[str]:
    """The definitions of every synset's gloss (the parts that are not quoted examples), each kept once,
    first letter capital: "A small room in which a monk or nun lives"."""
    seen: set[str] = set()
    out = []
    for pos in ("noun", "verb", "adj", "adv"):
        for line in (folder / f"data.{pos}").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("  ") or " | " not in line:
                continue
            for part in line.split(" | ", 1)[1].split(";"):
                part = _clean(part)
                if not part or part.startswith('"') or len(part) > MAX_CHARS or part in seen:
                    continue
                if len(part.split()) >= MIN_WORDS:
                    seen.add(part)
                    out.append(part[0].upper() + part[1:])
    return out


def _cookie_text(cookie: str) -> str:
    """A cookie without its attribution lines ("-- Mark Twain")."""
    return " ".join(l for l in cookie.splitlines() if not _ATTRIBUTION.match(l))


def fortune_sentences(folder: Path = FORTUNES_DIR) -> list[str]:
    """Every prose cookie file but the held-out one, cut into sentences, in file-name order, each once."""
    seen: set[str] = set()
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix or path.name in NOT_PROSE + (HELD_OUT_FORTUNES,) or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for cookie in re.split(r"^%$", text, flags=re.M):
            for s in sentences(_cookie_text(cookie)):
                if s not in seen:
                    seen.add(s)
                    out.append(s)
    return out


def devil_sentences(path: Path = DEVIL_FILE) -> list[str]:
    """The prose of The Devil's Dictionary (its dictd file), cut into sentences; the headword ("ABATIS,
    n.") is dropped from the first sentence of each entry, the indented verse is dropped."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    start = text.find("ABASEMENT, n.")
    paragraphs, current = [], []
    for line in text[start:].splitlines():
        if not line.strip() or line.startswith("    "):  # a blank line or a line of verse ends a paragraph
            if current:
                paragraphs.append(" ".join(current))
            current = []
        else:
            current.append(line.strip())
    if current:
        paragraphs.append(" ".join(current))
    out = []
    for para in paragraphs:
        para = _DEVIL_HEADWORD.sub("", para)
        out += [s for s in sentences(para) if s not in out]
    return out


AUSTEN_DATA = Path("/usr/lib/R/site-library/janeaustenr/data/Rdata.rdb")
AUSTEN_SCRIPT = 'for (t in janeaustenr::austen_books()$text) cat(t, "\\n", sep = "")'


def austen_sentences() -> list[str]:
    """The six novels of Jane Austen (r-cran-janeaustenr, read with Rscript: the package holds them as R
    data), paragraph by paragraph, cut into sentences; chapter headings and title lines dropped."""
    text = subprocess.run(["Rscript", "-e", AUSTEN_SCRIPT], capture_output=True, text=True, check=True).stdout
    out: list[str] = []
    seen: set[str] = set()
    for para in re.split(r"\n\s*\n", text):
        for s in sentences(para):
            if s not in seen and not s.isupper():
                seen.add(s)
                out.append(s)
    return out


def _normal(text: str) -> str:
    return " ".join(re.findall(r"[a-z]+", text.lower()))


def disjoint_from(lines: list[str], heldout: list[str]) -> list[str]:
    """``lines`` without any that holds a held-out line or one of its sentences, or is one of them."""
    held_whole = [_normal(h) for h in heldout]
    held_parts = {_normal(s) for h in heldout for s in sentences(h) + [h]}
    out = []
    for line in lines:
        n = _normal(line)
        if n in held_parts or any(h and h in n for h in held_whole if len(h) <= len(n)):
            continue
        out.append(line)
    return out
