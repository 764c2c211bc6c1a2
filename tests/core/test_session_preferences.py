"""The user's palette, text size and language are part of the Session (issue 37, item 1): ``step`` records a
choice and asks for exactly one effect to apply it, refuses an unknown palette or language without changing
anything, holds a text size to View → Text size's range, and replays the same way."""

from __future__ import annotations

import math

import pytest

from explorer import vocab
from explorer.present import palettes
from explorer.session import Preferences, initial_state, step
from explorer.session import actions as a
from explorer.session import effects as e
from explorer.session.rules_preferences import next_text_scale


def test_the_defaults_are_the_window_defaults():
    prefs = initial_state().preferences
    assert prefs == Preferences(palettes.DEFAULT, 1.0, "en")
    assert initial_state(preferences=Preferences("greyscale", 1.5, "ja")).preferences.palette == "greyscale"


@pytest.mark.parametrize(
    ("action", "field", "value", "effect"),
    [
        (a.SetPalette("cividis"), "palette", "cividis", e.ApplyPalette("cividis", True)),
        (a.SetTextSize(1.25, remember=False), "text_scale", 1.25, e.ApplyTextSize(1.25, False)),
        (a.SetLanguage("ja"), "language", "ja", e.ApplyLanguage("ja", True)),
    ],
)
def test_a_choice_is_recorded_and_applied_once(action, field, value, effect):
    before = initial_state()
    after, effects = step(before, action)
    assert getattr(after.preferences, field) == value
    assert effects == (effect,)
    assert after.request == before.request and after.ticket == before.ticket  # nothing is traced for it
    assert getattr(before.preferences, field) != value  # the old state is untouched (frozen records)


@pytest.mark.parametrize("action", [a.SetPalette("rainbow"), a.SetLanguage("fr"), a.SetTextSize(math.nan)])
def test_an_unknown_choice_is_refused_and_changes_nothing(action):
    before = initial_state()
    after, effects = step(before, action)
    assert after == before and effects == ()


def test_a_text_size_is_held_to_the_steps_range():
    state, effects = step(initial_state(), a.SetTextSize(9.0))
    assert state.preferences.text_scale == vocab.TEXT_SCALES[-1] and effects == (e.ApplyTextSize(3.0, True),)
    state, _ = step(state, a.SetTextSize(0.1))
    assert state.preferences.text_scale == vocab.TEXT_SCALES[0]


def test_text_size_steps_walk_from_the_nearest_step():
    assert [next_text_scale(1.0, +1), next_text_scale(1.0, -1), next_text_scale(2.5, 0)] == [1.1, 0.9, 1.0]
    assert next_text_scale(3.0, +1) == 3.0 and next_text_scale(0.8, -1) == 0.8  # the ends hold
    assert next_text_scale(1.3, +1) == 1.5  # a restored 1.3 is nearest 1.25: one step up is 1.5


def test_preferences_replay_the_same_way():
    recorded = [a.SetPalette("high-contrast"), a.SetTextSize(2.0), a.SetPalette("nope"), a.SetLanguage("ja")]

    def replay():
        state, said = initial_state(), []
        for action in recorded:
            state, effects = step(state, action)
            said += effects
        return state, said

    first, second = replay(), replay()
    assert first == second
    assert first[0].preferences == Preferences("high-contrast", 2.0, "ja")
    assert [type(x) for x in first[1]] == [e.ApplyPalette, e.ApplyTextSize, e.ApplyLanguage]
