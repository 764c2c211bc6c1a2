"""English and Japanese interface through Qt's translation system (.ts sources, .qm built from them)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from explorer.util.paths import resource

LANGUAGES = {"en": "English", "ja": "日本語"}
_installed: QTranslator | None = None


def system_language() -> str:
    return "ja" if QLocale.system().language() == QLocale.Language.Japanese else "en"


def qm_path(language: str):
    return resource("translations", f"explorer_{language}.qm")


def install_language(language: str) -> bool:
    """Switch the interface language at run time; every widget gets a LanguageChange event."""
    global _installed
    app = QCoreApplication.instance()
    if _installed is not None:
        app.removeTranslator(_installed)
        _installed = None
    if language == "en":
        return True
    translator = QTranslator(app)
    if not translator.load(str(qm_path(language))):
        return False
    app.installTranslator(translator)
    _installed = translator
    return True
