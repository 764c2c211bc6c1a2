"""The menus and the toolbar (File, View, Model, Help), what their entries do with files and models."""
