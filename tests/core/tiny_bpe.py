"""A byte-level BPE tokenizer like GPT-2's, small enough to train in milliseconds (the tiny Hugging Face
folders of the oracle tests carry it as their tokenizer.json)."""

from __future__ import annotations


def train_tokenizer():
    """A byte-level BPE like GPT-2's, trained in milliseconds on a few sentences."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    hf.post_processor = processors.ByteLevel(trim_offsets=False)
    corpus = [
        "This is a pen .",
        "The cat sat on the mat .",
        "The dog saw the cat and the cat saw the dog .",
        "It was tired because it ran all day .",
        "A pen is on the table , and a book is on the chair .",
    ] * 20
    trainer = trainers.BpeTrainer(
        vocab_size=340,
        special_tokens=["<|endoftext|>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    hf.train_from_iterator(corpus, trainer=trainer)
    return hf
