"""The window itself: the application, the main window, its layout, geometry and fit on the screen, the panel
strips, the status bar, the snapshot banner and `gui --screenshot`."""
