"""``attention-explorer generate``: the printed text and JSON, the snapshot, the sampling flags and the errors.

Expected tokens come from the model's own full forward pass appending its argmax (no cache), and
probabilities from a numpy softmax of the logits the snapshot holds: not from the command under test.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
import torch

from explorer.cli import main
from explorer.weights.presets import load_preset

PROMPT = "This is a"


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def load_npz(path):
    with np.load(path, allow_pickle=False) as data:
        manifest = json.loads(data["manifest"].tobytes().decode("utf-8"))
        arrays = {k: data[k] for k in data.files if k != "manifest"}
    return manifest, arrays


def greedy_by_full_passes(prompt: str, n: int) -> list[int]:
    b = load_preset("classroom")
    ids = list(b.tokenizer.encode(prompt).ids)
    out = []
    for _ in range(n):
        with torch.inference_mode():
            logits = b.model(torch.tensor([ids]))  # the whole text, no cache
        out.append(int(logits[0, -1].argmax()))
        ids.append(out[-1])
    return out


def softmax(z):
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - z.max())
    return e / e.sum()


def test_greedy_text_json_and_snapshot(capsys, tmp_path):
    expected = greedy_by_full_passes(PROMPT, 6)
    out = tmp_path / "gen.npz"
    code, stdout, err = run_cli(capsys, "generate", PROMPT, "--max-new-tokens", 6, "--json", "-o", out)
    assert code == 0, err
    result = json.loads(stdout)
    assert result["prompt"] == PROMPT
    assert [s["token_id"] for s in result["steps"]] == expected
    tok = load_preset("classroom").tokenizer  # the text reads as the tokenizer itself decodes prompt + continuation
    assert result["text"] == tok.decode(list(tok.encode(PROMPT).ids) + expected)
    manifest, arrays = load_npz(out)
    assert arrays["gen.tokens"][0].tolist() == expected
    assert manifest["generation"]["text"] == result["text"] and manifest["generation"]["stopped"] == "count"
    for t, step in enumerate(result["steps"]):
        p = softmax(arrays["gen.logits"][0, t])
        assert step["prob"] == pytest.approx(p[step["token_id"]], abs=1e-6)
        assert [prob for _, prob in step["top"]] == pytest.approx(sorted(p, reverse=True)[:5], abs=1e-6)
        assert step["ms"] > 0
    C0 = arrays["tokens"].shape[1]
    assert arrays["cache.layers.0.k"].shape == (1, 4, C0 + 5, 32)
    # the plain output is the same text
    code, stdout, _ = run_cli(capsys, "generate", PROMPT, "-n", 6)
    assert stdout.strip() == result["text"]


def test_no_cache_and_seeds(capsys, tmp_path):
    def tokens(*extra):
        code, stdout, err = run_cli(capsys, "generate", PROMPT, "-n", 8, "--json", *extra)
        assert code == 0, err
        return [s["token_id"] for s in json.loads(stdout)["steps"]]

    assert tokens() == tokens("--no-cache")
    sampled = ("--temperature", 1.5, "--top-k", 3, "--seed", 7)
    assert tokens(*sampled) == tokens(*sampled) == tokens(*sampled, "--no-cache")
    out = tmp_path / "s.npz"
    run_cli(capsys, "generate", PROMPT, "-n", 8, *sampled, "-o", out)
    manifest, arrays = load_npz(out)
    assert manifest["generation"]["sampling"] == {
        "greedy": False,
        "temperature": 1.5,
        "top_k": 3,
        "top_p": 1.0,
        "seed": 7,
    }
    assert "cache.layers.0.k" in arrays
    for t, chosen in enumerate(arrays["gen.tokens"][0]):
        assert chosen in np.argsort(-arrays["gen.logits"][0, t])[:3]  # never outside the top 3


def test_stop_token(capsys):
    first = greedy_by_full_passes(PROMPT, 3)
    word = load_preset("classroom").tokenizer.token(first[1])
    code, stdout, err = run_cli(capsys, "generate", PROMPT, "-n", 10, "--stop", word, "--json")
    assert code == 0, err
    assert [s["token_id"] for s in json.loads(stdout)["steps"]] == first[:2]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--greedy", "--top-p", "0.5"], "error: --greedy always takes the most likely token"),
        (["--mask", "none"], "error: generation writes left to right"),
        (["--stop", "zzzzqqq"], "error: --stop takes a token of the vocabulary"),
        (["--top-p", "1.5"], "error: top-p must lie in (0, 1]"),
        (["-n", "0"], "error: the number of new tokens must be a whole number"),
        (["-o", "x.txt"], "error: cannot tell the format of x.txt"),
    ],
)
def test_errors_are_one_line(capsys, argv, message):
    code, stdout, err = run_cli(capsys, "generate", PROMPT, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and lines == [lines[0]] and lines[0].startswith(message), err
    assert stdout == ""


def test_two_lines_are_refused(capsys):
    code, _, err = run_cli(capsys, "generate", "This is\na pen")
    assert code == 2 and err.startswith("error: generation continues one sentence")


def test_as_a_real_process(tmp_path):
    out = tmp_path / "g.safetensors"
    proc = subprocess.run(
        [sys.executable, "-m", "explorer", "generate", PROMPT, "-n", "3", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(PROMPT) and len(proc.stdout.strip()) > len(PROMPT) and out.is_file()
    assert f"wrote {out}" in proc.stderr
