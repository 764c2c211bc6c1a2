"""One exception type with the command's lines (issue 41): each mistake below raises ``explorer.Error`` whose
message is exactly the line ``attention-explorer export`` prints after ``error:`` for the same mistake; a
keyword that is no option is refused by name (never a TypeError, never ignored)."""

from __future__ import annotations

import dataclasses

import pytest

import explorer as ax
from explorer.cli import main
from explorer.errors import ExplorerError

PEN = "This is a pen ."

# (the export command's flags, the same mistake as explorer.trace's keywords)
MISTAKES = {
    "zero heads": (["--preset", "seed-toy", "-H", "0"], {"preset": "seed-toy", "H": 0}),
    "zero width": (["-E", "0"], {"embed_dim": 0}),
    "bad mask": (["--preset", "seed-toy", "--mask", "bogus"], {"preset": "seed-toy", "mask": "bogus"}),
    "window of 0": (["--preset", "seed-toy", "--mask", "window:0"], {"preset": "seed-toy", "mask": "window:0"}),
    "no such preset": (["--preset", "nope"], {"preset": "nope"}),
    "layer not there": (
        ["--preset", "seed-toy", "--layers-to-capture", "4"],
        {"preset": "seed-toy", "layers_to_capture": [4]},
    ),
    "bare with a norm": (["--bare", "--norm", "layernorm"], {"bare": True, "norm": "layernorm"}),
    "sizes with a model": (["--model", "x", "-H", "2"], {"model": "x", "heads": 2}),
    "bad ablation": (["--preset", "seed-toy", "--ablate", "0.9"], {"preset": "seed-toy", "ablate": "0.9"}),
    "empty text": (["--preset", "seed-toy"], {"preset": "seed-toy"}),
}


def cli_error(capsys, text: str, flags: list[str], tmp_path) -> str:
    code = main(["export", text, *flags, "-o", str(tmp_path / "e.npz")])
    err = capsys.readouterr().err
    assert code != 0
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0].removeprefix("error: ")


@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_mistake_raises_explorer_error_with_the_commands_line(capsys, tmp_path, mistake):
    flags, options = MISTAKES[mistake]
    text = "" if mistake == "empty text" else PEN
    expected = cli_error(capsys, text, flags, tmp_path)
    with pytest.raises(ax.Error) as raised:
        ax.trace(text, **options)
    assert str(raised.value) == expected


def test_a_name_the_trace_lacks_is_the_names_line_and_a_key_error(capsys, tmp_path):
    expected = cli_error(capsys, PEN, ["--preset", "seed-toy", "--names", "nothing.like.this"], tmp_path)
    t = ax.trace(PEN, preset="seed-toy")
    with pytest.raises(ax.Error) as raised:
        t["nothing.like.this"]
    assert str(raised.value) == expected
    assert isinstance(raised.value, KeyError)
    assert "nothing.like.this" not in t and "layers.0.attn.weights" in t


def test_an_unknown_keyword_is_refused_by_name():
    with pytest.raises(ax.Error, match=r"trace\(\) has no option 'num_heads'; its options are: .*heads"):
        ax.trace(PEN, preset="seed-toy", num_heads=2)
    with pytest.raises(ax.Error, match=r"generate\(\) has no option 'ablate'"):
        ax.generate(PEN, n=2, preset="seed-toy", ablate="0.1")  # generation runs no interventions
    with pytest.raises(ax.Error, match="heads and H are the same size"):
        ax.trace(PEN, preset="seed-toy", heads=2, H=2)


def test_places_the_trace_lacks_are_refused_in_one_line():
    t = ax.trace(PEN, preset="seed-toy")  # 1 layer, 2 heads, 5 tokens
    for bad, message in (
        (dict(layer=1), "layer 1 does not exist: choose 0 … 0"),
        (dict(head=2), "head 2 does not exist: choose 0 … 1"),
        (dict(token=5), "token 5 does not exist: choose 0 … 4"),
        (dict(stage="no-such-stage"), "this model has no stage 'no-such-stage'"),
    ):
        with pytest.raises(ax.Error) as raised:
            t.select(**bad)
        assert str(raised.value) == message
    with pytest.raises(ax.Error, match="position 5 does not exist"):
        t.next_token(position=5)
    with pytest.raises(ax.Error, match="head 2 does not exist: choose 0 … 1"):
        t.cell("weights", head=2, query=1, key=0)  # the anatomy command's line
    with pytest.raises(ax.Error, match="top must be a whole number of at least 1"):
        t.next_token(top=0)


def test_an_encoder_has_no_next_token():
    t = ax.trace(PEN, preset="seed-toy")
    encoder = dataclasses.replace(t.core.config, bidirectional=True)
    t = ax.TraceResult(t.core.replace(config=encoder))
    with pytest.raises(ExplorerError, match="an encoder.*predicts no next token"):
        t.next_token()


def test_the_signature_lists_every_option_with_its_real_default():
    """help(explorer.trace) names each option; given explicitly at the default it shows, each changes nothing."""
    import inspect

    import numpy as np

    shown = {
        p.name: p.default
        for p in inspect.signature(ax.trace).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    assert {"embed_dim", "E", "heads", "mask", "scale", "temperature", "ablate", "patch_from"} <= set(shown)
    plain = ax.trace(PEN, preset="seed-toy")
    spelled = ax.trace(PEN, preset="seed-toy", **shown)
    assert spelled.options == plain.options and spelled.source == plain.source
    assert np.array_equal(spelled["logits"], plain["logits"])
