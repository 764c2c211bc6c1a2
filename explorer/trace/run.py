"""One call from text to Trace: tokenize, pad, mask, run the model with capture on, collect numpy arrays."""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import torch

from explorer import names
from explorer.analysis.token_text import valid_text, visible
from explorer.config import (
    MAX_SENTENCES,
    MAX_TEXT_CHARS,
    MAX_TEXT_TOKENS,
    MAX_TRACE_TOKENS,
    RunOptions,
    check_memory,
    keeps_every_map,
    longest_whole_map,
    maps_tiled,
    mask_unread,
)
from explorer.errors import Cancelled, InputError
from explorer.model.attention_fused import vouch_causal
from explorer.model.capture import CaptureSink, Patch, capturing
from explorer.model.mask import build_mask, causal_stand_in, causal_view, empty_rows, mask_notices
from explorer.trace.finite import with_nonfinite_notice
from explorer.trace.logits import derivable
from explorer.trace.readable import dtype_notice, parameter_arrays, readable
from explorer.trace.trace import Row, Trace, TraceInfo
from explorer.util.devices import resolve_device
from explorer.util.memory import prepare_for, release_freed_memory
from explorer.util.threads import threads_for
from explorer.vocab import HALF_DTYPES, array_dtype, itemsize
from explorer.weights.bundle import ModelBundle

# Above this many bytes of (C, C) maps, a trace keeps q and k and derives the maps on demand.
AUTO_LAZY_BYTES = 256 * 1024**2


def _pairwise_bytes(cfg, B: int, C: int, options: RunOptions) -> int:
    """Bytes of the maps a full trace stores: scores and weights (scaled and masked are derived)."""
    layers = len(options.layers_to_capture) if options.layers_to_capture is not None else cfg.layers
    return 2 * B * cfg.H * C * C * layers * itemsize(array_dtype(options.dtype))  # float32 for a half run


def split_batch(text: str | Sequence[str]) -> list[str]:
    """Each non-blank line is one sentence of the batch."""
    lines = text.splitlines() if isinstance(text, str) else [str(t) for t in text]
    return [line.strip() for line in lines if line.strip()]


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")


def limit_text(sentences: list[str]) -> tuple[list[str], list[str]]:
    """The sentences one trace reads, and a notice for each limit that cut the text (config.MAX_SENTENCES,
    config.MAX_TEXT_CHARS; characters that are not valid Unicode become U+FFFD). Tokens are limited in
    run_trace, once the text is tokenized (the model's context, config.MAX_TRACE_TOKENS)."""
    notices: list[str] = []
    if len(sentences) > MAX_SENTENCES:
        notices.append(
            f"only the first {MAX_SENTENCES} of {len(sentences)} sentences are traced (at most {MAX_SENTENCES} "
            "lines at a time)"
        )
        sentences = sentences[:MAX_SENTENCES]
    total = sum(len(s) for s in sentences)
    if total > MAX_TEXT_CHARS:
        kept, room = [], MAX_TEXT_CHARS
        for sentence in sentences:
            if room <= 0:
                break
            if len(sentence) > room:
                cut = sentence[:room]
                space = cut.rfind(" ")
                sentence = cut[:space] if space > room // 2 else cut  # end on a word boundary when one is near
            kept.append(sentence)
            room -= len(sentence)
        notices.append(f"the text has {total:,} characters: only the first {MAX_TEXT_CHARS:,} are traced")
        sentences = [s for s in kept if s.strip()]
    cleaned, replaced = zip(*(valid_text(s) for s in sentences)) if sentences else ((), ())
    if any(replaced):
        notices.append("characters that are not valid Unicode were replaced by \ufffd")
    return list(cleaned), notices


# What a long text's trace keeps (``maps_tiled``) besides each layer's q, k and lse: the tokens and their
# mask, and what the logits are read from. Every (B, C, E) stage of 30 layers at 16,384 tokens would be 10 GB.
TILED_KEEPS = frozenset(("tokens", "mask", "mask.empty_rows", "segments", "final.out", "logits", "logits.uncapped"))


