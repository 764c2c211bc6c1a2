"""Random initialisation draws a large parameter block by block (explorer/weights/init.py) so that a
1B-parameter model is made without a float64 copy of its largest tensor; the numbers must be those of one
draw of the whole tensor, as before, so that a seed keeps giving the same model."""

from __future__ import annotations

import math

import pytest
import torch

from explorer.weights import init


@pytest.mark.parametrize("extra", [0, 5, 16, 21])  # a last block shorter than 16 is where torch's draw differs
def test_blockwise_draw_equals_one_whole_draw(monkeypatch, extra):
    monkeypatch.setattr(init, "BLOCK", 4096)
    p = torch.empty(3 * 4096 + extra, 1)
    init._normal_into(p, torch.Generator().manual_seed(7), math.sqrt(3.0))
    whole = torch.randn(p.shape, generator=torch.Generator().manual_seed(7), dtype=torch.float64) / math.sqrt(3.0)
    assert torch.equal(p, whole.to(torch.float32))


def test_init_params_draws_each_parameter_as_one_stream(monkeypatch):
    """Two parameters in a row: the second continues the generator exactly where the whole first left it."""
    monkeypatch.setattr(init, "BLOCK", 64)
    model = torch.nn.Module()
    model.tok = torch.nn.Parameter(torch.empty(50, 7))
    model.W_q = torch.nn.Parameter(torch.empty(7, 30))
    init.init_params(model, 5)
    gen = torch.Generator().manual_seed(5)
    tok = torch.randn((50, 7), generator=gen, dtype=torch.float64)
    w_q = torch.randn((7, 30), generator=gen, dtype=torch.float64) / math.sqrt(7)
    assert torch.equal(model.tok, tok.float()) and torch.equal(model.W_q, w_q.float())
