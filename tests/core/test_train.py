"""The training core: corpora and tasks, baselines, the loop (loss goes down, cancel, checkpoints), eval."""

from __future__ import annotations

import threading

import numpy as np
import pytest
import torch

from explorer.config import ModelConfig
from explorer.errors import ConfigError, InputError
from explorer.train.baselines import NGramBaselines
from explorer.train.corpora import IGNORE, Sequence, TaskCorpus, corpus_from_spec, get_corpus, make_batch
from explorer.train.evaluate import baselines_for, evaluate_bundle
from explorer.train.loop import Trainer, TrainSettings, list_checkpoints, read_log, train
from explorer.weights.checkpoint import load_checkpoint
from explorer.weights.presets import load_preset

TINY = dict(embed_dim=32, key_dim=8, heads=2, layers=2, positions="learned", max_positions=32)


def tiny_config(vocab: int, **over) -> ModelConfig:
    return ModelConfig(vocab_size=vocab, **{**TINY, **over})


# ------------------------------------------------------------------------------------------ corpora


@pytest.mark.parametrize("task", ["copy", "reverse", "sort"])
def test_task_sequences_have_the_right_answer(task):
    corpus = get_corpus(task)
    tok = corpus.tokenizer
    seq = corpus.make(np.array([2, 0, 1, 1]))  # c a b b
    text = tok.decode(seq.ids.tolist())
    expected = {"copy": "cabb|cabb", "reverse": "cabb|bbac", "sort": "cabb|abbc"}[task]
    assert text == expected
    assert tok.encode(expected).ids == tuple(seq.ids.tolist())
    # The answer targets are exactly the letters after the separator.
    answer_targets = seq.ids[1:][seq.answer[:-1]]
    assert tok.decode(answer_targets.tolist()) == expected.split("|")[1]


def test_induction_is_character_level_letters():
    corpus = get_corpus("induction")
    assert corpus.tokenizer.vocab_size == 28  # <pad>, <unk>, a–z: letters.json
    assert len(corpus.tokenizer.encode("qwertyqwerty")) == 12
    seq = corpus.make(np.array([16, 22, 4]))  # q w e
    assert corpus.tokenizer.decode(seq.ids.tolist()) == "qweqwe"
    # Predictable targets: queries n … 2n−2 predict the repeat's 2nd … last letters.
    assert seq.answer.tolist() == [False, False, False, True, True, False]


def test_task_batches_are_fixed_by_seed_and_heldout_is_fixed():
    corpus = get_corpus("copy")
    a = next(corpus.train_batches(8, 21, seed=3))
    b = next(corpus.train_batches(8, 21, seed=3))
    c = next(corpus.train_batches(8, 21, seed=4))
    assert torch.equal(a.ids, b.ids) and not torch.equal(a.ids, c.ids)
    h1, h2 = corpus.heldout_sequences(21), corpus.heldout_sequences(21)
    assert all(np.array_equal(x.ids, y.ids) for x, y in zip(h1, h2))
    # Answer-only loss: every counted target is an answer target.
    assert bool(((a.targets != IGNORE) == a.answer).all())


def test_task_context_too_short_is_a_clear_error():
    with pytest.raises(ConfigError, match="too short"):
        next(TaskCorpus("copy", 5, 8).train_batches(4, 6, 0))


def test_make_batch_pads_and_ignores_padding():
    b = make_batch([Sequence(np.array([5, 6, 7])), Sequence(np.array([8, 9]))], pad_id=0)
    assert b.ids.tolist() == [[5, 6, 7], [8, 9, 0]]
    assert b.targets.tolist() == [[6, 7, IGNORE], [9, IGNORE, IGNORE]]
    assert b.tokens == 5 and b.n_targets == 3


