"""The interface's translations read without Qt, from the shipped Qt Linguist source
(resources/translations/explorer_<language>.ts, which lrelease compiles into the .qm the window loads).

A figure drawn from Python (explorer/api) may not import Qt, yet must say the same words as the window and
``figure --language``; so ``translate`` answers as ``QCoreApplication.translate`` does with that .qm
installed: a message lrelease leaves out (vanished or obsolete, empty, plural) gives the source text back, an
unfinished one with a text is used (lrelease keeps those unless ``-nounfinished``, which the Makefile does not
pass), and a disambiguation that matches nothing falls back to the message without one.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

from explorer.errors import ConfigError
from explorer.util.paths import resource

Key = tuple[str, str, str]  # (context, source text, disambiguation)
LEFT_OUT = ("vanished", "obsolete")  # the translation types lrelease never compiles


class Translations:
    """One language's messages, looked up as Qt's QTranslator looks them up."""

    def __init__(self, messages: dict[Key, str]) -> None:
        self.messages = messages

    def translate(self, context: str, source: str, disambiguation: str | None = None) -> str:
        found = self.messages.get((context, source, disambiguation or ""))
        if found is None and disambiguation:
            found = self.messages.get((context, source, ""))
        return source if found is None else found


def read_ts(path: Path) -> Translations:
    """Every message of a .ts file that lrelease would compile; a broken file is one line."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        raise ConfigError(f"cannot read the translations {path}: {e}") from None
    messages: dict[Key, str] = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            text = _compiled_text(message)
            if text is not None:
                key = (name, message.findtext("source") or "", message.findtext("comment") or "")
                messages[key] = text
    return Translations(messages)


def _compiled_text(message: ET.Element) -> str | None:
    """The translation lrelease puts in the .qm for this message, or None where it puts none."""
    if message.get("numerus") == "yes":
        return None  # plural forms: no figure word has any, and their lookup needs a count
    translation = message.find("translation")
    if translation is None or translation.get("type") in LEFT_OUT:
        return None
    return translation.text or None  # an empty translation is no translation


def ts_path(language: str) -> Path:
    return resource("translations", f"explorer_{language}.ts")


@cache
def translations(language: str) -> Translations:
    """The messages of ``language`` (a code with a shipped .ts file, e.g. "ja"), read once per process."""
    path = ts_path(language)
    if not path.is_file():
        raise ConfigError(f"no translations for language {language!r} (no {path.name} among the resources)")
    return read_ts(path)
