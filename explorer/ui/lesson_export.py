"""Hand-outs: a lesson as slides, rendered by the real window offscreen. One page per step in a PDF (Qt's
QPdfWriter) or one PNG per step, each with the step's title, caption, question and answer above the window
as the step shows it. Used by ``attention-explorer lesson export``."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QEventLoop, QMarginsF, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication

from explorer.util.fileio import describe_os_error
from explorer.lessons import Lesson
from explorer.lessons.model import LessonError

STEP_TIMEOUT_MS = 120_000


def _wait_for_step(app: QApplication, window, go) -> None:
    """Show a step and wait until its trace (if it needs one) is on screen and every view has drawn."""
    from explorer.ui.render_queue import render_queue

    state = window.state
    before, had_trace = state.request, state.trace
    failed: list[str] = []
    loop = QEventLoop()
    on_trace = lambda _t: loop.quit()  # noqa: E731
    on_error = lambda m: (failed.append(m), loop.quit())  # noqa: E731
    state.traceChanged.connect(on_trace)
    state.errorRaised.connect(on_error)
    try:
        go()
        if state.request != before or had_trace is None:
            QTimer.singleShot(STEP_TIMEOUT_MS, loop.quit)
            loop.exec()
    finally:
        state.traceChanged.disconnect(on_trace)
        state.errorRaised.disconnect(on_error)
    if failed:
        raise LessonError(f"step {window.lessons.player.index + 1} cannot be shown: {failed[0]}")
    app.processEvents()
    render_queue().flush()
    app.processEvents()


def _words_html(words: dict[str, str], labels: dict[str, str]) -> str:
    import html

    parts = [f"<h2>{html.escape(words['title'])}</h2>", f"<p>{html.escape(words['caption'])}</p>"]
    if words["question"]:
        parts.append(f"<p><b>{labels['question']}</b> {html.escape(words['question'])}</p>")
    if words["answer"]:
        parts.append(f"<p><b>{labels['answer']}</b> {html.escape(words['answer'])}</p>")
    if words["notes"]:
        parts.append(f"<p style='color:#666'><i>{html.escape(words['notes'])}</i></p>")
    return "".join(parts)


def _draw_page(painter: QPainter, rect: QRect, html: str, picture: QImage | None, font: QFont) -> None:
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setTextWidth(rect.width())
    doc.setHtml(html)
    painter.save()
    painter.translate(rect.topLeft())
    doc.drawContents(painter)
    painter.restore()
    top = rect.top() + int(doc.size().height()) + rect.height() // 60
    if picture is None or picture.isNull():
        return
    room = QRect(rect.left(), top, rect.width(), rect.bottom() - top)
    scaled = picture.size().scaled(room.size(), Qt.AspectRatioMode.KeepAspectRatio)
    target = QRect(room.left() + (room.width() - scaled.width()) // 2, room.top(), scaled.width(), scaled.height())
    painter.drawImage(target, picture)


def export_lesson(lesson: Lesson, out: str | Path, language: str, size: tuple[int, int] = (1400, 900)) -> list[Path]:
    """Write ``out`` (a .pdf: one page per step) or one PNG per step into the folder ``out``. Returns the
    files written."""
    from explorer.lessons import DEFAULT_START
    from explorer.ui import i18n, theme
    from explorer.ui.app import create_application
    from explorer.ui.lesson_bar import step_words
    from explorer.ui.main_window import MainWindow
    from explorer.ui.state import AppState

    out = Path(out)
    pdf = out.suffix.lower() == ".pdf"
    if pdf and not out.parent.is_dir():
        raise LessonError(f"cannot write {out}: the folder does not exist")
    if not pdf:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LessonError(describe_os_error(exc, out)) from None
    app = create_application()
    theme.apply_theme("light")  # paper is white
    i18n.install_language(language)
    state = AppState()
    window = MainWindow(state, restore_layout=False)
    window.persist = False
    window.resize(*size)
    window.actions_.language_actions[language].setChecked(True)
    window.lessons.retranslate()
    window.show()
    player = window.lessons.player
    labels = {"question": app.translate("LessonExport", "Question:"), "answer": app.translate("LessonExport", "Answer:")}
    written: list[Path] = []
    try:
        _wait_for_step(app, window, window.start)
        pages = []
        for i in range(len(lesson.steps)):
            if i == 0:  # folded over the default start, as `lesson check` validated it
                _wait_for_step(app, window, lambda: player.open(lesson, 0, DEFAULT_START))
                window.lessons.toolbar.hide()  # the page says the words above the picture, once
            else:
                _wait_for_step(app, window, lambda i=i: player.go(i))
            words = step_words(player, language)
            if not words["title"]:
                words["title"] = f"{lesson.title_in(language)} — {i + 1}"
            picture = None if player.note else window.grab().toImage()
            pages.append((_words_html(words, labels), picture))
        if pdf:
            written = [_write_pdf(out, pages, window.font())]
        else:
            for i, (html, picture) in enumerate(pages):
                path = out / f"step-{i + 1:02d}.png"
                _write_png(path, html, picture, window.font(), size)
                written.append(path)
    finally:
        window.close()
    return written


def _write_pdf(out: Path, pages, font: QFont) -> Path:
    tmp = out.with_name(f".{out.name}.part")
    writer = QPdfWriter(str(tmp))
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Landscape, QMarginsF(12, 12, 12, 12)))
    writer.setResolution(150)
    writer.setTitle("Attention Explorer lesson")
    painter = QPainter()
    if not painter.begin(writer):
        raise LessonError(f"cannot write {out}: the PDF could not be started")
    page_font = QFont(font)
    page_font.setPointSizeF(11)
    try:
        for n, (html, picture) in enumerate(pages):
            if n:
                writer.newPage()
            _draw_page(painter, painter.viewport(), html, picture, page_font)
    finally:
        painter.end()
    try:
        os.replace(tmp, out)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise LessonError(describe_os_error(exc, out)) from None
    return out


def _write_png(path: Path, html: str, picture: QImage | None, font: QFont, size: tuple[int, int]) -> None:
    width = (picture.width() if picture is not None else size[0]) + 48  # the window at its own pixels: sharp
    doc = QTextDocument()
    page_font = QFont(font)
    page_font.setPointSizeF(font.pointSizeF() * 1.3)
    doc.setDefaultFont(page_font)
    doc.setTextWidth(width - 48)
    doc.setHtml(html)
    text_h = int(doc.size().height()) + 24
    pic_h = picture.height() * width // max(1, picture.width()) if picture is not None else 0
    image = QImage(QSize(width, text_h + pic_h + 24), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    try:
        _draw_page(painter, QRect(24, 12, width - 48, image.height() - 24), html, picture, page_font)
    finally:
        painter.end()
    if not image.save(str(path), "PNG"):
        raise LessonError(f"cannot write {path}")

