"""Plumbing every layer uses: where resources live, safe reading and atomic writing of files, checks
for values read from files, compute devices and memory."""
