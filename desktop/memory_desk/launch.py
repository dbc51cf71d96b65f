"""The ``memory-desk`` command (and ``python -m memory_desk``): what to run for these flags.

``--self-test`` runs :mod:`memory_desk.selftest`, which builds the window through
:mod:`memory_desk.app` the way a person's start does; everything else is
:func:`memory_desk.app.main`. The choice is made here, above both, so that the app never
imports its own test: the self-test imports the app, not the other way round.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from memory_desk.cli import parse_args

# The journal's first look in a child process (memory_desk.core.journal.first_look.FLAG):
# its arguments are not the person's flags, so they are handed to the app unparsed.
_FIRST_LOOK_FLAG = "--journal-first-look"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the self-test or the app; the exit code of whichever ran."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # --help, --version and bad flags end here, before Qt starts, as in the app
    if argv[:1] != [_FIRST_LOOK_FLAG] and parse_args(argv).self_test:
        from memory_desk.selftest import main as self_test_main

        return self_test_main()
    from memory_desk.app import main as app_main

    return app_main(argv)
