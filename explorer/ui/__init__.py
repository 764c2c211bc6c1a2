"""The Qt layer: the only package that imports PySide6 and pyqtgraph. It renders what the core computes."""

from explorer.ui.background.pyside_import_check import install as _install_quick_import_check

_install_quick_import_check()  # before any PySide6.QtCore import below this package
