"""A title and a plain-words caption for every pipeline stage, for the flow view and presentation mode.

Every sentence goes through ``QCoreApplication.translate("Captions", …)`` as a literal (so lupdate finds
it) and gets the trace's real sizes through ``.format`` placeholders. The numbers come from
``explorer.present.stage_facts``; nothing here computes.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from explorer import vocab
from explorer.present.stage_facts import stage_numbers
from explorer.trace import Trace
from explorer.ui.words.captions_families import family_caption, family_tensor_title
from explorer.ui.words.stage_words import stage_headings


def _normed_x(n: dict) -> str:
    if n["norm"] == "none":
        return ""
    return " " + QCoreApplication.translate("Captions", "x is the normalised vector of the stage before.")


# Every sentence is a literal QCoreApplication.translate("Captions", …) call: lupdate finds only literals.


def title(key: str) -> str:
    return titles().get(key)


def titles() -> dict[str, str]:
    """Every stage's heading: one call for a view that names all its stages (explorer/present/stage_titles.py)."""
    return stage_headings()


def _mask_sentence(n: dict) -> str:
    kind = n["mask_kind"]
    if kind == "causal":
        return QCoreApplication.translate(
            "Captions",
            "Causal mask: each token may look only at itself and earlier tokens, so the future (j > i) is set to −∞.",
        )
    if kind == "none":
        return QCoreApplication.translate(
            "Captions",
            "No mask: every token sees every other token, the future included. A language model trained this "
            "way could cheat.",
        )
    if kind == "window":
        before = vocab.window_keys_before(n["mask_size"])  # W−1: the window's one definition
        return QCoreApplication.translate(
            "Captions",
            "Sliding window of {mask_size}: each token looks at itself and the {before} tokens before it at "
            "most; the rest is −∞.",
        ).format(before=before, **n)
    if kind == "prefix":
        return QCoreApplication.translate(
            "Captions",
            "Prefix of {mask_size}: the first {mask_size} tokens see each other freely, the rest is causal; "
            "blocked cells are −∞.",
        ).format(**n)
    return QCoreApplication.translate("Captions", "A hand-painted mask: the cells you blocked are −∞.")


def _norm_sentence(key: str, n: dict) -> str:
    where = {
        "norm_attn": QCoreApplication.translate(
            "Captions", "Before attention, each token vector x is normalised on its own."
        ),
        "norm_ffn": QCoreApplication.translate(
            "Captions", "Before the FFN, each token vector of the stream is normalised on its own."
        ),
        "final_norm": QCoreApplication.translate(
            "Captions",
            "After the last layer, each token vector is normalised once more before the scores over the vocabulary.",
        ),
    }[key]
    if n["norm"] == "rmsnorm":
        how = QCoreApplication.translate(
            "Captions",
            "RMSNorm divides its E = {E} numbers by their root mean square (RMS), so that their mean square is "
            "1, then multiplies each by a learned γ.",
        ).format(**n)
    elif n["norm"] == "layernorm":
        how = QCoreApplication.translate(
            "Captions",
            "LayerNorm shifts its E = {E} numbers to mean 0 and scales them to variance 1, then multiplies "
            "each by a learned γ and adds a learned β.",
        ).format(**n)
    else:
        return QCoreApplication.translate("Captions", "This model has no normalisation: the vectors go on unchanged.")
    after = {
        "norm_attn": QCoreApplication.translate("Captions", "Q, K and V are computed from this normalised x."),
        "norm_ffn": QCoreApplication.translate("Captions", "The FFN reads this normalised vector."),
        "final_norm": QCoreApplication.translate("Captions", "The last matrix reads this normalised vector."),
    }[key]
    return f"{where} {how} {after}"


def _weights_sentence(n: dict) -> str:
    if not n["blocked_rows"]:
        return QCoreApplication.translate(
            "Captions",
            "Step 2: softmax turns each row of scores into weights that sum to 1: row i says how much token i "
            "draws from each token it may see.",
        )
    if n["blocked_rows"] >= n["C"]:
        return QCoreApplication.translate(
            "Captions",
            "Step 2 would turn each row of scores into weights, but the mask blocks every key of every row: no "
            "token has anything to draw from, and every weight is 0.",
        )
    return QCoreApplication.translate(
        "Captions",
        "Step 2: softmax turns each row of scores into weights: row i says how much token i draws from each "
        "token it may see. {blocked_rows} of the {C} rows have every key blocked: they have nothing to draw "
        "from, and their weights are all 0. The other rows sum to 1.",
    ).format(**n)


