"""Pictures and pages without a window: figures, worksheets and lesson slides painted into PNG, SVG or PDF through
the safe writer, and Qt set up for drawing only."""
