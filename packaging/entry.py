"""The bundle's entry point: PyInstaller freezes this script, which starts Memory Desk.

A separate script (instead of ``memory_desk/__main__.py``) keeps the package importable
by its own name inside the bundle, so ``importlib.resources`` finds
``memory_desk.resources`` the same way in a wheel and in the bundle.
"""

import sys

from memory_desk.launch import main

if __name__ == "__main__":
    sys.exit(main())
