"""English and Japanese interface: the committed .ts covers every UI string and translates it, the committed
.qm is built from it, and the running window switches language (with glyphs the font really has), back, and
remembers the choice for the next start.

A new ``self.tr("…")`` without a Japanese translation fails ``test_every_ui_string_is_translated``: run
``make translations`` and translate the new entries of ``resources/translations/explorer_ja.ts``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
import xml.etree.ElementTree as ET
from pathlib import Path

import PySide6
import pytest
from PySide6.QtCore import QEvent, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QWidget

from explorer.ui.preferences import i18n, settings

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "explorer" / "ui"
CORE_WORDS = [ROOT / "explorer" / "present" / "stage_titles.py"]  # English the window translates (Makefile)
TS = ROOT / "resources" / "translations" / "explorer_ja.ts"
QM = ROOT / "resources" / "translations" / "explorer_ja.qm"
MAKE_HINT = "run `make translations` and translate the new entries of resources/translations/explorer_ja.ts"


def _tool(name: str) -> Path:
    """pyside6-lupdate / pyside6-lrelease of this interpreter (the venv's wrapper, else PySide6's binary)."""
    for candidate in (Path(sys.executable).parent / f"pyside6-{name}", Path(PySide6.__file__).parent / name):
        if candidate.is_file():
            return candidate
    pytest.skip(f"{name} is not installed with PySide6")


def _messages(ts: Path) -> dict[tuple[str, str, str], ET.Element]:
    """(context, source, disambiguation) → the <translation> element, for every current message."""
    out = {}
    for ctx in ET.parse(ts).getroot().iter("context"):
        name = ctx.findtext("name") or ""
        for m in ctx.iter("message"):
            t = m.find("translation")
            if t is not None and t.get("type") in ("vanished", "obsolete"):
                continue
            out[(name, m.findtext("source") or "", m.findtext("comment") or "")] = t
    return out


def _finished(t: ET.Element | None) -> bool:
    return t is not None and t.get("type") != "unfinished" and bool((t.text or "").strip())


@pytest.fixture(scope="module")
def fresh_ts(tmp_path_factory) -> Path:
    """What lupdate finds in explorer/ui (and the core's stage titles) now, extracted into an empty .ts (the
    committed one is untouched)."""
    out = tmp_path_factory.mktemp("lupdate") / "explorer_ja.ts"
    sources = sorted(str(p) for p in UI.rglob("*.py") if "__pycache__" not in p.parts) + [str(p) for p in CORE_WORDS]
    subprocess.run(
        [
            str(_tool("lupdate")),
            "-silent",
            "-locations",
            "none",
            "-source-language",
            "en",
            "-target-language",
            "ja",
            *sources,
            "-ts",
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return out


def test_every_ui_string_is_in_a_named_context(fresh_ts):
    found = _messages(fresh_ts)
    assert found, "lupdate found no strings at all"
    # An empty context means lupdate could not tell which class a tr() belongs to (a `tr = self.tr` alias,
    # a helper that hides the literal): at run time such a string would never be translated.
    assert [s for (c, s, _) in found if not c] == []


def test_every_ui_string_is_translated(fresh_ts):
    committed = _messages(TS)
    found = _messages(fresh_ts)
    missing = sorted(f"{c}: {s!r}" for key in found for (c, s, _) in [key] if key not in committed)
    assert missing == [], f"{len(missing)} UI strings are not in the .ts; {MAKE_HINT}"
    unfinished = sorted(f"{c}: {s!r}" for (c, s, _), t in committed.items() if not _finished(t))
    assert unfinished == [], f"{len(unfinished)} strings have no finished Japanese translation; {MAKE_HINT}"


def test_translations_keep_placeholders_and_accelerators():
    def fields(text: str) -> list[str]:
        return sorted(re.findall(r"\{[^{}]*\}", text))

    for (context, source, _), t in _messages(TS).items():
        if not _finished(t):
            continue  # reported by test_every_ui_string_is_translated
        ja = t.text or ""
        assert fields(ja) == fields(source), f"{context}: {source!r} → {ja!r} changes the .format fields"
        if re.search(r"&[^&\s;]", source.replace("&nbsp;", "")):
            assert re.search(r"&[^&\s;]", ja), f"{context}: {source!r} → {ja!r} loses its keyboard accelerator"


def test_committed_qm_is_built_from_the_ts(tmp_path):
    built = tmp_path / "explorer_ja.qm"
    subprocess.run(
        [str(_tool("lrelease")), "-silent", str(TS), "-qm", str(built)], check=True, capture_output=True, timeout=120
    )
    assert QM.read_bytes() == built.read_bytes(), "explorer_ja.qm is older than explorer_ja.ts: run `make translations`"


# ------------------------------------------------------------------ the running window


@pytest.fixture
def english_after():
    yield
    i18n.install_language("en")  # the other tests read English texts


def _japanese(text: str) -> list[str]:
    """The Japanese characters of a text (kana, kanji, full-width and CJK punctuation)."""
    return [ch for ch in text if ord(ch) >= 0x3000 or unicodedata.east_asian_width(ch) in ("W", "F")]


def _assert_glyphs(widget: QWidget, text: str) -> None:
    chars = _japanese(text)
    assert chars, f"{text!r} has no Japanese characters"
    metrics = QFontMetrics(widget.font())
    # QFontMetrics.inFont for one code point (PySide6 6.11's inFont(str) answers False from U+6000 on, even
    # for a CJK font; inFontUcs4 asks Qt the same question without that conversion).
    lacking = sorted({ch for ch in chars if not metrics.inFontUcs4(ord(ch))})
    assert lacking == [], (
        f"the font {widget.font().family()!r} has no glyph for {''.join(lacking)} (install a CJK font)"
    )


def _shown_texts(window) -> dict[str, tuple[QWidget, str]]:
    a, views = window.actions_, window.views
    return {
        "file menu": (window.menuBar(), a.file_menu.title()),
        "view menu": (window.menuBar(), a.view_menu.title()),
        "model menu": (window.menuBar(), a.model_menu.title()),
        "help menu": (window.menuBar(), a.help_menu.title()),
        "pipeline dock": (window.docks["flow"], window.docks["flow"].windowTitle()),
        "model dock": (window.docks["controls"], window.docks["controls"].windowTitle()),
        "next-token dock": (window.docks["output"], window.docks["output"].windowTitle()),
        "preset label": (views["controls"].preset_label, views["controls"].preset_label.text()),
        "tensor title": (views["tensor"].title, views["tensor"].title.text()),
        "flow caption": (views["flow"].caption, views["flow"].caption.text()),
    }


def test_language_switch_at_run_time(window, qtbot, english_after):
    english = {k: text for k, (_, text) in _shown_texts(window).items()}
    assert english["file menu"] == "&File" and english["pipeline dock"] == "Pipeline"

    window.actions_.language_actions["ja"].trigger()  # View → Language → 日本語
    qtbot.waitUntil(lambda: window.actions_.file_menu.title() != "&File", timeout=30_000)
    shown = _shown_texts(window)
    assert shown["file menu"][1] == "ファイル(&F)"
    assert shown["view menu"][1] == "表示(&V)"
    assert shown["pipeline dock"][1] == "パイプライン"
    assert shown["preset label"][1] == "プリセット"
    assert shown["tensor title"][1].startswith("ステップ")
    for key, (widget, text) in shown.items():
        assert text != english[key], f"{key} still reads {text!r}"
        _assert_glyphs(widget, text)
    for dock in window.docks.values():  # every panel's title, not only the three above
        assert _japanese(dock.windowTitle()), dock.windowTitle()
    assert window.actions_.language_actions["ja"].isChecked()
    assert settings.get("language") == "ja"

    window.actions_.set_language("en")
    qtbot.waitUntil(lambda: window.actions_.file_menu.title() == "&File", timeout=30_000)
    assert {k: text for k, (_, text) in _shown_texts(window).items()} == english
    assert settings.get("language") == "en"


def test_language_is_remembered_for_the_next_start(qtbot, english_after):
    """The choice made in one session is what the next ``attention-explorer gui`` starts in."""
    from explorer.ui.bridge.state import AppState
    from explorer.ui.shell import app as app_module
    from explorer.ui.shell.main_window import MainWindow

    window = MainWindow(AppState())  # no trace needed to choose a language
    qtbot.addWidget(window)
    window.actions_.language_actions["ja"].trigger()
    window.close()
    app = QApplication.instance()
    style, palette = app.style().name(), app.palette()
    seen: dict[str, object] = {}

    started: list[QWidget] = []

    def inspect() -> None:
        started.extend(
            w for w in app.topLevelWidgets() if w.objectName() == "MainWindow" and w is not window and w.isVisible()
        )
        if started:
            w = started[0]
            seen.update(
                menu=w.actions_.file_menu.title(),
                dock=w.docks["flow"].windowTitle(),
                checked=w.actions_.language_actions["ja"].isChecked(),
            )
        app.quit()

    QTimer.singleShot(300, inspect)
    try:
        app_module.launch()  # returns when inspect() quits the event loop
    finally:
        # Closed only now: closing the last window inside app.exec() posts a Quit event that would end the
        # next test's event loop.
        for w in started:
            w.close()
        QApplication.removePostedEvents(app, QEvent.Type.Quit)
        app.setStyle(style)
        app.setPalette(palette)
    assert seen == {"menu": "ファイル(&F)", "dock": "パイプライン", "checked": True}
