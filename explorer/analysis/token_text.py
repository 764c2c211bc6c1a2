"""How a token's text piece reads on a chip or an axis: whitespace and control characters made visible."""

from __future__ import annotations

_VISIBLE = {" ": "␣", "\t": "⇥", "\n": "↵", "\r": "␍", "\u3000": "□"}
# Other C0 controls and DEL as their Unicode "control pictures" (U+2400 …): typed or pasted control
# characters would otherwise be invisible on a chip, and raw in a terminal they can move the cursor or
# recolour it (escape sequences in a CLI notice).
_VISIBLE.update({chr(c): chr(0x2400 + c) for c in range(0x20) if chr(c) not in _VISIBLE})
_VISIBLE["\x7f"] = "␡"
# Bidirectional overrides reorder the text around them (a notice could read backwards): show their code.
_VISIBLE.update({chr(c): f"<U+{c:04X}>" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))})


def visible(piece: str) -> str:
    """'pen' → 'pen', ' ' → '␣', ' is' → '␣is', '' → '∅' (a token with no text of its own), '\\x01' → '␁'."""
    if piece == "":
        return "∅"
    return "".join(_VISIBLE.get(ch, ch) for ch in piece)


def valid_text(text: str) -> tuple[str, bool]:
    """(text with lone surrogates replaced by U+FFFD, whether any were). A command-line argument with bytes
    that are not UTF-8 arrives as lone surrogates, which the tokenizer library refuses with a TypeError."""
    try:
        text.encode("utf-8")
        return text, False
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text), True
