"""The Qt layer: the only package that imports PySide6 and pyqtgraph. It renders what the core computes."""
