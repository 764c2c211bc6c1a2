"""A tiny BERT folder (config.json, weights, tokenizer.json) made with transformers, for the tests that need an
encoder: 14 words, E = 16, one layer, two heads."""

from __future__ import annotations

from pathlib import Path

WORDS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", ".", "it", "was", "tired"]


def make_bert_folder(folder: Path) -> Path:
    import torch
    import transformers
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    hf = Tokenizer(models.WordPiece({w: i for i, w in enumerate(WORDS)}, unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    hf.add_special_tokens(WORDS[:5])
    hf.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    cfg = transformers.BertConfig(
        vocab_size=len(WORDS),
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
