"""Hand-outs of a lesson: a PDF of slides, or one PNG per slide in a folder. Each step's trace is computed
without a window (explorer/handouts/lesson_traces.py) and its page drawn from a scene (explorer/handouts/
lesson_page.py): the step's title, caption and question as text, the figure of its stage as vectors, page
numbers, the lesson's title page and the answers at the end. Used by ``attention-explorer lesson export``.

Everything goes through the one safe writer (explorer/util/fileio.py): a PDF's pages stream into a temporary
file that replaces the target only when it is whole; PNG slides are written into a temporary folder that
becomes the target folder. Nothing else is created or changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QRectF, QSizeF
from PySide6.QtGui import QColor

from explorer.handouts.lesson_page import A4_LANDSCAPE, Page, PageWords, StepText, answer_pages, step_page, title_page
from explorer.handouts.lesson_traces import selection_of, step_traces
from explorer.handouts.targets import check_lesson_target, check_slides_folder
from explorer.handouts.text import plain
from explorer.lessons import Lesson
from explorer.lessons.model import LANGUAGE_NAMES, LessonError
from explorer.util.fileio import atomic_dir


def page_words() -> PageWords:
    from explorer.ui.words.figure_words import figure_words

    text = {
        "question": QCoreApplication.translate("LessonExport", "Question:"),
        "answer": QCoreApplication.translate("LessonExport", "Answer:"),
        "answers": QCoreApplication.translate("LessonExport", "Answers"),
        "step": QCoreApplication.translate("LessonExport", "Step {n} of {total}"),
        "page": QCoreApplication.translate("LessonExport", "{n} / {total}"),
        "steps": QCoreApplication.translate("LessonExport", "{n} steps"),
        "not shown": QCoreApplication.translate("LessonExport", "The figure of this step cannot be drawn here."),
        "no answers": QCoreApplication.translate("LessonExport", "(no question in this lesson)"),
        "ids": QCoreApplication.translate("LessonExport", "Token ids: {ids}"),
    }
    return PageWords(text, figure_words())


def step_text(step, language: str) -> StepText:
    """The step's words in ``language`` (another language's where it has none, with a note): plain text."""
    words, notes = {}, []
    for what in ("title", "caption", "question", "answer"):
        text, note = step.words(what, language)
        words[what] = plain(text)
        if note and what == "caption":
            other = next(iter(step.caption))
            notes.append(
                QCoreApplication.translate(
                    "LessonExport", "This step has no caption in {language}: it is shown in {other}."
                ).format(language=LANGUAGE_NAMES.get(language, language), other=LANGUAGE_NAMES.get(other, other))
            )
    return StepText(notes="; ".join(notes), **words)


class _Slides:
    """The pages of one export, in order, with their numbers; each drawn and handed on one at a time."""

    def __init__(self, lesson: Lesson, language: str, page: Page, answers: bool, words: PageWords) -> None:
        self.lesson, self.language, self.page, self.words = lesson, language, page, words
        self.title = plain(lesson.title_in(language), 500)
        self.texts = [step_text(s, language) for s in lesson.steps]
        for i, t in enumerate(self.texts):
            if not t.title:
                self.texts[i] = StepText(f"{self.title} — {i + 1}", t.caption, t.question, t.answer, t.notes)
        qa = [(i + 1, t.title, t.question, t.answer) for i, t in enumerate(self.texts) if t.question or t.answer]
        self.qa = qa if answers else None
        first = 2 + len(self.texts)
        count = len(answer_pages(self.title, qa, page, first, None, words)) if answers else 0
        self.total = first - 1 + count

    def pages(self, note: Callable[[str], None] | None = None):
        """(file stem, scene) of every page, in order; a step's trace is made just before its page."""
        description = plain(
            self.lesson.description.get(self.language, next(iter(self.lesson.description.values()), ""))
        )
        yield (
            "title",
            title_page(self.title, description, [t.title for t in self.texts], self.page, self.total, self.words),
        )
        for st in step_traces(self.lesson):
            if st.note and note is not None:
                note(f"step {st.index + 1}: {st.note}")
            text = self.texts[st.index]
            yield (
                f"step-{st.index + 1:02d}",
                step_page(
                    self.title,
                    text,
                    st.trace,
                    selection_of(st.state),
                    st.index,
                    len(self.texts),
                    self.page,
                    st.index + 2,
                    self.total,
                    self.words,
                    st.note,
                ),
            )
        if self.qa is not None:
            for k, scene in enumerate(
                answer_pages(self.title, self.qa, self.page, 2 + len(self.texts), self.total, self.words)
            ):
                yield f"answers-{k + 1}", scene


def export_lesson(
    lesson: Lesson,
    out: str | Path,
    language: str,
    size: tuple[int, int] = (1920, 1080),
    answers: bool = True,
    note: Callable[[str], None] | None = None,
) -> tuple[Path, int]:
    """Write ``out`` (a .pdf: A4 landscape slides) or a folder ``out`` of PNG slides of ``size`` pixels.
    Returns the path and the number of pages."""
    out = Path(out)
    words = page_words()
    check_lesson_target(out)  # before any work
    if out.suffix.lower() == ".pdf":
        return out, _write_pdf(_Slides(lesson, language, Page(*A4_LANDSCAPE), answers, words), out, note)
    return out, _write_pngs(_Slides(lesson, language, Page(*size), answers, words), out, note)


def _write_pdf(slides: _Slides, out: Path, note) -> int:
    from explorer.ui.printing.figure_paint import paint_items
    from explorer.ui.printing.pdf_file import pdf_pages

    n = 0
    with pdf_pages(out, QSizeF(slides.page.width, slides.page.height), slides.title, LessonError) as pdf:
        for _stem, scene in slides.pages(note):
            if n:
                pdf.new_page()
            pdf.painter.fillRect(
                QRectF(0, 0, scene.width * pdf.scale, scene.height * pdf.scale), QColor(scene.background)
            )
            paint_items(pdf.painter, scene.items, pdf.scale, crisp_images=True)
            n += 1
    return n


def _write_pngs(slides: _Slides, out: Path, note) -> int:
    from explorer.ui.printing.figure_paint import render_image
    from explorer.ui.printing.pdf_file import image_bytes

    n = 0
    with atomic_dir(out, error=LessonError) as tmp:
        for stem, scene in slides.pages(note):
            data = image_bytes(render_image(scene))
            with open(tmp / f"{stem}.png", "xb") as fh:  # a fresh folder: "x" never follows anything there
                fh.write(data)
            n += 1
        check_slides_folder(out)  # again, just before the old folder is replaced: it may have changed meanwhile
    return n
