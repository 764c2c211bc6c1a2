"""The attention map and its parts: the heatmap, its axes, image layers and cell numbers, the keyboard's cell and
the table view, the grid of heads, laid out before it is painted."""
