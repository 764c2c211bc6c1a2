"""What turns a trace into things to show: matrices to draw, the pipeline's stages and their words,
hover arithmetic and parameter tables. Pure Python, no Qt."""
