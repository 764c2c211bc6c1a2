"""The public Python API (issue 41): traces, figures and the window from a script or a notebook."""
