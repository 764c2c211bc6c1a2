"""The window's words: stage titles and captions, the pipeline's edge words, a figure's words, memory sizes, and
outside words kept plain text."""
