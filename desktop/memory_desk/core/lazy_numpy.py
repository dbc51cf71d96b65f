"""numpy, imported when first used rather than when a module that uses it is imported.

numpy holds the id lists of the observations table (the ids of 1,000,000 matches are one
array, parsed in C), but importing it is a good part of a start: the first
rows on screen need none of it (a few hundred ids, see ``ui/observations/model.py``). The
modules of the start path import ``np`` from here; the first attribute read imports numpy
(on whichever thread reads it: the import machinery's lock makes that safe) and keeps the
attribute, so later reads cost what a module attribute costs.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any


class _Numpy:
    """Stands for the numpy module; every attribute comes from numpy itself."""

    def __getattr__(self, name: str) -> Any:
        import numpy

        value = getattr(numpy, name)
        setattr(self, name, value)  # (found directly next time, without this method)
        return value


def load() -> None:
    """Import numpy now (the window does it once its first rows are painted, so that a later
    click does not wait for it)."""
    import numpy  # noqa: F401


def loaded() -> bool:
    """Whether numpy is imported (or being imported) in this process."""
    return "numpy" in sys.modules


if TYPE_CHECKING:
    import numpy as np
else:
    np = _Numpy()
