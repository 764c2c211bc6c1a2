"""One step of a number's anatomy, and the one list of step kinds with their English and Japanese labels.

A step is what a teacher writes on the board in one stroke: an operation (``op``, a key of ``OPS``), the
numbers it reads (``operands``), what it gives (``result``) and, inside a sum, the total so far (``running``).
The Qt stepper, the slides and the command line all render these; none of them computes a number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# op → (English, Japanese). The one list: a renderer looks its words up here (or translates the English).
OPS: dict[str, tuple[str, str]] = {
    "vocab_lookup": ("look the piece of text up in the vocabulary: its id", "テキストの断片を語彙で引く: その ID"),
    "embedding_row": ("row id of the embedding table W_E", "埋め込み表 W_E の ID 行"),
    "embed_scale": ("multiply by √E", "√E を掛ける"),
    "segment": ("add the sentence's segment vector", "文のセグメントベクトルを足す"),
    "position": ("add the position's vector", "位置のベクトルを足す"),
    "qk_norm": ("RMS-normalise the query or key", "クエリ・キーの RMS 正規化"),
    "rope": ("rotate by the position (RoPE)", "位置による回転 (RoPE)"),
    "product": ("multiply one pair and add it", "1 組を掛けて足す"),
    "others": ("the other terms, added together", "残りの項の和"),
    "bias": ("add the bias", "バイアスを足す"),
    "scale": ("divide by √D", "√D で割る"),
    "no_scale": ("no division (scaling off)", "割らない (スケーリングなし)"),
    "softcap": ("soft-cap: c·tanh(x / c)", "ソフトキャップ: c·tanh(x / c)"),
    "mask": ("the mask: visible, or −∞", "マスク: 見える、または −∞"),
    "row": ("the row the softmax reads", "ソフトマックスが読む行"),
    "temperature": ("divide the row by the temperature T", "行を温度 T で割る"),
    "max": ("the row's maximum", "行の最大値"),
    "exp": ("e^(x − max), added to the sum", "e^(x − max) を和に足す"),
    "sum": ("the sum of the exponentials", "指数の和"),
    "divide": ("each exponential ÷ the sum", "各指数 ÷ 和"),
    "empty_row": ("every key blocked: the row is all 0", "すべてのキーが遮断: 行はすべて 0"),
    "nonfinite": ("not a number: an input already holds NaN or ±∞", "数ではない: 入力がすでに NaN か ±∞ を含む"),
    "head_term": ("one head's Rʰ · W_oʰ", "1 ヘッドの Rʰ · W_oʰ"),
    "concat_product": ("the same as concat · W_o at once", "concat · W_o で一度に計算しても同じ"),
    "place": ("head h's value placed side by side", "ヘッド h の値を横に並べる"),
    "add": ("add the two vectors' entries", "2 つのベクトルの成分を足す"),
    "no_residual": ("no residual: the sublayer's output goes on", "残差なし: 副層の出力がそのまま進む"),
    "mean": ("the mean of the row", "行の平均"),
    "variance": ("the variance of the row", "行の分散"),
    "mean_square": ("the mean of the squares", "二乗の平均"),
    "normalise": ("normalise this entry", "この成分を正規化"),
    "gamma": ("multiply by the scale γ", "スケール γ を掛ける"),
    "beta": ("add the shift β", "シフト β を足す"),
    "gate_product": ("the gate: multiply one pair and add it", "ゲート: 1 組を掛けて足す"),
    "activation": ("the activation function", "活性化関数"),
    "gate_times_up": ("activated gate × up projection", "活性化したゲート × 上方射影"),
    "contribution": ("this neuron's contribution to the output", "このニューロンの出力への寄与"),
    "cell": ("the value the map shows", "マップに表示される値"),
}


@dataclass(frozen=True)
class Step:
    op: str
    operands: Mapping[str, Any]
    result: Any  # a float, a vector (list of floats) or None
    running: float | None = None  # the total so far, inside a sum
    index: int | None = None  # which term of its sum (d, j, e, n, h): what the shortened form keeps
    extra: Mapping[str, Any] = field(default_factory=dict)  # the final cell's recomputation and exactness

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise KeyError(f"unknown step kind {self.op!r}")

    def label(self, language: str = "en") -> str:
        english, japanese = OPS[self.op]
        return japanese if language == "ja" else english

    def to_json(self, language: str = "en") -> dict[str, Any]:
        out = {
            "op": self.op,
            "label": self.label(language),
            "operands": {k: plain(v) for k, v in self.operands.items()},
            "result": plain(self.result),
            "running": plain(self.running),
        }
        if self.index is not None:
            out["index"] = self.index
        out.update({k: plain(v) for k, v in self.extra.items()})
        return out


def plain(value: Any) -> Any:
    """JSON-safe: numpy scalars and arrays as Python floats and lists (a float32 widens exactly), and −∞,
    ∞, nan as the strings "-inf", "inf", "nan" (strict JSON has no such numbers)."""
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer, int)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        x = float(value)
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    return value
