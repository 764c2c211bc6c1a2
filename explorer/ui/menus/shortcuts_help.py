"""Help → Keyboard shortcuts (F1): every shortcut the window has, read from its actions and shortcut objects.

A hand-written list went stale (it listed 7 and left out Ctrl+L, Shift+F5, Ctrl+Shift+A, Ctrl+T,
Ctrl+Shift+E and Ctrl+Q, issue 22): this one is generated from what the window answers to, with each
action's own menu text, and the keys a panel reads itself (the stage keys) named by that panel.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTableWidget, QTableWidgetItem, QVBoxLayout


def _words(text: str) -> str:
    """A menu text as a sentence: no mnemonic ampersands, no trailing ellipsis."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").removesuffix("…").strip()


def shortcut_rows(window) -> list[tuple[str, str]]:
    """(keys, what they do) for every action and shortcut of ``window`` that has keys, in menu order, then
    the keys the panels read themselves (``key_help()`` of a view)."""
    rows: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add(keys: list[QKeySequence], text: str) -> None:
        shown = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys if not k.isEmpty())
        if shown and text and (shown, text) not in seen:
            seen.add((shown, text))
            rows.append((shown, text))

    for action in window.findChildren(QAction):
        add(action.shortcuts(), _words(action.text() or action.toolTip()))
    for shortcut in window.findChildren(QShortcut):
        add([shortcut.key()], shortcut.whatsThis())
    access = getattr(getattr(window, "actions_", None), "access", None)
    for keys, text in access.shortcut_rows() if access is not None else []:  # Tab and a map's arrow keys
        if (keys, text) not in seen:
            seen.add((keys, text))
            rows.append((keys, text))
    for view in getattr(window, "views", {}).built() if hasattr(getattr(window, "views", None), "built") else []:
        for keys, text in getattr(view, "key_help", lambda: [])():
            add([QKeySequence(keys)] if isinstance(keys, str) else keys, text)
    return rows


def show_shortcuts(window) -> QDialog:
    dialog = QDialog(window)
    dialog.setObjectName("ShortcutsDialog")
    dialog.setWindowTitle(QCoreApplication.translate("Shortcuts", "Keyboard shortcuts"))
    rows = shortcut_rows(window)
    table = QTableWidget(len(rows), 2, dialog)
    table.setHorizontalHeaderLabels(
        [QCoreApplication.translate("Shortcuts", "Keys"), QCoreApplication.translate("Shortcuts", "What they do")]
    )
    table.verticalHeader().hide()
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    for r, (keys, text) in enumerate(rows):
        table.setItem(r, 0, QTableWidgetItem(keys))
        table.setItem(r, 1, QTableWidgetItem(text))
    table.resizeColumnsToContents()
    table.horizontalHeader().setStretchLastSection(True)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    lay = QVBoxLayout(dialog)
    lay.addWidget(table)
    lay.addWidget(buttons)
    dialog.resize(min(720, window.width()), min(560, window.height()))
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()  # not exec(): the window keeps running (a trace may arrive meanwhile)
    return dialog
