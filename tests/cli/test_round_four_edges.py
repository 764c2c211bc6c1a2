"""Issue 44, every command's edges, as real processes: standard output to a full disk in the default
environment (buffered: no PYTHONUNBUFFERED), a reader that left, an encoder given every command and flag that
assumes a decoder, the worksheet's --row and --temperature, figure --tensor names, and data from files on
standard output. Each ends in one line with the documented exit code, never a traceback, and writes nothing
it was refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))
import hostile  # noqa: E402
from hostile import PEN, ROOT, one_error, run_cli  # noqa: E402

# The default environment: PYTHONUNBUFFERED (set on the machines this project is built on) hid the bug.
DEFAULT_ENV = {
    **{k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"},
    "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    "QT_QPA_PLATFORM": "offscreen",
}


def _process(argv, tmp_path: Path, stdout, env: dict | None = None, timeout: float = 120):
    return subprocess.run(
        [sys.executable, "-m", "explorer", *map(str, argv)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**DEFAULT_ENV, "XDG_CONFIG_HOME": str(tmp_path / ".config"), **(env or {})},
        cwd=tmp_path,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def good(tmp_path_factory) -> Path:
    return hostile.good_snapshot(tmp_path_factory.mktemp("good") / "good.npz")


# ------------------------------------------------------------------------------------------ standard output

FULL_DISK = {
    "version": ["--version"],
    "help": ["--help"],
    "export-help": ["export", "--help"],
    "eval-help": ["eval", "--help"],
    "info-models": ["info", "--models"],
    "info-models-json": ["info", "--models", "--json"],
    "info-snapshot": ["info", "{good}"],
    "lesson-check": ["lesson", "check", "builtin"],
    "attribute-json": ["attribute", PEN, "--preset", "seed-toy", "--target-id", "3", "--json"],
    "generate-json": ["generate", "This is", "--preset", "seed-toy", "-n", "2", "--json"],
    "generate-text": ["generate", "This is", "--preset", "seed-toy", "-n", "2"],
    "figure": ["figure", PEN, "--preset", "seed-toy", "--stage", "weights", "-o", "{tmp}/f.svg"],
    "anatomy-json": [
        "anatomy",
        PEN,
        "--preset",
        "seed-toy",
        "--stage",
        "weights",
        "--query",
        "2",
        "--key",
        "1",
        "--json",
    ],
}


@pytest.mark.parametrize("case", list(FULL_DISK))
def test_a_full_disk_on_standard_output_is_one_line_and_exit_2_in_the_default_environment(tmp_path, good, case):
    """`> /dev/full` printed the error line, then "Exception ignored … OSError", and exited 120 unless
    PYTHONUNBUFFERED was set."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    argv = [a.format(good=good, tmp=tmp_path) for a in FULL_DISK[case]]
    with open("/dev/full", "w") as full:
        r = _process(argv, tmp_path, stdout=full)
    assert r.returncode == 2, r.stderr
    assert "cannot write the output: the disk is full" in one_error(r.stderr)
    assert "Exception ignored" not in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr


@pytest.mark.parametrize("case", ["version", "info-models", "lesson-check", "attribute-json"])
def test_a_reader_that_left_is_quiet_in_the_default_environment(tmp_path, good, case):
    read, write = os.pipe()
    os.close(read)
    try:
        r = _process([a.format(good=good, tmp=tmp_path) for a in FULL_DISK[case]], tmp_path, stdout=write)
    finally:
        os.close(write)
    assert r.returncode == 141, r.stderr
    assert r.stderr == ""


# ------------------------------------------------------------------------------------------ encoders


