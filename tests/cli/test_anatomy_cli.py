"""``attention-explorer anatomy --json`` against an independent recomputation (numpy, float64) from ``export``
of the same text (issue 39): on seed-toy, classroom and a random-weight Llama-shaped model (RoPE, grouped-query
heads, RMSNorm, gated SiLU, D = 64), every cell kind's steps agree with what this file computes from the
exported tensors, the last step is the exported cell exactly, a softmax row adds up to 1, and at D = 64 the
shown terms plus "the others" are the cell. Sizes and token ids are read from the export, never written here
(the classroom preset is retrained from time to time). The input's numbers too: a token's id picks its row of the
exported W_E; an embedding entry is W_E[id, K] + the position's vector (sinusoidal on classroom, recomputed
here from its formula; none on seed-toy; rotary, so none, on the Llama shape); a q, k or v entry is x times its
head's column of W_q, W_k or W_v (the key head for k and v)."""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from explorer.cli import main

os.environ.setdefault("HF_HUB_OFFLINE", "1")
TEXT = "This is a pen ."
REL = 1e-6  # the bound for float32 traces: the steps against this file's float64 recomputation


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def llama_folder(tmp_path_factory):
    transformers = pytest.importorskip("transformers")
    import torch

    from tests.core.tiny_bpe import train_tokenizer

    tok = train_tokenizer()
    folder = tmp_path_factory.mktemp("llama")
    cfg = transformers.LlamaConfig(
        vocab_size=tok.get_vocab_size(with_added_tokens=True),
        hidden_size=128,
        intermediate_size=96,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,  # grouped-query: both query heads read key head 0
        head_dim=64,  # D = 64: the shortened sums of issue 39 item 3
        max_position_embeddings=64,
        rms_norm_eps=1e-5,
        bos_token_id=0,
        eos_token_id=0,
    )
    torch.manual_seed(0)
    model = transformers.LlamaForCausalLM(cfg).eval()
    with torch.no_grad():  # larger than the 0.02 default, so that the softmax rows are not flat
        for p in model.parameters():
            if p.dim() == 2:
                p.mul_(20.0)
    model.save_pretrained(folder)
    (folder / "tokenizer.json").write_text(tok.to_str(), encoding="utf-8")
    return folder


MODELS = {
    "seed-toy": ("--preset", "seed-toy"),
    "classroom": ("--preset", "classroom"),
    "llama": (),
}


@pytest.fixture(scope="module", params=list(MODELS))
def model(request, tmp_path_factory):
    """(the model options, the exported arrays, the manifest's config) of one model."""
    args = MODELS[request.param] or ("--model", request.getfixturevalue("llama_folder"))
    path = tmp_path_factory.mktemp("export") / "x.npz"
    assert main(["export", TEXT, *map(str, args), "-o", str(path)]) == 0
    with np.load(path, allow_pickle=False) as data:
        manifest = json.loads(data["manifest"].tobytes().decode("utf-8"))
        arrays = {k: data[k].astype(np.float64) if data[k].dtype.kind == "f" else data[k] for k in data.files}
    return request.param, args, arrays, manifest


def steps_of(capsys, args, *cell) -> list[dict]:
    code, out, err = cli(capsys, "anatomy", TEXT, *args, *cell, "--json", "--all-terms")
    assert code == 0, err
    return json.loads(out)["steps"]


def results(steps, op) -> list:
    return [s["result"] for s in steps if s["op"] == op]


def close(got, want, rel=REL, floor=1e-12) -> bool:
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    finite = np.isfinite(want)
    if not np.array_equal(finite, np.isfinite(got)):
        return False
    scale = max(float(np.abs(want[finite]).max(initial=0.0)), floor)
    return bool(np.all(np.abs(got[finite] - want[finite]) <= rel * scale)) and np.array_equal(
        got[~finite], want[~finite]
    )


def as_floats(values) -> list[float]:
    return [float(v) if not isinstance(v, str) else float(v.replace("inf", "Infinity")) for v in values]


def ends_on(steps, value) -> None:
    """The last step is the exported cell, bit for bit (a float32 widens to a float64 exactly)."""
    last = steps[-1]
    assert last["op"] == "cell"
    assert as_floats([last["running"]]) == [float(value)] and as_floats([last["result"]]) == [float(value)]


