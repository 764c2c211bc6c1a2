"""Attention Explorer: watch every tensor flow through a Transformer you size yourself.

The package is split in two: a pure core (everything outside ``explorer.ui``) that imports no Qt and
can be tested without a display, and the Qt layer in ``explorer.ui`` that only renders what the core
gives it.
"""

import os

# numpy's small matrix work (SVDs of one W_v, the scaling sweep) runs beside torch's own thread pool; with
# OpenBLAS's threads also spinning, a 64×64 SVD took 140 ms instead of 1 ms on a 2-core machine. Set
# before numpy is first imported; a user's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
