"""The window's choice menus list the vocabulary's words, in its order, each with its own label: View → Language,
Theme and Colours, and Model → Layers to capture (explorer/vocab.py, explorer/session/capture_policy.py). A word
added to the vocabulary without a label, or a menu that lists its own words, shows here."""

from __future__ import annotations

from explorer import vocab
from explorer.session import capture_policy


def _listed(menu, actions: dict) -> list[str]:
    """The words of ``actions`` in the order ``menu`` shows them, after checking each has a label of its own."""
    by_action = {a: word for word, a in actions.items()}
    shown = [by_action[a] for a in menu.actions() if a in by_action]
    labels = [a.text() for a in menu.actions() if a in by_action]
    assert all(labels) and len(set(labels)) == len(labels), labels
    return shown


def test_the_choice_menus_list_the_vocabulary_in_its_order(window):
    a = window.actions_
    assert _listed(a.language_menu, a.language_actions) == list(vocab.LANGUAGES)
    assert [x.text() for x in a.language_menu.actions()] == ["English", "日本語"]  # each in its own script
    assert _listed(a.theme_menu, a.theme_actions) == list(vocab.THEMES)
    assert _listed(a.access.colours_menu, a.access.palette_actions) == list(vocab.PALETTES)
    assert _listed(a.models.capture_menu, a.models.capture_actions) == list(capture_policy.MODES)
