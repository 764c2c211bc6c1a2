"""How a token's text piece reads on a chip or an axis: whitespace made visible."""

from __future__ import annotations

_VISIBLE = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "␍", "\u3000": "□"}


def visible(piece: str) -> str:
    """'pen' → 'pen', ' ' → '␣', ' is' → '␣is', '' → '∅' (a token with no text of its own)."""
    if piece == "":
        return "∅"
    return "".join(_VISIBLE.get(ch, ch) for ch in piece)
