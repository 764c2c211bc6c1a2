"""Where a model's numbers come from: random initialisation, shipped presets, checkpoints, importers."""
