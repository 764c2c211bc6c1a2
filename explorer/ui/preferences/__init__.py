"""What the user chooses and the app remembers: the settings file and its schema, language, theme, palette, text
size."""
