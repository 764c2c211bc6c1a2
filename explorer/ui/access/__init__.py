"""The window for every student (issue 27): View → Colours / Text size / As table, names for a screen reader, Tab
in screen order, the wheel only for a focused control."""