def rotate(vec, position, theta, R):
    """RoPE's "rotate half" on the first R dims: pairs (p, p + R/2) turn by position · θ^(−2p/R)."""
    half = R // 2
    angle = position * theta ** (-2.0 * np.arange(half) / R)  # (R/2,)
    a, b = vec[:half], vec[half:R]
    return np.concatenate([a * np.cos(angle) - b * np.sin(angle), a * np.sin(angle) + b * np.cos(angle), vec[R:]])


def softmax(x):
    e = np.exp(x - x[np.isfinite(x)].max())
    return e / e.sum()


# ------------------------------------------------------------------------------------------ the attention


def test_a_weight_cell_from_q_and_k_to_its_softmax_row(capsys, model):
    name, args, A, manifest = model
    cfg = manifest["config"]
    H, H_kv, C = cfg["heads"], cfg.get("kv_heads") or cfg["heads"], A["tokens"].shape[1]
    h, i, j = H - 1, C - 1, 1
    g = h // (H // H_kv)  # the key head query head h reads
    steps = steps_of(capsys, args, "--stage", "weights", "--layer", 0, "--head", h, "--query", i, "--key", j)
    rope = "layers.0.attn.q_rot" in A
    q = A["layers.0.attn.q_rot" if rope else "layers.0.attn.q"][0, h]  # (C, D)
    k = A["layers.0.attn.k_rot" if rope else "layers.0.attn.k"][0, g]  # (C, D)
    if rope:  # the family's steps: q_i and k_j rotated by their positions
        theta, R = cfg["rope_theta"], cfg.get("rotary_dims") or q.shape[-1]
        q_turn, k_turn = results(steps, "rope")
        assert close(q_turn, rotate(A["layers.0.attn.q"][0, h, i], i, theta, R))
        assert close(k_turn, rotate(A["layers.0.attn.k"][0, g, j], j, theta, R))
        assert np.array_equal(q_turn, A["layers.0.attn.q_rot"][0, h, i])
    assert close(results(steps, "product"), q[i] * k[j], rel=1e-12)
    score = float(q[i] @ k[j])
    assert close([s["running"] for s in steps if s["op"] == "product"][-1], score)
    root = math.sqrt(q.shape[-1])
    # the chain goes on from the stored score: float32 apart from this sum by the kernel's rounding of Σ|terms|
    assert close(results(steps, "scale"), [score / root], floor=np.abs(q[i] * k[j]).sum() / root)
    row = np.where(A["mask"][0, i].astype(bool), q[i] @ k.T / math.sqrt(q.shape[-1]), -np.inf)  # (C,)
    assert close(as_floats(results(steps, "row")[0]), row)
    assert close(results(steps, "exp"), np.exp(row - row.max()))
    shares = results(steps, "divide")
    assert close(shares, softmax(row)) and abs(sum(shares) - 1) <= 1e-6
    ends_on(steps, A["layers.0.attn.weights"][0, h, i, j])


def test_after_the_sum_each_step_is_the_models_own_number_bit_for_bit(capsys, model):
    """÷√D and the mask go on from the stored score in the trace's dtype, as the model does: the steps end on
    the exported scaled and masked cells exactly, not only to rounding."""
    name, args, A, _ = model
    C = A["tokens"].shape[1]
    for i in range(C):
        steps = steps_of(capsys, args, "--stage", "masked", "--query", i, "--key", min(i, 1))
        (scale,) = [s for s in steps if s["op"] in ("scale", "no_scale")]
        assert scale["operands"]["score"] == A["layers.0.attn.scores"][0, 0, i, min(i, 1)]
        assert scale["result"] == A["layers.0.attn.scaled"][0, 0, i, min(i, 1)]
        assert steps[-1]["exact"] is True and steps[-1]["recomputed"] == steps[-1]["result"]


