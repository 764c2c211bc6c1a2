"""An encoder (BERT) in the window: opened, it switches to its own mask (none); its [MASK] is selected and the
output panel shows the token at that position; Ctrl+M on a selected chip masks that token."""

from __future__ import annotations

import pytest

transformers = pytest.importorskip("transformers")


@pytest.fixture(scope="module")
def bert_folder(tmp_path_factory):
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", ".", "it", "was", "tired"]
    hf = Tokenizer(models.WordPiece({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    hf.add_special_tokens(words[:5])
    hf.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    folder = tmp_path_factory.mktemp("bert")
    cfg = transformers.BertConfig(
        vocab_size=len(words),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=32,
        pad_token_id=0,
    )
    torch.manual_seed(0)
    transformers.BertForMaskedLM(cfg).save_pretrained(folder)
    (folder / "tokenizer.json").write_text(hf.to_str(), encoding="utf-8")
    return folder


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
