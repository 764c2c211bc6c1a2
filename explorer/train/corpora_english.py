"""The ``english`` corpus: ordinary English from openly licensed sources that Debian packages ship.

* training text: the example sentences of WordNet 3.0 (Debian package ``wordnet-base``, files
  ``/usr/share/wordnet/data.{noun,verb,adj,adv}``; WordNet 3.0 licence, Princeton University: use, copy,
  modify and distribute for any purpose with the copyright notice kept), about 48,000 short sentences
  and phrases written by lexicographers to show how a word is used ("he sat on the bench"), written as
  sentences ("He sat on the bench.", see ``as_sentence``); and, since issue 38, WordNet's definitions,
  the other BSD fortune cookies, The Devil's Dictionary and Jane Austen's novels
  (``corpora_english_sources``), gzipped;
* held-out text, from a different source: the one-line cookies of BSD fortune's ``fortunes`` file (Debian
  package ``fortunes-min``, ``/usr/share/games/fortunes/fortunes``; BSD licence, The Regents of the
  University of California), about 400 sentences ("A visit to a fresh place will bring strange work.").
  No training line holds one of them.

The extracts are committed under resources/corpora/english/ with the licence texts (LICENSE.txt), so that
``make presets`` needs none of the packages. To extract them again (the result is byte-for-byte the same):

    apt-get install wordnet-base fortunes-min fortunes dict-devil r-cran-janeaustenr
    python -m explorer.train.corpora_english
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from pathlib import Path

from explorer.train import corpora_english_sources as sources
from explorer.train.corpora_english_licenses import MORE_LICENSES
from explorer.util.paths import resource

WORDNET_DIR = Path("/usr/share/wordnet")
FORTUNES_FILE = Path("/usr/share/games/fortunes/fortunes")
PARTS_OF_SPEECH = ("noun", "verb", "adj", "adv")
MAX_CHARS = 200  # a row is one sentence: longer ones would be cut by the context anyway
_QUOTED = re.compile(r'"([^"]+)"')


def _clean(text: str) -> str:
    return " ".join(text.split())


def wordnet_examples(folder: Path = WORDNET_DIR) -> list[str]:
    """The quoted usage examples of every synset's gloss, in file order, each kept once."""
    seen: set[str] = set()
    out = []
    for pos in PARTS_OF_SPEECH:
        path = folder / f"data.{pos}"
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("  ") or " | " not in line:  # the licence header, or a synset without gloss
                continue
            for ex in _QUOTED.findall(line.split(" | ", 1)[1]):
                ex = _clean(ex).strip(" ;")
                if len(ex.split()) >= 2 and len(ex) <= MAX_CHARS and ex not in seen:
                    seen.add(ex)
                    out.append(ex)
    return out


def as_sentence(example: str) -> str:
    """WordNet writes its examples in lower case without a final stop ("he sat on the bench"); written as
    sentences ("He sat on the bench.") they read as ordinary English does, and a model learns where a
    sentence ends. Phrases of one or two words keep their form, and an example that already ends in
    punctuation keeps its own."""
    if example[:1].islower():
        example = example[0].upper() + example[1:]
    if len(example.split()) >= 3 and example[-1:].isalnum():
        example += "."
    return example


def fortune_cookies(path: Path = FORTUNES_FILE) -> list[str]:
    """The cookies of a fortune file (separated by lines holding "%"), each on one line."""
    text = path.read_text(encoding="utf-8", errors="replace")
    cookies = [_clean(c) for c in re.split(r"^%$", text, flags=re.M)]
    seen: set[str] = set()
    out = []
    for c in cookies:
        if c and len(c) <= MAX_CHARS and "\t" not in c and c not in seen:
            seen.add(c)
            out.append(c)
    return out


