"""What a TraceResult gives, checked against independent sources: the next token against a numpy softmax of
the trace's logits and the shipped vocabulary file; tokens against the words the toy vocabulary splits;
the anatomy, the comparison, the attribution, the generation and the model list against what the matching
commands print for the same input."""

from __future__ import annotations

import json

import numpy as np
import pytest

import explorer as ax
from explorer.cli import main
from explorer.util.paths import resource

PEN = "This is a pen ."
VOCAB = json.loads(resource("tokenizers", "words-en.json").read_text(encoding="utf-8"))["model"]["vocab"]
WORD_OF = {i: w for w, i in VOCAB.items()}


def cli(capsys, *argv) -> str:
    assert main([str(a) for a in argv]) == 0
    return capsys.readouterr().out


def softmax64(row: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    z = row.astype(np.float64) / temperature
    e = np.exp(z - z.max())
    return e / e.sum()


@pytest.mark.parametrize("temperature", [1.0, 0.5])
def test_next_token_is_the_softmax_of_the_last_logits(temperature):
    t = ax.trace(PEN, preset="seed-toy", temperature=temperature)
    probs = softmax64(np.asarray(t["logits"])[0, 4], temperature)
    ids = np.argsort(-probs, kind="stable")[:5]
    got = t.next_token(top=5)
    assert [w for w, _ in got] == [WORD_OF[int(i)] for i in ids]
    assert np.allclose([p for _, p in got], probs[ids], rtol=1e-5, atol=1e-7)
    assert got[0][1] >= got[-1][1]


def test_next_token_of_a_short_row_reads_its_last_token_not_the_padding():
    t = ax.trace("This is\na pen .", preset="seed-toy")  # row 0: 2 tokens, padded to 3
    assert t.rows == [["This", "is"], ["a", "pen", "."]] and t.tokens == ["This", "is"]
    probs = softmax64(np.asarray(t["logits"])[0, 1])
    assert t.next_token(top=1, row=0)[0][0] == WORD_OF[int(np.argmax(probs))]
    assert t.next_token(top=1, row=0, position=1) == t.next_token(top=1, row=0)


def test_arrays_are_the_cores_own_read_only_arrays():
    t = ax.trace(PEN, preset="seed-toy")
    a = t["layers.0.attn.weights"]
    assert a is t.core["layers.0.attn.weights"] and not a.flags.writeable
    assert a.shape == (1, 2, 5, 5)  # the note's toy: H = 2, five tokens
    assert t.config.H == 2 and t.config.L == 1
    assert "seed-toy" in repr(t) and "5 tokens" in repr(t) and "\n" not in repr(t)


def test_select_gives_a_new_result_and_keeps_the_old():
    t = ax.trace(PEN, preset="seed-toy")
    s = t.select(stage="scores", head=1, token=3)
    assert (s.selection.stage, s.selection.head, s.selection.token) == ("scores", 1, 3)
    assert (t.selection.stage, t.selection.head, t.selection.token) == ("weights", 0, None)
    assert s.core is t.core


def test_cell_explains_as_the_anatomy_command_prints(capsys):
    command = ("anatomy", PEN, "--preset", "seed-toy", "--stage", "weights", "--head", "1", "--query", "3")
    out = cli(capsys, *command, "--key", "1")
    cell = ax.trace(PEN, preset="seed-toy").cell("weights", head=1, query=3, key=1)
    assert repr(cell) == out.rstrip("\n")
    steps = cell.explain()
    assert steps[-1].result == pytest.approx(float(cell.trace["layers.0.attn.weights"][0, 1, 3, 1]), abs=0)
    assert cell.to_json() == json.loads(cli(capsys, *command, "--key", "1", "--json"))


def test_compare_reports_as_the_compare_command(capsys):
    out = cli(capsys, "compare", PEN, "This is a dog .", "--preset", "seed-toy")
    a, b = ax.trace(PEN, preset="seed-toy"), ax.trace("This is a dog .", preset="seed-toy")
    comparison = a.compare(b)
    assert repr(comparison) == out.rstrip("\n")
    assert comparison.heads[0].mean >= comparison.heads[-1].mean


def test_attribute_gives_the_commands_object_and_report(capsys):
    args = ["attribute", PEN, "--preset", "seed-toy", "--target", "run"]
    out = cli(capsys, *args)
    as_json = json.loads(cli(capsys, *args, "--json"))
    got = ax.attribute(PEN, target="run", preset="seed-toy")
    assert dict(got) == as_json
    assert repr(got) == out.rstrip("\n")


def test_models_lists_what_info_models_lists(capsys):
    rows = json.loads(cli(capsys, "info", "--models", "--json"))
    got = ax.models()
    assert list(got) == rows and len(rows) > 3
    assert repr(got).splitlines()[0].startswith("name")


def test_generate_writes_what_the_generate_command_writes(capsys):
    out = cli(capsys, "generate", "This is a", "-n", "4", "--preset", "seed-toy", "--json")
    expected = json.loads(out)
    got = ax.generate("This is a", n=4, preset="seed-toy")
    assert got.text == expected["text"]
    assert [s["token"] for s in got.steps] == [s["token"] for s in expected["steps"]]
    assert got.trace.core is got.generation.trace
    sampled = ax.generate("This is a", n=4, preset="seed-toy", temperature=2.0, seed=7)
    assert [s["token"] for s in sampled.steps] == [
        s["token"]
        for s in json.loads(
            cli(
                capsys,
                "generate",
                "This is a",
                "-n",
                "4",
                "--preset",
                "seed-toy",
                "--temperature",
                "2",
                "--seed",
                "7",
                "--json",
            )
        )["steps"]
    ]


def test_a_preset_is_built_once_for_many_calls_and_gives_the_same_numbers():
    from explorer.api import calls

    first = ax.trace(PEN, preset="seed-toy", embed_dim=4, seed=11)
    models = calls.preset_models(first.source)
    loads = models.loads
    again = ax.trace("This is a dog .", preset="seed-toy", embed_dim=4, seed=11)
    ax.generate("This is a", n=2, preset="seed-toy", embed_dim=4, weights_seed=11)  # seed= is the sampling's
    assert models.loads == loads  # the same source: the kept model
    assert np.array_equal(again["params.embed.tok"], first["params.embed.tok"])
    other = ax.trace(PEN, preset="seed-toy", embed_dim=4, seed=12)
    assert models.loads == loads + 1  # another seed is another model
    assert not np.array_equal(other["params.embed.tok"], first["params.embed.tok"])