def _wants(cfg, B: int, C: int, options: RunOptions, tiled: bool = False):
    capture_layers = set(options.layers_to_capture) if options.layers_to_capture is not None else None
    per_layer = {*names.qk_stages(cfg.positions), "lse"}  # a tiled layer's maps are computed from these alone
    every_map = not tiled and keeps_every_map(cfg, B, C, options)  # the other layers' q and k: maps on demand

    def wants(name: str) -> bool:
        if name == "probs":
            return False  # derived from logits on demand: (B, C, V) is the largest array of a trace
        entry = names.spec(name)
        if options.lazy_pairwise and entry.pairwise:
            return False  # derived per head from q and k when looked at
        layer = names.layer_of(name)
        if tiled:
            kept = (
                name.rsplit(".", 1)[1] in per_layer and ".attn." in name if layer is not None else name in TILED_KEEPS
            )
            return kept and (capture_layers is None or layer is None or layer in capture_layers)
        if name.endswith(".attn.lse"):
            return False  # a shorter text derives its maps whole: nothing to keep for tiles
        if capture_layers is None or layer is None or layer in capture_layers:
            return True
        return every_map and name in names.qk(layer, cfg.positions)

    return wants


class _CancellableSink(CaptureSink):
    """A sink that stops the forward pass at the next capture point once ``cancel`` is set, and can run a
    callback right after a given name is captured."""

    def __init__(self, wants, cancel: threading.Event | None, patches: Mapping[str, Patch] | None = None) -> None:
        super().__init__(wants, patches)
        self._cancel = cancel
        self._after: dict[str, Callable[[], None]] = {}

    def on_capture(self, name: str, callback: Callable[[], None]) -> None:
        self._after[name] = callback

    def put(self, name, tensor):
        if self._cancel is not None and self._cancel.is_set():
            raise Cancelled("tracing was cancelled")
        super().put(name, tensor)
        if name in self._after:
            self._after.pop(name)()


def run_trace(
    bundle: ModelBundle,
    text: str | Sequence[str],
    options: RunOptions | None = None,
    cancel: threading.Event | None = None,
    on_partial: Callable[[Trace], None] | None = None,
    partial_after: int | None = None,
    patches: Mapping[str, Patch] | None = None,
) -> Trace:
    """Trace ``text`` (each line one sentence) through the bundle's model.

    ``cancel`` stops the forward pass at its next capture point (raising Cancelled). With ``on_partial``,
    a trace of everything up to layer ``partial_after`` is handed over as soon as that layer is done
    (``trace.partial`` is True; it has no logits yet), then the full trace is returned.
    ``patches`` replace tensors at capture points by name (see model.capture; explorer.interventions builds
    them): the trace then holds the intervened run.
    """
    cfg = bundle.config
    sentences = split_batch(text)
    if not sentences:
        raise InputError("there is no text to trace: type a sentence (each line is one sentence of the batch)")
    sentences, notices = limit_text(sentences)
    rows = tokenize_rows(bundle, sentences, notices)
    options, device = _settle_options(cfg, rows, options or RunOptions(), notices, _patches_logits(patches))
    notices += dtype_notice(getattr(bundle, "stored", "float32"), options.dtype)

    model = bundle.model_for(options.dtype, device)
    B, C = len(rows), max(r.length for r in rows)
    transients = 4 * B * cfg.H * C * C * itemsize(options.dtype)  # four (C, C) maps per head (or row blocks)
    prepare_for(transients)  # a moderate trace reuses the last one's pages instead of faulting new ones in
    tiled = maps_tiled(C, options.dtype)  # a long text: maps as tiles from q, k and lse (trace/tiles.py)
    inputs, empty = _model_inputs(bundle, rows, options, C, device, notices, tiled and not patches)
    ids, allowed, segments = inputs["tokens"], inputs.pop("model_mask", inputs["mask"]), inputs.get("segments")

    shown_early: list[Trace] = []  # the partial trace handed over, which the final one continues

    def assemble(tensors: Mapping[str, torch.Tensor], partial: bool) -> Trace:
        continues = shown_early[0] if shown_early and not partial else None
        return _assemble(bundle, model, {**inputs, **tensors}, rows, options, notices, partial, continues)

    def hand_over() -> None:
        shown_early.append(assemble(dict(sink.tensors), True))
        on_partial(shown_early[0])

    sink = _CancellableSink(_wants(cfg, B, C, options, tiled), cancel, patches)
    sink.derives_maps = options.lazy_pairwise  # its attention may run fused (model.attention)
    sink.derives_logits = derivable(cfg, str(device), options.dtype) and not _patches_logits(patches)
    if on_partial is not None and partial_after is not None and 0 <= partial_after < cfg.layers - 1:
        # Long inputs: hand over what exists once layer ``partial_after`` is done, so its maps can be shown
        # while the remaining layers compute.
        sink.on_capture(f"layers.{partial_after}.out", hand_over)
    # its thread count from its size: util/threads.py
    with torch.inference_mode(), capturing(model, sink), threads_for(B * C * cfg.active_parameter_count()):
        model(ids, allowed, scale=options.scale, empty=empty, segments=segments)

    trace = assemble(sink.tensors, False)
    # large (C, C) transients go back to the system; a small trace's few MB stay for the next trace to reuse
    release_freed_memory(transients)
    return trace


