"""Memory Desk's own folders are 0700 and its files 0600 whatever the umask; a new persona
entry takes the mode of the folder's existing entries (0600 in an empty folder), never the
umask's.

The umask is the process's: each case runs in a fresh process with its own umask and HOME.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from window_helpers import entry_bytes

UMASKS = [0o000, 0o077, 0o022]

OWN_FILES = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    os.umask(int(sys.argv[1], 8))
    from memory_desk.core import appdirs
    from memory_desk.core.persona import PersonaFolder
    from memory_desk.ui import settings

    for make in (appdirs.settings_dir, appdirs.state_dir, appdirs.data_dir, appdirs.cache_dir,
                 appdirs.trash_dir, appdirs.exports_dir):
        make()
    for open_ini in (settings.app_settings, settings.ui_state):
        ini = open_ini()
        ini.setValue("probe", 1)
        settings.sync_private(ini)
    folder = PersonaFolder(sys.argv[2])
    folder.forget("likes-tea")
    folder.rename(folder.read("name-carmen"), "carmen")
    modes = {}
    for root in (appdirs.settings_dir(), appdirs.state_dir(), appdirs.data_dir(),
                 appdirs.cache_dir()):
        modes[str(root)] = os.stat(root).st_mode
        for path in root.rglob("*"):
            modes[str(path)] = os.lstat(path).st_mode
    print(json.dumps(modes))
    """
)


def run_with_umask(umask: int, *args: str) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", OWN_FILES, oct(umask), *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize("umask", UMASKS, ids=oct)
def test_own_folders_are_0700_and_own_files_0600_whatever_the_umask(
    tmp_path: Path, private_home: Path, umask: int
) -> None:
    memory = tmp_path / "memory"
    memory.mkdir()
    for name in ("likes-tea", "name-carmen"):
        (memory / f"{name}.md").write_bytes(entry_bytes(name))
    for home_dir in (".config", ".local/share", ".local/state", ".cache"):
        (private_home / home_dir).rmdir()  # Memory Desk creates even the XDG folders

    modes = run_with_umask(umask, str(memory))

    folders = {p: stat.S_IMODE(m) for p, m in modes.items() if stat.S_ISDIR(m)}
    files = {p: stat.S_IMODE(m) for p, m in modes.items() if stat.S_ISREG(m)}
    assert {p for p in modes if p.endswith("settings.ini") or p.endswith("ui-state.ini")}
    assert any(p.endswith("likes-tea.md") for p in files)  # in the trash
    assert any(p.endswith("name-carmen.md") for p in files)
    assert {p: m for p, m in folders.items() if m != 0o700} == {}
    assert {p: m for p, m in files.items() if m != 0o600} == {}
    for home_dir in (".config", ".local/share", ".local/state", ".cache"):
        assert stat.S_IMODE((private_home / home_dir).stat().st_mode) == 0o700


CREATE = textwrap.dedent(
    """
    import os, sys
    os.umask(int(sys.argv[1], 8))
    from memory_desk.core.persona import PersonaFolder
    folder = PersonaFolder(sys.argv[2])
    folder.create(name="new-entry", type="user", description="New", body="Text.")
    """
)


def create_with_umask(umask: int, folder: Path) -> int:
    subprocess.run([sys.executable, "-c", CREATE, oct(umask), str(folder)], check=True, timeout=60)
    return stat.S_IMODE((folder / "new-entry.md").stat().st_mode)


def agent_folder(path: Path, modes: list[int]) -> Path:
    """Entries as the agent wrote them under some umask (writeFile: 0666 & ~umask)."""
    path.mkdir()
    for n, mode in enumerate(modes):
        entry = path / f"entry-{n}.md"
        entry.write_bytes(entry_bytes(f"entry-{n}"))
        entry.chmod(mode)
    return path


@pytest.mark.parametrize("umask", [0o000, 0o077], ids=oct)
@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        ([0o644, 0o644], 0o644),  # the agent under umask 022
        ([0o600, 0o600, 0o644], 0o600),  # the most common mode
        ([0o664, 0o640], 0o640),  # a tie: the stricter
        ([0o444], 0o644),  # the person can always write (so can the agent, later)
        ([], 0o600),  # an empty folder: private
    ],
    ids=["agent-0644", "most-common", "tie", "read-only", "empty"],
)
def test_a_new_entry_takes_the_mode_of_the_folders_entries(
    tmp_path: Path, umask: int, existing: list[int], expected: int
) -> None:
    folder = agent_folder(tmp_path / "memory", existing)
    assert create_with_umask(umask, folder) == expected


def test_rename_and_undo_keep_the_files_own_mode(tmp_path: Path) -> None:
    from memory_desk.core.persona import PersonaFolder

    folder = agent_folder(tmp_path / "memory", [0o600, 0o600, 0o640])
    persona = PersonaFolder(folder, trash=tmp_path / "trash")
    renamed = persona.rename(persona.read("entry-2"), "renamed")
    assert stat.S_IMODE(renamed.path.stat().st_mode) == 0o640
    back = persona.undo_rename(renamed, "entry-2")
    assert stat.S_IMODE(back.path.stat().st_mode) == 0o640
    persona.unforget(persona.forget("entry-2"))
    assert stat.S_IMODE((folder / "entry-2.md").stat().st_mode) == 0o640
    assert os.listdir(tmp_path / "trash") == []
