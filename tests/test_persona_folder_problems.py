"""The folder as the agent lists it: what in it makes the agent's whole listing fail, and the fix.

The agent reads every ``<kebab-name>.md`` of its folder at once, following links: a read that
finds no file only drops that entry, any other failure (a folder, a link to a folder, a socket,
a circle of links, no permission) fails the whole list, and a pipe makes it wait for ever.
Each test builds the folder with real files, folders, links, pipes and sockets.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from memory_desk.core import ConflictError, StoreError, folder_stats
from memory_desk.core.persona import (
    FolderProblem,
    PersonaFolder,
    listing_failure,
    prompt_section,
)
from memory_desk.core.persona.folder_problems import listing_problems
from memory_desk.ui.persona.listing import list_folder
from persona_corpus import build_corpus, snapshot
from test_ui_persona import write_entry

CANNOT_READ = "the agent cannot read its memory at all while this is here"
posix_only = pytest.mark.skipif(os.name != "posix", reason="links, pipes and sockets")


@pytest.fixture
def memory(tmp_path: Path) -> Path:
    """A folder the agent wrote two entries into."""
    folder = tmp_path / ".miyagi" / "memory"
    folder.mkdir(parents=True)
    write_entry(folder, "likes-tea", "Drinks green tea", updated="2026-08-01T08:00:00.000Z")
    write_entry(folder, "no-fish-puns", "No fish puns", updated="2026-10-07T13:15:05.678Z")
    return folder


@pytest.fixture
def unix_socket(memory: Path) -> Iterator[Path]:
    path = memory / "agent-socket.md"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    yield path
    server.close()


def _problems(memory: Path) -> list[FolderProblem]:
    """The folder's problems, the same whether it is listed for them, taken from a pass over
    it made for the page's listing (memory_desk.core.folder_stats), or found by the page's
    listing (which does not ask again about the files it has just read)."""
    listed = PersonaFolder(memory).problems()
    assert listing_problems(memory, folder_stats.take(memory)) == listed
    assert list_folder(PersonaFolder(memory), None).problems == listed
    return listed


def _codes(memory: Path) -> list[tuple[str, str]]:
    return [(p.path.name, p.code) for p in _problems(memory)]


# -- what the agent reads or skips without failing -----------------------------------------------


@posix_only
def test_a_healthy_folder_has_no_problems_whatever_else_it_holds(
    memory: Path, tmp_path: Path
) -> None:
    (memory / "Archive Old.md").mkdir()  # not kebab-case: the agent never reads it
    (memory / "account").mkdir()  # another account's memory
    (memory / ".hidden.md").mkdir()
    (memory / "notes.txt").write_text("x")
    (memory / "gone.md").symlink_to(memory / "nothing-there.md")  # the agent skips it
    (tmp_path / "elsewhere.md").write_text("---\ndescription: outside\n---\n\nx\n")
    (memory / "outside.md").symlink_to(tmp_path / "elsewhere.md")  # read through the link
    os.mkfifo(memory / "Not Kebab.md")
    assert _problems(memory) == []
    assert listing_failure([]) is None


# -- what makes the agent's whole listing fail ---------------------------------------------------


def test_a_folder_named_like_an_entry_stops_the_agent_reading_its_memory(memory: Path) -> None:
    (memory / "archive.md").mkdir()
    (memory / "archive.md" / "old-entry.md").write_text("kept as it is")
    (problem,) = _problems(memory)
    assert (problem.path, problem.code) == (memory / "archive.md", "folder-named-like-entry")
    assert CANNOT_READ in problem.message and "“archive.md” is a folder" in problem.message
    assert problem.fix_id == "rename-aside" and problem.fix_label == "Rename it to “archive”"
    assert not problem.hangs
    # the listing itself still shows every entry the folder holds (the banner says the rest)
    assert {e.name for e in PersonaFolder(memory).entries()} == {"likes-tea", "no-fish-puns"}


@posix_only
def test_a_link_named_like_an_entry_to_a_folder_stops_the_agent(
    memory: Path, tmp_path: Path
) -> None:
    target = tmp_path / "shared"
    target.mkdir()
    (memory / "shared-notes.md").symlink_to(target)
    (problem,) = _problems(memory)
    assert problem.code == "link-to-folder" and CANNOT_READ in problem.message
    assert str(target) in problem.message


@posix_only
def test_a_circle_of_links_stops_the_agent(memory: Path) -> None:
    (memory / "loop-a.md").symlink_to(memory / "loop-b.md")
    (memory / "loop-b.md").symlink_to(memory / "loop-a.md")
    assert _codes(memory) == [("loop-a.md", "link-loop"), ("loop-b.md", "link-loop")]
    entries = {e.name: e for e in PersonaFolder(memory).entries()}
    assert {p.code for p in entries["loop-a"].problems} == {"link-loop"}
    assert not entries["loop-a"].editable and not entries["loop-a"].agent_visible


@posix_only
def test_a_pipe_makes_the_agent_wait_for_ever(memory: Path) -> None:
    os.mkfifo(memory / "incoming.md")
    (problem,) = _problems(memory)
    assert problem.code == "pipe" and problem.hangs
    assert "waits for ever" in problem.message
    assert "never ends" in listing_failure([problem])


@posix_only
def test_a_socket_stops_the_agent(memory: Path, unix_socket: Path) -> None:
    (problem,) = _problems(memory)
    assert (problem.path, problem.code) == (unix_socket, "not-a-file")
    assert CANNOT_READ in problem.message


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads everything")
def test_an_entry_the_agent_may_not_read_stops_the_agent(memory: Path) -> None:
    (memory / "likes-tea.md").chmod(0)
    (problem,) = _problems(memory)
    assert problem.code == "unreadable-entry" and CANNOT_READ in problem.message


def test_the_corpus_folder_and_pipe_are_folder_problems(tmp_path: Path) -> None:
    build_corpus(tmp_path / "memory", tmp_path / "elsewhere")
    codes = {p.path.name: p.code for p in _problems(tmp_path / "memory")}
    expected = {"folder-named.md": "folder-named-like-entry"}
    if hasattr(os, "mkfifo"):
        expected["a-fifo.md"] = "pipe"
    assert codes == expected


def test_the_listing_failure_names_every_problem_instead_of_a_list(memory: Path) -> None:
    (memory / "archive.md").mkdir()
    (memory / "old.md").mkdir()
    problems = _problems(memory)
    failure = listing_failure(problems)
    assert failure.startswith("The agent gets no memory section at the moment.")
    assert all(p.message in failure for p in problems) and len(problems) == 2
    assert "likes-tea" not in failure  # no list the agent will not get
    assert "- likes-tea (user)" in prompt_section(PersonaFolder(memory).entries())


# -- the fix --------------------------------------------------------------------------------------


def test_the_fix_renames_the_folder_to_a_free_name_and_undo_puts_it_back(memory: Path) -> None:
    (memory / "archive.md").mkdir()
    (memory / "archive.md" / "old-entry.md").write_text("kept as it is")
    (memory / "archive").write_text("a file already called archive")
    inside = snapshot(memory / "archive.md")
    entries_before = (memory / "likes-tea.md").read_bytes(), (memory / "archive").read_bytes()
    folder = PersonaFolder(memory)
    (problem,) = folder.problems()
    assert problem.fix_label == "Rename it to “archive-2”"
    done = folder.fix_folder_problem(problem)
    assert done.moved_to == memory / "archive-2" and not (memory / "archive.md").exists()
    inside.pop(".")  # the folder's own times change with its name
    moved = snapshot(memory / "archive-2")
    moved.pop(".")
    assert moved == inside
    assert folder.problems() == []
    assert ((memory / "likes-tea.md").read_bytes(), (memory / "archive").read_bytes()) == (
        entries_before
    )
    folder.undo_folder_fix(done)
    assert (memory / "archive.md" / "old-entry.md").read_text() == "kept as it is"
    assert not (memory / "archive-2").exists()
    assert [p.code for p in folder.problems()] == ["folder-named-like-entry"]


@posix_only
def test_the_fix_renames_a_link_never_what_it_points_to(memory: Path, tmp_path: Path) -> None:
    target = tmp_path / "shared"
    target.mkdir()
    (target / "x.md").write_text("x")
    (memory / "shared.md").symlink_to(target)
    folder = PersonaFolder(memory)
    done = folder.fix_folder_problem(folder.problems()[0])
    assert (memory / "shared").is_symlink() and os.readlink(memory / "shared") == str(target)
    assert (target / "x.md").read_text() == "x" and folder.problems() == []
    folder.undo_folder_fix(done)
    assert (memory / "shared.md").is_symlink()


@posix_only
def test_the_fix_renames_a_pipe_aside(memory: Path) -> None:
    os.mkfifo(memory / "incoming.md")
    folder = PersonaFolder(memory)
    folder.fix_folder_problem(folder.problems()[0])
    assert (memory / "incoming").is_fifo() and folder.problems() == []


def test_a_fix_for_a_problem_that_went_away_changes_nothing(memory: Path) -> None:
    (memory / "archive.md").mkdir()
    folder = PersonaFolder(memory)
    (problem,) = folder.problems()
    (memory / "archive.md").rmdir()
    listing = sorted(os.listdir(memory))
    with pytest.raises(ConflictError):
        folder.fix_folder_problem(problem)
    assert sorted(os.listdir(memory)) == listing


def test_undo_never_renames_over_something_new(memory: Path) -> None:
    (memory / "archive.md").mkdir()
    folder = PersonaFolder(memory)
    done = folder.fix_folder_problem(folder.problems()[0])
    (memory / "archive.md").write_text("the agent wrote an entry of that name meanwhile")
    with pytest.raises(ConflictError):
        folder.undo_folder_fix(done)
    assert (memory / "archive.md").read_text().startswith("the agent wrote")
    assert (memory / "archive").is_dir()
    shutil.rmtree(memory / "archive")
    (memory / "archive.md").unlink()
    with pytest.raises(StoreError):
        folder.undo_folder_fix(done)  # nothing left to put back


# -- the agent's own reading, checked with Node's fs (the agent is a Node program) ---------------

# The agent's list(): readdir, keep kebab-case .md names, read them all at once; "ENOENT" drops
# one entry, any other error fails the list. Prints "ok N" or "fail CODE".
AGENT_LIST_JS = """
const fs = require("fs/promises"), path = require("path");
const dir = process.argv[1];
(async () => {
  const names = (await fs.readdir(dir)).filter((f) => f.endsWith(".md"))
    .map((f) => f.slice(0, -3)).filter((n) => /^[a-z0-9]+(-[a-z0-9]+)*$/.test(n));
  const read = await Promise.all(names.map(async (n) => {
    try { return await fs.readFile(path.join(dir, n + ".md"), "utf8"); }
    catch (e) { if (e.code === "ENOENT") return null; throw e; }
  }));
  console.log("ok " + read.filter((x) => x !== null).length);
})().catch((e) => console.log("fail " + e.code));
"""


@posix_only
@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the agent's reads")
@pytest.mark.parametrize("culprit", ["none", "folder", "link-to-folder", "loop", "socket"])
def test_problems_are_exactly_what_fails_nodes_reading_of_the_folder(
    memory: Path, tmp_path: Path, culprit: str
) -> None:
    (memory / "gone.md").symlink_to(memory / "nothing.md")  # ENOENT: dropped, not a failure
    (memory / "Upper Case.md").mkdir()  # not kebab-case: never read
    server = None
    if culprit == "folder":
        (memory / "archive.md").mkdir()
    elif culprit == "link-to-folder":
        (memory / "shared.md").symlink_to(tmp_path)
    elif culprit == "loop":
        (memory / "loop.md").symlink_to(memory / "loop.md")
    elif culprit == "socket":
        server = socket.socket(socket.AF_UNIX)
        server.bind(str(memory / "sock.md"))
    try:
        run = subprocess.run(
            ["node", "-e", AGENT_LIST_JS, str(memory)],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        problems = _problems(memory)
    finally:
        if server is not None:
            server.close()
    node_says = run.stdout.strip()
    assert node_says.startswith("fail") == bool(problems), (node_says, problems)
    if not problems:
        assert node_says == "ok 2"
