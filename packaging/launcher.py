"""Entry script of the PyInstaller bundle: the ``attention-explorer`` command (``gui`` when run without one)."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen child process must not rerun the CLI
    from explorer.cli import main

    sys.exit(main())
