"""The Transformer as plain nn.Modules, one small module per idea of the lecture note."""

from explorer.model.attention import MultiHeadAttention, attention_maps
from explorer.model.capture import CaptureSink, capturing
from explorer.model.mask import build_mask
from explorer.model.transformer import Transformer

__all__ = ["Transformer", "MultiHeadAttention", "attention_maps", "CaptureSink", "capturing", "build_mask"]
