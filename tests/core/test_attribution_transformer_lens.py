"""Direct attribution against TransformerLens, an independent implementation, on a GPT-2-shaped random model:
the same HF GPT-2 folder is read by the explorer's loader and, converted by TransformerLens' own
convert_gpt2_weights, by a HookedTransformer; each head's share (``stack_head_results``), each MLP's and the
embedding's (``decompose_resid``), read through the final LayerNorm with its scale frozen (``apply_ln``) and
the unembedding, must match the explorer's within 1e-4.

TransformerLens is not a test requirement (it pulls heavy packages); install it for this oracle with
``make oracle`` (installs it without its dependencies, plus the few it imports, and runs this file). Nothing
is downloaded by the test: the model is built from a local config.
"""

from __future__ import annotations

import numpy as np
import pytest

tl = pytest.importorskip("transformer_lens")
try:
    HookedTransformer = tl.HookedTransformer  # TransformerLens 4 removed it: the oracle needs 2.x or 3.x
except ImportError as exc:
    pytest.skip(
        f"this TransformerLens has no HookedTransformer ({exc}); make oracle installs 3.9", allow_module_level=True
    )

import torch  # noqa: E402
import transformers  # noqa: E402
from test_hf_oracle import make_gpt2  # noqa: E402 - the same tiny GPT-2 folder as the HF oracle
from transformer_lens import HookedTransformerConfig  # noqa: E402
from transformer_lens.pretrained.weight_conversions.gpt2 import convert_gpt2_weights  # noqa: E402

from explorer.interventions.attribution import direct_attribution  # noqa: E402
from explorer.trace.run import run_trace  # noqa: E402
from explorer.weights.loaders import load_model  # noqa: E402

TEXT = "The cat sat on the mat because it was tired ."


@pytest.fixture(scope="module")
def models(tmp_path_factory, tokenizer_json):
    folder = make_gpt2(tmp_path_factory.mktemp("gpt2"), tokenizer_json)
    hf = transformers.GPT2LMHeadModel.from_pretrained(folder, attn_implementation="eager", dtype=torch.float32).eval()
    c = hf.config
    cfg = HookedTransformerConfig(
        n_layers=c.n_layer,
        d_model=c.n_embd,
        n_ctx=c.n_positions,
        d_head=c.n_embd // c.n_head,
        n_heads=c.n_head,
        d_mlp=4 * c.n_embd,
        d_vocab=c.vocab_size,
        act_fn="gelu_new",
        normalization_type="LN",
        positional_embedding_type="standard",
        eps=c.layer_norm_epsilon,
        default_prepend_bos=False,
    )
    hooked = HookedTransformer(cfg)
    # No folding or centring: the weights stay GPT-2's, so TransformerLens' numbers are for the same model.
    hooked.load_and_process_state_dict(
        convert_gpt2_weights(hf, cfg),
        fold_ln=False,
        center_writing_weights=False,
        center_unembed=False,
        fold_value_biases=False,
    )
    hooked.eval()
    return load_model(str(folder)), hooked


@torch.no_grad()
def _tl_parts(hooked, tokens: torch.Tensor, position: int, target: int) -> tuple[dict[str, float], float]:
    """Per-component logit contributions and the model's logit, by TransformerLens alone."""
    logits, cache = hooked.run_with_cache(tokens)
    u = hooked.W_U[:, target].detach()  # (d_model,)
    w = hooked.ln_final.w.detach()
    read = lambda stack: ((stack[:, 0] * w) @ u).tolist()  # noqa: E731 - (n, batch, d_model) → n logits
    heads, head_labels = cache.stack_head_results(layer=-1, pos_slice=position, apply_ln=True, return_labels=True)
    resid, resid_labels = cache.decompose_resid(layer=-1, pos_slice=position, apply_ln=True, return_labels=True)
    by_label = dict(zip(resid_labels, read(resid)))
    parts = {"embed": by_label["embed"] + by_label["pos_embed"]}
    for label, value in zip(head_labels, read(heads)):  # "L0H3"
        layer, head = label[1:].split("H")
        parts[f"layers.{layer}.attn.head.{head}"] = value
    for l in range(hooked.cfg.n_layers):
        parts[f"layers.{l}.ffn"] = by_label[f"{l}_mlp_out"]
    return parts, float(logits[0, position, target])


@pytest.mark.filterwarnings("ignore:HookedTransformer is deprecated")
@pytest.mark.parametrize("position,target", [(None, None), (3, 17), (0, 200)])
def test_per_head_ffn_and_embedding_shares_agree_with_transformer_lens(models, position, target):
    bundle, hooked = models
    trace = run_trace(bundle, TEXT)
    n = trace.rows[0].length
    position = n - 1 if position is None else position
    target = int(trace["logits"][0, position].argmax()) if target is None else target
    tokens = torch.from_numpy(np.array(trace["tokens"][:1, :n]))
    expected, tl_logit = _tl_parts(hooked, tokens, position, target)
    parts, constant, logit = direct_attribution(trace, target, position)
    got = {p["component"]: p["value"] for p in parts}
    assert abs(logit - tl_logit) < 1e-4  # the same model, by two implementations
    assert set(got) == set(expected) and len(got) == 1 + 2 * (4 + 1)
    for name, value in expected.items():
        assert abs(got[name] - value) < 1e-4, name
    assert max(abs(v) for v in expected.values()) > 0.05  # the shares are not all near zero
