"""The schema of each kind of snapshot beyond the plain trace (docs/snapshot-format.md), for every reader:
``info``, ``gui --snapshot``, read_snapshot and read_generation all go through check_manifest, check_tensors
and check_values in explorer/export/snapshot_schema.py, which call here.

- **Intervened** (``export --ablate/--cut/--patch``): the manifest's ``interventions`` object (ablations,
  cuts, patches and the patch source, each naming a layer, head and position that exist) and the baseline's
  ``baseline.logits`` and ``baseline.probs``; baseline tensors without the interventions are refused too.
- **Generation** (``generate -o``): the manifest's ``generation`` object (every step with its token id inside
  the vocabulary, its probability, its top tokens; the sampling, the stop reason) and, once a token was
  generated, ``gen.tokens``, ``gen.logits``, each layer's ``gen.layers.L.attn.weights`` and, when the cache
  was used, each layer's ``cache.layers.L.k`` and ``.v``; the generated ids in ``gen.tokens`` are the steps'.

Before this module a snapshot with ``interventions: "garbage"``, no ``baseline.logits``, no cache tensors or
generated ids outside the vocabulary opened in the window with exit code 0 and no word.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from explorer import names
from explorer.util.schema import Where, flag, listing, mapping, number, optional, text, whole
from explorer.vocab import ABLATE_MODES, STOP_REASONS

MAX_NEW_TOKENS = 4096
BASELINE = ("baseline.logits", "baseline.probs")


def kind_of(raw: dict[str, Any]) -> str:
    if raw.get("generation") is not None:
        return "generation"
    if raw.get("interventions") is not None:
        return "intervened"
    return "plain"


# ---------------------------------------------------------------------------------------------- intervened


def check_interventions(raw: dict[str, Any], config, C: int, where: Where) -> dict[str, Any] | None:
    """The manifest's ``interventions``, every entry pointing at something the model and the text have."""
    value = raw.get("interventions")
    if value is None:
        return None
    m = mapping(value, "interventions", where)
    L, H = config.layers, config.heads

    def ablation(v: Any, f: str, w: Where) -> dict:
        a = mapping(v, f, w)
        mode = text(a.get("mode", "zero"), f"{f}.mode", w, 8)
        if mode not in ABLATE_MODES:
            raise w.fail(f"{f}.mode must be zero or mean, got {mode[:20]!r}")
        return {
            "layer": whole(a.get("layer"), f"{f}.layer", w, 0, L - 1),
            "head": whole(a.get("head"), f"{f}.head", w, 0, H - 1),
            "mode": mode,
        }

    def cut(v: Any, f: str, w: Where) -> dict:
        c = mapping(v, f, w)
        return {
            "layer": whole(c.get("layer"), f"{f}.layer", w, 0, L - 1),
            "head": whole(c.get("head"), f"{f}.head", w, 0, H - 1),
            "query": whole(c.get("query"), f"{f}.query", w, 0, C - 1),
            "key": whole(c.get("key"), f"{f}.key", w, 0, C - 1),
        }

    def patch(v: Any, f: str, w: Where) -> dict:
        p = mapping(v, f, w)
        name = text(p.get("name"), f"{f}.name", w, 200)
        if not names.is_known(name) or names.spec(name).is_param:
            raise w.fail(f"{f}.name {name[:60]!r} is not an activation of a trace")
        positions = optional(listing)(
            p.get("positions"), f"{f}.positions", w, lambda x, g, y: whole(x, g, y, 0, C - 1), C
        )
        heads = optional(listing)(p.get("heads"), f"{f}.heads", w, lambda x, g, y: whole(x, g, y, 0, H - 1), H)
        return {"name": name, "positions": positions, "heads": heads}

    out = {
        "ablations": listing(m.get("ablations", []), "interventions.ablations", where, ablation, L * H),
        "cuts": listing(m.get("cuts", []), "interventions.cuts", where, cut, 1 << 20),
        "patches": listing(m.get("patches", []), "interventions.patches", where, patch, 10_000),
        "patch_from": optional(text)(m.get("patch_from"), "interventions.patch_from", where),
    }
    if not (out["ablations"] or out["cuts"] or out["patches"]):
        raise where.fail("interventions names no ablation, cut or patch: an intervened snapshot changes something")
    return out


# ---------------------------------------------------------------------------------------------- generation


def _share(value: Any, field: str, where: Where) -> float:
    """A probability (or a time): a finite number from 0 (to 1)."""
    x = number(value, field, where)
    if x < 0:
        raise where.fail(f"{field} must not be negative, got {x:g}")
    return x


