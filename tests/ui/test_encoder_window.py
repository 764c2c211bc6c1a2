"""An encoder (BERT) in the window: opened, it switches to its own mask (none); its [MASK] is selected and the
output panel shows the token at that position; Ctrl+M on a selected chip masks that token."""

from __future__ import annotations

import pytest

transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def bert_folder(tmp_path_factory):
    from tests.tiny_bert import make_bert_folder

    return make_bert_folder(tmp_path_factory.mktemp("bert"))


def test_an_encoder_opens_with_its_own_mask_and_selects_the_mask(window, qtbot, bert_folder):
    state = window.state
    state.set_text("the cat sat on the [MASK] . [SEP] it was tired .")
    window.loading.open(str(bert_folder))
    qtbot.waitUntil(
        lambda: state.trace is not None and state.trace.config.mlm_head and state.trace.options.mask.kind == "none",
        timeout=30_000,
    )
    tokens = state.trace.rows[0].tokens
    assert tokens[0] == "[CLS]" and tokens.count("[SEP]") == 2
    qtbot.waitUntil(lambda: state.selection.token == tokens.index("[MASK]"), timeout=10_000)
    from explorer.ui.views.tokens.output_view import OutputView

    output = OutputView(state)
    qtbot.addWidget(output)
    output.resize(420, 700)
    output.show()
    qtbot.waitUntil(lambda: "The token at position" in output.heading.text(), timeout=10_000)
    # the panel names the position the map's row label shows ("6 [MASK]"), not one more (issue 38)
    from explorer.present.matrices import token_labels

    (label,) = [t for t in token_labels(state.trace, 0) if t.endswith("[MASK]")]
    shown = label.split()[0]
    assert f"position {shown}:" in output.heading.text(), (label, output.heading.text())
    assert output.where.text().startswith(f"position {shown} "), (label, output.where.text())
    # the C × V table says what an encoder's rows are: the token at i, not the one after
    assert "predicts the token at i" in output.table_title.text() and "token after" not in output.table_title.text()
    assert output.table.horizontalHeaderItem(1).text() == "likeliest tokens at i"


def test_ctrl_m_masks_the_selected_token(window, qtbot, bert_folder):
    state = window.state
    state.set_text("the cat sat on the mat .")
    window.loading.open(str(bert_folder))
    qtbot.waitUntil(lambda: state.trace is not None and state.trace.config.mlm_head, timeout=30_000)
    state.select(token=2)  # "cat"
    view = window.views["input"]
    with qtbot.waitSignal(state.traceChanged, timeout=30_000):
        assert view.mask_selected()
    assert "[MASK]" in state.trace.rows[0].tokens and "cat" not in state.trace.rows[0].tokens
    assert "the [MASK] sat" in view.text.toPlainText()
