"""Tokens a person can read (issue 22): Japanese typed on the classroom preset becomes byte tokens; each
chip, axis label and hover names the character with its part, and the Text panel suggests the japanese
preset once, keeping the sentence."""

from __future__ import annotations

TEXT = "私は学生"


def test_chips_axes_and_hover_name_the_character_and_its_part(traced, qtbot):
    from explorer.ui.views.tensor.tensor_view import TensorView
    from explorer.ui.views.tokens.input_view import InputView

    state = traced
    view, tensor = InputView(state), TensorView(state)
    for w in (view, tensor):
        qtbot.addWidget(w)
        w.resize(900, 600)
        w.show()
    state.set_text(TEXT)
    assert state.trace.rows[0].tokens[:3] == ("<0xE7>", "<0xA7>", "<0x81>")  # the model's own tokens unchanged
    chips = [c.text for c in view.chips.rows()[0]]
    assert chips[:6] == ["私(1/3)", "私(2/3)", "私(3/3)", "は(1/3)", "は(2/3)", "は(3/3)"]
    assert "<0xE7>" in view.chips.rows()[0][0].tooltip  # the bytes are one hover away
    state.select(stage="weights", layer=0, head=0)
    assert tensor.large.left.labels[:2] == ("0 私(1/3)", "1 私(2/3)")
    assert tensor.large.bottom.labels == tensor.large.left.labels
    hover = tensor.cell_explanation(0, 4, 2)
    assert "“は(2/3)”" in hover and "“私(3/3)”" in hover


def test_japanese_on_a_preset_without_it_suggests_the_japanese_preset_once(traced, qtbot):
    from explorer.ui.views.tokens.input_view import InputView

    state = traced
    view = InputView(state)
    qtbot.addWidget(view)
    view.show()
    hint = view.language_hint
    assert not hint.isVisible()  # English on the classroom preset
    state.set_text(TEXT)
    assert hint.isVisible()
    hint.use.click()
    assert state.source.name == "japanese" and state.text == TEXT  # the typed sentence kept
    assert not hint.isVisible()
    state.set_preset("classroom")
    assert state.text == TEXT and not hint.isVisible()  # offered once: not again