def caption(key: str, trace: Trace, layer: int = 0, row: int = 0) -> str:
    """The stage explained for a class, with this trace's numbers."""
    n = stage_numbers(trace, layer, row)
    family = family_caption(key, n, trace.config)
    if family is not None:
        return family
    if key in ("norm_attn", "norm_ffn", "final_norm"):
        return _norm_sentence(key, n)
    if key in ("tokens", "embed", "qkv"):
        return _input_sentence(key, n)
    if key in ("scores", "scaled", "masked", "weights", "heads", "concat", "out"):
        return _attention_sentence(key, n)
    return _block_sentence(key, n)


def _input_sentence(key: str, n: dict) -> str:
    """From the text to each head's queries, keys and values."""
    if key == "tokens":
        return QCoreApplication.translate(
            "Captions",
            "The text is cut into {C} tokens, and each token becomes its id: a row number in a vocabulary of V = {V}.",
        ).format(**n)
    if key == "embed":
        text = QCoreApplication.translate(
            "Captions",
            "Each id picks one row of the embedding table (V × E = {V} × {E}): every token becomes a vector of "
            "E = {E} numbers.",
        ).format(**n)
        if n["positions"] in vocab.ADDED_POSITIONS:
            text += " " + QCoreApplication.translate(
                "Captions", "A position vector is added, so that the model knows where each token stands."
            )
        elif n["positions"] == "rope":
            text += " " + QCoreApplication.translate(
                "Captions", "Positions are added later, by rotating queries and keys (RoPE)."
            )
        return text
    if key == "qkv":
        if n["unfactored"]:
            return QCoreApplication.translate(
                "Captions",
                "Three matrices turn every token vector x into a query (what am I looking for?), a key (what "
                "do I offer?) and a value (what do I pass on?). Here W_v keeps the full size E = {E}.",
            ).format(**n) + _normed_x(n)
        return QCoreApplication.translate(
            "Captions",
            "Each of the H = {H} heads turns every token vector x into a query (what am I looking for?), a key "
            "(what do I offer?) and a value (what do I pass on?), each of D = {D} numbers: Q = x·W_q.",
        ).format(**n) + _normed_x(n)
    raise KeyError(key)


def _attention_sentence(key: str, n: dict) -> str:
    """Attention itself, from the scores to the output projection."""
    if key == "scores":
        return QCoreApplication.translate(
            "Captions",
            "Step 1: every query is compared with every key by a dot product. Cell (i, j) is large when token "
            "i's query points the same way as token j's key. The result is C × C = {C} × {C}.",
        ).format(**n)
    if key == "scaled":
        if not n["scale"]:
            return QCoreApplication.translate(
                "Captions",
                "Scaling is OFF: the scores go on unchanged. As D grows they grow too, softmax saturates to "
                "one-hot rows and learning stalls. Turn scaling on to compare.",
            ).format(**n)
        return QCoreApplication.translate(
            "Captions",
            "The scores are divided by √D = √{D} = {sqrt_D}, so that their spread stays near 1 however large D "
            "is. Without it softmax would saturate.",
        ).format(**n)
    if key == "masked":
        return (
            _mask_sentence(n)
            + " "
            + QCoreApplication.translate("Captions", "e^−∞ = 0, so blocked cells get no weight.")
        )
    if key == "weights":
        return _weights_sentence(n)
    if key == "heads":
        return QCoreApplication.translate(
            "Captions",
            "Step 3: each token's output is the weighted sum of the value vectors, A·V: the tokens it attends "
            "to most contribute most. One result of {D_v} numbers per token and head.",
        ).format(**n)
    if key == "concat":
        return QCoreApplication.translate(
            "Captions",
            "The {H} heads looked for different things; their results are put side by side: {C} × (H·D) = {C} × {HD}.",
        ).format(**n)
    if key == "out":
        if n["unfactored"]:
            return QCoreApplication.translate(
                "Captions",
                "In the single-head, unfactored form there is no W_o: the weighted values already have E = {E} "
                "numbers.",
            ).format(**n)
        return QCoreApplication.translate(
            "Captions",
            "W_o mixes the heads and brings every token back to E = {E} numbers, the width of the residual stream.",
        ).format(**n)
    raise KeyError(key)


