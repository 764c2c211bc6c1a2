"""Teaching with the window: lessons played (menu, bar, full screen), presentation mode, focus mode."""
