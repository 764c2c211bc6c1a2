"""`attention-explorer train` and `eval` from the command line."""

from __future__ import annotations

import json

from explorer.cli import main
from explorer.train.loop import list_checkpoints

SMALL = ["-E", "16", "-D", "4", "-H", "2", "-L", "1"]


def test_train_on_copy_then_eval(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(
        [
            "train",
            "--corpus",
            "copy",
            "--steps",
            "20",
            "--batch-size",
            "8",
            "--eval-every",
            "10",
            "--checkpoint-every",
            "10",
            "--out",
            str(out),
            *SMALL,
        ]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "trained 20 steps" in captured.out and "held-out" in captured.out and "bigram" in captured.out
    assert "20/20" in captured.err or "20it" in captured.err or "20/20 [" in captured.err  # a progress bar on stderr
    assert [s for s, _ in list_checkpoints(out)] == [0, 10, 20]

    code = main(["eval", str(out / "step-000020")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    result = json.loads(captured.out)
    assert {"heldout_loss", "unigram_loss", "bigram_loss", "tokens"} <= set(result)
    assert result["corpus"] == "copy" and result["tokens"] > 0
    assert 0 <= result["accuracy"] <= 1


def test_train_refuses_to_mix_runs_in_one_folder(tmp_path, capsys):
    out = tmp_path / "run"
    assert (
        main(["train", "--corpus", "reverse", "--steps", "2", "--batch-size", "4", "--out", str(out), "-q", *SMALL])
        == 0
    )
    assert main(["train", "--corpus", "reverse", "--steps", "2", "--out", str(out), "-q", *SMALL]) == 2
    assert "already holds a run" in capsys.readouterr().err


def test_user_errors_are_one_line_messages(tmp_path, capsys):
    assert main(["train", "--corpus", str(tmp_path / "nope.txt"), "--steps", "2", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no such corpus") and "Traceback" not in err
    assert main(["eval", str(tmp_path)]) == 2
    assert "error:" in capsys.readouterr().err
    assert main(["eval", "--preset", "seed-toy"]) == 2
    assert "no trained weights" in capsys.readouterr().err
    assert main(["eval"]) == 2
    capsys.readouterr()


def test_train_on_a_text_file(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("\n".join(f"line {i} of my own notes ." for i in range(40)) + "\n", encoding="utf-8")
    out = tmp_path / "run"
    assert (
        main(
            [
                "train",
                "--corpus",
                str(text),
                "--word-level",
                "--steps",
                "3",
                "--batch-size",
                "4",
                "--out",
                str(out),
                "-q",
                *SMALL,
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["eval", str(out / "step-000003")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["corpus"] == "notes.txt" and result["bigram_loss"] < result["unigram_loss"]


def _tiny_run(tmp_path, corpus: str) -> str:
    out = tmp_path / corpus
    args = ["train", "--corpus", corpus, "--steps", "2", "--batch-size", "4", "--out", str(out), "-q", *SMALL]
    assert main(args) == 0
    return str(out / "step-000002")


def test_eval_scores_a_model_of_another_vocabulary_in_the_corpus_tokens(tmp_path, capsys):
    from explorer.train.corpora import get_corpus
    from explorer.train.evaluate import baselines_for

    ja = _tiny_run(tmp_path, "tiny-ja")  # character BPE with byte fallback: any English text has tokens
    capsys.readouterr()
    assert main(["eval", ja, "--corpus", "english"]) == 2
    err = capsys.readouterr().err
    assert "not the one of english" in err and "--other-vocabulary" in err and len(err.strip().splitlines()) == 1

    assert main(["eval", ja, "--corpus", "english", "--other-vocabulary"]) == 0
    result = json.loads(capsys.readouterr().out)
    english = baselines_for(get_corpus("english"), 64)
    assert result["corpus"] == "english" and result["tokens"] == english["tokens"]
    assert result["bigram_loss"] == english["bigram_loss"] and "other_vocabulary" in result
    # a barely trained model of 881 pieces spends several of its tokens on each English word: far above the bigram
    assert result["heldout_loss"] > english["bigram_loss"]

    words = _tiny_run(tmp_path, "tiny-en")  # 311 words: most of the cookies' words are <unk>
    capsys.readouterr()
    assert main(["eval", words, "--corpus", "english", "--other-vocabulary"]) == 2
    err = capsys.readouterr().err
    assert "has no token for" in err and "would not compare with the baselines" in err