def test_a_blocked_score_says_why_and_becomes_minus_infinity(capsys, model):
    name, args, A, _ = model
    C = A["tokens"].shape[1]
    steps = steps_of(capsys, args, "--stage", "masked", "--query", 0, "--key", C - 1)
    (mask,) = [s for s in steps if s["op"] == "mask"]
    assert mask["operands"]["reason"] == "causal" and mask["result"] == "-inf"
    ends_on(steps, A["layers.0.attn.masked"][0, 0, 0, C - 1])
    visible = steps_of(capsys, args, "--stage", "masked", "--query", C - 1, "--key", 0)
    (mask,) = [s for s in visible if s["op"] == "mask"]
    row = A["layers.0.attn.masked"][0, 0, C - 1]
    assert mask["operands"]["reason"] == "visible"
    assert mask["operands"]["place_in_row"] == 1 + int((row > row[0]).sum())  # its rank among the row's keys


def test_a_value_cell_is_the_weights_times_the_values(capsys, model):
    name, args, A, manifest = model
    cfg = manifest["config"]
    H, H_kv, C = cfg["heads"], cfg.get("kv_heads") or cfg["heads"], A["tokens"].shape[1]
    h, i, K = H - 1, C - 1, 1
    g = h // (H // H_kv)
    steps = steps_of(capsys, args, "--stage", "heads", "--head", h, "--query", i, "--dim", K)
    terms = A["layers.0.attn.weights"][0, h, i] * A["layers.0.attn.v"][0, g, :, K]  # (C,)
    assert close(results(steps, "product"), terms, rel=1e-12)
    assert close([steps[-1]["recomputed"]], [terms.sum()])
    ends_on(steps, A["layers.0.attn.heads"][0, h, i, K])


def test_the_output_is_each_heads_share_through_its_block_of_W_o(capsys, model):
    name, args, A, manifest = model
    C, E = A["tokens"].shape[1], manifest["config"]["embed_dim"]
    i, K = C - 1, E - 1
    steps = steps_of(capsys, args, "--stage", "out", "--query", i, "--dim", K)
    R = A["layers.0.attn.heads"][0, :, i]  # (H, D_v)
    W = A["params.layers.0.attn.W_o"][:, K].reshape(R.shape)  # (H, D_v): W_oʰ's column K, head by head
    shares = (R * W).sum(axis=1)  # (H,)
    assert close(results(steps, "head_term"), shares)
    bias = A["params.layers.0.attn.b_o"][K] if "params.layers.0.attn.b_o" in A else 0.0
    at_once = A["layers.0.attn.concat"][0, i] @ A["params.layers.0.attn.W_o"][:, K] + bias
    assert close(results(steps, "concat_product"), [at_once]) and close([shares.sum() + bias], [at_once])
    ends_on(steps, A["layers.0.attn.out"][0, i, K])


# ------------------------------------------------------------------------------------------ the block


def test_the_residual_adds_x_and_the_attention(capsys, model):
    name, args, A, _ = model
    C = A["tokens"].shape[1]
    steps = steps_of(capsys, args, "--stage", "residual", "--query", C - 1, "--dim", 0)
    x, a = A["embed.out"][0, C - 1, 0], A["layers.0.attn.out"][0, C - 1, 0]
    assert close(results(steps, "add"), [x + a])
    ends_on(steps, A["layers.0.mid"][0, C - 1, 0])


def test_the_norm_step_by_step(capsys, model):
    name, args, A, manifest = model
    cfg = manifest["config"]
    if cfg["norm"] == "none":
        code, _, err = cli(capsys, "anatomy", TEXT, *args, "--stage", "norm_attn", "--query", 0, "--dim", 0)
        assert code == 2 and "error: this model has no stage 'norm_attn'" in err
        return
    C = A["tokens"].shape[1]
    steps = steps_of(capsys, args, "--stage", "norm_ffn", "--query", C - 1, "--dim", 3)
    x, eps, gamma = A["layers.0.mid"][0, C - 1], cfg["norm_eps"], A["params.layers.0.ln_ffn.weight"][3]
    if cfg["norm"] == "rmsnorm":
        ms = np.mean(x**2)
        assert close(results(steps, "mean_square"), [ms])
        want = x[3] / np.sqrt(ms + eps) * gamma
    else:
        mu, var = x.mean(), ((x - x.mean()) ** 2).mean()
        assert close(results(steps, "mean"), [mu]) and close(results(steps, "variance"), [var])
        want = (x[3] - mu) / np.sqrt(var + eps) * gamma + A["params.layers.0.ln_ffn.bias"][3]
    assert close([steps[-2]["result"]], [want])
    ends_on(steps, A["layers.0.ffn.in"][0, C - 1, 3])