def test_shipped_corpora_load_without_unknown_tokens():
    for name in ("tiny-en", "tiny-ja", "english"):
        corpus = get_corpus(name)
        unk = corpus.tokenizer.unk_id
        assert not any((s == unk).any() for s in corpus.train_ids[:2000]), name
        assert not any((s == unk).any() for s in corpus.heldout_ids), name
    assert len(get_corpus("tiny-en").heldout_ids) == len(get_corpus("tiny-ja").heldout_ids) == 2000
    assert get_corpus("tiny-en").tokenizer.kind == "word"  # the note's style, and the seed-toy's vocabulary
    # The presets' corpora use the presets' subword vocabularies, so training continues a shown preset.
    assert get_corpus("tiny-ja").tokenizer.to_str() == load_preset("japanese").tokenizer.to_str()
    assert get_corpus("english").tokenizer.to_str() == load_preset("classroom").tokenizer.to_str()


def test_a_shipped_corpus_with_another_vocabulary_is_rebuilt_from_its_spec():
    corpus = get_corpus("tiny-ja", tokenizer="chars-ja.json")
    assert corpus.tokenizer.kind == "char" and corpus.spec() == {"name": "tiny-ja", "tokenizer": "chars-ja.json"}
    again = corpus_from_spec(corpus.spec())
    assert again.tokenizer.to_str() == corpus.tokenizer.to_str()
    assert get_corpus("tiny-ja").spec() == {"name": "tiny-ja"}


def test_induction_sequences_can_start_after_a_random_prefix():
    assert get_corpus("induction").max_prefix == 0  # by default the repeat starts at 0 (the preset's recipe asks for 8)
    corpus = get_corpus("induction", min_len=3, max_len=30, max_prefix=8)
    assert corpus.spec()["max_prefix"] == 8 and corpus_from_spec(corpus.spec()).max_prefix == 8
    seqs = corpus.sample(np.random.default_rng(0), 2000)
    lengths, prefixes = [], []
    for s in seqs:
        ids = s.ids.tolist()
        n = int(s.answer.sum()) + 1  # the answer covers queries p+n … p+2n−2
        p = len(ids) - 2 * n
        assert 0 <= p <= 8 and ids[p : p + n] == ids[p + n :]
        assert s.answer.tolist() == [p + n <= i <= p + 2 * n - 2 for i in range(len(ids))]
        lengths.append(n)
        prefixes.append(p)
    assert min(lengths) == 3 and max(lengths) == 30
    assert set(prefixes) == set(range(9))
    assert corpus.default_context == 2 * 30 + 8


def test_induction_rows_with_distinct_letters_have_one_earlier_occurrence_of_each_letter():
    # The induction preset's recipe: half the rows write n different letters after a prefix of other letters,
    # so that in them a letter seen once before always means "copy what followed it".
    corpus = get_corpus("induction", min_len=3, max_len=30, max_prefix=8, min_alphabet=13, distinct=0.5)
    assert corpus.spec()["distinct"] == 0.5 and corpus_from_spec(corpus.spec()).distinct == 0.5
    assert "distinct" not in get_corpus("induction").spec()  # checkpoints of older runs keep their spec
    seqs = corpus.sample(np.random.default_rng(1), 4000)
    clean = fits = 0
    for s in seqs:
        ids = s.ids.tolist()
        n = int(s.answer.sum()) + 1
        p = len(ids) - 2 * n
        assert 0 <= p <= 8 and ids[p : p + n] == ids[p + n :]
        if p + n <= 26:  # 26 letters can hold the prefix and the string without a repeat
            fits += 1
            clean += len(set(ids[: p + n])) == p + n  # nothing repeats before the second copy
    # Distinct rows (half) plus the rows of a 13–26 letter alphabet that repeat nothing by chance (few).
    assert 0.5 <= clean / fits <= 0.65, clean / fits
    with pytest.raises(ConfigError, match="distinct letters must be 0"):
        get_corpus("induction", distinct=1.5)


def test_text_file_corpus_split_is_fixed_and_char_or_word_level(tmp_path):
    lines = [f"the cat number {i} sat on the mat ." for i in range(100)]
    path = tmp_path / "notes.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    chars = get_corpus(str(path))
    assert chars.tokenizer.kind == "char"
    assert len(chars.heldout_ids) == 10 and len(chars.train_ids) == 90
    again = get_corpus(str(path), split_seed=0, mode="lines")
    assert [s.tolist() for s in again.heldout_ids] == [s.tolist() for s in chars.heldout_ids]
    words = get_corpus(str(path), word_level=True)
    assert words.tokenizer.kind == "word"
    assert len(words.tokenizer.encode("the cat sat")) == 3
    b = next(words.train_batches(4, 16, seed=0))
    assert b.ids.shape[0] == 4