def _mask_unread(cfg, rows: list[Row], options: RunOptions, device) -> bool:
    """A long text whose model never reads the mask's cells (``config.mask_unread``): its trace keeps the mask as
    a view of 2C − 1 booleans and the model gets a stand-in of no memory (explorer/model/mask.py). No C × C array
    is made at all."""
    C = max(r.length for r in rows)
    return mask_unread(cfg, options.replace(device=str(device)), padded=any(r.length != C for r in rows))


def _model_inputs(
    bundle: ModelBundle, rows: list[Row], options: RunOptions, C: int, device, notices: list[str], long: bool = False
) -> tuple[dict, torch.Tensor]:
    """The padded ids (B, C), the mask (B, C, C), its query rows without any key (B, C; said in a notice)
    and each token's sentence (B, C; BERT only), computed once for the model and the trace; and those rows
    as the model takes them (B, 1, C, 1). ``long``: a long text (maps tiled) that no intervention edits; where
    its mask is never read (``_mask_unread``) the trace's is a numpy view of 2C − 1 booleans and the model's
    (under "model_mask") a stand-in of no memory."""
    ids = _padded_ids(rows, bundle.tokenizer.pad_id, C).to(device)
    if long and _mask_unread(bundle.config, rows, options, device):
        B = len(rows)
        stand_in = causal_stand_in(B, C)
        empty = empty_rows(stand_in)  # (B, 1, C, 1): none, every query sees itself
        inputs = {
            "tokens": ids,
            "mask": causal_view(B, C),
            "model_mask": stand_in,
            "mask.empty_rows": empty[:, 0, :, 0],
        }
        return inputs, empty
    allowed = build_mask(options.mask, [r.length for r in rows], C, device)
    if options.mask.kind == "causal" and all(r.length == C for r in rows):
        vouch_causal(allowed)  # the lower triangle by construction: the attention need not read it to know
    empty = empty_rows(allowed)  # (B, 1, C, 1)
    _notice_blocked_rows(empty, rows, notices)
    segments = _segments(bundle.config, rows, C, device, notices)
    inputs = {
        "tokens": ids,
        "mask": allowed,
        "mask.empty_rows": empty[:, 0, :, 0],
        **({"segments": segments} if segments is not None else {}),
    }
    return inputs, empty


