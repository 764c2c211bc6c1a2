"""Carries out the preferences the Session records (View → Colours, Text size, Language): the window's state
(explorer/ui/bridge/state.py) says which palette, text size or language to apply, and the services here draw
with it: palette_choice.py, text_size.py, i18n.py. One follower per window, a child of it, so that a closed
window's follower stops with it."""

from __future__ import annotations

from PySide6.QtCore import QObject, Slot

from explorer.ui.preferences import i18n, palette_choice, settings, text_size

LANGUAGE_SETTING = "language"


class ChoiceFollower(QObject):
    def __init__(self, state, parent: QObject) -> None:
        super().__init__(parent)
        state.paletteToApply.connect(self.apply_palette)
        state.textSizeToApply.connect(self.apply_text_size)
        state.languageToApply.connect(self.apply_language)

    @Slot(str, bool)
    def apply_palette(self, palette: str, remember: bool) -> None:
        palette_choice.apply(palette, remember)

    @Slot(float, bool)
    def apply_text_size(self, scale: float, remember: bool) -> None:
        text_size.apply(scale, remember)

    @Slot(str, bool)
    def apply_language(self, language: str, remember: bool) -> None:
        i18n.install_language(language)
        if remember:
            settings.put(LANGUAGE_SETTING, language)
