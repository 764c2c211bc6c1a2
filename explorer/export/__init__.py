"""Snapshot writers and readers (npz, safetensors, pt) with a JSON manifest."""
