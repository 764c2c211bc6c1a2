"""Text in and tokens out: the text box and its token chips, the inline editor, the language hint, the selected
token, the next token's bars (and both runs' bars side by side)."""