@pytest.fixture(scope="module")
def bert(tmp_path_factory) -> Path:
    """A tiny random BERT (E=8, H=2, one layer) saved by transformers, with its WordPiece tokenizer."""
    transformers = pytest.importorskip("transformers")
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", ".", "it", "was"]
    hf = Tokenizer(models.WordPiece({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    hf.add_special_tokens(words[:5])
    hf.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1", special_tokens=[("[CLS]", 2), ("[SEP]", 3)]
    )
    folder = tmp_path_factory.mktemp("bert")
    for name, segments in (("two", 2), ("one", 1)):
        cfg = transformers.BertConfig(
            vocab_size=len(words),
            hidden_size=8,
            num_hidden_layers=1,
            num_attention_heads=2,
            intermediate_size=16,
            max_position_embeddings=32,
            pad_token_id=0,
            type_vocab_size=segments,
        )
        torch.manual_seed(0)
        transformers.BertForMaskedLM(cfg).save_pretrained(folder / name)
        (folder / name / "tokenizer.json").write_text(hf.to_str(), encoding="utf-8")
    return folder


SENTENCE = "the cat sat on the mat ."


@pytest.mark.parametrize(
    "argv",
    [
        ["attribute", SENTENCE, "--target", "mat"],
        ["attribute", SENTENCE, "--target-id", "9", "--json"],
        ["attribute", SENTENCE, "--target", "mat", "--position", "2"],
    ],
    ids=["attribute", "attribute-json", "attribute-position"],
)
def test_attribute_refuses_every_encoder_in_one_line(tmp_path, bert, argv):
    """KeyError params.ln_final.weight before: the encoder's logits come from its masked-LM head."""
    code, out, err, _ = run_cli(tmp_path, *argv, "--model", bert / "two")
    assert code == 2 and out == ""
    assert "an encoder (BERT, RoBERTa, DistilBERT) predicts a [MASK]" in one_error(err)


def test_eval_and_generate_refuse_an_encoder_in_one_line(tmp_path, bert):
    corpus = tmp_path / "c.txt"
    corpus.write_text("the cat sat on the mat .\n" * 50, encoding="utf-8")
    code, out, err, _ = run_cli(tmp_path, "eval", bert / "two", "--corpus", corpus)
    assert code == 2 and out == "" and "eval scores the next token's loss: an encoder" in one_error(err)
    code, _, err, _ = run_cli(tmp_path, "generate", "the cat", "--model", bert / "two", "-n", "2")
    assert code == 2 and "it does not write text token by token" in one_error(err)


def test_gui_generate_with_an_encoder_is_refused_before_the_window(tmp_path, bert):
    """It waited the whole screenshot timeout ("timed out waiting for the first trace"); a timeout of a
    minute makes a wait visible as a failure of the hang guard below."""
    snapshot = tmp_path / "bert.npz"
    assert run_cli(tmp_path, "export", SENTENCE, "--model", bert / "two", "-o", snapshot)[0] == 0
    for source in (["--model", bert / "two"], ["--snapshot", snapshot]):
        shot = tmp_path / "shot.png"
        started = time.monotonic()
        code, _, err, _ = run_cli(tmp_path, "gui", *source, "--generate", "3", "--screenshot", shot, timeout=50)
        assert code == 2 and "--generate: an encoder" in one_error(err)
        assert not shot.exists()
        assert time.monotonic() - started < 50  # hang guard only: the refusal comes before any window


def test_a_generation_the_window_refuses_ends_the_screenshot_in_one_line(tmp_path):
    """Any refusal of the Generate panel under `gui --screenshot --generate N` (here the memory budget) ended
    the same way as the encoder's: the whole wait, then "timed out waiting for the first trace" (exit 1)."""
    shot = tmp_path / "shot.png"
    code, _, err, _ = run_cli(
        tmp_path,
        "gui",
        "--text",
        PEN,
        "--preset",
        "seed-toy",
        "--generate",
        "256",
        "--size",
        "800x600",
        "--screenshot",
        shot,
        env={"ATTENTION_EXPLORER_MEMORY_GB": "0.0002"},
        timeout=120,
    )
    assert code == 2 and one_error(err).startswith("error: not generated: generating 256 tokens")
    assert not shot.exists()


def test_the_worksheet_leaves_the_next_token_out_for_an_encoder(tmp_path, bert):
    code, out, err, _ = run_cli(
        tmp_path, "worksheet", "the cat sat", "--model", bert / "two", "--exercises", "qk,prob", "-o", "s.pdf"
    )
    assert code == 2 and "--exercises prob asks for the probability of the next token" in one_error(err)
    assert not (tmp_path / "s.pdf").exists()
    code, out, err, _ = run_cli(tmp_path, "worksheet", "the cat sat", "--model", bert / "two", "-o", "s.pdf")
    assert code == 0, err
    assert "note: an encoder predicts no next token" in err and (tmp_path / "s.pdf").is_file()


def test_segment_ids_past_the_table_are_noted(tmp_path, bert):
    """A pair of sentences on a model with one segment row was traced as sentence A without a word. A tokenizer
    whose template gives a token type past the table is now refused when the model opens (the tokenizer.json
    schema, issue 44 item 1), naming the field; the trace's note stays behind it for ids made otherwise."""
    pair = "the cat sat [SEP] it was"
    code, _, err, _ = run_cli(tmp_path, "export", pair, "--model", bert / "one", "-o", "one.npz")
    assert code == 2 and "Traceback" not in err
    assert "type_vocab_size" in one_error(err) and not (tmp_path / "one.npz").exists()
    code, _, err, _ = run_cli(tmp_path, "export", pair, "--model", bert / "two", "-o", "two.npz")
    assert code == 0 and "segment" not in err  # two rows: sentence B has its own


# ------------------------------------------------------------------------------------------ the worksheet


@pytest.mark.parametrize(
    "argv, said",
    [
        (["--row", "1"], "sentence 1 does not exist"),
        (["--row", "7"], "sentence 7 does not exist"),
        (["--row", "-1"], "sentence -1 does not exist"),
        (["--row", "2", "--anatomy", "weights:0:0:2:1"], "sentence 2 does not exist"),
        (["--temperature", "0.001"], "the prob exercise writes Z"),
        (["--temperature", "0.002"], "the prob exercise writes Z"),
        (["--temperature", "1e-300"], "the prob exercise writes Z"),
    ],
    ids=["row-1", "row-7", "row-minus-1", "anatomy-row", "T-0.001", "T-0.002", "T-1e-300"],
)
def test_worksheet_edges_are_one_line_and_write_nothing(tmp_path, argv, said):
    """--row past the last sentence was an IndexError, --temperature 0.001 an OverflowError."""
    code, _, err, _ = run_cli(tmp_path, "worksheet", PEN, "--preset", "seed-toy", *argv, "-o", "s.pdf")
    assert code == 2 and said in one_error(err)
    assert list(tmp_path.glob("*.pdf")) == [] and list(tmp_path.glob(".*part")) == []


def test_a_temperature_the_sheet_can_hold_still_writes_it(tmp_path):
    code, _, err, _ = run_cli(tmp_path, "worksheet", PEN, "--preset", "seed-toy", "--temperature", "0.5", "-o", "s.pdf")
    assert code == 0 and (tmp_path / "s.pdf").is_file(), err


# ------------------------------------------------------------------------------------------ figure --tensor


@pytest.mark.parametrize(
    "stage, tensor",
    [
        ("weights", "nope"),
        ("weights", ""),
        ("weights", "*"),
        ("weights", "layers.5.attn.weights"),  # a layer the model does not have
        ("weights", "layers.0.attn.scores"),  # another stage's
        ("scores", "layers.0.attn.weights"),
        ("masked", "logits"),
        ("ffn", "layers.0.attn.q"),
        ("embed", "embed"),
        ("qkv", "layers.0.attn.*"),
    ],
)
def test_figure_refuses_a_tensor_its_stage_does_not_show(tmp_path, stage, tensor):
    """A map stage drew its map whatever --tensor named, with exit 0."""
    code, out, err, _ = run_cli(
        tmp_path, "figure", PEN, "--preset", "seed-toy", "--stage", stage, "--tensor", tensor, "-o", "f.png"
    )
    line = one_error(err)
    assert code == 2 and f"stage {stage} of layer 0 shows" in line and repr(tensor) in line
    assert not (tmp_path / "f.png").exists()


@pytest.mark.parametrize("stage, tensor", [("weights", "layers.0.attn.weights"), ("ffn", "layers.0.ffn.out")])
def test_figure_draws_a_tensor_its_stage_shows(tmp_path, stage, tensor):
    code, _, err, _ = run_cli(
        tmp_path, "figure", PEN, "--preset", "seed-toy", "--stage", stage, "--tensor", tensor, "-o", "f.png"
    )
    assert code == 0 and (tmp_path / "f.png").is_file(), err


# ------------------------------------------------------------------------------------------ data on stdout

RLO = "\u202e"


def test_a_cache_folder_name_is_escaped_in_info_models(tmp_path):
    """A newline and U+202E in a Hugging Face cache folder's name reached the terminal raw (a forged row)."""
    name = f"ab\n{RLO}evil"
    snapshot = tmp_path / "hf" / "hub" / "models--openai-community--gpt2" / "snapshots" / name
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text("{}", encoding="utf-8")
    (snapshot / "model.safetensors").write_bytes(b"")
    env = {"HF_HOME": str(tmp_path / "hf"), "HF_HUB_CACHE": ""}
    plain = run_cli(tmp_path / "hf", "info", "--models", env={**env, "HF_HOME": str(tmp_path / "nothing")})[1]
    code, out, err, _ = run_cli(tmp_path, "info", "--models", env=env)
    assert code == 0 and RLO not in out and "\\u202eevil" in out
    assert len(out.splitlines()) == len(plain.splitlines())  # no line more than without that folder
    code, out, err, _ = run_cli(tmp_path, "info", "--models", "--json", env=env)
    assert code == 0 and RLO not in out
    installed = {r["name"]: r["installed"] for r in json.loads(out)}
    assert installed["gpt2"] == str(snapshot)  # escaped on the way out, the same string read back


def test_a_token_from_a_file_is_escaped_in_attribute_json(tmp_path):
    import tokenizers
    from tokenizers import models, pre_tokenizers
    from untrusted import WORDS

    words = [*WORDS[:6], f"{RLO}evil", WORDS[7]]
    hf = tokenizers.Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    hf.pre_tokenizer = pre_tokenizers.Whitespace()
    folder = hostile.tiny_llama(tmp_path / "m", tokenizer_json=hf.to_str())
    code, out, err, _ = run_cli(tmp_path, "attribute", PEN, "--model", folder, "--target-id", "6", "--json")
    assert code == 0, err
    assert RLO not in out and len(out.splitlines()) == 1
    assert json.loads(out)["target"] == f"{RLO}evil"
    code, out, err, _ = run_cli(tmp_path, "attribute", PEN, "--model", folder, "--target-id", "6")
    assert code == 0 and RLO not in out, err
