"""Writing token by token: a prefill, then one decode step per new token, with or without the KV cache.

The prefill is an ordinary trace of the prompt (run_trace: every stage of every layer, the C×C maps). Its
keys and values (after RoPE) fill the cache. Each decode step then feeds only the token just chosen: the
model computes its q, k, v, appends k and v to the cache and attends over every cached key, so the work per
step grows with C instead of C². ``use_cache=False`` recomputes the whole text at every step instead (the
same numbers, to compare the cost). The model is the app's own Transformer (explorer/model): this module
writes no second forward pass.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import torch

from explorer import names
from explorer.config import RunOptions, check_generation_memory
from explorer.errors import ConfigError, InputError
from explorer.generation.choose import join_tokens, top_k
from explorer.generation.result import Generation, Step
from explorer.generation.sampling import Sampling, choose
from explorer.model.capture import CaptureSink, capturing
from explorer.model.kv_cache import KVCache
from explorer.model.mask import base_mask
from explorer.trace.readable import as_run_tensor, readable
from explorer.trace.run import run_trace, split_batch
from explorer.trace.trace import Trace
from explorer.util.threads import threads_for
from explorer.vocab import DECODING_MASKS, array_dtype
from explorer.weights.bundle import ModelBundle

MAX_NEW_TOKENS = 4096  # one generation; the model's context usually stops it sooner


@dataclass(frozen=True)
class GenerateOptions:
    max_new_tokens: int = 20
    sampling: Sampling = field(default_factory=Sampling)
    use_cache: bool = True
    stop_ids: tuple[int, ...] = ()  # stop after choosing one of these (kept as the last token)
    top: int = 5  # alternatives recorded per step

    def __post_init__(self) -> None:
        n = self.max_new_tokens
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_NEW_TOKENS:
            raise ConfigError(f"the number of new tokens must be a whole number from 1 to {MAX_NEW_TOKENS}, got {n!r}")


class _LastRowSink(CaptureSink):
    """Keeps, for every layer, the attention weights and the query (as the scores read it: ``q_stage``) of the
    last position only, and the last row of logits.

    A cached step's maps are one row already; a step without the cache computes the whole (C, C) map and
    this keeps its last row (a copy, so the map itself is freed with the layer). The query row lets the
    anatomy build a decode row's weights from the generation's own numbers (explorer/anatomy/decode_cells.py)."""

    def __init__(self, layers: int, q_stage: str) -> None:
        wanted = {names.attn(l, s) for l in range(layers) for s in ("weights", q_stage)} | {"logits"}
        super().__init__(lambda name: name in wanted)

    def put(self, name: str, tensor: torch.Tensor) -> None:
        if self.wants(name):
            self.tensors[name] = tensor[..., -1:, :].detach().clone()


def _check(options: RunOptions, prompt: str, config=None) -> str:
    if getattr(config, "mlm_head", False):
        raise ConfigError(
            "an encoder (BERT, RoBERTa, DistilBERT) fills in a [MASK]; it does not write text token by token"
        )
    if options.mask.kind not in DECODING_MASKS:
        raise ConfigError(
            f"generation writes left to right: it needs the causal mask or a sliding window, not {options.mask.kind!r}"
        )
    sentences = split_batch(prompt)
    if not sentences:
        raise InputError("there is no text to continue: type a prompt")
    if len(sentences) > 1:
        raise InputError("generation continues one sentence: give the prompt on one line")
    return sentences[0]


def _continuation_text(bundle: ModelBundle, prompt: str, prompt_ids: list[int], new_ids: list[int]) -> str:
    """The prompt as typed, followed by the new tokens as text."""
    tok = bundle.tokenizer
    if not new_ids:
        return prompt
    if tok.kind in ("bpe", "hf"):
        before, whole = tok.decode(prompt_ids), tok.decode(prompt_ids + new_ids)
        if whole.startswith(before):  # decoding the continuation alone can drop a leading space
            return prompt + whole[len(before) :]
        return whole
    sep = " " if tok.kind == "word" else ""
    return prompt + sep + join_tokens([tok.token(i) for i in new_ids], tok.kind)


def generate(
    bundle: ModelBundle,
    prompt: str,
    options: RunOptions | None = None,
    gen: GenerateOptions | None = None,
    cancel: threading.Event | None = None,
    on_step: Callable[[Step], None] | None = None,
) -> Generation:
    """Continue ``prompt`` (one line) token by token. ``cancel`` stops after the current step (the steps so
    far are kept, ``stopped == "cancelled"``); ``on_step`` hears about every step as soon as it is chosen."""
    options = (options or RunOptions()).replace(layers_to_capture=None)
    gen = gen or GenerateOptions()
    sentence = _check(options, prompt, bundle.config)

    started = time.perf_counter()
    prefill = run_trace(bundle, sentence, options, cancel)  # the prompt's full trace, C×C maps and all
    prefill_ms = (time.perf_counter() - started) * 1000
    # Every token this generation may add, counted before the first decode step (the prompt's own trace
    # was counted by run_trace): the model's context stops it at max_positions.
    room = max(0, min(gen.max_new_tokens, bundle.config.max_positions - prefill.C))
    check_generation_memory(bundle.config, prefill.C, room, prefill.options, gen.use_cache)
    run = _Decoding(bundle, prefill, gen, cancel, on_step)
    run.loop(prefill_ms)

    trace = _assemble(prefill, run, run.cache)
    new_ids = [s.token_id for s in run.steps]
    return Generation(
        trace=trace,
        steps=tuple(run.steps),
        prompt=sentence,
        text=_continuation_text(bundle, sentence, list(prefill.rows[0].ids), new_ids),
        use_cache=gen.use_cache,
        sampling=gen.sampling.to_dict(),
        max_new_tokens=gen.max_new_tokens,
        stop_ids=tuple(gen.stop_ids),
        stopped=run.stopped,
        notices=tuple(run.notices[len(prefill.notices) :]),
    )


def _prefilled_cache(prefill: Trace, device: torch.device) -> KVCache:
    """A cache holding the prompt's keys (after RoPE for a RoPE model) and values, from its trace."""
    cfg = prefill.config
    cache = KVCache(cfg.layers)
    k_name = names.qk_stages(cfg.positions)[1]
    for l, kv in enumerate(cache.layers):
        kv.extend(
            as_run_tensor(prefill[names.attn(l, k_name)], prefill.options.dtype).to(device),  # (1, H_kv, C, D)
            as_run_tensor(prefill[names.attn(l, "v")], prefill.options.dtype).to(device),  # (1, H_kv, C, D_v)
        )
    return cache


