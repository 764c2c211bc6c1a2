"""Pure numpy analyses behind the window's explanation panels (identities, scaling, painted masks).

No Qt here: the panels only format what these functions return, and tests/core checks the numbers.
"""
