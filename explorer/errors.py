"""Errors a user can meet. Each carries a one-line message meant to be shown as is.

The CLI prints ``error: <message>`` and exits with a non-zero code; the window shows the message in a
notice. Anything that is not an ``ExplorerError`` is a bug. ``docs/errors.md`` lists them all.
"""


class ExplorerError(Exception):
    """Base of every error that is the user's to fix (bad input, bad file, too little memory)."""

    exit_code = 2


class ConfigError(ExplorerError, ValueError):
    """A size, mask, dtype or other setting that cannot work."""


class MemoryBudgetError(ConfigError):
    """The configuration would need more memory than the budget allows."""


class InputError(ExplorerError, ValueError):
    """Text that cannot be traced (empty, too long for the model, ...)."""


class SnapshotError(ExplorerError):
    """A snapshot or checkpoint file that cannot be read or written."""


class ModelLoadError(ExplorerError):
    """A model folder or file (checkpoint, Hugging Face, GGUF) that cannot be loaded."""


class Cancelled(ExplorerError):
    """Long work that the user stopped."""

    exit_code = 130


class MaskTooSmall(ConfigError):
    """A painted (explicit) mask with fewer rows than the text has tokens. Its fields say by how much, so that
    the window grows the painting (explorer.session.mask_growth) without reading the sentence."""

    def __init__(self, painted: int, tokens: int) -> None:
        self.painted = painted  # rows (and columns) of the painted matrix
        self.tokens = tokens  # C: the tokens of the text it was asked to mask
        super().__init__(
            f"the painted mask is {painted}×{painted} but the text has {tokens} tokens; paint the new rows or "
            "pick another mask"
        )


class TrivialWorksheet(ConfigError):
    """A sentence whose worksheet exercises would all have the same answer for every key (issue 38). Its fields
    let the window and the CLI say why in the interface's language (explorer/ui/printing/worksheet_export.py)."""

    def __init__(self, query: int, keys: int, unknown: int) -> None:
        self.query = query  # the token the exercises ask about
        self.keys = keys  # the keys it sees, all with the same score
        self.unknown = unknown  # the sentence's tokens outside the toy model's vocabulary (each read as <unk>)
        super().__init__(
            f"no worksheet: its exercises would be trivial (token {query} sees {keys} key(s) with the same score, "
            f"{unknown} token(s) are not in the toy model's vocabulary); write at least two different words it knows"
        )
