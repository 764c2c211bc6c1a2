"""The window's panels: each renders what the state and its trace give it; views never call each other."""
