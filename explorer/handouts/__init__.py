"""Hand-outs: figures at print quality, lesson pages and worksheets, without Qt.

A figure is a ``Scene`` of primitives (``scene.py``) built from a Trace and a selection
(``stage_figure.py``, drawing maps with ``map_layout.py`` / ``map_draw.py``); ``svg.py`` writes it as SVG in
pure Python, and the Qt layer (explorer/ui/printing/figure_paint.py) paints the same scene into PNG and PDF.
"""
