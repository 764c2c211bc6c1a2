"""A figure (``scene.Scene``) as SVG, in pure Python: rectangles, lines and text as vector elements (text
stays text: searchable, selectable), a wide map as one PNG picture scaled with nearest-neighbour sampling.

Only what SVG Tiny 1.2 has is used, so Qt's renderer (QtSvg), librsvg (rsvg-convert, GNOME's viewers) and
browsers draw it alike: no patterns, masks, clip paths, filters or CSS; text vertically placed by its
baseline (no dominant-baseline), fonts named by family. Sizes are CSS pixels (1/96 inch): a 160 mm
figure is 604.72px wide, printed at 160 mm.
"""

from __future__ import annotations

import base64

from explorer.handouts.png import crisp_factor, png_bytes, upscaled
from explorer.handouts.scene import FALLBACK_FAMILIES, FONT_FAMILY, MONO_FAMILY, Image, Line, Rect, Scene, Text

_ANCHOR = {"start": "start", "middle": "middle", "end": "end"}
_MONO = ", ".join((MONO_FAMILY, *FALLBACK_FAMILIES[:-1], "monospace"))


def _n(v: float) -> str:
    """A coordinate with two decimals, without trailing zeros."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def escape(text: str) -> str:
    """XML text: markup characters escaped, characters XML 1.0 cannot hold dropped."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch == '"':
            out.append("&quot;")
        elif o < 0x20 and ch not in "\t\n\r" or 0xD800 <= o <= 0xDFFF or o in (0xFFFE, 0xFFFF):
            continue
        else:
            out.append(ch)
    return "".join(out)


def _rect(it: Rect) -> str:
    attrs = f'x="{_n(it.x)}" y="{_n(it.y)}" width="{_n(it.w)}" height="{_n(it.h)}"'
    fill = it.fill or "none"
    if it.stroke:
        return f'<rect {attrs} fill="{fill}" stroke="{it.stroke}" stroke-width="{_n(it.width)}"/>'
    return f'<rect {attrs} fill="{fill}"/>'


def _line(it: Line) -> str:
    return (
        f'<line x1="{_n(it.x1)}" y1="{_n(it.y1)}" x2="{_n(it.x2)}" y2="{_n(it.y2)}" '
        f'stroke="{it.colour}" stroke-width="{_n(it.width)}"/>'
    )


def _text(it: Text) -> str:
    attrs = f'x="{_n(it.x)}" y="{_n(it.y)}" font-size="{_n(it.size)}" fill="{it.colour}"'
    if it.anchor != "start":
        attrs += f' text-anchor="{_ANCHOR[it.anchor]}"'
    if it.bold:
        attrs += ' font-weight="bold"'
    if it.mono:
        attrs += f' font-family="{_MONO}"'
    if it.rotate:
        attrs += f' transform="rotate({_n(it.rotate)} {_n(it.x)} {_n(it.y)})"'
    return f"<text {attrs}>{escape(it.text)}</text>"


def _image(it: Image, inline: bool = False) -> str:
    rows, cols, _ = it.pixels.shape
    # A file enlarges each cell to a block (a viewer may smooth what it scales); a browser honours
    # image-rendering:pixelated, so the notebook's picture keeps one pixel per cell (a 512-token map: 0.1 MB).
    factor = 1 if inline else crisp_factor(max(rows, cols), max(it.w, it.h))
    data = base64.b64encode(png_bytes(upscaled(it.pixels, factor))).decode("ascii")
    link = "href" if inline else "xlink:href"  # SVG 2's href needs no xlink namespace; QtSvg (Tiny 1.2) reads xlink's
    return (
        f'<image x="{_n(it.x)}" y="{_n(it.y)}" width="{_n(it.w)}" height="{_n(it.h)}" preserveAspectRatio="none" '
        f'image-rendering="optimizeSpeed" style="image-rendering:pixelated" {link}="data:image/png;base64,{data}"/>'
    )


# The notebook's SVG (``inline``): the SVG namespace is a name, never fetched, but a renderer that loads the
# output as a picture needs it (VS Code puts it in an <img> as a Blob: without it Chromium shows a broken
# image; JupyterLab adds it when missing). Spelled with a character reference (&#104; is "h"), which every XML
# parser resolves before reading namespaces, so that the output holds no "http" at all: nothing in it reads as
# a URL to a reader, a proxy or a check for outside links.
_FILE_NAMESPACES = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
_INLINE_NAMESPACE = 'xmlns="&#104;ttp://www.w3.org/2000/svg"'


def svg_text(scene: Scene, inline: bool = False) -> str:
    """The scene as a standalone SVG file, or (``inline``) as a notebook's output: no XML declaration, no
    "http", pictures one pixel per cell (see ``_INLINE_NAMESPACE``)."""
    families = ", ".join((FONT_FAMILY, *FALLBACK_FAMILIES))  # unquoted: QtSvg strips quotes only around the whole list
    head = (
        ("" if inline else '<?xml version="1.0" encoding="UTF-8"?>\n')
        + f'<svg {_INLINE_NAMESPACE if inline else _FILE_NAMESPACES} version="1.2" '
        f'baseProfile="tiny" width="{_n(scene.width)}px" height="{_n(scene.height)}px" '
        f'viewBox="0 0 {_n(scene.width)} {_n(scene.height)}" xml:space="preserve">\n'
        f"<title>{escape(scene.title)}</title>\n"
        f'<rect x="0" y="0" width="{_n(scene.width)}" height="{_n(scene.height)}" fill="{scene.background}"/>\n'
        f'<g font-family="{families}">\n'
    )
    body = []
    for it in scene.items:
        if isinstance(it, Rect):
            body.append(_rect(it))
        elif isinstance(it, Line):
            body.append(_line(it))
        elif isinstance(it, Text):
            body.append(_text(it))
        elif isinstance(it, Image):
            body.append(_image(it, inline))
    return head + "\n".join(body) + "\n</g>\n</svg>\n"


def write_svg(scene: Scene, path, error=None) -> None:
    """Write atomically (explorer/util/fileio.py): the old file stays whole if anything fails."""
    from explorer.util.fileio import atomic_path

    data = svg_text(scene).encode("utf-8")
    with atomic_path(path, **({"error": error} if error is not None else {})) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
