"""The View menu's entries for every student (issue 27): Colours (the palette of every map, colour bar and
bar chart), Text size (Ctrl+= larger, Ctrl+− smaller, Ctrl+0 back to 100 %) and As table (the focused map's
numbers as an accessible table, Ctrl+Shift+T) and Go to the map (F6). Built by ``Actions`` after its own
menus; a choice goes to the window's state (it records it and has it applied and remembered:
explorer/ui/preferences/choices.py)."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QWidget

from explorer import vocab
from explorer.present import palettes
from explorer.ui.preferences import palette_choice

# (what the user presses, what it does): the rows F1 lists for these entries and the map's keys.
LARGER, SMALLER, RESET, AS_TABLE = "Ctrl+=", "Ctrl+-", "Ctrl+0", "Ctrl+Shift+T"
# F6 moves between a window's main parts in most programs: here it brings the keyboard to the map (issue 38:
# 30 presses of Tab never reached it).
TO_MAP = "F6"


class AccessMenu(QObject):
    def __init__(self, actions) -> None:
        super().__init__(actions)
        self.w = w = actions.w
        self.state = actions.state
        self.colours_menu = QMenu(w)
        self.palette_group = QActionGroup(w)
        self.palette_actions: dict[str, QAction] = {}
        for key in vocab.PALETTES:
            a = QAction(w)
            a.setCheckable(True)
            a.triggered.connect(partial(self.set_palette, key))
            self.palette_group.addAction(a)
            self.colours_menu.addAction(a)
            self.palette_actions[key] = a
        self.text_menu = QMenu(w)
        self.larger = self._act(lambda: self.text_step(+1), [LARGER, "Ctrl++", QKeySequence.StandardKey.ZoomIn])
        self.smaller = self._act(lambda: self.text_step(-1), [SMALLER, QKeySequence.StandardKey.ZoomOut])
        self.reset_text = self._act(lambda: self.text_step(0), [RESET])
        self.text_menu.addActions([self.larger, self.smaller, self.reset_text])
        self.as_table = self._act(self.show_table, [AS_TABLE])
        self.to_map = self._act(self.go_to_map, [TO_MAP])
        v = actions.view_menu
        v.addSeparator()
        v.addMenu(self.colours_menu)
        v.addMenu(self.text_menu)
        v.addAction(self.as_table)
        v.addAction(self.to_map)
        self.sync()

    def _act(self, slot, keys) -> QAction:
        a = QAction(self.w)
        sequences = []
        for k in keys:
            sequences += QKeySequence.keyBindings(k) if isinstance(k, QKeySequence.StandardKey) else [QKeySequence(k)]
        unique = []
        for s in sequences:
            if not s.isEmpty() and s not in unique:
                unique.append(s)
        a.setShortcuts(unique)
        a.triggered.connect(slot)
        return a

    def text_step(self, direction: int) -> None:
        """One text size larger (+1), smaller (−1) or back to 100 % (0), remembered."""
        self.state.step_text_size(direction, remember=getattr(self.w, "persist", True))

    def set_palette(self, key: str) -> None:
        self.state.set_palette(key, remember=getattr(self.w, "persist", True))
        self.sync()

    def show_table(self):
        from explorer.ui.views.map.map_table import show_table

        return show_table(self.w)

    def go_to_map(self) -> QWidget | None:
        """The keyboard's focus on the map in the centre (the largest one shown: the head's map, or Q of the
        three side by side); its arrow keys then walk the cells. Returns the widget focused."""
        from explorer.ui.views.map.heatmap import Heatmap

        centre = self.w.centralWidget()
        shown = [h.graphics for h in centre.findChildren(Heatmap) if h.graphics.isVisible()] if centre else []
        if not shown:
            return None
        biggest = max(shown, key=lambda g: g.width() * g.height())
        biggest.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return biggest

    def sync(self) -> None:
        self.palette_actions[palettes.current().key].setChecked(True)

    def retranslate(self) -> None:
        self.colours_menu.setTitle(self.tr("&Colours"))
        for key, label in palette_choice.labels().items():
            self.palette_actions[key].setText(label)
        self.colours_menu.setToolTip(
            self.tr("The colours of every map, colour bar and bar chart, for colour-blind readers and for printing")
        )
        self.text_menu.setTitle(self.tr("Text si&ze"))
        self.larger.setText(self.tr("&Larger text"))
        self.smaller.setText(self.tr("&Smaller text"))
        self.reset_text.setText(self.tr("&Normal size (100 %)"))
        self.as_table.setText(self.tr("As &table…"))
        self.as_table.setToolTip(
            self.tr("The numbers of the focused map (else the large map) as a table a screen reader can read")
        )
        self.to_map.setText(self.tr("&Go to the map"))
        self.to_map.setToolTip(
            self.tr("Bring the keyboard to the map (F6): the arrow keys then move from cell to cell, Enter selects")
        )

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """What F1 lists beside the window's actions (explorer/ui/menus/shortcuts_help.py lists those): the keys
        that move the focus and walk a map."""
        return [
            ("Tab", self.tr("next control (Shift+Tab: the one before; F6: straight to the map)")),
            ("← → ↑ ↓", self.tr("in a map: move from cell to cell (the explanation follows)")),
            ("Home / End", self.tr("in a map: first / last cell of the row")),
            ("Enter", self.tr("in a map: select the cell's token")),
        ]
