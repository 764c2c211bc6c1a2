"""View → Colours, Text size and Language go through the window's state (issue 37, item 1): the Session records
the user's choice and the window's services apply it. A menu choice changes both the state and what the
figures draw with; a choice the Session refuses changes neither."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer.present import palettes
from explorer.ui.preferences import i18n, settings, text_size


def test_choosing_a_palette_from_the_menu_records_and_applies_it(window, state):
    window.actions_.access.palette_actions["cividis"].trigger()
    assert state.palette == "cividis" and palettes.current().key == "cividis"
    assert settings.get("palette") == "cividis"  # remembered, as before
    assert window.actions_.access.palette_actions["cividis"].isChecked()
    state.set_palette("no-such-palette")  # refused by the Session: nothing changes
    assert state.palette == "cividis" and palettes.current().key == "cividis"


def test_the_bridge_applies_a_palette_without_remembering_when_told(window, state):
    state.set_palette("greyscale", remember=False)
    assert state.palette == "greyscale" and palettes.current().key == "greyscale"
    assert settings.get("palette") is None


def test_text_size_keys_record_and_apply_the_size(window, state):
    window.actions_.access.larger.trigger()
    window.actions_.access.larger.trigger()
    assert state.text_scale == 1.25 and text_size.scale() == 1.25
    window.actions_.access.reset_text.trigger()
    assert state.text_scale == 1.0 and text_size.scale() == 1.0


def test_choosing_a_language_records_installs_and_remembers_it(window, state):
    try:
        window.actions_.set_language("ja")
        assert state.language == "ja" and settings.get("language") == "ja"
        assert QCoreApplication.translate("AccessMenu", "&Colours") != "&Colours"  # the translator is in
        assert window.actions_.language_actions["ja"].isChecked()
    finally:
        window.actions_.set_language("en")
    assert state.language == "en" and QCoreApplication.translate("AccessMenu", "&Colours") == "&Colours"
    i18n.install_language("en")


def test_the_state_starts_with_the_palette_text_size_and_language_applied_at_start(qtbot):
    """app.py applies the saved choices before any widget exists; the state it builds records those, so that
    Ctrl+= steps from the size on screen and the Session knows the palette every figure draws with."""
    from PySide6.QtCore import QEvent, QTimer
    from PySide6.QtWidgets import QApplication

    from explorer.ui.shell import app as app_module

    settings.put("palette", "high-contrast")
    settings.put("text_scale", 1.5)
    settings.put("language", "ja")
    app = QApplication.instance()
    style, qt_palette = app.style().name(), app.palette()
    seen: dict[str, object] = {}
    started: list = []

    def inspect() -> None:
        started.extend(w for w in app.topLevelWidgets() if w.objectName() == "MainWindow" and w.isVisible())
        if started:
            state = started[0].state
            seen.update(prefs=(state.palette, state.text_scale, state.language), drawn=palettes.current().key)
        app.quit()

    QTimer.singleShot(300, inspect)
    try:
        app_module.launch()  # returns when inspect() quits the event loop
    finally:
        for w in started:
            w.close()
        QApplication.removePostedEvents(app, QEvent.Type.Quit)
        app.setStyle(style)
        app.setPalette(qt_palette)
        i18n.install_language("en")
    assert seen == {"prefs": ("high-contrast", 1.5, "ja"), "drawn": "high-contrast"}
