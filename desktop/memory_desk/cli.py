"""Command-line parsing, in one place for ``main()``, ``create_main_window`` and the tests."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from memory_desk import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memory-desk",
        description="Review, prune and hand-edit the memories your AI agents keep.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="open this Alisio memory.sqlite instead of the one found automatically",
    )
    parser.add_argument(
        "--persona",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="open this agent memory folder (repeatable)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open a demo built in a temporary folder instead of real stores",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "es"),
        help="show Memory Desk in English or Spanish (default: the setting, else the system's)",
    )
    parser.add_argument(
        "--theme",
        choices=("system", "light", "dark"),
        help="light or dark colours (default: the setting, else the system's)",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="open the window offscreen on a demo, exercise it, print what was checked",
    )
    parser.add_argument(
        "--install-desktop-entry",
        action="store_true",
        help="add Memory Desk's launcher and icons to your desktop's menu",
    )
    parser.add_argument(
        "--uninstall-desktop-entry",
        action="store_true",
        help="remove the launcher and icons added by --install-desktop-entry",
    )
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the arguments after the program name; exits on --help/--version/errors."""
    return build_parser().parse_args(list(argv))
