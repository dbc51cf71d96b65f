"""Memory Desk's catalogues, with Qt's own tools.

    python packaging/translations.py update    # collect strings into resources/translations/*.ts
    python packaging/translations.py release   # compile the .ts into .qm files next to them

``update`` runs ``pyside6-lupdate`` over the package: ``translate("Context", "text")`` in the UI
and ``msg("Context", "text")`` in the core (an alias of ``translate``). English is the source
language and needs no catalogue. Then edit the Spanish ``.ts`` with
``pyside6-linguist`` (or by hand) and mark each entry finished.

``release`` is also run by the build (``setup.py``), so wheels and editable installs carry the
``.qm`` files; they are never committed.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "desktop" / "memory_desk"
CATALOGUES = ROOT / "resources" / "translations"
LANGUAGES = ("es",)
ALIAS = "translate+=msg"


def tool(name: str) -> str:
    """``pyside6-<name>`` from this interpreter's environment, else from PATH."""
    beside = Path(sys.executable).parent / f"pyside6-{name}"
    if beside.exists():
        return str(beside)
    found = shutil.which(f"pyside6-{name}")
    if found:
        return found
    # Inside an isolated build, the scripts may not be on PATH: call the module's entry.
    return ""


def _run(name: str, args: list[str]) -> None:
    command = tool(name)
    if command:
        subprocess.run([command, *args], check=True)
    else:
        subprocess.run(
            [
                sys.executable,
                "-c",
                f"from PySide6.scripts.pyside_tool import {name}; {name}()",
                *args,
            ],
            check=True,
        )


def sources() -> list[str]:
    return sorted(str(path) for path in SOURCES.rglob("*.py"))


def literal_calls(root: Path = SOURCES) -> list[tuple[str, str]]:
    """Every ``(context, text)`` of a ``translate(...)`` or ``msg(...)`` call whose first two
    arguments are string literals, found with ``ast``.

    lupdate's Python parser skips a call with a third argument or keywords (``msg("C",
    "{n} rows", n=n)``), so these are also handed to it as plain two-argument calls.
    """
    found: dict[tuple[str, str], None] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first, second = node.args[:2]
            if (
                name in {"translate", "msg"}
                and isinstance(first, ast.Constant)
                and isinstance(second, ast.Constant)
                and isinstance(first.value, str)
                and isinstance(second.value, str)
            ):
                found[(first.value, second.value)] = None
    return list(found)


def lupdate(target: Path, language: str) -> None:
    """Bring ``target`` up to date with the sources (lupdate over them and the literal calls)."""
    with tempfile.TemporaryDirectory() as tmp:
        stub = Path(tmp) / "literal_calls.py"
        stub.write_text(
            "".join(f"translate({c!r}, {t!r})\n" for c, t in literal_calls()), encoding="utf-8"
        )
        _run(
            "lupdate",
            [
                "-silent",
                "-no-obsolete",
                "-locations",
                "none",
                "-tr-function-alias",
                ALIAS,
                "-target-language",
                language,
                *sources(),
                str(stub),
                "-ts",
                str(target),
            ],
        )


def update() -> None:
    for language in LANGUAGES:
        lupdate(CATALOGUES / f"memory_desk_{language}.ts", language)


def release(out_dir: Path | None = None) -> list[Path]:
    """Compile every ``.ts`` into ``out_dir`` (default: beside it); returns the ``.qm`` paths."""
    out_dir = out_dir or CATALOGUES
    out_dir.mkdir(parents=True, exist_ok=True)
    made = []
    for catalogue in sorted(CATALOGUES.glob("memory_desk_*.ts")):
        target = out_dir / catalogue.with_suffix(".qm").name
        _run("lrelease", ["-silent", str(catalogue), "-qm", str(target)])
        made.append(target)
    return made


if __name__ == "__main__":
    action = sys.argv[1] if len(sys.argv) > 1 else ""
    if action == "update":
        update()
    elif action == "release":
        for path in release():
            print(path)
    else:
        print(__doc__)
        sys.exit(2)