class _Decoding:
    """The decode loop's state: the ids so far, the cache, the steps chosen and the rows and logits kept."""

    def __init__(self, bundle: ModelBundle, prefill: Trace, gen: GenerateOptions, cancel, on_step) -> None:
        self.bundle, self.prefill, self.gen, self.cancel, self.on_step = bundle, prefill, gen, cancel, on_step
        self.options = prefill.options  # after any device fallback
        self.model = bundle.model_for(self.options.dtype, self.options.device)
        self.device = torch.device(self.options.device)
        self.ids = list(prefill.rows[0].ids)
        self.C0 = len(self.ids)
        self.notices = list(prefill.notices)
        self.cache = _prefilled_cache(prefill, self.device) if gen.use_cache else None
        self.steps: list[Step] = []
        self.all_logits: list[np.ndarray] = []
        self.all_rows: list[list[np.ndarray]] = []
        self.all_queries: list[list[np.ndarray]] = []  # per step, L × (H, D): the query rows the scores read
        self.stopped = "count"

    def loop(self, prefill_ms: float) -> None:
        cfg, P = self.bundle.config, self.bundle.config.max_positions
        # The first distribution is the prefill's last row.
        logits_row = np.array(self.prefill["logits"][0, -1])  # (V,)
        attn_rows = [_last_row(self.prefill, l) for l in range(cfg.layers)]  # L × (H, C)
        q_name = names.qk_stages(cfg.positions)[0]
        queries = [np.array(self.prefill[names.attn(l, q_name)][0, :, -1]) for l in range(cfg.layers)]  # L × (H, D)
        ms, cached = prefill_ms, False
        rng = self.gen.sampling.rng()
        if self.C0 >= P:
            self.stopped = "context"
            self.notices.append(f"the prompt fills the model's context of {P} tokens: there is no room to generate")
            return
        while True:
            token_id = self._choose(logits_row, (attn_rows, queries), rng, ms, cached)
            stopped = self._stop(token_id, P)
            if stopped is not None:
                self.stopped = stopped
                return
            self.ids.append(token_id)
            if self.cache is not None and long_rope_crossed(cfg, self.cache.length, len(self.ids)):
                self.cache = KVCache(cfg.layers)  # refilled by the next pass, every key turned the long way
            t0 = time.perf_counter()
            logits_row, attn_rows, queries = decode_step(
                self.model, self.ids, self.cache, self.options, cfg.layers, self.device
            )
            ms, cached = (time.perf_counter() - t0) * 1000, self.cache is not None

    def _choose(self, logits_row: np.ndarray, rows, rng, ms: float, cached: bool) -> int:
        """Choose the next token from ``logits_row``; record the step, its logits, and ``rows``: its attention
        rows and query rows per layer."""
        tok = self.bundle.tokenizer
        token_id, probs = choose(logits_row, self.gen.sampling, rng)
        top_ids, top_p = top_k(probs, self.gen.top)
        step = Step(
            len(self.steps),
            token_id,
            tok.token(token_id),
            float(probs[token_id]),
            tuple((int(i), tok.token(int(i)), float(p)) for i, p in zip(top_ids, top_p)),
            ms,
            self.C0 - 1 + len(self.steps),
            cached,
        )
        self.steps.append(step)
        self.all_logits.append(logits_row)
        self.all_rows.append(rows[0])
        self.all_queries.append(rows[1])
        if self.on_step is not None:
            self.on_step(step)
        return token_id

    def _stop(self, token_id: int, P: int) -> str | None:
        """Why the loop stops after the token just chosen, or None to go on."""
        if token_id in self.gen.stop_ids:
            return "token"
        if len(self.steps) >= self.gen.max_new_tokens:
            return "count"
        if self.C0 + len(self.steps) >= P:
            self.notices.append(f"stopped at the model's context of {P} tokens")
            return "context"
        if self.cancel is not None and self.cancel.is_set():
            return "cancelled"
        return None