def _block_sentence(key: str, n: dict) -> str:
    """The rest of the block, and the next-token guess after the last one."""
    if key == "residual":
        if not n["residual"]:
            return QCoreApplication.translate(
                "Captions", "Residual connections are off: the attention output replaces the token vectors."
            )
        return QCoreApplication.translate(
            "Captions",
            "The attention output is added to the input x: each token keeps what it was and adds what it "
            "gathered from the others.",
        )
    if key == "ffn":
        return QCoreApplication.translate(
            "Captions",
            "A small two-layer network works on each token on its own: widen to F = {F}, a non-linearity, back "
            "to E = {E}.",
        ).format(**n)
    if key == "block":
        return QCoreApplication.translate(
            "Captions",
            "Layer {layer} ends (of L = {L}, counted from 0): the FFN output is added to the stream. The shape "
            "is still C × E = {C} × {E}, so the next layer can repeat the same steps.",
        ).format(**n)
    if key == "logits":
        return QCoreApplication.translate(
            "Captions", "A last matrix turns each token vector into one score per vocabulary entry: C × V = {C} × {V}."
        ).format(**n)
    if key == "probs":
        return QCoreApplication.translate(
            "Captions",
            "Softmax (at temperature {temperature}) turns each row into probabilities: row i is the model's "
            "guess for the token after tokens 0…i.",
        ).format(**n)
    raise KeyError(key)


def tensor_title(name: str) -> str:
    """What a traced tensor is, in words (its public name, e.g. ``layers.0.attn.q``, goes in a tooltip)."""
    import re

    key = re.sub(r"^layers\.\d+\.", "", name)
    titles = {
        "tokens": QCoreApplication.translate("Captions", "token ids"),
        "embed.tok": QCoreApplication.translate("Captions", "token embedding (row id of the table)"),
        "embed.pos": QCoreApplication.translate("Captions", "position embedding"),
        "embed.out": QCoreApplication.translate("Captions", "x = token + position embedding"),
        "attn.in": QCoreApplication.translate("Captions", "what attention reads (after the norm)"),
        "attn.q": QCoreApplication.translate("Captions", "queries Q = x·W_q"),
        "attn.k": QCoreApplication.translate("Captions", "keys K = x·W_k"),
        "attn.v": QCoreApplication.translate("Captions", "values V = x·W_v"),
        "attn.q_rot": QCoreApplication.translate("Captions", "queries after RoPE"),
        "attn.k_rot": QCoreApplication.translate("Captions", "keys after RoPE"),
        "attn.scores": QCoreApplication.translate("Captions", "scores Q·Kᵀ"),
        "attn.scaled": QCoreApplication.translate("Captions", "scaled scores Q·Kᵀ/√D"),
        "attn.masked": QCoreApplication.translate("Captions", "masked scores"),
        "attn.weights": QCoreApplication.translate("Captions", "attention weights A"),
        "attn.heads": QCoreApplication.translate("Captions", "head outputs A·V"),
        "attn.concat": QCoreApplication.translate("Captions", "heads side by side"),
        "attn.out": QCoreApplication.translate("Captions", "attention output ·W_o"),
        "mid": QCoreApplication.translate("Captions", "stream after attention (x + attention)"),
        "ffn.in": QCoreApplication.translate("Captions", "what the FFN reads (after the norm)"),
        "ffn.hidden": QCoreApplication.translate("Captions", "FFN hidden activations"),
        "ffn.out": QCoreApplication.translate("Captions", "FFN output"),
        "out": QCoreApplication.translate("Captions", "block output (residual stream)"),
        "final.out": QCoreApplication.translate("Captions", "stream after the final norm"),
        "logits": QCoreApplication.translate("Captions", "scores over the vocabulary (logits)"),
        "probs": QCoreApplication.translate("Captions", "next-token probabilities"),
    }
    return titles.get(key) or family_tensor_title(key) or name
