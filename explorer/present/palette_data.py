"""The colour maps' numbers, sampled at 33 evenly spaced stops (linear interpolation between stops differs
from the published 256-entry tables by less than 1 ΔE2000, below what an eye can tell). Pure data.

Sources: viridis, cividis and inferno (Smith, van der Walt, Nuñez; CC0) and Peter Kovesi's CET maps
(CET-D1 blue–white–red, CET-D1A its darker-ended variant, CET-CBD1 the colour-blind-safe blue–white–yellow;
"Good Colour Maps: How to Design Them", arXiv:1509.03700, CC-BY 4.0), as pyqtgraph ships them.
"""

from __future__ import annotations

import numpy as np


def _stops(text: str) -> np.ndarray:
    """Hex stops (``rrggbb`` words) → (n, 3) float64 sRGB in [0, 1]."""
    words = text.split()
    return np.array([[int(w[i : i + 2], 16) for i in (0, 2, 4)] for w in words], dtype=np.float64) / 255.0


VIRIDIS = _stops("""
    440154 470d60 48186a 482374 472d7b 453681 424086 3f4989 3b528b 375a8d 33638d
    2f6a8e 2c728e 297a8e 26818e 23898e 21908c 1f988b 1f9f88 21a685 28ae80 31b57b
    3ebc74 4cc26c 5dc963 6ece58 82d34c 96d83f abdc32 c0df24 d5e21a eae51a fde725
""")
CIVIDIS = _stops("""
    00204d 00265a 002c68 00306f 05366e 1e3c6d 2c426c 37476b 414d6b 4a536b 52596c
    595e6d 61646f 686a71 6f7073 757676 7c7b78 848279 8c8879 948e78 9c9477 a49b76
    aca174 b4a872 bdaf6f c5b66c cebd68 d7c463 e0cb5e e9d358 f2da50 fbe248 ffea46
""")
INFERNO = _stops("""
    000004 040312 0b0724 150b37 210c4a 2e0a5a 3c0965 4a0c6b 57106d 63146e 70196e
    7d1e6d 89226a 962766 a32b61 af315c bb3755 c63e4d d14644 db4f3b e35932 eb6528
    f1711e f67f14 f98d0a fb9c06 fcab0f fbba1f f9ca32 f5d949 f2e865 f3f586 fcffa4
""")
CET_D1 = _stops("""
    2151db 3e59dd 5262de 626ce0 7075e2 7d7fe3 8988e5 9592e6 a09ce7 aba6e9 b5b0ea
    bfbaeb c9c5ed d3cfee dddaef e6e3ef ede7ea f1e2de f2d6d0 f1cac0 f0beb1 efb1a2
    eda593 ea9885 e78c76 e47f68 e0725a db654d d7573f d14932 cc3924 c62616 c00206
""")
CET_D1A = _stops("""
    172972 1a3289 1d3ba1 2044b9 284ecf 3b59de 5164e6 6571ed 777df4 888af9 9897fc
    a9a5fc b8b3fb c7c2f8 d5d1f6 e2def2 eee3e8 f6dad5 fbc9bf fcb7a8 fda492 fc917c
    f87e68 f16c56 e85b46 de4936 d43527 c81e1a b80710 a4000b 8f0309 7a0606 660702
""")
CET_CBD1 = _stops("""
    3a90fe 5096fd 619cfd 70a1fc 7da7fc 89adfb 94b2fa 9fb8f9 a9bef9 b2c4f8 bccaf7
    c5d1f6 ced7f5 d6ddf4 dfe3f3 e7e9f2 ededed ede9e1 eae3d4 e6ddc6 e2d7b9 ded0ac
    daca9f d6c491 d1be84 cdb877 c8b26a c3ac5d bea650 b9a142 b39b33 ad9522 a89008
""")

# Greyscale for printing: more ink means more (a weight of 1 is black, as on a printed table).
GREYS = _stops("ffffff 000000")
# Signed greyscale: white (most negative) through mid grey (0) to black (most positive): the sign stays
# readable by lightness alone, so a black-and-white printer keeps it.
GREYS_SIGNED = _stops("ffffff 777777 000000")
