"""What an intervened run changes, as plain frozen data (recorded in the snapshot manifest), and the parsers
of the command line's spellings: ``--ablate 1.0,1.2``, ``--cut 0.1:3:2``, ``--patch layers.0.out@1,2#0``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from explorer import names
from explorer.errors import ConfigError
from explorer.util.printable import quoted, shown
from explorer.vocab import ABLATE_MODES

# No layer (≤ 256), head (≤ 256) or position (≤ 8,192 in one trace) reaches this: a larger number is a typo, and
# a range up to it (`@0-300000000` once built a list of 12 GB) or a 5000-digit number (int() refused it with a
# traceback) is refused before anything is built.
MAX_INDEX = 65_535

# Public names that are only recorded (the maps are derived, probs follows logits) or are inputs: replacing
# them would change nothing downstream, so patching them is refused rather than silently ignored.
_NOT_PATCHABLE = {"tokens", "mask", "mask.empty_rows", "probs", "baseline.logits", "baseline.probs"}


def patchable(name: str) -> bool:
    """Whether activation ``name`` can be patched from another text (here, without torch: the window's form
    lists these)."""
    try:
        entry = names.spec(name)
    except KeyError:
        return False
    return not (
        entry.is_param
        or entry.pairwise
        or name in _NOT_PATCHABLE
        or name.endswith(".rope_angles")  # recorded only: the model turns q and k by its own cos and sin
        or name.startswith("cache.")
    )


@dataclass(frozen=True)
class HeadAblation:
    """Replace head ``head`` of layer ``layer``'s Rⁱ by zeros, or by its mean over the sentence's positions."""

    layer: int
    head: int
    mode: str = "zero"


@dataclass(frozen=True)
class EdgeCut:
    """Query ``query`` of head ``head`` in layer ``layer`` may not attend to key ``key`` (−∞ before the softmax)."""

    layer: int
    head: int
    query: int
    key: int


@dataclass(frozen=True)
class PatchSpec:
    """Take activation ``name`` from the run of the patch source, at these positions and heads (None: all)."""

    name: str
    positions: tuple[int, ...] | None = None
    heads: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Interventions:
    ablations: tuple[HeadAblation, ...] = ()
    cuts: tuple[EdgeCut, ...] = ()
    patches: tuple[PatchSpec, ...] = ()
    patch_from: str | None = None  # the text whose run the patches read

    @property
    def empty(self) -> bool:
        return not (self.ablations or self.cuts or self.patches)

    def to_dict(self) -> dict[str, Any]:
        """The manifest's ``interventions`` entry (docs/snapshot-format.md)."""
        return {
            "ablations": [{"layer": a.layer, "head": a.head, "mode": a.mode} for a in self.ablations],
            "cuts": [{"layer": c.layer, "head": c.head, "query": c.query, "key": c.key} for c in self.cuts],
            "patches": [
                {
                    "name": p.name,
                    "positions": list(p.positions) if p.positions is not None else None,
                    "heads": list(p.heads) if p.heads is not None else None,
                }
                for p in self.patches
            ],
            "patch_from": self.patch_from,
        }


def _int(text: str, what: str, spelled: str) -> int:
    text = text.strip()
    if not re.fullmatch(r"\d+", text, flags=re.ASCII):
        raise ConfigError(f"{what} {quoted(spelled)}: expected whole numbers, e.g. {_EXAMPLES[what]}")
    if len(text.lstrip("0")) > len(str(MAX_INDEX)) or int(text) > MAX_INDEX:
        raise ConfigError(
            f"{what} {quoted(spelled)}: {shown(text, 20)} is larger than any layer, head or position (at most "
            f"{MAX_INDEX:,})"
        )
    return int(text)


_EXAMPLES = {
    "--ablate": "--ablate 0.1,1.3 (layer.head)",
    "--cut": "--cut 0.1:3:2 (layer.head:query:key)",
    "--patch": "--patch layers.0.out@1,2#0 (name@positions#heads)",
}


def parse_ablate(text: str, mode: str = "zero") -> tuple[HeadAblation, ...]:
    """``"0.1,1.3"`` → heads 1 of layer 0 and 3 of layer 1."""
    if mode not in ABLATE_MODES:
        raise ConfigError(f"--ablate-mode must be zero or mean, got {quoted(mode)}")
    out = []
    for item in (s for s in text.split(",") if s.strip()):
        layer, dot, head = item.strip().partition(".")
        if not dot:
            raise ConfigError(f"--ablate {quoted(item.strip())}: expected layer.head, e.g. {_EXAMPLES['--ablate']}")
        out.append(HeadAblation(_int(layer, "--ablate", item), _int(head, "--ablate", item), mode))
    return tuple(out)


def parse_cut(text: str) -> tuple[EdgeCut, ...]:
    """``"0.1:3:2"`` → in layer 0, head 1, query 3 may not see key 2."""
    out = []
    for item in (s.strip() for s in text.split(",") if s.strip()):
        m = re.fullmatch(r"(\d+)\.(\d+):(\d+):(\d+)", item, flags=re.ASCII)
        if not m:
            raise ConfigError(f"--cut {quoted(item)}: expected layer.head:query:key, e.g. {_EXAMPLES['--cut']}")
        out.append(EdgeCut(*(_int(g, "--cut", item) for g in m.groups())))
    return tuple(out)


def _numbers(text: str, spelled: str) -> list[int]:
    """``"1-3"`` → [1, 2, 3]; single numbers as they are."""
    lo, dash, hi = text.partition("-")
    if dash:
        a, b = _int(lo, "--patch", spelled), _int(hi, "--patch", spelled)
        if b < a:
            raise ConfigError(f"--patch {quoted(spelled)}: the range {text} runs backwards")
        return list(range(a, b + 1))
    return [_int(text, "--patch", spelled)]


def parse_patch(text: str) -> tuple[PatchSpec, ...]:
    """``"layers.0.out@1,2,layers.1.attn.heads#0-2"`` → two patches. Commas separate patches and the numbers
    of one list: an item starting with a digit continues the list before it (positions, or heads after #)."""
    items: list[list] = []  # [name, positions list or None, heads list or None, which list is open]
    for raw in (s.strip() for s in text.split(",") if s.strip()):
        if raw[0].isdigit():
            if not items or items[-1][3] is None:
                raise ConfigError(
                    f"--patch {quoted(text)}: numbers must follow a name's @ or #, e.g. {_EXAMPLES['--patch']}"
                )
            more, hash_, heads = raw.partition("#")  # "4#1": the last position, then the heads
            if hash_ and items[-1][3] != 1:
                raise ConfigError(
                    f"--patch {quoted(text)}: expected NAME[@POSITIONS][#HEADS], e.g. {_EXAMPLES['--patch']}"
                )
            items[-1][items[-1][3]].extend(_numbers(more, raw))
            if hash_:
                items[-1][2], items[-1][3] = _numbers(heads, raw), 2
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.]+)(?:@([0-9-]+))?(?:#([0-9-]+))?", raw)
        if not m:
            raise ConfigError(f"--patch {quoted(raw)}: expected NAME[@POSITIONS][#HEADS], e.g. {_EXAMPLES['--patch']}")
        name, pos, heads = m.groups()
        positions = _numbers(pos, raw) if pos else None
        head_list = _numbers(heads, raw) if heads else None
        items.append([name, positions, head_list, 2 if heads else (1 if pos else None)])
    return tuple(
        PatchSpec(n, tuple(sorted(set(p))) if p is not None else None, tuple(sorted(set(h))) if h is not None else None)
        for n, p, h, _ in items
    )
