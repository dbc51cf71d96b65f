"""Memory Desk writes only what the agent could write.

Permissions refuse nothing to root, which the tests run as: the cases run as the unprivileged
user ``nobody`` (``setpriv``), in real processes (``tests/as_user/``), on folders prepared by
root with files of nobody's and of root's. For each case the same operation is done twice, on
twin folders: by Memory Desk's core, and the agent's own way (``open(path, 'w')`` in place,
``unlink``); the two must agree, except where the agent could write a file that Memory Desk's
replacement would take from its owner.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from memory_desk.core.persona import PersonaFolder
from persona_files import agent_file

HERE = Path(__file__).parent
NOBODY = "nobody"

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="POSIX owners and modes"),
    pytest.mark.skipif(
        not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None,
        reason="needs root to prepare other users' files and setpriv to run as nobody",
    ),
]


def entry(name: str, body: str = "Kept as it was.") -> bytes:
    return agent_file(name, f"About {name}", "2026-01-02T03:04:05.000Z", body)


@pytest.fixture
def base():
    """A folder nobody can reach (pytest's own temporary folders are root's, 0700)."""
    path = Path(tempfile.mkdtemp(prefix="memory-desk-perm-"))
    path.chmod(0o755)
    nobody = pwd.getpwnam(NOBODY)
    home = path / "home"
    home.mkdir()
    os.chown(home, nobody.pw_uid, nobody.pw_gid)
    yield path
    shutil.rmtree(path)


def make_file(folder: Path, name: str, mode: int, owner: str, body: str = "Kept.") -> Path:
    path = folder / f"{name}.md"
    path.write_bytes(entry(name, body))
    user = pwd.getpwnam(owner)
    os.chown(path, user.pw_uid, user.pw_gid)
    path.chmod(mode)
    return path


def make_folder(path: Path, mode: int, owner: str) -> Path:
    path.mkdir(parents=True)
    user = pwd.getpwnam(owner)
    os.chown(path, user.pw_uid, user.pw_gid)
    path.chmod(mode)
    return path


def as_nobody(base: Path, script: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    home = base / "home"
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local/share"),
        "XDG_STATE_HOME": str(home / ".local/state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "QT_QPA_PLATFORM": "offscreen",
        "LANG": "C.UTF-8",
    }
    command = ["setpriv", f"--reuid={NOBODY}", "--regid=nogroup", "--clear-groups"]
    return subprocess.run(
        [*command, sys.executable, str(HERE / "as_user" / script), *args],
        input=stdin,
        env=env,
        cwd=base,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def twin_folders(base: Path) -> dict[str, dict[str, Path]]:
    """For "desk" and "agent": an open folder of nobody's and a sticky shared one of root's."""
    twins = {}
    for who in ("desk", "agent"):
        open_folder = make_folder(base / who / "notes", 0o755, NOBODY)
        make_file(open_folder, "mine", 0o644, NOBODY)
        make_file(open_folder, "read-only", 0o444, NOBODY)
        make_file(open_folder, "roots", 0o644, "root")
        make_file(open_folder, "roots-shared", 0o666, "root")
        sticky = make_folder(base / who / "shared", 0o1777, "root")
        make_file(sticky, "roots", 0o644, "root")
        twins[who] = {"notes": open_folder, "shared": sticky}
    return twins


# (operation, folder, entry, argument)
CASES = [
    ("save", "notes", "mine", "A new body."),
    ("save", "notes", "read-only", "A new body."),
    ("save", "notes", "roots", "A new body."),
    ("save", "notes", "roots-shared", "A new body."),
    ("rename", "notes", "read-only", "still-read-only"),
    ("forget", "notes", "roots", None),
    ("forget", "shared", "roots", None),
]


def test_each_write_is_refused_exactly_when_the_agent_could_not_do_it(base: Path) -> None:
    twins = twin_folders(base)
    before = {p.name: p.read_bytes() for p in twins["desk"]["notes"].iterdir()}
    ops = [
        [who, op, str(twins[who][folder]), name, arg]
        for who in ("desk", "agent")
        for op, folder, name, arg in CASES
    ]

    done = as_nobody(base, "persona_ops.py", stdin=json.dumps(ops))

    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    desk, agent = results[: len(CASES)], results[len(CASES) :]
    outcome = {case[:3]: (d, a) for case, d, a in zip(CASES, desk, agent, strict=True)}
    for case, (d, a) in outcome.items():
        if case[2] != "roots-shared":
            assert d["done"] == a["done"], (case, d, a)
    ok = {case for case, (d, _a) in outcome.items() if d["done"]}
    assert ok == {
        ("save", "notes", "mine"),
        ("rename", "notes", "read-only"),  # a new file, and the old one unlinked
        ("forget", "notes", "roots"),  # unlink needs the folder's permission only
    }
    refused = {
        case[2] if case[1] == "notes" else "sticky": d["error"]
        for case, (d, _a) in outcome.items()
        if not d["done"]
    }
    assert "“read-only” is read-only" in refused["read-only"]
    assert "belongs to another user (root) and you may not write it" in refused["roots"]
    assert "belongs to another user (root): saving would replace it" in refused["roots-shared"]
    assert outcome[("save", "notes", "roots-shared")][1]["done"]  # the agent could, in place
    assert "Operation not permitted" in refused["sticky"]  # the kernel's own word

    notes = twins["desk"]["notes"]
    for name in ("roots-shared.md",):
        assert (notes / name).read_bytes() == before[name]
    assert b"A new body." in (notes / "mine.md").read_bytes()
    renamed = notes / "still-read-only.md"
    assert stat.S_IMODE(renamed.stat().st_mode) == 0o444  # its mode is kept, not widened
    assert sorted(p.name for p in notes.iterdir()) == [
        "mine.md",
        "roots-shared.md",
        "still-read-only.md",
    ]
    assert (twins["desk"]["shared"] / "roots.md").exists()
    assert not [p for p in notes.iterdir() if p.name.startswith(".")]  # no temporary left


def test_the_window_shows_the_refusal_and_keeps_the_persons_text(base: Path) -> None:
    folder = make_folder(base / "notes", 0o755, NOBODY)
    path = make_file(folder, "read-only", 0o444, NOBODY, body="The old body.")
    make_file(folder, "roots", 0o644, "root", body="Root's body.")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}

    for name in ("read-only", "roots"):
        done = as_nobody(base, "persona_window_save.py", str(folder), name, "My careful edit.")

        assert done.returncode == 0, done.stderr
        shown = json.loads(done.stdout.strip().splitlines()[-1])
        assert shown["kind"] == "error", shown
        assert "Nothing was written" in shown["message"]
        assert shown["body"] == "My careful edit."  # still in the editor
        assert shown["save_enabled"]  # unsaved, and saying so
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # nothing changed its permissions


def test_roots_save_keeps_the_owner_of_the_persons_file(tmp_path: Path) -> None:
    """Run with sudo, Memory Desk would make a person's entry root's: its agent locked out."""
    folder = make_folder(tmp_path / "notes", 0o755, NOBODY)
    path = make_file(folder, "theirs", 0o640, NOBODY)
    persona = PersonaFolder(folder, trash=tmp_path / "trash")

    persona.save(dataclasses.replace(persona.read("theirs"), body="Root wrote this."))

    st = path.stat()
    assert b"Root wrote this." in path.read_bytes()
    assert (st.st_uid, st.st_gid) == (pwd.getpwnam(NOBODY).pw_uid, pwd.getpwnam(NOBODY).pw_gid)
    assert stat.S_IMODE(st.st_mode) == 0o640