def _activation(kind: str, z: float) -> float:
    if kind == "relu":
        return max(z, 0.0)
    if kind.startswith("silu"):
        return z / (1 + math.exp(-z))
    if kind.startswith("gelu_tanh"):
        return 0.5 * z * (1 + math.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z**3)))
    return 0.5 * z * (1 + math.erf(z / math.sqrt(2)))


def test_an_ffn_neuron_and_an_ffn_output_column(capsys, model):
    name, args, A, manifest = model
    cfg = manifest["config"]
    C, F = A["tokens"].shape[1], A["params.layers.0.ffn.W_in"].shape[1]
    i, N = C - 1, F - 1
    steps = steps_of(capsys, args, "--stage", "ffn", "--query", i, "--neuron", N)
    x = A["layers.0.ffn.in"][0, i]
    up = x @ A["params.layers.0.ffn.W_in"][:, N] + (
        A["params.layers.0.ffn.b_in"][N] if "params.layers.0.ffn.b_in" in A else 0
    )
    assert close(results(steps, "product"), x * A["params.layers.0.ffn.W_in"][:, N], rel=1e-12)
    kind = cfg["ffn_activation"]
    if kind.endswith("_gated"):
        gate = x @ A["params.layers.0.ffn.W_gate"][:, N]
        assert close(results(steps, "gate_product"), x * A["params.layers.0.ffn.W_gate"][:, N], rel=1e-12)
        assert close(results(steps, "gate_times_up"), [_activation(kind, gate) * up])
    else:
        assert close(results(steps, "activation"), [_activation(kind, up)])
    h = A["layers.0.ffn.hidden"][0, i, N]
    assert close(results(steps, "contribution")[0], h * A["params.layers.0.ffn.W_out"][N], rel=1e-12)
    ends_on(steps, h)
    out = steps_of(capsys, args, "--stage", "ffn", "--query", i, "--dim", 2)
    assert close(
        results(out, "product"), A["layers.0.ffn.hidden"][0, i] * A["params.layers.0.ffn.W_out"][:, 2], rel=1e-12
    )
    ends_on(out, A["layers.0.ffn.out"][0, i, 2])


# ------------------------------------------------------------------------------------------ the output


def test_a_logit_and_its_probability(capsys, model):
    name, args, A, manifest = model
    C, V = A["tokens"].shape[1], A["logits"].shape[-1]
    i, J = C - 1, int(A["tokens"][0, 0])  # the first token's id: some word of the vocabulary
    steps = steps_of(capsys, args, "--stage", "logits", "--query", i, "--dim", J)
    x = A["final.out"][0, i]
    W = A["params.unembed.W_u"][:, J] if "params.unembed.W_u" in A else A["params.embed.tok"][J]
    assert close(results(steps, "product"), x * W, rel=1e-12)
    ends_on(steps, A["logits"][0, i, J])
    probs = steps_of(capsys, args, "--stage", "probs", "--query", i, "--dim", J)
    want = softmax(A["logits"][0, i] / manifest["options"]["temperature"])  # (V,)
    shares = results(probs, "divide")
    assert len(shares) == V and close(shares, want) and abs(sum(shares) - 1) <= 1e-6
    ends_on(probs, A["probs"][0, i, J])


# ------------------------------------------------------------------------------------------ real sizes


def test_at_D_64_the_largest_terms_and_the_others_make_the_cell(capsys, llama_folder):
    code, out, err = cli(
        capsys,
        "anatomy",
        TEXT,
        "--model",
        llama_folder,
        "--stage",
        "scores",
        "--head",
        1,
        "--query",
        3,
        "--key",
        2,
        "--json",
    )
    assert code == 0, err
    steps = json.loads(out)["steps"]
    terms = [s for s in steps if s["op"] in ("product", "others")]
    assert [s["op"] for s in terms] == ["product"] * 8 + ["others"]
    assert terms[-1]["operands"]["count"] == 56  # "+ 56 others"
    shown = sorted(abs(s["result"]) for s in terms[:-1])
    assert shown[0] >= terms[-1]["operands"]["largest"]  # the eight shown are the largest
    total = sum(s["result"] for s in terms)
    cell = steps[-1]["result"]
    assert abs(total - cell) <= 1e-6 * sum(abs(s["result"]) for s in terms) and terms[-1]["running"] == pytest.approx(
        total
    )