def _last_row(prefill: Trace, layer: int) -> np.ndarray:
    """(H, C): the last query's attention weights in every head of ``layer``. A long prompt's trace keeps q and
    k instead of its C×C maps; then only this row is computed, with the model's own attention_maps (deriving
    every head's whole map to read one row took minutes at 4096 tokens)."""
    stored = names.attn(layer, "weights")
    if stored in prefill.stored_names():
        return np.array(prefill[stored][0, :, -1])
    from explorer.model.attention import attention_maps, repeat_kv

    cfg = prefill.config
    q_name, k_name = names.qk(layer, cfg.positions)
    dtype = prefill.options.dtype  # derived in the run's dtype, as the model computed it (trace/readable.py)
    q = as_run_tensor(prefill[q_name][:, :, -1:], dtype)  # (1, H, 1, D)
    k = repeat_kv(as_run_tensor(prefill[k_name], dtype), cfg.H // cfg.H_kv)  # (1, H, C, D)
    allowed = torch.from_numpy(np.array(prefill["mask"][:, -1:]))  # (1, 1, C)
    with torch.inference_mode():
        weights = attention_maps(q, k, allowed, prefill.options.scale, score_dim=cfg.score_dim)[3]  # (1, H, 1, C)
    return readable(weights[0, :, 0])


def long_rope_crossed(cfg, cached: int, total: int) -> bool:
    """LongRoPE turns every key by the short factors up to original_max tokens and by the long ones beyond:
    when the text grows past it, the cached keys are stale. transformers' Phi-3 then drops its cache and runs
    the whole text again (prepare_inputs_for_generation); so does this loop."""
    scaling = cfg.rope_scaling
    return scaling is not None and scaling.kind == "longrope" and cached <= scaling.original_max < total


def decode_step(
    model, ids: list[int], cache: KVCache | None, options: RunOptions, layers: int, device
) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """One forward pass for the last token of ``ids``: its logits (V,), attention rows L × (H, len(ids)) and
    query rows L × (H, D) (after q/k norm and RoPE where the model has them: what the scores read). An empty
    ``cache`` is filled with every position's keys and values."""
    total = len(ids)
    if cache is not None and cache.length > 0:
        x = torch.tensor([ids[-1:]], dtype=torch.long, device=device)  # (1, 1): only the new token
        allowed = base_mask(options.mask, total, device)[total - 1 :].unsqueeze(0)  # (1, 1, total)
    else:
        x = torch.tensor([ids], dtype=torch.long, device=device)  # (1, total): everything again
        allowed = base_mask(options.mask, total, device).unsqueeze(0)  # (1, total, total)
    q_stage = names.qk_stages(model.cfg.positions)[0]
    sink = _LastRowSink(layers, q_stage)
    macs = x.shape[1] * sum(p.numel() for p in model.parameters())
    with torch.inference_mode(), capturing(model, sink), threads_for(macs):  # as a trace sets it: util/threads.py
        model(x, allowed, scale=options.scale, cache=cache)
    logits = readable(sink.tensors["logits"][0, -1])  # (V,); float32 for a half run (exact)
    rows = [readable(sink.tensors[names.attn(l, "weights")][0, :, -1]) for l in range(layers)]  # L × (H, total)
    queries = [readable(sink.tensors[names.attn(l, q_stage)][0, :, -1]) for l in range(layers)]  # L × (H, D)
    return logits, rows, queries


def _assemble(prefill: Trace, run: _Decoding, cache: KVCache | None) -> Trace:
    """The prompt's trace with the generation's arrays added (one snapshot holds both)."""
    steps, all_logits, all_rows, notices = run.steps, run.all_logits, run.all_rows, run.notices
    T = len(steps)
    C0 = prefill.C
    L = len(all_rows[0]) if all_rows else 0
    dtype = np.dtype(array_dtype(prefill.options.dtype))
    arrays = {n: prefill[n] for n in prefill.stored_names()}
    if T:
        arrays["gen.tokens"] = np.array([[s.token_id for s in steps]], dtype=np.int64)  # (1, T)
        arrays["gen.logits"] = np.stack(all_logits).astype(dtype, copy=False)[None]  # (1, T, V)
        total = C0 + T - 1
        for l in range(L):
            H = all_rows[0][l].shape[0]
            rows = np.zeros((1, H, T, total), dtype=dtype)  # (1, H, T, C_total): zeros beyond each row's keys
            for t, per_layer in enumerate(all_rows):
                rows[0, :, t, : per_layer[l].shape[1]] = per_layer[l]
            arrays[f"gen.layers.{l}.attn.weights"] = rows
            queries = np.stack([per_layer[l] for per_layer in run.all_queries], axis=1)  # (H, T, D)
            arrays[f"gen.layers.{l}.attn.q"] = queries.astype(dtype, copy=False)[None]  # (1, H, T, D)
    if cache is not None and T:
        for l, kv in enumerate(cache.layers):
            arrays[f"cache.layers.{l}.k"] = readable(kv.k.contiguous()).copy()  # (1, H_kv, C_total, D), not a view
            arrays[f"cache.layers.{l}.v"] = readable(kv.v.contiguous()).copy()  # (1, H_kv, C_total, D_v)
    return prefill.replace(arrays, notices=tuple(notices), partial=False, labels=None, interventions=None)
