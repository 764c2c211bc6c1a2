"""Attention Explorer: watch every tensor flow through a Transformer you size yourself.

The package is split in two: a pure core (everything outside ``explorer.ui``) that imports no Qt and
can be tested without a display, and the Qt layer in ``explorer.ui`` that only renders what the core
gives it.
"""

__version__ = "0.1.0"
