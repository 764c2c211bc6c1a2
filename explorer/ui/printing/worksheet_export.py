"""Worksheets as PDF: the exercises of explorer/handouts/worksheet.py on A4 pages, with the words in the
interface language, for the ``worksheet`` command and the window's File → Worksheet…. Written through the
one safe writer (explorer/ui/printing/pdf_file.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QRectF, QSizeF
from PySide6.QtGui import QColor

from explorer.errors import ConfigError, TrivialWorksheet
from explorer.handouts.worksheet import EXERCISES, worksheet
from explorer.handouts.worksheet_page import A4_PORTRAIT, worksheet_pages


def worksheet_words() -> dict[str, str]:
    return {
        "title": QCoreApplication.translate("Worksheet", "Attention by hand"),
        "key title": QCoreApplication.translate("Worksheet", "Attention by hand — answers"),
        "about": QCoreApplication.translate(
            "Worksheet",
            "Text: “{text}” · model {model}, seed {seed} · E = {E}, D = {D}, H = {H} · sentence {row}, head {head}",
        ),
        "name": QCoreApplication.translate("Worksheet", "Name:"),
        "answer": QCoreApplication.translate("Worksheet", "Answer:"),
        "page": QCoreApplication.translate("Worksheet", "{n} / {total}"),
        "qk": QCoreApplication.translate(
            "Worksheet",
            "The dot product of query {i} and key {j} (head {head}): multiply the two vectors term by term and "
            "add. Two decimals.",
        ),
        "scale": QCoreApplication.translate(
            "Worksheet", "Scale the score of cell ({i}, {j}): divide it by √D. Two decimals."
        ),
        "scale off": QCoreApplication.translate(
            "Worksheet", "This run does not scale: S/√D is S itself. Write it with two decimals."
        ),
        "mask": QCoreApplication.translate(
            "Worksheet",
            "Apply the mask ({mask}) to row {i}: keep the cells the mask allows (1), write −∞ where it blocks "
            "(0). Two decimals.",
        ),
        "softmax": QCoreApplication.translate(
            "Worksheet",
            "The softmax of row {i}: e^x for each cell (e^−∞ = 0), then divide each by their sum. Three decimals.",
        ),
        "av": QCoreApplication.translate(
            "Worksheet",
            "Row {i} of A·V (head {head}): the weights of row {i} times the value vectors v₀, v₁ …, added. Two "
            "decimals.",
        ),
        "wo": QCoreApplication.translate(
            "Worksheet",
            "Entry ({i}, {e}) of concat·W_o: the heads' outputs of token {i} side by side, times column {e} of "
            "W_o, added. Two decimals.",
        ),
        "prob": QCoreApplication.translate(
            "Worksheet",
            "The probability that “{token}” comes next: p = e^(l/T) / Z, where Z adds e^(l/T) over all {V} "
            "tokens of the vocabulary (given). Three decimals.",
        ),
        "qk title": QCoreApplication.translate("Worksheet", "q·k for one cell"),
        "scale title": QCoreApplication.translate("Worksheet", "Scaling by √D"),
        "mask title": QCoreApplication.translate("Worksheet", "The mask"),
        "softmax title": QCoreApplication.translate("Worksheet", "Softmax of one row"),
        "av title": QCoreApplication.translate("Worksheet", "One row of A·V"),
        "wo title": QCoreApplication.translate("Worksheet", "One entry of concat·W_o"),
        "prob title": QCoreApplication.translate("Worksheet", "The next token's probability"),
    }


def about(trace, model: str, seed, row: int = 0, head: int = 0) -> dict:
    from explorer.handouts.text import plain

    cfg = trace.config
    return {
        "text": plain(trace.rows[row].text, 200),
        "model": model,
        "seed": "—" if seed is None else seed,
        "E": cfg.E,
        "D": cfg.D,
        "H": cfg.H,
        "row": row,
        "head": head,
    }


def trivial_words(refused: TrivialWorksheet) -> str:
    """Why a sentence makes no worksheet, in one line of the interface's language."""
    why = QCoreApplication.translate(
        "Worksheet",
        "No worksheet for this sentence: its exercises would be trivial. Token {i} sees {k} token(s), all with "
        "the same score, so every weight is the same and no answer depends on which word is which.",
    ).format(i=refused.query, k=refused.keys)
    if refused.unknown:
        why += " " + QCoreApplication.translate(
            "Worksheet", "{u} of its tokens are not in the toy model's vocabulary and are all read as <unk>."
        ).format(u=refused.unknown)
    return (
        why
        + " "
        + QCoreApplication.translate(
            "Worksheet", "Write a sentence of at least two different English words, e.g. “the cat sat”."
        )
    )


def write_documents(documents: list[tuple[list, str | Path]]) -> list[Path]:
    """Each (pages, path) as an A4 PDF, all replaced together or none (explorer/util/atomic_many.py): a sheet
    is never left without its key, nor a key without its sheet."""
    from explorer.util.atomic_many import atomic_paths

    targets = [Path(path) for _, path in documents]
    with atomic_paths(targets) as temporaries:
        for (pages, _), tmp, target in zip(documents, temporaries, targets):
            write_pages(pages, target, into=tmp)
    return targets


def write_pages(pages, path: str | Path, into: Path | None = None) -> Path:
    """``pages`` as the PDF ``path``; ``into``: the temporary to write instead, renamed onto ``path`` by the
    caller (write_documents)."""
    from explorer.ui.printing.figure_paint import paint_items
    from explorer.ui.printing.pdf_file import pdf_into, pdf_pages

    page = QSizeF(*A4_PORTRAIT)
    title = pages[0].title
    opened = pdf_pages(path, page, title) if into is None else pdf_into(into, Path(path), page, title)
    with opened as pdf:
        for n, scene in enumerate(pages):
            if n:
                pdf.new_page()
            pdf.painter.fillRect(
                QRectF(0, 0, scene.width * pdf.scale, scene.height * pdf.scale), QColor(scene.background)
            )
            paint_items(pdf.painter, scene.items, pdf.scale)
    return Path(path)


def write_worksheet(
    trace, sheet: str | Path, key: str | Path | None, info: dict, exercises=EXERCISES, row: int = 0, head: int = 0
) -> list[Path]:
    """The sheet (room to write) and, when asked, its key (every answer). A sentence whose exercises would be
    trivial is refused in the interface's language (the window's, or the CLI's --language)."""
    try:
        exs = worksheet(trace, exercises, row, head)
    except TrivialWorksheet as refused:
        raise ConfigError(trivial_words(refused)) from refused
    words = worksheet_words()
    documents = [(worksheet_pages(exs, info, words, key=False), sheet)]
    if key is not None:
        documents.append((worksheet_pages(exs, info, words, key=True), key))
    return write_documents(documents)