def test_a_long_row_shows_its_top_entries_the_selected_one_and_the_rest(capsys, model):
    name, args, A, _ = model
    V, J = A["logits"].shape[-1], int(A["tokens"][0, 0])
    code, out, err = cli(capsys, "anatomy", TEXT, *args, "--stage", "probs", "--query", 0, "--dim", J, "--json")
    assert code == 0, err
    steps = json.loads(out)["steps"]
    divides = [s for s in steps if s["op"] == "divide" or (s["op"] == "others" and s["operands"]["of"] == "divide")]
    assert J in [s.get("index") for s in divides]
    assert abs(sum(s["result"] for s in divides) - 1) <= 1e-6
    if V > 16:
        assert len(divides) <= 10 and divides[-1]["operands"]["count"] == V - len(divides) + 1


# ------------------------------------------------------------------------------------------ float64 and errors


def test_a_float64_trace_agrees_to_1e_12(capsys, tmp_path):
    path = tmp_path / "x.npz"
    assert cli(capsys, "export", TEXT, "--preset", "seed-toy", "--dtype", "float64", "-o", path)[0] == 0
    with np.load(path, allow_pickle=False) as data:
        q, k, S = data["layers.0.attn.q"][0, 1], data["layers.0.attn.k"][0, 1], data["layers.0.attn.scores"]
    steps = steps_of(
        capsys,
        ("--preset", "seed-toy", "--dtype", "float64"),
        "--stage",
        "scores",
        "--head",
        1,
        "--query",
        4,
        "--key",
        2,
    )
    assert close(results(steps, "product"), q[4] * k[2], rel=1e-12)
    assert abs(steps[-1]["recomputed"] - S[0, 1, 4, 2]) <= 1e-12 * max(1.0, abs(S[0, 1, 4, 2]))
    ends_on(steps, S[0, 1, 4, 2])


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        (("--stage", "scores", "--query", 1), "error: this stage needs --key J: key 0 … 4"),
        (("--stage", "scores", "--query", 1, "--key", 9), "error: key 9 does not exist: choose 0 … 4"),
        (("--stage", "heads", "--query", 7, "--dim", 0), "error: query 7 does not exist: choose 0 … 4"),
        (("--stage", "heads", "--head", 5, "--query", 0, "--dim", 0), "error: head 5 does not exist: choose 0 … 1"),
        (("--stage", "out", "--layer", 3, "--query", 0, "--dim", 0), "error: layer 3 does not exist: choose 0 … 0"),
        (("--stage", "capped", "--query", 0, "--key", 0), "error: this model has no stage 'capped'"),
        (("--stage", "ffn", "--query", 0), "error: the FFN needs --neuron N (0 … 5) or --dim K (0 … 2)"),
    ],
)
def test_a_cell_the_trace_lacks_is_one_error_line(capsys, cell, message):
    code, out, err = cli(capsys, "anatomy", TEXT, "--preset", "seed-toy", *cell)
    assert code == 2 and out == "" and err.strip() == message


def test_without_json_each_step_is_one_line_in_english_or_japanese(capsys):
    for language, word in (("en", "the value the map shows"), ("ja", "マップに表示される値")):
        code, out, err = cli(
            capsys,
            "anatomy",
            TEXT,
            "--preset",
            "seed-toy",
            "--stage",
            "weights",
            "--query",
            2,
            "--key",
            1,
            "--language",
            language,
        )
        assert code == 0, err
        lines = out.splitlines()
        # D = 2 products, ÷√D, the mask, the row, its max, 5 exponentials, their sum, 5 divisions, the cell
        assert word in lines[-1] and lines[0].startswith("  1. ") and len(lines) == 18


