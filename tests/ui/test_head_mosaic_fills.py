"""The Model view's maps are sized to their panel (issue 38: SmolLM2's 30 layers × 9 heads were 11–14 px maps
in one column a third of a side panel's width): the layers are cut into blocks when that gives larger maps;
every map stays inside the panel, apart from the others, and a click finds its head."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect


@pytest.mark.parametrize("size, layers, heads", [((343, 449), 30, 9), ((420, 700), 12, 12), ((900, 260), 30, 9)])
def test_the_maps_fill_the_panel_and_a_click_finds_each_head(qtbot, size, layers, heads):
    from explorer.ui.views.head_mosaic import HeadMosaic

    mosaic = HeadMosaic()
    qtbot.addWidget(mosaic)
    mosaic.resize(*size)
    mosaic.show()
    qtbot.waitExposed(mosaic)
    mosaic.reset(layers, heads)
    rects = {(l, h): mosaic.head_rect(l, h) for l in range(layers) for h in range(heads)}
    inside = QRect(0, 0, *size)
    covered = 0.0
    for (l, h), r in rects.items():
        assert inside.contains(r.toRect()), (l, h, r)
        assert mosaic.head_at(r.center()) == (l, h)
        covered += r.width() * r.height()
    ordered = sorted(rects.values(), key=lambda r: (r.top(), r.left()))
    for a, b in zip(ordered, ordered[1:]):
        assert not a.intersects(b)
    assert covered >= 0.4 * size[0] * size[1], covered / (size[0] * size[1])  # the maps, not empty panel
