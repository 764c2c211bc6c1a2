"""Menus (File, View, Model, Help), the toolbar and their shortcuts. Handlers change the state or call
file_ops; they never draw."""

from __future__ import annotations

import dataclasses
from functools import partial

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu, QMessageBox, QToolBar

from explorer import __version__, vocab
from explorer.config import RunOptions
from explorer.ui.access.access_menu import AccessMenu
from explorer.ui.bridge.state import ModelSource
from explorer.ui.menus import figure_menu, file_ops
from explorer.ui.menus.how_made import how_made
from explorer.ui.menus.model_menu import ModelMenu
from explorer.ui.preferences import i18n, settings, theme
from explorer.ui.words.plain_text import menu_text
from explorer.weights.presets import PRESETS


class Actions(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.w = window
        self.state = window.state
        mb = window.menuBar()
        self.file_menu = mb.addMenu("")
        self.view_menu = mb.addMenu("")
        self.model_menu = mb.addMenu("")
        self.help_menu = mb.addMenu("")
        self._make_actions()
        self._fill_menus()
        self.access = AccessMenu(self)  # View → Colours, Text size, As table (issue 27)
        # The tool bar sits in the menu bar's corner: a row of its own cost the map 30 px of a laptop's height.
        self.toolbar = QToolBar(window)
        self.toolbar.setObjectName("toolbar.main")
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.toolbar.setContentsMargins(0, 0, 0, 0)
        self.toolbar.setStyleSheet("QToolButton { padding: 0px 4px; }")  # as tall as the menus beside it
        mb.setCornerWidget(self.toolbar, Qt.Corner.TopRightCorner)
        for a in (self.open_snapshot, self.export_snapshot, self.export_view, None, self.focus, self.presentation):
            self.toolbar.addSeparator() if a is None else self.toolbar.addAction(a)

    # ------------------------------------------------------------------ actions
    def _act(self, slot, shortcut=None, checkable=False) -> QAction:
        a = QAction(self.w)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        return a

    def _make_actions(self) -> None:
        w, s = self.w, self.state
        self.open_snapshot = self._act(lambda: file_ops.open_snapshot(w, s), QKeySequence.StandardKey.Open)
        self.open_model = self._act(self._open_model, "Ctrl+Shift+O")
        self.export_snapshot = self._act(lambda: file_ops.export_snapshot(w, s), QKeySequence.StandardKey.Save)
        self.export_view = self._act(lambda: figure_menu.export_view(w, s), "Ctrl+E")
        self.export_stages = self._act(lambda: figure_menu.export_all_stages(w, s), "Ctrl+Shift+E")
        self.worksheet = self._act(lambda: figure_menu.worksheet(w, s))
        self.compare = self._act(lambda: (w.open_panel("compare"), w.views["compare"].start()), "Ctrl+Shift+C")
        self.quit = self._act(w.close, "Ctrl+Q")  # StandardKey.Quit is empty on some platforms (offscreen, Windows)
        self.presentation = self._act(self._presentation, "F5")
        self.model_view = self._act(self._model_view, "Ctrl+Shift+M")
        self.how_made = self._act(lambda: how_made(w), "Ctrl+H")  # the stepper (issue 39), for the focused map
        self.focus = self._act(lambda: w.focus_mode.toggle(), "F11", checkable=True)  # the map and the pipeline only
        w.focus_mode.toggled.connect(self.focus.setChecked)
        self.random_weights = self._act(lambda on: s.set_random_weights(on), "Ctrl+R", checkable=True)
        self.reset_sizes = self._act(
            lambda: s.set_source(ModelSource("preset", s.source.name) if s.source.kind == "preset" else s.source)
        )
        self.about = self._act(self._about)
        self.reading_tokens = self._act(self._reading_tokens)
        self.shortcuts = self._act(self._shortcuts, QKeySequence.StandardKey.HelpContents)
        self.language_group = QActionGroup(w)
        self.language_actions = {}
        for code in vocab.LANGUAGES:
            a = self._act(partial(self.set_language, code), checkable=True)
            a.setText(i18n.LANGUAGES[code])  # each language is named in its own script, never translated
            self.language_group.addAction(a)
            self.language_actions[code] = a
        self.theme_group = QActionGroup(w)
        self.theme_actions = {t: self._act(partial(self.set_theme, t), checkable=True) for t in vocab.THEMES}
        for a in self.theme_actions.values():
            self.theme_group.addAction(a)
        self.preset_group = QActionGroup(w)
        self.preset_actions = {}
        for name in PRESETS:
            a = self._act(partial(s.set_preset, name), checkable=True)
            a.setText(name)
            self.preset_group.addAction(a)
            self.preset_actions[name] = a
        s.requestChanged.connect(self._sync_checks)
        s.requestReverted.connect(self._sync_checks)
        self.models = ModelMenu(self)  # open model file/folder, real models, layers to capture, train, recent models

    def _fill_menus(self) -> None:
        f = self.file_menu
        f.addActions([self.open_snapshot, self.open_model, self.models.open_folder])
        self.recent_menu = QMenu(self.w)
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        f.addMenu(self.recent_menu)
        f.addSeparator()
        f.addActions([self.export_snapshot, self.export_view, self.export_stages, self.worksheet, self.compare])
        f.addSeparator()
        f.addAction(self.quit)
        v = self.view_menu
        self.docks_menu = QMenu(self.w)
        for dock in self.w.docks.values():
            self.docks_menu.addAction(dock.toggleViewAction())
        v.addMenu(self.docks_menu)
        self.reset_layout = self._act(self.w.reset_layout)
        v.addAction(self.reset_layout)
        v.addAction(self.focus)
        v.addAction(self.presentation)
        v.addAction(self.model_view)
        v.addAction(self.how_made)
        v.addSeparator()
        self.language_menu = QMenu(self.w)
        self.language_menu.addActions(list(self.language_actions.values()))
        v.addMenu(self.language_menu)
        self.theme_menu = QMenu(self.w)
        self.theme_menu.addActions(list(self.theme_actions.values()))
        v.addMenu(self.theme_menu)
        m = self.model_menu
        self.presets_menu = QMenu(self.w)
        self.presets_menu.addActions(list(self.preset_actions.values()))
        m.addMenu(self.presets_menu)
        self.models.fill_model_menu(m)
        m.addActions([self.random_weights, self.reset_sizes])
        self.help_menu.addActions([self.shortcuts, self.reading_tokens, self.about])

    def retranslate(self) -> None:
        self.file_menu.setTitle(self.tr("&File"))
        self.view_menu.setTitle(self.tr("&View"))
        self.model_menu.setTitle(self.tr("&Model"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.open_snapshot.setText(self.tr("&Open snapshot…"))
        self.open_snapshot.setToolTip(self.tr("Reopen a saved snapshot in every view, without recomputing (read-only)"))
        self.open_model.setText(self.tr("Open &model…"))
        self.open_model.setToolTip(
            self.tr("Open a GGUF file, or the config.json of a checkpoint or Hugging Face folder")
        )
        self.recent_menu.setTitle(self.tr("Open &recent"))
        self.export_snapshot.setText(self.tr("&Export snapshot…"))
        self.export_snapshot.setToolTip(self.tr("Save every tensor and parameter (npz, safetensors or pt)"))
        self.export_view.setText(self.tr("Export &view as image…"))
        self.export_view.setToolTip(self.tr("Save the large view's figure at print quality: PNG (300 dpi), SVG or PDF"))
        self.export_stages.setText(self.tr("Export &all stages as images…"))
        self.export_stages.setToolTip(
            self.tr(
                "Every stage of every layer (or of the layers you choose) as PNG, SVG or PDF, at the size you choose"
            )
        )
        self._worksheet_and_compare_words()
        self.quit.setText(self.tr("&Quit"))
        self.docks_menu.setTitle(self.tr("&Panels"))
        self.reset_layout.setText(self.tr("&Reset layout"))
        self.reset_layout.setToolTip(self.tr("Put every panel back where it was at the first start"))
        self.focus.setText(self.tr("&Focus"))
        self.focus.setToolTip(
            self.tr("Only the pipeline and the map, as large as the window allows (F11 again brings the panels back)")
        )
        self.presentation.setText(self.tr("&Presentation mode"))
        self.presentation.setToolTip(self.tr("Full screen, one stage at a time, large type (F5; Esc leaves)"))
        self.model_view.setText(self.tr("&Model view (every head)"))
        self.model_view.setToolTip(
            self.tr("Every layer's heads at once, with scores that find the notable heads (Ctrl+Shift+M)")
        )
        self.how_made.setText(self.tr("&How is this made?"))
        self.how_made.setToolTip(self.tr("The chosen cell's number built step by step, beside the map (Ctrl+H)"))
        self.language_menu.setTitle(self.tr("&Language"))
        self.theme_menu.setTitle(self.tr("&Theme"))
        for key, text in (
            ("system", self.tr("Follow the system")),
            ("light", self.tr("Light")),
            ("dark", self.tr("Dark")),
        ):
            self.theme_actions[key].setText(text)
        self.presets_menu.setTitle(self.tr("&Presets"))
        self.random_weights.setText(self.tr("&Random weights"))
        self.random_weights.setToolTip(self.tr("Show the untrained model: compare with the trained weights"))
        self.reset_sizes.setText(self.tr("Reset &sizes to the preset"))
        self.shortcuts.setText(self.tr("&Keyboard shortcuts"))
        self.about.setText(self.tr("&About Attention Explorer"))
        self.reading_tokens.setText(self.tr("Reading the &tokens"))
        self.toolbar.setWindowTitle(self.tr("Main toolbar"))
        self.models.retranslate()
        self.access.retranslate()

    def _worksheet_and_compare_words(self) -> None:
        self.worksheet.setText(self.tr("&Worksheet…"))
        self.worksheet.setToolTip(
            self.tr("Exercises by hand with the current text's numbers on the note's toy model, and their key")
        )
        self.compare.setText(self.tr("&Compare…"))
        self.compare.setToolTip(
            self.tr(
                "A second run beside the current one: another sentence, model, random twin or intervened (Ctrl+Shift+C)"
            )
        )

    # ------------------------------------------------------------------ handlers
    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        self.models.fill_recent(self.recent_menu)
        if settings.recent_files() and settings.recent_models():
            self.recent_menu.addSection(self.tr("Snapshots"))
        for path in settings.recent_files():
            a = self.recent_menu.addAction(menu_text(path))
            a.triggered.connect(partial(file_ops.open_snapshot, self.w, self.state, path))
        if self.recent_menu.isEmpty():
            self.recent_menu.addAction(self.tr("Nothing opened yet")).setEnabled(False)

    def _open_model(self) -> None:
        self.models.open_model_file()

    def _presentation(self) -> None:
        from explorer.ui.classroom import presentation

        presentation.show_for(self.state, self.w)

    def _model_view(self) -> None:
        if "model_view" in self.w.docks:
            self.w.open_panel("model_view")  # off its strip if the window is narrow, sized as the layout does
            self.w.views["model_view"].bring_forward()

    def set_language(self, code: str) -> None:
        self.state.set_language(code)  # always remembered, as before (explorer/ui/preferences/choices.py)
        self.language_actions[code].setChecked(True)

    def set_theme(self, name: str) -> None:
        theme.apply_theme(name)
        settings.put("theme", name)
        self.theme_actions[name].setChecked(True)

    def _sync_checks(self, request=None) -> None:
        source = self.state.source
        self.random_weights.setChecked(source.random_weights or source.seed is not None)
        for name, a in self.preset_actions.items():
            a.setChecked(source.kind == "preset" and source.name == name)

    def _about(self) -> None:
        QMessageBox.about(
            self.w,
            self.tr("About Attention Explorer"),
            self.tr(
                "Attention Explorer {version}\n\nWatch every tensor flow through a Transformer you size yourself."
            ).format(version=__version__),
        )

    def _reading_tokens(self) -> QMessageBox:
        """Help → Reading the tokens: what ␣, the id and a chip's other marks mean (explorer/ui/words)."""
        from explorer.ui.words.token_words import reading_tokens

        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Reading the tokens"), reading_tokens(), parent=self.w)
        box.setObjectName("ReadingTokens")
        box.open()  # not modal to the whole app: the chips stay readable beside it
        return box

    def _shortcuts(self) -> None:
        from explorer.ui.menus.shortcuts_help import show_shortcuts

        show_shortcuts(self.w)

    # ------------------------------------------------------------------ session
    def save_session(self) -> None:
        live = self.state.live_request  # not a snapshot shown read-only: the next start traces the live model
        settings.put("session/text", live.text)
        settings.put_json("session/source", dataclasses.asdict(live.source))
        settings.put_json("session/options", live.options.to_dict())


def restore_session() -> tuple[str | None, ModelSource | None, RunOptions | None]:
    """The text, model and options the app had when it was last closed (None where nothing valid is saved)."""
    text = settings.get("session/text")
    source = options = None
    raw = settings.get_json("session/source")
    if isinstance(raw, dict):
        try:
            source = ModelSource(
                raw["kind"],
                raw["name"],
                tuple(tuple(p) for p in raw.get("sizes", ())),
                raw.get("seed"),
                bool(raw.get("random_weights")),
            )
            if (source.kind == "preset" and source.name not in PRESETS) or source.kind not in ("preset", "path"):
                source = None
        except (KeyError, TypeError, ValueError):
            source = None
    raw = settings.get_json("session/options")
    if isinstance(raw, dict):
        try:
            options = RunOptions.from_dict(raw)
        except Exception:  # an old or damaged setting: start from the defaults
            options = None
    return (text if isinstance(text, str) and text.strip() else None), source, options