def test_long_text_file_is_packed_into_windows(tmp_path):
    path = tmp_path / "long.txt"
    rng = np.random.default_rng(0)
    path.write_text("\n".join("".join(rng.choice(list("abcde "), size=300)) for _ in range(30)), encoding="utf-8")
    corpus = get_corpus(str(path))
    assert type(corpus).__name__ == "StreamCorpus"
    b = next(corpus.train_batches(3, 20, seed=0))
    assert tuple(b.ids.shape) == (3, 20)
    assert all(len(s) == 20 for s in corpus.heldout_sequences(20))


def test_bad_files_are_input_errors(tmp_path):
    with pytest.raises(InputError, match="no such corpus"):
        get_corpus(str(tmp_path / "missing.txt"))
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("café\n".encode("latin-1") * 50)
    with pytest.raises(InputError, match="not UTF-8"):
        get_corpus(str(bad))


# ----------------------------------------------------------------------------------------- baselines


def test_baselines_are_distributions_and_bigram_beats_unigram_on_tiny_en():
    corpus = get_corpus("tiny-en")
    base = baselines_for(corpus, 64)
    assert base["bigram_loss"] < base["unigram_loss"] - 1.0
    model = NGramBaselines.fit(
        corpus.baseline_sequences(64)[:500], corpus.tokenizer.vocab_size, corpus.tokenizer.pad_id
    )
    V = corpus.tokenizer.vocab_size
    w = np.array([i for i in range(V) if i != corpus.tokenizer.pad_id])
    for prev in (2, 5, 300):  # a frequent, a common and a rare context
        total = np.exp(model.bigram_logprob(np.full(len(w), prev), w)).sum()
        assert total == pytest.approx(1.0, abs=1e-9)
    assert np.exp(model.unigram_logprob(w)).sum() == pytest.approx(1.0, abs=1e-9)


# ------------------------------------------------------------------------------------------- the loop


def test_schedule_warms_up_then_decays_by_cosine():
    s = TrainSettings(steps=100, lr=1e-2, warmup=10, min_lr_ratio=0.1)
    lrs = [s.lr_at(i) for i in range(100)]
    assert lrs[0] == pytest.approx(1e-3) and lrs[9] == pytest.approx(1e-2)
    assert all(a >= b for a, b in zip(lrs[10:], lrs[11:]))
    assert lrs[-1] == pytest.approx(1e-3, rel=0.05)


def test_bad_settings_are_config_errors():
    for bad in (dict(steps=0), dict(lr=-1.0), dict(batch_size=0), dict(context=1)):
        with pytest.raises(ConfigError):
            TrainSettings(**bad)


def test_training_loss_decreases_on_a_tiny_task(tmp_path):
    corpus = get_corpus("copy")
    seen = []
    result = train(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, layers=1),
        TrainSettings(steps=40, batch_size=16, lr=3e-3, eval_every=20, seed=1),
        callback=seen.append,
    )
    assert [p.step for p in seen] == list(range(41))  # step 0, then one report per step
    held = [p.heldout_loss for p in seen if p.heldout_loss is not None]
    assert len(held) == 3  # steps 0, 20, 40
    assert held[-1] < held[0] - 0.3, held
    assert all(p.tokens_per_s > 0 for p in seen[1:])
    assert "accuracy" in result.metrics and 0 <= result.metrics["accuracy"] <= 1
    assert result.steps == 40 and not result.cancelled


def test_same_seed_gives_the_same_weights():
    corpus = get_corpus("reverse")
    cfg = tiny_config(corpus.tokenizer.vocab_size, layers=1)
    s = TrainSettings(steps=5, batch_size=8, seed=7, eval_every=0)
    a, b = train(corpus, cfg, s), train(corpus, cfg, s)
    for (ka, va), (kb, vb) in zip(a.bundle.model.state_dict().items(), b.bundle.model.state_dict().items()):
        assert ka == kb and torch.equal(va, vb)


