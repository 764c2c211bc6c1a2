"""One figure of a trace, from Python: the picture the ``figure`` command draws (explorer/handouts), shown in a
notebook as SVG and saved as SVG, PNG or PDF.

``Figure.of_stage(trace, selection)`` builds the same scene as ``attention-explorer figure TEXT --stage S
--width-mm W -o x.svg`` (W = width_px · 25.4 / 96): its ``svg()`` is that file's text, character for
character, in either language (``language="ja"``: ``--language ja``'s words, read from the shipped .ts
without Qt by explorer/handouts/translated_words.py). SVG is written here in pure Python; PNG and PDF are
painted by Qt in a child process (explorer/api/painting.py), because nothing under explorer.api imports Qt.
"""

from __future__ import annotations

from pathlib import Path

from explorer import vocab
from explorer.errors import ConfigError
from explorer.handouts.scene import PX_PER_INCH, Scene, px_to_mm
from explorer.handouts.svg import svg_text, write_svg


class Figure:
    """A drawn figure: its scene (explorer/handouts/scene.py) in CSS pixels, written in any format."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene

    @classmethod
    def of_stage(
        cls,
        core_trace,
        selection,
        width_px: float = 720.0,
        language: str = "en",
        theme: str = "light",
        tensor: str | None = None,
    ) -> Figure:
        """The stage ``selection.stage`` of a core trace (explorer/trace) as the ``figure`` command draws it,
        ``width_px`` CSS pixels wide (the height follows the figure); ``tensor``: one of the stage's tensors;
        ``language``: the words' language, as ``figure --language`` ("en", "ja")."""
        from explorer.handouts.stage_figure import Frame, stage_scene
        from explorer.handouts.translated_words import figure_words

        words = figure_words(language)  # Qt's translations, read without Qt; an unknown language is one line
        check_theme(theme)
        check_width(width_px)
        return cls(stage_scene(core_trace, selection, Frame(float(width_px)), words, theme, tensor))

    @classmethod
    def of_heads(
        cls,
        core_trace,
        selection,
        width_px: float = 720.0,
        language: str = "en",
        theme: str = "light",
        columns: int | None = None,
    ) -> Figure:
        """Every head of ``selection.layer`` at ``selection.stage`` (a map stage: scores, scaled, masked,
        weights) as small maps on the layer's colour scale, ``columns`` to a row (None: ⌈√H⌉), as
        ``figure --all-heads`` draws them (explorer/handouts/heads_figure.py)."""
        from explorer.handouts.heads_figure import heads_scene
        from explorer.handouts.stage_figure import Frame
        from explorer.handouts.translated_words import figure_words

        words = figure_words(language)
        check_theme(theme)
        check_width(width_px)
        return cls(heads_scene(core_trace, selection, Frame(float(width_px)), words, theme, columns))

    @classmethod
    def of_trace(
        cls, core_trace, selection=None, width_px: float = 720.0, theme: str = "light", language: str = "en"
    ) -> Figure:
        """The notebook's picture of a trace (explorer/api/display.py: the pipeline strip, the selected stage's
        figure, the next-token bars), to save as a file like any figure."""
        from explorer.api.display import trace_scene

        check_theme(theme)
        return cls(trace_scene(core_trace, selection, float(width_px), theme, language))

    # ------------------------------------------------------------------ what it is
    @property
    def title(self) -> str:
        return self.scene.title

    @property
    def size(self) -> tuple[float, float]:
        """(width, height) in CSS pixels (1/96 inch)."""
        return self.scene.width, self.scene.height

    def __repr__(self) -> str:
        w, h = self.size
        return f"<Figure {self.title!r}, {w:g}×{h:g} px>"

    # ------------------------------------------------------------------ formats
    def svg(self) -> str:
        """The standalone SVG file's text (what ``figure … -o x.svg`` writes)."""
        return svg_text(self.scene)

    def png(self, dpi: float = PX_PER_INCH) -> bytes:
        """The figure as a PNG file's bytes; at 96 dpi one pixel per CSS pixel."""
        from explorer.api.painting import painted_bytes

        return painted_bytes(self.scene, ".png", dpi)

    def pdf(self) -> bytes:
        """The figure as a one-page PDF's bytes: vectors, text as text."""
        from explorer.api.painting import painted_bytes

        return painted_bytes(self.scene, ".pdf")

    def save(self, path: str | Path, dpi: float = PX_PER_INCH) -> Path:
        """Write the figure; the ending chooses the format: .svg (here), .png at ``dpi``, .pdf."""
        from explorer.handouts.sizes import output_kind
        from explorer.util.fileio import check_writable_target

        kind = output_kind(path)
        path = Path(path)
        check_writable_target(path)  # a missing folder or a device: said here, before a child process starts
        if kind == "svg":
            write_svg(self.scene, path)
            return path
        from explorer.api.painting import paint

        return paint(self.scene, path, dpi)

    # ------------------------------------------------------------------ notebooks
    def _repr_svg_(self) -> str:
        return svg_text(self.scene, inline=True)

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict[str, str]:
        """SVG (no script, no URL: drawn offline by JupyterLab, Notebook 7, VS Code) and the title as text."""
        return {"image/svg+xml": self._repr_svg_(), "text/plain": repr(self)}


def check_width(width_px: float) -> None:
    if not 20 <= px_to_mm(width_px) <= 2000:  # the figure command's --width-mm limits
        raise ConfigError(f"width_px must lie between 76 and 7559 (20 … 2000 mm), got {width_px:g}")


def check_theme(theme: str) -> None:
    if theme not in vocab.PRINT_THEMES:
        raise ConfigError(f"unknown theme {theme!r}: choose one of {', '.join(vocab.PRINT_THEMES)}")