def _notice_blocked_rows(empty: torch.Tensor, rows: list[Row], notices: list[str]) -> None:
    """Say how many real query rows the mask leaves without any key (their weights are all 0)."""
    blocked_rows = sum(int(empty[b, 0, : r.length].sum()) for b, r in enumerate(rows))
    if blocked_rows:
        notices.append(f"the mask blocks every key of {blocked_rows} query row(s): their attention weights are all 0")


def _segments(cfg, rows: list[Row], C: int, device, notices: list[str]) -> torch.Tensor | None:
    """(B, C) each token's sentence for a model with a segment table (BERT), padding 0; else None.
    A tokenizer's type id the table has no row for (RoBERTa has one row) counts as sentence A."""
    if not cfg.segments:
        return None
    seg = torch.zeros(len(rows), C, dtype=torch.long)
    past = sorted({s for r in rows for s in (r.segments or ()) if not 0 <= s < cfg.segments})
    for b, r in enumerate(rows):
        if r.segments is not None:
            seg[b, : r.length] = torch.tensor([s if 0 <= s < cfg.segments else 0 for s in r.segments], dtype=torch.long)
    if past:  # said, not silent: the tokenizer's template names a sentence the model has no table row for
        notices.append(
            f"the tokenizer gives segment (token type) ids {', '.join(map(str, past[:8]))}, but the model has "
            f"{cfg.segments} segment row(s): those tokens are traced as segment 0"
        )
    return seg.to(device)


def _padded_ids(rows: list[Row], pad_id: int, C: int) -> torch.Tensor:
    """(B, C) token ids, each sentence right-padded to C."""
    ids = torch.full((len(rows), C), pad_id, dtype=torch.long)
    for b, r in enumerate(rows):
        ids[b, : r.length] = torch.tensor(r.ids, dtype=torch.long)
    return ids


def tokenize_rows(
    bundle: ModelBundle, sentences: list[str], notices: list[str], longest: int = MAX_TEXT_TOKENS
) -> list[Row]:
    """One Row per sentence, cut to the model's context and ``longest`` (config.MAX_TEXT_TOKENS), several
    sentences to config.MAX_TRACE_TOKENS positions in all;
    what was cut or not understood becomes a notice."""
    cfg = bundle.config
    rows: list[Row] = []
    cut = 0
    width = 0  # the longest row so far: every row is padded to it
    # Every model has a context: learned positions and real models have no position past it, and this
    # app's own models are not meant to be read past max_positions either (1024 unless trained longer).
    limit = min(cfg.max_positions, longest)  # one sentence; several share MAX_TRACE_TOKENS
    for sentence in sentences:
        enc = bundle.tokenizer.encode(sentence)
        if len(enc) == 0:
            notices.append(f"skipped a line with no tokens: {visible(sentence[:30])}")
            continue
        ids, tokens, unknown = enc.ids, enc.tokens, enc.unknown
        if len(ids) > limit:
            cut = max(cut, len(ids))
            ids, tokens, unknown = ids[:limit], tokens[:limit], unknown[:limit]
        # Every array is (B, C, …) with rows padded to the longest: count B × C, not the tokens. One long
        # line among 63 short ones made a 64 × 1024 batch whose export held 8.6 GB of maps.
        if rows and (len(rows) + 1) * max(width, len(ids)) > MAX_TRACE_TOKENS:
            notices.append(
                f"only the first {len(rows)} of {len(sentences)} sentences are traced: a batch is padded to its "
                f"longest sentence and holds at most {MAX_TRACE_TOKENS:,} positions (sentences × tokens)"
            )
            break
        width = max(width, len(ids))
        segments = enc.segments[: len(ids)] if enc.segments is not None else None
        rows.append(Row(sentence, tuple(tokens), tuple(ids), tuple(unknown), segments))
    if cut:
        what = "the model's context" if limit == cfg.max_positions else "the longest text traced at once"
        notices.append(f"a sentence of {cut} tokens was cut to {what} of {limit} tokens")
    if not rows:
        raise InputError("the text gives no tokens: type a sentence")
    _unknown_notices(bundle, rows, notices)
    return rows