@pytest.mark.parametrize(
    ("mask", "query", "key", "reason"),
    [
        ("window:2", 4, 1, "window"),  # key 1 is three tokens back: outside a window of 2
        ("window:2", 4, 3, "visible"),
        ("prefix:3", 0, 2, "visible"),  # inside the prefix every token sees every other
        ("prefix:3", 3, 4, "prefix"),  # after it, the later key stays hidden
    ],
)
def test_the_mask_says_which_mask_hides_a_key(capsys, mask, query, key, reason):
    steps = steps_of(
        capsys, ("--preset", "seed-toy", "--mask", mask), "--stage", "masked", "--query", query, "--key", key
    )
    (step,) = [s for s in steps if s["op"] == "mask"]
    assert step["operands"]["reason"] == reason and (step["result"] == "-inf") == (reason != "visible")


# ------------------------------------------------------------------------------------------ the input


def _position(cfg: dict, i: int, K: int, E: int) -> float:
    """The position's vector at (i, K) as the note defines it: sin(i / 10000^(2k/E)) at K = 2k, cos at K = 2k + 1."""
    if cfg["positions"] != "sinusoidal":
        return 0.0
    k = K // 2
    angle = i / 10000 ** (2 * k / E)
    return math.sin(angle) if K % 2 == 0 else math.cos(angle)


def test_a_tokens_id_and_the_row_of_W_E_it_picks(capsys, model):
    _name, args, A, _manifest = model
    i = A["tokens"].shape[1] - 1
    steps = steps_of(capsys, args, "--stage", "tokens", "--query", i)
    token_id = int(A["tokens"][0, i])
    assert results(steps, "vocab_lookup") == [token_id]
    (row,) = results(steps, "embedding_row")
    assert np.array_equal(row, A["params.embed.tok"][token_id])  # the row itself, bit for bit
    ends_on(steps, token_id)


def test_an_embedding_entry_is_the_tokens_row_plus_the_positions_vector(capsys, model):
    _name, args, A, manifest = model
    cfg = manifest["config"]
    i, K = A["tokens"].shape[1] - 1, 1
    E = A["params.embed.tok"].shape[1]
    steps = steps_of(capsys, args, "--stage", "embed", "--query", i, "--dim", K)
    token_id = int(A["tokens"][0, i])
    assert results(steps, "embedding_row") == [A["params.embed.tok"][token_id, K]]
    (pos,) = results(steps, "position")
    assert close([pos], [_position(cfg, i, K, E)], floor=1.0)  # float32's rounding of the formula
    (so_far,) = [s["running"] for s in steps if s["op"] == "position"]
    assert close([so_far], [A["params.embed.tok"][token_id, K] + _position(cfg, i, K, E)], floor=1.0)
    ends_on(steps, A["embed.out"][0, i, K])


@pytest.mark.parametrize("part", ["q", "k", "v"])
def test_a_query_key_or_value_entry_is_x_times_a_column_of_its_weights(capsys, model, part):
    _name, args, A, manifest = model
    cfg = manifest["config"]
    H, H_kv, C = cfg["heads"], cfg.get("kv_heads") or cfg["heads"], A["tokens"].shape[1]
    h, i, d = H - 1, C - 1, 1
    head = h if part == "q" else h // (H // H_kv)  # k and v: the key head query head h reads
    width = A[f"layers.0.attn.{part}"].shape[-1]
    steps = steps_of(capsys, args, "--stage", "qkv", "--head", h, "--query", i, "--dim", d, "--part", part)
    x, W = A["layers.0.attn.in"][0, i], A[f"params.layers.0.attn.W_{part}"]  # (E,), (E, heads·width)
    column = W[:, head * width + d]
    assert close(results(steps, "product"), x * column, rel=1e-12)
    bias = A.get(f"params.layers.0.attn.b_{part}")
    want = x @ column + (bias[head * width + d] if bias is not None else 0.0)
    assert close([last_running(steps)], [want], floor=np.abs(x * column).sum())
    ends_on(steps, A[f"layers.0.attn.{part}"][0, head, i, d])


def last_running(steps) -> float:
    return [s["running"] for s in steps if s["running"] is not None and s["op"] != "cell"][-1]