def _step(V: int):
    def check(v: Any, f: str, w: Where) -> dict:
        s = mapping(v, f, w)
        for key in ("token_id", "token", "prob", "top", "top_ids", "ms", "query", "cached"):
            if key not in s:
                raise w.fail(f"the generation in the manifest is incomplete ({f}.{key} is missing)")
        top_ids = listing(s["top_ids"], f"{f}.top_ids", w, lambda x, g, y: whole(x, g, y, 0, V - 1), V)
        top = listing(s["top"], f"{f}.top", w, lambda x, g, y: listing(x, g, y, lambda z, h, u: z, 2), V)
        if len(top) != len(top_ids) or any(len(t) != 2 for t in top):
            raise w.fail(f"{f}.top must hold one [token, probability] pair per id of {f}.top_ids")
        for i, (token, prob) in enumerate(top):
            text(token, f"{f}.top[{i}][0]", w, 10_000)
            _share(number(prob, f"{f}.top[{i}][1]", w, hi=1.0), f"{f}.top[{i}][1]", w)
        return {
            "token_id": whole(s["token_id"], f"{f}.token_id", w, 0, V - 1),
            "token": text(s["token"], f"{f}.token", w, 10_000),
            "prob": _share(number(s["prob"], f"{f}.prob", w, hi=1.0), f"{f}.prob", w),
            "ms": _share(s["ms"], f"{f}.ms", w),
            "query": whole(s["query"], f"{f}.query", w),
            "cached": flag(s["cached"], f"{f}.cached", w),
        }

    return check


def check_generation(raw: dict[str, Any], config, C: int, B: int, where: Where) -> dict[str, Any] | None:
    """The manifest's ``generation``: every field a Generation is rebuilt from, in range."""
    value = raw.get("generation")
    if value is None:
        return None
    g = mapping(value, "generation", where)
    for key in ("prompt", "text", "use_cache", "sampling", "max_new_tokens", "stop_ids", "stopped"):
        if key not in g:
            raise where.fail(f"the generation in the manifest is incomplete ({key} is missing)")
    if B != 1:
        raise where.fail(f"a generation continues one sentence, but the batch has {B}")
    V = config.vocab_size
    steps = listing(g.get("steps"), "generation.steps", where, _step(V), MAX_NEW_TOKENS)
    max_new = whole(g["max_new_tokens"], "generation.max_new_tokens", where, 1, MAX_NEW_TOKENS)
    if len(steps) > max_new:
        raise where.fail(f"generation.steps has {len(steps)} steps, more than its max_new_tokens {max_new}")
    stopped = text(g["stopped"], "generation.stopped", where, 20)
    if stopped not in STOP_REASONS:
        raise where.fail(f"the generation in the manifest is incomplete (unknown stop reason {stopped[:20]!r})")
    if "prompt_tokens" in g and whole(g["prompt_tokens"], "generation.prompt_tokens", where) != C:
        raise where.fail(f"generation.prompt_tokens is {g['prompt_tokens']}, but the prompt has {C} tokens")
    text(g["prompt"], "generation.prompt", where)
    text(g["text"], "generation.text", where)
    mapping(g["sampling"], "generation.sampling", where)
    listing(g["stop_ids"], "generation.stop_ids", where, lambda x, f, w: whole(x, f, w, 0, V - 1), V)
    listing(g.get("notices", []), "generation.notices", where, text, 10_000)
    return {"steps": steps, "use_cache": flag(g["use_cache"], "generation.use_cache", where)}


# ---------------------------------------------------------------------------------------------- tensors


def required_tensors(manifest, where: Where) -> tuple[str, ...]:
    """The tensors this kind of snapshot cannot be read without (beyond tokens and mask)."""
    L = manifest.config.layers
    if manifest.kind == "intervened":
        return BASELINE
    if manifest.kind == "generation" and manifest.generation["steps"]:
        layers = [f"gen.layers.{l}.attn.weights" for l in range(L)]
        cache = [f"cache.layers.{l}.{kv}" for l in range(L) for kv in "kv"] if manifest.generation["use_cache"] else []
        return ("gen.tokens", "gen.logits", *layers, *cache)
    return ()


def check_kind_tensors(manifest, infos: dict[str, Any], where: Where) -> None:
    """Headers: what the kind needs is there, and nothing of another kind is."""
    missing = [n for n in required_tensors(manifest, where) if n not in infos]
    if missing:
        article = "an intervened" if manifest.kind == "intervened" else f"a {manifest.kind}"
        raise where.fail(
            f"lacks the tensor{'s' if len(missing) > 1 else ''} {', '.join(missing[:4])}, which {article} "
            "snapshot holds"
        )
    if manifest.kind != "intervened":
        stray = [n for n in infos if n.startswith("baseline.")]
        if stray:
            raise where.fail(f"{stray[0]} belongs to an intervened run, but the manifest has no interventions field")
    if manifest.kind == "generation" and not manifest.generation["use_cache"]:
        stray = [n for n in infos if n.startswith("cache.")]
        if stray:
            raise where.fail(f"{stray[0]} is a cache tensor, but the generation says it used no cache")


def check_kind_values(manifest, arrays: dict[str, np.ndarray], where: Where) -> None:
    """Data: the generated ids lie in the vocabulary and are the manifest's steps."""
    if manifest.kind != "generation" or "gen.tokens" not in arrays:
        return
    V = manifest.config.vocab_size
    ids = arrays["gen.tokens"]
    if ids.size and (int(ids.min()) < 0 or int(ids.max()) >= V):
        raise where.fail(f"gen.tokens holds ids outside the vocabulary 0 … {V - 1}")
    if tuple(int(i) for i in ids[0]) != tuple(s["token_id"] for s in manifest.generation["steps"]):
        raise where.fail("the generated tokens do not match the manifest's steps")
