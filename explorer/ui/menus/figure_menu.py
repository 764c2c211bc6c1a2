"""File → Export view, Export all stages and Worksheet…: the figure of the central view at print quality
(the same code as the ``figure`` command, explorer/ui/printing/figure_export.py), every stage of every layer (or of
the chosen layers) at a chosen size, and a worksheet of the current text with its key."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QProgressDialog,
    QPushButton,
    QSpinBox,
    QWidget,
)

from explorer.errors import ExplorerError
from explorer.ui.menus.file_ops import report_failure
from explorer.ui.preferences import settings
from explorer.util.fileio import describe_os_error


def export_view(parent: QWidget, state, path: str | None = None) -> Path | None:
    """The central view's figure (its stage, layer, head and selected token) as PNG (300 dpi), SVG or PDF."""
    from explorer.handouts.sizes import FORMATS, figure_size  # the handouts load with the first figure
    from explorer.ui.printing.figure_export import write_figure

    if state.trace is None:
        return None
    if path is None:
        path, _ = QFileDialog.getSaveFileName(
            parent,
            QCoreApplication.translate("FigureMenu", "Export view"),
            str(Path(settings.get("last_dir", str(Path.home()))) / "view.png"),
            QCoreApplication.translate("FigureMenu", "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"),
        )
        if not path:
            return None
    if Path(path).suffix.lower() not in FORMATS:
        path = str(Path(path).with_suffix(".png"))
    try:
        out, _ = write_figure(state.trace, state.selection, path, figure_size(), tensor=_view_tensor(parent, state))
    except ExplorerError as exc:
        report_failure(parent, QCoreApplication.translate("FigureMenu", "Export view"), str(exc))
        return None
    settings.put("last_dir", str(Path(path).parent))
    return out


def _view_tensor(parent: QWidget, state) -> str | None:
    """The tensor the central view shows when its stage has several (its Tensor choice), else None."""
    from explorer.present import matrices

    view = parent.views.get("tensor") if hasattr(parent, "views") else None
    chosen = view.current_tensor() if hasattr(view, "current_tensor") else None
    found = matrices.stage_tensors(state.trace, state.selection.stage, state.selection.layer)
    return chosen if chosen in found[1:] else None  # the main tensor (or the Q K V trio) is the default


class StagesDialog(QDialog):
    """Where, which layers, which format and how large: Export all stages."""

    def __init__(self, parent: QWidget | None, folder: str) -> None:
        from explorer.handouts.sizes import DEFAULT_WIDTH_MM, PRINT_DPI

        super().__init__(parent)
        self.setWindowTitle(QCoreApplication.translate("FigureMenu", "Export all stages"))
        self.folder = QLineEdit(folder)
        browse = QPushButton(QCoreApplication.translate("FigureMenu", "Choose…"))
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.folder, 1)
        row.addWidget(browse)
        self.layers = QLineEdit("all")
        self.layers.setToolTip(QCoreApplication.translate("FigureMenu", "all, or layer numbers such as 0,2 or 1-3"))
        self.kind = QComboBox()
        for label, ext in (("PNG", "png"), ("SVG", "svg"), ("PDF", "pdf")):
            self.kind.addItem(label, ext)
        self.width_mm = QDoubleSpinBox(minimum=20, maximum=2000, value=DEFAULT_WIDTH_MM, suffix=" mm")
        self.dpi = QSpinBox(minimum=36, maximum=2400, value=int(PRINT_DPI), suffix=" dpi")
        self.kind.currentIndexChanged.connect(lambda _i: self.dpi.setEnabled(self.kind.currentData() == "png"))
        form = QFormLayout(self)
        form.addRow(QCoreApplication.translate("FigureMenu", "Folder"), row)
        form.addRow(QCoreApplication.translate("FigureMenu", "Layers"), self.layers)
        form.addRow(QCoreApplication.translate("FigureMenu", "Format"), self.kind)
        form.addRow(QCoreApplication.translate("FigureMenu", "Width"), self.width_mm)
        form.addRow(QCoreApplication.translate("FigureMenu", "Resolution"), self.dpi)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self, QCoreApplication.translate("FigureMenu", "Export all stages into folder"), self.folder.text()
        )
        if chosen:
            self.folder.setText(chosen)

    def choices(self) -> dict:
        return {
            "folder": self.folder.text(),
            "layers": self.layers.text(),
            "kind": self.kind.currentData(),
            "width_mm": self.width_mm.value(),
            "dpi": float(self.dpi.value()),
        }


def ask_stages(parent: QWidget | None) -> dict | None:
    dialog = StagesDialog(parent, settings.get("last_dir", str(Path.home())))
    return dialog.choices() if dialog.exec() == QDialog.DialogCode.Accepted else None


def export_all_stages(parent: QWidget, state, choices: dict | None = None):
    """One figure per stage, for every chosen layer, numbered in the order Play walks them; the window's
    selection is not touched (the figures are drawn from the trace). Returns the job slot that writes them,
    or None when nothing is to be written."""
    from explorer.handouts.all_stages import parse_layers, plan
    from explorer.handouts.sizes import figure_size

    trace = state.trace
    if trace is None:
        return None
    choices = choices if choices is not None else ask_stages(parent)
    if not choices or not choices.get("folder"):
        return None
    title = QCoreApplication.translate("FigureMenu", "Export all stages")
    try:
        layers = parse_layers(choices["layers"], trace.layers)
        size = figure_size(choices["width_mm"], None, choices["dpi"])
        folder = Path(choices["folder"])
        files = plan(trace, state.selection, layers, choices["kind"])
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ExplorerError(describe_os_error(exc, folder)) from None
    except ExplorerError as exc:
        report_failure(parent, title, str(exc))
        return None
    return _write_stages_in_background(parent, trace, files, folder, size, title)