def test_cancel_stops_within_a_step_and_keeps_the_checkpoints(tmp_path):
    corpus = get_corpus("copy")
    cancel = threading.Event()
    steps_seen = []

    def on_step(p):
        steps_seen.append(p.step)
        if p.step == 5:
            cancel.set()

    trainer = Trainer(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, layers=1),
        TrainSettings(steps=1000, batch_size=8, checkpoint_every=2, eval_every=0),
        run_dir=tmp_path / "run",
    )
    result = trainer.run(on_step, cancel)
    assert result.cancelled and result.steps == 5 and steps_seen[-1] == 5
    steps = [s for s, _ in list_checkpoints(tmp_path / "run")]
    assert steps == [0, 2, 4, 5]  # periodic ones, and where it stopped
    assert result.checkpoint == tmp_path / "run" / "step-000005"
    assert load_checkpoint(result.checkpoint).model.state_dict()["embed.tok"].shape[0] == corpus.tokenizer.vocab_size
    assert [r["step"] for r in read_log(tmp_path / "run")] == [0, 5]


def test_cancel_without_saving_keeps_the_last_periodic_checkpoint(tmp_path):
    corpus = get_corpus("copy")
    cancel = threading.Event()
    trainer = Trainer(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, layers=1),
        TrainSettings(steps=1000, batch_size=8, checkpoint_every=4, eval_every=0, save_on_cancel=False),
        run_dir=tmp_path / "run",
    )
    result = trainer.run(lambda p: cancel.set() if p.step == 6 else None, cancel)
    assert result.steps == 6
    assert [s for s, _ in list_checkpoints(tmp_path / "run")] == [0, 4]
    assert result.checkpoint == tmp_path / "run" / "step-000004"


def test_cancel_before_start_does_no_step():
    corpus = get_corpus("copy")
    cancel = threading.Event()
    cancel.set()
    result = Trainer(
        corpus, tiny_config(corpus.tokenizer.vocab_size, layers=1), TrainSettings(steps=10, batch_size=4)
    ).run(None, cancel)
    assert result.steps == 0 and result.cancelled


def test_snapshot_is_a_copy_that_training_does_not_touch():
    corpus = get_corpus("copy")
    trainer = Trainer(
        corpus, tiny_config(corpus.tokenizer.vocab_size, layers=1), TrainSettings(steps=3, batch_size=4, eval_every=0)
    )
    before = trainer.snapshot()
    w0 = before.model.embed.tok.detach().clone()
    trainer.run()
    assert torch.equal(before.model.embed.tok, w0)
    assert not torch.equal(trainer.snapshot().model.embed.tok, w0)


def test_keep_only_the_newest_checkpoints(tmp_path):
    corpus = get_corpus("copy")
    Trainer(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, layers=1),
        TrainSettings(steps=8, batch_size=4, checkpoint_every=1, keep_checkpoints=2, eval_every=0),
        run_dir=tmp_path,
    ).run()
    assert [s for s, _ in list_checkpoints(tmp_path)] == [0, 7, 8]  # the random start is always kept


def test_learned_positions_cap_the_context():
    corpus = get_corpus("tiny-en")
    with pytest.raises(ConfigError, match="learned positions"):
        Trainer(corpus, tiny_config(corpus.tokenizer.vocab_size), TrainSettings(context=64))


# ------------------------------------------------------------------------------------------------ eval


def test_eval_of_a_checkpoint_reports_loss_and_baselines_on_the_same_tokens(tmp_path):
    corpus = get_corpus("tiny-en")
    trainer = Trainer(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, positions="sinusoidal"),
        TrainSettings(steps=2, batch_size=4, eval_every=0),
        run_dir=tmp_path,
    )
    result = trainer.run()
    out = evaluate_bundle(load_checkpoint(result.checkpoint))
    assert {"heldout_loss", "unigram_loss", "bigram_loss", "tokens"} <= set(out)
    assert out["corpus"] == "tiny-en" and out["step"] == 2
    assert out["bigram_loss"] < out["unigram_loss"]
    assert out["tokens"] == baselines_for(corpus, out["context"])["tokens"] > 10_000
    assert out["heldout_loss"] == pytest.approx(result.heldout_loss, rel=1e-5)


