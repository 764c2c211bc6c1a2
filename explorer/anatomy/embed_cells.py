"""The anatomy of the input's numbers: a token's id (its piece of text looked up in the vocabulary, and the row
of the embedding table W_E that id picks) and an entry of the embedding (that row's entry, × √E where the
family scales it, + the sentence's segment vector (BERT), + the position's vector, then the embedding's norm
where the model has one). Every number is read from the trace; the sums go in the model's dtype and order."""

from __future__ import annotations

import math

from explorer.anatomy.block_cells import layer_norm_steps
from explorer.anatomy.cell import Cell, stored
from explorer.anatomy.steps import Step
from explorer.anatomy.sums import cell_step, f64, number_type
from explorer.trace import Trace


def _token(trace: Trace, c: Cell) -> tuple[str, int]:
    row = trace.rows[c.sentence]
    return row.tokens[c.query], int(row.ids[c.query])


def token_steps(trace: Trace, c: Cell) -> list[Step]:
    """The id the tokens map shows: the piece of text looked up in the vocabulary, then the row of W_E it picks."""
    piece, token_id = _token(trace, c)
    steps = [Step("vocab_lookup", {"token": piece}, token_id)]
    row = stored(trace, "embed.tok")
    if row is not None:
        steps.append(Step("embedding_row", {"id": token_id, "table": "W_E"}, f64(row[c.sentence, c.query])))
    where = {"tensor": "tokens", "sentence": c.sentence, "query": c.query}
    return steps + [cell_step(float(token_id), float(token_id), "float64", where)]


def embed_steps(trace: Trace, c: Cell) -> list[Step]:
    """embed.out[i, K] = W_E[id, K] (× √E) (+ segment[K]) + position[i, K], normalised where the model does."""
    cfg, b, i, K = trace.config, c.sentence, c.query, c.dim
    kind = number_type(trace.options.dtype)
    piece, token_id = _token(trace, c)
    value = kind(trace["embed.tok"][b, i, K])
    steps = [Step("embedding_row", {"token": piece, "id": token_id, "column": K}, value)]
    if cfg.embed_scale:  # Gemma: the row × √E, the model multiplies in its dtype
        scaled = value * kind(math.sqrt(cfg.E))
        steps.append(Step("embed_scale", {"x": value, "sqrt_E": math.sqrt(cfg.E)}, scaled))
        value = scaled
    seg = stored(trace, "embed.seg")
    if seg is not None:
        segments = trace.rows[b].segments
        part = kind(seg[b, i, K])
        value = value + part
        steps.append(Step("segment", {"sentence": segments[i] if segments else 0}, part, float(value)))
    pos = stored(trace, "embed.pos")
    if pos is not None:
        part = kind(pos[b, i, K])
        value = value + part
        steps.append(Step("position", {"position": i, "kind": cfg.positions}, part, float(value)))
    if "embed.sum" in trace.stored_names():  # BERT: the sum normalised over the row
        norm, normed = layer_norm_steps(trace, c, "embed.sum", "params.embed.ln")
        steps += norm
        value = normed
    return steps + [cell_step(trace["embed.out"][b, i, K], float(value), trace.options.dtype, c.where("embed.out"))]
