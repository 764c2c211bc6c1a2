"""What a TraceResult hands to the picture, the figure and the window (explorer.api.display, figure and show,
written beside it): stand-ins record each call, so these tests check only this side of the seam: the
selection asked for reaches them, checked first."""

from __future__ import annotations

import sys
import types

import pytest

import explorer as ax

PEN = "This is a pen .\nThe pen is red ."


@pytest.fixture
def calls(monkeypatch):
    seen: list[tuple] = []

    class Figure:
        @classmethod
        def of_stage(cls, core, selection, language="en"):
            seen.append(("figure", core, selection, language))
            return "a figure"

    def trace_svg(core, selection, language="en"):
        seen.append(("svg", core, selection, language))
        return "<svg/>"

    def launch(core, selection, screenshot, size, wait):
        seen.append(("launch", core, selection, screenshot, size, wait))
        return "a process"

    for name, attrs in (
        ("figure", {"Figure": Figure}),
        ("display", {"trace_svg": trace_svg}),
        ("show", {"launch": launch}),
    ):
        module = types.ModuleType(f"explorer.api.{name}")
        module.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, f"explorer.api.{name}", module)
    return seen


def test_map_hands_the_figure_the_asked_selection(calls):
    t = ax.trace(PEN, preset="classroom")
    assert t.map(stage="scores", layer=2, head=3, row=1, token=2) == "a figure"
    (_, core, selection, language) = calls[-1]
    assert core is t.core and language == "en"
    assert (selection.stage, selection.layer, selection.head, selection.row, selection.token) == ("scores", 2, 3, 1, 2)
    t.map(language="ja")
    assert calls[-1][3] == "ja"  # the figure's words in the language asked for
    with pytest.raises(ax.Error, match="layer 3 does not exist"):
        t.map(layer=3)
    assert len(calls) == 2  # a bad selection never reaches the figure


def test_the_display_bundle_is_the_svg_and_one_line_of_text(calls):
    t = ax.trace(PEN, preset="classroom").select(stage="weights", layer=1, head=2)
    bundle = t._repr_mimebundle_()
    assert bundle == {"text/plain": repr(t), "image/svg+xml": "<svg/>"}
    assert calls[-1][2] is t.selection and calls[-1][3] == "en"
    assert t.svg(language="ja") == "<svg/>" and calls[-1][3] == "ja"
    assert "image/svg+xml" not in t._repr_mimebundle_(exclude={"image/svg+xml"})
    assert "image/svg+xml" not in t._repr_mimebundle_(include={"text/plain"})


def test_show_opens_the_window_on_this_trace_at_its_selection(calls):
    t = ax.trace(PEN, preset="classroom").select(stage="scores", layer=1, head=2, token=3)
    assert t.show(head=0, screenshot="shot.png", size="800x600", wait=True) == "a process"
    (_, core, selection, screenshot, size, wait) = calls[0]
    assert core is t.core
    assert (selection.stage, selection.layer, selection.head, selection.token, selection.row) == ("scores", 1, 0, 3, 0)
    assert (screenshot, size, wait) == ("shot.png", "800x600", True)
    with pytest.raises(ax.Error, match="head 7 does not exist"):
        t.show(head=7)
    assert len(calls) == 1  # a bad selection never reaches the window
