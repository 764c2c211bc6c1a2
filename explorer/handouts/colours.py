"""The colours of a figure, the same as the window's maps: viridis for values ≥ 0, the diverging CET-D1
(blue–white–red, centred on 0 by symmetric levels) for signed values, a grey with dark hatching for the
cells the mask blocks, and the two themes' paper and ink.

The lookup tables are pyqtgraph's own 256-entry tables of those maps, written out here so that the core
draws without Qt (tests/ui/test_figure_colours.py checks that they still agree with pyqtgraph's). A value
maps to a table entry as pyqtgraph's ImageItem maps it: ⌊(v − lo) · 256 / (hi − lo)⌋, clipped to 0…255.
Colour data: viridis (CC0, van der Walt and Smith); CET-D1 (CC-BY 4.0, Peter Kovesi, colorcet.com).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

_VIRIDIS = (
    "44015444025645045745055946075a46085c460a5d460b5e470d60470e61471063471164471365481467481668481769"
    "48186a481a6c481b6d481c6e481d6f481f70482071482173482374482475482576482677482878482979472a7a472c7a"
    "472d7b472e7c472f7d46307e46327e46337f463480453581453781453882443983443a83443b84433d84433e85423f85"
    "4240864241864142874144874045884046883f47883f48893e49893e4a893e4c8a3d4d8a3d4e8a3c4f8a3c508b3b518b"
    "3b528b3a538b3a548c39558c39568c38588c38598c375a8c375b8d365c8d365d8d355e8d355f8d34608d34618d33628d"
    "33638d32648e32658e31668e31678e31688e30698e306a8e2f6b8e2f6c8e2e6d8e2e6e8e2e6f8e2d708e2d718e2c718e"
    "2c728e2c738e2b748e2b758e2a768e2a778e2a788e29798e297a8e297b8e287c8e287d8e277e8e277f8e27808e26818e"
    "26828e26828e25838e25848e25858e24868e24878e23888e23898e238a8d228b8d228c8d228d8d218e8d218f8d21908d"
    "21918c20928c20928c20938c1f948c1f958b1f968b1f978b1f988b1f998a1f9a8a1e9b8a1e9c891e9d891f9e891f9f88"
    "1fa0881fa1881fa1871fa28720a38620a48621a58521a68522a78522a88423a98324aa8325ab8225ac8226ad8127ad81"
    "28ae8029af7f2ab07f2cb17e2db27d2eb37c2fb47c31b57b32b67a34b67935b77937b87838b9773aba763bbb753dbc74"
    "3fbc7340bd7242be7144bf7046c06f48c16e4ac16d4cc26c4ec36b50c46a52c56954c56856c66758c7655ac8645cc863"
    "5ec96260ca6063cb5f65cb5e67cc5c69cd5b6ccd5a6ece5870cf5773d05675d05477d1537ad1517cd2507fd34e81d34d"
    "84d44b86d54989d5488bd6468ed64590d74393d74195d84098d83e9bd93c9dd93ba0da39a2da37a5db36a8db34aadc32"
    "addc30b0dd2fb2dd2db5de2bb8de29bade28bddf26c0df25c2df23c5e021c8e020cae11fcde11dd0e11cd2e21bd5e21a"
    "d8e219dae319dde318dfe318e2e418e5e419e7e419eae51aece51befe51cf1e51df4e61ef6e620f8e621fbe723fde725"
)
_CET_D1 = (
    "2151db2552db2a53db2e54dc3155dc3556dc3857dc3b58dc3e5add415bdd435cdd465ddd485ede4b5fde4d60de5061de"
    "5262de5464df5665df5866df5a67df5c68df5e6ae0606be0626ce0646de0666ee0686fe16970e16b72e16d73e16f74e1"
    "7075e27276e27478e27579e2777ae2797be37a7ce37c7de37d7fe37f80e38181e38282e48484e48585e48786e48887e4"
    "8a88e58b8ae58d8be58e8ce5908ee6918fe69290e69491e69592e69794e69895e79a96e79b97e79c98e79e9ae79f9be7"
    "a09ce8a29ee8a39fe8a4a0e8a6a1e8a7a3e8a8a4e9aaa5e9aba7e9aca8e9aea9e9afaae9b0aceab2adeab3aeeab4afea"
    "b6b1eab7b2eab8b3ebb9b5ebbbb6ebbcb7ebbdb8ebbebaebc0bbebc1bcecc2bdecc3bfecc5c0ecc6c2ecc7c3ecc8c4ec"
    "cac5edcbc7edccc8edcdc9edcfcbedd0ccedd1cdedd2cfeed3d0eed5d1eed6d3eed7d4eed8d5eedad6eedbd8eedcd9ee"
    "dddbefdedcefe0ddefe1deefe2dfefe3e1efe4e2efe5e3efe6e4eee8e5eee9e6eeeae6edeae7edebe7ecece7ebede7ea"
    "eee7e9eee7e8efe7e7efe6e6f0e5e4f0e4e2f1e3e1f1e2dff1e1def1e0dcf1dedaf1ddd8f2dcd6f2dad4f2d8d2f2d7d0"
    "f2d5cff2d4cdf2d2caf2d1c9f2cfc7f1cec5f1ccc3f1cac1f1c9bff1c7bdf1c6bbf1c4b9f1c3b7f1c1b6f1c0b4f0beb2"
    "f0bdb0f0bbaef0b9acf0b8aaf0b6a8efb5a7efb3a4efb2a3efb0a1eeaf9feead9deeac9beeaa99eda897eda796eda594"
    "eda492eca290eca18eec9f8deb9e8beb9c89eb9a87ea9985ea9783ea9682e99480e9937ee9917ce88f7ae88e79e78c77"
    "e78b75e78973e68771e68670e5846ee5836ce4816ae48069e37e67e37c65e27b63e27962e17860e1765ee0745ce0735b"
    "df7159df6f57de6e55de6c54dd6b52dd6950dc674fdb654ddb644bda6249da6048d95f46d85d44d85b43d75a41d7583f"
    "d6563dd5543cd5523ad45139d34f37d34d35d24b34d14932d14730d0452ecf442dcf422bce3f29cd3d28cd3b26cc3924"
    "cb3722ca3521ca321fc9301dc82e1cc82b1ac72918c62616c52314c52012c41c10c3180ec2140cc2100ac10908c00206"
)

MASK_FILL = "#c8c8cc"  # (200, 200, 204): the window's −∞ overlay
MASK_HATCH = "#5a5a60"  # (90, 90, 96): its hatching
DARK_TEXT_ABOVE = 0.55  # cell numbers are dark on colours brighter than this (luminance), light below


@lru_cache(maxsize=2)
def lookup_table(signed: bool) -> np.ndarray:
    """(256, 3) uint8: the colour map's table."""
    text = "".join(_CET_D1 if signed else _VIRIDIS)
    return np.frombuffer(bytes.fromhex(text), dtype=np.uint8).reshape(256, 3)


