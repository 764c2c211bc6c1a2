"""What a token chip's marks mean, in the interface's language: the ``␣`` in front of a piece and its id. The
chips' tooltips and Help → Reading the tokens say the same words (issue 38: they were explained nowhere)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

SPACE_MARK = "␣"  # explorer.analysis.token_text.visible draws a piece's leading space as this


def space_meaning() -> str:
    """What ``␣`` in front of a piece says."""
    return QCoreApplication.translate(
        "TokenWords",
        "␣ is a space glued to the front of the word: “␣is” is “ is” with its space. A piece with ␣ starts a new "
        "word; a piece without it continues the word before it.",
    )


def id_meaning(token_id: int) -> str:
    """What a chip's number says."""
    return QCoreApplication.translate(
        "TokenWords", "id {id}: the row of the embedding table W_E that holds this token's vector"
    ).format(id=token_id)


def chip_tip(head: str, shown: str, token_id: int) -> str:
    """A chip's tooltip: its ``head`` line, what its id is, and what ``␣`` means when the piece has one."""
    lines = [head, id_meaning(token_id)]
    if SPACE_MARK in shown:
        lines.append(space_meaning())
    return "\n".join(lines)


def reading_tokens() -> str:
    """Help → Reading the tokens: every mark a chip can carry."""
    return "\n\n".join(
        (
            QCoreApplication.translate(
                "TokenWords",
                "The Text panel shows the sentence cut into tokens, the pieces the model reads. Each chip is one "
                "token with its id.",
            ),
            space_meaning(),
            QCoreApplication.translate(
                "TokenWords",
                "The number on a chip is its id: the row of the embedding table W_E that holds the token's vector. "
                "The Embed stage reads that row.",
            ),
            QCoreApplication.translate(
                "TokenWords", "A dashed chip is not in the vocabulary: the model reads it as <unk>."
            ),
            QCoreApplication.translate(
                "TokenWords", "私(1/3): one character split over three byte tokens, shown as the character on each."
            ),
        )
    )