LICENSE = """\
resources/corpora/english/ holds text from two openly licensed sources (see docs/training.md).

train.txt: the usage examples of WordNet 3.0, extracted from the Debian package wordnet-base
(/usr/share/wordnet/data.*) by explorer/train/corpora_english.py.

  WordNet Release 3.0. This software and database is being provided to you, the LICENSEE, by
  Princeton University under the following license. By obtaining, using and/or copying this software
  and database, you agree that you have read, understood, and will comply with these terms and
  conditions.: Permission to use, copy, modify and distribute this software and database and its
  documentation for any purpose and without fee or royalty is hereby granted, provided that you agree
  to comply with the following copyright notice and statements, including the disclaimer, and that the
  same appear on ALL copies of the software, database and documentation, including modifications that
  you make for internal use or for distribution.

  WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.

  THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR
  WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO
  REPRESENTATIONS OR WARRANTIES OF MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE
  USE OF THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS,
  COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS.

  The name of Princeton University or Princeton may not be used in advertising or publicity pertaining
  to distribution of the software and/or database. Title to copyright in this software, database and
  any associated documentation shall at all times remain with Princeton University and LICENSEE agrees
  to preserve same.

heldout.txt: the cookies of the "fortunes" file of BSD fortune(6), extracted from the Debian package
fortunes-min (/usr/share/games/fortunes/fortunes), one cookie per line.

  Copyright (c) 1991 The Regents of the University of California. All rights reserved.

  Redistribution and use in source and binary forms, with or without modification, are permitted
  provided that the following conditions are met:
  1. Redistributions of source code must retain the above copyright notice, this list of conditions
     and the following disclaimer.
  2. Redistributions in binary form must reproduce the above copyright notice, this list of conditions
     and the following disclaimer in the documentation and/or other materials provided with the
     distribution.
  3. [Deleted. See ftp://ftp.cs.berkeley.edu/pub/4bsd/README.Impt.License.Change]
  4. Neither the name of the University nor the names of its contributors may be used to endorse or
     promote products derived from this software without specific prior written permission.

  THIS SOFTWARE IS PROVIDED BY THE REGENTS AND CONTRIBUTORS ``AS IS'' AND ANY EXPRESS OR IMPLIED
  WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR
  A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE REGENTS OR CONTRIBUTORS BE LIABLE FOR ANY
  DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
  LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
  INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
  OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN
  IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""


PACKAGES = ("wordnet-base", "fortunes-min", "fortunes", "dict-devil", "r-cran-janeaustenr")
# The larger sources (issue 38), gzipped: file name → (function, Debian package).
MORE_SOURCES = {
    "glosses.txt.gz": (lambda: sources.wordnet_glosses(WORDNET_DIR), "wordnet-base"),
    "fortunes.txt.gz": (sources.fortune_sentences, "fortunes"),
    "devil.txt.gz": (sources.devil_sentences, "dict-devil"),
    "austen.txt.gz": (sources.austen_sentences, "r-cran-janeaustenr"),
}


def write_gzip(path: Path, lines: list[str]) -> None:
    """Gzip with no time stamp or file name in the header, so that a fresh extract is byte-for-byte equal."""
    data = ("\n".join(lines) + "\n").encode("utf-8")
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        gz.write(data)


def write(out_dir: Path) -> dict[str, int]:
    """Extract every source from the installed Debian packages into ``out_dir``; lines written per file."""
    needed = (
        WORDNET_DIR / "data.noun",
        FORTUNES_FILE,
        sources.FORTUNES_DIR / "cookie",
        sources.DEVIL_FILE,
        sources.AUSTEN_DATA,
    )
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        raise SystemExit(f"error: {', '.join(missing)} not found: apt-get install {' '.join(PACKAGES)}")
    out_dir.mkdir(parents=True, exist_ok=True)
    heldout = fortune_cookies()
    files = {"train.txt": [as_sentence(e) for e in wordnet_examples()], "heldout.txt": heldout}
    for name, lines in files.items():
        (out_dir / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, (extract, _package) in MORE_SOURCES.items():
        files[name] = sources.disjoint_from(extract(), heldout)
        write_gzip(out_dir / name, files[name])
    (out_dir / "LICENSE.txt").write_text(LICENSE + MORE_LICENSES, encoding="utf-8")
    return {name: len(lines) for name, lines in files.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m explorer.train.corpora_english", description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="folder (default resources/corpora/english)")
    args = ap.parse_args(argv)
    counts = write(args.out or resource("corpora", "english"))
    print(", ".join(f"{k}: {v} lines" for k, v in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