def _unknown_notices(bundle: ModelBundle, rows: list[Row], notices: list[str]) -> None:
    if not any(any(r.unknown) for r in rows):
        return
    unknown_words = sorted({t for r in rows for t, u in zip(r.tokens, r.unknown) if u})
    shown = [visible(w if len(w) <= 40 else w[:40] + "…") for w in unknown_words[:8]]
    notices.append(
        f"not in the vocabulary, shown as <unk>: {', '.join(shown)}" + (" …" if len(unknown_words) > 8 else "")
    )
    if bundle.tokenizer.kind == "word" and any(_CJK.search(w) for w in unknown_words):
        notices.append(
            "Japanese and Chinese put no spaces between words, so a word-level vocabulary sees each run of "
            "them as one unknown word: try the japanese preset (its subword vocabulary knows every character)"
        )


def _patches_logits(patches: Mapping[str, Patch] | None) -> bool:
    """True for a run that patches the logits: it computes and stores every row of them."""
    return any(name.startswith("logits") for name in (patches or {}))


def _settle_options(
    cfg, rows: list[Row], options: RunOptions, notices: list[str], logits_patched: bool = False
) -> tuple[RunOptions, torch.device]:
    """The options this trace really runs with (lazy maps for large inputs, the device found), checked
    against the memory budget; what changed becomes a notice."""
    B, C = len(rows), max(r.length for r in rows)
    if options.dtype in HALF_DTYPES and maps_tiled(C, options.dtype):
        # A long text's tiles (trace/tiles.py) are computed in float32 from q, k and each row's log-sum-exp,
        # not in the half dtype the model ran in: they would not be its numbers.
        raise InputError(
            f"a {options.dtype} trace holds at most {longest_whole_map(options.dtype):,} tokens (this text has "
            f"{C:,}): a longer text's maps are computed in float32 blocks; trace it in float32"
        )
    if not options.lazy_pairwise and (
        _pairwise_bytes(cfg, B, C, options) > AUTO_LAZY_BYTES or maps_tiled(C, options.dtype)
    ):
        # Storing every (C, C) map would dwarf the rest of the trace; derive them per head instead.
        # Nothing a user sees changes: the maps are computed by the same per-head code on demand.
        options = options.replace(lazy_pairwise=True)
    check_memory(cfg, B, C, options, logits_kept=True if logits_patched else None)
    device, device_notice = resolve_device(options.device)
    if device_notice:
        notices.append(device_notice)
        options = options.replace(device=device)
    notices += mask_notices(options.mask, C)
    return options, device


def _assemble(bundle, model, tensors: Mapping[str, torch.Tensor], rows, options, notices, partial, continues) -> Trace:
    """The Trace over the captured tensors: numpy views of them (no copy on the CPU) and of the parameters."""
    # float32 for a half run (exact); a long text's causal mask is already its numpy view (_mask_unread)
    arrays = {name: t if isinstance(t, np.ndarray) else readable(t) for name, t in tensors.items()}
    arrays.update(parameter_arrays(model))
    info = TraceInfo(
        rows=tuple(rows),
        config=bundle.config,
        options=options,
        source=bundle.source,
        seed=bundle.seed,
        vocab=bundle.tokenizer.display_vocab(),
        notices=tuple(notices),
        model_name=bundle.name,
        tokenizer_kind=bundle.tokenizer.kind,
        partial=partial,
    )
    trace = Trace(arrays, info, continues=continues)
    if partial:  # the final trace says it; the partial one is replaced within moments
        return trace
    notices_now = with_nonfinite_notice(info.notices, trace)
    if notices_now == info.notices:
        return trace
    return Trace(arrays, dataclasses.replace(info, notices=notices_now), continues=continues)