def _write_stages_in_background(parent: QWidget, trace, files, folder: Path, size, title: str):
    """The figures are painted off the GUI thread (a job of the window's runner); a progress dialog follows it
    and its Cancel stops between two figures. Returns the job slot (``succeeded`` carries the paths)."""
    from explorer.ui.background.job_runner import runner_of
    from explorer.ui.printing.figure_export import write_figure
    from explorer.ui.words.figure_words import figure_words
    from explorer.work.figures import stage_figures_work

    words = figure_words()  # translated here, on the GUI thread, once for every figure

    def write(name: str, selection, into: Path) -> Path:
        return write_figure(trace, selection, into / name, size, words)[0]

    dialog = QProgressDialog(
        QCoreApplication.translate("FigureMenu", "Exporting stages…"),
        QCoreApplication.translate("FigureMenu", "Cancel"),
        0,
        len(files),
        parent,
    )
    dialog.setMinimumDuration(300)
    slot = runner_of(parent).slot(parent)  # the window's runner stops it when the window closes
    dialog.canceled.connect(slot.cancel)
    slot.progressed.connect(lambda done, _total, _what: dialog.setValue(done))

    def finished(written) -> None:
        dialog.close()
        settings.put("last_dir", str(folder))
        bar = parent.statusBar() if hasattr(parent, "statusBar") else None
        if bar is not None:
            message = QCoreApplication.translate("FigureMenu", "Wrote {n} figures into {folder}")
            bar.showMessage(message.format(n=len(written), folder=folder), 8000)

    def failed(message: str, _error=None) -> None:
        dialog.close()
        report_failure(parent, title, message)

    slot.succeeded.connect(finished)
    slot.cancelled.connect(dialog.close)
    slot.failed.connect(failed)
    slot.submit(stage_figures_work(files, write, folder))
    return slot


def worksheet(parent: QWidget, state, path: str | None = None, anatomy=None):
    """The current text as a worksheet on the note's toy model (seed-toy, the window's seed when it shows
    seed-toy) and its key beside it (NAME-key.pdf). The trace runs off the GUI thread; returns its job slot.
    With a cell chosen (the stepper's, the map's), a dialog first offers that number's anatomy instead
    (``anatomy``: an Offered, written at once, as ``worksheet --anatomy`` writes it; returns the paths)."""
    from explorer.ui.background.job_runner import runner_of
    from explorer.ui.menus import worksheet_dialog
    from explorer.work.worksheet import worksheet_work

    if anatomy is None and path is None and (offer := worksheet_dialog.offered(parent, state)) is not None:
        dialog = worksheet_dialog.WorksheetDialog(parent, offer, state.language)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        cell = dialog.choice()
        anatomy = None if cell is None else worksheet_dialog.Offered(cell, offer.trace)
    if path is None:
        path, _ = QFileDialog.getSaveFileName(
            parent,
            QCoreApplication.translate("FigureMenu", "Worksheet"),
            str(Path(settings.get("last_dir", str(Path.home()))) / "worksheet.pdf"),
            QCoreApplication.translate("FigureMenu", "PDF document (*.pdf)"),
        )
        if not path:
            return None
    sheet = Path(path) if Path(path).suffix.lower() == ".pdf" else Path(path).with_suffix(".pdf")
    key = sheet.with_name(f"{sheet.stem}-key.pdf")
    if anatomy is not None:
        return _write_anatomy(parent, state, anatomy, sheet, key)
    source = state.source
    seed = source.seed if source.kind == "preset" and source.name == "seed-toy" else None
    text = state.text
    title = QCoreApplication.translate("FigureMenu", "Worksheet")

    def write(trace) -> None:
        from explorer.ui.printing.worksheet_export import about, write_worksheet
        from explorer.weights.presets import get_preset

        try:
            write_worksheet(
                trace, sheet, key, about(trace, "seed-toy", seed if seed is not None else get_preset("seed-toy").seed)
            )
        except ExplorerError as exc:
            report_failure(parent, title, str(exc))
            return
        settings.put("last_dir", str(sheet.parent))
        bar = parent.statusBar() if hasattr(parent, "statusBar") else None
        if bar is not None:
            bar.showMessage(
                QCoreApplication.translate("FigureMenu", "Wrote {sheet} and {key}").format(sheet=sheet, key=key), 8000
            )

    slot = runner_of(parent).slot(parent)  # the window's runner stops it when the window closes
    slot.succeeded.connect(write)
    slot.failed.connect(lambda message: report_failure(parent, title, message))
    slot.submit(worksheet_work(text, seed))
    return slot


def _write_anatomy(parent: QWidget, state, anatomy, sheet: Path, key: Path) -> list[Path] | None:
    from explorer.ui.menus.worksheet_dialog import write_anatomy

    try:
        written = write_anatomy(state, anatomy.trace, anatomy.cell, sheet, key)
    except ExplorerError as exc:
        report_failure(parent, QCoreApplication.translate("FigureMenu", "Worksheet"), str(exc))
        return None
    settings.put("last_dir", str(sheet.parent))
    bar = parent.statusBar() if hasattr(parent, "statusBar") else None
    if bar is not None:
        bar.showMessage(
            QCoreApplication.translate("FigureMenu", "Wrote {sheet} and {key}").format(sheet=sheet, key=key), 8000
        )
    return written
