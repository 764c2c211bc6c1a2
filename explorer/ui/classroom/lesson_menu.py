"""The Lesson menu: open the built-in lesson or a file, recent lessons, present; authoring (add this view as a
step, edit steps, save). It owns the player and the lesson bar; opening and saving files goes through
explorer.lessons (validation there, one-line errors to the status bar)."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QListWidget,
    QMenu,
    QPushButton,
    QToolBar,
    QVBoxLayout,
)

from explorer import lessons
from explorer.errors import ExplorerError
from explorer.lessons import Lesson, Step
from explorer.lessons.model import recorded_settings
from explorer.ui.bridge.lesson_player import LessonPlayer
from explorer.ui.classroom.lesson_bar import LessonBar
from explorer.ui.preferences import settings
from explorer.ui.words.plain_text import menu_text
from explorer.util.printable import escaped

RECENT_KEY = "lessons/recent"
MAX_RECENT = 8


def recent_lessons() -> list[str]:
    value = settings.get_json(RECENT_KEY, [])
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def add_recent_lesson(path: str) -> None:
    settings.put_json(RECENT_KEY, [path] + [p for p in recent_lessons() if p != path][: MAX_RECENT - 1])


class LessonMenu(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self.state = window.state
        self.player = LessonPlayer(self.state, self.show_panel, self)
        self.bar = LessonBar(self.player)
        self.toolbar = QToolBar(window)
        self.toolbar.setObjectName("toolbar.lesson")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(self.bar)
        window.addToolBarBreak(Qt.ToolBarArea.TopToolBarArea)
        window.addToolBar(Qt.ToolBarArea.TopToolBarArea, self.toolbar)
        self.toolbar.hide()
        self.path: str | None = None  # where the lesson being played or edited was opened from or saved to
        self.player.lessonChanged.connect(self._on_lesson)

        mb = window.menuBar()
        self.menu = QMenu(window)
        help_menu = getattr(getattr(window, "actions_", None), "help_menu", None)
        mb.insertMenu(help_menu.menuAction(), self.menu) if help_menu is not None else mb.addMenu(self.menu)
        a = self._act
        self.open_builtin = a(self.open_builtin_lesson)
        self.open_file = a(self.open_lesson_file, "Ctrl+L")
        self.recent_menu = QMenu(window)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.present = a(self.present_lesson, "Shift+F5")
        self.add_step_action = a(self._add_step_dialog, "Ctrl+Shift+A")
        self.edit_steps = a(self._edit_steps_dialog)
        self.save_as = a(self._save_dialog)
        self.close_lesson = a(self.player.close)
        self.menu.addActions([self.open_builtin, self.open_file])
        self.menu.addMenu(self.recent_menu)
        self.menu.addAction(self.present)
        self.menu.addSeparator()
        self.menu.addActions([self.add_step_action, self.edit_steps, self.save_as])
        self.menu.addSeparator()
        self.menu.addAction(self.close_lesson)
        # ← → move through the steps while the window has focus outside a text box (Alt+← → anywhere).
        self.next_step = a(self.player.next, "Alt+Right")
        self.previous_step = a(self.player.previous, "Alt+Left")
        window.addActions([self.next_step, self.previous_step])
        self._on_lesson(None)
        for code, act in getattr(getattr(window, "actions_", None), "language_actions", {}).items():
            act.toggled.connect(lambda on, code=code: on and self.bar.set_language(code))  # captions follow the UI
        self.retranslate()

    def _act(self, slot, shortcut=None) -> QAction:
        act = QAction(self.w)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(lambda _checked=False: slot())
        return act

    def retranslate(self) -> None:
        self.menu.setTitle(self.tr("&Lesson"))
        self.open_builtin.setText(self.tr("Open the &built-in lesson"))
        self.open_builtin.setToolTip(self.tr("Attention, following the lecture note, step by step"))
        self.open_file.setText(self.tr("&Open lesson file…"))
        self.recent_menu.setTitle(self.tr("&Recent lessons"))
        self.present.setText(self.tr("&Present the lesson"))
        self.add_step_action.setText(self.tr("&Add this view as a step…"))
        self.edit_steps.setText(self.tr("&Edit steps…"))
        self.save_as.setText(self.tr("&Save lesson as…"))
        self.close_lesson.setText(self.tr("&Close the lesson"))
        self.next_step.setText(self.tr("Next step"))
        self.previous_step.setText(self.tr("Previous step"))
        self.toolbar.setWindowTitle(self.tr("Lesson"))
        self.bar.set_language(self.language())

    def language(self) -> str:
        actions = getattr(getattr(self.w, "actions_", None), "language_actions", {})
        return next((code for code, act in actions.items() if act.isChecked()), "en")

    # ------------------------------------------------------------------ playing
    def show_panel(self, name: str) -> None:
        if name in self.w.docks:
            self.w.open_panel(name)

    def open_lesson(self, source: str, step: int = 0) -> bool:
        """Open a file (or ``builtin``) and show ``step``; a bad file is one line in the status bar."""
        try:
            lesson = lessons.read_lesson(source)
        except ExplorerError as exc:
            self.state.report_error(str(exc))
            return False
        self.path = None if source == lessons.BUILTIN else str(source)
        if source != lessons.BUILTIN:
            add_recent_lesson(str(source))
        self.player.open(lesson, max(0, min(step, len(lesson.steps) - 1)))
        return True

    def open_builtin_lesson(self) -> None:
        self.open_lesson(lessons.BUILTIN)

    def open_lesson_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.w, self.tr("Open lesson"), "", self.tr("Lessons (*.toml);;All files (*)")
        )
        if path:
            self.open_lesson(path)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        self.recent_menu.setToolTipsVisible(True)
        for path in recent_lessons():
            action = self.recent_menu.addAction(menu_text(path))  # a long path shortened in the middle …
            action.setData(path)
            action.setToolTip(path)  # … and whole when pointed at
            action.triggered.connect(partial(self.open_lesson, path))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(self.tr("Nothing opened yet")).setEnabled(False)

    def present_lesson(self) -> None:
        if self.player.lesson is None:
            self.open_lesson(lessons.BUILTIN)
        from explorer.ui.classroom import lesson_present

        lesson_present.show_for(self.player, self.bar, self.w)

    def _on_lesson(self, lesson: Lesson | None) -> None:
        self.toolbar.setVisible(lesson is not None)
        for act in (self.present, self.edit_steps, self.save_as, self.close_lesson):
            act.setEnabled(True if act is self.present else lesson is not None)

    # ------------------------------------------------------------------ authoring
    def add_step(self, caption: str, title: str = "") -> None:
        """Record the window as a new step after the last one of the lesson being edited (a new lesson if
        none is open). The window already shows it: nothing is re-applied."""
        language = self.language()
        current = self.player.lesson or Lesson(title={language: self.tr("My lesson")}, steps=(), languages=(language,))
        if language not in current.languages:
            current = Lesson(
                current.title, current.steps, (*current.languages, language), current.description, current.source
            )
        panel = self._front_panel()
        step = Step(
            caption={language: caption},
            title={language: title} if title else {},
            settings=recorded_settings(self.state.read_lesson_step(panel)),
        )
        lesson = current.with_steps((*current.steps, step))
        self.player.replace_lesson(lesson, len(lesson.steps) - 1)

    def _front_panel(self) -> str | None:
        """The panel the lesson brought to the front at the step being shown (a step records it again)."""
        if self.player.lesson is None or self.player.index < 0:
            return None
        return self.player.resolved().panel

    def move_step(self, index: int, delta: int) -> None:
        lesson = self.player.lesson
        if lesson is None or not 0 <= index + delta < len(lesson.steps):
            return
        steps = list(lesson.steps)
        steps[index], steps[index + delta] = steps[index + delta], steps[index]
        self.player.replace_lesson(lesson.with_steps(steps))

    def delete_step(self, index: int) -> None:
        lesson = self.player.lesson
        if lesson is None:
            return
        steps = [s for i, s in enumerate(lesson.steps) if i != index]
        if not steps:
            self.player.close()
        else:
            self.player.replace_lesson(lesson.with_steps(steps))

    def save_to(self, path: str) -> bool:
        if self.player.lesson is None:
            return False
        try:
            lessons.save_lesson(self.player.lesson, path)
        except ExplorerError as exc:
            self.state.report_error(str(exc))
            return False
        self.path = path
        add_recent_lesson(path)
        return True

    def _add_step_dialog(self) -> None:
        text, ok = QInputDialog.getMultiLineText(
            self.w, self.tr("Add this view as a step"), self.tr("Caption for the class:")
        )
        if ok and text.strip():
            self.add_step(text.strip())

    def _save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self.w, self.tr("Save lesson"), self.path or "lesson.toml", self.tr("Lessons (*.toml)")
        )
        if path:
            self.save_to(path)

    def _edit_steps_dialog(self) -> None:
        if self.player.lesson is not None:
            StepsDialog(self, self.w).exec()


class StepsDialog(QDialog):
    """Reorder and delete the steps of the lesson being edited."""

    def __init__(self, menu: LessonMenu, parent=None) -> None:
        super().__init__(parent)
        self.menu = menu
        self.setWindowTitle(self.tr("Edit steps"))
        self.list = QListWidget()
        up, down, delete = (
            QPushButton(self.tr("Move up")),
            QPushButton(self.tr("Move down")),
            QPushButton(self.tr("Delete")),
        )
        up.clicked.connect(lambda: self._move(-1))
        down.clicked.connect(lambda: self._move(1))
        delete.clicked.connect(self._delete)
        buttons = QHBoxLayout()
        for b in (up, down, delete):
            buttons.addWidget(b)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.list)
        lay.addLayout(buttons)
        lay.addWidget(close)
        self._fill()

    def _fill(self, current: int = 0) -> None:
        self.list.clear()
        lesson = self.menu.player.lesson
        if lesson is None:
            return
        language = self.menu.language()
        for i, step in enumerate(lesson.steps):
            title = step.words("title", language)[0] or step.words("caption", language)[0]
            self.list.addItem(f"{i + 1}. {escaped(title[:80])}")
        self.list.setCurrentRow(max(0, min(current, self.list.count() - 1)))

    def _move(self, delta: int) -> None:
        row = self.list.currentRow()
        self.menu.move_step(row, delta)
        self._fill(row + delta)

    def _delete(self) -> None:
        row = self.list.currentRow()
        self.menu.delete_step(row)
        self._fill(row)