def colour_indices(values: np.ndarray, levels: tuple[float, float]) -> np.ndarray:
    """Each value's entry of the table, as pyqtgraph picks it (non-finite values take entry 0)."""
    lo, hi = float(levels[0]), float(levels[1])
    scale = 256.0 / ((hi - lo) or 1.0)
    v = np.where(np.isfinite(values), np.asarray(values, dtype=np.float64), lo)
    return np.clip(np.floor((v - lo) * scale), 0, 255).astype(np.intp)


def colours(values: np.ndarray, levels: tuple[float, float], signed: bool) -> np.ndarray:
    """(…, 3) uint8 colours of ``values`` on the map."""
    return lookup_table(signed)[colour_indices(values, levels)]


def hex_colour(rgb) -> str:
    return "#%02x%02x%02x" % (int(rgb[0]), int(rgb[1]), int(rgb[2]))


def dark_text(rgb: np.ndarray) -> np.ndarray:
    """True where a number printed on this colour should be dark (the window's rule, on 0…1 channels)."""
    f = np.asarray(rgb, dtype=np.float64) / 255.0
    return (0.299 * f[..., 0] + 0.587 * f[..., 1] + 0.114 * f[..., 2]) > DARK_TEXT_ABOVE


@dataclass(frozen=True)
class Theme:
    paper: str
    ink: str  # text and axes
    faint: str  # secondary text (the shapes line, notes)
    axis: str


THEMES = {
    "light": Theme(paper="#ffffff", ink="#000000", faint="#555555", axis="#444444"),
    "dark": Theme(paper="#252528", ink="#e6e6e6", faint="#aaaaaa", axis="#bbbbbb"),  # the window's dark palette
}


def theme(name: str) -> Theme:
    return THEMES[name]