def test_eval_of_a_task_reports_accuracy(tmp_path):
    corpus = get_corpus("sort")
    result = Trainer(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, layers=1),
        TrainSettings(steps=2, batch_size=4, eval_every=0),
        run_dir=tmp_path,
    ).run()
    out = evaluate_bundle(load_checkpoint(result.checkpoint))
    assert out["corpus"] == "sort" and out["answer_only"] is True
    assert 0 <= out["accuracy"] <= 1 and 0 <= out["exact_match"] <= 1 and 0 < out["correct_prob"] < 1


def test_eval_refuses_a_model_with_another_vocabulary(tmp_path):
    corpus = get_corpus("copy")
    result = Trainer(
        corpus,
        tiny_config(corpus.tokenizer.vocab_size, layers=1),
        TrainSettings(steps=1, batch_size=4, eval_every=0),
        run_dir=tmp_path,
    ).run()
    with pytest.raises(ConfigError, match="vocabulary"):
        evaluate_bundle(load_checkpoint(result.checkpoint), "tiny-en")


def test_adamw_matches_the_closed_form_for_a_constant_gradient():
    from explorer.train.optim import AdamW

    p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = AdamW([{"params": [p], "weight_decay": 0.1}], lr=0.01, betas=(0.9, 0.99))
    expected = p.detach().clone()
    for _ in range(3):
        opt.zero_grad()
        p.grad = torch.tensor([0.5, -4.0])
        opt.step()
        # m̂ = g and v̂ = g² exactly (bias-corrected), so each step moves lr·sign(g) after the decay.
        expected = expected * (1 - 0.01 * 0.1) - 0.01 * torch.sign(torch.tensor([0.5, -4.0]))
    assert torch.allclose(p.detach(), expected, atol=1e-6)


# ------------------------------------------------------------------------------------- induction heads


def test_induction_targets_of_a_repeated_sequence_and_of_other_text():
    from explorer.train.induction import induction_targets

    # "abcabc": queries 3, 4, 5 (second half) → keys 1, 2, 3 (the token after the first occurrence).
    assert induction_targets([5, 6, 7, 5, 6, 7]) == [(3, 1), (4, 2), (5, 3)]
    # Duplicates in a repeated sequence still point at the copy: "abab|abab" query 4 (a) → key 1.
    assert induction_targets([1, 2, 1, 2, 1, 2, 1, 2]) == [(4, 1), (5, 2), (6, 3), (7, 4)]
    # Other text: the longest earlier match wins; tokens never seen before are not counted.
    assert induction_targets([1, 2, 9, 3, 2, 8, 1, 2]) == [(4, 2), (6, 1), (7, 2)]


def test_induction_scores_have_one_value_per_head():
    from explorer.config import RunOptions
    from explorer.trace import run_trace
    from explorer.train.induction import best_head, induction_scores, previous_token_scores
    from explorer.weights.presets import load_preset

    bundle = load_preset("induction", random_weights=True)
    trace = run_trace(bundle, "qwertyqwerty\nabcdab", RunOptions(lazy_pairwise=True))
    scores = induction_scores(trace)
    assert scores.shape == (2, 4) and np.all((scores >= 0) & (scores <= 1))
    prev = previous_token_scores(trace)
    assert prev.shape == (2, 4) and np.all((prev >= 0) & (prev <= 1))
    l, h, s = best_head(scores)
    assert s == scores[l, h] == np.max(scores)
    full = run_trace(bundle, "qwertyqwerty\nabcdab")  # the same numbers from stored maps
    assert np.allclose(induction_scores(full), scores, atol=1e-6)


def test_a_batch_larger_than_a_small_corpus_still_comes(tmp_path):
    path = tmp_path / "few.txt"
    path.write_text("\n".join(f"short line {i}" for i in range(12)) + "\n", encoding="utf-8")
    corpus = get_corpus(str(path))
    assert len(corpus.train_ids) < 32
    batches = corpus.train_batches(32, 16, seed=0)
    assert next(batches).ids.shape[0] == 32 and next(batches).ids.shape[0] == 32
